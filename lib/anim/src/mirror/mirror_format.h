/* The mirror map file format, version 7 (docs/formats.md, "Mirror map"):
 * shared by the open (runtime) and the builder (offline), with the
 * reflections both apply. */
#ifndef MAUL_ANIM_MIRROR_FORMAT_H
#define MAUL_ANIM_MIRROR_FORMAT_H

#include "lib/core/container.h"
#include "maul/anim/mirror.h"

/* Section tags and their order. */
#define MANI_MIRROR_INFO MCORE_TAG(7, 1)        /* u64 skeleton identity, u32 bone count, u32 axis, u32 name count, u32 name bytes, u32 unmatched bone, u32 0 */
#define MANI_MIRROR_PARTNERS MCORE_TAG(7, 2)    /* u32 per bone */
#define MANI_MIRROR_FLAGS MCORE_TAG(7, 3)       /* u32 per bone: bits 0-1 the public flags, bits 8-13 the scale permutation */
#define MANI_MIRROR_CORRECTIONS MCORE_TAG(7, 4) /* 8 f32 per bone: the parent-side turn xyzw, the bone's own turn xyzw */
#define MANI_MIRROR_NAME_ENTRIES MCORE_TAG(7, 5)/* 32 bytes per name: u64 hash, u64 partner hash, u32 offset, u32 length, u32 partner offset, u32 partner length */
#define MANI_MIRROR_NAMES MCORE_TAG(7, 6)       /* the names' UTF-8 bytes */
#define MANI_MIRROR_SECTION_COUNT 6u

#define MANI_MIRROR_INFO_SIZE 32u
#define MANI_MIRROR_CORRECTION_FLOATS 8u
#define MANI_MIRROR_NAME_ENTRY_SIZE 32u

/* The flag bits a file may hold: the public flags and the permutation. */
#define MANI_MIRROR_PUBLIC_FLAGS (MANI_MIRROR_BONE_UNMATCHED | MANI_MIRROR_BONE_SCALE_APPROXIMATE)
#define MANI_MIRROR_PERMUTATION_SHIFT 8u
#define MANI_MIRROR_PERMUTATION_MASK (0x3Fu << MANI_MIRROR_PERMUTATION_SHIFT)
/* The identity permutation: axis j takes the partner's axis j. */
#define MANI_MIRROR_PERMUTATION_IDENTITY ((0u | (1u << 2) | (2u << 4)) << MANI_MIRROR_PERMUTATION_SHIFT)

/* The value maniMirrorMap.opened holds once an open wrote the view. */
#define MANI_MIRROR_OPENED 0x4D495252u /* "MIRR" */

static const mcore_SectionSpec maniMirrorSections[MANI_MIRROR_SECTION_COUNT] = {
    {MANI_MIRROR_INFO, 16},         {MANI_MIRROR_PARTNERS, 16},     {MANI_MIRROR_FLAGS, 16},
    {MANI_MIRROR_CORRECTIONS, 16},  {MANI_MIRROR_NAME_ENTRIES, 16}, {MANI_MIRROR_NAMES, 16},
};

/* The partner axis that bone axis j (0..2) takes, from a flags word. */
static inline uint32_t mani_MirrorPermutedAxis(uint32_t flags, uint32_t j) {
    return (flags >> (MANI_MIRROR_PERMUTATION_SHIFT + 2u * j)) & 3u;
}

/* A rotation reflected across the plane normal to axis: the two vector
 * components off the normal negated (exact, and its own inverse). */
static inline maniQuat mani_MirrorQuat(maniQuat q, uint32_t axis) {
    if (axis != 0) q.x = -q.x;
    if (axis != 1) q.y = -q.y;
    if (axis != 2) q.z = -q.z;
    return q;
}

/* A vector reflected across the plane normal to axis: its normal component
 * negated. */
static inline maniVec3 mani_MirrorVec3(maniVec3 v, uint32_t axis) {
    if (axis == 0) v.x = -v.x;
    if (axis == 1) v.y = -v.y;
    if (axis == 2) v.z = -v.z;
    return v;
}

/* The same in binary64 (xyzw and xyz arrays). */
static inline void mani_MirrorQuat64(double q[4], uint32_t axis) {
    for (uint32_t k = 0; k < 3; ++k)
        if (k != axis) q[k] = -q[k];
}

#endif
