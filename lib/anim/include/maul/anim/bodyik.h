/* Maul Anim: bodyik.h
 *
 * Full-body inverse kinematics: a part of a skeleton, every bone on a path
 * from a top bone to one of several effectors, bent so the effectors reach
 * their goals, within per-bone stiffness and limits. One description
 * (maniBodySolve), two solvers over it: position-based rigid bodies with
 * XPBD compliance (maniPose_SolveBodyXpbd: fast, stiffness meaning the same
 * at any iteration count as the solve converges) and selectively damped
 * least squares (maniPose_SolveBodySdls, Buss and Kim: every effector in one
 * least-squares step, no damping constant). Both start from the input pose
 * on every call and keep nothing between calls; the caller lends the scratch
 * memory (maniSkeleton_GetBodyIkScratchSize bytes at a multiple of
 * MANI_BODY_IK_SCRATCH_ALIGNMENT).
 *
 * As the other solvers (ik.h), they read the pose's locals, compose the
 * model frames of the bones they need (the pose's model need not be
 * current), write the locals of the bones they move and leave the model
 * stale. Goals are in the model space of the pose; angles and axes fixed to
 * a bone are in its parent's frame unless stated.
 *
 * The solved part: the top bone and every bone on a path from it down to an
 * effector, in skeleton order. Bones off it keep their locals. A bone's
 * "turn" is a change of its local rotation; its model rotation is the
 * product of the local rotations from its root down (scales move origins
 * but are not part of the turn, so with non-uniform scales above a bone a
 * turn is taken in the frame of the rotations alone). The bones' lengths are
 * the model distances from each solved bone's origin to its parent's in the
 * input; L, the mean bone length, is their mean over the part's bones below
 * the top (1 when there are none or it is 0).
 *
 * Before the iterations, in this order, both solvers:
 *  1. preferred angles: each setting's preferredAngles (a rotation vector,
 *     axis times angle in radians, in the parent's frame) turns its bone,
 *     r' = exp(preferredAngles) r; the result is the start the rotation
 *     stiffness holds to;
 *  2. pre-pull: with a free top, the top moves by prePull times the
 *     pull-chain-weighted mean (divided by the larger of 1 and the sum of
 *     the effectors' pullChain) of each effector's excess: the part of the
 *     top-to-goal distance past the effector's reach (the sum of the bone
 *     lengths on its path), along the top-to-goal direction; with a pinned
 *     top, the top turns by prePull times the weighted mean (normalized
 *     quaternion sum) of each effector's shortest arc from the top-to-
 *     effector direction onto the top-to-goal direction, the same weights;
 *     with a held top, nothing.
 * Then limits are applied to the start (a start outside its limit is
 * brought in), and the iterations run. After the last, every moved bone's
 * local rotation is limited once more and written.
 *
 * Arithmetic: binary64 from the binary32 inputs, every trigonometric
 * function and square root through the library's deterministic math (square
 * roots IEEE), no contraction, a fixed order of operations: the same bits on
 * every build. Results are rounded once to binary32 when written.
 */
#ifndef MAUL_ANIM_BODYIK_H
#define MAUL_ANIM_BODYIK_H

#include "maul/anim/ik.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Limits ------------------------------------------------------------------- */

/* The most effectors of a solve (mani_errorLimit past it). */
#define MANI_MAX_BODY_IK_EFFECTORS 32u

/* The most bones of a solved part, and the most settings of a solve
 * (mani_errorLimit past either). */
#define MANI_MAX_BODY_IK_BONES 256u

/* The byte alignment of the scratch memory (mani_errorInvalid otherwise):
 * SDLS's rows are read as pairs of binary64 lanes. */
#define MANI_BODY_IK_SCRATCH_ALIGNMENT 16u

/* -- Types ------------------------------------------------------------------- */

/* What the top bone of the solved part may do. */
typedef enum maniBodyTopMode {
    /* A held top: its model frame stays as the input's; only the bones
     * below it move. */
    maniBodyTopHeld = 0,
    /* A pinned top: its origin stays, it turns (by its rotation stiffness,
     * within its limit) as the bones below it. */
    maniBodyTopPinned = 1,
    /* A free top: it also moves; its new place is written as its local
     * translation (through its parent's model frame). */
    maniBodyTopFree = 2
} maniBodyTopMode;

/* One effector: a bone whose origin is pulled onto a goal and, by a
 * rotation weight, whose model rotation is turned toward a goal rotation. */
typedef struct maniBodyEffector {
    /* The effector's bone: the top or a bone below it, no bone twice among
     * the effectors. */
    uint32_t bone;
    /* The goal of the bone's origin, in the pose's model space, finite. */
    maniVec3 goal;
    /* The goal of the bone's model rotation (finite, of length above 0;
     * normalized by the solvers), acting by rotationWeight. Checked even
     * when rotationWeight is 0. */
    maniQuat rotation;
    /* How much the goal rotation counts, 0 (none: the effector has no
     * rotation rows in SDLS and no angular constraint in XPBD) to 1. */
    float rotationWeight;
    /* How hard the effector pulls, 0 (not at all, and not counted for
     * reachedOut or the early stop) to 1 (as hard as the solver can: an
     * XPBD constraint of compliance 0). XPBD compliance (1 - s) / s. */
    float strength;
    /* How much the effector pulls the top in the pre-pull (see the header
     * text), 0 to 1. */
    float pullChain;
} maniBodyEffector;

/* Settings of one bone of the solved part; a bone without settings has
 * rotation stiffness 0, position stiffness 1, no preferred angles and no
 * limit. */
typedef struct maniBodyBoneSettings {
    /* The bone, on the solved part, no bone twice among the settings. */
    uint32_t bone;
    /* Resistance to turning away from its start (after the preferred
     * angles), 0 (none) to 1 (locked: the bone never turns). XPBD: an
     * angular constraint of compliance (1 - k) / (k L^2) toward the start's
     * local rotation, L the mean bone length; SDLS: the bone's columns
     * scaled by 1 - k. */
    float rotationStiffness;
    /* How firmly the joint holds the bone's origin at its place in the
     * parent, 0 to 1: 1 rigid (the bone's length kept); below 1 the joint
     * stretches (XPBD compliance (1 - p) / p), the bone's local translation
     * scaled by the ratio of the reached length to its own. The top's has
     * no effect. SDLS refuses a value below 1 (stretch). */
    float positionStiffness;
    /* The preferred angles: a rotation vector (axis times angle, radians)
     * in the parent's frame turning the bone's start (see the header text);
     * zero for none. Finite. */
    maniVec3 preferredAngles;
    /* The bone's limit (ik.h), applied to its local rotation after every
     * iteration and on the result; maniJointLimitNone for no limit. The
     * bone's axis (for a cone and a twist) is the local translation of its
     * first child on the solved part (in skeleton order); a bone without one
     * has no axis (its cone or twist leaves it free). A hinge along the
     * bone's axis is taken (a twist range about it). */
    maniJointLimit limit;
} maniBodyBoneSettings;

/* A full-body solve: the solved part, its effectors, per-bone settings and
 * the iteration budget. */
typedef struct maniBodySolve {
    /* The top bone of the solved part, below the bone count. */
    uint32_t top;
    /* What the top may do (maniBodyTopMode). */
    maniBodyTopMode topMode;
    /* effectorCount effectors (1 to MANI_MAX_BODY_IK_EFFECTORS). */
    const maniBodyEffector* effectors;
    uint32_t effectorCount;
    /* settingCount settings (0 to MANI_MAX_BODY_IK_BONES; settings may be
     * NULL when the count is 0). */
    const maniBodyBoneSettings* settings;
    uint32_t settingCount;
    /* The most iterations, 1 to MANI_MAX_IK_ITERATIONS. */
    uint32_t iterations;
    /* An effector within this distance of its goal counts as reached
     * (finite, at least 0); the solve stops early once every effector of
     * strength above 0 is. */
    float tolerance;
    /* How much of the pull chains' pull the pre-pull takes, 0 to 1. */
    float prePull;
} maniBodySolve;

/* -- Functions ----------------------------------------------------------------- */

/* Returns the bytes of scratch memory a full-body solve needs, by either
 * solver (the larger of the two: SDLS's): about 8 (2 r c + r^2) bytes for
 * SDLS's Jacobian, its decomposition and the rotations' product, r rows (3
 * an effector, 3 more for each with a rotation weight above 0) by c columns
 * (3 a bone that may turn, 3 more for a free top, rounded up to a multiple
 * of 4), plus about 400 bytes a bone and 100 an effector.
 *
 * Returns: the size; 0 for NULL or a solve maniPose_SolveBodyXpbd refuses
 * (for the solve's own fields: its pose and scratch are not seen here).
 * Thread safety: safe from any thread. */
MANI_API size_t maniSkeleton_GetBodyIkScratchSize(const maniSkeleton* skeleton, const maniBodySolve* solve);

/* Bends the solved part of a pose toward its effectors' goals as rigid
 * bodies (Mueller et al. 2020, detailed rigid body simulation with XPBD):
 * each solved bone a body at its origin with its model rotation (unit mass,
 * inertia the square of its longest solved child's offset, or L^2 for
 * a bone without one; a held top's and a pinned top's origin
 * immovable, a held top's rotation too). One Gauss-Seidel pass an
 * iteration, in this order, each a positional or angular correction with
 * its compliance and its multiplier kept across the iterations:
 *   1. effectors by index: the bone's origin onto the goal (compliance
 *      from strength), then its rotation toward the goal rotation
 *      (compliance from strength times rotation weight, over L^2);
 *   2. joints from the tips up (reverse skeleton order): the child's origin
 *      onto its place in the parent body, rigidly or by position stiffness;
 *   3. stiffness, in skeleton order: each bone's rotation relative to its
 *      parent toward its start;
 *   4. limits, in skeleton order: each bone's rotation relative to its
 *      parent brought into its limit.
 * The bones' rotations come from the bodies (each relative to its parent
 * body); their translations stay the input's unless stretching (and a free
 * top's). Stops early once every effector lies within the tolerance, the
 * effectors measured on the pose the bodies' rotations make. Strength and
 * stiffness set the pose the passes converge to; short of convergence they
 * have acted less, so the result changes with the iteration count.
 *
 * Parameters:
 *   pose         a pose of the skeleton (not a difference).
 *   skeleton     its skeleton.
 *   solve        the solve.
 *   scratch      scratchSize bytes at a multiple of
 *                MANI_BODY_IK_SCRATCH_ALIGNMENT, at least
 *                maniSkeleton_GetBodyIkScratchSize.
 *   reachedOut   whether every effector of strength above 0 ends within the
 *                tolerance (may be NULL; written on success only).
 * Returns: mani_success; mani_errorLimit for more than
 * MANI_MAX_BODY_IK_EFFECTORS effectors or MANI_MAX_BODY_IK_BONES settings,
 * more than MANI_MAX_IK_ITERATIONS iterations or a solved part past
 * MANI_MAX_BODY_IK_BONES; mani_errorCapacity for less scratch than
 * maniSkeleton_GetBodyIkScratchSize; mani_errorInvalid for a NULL pose,
 * skeleton, solve or scratch, a pose of another skeleton or a difference, a
 * top or bone out of range, an effector not the top or below it, a bone
 * twice among the effectors or the settings, a setting's bone off the
 * solved part, no effectors or no iterations, a goal, rotation or preferred
 * angle not finite, a rotation of length 0, a limit of an unknown kind or
 * out of range, a weight, strength, pull chain, pre-pull or stiffness
 * outside [0, 1], a tolerance below 0 or not finite, a top mode unknown,
 * misaligned scratch (the pose unchanged on every refusal).
 * Thread safety: safe from any thread; the pose and the scratch are used by
 * one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniPose_SolveBodyXpbd(maniPose* pose, const maniSkeleton* skeleton,
                                                         const maniBodySolve* solve, void* scratch,
                                                         size_t scratchSize, bool* reachedOut);

/* Bends the solved part of a pose toward its effectors' goals by
 * selectively damped least squares (Buss and Kim 2005). Each iteration:
 *   - the Jacobian of every effector's origin (3 rows) and, with a rotation
 *     weight above 0, its rotation as a length (3 rows: the angle times the
 *     effector's reach, the sum of the bone lengths on its path from the
 *     top, the mean bone length for the top itself), by three model axes
 *     per bone that may turn (and three translations for a free top, each
 *     a move of the mean bone length L per unit); rows scaled by strength
 *     (rotation rows by strength times rotation weight), columns by one
 *     minus the bone's rotation stiffness (a locked bone and a held top
 *     have none);
 *   - each miss (goal minus effector, and the goal rotation's turn times
 *     the reach) clamped to half the mean bone length;
 *   - the Jacobian decomposed by one-sided Jacobi rotations of its rows
 *     (Hestenes: the rows first sorted by falling length; at most 30
 *     sweeps, until every pair of rows is orthogonal to a relative 1e-6;
 *     u_i the rows of the rotations' product), from the second iteration
 *     on started from the last iteration's rotations applied to the new
 *     Jacobian (a warm start: fewer sweeps); singular values below 1e-9
 *     times the largest are dropped;
 *   - each singular direction stepped by at most its effectors' movement
 *     allows (Buss and Kim's gamma = min(1, N / M) pi/4, the step clamped
 *     by its largest component), the sum clamped likewise to pi/4, then
 *     each bone's turn (the length of its three components) cut to pi/4;
 *   - the turns applied (the model-axis turn moved into the parent's
 *     frame), then limits in skeleton order.
 * Stops early once every effector lies within the tolerance. Every length
 * is kept: stretch is refused.
 *
 * The decomposition's work grows with the square of the rows times the
 * columns: about 1.8 million instructions an iteration for a 22-bone part
 * with five effectors, 54 million for 128 bones and 32 effectors without
 * rotations (docs/performance.md has the measured figures). The iteration
 * count is the caller's budget.
 *
 * Parameters: as maniPose_SolveBodyXpbd.
 * Returns: as maniPose_SolveBodyXpbd, and mani_errorInvalid for stretch (a
 * setting of position stiffness below 1).
 * Thread safety: safe from any thread; the pose and the scratch are used by
 * one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniPose_SolveBodySdls(maniPose* pose, const maniSkeleton* skeleton,
                                                         const maniBodySolve* solve, void* scratch,
                                                         size_t scratchSize, bool* reachedOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_BODYIK_H */
