/* The document queries of the glTF builders (gltf_build_internal.h), over
 * the tables maniOpenGltf checked (gltf_internal.h). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/import/gltf/gltf_build_internal.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"

uint32_t mani_GbNodeParent(const maniGltf* g, uint32_t node) {
    return mani_GltfLive(g) && node < g->nodeCount ? g->nodes[node].parent : MANI_GB_NONE;
}

uint32_t mani_GbNodeChildCount(const maniGltf* g, uint32_t node) {
    return mani_GltfLive(g) && node < g->nodeCount ? g->nodes[node].childCount : 0;
}

uint32_t mani_GbNodeChild(const maniGltf* g, uint32_t node, uint32_t index) {
    if (!mani_GltfLive(g) || node >= g->nodeCount || index >= g->nodes[node].childCount) return MANI_GB_NONE;
    return g->children[g->nodes[node].childStart + index];
}

void mani_GbNodeTrs(const maniGltf* g, uint32_t node, double t[3], double q[4], double s[3]) {
    const mani_GltfNode* n = &g->nodes[node];
    for (int i = 0; i < 3; ++i) {
        t[i] = n->translation[i];
        s[i] = n->scale[i];
    }
    for (int i = 0; i < 4; ++i) q[i] = n->rotation[i];
}

int mani_GbNodeLocal(const maniGltf* g, uint32_t node, mani_GbXf* out, int* isMatrix) {
    const mani_GltfNode* n = &g->nodes[node];
    *isMatrix = n->hasMatrix != 0;
    if (n->hasMatrix) {
        const float* m = n->matrix;
        for (int k = 0; k < 16; ++k)
            if (!isfinite(m[k])) return 0;
        if (m[3] != 0.0f || m[7] != 0.0f || m[11] != 0.0f || m[15] != 1.0f) return 0;
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) out->l[3 * c + r] = m[4 * c + r];
        for (int r = 0; r < 3; ++r) out->t[r] = m[12 + r];
        return 1;
    }
    double t[3], q[4], s[3];
    mani_GbNodeTrs(g, node, t, q, s);
    /* glTF's rotation is unit; the product uses it as a unit quaternion. */
    const double len = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    if (!(len > 0.0) || !isfinite(len)) return 0;
    for (int i = 0; i < 4; ++i) q[i] /= len;
    mani_GbFromTrs(t, q, s, out);
    for (int i = 0; i < 9; ++i)
        if (!isfinite(out->l[i])) return 0;
    return isfinite(out->t[0]) && isfinite(out->t[1]) && isfinite(out->t[2]);
}

uint32_t mani_GbSkinJointCount(const maniGltf* g, uint32_t skin) {
    return mani_GltfLive(g) && skin < g->skinCount ? g->skins[skin].jointCount : 0;
}

uint32_t mani_GbSkinJoint(const maniGltf* g, uint32_t skin, uint32_t index) {
    if (!mani_GltfLive(g) || skin >= g->skinCount || index >= g->skins[skin].jointCount) return MANI_GB_NONE;
    return g->joints[g->skins[skin].jointStart + index];
}

uint32_t mani_GbSkinInverseBinds(const maniGltf* g, uint32_t skin) { return g->skins[skin].inverseBindMatrices; }

int mani_GbAccessorShape(const maniGltf* g, uint32_t accessor, mani_GbAccessor* out) {
    if (!mani_GltfLive(g) || accessor >= g->accessorCount) return 0;
    const mani_GltfAccessor* a = &g->accessors[accessor];
    out->count = a->count;
    out->components = mani_GltfTypeComponents(a->type);
    out->componentType = a->componentType;
    out->normalized = a->normalized;
    out->isMatrix = mani_GltfTypeColumns(a->type) > 1;
    return 1;
}

maniImportResult mani_GbReadFloats(const maniGltf* g, uint32_t accessor, float* out) {
    return mani_GltfReadFloats(g, accessor, out, mani_GltfAccessorValues(g, accessor));
}

maniImportResult mani_GbReadUints(const maniGltf* g, uint32_t accessor, uint32_t* out) {
    return mani_GltfReadUints(g, accessor, out, mani_GltfAccessorValues(g, accessor));
}

/* The attribute list of a primitive or one of its targets. */
static int mani_GbAttributes(const maniGltf* g, uint32_t mesh, uint32_t primitive, uint32_t target,
                             const mani_GltfAttribute** list, uint32_t* count) {
    if (!mani_GltfLive(g) || mesh >= g->meshCount || primitive >= g->meshes[mesh].primitiveCount) return 0;
    const mani_GltfPrimitive* p = &g->primitives[g->meshes[mesh].primitiveStart + primitive];
    if (target == MANI_GB_NONE) {
        *list = g->attributes + p->attributeStart;
        *count = p->attributeCount;
        return 1;
    }
    if (target >= p->targetCount) return 0;
    const mani_GltfTarget* t = &g->targets[p->targetStart + target];
    *list = g->attributes + t->attributeStart;
    *count = t->attributeCount;
    return 1;
}

uint32_t mani_GbAttribute(const maniGltf* g, uint32_t mesh, uint32_t primitive, uint32_t target, const char* name,
                          size_t length) {
    const mani_GltfAttribute* list;
    uint32_t count;
    if (!mani_GbAttributes(g, mesh, primitive, target, &list, &count)) return MANI_GB_NONE;
    for (uint32_t i = 0; i < count; ++i)
        if (list[i].semantic.length == length && memcmp(list[i].semantic.text, name, length) == 0)
            return list[i].accessor;
    return MANI_GB_NONE;
}

int mani_GbAttributeAt(const maniGltf* g, uint32_t mesh, uint32_t primitive, uint32_t target, uint32_t index,
                       const char** name, size_t* length, uint32_t* accessor) {
    const mani_GltfAttribute* list;
    uint32_t count;
    if (!mani_GbAttributes(g, mesh, primitive, target, &list, &count) || index >= count) return 0;
    *name = list[index].semantic.text;
    *length = list[index].semantic.length;
    *accessor = list[index].accessor;
    return 1;
}

uint64_t mani_GbViewOffset(const maniGltf* g, uint32_t view) { return g->views[view].byteOffset; }

const char* mani_GbTargetName(const maniGltf* g, uint32_t mesh, uint32_t targetCount, uint32_t target,
                              char* buffer, size_t capacity, size_t* length) {
    const uint32_t array = g->meshes[mesh].targetNamesToken;
    if (array == MANI_GLTF_NONE) return NULL;
    const mcore_JsonToken* a = mcore_JsonAt(&g->json, array);
    if (a == NULL || a->type != mcore_jsonArray || a->count != targetCount) return NULL;
    /* Every entry a string, then the one asked for. */
    uint32_t found = MANI_GB_NONE;
    uint32_t tok = array + 1;
    for (uint32_t i = 0; i < targetCount; ++i) {
        const mcore_JsonToken* e = mcore_JsonAt(&g->json, tok);
        if (e == NULL || e->type != mcore_jsonString) return NULL;
        if (i == target) found = tok;
        tok = e->next;
    }
    const mcore_JsonToken* e = mcore_JsonAt(&g->json, found);
    if (e->count == 0) {
        *length = e->length;
        return (const char*)g->bytes + g->jsonOffset + e->start;
    }
    /* After its escapes; a name past the buffer is given cut to capacity + 1
     * bytes so the morph build refuses it as too long. */
    size_t len = 0;
    if (mcore_JsonGetString(&g->json, found, buffer, capacity, &len) != mcore_jsonOk) {
        *length = capacity + 1;
        return buffer;
    }
    *length = len;
    return buffer;
}

uint32_t mani_GbChannelCount(const maniGltf* g, uint32_t animation) {
    return mani_GltfLive(g) && animation < g->animationCount ? g->animations[animation].channelCount : 0;
}

int mani_GbChannelAt(const maniGltf* g, uint32_t animation, uint32_t channel, mani_GbChannel* out) {
    if (!mani_GltfLive(g) || animation >= g->animationCount) return 0;
    const mani_GltfAnimation* a = &g->animations[animation];
    if (channel >= a->channelCount) return 0;
    const mani_GltfChannel* c = &g->channels[a->channelStart + channel];
    if (c->sampler >= a->samplerCount) return 0;
    const mani_GltfSampler* s = &g->samplers[a->samplerStart + c->sampler];
    out->node = c->node;
    out->path = c->path;
    out->input = s->input;
    out->output = s->output;
    out->interpolation = s->interpolation;
    out->pointer = c->pointer.text;
    out->pointerLength = c->pointer.length;
    return 1;
}
