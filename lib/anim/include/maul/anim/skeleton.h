/* Maul Anim: skeleton.h
 *
 * Skeletons: bones in depth-first order, each with a parent, a rest
 * transform and a unique name, read in place from a skeleton file's bytes.
 * Opening a file checks all of it once; the view then reads it without
 * checks and allocates nothing. The skeleton file format is in
 * docs/formats.md.
 */
#ifndef MAUL_ANIM_SKELETON_H
#define MAUL_ANIM_SKELETON_H

#include "maul/anim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Limits ------------------------------------------------------------------- */

/* The most bones a skeleton holds. */
#define MANI_MAX_BONES 4096u

/* The longest name, in UTF-8 bytes, of a bone or any other named item. */
#define MANI_MAX_NAME_BYTES 255u

/* No bone: a root's parent, a name that matches nothing. */
#define MANI_NO_BONE 0xFFFFFFFFu

/* The byte alignment every file's bytes must start at (mani_errorInvalid
 * otherwise). */
#define MANI_FILE_ALIGNMENT 16u

/* -- Math types ----------------------------------------------------------------- */

/* A 3-vector. */
typedef struct maniVec3 {
    float x, y, z;
} maniVec3;

/* A rotation as a unit quaternion x i + y j + z k + w. */
typedef struct maniQuat {
    float x, y, z, w;
} maniQuat;

/* A bone transform: scale, then rotation, then translation, so a point p
 * maps to translation + rotate(rotation, scale * p). */
typedef struct maniTransform {
    maniVec3 translation;
    maniQuat rotation;
    maniVec3 scale;
} maniTransform;

/* An affine 3x4 matrix by columns: columns[0..2] the linear part's columns,
 * columns[3] the translation; p' = c0 p.x + c1 p.y + c2 p.z + c3. */
typedef struct maniAffine {
    maniVec3 columns[4];
} maniAffine;

/* -- The view ------------------------------------------------------------------- */

/* A skeleton view: where an open found the file's parts. A value the caller
 * keeps (it points into the caller's bytes, which must outlive it); only
 * maniOpenSkeleton writes one. Accessors check that the view was written by
 * an open and that its counts fit its file, so a zeroed or damaged view
 * reads as empty, never outside the bytes. */
typedef struct maniSkeleton {
    const uint8_t* bytes;  /* the file */
    uint64_t size;         /* its size */
    uint64_t identity;     /* the file's identity */
    uint32_t opened;       /* set by an open */
    uint32_t boneCount;
    uint64_t parents;      /* offsets of the sections in the file */
    uint64_t subtreeEnds;
    uint64_t rests;
    uint64_t nameSpans;
    uint64_t names;
    uint64_t namesSize;
    uint64_t nameHashes;
    uint64_t nameOrder;
} maniSkeleton;

/* -- Functions ------------------------------------------------------------------ */

/* Opens a skeleton file in place: checks the container and every section
 * (counts, depth-first order, rests finite with unit rotations, names valid
 * UTF-8, unique and matching their hashes, the identity) and fills the view.
 * bytes must start at a multiple of MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. skeletonOut is unchanged on failure.
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenSkeleton(const void* bytes, size_t size, maniSkeleton* skeletonOut);

/* The number of bones, 1 to MANI_MAX_BONES; 0 for a view no open wrote or
 * whose counts do not fit its file. Safe from any thread. */
MANI_API uint32_t maniSkeleton_GetBoneCount(const maniSkeleton* skeleton);

/* The skeleton's identity: a hash of its bones' order, parents, rests and
 * names, which files built against it record; 0 for a view no open wrote or
 * whose counts do not fit its file. Safe from any thread. */
MANI_API uint64_t maniSkeleton_GetIdentity(const maniSkeleton* skeleton);

/* A bone's parent, always a lower index; MANI_NO_BONE for a root, a bone
 * past the count, a view no open wrote or whose counts do not fit its file,
 * or a parent in the bytes that is not a lower index. Safe from any thread. */
MANI_API uint32_t maniSkeleton_GetParent(const maniSkeleton* skeleton, uint32_t bone);

/* The end of a bone's subtree: the bone and its descendants are the indices
 * from bone up to, not including, the end. bone itself (an empty range) for a
 * bone past the count, a view no open wrote or whose counts do not fit its
 * file, or an end in the bytes past the count. Safe from any thread. */
MANI_API uint32_t maniSkeleton_GetSubtreeEnd(const maniSkeleton* skeleton, uint32_t bone);

/* A bone's rest transform, relative to its parent; the identity transform
 * for a bone past the count or a view no open wrote or whose counts do not
 * fit its file. Safe from any thread. */
MANI_API maniTransform maniSkeleton_GetRest(const maniSkeleton* skeleton, uint32_t bone);

/* A bone's name, UTF-8 and not terminated, inside the file; its length in
 * *lengthOut (when not NULL; 0 on NULL returns). NULL for a bone past the
 * count, a view no open wrote or whose counts do not fit its file, or a name
 * span in the bytes past the names. Safe from any thread. */
MANI_API const char* maniSkeleton_GetBoneName(const maniSkeleton* skeleton, uint32_t bone, size_t* lengthOut);

/* Finds a bone by its name (length bytes; name may be NULL when length is
 * 0). MANI_NO_BONE when no bone has that name, or for a view no open wrote
 * or whose counts do not fit its file. Safe from any thread. */
MANI_API uint32_t maniSkeleton_FindBone(const maniSkeleton* skeleton, const char* name, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_SKELETON_H */
