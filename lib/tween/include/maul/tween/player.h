/* Maul Tween: player.h
 *
 * Players: what writes targets. A transition (transition.h) is a player. A
 * player not kept ends by committing its last value into its target's base
 * value and is then freed, its id stale.
 */
#ifndef MAUL_TWEEN_PLAYER_H
#define MAUL_TWEEN_PLAYER_H

#include "maul/tween/base.h"
#include "maul/tween/context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A player's id: a slot and the generation it had when the player was made,
 * from 1. The all-zero id is the null id, never handed out. */
typedef struct mtwnPlayerId {
    uint32_t index;
    uint32_t generation;
} mtwnPlayerId;

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
