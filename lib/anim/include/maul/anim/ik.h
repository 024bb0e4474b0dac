/* Maul Anim: ik.h
 *
 * Inverse kinematics on a pose: a two-bone chain bent to reach a goal and
 * turned toward a pole; a bone aimed at a goal, or a chain of up to
 * MANI_MAX_AIM_BONES sharing the turn (a look-at over spine, neck and head),
 * its up toward a pole; a longer chain bent by CCD or FABRIK within its
 * bones' limits.
 *
 * A solver reads the pose's locals, composes the model frames of its bones'
 * root path itself (the pose's model need not be current), writes the
 * corrected locals of the bones it turns and leaves the model stale. Goals
 * are points and poles directions in the model space of the pose; axes fixed
 * to a bone are in that bone's local frame. Stateless: the result is a
 * function of the pose and the inputs.
 *
 * Arithmetic (the same bits on every build): binary64 from the binary32
 * inputs, trigonometry through the library's own deterministic functions,
 * each written rotation normalized and rounded once to binary32. Model frames
 * are composed as the pose composes them; a bone's turn is taken into its
 * local frame through the rotations of its ancestors (exact for uniform
 * scales; a non-uniform scale on the path makes the turns approximate).
 *
 * A turn whose angle lies below MANI_IK_MIN_TURN is not made, so a solve on
 * its own result changes nothing. A refused call leaves the pose and
 * *reachedOut unchanged.
 */
#ifndef MAUL_ANIM_IK_H
#define MAUL_ANIM_IK_H

#include "maul/anim/pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Constants ---------------------------------------------------------------- */

/* The most bones maniPose_SolveAim shares a turn over (its bones and shares
 * arrays' length). */
#define MANI_MAX_AIM_BONES 8u

/* The widest cone maniPose_SolveAim takes, in radians: pi, a cone that never
 * stops the forward. */
#define MANI_AIM_MAX_CONE 3.14159265358979323846f

/* The most bones on a CCD or FABRIK chain's path, its root and end included
 * (also the longest retargeting chain). */
#define MANI_MAX_IK_CHAIN_BONES 32u

/* The most iterations a CCD, FABRIK or full-body solve takes. */
#define MANI_MAX_IK_ITERATIONS 256u

/* The smallest turn, in radians, a solver makes: a bone whose correction is
 * smaller keeps its local rotation bit for bit. */
#define MANI_IK_MIN_TURN 1e-5f

/* -- Joint limits ------------------------------------------------------------- */

/* What a joint limit restricts. The values are frozen. */
typedef enum maniJointLimitKind {
    /* No limit: the bone turns freely. */
    maniJointLimitNone = 0,
    /* A hinge: the bone turns from its rest only about the limit's axis, by
     * an angle in [minAngle, maxAngle]. */
    maniJointLimitHinge = 1,
    /* A cone: the bone's axis stays within cone radians of its direction at
     * rest; the twist about the bone's axis is free. */
    maniJointLimitCone = 2,
    /* A twist range: the twist about the bone's axis lies in [minAngle,
     * maxAngle]; the swing is free. */
    maniJointLimitTwist = 3,
    /* A cone and a twist range together: the swing within cone, the twist
     * in [minAngle, maxAngle]. */
    maniJointLimitConeTwist = 4
} maniJointLimitKind;

/* A limit on a bone's local rotation, measured from its rest: the bone's
 * local rotation r is split as r = rest d, d a rotation in the bone's rest
 * frame, and d is held within the limit (the nearest allowed rotation
 * replacing one outside). The bone's axis is the unit direction, in the
 * bone's frame, of the local translation of the next bone on the solver's
 * chain (which bone that is, each solver says); d is split into a swing,
 * turning that axis, and a twist about it (d = swing twist). A bone with no
 * axis (a next bone at its origin) has no swing or twist: a cone or twist
 * limit leaves it free.
 *
 * Valid limits: a known kind; angles finite; for a hinge, an axis of length
 * 1 within a thousandth and not along the bone's axis (within a thousandth
 * of a radian), -pi <= minAngle <= maxAngle <= pi; for a cone, 0 <= cone <=
 * pi; for a twist, -pi <= minAngle <= maxAngle <= pi. Fields a kind does not
 * use are not read. */
typedef struct maniJointLimit {
    /* A maniJointLimitKind. */
    uint32_t kind;
    /* The hinge's axis in the bone's rest frame (a unit vector); a positive
     * angle turns counterclockwise about it. Only a hinge reads it. */
    maniVec3 axis;
    /* The least angle, in radians: the hinge's, or the twist's about the
     * bone's axis. */
    float minAngle;
    /* The greatest angle, in radians: the hinge's, or the twist's. */
    float maxAngle;
    /* The cone's half angle in radians: the most the bone's axis swings from
     * its direction at rest. Only a cone or cone-twist reads it. */
    float cone;
} maniJointLimit;

/* A joint limit on one bone of a CCD or FABRIK chain. */
typedef struct maniChainLimit {
    /* The bone: one on the chain's path from its root to the end's parent
     * (its axis toward the next bone on the path), each bone at most once. */
    uint32_t bone;
    /* The limit. */
    maniJointLimit limit;
} maniChainLimit;

/* -- Solves -------------------------------------------------------------------- */

/* A two-bone solve (maniPose_SolveTwoBone): a start bone (a hip, a
 * shoulder), a middle bone (a knee, an elbow) and an end bone (an ankle, a
 * wrist), each an ancestor of the next (bones between them are carried
 * along). The chain's lengths are the distances start to middle and middle
 * to end in the pose. */
typedef struct maniTwoBoneSolve {
    /* The start bone: it turns the chain onto the goal. */
    uint32_t startBone;
    /* The middle bone: it bends about the hinge. */
    uint32_t middleBone;
    /* The end bone, whose origin is put on the goal. Its local is not
     * written. */
    uint32_t endBone;
    /* The goal for the end bone's origin, a point in model space. */
    maniVec3 goal;
    /* The direction, in model space, the bend faces: the middle bone's
     * origin lies on the pole's side of the start-to-goal line. Zero, or a
     * pole along that line, keeps the chain's bend plane. */
    maniVec3 pole;
    /* The axis, in the middle bone's local frame, the middle bone bends
     * about (a knee's axis), normalized: the bend from the start bone to
     * the end bone is counterclockwise about it, between 0 (folded) and pi
     * (straight). Of length 0 or along the middle-to-end direction, the
     * axis perpendicular to both bones in the pose is taken when they lie
     * at least 0.05 radians from straight or folded; otherwise the middle
     * bone is not bent and the chain not turned toward the pole. */
    maniVec3 hinge;
    /* The chain's turn about the start-to-goal line after the pole, in
     * radians (counterclockwise looking from the goal to the start): the
     * bend faces the pole turned by it. Without a pole (zero, or along that
     * line) the chain is neither turned toward a pole nor twisted. */
    float twist;
    /* Softening, in [0, 1]: the goal's distance where the chain starts
     * slowing its straightening, as a fraction of its full length (1: none).
     * Past it the end approaches the full length exponentially and never
     * quite straightens. */
    float soften;
    /* The solve's weight, in [0, 1]: each turn is made by that fraction of
     * its angle (0 changes nothing). */
    float weight;
} maniTwoBoneSolve;

/* An aim solve (maniPose_SolveAim): bones[count - 1] is the aiming bone;
 * the others, each an ancestor of the next, share its turn. */
typedef struct maniAimSolve {
    /* The bones, from the top one down to the aiming bone, each an ancestor
     * of the next; the first count are read. */
    uint32_t bones[MANI_MAX_AIM_BONES];
    /* Each bone's share of the turn, finite and at least 0, not all 0. Bone
     * i turns by shares[i] over the shares of bones i to count - 1 of what
     * is left of the turn when it turns, so the last bone with a share ends
     * the aim. */
    float shares[MANI_MAX_AIM_BONES];
    /* How many bones, 1 to MANI_MAX_AIM_BONES. */
    uint32_t count;
    /* The point in model space the aiming bone's forward line turns onto. */
    maniVec3 goal;
    /* The aiming bone's forward, in its local frame: a unit vector (within a
     * thousandth). */
    maniVec3 forward;
    /* The aiming bone's up, in its local frame: it turns toward the pole
     * (zero, or along the forward line, no up turn). */
    maniVec3 up;
    /* The point, in the aiming bone's local frame, the forward line starts
     * from (the eyes of a head bone; zero: the bone's origin). */
    maniVec3 offset;
    /* The direction, in model space, the up turns toward (zero: none). */
    maniVec3 pole;
    /* A turn about the aim line after the up's, in radians: the up faces
     * the pole turned by it; without a pole, the last bone with a share
     * turns by it after the shortest arc. */
    float twist;
    /* The most the forward turns from its direction in the pose, in radians,
     * 0 to MANI_AIM_MAX_CONE (which never stops it): a goal outside stops
     * the forward at the cone's edge, toward the goal. */
    float cone;
    /* The solve's weight, in [0, 1]: each turn is made by that fraction of
     * its angle. */
    float weight;
} maniAimSolve;

/* A CCD or FABRIK solve (maniPose_SolveCcd, maniPose_SolveFabrik): the
 * chain is every bone on the path from rootBone down to endBone. */
typedef struct maniChainSolve {
    /* The chain's root, an ancestor of the end. */
    uint32_t rootBone;
    /* The chain's end, whose origin is brought to the goal. */
    uint32_t endBone;
    /* The goal for the end's origin, a point in model space. */
    maniVec3 goal;
    /* FABRIK only: the direction, in model space, the chain's bend faces
     * (zero: none); CCD refuses any other than zero. */
    maniVec3 pole;
    /* The model rotation the end bone turns toward after the chain, by
     * rotationWeight; normalized, so any finite length but 0. */
    maniQuat rotation;
    /* How far the end bone turns toward rotation, in [0, 1] (0: its
     * rotation kept). */
    float rotationWeight;
    /* limitCount limits (may be NULL when limitCount is 0). */
    const maniChainLimit* limits;
    /* How many limits. */
    uint32_t limitCount;
    /* The most iterations, 1 to MANI_MAX_IK_ITERATIONS. */
    uint32_t iterations;
    /* The distance from the goal, at least 0 and finite, within which the
     * end counts as reached: the solve stops early there. */
    float tolerance;
    /* CCD only: the most a bone turns in one step, in radians, in [0, pi]
     * (0: no bound); FABRIK refuses any other than 0. */
    float step;
    /* The solve's weight, in [0, 1]: each bone's rotation goes that fraction
     * of the way from the input's to the solved one (then limited again). */
    float weight;
} maniChainSolve;

/* -- Functions ----------------------------------------------------------------- */

/* Bends a two-bone chain of a pose toward a goal: the middle bone turns
 * about its hinge so the chain spans the goal's distance (a goal out of
 * reach straightens it, one closer than the bones' difference folds it),
 * then the start bone turns the chain onto the goal, its bend toward the
 * pole, twisted. A goal at the start (within a hundred-thousandth of the
 * chain's length) turns nothing at the start; a bone of no length turns
 * nothing at the middle. The solve on its own result changes nothing (at
 * weight 1; turns below MANI_IK_MIN_TURN are not made).
 *
 * Parameters:
 *   pose        a pose of the skeleton (not a difference), changed in place.
 *   skeleton    the pose's skeleton.
 *   solve       the chain, goal and settings.
 *   reachedOut  (may be NULL) true when the goal lies within the chain's
 *               reach (from the bones' difference to the softened full
 *               length), so at weight 1 the end is put on it.
 * Returns: mani_success; mani_errorInvalid for a NULL pose, skeleton or
 * solve, a pose of another skeleton or a difference, bones out of range or
 * not each an ancestor of the next, a goal, pole, hinge or twist not finite,
 * a soften or weight outside [0, 1] (the pose unchanged).
 * Thread safety: safe from any thread; the pose is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniResult maniPose_SolveTwoBone(maniPose* pose, const maniSkeleton* skeleton,
                                                         const maniTwoBoneSolve* solve, bool* reachedOut);

/* Aims a bone of a pose at a goal: its forward from its offset point turned
 * onto the goal by the shortest arc, then about that line so its up axis
 * lies in the plane of the line and the pole, then by the twist; with more
 * bones each turns its share. A cone stops the forward at its edge. A goal at
 * the aiming bone (within 1e-5 times one plus the bone's distance from the
 * model's origin), or nearer to it than the offset lies from the forward
 * line, turns nothing.
 *
 * Parameters:
 *   pose        a pose of the skeleton (not a difference), changed in place.
 *   skeleton    the pose's skeleton.
 *   solve       the bones, goal and settings.
 *   reachedOut  (may be NULL) true when the forward line was turned onto
 *               the goal: false when the cone stopped it or the goal turns
 *               nothing.
 * Returns: mani_success; mani_errorLimit for a count past MANI_MAX_AIM_BONES;
 * mani_errorInvalid for a NULL pose, skeleton or solve, a pose of another
 * skeleton or a difference, a count of 0, bones out of range or not each an
 * ancestor of the next, shares negative, not finite or all 0, a forward not
 * of length 1 within a thousandth, a goal, pole, offset, up or twist not
 * finite, a cone outside [0, MANI_AIM_MAX_CONE], a weight outside [0, 1]
 * (the pose unchanged).
 * Thread safety: safe from any thread; the pose is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniResult maniPose_SolveAim(maniPose* pose, const maniSkeleton* skeleton,
                                                     const maniAimSolve* solve, bool* reachedOut);

/* Bends a chain of a pose toward a goal by cyclic coordinate descent: each
 * iteration sweeps from the end's parent to the root, each bone turning by
 * the shortest arc that takes its direction to the end onto its direction to
 * the goal (cut to the step bound), then limited. Stops early once the end
 * lies within the tolerance; then the end bone turns toward the wanted
 * rotation by its weight. A bone whose origin lies on the end or the goal
 * turns nothing.
 *
 * Parameters:
 *   pose        a pose of the skeleton (not a difference), changed in place.
 *   skeleton    the pose's skeleton.
 *   solve       the chain, goal and settings.
 *   reachedOut  (may be NULL) true when the end's origin ends within the
 *               tolerance of the goal.
 * Returns: mani_success; mani_errorLimit for a path past
 * MANI_MAX_IK_CHAIN_BONES or more than MANI_MAX_IK_ITERATIONS iterations;
 * mani_errorInvalid for a NULL pose, skeleton or solve, a pose of another
 * skeleton or a difference, bones out of range, a root not an ancestor of
 * the end, a limit of an unknown kind or out of range or a hinge along its
 * bone's axis (or NULL limits with a count, a limit's bone off the path or
 * given twice), a goal, pole or rotation not finite, a pole not zero, a
 * rotation of length 0, no iterations, a tolerance below 0 or not finite, a
 * step outside [0, pi], a rotation weight or weight outside [0, 1] (the pose
 * unchanged).
 * Thread safety: safe from any thread; the pose is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniResult maniPose_SolveCcd(maniPose* pose, const maniSkeleton* skeleton,
                                                     const maniChainSolve* solve, bool* reachedOut);

/* Bends a chain of a pose toward a goal by FABRIK (Aristidou and Lasenby):
 * with a pole, the chain first turns about the root-to-goal line so its bend
 * faces the pole (blended near the line: by the bend's distance from the
 * line over a tenth of the chain's length, at most 1); each iteration places
 * the end on the goal and each joint at its bone's length from the one below
 * it, back to the root, then from the root turns each bone by the shortest
 * arc onto its joint's place (its twist kept), limited, the next joint where
 * the turned bone puts it. Stops early once the end lies within the
 * tolerance; then the end bone turns toward the wanted rotation by its
 * weight.
 *
 * Parameters: as maniPose_SolveCcd.
 * Returns: as maniPose_SolveCcd, but for a pole other than zero, which
 * FABRIK takes, and a step other than 0, which it refuses with
 * mani_errorInvalid.
 * Thread safety: safe from any thread; the pose is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniResult maniPose_SolveFabrik(maniPose* pose, const maniSkeleton* skeleton,
                                                        const maniChainSolve* solve, bool* reachedOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_IK_H */
