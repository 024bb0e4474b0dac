// Tests of easing.h: every maker, both sides of every range, the modes, CSS
// Easing's own examples. Expected values come from the formulas and the
// standards (computed here in long double or by hand), never from the library.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "maul/tween/easing.h"

extern "C" double mtwn_SampleEasingMonotone(const mtwnEasing* easing, double progress, bool before, bool* metNaN);

namespace {

const mtwnEaseMode kModes[] = {mtwn_easeIn, mtwn_easeOut, mtwn_easeInOut, mtwn_easeOutIn};

double S(const mtwnEasing& e, double p, bool before = false)
{
    double v = -12345.0;
    EXPECT_EQ(mtwnSampleEasing(&e, p, before, &v), mtwn_success) << "p=" << p;
    return v;
}

// The modes applied to a reference in-curve, as easing.h defines them.
template <class F>
long double Moded(F f, mtwnEaseMode m, long double p)
{
    switch (m) {
    case mtwn_easeOut: return 1.0L - f(1.0L - p);
    case mtwn_easeInOut: return p < 0.5L ? f(2 * p) / 2 : 1.0L - f(2 - 2 * p) / 2;
    case mtwn_easeOutIn: return p < 0.5L ? (1.0L - f(1 - 2 * p)) / 2 : (1.0L + f(2 * p - 1)) / 2;
    default: return f(p);
    }
}

template <class F>
void ExpectCurve(const mtwnEasing& base, F f, double tol)
{
    for (mtwnEaseMode m : kModes) {
        mtwnEasing e = base;
        ASSERT_EQ(mtwnSetEaseMode(&e, m), mtwn_success);
        EXPECT_EQ(S(e, 0.0), 0.0) << "mode " << m;
        EXPECT_EQ(S(e, 1.0), 1.0) << "mode " << m;
        for (int i = 0; i <= 1000; ++i) {
            double p = i / 1000.0;
            EXPECT_NEAR(S(e, p), (double)Moded(f, m, p), tol) << "mode " << m << " p " << p;
        }
    }
}

const long double kPi = 3.141592653589793238462643383279502884L;

TEST(Easing, Linear)
{
    mtwnEasing e = mtwnMakeLinearEasing();
    EXPECT_EQ(e.kind, (uint32_t)mtwn_easingLinear);
    for (mtwnEaseMode m : kModes) {
        ASSERT_EQ(mtwnSetEaseMode(&e, m), mtwn_success);
        EXPECT_EQ(S(e, 0.3), 0.3);
        EXPECT_EQ(S(e, -2.5), -2.5);  // CSS linear is not clamped
        EXPECT_EQ(S(e, 7.0), 7.0);
    }
}

TEST(Easing, PowerValuesAndModes)
{
    mtwnEasing e;
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2.0, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.5), 0.25);
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeOut, 2.0, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.5), 0.75);
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeInOut, 2.0, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.25), 0.125);
    EXPECT_EQ(S(e, 0.75), 0.875);
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeOutIn, 2.0, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.25), 0.375);
    EXPECT_EQ(S(e, 0.75), 0.625);
    for (int k = 1; k <= 8; ++k) {
        ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, k, &e), mtwn_success);
        // Exact by multiplication: 0.5^k and 0.75^k are exact in binary64.
        EXPECT_EQ(S(e, 0.5), std::ldexp(1.0, -k));
        // Reflected modes round 1 - p first: a few ulps.
        ExpectCurve(e, [k](long double p) { return std::pow(p, (long double)k); }, 1e-15);
    }
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2.5, &e), mtwn_success);
    ExpectCurve(e, [](long double p) { return std::pow(p, 2.5L); }, 1e-15);
    // Clamped to 0 to 1 (Penner's family).
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 3.0, &e), mtwn_success);
    EXPECT_EQ(S(e, -0.5), 0.0);
    EXPECT_EQ(S(e, 1.5), 1.0);
}

TEST(Easing, PowerRange)
{
    mtwnEasing e;
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2.0, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePowerEasing((mtwnEaseMode)4, 2.0, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeOutIn, 2.0, &e), mtwn_success);
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 0.0, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeIn, DBL_TRUE_MIN, &e), mtwn_success);
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeIn, -1.0, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeIn, MTWN_MAX_POWER_EXPONENT, &e), mtwn_success);
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeIn, std::nextafter(MTWN_MAX_POWER_EXPONENT, 1e9), &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeIn, NAN, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePowerEasing(mtwn_easeIn, INFINITY, &e), mtwn_errorInvalid);
}

TEST(Easing, PennerCurves)
{
    mtwnEasing e;
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeIn, &e), mtwn_success);
    ExpectCurve(e, [](long double p) { return 1.0L - std::cos(p * kPi / 2); }, 4e-16);
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingExpo, mtwn_easeIn, &e), mtwn_success);
    ExpectCurve(e, [](long double p) { return (std::exp2(10 * (p - 1)) - std::exp2(-10.0L)) / (1 - std::exp2(-10.0L)); },
                4e-16);
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingCirc, mtwn_easeIn, &e), mtwn_success);
    ExpectCurve(e, [](long double p) { return 1.0L - std::sqrt(1.0L - p * p); }, 4e-16);
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingBounce, mtwn_easeIn, &e), mtwn_success);
    auto bounceOut = [](long double u) -> long double {
        const long double n1 = 7.5625L, d1 = 2.75L;
        if (u < 1 / d1) return n1 * u * u;
        if (u < 2 / d1) { u -= 1.5L / d1; return n1 * u * u + 0.75L; }
        if (u < 2.5L / d1) { u -= 2.25L / d1; return n1 * u * u + 0.9375L; }
        u -= 2.625L / d1;
        return n1 * u * u + 0.984375L;
    };
    ExpectCurve(e, [&](long double p) { return 1.0L - bounceOut(1.0L - p); }, 8e-16);
}

TEST(Easing, ExpoNearPennersAndGsaps)
{
    mtwnEasing e;
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingExpo, mtwn_easeIn, &e), mtwn_success);
    double worstPenner = 0, worstGsap = 0;
    for (int i = 1; i <= 4096; ++i) {
        double p = i / 4096.0;
        double penner = std::exp2(10.0 * (p - 1.0));
        double gsap = std::exp2(10.0 * (p - 1.0)) * p + std::pow(p, 6.0) * (1.0 - p);
        worstPenner = std::fmax(worstPenner, std::fabs(S(e, p) - penner));
        worstGsap = std::fmax(worstGsap, std::fabs(S(e, p) - gsap));
    }
    EXPECT_LE(worstPenner, std::ldexp(1.0, -10));
    EXPECT_LE(worstGsap, std::ldexp(1.0, -7));
}

TEST(Easing, PennerRefusals)
{
    mtwnEasing e;
    EXPECT_EQ(mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeIn, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePennerEasing(mtwn_easingSine, (mtwnEaseMode)4, &e), mtwn_errorInvalid);
    for (mtwnEasingKind k : {mtwn_easingLinear, mtwn_easingPower, mtwn_easingBack, mtwn_easingElastic, mtwn_easingHost,
                             mtwn_easingCubicBezier, mtwn_easingSteps, mtwn_easingLinearPoints, mtwn_easingSpring,
                             (mtwnEasingKind)13})
        EXPECT_EQ(mtwnMakePennerEasing(k, mtwn_easeIn, &e), mtwn_errorInvalid) << k;
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingCirc, mtwn_easeIn, &e), mtwn_success);
    EXPECT_EQ(S(e, -3.0), 0.0);
    EXPECT_EQ(S(e, 3.0), 1.0);
}

TEST(Easing, Back)
{
    mtwnEasing e;
    const double s = 1.70158;
    ASSERT_EQ(mtwnMakeBackEasing(mtwn_easeIn, s, &e), mtwn_success);
    ExpectCurve(e, [s](long double p) { return p * p * ((s + 1) * p - s); }, 8e-16);
    // Penner's in-out is this easing with 1.525 s.
    ASSERT_EQ(mtwnMakeBackEasing(mtwn_easeInOut, s * 1.525, &e), mtwn_success);
    long double s2 = (long double)(s * 1.525);
    long double p = 0.3L, q = 2 * p;
    EXPECT_NEAR(S(e, 0.3), (double)(q * q * ((s2 + 1) * q - s2) / 2), 1e-15);
    EXPECT_EQ(mtwnMakeBackEasing(mtwn_easeIn, s, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBackEasing((mtwnEaseMode)9, s, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBackEasing(mtwn_easeIn, 0.0, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeBackEasing(mtwn_easeIn, -DBL_TRUE_MIN, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBackEasing(mtwn_easeIn, MTWN_MAX_BACK_OVERSHOOT, &e), mtwn_success);
    EXPECT_EQ(S(e, 1.0), 1.0);
    EXPECT_EQ(mtwnMakeBackEasing(mtwn_easeIn, std::nextafter(MTWN_MAX_BACK_OVERSHOOT, 1e9), &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBackEasing(mtwn_easeIn, NAN, &e), mtwn_errorInvalid);
}

long double GsapElasticOut(long double a, long double P, long double p)
{
    if (a < 1) { P = P / a; a = 1; }
    long double c = P * std::asin(1 / a) / (2 * kPi);
    return 1 + a * std::exp2(-10 * p) * std::sin((p - c) * 2 * kPi / P);
}

TEST(Easing, ElasticNormalizedGsap)
{
    for (double a : {1.0, 2.0, 0.5, 37.0}) {
        for (double P : {0.3, 0.45, 0.4, 1.0}) {
            mtwnEasing e;
            ASSERT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, a, P, &e), mtwn_success);
            long double g0 = GsapElasticOut(a, P, 0), g1 = GsapElasticOut(a, P, 1);
            auto in = [&](long double x) { return 1 - (GsapElasticOut(a, P, 1 - x) - g0) / (g1 - g0); };
            ExpectCurve(e, in, 1e-14 * (a > 1 ? a : 1));
            // GSAP's own (not normalized, set to 1 at the end) is within the stated bound.
            double qa = a > 1 ? a : 1;
            double bound = qa * (1 + qa) * std::ldexp(1.0, -10) / (1 - qa * std::ldexp(1.0, -10));
            for (int i = 0; i < 1000; ++i) {
                double p = i / 1000.0;
                EXPECT_LE(std::fabs(S(e, p) - (double)GsapElasticOut(a, P, p)), bound);
            }
        }
    }
    // An amplitude below 1 is 1 with the period divided by it.
    mtwnEasing x, y;
    ASSERT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 0.5, 0.3, &x), mtwn_success);
    ASSERT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1.0, 0.6, &y), mtwn_success);
    for (int i = 0; i <= 100; ++i) EXPECT_EQ(S(x, i / 100.0), S(y, i / 100.0));
}

TEST(Easing, ElasticRange)
{
    mtwnEasing e;
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1, 0.3, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeElasticEasing((mtwnEaseMode)4, 1, 0.3, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 0.0, 0.3, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1e-3, 0.3, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, MTWN_MAX_ELASTIC_AMPLITUDE, 0.3, &e), mtwn_success);
    EXPECT_EQ(S(e, 1.0), 1.0);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, std::nextafter(MTWN_MAX_ELASTIC_AMPLITUDE, 1e9), 0.3, &e),
              mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, NAN, 0.3, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1.0, MTWN_MIN_ELASTIC_PERIOD, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1.0, std::nextafter(MTWN_MIN_ELASTIC_PERIOD, 0), &e),
              mtwn_errorInvalid);
    // Stretched by an amplitude below 1: P / a is what counts.
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 0.5, MTWN_MIN_ELASTIC_PERIOD / 2, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 0.5, std::nextafter(MTWN_MIN_ELASTIC_PERIOD / 2, 0), &e),
              mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1.0, 0.0, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1.0, INFINITY, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1e-300, 1e300, &e), mtwn_errorInvalid);  // P / a overflows
    EXPECT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1.0, 1e300, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.0), 0.0);
    EXPECT_EQ(S(e, 1.0), 1.0);
}

double NaNHost(void*, double) { return NAN; }
double InfHost(void*, double p) { return p > 0.5 ? INFINITY : p; }
double RecordHost(void* c, double p)
{
    static_cast<std::vector<double>*>(c)->push_back(p);
    return p * p;
}

TEST(Easing, Host)
{
    mtwnEasing e;
    std::vector<double> seen;
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, RecordHost, &seen, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.5), 0.25);
    EXPECT_EQ(S(e, -1.0), 0.0);
    EXPECT_EQ(S(e, 2.0), 1.0);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[1], 0.0);  // clamped before the call
    EXPECT_EQ(seen[2], 1.0);
    ASSERT_EQ(mtwnSetEaseMode(&e, mtwn_easeOut), mtwn_success);
    EXPECT_EQ(S(e, 0.5), 0.75);
    // NaN: the progress it was called with, linear in every mode.
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, NaNHost, nullptr, &e), mtwn_success);
    for (mtwnEaseMode m : kModes) {
        ASSERT_EQ(mtwnSetEaseMode(&e, m), mtwn_success);
        for (double p : {0.0, 0.125, 0.5, 0.75, 1.0}) EXPECT_EQ(S(e, p), p) << m;
        EXPECT_EQ(S(e, 3.0), 1.0);
    }
    // Infinity kept.
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, InfHost, nullptr, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.75), INFINITY);
    ASSERT_EQ(mtwnSetEaseMode(&e, mtwn_easeOut), mtwn_success);
    EXPECT_EQ(S(e, 0.25), -INFINITY);
    EXPECT_EQ(mtwnMakeHostEasing(mtwn_easeIn, nullptr, nullptr, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeHostEasing(mtwn_easeIn, NaNHost, nullptr, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeHostEasing((mtwnEaseMode)4, NaNHost, nullptr, &e), mtwn_errorInvalid);
    bool m = true;
    ASSERT_EQ(mtwnIsEasingMonotonic(&e, &m), mtwn_success);
    EXPECT_FALSE(m);
}

// The reference cubic bezier: t solved by bisection in long double.
long double RefBezier(long double x1, long double y1, long double x2, long double y2, long double x)
{
    auto B = [](long double a, long double b, long double t) {
        long double u = 1 - t;
        return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t;
    };
    long double lo = 0, hi = 1;
    for (int i = 0; i < 80; ++i) {
        long double m = (lo + hi) / 2;
        if (B(x1, x2, m) < x) lo = m;
        else hi = m;
    }
    return B(y1, y2, (lo + hi) / 2);
}

TEST(Easing, CubicBezierInside)
{
    const double curves[][4] = {{0.25, 0.1, 0.25, 1.0}, {0.42, 0, 1, 1}, {0, 0, 0.58, 1}, {0.42, 0, 0.58, 1},
                                {0.68, -0.55, 0.265, 1.55}, {0, 1, 1, 0}, {1, 0, 0, 1}};
    // (1, 0, 0, 1) has a vertical tangent at x = 1/2 (x'(1/2) = 0): there y moves by
    // the cube root of x's error, in the library's solve and in the reference alike.
    for (const auto& c : curves) {
        mtwnEasing e;
        ASSERT_EQ(mtwnMakeCubicBezierEasing(c[0], c[1], c[2], c[3], &e), mtwn_success);
        EXPECT_EQ(S(e, 0.0), 0.0);
        EXPECT_EQ(S(e, 1.0), 1.0);
        for (int i = 1; i < 1000; ++i) {
            double x = i / 1000.0;
            // |x(t) - x| <= 1e-14 moves y by at most the slope ratio times it.
            double tol = c[0] == 1.0 ? 1e-4 : 2e-12;
            EXPECT_NEAR(S(e, x), (double)RefBezier(c[0], c[1], c[2], c[3], x), tol) << x;
        }
    }
}

TEST(Easing, CubicBezierOutsideUsesEndTangents)
{
    mtwnEasing e;
    // ease-in (0.42, 0, 1, 1): before 0 through P1 (slope 0); after 1, x2 = 1 so through P1: slope 1/0.58.
    ASSERT_EQ(mtwnMakeCssEasing(mtwn_cssEaseIn, &e), mtwn_success);
    EXPECT_EQ(S(e, -1.0), 0.0);
    EXPECT_NEAR(S(e, 2.0), 1.0 + 1.0 / 0.58, 1e-15);
    // ease-out (0, 0, 0.58, 1): x1 = 0 so before 0 through P2 (slope 0 / 0.58 = 0)... y2 = 1: slope 1/0.58.
    ASSERT_EQ(mtwnMakeCssEasing(mtwn_cssEaseOut, &e), mtwn_success);
    EXPECT_NEAR(S(e, -1.0), -1.0 / 0.58, 1e-15);
    EXPECT_EQ(S(e, 2.0), 1.0);  // through P2 (0.58, 1): slope 0
    // ease (0.25, 0.1, 0.25, 1): slope 0.4 before, 0 after.
    ASSERT_EQ(mtwnMakeCssEasing(mtwn_cssEase, &e), mtwn_success);
    EXPECT_NEAR(S(e, -0.5), -0.2, 1e-16);
    EXPECT_EQ(S(e, 1.5), 1.0);
    // x1 = x2 = 0: flat at 0 before; x1 = x2 = 1: flat at 1 after.
    ASSERT_EQ(mtwnMakeCubicBezierEasing(0, 0.7, 0, 0.2, &e), mtwn_success);
    EXPECT_EQ(S(e, -4.0), 0.0);
    ASSERT_EQ(mtwnMakeCubicBezierEasing(1, 0.7, 1, 0.2, &e), mtwn_success);
    EXPECT_EQ(S(e, 4.0), 1.0);
    // Past the doubles: the largest finite double of the sign.
    ASSERT_EQ(mtwnMakeCubicBezierEasing(0.5, 1e300, 0.5, 0, &e), mtwn_success);
    EXPECT_EQ(S(e, -1e300), -DBL_MAX);
    ASSERT_EQ(mtwnMakeCubicBezierEasing(0.5, 1, 0.5, -1e300, &e), mtwn_success);
    EXPECT_EQ(S(e, 1e300), DBL_MAX);
}

TEST(Easing, CubicBezierRangeAndOwnSampler)
{
    mtwnEasing e;
    EXPECT_EQ(mtwnMakeCubicBezierEasing(0, 0, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCubicBezierEasing(-DBL_TRUE_MIN, 0, 1, 1, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCubicBezierEasing(0, 0, std::nextafter(1.0, 2.0), 1, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCubicBezierEasing(std::nextafter(1.0, 2.0), 0, 1, 1, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCubicBezierEasing(0, 0, -DBL_TRUE_MIN, 1, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCubicBezierEasing(0, INFINITY, 1, 1, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCubicBezierEasing(0, 0, 1, NAN, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCubicBezierEasing(NAN, 0, 1, 1, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCubicBezierEasing(1, -1e308, 0, 1e308, &e), mtwn_success);
    ASSERT_EQ(mtwnMakeCubicBezierEasing(0.3, -0.4, 0.7, 1.6, &e), mtwn_success);
    for (mtwnEaseMode m : kModes) {
        ASSERT_EQ(mtwnSetEaseMode(&e, m), mtwn_success);
        for (int i = -200; i <= 1200; ++i) {
            double p = i / 1000.0 + 1e-7, a, b;
            ASSERT_EQ(mtwnSampleCubicBezierEasing(&e, p, &a), mtwn_success);
            ASSERT_EQ(mtwnSampleEasing(&e, p, false, &b), mtwn_success);
            EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << p;
        }
    }
    double v;
    EXPECT_EQ(mtwnSampleCubicBezierEasing(nullptr, 0.5, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleCubicBezierEasing(&e, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleCubicBezierEasing(&e, NAN, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleCubicBezierEasing(&e, INFINITY, &v), mtwn_errorInvalid);
    mtwnEasing other = mtwnMakeLinearEasing();
    EXPECT_EQ(mtwnSampleCubicBezierEasing(&other, 0.5, &v), mtwn_errorInvalid);
    mtwnEasing bad = e;
    bad.cookie = 0;
    EXPECT_EQ(mtwnSampleCubicBezierEasing(&bad, 0.5, &v), mtwn_errorInvalid);
    bad = e;
    bad.params[0] = 2.0;
    EXPECT_EQ(mtwnSampleCubicBezierEasing(&bad, 0.5, &v), mtwn_errorInvalid);
}

TEST(Easing, StepsCssExamples)
{
    mtwnEasing e;
    // steps(4, jump-end): 0, 1/4, 1/2, 3/4; at a step the before flag takes the step below.
    ASSERT_EQ(mtwnMakeStepsEasing(4, mtwn_stepJumpEnd, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.0), 0.0);
    EXPECT_EQ(S(e, 0.3), 0.25);
    EXPECT_EQ(S(e, 0.25), 0.25);
    EXPECT_EQ(S(e, 0.25, true), 0.0);
    EXPECT_EQ(S(e, 0.99), 0.75);
    EXPECT_EQ(S(e, 1.0), 1.0);
    EXPECT_EQ(S(e, 1.0, true), 0.75);
    EXPECT_EQ(S(e, 1.5), 1.5);  // outside 0 to 1 not clamped: floor(6) / 4
    EXPECT_EQ(S(e, -0.3), -0.5);  // floor(-1.2) / 4
    // steps(4, jump-start): 1/4 at 0, but 0 with the before flag (CSS's example of step-start).
    ASSERT_EQ(mtwnMakeStepsEasing(4, mtwn_stepJumpStart, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.0), 0.25);
    EXPECT_EQ(S(e, 0.0, true), 0.0);
    EXPECT_EQ(S(e, 0.5), 0.75);
    EXPECT_EQ(S(e, 1.0), 1.0);
    EXPECT_EQ(S(e, -0.1), 0.0);  // floor(-0.4) + 1 = 0
    EXPECT_EQ(S(e, -0.5), -0.25);
    // jump-none: count - 1 jumps, 0 to 1.
    ASSERT_EQ(mtwnMakeStepsEasing(5, mtwn_stepJumpNone, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.0), 0.0);
    EXPECT_EQ(S(e, 0.5), 0.5);
    EXPECT_EQ(S(e, 0.99), 1.0);
    // jump-both: count + 1 jumps.
    ASSERT_EQ(mtwnMakeStepsEasing(3, mtwn_stepJumpBoth, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.0), 0.25);
    EXPECT_EQ(S(e, 0.0, true), 0.0);
    EXPECT_EQ(S(e, 0.5), 0.5);
    EXPECT_EQ(S(e, 1.0), 1.0);
    // The before flag does not reach a reflected curve.
    ASSERT_EQ(mtwnMakeStepsEasing(4, mtwn_stepJumpEnd, &e), mtwn_success);
    ASSERT_EQ(mtwnSetEaseMode(&e, mtwn_easeOut), mtwn_success);
    EXPECT_EQ(S(e, 0.25, true), S(e, 0.25, false));
    ASSERT_EQ(mtwnSetEaseMode(&e, mtwn_easeInOut), mtwn_success);
    EXPECT_EQ(S(e, 0.125, true), 0.0);    // first half unreflected: 2p = 0.25 on a step
    EXPECT_EQ(S(e, 0.125, false), 0.125);
}

TEST(Easing, StepsRangeAndKeywords)
{
    mtwnEasing e, f;
    EXPECT_EQ(mtwnMakeStepsEasing(1, mtwn_stepEnd, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeStepsEasing(0, mtwn_stepEnd, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeStepsEasing(1, mtwn_stepEnd, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeStepsEasing(1, mtwn_stepJumpNone, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeStepsEasing(2, mtwn_stepJumpNone, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeStepsEasing(UINT32_MAX, mtwn_stepJumpBoth, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeStepsEasing(2, (mtwnStepPosition)4, &e), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeCssEasing(mtwn_cssStepStart, &e), mtwn_success);
    ASSERT_EQ(mtwnMakeStepsEasing(1, mtwn_stepStart, &f), mtwn_success);
    EXPECT_EQ(std::memcmp(&e, &f, sizeof e), 0);
    ASSERT_EQ(mtwnMakeCssEasing(mtwn_cssStepEnd, &e), mtwn_success);
    ASSERT_EQ(mtwnMakeStepsEasing(1, mtwn_stepEnd, &f), mtwn_success);
    EXPECT_EQ(std::memcmp(&e, &f, sizeof e), 0);
    const double kw[][4] = {{0.25, 0.1, 0.25, 1}, {0.42, 0, 1, 1}, {0, 0, 0.58, 1}, {0.42, 0, 0.58, 1}};
    const mtwnCssKeyword k[] = {mtwn_cssEase, mtwn_cssEaseIn, mtwn_cssEaseOut, mtwn_cssEaseInOut};
    for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(mtwnMakeCssEasing(k[i], &e), mtwn_success);
        ASSERT_EQ(mtwnMakeCubicBezierEasing(kw[i][0], kw[i][1], kw[i][2], kw[i][3], &f), mtwn_success);
        EXPECT_EQ(std::memcmp(&e, &f, sizeof e), 0);
    }
    ASSERT_EQ(mtwnMakeCssEasing(mtwn_cssLinear, &e), mtwn_success);
    f = mtwnMakeLinearEasing();
    EXPECT_EQ(std::memcmp(&e, &f, sizeof e), 0);
    EXPECT_EQ(mtwnMakeCssEasing((mtwnCssKeyword)7, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeCssEasing(mtwn_cssEase, nullptr), mtwn_errorInvalid);
}

std::vector<mtwnLinearPoint> Pts(std::initializer_list<std::pair<double, double>> l)
{
    std::vector<mtwnLinearPoint> v;
    for (auto& p : l) v.push_back({p.second, p.first});  // (output, input) as CSS writes them
    return v;
}

void ExpectInputs(const std::vector<mtwnLinearPoint>& p, std::initializer_list<double> in)
{
    ASSERT_EQ(p.size(), in.size());
    size_t i = 0;
    for (double x : in) EXPECT_DOUBLE_EQ(p[i++].input, x) << i;
}

TEST(Easing, LinearCanonicalizationCssExamples)
{
    mtwnEasing e;
    // linear(0, 0.25, 1) is linear(0 0%, 0.25 50%, 1 100%).
    auto a = Pts({{0, NAN}, {0.25, NAN}, {1, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(a.data(), 3, &e), mtwn_success);
    ExpectInputs(a, {0, 0.5, 1});
    EXPECT_EQ(S(e, 0.25), 0.125);
    EXPECT_EQ(S(e, 0.75), 0.625);
    EXPECT_EQ(S(e, -1.0), -0.5);  // the first segment extended
    EXPECT_EQ(S(e, 2.0), 2.5);    // the last segment extended
    // linear(0 20%, 0.5 10%, 1): the second raised to 20%.
    auto b = Pts({{0, 0.2}, {0.5, 0.1}, {1, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(b.data(), 3, &e), mtwn_success);
    ExpectInputs(b, {0.2, 0.2, 1});
    EXPECT_EQ(S(e, 0.2), 0.5);  // equal inputs: the later point's output
    EXPECT_EQ(S(e, 0.1), 0.5);  // CSS: points A and B of equal inputs give B's output
    // linear(0, 0.5 25% 75%, 1): two points of one output.
    auto c = Pts({{0, NAN}, {0.5, 0.25}, {0.5, 0.75}, {1, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(c.data(), 4, &e), mtwn_success);
    ExpectInputs(c, {0, 0.25, 0.75, 1});
    EXPECT_EQ(S(e, 0.5), 0.5);
    EXPECT_EQ(S(e, 0.125), 0.25);
    // A run not given spread evenly: linear(0, 0.1, 0.2, 0.3 60%, 1).
    auto d = Pts({{0, NAN}, {0.1, NAN}, {0.2, NAN}, {0.3, 0.6}, {1, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(d.data(), 5, &e), mtwn_success);
    ExpectInputs(d, {0, 0.2, 0.4, 0.6, 1});
    // The last input not given: the largest before it when above 1.
    auto f = Pts({{0, NAN}, {0.5, 1.5}, {1, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(f.data(), 3, &e), mtwn_success);
    ExpectInputs(f, {0, 1.5, 1.5});
    // An input below the first (0) raised to it.
    auto g = Pts({{0, NAN}, {0.5, -0.5}, {1, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(g.data(), 3, &e), mtwn_success);
    ExpectInputs(g, {0, 0, 1});
    // A jump: linear(0, 0 50%, 1 50%, 1).
    auto h = Pts({{0, NAN}, {0, 0.5}, {1, 0.5}, {1, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(h.data(), 4, &e), mtwn_success);
    EXPECT_EQ(S(e, 0.4999), 0.0);
    EXPECT_EQ(S(e, 0.5), 1.0);
}

TEST(Easing, LinearPointsRefusalsAndRange)
{
    mtwnEasing e;
    auto a = Pts({{0, NAN}, {1, NAN}});
    EXPECT_EQ(mtwnMakeLinearPointsEasing(a.data(), 1, &e), mtwn_errorInvalid);
    EXPECT_TRUE(std::isnan(a[0].input));
    EXPECT_EQ(mtwnMakeLinearPointsEasing(nullptr, 2, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeLinearPointsEasing(a.data(), 2, nullptr), mtwn_errorInvalid);
    auto b = Pts({{0, NAN}, {NAN, 0.5}, {1, NAN}});
    EXPECT_EQ(mtwnMakeLinearPointsEasing(b.data(), 3, &e), mtwn_errorInvalid);
    EXPECT_TRUE(std::isnan(b[0].input));  // left as they were
    auto c = Pts({{0, NAN}, {INFINITY, 0.5}, {1, NAN}});
    EXPECT_EQ(mtwnMakeLinearPointsEasing(c.data(), 3, &e), mtwn_errorInvalid);
    auto d = Pts({{0, NAN}, {0.5, INFINITY}, {1, NAN}});
    EXPECT_EQ(mtwnMakeLinearPointsEasing(d.data(), 3, &e), mtwn_errorInvalid);
    auto f = Pts({{0, NAN}, {0.5, -DBL_MAX}, {1, DBL_MAX}});
    EXPECT_EQ(mtwnMakeLinearPointsEasing(f.data(), 3, &e), mtwn_success);
    EXPECT_TRUE(std::isfinite(S(e, 0.3)));
    EXPECT_EQ(mtwnMakeLinearPointsEasing(a.data(), 2, &e), mtwn_success);
    // Past the doubles: the largest finite double.
    auto g = Pts({{0, 0}, {1e300, 1e-10}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(g.data(), 2, &e), mtwn_success);
    EXPECT_EQ(S(e, 1e100), DBL_MAX);
    EXPECT_EQ(S(e, -1e100), -DBL_MAX);
    // Points the host changed out of order: finite.
    g[0].input = 5;
    EXPECT_TRUE(std::isfinite(S(e, 0.5)));
}

TEST(Easing, Rough)
{
    mtwnRoughDef def;
    std::memset(&def, 0, sizeof def);
    def.shape = mtwnMakeLinearEasing();
    def.strength = 0.25;
    def.seed = 42;
    def.taper = mtwn_roughTaperNone;
    std::vector<mtwnLinearPoint> p(12), q(12);
    mtwnEasing e;
    ASSERT_EQ(mtwnMakeRoughEasing(&def, p.data(), 12, &e), mtwn_success);
    ASSERT_EQ(mtwnMakeRoughEasing(&def, q.data(), 12, &e), mtwn_success);
    EXPECT_EQ(std::memcmp(p.data(), q.data(), sizeof(mtwnLinearPoint) * 12), 0);
    EXPECT_EQ(p[0].input, 0.0);
    EXPECT_EQ(p[0].output, 0.0);
    EXPECT_EQ(p[11].input, 1.0);
    EXPECT_EQ(p[11].output, 1.0);
    // SplitMix64 by hand (docs/determinism.md) for the first inner point.
    uint64_t st = 42;
    auto next = [&st]() {
        st += 0x9E3779B97F4A7C15ull;
        uint64_t z = st;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    double u = (double)(next() >> 11) * 0x1p-53, v = (double)(next() >> 11) * 0x1p-53;
    EXPECT_EQ(p[1].input, u / 10.0);
    EXPECT_EQ(p[1].output, u / 10.0 + 0.25 * (2.0 * v - 1.0));
    for (int k = 0; k < 10; ++k) {
        EXPECT_GE(p[k + 1].input, k / 10.0);
        EXPECT_LT(p[k + 1].input, (k + 1) / 10.0);
        EXPECT_LE(std::fabs(p[k + 1].output - p[k + 1].input), 0.25);
    }
    EXPECT_EQ(e.points, q.data());
    def.seed = 43;
    ASSERT_EQ(mtwnMakeRoughEasing(&def, q.data(), 12, &e), mtwn_success);
    EXPECT_NE(std::memcmp(p.data(), q.data(), sizeof(mtwnLinearPoint) * 12), 0);
    // Clamp and tapers.
    def.flags = MTWN_ROUGH_CLAMP;
    def.strength = 5;
    ASSERT_EQ(mtwnMakeRoughEasing(&def, q.data(), 12, &e), mtwn_success);
    for (auto& x : q) EXPECT_TRUE(x.output >= 0 && x.output <= 1);
    def.flags = 0;
    def.strength = 0.5;
    def.taper = mtwn_roughTaperIn;
    ASSERT_EQ(mtwnMakeRoughEasing(&def, q.data(), 12, &e), mtwn_success);
    for (auto& x : q) EXPECT_LE(std::fabs(x.output - x.input), 0.5 * x.input * x.input + 1e-16);
    def.taper = mtwn_roughTaperOut;
    ASSERT_EQ(mtwnMakeRoughEasing(&def, q.data(), 12, &e), mtwn_success);
    for (auto& x : q) EXPECT_LE(std::fabs(x.output - x.input), 0.5 * (1 - x.input) * (1 - x.input) + 1e-16);
    def.taper = mtwn_roughTaperBoth;
    ASSERT_EQ(mtwnMakeRoughEasing(&def, q.data(), 12, &e), mtwn_success);
    // Strength 0: on the shape.
    def.strength = 0;
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2, &def.shape), mtwn_success);
    ASSERT_EQ(mtwnMakeRoughEasing(&def, q.data(), 12, &e), mtwn_success);
    for (auto& x : q) EXPECT_EQ(x.output, x.input * x.input);
    ASSERT_EQ(mtwnMakeRoughEasing(&def, q.data(), 2, &e), mtwn_success);
}

TEST(Easing, RoughRefusals)
{
    mtwnRoughDef def;
    std::memset(&def, 0, sizeof def);
    def.shape = mtwnMakeLinearEasing();
    def.strength = 0.1;
    std::vector<mtwnLinearPoint> p(8, mtwnLinearPoint{7, 7});
    mtwnEasing e;
    EXPECT_EQ(mtwnMakeRoughEasing(nullptr, p.data(), 8, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeRoughEasing(&def, nullptr, 8, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeRoughEasing(&def, p.data(), 8, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeRoughEasing(&def, p.data(), 1, &e), mtwn_errorInvalid);
    def.strength = -DBL_TRUE_MIN;
    EXPECT_EQ(mtwnMakeRoughEasing(&def, p.data(), 8, &e), mtwn_errorInvalid);
    def.strength = INFINITY;
    EXPECT_EQ(mtwnMakeRoughEasing(&def, p.data(), 8, &e), mtwn_errorInvalid);
    def.strength = 0.0;
    def.taper = 4;
    EXPECT_EQ(mtwnMakeRoughEasing(&def, p.data(), 8, &e), mtwn_errorInvalid);
    def.taper = 3;
    def.flags = 2;
    EXPECT_EQ(mtwnMakeRoughEasing(&def, p.data(), 8, &e), mtwn_errorInvalid);
    def.flags = 0;
    def.shape.cookie = 0;
    EXPECT_EQ(mtwnMakeRoughEasing(&def, p.data(), 8, &e), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, InfHost, nullptr, &def.shape), mtwn_success);
    EXPECT_EQ(mtwnMakeRoughEasing(&def, p.data(), 8, &e), mtwn_errorInvalid);
    for (auto& x : p) EXPECT_EQ(x.input, 7.0);  // nothing written
}

TEST(Easing, SetEaseModeAndChecks)
{
    mtwnEasing e;
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2.0, &e), mtwn_success);
    EXPECT_EQ(mtwnSetEaseMode(&e, mtwn_easeOut), mtwn_success);
    EXPECT_EQ(e.mode, (uint32_t)mtwn_easeOut);
    EXPECT_EQ(mtwnSetEaseMode(&e, (mtwnEaseMode)4), mtwn_errorInvalid);
    EXPECT_EQ(e.mode, (uint32_t)mtwn_easeOut);
    EXPECT_EQ(mtwnSetEaseMode(nullptr, mtwn_easeIn), mtwn_errorInvalid);
    mtwnEasing bad = e;
    bad.cookie ^= 1;
    EXPECT_EQ(mtwnSetEaseMode(&bad, mtwn_easeIn), mtwn_errorInvalid);
    bad = e;
    bad.params[0] = 0.0;
    EXPECT_EQ(mtwnSetEaseMode(&bad, mtwn_easeIn), mtwn_errorInvalid);
    bad = e;
    bad.kind = 13;
    double v;
    EXPECT_EQ(mtwnSampleEasing(&bad, 0.5, false, &v), mtwn_errorInvalid);
    bad = e;
    bad.mode = 4;
    EXPECT_EQ(mtwnSampleEasing(&bad, 0.5, false, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasing(nullptr, 0.5, false, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasing(&e, 0.5, false, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasing(&e, NAN, false, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasing(&e, INFINITY, false, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasing(&e, -INFINITY, false, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasing(&e, DBL_MAX, false, &v), mtwn_success);
}

TEST(Easing, Monotonic)
{
    auto mono = [](const mtwnEasing& e) {
        bool m = false;
        EXPECT_EQ(mtwnIsEasingMonotonic(&e, &m), mtwn_success);
        return m;
    };
    mtwnEasing e;
    for (mtwnEaseMode m : kModes) {
        e = mtwnMakeLinearEasing();
        ASSERT_EQ(mtwnSetEaseMode(&e, m), mtwn_success);
        EXPECT_TRUE(mono(e));
        ASSERT_EQ(mtwnMakePowerEasing(m, 3, &e), mtwn_success);
        EXPECT_TRUE(mono(e));
        for (mtwnEasingKind k : {mtwn_easingSine, mtwn_easingExpo, mtwn_easingCirc}) {
            ASSERT_EQ(mtwnMakePennerEasing(k, m, &e), mtwn_success);
            EXPECT_TRUE(mono(e));
        }
        ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingBounce, m, &e), mtwn_success);
        EXPECT_FALSE(mono(e));
        ASSERT_EQ(mtwnMakeBackEasing(m, 1.7, &e), mtwn_success);
        EXPECT_FALSE(mono(e));
        ASSERT_EQ(mtwnMakeElasticEasing(m, 1, 0.3, &e), mtwn_success);
        EXPECT_FALSE(mono(e));
        ASSERT_EQ(mtwnMakeStepsEasing(3, mtwn_stepJumpBoth, &e), mtwn_success);
        ASSERT_EQ(mtwnSetEaseMode(&e, m), mtwn_success);
        EXPECT_TRUE(mono(e));
    }
    ASSERT_EQ(mtwnMakeCubicBezierEasing(0.3, 0, 0.7, 1, &e), mtwn_success);
    EXPECT_TRUE(mono(e));
    ASSERT_EQ(mtwnMakeCubicBezierEasing(0.3, -DBL_TRUE_MIN, 0.7, 1, &e), mtwn_success);
    EXPECT_FALSE(mono(e));
    ASSERT_EQ(mtwnMakeCubicBezierEasing(0.3, 0, 0.7, std::nextafter(1.0, 2.0), &e), mtwn_success);
    EXPECT_FALSE(mono(e));
    // linear(): outputs never decreasing; in-out ending at 1 or below; out-in starting at 0 or above.
    auto a = Pts({{0, NAN}, {0.5, NAN}, {1.2, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(a.data(), 3, &e), mtwn_success);
    EXPECT_TRUE(mono(e));
    ASSERT_EQ(mtwnSetEaseMode(&e, mtwn_easeInOut), mtwn_success);
    EXPECT_FALSE(mono(e));
    ASSERT_EQ(mtwnSetEaseMode(&e, mtwn_easeOutIn), mtwn_success);
    EXPECT_TRUE(mono(e));
    auto b = Pts({{-0.1, NAN}, {0.5, NAN}, {1.0, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(b.data(), 3, &e), mtwn_success);
    ASSERT_EQ(mtwnSetEaseMode(&e, mtwn_easeOutIn), mtwn_success);
    EXPECT_FALSE(mono(e));
    ASSERT_EQ(mtwnSetEaseMode(&e, mtwn_easeInOut), mtwn_success);
    EXPECT_TRUE(mono(e));
    auto c = Pts({{0, NAN}, {0.6, NAN}, {0.5, NAN}, {1, NAN}});
    ASSERT_EQ(mtwnMakeLinearPointsEasing(c.data(), 4, &e), mtwn_success);
    EXPECT_FALSE(mono(e));
    bool m;
    EXPECT_EQ(mtwnIsEasingMonotonic(nullptr, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnIsEasingMonotonic(&e, nullptr), mtwn_errorInvalid);
    e.cookie = 1;
    EXPECT_EQ(mtwnIsEasingMonotonic(&e, &m), mtwn_errorInvalid);
}

TEST(Easing, TimelineSafeSamplingNeverDecreases)
{
    for (mtwnCssKeyword k : {mtwn_cssEase, mtwn_cssEaseIn, mtwn_cssEaseOut, mtwn_cssEaseInOut}) {
        mtwnEasing e;
        ASSERT_EQ(mtwnMakeCssEasing(k, &e), mtwn_success);
        for (mtwnEaseMode m : kModes) {
            ASSERT_EQ(mtwnSetEaseMode(&e, m), mtwn_success);
            double last = -1;
            // Dense runs of neighboring doubles near the ends and the middle, and an even sweep.
            for (double start : {0.0, 0.5 - 1e-12, 1.0 - 1e-12, 0.25}) {
                double p = start;
                for (int i = 0; i < 20000; ++i, p = std::nextafter(p, 2.0)) {
                    double v = mtwn_SampleEasingMonotone(&e, p, false, nullptr);
                    if (i > 0) {
                        EXPECT_GE(v, last) << k << " " << m << " " << p;
                    }
                    last = v;
                    EXPECT_NEAR(v, S(e, p), 1e-13);
                }
            }
            last = -1;
            for (int i = 0; i <= 200000; ++i) {
                double v = mtwn_SampleEasingMonotone(&e, i / 200000.0, false, nullptr);
                EXPECT_GE(v, last);
                last = v;
            }
        }
    }
}

}  // namespace
