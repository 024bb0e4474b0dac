/* The FBX importer's internal document (import.h): the record tree
 * maniOpenFbx checked, binary or ASCII, over the caller's bytes. Every node's
 * name and every property's bytes lie inside the bytes given to the open;
 * every index below names an entry in range or is MANI_FBX_NONE. Numbers are
 * converted and arrays decoded only by the readers here (fbx_doc.c).
 *
 * A node is a record ("Name:" in ASCII); its properties are its values. An
 * ASCII array ("Vertices: *24 { a: ... }") is a node with one property of
 * type MANI_FBX_ASCII_ARRAY (the count) and a child "a" holding the values. */
#ifndef MAUL_ANIM_IMPORT_FBX_INTERNAL_H
#define MAUL_ANIM_IMPORT_FBX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/import.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No entry: a node without children, a top-level node's parent. */
#define MANI_FBX_NONE 0xFFFFFFFFu

/* Property types: binary FBX's type codes; ASCII numbers, strings, words
 * and array counts get their own. */
#define MANI_FBX_ASCII_NUMBER 'N' /* a number's text (offset, length) */
#define MANI_FBX_ASCII_WORD 'W'   /* a one-letter word (T, Y, ...) */
#define MANI_FBX_ASCII_ARRAY '*'  /* "*N": count N, the values in the child "a" */
/* Binary: 'C' (bool byte), 'Y' (int16), 'I' (int32), 'L' (int64), 'F' (binary32),
 * 'D' (binary64), 'S' (string), 'R' (raw bytes), arrays 'b', 'i', 'l', 'f', 'd'.
 * ASCII strings are 'S' too (the text between the quotes). */

typedef struct mani_FbxProp {
    uint8_t type;     /* a type code above */
    uint8_t encoding; /* binary arrays: 0 raw, 1 deflated; else 0 */
    uint8_t pad[2];
    uint32_t count;   /* arrays: the element count; else 0 */
    uint64_t offset;  /* the value's bytes (binary: past its header; ASCII: the text) */
    uint64_t length;  /* their length (deflated arrays: the compressed length) */
} mani_FbxProp;

typedef struct mani_FbxNode {
    uint64_t offset;      /* the record's first byte (ASCII: its key) */
    uint64_t nameOffset;  /* the name's bytes */
    uint32_t nameLength;
    uint32_t parent;      /* MANI_FBX_NONE at the top level */
    uint32_t firstChild;  /* MANI_FBX_NONE for none */
    uint32_t next;        /* the next sibling, MANI_FBX_NONE for the last */
    uint32_t firstProp;   /* its properties are props[firstProp .. firstProp + propCount) */
    uint32_t propCount;
} mani_FbxNode;

/* A model: its record and its bone name (import.h: its name without its
 * class, or name#index when it has none or repeats an earlier one). */
typedef struct mani_FbxModel {
    uint32_t node;       /* its Model record */
    uint32_t renamed;    /* 1 when the bone name is not the name */
    const char* name;    /* the name without its class: in the bytes; length 0 for none */
    const char* boneName; /* in the bytes, or in memory the document holds */
    uint32_t nameLength;
    uint32_t boneNameLength;
} mani_FbxModel;

/* A skin: a Deformer of subclass Skin, or (the legacy layout, FBX 5 and
 * older) a top-level mesh Model holding Link records, its clusters. */
typedef struct mani_FbxSkin {
    uint32_t node;   /* its Deformer record, or the legacy mesh Model */
    uint32_t model;  /* the model whose mesh it deforms, MANI_FBX_NONE for none */
    uint32_t method; /* maniSkinningMethod */
    uint32_t legacy; /* 1: Link records on the mesh model (each a bone by name) */
} mani_FbxSkin;

/* An object-object connection: child and parent objects (7.x: "C: OO"
 * by id; 6.x: "Connect: OO" by name; legacy: "Children" names). */
typedef struct mani_FbxLink {
    uint32_t child;
    uint32_t parent;
    uint32_t node; /* the record that makes it */
} mani_FbxLink;

struct maniFbx {
    maniBuilder* builder;
    const uint8_t* bytes;
    uint64_t size;
    uint32_t version;
    uint8_t ascii;     /* 1 for an ASCII file */
    uint8_t bigEndian; /* 1 for a big-endian binary file */
    uint8_t closing;   /* set from the first line of the close */
    uint8_t pad;
    mani_FbxNode* nodes;
    uint32_t nodeCount, nodeCapacity;
    mani_FbxProp* props;
    uint32_t propCount, propCapacity;
    uint32_t firstTop; /* the first top-level node, MANI_FBX_NONE for none */
    uint32_t modelCount;
    mani_FbxModel* models;     /* modelCount, in the order of the file's Objects (then top-level legacy ones) */
    uint32_t renamedCount;
    uint32_t pad2;
    uint32_t* renamed;         /* the renamed models, in model order */
    struct mani_FbxBlock* blocks; /* memory the document owns (bone names made, tables) */
    uint32_t skinCount;
    uint32_t pad3;
    mani_FbxSkin* skins;       /* skinCount, in object order */
    /* The object graph (fbx_graph.c), read by the open after the skins. */
    uint32_t objectCount;
    uint32_t linkCount;
    uint32_t* objects;         /* objectCount records: Objects' children (then top-level legacy Models) */
    mani_FbxLink* links;       /* linkCount object-object connections, in file order */
    uint32_t* modelObject;     /* modelCount: each model's object */
    uint32_t* objectModel;     /* objectCount: the object's model, MANI_FBX_NONE for another kind */
    uint32_t* objectChildModel; /* objectCount: the model of the first link to the object, MANI_FBX_NONE */
    uint32_t* modelParent;     /* modelCount: the parent model (the first link to one), MANI_FBX_NONE at the top */
    uint32_t* modelSkeleton;   /* modelCount: the skeleton a model is part of, MANI_FBX_NONE for none */
    uint32_t* skinSkeleton;    /* skinCount: a skin's skeleton, MANI_FBX_NONE when it links no model */
    uint32_t skeletonCount;
    uint32_t pad4;
};

/* Memory the document owns, freed by the close (zeroed; NULL when the
 * allocator fails or size is 0). */
void* mani_FbxAlloc(maniFbx* fbx, size_t size);

/* Reads the models and gives them bone names (fbx_models.c); part of the open. */
maniImportResult mani_FbxReadModels(maniFbx* fbx);

/* Reads the skins, their mesh models (through Connections) and methods
 * (fbx_models.c); part of the open, after the models. */
maniImportResult mani_FbxReadSkins(maniFbx* fbx);

/* Reads the object graph: objects, connections, model parents (a parent
 * cycle refused: Property, item the model, offset the link's record) and
 * the skeletons (fbx_graph.c); part of the open, after the skins. */
maniImportResult mani_FbxReadGraph(maniFbx* fbx);

/* A skin's clusters' joint models in cluster order (out holds capacity;
 * MANI_FBX_NONE for a cluster linking no model), clusters' records into
 * clusters when not NULL (a legacy skin's: its Link records, each linking
 * the model of its name). Returns the cluster count. */
uint32_t mani_FbxSkinClusters(const maniFbx* fbx, uint32_t skin, uint32_t* models, uint32_t* clusters,
                              uint32_t capacity);

/* The value properties of an object's Properties70 ("P", values from the
 * fifth) or Properties60 ("Property", from the fourth) entry of that name:
 * the entry's record and the index of its first value; MANI_FBX_NONE for
 * none. */
uint32_t mani_FbxFindSetting(const maniFbx* fbx, uint32_t block, const char* name, uint32_t* valueAt);

/* An object's Properties70, else Properties60, MANI_FBX_NONE for none. */
uint32_t mani_FbxPropertiesOf(const maniFbx* fbx, uint32_t node);

/* The first child of a node (node MANI_FBX_NONE: the top level) whose name
 * is the NUL-terminated name, MANI_FBX_NONE for none. */
uint32_t mani_FbxFind(const maniFbx* fbx, uint32_t node, const char* name);

/* The next sibling after node with the same name, MANI_FBX_NONE for none. */
uint32_t mani_FbxFindNext(const maniFbx* fbx, uint32_t node);

/* Whether a value's text is an ASCII FBX number (decimal, infinities and
 * NaNs in the forms C libraries and MSVC print). */
int mani_FbxIsNumberText(const uint8_t* text, uint64_t length);

/* An unsigned integer of 1 to 8 bytes at a byte offset, in the file's byte
 * order (the caller has checked the bytes are there). */
uint64_t mani_FbxLoad(const maniFbx* fbx, uint64_t at, unsigned bytes);

/* A node's property, NULL past its count. */
const mani_FbxProp* mani_FbxGetProp(const maniFbx* fbx, uint32_t node, uint32_t index);

/* Converts a scalar property (binary C, Y, I, L, F, D; ASCII numbers and the
 * words T/Y (1) and F/N (0)) to binary64. Returns 1, or 0 (*out unchanged)
 * for another type or an ASCII number that does not read. */
int mani_FbxPropDouble(const maniFbx* fbx, const mani_FbxProp* prop, double* out);

/* Converts a scalar property to int64 (binary64 values truncated toward 0,
 * refused outside int64's range or when not finite). */
int mani_FbxPropInt(const maniFbx* fbx, const mani_FbxProp* prop, int64_t* out);

/* A string property's bytes (S or R), NULL for another type. */
const char* mani_FbxPropString(const maniFbx* fbx, const mani_FbxProp* prop, uint32_t* lengthOut);

/* A node's array: its element count (binary arrays; ASCII arrays: the values
 * of its child "a"; a record whose values are all numbers, as 6.x and older
 * write arrays: their count), 0 for none. */
uint32_t mani_FbxArrayCount(const maniFbx* fbx, uint32_t node);

/* Decodes a node's array (its first property) into count binary64 values,
 * count mani_FbxArrayCount's: deflated arrays inflated straight into out
 * (scratch the caller's, at least count * 8 bytes) and refused unless the
 * stream gives exactly the header's size. Returns mani_success, or
 * mani_errorFormat (maniImportReasonData, offset at the array) for a stream
 * zlib refuses, a size other than the header's or an ASCII value that does
 * not read; mani_errorInvalid for a node without an array or count not its. */
maniImportResult mani_FbxReadArray(const maniFbx* fbx, uint32_t node, double* out, uint32_t count);

/* -- clips ------------------------------------------------------------------- */

/* A clip's record (fbx_clips.c): the clip-th AnimationStack of Objects
 * (7000 and later) or Take of Takes (before), MANI_FBX_NONE past the count;
 * clip UINT32_MAX gives the count. */
uint32_t mani_FbxClipNode(const maniFbx* fbx, uint32_t clip);

#define MANI_FBX_KTIME_PER_SECOND 46186158000.0

/* A key's interpolation to the next key. */
#define MANI_FBX_INTERP_CONSTANT 0u      /* its own value */
#define MANI_FBX_INTERP_CONSTANT_NEXT 1u /* the next key's value */
#define MANI_FBX_INTERP_LINEAR 2u
#define MANI_FBX_INTERP_CUBIC 3u

/* Extrapolation before the first and after the last key. */
#define MANI_FBX_EXTRAPOLATE_CONSTANT 0u
#define MANI_FBX_EXTRAPOLATE_REPEAT 1u
#define MANI_FBX_EXTRAPOLATE_MIRROR 2u
#define MANI_FBX_EXTRAPOLATE_SLOPE 3u
#define MANI_FBX_EXTRAPOLATE_REPEAT_RELATIVE 4u

/* A key as ufbx holds it: time in seconds, its tangents as offsets (dx in
 * seconds, dy in the value) toward the previous (left) and next (right)
 * keys. */
typedef struct mani_FbxCurveKey {
    double time, value;
    double leftDx, leftDy, rightDx, rightDy;
    uint32_t interpolation; /* MANI_FBX_INTERP_... */
    uint32_t pad;
} mani_FbxCurveKey;

typedef struct mani_FbxCurve {
    mani_FbxCurveKey* keys; /* count keys, times not decreasing */
    uint32_t count;
    uint32_t preMode, postMode; /* MANI_FBX_EXTRAPOLATE_... */
    int32_t preRepeat, postRepeat; /* repetitions, -1 for endless */
    uint32_t pad;
    double defaultValue; /* Default: the value of a curve without keys */
} mani_FbxCurve;

/* An AnimationCurve's key count (KeyTime's) and the binary64 scratch
 * mani_FbxReadCurve needs for it (fbx_curves.c). */
uint32_t mani_FbxCurveKeyCount(const maniFbx* f, uint32_t node);
size_t mani_FbxCurveScratch(const maniFbx* f, uint32_t node);

/* Reads an AnimationCurve record into keys (capacity at least its key
 * count; scratch mani_FbxCurveScratch's doubles). Property (offset the
 * record or array) for arrays ufbx refuses (of different counts, too few
 * attribute runs), times not finite or decreasing, a value or slope not
 * finite; Data for an array that does not decode. */
maniImportResult mani_FbxReadCurve(const maniFbx* f, uint32_t node, double* scratch, mani_FbxCurveKey* keys,
                                   uint32_t capacity, mani_FbxCurve* out);

/* A take's curve (a Channel with KeyCount and Key, before 7000): its key
 * count (0 without keys, or when Key is too short for it), and its keys
 * read as ufbx reads them (time, value, then 'U' cubic with its slope and
 * weight modes, 'L' linear or 'C' constant with 'n' for the next value).
 * Property (offset the Key record) for a list that does not read. */
uint32_t mani_FbxTakeCurveKeyCount(const maniFbx* f, uint32_t channel);
maniImportResult mani_FbxReadTakeCurve(const maniFbx* f, uint32_t channel, mani_FbxCurveKey* keys, uint32_t capacity,
                                       mani_FbxCurve* out);

/* A curve's value at a time in seconds, extrapolated past its keys. */
double mani_FbxEvalCurve(const mani_FbxCurve* c, double seconds);

/* -- morph weight tracks (fbx_morph.c, for maniBuildFbxClip) ------------------------ */

/* FullWeights past this many values (that are not per-vertex weights) are refused as Data. */
#define MANI_FBX_MORPH_MAX_FULL 1024u
/* The bytes a channel's built name takes, '#' and its index appended while
 * an earlier channel has it (at most this many). */
#define MANI_FBX_MORPH_NAME_ROOM (MANI_MAX_NAME_BYTES + 64u)

/* A walk over a set's channels, as maniBuildFbxMorphTargets and
 * maniFbx_GetMorphWeights go: mani_FbxMorphWalkStart, then
 * mani_FbxMorphWalkNext for every channel in order. Large (a channel's
 * keys): the caller's memory, not its stack. */
typedef struct mani_FbxMorphWalk {
    uint32_t setNode, mesh, legacy, blender, cursor;
    uint32_t index;          /* the channel's index in the set (channels without shapes counted) */
    uint32_t built;          /* channels with targets before it */
    uint32_t channel;        /* its record */
    uint32_t owner;          /* the record whose property its DeformPercent is: the channel, or (Shape
                                children before 7.2) the mesh */
    uint32_t propertyLength;
    const char* property;    /* "DeformPercent", or the shape's name */
    uint32_t targets;        /* its targets; 0 for a channel without shapes (no weight tracks) */
    uint32_t keyCount;       /* keys: the targets' full weights and an implicit zero shape, increasing */
    double restPercent;      /* DeformPercent at rest (maniFbx_GetMorphWeights) */
    double keys[MANI_FBX_MORPH_MAX_FULL + 2u];
    int32_t keyTarget[MANI_FBX_MORPH_MAX_FULL + 2u]; /* each key's target, -1 for the zero shape */
    uint32_t shape[MANI_FBX_MORPH_MAX_FULL + 1u];    /* each target's shape record */
    const char* name;        /* the channel's built name (in the bytes or nameRoom) */
    size_t nameLength;
    char nameRoom[MANI_FBX_MORPH_NAME_ROOM];
} mani_FbxMorphWalk;

/* Starts a walk over a set; 0 for a set past the count. */
int mani_FbxMorphWalkStart(const maniFbx* f, uint32_t morph, mani_FbxMorphWalk* w);

/* Reads the next channel into w: success with w->channel MANI_FBX_NONE past
 * the last; Data (item the channel's index) as maniFbx_GetMorphWeights.
 * earlierNames/earlierLengths hold the built names of the channels with
 * targets before (w->built of them; a channel's name is taken into
 * nameRoom, '#' and its index appended, while one of them has it). */
maniImportResult mani_FbxMorphWalkNext(const maniFbx* f, mani_FbxMorphWalk* w, const char* const* earlierNames,
                                       const size_t* earlierLengths);

/* The channel's target weights for a channel weight (DeformPercent / 100 as
 * binary32), walked through its keys as maniMorphTargets_ComputeTargetWeights
 * walks them: out holds w->targets. */
void mani_FbxMorphWalkWeights(const mani_FbxMorphWalk* w, double weight, float* out);

/* Target t's name as the built morph targets give it (its shape's name, else
 * the channel's with '/' and t past the first) into out (room
 * MANI_FBX_MORPH_NAME_ROOM + 12); returns its length. */
size_t mani_FbxMorphTargetName(const maniFbx* f, const mani_FbxMorphWalk* w, uint32_t t, char* out);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_IMPORT_FBX_INTERNAL_H */
