/* The single-value helpers inline (maniSimdInline_*): the same lane math as
 * maniSimdSingle_* (simd_single.c), over the same one-lane layer
 * (simd_lane1.inc, simd_lanes.inc), for hot loops that call them per joint
 * (the spring steps): the very operations in the very order, so each result
 * equals the out-of-line helper's bit for bit. Include only in code built
 * without backend instruction flags. */
#ifndef MAUL_ANIM_SIMD_SINGLE_INLINE_H
#define MAUL_ANIM_SIMD_SINGLE_INLINE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "maul/anim/skeleton.h"

#if defined(__AVX__) || defined(__FMA__)
#error "simd_single_inline.h must be compiled without the AVX2 backend's flags"
#endif

#include "lib/anim/src/simd/simd_lane1.inc"
#include "lib/anim/src/simd/simd_lanes.inc"

static inline mani_Q maniSimdInline_Q(maniQuat q) {
    const mani_Q r = {q.x, q.y, q.z, q.w};
    return r;
}
static inline maniQuat maniSimdInline_Quat(mani_Q q) {
    const maniQuat r = {q.x, q.y, q.z, q.w};
    return r;
}
static inline mani_V3 maniSimdInline_V3(maniVec3 v) {
    const mani_V3 r = {v.x, v.y, v.z};
    return r;
}
static inline maniVec3 maniSimdInline_Vec3(mani_V3 v) {
    const maniVec3 r = {v.x, v.y, v.z};
    return r;
}

static inline maniQuat maniSimdInline_QuatMul(maniQuat a, maniQuat b) {
    return maniSimdInline_Quat(mani_QMul(maniSimdInline_Q(a), maniSimdInline_Q(b)));
}
static inline maniQuat maniSimdInline_QuatNormalize(maniQuat q) {
    return maniSimdInline_Quat(mani_QNormalize(maniSimdInline_Q(q)));
}
static inline maniQuat maniSimdInline_QuatNlerp(maniQuat a, maniQuat b, float t) {
    return maniSimdInline_Quat(mani_QNlerp(maniSimdInline_Q(a), maniSimdInline_Q(b), t));
}
static inline maniQuat maniSimdInline_QuatConjugate(maniQuat q) {
    return maniSimdInline_Quat(mani_QConjugate(maniSimdInline_Q(q)));
}
static inline maniVec3 maniSimdInline_QuatRotateVec3(maniQuat q, maniVec3 v) {
    return maniSimdInline_Vec3(mani_QRotate(maniSimdInline_Q(q), maniSimdInline_V3(v)));
}
static inline maniTransform maniSimdInline_TransformMul(const maniTransform* parent, const maniTransform* child) {
    const mani_T p = {maniSimdInline_V3(parent->translation), maniSimdInline_Q(parent->rotation),
                      maniSimdInline_V3(parent->scale)};
    const mani_T c = {maniSimdInline_V3(child->translation), maniSimdInline_Q(child->rotation),
                      maniSimdInline_V3(child->scale)};
    const mani_T r = mani_TMul(p, c);
    const maniTransform x = {maniSimdInline_Vec3(r.t), maniSimdInline_Quat(r.r), maniSimdInline_Vec3(r.s)};
    return x;
}

#endif
