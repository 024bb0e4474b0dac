/* The single-value helpers maniSimdSingle_* (simd.h): the per-lane math of
 * the kernels (simd_lanes.inc) instantiated once more on the one-lane float
 * layer (simd_lane1.inc, the scalar reference's), over the public AoS types
 * of maul/anim/skeleton.h. A single value goes through the very operations,
 * in the very order, of its lane in any backend's batch kernel, so a bone
 * computed alone equals that bone in a batch (NaN sign and payload aside,
 * as for every kernel). Built without backend instruction flags. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/anim/src/simd/simd.h"

#if defined(__AVX__) || defined(__FMA__)
#error "simd_single.c must be compiled without the AVX2 backend's flags"
#endif

#include "lib/anim/src/simd/simd_lane1.inc"
#include "lib/anim/src/simd/simd_lanes.inc"

static inline mani_V3 V3(maniVec3 v) {
    const mani_V3 r = {v.x, v.y, v.z};
    return r;
}
static inline maniVec3 Vec3(mani_V3 v) {
    const maniVec3 r = {v.x, v.y, v.z};
    return r;
}
static inline mani_Q Q(maniQuat q) {
    const mani_Q r = {q.x, q.y, q.z, q.w};
    return r;
}
static inline maniQuat Quat(mani_Q q) {
    const maniQuat r = {q.x, q.y, q.z, q.w};
    return r;
}
static inline mani_A A(const maniAffine* a) {
    const mani_A r = {V3(a->columns[0]), V3(a->columns[1]), V3(a->columns[2]), V3(a->columns[3])};
    return r;
}
static inline maniAffine Affine(mani_A a) {
    const maniAffine r = {{Vec3(a.c0), Vec3(a.c1), Vec3(a.c2), Vec3(a.c3)}};
    return r;
}
static inline mani_T T(const maniTransform* x) {
    const mani_T r = {V3(x->translation), Q(x->rotation), V3(x->scale)};
    return r;
}

maniQuat maniSimdSingle_QuatMul(maniQuat a, maniQuat b) { return Quat(mani_QMul(Q(a), Q(b))); }
maniQuat maniSimdSingle_QuatNormalize(maniQuat q) { return Quat(mani_QNormalize(Q(q))); }
maniQuat maniSimdSingle_QuatNlerp(maniQuat a, maniQuat b, float t) { return Quat(mani_QNlerp(Q(a), Q(b), t)); }
maniQuat maniSimdSingle_QuatConjugate(maniQuat q) { return Quat(mani_QConjugate(Q(q))); }
maniQuat maniSimdSingle_QuatInverse(maniQuat q) { return Quat(mani_QInverse(Q(q))); }
maniVec3 maniSimdSingle_QuatRotateVec3(maniQuat q, maniVec3 v) { return Vec3(mani_QRotate(Q(q), V3(v))); }

maniQuat maniSimdSingle_QuatFromMat3(const maniSimdMat3* m) {
    const mani_M3 mm = {V3(m->columns[0]), V3(m->columns[1]), V3(m->columns[2])};
    return Quat(mani_QFromMat(mm));
}

maniSimdMat3 maniSimdSingle_QuatToMat3(maniQuat q) {
    mani_V3 c0, c1, c2;
    mani_QToMat(Q(q), &c0, &c1, &c2);
    const maniSimdMat3 r = {{Vec3(c0), Vec3(c1), Vec3(c2)}};
    return r;
}

maniTransform maniSimdSingle_TransformMul(const maniTransform* parent, const maniTransform* child) {
    const mani_T r = mani_TMul(T(parent), T(child));
    const maniTransform x = {Vec3(r.t), Quat(r.r), Vec3(r.s)};
    return x;
}

maniAffine maniSimdSingle_TransformToAffine(const maniTransform* x) { return Affine(mani_TToAffine(T(x))); }

maniAffine maniSimdSingle_AffineMul(const maniAffine* a, const maniAffine* b) { return Affine(mani_AMul(A(a), A(b))); }

maniVec3 maniSimdSingle_AffineTransformPoint(const maniAffine* a, maniVec3 p) {
    return Vec3(mani_APoint(A(a), V3(p)));
}

maniAffine maniSimdSingle_AffineInverse(const maniAffine* a) { return Affine(mani_AInverse(A(a))); }
