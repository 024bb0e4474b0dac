/* maniPose_SolveAim (ik.h): each bone, from the top, turns its share of
 * what is left of the aiming bone's turn (the forward line from the offset
 * onto the goal, the up toward the pole, the twist), in binary64. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/ik/ik_internal.h"

static void mani_IkPerpA(const double v[3], const double n[3], double out[3]) {
    const double d = mcore_Dot3_64(v, n);
    for (int i = 0; i < 3; ++i) out[i] = v[i] - d * n[i];
}

/* The aiming bone's whole turn now, about its origin: R (model). Returns 0
 * when the goal turns nothing. *coned when the cone stopped the forward;
 * twistLeft the twist to make without a pole. */
static int mani_AimTurn(mani_IkChain* c, const maniAimSolve* a, const double f0[3], double twistLeft,
                        double R[4], int* coned) {
    const mani_IkFrame* F = mani_IkChainFrame(c, c->count - 1);
    const double fl[3] = {a->forward.x, a->forward.y, a->forward.z};
    const double fll = mcore_Length3_64(fl);
    const double fn[3] = {fl[0] / fll, fl[1] / fll, fl[2] / fll};
    const double ul[3] = {a->up.x, a->up.y, a->up.z}, ol[3] = {a->offset.x, a->offset.y, a->offset.z};
    double f[3], u[3], p[3], G[3];
    mcore_QuatRotateFast64(F->q, fn, f);
    mcore_QuatRotateFast64(F->q, ul, u);
    mani_IkFramePoint(F, ol, p);
    for (int i = 0; i < 3; ++i) p[i] -= F->p[i];
    G[0] = (double)a->goal.x - F->p[0];
    G[1] = (double)a->goal.y - F->p[1];
    G[2] = (double)a->goal.z - F->p[2];
    const double gl = mcore_Length3_64(G);
    const double ppar = mcore_Dot3_64(p, f);
    double pperp[3];
    for (int i = 0; i < 3; ++i) pperp[i] = p[i] - ppar * f[i];
    const double pq = mcore_Dot3_64(pperp, pperp);
    if (!(gl > 1e-5 * (1.0 + mcore_Length3_64(F->p))) || gl * gl <= pq) return 0;
    /* the point on the forward line at the goal's distance, onto the goal */
    const double sl = sqrt(gl * gl - pq) - ppar;
    double q[3], R1[4], f1[3], n[3];
    for (int i = 0; i < 3; ++i) q[i] = p[i] + sl * f[i];
    if (!mcore_QuatArc64(q, G, R1)) return 0;
    mcore_QuatRotateFast64(R1, f, f1);
    for (int i = 0; i < 3; ++i) n[i] = G[i] / gl;
    *coned = 0;
    if ((double)a->cone < (double)MANI_AIM_MAX_CONE) {
        double C[4];
        mcore_QuatArc64(f0, f1, C);
        const double ang = mcore_QuatAngle64(C);
        if (ang > (double)a->cone) {
            double Cc[4], fc[3];
            mcore_QuatPow64(C, (double)a->cone / ang, Cc);
            mcore_QuatRotateFast64(Cc, f0, fc);
            mcore_QuatArc64(f, fc, R1);
            memcpy(n, fc, sizeof n);
            *coned = 1;
        }
    }
    /* the up toward the pole turned by the twist; no pole: the twist left */
    double u1[3], up[3], pp[3], U[4], out[4];
    const double pole[3] = {a->pole.x, a->pole.y, a->pole.z};
    mcore_QuatRotateFast64(R1, u, u1);
    mani_IkPerpA(u1, n, up);
    mani_IkPerpA(pole, n, pp);
    const double pl = mcore_Length3_64(pole), ul1 = mcore_Length3_64(u1);
    if (pl > 0.0 && ul1 > 0.0 && mcore_Length3_64(pp) > 1e-6 * pl && mcore_Length3_64(up) > 1e-6 * ul1) {
        mani_IkTurnAbout(n, up, pp, a->twist, U);
    } else if (twistLeft != 0.0) {
        mcore_QuatAxisAngle64(n, twistLeft, U);
    } else {
        U[0] = U[1] = U[2] = 0.0, U[3] = 1.0;
    }
    mcore_QuatMul64(U, R1, out);
    mcore_QuatNormalize64(out);
    memcpy(R, out, sizeof out);
    return 1;
}

maniResult maniPose_SolveAim(maniPose* pose, const maniSkeleton* skeleton, const maniAimSolve* solve,
                             bool* reachedOut) {
    if (solve == NULL || pose == NULL || skeleton == NULL) return mani_errorInvalid;
    if (solve->count > MANI_MAX_AIM_BONES) return mani_errorLimit;
    if (!mani_IkPoseOk(pose, skeleton) || solve->count == 0) return mani_errorInvalid;
    const uint32_t count = solve->count;
    double total = 0.0;
    for (uint32_t i = 0; i < count; ++i) {
        if (solve->bones[i] >= skeleton->boneCount) return mani_errorInvalid;
        if (i > 0 && !mani_IkIsAncestor(skeleton, solve->bones[i - 1], solve->bones[i])) return mani_errorInvalid;
        if (!isfinite(solve->shares[i]) || solve->shares[i] < 0.0f) return mani_errorInvalid;
        total += solve->shares[i];
    }
    if (!(total > 0.0)) return mani_errorInvalid;
    const double fl = sqrt(((double)solve->forward.x * solve->forward.x + (double)solve->forward.y * solve->forward.y) +
                           (double)solve->forward.z * solve->forward.z);
    if (!(fl >= 0.999 && fl <= 1.001)) return mani_errorInvalid;
    if (!mani_IkFinite3(solve->goal) || !mani_IkFinite3(solve->pole) || !mani_IkFinite3(solve->offset) ||
        !mani_IkFinite3(solve->up) || !isfinite(solve->twist))
        return mani_errorInvalid;
    if (!(solve->cone >= 0.0f && solve->cone <= MANI_AIM_MAX_CONE) || !mani_IkUnit01(solve->weight))
        return mani_errorInvalid;

    mani_IkChain c;
    mani_IkChainLoad(&c, pose, skeleton, solve->bones, count);
    double f0[3];
    {
        const double fn[3] = {solve->forward.x / fl, solve->forward.y / fl, solve->forward.z / fl};
        mcore_QuatRotateFast64(mani_IkChainFrame(&c, count - 1)->q, fn, f0);
    }
    bool reached = false;
    double left = total;
    uint32_t last = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (solve->shares[i] > 0.0f) last = i;
    for (uint32_t i = 0; i < count; ++i) {
        const double share = solve->shares[i];
        if (!(share > 0.0)) continue;
        const double frac = i == last ? 1.0 : share / left;
        double R[4], Ri[4];
        int coned = 0;
        /* without a pole, the last bone with a share makes the twist */
        if (!mani_AimTurn(&c, solve, f0, i == last ? solve->twist : 0.0, R, &coned)) {
            reached = false;
            break;
        }
        reached = !coned;
        left -= share;
        if (frac < 1.0)
            mcore_QuatPow64(R, frac, Ri);
        else
            memcpy(Ri, R, sizeof Ri);
        if (!mani_IkSmallTurn(Ri)) mani_IkChainTurn(&c, i, Ri);
    }
    mani_IkChainWeight(&c, solve->weight);
    mani_IkChainWrite(&c, pose);
    if (reachedOut != NULL) *reachedOut = reached;
    return mani_success;
}
