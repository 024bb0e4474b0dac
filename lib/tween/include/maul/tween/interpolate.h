/* Maul Tween: interpolate.h
 *
 * Interpolation of values that are not plain numbers: colors in a named space
 * as CSS Color 4 interpolates them, angles with CSS's hue methods, rotations
 * by slerp, scales in ratio, van Wijk and Nuij's zoom and pan, integers and
 * discrete values, and punch and shake, the signals a host adds to a value.
 *
 * A maker checks its arguments and writes a mix; a sampler reads it. A mix's
 * sampler checks its fields by their ranges, not by making the mix again,
 * which would cost as much as the sample. A mix that passes the check gives no
 * undefined behavior and no NaN; it is not promised to equal what a maker
 * would give. A color or rotation is finite, held within the floats as a
 * target holds it; a scale or zoom reaches infinity or 0 only past the
 * doubles' range, as a maker's mix does.
 *
 * Everything is binary64 from IEEE + - * / and sqrt and the math core
 * (lib/core/detmath.h), each expression in a fixed order: the same bits on
 * every platform (docs/determinism.md). Angles are in radians everywhere,
 * OkLCh hues included. docs/internals/color.md gives the choices the
 * standards leave open.
 */
#ifndef MAUL_TWEEN_INTERPOLATE_H
#define MAUL_TWEEN_INTERPOLATE_H

#include "maul/tween/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Colors -------------------------------------------------------------------- */

/* A color: CSS's sRGB, gamma-encoded, 0 to 1 within the gamut and any finite
 * float outside it (extended sRGB, as CSS Color 4 keeps out-of-gamut
 * results), with a straight (not premultiplied) alpha.
 * "A color outside the above": a channel r, g or b not finite, or an alpha not
 * from 0 to 1 (NaN included). */
typedef struct mtwnColor {
    float r, g, b; /* sRGB channels, finite */
    float a;       /* alpha, from 0 to 1 */
} mtwnColor;

/* The spaces colors are interpolated and converted in (CSS Color 4's
 * <color-space> names). Their coordinates, as mtwnConvertColorToSpace gives
 * them (coordinate 3 is always the alpha):
 *   srgb:        r, g, b, gamma-encoded (the color's own channels)
 *   srgbLinear:  r, g, b, linear light
 *   xyzD65:      X, Y, Z relative to D65, Y = 1 for white
 *   oklab:       L (0 to 1 for in-gamut colors), a, b
 *   oklch:       L, C (chroma, from 0), h (hue in radians, from 0 below 2 pi)
 *   lab:         CIE L (0 to 100 for in-gamut colors), a, b, relative to D50
 *                (CSS's lab(), D65 adapted by Bradford's matrix)
 *   lch:         CIE L, C (chroma, from 0), h (hue in radians, from 0 below 2 pi)
 *   xyzD50:      X, Y, Z relative to D50 (Bradford), Y = 1 for white
 *   hsl:         h (hue in radians, from 0 below 2 pi), s, l, as fractions
 *                (CSS's percentages over 100)
 *   hwb:         h (hue in radians, from 0 below 2 pi), w, b, as fractions
 *   displayP3:   r, g, b, gamma-encoded (sRGB's transfer function)
 *   rec2020:     r, g, b, gamma-encoded (gamma 2.4, CSS Color 4's BT.1886)
 *   a98Rgb:      r, g, b, gamma-encoded (gamma 563/256)
 *   prophotoRgb: r, g, b, gamma-encoded (gamma 1.8, linear below 1/512), D50
 * The transfer functions are odd-extended for negative channels, as CSS
 * Color 4's sample code extends them. Frozen values. */
typedef enum mtwnColorSpace {
    mtwn_colorSrgb = 0,
    mtwn_colorSrgbLinear = 1,
    mtwn_colorXyzD65 = 2,
    mtwn_colorOklab = 3,
    mtwn_colorOklch = 4,
    mtwn_colorLab = 5,
    mtwn_colorLch = 6,
    mtwn_colorXyzD50 = 7,
    mtwn_colorHsl = 8,
    mtwn_colorHwb = 9,
    mtwn_colorDisplayP3 = 10,
    mtwn_colorRec2020 = 11,
    mtwn_colorA98Rgb = 12,
    mtwn_colorProphotoRgb = 13
} mtwnColorSpace;

/* CSS Color 4's <hue-interpolation-method>, applied to hues h1, h2 already in
 * 0 to 2 pi (CSS's 0 to 360 degrees), d = h2 - h1. Frozen values.
 *   shorter:    d > pi: h1 += 2 pi; d < -pi: h2 += 2 pi
 *   longer:     0 < d < pi: h1 += 2 pi; -pi < d <= 0: h2 += 2 pi
 *   increasing: d < 0: h2 += 2 pi
 *   decreasing: d > 0: h1 += 2 pi
 * So both fixed-up hues lie in 0 to 4 pi. */
typedef enum mtwnHueMethod {
    mtwn_hueShorter = 0,
    mtwn_hueLonger = 1,
    mtwn_hueIncreasing = 2,
    mtwn_hueDecreasing = 3
} mtwnHueMethod;

/* A hue whose OkLCh chroma is at most this is powerless (CSS Color 4 section
 * 12.2, with the threshold of CSS's sample code): the other color's hue is
 * interpolated in its place. */
#define MTWN_POWERLESS_CHROMA 0.000004

/* The same for a CIE LCH chroma (CSS's sample code's threshold for lch).
 * An HSL hue is powerless where the saturation is 0, an HWB hue where the
 * whiteness plus the blackness is 1 or more (CSS Color 4), and both where
 * the color is achromatic (its three channels equal). */
#define MTWN_POWERLESS_LCH_CHROMA 0.0015

/* A color mix, written by mtwnMakeColorMix. */
typedef struct mtwnColorMix {
    mtwnColor from;    /* the first color, given exactly at progress 0 */
    mtwnColor to;      /* the second color, given exactly at progress 1 */
    uint32_t space;    /* mtwnColorSpace */
    uint32_t hue;      /* mtwnHueMethod (kept for reference; the hues below are fixed up) */
    uint32_t reserved[2]; /* 0 ("padding") */
    /* The ends in the space, premultiplied by their alpha (the hue
     * excepted), the hues fixed up, coordinate 3 the alpha as a double. */
    double start[4];
    double end[4];
} mtwnColorMix;

/* -- Angles and rotations -------------------------------------------------------- */

/* How mtwnMixAngle moves the end at progress 1 by whole turns (2 pi, the
 * double nearest it) before interpolating, d = to - from. Frozen values.
 *   shorter:    d into -pi to pi (either end of it kept as it is)
 *   longer:     the shorter d, then 0 < d < pi: d - 2 pi; -pi < d <= 0: d + 2 pi
 *               (CSS's longer; a d of exactly +-pi kept)
 *   increasing: d into 0 to 2 pi (0 included, 2 pi not)
 *   decreasing: d into -2 pi to 0 (0 included, -2 pi not) */
typedef enum mtwnAngleMethod {
    mtwn_angleShorter = 0,
    mtwn_angleLonger = 1,
    mtwn_angleIncreasing = 2,
    mtwn_angleDecreasing = 3
} mtwnAngleMethod;

/* A rotation: a quaternion (x, y, z, w), w the real part, of any length
 * above 0 (the makers normalize it). "A rotation outside the above": a
 * component not finite, or all four 0. */
typedef struct mtwnQuat {
    float x, y, z, w;
} mtwnQuat;

/* Which way a rotation mix turns. Frozen values. */
typedef enum mtwnRotationPath {
    mtwn_rotationShortest = 0, /* the second rotation negated when q0 . q1 < 0: at most pi radians */
    mtwn_rotationLongest = 1   /* the second rotation negated when q0 . q1 > 0: at least pi radians */
} mtwnRotationPath;

/* mtwnMakeRotationMix refuses the longest way between rotations whose
 * |q0 + q1| (after the path's sign) is under this: the full turn has no
 * defined axis. */
#define MTWN_ROTATION_ANTIPODE_LIMIT 1e-6

/* A rotation mix, written by mtwnMakeRotationMix. */
typedef struct mtwnRotationMix {
    double from[4];     /* q0 normalized in binary64 (x, y, z, w) */
    double to[4];       /* q1 normalized, negated when the path needed it */
    double angle;       /* the angle between them as 4-vectors, 0 to pi (half the turn) */
    mtwnQuat fromRotation; /* from rounded to floats: the result at progress 0 */
    mtwnQuat toRotation;   /* to rounded to floats: the result at progress 1 */
} mtwnRotationMix;

/* -- Scales and zooms ------------------------------------------------------------ */

/* A scale mix, written by mtwnMakeScaleMix. A scale is a finite double above
 * 0 (subnormals included); "a scale outside the above" is any other. */
typedef struct mtwnScaleMix {
    double from, to;       /* the scales */
    double logFrom, logTo; /* their natural logarithms (the math core's) */
} mtwnScaleMix;

/* A view for a zoom: the point at its center and its width, in the host's
 * units. "A view outside the above": a center coordinate not finite, or a
 * width not finite and above 0. */
typedef struct mtwnZoomView {
    double x, y;  /* center */
    double width; /* width, finite, above 0 */
} mtwnZoomView;

/* rho, the zoom's trade of zooming against panning, is finite, from
 * MTWN_MIN_ZOOM_RHO to MTWN_MAX_ZOOM_RHO; van Wijk and Nuij (and d3) take
 * sqrt(2). */
#define MTWN_MIN_ZOOM_RHO 0x1p-64
#define MTWN_MAX_ZOOM_RHO 0x1p64

/* Views whose pan d (the distance between their centers) is at most the
 * smaller width times this zoom geometrically, the center moving in a line:
 * the optimal path differs from that by less than the width times 2^-32. */
#define MTWN_ZOOM_PAN_EPSILON 0x1p-32

/* mtwnMixZoom's check: |r0| at most this. */
#define MTWN_MAX_ZOOM_R0 700.0

/* A zoom mix, written by mtwnMakeZoomMix. With a pan (panScale > 0) the view
 * at path length s is, with u0 the from center, d the pan vector, |d| its
 * length and r = rho s + r0:
 *   center = u0 + d panScale (cosh r0 tanh r - sinh r0),  panScale = w0 / (rho^2 |d|)
 *   width  = w0 cosh r0 / cosh r
 * (the paper's equations 9 and 10 with the pan's direction). Without one
 * (panScale 0) the width is the scale mix and the center moves in a line. */
typedef struct mtwnZoomMix {
    mtwnZoomView from, to;
    double rho;
    double length;   /* the path length S, finite, from 0 */
    double r0;       /* within MTWN_MAX_ZOOM_R0 of 0 */
    double coshR0;   /* cosh r0, finite, at least 1 */
    double sinhR0;   /* sinh r0, finite */
    double panScale; /* w0 / (rho^2 |d|), finite, from 0; 0 for a geometric zoom */
    mtwnScaleMix scale; /* from's width to to's (a geometric zoom's width) */
} mtwnZoomMix;

/* -- Punch and shake ------------------------------------------------------------- */

/* Punch and shake: frequency in hertz finite and above 0, duration in
 * seconds finite and above 0, their product (the cycles) at most
 * MTWN_MAX_CYCLES, and the envelope's exponent finite and above 0. */
#define MTWN_MAX_CYCLES 0x1p40

/* A punch: factor(t) = sin(2 pi f t) (1 - t / duration)^exponent for t in
 * (0, duration), 0 elsewhere (DOTween's punch with its vibrato as the
 * frequency and its elasticity as the envelope). */
typedef struct mtwnPunch {
    double frequency; /* hertz */
    double duration;  /* seconds */
    double exponent;  /* the envelope's */
} mtwnPunch;

/* A shake: factor(t) = noise(channel, f t) (1 - t / duration)^exponent for t
 * in (0, duration), 0 elsewhere. The noise is 1D gradient noise (Perlin's,
 * with his quintic fade) scaled by 2 to fill -1 to 1, with a gradient in -1
 * to 1 at each integer lattice point drawn from lib/core's SplitMix64 seeded
 * by the seed, channel and point (docs/internals/color.md, "Shake"): 0 at
 * every lattice point, f t = 0 included. */
typedef struct mtwnShake {
    double frequency; /* hertz: lattice points a second */
    double duration;  /* seconds */
    double exponent;  /* the envelope's */
    uint64_t seed;    /* any value */
} mtwnShake;

/* -- Functions ------------------------------------------------------------------- */

/* Makes the interpolation between two colors in a space, following CSS Color
 * 4: a powerless hue (an OkLCh chroma at most MTWN_POWERLESS_CHROMA, an LCH
 * chroma at most MTWN_POWERLESS_LCH_CHROMA, an HSL or HWB hue as said there)
 * takes the other color's, its other coordinates kept as CSS's sample code
 * keeps them where Color 4's text sets a chroma to 0, the hues are fixed up by
 * the method (only OkLCh, LCH, HSL and HWB have a hue; other spaces ignore the
 * method, which must still be known), and the colors are premultiplied, the
 * hue excepted.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an unknown space
 * or method, or a color outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeColorMix(mtwnColor from, mtwnColor to, mtwnColorSpace space,
                                                    mtwnHueMethod hue, mtwnColorMix* mixOut);

/* Samples a mix: its colors exactly at 0 and 1, between them the
 * premultiplied coordinates interpolated (start + (end - start) progress) and
 * divided by the interpolated alpha, or kept as they are where that alpha is
 * 0 or below. Progress outside 0 to 1 extends the line, with alpha clamped to
 * 0 to 1; the channels are not clamped, but a channel past the floats' range
 * is held at the largest finite float of its sign, in every space. So far out
 * that a hue passes the doubles, it counts as 0.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a progress not
 * finite, or a mix whose space is unknown, whose padding is not 0, whose
 * colors mtwnMakeColorMix would refuse, or whose ends have a coordinate not
 * finite, an alpha not their color's, or a hue (OkLCh, LCH, HSL, HWB) outside
 * 0 to 4 pi.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMixColor(const mtwnColorMix* mix, double progress, mtwnColor* colorOut);

/* Converts a color to a space's coordinates and its alpha (coordinatesOut[3]),
 * for a host that springs or composes in the space. Never NaN: an achromatic
 * OkLCh or LCH hue is atan2's of its (a, b), 0 for (0, 0); an achromatic HSL
 * or HWB hue is 0.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an unknown space
 * or a color outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnConvertColorToSpace(mtwnColor color, mtwnColorSpace space,
                                                           double coordinatesOut[4]);

/* Converts a space's coordinates and an alpha back to a color: a hue (OkLCh,
 * LCH, HSL, HWB) of NaN (CSS's none) counts as 0, an alpha is clamped to 0 to 1, and a
 * channel past the floats' range is held at the largest finite float of its
 * sign.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an unknown
 * space, or a coordinate or alpha not finite, a NaN hue excepted.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnConvertColorFromSpace(const double coordinates[4], mtwnColorSpace space,
                                                             mtwnColor* colorOut);

/* Interpolates an angle in radians: the end at progress 1 is moved by whole
 * turns as the method asks (mtwnAngleMethod), then the two are interpolated
 * linearly, from + (to' - from) progress. At 0 the result is from exactly, and
 * at 1 to exactly when no turn was added.
 * Returns mtwn_success; mtwn_errorInvalid for a null angleOut, an unknown
 * method, or an angle or progress not finite. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMixAngle(double from, double to, mtwnAngleMethod method, double progress,
                                                double* angleOut);

/* Makes the spherical interpolation between two rotations, at constant
 * angular speed, the shortest way or the longest.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an unknown path,
 * a rotation outside the above, or the longest way between rotations so close
 * (|q0 + q1| under MTWN_ROTATION_ANTIPODE_LIMIT once the path's sign is taken)
 * that it turns a full circle about no defined axis. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeRotationMix(mtwnQuat from, mtwnQuat to, mtwnRotationPath path,
                                                       mtwnRotationMix* mixOut);

/* Samples a rotation mix: its rotations normalized exactly at 0 and 1 (the
 * second negated when the path needed it), between and beyond them slerp,
 * of unit length to a float's rounding; ends of one rotation (angle 0) stay at
 * any progress.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a progress not
 * finite, or a mix whose ends are not of unit length to within their
 * normalization's rounding (12 times 2^-53 in the squared length) or not
 * stored as their floats (fromRotation and toRotation the ends rounded), or
 * whose angle is outside 0 to pi. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMixRotation(const mtwnRotationMix* mix, double progress,
                                                   mtwnQuat* rotationOut);

/* Makes the geometric interpolation between two scales.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a scale
 * outside the above (not finite and above 0). Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeScaleMix(double from, double to, mtwnScaleMix* mixOut);

/* Samples a scale mix: from (to / from)^progress, computed as
 * exp(logFrom + (logTo - logFrom) progress), exactly from at 0 and to at 1;
 * outside 0 to 1 it extends, to infinity or 0 past the doubles' range.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a progress not
 * finite, or a mix whose ends are not finite and above 0 or whose logarithms
 * are not finite. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMixScale(const mtwnScaleMix* mix, double progress, double* scaleOut);

/* Makes the zoom and pan between two views that van Wijk and Nuij found
 * optimal ("Smooth and efficient zooming and panning", 2003): it zooms out as
 * far as the pan needs and back in, so the eye can follow; with the centers
 * equal (a pan at most MTWN_ZOOM_PAN_EPSILON of the smaller width) it is a
 * geometric zoom.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a view or rho
 * outside the above, or views whose path leaves the doubles' range (widths,
 * or a pan against the width, about 1e150 times apart: the paper's b0, b1,
 * r0, r1, S or cosh r0 not finite, or |r0| past MTWN_MAX_ZOOM_R0).
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeZoomMix(mtwnZoomView from, mtwnZoomView to, double rho,
                                                   mtwnZoomMix* mixOut);

/* Samples a zoom mix: exactly from at 0 and to at 1, between them the path
 * at that share of its length; outside 0 to 1 it extends, its width going to
 * 0 as its center settles on a point either way (an infinity where that point
 * is past the doubles' range), never NaN.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a progress not
 * finite, or a mix outside its check: views as mtwnMakeZoomMix takes them
 * with a finite difference between their centers, rho finite and above 0, a
 * length finite and not below 0, r0 within MTWN_MAX_ZOOM_R0 of 0, cosh r0
 * finite and at least 1, sinh r0 finite, a finite pan's scale not below 0,
 * and with a pan's scale of 0 widths whose scale mix passes its check and
 * runs from one view's width to the other's. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMixZoom(const mtwnZoomMix* mix, double progress, mtwnZoomView* viewOut);

/* A zoom mix's path length, the paper's S: a zoom by a factor of e with no
 * pan is 1 / rho long. The measure a duration is taken from (d3 takes
 * S rho / sqrt(2) seconds); 0 for equal views.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a mix
 * mtwnMixZoom refuses. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputeZoomLength(const mtwnZoomMix* mix, double* lengthOut);

/* Interpolates an integer: the interpolation in double,
 * from + (to - from) progress, rounded to nearest with ties away from zero,
 * so it passes through every integer between. Exact at the ends, and between
 * them for values within 2^53; a result past int64's range is held at its
 * end of it.
 * Returns mtwn_success; mtwn_errorInvalid for a null valueOut or a progress
 * not finite. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMixInteger(int64_t from, int64_t to, double progress, int64_t* valueOut);

/* Interpolates a discrete value the host indexes (an enumeration, a flag):
 * from below progress 1/2, to from it, as Web Animations steps values it
 * cannot interpolate.
 * Returns mtwn_success; mtwn_errorInvalid for a null valueOut or a progress
 * not finite. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMixDiscrete(uint32_t from, uint32_t to, double progress, uint32_t* valueOut);

/* Makes a punch (mtwnPunch) from its frequency in hertz, duration in seconds
 * and envelope exponent, in the ranges above MTWN_MAX_CYCLES.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a parameter
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakePunch(double frequency, double duration, double exponent,
                                                 mtwnPunch* punchOut);

/* Samples a punch: a factor from -1 to 1 the host scales by each channel's
 * amplitude and adds to the value; exactly 0 at 0, at the duration and
 * outside them (infinite times included).
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a punch whose
 * fields mtwnMakePunch would refuse, or a NaN time. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSamplePunch(const mtwnPunch* punch, double seconds, double* factorOut);

/* Makes a shake (mtwnShake) from its frequency, duration, envelope exponent
 * (the ranges above MTWN_MAX_CYCLES) and seed (any value).
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a parameter
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeShake(double frequency, double duration, double exponent, uint64_t seed,
                                                 mtwnShake* shakeOut);

/* Samples a shake for one channel (any index): a factor from -1 to 1, each
 * channel its own noise; exactly 0 at 0, at the duration and outside them.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a shake whose
 * fields mtwnMakeShake would refuse, or a NaN time. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleShake(const mtwnShake* shake, uint32_t channel, double seconds,
                                                   double* factorOut);

/* Samples a shake's noise alone, noise(channel, frequency clock), its
 * envelope left to the host: for a shake driven by "trauma" (Eiserloh's
 * camera shake: an amount the host raises at each hit and lets decay, the
 * shake its square), on a clock that runs on through the hits, so the noise
 * never jumps where the amplitude changes. Each channel its own noise. Any
 * clock but NaN: where frequency clock is infinite or at least 2^53 in
 * magnitude (every double there a lattice point) it is 0.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a shake whose
 * fields mtwnMakeShake would refuse, or a NaN clock. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleShakeNoise(const mtwnShake* shake, uint32_t channel, double seconds,
                                                        double* factorOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_INTERPOLATE_H */
