/* The spring set file format (docs/formats.md, "Spring set") and the saved
 * spring state's ("Spring state"): shared by the open and the state
 * (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_SPRING_FORMAT_H
#define MAUL_ANIM_SPRING_FORMAT_H

#include "lib/core/container.h"
#include "maul/anim/spring.h"

/* Spring set section tags and their order. */
#define MANI_SPRING_INFO MCORE_TAG(20, 1)      /* u64 skeleton identity, u32 bones, springs, joints, colliders, links, tracked, f32 reference rate, step rate, u32 name bytes, 0 */
#define MANI_SPRING_SPRINGS MCORE_TAG(20, 2)   /* 48 bytes per spring */
#define MANI_SPRING_JOINTS MCORE_TAG(20, 3)    /* 64 bytes per joint */
#define MANI_SPRING_COLLIDERS MCORE_TAG(20, 4) /* 48 bytes per collider */
#define MANI_SPRING_LINKS MCORE_TAG(20, 5)     /* u32 collider per link */
#define MANI_SPRING_TRACKED MCORE_TAG(20, 6)   /* u32 bone per tracked bone, increasing */
#define MANI_SPRING_NAMES MCORE_TAG(20, 7)     /* the springs' names' UTF-8 bytes */
#define MANI_SPRING_SECTION_COUNT 7u

#define MANI_SPRING_INFO_SIZE 48u
/* A spring: u32 first joint, joint count, first link, link count, center
 * bone (or MANI_NO_BONE), center's tracked index, the first joint's
 * parent's tracked index (or MANI_NO_BONE), name offset, name length, 12
 * zero bytes. */
#define MANI_SPRING_SPRING_SIZE 48u
/* A joint: u32 bone, tracked index, f32 hit radius, stiffness (a step's),
 * drag (a step's), gravity (a step's), gravity direction xyz, u32 limit
 * kind, f32 limit rotation xyzw, angle, angle2. A spring's last joint holds
 * zeros but its bone and tracked index, and the identity rotation. */
#define MANI_SPRING_JOINT_SIZE 64u
/* A collider: u32 bone, tracked index, kind, f32 offset xyz, radius, tail
 * (or normal) xyz, 8 zero bytes. */
#define MANI_SPRING_COLLIDER_SIZE 48u

/* Saved state section tags (kind mcore_kindSavedState). */
#define MANI_SPRING_STATE_INFO MCORE_TAG(21, 1)   /* u64 set identity, u32 flags, tracked, joints, 0, f64 time since the last step (steps) */
#define MANI_SPRING_STATE_CALL MCORE_TAG(21, 2)   /* f32: last placement (10), last step's placement (10), last force (3), 0 */
#define MANI_SPRING_STATE_MODELS MCORE_TAG(21, 3) /* 10 f32 per tracked bone: the last call's model transforms */
#define MANI_SPRING_STATE_TAILS MCORE_TAG(21, 4)  /* 6 f32 per joint: tail, previous tail */
#define MANI_SPRING_STATE_SECTION_COUNT 4u
#define MANI_SPRING_STATE_INFO_SIZE 32u
#define MANI_SPRING_STATE_CALL_SIZE 96u

/* State flags. */
#define MANI_SPRING_HAS_LAST 1u   /* a call's pose, placement and force are held */
#define MANI_SPRING_HAS_MOTION 2u /* a step has placed the tails */

/* How far before a step's time a call may end and still run it (in steps):
 * host deltas in binary32 that sum to a whole number of steps run them. */
#define MANI_SPRING_TIME_SLACK (1.0 / 1024.0)

/* The value maniSpringSet.opened holds once an open wrote the view. */
#define MANI_SPRING_OPENED 0x53505247u /* "SPRG" */

static const mcore_SectionSpec maniSpringSections[MANI_SPRING_SECTION_COUNT] = {
    {MANI_SPRING_INFO, 16},  {MANI_SPRING_SPRINGS, 16}, {MANI_SPRING_JOINTS, 16}, {MANI_SPRING_COLLIDERS, 16},
    {MANI_SPRING_LINKS, 16}, {MANI_SPRING_TRACKED, 16}, {MANI_SPRING_NAMES, 16},
};

static const mcore_SectionSpec maniSpringStateSections[MANI_SPRING_STATE_SECTION_COUNT] = {
    {MANI_SPRING_STATE_INFO, 16},
    {MANI_SPRING_STATE_CALL, 16},
    {MANI_SPRING_STATE_MODELS, 16},
    {MANI_SPRING_STATE_TAILS, 16},
};

#endif
