/* Maul Anim: mirror.h
 *
 * Mirror maps: how poses of a skeleton are mirrored across a plane through
 * the model's origin. A map is built offline for its skeleton
 * (mirrorbuild.h) and opened in place; each bone takes its partner's local
 * (its own when unpaired) carried through the reference pose's model
 * rotations, so rigs whose left and right bones do not have mirrored axes
 * mirror to their reference. The mirror map file format is in
 * docs/formats.md ("Mirror map").
 */
#ifndef MAUL_ANIM_MIRROR_H
#define MAUL_ANIM_MIRROR_H

#include "maul/anim/pose.h"
#include "maul/anim/rootmotion.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The axis a mirror plane is normal to: the plane through the model's origin
 * where that coordinate is 0. Frozen values (files record them). */
typedef enum maniMirrorAxis {
    maniMirrorAxisX = 0, /* the plane x = 0: x negated (the usual left/right of a Y-up character facing Z) */
    maniMirrorAxisY = 1, /* the plane y = 0: y negated */
    maniMirrorAxisZ = 2  /* the plane z = 0: z negated */
} maniMirrorAxis;

/* Bone flag: the bone's parent's partner is not its partner's parent, so its
 * mirrored pose is its partner's local turn mirrored rather than its
 * partner's model turn. */
#define MANI_MIRROR_BONE_UNMATCHED 1u

/* Bone flag: the turn between the bone's reference frame and its partner's
 * mirrored one takes some axis off the axes, so a scale that differs between
 * axes is carried as the nearest axis scale (a uniform scale stays exact). */
#define MANI_MIRROR_BONE_SCALE_APPROXIMATE 2u

/* A mirror map view: where an open found the file's parts. A value the
 * caller keeps (it points into the caller's bytes, which must outlive it);
 * only maniOpenMirrorMap writes one. Accessors check that the view was
 * written by an open and that its counts fit its file, so a zeroed or
 * damaged view reads as empty, never outside the bytes. */
typedef struct maniMirrorMap {
    const uint8_t* bytes;      /* the file */
    uint64_t size;             /* its size */
    uint64_t identity;         /* the file's identity (the hash of its sections) */
    uint64_t skeletonIdentity; /* the identity of the skeleton it mirrors */
    uint32_t opened;           /* set by an open */
    uint32_t boneCount;        /* the skeleton's bone count */
    uint32_t axis;             /* a maniMirrorAxis */
    uint32_t unmatchedBone;    /* the first unmatched bone, or MANI_NO_BONE */
    uint32_t nameCount;        /* entries of the name table */
    uint32_t reserved;         /* 0 */
    uint64_t partners;         /* offsets of the sections in the file */
    uint64_t flags;
    uint64_t corrections;
    uint64_t nameEntries;
    uint64_t names;
    uint64_t namesSize;
} maniMirrorMap;

/* Opens a mirror map file in place: checks the container, the header (the
 * skeleton's identity and bone count, the axis, the name count, the first
 * unmatched bone), every bone's partner (within the count, pairing back),
 * flags (a scale permutation or the approximate flag, the first unmatched
 * one the header's) and corrections (finite, of length 1), and every name
 * pair (by increasing hash, its partner's name inside the names, UTF-8, of
 * its hash). bytes must start at a multiple of MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. mapOut is unchanged on failure. Safe from any thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenMirrorMap(const void* bytes, size_t size, maniMirrorMap* mapOut);

/* A map's identity: the hash of its sections; 0 for NULL (or a view no open
 * wrote). Safe from any thread. */
MANI_API uint64_t maniMirrorMap_GetIdentity(const maniMirrorMap* map);

/* The identity of the skeleton a map mirrors; 0 for NULL. Safe from any
 * thread. */
MANI_API uint64_t maniMirrorMap_GetSkeletonIdentity(const maniMirrorMap* map);

/* The axis a map's plane is normal to: maniMirrorAxisX, Y or Z;
 * maniMirrorAxisX for NULL. Safe from any thread. */
MANI_API maniMirrorAxis maniMirrorMap_GetAxis(const maniMirrorMap* map);

/* A bone's partner: the bone it takes its mirrored local from (itself when
 * unpaired); MANI_NO_BONE for NULL or a bone past the count. Safe from any
 * thread. */
MANI_API uint32_t maniMirrorMap_GetPartner(const maniMirrorMap* map, uint32_t bone);

/* How a bone's mirrored local is made, as flags: MANI_MIRROR_BONE_UNMATCHED
 * and MANI_MIRROR_BONE_SCALE_APPROXIMATE (see their definitions). Without the
 * approximate flag a scale is exact, each axis taking the partner's axis the
 * turn maps to it. 0 for NULL or a bone past the count. Safe from any
 * thread. */
MANI_API uint32_t maniMirrorMap_GetBoneFlags(const maniMirrorMap* map, uint32_t bone);

/* The first bone whose parent's partner is not its partner's parent: where
 * the hierarchy is not mirror-symmetric, so that its mirrored pose is its
 * partner's local turn mirrored rather than its partner's model turn.
 * MANI_NO_BONE for a symmetric hierarchy or NULL. Safe from any thread. */
MANI_API uint32_t maniMirrorMap_GetUnmatchedBone(const maniMirrorMap* map);

/* The partner of a float track's, event's or marker's name (length bytes;
 * name may be NULL when length is 0): the name the map pairs it with, its
 * bytes inside the map, not terminated; or name itself when unpaired (or for
 * a NULL map). *lengthOut (when not NULL) receives the returned name's
 * length. Safe from any thread. */
MANI_API const char* maniMirrorMap_MirrorName(const maniMirrorMap* map, const char* name, size_t length,
                                              size_t* lengthOut);

/* The hash of a name's partner from the name's hash (the name hash
 * skeletons use: maniHash64 with the name seed of docs/formats.md), for names kept hashed (events, markers): the hash of the name the map
 * pairs it with, or the hash itself (also for a NULL map). Safe from any
 * thread. */
MANI_API uint64_t maniMirrorMap_MirrorNameHash(const maniMirrorMap* map, uint64_t hash);

/* Mirrors a pose: each bone takes its partner's local (its own when
 * unpaired), the translation's component along the normal negated and
 * turned by the bone's correction from its partner's parent's reference
 * frame mirrored to its parent's, the rotation mirrored between the
 * corrections into its own reference axes, the scale as it is (each axis
 * the partner's axis the correction maps to it). On a mirror-symmetric
 * hierarchy each bone's model position is its partner's reflected and its
 * model rotation its partner's mirrored, carried to its own reference axes,
 * so the rest's model rotations stay; mirroring twice gives the pose back
 * (bit for bit where the corrections are the identity). Writes every local
 * of poseOut and leaves its model stale; in and poseOut may be the same
 * pose. Allocates nothing.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a skeleton
 * whose identity or bone count is not the map's, a pose of another
 * skeleton, or a difference (poseOut unchanged). Safe from any thread;
 * poseOut is used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniMirrorMap_MirrorPose(const maniMirrorMap* map, const maniSkeleton* skeleton,
                                                            const maniPose* in, maniPose* poseOut);

/* Mirrors a root motion move: its translation's component along the normal
 * negated, its rotation mirrored (the turn the reflection makes of it: the
 * two quaternion components off the normal negated). A NULL map mirrors
 * across maniMirrorAxisX. Safe from any thread. */
MANI_API maniRootMove maniMirrorMap_MirrorRootMotion(const maniMirrorMap* map, maniRootMove move);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_MIRROR_H */
