/* The retarget map file format, version 8 (docs/formats.md, "Retarget
 * map"): shared by the open (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_RETARGET_FORMAT_H
#define MAUL_ANIM_RETARGET_FORMAT_H

#include "lib/core/container.h"
#include "maul/anim/retarget.h"

/* Section tags and their order. */
#define MANI_RETARGET_INFO MCORE_TAG(8, 1)       /* u64 source identity, u64 target identity, u32 source bones, u32 target bones, u32 has pelvis, u32 0 */
#define MANI_RETARGET_PELVIS MCORE_TAG(8, 2)     /* 0 or MANI_RETARGET_PELVIS_SIZE bytes (below) */
#define MANI_RETARGET_SOURCE_REF MCORE_TAG(8, 3) /* 10 f32 per source bone: translation, rotation xyzw, scale */
#define MANI_RETARGET_TARGET_REF MCORE_TAG(8, 4) /* 10 f32 per target bone */
#define MANI_RETARGET_PLANS MCORE_TAG(8, 5)      /* MANI_RETARGET_PLAN_SIZE bytes per target bone (below) */
#define MANI_RETARGET_SECTION_COUNT 5u

#define MANI_RETARGET_INFO_SIZE 32u
#define MANI_RETARGET_REF_SIZE 40u

/* The pelvis: u32 source bone, u32 target bone, then f32s: up xyz,
 * horizontal scale, vertical scale, height ratio, absolute xyz, toSource
 * xyz, weight, source reference model position xyz, target reference model
 * position xyz, then 3 words 0. */
#define MANI_RETARGET_PELVIS_SIZE 96u
#define MANI_RETARGET_PELVIS_FLOATS 19u

/* A plan: u32 kind, u32 source bone a, u32 source bone b, u32 settings
 * (bits 0-1 translation mode, bit 2 scale carries, bit 3 matched: the bone
 * and its parent follow a source bone and its parent at weight 1), f32
 * place, f32 weight, 2 words 0, then 5 turns xyzw: [0] the inverse of a's
 * source reference model rotation, [1] the same of b, [2] the target
 * reference model rotation, [3] the parent turn conj(target parent
 * reference model) source parent reference model (turning translations,
 * and the matched form's parent side), [4] the bone's correction
 * conj(source reference model of a) target reference model; then the scale
 * ratios xyz (target reference over source reference, 0 where the source's
 * is 0) and a word 0. */
#define MANI_RETARGET_PLAN_SIZE 128u
#define MANI_RETARGET_PLAN_TURNS 5u
#define MANI_RETARGET_PLAN_TURN_AT 32u
#define MANI_RETARGET_PLAN_SCALE_AT 112u

/* Plan kinds. */
#define MANI_RETARGET_KIND_REFERENCE 0u /* the target reference's local */
#define MANI_RETARGET_KIND_BONE 1u      /* one source bone's turn */
#define MANI_RETARGET_KIND_BLEND 2u     /* two source bones' turns slerped at the place */
#define MANI_RETARGET_KIND_PELVIS 3u    /* the pelvis: a's turn, the model position the pelvis's */

#define MANI_RETARGET_TRANSLATION_MASK 3u
#define MANI_RETARGET_SCALE_BIT 4u
#define MANI_RETARGET_MATCHED_BIT 8u
#define MANI_RETARGET_SETTINGS_MASK 15u

/* The value maniRetargetMap.opened holds once an open wrote the view. */
#define MANI_RETARGET_OPENED 0x52544752u /* "RTGR" */

static const mcore_SectionSpec maniRetargetSections[MANI_RETARGET_SECTION_COUNT] = {
    {MANI_RETARGET_INFO, 16},       {MANI_RETARGET_PELVIS, 16}, {MANI_RETARGET_SOURCE_REF, 16},
    {MANI_RETARGET_TARGET_REF, 16}, {MANI_RETARGET_PLANS, 16},
};

#endif
