/* Maul Tween: clip.h
 *
 * Clips: immutable descriptions of tracks on nested timelines with labels and
 * marks, built node by node at positions resolved when added, then sealed. A
 * sealed clip is read from any thread while it lives, and plays on any set of
 * targets, its tracks addressing slots (player.h binds slots to targets).
 *
 * Node 1 is the root timeline. Every other node has a parent timeline and a
 * start in its parent's time, resolved from its position when added. A
 * track's or timeline's end in its parent is its start plus its timing's end
 * time (Web Animations: delay + active duration + end delay). A timeline
 * whose duration follows its children (durationFromChildren) has as its
 * iteration duration its latest child's end, updated as children arrive, up
 * to the root. A child of a timeline sees the timeline's transformed
 * progress times its iteration duration as its parent's time.
 *
 * A clip's storage is carved from the context's clip storage
 * (mtwnContextDef.clipStorageBytes) in one piece: its nodes, keyframes,
 * segment mixes and linear() points.
 */
#ifndef MAUL_TWEEN_CLIP_H
#define MAUL_TWEEN_CLIP_H

#include "maul/tween/base.h"
#include "maul/tween/context.h"
#include "maul/tween/path.h"
#include "maul/tween/timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Timelines nest at most this deep, the root at depth 0. */
#define MTWN_MAX_CLIP_DEPTH 16u

/* A time a player seeks to, and a clip's finite end, is at most this many
 * seconds in size (about 31.7 years). */
#define MTWN_SEEK_LIMIT 1e9

/* The values the defaults write in the defs' cookies. */
#define MTWN_CLIP_DEF_COOKIE 0x434C5031u
#define MTWN_CLIP_TRACK_DEF_COOKIE 0x434C5431u
#define MTWN_CLIP_TIMELINE_DEF_COOKIE 0x434C4C31u

/* A clip's id: a slot and its generation, from 1. */
typedef struct mtwnClipId {
    uint32_t index;
    uint32_t generation;
} mtwnClipId;

/* A node of a clip: 1 is the root, the others numbered in the order added. */
typedef uint32_t mtwnNode;

/* The root timeline's node. */
#define MTWN_ROOT_NODE 1u

/* What a node is. Frozen values. */
typedef enum mtwnNodeKind {
    mtwn_nodeTimeline = 0,
    mtwn_nodeTrack = 1,
    mtwn_nodeLabel = 2,
    mtwn_nodeMark = 3
} mtwnNodeKind;

/* What a position is relative to. Frozen values. */
typedef enum mtwnPositionAnchor {
    mtwn_positionAt = 0,            /* the parent's time offset */
    mtwn_positionAfterPrevious = 1, /* the end of the parent's previous child (0 with none) plus offset */
    mtwn_positionWithPrevious = 2,  /* the start of the parent's previous child (0 with none) plus offset */
    mtwn_positionLabel = 3,         /* the parent's label of key `label` plus offset */
    mtwn_positionParentEnd = 4      /* the parent's end as its children make it so far, plus offset */
} mtwnPositionAnchor;

/* Where a node starts in its parent. The resolved start is finite, from 0
 * and at most MTWN_SEEK_LIMIT. */
typedef struct mtwnPosition {
    uint32_t anchor; /* mtwnPositionAnchor */
    uint32_t label;  /* mtwn_positionLabel's key */
    double offset;   /* seconds, finite */
} mtwnPosition;

/* How big a clip is (mtwnDefaultClipDef). Each count from 1 (keyframes,
 * points from 0) to MTWN_MAX_COUNT. */
typedef struct mtwnClipDef {
    uint32_t cookie;           /* MTWN_CLIP_DEF_COOKIE */
    uint32_t nodeCapacity;     /* nodes, the root included */
    uint32_t keyframeCapacity; /* keyframes of every track together */
    uint32_t slotCount;        /* slots its tracks address, 0 to slotCount - 1 (from 1, as every count) */
    uint32_t pointCapacity;    /* linear() points of every easing together */
    uint32_t reserved;         /* 0 */
} mtwnClipDef;

/* A track to add (mtwnDefaultClipTrackDef). */
typedef struct mtwnClipTrackDef {
    uint32_t cookie;             /* MTWN_CLIP_TRACK_DEF_COOKIE */
    mtwnNode parent;             /* a timeline of the clip */
    mtwnPosition position;
    uint32_t slot;               /* below the clip's slotCount */
    uint32_t keyframeCount;      /* from 1 */
    mtwnTrackDef track;          /* the kind and how it mixes (mtwnMakeTrack); no constant speed */
    mtwnTiming timing;           /* its timing in its parent (mtwnValidateTiming) */
    const mtwnKeyframe* keyframes; /* copied into the clip */
} mtwnClipTrackDef;

/* A timeline to add (mtwnDefaultClipTimelineDef). */
typedef struct mtwnClipTimelineDef {
    uint32_t cookie; /* MTWN_CLIP_TIMELINE_DEF_COOKIE */
    mtwnNode parent;
    mtwnPosition position;
    uint32_t durationFromChildren; /* 1: its iteration duration is its latest child's end; 0: timing.duration */
    uint32_t reserved;             /* 0 */
    mtwnTiming timing;
} mtwnClipTimelineDef;

/* A sealed clip's track (mtwnClip_GetTrack). */
typedef struct mtwnClipTrack {
    mtwnNode parent;
    uint32_t slot;
    double start;      /* in its parent's time */
    double end;        /* start + its timing's end time */
    mtwnTiming timing;
    mtwnTrack track;   /* referencing the clip's storage, valid while the clip lives (other clips' making and destroying never move it; mtwnContext_Grow moves every clip's, as it moves the context) */
} mtwnClipTrack;

/* Any node of a sealed clip (mtwnClip_GetNode). */
typedef struct mtwnClipNodeInfo {
    uint32_t kind;   /* mtwnNodeKind */
    mtwnNode parent; /* 0 for the root */
    uint32_t depth;  /* timelines' nesting, the root 0 */
    uint32_t key;    /* labels' and marks' */
    uint32_t slot;   /* tracks' */
    uint32_t reserved;
    double start;    /* in its parent's time */
    double end;      /* tracks and timelines: start plus the end time; labels, marks: start */
} mtwnClipNodeInfo;

/* Makes a clip def for a small clip: 16 nodes, 32 keyframes, 8 slots, 64
 * points of linear(), about 15 KB of clip storage (mtwnContext_GetClipBytes
 * says how much). Safe from any thread. */
static inline mtwnClipDef mtwnDefaultClipDef(void)
{
    mtwnClipDef def;
    def.cookie = MTWN_CLIP_DEF_COOKIE;
    def.nodeCapacity = 16u;
    def.keyframeCapacity = 32u;
    def.slotCount = 8u;
    def.pointCapacity = 64u;
    def.reserved = 0u;
    return def;
}

/* Makes a clip track def: on the root at time 0, slot 0, a scalar track
 * (mtwnDefaultTrackDef), Web Animations' default timing with a duration of 1
 * second, no keyframes. Safe from any thread. */
static inline mtwnClipTrackDef mtwnDefaultClipTrackDef(void)
{
    mtwnClipTrackDef def;
    def.cookie = MTWN_CLIP_TRACK_DEF_COOKIE;
    def.parent = MTWN_ROOT_NODE;
    def.position.anchor = (uint32_t)mtwn_positionAt;
    def.position.label = 0u;
    def.position.offset = 0.0;
    def.slot = 0u;
    def.keyframeCount = 0u;
    def.track = mtwnDefaultTrackDef(mtwn_valueScalar);
    def.timing = mtwnDefaultTiming();
    def.timing.duration = 1.0;
    def.keyframes = NULL;
    return def;
}

/* Makes a clip timeline def: on the root at time 0, lasting to its latest
 * child's end, Web Animations' default timing. Safe from any thread. */
static inline mtwnClipTimelineDef mtwnDefaultClipTimelineDef(void)
{
    mtwnClipTimelineDef def;
    def.cookie = MTWN_CLIP_TIMELINE_DEF_COOKIE;
    def.parent = MTWN_ROOT_NODE;
    def.position.anchor = (uint32_t)mtwn_positionAt;
    def.position.label = 0u;
    def.position.offset = 0.0;
    def.durationFromChildren = 1u;
    def.reserved = 0u;
    def.timing = mtwnDefaultTiming();
    return def;
}

/* Gives the clip storage a clip of a def takes.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument or a def
 * without its cookie (or a count outside the above); mtwn_errorLimit for a
 * capacity past MTWN_MAX_COUNT. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnContext_GetClipBytes(const mtwnContext* context, const mtwnClipDef* def,
                                                            uint64_t* bytesOut);

/* Makes a clip in the context's clip storage, in the first free range that
 * holds it. Its root timeline, node 1, lasts as long as its latest child.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument, a def
 * without its cookie or a count outside the above; mtwn_errorLimit for a capacity past MTWN_MAX_COUNT;
 * mtwn_errorCapacity when the context holds its capacity of clips or the
 * storage would pass its clip storage; mtwn_errorBusy from the host's code. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnCreateClip(mtwnContext* context, const mtwnClipDef* def, mtwnClipId* clipOut);

/* Destroys a clip and frees its storage for later clips; no other clip's
 * storage moves, so a live clip's tracks (mtwnClip_GetTrack) stay valid.
 * Returns mtwn_success; mtwn_errorInvalid for a null context; mtwn_errorStale
 * for an id that names no live clip; mtwn_errorBusy while a player plays it,
 * not counted as misuse, or from the host's code. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnDestroyClip(mtwnContext* context, mtwnClipId clip);

/* Tells whether an id names a live clip. Not counted as misuse. */
MTWN_API bool mtwnClip_IsValid(const mtwnContext* context, mtwnClipId clip);

/* Adds a track: copies its keyframes into the clip, makes the track there
 * and resolves its position to a start time.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument, a def without
 * its cookie or outside the above (a parent that is not a timeline, a slot
 * past the clip's, a timing mtwnValidateTiming refuses, keyframes
 * mtwnMakeTrack refuses, a position of an unknown anchor or label, or one
 * resolving before 0 or not finite); mtwn_errorStale for a clip that is not
 * alive; mtwn_errorState for a sealed clip; mtwn_errorCapacity when the clip
 * holds its capacity of nodes, keyframes or points; mtwn_errorLimit for a
 * node whose end would take its clip's finite end past MTWN_SEEK_LIMIT. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_AddTrack(mtwnContext* context, mtwnClipId clip,
                                                     const mtwnClipTrackDef* def, mtwnNode* nodeOut);

/* Adds a timeline. Returns as mtwnClip_AddTrack; mtwn_errorInvalid also for
 * an easing that may decrease (mtwnIsEasingMonotonic: back, elastic, bounce,
 * a spring or a host function); mtwn_errorLimit also for a timeline past
 * MTWN_MAX_CLIP_DEPTH. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_AddTimeline(mtwnContext* context, mtwnClipId clip,
                                                        const mtwnClipTimelineDef* def, mtwnNode* nodeOut);

/* Adds a label: a time in its parent named by a host key, unique in the
 * parent. It is not a previous child and does not lengthen its parent.
 * Returns as mtwnClip_AddTrack; mtwn_errorInvalid also for a key the parent
 * already has. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_AddLabel(mtwnContext* context, mtwnClipId clip, mtwnNode parent,
                                                     mtwnPosition position, uint32_t key, mtwnNode* nodeOut);

/* Adds a mark: an instant in its parent that gives an event, with the host's
 * key, each time playback crosses it. Returns as mtwnClip_AddTrack. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_AddMark(mtwnContext* context, mtwnClipId clip, mtwnNode parent,
                                                    mtwnPosition position, uint32_t key, mtwnNode* nodeOut);

/* Seals a clip: it can be read and played, and no longer changed.
 * Returns mtwn_success; mtwn_errorInvalid for a null context; mtwn_errorStale
 * for a clip that is not alive; mtwn_errorState for a clip already sealed. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_Seal(mtwnContext* context, mtwnClipId clip);

/* Reads a sealed clip's track node.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument or a node that
 * is not a track of the clip; mtwn_errorStale for a clip that is not alive;
 * mtwn_errorState for one not sealed. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_GetTrack(const mtwnContext* context, mtwnClipId clip, mtwnNode node,
                                                     mtwnClipTrack* trackOut);

/* Reads any node of a sealed clip. Returns as mtwnClip_GetTrack, for any node. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_GetNode(const mtwnContext* context, mtwnClipId clip, mtwnNode node,
                                                    mtwnClipNodeInfo* infoOut);

/* Finds a label of a sealed clip by its parent and key.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument, a parent that
 * is not a timeline of the clip, or no such label; mtwn_errorStale and
 * mtwn_errorState as mtwnClip_GetTrack. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_FindLabel(const mtwnContext* context, mtwnClipId clip, mtwnNode parent,
                                                      uint32_t key, double* secondsOut);

/* Reads a sealed clip's duration: its root's end (may be infinite).
 * Returns as mtwnClip_GetTrack, without the node. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnClip_GetDuration(const mtwnContext* context, mtwnClipId clip,
                                                        double* secondsOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_CLIP_H */
