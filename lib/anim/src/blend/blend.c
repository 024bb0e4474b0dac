/* blend.h: blends, masks, differences and additive layers. Binary64 in the
 * fixed operation order blend.h states, each result rounded once to
 * binary32 (no contraction: -ffp-contract=off), so every build gives the same
 * bits. Blends, differences and additive layers run a group of eight bones
 * at a time through the kernel layer's blend kernels (simd_blend.inc, the
 * per-bone sequences on binary64 lanes); this file checks the arguments and
 * lays out each group's inputs. */
#include "maul/anim/blend.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"

static int mani_BlendPoseOf(const maniPose* pose, const maniSkeleton* skeleton) {
    return mani_PoseOk(pose) && pose->skeletonIdentity == skeleton->identity && pose->boneCount == skeleton->boneCount;
}

static int mani_UnitWeight(float w) { return w >= 0.0f && w <= 1.0f; /* false for NaN */ }

/* Every layer's pose is a pose of the skeleton, and every weight (layer and
 * bone) lies in 0..1. */
static int mani_LayersOk(const maniSkeleton* skeleton, const maniBlendLayer* layers, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        if (layers[i].pose == NULL || !mani_BlendPoseOf(layers[i].pose, skeleton)) return 0;
        if (!mani_UnitWeight(layers[i].weight)) return 0;
        if (layers[i].boneWeights != NULL)
            for (uint32_t b = 0; b < skeleton->boneCount; ++b)
                if (!mani_UnitWeight(layers[i].boneWeights[b])) return 0;
    }
    return 1;
}

/* Layers per blend kernel call (their descriptors and bone weights live on
 * the stack): a blend of more layers takes several calls. */
#define MANI_BLEND_CHUNK ((uint32_t)MANI_SIMD_BLEND_LAYERS)

/* Layers [first, first + count) of group g as kernel layers: each lane's
 * bone weight (1 for a layer without bone weights, 0 past the bones, so
 * those lanes blend nothing and keep the rest: identity). */
static void mani_BlendChunk(const maniBlendLayer* layers, uint32_t first, uint32_t count, uint32_t g,
                            uint32_t boneCount, maniSimdBlendLayerx8* out, maniSimdFloatx8* weights) {
    static const maniSimdFloatx8 ones = {{1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f}};
    const uint32_t b0 = g * MANI_SIMD_LANES;
    const int full = boneCount - b0 >= MANI_SIMD_LANES;
    for (uint32_t i = 0; i < count; ++i) {
        const maniBlendLayer* layer = &layers[first + i];
        out[i].pose = &mani_PoseLocals(layer->pose)[g];
        out[i].weight = layer->weight;
        out[i].boneWeights = &weights[i];
        if (full && layer->boneWeights == NULL)
            out[i].boneWeights = &ones;
        else if (full)
            memcpy(weights[i].v, layer->boneWeights + b0, sizeof weights[i].v);
        else
            for (uint32_t l = 0; l < MANI_SIMD_LANES; ++l) {
                const uint32_t b = b0 + l;
                weights[i].v[l] = b >= boneCount ? 0.0f : layer->boneWeights != NULL ? layer->boneWeights[b] : 1.0f;
            }
    }
}

/* Eight identity transforms: the rest of a blend of differences. */
static const maniSimdTransformx8 mani_identityGroup = {
    {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}},
    {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1, 1, 1}},
    {{1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}},
};

maniResult maniSkeleton_BlendPoses(const maniSkeleton* skeleton, const maniBlendLayer* layers, uint32_t count,
                                   float threshold, maniPose* poseOut) {
    if (skeleton == NULL || layers == NULL || poseOut == NULL) return mani_errorInvalid;
    if (!mani_SkeletonViewOk(skeleton) || !mani_BlendPoseOf(poseOut, skeleton)) return mani_errorInvalid;
    if (!(threshold >= MANI_BLEND_THRESHOLD_MIN && threshold <= MANI_BLEND_THRESHOLD_MAX)) return mani_errorInvalid;
    if (!mani_LayersOk(skeleton, layers, count)) return mani_errorInvalid;
    int differences = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (layers[i].pose == poseOut) return mani_errorInvalid;
        const int d = (layers[i].pose->flags & MANI_POSE_DIFFERENCE) != 0;
        if (i == 0)
            differences = d;
        else if (d != differences)
            return mani_errorInvalid;
    }

    const uint32_t n = skeleton->boneCount;
    maniSimdTransformx8* out = mani_PoseLocals(poseOut);
    maniSimdBlendLayerx8 chunk[MANI_BLEND_CHUNK];
    maniSimdFloatx8 weights[MANI_BLEND_CHUNK];
    for (uint32_t g = 0; g < poseOut->groupCount; ++g) {
        /* Every layer's weight first (the divisor), then the layers. */
        maniSimdBlendAccx8 acc;
        memset(&acc, 0, sizeof acc);
        for (int pass = 0; pass < 2; ++pass) {
            for (uint32_t first = 0; first < count; first += MANI_BLEND_CHUNK) {
                const uint32_t c = count - first < MANI_BLEND_CHUNK ? count - first : MANI_BLEND_CHUNK;
                if (pass == 0 || count > MANI_BLEND_CHUNK) mani_BlendChunk(layers, first, c, g, n, chunk, weights);
                if (pass == 0)
                    maniSimd_BlendTotal(&acc, chunk, c);
                else
                    maniSimd_BlendAccumulate(&acc, chunk, c, threshold);
            }
        }
        maniSimdTransformx8 rest;
        if (differences)
            rest = mani_identityGroup;
        else
            mani_PoseRestGroup(skeleton, g, &rest);
        maniSimd_BlendFinish(&out[g], &acc, &rest, threshold);
    }
    if (differences)
        poseOut->flags |= MANI_POSE_DIFFERENCE;
    else
        poseOut->flags &= ~MANI_POSE_DIFFERENCE;
    poseOut->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

/* -- Mask -------------------------------------------------------------------- */

maniResult maniSkeleton_BuildMask(const maniSkeleton* skeleton, const maniMaskChain* chains, uint32_t count,
                                  float defaultWeight, float* weightsOut, uint32_t capacity, uint32_t* countOut) {
    if (skeleton == NULL || chains == NULL || !mani_SkeletonViewOk(skeleton)) return mani_errorInvalid;
    if (weightsOut == NULL && capacity > 0) return mani_errorInvalid;
    if (!(defaultWeight >= 0.0f) || !isfinite(defaultWeight)) return mani_errorInvalid;
    const uint32_t n = skeleton->boneCount;
    for (uint32_t c = 0; c < count; ++c) {
        if (chains[c].bone >= n) return mani_errorInvalid;
        if (!(chains[c].weight >= 0.0f) || !isfinite(chains[c].weight)) return mani_errorInvalid;
    }
    if (countOut != NULL) *countOut = n;
    if (capacity < n) return mani_errorCapacity;

    /* Subtree chains: -1 marks a bone without one (weights are >= 0). */
    for (uint32_t b = 0; b < n; ++b) weightsOut[b] = -1.0f;
    for (uint32_t c = 0; c < count; ++c)
        if (chains[c].subtree) weightsOut[chains[c].bone] = chains[c].weight;
    /* Parents before children: a bone without its own subtree chain takes its
     * parent's (already resolved), a root the default. */
    for (uint32_t b = 0; b < n; ++b) {
        if (weightsOut[b] >= 0.0f) continue;
        const uint32_t p = maniSkeleton_GetParent(skeleton, b); /* a lower index or MANI_NO_BONE */
        weightsOut[b] = p == MANI_NO_BONE ? defaultWeight : weightsOut[p];
    }
    /* Chains on a bone alone, last: they reach no descendant. */
    for (uint32_t c = 0; c < count; ++c)
        if (!chains[c].subtree) weightsOut[chains[c].bone] = chains[c].weight;
    return mani_success;
}

/* -- Difference -------------------------------------------------------------- */

maniResult maniSkeleton_ComputePoseDifference(const maniSkeleton* skeleton, const maniPose* pose,
                                              const maniPose* basis, maniPose* differenceOut) {
    if (skeleton == NULL || pose == NULL || basis == NULL || differenceOut == NULL) return mani_errorInvalid;
    if (!mani_SkeletonViewOk(skeleton) || !mani_BlendPoseOf(pose, skeleton) || !mani_BlendPoseOf(basis, skeleton) ||
        !mani_BlendPoseOf(differenceOut, skeleton))
        return mani_errorInvalid;
    if ((pose->flags & MANI_POSE_DIFFERENCE) || (basis->flags & MANI_POSE_DIFFERENCE)) return mani_errorInvalid;
    /* Check every bone first (the output may be an input), then write. */
    const maniSimdTransformx8 *p = mani_PoseLocals(pose), *base = mani_PoseLocals(basis);
    for (uint32_t g = 0; g < pose->groupCount; ++g) {
        maniSimdTransformx8 d;
        maniSimdMaskx8 ok;
        maniSimd_PoseDifference(&d, &ok, &p[g], &base[g]);
        for (uint32_t l = 0; l < MANI_SIMD_LANES && g * MANI_SIMD_LANES + l < skeleton->boneCount; ++l)
            if (ok.m[l] == 0) return mani_errorInvalid;
    }
    maniSimdTransformx8* out = mani_PoseLocals(differenceOut);
    for (uint32_t g = 0; g < pose->groupCount; ++g) {
        maniSimdMaskx8 ok;
        maniSimd_PoseDifference(&out[g], &ok, &p[g], &base[g]);
    }
    differenceOut->flags |= MANI_POSE_DIFFERENCE;
    differenceOut->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

/* -- Additive layers --------------------------------------------------------- */

maniResult maniPose_AddLayers(maniPose* pose, const maniSkeleton* skeleton, const maniBlendLayer* layers,
                              uint32_t count) {
    if (pose == NULL || skeleton == NULL || layers == NULL) return mani_errorInvalid;
    if (!mani_SkeletonViewOk(skeleton) || !mani_BlendPoseOf(pose, skeleton)) return mani_errorInvalid;
    if (pose->flags & MANI_POSE_DIFFERENCE) return mani_errorInvalid;
    if (!mani_LayersOk(skeleton, layers, count)) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i)
        if (!(layers[i].pose->flags & MANI_POSE_DIFFERENCE)) return mani_errorInvalid;
    maniSimdTransformx8* out = mani_PoseLocals(pose);
    for (uint32_t i = 0; i < count; ++i) {
        if (!(layers[i].weight > 0.0f)) continue; /* every bone's weight is 0 */
        for (uint32_t g = 0; g < pose->groupCount; ++g) {
            maniSimdBlendLayerx8 layer;
            maniSimdFloatx8 weights;
            mani_BlendChunk(layers, i, 1, g, skeleton->boneCount, &layer, &weights);
            maniSimd_AddLayer(&out[g], layer.pose, &layer);
        }
    }
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}
