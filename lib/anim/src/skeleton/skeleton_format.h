/* The skeleton file format, version 1 (docs/formats.md, "Skeleton"): shared
 * by the open (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_SKELETON_FORMAT_H
#define MAUL_ANIM_SKELETON_FORMAT_H

#include "lib/core/container.h"
#include "lib/core/hash.h"

/* Section tags and their order. */
#define MANI_SKELETON_INFO MCORE_TAG(1, 1)         /* u32 bone count, u32 name bytes, 8 zero bytes */
#define MANI_SKELETON_PARENTS MCORE_TAG(1, 2)      /* u32 per bone: parent or MANI_NO_BONE */
#define MANI_SKELETON_SUBTREE_ENDS MCORE_TAG(1, 3) /* u32 per bone */
#define MANI_SKELETON_RESTS MCORE_TAG(1, 4)        /* 10 f32 per bone: t xyz, r xyzw, s xyz */
#define MANI_SKELETON_NAME_SPANS MCORE_TAG(1, 5)   /* u32 offset, u32 length per bone */
#define MANI_SKELETON_NAME_HASHES MCORE_TAG(1, 6)  /* u64 per bone */
#define MANI_SKELETON_NAME_ORDER MCORE_TAG(1, 7)   /* u32 per bone: bones by increasing name hash */
#define MANI_SKELETON_NAMES MCORE_TAG(1, 8)        /* the names' UTF-8 bytes, back to back */
#define MANI_SKELETON_SECTION_COUNT 8u

#define MANI_SKELETON_REST_FLOATS 10u

/* The seed of name hashes (maniHash64 of a name's bytes). */
#define MANI_NAME_HASH_SEED UINT64_C(0x6D616E692D6E616D) /* "mani-nam" */

/* How far a rest rotation's squared length may be from 1 in a file. */
#define MANI_UNIT_TOLERANCE 1e-5

/* The value maniSkeleton.opened holds once an open wrote the view. */
#define MANI_SKELETON_OPENED 0x534B454Cu /* "SKEL" */

static const mcore_SectionSpec maniSkeletonSections[MANI_SKELETON_SECTION_COUNT] = {
    {MANI_SKELETON_INFO, 16},        {MANI_SKELETON_PARENTS, 16},     {MANI_SKELETON_SUBTREE_ENDS, 16},
    {MANI_SKELETON_RESTS, 16},       {MANI_SKELETON_NAME_SPANS, 16},  {MANI_SKELETON_NAME_HASHES, 16},
    {MANI_SKELETON_NAME_ORDER, 16},  {MANI_SKELETON_NAMES, 16},
};

static inline uint64_t mani_NameHash(const void* name, size_t length) {
    return mcore_Hash64(MANI_NAME_HASH_SEED, name, length);
}

#endif
