/* blend.h: blends, masks, differences and additive layers. Scalar binary64
 * in the fixed operation order blend.h states, each result rounded once to
 * binary32 (no contraction: -ffp-contract=off), so every build gives the same
 * bits. */
#include "maul/anim/blend.h"

#include <math.h>

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

static double mani_LayerBoneWeight(const maniBlendLayer* layer, uint32_t bone) {
    double w = (double)layer->weight;
    if (layer->boneWeights != NULL) w = w * (double)layer->boneWeights[bone]; /* exact */
    return w;
}

/* -- Blend ------------------------------------------------------------------- */

/* The running state of one component (translation or scale) of a blend. */
typedef struct mani_BlendAxis {
    double sum;
    double bound; /* the largest |v| among the contributors */
} mani_BlendAxis;

static void mani_AxisAdd(mani_BlendAxis* a, double n, float v) {
    a->sum = a->sum + n * (double)v;
    double m = fabs((double)v);
    if (m > a->bound) a->bound = m;
}

static float mani_AxisResult(const mani_BlendAxis* a) {
    double s = a->sum;
    if (s > a->bound) s = a->bound;
    if (s < -a->bound) s = -a->bound;
    return (float)s;
}

typedef struct mani_BlendBone {
    mani_BlendAxis t[3], s[3];
    double q[4]; /* x, y, z, w */
} mani_BlendBone;

static void mani_BlendAdd(mani_BlendBone* acc, double n, const maniTransform* v) {
    mani_AxisAdd(&acc->t[0], n, v->translation.x);
    mani_AxisAdd(&acc->t[1], n, v->translation.y);
    mani_AxisAdd(&acc->t[2], n, v->translation.z);
    mani_AxisAdd(&acc->s[0], n, v->scale.x);
    mani_AxisAdd(&acc->s[1], n, v->scale.y);
    mani_AxisAdd(&acc->s[2], n, v->scale.z);
    const double r[4] = {v->rotation.x, v->rotation.y, v->rotation.z, v->rotation.w};
    const double dot = ((acc->q[0] * r[0] + acc->q[1] * r[1]) + acc->q[2] * r[2]) + acc->q[3] * r[3];
    const double sn = dot < 0.0 ? -n : n;
    for (int k = 0; k < 4; ++k) acc->q[k] = acc->q[k] + sn * r[k];
}

/* Normalizes q in binary64 into out, rounded once; 0 when its length is 0 or
 * not finite (out unchanged). */
static int mani_NormalizeQuat(const double q[4], maniQuat* out) {
    const double len2 = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    const double len = sqrt(len2);
    if (!(len > 0.0) || !isfinite(len)) return 0;
    out->x = (float)(q[0] / len);
    out->y = (float)(q[1] / len);
    out->z = (float)(q[2] / len);
    out->w = (float)(q[3] / len);
    return 1;
}

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

    const double th = (double)threshold;
    for (uint32_t b = 0; b < skeleton->boneCount; ++b) {
        const maniTransform rest = differences ? mani_IdentityTransform() : mani_SkeletonRestRaw(skeleton, b);
        double total = 0.0;
        for (uint32_t i = 0; i < count; ++i) total = total + mani_LayerBoneWeight(&layers[i], b);
        if (!(total > 0.0)) {
            mani_PoseSetLocalRaw(poseOut, b, rest);
            continue;
        }
        const double divisor = total < th ? th : total;
        mani_BlendBone acc = {0};
        for (uint32_t i = 0; i < count; ++i) {
            const double w = mani_LayerBoneWeight(&layers[i], b);
            if (!(w > 0.0)) continue;
            const maniTransform v = mani_PoseGetLocalRaw(layers[i].pose, b);
            mani_BlendAdd(&acc, w / divisor, &v);
        }
        if (total < divisor) mani_BlendAdd(&acc, (divisor - total) / divisor, &rest);
        maniTransform out;
        out.translation.x = mani_AxisResult(&acc.t[0]);
        out.translation.y = mani_AxisResult(&acc.t[1]);
        out.translation.z = mani_AxisResult(&acc.t[2]);
        out.scale.x = mani_AxisResult(&acc.s[0]);
        out.scale.y = mani_AxisResult(&acc.s[1]);
        out.scale.z = mani_AxisResult(&acc.s[2]);
        if (!mani_NormalizeQuat(acc.q, &out.rotation)) out.rotation = rest.rotation;
        mani_PoseSetLocalRaw(poseOut, b, out);
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

static int mani_TransformFinite(const maniTransform* t) {
    const float* f = &t->translation.x;
    for (int i = 0; i < 10; ++i)
        if (!isfinite(f[i])) return 0;
    return 1;
}

/* The difference of pose from basis for one bone; 0 when it is not finite. */
static int mani_BoneDifference(const maniTransform* p, const maniTransform* base, maniTransform* out) {
    maniTransform d;
    d.translation.x = p->translation.x - base->translation.x;
    d.translation.y = p->translation.y - base->translation.y;
    d.translation.z = p->translation.z - base->translation.z;
    d.scale.x = p->scale.x / base->scale.x;
    d.scale.y = p->scale.y / base->scale.y;
    d.scale.z = p->scale.z / base->scale.z;
    /* conj(b) * r, Hamilton product with a = conj(b). */
    const double ax = -(double)base->rotation.x, ay = -(double)base->rotation.y, az = -(double)base->rotation.z,
                 aw = (double)base->rotation.w;
    const double bx = p->rotation.x, by = p->rotation.y, bz = p->rotation.z, bw = p->rotation.w;
    double q[4];
    q[0] = ((aw * bx + ax * bw) + ay * bz) - az * by;
    q[1] = ((aw * by - ax * bz) + ay * bw) + az * bx;
    q[2] = ((aw * bz + ax * by) - ay * bx) + az * bw;
    q[3] = ((aw * bw - ax * bx) - ay * by) - az * bz;
    if (!mani_NormalizeQuat(q, &d.rotation)) return 0;
    if (!mani_TransformFinite(p) || !mani_TransformFinite(base) || !mani_TransformFinite(&d)) return 0;
    *out = d;
    return 1;
}

maniResult maniSkeleton_ComputePoseDifference(const maniSkeleton* skeleton, const maniPose* pose,
                                              const maniPose* basis, maniPose* differenceOut) {
    if (skeleton == NULL || pose == NULL || basis == NULL || differenceOut == NULL) return mani_errorInvalid;
    if (!mani_SkeletonViewOk(skeleton) || !mani_BlendPoseOf(pose, skeleton) || !mani_BlendPoseOf(basis, skeleton) ||
        !mani_BlendPoseOf(differenceOut, skeleton))
        return mani_errorInvalid;
    if ((pose->flags & MANI_POSE_DIFFERENCE) || (basis->flags & MANI_POSE_DIFFERENCE)) return mani_errorInvalid;
    /* Check every bone first (the output may be an input), then write. */
    for (uint32_t b = 0; b < skeleton->boneCount; ++b) {
        const maniTransform p = mani_PoseGetLocalRaw(pose, b), base = mani_PoseGetLocalRaw(basis, b);
        maniTransform d;
        if (!mani_BoneDifference(&p, &base, &d)) return mani_errorInvalid;
    }
    for (uint32_t b = 0; b < skeleton->boneCount; ++b) {
        const maniTransform p = mani_PoseGetLocalRaw(pose, b), base = mani_PoseGetLocalRaw(basis, b);
        maniTransform d = mani_IdentityTransform();
        (void)mani_BoneDifference(&p, &base, &d);
        mani_PoseSetLocalRaw(differenceOut, b, d);
    }
    differenceOut->flags |= MANI_POSE_DIFFERENCE;
    differenceOut->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

/* -- Additive layers --------------------------------------------------------- */

static void mani_AddBone(maniTransform* t, const maniTransform* d, double w) {
    t->translation.x = (float)((double)t->translation.x + w * (double)d->translation.x);
    t->translation.y = (float)((double)t->translation.y + w * (double)d->translation.y);
    t->translation.z = (float)((double)t->translation.z + w * (double)d->translation.z);
    t->scale.x = (float)((double)t->scale.x * (1.0 + w * ((double)d->scale.x - 1.0)));
    t->scale.y = (float)((double)t->scale.y * (1.0 + w * ((double)d->scale.y - 1.0)));
    t->scale.z = (float)((double)t->scale.z * (1.0 + w * ((double)d->scale.z - 1.0)));
    /* f = nlerp(1, d_r, w), the short way. */
    double dx = d->rotation.x, dy = d->rotation.y, dz = d->rotation.z, dw = d->rotation.w;
    if (dw < 0.0) {
        dx = -dx;
        dy = -dy;
        dz = -dz;
        dw = -dw;
    }
    double f[4] = {w * dx, w * dy, w * dz, (1.0 - w) + w * dw};
    const double flen = sqrt(((f[0] * f[0] + f[1] * f[1]) + f[2] * f[2]) + f[3] * f[3]);
    if (!(flen > 0.0) || !isfinite(flen)) return;
    for (int k = 0; k < 4; ++k) f[k] = f[k] / flen;
    /* r * f, Hamilton product. */
    const double ax = t->rotation.x, ay = t->rotation.y, az = t->rotation.z, aw = t->rotation.w;
    double q[4];
    q[0] = ((aw * f[0] + ax * f[3]) + ay * f[2]) - az * f[1];
    q[1] = ((aw * f[1] - ax * f[2]) + ay * f[3]) + az * f[0];
    q[2] = ((aw * f[2] + ax * f[1]) - ay * f[0]) + az * f[3];
    q[3] = ((aw * f[3] - ax * f[0]) - ay * f[1]) - az * f[2];
    (void)mani_NormalizeQuat(q, &t->rotation);
}

maniResult maniPose_AddLayers(maniPose* pose, const maniSkeleton* skeleton, const maniBlendLayer* layers,
                              uint32_t count) {
    if (pose == NULL || skeleton == NULL || layers == NULL) return mani_errorInvalid;
    if (!mani_SkeletonViewOk(skeleton) || !mani_BlendPoseOf(pose, skeleton)) return mani_errorInvalid;
    if (pose->flags & MANI_POSE_DIFFERENCE) return mani_errorInvalid;
    if (!mani_LayersOk(skeleton, layers, count)) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i)
        if (!(layers[i].pose->flags & MANI_POSE_DIFFERENCE)) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i) {
        for (uint32_t b = 0; b < skeleton->boneCount; ++b) {
            const double w = mani_LayerBoneWeight(&layers[i], b);
            if (!(w > 0.0)) continue;
            maniTransform t = mani_PoseGetLocalRaw(pose, b);
            const maniTransform d = mani_PoseGetLocalRaw(layers[i].pose, b);
            mani_AddBone(&t, &d, w);
            mani_PoseSetLocalRaw(pose, b, t);
        }
    }
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}
