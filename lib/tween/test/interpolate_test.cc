// Tests of interpolate.h: CSS Color 4 conversions and mixing, angles,
// rotations, scales, zoom, integers, discrete values, punch and shake.
#include <cfloat>
#include <cmath>
#include <cstring>

#include "gtest/gtest.h"
#include "lib/core/rng.h"
#include "maul/tween/interpolate.h"

namespace {

const double kPi = 3.141592653589793;
const double kTwoPi = 6.283185307179586;

mtwnColor C(float r, float g, float b, float a = 1.0f) { return mtwnColor{r, g, b, a}; }

// ---- colors: CSS Color 4 / Ottosson's published Oklab values ----

TEST(Color, OklabOfPrimaries) {
    // Ottosson's Oklab of sRGB red, green, blue and white (also CSS Color 4's examples).
    struct { mtwnColor c; double L, a, b; } cases[] = {
        {C(1, 0, 0), 0.6279553606145516, 0.22486306106597398, 0.1258462985307351},
        {C(0, 1, 0), 0.8664396115356694, -0.23388757418790818, 0.1794984451609376},
        {C(0, 0, 1), 0.4520137183853429, -0.03245698416876397, -0.3115281476783751},
        {C(1, 1, 1), 1.0, 0.0, 0.0},
    };
    for (auto& k : cases) {
        double o[4];
        ASSERT_EQ(mtwnConvertColorToSpace(k.c, mtwn_colorOklab, o), mtwn_success);
        EXPECT_NEAR(o[0], k.L, 2e-6);
        EXPECT_NEAR(o[1], k.a, 2e-6);
        EXPECT_NEAR(o[2], k.b, 2e-6);
        EXPECT_EQ(o[3], 1.0);
    }
}

TEST(Color, OklchOfRed) {
    // CSS Color 4: red is oklch(62.8% 0.2577 29.23deg).
    double o[4];
    ASSERT_EQ(mtwnConvertColorToSpace(C(1, 0, 0), mtwn_colorOklch, o), mtwn_success);
    EXPECT_NEAR(o[0], 0.628, 5e-4);
    EXPECT_NEAR(o[1], 0.2577, 5e-5);
    EXPECT_NEAR(o[2] * 180.0 / kPi, 29.23, 5e-3);
}

TEST(Color, LinearAndXyz) {
    double o[4];
    // sRGB 0.5 is linear ((0.5 + 0.055) / 1.055)^2.4.
    ASSERT_EQ(mtwnConvertColorToSpace(C(0.5f, 0.02f, -0.5f), mtwn_colorSrgbLinear, o), mtwn_success);
    EXPECT_NEAR(o[0], std::pow(0.555 / 1.055, 2.4), 1e-15);
    EXPECT_NEAR(o[1], 0.02f / 12.92, 1e-17);  // the linear toe
    EXPECT_NEAR(o[2], -std::pow(0.555 / 1.055, 2.4), 1e-15);  // odd extension
    // White is D65: X = 0.3127/0.3290, Y = 1, Z = (1 - 0.3127 - 0.3290)/0.3290.
    ASSERT_EQ(mtwnConvertColorToSpace(C(1, 1, 1), mtwn_colorXyzD65, o), mtwn_success);
    EXPECT_NEAR(o[0], 0.3127 / 0.3290, 1e-12);
    EXPECT_NEAR(o[1], 1.0, 1e-12);
    EXPECT_NEAR(o[2], (1 - 0.3127 - 0.3290) / 0.3290, 1e-12);
}

TEST(Color, RoundTrips) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, 7);
    for (int space = 0; space <= (int)mtwn_colorProphotoRgb; ++space) {
        for (int i = 0; i < 200; ++i) {
            mtwnColor c = C(mcore_RngFloatRange(&rng, -0.2f, 1.2f), mcore_RngFloatRange(&rng, -0.2f, 1.2f),
                            mcore_RngFloatRange(&rng, -0.2f, 1.2f), mcore_RngFloat01(&rng));
            double o[4];
            mtwnColor back;
            ASSERT_EQ(mtwnConvertColorToSpace(c, (mtwnColorSpace)space, o), mtwn_success);
            ASSERT_EQ(mtwnConvertColorFromSpace(o, (mtwnColorSpace)space, &back), mtwn_success);
            EXPECT_NEAR(back.r, c.r, 1e-6) << space;
            EXPECT_NEAR(back.g, c.g, 1e-6) << space;
            EXPECT_NEAR(back.b, c.b, 1e-6) << space;
            EXPECT_EQ(back.a, c.a);
        }
    }
}

// ---- colors: the other CSS Color 4 spaces ----

// An independent binary64 reference from CSS Color 4's published matrices
// (conversions.js) with the C library's pow/cbrt/atan2: sRGB -> linear ->
// XYZ-D65 (-> Bradford D50).
struct Ref {
    static double Lin(double v) {
        double a = std::fabs(v);
        if (a <= 0.04045) return v / 12.92;
        return std::copysign(std::pow((a + 0.055) / 1.055, 2.4), v);
    }
    static double Gam(double v) {
        double a = std::fabs(v);
        if (a <= 0.0031308) return 12.92 * v;
        return std::copysign(1.055 * std::pow(a, 1 / 2.4) - 0.055, v);
    }
    static void Mul(const double m[3][3], const double v[3], double o[3]) {
        double r[3];
        for (int i = 0; i < 3; ++i) r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
        for (int i = 0; i < 3; ++i) o[i] = r[i];
    }
    static void Xyz65(double r, double g, double b, double o[3]) {
        static const double m[3][3] = {{506752.0 / 1228815, 87881.0 / 245763, 12673.0 / 70218},
                                       {87098.0 / 409605, 175762.0 / 245763, 12673.0 / 175545},
                                       {7918.0 / 409605, 87881.0 / 737289, 1001167.0 / 1053270}};
        double l[3] = {Lin(r), Lin(g), Lin(b)};
        Mul(m, l, o);
    }
    static void Xyz50(double r, double g, double b, double o[3]) {
        static const double m[3][3] = {{1.0479297925449969, 0.022946870601609652, -0.05019226628920524},
                                       {0.02962780877005599, 0.9904344267538799, -0.017073799063418826},
                                       {-0.009243040646204504, 0.015055191490298152, 0.7518742814281371}};
        double x[3];
        Xyz65(r, g, b, x);
        Mul(m, x, o);
    }
    static void Lab(double r, double g, double b, double o[3]) {
        const double w[3] = {0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585};
        const double e = 216.0 / 24389, k = 24389.0 / 27;
        double x[3], f[3];
        Xyz50(r, g, b, x);
        for (int i = 0; i < 3; ++i) {
            double v = x[i] / w[i];
            f[i] = v > e ? std::cbrt(v) : (k * v + 16) / 116;
        }
        o[0] = 116 * f[1] - 16;
        o[1] = 500 * (f[0] - f[1]);
        o[2] = 200 * (f[1] - f[2]);
    }
    // Linear RGB of a space from XYZ-D65 (P3, Rec. 2020, A98) or D50 (ProPhoto).
    static void Rgb(const double m[3][3], bool d50, double r, double g, double b, double o[3]) {
        double x[3];
        if (d50) Xyz50(r, g, b, x); else Xyz65(r, g, b, x);
        Mul(m, x, o);
    }
};

const double kXyzToP3[3][3] = {{446124.0 / 178915, -333277.0 / 357830, -72051.0 / 178915},
                               {-14852.0 / 17905, 63121.0 / 35810, 423.0 / 17905},
                               {11844.0 / 330415, -50337.0 / 660830, 316169.0 / 330415}};
const double kXyzTo2020[3][3] = {{30757411.0 / 17917100, -6372589.0 / 17917100, -4539589.0 / 17917100},
                                 {-19765991.0 / 29648200, 47925759.0 / 29648200, 467509.0 / 29648200},
                                 {792561.0 / 44930125, -1921689.0 / 44930125, 42328811.0 / 44930125}};
const double kXyzToA98[3][3] = {{1829569.0 / 896150, -506331.0 / 896150, -308931.0 / 896150},
                                {-851781.0 / 878810, 1648619.0 / 878810, 36519.0 / 878810},
                                {16779.0 / 1248040, -147721.0 / 1248040, 1266979.0 / 1248040}};
const double kXyz50ToProPhoto[3][3] = {{1.3457868816471583, -0.25557208737979464, -0.05110186497554526},
                                       {-0.5446307051249019, 1.5082477428451468, 0.02052744743642139},
                                       {0.0, 0.0, 1.2119675456389452}};

void Expect3(mtwnColor c, mtwnColorSpace s, const double want[3], double tol, const char* what) {
    double o[4];
    ASSERT_EQ(mtwnConvertColorToSpace(c, s, o), mtwn_success);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(o[i], want[i], tol) << what << " coordinate " << i;
}

TEST(Color, LabLchOfPrimariesFromCss) {
    // CSS Color 4 (section 9, "lab() and lch()" examples, computed by its
    // sample code): sRGB red is lab(54.29% 80.80 69.89) = lch(54.29% 106.84 40.86deg);
    // white lab(100 0 0); black lab(0 0 0).
    const double red[3] = {54.29, 80.80, 69.89};
    Expect3(C(1, 0, 0), mtwn_colorLab, red, 0.01, "red lab");
    const double redLch[3] = {54.29, 106.84, 40.86 * kPi / 180};
    Expect3(C(1, 0, 0), mtwn_colorLch, redLch, 0.01, "red lch");
    const double white[3] = {100, 0, 0};
    Expect3(C(1, 1, 1), mtwn_colorLab, white, 1e-4, "white lab");
    const double black[3] = {0, 0, 0};
    Expect3(C(0, 0, 0), mtwn_colorLab, black, 1e-12, "black lab");
    // XYZ-D50 of white: D50's white (CSS: 0.3457/0.3585, 1, (1-0.3457-0.3585)/0.3585), to
    // the Bradford matrix's rounding.
    const double d50[3] = {0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585};
    Expect3(C(1, 1, 1), mtwn_colorXyzD50, d50, 1e-5, "white xyz-d50");
    // CSS Color 4's display-p3 of sRGB red: color(display-p3 0.9175 0.2003 0.1386).
    const double p3red[3] = {0.9175, 0.2003, 0.1386};
    Expect3(C(1, 0, 0), mtwn_colorDisplayP3, p3red, 1e-4, "red display-p3");
    // A98 RGB shares sRGB's red primary: red is (k^(256/563), 0, 0), k the ratio of
    // the primaries' luminances in CSS's matrices (0.21263900587151027 / 0.29734497525053605).
    const double a98red[3] = {std::pow(0.21263900587151027 / 0.29734497525053605, 256.0 / 563), 0, 0};
    // g and b: the matrices' residue (~1e-17) through the pure power 256/563 is ~1e-8.
    Expect3(C(1, 0, 0), mtwn_colorA98Rgb, a98red, 1e-7, "red a98");
}

TEST(Color, NewSpacesAgainstIndependentReference) {
    // Primaries, white, black and extended colors against the binary64
    // reference above (CSS's matrices, libm's functions): within 1e-12.
    const mtwnColor cs[] = {C(1, 0, 0), C(0, 1, 0), C(0, 0, 1), C(1, 1, 1), C(0, 0, 0),
                            C(0.2f, 0.7f, 0.4f), C(-0.2f, 1.2f, 0.5f), C(0.01f, 0.02f, 0.003f)};
    for (mtwnColor c : cs) {
        double want[3], lin[3];
        Ref::Lab(c.r, c.g, c.b, want);
        Expect3(c, mtwn_colorLab, want, 1e-11, "lab");
        double lch[3] = {want[0], std::hypot(want[1], want[2]), std::atan2(want[2], want[1])};
        if (lch[2] < 0) lch[2] += kTwoPi;
        double o[4];
        ASSERT_EQ(mtwnConvertColorToSpace(c, mtwn_colorLch, o), mtwn_success);
        EXPECT_NEAR(o[0], lch[0], 1e-11);
        EXPECT_NEAR(o[1], lch[1], 1e-11);
        if (lch[1] > 1e-3) {
            EXPECT_NEAR(o[2], lch[2], 1e-11);
        }
        Ref::Xyz50(c.r, c.g, c.b, want);
        Expect3(c, mtwn_colorXyzD50, want, 1e-14, "xyz-d50");
        Ref::Rgb(kXyzToP3, false, c.r, c.g, c.b, lin);
        for (int i = 0; i < 3; ++i) want[i] = Ref::Gam(lin[i]);
        Expect3(c, mtwn_colorDisplayP3, want, 1e-13, "display-p3");
        Ref::Rgb(kXyzTo2020, false, c.r, c.g, c.b, lin);
        for (int i = 0; i < 3; ++i) want[i] = std::copysign(std::pow(std::fabs(lin[i]), 1 / 2.4), lin[i]);
        Expect3(c, mtwn_colorRec2020, want, 1e-13, "rec2020");
        Ref::Rgb(kXyzToA98, false, c.r, c.g, c.b, lin);
        for (int i = 0; i < 3; ++i) want[i] = std::copysign(std::pow(std::fabs(lin[i]), 256.0 / 563), lin[i]);
        Expect3(c, mtwn_colorA98Rgb, want, 1e-13, "a98");
        Ref::Rgb(kXyz50ToProPhoto, true, c.r, c.g, c.b, lin);
        for (int i = 0; i < 3; ++i) {
            double a = std::fabs(lin[i]);
            want[i] = a < 1.0 / 512 ? 16 * lin[i] : std::copysign(std::pow(a, 1 / 1.8), lin[i]);
        }
        Expect3(c, mtwn_colorProphotoRgb, want, 1e-13, "prophoto");
    }
}

TEST(Color, HslHwbKnownColors) {
    // CSS Color 4 section 7: hsl(120 100% 25%) is rgb(0 128 0)-ish: exactly (0, 0.5, 0)
    // from its hslToRgb; hsl(0 100% 50%) is red; hwb(0 0% 0%) red, hwb(h 50% 50%) grey 0.5.
    mtwnColor c;
    double g[4] = {kTwoPi / 3, 1.0, 0.25, 1.0};
    ASSERT_EQ(mtwnConvertColorFromSpace(g, mtwn_colorHsl, &c), mtwn_success);
    // The hue in radians is 2 pi / 3 rounded, so within a rounding of 0, 0.5, 0.
    EXPECT_NEAR(c.r, 0.0f, 1e-15);
    EXPECT_EQ(c.g, 0.5f);
    EXPECT_NEAR(c.b, 0.0f, 1e-15);
    double o[4];
    ASSERT_EQ(mtwnConvertColorToSpace(C(0, 0.5f, 0), mtwn_colorHsl, o), mtwn_success);
    EXPECT_NEAR(o[0], kTwoPi / 3, 1e-15);
    EXPECT_EQ(o[1], 1.0);
    EXPECT_EQ(o[2], 0.25);
    double red[4] = {0.0, 1.0, 0.5, 1.0};
    ASSERT_EQ(mtwnConvertColorFromSpace(red, mtwn_colorHsl, &c), mtwn_success);
    EXPECT_EQ(c.r, 1.0f);
    EXPECT_EQ(c.g, 0.0f);
    EXPECT_EQ(c.b, 0.0f);
    double hwbRed[4] = {0.0, 0.0, 0.0, 1.0};
    ASSERT_EQ(mtwnConvertColorFromSpace(hwbRed, mtwn_colorHwb, &c), mtwn_success);
    EXPECT_EQ(c.r, 1.0f);
    EXPECT_EQ(c.g, 0.0f);
    EXPECT_EQ(c.b, 0.0f);
    double grey[4] = {2.0, 0.5, 0.5, 1.0};
    ASSERT_EQ(mtwnConvertColorFromSpace(grey, mtwn_colorHwb, &c), mtwn_success);
    EXPECT_EQ(c.r, 0.5f);
    EXPECT_EQ(c.g, 0.5f);
    EXPECT_EQ(c.b, 0.5f);
    // hwb of rgb(20% 60% 40%): hue 150deg, w 0.2, b 0.4 (CSS rgbToHwb).
    ASSERT_EQ(mtwnConvertColorToSpace(C(0.2f, 0.6f, 0.4f), mtwn_colorHwb, o), mtwn_success);
    EXPECT_NEAR(o[0], 150 * kPi / 180, 1e-6);
    EXPECT_EQ(o[1], (double)0.2f);
    EXPECT_EQ(o[2], 1.0 - (double)0.6f);
    // Cyan is hsl(180 100% 50%); an achromatic color's hue is 0, its saturation 0.
    ASSERT_EQ(mtwnConvertColorToSpace(C(0, 1, 1), mtwn_colorHsl, o), mtwn_success);
    EXPECT_NEAR(o[0], kPi, 1e-15);
    ASSERT_EQ(mtwnConvertColorToSpace(C(0.3f, 0.3f, 0.3f), mtwn_colorHsl, o), mtwn_success);
    EXPECT_EQ(o[0], 0.0);
    EXPECT_EQ(o[1], 0.0);
}

TEST(Color, PowerlessHuesInNewPolarSpaces) {
    // White and grey take red's hue in lch, hsl and hwb (CSS Color 4 section 12.4).
    struct { mtwnColorSpace s; int hue; } spaces[] = {
        {mtwn_colorLch, 2}, {mtwn_colorHsl, 0}, {mtwn_colorHwb, 0}};
    for (auto sp : spaces) {
        for (mtwnColor grey : {C(1, 1, 1), C(0.4f, 0.4f, 0.4f), C(0, 0, 0)}) {
            double r[4];
            ASSERT_EQ(mtwnConvertColorToSpace(C(0.2f, 0.9f, 0.3f), sp.s, r), mtwn_success);
            mtwnColorMix m;
            ASSERT_EQ(mtwnMakeColorMix(grey, C(0.2f, 0.9f, 0.3f), sp.s, mtwn_hueShorter, &m), mtwn_success);
            EXPECT_EQ(m.start[sp.hue], r[sp.hue]) << sp.s;
            EXPECT_EQ(m.end[sp.hue], r[sp.hue]) << sp.s;
            ASSERT_EQ(mtwnMakeColorMix(C(0.2f, 0.9f, 0.3f), grey, sp.s, mtwn_hueIncreasing, &m), mtwn_success);
            EXPECT_EQ(m.start[sp.hue], r[sp.hue]) << sp.s;
            EXPECT_EQ(m.end[sp.hue], r[sp.hue]) << sp.s;
            // The mix between a grey and a color keeps the color's hue.
            mtwnColor mid;
            double mo[4];
            ASSERT_EQ(mtwnMixColor(&m, 0.5, &mid), mtwn_success);
            ASSERT_EQ(mtwnConvertColorToSpace(mid, sp.s, mo), mtwn_success);
            EXPECT_NEAR(mo[sp.hue], r[sp.hue], 1e-4) << sp.s;
        }
    }
    // LCH's threshold: a chroma of 0.0015 is powerless, twice that is not.
    for (double chroma : {0.001, 0.01}) {
        double g[4] = {50, chroma, 3.0, 1.0};
        mtwnColor grey;
        ASSERT_EQ(mtwnConvertColorFromSpace(g, mtwn_colorLch, &grey), mtwn_success);
        double back[4], r[4];
        ASSERT_EQ(mtwnConvertColorToSpace(grey, mtwn_colorLch, back), mtwn_success);
        ASSERT_EQ(mtwnConvertColorToSpace(C(1, 0, 0), mtwn_colorLch, r), mtwn_success);
        mtwnColorMix m;
        ASSERT_EQ(mtwnMakeColorMix(grey, C(1, 0, 0), mtwn_colorLch, mtwn_hueShorter, &m), mtwn_success);
        if (back[1] <= MTWN_POWERLESS_LCH_CHROMA) {
            EXPECT_EQ(m.start[2], r[2]);
        } else {
            EXPECT_NE(m.start[2], r[2]);
        }
    }
}

TEST(Color, HueMethodsInEveryPolarSpace) {
    struct { mtwnColorSpace s; int hue; } spaces[] = {
        {mtwn_colorOklch, 2}, {mtwn_colorLch, 2}, {mtwn_colorHsl, 0}, {mtwn_colorHwb, 0}};
    const mtwnColor cs[] = {C(1, 0, 0), C(0, 0, 1), C(1, 1, 0), C(0, 1, 0.5f)};
    for (auto sp : spaces)
        for (mtwnColor a : cs)
            for (mtwnColor b : cs)
                for (int method = 0; method < 4; ++method) {
                    double ca[4], cb[4];
                    ASSERT_EQ(mtwnConvertColorToSpace(a, sp.s, ca), mtwn_success);
                    ASSERT_EQ(mtwnConvertColorToSpace(b, sp.s, cb), mtwn_success);
                    double h1 = ca[sp.hue], h2 = cb[sp.hue], d = h2 - h1;
                    switch (method) {  // CSS Color 4 section 12.4
                    case 0: if (d > kPi) h1 += kTwoPi; else if (d < -kPi) h2 += kTwoPi; break;
                    case 1: if (d > 0 && d < kPi) h1 += kTwoPi; else if (d > -kPi && d <= 0) h2 += kTwoPi; break;
                    case 2: if (d < 0) h2 += kTwoPi; break;
                    default: if (d > 0) h1 += kTwoPi; break;
                    }
                    mtwnColorMix m;
                    ASSERT_EQ(mtwnMakeColorMix(a, b, sp.s, (mtwnHueMethod)method, &m), mtwn_success);
                    EXPECT_EQ(m.start[sp.hue], h1) << sp.s << " " << method;
                    EXPECT_EQ(m.end[sp.hue], h2) << sp.s << " " << method;
                }
    // HSL red to blue: shorter passes through magenta (300deg), longer through green (120deg).
    mtwnColorMix m;
    mtwnColor mid;
    ASSERT_EQ(mtwnMakeColorMix(C(1, 0, 0), C(0, 0, 1), mtwn_colorHsl, mtwn_hueShorter, &m), mtwn_success);
    ASSERT_EQ(mtwnMixColor(&m, 0.5, &mid), mtwn_success);
    EXPECT_NEAR(mid.r, 1.0f, 1e-6); EXPECT_NEAR(mid.g, 0.0f, 1e-6); EXPECT_NEAR(mid.b, 1.0f, 1e-6);
    ASSERT_EQ(mtwnMakeColorMix(C(1, 0, 0), C(0, 0, 1), mtwn_colorHsl, mtwn_hueLonger, &m), mtwn_success);
    ASSERT_EQ(mtwnMixColor(&m, 0.5, &mid), mtwn_success);
    EXPECT_NEAR(mid.r, 0.0f, 1e-6); EXPECT_NEAR(mid.g, 1.0f, 1e-6); EXPECT_NEAR(mid.b, 0.0f, 1e-6);
}

TEST(Color, PremultipliedInNewSpaces) {
    // CSS section 12.3: every coordinate but the hue times alpha.
    for (int s = 5; s <= (int)mtwn_colorProphotoRgb; ++s) {
        double c0[4], c1[4];
        mtwnColor a = C(0.24f, 0.12f, 0.98f, 0.4f), b = C(0.62f, 0.26f, 0.64f, 0.6f);
        ASSERT_EQ(mtwnConvertColorToSpace(a, (mtwnColorSpace)s, c0), mtwn_success);
        ASSERT_EQ(mtwnConvertColorToSpace(b, (mtwnColorSpace)s, c1), mtwn_success);
        mtwnColorMix m;
        ASSERT_EQ(mtwnMakeColorMix(a, b, (mtwnColorSpace)s, mtwn_hueIncreasing, &m), mtwn_success);
        int hue = s == mtwn_colorLch ? 2 : (s == mtwn_colorHsl || s == mtwn_colorHwb) ? 0 : -1;
        for (int i = 0; i < 3; ++i) {
            if (i == hue) continue;
            EXPECT_EQ(m.start[i], c0[i] * (double)a.a) << s;
            EXPECT_EQ(m.end[i], c1[i] * (double)b.a) << s;
        }
        mtwnColor out;
        ASSERT_EQ(mtwnMixColor(&m, 0.0, &out), mtwn_success);
        EXPECT_EQ(std::memcmp(&out, &a, sizeof out), 0);
        ASSERT_EQ(mtwnMixColor(&m, 0.5, &out), mtwn_success);
        EXPECT_NEAR(out.a, 0.5f, 1e-7);
    }
}

TEST(Color, ConvertErrors) {
    double o[4];
    mtwnColor c;
    EXPECT_EQ(mtwnConvertColorToSpace(C(0, 0, 0), mtwn_colorSrgb, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnConvertColorToSpace(C(0, 0, 0), (mtwnColorSpace)14, o), mtwn_errorInvalid);  // the first past the last
    EXPECT_EQ(mtwnConvertColorToSpace(C(0, 0, 0), (mtwnColorSpace)13, o), mtwn_success);
    // Alpha: 0 and 1 in, either side out.
    EXPECT_EQ(mtwnConvertColorToSpace(C(0, 0, 0, 0.0f), mtwn_colorSrgb, o), mtwn_success);
    EXPECT_EQ(mtwnConvertColorToSpace(C(0, 0, 0, -0x1p-149f), mtwn_colorSrgb, o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnConvertColorToSpace(C(0, 0, 0, 1.0f), mtwn_colorSrgb, o), mtwn_success);
    EXPECT_EQ(mtwnConvertColorToSpace(C(0, 0, 0, std::nextafter(1.0f, 2.0f)), mtwn_colorSrgb, o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnConvertColorToSpace(C(FLT_MAX, 0, 0), mtwn_colorOklab, o), mtwn_success);
    EXPECT_EQ(mtwnConvertColorToSpace(C(INFINITY, 0, 0), mtwn_colorSrgb, o), mtwn_errorInvalid);
    EXPECT_EQ(mtwnConvertColorToSpace(C(NAN, 0, 0), mtwn_colorSrgb, o), mtwn_errorInvalid);
    double in[4] = {0.5, 0.1, NAN, 1.0};
    EXPECT_EQ(mtwnConvertColorFromSpace(in, mtwn_colorOklch, &c), mtwn_success);  // NaN hue: none
    double in0[4] = {0.5, 0.1, 0.0, 1.0};
    mtwnColor c0;
    ASSERT_EQ(mtwnConvertColorFromSpace(in0, mtwn_colorOklch, &c0), mtwn_success);
    EXPECT_EQ(c.r, c0.r);
    EXPECT_EQ(mtwnConvertColorFromSpace(in, mtwn_colorOklab, &c), mtwn_errorInvalid);  // not a hue there
    double bad[4] = {0.5, 0.1, 0.0, INFINITY};
    EXPECT_EQ(mtwnConvertColorFromSpace(bad, mtwn_colorOklch, &c), mtwn_errorInvalid);
    EXPECT_EQ(mtwnConvertColorFromSpace(nullptr, mtwn_colorOklch, &c), mtwn_errorInvalid);
    EXPECT_EQ(mtwnConvertColorFromSpace(in0, mtwn_colorOklch, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnConvertColorFromSpace(in0, (mtwnColorSpace)14, &c), mtwn_errorInvalid);
    // Past the floats: held at FLT_MAX, in every space, never NaN.
    double huge[4] = {DBL_MAX, -DBL_MAX, DBL_MAX, 2.0};
    for (int s = 0; s <= (int)mtwn_colorProphotoRgb; ++s) {
        ASSERT_EQ(mtwnConvertColorFromSpace(huge, (mtwnColorSpace)s, &c), mtwn_success);
        EXPECT_TRUE(std::isfinite(c.r) && std::isfinite(c.g) && std::isfinite(c.b)) << s;
        EXPECT_EQ(c.a, 1.0f);
    }
    huge[0] = DBL_MAX;
    ASSERT_EQ(mtwnConvertColorFromSpace(huge, mtwn_colorSrgb, &c), mtwn_success);
    EXPECT_EQ(c.r, FLT_MAX);
    EXPECT_EQ(c.g, -FLT_MAX);
}

TEST(Color, PremultipliedExampleFromCssColor4) {
    // CSS Color 4 section 12.3: rgb(24% 12% 98% / 0.4) and rgb(62% 26% 64% / 0.6)
    // at 50% in sRGB give rgb(46.8% 20.4% 77.6% / 0.5).
    mtwnColorMix m;
    mtwnColor out;
    ASSERT_EQ(mtwnMakeColorMix(C(0.24f, 0.12f, 0.98f, 0.4f), C(0.62f, 0.26f, 0.64f, 0.6f), mtwn_colorSrgb,
                               mtwn_hueShorter, &m),
              mtwn_success);
    ASSERT_EQ(mtwnMixColor(&m, 0.5, &out), mtwn_success);
    EXPECT_NEAR(out.r, 0.468, 1e-6);
    EXPECT_NEAR(out.g, 0.204, 1e-6);
    EXPECT_NEAR(out.b, 0.776, 1e-6);
    EXPECT_NEAR(out.a, 0.5, 1e-7);
    // Exact ends.
    ASSERT_EQ(mtwnMixColor(&m, 0.0, &out), mtwn_success);
    EXPECT_EQ(0, std::memcmp(&out, &m.from, sizeof out));
    ASSERT_EQ(mtwnMixColor(&m, 1.0, &out), mtwn_success);
    EXPECT_EQ(0, std::memcmp(&out, &m.to, sizeof out));
    // Alpha clamped when extending; an alpha of 0 keeps the coordinates.
    ASSERT_EQ(mtwnMixColor(&m, -3.0, &out), mtwn_success);
    EXPECT_EQ(out.a, 0.0f);
    ASSERT_EQ(mtwnMixColor(&m, 5.0, &out), mtwn_success);
    EXPECT_EQ(out.a, 1.0f);
}

TEST(Color, HueFixUpsFollowCss) {
    // Red's OkLCh hue is about 29.2 degrees, blue's about 264.1: d = 234.9 > 180.
    mtwnColor red = C(1, 0, 0), blue = C(0, 0, 1);
    double r[4], b[4];
    ASSERT_EQ(mtwnConvertColorToSpace(red, mtwn_colorOklch, r), mtwn_success);
    ASSERT_EQ(mtwnConvertColorToSpace(blue, mtwn_colorOklch, b), mtwn_success);
    mtwnColorMix m;
    ASSERT_EQ(mtwnMakeColorMix(red, blue, mtwn_colorOklch, mtwn_hueShorter, &m), mtwn_success);
    EXPECT_EQ(m.start[2], r[2] + kTwoPi);  // shorter: h1 += 360
    EXPECT_EQ(m.end[2], b[2]);
    ASSERT_EQ(mtwnMakeColorMix(red, blue, mtwn_colorOklch, mtwn_hueLonger, &m), mtwn_success);
    EXPECT_EQ(m.start[2], r[2]);  // d > 180: longer keeps it
    EXPECT_EQ(m.end[2], b[2]);
    ASSERT_EQ(mtwnMakeColorMix(red, blue, mtwn_colorOklch, mtwn_hueIncreasing, &m), mtwn_success);
    EXPECT_EQ(m.start[2], r[2]);
    EXPECT_EQ(m.end[2], b[2]);
    ASSERT_EQ(mtwnMakeColorMix(red, blue, mtwn_colorOklch, mtwn_hueDecreasing, &m), mtwn_success);
    EXPECT_EQ(m.start[2], r[2] + kTwoPi);  // d > 0: h1 += 360
    ASSERT_EQ(mtwnMakeColorMix(blue, red, mtwn_colorOklch, mtwn_hueShorter, &m), mtwn_success);
    EXPECT_EQ(m.start[2], b[2]);
    EXPECT_EQ(m.end[2], r[2] + kTwoPi);  // d < -180: h2 += 360
    ASSERT_EQ(mtwnMakeColorMix(blue, red, mtwn_colorOklch, mtwn_hueLonger, &m), mtwn_success);
    EXPECT_EQ(m.end[2], r[2]);
    ASSERT_EQ(mtwnMakeColorMix(blue, red, mtwn_colorOklch, mtwn_hueIncreasing, &m), mtwn_success);
    EXPECT_EQ(m.end[2], r[2] + kTwoPi);  // d < 0: h2 += 360
    // Longer with 0 < d < 180 (red to yellow, about 29 to 110 degrees): h1 += 360.
    double y[4];
    ASSERT_EQ(mtwnConvertColorToSpace(C(1, 1, 0), mtwn_colorOklch, y), mtwn_success);
    ASSERT_EQ(mtwnMakeColorMix(red, C(1, 1, 0), mtwn_colorOklch, mtwn_hueLonger, &m), mtwn_success);
    EXPECT_EQ(m.start[2], r[2] + kTwoPi);
    // Equal hues with longer: -180 < d <= 0, h2 += 360 (a full turn).
    ASSERT_EQ(mtwnMakeColorMix(red, red, mtwn_colorOklch, mtwn_hueLonger, &m), mtwn_success);
    EXPECT_EQ(m.end[2], r[2] + kTwoPi);
    // The midpoint of the shorter way from red to blue has a hue near (389.2 + 264.1)/2 = 326.6.
    mtwnColor mid;
    double o[4];
    ASSERT_EQ(mtwnMakeColorMix(red, blue, mtwn_colorOklch, mtwn_hueShorter, &m), mtwn_success);
    ASSERT_EQ(mtwnMixColor(&m, 0.5, &mid), mtwn_success);
    ASSERT_EQ(mtwnConvertColorToSpace(mid, mtwn_colorOklch, o), mtwn_success);
    EXPECT_NEAR(o[2], (r[2] + kTwoPi + b[2]) / 2, 1e-5);
}

TEST(Color, PowerlessHueTakesTheOther) {
    // White's chroma is within MTWN_POWERLESS_CHROMA: its hue is red's, its chroma kept.
    double w[4], r[4];
    ASSERT_EQ(mtwnConvertColorToSpace(C(1, 1, 1), mtwn_colorOklch, w), mtwn_success);
    ASSERT_EQ(mtwnConvertColorToSpace(C(1, 0, 0), mtwn_colorOklch, r), mtwn_success);
    ASSERT_LE(w[1], MTWN_POWERLESS_CHROMA);
    mtwnColorMix m;
    ASSERT_EQ(mtwnMakeColorMix(C(1, 1, 1), C(1, 0, 0), mtwn_colorOklch, mtwn_hueShorter, &m), mtwn_success);
    EXPECT_EQ(m.start[2], r[2]);
    EXPECT_EQ(m.end[2], r[2]);
    EXPECT_EQ(m.start[1], w[1]);  // chroma kept, as CSS's sample code
    // The threshold's both sides: an OkLCh color of chroma exactly 0.000004 is powerless; just above, not.
    for (double chroma : {MTWN_POWERLESS_CHROMA, 2 * MTWN_POWERLESS_CHROMA}) {
        double g[4] = {0.5, chroma, 3.0, 1.0};
        mtwnColor grey;
        ASSERT_EQ(mtwnConvertColorFromSpace(g, mtwn_colorOklch, &grey), mtwn_success);
        double back[4];
        ASSERT_EQ(mtwnConvertColorToSpace(grey, mtwn_colorOklch, back), mtwn_success);
        ASSERT_EQ(mtwnMakeColorMix(grey, C(1, 0, 0), mtwn_colorOklch, mtwn_hueShorter, &m), mtwn_success);
        if (back[1] <= MTWN_POWERLESS_CHROMA) {
            EXPECT_EQ(m.start[2], r[2]);
        } else {
            EXPECT_NE(m.start[2], r[2]);
        }
    }
}

TEST(Color, MixErrors) {
    mtwnColorMix m;
    mtwnColor out;
    EXPECT_EQ(mtwnMakeColorMix(C(0, 0, 0), C(1, 1, 1), mtwn_colorOklab, mtwn_hueShorter, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeColorMix(C(0, 0, 0), C(1, 1, 1), (mtwnColorSpace)14, mtwn_hueShorter, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeColorMix(C(0, 0, 0), C(1, 1, 1), mtwn_colorOklab, (mtwnHueMethod)4, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeColorMix(C(0, 0, 0, 2), C(1, 1, 1), mtwn_colorOklab, mtwn_hueShorter, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeColorMix(C(0, 0, 0), C(NAN, 1, 1), mtwn_colorOklab, mtwn_hueShorter, &m), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeColorMix(C(0, 0, 0), C(1, 1, 1), mtwn_colorOklch, mtwn_hueDecreasing, &m), mtwn_success);
    EXPECT_EQ(mtwnMixColor(nullptr, 0.5, &out), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixColor(&m, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixColor(&m, INFINITY, &out), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixColor(&m, NAN, &out), mtwn_errorInvalid);
    mtwnColorMix bad = m;
    bad.reserved[1] = 1;
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_errorInvalid);
    bad = m;
    bad.space = 14;
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_errorInvalid);
    bad = m;
    bad.start[3] = 0.5;  // not its color's alpha
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_errorInvalid);
    bad = m;
    bad.end[0] = INFINITY;
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_errorInvalid);
    bad = m;
    bad.from.a = -1;
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_errorInvalid);
    // OkLCh hue: 0 to 4 pi in, outside out.
    bad = m;
    bad.end[2] = 2 * kTwoPi;
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_success);
    bad.end[2] = std::nextafter(2 * kTwoPi, 100.0);
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_errorInvalid);
    bad.end[2] = 0.0;
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_success);
    bad.end[2] = -0x1p-1074;
    EXPECT_EQ(mtwnMixColor(&bad, 0.5, &out), mtwn_errorInvalid);
    // Far out: finite, never NaN, in every space.
    for (int s = 0; s <= (int)mtwn_colorProphotoRgb; ++s) {
        ASSERT_EQ(mtwnMakeColorMix(C(-3, 0.2f, 9, 0.3f), C(FLT_MAX, 0, -FLT_MAX, 1), (mtwnColorSpace)s,
                                   mtwn_hueLonger, &m),
                  mtwn_success);
        for (double p : {1e300, -1e300, 1e10, -7.0, 0.999}) {
            ASSERT_EQ(mtwnMixColor(&m, p, &out), mtwn_success);
            EXPECT_TRUE(std::isfinite(out.r) && std::isfinite(out.g) && std::isfinite(out.b)) << s << " " << p;
            EXPECT_TRUE(out.a >= 0 && out.a <= 1);
        }
    }
}

// ---- angles ----

TEST(Angle, Methods) {
    double a;
    // shorter: 0 -> 3pi/2 goes by -pi/2.
    ASSERT_EQ(mtwnMixAngle(0.0, 1.5 * kPi, mtwn_angleShorter, 0.5, &a), mtwn_success);
    EXPECT_NEAR(a, -0.25 * kPi, 1e-15);
    ASSERT_EQ(mtwnMixAngle(0.0, 1.5 * kPi, mtwn_angleLonger, 0.5, &a), mtwn_success);
    EXPECT_NEAR(a, 0.75 * kPi, 1e-15);
    ASSERT_EQ(mtwnMixAngle(0.0, 0.5 * kPi, mtwn_angleLonger, 0.5, &a), mtwn_success);
    EXPECT_NEAR(a, -0.75 * kPi, 1e-15);
    ASSERT_EQ(mtwnMixAngle(1.0, -1.0, mtwn_angleIncreasing, 1.0, &a), mtwn_success);
    EXPECT_NEAR(a, kTwoPi - 1.0, 1e-15);
    ASSERT_EQ(mtwnMixAngle(-1.0, 1.0, mtwn_angleDecreasing, 1.0, &a), mtwn_success);
    EXPECT_NEAR(a, 1.0 - kTwoPi, 1e-15);
    // Many turns apart: shorter brings them within pi.
    ASSERT_EQ(mtwnMixAngle(0.1, 0.2 + 40 * kTwoPi, mtwn_angleShorter, 1.0, &a), mtwn_success);
    EXPECT_NEAR(a, 0.2, 1e-12);
    // Exact ends: from at 0; to at 1 with no turn.
    ASSERT_EQ(mtwnMixAngle(0.3, 1.1, mtwn_angleShorter, 0.0, &a), mtwn_success);
    EXPECT_EQ(a, 0.3);
    ASSERT_EQ(mtwnMixAngle(0.3, 1.1, mtwn_angleShorter, 1.0, &a), mtwn_success);
    EXPECT_EQ(a, 1.1);
    // Boundaries: exactly pi apart stays (shorter), just past it turns.
    ASSERT_EQ(mtwnMixAngle(0.0, kPi, mtwn_angleShorter, 1.0, &a), mtwn_success);
    EXPECT_EQ(a, kPi);
    ASSERT_EQ(mtwnMixAngle(0.0, std::nextafter(kPi, 9.0), mtwn_angleShorter, 1.0, &a), mtwn_success);
    EXPECT_LT(a, 0.0);
    // increasing: 0 kept, decreasing: 0 kept.
    ASSERT_EQ(mtwnMixAngle(2.0, 2.0, mtwn_angleIncreasing, 1.0, &a), mtwn_success);
    EXPECT_EQ(a, 2.0);
    ASSERT_EQ(mtwnMixAngle(2.0, 2.0, mtwn_angleDecreasing, 1.0, &a), mtwn_success);
    EXPECT_EQ(a, 2.0);
}

TEST(Angle, Errors) {
    double a;
    EXPECT_EQ(mtwnMixAngle(0, 1, mtwn_angleShorter, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixAngle(0, 1, (mtwnAngleMethod)4, 0.5, &a), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixAngle(NAN, 1, mtwn_angleShorter, 0.5, &a), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixAngle(0, INFINITY, mtwn_angleShorter, 0.5, &a), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixAngle(0, 1, mtwn_angleShorter, -INFINITY, &a), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixAngle(-DBL_MAX, DBL_MAX, mtwn_angleShorter, 0.5, &a), mtwn_success);
    EXPECT_TRUE(std::isfinite(a));
}

// ---- rotations ----

TEST(Rotation, SlerpQuarterTurn) {
    // Identity to 90 degrees about z: halfway is 45 degrees, (0, 0, sin(pi/8), cos(pi/8)).
    mtwnQuat id{0, 0, 0, 1};
    mtwnQuat z90{0, 0, (float)std::sin(kPi / 4), (float)std::cos(kPi / 4)};
    mtwnRotationMix m;
    mtwnQuat q;
    ASSERT_EQ(mtwnMakeRotationMix(id, z90, mtwn_rotationShortest, &m), mtwn_success);
    EXPECT_NEAR(m.angle, kPi / 4, 1e-7);
    ASSERT_EQ(mtwnMixRotation(&m, 0.5, &q), mtwn_success);
    EXPECT_NEAR(q.z, std::sin(kPi / 8), 1e-7);
    EXPECT_NEAR(q.w, std::cos(kPi / 8), 1e-7);
    // Constant angular speed: a quarter of the way is 22.5 degrees.
    ASSERT_EQ(mtwnMixRotation(&m, 0.25, &q), mtwn_success);
    EXPECT_NEAR(q.z, std::sin(kPi / 16), 1e-7);
    // Beyond: 2 gives 180 degrees.
    ASSERT_EQ(mtwnMixRotation(&m, 2.0, &q), mtwn_success);
    EXPECT_NEAR(q.z, 1.0, 1e-7);
    EXPECT_NEAR(q.w, 0.0, 1e-7);
    // Unnormalized input: normalized ends exactly.
    ASSERT_EQ(mtwnMakeRotationMix(mtwnQuat{0, 0, 0, 3}, z90, mtwn_rotationShortest, &m), mtwn_success);
    ASSERT_EQ(mtwnMixRotation(&m, 0.0, &q), mtwn_success);
    EXPECT_EQ(q.w, 1.0f);
}

TEST(Rotation, ShortestAndLongest) {
    mtwnQuat a{0, 0, 0, 1};
    mtwnQuat b{0, 0, -0.38268343f, -0.92387953f};  // 45 degrees about z, negated
    mtwnRotationMix m;
    mtwnQuat q;
    ASSERT_EQ(mtwnMakeRotationMix(a, b, mtwn_rotationShortest, &m), mtwn_success);
    EXPECT_GT(m.to[3], 0.0);  // negated into a's hemisphere
    ASSERT_EQ(mtwnMixRotation(&m, 1.0, &q), mtwn_success);
    EXPECT_EQ(q.w, (float)m.to[3]);
    ASSERT_EQ(mtwnMakeRotationMix(a, b, mtwn_rotationLongest, &m), mtwn_success);
    EXPECT_LT(m.to[3], 0.0);
    EXPECT_GT(m.angle, kPi / 2);
    // Same rotation: shortest stays at any progress; longest is refused (|q0 + q1| = 0 after its sign).
    ASSERT_EQ(mtwnMakeRotationMix(a, a, mtwn_rotationShortest, &m), mtwn_success);
    ASSERT_EQ(mtwnMixRotation(&m, 0.37, &q), mtwn_success);
    EXPECT_EQ(q.w, 1.0f);
    EXPECT_EQ(mtwnMakeRotationMix(a, a, mtwn_rotationLongest, &m), mtwn_errorInvalid);
    // Around the 1e-6 limit: a small rotation of angle theta has |q0 - q1| = 2 sin(theta/4)... use the sum directly.
    // q1 = (sin t, 0, 0, cos t): after the longest's negation |q0 + q1| = 2 sin(t / 2).
    for (double s : {0.9e-6, 1.1e-6}) {
        double t = 2.0 * std::asin(s / 2.0);
        mtwnQuat q1{(float)std::sin(t), 0, 0, (float)std::cos(t)};
        double n = std::hypot(std::sin(t), 0.0);
        (void)n;
        mtwnResult r = mtwnMakeRotationMix(a, q1, mtwn_rotationLongest, &m);
        // Float rounding of q1: compute the actual sum.
        double qq[4] = {q1.x, q1.y, q1.z, q1.w};
        double len = std::sqrt(qq[0] * qq[0] + qq[3] * qq[3]);
        double sum = std::hypot(0.0 - qq[0] / len, 1.0 - qq[3] / len);
        EXPECT_EQ(r, sum < 1e-6 ? mtwn_errorInvalid : mtwn_success) << s;
    }
}

TEST(Rotation, Errors) {
    mtwnRotationMix m;
    mtwnQuat q;
    mtwnQuat a{0, 0, 0, 1};
    EXPECT_EQ(mtwnMakeRotationMix(a, a, mtwn_rotationShortest, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeRotationMix(a, a, (mtwnRotationPath)2, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeRotationMix(mtwnQuat{0, 0, 0, 0}, a, mtwn_rotationShortest, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeRotationMix(mtwnQuat{0, 0, 0, 0x1p-149f}, a, mtwn_rotationShortest, &m), mtwn_success);
    EXPECT_EQ(mtwnMakeRotationMix(mtwnQuat{INFINITY, 0, 0, 1}, a, mtwn_rotationShortest, &m), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeRotationMix(a, mtwnQuat{1, 0, 0, 0}, mtwn_rotationShortest, &m), mtwn_success);
    EXPECT_EQ(mtwnMixRotation(nullptr, 0.5, &q), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixRotation(&m, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixRotation(&m, NAN, &q), mtwn_errorInvalid);
    mtwnRotationMix bad = m;
    bad.angle = kPi;
    EXPECT_EQ(mtwnMixRotation(&bad, 0.5, &q), mtwn_success);
    bad.angle = std::nextafter(kPi, 4.0);
    EXPECT_EQ(mtwnMixRotation(&bad, 0.5, &q), mtwn_errorInvalid);
    bad.angle = -0x1p-1074;
    EXPECT_EQ(mtwnMixRotation(&bad, 0.5, &q), mtwn_errorInvalid);
    // Unit length to 12 * 2^-53 in the squared length.
    bad = m;
    bad.from[3] = 1.0 + 5.0 * 0x1p-53;  // squared: 1 + 10 * 2^-53
    EXPECT_EQ(mtwnMixRotation(&bad, 0.5, &q), mtwn_success);
    bad.from[3] = 1.0 + 7.0 * 0x1p-53;  // squared: 1 + 14 * 2^-53
    EXPECT_EQ(mtwnMixRotation(&bad, 0.5, &q), mtwn_errorInvalid);
    bad = m;
    bad.toRotation.x = 0.5f;  // not stored as its float
    EXPECT_EQ(mtwnMixRotation(&bad, 0.5, &q), mtwn_errorInvalid);
}

// ---- scales ----

TEST(Scale, Geometric) {
    mtwnScaleMix m;
    double s;
    ASSERT_EQ(mtwnMakeScaleMix(1.0, 4.0, &m), mtwn_success);
    ASSERT_EQ(mtwnMixScale(&m, 0.5, &s), mtwn_success);
    EXPECT_NEAR(s, 2.0, 1e-15);
    ASSERT_EQ(mtwnMixScale(&m, -1.0, &s), mtwn_success);
    EXPECT_NEAR(s, 0.25, 1e-15);
    ASSERT_EQ(mtwnMakeScaleMix(3e-300, 7e300, &m), mtwn_success);
    ASSERT_EQ(mtwnMixScale(&m, 0.0, &s), mtwn_success);
    EXPECT_EQ(s, 3e-300);
    ASSERT_EQ(mtwnMixScale(&m, 1.0, &s), mtwn_success);
    EXPECT_EQ(s, 7e300);
    ASSERT_EQ(mtwnMixScale(&m, 0.9, &s), mtwn_success);
    EXPECT_TRUE(std::isfinite(s));
    ASSERT_EQ(mtwnMixScale(&m, 100.0, &s), mtwn_success);
    EXPECT_EQ(s, INFINITY);
    ASSERT_EQ(mtwnMixScale(&m, -100.0, &s), mtwn_success);
    EXPECT_EQ(s, 0.0);
}

TEST(Scale, Errors) {
    mtwnScaleMix m;
    double s;
    EXPECT_EQ(mtwnMakeScaleMix(1, 2, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeScaleMix(0.0, 2, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeScaleMix(0x1p-1074, 2, &m), mtwn_success);
    EXPECT_EQ(mtwnMakeScaleMix(1, DBL_MAX, &m), mtwn_success);
    EXPECT_EQ(mtwnMakeScaleMix(1, INFINITY, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeScaleMix(-1, 2, &m), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeScaleMix(1, 2, &m), mtwn_success);
    EXPECT_EQ(mtwnMixScale(nullptr, 0.5, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixScale(&m, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixScale(&m, NAN, &s), mtwn_errorInvalid);
    mtwnScaleMix bad = m;
    bad.logTo = INFINITY;
    EXPECT_EQ(mtwnMixScale(&bad, 0.5, &s), mtwn_errorInvalid);
    bad = m;
    bad.from = 0.0;
    EXPECT_EQ(mtwnMixScale(&bad, 0.5, &s), mtwn_errorInvalid);
}

// ---- zoom ----

TEST(Zoom, GeometricLengthIsLogOverRho) {
    mtwnZoomMix m;
    double len;
    mtwnZoomView v;
    ASSERT_EQ(mtwnMakeZoomMix({0, 0, 1}, {0, 0, std::exp(1.0)}, 2.0, &m), mtwn_success);
    ASSERT_EQ(mtwnComputeZoomLength(&m, &len), mtwn_success);
    EXPECT_NEAR(len, 0.5, 1e-15);  // a factor of e is 1 / rho
    ASSERT_EQ(mtwnMixZoom(&m, 0.5, &v), mtwn_success);
    EXPECT_NEAR(v.width, std::exp(0.5), 1e-15);
    ASSERT_EQ(mtwnMakeZoomMix({3, 4, 2}, {3, 4, 2}, 1.0, &m), mtwn_success);
    ASSERT_EQ(mtwnComputeZoomLength(&m, &len), mtwn_success);
    EXPECT_EQ(len, 0.0);
}

TEST(Zoom, PanOfEqualWidths) {
    // w0 = w1 = w, pan d: b0 = rho^2 d / (2w), S = 2 asinh(rho^2 d / (2w)) / rho;
    // by symmetry the middle view is centered halfway, at the widest, w cosh(r0).
    const double rho = std::sqrt(2.0);
    mtwnZoomMix m;
    double len;
    mtwnZoomView v;
    ASSERT_EQ(mtwnMakeZoomMix({0, 0, 1}, {1, 0, 1}, rho, &m), mtwn_success);
    ASSERT_EQ(mtwnComputeZoomLength(&m, &len), mtwn_success);
    EXPECT_NEAR(len, 2.0 * std::asinh(1.0) / rho, 1e-14);
    ASSERT_EQ(mtwnMixZoom(&m, 0.5, &v), mtwn_success);
    EXPECT_NEAR(v.x, 0.5, 1e-14);
    EXPECT_NEAR(v.y, 0.0, 1e-15);
    EXPECT_NEAR(v.width, std::cosh(std::asinh(1.0)), 1e-14);
    ASSERT_EQ(mtwnMixZoom(&m, 0.0, &v), mtwn_success);
    EXPECT_EQ(v.x, 0.0);
    ASSERT_EQ(mtwnMixZoom(&m, 1.0, &v), mtwn_success);
    EXPECT_EQ(v.x, 1.0);
    EXPECT_EQ(v.width, 1.0);
    // Symmetric lengths.
    mtwnZoomMix back;
    double len2;
    ASSERT_EQ(mtwnMakeZoomMix({1, 0, 1}, {0, 0, 1}, rho, &back), mtwn_success);
    ASSERT_EQ(mtwnComputeZoomLength(&back, &len2), mtwn_success);
    EXPECT_NEAR(len, len2, 1e-15);
    // Extending: width to 0, center settles, never NaN.
    for (double p : {1e3, -1e3, 1e300, -1e300}) {
        ASSERT_EQ(mtwnMixZoom(&m, p, &v), mtwn_success);
        EXPECT_FALSE(std::isnan(v.x) || std::isnan(v.y) || std::isnan(v.width));
        EXPECT_EQ(v.width, 0.0);
    }
}

TEST(Zoom, Errors) {
    mtwnZoomMix m;
    mtwnZoomView v;
    double len;
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 1}, {1, 0, 1}, 1.0, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 0}, {1, 0, 1}, 1.0, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeZoomMix({NAN, 0, 1}, {1, 0, 1}, 1.0, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeZoomMix({-DBL_MAX, 0, 1}, {DBL_MAX, 0, 1}, 1.0, &m), mtwn_errorInvalid);
    // rho: MTWN_MIN_ZOOM_RHO and MTWN_MAX_ZOOM_RHO in, either side out.
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 1}, {0, 0, 2}, MTWN_MIN_ZOOM_RHO, &m), mtwn_success);
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 1}, {0, 0, 2}, std::nextafter(MTWN_MIN_ZOOM_RHO, 0.0), &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 1}, {0, 0, 2}, MTWN_MAX_ZOOM_RHO, &m), mtwn_success);
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 1}, {0, 0, 2}, std::nextafter(MTWN_MAX_ZOOM_RHO, INFINITY), &m),
              mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 1}, {0, 0, 2}, NAN, &m), mtwn_errorInvalid);
    // A pan against the width far past the doubles: refused; moderate: fine.
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 1e-200}, {1e200, 0, 1e-200}, 1.0, &m), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeZoomMix({0, 0, 1e-70}, {1e70, 0, 1e-70}, 1.0, &m), mtwn_success);
    // The geometric threshold: a pan of the width times 2^-32 is geometric, above it a pan.
    ASSERT_EQ(mtwnMakeZoomMix({0, 0, 1}, {MTWN_ZOOM_PAN_EPSILON, 0, 2}, 1.0, &m), mtwn_success);
    EXPECT_EQ(m.panScale, 0.0);
    ASSERT_EQ(mtwnMakeZoomMix({0, 0, 1}, {std::nextafter(MTWN_ZOOM_PAN_EPSILON, 1.0), 0, 2}, 1.0, &m), mtwn_success);
    EXPECT_GT(m.panScale, 0.0);
    ASSERT_EQ(mtwnMakeZoomMix({0, 0, 1}, {1, 0, 1}, 1.0, &m), mtwn_success);
    EXPECT_EQ(mtwnMixZoom(nullptr, 0.5, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixZoom(&m, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixZoom(&m, NAN, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeZoomLength(nullptr, &len), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeZoomLength(&m, nullptr), mtwn_errorInvalid);
    mtwnZoomMix bad = m;
    bad.r0 = MTWN_MAX_ZOOM_R0;
    EXPECT_EQ(mtwnMixZoom(&bad, 0.5, &v), mtwn_success);
    bad.r0 = std::nextafter(MTWN_MAX_ZOOM_R0, 1e9);
    EXPECT_EQ(mtwnMixZoom(&bad, 0.5, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeZoomLength(&bad, &len), mtwn_errorInvalid);
    bad = m;
    bad.coshR0 = std::nextafter(1.0, 0.0);
    EXPECT_EQ(mtwnMixZoom(&bad, 0.5, &v), mtwn_errorInvalid);
    bad = m;
    bad.length = -0x1p-1074;
    EXPECT_EQ(mtwnMixZoom(&bad, 0.5, &v), mtwn_errorInvalid);
    bad = m;
    bad.panScale = INFINITY;
    EXPECT_EQ(mtwnMixZoom(&bad, 0.5, &v), mtwn_errorInvalid);
    bad = m;
    bad.rho = 0.0;
    EXPECT_EQ(mtwnMixZoom(&bad, 0.5, &v), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeZoomMix({0, 0, 1}, {0, 0, 2}, 1.0, &m), mtwn_success);
    bad = m;
    bad.scale.to = 3.0;  // not the other view's width
    EXPECT_EQ(mtwnMixZoom(&bad, 0.5, &v), mtwn_errorInvalid);
    // A hand-made mix with a huge pan's scale still gives no NaN.
    ASSERT_EQ(mtwnMakeZoomMix({0, 0, 1}, {0, 1, 1}, 1.0, &m), mtwn_success);
    bad = m;
    bad.panScale = DBL_MAX;
    ASSERT_EQ(mtwnMixZoom(&bad, 0.7, &v), mtwn_success);
    EXPECT_FALSE(std::isnan(v.x) || std::isnan(v.y));
    EXPECT_EQ(v.x, 0.0);
}

// ---- integers and discrete ----

TEST(Integer, TiesAwayFromZero) {
    int64_t v;
    ASSERT_EQ(mtwnMixInteger(0, 10, 0.25, &v), mtwn_success);
    EXPECT_EQ(v, 3);  // 2.5
    ASSERT_EQ(mtwnMixInteger(0, -10, 0.25, &v), mtwn_success);
    EXPECT_EQ(v, -3);
    ASSERT_EQ(mtwnMixInteger(0, 10, 0.24, &v), mtwn_success);
    EXPECT_EQ(v, 2);
    ASSERT_EQ(mtwnMixInteger(INT64_MAX, 5, 0.0, &v), mtwn_success);
    EXPECT_EQ(v, INT64_MAX);
    ASSERT_EQ(mtwnMixInteger(5, INT64_MAX - 1, 1.0, &v), mtwn_success);
    EXPECT_EQ(v, INT64_MAX - 1);
    ASSERT_EQ(mtwnMixInteger(0, INT64_MAX, 3.0, &v), mtwn_success);
    EXPECT_EQ(v, INT64_MAX);
    ASSERT_EQ(mtwnMixInteger(0, INT64_MIN, 3.0, &v), mtwn_success);
    EXPECT_EQ(v, INT64_MIN);
    // Passes through every integer between.
    for (int i = 0; i <= 100; ++i) {
        ASSERT_EQ(mtwnMixInteger(-50, 50, i / 100.0, &v), mtwn_success);
        EXPECT_EQ(v, -50 + i);
    }
    EXPECT_EQ(mtwnMixInteger(0, 1, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixInteger(0, 1, NAN, &v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixInteger(0, 1, INFINITY, &v), mtwn_errorInvalid);
}

TEST(Discrete, StepsAtHalf) {
    uint32_t v;
    ASSERT_EQ(mtwnMixDiscrete(3, 9, std::nextafter(0.5, 0.0), &v), mtwn_success);
    EXPECT_EQ(v, 3u);
    ASSERT_EQ(mtwnMixDiscrete(3, 9, 0.5, &v), mtwn_success);
    EXPECT_EQ(v, 9u);
    ASSERT_EQ(mtwnMixDiscrete(3, 9, -5.0, &v), mtwn_success);
    EXPECT_EQ(v, 3u);
    EXPECT_EQ(mtwnMixDiscrete(3, 9, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMixDiscrete(3, 9, NAN, &v), mtwn_errorInvalid);
}

// ---- punch and shake ----

TEST(Punch, Formula) {
    mtwnPunch p;
    double f;
    ASSERT_EQ(mtwnMakePunch(2.0, 1.0, 1.0, &p), mtwn_success);
    ASSERT_EQ(mtwnSamplePunch(&p, 0.125, &f), mtwn_success);
    EXPECT_NEAR(f, 0.875, 1e-15);  // sin(pi/2) (1 - 1/8)
    ASSERT_EQ(mtwnMakePunch(2.0, 1.0, 2.0, &p), mtwn_success);
    ASSERT_EQ(mtwnSamplePunch(&p, 0.375, &f), mtwn_success);
    EXPECT_NEAR(f, -0.625 * 0.625, 1e-15);  // sin(3pi/2) (5/8)^2
    for (double t : {0.0, 1.0, -1.0, 2.0, (double)INFINITY, -(double)INFINITY}) {
        ASSERT_EQ(mtwnSamplePunch(&p, t, &f), mtwn_success);
        EXPECT_EQ(f, 0.0) << t;
    }
    EXPECT_EQ(mtwnSamplePunch(&p, NAN, &f), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSamplePunch(nullptr, 0.5, &f), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSamplePunch(&p, 0.5, nullptr), mtwn_errorInvalid);
    mtwnPunch bad = p;
    bad.exponent = 0.0;
    EXPECT_EQ(mtwnSamplePunch(&bad, 0.5, &f), mtwn_errorInvalid);
}

TEST(Punch, Ranges) {
    mtwnPunch p;
    EXPECT_EQ(mtwnMakePunch(1, 1, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePunch(0, 1, 1, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePunch(0x1p-1074, 1, 1, &p), mtwn_success);
    EXPECT_EQ(mtwnMakePunch(1, 0, 1, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePunch(1, 1, 0, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePunch(1, 1, 0x1p-1074, &p), mtwn_success);
    EXPECT_EQ(mtwnMakePunch(1, 1, INFINITY, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakePunch(1, INFINITY, 1, &p), mtwn_errorInvalid);
    // Cycles: MTWN_MAX_CYCLES in, past it out.
    EXPECT_EQ(mtwnMakePunch(MTWN_MAX_CYCLES, 1, 1, &p), mtwn_success);
    EXPECT_EQ(mtwnMakePunch(std::nextafter(MTWN_MAX_CYCLES, INFINITY), 1, 1, &p), mtwn_errorInvalid);
}

// A second implementation of the shake's noise from its header and docs.
double RefGradient(uint64_t seed, uint32_t channel, int64_t i) {
    mcore_Rng r;
    mcore_RngSeed(&r, seed);
    uint64_t k = mcore_RngNext(&r) ^ ((uint64_t)channel * 0xD1B54A32D192ED03ull);
    mcore_RngSeed(&r, k);
    k = mcore_RngNext(&r) ^ (uint64_t)i;
    mcore_RngSeed(&r, k);
    return 2.0 * mcore_RngDouble01(&r) - 1.0;
}

double RefNoise(uint64_t seed, uint32_t channel, double x) {
    double i0 = std::floor(x), f = x - i0;
    double g0 = RefGradient(seed, channel, (int64_t)i0), g1 = RefGradient(seed, channel, (int64_t)i0 + 1);
    double s = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    return 2.0 * (g0 * f * (1.0 - s) + g1 * (f - 1.0) * s);
}

TEST(Shake, NoiseAndEnvelope) {
    mtwnShake s;
    double f, n;
    ASSERT_EQ(mtwnMakeShake(10.0, 2.0, 1.5, 1234, &s), mtwn_success);
    for (double t : {0.0, 2.0, -0.1, 2.5, 0.1, 0.2, (double)INFINITY}) {  // 0.1, 0.2: lattice points
        ASSERT_EQ(mtwnSampleShake(&s, 0, t, &f), mtwn_success);
        EXPECT_EQ(f, 0.0) << t;
    }
    bool differs = false;
    for (int i = 1; i < 400; ++i) {
        double t = i * 0.00499;
        ASSERT_EQ(mtwnSampleShakeNoise(&s, 1, t, &n), mtwn_success);
        EXPECT_NEAR(n, RefNoise(1234, 1, 10.0 * t), 1e-15);
        EXPECT_LE(std::fabs(n), 1.0);
        ASSERT_EQ(mtwnSampleShake(&s, 1, t, &f), mtwn_success);
        EXPECT_NEAR(f, n * std::pow(1.0 - t / 2.0, 1.5), 1e-14);
        double other;
        ASSERT_EQ(mtwnSampleShakeNoise(&s, 2, t, &other), mtwn_success);
        if (other != n) differs = true;
    }
    EXPECT_TRUE(differs);  // each channel its own noise
    // The noise alone runs on any clock; 0 from 2^53 on.
    ASSERT_EQ(mtwnSampleShakeNoise(&s, 0, -3.33, &n), mtwn_success);
    EXPECT_NEAR(n, RefNoise(1234, 0, -33.3), 1e-15);
    ASSERT_EQ(mtwnSampleShakeNoise(&s, 0, 0x1p53 / 10.0 * 1.01, &n), mtwn_success);
    EXPECT_EQ(n, 0.0);
    ASSERT_EQ(mtwnSampleShakeNoise(&s, 0, -INFINITY, &n), mtwn_success);
    EXPECT_EQ(n, 0.0);
}

TEST(Shake, Errors) {
    mtwnShake s;
    double f;
    EXPECT_EQ(mtwnMakeShake(1, 1, 1, 0, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeShake(0, 1, 1, 0, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeShake(1, -1, 1, 0, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeShake(1, 1, -1, 0, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnMakeShake(MTWN_MAX_CYCLES / 4, 4, 1, 0, &s), mtwn_success);
    EXPECT_EQ(mtwnMakeShake(std::nextafter(MTWN_MAX_CYCLES / 4, INFINITY), 4, 1, 0, &s), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeShake(1, 1, 1, 0, &s), mtwn_success);
    EXPECT_EQ(mtwnSampleShake(nullptr, 0, 0.5, &f), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleShake(&s, 0, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleShake(&s, 0, NAN, &f), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleShakeNoise(nullptr, 0, 0.5, &f), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleShakeNoise(&s, 0, 0.5, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleShakeNoise(&s, 0, NAN, &f), mtwn_errorInvalid);
    mtwnShake bad = s;
    bad.frequency = -1;
    EXPECT_EQ(mtwnSampleShake(&bad, 0, 0.5, &f), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleShakeNoise(&bad, 0, 0.5, &f), mtwn_errorInvalid);
}

}  // namespace
