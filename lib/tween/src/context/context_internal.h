/* Maul Tween: the context's block and the objects in it. Internal. */
#ifndef MAUL_TWEEN_CONTEXT_INTERNAL_H
#define MAUL_TWEEN_CONTEXT_INTERNAL_H

#include "maul/tween/context.h"
#include "maul/tween/event.h"
#include "maul/tween/player.h"
#include "maul/tween/target.h"
#include "maul/tween/transition.h"

/* A target's slot. */
typedef struct mtwn_Target {
    uint32_t generation; /* of the live target, or of the last one (0: never used) */
    uint8_t alive;
    uint8_t kind;    /* mtwnValueKind */
    uint8_t changed; /* in the changed list */
    uint8_t reserved;
    uint32_t writer; /* the slot + 1 of the transition writing it, 0 for none */
    mtwnVec4 base;
    mtwnVec4 value;
} mtwn_Target;

/* A player's slot: a transition. */
typedef struct mtwn_Player {
    uint32_t generation; /* as the target's */
    uint8_t alive;
    uint8_t kind;      /* mtwnTransitionKind */
    uint8_t started;   /* startNs is resolved */
    uint8_t essential;
    uint32_t target;   /* its target's slot */
    uint32_t valueKind;
    uint32_t channels; /* the channels it moves per channel */
    uint32_t decayEnd;
    uint64_t seq;      /* creation order */
    uint64_t startNs;
    double delay;
    double duration; /* an easing's; a spring's settling or a decay's stop time once started */
    double from[4];  /* the start (a scale decay's: logarithms) */
    double to[4];    /* the end (an angle's moved by the method's turns) */
    double vel[4];   /* the start velocity per channel (progress springs: [0] the progress's) */
    double restOffset;
    double restVelocity;
    double progressVelocity; /* colors, rotations and scales by spring: the progress's start velocity */
    mtwnVec4 startValue;     /* the value it starts from, exactly */
    mtwnVec4 endValue;       /* the value it ends at, committed as the base */
    double lower, upper;
    mtwnEasing easing; /* points in the context's pool */
    mtwnSpring spring;
    mtwnDecay decay[4];
    mtwnBoundedDecay bounded;
    union {
        mtwnColorMix color;
        mtwnRotationMix rotation;
        mtwnScaleMix scale[3];
    } mix;
} mtwn_Player;

/* The context: this header, then its arrays, in one block. */
struct mtwnContext {
    mtwnContextDef def; /* the capacities it holds (the allocator resolved) */
    uint64_t blockBytes;
    uint64_t misuse;
    uint64_t eventsDropped;
    uint64_t droppedSinceRead;
    uint64_t serialAdvances;
    uint64_t nextSeq;
    uint64_t lastNs;
    uint32_t hasTime;
    uint32_t busy;
    uint32_t reducedMotion;
    uint32_t playingOn;
    uint32_t targetFree;  /* entries in targetFreeList */
    uint32_t targetUsed;  /* slots ever used (the rest are fresh) */
    uint32_t playerFree;
    uint32_t playerUsed;
    uint32_t orderCount;
    uint32_t changedCount;
    uint32_t eventCount;
    uint32_t reserved;
    mtwn_Target* targets;      /* targetCapacity */
    uint32_t* targetFreeList;  /* targetCapacity */
    uint32_t* changed;         /* targetCapacity */
    mtwn_Player* players;      /* playerCapacity */
    uint32_t* playerFreeList;  /* playerCapacity */
    mtwnPlayerId* order;       /* playerCapacity: live players in creation order (stale entries skipped) */
    mtwnLinearPoint* points;   /* playerCapacity x pointsPerTransition */
    mtwnEvent* events;         /* eventCapacity */
    mtwnEvent* eventScratch;   /* eventCapacity */
};

/* Counts one misuse (const readers too: the count is the context's own). */
static inline void mtwn_Misuse(const mtwnContext* context)
{
    ((mtwnContext*)context)->misuse += 1u;
}

/* The target a live id names, or NULL. */
mtwn_Target* mtwn_FindTarget(const mtwnContext* context, mtwnTargetId id);

/* Whether a value is one a kind takes; *stored is it with the channels past
 * the kind's 0. */
bool mtwn_IsValueValid(uint32_t kind, mtwnVec4 value, mtwnVec4* stored);

/* Marks a target changed (once, in order). */
void mtwn_MarkChanged(mtwnContext* context, uint32_t slot);

/* Frees a player's slot: its target, when it writes it, shows its base. */
void mtwn_FreePlayer(mtwnContext* context, uint32_t slot);

/* A transition's value at seconds from its start (delay included), and
 * whether a host easing gave NaN. */
mtwnVec4 mtwn_SampleTransition(const mtwn_Player* p, double seconds, bool* metNaN);

/* A transition's end value. */
mtwnVec4 mtwn_TransitionEnd(const mtwn_Player* p);

/* A transition's velocity at seconds from its start, per channel a second:
 * from the sample a millisecond before (from the start, within the first). */
mtwnVec4 mtwn_TransitionVelocity(const mtwn_Player* p, double seconds);

/* Appends a record to the queue, or counts it dropped. */
void mtwn_PushEvent(mtwnContext* context, const mtwnEvent* event);

/* Sorts the records from first on by time, stably: they arrive in player
 * creation order and each player's in its clip's order. */
void mtwn_SortEvents(mtwnContext* context, uint32_t first);

#endif
