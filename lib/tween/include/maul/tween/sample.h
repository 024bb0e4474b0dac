/* Maul Tween: sample.h
 *
 * Sampling: an easing turned into points in caller memory, as an even table
 * for a GPU or a host lookup, or as the points of a CSS linear() fitted to a
 * tolerance. Nothing is allocated.
 */
#ifndef MAUL_TWEEN_SAMPLE_H
#define MAUL_TWEEN_SAMPLE_H

#include "maul/tween/base.h"
#include "maul/tween/easing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mtwnFitLinearEasing's probes inside each segment, evenly spaced: the j-th
 * of a segment [a, b] at a + (b - a) (j / 33), j from 1 to 32. */
#define MTWN_FIT_PROBES 32u

/* mtwnFitLinearEasing splits a segment at its middle while a probe is over
 * the tolerance, but keeps one narrower than this, 2^-24, as it is. */
#define MTWN_FIT_MIN_SEGMENT 0x1p-24

/* Samples an easing evenly over progress 0 to 1: valuesOut[i] is the eased
 * progress at i / (count - 1), rounded to float, a value past the floats'
 * range held at the largest finite float of its sign (a host function's
 * infinity too; its NaN is taken as the progress, as mtwnMakeHostEasing
 * says), so every value is finite. The before flag is not set.
 * easing: a maker's easing. count: from 2. valuesOut: count floats.
 * Returns mtwn_success; mtwn_errorInvalid for a null pointer, an easing no
 * maker produced or a count below 2. Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnSampleEasingTable(const mtwnEasing* easing, uint32_t count, float* valuesOut);

/* Fits CSS linear() points to an easing over progress 0 to 1: their
 * interpolation is within the tolerance of the eased progress at every probe,
 * MTWN_FIT_PROBES inside each segment, and is not proven so between them; the
 * points lie on the curve, the first at 0 and the last at 1. The fit starts
 * from the one segment [0, 1] and splits a segment at its middle while one of
 * its probes is over the tolerance, so every input is a multiple of a power
 * of 2 and the points come out in order, each input given. A segment narrower
 * than 2^-24 (MTWN_FIT_MIN_SEGMENT) is kept as it is, so a host function's
 * jump costs points and may stay over the tolerance within 2^-24 of it. Steps
 * are refused: CSS writes them as steps(). The before flag is not set; a host
 * function's NaN is taken as the progress.
 * easing: a maker's easing, not steps. tolerance: finite and above 0, in
 * eased progress. pointsOut: capacity points, or NULL with a capacity of 0
 * to ask how many the fit needs. countOut: the points written, or needed
 * (mtwn_errorCapacity), or 0 (mtwn_errorLimit).
 * Returns mtwn_success; mtwn_errorCapacity when more than capacity points are
 * needed, *countOut the number needed and no point written; mtwn_errorLimit
 * when more than MTWN_MAX_FIT_POINTS are, the fit stopped there and countOut
 * 0; mtwn_errorInvalid for a null easing or countOut, an easing no maker
 * produced, a NULL pointsOut with a capacity, steps, a tolerance outside the
 * above, or an easing not finite at a point the fit keeps.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnFitLinearEasing(const mtwnEasing* easing, double tolerance,
                                                       mtwnLinearPoint* pointsOut, uint32_t capacity,
                                                       uint32_t* countOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_SAMPLE_H */
