/* lib/core: the one container every Maul file kind uses (docs/formats.md).
 *
 *   offset  size  field
 *   0       4     magic "MAUL"
 *   4       4     kind (mcore_FileKind)
 *   8       4     format version of the kind (mcore_FormatVersion)
 *   12      4     ABI version of the library that wrote it (informational)
 *   16      8     total size in bytes
 *   24      4     section count (1 to MCORE_MAX_SECTIONS)
 *   28      4     flags, 0
 *   32      8     identity: maniHash64(MCORE_IDENTITY_SEED ^ kind, bytes 64 to the end)
 *   40      24    zero
 *   64      24 n  section table: tag u32, alignment u32, offset u64, size u64
 *   ...           sections, in table order, each at a multiple of its
 *                 alignment, every byte between and after them 0
 *
 * All fields little-endian. The bytes must start at a multiple of
 * MCORE_FILE_ALIGNMENT. A reader checks every byte of the header, the table
 * and the padding once and reports the offset of the first wrong byte; the
 * kind's own open then checks each section's contents.
 *
 * Section tags carry the format version that introduced them in their high
 * 16 bits, so a reader can tell a tag "only a later format writes"
 * (mani_errorVersion) from a wrong one (mani_errorFormat). */
#ifndef MAUL_CORE_CONTAINER_H
#define MAUL_CORE_CONTAINER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MCORE_FILE_MAGIC 0x4C55414Du /* "MAUL" read little-endian */
#define MCORE_FILE_ALIGNMENT 16u     /* required alignment of a file's first byte */
#define MCORE_HEADER_SIZE 64u
#define MCORE_SECTION_ENTRY_SIZE 24u
#define MCORE_MAX_SECTIONS 64u
#define MCORE_IDENTITY_SEED UINT64_C(0x4D41554C46494C45) /* "MAULFILE" */

/* File kinds. Frozen values, never reused. */
typedef enum mcore_FileKind {
    mcore_kindSkeleton = 1,
    mcore_kindSkin = 2,
    mcore_kindInfluences = 3,
    mcore_kindClip = 4,
    mcore_kindMorphTargets = 5,
    mcore_kindGraph = 6,
    mcore_kindMotionDatabase = 7,
    mcore_kindLearnedModel = 8,
    mcore_kindMirrorMap = 9,
    mcore_kindRetargetMap = 10,
    mcore_kindSpringSet = 11,
    mcore_kindRagdoll = 12,
    mcore_kindSavedState = 13,
    mcore_kindCheckpoint = 14
} mcore_FileKind;

/* Format versions, one enumeration for every kind: a value is never reused,
 * each kind has a first and a latest. Files of any other version are refused
 * with mani_errorVersion. tests keep a frozen file of every version shipped. */
typedef enum mcore_FormatVersion {
    mcore_formatSkeleton1 = 1,
    mcore_formatSkeletonFirst = mcore_formatSkeleton1,
    mcore_formatSkeletonLatest = mcore_formatSkeleton1,
    mcore_formatSkin1 = 2,
    mcore_formatSkinFirst = mcore_formatSkin1,
    mcore_formatSkinLatest = mcore_formatSkin1,
    mcore_formatClip1 = 3,
    mcore_formatClipFirst = mcore_formatClip1,
    mcore_formatClipLatest = mcore_formatClip1,
    mcore_formatInfluences1 = 4,
    mcore_formatInfluencesFirst = mcore_formatInfluences1,
    mcore_formatInfluencesLatest = mcore_formatInfluences1,
    mcore_formatMorphTargets1 = 5,
    mcore_formatMorphTargetsFirst = mcore_formatMorphTargets1,
    mcore_formatMorphTargetsLatest = mcore_formatMorphTargets1,
    mcore_formatClipCompressed1 = 6, /* kind 4 (clip), compressed: docs/formats.md, "Compressed clip" */
    mcore_formatClipCompressedFirst = mcore_formatClipCompressed1,
    mcore_formatClipCompressed2 = 11, /* kind 4 (clip), compressed: docs/formats.md, "Compressed clip (kind 4, format 11)" */
    mcore_formatClipCompressedLatest = mcore_formatClipCompressed2,
    mcore_formatMirrorMap1 = 7, /* kind 9 (mirror map): docs/formats.md, "Mirror map" */
    mcore_formatMirrorMapFirst = mcore_formatMirrorMap1,
    mcore_formatMirrorMapLatest = mcore_formatMirrorMap1,
    mcore_formatRetargetMap1 = 8, /* kind 10 (retarget map): docs/formats.md, "Retarget map" */
    mcore_formatRetargetMapFirst = mcore_formatRetargetMap1,
    mcore_formatRetargetMapLatest = mcore_formatRetargetMap1,
    mcore_formatSpringSet1 = 20, /* kind 11 (spring set): docs/formats.md, "Spring set" */
    mcore_formatSpringSetFirst = mcore_formatSpringSet1,
    mcore_formatSpringSetLatest = mcore_formatSpringSet1,
    mcore_formatSpringState1 = 21, /* kind 13 (saved state) of a spring state: docs/formats.md, "Spring state" */
    mcore_formatSpringStateFirst = mcore_formatSpringState1,
    mcore_formatSpringStateLatest = mcore_formatSpringState1,
    mcore_formatRagdoll1 = 12, /* kind 12 (ragdoll profile): docs/formats.md, "Ragdoll profile" */
    mcore_formatRagdollFirst = mcore_formatRagdoll1,
    mcore_formatRagdollLatest = mcore_formatRagdoll1,
    mcore_formatMotionDatabase1 = 9, /* kind 7 (motion database): docs/formats.md, "Motion database" */
    mcore_formatMotionDatabaseFirst = mcore_formatMotionDatabase1,
    mcore_formatMotionDatabaseLatest = mcore_formatMotionDatabase1,
    mcore_formatGraph1 = 10, /* kind 6 (graph): docs/formats.md, "Graph" */
    mcore_formatGraphFirst = mcore_formatGraph1,
    mcore_formatGraphLatest = mcore_formatGraph1,
    mcore_formatLearnedModel1 = 31, /* kind 8 (learned model): docs/formats.md, "Learned model" */
    mcore_formatLearnedModelFirst = mcore_formatLearnedModel1,
    mcore_formatLearnedModelLatest = mcore_formatLearnedModel1,
    mcore_formatLearnedCheckpoint1 = 40, /* kind 14 (checkpoint) of a learned trainer: docs/formats.md, "Trainer checkpoint" */
    mcore_formatLearnedCheckpointFirst = mcore_formatLearnedCheckpoint1,
    mcore_formatLearnedCheckpointLatest = mcore_formatLearnedCheckpoint1
} mcore_FormatVersion;

/* A section tag: the format version that introduced it, and an id. */
#define MCORE_TAG(version, id) ((uint32_t)(((uint32_t)(version) << 16) | (uint32_t)(id)))
#define MCORE_TAG_VERSION(tag) ((uint32_t)(tag) >> 16)

/* What a container check found. */
typedef enum mcore_ContainerStatus {
    mcore_containerOk = 0,
    mcore_containerInvalid = 1, /* NULL or misaligned bytes */
    mcore_containerFormat = 2,  /* a wrong byte, at offset */
    mcore_containerVersion = 3  /* another format version, or a tag of a later one */
} mcore_ContainerStatus;

typedef struct mcore_Section {
    uint32_t tag;
    uint32_t alignment;
    uint64_t offset;
    uint64_t size;
} mcore_Section;

/* The sections a kind's format defines, in the order they must appear. */
typedef struct mcore_SectionSpec {
    uint32_t tag;
    uint32_t alignment; /* a power of two, 4 to 64 */
} mcore_SectionSpec;

/* A checked container: its sections in spec order. */
typedef struct mcore_Container {
    const uint8_t* bytes;
    uint64_t size;
    uint64_t identity;
    uint32_t sectionCount;
    mcore_Section sections[MCORE_MAX_SECTIONS];
} mcore_Container;

/* Checks the header, the section table, every padding byte and the identity
 * of a file of `kind` and `version`, whose sections must be exactly `specs`
 * in order. On mcore_containerFormat, *offsetOut is the first wrong byte. */
mcore_ContainerStatus mcore_CheckContainer(const void* bytes, size_t size, uint32_t kind, uint32_t version,
                                           const mcore_SectionSpec* specs, uint32_t specCount,
                                           mcore_Container* out, uint64_t* offsetOut);

/* Little-endian reads of checked bytes (any alignment). */
static inline uint32_t mcore_ReadU32(const uint8_t* p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t mcore_ReadU64(const uint8_t* p) {
    return (uint64_t)mcore_ReadU32(p) | ((uint64_t)mcore_ReadU32(p + 4) << 32);
}
static inline float mcore_ReadF32(const uint8_t* p) {
    const uint32_t bits = mcore_ReadU32(p);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Whether count items of stride bytes starting at offset lie inside size
 * bytes (without overflow): the check a view makes before it reads. */
static inline int mcore_SpanFits(uint64_t offset, uint64_t count, uint64_t stride, uint64_t size) {
    return offset <= size && count <= (size - offset) / stride;
}

/* The offset of section i's size field in the table: where an open reports a
 * section whose size does not match the counts. */
static inline uint64_t mcore_SectionSizeField(uint32_t i) {
    return MCORE_HEADER_SIZE + (uint64_t)i * MCORE_SECTION_ENTRY_SIZE + 16;
}

/* -- Writing (the builder side) ---------------------------------------------- */

/* The layout of a file before its bytes exist: section offsets, total size. */
typedef struct mcore_Layout {
    uint32_t sectionCount;
    mcore_Section sections[MCORE_MAX_SECTIONS];
    uint64_t totalSize;
} mcore_Layout;

/* Lays out sections of the given sizes after the header and table. Returns 0
 * when the total would pass max (or 2^62). */
int mcore_LayoutSections(mcore_Layout* layout, const mcore_SectionSpec* specs, const uint64_t* sizes,
                         uint32_t count, uint64_t max);

/* Writes the header and table into `bytes` (layout->totalSize bytes, zeroed
 * by the caller, sections filled in), then computes and writes the identity.
 * Returns the identity. */
uint64_t mcore_FinishContainer(uint8_t* bytes, const mcore_Layout* layout, uint32_t kind, uint32_t version,
                               uint32_t abiVersion);

static inline void mcore_WriteU32(uint8_t* p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void mcore_WriteU64(uint8_t* p, uint64_t v) {
    mcore_WriteU32(p, (uint32_t)v);
    mcore_WriteU32(p + 4, (uint32_t)(v >> 32));
}
void mcore_WriteF32(uint8_t* p, float v);

#ifdef __cplusplus
}
#endif

#endif
