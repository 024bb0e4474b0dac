// Tests of path.h: segments, constant speed, SVG 2 / CSS directions, tracks.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "maul/tween/easing.h"
#include "maul/tween/path.h"

namespace {

const double kPi = 3.141592653589793;

mtwnKeyframe K(double offset, double x, double y = 0, mtwnSegmentKind kind = mtwn_segmentLinear) {
    mtwnKeyframe k;
    std::memset(&k, 0, sizeof k);
    k.offset = offset;
    k.value[0] = x;
    k.value[1] = y;
    k.kind = (uint32_t)kind;
    k.easing = mtwnMakeLinearEasing();
    return k;
}

TEST(Path, LinearAndStep) {
    std::vector<mtwnKeyframe> k = {K(0, 0, 0), K(0.5, 10, 20, mtwn_segmentStep), K(1, 30, 40)};
    mtwnPath p;
    double v[4], t[4];
    ASSERT_EQ(mtwnMakePath(k.data(), 3, 2, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnSamplePath(&p, 0.25, v, t), mtwn_success);
    EXPECT_EQ(v[0], 5.0);
    EXPECT_EQ(v[1], 10.0);
    EXPECT_EQ(v[2], 0.0);
    EXPECT_EQ(t[0], 10.0);
    ASSERT_EQ(mtwnSamplePath(&p, 0.5, v, nullptr), mtwn_success);  // at a keyframe: the later segment
    EXPECT_EQ(v[0], 10.0);
    ASSERT_EQ(mtwnSamplePath(&p, 0.99, v, t), mtwn_success);  // step holds
    EXPECT_EQ(v[0], 10.0);
    EXPECT_EQ(t[0], 0.0);
    ASSERT_EQ(mtwnSamplePath(&p, 1.0, v, t), mtwn_success);
    EXPECT_EQ(v[0], 30.0);
    ASSERT_EQ(mtwnSamplePath(&p, -0.5, v, t), mtwn_success);  // first segment extended
    EXPECT_EQ(v[0], -10.0);
    // An eased segment.
    k[0].easing = mtwnMakeLinearEasing();
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2.0, &k[0].easing), mtwn_success);
    ASSERT_EQ(mtwnMakePath(k.data(), 3, 2, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnSamplePath(&p, 0.25, v, nullptr), mtwn_success);
    EXPECT_EQ(v[0], 2.5);
    // One keyframe: a constant.
    ASSERT_EQ(mtwnMakePath(k.data(), 1, 2, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnSamplePath(&p, 7.0, v, t), mtwn_success);
    EXPECT_EQ(v[0], 0.0);
    // Equal offsets: the later keyframe from that progress on.
    std::vector<mtwnKeyframe> j = {K(0, 0), K(0.5, 1), K(0.5, 5), K(1, 6)};
    ASSERT_EQ(mtwnMakePath(j.data(), 4, 1, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnSamplePath(&p, 0.5, v, nullptr), mtwn_success);
    EXPECT_EQ(v[0], 5.0);
}

void DeCasteljau(const double p[4][2], double u, double out[2]) {
    for (int c = 0; c < 2; ++c) {
        double a = p[0][c] + (p[1][c] - p[0][c]) * u, b = p[1][c] + (p[2][c] - p[1][c]) * u,
               d = p[2][c] + (p[3][c] - p[2][c]) * u;
        double e = a + (b - a) * u, f = b + (d - b) * u;
        out[c] = e + (f - e) * u;
    }
}

TEST(Path, BezierMatchesDeCasteljau) {
    std::vector<mtwnKeyframe> k = {K(0, 0, 0, mtwn_segmentBezier), K(1, 4, 0)};
    k[0].outControl[0] = 1;
    k[0].outControl[1] = 3;
    k[1].inControl[0] = 5;
    k[1].inControl[1] = -2;
    const double P[4][2] = {{0, 0}, {1, 3}, {5, -2}, {4, 0}};
    mtwnPath p;
    ASSERT_EQ(mtwnMakePath(k.data(), 2, 2, 0.5, nullptr, &p), mtwn_success);
    for (double u : {0.0, 0.1, 0.33, 0.5, 0.9, 1.0}) {
        double v[4], r[2];
        ASSERT_EQ(mtwnSamplePath(&p, u, v, nullptr), mtwn_success);
        DeCasteljau(P, u, r);
        EXPECT_NEAR(v[0], r[0], 1e-14);
        EXPECT_NEAR(v[1], r[1], 1e-14);
    }
}

// Barry and Goldman's pyramid for a Catmull-Rom segment, a second implementation.
void BarryGoldman(const double P[4][2], double alpha, double u, double out[2]) {
    double t[4] = {0, 0, 0, 0};
    for (int i = 1; i < 4; ++i) {
        double dx = P[i][0] - P[i - 1][0], dy = P[i][1] - P[i - 1][1];
        t[i] = t[i - 1] + std::pow(dx * dx + dy * dy, alpha / 2);
    }
    double tt = t[1] + (t[2] - t[1]) * u;
    for (int c = 0; c < 2; ++c) {
        double A1 = ((t[1] - tt) * P[0][c] + (tt - t[0]) * P[1][c]) / (t[1] - t[0]);
        double A2 = ((t[2] - tt) * P[1][c] + (tt - t[1]) * P[2][c]) / (t[2] - t[1]);
        double A3 = ((t[3] - tt) * P[2][c] + (tt - t[2]) * P[3][c]) / (t[3] - t[2]);
        double B1 = ((t[2] - tt) * A1 + (tt - t[0]) * A2) / (t[2] - t[0]);
        double B2 = ((t[3] - tt) * A2 + (tt - t[1]) * A3) / (t[3] - t[1]);
        out[c] = ((t[2] - tt) * B1 + (tt - t[1]) * B2) / (t[2] - t[1]);
    }
}

TEST(Path, CatmullRomIsBarryGoldman) {
    const double P[4][2] = {{0, 0}, {1, 0.1}, {1.2, 3}, {5, 3.3}};
    for (double alpha : {0.0, 0.5, 1.0}) {
        std::vector<mtwnKeyframe> k;
        for (int i = 0; i < 4; ++i) k.push_back(K(i / 3.0, P[i][0], P[i][1], mtwn_segmentCatmullRom));
        mtwnPath p;
        ASSERT_EQ(mtwnMakePath(k.data(), 4, 2, alpha, nullptr, &p), mtwn_success);
        for (double u : {0.0, 0.2, 0.5, 0.77, 1.0}) {
            double v[4], r[2];
            ASSERT_EQ(mtwnSamplePath(&p, (1.0 + u) / 3.0, v, nullptr), mtwn_success);
            BarryGoldman(P, alpha, u, r);
            EXPECT_NEAR(v[0], r[0], 1e-13) << alpha << " " << u;
            EXPECT_NEAR(v[1], r[1], 1e-13) << alpha << " " << u;
        }
        // It passes through every keyframe exactly.
        double v[4];
        ASSERT_EQ(mtwnSamplePath(&p, 2.0 / 3.0, v, nullptr), mtwn_success);
        EXPECT_EQ(v[0], 1.2);
        EXPECT_EQ(v[1], 3.0);
    }
    // Centripetal: no cusp or loop for the classic case of a close middle pair,
    // where uniform Catmull-Rom loops (its x goes backwards).
    const double Q[4][2] = {{0, 0}, {1, 1}, {1.1, 1}, {2, 0}};
    for (double alpha : {0.0, 0.5}) {
        std::vector<mtwnKeyframe> k;
        for (int i = 0; i < 4; ++i) k.push_back(K(i / 3.0, Q[i][0], Q[i][1], mtwn_segmentCatmullRom));
        mtwnPath p;
        ASSERT_EQ(mtwnMakePath(k.data(), 4, 2, alpha, nullptr, &p), mtwn_success);
        bool backwards = false;
        for (int i = 0; i <= 100; ++i) {
            double v[4], t[4];
            ASSERT_EQ(mtwnSamplePath(&p, (1.0 + i / 100.0) / 3.0, v, t), mtwn_success);
            if (t[0] < 0) backwards = true;
        }
        EXPECT_EQ(backwards, alpha == 0.0);
    }
}

TEST(Path, ConstantSpeedLengths) {
    // A line in three pieces: lengths exact, the middle of the length at the middle.
    std::vector<mtwnKeyframe> k = {K(0, 0, 0), K(0.9, 3, 4), K(0.95, 3, 4, mtwn_segmentStep), K(1, 6, 8)};
    double L[4];
    mtwnPath p;
    ASSERT_EQ(mtwnMakePath(k.data(), 4, 2, 0.5, L, &p), mtwn_success);
    EXPECT_EQ(L[0], 0.0);
    EXPECT_EQ(L[1], 5.0);
    EXPECT_EQ(L[2], 5.0);
    EXPECT_EQ(L[3], 5.0);  // a step has no length
    // A parabola as a cubic Bezier: quadratic (0,0), (1,2), (2,0); its length in closed form.
    std::vector<mtwnKeyframe> b = {K(0, 0, 0, mtwn_segmentBezier), K(1, 2, 0)};
    b[0].outControl[0] = 2.0 / 3;
    b[0].outControl[1] = 4.0 / 3;
    b[1].inControl[0] = 4.0 / 3;
    b[1].inControl[1] = 4.0 / 3;
    double Lb[2];
    ASSERT_EQ(mtwnMakePath(b.data(), 2, 2, 0.5, Lb, &p), mtwn_success);
    // B(u) = (2u, 4u - 4u^2), |B'| = 2 sqrt(1 + (2 - 4u)^2): length = (1/2)(s sqrt(1+s^2) + asinh s)|_{-2}^{2} / 2 * 2
    double s = 2.0, exact = 0.5 * (s * std::sqrt(1 + s * s) + std::asinh(s));
    EXPECT_NEAR(Lb[1], exact, 1e-11 * exact);
    // At constant speed, the point at half the length is at x = 1 (symmetry); a quarter by the closed form.
    double v[4];
    ASSERT_EQ(mtwnSamplePath(&p, 0.5, v, nullptr), mtwn_success);
    EXPECT_NEAR(v[0], 1.0, 1e-11);
    ASSERT_EQ(mtwnSamplePath(&p, 0.0, v, nullptr), mtwn_success);
    EXPECT_EQ(v[0], 0.0);
    ASSERT_EQ(mtwnSamplePath(&p, 1.0, v, nullptr), mtwn_success);
    EXPECT_EQ(v[0], 2.0);
    // Equal steps of length give equal chords along a symmetric curve: arc(0, u(q)) = q L.
    for (double q : {0.1, 0.3, 0.45}) {
        ASSERT_EQ(mtwnSamplePath(&p, q, v, nullptr), mtwn_success);
        double u = v[0] / 2.0, a = 2.0 - 4.0 * u;
        double arc = 0.5 * ((2 * std::sqrt(5.0) + std::asinh(2.0)) - (a * std::sqrt(1 + a * a) + std::asinh(a))) / 2;
        EXPECT_NEAR(arc, q * exact, 1e-11 * exact) << q;
    }
}

TEST(Path, DirectionsAsSvg2) {
    double d[4], a;
    mtwnPath p;
    std::vector<mtwnKeyframe> k = {K(0, 0, 0), K(1, 0, 5)};
    ASSERT_EQ(mtwnMakePath(k.data(), 2, 2, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnComputePathDirection(&p, 0.3, d), mtwn_success);
    EXPECT_EQ(d[0], 0.0);
    EXPECT_EQ(d[1], 1.0);
    EXPECT_EQ(d[2], 0.0);
    ASSERT_EQ(mtwnComputePathAngle(&p, 0.3, &a), mtwn_success);
    EXPECT_NEAR(a, kPi / 2, 1e-15);
    // A Bezier control on its start: the direction is toward the next control (second derivative).
    std::vector<mtwnKeyframe> b = {K(0, 0, 0, mtwn_segmentBezier), K(1, 4, 4)};
    b[1].inControl[0] = 3;
    b[1].inControl[1] = 0;
    ASSERT_EQ(mtwnMakePath(b.data(), 2, 2, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnComputePathDirection(&p, 0.0, d), mtwn_success);
    EXPECT_NEAR(d[0], 1.0, 1e-15);
    EXPECT_NEAR(d[1], 0.0, 1e-15);
    // A cusp: both controls crossed so B'(1/2) = 0; the outgoing direction.
    std::vector<mtwnKeyframe> c = {K(0, 0, 0, mtwn_segmentBezier), K(1, 0, 0)};
    c[0].outControl[0] = 1;
    c[1].inControl[0] = -1;  // x(u) = 3u(1-u)^2 - 3u^2(1-u), symmetric... x'(1/2) = 0 with y = 0
    c[0].outControl[1] = 1;
    c[1].inControl[1] = 1;
    ASSERT_EQ(mtwnMakePath(c.data(), 2, 2, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnComputePathDirection(&p, 0.5, d), mtwn_success);
    EXPECT_NEAR(std::hypot(d[0], d[1]), 1.0, 1e-15);
    // Zero-length segments: the nearest with a length after, at its start; else before, at its end.
    std::vector<mtwnKeyframe> z = {K(0, 1, 1), K(0.3, 1, 1, mtwn_segmentStep), K(0.6, 4, 5), K(0.8, 4, 1), K(1, 4, 1)};
    ASSERT_EQ(mtwnMakePath(z.data(), 5, 2, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnComputePathDirection(&p, 0.1, d), mtwn_success);  // hold, then step: next is (4,5)->(4,1)
    EXPECT_EQ(d[0], 0.0);
    EXPECT_EQ(d[1], -1.0);
    ASSERT_EQ(mtwnComputePathDirection(&p, 0.9, d), mtwn_success);  // trailing hold: the one before, at its end
    EXPECT_EQ(d[1], -1.0);
    ASSERT_EQ(mtwnComputePathDirection(&p, 0.6, d), mtwn_success);  // at a keyframe: the later segment
    EXPECT_EQ(d[1], -1.0);
    // No length at all: along the first channel.
    std::vector<mtwnKeyframe> n = {K(0, 2, 2), K(1, 2, 2)};
    ASSERT_EQ(mtwnMakePath(n.data(), 2, 2, 0.5, nullptr, &p), mtwn_success);
    ASSERT_EQ(mtwnComputePathDirection(&p, 0.5, d), mtwn_success);
    EXPECT_EQ(d[0], 1.0);
    EXPECT_EQ(d[1], 0.0);
    ASSERT_EQ(mtwnComputePathAngle(&p, 0.5, &a), mtwn_success);
    EXPECT_EQ(a, 0.0);
    EXPECT_EQ(mtwnComputePathDirection(&p, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputePathAngle(&p, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputePathAngle(nullptr, 0.5, &a), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputePathDirection(&p, NAN, d), mtwn_errorInvalid);
}

TEST(Path, Errors) {
    std::vector<mtwnKeyframe> k = {K(0, 0), K(1, 1)};
    mtwnPath p;
    double v[4];
    EXPECT_EQ(mtwnMakePath(nullptr, 2, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePath(k.data(), 2, 1, 0.5, nullptr, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePath(k.data(), 0, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePath(k.data(), 2, 0, 0.5, nullptr, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePath(k.data(), 2, 4, 0.5, nullptr, &p), mtwn_success);
    EXPECT_EQ(mtwnMakePath(k.data(), 2, 5, 0.5, nullptr, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePath(k.data(), 2, 1, 0.0, nullptr, &p), mtwn_success);
    EXPECT_EQ(mtwnMakePath(k.data(), 2, 1, -0x1p-1074, nullptr, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePath(k.data(), 2, 1, 1.0, nullptr, &p), mtwn_success);
    EXPECT_EQ(mtwnMakePath(k.data(), 2, 1, std::nextafter(1.0, 2.0), nullptr, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePath(k.data(), MTWN_MAX_PATH_KEYFRAMES + 1, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    std::vector<mtwnKeyframe> b = k;
    b[1].offset = -0x1p-1074;  // decreasing
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    b[1].offset = 0.0;  // equal is fine
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_success);
    b = k;
    b[1].value[0] = MTWN_MAX_PATH_VALUE;
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_success);
    b[1].value[0] = std::nextafter(MTWN_MAX_PATH_VALUE, INFINITY);
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    b = k;
    b[0].inControl[0] = NAN;
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    b = k;
    b[0].kind = 4;
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    b[0].kind = 3;
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_success);
    b = k;
    b[0].reserved = 1;
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    b = k;
    b[0].easing.cookie = 0;
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_errorInvalid);
    b[1].easing.cookie = 0;  // the last's is not used
    b[0].easing = mtwnMakeLinearEasing();
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, nullptr, &p), mtwn_success);
    // Lengths unchanged on failure.
    double L[2] = {7, 7};
    b[0].kind = 9;
    EXPECT_EQ(mtwnMakePath(b.data(), 2, 1, 0.5, L, &p), mtwn_errorInvalid);
    EXPECT_EQ(L[0], 7.0);
    ASSERT_EQ(mtwnMakePath(k.data(), 2, 1, 0.5, nullptr, &p), mtwn_success);
    EXPECT_EQ(mtwnSamplePath(nullptr, 0.5, v, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSamplePath(&p, 0.5, nullptr, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSamplePath(&p, INFINITY, v, nullptr), mtwn_errorInvalid);
    mtwnPath bad = p;
    bad.cookie = 0;
    EXPECT_EQ(mtwnSamplePath(&bad, 0.5, v, nullptr), mtwn_errorInvalid);
    bad = p;
    bad.channels = 5;
    EXPECT_EQ(mtwnSamplePath(&bad, 0.5, v, nullptr), mtwn_errorInvalid);
    k[1].value[0] = NAN;  // a segment changed after the make
    EXPECT_EQ(mtwnSamplePath(&p, 0.5, v, nullptr), mtwn_errorInvalid);
}

// ---- tracks ----

TEST(Track, ScalarIntegerDiscrete) {
    std::vector<mtwnKeyframe> k = {K(0, 0), K(1, 10)};
    mtwnTrack t;
    mtwnVec4 v;
    mtwnTrackDef def = mtwnDefaultTrackDef(mtwn_valueInteger);
    ASSERT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, nullptr, &t), mtwn_success);
    ASSERT_EQ(mtwnSampleTrack(&t, 0.25, &v), mtwn_success);
    EXPECT_EQ(v.x, 3.0f);  // 2.5 away from zero
    EXPECT_EQ(v.y, 0.0f);
    def = mtwnDefaultTrackDef(mtwn_valueDiscrete);
    ASSERT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, nullptr, &t), mtwn_success);
    ASSERT_EQ(mtwnSampleTrack(&t, std::nextafter(0.5, 0.0), &v), mtwn_success);
    EXPECT_EQ(v.x, 0.0f);
    ASSERT_EQ(mtwnSampleTrack(&t, 0.5, &v), mtwn_success);
    EXPECT_EQ(v.x, 10.0f);
    k[0].kind = mtwn_segmentBezier;
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, nullptr, &t), mtwn_errorInvalid);
    k[0].kind = mtwn_segmentLinear;
    double L[2];
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &def, L, nullptr, &t), mtwn_errorInvalid);  // no constant speed
    def = mtwnDefaultTrackDef(mtwn_valueVec2);
    ASSERT_EQ(mtwnMakeTrack(k.data(), 2, &def, L, nullptr, &t), mtwn_success);
    ASSERT_EQ(mtwnSampleTrack(&t, 0.5, &v), mtwn_success);
    EXPECT_EQ(v.x, 5.0f);
}

TEST(Track, AnglesUnwrapInPlace) {
    std::vector<mtwnKeyframe> k = {K(0, 0.0), K(0.5, 1.5 * kPi), K(1, 0.25 * kPi)};
    mtwnTrack t;
    mtwnVec4 v;
    mtwnTrackDef def = mtwnDefaultTrackDef(mtwn_valueAngle);
    ASSERT_EQ(mtwnMakeTrack(k.data(), 3, &def, nullptr, nullptr, &t), mtwn_success);
    EXPECT_NEAR(k[1].value[0], -0.5 * kPi, 1e-15);  // moved a turn back
    EXPECT_NEAR(k[2].value[0], 0.25 * kPi, 1e-15);  // within pi of -pi/2
    ASSERT_EQ(mtwnSampleTrack(&t, 0.25, &v), mtwn_success);
    EXPECT_NEAR(v.x, -0.25 * kPi, 1e-6);
}

TEST(Track, ColorsRotationsScales) {
    // Colors: linear segments are the Oklab mix.
    std::vector<mtwnKeyframe> k = {K(0, 1, 0), K(1, 0, 0)};
    k[0].value[3] = 1;
    k[1].value[2] = 1;
    k[1].value[3] = 1;
    mtwnSegmentMix mixes[4];
    mtwnTrack t;
    mtwnVec4 v;
    mtwnTrackDef def = mtwnDefaultTrackDef(mtwn_valueColor);
    ASSERT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, mixes, &t), mtwn_success);
    mtwnColorMix m;
    mtwnColor c;
    ASSERT_EQ(mtwnMakeColorMix(mtwnColor{1, 0, 0, 1}, mtwnColor{0, 0, 1, 1}, mtwn_colorOklab, mtwn_hueShorter, &m),
              mtwn_success);
    ASSERT_EQ(mtwnMixColor(&m, 0.3, &c), mtwn_success);
    ASSERT_EQ(mtwnSampleTrack(&t, 0.3, &v), mtwn_success);
    EXPECT_EQ(v.x, c.r);
    EXPECT_EQ(v.z, c.b);
    // Every space mtwnMakeColorMix takes, a track takes: each linear segment
    // is that space's mix.
    for (uint32_t space = 0; space <= (uint32_t)mtwn_colorProphotoRgb; ++space) {
        mtwnTrackDef spaced = def;
        spaced.colorSpace = space;
        spaced.hueMethod = (uint32_t)mtwn_hueLonger;
        ASSERT_EQ(mtwnMakeTrack(k.data(), 2, &spaced, nullptr, mixes, &t), mtwn_success) << space;
        ASSERT_EQ(mtwnMakeColorMix(mtwnColor{1, 0, 0, 1}, mtwnColor{0, 0, 1, 1}, (mtwnColorSpace)space, mtwn_hueLonger, &m),
                  mtwn_success);
        ASSERT_EQ(mtwnMixColor(&m, 0.3, &c), mtwn_success);
        ASSERT_EQ(mtwnSampleTrack(&t, 0.3, &v), mtwn_success);
        EXPECT_EQ(v.x, c.r) << space;
        EXPECT_EQ(v.y, c.g) << space;
        EXPECT_EQ(v.z, c.b) << space;
    }
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, nullptr, &t), mtwn_errorInvalid);
    k[0].kind = mtwn_segmentCatmullRom;
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, mixes, &t), mtwn_errorInvalid);
    k[0].kind = mtwn_segmentLinear;
    k[1].value[3] = 1.5;  // alpha outside 0 to 1
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, mixes, &t), mtwn_errorInvalid);
    // Rotations: the second flipped into the first's hemisphere, in place.
    std::vector<mtwnKeyframe> r = {K(0, 0), K(1, 0)};
    r[0].value[3] = 1;
    r[1].value[2] = -std::sin(kPi / 8);
    r[1].value[3] = -std::cos(kPi / 8);
    def = mtwnDefaultTrackDef(mtwn_valueRotation);
    ASSERT_EQ(mtwnMakeTrack(r.data(), 2, &def, nullptr, mixes, &t), mtwn_success);
    EXPECT_GT(r[1].value[3], 0.0);
    ASSERT_EQ(mtwnSampleTrack(&t, 0.5, &v), mtwn_success);
    EXPECT_NEAR(v.z, std::sin(kPi / 16), 1e-7);
    // Scales: logarithms in place, exact keyframes, ratio halfway.
    std::vector<mtwnKeyframe> s = {K(0, 1, 2), K(1, 4, 8)};
    def = mtwnDefaultTrackDef(mtwn_valueScale);
    def.channels = 2;
    ASSERT_EQ(mtwnMakeTrack(s.data(), 2, &def, nullptr, mixes, &t), mtwn_success);
    EXPECT_EQ(s[0].value[0], 0.0);  // log 1
    ASSERT_EQ(mtwnSampleTrack(&t, 0.5, &v), mtwn_success);
    EXPECT_NEAR(v.x, 2.0, 1e-6);
    EXPECT_NEAR(v.y, 4.0, 1e-6);
    EXPECT_EQ(v.z, 0.0f);
    ASSERT_EQ(mtwnSampleTrack(&t, 1.0, &v), mtwn_success);
    EXPECT_EQ(v.x, 4.0f);
    EXPECT_EQ(v.y, 8.0f);
    // Catmull-Rom over logs at constant speed: exact keyframes.
    std::vector<mtwnKeyframe> s3 = {K(0, 1, 1, mtwn_segmentCatmullRom), K(0.5, 3, 1, mtwn_segmentCatmullRom),
                                    K(1, 9, 1)};
    double L[3];
    def.channels = 1;
    ASSERT_EQ(mtwnMakeTrack(s3.data(), 3, &def, L, mixes, &t), mtwn_success);
    ASSERT_EQ(mtwnSampleTrack(&t, 0.5, &v), mtwn_success);
    EXPECT_NEAR(v.x, 3.0f, 1e-5);  // equal ratios in equal times
}

TEST(Track, UnchangedOnFailure) {
    // The third keyframe's scale is not above 0: nothing is written.
    std::vector<mtwnKeyframe> s = {K(0, 2), K(0.5, 3), K(1, 0)};
    std::vector<mtwnKeyframe> copy = s;
    mtwnSegmentMix mixes[2];
    mtwnTrack t;
    mtwnTrackDef def = mtwnDefaultTrackDef(mtwn_valueScale);
    def.channels = 1;
    EXPECT_EQ(mtwnMakeTrack(s.data(), 3, &def, nullptr, mixes, &t), mtwn_errorInvalid);
    EXPECT_EQ(0, std::memcmp(s.data(), copy.data(), sizeof(mtwnKeyframe) * 3));
    // Angles: a bad offset at the end leaves the unwrapping unwritten.
    std::vector<mtwnKeyframe> a = {K(0, 0), K(0.5, 6.0), K(0.4, 1.0)};
    copy = a;
    def = mtwnDefaultTrackDef(mtwn_valueAngle);
    EXPECT_EQ(mtwnMakeTrack(a.data(), 3, &def, nullptr, nullptr, &t), mtwn_errorInvalid);
    EXPECT_EQ(0, std::memcmp(a.data(), copy.data(), sizeof(mtwnKeyframe) * 3));
    // Longest rotation between equal rotations: refused, unchanged.
    std::vector<mtwnKeyframe> r = {K(0, 0), K(1, 0)};
    r[0].value[3] = 1;
    r[1].value[3] = 1;
    copy = r;
    def = mtwnDefaultTrackDef(mtwn_valueRotation);
    def.rotationPath = mtwn_rotationLongest;
    EXPECT_EQ(mtwnMakeTrack(r.data(), 2, &def, nullptr, mixes, &t), mtwn_errorInvalid);
    EXPECT_EQ(0, std::memcmp(r.data(), copy.data(), sizeof(mtwnKeyframe) * 2));
}

TEST(Track, DefAndSampleErrors) {
    std::vector<mtwnKeyframe> k = {K(0, 0), K(1, 1)};
    mtwnTrack t;
    mtwnVec4 v;
    mtwnSegmentMix mixes[1];
    mtwnTrackDef def = mtwnDefaultTrackDef(mtwn_valueScalar);
    EXPECT_EQ(mtwnMakeTrack(nullptr, 2, &def, nullptr, nullptr, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, nullptr, nullptr, nullptr, &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, nullptr, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeTrack(k.data(), 0, &def, nullptr, nullptr, &t), mtwn_errorInvalid);
    mtwnTrackDef bad = def;
    bad.cookie = 0;
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &bad, nullptr, nullptr, &t), mtwn_errorInvalid);
    bad = def;
    bad.kind = 10;
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &bad, nullptr, nullptr, &t), mtwn_errorInvalid);
    bad = def;
    bad.alpha = std::nextafter(1.0, 2.0);
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &bad, nullptr, nullptr, &t), mtwn_errorInvalid);
    bad = def;
    bad.colorSpace = (uint32_t)mtwn_colorProphotoRgb + 1;  // the first value past the spaces
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &bad, nullptr, nullptr, &t), mtwn_errorInvalid);
    bad = mtwnDefaultTrackDef(mtwn_valueScale);
    bad.channels = 0;
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &bad, nullptr, mixes, &t), mtwn_errorInvalid);
    bad.channels = 4;
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &bad, nullptr, mixes, &t), mtwn_errorInvalid);
    bad.channels = 1;
    k[0].value[0] = 1.0;
    EXPECT_EQ(mtwnMakeTrack(k.data(), 2, &bad, nullptr, mixes, &t), mtwn_success);
    k = {K(0, 0), K(1, 1)};
    ASSERT_EQ(mtwnMakeTrack(k.data(), 2, &def, nullptr, nullptr, &t), mtwn_success);
    EXPECT_EQ(mtwnSampleTrack(nullptr, 0.5, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleTrack(&t, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleTrack(&t, NAN, &v), mtwn_errorInvalid);
    mtwnTrack badT = t;
    badT.cookie = 0;
    EXPECT_EQ(mtwnSampleTrack(&badT, 0.5, &v), mtwn_errorInvalid);
    badT = t;
    badT.kind = mtwn_valueColor;  // needs mixes, 4 channels
    EXPECT_EQ(mtwnSampleTrack(&badT, 0.5, &v), mtwn_errorInvalid);
}

}  // namespace
