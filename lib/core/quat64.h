/* Binary64 quaternions (x, y, z, w) for the code that works in binary64:
 * clip building and root motion. Each component is one fixed sequence of
 * IEEE operations (no FMA), so both give the same bits on every platform. */
#ifndef MAUL_CORE_QUAT64_H
#define MAUL_CORE_QUAT64_H

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

#endif
