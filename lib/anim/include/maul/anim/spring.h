/* Maul Anim: spring.h
 *
 * Spring bones: chains of bones that sway behind the motion as
 * VRMC_springBone 1.0 defines them, with its extended colliders (inside
 * spheres and capsules, planes) and angle limits (cones, hinges, spherical
 * limits). A set is built offline for one skeleton (maniBuildSpringSet in
 * build.h), its per-frame values converted to a fixed step, and opened in
 * place. A state, in caller memory, steps at the set's fixed rate whatever
 * the host's frame rate, so every machine computes the same bits, and saves
 * and restores as checked bytes a lockstep game can send.
 *
 * Conventions of the stepping (docs/formats.md, "Spring set"):
 * - a joint's tail is the next joint's bone; the last joint of a spring is
 *   only its tail;
 * - tails live in the world: the placement (the model's world transform)
 *   applied to the pose's model transforms; a spring with a center bone
 *   keeps them in the center's space between steps;
 * - a step: next = tail + (tail - previous) (1 - drag) + the pose's
 *   direction stiffness + (gravity direction gravity + force) / step rate,
 *   put back at the bone's length from the joint, pushed out of the
 *   spring's colliders in their order (stays inside inside ones), kept at
 *   the length again, then within the joint's limit;
 * - drag, stiffness and gravity are per step: the build turns drag d per
 *   frame of the reference rate into 1 - (1 - d)^(reference / step) and
 *   stiffness and gravity (per second, as VRMC_springBone scales them by the
 *   frame's seconds) into their per-step displacements.
 */
#ifndef MAUL_ANIM_SPRING_H
#define MAUL_ANIM_SPRING_H

#include "maul/anim/pose.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most fixed steps one maniSpringState_Step may run: a longer delta is
 * refused (a host that stalled resets or steps in parts). */
#define MANI_SPRING_MAX_STEPS 256u

/* The format version of saved spring states (maniSpringState_Save): a saved
 * state of another version is refused with mani_errorVersion. */
#define MANI_SPRING_STATE_VERSION 1u

/* The kind of a collider shape. Frozen values (files record them). */
typedef enum maniSpringShapeKind {
    maniSpringShapeSphere = 0,        /* a sphere at offset of radius: tails are pushed out */
    maniSpringShapeCapsule = 1,       /* the segment offset to tail swept by radius: tails are pushed out */
    maniSpringShapeInsideSphere = 2,  /* a sphere tails are kept inside (VRMC_springBone_extended_collider) */
    maniSpringShapeInsideCapsule = 3, /* a capsule tails are kept inside */
    maniSpringShapePlane = 4          /* the plane through offset of normal (tail field): tails kept on its positive side */
} maniSpringShapeKind;

/* The kind of a joint's angle limit (VRMC_springBone_limit 1.0). Frozen
 * values. The limit's frame is the joint's parent's world rotation times
 * the joint's local rotation in the pose times the limit's rotation; its Y
 * axis is the rest direction. */
typedef enum maniSpringLimitKind {
    maniSpringLimitNone = 0,      /* no limit */
    maniSpringLimitCone = 1,      /* the tail within angle (radians) of the frame's Y axis */
    maniSpringLimitHinge = 2,     /* the tail on the frame's YZ plane (turning about X) within angle of Y */
    maniSpringLimitSpherical = 3  /* the tail within pitch (about X, angle) and yaw (about Y, angle2) of Y */
} maniSpringLimitKind;

/* A spring set view: where an open found the file's parts. A value the
 * caller keeps (it points into the caller's bytes, which must outlive it);
 * only maniOpenSpringSet writes one. Accessors check that the view was
 * written by an open and its counts fit its file, so a zeroed or damaged
 * view reads as empty, never outside the bytes. */
typedef struct maniSpringSet {
    const uint8_t* bytes;      /* the file */
    uint64_t size;             /* its size */
    uint64_t identity;         /* the file's identity (the hash of its sections) */
    uint64_t skeletonIdentity; /* the identity of the skeleton it was built for */
    uint32_t opened;           /* set by an open */
    uint32_t boneCount;        /* the skeleton's bone count */
    uint32_t springCount;      /* springs (chains) */
    uint32_t jointCount;       /* joints of every spring, tails included */
    uint32_t colliderCount;    /* colliders */
    uint32_t linkCount;        /* entries of the springs' collider lists */
    uint32_t trackedCount;     /* bones a state follows (joints, their parents, collider bones, centers) */
    float referenceRate;       /* frames a second the source's drag was per frame of */
    float stepRate;            /* fixed steps a second */
    uint32_t namesSize;        /* bytes of the springs' names */
    uint64_t springs;          /* offsets of the sections in the file */
    uint64_t joints;
    uint64_t colliders;
    uint64_t links;
    uint64_t tracked;
    uint64_t names;
} maniSpringSet;

/* A spring state: made in caller memory by maniInitSpringState, used by one
 * thread at a time. It points at its set and skeleton, which must outlive
 * it. */
typedef struct maniSpringState maniSpringState;

/* Opens a spring set file in place: checks the container and every record
 * (bones within the skeleton's count, shapes, chains each joint above the
 * next as far as the file can tell (increasing bones), links, names, every
 * float finite and in its range). bytes must start at a multiple of
 * MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. setOut is unchanged on failure. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenSpringSet(const void* bytes, size_t size, maniSpringSet* setOut);

/* A set's identity: the hash of its sections; 0 for NULL. Safe from any
 * thread. */
MANI_API uint64_t maniSpringSet_GetIdentity(const maniSpringSet* set);

/* The identity of the skeleton a set was built for; 0 for NULL. Safe from
 * any thread. */
MANI_API uint64_t maniSpringSet_GetSkeletonIdentity(const maniSpringSet* set);

/* The number of springs (chains) in a set; 0 for NULL. Safe from any
 * thread. */
MANI_API uint32_t maniSpringSet_GetSpringCount(const maniSpringSet* set);

/* A spring's name, its bytes inside the set (not terminated); *lengthOut
 * (when not NULL) receives its length. NULL for a NULL set or an index past
 * the springs, and an empty name's position (length 0) for a spring with
 * none. Safe from any thread. */
MANI_API const char* maniSpringSet_GetSpringName(const maniSpringSet* set, uint32_t spring, size_t* lengthOut);

/* The rate a set steps at (steps a second), and in *referenceRateOut (when
 * not NULL) the rate its source's values were per frame of; 0 for NULL.
 * Safe from any thread. */
MANI_API float maniSpringSet_GetStepRate(const maniSpringSet* set, float* referenceRateOut);

/* The bytes a set's state needs (at a multiple of 16); 0 for NULL. Safe
 * from any thread. */
MANI_API size_t maniSpringSet_GetStateSize(const maniSpringSet* set);

/* Makes a state for a set in caller memory (at a multiple of 16, size
 * bytes), with no motion yet: the first step places every tail where the
 * pose puts it.
 * Returns mani_success; mani_errorInvalid for a NULL argument, misaligned
 * memory or a skeleton of another identity; mani_errorCapacity for too
 * little memory (*stateOut unchanged on failure). Safe from any thread; the
 * state is used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniInitSpringState(const maniSpringSet* set, const maniSkeleton* skeleton,
                                                       void* memory, size_t size, maniSpringState** stateOut);

/* Moves a state on by delta seconds (its magnitude, at most
 * MANI_SPRING_MAX_STEPS steps' seconds) toward a pose: runs the steps due at
 * the set's step rate, each with the pose, placement and force interpolated
 * between the last call's and these at its time (positions and forces
 * linearly, rotations along the shorter arc); time short of a step is kept
 * for the next call. Tails move by inertia less drag, toward the pose's
 * direction by stiffness and by gravity and the external force (a world
 * displacement a second, like gravity) in the world, keep their bone's
 * length, leave colliders (or stay inside inside ones) and keep within
 * their limits; a spring with a center bone carries its inertia in the
 * center's space. placement NULL is the identity, force NULL zero. The pose
 * is read (its model composed when not current), never written.
 * Returns mani_success; mani_errorInvalid for a NULL state or pose, a pose
 * of another bone count or holding a difference, or a delta, placement or
 * force not finite (the state unchanged). Allocates nothing. Safe from any
 * thread; the state and pose are used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniSpringState_Step(maniSpringState* state, maniPose* pose,
                                                        const maniTransform* placement, const maniVec3* force,
                                                        float delta);

/* Turns each spring joint of a pose toward its tail: the last step's tails
 * moved on at their velocity for the time since that step (the last step's
 * own at a host rate the step rate divides), carried into the placement of
 * the last call, then pushed out of their colliders as the last call left
 * them (where a step left a tail inside one, the output is pushed further
 * than the step's own). Joints with no motion yet keep the pose's rotation.
 * Writes the joints' local rotations and leaves the model stale.
 * Returns mani_success; mani_errorInvalid for a NULL argument or a pose of
 * another bone count or holding a difference (the pose unchanged). Safe from
 * any thread; the state and pose are used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniSpringState_Apply(const maniSpringState* state, maniPose* pose);

/* Drops a state's motion: the next step places every tail where the pose
 * puts it (a teleport) and takes its placement and force as the last
 * call's. NULL: nothing. */
MANI_API void maniSpringState_Reset(maniSpringState* state);

/* Saves a state without pointers: its set's identity and its values, in a
 * Maul container (kind saved state, docs/formats.md "Spring state"). Call
 * it with a NULL buffer and capacity 0 to measure; *sizeOut (when not NULL)
 * receives the size.
 * Returns mani_success; mani_errorCapacity when capacity is smaller than the
 * saved state, with the size still written and nothing else;
 * mani_errorInvalid for a NULL state or a NULL buffer with a positive
 * capacity. Safe from any thread; the state is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniResult maniSpringState_Save(const maniSpringState* state, void* bytesOut, size_t capacity,
                                                        size_t* sizeOut);

/* Restores a saved state after checking it as external bytes: the
 * container, the set's identity, the size, every value finite and in its
 * range, rotations of length 1, no values but zeros without motion. bytes
 * must start at a multiple of MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorVersion for a state saved by a release of another ABI
 * version (MANI_ABI_VERSION) or of another state format version;
 * mani_errorFormat with the offset of the first byte found wrong (the state
 * unchanged in either case). Safe from any thread; the state is used by one
 * thread at a time. */
MANI_NODISCARD MANI_API maniFileResult maniSpringState_Restore(maniSpringState* state, const void* bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_SPRING_H */
