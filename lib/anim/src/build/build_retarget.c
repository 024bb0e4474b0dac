/* maniBuildRetargetMap: maps target bones to source bones by pairs, chains,
 * the pelvis and names, turns both reference poses' model rotations into
 * each target bone's plan, and writes a retarget map file (docs/formats.md,
 * "Retarget map"). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/build/turn64_internal.h"
#include "lib/anim/src/retarget/retarget_format.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_format.h"
#include "lib/core/quat64.h"
#include "maul/anim/retargetbuild.h"

/* A target bone's plan while building. */
typedef struct {
    uint32_t kind;
    uint32_t a, b;
    uint32_t settings;
    float place, weight;
} mani_RetargetPlanDraft;

static maniTransform mani_RetargetRef(const maniTransform* list, const maniSkeleton* s, uint32_t i) {
    return list ? list[i] : maniSkeleton_GetRest(s, i);
}

/* A reference local: finite, its rotation of length 1 within a thousandth. */
static int mani_RetargetRefOk(const maniTransform* t) {
    const float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                         t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
    for (int k = 0; k < 10; ++k)
        if (!isfinite(v[k])) return 0;
    const double len2 = (((double)v[3] * v[3] + (double)v[4] * v[4]) + (double)v[5] * v[5]) + (double)v[6] * v[6];
    return fabs(sqrt(len2) - 1.0) <= 1e-3;
}

/* The reference local as the file keeps it: the rotation normalized (rounded
 * once) where it is not of length 1 within the open's tolerance. */
static maniTransform mani_RetargetRefStored(maniTransform t) {
    double q[4] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
    const double len2 = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    if (fabs(len2 - 1.0) <= MANI_UNIT_TOLERANCE) return t;
    const double len = sqrt(len2);
    t.rotation.x = (float)(q[0] / len);
    t.rotation.y = (float)(q[1] / len);
    t.rotation.z = (float)(q[2] / len);
    t.rotation.w = (float)(q[3] / len);
    return t;
}

/* Model rotations (binary64, 4 per bone) of a reference pose. */
static void mani_RetargetModels(const maniSkeleton* s, const maniTransform* stored, double* model) {
    const uint32_t n = maniSkeleton_GetBoneCount(s);
    for (uint32_t i = 0; i < n; ++i) {
        double q[4] = {stored[i].rotation.x, stored[i].rotation.y, stored[i].rotation.z, stored[i].rotation.w};
        const uint32_t p = maniSkeleton_GetParent(s, i);
        if (p == MANI_NO_BONE) {
            memcpy(&model[4 * i], q, 32);
        } else {
            mcore_QuatMul64(&model[4 * p], q, &model[4 * i]);
        }
    }
}

/* A bone's reference model position as the runtime computes it (binary32
 * affines composed up the root path). */
static maniVec3 mani_RetargetRefPosition(const maniSkeleton* s, const maniTransform* stored, uint32_t bone) {
    maniAffine a = maniSimdSingle_TransformToAffine(&stored[bone]);
    for (uint32_t p = maniSkeleton_GetParent(s, bone); p != MANI_NO_BONE; p = maniSkeleton_GetParent(s, p)) {
        const maniAffine pa = maniSimdSingle_TransformToAffine(&stored[p]);
        a = maniSimdSingle_AffineMul(&pa, &a);
    }
    return a.columns[3];
}

static int mani_Unit(float f) { return f >= 0.0f && f <= 1.0f; }

/* The bones of a chain from end up to start (end first, at most
 * MANI_MAX_IK_CHAIN_BONES): the count, 0 when end is not below start, or
 * UINT32_MAX past the limit. */
static uint32_t mani_RetargetChainBones(const maniSkeleton* s, uint32_t start, uint32_t end, uint32_t* bones) {
    if (start == end) return 0;
    uint32_t count = 0;
    for (uint32_t b = end; b != MANI_NO_BONE; b = maniSkeleton_GetParent(s, b)) {
        if (count < MANI_MAX_IK_CHAIN_BONES) bones[count] = b;
        ++count;
        if (b == start) return count > MANI_MAX_IK_CHAIN_BONES ? UINT32_MAX : count;
    }
    return 0;
}

typedef struct {
    maniTransform* sref; /* ns */
    maniTransform* tref; /* nt */
    double* smodel;      /* 4 ns */
    double* tmodel;      /* 4 nt */
    mani_RetargetPlanDraft* plan; /* nt */
} mani_RetargetScratch;

static void mani_FreeRetargetScratch(maniBuilder* b, mani_RetargetScratch* s, uint32_t ns, uint32_t nt) {
    mani_BuilderFree(b, s->sref, (size_t)ns * sizeof(maniTransform));
    mani_BuilderFree(b, s->tref, (size_t)nt * sizeof(maniTransform));
    mani_BuilderFree(b, s->smodel, (size_t)ns * 32);
    mani_BuilderFree(b, s->tmodel, (size_t)nt * 32);
    mani_BuilderFree(b, s->plan, (size_t)nt * sizeof(mani_RetargetPlanDraft));
}

static maniBuildResult mani_RetargetRefuse(maniBuilder* b, mani_RetargetScratch* s, uint32_t ns, uint32_t nt,
                                           maniResult r, uint32_t reason, uint64_t item, uint64_t other) {
    mani_FreeRetargetScratch(b, s, ns, nt);
    return mani_BuildResult(r, reason, item, other);
}

static void mani_WriteQuat(uint8_t* p, const float q[4]) {
    for (int k = 0; k < 4; ++k) mcore_WriteF32(p + 4 * k, q[k]);
}

static void mani_WriteTransform(uint8_t* p, const maniTransform* t) {
    const float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                         t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
    for (int k = 0; k < 10; ++k) mcore_WriteF32(p + 4 * k, v[k]);
}

static const double mani_Identity64[4] = {0.0, 0.0, 0.0, 1.0};

maniBuildResult maniBuildRetargetMap(maniBuilder* builder, const maniRetargetMapSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniSkeleton* S = source->source;
    const maniSkeleton* T = source->target;
    const uint32_t ns = maniSkeleton_GetBoneCount(S), nt = maniSkeleton_GetBoneCount(T);
    if (S == NULL || T == NULL || ns == 0 || nt == 0 || (source->pairCount && !source->pairs) ||
        (source->chainCount && !source->chains))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    /* The references. */
    for (uint32_t side = 0; side < 2; ++side) {
        const maniTransform* list = side ? source->targetReference : source->sourceReference;
        const uint32_t n = side ? nt : ns;
        if (list == NULL) continue;
        for (uint32_t i = 0; i < n; ++i)
            if (!mani_RetargetRefOk(&list[i]))
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonRetargetReference, i, side);
    }

    mani_RetargetScratch s;
    memset(&s, 0, sizeof s);
    s.sref = (maniTransform*)mani_BuilderAlloc(builder, (size_t)ns * sizeof(maniTransform), 8);
    s.tref = (maniTransform*)mani_BuilderAlloc(builder, (size_t)nt * sizeof(maniTransform), 8);
    s.smodel = (double*)mani_BuilderAlloc(builder, (size_t)ns * 32, 8);
    s.tmodel = (double*)mani_BuilderAlloc(builder, (size_t)nt * 32, 8);
    s.plan = (mani_RetargetPlanDraft*)mani_BuilderAlloc(builder, (size_t)nt * sizeof(mani_RetargetPlanDraft), 8);
    if (!s.sref || !s.tref || !s.smodel || !s.tmodel || !s.plan)
        return mani_RetargetRefuse(builder, &s, ns, nt, mani_errorCapacity, maniBuildReasonNone, 0, 0);
    for (uint32_t i = 0; i < ns; ++i) s.sref[i] = mani_RetargetRefStored(mani_RetargetRef(source->sourceReference, S, i));
    for (uint32_t i = 0; i < nt; ++i) s.tref[i] = mani_RetargetRefStored(mani_RetargetRef(source->targetReference, T, i));
    mani_RetargetModels(S, s.sref, s.smodel);
    mani_RetargetModels(T, s.tref, s.tmodel);
    memset(s.plan, 0, (size_t)nt * sizeof(mani_RetargetPlanDraft));
    uint8_t* mapped = NULL; /* plan kinds double as the mapped mark: a separate byte per bone */
    mapped = (uint8_t*)mani_BuilderAlloc(builder, nt, 1);
    if (!mapped) return mani_RetargetRefuse(builder, &s, ns, nt, mani_errorCapacity, maniBuildReasonNone, 0, 0);
    memset(mapped, 0, nt);
#define MANI_RETARGET_FAIL(r, reason, item, other)                                        \
    do {                                                                                  \
        mani_BuilderFree(builder, mapped, nt);                                            \
        return mani_RetargetRefuse(builder, &s, ns, nt, (r), (reason), (item), (other)); \
    } while (0)

    /* Pairs. */
    for (uint32_t k = 0; k < source->pairCount; ++k) {
        const maniRetargetPair* p = &source->pairs[k];
        const uint64_t other = p->targetBone;
        if (p->sourceBone >= ns || p->targetBone >= nt || mapped[p->targetBone] || !mani_Unit(p->weight) ||
            p->translation > maniRetargetTranslationAbsolute)
            MANI_RETARGET_FAIL(mani_errorInvalid, maniBuildReasonRetargetPair, k, other);
        mapped[p->targetBone] = 1;
        mani_RetargetPlanDraft* d = &s.plan[p->targetBone];
        d->kind = MANI_RETARGET_KIND_BONE;
        d->a = d->b = p->sourceBone;
        d->weight = p->weight;
        d->settings = p->translation | (p->scale ? MANI_RETARGET_SCALE_BIT : 0u);
    }
    /* Chains. */
    for (uint32_t k = 0; k < source->chainCount; ++k) {
        const maniRetargetChain* c = &source->chains[k];
        if (c->sourceStart >= ns || c->sourceEnd >= ns || c->targetStart >= nt || c->targetEnd >= nt)
            MANI_RETARGET_FAIL(mani_errorInvalid, maniBuildReasonRetargetChain, k, 0);
        uint32_t sb[MANI_MAX_IK_CHAIN_BONES], tb[MANI_MAX_IK_CHAIN_BONES];
        const uint32_t sc = mani_RetargetChainBones(S, c->sourceStart, c->sourceEnd, sb);
        const uint32_t tc = mani_RetargetChainBones(T, c->targetStart, c->targetEnd, tb);
        if (sc == UINT32_MAX || tc == UINT32_MAX) MANI_RETARGET_FAIL(mani_errorLimit, maniBuildReasonRetargetChain, k, 0);
        if (sc == 0 || tc == 0 || c->mode > maniRetargetChainOneToOneReversed ||
            c->translation > maniRetargetTranslationAbsolute || !mani_Unit(c->weight))
            MANI_RETARGET_FAIL(mani_errorInvalid, maniBuildReasonRetargetChain, k, 0);
        for (uint32_t j = 0; j < tc; ++j)
            if (mapped[tb[j]]) MANI_RETARGET_FAIL(mani_errorInvalid, maniBuildReasonRetargetChain, k, tb[j]);
        /* Bone j from the starts: tb[tc - 1 - j], sb[sc - 1 - j]. */
        for (uint32_t j = 0; j < tc; ++j) {
            const uint32_t bone = tb[tc - 1 - j];
            mani_RetargetPlanDraft* d = &s.plan[bone];
            mapped[bone] = 1;
            d->weight = c->weight;
            d->settings = c->translation | (c->scale ? MANI_RETARGET_SCALE_BIT : 0u);
            if (c->mode == maniRetargetChainNone) {
                d->kind = MANI_RETARGET_KIND_REFERENCE;
                d->weight = 0.0f;
                d->settings = 0;
                continue;
            }
            uint32_t from = 0, to = 0;
            float place = 0.0f;
            if (c->mode == maniRetargetChainInterpolated) {
                const double u = tc > 1 ? (double)j / (double)(tc - 1) : 0.0;
                const double at = u * (double)(sc - 1);
                from = (uint32_t)at;
                if (from > sc - 1) from = sc - 1;
                to = from + 1 < sc ? from + 1 : from;
                place = (float)(at - (double)from);
            } else if (c->mode == maniRetargetChainOneToOne) {
                from = to = j < sc ? j : sc - 1;
            } else {
                const uint32_t back = tc - 1 - j; /* from the end */
                from = to = back < sc ? sc - 1 - back : 0;
            }
            d->a = sb[sc - 1 - from];
            d->b = sb[sc - 1 - to];
            d->place = place;
            d->kind = (d->a != d->b && place != 0.0f) ? MANI_RETARGET_KIND_BLEND : MANI_RETARGET_KIND_BONE;
            if (d->kind == MANI_RETARGET_KIND_BONE) d->b = d->a, d->place = 0.0f;
        }
    }
    /* The pelvis. */
    float pelvisFloats[MANI_RETARGET_PELVIS_FLOATS];
    memset(pelvisFloats, 0, sizeof pelvisFloats);
    float ratio = 1.0f;
    const maniRetargetPelvis* pv = source->pelvis;
    if (pv != NULL) {
        const uint64_t item = 0, other = pv->targetBone;
        const double u2 = ((double)pv->up.x * pv->up.x + (double)pv->up.y * pv->up.y) + (double)pv->up.z * pv->up.z;
        const float unit[7] = {pv->absolute.x, pv->absolute.y, pv->absolute.z, pv->toSource.x,
                               pv->toSource.y, pv->toSource.z, pv->weight};
        int bad = pv->sourceBone >= ns || pv->targetBone >= nt || (pv->targetBone < nt && mapped[pv->targetBone]) ||
                  !(fabs(sqrt(u2) - 1.0) <= 1e-3) || !isfinite(pv->horizontalFactor) || !(pv->horizontalFactor >= 0) ||
                  !isfinite(pv->verticalFactor) || !(pv->verticalFactor >= 0);
        for (int k = 0; k < 7; ++k) bad |= !mani_Unit(unit[k]);
        if (bad) MANI_RETARGET_FAIL(mani_errorInvalid, maniBuildReasonRetargetPelvis, item, other);
        const maniVec3 sp = mani_RetargetRefPosition(S, s.sref, pv->sourceBone);
        const maniVec3 tp = mani_RetargetRefPosition(T, s.tref, pv->targetBone);
        const double hs = ((double)sp.x * pv->up.x + (double)sp.y * pv->up.y) + (double)sp.z * pv->up.z;
        const double ht = ((double)tp.x * pv->up.x + (double)tp.y * pv->up.y) + (double)tp.z * pv->up.z;
        if (!(hs > 0) || !(ht > 0)) MANI_RETARGET_FAIL(mani_errorInvalid, maniBuildReasonRetargetPelvis, item, other);
        const double r = ht / hs;
        ratio = (float)r;
        const float v[MANI_RETARGET_PELVIS_FLOATS] = {
            pv->up.x, pv->up.y, pv->up.z, (float)(r * pv->horizontalFactor), (float)(r * pv->verticalFactor), ratio,
            pv->absolute.x, pv->absolute.y, pv->absolute.z, pv->toSource.x, pv->toSource.y, pv->toSource.z,
            pv->weight, sp.x, sp.y, sp.z, tp.x, tp.y, tp.z};
        for (uint32_t k = 0; k < MANI_RETARGET_PELVIS_FLOATS; ++k)
            if (!isfinite(v[k])) MANI_RETARGET_FAIL(mani_errorInvalid, maniBuildReasonRetargetPelvis, item, other);
        memcpy(pelvisFloats, v, sizeof v);
        mapped[pv->targetBone] = 1;
        mani_RetargetPlanDraft* d = &s.plan[pv->targetBone];
        d->kind = MANI_RETARGET_KIND_PELVIS;
        d->a = d->b = pv->sourceBone;
        d->weight = pv->weight;
        d->settings = 0;
    }
    (void)ratio;
    /* Names. */
    if (source->matchNames) {
        for (uint32_t i = 0; i < nt; ++i) {
            if (mapped[i]) continue;
            size_t length = 0;
            const char* name = maniSkeleton_GetBoneName(T, i, &length);
            const uint32_t a = maniSkeleton_FindBone(S, name, length);
            if (a == MANI_NO_BONE) continue;
            mapped[i] = 1;
            s.plan[i].kind = MANI_RETARGET_KIND_BONE;
            s.plan[i].a = s.plan[i].b = a;
            s.plan[i].weight = 1.0f;
            s.plan[i].settings = maniRetargetTranslationOwn;
        }
    }

    /* The file. */
    const uint64_t sizes[MANI_RETARGET_SECTION_COUNT] = {MANI_RETARGET_INFO_SIZE, pv ? MANI_RETARGET_PELVIS_SIZE : 0u,
                                                         (uint64_t)MANI_RETARGET_REF_SIZE * ns,
                                                         (uint64_t)MANI_RETARGET_REF_SIZE * nt,
                                                         (uint64_t)MANI_RETARGET_PLAN_SIZE * nt};
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniRetargetSections, sizes, MANI_RETARGET_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) MANI_RETARGET_FAIL(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    const uint64_t info = sec[0].offset;
    mcore_WriteU64(file + info, maniSkeleton_GetIdentity(S));
    mcore_WriteU64(file + info + 8, maniSkeleton_GetIdentity(T));
    mcore_WriteU32(file + info + 16, ns);
    mcore_WriteU32(file + info + 20, nt);
    mcore_WriteU32(file + info + 24, pv ? 1u : 0u);
    if (pv) {
        uint8_t* p = file + sec[1].offset;
        mcore_WriteU32(p, pv->sourceBone);
        mcore_WriteU32(p + 4, pv->targetBone);
        for (uint32_t k = 0; k < MANI_RETARGET_PELVIS_FLOATS; ++k) mcore_WriteF32(p + 8 + 4 * k, pelvisFloats[k]);
    }
    for (uint32_t i = 0; i < ns; ++i) mani_WriteTransform(file + sec[2].offset + (uint64_t)MANI_RETARGET_REF_SIZE * i, &s.sref[i]);
    for (uint32_t i = 0; i < nt; ++i) mani_WriteTransform(file + sec[3].offset + (uint64_t)MANI_RETARGET_REF_SIZE * i, &s.tref[i]);
    for (uint32_t i = 0; i < nt; ++i) {
        const mani_RetargetPlanDraft* d = &s.plan[i];
        uint8_t* p = file + sec[4].offset + (uint64_t)MANI_RETARGET_PLAN_SIZE * i;
        const uint32_t tparent = maniSkeleton_GetParent(T, i);
        const uint32_t sparent = maniSkeleton_GetParent(S, d->a);
        uint32_t settings = d->settings;
        float turns[MANI_RETARGET_PLAN_TURNS][4];
        for (uint32_t t = 0; t < MANI_RETARGET_PLAN_TURNS; ++t) turns[t][0] = turns[t][1] = turns[t][2] = 0.0f, turns[t][3] = 1.0f;
        float scale[3] = {0, 0, 0};
        if (d->kind != MANI_RETARGET_KIND_REFERENCE) {
            mani_TurnBetween64(&s.smodel[4 * d->a], mani_Identity64, turns[0]);
            mani_TurnBetween64(&s.smodel[4 * d->b], mani_Identity64, turns[1]);
            mani_TurnBetween64(mani_Identity64, &s.tmodel[4 * i], turns[2]);
            mani_TurnBetween64(tparent == MANI_NO_BONE ? mani_Identity64 : &s.tmodel[4 * tparent],
                               sparent == MANI_NO_BONE ? mani_Identity64 : &s.smodel[4 * sparent], turns[3]);
            mani_TurnBetween64(&s.smodel[4 * d->a], &s.tmodel[4 * i], turns[4]);
            const float sr[3] = {s.sref[d->a].scale.x, s.sref[d->a].scale.y, s.sref[d->a].scale.z};
            const float tr[3] = {s.tref[i].scale.x, s.tref[i].scale.y, s.tref[i].scale.z};
            for (int k = 0; k < 3; ++k) {
                scale[k] = sr[k] == 0.0f ? 0.0f : (float)((double)tr[k] / (double)sr[k]);
                if (!isfinite(scale[k])) scale[k] = 0.0f;
            }
            /* Matched: the bone and its parent follow a source bone and its
             * parent at weight 1. */
            if (d->kind != MANI_RETARGET_KIND_BLEND && d->weight == 1.0f) {
                const int matched =
                    tparent == MANI_NO_BONE
                        ? sparent == MANI_NO_BONE
                        : sparent != MANI_NO_BONE && s.plan[tparent].kind != MANI_RETARGET_KIND_REFERENCE &&
                              s.plan[tparent].kind != MANI_RETARGET_KIND_BLEND && s.plan[tparent].weight == 1.0f &&
                              s.plan[tparent].a == sparent;
                if (matched) settings |= MANI_RETARGET_MATCHED_BIT;
            }
        }
        mcore_WriteU32(p, d->kind);
        mcore_WriteU32(p + 4, d->a);
        mcore_WriteU32(p + 8, d->b);
        mcore_WriteU32(p + 12, settings);
        mcore_WriteF32(p + 16, d->place);
        mcore_WriteF32(p + 20, d->weight);
        for (uint32_t t = 0; t < MANI_RETARGET_PLAN_TURNS; ++t) mani_WriteQuat(p + MANI_RETARGET_PLAN_TURN_AT + 16 * t, turns[t]);
        for (int k = 0; k < 3; ++k) mcore_WriteF32(p + MANI_RETARGET_PLAN_SCALE_AT + 4 * k, scale[k]);
    }
    mcore_FinishContainer(file, &layout, mcore_kindRetargetMap, mcore_formatRetargetMapLatest, MANI_ABI_VERSION);
    mani_BuilderFree(builder, mapped, nt);
    mani_FreeRetargetScratch(builder, &s, ns, nt);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
#undef MANI_RETARGET_FAIL
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
