// Tests of spring.h: closed forms against the ODE they solve, makers' ranges,
// motion, settling (never early), spring easings, decay, bounded decay and
// the rubber band.
#include <cfloat>
#include <cmath>

#include "gtest/gtest.h"
#include "lib/core/rng.h"
#include "maul/tween/easing.h"
#include "maul/tween/spring.h"

namespace {

const double kTwoPi = 6.283185307179586;
const double R = MTWN_MAX_REACH;

mtwnSpring Freq(double hz, double zeta) {
    mtwnSpring s;
    EXPECT_EQ(mtwnMakeSpringFromFrequency(hz, zeta, &s), mtwn_success);
    return s;
}

double X(const mtwnSpring& s, double x0, double v0, double t, double* v = nullptr) {
    double x, vv;
    EXPECT_EQ(mtwnSampleSpring(&s, x0, v0, t, &x, &vv), mtwn_success);
    if (v) *v = vv;
    return x;
}

TEST(Spring, MakersAndParameters) {
    mtwnSpring s;
    ASSERT_EQ(mtwnMakeSpring(100.0, 10.0, 1.0, &s), mtwn_success);
    EXPECT_EQ(s.omega, 10.0);
    EXPECT_EQ(s.zeta, 0.5);
    ASSERT_EQ(mtwnMakeSpring(400.0, 40.0, 4.0, &s), mtwn_success);  // omega 10, zeta 40 / (2 * 40)
    EXPECT_EQ(s.omega, 10.0);
    EXPECT_EQ(s.zeta, 0.5);
    ASSERT_EQ(mtwnMakeSpringFromFrequency(1.0, 0.25, &s), mtwn_success);
    EXPECT_EQ(s.omega, kTwoPi);
    // SwiftUI: duration 0.5, bounce 0.3 -> omega 4 pi, zeta 0.7; bounce -0.5 -> zeta 2.
    ASSERT_EQ(mtwnMakeSpringFromDuration(0.5, 0.3, &s), mtwn_success);
    EXPECT_EQ(s.omega, kTwoPi / 0.5);
    EXPECT_EQ(s.zeta, 1.0 - 0.3);
    ASSERT_EQ(mtwnMakeSpringFromDuration(0.5, -0.5, &s), mtwn_success);
    EXPECT_EQ(s.zeta, 2.0);
    ASSERT_EQ(mtwnMakeSpringFromDuration(1.0, 0.0, &s), mtwn_success);
    EXPECT_EQ(s.zeta, 1.0);
}

TEST(Spring, MakerRanges) {
    mtwnSpring s;
    EXPECT_EQ(mtwnMakeSpring(1, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpring(0, 1, 1, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpring(1, 1, 0, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpring(1, -0x1p-1074, 1, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpring(1, 0, 1, &s), mtwn_success);
    EXPECT_EQ(mtwnMakeSpring(INFINITY, 1, 1, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpring(DBL_MAX, 1, 1e-300, &s), mtwn_errorInvalid);  // frequency past the doubles
    // The frequency's range: omega^2 a finite normal double.
    EXPECT_EQ(mtwnMakeSpring(0x1p-1022, 0, 1, &s), mtwn_success);  // omega 2^-511
    EXPECT_EQ(s.omega, MTWN_MIN_SPRING_OMEGA);
    EXPECT_EQ(mtwnMakeSpring(0x1p-1024, 0, 1, &s), mtwn_errorInvalid);  // omega 2^-512
    EXPECT_EQ(mtwnMakeSpring(0x1p1022, 0, 1, &s), mtwn_success);     // omega 2^511
    // Damping ratio: MTWN_MAX_DAMPING_RATIO in, past it out.
    EXPECT_EQ(mtwnMakeSpring(1, 2e6, 1, &s), mtwn_success);
    EXPECT_EQ(s.zeta, 1e6);
    EXPECT_EQ(mtwnMakeSpring(1, std::nextafter(2e6, INFINITY), 1, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(1, MTWN_MAX_DAMPING_RATIO, &s), mtwn_success);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(1, std::nextafter(MTWN_MAX_DAMPING_RATIO, INFINITY), &s),
              mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(1, 0.0, &s), mtwn_success);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(1, -0x1p-1074, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(1, NAN, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(0, 1, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(1, 1, nullptr), mtwn_errorInvalid);
    // hertz whose omega = 2 pi hertz is just below 2^512 and the next one up.
    double h = 0x1p512 / kTwoPi;
    while (kTwoPi * h >= 0x1p512) h = std::nextafter(h, 0.0);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(h, 1, &s), mtwn_success);
    double h2 = std::nextafter(h, INFINITY);
    while (!(kTwoPi * h2 >= 0x1p512)) h2 = std::nextafter(h2, INFINITY);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(h2, 1, &s), mtwn_errorInvalid);
    double l = 0x1p-511 / kTwoPi;
    while (kTwoPi * l < 0x1p-511) l = std::nextafter(l, INFINITY);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(l, 1, &s), mtwn_success);
    EXPECT_EQ(mtwnMakeSpringFromFrequency(std::nextafter(l, 0.0), 1, &s),
              kTwoPi * std::nextafter(l, 0.0) >= 0x1p-511 ? mtwn_success : mtwn_errorInvalid);
    // Bounce: at most 1, above -1, 1 / (1 + bounce) at most 1e6.
    EXPECT_EQ(mtwnMakeSpringFromDuration(1, 1.0, &s), mtwn_success);
    EXPECT_EQ(s.zeta, 0.0);
    EXPECT_EQ(mtwnMakeSpringFromDuration(1, std::nextafter(1.0, 2.0), &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromDuration(1, -1.0, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromDuration(1, -0.999, &s), mtwn_success);
    EXPECT_EQ(mtwnMakeSpringFromDuration(1, -0.9999999, &s), mtwn_errorInvalid);  // zeta 1e7
    EXPECT_EQ(mtwnMakeSpringFromDuration(1, NAN, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromDuration(0, 0.5, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromDuration(INFINITY, 0.5, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringFromDuration(1, 0.5, nullptr), mtwn_errorInvalid);
}

// The closed form solves x'' + 2 zeta omega x' + omega^2 x = 0 with x(0) = x0, x'(0) = v0,
// and its velocity is x'.
TEST(Spring, SolvesTheOde) {
    for (double zeta : {0.0, 0.05, 0.3, 0.999999, 1.0, 1.000001, 2.5, 40.0}) {
        mtwnSpring s = Freq(1.3, zeta);
        const double w = s.omega, x0 = 0.7, v0 = -3.1, h = 1e-4;
        double v;
        EXPECT_EQ(X(s, x0, v0, 0.0, &v), x0);
        EXPECT_EQ(v, v0);
        for (double t : {0.05, 0.3, 0.9, 1.7}) {
            double xm = X(s, x0, v0, t - h), xp = X(s, x0, v0, t + h), x = X(s, x0, v0, t, &v);
            double d1 = (xp - xm) / (2 * h), d2 = (xp - 2 * x + xm) / (h * h);
            double scale = std::fabs(x0) * w * w + std::fabs(v0) * w;
            EXPECT_NEAR(d2 + 2 * zeta * w * d1 + w * w * x, 0.0, 1e-5 * scale) << zeta << " " << t;
            EXPECT_NEAR(v, d1, 1e-6 * scale) << zeta << " " << t;
        }
    }
}

TEST(Spring, KnownClosedForms) {
    // Undamped: x = x0 cos(wt) + v0/w sin(wt); critical: (x0 + (v0 + w x0) t) e^-wt.
    mtwnSpring s = Freq(1.0, 0.0);
    EXPECT_NEAR(X(s, 1.0, 0.0, 0.5), -1.0, 1e-15);
    EXPECT_NEAR(X(s, 0.0, kTwoPi, 0.25), 1.0, 1e-15);
    mtwnSpring c = Freq(1.0, 1.0);
    double t = 0.3, w = kTwoPi;
    EXPECT_NEAR(X(c, 2.0, -1.0, t), (2.0 + (-1.0 + w * 2.0) * t) * std::exp(-w * t), 1e-15);
    // Overdamped: roots r = -w (zeta -+ sqrt(zeta^2 - 1)).
    mtwnSpring o = Freq(1.0, 2.0);
    double r1 = -w * (2.0 - std::sqrt(3.0)), r2 = -w * (2.0 + std::sqrt(3.0));
    double x0 = 1.0, v0 = 0.5;
    double A = (v0 - r2 * x0) / (r1 - r2), B = x0 - A;
    EXPECT_NEAR(X(o, x0, v0, t), A * std::exp(r1 * t) + B * std::exp(r2 * t), 1e-14);
}

TEST(Spring, MotionMatchesSample) {
    for (double zeta : {0.0, 0.4, 1.0, 3.0}) {
        mtwnSpring s = Freq(2.0, zeta);
        mtwnSpringMotion m;
        ASSERT_EQ(mtwnComputeSpringMotion(&s, 0.37, &m), mtwn_success);
        double v;
        double x = X(s, 1.5, -2.0, 0.37, &v);
        EXPECT_NEAR(m.offsetFromOffset * 1.5 + m.offsetFromVelocity * -2.0, x, 1e-14);
        EXPECT_NEAR(m.velocityFromOffset * 1.5 + m.velocityFromVelocity * -2.0, v, 1e-13);
        ASSERT_EQ(mtwnComputeSpringMotion(&s, 0.0, &m), mtwn_success);
        EXPECT_EQ(m.offsetFromOffset, 1.0);
        EXPECT_EQ(m.offsetFromVelocity, 0.0);
        EXPECT_EQ(m.velocityFromVelocity, 1.0);
    }
}

TEST(Spring, TimesAndStarts) {
    mtwnSpring s = Freq(1.0, 0.5), u = Freq(1.0, 0.0);
    mtwnSpringMotion m;
    double x, v;
    ASSERT_EQ(mtwnComputeSpringMotion(&s, INFINITY, &m), mtwn_success);
    EXPECT_EQ(m.offsetFromOffset, 0.0);
    EXPECT_EQ(mtwnComputeSpringMotion(&u, INFINITY, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeSpringMotion(&u, 1e300, &m), mtwn_success);
    EXPECT_EQ(mtwnComputeSpringMotion(&u, DBL_MAX, &m), mtwn_errorInvalid);  // omega t past the doubles
    EXPECT_EQ(mtwnComputeSpringMotion(&s, -0x1p-1074, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeSpringMotion(&s, 0.0, &m), mtwn_success);
    EXPECT_EQ(mtwnComputeSpringMotion(&s, NAN, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeSpringMotion(nullptr, 1, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeSpringMotion(&s, 1, nullptr), mtwn_errorInvalid);
    mtwnSpring bad = s;
    bad.cookie = 0;
    EXPECT_EQ(mtwnComputeSpringMotion(&bad, 1, &m), mtwn_errorInvalid);
    bad = s;
    bad.omega = MTWN_MAX_SPRING_OMEGA;
    EXPECT_EQ(mtwnSampleSpring(&bad, 1, 0, 1, &x, &v), mtwn_errorInvalid);
    bad = s;
    bad.reserved = 1;
    EXPECT_EQ(mtwnSampleSpring(&bad, 1, 0, 1, &x, &v), mtwn_errorInvalid);
    ASSERT_EQ(mtwnSampleSpring(&s, 3, 4, INFINITY, &x, &v), mtwn_success);
    EXPECT_EQ(x, 0.0);
    EXPECT_EQ(v, 0.0);
    EXPECT_EQ(mtwnSampleSpring(nullptr, 1, 0, 1, &x, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleSpring(&s, 1, 0, 1, nullptr, nullptr), mtwn_success);
    // The reach: |x0|, |v0| <= R; |v0| <= R omega; omega |x0| <= R.
    mtwnSpring lo;
    ASSERT_EQ(mtwnMakeSpring(0.25, 0.1, 1, &lo), mtwn_success);  // omega 0.5
    EXPECT_EQ(mtwnSampleSpring(&lo, R, 0, 1, &x, &v), mtwn_success);
    EXPECT_EQ(mtwnSampleSpring(&lo, std::nextafter(R, INFINITY), 0, 1, &x, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleSpring(&lo, 0, R * 0.5, 1, &x, &v), mtwn_success);
    EXPECT_EQ(mtwnSampleSpring(&lo, 0, std::nextafter(R * 0.5, INFINITY), 1, &x, &v), mtwn_errorInvalid);
    mtwnSpring hi;
    ASSERT_EQ(mtwnMakeSpring(16, 0.1, 1, &hi), mtwn_success);  // omega 4
    EXPECT_EQ(mtwnSampleSpring(&hi, R / 4, R, 1, &x, &v), mtwn_success);
    EXPECT_EQ(mtwnSampleSpring(&hi, std::nextafter(R / 4, INFINITY), 0, 1, &x, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleSpring(&hi, 0, std::nextafter(R, INFINITY), 1, &x, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleSpring(&hi, NAN, 0, 1, &x, &v), mtwn_errorInvalid);
    // Extreme but valid starts stay finite at every damping.
    for (double zeta : {0.0, 0.999999999, 1.0, 1.000000001, 1e6}) {
        mtwnSpring e;
        ASSERT_EQ(mtwnMakeSpringFromFrequency(0.5 / kTwoPi * 4, zeta, &e), mtwn_success);
        for (double t : {0.0, 1e-3, 0.5, 3.0, 1e5}) {
            ASSERT_EQ(mtwnSampleSpring(&e, -R / 4, R, t, &x, &v), mtwn_success);
            EXPECT_TRUE(std::isfinite(x) && std::isfinite(v)) << zeta << " " << t;
        }
    }
}

TEST(Spring, SettlingNeverEndsEarly) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, 99);
    for (double zeta : {0.02, 0.3, 0.9999, 1.0, 1.0001, 2.0, 30.0}) {
        mtwnSpring s = Freq(1.7, zeta);
        for (int k = 0; k < 4; ++k) {
            double x0 = (mcore_RngDouble01(&rng) - 0.5) * 200, v0 = (mcore_RngDouble01(&rng) - 0.5) * 2000;
            double tolX = 1e-3, tolV = 1e-2, T;
            ASSERT_EQ(mtwnComputeSpringSettlingTime(&s, x0, v0, tolX, tolV, &T), mtwn_success);
            ASSERT_TRUE(std::isfinite(T));
            for (int i = 0; i < 4000; ++i) {
                double t = T + i * (T + 1.0) / 1000.0;
                double v, x = X(s, x0, v0, t, &v);
                ASSERT_LE(std::fabs(x), tolX) << zeta << " " << t;
                ASSERT_LE(std::fabs(v), tolV) << zeta << " " << t;
            }
            // And not absurdly late: the envelope's own time is within a few times T.
            double Tx;
            ASSERT_EQ(mtwnComputeSpringSettlingTime(&s, x0, v0, tolX * 1e3, tolV * 1e3, &Tx), mtwn_success);
            EXPECT_LT(Tx, T);
        }
    }
    mtwnSpring s = Freq(1.0, 0.5), u = Freq(1.0, 0.0);
    double T;
    ASSERT_EQ(mtwnComputeSpringSettlingTime(&s, 0, 0, 1e-3, 1e-3, &T), mtwn_success);
    EXPECT_EQ(T, 0.0);
    ASSERT_EQ(mtwnComputeSpringSettlingTime(&u, 1, 0, 1e-3, 1e-3, &T), mtwn_success);
    EXPECT_EQ(T, INFINITY);
    ASSERT_EQ(mtwnComputeSpringSettlingTime(&u, 1e-4, 0, 1e-3, 1, &T), mtwn_success);
    EXPECT_EQ(T, 0.0);
    // Tolerances: above 0; the least subnormal is fine (later, finite), infinity is no bound.
    EXPECT_EQ(mtwnComputeSpringSettlingTime(&s, 1, 0, 0.0, 1, &T), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeSpringSettlingTime(&s, 1, 0, 1, 0.0, &T), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeSpringSettlingTime(&s, 1, 0, NAN, 1, &T), mtwn_errorInvalid);
    ASSERT_EQ(mtwnComputeSpringSettlingTime(&s, 1, 0, 0x1p-1074, 0x1p-1074, &T), mtwn_success);
    EXPECT_TRUE(std::isfinite(T));
    double x, v;
    ASSERT_EQ(mtwnSampleSpring(&s, 1, 0, T, &x, &v), mtwn_success);
    EXPECT_EQ(x, 0.0);
    ASSERT_EQ(mtwnComputeSpringSettlingTime(&s, 1, 0, INFINITY, INFINITY, &T), mtwn_success);
    EXPECT_EQ(T, 0.0);
    EXPECT_EQ(mtwnComputeSpringSettlingTime(nullptr, 1, 0, 1, 1, &T), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeSpringSettlingTime(&s, 1, 0, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeSpringSettlingTime(&s, INFINITY, 0, 1, 1, &T), mtwn_errorInvalid);
}

// ---- spring easings ----

TEST(SpringEasing, ExactEndsAndShape) {
    mtwnSpring s = Freq(2.0, 0.4);
    mtwnEasing e;
    ASSERT_EQ(mtwnMakeSpringEasing(&s, 1.0, 0.0, mtwn_easeIn, &e), mtwn_success);
    double y;
    ASSERT_EQ(mtwnSampleEasing(&e, 0.0, false, &y), mtwn_success);
    EXPECT_EQ(y, 0.0);
    ASSERT_EQ(mtwnSampleEasing(&e, 1.0, false, &y), mtwn_success);
    EXPECT_EQ(y, 1.0);
    double xd = X(s, -1.0, 0.0, 1.0);
    for (double p : {0.1, 0.25, 0.5, 0.8}) {
        ASSERT_EQ(mtwnSampleEasing(&e, p, false, &y), mtwn_success);
        EXPECT_NEAR(y, (1.0 + X(s, -1.0, 0.0, p)) / (1.0 + xd), 1e-14) << p;
    }
    ASSERT_EQ(mtwnSampleEasing(&e, 2.0, false, &y), mtwn_success);  // clamped
    EXPECT_EQ(y, 1.0);
    bool mono = true;
    ASSERT_EQ(mtwnIsEasingMonotonic(&e, &mono), mtwn_success);
    EXPECT_FALSE(mono);
    // Modes apply around it.
    mtwnEasing out;
    ASSERT_EQ(mtwnMakeSpringEasing(&s, 1.0, 0.0, mtwn_easeOut, &out), mtwn_success);
    double yo;
    ASSERT_EQ(mtwnSampleEasing(&out, 0.3, false, &yo), mtwn_success);
    ASSERT_EQ(mtwnSampleEasing(&e, 0.7, false, &y), mtwn_success);
    EXPECT_EQ(yo, 1.0 - y);
    // With a start velocity.
    ASSERT_EQ(mtwnMakeSpringEasing(&s, 0.5, 3.0, mtwn_easeIn, &e), mtwn_success);
    ASSERT_EQ(mtwnSampleEasing(&e, 0.5, false, &y), mtwn_success);
    EXPECT_NEAR(y, (1.0 + X(s, -1.0, 3.0, 0.25)) / (1.0 + X(s, -1.0, 3.0, 0.5)), 1e-14);
}

TEST(SpringEasing, Refusals) {
    mtwnSpring s = Freq(2.0, 0.4);
    mtwnEasing e;
    EXPECT_EQ(mtwnMakeSpringEasing(nullptr, 1, 0, mtwn_easeIn, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringEasing(&s, 1, 0, mtwn_easeIn, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringEasing(&s, 1, 0, (mtwnEaseMode)4, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringEasing(&s, 0, 0, mtwn_easeIn, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringEasing(&s, INFINITY, 0, mtwn_easeIn, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringEasing(&s, 1, NAN, mtwn_easeIn, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringEasing(&s, 1, std::nextafter(R, INFINITY), mtwn_easeIn, &e), mtwn_errorInvalid);
    mtwnSpring bad = s;
    bad.zeta = -1;
    EXPECT_EQ(mtwnMakeSpringEasing(&bad, 1, 0, mtwn_easeIn, &e), mtwn_errorInvalid);
    // Back at its start at the duration: undamped, one full period, no velocity.
    mtwnSpring u = Freq(1.0, 0.0);
    EXPECT_EQ(mtwnMakeSpringEasing(&u, 1.0, 0.0, mtwn_easeIn, &e), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeSpringEasing(&u, 0.75, 0.0, mtwn_easeIn, &e), mtwn_success);
    // The period: q omega D at most 2 pi 1024 (2^-10 of the duration), either side.
    mtwnSpring one;
    ASSERT_EQ(mtwnMakeSpring(1, 0, 1, &one), mtwn_success);  // omega 1, zeta 0, q 1
    double D = kTwoPi * 1024;
    EXPECT_EQ(mtwnMakeSpringEasing(&one, D * 0.9999, 0.0, mtwn_easeIn, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeSpringEasing(&one, std::nextafter(D, INFINITY), 0.0, mtwn_easeIn, &e), mtwn_errorInvalid);
    // omega D: below 2^512 (overdamped, which oscillates never).
    mtwnSpring over;
    ASSERT_EQ(mtwnMakeSpring(0x1p1022, 0x1p512, 1, &over), mtwn_success);  // omega 2^511, zeta 2
    EXPECT_EQ(mtwnMakeSpringEasing(&over, std::nextafter(2.0, 0.0), 0.0, mtwn_easeIn, &e), mtwn_success);
    EXPECT_EQ(mtwnMakeSpringEasing(&over, 2.0, 0.0, mtwn_easeIn, &e), mtwn_errorInvalid);
    // Eased progress past the doubles: a start velocity that brings it back to within
    // 1e-300 of its start at the duration.
    mtwnSpring c = Freq(1.0, 1.0);
    // Critical: 1 + x(D) = 1 - (1 + (w - v0/w... solve x(D) = -1 + tiny: (-1 + (v0 - w) D) e^-wD = -1 -> v0 = w + (1 - e^wD)/D.
    double w = kTwoPi, Dd = 0.5;
    double v0 = w + (1.0 - std::exp(w * Dd)) / Dd;
    mtwnResult r = mtwnMakeSpringEasing(&c, Dd, v0, mtwn_easeIn, &e);
    if (r == mtwn_success) {
        double y;
        for (double p = 0; p <= 1.0; p += 1.0 / 64) {
            ASSERT_EQ(mtwnSampleEasing(&e, p, false, &y), mtwn_success);
            EXPECT_TRUE(std::isfinite(y));
        }
    }
}

// A hand-made spring easing outside mtwnMakeSpringEasing's ranges is refused by
// every function taking an easing, not sampled as linear.
TEST(SpringEasing, HandMadeOutsideTheMakersRangesIsRefused) {
    mtwnSpring s = Freq(1.0, 0.5);
    mtwnEasing good;
    ASSERT_EQ(mtwnMakeSpringEasing(&s, 1.0, 2.0, mtwn_easeIn, &good), mtwn_success);
    double y;
    bool monotonic;
    ASSERT_EQ(mtwnSampleEasing(&good, 0.5, false, &y), mtwn_success);

    auto refused = [&](void (*change)(mtwnEasing&)) {
        mtwnEasing e = good;
        change(e);
        double v;
        bool m;
        mtwnEasing moded = e;
        return mtwnSampleEasing(&e, 0.5, false, &v) == mtwn_errorInvalid &&
               mtwnIsEasingMonotonic(&e, &m) == mtwn_errorInvalid &&
               mtwnSetEaseMode(&moded, mtwn_easeOut) == mtwn_errorInvalid;
    };
    // Each of these is finite, which was all the old check asked.
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[0] = 0.0; }));             // omega duration 0
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[0] = -1.0; }));            // negative
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[0] = 0x1p512; }));         // its square past the doubles
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[0] = 1e6; }));             // oscillating faster than 2^-10
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[1] = -0.5; }));            // damping ratio below 0
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[1] = 2e6; }));             // past MTWN_MAX_DAMPING_RATIO
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[2] = 0x1p1001; }));        // velocity past MTWN_MAX_REACH
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[3] = 0.0; }));             // back at its start
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[3] = 1e-320; }));          // eased progress past the doubles
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[4] = 1.0; }));             // an unused param not 0
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[7] = -0.25; }));
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[0] = NAN; }));             // and not finite, as before
    EXPECT_TRUE(refused([](mtwnEasing& e) { e.params[2] = INFINITY; }));

    // What the makers write stays valid, at the edges of their ranges too.
    const struct {
        double hertz, ratio, duration, velocity;
    } made[] = {{1.0, 0.0, 0.3, 0.0}, {1.0, 1.0, 1.0, 0.0}, {0.5, 3.0, 2.0, -4.0}, {1.0, 1e6, 1.0, 0.0},
                {1.0, 0.5, 0.99 * 1024.0 / std::sqrt(0.75), 0.0}};
    for (const auto& m : made) {
        mtwnSpring sp = Freq(m.hertz, m.ratio);
        mtwnEasing e;
        ASSERT_EQ(mtwnMakeSpringEasing(&sp, m.duration, m.velocity, mtwn_easeInOut, &e), mtwn_success)
            << m.hertz << " " << m.ratio << " " << m.duration;
        EXPECT_EQ(mtwnSampleEasing(&e, 0.25, false, &y), mtwn_success);
        EXPECT_EQ(mtwnIsEasingMonotonic(&e, &monotonic), mtwn_success);
    }
}

// ---- decay ----

TEST(Decay, Formulas) {
    mtwnDecay d;
    double p, v;
    ASSERT_EQ(mtwnMakeDecay(2.0, &d), mtwn_success);
    ASSERT_EQ(mtwnSampleDecay(&d, 1.0, 10.0, 0.5, &p, &v), mtwn_success);
    EXPECT_NEAR(p, 1.0 + 10.0 * (1.0 - std::exp(-1.0)) / 2.0, 1e-15);
    EXPECT_NEAR(v, 10.0 * std::exp(-1.0), 1e-14);
    ASSERT_EQ(mtwnSampleDecay(&d, 1.0, 10.0, INFINITY, &p, &v), mtwn_success);
    EXPECT_EQ(p, 6.0);
    EXPECT_EQ(v, 0.0);
    ASSERT_EQ(mtwnSampleDecay(&d, 1.0, 10.0, 0.0, &p, &v), mtwn_success);
    EXPECT_EQ(p, 1.0);
    EXPECT_EQ(v, 10.0);
    // iOS: 0.998 a millisecond is -1000 ln 0.998 = 2.002002670673...
    ASSERT_EQ(mtwnMakeDecayFromDeceleration(0.998, &d), mtwn_success);
    EXPECT_NEAR(d.rate, -1000.0 * std::log(0.998), 1e-12);
    EXPECT_NEAR(d.rate, 2.0020026706730793, 1e-12);
    // Stop time: |v| e^-kt = s.
    double t;
    ASSERT_EQ(mtwnMakeDecay(std::log(10.0), &d), mtwn_success);
    ASSERT_EQ(mtwnComputeDecayStopTime(&d, -1000.0, 1.0, &t), mtwn_success);
    EXPECT_NEAR(t, 3.0, 1e-14);
    ASSERT_EQ(mtwnComputeDecayStopTime(&d, 0.5, 1.0, &t), mtwn_success);
    EXPECT_EQ(t, 0.0);
    ASSERT_EQ(mtwnComputeDecayStopTime(&d, 0.5, INFINITY, &t), mtwn_success);
    EXPECT_EQ(t, 0.0);
    // Crossing: halfway to the rest is at ln 2 / k.
    ASSERT_EQ(mtwnMakeDecay(3.0, &d), mtwn_success);
    ASSERT_EQ(mtwnComputeDecayCrossingTime(&d, 0.0, 6.0, 1.0, &t), mtwn_success);
    EXPECT_NEAR(t, std::log(2.0) / 3.0, 1e-15);
    ASSERT_EQ(mtwnComputeDecayCrossingTime(&d, 0.0, -6.0, -1.0, &t), mtwn_success);
    EXPECT_NEAR(t, std::log(2.0) / 3.0, 1e-15);
    ASSERT_EQ(mtwnComputeDecayCrossingTime(&d, 0.0, 6.0, 2.0, &t), mtwn_success);  // the rest
    EXPECT_EQ(t, INFINITY);
    ASSERT_EQ(mtwnComputeDecayCrossingTime(&d, 0.0, 6.0, -1.0, &t), mtwn_success);  // behind
    EXPECT_EQ(t, INFINITY);
    ASSERT_EQ(mtwnComputeDecayCrossingTime(&d, 0.0, 0.0, 1.0, &t), mtwn_success);
    EXPECT_EQ(t, INFINITY);
    ASSERT_EQ(mtwnComputeDecayCrossingTime(&d, 1.0, 0.0, 1.0, &t), mtwn_success);
    EXPECT_EQ(t, 0.0);
    // At the crossing time the sample is at the target.
    ASSERT_EQ(mtwnComputeDecayCrossingTime(&d, 0.5, 6.0, 2.0, &t), mtwn_success);
    ASSERT_EQ(mtwnSampleDecay(&d, 0.5, 6.0, t, &p, &v), mtwn_success);
    EXPECT_NEAR(p, 2.0, 1e-15);
    // To rest: rate v / (end - p); its rest is the end exactly here.
    ASSERT_EQ(mtwnMakeDecayToRest(0.0, 10.0, 5.0, &d), mtwn_success);
    EXPECT_EQ(d.rate, 2.0);
    ASSERT_EQ(mtwnSampleDecay(&d, 0.0, 10.0, INFINITY, &p, &v), mtwn_success);
    EXPECT_EQ(p, 5.0);
}

TEST(Decay, Ranges) {
    mtwnDecay d;
    double p, v, t;
    EXPECT_EQ(mtwnMakeDecay(1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecay(0, &d), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecay(0x1p-1074, &d), mtwn_success);
    EXPECT_EQ(mtwnMakeDecay(DBL_MAX, &d), mtwn_success);
    EXPECT_EQ(mtwnMakeDecay(INFINITY, &d), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecay(NAN, &d), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecayFromDeceleration(0.0, &d), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecayFromDeceleration(0x1p-1074, &d), mtwn_success);
    EXPECT_EQ(mtwnMakeDecayFromDeceleration(std::nextafter(1.0, 0.0), &d), mtwn_success);
    EXPECT_GT(d.rate, 0.0);
    EXPECT_EQ(mtwnMakeDecayFromDeceleration(1.0, &d), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecayFromDeceleration(0.5, nullptr), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeDecay(0.5, &d), mtwn_success);
    EXPECT_EQ(mtwnSampleDecay(nullptr, 0, 1, 1, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleDecay(&d, 0, 1, -0x1p-1074, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleDecay(&d, 0, 1, NAN, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleDecay(&d, R, R * 0.5, 1, &p, &v), mtwn_success);
    EXPECT_EQ(mtwnSampleDecay(&d, 0, std::nextafter(R * 0.5, INFINITY), 1, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleDecay(&d, std::nextafter(R, INFINITY), 0, 1, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleDecay(&d, 0, 1, 1, nullptr, nullptr), mtwn_success);
    mtwnDecay bad = d;
    bad.cookie = 1;
    EXPECT_EQ(mtwnSampleDecay(&bad, 0, 1, 1, &p, &v), mtwn_errorInvalid);
    bad = d;
    bad.rate = -1;
    EXPECT_EQ(mtwnComputeDecayStopTime(&bad, 1, 1, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeDecayStopTime(&d, 1, 0.0, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeDecayStopTime(&d, 1, 0x1p-1074, &t), mtwn_success);
    EXPECT_EQ(mtwnComputeDecayStopTime(&d, R, 1, &t), mtwn_success);
    EXPECT_EQ(mtwnComputeDecayStopTime(&d, std::nextafter(R, INFINITY), 1, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeDecayStopTime(nullptr, 1, 1, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeDecayStopTime(&d, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeDecayCrossingTime(&d, 0, 1, INFINITY, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeDecayCrossingTime(&d, 0, 1, DBL_MAX, &t), mtwn_success);
    EXPECT_EQ(mtwnComputeDecayCrossingTime(&d, NAN, 1, 1, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeDecayCrossingTime(nullptr, 0, 1, 1, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeDecayCrossingTime(&d, 0, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecayToRest(0, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecayToRest(0, 1, 0, &d), mtwn_errorInvalid);   // at it
    EXPECT_EQ(mtwnMakeDecayToRest(0, 1, -1, &d), mtwn_errorInvalid);  // behind
    EXPECT_EQ(mtwnMakeDecayToRest(0, 0, 1, &d), mtwn_errorInvalid);   // no velocity
    EXPECT_EQ(mtwnMakeDecayToRest(0, -1, -1, &d), mtwn_success);
    EXPECT_EQ(mtwnMakeDecayToRest(0, NAN, 1, &d), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeDecayToRest(0, DBL_MAX, 0x1p-1074, &d), mtwn_errorInvalid);  // rate overflows
    EXPECT_EQ(mtwnMakeDecayToRest(0, 1.0, 0x1p-1020, &d), mtwn_success);
    EXPECT_EQ(mtwnMakeDecayToRest(0, 0x1p-1074, DBL_MAX, &d), mtwn_errorInvalid);  // underflows to 0
    EXPECT_EQ(mtwnMakeDecayToRest(-DBL_MAX, 1, DBL_MAX, &d), mtwn_errorInvalid);    // distance past the doubles
}

// ---- bounded decay ----

TEST(BoundedDecay, CoastThenSpring) {
    mtwnDecay d;
    mtwnBoundedDecay b;
    mtwnSpring s = Freq(2.0, 1.0);
    ASSERT_EQ(mtwnMakeDecay(2.0, &d), mtwn_success);
    ASSERT_EQ(mtwnMakeBoundedDecay(&d, &s, -INFINITY, 3.0, &b), mtwn_success);
    // From 0 at 10/s the rest would be 5: it crosses 3 at tc = -ln(1 - 3 * 2 / 10) / 2.
    double tc = -std::log(1.0 - 0.6) / 2.0;
    double p, v, p2, v2;
    ASSERT_EQ(mtwnSampleBoundedDecay(&b, 0.0, 10.0, tc * 0.5, &p, &v), mtwn_success);
    ASSERT_EQ(mtwnSampleDecay(&d, 0.0, 10.0, tc * 0.5, &p2, &v2), mtwn_success);
    EXPECT_EQ(p, p2);
    EXPECT_EQ(v, v2);
    double vc = 10.0 * std::exp(-2.0 * tc);
    ASSERT_EQ(mtwnSampleBoundedDecay(&b, 0.0, 10.0, tc + 0.2, &p, &v), mtwn_success);
    double x = X(s, 0.0, vc, 0.2, &v2);
    EXPECT_NEAR(p, 3.0 + x, 1e-13);
    EXPECT_NEAR(v, v2, 1e-12);
    EXPECT_GT(p, 3.0);  // overshoots the bound, then springs back
    ASSERT_EQ(mtwnSampleBoundedDecay(&b, 0.0, 10.0, INFINITY, &p, &v), mtwn_success);
    EXPECT_EQ(p, 3.0);
    // Continuity at the handover.
    double pa, pb;
    ASSERT_EQ(mtwnSampleBoundedDecay(&b, 0.0, 10.0, std::nextafter(tc, 0.0), &pa, &v), mtwn_success);
    ASSERT_EQ(mtwnSampleBoundedDecay(&b, 0.0, 10.0, tc + 1e-12, &pb, &v), mtwn_success);
    EXPECT_NEAR(pa, pb, 1e-10);
    // Moving away from the bound: a plain coast.
    ASSERT_EQ(mtwnSampleBoundedDecay(&b, 0.0, -10.0, 1.0, &p, &v), mtwn_success);
    ASSERT_EQ(mtwnSampleDecay(&d, 0.0, -10.0, 1.0, &p2, &v2), mtwn_success);
    EXPECT_EQ(p, p2);
    // Outside: the spring at once.
    ASSERT_EQ(mtwnSampleBoundedDecay(&b, 4.0, 1.0, 0.3, &p, &v), mtwn_success);
    EXPECT_NEAR(p, 3.0 + X(s, 1.0, 1.0, 0.3), 1e-15);
    // Stop times: coast, or crossing plus settling.
    double t, ts;
    ASSERT_EQ(mtwnComputeBoundedDecayStopTime(&b, 0.0, -10.0, 1e-3, 0.1, &t), mtwn_success);
    EXPECT_NEAR(t, std::log(100.0) / 2.0, 1e-14);
    ASSERT_EQ(mtwnComputeBoundedDecayStopTime(&b, 0.0, 10.0, 1e-3, 0.1, &t), mtwn_success);
    ASSERT_EQ(mtwnComputeSpringSettlingTime(&s, 0.0, vc, 1e-3, 0.1, &ts), mtwn_success);
    EXPECT_NEAR(t, tc + ts, 1e-14);
    ASSERT_EQ(mtwnComputeBoundedDecayStopTime(&b, 4.0, 1.0, 1e-3, 0.1, &t), mtwn_success);
    ASSERT_EQ(mtwnComputeSpringSettlingTime(&s, 1.0, 1.0, 1e-3, 0.1, &ts), mtwn_success);
    EXPECT_EQ(t, ts);
}

TEST(BoundedDecay, Ranges) {
    mtwnDecay d;
    mtwnBoundedDecay b;
    mtwnSpring s = Freq(2.0, 1.0), u = Freq(2.0, 0.0);
    double p, v, t;
    ASSERT_EQ(mtwnMakeDecay(2.0, &d), mtwn_success);
    EXPECT_EQ(mtwnMakeBoundedDecay(nullptr, &s, 0, 1, &b), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, nullptr, 0, 1, &b), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &s, 0, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &s, NAN, 1, &b), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &s, 0, NAN, &b), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &s, 1, 0, &b), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &s, 1, 1, &b), mtwn_success);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &s, INFINITY, INFINITY, &b), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &s, -INFINITY, -INFINITY, &b), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &s, -INFINITY, INFINITY, &b), mtwn_success);
    mtwnDecay badD = d;
    badD.reserved = 2;
    EXPECT_EQ(mtwnMakeBoundedDecay(&badD, &s, 0, 1, &b), mtwn_errorInvalid);
    mtwnSpring badS = s;
    badS.cookie = 0;
    EXPECT_EQ(mtwnMakeBoundedDecay(&d, &badS, 0, 1, &b), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeBoundedDecay(&d, &u, 0, 1, &b), mtwn_success);
    EXPECT_EQ(mtwnSampleBoundedDecay(nullptr, 0, 1, 1, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleBoundedDecay(&b, 0, 1, NAN, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleBoundedDecay(&b, 0, 1, -1, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleBoundedDecay(&b, 0, 10, INFINITY, &p, &v), mtwn_errorInvalid);  // undamped never rests
    EXPECT_EQ(mtwnSampleBoundedDecay(&b, 0, 1, INFINITY, &p, &v), mtwn_success);        // never reaches 1
    EXPECT_EQ(mtwnSampleBoundedDecay(&b, std::nextafter(R, INFINITY), 0, 1, &p, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleBoundedDecay(&b, R, 0, 1, &p, &v), mtwn_errorInvalid);  // offset from the bound times omega
    EXPECT_EQ(mtwnSampleBoundedDecay(&b, 0, 1, 1, nullptr, nullptr), mtwn_success);
    mtwnBoundedDecay bad = b;
    bad.lower = 2;
    EXPECT_EQ(mtwnSampleBoundedDecay(&bad, 0, 1, 1, &p, &v), mtwn_errorInvalid);
    bad = b;
    bad.cookie = 0;
    EXPECT_EQ(mtwnComputeBoundedDecayStopTime(&bad, 0, 1, 1, 1, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeBoundedDecayStopTime(&b, 0, 1, 0, 1, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeBoundedDecayStopTime(&b, 0, 1, 1, 0, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeBoundedDecayStopTime(&b, 0, 1, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeBoundedDecayStopTime(nullptr, 0, 1, 1, 1, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeBoundedDecayStopTime(&b, NAN, 1, 1, 1, &t), mtwn_errorInvalid);
    ASSERT_EQ(mtwnComputeBoundedDecayStopTime(&b, 0, 10, 1e-3, 1e-3, &t), mtwn_success);
    EXPECT_EQ(t, INFINITY);  // an undamped spring takes over
}

// ---- rubber band ----

TEST(RubberBand, AppleFormula) {
    double o, x;
    ASSERT_EQ(mtwnApplyRubberBand(100.0, 300.0, 0.55, &o), mtwn_success);
    EXPECT_NEAR(o, 0.55 * 100 * 300 / (0.55 * 100 + 300), 1e-13);
    ASSERT_EQ(mtwnApplyRubberBand(-100.0, 300.0, 0.55, &o), mtwn_success);
    EXPECT_NEAR(o, -0.55 * 100 * 300 / (0.55 * 100 + 300), 1e-13);
    ASSERT_EQ(mtwnApplyRubberBand(1e-9, 300.0, 0.55, &o), mtwn_success);
    EXPECT_NEAR(o, 0.55e-9, 1e-20);  // slope c at the limit
    ASSERT_EQ(mtwnApplyRubberBand(1e6, 300.0, 0.55, &o), mtwn_success);
    EXPECT_LT(o, 300.0);
    ASSERT_EQ(mtwnApplyRubberBand(DBL_MAX, 300.0, 2.0, &o), mtwn_success);
    EXPECT_LE(o, 300.0);
    ASSERT_EQ(mtwnApplyRubberBand(0.0, 300.0, 0.55, &o), mtwn_success);
    EXPECT_EQ(o, 0.0);
    for (double d : {-250.0, -3.0, 0.5, 17.0, 1234.0}) {
        ASSERT_EQ(mtwnApplyRubberBand(d, 300.0, 0.55, &o), mtwn_success);
        ASSERT_EQ(mtwnInvertRubberBand(o, 300.0, 0.55, &x), mtwn_success);
        EXPECT_NEAR(x, d, 1e-12 * std::fabs(d));
    }
}

TEST(RubberBand, Ranges) {
    double o;
    EXPECT_EQ(mtwnApplyRubberBand(1, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnApplyRubberBand(INFINITY, 1, 1, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnApplyRubberBand(1, 0, 1, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnApplyRubberBand(1, 0x1p-1074, 1, &o), mtwn_success);
    EXPECT_EQ(mtwnApplyRubberBand(1, 1, 0, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnApplyRubberBand(1, 1, 0x1p-1074, &o), mtwn_success);
    EXPECT_EQ(mtwnApplyRubberBand(1, 1, INFINITY, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnApplyRubberBand(1, INFINITY, 1, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnInvertRubberBand(1, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnInvertRubberBand(1.0, 1.0, 1.0, &o), mtwn_errorInvalid);  // |o| not below d
    EXPECT_EQ(mtwnInvertRubberBand(-1.0, 1.0, 1.0, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnInvertRubberBand(std::nextafter(1.0, 0.0), 1.0, 1.0, &o), mtwn_success);
    EXPECT_EQ(mtwnInvertRubberBand(0.5, 0.0, 1.0, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnInvertRubberBand(0.5, 1.0, 0.0, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnInvertRubberBand(NAN, 1.0, 1.0, &o), mtwn_errorInvalid);
    // A drag that comes out past the doubles is refused, a large finite one is not.
    EXPECT_EQ(mtwnInvertRubberBand(std::nextafter(1e300, 0.0) , 1e300, 1e-300, &o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnInvertRubberBand(0.5e300, 1e300, 1e-3, &o), mtwn_success);
}

}  // namespace
