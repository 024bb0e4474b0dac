/* trajectory.h: Holden's critically damped springs in closed form, in
 * binary32, and trajectory samples measured as a database measures them. */
#include "maul/anim/trajectory.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/match/match_format.h"
#include "lib/core/detmath.h"

/* 2 ln 2 / (half-life + 1e-5): half of Holden's halflife_to_damping. */
static float mani_SpringY(float halfLife) { return (2.0f * 0.69314718056f) / (halfLife + 1e-5f); }

static maniQuat mani_QMul(maniQuat a, maniQuat b) {
    maniQuat r;
    r.x = ((a.w * b.x + a.x * b.w) + a.y * b.z) - a.z * b.y;
    r.y = ((a.w * b.y - a.x * b.z) + a.y * b.w) + a.z * b.x;
    r.z = ((a.w * b.z + a.x * b.y) - a.y * b.x) + a.z * b.w;
    r.w = ((a.w * b.w - a.x * b.x) - a.y * b.y) - a.z * b.z;
    return r;
}

static maniQuat mani_QConj(maniQuat q) {
    q.x = -q.x;
    q.y = -q.y;
    q.z = -q.z;
    return q;
}

/* v turned by a unit q: v + w t + q_xyz x t, t = 2 (q_xyz x v). */
static maniVec3 mani_QRotate(maniQuat q, maniVec3 v) {
    const float tx = 2.0f * (q.y * v.z - q.z * v.y), ty = 2.0f * (q.z * v.x - q.x * v.z),
                tz = 2.0f * (q.x * v.y - q.y * v.x);
    maniVec3 r;
    r.x = (v.x + q.w * tx) + (q.y * tz - q.z * ty);
    r.y = (v.y + q.w * ty) + (q.z * tx - q.x * tz);
    r.z = (v.z + q.w * tz) + (q.x * ty - q.y * tx);
    return r;
}

/* The scaled axis of a turn taken the shorter way: 2 log(q), q with w >= 0. */
static maniVec3 mani_QToScaledAxis(maniQuat q) {
    if (q.w < 0) {
        q.x = -q.x, q.y = -q.y, q.z = -q.z, q.w = -q.w;
    }
    const float len = sqrtf((q.x * q.x + q.y * q.y) + q.z * q.z);
    maniVec3 r = {0, 0, 0};
    if (!(len > 0)) return r;
    const float k = 2.0f * mcore_atan2f(len, q.w) / len;
    r.x = k * q.x;
    r.y = k * q.y;
    r.z = k * q.z;
    return r;
}

/* The turn of a scaled axis: exp(v / 2), normalized. */
static maniQuat mani_QFromScaledAxis(maniVec3 v) {
    const float half = 0.5f * sqrtf((v.x * v.x + v.y * v.y) + v.z * v.z);
    maniQuat q;
    if (!(half > 1e-8f)) {
        q.x = 0.5f * v.x, q.y = 0.5f * v.y, q.z = 0.5f * v.z, q.w = 1.0f;
    } else {
        float s = 0, c = 1;
        mcore_sincosf(half, &s, &c);
        const float k = s / half * 0.5f;
        q.x = k * v.x, q.y = k * v.y, q.z = k * v.z, q.w = c;
    }
    const float len = sqrtf(((q.x * q.x + q.y * q.y) + q.z * q.z) + q.w * q.w);
    q.x /= len, q.y /= len, q.z /= len, q.w /= len;
    return q;
}

static int mani_Finite3(maniVec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static int mani_UnitQ(maniQuat q) {
    if (!isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w)) return 0;
    const double l = (((double)q.x * q.x + (double)q.y * q.y) + (double)q.z * q.z) + (double)q.w * q.w;
    return fabs(l - 1.0) <= 1e-3;
}

/* e * term, e a spring's exp(-y dt). For a long advance e underflows to 0
 * while the term (j1 dt, j1 y dt) overflows: the product is then 0 (the
 * spring settled, as many shorter advances leave it), not the NaN of
 * 0 x infinity that refused any finite seconds past about 1e30 s (found by
 * match_probe_test's ExtremeAdvancesStayFinite). Finite terms give e * term's
 * bits unchanged. */
static float mani_Decay(float e, float term) { return (e == 0.0f && isinf(term)) ? copysignf(0.0f, term) : e * term; }

/* One axis of simulation_positions_update. */
static void mani_PositionAxis(float* x, float* v, float* a, float goal, float y, float eydt, float dt) {
    const float j0 = *v - goal;
    const float j1 = *a + j0 * y;
    *x = mani_Decay(eydt, ((-j1) / (y * y)) + ((-j0 - j1 * dt) / y)) + (j1 / (y * y)) + j0 / y + goal * dt + *x;
    *v = mani_Decay(eydt, j0 + j1 * dt) + goal;
    *a = mani_Decay(eydt, *a - j1 * y * dt);
}

maniResult maniAdvanceTrajectory(maniTrajectory* trajectory, const maniTrajectoryGoal* goal, float seconds) {
    if (trajectory == NULL || goal == NULL || !isfinite(seconds) || !(seconds >= 0)) return mani_errorInvalid;
    const maniTrajectory t0 = *trajectory;
    if (!mani_Finite3(t0.position) || !mani_Finite3(t0.velocity) || !mani_Finite3(t0.acceleration) ||
        !mani_Finite3(t0.angularVelocity) || !mani_UnitQ(t0.rotation) || !mani_Finite3(goal->velocity) ||
        !mani_UnitQ(goal->rotation) || !isfinite(goal->velocityHalfLife) || !(goal->velocityHalfLife >= 0) ||
        !isfinite(goal->rotationHalfLife) || !(goal->rotationHalfLife >= 0))
        return mani_errorInvalid;
    maniTrajectory t = t0;
    const float dt = seconds;
    /* Positions. */
    const float y = mani_SpringY(goal->velocityHalfLife);
    const float eydt = mcore_expf(-y * dt);
    mani_PositionAxis(&t.position.x, &t.velocity.x, &t.acceleration.x, goal->velocity.x, y, eydt, dt);
    mani_PositionAxis(&t.position.y, &t.velocity.y, &t.acceleration.y, goal->velocity.y, y, eydt, dt);
    mani_PositionAxis(&t.position.z, &t.velocity.z, &t.acceleration.z, goal->velocity.z, y, eydt, dt);
    /* Rotation: simple_spring_damper_exact on the shorter arc. */
    const float yr = mani_SpringY(goal->rotationHalfLife);
    const float er = mcore_expf(-yr * dt);
    const maniVec3 j0 = mani_QToScaledAxis(mani_QMul(t0.rotation, mani_QConj(goal->rotation)));
    const maniVec3 w = t0.angularVelocity;
    const maniVec3 j1 = {w.x + j0.x * yr, w.y + j0.y * yr, w.z + j0.z * yr};
    const maniVec3 turn = {mani_Decay(er, j0.x + j1.x * dt), mani_Decay(er, j0.y + j1.y * dt),
                           mani_Decay(er, j0.z + j1.z * dt)};
    t.rotation = mani_QMul(mani_QFromScaledAxis(turn), goal->rotation);
    t.angularVelocity.x = mani_Decay(er, w.x - j1.x * yr * dt);
    t.angularVelocity.y = mani_Decay(er, w.y - j1.y * yr * dt);
    t.angularVelocity.z = mani_Decay(er, w.z - j1.z * yr * dt);
    if (!mani_Finite3(t.position) || !mani_Finite3(t.velocity) || !mani_Finite3(t.acceleration) ||
        !mani_Finite3(t.angularVelocity))
        return mani_errorInvalid;
    *trajectory = t;
    return mani_success;
}

maniResult maniMotionDatabase_ComputeTrajectoryFeatures(const maniMotionDatabase* database, const maniTrajectory* root,
                                                        const maniTrajectory* sample, float* positionOut,
                                                        float* facingOut) {
    if (database == NULL || root == NULL || sample == NULL || database->opened != MANI_MATCH_OPENED ||
        database->upAxis > 2 || database->forwardAxis > 2)
        return mani_errorInvalid;
    const maniQuat inv = mani_QConj(root->rotation);
    const maniVec3 d = {sample->position.x - root->position.x, sample->position.y - root->position.y,
                        sample->position.z - root->position.z};
    const maniVec3 p = mani_QRotate(inv, d);
    maniVec3 fwd = {0, 0, 0};
    if (database->forwardAxis == 0) fwd.x = 1;
    if (database->forwardAxis == 1) fwd.y = 1;
    if (database->forwardAxis == 2) fwd.z = 1;
    const maniVec3 facing = mani_QRotate(inv, mani_QRotate(sample->rotation, fwd));
    uint32_t axes[2];
    mani_MatchGroundAxes(database->upAxis, axes);
    const float pv[3] = {p.x, p.y, p.z}, fv[3] = {facing.x, facing.y, facing.z};
    if (positionOut != NULL) positionOut[0] = pv[axes[0]], positionOut[1] = pv[axes[1]];
    if (facingOut != NULL) facingOut[0] = fv[axes[0]], facingOut[1] = fv[axes[1]];
    return mani_success;
}
