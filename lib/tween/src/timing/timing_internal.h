/* Maul Tween: timing internals for the clip and player sources. Internal. */
#ifndef MAUL_TWEEN_TIMING_INTERNAL_H
#define MAUL_TWEEN_TIMING_INTERNAL_H

#include "maul/tween/timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The active duration of a valid timing (mtwnTimingResult.activeDuration). */
double mtwn_ActiveDuration(const mtwnTiming* timing);

/* mtwnComputeTiming on a timing mtwnValidateTiming accepts (not checked) and a
 * local time neither NaN nor -infinity. monotone samples the easing as a
 * timeline must (mtwn_SampleEasingMonotone); *metNaN (may be NULL) is set
 * when a host easing returned NaN. */
void mtwn_ComputeTimingUnchecked(const mtwnTiming* timing, double localTime, bool backwards, bool monotone,
                                 mtwnTimingResult* resultOut, bool* metNaN);

#ifdef __cplusplus
}
#endif

#endif
