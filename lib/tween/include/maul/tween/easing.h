/* Maul Tween: easing.h
 *
 * Easing: curves that map a timing's progress to eased progress. An easing is
 * a value made by a function that validates it and sampled by
 * mtwnSampleEasing: Penner's families, which land exactly on 0 and 1, and CSS
 * Easing Level 2 entire. Every kind has the same four modes.
 *
 * Every curve is computed in binary64 from IEEE + - * / and sqrt and the math
 * core's elementary functions (never the C library's), each expression in a
 * fixed order, so an easing gives the same bits on every platform
 * (docs/determinism.md). docs/internals/easing.md has the formulas.
 */
#ifndef MAUL_TWEEN_EASING_H
#define MAUL_TWEEN_EASING_H

#include "maul/tween/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Modes --------------------------------------------------------------------- */

/* How an easing's curve f (its "in" form, as its maker defines it) is applied
 * to progress p. Every kind has all four. Frozen values.
 *   in:      f(p)
 *   out:     1 - f(1 - p)                                  (f reflected through (1/2, 1/2))
 *   in-out:  f(2p) / 2 for p < 1/2, else 1 - f(2 - 2p) / 2
 *   out-in:  (1 - f(1 - 2p)) / 2 for p < 1/2, else (1 + f(2p - 1)) / 2
 * A curve "samples progress unreflected" where its argument grows with p: in
 * everywhere, in-out below 1/2, out-in from 1/2; only there does the before
 * flag (steps) reach it. CSS's curves (cubic-bezier, steps, linear(), the CSS
 * keywords) are made in mode in, which is CSS's own curve. */
typedef enum mtwnEaseMode {
    mtwn_easeIn = 0,
    mtwn_easeOut = 1,
    mtwn_easeInOut = 2,
    mtwn_easeOutIn = 3
} mtwnEaseMode;

/* -- Kinds --------------------------------------------------------------------- */

/* The curve an easing holds. mtwnMakePennerEasing takes sine, expo, circ or
 * bounce; the others name the curves of the other makers. Frozen values. */
typedef enum mtwnEasingKind {
    mtwn_easingLinear = 0,       /* p; CSS's linear keyword (not clamped) */
    mtwn_easingPower = 1,        /* p^k (mtwnMakePowerEasing) */
    mtwn_easingSine = 2,         /* Penner's sine: 1 - cos(p pi / 2) */
    mtwn_easingExpo = 3,         /* Penner's expo normalized: (2^(10 (p - 1)) - 2^-10) / (1 - 2^-10) */
    mtwn_easingCirc = 4,         /* Penner's circ: 1 - sqrt(1 - p^2) */
    mtwn_easingBounce = 5,       /* Penner's bounce (its in form: 1 - bounceOut(1 - p)) */
    mtwn_easingBack = 6,         /* mtwnMakeBackEasing */
    mtwn_easingElastic = 7,      /* mtwnMakeElasticEasing */
    mtwn_easingHost = 8,         /* mtwnMakeHostEasing */
    mtwn_easingCubicBezier = 9,  /* mtwnMakeCubicBezierEasing, CSS's ease keywords */
    mtwn_easingSteps = 10,       /* mtwnMakeStepsEasing, CSS's step-start and step-end */
    mtwn_easingLinearPoints = 11, /* CSS linear() (mtwnMakeLinearPointsEasing, mtwnMakeRoughEasing) */
    mtwn_easingSpring = 12       /* mtwnMakeSpringEasing (spring.h): params hold the spring's closed
                                    form, sampled by spring.h's code over progress clamped to 0 to 1 */
} mtwnEasingKind;

/* CSS's easing keywords (CSS Easing Level 1), for mtwnMakeCssEasing. Frozen values. */
typedef enum mtwnCssKeyword {
    mtwn_cssLinear = 0,    /* linear: the linear easing */
    mtwn_cssEase = 1,      /* ease: cubic-bezier(0.25, 0.1, 0.25, 1) */
    mtwn_cssEaseIn = 2,    /* ease-in: cubic-bezier(0.42, 0, 1, 1) */
    mtwn_cssEaseOut = 3,   /* ease-out: cubic-bezier(0, 0, 0.58, 1) */
    mtwn_cssEaseInOut = 4, /* ease-in-out: cubic-bezier(0.42, 0, 0.58, 1) */
    mtwn_cssStepStart = 5, /* step-start: steps(1, jump-start) */
    mtwn_cssStepEnd = 6    /* step-end: steps(1, jump-end) */
} mtwnCssKeyword;

/* CSS's <step-position> for steps(count, position). start and end are CSS's
 * aliases of jump-start and jump-end. Frozen values. */
typedef enum mtwnStepPosition {
    mtwn_stepJumpStart = 0, /* the first jump at progress 0: count jumps, from 1/count */
    mtwn_stepJumpEnd = 1,   /* the last jump at progress 1: count jumps, up to (count - 1)/count */
    mtwn_stepJumpNone = 2,  /* no jump at either end: count - 1 jumps, from 0 to 1 */
    mtwn_stepJumpBoth = 3,  /* jumps at both ends: count + 1 jumps, from 1/(count + 1) */
    mtwn_stepStart = 0,     /* CSS's start: jump-start */
    mtwn_stepEnd = 1        /* CSS's end: jump-end */
} mtwnStepPosition;

/* -- Bounds (the ranges "outside the above" refers to) ----------------------------- */

/* mtwnMakePowerEasing: the exponent k is finite, above 0 and at most this.
 * Integer k from 1 to 8 is computed by multiplication (p*p*...*p, left to
 * right), any other by the math core's pow. */
#define MTWN_MAX_POWER_EXPONENT 64.0

/* mtwnMakeBackEasing: the overshoot s is finite, from 0 to this. Its curve
 * dips to about -0.1 s before rising to 1. */
#define MTWN_MAX_BACK_OVERSHOOT 1024.0

/* mtwnMakeElasticEasing: the amplitude a is finite, above 0 and at most this,
 * which keeps the curve's end before normalization within 1/2 to 3/2. */
#define MTWN_MAX_ELASTIC_AMPLITUDE 512.0

/* mtwnMakeElasticEasing: the period P is finite and above 0, and once an
 * amplitude below 1 has stretched it (P / a) it is finite and at least this,
 * 2^-10: a fit of MTWN_MAX_FIT_POINTS points has 64 points to each
 * oscillation there. */
#define MTWN_MIN_ELASTIC_PERIOD 0.0009765625

/* mtwnFitLinearEasing's most points (sample.h), and the bound the elastic
 * period and spring.h's spring easings are refused by: 2^16, 64 points to
 * each oscillation of period 2^-10. */
#define MTWN_MAX_FIT_POINTS 65536u

/* How many doubles an easing's parameters take (mtwnEasing.params). */
#define MTWN_EASING_PARAM_COUNT 8

/* The value a maker writes in mtwnEasing.cookie. An easing whose cookie
 * differs, or whose fields no maker would write, is "an easing no maker
 * produced" and refused by every function taking one. */
#define MTWN_EASING_COOKIE 0x4D455A31u

/* -- Types --------------------------------------------------------------------- */

/* A host's easing function: returns the eased progress of a progress in 0 to 1
 * (the library clamps it first). context is the pointer given to
 * mtwnMakeHostEasing. It should be pure: the library may call it more than
 * once for one sample, and from any thread that samples the easing. A NaN
 * result breaks its contract and is replaced by the progress it was called
 * with; an infinity is kept (mtwnMakeHostEasing). */
typedef double mtwnEaseFunction(void* context, double progress);

/* One point of CSS's linear(): an output at an input (both progress values).
 * An input of NaN is "not given", as a <linear-stop> without a percentage;
 * mtwnMakeLinearPointsEasing gives it one when it canonicalizes the points.
 * CSS's stop with two percentages is two points of the same output. */
typedef struct mtwnLinearPoint {
    double input;  /* the progress the point sits at; NaN: not given */
    double output; /* the eased progress there; finite */
} mtwnLinearPoint;

/* An easing: a value the makers write and the samplers read; copy it freely.
 * Its fields are the library's: a host makes easings only with the makers
 * and changes them only with mtwnSetEaseMode. Every byte is written by the
 * makers (reserved fields and unused params are 0), so easings can be
 * compared and hashed as bytes. A linear() easing references its points
 * (mtwnMakeLinearPointsEasing), a host easing its function and context. */
typedef struct mtwnEasing {
    uint32_t cookie;   /* MTWN_EASING_COOKIE */
    uint32_t kind;     /* mtwnEasingKind */
    uint32_t mode;     /* mtwnEaseMode */
    uint32_t variant;  /* steps: mtwnStepPosition; otherwise 0 */
    uint32_t count;    /* steps: the step count; linear(): the point count; otherwise 0 */
    uint32_t reserved; /* 0 */
    /* The curve's parameters, by kind; unused ones are 0:
     *   power: [0] the exponent k
     *   back: [0] the overshoot s, [1] its normalizer (s + 1) - s
     *   elastic: [0] amplitude a (at least 1), [1] period P (stretched), [2] the phase c,
     *            [3] 2 pi / P, [4] g(0), [5] g(1), [6] g(1) - g(0) (docs/internals/easing.md)
     *   cubic bezier: [0..3] x1, y1, x2, y2
     *   spring: the spring's closed form, as spring.h's maker lays it out */
    double params[MTWN_EASING_PARAM_COUNT];
    const mtwnLinearPoint* points; /* linear(): the canonical points; otherwise NULL */
    mtwnEaseFunction* function;    /* host: the function; otherwise NULL */
    void* context;                 /* host: the function's context; otherwise NULL */
} mtwnEasing;

/* The taper of a rough easing: how the largest offset of its points varies
 * with their input x, as GSAP's RoughEase tapers. Frozen values. */
typedef enum mtwnRoughTaper {
    mtwn_roughTaperNone = 0, /* the strength everywhere */
    mtwn_roughTaperIn = 1,   /* the strength times x^2: rough at the end */
    mtwn_roughTaperOut = 2,  /* the strength times (1 - x)^2: rough at the start */
    mtwn_roughTaperBoth = 3  /* the strength times 2 x^2 below 1/2, 2 (1 - x)^2 from it: rough in the middle */
} mtwnRoughTaper;

/* mtwnRoughDef.flags: the points' outputs are clamped to 0 to 1 (GSAP's clamp). */
#define MTWN_ROUGH_CLAMP 0x1u
/* Every flag mtwnMakeRoughEasing knows; any other bit is refused. */
#define MTWN_ROUGH_FLAGS_ALL 0x1u

/* What mtwnMakeRoughEasing draws its points from. The generator is
 * lib/core's SplitMix64 seeded with seed; for each inner point k in order it
 * draws the input's offset in its interval, then the output's offset, each a
 * double in [0, 1) from the top 53 bits (docs/internals/easing.md). */
typedef struct mtwnRoughDef {
    mtwnEasing shape; /* the curve the points wander from (mode included), sampled without the before flag */
    double strength;  /* the largest offset either side of the shape, finite, from 0 */
    uint64_t seed;    /* the generator's seed; any value */
    uint32_t taper;   /* mtwnRoughTaper */
    uint32_t flags;   /* MTWN_ROUGH_CLAMP or 0 */
} mtwnRoughDef;

/* -- Makers -------------------------------------------------------------------- */

/* Makes the linear easing, whose eased progress is its progress (not clamped:
 * it is CSS's linear keyword). Mode in; every mode gives the progress itself,
 * bit for bit.
 * Returns the easing. Safe from any thread. */
MTWN_API mtwnEasing mtwnMakeLinearEasing(void);

/* Makes the power easing p^k: quad for k = 2, cubic 3, quart 4, quint 5.
 * GSAP's power(n) is k = n + 1. Integer exponents up to 8 are computed by
 * multiplication. Progress is clamped to 0 to 1.
 * mode: a mtwnEaseMode. exponent: k, finite, above 0 and at most
 * MTWN_MAX_POWER_EXPONENT. easingOut: the easing.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an unknown mode
 * or an exponent outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakePowerEasing(mtwnEaseMode mode, double exponent, mtwnEasing* easingOut);

/* Makes one of Penner's easings without parameters: sine, expo, circ or
 * bounce. Each lands exactly on 0 at 0 and on 1 at 1; expo is normalized to
 * do so and differs from Penner's by at most 2^-10. GSAP 3's expo is not
 * Penner's but a blend of its own, 2^(10 (p - 1)) p + p^6 (1 - p), up to
 * 2^-7 from this one. Progress is clamped to 0 to 1.
 * kind: mtwn_easingSine, mtwn_easingExpo, mtwn_easingCirc or mtwn_easingBounce.
 * mode: a mtwnEaseMode. easingOut: the easing.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, another kind or
 * an unknown mode. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakePennerEasing(mtwnEasingKind kind, mtwnEaseMode mode, mtwnEasing* easingOut);

/* Makes the back easing p^2 ((s + 1) p - s), normalized to land on 1 (divided
 * by its value at 1, (s + 1) - s in binary64). GSAP's back(s) and Penner's in
 * and out use s as given, 1.70158 by default; Penner's and tween.js's in-out
 * use 1.525 s, which is this easing with that s. Progress is clamped to 0 to 1.
 * mode: a mtwnEaseMode. overshoot: s, finite, from 0 to MTWN_MAX_BACK_OVERSHOOT
 * (0 is the cubic). easingOut: the easing.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an unknown mode
 * or an overshoot outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeBackEasing(mtwnEaseMode mode, double overshoot, mtwnEasing* easingOut);

/* Makes the elastic easing, GSAP's elastic(amplitude, period): out is
 * 1 + a 2^(-10 p) sin((p - c) 2 pi / P) with c = P asin(1 / a) / (2 pi),
 * normalized to land on 0 and 1, and in its reflection. An amplitude below 1
 * is 1 with the period divided by it, as GSAP does. GSAP's defaults are
 * amplitude 1 with period 0.3, or 0.45 in-out; Penner's and tween.js's are
 * amplitude 1, period 0.4. GSAP and tween.js miss 1 at the end by up to
 * q 2^-10, q the larger of a and 1, and set it there, so they differ from
 * this by at most q (1 + q) 2^-10 / (1 - q 2^-10).
 *
 * The curve ends at 1 + a 2^-10 sin(...) before it is normalized by it,
 * which an amplitude up to 512 keeps from 1/2 to 3/2. A period, once an
 * amplitude below 1 has stretched it, below 2^-10 is refused: a fit of
 * MTWN_MAX_FIT_POINTS points has 64 points to each oscillation there, which
 * trace a sine to about 0.1% of its height, and finer ones it cannot follow.
 * Progress is clamped to 0 to 1.
 * mode: a mtwnEaseMode. amplitude: a, finite, above 0, at most
 * MTWN_MAX_ELASTIC_AMPLITUDE. period: P, finite, above 0, with P (or P / a
 * for a below 1) finite and at least MTWN_MIN_ELASTIC_PERIOD. easingOut: the easing.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an unknown mode
 * or a parameter outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeElasticEasing(mtwnEaseMode mode, double amplitude, double period,
                                                         mtwnEasing* easingOut);

/* Makes an easing of a host function, called with progress clamped to 0 to
 * 1, under the mode's reflections. The library neither checks nor forces its
 * ends. A NaN breaks the function's contract: the library takes the progress
 * the function was called with in its place, the curve linear there in every
 * mode, and a context counts one misuse for each sample of an update that met
 * one: a transition's value, and a clip track's for each player
 * (mtwnContext_GetMisuse). Its infinity is kept: a transition or track between
 * equal ends stays at them, and one between others is held at the largest
 * finite float wherever a float is written.
 * mode: a mtwnEaseMode. function: the host's function, not NULL. context:
 * passed to it, any value. easingOut: the easing.
 * Returns mtwn_success; mtwn_errorInvalid for a null function or easingOut or
 * an unknown mode. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeHostEasing(mtwnEaseMode mode, mtwnEaseFunction* function, void* context,
                                                      mtwnEasing* easingOut);

/* Makes CSS's cubic-bezier(x1, y1, x2, y2), solved by safeguarded Newton to
 * |x(t) - x| <= 1e-14: exactly 0 at 0 and 1 at 1, and outside 0 to 1
 * extended along CSS's end tangents (before 0: through P1 if x1 > 0, else P2
 * if x2 > 0, else flat at 0; after 1: through P2 if x2 < 1, else P1 if
 * x1 < 1, else flat at 1). Mode in.
 * x1, x2: finite, from 0 to 1 (CSS's range). y1, y2: finite. easingOut: the easing.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a point
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeCubicBezierEasing(double x1, double y1, double x2, double y2,
                                                             mtwnEasing* easingOut);

/* Makes CSS's steps(count, position), with CSS's before flag: in the before
 * phase, a progress landing exactly on a step takes the step below. Mode in.
 * count: from 1, from 2 for jump-none (CSS's rule). position: a
 * mtwnStepPosition. easingOut: the easing.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an unknown
 * position or a count outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeStepsEasing(uint32_t count, mtwnStepPosition position,
                                                       mtwnEasing* easingOut);

/* Makes the easing a CSS keyword names (mtwnCssKeyword), in mode in.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or an unknown
 * keyword. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeCssEasing(mtwnCssKeyword keyword, mtwnEasing* easingOut);

/* Makes CSS's linear() from its points, canonicalizing them in place as CSS
 * does: a first input not given is 0 and a last one 1 or the largest before
 * it; an input below an earlier one is raised to it; runs not given are
 * spread evenly between their neighbors. The easing references the points,
 * which must outlive it and should not change: changed, even out of order,
 * while finite they give an unspecified finite value. Outside the points'
 * inputs it extends their end segments, a value past the doubles' range given
 * as the largest finite double of its sign. Mode in.
 * points: count points, each output finite and each input finite or NaN (not
 * given). count: from 2 (CSS's rule). easingOut: the easing.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or points
 * outside the above, leaving the points as they were.
 * Safe from any thread; the points are used by one thread at a time. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeLinearPointsEasing(mtwnLinearPoint* points, uint32_t count,
                                                              mtwnEasing* easingOut);

/* Makes a rough easing: linear() through points that wander from a shape by
 * a seed, as GSAP's RoughEase and anime.js's irregular, the same curve for a
 * seed on every platform. The first point is (0, 0) and the last (1, 1); the
 * k-th of the m inner points (k from 0, m = count - 2) falls at a seeded
 * input in [k/m, (k+1)/m), so they stay in order, and its output is the
 * shape there plus a seeded offset of at most the strength either side, by
 * the taper (then clamped to 0 to 1 with MTWN_ROUGH_CLAMP).
 * def: the shape, strength, seed, taper and flags. pointsOut: count points,
 * written and referenced by the easing as mtwnMakeLinearPointsEasing's are;
 * not the shape's own points. count: from 2. easingOut: the easing, mode in.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a shape no
 * maker produced, fewer than 2 points, a strength below 0 or not finite, an
 * unknown taper or flag, or a shape giving a value not finite.
 * Safe from any thread; the points are used by one thread at a time. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnMakeRoughEasing(const mtwnRoughDef* def, mtwnLinearPoint* pointsOut,
                                                       uint32_t count, mtwnEasing* easingOut);

/* -- Modes and queries --------------------------------------------------------- */

/* Changes an easing's mode, keeping its curve.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an easing no
 * maker produced or an unknown mode, leaving the easing as it was.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSetEaseMode(mtwnEasing* easing, mtwnEaseMode mode);

/* Tells whether an easing never decreases, as a timeline's easing must:
 * linear, power, sine, expo, circ and steps in every mode, a cubic bezier with
 * both y from 0 to 1, linear() with outputs that never decrease, in in-out
 * ending at 1 or below and in out-in starting at 0 or above, since those
 * modes join the curve's halves at 1/2; not back, elastic, bounce or a
 * spring, and not a host function, which the library cannot inspect. Each of
 * these samples to values that never decrease, but a cubic bezier through
 * mtwnSampleEasing, solved to 1e-14 in x, whose values can fall an ulp or so
 * short of the last, more near a vertical tangent. A timeline samples one so
 * that they never do (bisection to the last bit of t, then y rounded once
 * from a double-double; docs/internals/easing.md), which can differ from what
 * the same easing gives in a keyframe, a transition or mtwnSampleEasing by a
 * few 1e-14 for CSS's keywords.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or an easing no
 * maker produced. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnIsEasingMonotonic(const mtwnEasing* easing, bool* monotonicOut);

/* -- Sampling ------------------------------------------------------------------ */

/* Samples an easing. CSS's curves follow CSS Easing Level 2 outside 0 to 1;
 * Penner's curves, springs and host functions see progress clamped to 0 to
 * 1. The modes reflect the curve, and the before flag reaches it where it
 * samples progress unreflected.
 *
 * Every curve but a host function's gives a finite value: CSS's, past the
 * doubles' range, the largest finite double of its sign. A host function's
 * infinity is given as it is, and its NaN never: the progress it was called
 * with is taken instead (mtwnMakeHostEasing).
 * progress: finite. before: CSS's before flag (the before phase, going
 * forwards, or the after phase going backwards). easedOut: the eased progress.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an easing no
 * maker produced or a progress not finite. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleEasing(const mtwnEasing* easing, double progress, bool before,
                                                    double* easedOut);

/* Samples a cubic bezier easing as mtwnSampleEasing does, to the bit, in each
 * mode, reaching none of the other curves. With link-time optimization, or
 * with -ffunction-sections and --gc-sections, a program that samples cubic
 * beziers only through it links none of mtwnSampleEasing's dispatch, Penner's
 * curves or the spring easing; without either, the makers and mtwnSetEaseMode
 * bring them along.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an easing of
 * another kind or no maker produced, or a progress not finite.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleCubicBezierEasing(const mtwnEasing* easing, double progress,
                                                               double* easedOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_EASING_H */
