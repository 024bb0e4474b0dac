// MPFR reference tests of spring.h's spring and decay samples and of
// interpolate.h's color conversions and zoom: each against MPFR at 256 bits
// from the same binary64 inputs, each stating its bound and failing past it,
// and printing the largest error seen (in the unit its bound is stated in).
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdio>

extern "C" {
#include "lib/core/rng.h"
}
#include "maul/tween/interpolate.h"
#include "maul/tween/spring.h"

namespace {

constexpr mpfr_prec_t kPrec = 256;

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
M operator-(const M& a) { M r; mpfr_neg(r.v, a.v, MPFR_RNDN); return r; }
#define FN(name, f) M name(const M& a) { M r; f(r.v, a.v, MPFR_RNDN); return r; }
FN(Exp, mpfr_exp) FN(Sin, mpfr_sin) FN(Cos, mpfr_cos) FN(Sinh, mpfr_sinh) FN(Cosh, mpfr_cosh)
FN(Sqrt, mpfr_sqrt) FN(Cbrt, mpfr_cbrt) FN(Asinh, mpfr_asinh) FN(Tanh, mpfr_tanh)
M Pow(const M& a, const M& b) { M r; mpfr_pow(r.v, a.v, b.v, MPFR_RNDN); return r; }
M Atan2(const M& y, const M& x) { M r; mpfr_atan2(r.v, y.v, x.v, MPFR_RNDN); return r; }
M Q(long n, long d) { M r; mpfr_set_si(r.v, n, MPFR_RNDN); mpfr_div_si(r.v, r.v, d, MPFR_RNDN); return r; }
M Pi() { M r; mpfr_const_pi(r.v, MPFR_RNDN); return r; }

double Err(double got, const M& exact) { return std::fabs((M(got) - exact).d()); }

double U(mcore_Rng* r, double lo, double hi) { return lo + (hi - lo) * mcore_RngDouble01(r); }

// ---- springs: bound |error| <= 64 * 2^-53 * (1 + tau) * scale ----
// scale: |x0| + |v0|/omega + zeta|x0| for the offset, |v0| + zeta|v0| + omega|x0| for the velocity;
// (1 + tau) covers the rounding of tau = omega t, which moves the phase by tau 2^-53.
TEST(MpfrSpring, SamplesWithinBound) {
    const double kBound = 64.0;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 2024);
    double worstX = 0, worstV = 0;
    const double zetas[] = {0.0, 0.01, 0.2, 0.7, 0.99, 0.999999, 1.0, 1.000001, 1.01, 2.0, 10.0, 1000.0};
    for (double zeta : zetas) {
        for (int i = 0; i < 3000; ++i) {
            mtwnSpring s;
            ASSERT_EQ(mtwnMakeSpringFromFrequency(std::exp(U(&rng, -3, 4)), zeta, &s), mtwn_success);
            double x0 = U(&rng, -100, 100), v0 = U(&rng, -1000, 1000), t = std::exp(U(&rng, -8, 2));
            double x, v;
            ASSERT_EQ(mtwnSampleSpring(&s, x0, v0, t, &x, &v), mtwn_success);
            M w(s.omega), z(s.zeta), X0(x0), V0(v0), tau = M(s.omega) * M(t);
            M B = V0 / w + z * X0, Bv = z * V0 + w * X0, ex, ev;
            if (zeta < 1.0) {
                M q = Sqrt(M(1.0) - z * z), E = Exp(-(z * tau));
                ex = E * (X0 * Cos(q * tau) + B * Sin(q * tau) / q);
                ev = E * (V0 * Cos(q * tau) - Bv * Sin(q * tau) / q);
            } else if (zeta == 1.0) {
                M E = Exp(-tau);
                ex = E * (X0 + B * tau);
                ev = E * (V0 - Bv * tau);
            } else {
                M q = Sqrt(z * z - M(1.0)), E = Exp(-(z * tau));
                ex = E * (X0 * Cosh(q * tau) + B * Sinh(q * tau) / q);
                ev = E * (V0 * Cosh(q * tau) - Bv * Sinh(q * tau) / q);
            }
            double tauD = s.omega * t;
            double unit = 0x1p-53 * (1.0 + tauD);
            double sx = (std::fabs(x0) + std::fabs(v0) / s.omega + zeta * std::fabs(x0)) * unit;
            double sv = (std::fabs(v0) + zeta * std::fabs(v0) + s.omega * std::fabs(x0)) * unit;
            double ex_ = Err(x, ex) / sx, ev_ = Err(v, ev) / sv;
            if (ex_ > worstX) worstX = ex_;
            if (ev_ > worstV) worstV = ev_;
            ASSERT_LE(ex_, kBound) << "zeta " << zeta << " omega " << s.omega << " t " << t;
            ASSERT_LE(ev_, kBound) << "zeta " << zeta << " omega " << s.omega << " t " << t;
        }
    }
    std::printf("spring offset: max %.3g (bound %.0f) units of 2^-53 (1 + tau) scale\n", worstX, kBound);
    std::printf("spring velocity: max %.3g (bound %.0f) units of 2^-53 (1 + tau) scale\n", worstV, kBound);
}

// ---- decay: position |error| <= 8 ulp(|p0| + |v0|/k); velocity <= 4 (2 + k t) ulp(v) ----
TEST(MpfrDecay, SamplesWithinBound) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, 77);
    double worstP = 0, worstV = 0;
    for (int i = 0; i < 30000; ++i) {
        mtwnDecay d;
        ASSERT_EQ(mtwnMakeDecay(std::exp(U(&rng, -5, 5)), &d), mtwn_success);
        double p0 = U(&rng, -1000, 1000), v0 = U(&rng, -5000, 5000), t = std::exp(U(&rng, -10, 3));
        double p, v;
        ASSERT_EQ(mtwnSampleDecay(&d, p0, v0, t, &p, &v), mtwn_success);
        M k(d.rate), E = Exp(-(k * M(t)));
        M ep = M(p0) + M(v0) * (M(1.0) - E) / k, ev = M(v0) * E;
        double ulpP = std::ldexp(1.0, std::ilogb(std::fabs(p0) + std::fabs(v0) / d.rate) - 52);
        double evd = ev.d();
        double ulpV = evd == 0 ? 0x1p-1074 : std::max(0x1p-1074, std::ldexp(1.0, std::ilogb(std::fabs(evd)) - 52));
        double ep_ = Err(p, ep) / ulpP, ev_ = Err(v, ev) / (ulpV * (2.0 + d.rate * t));
        if (ep_ > worstP) worstP = ep_;
        if (ev_ > worstV) worstV = ev_;
        ASSERT_LE(ep_, 8.0) << p0 << " " << v0 << " " << t << " " << d.rate;
        ASSERT_LE(ev_, 4.0) << p0 << " " << v0 << " " << t << " " << d.rate;
    }
    std::printf("decay position: max %.3g ulp of |p0| + |v0|/k (bound 8)\n", worstP);
    std::printf("decay velocity: max %.3g of (2 + k t) ulp (bound 4)\n", worstV);
}

// ---- colors: sRGB to linear, XYZ D65, Oklab, OkLCh; absolute bound 2^-44,
// times for Oklab and OkLCh the conditioning of the cube root:
// 1 + sum_r A_r / |lms_r|^(2/3), A_r = sum_j |M1[r][j] xyz_j| (an LMS near 0 is
// a cancellation the cube root magnifies, in any binary64 evaluation) ----
// (coordinates of colors in -0.5 to 1.5 are within 2 in magnitude; the exact
// reference uses CSS Color 4's rational sRGB matrices and its Oklab decimals.)
M SrgbToLinear(const M& c) {
    double cd = c.d();
    M a = M(std::fabs(cd));
    if (std::fabs(cd) <= 0.04045) return c / M(12.92);
    M r = Pow((a + M(0.055)) / M(1.055), M(2.4));
    return cd < 0 ? -r : r;
}

TEST(MpfrColor, ConversionsWithinBound) {
    const double kBound = 0x1p-44;
    const long RX[3][3][2] = {{{506752, 1228815}, {87881, 245763}, {12673, 70218}},
                              {{87098, 409605}, {175762, 245763}, {12673, 175545}},
                              {{7918, 409605}, {87881, 737289}, {1001167, 1053270}}};
    const double M1[3][3] = {{0.8190224379967030, 0.3619062600528904, -0.1288737815209879},
                             {0.0329836539323885, 0.9292868615863434, 0.0361446663506424},
                             {0.0481771893596242, 0.2642395317527308, 0.6335478284694309}};
    const double M2[3][3] = {{0.2104542683093140, 0.7936177747023054, -0.0040720430116193},
                             {1.9779985324311684, -2.4285922420485799, 0.4505937096174110},
                             {0.0259040424655478, 0.7827717124575296, -0.8086757549230774}};
    mcore_Rng rng;
    mcore_RngSeed(&rng, 5);
    double worst[5] = {0, 0, 0, 0, 0};
    double worstHue = 0;
    for (int i = 0; i < 20000; ++i) {
        mtwnColor c{mcore_RngFloatRange(&rng, -0.5f, 1.5f), mcore_RngFloatRange(&rng, -0.5f, 1.5f),
                    mcore_RngFloatRange(&rng, -0.5f, 1.5f), 1.0f};
        M lin[3] = {SrgbToLinear(M((double)c.r)), SrgbToLinear(M((double)c.g)), SrgbToLinear(M((double)c.b))};
        M xyz[3], lms[3], lab[3];
        for (int r = 0; r < 3; ++r)
            xyz[r] = Q(RX[r][0][0], RX[r][0][1]) * lin[0] + Q(RX[r][1][0], RX[r][1][1]) * lin[1] +
                     Q(RX[r][2][0], RX[r][2][1]) * lin[2];
        for (int r = 0; r < 3; ++r) lms[r] = Cbrt(M(M1[r][0]) * xyz[0] + M(M1[r][1]) * xyz[1] + M(M1[r][2]) * xyz[2]);
        for (int r = 0; r < 3; ++r) lab[r] = M(M2[r][0]) * lms[0] + M(M2[r][1]) * lms[1] + M(M2[r][2]) * lms[2];
        double cond = 1.0;
        for (int r = 0; r < 3; ++r) {
            double A = 0, l3 = std::fabs(lms[r].d());
            for (int j = 0; j < 3; ++j) A += std::fabs(M1[r][j] * xyz[j].d());
            cond += A / std::max(l3 * l3, 1e-200);
        }
        M chroma = Sqrt(lab[1] * lab[1] + lab[2] * lab[2]);
        M hue = Atan2(lab[2], lab[1]);
        if (hue.d() < 0) hue = hue + M(2.0) * Pi();
        const M* refs[5] = {nullptr, lin, xyz, lab, nullptr};
        for (int space = 1; space <= 4; ++space) {
            double o[4];
            ASSERT_EQ(mtwnConvertColorToSpace(c, (mtwnColorSpace)space, o), mtwn_success);
            for (int k = 0; k < 3; ++k) {
                double e;
                if (space == 4) {
                    if (k == 2) {
                        if (chroma.d() < 0.01) continue;
                        double eh = Err(o[2], hue);
                        if (eh > 6.0) eh = std::fabs(eh - 2 * M_PI);  // the 0 / 2 pi seam
                        if (eh / cond > worstHue) worstHue = eh / cond;
                        ASSERT_LE(eh, 1e-13 * cond) << c.r << " " << c.g << " " << c.b;
                        continue;
                    }
                    e = Err(o[k], k == 0 ? lab[0] : chroma);
                } else {
                    e = Err(o[k], refs[space][k]);
                }
                if (e > worst[space]) worst[space] = e;
                ASSERT_LE(e, kBound) << "space " << space << " " << c.r << " " << c.g << " " << c.b;
            }
        }
    }
    std::printf("linear sRGB: max abs error %.3g (bound %.3g)\n", worst[1], kBound);
    std::printf("XYZ D65: max abs error %.3g (bound %.3g)\n", worst[2], kBound);
    std::printf("Oklab: max abs error %.3g of the conditioning (bound %.3g)\n", worst[3], kBound);
    std::printf("OkLCh L, C: max abs error %.3g of the conditioning (bound %.3g); hue (C >= 0.01) %.3g rad of it (bound 1e-13)\n", worst[4],
                kBound, worstHue);
}

// ---- colors: CSS Color 4's other spaces. XYZ D50: absolute 2^-44. Lab and
// LCH (L, C; the hue where C >= 0.5): absolute 2^-44 times their conditioning
// 1 + 500 sum_r A_r / (3 max(v_r, eps)^(2/3)), A_r the sum of |terms| of XYZ
// D50's row (the cube root's magnification; L, a, b are up to 500 times f).
// Display P3, Rec. 2020, A98 RGB, ProPhoto: absolute 2^-44 times
// 1 + B_r |transfer'(lin_r)|, B_r the sum of |terms| of the linear channel
// (a power with no linear part, Rec. 2020's and A98's, is steep near 0).
// HSL and HWB: s, l, w, b absolute 2^-44 of (1 + their magnitude), the hue
// 2^-40 rad where the saturation is at least 0.01. The exact reference takes
// CSS Color 4's rationals as exact fractions and its decimals as binary64. ----
TEST(MpfrColor, CssColor4SpacesWithinBound) {
    const double kBound = 0x1p-44;
    const long RX[3][3][2] = {{{506752, 1228815}, {87881, 245763}, {12673, 70218}},
                              {{87098, 409605}, {175762, 245763}, {12673, 175545}},
                              {{7918, 409605}, {87881, 737289}, {1001167, 1053270}}};
    const double BR[3][3] = {{1.0479297925449969, 0.022946870601609652, -0.05019226628920524},
                             {0.02962780877005599, 0.9904344267538799, -0.017073799063418826},
                             {-0.009243040646204504, 0.015055191490298152, 0.7518742814281371}};
    const long P3[3][3][2] = {{{446124, 178915}, {-333277, 357830}, {-72051, 178915}},
                              {{-14852, 17905}, {63121, 35810}, {423, 17905}},
                              {{11844, 330415}, {-50337, 660830}, {316169, 330415}}};
    const long R2020[3][3][2] = {{{30757411, 17917100}, {-6372589, 17917100}, {-4539589, 17917100}},
                                 {{-19765991, 29648200}, {47925759, 29648200}, {467509, 29648200}},
                                 {{792561, 44930125}, {-1921689, 44930125}, {42328811, 44930125}}};
    const long A98[3][3][2] = {{{1829569, 896150}, {-506331, 896150}, {-308931, 896150}},
                               {{-851781, 878810}, {1648619, 878810}, {36519, 878810}},
                               {{16779, 1248040}, {-147721, 1248040}, {1266979, 1248040}}};
    const double PP[3][3] = {{1.3457868816471583, -0.25557208737979464, -0.05110186497554526},
                             {-0.5446307051249019, 1.5082477428451468, 0.02052744743642139},
                             {0.0, 0.0, 1.2119675456389452}};
    const double white[3] = {0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585};
    const double eps = 216.0 / 24389.0;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 11);
    double worst[14] = {0};
    for (int i = 0; i < 20000; ++i) {
        mtwnColor c{mcore_RngFloatRange(&rng, -0.5f, 1.5f), mcore_RngFloatRange(&rng, -0.5f, 1.5f),
                    mcore_RngFloatRange(&rng, -0.5f, 1.5f), 1.0f};
        M lin[3] = {SrgbToLinear(M((double)c.r)), SrgbToLinear(M((double)c.g)), SrgbToLinear(M((double)c.b))};
        M xyz[3], d50[3];
        for (int r = 0; r < 3; ++r)
            xyz[r] = Q(RX[r][0][0], RX[r][0][1]) * lin[0] + Q(RX[r][1][0], RX[r][1][1]) * lin[1] +
                     Q(RX[r][2][0], RX[r][2][1]) * lin[2];
        for (int r = 0; r < 3; ++r) d50[r] = M(BR[r][0]) * xyz[0] + M(BR[r][1]) * xyz[1] + M(BR[r][2]) * xyz[2];
        double o[4];
        // XYZ D50
        ASSERT_EQ(mtwnConvertColorToSpace(c, mtwn_colorXyzD50, o), mtwn_success);
        for (int k = 0; k < 3; ++k) {
            double e = Err(o[k], d50[k]);
            worst[7] = std::max(worst[7], e);
            ASSERT_LE(e, kBound);
        }
        // Lab, LCH
        M f[3];
        double condLab = 1.0;
        for (int r = 0; r < 3; ++r) {
            M v = d50[r] / M(white[r]);
            double vd = v.d();
            f[r] = vd > eps ? Cbrt(v) : (Q(24389, 27) * v + M(16.0)) / M(116.0);
            double A = 0;
            for (int j = 0; j < 3; ++j) A += std::fabs(BR[r][j] * xyz[j].d());
            double vv = std::max(std::fabs(vd), eps);
            condLab += 500.0 * A / (3.0 * std::cbrt(vv * vv));
        }
        M lab[3] = {M(116.0) * f[1] - M(16.0), M(500.0) * (f[0] - f[1]), M(200.0) * (f[1] - f[2])};
        ASSERT_EQ(mtwnConvertColorToSpace(c, mtwn_colorLab, o), mtwn_success);
        for (int k = 0; k < 3; ++k) {
            double e = Err(o[k], lab[k]) / condLab;
            worst[5] = std::max(worst[5], e);
            ASSERT_LE(e, kBound) << c.r << " " << c.g << " " << c.b;
        }
        M chroma = Sqrt(lab[1] * lab[1] + lab[2] * lab[2]);
        M hue = Atan2(lab[2], lab[1]);
        if (hue.d() < 0) hue = hue + M(2.0) * Pi();
        ASSERT_EQ(mtwnConvertColorToSpace(c, mtwn_colorLch, o), mtwn_success);
        for (int k = 0; k < 3; ++k) {
            double e;
            if (k == 2) {
                if (chroma.d() < 0.5) continue;
                e = Err(o[2], hue);
                if (e > 6.0) e = std::fabs(e - 2 * M_PI);
                e = e * chroma.d();  // the hue's error as a distance in (a, b)
            } else {
                e = Err(o[k], k == 0 ? lab[0] : chroma);
            }
            e /= condLab;
            worst[6] = std::max(worst[6], e);
            ASSERT_LE(e, kBound) << c.r << " " << c.g << " " << c.b << " " << k;
        }
        // RGB spaces
        for (int space = mtwn_colorDisplayP3; space <= mtwn_colorProphotoRgb; ++space) {
            ASSERT_EQ(mtwnConvertColorToSpace(c, (mtwnColorSpace)space, o), mtwn_success);
            for (int r = 0; r < 3; ++r) {
                M l;
                double B = 0;
                const M* src = space == mtwn_colorProphotoRgb ? d50 : xyz;
                for (int j = 0; j < 3; ++j) {
                    M term;
                    if (space == mtwn_colorDisplayP3) term = Q(P3[r][j][0], P3[r][j][1]) * src[j];
                    if (space == mtwn_colorRec2020) term = Q(R2020[r][j][0], R2020[r][j][1]) * src[j];
                    if (space == mtwn_colorA98Rgb) term = Q(A98[r][j][0], A98[r][j][1]) * src[j];
                    if (space == mtwn_colorProphotoRgb) term = M(PP[r][j]) * src[j];
                    l = l + term;
                    B += std::fabs(term.d());
                }
                double ld = l.d(), la = std::max(std::fabs(ld), 1e-300);
                M a = M(std::fabs(ld));
                a = Sqrt(l * l);
                M ref;
                double slope;
                if (space == mtwn_colorDisplayP3) {
                    if (la <= 0.0031308) { ref = M(12.92) * l; slope = 12.92; }
                    else { ref = M(1.055) * Pow(a, Q(5, 12)) - M(0.055); slope = 1.055 / 2.4 * std::pow(la, 1 / 2.4 - 1); }
                } else if (space == mtwn_colorRec2020) {
                    ref = Pow(a, Q(5, 12)); slope = std::pow(la, 1 / 2.4 - 1) / 2.4;
                } else if (space == mtwn_colorA98Rgb) {
                    ref = Pow(a, Q(256, 563)); slope = std::pow(la, 256.0 / 563 - 1) * 256 / 563;
                } else {
                    if (la < 1.0 / 512) { ref = M(16.0) * l; slope = 16; }
                    else { ref = Pow(a, Q(5, 9)); slope = std::pow(la, 1 / 1.8 - 1) / 1.8; }
                }
                bool linearPart = (space == mtwn_colorDisplayP3 && la <= 0.0031308) ||
                                  (space == mtwn_colorProphotoRgb && la < 1.0 / 512);
                if (!linearPart && ld < 0) ref = -ref;
                double e = Err(o[r], ref) / (1.0 + B * slope);
                worst[space] = std::max(worst[space], e);
                ASSERT_LE(e, kBound) << "space " << space << " " << c.r << " " << c.g << " " << c.b;
            }
        }
        // HSL, HWB (exact rational formulas from the float channels)
        {
            double v[3] = {c.r, c.g, c.b};
            double mx = std::max(v[0], std::max(v[1], v[2])), mn = std::min(v[0], std::min(v[1], v[2]));
            M l = (M(mx) + M(mn)) / M(2.0);
            M d = M(mx) - M(mn);
            double ld = l.d();
            M sat = M(0.0);
            M h = M(0.0);
            if (mx != mn) {
                if (ld != 0.0 && ld != 1.0) sat = (M(mx) - l) / (ld < 1 - ld ? l : M(1.0) - l);
                if (mx == v[0]) h = (M(v[1]) - M(v[2])) / d + M(v[1] < v[2] ? 6.0 : 0.0);
                else if (mx == v[1]) h = (M(v[2]) - M(v[0])) / d + M(2.0);
                else h = (M(v[0]) - M(v[1])) / d + M(4.0);
                h = h * Pi() / M(3.0);
            }
            if (sat.d() < 0) { h = h + Pi(); sat = -sat; }
            if (h.d() >= 2 * M_PI) h = h - M(2.0) * Pi();
            ASSERT_EQ(mtwnConvertColorToSpace(c, mtwn_colorHsl, o), mtwn_success);
            double e = std::max(Err(o[1], sat) / (1 + std::fabs(sat.d())), Err(o[2], l));
            worst[8] = std::max(worst[8], e);
            ASSERT_LE(e, kBound);
            if (sat.d() >= 0.01) {
                double eh = Err(o[0], h);
                if (eh > 6.0) eh = std::fabs(eh - 2 * M_PI);
                ASSERT_LE(eh, 0x1p-40) << c.r << " " << c.g << " " << c.b;
            }
            ASSERT_EQ(mtwnConvertColorToSpace(c, mtwn_colorHwb, o), mtwn_success);
            e = std::max(Err(o[1], M(mn)), Err(o[2], M(1.0) - M(mx)));
            worst[9] = std::max(worst[9], e);
            ASSERT_LE(e, kBound);
        }
    }
    std::printf("lab: max abs error %.3g of the conditioning (bound %.3g)\n", worst[5], kBound);
    std::printf("lch L, C, C x hue: max abs error %.3g of the conditioning (bound %.3g)\n", worst[6], kBound);
    std::printf("xyz-d50: max abs error %.3g (bound %.3g)\n", worst[7], kBound);
    std::printf("hsl s, l: max %.3g; hwb w, b: max %.3g (bound %.3g)\n", worst[8], worst[9], kBound);
    std::printf("display-p3 %.3g, rec2020 %.3g, a98-rgb %.3g, prophoto-rgb %.3g of the conditioning (bound %.3g)\n",
                worst[10], worst[11], worst[12], worst[13], kBound);
}

// ---- zoom: length and width relative error <= 2^-40; center error <= 2^-40 of
// |u0| + |d| max(1, panScale cosh r0): the paper's u(s) = panScale (cosh r0 tanh r - sinh r0)
// cancels when |r0| is large (widths far apart against the pan), as d3's does ----
TEST(MpfrZoom, PathWithinBound) {
    const double kBound = 0x1p-40;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 31);
    double worstS = 0, worstW = 0, worstC = 0;
    for (int i = 0; i < 20000; ++i) {
        mtwnZoomView a{U(&rng, -10, 10), U(&rng, -10, 10), std::exp(U(&rng, -4, 4))};
        mtwnZoomView b{U(&rng, -10, 10), U(&rng, -10, 10), std::exp(U(&rng, -4, 4))};
        double rho = std::exp(U(&rng, -1.5, 1.5)), p = U(&rng, -0.5, 1.5);
        mtwnZoomMix m;
        mtwnZoomView v;
        double len;
        ASSERT_EQ(mtwnMakeZoomMix(a, b, rho, &m), mtwn_success);
        ASSERT_EQ(mtwnComputeZoomLength(&m, &len), mtwn_success);
        ASSERT_EQ(mtwnMixZoom(&m, p, &v), mtwn_success);
        ASSERT_GT(m.panScale, 0.0);
        M dx = M(b.x) - M(a.x), dy = M(b.y) - M(a.y), d = Sqrt(dx * dx + dy * dy);
        M w0(a.width), w1(b.width), r(rho), r2 = r * r, r4 = r2 * r2;
        M b0 = (w1 * w1 - w0 * w0 + r4 * d * d) / (M(2.0) * w0 * r2 * d);
        M b1 = (w1 * w1 - w0 * w0 - r4 * d * d) / (M(2.0) * w1 * r2 * d);
        M r0 = -Asinh(b0), r1 = -Asinh(b1), S = (r1 - r0) / r;
        M s = M(p) * S, rs = r * s + r0;
        M u = w0 / (r2 * d) * (Cosh(r0) * Tanh(rs) - Sinh(r0));
        M ex = M(a.x) + u * dx, ey = M(a.y) + u * dy, ew = w0 * Cosh(r0) / Cosh(rs);
        double eS = Err(len, S) / std::fabs(S.d());
        double eW = Err(v.width, ew) / ew.d();
        double cs = d.d() * std::max(1.0, m.panScale * m.coshR0) + std::fabs(a.x) + std::fabs(a.y);
        double eC = std::max(Err(v.x, ex), Err(v.y, ey)) / cs;
        worstS = std::max(worstS, eS);
        worstW = std::max(worstW, eW);
        worstC = std::max(worstC, eC);
        ASSERT_LE(eS, kBound);
        ASSERT_LE(eW, kBound) << p;
        ASSERT_LE(eC, kBound) << p;
    }
    std::printf("zoom length: max rel error %.3g (bound %.3g)\n", worstS, kBound);
    std::printf("zoom width: max rel error %.3g (bound %.3g)\n", worstW, kBound);
    std::printf("zoom center: max error %.3g of |u0| + |d| max(1, panScale cosh r0) (bound %.3g)\n", worstC, kBound);
}

// ---- zoom: the center's error relative to the pan (times max(1, |u|)) <= 2^-40 (issue 19, 12),
// for pans from just above the pure-zoom threshold (MTWN_ZOOM_PAN_EPSILON
// of the smaller width) to 2^40 of it, from the origin (so the output's own
// rounding of from.x + u dx is the pan's): the reference is the paper's
// u(s) = panScale (cosh r0 tanh r - sinh r0), evaluated at 256 bits. A pan 170 times the threshold with widths
// far apart gave 0 of the pan at p = 0.1, 0.25 and 0.5 (r0 near -19). ----
TEST(MpfrZoom, CenterErrorRelativeToThePan) {
    const double kBound = 0x1p-40;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 19);
    double worst = 0;
    for (int i = 0; i < 20000; ++i) {
        double w0 = std::exp(U(&rng, -4, 4)), w1 = std::exp(U(&rng, -4, 4));
        double minW = std::min(w0, w1), theta = U(&rng, 0, 6.283185307179586);
        double pan = minW * MTWN_ZOOM_PAN_EPSILON * std::exp2(U(&rng, 0.5, 40));
        if (i < 3) {  // the issue's: a pan of 7.5e-8, 170 times the threshold of the smaller width
            w0 = 1.0;
            w1 = 7.5e-8 / (170 * MTWN_ZOOM_PAN_EPSILON);
            if (w1 > w0) std::swap(w0, w1);
            pan = 7.5e-8;
            theta = 0;
        }
        mtwnZoomView a{0.0, 0.0, w0};
        mtwnZoomView b{pan * std::cos(theta), pan * std::sin(theta), w1};
        double rho = i < 3 ? std::sqrt(2.0) : std::exp(U(&rng, -1.5, 1.5));
        double p = i < 3 ? (i == 0 ? 0.1 : i == 1 ? 0.25 : 0.5) : U(&rng, -0.5, 1.5);
        mtwnZoomMix m;
        mtwnZoomView v;
        ASSERT_EQ(mtwnMakeZoomMix(a, b, rho, &m), mtwn_success);
        if (m.panScale == 0.0) continue;  // a pure zoom (the threshold's rounding)
        ASSERT_EQ(mtwnMixZoom(&m, p, &v), mtwn_success);
        M dx = M(b.x), dy = M(b.y), d = Sqrt(dx * dx + dy * dy);
        M W0(a.width), W1(b.width), r(rho), r2 = r * r, r4 = r2 * r2;
        M b0 = (W1 * W1 - W0 * W0 + r4 * d * d) / (M(2.0) * W0 * r2 * d);
        M b1 = (W1 * W1 - W0 * W0 - r4 * d * d) / (M(2.0) * W1 * r2 * d);
        M r0 = -Asinh(b0), r1 = -Asinh(b1), S = (r1 - r0) / r;
        M s = M(p) * S, rs = r * s + r0;
        M u = W0 / (r2 * d) * (Cosh(r0) * Tanh(rs) - Sinh(r0));
        // Outside progress 0 to 1 the path runs on and u grows (past 1):
        // relative to the pan times max(1, |u|).
        double e = std::max(Err(v.x, u * dx), Err(v.y, u * dy)) / (d.d() * std::max(1.0, std::fabs(u.d())));
        worst = std::max(worst, e);
        ASSERT_LE(e, kBound) << "pan " << pan << " widths " << w0 << " " << w1 << " rho " << rho << " p " << p
                             << " u " << u.d();
    }
    std::printf("zoom center: max error %.3g of the pan times max(1, |u|) (bound %.3g)\n", worst, kBound);
}

}  // namespace
