/* Maul Anim: build.h
 *
 * The offline side: a builder turns source data into the library's files,
 * which it keeps until the next build for a copy into caller memory. A
 * builder allocates through the allocator of its def and is built only when
 * MAUL_ANIM_OFFLINE is on (the default; //lib/anim:runtime is the library
 * without it).
 *
 * This header grows with each file kind: skeletons now; skins, influences,
 * clips, morph targets, spring sets and ragdolls as their areas land.
 */
#ifndef MAUL_ANIM_BUILD_H
#define MAUL_ANIM_BUILD_H

#include "maul/anim/morph.h"
#include "maul/anim/rootmotion.h"
#include "maul/anim/skeleton.h"
#include "maul/anim/skinning.h"
#include "maul/anim/spring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Allocator and builder def ---------------------------------------------- */

/* The host's allocator a builder (and a trainer) allocates through. Both
 * functions or neither (neither: the C library's); one alone is refused.
 * allocate returns memory aligned to at least alignment (a power of two up to
 * 64), or NULL on failure; release gets back a pointer allocate returned and
 * the size it was asked for. user is passed to both. A call back into the
 * builder from either function is refused with mani_errorBusy and counted as
 * a misuse. */
typedef struct maniAllocator {
    void* (*allocate)(void* user, size_t size, size_t alignment);
    void (*release)(void* user, void* memory, size_t size);
    void* user;
} maniAllocator;

/* The value of a def's two cookies, set by maniDefaultBuilderDef. */
#define MANI_BUILDER_DEF_COOKIE 0x4D424446u /* "MBDF" */

/* How to make a builder. Make one with maniDefaultBuilderDef, then change the
 * settings: the cookies (at both ends, so a def not made by the function, or
 * overwritten past its end, is refused) and abiVersion (the headers' ABI
 * version, checked against the library's) are the function's. */
typedef struct maniBuilderDef {
    uint32_t cookie;          /* MANI_BUILDER_DEF_COOKIE */
    uint32_t abiVersion;      /* MANI_ABI_VERSION of the headers the def was made with */
    maniAllocator allocator;  /* default: the C library's */
    uint32_t cookieEnd;       /* MANI_BUILDER_DEF_COOKIE */
} maniBuilderDef;

/* A builder: made by maniCreateBuilder, used by one thread at a time. */
typedef struct maniBuilder maniBuilder;

/* -- Skeleton source -------------------------------------------------------------- */

/* One bone of a skeleton source. */
typedef struct maniSkeletonSourceBone {
    const char* name;     /* UTF-8, not terminated, nameLength bytes (1 to MANI_MAX_NAME_BYTES), unique */
    size_t nameLength;
    uint32_t parent;      /* the parent's index in the source, or MANI_NO_BONE for a root */
    maniTransform rest;   /* relative to the parent; finite, rotation of non-zero length (normalized by the build) */
} maniSkeletonSourceBone;

/* A skeleton's source: bones in any order where parents may follow their
 * children; the build orders them depth-first, children and roots in the
 * source's order. */
typedef struct maniSkeletonSource {
    const maniSkeletonSourceBone* bones;
    uint32_t boneCount; /* 1 to MANI_MAX_BONES */
} maniSkeletonSource;

/* -- Functions ------------------------------------------------------------------- */

/* Returns a builder def with every setting at its default, with a valid
 * cookie and the headers' ABI version. Safe from any thread. */
static inline maniBuilderDef maniDefaultBuilderDef(void) {
    maniBuilderDef def;
    def.cookie = MANI_BUILDER_DEF_COOKIE;
    def.abiVersion = MANI_ABI_VERSION;
    def.allocator.allocate = NULL;
    def.allocator.release = NULL;
    def.allocator.user = NULL;
    def.cookieEnd = MANI_BUILDER_DEF_COOKIE;
    return def;
}

/* Makes a builder from a def. Returns mani_success; mani_errorVersion for a
 * def built against another major or minor version; mani_errorInvalid for a
 * NULL argument, a def without its cookie or an allocator with one function;
 * mani_errorCapacity when the allocator fails. Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniCreateBuilder(const maniBuilderDef* def, maniBuilder** builderOut);

/* Destroys a builder and the file it holds (NULL: nothing). Called back in
 * from the builder's allocator it destroys nothing and counts one misuse.
 * From the moment it begins, the builder is gone to the host's code: a call
 * on it from the free hook, the builder's own block's free among it, is
 * refused with mani_errorBusy and counted. */
MANI_API void maniDestroyBuilder(maniBuilder* builder);

/* How many calls on the builder were refused for invalid arguments
 * (docs/maul-conventions.md, Errors) or as calls back in from its
 * allocator; 0 for NULL. */
MANI_API uint32_t maniBuilder_GetMisuse(const maniBuilder* builder);

/* Builds a skeleton file: checks every bone, orders the bones depth-first
 * (children and roots in the source's order), normalizes rotations (in
 * binary64), and keeps the file in place of any built before.
 * Returns mani_success; mani_errorLimit with maniBuildReasonCount for more
 * than MANI_MAX_BONES bones, or with maniBuildReasonName and the source bone
 * for a name past MANI_MAX_NAME_BYTES (no misuse); mani_errorInvalid for a
 * NULL argument (a misuse) or with the reason and source bone (item) for a
 * refused source: maniBuildReasonCount (no bones, or a NULL bone array),
 * maniBuildReasonName (a name empty, NULL with a length, or not UTF-8),
 * maniBuildReasonDuplicateName (other: the earlier bone of that name),
 * maniBuildReasonNameHash (two names whose hashes collide; other: the
 * earlier), maniBuildReasonJoint (a parent past the bones, the bone itself,
 * or a cycle of parents), maniBuildReasonNotFinite (a rest component not
 * finite, or a rotation whose length is 0 or not finite); mani_errorBusy from
 * the allocator's hooks; mani_errorCapacity when the allocator fails. On any
 * failure the builder keeps what it held. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildSkeleton(maniBuilder* builder, const maniSkeletonSource* source);

/* Copies the last built file, or the last written text, into caller memory
 * (bufferOut, capacity bytes; the file needs MANI_FILE_ALIGNMENT to open in
 * place). *sizeOut (when not NULL) receives its size. Returns mani_success;
 * mani_errorCapacity when the buffer is smaller than the file or text, with
 * the size still written; mani_errorInvalid for a NULL builder, a NULL buffer
 * with a positive capacity, or a builder holding neither. */
MANI_NODISCARD MANI_API maniResult maniBuilder_CopyBuilt(maniBuilder* builder, void* bufferOut, size_t capacity,
                                                        size_t* sizeOut);

/* Copies where each source bone of the last built skeleton went: the
 * skeleton's index of source bone i at boneOut[i]. *countOut (when not NULL)
 * receives the count. Returns mani_success; mani_errorCapacity when the array
 * is shorter than the count, with the count still written and the array
 * zeroed; mani_errorInvalid for a NULL builder, a NULL array with a positive
 * capacity, or a builder holding no skeleton. */
MANI_NODISCARD MANI_API maniResult maniBuilder_CopySkeletonOrder(maniBuilder* builder, uint32_t* boneOut,
                                                                uint32_t capacity, uint32_t* countOut);

/* -- Skins ------------------------------------------------------------------------ */

/* A skin's source: the bones a mesh is bound to, in the mesh's joint order,
 * against an opened skeleton. */
typedef struct maniSkinSource {
    const maniSkeleton* skeleton;    /* the opened skeleton the skin binds to (its identity and bone count are recorded) */
    const uint32_t* joints;          /* jointCount skeleton bones, one per joint; a bone may serve several joints */
    const maniAffine* inverseBinds;  /* jointCount inverse bind matrices, finite; NULL: every one the identity */
    uint32_t jointCount;             /* 1 to MANI_MAX_BONES */
} maniSkinSource;

/* Builds a skin file bound to the source's skeleton (docs/formats.md, "Skin"):
 * the skeleton's identity and bone count, each joint's bone and inverse bind
 * matrix as given (bits unchanged); keeps the file in place of any file built
 * before. Returns mani_success; mani_errorLimit with maniBuildReasonCount
 * (item: the joint count) for more than MANI_MAX_BONES joints (no misuse);
 * mani_errorInvalid for a NULL builder or source (a misuse), or, with the
 * reason and joint (item) for a refused source (no misuse):
 * maniBuildReasonCount (no joints, or a NULL joint array), maniBuildReasonJoint
 * (a bone past the skeleton's, other: that bone; or, with item 0 and other
 * MANI_NO_BONE, a NULL skeleton or a view no open wrote or whose counts do
 * not fit its file), maniBuildReasonNotFinite (an inverse bind component not
 * finite); joints are checked in order, each one's bone before its matrix; mani_errorBusy from the allocator's hooks;
 * mani_errorCapacity when the allocator fails. On any failure the builder
 * keeps what it held. Safe from any thread; the builder is used by one thread
 * at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildSkin(maniBuilder* builder, const maniSkinSource* source);

/* -- Influences ------------------------------------------------------------------- */

/* A mesh primitive's influences: vertex v's are influences offsets[v] to
 * offsets[v + 1] - 1 of joints and weights, in any order. */
typedef struct maniInfluenceSource {
    const maniSkin* skin;                /* the opened skin the influences bind to (identity and joint count recorded) */
    const uint32_t* offsets;             /* vertexCount + 1, from 0, never decreasing */
    const uint32_t* joints;              /* offsets[vertexCount] skin joints */
    const float* weights;                /* offsets[vertexCount] weights, finite, at least 0 (0: dropped) */
    const float* dualQuaternionWeights;  /* vertexCount blends of FBX's blended skinning, 0 to 1; NULL: none */
    uint32_t vertexCount;                /* 1 to MANI_MAX_INFLUENCE_VERTICES */
    uint32_t reserved;                   /* 0 */
} maniInfluenceSource;

/* Builds an influences file bound to the source's skin (docs/formats.md,
 * "Influences"): zero weights dropped, each vertex's influences sorted by
 * decreasing weight then increasing joint, padded to groups of four with
 * joint 0 at weight 0 (the group count the largest vertex's) and
 * renormalized to sum 1 (the sum in binary64 in sorted order, each weight
 * divided in binary64 and rounded once); a vertex with no weight keeps all
 * 0, and skinning leaves it as it is. Keeps the file in place of any built
 * before.
 * Returns mani_success; mani_errorLimit with maniBuildReasonCount for more
 * than MANI_MAX_INFLUENCES weighted influences on a vertex (item the vertex,
 * other the first influence past the bound; no misuse);
 * mani_errorInvalid for a NULL builder or source (a misuse), or with the
 * reason, item (a vertex) and other (an influence: its index into joints
 * and weights) for a refused
 * source, vertices checked in order: maniBuildReasonCount (no vertices, past
 * MANI_MAX_INFLUENCE_VERTICES, NULL offsets, or offsets not increasing from
 * 0: item the first vertex whose offset is wrong; NULL joints or weights
 * with influences: item 0), maniBuildReasonJoint (a joint past the skin's,
 * other its index; or item 0, other MANI_NO_BONE for a skin view no open
 * wrote), maniBuildReasonNotFinite, maniBuildReasonWeight (a weight below 0;
 * a blend weight not finite or out of 0 to 1, other UINT64_MAX),
 * maniBuildReasonRepeatedJoint (a joint twice among a vertex's weighted
 * influences, other the later); mani_errorBusy from the allocator's hooks;
 * mani_errorCapacity when memory runs out. On any failure the builder keeps
 * what it held. Safe from any thread; the builder is used by one thread at
 * a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildInfluences(maniBuilder* builder,
                                                            const maniInfluenceSource* source);

/* The default similarity width of maniBuildCenters (Le and Hodgins 2016). */
#define MANI_CENTERS_DEFAULT_SIGMA 0.1

/* The mesh maniBuildCenters computes centers of rotation over. */
typedef struct maniCenterSource {
    const maniInfluences* influences; /* opened; the centers' file keeps its influences and blend weights */
    const float* positions;           /* the rest positions, x y z at every positionStride bytes, one per vertex */
    uint32_t positionStride;          /* at least 12 */
    uint32_t triangleCount;           /* 0 or more */
    const uint32_t* triangles;        /* 3 vertex indices a triangle */
    double sigma;                     /* the similarity width, 0 or more (MANI_CENTERS_DEFAULT_SIGMA) */
} maniCenterSource;

/* Builds the influences again with a center of rotation for every vertex
 * (Le and Hodgins 2016, Eq. 4): c_i = sum_t s(w_i, w_t) a_t m_t /
 * sum_t s(w_i, w_t) a_t over the triangles t in order, a_t the area, m_t
 * the centroid, w_t the average of its vertices' weights and
 * s(w_p, w_v) = sum_{j<k} w_pj w_pk w_vj w_vk exp(-(w_pj w_vk - w_pk w_vj)^2
 * / sigma^2) over joint pairs in increasing order (sigma 0: the exponential
 * 1 where the difference is 0, else 0), all in binary64, each center
 * rounded once. A vertex similar to no triangle (a single influence, say)
 * takes its rest position. Keeps the file in place of any built before.
 * Returns mani_success; mani_errorInvalid for a NULL builder or source (a
 * misuse), or with the reason and item for a refused source:
 * maniBuildReasonCount (an influences view no open wrote, NULL positions,
 * NULL triangles with a count, or a stride under 12; item 0),
 * maniBuildReasonNotFinite (a position; item the vertex),
 * maniBuildReasonTriangle (item the triangle, other the corner),
 * maniBuildReasonOption (sigma below 0 or not finite); mani_errorBusy from
 * the allocator's hooks; mani_errorCapacity when memory runs out. On any
 * failure the builder keeps what it held. Safe from any thread; the
 * builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildCenters(maniBuilder* builder, const maniCenterSource* source);
/* -- Morph targets ------------------------------------------------------------------ */

/* One attribute a morph targets source moves: a semantic and its set (0 for
 * positions, normals and tangents; 0 to MANI_MAX_MORPH_SET otherwise). */
typedef struct maniMorphSourceAttribute {
    maniMorphSemantic semantic;
    uint32_t set;
} maniMorphSourceAttribute;

/* One target of a channel: its deltas for the vertices it moves. */
typedef struct maniMorphSourceTarget {
    const char* name;         /* UTF-8, not terminated, nameLength bytes (at most MANI_MAX_NAME_BYTES); NULL and 0:
                                 the channel's name, then '/' and the target's index past the first */
    size_t nameLength;
    float fullWeight;         /* the channel weight at which it applies in full: finite, not 0, increasing in the channel */
    const uint32_t* indices;  /* count vertex indices in any order (one given twice: deltas summed), or NULL: every
                                 vertex in order, count the vertex count */
    uint32_t count;           /* the vertices given */
    /* Per attribute of the source (same index), count * components deltas
     * (the semantic's components, vertex by vertex, in the order given), or
     * NULL: the target does not move that attribute. Entries past the
     * attribute count are not read. */
    const float* deltas[MANI_MAX_MORPH_ATTRIBUTES];
} maniMorphSourceTarget;

/* A channel: targets at increasing full weights (in-betweens), weighted
 * together by one channel weight. */
typedef struct maniMorphSourceChannel {
    const char* name; /* UTF-8, not terminated, nameLength bytes (1 to MANI_MAX_NAME_BYTES), unique */
    size_t nameLength;
    const maniMorphSourceTarget* targets;
    uint32_t targetCount; /* 1 or more */
} maniMorphSourceChannel;

/* A morph targets source: a mesh primitive's blend shapes. */
typedef struct maniMorphSource {
    uint32_t vertexCount; /* 1 or more */
    const maniMorphSourceAttribute* attributes;
    uint32_t attributeCount; /* 1 to MANI_MAX_MORPH_ATTRIBUTES, no pair twice */
    const maniMorphSourceChannel* channels;
    uint32_t channelCount; /* 1 or more */
} maniMorphSource;

/* Builds a morph targets file (docs/formats.md, "Morph targets"): checks
 * every channel and target, sorts each sparse target's vertices and sums a
 * vertex given twice (in binary64, in the source's order, rounded once),
 * stores a target touching every vertex densely (and every other sparsely),
 * and keeps the file in place of any built before. Deltas otherwise keep
 * their bits.
 * Returns mani_success; mani_errorLimit with maniBuildReasonCount for more
 * than MANI_MAX_MORPH_ATTRIBUTES attributes (item 0), or with
 * maniBuildReasonName for a name past MANI_MAX_NAME_BYTES (item the channel,
 * or the target with other 1, its own name or the one made for it), no
 * misuse; mani_errorInvalid for a NULL builder or source (a misuse), or with
 * the reason and item for a refused source (no misuse). Items are channels
 * for maniBuildReasonCount on a channel without targets (or a NULL target
 * array), maniBuildReasonName and maniBuildReasonDuplicateName (other the
 * earlier channel); targets, counted over the channels in order, otherwise:
 * maniBuildReasonCount (item 0: no channels, no vertices; item the target:
 * an index-less target whose count is not the vertex count),
 * maniBuildReasonAttribute (item the attribute: none, an unknown semantic, a
 * set out of range, a pair twice), maniBuildReasonName (a channel's name
 * empty, NULL or not UTF-8; a target's NULL with a length, empty but not
 * NULL, or not UTF-8, other 1), maniBuildReasonWeight (a full weight not finite, 0 or not above
 * the previous one), maniBuildReasonVertex (an index past the vertices,
 * other its place), maniBuildReasonNotFinite (a delta not finite, or the sum
 * of a vertex given twice past binary32, found once every other check
 * passed; other the given vertex's place).
 * Channels are checked in order, each one's name and targets before its
 * targets, each target's name, weight, count, indices, then deltas.
 * mani_errorBusy from the allocator's hooks; mani_errorCapacity when memory
 * runs out (or the file would pass 2^32 indices or deltas). On any failure
 * the builder keeps what it held. Safe from any thread; the builder is used
 * by one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildMorphTargets(maniBuilder* builder, const maniMorphSource* source);

/* -- Clips ------------------------------------------------------------------------ */

/* MANI_MAX_SAMPLES (clip.h): the most samples a clip holds. */

/* How a source channel interpolates between its keys (glTF 2.0's
 * animation.sampler.interpolation). */
typedef enum maniInterpolation {
    maniInterpolationLinear = 0,     /* linear; rotations by spherical linear interpolation */
    maniInterpolationStep = 1,       /* the key at or before the time */
    maniInterpolationCubicSpline = 2 /* cubic Hermite: values as (in-tangent, value, out-tangent) per key,
                                        tangents scaled by the keys' time difference */
} maniInterpolation;

/* What a bone channel animates. */
typedef enum maniChannelPath {
    maniChannelTranslation = 0, /* 3 floats a value */
    maniChannelRotation = 1,    /* 4 floats a value: x, y, z, w (normalized by the build) */
    maniChannelScale = 2        /* 3 floats a value */
} maniChannelPath;

/* One bone channel of a clip source: keys as a glTF sampler holds them. */
typedef struct maniClipSourceChannel {
    uint32_t bone;          /* a bone of the source's skeleton; one channel per bone and path */
    uint32_t path;          /* maniChannelPath */
    uint32_t interpolation; /* maniInterpolation */
    uint32_t keyCount;      /* at least 1 */
    const float* times;     /* keyCount times, finite, at least 0, increasing */
    const float* values;    /* keyCount values (3 per key for cubic splines: in-tangent, value, out-tangent),
                               each of the path's floats; finite */
} maniClipSourceChannel;

/* A float track (morph weight, curve): one float a value, sampled on the
 * clip's grid; a step track holds the sample at or before a time, others
 * interpolate linearly between samples. */
typedef struct maniClipSourceFloatTrack {
    const char* name;       /* UTF-8, not terminated, 1 to MANI_MAX_NAME_BYTES bytes, unique among float tracks */
    size_t nameLength;
    uint32_t interpolation; /* maniInterpolation: the source's, and the track's mode (step or linear) */
    uint32_t keyCount;      /* at least 1 */
    const float* times;     /* keyCount times, finite, at least 0, increasing */
    const float* values;    /* keyCount values (3 per key for cubic splines); finite */
} maniClipSourceFloatTrack;

/* A discrete track: whole numbers held from each key to the next. */
typedef struct maniClipSourceDiscreteTrack {
    const char* name;       /* as a float track's, unique among discrete tracks */
    size_t nameLength;
    uint32_t keyCount;      /* at least 1 */
    uint32_t reserved;      /* 0 */
    const float* times;     /* keyCount times, finite, in [0, duration], increasing */
    const int32_t* values;  /* keyCount values */
} maniClipSourceDiscreteTrack;

/* An event or sync marker of a clip source. Names need not be unique. */
typedef struct maniClipSourceEvent {
    float time;             /* finite, in [0, duration] */
    uint32_t reserved;      /* 0 */
    const char* name;       /* UTF-8, not terminated, 1 to MANI_MAX_NAME_BYTES bytes */
    size_t nameLength;
} maniClipSourceEvent;

/* A clip's source: channels of bones of an opened skeleton, keys past the
 * duration ignored, keys before 0 refused. */
typedef struct maniClipSource {
    const maniSkeleton* skeleton;                /* the opened skeleton (its identity and bone count are recorded) */
    float duration;                              /* seconds, finite, at least 0 */
    float sampleRate;                            /* samples per second, finite, above 0 */
    uint32_t loop;                               /* maniLoopPolicy */
    uint32_t additive;                           /* maniAdditiveBasis */
    const maniClipSourceChannel* channels;
    uint32_t channelCount;
    uint32_t floatTrackCount;
    const maniClipSourceFloatTrack* floatTracks;
    const maniClipSourceDiscreteTrack* discreteTracks;
    uint32_t discreteTrackCount;
    uint32_t eventCount;
    const maniClipSourceEvent* events;           /* any order: the build sorts them by time, ties in source order */
    const maniClipSourceEvent* markers;
    uint32_t markerCount;
    uint32_t reserved;                           /* 0 */
    const maniRootMotionSource* rootMotion;      /* NULL: no root motion */
} maniClipSource;

/* Builds a full-precision clip file (docs/formats.md, "Clip"): evaluates
 * every channel at each sample time as glTF defines its interpolation, in
 * binary64 (linear; slerp for rotations, nlerp when the two keys are within
 * 1e-12 of each other; step; cubic Hermite with tangents times the key
 * interval; a time before the first key reads the first value, after the
 * last the last), rotations normalized and each sample turned into the
 * hemisphere of the bone's previous sample; takes out root motion; makes
 * additive differences; and keeps the file in place of any built before.
 * Returns mani_success; mani_errorLimit with maniBuildReasonTiming for more
 * than MANI_MAX_SAMPLES samples, or with maniBuildReasonName (and the list
 * bit maniBuildReasonFloatTrack or maniBuildReasonEvent; item the track, or
 * for discrete tracks other 1, for markers other 1 with the event bit) for
 * a name past MANI_MAX_NAME_BYTES (no misuse); mani_errorInvalid for a NULL
 * argument (a misuse), or with the reason and item for a refused source:
 * maniBuildReasonJoint (a skeleton view not an open's: item 0, other
 * MANI_NO_BONE; a channel's bone past the skeleton: item the channel),
 * maniBuildReasonTiming (duration, rate, or a channel's/track's times not
 * finite, below 0 or not increasing; item the channel, or the track with the
 * list bit), maniBuildReasonCount (a channel or track with no keys or a NULL
 * array with a count; two channels of one bone and path: other the earlier),
 * maniBuildReasonOption (a path, interpolation, loop or basis out of range),
 * maniBuildReasonNotFinite (a value not finite, or a rotation key of length
 * 0), maniBuildReasonName / maniBuildReasonDuplicateName (with the list bit),
 * maniBuildReasonRootMotion (a bone past the skeleton, flags 0 or out of
 * range, both rotation flags, or root motion on an additive clip);
 * mani_errorCapacity when the allocator fails. On any failure the builder
 * keeps what it held. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildClip(maniBuilder* builder, const maniClipSource* source);

/* One bone's worst errors against its source. */
typedef struct maniClipBoneError {
    float translation; /* the largest distance between translations */
    float rotation;    /* the largest angle between rotations, radians */
    float scale;       /* the largest difference of a scale component */
    float time;        /* where the largest of the three (translation first on ties) was found */
} maniClipBoneError;

/* What maniBuilder_MeasureClip found: the worst errors over the clip, and,
 * in caller arrays when given (capacity at least the skeleton's bones, the
 * source's float tracks), each bone's and float track's worst. */
typedef struct maniClipReport {
    float maxTranslation;
    float maxRotation;
    float maxScale;
    float maxFloat;
    uint32_t worstBone;       /* the bone of maxRotation (MANI_NO_BONE when no bone errs) */
    uint32_t worstFloatTrack; /* the source track of maxFloat (MANI_NO_TRACK when none errs) */
    uint32_t timesMeasured;   /* how many times were measured */
    uint32_t reserved;
    maniClipBoneError* bones; /* NULL, or boneCapacity entries */
    uint32_t boneCapacity;
    uint32_t floatCapacity;
    float* floatTracks;       /* NULL, or floatCapacity entries: each source track's worst difference */
} maniClipReport;

/* Measures a clip against the source it was built from: at every sample time
 * and halfway between samples, each bone's local from the clip's own
 * sampling (root motion put back) against the source evaluated in binary64
 * (with its root motion and additive basis as the build made them),
 * rotations compared by angle (2 acos |dot|), and each float track (found
 * by name) against its source. Fills reportOut's worst values and the arrays
 * it gives (arrays shorter than the counts are left alone). Returns
 * mani_success; mani_errorInvalid for a NULL argument, a source the build
 * refuses, or a clip not of the source's skeleton or missing one of its
 * float tracks; mani_errorCapacity when the allocator fails. */
MANI_NODISCARD MANI_API maniResult maniBuilder_MeasureClip(maniBuilder* builder, const maniClipSource* source,
                                                           const maniClip* clip, maniClipReport* reportOut);

/* -- Compression ------------------------------------------------------------------ */

/* How closely a compressed clip must follow its full-precision source. Every
 * bone's shell: virtual vertices at shellDistance on the bone's three axes,
 * carried to the model through the hierarchy (a parent's error moves its
 * children); at every sample time and halfway between samples, each vertex
 * of the compressed clip's pose within precision of the full-precision
 * clip's. Every float track within floatPrecision at the same times. Units
 * are the clip's (metres: 0.0001 is 0.1 mm at 3 cm). Each value finite and
 * above 0. */
typedef struct maniCompressOptions {
    float precision;      /* the largest distance a shell vertex may move; 0.0001 */
    float shellDistance;  /* the vertices' distance from the bone; 0.03 */
    float floatPrecision; /* the largest difference of a float track; 0.00001 */
    uint32_t reserved;    /* 0 */
} maniCompressOptions;

/* What maniCompressClip made: sizes, and the worst shell error found (the
 * largest vertex distance, in binary64, between the shell vertices of the
 * two clips' runtime poses: maniClip_Sample's locals through the model pass
 * of maniPose_ComputeModel, binary32; docs/formats.md says it exactly),
 * where, and in a caller array when given (bones non-NULL, boneCapacity at
 * least the skeleton's bones; a shorter array is left alone) each bone's
 * worst over the clip. */
typedef struct maniCompressReport {
    uint64_t sizeBefore;   /* the full-precision file's bytes */
    uint64_t sizeAfter;    /* the compressed file's bytes */
    double ratio;          /* sizeBefore / sizeAfter */
    double worstError;     /* the largest shell error, at most the precision */
    uint32_t worstBone;    /* its bone (MANI_NO_BONE when every error is 0) */
    uint32_t worstSample;  /* where: 2 k for sample k, 2 k + 1 halfway between samples k and k + 1 */
    double worstFloatError;
    uint32_t worstFloatTrack; /* MANI_NO_TRACK when every float error is 0 */
    uint32_t boneCapacity;
    double* bones;         /* NULL, or boneCapacity entries: each bone's worst shell error */
} maniCompressReport;

/* The default options: precision 0.0001 and shell distance 0.03 (0.1 mm at
 * 3 cm when the unit is the metre), float tracks within 0.00001. Safe from
 * any thread. */
MANI_API maniCompressOptions maniDefaultCompressOptions(void);

/* Compresses a full-precision clip into the builder (docs/formats.md,
 * "Compressed clip (kind 4, format 11)"): default and constant channels
 * folded, segments of 16 samples (a last rest of fewer than 8 joins the one
 * before), rotations storing their three smallest components, ranges over
 * the clip and the segment, and per segment the fewest
 * bits (a rate of 0, 3 to 16 bits or raw f32 per track, searched
 * deterministically) that keep every bone's shell and every float track
 * within its tolerance at every sample and halfway between samples, measured
 * on exactly the values sampling decodes and the model matrices the
 * runtime composes from them (the report's measure). Float, discrete tracks, events,
 * markers and root motion are kept as the source holds them. The same input
 * gives the same bytes on every platform. Returns mani_success;
 * mani_errorInvalid for a NULL argument, a compressed clip, a skeleton not
 * the clip's, or a tolerance not finite and above 0; mani_errorCapacity
 * when the allocator fails. A NULL argument or a bad tolerance counts one
 * misuse on the builder; a compressed clip or another skeleton's counts
 * none, as the clip's file decides them. On failure the builder keeps what
 * it held. */
MANI_NODISCARD MANI_API maniResult maniCompressClip(maniBuilder* builder, const maniClip* clip,
                                                    const maniSkeleton* skeleton, const maniCompressOptions* options,
                                                    maniCompressReport* reportOut);

/* -- Spring set source (spring.h) --------------------------------------------- */

/* The highest reference or step rate a spring set takes (frames or steps a
 * second). */
#define MANI_MAX_SPRING_RATE 1000.0f

/* A collider of a spring set source: a shape on a bone, in the bone's model
 * space (scaled with it). */
typedef struct maniSpringSourceCollider {
    uint32_t bone;   /* the skeleton's bone it moves with */
    uint32_t kind;   /* a maniSpringShapeKind */
    maniVec3 offset; /* the sphere's center, the capsule's first end or the plane's point */
    float radius;    /* finite, 0 or more (0 for a plane); above 0 for inside shapes */
    maniVec3 tail;   /* a capsule's second end, or a plane's normal (of non-zero length; normalized by the build) */
} maniSpringSourceCollider;

/* A collider group: indices of colliders (VRMC_springBone's colliderGroups). */
typedef struct maniSpringSourceColliderGroup {
    const uint32_t* colliders; /* indices in the source's colliders */
    uint32_t colliderCount;
} maniSpringSourceColliderGroup;

/* One joint of a spring: its bone and VRMC_springBone's per-joint values,
 * with its VRMC_springBone_limit. A spring's last joint is only its tail
 * (its values unused, its limit ignored). */
typedef struct maniSpringSourceJoint {
    uint32_t bone;          /* the skeleton's bone; each joint's bone is the parent of the next's */
    float hitRadius;        /* finite, 0 or more */
    float stiffness;        /* finite, 0 or more (per second) */
    float gravityPower;     /* finite, 0 or more (per second) */
    maniVec3 gravityDir;    /* finite, of length 1 or 0 (normalized by the build when not 0) */
    float dragForce;        /* 0 to 1, per frame of the reference rate */
    uint32_t limitKind;     /* a maniSpringLimitKind */
    maniQuat limitRotation; /* the limit's frame in the joint's, of non-zero length (normalized by the build) */
    float limitAngle;       /* cone and hinge: the angle; spherical: the pitch (0 to pi) */
    float limitAngle2;      /* spherical: the yaw (0 to pi); otherwise 0 */
} maniSpringSourceJoint;

/* One spring (a chain): 2 or more joints, its collider groups and center. */
typedef struct maniSpringSourceSpring {
    const char* name; /* UTF-8, nameLength bytes (0 to MANI_MAX_NAME_BYTES); NULL with 0 for none */
    size_t nameLength;
    const maniSpringSourceJoint* joints;
    uint32_t jointCount;             /* 2 or more */
    const uint32_t* colliderGroups;  /* indices in the source's groups; colliders listed once each, in order */
    uint32_t colliderGroupCount;
    uint32_t center;                 /* a bone that is no joint's descendant, or MANI_NO_BONE (the world) */
} maniSpringSourceSpring;

/* A spring set's source: the skeleton, the rates, the colliders, groups and
 * springs (maniGltf_ReadSprings makes one from VRMC_springBone). */
typedef struct maniSpringSetSource {
    const maniSkeleton* skeleton;
    float referenceRate; /* frames a second the drag is per frame of; above 0, at most MANI_MAX_SPRING_RATE */
    float stepRate;      /* fixed steps a second; above 0, at most MANI_MAX_SPRING_RATE */
    const maniSpringSourceCollider* colliders;
    uint32_t colliderCount;
    const maniSpringSourceColliderGroup* groups;
    uint32_t groupCount;
    const maniSpringSourceSpring* springs;
    uint32_t springCount; /* up to MANI_MAX_BONES */
} maniSpringSetSource;

/* Builds a spring set: the source checked (bones, shapes, chains and
 * centers as VRMC_springBone and its extensions require, every value in its
 * range), each joint's drag, stiffness and gravity converted from a frame of
 * the reference rate to a step of the step rate, colliders listed per
 * spring (a collider in two of a spring's groups once, at its first place).
 * Returns mani_success; mani_errorLimit with maniBuildReasonOption (item 0
 * the reference rate, 1 the step rate, past MANI_MAX_SPRING_RATE),
 * maniBuildReasonCount (more than MANI_MAX_BONES springs) or
 * maniBuildReasonName and the spring (a name past MANI_MAX_NAME_BYTES), no
 * misuse; mani_errorInvalid (a misuse) for NULL arguments or with the
 * reason, item and other for a refused source: maniBuildReasonOption (item
 * 0 or 1: a rate not finite or not above 0), maniBuildReasonCount (item
 * the spring: fewer than 2 joints or a NULL list with a count; item
 * MANI_NO_BONE: a NULL colliders, groups or springs list with a count),
 * maniBuildReasonName (item the spring: not UTF-8), maniBuildReasonJoint
 * (item the spring, other the joint: a bone past the skeleton, or not the
 * parent of the next joint's; other MANI_NO_BONE: a center past the
 * skeleton or below a joint), maniBuildReasonNotFinite (item the spring,
 * other the joint: a value not finite or out of range, a limit kind past
 * the kinds; item MANI_NO_BONE, other the collider: a collider's),
 * maniBuildReasonAttribute (item the collider: a bone past the skeleton,
 * a kind past the kinds, a radius refused, a plane's normal of length 0;
 * other MANI_NO_BONE), maniBuildReasonEntry (item the group or spring,
 * other the index: a collider index past the colliders, or a group index
 * past the groups); mani_errorCapacity when memory runs out. On failure
 * the builder keeps what it held. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildSpringSet(maniBuilder* builder, const maniSpringSetSource* source);
/* -- Ragdoll profiles ------------------------------------------------------------- */

/* One body of a ragdoll source, on a bone of the source's skeleton. */
typedef struct maniRagdollSourceBody {
    const char* name;       /* UTF-8, not terminated, nameLength bytes (0 to MANI_MAX_NAME_BYTES); NULL only with 0 */
    size_t nameLength;
    uint32_t bone;          /* a bone of the skeleton, one body a bone */
    uint32_t shape;         /* a maniRagdollShape (ragdoll.h) */
    uint32_t motion;        /* a maniRagdollMotion */
    uint32_t reserved;      /* 0 (not read) */
    maniVec3 size;          /* the shape's size (maniRagdollShape): finite, above 0 where used, 0 elsewhere */
    float mass;             /* finite, above 0 */
    maniTransform frame;    /* the body's frame in its bone's model frame: finite, rotation of non-zero length
                               (normalized by the build); scale not read */
    maniTransform joint;    /* the joint's frame in the body's frame (x the twist axis), likewise; the root
                               body's is not read */
    float twistMin;         /* -MANI_RAGDOLL_MAX_ANGLE <= twistMin <= twistMax <= MANI_RAGDOLL_MAX_ANGLE */
    float twistMax;
    float swingY;           /* 0 to MANI_RAGDOLL_MAX_ANGLE */
    float swingZ;           /* 0 to MANI_RAGDOLL_MAX_ANGLE */
    float driveStiffness;   /* finite, at least 0 (with damping 0: no drive) */
    float driveDamping;     /* finite, at least 0 */
    float driveMaxForce;    /* finite, at least 0 (0: no bound) */
} maniRagdollSourceBody;

/* A ragdoll profile's source: bodies in any order on bones of an opened
 * skeleton; exactly one (the root) has no body on an ancestor bone. */
typedef struct maniRagdollSource {
    const maniSkeleton* skeleton;        /* the opened skeleton (identity and bone count recorded) */
    const maniRagdollSourceBody* bodies; /* bodyCount bodies */
    uint32_t bodyCount;                  /* 1 to the skeleton's bone count */
    uint32_t reserved;                   /* 0 (not read) */
    maniVec3 facing;                     /* the root body's facing axis (out of the chest) in its frame: unit */
    maniVec3 up;                         /* its up axis (toward the head): unit, perpendicular to facing */
} maniRagdollSource;

/* What other names for maniBuildRagdoll's maniBuildReasonNotFinite and
 * maniBuildReasonOption: the body's field refused. */
#define MANI_RAGDOLL_FIELD_SHAPE 0u  /* the shape kind */
#define MANI_RAGDOLL_FIELD_MOTION 1u /* the motion kind */
#define MANI_RAGDOLL_FIELD_SIZE 2u   /* a size component */
#define MANI_RAGDOLL_FIELD_MASS 3u   /* the mass */
#define MANI_RAGDOLL_FIELD_FRAME 4u  /* the body's frame (a rotation of length 0 or not finite) */
#define MANI_RAGDOLL_FIELD_JOINT 5u  /* the joint's frame */
#define MANI_RAGDOLL_FIELD_LIMIT 6u  /* a twist or swing limit */
#define MANI_RAGDOLL_FIELD_DRIVE 7u  /* a drive value */
#define MANI_RAGDOLL_FIELD_AXES 8u   /* the root's facing and up axes (item: the root body) */

/* Builds a ragdoll profile (docs/formats.md, "Ragdoll profile"): the source
 * checked (bones, one root, shapes, sizes, masses, frames, limits, drives,
 * the axes), the bodies ordered by bone, each body's parent the body on its
 * nearest ancestor bone, each joint's frame in its parent body worked out
 * from the skeleton's rest pose (model frames composed from the rests and
 * split as maniDecomposeAffine splits them, in binary64, rounded once), the
 * model's forward and up the root's axes at rest; keeps the file in place of
 * any built before.
 * Returns mani_success; mani_errorLimit with maniBuildReasonName and the
 * body for a name past MANI_MAX_NAME_BYTES (no misuse); mani_errorInvalid
 * for a NULL builder or source (a misuse), or with the reason, item (a
 * source body) and other for a refused source (no misuse), bodies checked in
 * order: maniBuildReasonJoint (a skeleton view not an open's: item 0, other
 * MANI_NO_BONE; a bone past the skeleton: other the bone; a second root in
 * the source's order: other the first), maniBuildReasonCount (no bodies, a NULL array, or more
 * than the skeleton's bones; item 0), maniBuildReasonName (NULL with a
 * length, or not UTF-8), maniBuildReasonRepeatedJoint (a second body on a
 * bone; other the earlier), maniBuildReasonNotFinite and
 * maniBuildReasonOption (other a MANI_RAGDOLL_FIELD_ value: a kind out of
 * range, a size or mass not above 0, a used size component 0 or an unused
 * one not 0, a rotation of length 0, limits or drives out of range, the
 * axes not unit or perpendicular within a thousandth); each body's name,
 * bone, shape, motion, size, mass, frame, joint, limits, then drive, the
 * roots and the axes last; mani_errorBusy from the allocator's hooks;
 * mani_errorCapacity when memory runs out. On any failure the builder keeps
 * what it held. Safe from any thread; the builder is used by one thread at
 * a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildRagdoll(maniBuilder* builder, const maniRagdollSource* source);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_BUILD_H */
