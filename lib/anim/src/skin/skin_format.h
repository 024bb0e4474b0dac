/* The skin file format, version 2 (docs/formats.md, "Skin"): shared by the
 * open (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_SKIN_FORMAT_H
#define MAUL_ANIM_SKIN_FORMAT_H

#include "lib/core/container.h"

/* Section tags and their order; introduced by format version 2
 * (mcore_formatSkin1). */
#define MANI_SKIN_INFO MCORE_TAG(mcore_formatSkin1, 1)          /* u32 joints, u32 skeleton bones, u64 skeleton identity */
#define MANI_SKIN_JOINTS MCORE_TAG(mcore_formatSkin1, 2)        /* u32 per joint: its skeleton bone */
#define MANI_SKIN_INVERSE_BINDS MCORE_TAG(mcore_formatSkin1, 3) /* 12 f32 per joint: the matrix by columns */
#define MANI_SKIN_SECTION_COUNT 3u

#define MANI_SKIN_INFO_SIZE 16u
#define MANI_SKIN_MATRIX_FLOATS 12u

/* The value maniSkin.opened holds once an open wrote the view. */
#define MANI_SKIN_OPENED 0x4E494B53u /* "SKIN" */

static const mcore_SectionSpec maniSkinSections[MANI_SKIN_SECTION_COUNT] = {
    {MANI_SKIN_INFO, 16},
    {MANI_SKIN_JOINTS, 16},
    {MANI_SKIN_INVERSE_BINDS, 16},
};

#endif
