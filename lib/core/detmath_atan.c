/* lib/core/detmath_atan.c: binary64 atan, atan2, asin, acos, cbrt, hypot.
 *
 * atan on [0,1] (mcore_AtanCore): i = RN(64u), c = i/64,
 * atan(u) = atan(c) + atan(v), v = (u - c)/(1 + u*c) in double-double
 * (|v| <= 1/128), atan(v) = vh + (vl + (vh*z)*A(z)), z = vh^2, A the Taylor
 * polynomial -1/3 + z/5 - ... - z^4/11 (MCORE_ATAN_P); atan(c) from
 * MCORE_ATAN_TAB (double-double). Arguments above 1 use pi/2 - atan(1/u)
 * with 1/u in double-double; atan2 divides min/max in double-double after an
 * exact power-of-two scaling; asin/acos are atan2(|x|, sqrt(1-x^2)) and
 * atan2(sqrt(1-x^2), x) with 1 - x^2 and its square root in double-double.
 *
 * cbrt: exponent split e = 3q + rem, m in [1,8); four Newton steps from a
 * linear guess, then one correction y + (m - y^3)/(3y^2) with m - y^3 in
 * double-double, which makes exact cubes exact.
 * hypot: exact power-of-two scaling, x^2 + y^2 by TwoProd in double-double,
 * double-double square root, one final (subnormal-aware) rounding.
 *
 * atan, atan2, asin and acos first try per-interval polynomials
 * (mc_interval_poly: no division but atan's 1/a and atan2's quotient, no
 * double-double square root; asin and acos above 1/2 through
 * asin(sqrt((1 - a)/2))) with mc_settled_k's test. Otherwise the paths above run unchanged
 * (mcore_*_accurate). */
#include "lib/core/detmath.h"
#include "lib/core/detmath_internal.h"

void mcore_AtanCore(double uh, double ul, double* hi, double* lo) {
    int i = (int)(uh * 64.0 + 0.5);
    double c = (double)i * 0x1p-6;
    double ne;
    double nh = mc_two_sum(uh, -c, &ne);
    nh = mc_fast_two_sum(nh, ne + ul, &ne);
    double pe;
    double p = mc_two_prod(uh, c, &pe);
    double dl;
    double dh = mc_fast_two_sum(1.0, p, &dl);
    dl += pe + ul * c;
    double vh, vl;
    mc_dd_div(nh, ne, dh, dl, &vh, &vl);
    double se;
    double s = mc_atan_table_sum(i, vh, vl, &se);
    *hi = mc_fast_two_sum(s, se, lo);
}

/* The fast paths (docs/determinism.md, "binary64 fast paths"). */

/* (kh + kl) - (h + l) as hi + lo, for |h| <= |kh|. */
static inline void const_minus(double kh, double kl, double h, double l, double* rh, double* rl) {
    double e;
    *rh = mc_two_sum(kh, -h, &e);
    *rl = e + (kl - l);
}

/* (ah, al) = (bh, bl) - (h, l), a dd subtraction. */
static void dd_sub(double bh, double bl, double h, double l, double* ah, double* al) {
    mc_dd_add(bh, bl, -h, -l, ah, al);
}

/* atan a for 2^-27 <= a <= 2^60 by MCORE_ATAN_POLY (a > 1: pi/2 - atan(1/a),
 * 1/a = w + wl by one TwoProd); 1 and *out when mc_settled_k settles it. */
static inline int atan_fast(double a, double* out) {
    double h, l;
    if (a <= 1.0) {
        h = mc_interval_poly((const double*)MCORE_ATAN_POLY, 13, 0, a, 0, 0.0, &l);
    } else {
        double pe;
        double w = 1.0 / a;
        double p = mc_two_prod(w, a, &pe);
        h = mc_interval_poly((const double*)MCORE_ATAN_POLY, 13, 1, w, 1, ((1.0 - p) - pe) / a, &l);
    }
    return mc_settled_k(h, l, MC_SETTLE_POLY_K, out);
}

static double atan_impl(double x) {
    if (mc_isnan(x)) return x + x;
    double a = mc_fabs(x);
    if (a < 0x1p-27) return x;
    if (a > 0x1p60) return mc_copysign(MCORE_PIO2_HI, x);
    double h, l;
    if (a <= 1.0) {
        mcore_AtanCore(a, 0.0, &h, &l);
    } else {
        double qh = 1.0 / a;
        double pe;
        double p = mc_two_prod(qh, a, &pe);
        double ql = ((1.0 - p) - pe) / a;
        double th, tl;
        mcore_AtanCore(qh, ql, &th, &tl);
        dd_sub(MCORE_PIO2_HI, MCORE_PIO2_LO, th, tl, &h, &l);
    }
    return mc_copysign(h + l, x);
}

/* atan2 of positive finite dd arguments (num, den) in the first quadrant, as a dd. */
static void atan2_pos(double yh, double yl, double xh, double xl, double* h, double* l) {
    double uh, ul, th, tl;
    if (yh <= xh) {
        mc_dd_div(yh, yl, xh, xl, &uh, &ul);
        mcore_AtanCore(uh, ul, h, l);
    } else {
        mc_dd_div(xh, xl, yh, yl, &uh, &ul);
        mcore_AtanCore(uh, ul, &th, &tl);
        dd_sub(MCORE_PIO2_HI, MCORE_PIO2_LO, th, tl, h, l);
    }
}

static double atan2_impl(double y, double x, int fast) {
    if (mc_isnan(x) || mc_isnan(y)) return x + y;
    int sx = mc_signbit(x);
    double Y = mc_fabs(y), X = mc_fabs(x);
    if (Y == 0.0) return sx ? mc_copysign(MCORE_PI_HI, y) : y;
    if (mc_isinf(X) && mc_isinf(Y)) return mc_copysign(sx ? MCORE_3PIO4_HI : MCORE_PIO4_HI, y);
    if (mc_isinf(X)) return sx ? mc_copysign(MCORE_PI_HI, y) : mc_copysign(0.0, y);
    if (mc_isinf(Y) || X == 0.0) return mc_copysign(MCORE_PIO2_HI, y);
    int ey = mc_ilogb(Y), ex = mc_ilogb(X);
    if (ey - ex < -60) {
        /* |y/x| < 2^-59: atan2 = y/x (x > 0) or +-pi (x < 0) once rounded. */
        return sx ? mc_copysign(MCORE_PI_HI, y) : mc_copysign(Y / X, y);
    }
    if (ex - ey < -60) return mc_copysign(MCORE_PIO2_HI, y);
    int emax = ex > ey ? ex : ey;
    double ys = mc_ldexp(Y, -emax), xs = mc_ldexp(X, -emax); /* exact */
    double h, l, s;
    if (fast && mc_atan2_fast_dd(ys, xs, sx, &h, &l) && mc_settled_k(h, l, MC_SETTLE_POLY_K, &s))
        return mc_copysign(s, y);
    atan2_pos(ys, 0.0, xs, 0.0, &h, &l);
    if (sx) dd_sub(MCORE_PI_HI, MCORE_PI_LO, h, l, &h, &l);
    return mc_copysign(h + l, y);
}

/* sqrt(1 - a^2) as a dd, 0 <= a <= 1. */
static void sqrt_1ma2(double a, double* sh, double* sl) {
    double pe;
    double p = mc_two_prod(a, a, &pe);
    double de;
    double d = mc_two_sum(1.0, -p, &de);
    de -= pe;
    double dl;
    double dh = mc_fast_two_sum(d, de, &dl);
    mc_dd_sqrt(dh, dl, sh, sl);
}

/* asin(s + sl) * 2 as hi + lo, for a in (1/2, 1): s + sl = sqrt((1 - a)/2)
 * (1 - a exact), so that asin a = pi/2 - 2 asin(s + sl) and
 * acos a = 2 asin(s + sl). */
static inline double twice_asin_half(double a, double* lo) {
    double sl;
    double sh = mc_sqrt_dd((1.0 - a) * 0.5, &sl);
    double l;
    double h = mc_interval_poly((const double*)MCORE_ASIN_POLY, 11, 0, sh, 1, sl, &l);
    *lo = 2.0 * l;
    return 2.0 * h;
}

/* asin a for 2^-27 <= a < 1 (a <= 1/2 by MCORE_ASIN_POLY, above by
 * pi/2 - 2 asin(sqrt((1 - a)/2))); 1 and *out when settled. */
static inline int asin_fast(double a, double* out) {
    double h, l;
    if (a <= 0.5) {
        h = mc_interval_poly((const double*)MCORE_ASIN_POLY, 11, 0, a, 0, 0.0, &l);
    } else {
        h = twice_asin_half(a, &l);
        const_minus(MCORE_PIO2_HI, MCORE_PIO2_LO, h, l, &h, &l);
    }
    return mc_settled_k(h, l, MC_SETTLE_POLY_K, out);
}

/* acos x for 2^-60 <= |x| < 1: pi/2 - asin x for |x| <= 1/2, above
 * 2 asin(sqrt((1 - |x|)/2)), subtracted from pi for x < 0. */
static inline int acos_fast(double x, double a, double* out) {
    double h, l;
    if (a <= 0.5) {
        h = mc_interval_poly((const double*)MCORE_ASIN_POLY, 11, 0, a, 0, 0.0, &l);
        if (x < 0.0) h = -h, l = -l;
        const_minus(MCORE_PIO2_HI, MCORE_PIO2_LO, h, l, &h, &l);
    } else {
        h = twice_asin_half(a, &l);
        if (x < 0.0) const_minus(MCORE_PI_HI, MCORE_PI_LO, h, l, &h, &l);
    }
    return mc_settled_k(h, l, MC_SETTLE_POLY_K, out);
}

static double asin_impl(double x) {
    if (mc_isnan(x)) return x + x;
    double a = mc_fabs(x);
    if (a > 1.0) return (x - x) / (x - x);
    if (a < 0x1p-27) return x;
    double sh, sl, h, l;
    sqrt_1ma2(a, &sh, &sl);
    atan2_pos(a, 0.0, sh, sl, &h, &l);
    return mc_copysign(h + l, x);
}

static double acos_impl(double x) {
    if (mc_isnan(x)) return x + x;
    double a = mc_fabs(x);
    if (a > 1.0) return (x - x) / (x - x);
    double sh, sl, h, l;
    if (a < 0x1p-60) return MCORE_PIO2_HI;
    sqrt_1ma2(a, &sh, &sl);
    atan2_pos(sh, sl, a, 0.0, &h, &l);
    if (x < 0.0) dd_sub(MCORE_PI_HI, MCORE_PI_LO, h, l, &h, &l);
    return h + l;
}

static double cbrt_impl(double x) {
    if (x == 0.0 || !mc_isfinite(x)) return x + x;
    double a = mc_fabs(x);
    int adj = 0;
    if (a < 0x1p-1022) {
        a *= 0x1p54;
        adj = -18;
    }
    uint64_t u = mc_bits(a);
    int e = (int)(u >> 52) - 1023;
    int q = (e + 3 * 400) / 3 - 400; /* floor(e/3) */
    int rem = e - 3 * q;
    double m = mc_dbl((u & MC_MANT) | (UINT64_C(1023) << 52)) * (double)(1 << rem); /* [1, 8) */
    double y = 0.86 + 0.15 * m;
    for (int i = 0; i < 4; i++) y = (2.0 * y + m / (y * y)) * (1.0 / 3.0);
    double s2l;
    double s2 = mc_two_prod(y, y, &s2l);
    double ce;
    double c = mc_two_prod(s2, y, &ce);
    double r = ((m - c) - ce) - s2l * y;
    y = y + r / (3.0 * (y * y));
    double res = y * mc_pow2(q + adj);
    return x < 0.0 ? -res : res;
}

/* sqrt(a^2 + b^2) as rh + rl from TwoProd squares (dd sum) and a dd square
 * root, for the accurate path's scaled operands and for the fast path's
 * unscaled ones: the same operations in the same order. */
static inline void hypot_core(double a, double b, double* rh, double* rl) {
    double pe, qe;
    double p = mc_two_prod(a, a, &pe);
    double q = mc_two_prod(b, b, &qe);
    double se;
    double s = mc_two_sum(p, q, &se);
    se += pe + qe;
    double sl;
    double sh = mc_fast_two_sum(s, se, &sl);
    mc_dd_sqrt(sh, sl, rh, rl);
}

static double hypot_impl(double x, double y) {
    if (mc_isinf(x) || mc_isinf(y)) return mc_inf();
    if (mc_isnan(x) || mc_isnan(y)) return x + y;
    double a = mc_fabs(x), b = mc_fabs(y);
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    if (b == 0.0) return a;
    int ea = mc_ilogb(a), eb = mc_ilogb(b);
    if (ea - eb > 60) return a + b;
    double as = mc_ldexp(a, -ea), bs = mc_ldexp(b, -ea); /* exact: bs >= 2^-61 */
    double rh, rl;
    hypot_core(as, bs, &rh, &rl);
    return mcore_ScaleDD(rh, rl, ea);
}

/* v^2 = p + *e exactly, as mc_two_prod(v, v): Dekker's partial sums
 * ((vh^2 - p) + vh vl) + vl vh are exact, so (vh^2 - p) + 2 vh vl is the
 * same representable value, one operation fewer. */
static inline double hypot_sq(double v, double* e) {
    double vh, vl;
    mc_split(v, &vh, &vl);
    double p = v * v;
    *e = ((vh * vh - p) + 2.0 * (vh * vl)) + vl * vl;
    return p;
}

/* hypot's fast path: the accurate path without its scaling. For 2^-300 <=
 * b <= a < 2^300 with ea - eb <= 60 (biased exponents), every operation of
 * hypot_core on (a, b) is that on (a, b) 2^-ea times a power of two (2^ea
 * for the sqrt-level values, 2^(2 ea) for the square-level ones): the
 * scaled operations' nonzero values lie between 2^-290 and 2^4 (every
 * input of hypot_core a multiple of 2^-113, as >= 1, bs >= 2^-61), so
 * both the scaled and the unscaled values are normal binary64 numbers and
 * each rounding commutes with the exact scaling. So rh + rl here is the
 * accurate path's dd times 2^ea exactly, and RN(rh + rl) (one addition) is
 * mcore_ScaleDD's RN((rh + rl) 2^ea) for this normal result: the same bits,
 * without mc_ilogb, mc_ldexp and mcore_ScaleDD (docs/determinism.md,
 * "Binary64 fast paths"). */
static inline int hypot_fast(double x, double y, double* out) {
    /* No swap: TwoSum's (s, se) do not depend on the operands' order. */
    uint64_t ua = mc_bits(x) & MC_ABS, ub = mc_bits(y) & MC_ABS;
    if (ua - (UINT64_C(723) << 52) >= (UINT64_C(600) << 52) || ub - (UINT64_C(723) << 52) >= (UINT64_C(600) << 52) ||
        (ua >> 52) - (ub >> 52) + 60u > 120u)
        return 0;
    double a = mc_dbl(ua), b = mc_dbl(ub);
    /* hypot_core, its values unchanged: mc_two_prod(v, v) as hypot_sq, and
     * mc_dd_sqrt's last FastTwoSum dropped, RN(rh + rl) = RN(r + c) since
     * rh + rl = r + c exactly. */
    double pe, qe;
    double p = hypot_sq(a, &pe);
    double q = hypot_sq(b, &qe);
    double se;
    double s = mc_two_sum(p, q, &se);
    se += pe + qe;
    double sl;
    double sh = mc_fast_two_sum(s, se, &sl);
    double r = sqrt(sh);
    double re;
    double rr = hypot_sq(r, &re);
    double c = (((sh - rr) - re) + sl) / (2.0 * r);
    *out = r + c;
    return 1;
}

/* Public entry points: any NaN result becomes the canonical quiet NaN. */
double mcore_atan(double x) {
    double a = mc_fabs(x), r;
    if (a >= 0x1p-27 && a <= 0x1p60 && atan_fast(a, &r)) return mc_copysign(r, x);
    return mc_canon(atan_impl(x));
}
double mcore_atan2(double y, double x) { return mc_canon(atan2_impl(y, x, 1)); }
double mcore_asin(double x) {
    double a = mc_fabs(x), r;
    if (a >= 0x1p-27 && a < 1.0 && asin_fast(a, &r)) return mc_copysign(r, x);
    return mc_canon(asin_impl(x));
}
double mcore_acos(double x) {
    double a = mc_fabs(x), r;
    if (a >= 0x1p-60 && a < 1.0 && acos_fast(x, a, &r)) return r;
    return mc_canon(acos_impl(x));
}
double mcore_atan_accurate(double x) { return mc_canon(atan_impl(x)); }
double mcore_atan2_accurate(double y, double x) { return mc_canon(atan2_impl(y, x, 0)); }
double mcore_asin_accurate(double x) { return mc_canon(asin_impl(x)); }
double mcore_acos_accurate(double x) { return mc_canon(acos_impl(x)); }
double mcore_cbrt(double x) { return mc_canon(cbrt_impl(x)); }
double mcore_hypot(double x, double y) {
    double r;
    if (hypot_fast(x, y, &r)) return r;
    return mc_canon(hypot_impl(x, y));
}
double mcore_hypot_accurate(double x, double y) { return mc_canon(hypot_impl(x, y)); }
