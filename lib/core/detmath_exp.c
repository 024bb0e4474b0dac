/* lib/core/detmath_exp.c: binary64 exp, exp2, expm1, log, log2, log1p, pow,
 * powi, sinh, cosh, tanh.
 *
 * exp (Tang's table method): x = k*ln2/128 + r, k = RN(x*128/ln2),
 * rh = x - k*LN2O128_1 exactly (35-bit constant, Sterbenz), rl = xl -
 * k*LN2O128_2, |r| <= ln2/256; e^r = 1 + rh + q with q = rl + s^2*P(s),
 * s = RN(rh + rl), P the Taylor polynomial of (e^s - 1 - s)/s^2 to s^5
 * (MCORE_EXPM1_P). e^x = 2^(k>>7) * T[k&127] * (1 + rh + q) with T = 2^(j/128)
 * a double-double (MCORE_EXP2_TAB), evaluated in double-double and rounded
 * once by mcore_ScaleDD (correct also for subnormal results).
 *
 * log: x = 2^e * m, m in [1,2); j = top 7 fraction bits; m*INV[j] = 1 + t
 * (TwoProd, |t| <= 2^-7; j = 0 uses INV = 1, j = 127 uses m/2 and INV = 1 so
 * that x near 1 is exact); log x = e*ln2 + LOG_TAB[j] + log1p(t), log1p by
 * Taylor to t^11 (MCORE_LOG1P_P) with t and t^2/2 in double-double.
 *
 * pow(x, y) = exp(y * log|x|) with log in double-double, the product by
 * TwoProd, and the exp core above: relative error about 2^-60 before the
 * final rounding.
 *
 * exp, exp2, expm1, log, log2, log1p, pow, cosh, tanh and sinh (|x| >= 1) first try the
 * short evaluations of detmath_internal.h (mc_exp_fast_dd, mc_log_fast_dd)
 * and keep their result only when mc_settled_k (mc_settled64 for pow)
 * proves it equals the rounding
 * of the paths above, which otherwise run unchanged (mcore_*_accurate);
 * docs/determinism.md, "Binary64 fast paths". */
#include "lib/core/detmath.h"
#include "lib/core/detmath_internal.h"

/* e^(k*ln2/128 + rh + rl), k integer given. */
static void exp_core_k(int k, double rh, double rl, int* m, double* hi, double* lo) {
    const double* P = MCORE_EXPM1_P;
    double s = rh + rl;
    double q = rl + (s * s) * (P[0] + s * (P[1] + s * (P[2] + s * (P[3] + s * (P[4] + s * P[5])))));
    int j = (int)((unsigned)k & 127u);
    *m = (k - j) / 128;
    double th = MCORE_EXP2_TAB[j][0], tl = MCORE_EXP2_TAB[j][1];
    /* T*(1 + rh + q) = th + th*rh + (a_lo + th*q + tl + tl*s) */
    double a_lo;
    double a = mc_two_prod(th, rh, &a_lo);
    double e1;
    double h = mc_two_sum(th, a, &e1);
    double low = e1 + (a_lo + (th * q + (tl + tl * s)));
    *hi = mc_fast_two_sum(h, low, lo);
}

void mcore_ExpCore(double xh, double xl, int* m, double* hi, double* lo) {
    double kd = mc_round_int(xh * MCORE_128_LN2);
    double rh = xh - kd * MCORE_LN2O128_1;
    double rl = xl - kd * MCORE_LN2O128_2;
    exp_core_k((int)kd, rh, rl, m, hi, lo);
}

static double exp_accurate_impl(double x) {
    if (mc_isnan(x)) return x + x;
    if (x > 710.0) return mc_inf();
    if (x < -746.0) return 0.0;
    int m;
    double h, l;
    mcore_ExpCore(x, 0.0, &m, &h, &l);
    return mcore_ScaleDD(h, l, m);
}

static double exp2_accurate_impl(double x) {
    if (mc_isnan(x)) return x + x;
    if (x >= 1024.0) return mc_inf();
    if (x < -1080.0) return 0.0;
    double kd = mc_round_int(x * 128.0);
    double r = x - kd * 0x1p-7; /* exact */
    double rl;
    double rh = mc_two_prod(r, MCORE_LN2_HI, &rl);
    rl += r * MCORE_LN2_LO;
    int m;
    double h, l;
    exp_core_k((int)kd, rh, rl, &m, &h, &l);
    return mcore_ScaleDD(h, l, m);
}

static double expm1_accurate_impl(double x) {
    if (mc_isnan(x)) return x + x;
    double ax = mc_fabs(x);
    if (ax < 0x1p-54) return x;
    if (x > 710.0) return mc_inf();
    if (x < -40.0) return -1.0;
    double kd = mc_round_int(x * MCORE_128_LN2);
    if (kd == 0.0) {
        /* |x| < ln2/256: e^x - 1 = x + x^2*P(x), no cancellation. */
        const double* P = MCORE_EXPM1_P;
        double q = (x * x) * (P[0] + x * (P[1] + x * (P[2] + x * (P[3] + x * (P[4] + x * P[5])))));
        return x + q;
    }
    int m;
    double h, l;
    double rh = x - kd * MCORE_LN2O128_1;
    double rl = -(kd * MCORE_LN2O128_2);
    exp_core_k((int)kd, rh, rl, &m, &h, &l);
    if (m > 60) return mcore_ScaleDD(h, l, m);
    double s = mc_pow2(m);
    double eh = h * s, el = l * s; /* exact, |m| <= 60 */
    double d;
    double c = mc_two_sum(eh, -1.0, &d);
    d += el;
    return c + d;
}

/* log1p(th + tl) = result + *lo (not normalized), |t| <= 2^-7: t - t^2/2 in
 * double-double (TwoProd), t^3*Q(t) in binary64 (Q: MCORE_LOG1P_P, Taylor to t^11). */
static double log1p_small(double th, double tl, double* lo) {
    const double* Q = MCORE_LOG1P_P;
    double sq_l;
    double sq = mc_two_prod(th, th, &sq_l);
    double hs = -0.5 * sq;
    double hs_l = -0.5 * sq_l - th * tl;
    double cubic = (th * sq) *
                   (Q[0] + th * (Q[1] + th * (Q[2] + th * (Q[3] + th * (Q[4] + th * (Q[5] + th * (Q[6] + th * (Q[7] + th * Q[8]))))))));
    double ae;
    double a = mc_fast_two_sum(th, hs, &ae);
    *lo = ae + (tl + (hs_l + cubic));
    return a;
}

void mcore_LogCore(double x, double* hi, double* lo) {
    uint64_t u = mc_bits(x);
    int sub = 0; /* a subnormal x: scaled into the normals first */
    if ((int)(u >> 52) - 1023 == -1023) {
        u = mc_bits(x * 0x1p54);
        sub = 54;
    }
    int e;
    double m;
    int j = mc_log_split(u, &e, &m);
    e -= sub;
    double pe;
    double p = mc_two_prod(m, MCORE_LOG_INV[j], &pe);
    double tl;
    double th = mc_fast_two_sum(p - 1.0, pe, &tl); /* p - 1 exact */
    double L1;
    double a = log1p_small(th, tl, &L1);
    double ed = (double)e;
    double be;
    double b = mc_two_sum(ed * MCORE_LN2_1, MCORE_LOG_TAB[j][0], &be);
    double ce;
    double c = mc_two_sum(b, a, &ce);
    double low = (be + ce) + ((ed * MCORE_LN2_2 + MCORE_LOG_TAB[j][1]) + L1);
    *hi = mc_fast_two_sum(c, low, lo);
}

static double log_accurate_impl(double x) {
    if (mc_isnan(x)) return x + x;
    if (x == 0.0) return -mc_inf();
    if (x < 0.0) return (x - x) / (x - x);
    if (mc_isinf(x)) return x;
    double h, l;
    mcore_LogCore(x, &h, &l);
    return h + l;
}

static double log2_accurate_impl(double x) {
    if (mc_isnan(x)) return x + x;
    if (x == 0.0) return -mc_inf();
    if (x < 0.0) return (x - x) / (x - x);
    if (mc_isinf(x)) return x;
    double h, l, rh, rl;
    mcore_LogCore(x, &h, &l);
    mc_dd_mul(h, l, MCORE_INVLN2_HI, MCORE_INVLN2_LO, &rh, &rl);
    return rh + rl;
}

static double log1p_accurate_impl(double x) {
    if (mc_isnan(x)) return x + x;
    if (x == -1.0) return -mc_inf();
    if (x < -1.0) return (x - x) / (x - x);
    if (mc_isinf(x)) return x;
    if (mc_fabs(x) < 0x1p-54) return x;
    if (mc_fabs(x) < 0x1p-7) {
        double l;
        double h = log1p_small(x, 0.0, &l);
        return h + l;
    }
    double v;
    double u = mc_two_sum(1.0, x, &v); /* 1 + x = u + v exactly */
    double h, l;
    mcore_LogCore(u, &h, &l);
    double rl;
    double rh = mc_fast_two_sum(h, l + v / u, &rl);
    return rh + rl;
}

/* The fast paths (detmath_internal.h: mc_exp_fast_dd, mc_log_fast_dd,
 * mc_settled64): the same bits as the accurate paths above, which run only
 * when the short evaluation cannot settle the rounding. */
static double exp_impl(double x) {
    if (mc_fabs(x) <= 708.0) { /* result normal: RN then the exact scaling, as mcore_ScaleDD */
        double rh, rl;
        int k = mc_exp_reduce(x, &rh, &rl);
        int m;
        double h, l, s;
        mc_exp_fast_dd(k, rh, rl, &m, &h, &l);
        if (mc_settled_kf(h, l, MC_SETTLE_EXP_K, &s)) return s * mc_pow2(m); /* exact, normal */
    }
    return mcore_exp_accurate(x);
}

static double exp2_impl(double x) {
    if (mc_fabs(x) <= 1020.0) {
        double kd = mc_round_int(x * 1024.0);
        double r = x - kd * 0x1p-10; /* exact */
        /* r ln2 = rh + rl: 26-bit halves of r times a 26-bit head of ln2 (exact) plus the rest. */
        double r1, r2;
        mc_split(r, &r1, &r2);
        double rh = r1 * MCORE_LN2_26;
        double rl = r2 * MCORE_LN2_26 + r * MCORE_LN2_26T;
        int m;
        double h, l, s;
        mc_exp_fast_dd((int)kd, rh, rl, &m, &h, &l);
        if (mc_settled_kf(h, l, MC_SETTLE_EXP_K, &s)) return s * mc_pow2(m); /* exact, normal */
    }
    return mcore_exp2_accurate(x);
}

/* 1 for a positive normal finite x. */
static int pos_normal(double x) {
    return mc_bits(x) - (UINT64_C(1) << 52) < (UINT64_C(0x7FE) << 52);
}

static double log_impl(double x) {
    if (pos_normal(x)) {
        double h, l, s;
        mc_log_fast_dd(x, &h, &l);
        if (mc_settled_kf(h, l, MC_SETTLE_LOG_K, &s)) return s;
    }
    return mcore_log_accurate(x);
}

static double log2_impl(double x) {
    if (pos_normal(x)) {
        double h, l, s, c1, c2;
        mc_log_fast_dd(x, &h, &l);
        /* (h + l)/ln2: a 26-bit head of h times a 26-bit head of 1/ln2 (exact) plus the rest. */
        c1 = mc_head26(h);
        c2 = h - c1;
        double hi = c1 * MCORE_INVLN2_26;
        double lo = (c2 * MCORE_INVLN2_26 + h * MCORE_INVLN2_26T) + l * MCORE_INVLN2_HI;
        if (mc_settled_kf(hi, lo, MC_SETTLE_LOG_K, &s)) return s;
    }
    return mcore_log2_accurate(x);
}

static double log1p_impl(double x) {
    if (mc_fabs(x) >= 0x1p-7 && x > -1.0 && x < 0x1p1000) {
        double v;
        double u = mc_two_sum(1.0, x, &v); /* 1 + x = u + v exactly, u normal */
        double h, l, s;
        mc_log_fast_dd(u, &h, &l);
        if (mc_settled_kf(h, l + v / u, MC_SETTLE_LOG_K, &s)) return s;
    }
    return mcore_log1p_accurate(x);
}

/* 1 if y is an odd integer, 2 if an even integer, 0 if not an integer (or not finite). */
static int int_kind(double y) {
    uint64_t u = mc_bits(y) & MC_ABS;
    if (u >= MC_INF_BITS) return 0;
    if (u == 0) return 2;
    int e = (int)(u >> 52) - 1023;
    if (e < 0) return 0;
    if (e > 52) return 2;
    uint64_t mant = (u & MC_MANT) | (UINT64_C(1) << 52);
    int fracbits = 52 - e;
    if (fracbits > 0 && (mant & ((UINT64_C(1) << fracbits) - 1))) return 0;
    return ((mant >> fracbits) & 1) ? 1 : 2;
}

/* pow's fast path for a positive normal ax and a finite y (|y| < 2^63 is
 * implied by |y log ax| <= 708 and |log ax| >= 2^-53): log ax = ch + cl
 * (mc_log_fast_dd_abs, absolute error < 2^-70, normalized), z = y (ch + cl)
 * = zh + zl (TwoProd), e^z by mc_exp_fast_dd with mc_exp_reduce's
 * reduction. |zh| <= 708 keeps both paths' results normal. Returns 1 and
 * *out = |x|^y (as pow_impl's accurate path would round it) if settled. */
MC_FAST_INLINE int pow_fast(double ax, double y, double* out) {
    double c, cl;
    mc_log_fast_dd_abs(ax, &c, &cl);
    double ch = mc_fast_two_sum(c, cl, &cl); /* normalized: zl stays below ulp(zh) */
    if (!(mc_fabs(y * ch) <= 708.0)) return 0;
    double zl;
    double zh = mc_two_prod(y, ch, &zl);
    zl += y * cl;
    double kd = mc_round_int(zh * MCORE_1024_LN2);
    int m;
    double h, l, s;
    mc_exp_fast_dd((int)kd, zh - kd * MCORE_LN2O1024_1, zl - kd * MCORE_LN2O1024_2, &m, &h, &l);
    if (!mc_settled64(h, l, MC_SETTLE_EXP + (mc_fabs(y) + mc_fabs(zh)) * MC_SETTLE_POW, &s)) return 0;
    *out = s * mc_pow2(m); /* exact, normal */
    return 1;
}

static double pow_impl(double x, double y, int fast) {
    if (y == 0.0) return 1.0;
    if (x == 1.0) return 1.0;
    if (mc_isnan(x) || mc_isnan(y)) return x + y;
    int yk = int_kind(y);
    double ax = mc_fabs(x);
    if (mc_isinf(y)) {
        if (ax == 1.0) return 1.0; /* pow(-1, +-inf) */
        if ((ax < 1.0) == (y < 0.0)) return mc_inf();
        return 0.0;
    }
    if (x == 0.0) {
        if (y < 0.0) return yk == 1 ? mc_copysign(mc_inf(), x) : mc_inf();
        return yk == 1 ? x : 0.0;
    }
    if (mc_isinf(x)) {
        if (x < 0.0) {
            if (y < 0.0) return yk == 1 ? -0.0 : 0.0;
            return yk == 1 ? -mc_inf() : mc_inf();
        }
        return y < 0.0 ? 0.0 : mc_inf();
    }
    int neg = 0;
    if (x < 0.0) {
        if (yk == 0) return (x - x) / (x - x); /* negative finite x, non-integer y */
        neg = (yk == 1);
    }
    if (ax == 1.0) return neg ? -1.0 : 1.0; /* x = -1, integer y */
    double rf;
    if (fast && pos_normal(ax) && pow_fast(ax, y, &rf)) return neg ? -rf : rf;
    double lh, ll;
    mcore_LogCore(ax, &lh, &ll); /* |lh| >= 2^-54, so below |y| <= 746 * 2^54 */
    double ph = y * lh;
    double r;
    if (ph > 710.0) {
        r = mc_inf();
    } else if (ph < -746.0) {
        r = 0.0;
    } else {
        double pl;
        ph = mc_two_prod(y, lh, &pl);
        pl += y * ll;
        int m;
        double h, l;
        mcore_ExpCore(ph, pl, &m, &h, &l);
        r = mcore_ScaleDD(h, l, m);
    }
    return neg ? -r : r;
}

/* powi: |x| = mx * 2^ex, mx in [1,2). Right-to-left binary exponentiation in
 * double-double with the exponent kept apart (no overflow or underflow in
 * between): acc = 1, base = mx; for each bit of |n| from the least
 * significant: if the bit is set, acc = acc*base (mc_dd_mul); then, if
 * higher bits remain, base = base*base. Each product is renormalized into
 * [1,2) by an exact halving. n < 0: 1/acc (mc_dd_div). One final rounding
 * (mcore_ScaleDD); the sign is x's if n is odd. */
static double powi_impl(double x, int n) {
    if (n == 0) return 1.0;
    if (mc_isnan(x)) return x + x;
    unsigned un = n < 0 ? 0u - (unsigned)n : (unsigned)n;
    int odd = (int)(un & 1u);
    if (x == 0.0) {
        if (n < 0) return odd ? mc_copysign(mc_inf(), x) : mc_inf();
        return odd ? x : 0.0;
    }
    if (mc_isinf(x)) {
        if (n < 0) return odd ? mc_copysign(0.0, x) : 0.0;
        return odd ? x : mc_inf();
    }
    int64_t ex = mc_ilogb(x);
    double bh = mc_ldexp(mc_fabs(x), (int)-ex), bl = 0.0;
    int64_t be = ex;
    double ah = 1.0, al = 0.0;
    int64_t ae = 0;
    for (;;) {
        if (un & 1u) {
            mc_dd_mul(ah, al, bh, bl, &ah, &al);
            ae += be;
            if (ah >= 2.0) {
                ah *= 0.5;
                al *= 0.5;
                ae += 1;
            }
        }
        un >>= 1;
        if (!un) break;
        mc_dd_mul(bh, bl, bh, bl, &bh, &bl);
        be *= 2;
        if (bh >= 2.0) {
            bh *= 0.5;
            bl *= 0.5;
            be += 1;
        }
    }
    if (n < 0) {
        mc_dd_div(1.0, 0.0, ah, al, &ah, &al);
        ae = -ae;
    }
    double r;
    if (ae > 2000) r = mc_inf();
    else if (ae < -2000) r = 0.0;
    else r = mcore_ScaleDD(ah, al, (int)ae);
    return (odd && x < 0.0) ? -r : r;
}

/* cosh or sinh (sign -1) of ax in [2^-8, 708] by the short exp: E = e^ax =
 * 2^m (hi + lo); above m = 60, E/2 alone (as the accurate path); else
 * 1/E = e^-ax by the same short evaluation with k, rh, rl negated (its
 * polynomial's even and odd parts shared with E's), and (E +- 1/E)/2 as
 * hi + lo. Relative error: 2^-62.1 for cosh (mc_exp_pm_fast_dd; E alone
 * 2^-62.8), times coth(ax) <= 1.3131 for sinh with ax >= 1. k_settle is
 * mc_settled_kf's constant. Returns 1 and *out if settled. */
MC_FAST_INLINE int cosh_sinh_fast(double ax, double sign, double k_settle, double* out) {
    double rh, rl;
    int k = mc_exp_reduce(ax, &rh, &rl);
    int m;
    double h, l, s;
    if (k >= 61 * 1024) { /* m > 60 */
        mc_exp_fast_dd(k, rh, rl, &m, &h, &l);
        if (!mc_settled_kf(h, l, k_settle, &s)) return 0;
        *out = s * mc_pow2(m - 1); /* exact, normal */
        return 1;
    }
    double lo;
    double c = mc_exp_pm_fast_dd(k, rh, rl, sign, &lo);
    if (!mc_settled_kf(c, lo, k_settle, &s)) return 0;
    *out = 0.5 * s; /* exact */
    return 1;
}

static double sinh_impl(double x, int fast) {
    if (!mc_isfinite(x)) return x + x;
    double ax = mc_fabs(x);
    if (ax < 0x1p-26) return x;
    if (ax < 0x1p-8) {
        const double* P = MCORE_SINH_P;
        double z = x * x;
        return x + (x * z) * (P[0] + z * (P[1] + z * (P[2] + z * P[3])));
    }
    if (ax > 711.0) return mc_copysign(mc_inf(), x);
    double r;
    if (fast && ax >= 1.0 && ax <= 708.0 && cosh_sinh_fast(ax, -1.0, MC_SETTLE_SINH_K, &r)) return mc_copysign(r, x);
    int m;
    double h, l;
    mcore_ExpCore(ax, 0.0, &m, &h, &l);
    if (m > 60) {
        r = mcore_ScaleDD(h, l, m - 1);
    } else {
        double s = mc_pow2(m);
        double eh = h * s, el = l * s;
        double ih, il, dh, dl;
        mc_dd_div(1.0, 0.0, eh, el, &ih, &il);
        mc_dd_add(eh, el, -ih, -il, &dh, &dl);
        r = 0.5 * (dh + dl);
    }
    return mc_copysign(r, x);
}

static double cosh_impl(double x, int fast) {
    if (mc_isnan(x)) return x + x;
    double ax = mc_fabs(x);
    if (ax < 0x1p-27) return 1.0;
    if (ax < 0x1p-8) {
        const double* P = MCORE_COSH_P;
        double z = x * x;
        return 1.0 + z * (P[0] + z * (P[1] + z * (P[2] + z * P[3])));
    }
    if (ax > 711.0) return mc_inf();
    double r;
    if (fast && ax <= 708.0 && cosh_sinh_fast(ax, 1.0, MC_SETTLE_COSH_K, &r)) return r;
    int m;
    double h, l;
    mcore_ExpCore(ax, 0.0, &m, &h, &l);
    if (m > 60) return mcore_ScaleDD(h, l, m - 1);
    double s = mc_pow2(m);
    double eh = h * s, el = l * s;
    double ih, il, dh, dl;
    mc_dd_div(1.0, 0.0, eh, el, &ih, &il);
    mc_dd_add(eh, el, ih, il, &dh, &dl);
    return 0.5 * (dh + dl);
}

static double tanh_accurate_impl(double x) {
    if (mc_isnan(x)) return x + x;
    double ax = mc_fabs(x);
    if (ax >= 22.0) return mc_copysign(1.0, x);
    if (ax < 0x1p-27) return x;
    if (ax < 0x1p-8) {
        const double* P = MCORE_TANH_P;
        double z = x * x;
        return x + (x * z) * (P[0] + z * (P[1] + z * (P[2] + z * (P[3] + z * (P[4] + z * P[5])))));
    }
    /* tanh = (E - 1)/(E + 1), E = e^(2|x|) as a double-double. */
    int m;
    double h, l;
    mcore_ExpCore(2.0 * ax, 0.0, &m, &h, &l);
    double s = mc_pow2(m);
    double eh = h * s, el = l * s;
    double ne, de, nh, nl, dh, dl, qh, ql;
    double n0 = mc_two_sum(eh, -1.0, &ne);
    nh = mc_fast_two_sum(n0, ne + el, &nl);
    double d0 = mc_two_sum(eh, 1.0, &de);
    dh = mc_fast_two_sum(d0, de + el, &dl);
    mc_dd_div(nh, nl, dh, dl, &qh, &ql);
    return mc_copysign(qh + ql, x);
}

/* explog64: expm1 and tanh fast paths. Both subtract 1 from E = e^y, so the
 * short exp's and the accurate exp core's relative errors (2^-62.8 and 2^-64,
 * plus 2^-64.5 from the rounding of E's tail into the difference) grow by
 * E/|E - 1| <= 1 + 1/|E - 1|: the tolerance given to mc_settled64 is
 * MC_SETTLE_EXPM1 (1 + 1/|c|) for expm1 = c + d, MC_SETTLE_EXPM1 (2 + 1/|n|) for
 * tanh = (E - 1)/(E + 1) = n/d (the denominator adds E/(E + 1) <= 1).
 * docs/determinism.md, "Binary64 fast paths". */
static double expm1_impl(double x) {
    if (x >= -40.0 && x <= 40.0) { /* as the accurate path's kd != 0, m <= 60 branch */
        if (mc_round_int(x * MCORE_128_LN2) != 0.0) { /* the accurate path's kd */
            double rh, rl;
            int k = mc_exp_reduce(x, &rh, &rl);
            int m;
            double h, l, s, d;
            mc_exp_fast_dd(k, rh, rl, &m, &h, &l);
            double sc = mc_pow2(m);
            double c = mc_two_sum(h * sc, -1.0, &d); /* h * sc exact, normal */
            d += l * sc;
            if (mc_settled64(c, d, MC_SETTLE_EXPM1 * (1.0 + 1.0 / mc_fabs(c)), &s)) return s;
        }
    }
    return mcore_expm1_accurate(x);
}

static double tanh_impl(double x) {
    double ax = mc_fabs(x);
    if (ax >= 0x1p-8 && ax < 22.0) { /* as the accurate path's E = e^(2|x|) branch */
        double rh, rl;
        int k = mc_exp_reduce(2.0 * ax, &rh, &rl);
        int m;
        double h, l, s;
        mc_exp_fast_dd(k, rh, rl, &m, &h, &l);
        double sc = mc_pow2(m);
        double eh = h * sc, el = l * sc; /* exact, m <= 64 */
        double ne, de, nl, dl, qh, ql;
        double n0 = mc_two_sum(eh, -1.0, &ne);
        double nh = mc_fast_two_sum(n0, ne + el, &nl);
        double d0 = mc_two_sum(eh, 1.0, &de);
        double dh = mc_fast_two_sum(d0, de + el, &dl);
        mc_dd_div(nh, nl, dh, dl, &qh, &ql);
        if (mc_settled64(qh, ql, MC_SETTLE_EXPM1 * (2.0 + 1.0 / nh), &s)) return mc_copysign(s, x);
    }
    return mcore_tanh_accurate(x);
}

/* Public entry points: any NaN result becomes the canonical quiet NaN. */
double mcore_exp_accurate(double x) { return mc_canon(exp_accurate_impl(x)); }
double mcore_exp2_accurate(double x) { return mc_canon(exp2_accurate_impl(x)); }
double mcore_log_accurate(double x) { return mc_canon(log_accurate_impl(x)); }
double mcore_log2_accurate(double x) { return mc_canon(log2_accurate_impl(x)); }
double mcore_log1p_accurate(double x) { return mc_canon(log1p_accurate_impl(x)); }
double mcore_exp(double x) { return exp_impl(x); } /* the fast path never returns NaN; the accurate one is canonical */
double mcore_exp2(double x) { return exp2_impl(x); } /* the fast path never returns NaN; the accurate one is canonical */
double mcore_expm1(double x) { return expm1_impl(x); } /* the fast path never returns NaN; the accurate one is canonical */
double mcore_expm1_accurate(double x) { return mc_canon(expm1_accurate_impl(x)); }
double mcore_log(double x) { return log_impl(x); } /* the fast path never returns NaN; the accurate one is canonical */
double mcore_log2(double x) { return log2_impl(x); } /* the fast path never returns NaN; the accurate one is canonical */
double mcore_log1p(double x) { return log1p_impl(x); } /* the fast path never returns NaN; the accurate one is canonical */
/* pow: a positive normal x other than 1 and a finite nonzero y go straight
 * to the fast path (pow_impl's special cases do not apply to them), the
 * rest through pow_impl. */
double mcore_pow(double x, double y) {
    if (pos_normal(x) && x != 1.0 && y != 0.0 && mc_isfinite(y)) {
        double r;
        if (pow_fast(x, y, &r)) return r;
        return mcore_pow_accurate(x, y);
    }
    return mc_canon(pow_impl(x, y, 1));
}
double mcore_pow_accurate(double x, double y) { return mc_canon(pow_impl(x, y, 0)); }
double mcore_powi(double x, int n) { return mc_canon(powi_impl(x, n)); }
/* sinh, cosh: the fast path straight from the entry point (the accurate
 * path's special cases lie outside its range), no call in between. */
double mcore_sinh(double x) {
    double ax = mc_fabs(x), r;
    if (ax >= 1.0 && ax <= 708.0 && cosh_sinh_fast(ax, -1.0, MC_SETTLE_SINH_K, &r)) return mc_copysign(r, x);
    return mcore_sinh_accurate(x);
}
double mcore_sinh_accurate(double x) { return mc_canon(sinh_impl(x, 0)); }
double mcore_cosh(double x) {
    double ax = mc_fabs(x), r;
    if (ax >= 0x1p-8 && ax <= 708.0 && cosh_sinh_fast(ax, 1.0, MC_SETTLE_COSH_K, &r)) return r;
    return mcore_cosh_accurate(x);
}
double mcore_cosh_accurate(double x) { return mc_canon(cosh_impl(x, 0)); }
double mcore_tanh(double x) { return tanh_impl(x); } /* the fast path never returns NaN; the accurate one is canonical */
double mcore_tanh_accurate(double x) { return mc_canon(tanh_accurate_impl(x)); }
