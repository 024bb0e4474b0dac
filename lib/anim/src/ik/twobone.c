/* maniPose_SolveTwoBone (ik.h): the middle bone's bend from the distances
 * (the law of cosines about the hinge), then the start bone's turn onto the
 * goal, its bend side toward the pole and twisted, in binary64. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/ik/ik_internal.h"

#define MANI_IK_PI 3.14159265358979323846

static double mani_IkWrapPi(double a) {
    if (a > MANI_IK_PI) return a - 2.0 * MANI_IK_PI;
    if (a < -MANI_IK_PI) return a + 2.0 * MANI_IK_PI;
    return a;
}

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
    memcpy(s, c.frame[0].p, sizeof s);
    memcpy(m, c.frame[1].p, sizeof m);
    memcpy(e, c.frame[2].p, sizeof e);
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
            mcore_QuatRotate64(c.frame[1].q, hn, h);
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

    /* The middle bone: about h, from phi (u to v) to phi* in [0, pi]. */
    if (a > 0.0 && b > 0.0 && haveHinge) {
        double up[3], vp[3], x[3];
        mani_IkPerp(u, h, up);
        mani_IkPerp(v, h, vp);
        const double uh = mcore_Dot3_64(u, h), vh = mcore_Dot3_64(v, h);
        const double P = mcore_Length3_64(up) * mcore_Length3_64(vp);
        if (P > 1e-12 * a * b) {
            mcore_Cross3_64(up, vp, x);
            const double phi = mcore_atan2(mcore_Dot3_64(h, x), mcore_Dot3_64(up, vp));
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
            double cp = (A - dd * dd) / (2.0 * P);
            cp = cp < -1.0 ? -1.0 : cp > 1.0 ? 1.0 : cp;
            const double delta = mani_IkWrapPi(mcore_acos(cp) - phi) * w;
            if (fabs(delta) >= (double)MANI_IK_MIN_TURN) {
                double r[4];
                mcore_QuatAxisAngle64(h, delta, r);
                mani_IkChainTurn(&c, 1, r);
            }
        }
    }

    /* The start bone: the end onto the goal, the bend side (h x n) toward
     * the pole turned by the twist. */
    if (d > 1e-5 * (a + b)) {
        double es[3], gs[3], A[4], Q[4];
        for (int i = 0; i < 3; ++i) es[i] = c.frame[2].p[i] - s[i], gs[i] = g[i] - s[i];
        if (mcore_QuatArc64(es, gs, A)) {
            memcpy(Q, A, sizeof Q);
            const double nn[3] = {gs[0] / d, gs[1] / d, gs[2] / d};
            const double pole[3] = {solve->pole.x, solve->pole.y, solve->pole.z};
            double pp[3], ha[3], beta[3], x[3];
            mani_IkPerp(pole, nn, pp);
            const double pl = mcore_Length3_64(pole);
            if (haveHinge && pl > 0.0 && mcore_Length3_64(pp) > 1e-6 * pl) {
                mcore_QuatRotate64(A, h, ha);
                mcore_Cross3_64(ha, nn, beta);
                if (mcore_Length3_64(beta) > 1e-6) {
                    /* the pole turned by the twist about n */
                    double T[4], pt[3], P4[4], t4[4];
                    mcore_QuatAxisAngle64(nn, solve->twist, T);
                    mcore_QuatRotate64(T, pp, pt);
                    mcore_Cross3_64(beta, pt, x);
                    const double ang = mcore_atan2(mcore_Dot3_64(nn, x), mcore_Dot3_64(beta, pt));
                    mcore_QuatAxisAngle64(nn, ang, P4);
                    mcore_QuatMul64(P4, A, t4);
                    memcpy(Q, t4, sizeof Q);
                }
            }
            mcore_QuatNormalize64(Q);
            if (w != 1.0) mcore_QuatPow64(Q, w, Q);
            if (mcore_QuatAngle64(Q) >= (double)MANI_IK_MIN_TURN) mani_IkChainTurn(&c, 0, Q);
        }
    }

    mani_IkChainWrite(&c, pose);
    if (reachedOut != NULL) *reachedOut = reached;
    return mani_success;
}
