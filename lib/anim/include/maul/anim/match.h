/* Maul Anim: match.h
 *
 * Motion matching: a motion database built offline from a skeleton's clips
 * (matchbuild.h), opened in place. Each frame of the database is a clip at a
 * time; its features describe the pose and the root's path around that time
 * in the root's space, normalized per channel, so a search compares a
 * query's features with every frame's. The search is exact: the frame a
 * scan of every frame would pick, found through a k-d tree whose node boxes
 * prune. The file format is in docs/formats.md ("Motion database").
 */
#ifndef MAUL_ANIM_MATCH_H
#define MAUL_ANIM_MATCH_H

#include "maul/anim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most history picks one search takes (mani_errorLimit past it). */
#define MANI_MAX_MATCH_HISTORY 64u

/* The most times a channel samples (matchbuild.h refuses more). */
#define MANI_MAX_MATCH_TIMES 16u

/* No frame: a query's continuing frame when there is none, and the frame of
 * a result no candidate passed. */
#define MANI_NO_FRAME 0xFFFFFFFFu

/* What a channel measures, each value in the root's space at the frame.
 * Frozen values (files record them). */
typedef enum maniMatchChannelKind {
    maniMatchChannelBonePosition = 0,       /* a bone's model position: 3 values per time */
    maniMatchChannelBoneVelocity = 1,       /* a bone's velocity, the centred difference: 3 values per time */
    maniMatchChannelTrajectoryPosition = 2, /* the root's position on the ground plane: 2 values per time */
    maniMatchChannelTrajectoryFacing = 3,   /* the root's forward axis on the ground plane: 2 values per time */
    maniMatchChannelFloatTrack = 4          /* a float track's value, by name: 1 value per time */
} maniMatchChannelKind;

/* A database's channel: what it measures, at which times around the frame,
 * and where its features lie among a frame's. */
typedef struct maniMatchChannel {
    uint32_t kind;          /* a maniMatchChannelKind */
    uint32_t bone;          /* the bone of a bone channel; MANI_NO_BONE for the others */
    uint32_t timeCount;     /* times sampled, 1 to MANI_MAX_MATCH_TIMES */
    uint32_t firstFeature;  /* its first feature among a frame's */
    uint32_t featureCount;  /* its features: values per time x timeCount, time by time */
    float weight;           /* the weight the build gave it (folded into its scale) */
    float times[MANI_MAX_MATCH_TIMES]; /* seconds from the frame's time, the first timeCount used (the rest 0) */
} maniMatchChannel;

/* Entry flag: search never jumps to the entry's frames (they are candidates
 * only as the continuing frame). */
#define maniMatchEntryNoJump 1u
/* Entry flag: the entry's frames come from its clip mirrored through the
 * database's mirror map. */
#define maniMatchEntryMirrored 2u
/* Entry flag: the entry loops (it spans its repeating clip whole, and its
 * times wrap instead of clamping). */
#define maniMatchEntryLoop 4u

/* A database's entry: a span of a clip and the frames sampled from it. */
typedef struct maniMatchEntry {
    uint32_t clip;        /* the clip's index in the database */
    uint32_t flags;       /* maniMatchEntryNoJump, maniMatchEntryMirrored, maniMatchEntryLoop */
    uint32_t firstFrame;  /* its first frame in the database */
    uint32_t frameCount;  /* its frames: floor((end - start) rate) + 1, at start + k / rate */
    float start;          /* clip time of its first frame, seconds */
    float end;            /* clip time its span ends at, seconds */
    float costBias;       /* added to the cost of each of its frames */
    uint32_t reserved;    /* 0 */
    uint64_t tags;        /* tag bits a query requires or excludes */
} maniMatchEntry;

/* A search's query. Features are raw values (as the channels measure them)
 * normalized by the search, or already normalized when normalized is set. */
typedef struct maniMatchQuery {
    const float* features;     /* the database's feature count of values, finite */
    uint32_t normalized;       /* 0: raw values; 1: already (value - offset) / scale */
    uint32_t continuingFrame;  /* the frame playing on (the frame after the last pick), or MANI_NO_FRAME */
    float transitionCost;      /* added to every frame but the continuing one, finite */
    float continuingBias;      /* added to the continuing frame instead, finite */
    uint64_t requiredTags;     /* a candidate's entry holds every one of these bits */
    uint64_t excludedTags;     /* and none of these */
    float endExclusion;        /* seconds: frames of a non-looping entry closer than this to its end are not jumped to, >= 0 */
    float surroundExclusion;   /* seconds: frames of the continuing frame's entry closer than this to it are not jumped to, >= 0 */
    const uint32_t* history;   /* frames picked before (NULL when historyCount is 0) */
    uint32_t historyCount;     /* 0 to MANI_MAX_MATCH_HISTORY */
    float historyExclusion;    /* seconds: frames of a pick's entry closer than this to it are not jumped to, >= 0 */
} maniMatchQuery;

/* A search's answer. */
typedef struct maniMatchResult {
    uint32_t frame;      /* the frame of least cost; MANI_NO_FRAME when no frame is a candidate */
    uint32_t entry;      /* its entry (MANI_NO_FRAME with no frame) */
    float time;          /* its clip time (0 with no frame) */
    float cost;          /* its cost (+infinity with no frame) */
    uint32_t continuing; /* 1 when the frame is the continuing frame */
    uint32_t visited;    /* frames whose cost the search computed (the tree's saving: frames minus this) */
} maniMatchResult;

/* A motion database view: where an open found the file's parts. A value the
 * caller keeps (it points into the caller's bytes, which must outlive it);
 * only maniOpenMotionDatabase writes one. Accessors check that the view was
 * written by an open and that its counts fit its file. */
typedef struct maniMotionDatabase {
    const uint8_t* bytes;      /* the file */
    uint64_t size;             /* its size */
    uint64_t identity;         /* the file's identity (the hash of its sections) */
    uint64_t skeletonIdentity; /* the skeleton it was built for */
    uint64_t mirrorIdentity;   /* the mirror map of its mirrored entries, or 0 */
    uint32_t opened;           /* set by an open */
    uint32_t clipCount;        /* clips */
    uint32_t channelCount;     /* channels */
    uint32_t entryCount;       /* entries */
    uint32_t frameCount;       /* frames */
    uint32_t featureCount;     /* features per frame */
    uint32_t nodeCount;        /* k-d tree nodes, node 0 the root */
    uint32_t upAxis;           /* 0 x, 1 y, 2 z: the axis off the ground plane */
    uint32_t forwardAxis;      /* the character's forward axis (on the ground plane) */
    uint32_t leafSize;         /* the most frames of a leaf */
    float rate;                /* frames per second of every entry */
    uint32_t reserved;         /* 0 */
    uint64_t clips;            /* offsets of the sections in the file */
    uint64_t channels;
    uint64_t names;
    uint64_t namesSize;
    uint64_t entries;
    uint64_t normalization;
    uint64_t features;
    uint64_t order;
    uint64_t nodes;
    uint64_t boxes;
} maniMotionDatabase;

/* Opens a motion database file in place: checks the container, every
 * record, count and float, that each entry's frames follow from its span
 * and the rate, that the search tree places every frame once with its
 * entry, and that every node's box, lowest frame and least bias are exactly
 * its frames'. bytes must start at a multiple of MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. databaseOut is unchanged on failure. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenMotionDatabase(const void* bytes, size_t size,
                                                              maniMotionDatabase* databaseOut);

/* A database's identity: the hash of its sections; 0 for NULL. Safe from
 * any thread. */
MANI_API uint64_t maniMotionDatabase_GetIdentity(const maniMotionDatabase* database);

/* The identity of the mirror map a database's mirrored entries play
 * through; 0 for a database without mirrored entries, or NULL. Safe from
 * any thread. */
MANI_API uint64_t maniMotionDatabase_GetMirrorMapIdentity(const maniMotionDatabase* database);

/* The identity of the skeleton a database was built for; 0 for NULL. Safe
 * from any thread. */
MANI_API uint64_t maniMotionDatabase_GetSkeletonIdentity(const maniMotionDatabase* database);

/* The identity of a database's clip; 0 for NULL or an index past the clips.
 * Safe from any thread. */
MANI_API uint64_t maniMotionDatabase_GetClipIdentity(const maniMotionDatabase* database, uint32_t clip);

/* Reads a database's channel. Returns mani_success; mani_errorInvalid for a
 * NULL argument or an index past the channels (channelOut unchanged). Safe
 * from any thread. */
MANI_NODISCARD MANI_API maniResult maniMotionDatabase_GetChannel(const maniMotionDatabase* database, uint32_t channel,
                                                                 maniMatchChannel* channelOut);

/* A float track channel's name: UTF-8, not terminated, inside the file
 * (*lengthOut its length when not NULL); NULL for a NULL database, an index
 * past the channels or a channel of another kind. Safe from any thread. */
MANI_API const char* maniMotionDatabase_GetChannelName(const maniMotionDatabase* database, uint32_t channel,
                                                       size_t* lengthOut);

/* Reads a database's entry. Returns mani_success; mani_errorInvalid for a
 * NULL argument or an index past the entries (entryOut unchanged). Safe
 * from any thread. */
MANI_NODISCARD MANI_API maniResult maniMotionDatabase_GetEntry(const maniMotionDatabase* database, uint32_t entry,
                                                               maniMatchEntry* entryOut);

/* Finds a frame's entry and its clip time (start + k / rate in binary64,
 * rounded once). Returns mani_success; mani_errorInvalid for a NULL
 * argument or a frame past the frames (outputs unchanged). Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniResult maniMotionDatabase_GetFrame(const maniMotionDatabase* database, uint32_t frame,
                                                               uint32_t* entryOut, float* timeOut);

/* Reads a frame's features, normalized: (value - offset) / scale. Call it
 * with a NULL array and capacity 0 to measure (*countOut, when not NULL,
 * receives the feature count). Returns mani_success; mani_errorCapacity
 * when capacity is below the feature count, with the count still written
 * and nothing else; mani_errorInvalid for a NULL database, a NULL array
 * with a positive capacity or a frame past the frames. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniResult maniMotionDatabase_GetFeatures(const maniMotionDatabase* database, uint32_t frame,
                                                                  float* featuresOut, uint32_t capacity,
                                                                  uint32_t* countOut);

/* Reads a database's normalization: per feature, the offset taken from a
 * value and the scale it is divided by (docs/formats.md, "Motion
 * database", gives Holden's formula). Call it with both arrays NULL and
 * capacity 0 to measure. Either array may be NULL to skip it. Returns
 * mani_success; mani_errorCapacity when capacity is below the feature
 * count, with the count still written and nothing else; mani_errorInvalid
 * for a NULL database, or both arrays NULL with a positive capacity. Safe
 * from any thread. */
MANI_NODISCARD MANI_API maniResult maniMotionDatabase_GetNormalization(const maniMotionDatabase* database,
                                                                       float* offsetsOut, float* scalesOut,
                                                                       uint32_t capacity, uint32_t* countOut);

/* Finds the frame of least cost, exactly (a k-d tree of the frames whose
 * nodes' bounding boxes prune without changing the result). A frame's cost
 * is, in binary32 and in this order, its entry's cost bias plus the
 * transition cost (the continuing frame: the continuing bias), plus the
 * squared differences of the normalized query and its features, feature by
 * feature. The continuing frame is a candidate when its entry's tags pass;
 * another frame when its entry's tags pass, its entry is not
 * maniMatchEntryNoJump, and no exclusion holds (the end, surround and
 * history windows of maniMatchQuery). Ties go to the continuing frame, then
 * to the lowest frame. Allocates nothing.
 * Returns mani_success (a result of MANI_NO_FRAME when no frame is a
 * candidate); mani_errorLimit for more than MANI_MAX_MATCH_HISTORY picks;
 * mani_errorInvalid for a NULL argument (history NULL with a count), a
 * feature or cost not finite, a negative time, a continuing frame or pick
 * past the frames (resultOut unchanged). Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniMotionDatabase_Search(const maniMotionDatabase* database,
                                                             const maniMatchQuery* query, maniMatchResult* resultOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_MATCH_H */
