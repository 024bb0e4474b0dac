/* lib/core: the deterministic math core. Elementary functions computed only
 * from IEEE 754 + - * / and sqrt (all correctly rounded) and integer/bit
 * operations, in a fixed order, never FMA: the same bits on every platform
 * (docs/determinism.md, rule 2). Round-to-nearest is assumed.
 *
 * Each line below gives the domain, the special values (C99 Annex F unless
 * said otherwise) and the error bound in ulps that the MPFR tests
 * (conformance/mpfr) enforce; "max seen" is the largest error those tests
 * observed. Any NaN result is the canonical quiet NaN (0x7FF8000000000000 /
 * 0x7FC00000) on every platform. The binary32 functions not marked otherwise evaluate the binary64
 * function on the widened argument and round once to binary32.
 *
 * The binary32 mcore_sinf, mcore_cosf, mcore_sincosf, mcore_atan2f and
 * mcore_acosf are straight-line binary64 operation sequences (selects, no
 * branches) for ordinary arguments, documented in detmath_f32.c, so SIMD
 * kernels can reproduce them lane by lane. */
#ifndef MAUL_CORE_DETMATH_H
#define MAUL_CORE_DETMATH_H

/* ---- trigonometric ---- */
/* sin: all x; sin(+-0) = +-0, sin(+-inf) = NaN; huge x reduced exactly (Payne-Hanek). Bound 1 ulp (max seen 0.536). */
double mcore_sin(double x);
/* cos: all x; cos(+-0) = 1, cos(+-inf) = NaN; huge x reduced exactly. Bound 1 ulp (max seen 0.538). */
double mcore_cos(double x);
/* sincos: *s = mcore_sin(x), *c = mcore_cos(x) bit for bit (one reduction). Bound 1 ulp (max seen 0.537). */
void mcore_sincos(double x, double* s, double* c);
/* tan: all x; tan(+-0) = +-0, tan(+-inf) = NaN; huge x reduced exactly. Bound 1 ulp (max seen 0.543). */
double mcore_tan(double x);
/* binary32 sin, straight-line for |x| < 2^17 (detmath_f32.c); sin(+-0) = +-0. Bound 1 ulp (max seen 0.5000). */
float mcore_sinf(float x);
/* binary32 cos, straight-line for |x| < 2^17; cos(+-0) = 1. Bound 1 ulp (max seen 0.5000). */
float mcore_cosf(float x);
/* binary32 sincos: *s, *c equal mcore_sinf(x), mcore_cosf(x) bit for bit. Bound 1 ulp (max seen 0.5000). */
void mcore_sincosf(float x, float* s, float* c);
/* binary32 tan: all x; tan(+-0) = +-0, tan(+-inf) = NaN. Bound 1 ulp (max seen 0.5000). */
float mcore_tanf(float x);

/* ---- inverse trigonometric ---- */
/* asin: [-1, 1] (NaN outside); asin(+-0) = +-0. Bound 1 ulp (max seen 0.5000). */
double mcore_asin(double x);
/* acos: [-1, 1] (NaN outside); acos(1) = +0, acos(-1) = RN(pi). Bound 1 ulp (max seen 0.5000). */
double mcore_acos(double x);
/* atan: all x; atan(+-0) = +-0, atan(+-inf) = +-RN(pi/2). Bound 1 ulp (max seen 0.5000). */
double mcore_atan(double x);
/* atan2: all (y, x) with C99 F.9.1.4 signed zeros/infinities (atan2(+-0, -0) = +-pi, ...). Bound 1 ulp (max seen 0.5000). */
double mcore_atan2(double y, double x);
/* binary32 asin: [-1, 1], NaN outside; asin(+-0) = +-0. Bound 1 ulp (max seen 0.5000). */
float mcore_asinf(float x);
/* binary32 acos, straight-line for |x| <= 1: [-1, 1], NaN outside; acos(1) = +0. Bound 1 ulp (max seen 0.5000). */
float mcore_acosf(float x);
/* binary32 atan: all x; atan(+-0) = +-0, atan(+-inf) = +-pi/2. Bound 1 ulp (max seen 0.5000). */
float mcore_atanf(float x);
/* binary32 atan2, straight-line for finite (y, x); C99 special values. Bound 1 ulp (max seen 0.5000). */
float mcore_atan2f(float y, float x);

/* ---- exponential and logarithmic ---- */
/* exp: all x; exp(+-0) = 1 exactly, exp(-inf) = +0, overflow -> +inf, correctly rounded subnormals. Bound 1 ulp (max seen 0.5000). */
double mcore_exp(double x);
/* exp2: all x; exp2(+-0) = 1, exp2(n) = 2^n exactly for integers n, overflow -> +inf. Bound 1 ulp (max seen 0.5000). */
double mcore_exp2(double x);
/* expm1: all x; expm1(+-0) = +-0, expm1(-inf) = -1, overflow -> +inf. Bound 1 ulp (max seen 0.502). */
double mcore_expm1(double x);
/* log: x >= 0; log(+-0) = -inf, log(1) = +0, log(x < 0) = NaN, log(+inf) = +inf. Bound 1 ulp (max seen 0.5000). */
double mcore_log(double x);
/* log2: x >= 0; log2(2^n) = n exactly, log2(+-0) = -inf, x < 0 -> NaN. Bound 1 ulp (max seen 0.5000). */
double mcore_log2(double x);
/* log1p: x >= -1; log1p(+-0) = +-0, log1p(-1) = -inf, x < -1 -> NaN. Bound 1 ulp (max seen 0.5000). */
double mcore_log1p(double x);
/* pow: all (x, y), C99 F.9.4.4 special cases (pow(x, +-0) = 1, pow(1, y) = 1, pow(-1, +-inf) = 1, ...). Bound 1 ulp (max seen 0.5000). */
double mcore_pow(double x, double y);
/* powi: x^n for any int n; double-double binary exponentiation (order in detmath_exp.c), one final rounding;
 * powi(x, 0) = 1 for every x (NaN included), powi(+-0, n < 0) = +-inf (n odd) or +inf. Bound 1 ulp (max seen 0.5000). */
double mcore_powi(double x, int n);
/* binary32 exp, exp2, expm1, log, log2, log1p, pow: same domains and special values as binary64. Bound 1 ulp (max seen 0.5000). */
float mcore_expf(float x);
float mcore_exp2f(float x);
float mcore_expm1f(float x);
float mcore_logf(float x);
float mcore_log2f(float x);
float mcore_log1pf(float x);
float mcore_powf(float x, float y);
/* binary32 powi: binary64 binary exponentiation (order in detmath_f32.c), rounded once to binary32. Bound 1 ulp (max seen 0.5000). */
float mcore_powif(float x, int n);

/* ---- hyperbolic ---- */
/* sinh: all x; sinh(+-0) = +-0, sinh(+-inf) = +-inf, overflow -> +-inf. Bound 1 ulp (max seen 0.5000). */
double mcore_sinh(double x);
/* cosh: all x; cosh(+-0) = 1, cosh(+-inf) = +inf, overflow -> +inf. Bound 1 ulp (max seen 0.5000). */
double mcore_cosh(double x);
/* tanh: all x; tanh(+-0) = +-0, tanh(+-inf) = +-1. Bound 1 ulp (max seen 0.5000). */
double mcore_tanh(double x);
/* binary32 sinh, cosh, tanh: as binary64. Bound 1 ulp (max seen 0.5000). */
float mcore_sinhf(float x);
float mcore_coshf(float x);
float mcore_tanhf(float x);

/* ---- algebraic and exact ---- */
/* cbrt: all x; cbrt(+-0) = +-0, cbrt(+-inf) = +-inf, exact for exact cubes (cbrt(-8) = -2). Bound 1 ulp (max seen 0.5000). */
double mcore_cbrt(double x);
/* hypot: all (x, y); hypot(+-inf, NaN) = +inf, hypot(x, +-0) = |x|, no spurious overflow/underflow. Bound 1 ulp (max seen 0.5000). */
double mcore_hypot(double x, double y);
/* binary32 cbrt and hypot. Bound 1 ulp (max seen 0.5000). */
float mcore_cbrtf(float x);
float mcore_hypotf(float x, float y);
/* fmod: exact x - n*y, n = trunc(x/y), sign of x; fmod(x, +-0) = NaN, fmod(+-inf, y) = NaN, fmod(x, +-inf) = x. Bound 0 ulp (exact). */
double mcore_fmod(double x, double y);
/* binary32 fmod: exact. Bound 0 ulp. */
float mcore_fmodf(float x, float y);

/* ---- range reductions (used by the trigonometric functions) ---- */
/* x = k*pi/2 + (*hi + *lo), |*hi + *lo| <= pi/4 (+ a few ulps), returns k mod 4; any finite x
 * (Cody-Waite below 2^20, Payne-Hanek above or near multiples of pi/2); relative error about 2^-70.
 * Infinite/NaN x: *hi = NaN, returns 0. */
int mcore_remPiO2(double x, double* hi, double* lo);
/* Binary32 argument: x = k*pi/2 + *r in binary64, returns k mod 4; the straight-line
 * sequence of mcore_sinf below 2^17, Payne-Hanek above. */
int mcore_remPiO2f(float x, double* r);

#endif
