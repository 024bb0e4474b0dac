/* lib/core/detmath_trig.c: binary64 sin, cos, sincos, tan.
 *
 * x = k*pi/2 + r with r = rh + rl a double-double, |r| <= pi/4
 * (mcore_remPiO2: Cody-Waite below 2^20, integer Payne-Hanek above). On r,
 * Taylor polynomials (MCORE_SIN_P: x^3..x^17, MCORE_COS_P: x^4..x^18,
 * truncation below 2^-60 relative on |r| <= pi/4), with the two leading
 * terms of each in double-double (mcore_SinCore, mcore_CosCore below); their
 * relative error before the final rounding grows as r^4: below
 * C z^2 2^-53 + 2^-98, z = rh^2, C = 0.11 (sin), 0.016 (cos)
 * (docs/determinism.md, "Binary64 fast paths");
 * tan = sin/cos (or -cos/sin) with both kept as double-doubles and a
 * double-double division, rounded once.
 *
 * Fast paths (Ziv): after the same reduction, sin/cos/tan of r by
 * per-interval polynomials (mc_sin_fast, mc_cos_fast, mc_tan_fast in
 * detmath_internal.h: no TwoProd but cot's one, no division but cot's one),
 * kept only when mc_settled_k's test (`settled` below) settles the rounding
 * with the tolerance 2 (E_FAST + E_ACC(z)) of MC_SETTLE_TRIG_K0 and
 * MC_SETTLE_*_K2. Otherwise the kernels below run on the same rh, rl,
 * which is exactly the accurate path (mcore_*_accurate: reduction + kernel). */
#include "lib/core/detmath.h"
#include "lib/core/detmath_internal.h"

/* sin(rh + rl) as a dd (sh, sl): rh - rh^3/6 with rh^3/6 in double-double
 * (TwoProd, then a dd division by 6), rh^5*S'(z) and rl*(1 - z/2) in binary64. */
void mcore_SinCore(double rh, double rl, double* sh, double* sl) {
    const double* P = MCORE_SIN_P;
    double zl;
    double z = mc_two_prod(rh, rh, &zl);
    double c3l;
    double c3 = mc_two_prod(z, rh, &c3l);
    c3l += zl * rh;
    double t3h, t3l;
    mc_dd_div(c3, c3l, 6.0, 0.0, &t3h, &t3l); /* r^3/6 */
    double rest = (c3 * z) * (P[1] + z * (P[2] + z * (P[3] + z * (P[4] + z * (P[5] + z * (P[6] + z * P[7]))))));
    double ae;
    double a = mc_fast_two_sum(rh, -t3h, &ae);
    double low = ae + ((rest - t3l) + (rl - (0.5 * z) * rl));
    *sh = mc_fast_two_sum(a, low, sl);
}
/* cos(rh + rl) as a dd: 1 - zh/2 by TwoSum, z^2/24 in double-double
 * (zh + zl = rh^2 by TwoProd), z^3*C'(z) and the rl terms in binary64. */
void mcore_CosCore(double rh, double rl, double* ch, double* cl) {
    const double* P = MCORE_COS_P;
    double zl;
    double zh = mc_two_prod(rh, rh, &zl);
    double e;
    double w = mc_two_sum(1.0, -(0.5 * zh), &e);
    double q4l;
    double q4 = mc_two_prod(zh, zh, &q4l);
    q4l += 2.0 * zh * zl;
    double t4h, t4l;
    mc_dd_div(q4, q4l, 24.0, 0.0, &t4h, &t4l); /* r^4/24 */
    double rest = (q4 * zh) * (P[1] + zh * (P[2] + zh * (P[3] + zh * (P[4] + zh * (P[5] + zh * (P[6] + zh * P[7]))))));
    double ae;
    double a = mc_two_sum(w, t4h, &ae);
    double low = (ae + e) + ((t4l + rest) - (0.5 * zl + rh * rl));
    *ch = mc_fast_two_sum(a, low, cl);
}

static double sin_accurate_impl(double x) {
    double ax = mc_fabs(x);
    if (ax < 0x1p-26) return x;
    if (!mc_isfinite(x)) return x - x;
    double rh, rl, h, l;
    int q = mcore_remPiO2(x, &rh, &rl);
    if (q & 1) mcore_CosCore(rh, rl, &h, &l);
    else mcore_SinCore(rh, rl, &h, &l);
    double v = h + l;
    return (q & 2) ? -v : v;
}

static double cos_accurate_impl(double x) {
    double ax = mc_fabs(x);
    if (ax < 0x1p-27) return 1.0;
    if (!mc_isfinite(x)) return x - x;
    double rh, rl, h, l;
    int q = mcore_remPiO2(x, &rh, &rl);
    if (q & 1) mcore_SinCore(rh, rl, &h, &l);
    else mcore_CosCore(rh, rl, &h, &l);
    double v = h + l;
    return ((q + 1) & 2) ? -v : v;
}

void mcore_sincos_accurate(double x, double* s, double* c) {
    double ax = mc_fabs(x);
    if (ax < 0x1p-26 || !mc_isfinite(x)) {
        *s = mcore_sin_accurate(x);
        *c = mcore_cos_accurate(x);
        return;
    }
    /* One reduction; the same kernels and quadrant logic as mcore_sin/mcore_cos. */
    double rh, rl, sh, sl, ch, cl;
    int q = mcore_remPiO2(x, &rh, &rl);
    mcore_SinCore(rh, rl, &sh, &sl);
    mcore_CosCore(rh, rl, &ch, &cl);
    double sv = sh + sl, cv = ch + cl;
    switch (q) {
        case 0: *s = sv; *c = cv; break;
        case 1: *s = cv; *c = -sv; break;
        case 2: *s = -sv; *c = -cv; break;
        default: *s = -cv; *c = sv; break;
    }
}

/* tan (q even) or -cot (q odd) of r by the accurate path: the dd quotient. */
static double tan_kernel(int q, double rh, double rl) {
    double sh, sl, ch, cl, h, l;
    mcore_SinCore(rh, rl, &sh, &sl);
    mcore_CosCore(rh, rl, &ch, &cl);
    if (q & 1) {
        mc_dd_div(ch, cl, sh, sl, &h, &l);
        return -(h + l);
    }
    mc_dd_div(sh, sl, ch, cl, &h, &l);
    return h + l;
}

static double tan_accurate_impl(double x) {
    double ax = mc_fabs(x);
    if (ax < 0x1p-27) return x;
    if (!mc_isfinite(x)) return x - x;
    double rh, rl;
    int q = mcore_remPiO2(x, &rh, &rl);
    return tan_kernel(q, rh, rl);
}

/* mc_settled_k without its zero test: the fast results here are never 0 or
 * outside [2^-900, 2^1000] (|r| >= 2^-80 or so for any double x, tan and
 * cot within a factor 2^80 of 1). */
static inline int settled(double hi, double lo, double k, double* out) {
    double s = hi + lo;
    double l = lo - (s - hi);
    if (s + l * k != s) return 0;
    *out = s;
    return 1;
}

/* The accurate kernel's RN(h + l): sin (odd = 0) or cos (odd = 1) of r. */
static double sin_or_cos_kernel(int odd, double rh, double rl) {
    double h, l;
    if (odd) mcore_CosCore(rh, rl, &h, &l);
    else mcore_SinCore(rh, rl, &h, &l);
    return h + l;
}

/* sin (odd = 0) or cos (odd = 1) of r = rh + rl rounded, as the accurate
 * kernel's RN(h + l): the fast kernel when settled, else the kernel. */
static inline double sin_or_cos_r(int odd, double rh, double rl) {
    double h, l, v;
    double zz = (rh * rh) * (rh * rh);
    if (odd) {
        h = mc_cos_fast(rh, rl, &l);
        if (settled(h, l, MC_SETTLE_TRIG_K0 + MC_SETTLE_COS_K2 * zz, &v)) return v;
    } else {
        h = mc_sin_fast(rh, rl, &l);
        if (settled(h, l, MC_SETTLE_TRIG_K0 + MC_SETTLE_SIN_K2 * zz, &v)) return v;
    }
    return sin_or_cos_kernel(odd, rh, rl);
}

/* Public entry points: any NaN result (from a NaN or infinite x only) is the
 * canonical quiet NaN. */
double mcore_sin(double x) {
    double ax = mc_fabs(x);
    if (ax < 0x1p-26) return x;
    if (!mc_isfinite(x)) return mc_canon(x - x);
    double rh, rl;
    int q = mc_rem_pio2_finite(x, ax, &rh, &rl);
    double v = sin_or_cos_r(q & 1, rh, rl);
    return (q & 2) ? -v : v;
}

double mcore_cos(double x) {
    double ax = mc_fabs(x);
    if (ax < 0x1p-27) return 1.0;
    if (!mc_isfinite(x)) return mc_canon(x - x);
    double rh, rl;
    int q = mc_rem_pio2_finite(x, ax, &rh, &rl);
    double v = sin_or_cos_r((q & 1) ^ 1, rh, rl);
    return ((q + 1) & 2) ? -v : v;
}

void mcore_sincos(double x, double* s, double* c) {
    double ax = mc_fabs(x);
    if (ax < 0x1p-26 || !mc_isfinite(x)) {
        *s = mcore_sin(x);
        *c = mcore_cos(x);
        return;
    }
    /* One reduction; each of sin r and cos r settled on its own (else its
     * accurate kernel), the quadrant logic of mcore_sin/mcore_cos. */
    double rh, rl;
    int q = mc_rem_pio2_finite(x, ax, &rh, &rl);
    double sv = sin_or_cos_r(0, rh, rl), cv = sin_or_cos_r(1, rh, rl);
    switch (q) {
        case 0: *s = sv; *c = cv; break;
        case 1: *s = cv; *c = -sv; break;
        case 2: *s = -sv; *c = -cv; break;
        default: *s = -cv; *c = sv; break;
    }
}


double mcore_tan(double x) {
    double ax = mc_fabs(x);
    if (ax < 0x1p-27) return x;
    if (!mc_isfinite(x)) return mc_canon(x - x);
    double rh, rl, l, v;
    int q = mc_rem_pio2_finite(x, ax, &rh, &rl);
    /* tan, -cot odd: evaluate at |rh|, sign(rh) rl; the settled s (the
     * rounding test is symmetric) gets the sign of rh, flipped for odd q. */
    uint64_t sb = mc_bits(rh) & ~MC_ABS;
    double a = mc_fabs(rh);
    double h = mc_tan_fast_abs(a, mc_dbl(mc_bits(rl) ^ sb), q & 1, &l);
    if (settled(h, l, MC_SETTLE_TRIG_K0 + MC_SETTLE_TAN_K2 * ((a * a) * (a * a)), &v))
        return mc_dbl(mc_bits(v) ^ sb ^ ((uint64_t)(q & 1) << 63));
    return tan_kernel(q, rh, rl);
}

double mcore_sin_accurate(double x) { return mc_canon(sin_accurate_impl(x)); }
double mcore_cos_accurate(double x) { return mc_canon(cos_accurate_impl(x)); }
double mcore_tan_accurate(double x) { return mc_canon(tan_accurate_impl(x)); }
