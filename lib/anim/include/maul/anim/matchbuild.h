/* Maul Anim: matchbuild.h
 *
 * Building motion databases: channels sampled from a skeleton's clips at a
 * rate, normalized per channel as Holden's reference does, with a k-d tree
 * of the frames for the search. Offline (built unless MAUL_ANIM_OFFLINE is
 * off). The format and the normalization are in docs/formats.md ("Motion
 * database").
 */
#ifndef MAUL_ANIM_MATCHBUILD_H
#define MAUL_ANIM_MATCHBUILD_H

#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/match.h"
#include "maul/anim/mirror.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The highest sample rate of a database, frames per second. */
#define MANI_MAX_MATCH_RATE 240.0f
/* The most clips of a database. */
#define MANI_MAX_MATCH_CLIPS 4096u
/* The most channels of a database. */
#define MANI_MAX_MATCH_CHANNELS 64u
/* The most entries of a database. */
#define MANI_MAX_MATCH_ENTRIES 65536u
/* The most frames of a database (all entries). */
#define MANI_MAX_MATCH_FRAMES 16777216u
/* The most features of a frame (all channels). */
#define MANI_MAX_MATCH_FEATURES 256u
/* The farthest a channel's time reaches from the frame, seconds. */
#define MANI_MAX_MATCH_REACH 10.0f

/* A channel of a source: what it measures and at which times. */
typedef struct maniMatchChannelSource {
    uint32_t kind;         /* a maniMatchChannelKind */
    uint32_t bone;         /* a bone channel's bone (skeleton index); ignored by the others */
    const float* times;    /* seconds from the frame's time, finite, within MANI_MAX_MATCH_REACH */
    uint32_t timeCount;    /* 1 to MANI_MAX_MATCH_TIMES */
    float weight;          /* above 0 and finite: the channel's scale is its spread over the weight */
    const char* track;     /* a float track channel's track name (UTF-8, not terminated) */
    size_t trackLength;    /* its length, 1 to MANI_MAX_NAME_BYTES */
} maniMatchChannelSource;

/* An entry of a source: a span of a clip sampled at the rate. */
typedef struct maniMatchEntrySource {
    uint32_t clip;         /* an index into the source's clips */
    uint32_t flags;        /* maniMatchEntryNoJump, maniMatchEntryMirrored, maniMatchEntryLoop */
    float start;           /* clip time of its first frame, 0 <= start <= end */
    float end;             /* clip time its span ends at, <= the clip's duration (a looping entry: 0 to the duration) */
    uint64_t tags;         /* tag bits */
    float costBias;        /* added to each of its frames' cost, finite */
} maniMatchEntrySource;

/* A motion database's source. */
typedef struct maniMotionDatabaseSource {
    const maniSkeleton* skeleton;             /* the skeleton (opened) */
    const maniClip* clips;                    /* opened clips of the skeleton, not additive */
    uint32_t clipCount;
    const maniMatchChannelSource* channels;
    uint32_t channelCount;
    const maniMatchEntrySource* entries;
    uint32_t entryCount;
    float rate;                               /* frames per second, above 0, at most MANI_MAX_MATCH_RATE */
    uint32_t upAxis;                          /* 0 x, 1 y, 2 z */
    uint32_t forwardAxis;                     /* another axis than upAxis */
    uint32_t leafSize;                        /* the most frames of a tree leaf, 1 to 256 */
    const maniMirrorMap* mirror;              /* the map of mirrored entries (NULL when there are none) */
} maniMotionDatabaseSource;

/* Builds a motion database: samples every entry's frames, each channel at
 * each of its times (clamped to the entry's ends, or wrapped when it
 * loops), in the root's space at the frame (the clip's root motion carrying
 * the root between times; a bone's velocity the difference of its positions
 * a frame either side over their time apart), normalizes each channel
 * (offset the mean of each feature, scale the mean of its features'
 * standard deviations over the weight: Holden's), and orders the frames in
 * a k-d tree (each node's frames split at the median of the feature they
 * spread widest over, ties by frame) with each node's bounding box, lowest
 * frame and least bias. A mirrored entry's frames are sampled from its
 * clip's poses mirrored, its root moves reflected and each float track
 * channel from the track the map pairs its name with, as a mirrored clip's
 * would be. Keeps the file in place of any built before.
 * Returns mani_success; mani_errorLimit with the reason and item for a
 * source past a bound (no misuse): maniBuildReasonTiming (a rate past
 * MANI_MAX_MATCH_RATE), maniBuildReasonCount (more than MANI_MAX_MATCH_CLIPS
 * clips, MANI_MAX_MATCH_CHANNELS channels or MANI_MAX_MATCH_ENTRIES
 * entries, more than MANI_MAX_MATCH_FRAMES frames or MANI_MAX_MATCH_FEATURES
 * features), maniBuildReasonChannel (more than MANI_MAX_MATCH_TIMES times, a
 * time past MANI_MAX_MATCH_REACH or a track name past MANI_MAX_NAME_BYTES;
 * item the channel); mani_errorInvalid for a NULL argument (a misuse), or
 * with the reason and item for a refused source: maniBuildReasonTiming (a
 * rate not above 0), maniBuildReasonOption (the axes or the leaf size),
 * maniBuildReasonCount (no channels, clips or entries, or the channels'
 * track names past 4 GiB in all), maniBuildReasonJoint (a clip of another
 * skeleton or additive; item the clip), maniBuildReasonChannel (an unknown
 * kind, a bone past the skeleton, no times, a time or weight not finite, a
 * weight not above 0, a track name empty or not UTF-8; item the channel),
 * maniBuildReasonEntry (a clip past the clips, unknown flags, a span out of
 * order or past its clip, a loop over less than its repeating clip, a bias
 * not finite; item the entry), maniBuildReasonMissingTrack (a float track
 * an entry's clip lacks, for a mirrored entry the track the mirror map
 * pairs the channel's with; item the channel, other the entry),
 * maniBuildReasonSpread (a channel that never varies; item the channel),
 * maniBuildReasonMirrorDatabase (a mirror map of another skeleton, item 0;
 * a mirrored entry without one, item the entry); mani_errorBusy from the
 * allocator's hooks; mani_errorCapacity when memory runs out. On failure
 * the builder keeps what it held. Safe from any thread; the builder is used
 * by one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildMotionDatabase(maniBuilder* builder,
                                                                const maniMotionDatabaseSource* source);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_MATCHBUILD_H */
