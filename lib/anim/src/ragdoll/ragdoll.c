/* ragdoll.h: opening a ragdoll profile (every byte checked once), the
 * view's accessors, bodies from poses and back, joint targets and the get-up
 * placement. The library never simulates. */
#include "maul/anim/ragdoll.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/ragdoll/ragdoll_format.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/core/utf8.h"

/* The tolerance of a caller's rotation (a body's, the placement's): of
 * length 1 within a thousandth. */
#define MANI_RAGDOLL_ROTATION_TOLERANCE 1e-3

/* -- The view ------------------------------------------------------------------ */

static int mani_RagdollViewOk(const maniRagdoll* r) {
    if (r == NULL || r->opened != MANI_RAGDOLL_OPENED || r->bytes == NULL) return 0;
    if (r->boneCount == 0 || r->boneCount > MANI_MAX_BONES || r->bodyCount == 0 || r->bodyCount > r->boneCount) return 0;
    return mcore_SpanFits(r->bodies, r->bodyCount, MANI_RAGDOLL_BODY_SIZE, r->size) &&
           mcore_SpanFits(r->names, r->namesSize, 1, r->size);
}

uint64_t maniRagdoll_GetIdentity(const maniRagdoll* ragdoll) { return mani_RagdollViewOk(ragdoll) ? ragdoll->identity : 0; }

uint64_t maniRagdoll_GetSkeletonIdentity(const maniRagdoll* ragdoll) {
    return mani_RagdollViewOk(ragdoll) ? ragdoll->skeletonIdentity : 0;
}

uint32_t maniRagdoll_GetBodyCount(const maniRagdoll* ragdoll) { return mani_RagdollViewOk(ragdoll) ? ragdoll->bodyCount : 0; }

static const uint8_t* mani_RagdollRecord(const maniRagdoll* r, uint32_t body) {
    return r->bytes + r->bodies + (uint64_t)MANI_RAGDOLL_BODY_SIZE * body;
}

static maniRagdollFrame mani_ReadFrame(const uint8_t* p) {
    maniRagdollFrame f;
    f.position.x = mcore_ReadF32(p);
    f.position.y = mcore_ReadF32(p + 4);
    f.position.z = mcore_ReadF32(p + 8);
    f.rotation.x = mcore_ReadF32(p + 12);
    f.rotation.y = mcore_ReadF32(p + 16);
    f.rotation.z = mcore_ReadF32(p + 20);
    f.rotation.w = mcore_ReadF32(p + 24);
    return f;
}

static mani_Rigid64 mani_FrameRigid(maniRagdollFrame f) { return mani_Rigid64FromFloats(f.position, f.rotation); }

/* A body's parent as the bytes hold it, clamped: a parent not before the
 * body (bytes changed after the open) reads as none. */
static uint32_t mani_RagdollParentRaw(const maniRagdoll* r, uint32_t body) {
    const uint32_t p = mcore_ReadU32(mani_RagdollRecord(r, body) + 4);
    return p < body ? p : MANI_RAGDOLL_NO_BODY;
}

static uint32_t mani_RagdollBoneRaw(const maniRagdoll* r, uint32_t body) {
    return mcore_ReadU32(mani_RagdollRecord(r, body));
}

maniResult maniRagdoll_GetBody(const maniRagdoll* ragdoll, uint32_t body, maniRagdollBody* bodyOut) {
    if (!mani_RagdollViewOk(ragdoll) || bodyOut == NULL || body >= ragdoll->bodyCount) return mani_errorInvalid;
    const uint8_t* p = mani_RagdollRecord(ragdoll, body);
    maniRagdollBody b;
    memset(&b, 0, sizeof b);
    b.bone = mcore_ReadU32(p);
    b.parent = mani_RagdollParentRaw(ragdoll, body);
    b.shape = mcore_ReadU32(p + 8);
    b.motion = mcore_ReadU32(p + 12);
    b.size.x = mcore_ReadF32(p + 16);
    b.size.y = mcore_ReadF32(p + 20);
    b.size.z = mcore_ReadF32(p + 24);
    b.mass = mcore_ReadF32(p + 28);
    b.frame = mani_ReadFrame(p + MANI_RAGDOLL_BODY_FRAME);
    b.joint = mani_ReadFrame(p + MANI_RAGDOLL_BODY_JOINT);
    b.parentJoint = mani_ReadFrame(p + MANI_RAGDOLL_BODY_PARENT_JOINT);
    b.twistMin = mcore_ReadF32(p + MANI_RAGDOLL_BODY_LIMITS);
    b.twistMax = mcore_ReadF32(p + MANI_RAGDOLL_BODY_LIMITS + 4);
    b.swingY = mcore_ReadF32(p + MANI_RAGDOLL_BODY_LIMITS + 8);
    b.swingZ = mcore_ReadF32(p + MANI_RAGDOLL_BODY_LIMITS + 12);
    b.driveStiffness = mcore_ReadF32(p + MANI_RAGDOLL_BODY_DRIVE);
    b.driveDamping = mcore_ReadF32(p + MANI_RAGDOLL_BODY_DRIVE + 4);
    b.driveMaxForce = mcore_ReadF32(p + MANI_RAGDOLL_BODY_DRIVE + 8);
    const uint64_t offset = mcore_ReadU32(p + MANI_RAGDOLL_BODY_NAME);
    const uint64_t length = mcore_ReadU32(p + MANI_RAGDOLL_BODY_NAME + 4);
    if (length != 0 && offset <= ragdoll->namesSize && length <= ragdoll->namesSize - offset) {
        b.name = (const char*)(ragdoll->bytes + ragdoll->names + offset);
        b.nameLength = (size_t)length;
    }
    *bodyOut = b;
    return mani_success;
}

/* -- Checks shared by the computations ------------------------------------------ */

static int mani_Vec3Finite(maniVec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static int mani_QuatFinite(maniQuat q) { return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w); }

/* Whether a rotation has length 1 within tolerance (finite checked too). */
static int mani_QuatUnit(maniQuat q, double tolerance) {
    if (!mani_QuatFinite(q)) return 0;
    const double l2 = (((double)q.x * q.x + (double)q.y * q.y) + (double)q.z * q.z) + (double)q.w * q.w;
    return fabs(sqrt(l2) - 1.0) <= tolerance;
}

/* A placement's rigid part: finite, its rotation normalized (0 for a
 * rotation of length 0). */
static int mani_PlacementRigid(const maniTransform* t, mani_Rigid64* out) {
    if (!mani_Vec3Finite(t->translation) || !mani_QuatFinite(t->rotation) || !mani_Vec3Finite(t->scale)) return 0;
    mani_Rigid64 r = mani_Rigid64FromFloats(t->translation, t->rotation);
    const double l = mcore_QuatNormalize64(r.q);
    if (!(l > 0.0) || !isfinite(l)) return 0;
    *out = r;
    return 1;
}

/* Whether a pose may feed the bodies: one of the profile's skeleton, not a
 * difference, its model current. */
static int mani_RagdollPoseOk(const maniRagdoll* r, const maniPose* pose) {
    return mani_PoseOk(pose) && pose->skeletonIdentity == r->skeletonIdentity && pose->boneCount == r->boneCount &&
           (pose->flags & MANI_POSE_DIFFERENCE) == 0 && (pose->flags & MANI_POSE_MODEL_CURRENT) != 0;
}

static int mani_BodyStateOk(const maniRagdollBodyState* b) {
    return mani_Vec3Finite(b->position) && mani_QuatUnit(b->rotation, MANI_RAGDOLL_ROTATION_TOLERANCE);
}

static mani_Rigid64 mani_BodyRigid(const maniRagdollBodyState* b) {
    mani_Rigid64 r = mani_Rigid64FromFloats(b->position, b->rotation);
    (void)mcore_QuatNormalize64(r.q);
    return r;
}

/* -- Bodies from a pose ----------------------------------------------------------- */

/* Body k's world frame under placement P from a pose's model. */
static mani_Rigid64 mani_BodyWorld(const maniRagdoll* r, uint32_t k, const maniPose* pose, const mani_Rigid64* P) {
    const uint8_t* rec = mani_RagdollRecord(r, k);
    const uint32_t bone = mcore_ReadU32(rec);
    const maniTransform m = maniPose_GetModelTransform(pose, bone < r->boneCount ? bone : 0);
    const mani_Rigid64 model = mani_Rigid64FromFloats(m.translation, m.rotation);
    const mani_Rigid64 frame = mani_FrameRigid(mani_ReadFrame(rec + MANI_RAGDOLL_BODY_FRAME));
    const mani_Rigid64 a = mani_Rigid64Mul(P, &model);
    return mani_Rigid64Mul(&a, &frame);
}

maniResult maniRagdoll_ComputeBodiesFromPose(const maniRagdoll* ragdoll, const maniPose* pose,
                                             const maniTransform* placement, const maniPose* previous,
                                             const maniTransform* previousPlacement, float seconds,
                                             maniRagdollBodyState* bodiesOut, uint32_t capacity, uint32_t* countOut) {
    if (!mani_RagdollViewOk(ragdoll) || placement == NULL || (bodiesOut == NULL && capacity > 0)) return mani_errorInvalid;
    if (!mani_RagdollPoseOk(ragdoll, pose)) return mani_errorInvalid;
    mani_Rigid64 P, Pp;
    if (!mani_PlacementRigid(placement, &P)) return mani_errorInvalid;
    if (previous != NULL) {
        if (previousPlacement == NULL || !mani_RagdollPoseOk(ragdoll, previous)) return mani_errorInvalid;
        if (!mani_PlacementRigid(previousPlacement, &Pp)) return mani_errorInvalid;
        if (!isfinite(seconds) || !(seconds > 0.0f)) return mani_errorInvalid;
    }
    const uint32_t n = ragdoll->bodyCount;
    if (countOut != NULL) *countOut = n;
    if (capacity < n) return mani_errorCapacity;
    for (uint32_t k = 0; k < n; ++k) {
        const mani_Rigid64 W = mani_BodyWorld(ragdoll, k, pose, &P);
        const maniRagdollFrame w = mani_Rigid64ToFrame(W);
        maniRagdollBodyState s;
        memset(&s, 0, sizeof s);
        s.position = w.position;
        s.rotation = w.rotation;
        if (previous != NULL) {
            const mani_Rigid64 V = mani_BodyWorld(ragdoll, k, previous, &Pp);
            const maniRagdollFrame v = mani_Rigid64ToFrame(V);
            const double dt = seconds;
            /* From the binary64 positions, not their binary32 roundings: gcc 12
             * on x86-64 (-O2) was seen to subtract the binary64 values where
             * the source widened the binary32 ones, one ulp off arm64. */
            s.linearVelocity.x = (float)((W.p[0] - V.p[0]) / dt);
            s.linearVelocity.y = (float)((W.p[1] - V.p[1]) / dt);
            s.linearVelocity.z = (float)((W.p[2] - V.p[2]) / dt);
            /* The turn from the previous rotation to this one, in the world:
             * q q_prev^-1, the short way. */
            const double qa[4] = {w.rotation.x, w.rotation.y, w.rotation.z, w.rotation.w};
            const double qb[4] = {-(double)v.rotation.x, -(double)v.rotation.y, -(double)v.rotation.z, v.rotation.w};
            double d[4];
            mcore_QuatMul64(qa, qb, d);
            if (d[3] < 0.0)
                for (int c = 0; c < 4; ++c) d[c] = -d[c];
            const double vl = sqrt((d[0] * d[0] + d[1] * d[1]) + d[2] * d[2]);
            if (vl > 0.0) {
                const double rate = 2.0 * mcore_atan2(vl, d[3]) / dt / vl;
                s.angularVelocity.x = (float)(d[0] * rate);
                s.angularVelocity.y = (float)(d[1] * rate);
                s.angularVelocity.z = (float)(d[2] * rate);
            }
        }
        bodiesOut[k] = s;
    }
    return mani_success;
}

/* -- Joint targets ---------------------------------------------------------------- */

maniResult maniRagdoll_ComputeJointTargets(const maniRagdoll* ragdoll, const maniRagdollBodyState* bodies,
                                           maniRagdollJointTarget* jointsOut, uint32_t capacity, uint32_t* countOut) {
    if (!mani_RagdollViewOk(ragdoll) || bodies == NULL || (jointsOut == NULL && capacity > 0)) return mani_errorInvalid;
    const uint32_t n = ragdoll->bodyCount;
    if (countOut != NULL) *countOut = n;
    if (capacity < n) return mani_errorCapacity;
    for (uint32_t k = 0; k < n; ++k) {
        maniRagdollJointTarget t;
        memset(&t, 0, sizeof t);
        t.rotation.w = 1.0f;
        const uint32_t p = mani_RagdollParentRaw(ragdoll, k);
        if (p != MANI_RAGDOLL_NO_BODY) {
            const uint8_t* rec = mani_RagdollRecord(ragdoll, k);
            const mani_Rigid64 child = mani_BodyRigid(&bodies[k]), parent = mani_BodyRigid(&bodies[p]);
            const mani_Rigid64 jc = mani_FrameRigid(mani_ReadFrame(rec + MANI_RAGDOLL_BODY_JOINT));
            const mani_Rigid64 jp = mani_FrameRigid(mani_ReadFrame(rec + MANI_RAGDOLL_BODY_PARENT_JOINT));
            const mani_Rigid64 a = mani_Rigid64Mul(&parent, &jp), b = mani_Rigid64Mul(&child, &jc);
            double ai[4], q[4];
            mcore_QuatConj64(a.q, ai);
            mcore_QuatMul64(ai, b.q, q);
            (void)mcore_QuatNormalize64(q);
            t.rotation.x = (float)q[0];
            t.rotation.y = (float)q[1];
            t.rotation.z = (float)q[2];
            t.rotation.w = (float)q[3];
            const maniVec3 wc = bodies[k].angularVelocity, wp = bodies[p].angularVelocity;
            const double dw[3] = {(double)wc.x - wp.x, (double)wc.y - wp.y, (double)wc.z - wp.z};
            double rel[3];
            mcore_QuatRotateFast64(ai, dw, rel);
            t.angularVelocity.x = (float)rel[0];
            t.angularVelocity.y = (float)rel[1];
            t.angularVelocity.z = (float)rel[2];
        }
        jointsOut[k] = t;
    }
    return mani_success;
}

/* -- The pose from bodies --------------------------------------------------------- */

static void mani_PoseSetModelLane(maniPose* pose, uint32_t bone, const maniAffine* a) {
    maniSimdAffinex8* g = &mani_PoseModels(pose)[bone / 8];
    const uint32_t l = bone % 8;
    for (int c = 0; c < 4; ++c) {
        g->c[c].x[l] = a->columns[c].x;
        g->c[c].y[l] = a->columns[c].y;
        g->c[c].z[l] = a->columns[c].z;
    }
}

/* The local that puts a bone's model rigid frame at m below a parent model
 * matrix: the translation through the parent's inverse, the rotation the
 * parent's (split as maniDecomposeAffine splits it) taken off. */
static maniTransform mani_LocalBelow(const maniAffine* parent, const mani_Rigid64* m, maniVec3 scale) {
    maniTransform split;
    if (maniDecomposeAffine(parent, &split) != mani_success) split = mani_IdentityTransform();
    /* The parent's linear part inverted in binary64 (cofactors). */
    const double a[3][3] = {{parent->columns[0].x, parent->columns[1].x, parent->columns[2].x},
                            {parent->columns[0].y, parent->columns[1].y, parent->columns[2].y},
                            {parent->columns[0].z, parent->columns[1].z, parent->columns[2].z}};
    double inv[3][3];
    inv[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    inv[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
    inv[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
    inv[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    inv[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
    inv[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
    inv[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    inv[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
    inv[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    const double det = (a[0][0] * inv[0][0] + a[0][1] * inv[1][0]) + a[0][2] * inv[2][0];
    const double d[3] = {m->p[0] - parent->columns[3].x, m->p[1] - parent->columns[3].y, m->p[2] - parent->columns[3].z};
    maniTransform local;
    if (det != 0.0 && isfinite(det)) {
        local.translation.x = (float)(((inv[0][0] * d[0] + inv[0][1] * d[1]) + inv[0][2] * d[2]) / det);
        local.translation.y = (float)(((inv[1][0] * d[0] + inv[1][1] * d[1]) + inv[1][2] * d[2]) / det);
        local.translation.z = (float)(((inv[2][0] * d[0] + inv[2][1] * d[1]) + inv[2][2] * d[2]) / det);
    } else {
        local.translation.x = (float)d[0];
        local.translation.y = (float)d[1];
        local.translation.z = (float)d[2];
    }
    const double pq[4] = {-(double)split.rotation.x, -(double)split.rotation.y, -(double)split.rotation.z,
                          split.rotation.w};
    double q[4];
    mcore_QuatMul64(pq, m->q, q);
    (void)mcore_QuatNormalize64(q);
    local.rotation.x = (float)q[0];
    local.rotation.y = (float)q[1];
    local.rotation.z = (float)q[2];
    local.rotation.w = (float)q[3];
    local.scale = scale;
    return local;
}

maniResult maniRagdoll_ComputePoseFromBodies(const maniRagdoll* ragdoll, const maniSkeleton* skeleton,
                                             const maniRagdollBodyState* bodies, uint32_t count,
                                             const maniTransform* placement, const maniPose* reference,
                                             maniPose* poseOut) {
    if (!mani_RagdollViewOk(ragdoll) || !mani_SkeletonViewOk(skeleton) || bodies == NULL || placement == NULL ||
        !mani_PoseOk(reference) || !mani_PoseOk(poseOut))
        return mani_errorInvalid;
    const uint32_t n = ragdoll->boneCount;
    if (skeleton->identity != ragdoll->skeletonIdentity || skeleton->boneCount != n) return mani_errorInvalid;
    if (reference->skeletonIdentity != skeleton->identity || reference->boneCount != n ||
        poseOut->skeletonIdentity != skeleton->identity || poseOut->boneCount != n)
        return mani_errorInvalid;
    if ((reference->flags & MANI_POSE_DIFFERENCE) != 0 || (poseOut->flags & MANI_POSE_DIFFERENCE) != 0)
        return mani_errorInvalid;
    mani_Rigid64 P;
    if (!mani_Vec3Finite(placement->translation) || !mani_Vec3Finite(placement->scale) ||
        !mani_QuatUnit(placement->rotation, MANI_RAGDOLL_ROTATION_TOLERANCE) || !mani_PlacementRigid(placement, &P))
        return mani_errorInvalid;
    if (count < ragdoll->bodyCount) return mani_errorCapacity;
    for (uint32_t k = 0; k < ragdoll->bodyCount; ++k)
        if (!mani_BodyStateOk(&bodies[k])) return mani_errorInvalid;

    const mani_Rigid64 Pinv = mani_Rigid64Inverse(&P);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t parent = mani_SkeletonParentRaw(skeleton, i);
        const maniAffine pa = parent < i ? maniPose_GetModel(poseOut, parent) : mani_IdentityAffine();
        const maniTransform ref = mani_PoseGetLocalRaw(reference, i);
        while (k < ragdoll->bodyCount && mani_RagdollBoneRaw(ragdoll, k) < i) ++k;
        maniTransform local = ref;
        if (k < ragdoll->bodyCount && mani_RagdollBoneRaw(ragdoll, k) == i) {
            const mani_Rigid64 world = mani_BodyRigid(&bodies[k]);
            const mani_Rigid64 frame = mani_FrameRigid(mani_ReadFrame(mani_RagdollRecord(ragdoll, k) + MANI_RAGDOLL_BODY_FRAME));
            const mani_Rigid64 frameInv = mani_Rigid64Inverse(&frame);
            const mani_Rigid64 a = mani_Rigid64Mul(&Pinv, &world);
            const mani_Rigid64 model = mani_Rigid64Mul(&a, &frameInv);
            local = mani_LocalBelow(&pa, &model, ref.scale);
        }
        mani_PoseSetLocalRaw(poseOut, i, local);
        /* The model so far, for the bones below (composed again at the end
         * exactly as maniPose_ComputeModel composes). */
        const maniAffine la = maniSimdSingle_TransformToAffine(&local);
        const maniAffine ma = maniSimdSingle_AffineMul(&pa, &la);
        mani_PoseSetModelLane(poseOut, i, &ma);
    }
    return maniPose_ComputeModel(poseOut, skeleton);
}

/* -- The get-up placement ------------------------------------------------------- */

static void mani_Vec3To64(maniVec3 v, double out[3]) {
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

/* v on the plane normal to unit n: v - (v.n) n. */
static void mani_OnPlane(const double v[3], const double n[3], double out[3]) {
    const double d = mcore_Dot3_64(v, n);
    for (int c = 0; c < 3; ++c) out[c] = v[c] - d * n[c];
}

maniResult maniRagdoll_ComputeGetUpPlacement(const maniRagdoll* ragdoll, const maniRagdollBodyState* bodies,
                                             uint32_t count, const maniRagdollGround* ground,
                                             maniRagdollGetUp* placementOut) {
    if (!mani_RagdollViewOk(ragdoll) || bodies == NULL || ground == NULL || placementOut == NULL)
        return mani_errorInvalid;
    if (!mani_Vec3Finite(ground->point) || !mani_Vec3Finite(ground->normal)) return mani_errorInvalid;
    double n[3], facing[3], up[3], mf[3], mu[3];
    mani_Vec3To64(ground->normal, n);
    const double nl = mcore_Length3_64(n);
    if (!(fabs(nl - 1.0) <= MANI_RAGDOLL_AXIS_TOLERANCE)) return mani_errorInvalid;
    if (!mani_Vec3Finite(ragdoll->facing) || !mani_Vec3Finite(ragdoll->up) || !mani_Vec3Finite(ragdoll->modelForward) ||
        !mani_Vec3Finite(ragdoll->modelUp) || !mani_RagdollAxesOk(ragdoll->facing, ragdoll->up) ||
        !mani_RagdollAxesOk(ragdoll->modelForward, ragdoll->modelUp))
        return mani_errorInvalid;
    if (count < ragdoll->bodyCount) return mani_errorCapacity;
    for (uint32_t k = 0; k < ragdoll->bodyCount; ++k)
        if (!mani_BodyStateOk(&bodies[k])) return mani_errorInvalid;
    for (int c = 0; c < 3; ++c) n[c] /= nl;
    mani_Vec3To64(ragdoll->facing, facing);
    mani_Vec3To64(ragdoll->up, up);
    mani_Vec3To64(ragdoll->modelForward, mf);
    mani_Vec3To64(ragdoll->modelUp, mu);

    /* The root body's axes in the world. */
    const mani_Rigid64 root = mani_BodyRigid(&bodies[0]);
    double f[3], u[3];
    mcore_QuatRotateFast64(root.q, facing, f);
    mcore_QuatRotateFast64(root.q, up, u);
    const double fn = mcore_Dot3_64(f, n), un = mcore_Dot3_64(u, n);
    const uint32_t faceUp = fn >= 0.0 ? 1u : 0u;
    double fp[3], upl[3], head[3], h[3];
    mani_OnPlane(f, n, fp);
    mani_OnPlane(u, n, upl);
    for (int c = 0; c < 3; ++c) head[c] = faceUp ? -upl[c] : upl[c];
    for (int c = 0; c < 3; ++c) h[c] = head[c] + un * fp[c];
    if (mcore_Length3_64(h) < 1e-3) memcpy(h, head, sizeof h);
    if (mcore_Length3_64(h) < 1e-3) memcpy(h, fp, sizeof h);
    if (mcore_Length3_64(h) < 1e-3) {
        /* Any direction on the plane: the world axis least along the normal,
         * on the plane. */
        const double ax = fabs(n[0]), ay = fabs(n[1]), az = fabs(n[2]);
        const double e[3] = {ax <= ay && ax <= az ? 1.0 : 0.0, ay < ax && ay <= az ? 1.0 : 0.0,
                             az < ax && az < ay ? 1.0 : 0.0};
        mani_OnPlane(e, n, h);
    }
    /* On the plane exactly, of length 1. */
    double hp[3];
    mani_OnPlane(h, n, hp);
    const double hl = mcore_Length3_64(hp);
    for (int c = 0; c < 3; ++c) hp[c] /= hl;

    /* The turn taking the model's up onto the normal, then about the normal
     * taking the model's forward (turned, on the plane) onto the heading. */
    double q1[4], q2[4], q[4], f1[3], f1p[3], cr[3];
    (void)mcore_QuatArc64(mu, n, q1);
    mcore_QuatRotateFast64(q1, mf, f1);
    mani_OnPlane(f1, n, f1p);
    mcore_Cross3_64(f1p, hp, cr);
    const double angle = mcore_atan2(mcore_Dot3_64(cr, n), mcore_Dot3_64(f1p, hp));
    mcore_QuatAxisAngle64(n, angle, q2);
    mcore_QuatMul64(q2, q1, q);
    (void)mcore_QuatNormalize64(q);
    if (q[3] < 0.0)
        for (int c = 0; c < 4; ++c) q[c] = -q[c];

    /* On the plane under the root body. */
    double p[3], gp[3], rel[3];
    memcpy(p, root.p, sizeof p);
    mani_Vec3To64(ground->point, gp);
    for (int c = 0; c < 3; ++c) rel[c] = p[c] - gp[c];
    const double height = mcore_Dot3_64(rel, n);

    maniRagdollGetUp g;
    memset(&g, 0, sizeof g);
    g.placement.translation.x = (float)(p[0] - height * n[0]);
    g.placement.translation.y = (float)(p[1] - height * n[1]);
    g.placement.translation.z = (float)(p[2] - height * n[2]);
    g.placement.rotation.x = (float)q[0];
    g.placement.rotation.y = (float)q[1];
    g.placement.rotation.z = (float)q[2];
    g.placement.rotation.w = (float)q[3];
    g.placement.scale.x = g.placement.scale.y = g.placement.scale.z = 1.0f;
    g.heading.x = (float)hp[0];
    g.heading.y = (float)hp[1];
    g.heading.z = (float)hp[2];
    g.faceUp = faceUp;
    *placementOut = g;
    return mani_success;
}

/* -- The open ------------------------------------------------------------------- */

/* The first non-finite of count floats at p, or UINT64_MAX. */
static uint64_t mani_FirstNotFinite(const uint8_t* b, uint64_t at, uint32_t count) {
    for (uint32_t k = 0; k < count; ++k)
        if (!isfinite(mcore_ReadF32(b + at + 4ull * k))) return at + 4ull * k;
    return UINT64_MAX;
}

/* A frame's check: finite, its rotation of length 1; UINT64_MAX or the
 * offset of the first wrong byte. */
static uint64_t mani_CheckFrame(const uint8_t* b, uint64_t at) {
    const uint64_t bad = mani_FirstNotFinite(b, at, 7);
    if (bad != UINT64_MAX) return bad;
    const maniRagdollFrame f = mani_ReadFrame(b + at);
    return mani_QuatUnit(f.rotation, MANI_UNIT_TOLERANCE) ? UINT64_MAX : at + 12;
}

static maniVec3 mani_ReadVec3(const uint8_t* p) {
    maniVec3 v = {mcore_ReadF32(p), mcore_ReadF32(p + 4), mcore_ReadF32(p + 8)};
    return v;
}

maniFileResult maniOpenRagdoll(const void* bytes, size_t size, maniRagdoll* ragdollOut) {
    if (bytes == NULL || ragdollOut == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindRagdoll, mcore_formatRagdollLatest,
                                                     maniRagdollSections, MANI_RAGDOLL_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* The header. */
    if (sec[0].size != MANI_RAGDOLL_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint64_t skeletonIdentity = mcore_ReadU64(b + info);
    const uint32_t boneCount = mcore_ReadU32(b + info + 8);
    if (boneCount == 0 || boneCount > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info + 8);
    const uint32_t bodyCount = mcore_ReadU32(b + info + 12);
    if (bodyCount == 0 || bodyCount > boneCount) return mani_FileResult(mani_errorFormat, info + 12);
    if (sec[1].size != (uint64_t)bodyCount * MANI_RAGDOLL_BODY_SIZE)
        return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(1));
    const uint32_t namesSize = mcore_ReadU32(b + info + 16);
    if (namesSize != sec[2].size) return mani_FileResult(mani_errorFormat, info + 16);
    for (uint64_t i = 20; i < 24; ++i)
        if (b[info + i] != 0) return mani_FileResult(mani_errorFormat, info + i);
    const uint64_t badAxis = mani_FirstNotFinite(b, info + 24, 12);
    if (badAxis != UINT64_MAX) return mani_FileResult(mani_errorFormat, badAxis);
    const maniVec3 facing = mani_ReadVec3(b + info + 24), up = mani_ReadVec3(b + info + 36);
    const maniVec3 modelForward = mani_ReadVec3(b + info + 48), modelUp = mani_ReadVec3(b + info + 60);
    if (!mani_RagdollAxesOk(facing, up)) return mani_FileResult(mani_errorFormat, info + 24);
    if (!mani_RagdollAxesOk(modelForward, modelUp)) return mani_FileResult(mani_errorFormat, info + 48);
    for (uint64_t i = 72; i < MANI_RAGDOLL_INFO_SIZE; ++i)
        if (b[info + i] != 0) return mani_FileResult(mani_errorFormat, info + i);

    /* The bodies. */
    const uint64_t bodies = sec[1].offset, names = sec[2].offset;
    for (uint32_t k = 0; k < bodyCount; ++k) {
        const uint64_t r = bodies + (uint64_t)MANI_RAGDOLL_BODY_SIZE * k;
        const uint32_t bone = mcore_ReadU32(b + r);
        if (bone >= boneCount || (k > 0 && bone <= mcore_ReadU32(b + r - MANI_RAGDOLL_BODY_SIZE)))
            return mani_FileResult(mani_errorFormat, r);
        const uint32_t parent = mcore_ReadU32(b + r + 4);
        if (k == 0 ? parent != MANI_RAGDOLL_NO_BODY : parent >= k) return mani_FileResult(mani_errorFormat, r + 4);
        const uint32_t mask = mani_RagdollShapeMask(mcore_ReadU32(b + r + 8));
        if (mask == 0) return mani_FileResult(mani_errorFormat, r + 8);
        if (mcore_ReadU32(b + r + 12) > maniRagdollMotionKinematic) return mani_FileResult(mani_errorFormat, r + 12);
        for (uint32_t a = 0; a < 4; ++a) {
            const float v = mcore_ReadF32(b + r + 16 + 4 * a);
            const int used = a == 3 || (mask >> a & 1u) != 0;
            if (used ? !(isfinite(v) && v > 0.0f) : v != 0.0f) return mani_FileResult(mani_errorFormat, r + 16 + 4 * a);
        }
        const uint64_t frames[3] = {MANI_RAGDOLL_BODY_FRAME, MANI_RAGDOLL_BODY_JOINT, MANI_RAGDOLL_BODY_PARENT_JOINT};
        for (uint32_t f = 0; f < 3; ++f) {
            const uint64_t bad = mani_CheckFrame(b, r + frames[f]);
            if (bad != UINT64_MAX) return mani_FileResult(mani_errorFormat, bad);
        }
        const uint64_t lim = r + MANI_RAGDOLL_BODY_LIMITS;
        if (!mani_RagdollLimitsOk(mcore_ReadF32(b + lim), mcore_ReadF32(b + lim + 4), mcore_ReadF32(b + lim + 8),
                                  mcore_ReadF32(b + lim + 12)))
            return mani_FileResult(mani_errorFormat, lim);
        for (uint32_t d = 0; d < 3; ++d)
            if (!mani_RagdollDriveOk(mcore_ReadF32(b + r + MANI_RAGDOLL_BODY_DRIVE + 4 * d)))
                return mani_FileResult(mani_errorFormat, r + MANI_RAGDOLL_BODY_DRIVE + 4 * d);
        const uint32_t off = mcore_ReadU32(b + r + MANI_RAGDOLL_BODY_NAME), len = mcore_ReadU32(b + r + MANI_RAGDOLL_BODY_NAME + 4);
        if (off > namesSize) return mani_FileResult(mani_errorFormat, r + MANI_RAGDOLL_BODY_NAME);
        if (len > MANI_MAX_NAME_BYTES || len > namesSize - off) return mani_FileResult(mani_errorFormat, r + MANI_RAGDOLL_BODY_NAME + 4);
        const size_t good = mcore_Utf8Check(b + names + off, len);
        if (good != len) return mani_FileResult(mani_errorFormat, names + off + good);
        for (uint64_t i = MANI_RAGDOLL_BODY_PAD; i < MANI_RAGDOLL_BODY_SIZE; ++i)
            if (b[r + i] != 0) return mani_FileResult(mani_errorFormat, r + i);
    }

    maniRagdoll v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skeletonIdentity = skeletonIdentity;
    v.opened = MANI_RAGDOLL_OPENED;
    v.boneCount = boneCount;
    v.bodyCount = bodyCount;
    v.namesSize = namesSize;
    v.facing = facing;
    v.up = up;
    v.modelForward = modelForward;
    v.modelUp = modelUp;
    v.bodies = bodies;
    v.names = names;
    *ragdollOut = v;
    return mani_FileResult(mani_success, 0);
}
