/* Maul Tween: path.h
 *
 * Paths and tracks: keyframe curves of one to four channels, segment by
 * segment linear, step, cubic Bezier or Catmull-Rom (centripetal by default),
 * timed by their keyframes or traveled at constant speed by arc length; and
 * tracks, which give every value kind its keyframes. Both reference the
 * caller's arrays and allocate nothing.
 *
 * Every segment is a cubic in its parameter u (0 at its first keyframe, 1 at
 * the next), B(u) = c0 + c1 u + c2 u^2 + c3 u^3 by Horner's rule, the
 * keyframes themselves given exactly at u = 0 and 1:
 *   linear:      P0 + (P1 - P0) u
 *   step:        P0 below u = 1, P1 from it
 *   Bezier:      P0, keyframe i's outControl, keyframe i+1's inControl, P1
 *   Catmull-Rom: keyframes i-1, i, i+1, i+2 with knot intervals
 *                |P(j+1) - P(j)|^alpha (Barry and Goldman's, written as a
 *                Hermite cubic); a missing neighbor at either end of the path
 *                is the reflection 2 P_end - P_next; a zero interval beside a
 *                segment takes the segment's own; a segment whose ends
 *                coincide is a hold.
 * docs/internals/path.md gives the choices the references leave open.
 */
#ifndef MAUL_TWEEN_PATH_H
#define MAUL_TWEEN_PATH_H

#include "maul/tween/base.h"
#include "maul/tween/easing.h"
#include "maul/tween/interpolate.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Ranges (what "outside the above" refers to) ---------------------------------- */

/* A path has 1 to MTWN_MAX_PATH_KEYFRAMES keyframes (one keyframe: a
 * constant) and 1 to 4 channels. */
#define MTWN_MAX_PATH_KEYFRAMES 1048576u

/* Every value and control of a path, in its channels, is finite with a
 * magnitude at most this, so that lengths and derivatives stay finite. For a
 * track: after the track's own changes (unwrapped angles, logarithms). */
#define MTWN_MAX_PATH_VALUE 0x1p500

/* The values the makers write in mtwnPath.cookie, mtwnTrack.cookie and
 * mtwnDefaultTrackDef writes in mtwnTrackDef.cookie. */
#define MTWN_PATH_COOKIE 0x50415431u
#define MTWN_TRACK_COOKIE 0x54524B31u
#define MTWN_TRACK_DEF_COOKIE 0x54524431u

/* Arc lengths are integrated by adaptive 5-point Gauss-Legendre quadrature to
 * this relative tolerance of the segment's control polygon, and a point at
 * constant speed is found by safeguarded Newton to it. */
#define MTWN_PATH_LENGTH_TOLERANCE 1e-13

/* -- Types --------------------------------------------------------------------- */

/* The kind of the segment from a keyframe to the next. Frozen values. */
typedef enum mtwnSegmentKind {
    mtwn_segmentLinear = 0,
    mtwn_segmentStep = 1,
    mtwn_segmentBezier = 2,
    mtwn_segmentCatmullRom = 3
} mtwnSegmentKind;

/* A keyframe. The last keyframe's kind and easing are not used (kind any
 * known value, easing any maker's). Controls not used by a Bezier segment
 * need only be finite within MTWN_MAX_PATH_VALUE (0 is fine). */
typedef struct mtwnKeyframe {
    double offset;        /* the progress it is at: finite, not below the one before */
    double value[4];      /* its value; channels past the path's ignored */
    double inControl[4];  /* the Bezier control before it (the segment ending here) */
    double outControl[4]; /* the Bezier control after it (the segment starting here) */
    uint32_t kind;        /* mtwnSegmentKind of the segment to the next keyframe */
    uint32_t reserved;    /* 0 */
    mtwnEasing easing;    /* eases the segment's local progress (any maker's easing) */
} mtwnKeyframe;

/* A path, made by mtwnMakePath: it references the keyframes (and lengths),
 * which must outlive it and not change. */
typedef struct mtwnPath {
    uint32_t cookie;   /* MTWN_PATH_COOKIE */
    uint32_t count;    /* keyframes */
    uint32_t channels; /* 1 to 4 */
    uint32_t reserved; /* 0 */
    double alpha;      /* Catmull-Rom's, 0 (uniform) to 1 (chordal), 0.5 centripetal */
    const mtwnKeyframe* keyframes;
    const double* lengths; /* cumulative arc lengths (constant speed), or NULL (timed) */
} mtwnPath;

/* How a track is made (mtwnDefaultTrackDef). */
typedef struct mtwnTrackDef {
    uint32_t cookie;       /* MTWN_TRACK_DEF_COOKIE */
    uint32_t kind;         /* mtwnValueKind */
    uint32_t channels;     /* scales: 1 to 3; other kinds: ignored (their own count) */
    uint32_t colorSpace;   /* colors: mtwnColorSpace */
    uint32_t hueMethod;    /* colors: mtwnHueMethod */
    uint32_t angleMethod;  /* angles: mtwnAngleMethod */
    uint32_t rotationPath; /* rotations: mtwnRotationPath */
    uint32_t reserved;     /* 0 */
    double alpha;          /* Catmull-Rom's: 0 to 1 */
} mtwnTrackDef;

/* What a track keeps for a segment: for colors the color mix (linear
 * segments), for rotations the rotation mix (linear segments), for scales a
 * scale mix per channel (every segment). Tracks of other kinds keep none. */
typedef union mtwnSegmentMix {
    mtwnColorMix color;
    mtwnRotationMix rotation;
    mtwnScaleMix scale[3];
} mtwnSegmentMix;

/* A track, made by mtwnMakeTrack. It references its keyframes, lengths and
 * mixes, which must outlive it and not change. */
typedef struct mtwnTrack {
    uint32_t cookie;   /* MTWN_TRACK_COOKIE */
    uint32_t kind;     /* mtwnValueKind */
    mtwnPath path;     /* over the values as the track changed them */
    const mtwnSegmentMix* mixes; /* count - 1 for colors, rotations and scales; else NULL */
} mtwnTrack;

/* -- Paths --------------------------------------------------------------------- */

/* Makes a path. With lengths it travels at constant speed: the cumulative arc
 * length at each keyframe is measured into them (lengthsOut[0] = 0; a step
 * has none), and a progress is a share of the whole length, the keyframes'
 * offsets and easings no longer timing it. Each segment's length is within
 * about 1e-11 of it relative, and a point at constant speed within about
 * 1e-11 of its segment's length.
 * keyframes: count keyframes (MTWN_MAX_PATH_KEYFRAMES), offsets not
 * decreasing, each known kind, reserved 0, easing a maker's, values and
 * controls in MTWN_MAX_PATH_VALUE. channels: 1 to 4. alpha: 0 to 1.
 * lengthsOut: count doubles, or NULL for a timed path.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or an argument
 * outside the above, the lengths unchanged.
 * Safe from any thread; the lengths are used by one thread at a time. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakePath(const mtwnKeyframe* keyframes, uint32_t count, uint8_t channels,
                                                double alpha, double* lengthsOut, mtwnPath* pathOut);

/* Samples a path: the segment a progress falls in (the last keyframe at or
 * below it; past the ends the first or last segment extended, its cubic
 * continued), its local progress eased by the segment's easing (never the
 * before flag), then its kind; or at constant speed the point at that share
 * of the length (past the ends the parameter continues at the end's speed).
 * A segment of no duration (equal offsets) is at its end. tangentOut (may be
 * NULL) is dB/du at that parameter (0 for a step or a hold); both 0 past
 * the channels.
 * Returns mtwn_success; mtwn_errorInvalid for a null path or valueOut, a path
 * or segment no maker produced, or a progress not finite. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSamplePath(const mtwnPath* path, double progress, double valueOut[4],
                                                  double tangentOut[4]);

/* Gives a path's direction at a progress, as SVG 2's path directionality and
 * CSS's offset-rotate: auto take it: a unit vector in its channels, 0 past
 * them. Within a segment the curve's direction; at a keyframe the later
 * segment's. A step or a segment of no length (coincident keyframes, a hold)
 * takes the direction of the nearest segment after it with a length, at its
 * start, as SVG 2 moves past a segment of no length; with none after it, at
 * the path's end, of the nearest before it, at its end; a path of no length
 * points along the first channel. Where the derivative is 0 (a Bezier
 * control on its end, a cusp), the first non-zero of the second and third
 * derivatives, the outgoing direction: SVG 2 leaves a cusp's direction open,
 * so that choice is this library's. Chrome takes the incoming direction at
 * every boundary, against SVG 2's text. A scale's is in its logarithm; at
 * constant speed the progress is the share of the length.
 * Returns mtwn_success; mtwn_errorInvalid as mtwnSamplePath refuses, or for a
 * null directionOut. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputePathDirection(const mtwnPath* path, double progress,
                                                            double directionOut[4]);

/* Gives the angle of a path's direction (mtwnComputePathDirection) in its
 * first two channels, atan2(y, x) by the library's own arctangent, the same
 * on every platform: what CSS's offset-rotate: auto turns by. Reversed, add
 * pi; a fixed turn, add it. A path of one channel gives 0 or pi.
 * Returns mtwn_success; mtwn_errorInvalid as mtwnSamplePath refuses, or for a
 * null angleOut. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputePathAngle(const mtwnPath* path, double progress, double* angleOut);

/* -- Tracks -------------------------------------------------------------------- */

/* Makes a track def for a kind: centripetal Catmull-Rom (alpha 0.5), colors
 * in Oklab with the shorter hue, angles the shorter way, rotations the
 * shortest, scales of 3 channels. Returns the def. Safe from any thread. */
static inline mtwnTrackDef mtwnDefaultTrackDef(mtwnValueKind kind)
{
    mtwnTrackDef def;
    def.cookie = MTWN_TRACK_DEF_COOKIE;
    def.kind = (uint32_t)kind;
    def.channels = 3u;
    def.colorSpace = (uint32_t)mtwn_colorOklab;
    def.hueMethod = (uint32_t)mtwn_hueShorter;
    def.angleMethod = (uint32_t)mtwn_angleShorter;
    def.rotationPath = (uint32_t)mtwn_rotationShortest;
    def.reserved = 0u;
    def.alpha = 0.5;
    return def;
}

/* Makes a track. Numbers and vectors are their path; integers the path
 * rounded to nearest, ties away from zero; discrete values step at an eased
 * 1/2 of a linear segment, or hold through a step. Angles are unwrapped in
 * place, each keyframe (with its controls) moved by the method's whole turns
 * from the one before. Colors (r, g, b, alpha in value) mix linear segments in
 * the def's space and hold through steps. Rotations slerp linear segments,
 * hold through steps, and take Bezier and Catmull-Rom per component,
 * normalized after; with the shortest path the keyframes and controls are
 * first flipped in place into the hemisphere of the one before. Scales are a
 * path over their logarithms (the path's own samples are logarithms: values
 * and the controls of Bezier segments are replaced in place by their
 * logarithms): linear segments their scale mix, the others the exponential of
 * their curve, every keyframe exact, and at constant speed equal ratios in
 * equal times. A track of one keyframe holds it (a scale's unchanged). On
 * failure the keyframes are as they were.
 * Refused ("outside the above"): a def without its cookie or with an unknown
 * kind, space or method, reserved not 0, scale channels outside 1 to 3, alpha
 * outside 0 to 1; keyframes mtwnMakePath refuses (after the track's changes);
 * Bezier or Catmull-Rom segments of colors or discrete values; lengths
 * (constant speed) for colors, rotations or discrete values; colors outside
 * mtwnColor's range (as floats), rotations outside mtwnQuat's, scales (and
 * used Bezier controls) not finite above 0; a rotation mix mtwnMakeRotationMix
 * refuses; NULL mixes for colors, rotations or scales of 2 keyframes or more.
 * keyframes: count keyframes, changed in place as above. lengthsOut: count
 * doubles or NULL (as mtwnMakePath). mixesOut: count - 1 mixes, or NULL for
 * the kinds that keep none.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or an argument
 * outside the above.
 * Safe from any thread; the keyframes are used by one thread at a time. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeTrack(mtwnKeyframe* keyframes, uint32_t count, const mtwnTrackDef* def,
                                                 double* lengthsOut, mtwnSegmentMix* mixesOut, mtwnTrack* trackOut);

/* Samples a track: its value at a progress, as mtwnSamplePath finds the
 * segment and eases it, each channel held within the floats; channels past
 * the kind's are 0.
 * Returns mtwn_success; mtwn_errorInvalid for a null track or valueOut, a
 * track or segment no maker produced, or a progress not finite.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleTrack(const mtwnTrack* track, double progress, mtwnVec4* valueOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_PATH_H */
