/* Maul Tween: transition.h
 *
 * Transitions: the short path, one call that animates a target from its
 * current value to another. A new transition on a target replaces the one
 * running there, starting from the value it had reached. A transition is a
 * player (player.h): mtwnDestroyPlayer stops it, mtwnPlayer_IsValid tells
 * whether it runs.
 *
 * How each kind moves (p the eased progress, or the spring's progress):
 *   numbers, vectors: per channel from + (to - from) p;
 *   integers: mtwnMixInteger; discrete values: mtwnMixDiscrete;
 *   angles: to moved by the method's whole turns from the start once, when
 *     started (mtwnMixAngle's turns), then as numbers;
 *   colors: mtwnMixColor of the def's space and hue method; rotations:
 *     mtwnMixRotation of its path; scales: mtwnMixScale per channel (ratio).
 * Springs run per channel on numbers, vectors, angles and integers (rounded
 * as integers are); colors and rotations spring their path's progress from 0
 * to 1, scales their mix's progress, each with the start velocity projected
 * on the end minus the start (scales: the velocity's share of the value over
 * the logarithm's distance). Decays run per channel on numbers, vectors,
 * angles and integers, and on a scale's logarithm, its start velocity a share
 * of its value a second.
 */
#ifndef MAUL_TWEEN_TRANSITION_H
#define MAUL_TWEEN_TRANSITION_H

#include <math.h>

#include "maul/tween/base.h"
#include "maul/tween/context.h"
#include "maul/tween/easing.h"
#include "maul/tween/interpolate.h"
#include "maul/tween/player.h"
#include "maul/tween/spring.h"
#include "maul/tween/target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The value mtwnDefaultTransitionDef writes in mtwnTransitionDef.cookie. */
#define MTWN_TRANSITION_DEF_COOKIE 0x54524E31u

/* A transition's delay and duration are finite, from 0 and at most this many
 * seconds (about 31.7 years); a given velocity's channels finite with
 * magnitude at most MTWN_MAX_REACH; rest tolerances above 0 and finite. */
#define MTWN_MAX_TRANSITION_SECONDS 1e9

/* What moves a transition. Frozen values. */
typedef enum mtwnTransitionKind {
    mtwn_transitionEasing = 0, /* the easing over the duration */
    mtwn_transitionSpring = 1, /* the spring, until it settles within the rest tolerances */
    mtwn_transitionDecay = 2   /* the decay, from the start velocity, until its speed is below the rest's */
} mtwnTransitionKind;

/* Where a spring's or decay's start velocity comes from. Frozen values. */
typedef enum mtwnVelocitySource {
    mtwn_velocityTarget = 0, /* the target's velocity where the transition it replaces had reached */
    mtwn_velocityGiven = 1,  /* the def's velocity */
    mtwn_velocityZero = 2    /* at rest */
} mtwnVelocitySource;

/* How a decay ends. Frozen values. */
typedef enum mtwnDecayEnd {
    mtwn_decayFree = 0,    /* where the decay stops */
    mtwn_decayBounded = 1, /* within [lower, upper] per channel: a spring takes over at a bound */
    mtwn_decayLanding = 2  /* at the def's value, the decay's rate chosen to land there (mtwnMakeDecayToRest) */
} mtwnDecayEnd;

/* A transition (mtwnDefaultTransitionDef). */
typedef struct mtwnTransitionDef {
    uint32_t cookie;         /* MTWN_TRANSITION_DEF_COOKIE */
    uint32_t kind;           /* mtwnTransitionKind */
    mtwnTargetId target;     /* the live target it animates */
    mtwnVec4 value;          /* the end value, one the target's kind takes (a decay's landing; else unused by a decay) */
    double delay;            /* seconds from the next update before it moves, held at rest */
    double duration;         /* seconds, an easing's (0: ends at its start) */
    mtwnEasing easing;       /* an easing's curve; linear() points of at most the context's pointsPerTransition */
    mtwnSpring spring;       /* a spring's, and a bounded decay's at its bounds */
    mtwnDecay decay;         /* a decay's (not read by a landing) */
    uint32_t decayEnd;       /* mtwnDecayEnd */
    uint32_t velocitySource; /* mtwnVelocitySource */
    mtwnVec4 velocity;       /* the given velocity, per channel a second */
    double lower;            /* a bounded decay's bound below, per channel the same; -infinity: none (a scale's above 0) */
    double upper;            /* its bound above; +infinity: none */
    double restOffset;       /* a spring is at rest within this of its end (and restVelocity) */
    double restVelocity;     /* a spring or decay is at rest below this speed */
    uint32_t colorSpace;     /* colors: mtwnColorSpace */
    uint32_t hueMethod;      /* colors: mtwnHueMethod */
    uint32_t angleMethod;    /* angles: mtwnAngleMethod */
    uint32_t rotationPath;   /* rotations: mtwnRotationPath */
    uint32_t essential;      /* 1: reduced motion does not finish it; 0 otherwise */
    uint32_t reserved;       /* 0 */
} mtwnTransitionDef;

/* Makes a transition def: no target, an easing over 0.25 seconds, no delay,
 * CSS's ease; for a spring, a critical one of 0.5 seconds' perceptual
 * duration; for a decay, iOS's normal deceleration, 0.998 kept a
 * millisecond; rest within 1e-3 and 1e-2 a second; the target's velocity;
 * colors in Oklab with the shorter hue, angles the shorter way, rotations
 * the shortest. Safe from any thread. */
static inline mtwnTransitionDef mtwnDefaultTransitionDef(void)
{
    mtwnTransitionDef def;
    def.cookie = MTWN_TRANSITION_DEF_COOKIE;
    def.kind = (uint32_t)mtwn_transitionEasing;
    def.target.index = 0u;
    def.target.generation = 0u;
    def.value.x = def.value.y = def.value.z = def.value.w = 0.0f;
    def.delay = 0.0;
    def.duration = 0.25;
    if (mtwnMakeCssEasing(mtwn_cssEase, &def.easing) != mtwn_success) def.easing.cookie = 0u;
    if (mtwnMakeSpringFromDuration(0.5, 0.0, &def.spring) != mtwn_success) def.spring.cookie = 0u;
    if (mtwnMakeDecayFromDeceleration(0.998, &def.decay) != mtwn_success) def.decay.cookie = 0u;
    def.decayEnd = (uint32_t)mtwn_decayFree;
    def.velocitySource = (uint32_t)mtwn_velocityTarget;
    def.velocity.x = def.velocity.y = def.velocity.z = def.velocity.w = 0.0f;
    def.lower = -(double)INFINITY;
    def.upper = (double)INFINITY;
    def.restOffset = 1e-3;
    def.restVelocity = 1e-2;
    def.colorSpace = (uint32_t)mtwn_colorOklab;
    def.hueMethod = (uint32_t)mtwn_hueShorter;
    def.angleMethod = (uint32_t)mtwn_angleShorter;
    def.rotationPath = (uint32_t)mtwn_rotationShortest;
    def.essential = 0u;
    def.reserved = 0u;
    return def;
}

/* Starts a transition: from the target's current value, at the next update,
 * to the def's value. It replaces the transition running on the target,
 * whose id goes stale. During the delay the start holds at rest. At its end
 * (an easing's duration, a spring's settling time, a decay's stop) the end
 * value (a decay's: where it stopped, a bounded one's bound when it reached
 * one, a landing's value) becomes the target's base value, its velocity 0,
 * and the transition is freed with a finish record; an undamped spring runs
 * until replaced or stopped. A linear() easing's points are copied into the
 * context.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument, a def without
 * its cookie, a value or field outside the above or refused by the makers
 * (a color mix, rotation mix, scale mix), a spring or decay for a discrete
 * value, a decay for a color or rotation, a bounded decay's lower bound
 * above the upper or NaN, a scale's bound not above 0, a landing the velocity does not move a channel
 * toward; mtwn_errorStale for a target that is not alive; mtwn_errorCapacity
 * when the context holds its capacity of players, or for a linear() easing
 * of more points than the context's pointsPerTransition; mtwn_errorBusy from
 * the host's code. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnStartTransition(mtwnContext* context, const mtwnTransitionDef* def,
                                                       mtwnPlayerId* playerOut);

/* Measures how far a transition would move its target, from its current
 * value to the def's value, in the kind's own measure: numbers, vectors and
 * integers their Euclidean distance; an angle the radians it turns after the
 * method's whole turns; a rotation the angle it turns on its path (twice the
 * mix's angle); a scale |ln(to / from)| (Euclidean over its channels); a
 * color Oklab's Euclidean distance with alpha as a fourth coordinate.
 * Nothing is started or changed.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument, a def without
 * its cookie, an end value the target's kind refuses, an unknown angle method
 * or rotation path, the longest way between equal rotations, or a discrete
 * value; mtwn_errorStale for a target that is not alive; mtwn_errorBusy while
 * an update's clip players run on the task system. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnContext_MeasureTransition(const mtwnContext* context,
                                                                 const mtwnTransitionDef* def, double* distanceOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_TRANSITION_H */
