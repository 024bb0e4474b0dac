/* Internal helpers of the IK solvers (ik.h), also for the full-body solvers
 * (bodyik.h): argument checks, a chain of key bones with its model frames
 * composed in binary64, turns taken into local frames, joint limits. */
#ifndef MAUL_ANIM_IK_INTERNAL_H
#define MAUL_ANIM_IK_INTERNAL_H

#include "lib/core/quat64.h"
#include "maul/anim/ik.h"

/* A frame in binary64: the affine map p' = p + m x (m by columns) and the
 * product of the rotations along the path (what a turn is taken through). */
typedef struct mani_IkFrame {
    double p[3];
    double m[9];
    double q[4];
} mani_IkFrame;

/* A chain of key bones, each an ancestor of the next: gap[k] composes the
 * locals strictly between key k - 1 and key k (for key 0, every ancestor),
 * so frame[k] = frame[k - 1] gap[k] local[k]. Frames are composed lazily:
 * frame[k] and pre[k] (= frame[k - 1] gap[k]) are current for k < valid;
 * read them through mani_IkChainFrame. */
typedef struct mani_IkChain {
    uint32_t count;
    uint32_t valid;
    uint32_t bones[MANI_MAX_IK_CHAIN_BONES];
    mani_IkFrame gap[MANI_MAX_IK_CHAIN_BONES];
    uint8_t gapIdentity[MANI_MAX_IK_CHAIN_BONES];
    double t[MANI_MAX_IK_CHAIN_BONES][3];
    double q[MANI_MAX_IK_CHAIN_BONES][4];
    double q0[MANI_MAX_IK_CHAIN_BONES][4]; /* the input's local rotations */
    double s[MANI_MAX_IK_CHAIN_BONES][3];
    mani_IkFrame pre[MANI_MAX_IK_CHAIN_BONES];
    mani_IkFrame frame[MANI_MAX_IK_CHAIN_BONES];
    uint8_t turned[MANI_MAX_IK_CHAIN_BONES];
} mani_IkChain;

/* pose, skeleton non-NULL, the view ok, the pose one of the skeleton and
 * not a difference. */
int mani_IkPoseOk(const maniPose* pose, const maniSkeleton* skeleton);

/* A bone's parent (bone below the count of a checked view), MANI_NO_BONE
 * for a root or a parent in the bytes not a lower index. */
uint32_t mani_IkParent(const maniSkeleton* skeleton, uint32_t bone);

/* The square of sin(MANI_IK_MIN_TURN / 2), MANI_IK_MIN_TURN taken as the
 * binary64 1e-5f: a unit quaternion turns by less when its vector part's
 * squared length is below it. */
#define MANI_IK_MIN_TURN_SIN2 (4.99999987366855e-06 * 4.99999987366855e-06)

/* Whether a unit q turns by less than MANI_IK_MIN_TURN. */
int mani_IkSmallTurn(const double q[4]);

/* Whether a is a strict ancestor of b (both below the bone count). */
int mani_IkIsAncestor(const maniSkeleton* skeleton, uint32_t a, uint32_t b);

/* Finite checks. */
int mani_IkFinite3(maniVec3 v);
int mani_IkUnit01(float w);

/* Loads a chain of count key bones (checked: each an ancestor of the next). */
void mani_IkChainLoad(mani_IkChain* c, const maniPose* pose, const maniSkeleton* skeleton, const uint32_t* bones,
                      uint32_t count);

/* Key k's model frame, composing what is stale above it. */
const mani_IkFrame* mani_IkChainFrame(mani_IkChain* c, uint32_t k);

/* Key k's parent frame (frame[k - 1] gap[k]), composing what is stale. */
const mani_IkFrame* mani_IkChainPre(mani_IkChain* c, uint32_t k);

/* The turn about the unit n taking a onto b turned by twist about n (a and
 * b perpendicular to n and not of length 0): their arc, half a turn about n
 * when opposite. */
void mani_IkTurnAbout(const double n[3], const double a[3], const double b[3], double twist, double out[4]);

/* Key k's origin in model space (its frame need not be composed). */
void mani_IkChainOrigin(mani_IkChain* c, uint32_t k, double out[3]);

/* Key k's local rotation for a model-space turn r about its origin:
 * conj(P) r P q, P the rotation of its parent frame. */
void mani_IkChainTurnedLocal(mani_IkChain* c, uint32_t k, const double r[4], double out[4]);

/* Turns key k by the model-space rotation r about its origin. */
void mani_IkChainTurn(mani_IkChain* c, uint32_t k, const double r[4]);

/* Sets key k's local rotation (normalized); the frames from k stale. */
void mani_IkChainSetLocal(mani_IkChain* c, uint32_t k, const double q[4]);

/* Takes each turned key's local rotation weight of the way from its
 * input's (its turn from the input to the power weight, the short way);
 * weight 1 leaves them. */
void mani_IkChainWeight(mani_IkChain* c, double weight);

/* Writes the local rotations of the turned keys into the pose (each rounded
 * once) and marks the model stale. */
void mani_IkChainWrite(const mani_IkChain* c, maniPose* pose);

/* x' = f.p + f.m x, and v' = f.m v. */
void mani_IkFramePoint(const mani_IkFrame* f, const double x[3], double out[3]);

/* The distance between two points. */
double mani_IkDistance(const double a[3], const double b[3]);

/* A limit's checks against a bone's axis (unit or zero, in its frame):
 * 1 when valid. */
int mani_IkLimitOk(const maniJointLimit* limit, const double axis[3]);

/* Holds a local rotation q within the limit (rest the bone's rest rotation,
 * axis its axis, unit or zero); returns 1 when q changed. */
int mani_IkApplyLimit(const maniJointLimit* limit, const double rest[4], const double axis[3], double q[4]);

/* Key k's axis in its frame: the unit direction of key k + 1's origin as
 * its scaled local frame holds it (zero when at its origin or k the last). */
void mani_IkChainAxis(const mani_IkChain* c, uint32_t k, double axis[3]);

/* The skeleton's rest rotation of a bone, in binary64. */
void mani_IkRestRotation(const maniSkeleton* skeleton, uint32_t bone, double q[4]);

/* A CCD or FABRIK chain checked and loaded: the refusals of
 * maniPose_SolveCcd (fabrik: the pole taken, a step other than 0 refused),
 * then the path root to end as keys, each key's limit (NULL: none) and rest
 * rotation. */
typedef struct mani_IkChainSetup {
    mani_IkChain chain;
    const maniJointLimit* limit[MANI_MAX_IK_CHAIN_BONES];
    double rest[MANI_MAX_IK_CHAIN_BONES][4];
    double axis[MANI_MAX_IK_CHAIN_BONES][3];
    double goal[3];
    double length; /* the sum of the bones' lengths */
} mani_IkChainSetup;

maniResult mani_IkChainPrepare(const maniPose* pose, const maniSkeleton* skeleton, const maniChainSolve* solve,
                               int fabrik, mani_IkChainSetup* setup);

/* Holds key k within its limit (if any); returns 1 when it changed. */
int mani_IkChainLimit(mani_IkChainSetup* setup, uint32_t k);

/* The end's distance from the goal. */
double mani_IkChainMiss(mani_IkChainSetup* setup);

/* The end: its turn toward the wanted rotation, the weight, the limits
 * again, the write; *reachedOut (if not NULL) from the tolerance. */
void mani_IkChainFinish(mani_IkChainSetup* setup, const maniChainSolve* solve, maniPose* pose, bool* reachedOut);

#endif
