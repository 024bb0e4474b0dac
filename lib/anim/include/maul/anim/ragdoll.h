/* Maul Anim: ragdoll.h
 *
 * Ragdoll profiles: a skeleton's ragdoll as data a host maps onto its own
 * physics engine: bodies on a subset of the bones, each with its frame, a
 * primitive shape and a mass, and a swing-twist joint to its parent body
 * with limits and an optional drive. A profile is built offline for one
 * skeleton (maniBuildRagdoll, build.h) and opened in place; the library
 * never simulates it. Lengths are the skeleton's units, angles radians,
 * times seconds; masses and drives are the host engine's units, passed
 * through unconverted. The file format is in docs/formats.md ("Ragdoll
 * profile").
 */
#ifndef MAUL_ANIM_RAGDOLL_H
#define MAUL_ANIM_RAGDOLL_H

#include "maul/anim/pose.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The parent body of the root body: no body. */
#define MANI_RAGDOLL_NO_BODY 0xFFFFFFFFu

/* The largest twist or swing limit: pi in binary32 (3.14159274f, just above
 * pi, so a limit of a half turn passes). */
#define MANI_RAGDOLL_MAX_ANGLE 3.14159274f

/* A body's primitive shape, centred on its frame. Frozen values (files
 * record them). */
typedef enum maniRagdollShape {
    maniRagdollShapeSphere = 0,  /* size.x the radius; y and z 0 */
    maniRagdollShapeCapsule = 1, /* size.x the radius, size.y the full height (caps included) along the frame's y; z 0 */
    maniRagdollShapeBox = 2      /* size the half extents along the frame's x, y and z */
} maniRagdollShape;

/* How the host's engine moves a body. Frozen values. */
typedef enum maniRagdollMotion {
    maniRagdollMotionDynamic = 0,  /* simulated: forces and the joint drive move it */
    maniRagdollMotionKinematic = 1 /* moved by the animation (the velocities of maniRagdoll_ComputeBodiesFromPose) */
} maniRagdollMotion;

/* A rigid frame: a position and a unit rotation, no scale. */
typedef struct maniRagdollFrame {
    maniVec3 position; /* in the frame it is relative to */
    maniQuat rotation; /* unit */
} maniRagdollFrame;

/* A ragdoll profile view: where an open found the file's parts. A value the
 * caller keeps (it points into the caller's bytes, which must outlive it);
 * only maniOpenRagdoll writes one. Accessors check that the view was
 * written by an open and that its counts fit its file, so a zeroed or
 * damaged view reads as empty, never outside the bytes. */
typedef struct maniRagdoll {
    const uint8_t* bytes;      /* the file */
    uint64_t size;             /* its size */
    uint64_t identity;         /* the file's identity (the hash of its sections) */
    uint64_t skeletonIdentity; /* the identity of the skeleton it was built for */
    uint32_t opened;           /* set by an open */
    uint32_t boneCount;        /* the skeleton's bone count */
    uint32_t bodyCount;        /* bodies, 1 to boneCount */
    uint32_t namesSize;        /* bytes of the name table */
    maniVec3 facing;           /* the root body's facing axis (out of the chest), in its frame: unit */
    maniVec3 up;               /* the root body's up axis (toward the head), in its frame: unit, perpendicular to facing */
    maniVec3 modelForward;     /* the facing axis at rest in the skeleton's model frame: the model's forward */
    maniVec3 modelUp;          /* the up axis at rest in the model frame: the model's up */
    uint64_t bodies;           /* offsets of the sections in the file */
    uint64_t names;
} maniRagdoll;

/* One body of a profile as maniRagdoll_GetBody reads it. */
typedef struct maniRagdollBody {
    uint32_t bone;                /* the skeleton bone it sits on */
    uint32_t parent;              /* its parent body (the body on the nearest ancestor bone that has one; a smaller
                                     index), or MANI_RAGDOLL_NO_BODY for the root body (body 0) */
    uint32_t shape;               /* a maniRagdollShape */
    uint32_t motion;              /* a maniRagdollMotion */
    maniVec3 size;                /* the shape's size (see maniRagdollShape): positive where used, 0 elsewhere */
    float mass;                   /* above 0, the host engine's unit */
    maniRagdollFrame frame;       /* the body's frame in its bone's model frame (the bone's scale left out) */
    maniRagdollFrame joint;       /* the joint's frame in this body's frame (the child side); x the twist axis */
    maniRagdollFrame parentJoint; /* the same joint frame in the parent body's frame at the skeleton's rest (the
                                     parent side); the root's is the identity */
    float twistMin;               /* the twist limits about the joint's x: -MANI_RAGDOLL_MAX_ANGLE <= min <= max */
    float twistMax;               /* ... <= MANI_RAGDOLL_MAX_ANGLE */
    float swingY;                 /* the symmetric swing limit about the joint's y: 0 to MANI_RAGDOLL_MAX_ANGLE */
    float swingZ;                 /* the symmetric swing limit about the joint's z: 0 to MANI_RAGDOLL_MAX_ANGLE */
    float driveStiffness;         /* the angular drive's stiffness, finite, at least 0 (stiffness and damping both
                                     0: no drive) */
    float driveDamping;           /* its damping, finite, at least 0 */
    float driveMaxForce;          /* the most force it applies, finite, at least 0 (0: no bound) */
    uint32_t reserved;            /* 0 */
    const char* name;             /* the body's name inside the file, nameLength bytes of UTF-8, not terminated
                                     (NULL when empty) */
    size_t nameLength;
} maniRagdollBody;

/* A body's place and motion in the world, as the host's engine holds it. */
typedef struct maniRagdollBodyState {
    maniVec3 position;        /* the body frame's origin */
    maniQuat rotation;        /* the body frame's rotation: unit */
    maniVec3 linearVelocity;  /* units per second */
    maniVec3 angularVelocity; /* radians per second about the world's axes (axis times rate) */
} maniRagdollBodyState;

/* A joint's motor target. */
typedef struct maniRagdollJointTarget {
    maniQuat rotation;        /* the child side's joint frame in the parent side's joint frame */
    maniVec3 angularVelocity; /* the child's angular velocity less the parent's, about the parent joint frame's axes */
} maniRagdollJointTarget;

/* The ground a ragdoll gets up on: a plane. */
typedef struct maniRagdollGround {
    maniVec3 point;  /* a point of the plane, finite */
    maniVec3 normal; /* the plane's normal, up out of the ground: unit within a thousandth */
} maniRagdollGround;

/* Where a ragdoll gets up (maniRagdoll_ComputeGetUpPlacement). */
typedef struct maniRagdollGetUp {
    maniTransform placement; /* the character's new placement: on the plane under the root body, model up along the
                                normal, model forward along heading, scale 1 */
    maniVec3 heading;        /* the unit direction on the plane the character faces */
    uint32_t faceUp;         /* 1 when the body lies face up (its facing axis along the normal or across it), else 0 */
    uint32_t reserved;       /* 0 */
} maniRagdollGetUp;

/* Opens a ragdoll profile file in place: checks the container and every
 * record (bones within the skeleton's count and increasing, parents before
 * children, one root, shapes, sizes and masses positive, frames finite with
 * unit rotations, limits and drives in range, names, the root's facing and
 * up axes unit and perpendicular). bytes must start at a multiple of
 * MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. ragdollOut is unchanged on failure. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenRagdoll(const void* bytes, size_t size, maniRagdoll* ragdollOut);

/* A profile's identity: the hash of its sections; 0 for NULL (or a view no
 * open wrote). Safe from any thread. */
MANI_API uint64_t maniRagdoll_GetIdentity(const maniRagdoll* ragdoll);

/* The identity of the skeleton a profile was built for; 0 for NULL. Safe
 * from any thread. */
MANI_API uint64_t maniRagdoll_GetSkeletonIdentity(const maniRagdoll* ragdoll);

/* The number of bodies in a profile, at least 1; 0 for NULL. Safe from any
 * thread. */
MANI_API uint32_t maniRagdoll_GetBodyCount(const maniRagdoll* ragdoll);

/* Reads a body of a profile, in the order the profile keeps them (by bone,
 * parents first). Returns mani_success; mani_errorInvalid for a NULL
 * argument or an index past the bodies (bodyOut unchanged). Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniResult maniRagdoll_GetBody(const maniRagdoll* ragdoll, uint32_t body,
                                                       maniRagdollBody* bodyOut);

/* Places a profile's bodies where a pose puts them: each body's frame on its
 * bone's model frame (its scale left out: maniPose_GetModelTransform's
 * rotation) under the character's placement (its scale left out too: a
 * profile is in the skeleton's units; its rotation normalized). With the
 * pose before (previous), its placement and the seconds between, each
 * body's velocities are the differences over that time, the angular one the
 * shortest turn's (so at most pi over seconds: a bone turning more than half
 * a turn in one step reads as the shorter turn the other way); with
 * previous NULL, they are 0 (previousPlacement and seconds not read).
 * Kinematic bodies and world-space drives take these. On a cut pass what the
 * step means: no previous pose on the first frame or a clip switched
 * without a blend (the bodies at rest); the current placement as
 * previousPlacement on a teleport (the animation's motion alone); pose as
 * previous for the placement's motion alone. *countOut (when not NULL)
 * receives the body count.
 * Returns mani_success; mani_errorCapacity when capacity is under the body
 * count, with the count still written and nothing else; mani_errorInvalid
 * for a NULL argument (previousPlacement NULL with previous given), a NULL
 * array with a positive capacity, a pose of another skeleton, a difference
 * or one whose model is not current, a placement not finite (or a rotation
 * of length 0), seconds not finite and above 0 (bodiesOut unchanged).
 * Allocates nothing. Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniRagdoll_ComputeBodiesFromPose(
    const maniRagdoll* ragdoll, const maniPose* pose, const maniTransform* placement, const maniPose* previous,
    const maniTransform* previousPlacement, float seconds, maniRagdollBodyState* bodiesOut, uint32_t capacity,
    uint32_t* countOut);

/* Works out each joint's motor target from bodies' states (one per body, the
 * body count of them): the child's joint frame in the parent's (the child
 * body's state times its joint frame, in the parent body's state times its
 * parent-side joint frame), and the child's angular velocity less the
 * parent's about the parent joint frame's axes. The root's entry is the
 * identity and 0. *countOut (when not NULL) receives the body count.
 * Returns mani_success; mani_errorCapacity when capacity is under the body
 * count, with the count still written and nothing else; mani_errorInvalid
 * for a NULL argument or a NULL array with a positive capacity. Safe from
 * any thread. */
MANI_NODISCARD MANI_API maniResult maniRagdoll_ComputeJointTargets(const maniRagdoll* ragdoll,
                                                                   const maniRagdollBodyState* bodies,
                                                                   maniRagdollJointTarget* jointsOut,
                                                                   uint32_t capacity, uint32_t* countOut);

/* Makes a pose from bodies' places: a bone with a body takes its model frame
 * from the body's, the body's frame taken off, under the placement (its
 * scale left out), and its local scale from the reference; a bone without
 * one keeps the reference's local transform below its parent. The model
 * matrices are composed. Velocities are not read. reference and poseOut may
 * be the same pose.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a skeleton
 * or pose of another skeleton, a difference, a placement or a body's place
 * not finite or a rotation not of length 1 (within a thousandth; used
 * normalized); mani_errorCapacity when count is under the body
 * count (poseOut unchanged on any failure). Safe from any thread; the poses
 * are used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniRagdoll_ComputePoseFromBodies(const maniRagdoll* ragdoll,
                                                                     const maniSkeleton* skeleton,
                                                                     const maniRagdollBodyState* bodies, uint32_t count,
                                                                     const maniTransform* placement,
                                                                     const maniPose* reference, maniPose* poseOut);

/* Works out where a ragdoll gets up. The body lies face up when the root
 * body's facing axis (out of the chest) points along the normal or across it
 * (its component along the normal at least 0). The heading is the root
 * body's up axis (toward the head) on the ground's plane, reversed face up,
 * plus its facing axis on the plane weighed by how upright the up axis
 * stands (its component along the normal), so the character stands looking
 * where its head lay face down and toward its feet face up (on its back,
 * front or side), and where its chest faces upright; when that sum is
 * shorter than a thousandth (the two cancel, the body inverted), the head's
 * way alone (the first term; when that too is shorter, the facing axis on
 * the plane; when that too, the model forward on the plane, else any
 * direction on it). The placement stands on the plane under the root body
 * (its position moved along the normal onto the plane), its model up
 * (maniRagdoll.modelUp) along the normal and its model forward
 * (modelForward) along the heading, scale 1. A pose from the bodies under it
 * (maniRagdoll_ComputePoseFromBodies) is the ragdoll in the character's new
 * frame, to blend a get-up clip from. Computed in binary64, rounded once.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a body's
 * place not finite or its rotation not of length 1, the ground not finite,
 * its normal or the axes not of length 1 within a thousandth or the axes not
 * perpendicular within a thousandth; mani_errorCapacity when count is under
 * the body count (placementOut unchanged on any failure). Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniResult maniRagdoll_ComputeGetUpPlacement(const maniRagdoll* ragdoll,
                                                                     const maniRagdollBodyState* bodies, uint32_t count,
                                                                     const maniRagdollGround* ground,
                                                                     maniRagdollGetUp* placementOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_RAGDOLL_H */
