/* The ragdoll profile file format, version 12 (docs/formats.md, "Ragdoll
 * profile"): shared by the open (runtime) and the builder (offline), with
 * the record checks both apply and the rigid frame math both use. */
#ifndef MAUL_ANIM_RAGDOLL_FORMAT_H
#define MAUL_ANIM_RAGDOLL_FORMAT_H

#include <math.h>

#include "lib/core/container.h"
#include "lib/core/quat64.h"
#include "maul/anim/ragdoll.h"

/* Section tags and their order. */
#define MANI_RAGDOLL_INFO MCORE_TAG(12, 1)   /* see below */
#define MANI_RAGDOLL_BODIES MCORE_TAG(12, 2) /* MANI_RAGDOLL_BODY_SIZE bytes a body */
#define MANI_RAGDOLL_NAMES MCORE_TAG(12, 3)  /* the names' UTF-8 bytes */
#define MANI_RAGDOLL_SECTION_COUNT 3u

/* Info: u64 skeleton identity, u32 bone count, u32 body count, u32 name
 * bytes, u32 0, then f32 x 12: facing, up (root frame), model forward, model
 * up; 16 bytes of 0. */
#define MANI_RAGDOLL_INFO_SIZE 80u

/* A body record: u32 bone, parent, shape, motion; f32 size xyz, mass;
 * f32 frame (position xyz, rotation xyzw), joint (7), parent joint (7);
 * f32 twist min, max, swing y, z; f32 stiffness, damping, max force; u32
 * name offset, name length; 8 bytes of 0. */
#define MANI_RAGDOLL_BODY_SIZE 160u
#define MANI_RAGDOLL_BODY_FRAME 32u
#define MANI_RAGDOLL_BODY_JOINT 60u
#define MANI_RAGDOLL_BODY_PARENT_JOINT 88u
#define MANI_RAGDOLL_BODY_LIMITS 116u
#define MANI_RAGDOLL_BODY_DRIVE 132u
#define MANI_RAGDOLL_BODY_NAME 144u
#define MANI_RAGDOLL_BODY_PAD 152u

/* The value maniRagdoll.opened holds once an open wrote the view. */
#define MANI_RAGDOLL_OPENED 0x52414744u /* "RAGD" */

/* The tolerance of the root's axes: unit and perpendicular within a
 * thousandth. */
#define MANI_RAGDOLL_AXIS_TOLERANCE 1e-3

static const mcore_SectionSpec maniRagdollSections[MANI_RAGDOLL_SECTION_COUNT] = {
    {MANI_RAGDOLL_INFO, 16},
    {MANI_RAGDOLL_BODIES, 16},
    {MANI_RAGDOLL_NAMES, 16},
};

/* Which size components a shape uses: a mask of x, y, z; 0 for an unknown
 * shape. */
static inline uint32_t mani_RagdollShapeMask(uint32_t shape) {
    switch (shape) {
        case maniRagdollShapeSphere: return 1u;
        case maniRagdollShapeCapsule: return 3u;
        case maniRagdollShapeBox: return 7u;
        default: return 0u;
    }
}

/* Whether limits are in range (finite, ordered, within a half turn). */
static inline int mani_RagdollLimitsOk(float twistMin, float twistMax, float swingY, float swingZ) {
    return twistMin >= -MANI_RAGDOLL_MAX_ANGLE && twistMin <= twistMax && twistMax <= MANI_RAGDOLL_MAX_ANGLE &&
           swingY >= 0.0f && swingY <= MANI_RAGDOLL_MAX_ANGLE && swingZ >= 0.0f && swingZ <= MANI_RAGDOLL_MAX_ANGLE;
}

/* Whether a drive value is in range: finite, at least 0. */
static inline int mani_RagdollDriveOk(float v) { return isfinite(v) && v >= 0.0f; }

/* Whether the root's axes are unit and perpendicular within the tolerance
 * (finite assumed checked). */
static inline int mani_RagdollAxesOk(maniVec3 f, maniVec3 u) {
    const double ff = ((double)f.x * f.x + (double)f.y * f.y) + (double)f.z * f.z;
    const double uu = ((double)u.x * u.x + (double)u.y * u.y) + (double)u.z * u.z;
    const double fu = ((double)f.x * u.x + (double)f.y * u.y) + (double)f.z * u.z;
    return fabs(sqrt(ff) - 1.0) <= MANI_RAGDOLL_AXIS_TOLERANCE && fabs(sqrt(uu) - 1.0) <= MANI_RAGDOLL_AXIS_TOLERANCE &&
           fabs(fu) <= MANI_RAGDOLL_AXIS_TOLERANCE;
}

/* -- Rigid frames in binary64 ------------------------------------------------- */

/* A rigid frame: position p, unit rotation q (x y z w). */
typedef struct mani_Rigid64 {
    double p[3];
    double q[4];
} mani_Rigid64;

/* a * b: b's frame carried by a. */
static inline mani_Rigid64 mani_Rigid64Mul(const mani_Rigid64* a, const mani_Rigid64* b) {
    mani_Rigid64 r;
    double t[3];
    mcore_QuatRotateFast64(a->q, b->p, t);
    for (int k = 0; k < 3; ++k) r.p[k] = a->p[k] + t[k];
    mcore_QuatMul64(a->q, b->q, r.q);
    return r;
}

static inline mani_Rigid64 mani_Rigid64Inverse(const mani_Rigid64* a) {
    mani_Rigid64 r;
    r.q[0] = -a->q[0];
    r.q[1] = -a->q[1];
    r.q[2] = -a->q[2];
    r.q[3] = a->q[3];
    double t[3];
    mcore_QuatRotateFast64(r.q, a->p, t);
    for (int k = 0; k < 3; ++k) r.p[k] = -t[k];
    return r;
}

static inline mani_Rigid64 mani_Rigid64FromFloats(maniVec3 p, maniQuat q) {
    mani_Rigid64 r = {{p.x, p.y, p.z}, {q.x, q.y, q.z, q.w}};
    return r;
}

static inline mani_Rigid64 mani_Rigid64Identity(void) {
    mani_Rigid64 r = {{0, 0, 0}, {0, 0, 0, 1}};
    return r;
}

/* A frame rounded to binary32, its rotation normalized first. */
static inline maniRagdollFrame mani_Rigid64ToFrame(mani_Rigid64 a) {
    maniRagdollFrame f;
    (void)mcore_QuatNormalize64(a.q);
    f.position.x = (float)a.p[0];
    f.position.y = (float)a.p[1];
    f.position.z = (float)a.p[2];
    f.rotation.x = (float)a.q[0];
    f.rotation.y = (float)a.q[1];
    f.rotation.z = (float)a.q[2];
    f.rotation.w = (float)a.q[3];
    return f;
}

#endif
