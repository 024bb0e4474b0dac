/* rootmotion.h: reading, composing and blending root motion moves, and
 * putting a clip's root motion back onto its bone. Binary64 inside, each
 * result rounded once. */
#include "lib/core/quat64.h"
#include "maul/anim/rootmotion.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/clip/clip_internal.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"

/* A move in binary64: t xyz, r xyzw. */
typedef struct {
    double t[3];
    double r[4];
} mani_Move64;

static mani_Move64 mani_MoveIdentity64(void) {
    mani_Move64 m = {{0, 0, 0}, {0, 0, 0, 1}};
    return m;
}

static mani_Move64 mani_Compose64(const mani_Move64* a, const mani_Move64* b) {
    mani_Move64 m;
    double rt[3];
    mcore_QuatRotate64(a->r, b->t, rt);
    for (int k = 0; k < 3; ++k) m.t[k] = a->t[k] + rt[k];
    mcore_QuatMul64(a->r, b->r, m.r);
    return m;
}

static mani_Move64 mani_Inverse64(const mani_Move64* a) {
    mani_Move64 m;
    const double c[4] = {-a->r[0], -a->r[1], -a->r[2], a->r[3]};
    double rt[3];
    mcore_QuatRotate64(c, a->t, rt);
    for (int k = 0; k < 3; ++k) m.t[k] = -rt[k];
    memcpy(m.r, c, sizeof c);
    return m;
}

static maniRootMove mani_Round(const mani_Move64* m, int normalize) {
    double r[4] = {m->r[0], m->r[1], m->r[2], m->r[3]};
    if (normalize) {
        const double len = sqrt(((r[0] * r[0] + r[1] * r[1]) + r[2] * r[2]) + r[3] * r[3]);
        if (len > 0.0 && isfinite(len))
            for (int k = 0; k < 4; ++k) r[k] /= len;
    }
    maniRootMove out;
    out.translation.x = (float)m->t[0];
    out.translation.y = (float)m->t[1];
    out.translation.z = (float)m->t[2];
    out.rotation.x = (float)r[0];
    out.rotation.y = (float)r[1];
    out.rotation.z = (float)r[2];
    out.rotation.w = (float)r[3];
    return out;
}

static mani_Move64 mani_Widen(maniRootMove m) {
    mani_Move64 w = {{m.translation.x, m.translation.y, m.translation.z},
                     {m.rotation.x, m.rotation.y, m.rotation.z, m.rotation.w}};
    return w;
}

maniRootMove maniMakeRootMoveIdentity(void) {
    const mani_Move64 m = mani_MoveIdentity64();
    return mani_Round(&m, 0);
}

maniRootMove maniComposeRootMotion(maniRootMove first, maniRootMove then) {
    const mani_Move64 a = mani_Widen(first), b = mani_Widen(then);
    const mani_Move64 m = mani_Compose64(&a, &b);
    return mani_Round(&m, 0);
}

/* M at a time clamped to the clip: the root samples interpolated as bones
 * are (binary32 lerp and the nlerp kernel's per-lane math). */
void mani_ClipRootAt(const maniClip* c, float time, double t[3], double r[4]) {
    const mani_ClipSpot s = mani_ClipLocateView(c, time);
    const uint8_t* a = c->bytes + c->rootSamples + (uint64_t)s.i * MANI_CLIP_ROOT_SAMPLE_BYTES;
    const uint8_t* b = c->bytes + c->rootSamples + (uint64_t)s.j * MANI_CLIP_ROOT_SAMPLE_BYTES;
    for (int k = 0; k < 3; ++k) {
        const float va = mcore_ReadF32(a + 4 * k), vb = mcore_ReadF32(b + 4 * k);
        t[k] = (double)(va + (vb - va) * s.f);
    }
    const maniQuat qa = {mcore_ReadF32(a + 16), mcore_ReadF32(a + 20), mcore_ReadF32(a + 24), mcore_ReadF32(a + 28)};
    const maniQuat qb = {mcore_ReadF32(b + 16), mcore_ReadF32(b + 20), mcore_ReadF32(b + 24), mcore_ReadF32(b + 28)};
    const maniQuat q = maniSimdSingle_QuatNlerp(qa, qb, s.f);
    r[0] = q.x;
    r[1] = q.y;
    r[2] = q.z;
    r[3] = q.w;
}

static void mani_Unit64(double r[4]) {
    const double len = sqrt(((r[0] * r[0] + r[1] * r[1]) + r[2] * r[2]) + r[3] * r[3]);
    if (len > 0.0 && isfinite(len))
        for (int k = 0; k < 4; ++k) r[k] /= len;
}

/* M at a time, its rotation made unit in binary64 (so powers keep lengths). */
static mani_Move64 mani_MoveAt(const maniClip* c, double time) {
    mani_Move64 m;
    mani_ClipRootAt(c, (float)time, m.t, m.r);
    mani_Unit64(m.r);
    return m;
}

/* P^k by squaring, k >= 0. */
static mani_Move64 mani_Power64(mani_Move64 base, uint64_t k) {
    mani_Move64 result = mani_MoveIdentity64();
    while (k != 0) {
        if (k & 1) {
            result = mani_Compose64(&result, &base);
            mani_Unit64(result.r);
        }
        k >>= 1;
        if (k != 0) {
            base = mani_Compose64(&base, &base);
            mani_Unit64(base.r);
        }
    }
    return result;
}

maniResult maniClip_GetRootMotion(const maniClip* clip, float time, float step, maniRootMove* moveOut) {
    if (clip == NULL || moveOut == NULL || !mani_ClipViewOk(clip)) return mani_errorInvalid;
    if (!isfinite(time) || !isfinite(step)) return mani_errorInvalid;
    if (clip->rootFlags == 0 || clip->duration == 0.0f) {
        *moveOut = maniMakeRootMoveIdentity();
        return mani_success;
    }
    const double d = clip->duration;
    const double u0 = (double)time, u1 = (double)time + (double)step;
    mani_Move64 m;
    if (clip->loop != maniLoopRepeat) {
        const double a = u0 < 0.0 ? 0.0 : (u0 > d ? d : u0);
        const double b = u1 < 0.0 ? 0.0 : (u1 > d ? d : u1);
        const mani_Move64 ma = mani_MoveAt(clip, a), mb = mani_MoveAt(clip, b);
        const mani_Move64 ia = mani_Inverse64(&ma);
        m = mani_Compose64(&ia, &mb);
    } else {
        double k0 = floor(u0 / d), k1 = floor(u1 / d);
        double p0 = u0 - k0 * d, p1 = u1 - k1 * d;
        if (p0 < 0.0) p0 = 0.0;
        if (p0 > d) p0 = d;
        if (p1 < 0.0) p1 = 0.0;
        if (p1 > d) p1 = d;
        double periods = k1 - k0;
        const double cap = 4294967296.0;
        if (periods > cap) periods = cap;
        if (periods < -cap) periods = -cap;
        const mani_Move64 period = mani_MoveAt(clip, d);
        mani_Move64 whole;
        if (periods >= 0.0) {
            whole = mani_Power64(period, (uint64_t)periods);
        } else {
            const mani_Move64 back = mani_Inverse64(&period);
            whole = mani_Power64(back, (uint64_t)(-periods));
        }
        const mani_Move64 ma = mani_MoveAt(clip, p0), mb = mani_MoveAt(clip, p1);
        const mani_Move64 ia = mani_Inverse64(&ma);
        const mani_Move64 head = mani_Compose64(&ia, &whole);
        m = mani_Compose64(&head, &mb);
    }
    *moveOut = mani_Round(&m, 1);
    return mani_success;
}

maniResult maniBlendRootMotion(const maniRootMove* moves, const float* weights, uint32_t count, maniRootMove* moveOut) {
    if (moveOut == NULL || (count > 0 && (moves == NULL || weights == NULL))) return mani_errorInvalid;
    double sum = 0.0;
    for (uint32_t k = 0; k < count; ++k) {
        if (!isfinite(weights[k]) || weights[k] < 0.0f) return mani_errorInvalid;
        const float* f = &moves[k].translation.x;
        const float v[7] = {f[0], f[1], f[2], moves[k].rotation.x, moves[k].rotation.y, moves[k].rotation.z,
                            moves[k].rotation.w};
        for (int j = 0; j < 7; ++j)
            if (!isfinite(v[j])) return mani_errorInvalid;
        sum += weights[k];
    }
    if (!(sum > 0.0)) {
        *moveOut = maniMakeRootMoveIdentity();
        return mani_success;
    }
    mani_Move64 m = {{0, 0, 0}, {0, 0, 0, 0}};
    double ref[4] = {0, 0, 0, 0};
    int haveRef = 0;
    for (uint32_t k = 0; k < count; ++k) {
        if (weights[k] == 0.0f) continue;
        const double w = (double)weights[k] / sum;
        const mani_Move64 x = mani_Widen(moves[k]);
        if (!haveRef) {
            memcpy(ref, x.r, sizeof ref);
            haveRef = 1;
        }
        const double dot = ((ref[0] * x.r[0] + ref[1] * x.r[1]) + ref[2] * x.r[2]) + ref[3] * x.r[3];
        const double sign = dot < 0.0 ? -1.0 : 1.0;
        for (int j = 0; j < 3; ++j) m.t[j] += w * x.t[j];
        for (int j = 0; j < 4; ++j) m.r[j] += sign * w * x.r[j];
    }
    const double len = sqrt(((m.r[0] * m.r[0] + m.r[1] * m.r[1]) + m.r[2] * m.r[2]) + m.r[3] * m.r[3]);
    if (!(len > 0.0)) {
        m.r[0] = m.r[1] = m.r[2] = 0.0;
        m.r[3] = 1.0;
    }
    *moveOut = mani_Round(&m, 1);
    return mani_success;
}

maniResult maniClip_RestoreRootMotion(const maniClip* clip, const maniSkeleton* skeleton, float time, maniPose* pose) {
    if (clip == NULL || skeleton == NULL || pose == NULL) return mani_errorInvalid;
    if (!mani_ClipViewOk(clip) || !mani_ClipSkeletonOk(clip, skeleton, pose)) return mani_errorInvalid;
    if (pose->flags & MANI_POSE_DIFFERENCE) return mani_errorInvalid;
    if (clip->rootFlags == 0) return mani_success;
    mani_Move64 m;
    mani_ClipRootAt(clip, time, m.t, m.r);
    maniTransform l = mani_PoseGetLocalRaw(pose, clip->rootBone);
    const double lt[3] = {l.translation.x, l.translation.y, l.translation.z};
    const double lr[4] = {l.rotation.x, l.rotation.y, l.rotation.z, l.rotation.w};
    double rt[3], rr[4];
    mcore_QuatRotate64(m.r, lt, rt);
    mcore_QuatMul64(m.r, lr, rr);
    l.translation.x = (float)(m.t[0] + rt[0]);
    l.translation.y = (float)(m.t[1] + rt[1]);
    l.translation.z = (float)(m.t[2] + rt[2]);
    l.rotation.x = (float)rr[0];
    l.rotation.y = (float)rr[1];
    l.rotation.z = (float)rr[2];
    l.rotation.w = (float)rr[3];
    mani_PoseSetLocalRaw(pose, clip->rootBone, l);
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

bool maniClip_GetRootMotionSource(const maniClip* clip, maniRootMotionSource* sourceOut) {
    if (clip == NULL || sourceOut == NULL || !mani_ClipViewOk(clip) || clip->rootFlags == 0) return false;
    sourceOut->bone = clip->rootBone;
    sourceOut->flags = clip->rootFlags;
    return true;
}
