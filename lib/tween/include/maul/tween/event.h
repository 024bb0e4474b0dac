/* Maul Tween: event.h
 *
 * Events: records in the context's bounded queue, never callbacks. Each
 * update appends what its players crossed, at most one record per player,
 * node or mark, kind and direction, with the count of crossings, ordered by
 * the time of the first crossing, then the players' creation order, then the
 * clip's order; the host reads them when it likes. The queue holds the
 * context def's eventCapacity records. One that arrives at a full queue is
 * dropped and counted, never silently. Records arrive in the order they are
 * made (players in creation order), so a full queue keeps the first made and
 * drops the rest of an update's; those kept are sorted. A context of
 * eventCapacity 0 makes no records and drops none.
 */
#ifndef MAUL_TWEEN_EVENT_H
#define MAUL_TWEEN_EVENT_H

#include "maul/tween/base.h"
#include "maul/tween/context.h"
#include "maul/tween/player.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a record says. Frozen values. */
typedef enum mtwnEventKind {
    mtwn_eventFinish = 0, /* a player reached the end of its direction (a transition: its end, committed) */
    mtwn_eventCancel = 1, /* a player was cancelled */
    mtwn_eventSeek = 2,   /* a player jumped */
    mtwn_eventNodeStart = 3, /* playback entered a node's active interval */
    mtwn_eventNodeEnd = 4,   /* playback left a node's active interval */
    mtwn_eventMark = 5       /* playback crossed a mark */
} mtwnEventKind;

/* A record. */
typedef struct mtwnEvent {
    uint64_t timeNs;     /* the host time of the first crossing */
    mtwnPlayerId player; /* the player */
    uint32_t kind;       /* mtwnEventKind */
    uint32_t node;       /* the clip's node, 0 for the player itself */
    uint32_t key;        /* a mark's or label's host key, else 0 */
    uint32_t backwards;  /* 1 when crossed playing backwards */
    uint32_t count;      /* crossings at this update, from 1 */
    uint32_t reserved;   /* 0 */
} mtwnEvent;

/* Takes the oldest records off the queue, as many as fit, and reports how
 * many were dropped at a full queue since the last read (droppedOut may be
 * NULL: they still count as reported).
 * Returns mtwn_success; mtwn_errorInvalid for a null context or countOut, or
 * a null array with a capacity; mtwn_errorBusy from the host's code. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnContext_ReadEvents(mtwnContext* context, mtwnEvent* eventsOut,
                                                          uint32_t capacity, uint32_t* countOut,
                                                          uint64_t* droppedOut);

/* Returns how many records wait in the queue; 0 for a null context. */
MTWN_API uint32_t mtwnContext_GetEventCount(const mtwnContext* context);

/* Returns how many records were dropped since the context was made; 0 for a
 * null context. */
MTWN_API uint64_t mtwnContext_GetEventsDropped(const mtwnContext* context);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_EVENT_H */
