/* Maul Tween: spring.h
 *
 * Springs, decay and the rubber band: a damped spring pulling a value to its
 * target, and a velocity decaying to rest, both solved in closed form from
 * where they start, so the same times give the same values at every frame
 * rate; and iOS's rubber band for dragging past a limit. A spring's start is
 * an offset from the target and a velocity, in the value's units (per
 * second); a retarget keeps the velocity and changes the offset.
 *
 * The spring solves x'' + 2 zeta omega x' + omega^2 x = 0 (x the offset,
 * omega the natural frequency in radians a second, zeta the damping ratio).
 * With tau = omega t, E = e^(-zeta tau), q = sqrt|1 - zeta^2|:
 *   x(t) = x0 C + (v0 / omega + zeta x0) S
 *   v(t) = v0 C - (zeta v0 + omega x0) S
 * where C and S (dimensionless) are, by the damping:
 *   underdamped (zeta < 1):  C = E cos(q tau),  S = E sin(q tau) / q
 *   critical (zeta = 1):     C = E,             S = E tau
 *   overdamped (zeta > 1):   with a = tau / (zeta + q) (the slow root) and
 *                            g = -expm1(-2 q tau):
 *                            C = e^-a (1 - g / 2),  S = e^-a g / (2 q)
 * (undamped is zeta = 0). Everything is binary64 from IEEE + - * / and sqrt
 * and the math core (lib/core/detmath.h) in that order: the same bits on
 * every platform. docs/internals/spring.md gives the derivations and the
 * choices the reference leaves open.
 */
#ifndef MAUL_TWEEN_SPRING_H
#define MAUL_TWEEN_SPRING_H

#include "maul/tween/base.h"
#include "maul/tween/easing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Ranges (what "outside the above" refers to) ---------------------------------- */

/* A spring's natural frequency omega, in radians a second, is at least
 * MTWN_MIN_SPRING_OMEGA and below MTWN_MAX_SPRING_OMEGA: its square is a
 * finite normal double. "A frequency outside the finite range above 0" is
 * one outside these. */
#define MTWN_MIN_SPRING_OMEGA 0x1p-511
#define MTWN_MAX_SPRING_OMEGA 0x1p512

/* A spring's damping ratio zeta is from 0 (undamped) to this. */
#define MTWN_MAX_DAMPING_RATIO 1e6

/* A start (offset x0, velocity v0) is finite with |x0|, |v0|, |v0| / omega
 * (tested as |v0| <= MTWN_MAX_REACH omega) and omega |x0| (as rounded) each
 * at most this, so that every sample stays finite. For a decay of rate k the
 * same with k for omega: |position|, |velocity| and |velocity| / k (tested as
 * |velocity| <= MTWN_MAX_REACH k) at most this. */
#define MTWN_MAX_REACH 0x1p1000

/* The value makers write in the cookie of a spring, a decay and a bounded
 * decay. A struct whose cookie differs, or whose fields are outside their
 * ranges, is one "no maker produced". */
#define MTWN_SPRING_COOKIE 0x53505231u
#define MTWN_DECAY_COOKIE 0x44435931u
#define MTWN_BOUNDED_DECAY_COOKIE 0x42445931u

/* mtwnMakeSpringEasing refuses an underdamped spring whose damped period is
 * below the duration times this (2^-10), as an elastic's period is refused
 * (easing.h's MTWN_MIN_ELASTIC_PERIOD), and one whose omega times the
 * duration reaches MTWN_MAX_SPRING_OMEGA. */
#define MTWN_MIN_SPRING_EASING_PERIOD 0.0009765625

/* -- Types --------------------------------------------------------------------- */

/* A spring, made by mtwnMakeSpring, mtwnMakeSpringFromFrequency or
 * mtwnMakeSpringFromDuration. Copy it freely. */
typedef struct mtwnSpring {
    uint32_t cookie;   /* MTWN_SPRING_COOKIE */
    uint32_t reserved; /* 0 */
    double omega;      /* natural frequency, radians a second, MTWN_MIN_SPRING_OMEGA <= omega < MTWN_MAX_SPRING_OMEGA */
    double zeta;       /* damping ratio, 0 to MTWN_MAX_DAMPING_RATIO */
} mtwnSpring;

/* How a spring moves any start (x0, v0) over a time t, a linear map:
 *   x(t) = offsetFromOffset x0 + offsetFromVelocity v0
 *   v(t) = velocityFromOffset x0 + velocityFromVelocity v0
 * that is C + zeta S, S / omega, -omega S and C - zeta S. Applied to each
 * channel of a value it gives mtwnSampleSpring's result to within the
 * rounding of the products (mtwnSampleSpring orders its operations as the
 * header's formulas do, which keeps extreme starts finite). */
typedef struct mtwnSpringMotion {
    double offsetFromOffset;
    double offsetFromVelocity;
    double velocityFromOffset;
    double velocityFromVelocity;
} mtwnSpringMotion;

/* A decay, made by mtwnMakeDecay, mtwnMakeDecayFromDeceleration or
 * mtwnMakeDecayToRest: velocity v e^(-rate t). */
typedef struct mtwnDecay {
    uint32_t cookie;   /* MTWN_DECAY_COOKIE */
    uint32_t reserved; /* 0 */
    double rate;       /* k, a second: finite and above 0 */
} mtwnDecay;

/* A bounded decay, made by mtwnMakeBoundedDecay: a coast by the decay from
 * a start within the bounds; where it would cross a bound (at
 * mtwnComputeDecayCrossingTime) the spring takes over with the bound as its
 * target, offset 0 and the coast's velocity there. A start outside the
 * bounds is the spring's from the start (offset from the nearer bound) at
 * once. A bound may be infinite (none that side). */
typedef struct mtwnBoundedDecay {
    uint32_t cookie;   /* MTWN_BOUNDED_DECAY_COOKIE */
    uint32_t reserved; /* 0 */
    mtwnDecay decay;
    mtwnSpring spring;
    double lower;      /* not NaN, not +infinity, at most upper */
    double upper;      /* not NaN, not -infinity */
} mtwnBoundedDecay;

/* -- Springs -------------------------------------------------------------------- */

/* Makes a spring from its physical parameters: natural frequency
 * sqrt(stiffness / mass), damping ratio damping / (2 sqrt(stiffness)
 * sqrt(mass)).
 * stiffness, mass: finite, above 0. damping: finite, from 0.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a parameter
 * outside the above or giving a frequency outside the finite range above 0
 * (MTWN_MIN_SPRING_OMEGA to MTWN_MAX_SPRING_OMEGA) or a ratio past
 * MTWN_MAX_DAMPING_RATIO. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeSpring(double stiffness, double damping, double mass, mtwnSpring* springOut);

/* Makes a spring from its natural frequency in hertz and its damping ratio:
 * 1 is critical, below it overshoots, 0 never settles. omega = 2 pi hertz.
 * hertz: finite, above 0, with omega (as rounded) within the spring's range.
 * dampingRatio: 0 to MTWN_MAX_DAMPING_RATIO.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a parameter
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeSpringFromFrequency(double hertz, double dampingRatio,
                                                               mtwnSpring* springOut);

/* Makes a spring from Apple's perceptual duration and bounce, as SwiftUI,
 * Motion and anime.js map them: natural frequency 2 pi / duration, damping
 * ratio 1 - bounce for a bounce from 0, 1 / (1 + bounce) below it.
 * duration: seconds, finite, above 0, with omega (as rounded) within the
 * spring's range. bounce: at most 1 and above -1, with 1 / (1 + bounce) (as
 * rounded) at most MTWN_MAX_DAMPING_RATIO.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a parameter
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeSpringFromDuration(double duration, double bounce, mtwnSpring* springOut);

/* Computes how a spring moves any start over a time (mtwnSpringMotion), for
 * applying to every channel of a value.
 * seconds: from 0, not NaN; +infinity (the spring at rest: all four 0) only
 * for a damped spring (zeta above 0); omega seconds (as rounded) finite for
 * an undamped one.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a spring no
 * maker produced, or a time outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputeSpringMotion(const mtwnSpring* spring, double seconds,
                                                           mtwnSpringMotion* motionOut);

/* Samples a spring from a start (offset, velocity; MTWN_MAX_REACH) after a
 * time (as mtwnComputeSpringMotion takes it). Either output may be NULL.
 * Returns mtwn_success; mtwn_errorInvalid for a null spring, a spring no
 * maker produced, or a start or time outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleSpring(const mtwnSpring* spring, double offset, double velocity,
                                                    double seconds, double* offsetOut, double* velocityOut);

/* Returns the time after which a spring from a start, sampled by
 * mtwnSampleSpring, stays within both tolerances of its target and of rest,
 * by bounds on its offset and velocity that never end it early
 * (|x(t)| <= e^(-lambda tau) (|x0| + |B| min(tau, K)), docs/internals/spring.md),
 * less a margin for the sample's rounding; the host then snaps it to the
 * target. For tolerances near the subnormals, that margin can make it
 * noticeably later than the motion's own. 0 for a start already within them
 * for good; +infinity for an undamped spring that is not.
 * offset, velocity: a start (MTWN_MAX_REACH). offsetTolerance,
 * velocityTolerance: above 0, not NaN (infinity: no bound on that one).
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a spring no
 * maker produced, or a start or tolerance outside the above.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputeSpringSettlingTime(const mtwnSpring* spring, double offset,
                                                                 double velocity, double offsetTolerance,
                                                                 double velocityTolerance, double* secondsOut);

/* Makes an easing of a spring over a duration: the spring from an offset of
 * -1 with a start velocity (of the value running from 0 to 1, a second),
 * sampled at progress times the duration and divided by its value at the
 * duration, so it is exactly 0 at 0 and 1 at 1; a spring settled by then is
 * changed by the distance it had left. For CSS linear() (mtwnFitLinearEasing)
 * and for tracks timed by duration. An underdamped spring oscillating faster
 * than once in MTWN_MIN_SPRING_EASING_PERIOD (2^-10) of the duration is
 * refused, as an elastic's period is: a fit of MTWN_MAX_FIT_POINTS points
 * could not follow it. So is one whose eased progress could pass the
 * doubles' range, as a spring almost back at its start at the duration has,
 * divided by its value there: the bound of |1 + x| over the duration divided
 * by |1 + x(duration)| not finite. So is one whose natural frequency, in
 * radians a second, times the duration reaches 2^512 (about 1.34e154): its
 * square, the easing's squared frequency, would pass the doubles' range, as
 * mtwnMakeSpring refuses a spring whose own would. Only an overdamped or
 * critical spring reaches it, an oscillating one being refused far sooner.
 * duration: seconds, finite, above 0. velocity: a start velocity with the
 * offset -1 (MTWN_MAX_REACH). mode: a mtwnEaseMode.
 * The easing's params: [0] omega duration, [1] zeta, [2] velocity / omega,
 * [3] 1 + x(duration), the rest 0.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a spring no
 * maker produced, an unknown mode, a duration or velocity outside the above,
 * a spring back at its start at the duration, or one of the three above.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeSpringEasing(const mtwnSpring* spring, double duration, double velocity,
                                                        mtwnEaseMode mode, mtwnEasing* easingOut);

/* -- Decay ---------------------------------------------------------------------- */

/* Makes a decay whose velocity falls as e^(-rate t).
 * rate: a second, finite, above 0.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a rate
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeDecay(double rate, mtwnDecay* decayOut);

/* Makes a decay from iOS's deceleration rate, the share of velocity kept each
 * millisecond (0.998 normal, 0.99 fast): the rate a second is -1000 ln of it.
 * perMillisecond: above 0 and below 1.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a share
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeDecayFromDeceleration(double perMillisecond, mtwnDecay* decayOut);

/* Samples a decay from a start: the position is
 * position - velocity expm1(-k t) / k, the velocity velocity e^(-k t).
 * position, velocity: a start (MTWN_MAX_REACH with k). seconds: from 0, not
 * NaN; +infinity gives the rest, position + velocity / k, velocity 0.
 * Either output may be NULL.
 * Returns mtwn_success; mtwn_errorInvalid for a null decay, a decay no maker
 * produced, or a start or time outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleDecay(const mtwnDecay* decay, double position, double velocity,
                                                   double seconds, double* positionOut, double* velocityOut);

/* Returns the time a decay's speed falls to a stop speed:
 * (ln |velocity| - ln stopSpeed) / k, 0 for a speed at or below it.
 * velocity: finite, |velocity| at most MTWN_MAX_REACH. stopSpeed: above 0,
 * not NaN (infinity gives 0).
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a decay no
 * maker produced, or a velocity or stop speed outside the above.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputeDecayStopTime(const mtwnDecay* decay, double velocity,
                                                            double stopSpeed, double* secondsOut);

/* Returns the time a decay reaches a position, where a host hands it over to
 * a spring back from a limit: -log1p(-(target - position) k / velocity) / k;
 * 0 for a target at the start; +infinity for one it never reaches (behind
 * it, at its rest or past it, or a velocity of 0).
 * position, velocity: a start (MTWN_MAX_REACH with k). target: finite.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a decay no
 * maker produced, or a value outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputeDecayCrossingTime(const mtwnDecay* decay, double position,
                                                                double velocity, double target,
                                                                double* secondsOut);

/* Makes the decay that comes to rest at an end from a start, keeping the
 * start's velocity: its rate is velocity / (end - position). With
 * mtwnSampleDecay's rest (seconds infinite) as the natural end, a host snaps
 * a fling: it chooses the end, a page or a grid point near the natural one,
 * and lands there.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a value not
 * finite, an end the velocity does not move toward (behind the start, at it,
 * or a velocity of 0), or a rate that overflows (or underflows to 0, or a
 * distance end - position past the doubles). Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeDecayToRest(double position, double velocity, double rest,
                                                       mtwnDecay* decayOut);

/* Makes a bounded decay (mtwnBoundedDecay).
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a decay or
 * spring no maker produced, a NaN bound, a lower bound above the upper, a
 * lower bound of infinity or an upper of -infinity. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeBoundedDecay(const mtwnDecay* decay, const mtwnSpring* spring,
                                                        double lower, double upper, mtwnBoundedDecay* boundedOut);

/* Samples a bounded decay from a start.
 * position, velocity: a start of the decay (MTWN_MAX_REACH with its rate);
 * outside the bounds, the offset from the nearer bound and the velocity are a
 * start of the spring too (MTWN_MAX_REACH with omega). seconds: from 0, not
 * NaN; +infinity for the rest (the spring's is reached only for a damped
 * spring). Either output may be NULL.
 * Returns mtwn_success; mtwn_errorInvalid for a null bounded decay, one no
 * maker produced, or a start or time outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleBoundedDecay(const mtwnBoundedDecay* bounded, double position,
                                                          double velocity, double seconds, double* positionOut,
                                                          double* velocityOut);

/* Returns the time a bounded decay from a start comes to rest: a coast's stop
 * at the stop speed, or the spring's settling within the offset tolerance of
 * the bound and the stop speed after it takes over
 * (mtwnComputeSpringSettlingTime), added to the crossing time.
 * position, velocity: as mtwnSampleBoundedDecay. offsetTolerance, stopSpeed:
 * above 0, not NaN.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a bounded decay
 * no maker produced, or a start or tolerance outside the above.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputeBoundedDecayStopTime(const mtwnBoundedDecay* bounded, double position,
                                                                   double velocity, double offsetTolerance,
                                                                   double stopSpeed, double* secondsOut);

/* -- Rubber band ----------------------------------------------------------------- */

/* iOS's rubber band: how far content moves when dragged a distance past a
 * limit, in a dimension (the view's size along the drag): c x d / (c x + d),
 * with slope c at the limit, never reaching d (rounding may give d for a drag
 * beyond about 2^53 d / c). Signed: a negative distance moves the other way.
 * Computed as y / (1 + y / d) for y = c |x| at most d, else d / (1 + d / y).
 * distance: finite. dimension: finite, above 0. coefficient: finite, above 0
 * (iOS's is 0.55).
 * Returns mtwn_success; mtwn_errorInvalid for a null offsetOut or an argument
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnApplyRubberBand(double distance, double dimension, double coefficient,
                                                       double* offsetOut);

/* The inverse of mtwnApplyRubberBand: the drag that moves content an offset
 * past a limit, d o / (c (d - o)), computed as (|o| / (d - |o|)) / c * d with
 * o's sign. offset: |offset| below the dimension, and a drag that comes out
 * finite. dimension, coefficient: as mtwnApplyRubberBand.
 * Returns mtwn_success; mtwn_errorInvalid for a null dragOut or an argument
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnInvertRubberBand(double offset, double dimension, double coefficient,
                                                        double* dragOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_SPRING_H */
