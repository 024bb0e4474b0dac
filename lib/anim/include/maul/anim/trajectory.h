/* Maul Anim: trajectory.h
 *
 * A character's trajectory predicted for motion matching: Holden's
 * critically damped springs, in closed form, take a simulated root toward a
 * desired velocity and rotation; its samples, predicted or recorded, become
 * the query values of a database's trajectory channels.
 */
#ifndef MAUL_ANIM_TRAJECTORY_H
#define MAUL_ANIM_TRAJECTORY_H

#include "maul/anim/match.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A simulated root: where it is, how it moves and turns. */
typedef struct maniTrajectory {
    maniVec3 position;        /* model-space position */
    maniVec3 velocity;        /* units per second */
    maniVec3 acceleration;    /* units per second squared */
    maniQuat rotation;        /* unit quaternion: the root's facing */
    maniVec3 angularVelocity; /* radians per second, as a scaled axis */
} maniTrajectory;

/* Where a trajectory's springs pull it. */
typedef struct maniTrajectoryGoal {
    maniVec3 velocity;        /* the desired velocity, finite */
    maniQuat rotation;        /* the desired facing, unit within 1e-3 in squared length */
    float velocityHalfLife;   /* seconds for half the velocity gap to close, >= 0 and finite */
    float rotationHalfLife;   /* seconds for half the rotation gap to close, >= 0 and finite */
} maniTrajectoryGoal;

/* Moves a trajectory by seconds toward its goal, each spring in closed form
 * (y = 2 ln 2 / (half-life + 1e-5); the position's with its acceleration,
 * Holden's simulation_positions_update; the rotation's on the shorter arc,
 * his simple_spring_damper_exact), in binary32: one advance is many shorter
 * ones up to rounding, so a prediction t seconds ahead is a copy advanced by
 * t. Exponentials, logarithms and turns through lib/core's deterministic
 * functions.
 * Returns mani_success; mani_errorInvalid for a NULL argument or one out of
 * range: seconds negative or not finite, a trajectory not finite or its
 * rotation not unit within 1e-3, a goal out of its ranges (the trajectory
 * then unchanged). Safe from any thread; the trajectory is used by one
 * thread at a time. */
MANI_NODISCARD MANI_API maniResult maniAdvanceTrajectory(maniTrajectory* trajectory, const maniTrajectoryGoal* goal,
                                                         float seconds);

/* Gives a sample's trajectory values as a database measures its
 * trajectories: the sample's offset from the root and the database's
 * forward axis turned by the sample's rotation, both in the root's frame
 * (turned by the inverse of the root's rotation), on the ground plane (the
 * two axes besides the database's up axis, in order); the values of a
 * trajectory position and a trajectory facing query parameter
 * (positionOut[2], facingOut[2]; either may be NULL). In binary32.
 * Returns mani_success; mani_errorInvalid for a NULL database, root or
 * sample, or a database view no open wrote. Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniMotionDatabase_ComputeTrajectoryFeatures(const maniMotionDatabase* database,
                                                                                const maniTrajectory* root,
                                                                                const maniTrajectory* sample,
                                                                                float* positionOut, float* facingOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_TRAJECTORY_H */
