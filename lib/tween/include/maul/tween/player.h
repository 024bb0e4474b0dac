/* Maul Tween: player.h
 *
 * Players: what writes targets. A player plays a sealed clip on targets
 * bound to its slots, by Web Animations' procedures on the host's clock; a
 * transition (transition.h) is a player too. A player not kept ends by
 * committing its last value into its targets' base values and is then
 * freed, its id stale. Later players write over earlier ones: a binding of
 * weight w (times the player's) mixes what is there toward its value per
 * channel, x + (value - x) w in binary64, replacing it at 1. By kind below
 * 1: an integer's mix is rounded half away from zero; a discrete value is
 * the player's from w = 0.5 and what is there below; a rotation mixes toward
 * the player's in the shorter hemisphere (the player's negated when their
 * dot is below 0) and is normalized.
 */
#ifndef MAUL_TWEEN_PLAYER_H
#define MAUL_TWEEN_PLAYER_H

#include "maul/tween/base.h"
#include "maul/tween/clip.h"
#include "maul/tween/context.h"
#include "maul/tween/target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A player's id: a slot and the generation it had when the player was made,
 * from 1. The all-zero id is the null id, never handed out. */
typedef struct mtwnPlayerId {
    uint32_t index;
    uint32_t generation;
} mtwnPlayerId;

/* A clip player's rate is 0 or of a size from MTWN_MIN_RATE to
 * MTWN_RATE_LIMIT: with host times up to 2^63 ns the start time the seamless
 * rate update keeps stays within an ulp of the host time times the rate. */
#define MTWN_RATE_LIMIT 1e6
#define MTWN_MIN_RATE 1e-6

/* The value mtwnDefaultClipPlayerDef writes in mtwnClipPlayerDef.cookie. */
#define MTWN_CLIP_PLAYER_DEF_COOKIE 0x504C5931u

/* A slot bound to a target, at a weight (mtwnMakeBinding). */
typedef struct mtwnBinding {
    uint32_t slot;       /* below the clip's slotCount, bound once */
    uint32_t reserved;   /* 0 */
    mtwnTargetId target; /* a live target of the kind of the slot's tracks (a track of another kind writes nothing) */
    float weight;        /* 0 to 1: the binding's share, times the player's weight */
    uint32_t reserved2;  /* 0 */
} mtwnBinding;

/* Makes a binding of a slot to a target: replace, at full weight. */
static inline mtwnBinding mtwnMakeBinding(uint32_t slot, mtwnTargetId target)
{
    mtwnBinding b;
    b.slot = slot;
    b.reserved = 0u;
    b.target = target;
    b.weight = 1.0f;
    b.reserved2 = 0u;
    return b;
}

/* How a clip's player is made (mtwnDefaultClipPlayerDef). */
typedef struct mtwnClipPlayerDef {
    uint32_t cookie;  /* MTWN_CLIP_PLAYER_DEF_COOKIE */
    mtwnClipId clip;  /* a live, sealed clip */
    const mtwnBinding* bindings;
    uint32_t bindingCount;
    uint32_t play;      /* 1: plays from the next update; 0: idle */
    uint32_t keep;      /* 1: kept when it finishes, holding its end; 0: commits and is freed */
    uint32_t essential; /* 1: reduced motion does not finish it */
    double rate;        /* the playback rate */
    float weight;       /* 0 to 1 */
    uint32_t reserved;  /* 0 */
} mtwnClipPlayerDef;

/* Makes a player def: no clip, no bindings, playing at once at rate 1 and
 * full weight, freed when it ends. */
static inline mtwnClipPlayerDef mtwnDefaultClipPlayerDef(void)
{
    mtwnClipPlayerDef def;
    def.cookie = MTWN_CLIP_PLAYER_DEF_COOKIE;
    def.clip.index = 0u;
    def.clip.generation = 0u;
    def.bindings = NULL;
    def.bindingCount = 0u;
    def.play = 1u;
    def.keep = 0u;
    def.essential = 0u;
    def.rate = 1.0;
    def.weight = 1.0f;
    def.reserved = 0u;
    return def;
}

/* Web Animations' play states. Frozen values. */
typedef enum mtwnPlayState {
    mtwn_playIdle = 0,
    mtwn_playRunning = 1,
    mtwn_playPaused = 2,
    mtwn_playFinished = 3
} mtwnPlayState;

/* A clip player's state at the last update's time (mtwnClipPlayer_GetState). */
typedef struct mtwnClipPlayerState {
    uint32_t playState;      /* mtwnPlayState, by Web Animations' play state function */
    uint32_t pending;        /* 1: a play or rate waits for the next update */
    uint32_t playsOnReduced; /* 1: reduced motion left it running: its end infinite or its rate 0 */
    uint32_t kept;           /* the def's keep; 1 once cancelled (mtwnClipPlayer_Cancel keeps it) */
    mtwnClipId clip;
    double currentTime;      /* seconds; NaN when idle */
    double rate;             /* the rate it runs at (a pending one once taken) */
    double duration;         /* the clip's */
    float weight;
    uint32_t reserved;
} mtwnClipPlayerState;

/* Makes a player of a sealed clip, which it holds busy until it is freed; it
 * starts at the next update if the def says play, else idle.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument, a def without
 * its cookie, a rate NaN, a weight outside [0, 1], a binding outside the
 * above; mtwn_errorLimit for a rate above MTWN_RATE_LIMIT in size, or other
 * than 0 below MTWN_MIN_RATE; mtwn_errorStale for a clip that is not alive;
 * mtwn_errorState for one not sealed; mtwn_errorCapacity when the context
 * holds its capacity of players or of bindings. Whether a slot is bound twice
 * is checked last (mtwn_errorInvalid). */
MTWN_NODISCARD MTWN_API mtwnResult mtwnCreateClipPlayer(mtwnContext* context, const mtwnClipPlayerDef* def,
                                                        mtwnPlayerId* playerOut);

/* Plays, as Web Animations plays an animation with auto-rewind: from the
 * start (or the end, backwards) when idle, at its end or before its start,
 * jumping there (nothing between is crossed); a paused player resumes. One
 * that needs a start time takes the next update's (its pending play task's
 * ready time).
 * Returns mtwn_success; mtwn_errorInvalid for a null context; mtwn_errorStale
 * for an id that names no live player; mtwn_errorInvalid for a transition;
 * mtwn_errorState backwards from an end that is infinite. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_Play(mtwnContext* context, mtwnPlayerId player);

/* Pauses at the current time, or at the start (the end, backwards) when idle;
 * a paused player stays as it is. The pause's task is ready at once, at the
 * last update's time (docs/internals/timing.md).
 * Returns as mtwnClipPlayer_Play. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_Pause(mtwnContext* context, mtwnPlayerId player);

/* Reverses, as Web Animations does: the pending rate is the negated
 * effective rate, then play with auto-rewind; a moving player takes the
 * rate at the next update, keeping the current time it has there (as
 * mtwnClipPlayer_SetRate). Refused, nothing changed, when that would play an
 * infinite clip backwards from its end. Returns as mtwnClipPlayer_Play. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_Reverse(mtwnContext* context, mtwnPlayerId player);

/* Finishes, as Web Animations does: the current time goes to the end of the
 * playback direction (the clip's end forwards, 0 backwards), crossing what
 * lies before it, its records and its finish record at once, at the last
 * update's time (a finish record only when it was not finished already); a
 * paused or pending player is finished too, its start time resolved. A
 * player not kept then commits and is freed at the next update.
 * Returns as mtwnClipPlayer_Play; mtwn_errorState also for a rate of 0 or an
 * infinite clip played forwards. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_Finish(mtwnContext* context, mtwnPlayerId player);

/* Becomes idle, without effect at once (its targets show their base, as
 * mtwnDestroyPlayer's do), and is kept, to be played again, whatever the
 * def's keep said (GetState's kept is then 1); a pending rate is applied, as
 * Web Animations' reset of the pending tasks does. A cancel record says so if
 * it had a time. Returns as mtwnClipPlayer_Play. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_Cancel(mtwnContext* context, mtwnPlayerId player);

/* Seeks to a current time, jumping (a seek record says so; nothing between
 * is crossed), as Web Animations sets the current time: an idle player is
 * then paused there, a finished one runs on from there, and one sought past
 * its end is finished (its finish record at once).
 * Returns as mtwnClipPlayer_Play; mtwn_errorInvalid also for a NaN time;
 * mtwn_errorLimit for one past MTWN_SEEK_LIMIT in size, infinity included. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_Seek(mtwnContext* context, mtwnPlayerId player, double seconds);

/* Seeks to a time crossing everything between, its records at once, at the
 * last update's time. Returns as mtwnClipPlayer_Seek. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_Sweep(mtwnContext* context, mtwnPlayerId player, double seconds);

/* Seeks to a share of the clip's duration. Returns as mtwnClipPlayer_Seek;
 * mtwn_errorInvalid also for an infinite duration. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_SeekProgress(mtwnContext* context, mtwnPlayerId player,
                                                               double progress);

/* Seeks to a label of the clip's root. Returns as mtwnClipPlayer_Play;
 * mtwn_errorInvalid also for no such label. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_SeekLabel(mtwnContext* context, mtwnPlayerId player,
                                                            uint32_t key);

/* Sets the rate, keeping the current time (Web Animations' seamless update):
 * a moving player (running, a rate of 0 included) takes it at the next
 * update, its pending play task's ready time, an idle or paused one at
 * once; a finished one runs at it from the time it holds at once, as Chrome
 * does (docs/internals/timing.md): a positive rate keeps it finished, a
 * negative one plays it back from there.
 * Returns as mtwnClipPlayer_Play; mtwn_errorInvalid also for a NaN rate;
 * mtwn_errorLimit for a rate other than 0 outside [MTWN_MIN_RATE,
 * MTWN_RATE_LIMIT] in size. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_SetRate(mtwnContext* context, mtwnPlayerId player, double rate);

/* Sets the weight, which scales its bindings' from the next update.
 * Returns as mtwnClipPlayer_Play; mtwn_errorInvalid also for a weight
 * outside [0, 1]. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_SetWeight(mtwnContext* context, mtwnPlayerId player, float weight);

/* Reads the state at the last update's time.
 * Returns mtwn_success; mtwn_errorInvalid for a null context or stateOut;
 * mtwn_errorStale for an id that names no live player; mtwn_errorInvalid for
 * a transition. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClipPlayer_GetState(const mtwnContext* context, mtwnPlayerId player,
                                                           mtwnClipPlayerState* stateOut);

/* Stops a player without committing: its target shows its base value again
 * at once.
 * Returns mtwn_success; mtwn_errorInvalid for a null context; mtwn_errorStale
 * for an id that names no live player, as one that ended does: not counted
 * as misuse for an id the context handed out, but counted for one never
 * handed out, the null id among them; mtwn_errorBusy from the host's code. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnDestroyPlayer(mtwnContext* context, mtwnPlayerId player);

/* Tells whether an id names a live player: one that has not ended, been
 * replaced or been destroyed. Not counted as misuse. */
MTWN_API bool mtwnPlayer_IsValid(const mtwnContext* context, mtwnPlayerId player);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_PLAYER_H */
