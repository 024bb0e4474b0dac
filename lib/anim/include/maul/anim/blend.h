/* Maul Anim: blend.h
 *
 * Blending: poses mixed by weights, per bone through masks, in caller
 * memory. Poses and differences never mix: a blend takes layers of one kind
 * and writes that kind.
 *
 * Arithmetic (the same bits on every build): every result is computed in
 * scalar binary64 from the binary32 inputs in the fixed order each function
 * states, then rounded once to binary32. Products of two binary32 weights are
 * exact in binary64. Only IEEE 754 + - * / and sqrt are used.
 */
#ifndef MAUL_ANIM_BLEND_H
#define MAUL_ANIM_BLEND_H

#include "maul/anim/pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The range of maniSkeleton_BlendPoses's threshold: 0 to 1 (finite). At 0
 * the layers are always normalized to their total; at 1 a bone whose total
 * is below 1 takes the shortfall from its rest. */
#define MANI_BLEND_THRESHOLD_MIN 0.0f
#define MANI_BLEND_THRESHOLD_MAX 1.0f

/* One layer of a blend (maniSkeleton_BlendPoses) or an additive layer
 * (maniPose_AddLayers). */
typedef struct maniBlendLayer {
    /* The layer's pose: a pose of the skeleton, or a difference
     * (maniSkeleton_ComputePoseDifference). Never NULL. */
    const maniPose* pose;
    /* The layer's weight, 0 to 1. */
    float weight;
    /* The per-bone weights, one per bone of the skeleton, each 0 to 1 (what
     * maniSkeleton_BuildMask writes); NULL for 1 on every bone. A bone's
     * weight in the layer is weight times its bone weight. */
    const float* boneWeights;
} maniBlendLayer;

/* One chain of a mask (maniSkeleton_BuildMask): a weight on a bone alone or
 * on the bone and its whole subtree. */
typedef struct maniMaskChain {
    /* The bone the chain starts at, below the skeleton's bone count. */
    uint32_t bone;
    /* The weight the chain gives, finite and at least 0 (a blend or additive
     * layer then refuses a bone weight above 1). */
    float weight;
    /* false: the bone alone; true: the bone and every descendant (its
     * subtree, maniSkeleton_GetSubtreeEnd). */
    bool subtree;
} maniMaskChain;

/* Blends layers into a pose. Each bone takes from each layer its weight
 * times its bone weight, divided by the bone's total (or by the threshold
 * where the total is below it, the rest taking the shortfall; a difference's
 * rest is the identity), so the result slides into the rest as weights fall.
 * Rotations add on the arc that agrees with the sum so far (so the layers'
 * order counts) and are then normalized; translations and scales add
 * linearly and never pass the largest input's magnitude by more than
 * rounding, so inputs up to 2^127 stay finite. With no weight on a bone it
 * takes its rest as it is.
 *
 * Per bone, in binary64: w_i = weight_i * boneWeight_i (exact); the total
 * T = w_0 + w_1 + ... in layer order; D = T, or the threshold when T is below
 * it; the shares n_i = w_i / D and, when T < D, the rest's share
 * n_rest = (D - T) / D. T = 0 gives the rest exactly. Contributors are the
 * layers with w_i > 0 in order, then the rest (when it has a share).
 * Translations and scales, per component: the sum of n_i * v_i in that
 * order, clamped to the largest |v_i| among the contributors, rounded once.
 * Rotations: q = 0; each contributor adds n_i * r_i, or subtracts it when
 * dot(q, r_i) < 0; q / |q| rounded once (a q of length 0 or not finite, only
 * from zero or non-finite inputs, gives the rest's rotation).
 *
 * count may be 0 (every bone its rest, a pose of the skeleton). poseOut
 * becomes a difference when the layers are differences, a pose of the
 * skeleton otherwise; its model is stale afterwards.
 *
 * Parameters:
 *   skeleton   the skeleton of poseOut and every layer.
 *   layers     count layers, all poses of the skeleton or all differences.
 *   count      the number of layers.
 *   threshold  MANI_BLEND_THRESHOLD_MIN to MANI_BLEND_THRESHOLD_MAX.
 *   poseOut    the result; not the pose of any layer.
 * Returns: mani_success; mani_errorInvalid for a NULL argument (skeleton,
 * layers, poseOut or a layer's pose), a pose of another skeleton, layers of
 * both kinds, poseOut among the layers, a weight (layer or bone) outside 0
 * to 1 or a threshold out of range (poseOut unchanged).
 * Thread safety: safe from any thread; poseOut is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniResult maniSkeleton_BlendPoses(const maniSkeleton* skeleton, const maniBlendLayer* layers,
                                                           uint32_t count, float threshold, maniPose* poseOut);

/* Makes per-bone weights from chains. A bone takes a chain on itself alone
 * first, else the subtree chain on its nearest ancestor or itself, else the
 * default; of two chains on one bone and kind the later wins. A chain on a
 * bone alone never reaches its descendants.
 *
 * Parameters:
 *   skeleton       the skeleton whose bones the weights are for.
 *   chains         count chains (non-NULL even when count is 0).
 *   count          the number of chains.
 *   defaultWeight  the weight of a bone no chain reaches, finite, >= 0.
 *   weightsOut     capacity floats, the first bone-count of them written.
 *   capacity       the floats weightsOut holds.
 *   countOut       the bone count (may be NULL).
 * Returns: mani_success; mani_errorCapacity when capacity is below the bone
 * count, with the count still written and nothing else; mani_errorInvalid for
 * a NULL skeleton or chains (or a skeleton view no open wrote), a NULL array
 * with a positive capacity, a bone past the skeleton or a negative or
 * non-finite weight (nothing written).
 * Thread safety: safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniSkeleton_BuildMask(const maniSkeleton* skeleton, const maniMaskChain* chains,
                                                          uint32_t count, float defaultWeight, float* weightsOut,
                                                          uint32_t capacity, uint32_t* countOut);

/* Writes the difference of a pose from a basis, bone by bone:
 * d_t = t - t_b, d_r = r_b^-1 r (normalized), d_s = s / s_b per axis. The
 * output may be the pose or the basis.
 *
 * d_t and d_s are binary32 subtractions and divisions (correctly rounded);
 * d_r is conj(r_b) r (r_b taken as unit) in binary64, normalized there and
 * rounded once. The output becomes a difference, its model stale.
 *
 * Parameters:
 *   skeleton       the skeleton of the three poses.
 *   pose           a pose of the skeleton.
 *   basis          a pose of the skeleton.
 *   differenceOut  the difference.
 * Returns: mani_success; mani_errorInvalid for a NULL argument, a pose of
 * another skeleton, a difference given as pose or basis, or a difference not
 * finite (a basis scale component of 0 or near it, translations past
 * binary32's range apart, a rotation of length 0 or an input not finite;
 * differenceOut unchanged).
 * Thread safety: safe from any thread; differenceOut is used by one thread at
 * a time. */
MANI_NODISCARD MANI_API maniResult maniSkeleton_ComputePoseDifference(const maniSkeleton* skeleton,
                                                                      const maniPose* pose, const maniPose* basis,
                                                                      maniPose* differenceOut);

/* Applies differences to a pose in order, each bone at its layer weight
 * times its bone weight (both 0 to 1): t + w d_t, r nlerp(1, d_r, w) (the
 * difference's turn taken the short way), s (1 + w (d_s - 1)) per axis, a
 * factor between 1 and d_s.
 *
 * Per layer and bone, in binary64 from the pose's current binary32 values,
 * each rounded once: w = weight * boneWeight (exact; w = 0 leaves the bone);
 * t + w d_t; d = d_r, negated when its w component is below 0,
 * f = ((1 - w) + w d.w, w d.x, w d.y, w d.z) / |f|, r' = (r f) / |r f| (a
 * length of 0 or not finite, only from zero or non-finite inputs, leaves the
 * rotation); s (1 + w (d_s - 1)). The pose stays a pose of the skeleton, its
 * model stale.
 *
 * Parameters:
 *   pose      a pose of the skeleton, changed in place.
 *   skeleton  the skeleton of the pose and every layer.
 *   layers    count differences of the skeleton (non-NULL even when count
 *             is 0).
 *   count     the number of layers.
 * Returns: mani_success; mani_errorInvalid for a NULL argument, a pose of
 * another skeleton, a difference as the pose, a layer not a difference, or a
 * weight outside 0 to 1 (the pose unchanged).
 * Thread safety: safe from any thread; the pose is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniResult maniPose_AddLayers(maniPose* pose, const maniSkeleton* skeleton,
                                                      const maniBlendLayer* layers, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_BLEND_H */
