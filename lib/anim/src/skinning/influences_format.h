/* The influences file format, version 4 (docs/formats.md, "Influences"):
 * shared by the open (runtime) and the builders (offline). */
#ifndef MAUL_ANIM_INFLUENCES_FORMAT_H
#define MAUL_ANIM_INFLUENCES_FORMAT_H

#include "lib/core/container.h"

/* Section tags and their order; introduced by format version 4
 * (mcore_formatInfluences1). */
#define MANI_INFLUENCES_INFO MCORE_TAG(mcore_formatInfluences1, 1)    /* see MANI_INFLUENCES_INFO_SIZE */
#define MANI_INFLUENCES_JOINTS MCORE_TAG(mcore_formatInfluences1, 2)  /* u16 per influence: a skin joint */
#define MANI_INFLUENCES_WEIGHTS MCORE_TAG(mcore_formatInfluences1, 3) /* f32 per influence */
#define MANI_INFLUENCES_BLEND MCORE_TAG(mcore_formatInfluences1, 4)   /* f32 per vertex, or empty */
#define MANI_INFLUENCES_CENTERS MCORE_TAG(mcore_formatInfluences1, 5) /* 3 f32 per vertex, or empty */
#define MANI_INFLUENCES_SECTION_COUNT 5u

/* Info: u32 vertex count, u32 influences a vertex, u32 skin joint count,
 * u32 flags (MANI_INFLUENCES_HAS_*), u64 skin identity, u64 0. */
#define MANI_INFLUENCES_INFO_SIZE 32u
#define MANI_INFLUENCES_HAS_BLEND 1u
#define MANI_INFLUENCES_HAS_CENTERS 2u

/* The value maniInfluences.opened holds once an open wrote the view. */
#define MANI_INFLUENCES_OPENED 0x464E4931u /* "1INF" */

static const mcore_SectionSpec maniInfluencesSections[MANI_INFLUENCES_SECTION_COUNT] = {
    {MANI_INFLUENCES_INFO, 16},  {MANI_INFLUENCES_JOINTS, 16}, {MANI_INFLUENCES_WEIGHTS, 16},
    {MANI_INFLUENCES_BLEND, 16}, {MANI_INFLUENCES_CENTERS, 16},
};

#endif
