/* import.h: the document's queries (buffers, nodes, bone names, skins and
 * skeletons, animations, meshes, morph weights). A NULL or closing document
 * reads as empty. */
#include <string.h>

#include "lib/anim/src/import/gltf/gltf_internal.h"

uint32_t maniGltf_GetBufferCount(const maniGltf* g) { return mani_GltfLive(g) ? g->bufferCount : 0; }

const char* maniGltf_GetBufferUri(const maniGltf* g, uint32_t buffer, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = 0;
    if (!mani_GltfLive(g) || buffer >= g->bufferCount) return NULL;
    const mani_GltfBuffer* b = &g->buffers[buffer];
    if (b->kind != mani_gltfBufferExternal) return NULL;
    if (lengthOut != NULL) *lengthOut = b->uri.length;
    return b->uri.text;
}

uint32_t maniGltf_GetSkeletonCount(const maniGltf* g) { return mani_GltfLive(g) ? g->skeletonCount : 0; }

uint32_t maniGltf_GetSkinCount(const maniGltf* g) { return mani_GltfLive(g) ? g->skinCount : 0; }

uint32_t maniGltf_GetSkinSkeleton(const maniGltf* g, uint32_t skin) {
    if (!mani_GltfLive(g) || skin >= g->skinCount) return UINT32_MAX;
    return g->skins[skin].skeleton;
}

uint32_t maniGltf_GetNodeCount(const maniGltf* g) { return mani_GltfLive(g) ? g->nodeCount : 0; }

const char* maniGltf_GetNodeBoneName(const maniGltf* g, uint32_t node, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = 0;
    if (!mani_GltfLive(g) || node >= g->nodeCount) return NULL;
    if (lengthOut != NULL) *lengthOut = g->nodes[node].boneName.length;
    return g->nodes[node].boneName.text;
}

uint32_t maniGltf_GetRenamedCount(const maniGltf* g) { return mani_GltfLive(g) ? g->renamedCount : 0; }

uint32_t maniGltf_GetRenamedNode(const maniGltf* g, uint32_t index) {
    if (!mani_GltfLive(g) || index >= g->renamedCount) return UINT32_MAX;
    return g->renamed[index];
}

uint32_t maniGltf_GetAnimationCount(const maniGltf* g) { return mani_GltfLive(g) ? g->animationCount : 0; }

const char* maniGltf_GetAnimationName(const maniGltf* g, uint32_t animation, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = 0;
    if (!mani_GltfLive(g) || animation >= g->animationCount) return NULL;
    if (lengthOut != NULL) *lengthOut = g->animations[animation].name.length;
    return g->animations[animation].name.text;
}

uint32_t maniGltf_GetMeshCount(const maniGltf* g) { return mani_GltfLive(g) ? g->meshCount : 0; }

uint32_t maniGltf_GetPrimitiveCount(const maniGltf* g, uint32_t mesh) {
    if (!mani_GltfLive(g) || mesh >= g->meshCount) return 0;
    return g->meshes[mesh].primitiveCount;
}

uint32_t maniGltf_GetPrimitiveTargetCount(const maniGltf* g, uint32_t mesh, uint32_t primitive) {
    if (!mani_GltfLive(g) || mesh >= g->meshCount || primitive >= g->meshes[mesh].primitiveCount) return 0;
    return g->primitives[g->meshes[mesh].primitiveStart + primitive].targetCount;
}

uint32_t maniGltf_GetNodeMesh(const maniGltf* g, uint32_t node) {
    if (!mani_GltfLive(g) || node >= g->nodeCount) return UINT32_MAX;
    return g->nodes[node].mesh;
}

uint32_t maniGltf_GetNodeSkin(const maniGltf* g, uint32_t node) {
    if (!mani_GltfLive(g) || node >= g->nodeCount) return UINT32_MAX;
    return g->nodes[node].skin;
}

int mani_GltfSkeletonHasNode(const maniGltf* g, uint32_t skeleton, uint32_t node) {
    if (!mani_GltfLive(g) || skeleton >= g->skeletonCount || node >= g->nodeCount) return 0;
    return g->nodes[node].skeleton == skeleton;
}

maniImportResult maniGltf_GetMorphWeights(const maniGltf* g, uint32_t node, float* weightsOut, uint32_t capacity,
                                          uint32_t* countOut) {
    if (!mani_GltfLive(g) || (weightsOut == NULL && capacity > 0) || node >= g->nodeCount ||
        g->nodes[node].mesh == MANI_GLTF_NONE)
        return mani_GltfResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    const mani_GltfNode* n = &g->nodes[node];
    const mani_GltfMesh* m = &g->meshes[n->mesh];
    uint32_t count = g->primitives[m->primitiveStart].targetCount;
    if (count == 0) return mani_GltfResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    uint32_t array = n->weightsToken;
    uint64_t item = node;
    if (array == MANI_GLTF_NONE) {
        array = m->weightsToken;
        item = n->mesh;
    }
    if (array != MANI_GLTF_NONE) {
        const mcore_JsonToken* t = mcore_JsonAt(&g->json, array);
        if (t->count != count)
            return mani_GltfResult(mani_errorFormat, maniImportReasonProperty, item, mani_GltfTokenOffset(g, array));
        uint32_t it = array + 1;
        for (uint32_t i = 0; i < count; i++, it = mcore_JsonAt(&g->json, it)->next) {
            float v;
            if (mani_GltfTokenFloat(g, it, &v) != mcore_jsonOk)
                return mani_GltfResult(mani_errorFormat, maniImportReasonProperty, item, mani_GltfTokenOffset(g, it));
        }
    }
    if (countOut != NULL) *countOut = count;
    if (capacity < count) {
        if (capacity > 0) memset(weightsOut, 0, (size_t)capacity * sizeof(float));
        return mani_GltfResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    }
    if (array == MANI_GLTF_NONE) {
        memset(weightsOut, 0, (size_t)count * sizeof(float));
    } else {
        uint32_t it = array + 1;
        for (uint32_t i = 0; i < count; i++, it = mcore_JsonAt(&g->json, it)->next)
            (void)mani_GltfTokenFloat(g, it, &weightsOut[i]);
    }
    return mani_GltfResult(mani_success, maniImportReasonNone, 0, 0);
}
