/* maniApplyMorphTargets: vertex streams plus weighted deltas, target by
 * target, in blocks of MANI_MORPH_BLOCK vertices held as 8-lane SoA groups
 * for the vector kernels (lib/anim/src/simd). Every lane runs the same
 * binary32 operations as the scalar path for sparse vertices: p = w * d,
 * v = p == 0 ? v : v + p; so dense and sparse, whole and ranges, and every
 * backend give the same bits. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/morph/morph_internal.h"
#include "lib/anim/src/simd/simd.h"

#define MANI_MORPH_BLOCK 64u
#define MANI_MORPH_GROUPS (MANI_MORPH_BLOCK / MANI_SIMD_LANES)

/* One stream's block: up to 4 components, each MANI_MORPH_GROUPS groups. */
typedef struct mani_MorphBlock {
    maniSimdFloatx8 v[4][MANI_MORPH_GROUPS];
} mani_MorphBlock;

static float mani_MorphLane(const maniSimdFloatx8* g, uint32_t lane) { return g[lane / 8].v[lane % 8]; }
static float* mani_MorphLanePtr(maniSimdFloatx8* g, uint32_t lane) { return &g[lane / 8].v[lane % 8]; }

/* The file attribute a stream's semantic and set name, or
 * MANI_MAX_MORPH_ATTRIBUTES when the file does not move it. */
static uint32_t mani_MorphFindAttribute(const maniMorphTargets* m, uint32_t semantic, uint32_t set) {
    for (uint32_t a = 0; a < m->attributeCount; ++a) {
        const uint8_t* p = m->bytes + m->attributes + (uint64_t)MANI_MORPH_ATTRIBUTE_SIZE * a;
        if (mcore_ReadU32(p) == semantic && mcore_ReadU32(p + 4) == set) return a;
    }
    return MANI_MAX_MORPH_ATTRIBUTES;
}

static int mani_MorphStreamOk(const maniMorphStream* s) {
    const uint32_t semantic = (uint32_t)s->semantic;
    if (s->input == NULL || s->output == NULL) return 0;
    if (!mani_MorphAttributeOk(semantic, s->set)) return 0;
    const uint32_t comps = mani_MorphComponents(semantic);
    return s->components == comps && s->inputStride >= 4 * comps && s->outputStride >= 4 * comps;
}

/* A dense target's deltas for the block's vertices added (the vector path). */
static void mani_MorphAddDense(mani_MorphBlock* blk, const maniMorphTargets* m, uint64_t deltaFirst, uint32_t comps,
                               uint32_t begin, uint32_t n, float w) {
    mani_MorphBlock d;
    const uint32_t groups = (n + 7) / 8;
    const uint8_t* src = m->bytes + m->deltas + 4 * (deltaFirst + (uint64_t)begin * comps);
    for (uint32_t i = 0; i < groups * 8; ++i)
        for (uint32_t c = 0; c < comps; ++c)
            *mani_MorphLanePtr(d.v[c], i) = i < n ? mcore_ReadF32(src + 4 * ((uint64_t)i * comps + c)) : 0.0f;
    maniSimdFloatx8 wv[MANI_MORPH_GROUPS], zero[MANI_MORPH_GROUPS], sum[MANI_MORPH_GROUPS];
    maniSimdMaskx8 isZero[MANI_MORPH_GROUPS];
    for (uint32_t g = 0; g < groups; ++g)
        for (int l = 0; l < 8; ++l) {
            wv[g].v[l] = w;
            zero[g].v[l] = 0.0f;
        }
    for (uint32_t c = 0; c < comps; ++c) {
        maniSimd_Mul(d.v[c], wv, d.v[c], groups);
        maniSimd_CmpEq(isZero, d.v[c], zero, groups);
        maniSimd_Add(sum, blk->v[c], d.v[c], groups);
        maniSimd_Select(blk->v[c], isZero, blk->v[c], sum, groups);
    }
}

/* The first of count increasing indices at `first` not below v (binary
 * search over the bytes as they are). */
static uint32_t mani_MorphLowerBound(const maniMorphTargets* m, uint32_t first, uint32_t count, uint32_t v) {
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (mcore_ReadU32(m->bytes + m->indices + 4 * ((uint64_t)first + mid)) < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A sparse target's deltas for the block's vertices added, vertex by vertex
 * (the same operations as a lane of the vector path). */
static void mani_MorphAddSparse(mani_MorphBlock* blk, const maniMorphTargets* m, uint32_t first, uint32_t count,
                                uint64_t deltaFirst, uint32_t comps, uint32_t begin, uint32_t n, float w) {
    const uint32_t lo = mani_MorphLowerBound(m, first, count, begin);
    const uint32_t hi = mani_MorphLowerBound(m, first, count, begin + n);
    for (uint32_t k = lo; k < hi; ++k) {
        uint32_t v = mcore_ReadU32(m->bytes + m->indices + 4 * ((uint64_t)first + k));
        if (v < begin || v - begin >= n) v = begin + n - 1; /* bytes changed after the open */
        const uint8_t* src = m->bytes + m->deltas + 4 * (deltaFirst + (uint64_t)k * comps);
        for (uint32_t c = 0; c < comps; ++c) {
            const float p = w * mcore_ReadF32(src + 4 * c);
            float* acc = mani_MorphLanePtr(blk->v[c], v - begin);
            if (p != 0.0f) *acc = *acc + p;
        }
    }
}

/* Normals and tangents: x / sqrt((x x + y y) + z z), a zero squared length
 * kept as it is. */
static void mani_MorphNormalize(mani_MorphBlock* blk, uint32_t n) {
    const uint32_t groups = (n + 7) / 8;
    maniSimdFloatx8 len2[MANI_MORPH_GROUPS], t[MANI_MORPH_GROUPS], len[MANI_MORPH_GROUPS], zero[MANI_MORPH_GROUPS];
    maniSimdMaskx8 isZero[MANI_MORPH_GROUPS];
    for (uint32_t g = 0; g < groups; ++g)
        for (int l = 0; l < 8; ++l) zero[g].v[l] = 0.0f;
    maniSimd_Mul(len2, blk->v[0], blk->v[0], groups);
    maniSimd_Mul(t, blk->v[1], blk->v[1], groups);
    maniSimd_Add(len2, len2, t, groups);
    maniSimd_Mul(t, blk->v[2], blk->v[2], groups);
    maniSimd_Add(len2, len2, t, groups);
    maniSimd_Sqrt(len, len2, groups);
    maniSimd_CmpEq(isZero, len2, zero, groups);
    for (int c = 0; c < 3; ++c) {
        maniSimd_Div(t, blk->v[c], len, groups);
        maniSimd_Select(blk->v[c], isZero, blk->v[c], t, groups);
    }
}

static void mani_MorphStream(const maniMorphJob* job, const maniMorphStream* s) {
    const maniMorphTargets* m = job->targets;
    const uint32_t comps = s->components;
    const uint32_t a = mani_MorphFindAttribute(m, (uint32_t)s->semantic, s->set);
    const int normalize = s->semantic == maniMorphNormal || s->semantic == maniMorphTangent;
    const uint8_t* in = (const uint8_t*)s->input;
    uint8_t* out = (uint8_t*)s->output;
    for (uint32_t begin = job->vertexBegin; begin < job->vertexEnd; begin += MANI_MORPH_BLOCK) {
        const uint32_t n = job->vertexEnd - begin < MANI_MORPH_BLOCK ? job->vertexEnd - begin : MANI_MORPH_BLOCK;
        mani_MorphBlock blk;
        for (uint32_t i = 0; i < MANI_MORPH_BLOCK; ++i)
            for (uint32_t c = 0; c < comps; ++c) {
                float f = 0.0f;
                if (i < n) memcpy(&f, in + (uint64_t)(begin + i) * s->inputStride + 4 * c, 4);
                *mani_MorphLanePtr(blk.v[c], i) = f;
            }
        for (uint32_t t = 0; a < MANI_MAX_MORPH_ATTRIBUTES && t < m->targetCount; ++t) {
            const float w = job->targetWeights[t];
            if (w == 0.0f) continue; /* every p would be zero */
            const uint32_t count = mani_MorphTargetWord(m, t, 1), first = mani_MorphTargetWord(m, t, 2);
            const uint32_t delta = mani_MorphTargetWord(m, t, 6 + a);
            if (delta == MANI_MORPH_NONE || delta > m->deltaCount ||
                (uint64_t)count * comps > (uint64_t)(m->deltaCount - delta))
                continue;
            if (first == MANI_MORPH_DENSE) {
                if (count != m->vertexCount) continue;
                mani_MorphAddDense(&blk, m, delta, comps, begin, n, w);
            } else {
                if (first > m->indexCount || count > m->indexCount - first) continue;
                mani_MorphAddSparse(&blk, m, first, count, delta, comps, begin, n, w);
            }
        }
        if (normalize) mani_MorphNormalize(&blk, n);
        for (uint32_t i = 0; i < n; ++i)
            for (uint32_t c = 0; c < comps; ++c) {
                float f = mani_MorphLane(blk.v[c], i);
                memcpy(out + (uint64_t)(begin + i) * s->outputStride + 4 * c, &f, 4);
            }
    }
}

maniResult maniApplyMorphTargets(const maniMorphJob* job) {
    if (job == NULL || !mani_MorphViewOk(job->targets) || job->targetWeights == NULL) return mani_errorInvalid;
    if (job->streams == NULL && job->streamCount > 0) return mani_errorInvalid;
    const maniMorphTargets* m = job->targets;
    if (job->vertexBegin > job->vertexEnd || job->vertexEnd > m->vertexCount) return mani_errorInvalid;
    for (uint32_t t = 0; t < m->targetCount; ++t)
        if (!isfinite(job->targetWeights[t])) return mani_errorInvalid;
    for (uint32_t s = 0; s < job->streamCount; ++s)
        if (!mani_MorphStreamOk(&job->streams[s])) return mani_errorInvalid;
    for (uint32_t s = 0; s < job->streamCount; ++s) mani_MorphStream(job, &job->streams[s]);
    return mani_success;
}
