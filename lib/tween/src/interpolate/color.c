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

bool mtwn_IsColorValid(mtwnColor c)
{
    return mtwn_IsFinite(c.r) && mtwn_IsFinite(c.g) && mtwn_IsFinite(c.b) && c.a >= 0.0f && c.a <= 1.0f;
}

static bool isSpaceKnown(uint32_t space)
{
    return space <= (uint32_t)mtwn_colorOklch;
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
    if (space == mtwn_colorSrgbLinear) {
        lin[0] = v[0];
        lin[1] = v[1];
        lin[2] = v[2];
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
    if (coordinatesOut == NULL || !isSpaceKnown((uint32_t)space) || !mtwn_IsColorValid(color)) {
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
    if (coordinates == NULL || colorOut == NULL || !isSpaceKnown((uint32_t)space)) return mtwn_errorInvalid;
    for (int i = 0; i < 4; ++i) {
        bool hueNaN = space == mtwn_colorOklch && i == 2 && coordinates[i] != coordinates[i];
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

mtwnResult mtwnMakeColorMix(mtwnColor from, mtwnColor to, mtwnColorSpace space, mtwnHueMethod hue,
                            mtwnColorMix* mixOut)
{
    mtwnColorMix m;
    double c0[3];
    double c1[3];
    double a0 = (double)from.a;
    double a1 = (double)to.a;
    if (mixOut == NULL || !isSpaceKnown((uint32_t)space) || (uint32_t)hue > (uint32_t)mtwn_hueDecreasing ||
        !mtwn_IsColorValid(from) || !mtwn_IsColorValid(to)) {
        return mtwn_errorInvalid;
    }
    colorToSpace(from, (uint32_t)space, c0);
    colorToSpace(to, (uint32_t)space, c1);
    if (space == mtwn_colorOklch) {
        bool p0 = c0[1] <= MTWN_POWERLESS_CHROMA;
        bool p1 = c1[1] <= MTWN_POWERLESS_CHROMA;
        if (p0 && !p1) c0[2] = c1[2];
        if (p1 && !p0) c1[2] = c0[2];
        fixHues(&c0[2], &c1[2], (uint32_t)hue);
    }
    m.from = from;
    m.to = to;
    m.space = (uint32_t)space;
    m.hue = (uint32_t)hue;
    m.reserved[0] = 0;
    m.reserved[1] = 0;
    for (int i = 0; i < 3; ++i) {
        bool isHue = space == mtwn_colorOklch && i == 2;
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
    if (!isSpaceKnown(m->space) || m->hue > (uint32_t)mtwn_hueDecreasing || m->reserved[0] != 0 ||
        m->reserved[1] != 0 || !mtwn_IsColorValid(m->from) || !mtwn_IsColorValid(m->to)) {
        return false;
    }
    for (int i = 0; i < 4; ++i) {
        if (!mtwn_IsFinite(m->start[i]) || !mtwn_IsFinite(m->end[i])) return false;
    }
    if (m->start[3] != (double)m->from.a || m->end[3] != (double)m->to.a) return false;
    if (m->space == mtwn_colorOklch) {
        const double fourPi = 2.0 * MTWN_TWO_PI;
        if (!(m->start[2] >= 0.0 && m->start[2] <= fourPi && m->end[2] >= 0.0 && m->end[2] <= fourPi)) return false;
    }
    return true;
}

static double holdDouble(double v)
{
    if (v > DBL_MAX) return DBL_MAX;
    if (v < -DBL_MAX) return -DBL_MAX;
    return v;
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
        bool isHue = mix->space == mtwn_colorOklch && i == 2;
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
