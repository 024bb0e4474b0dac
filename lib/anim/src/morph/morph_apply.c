/* maniApplyMorphTargets: vertex streams plus weighted deltas, target by
 * target, in blocks of MANI_MORPH_BLOCK vertices held as the streams
 * interleave them, in 8-float groups for the vector kernels
 * (lib/anim/src/simd); normals and tangents go to SoA groups to be
 * renormalized. Every lane runs the same binary32 operations as the
 * scalar path for sparse vertices: p = w * d, v = p == 0 ? v : v + p; so
 * dense and sparse, whole and ranges, and every backend give the same
 * bits. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/morph/morph_internal.h"
#include "lib/anim/src/simd/simd.h"

#define MANI_MORPH_BLOCK 128u
/* Groups of 8 floats a block's values take: up to 4 components a vertex,
 * vertex by vertex (the streams' own interleaving). */
#define MANI_MORPH_BLOCK_GROUPS (MANI_MORPH_BLOCK * 4u / MANI_SIMD_LANES)
#define MANI_MORPH_SOA_GROUPS (MANI_MORPH_BLOCK / MANI_SIMD_LANES)

/* One stream's block: the values of up to MANI_MORPH_BLOCK vertices,
 * interleaved as the stream holds them (comps floats a vertex), padded with
 * zeros to whole groups. The add is element by element, so the layout is
 * the same for every component. */
typedef struct mani_MorphBlock {
    maniSimdFloatx8 v[MANI_MORPH_BLOCK_GROUPS];
} mani_MorphBlock;

static const maniSimdFloatx8 mani_morphZeros[MANI_MORPH_BLOCK_GROUPS];

static float* mani_MorphFloats(maniSimdFloatx8* g) { return &g[0].v[0]; }

/* A float of the file (little-endian). */
static inline float mani_MorphF32(const uint8_t* p) {
    const uint32_t bits = mcore_ReadU32(p);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

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

/* A dense target's deltas for the block's vertices added (the vector path):
 * floats [0, count) of the block, whole groups (the padding adds w 0). */
static void mani_MorphAddDense(mani_MorphBlock* blk, const uint8_t* deltas, uint32_t count, float w) {
    mani_MorphBlock d, sum;
    maniSimdFloatx8 wv[MANI_MORPH_BLOCK_GROUPS];
    maniSimdMaskx8 isZero[MANI_MORPH_BLOCK_GROUPS];
    const uint32_t groups = (count + 7) / 8;
    float* f = mani_MorphFloats(d.v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(f, deltas, 4 * (size_t)count);
#else
    for (uint32_t i = 0; i < count; ++i) f[i] = mani_MorphF32(deltas + 4 * i);
#endif
    for (uint32_t i = count; i < groups * 8; ++i) f[i] = 0.0f;
    for (uint32_t g = 0; g < groups; ++g)
        for (int l = 0; l < 8; ++l) wv[g].v[l] = w;
    maniSimd_Mul(d.v, wv, d.v, groups);
    maniSimd_CmpEq(isZero, d.v, mani_morphZeros, groups);
    maniSimd_Add(sum.v, blk->v, d.v, groups);
    maniSimd_Select(blk->v, isZero, blk->v, sum.v, groups);
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
/* A sparse target's entries for the block's vertices [begin, begin + n),
 * found by binary search in its sorted indices. An entry whose vertex is
 * not in the block (only in bytes changed after the open: the indices are
 * no longer sorted) is added to stray instead, which the range's last
 * vertex takes (mani_MorphStream). */
static void mani_MorphAddSparse(mani_MorphBlock* blk, const maniMorphTargets* m, uint32_t first, uint32_t count,
                                uint64_t deltaFirst, uint32_t comps, uint32_t begin, uint32_t n, float w,
                                float stray[4]) {
    const uint32_t lo = mani_MorphLowerBound(m, first, count, begin);
    const uint32_t hi = mani_MorphLowerBound(m, first, count, begin + n);
    float* acc = mani_MorphFloats(blk->v);
    for (uint32_t k = lo; k < hi; ++k) {
        const uint32_t v = mcore_ReadU32(m->bytes + m->indices + 4 * ((uint64_t)first + k));
        const uint8_t* src = m->bytes + m->deltas + 4 * (deltaFirst + (uint64_t)k * comps);
        float* a = v >= begin && v - begin < n ? acc + (size_t)(v - begin) * comps : stray;
        for (uint32_t c = 0; c < comps; ++c) {
            const float p = w * mani_MorphF32(src + 4 * c);
            if (p != 0.0f) a[c] = a[c] + p;
        }
    }
}

/* Normals and tangents (3 floats a vertex in the block): x / sqrt((x x +
 * y y) + z z), a zero squared length kept as it is; on SoA groups. */
static void mani_MorphNormalize(mani_MorphBlock* blk, uint32_t n) {
    const uint32_t groups = (n + 7) / 8;
    maniSimdFloatx8 len2[MANI_MORPH_SOA_GROUPS], t[MANI_MORPH_SOA_GROUPS], len[MANI_MORPH_SOA_GROUPS];
    maniSimdMaskx8 isZero[MANI_MORPH_SOA_GROUPS];
    float* acc = mani_MorphFloats(blk->v);
    maniSimdFloatx8 x[MANI_MORPH_SOA_GROUPS], y[MANI_MORPH_SOA_GROUPS], z[MANI_MORPH_SOA_GROUPS];
    for (uint32_t i = 0; i < groups * 8; ++i) {
        const int in = i < n;
        x[i / 8].v[i % 8] = in ? acc[3 * i] : 0.0f;
        y[i / 8].v[i % 8] = in ? acc[3 * i + 1] : 0.0f;
        z[i / 8].v[i % 8] = in ? acc[3 * i + 2] : 0.0f;
    }
    maniSimd_Mul(len2, x, x, groups);
    maniSimd_Mul(t, y, y, groups);
    maniSimd_Add(len2, len2, t, groups);
    maniSimd_Mul(t, z, z, groups);
    maniSimd_Add(len2, len2, t, groups);
    maniSimd_Sqrt(len, len2, groups);
    maniSimd_CmpEq(isZero, len2, mani_morphZeros, groups);
    maniSimd_Div(t, x, len, groups);
    maniSimd_Select(x, isZero, x, t, groups);
    maniSimd_Div(t, y, len, groups);
    maniSimd_Select(y, isZero, y, t, groups);
    maniSimd_Div(t, z, len, groups);
    maniSimd_Select(z, isZero, z, t, groups);
    for (uint32_t i = 0; i < n; ++i) {
        acc[3 * i] = x[i / 8].v[i % 8];
        acc[3 * i + 1] = y[i / 8].v[i % 8];
        acc[3 * i + 2] = z[i / 8].v[i % 8];
    }
}

/* One vertex's comps floats (2, 3 or 4), a copy of constant size. */
static inline void mani_MorphCopyVertex(void* dst, const void* src, uint32_t comps) {
    switch (comps) {
        case 2: memcpy(dst, src, 8); break;
        case 3: memcpy(dst, src, 12); break;
        default: memcpy(dst, src, 16); break;
    }
}

static void mani_MorphStream(const maniMorphJob* job, const maniMorphStream* s) {
    const maniMorphTargets* m = job->targets;
    const uint32_t comps = s->components;
    const uint32_t a = mani_MorphFindAttribute(m, (uint32_t)s->semantic, s->set);
    const int normalize = s->semantic == maniMorphNormal || s->semantic == maniMorphTangent;
    const uint8_t* in = (const uint8_t*)s->input;
    uint8_t* out = (uint8_t*)s->output;
    float stray[4] = {0.0f, 0.0f, 0.0f, 0.0f}; /* entries no block took (changed bytes only) */
    for (uint32_t begin = job->vertexBegin; begin < job->vertexEnd; begin += MANI_MORPH_BLOCK) {
        const uint32_t n = job->vertexEnd - begin < MANI_MORPH_BLOCK ? job->vertexEnd - begin : MANI_MORPH_BLOCK;
        mani_MorphBlock blk;
        float* acc = mani_MorphFloats(blk.v);
        for (uint32_t i = 0; i < n; ++i)
            mani_MorphCopyVertex(acc + (size_t)i * comps, in + (uint64_t)(begin + i) * s->inputStride, comps);
        for (uint32_t i = n * comps; i < (n * comps + 7) / 8 * 8; ++i) acc[i] = 0.0f; /* whole groups */
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
                mani_MorphAddDense(&blk, m->bytes + m->deltas + 4 * ((uint64_t)delta + (uint64_t)begin * comps),
                                   n * comps, w);
            } else {
                if (first > m->indexCount || count > m->indexCount - first) continue;
                mani_MorphAddSparse(&blk, m, first, count, delta, comps, begin, n, w, stray);
            }
        }
        if (begin + n == job->vertexEnd) /* the last block: the range's last vertex takes the strays */
            for (uint32_t c = 0; c < comps; ++c)
                if (stray[c] != 0.0f) acc[(size_t)(n - 1) * comps + c] = acc[(size_t)(n - 1) * comps + c] + stray[c];
        if (normalize) mani_MorphNormalize(&blk, n);
        for (uint32_t i = 0; i < n; ++i)
            mani_MorphCopyVertex(out + (uint64_t)(begin + i) * s->outputStride, acc + (size_t)i * comps, comps);
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
