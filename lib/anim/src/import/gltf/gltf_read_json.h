/* JSON and node queries shared by the extension readers (gltf_read_*.c):
 * extensions the document's tables leave out are read from its JSON. */
#ifndef MAUL_ANIM_IMPORT_GLTF_READ_JSON_H
#define MAUL_ANIM_IMPORT_GLTF_READ_JSON_H

#include <math.h>
#include <string.h>

#include "lib/anim/src/import/gltf/gltf_build_internal.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"

/* An object's member, or MCORE_JSON_NONE (also for object not an object). */
static inline uint32_t mani_GrFind(const maniGltf* g, uint32_t object, const char* key) {
    if (object == MCORE_JSON_NONE || g->json.tokens[object].type != mcore_jsonObject) return MCORE_JSON_NONE;
    return mcore_JsonFind(&g->json, object, key, strlen(key));
}

/* The index-th item of an array token, or MCORE_JSON_NONE. */
static inline uint32_t mani_GrItem(const maniGltf* g, uint32_t array, uint64_t index) {
    if (array == MCORE_JSON_NONE || g->json.tokens[array].type != mcore_jsonArray ||
        index >= g->json.tokens[array].count)
        return MCORE_JSON_NONE;
    uint32_t t = array + 1;
    for (uint64_t i = 0; i < index; ++i) t = g->json.tokens[t].next;
    return t;
}

/* A number member, or fallback when left out; 0 when present but not a
 * finite binary32. */
static inline int mani_GrNumber(const maniGltf* g, uint32_t object, const char* key, float fallback, float* out) {
    const uint32_t t = mani_GrFind(g, object, key);
    if (t == MCORE_JSON_NONE) {
        *out = fallback;
        return 1;
    }
    return mani_GltfTokenFloat(g, t, out) == mcore_jsonOk && isfinite(*out);
}

/* A token holding a whole number below limit: 1 with *out, else 0. */
static inline int mani_GrIndex(const maniGltf* g, uint32_t t, uint32_t limit, uint32_t* out) {
    uint64_t v = 0;
    if (t == MCORE_JSON_NONE || g->json.tokens[t].type != mcore_jsonNumber ||
        mcore_JsonGetUint64(&g->json, t, &v) != mcore_jsonOk || v >= limit)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* The skeleton bone a node is (found by its bone name), or MANI_NO_BONE. */
static inline uint32_t mani_GrNodeBone(const maniGltf* g, const maniSkeleton* skeleton, uint32_t node) {
    const mani_GltfString* name = &g->nodes[node].boneName;
    return maniSkeleton_FindBone(skeleton, name->text, name->length);
}

/* The bone of a node or of its nearest ancestor that is one (MANI_NO_BONE
 * for none); *boneNode (when not NULL) receives that node. */
static inline uint32_t mani_GrBone(const maniGltf* g, const maniSkeleton* skeleton, uint32_t node, uint32_t* boneNode) {
    for (uint32_t n = node, depth = 0; n != MANI_GB_NONE && depth <= g->nodeCount; n = mani_GbNodeParent(g, n), ++depth) {
        const uint32_t b = mani_GrNodeBone(g, skeleton, n);
        if (b != MANI_NO_BONE) {
            if (boneNode != NULL) *boneNode = n;
            return b;
        }
    }
    return MANI_NO_BONE;
}

#endif
