/* The morph targets file format, version 5 (docs/formats.md, "Morph
 * targets"): shared by the open (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_MORPH_FORMAT_H
#define MAUL_ANIM_MORPH_FORMAT_H

#include "lib/core/container.h"
#include "maul/anim/morph.h"

/* Section tags and their order; introduced by format version 5
 * (mcore_formatMorphTargets1). */
#define MANI_MORPH_INFO MCORE_TAG(mcore_formatMorphTargets1, 1)       /* 8 u32: vertices, channels, targets, attributes, name bytes, indices, deltas, 0 */
#define MANI_MORPH_ATTRIBUTES MCORE_TAG(mcore_formatMorphTargets1, 2) /* u32 semantic, u32 set per attribute */
#define MANI_MORPH_CHANNELS MCORE_TAG(mcore_formatMorphTargets1, 3)   /* u32 first target, u32 targets, u32 name offset, u32 name length */
#define MANI_MORPH_TARGETS MCORE_TAG(mcore_formatMorphTargets1, 4)    /* 14 u32 per target (below) */
#define MANI_MORPH_INDICES MCORE_TAG(mcore_formatMorphTargets1, 5)    /* u32 vertex indices of the sparse targets */
#define MANI_MORPH_DELTAS MCORE_TAG(mcore_formatMorphTargets1, 6)     /* f32 deltas */
#define MANI_MORPH_NAMES MCORE_TAG(mcore_formatMorphTargets1, 7)      /* channel then target names, back to back */
#define MANI_MORPH_SECTION_COUNT 7u

#define MANI_MORPH_INFO_SIZE 32u
#define MANI_MORPH_ATTRIBUTE_SIZE 8u
#define MANI_MORPH_CHANNEL_SIZE 16u
/* A target: f32 full weight, u32 count (vertices given), u32 first index
 * (MANI_MORPH_DENSE for a dense target, whose count is the vertex count),
 * u32 name offset, u32 name length, u32 0, then per attribute slot
 * (MANI_MAX_MORPH_ATTRIBUTES) u32 first delta (MANI_MORPH_NONE: the
 * attribute is not moved; slots past the attribute count hold it). */
#define MANI_MORPH_TARGET_WORDS (6u + MANI_MAX_MORPH_ATTRIBUTES)
#define MANI_MORPH_TARGET_SIZE (4u * MANI_MORPH_TARGET_WORDS)
#define MANI_MORPH_DENSE 0xFFFFFFFFu
#define MANI_MORPH_NONE 0xFFFFFFFFu

/* The value maniMorphTargets.opened holds once an open wrote the view. */
#define MANI_MORPH_OPENED 0x46524F4Du /* "MORF" */

static const mcore_SectionSpec maniMorphSections[MANI_MORPH_SECTION_COUNT] = {
    {MANI_MORPH_INFO, 16},    {MANI_MORPH_ATTRIBUTES, 16}, {MANI_MORPH_CHANNELS, 16}, {MANI_MORPH_TARGETS, 16},
    {MANI_MORPH_INDICES, 16}, {MANI_MORPH_DELTAS, 16},     {MANI_MORPH_NAMES, 16},
};

/* A semantic's components (3, 3, 3, 2, 4), 0 for an unknown one. */
static inline uint32_t mani_MorphComponents(uint32_t semantic) {
    switch (semantic) {
        case maniMorphPosition:
        case maniMorphNormal:
        case maniMorphTangent: return 3;
        case maniMorphTexCoord: return 2;
        case maniMorphColor: return 4;
        default: return 0;
    }
}

/* Whether a semantic and set make an attribute. */
static inline int mani_MorphAttributeOk(uint32_t semantic, uint32_t set) {
    if (mani_MorphComponents(semantic) == 0) return 0;
    if (semantic <= (uint32_t)maniMorphTangent) return set == 0;
    return set <= MANI_MAX_MORPH_SET;
}

#endif
