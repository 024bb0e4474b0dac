// MPFR reference tests of easing.h's curves: Penner's (sine, expo, circ,
// bounce, power), back, elastic and the cubic bezier solve, in mode in, against
// MPFR at 256 bits. Errors are absolute, in units of 2^-53 (an ulp of values
// in [1/2, 1)); each curve states its bound and fails past it. The cubic
// bezier's bound follows from its solve: |x(t) - x| <= 1e-14 moves y by at
// most max |dy/dx| times that.
#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <functional>

#include "gtest/gtest.h"
#include "maul/tween/easing.h"

namespace {

const mpfr_prec_t kPrec = 256;

struct M {
    mpfr_t v;
    M() { mpfr_init2(v, kPrec); mpfr_set_zero(v, 1); }
    explicit M(double d) { mpfr_init2(v, kPrec); mpfr_set_d(v, d, MPFR_RNDN); }
    M(const M& o) { mpfr_init2(v, kPrec); mpfr_set(v, o.v, MPFR_RNDN); }
    M& operator=(const M& o) { mpfr_set(v, o.v, MPFR_RNDN); return *this; }
    ~M() { mpfr_clear(v); }
    double d() const { return mpfr_get_d(v, MPFR_RNDN); }
};
M operator+(const M& a, const M& b) { M r; mpfr_add(r.v, a.v, b.v, MPFR_RNDN); return r; }
M operator-(const M& a, const M& b) { M r; mpfr_sub(r.v, a.v, b.v, MPFR_RNDN); return r; }
M operator*(const M& a, const M& b) { M r; mpfr_mul(r.v, a.v, b.v, MPFR_RNDN); return r; }
M operator/(const M& a, const M& b) { M r; mpfr_div(r.v, a.v, b.v, MPFR_RNDN); return r; }
M Sin(const M& a) { M r; mpfr_sin(r.v, a.v, MPFR_RNDN); return r; }
M Cos(const M& a) { M r; mpfr_cos(r.v, a.v, MPFR_RNDN); return r; }
M Exp2(const M& a) { M r; mpfr_exp2(r.v, a.v, MPFR_RNDN); return r; }
M Sqrt(const M& a) { M r; mpfr_sqrt(r.v, a.v, MPFR_RNDN); return r; }
M Asin(const M& a) { M r; mpfr_asin(r.v, a.v, MPFR_RNDN); return r; }
M Pow(const M& a, const M& b) { M r; mpfr_pow(r.v, a.v, b.v, MPFR_RNDN); return r; }
M Pi() { M r; mpfr_const_pi(r.v, MPFR_RNDN); return r; }
bool Lt(const M& a, const M& b) { return mpfr_less_p(a.v, b.v) != 0; }

// The error of the library's value against the exact one, in units of 2^-53.
double Err(double got, const M& ref)
{
    M diff = M(got) - ref;
    return std::fabs(diff.d()) * 0x1p53;
}

// Every progress k / 2^16 plus 2^16 pseudo-random ones (a fixed LCG).
template <class F>
double MaxError(const mtwnEasing& e, F ref)
{
    double worst = 0;
    uint64_t s = 12345;
    for (int i = 0; i <= 2 * 65536; ++i) {
        double p;
        if (i <= 65536) {
            p = i / 65536.0;
        } else {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            p = (double)(s >> 11) * 0x1p-53;
        }
        double got;
        EXPECT_EQ(mtwnSampleEasing(&e, p, false, &got), mtwn_success);
        worst = std::fmax(worst, Err(got, ref(M(p))));
    }
    return worst;
}

void Check(const char* name, const mtwnEasing& e, std::function<M(const M&)> ref, double bound)
{
    double worst = MaxError(e, ref);
    std::printf("%-28s max error %.3f x 2^-53 (bound %.1f)\n", name, worst, bound);
    EXPECT_LE(worst, bound) << name;
}

TEST(MpfrEasing, Penner)
{
    mtwnEasing e;
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeIn, &e), mtwn_success);
    // 2 sin^2(p pi / 4): sin within 1 ulp (detmath.h), squared and doubled: 5 units.
    Check("sine", e, [](const M& p) { return M(1.0) - Cos(p * Pi() / M(2.0)); }, 5.0);
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingExpo, mtwn_easeIn, &e), mtwn_success);
    Check("expo", e, [](const M& p) {
        M low = Exp2(M(-10.0));
        return (Exp2(M(10.0) * (p - M(1.0))) - low) / (M(1.0) - low);
    }, 2.0);
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingCirc, mtwn_easeIn, &e), mtwn_success);
    Check("circ", e, [](const M& p) { return M(1.0) - Sqrt(M(1.0) - p * p); }, 2.0);
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingBounce, mtwn_easeIn, &e), mtwn_success);
    Check("bounce", e, [](const M& p) {
        M u = M(1.0) - p, n1(7.5625), d1(2.75), v;
        if (Lt(u, M(1.0) / d1)) return M(1.0) - n1 * u * u;
        if (Lt(u, M(2.0) / d1)) { v = u - M(1.5) / d1; return M(1.0) - (n1 * v * v + M(0.75)); }
        if (Lt(u, M(2.5) / d1)) { v = u - M(2.25) / d1; return M(1.0) - (n1 * v * v + M(0.9375)); }
        v = u - M(2.625) / d1;
        return M(1.0) - (n1 * v * v + M(0.984375));
    }, 4.0);
    for (double k : {2.0, 5.0, 8.0, 2.5, 0.5}) {
        ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, k, &e), mtwn_success);
        char name[32];
        std::snprintf(name, sizeof name, "power %.1f", k);
        Check(name, e, [k](const M& p) { return Pow(p, M(k)); }, 4.0);
    }
}

TEST(MpfrEasing, BackAndElastic)
{
    mtwnEasing e;
    for (double s : {1.70158, 1.70158 * 1.525, 10.0}) {
        ASSERT_EQ(mtwnMakeBackEasing(mtwn_easeIn, s, &e), mtwn_success);
        char name[32];
        std::snprintf(name, sizeof name, "back s=%.5f", s);
        // The exact curve: its value at 1 is exactly 1.
        Check(name, e, [s](const M& p) { return p * p * ((M(s) + M(1.0)) * p - M(s)); }, 4.0 + 2.0 * s);
    }
    const double cases[][2] = {{1.0, 0.3}, {1.0, 0.45}, {1.0, 0.4}, {2.0, 0.3}, {0.5, 0.3}, {10.0, 0.1}};
    for (const auto& c : cases) {
        ASSERT_EQ(mtwnMakeElasticEasing(mtwn_easeIn, c[0], c[1], &e), mtwn_success);
        double a = c[0], P = c[1];
        if (a < 1) { P = P / a; a = 1; }
        // in(q) = (g(1) - g(1 - q)) / (g(1) - g(0)), g(u) = a 2^(-10u) sin((u - c) 2 pi / P).
        M A(a), Pm(P), w = M(2.0) * Pi() / Pm, cc = Pm * Asin(M(1.0) / A) / (M(2.0) * Pi());
        auto g = [&](const M& u) { return A * Exp2(M(-10.0) * u) * Sin((u - cc) * w); };
        M g0 = g(M(0.0)), g1 = g(M(1.0));
        char name[48];
        std::snprintf(name, sizeof name, "elastic a=%.1f P=%.2f", c[0], c[1]);
        // Bound: a few ulps of the terms, of size a, relative to g(1) - g(0) (about 1), plus the
        // phase's error: (u - c) w rounds at up to 2 pi / P times an ulp.
        double bound = 16.0 * a + 4.0 * (6.3 / P);
        Check(name, e, [&](const M& q) { return (g1 - g(M(1.0) - q)) / (g1 - g0); }, bound);
    }
}

M RefBezier(const double* c, const M& x)
{
    M x1(c[0]), y1(c[1]), x2(c[2]), y2(c[3]), three(3.0), one(1.0);
    auto B = [&](const M& a, const M& b, const M& t) {
        M u = one - t;
        return three * u * u * t * a + three * u * t * t * b + t * t * t;
    };
    M lo(0.0), hi(1.0);
    for (int i = 0; i < 240; ++i) {
        M mid = (lo + hi) / M(2.0);
        if (Lt(B(x1, x2, mid), x)) lo = mid;
        else hi = mid;
    }
    return B(y1, y2, lo);
}

TEST(MpfrEasing, CubicBezierSolutions)
{
    // The CSS keywords and two others; the bound is 1e-14 times the curve's largest |dy/dx|
    // (measured over t below), plus 8 units of 2^-53 for the evaluation of y.
    const double curves[][4] = {{0.25, 0.1, 0.25, 1.0}, {0.42, 0.0, 1.0, 1.0}, {0.0, 0.0, 0.58, 1.0},
                                {0.42, 0.0, 0.58, 1.0}, {0.68, -0.55, 0.265, 1.55}, {0.3, 0.2, 0.6, 0.9}};
    for (const auto& c : curves) {
        mtwnEasing e;
        ASSERT_EQ(mtwnMakeCubicBezierEasing(c[0], c[1], c[2], c[3], &e), mtwn_success);
        double worst = 0;
        for (int i = 0; i <= 20000; ++i) {
            double x = i / 20000.0, got;
            ASSERT_EQ(mtwnSampleCubicBezierEasing(&e, x, &got), mtwn_success);
            worst = std::fmax(worst, std::fabs((M(got) - RefBezier(c, M(x))).d()));
        }
        double slope = 0;
        for (int i = 1; i < 100000; ++i) {
            double t = i / 100000.0, u = 1 - t;
            double dx = 3 * u * u * c[0] + 6 * u * t * (c[2] - c[0]) + 3 * t * t * (1 - c[2]);
            double dy = 3 * u * u * c[1] + 6 * u * t * (c[3] - c[1]) + 3 * t * t * (1 - c[3]);
            if (dx > 0) slope = std::fmax(slope, std::fabs(dy / dx));
        }
        double bound = slope * 1e-14 + 8 * 0x1p-53;
        std::printf("cubic-bezier(%.3g, %.3g, %.3g, %.3g) max error %.3g (bound %.3g)\n", c[0], c[1], c[2], c[3],
                    worst, bound);
        EXPECT_LE(worst, bound);
    }
}

}  // namespace
