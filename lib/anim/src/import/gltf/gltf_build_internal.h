/* The glTF builders' internal parts (maniBuildGltfSkeleton through
 * maniBuildGltfClip): binary64 transforms and the basis change
 * (gltf_build_math.c), and the document queries they make
 * (gltf_build_doc.c, over gltf_internal.h's tables). */
#ifndef MAUL_ANIM_IMPORT_GLTF_BUILD_INTERNAL_H
#define MAUL_ANIM_IMPORT_GLTF_BUILD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/import.h"

/* -- Transforms ------------------------------------------------------------------- */

/* An affine transform in binary64: l the linear part by columns (l[3 c + r]
 * row r of column c), t the translation. */
typedef struct mani_GbXf {
    double l[9];
    double t[3];
} mani_GbXf;

void mani_GbIdentity(mani_GbXf* x);
/* x = T(t) R(q) S(s). */
void mani_GbFromTrs(const double t[3], const double q[4], const double s[3], mani_GbXf* x);
/* out = a b (b applied first); out may be a or b. */
void mani_GbMul(const mani_GbXf* a, const mani_GbXf* b, mani_GbXf* out);
/* out = x^-1; 0 when x's linear part is singular or the inverse is not finite. */
int mani_GbInverse(const mani_GbXf* x, mani_GbXf* out);
void mani_GbToAffine(const mani_GbXf* x, maniAffine* out);
/* Splits x into a rest transform as maniDecomposeAffine does, after checking
 * it has no shear: 0 when it is not finite, or when T R S rebuilt differs
 * from x by more than 1e-5 of its largest column (a matrix glTF does not
 * allow, as it cannot be animated or made a bone). */
int mani_GbSplit(const mani_GbXf* x, maniTransform* out);

/* The basis change B = unit M, M the signed permutation the options' up and
 * front axes make: output component r is sign[r] times glTF's component
 * axis[r]. */
typedef struct mani_GbBasis {
    int axis[3];
    double sign[3];
    double unit;
} mani_GbBasis;

/* Checks options as import.h says (cookies, ABI version, settings) and makes
 * the basis: mani_success, mani_errorInvalid or mani_errorVersion. */
maniResult mani_GbCheckOptions(const maniGltfOptions* options, mani_GbBasis* basisOut);

/* B v (a position, a length: turned and scaled). */
void mani_GbBasisVector(const mani_GbBasis* b, const double v[3], double out[3]);
/* M v (a direction: turned). */
void mani_GbBasisDirection(const mani_GbBasis* b, const double v[3], double out[3]);
/* The rotation M R M^-1 as a quaternion (x, y, z, w). */
void mani_GbBasisQuat(const mani_GbBasis* b, const double q[4], double out[4]);
/* The scale of M S M^-1: components permuted. */
void mani_GbBasisScale(const mani_GbBasis* b, const double s[3], double out[3]);
/* B x B^-1. */
void mani_GbBasisXf(const mani_GbBasis* b, const mani_GbXf* x, mani_GbXf* out);

/* -- Document queries ------------------------------------------------------------- */

#define MANI_GB_NONE 0xFFFFFFFFu

/* A node's parent (MANI_GB_NONE for a root) and children in its "children"
 * order. */
uint32_t mani_GbNodeParent(const maniGltf* g, uint32_t node);
uint32_t mani_GbNodeChildCount(const maniGltf* g, uint32_t node);
uint32_t mani_GbNodeChild(const maniGltf* g, uint32_t node, uint32_t index);
/* A node's local transform (its matrix, or T R S with glTF's defaults);
 * *isMatrix set when it is given by a matrix. 0 for a matrix whose last row
 * is not 0 0 0 1 or that is not finite. */
int mani_GbNodeLocal(const maniGltf* g, uint32_t node, mani_GbXf* out, int* isMatrix);
/* A node's T R S when it has no matrix (glTF's defaults for what it omits). */
void mani_GbNodeTrs(const maniGltf* g, uint32_t node, double t[3], double q[4], double s[3]);

uint32_t mani_GbSkinJointCount(const maniGltf* g, uint32_t skin);
uint32_t mani_GbSkinJoint(const maniGltf* g, uint32_t skin, uint32_t index);
/* The skin's inverseBindMatrices accessor, or MANI_GB_NONE. */
uint32_t mani_GbSkinInverseBinds(const maniGltf* g, uint32_t skin);

/* An accessor's shape. */
typedef struct mani_GbAccessor {
    uint32_t count;
    uint32_t components;    /* 1, 2, 3, 4, 4 (MAT2), 9 (MAT3), 16 (MAT4) */
    uint32_t componentType; /* glTF's: 5120 byte ... 5126 float */
    uint32_t normalized;
    uint32_t isMatrix;      /* MAT2, MAT3 or MAT4 */
} mani_GbAccessor;

/* 0 for an accessor past the count. */
int mani_GbAccessorShape(const maniGltf* g, uint32_t accessor, mani_GbAccessor* out);
/* Reads every element (sparse values applied) as floats, count *
 * components: floats as they are, normalized integers as glTF defines them,
 * other integers converted. Refusals as import.h's reasons (Pending for an
 * unsupplied buffer, Data, Property). out holds count * components floats. */
maniImportResult mani_GbReadFloats(const maniGltf* g, uint32_t accessor, float* out);
/* Reads every element as unsigned integers (integer component types only;
 * Property otherwise). */
maniImportResult mani_GbReadUints(const maniGltf* g, uint32_t accessor, uint32_t* out);

/* A primitive's attribute accessor by name (target MANI_GB_NONE: the
 * primitive's own attributes), or MANI_GB_NONE. */
uint32_t mani_GbAttribute(const maniGltf* g, uint32_t mesh, uint32_t primitive, uint32_t target, const char* name,
                          size_t length);
/* The index-th attribute of a primitive or target: its name and accessor;
 * 0 past the count. */
int mani_GbAttributeAt(const maniGltf* g, uint32_t mesh, uint32_t primitive, uint32_t target, uint32_t index,
                       const char** name, size_t* length, uint32_t* accessor);
/* A view's byteOffset in its buffer. */
uint64_t mani_GbViewOffset(const maniGltf* g, uint32_t view);
/* The mesh's extras.targetNames[target] when it is an array of strings with
 * an entry per target of the primitive, else NULL: in the document, or
 * after its escapes in buffer (capacity bytes). */
const char* mani_GbTargetName(const maniGltf* g, uint32_t mesh, uint32_t targetCount, uint32_t target,
                              char* buffer, size_t capacity, size_t* length);

/* What a channel animates. */
typedef enum mani_GbPath {
    mani_GbPathTranslation = 0,
    mani_GbPathRotation = 1,
    mani_GbPathScale = 2,
    mani_GbPathWeights = 3,
    mani_GbPathPointer = 4, /* KHR_animation_pointer to something other than a node's T/R/S/weights */
    mani_GbPathOther = 5    /* a path not read */
} mani_GbPath;

typedef struct mani_GbChannel {
    uint32_t node;          /* for node paths */
    uint32_t path;          /* mani_GbPath */
    uint32_t input;         /* the sampler's accessors */
    uint32_t output;
    uint32_t interpolation; /* maniInterpolation */
    const char* pointer;    /* mani_GbPathPointer: the JSON pointer, after escapes */
    size_t pointerLength;
} mani_GbChannel;

uint32_t mani_GbChannelCount(const maniGltf* g, uint32_t animation);
/* 0 for a channel or sampler the document refuses (past its arrays). */
int mani_GbChannelAt(const maniGltf* g, uint32_t animation, uint32_t channel, mani_GbChannel* out);

/* -- Builder plumbing ------------------------------------------------------------- */

struct maniBuilder;

/* Scratch blocks from the builder's allocator, freed together. */
#define MANI_GB_SCRATCH_BLOCKS 24
typedef struct mani_GbScratch {
    struct maniBuilder* builder;
    void* block[MANI_GB_SCRATCH_BLOCKS];
    size_t size[MANI_GB_SCRATCH_BLOCKS];
    uint32_t count;
} mani_GbScratch;

void mani_GbScratchInit(mani_GbScratch* s, struct maniBuilder* builder);
/* NULL when the allocator fails, the size is 0 or every block is taken. */
void* mani_GbAlloc(mani_GbScratch* s, size_t size);
void mani_GbScratchFree(mani_GbScratch* s);

maniImportResult mani_GbImportResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset);
/* A build's result as an import's: success, Capacity and Busy as they are;
 * any refusal mani_errorFormat with maniImportReasonBuild, the build reason
 * (with its list bit) as the item. */
maniImportResult mani_GbFromBuild(maniBuildResult r);
/* The entry of every builder: a NULL builder mani_errorInvalid; a call back
 * in from the allocator mani_errorBusy (counted); a NULL document or options
 * mani_errorInvalid and a misuse; options refused (their code) and a misuse.
 * Fills the basis. */
maniImportResult mani_GbEnter(struct maniBuilder* b, const maniGltf* g, const maniGltfOptions* options,
                              mani_GbBasis* basis);
/* mani_errorInvalid, counted as a misuse. */
maniImportResult mani_GbMisuse(struct maniBuilder* b);
/* Checks clip options as import.h says (cookies, ABI version, rate, loop,
 * basis, root motion bone and flags on the skeleton): mani_success,
 * mani_errorInvalid or mani_errorVersion (gltf_build_clip.c; the FBX clips
 * check theirs "as maniBuildGltfClip"). */
maniResult mani_GbCheckClipOptions(const maniImportClipOptions* o, const maniSkeleton* skeleton);

/* maniBuildClip on an import's channels and float tracks with the clip
 * options' loop, additive basis and root motion (gltf_build_clip.c): 0 when
 * the root motion bone has no channel (the import's Build/RootMotion), else 1
 * with the build's result. */
int mani_GbBuildImportedClip(maniBuilder* builder, const maniSkeleton* skeleton, float duration, float rate,
                             const maniImportClipOptions* clipOptions, const maniClipSourceChannel* channels,
                             uint32_t channelCount, const maniClipSourceFloatTrack* floatTracks,
                             uint32_t floatTrackCount, maniBuildResult* builtOut);

/* -- KHR_draco_mesh_compression (gltf_build_draco.c) ------------------------------ */

#include "lib/anim/src/import/draco/draco.h"

/* A primitive's decoded Draco stream (active 0: the primitive has none). */
typedef struct mani_GbDraco {
    int active;
    uint32_t map; /* the extension's attributes object */
    maniDracoMesh mesh;
} mani_GbDraco;

/* Decodes a primitive's stream through the builder's allocator and checks it
 * as import.h says: Property (item the mesh) for the extension without its
 * view or attributes, a name not among the primitive's or an id not in the
 * stream; Property (item the accessor) for an accessor not matching its
 * attribute (count, component type and count); Data (item the view, offset
 * in its buffer of the refused byte) for a stream the decoder refuses;
 * Pending; Capacity. Success with active 0 for a primitive without the
 * extension. Close what it opened with mani_GbDracoClose. */
maniImportResult mani_GbDracoOpen(struct maniBuilder* builder, const maniGltf* g, uint32_t mesh, uint32_t primitive,
                                  mani_GbDraco* out);
void mani_GbDracoClose(mani_GbDraco* d);
/* Reads the set named name from the stream when the extension names it (1),
 * as floats (the accessor's normalized deciding) and/or uints, count *
 * components values in the stream's point order; 0 when the stream does not
 * hold it (read it from its view). */
int mani_GbDracoRead(const mani_GbDraco* d, const maniGltf* g, const char* name, size_t length, uint32_t accessor,
                     float* floats, uint32_t* uints);

#endif
