/* maniPose_SolveCcd (ik.h): cyclic coordinate descent in binary64, each
 * bone's shortest arc cut to the step bound, then its limit. */
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
        for (uint32_t k = e; k-- > 0;) {
            double v1[3], v2[3], R[4];
            for (int i = 0; i < 3; ++i)
                v1[i] = c->frame[e].p[i] - c->frame[k].p[i], v2[i] = setup.goal[i] - c->frame[k].p[i];
            if (mcore_Length3_64(v1) > eps && mcore_Length3_64(v2) > eps && mcore_QuatArc64(v1, v2, R)) {
                const double angle = mcore_QuatAngle64(R);
                if (solve->step > 0.0f && angle > (double)solve->step) mcore_QuatPow64(R, solve->step / angle, R);
                if (angle >= (double)MANI_IK_MIN_TURN) mani_IkChainTurn(c, k, R);
            }
            mani_IkChainLimit(&setup, k);
        }
    }
    mani_IkChainFinish(&setup, solve, pose, reachedOut);
    return mani_success;
}
