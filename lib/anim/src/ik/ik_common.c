/* ik.h's shared parts: checks, chains of key bones composed in binary64,
 * turns taken into local frames, joint limits (ik_internal.h). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/ik/ik_internal.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"

#define MANI_IK_PI 3.14159265358979323846

int mani_IkPoseOk(const maniPose* pose, const maniSkeleton* skeleton) {
    if (pose == NULL || skeleton == NULL || !mani_SkeletonViewOk(skeleton) || !mani_PoseOk(pose)) return 0;
    if (pose->skeletonIdentity != skeleton->identity || pose->boneCount != skeleton->boneCount) return 0;
    return (pose->flags & MANI_POSE_DIFFERENCE) == 0;
}

uint32_t mani_IkParent(const maniSkeleton* skeleton, uint32_t bone) {
    if (bone >= skeleton->boneCount) return MANI_NO_BONE;
    const uint32_t p = mani_SkeletonParentRaw(skeleton, bone);
    return p < bone ? p : MANI_NO_BONE;
}

int mani_IkIsAncestor(const maniSkeleton* skeleton, uint32_t a, uint32_t b) {
    uint32_t p = mani_IkParent(skeleton, b);
    while (p != MANI_NO_BONE && p > a) p = mani_IkParent(skeleton, p);
    return p == a;
}

int mani_IkSmallTurn(const double q[4]) {
    /* the angle 2 atan2(|v|, |w|) of a unit q below MANI_IK_MIN_TURN: |v|
     * below the sine of half of it */
    return (q[0] * q[0] + q[1] * q[1]) + q[2] * q[2] < MANI_IK_MIN_TURN_SIN2;
}

int mani_IkFinite3(maniVec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

int mani_IkUnit01(float w) { return w >= 0.0f && w <= 1.0f; /* false for NaN */ }

static void mani_IkFrameIdentity(mani_IkFrame* f) {
    memset(f, 0, sizeof *f);
    f->m[0] = f->m[4] = f->m[8] = 1.0;
    f->q[3] = 1.0;
}

/* The frame of a local transform: m = R(q) diag(s). */
static void mani_IkFrameOfLocal(const double t[3], const double q[4], const double s[3], mani_IkFrame* f) {
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double r[9] = {1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z),       2.0 * (x * z - w * y),
                         2.0 * (x * y - w * z),       1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x),
                         2.0 * (x * z + w * y),       2.0 * (y * z - w * x),       1.0 - 2.0 * (x * x + y * y)};
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) f->m[3 * j + i] = r[3 * j + i] * s[j];
    memcpy(f->p, t, sizeof f->p);
    memcpy(f->q, q, sizeof f->q);
}

/* out = a b (b's map first); out may not be a or b. */
static void mani_IkCompose(const mani_IkFrame* a, const mani_IkFrame* b, mani_IkFrame* out) {
    const double* A = a->m;
    const double* B = b->m;
    mani_IkFramePoint(a, b->p, out->p);
    for (int j = 0; j < 9; j += 3) {
        const double x = B[j], y = B[j + 1], z = B[j + 2];
        out->m[j] = (A[0] * x + A[3] * y) + A[6] * z;
        out->m[j + 1] = (A[1] * x + A[4] * y) + A[7] * z;
        out->m[j + 2] = (A[2] * x + A[5] * y) + A[8] * z;
    }
    mcore_QuatMul64(a->q, b->q, out->q); /* unit within rounding: normalized where turns are taken */
}

void mani_IkFramePoint(const mani_IkFrame* f, const double x[3], double out[3]) {
    const double* m = f->m;
    const double r0 = ((f->p[0] + m[0] * x[0]) + m[3] * x[1]) + m[6] * x[2];
    const double r1 = ((f->p[1] + m[1] * x[0]) + m[4] * x[1]) + m[7] * x[2];
    const double r2 = ((f->p[2] + m[2] * x[0]) + m[5] * x[1]) + m[8] * x[2];
    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
}

double mani_IkDistance(const double a[3], const double b[3]) {
    const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return mcore_Length3_64(d);
}

static void mani_IkLocal64(const maniPose* pose, uint32_t bone, double t[3], double q[4], double s[3]) {
    const maniTransform l = mani_PoseGetLocalRaw(pose, bone);
    t[0] = l.translation.x;
    t[1] = l.translation.y;
    t[2] = l.translation.z;
    q[0] = l.rotation.x;
    q[1] = l.rotation.y;
    q[2] = l.rotation.z;
    q[3] = l.rotation.w;
    mcore_QuatNormalize64(q);
    s[0] = l.scale.x;
    s[1] = l.scale.y;
    s[2] = l.scale.z;
}

/* The locals from bone up to, not including, stop (MANI_NO_BONE: the
 * skeleton's root), composed: local(top) ... local(bone). Returns 0 when
 * there are none (out the identity). */
static int mani_IkComposeUp(const maniPose* pose, const maniSkeleton* skeleton, uint32_t bone, uint32_t stop,
                            mani_IkFrame* out) {
    int any = 0;
    mani_IkFrameIdentity(out);
    while (bone != MANI_NO_BONE && bone != stop) {
        double t[3], q[4], s[3];
        mani_IkFrame l, r;
        mani_IkLocal64(pose, bone, t, q, s);
        mani_IkFrameOfLocal(t, q, s, any ? &l : out);
        if (any) {
            mani_IkCompose(&l, out, &r);
            *out = r;
        }
        any = 1;
        bone = mani_IkParent(skeleton, bone);
    }
    return any;
}

void mani_IkChainLoad(mani_IkChain* c, const maniPose* pose, const maniSkeleton* skeleton, const uint32_t* bones,
                      uint32_t count) {
    c->count = count;
    c->valid = 0;
    for (uint32_t k = 0; k < count; ++k) {
        c->bones[k] = bones[k];
        const uint32_t parent = mani_IkParent(skeleton, bones[k]);
        c->gapIdentity[k] =
            (uint8_t)!mani_IkComposeUp(pose, skeleton, parent, k == 0 ? MANI_NO_BONE : bones[k - 1], &c->gap[k]);
        mani_IkLocal64(pose, bones[k], c->t[k], c->q[k], c->s[k]);
        memcpy(c->q0[k], c->q[k], sizeof c->q0[k]);
        c->turned[k] = 0;
    }
}

const mani_IkFrame* mani_IkChainFrame(mani_IkChain* c, uint32_t k) {
    while (c->valid <= k) {
        const uint32_t j = c->valid;
        mani_IkFrame l;
        if (j == 0)
            c->pre[0] = c->gap[0];
        else if (c->gapIdentity[j])
            c->pre[j] = c->frame[j - 1];
        else
            mani_IkCompose(&c->frame[j - 1], &c->gap[j], &c->pre[j]);
        mani_IkFrameOfLocal(c->t[j], c->q[j], c->s[j], &l);
        mani_IkCompose(&c->pre[j], &l, &c->frame[j]);
        c->valid = j + 1;
    }
    return &c->frame[k];
}

const mani_IkFrame* mani_IkChainPre(mani_IkChain* c, uint32_t k) {
    mani_IkChainFrame(c, k);
    return &c->pre[k];
}

void mani_IkChainOrigin(mani_IkChain* c, uint32_t k, double out[3]) {
    if (c->valid > k) {
        memcpy(out, c->frame[k].p, sizeof c->frame[k].p);
        return;
    }
    const mani_IkFrame* above = k == 0 ? NULL : mani_IkChainFrame(c, k - 1);
    if (k == 0)
        mani_IkFramePoint(&c->gap[0], c->t[0], out);
    else if (c->gapIdentity[k])
        mani_IkFramePoint(above, c->t[k], out);
    else {
        double x[3];
        mani_IkFramePoint(&c->gap[k], c->t[k], x);
        mani_IkFramePoint(above, x, out);
    }
}

void mani_IkChainSetLocal(mani_IkChain* c, uint32_t k, const double q[4]) {
    memcpy(c->q[k], q, sizeof c->q[k]);
    mcore_QuatNormalize64(c->q[k]);
    c->turned[k] = 1;
    if (c->valid > k) c->valid = k;
}

void mani_IkChainTurnedLocal(mani_IkChain* c, uint32_t k, const double r[4], double out[4]) {
    double P[4], pc[4], a[4], b[4];
    memcpy(P, mani_IkChainPre(c, k)->q, sizeof P);
    mcore_QuatNormalize64(P);
    mcore_QuatConj64(P, pc);
    mcore_QuatMul64(r, P, a);
    mcore_QuatMul64(pc, a, b);
    mcore_QuatMul64(b, c->q[k], out);
}

void mani_IkTurnAbout(const double n[3], const double a[3], const double b[3], double twist, double out[4]) {
    double bt[3], x[3];
    if (twist != 0.0) {
        double T[4];
        mcore_QuatAxisAngle64(n, twist, T);
        mcore_QuatRotateFast64(T, b, bt);
    } else {
        memcpy(bt, b, sizeof bt);
    }
    mcore_Cross3_64(a, bt, x);
    /* (Nearly) opposite: half a turn about n. The test is the one
     * mcore_QuatArc64 makes for its own fallback, whose axis is merely
     * perpendicular to a (not n): below it that axis would turn the chain
     * off the line (a twist of (float)(pi/2) put a two-bone chain's end on
     * the far side of its start). The turn is then off by at most 1.5e-7. */
    const double la = mcore_Length3_64(a), lb = mcore_Length3_64(bt);
    if (la > 0.0 && lb > 0.0 &&
        ((mcore_Dot3_64(a, bt) < 0.0 && mcore_Length3_64(x) <= 1e-12 * la * lb) ||
         la * lb + mcore_Dot3_64(a, bt) <= 1e-14 * (la * lb))) {
        out[0] = n[0], out[1] = n[1], out[2] = n[2], out[3] = 0.0;
        return;
    }
    mcore_QuatArc64(a, bt, out);
}

void mani_IkChainTurn(mani_IkChain* c, uint32_t k, const double r[4]) {
    double q[4];
    mani_IkChainTurnedLocal(c, k, r, q);
    mani_IkChainSetLocal(c, k, q);
}

void mani_IkChainWeight(mani_IkChain* c, double weight) {
    if (weight == 1.0) return;
    for (uint32_t k = 0; k < c->count; ++k) {
        if (!c->turned[k]) continue;
        double ic[4], d[4], dw[4], q[4];
        mcore_QuatConj64(c->q0[k], ic);
        mcore_QuatMul64(c->q[k], ic, d);
        mcore_QuatNormalize64(d);
        mcore_QuatPow64(d, weight, dw);
        mcore_QuatMul64(dw, c->q0[k], q);
        mcore_QuatNormalize64(q);
        memcpy(c->q[k], q, sizeof q);
        if (mani_IkSmallTurn(dw)) {
            memcpy(c->q[k], c->q0[k], sizeof q);
            c->turned[k] = 0;
        }
    }
    c->valid = 0;
}

void mani_IkChainWrite(const mani_IkChain* c, maniPose* pose) {
    for (uint32_t k = 0; k < c->count; ++k) {
        if (!c->turned[k]) continue;
        maniTransform l = mani_PoseGetLocalRaw(pose, c->bones[k]);
        double q[4];
        memcpy(q, c->q[k], sizeof q);
        if (q[3] < 0.0) q[0] = -q[0], q[1] = -q[1], q[2] = -q[2], q[3] = -q[3];
        l.rotation.x = (float)q[0];
        l.rotation.y = (float)q[1];
        l.rotation.z = (float)q[2];
        l.rotation.w = (float)q[3];
        mani_PoseSetLocalRaw(pose, c->bones[k], l);
    }
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
}

void mani_IkChainAxis(const mani_IkChain* c, uint32_t k, double axis[3]) {
    axis[0] = axis[1] = axis[2] = 0.0;
    if (k + 1 >= c->count) return;
    double x[3];
    mani_IkFramePoint(&c->gap[k + 1], c->t[k + 1], x);
    for (int i = 0; i < 3; ++i) x[i] *= c->s[k][i];
    const double l = mcore_Length3_64(x);
    if (!(l > 0.0) || !isfinite(l)) return;
    for (int i = 0; i < 3; ++i) axis[i] = x[i] / l;
}

void mani_IkRestRotation(const maniSkeleton* skeleton, uint32_t bone, double q[4]) {
    const maniTransform r = mani_SkeletonRestRaw(skeleton, bone);
    q[0] = r.rotation.x;
    q[1] = r.rotation.y;
    q[2] = r.rotation.z;
    q[3] = r.rotation.w;
    mcore_QuatNormalize64(q);
}

/* -- Limits ----------------------------------------------------------------- */

static int mani_IkAngleRange(float lo, float hi) {
    return isfinite(lo) && isfinite(hi) && lo >= -(float)MANI_IK_PI && hi <= (float)MANI_IK_PI && lo <= hi;
}

int mani_IkLimitOk(const maniJointLimit* limit, const double axis[3]) {
    switch (limit->kind) {
        case maniJointLimitNone:
            return 1;
        case maniJointLimitHinge: {
            if (!mani_IkFinite3(limit->axis) || !mani_IkAngleRange(limit->minAngle, limit->maxAngle)) return 0;
            const double h[3] = {limit->axis.x, limit->axis.y, limit->axis.z};
            const double l = mcore_Length3_64(h);
            if (!(l >= 0.999 && l <= 1.001)) return 0;
            double c[3];
            mcore_Cross3_64(h, axis, c);
            const double al = mcore_Length3_64(axis);
            return !(al > 0.0 && mcore_Length3_64(c) < 1e-3 * l * al); /* along the bone's axis */
        }
        case maniJointLimitCone:
            return isfinite(limit->cone) && limit->cone >= 0.0f && limit->cone <= (float)MANI_IK_PI;
        case maniJointLimitTwist:
            return mani_IkAngleRange(limit->minAngle, limit->maxAngle);
        case maniJointLimitConeTwist:
            return isfinite(limit->cone) && limit->cone >= 0.0f && limit->cone <= (float)MANI_IK_PI &&
                   mani_IkAngleRange(limit->minAngle, limit->maxAngle);
        default:
            return 0;
    }
}

/* The twist of d about a unit axis (w >= 0 taken), as an angle in [-pi, pi]
 * and its quaternion; 0 when d turns by pi about an axis perpendicular. */
static double mani_IkTwist(const double d[4], const double a[3], double t[4]) {
    const double p = mcore_Dot3_64(d, a);
    t[0] = a[0] * p;
    t[1] = a[1] * p;
    t[2] = a[2] * p;
    t[3] = d[3];
    const double l = sqrt(p * p + d[3] * d[3]);
    if (!(l > 1e-12)) {
        t[0] = t[1] = t[2] = 0.0;
        t[3] = 1.0;
        return 0.0;
    }
    for (int i = 0; i < 4; ++i) t[i] /= l;
    return 2.0 * mcore_atan2(p, d[3]);
}

static double mani_IkClamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

int mani_IkApplyLimit(const maniJointLimit* limit, const double rest[4], const double axis[3], double q[4]) {
    if (limit->kind == maniJointLimitNone) return 0;
    double rc[4], d[4];
    mcore_QuatConj64(rest, rc);
    mcore_QuatMul64(rc, q, d);
    mcore_QuatNormalize64(d);
    if (d[3] < 0.0) d[0] = -d[0], d[1] = -d[1], d[2] = -d[2], d[3] = -d[3];
    double nd[4];
    int changed = 0;
    if (limit->kind == maniJointLimitHinge) {
        double h[3] = {limit->axis.x, limit->axis.y, limit->axis.z};
        const double hl = mcore_Length3_64(h);
        for (int i = 0; i < 3; ++i) h[i] /= hl;
        double t[4];
        const double angle = mani_IkTwist(d, h, t);
        const double c = mani_IkClamp(angle, limit->minAngle, limit->maxAngle);
        /* off the hinge: anything but the twist about it */
        const double off = fabs(t[0] - d[0]) + fabs(t[1] - d[1]) + fabs(t[2] - d[2]) + fabs(t[3] - d[3]);
        if (c == angle && off < 1e-9) return 0;
        if (c == angle)
            memcpy(nd, t, sizeof nd);
        else
            mcore_QuatAxisAngle64(h, c, nd);
        changed = 1;
    } else {
        const double al = mcore_Length3_64(axis);
        if (!(al > 0.0)) return 0;
        double t[4], tc[4], s[4];
        double twist = mani_IkTwist(d, axis, t);
        mcore_QuatConj64(t, tc);
        mcore_QuatMul64(d, tc, s); /* d = s t */
        if (limit->kind == maniJointLimitTwist || limit->kind == maniJointLimitConeTwist) {
            const double c = mani_IkClamp(twist, limit->minAngle, limit->maxAngle);
            if (c != twist) {
                mcore_QuatAxisAngle64(axis, c, t);
                changed = 1;
            }
        }
        if (limit->kind == maniJointLimitCone || limit->kind == maniJointLimitConeTwist) {
            if (s[3] < 0.0) s[0] = -s[0], s[1] = -s[1], s[2] = -s[2], s[3] = -s[3];
            const double sv = sqrt((s[0] * s[0] + s[1] * s[1]) + s[2] * s[2]);
            const double swing = 2.0 * mcore_atan2(sv, s[3]);
            if (swing > (double)limit->cone && sv > 0.0) {
                const double sa[3] = {s[0] / sv, s[1] / sv, s[2] / sv};
                mcore_QuatAxisAngle64(sa, limit->cone, s);
                changed = 1;
            }
        }
        if (!changed) return 0;
        mcore_QuatMul64(s, t, nd);
    }
    mcore_QuatMul64(rest, nd, q);
    mcore_QuatNormalize64(q);
    return changed;
}

/* -- CCD and FABRIK chains --------------------------------------------------- */

maniResult mani_IkChainPrepare(const maniPose* pose, const maniSkeleton* skeleton, const maniChainSolve* solve,
                               int fabrik, mani_IkChainSetup* setup) {
    if (solve == NULL || !mani_IkPoseOk(pose, skeleton)) return mani_errorInvalid;
    const uint32_t n = skeleton->boneCount;
    if (solve->rootBone >= n || solve->endBone >= n) return mani_errorInvalid;
    if (!mani_IkIsAncestor(skeleton, solve->rootBone, solve->endBone)) return mani_errorInvalid;
    if (!mani_IkFinite3(solve->goal) || !mani_IkFinite3(solve->pole)) return mani_errorInvalid;
    if (!fabrik && (solve->pole.x != 0.0f || solve->pole.y != 0.0f || solve->pole.z != 0.0f)) return mani_errorInvalid;
    const maniQuat r = solve->rotation;
    if (!isfinite(r.x) || !isfinite(r.y) || !isfinite(r.z) || !isfinite(r.w)) return mani_errorInvalid;
    if (r.x == 0.0f && r.y == 0.0f && r.z == 0.0f && r.w == 0.0f) return mani_errorInvalid;
    if (solve->iterations == 0 || !isfinite(solve->tolerance) || solve->tolerance < 0.0f) return mani_errorInvalid;
    if (fabrik ? solve->step != 0.0f : !(solve->step >= 0.0f && solve->step <= (float)MANI_IK_PI))
        return mani_errorInvalid;
    if (!mani_IkUnit01(solve->rotationWeight) || !mani_IkUnit01(solve->weight)) return mani_errorInvalid;
    if (solve->limitCount > 0 && solve->limits == NULL) return mani_errorInvalid;
    /* the path, end up to root */
    uint32_t path[MANI_MAX_IK_CHAIN_BONES];
    uint32_t count = 0;
    for (uint32_t b = solve->endBone;; b = mani_IkParent(skeleton, b)) {
        if (count == MANI_MAX_IK_CHAIN_BONES) return mani_errorLimit;
        path[count++] = b;
        if (b == solve->rootBone) break;
    }
    if (solve->iterations > MANI_MAX_IK_ITERATIONS) return mani_errorLimit;
    uint32_t keys[MANI_MAX_IK_CHAIN_BONES];
    for (uint32_t k = 0; k < count; ++k) keys[k] = path[count - 1 - k];
    mani_IkChain* c = &setup->chain;
    mani_IkChainLoad(c, pose, skeleton, keys, count);
    for (uint32_t k = 0; k < count; ++k) {
        setup->limit[k] = NULL;
        mani_IkChainAxis(c, k, setup->axis[k]);
        mani_IkRestRotation(skeleton, keys[k], setup->rest[k]);
    }
    for (uint32_t i = 0; i < solve->limitCount; ++i) {
        const maniChainLimit* l = &solve->limits[i];
        uint32_t k = 0;
        while (k + 1 < count && keys[k] != l->bone) ++k;
        if (k + 1 >= count || setup->limit[k] != NULL) return mani_errorInvalid; /* off the path, or twice */
        if (!mani_IkLimitOk(&l->limit, setup->axis[k])) return mani_errorInvalid;
        setup->limit[k] = &l->limit;
    }
    setup->goal[0] = solve->goal.x;
    setup->goal[1] = solve->goal.y;
    setup->goal[2] = solve->goal.z;
    setup->length = 0.0;
    for (uint32_t k = 0; k + 1 < count; ++k)
        setup->length += mani_IkDistance(mani_IkChainFrame(c, k)->p, mani_IkChainFrame(c, k + 1)->p);
    return mani_success;
}

int mani_IkChainLimit(mani_IkChainSetup* setup, uint32_t k) {
    if (setup->limit[k] == NULL) return 0;
    double q[4];
    memcpy(q, setup->chain.q[k], sizeof q);
    if (!mani_IkApplyLimit(setup->limit[k], setup->rest[k], setup->axis[k], q)) return 0;
    mani_IkChainSetLocal(&setup->chain, k, q);
    return 1;
}

double mani_IkChainMiss(mani_IkChainSetup* setup) {
    double e[3];
    mani_IkChainOrigin(&setup->chain, setup->chain.count - 1, e);
    return mani_IkDistance(e, setup->goal);
}

void mani_IkChainFinish(mani_IkChainSetup* setup, const maniChainSolve* solve, maniPose* pose, bool* reachedOut) {
    mani_IkChain* c = &setup->chain;
    const uint32_t e = c->count - 1;
    if (solve->rotationWeight > 0.0f) {
        double want[4] = {solve->rotation.x, solve->rotation.y, solve->rotation.z, solve->rotation.w}, mc[4], d[4];
        mcore_QuatNormalize64(want);
        double cur[4];
        memcpy(cur, mani_IkChainFrame(c, e)->q, sizeof cur);
        mcore_QuatNormalize64(cur);
        mcore_QuatConj64(cur, mc);
        mcore_QuatMul64(want, mc, d);
        mcore_QuatNormalize64(d);
        mcore_QuatPow64(d, solve->rotationWeight, d);
        if (!mani_IkSmallTurn(d)) mani_IkChainTurn(c, e, d);
    }
    if (solve->weight != 1.0f) {
        mani_IkChainWeight(c, solve->weight);
        for (uint32_t k = 0; k < c->count; ++k) mani_IkChainLimit(setup, k);
    }
    mani_IkChainWrite(c, pose);
    if (reachedOut != NULL) *reachedOut = mani_IkChainMiss(setup) <= (double)solve->tolerance;
}
