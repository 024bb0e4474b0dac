/* Internal helpers of skeleton views, for the other runtime areas. */
#ifndef MAUL_ANIM_SKELETON_INTERNAL_H
#define MAUL_ANIM_SKELETON_INTERNAL_H

#include "lib/anim/src/skeleton/skeleton_format.h"
#include "maul/anim/skeleton.h"

/* Whether a view was written by an open and its counts fit its file. */
int mani_SkeletonViewOk(const maniSkeleton* s);

/* A bone's parent as the bytes hold it (bone < count, view ok): unchecked
 * against the bone, for callers that report a changed parent themselves. */
uint32_t mani_SkeletonParentRaw(const maniSkeleton* s, uint32_t bone);

/* The parents section as the bytes hold it: boneCount little-endian u32
 * (view ok; the bytes may have changed after the open, so a reader checks
 * each parent is below its bone). */
const uint8_t* mani_SkeletonParentsRaw(const maniSkeleton* s);

/* A bone's rest as the bytes hold it (bone < count, view ok). */
maniTransform mani_SkeletonRestRaw(const maniSkeleton* s, uint32_t bone);

maniTransform mani_IdentityTransform(void);
maniAffine mani_IdentityAffine(void);

#endif
