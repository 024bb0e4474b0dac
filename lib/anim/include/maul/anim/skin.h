/* Maul Anim: skin.h
 *
 * Skins: the bones a mesh is bound to, in the mesh's order, each with its
 * inverse bind matrix, read in place from a skin file and bound to one
 * skeleton by its identity; and the palettes a renderer skins with.
 * Opening a file checks all of it once; the view then reads it without
 * checks and allocates nothing. The skin file format is in docs/formats.md
 * ("Skin").
 */
#ifndef MAUL_ANIM_SKIN_H
#define MAUL_ANIM_SKIN_H

#include "maul/anim/pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- The view ------------------------------------------------------------------- */

/* A skin view: where an open found the file's parts. A value the caller
 * keeps (it points into the caller's bytes, which must outlive it); only
 * maniOpenSkin writes one. Accessors check that the view was written by an
 * open and that its counts fit its file, so a zeroed or damaged view reads
 * as empty, never outside the bytes. */
typedef struct maniSkin {
    const uint8_t* bytes;       /* the file */
    uint64_t size;              /* its size */
    uint64_t identity;          /* the file's identity (the skin's own) */
    uint64_t skeletonIdentity;  /* the identity of the skeleton the skin is bound to */
    uint32_t opened;            /* set by an open */
    uint32_t jointCount;        /* 1 to MANI_MAX_BONES */
    uint32_t skeletonBoneCount; /* the bound skeleton's bone count, 1 to MANI_MAX_BONES */
    uint32_t reserved;          /* 0 */
    uint64_t joints;            /* offset of the joints section: u32 bone per joint */
    uint64_t inverseBinds;      /* offset of the inverse binds section: 12 f32 per joint, by columns */
} maniSkin;

/* -- Functions ------------------------------------------------------------------ */

/* Opens a skin file in place: checks the container, the sizes, every joint
 * against the skeleton's bone count the file records, and every inverse bind
 * finite, and fills the view. bytes must start at a multiple of
 * MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. skinOut is unchanged on failure.
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenSkin(const void* bytes, size_t size, maniSkin* skinOut);

/* The number of joints, at least 1; 0 for a view no open wrote or whose
 * counts do not fit its file. Safe from any thread. */
MANI_API uint32_t maniSkin_GetJointCount(const maniSkin* skin);

/* The identity of the skeleton the skin is bound to; 0 for a view no open
 * wrote or whose counts do not fit its file. Safe from any thread. */
MANI_API uint64_t maniSkin_GetSkeletonIdentity(const maniSkin* skin);

/* The skin's own identity (the file's: a hash of its sections), which
 * influences record to bind to it; 0 for a view no open wrote or whose
 * counts do not fit its file. Safe from any thread. */
MANI_API uint64_t maniSkin_GetIdentity(const maniSkin* skin);

/* The skeleton bone of a joint; MANI_NO_BONE for a joint past the count, a
 * view no open wrote or whose counts do not fit its file, or a bone in bytes
 * changed after the open past the skeleton's bones. Safe from any thread. */
MANI_API uint32_t maniSkin_GetJoint(const maniSkin* skin, uint32_t joint);

/* A joint's inverse bind matrix (model space to the joint's bind space);
 * the identity for a joint past the count or a view no open wrote or whose
 * counts do not fit its file. Safe from any thread. */
MANI_API maniAffine maniSkin_GetInverseBind(const maniSkin* skin, uint32_t joint);

/* Computes a skin's palette: entry j is the model matrix of joint j's bone
 * times the joint's inverse bind matrix, P = M B, in binary32 in a fixed
 * order: row r of column c is ((M.c0.r * B.cc.x + M.c1.r * B.cc.y) +
 * M.c2.r * B.cc.z), plus M.c3.r for the translation (column 3) - the order
 * the pose composes its model in. *countOut receives the joint count.
 * Returns mani_success; mani_errorCapacity when capacity is smaller than the
 * joint count, with the count written and nothing else; mani_errorInvalid
 * for a skin view no open wrote or whose counts do not fit its file, a NULL
 * argument, a skeleton that is not the skin's (identity and bone count) or
 * the pose's, a pose whose model is stale, or a difference. A joint's bone in
 * bytes changed after the open past the skeleton's bones reads the root's
 * (bone 0's) model, within the pose.
 * Safe from any thread; the pose is used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniPose_ComputePalette(const maniPose* pose, const maniSkeleton* skeleton,
                                                           const maniSkin* skin, maniAffine* paletteOut,
                                                           uint32_t capacity, uint32_t* countOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_SKIN_H */
