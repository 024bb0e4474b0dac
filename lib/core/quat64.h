/* Binary64 quaternions (x, y, z, w) for the code that works in binary64:
 * clip building and root motion. Each component is one fixed sequence of
 * IEEE operations (no FMA), so both give the same bits on every platform. */
#ifndef MAUL_CORE_QUAT64_H
#define MAUL_CORE_QUAT64_H

#include <math.h>

#include "lib/core/detmath.h"

/* out = a b (b applied first); out may be a or b. */
static inline void mcore_QuatMul64(const double a[4], const double b[4], double out[4]) {
    const double x = ((a[3] * b[0] + a[0] * b[3]) + a[1] * b[2]) - a[2] * b[1];
    const double y = ((a[3] * b[1] - a[0] * b[2]) + a[1] * b[3]) + a[2] * b[0];
    const double z = ((a[3] * b[2] + a[0] * b[1]) - a[1] * b[0]) + a[2] * b[3];
    const double w = ((a[3] * b[3] - a[0] * b[0]) - a[1] * b[1]) - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

/* out = q v q* (the vector rotated by q, q of length 1), as two products. */
static inline void mcore_QuatRotate64(const double q[4], const double v[3], double out[3]) {
    const double p[4] = {v[0], v[1], v[2], 0.0};
    const double c[4] = {-q[0], -q[1], -q[2], q[3]};
    double t[4], r[4];
    mcore_QuatMul64(q, p, t);
    mcore_QuatMul64(t, c, r);
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
}


/* -- Vectors and rotations in binary64 (the IK solvers) ------------------- */

static inline double mcore_Dot3_64(const double a[3], const double b[3]) { return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]; }

/* out = a x b; out may be a or b. */
static inline void mcore_Cross3_64(const double a[3], const double b[3], double out[3]) {
    const double x = a[1] * b[2] - a[2] * b[1];
    const double y = a[2] * b[0] - a[0] * b[2];
    const double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline double mcore_Length3_64(const double a[3]) { return sqrt(mcore_Dot3_64(a, a)); }

/* out = q v q* for a unit q in fewer operations than mcore_QuatRotate64
 * (other rounding): t = 2 (q.xyz x v), out = v + q.w t + q.xyz x t; out may
 * be v. */
static inline void mcore_QuatRotateFast64(const double q[4], const double v[3], double out[3]) {
    double t[3], c[3];
    mcore_Cross3_64(q, v, t);
    t[0] *= 2.0, t[1] *= 2.0, t[2] *= 2.0;
    mcore_Cross3_64(q, t, c);
    const double x = (v[0] + q[3] * t[0]) + c[0];
    const double y = (v[1] + q[3] * t[1]) + c[1];
    const double z = (v[2] + q[3] * t[2]) + c[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* Scales q to length 1 and returns its length before; a length of 0 or not
 * finite makes q the identity. */
static inline double mcore_QuatNormalize64(double q[4]) {
    const double l = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    if (!(l > 0.0) || l > 1.79e308) {
        q[0] = q[1] = q[2] = 0.0;
        q[3] = 1.0;
        return l;
    }
    q[0] /= l;
    q[1] /= l;
    q[2] /= l;
    q[3] /= l;
    return l;
}

/* out = q* (the inverse of a unit q); out may be q. */
static inline void mcore_QuatConj64(const double q[4], double out[4]) {
    out[0] = -q[0];
    out[1] = -q[1];
    out[2] = -q[2];
    out[3] = q[3];
}

/* The rotation by angle radians counterclockwise about a unit axis. */
static inline void mcore_QuatAxisAngle64(const double axis[3], double angle, double out[4]) {
    double s, c;
    mcore_sincos(0.5 * angle, &s, &c);
    out[0] = axis[0] * s;
    out[1] = axis[1] * s;
    out[2] = axis[2] * s;
    out[3] = c;
}

/* The angle of a unit q's rotation, 0 to pi (the short way). */
static inline double mcore_QuatAngle64(const double q[4]) {
    const double v = sqrt((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]);
    return 2.0 * mcore_atan2(v, q[3] < 0.0 ? -q[3] : q[3]);
}

/* out = q^t: a unit q's rotation taken the short way, its angle times t
 * (same axis); out may be q. */
static inline void mcore_QuatPow64(const double q[4], double t, double out[4]) {
    const double sg = q[3] < 0.0 ? -1.0 : 1.0;
    const double v[3] = {sg * q[0], sg * q[1], sg * q[2]};
    const double vl = mcore_Length3_64(v);
    if (!(vl > 0.0)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    const double angle = 2.0 * mcore_atan2(vl, sg * q[3]);
    const double axis[3] = {v[0] / vl, v[1] / vl, v[2] / vl};
    mcore_QuatAxisAngle64(axis, t * angle, out);
}

/* The shortest arc turning direction a onto direction b (neither needs
 * length 1): from (|a||b| + a.b, a x b) normalized; opposite directions turn
 * by pi about an axis perpendicular to a. Returns 0 (out the identity) when
 * either has length 0. */
static inline int mcore_QuatArc64(const double a[3], const double b[3], double out[4]) {
    const double la = mcore_Length3_64(a), lb = mcore_Length3_64(b);
    out[0] = out[1] = out[2] = 0.0;
    out[3] = 1.0;
    if (!(la > 0.0) || !(lb > 0.0)) return 0;
    double c[3];
    mcore_Cross3_64(a, b, c);
    double w = la * lb + mcore_Dot3_64(a, b);
    if (w <= 1e-14 * (la * lb)) {
        /* (nearly) opposite: about the axis perpendicular to a nearest to
         * the least of its components' axes */
        const double ax = a[0] < 0 ? -a[0] : a[0], ay = a[1] < 0 ? -a[1] : a[1], az = a[2] < 0 ? -a[2] : a[2];
        const double e[3] = {ax <= ay && ax <= az ? 1.0 : 0.0, ay < ax && ay <= az ? 1.0 : 0.0,
                             az < ax && az < ay ? 1.0 : 0.0};
        mcore_Cross3_64(a, e, c);
        w = 0.0;
    }
    out[0] = c[0];
    out[1] = c[1];
    out[2] = c[2];
    out[3] = w;
    mcore_QuatNormalize64(out);
    return 1;
}

#endif
