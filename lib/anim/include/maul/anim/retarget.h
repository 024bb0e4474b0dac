/* Maul Anim: retarget.h
 *
 * Retargeting maps: how poses of one skeleton (the source) become poses of
 * another (the target). A map is built offline for its two skeletons
 * (retargetbuild.h) and opened in place; each target bone takes its
 * rotation from a source bone, from two neighbors along a chain, or keeps
 * its reference, as a model-space turn from each side's reference pose. The
 * retarget map file format is in docs/formats.md ("Retarget map").
 */
#ifndef MAUL_ANIM_RETARGET_H
#define MAUL_ANIM_RETARGET_H

#include "maul/anim/pose.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a mapped target bone's translation comes from. Frozen values (files
 * record them). */
typedef enum maniRetargetTranslation {
    maniRetargetTranslationOwn = 0,     /* the target reference's: proportions kept */
    maniRetargetTranslationScaled = 1,  /* the target reference's plus the source's change from its reference,
                                           times the pelvis height ratio (1 without a pelvis) */
    maniRetargetTranslationAbsolute = 2 /* the source's own */
} maniRetargetTranslation;

/* A retargeting map view: where an open found the file's parts. A value the
 * caller keeps (it points into the caller's bytes, which must outlive it);
 * only maniOpenRetargetMap writes one. Accessors check that the view was
 * written by an open and that its counts fit its file, so a zeroed or
 * damaged view reads as empty, never outside the bytes. */
typedef struct maniRetargetMap {
    const uint8_t* bytes;       /* the file */
    uint64_t size;              /* its size */
    uint64_t identity;          /* the file's identity (the hash of its sections) */
    uint64_t sourceIdentity;    /* the identity of the skeleton poses come from */
    uint64_t targetIdentity;    /* the identity of the skeleton poses are made for */
    uint32_t opened;            /* set by an open */
    uint32_t sourceBoneCount;   /* the source skeleton's bone count */
    uint32_t targetBoneCount;   /* the target skeleton's bone count */
    uint32_t hasPelvis;         /* 1 when the map has a pelvis, else 0 */
    uint64_t pelvis;            /* offsets of the sections in the file (the pelvis's size 0 when none) */
    uint64_t sourceReference;
    uint64_t targetReference;
    uint64_t plans;
} maniRetargetMap;

/* Opens a retargeting map file in place: checks the container, the header
 * (the skeletons' identities and bone counts), the pelvis when the map has
 * one (its bones within the counts, its up axis of length 1, its scales and
 * height ratio finite and not negative, its blends and weight in [0, 1],
 * its reference positions finite; absent, no pelvis), both reference poses
 * (finite, rotations of length 1) and every target bone's plan (its kind,
 * its source bones within the source's count, its place and weight in
 * [0, 1], its translation and scale settings, its turns finite and of
 * length 1, unused words 0). bytes must start at a multiple of
 * MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. mapOut is unchanged on failure. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenRetargetMap(const void* bytes, size_t size, maniRetargetMap* mapOut);

/* A map's identity: the hash of its sections; 0 for NULL (or a view no open
 * wrote). Safe from any thread. */
MANI_API uint64_t maniRetargetMap_GetIdentity(const maniRetargetMap* map);

/* The identity of the skeleton a map takes poses from; 0 for NULL. Safe from
 * any thread. */
MANI_API uint64_t maniRetargetMap_GetSourceIdentity(const maniRetargetMap* map);

/* The identity of the skeleton a map makes poses for; 0 for NULL. Safe from
 * any thread. */
MANI_API uint64_t maniRetargetMap_GetTargetIdentity(const maniRetargetMap* map);

/* The scratch maniRetargetMap_RetargetPose takes with a map: a rotation
 * (16 bytes) for every bone of both skeletons, aligned to 16 bytes; 0 for
 * NULL. Safe from any thread. */
MANI_API size_t maniRetargetMap_GetScratchSize(const maniRetargetMap* map);

/* Makes a pose of the target from a pose of the source through a map. Each
 * bone's model rotation is the product of its root path's local rotations.
 * A mapped target bone's model rotation is the source bone's times the
 * inverse of the source's reference model rotation (two source bones' such
 * turns slerped at the bone's place), slerped from no turn by its weight,
 * times the target's reference model rotation; its local rotation is taken
 * against its parent's as just made (where the bone and its parent follow a
 * source bone and its parent at weight 1, as the turns between the
 * references composed on the source's local, so a map between equal
 * references gives the source's locals bit for bit). An unmapped bone keeps
 * its reference local. Translations are the target reference's ("own"),
 * the source's change from its reference scaled by the pelvis height ratio
 * ("scaled", added to the target reference's) or the source's own
 * ("absolute"), turned from the source parent's reference model frame to
 * the target parent's; a bone whose scale carries takes its reference's
 * times the source's over the source reference's, per axis. The pelvis's
 * model position is the target reference's plus the source pelvis's change
 * from its reference, its horizontal and vertical parts scaled by the map's
 * scales, blended per model axis toward the unscaled change and then toward
 * the source pelvis's position, weighted from the reference. Writes every
 * local of the target pose and leaves its model stale. Allocates nothing.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a skeleton
 * whose identity or bone count is not the map's, a pose of another
 * skeleton, a source pose of differences, targetPoseOut's memory
 * overlapping sourcePose's, misaligned or too little scratch (targetPoseOut
 * unchanged). Safe from any thread; the target pose and the scratch are
 * used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniRetargetMap_RetargetPose(const maniRetargetMap* map, const maniSkeleton* source,
                                                                const maniPose* sourcePose, const maniSkeleton* target,
                                                                maniPose* targetPoseOut, void* scratch,
                                                                size_t scratchSize);

/* Scales a root motion delta (model space) of the source for the target:
 * its part along the map's up axis by the vertical scale, the rest by the
 * horizontal scale (both 1 without a pelvis, or for a NULL map). Safe from
 * any thread. */
MANI_API maniVec3 maniRetargetMap_RetargetRootMotion(const maniRetargetMap* map, maniVec3 delta);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_RETARGET_H */
