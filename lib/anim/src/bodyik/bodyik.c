/* bodyik.h, the part both solvers share: the checks, the solved part laid
 * out in the scratch, preferred angles, pre-pull, limits, composing and
 * writing. Binary64, trigonometry through lib/core/detmath.h. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/bodyik/bodyik_internal.h"
#include "lib/anim/src/ik/ik_internal.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/core/detmath.h"
#include "lib/core/quat64.h"

/* The full-body solvers take a hinge along its bone's axis (a twist range):
 * limits are checked without the axis. */
static const double mani_bodyNoAxis[3] = {0.0, 0.0, 0.0};

static int mani_BodyMarked(const uint64_t* marks, uint32_t b) { return (int)((marks[b >> 6] >> (b & 63)) & 1u); }

static void mani_BodyMark(uint64_t* marks, uint32_t b) { marks[b >> 6] |= (uint64_t)1 << (b & 63); }

static size_t mani_BodyAlign(size_t n) { return (n + 15u) & ~(size_t)15u; }

/* The scratch's parts, from the counts. */
static size_t mani_BodyLayout(uint32_t slots, uint32_t effectors, uint32_t rows, uint32_t columns, size_t* slotsAt,
                              size_t* effsAt, size_t* sdlsAt) {
    size_t at = mani_BodyAlign(sizeof(mani_BodyWork));
    *slotsAt = at;
    at += mani_BodyAlign(sizeof(mani_BodySlot) * slots);
    *effsAt = at;
    at += mani_BodyAlign(sizeof(mani_BodyEff) * effectors);
    *sdlsAt = at;
    /* J and the decomposed rows (rows x columns), the rotations' product W
     * (rows x rows, padded), the miss and the row norms (rows), the column
     * weights, a direction's step and the sum (columns) */
    const size_t m = rows, n = columns;
    const size_t mp = (m + 3u) & ~(size_t)3u; /* W's rows, padded */
    at += sizeof(double) * (2 * m * n + m * mp + 2 * m + 3 * n);
    return at;
}

maniResult mani_BodyCheck(const maniSkeleton* skeleton, const maniBodySolve* solve, mani_BodyPlan* plan) {
    if (skeleton == NULL || solve == NULL || !mani_SkeletonViewOk(skeleton)) return mani_errorInvalid;
    if (solve->effectorCount > MANI_MAX_BODY_IK_EFFECTORS || solve->settingCount > MANI_MAX_BODY_IK_BONES ||
        solve->iterations > MANI_MAX_IK_ITERATIONS)
        return mani_errorLimit;
    const uint32_t n = skeleton->boneCount;
    if (solve->effectors == NULL || solve->effectorCount == 0 || solve->iterations == 0) return mani_errorInvalid;
    if (solve->settings == NULL && solve->settingCount > 0) return mani_errorInvalid;
    if (solve->top >= n) return mani_errorInvalid;
    if ((uint32_t)solve->topMode > (uint32_t)maniBodyTopFree) return mani_errorInvalid;
    if (!(solve->tolerance >= 0.0f) || !isfinite(solve->tolerance) || !mani_IkUnit01(solve->prePull))
        return mani_errorInvalid;

    uint64_t seen[MANI_MAX_BONES / 64];
    memset(plan, 0, sizeof *plan);
    memset(seen, 0, sizeof seen);
    uint32_t rows = 0;
    for (uint32_t j = 0; j < solve->effectorCount; ++j) {
        const maniBodyEffector* e = &solve->effectors[j];
        if (e->bone >= n || mani_BodyMarked(seen, e->bone)) return mani_errorInvalid;
        mani_BodyMark(seen, e->bone);
        if (!mani_IkFinite3(e->goal)) return mani_errorInvalid;
        const maniQuat r = e->rotation;
        if (!isfinite(r.x) || !isfinite(r.y) || !isfinite(r.z) || !isfinite(r.w)) return mani_errorInvalid;
        const double q[4] = {r.x, r.y, r.z, r.w};
        if (!(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3] > 0.0)) return mani_errorInvalid;
        if (!mani_IkUnit01(e->rotationWeight) || !mani_IkUnit01(e->strength) || !mani_IkUnit01(e->pullChain))
            return mani_errorInvalid;
        rows += e->rotationWeight > 0.0f ? 6u : 3u;
        /* the path up to the top, stopping at a bone an earlier path marked */
        uint32_t b = e->bone;
        while (b != solve->top && !mani_BodyMarked(plan->marks, b)) {
            mani_BodyMark(plan->marks, b);
            const uint32_t p = maniSkeleton_GetParent(skeleton, b);
            if (p == MANI_NO_BONE || p >= b) return mani_errorInvalid; /* not below the top */
            b = p;
        }
    }
    mani_BodyMark(plan->marks, solve->top);
    const uint32_t end = maniSkeleton_GetSubtreeEnd(skeleton, solve->top);
    uint32_t count = 0;
    for (uint32_t w = solve->top >> 6; w <= (end - 1) >> 6; ++w) count += (uint32_t)__builtin_popcountll(plan->marks[w]);
    if (count > MANI_MAX_BODY_IK_BONES) return mani_errorLimit;

    memset(seen, 0, sizeof seen);
    uint32_t locked = 0;
    for (uint32_t i = 0; i < solve->settingCount; ++i) {
        const maniBodyBoneSettings* s = &solve->settings[i];
        if (s->bone >= n || !mani_BodyMarked(plan->marks, s->bone) || mani_BodyMarked(seen, s->bone))
            return mani_errorInvalid;
        mani_BodyMark(seen, s->bone);
        if (!mani_IkUnit01(s->rotationStiffness) || !mani_IkUnit01(s->positionStiffness)) return mani_errorInvalid;
        if (!mani_IkFinite3(s->preferredAngles) || !mani_IkLimitOk(&s->limit, mani_bodyNoAxis)) return mani_errorInvalid;
        if (s->rotationStiffness == 1.0f && !(s->bone == solve->top && solve->topMode == maniBodyTopHeld)) ++locked;
    }
    const uint32_t turning = count - locked - (solve->topMode == maniBodyTopHeld ? 1u : 0u);
    plan->slotCount = count;
    plan->rows = rows;
    plan->turning = turning;
    /* rounded up to a multiple of 4 (zero columns) for the row loops */
    plan->columns = (3u * turning + (solve->topMode == maniBodyTopFree ? 3u : 0u) + 3u) & ~3u;
    size_t a, b2, c;
    plan->scratchSize = mani_BodyLayout(count, solve->effectorCount, rows, plan->columns, &a, &b2, &c);
    return mani_success;
}

size_t maniSkeleton_GetBodyIkScratchSize(const maniSkeleton* skeleton, const maniBodySolve* solve) {
    mani_BodyPlan plan;
    if (mani_BodyCheck(skeleton, solve, &plan) != mani_success) return 0;
    return plan.scratchSize;
}

/* -- Rotations ----------------------------------------------------------------- */

void mani_BodyExp(const double v[3], double out[4]) {
    const double angle = mcore_Length3_64(v);
    if (!(angle > 0.0)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    const double axis[3] = {v[0] / angle, v[1] / angle, v[2] / angle};
    mcore_QuatAxisAngle64(axis, angle, out);
}

void mani_BodyLog(const double q[4], double out[3]) {
    const double sg = q[3] < 0.0 ? -1.0 : 1.0;
    const double v[3] = {sg * q[0], sg * q[1], sg * q[2]};
    const double vl = mcore_Length3_64(v);
    if (!(vl > 0.0)) {
        out[0] = out[1] = out[2] = 0.0;
        return;
    }
    const double angle = 2.0 * mcore_atan2(vl, sg * q[3]);
    out[0] = v[0] / vl * angle;
    out[1] = v[1] / vl * angle;
    out[2] = v[2] / vl * angle;
}

void mani_BodyLimit(const mani_BodyWork* w, const maniBodySolve* solve, uint32_t slot, double r[4]) {
    const mani_BodySlot* s = &w->slots[slot];
    if (s->setting >= 0) mani_IkApplyLimit(&solve->settings[s->setting].limit, s->rest, s->axis, r);
}

/* -- The part ------------------------------------------------------------------ */

static void mani_BodyQuatOf(maniQuat q, double out[4]) {
    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
    mcore_QuatNormalize64(out);
}

/* out = a b for 3x3 matrices by columns. */
static void mani_BodyMat3Mul(const double a[9], const double b[9], double out[9]) {
    double o[9];
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) o[c * 3 + r] = (a[r] * b[c * 3] + a[3 + r] * b[c * 3 + 1]) + a[6 + r] * b[c * 3 + 2];
    memcpy(out, o, sizeof o);
}

static void mani_BodyMat3Apply(const double a[9], const double v[3], double out[3]) {
    const double x = (a[0] * v[0] + a[3] * v[1]) + a[6] * v[2];
    const double y = (a[1] * v[0] + a[4] * v[1]) + a[7] * v[2];
    const double z = (a[2] * v[0] + a[5] * v[1]) + a[8] * v[2];
    out[0] = x, out[1] = y, out[2] = z;
}

/* A local transform's linear part: rotation times scale, by columns. */
static void mani_BodyLocalLinear(const double q[4], const double s[3], double out[9]) {
    for (int c = 0; c < 3; ++c) {
        const double e[3] = {c == 0 ? 1.0 : 0.0, c == 1 ? 1.0 : 0.0, c == 2 ? 1.0 : 0.0};
        double col[3];
        mcore_QuatRotate64(q, e, col);
        out[c * 3] = col[0] * s[c], out[c * 3 + 1] = col[1] * s[c], out[c * 3 + 2] = col[2] * s[c];
    }
}

static uint32_t mani_BodyFindSlot(const mani_BodyWork* w, uint32_t count, uint32_t bone) {
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (w->slots[mid].bone < bone)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void mani_BodyCompose(mani_BodyWork* w) {
    for (uint32_t k = 0; k < w->slotCount; ++k) {
        mani_BodySlot* s = &w->slots[k];
        if (s->parent < 0) {
            mcore_QuatMul64(w->aboveQ, s->r, s->Q);
            continue; /* P: the top's place */
        }
        const mani_BodySlot* p = &w->slots[s->parent];
        const double off[3] = {s->off[0] * s->stretch, s->off[1] * s->stretch, s->off[2] * s->stretch};
        double d[3];
        mcore_QuatRotate64(p->Q, off, d);
        s->P[0] = p->P[0] + d[0], s->P[1] = p->P[1] + d[1], s->P[2] = p->P[2] + d[2];
        mcore_QuatMul64(p->Q, s->r, s->Q);
    }
}

int mani_BodyReached(const mani_BodyWork* w, double tolerance) {
    for (uint32_t j = 0; j < w->effectorCount; ++j) {
        const mani_BodyEff* e = &w->effs[j];
        if (!(e->strength > 0.0)) continue;
        const double* P = w->slots[e->slot].P;
        const double d[3] = {e->goal[0] - P[0], e->goal[1] - P[1], e->goal[2] - P[2]};
        if (!(mcore_Length3_64(d) <= tolerance)) return 0;
    }
    return 1;
}

/* Pre-pull (bodyik.h's text): a free top moves, a pinned top turns. */
static void mani_BodyPrePull(mani_BodyWork* w, const maniBodySolve* solve) {
    if (!(solve->prePull > 0.0f) || w->topMode == maniBodyTopHeld) return;
    mani_BodySlot* top = &w->slots[0];
    double total = 0.0;
    for (uint32_t j = 0; j < w->effectorCount; ++j) total += w->effs[j].pullChain;
    if (!(total > 0.0)) return;
    const double D = total > 1.0 ? total : 1.0, pull = solve->prePull;
    mani_BodyCompose(w);
    if (w->topMode == maniBodyTopFree) {
        double acc[3] = {0, 0, 0};
        for (uint32_t j = 0; j < w->effectorCount; ++j) {
            const mani_BodyEff* e = &w->effs[j];
            if (!(e->pullChain > 0.0)) continue;
            const double d[3] = {e->goal[0] - top->P[0], e->goal[1] - top->P[1], e->goal[2] - top->P[2]};
            const double dist = mcore_Length3_64(d);
            const double reach = e->slot == 0 ? 0.0 : e->reach;
            if (!(dist > reach)) continue;
            const double f = e->pullChain * (dist - reach) / dist;
            acc[0] += f * d[0], acc[1] += f * d[1], acc[2] += f * d[2];
        }
        for (int k = 0; k < 3; ++k) top->P[k] += pull * (acc[k] / D);
        return;
    }
    double acc[4] = {0, 0, 0, 0};
    for (uint32_t j = 0; j < w->effectorCount; ++j) {
        const mani_BodyEff* e = &w->effs[j];
        if (!(e->pullChain > 0.0) || e->slot == 0) continue;
        const double* P = w->slots[e->slot].P;
        const double a[3] = {P[0] - top->P[0], P[1] - top->P[1], P[2] - top->P[2]};
        const double b[3] = {e->goal[0] - top->P[0], e->goal[1] - top->P[1], e->goal[2] - top->P[2]};
        double arc[4];
        mcore_QuatArc64(a, b, arc);
        for (int k = 0; k < 4; ++k) acc[k] += (e->pullChain / D) * arc[k];
    }
    acc[3] += 1.0 - total / D; /* the identity takes what the weights leave */
    mcore_QuatNormalize64(acc);
    mcore_QuatPow64(acc, pull, acc);
    /* the model turn into the top's parent frame: r' = above^-1 turn above r */
    double inv[4], t[4];
    mcore_QuatConj64(w->aboveQ, inv);
    mcore_QuatMul64(acc, top->Q, t);
    mcore_QuatMul64(inv, t, top->r);
    mcore_QuatNormalize64(top->r);
}

maniResult mani_BodyBegin(maniPose* pose, const maniSkeleton* skeleton, const maniBodySolve* solve, void* scratch,
                          size_t scratchSize, int sdls, mani_BodyWork** workOut) {
    if (pose == NULL || skeleton == NULL || solve == NULL || scratch == NULL) return mani_errorInvalid;
    mani_BodyPlan plan;
    const maniResult checked = mani_BodyCheck(skeleton, solve, &plan);
    if (checked != mani_success) return checked;
    if (!mani_IkPoseOk(pose, skeleton)) return mani_errorInvalid;
    if (sdls)
        for (uint32_t i = 0; i < solve->settingCount; ++i)
            if (solve->settings[i].positionStiffness < 1.0f) return mani_errorInvalid;
    if (((uintptr_t)scratch & (MANI_BODY_IK_SCRATCH_ALIGNMENT - 1u)) != 0) return mani_errorInvalid;
    if (scratchSize < plan.scratchSize) return mani_errorCapacity;

    size_t slotsAt, effsAt, sdlsAt;
    mani_BodyLayout(plan.slotCount, solve->effectorCount, plan.rows, plan.columns, &slotsAt, &effsAt, &sdlsAt);
    mani_BodyWork* w = (mani_BodyWork*)scratch;
    memset(w, 0, sizeof *w);
    w->slots = (mani_BodySlot*)(void*)((uint8_t*)scratch + slotsAt);
    w->effs = (mani_BodyEff*)(void*)((uint8_t*)scratch + effsAt);
    w->sdls = (double*)(void*)((uint8_t*)scratch + sdlsAt);
    w->effectorCount = solve->effectorCount;
    w->rows = plan.rows;
    w->columns = plan.columns;
    w->turning = plan.turning;
    w->topMode = (uint32_t)solve->topMode;

    /* The frame above the top: its ancestors' locals composed upward. */
    w->aboveQ[3] = 1.0;
    w->aboveL[0] = w->aboveL[4] = w->aboveL[8] = 1.0;
    for (uint32_t b = maniSkeleton_GetParent(skeleton, solve->top); b != MANI_NO_BONE;) {
        const maniTransform t = mani_PoseGetLocalRaw(pose, b);
        double q[4], s[3] = {t.scale.x, t.scale.y, t.scale.z}, L[9], tr[3] = {t.translation.x, t.translation.y,
                                                                              t.translation.z};
        mani_BodyQuatOf(t.rotation, q);
        mani_BodyLocalLinear(q, s, L);
        double p[3];
        mani_BodyMat3Apply(L, w->aboveP, p);
        w->aboveP[0] = p[0] + tr[0], w->aboveP[1] = p[1] + tr[1], w->aboveP[2] = p[2] + tr[2];
        mani_BodyMat3Mul(L, w->aboveL, w->aboveL);
        mcore_QuatMul64(q, w->aboveQ, w->aboveQ);
        const uint32_t parent = maniSkeleton_GetParent(skeleton, b);
        b = parent < b ? parent : MANI_NO_BONE;
    }
    mcore_QuatNormalize64(w->aboveQ);

    /* The slots, in skeleton order, with their true model frames. */
    const uint32_t end = maniSkeleton_GetSubtreeEnd(skeleton, solve->top);
    double L[MANI_MAX_BODY_IK_BONES][9];
    uint32_t k = 0;
    for (uint32_t b = solve->top; b < end; ++b) {
        if (!mani_BodyMarked(plan.marks, b)) continue;
        mani_BodySlot* s = &w->slots[k];
        memset(s, 0, sizeof *s);
        s->bone = b;
        s->firstChild = -1;
        s->setting = -1;
        s->position = 1.0;
        s->stretch = 1.0;
        const maniTransform t = mani_PoseGetLocalRaw(pose, b);
        s->t[0] = t.translation.x, s->t[1] = t.translation.y, s->t[2] = t.translation.z;
        const double sc[3] = {t.scale.x, t.scale.y, t.scale.z};
        mani_BodyQuatOf(t.rotation, s->r);
        mani_IkRestRotation(skeleton, b, s->rest);
        double R[9];
        mani_BodyLocalLinear(s->r, sc, R);
        if (k == 0) {
            s->parent = -1;
            mani_BodyMat3Apply(w->aboveL, s->t, s->P);
            for (int c = 0; c < 3; ++c) s->P[c] += w->aboveP[c];
            mani_BodyMat3Mul(w->aboveL, R, L[k]);
            mcore_QuatMul64(w->aboveQ, s->r, s->Q);
        } else {
            const uint32_t pk = mani_BodyFindSlot(w, k, maniSkeleton_GetParent(skeleton, b));
            mani_BodySlot* p = &w->slots[pk];
            s->parent = (int32_t)pk;
            if (p->firstChild < 0) p->firstChild = (int32_t)k;
            double d[3], inv[4];
            mani_BodyMat3Apply(L[pk], s->t, d);
            for (int c = 0; c < 3; ++c) s->P[c] = p->P[c] + d[c];
            mcore_QuatConj64(p->Q, inv);
            mcore_QuatRotate64(inv, d, s->off);
            s->length = mcore_Length3_64(s->off);
            mani_BodyMat3Mul(L[pk], R, L[k]);
            mcore_QuatMul64(p->Q, s->r, s->Q);
        }
        ++k;
    }
    w->slotCount = k;

    /* Mean length, limit axes, settings. */
    double sum = 0.0;
    for (k = 1; k < w->slotCount; ++k) sum += w->slots[k].length;
    w->meanLength = w->slotCount > 1 ? sum / (double)(w->slotCount - 1) : 0.0;
    if (!(w->meanLength > 0.0)) w->meanLength = 1.0;
    for (k = 0; k < w->slotCount; ++k) {
        mani_BodySlot* s = &w->slots[k];
        if (s->firstChild >= 0) {
            const double* t = w->slots[s->firstChild].t;
            const double l = mcore_Length3_64(t);
            if (l > 0.0) s->axis[0] = t[0] / l, s->axis[1] = t[1] / l, s->axis[2] = t[2] / l;
        }
    }
    for (uint32_t i = 0; i < solve->settingCount; ++i) {
        const maniBodyBoneSettings* st = &solve->settings[i];
        mani_BodySlot* s = &w->slots[mani_BodyFindSlot(w, w->slotCount, st->bone)];
        s->setting = (int32_t)i;
        s->stiffness = st->rotationStiffness;
        s->position = st->positionStiffness;
    }
    for (k = 0; k < w->slotCount; ++k) {
        mani_BodySlot* s = &w->slots[k];
        s->turns = !(k == 0 && w->topMode == maniBodyTopHeld) && s->stiffness < 1.0;
    }

    /* Effectors. */
    for (uint32_t j = 0; j < w->effectorCount; ++j) {
        const maniBodyEffector* src = &solve->effectors[j];
        mani_BodyEff* e = &w->effs[j];
        memset(e, 0, sizeof *e);
        e->slot = mani_BodyFindSlot(w, w->slotCount, src->bone);
        e->goal[0] = src->goal.x, e->goal[1] = src->goal.y, e->goal[2] = src->goal.z;
        mani_BodyQuatOf(src->rotation, e->g);
        e->rotationWeight = src->rotationWeight;
        e->strength = src->strength;
        e->pullChain = src->pullChain;
        double reach = 0.0;
        for (int32_t s = (int32_t)e->slot; s > 0; s = w->slots[s].parent) {
            reach += w->slots[s].length;
            w->slots[s].effectors |= 1u << j;
        }
        w->slots[0].effectors |= 1u << j;
        e->reach = reach > 0.0 ? reach : w->meanLength;
    }

    /* Preferred angles, pre-pull, the start limited. */
    for (k = 0; k < w->slotCount; ++k) {
        mani_BodySlot* s = &w->slots[k];
        if (s->setting < 0 || (k == 0 && w->topMode == maniBodyTopHeld)) continue;
        const maniVec3 a = solve->settings[s->setting].preferredAngles;
        const double v[3] = {a.x, a.y, a.z};
        double turn[4];
        mani_BodyExp(v, turn);
        mcore_QuatMul64(turn, s->r, s->r);
        mcore_QuatNormalize64(s->r);
    }
    mani_BodyPrePull(w, solve);
    for (k = 0; k < w->slotCount; ++k) {
        mani_BodySlot* s = &w->slots[k];
        if (!(k == 0 && w->topMode == maniBodyTopHeld)) mani_BodyLimit(w, solve, k, s->r);
        memcpy(s->r0, s->r, sizeof s->r);
    }
    mani_BodyCompose(w);
    *workOut = w;
    return mani_success;
}

/* out = L^-1 v by the adjugate; 0 when L is singular or the result not
 * finite. */
static int mani_BodySolve3(const double L[9], const double v[3], double out[3]) {
    const double a = L[0], b = L[3], c = L[6], d = L[1], e = L[4], f = L[7], g = L[2], h = L[5], i = L[8];
    const double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    const double det = (a * A + b * B) + c * C;
    if (!(det != 0.0) || !isfinite(det)) return 0;
    const double inv[9] = {A / det, B / det, C / det, -(b * i - c * h) / det, (a * i - c * g) / det,
                           -(a * h - b * g) / det, (b * f - c * e) / det, -(a * f - c * d) / det, (a * e - b * d) / det};
    mani_BodyMat3Apply(inv, v, out);
    return isfinite(out[0]) && isfinite(out[1]) && isfinite(out[2]);
}

void mani_BodyWrite(const mani_BodyWork* w, maniPose* pose) {
    for (uint32_t k = 0; k < w->slotCount; ++k) {
        const mani_BodySlot* s = &w->slots[k];
        if (k == 0 && w->topMode == maniBodyTopHeld) continue;
        maniTransform t = mani_PoseGetLocalRaw(pose, s->bone);
        double in[4];
        mani_BodyQuatOf(t.rotation, in);
        if (memcmp(in, s->r, sizeof in) != 0) {
            t.rotation.x = (float)s->r[0], t.rotation.y = (float)s->r[1];
            t.rotation.z = (float)s->r[2], t.rotation.w = (float)s->r[3];
        }
        if (k == 0 && w->topMode == maniBodyTopFree) {
            const double d[3] = {s->P[0] - w->aboveP[0], s->P[1] - w->aboveP[1], s->P[2] - w->aboveP[2]};
            double tr[3];
            if (mani_BodySolve3(w->aboveL, d, tr) && (tr[0] != s->t[0] || tr[1] != s->t[1] || tr[2] != s->t[2]))
                t.translation.x = (float)tr[0], t.translation.y = (float)tr[1], t.translation.z = (float)tr[2];
        } else if (s->stretch != 1.0) {
            t.translation.x = (float)(s->t[0] * s->stretch);
            t.translation.y = (float)(s->t[1] * s->stretch);
            t.translation.z = (float)(s->t[2] * s->stretch);
        }
        mani_PoseSetLocalRaw(pose, s->bone, t);
    }
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
}
