/* Maul Anim: mirrorbuild.h
 *
 * Building mirror maps: a skeleton's bones paired by explicit pairs and by
 * find/replace rules on their names, a reference pose, a plane, and the
 * names of float tracks, events and markers paired the same way, laid out as
 * each bone's partner and corrections so that mirroring at runtime only
 * composes rotations. Offline (built unless MAUL_ANIM_OFFLINE is off).
 */
#ifndef MAUL_ANIM_MIRRORBUILD_H
#define MAUL_ANIM_MIRRORBUILD_H

#include "maul/anim/build.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/mirror.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a rule's find text must stand in a name. Frozen values. */
typedef enum maniMirrorRulePlace {
    maniMirrorRulePrefix = 0,  /* at the start of the name */
    maniMirrorRuleSuffix = 1,  /* at the end of the name */
    maniMirrorRuleAnywhere = 2 /* anywhere: its first occurrence */
} maniMirrorRulePlace;

/* A find/replace rule: a name holding find at its place is paired with the
 * name made by putting replace there instead. Rules are tried in order; the
 * first whose find stands at its place and whose made name is a bone decides
 * a bone (for a track, event or marker name, the first whose find stands at
 * its place). */
typedef struct maniMirrorRule {
    const char* find;    /* UTF-8, not terminated, 1 to MANI_MAX_NAME_BYTES bytes */
    size_t findLength;
    const char* replace; /* UTF-8, not terminated, 0 to MANI_MAX_NAME_BYTES bytes (NULL when 0) */
    size_t replaceLength;
    uint32_t place;      /* a maniMirrorRulePlace */
} maniMirrorRule;

/* An explicit pair of bones (skeleton indices): each takes the other's
 * local. A bone paired with itself stays unpaired whatever the rules say. */
typedef struct maniMirrorBonePair {
    uint32_t bone;
    uint32_t partner;
} maniMirrorBonePair;

/* An explicit pair of float track, event or marker names, paired both
 * ways. */
typedef struct maniMirrorNamePair {
    const char* name;    /* UTF-8, not terminated, 1 to MANI_MAX_NAME_BYTES bytes */
    size_t nameLength;
    const char* partner; /* the same */
    size_t partnerLength;
} maniMirrorNamePair;

/* A float track, event or marker name the rules pair (its partner then
 * pairs back with it). */
typedef struct maniMirrorName {
    const char* name; /* UTF-8, not terminated, 1 to MANI_MAX_NAME_BYTES bytes */
    size_t length;
} maniMirrorName;

/* A mirror map's source. Names are numbered for refusals as one list: name
 * pair k's name 2k and partner 2k + 1, then names[j] at
 * 2 namePairCount + j. */
typedef struct maniMirrorMapSource {
    const maniSkeleton* skeleton;          /* the skeleton mirrored (opened) */
    uint32_t axis;                         /* a maniMirrorAxis: the plane's normal */
    const maniTransform* reference;        /* a local per bone (finite, rotations of non-zero length), or NULL: the rest */
    const maniMirrorBonePair* pairs;       /* explicit bone pairs, each bone in at most one */
    uint32_t pairCount;
    const maniMirrorRule* rules;           /* find/replace rules for bones and names */
    uint32_t ruleCount;
    const maniMirrorNamePair* namePairs;   /* explicit name pairs */
    uint32_t namePairCount;
    const maniMirrorName* names;           /* names paired by the rules */
    uint32_t nameCount;
} maniMirrorMapSource;

/* Builds a mirror map file (kind 9 of the container, docs/formats.md
 * "Mirror map") from a source and keeps it in the builder. Explicit pairs
 * first; every other bone is paired by the first rule whose find stands at
 * its place and whose made name is a bone, and that partner must pair back
 * by the rules (or be left to the rules by the pairs: not explicitly
 * paired); a bone no rule pairs is its own partner. The corrections come
 * from the reference pose's model rotations (binary64, rounded once; the
 * identity exactly where a bone's frame is its partner's mirrored bit for
 * bit). The map records the first bone whose parent's partner is not its
 * partner's parent, without refusing it. Name pairs and the names the rules
 * pair are recorded both ways.
 * Returns mani_success; mani_errorInvalid with maniBuildReasonNone for a
 * NULL builder, source or skeleton, or a count without its list;
 * maniBuildReasonOption for an unknown axis; maniBuildReasonCount for
 * partners past 4 GiB in all; maniBuildReasonMirrorReference (item the bone:
 * a reference local not finite or a rotation of length 0);
 * maniBuildReasonMirrorRule (item the rule: an empty or non-UTF-8 find or
 * replace, an unknown place, or a partner that does not pair back or is
 * explicitly paired); maniBuildReasonMirrorPair (item the bone, other its
 * partner: a bone past the count or in two pairs); maniBuildReasonMirrorName
 * (item the name, other the earlier: a name given two partners; or an
 * empty or non-UTF-8 name, or a rule-made partner empty or not UTF-8, other
 * 0); the same pair given twice is kept once;
 * maniBuildReasonNameHash for two names of one hash (item the later name,
 * other the earlier); mani_errorLimit with maniBuildReasonMirrorRule (item
 * the rule) for a find or replace past MANI_MAX_NAME_BYTES, or with
 * maniBuildReasonMirrorName (item the name) for a name, or a partner a rule
 * makes, past it (no misuse); mani_errorBusy from the allocator's hooks;
 * mani_errorCapacity when memory runs out. On failure the builder keeps what
 * it held. Safe from any thread; the builder is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildMirrorMap(maniBuilder* builder, const maniMirrorMapSource* source);

/* Builds a mirror map as maniBuildMirrorMap does and, when it builds, keeps
 * its JSON text form in the builder in place of the file (UTF-8, ending in a
 * new line; maniBuilder_CopyBuilt copies it): an object of "format" ("maul-anim
 * mirror map"), "version" (1), "axis" ("x", "y" or "z"), "reference" (the
 * bones whose reference local is not their rest bit for bit, in bone order,
 * each {"bone": name, "translation": [x, y, z], "rotation": [x, y, z, w],
 * "scale": [x, y, z]}), "pairs" ([{"bone": name, "partner": name}]),
 * "rules" ([{"find", "place": "prefix" | "suffix" | "anywhere", "replace"}]),
 * "namePairs" ([{"name", "partner"}]) and "names" ([name]), lists in the
 * source's order. Numbers as the shortest text that reads back to the same
 * binary32. Returns as maniBuildMirrorMap (and mani_errorCapacity when the
 * text's memory runs out). Safe from any thread; the builder is used by one
 * thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniWriteMirrorMapJson(maniBuilder* builder, const maniMirrorMapSource* source);

/* Builds a mirror map file from its JSON text form (length bytes), as
 * maniWriteMirrorMapJson writes it, for a skeleton: members an object does
 * not take are refused; "format", "version" and "axis" are required; the
 * reference, pairs, rules, name pairs and names may be left out (empty), as
 * may a reference entry's translation, rotation or scale (its bone's rest).
 * A bone the reference lists twice is refused. The source read is then built
 * as maniBuildMirrorMap builds it.
 * Returns as maniBuildMirrorMap, items by place in the text's lists (a
 * refused reference entry's place in "reference", a refused pair's place in
 * "pairs"; rules and names as maniBuildMirrorMap numbers them); or
 * mani_errorInvalid with maniBuildReasonNone for a NULL builder or skeleton
 * or a NULL text with a length; maniBuildReasonJson (item the byte offset)
 * for text that does not parse; maniBuildReasonForm (other a maniGraphForm,
 * item the byte offset) for text that does not follow the form (an unknown
 * member, a value of the wrong type, a required member left out, another
 * format name, an unknown axis or place, a number past binary32 or a list of
 * the wrong length, a bone name the skeleton lacks, a bone the reference
 * lists twice); mani_errorVersion with maniBuildReasonForm
 * (maniGraphFormVersion) for a version other than 1; mani_errorCapacity when
 * memory runs out. Safe from any thread; the builder is used by one thread
 * at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildMirrorMapJson(maniBuilder* builder, const char* text, size_t length,
                                                               const maniSkeleton* skeleton);

/* A mirrored clip's source: a clip, the skeleton it animates and a mirror
 * map of that skeleton. */
typedef struct maniMirrorClipSource {
    const maniMirrorMap* map;     /* an opened mirror map */
    const maniSkeleton* skeleton; /* the map's skeleton (opened) */
    const maniClip* clip;         /* an opened clip of the skeleton (full precision or compressed) */
} maniMirrorClipSource;

/* Builds a full-precision clip of a clip mirrored (bake it once, play it as
 * any clip) and keeps it in the builder. The clip keeps the clip's sample
 * rate, duration, loop policy and additive basis. At each sample (the stored
 * sample of a full-precision clip, the sampled pose at the sample's time of
 * a compressed one) the pose is mirrored by maniMirrorMap_MirrorPose; a
 * channel that is the rest at every sample (the identity for an additive
 * clip), bit for bit, is left out, and each rotation is turned into the
 * hemisphere of its bone's previous sample. An additive clip's differences
 * are each added to the rest (binary64, rounded once), mirrored, and taken
 * as differences from the rest mirrored. Float tracks keep their values at
 * the samples and their interpolation; discrete tracks, events and markers
 * are copied; every name is renamed by maniMirrorMap_MirrorName. Root motion
 * moves to the root motion bone's partner: each stored move (in the bone's
 * parent's frame) reflected as maniMirrorMap_MirrorRootMotion reflects it
 * and turned into the partner's parent's frame mirrored (the partner's
 * parent-side correction q: translation q t, rotation q r conj(q), binary64
 * rounded once; untouched where q is the identity bit for bit), its
 * source's axes following that turn (each axis to the axis q takes it to,
 * the yaw kept where q keeps the Y axis on itself, else the whole rotation;
 * all axes, and the whole rotation, where q takes an axis off the axes).
 * Mirroring a clip twice through a map whose corrections are the identity
 * gives its samples back bit for bit.
 * Returns mani_success; mani_errorInvalid with maniBuildReasonNone for a
 * NULL builder, source or field; maniBuildReasonMirrorClip (other 0 the
 * skeleton, 1 the clip: a skeleton not the map's, a clip not of the map's
 * skeleton or not opened); maniBuildReasonBasis (item the bone, other the
 * sample) for an additive clip whose difference from its basis mirrored is
 * not finite; maniBuildReasonNotFinite (item the bone, other the sample)
 * for a mirrored value past binary32, or maniBuildReasonRootMotion (item the
 * partner, other the sample) for a mirrored move past it; mani_errorCapacity
 * when memory runs out. A rotation whose squared length is more than 1e-6
 * from 1 (products of rotations at the open's tolerance) is made unit
 * (binary64, rounded once); every other keeps its bits. On failure the
 * builder keeps what it held. Safe from any thread; the builder is used by
 * one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildMirroredClip(maniBuilder* builder, const maniMirrorClipSource* source);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_MIRRORBUILD_H */
