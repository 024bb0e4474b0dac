/* lib/core/detmath_f32.c: the binary32 functions.
 *
 * All evaluate in binary64 and round once to binary32 at the end (a binary64
 * result with error below 1 binary64 ulp gives a binary32 error below
 * 0.5 + 2^-28 binary32 ulps).
 *
 * mcore_sinf, mcore_cosf, mcore_sincosf, mcore_atan2f and mcore_acosf are
 * written, for ordinary arguments, as straight-line binary64 operation
 * sequences with selects (no data-dependent branch), so that AVX2/NEON
 * kernels can reproduce them lane by lane with the same bits. Every line
 * below is one IEEE binary64 operation, round to nearest, in exactly this
 * order (no FMA; "sel(c, a, b)" is a select). Constants are the binary64
 * values in detmath_tables.c.
 *
 * SIN/COS SEQUENCE (mcore_sinf, mcore_cosf, mcore_sincosf), for |x| < 2^17:
 *   S1  xd = (double)x                                    exact
 *   S2  t  = xd * MCORE_2_PI
 *   S3  t  = t + 0x1.8p52                                 rounds to an integer
 *   S4  kd = t - 0x1.8p52                                 exact; q = (low 64 bits of t) & 3 = k mod 4
 *   S5  r  = xd - kd * MCORE_PIO2_F1                      product exact, difference exact
 *   S6  r  = r - kd * MCORE_PIO2_F2                       product, then difference
 *   S7  z  = r * r
 *   S8  ps = P0 + z*(P1 + z*(P2 + z*(P3 + z*(P4 + z*P5))))    P = MCORE_SINF_P, Horner, innermost first:
 *          h = z*P5; h = P4 + h; h = z*h; h = P3 + h; ... h = z*h; ps = P0 + h
 *   S9  sn = r * (1 + z*ps)                               i.e. u = z*ps; u = 1 + u; sn = r*u
 *   S10 pc = C0 + z*(C1 + ... + z*C6)                     C = MCORE_COSF_P, Horner as in S8
 *   S11 cs = 1 + z*pc                                     u = z*pc; cs = 1 + u
 *   S12 sin: v = sel(q & 1, cs, sn); v = sel(q & 2, -v, v)
 *       cos: v = sel(q & 1, sn, cs); v = sel((q + 1) & 2, -v, v)
 *   S13 result = (float)v                                 one rounding to binary32
 * |x| >= 2^17: (q, r) from the Payne-Hanek reduction (mcore_remPiO2f), then
 * S7-S13. Infinite or NaN x: NaN (x - x).
 * Every public function returns the canonical NaN 0x7FC00000 for any NaN
 * result (detmath_internal.h, mc_canonf); a kernel does the same with a select.
 *
 * ATAN2 SEQUENCE (mcore_atan2f), for finite y, x (zeros included):
 *   A1  Y = |(double)y|, X = |(double)x|                  exact
 *   A2  sw = Y > X
 *   A3  n = sel(sw, X, Y); d = sel(sw, Y, X)
 *   A4  d = sel(d == 0, 1.0, d)                           only when y = x = 0
 *   A5  u = n / d                                         u in [0, 1]
 *   A6  rd = u > 0x1.a827999fcef32p-2                     (tan(pi/8) rounded)
 *   A7  w = sel(rd, (u - 1) / (u + 1), u)                 a = u - 1; b = u + 1; w' = a / b
 *   A8  z = w * w
 *   A9  pq = Q0 + z*(Q1 + ... + z*Q7)                     Q = MCORE_ATANF_P, Horner as in S8
 *   A10 a = w + (w*z)*pq                                  m = w*z; m = m*pq; a = w + m
 *   A11 a = sel(rd, a + MCORE_PIO4_HI, a)
 *   A12 a = sel(sw, MCORE_PIO2_HI - a, a)
 *   A13 a = sel(signbit(x), MCORE_PI_HI - a, a)           signbit: -0 counts as negative
 *   A14 result = (float)copysign(a, (double)y)            sign bit of y, then one rounding
 * x and y both infinite, or a NaN: branch to the C99 values / NaN.
 *
 * ACOS SEQUENCE (mcore_acosf), for |x| <= 1:
 *   C1  xd = (double)x
 *   C2  a = 1 - xd; b = 1 + xd                            exact
 *   C3  p = a * b; s = sqrt(p)
 *   C4  A2-A13 of the ATAN2 SEQUENCE with Y = s, X = |xd| and signbit(x)
 *   C5  result = (float)a                                 (no copysign: a >= 0)
 * |x| > 1 or NaN: NaN.
 */
#include "lib/core/detmath.h"
#include "lib/core/detmath_internal.h"

static inline double sel(int c, double a, double b) { return c ? a : b; }

/* S7-S9 and S7, S10-S11; sinf and cosf alone evaluate only the one they
 * select, the same operations on the same values as mcore_sincosf, so the
 * same bits for half the work. */
static inline double sinf_poly(double r) {
    const double* P = MCORE_SINF_P;
    double z = r * r;
    double ps = P[0] + z * (P[1] + z * (P[2] + z * (P[3] + z * (P[4] + z * P[5]))));
    return r * (1.0 + z * ps);
}

static inline double cosf_poly(double r) {
    const double* C = MCORE_COSF_P;
    double z = r * r;
    double pc = C[0] + z * (C[1] + z * (C[2] + z * (C[3] + z * (C[4] + z * (C[5] + z * C[6])))));
    return 1.0 + z * pc;
}

static inline void sincosf_kernel(double r, double* sn, double* cs) {
    *sn = sinf_poly(r);
    *cs = cosf_poly(r);
}

void mcore_sincosf(float x, float* s, float* c) {
    double r;
    int q = mcore_remPiO2f(x, &r); /* S1-S6 below 2^17 */
    double sn, cs;
    sincosf_kernel(r, &sn, &cs);
    double vs = sel(q & 1, cs, sn);
    vs = sel(q & 2, -vs, vs);
    double vc = sel(q & 1, sn, cs);
    vc = sel((q + 1) & 2, -vc, vc);
    *s = mc_canonf((float)vs); /* NaN (infinite or NaN x) -> the canonical NaN */
    *c = mc_canonf((float)vc);
}

static float sinf_impl(float x) {
    double r;
    int q = mcore_remPiO2f(x, &r);
    double v = (q & 1) ? cosf_poly(r) : sinf_poly(r);
    return (float)((q & 2) ? -v : v);
}

static float cosf_impl(float x) {
    double r;
    int q = mcore_remPiO2f(x, &r);
    double v = (q & 1) ? sinf_poly(r) : cosf_poly(r);
    return (float)(((q + 1) & 2) ? -v : v);
}


/* A2-A13 */
static inline double atan2_kernel(double Y, double X, int negx) {
    const double* Q = MCORE_ATANF_P;
    int sw = Y > X;
    double n = sel(sw, X, Y);
    double d = sel(sw, Y, X);
    d = sel(d == 0.0, 1.0, d);
    double u = n / d;
    int rd = u > 0x1.a827999fcef32p-2;
    double w = sel(rd, (u - 1.0) / (u + 1.0), u);
    double z = w * w;
    double pq = Q[0] + z * (Q[1] + z * (Q[2] + z * (Q[3] + z * (Q[4] + z * (Q[5] + z * (Q[6] + z * Q[7]))))));
    double a = w + (w * z) * pq;
    a = sel(rd, a + MCORE_PIO4_HI, a);
    a = sel(sw, MCORE_PIO2_HI - a, a);
    a = sel(negx, MCORE_PI_HI - a, a);
    return a;
}

static float atan2f_impl(float y, float x) {
    double yd = (double)y, xd = (double)x;
    if (mc_isnan(yd) || mc_isnan(xd)) return (float)(yd + xd);
    if (mc_isinf(yd) && mc_isinf(xd)) return (float)mc_copysign(mc_signbit(xd) ? MCORE_3PIO4_HI : MCORE_PIO4_HI, yd);
    double a = atan2_kernel(mc_fabs(yd), mc_fabs(xd), mc_signbit(xd));
    return (float)mc_copysign(a, yd);
}

static float acosf_impl(float x) {
    double xd = (double)x;
    if (!(mc_fabs(xd) <= 1.0)) return (float)((xd - xd) / (xd - xd));
    double s = sqrt((1.0 - xd) * (1.0 + xd));
    return (float)atan2_kernel(s, mc_fabs(xd), mc_signbit(xd));
}

/* ---- binary32 functions defined as the binary64 function rounded once ----
 *
 * mcore_Xf(x) is, by definition, (float)mcore_X((double)x) for asinf, atanf,
 * tanf, expf, exp2f, expm1f, logf, log2f, log1pf, powf, sinhf, coshf, tanhf
 * and cbrtf. Computing that through the binary64 function costs its
 * double-double evaluation; most arguments need far less. So each function
 * first tries a short binary64 evaluation r, then asks whether every value
 * within r's error bound plus the binary64 function's rounds to the same
 * binary32 value: both the exact result and the binary64 function's lie in
 * that interval, and binary32 rounding is monotone, so when it does the
 * answer is the binary64 function's, bit for bit. Otherwise (a few
 * arguments in 10^4 or fewer, and every special argument) the binary64
 * function is called.
 *  - expf, exp2f, logf, log2f, powf, asinf, cbrtf: short evaluations of
 *    their own (mc_*f_short in detmath_internal.h, relative error below
 *    2^-45; powf 2^-41.9), settled on the bits of r (f32_settled_bits below,
 *    T = 2^12 binary64 ulps; 2^16 for powf).
 *  - the others: the binary64 fast paths' pieces (relative error below
 *    2^-44, about 2^-38 for tan), settled by f32_settled with FAST_TOL
 *    (2^-38; 2^-34 for tan) around r.
 * Tests compare every function with its definition
 * (lib/core/test/detmath_f32_test.cc; detmath_f32_dense_test.cc for the
 * seven above, on every 61st of the 2^32 bit patterns). */
#define FAST_TOL 0x1p-38
#define FAST_TOL_WIDE 0x1p-34

/* A zero r is never settled: its sign may not be the function's (x + x^2 p
 * is +0 for x = -0), so the binary64 function decides it. */
static inline int f32_settled(double r, double tol, float* out) {
    if (r == 0.0) return 0;
    double d = r * tol;
    float a = (float)(r - d), b = (float)(r + d);
    if (mc_fbits(a) != mc_fbits(b)) return 0;
    *out = a;
    return 1;
}

/* The same question asked of the bits (expf, exp2f, logf, log2f, powf,
 * asinf, cbrtf). A binary64 r in [2^-126, 2^128) (a normal binary32 result) keeps
 * its top 24 significant bits in the rounding to binary32 and drops 29: the
 * rounding boundaries of r's binade are exactly the doubles whose 29 low bits
 * are the half-way pattern H = 2^28. If the low bits d of |r| satisfy
 * |d - H| > T, then no boundary lies within T binary64 ulps of r, and every
 * real within relative distance T 2^-53 of r (which is below T ulp(r))
 * rounds as r does: the part of that interval across a power of two lies
 * within 2^-40 of it, far from the nearest boundary there (2^-25 relative
 * away). So with T 2^-53 above the short evaluation's error plus the
 * binary64 function's (below 0.55 ulp, 2^-52.9 relative; cbrt: 1 ulp,
 * 2^-52), (float)r is the
 * binary64 function's result rounded, bit for bit. Zero, subnormal binary32
 * results and overflow go to the binary64 function (f32_settled_pos: r
 * positive, or a negative r is refused with them). Tolerances: F32_T
 * = 2^12 ulps (2^-41 relative) for errors below 2^-45, F32_T_POW = 2^16
 * (2^-37) for powf. */
#define F32_T UINT64_C(0x1000)
#define F32_T_POW UINT64_C(0x10000)
static inline int f32_settled_pos(double r, uint64_t T, float* out) {
    uint64_t u = mc_bits(r);
    if (u - (UINT64_C(897) << 52) >= (UINT64_C(254) << 52)) return 0;
    if (((u + T - UINT64_C(0x10000000)) & UINT64_C(0x1FFFFFFF)) <= 2 * T) return 0;
    *out = (float)r;
    return 1;
}
/* Any sign (logf, log2f): rounding to nearest is symmetric. */
static inline int f32_settled_bits(double r, uint64_t T, float* out) {
    uint64_t u = mc_bits(r) & MC_ABS;
    if (u - (UINT64_C(897) << 52) >= (UINT64_C(254) << 52)) return 0;
    if (((u + T - UINT64_C(0x10000000)) & UINT64_C(0x1FFFFFFF)) <= 2 * T) return 0;
    *out = (float)r;
    return 1;
}

/* asin by mc_asinf_short up to 1/2 and pi/2 - 2 asin(s), s = sqrt((1 - a)/2)
 * above (1 - a and the halving exact): relative error below 2^-48.5
 * (docs/determinism.md), settled with F32_T on |asin x|, the sign put back
 * on the binary32 result (rounding is symmetric). 2^-27 <= |x| <= 1 by the
 * bits. */
static inline int asinf_fast(float x, float* out) {
    uint32_t ix = mc_fbits(x), ax = ix & UINT32_C(0x7FFFFFFF);
    if (ax - UINT32_C(0x32000000) > UINT32_C(0x3F800000) - UINT32_C(0x32000000)) return 0;
    double a = (double)mc_flt(ax);
    double r = a <= 0.5 ? mc_asinf_short(a) : MCORE_PIO2_HI - 2.0 * mc_asinf_short(sqrt((1.0 - a) * 0.5));
    float f;
    if (!f32_settled_pos(r, F32_T, &f)) return 0;
    *out = mc_flt(mc_fbits(f) | (ix & UINT32_C(0x80000000)));
    return 1;
}
static float asinf_impl(float x) { return (float)mcore_asin((double)x); }

static float atanf_impl(float x) {
    double a = mc_fabs((double)x);
    if (a >= 0x1p-27 && a <= 0x1p60) {
        double r = a <= 1.0 ? mc_atan_fast01(a) : MCORE_PIO2_HI - mc_atan_fast01(1.0 / a);
        float f;
        if (f32_settled(mc_copysign(r, (double)x), FAST_TOL, &f)) return f;
    }
    return (float)mcore_atan((double)x);
}

/* tan on the binary32 reduction of mcore_sincosf (|x| < 2^17), sin and cos
 * of r by the binary64 Taylor polynomials (MCORE_SIN_P, MCORE_COS_P). */
static float tanf_impl(float x) {
    double ax = mc_fabs((double)x);
    if (ax >= 0x1p-26 && ax < 0x1p17) {
        const double* S = MCORE_SIN_P;
        const double* C = MCORE_COS_P;
        double r;
        int q = mcore_remPiO2f(x, &r);
        double z = r * r;
        double sn = r + (r * z) * (S[0] + z * (S[1] + z * (S[2] + z * (S[3] + z * (S[4] + z * (S[5] + z * (S[6] + z * S[7])))))));
        double cs = (1.0 - 0.5 * z) + (z * z) * (C[0] + z * (C[1] + z * (C[2] + z * (C[3] + z * (C[4] + z * (C[5] + z * (C[6] + z * C[7])))))));
        double v = (q & 1) ? -cs / sn : sn / cs;
        float f;
        if (f32_settled(v, FAST_TOL_WIDE, &f)) return f;
    }
    return (float)mcore_tan((double)x);
}

/* |x| < 104 (0x42D00000) by the bits. */
static inline int expf_fast(float x, float* out) {
    if ((mc_fbits(x) & UINT32_C(0x7FFFFFFF)) >= UINT32_C(0x42D00000)) return 0;
    return f32_settled_pos(mc_expf_short((double)x), F32_T, out);
}
static float expf_impl(float x) { return (float)mcore_exp((double)x); }

/* 2^x = 2^(64x/64), 64x exact: mc_exp2_64_short alone (relative error
 * 2^-47.0); |x| < 150 (0x43160000). */
static inline int exp2f_fast(float x, float* out) {
    if ((mc_fbits(x) & UINT32_C(0x7FFFFFFF)) >= UINT32_C(0x43160000)) return 0;
    return f32_settled_pos(mc_exp2_64_short((double)x * 64.0), F32_T, out);
}
static float exp2f_impl(float x) { return (float)mcore_exp2((double)x); }

/* e^x - 1 for |x| < 2^-4 by its Taylor polynomial to x^9 (truncation below
 * 2^-57 relative), else exp - 1 (the cancellation costs at most a factor 16). */
static inline double expm1_fast(double x) {
    if (mc_fabs(x) < 0x1p-4)
        return x + (x * x) * (0.5 + x * (0x1.5555555555555p-3 + x * (0x1.5555555555555p-5 + x * (0x1.1111111111111p-7 + x * (0x1.6c16c16c16c17p-10 + x * (0x1.a01a01a01a01ap-13 + x * (0x1.a01a01a01a01ap-16 + x * 0x1.71de3a556c734p-19)))))));
    return mc_exp_fast(x) - 1.0;
}

static float expm1f_impl(float x) {
    double xd = (double)x;
    if (xd > -20.0 && xd < 90.0) {
        float f;
        if (f32_settled(expm1_fast(xd), FAST_TOL, &f)) return f;
    }
    return (float)mcore_expm1(xd);
}

/* Positive normal binary32 x (bits 0x00800000 .. 0x7F7FFFFF). */
static inline int f32_pos_normal(uint32_t ix) { return ix - UINT32_C(0x00800000) < UINT32_C(0x7F000000); }

static inline int logf_fast(float x, float* out) {
    uint32_t ix = mc_fbits(x);
    return f32_pos_normal(ix) && f32_settled_bits(mc_logf_short(ix), F32_T, out);
}
static float logf_impl(float x) { return (float)mcore_log((double)x); }

static inline int log2f_fast(float x, float* out) {
    uint32_t ix = mc_fbits(x);
    return f32_pos_normal(ix) && f32_settled_bits(mc_log2f_short(ix), F32_T, out);
}
static float log2f_impl(float x) { return (float)mcore_log2((double)x); }

static float log1pf_impl(float x) {
    double xd = (double)x;
    /* 1 + x is exact for 2^-29 <= |x| < 2^29 (and x > -1), rounded once above. */
    if (xd > -1.0 && mc_fabs(xd) >= 0x1p-29 && xd < 0x1p128) {
        float f;
        if (f32_settled(mc_log_fast(1.0 + xd), FAST_TOL, &f)) return f;
    }
    return (float)mcore_log1p(xd);
}

/* x^y = e^w, w = y log x: mc_logf_short's relative error 2^-49 becomes an
 * absolute 2^-49 |w| in w, plus w's rounding 2^-53 |w|, and e^w adds
 * mc_expf_short's 2^-47.0 + 2^-52 |w|: for |w| < 104, below 2^-41.9
 * relative; settled with F32_T_POW (2^-37). */
/* x^y = e^w, w = y log x: mc_logf_short's relative error 2^-49 becomes an
 * absolute 2^-49 |w| in w, plus w's rounding 2^-53 |w|, and e^w adds
 * mc_expf_short's 2^-47.0 + 2^-52 |w|: for |w| < 104, below 2^-41.9
 * relative; settled with F32_T_POW (2^-37). */
static inline int powf_fast(float x, float y, float* out) {
    uint32_t ix = mc_fbits(x);
    if (!f32_pos_normal(ix)) return 0;
    double w = (double)y * mc_logf_short(ix);
    if (!(w > -104.0 && w < 104.0)) return 0;
    return f32_settled_pos(mc_expf_short(w), F32_T_POW, out);
}
static float powf_impl(float x, float y) { return (float)mcore_pow((double)x, (double)y); }

static float sinhf_impl(float x) {
    double xd = (double)x;
    double a = mc_fabs(xd);
    if (a < 90.0) {
        double r;
        if (a < 1.0) {
            /* Taylor to x^17: truncation below 2^-55 relative. */
            double z = xd * xd;
            r = xd + (xd * z) * (0x1.5555555555555p-3 + z * (0x1.1111111111111p-7 + z * (0x1.a01a01a01a01ap-13 + z * (0x1.71de3a556c734p-19 + z * (0x1.ae64567f544e4p-26 + z * (0x1.6124613a86d09p-33 + z * (0x1.ae7f3e733b81fp-41 + z * 0x1.952c77030ad4ap-49)))))));
        } else {
            double E = mc_exp_fast(a);
            r = mc_copysign(0.5 * (E - 1.0 / E), xd);
        }
        float f;
        if (f32_settled(r, FAST_TOL, &f)) return f;
    }
    return (float)mcore_sinh(xd);
}

static float coshf_impl(float x) {
    double a = mc_fabs((double)x);
    if (a < 90.0) {
        double E = mc_exp_fast(a);
        float f;
        if (f32_settled(0.5 * (E + 1.0 / E), FAST_TOL, &f)) return f;
    }
    return (float)mcore_cosh((double)x);
}

static float tanhf_impl(float x) {
    double xd = (double)x;
    double a = mc_fabs(xd);
    if (a < 20.0) {
        double r;
        if (a < 0x1p-5) {
            /* Taylor to x^9: truncation below 2^-56 relative. */
            double z = xd * xd;
            r = xd - (xd * z) * (0x1.5555555555555p-2 - z * (0x1.1111111111111p-3 - z * (0x1.ba1ba1ba1ba1cp-5 - z * 0x1.664f4882c10fap-6)));
        } else {
            /* tanh a = E/(E + 2), E = e^(2a) - 1 >= 2^-4 (expm1_fast's exp branch). */
            double E = expm1_fast(2.0 * a);
            r = mc_copysign(E / (E + 2.0), xd);
        }
        float f;
        if (f32_settled(r, FAST_TOL, &f)) return f;
    }
    return (float)mcore_tanh(xd);
}
/* mc_cbrtf_short (relative error below 2^-49) and the binary64 cbrt's own
 * error (below 1 ulp, 2^-52 relative): settled with F32_T on |cbrt x|, the
 * sign put back on the binary32 result. Nonzero finite x by the bits. */
static inline int cbrtf_fast(float x, float* out) {
    uint32_t ix = mc_fbits(x), ax = ix & UINT32_C(0x7FFFFFFF);
    if (ax - 1u >= UINT32_C(0x7F7FFFFF)) return 0;
    float f;
    if (!f32_settled_pos(mc_cbrtf_short((double)mc_flt(ax)), F32_T, &f)) return 0;
    *out = mc_flt(mc_fbits(f) | (ix & UINT32_C(0x80000000)));
    return 1;
}
static float cbrtf_impl(float x) { return (float)mcore_cbrt((double)x); }

static float hypotf_impl(float x, float y) {
    double a = (double)x, b = (double)y;
    if (mc_isinf(a) || mc_isinf(b)) return (float)mc_inf();
    if (mc_isnan(a) || mc_isnan(b)) return (float)(a + b);
    /* a*a and b*b are exact in binary64 (48-bit products, no overflow or
     * underflow), one rounded sum, a correctly rounded sqrt, then binary32. */
    return (float)sqrt(a * a + b * b);
}

/* powif: binary64 right-to-left binary exponentiation on (double)x:
 * acc = 1, base = x; for each bit of |n| from the least significant: if set,
 * acc = acc*base; then, if higher bits remain, base = base*base. n < 0:
 * 1/acc. Then one rounding to binary32. Intermediates stay within the
 * binary64 range whenever the binary32 result is finite and nonzero. */
static float powif_impl(float x, int n) {
    unsigned un = n < 0 ? 0u - (unsigned)n : (unsigned)n;
    double base = (double)x, acc = 1.0;
    while (un) {
        if (un & 1u) acc = acc * base;
        un >>= 1;
        if (un) base = base * base;
    }
    if (n < 0) acc = 1.0 / acc;
    return (float)acc;
}

/* Public entry points: any NaN result becomes the canonical quiet NaN. */
float mcore_sinf(float x) { return mc_canonf(sinf_impl(x)); }
float mcore_cosf(float x) { return mc_canonf(cosf_impl(x)); }
float mcore_tanf(float x) { return mc_canonf(tanf_impl(x)); }
float mcore_atan2f(float y, float x) { return mc_canonf(atan2f_impl(y, x)); }
float mcore_acosf(float x) { return mc_canonf(acosf_impl(x)); }
/* The fallback out of line, reached by a tail call: the fast path needs no frame. */
static __attribute__((noinline)) float asinf_slow(float x) { return mc_canonf(asinf_impl(x)); }
float mcore_asinf(float x) {
    float f;
    if (asinf_fast(x, &f)) return f;
    return asinf_slow(x);
}
float mcore_atanf(float x) { return mc_canonf(atanf_impl(x)); }
static __attribute__((noinline)) float expf_slow(float x) { return mc_canonf(expf_impl(x)); }
float mcore_expf(float x) {
    float f;
    if (expf_fast(x, &f)) return f;
    return expf_slow(x);
}
static __attribute__((noinline)) float exp2f_slow(float x) { return mc_canonf(exp2f_impl(x)); }
float mcore_exp2f(float x) {
    float f;
    if (exp2f_fast(x, &f)) return f;
    return exp2f_slow(x);
}
float mcore_expm1f(float x) { return mc_canonf(expm1f_impl(x)); }
static __attribute__((noinline)) float logf_slow(float x) { return mc_canonf(logf_impl(x)); }
float mcore_logf(float x) {
    float f;
    if (logf_fast(x, &f)) return f;
    return logf_slow(x);
}
static __attribute__((noinline)) float log2f_slow(float x) { return mc_canonf(log2f_impl(x)); }
float mcore_log2f(float x) {
    float f;
    if (log2f_fast(x, &f)) return f;
    return log2f_slow(x);
}
float mcore_log1pf(float x) { return mc_canonf(log1pf_impl(x)); }
static __attribute__((noinline)) float powf_slow(float x, float y) { return mc_canonf(powf_impl(x, y)); }
float mcore_powf(float x, float y) {
    float f;
    if (powf_fast(x, y, &f)) return f;
    return powf_slow(x, y);
}
float mcore_sinhf(float x) { return mc_canonf(sinhf_impl(x)); }
float mcore_coshf(float x) { return mc_canonf(coshf_impl(x)); }
float mcore_tanhf(float x) { return mc_canonf(tanhf_impl(x)); }
static __attribute__((noinline)) float cbrtf_slow(float x) { return mc_canonf(cbrtf_impl(x)); }
float mcore_cbrtf(float x) {
    float f;
    if (cbrtf_fast(x, &f)) return f;
    return cbrtf_slow(x);
}
float mcore_hypotf(float x, float y) { return mc_canonf(hypotf_impl(x, y)); }
float mcore_powif(float x, int n) { return mc_canonf(powif_impl(x, n)); }
