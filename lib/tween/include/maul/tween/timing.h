/* Maul Tween: timing.h
 *
 * Timing: Web Animations Level 1's calculation of a node's phase, iteration
 * and progress from its local time, with Level 2's effect playback rate, a
 * repeat delay between iterations and a choice of how reverse iterations
 * ease. Staggers: offsets for items in a grid by their distance from an
 * origin. docs/internals/timing.md has the steps in full.
 */
#ifndef MAUL_TWEEN_TIMING_H
#define MAUL_TWEEN_TIMING_H

#include "maul/tween/base.h"
#include "maul/tween/easing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Web Animations' fill modes: whether a node shows its state outside its
 * active interval (before: backwards; after: forwards). Frozen values. */
typedef enum mtwnFillMode {
    mtwn_fillNone = 0,      /* in effect only in the active phase */
    mtwn_fillForwards = 1,  /* also in the after phase */
    mtwn_fillBackwards = 2, /* also in the before phase */
    mtwn_fillBoth = 3       /* in every phase */
} mtwnFillMode;

/* Web Animations' playback directions. Frozen values. */
typedef enum mtwnPlaybackDirection {
    mtwn_directionNormal = 0,          /* every iteration forwards */
    mtwn_directionReverse = 1,         /* every iteration in reverse */
    mtwn_directionAlternate = 2,       /* even iterations forwards, odd ones in reverse */
    mtwn_directionAlternateReverse = 3 /* even iterations in reverse, odd ones forwards */
} mtwnPlaybackDirection;

/* How a reverse iteration eases. Frozen values. */
typedef enum mtwnReverseEasing {
    /* Web Animations: time runs back, the easing sampled at the directed
     * progress: f(1 - p), an ease-in playing back as an ease-out. */
    mtwn_reverseTimeBack = 0,
    /* The easing runs forwards over the way back, as GSAP's yoyoEase of the
     * same ease: 1 - f(p), an ease-in returning as an ease-in. */
    mtwn_reverseMirrored = 1
} mtwnReverseEasing;

/* Web Animations' phases of a node at a local time. Frozen values. */
typedef enum mtwnPhase {
    mtwn_phaseBefore = 0, /* before the active interval (or at its start, playing backwards) */
    mtwn_phaseActive = 1, /* inside it */
    mtwn_phaseAfter = 2   /* after it (or at its end, playing forwards) */
} mtwnPhase;

/* A node's timing: Web Animations' EffectTiming with Level 2's playback
 * rate, plus a repeat delay and the reverse-easing choice. mtwnDefaultTiming
 * makes the default; mtwnValidateTiming states the ranges. All times are in
 * the same unit (seconds, by convention). */
typedef struct mtwnTiming {
    double delay;          /* the start delay: finite, may be negative */
    double endDelay;       /* the end delay: finite, may be negative */
    double iterationStart; /* where in the iterations the active interval starts: finite, from 0 */
    double iterations;     /* the iteration count: from 0, infinity allowed */
    double duration;       /* the iteration duration: from 0, infinity allowed */
    double repeatDelay;    /* a pause after each iteration another follows (GSAP's repeatDelay): finite, from 0 */
    double playbackRate;   /* Level 2's effect playback rate: finite, not 0; negative plays the iterations backwards */
    uint32_t fill;          /* mtwnFillMode */
    uint32_t direction;     /* mtwnPlaybackDirection */
    uint32_t reverseEasing; /* mtwnReverseEasing */
    uint32_t reserved;      /* 0 */
    mtwnEasing easing;      /* the timing function, from a maker */
} mtwnTiming;

/* A node's timing at a local time (mtwnComputeTiming). When inEffect is
 * false (the active time is unresolved: outside the active phase without the
 * fill for it), every progress field and the iteration are 0. */
typedef struct mtwnTimingResult {
    double activeDuration;      /* (duration x iterations + repeat delays) / |rate| */
    double endTime;             /* max(delay + active duration + end delay, 0) */
    double activeTime;          /* Web Animations' active time, from 0 to the active duration */
    double overallProgress;     /* iterations completed from the start, iteration start included */
    double iterationProgress;   /* the simple iteration progress, 0 to 1 (1 at an iteration's end) */
    double currentIteration;    /* the iteration's index, infinity after an infinite count */
    double directedProgress;    /* the progress in the iteration's direction */
    double transformedProgress; /* the eased progress */
    uint32_t phase;             /* mtwnPhase */
    bool inEffect;              /* whether the active time is resolved */
    bool forwards;              /* whether the current iteration's direction is forwards */
    bool before;                /* the before flag the easing was sampled with */
    bool inRepeatDelay;         /* whether the time falls in a repeat delay (the iteration held at its end) */
} mtwnTimingResult;

/* Returns Web Animations' default timing: no delays, fill none, one iteration
 * from 0, a duration of 0, normal direction, linear easing, no repeat delay,
 * time running back in reverse iterations, rate 1. Safe from any thread. */
MTWN_API mtwnTiming mtwnDefaultTiming(void);

/* Checks a timing: delays finite, iteration start finite and from 0,
 * iterations and duration from 0 (infinity allowed, NaN not), repeat delay
 * finite and from 0, playback rate finite and not 0, every enumeration
 * known. The active duration and the end time (delay plus active duration
 * plus end delay) must be finite, unless the iterations or the duration are
 * infinite, making the active duration infinite, and the rate is positive: a
 * backward play starts from the active interval's end, and finite fields that
 * overflow a double there are refused. With a repeat delay, the duration plus
 * the repeat delay must be finite. The easing must be a maker's and the
 * reserved field 0.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer or a timing
 * outside the above. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnValidateTiming(const mtwnTiming* timing);

/* Computes a node's timing at a local time, by Web Animations' steps
 * (docs/internals/timing.md): phase, active time, overall and simple
 * iteration progress, current iteration, directed and transformed progress.
 * backwards: the animation's direction (its player's rate below 0), which
 * decides the phase exactly at the active interval's start and end.
 * localTime: any value but NaN and -infinity.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, a timing
 * mtwnValidateTiming refuses, or a local time that is NaN or negative
 * infinity. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputeTiming(const mtwnTiming* timing, double localTime, bool backwards,
                                                     mtwnTimingResult* resultOut);

/* -- Staggers -------------------------------------------------------------------- */

/* Where a stagger's distances are measured from. Frozen values. */
typedef enum mtwnStaggerOrigin {
    mtwn_staggerFirst = 0,  /* item 0's cell */
    mtwn_staggerLast = 1,   /* the last item's cell */
    mtwn_staggerCenter = 2, /* the grid's center ((columns - 1) / 2, (rows - 1) / 2) */
    mtwn_staggerEdges = 3,  /* the nearest edge of the grid: the distance is to it (a single row's
                               edges are its ends, a single column's likewise) */
    mtwn_staggerIndex = 4   /* the cell of item originIndex, below the count */
} mtwnStaggerOrigin;

/* Which distance a stagger measures. Frozen values. */
typedef enum mtwnStaggerAxis {
    mtwn_staggerBoth = 0, /* Euclidean (for edges: the nearer of the two axes' edges) */
    mtwn_staggerX = 1,    /* along the row: |column - origin's| */
    mtwn_staggerY = 2     /* across rows: |row - origin's| */
} mtwnStaggerAxis;

/* What a stagger's spacing means. Frozen values. */
typedef enum mtwnStaggerSpacing {
    mtwn_staggerEach = 0,  /* the offset per unit of distance: the span is spacing x (max - min) */
    mtwn_staggerAmount = 1 /* the whole span, shared among the items */
} mtwnStaggerSpacing;

/* A point's column or row beyond this, 2^20, is refused: below it every
 * squared distance is exact in a double, so the offsets are the same bits
 * everywhere. */
#define MTWN_MAX_STAGGER_COORDINATE 1048576.0

/* A stagger: offsets for items laid out in rows of `columns`. */
typedef struct mtwnStagger {
    double start;         /* the offset of the items nearest the origin: finite */
    double spacing;       /* mtwnStaggerSpacing's spacing: finite, negative reverses (GSAP's distribute) */
    uint32_t spacingKind; /* mtwnStaggerSpacing */
    uint32_t origin;      /* mtwnStaggerOrigin */
    uint32_t originIndex; /* the item for mtwn_staggerIndex, below the count; otherwise ignored */
    uint32_t axis;        /* mtwnStaggerAxis */
    uint32_t columns;     /* items in a row; 0: all in one row */
    uint32_t reserved;    /* 0 */
    mtwnEasing ease;      /* applied to the normalized distance, from a maker */
} mtwnStagger;

/* Returns the default stagger: from the first item, 0.1 between neighbors in
 * one row, from 0, linear, both axes. Safe from any thread. */
MTWN_API mtwnStagger mtwnDefaultStagger(void);

/* Computes a stagger's offsets. Item i sits in column i mod columns and row
 * i / columns; its distance d from the origin is Euclidean, or along one
 * axis, or to the nearest edge; t = (d - min) / (max - min), 0 when all are
 * equal, and the offset is start + span * ease(t), where span is the spacing
 * for mtwn_staggerAmount and the spacing times (max - min) for
 * mtwn_staggerEach. A negative span gives start - span * ease(1 - t), as
 * GSAP's distribute does: the farthest items at the start, the nearest at
 * start - span, no offset below the start. The offsets are the same bits on
 * every platform.
 * count: the items; offsetsOut: count doubles (may be NULL for 0).
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer with a count, an
 * unknown origin, axis or spacing, an index not below a count above 0 for
 * mtwn_staggerIndex, a start or spacing not finite, a point beyond 2^20
 * (MTWN_MAX_STAGGER_COORDINATE), a spread (the spacing, or for
 * mtwn_staggerEach the spacing times the distances' range) not finite, or an
 * offset not finite (the start plus the spread times the eased distance past
 * the doubles, or a host easing's value not finite), writing nothing; also
 * for an easing no maker produced or a reserved field not 0.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnComputeStagger(const mtwnStagger* stagger, uint32_t count, double* offsetsOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_TIMING_H */
