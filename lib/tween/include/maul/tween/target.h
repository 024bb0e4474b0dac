/* Maul Tween: target.h
 *
 * Targets: one animated value of a fixed kind, holding the host's base value,
 * the current value animations compose over it and its velocity. Animations
 * write targets; the host reads them by id.
 *
 * Values by kind ("a value its kind refuses" is one outside these; channels
 * past the kind's are ignored and stored as 0):
 *   scalar, angle: channel x finite; vec2/3/4: their channels finite;
 *   integer: x finite and whole; discrete: x whole, from 0 to 2^24;
 *   color: (r, g, b) finite, alpha w from 0 to 1;
 *   rotation: a quaternion, finite, not all 0;
 *   scale: x, y, z finite and above 0.
 */
#ifndef MAUL_TWEEN_TARGET_H
#define MAUL_TWEEN_TARGET_H

#include "maul/tween/base.h"
#include "maul/tween/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A target's id: a slot and the generation the slot had when the target was
 * made. Destroying the target moves the slot's generation on, so every copy
 * of the id becomes stale. Generations start at 1: the all-zero id names no
 * target ever. */
typedef struct mtwnTargetId {
    uint32_t index;
    uint32_t generation;
} mtwnTargetId;

/* All of a target (mtwnTarget_GetState). */
typedef struct mtwnTargetState {
    uint32_t kind;     /* mtwnValueKind */
    uint32_t reserved; /* 0 */
    mtwnVec4 base;     /* the host's base value */
    mtwnVec4 value;    /* the current value */
    mtwnVec4 velocity; /* per channel, a second: 0 at rest; a transition's only (a target only clip players move reports 0: their composed value is not differentiated, so a spring started from it starts at rest unless the host gives its velocity) */
} mtwnTargetState;

/* Makes a target holding a value as its base and current value, at rest.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument, an unknown
 * kind or a value outside the above; mtwn_errorCapacity when the context
 * holds its capacity of targets; mtwn_errorBusy from the host's code. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnCreateTarget(mtwnContext* context, mtwnValueKind kind, mtwnVec4 value,
                                                    mtwnTargetId* targetOut);

/* Destroys a target (and the transition writing it); its id and every copy
 * of it become stale.
 * Returns mtwn_success; mtwn_errorInvalid for a null context; mtwn_errorStale
 * for an id that names no live target; mtwn_errorBusy from the host's code. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnDestroyTarget(mtwnContext* context, mtwnTargetId target);

/* Tells whether an id names a live target. Not counted as misuse. */
MTWN_API bool mtwnTarget_IsValid(const mtwnContext* context, mtwnTargetId target);

/* Sets a target's base value. A target no animation writes shows it at once;
 * one a transition writes, or a live clip player binds (playing or not),
 * shows its animated value until the next update composes over the new base.
 * The next update reports the target as changed.
 * Returns mtwn_success; mtwn_errorInvalid for a null context or a value its
 * kind refuses; mtwn_errorStale for an id that names no live target;
 * mtwn_errorBusy from the host's code. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnTarget_SetBase(mtwnContext* context, mtwnTargetId target, mtwnVec4 value);

/* Reads a target's current value.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument; mtwn_errorStale
 * for an id that names no live target; mtwn_errorBusy while an update's clip
 * players run on the task system. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnTarget_GetValue(const mtwnContext* context, mtwnTargetId target,
                                                       mtwnVec4* valueOut);

/* Reads all of a target: kind, base value, current value and velocity. The
 * velocity of a transition by easing is measured from an earlier sample, a
 * millisecond before the last update's time (from its start, within its
 * first millisecond), so it may run a host easing: the call marks the
 * context busy, and is refused (mtwn_errorBusy) from the host's code.
 * Returns as mtwnTarget_GetValue. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnTarget_GetState(const mtwnContext* context, mtwnTargetId target,
                                                       mtwnTargetState* stateOut);

/* Reads many targets' current values, in the order of their ids.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument (a null array
 * with a count of 0 is fine); mtwn_errorStale when any id names no live
 * target, each such id counted as misuse and its value left as it was, the
 * others read; mtwn_errorBusy while an update's clip players run on the task
 * system. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnContext_ReadTargets(const mtwnContext* context, const mtwnTargetId* targets,
                                                           uint32_t count, mtwnVec4* valuesOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_TARGET_H */
