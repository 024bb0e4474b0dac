/* maniPose_SolveBodyXpbd: the solved part as rigid bodies, one Gauss-Seidel
 * pass of XPBD corrections an iteration (Mueller et al. 2020: positional
 * corrections at a point, angular corrections, compliance over the
 * generalized inverse masses, multipliers kept across the iterations). One
 * time step of length 1: the compliances are used as given. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/bodyik/bodyik_internal.h"
#include "lib/core/quat64.h"

/* q += 0.5 (omega, 0) q, normalized: a body turned by the small rotation
 * vector omega (model frame). */
static void mani_XpbdTurn(double q[4], const double omega[3]) {
    const double o[4] = {omega[0], omega[1], omega[2], 0.0};
    double d[4];
    mcore_QuatMul64(o, q, d);
    for (int k = 0; k < 4; ++k) q[k] += 0.5 * d[k];
    mcore_QuatNormalize64(q);
}

/* An angular correction of body a (and b, when not NULL) so that a's
 * rotation meets target (b's frame moves target with it): theta =
 * log(q_a target^-1). Returns the multiplier's change. */
static void mani_XpbdAngular(double qa[4], double wa, double* qb, double wb, const double target[4], double compliance,
                             double* lambda) {
    double inv[4], err[4], theta[3];
    mcore_QuatConj64(target, inv);
    mcore_QuatMul64(qa, inv, err);
    mani_BodyLog(err, theta);
    const double c = mcore_Length3_64(theta);
    const double wsum = (wa + wb) + compliance;
    if (!(c > 0.0) || !(wsum > 0.0)) return;
    const double dl = (-c - compliance * *lambda) / wsum;
    *lambda += dl;
    const double n[3] = {theta[0] / c, theta[1] / c, theta[2] / c};
    if (wa > 0.0) {
        const double o[3] = {wa * dl * n[0], wa * dl * n[1], wa * dl * n[2]};
        mani_XpbdTurn(qa, o);
    }
    if (qb != NULL && wb > 0.0) {
        const double o[3] = {-wb * dl * n[0], -wb * dl * n[1], -wb * dl * n[2]};
        mani_XpbdTurn(qb, o);
    }
}

/* A parent body's rotation, or the fixed frame above the top. */
static double* mani_XpbdParentQ(mani_BodyWork* w, const mani_BodySlot* s) {
    return s->parent < 0 ? w->aboveQ : w->slots[s->parent].q;
}

/* The locals (and the top's place, the stretches) from the bodies, then
 * composed. */
static void mani_XpbdRead(mani_BodyWork* w, const maniBodySolve* solve) {
    for (uint32_t k = 0; k < w->slotCount; ++k) {
        mani_BodySlot* s = &w->slots[k];
        if (k == 0 && w->topMode == maniBodyTopHeld) continue;
        if (s->stiffness >= 1.0) {
            memcpy(s->r, s->r0, sizeof s->r);
        } else {
            double inv[4];
            mcore_QuatConj64(mani_XpbdParentQ(w, s), inv);
            mcore_QuatMul64(inv, s->q, s->r);
            mcore_QuatNormalize64(s->r);
            mani_BodyLimit(w, solve, k, s->r);
        }
        if (k == 0 && w->topMode == maniBodyTopFree) memcpy(s->P, s->x, sizeof s->P);
        if (k > 0 && s->position < 1.0 && s->length > 0.0) {
            const double* xp = w->slots[s->parent].x;
            const double d[3] = {s->x[0] - xp[0], s->x[1] - xp[1], s->x[2] - xp[2]};
            s->stretch = mcore_Length3_64(d) / s->length;
        }
    }
    mani_BodyCompose(w);
}

maniResult maniPose_SolveBodyXpbd(maniPose* pose, const maniSkeleton* skeleton, const maniBodySolve* solve,
                                  void* scratch, size_t scratchSize, bool* reachedOut) {
    mani_BodyWork* w;
    const maniResult r = mani_BodyBegin(pose, skeleton, solve, scratch, scratchSize, 0, &w);
    if (r != mani_success) return r;
    const double tolerance = solve->tolerance, L2 = w->meanLength * w->meanLength;

    /* The bodies. */
    for (uint32_t k = 0; k < w->slotCount; ++k) {
        mani_BodySlot* s = &w->slots[k];
        memcpy(s->x, s->P, sizeof s->x);
        memcpy(s->q, s->Q, sizeof s->q);
        s->invMass = 1.0;
        s->invInertia = 0.0; /* the longest child's offset squared, below */
    }
    for (uint32_t k = 1; k < w->slotCount; ++k) {
        mani_BodySlot* p = &w->slots[w->slots[k].parent];
        const double l2 = w->slots[k].length * w->slots[k].length;
        if (l2 > p->invInertia) p->invInertia = l2;
    }
    for (uint32_t k = 0; k < w->slotCount; ++k) {
        mani_BodySlot* s = &w->slots[k];
        const double inertia = s->invInertia > 0.0 ? s->invInertia : L2;
        s->invInertia = 1.0 / inertia;
    }
    mani_BodySlot* top = &w->slots[0];
    if (w->topMode != maniBodyTopFree) top->invMass = 0.0;
    if (w->topMode == maniBodyTopHeld) top->invInertia = 0.0;

    int reached = mani_BodyReached(w, tolerance);
    for (uint32_t it = 0; it < solve->iterations && !reached; ++it) {
        /* 1. effectors by index */
        for (uint32_t j = 0; j < w->effectorCount; ++j) {
            mani_BodyEff* e = &w->effs[j];
            mani_BodySlot* s = &w->slots[e->slot];
            if (!(e->strength > 0.0)) continue;
            const double d[3] = {s->x[0] - e->goal[0], s->x[1] - e->goal[1], s->x[2] - e->goal[2]};
            const double c = mcore_Length3_64(d);
            const double alpha = (1.0 - e->strength) / e->strength;
            if (c > 0.0 && s->invMass + alpha > 0.0 && s->invMass > 0.0) {
                const double dl = (-c - alpha * e->lambdaPos) / (s->invMass + alpha);
                e->lambdaPos += dl;
                for (int k = 0; k < 3; ++k) s->x[k] += dl * (d[k] / c) * s->invMass;
            }
            const double sw = e->strength * e->rotationWeight;
            if (sw > 0.0) mani_XpbdAngular(s->q, s->invInertia, NULL, 0.0, e->g, (1.0 - sw) / (sw * L2), &e->lambdaRot);
        }
        /* 2. joints from the tips up: the child's origin at its place on
         * the parent (r1 the offset on the parent, r2 = 0 on the child) */
        for (uint32_t k = w->slotCount; k-- > 1;) {
            mani_BodySlot* c = &w->slots[k];
            mani_BodySlot* p = &w->slots[c->parent];
            double r1[3];
            mcore_QuatRotate64(p->q, c->off, r1);
            const double a[3] = {p->x[0] + r1[0], p->x[1] + r1[1], p->x[2] + r1[2]};
            const double d[3] = {a[0] - c->x[0], a[1] - c->x[1], a[2] - c->x[2]};
            const double len = mcore_Length3_64(d);
            if (!(len > 0.0)) continue;
            const double n[3] = {d[0] / len, d[1] / len, d[2] / len};
            double rn[3];
            mcore_Cross3_64(r1, n, rn);
            const double alpha = c->position < 1.0 ? (1.0 - c->position) / c->position : 0.0;
            const double wsum = ((p->invMass + p->invInertia * mcore_Dot3_64(rn, rn)) + c->invMass) + alpha;
            if (!(wsum > 0.0)) continue;
            const double dl = (-len - alpha * c->lambdaJoint) / wsum;
            c->lambdaJoint += dl;
            const double imp[3] = {dl * n[0], dl * n[1], dl * n[2]};
            for (int m = 0; m < 3; ++m) {
                p->x[m] += imp[m] * p->invMass;
                c->x[m] -= imp[m] * c->invMass;
            }
            if (p->invInertia > 0.0) {
                double o[3];
                mcore_Cross3_64(r1, imp, o);
                for (int m = 0; m < 3; ++m) o[m] *= p->invInertia;
                mani_XpbdTurn(p->q, o);
            }
        }
        /* 3. stiffness: each rotation relative to its parent toward its start */
        for (uint32_t k = 0; k < w->slotCount; ++k) {
            mani_BodySlot* s = &w->slots[k];
            if (!(s->stiffness > 0.0) || (k == 0 && w->topMode == maniBodyTopHeld)) continue;
            double* qp = mani_XpbdParentQ(w, s);
            const double wp = s->parent < 0 ? 0.0 : w->slots[s->parent].invInertia;
            double target[4];
            mcore_QuatMul64(qp, s->r0, target);
            mani_XpbdAngular(s->q, s->invInertia, s->parent < 0 ? NULL : qp, wp, target,
                             (1.0 - s->stiffness) / (s->stiffness * L2), &s->lambdaStiff);
        }
        /* 4. limits */
        for (uint32_t k = 0; k < w->slotCount; ++k) {
            mani_BodySlot* s = &w->slots[k];
            if (s->setting < 0 || (k == 0 && w->topMode == maniBodyTopHeld)) continue;
            const double* qp = mani_XpbdParentQ(w, s);
            double inv[4], rl[4];
            mcore_QuatConj64(qp, inv);
            mcore_QuatMul64(inv, s->q, rl);
            mcore_QuatNormalize64(rl);
            double limited[4];
            memcpy(limited, rl, sizeof rl);
            mani_BodyLimit(w, solve, k, limited);
            if (memcmp(limited, rl, sizeof rl) != 0) mcore_QuatMul64(qp, limited, s->q);
        }
        mani_XpbdRead(w, solve);
        reached = mani_BodyReached(w, tolerance);
    }
    mani_BodyWrite(w, pose);
    if (reachedOut != NULL) *reachedOut = reached != 0;
    return mani_success;
}
