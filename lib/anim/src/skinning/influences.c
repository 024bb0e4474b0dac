/* skinning.h: opening an influences file (every byte checked once) and the
 * view's accessors (no checks beyond staying inside the bytes). */
#include "lib/anim/src/base/file_open.h"
#include <math.h>
#include <string.h>

#include "lib/anim/src/skinning/influences_format.h"
#include "lib/anim/src/skinning/skinning_internal.h"
#include "maul/anim/skinning.h"

/* -- The view ------------------------------------------------------------------ */

int mani_InfluencesViewOk(const maniInfluences* v) {
    if (v == NULL || v->opened != MANI_INFLUENCES_OPENED || v->bytes == NULL) return 0;
    if (v->vertexCount == 0 || v->vertexCount > MANI_MAX_INFLUENCE_VERTICES) return 0;
    if (v->perVertex == 0 || v->perVertex > MANI_MAX_INFLUENCES || (v->perVertex % 4) != 0) return 0;
    if (v->jointCount == 0 || v->jointCount > MANI_MAX_BONES) return 0;
    const uint64_t n = (uint64_t)v->vertexCount * v->perVertex;
    if (!mcore_SpanFits(v->joints, n, 2, v->size) || !mcore_SpanFits(v->weights, n, 4, v->size)) return 0;
    if (v->dualQuaternionWeights != 0 && !mcore_SpanFits(v->dualQuaternionWeights, v->vertexCount, 4, v->size))
        return 0;
    if (v->centers != 0 && !mcore_SpanFits(v->centers, v->vertexCount, 12, v->size)) return 0;
    return 1;
}

uint32_t maniInfluences_GetVertexCount(const maniInfluences* influences) {
    return mani_InfluencesViewOk(influences) ? influences->vertexCount : 0;
}

uint32_t maniInfluences_GetPerVertex(const maniInfluences* influences) {
    return mani_InfluencesViewOk(influences) ? influences->perVertex : 0;
}

bool maniInfluences_IsSkinFit(const maniInfluences* influences, const maniSkin* skin) {
    if (!mani_InfluencesViewOk(influences)) return false;
    const uint32_t joints = maniSkin_GetJointCount(skin); /* 0 for a bad view */
    return joints != 0 && joints == influences->jointCount && maniSkin_GetIdentity(skin) == influences->skinIdentity;
}

uint32_t maniInfluences_GetInfluence(const maniInfluences* influences, uint32_t vertex, uint32_t slot,
                                     float* weightOut) {
    if (weightOut != NULL) *weightOut = 0.0f;
    if (!mani_InfluencesViewOk(influences) || vertex >= influences->vertexCount || slot >= influences->perVertex)
        return 0;
    const uint64_t i = (uint64_t)vertex * influences->perVertex + slot;
    if (weightOut != NULL) *weightOut = mcore_ReadF32(influences->bytes + influences->weights + 4 * i);
    const uint8_t* p = influences->bytes + influences->joints + 2 * i;
    const uint32_t joint = (uint32_t)p[0] | ((uint32_t)p[1] << 8);
    return joint < influences->jointCount ? joint : 0;
}

float maniInfluences_GetDualQuaternionWeight(const maniInfluences* influences, uint32_t vertex) {
    if (!mani_InfluencesViewOk(influences) || influences->dualQuaternionWeights == 0 ||
        vertex >= influences->vertexCount)
        return 0.0f;
    return mcore_ReadF32(influences->bytes + influences->dualQuaternionWeights + 4ull * vertex);
}

bool maniInfluences_GetCenter(const maniInfluences* influences, uint32_t vertex, maniVec3* centerOut) {
    if (centerOut == NULL || !mani_InfluencesViewOk(influences) || influences->centers == 0 ||
        vertex >= influences->vertexCount)
        return false;
    const uint8_t* p = influences->bytes + influences->centers + 12ull * vertex;
    centerOut->x = mcore_ReadF32(p);
    centerOut->y = mcore_ReadF32(p + 4);
    centerOut->z = mcore_ReadF32(p + 8);
    return true;
}

/* -- The open -------------------------------------------------------------------- */

maniFileResult maniOpenInfluences(const void* bytes, size_t size, maniInfluences* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindInfluences, mcore_formatInfluencesLatest,
                                                     maniInfluencesSections, MANI_INFLUENCES_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* Info: counts in range, known flags, the reserved field 0. */
    if (sec[0].size != MANI_INFLUENCES_INFO_SIZE)
        return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint32_t n = mcore_ReadU32(b + info);
    if (n == 0 || n > MANI_MAX_INFLUENCE_VERTICES) return mani_FileResult(mani_errorFormat, info);
    const uint32_t per = mcore_ReadU32(b + info + 4);
    if (per == 0 || per > MANI_MAX_INFLUENCES || (per % 4) != 0) return mani_FileResult(mani_errorFormat, info + 4);
    const uint32_t joints = mcore_ReadU32(b + info + 8);
    if (joints == 0 || joints > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info + 8);
    const uint32_t flags = mcore_ReadU32(b + info + 12);
    if ((flags & ~(MANI_INFLUENCES_HAS_BLEND | MANI_INFLUENCES_HAS_CENTERS)) != 0)
        return mani_FileResult(mani_errorFormat, info + 12);
    const uint64_t skinIdentity = mcore_ReadU64(b + info + 16);
    if (mcore_ReadU64(b + info + 24) != 0) return mani_FileResult(mani_errorFormat, info + 24);

    const uint64_t count = (uint64_t)n * per;
    if (sec[1].size != 2 * count) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(1));
    if (sec[2].size != 4 * count) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(2));
    const uint64_t blendSize = (flags & MANI_INFLUENCES_HAS_BLEND) ? 4ull * n : 0;
    if (sec[3].size != blendSize) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(3));
    const uint64_t centerSize = (flags & MANI_INFLUENCES_HAS_CENTERS) ? 12ull * n : 0;
    if (sec[4].size != centerSize) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(4));

    /* Joints: each a joint of the skin. */
    for (uint64_t i = 0; i < count; ++i) {
        const uint8_t* p = b + sec[1].offset + 2 * i;
        if (((uint32_t)p[0] | ((uint32_t)p[1] << 8)) >= joints)
            return mani_FileResult(mani_errorFormat, sec[1].offset + 2 * i);
    }
    /* Weights and blend weights: finite, 0 to 1; centers finite. */
    for (uint64_t i = 0; i < count; ++i) {
        const float w = mcore_ReadF32(b + sec[2].offset + 4 * i);
        if (!(w >= 0.0f && w <= 1.0f)) return mani_FileResult(mani_errorFormat, sec[2].offset + 4 * i);
    }
    for (uint64_t i = 0; i < blendSize / 4; ++i) {
        const float w = mcore_ReadF32(b + sec[3].offset + 4 * i);
        if (!(w >= 0.0f && w <= 1.0f)) return mani_FileResult(mani_errorFormat, sec[3].offset + 4 * i);
    }
    for (uint64_t i = 0; i < centerSize / 4; ++i)
        if (!isfinite(mcore_ReadF32(b + sec[4].offset + 4 * i)))
            return mani_FileResult(mani_errorFormat, sec[4].offset + 4 * i);

    maniInfluences v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skinIdentity = skinIdentity;
    v.opened = MANI_INFLUENCES_OPENED;
    v.vertexCount = n;
    v.perVertex = per;
    v.jointCount = joints;
    v.joints = sec[1].offset;
    v.weights = sec[2].offset;
    v.dualQuaternionWeights = blendSize != 0 ? sec[3].offset : 0;
    v.centers = centerSize != 0 ? sec[4].offset : 0;
    *out = v;
    return mani_FileResult(mani_success, 0);
}
