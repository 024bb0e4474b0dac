/* retarget.h: opening a retarget map file (every byte checked once), the
 * view's accessors, and retargeting poses and root motion deltas. */
#include "maul/anim/retarget.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/retarget/retarget_format.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/core/detmath.h"

/* -- The view ------------------------------------------------------------------ */

static int mani_RetargetViewOk(const maniRetargetMap* m) {
    if (m == NULL || m->opened != MANI_RETARGET_OPENED || m->bytes == NULL) return 0;
    const uint64_t ns = m->sourceBoneCount, nt = m->targetBoneCount, size = m->size;
    if (ns == 0 || ns > MANI_MAX_BONES || nt == 0 || nt > MANI_MAX_BONES || m->hasPelvis > 1) return 0;
    return mcore_SpanFits(m->pelvis, m->hasPelvis, MANI_RETARGET_PELVIS_SIZE, size) &&
           mcore_SpanFits(m->sourceReference, ns, MANI_RETARGET_REF_SIZE, size) &&
           mcore_SpanFits(m->targetReference, nt, MANI_RETARGET_REF_SIZE, size) &&
           mcore_SpanFits(m->plans, nt, MANI_RETARGET_PLAN_SIZE, size);
}

uint64_t maniRetargetMap_GetIdentity(const maniRetargetMap* map) {
    return mani_RetargetViewOk(map) ? map->identity : 0;
}

uint64_t maniRetargetMap_GetSourceIdentity(const maniRetargetMap* map) {
    return mani_RetargetViewOk(map) ? map->sourceIdentity : 0;
}

uint64_t maniRetargetMap_GetTargetIdentity(const maniRetargetMap* map) {
    return mani_RetargetViewOk(map) ? map->targetIdentity : 0;
}

size_t maniRetargetMap_GetScratchSize(const maniRetargetMap* map) {
    if (!mani_RetargetViewOk(map)) return 0;
    return ((size_t)map->sourceBoneCount + map->targetBoneCount) * sizeof(maniQuat);
}

/* -- Reading the file ------------------------------------------------------------- */

static maniQuat mani_ReadQuat(const uint8_t* p) {
    maniQuat q = {mcore_ReadF32(p), mcore_ReadF32(p + 4), mcore_ReadF32(p + 8), mcore_ReadF32(p + 12)};
    return q;
}

static maniVec3 mani_ReadVec3(const uint8_t* p) {
    maniVec3 v = {mcore_ReadF32(p), mcore_ReadF32(p + 4), mcore_ReadF32(p + 8)};
    return v;
}

static maniTransform mani_ReadReference(const uint8_t* p) {
    maniTransform t;
    t.translation = mani_ReadVec3(p);
    t.rotation = mani_ReadQuat(p + 12);
    t.scale = mani_ReadVec3(p + 28);
    return t;
}

/* The pelvis's numbers (pelvis section present). */
typedef struct {
    uint32_t sourceBone, targetBone;
    maniVec3 up;
    float horizontal, vertical, ratio;
    maniVec3 absolute, toSource;
    float weight;
    maniVec3 sourceRef, targetRef;
} mani_RetargetPelvisInfo;

static mani_RetargetPelvisInfo mani_ReadPelvis(const uint8_t* p) {
    mani_RetargetPelvisInfo v;
    v.sourceBone = mcore_ReadU32(p);
    v.targetBone = mcore_ReadU32(p + 4);
    v.up = mani_ReadVec3(p + 8);
    v.horizontal = mcore_ReadF32(p + 20);
    v.vertical = mcore_ReadF32(p + 24);
    v.ratio = mcore_ReadF32(p + 28);
    v.absolute = mani_ReadVec3(p + 32);
    v.toSource = mani_ReadVec3(p + 44);
    v.weight = mcore_ReadF32(p + 56);
    v.sourceRef = mani_ReadVec3(p + 60);
    v.targetRef = mani_ReadVec3(p + 72);
    return v;
}

/* -- Rotations ---------------------------------------------------------------------- */

static int mani_IsIdentityQuat(maniQuat q) {
    uint32_t bits[4];
    memcpy(bits, &q, sizeof bits);
    return bits[0] == 0 && bits[1] == 0 && bits[2] == 0 && bits[3] == 0x3F800000u;
}

static maniQuat mani_MulSkip(maniQuat a, maniQuat b) {
    if (mani_IsIdentityQuat(a)) return b;
    if (mani_IsIdentityQuat(b)) return a;
    return maniSimdSingle_QuatMul(a, b);
}

/* Spherical linear interpolation from a (t = 0) to b (t = 1), along the
 * shorter arc; a and b themselves at t = 0 and 1 bit for bit. */
static maniQuat mani_RetargetSlerp(maniQuat a, maniQuat b, float t) {
    if (t == 0.0f) return a;
    if (t == 1.0f) return b;
    float d = ((a.x * b.x + a.y * b.y) + a.z * b.z) + a.w * b.w;
    if (d < 0.0f) {
        b.x = -b.x, b.y = -b.y, b.z = -b.z, b.w = -b.w;
        d = -d;
    }
    float wa = 1.0f - t, wb = t;
    if (d < 0.9999f) {
        const float s = sqrtf(1.0f - d * d);
        const float theta = mcore_atan2f(s, d);
        wa = mcore_sinf(wa * theta) / s;
        wb = mcore_sinf(wb * theta) / s;
    }
    maniQuat q = {wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w};
    return maniSimdSingle_QuatNormalize(q);
}

static const maniQuat mani_NoTurn = {0.0f, 0.0f, 0.0f, 1.0f};

/* -- Root motion -------------------------------------------------------------------- */

static maniVec3 mani_ScaleDelta(maniVec3 d, maniVec3 up, float horizontal, float vertical) {
    const float along = (d.x * up.x + d.y * up.y) + d.z * up.z;
    const maniVec3 v = {along * up.x, along * up.y, along * up.z};
    const maniVec3 h = {d.x - v.x, d.y - v.y, d.z - v.z};
    const maniVec3 out = {horizontal * h.x + vertical * v.x, horizontal * h.y + vertical * v.y,
                          horizontal * h.z + vertical * v.z};
    return out;
}

maniVec3 maniRetargetMap_RetargetRootMotion(const maniRetargetMap* map, maniVec3 delta) {
    if (!mani_RetargetViewOk(map) || !map->hasPelvis) return delta;
    const mani_RetargetPelvisInfo p = mani_ReadPelvis(map->bytes + map->pelvis);
    return mani_ScaleDelta(delta, p.up, p.horizontal, p.vertical);
}

/* -- Retargeting poses ------------------------------------------------------------------ */

/* A bone's model affine in a pose: its locals composed up its root path. */
static maniAffine mani_ModelAffineOf(const maniSkeleton* skeleton, const maniPose* pose, uint32_t bone) {
    maniTransform local = mani_PoseGetLocalRaw(pose, bone);
    maniAffine a = maniSimdSingle_TransformToAffine(&local);
    for (uint32_t p = mani_SkeletonParentRaw(skeleton, bone); p != MANI_NO_BONE; p = mani_SkeletonParentRaw(skeleton, p)) {
        local = mani_PoseGetLocalRaw(pose, p);
        const maniAffine pa = maniSimdSingle_TransformToAffine(&local);
        a = maniSimdSingle_AffineMul(&pa, &a);
    }
    return a;
}

static float mani_Lerp(float a, float b, float t) { return t == 0.0f ? a : (t == 1.0f ? b : a + (b - a) * t); }

/* The pelvis's local translation: its model position made as the map says,
 * taken into its parent's model frame as the target pose now holds it. */
static maniVec3 mani_PelvisTranslation(const mani_RetargetPelvisInfo* p, const maniSkeleton* source,
                                       const maniPose* sourcePose, const maniSkeleton* target,
                                       const maniPose* targetPose, uint32_t bone) {
    const maniAffine s = mani_ModelAffineOf(source, sourcePose, p->sourceBone);
    const maniVec3 sp = s.columns[3];
    const maniVec3 d = {sp.x - p->sourceRef.x, sp.y - p->sourceRef.y, sp.z - p->sourceRef.z};
    const maniVec3 scaled = mani_ScaleDelta(d, p->up, p->horizontal, p->vertical);
    const float ref[3] = {p->targetRef.x, p->targetRef.y, p->targetRef.z};
    const float sc[3] = {scaled.x, scaled.y, scaled.z}, un[3] = {d.x, d.y, d.z}, so[3] = {sp.x, sp.y, sp.z};
    const float ab[3] = {p->absolute.x, p->absolute.y, p->absolute.z};
    const float ts[3] = {p->toSource.x, p->toSource.y, p->toSource.z};
    float out[3];
    for (int k = 0; k < 3; ++k) {
        const float moved = mani_Lerp(ref[k] + sc[k], ref[k] + un[k], ab[k]);
        const float toward = mani_Lerp(moved, so[k], ts[k]);
        out[k] = mani_Lerp(ref[k], toward, p->weight);
    }
    maniVec3 m = {out[0], out[1], out[2]};
    const uint32_t parent = mani_SkeletonParentRaw(target, bone);
    if (parent == MANI_NO_BONE) return m;
    const maniAffine pa = mani_ModelAffineOf(target, targetPose, parent);
    const maniAffine inv = maniSimdSingle_AffineInverse(&pa);
    return maniSimdSingle_AffineTransformPoint(&inv, m);
}

static int mani_Overlap(const void* a, size_t sa, const void* b, size_t sb) {
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + sb && y < x + sa;
}

maniResult maniRetargetMap_RetargetPose(const maniRetargetMap* map, const maniSkeleton* source,
                                        const maniPose* sourcePose, const maniSkeleton* target,
                                        maniPose* targetPoseOut, void* scratch, size_t scratchSize) {
    if (!mani_RetargetViewOk(map) || !mani_SkeletonViewOk(source) || !mani_SkeletonViewOk(target) ||
        !mani_PoseOk(sourcePose) || !mani_PoseOk(targetPoseOut) || scratch == NULL)
        return mani_errorInvalid;
    const uint32_t ns = map->sourceBoneCount, nt = map->targetBoneCount;
    if (source->identity != map->sourceIdentity || source->boneCount != ns || target->identity != map->targetIdentity ||
        target->boneCount != nt)
        return mani_errorInvalid;
    if (sourcePose->skeletonIdentity != source->identity || sourcePose->boneCount != ns ||
        targetPoseOut->skeletonIdentity != target->identity || targetPoseOut->boneCount != nt)
        return mani_errorInvalid;
    if ((sourcePose->flags & MANI_POSE_DIFFERENCE) != 0 || (targetPoseOut->flags & MANI_POSE_DIFFERENCE) != 0)
        return mani_errorInvalid;
    if (mani_Overlap(sourcePose, maniSkeleton_GetPoseSize(source), targetPoseOut, maniSkeleton_GetPoseSize(target)))
        return mani_errorInvalid;
    if (((uintptr_t)scratch & 15u) != 0 || scratchSize < maniRetargetMap_GetScratchSize(map)) return mani_errorInvalid;

    maniQuat* sm = (maniQuat*)scratch; /* the source's model rotations */
    maniQuat* tm = sm + ns;            /* the target's, as made */
    for (uint32_t i = 0; i < ns; ++i) {
        const maniQuat r = mani_PoseGetLocalRaw(sourcePose, i).rotation;
        const uint32_t p = mani_SkeletonParentRaw(source, i);
        sm[i] = p < i ? maniSimdSingle_QuatMul(sm[p], r) : r;
    }
    mani_RetargetPelvisInfo pelvis;
    memset(&pelvis, 0, sizeof pelvis);
    float ratio = 1.0f;
    if (map->hasPelvis) {
        pelvis = mani_ReadPelvis(map->bytes + map->pelvis);
        ratio = pelvis.ratio;
    }
    const uint8_t* b = map->bytes;
    for (uint32_t i = 0; i < nt; ++i) {
        const uint8_t* plan = b + map->plans + (uint64_t)MANI_RETARGET_PLAN_SIZE * i;
        const uint32_t kind = mcore_ReadU32(plan), settings = mcore_ReadU32(plan + 12);
        uint32_t sa = mcore_ReadU32(plan + 4), sb = mcore_ReadU32(plan + 8);
        if (sa >= ns) sa = 0; /* bytes changed after the open */
        if (sb >= ns) sb = 0;
        const float place = mcore_ReadF32(plan + 16), weight = mcore_ReadF32(plan + 20);
        const uint8_t* turns = plan + MANI_RETARGET_PLAN_TURN_AT;
        const uint32_t parent = mani_SkeletonParentRaw(target, i);
        const maniQuat parentModel = parent < i ? tm[parent] : mani_NoTurn;
        maniTransform out = mani_ReadReference(b + map->targetReference + (uint64_t)MANI_RETARGET_REF_SIZE * i);
        if (kind != MANI_RETARGET_KIND_REFERENCE) {
            const maniTransform la = mani_PoseGetLocalRaw(sourcePose, sa);
            if ((settings & MANI_RETARGET_MATCHED_BIT) != 0) {
                /* conj(C_parent) L_a C: the references' turns on the source's local. */
                out.rotation = mani_MulSkip(mani_MulSkip(mani_ReadQuat(turns + 48), la.rotation), mani_ReadQuat(turns + 64));
            } else {
                maniQuat model;
                if (kind != MANI_RETARGET_KIND_BLEND && weight == 1.0f) {
                    model = mani_MulSkip(sm[sa], mani_ReadQuat(turns + 64));
                } else {
                    maniQuat turn = mani_MulSkip(sm[sa], mani_ReadQuat(turns));
                    if (kind == MANI_RETARGET_KIND_BLEND)
                        turn = mani_RetargetSlerp(turn, mani_MulSkip(sm[sb], mani_ReadQuat(turns + 16)), place);
                    turn = mani_RetargetSlerp(mani_NoTurn, turn, weight);
                    model = mani_MulSkip(turn, mani_ReadQuat(turns + 32));
                }
                out.rotation = mani_MulSkip(maniSimdSingle_QuatConjugate(parentModel), model);
            }
            const uint32_t mode = settings & MANI_RETARGET_TRANSLATION_MASK;
            const maniQuat tturn = mani_ReadQuat(turns + 48);
            const maniTransform ra = mani_ReadReference(b + map->sourceReference + (uint64_t)MANI_RETARGET_REF_SIZE * sa);
            if (mode == maniRetargetTranslationScaled) {
                maniVec3 d = {(la.translation.x - ra.translation.x) * ratio, (la.translation.y - ra.translation.y) * ratio,
                              (la.translation.z - ra.translation.z) * ratio};
                if (!mani_IsIdentityQuat(tturn)) d = maniSimdSingle_QuatRotateVec3(tturn, d);
                out.translation.x += d.x;
                out.translation.y += d.y;
                out.translation.z += d.z;
            } else if (mode == maniRetargetTranslationAbsolute) {
                out.translation =
                    mani_IsIdentityQuat(tturn) ? la.translation : maniSimdSingle_QuatRotateVec3(tturn, la.translation);
            }
            if ((settings & MANI_RETARGET_SCALE_BIT) != 0) {
                const maniVec3 q = mani_ReadVec3(plan + MANI_RETARGET_PLAN_SCALE_AT);
                if (q.x != 0.0f) out.scale.x = la.scale.x * q.x;
                if (q.y != 0.0f) out.scale.y = la.scale.y * q.y;
                if (q.z != 0.0f) out.scale.z = la.scale.z * q.z;
            }
            if (kind == MANI_RETARGET_KIND_PELVIS && map->hasPelvis)
                out.translation = mani_PelvisTranslation(&pelvis, source, sourcePose, target, targetPoseOut, i);
        }
        tm[i] = mani_MulSkip(parentModel, out.rotation);
        mani_PoseSetLocalRaw(targetPoseOut, i, out);
    }
    targetPoseOut->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

/* -- The open ------------------------------------------------------------------- */

/* The offset of the first of count floats at p that is not finite, or 0. */
static uint64_t mani_FirstNotFinite(const uint8_t* b, uint64_t at, uint32_t count) {
    for (uint32_t k = 0; k < count; ++k)
        if (!isfinite(mcore_ReadF32(b + at + 4ull * k))) return at + 4ull * k;
    return 0;
}

/* 0 when the quaternion at p is finite and of length 1, else the offset
 * found wrong. */
static uint64_t mani_CheckUnitQuat(const uint8_t* b, uint64_t at) {
    const uint64_t bad = mani_FirstNotFinite(b, at, 4);
    if (bad) return bad;
    double v[4];
    for (uint32_t k = 0; k < 4; ++k) v[k] = mcore_ReadF32(b + at + 4ull * k);
    const double len2 = ((v[0] * v[0] + v[1] * v[1]) + v[2] * v[2]) + v[3] * v[3];
    return fabs(len2 - 1.0) <= MANI_UNIT_TOLERANCE ? 0 : at;
}

static int mani_InUnit(float f) { return f >= 0.0f && f <= 1.0f; }

maniFileResult maniOpenRetargetMap(const void* bytes, size_t size, maniRetargetMap* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindRetargetMap, mcore_formatRetargetMapLatest,
                                                     maniRetargetSections, MANI_RETARGET_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* The header. */
    if (sec[0].size != MANI_RETARGET_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint32_t ns = mcore_ReadU32(b + info + 16), nt = mcore_ReadU32(b + info + 20);
    if (ns == 0 || ns > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info + 16);
    if (nt == 0 || nt > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info + 20);
    const uint32_t hasPelvis = mcore_ReadU32(b + info + 24);
    if (hasPelvis > 1) return mani_FileResult(mani_errorFormat, info + 24);
    for (uint64_t i = 28; i < 32; ++i)
        if (b[info + i] != 0) return mani_FileResult(mani_errorFormat, info + i);
    const uint64_t sizes[MANI_RETARGET_SECTION_COUNT] = {MANI_RETARGET_INFO_SIZE, hasPelvis ? MANI_RETARGET_PELVIS_SIZE : 0u,
                                                         (uint64_t)MANI_RETARGET_REF_SIZE * ns,
                                                         (uint64_t)MANI_RETARGET_REF_SIZE * nt,
                                                         (uint64_t)MANI_RETARGET_PLAN_SIZE * nt};
    for (uint32_t i = 1; i < MANI_RETARGET_SECTION_COUNT; ++i)
        if (sec[i].size != sizes[i]) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(i));

    /* The pelvis. */
    const uint64_t pel = sec[1].offset;
    if (hasPelvis) {
        if (mcore_ReadU32(b + pel) >= ns) return mani_FileResult(mani_errorFormat, pel);
        if (mcore_ReadU32(b + pel + 4) >= nt) return mani_FileResult(mani_errorFormat, pel + 4);
        const uint64_t bad = mani_FirstNotFinite(b, pel + 8, MANI_RETARGET_PELVIS_FLOATS);
        if (bad) return mani_FileResult(mani_errorFormat, bad);
        double u[3];
        for (uint32_t k = 0; k < 3; ++k) u[k] = mcore_ReadF32(b + pel + 8 + 4 * k);
        if (!(fabs(((u[0] * u[0] + u[1] * u[1]) + u[2] * u[2]) - 1.0) <= 2e-3)) return mani_FileResult(mani_errorFormat, pel + 8);
        for (uint32_t k = 0; k < 3; ++k)
            if (!(mcore_ReadF32(b + pel + 20 + 4 * k) >= 0.0f)) return mani_FileResult(mani_errorFormat, pel + 20 + 4 * k);
        for (uint32_t k = 0; k < 7; ++k)
            if (!mani_InUnit(mcore_ReadF32(b + pel + 32 + 4 * k))) return mani_FileResult(mani_errorFormat, pel + 32 + 4 * k);
        for (uint64_t k = 84; k < MANI_RETARGET_PELVIS_SIZE; ++k)
            if (b[pel + k] != 0) return mani_FileResult(mani_errorFormat, pel + k);
    }
    /* Both reference poses. */
    for (uint32_t side = 0; side < 2; ++side) {
        const uint64_t at = sec[2 + side].offset;
        const uint32_t n = side ? nt : ns;
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t r = at + (uint64_t)MANI_RETARGET_REF_SIZE * i;
            uint64_t bad = mani_FirstNotFinite(b, r, 10);
            if (!bad) bad = mani_CheckUnitQuat(b, r + 12);
            if (bad) return mani_FileResult(mani_errorFormat, bad);
        }
    }
    /* Plans. */
    const uint64_t plans = sec[4].offset;
    for (uint32_t i = 0; i < nt; ++i) {
        const uint64_t p = plans + (uint64_t)MANI_RETARGET_PLAN_SIZE * i;
        const uint32_t kind = mcore_ReadU32(b + p);
        if (kind > MANI_RETARGET_KIND_PELVIS || (kind == MANI_RETARGET_KIND_PELVIS && !hasPelvis))
            return mani_FileResult(mani_errorFormat, p);
        if (mcore_ReadU32(b + p + 4) >= ns) return mani_FileResult(mani_errorFormat, p + 4);
        if (mcore_ReadU32(b + p + 8) >= ns) return mani_FileResult(mani_errorFormat, p + 8);
        const uint32_t settings = mcore_ReadU32(b + p + 12);
        if ((settings & ~MANI_RETARGET_SETTINGS_MASK) != 0 ||
            (settings & MANI_RETARGET_TRANSLATION_MASK) > maniRetargetTranslationAbsolute)
            return mani_FileResult(mani_errorFormat, p + 12);
        for (uint32_t k = 0; k < 2; ++k)
            if (!mani_InUnit(mcore_ReadF32(b + p + 16 + 4 * k))) return mani_FileResult(mani_errorFormat, p + 16 + 4 * k);
        for (uint64_t k = 24; k < 32; ++k)
            if (b[p + k] != 0) return mani_FileResult(mani_errorFormat, p + k);
        for (uint32_t t = 0; t < MANI_RETARGET_PLAN_TURNS; ++t) {
            const uint64_t bad = mani_CheckUnitQuat(b, p + MANI_RETARGET_PLAN_TURN_AT + 16ull * t);
            if (bad) return mani_FileResult(mani_errorFormat, bad);
        }
        const uint64_t sc = p + MANI_RETARGET_PLAN_SCALE_AT;
        const uint64_t bad = mani_FirstNotFinite(b, sc, 3);
        if (bad) return mani_FileResult(mani_errorFormat, bad);
        for (uint64_t k = 12; k < 16; ++k)
            if (b[sc + k] != 0) return mani_FileResult(mani_errorFormat, sc + k);
    }
    if (hasPelvis) {
        const uint32_t tb = mcore_ReadU32(b + pel + 4);
        if (mcore_ReadU32(b + plans + (uint64_t)MANI_RETARGET_PLAN_SIZE * tb) != MANI_RETARGET_KIND_PELVIS)
            return mani_FileResult(mani_errorFormat, pel + 4);
    }

    maniRetargetMap v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.sourceIdentity = mcore_ReadU64(b + info);
    v.targetIdentity = mcore_ReadU64(b + info + 8);
    v.opened = MANI_RETARGET_OPENED;
    v.sourceBoneCount = ns;
    v.targetBoneCount = nt;
    v.hasPelvis = hasPelvis;
    v.pelvis = pel;
    v.sourceReference = sec[2].offset;
    v.targetReference = sec[3].offset;
    v.plans = plans;
    *out = v;
    return mani_FileResult(mani_success, 0);
}
