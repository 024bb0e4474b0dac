/* The glTF importer's internal document (import.h): what maniOpenGltf
 * checked and kept, for the document's queries (gltf_doc.c) and the builds
 * (skeletons, skins, influences, morph targets, clips). Everything here was
 * range-checked at the open: every index below names an object in range or
 * is MANI_GLTF_NONE, every view lies inside its buffer, every accessor's
 * elements inside its view. Data in external buffers may be missing until
 * maniGltf_SupplyBuffer: mani_GltfViewBytes and the accessor readers say
 * Pending.
 *
 * Strings (names, URIs, semantics, pointers) are after their JSON escapes,
 * UTF-8, not terminated: in the document's bytes when the JSON text has no
 * escape in them, else in memory the document holds.
 *
 * The JSON (json, with the text's offset in the bytes given to the open in
 * jsonOffset) stays readable for what the tables leave out (extras,
 * extensions such as VRMC_springBone): each table entry keeps its object's
 * token. Token offsets are in the JSON text; add jsonOffset for a result's
 * offset.
 *
 * Stable: later additions are appended to the structs (announced), nothing
 * renamed or removed. */
#ifndef MAUL_ANIM_IMPORT_GLTF_INTERNAL_H
#define MAUL_ANIM_IMPORT_GLTF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/json/json.h"
#include "maul/anim/import.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No object: an absent index (a node without mesh, a root's parent, an
 * accessor without view, a JSON member left out). */
#define MANI_GLTF_NONE 0xFFFFFFFFu

/* glTF's componentType values. */
#define MANI_GLTF_BYTE 5120u
#define MANI_GLTF_UNSIGNED_BYTE 5121u
#define MANI_GLTF_SHORT 5122u
#define MANI_GLTF_UNSIGNED_SHORT 5123u
#define MANI_GLTF_UNSIGNED_INT 5125u
#define MANI_GLTF_FLOAT 5126u

/* An accessor's type: its component count is the value (MAT2 4, MAT3 9,
 * MAT4 16); columns for the matrices (2, 3, 4; 1 for the others). */
typedef enum mani_GltfType {
    mani_gltfScalar = 1,
    mani_gltfVec2 = 2,
    mani_gltfVec3 = 3,
    mani_gltfVec4 = 4,
    mani_gltfMat2 = 0x204, /* components 4, columns 2: (type & 0xff) components, (type >> 8) columns */
    mani_gltfMat3 = 0x309,
    mani_gltfMat4 = 0x410
} mani_GltfType;

static inline uint32_t mani_GltfTypeComponents(uint32_t type) { return type & 0xFFu; }
static inline uint32_t mani_GltfTypeColumns(uint32_t type) { return type >> 8 ? type >> 8 : 1u; }

/* A string after its escapes, not terminated. text is NULL (length 0) for
 * a string left out; an empty string has a non-NULL text. */
typedef struct mani_GltfString {
    const char* text;
    uint32_t length;
    uint32_t token; /* its JSON token, or MANI_GLTF_NONE */
} mani_GltfString;

/* Where a buffer's bytes come from. */
typedef enum mani_GltfBufferKind {
    mani_gltfBufferGlb = 0,      /* GLB's BIN chunk (buffer 0 without a uri) */
    mani_gltfBufferData = 1,     /* a data: URI, decoded into the document */
    mani_gltfBufferExternal = 2, /* a URI the host resolves and supplies */
    mani_gltfBufferUnread = 3    /* never read: a meshopt fallback, or no uri and only compressed views */
} mani_GltfBufferKind;

typedef struct mani_GltfBuffer {
    uint32_t token;
    uint32_t kind;         /* mani_GltfBufferKind */
    uint64_t byteLength;
    mani_GltfString uri;   /* external and data: buffers */
    const uint8_t* data;   /* byteLength bytes, or NULL (external not supplied yet, unread) */
} mani_GltfBuffer;

typedef struct mani_GltfView {
    uint32_t token;
    uint32_t buffer;      /* the buffer in the JSON (for a meshopt view: its fallback buffer) */
    uint64_t byteOffset;
    uint64_t byteLength;
    uint32_t byteStride;  /* 0 when left out */
    uint32_t target;      /* 34962, 34963 or 0 */
    /* EXT_meshopt_compression / KHR_meshopt_compression (meshopt != 0): the
     * stream in source buffer's [sourceOffset, + sourceLength), count
     * elements of stride bytes, decoded into decoded (count * stride bytes,
     * the view's bytes in place of the fallback's) once present. */
    uint32_t meshopt;     /* 0 none, 1 EXT, 2 KHR */
    uint32_t mode;        /* maniMeshoptMode */
    uint32_t filter;      /* maniMeshoptFilter */
    uint32_t source;      /* the stream's buffer */
    uint64_t sourceOffset;
    uint64_t sourceLength;
    uint64_t count;
    uint32_t stride;
    uint8_t* decoded;     /* NULL until decoded */
} mani_GltfView;

typedef struct mani_GltfAccessor {
    uint32_t token;
    uint32_t view;          /* or MANI_GLTF_NONE (zeros, unless sparse) */
    uint64_t byteOffset;
    uint32_t componentType; /* MANI_GLTF_... */
    uint32_t normalized;    /* 0 or 1 */
    uint32_t type;          /* mani_GltfType */
    uint32_t count;         /* elements, at least 1 */
    uint32_t componentSize; /* 1, 2 or 4 */
    uint32_t elementSize;   /* bytes of one element with its matrix column padding */
    uint32_t stride;        /* the view's byteStride, or elementSize */
    uint32_t minToken;      /* min array's token (its length checked), or MANI_GLTF_NONE */
    uint32_t maxToken;
    /* sparse (sparseCount > 0): indices (componentType sparseIndexType) and
     * values (the accessor's componentType and type, tightly packed). */
    uint32_t sparseCount;
    uint32_t sparseIndexType;
    uint32_t sparseIndexView;
    uint64_t sparseIndexOffset;
    uint32_t sparseValueView;
    uint64_t sparseValueOffset;
} mani_GltfAccessor;

/* A node's transform: TRS (defaults 0, identity, 1) or a matrix. */
typedef struct mani_GltfNode {
    uint32_t token;
    uint32_t parent;        /* or MANI_GLTF_NONE */
    uint32_t childStart;    /* children: g->children[childStart, + childCount), in JSON order */
    uint32_t childCount;
    mani_GltfString name;   /* as given (text NULL when left out) */
    mani_GltfString boneName; /* name, or name#node (import.h) */
    uint32_t renamed;       /* 1 when boneName is not name */
    uint32_t hasMatrix;     /* 1: matrix holds the transform (TRS at their defaults) */
    float matrix[16];       /* column-major, as glTF stores it; identity when left out */
    float translation[3];
    float rotation[4];      /* x, y, z, w */
    float scale[3];
    uint32_t mesh;          /* or MANI_GLTF_NONE */
    uint32_t skin;          /* or MANI_GLTF_NONE */
    uint32_t weightsToken;  /* the node's weights array, or MANI_GLTF_NONE */
    uint32_t skeleton;      /* the skeleton whose nodes it is in (skeletons never share a node), or MANI_GLTF_NONE */
} mani_GltfNode;

typedef struct mani_GltfSkin {
    uint32_t token;
    mani_GltfString name;
    uint32_t jointStart;          /* joints: g->joints[jointStart, + jointCount) (nodes) */
    uint32_t jointCount;
    uint32_t inverseBindMatrices; /* a MAT4 FLOAT accessor of at least jointCount elements, or MANI_GLTF_NONE */
    uint32_t skeletonNode;        /* skin.skeleton as given, or MANI_GLTF_NONE (not used for the hierarchy) */
    uint32_t skeleton;            /* the skeleton it is part of */
} mani_GltfSkin;

/* A skeleton: the union of its skins' joints' hierarchies (import.h). */
typedef struct mani_GltfSkeleton {
    uint32_t lowestSkin;
    uint32_t nodeStart;  /* nodes: g->skeletonNodes[nodeStart, + nodeCount), ascending node index */
    uint32_t nodeCount;
    uint32_t rootStart;  /* roots (nodes whose parent is not in the skeleton): g->skeletonRoots[rootStart, + rootCount),
                            ascending */
    uint32_t rootCount;
} mani_GltfSkeleton;

/* A primitive attribute ("POSITION", "JOINTS_1", "_CUSTOM"): the semantic as
 * given, the length of its name before "_<set>" and the set (the decimal
 * digits after the last '_' when there are any and no leading zero;
 * MANI_GLTF_NONE otherwise, with baseLength the whole length). */
typedef struct mani_GltfAttribute {
    mani_GltfString semantic;
    uint32_t baseLength;
    uint32_t set;
    uint32_t accessor;
} mani_GltfAttribute;

typedef struct mani_GltfTarget {
    uint32_t token;
    uint32_t attributeStart; /* g->attributes[attributeStart, + attributeCount) */
    uint32_t attributeCount;
} mani_GltfTarget;

typedef struct mani_GltfPrimitive {
    uint32_t token;
    uint32_t attributeStart; /* g->attributes[attributeStart, + attributeCount), in JSON order */
    uint32_t attributeCount;
    uint32_t indices;        /* accessor, or MANI_GLTF_NONE */
    uint32_t mode;           /* 0..6, default 4 */
    uint32_t targetStart;    /* g->targets[targetStart, + targetCount) */
    uint32_t targetCount;
    uint32_t dracoToken;     /* extensions.KHR_draco_mesh_compression's object, or MANI_GLTF_NONE */
    uint32_t dracoView;      /* its bufferView when a valid index, else MANI_GLTF_NONE */
    uint32_t dracoAttributesToken; /* its attributes object, or MANI_GLTF_NONE */
} mani_GltfPrimitive;

typedef struct mani_GltfMesh {
    uint32_t token;
    mani_GltfString name;
    uint32_t primitiveStart; /* g->primitives[primitiveStart, + primitiveCount) */
    uint32_t primitiveCount;
    uint32_t weightsToken;   /* or MANI_GLTF_NONE */
    uint32_t targetNamesToken; /* extras.targetNames when an array, or MANI_GLTF_NONE */
} mani_GltfMesh;

/* What a channel animates. */
typedef enum mani_GltfPath {
    mani_gltfPathTranslation = 0,
    mani_gltfPathRotation = 1,
    mani_gltfPathScale = 2,
    mani_gltfPathWeights = 3,
    mani_gltfPathPointer = 4, /* KHR_animation_pointer: pointer holds the JSON pointer */
    mani_gltfPathOther = 5    /* a path the importer does not read */
} mani_GltfPath;

typedef struct mani_GltfChannel {
    uint32_t token;
    uint32_t sampler;         /* the animation's sampler index (in range) */
    uint32_t node;            /* target.node, or MANI_GLTF_NONE (pointer channels, a target without node) */
    uint32_t path;            /* mani_GltfPath */
    mani_GltfString pointer;  /* pointer channels: extensions.KHR_animation_pointer.pointer */
} mani_GltfChannel;

typedef struct mani_GltfSampler {
    uint32_t token;
    uint32_t input;          /* accessor (in range) */
    uint32_t output;         /* accessor (in range) */
    uint32_t interpolation;  /* maniInterpolation (build.h) */
} mani_GltfSampler;

typedef struct mani_GltfAnimation {
    uint32_t token;
    mani_GltfString name;    /* text "" (not NULL) when left out */
    uint32_t channelStart;   /* g->channels[channelStart, + channelCount) */
    uint32_t channelCount;
    uint32_t samplerStart;   /* g->samplers[samplerStart, + samplerCount); a channel's sampler s is
                                g->samplers[samplerStart + s] */
    uint32_t samplerCount;
} mani_GltfAnimation;

struct maniGltf {
    maniBuilder* builder;    /* the allocator's owner */
    uint32_t closing;        /* set when the close begins: every query reads as empty */
    uint32_t reserved;
    const uint8_t* bytes;    /* what the open was given */
    size_t size;
    mcore_JsonDoc json;
    size_t jsonOffset;       /* the JSON text's offset in bytes */
    uint32_t root;           /* the document object's token (0) */
    uint32_t extensionsRequiredToken;

    uint32_t bufferCount, viewCount, accessorCount, nodeCount, skinCount, skeletonCount;
    uint32_t meshCount, primitiveCount, attributeCount, targetCount;
    uint32_t animationCount, channelCount, samplerCount;
    uint32_t childCount, jointCount, skeletonNodeCount, skeletonRootCount, renamedCount;

    mani_GltfBuffer* buffers;
    mani_GltfView* views;
    mani_GltfAccessor* accessors;
    mani_GltfNode* nodes;
    uint32_t* children;
    mani_GltfSkin* skins;
    uint32_t* joints;
    mani_GltfSkeleton* skeletons;
    uint32_t* skeletonNodes;
    uint32_t* skeletonRoots;
    uint32_t* renamed;       /* renamedCount nodes, ascending */
    mani_GltfMesh* meshes;
    mani_GltfPrimitive* primitives;
    mani_GltfAttribute* attributes;
    mani_GltfTarget* targets;
    mani_GltfAnimation* animations;
    mani_GltfChannel* channels;
    mani_GltfSampler* samplers;

    struct mani_GltfBlock* blocks; /* every other allocation (strings, decoded data), freed at the close */
};

/* A result (import.h's struct). */
maniImportResult mani_GltfResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset);

/* The document is usable: not NULL, not closing. */
static inline int mani_GltfLive(const maniGltf* g) { return g != NULL && !g->closing; }

/* The offset in the bytes given to the open of a JSON token's first byte
 * (for a string: its opening quote). */
uint64_t mani_GltfTokenOffset(const maniGltf* g, uint32_t token);

/* The bytes of a view: its buffer's slice, or for a meshopt view its decoded
 * bytes. mani_success with *bytesOut, *sizeOut; mani_errorFormat with
 * Pending (item the buffer that is missing). */
maniImportResult mani_GltfViewBytes(const maniGltf* g, uint32_t view, const uint8_t** bytesOut, uint64_t* sizeOut);

/* Reads an accessor's count * components values as binary32 into out
 * (capacity floats at least count * components; matrix column padding left
 * out, column-major as stored): FLOAT as stored, normalized integers by
 * glTF's formulas (unsigned c / (2^n - 1); signed max(c / (2^(n-1) - 1), -1)),
 * other integers converted exactly (UNSIGNED_INT to the nearest binary32),
 * sparse values applied over the base (zeros without a view), every byte read
 * inside its view. mani_errorFormat with Pending (item the buffer), Data
 * (item the accessor, offset in the sparse indices' buffer: a sparse index
 * past the count or not above the previous one); mani_errorCapacity (item
 * the accessor) for too small a capacity; out is written only on success
 * except for a sparse refusal (partly written). NaN and infinities in FLOAT
 * data are read as they are (the builds refuse them). */
maniImportResult mani_GltfReadFloats(const maniGltf* g, uint32_t accessor, float* out, size_t capacity);

/* Reads an accessor's values as uint32 (JOINTS, indices): UNSIGNED_BYTE,
 * UNSIGNED_SHORT and UNSIGNED_INT components, not normalized, as stored,
 * sparse applied. mani_errorFormat with Property (item the accessor, offset
 * its token) for another component type or a normalized one; otherwise as
 * mani_GltfReadFloats. */
maniImportResult mani_GltfReadUints(const maniGltf* g, uint32_t accessor, uint32_t* out, size_t capacity);

/* The number of values an accessor holds: count * components. */
static inline size_t mani_GltfAccessorValues(const maniGltf* g, uint32_t accessor) {
    return (size_t)g->accessors[accessor].count * mani_GltfTypeComponents(g->accessors[accessor].type);
}

/* Allocates through the document's builder: memory freed by the close, or
 * by mani_GltfFree (NULL on failure or a size of 0). */
void* mani_GltfAlloc(maniGltf* g, size_t size);
void mani_GltfFree(maniGltf* g, void* memory);

/* Reads a JSON number token as binary32 (mcore_jsonOk, mcore_jsonRange past
 * binary32, mcore_jsonInvalid for another token). */
mcore_JsonReason mani_GltfTokenFloat(const maniGltf* g, uint32_t token, float* out);

/* Whether a node is in skeleton s (binary search over its ascending nodes). */
int mani_GltfSkeletonHasNode(const maniGltf* g, uint32_t skeleton, uint32_t node);

#ifdef __cplusplus
}
#endif

#endif
