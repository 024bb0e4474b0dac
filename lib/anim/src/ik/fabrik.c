/* maniPose_SolveFabrik (ik.h): FABRIK (Aristidou and Lasenby) in binary64:
 * the backward pass places the joints, the forward pass turns each bone onto
 * its joint's place by the shortest arc, then its limit. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/ik/ik_internal.h"

/* The pole pre-turn: the root turns about the root-to-goal line so the
 * bend (the interior joints' offsets from the line) faces the pole, the
 * angle scaled by the bend over a tenth of the chain's length, at most 1. */
static void mani_FabrikPole(mani_IkChainSetup* setup, const maniChainSolve* solve) {
    mani_IkChain* c = &setup->chain;
    const double pole[3] = {solve->pole.x, solve->pole.y, solve->pole.z};
    const double pl = mcore_Length3_64(pole);
    if (!(pl > 0.0) || c->count < 3 || !(setup->length > 0.0)) return;
    const double* o = mani_IkChainFrame(c, 0)->p;
    double n[3] = {setup->goal[0] - o[0], setup->goal[1] - o[1], setup->goal[2] - o[2]};
    const double nl = mcore_Length3_64(n);
    if (!(nl > 1e-9 * setup->length)) return;
    for (int i = 0; i < 3; ++i) n[i] /= nl;
    double b[3] = {0.0, 0.0, 0.0}, p[3], x[3];
    for (uint32_t k = 1; k + 1 < c->count; ++k) {
        double j[3];
        const double* jk = mani_IkChainFrame(c, k)->p;
        for (int i = 0; i < 3; ++i) j[i] = jk[i] - o[i];
        const double dn = mcore_Dot3_64(j, n);
        for (int i = 0; i < 3; ++i) b[i] += j[i] - dn * n[i];
    }
    const double pn = mcore_Dot3_64(pole, n);
    for (int i = 0; i < 3; ++i) p[i] = pole[i] - pn * n[i];
    const double bl = mcore_Length3_64(b);
    if (!(bl > 0.0) || !(mcore_Length3_64(p) > 1e-6 * pl)) return;
    mcore_Cross3_64(b, p, x);
    double f = bl / (0.1 * setup->length);
    if (f > 1.0) f = 1.0;
    const double angle = f * mcore_atan2(mcore_Dot3_64(n, x), mcore_Dot3_64(b, p));
    if (fabs(angle) < (double)MANI_IK_MIN_TURN) return;
    double R[4];
    mcore_QuatAxisAngle64(n, angle, R);
    mani_IkChainTurn(c, 0, R);
}

maniResult maniPose_SolveFabrik(maniPose* pose, const maniSkeleton* skeleton, const maniChainSolve* solve,
                                bool* reachedOut) {
    mani_IkChainSetup setup;
    const maniResult r = mani_IkChainPrepare(pose, skeleton, solve, 1, &setup);
    if (r != mani_success) return r;
    mani_IkChain* c = &setup.chain;
    const uint32_t e = c->count - 1;
    double len[MANI_MAX_IK_CHAIN_BONES];
    for (uint32_t k = 0; k < e; ++k) len[k] = mani_IkDistance(mani_IkChainFrame(c, k)->p, mani_IkChainFrame(c, k + 1)->p);
    mani_FabrikPole(&setup, solve);
    const double tol = solve->tolerance;
    double t[MANI_MAX_IK_CHAIN_BONES][3];
    for (uint32_t it = 0; it < solve->iterations && !(mani_IkChainMiss(&setup) <= tol); ++it) {
        memcpy(t[e], setup.goal, sizeof t[e]);
        for (uint32_t k = e; k-- > 0;) {
            double d[3];
            const double* p = mani_IkChainFrame(c, k)->p;
            for (int i = 0; i < 3; ++i) d[i] = p[i] - t[k + 1][i];
            const double dl = mcore_Length3_64(d);
            for (int i = 0; i < 3; ++i) t[k][i] = t[k + 1][i] + (dl > 0.0 ? len[k] * (d[i] / dl) : 0.0);
        }
        for (uint32_t k = 0; k < e; ++k) {
            double have[3], want[3], R[4];
            double next[3];
            mani_IkChainOrigin(c, k + 1, next);
            const double* p = c->frame[k].p; /* composed for k + 1's origin */
            for (int i = 0; i < 3; ++i) have[i] = next[i] - p[i], want[i] = t[k + 1][i] - p[i];
            if (mcore_QuatArc64(have, want, R) && !mani_IkSmallTurn(R))
                mani_IkChainTurn(c, k, R);
            mani_IkChainLimit(&setup, k);
        }
    }
    mani_IkChainFinish(&setup, solve, pose, reachedOut);
    return mani_success;
}
