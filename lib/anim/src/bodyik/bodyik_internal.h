/* Full-body IK (bodyik.h): what both solvers share. The solved part is held
 * in the caller's scratch as slots in skeleton order (parents first), each
 * with its model frame in the rotation frames of the part (a bone's model
 * origin its parent's plus its parent's model rotation applied to its
 * constant offset), so every solver step is a function of the slots alone.
 * All binary64. */
#ifndef MAUL_ANIM_BODYIK_INTERNAL_H
#define MAUL_ANIM_BODYIK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/bodyik.h"

/* One bone of the solved part. */
typedef struct mani_BodySlot {
    uint32_t bone;       /* the skeleton's bone */
    int32_t parent;      /* the parent's slot, -1 for the top */
    int32_t firstChild;  /* the first child's slot, -1 for none (the limit's axis) */
    uint32_t effectors;  /* bit j: effector j is this bone or below it */
    int32_t setting;     /* index into the solve's settings, -1 for none */
    uint32_t turns;      /* 1 when the bone may turn (not a held top, not locked) */
    double stiffness;    /* rotation stiffness */
    double position;     /* position stiffness (1 rigid) */
    double off[3];       /* offset from the parent's origin in the parent's rotation frame */
    double length;       /* |off| */
    double stretch;      /* the offset's scale (1, or XPBD's stretch) */
    double t[3];         /* the input local translation (float values) */
    double rest[4];      /* the skeleton's rest rotation (limits measure from it) */
    double axis[3];      /* the limit's bone axis in the bone's frame (unit) or zero */
    double r[4];         /* the current local rotation */
    double r0[4];        /* the start local rotation (after preferred angles and pre-pull) */
    double P[3];         /* model origin */
    double Q[4];         /* model rotation */
    /* XPBD bodies */
    double x[3], q[4];
    double invMass, invInertia;
    double lambdaJoint, lambdaStiff;
} mani_BodySlot;

/* One effector. */
typedef struct mani_BodyEff {
    uint32_t slot;
    double goal[3];
    double g[4]; /* the goal rotation, unit */
    double rotationWeight, strength, pullChain;
    double reach; /* the sum of the bone lengths from the top (the mean bone length for the top) */
    double lambdaPos, lambdaRot;
} mani_BodyEff;

/* The scratch: this header, then the slots, the effectors, then SDLS's
 * matrices. */
typedef struct mani_BodyWork {
    uint32_t slotCount, effectorCount;
    uint32_t rows, columns;   /* SDLS's Jacobian */
    uint32_t turning;         /* slots that turn */
    uint32_t topMode;
    double meanLength;        /* > 0 */
    double aboveP[3];         /* the model frame of the top's parent (identity for a root) */
    double aboveQ[4];
    double aboveL[9];         /* its linear part, by columns */
    mani_BodySlot* slots;
    mani_BodyEff* effs;
    double* sdls;             /* SDLS's matrices */
} mani_BodyWork;

/* What checking a solve finds (no scratch needed). */
typedef struct mani_BodyPlan {
    uint64_t marks[MANI_MAX_BONES / 64]; /* the solved part's bones */
    uint32_t slotCount, rows, columns, turning;
    size_t scratchSize;
} mani_BodyPlan;

/* Checks a solve against a skeleton (every refusal of the solve's own
 * fields) and plans its part. */
maniResult mani_BodyCheck(const maniSkeleton* skeleton, const maniBodySolve* solve, mani_BodyPlan* plan);

/* Checks everything (pose, scratch included) and lays the part out in the
 * scratch from the pose, the preferred angles and pre-pull applied, the start
 * limited and composed. sdls: refuse stretch. */
maniResult mani_BodyBegin(maniPose* pose, const maniSkeleton* skeleton, const maniBodySolve* solve, void* scratch,
                          size_t scratchSize, int sdls, mani_BodyWork** workOut);

/* Composes every slot's P and Q from the slots' r (and stretch). */
void mani_BodyCompose(mani_BodyWork* w);

/* Whether every effector of strength above 0 lies within the tolerance
 * (after mani_BodyCompose). */
int mani_BodyReached(const mani_BodyWork* w, double tolerance);

/* Holds a slot's local rotation r within its limit (in place). */
void mani_BodyLimit(const mani_BodyWork* w, const maniBodySolve* solve, uint32_t slot, double r[4]);

/* Writes the moved bones' locals into the pose and marks its model stale. */
void mani_BodyWrite(const mani_BodyWork* w, maniPose* pose);

/* out = exp(v): the rotation by |v| radians about v. */
void mani_BodyExp(const double v[3], double out[4]);

/* The rotation vector (axis times angle, the short way) of a unit q. */
void mani_BodyLog(const double q[4], double out[3]);

#endif
