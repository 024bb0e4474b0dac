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
    maniSimd_SkinBlendLinear, maniSimd_SkinBlendDualQuaternion, maniSimd_SkinBlendCenters, maniSimd_SkinMix,
    maniSimd_AffineTransformPoint, maniSimd_SkinDirection, maniSimd_SkinNormal,
};

static const mani_SkinKernels maniSkinReference = {
    maniSimdScalar_SkinBlendLinear, maniSimdScalar_SkinBlendDualQuaternion, maniSimdScalar_SkinBlendCenters,
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

static void mani_LoadAffine(maniSimdAffinex8* g, int lane, const maniAffine* a) {
    for (int c = 0; c < 4; ++c) {
        g->c[c].x[lane] = a->columns[c].x;
        g->c[c].y[lane] = a->columns[c].y;
        g->c[c].z[lane] = a->columns[c].z;
    }
}

/* One influence of one lane for the two-phase kernels: the dual quaternion
 * palette's q, d and S (rows there, columns here), the palette's t. */
static void mani_LoadJoint(maniSimdSkinJointx8* g, int lane, const float* dq, const maniAffine* a) {
    g->q.x[lane] = dq[0];
    g->q.y[lane] = dq[1];
    g->q.z[lane] = dq[2];
    g->q.w[lane] = dq[3];
    g->d.x[lane] = dq[4];
    g->d.y[lane] = dq[5];
    g->d.z[lane] = dq[6];
    g->d.w[lane] = dq[7];
    for (int col = 0; col < 3; ++col) {
        g->s.c[col].x[lane] = dq[8 + col];
        g->s.c[col].y[lane] = dq[12 + col];
        g->s.c[col].z[lane] = dq[16 + col];
    }
    g->t.x[lane] = a->columns[3].x;
    g->t.y[lane] = a->columns[3].y;
    g->t.z[lane] = a->columns[3].z;
}

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
    const maniAffine zeroAffine = {{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    static const float zeroDq[MANI_DUAL_QUATERNION_FLOATS] = {0};

    const uint32_t end = job->firstVertex + job->vertexCount;
    for (uint32_t base = job->firstVertex; base < end; base += MANI_SIMD_LANES) {
        const int lanes = end - base < MANI_SIMD_LANES ? (int)(end - base) : MANI_SIMD_LANES;
        /* Gather: each lane's weights and joints (a joint past the skin's
         * reads entry 0), then the palette entries the method needs. */
        const int needAffine = method == mani_skinLinear || method == mani_skinBlended;
        const int needJoint = method != mani_skinLinear;
        for (int l = 0; l < MANI_SIMD_LANES; ++l) {
            const uint64_t v = (uint64_t)base + (uint64_t)l;
            if (l >= lanes) {
                for (uint32_t i = 0; i < k; ++i) {
                    w[i].v[l] = 0.0f;
                    if (needAffine) mani_LoadAffine(&m[i], l, &zeroAffine);
                    if (needJoint) mani_LoadJoint(&joint[i], l, zeroDq, &zeroAffine);
                }
                blend.v[l] = 0.0f;
                center.x[l] = center.y[l] = center.z[l] = 0.0f;
                continue;
            }
            const uint8_t* wp = weightBytes + 4 * v * k;
            const uint8_t* jp = jointBytes + 2 * v * k;
            for (uint32_t i = 0; i < k; ++i) {
                w[i].v[l] = mani_SkinReadF32(wp + 4 * i);
                uint32_t j = (uint32_t)jp[2 * i] | ((uint32_t)jp[2 * i + 1] << 8);
                if (j >= inf->jointCount) j = 0;
                const maniAffine* a = &job->palette[j];
                if (needAffine) mani_LoadAffine(&m[i], l, a);
                if (needJoint) mani_LoadJoint(&joint[i], l, job->dualQuaternions + (size_t)MANI_DUAL_QUATERNION_FLOATS * j, a);
            }
            blend.v[l] = 0.0f;
            if (method == mani_skinBlended && inf->dualQuaternionWeights != 0)
                blend.v[l] = mani_SkinReadF32(inf->bytes + inf->dualQuaternionWeights + 4 * v);
            center.x[l] = center.y[l] = center.z[l] = 0.0f;
            if (method == mani_skinCenters) {
                const uint8_t* c = inf->bytes + inf->centers + 12 * v;
                center.x[l] = mani_SkinReadF32(c);
                center.y[l] = mani_SkinReadF32(c + 4);
                center.z[l] = mani_SkinReadF32(c + 8);
            }
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
                const int copy = w[0].v[l] == 0.0f; /* weights decrease: the first 0, all 0 */
                const float f[4] = {copy ? in.x[l] : out.x[l], copy ? in.y[l] : out.y[l], copy ? in.z[l] : out.z[l],
                                    tangentW[l]};
                memcpy((uint8_t*)st->output + (size_t)(base + (uint32_t)l) * st->outputStride, f,
                       st->kind == maniSkinStreamTangent ? 16 : 12);
            }
        }
    }
    return mani_success;
}

maniResult maniSkinLinear(const maniSkinJob* job) { return mani_SkinRun(job, mani_skinLinear, 0); }
maniResult maniSkinDualQuaternion(const maniSkinJob* job) { return mani_SkinRun(job, mani_skinDualQuaternion, 0); }
maniResult maniSkinBlended(const maniSkinJob* job) { return mani_SkinRun(job, mani_skinBlended, 0); }
maniResult maniSkinCenters(const maniSkinJob* job) { return mani_SkinRun(job, mani_skinCenters, 0); }
