/* Maul Tween: the context's block and the objects in it. Internal. */
#ifndef MAUL_TWEEN_CONTEXT_INTERNAL_H
#define MAUL_TWEEN_CONTEXT_INTERNAL_H

#include "maul/tween/clip.h"
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
    uint32_t clipBindings; /* live clip players' bindings of it: they write it, so a new base shows at the next update */
    mtwnVec4 base;
    mtwnVec4 value;
    mtwnVec4 prev; /* its value when the update first touched it */
} mtwn_Target;

/* A node of a clip: 224 bytes, so that the default clip def's 16 nodes, 32
 * keyframes with their mixes and 64 points take 15 KiB and the default
 * context's 240 KiB of clip storage holds 16 such clips, as the reference
 * says (mtwnDefaultContextDef). What only one kind reads shares its place
 * with the other kinds': read a field only for its kind. A track's or
 * label's end is computed (mtwn_NodeEnd); a timeline's changes with its
 * children and is kept. */
typedef struct mtwn_ClipNode {
    uint8_t kind;  /* mtwnNodeKind */
    uint8_t depth; /* its parent's depth + 1, the root 0 (at most MTWN_MAX_CLIP_DEPTH + 1) */
    uint8_t reserved[2];
    uint32_t parent; /* node number, 0 for the root */
    double start;    /* in the parent's time */
    union {
        uint32_t key; /* labels and marks */
        struct {      /* tracks */
            double alpha; /* Catmull-Rom's */
            uint32_t slot;
            uint32_t firstKeyframe;
            uint32_t keyframeCount;
            uint8_t trackKind; /* mtwnValueKind */
            uint8_t channels;  /* the path's */
        };
        struct {                /* timelines */
            double timelineEnd; /* start + the timing's end time */
            double childEnd;    /* the latest child's end */
            uint32_t lastChild; /* the previous child added (track or timeline), 0 for none */
            uint8_t durationFromChildren;
        };
    };
    mtwnTiming timing;
} mtwn_ClipNode;

_Static_assert(sizeof(mtwn_ClipNode) <= 224u, "the default clip def must take at most 15 KiB");

/* A clip's slot; its storage lies in the context's clip storage. */
typedef struct mtwn_Clip {
    uint32_t generation;
    uint8_t alive;
    uint8_t sealed;
    uint16_t reserved;
    uint32_t holders; /* players holding it */
    uint32_t nodeCount, nodeCapacity;
    uint32_t keyframeCount, keyframeCapacity;
    uint32_t pointCount, pointCapacity;
    uint32_t slotCount;
    uint32_t trackCount; /* nodes that are tracks: a bound on one update's writes */
    uint32_t markCount;  /* one for each mark, two for each track and timeline, twice that under an alternating ancestor: with the finish, a bound on one update's records */
    uint32_t nextInStorage; /* the slot + 1 of the live clip whose storage follows, 0 for none */
    uint64_t offset; /* in the clip storage, fixed while it lives */
    uint64_t bytes;
    mtwn_ClipNode* nodes;
    mtwnKeyframe* keyframes;
    mtwnSegmentMix* mixes; /* one per keyframe: a track's segment i at its first keyframe + i */
    mtwnLinearPoint* points;
} mtwn_Clip;

/* A player's slot: a transition or a clip's player. */
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
    /* A clip's player (isClip): Web Animations' animation, its variables
     * one to one (player.c, docs/internals/timing.md). Times in seconds on
     * the host's clock, current times in seconds of the clip. */
    uint8_t isClip;
    uint8_t keep;
    uint8_t hasStart;       /* the start time is resolved */
    uint8_t hasHold;        /* the hold time is resolved */
    uint8_t pendingTask;    /* mtwn_Task: the pending play or pause task, or none */
    uint8_t hasPendingRate; /* the pending playback rate is resolved */
    uint8_t hasPrevious;    /* the previous current time is resolved */
    uint8_t wasFinished;    /* the play state was finished at the last "update the finished state" */
    uint8_t hasSwept;       /* the crossings stand at sweptTo (the last update's or jump's current time) */
    uint8_t playsOnReduced;
    uint8_t reserved3[2];
    uint32_t clip;       /* the clip's slot */
    uint32_t firstBinding;
    uint32_t bindingCount;
    float weight;
    double rate;         /* the playback rate */
    double pendingRate;
    double startTime;    /* host seconds */
    double holdTime;
    double previousTime; /* the previous current time */
    double sweptTo;      /* where the next sweep starts */
} mtwn_Player;

/* A clip player's pending task (Web Animations' pending play and pause tasks). */
typedef enum mtwn_Task { mtwn_taskNone = 0, mtwn_taskPlay = 1, mtwn_taskPause = 2 } mtwn_Task;

/* A clip player's write, staged: its binding, the track's value and weight. */
typedef struct mtwn_Write {
    uint32_t binding;
    float weight;
    mtwnVec4 value;
} mtwn_Write;

/* Where a clip player's advance puts its writes, records and counts: at once
 * (direct), or staged for a task, applied after in creation order. */
typedef struct mtwn_Sink {
    uint32_t direct;
    uint32_t slot;
    mtwn_Write* writes;
    uint32_t writeCount;
    uint32_t recordCount;
    uint32_t recordCapacity; /* staged: the clip's bound (markCount + 1); a record past it is dropped, counted */
    uint32_t recordsDropped;
    mtwnEvent* records;
    uint32_t nan;
    uint32_t playingOn;
    uint32_t resolved;
    uint32_t finished;
    uint64_t nowNs;
    uint64_t previousNs;
} mtwn_Sink;

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
    mtwn_Clip* clips;          /* clipCapacity */
    uint32_t* clipFreeList;    /* clipCapacity */
    unsigned char* clipStorage; /* clipStorageBytes */
    mtwnBinding* bindings;     /* bindingCapacity, players' in their order */
    uint32_t clipFree;
    uint32_t clipUsed;
    uint64_t clipStorageUsed;  /* the end of the last live clip's range (what a grow copies) */
    uint32_t clipStorageFirst; /* the slot + 1 of the live clip lowest in the storage, 0 for none */
    uint32_t reserved4;
    uint32_t bindingUsed;
    uint32_t updateStamp;
    uint32_t* targetStamp;     /* targetCapacity: the update that last touched a target */
    uint32_t* touched;         /* targetCapacity: the targets this update touched, in order */
    uint32_t touchedCount;
    uint32_t groupsRunning;    /* an update's clip players run on the task system */
    mtwn_Write* stageWrites;   /* stageWriteCapacity */
    mtwnEvent* stageRecords;   /* stageRecordCapacity */
    mtwn_Sink* sinks;          /* playerCapacity: a group's */
    uint32_t stageWriteCapacity;
    uint32_t stageRecordCapacity;
};

/* A track node's mtwnTrack, referencing the clip's storage. */
void mtwn_ClipTrackOf(const mtwn_Clip* c, const mtwn_ClipNode* n, mtwnTrack* t);
/* A node's end in its parent's time: start plus its timing's end time (a
 * label's or mark's: its start). */
double mtwn_NodeEnd(const mtwn_ClipNode* n);

/* Touches a target in an update: its value before is kept for the changed
 * list; returns whether this is the first touch (the value then holds what
 * no player of this update wrote). */
bool mtwn_Touch(mtwnContext* context, uint32_t slot);

/* -- Crossings (crossings.c) --------------------------------------------------------
 *
 * How a sweep's root times map to host times: by inverting the player's own
 * mapping, current time = (now - start) x rate, from the update's end (u the
 * current time it gives at toNs, unconstrained by the finished state), held
 * within the update's interval; or (byRate false), for a procedure's or
 * reduced motion's crossings, every record at toNs. */
typedef struct mtwn_TimeMap {
    uint64_t fromNs, toNs;
    bool byRate;
    double u, rate;
} mtwn_TimeMap;

/* The host time a map gives a root time. */
uint64_t mtwn_HostTimeOf(const mtwn_TimeMap* m, double rootTime);

/* A timeline node's children's time at a root time (the root's: the root
 * time); false when it is not in effect. */
bool mtwn_ChildTime(const mtwn_Clip* c, uint32_t node, double rootTime, bool backwards, double* out);

/* What playback crossed from root time a to b, one record per node, kind
 * and direction, into the sink (NULL or direct: the queue), timed by the map. */
void mtwn_Sweep(mtwnContext* ctx, mtwn_Sink* sink, mtwnPlayerId id, const mtwn_Clip* clip, double a, double b,
                const mtwn_TimeMap* map);

/* The most records one update's sweep and finish of a clip's player make,
 * less the finish: the seal's markCount, the staging's bound. */
uint32_t mtwn_RecordBound(const mtwn_Clip* c);

/* A record into the queue at once. */
void mtwn_Record(mtwnContext* c, mtwnPlayerId id, uint32_t kind, uint32_t node, uint32_t key, bool backwards,
                 uint32_t count, uint64_t timeNs);

/* A record into a sink (staged, never past its bound) or the queue. */
void mtwn_SinkRecord(mtwnContext* c, mtwn_Sink* sink, mtwnPlayerId id, uint32_t kind, uint32_t node, uint32_t key,
                     bool backwards, uint32_t count, uint64_t timeNs);

/* Advances a clip's player into a sink (phase one: nothing but the player
 * and the sink changes when staged). */
void mtwn_AdvanceClipPlayerInto(mtwnContext* context, mtwn_Sink* sink);

/* Applies a staged advance (phase two); returns whether the player is freed. */
bool mtwn_ApplyClipPlayer(mtwnContext* context, mtwn_Sink* sink);

/* Rounded to nearest, ties away from zero (integers' rule); not finite as it is. */
double mtwn_RoundAway(double x);

/* The live clip an id names, or NULL. */
mtwn_Clip* mtwn_FindClip(const mtwnContext* context, mtwnClipId id);

/* Moves a clip's pointers by its storage's move. */
void mtwn_RebaseClip(mtwn_Clip* clip, unsigned char* storage);

/* Advances a clip's player to the update's time; returns whether it is freed. */
bool mtwn_AdvanceClipPlayer(mtwnContext* context, uint32_t slot, uint64_t nowNs, uint64_t previousNs);

/* Shows the base of the targets a clip player binds that no transition
 * writes, at once, each changed marked so. */
void mtwn_ShowClipBases(mtwnContext* context, uint32_t slot);

/* Frees a clip player's bindings and clip hold; its targets show their base
 * when showBase (a player stopped), else keep the update's value (a player
 * that ended in the update, its targets composed without it). */
void mtwn_ReleaseClipPlayer(mtwnContext* context, uint32_t slot, bool showBase);

/* Counts one misuse (const readers too: the count is the context's own). */
static inline void mtwn_Misuse(const mtwnContext* context)
{
    ((mtwnContext*)context)->misuse += 1u;
}

/* Every function taking its context non-const begins with MTWN_ENTER (or
 * MTWN_ENTER_VOID when it returns nothing), the one mechanism, so that none
 * can forget it: a null context is refused (mtwn_errorInvalid, not counted),
 * and so is a call from the host's code the context runs (mtwn_errorBusy,
 * one misuse: context.h), before anything else is read. */
static inline mtwnResult mtwn_Enter(mtwnContext* context)
{
    if (context == NULL) return mtwn_errorInvalid;
    if (context->busy != 0u) {
        mtwn_Misuse(context);
        return mtwn_errorBusy;
    }
    return mtwn_success;
}

#define MTWN_ENTER(context)                                                                          \
    do {                                                                                             \
        mtwnResult enter_ = mtwn_Enter(context);                                                     \
        if (enter_ != mtwn_success) return enter_;                                                   \
    } while (0)

#define MTWN_ENTER_VOID(context)                                                                     \
    do {                                                                                             \
        if (mtwn_Enter(context) != mtwn_success) return;                                             \
    } while (0)

/* The target a live id names, or NULL. */
mtwn_Target* mtwn_FindTarget(const mtwnContext* context, mtwnTargetId id);

/* Whether a value is one a kind takes; *stored is it with the channels past
 * the kind's 0. */
bool mtwn_IsValueValid(uint32_t kind, mtwnVec4 value, mtwnVec4* stored);

/* Marks a target changed (once, in order). */
void mtwn_MarkChanged(mtwnContext* context, uint32_t slot);

/* Players' lifetime (lifetime.c). The slot the next player takes: a freed
 * one, else a fresh one; false when the context holds its capacity. */
bool mtwn_PeekPlayerSlot(const mtwnContext* context, uint32_t* slotOut);

/* Takes the slot mtwn_PeekPlayerSlot gave. */
void mtwn_TakePlayerSlot(mtwnContext* context, uint32_t slot);

/* Makes a slot's player anew from a made one (NULL: zeros), its generation
 * the next, so every id of the slot's earlier players goes stale. */
void mtwn_RenewPlayer(mtwn_Player* p, const mtwn_Player* from);

/* Makes a renewed slot's player alive, last in creation order; its id. */
mtwnPlayerId mtwn_PlacePlayer(mtwnContext* context, uint32_t slot);

/* The live player an id names, or NULL; *handedOut tells whether the id was
 * one the context handed out (a stale one counts no misuse). */
mtwn_Player* mtwn_FindPlayer(const mtwnContext* context, mtwnPlayerId id, bool* handedOut);

/* Frees a player's slot: its target, when it writes it, shows its base (a
 * clip player's targets only when showBase: mtwn_ReleaseClipPlayer). */
void mtwn_FreePlayer(mtwnContext* context, uint32_t slot, bool showBase);

/* A transition's value at seconds from its start (delay included), and
 * whether a host easing gave NaN. */
mtwnVec4 mtwn_SampleTransition(const mtwn_Player* p, double seconds, bool* metNaN);

/* A transition's velocity at seconds from its start, per channel a second:
 * from the sample a millisecond before (from the start, within the first). */
mtwnVec4 mtwn_TransitionVelocity(const mtwn_Player* p, double seconds);

/* Appends a record to the queue, or counts it dropped. */
void mtwn_PushEvent(mtwnContext* context, const mtwnEvent* event);

/* Sorts the records from first on by time, stably: they arrive in player
 * creation order and each player's in its clip's order. */
void mtwn_SortEvents(mtwnContext* context, uint32_t first);

#endif
