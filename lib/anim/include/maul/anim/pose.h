/* Maul Anim: pose.h
 *
 * Poses: a skeleton's local transforms and the model matrices composed from
 * them, in memory the caller owns. A pose holds no pointers: copying its
 * bytes copies the pose, and it may move between threads. A pose is used by
 * one thread at a time.
 *
 * Layout (internal, for the curious): a 64-byte header, then the locals and
 * the model matrices in groups of eight bones (structure of arrays), the
 * lanes past the bone count held at the identity.
 */
#ifndef MAUL_ANIM_POSE_H
#define MAUL_ANIM_POSE_H

#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The byte alignment of a pose's memory (mani_errorInvalid otherwise). */
#define MANI_POSE_ALIGNMENT 32u

/* A pose, in caller memory made by maniInitPose. Opaque. */
typedef struct maniPose maniPose;

/* The bytes a pose of the skeleton needs; 0 for a view no open wrote or
 * whose counts do not fit its file. Safe from any thread. */
MANI_API size_t maniSkeleton_GetPoseSize(const maniSkeleton* skeleton);

/* Makes a pose of the skeleton in caller memory (size bytes at a multiple of
 * MANI_POSE_ALIGNMENT), every bone at its rest, the model matrices composed.
 * Returns mani_success; mani_errorInvalid for a NULL argument, misaligned
 * memory, or a skeleton view no open wrote or whose counts do not fit its
 * file; mani_errorCapacity when size is too small; mani_errorFormat, with
 * *poseOut set and its model not current, when a parent in the skeleton's
 * bytes is not a lower index. Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniInitPose(const maniSkeleton* skeleton, void* memory, size_t size,
                                                maniPose** poseOut);

/* The number of bones of the pose's skeleton (0 for NULL). */
MANI_API uint32_t maniPose_GetBoneCount(const maniPose* pose);

/* A bone's local transform, or the identity for a bone past the count. */
MANI_API maniTransform maniPose_GetLocal(const maniPose* pose, uint32_t bone);

/* Sets a bone's local transform and marks the model matrices stale. A bone
 * past the count (or a NULL pose) is ignored. */
MANI_API void maniPose_SetLocal(maniPose* pose, uint32_t bone, maniTransform transform);

/* Reads the local transforms of bones first to first + count - 1.
 * mani_errorInvalid for a NULL argument or a range past the bone count. */
MANI_NODISCARD MANI_API maniResult maniPose_ReadLocals(const maniPose* pose, uint32_t first, uint32_t count,
                                                       maniTransform* transformsOut);

/* Writes the local transforms of bones first to first + count - 1 and marks
 * the model matrices stale. mani_errorInvalid for a NULL argument or a range
 * past the bone count (the pose unchanged). */
MANI_NODISCARD MANI_API maniResult maniPose_WriteLocals(maniPose* pose, uint32_t first, uint32_t count,
                                                        const maniTransform* transforms);

/* Sets every bone to the skeleton's rest and composes the model; the pose is
 * then a pose of the skeleton, not a difference. mani_errorInvalid for a NULL
 * argument, a skeleton of another identity, or a skeleton view no open wrote
 * or whose counts do not fit its file; mani_errorFormat, the locals at rest
 * and the model not current, when a parent in the skeleton's bytes is not a
 * lower index (the bytes changed after the open). */
MANI_NODISCARD MANI_API maniResult maniPose_SetRest(maniPose* pose, const maniSkeleton* skeleton);

/* Composes every bone's model matrix: its parent's model matrix times its
 * local transform's matrix (scale, then rotation, then translation), a
 * root's being its local's. mani_errorInvalid for a NULL argument, a
 * skeleton of another identity or a difference (which has no model), or a
 * skeleton view no open wrote or whose counts do not fit its file;
 * mani_errorFormat, the model not current, when a parent in the skeleton's
 * bytes is not a lower index (the bytes changed after the open). */
MANI_NODISCARD MANI_API maniResult maniPose_ComputeModel(maniPose* pose, const maniSkeleton* skeleton);

/* Whether the model matrices match the local transforms: true after
 * maniPose_ComputeModel until a local is set. */
MANI_API bool maniPose_IsModelCurrent(const maniPose* pose);

/* Whether the pose holds a difference: what maniSkeleton_ComputePoseDifference
 * writes and additive layers apply, never mixed with poses of the skeleton.
 * Making a pose, setting its rest and sampling a whole clip into it make it a
 * pose of the skeleton. */
MANI_API bool maniPose_IsDifference(const maniPose* pose);

/* A bone's model matrix as last composed, or the identity for a bone past
 * the count. */
MANI_API maniAffine maniPose_GetModel(const maniPose* pose, uint32_t bone);

/* Reads the model matrices of bones first to first + count - 1, as last
 * composed. mani_errorInvalid for a NULL argument or a range past the bone
 * count. */
MANI_NODISCARD MANI_API maniResult maniPose_ReadModels(const maniPose* pose, uint32_t first, uint32_t count,
                                                       maniAffine* matricesOut);

/* Splits an affine matrix into translation, rotation and scale: the fourth
 * column, the rotation of the polar decomposition (the rotation nearest the
 * matrix, exact up to rounding when the matrix has no shear) as a quaternion
 * with w >= 0, and the scale along the rotated axes. A mirror becomes a
 * negative x scale. A matrix with a zero or flat axis still splits, its
 * rotation built from the axes that are left (none left: the identity).
 * Computed in binary64. mani_errorInvalid for a NULL argument or a component
 * that is not finite (transformOut unchanged). Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniDecomposeAffine(const maniAffine* matrix, maniTransform* transformOut);

/* A bone's model matrix, as last composed, split as maniDecomposeAffine
 * splits it; the identity for a bone past the count or a matrix that is not
 * finite. */
MANI_API maniTransform maniPose_GetModelTransform(const maniPose* pose, uint32_t bone);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_POSE_H */
