/* skinning.h: the skinning jobs. Vertices go eight at a time through the
 * vector kernel layer (lib/anim/src/simd, simd_skin.inc): their influences
 * gathered into SoA groups, each vertex's matrix blended, then each stream
 * moved and scattered back. A group past the range's end is padded with
 * weightless lanes, which are never written. */
#include <string.h>

#include "lib/anim/src/simd/simd.h"
#include "lib/core/container.h"
#include "lib/anim/src/skinning/skinning_internal.h"
#include "maul/anim/skinning.h"

/* The kernels a job runs: the backend's or the scalar reference's. */
typedef struct mani_SkinKernels {
    void (*gather)(maniSimdFloatx8*, size_t, const float*, const maniSimdIndexx8*, const uint32_t*, size_t, size_t);
    void (*linear)(maniSimdAffinex8*, const maniSimdAffinex8*, const maniSimdFloatx8*, size_t, size_t);
    void (*dual)(maniSimdAffinex8*, const maniSimdSkinJointx8*, const maniSimdFloatx8*, size_t, size_t);
    void (*centers)(maniSimdAffinex8*, const maniSimdSkinJointx8*, const maniSimdFloatx8*, const maniSimdVec3x8*,
                    size_t, size_t);
    void (*mix)(maniSimdAffinex8*, const maniSimdAffinex8*, const maniSimdAffinex8*, const maniSimdFloatx8*, size_t);
    void (*point)(maniSimdVec3x8*, const maniSimdAffinex8*, const maniSimdVec3x8*, size_t);
    void (*direction)(maniSimdVec3x8*, const maniSimdAffinex8*, const maniSimdVec3x8*, size_t);
    void (*normal)(maniSimdVec3x8*, const maniSimdAffinex8*, const maniSimdVec3x8*, size_t);
} mani_SkinKernels;

static const mani_SkinKernels maniSkinBackend = {
    maniSimd_SkinGather, maniSimd_SkinBlendLinear, maniSimd_SkinBlendDualQuaternion, maniSimd_SkinBlendCenters, maniSimd_SkinMix,
    maniSimd_AffineTransformPoint, maniSimd_SkinDirection, maniSimd_SkinNormal,
};

static const mani_SkinKernels maniSkinReference = {
    maniSimdScalar_SkinGather, maniSimdScalar_SkinBlendLinear, maniSimdScalar_SkinBlendDualQuaternion, maniSimdScalar_SkinBlendCenters,
    maniSimdScalar_SkinMix,          maniSimdScalar_AffineTransformPoint,    maniSimdScalar_SkinDirection,
    maniSimdScalar_SkinNormal,
};

/* A little-endian f32 of the file, inline (the hot loop reads many). */
static inline float mani_SkinReadF32(const uint8_t* p) {
    const uint32_t u = mcore_ReadU32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t mani_StreamFloats(uint32_t kind) {
    switch (kind) {
        case maniSkinStreamPosition:
        case maniSkinStreamNormal:
        case maniSkinStreamDirection: return 3;
        case maniSkinStreamTangent: return 4;
        default: return 0;
    }
}

static int mani_SkinJobOk(const maniSkinJob* job, int method) {
    if (job == NULL || !mani_InfluencesViewOk(job->influences) || job->palette == NULL) return 0;
    const maniInfluences* inf = job->influences;
    if (job->paletteCount != inf->jointCount) return 0;
    if ((uint64_t)job->firstVertex + job->vertexCount > inf->vertexCount) return 0;
    if (job->streamCount > MANI_MAX_SKIN_STREAMS || (job->streamCount != 0 && job->streams == NULL)) return 0;
    if (method != mani_skinLinear && job->dualQuaternions == NULL) return 0;
    if (method == mani_skinCenters && inf->centers == 0) return 0;
    for (uint32_t s = 0; s < job->streamCount; ++s) {
        const maniSkinStream* st = &job->streams[s];
        const uint32_t floats = mani_StreamFloats(st->kind);
        if (floats == 0 || st->input == NULL || st->output == NULL) return 0;
        if (st->inputStride < 4 * floats || st->outputStride < 4 * floats) return 0;
    }
    return 1;
}

/* Where SkinGather finds each float: an affine's 12 in order (its columns);
 * a joint's q, d and S (the dual quaternion palette's rows, read by
 * columns), then t (the affine's translation). */
static const uint32_t maniSkinAffineOffsets[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
static const uint32_t maniSkinJointOffsets[17] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 9, 13, 17, 10, 14, 18};
static const uint32_t maniSkinTranslationOffsets[3] = {9, 10, 11};

/* The palette is read as one float table: 12 floats a matrix, no padding. */
_Static_assert(sizeof(maniAffine) == 12 * sizeof(float), "maniAffine is 12 floats");
_Static_assert(sizeof(maniSimdSkinJointx8) == 20 * sizeof(maniSimdFloatx8), "a joint group is 20 float groups");

/* Floats a maniSimdSkinJointx8 holds, in maniSimdFloatx8 groups. */
#define MANI_SKIN_JOINT_GROUPS (sizeof(maniSimdSkinJointx8) / sizeof(maniSimdFloatx8))

maniResult mani_SkinRun(const maniSkinJob* job, int method, int reference) {
    if (!mani_SkinJobOk(job, method)) return mani_errorInvalid;
    const mani_SkinKernels* kern = reference ? &maniSkinReference : &maniSkinBackend;
    const maniInfluences* inf = job->influences;
    const uint32_t k = inf->perVertex;
    const uint8_t* jointBytes = inf->bytes + inf->joints;
    const uint8_t* weightBytes = inf->bytes + inf->weights;

    maniSimdFloatx8 w[MANI_MAX_INFLUENCES];
    maniSimdAffinex8 m[MANI_MAX_INFLUENCES];
    maniSimdSkinJointx8 joint[MANI_MAX_INFLUENCES];
    maniSimdAffinex8 matrix, dualMatrix;
    maniSimdFloatx8 blend;
    maniSimdVec3x8 center, in, out;
    float tangentW[MANI_SIMD_LANES];
    maniSimdIndexx8 affineIndex[MANI_MAX_INFLUENCES], dqIndex[MANI_MAX_INFLUENCES];
    const float* paletteFloats = &job->palette[0].columns[0].x;

    const uint32_t end = job->firstVertex + job->vertexCount;
    for (uint32_t base = job->firstVertex; base < end; base += MANI_SIMD_LANES) {
        const int lanes = end - base < MANI_SIMD_LANES ? (int)(end - base) : MANI_SIMD_LANES;
        /* Gather: each lane's weights and joints (a joint past the skin's
         * reads entry 0; a padded lane entry 0 at weight 0), then the
         * palette entries the method needs through SkinGather. */
        for (int l = 0; l < MANI_SIMD_LANES; ++l) {
            const uint64_t v = (uint64_t)base + (uint64_t)l;
            blend.v[l] = 0.0f;
            center.x[l] = center.y[l] = center.z[l] = 0.0f;
            if (l >= lanes) {
                for (uint32_t i = 0; i < k; ++i) {
                    w[i].v[l] = 0.0f;
                    affineIndex[i].i[l] = 0;
                    dqIndex[i].i[l] = 0;
                }
                continue;
            }
            const uint8_t* wp = weightBytes + 4 * v * k;
            const uint8_t* jp = jointBytes + 2 * v * k;
            for (uint32_t i = 0; i < k; ++i) {
                w[i].v[l] = mani_SkinReadF32(wp + 4 * i);
                uint32_t j = (uint32_t)jp[2 * i] | ((uint32_t)jp[2 * i + 1] << 8);
                if (j >= inf->jointCount) j = 0;
                affineIndex[i].i[l] = 12 * j;
                dqIndex[i].i[l] = MANI_DUAL_QUATERNION_FLOATS * j;
            }
            if (method == mani_skinBlended && inf->dualQuaternionWeights != 0)
                blend.v[l] = mani_SkinReadF32(inf->bytes + inf->dualQuaternionWeights + 4 * v);
            if (method == mani_skinCenters) {
                const uint8_t* c = inf->bytes + inf->centers + 12 * v;
                center.x[l] = mani_SkinReadF32(c);
                center.y[l] = mani_SkinReadF32(c + 4);
                center.z[l] = mani_SkinReadF32(c + 8);
            }
        }
        if (method == mani_skinLinear || method == mani_skinBlended)
            kern->gather((maniSimdFloatx8*)(void*)m, 12, paletteFloats, affineIndex, maniSkinAffineOffsets, 12, k);
        if (method != mani_skinLinear) {
            maniSimdFloatx8* jf = (maniSimdFloatx8*)(void*)joint;
            kern->gather(jf, MANI_SKIN_JOINT_GROUPS, job->dualQuaternions, dqIndex, maniSkinJointOffsets, 17, k);
            kern->gather(jf + 17, MANI_SKIN_JOINT_GROUPS, paletteFloats, affineIndex, maniSkinTranslationOffsets, 3, k);
        }
        switch (method) {
            case mani_skinLinear: kern->linear(&matrix, m, w, k, 1); break;
            case mani_skinDualQuaternion: kern->dual(&matrix, joint, w, k, 1); break;
            case mani_skinBlended:
                kern->linear(&matrix, m, w, k, 1);
                kern->dual(&dualMatrix, joint, w, k, 1);
                kern->mix(&matrix, &matrix, &dualMatrix, &blend, 1);
                break;
            default: kern->centers(&matrix, joint, w, &center, k, 1); break;
        }
        for (uint32_t s = 0; s < job->streamCount; ++s) {
            const maniSkinStream* st = &job->streams[s];
            for (int l = 0; l < MANI_SIMD_LANES; ++l) {
                float f[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                if (l < lanes)
                    memcpy(f, (const uint8_t*)st->input + (size_t)(base + (uint32_t)l) * st->inputStride,
                           st->kind == maniSkinStreamTangent ? 16 : 12);
                in.x[l] = f[0];
                in.y[l] = f[1];
                in.z[l] = f[2];
                tangentW[l] = f[3];
            }
            if (st->kind == maniSkinStreamPosition) kern->point(&out, &matrix, &in, 1);
            else if (st->kind == maniSkinStreamNormal) kern->normal(&out, &matrix, &in, 1);
            else kern->direction(&out, &matrix, &in, 1);
            for (int l = 0; l < lanes; ++l) {
                /* Weights decrease: the first 0, all 0, and the input is copied. */
                const maniSimdVec3x8* from = w[0].v[l] == 0.0f ? &in : &out;
                uint8_t* dst = (uint8_t*)st->output + (size_t)(base + (uint32_t)l) * st->outputStride;
                /* Float by float: one store each, no read back of a staging copy. */
                memcpy(dst, &from->x[l], 4);
                memcpy(dst + 4, &from->y[l], 4);
                memcpy(dst + 8, &from->z[l], 4);
                if (st->kind == maniSkinStreamTangent) memcpy(dst + 12, &tangentW[l], 4);
            }
        }
    }
    return mani_success;
}

maniResult maniSkinLinear(const maniSkinJob* job) { return mani_SkinRun(job, mani_skinLinear, 0); }
maniResult maniSkinDualQuaternion(const maniSkinJob* job) { return mani_SkinRun(job, mani_skinDualQuaternion, 0); }
maniResult maniSkinBlended(const maniSkinJob* job) { return mani_SkinRun(job, mani_skinBlended, 0); }
maniResult maniSkinCenters(const maniSkinJob* job) { return mani_SkinRun(job, mani_skinCenters, 0); }
