/* maniPose_SolveTwoBone (ik.h): the middle bone's bend from the distances
 * (the law of cosines about the hinge), then the start bone's turn onto the
 * goal, its bend side toward the pole and twisted, in binary64. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/ik/ik_internal.h"

/* v's part perpendicular to the unit n. */
static void mani_IkPerp(const double v[3], const double n[3], double out[3]) {
    const double d = mcore_Dot3_64(v, n);
    for (int i = 0; i < 3; ++i) out[i] = v[i] - d * n[i];
}

maniResult maniPose_SolveTwoBone(maniPose* pose, const maniSkeleton* skeleton, const maniTwoBoneSolve* solve,
                                 bool* reachedOut) {
    if (solve == NULL || !mani_IkPoseOk(pose, skeleton)) return mani_errorInvalid;
    const uint32_t n = skeleton->boneCount;
    if (solve->startBone >= n || solve->middleBone >= n || solve->endBone >= n) return mani_errorInvalid;
    if (!mani_IkIsAncestor(skeleton, solve->startBone, solve->middleBone) ||
        !mani_IkIsAncestor(skeleton, solve->middleBone, solve->endBone))
        return mani_errorInvalid;
    if (!mani_IkFinite3(solve->goal) || !mani_IkFinite3(solve->pole) || !mani_IkFinite3(solve->hinge) ||
        !isfinite(solve->twist) || !mani_IkUnit01(solve->soften) || !mani_IkUnit01(solve->weight))
        return mani_errorInvalid;

    mani_IkChain c;
    const uint32_t bones[3] = {solve->startBone, solve->middleBone, solve->endBone};
    mani_IkChainLoad(&c, pose, skeleton, bones, 3);
    const double g[3] = {solve->goal.x, solve->goal.y, solve->goal.z};
    const double w = solve->weight;
    double s[3], m[3], e[3], u[3], v[3];
    memcpy(s, mani_IkChainFrame(&c, 0)->p, sizeof s);
    memcpy(m, mani_IkChainFrame(&c, 1)->p, sizeof m);
    mani_IkChainOrigin(&c, 2, e);
    for (int i = 0; i < 3; ++i) u[i] = s[i] - m[i], v[i] = e[i] - m[i];
    const double a = mcore_Length3_64(u), b = mcore_Length3_64(v), d = mani_IkDistance(g, s);
    bool reached = false;

    /* The hinge in model space: the given one, or u x v. */
    double h[3] = {0.0, 0.0, 0.0};
    int haveHinge = 0;
    {
        const double hl[3] = {solve->hinge.x, solve->hinge.y, solve->hinge.z};
        const double l = mcore_Length3_64(hl);
        double c3[3];
        if (l > 0.0 && isfinite(l)) {
            const double hn[3] = {hl[0] / l, hl[1] / l, hl[2] / l};
            double q1[4];
            memcpy(q1, mani_IkChainFrame(&c, 1)->q, sizeof q1);
            mcore_QuatNormalize64(q1);
            mcore_QuatRotateFast64(q1, hn, h);
            mcore_Cross3_64(h, v, c3);
            haveHinge = b > 0.0 && mcore_Length3_64(c3) > 1e-6 * b;
        }
        if (!haveHinge) {
            mcore_Cross3_64(u, v, c3);
            const double cl = mcore_Length3_64(c3);
            if (cl > 0.05 * a * b) { /* a bend well defined (see ik.h) */
                for (int i = 0; i < 3; ++i) h[i] = c3[i] / cl;
                haveHinge = 1;
            }
        }
    }

    /* The middle bone: about h, from phi (u to v) to phi* in [0, pi], the
     * turn's cosine and sine from theirs (no angle taken at weight 1). */
    double e1[3];
    memcpy(e1, e, sizeof e1);
    if (a > 0.0 && b > 0.0 && haveHinge) {
        double up[3], vp[3], x[3];
        mani_IkPerp(u, h, up);
        mani_IkPerp(v, h, vp);
        const double uh = mcore_Dot3_64(u, h), vh = mcore_Dot3_64(v, h);
        const double P = mcore_Length3_64(up) * mcore_Length3_64(vp);
        if (P > 1e-12 * a * b) {
            mcore_Cross3_64(up, vp, x);
            const double cphi = mcore_Dot3_64(up, vp) / P, sphi = mcore_Dot3_64(h, x) / P;
            const double A = (a * a + b * b) - 2.0 * uh * vh;
            const double dmax = sqrt(A + 2.0 * P), dmin2 = A - 2.0 * P, dmin = dmin2 > 0.0 ? sqrt(dmin2) : 0.0;
            double dd = d;
            const double ds0 = (double)solve->soften * dmax;
            if (solve->soften < 1.0f && d > ds0) {
                const double span = dmax - ds0;
                dd = ds0 + span * -mcore_expm1(-(d - ds0) / span);
            }
            reached = d >= dmin && d <= (solve->soften < 1.0f ? ds0 : dmax);
            if (dd > dmax) dd = dmax;
            if (dd < dmin) dd = dmin;
            double cw = (A - dd * dd) / (2.0 * P);
            cw = cw < -1.0 ? -1.0 : cw > 1.0 ? 1.0 : cw;
            const double sw = sqrt(1.0 - cw * cw);
            const double cd = cw * cphi + sw * sphi, sd = sw * cphi - cw * sphi; /* of phi* - phi */
            double r[4];
            if (1.0 + cd > 1e-300) {
                r[0] = sd * h[0], r[1] = sd * h[1], r[2] = sd * h[2], r[3] = 1.0 + cd;
                mcore_QuatNormalize64(r);
            } else { /* a half turn */
                r[0] = h[0], r[1] = h[1], r[2] = h[2], r[3] = 0.0;
            }
            if (w != 1.0) mcore_QuatPow64(r, w, r);
            if (!mani_IkSmallTurn(r)) {
                mani_IkChainTurn(&c, 1, r);
                for (int i = 0; i < 3; ++i) x[i] = e[i] - m[i];
                mcore_QuatRotateFast64(r, x, e1); /* the end turns about the middle */
                for (int i = 0; i < 3; ++i) e1[i] += m[i];
            }
        }
    }

    /* The start bone: the end onto the goal, the bend side (h x n) toward
     * the pole turned by the twist. */
    if (d > 1e-5 * (a + b)) {
        double es[3], gs[3], A[4], Q[4];
        for (int i = 0; i < 3; ++i) es[i] = e1[i] - s[i], gs[i] = g[i] - s[i];
        if (mcore_QuatArc64(es, gs, A)) {
            memcpy(Q, A, sizeof Q);
            const double nn[3] = {gs[0] / d, gs[1] / d, gs[2] / d};
            const double pole[3] = {solve->pole.x, solve->pole.y, solve->pole.z};
            double pp[3], ha[3], beta[3];
            mani_IkPerp(pole, nn, pp);
            const double pl = mcore_Length3_64(pole);
            if (haveHinge && pl > 0.0 && mcore_Length3_64(pp) > 1e-6 * pl) {
                mcore_QuatRotateFast64(A, h, ha);
                mcore_Cross3_64(ha, nn, beta);
                if (mcore_Length3_64(beta) > 1e-6) {
                    /* beta onto the pole turned by the twist about n */
                    double P4[4], t4[4];
                    mani_IkTurnAbout(nn, beta, pp, solve->twist, P4);
                    mcore_QuatMul64(P4, A, t4);
                    memcpy(Q, t4, sizeof Q);
                }
            }
            mcore_QuatNormalize64(Q);
            if (w != 1.0) mcore_QuatPow64(Q, w, Q);
            if (!mani_IkSmallTurn(Q)) mani_IkChainTurn(&c, 0, Q);
        }
    }

    mani_IkChainWrite(&c, pose);
    if (reachedOut != NULL) *reachedOut = reached;
    return mani_success;
}
