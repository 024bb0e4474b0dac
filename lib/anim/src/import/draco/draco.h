/* Draco mesh streams (KHR_draco_mesh_compression, bitstream 2.2): an internal
 * decoder for the glTF importer (maniBuildGltfInfluences,
 * maniBuildGltfMorphTargets), written from the Draco bitstream
 * specification. No public header: the importer, the tests, the fuzz harness
 * and `maul bench draco` are its callers.
 *
 * Every read is bounded by the stream, every count is checked against the
 * bytes left before memory is sized, and a refused stream reports the offset
 * of the refused byte. Integer arithmetic throughout; dequantization is
 * binary32 in the specification's order (q * (range / max) + min), octahedral
 * normals binary32 with the IEEE square root, so every build gives the same
 * bits. */
#ifndef MAUL_ANIM_IMPORT_DRACO_DRACO_H
#define MAUL_ANIM_IMPORT_DRACO_DRACO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many attributes in one stream (the glTF extension's sets). */
#define MANI_DRACO_MAX_ATTRIBUTES 32

/* Draco's attribute types (the stream's att_type byte). */
typedef enum maniDracoAttributeType {
    maniDracoPosition = 0, /* POSITION */
    maniDracoNormal = 1,   /* NORMAL */
    maniDracoColor = 2,    /* COLOR */
    maniDracoTexCoord = 3, /* TEX_COORD */
    maniDracoGeneric = 4   /* GENERIC (JOINTS, WEIGHTS, ... in glTF) */
} maniDracoAttributeType;

/* Draco's data types (the stream's data_type byte). */
typedef enum maniDracoDataType {
    maniDracoInt8 = 1,    /* int8 */
    maniDracoUint8 = 2,   /* uint8 */
    maniDracoInt16 = 3,   /* int16 */
    maniDracoUint16 = 4,  /* uint16 */
    maniDracoInt32 = 5,   /* int32 */
    maniDracoUint32 = 6,  /* uint32 */
    maniDracoInt64 = 7,   /* int64 (refused: no glTF accessor holds it) */
    maniDracoUint64 = 8,  /* uint64 (refused) */
    maniDracoFloat32 = 9, /* binary32 */
    maniDracoFloat64 = 10 /* binary64 (refused) */
} maniDracoDataType;

/* The allocator the decoder sizes its memory with: alloc returns NULL on
 * failure; release gets the size the block was allocated with. */
typedef struct maniDracoAllocator {
    void* (*alloc)(void* ctx, size_t size);      /* a block of size bytes, or NULL */
    void (*release)(void* ctx, void* p, size_t size); /* frees a block alloc gave */
    void* ctx;                                   /* passed to both */
} maniDracoAllocator;

/* One decoded attribute: valueCount values of components numbers each, in
 * the attribute's data type (little-endian in memory as on the host), and the
 * value of each point. */
typedef struct maniDracoAttribute {
    uint32_t uniqueId;      /* the stream's unique id (the glTF extension's attributes map names it) */
    uint8_t type;           /* maniDracoAttributeType */
    uint8_t dataType;       /* maniDracoDataType */
    uint8_t components;     /* component count, 1..4 */
    uint8_t normalized;     /* the stream's normalized flag (glTF reads the accessor's instead) */
    uint32_t valueCount;    /* distinct values */
    uint32_t elementSize;   /* bytes of one value: components * size of the data type */
    uint8_t* values;        /* valueCount * elementSize bytes */
    uint32_t* pointToValue; /* pointCount entries, each < valueCount */
} maniDracoAttribute;

/* A decoded mesh: triangles over points, and the attributes of the points. */
typedef struct maniDracoMesh {
    uint32_t pointCount;   /* points (glTF vertices) */
    uint32_t faceCount;    /* triangles */
    uint32_t* faces;       /* 3 * faceCount point indices */
    uint32_t attributeCount; /* entries of attributes */
    maniDracoAttribute attributes[MANI_DRACO_MAX_ATTRIBUTES]; /* in the stream's order */
    uint8_t versionMajor;  /* the header's version (2) */
    uint8_t versionMinor;  /* (2) */
    uint8_t method;        /* 0 sequential, 1 edgebreaker */
    uint8_t traversal;     /* edgebreaker: 0 standard, 2 valence */
    void* blocks;          /* internal: the blocks to release */
    maniDracoAllocator allocator; /* internal: the allocator they came from */
} maniDracoMesh;

/* What the decoder answers. */
typedef enum maniDracoStatus {
    maniDracoOk = 0,       /* decoded; release with maniDracoRelease */
    maniDracoRefused = 1,  /* a byte the specification (or this decoder's bounds) refuses: *errorOffset */
    maniDracoNoMemory = 2, /* the allocator failed */
    maniDracoInvalid = 3   /* a NULL argument or an allocator without both functions */
} maniDracoStatus;

/* Decodes the size bytes at src into *out (written only on maniDracoOk;
 * release it with maniDracoRelease). A refusal sets *errorOffset (when not
 * NULL) to the offset in src of the refused byte (for a read past the end,
 * size). allocator NULL: the C library's. */
maniDracoStatus maniDracoDecode(const uint8_t* src, size_t size, const maniDracoAllocator* allocator,
                                maniDracoMesh* out, size_t* errorOffset);

/* Releases what a decode gave *mesh (no-op for NULL or an already released
 * mesh) and zeroes it. */
void maniDracoRelease(maniDracoMesh* mesh);

/* The attribute with that unique id, or NULL. */
const maniDracoAttribute* maniDracoFindAttribute(const maniDracoMesh* mesh, uint32_t uniqueId);

#ifdef __cplusplus
}
#endif

#endif
