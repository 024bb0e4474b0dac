/* Maul Anim: retargetbuild.h
 *
 * Building retargeting maps: bone pairs, chains of any lengths on each side,
 * the pelvis and a reference pose per skeleton, checked against both
 * skeletons and laid out as each target bone's plan, so the transfer at
 * runtime only composes rotations. Offline (built unless MAUL_ANIM_OFFLINE
 * is off).
 */
#ifndef MAUL_ANIM_RETARGETBUILD_H
#define MAUL_ANIM_RETARGETBUILD_H

#include "maul/anim/build.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/ik.h"
#include "maul/anim/retarget.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a chain's target bones take their rotations from the source chain's
 * bones. Frozen values (files record them). */
typedef enum maniRetargetChainMode {
    maniRetargetChainNone = 0,         /* the target bones keep their reference (and no later rule maps them) */
    maniRetargetChainInterpolated = 1, /* target bone j of m at place j / (m - 1) along the source chain: the two
                                          source bones around it, slerped (a one-bone side: place 0) */
    maniRetargetChainOneToOne = 2,     /* target bone j takes source bone j from the starts (the last past its end) */
    maniRetargetChainOneToOneReversed = 3 /* the same counted from the ends (the first past its start) */
} maniRetargetChainMode;

/* A target bone following one source bone. */
typedef struct maniRetargetPair {
    uint32_t sourceBone;  /* a bone of the source */
    uint32_t targetBone;  /* a bone of the target, mapped once at most */
    float weight;         /* in [0, 1]: how much of the source's turn the bone takes */
    uint32_t translation; /* a maniRetargetTranslation */
    bool scale;           /* whether the source's scale change carries */
} maniRetargetPair;

/* A run of target bones following a run of source bones: each from its
 * start down to its end (a descendant of the start), at most
 * MANI_MAX_IK_CHAIN_BONES bones long. */
typedef struct maniRetargetChain {
    uint32_t sourceStart; /* bones of the source */
    uint32_t sourceEnd;
    uint32_t targetStart; /* bones of the target, none mapped before */
    uint32_t targetEnd;
    uint32_t mode;        /* a maniRetargetChainMode */
    uint32_t translation; /* a maniRetargetTranslation, for every target bone of the chain */
    float weight;         /* in [0, 1], for every target bone of the chain */
    bool scale;           /* whether the source's scale change carries */
} maniRetargetChain;

/* The pelvis: the target bone that follows the source's pelvis in rotation
 * and whose model position follows the source pelvis's, scaled by the two
 * skeletons' pelvis heights. */
typedef struct maniRetargetPelvis {
    uint32_t sourceBone;      /* the source's pelvis */
    uint32_t targetBone;      /* the target's pelvis, not mapped by a pair or chain */
    maniVec3 up;              /* the model's up axis, of length 1 within a thousandth (used as given) */
    float horizontalFactor;   /* finite, at least 0: the horizontal scale is the height ratio times it */
    float verticalFactor;     /* finite, at least 0: the vertical scale is the height ratio times it */
    maniVec3 absolute;        /* per model axis in [0, 1]: the blend from the scaled change toward the unscaled one */
    maniVec3 toSource;        /* per model axis in [0, 1]: the blend from there toward the source pelvis's position */
    float weight;             /* in [0, 1]: how far from the target reference the pelvis moves and turns */
} maniRetargetPelvis;

/* A retargeting map's source. The height ratio is the target reference
 * pelvis's height along up over the source reference pelvis's. */
typedef struct maniRetargetMapSource {
    const maniSkeleton* source;              /* the skeleton poses come from (opened) */
    const maniSkeleton* target;              /* the skeleton poses are made for (opened) */
    const maniTransform* sourceReference;    /* a local per source bone (finite, unit rotations), or NULL: its rest */
    const maniTransform* targetReference;    /* a local per target bone, or NULL: its rest */
    const maniRetargetPair* pairs;
    uint32_t pairCount;
    uint32_t chainCount;
    const maniRetargetChain* chains;
    const maniRetargetPelvis* pelvis;        /* NULL: no pelvis (scales 1) */
    bool matchNames;                         /* whether a target bone still unmapped follows the source bone of its
                                                name (weight 1, translation own, no scale) */
} maniRetargetMapSource;

/* Builds a retargeting map file (kind 10 of the container, docs/formats.md
 * "Retarget map") from a source and keeps it in the builder. Each target
 * bone is mapped once at most: by a pair, a chain, the pelvis or a name, in
 * that order. The references' model rotations and the turns between them are
 * composed in binary64 and rounded once (the identity exactly where the two
 * sides' frames are equal bit for bit).
 * Returns mani_success; mani_errorLimit with maniBuildReasonRetargetChain
 * (item the chain, other 0) for a chain past MANI_MAX_IK_CHAIN_BONES bones
 * from its start (no misuse); mani_errorInvalid with maniBuildReasonNone for
 * a NULL builder, source or skeleton, a count without its list;
 * maniBuildReasonRetargetReference (item the bone, other 0 for the source's
 * pose and 1 for the target's: a local not finite or its rotation not of
 * length 1 within a thousandth); maniBuildReasonRetargetPair (item the pair,
 * other the target bone: a bone out of range, a target bone mapped before, a
 * weight outside [0, 1], an unknown translation);
 * maniBuildReasonRetargetChain (item the chain, other the target bone mapped
 * before or 0: bones out of range, an end not below its start, an unknown
 * mode or translation, a weight outside [0, 1]);
 * maniBuildReasonRetargetPelvis (a bone out of range or the target mapped
 * before, an up axis not of length 1, a factor negative or not finite, a
 * blend or weight outside [0, 1], a reference pelvis at or below height 0);
 * mani_errorBusy from the allocator's hooks; mani_errorCapacity when memory
 * runs out. On failure the builder keeps what it held. Safe from any thread;
 * the builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildRetargetMap(maniBuilder* builder, const maniRetargetMapSource* source);

/* Builds a retargeting map as maniBuildRetargetMap does and, when it builds,
 * keeps its JSON text form in the builder in place of the file (UTF-8,
 * ending in a new line; maniBuilder_CopyBuilt copies it): an object of
 * "format" ("maul-anim retarget map"), "version" (1), "sourceReference" and
 * "targetReference" (the bones whose reference local is not their rest bit
 * for bit, in bone order, each {"bone": name, "translation": [x, y, z],
 * "rotation": [x, y, z, w], "scale": [x, y, z]}), "pairs" ([{"source",
 * "target": names, "weight", "translation": "own" | "scaled" | "absolute",
 * "scale": bool}]), "chains" ([{"sourceStart", "sourceEnd", "targetStart",
 * "targetEnd": names, "mode": "none" | "interpolated" | "oneToOne" |
 * "oneToOneReversed", "translation", "weight", "scale"}]), "pelvis" (null
 * when none, else {"source", "target", "up": [x, y, z], "horizontalFactor",
 * "verticalFactor", "absolute": [x, y, z], "toSource": [x, y, z],
 * "weight"}) and "matchNames" (bool), lists in the source's order. Numbers
 * as the shortest text that reads back to the same binary32. Returns as
 * maniBuildRetargetMap (and mani_errorCapacity when the text's memory runs
 * out). Safe from any thread; the builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniWriteRetargetMapJson(maniBuilder* builder,
                                                                 const maniRetargetMapSource* source);

/* Builds a retargeting map file from its JSON text form (length bytes), as
 * maniWriteRetargetMapJson writes it, for two skeletons: members an object
 * does not take are refused; "format" and "version" are required; the
 * references, pairs and chains may be left out (empty), as may the pelvis
 * (none), matchNames (false), a reference entry's translation, rotation or
 * scale (its bone's rest), a pair's or chain's translation ("own") and
 * scale (false), and the pelvis's absolute and toSource (zero); a pair's or
 * chain's weight and the pelvis's bones, up, factors and weight are
 * required. A bone a reference lists twice is refused. The source read is
 * then built as maniBuildRetargetMap builds it.
 * Returns as maniBuildRetargetMap, items by place in the text's lists (a
 * refused reference entry's place in its reference list, other 0 for the
 * source's and 1 for the target's; pairs and chains by their places); or
 * mani_errorInvalid with maniBuildReasonNone for a NULL builder or skeleton
 * or a NULL text with a length; maniBuildReasonJson (item the byte offset)
 * for text that does not parse; maniBuildReasonForm (other a maniGraphForm,
 * item the byte offset) for text that does not follow the form (an unknown
 * member, a value of the wrong type, a required member left out, another
 * format name, an unknown mode or translation word, a number past binary32
 * or a list of the wrong length, a bone name its skeleton lacks, a bone a
 * reference lists twice); mani_errorVersion with maniBuildReasonForm
 * (maniGraphFormVersion) for a version other than 1; mani_errorCapacity
 * when memory runs out. Safe from any thread; the builder is used by one
 * thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildRetargetMapJson(maniBuilder* builder, const char* text, size_t length,
                                                                 const maniSkeleton* source, const maniSkeleton* target);

/* A retargeted clip's source: a clip of the source skeleton and a map from
 * it to the target. */
typedef struct maniRetargetClipSource {
    const maniRetargetMap* map;  /* an opened retarget map */
    const maniSkeleton* source;  /* the map's source skeleton (opened) */
    const maniSkeleton* target;  /* the map's target skeleton (opened) */
    const maniClip* clip;        /* an opened clip of the source (full precision or compressed) */
} maniRetargetClipSource;

/* Builds a full-precision clip of the target from a clip of the source
 * through a map (bake it once, play it as any clip) and keeps it in the
 * builder. The clip keeps the source clip's sample rate, duration, loop
 * policy and additive basis. At each sample (the stored sample of a
 * full-precision clip, the sampled pose at the sample's time of a
 * compressed one) the source's pose is made a pose of the target by
 * maniRetargetMap_RetargetPose; a channel that is the target's rest at every
 * sample (the identity for an additive clip), bit for bit, is left out, and
 * each rotation is turned into the hemisphere of its bone's previous
 * sample. An additive clip's differences are each added to the source's
 * rest (binary64, rounded once), carried, and taken as differences from the
 * source's rest carried. Float tracks keep their values at the samples and
 * their interpolation (linear or step); discrete tracks, events and markers
 * are copied. Root motion carries as moves to the first target bone whose
 * plan follows the root motion bone alone (a pair's, a one-to-one chain
 * bone's, the pelvis's or a matched name's): each translation's horizontal
 * and vertical parts scaled as maniRetargetMap_RetargetRootMotion scales
 * them, both turned from the root motion bone's parent's reference frame to
 * the target bone's parent's (the plan's parent turn q: translation q t,
 * rotation q r conj(q), binary64 rounded once; untouched where q is the
 * identity bit for bit); its source's axes follow that turn (each axis to
 * the axis q takes it to, the yaw kept where q keeps the Y axis on itself,
 * else the whole rotation; all axes, and the whole rotation, where q takes
 * an axis off the axes).
 * Returns mani_success; mani_errorInvalid with maniBuildReasonNone for a
 * NULL builder, source or field; maniBuildReasonRetargetClip (other 0 the
 * source skeleton, 1 the target, 2 the clip: a skeleton not the map's, a
 * clip not of the source or not opened); maniBuildReasonRootMotion (item
 * the target bone: past the target's bones, or MANI_NO_BONE where no bone
 * follows the root motion bone alone); maniBuildReasonBasis (item the bone,
 * other the sample) for an additive clip whose difference from its basis
 * carried is not finite (a scale component of 0 in the basis);
 * maniBuildReasonNotFinite (item the bone, other the sample) for a carried
 * value past binary32, or maniBuildReasonRootMotion (item the target bone,
 * other the sample) for a carried move past it; mani_errorCapacity when
 * memory runs out. A rotation whose squared length is more than 1e-6 from 1
 * is made unit (binary64, rounded once); every other keeps its bits. On
 * failure the builder keeps what it held. Safe from any thread; the builder is used by one thread at
 * a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildRetargetedClip(maniBuilder* builder,
                                                                const maniRetargetClipSource* source);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_RETARGETBUILD_H */
