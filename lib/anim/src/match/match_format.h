/* The motion database file format, version 8 (docs/formats.md, "Motion
 * database"): shared by the open (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_MATCH_FORMAT_H
#define MAUL_ANIM_MATCH_FORMAT_H

#include "lib/core/container.h"
#include "maul/anim/match.h"

#define MANI_MATCH_TAG(id) MCORE_TAG(mcore_formatMotionDatabase1, id)
#define MANI_MATCH_INFO MANI_MATCH_TAG(1)          /* the header: MANI_MATCH_INFO_SIZE bytes, below */
#define MANI_MATCH_CLIPS MANI_MATCH_TAG(2)         /* u64 identity per clip */
#define MANI_MATCH_CHANNELS MANI_MATCH_TAG(3)      /* MANI_MATCH_CHANNEL_SIZE bytes per channel */
#define MANI_MATCH_NAMES MANI_MATCH_TAG(4)         /* float track names' UTF-8 bytes */
#define MANI_MATCH_ENTRIES MANI_MATCH_TAG(5)       /* MANI_MATCH_ENTRY_SIZE bytes per entry */
#define MANI_MATCH_NORMALIZATION MANI_MATCH_TAG(6) /* f32 offsets then f32 scales, one per feature */
#define MANI_MATCH_FEATURES MANI_MATCH_TAG(7)      /* f32 per feature per frame, normalized, frame by frame */
#define MANI_MATCH_ORDER MANI_MATCH_TAG(8)         /* u32 per frame: the frames in tree order */
#define MANI_MATCH_NODES MANI_MATCH_TAG(9)         /* MANI_MATCH_NODE_SIZE bytes per node */
#define MANI_MATCH_BOXES MANI_MATCH_TAG(10)        /* per node: f32 minima then f32 maxima, one per feature */
#define MANI_MATCH_SECTION_COUNT 10u

/* The header: u64 skeleton identity, u64 mirror identity, u32 clips,
 * channels, entries, frames, features, nodes, f32 rate, u32 up axis,
 * forward axis, leaf size, names size, then 0 to 64 bytes. */
#define MANI_MATCH_INFO_SIZE 64u
/* A channel: u32 kind, bone, time count, first feature, feature count, f32
 * weight, u32 name offset, name length, f32 times[MANI_MAX_MATCH_TIMES]. */
#define MANI_MATCH_CHANNEL_SIZE (32u + 4u * MANI_MAX_MATCH_TIMES)
/* An entry: u32 clip, flags, first frame, frame count, f32 start, end, cost
 * bias, u32 0, u64 tags. */
#define MANI_MATCH_ENTRY_SIZE 40u
/* A node: u32 first (into the order), count, left child, right child (both
 * 0 for a leaf), lowest frame, f32 least bias, u32 split feature (a leaf:
 * 0), u32 0. */
#define MANI_MATCH_NODE_SIZE 32u

#define MANI_MATCH_ENTRY_FLAGS (maniMatchEntryNoJump | maniMatchEntryMirrored | maniMatchEntryLoop)
#define MANI_MATCH_MAX_LEAF 256u
/* The deepest a tree grows (median splits of at most 2^24 frames). */
#define MANI_MATCH_MAX_DEPTH 40u

/* The value maniMotionDatabase.opened holds once an open wrote the view. */
#define MANI_MATCH_OPENED 0x4D415443u /* "MATC" */

static const mcore_SectionSpec maniMatchSections[MANI_MATCH_SECTION_COUNT] = {
    {MANI_MATCH_INFO, 16},     {MANI_MATCH_CLIPS, 16},         {MANI_MATCH_CHANNELS, 16}, {MANI_MATCH_NAMES, 16},
    {MANI_MATCH_ENTRIES, 16},  {MANI_MATCH_NORMALIZATION, 16}, {MANI_MATCH_FEATURES, 64}, {MANI_MATCH_ORDER, 16},
    {MANI_MATCH_NODES, 16},    {MANI_MATCH_BOXES, 64},
};

/* Values per time of a channel kind (0 for an unknown kind). */
static inline uint32_t mani_MatchKindWidth(uint32_t kind) {
    switch (kind) {
        case maniMatchChannelBonePosition:
        case maniMatchChannelBoneVelocity: return 3;
        case maniMatchChannelTrajectoryPosition:
        case maniMatchChannelTrajectoryFacing: return 2;
        case maniMatchChannelFloatTrack: return 1;
        default: return 0;
    }
}

/* The frames of a span at a rate: floor((end - start) rate) + 1, in
 * binary64; and frame k's time, start + k / rate in binary64 rounded once. */
static inline uint64_t mani_MatchSpanFrames(float start, float end, float rate) {
    const double d = ((double)end - (double)start) * (double)rate;
    if (!(d >= 0) || !(d < 4294967296.0)) return UINT64_C(1) << 33; /* past any frame count (a damaged file) */
    return (uint64_t)d + 1u;
}
static inline float mani_MatchFrameTime(float start, float rate, uint32_t k) {
    return (float)((double)start + (double)k / (double)rate);
}

/* The ground plane's two axes besides up, in order. */
static inline void mani_MatchGroundAxes(uint32_t up, uint32_t axes[2]) {
    axes[0] = up == 0 ? 1u : 0u;
    axes[1] = up == 2 ? 1u : 2u;
}

#endif
