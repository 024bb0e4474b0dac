/* Maul Tween: color conversion and mixing (interpolate.h), CSS Color 4.
 *
 * The matrices are CSS Color 4's sample code (conversions.js): sRGB's as the
 * exact rationals it gives (each a compile-time IEEE division, correctly
 * rounded), Oklab's as its decimal literals. Every sum is left to right. */
#include <float.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/interpolate/interpolate_internal.h"
#include "maul/tween/interpolate.h"

static const double kLinSrgbToXyz[3][3] = {
    {506752.0 / 1228815.0, 87881.0 / 245763.0, 12673.0 / 70218.0},
    {87098.0 / 409605.0, 175762.0 / 245763.0, 12673.0 / 175545.0},
    {7918.0 / 409605.0, 87881.0 / 737289.0, 1001167.0 / 1053270.0},
};
static const double kXyzToLinSrgb[3][3] = {
    {12831.0 / 3959.0, -329.0 / 214.0, -1974.0 / 3959.0},
    {-851781.0 / 878810.0, 1648619.0 / 878810.0, 36519.0 / 878810.0},
    {705.0 / 12673.0, -2585.0 / 12673.0, 705.0 / 667.0},
};
static const double kXyzToLms[3][3] = {
    {0.8190224379967030, 0.3619062600528904, -0.1288737815209879},
    {0.0329836539323885, 0.9292868615863434, 0.0361446663506424},
    {0.0481771893596242, 0.2642395317527308, 0.6335478284694309},
};
static const double kLmsToOklab[3][3] = {
    {0.2104542683093140, 0.7936177747023054, -0.0040720430116193},
    {1.9779985324311684, -2.4285922420485799, 0.4505937096174110},
    {0.0259040424655478, 0.7827717124575296, -0.8086757549230774},
};
static const double kOklabToLms[3][3] = {
    {1.0, 0.3963377773761749, 0.2158037573099136},
    {1.0, -0.1055613458156586, -0.0638541728258133},
    {1.0, -0.0894841775298119, -1.2914855480194092},
};
static const double kLmsToXyz[3][3] = {
    {1.2268798758459243, -0.5578149944602171, 0.2813910456659647},
    {-0.0405757452148008, 1.1122868032803170, -0.0717110580655164},
    {-0.0763729366746601, -0.4214933324022432, 1.5869240198367816},
};

/* CSS Color 4's other spaces (conversions.js): Bradford D65 <-> D50, Display
 * P3, Rec. 2020 and A98 RGB as its rationals, ProPhoto's and Bradford's as its
 * decimals; D50's white from its 4-figure chromaticities. */
static const double kD65ToD50[3][3] = {
    {1.0479297925449969, 0.022946870601609652, -0.05019226628920524},
    {0.02962780877005599, 0.9904344267538799, -0.017073799063418826},
    {-0.009243040646204504, 0.015055191490298152, 0.7518742814281371},
};
static const double kD50ToD65[3][3] = {
    {0.955473421488075, -0.02309845494876471, 0.06325924320057072},
    {-0.0283697093338637, 1.0099953980813041, 0.021041441191917323},
    {0.012314014864481998, -0.020507649298898964, 1.330365926242124},
};
static const double kD50White[3] = {0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585};
static const double kLinP3ToXyz[3][3] = {
    {608311.0 / 1250200.0, 189793.0 / 714400.0, 198249.0 / 1000160.0},
    {35783.0 / 156275.0, 247089.0 / 357200.0, 198249.0 / 2500400.0},
    {0.0, 32229.0 / 714400.0, 5220557.0 / 5000800.0},
};
static const double kXyzToLinP3[3][3] = {
    {446124.0 / 178915.0, -333277.0 / 357830.0, -72051.0 / 178915.0},
    {-14852.0 / 17905.0, 63121.0 / 35810.0, 423.0 / 17905.0},
    {11844.0 / 330415.0, -50337.0 / 660830.0, 316169.0 / 330415.0},
};
static const double kLin2020ToXyz[3][3] = {
    {63426534.0 / 99577255.0, 20160776.0 / 139408157.0, 47086771.0 / 278816314.0},
    {26158966.0 / 99577255.0, 472592308.0 / 697040785.0, 8267143.0 / 139408157.0},
    {0.0, 19567812.0 / 697040785.0, 295819943.0 / 278816314.0},
};
static const double kXyzToLin2020[3][3] = {
    {30757411.0 / 17917100.0, -6372589.0 / 17917100.0, -4539589.0 / 17917100.0},
    {-19765991.0 / 29648200.0, 47925759.0 / 29648200.0, 467509.0 / 29648200.0},
    {792561.0 / 44930125.0, -1921689.0 / 44930125.0, 42328811.0 / 44930125.0},
};
static const double kLinA98ToXyz[3][3] = {
    {573536.0 / 994567.0, 263643.0 / 1420810.0, 187206.0 / 994567.0},
    {591459.0 / 1989134.0, 6239551.0 / 9945670.0, 374412.0 / 4972835.0},
    {53769.0 / 1989134.0, 351524.0 / 4972835.0, 4929758.0 / 4972835.0},
};
static const double kXyzToLinA98[3][3] = {
    {1829569.0 / 896150.0, -506331.0 / 896150.0, -308931.0 / 896150.0},
    {-851781.0 / 878810.0, 1648619.0 / 878810.0, 36519.0 / 878810.0},
    {16779.0 / 1248040.0, -147721.0 / 1248040.0, 1266979.0 / 1248040.0},
};
static const double kLinProPhotoToXyzD50[3][3] = {
    {0.7977666449006423, 0.13518129740053308, 0.0313477341283922},
    {0.2880748288194013, 0.711835234241873, 0.00008993693872564},
    {0.0, 0.0, 0.8251046025104602},
};
static const double kXyzD50ToLinProPhoto[3][3] = {
    {1.3457868816471583, -0.25557208737979464, -0.05110186497554526},
    {-0.5446307051249019, 1.5082477428451468, 0.02052744743642139},
    {0.0, 0.0, 1.2119675456389452},
};

/* CIE Lab's constants (CSS Color 4: 216/24389 and 24389/27). */
#define MTWN_LAB_EPSILON (216.0 / 24389.0)
#define MTWN_LAB_KAPPA (24389.0 / 27.0)

static void mul3(const double m[3][3], const double v[3], double out[3])
{
    double r[3];
    for (int i = 0; i < 3; ++i) r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
}

static double absd(double v)
{
    return v < 0.0 ? -v : v;
}

/* CSS Color 4 lin_sRGB: gamma-encoded to linear light, odd-symmetric. */
static double srgbToLinear(double v)
{
    double a = absd(v);
    double r;
    if (a <= 0.04045) return v / 12.92;
    r = mcore_pow((a + 0.055) / 1.055, 2.4);
    return v < 0.0 ? -r : r;
}

/* CSS Color 4 gam_sRGB: linear light to gamma-encoded, odd-symmetric. */
static double linearToSrgb(double v)
{
    double a = absd(v);
    double r;
    if (a <= 0.0031308) return 12.92 * v;
    r = 1.055 * mcore_pow(a, 1.0 / 2.4) - 0.055;
    return v < 0.0 ? -r : r;
}

static double holdDouble(double v)
{
    if (v > DBL_MAX) return DBL_MAX;
    if (v < -DBL_MAX) return -DBL_MAX;
    return v;
}

/* CSS Color 4 lin_2020 and gam_2020 (Rec. ITU-R BT.1886's reference EOTF,
 * gamma 2.4), lin_a98rgb and gam_a98rgb (563/256), lin_ProPhoto and
 * gam_ProPhoto (1.8 with a linear part): all odd-extended for negative
 * channels, as the sample code extends them. */
static double rec2020ToLinear(double v)
{
    double r = mcore_pow(absd(v), 2.4);
    return v < 0.0 ? -r : r;
}

static double linearToRec2020(double v)
{
    double r = mcore_pow(absd(v), 1.0 / 2.4);
    return v < 0.0 ? -r : r;
}

static double a98ToLinear(double v)
{
    double r = mcore_pow(absd(v), 563.0 / 256.0);
    return v < 0.0 ? -r : r;
}

static double linearToA98(double v)
{
    double r = mcore_pow(absd(v), 256.0 / 563.0);
    return v < 0.0 ? -r : r;
}

static double proPhotoToLinear(double v)
{
    double a = absd(v);
    double r;
    if (a <= 16.0 / 512.0) return v / 16.0;
    r = mcore_pow(a, 1.8);
    return v < 0.0 ? -r : r;
}

static double linearToProPhoto(double v)
{
    double a = absd(v);
    double r;
    if (a < 1.0 / 512.0) return 16.0 * v;
    r = mcore_pow(a, 1.0 / 1.8);
    return v < 0.0 ? -r : r;
}

/* CSS Color 4 XYZ_to_Lab (XYZ relative to D50). */
static void xyzD50ToLab(const double xyz[3], double out[3])
{
    double f[3];
    for (int i = 0; i < 3; ++i) {
        double v = xyz[i] / kD50White[i];
        f[i] = v > MTWN_LAB_EPSILON ? mcore_cbrt(v) : (MTWN_LAB_KAPPA * v + 16.0) / 116.0;
    }
    out[0] = 116.0 * f[1] - 16.0;
    out[1] = 500.0 * (f[0] - f[1]);
    out[2] = 200.0 * (f[1] - f[2]);
}

/* CSS Color 4 Lab_to_XYZ, each coordinate held within the doubles. */
static void labToXyzD50(const double lab[3], double out[3])
{
    double f[3];
    double xyz[3];
    double c;
    f[1] = (lab[0] + 16.0) / 116.0;
    f[0] = lab[1] / 500.0 + f[1];
    f[2] = f[1] - lab[2] / 200.0;
    c = f[0] * f[0] * f[0];
    xyz[0] = c > MTWN_LAB_EPSILON ? c : (116.0 * f[0] - 16.0) / MTWN_LAB_KAPPA;
    xyz[1] = lab[0] > MTWN_LAB_KAPPA * MTWN_LAB_EPSILON ? f[1] * f[1] * f[1] : lab[0] / MTWN_LAB_KAPPA;
    c = f[2] * f[2] * f[2];
    xyz[2] = c > MTWN_LAB_EPSILON ? c : (116.0 * f[2] - 16.0) / MTWN_LAB_KAPPA;
    for (int i = 0; i < 3; ++i) out[i] = holdDouble(holdDouble(xyz[i]) * kD50White[i]);
}

/* Rectangular (a, b) to polar (C, h), h in 0 to 2 pi. */
static void toPolar(double a, double b, double* c, double* h)
{
    double t = mcore_atan2(b, a);
    *c = mcore_hypot(a, b);
    if (t < 0.0) t = t + MTWN_TWO_PI;
    if (t >= MTWN_TWO_PI) t = 0.0;
    *h = t;
}

/* CSS Color 4 rgbToHsl on gamma-encoded sRGB (s and l as fractions, not
 * percentages), a negative saturation turned positive with the hue moved by
 * half a turn as its sample code does (for HSL only: HWB takes the hue
 * unmoved, as CSS's rgbToHwb takes rgbToHue's); an achromatic color's hue is
 * 0 (CSS's NaN). The hue in radians, 0 to 2 pi. */
static void srgbToHsl(const double v[3], bool flip, double out[3])
{
    double r = v[0], g = v[1], b = v[2];
    double mx = r, mn = r;
    double l, d, h = 0.0, sat = 0.0;
    if (g > mx) mx = g;
    if (b > mx) mx = b;
    if (g < mn) mn = g;
    if (b < mn) mn = b;
    l = (mn + mx) / 2.0;
    d = mx - mn;
    if (d != 0.0) {
        double m = l < 1.0 - l ? l : 1.0 - l;
        sat = (l == 0.0 || l == 1.0) ? 0.0 : (mx - l) / m;
        if (mx == r) {
            h = (g - b) / d + (g < b ? 6.0 : 0.0);
        } else if (mx == g) {
            h = (b - r) / d + 2.0;
        } else {
            h = (r - g) / d + 4.0;
        }
        h = h * (MTWN_PI / 3.0);
    }
    if (flip && sat < 0.0) {
        h = h + MTWN_PI;
        sat = -sat;
    }
    if (h >= MTWN_TWO_PI) h = h - MTWN_TWO_PI;
    if (h < 0.0 || h >= MTWN_TWO_PI) h = 0.0;
    out[0] = h;
    out[1] = sat;
    out[2] = l;
}

/* CSS Color 4 hslToRgb's f(n) for a hue in twelfths of a turn. */
static double hslChannel(double n, double twelfths, double sat, double light)
{
    double k = mcore_fmod(n + twelfths, 12.0);
    double m = 1.0 - light;
    double a;
    double t;
    if (k < 0.0) k = k + 12.0;
    a = holdDouble(sat * (light < m ? light : m));
    t = k - 3.0;
    if (9.0 - k < t) t = 9.0 - k;
    if (1.0 < t) t = 1.0;
    if (t < -1.0) t = -1.0;
    return light - a * t;
}

/* A hue in radians to twelfths of a turn; a hue not finite or past the
 * doubles counts as 0. */
static double hueTwelfths(double h)
{
    double t;
    if (!mtwn_IsFinite(h)) return 0.0;
    t = h * (6.0 / MTWN_PI);
    return mtwn_IsFinite(t) ? t : 0.0;
}

/* CSS Color 4 hslToRgb (s, l fractions, hue in radians) to gamma-encoded sRGB. */
static void hslToSrgb(const double in[3], double out[3])
{
    double t = hueTwelfths(in[0]);
    out[0] = hslChannel(0.0, t, in[1], in[2]);
    out[1] = hslChannel(8.0, t, in[1], in[2]);
    out[2] = hslChannel(4.0, t, in[1], in[2]);
}

/* CSS Color 4 hwbToRgb (w, b fractions). */
static void hwbToSrgb(const double in[3], double out[3])
{
    double w = in[1];
    double bl = in[2];
    double sum = w + bl;
    double hsl[3];
    double k;
    if (sum >= 1.0) {
        double gray = w / sum;
        out[0] = gray;
        out[1] = gray;
        out[2] = gray;
        return;
    }
    hsl[0] = in[0];
    hsl[1] = 1.0;
    hsl[2] = 0.5;
    hslToSrgb(hsl, out);
    k = holdDouble(1.0 - w - bl);
    for (int i = 0; i < 3; ++i) out[i] = out[i] * k + w;
}

bool mtwn_IsColorValid(mtwnColor c)
{
    return mtwn_IsFinite(c.r) && mtwn_IsFinite(c.g) && mtwn_IsFinite(c.b) && c.a >= 0.0f && c.a <= 1.0f;
}


/* The index of a polar space's hue, -1 for a rectangular space. */
static int hueIndex(uint32_t space)
{
    if (space == mtwn_colorOklch || space == mtwn_colorLch) return 2;
    if (space == mtwn_colorHsl || space == mtwn_colorHwb) return 0;
    return -1;
}

/* Color (floats) to a space's three coordinates. Never overflows: floats
 * are within 2^128. */
static void colorToSpace(mtwnColor c, uint32_t space, double out[3])
{
    double v[3] = {(double)c.r, (double)c.g, (double)c.b};
    double lin[3];
    double xyz[3];
    double lms[3];
    if (space == mtwn_colorSrgb) {
        out[0] = v[0];
        out[1] = v[1];
        out[2] = v[2];
        return;
    }
    if (space == mtwn_colorHsl || space == mtwn_colorHwb) {
        srgbToHsl(v, space == mtwn_colorHsl, out);
        if (space == mtwn_colorHwb) {
            double mx = v[0], mn = v[0];
            if (v[1] > mx) mx = v[1];
            if (v[2] > mx) mx = v[2];
            if (v[1] < mn) mn = v[1];
            if (v[2] < mn) mn = v[2];
            out[1] = mn;
            out[2] = 1.0 - mx;
        }
        return;
    }
    for (int i = 0; i < 3; ++i) lin[i] = srgbToLinear(v[i]);
    if (space == mtwn_colorSrgbLinear) {
        out[0] = lin[0];
        out[1] = lin[1];
        out[2] = lin[2];
        return;
    }
    mul3(kLinSrgbToXyz, lin, xyz);
    if (space == mtwn_colorXyzD65) {
        out[0] = xyz[0];
        out[1] = xyz[1];
        out[2] = xyz[2];
        return;
    }
    if (space == mtwn_colorDisplayP3 || space == mtwn_colorRec2020 || space == mtwn_colorA98Rgb) {
        double rgb[3];
        mul3(space == mtwn_colorDisplayP3 ? kXyzToLinP3 : space == mtwn_colorRec2020 ? kXyzToLin2020 : kXyzToLinA98,
             xyz, rgb);
        for (int i = 0; i < 3; ++i) {
            out[i] = space == mtwn_colorDisplayP3 ? linearToSrgb(rgb[i])
                     : space == mtwn_colorRec2020 ? linearToRec2020(rgb[i])
                                                  : linearToA98(rgb[i]);
        }
        return;
    }
    if (space == mtwn_colorXyzD50 || space == mtwn_colorLab || space == mtwn_colorLch ||
        space == mtwn_colorProphotoRgb) {
        double d50[3];
        mul3(kD65ToD50, xyz, d50);
        if (space == mtwn_colorXyzD50) {
            out[0] = d50[0];
            out[1] = d50[1];
            out[2] = d50[2];
        } else if (space == mtwn_colorProphotoRgb) {
            double rgb[3];
            mul3(kXyzD50ToLinProPhoto, d50, rgb);
            for (int i = 0; i < 3; ++i) out[i] = linearToProPhoto(rgb[i]);
        } else {
            xyzD50ToLab(d50, out);
            if (space == mtwn_colorLch) toPolar(out[1], out[2], &out[1], &out[2]);
        }
        return;
    }
    mul3(kXyzToLms, xyz, lms);
    for (int i = 0; i < 3; ++i) lms[i] = mcore_cbrt(lms[i]);
    mul3(kLmsToOklab, lms, out);
    if (space == mtwn_colorOklch) {
        double a = out[1];
        double b = out[2];
        double h = mcore_atan2(b, a);
        out[1] = mcore_hypot(a, b);
        if (h < 0.0) h = h + MTWN_TWO_PI;
        if (h >= MTWN_TWO_PI) h = 0.0;
        out[2] = h;
    }
}

/* Scales v (three finite doubles) by 2^-e, e a multiple of 100, so that
 * its largest magnitude is at most 2^limitExp; returns e. */
static int scaleDown(double v[3], double limit)
{
    int e = 0;
    double m = absd(v[0]);
    if (absd(v[1]) > m) m = absd(v[1]);
    if (absd(v[2]) > m) m = absd(v[2]);
    while (m > limit) {
        m = m * 0x1p-100;
        v[0] = v[0] * 0x1p-100;
        v[1] = v[1] * 0x1p-100;
        v[2] = v[2] * 0x1p-100;
        e += 100;
    }
    return e;
}

static void scaleUp(double v[3], int e)
{
    for (; e > 0; e -= 100) {
        v[0] = v[0] * 0x1p100;
        v[1] = v[1] * 0x1p100;
        v[2] = v[2] * 0x1p100;
    }
}

/* A space's three finite coordinates (an OkLCh hue any double; infinite or
 * NaN counts as 0) to gamma-encoded sRGB doubles, which may be infinite past
 * the doubles' range but are never NaN. */
static void spaceToSrgb(const double in[3], uint32_t space, double out[3])
{
    double v[3] = {in[0], in[1], in[2]};
    double lin[3];
    int e;
    if (space == mtwn_colorSrgb) {
        out[0] = v[0];
        out[1] = v[1];
        out[2] = v[2];
        return;
    }
    if (space == mtwn_colorHsl) {
        hslToSrgb(v, out);
        return;
    }
    if (space == mtwn_colorHwb) {
        hwbToSrgb(v, out);
        return;
    }
    if (space == mtwn_colorSrgbLinear) {
        lin[0] = v[0];
        lin[1] = v[1];
        lin[2] = v[2];
    } else if (space >= (uint32_t)mtwn_colorLab) {
        /* Linear light or XYZ, each held within the doubles, scaled down
         * by powers of two through the matrices (all linear). */
        double u[3];
        double xyz[3];
        bool d50 = space == mtwn_colorLab || space == mtwn_colorLch || space == mtwn_colorXyzD50 ||
                   space == mtwn_colorProphotoRgb;
        if (space == mtwn_colorLab || space == mtwn_colorLch) {
            if (space == mtwn_colorLch) {
                double c = v[1];
                double h = v[2];
                double sn;
                double co;
                if (!mtwn_IsFinite(h)) h = 0.0;
                mcore_sincos(h, &sn, &co);
                v[1] = c * co;
                v[2] = c * sn;
            }
            labToXyzD50(v, u);
        } else {
            for (int i = 0; i < 3; ++i) {
                double x = v[i];
                if (space == mtwn_colorDisplayP3) x = srgbToLinear(x);
                if (space == mtwn_colorRec2020) x = rec2020ToLinear(x);
                if (space == mtwn_colorA98Rgb) x = a98ToLinear(x);
                if (space == mtwn_colorProphotoRgb) x = proPhotoToLinear(x);
                u[i] = holdDouble(x);
            }
        }
        e = scaleDown(u, 0x1p1000);
        if (space == mtwn_colorDisplayP3) {
            mul3(kLinP3ToXyz, u, xyz);
        } else if (space == mtwn_colorRec2020) {
            mul3(kLin2020ToXyz, u, xyz);
        } else if (space == mtwn_colorA98Rgb) {
            mul3(kLinA98ToXyz, u, xyz);
        } else if (space == mtwn_colorProphotoRgb) {
            mul3(kLinProPhotoToXyzD50, u, xyz);
        } else {
            xyz[0] = u[0];
            xyz[1] = u[1];
            xyz[2] = u[2];
        }
        if (d50) mul3(kD50ToD65, xyz, xyz);
        mul3(kXyzToLinSrgb, xyz, lin);
        scaleUp(lin, e);
    } else if (space == mtwn_colorXyzD65) {
        e = scaleDown(v, 0x1p1000);
        mul3(kXyzToLinSrgb, v, lin);
        scaleUp(lin, e);
    } else {
        double lms[3];
        double xyz[3];
        if (space == mtwn_colorOklch) {
            double c = v[1];
            double h = v[2];
            double s;
            double co;
            if (!mtwn_IsFinite(h)) h = 0.0;
            mcore_sincos(h, &s, &co);
            v[1] = c * co;
            v[2] = c * s;
        }
        e = scaleDown(v, 0x1p300);
        mul3(kOklabToLms, v, lms);
        for (int i = 0; i < 3; ++i) lms[i] = lms[i] * lms[i] * lms[i];
        mul3(kLmsToXyz, lms, xyz);
        mul3(kXyzToLinSrgb, xyz, lin);
        scaleUp(lin, 3 * e);
    }
    for (int i = 0; i < 3; ++i) out[i] = linearToSrgb(lin[i]);
}

static double clampUnit(double a)
{
    if (a < 0.0) return 0.0;
    if (a > 1.0) return 1.0;
    return a;
}

static mtwnColor srgbToColor(const double s[3], double alpha)
{
    mtwnColor c;
    c.r = mtwn_ToFloatHeld(s[0]);
    c.g = mtwn_ToFloatHeld(s[1]);
    c.b = mtwn_ToFloatHeld(s[2]);
    c.a = (float)clampUnit(alpha);
    return c;
}

mtwnResult mtwnConvertColorToSpace(mtwnColor color, mtwnColorSpace space, double coordinatesOut[4])
{
    double c[3];
    if (coordinatesOut == NULL || !mtwn_IsColorSpaceKnown((uint32_t)space) || !mtwn_IsColorValid(color)) {
        return mtwn_errorInvalid;
    }
    colorToSpace(color, (uint32_t)space, c);
    coordinatesOut[0] = c[0];
    coordinatesOut[1] = c[1];
    coordinatesOut[2] = c[2];
    coordinatesOut[3] = (double)color.a;
    return mtwn_success;
}

mtwnResult mtwnConvertColorFromSpace(const double coordinates[4], mtwnColorSpace space, mtwnColor* colorOut)
{
    double s[3];
    if (coordinates == NULL || colorOut == NULL || !mtwn_IsColorSpaceKnown((uint32_t)space)) return mtwn_errorInvalid;
    for (int i = 0; i < 4; ++i) {
        bool hueNaN = i == hueIndex((uint32_t)space) && coordinates[i] != coordinates[i];
        if (!hueNaN && !mtwn_IsFinite(coordinates[i])) return mtwn_errorInvalid;
    }
    spaceToSrgb(coordinates, (uint32_t)space, s);
    *colorOut = srgbToColor(s, coordinates[3]);
    return mtwn_success;
}

/* CSS Color 4's hue fix-up of h1, h2 in 0 to 2 pi. */
static void fixHues(double* h1, double* h2, uint32_t method)
{
    double d = *h2 - *h1;
    switch (method) {
    case mtwn_hueShorter:
        if (d > MTWN_PI) {
            *h1 = *h1 + MTWN_TWO_PI;
        } else if (d < -MTWN_PI) {
            *h2 = *h2 + MTWN_TWO_PI;
        }
        break;
    case mtwn_hueLonger:
        if (d > 0.0 && d < MTWN_PI) {
            *h1 = *h1 + MTWN_TWO_PI;
        } else if (d > -MTWN_PI && d <= 0.0) {
            *h2 = *h2 + MTWN_TWO_PI;
        }
        break;
    case mtwn_hueIncreasing:
        if (d < 0.0) *h2 = *h2 + MTWN_TWO_PI;
        break;
    default: /* decreasing */
        if (d > 0.0) *h1 = *h1 + MTWN_TWO_PI;
        break;
    }
}

/* Whether a color's hue is powerless in a polar space (c its coordinates):
 * OkLCh and CIE LCH chroma at most their thresholds, HSL saturation 0, HWB
 * whiteness plus blackness 1 or more, and for HSL and HWB any achromatic
 * color (its three channels equal). */
static bool isHuePowerless(mtwnColor color, const double c[3], uint32_t space)
{
    if (space == mtwn_colorOklch) return c[1] <= MTWN_POWERLESS_CHROMA;
    if (space == mtwn_colorLch) return c[1] <= MTWN_POWERLESS_LCH_CHROMA;
    if (color.r == color.g && color.g == color.b) return true;
    if (space == mtwn_colorHsl) return c[1] == 0.0;
    return c[1] + c[2] >= 1.0;
}

mtwnResult mtwnMakeColorMix(mtwnColor from, mtwnColor to, mtwnColorSpace space, mtwnHueMethod hue,
                            mtwnColorMix* mixOut)
{
    mtwnColorMix m;
    double c0[3];
    double c1[3];
    double a0 = (double)from.a;
    double a1 = (double)to.a;
    if (mixOut == NULL || !mtwn_IsColorSpaceKnown((uint32_t)space) || (uint32_t)hue > (uint32_t)mtwn_hueDecreasing ||
        !mtwn_IsColorValid(from) || !mtwn_IsColorValid(to)) {
        return mtwn_errorInvalid;
    }
    colorToSpace(from, (uint32_t)space, c0);
    colorToSpace(to, (uint32_t)space, c1);
    if (hueIndex((uint32_t)space) >= 0) {
        int hi = hueIndex((uint32_t)space);
        bool p0 = isHuePowerless(from, c0, (uint32_t)space);
        bool p1 = isHuePowerless(to, c1, (uint32_t)space);
        if (p0 && !p1) c0[hi] = c1[hi];
        if (p1 && !p0) c1[hi] = c0[hi];
        fixHues(&c0[hi], &c1[hi], (uint32_t)hue);
    }
    m.from = from;
    m.to = to;
    m.space = (uint32_t)space;
    m.hue = (uint32_t)hue;
    m.reserved[0] = 0;
    m.reserved[1] = 0;
    for (int i = 0; i < 3; ++i) {
        bool isHue = i == hueIndex((uint32_t)space);
        m.start[i] = isHue ? c0[i] : c0[i] * a0;
        m.end[i] = isHue ? c1[i] : c1[i] * a1;
    }
    m.start[3] = a0;
    m.end[3] = a1;
    *mixOut = m;
    return mtwn_success;
}

static bool isColorMixValid(const mtwnColorMix* m)
{
    if (!mtwn_IsColorSpaceKnown(m->space) || m->hue > (uint32_t)mtwn_hueDecreasing || m->reserved[0] != 0 ||
        m->reserved[1] != 0 || !mtwn_IsColorValid(m->from) || !mtwn_IsColorValid(m->to)) {
        return false;
    }
    for (int i = 0; i < 4; ++i) {
        if (!mtwn_IsFinite(m->start[i]) || !mtwn_IsFinite(m->end[i])) return false;
    }
    if (m->start[3] != (double)m->from.a || m->end[3] != (double)m->to.a) return false;
    if (hueIndex(m->space) >= 0) {
        const double fourPi = 2.0 * MTWN_TWO_PI;
        const int hi = hueIndex(m->space);
        if (!(m->start[hi] >= 0.0 && m->start[hi] <= fourPi && m->end[hi] >= 0.0 && m->end[hi] <= fourPi)) return false;
    }
    return true;
}

mtwnResult mtwnMixColor(const mtwnColorMix* mix, double progress, mtwnColor* colorOut)
{
    double v[3];
    double s[3];
    double alpha;
    if (mix == NULL || colorOut == NULL || !mtwn_IsFinite(progress) || !isColorMixValid(mix)) {
        return mtwn_errorInvalid;
    }
    if (progress == 0.0) {
        *colorOut = mix->from;
        return mtwn_success;
    }
    if (progress == 1.0) {
        *colorOut = mix->to;
        return mtwn_success;
    }
    alpha = mix->start[3] + (mix->end[3] - mix->start[3]) * progress;
    for (int i = 0; i < 3; ++i) {
        bool isHue = i == hueIndex(mix->space);
        double x = mix->start[i] + (mix->end[i] - mix->start[i]) * progress;
        if (isHue) {
            v[i] = mtwn_IsFinite(x) ? x : 0.0;
        } else {
            x = holdDouble(x);
            if (alpha > 0.0) x = holdDouble(x / alpha);
            v[i] = x;
        }
    }
    spaceToSrgb(v, mix->space, s);
    *colorOut = srgbToColor(s, alpha);
    return mtwn_success;
}
