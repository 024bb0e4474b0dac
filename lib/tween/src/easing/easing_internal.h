/* Maul Tween: easing internals shared by the easing, sampling, timing,
 * spring and clip sources. Not a public header. */
#ifndef MAUL_TWEEN_EASING_INTERNAL_H
#define MAUL_TWEEN_EASING_INTERNAL_H

#include <float.h>
#include <math.h>

#include "maul/tween/easing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The spring easing's curve in mode in (spring.h's mtwnMakeSpringEasing lays
 * out easing->params), at progress p already clamped to 0 to 1: exactly 0 at 0
 * and 1 at 1. Defined by the spring source (src/spring); the modes are applied
 * around it by the easing code. Called only for valid spring easings. */
double mtwn_SampleSpringEasing(const mtwnEasing* easing, double p);

/* Whether a spring easing's params are ones mtwnMakeSpringEasing could write:
 * the maker's range checks (omega duration above 0 and below 2^512, a
 * damping ratio from 0 to MTWN_MAX_DAMPING_RATIO, velocity / omega within
 * MTWN_MAX_REACH, no oscillation faster than MTWN_MIN_SPRING_EASING_PERIOD,
 * 1 + x(duration) finite, not 0 and keeping the eased progress within the
 * doubles) and params 4 to 7 zero. Defined by the spring source (src/spring);
 * mtwn_IsEasingValid calls it for the spring kind. Cheap: no curve is
 * evaluated, so den is checked for range, not recomputed. */
bool mtwn_IsSpringEasingValid(const mtwnEasing* easing);

/* Whether an easing is one a maker produced: its cookie, kind, mode and the
 * fields of its kind. Cheap (no loop over linear() points). */
bool mtwn_IsEasingValid(const mtwnEasing* easing);

/* Samples a valid easing (not checked) at a finite progress as
 * mtwnSampleEasing does, to the bit. *metNaN (may be NULL) is set to true
 * when a host function returned NaN and the progress was taken instead. */
double mtwn_SampleEasingUnchecked(const mtwnEasing* easing, double progress, bool before, bool* metNaN);

/* The timeline-safe sampler mtwnIsEasingMonotonic describes: as
 * mtwn_SampleEasingUnchecked, except that a cubic bezier is solved by 53
 * bisections of t on the 2^-53 grid (t monotone in x) and its y rounded once
 * from a double-double, so a monotonic easing's values never decrease. */
double mtwn_SampleEasingMonotone(const mtwnEasing* easing, double progress, bool before, bool* metNaN);

/* The cubic bezier's curve in mode in (CSS's, end tangents outside 0 to 1),
 * from params x1, y1, x2, y2; not clamped to the doubles' range. */
double mtwn_CubicBezierCurve(const double* params, double x);
/* The same solved by bisection for the timeline (see above). */
double mtwn_CubicBezierCurveMonotone(const double* params, double x);
/* Whether a cubic bezier easing is one its maker produced. */
bool mtwn_IsCubicBezierValid(const mtwnEasing* easing);

/* A value past the doubles' range given as the largest finite double of its
 * sign; NaN is left as it is. */
static inline double mtwn_ClampToDoubles(double v)
{
    if (v > DBL_MAX) return DBL_MAX;
    if (v < -DBL_MAX) return -DBL_MAX;
    return v;
}

/* The modes, applied to a curve f(p, before) (easing.h's mtwnEaseMode). The
 * one definition both the dispatch and mtwnSampleCubicBezierEasing use, so
 * they agree to the bit. CURVE is an expression of (q, b). */
#define MTWN_APPLY_MODE(result, mode, p, before, q, b, CURVE)                  \
    do {                                                                       \
        double q;                                                              \
        bool b;                                                                \
        switch (mode) {                                                        \
        case mtwn_easeOut:                                                     \
            q = 1.0 - (p);                                                     \
            b = false;                                                         \
            (result) = 1.0 - (CURVE);                                          \
            break;                                                             \
        case mtwn_easeInOut:                                                   \
            if ((p) < 0.5) {                                                   \
                q = 2.0 * (p);                                                 \
                b = (before);                                                  \
                (result) = (CURVE) * 0.5;                                      \
            } else {                                                           \
                q = 2.0 - 2.0 * (p);                                           \
                b = false;                                                     \
                (result) = 1.0 - (CURVE) * 0.5;                                \
            }                                                                  \
            break;                                                             \
        case mtwn_easeOutIn:                                                   \
            if ((p) < 0.5) {                                                   \
                q = 1.0 - 2.0 * (p);                                           \
                b = false;                                                     \
                (result) = (1.0 - (CURVE)) * 0.5;                              \
            } else {                                                           \
                q = 2.0 * (p) - 1.0;                                           \
                b = (before);                                                  \
                (result) = (1.0 + (CURVE)) * 0.5;                              \
            }                                                                  \
            break;                                                             \
        default:                                                               \
            q = (p);                                                           \
            b = (before);                                                      \
            (result) = (CURVE);                                                \
            break;                                                             \
        }                                                                      \
        (void)b;                                                               \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
