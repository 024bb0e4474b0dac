/* Maul Tween: the curves of Penner's families, back, elastic and steps, in
 * their in form (easing.h), each over progress already clamped as its kind
 * says. Formulas and orders: docs/internals/easing.md. */
#include <math.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/easing/curves_internal.h"

#define MTWN_PI_OVER_4 0.78539816339744830962

double mtwn_PowerCurve(double k, double q)
{
    if (k == floor(k) && k >= 1.0 && k <= 8.0) {
        int n = (int)k;
        double r = q;
        for (int i = 1; i < n; ++i) r = r * q;
        return r;
    }
    return mcore_pow(q, k);
}

/* 1 - cos(q pi / 2) = 2 sin^2(q pi / 4), without the cancellation; 1 at 1. */
double mtwn_SineCurve(double q)
{
    if (q >= 1.0) return 1.0;
    double s = mcore_sin(q * MTWN_PI_OVER_4);
    return 2.0 * s * s;
}

/* (2^(10 (q - 1)) - 2^-10) / (1 - 2^-10): exactly 0 at 0 and 1 at 1. */
double mtwn_ExpoCurve(double q)
{
    return (mcore_exp2(10.0 * (q - 1.0)) - 0x1p-10) / (1.0 - 0x1p-10);
}

/* 1 - sqrt(1 - q^2) = q^2 / (1 + sqrt((1 - q)(1 + q))), without the cancellation. */
double mtwn_CircCurve(double q)
{
    return (q * q) / (1.0 + sqrt((1.0 - q) * (1.0 + q)));
}

/* Penner's bounce out: four parabolas of 7.5625 = 121/16 at 1/2.75, 2/2.75 and 2.5/2.75. */
double mtwn_BounceOut(double u)
{
    const double n1 = 7.5625;
    const double d1 = 2.75;
    double v;
    if (u >= 1.0) return 1.0;
    if (u < 1.0 / d1) return n1 * u * u;
    if (u < 2.0 / d1) {
        v = u - 1.5 / d1;
        return n1 * v * v + 0.75;
    }
    if (u < 2.5 / d1) {
        v = u - 2.25 / d1;
        return n1 * v * v + 0.9375;
    }
    v = u - 2.625 / d1;
    return n1 * v * v + 0.984375;
}

double mtwn_BounceCurve(double q) { return 1.0 - mtwn_BounceOut(1.0 - q); }

/* p^2 ((s + 1) p - s) / ((s + 1) - s). */
double mtwn_BackCurve(const double* params, double q)
{
    double s = params[0];
    return ((q * q) * ((s + 1.0) * q - s)) / params[1];
}

/* g(u) = a 2^(-10 u) sin((u - c) w), GSAP's out curve less 1. */
double mtwn_ElasticG(double a, double c, double w, double u)
{
    return (a * mcore_exp2(-10.0 * u)) * mcore_sin((u - c) * w);
}

/* The in form: (g(1) - g(1 - q)) / (g(1) - g(0)), exactly 0 at 0 and 1 at 1. */
double mtwn_ElasticCurve(const double* params, double q)
{
    double g = mtwn_ElasticG(params[0], params[2], params[3], 1.0 - q);
    return (params[5] - g) / params[6];
}

/* CSS Easing Level 1's steps, with the before flag (the order of its text). */
double mtwn_StepsCurve(uint32_t count, uint32_t position, double x, bool before)
{
    double steps = (double)count;
    double scaled = x * steps;
    double current = floor(scaled);
    if (position == (uint32_t)mtwn_stepJumpStart || position == (uint32_t)mtwn_stepJumpBoth) current = current + 1.0;
    if (before && scaled == floor(scaled)) current = current - 1.0;
    if (x >= 0.0 && current < 0.0) current = 0.0;
    double jumps = steps;
    if (position == (uint32_t)mtwn_stepJumpNone) jumps = steps - 1.0;
    else if (position == (uint32_t)mtwn_stepJumpBoth) jumps = steps + 1.0;
    if (x <= 1.0 && current > jumps) current = jumps;
    return current / jumps;
}
