/* spring.h: opening a spring set file (every byte checked once), the view's
 * accessors, and the state: init, fixed steps, apply, reset, save and
 * restore. */
#include "maul/anim/spring.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/simd/simd_single_inline.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/anim/src/spring/spring_format.h"
#include "lib/core/utf8.h"
#include "lib/core/detmath.h"
#include "maul/anim/build.h"

/* -- The view ------------------------------------------------------------------ */

static int mani_SpringViewOk(const maniSpringSet* s) {
    if (s == NULL || s->opened != MANI_SPRING_OPENED || s->bytes == NULL) return 0;
    const uint64_t size = s->size;
    if (s->boneCount == 0 || s->boneCount > MANI_MAX_BONES || s->trackedCount > s->boneCount) return 0;
    return mcore_SpanFits(s->springs, s->springCount, MANI_SPRING_SPRING_SIZE, size) &&
           mcore_SpanFits(s->joints, s->jointCount, MANI_SPRING_JOINT_SIZE, size) &&
           mcore_SpanFits(s->colliders, s->colliderCount, MANI_SPRING_COLLIDER_SIZE, size) &&
           mcore_SpanFits(s->links, s->linkCount, 4, size) && mcore_SpanFits(s->tracked, s->trackedCount, 4, size) &&
           mcore_SpanFits(s->names, s->namesSize, 1, size);
}

uint64_t maniSpringSet_GetIdentity(const maniSpringSet* set) { return mani_SpringViewOk(set) ? set->identity : 0; }

uint64_t maniSpringSet_GetSkeletonIdentity(const maniSpringSet* set) {
    return mani_SpringViewOk(set) ? set->skeletonIdentity : 0;
}

uint32_t maniSpringSet_GetSpringCount(const maniSpringSet* set) { return mani_SpringViewOk(set) ? set->springCount : 0; }

const char* maniSpringSet_GetSpringName(const maniSpringSet* set, uint32_t spring, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = 0;
    if (!mani_SpringViewOk(set) || spring >= set->springCount) return NULL;
    const uint8_t* r = set->bytes + set->springs + (uint64_t)MANI_SPRING_SPRING_SIZE * spring;
    const uint32_t offset = mcore_ReadU32(r + 28), length = mcore_ReadU32(r + 32);
    if (offset > set->namesSize || length > set->namesSize - offset) return (const char*)(set->bytes + set->names);
    if (lengthOut != NULL) *lengthOut = length;
    return (const char*)(set->bytes + set->names + offset);
}

float maniSpringSet_GetStepRate(const maniSpringSet* set, float* referenceRateOut) {
    const int ok = mani_SpringViewOk(set);
    if (referenceRateOut != NULL) *referenceRateOut = ok ? set->referenceRate : 0.0f;
    return ok ? set->stepRate : 0.0f;
}

/* -- The state's memory ---------------------------------------------------------- */

#define MANI_SPRING_STATE_MAGIC 0x54535053u /* "SPST" */

struct maniSpringState {
    uint32_t magic;
    uint32_t flags;      /* MANI_SPRING_HAS_LAST, MANI_SPRING_HAS_MOTION */
    maniSpringSet set;   /* copies of the views (the bytes must outlive the state) */
    maniSkeleton skeleton;
    double since;        /* time since the last step, in steps (at least -MANI_SPRING_TIME_SLACK, below 1) */
    maniTransform lastPlacement;
    maniTransform stepPlacement;
    maniVec3 lastForce;
    uint32_t reserved[3];
};

static size_t mani_SpringHeaderSize(void) { return (sizeof(struct maniSpringState) + 15u) & ~(size_t)15u; }

/* The arrays after the header: the last call's models, this call's models,
 * a step's models (tracked each), then tails and previous tails (joints
 * each). */
static maniTransform* mani_SpringLastModels(const maniSpringState* s) {
    return (maniTransform*)(void*)((uint8_t*)(uintptr_t)s + mani_SpringHeaderSize());
}
static maniTransform* mani_SpringCallModels(const maniSpringState* s) {
    return mani_SpringLastModels(s) + s->set.trackedCount;
}
static maniTransform* mani_SpringStepModels(const maniSpringState* s) {
    return mani_SpringCallModels(s) + s->set.trackedCount;
}
static maniVec3* mani_SpringTails(const maniSpringState* s) {
    return (maniVec3*)(void*)(mani_SpringStepModels(s) + s->set.trackedCount);
}
static maniVec3* mani_SpringPrevTails(const maniSpringState* s) { return mani_SpringTails(s) + s->set.jointCount; }
/* A step's colliders placed in the world: offset and tail (or normal) each. */
static maniVec3* mani_SpringPlacedColliders(const maniSpringState* s) {
    return mani_SpringPrevTails(s) + s->set.jointCount;
}

size_t maniSpringSet_GetStateSize(const maniSpringSet* set) {
    if (!mani_SpringViewOk(set)) return 0;
    const size_t size = mani_SpringHeaderSize() + 3u * sizeof(maniTransform) * set->trackedCount +
                        2u * sizeof(maniVec3) * set->jointCount + 2u * sizeof(maniVec3) * set->colliderCount;
    return (size + 15u) & ~(size_t)15u;
}

static int mani_SpringStateOk(const maniSpringState* s) {
    return s != NULL && s->magic == MANI_SPRING_STATE_MAGIC && mani_SpringViewOk(&s->set);
}

static void mani_SpringClear(maniSpringState* s) {
    s->flags = 0;
    s->since = 0.0;
    memset(&s->lastPlacement, 0, sizeof s->lastPlacement);
    memset(&s->stepPlacement, 0, sizeof s->stepPlacement);
    memset(&s->lastForce, 0, sizeof s->lastForce);
    memset(mani_SpringLastModels(s), 0, sizeof(maniTransform) * s->set.trackedCount);
    memset(mani_SpringTails(s), 0, 2u * sizeof(maniVec3) * s->set.jointCount);
}

maniResult maniInitSpringState(const maniSpringSet* set, const maniSkeleton* skeleton, void* memory, size_t size,
                               maniSpringState** stateOut) {
    if (!mani_SpringViewOk(set) || !mani_SkeletonViewOk(skeleton) || memory == NULL || stateOut == NULL)
        return mani_errorInvalid;
    if (((uintptr_t)memory & 15u) != 0) return mani_errorInvalid;
    if (skeleton->identity != set->skeletonIdentity || skeleton->boneCount != set->boneCount) return mani_errorInvalid;
    if (size < maniSpringSet_GetStateSize(set)) return mani_errorCapacity;
    maniSpringState* s = (maniSpringState*)memory;
    memset(s, 0, sizeof *s);
    s->magic = MANI_SPRING_STATE_MAGIC;
    s->set = *set;
    s->skeleton = *skeleton;
    mani_SpringClear(s);
    *stateOut = s;
    return mani_success;
}

void maniSpringState_Reset(maniSpringState* state) {
    if (!mani_SpringStateOk(state)) return;
    mani_SpringClear(state);
}

/* -- Vector helpers (binary32, IEEE operations only) ------------------------------ */

static maniVec3 mani_V(float x, float y, float z) {
    maniVec3 v = {x, y, z};
    return v;
}
static maniVec3 mani_VAdd(maniVec3 a, maniVec3 b) { return mani_V(a.x + b.x, a.y + b.y, a.z + b.z); }
static maniVec3 mani_VSub(maniVec3 a, maniVec3 b) { return mani_V(a.x - b.x, a.y - b.y, a.z - b.z); }
static maniVec3 mani_VScale(maniVec3 a, float k) { return mani_V(a.x * k, a.y * k, a.z * k); }
static maniVec3 mani_VMul(maniVec3 a, maniVec3 b) { return mani_V(a.x * b.x, a.y * b.y, a.z * b.z); }
static float mani_VDot(maniVec3 a, maniVec3 b) { return (a.x * b.x + a.y * b.y) + a.z * b.z; }
static float mani_VLength(maniVec3 a) { return sqrtf(mani_VDot(a, a)); }
static maniVec3 mani_VLerp(maniVec3 a, maniVec3 b, float t) { return mani_VAdd(a, mani_VScale(mani_VSub(b, a), t)); }

/* A transform applied to a point: translation + rotate(scale * p). */
static maniVec3 mani_XPoint(const maniTransform* x, maniVec3 p) {
    return mani_VAdd(x->translation, maniSimdInline_QuatRotateVec3(x->rotation, mani_VMul(x->scale, p)));
}

/* The inverse of a transform applied to a point. */
static maniVec3 mani_XInversePoint(const maniTransform* x, maniVec3 p) {
    const maniVec3 v = maniSimdInline_QuatRotateVec3(maniSimdInline_QuatConjugate(x->rotation), mani_VSub(p, x->translation));
    return mani_V(x->scale.x != 0.0f ? v.x / x->scale.x : 0.0f, x->scale.y != 0.0f ? v.y / x->scale.y : 0.0f,
                  x->scale.z != 0.0f ? v.z / x->scale.z : 0.0f);
}

/* Interpolates transforms; equal ones (bit for bit) give themselves, so
 * still inputs step the same whatever the host rate. */
static maniTransform mani_XLerp(const maniTransform* a, const maniTransform* b, float t) {
    if (t >= 1.0f || memcmp(a, b, sizeof *a) == 0) return *b;
    if (t <= 0.0f) return *a;
    maniTransform x;
    x.translation = mani_VLerp(a->translation, b->translation, t);
    x.rotation = maniSimdInline_QuatNlerp(a->rotation, b->rotation, t);
    x.scale = mani_VLerp(a->scale, b->scale, t);
    return x;
}

/* The shortest turn taking unit a to unit b (the identity for a ~ b; a half
 * turn about an axis normal to a for a ~ -b). */
static maniQuat mani_FromTo(maniVec3 a, maniVec3 b) {
    const float d = mani_VDot(a, b);
    maniQuat q;
    if (d < -0.999999f) {
        maniVec3 axis = fabsf(a.x) < 0.9f ? mani_V(0.0f, a.z, -a.y) : mani_V(-a.z, 0.0f, a.x);
        const float len = mani_VLength(axis);
        q.x = axis.x / len;
        q.y = axis.y / len;
        q.z = axis.z / len;
        q.w = 0.0f;
        return q;
    }
    q.x = a.y * b.z - a.z * b.y;
    q.y = a.z * b.x - a.x * b.z;
    q.z = a.x * b.y - a.y * b.x;
    q.w = 1.0f + d;
    return maniSimdInline_QuatNormalize(q);
}

/* A direction: v normalized, or fallback when v has no length. */
static maniVec3 mani_VDirection(maniVec3 v, maniVec3 fallback) {
    const float len = mani_VLength(v);
    if (!(len > 0.0f) || !isfinite(len)) return fallback;
    return mani_VScale(v, 1.0f / len);
}

/* -- Records -------------------------------------------------------------------- */

typedef struct {
    uint32_t firstJoint, jointCount, firstLink, linkCount, center, centerTracked, parentTracked;
} mani_SpringRecord;

static mani_SpringRecord mani_ReadSpring(const maniSpringSet* set, uint32_t k) {
    const uint8_t* r = set->bytes + set->springs + (uint64_t)MANI_SPRING_SPRING_SIZE * k;
    mani_SpringRecord s;
    s.firstJoint = mcore_ReadU32(r);
    s.jointCount = mcore_ReadU32(r + 4);
    s.firstLink = mcore_ReadU32(r + 8);
    s.linkCount = mcore_ReadU32(r + 12);
    s.center = mcore_ReadU32(r + 16);
    s.centerTracked = mcore_ReadU32(r + 20);
    s.parentTracked = mcore_ReadU32(r + 24);
    return s;
}

/* Whether a spring record (bytes changed after the open) still fits the
 * view's arrays. */
static int mani_SpringRecordFits(const maniSpringSet* set, const mani_SpringRecord* s) {
    if (s->jointCount < 2 || s->firstJoint > set->jointCount || s->jointCount > set->jointCount - s->firstJoint) return 0;
    if (s->firstLink > set->linkCount || s->linkCount > set->linkCount - s->firstLink) return 0;
    if (s->center != MANI_NO_BONE && s->centerTracked >= set->trackedCount) return 0;
    if (s->parentTracked != MANI_NO_BONE && s->parentTracked >= set->trackedCount) return 0;
    return 1;
}

typedef struct {
    uint32_t tracked;
    float hitRadius, stiffness, drag, gravity;
    maniVec3 gravityDir;
    uint32_t limitKind;
    maniQuat limitRotation;
    float angle, angle2;
} mani_JointRecord;

static mani_JointRecord mani_ReadJoint(const maniSpringSet* set, uint32_t j) {
    const uint8_t* r = set->bytes + set->joints + (uint64_t)MANI_SPRING_JOINT_SIZE * j;
    mani_JointRecord o;
    o.tracked = mcore_ReadU32(r + 4);
    if (o.tracked >= set->trackedCount) o.tracked = 0;
    o.hitRadius = mcore_ReadF32(r + 8);
    o.stiffness = mcore_ReadF32(r + 12);
    o.drag = mcore_ReadF32(r + 16);
    o.gravity = mcore_ReadF32(r + 20);
    o.gravityDir = mani_V(mcore_ReadF32(r + 24), mcore_ReadF32(r + 28), mcore_ReadF32(r + 32));
    o.limitKind = mcore_ReadU32(r + 36);
    o.limitRotation.x = mcore_ReadF32(r + 40);
    o.limitRotation.y = mcore_ReadF32(r + 44);
    o.limitRotation.z = mcore_ReadF32(r + 48);
    o.limitRotation.w = mcore_ReadF32(r + 52);
    o.angle = mcore_ReadF32(r + 56);
    o.angle2 = mcore_ReadF32(r + 60);
    return o;
}

typedef struct {
    uint32_t tracked, kind;
    maniVec3 offset;
    float radius;
    maniVec3 tail;
} mani_ColliderRecord;

static mani_ColliderRecord mani_ReadCollider(const maniSpringSet* set, uint32_t c) {
    const uint8_t* r = set->bytes + set->colliders + (uint64_t)MANI_SPRING_COLLIDER_SIZE * c;
    mani_ColliderRecord o;
    o.tracked = mcore_ReadU32(r + 4);
    if (o.tracked >= set->trackedCount) o.tracked = 0;
    o.kind = mcore_ReadU32(r + 8);
    o.offset = mani_V(mcore_ReadF32(r + 12), mcore_ReadF32(r + 16), mcore_ReadF32(r + 20));
    o.radius = mcore_ReadF32(r + 24);
    o.tail = mani_V(mcore_ReadF32(r + 28), mcore_ReadF32(r + 32), mcore_ReadF32(r + 36));
    return o;
}

/* The two fields a collision reads (kind and radius; the placed offset and
 * tail come from the step's placed colliders). */
static mani_ColliderRecord mani_ReadColliderShape(const maniSpringSet* set, uint32_t c) {
    const uint8_t* r = set->bytes + set->colliders + (uint64_t)MANI_SPRING_COLLIDER_SIZE * c;
    mani_ColliderRecord o;
    memset(&o, 0, sizeof o);
    o.kind = mcore_ReadU32(r + 8);
    o.radius = mcore_ReadF32(r + 24);
    return o;
}

/* -- Collisions and limits ---------------------------------------------------------- */

/* Keeps next at length from head (its direction, or fallback without one). */
static maniVec3 mani_KeepLength(maniVec3 head, maniVec3 next, float length, maniVec3 fallback) {
    return mani_VAdd(head, mani_VScale(mani_VDirection(mani_VSub(next, head), fallback), length));
}

/* The point of segment a-b nearest p. */
static maniVec3 mani_NearestOnSegment(maniVec3 a, maniVec3 b, maniVec3 p) {
    const maniVec3 ab = mani_VSub(b, a);
    const float len2 = mani_VDot(ab, ab);
    if (!(len2 > 0.0f)) return a;
    float t = mani_VDot(mani_VSub(p, a), ab) / len2;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return mani_VAdd(a, mani_VScale(ab, t));
}

/* A collider's offset and tail (a plane's normal) placed by x. */
static void mani_PlaceCollider(const mani_ColliderRecord* c, const maniTransform* x, maniVec3 out[2]) {
    out[0] = mani_XPoint(x, c->offset);
    out[1] = c->kind == maniSpringShapePlane ? maniSimdInline_QuatRotateVec3(x->rotation, c->tail) : mani_XPoint(x, c->tail);
}

/* Pushes a tail (of hit radius hit) out of a collider placed at placed (or
 * keeps it inside an inside one). */
static maniVec3 mani_Collide(const mani_ColliderRecord* c, const maniVec3 placed[2], maniVec3 tail, float hit) {
    const maniVec3 at = placed[0];
    if (c->kind == maniSpringShapePlane) {
        const maniVec3 n = placed[1];
        const float s = mani_VDot(mani_VSub(tail, at), n) - hit;
        return s < 0.0f ? mani_VSub(tail, mani_VScale(n, s)) : tail;
    }
    maniVec3 nearest = at;
    if (c->kind == maniSpringShapeCapsule || c->kind == maniSpringShapeInsideCapsule)
        nearest = mani_NearestOnSegment(at, placed[1], tail);
    const maniVec3 d = mani_VSub(tail, nearest);
    const float dist = mani_VLength(d);
    if (c->kind == maniSpringShapeInsideSphere || c->kind == maniSpringShapeInsideCapsule) {
        const float r = c->radius - hit;
        if (r <= 0.0f) return nearest;
        if (dist > r) return mani_VAdd(nearest, mani_VScale(d, r / dist));
        return tail;
    }
    const float r = c->radius + hit;
    if (dist < r && dist > 0.0f) return mani_VAdd(nearest, mani_VScale(d, r / dist));
    return tail;
}

static float mani_Clamp(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* A unit direction in the limit's frame kept within the limit. */
static maniVec3 mani_Limit(const mani_JointRecord* j, maniVec3 v) {
    if (j->limitKind == maniSpringLimitCone) {
        const float c = mcore_cosf(j->angle);
        if (v.y >= c) return v;
        const float side = sqrtf(v.x * v.x + v.z * v.z);
        const float s = mcore_sinf(j->angle);
        if (!(side > 0.0f)) return mani_V(s, c, 0.0f);
        return mani_V(v.x / side * s, c, v.z / side * s);
    }
    if (j->limitKind == maniSpringLimitHinge) {
        /* Onto the YZ plane, then the angle about X clamped. */
        float a = mcore_atan2f(v.z, v.y);
        a = mani_Clamp(a, -j->angle, j->angle);
        float s, c;
        mcore_sincosf(a, &s, &c);
        return mani_V(0.0f, c, s);
    }
    if (j->limitKind == maniSpringLimitSpherical) {
        /* Pitch about X (toward Z), yaw about Y (toward X), each clamped. */
        float pitch = mcore_atan2f(v.z, v.y);
        const float yz = sqrtf(v.y * v.y + v.z * v.z);
        float yaw = mcore_atan2f(v.x, yz);
        pitch = mani_Clamp(pitch, -j->angle, j->angle);
        yaw = mani_Clamp(yaw, -j->angle2, j->angle2);
        float sp, cp, sy, cy;
        mcore_sincosf(pitch, &sp, &cp);
        mcore_sincosf(yaw, &sy, &cy);
        return mani_V(sy, cy * cp, cy * sp);
    }
    return v;
}

/* -- Stepping -------------------------------------------------------------------- */

static int mani_FiniteVec3(const maniVec3* v) { return isfinite(v->x) && isfinite(v->y) && isfinite(v->z); }

static int mani_FiniteTransform(const maniTransform* x) {
    return mani_FiniteVec3(&x->translation) && mani_FiniteVec3(&x->scale) && isfinite(x->rotation.x) &&
           isfinite(x->rotation.y) && isfinite(x->rotation.z) && isfinite(x->rotation.w);
}

static maniTransform mani_IdentityX(void) {
    maniTransform x;
    x.translation = mani_V(0.0f, 0.0f, 0.0f);
    x.rotation.x = x.rotation.y = x.rotation.z = 0.0f;
    x.rotation.w = 1.0f;
    x.scale = mani_V(1.0f, 1.0f, 1.0f);
    return x;
}

static uint32_t mani_TrackedBone(const maniSpringSet* set, uint32_t k) {
    return mcore_ReadU32(set->bytes + set->tracked + 4ull * k);
}

/* A center's world transform at a step (the identity without one). */
static maniTransform mani_CenterX(const mani_SpringRecord* r, const maniTransform* models, const maniTransform* placement) {
    if (r->center == MANI_NO_BONE) return mani_IdentityX();
    return maniSimdInline_TransformMul(placement, &models[r->centerTracked]);
}

/* One fixed step of every spring with models (tracked bones), placement
 * and a step's force displacement. */
static void mani_SpringStepOnce(maniSpringState* s, const maniTransform* models, const maniTransform* placement,
                                maniVec3 force) {
    const maniSpringSet* set = &s->set;
    maniVec3* tails = mani_SpringTails(s);
    maniVec3* prevs = mani_SpringPrevTails(s);
    const int moving = (s->flags & MANI_SPRING_HAS_MOTION) != 0;
    maniVec3* placed = mani_SpringPlacedColliders(s);
    if (moving) {
        for (uint32_t c = 0; c < set->colliderCount; ++c) {
            const mani_ColliderRecord r = mani_ReadCollider(set, c);
            const maniTransform x = maniSimdInline_TransformMul(placement, &models[r.tracked]);
            mani_PlaceCollider(&r, &x, &placed[2u * c]);
        }
    }
    for (uint32_t k = 0; k < set->springCount; ++k) {
        const mani_SpringRecord r = mani_ReadSpring(set, k);
        if (!mani_SpringRecordFits(set, &r)) continue;
        const maniTransform center = mani_CenterX(&r, models, placement);
        const maniQuat placementTurn = placement->rotation;
        maniQuat parentModel = r.parentTracked != MANI_NO_BONE ? models[r.parentTracked].rotation : mani_IdentityX().rotation;
        maniQuat parentSprung = maniSimdInline_QuatMul(placementTurn, parentModel);
        mani_JointRecord joint = mani_ReadJoint(set, r.firstJoint);
        maniVec3 head = mani_XPoint(placement, models[joint.tracked].translation);
        for (uint32_t j = 0; j + 1 < r.jointCount; ++j) {
            const uint32_t index = r.firstJoint + j;
            const mani_JointRecord next = mani_ReadJoint(set, index + 1);
            const maniTransform* mj = &models[joint.tracked];
            const maniTransform* mc = &models[next.tracked];
            /* The joint's frame: its sprung parent's turn times its local. */
            const maniQuat local = maniSimdInline_QuatMul(maniSimdInline_QuatConjugate(parentModel), mj->rotation);
            const maniQuat frame = maniSimdInline_QuatMul(parentSprung, local);
            const maniVec3 modelBone = mani_VSub(mc->translation, mj->translation);
            const maniVec3 axis = mani_VDirection(
                maniSimdInline_QuatRotateVec3(maniSimdInline_QuatConjugate(mj->rotation), modelBone), mani_V(0, 1, 0));
            const float length = mani_VLength(mani_VMul(placement->scale, modelBone));
            const maniVec3 restDir = maniSimdInline_QuatRotateVec3(frame, axis);
            maniVec3 nextTail;
            if (!moving) {
                nextTail = mani_VAdd(head, mani_VScale(restDir, length));
                prevs[index] = mani_XInversePoint(&center, nextTail);
            } else {
                const maniVec3 tail = mani_XPoint(&center, tails[index]);
                const maniVec3 prev = mani_XPoint(&center, prevs[index]);
                const maniVec3 inertia = mani_VScale(mani_VSub(tail, prev), 1.0f - joint.drag);
                nextTail = mani_VAdd(tail, inertia);
                nextTail = mani_VAdd(nextTail, mani_VScale(restDir, joint.stiffness));
                nextTail = mani_VAdd(nextTail, mani_VScale(joint.gravityDir, joint.gravity));
                nextTail = mani_VAdd(nextTail, force);
                nextTail = mani_KeepLength(head, nextTail, length, restDir);
                for (uint32_t l = 0; l < r.linkCount; ++l) {
                    const uint32_t ci = mcore_ReadU32(set->bytes + set->links + 4ull * (r.firstLink + l));
                    if (ci >= set->colliderCount) continue;
                    const mani_ColliderRecord c = mani_ReadColliderShape(set, ci);
                    nextTail = mani_KeepLength(head, mani_Collide(&c, &placed[2u * ci], nextTail, joint.hitRadius), length,
                                               restDir);
                }
                if (joint.limitKind != maniSpringLimitNone) {
                    const maniQuat limitFrame = maniSimdInline_QuatMul(frame, joint.limitRotation);
                    const maniVec3 dir = mani_VDirection(mani_VSub(nextTail, head), restDir);
                    const maniVec3 v = mani_Limit(&joint, maniSimdInline_QuatRotateVec3(
                                                              maniSimdInline_QuatConjugate(limitFrame), dir));
                    nextTail = mani_VAdd(head, mani_VScale(maniSimdInline_QuatRotateVec3(limitFrame, v), length));
                }
                /* The previous tail in the center's space of this step (the
                 * inertia the center carries). */
                prevs[index] = mani_XInversePoint(&center, tail);
            }
            tails[index] = mani_XInversePoint(&center, nextTail);
            const maniVec3 dir = mani_VDirection(mani_VSub(nextTail, head), restDir);
            const maniQuat sprung = maniSimdInline_QuatNormalize(maniSimdInline_QuatMul(mani_FromTo(restDir, dir), frame));
            parentSprung = sprung;
            parentModel = mj->rotation;
            head = nextTail;
            joint = next;
        }
    }
    s->flags |= MANI_SPRING_HAS_MOTION;
    s->stepPlacement = *placement;
}

/* Reads this call's tracked models from a pose (its model composed). */
static maniResult mani_SpringReadModels(maniSpringState* s, maniPose* pose, maniTransform* out) {
    if (!maniPose_IsModelCurrent(pose)) {
        const maniResult r = maniPose_ComputeModel(pose, &s->skeleton);
        if (r != mani_success) return r;
    }
    for (uint32_t k = 0; k < s->set.trackedCount; ++k) {
        uint32_t bone = mani_TrackedBone(&s->set, k);
        if (bone >= s->set.boneCount) bone = 0;
        out[k] = maniPose_GetModelTransform(pose, bone);
    }
    return mani_success;
}

static int mani_SpringPoseOk(const maniSpringState* s, const maniPose* pose) {
    return mani_PoseOk(pose) && pose->boneCount == s->set.boneCount && pose->skeletonIdentity == s->set.skeletonIdentity &&
           (pose->flags & MANI_POSE_DIFFERENCE) == 0;
}

maniResult maniSpringState_Step(maniSpringState* state, maniPose* pose, const maniTransform* placement,
                                const maniVec3* force, float delta) {
    if (!mani_SpringStateOk(state) || pose == NULL || !mani_SpringPoseOk(state, pose)) return mani_errorInvalid;
    if (!isfinite(delta) || (placement != NULL && !mani_FiniteTransform(placement)) ||
        (force != NULL && !mani_FiniteVec3(force)))
        return mani_errorInvalid;
    const double rate = state->set.stepRate;
    const double steps = fabs((double)delta) * rate;
    if (!(steps <= (double)MANI_SPRING_MAX_STEPS + MANI_SPRING_TIME_SLACK)) return mani_errorInvalid;
    maniTransform place = placement != NULL ? *placement : mani_IdentityX();
    place.rotation = maniSimdInline_QuatNormalize(place.rotation);
    const maniVec3 push = force != NULL ? *force : mani_V(0.0f, 0.0f, 0.0f);
    maniTransform* last = mani_SpringLastModels(state);
    maniTransform* call = mani_SpringCallModels(state);
    maniTransform* step = mani_SpringStepModels(state);
    const maniResult read = mani_SpringReadModels(state, pose, call);
    if (read != mani_success) return mani_errorInvalid;
    const uint32_t n = state->set.trackedCount;
    if ((state->flags & MANI_SPRING_HAS_LAST) == 0) {
        memcpy(last, call, sizeof(maniTransform) * n);
        state->lastPlacement = place;
        state->lastForce = push;
    }
    /* Steps due: i = 1, 2, ... while since + steps reaches i (less the
     * slack), each at its share of the call's time. */
    const double start = state->since;
    const double end = start + steps;
    const float stepSeconds = (float)(1.0 / rate);
    uint32_t i = 1;
    for (; (double)i <= end + MANI_SPRING_TIME_SLACK; ++i) {
        const double at = (double)i - start;
        float t = steps > 0.0 ? (float)(at / steps) : 1.0f;
        t = mani_Clamp(t, 0.0f, 1.0f);
        for (uint32_t k = 0; k < n; ++k) step[k] = mani_XLerp(&last[k], &call[k], t);
        const maniTransform p = mani_XLerp(&state->lastPlacement, &place, t);
        const maniVec3 f = mani_VScale(mani_VLerp(state->lastForce, push, t), stepSeconds);
        mani_SpringStepOnce(state, step, &p, f);
    }
    state->since = end - (double)(i - 1);
    memcpy(last, call, sizeof(maniTransform) * n);
    state->lastPlacement = place;
    state->lastForce = push;
    state->flags |= MANI_SPRING_HAS_LAST;
    return mani_success;
}

maniResult maniSpringState_Apply(const maniSpringState* state, maniPose* pose) {
    if (!mani_SpringStateOk(state) || pose == NULL || !mani_SpringPoseOk(state, pose)) return mani_errorInvalid;
    if ((state->flags & MANI_SPRING_HAS_MOTION) == 0) return mani_success;
    const maniSpringSet* set = &state->set;
    const maniTransform* models = mani_SpringLastModels(state);
    const maniVec3* tails = mani_SpringTails(state);
    const maniVec3* prevs = mani_SpringPrevTails(state);
    const maniTransform identity = mani_IdentityX();
    const float ahead = state->since > 0.0 ? (float)state->since : 0.0f;
    /* Everything in the model space of the last call. */
    for (uint32_t k = 0; k < set->springCount; ++k) {
        const mani_SpringRecord r = mani_ReadSpring(set, k);
        if (!mani_SpringRecordFits(set, &r)) continue;
        const maniTransform center = r.center != MANI_NO_BONE ? models[r.centerTracked] : identity;
        maniQuat parentModel = r.parentTracked != MANI_NO_BONE ? models[r.parentTracked].rotation : identity.rotation;
        maniQuat parentSprung = parentModel;
        mani_JointRecord joint = mani_ReadJoint(set, r.firstJoint);
        maniVec3 head = models[joint.tracked].translation;
        for (uint32_t j = 0; j + 1 < r.jointCount; ++j) {
            const uint32_t index = r.firstJoint + j;
            const mani_JointRecord next = mani_ReadJoint(set, index + 1);
            const maniTransform* mj = &models[joint.tracked];
            const maniTransform* mc = &models[next.tracked];
            const maniQuat local = maniSimdInline_QuatMul(maniSimdInline_QuatConjugate(parentModel), mj->rotation);
            const maniQuat frame = maniSimdInline_QuatMul(parentSprung, local);
            const maniVec3 modelBone = mani_VSub(mc->translation, mj->translation);
            const maniVec3 axis = mani_VDirection(
                maniSimdInline_QuatRotateVec3(maniSimdInline_QuatConjugate(mj->rotation), modelBone), mani_V(0, 1, 0));
            const float length = mani_VLength(modelBone);
            const maniVec3 restDir = maniSimdInline_QuatRotateVec3(frame, axis);
            /* The tail moved on, carried into the last call's placement. */
            const maniVec3 moved = mani_VAdd(tails[index], mani_VScale(mani_VSub(tails[index], prevs[index]), ahead));
            maniVec3 tail = r.center != MANI_NO_BONE ? mani_XPoint(&center, moved)
                                                     : mani_XInversePoint(&state->stepPlacement, moved);
            tail = mani_KeepLength(head, tail, length, restDir);
            for (uint32_t l = 0; l < r.linkCount; ++l) {
                const uint32_t ci = mcore_ReadU32(set->bytes + set->links + 4ull * (r.firstLink + l));
                if (ci >= set->colliderCount) continue;
                const mani_ColliderRecord c = mani_ReadCollider(set, ci);
                maniVec3 placed[2];
                mani_PlaceCollider(&c, &models[c.tracked], placed);
                tail = mani_KeepLength(head, mani_Collide(&c, placed, tail, joint.hitRadius), length, restDir);
            }
            const maniVec3 dir = mani_VDirection(mani_VSub(tail, head), restDir);
            const maniQuat sprung = maniSimdInline_QuatNormalize(maniSimdInline_QuatMul(mani_FromTo(restDir, dir), frame));
            uint32_t bone = mani_TrackedBone(set, joint.tracked);
            if (bone < set->boneCount) {
                maniTransform out = mani_PoseGetLocalRaw(pose, bone);
                out.rotation = maniSimdInline_QuatNormalize(
                    maniSimdInline_QuatMul(maniSimdInline_QuatConjugate(parentSprung), sprung));
                mani_PoseSetLocalRaw(pose, bone, out);
            }
            parentSprung = sprung;
            parentModel = mj->rotation;
            head = tail;
            joint = next;
        }
    }
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

/* -- Save and restore ------------------------------------------------------------- */

static void mani_LayoutState(const maniSpringSet* set, mcore_Layout* layout) {
    const uint64_t sizes[MANI_SPRING_STATE_SECTION_COUNT] = {MANI_SPRING_STATE_INFO_SIZE, MANI_SPRING_STATE_CALL_SIZE,
                                                             40ull * set->trackedCount, 24ull * set->jointCount};
    (void)mcore_LayoutSections(layout, maniSpringStateSections, sizes, MANI_SPRING_STATE_SECTION_COUNT, UINT64_MAX);
}

static void mani_WriteX(uint8_t* p, const maniTransform* x) {
    const float v[10] = {x->translation.x, x->translation.y, x->translation.z, x->rotation.x, x->rotation.y,
                         x->rotation.z,    x->rotation.w,    x->scale.x,       x->scale.y,    x->scale.z};
    for (int k = 0; k < 10; ++k) mcore_WriteF32(p + 4 * k, v[k]);
}

static maniTransform mani_ReadX(const uint8_t* p) {
    maniTransform x;
    x.translation = mani_V(mcore_ReadF32(p), mcore_ReadF32(p + 4), mcore_ReadF32(p + 8));
    x.rotation.x = mcore_ReadF32(p + 12);
    x.rotation.y = mcore_ReadF32(p + 16);
    x.rotation.z = mcore_ReadF32(p + 20);
    x.rotation.w = mcore_ReadF32(p + 24);
    x.scale = mani_V(mcore_ReadF32(p + 28), mcore_ReadF32(p + 32), mcore_ReadF32(p + 36));
    return x;
}

static void mani_WriteV(uint8_t* p, maniVec3 v) {
    mcore_WriteF32(p, v.x);
    mcore_WriteF32(p + 4, v.y);
    mcore_WriteF32(p + 8, v.z);
}

maniResult maniSpringState_Save(const maniSpringState* state, void* bytesOut, size_t capacity, size_t* sizeOut) {
    if (!mani_SpringStateOk(state) || (bytesOut == NULL && capacity > 0)) return mani_errorInvalid;
    mcore_Layout layout;
    mani_LayoutState(&state->set, &layout);
    if (sizeOut != NULL) *sizeOut = (size_t)layout.totalSize;
    if (capacity < layout.totalSize) return mani_errorCapacity;
    uint8_t* b = (uint8_t*)bytesOut;
    memset(b, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    const uint64_t info = sec[0].offset;
    mcore_WriteU64(b + info, state->set.identity);
    mcore_WriteU32(b + info + 8, state->flags);
    mcore_WriteU32(b + info + 12, state->set.trackedCount);
    mcore_WriteU32(b + info + 16, state->set.jointCount);
    uint64_t bits;
    memcpy(&bits, &state->since, 8);
    mcore_WriteU64(b + info + 24, bits);
    mani_WriteX(b + sec[1].offset, &state->lastPlacement);
    mani_WriteX(b + sec[1].offset + 40, &state->stepPlacement);
    mani_WriteV(b + sec[1].offset + 80, state->lastForce);
    const maniTransform* last = mani_SpringLastModels(state);
    for (uint32_t k = 0; k < state->set.trackedCount; ++k) mani_WriteX(b + sec[2].offset + 40ull * k, &last[k]);
    const maniVec3* tails = mani_SpringTails(state);
    const maniVec3* prevs = mani_SpringPrevTails(state);
    for (uint32_t j = 0; j < state->set.jointCount; ++j) {
        mani_WriteV(b + sec[3].offset + 24ull * j, tails[j]);
        mani_WriteV(b + sec[3].offset + 24ull * j + 12, prevs[j]);
    }
    mcore_FinishContainer(b, &layout, mcore_kindSavedState, mcore_formatSpringStateLatest, MANI_ABI_VERSION);
    return mani_success;
}

/* The first byte of n that is not 0, or UINT64_MAX. */
static uint64_t mani_FirstNonZero(const uint8_t* b, uint64_t at, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
        if (b[at + i] != 0) return at + i;
    return UINT64_MAX;
}

/* The first wrong float of a saved transform: not finite, or a rotation not
 * of length 1 (reported at its x); UINT64_MAX when right. */
static uint64_t mani_CheckSavedX(const uint8_t* b, uint64_t at) {
    for (uint64_t k = 0; k < 10; ++k)
        if (!isfinite(mcore_ReadF32(b + at + 4 * k))) return at + 4 * k;
    double len2 = 0.0;
    for (uint64_t k = 3; k < 7; ++k) {
        const double v = mcore_ReadF32(b + at + 4 * k);
        len2 += v * v;
    }
    if (!(fabs(len2 - 1.0) <= MANI_UNIT_TOLERANCE)) return at + 12;
    return UINT64_MAX;
}

maniFileResult maniSpringState_Restore(maniSpringState* state, const void* bytes, size_t size) {
    if (!mani_SpringStateOk(state) || bytes == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindSavedState, mcore_formatSpringStateLatest,
                                                     maniSpringStateSections, MANI_SPRING_STATE_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    if (mcore_ReadU32(b + 12) != MANI_ABI_VERSION) return mani_FileResult(mani_errorVersion, 12);
    const mcore_Section* sec = c.sections;
    const maniSpringSet* set = &state->set;
    if (sec[0].size != MANI_SPRING_STATE_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    if (mcore_ReadU64(b + info) != set->identity) return mani_FileResult(mani_errorFormat, info);
    const uint32_t flags = mcore_ReadU32(b + info + 8);
    if ((flags & ~(MANI_SPRING_HAS_LAST | MANI_SPRING_HAS_MOTION)) != 0 || flags == MANI_SPRING_HAS_MOTION)
        return mani_FileResult(mani_errorFormat, info + 8);
    if (mcore_ReadU32(b + info + 12) != set->trackedCount) return mani_FileResult(mani_errorFormat, info + 12);
    if (mcore_ReadU32(b + info + 16) != set->jointCount) return mani_FileResult(mani_errorFormat, info + 16);
    if (mcore_ReadU32(b + info + 20) != 0) return mani_FileResult(mani_errorFormat, info + 20);
    const uint64_t sinceBits = mcore_ReadU64(b + info + 24);
    double since;
    memcpy(&since, &sinceBits, 8);
    if (!(since >= -MANI_SPRING_TIME_SLACK && since < 1.0)) return mani_FileResult(mani_errorFormat, info + 24);
    if (sec[1].size != MANI_SPRING_STATE_CALL_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(1));
    if (sec[2].size != 40ull * set->trackedCount) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(2));
    if (sec[3].size != 24ull * set->jointCount) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(3));
    const uint64_t call = sec[1].offset, models = sec[2].offset, tails = sec[3].offset;
    uint64_t wrong;
    if ((flags & MANI_SPRING_HAS_LAST) == 0) {
        /* No call yet: nothing but zeros. */
        if (sinceBits != 0) return mani_FileResult(mani_errorFormat, info + 24);
        if ((wrong = mani_FirstNonZero(b, call, sec[1].size)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        if ((wrong = mani_FirstNonZero(b, models, sec[2].size)) != UINT64_MAX)
            return mani_FileResult(mani_errorFormat, wrong);
    } else {
        if ((wrong = mani_CheckSavedX(b, call)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        for (uint64_t k = 0; k < 3; ++k)
            if (!isfinite(mcore_ReadF32(b + call + 80 + 4 * k))) return mani_FileResult(mani_errorFormat, call + 80 + 4 * k);
        if ((wrong = mani_FirstNonZero(b, call + 92, 4)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        for (uint32_t k = 0; k < set->trackedCount; ++k)
            if ((wrong = mani_CheckSavedX(b, models + 40ull * k)) != UINT64_MAX)
                return mani_FileResult(mani_errorFormat, wrong);
    }
    if ((flags & MANI_SPRING_HAS_MOTION) == 0) {
        if ((wrong = mani_FirstNonZero(b, call + 40, 40)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        if ((wrong = mani_FirstNonZero(b, tails, sec[3].size)) != UINT64_MAX)
            return mani_FileResult(mani_errorFormat, wrong);
    } else {
        if ((wrong = mani_CheckSavedX(b, call + 40)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        for (uint64_t k = 0; k < 6ull * set->jointCount; ++k)
            if (!isfinite(mcore_ReadF32(b + tails + 4 * k))) return mani_FileResult(mani_errorFormat, tails + 4 * k);
    }
    /* Checked: copy in. */
    state->flags = flags;
    state->since = since;
    state->lastPlacement = mani_ReadX(b + call);
    state->stepPlacement = mani_ReadX(b + call + 40);
    state->lastForce = mani_V(mcore_ReadF32(b + call + 80), mcore_ReadF32(b + call + 84), mcore_ReadF32(b + call + 88));
    maniTransform* last = mani_SpringLastModels(state);
    for (uint32_t k = 0; k < set->trackedCount; ++k) last[k] = mani_ReadX(b + models + 40ull * k);
    maniVec3* t = mani_SpringTails(state);
    maniVec3* p = mani_SpringPrevTails(state);
    for (uint32_t j = 0; j < set->jointCount; ++j) {
        const uint64_t at = tails + 24ull * j;
        t[j] = mani_V(mcore_ReadF32(b + at), mcore_ReadF32(b + at + 4), mcore_ReadF32(b + at + 8));
        p[j] = mani_V(mcore_ReadF32(b + at + 12), mcore_ReadF32(b + at + 16), mcore_ReadF32(b + at + 20));
    }
    return mani_FileResult(mani_success, 0);
}

/* -- The open ------------------------------------------------------------------- */

/* The first float of n at at that is not finite, or UINT64_MAX. */
static uint64_t mani_FirstNotFinite(const uint8_t* b, uint64_t at, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k)
        if (!isfinite(mcore_ReadF32(b + at + 4ull * k))) return at + 4ull * k;
    return UINT64_MAX;
}

static double mani_Length2At(const uint8_t* b, uint64_t at, uint32_t n) {
    double len2 = 0.0;
    for (uint32_t k = 0; k < n; ++k) {
        const double v = mcore_ReadF32(b + at + 4ull * k);
        len2 += v * v;
    }
    return len2;
}

/* Whether tracked index k names bone (k within count). */
static int mani_TrackedIs(const uint8_t* b, uint64_t tracked, uint32_t count, uint32_t k, uint32_t bone) {
    return k < count && mcore_ReadU32(b + tracked + 4ull * k) == bone;
}

#define MANI_SPRING_PI 3.14159274f /* pi rounded up to binary32: the largest angle a limit takes */

maniFileResult maniOpenSpringSet(const void* bytes, size_t size, maniSpringSet* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindSpringSet, mcore_formatSpringSetLatest,
                                                     maniSpringSections, MANI_SPRING_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* The header. */
    if (sec[0].size != MANI_SPRING_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint64_t skeletonIdentity = mcore_ReadU64(b + info);
    const uint32_t boneCount = mcore_ReadU32(b + info + 8);
    if (boneCount == 0 || boneCount > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info + 8);
    const uint32_t springCount = mcore_ReadU32(b + info + 12);
    if (springCount > MANI_MAX_BONES || (uint64_t)springCount * MANI_SPRING_SPRING_SIZE != sec[1].size)
        return mani_FileResult(mani_errorFormat, info + 12);
    const uint32_t jointCount = mcore_ReadU32(b + info + 16);
    if ((uint64_t)jointCount * MANI_SPRING_JOINT_SIZE != sec[2].size) return mani_FileResult(mani_errorFormat, info + 16);
    const uint32_t colliderCount = mcore_ReadU32(b + info + 20);
    if ((uint64_t)colliderCount * MANI_SPRING_COLLIDER_SIZE != sec[3].size)
        return mani_FileResult(mani_errorFormat, info + 20);
    const uint32_t linkCount = mcore_ReadU32(b + info + 24);
    if ((uint64_t)linkCount * 4 != sec[4].size) return mani_FileResult(mani_errorFormat, info + 24);
    const uint32_t trackedCount = mcore_ReadU32(b + info + 28);
    if (trackedCount > boneCount || (uint64_t)trackedCount * 4 != sec[5].size)
        return mani_FileResult(mani_errorFormat, info + 28);
    const float referenceRate = mcore_ReadF32(b + info + 32), stepRate = mcore_ReadF32(b + info + 36);
    if (!(referenceRate > 0.0f && referenceRate <= MANI_MAX_SPRING_RATE)) return mani_FileResult(mani_errorFormat, info + 32);
    if (!(stepRate > 0.0f && stepRate <= MANI_MAX_SPRING_RATE)) return mani_FileResult(mani_errorFormat, info + 36);
    const uint32_t namesSize = mcore_ReadU32(b + info + 40);
    if (namesSize != sec[6].size) return mani_FileResult(mani_errorFormat, info + 40);
    if (mcore_ReadU32(b + info + 44) != 0) return mani_FileResult(mani_errorFormat, info + 44);
    const uint64_t springs = sec[1].offset, joints = sec[2].offset, colliders = sec[3].offset, links = sec[4].offset,
                   tracked = sec[5].offset, names = sec[6].offset;
    uint64_t wrong;

    /* Tracked bones: increasing, within the count. */
    for (uint32_t k = 0; k < trackedCount; ++k) {
        const uint32_t bone = mcore_ReadU32(b + tracked + 4ull * k);
        if (bone >= boneCount || (k > 0 && bone <= mcore_ReadU32(b + tracked + 4ull * k - 4)))
            return mani_FileResult(mani_errorFormat, tracked + 4ull * k);
    }
    /* Colliders: bones, kinds, finite values, radii, planes' unit normals. */
    for (uint32_t i = 0; i < colliderCount; ++i) {
        const uint64_t r = colliders + (uint64_t)MANI_SPRING_COLLIDER_SIZE * i;
        const uint32_t bone = mcore_ReadU32(b + r);
        if (bone >= boneCount) return mani_FileResult(mani_errorFormat, r);
        if (!mani_TrackedIs(b, tracked, trackedCount, mcore_ReadU32(b + r + 4), bone))
            return mani_FileResult(mani_errorFormat, r + 4);
        const uint32_t kind = mcore_ReadU32(b + r + 8);
        if (kind > maniSpringShapePlane) return mani_FileResult(mani_errorFormat, r + 8);
        if ((wrong = mani_FirstNotFinite(b, r + 12, 7)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        const float radius = mcore_ReadF32(b + r + 24);
        const int inside = kind == maniSpringShapeInsideSphere || kind == maniSpringShapeInsideCapsule;
        if (kind == maniSpringShapePlane ? radius != 0.0f : (inside ? !(radius > 0.0f) : !(radius >= 0.0f)))
            return mani_FileResult(mani_errorFormat, r + 24);
        if (kind == maniSpringShapePlane && !(fabs(mani_Length2At(b, r + 28, 3) - 1.0) <= MANI_UNIT_TOLERANCE))
            return mani_FileResult(mani_errorFormat, r + 28);
        if ((kind == maniSpringShapeSphere || kind == maniSpringShapeInsideSphere) &&
            (wrong = mani_FirstNonZero(b, r + 28, 12)) != UINT64_MAX)
            return mani_FileResult(mani_errorFormat, wrong);
        if ((wrong = mani_FirstNonZero(b, r + 40, 8)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
    }
    /* Links: colliders. */
    for (uint32_t l = 0; l < linkCount; ++l)
        if (mcore_ReadU32(b + links + 4ull * l) >= colliderCount) return mani_FileResult(mani_errorFormat, links + 4ull * l);
    /* Joints: bones, values in range; a last joint's zeros. */
    for (uint32_t j = 0; j < jointCount; ++j) {
        const uint64_t r = joints + (uint64_t)MANI_SPRING_JOINT_SIZE * j;
        const uint32_t bone = mcore_ReadU32(b + r);
        if (bone >= boneCount) return mani_FileResult(mani_errorFormat, r);
        if (!mani_TrackedIs(b, tracked, trackedCount, mcore_ReadU32(b + r + 4), bone))
            return mani_FileResult(mani_errorFormat, r + 4);
        if ((wrong = mani_FirstNotFinite(b, r + 8, 7)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        if ((wrong = mani_FirstNotFinite(b, r + 40, 6)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        if (!(mcore_ReadF32(b + r + 8) >= 0.0f)) return mani_FileResult(mani_errorFormat, r + 8);
        if (!(mcore_ReadF32(b + r + 12) >= 0.0f)) return mani_FileResult(mani_errorFormat, r + 12);
        const float drag = mcore_ReadF32(b + r + 16);
        if (!(drag >= 0.0f && drag <= 1.0f)) return mani_FileResult(mani_errorFormat, r + 16);
        if (!(mcore_ReadF32(b + r + 20) >= 0.0f)) return mani_FileResult(mani_errorFormat, r + 20);
        const double g2 = mani_Length2At(b, r + 24, 3);
        if (!(g2 == 0.0 || fabs(g2 - 1.0) <= MANI_UNIT_TOLERANCE)) return mani_FileResult(mani_errorFormat, r + 24);
        const uint32_t kind = mcore_ReadU32(b + r + 36);
        if (kind > maniSpringLimitSpherical) return mani_FileResult(mani_errorFormat, r + 36);
        if (!(fabs(mani_Length2At(b, r + 40, 4) - 1.0) <= MANI_UNIT_TOLERANCE)) return mani_FileResult(mani_errorFormat, r + 40);
        const float angle = mcore_ReadF32(b + r + 56), angle2 = mcore_ReadF32(b + r + 60);
        if (!(angle >= 0.0f && angle <= MANI_SPRING_PI)) return mani_FileResult(mani_errorFormat, r + 56);
        if (kind == maniSpringLimitSpherical ? !(angle2 >= 0.0f && angle2 <= MANI_SPRING_PI) : angle2 != 0.0f)
            return mani_FileResult(mani_errorFormat, r + 60);
    }
    /* Springs: joints and links in order, each joint above the next, a
     * last joint's zeros, centers, names. */
    uint32_t nextJoint = 0, nextLink = 0, nextName = 0;
    for (uint32_t k = 0; k < springCount; ++k) {
        const uint64_t r = springs + (uint64_t)MANI_SPRING_SPRING_SIZE * k;
        if (mcore_ReadU32(b + r) != nextJoint) return mani_FileResult(mani_errorFormat, r);
        const uint32_t count = mcore_ReadU32(b + r + 4);
        if (count < 2 || count > jointCount - nextJoint) return mani_FileResult(mani_errorFormat, r + 4);
        if (mcore_ReadU32(b + r + 8) != nextLink) return mani_FileResult(mani_errorFormat, r + 8);
        const uint32_t linkN = mcore_ReadU32(b + r + 12);
        if (linkN > linkCount - nextLink) return mani_FileResult(mani_errorFormat, r + 12);
        const uint32_t center = mcore_ReadU32(b + r + 16);
        if (center != MANI_NO_BONE && center >= boneCount) return mani_FileResult(mani_errorFormat, r + 16);
        const uint32_t centerTracked = mcore_ReadU32(b + r + 20);
        if (center == MANI_NO_BONE ? centerTracked != MANI_NO_BONE
                                   : !mani_TrackedIs(b, tracked, trackedCount, centerTracked, center))
            return mani_FileResult(mani_errorFormat, r + 20);
        const uint32_t parentTracked = mcore_ReadU32(b + r + 24);
        const uint32_t firstBone = mcore_ReadU32(b + joints + (uint64_t)MANI_SPRING_JOINT_SIZE * nextJoint);
        if (parentTracked != MANI_NO_BONE &&
            (parentTracked >= trackedCount || mcore_ReadU32(b + tracked + 4ull * parentTracked) >= firstBone))
            return mani_FileResult(mani_errorFormat, r + 24);
        for (uint32_t j = 1; j < count; ++j) {
            const uint64_t jr = joints + (uint64_t)MANI_SPRING_JOINT_SIZE * (nextJoint + j);
            if (mcore_ReadU32(b + jr) <= mcore_ReadU32(b + jr - MANI_SPRING_JOINT_SIZE))
                return mani_FileResult(mani_errorFormat, jr);
        }
        const uint64_t last = joints + (uint64_t)MANI_SPRING_JOINT_SIZE * (nextJoint + count - 1);
        if ((wrong = mani_FirstNonZero(b, last + 8, 44)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        if (mcore_ReadF32(b + last + 52) != 1.0f) return mani_FileResult(mani_errorFormat, last + 52);
        if ((wrong = mani_FirstNonZero(b, last + 56, 8)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        const uint32_t nameOffset = mcore_ReadU32(b + r + 28), nameLength = mcore_ReadU32(b + r + 32);
        if (nameOffset != nextName) return mani_FileResult(mani_errorFormat, r + 28);
        if (nameLength > MANI_MAX_NAME_BYTES || nameLength > namesSize - nextName)
            return mani_FileResult(mani_errorFormat, r + 32);
        const size_t good = mcore_Utf8Check(b + names + nameOffset, nameLength);
        if (good != nameLength) return mani_FileResult(mani_errorFormat, names + nameOffset + good);
        if ((wrong = mani_FirstNonZero(b, r + 36, 12)) != UINT64_MAX) return mani_FileResult(mani_errorFormat, wrong);
        nextJoint += count;
        nextLink += linkN;
        nextName += nameLength;
    }
    if (nextJoint != jointCount) return mani_FileResult(mani_errorFormat, info + 16);
    if (nextLink != linkCount) return mani_FileResult(mani_errorFormat, info + 24);
    if (nextName != namesSize) return mani_FileResult(mani_errorFormat, info + 40);

    maniSpringSet v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skeletonIdentity = skeletonIdentity;
    v.opened = MANI_SPRING_OPENED;
    v.boneCount = boneCount;
    v.springCount = springCount;
    v.jointCount = jointCount;
    v.colliderCount = colliderCount;
    v.linkCount = linkCount;
    v.trackedCount = trackedCount;
    v.referenceRate = referenceRate;
    v.stepRate = stepRate;
    v.namesSize = namesSize;
    v.springs = springs;
    v.joints = joints;
    v.colliders = colliders;
    v.links = links;
    v.tracked = tracked;
    v.names = names;
    *out = v;
    return mani_FileResult(mani_success, 0);
}
