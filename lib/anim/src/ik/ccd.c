/* maniPose_SolveCcd (ik.h): cyclic coordinate descent in binary64, each
 * bone's shortest arc cut to the step bound, then its limit. A sweep runs
 * from the end's parent up, so each bone's frame is current when it turns;
 * the end is carried along by each turn (the model turn about the bone's
 * origin) and the frames composed again once a sweep. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/ik/ik_internal.h"

maniResult maniPose_SolveCcd(maniPose* pose, const maniSkeleton* skeleton, const maniChainSolve* solve,
                             bool* reachedOut) {
    mani_IkChainSetup setup;
    const maniResult r = mani_IkChainPrepare(pose, skeleton, solve, 0, &setup);
    if (r != mani_success) return r;
    mani_IkChain* c = &setup.chain;
    const uint32_t e = c->count - 1;
    const double tol = solve->tolerance, eps = 1e-9 * setup.length;
    for (uint32_t it = 0; it < solve->iterations && !(mani_IkChainMiss(&setup) <= tol); ++it) {
        double end[3];
        mani_IkChainOrigin(c, e, end);
        for (uint32_t k = e; k-- > 0;) {
            const mani_IkFrame* f = mani_IkChainFrame(c, k); /* current: only bones below k turned */
            double o[3], P[4], before[4], v1[3], v2[3], R[4];
            memcpy(o, f->p, sizeof o);
            memcpy(P, c->pre[k].q, sizeof P);
            memcpy(before, c->q[k], sizeof before);
            for (int i = 0; i < 3; ++i) v1[i] = end[i] - o[i], v2[i] = setup.goal[i] - o[i];
            int moved = 0;
            if (mcore_Length3_64(v1) > eps && mcore_Length3_64(v2) > eps && mcore_QuatArc64(v1, v2, R)) {
                if (solve->step > 0.0f) {
                    const double angle = mcore_QuatAngle64(R);
                    if (angle > (double)solve->step) mcore_QuatPow64(R, solve->step / angle, R);
                }
                if (!mani_IkSmallTurn(R)) {
                    mani_IkChainTurn(c, k, R);
                    moved = 1;
                }
            }
            moved |= mani_IkChainLimit(&setup, k);
            if (moved) { /* the end turns with the bone: P (q before^-1) P^-1 about o */
                double bc[4], d[4], pc[4], t[4], D[4], x[3], y[3];
                mcore_QuatConj64(before, bc);
                mcore_QuatMul64(c->q[k], bc, d);
                mcore_QuatConj64(P, pc);
                mcore_QuatMul64(P, d, t);
                mcore_QuatMul64(t, pc, D);
                mcore_QuatNormalize64(D);
                for (int i = 0; i < 3; ++i) x[i] = end[i] - o[i];
                mcore_QuatRotateFast64(D, x, y);
                for (int i = 0; i < 3; ++i) end[i] = o[i] + y[i];
            }
        }
    }
    mani_IkChainFinish(&setup, solve, pose, reachedOut);
    return mani_success;
}
