/* maniBuildSpringSet: checks a VRMC_springBone source against its skeleton,
 * converts its per-frame values to the fixed step, lists each spring's
 * colliders and writes a spring set file (docs/formats.md, "Spring set"). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/spring/spring_format.h"
#include "lib/core/detmath.h"
#include "lib/core/utf8.h"

static maniBuildResult mani_SpringOk(void) { return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0); }

static int mani_Finite3(maniVec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static double mani_Length2(maniVec3 v) { return ((double)v.x * v.x + (double)v.y * v.y) + (double)v.z * v.z; }

/* The largest angle a limit takes (pi rounded up to binary32). */
#define MANI_SPRING_LIMIT_MAX 3.14159274f

/* A joint's values (not its bone), or the refusal (item the spring, other
 * the joint). */
static maniBuildResult mani_CheckSpringJoint(const maniSpringSourceJoint* j, uint32_t spring, uint32_t joint) {
    const maniBuildResult bad = mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, spring, joint);
    if (!(j->hitRadius >= 0.0f) || !isfinite(j->hitRadius)) return bad;
    if (!(j->stiffness >= 0.0f) || !isfinite(j->stiffness)) return bad;
    if (!(j->gravityPower >= 0.0f) || !isfinite(j->gravityPower)) return bad;
    if (!(j->dragForce >= 0.0f && j->dragForce <= 1.0f)) return bad;
    if (!mani_Finite3(j->gravityDir)) return bad;
    if (j->limitKind > maniSpringLimitSpherical) return bad;
    if (j->limitKind != maniSpringLimitNone) {
        const maniQuat q = j->limitRotation;
        if (!isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w)) return bad;
        const double len2 = (((double)q.x * q.x + (double)q.y * q.y) + (double)q.z * q.z) + (double)q.w * q.w;
        if (!(len2 > 0.0) || !isfinite(len2)) return bad;
        if (!(j->limitAngle >= 0.0f && j->limitAngle <= MANI_SPRING_LIMIT_MAX)) return bad;
        if (j->limitKind == maniSpringLimitSpherical && !(j->limitAngle2 >= 0.0f && j->limitAngle2 <= MANI_SPRING_LIMIT_MAX))
            return bad;
    }
    return mani_SpringOk();
}

/* A collider, or the refusal. */
static maniBuildResult mani_CheckSpringCollider(const maniSpringSourceCollider* c, uint32_t i, uint32_t boneCount) {
    const maniBuildResult bad = mani_BuildResult(mani_errorInvalid, maniBuildReasonAttribute, i, MANI_NO_BONE);
    if (c->bone >= boneCount || c->kind > maniSpringShapePlane) return bad;
    if (!mani_Finite3(c->offset) || !mani_Finite3(c->tail) || !isfinite(c->radius))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, MANI_NO_BONE, i);
    const int inside = c->kind == maniSpringShapeInsideSphere || c->kind == maniSpringShapeInsideCapsule;
    if (c->kind == maniSpringShapePlane) {
        if (c->radius != 0.0f) return bad;
        const double len2 = mani_Length2(c->tail);
        if (!(len2 > 0.0) || !isfinite(len2)) return bad;
    } else if (inside ? !(c->radius > 0.0f) : !(c->radius >= 0.0f)) {
        return bad;
    }
    return mani_SpringOk();
}

/* v normalized in binary64 and rounded once (zero stays zero). */
static maniVec3 mani_UnitVec3(maniVec3 v) {
    const double len = sqrt(mani_Length2(v));
    if (!(len > 0.0)) return v;
    maniVec3 o = {(float)(v.x / len), (float)(v.y / len), (float)(v.z / len)};
    return o;
}

static maniQuat mani_UnitQuat(maniQuat q) {
    const double len = sqrt((((double)q.x * q.x + (double)q.y * q.y) + (double)q.z * q.z) + (double)q.w * q.w);
    maniQuat o = {(float)(q.x / len), (float)(q.y / len), (float)(q.z / len), (float)(q.w / len)};
    return o;
}

typedef struct {
    uint32_t* trackedIndex; /* per bone: its tracked index, or MANI_NO_BONE */
    uint32_t* stamp;        /* per collider: the last spring (plus 1) that listed it */
    uint32_t* linkCount;    /* per spring */
    uint32_t boneCount, colliderCount, springCount;
} mani_SpringScratch;

static void mani_FreeSpringScratch(maniBuilder* b, mani_SpringScratch* s) {
    if (s->trackedIndex) mani_BuilderFree(b, s->trackedIndex, sizeof(uint32_t) * s->boneCount);
    if (s->stamp) mani_BuilderFree(b, s->stamp, sizeof(uint32_t) * s->colliderCount);
    if (s->linkCount) mani_BuilderFree(b, s->linkCount, sizeof(uint32_t) * s->springCount);
}

/* Lists a spring's colliders (each once, at its first place) through
 * visit, returning their count. */
static uint32_t mani_ListSpringColliders(const maniSpringSetSource* src, uint32_t k, uint32_t* stamp, uint8_t* out) {
    const maniSpringSourceSpring* sp = &src->springs[k];
    uint32_t n = 0;
    for (uint32_t g = 0; g < sp->colliderGroupCount; ++g) {
        const maniSpringSourceColliderGroup* group = &src->groups[sp->colliderGroups[g]];
        for (uint32_t c = 0; c < group->colliderCount; ++c) {
            const uint32_t ci = group->colliders[c];
            if (stamp[ci] == k + 1) continue;
            stamp[ci] = k + 1;
            if (out != NULL) mcore_WriteU32(out + 4ull * n, ci);
            n++;
        }
    }
    return n;
}

maniBuildResult maniBuildSpringSet(maniBuilder* builder, const maniSpringSetSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniSkeleton* skeleton = source->skeleton;
    const uint32_t boneCount = maniSkeleton_GetBoneCount(skeleton);
    if (boneCount == 0) {
        builder->misuse++;
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    }
    /* Rates. */
    const float rates[2] = {source->referenceRate, source->stepRate};
    for (uint32_t r = 0; r < 2; ++r) {
        if (!isfinite(rates[r]) || !(rates[r] > 0.0f)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, r, 0);
        if (rates[r] > MANI_MAX_SPRING_RATE) return mani_BuildResult(mani_errorLimit, maniBuildReasonOption, r, 0);
    }
    if (source->springCount > MANI_MAX_BONES)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, source->springCount, 0);
    if ((source->colliders == NULL && source->colliderCount > 0) || (source->groups == NULL && source->groupCount > 0) ||
        (source->springs == NULL && source->springCount > 0))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, MANI_NO_BONE, 0);
    /* Colliders and groups. */
    for (uint32_t i = 0; i < source->colliderCount; ++i) {
        const maniBuildResult r = mani_CheckSpringCollider(&source->colliders[i], i, boneCount);
        if (r.result != mani_success) return r;
    }
    for (uint32_t g = 0; g < source->groupCount; ++g) {
        const maniSpringSourceColliderGroup* group = &source->groups[g];
        if (group->colliders == NULL && group->colliderCount > 0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonEntry, g, 0);
        for (uint32_t c = 0; c < group->colliderCount; ++c)
            if (group->colliders[c] >= source->colliderCount)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonEntry, g, c);
    }
    /* Springs: names, joints (each the parent of the next), groups,
     * centers. */
    uint64_t jointCount = 0, namesSize = 0;
    for (uint32_t k = 0; k < source->springCount; ++k) {
        const maniSpringSourceSpring* sp = &source->springs[k];
        if (sp->nameLength > MANI_MAX_NAME_BYTES) return mani_BuildResult(mani_errorLimit, maniBuildReasonName, k, 0);
        if ((sp->name == NULL && sp->nameLength > 0) ||
            (sp->nameLength > 0 && mcore_Utf8Check((const uint8_t*)sp->name, sp->nameLength) != sp->nameLength))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, k, 0);
        if (sp->joints == NULL || sp->jointCount < 2) return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, k, 0);
        if (sp->jointCount > MANI_MAX_BONES) return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, k, 0);
        for (uint32_t j = 0; j < sp->jointCount; ++j) {
            const uint32_t bone = sp->joints[j].bone;
            if (bone >= boneCount || (j > 0 && maniSkeleton_GetParent(skeleton, bone) != sp->joints[j - 1].bone))
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, k, j);
            if (j + 1 < sp->jointCount) {
                const maniBuildResult r = mani_CheckSpringJoint(&sp->joints[j], k, j);
                if (r.result != mani_success) return r;
            }
        }
        if (sp->colliderGroups == NULL && sp->colliderGroupCount > 0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonEntry, k, 0);
        for (uint32_t g = 0; g < sp->colliderGroupCount; ++g)
            if (sp->colliderGroups[g] >= source->groupCount)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonEntry, k, g);
        if (sp->center != MANI_NO_BONE) {
            const uint32_t first = sp->joints[0].bone;
            if (sp->center >= boneCount ||
                (sp->center >= first && sp->center < maniSkeleton_GetSubtreeEnd(skeleton, first)))
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, k, MANI_NO_BONE);
        }
        jointCount += sp->jointCount;
        namesSize += sp->nameLength;
    }
    if (jointCount > UINT32_MAX / MANI_SPRING_JOINT_SIZE) return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, 0, 0);

    /* Scratch: tracked bones, collider stamps, link counts. */
    mani_SpringScratch s;
    memset(&s, 0, sizeof s);
    s.boneCount = boneCount;
    s.colliderCount = source->colliderCount;
    s.springCount = source->springCount;
    s.trackedIndex = (uint32_t*)mani_BuilderAlloc(builder, sizeof(uint32_t) * boneCount, 4);
    if (s.colliderCount) s.stamp = (uint32_t*)mani_BuilderAlloc(builder, sizeof(uint32_t) * s.colliderCount, 4);
    if (s.springCount) s.linkCount = (uint32_t*)mani_BuilderAlloc(builder, sizeof(uint32_t) * s.springCount, 4);
    if (s.trackedIndex == NULL || (s.colliderCount && s.stamp == NULL) || (s.springCount && s.linkCount == NULL)) {
        mani_FreeSpringScratch(builder, &s);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    for (uint32_t i = 0; i < boneCount; ++i) s.trackedIndex[i] = MANI_NO_BONE;
    if (s.colliderCount) memset(s.stamp, 0, sizeof(uint32_t) * s.colliderCount);
    for (uint32_t i = 0; i < source->colliderCount; ++i) s.trackedIndex[source->colliders[i].bone] = 0;
    uint64_t linkTotal = 0;
    for (uint32_t k = 0; k < source->springCount; ++k) {
        const maniSpringSourceSpring* sp = &source->springs[k];
        for (uint32_t j = 0; j < sp->jointCount; ++j) s.trackedIndex[sp->joints[j].bone] = 0;
        const uint32_t parent = maniSkeleton_GetParent(skeleton, sp->joints[0].bone);
        if (parent != MANI_NO_BONE) s.trackedIndex[parent] = 0;
        if (sp->center != MANI_NO_BONE) s.trackedIndex[sp->center] = 0;
        s.linkCount[k] = mani_ListSpringColliders(source, k, s.stamp, NULL);
        linkTotal += s.linkCount[k];
    }
    uint32_t trackedCount = 0;
    for (uint32_t i = 0; i < boneCount; ++i)
        if (s.trackedIndex[i] == 0) s.trackedIndex[i] = trackedCount++;

    /* The file. */
    const uint64_t sizes[MANI_SPRING_SECTION_COUNT] = {
        MANI_SPRING_INFO_SIZE,
        (uint64_t)MANI_SPRING_SPRING_SIZE * source->springCount,
        (uint64_t)MANI_SPRING_JOINT_SIZE * jointCount,
        (uint64_t)MANI_SPRING_COLLIDER_SIZE * source->colliderCount,
        4ull * linkTotal,
        4ull * trackedCount,
        namesSize};
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniSpringSections, sizes, MANI_SPRING_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) {
        mani_FreeSpringScratch(builder, &s);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    const uint64_t info = sec[0].offset;
    mcore_WriteU64(file + info, maniSkeleton_GetIdentity(skeleton));
    mcore_WriteU32(file + info + 8, boneCount);
    mcore_WriteU32(file + info + 12, source->springCount);
    mcore_WriteU32(file + info + 16, (uint32_t)jointCount);
    mcore_WriteU32(file + info + 20, source->colliderCount);
    mcore_WriteU32(file + info + 24, (uint32_t)linkTotal);
    mcore_WriteU32(file + info + 28, trackedCount);
    mcore_WriteF32(file + info + 32, source->referenceRate);
    mcore_WriteF32(file + info + 36, source->stepRate);
    mcore_WriteU32(file + info + 40, (uint32_t)namesSize);
    for (uint32_t i = 0, k = 0; i < boneCount; ++i)
        if (s.trackedIndex[i] != MANI_NO_BONE) mcore_WriteU32(file + sec[5].offset + 4ull * k++, i);
    for (uint32_t i = 0; i < source->colliderCount; ++i) {
        const maniSpringSourceCollider* c = &source->colliders[i];
        uint8_t* w = file + sec[3].offset + (uint64_t)MANI_SPRING_COLLIDER_SIZE * i;
        mcore_WriteU32(w, c->bone);
        mcore_WriteU32(w + 4, s.trackedIndex[c->bone]);
        mcore_WriteU32(w + 8, c->kind);
        mcore_WriteF32(w + 12, c->offset.x);
        mcore_WriteF32(w + 16, c->offset.y);
        mcore_WriteF32(w + 20, c->offset.z);
        mcore_WriteF32(w + 24, c->radius);
        if (c->kind != maniSpringShapeSphere && c->kind != maniSpringShapeInsideSphere) {
            const maniVec3 t = c->kind == maniSpringShapePlane ? mani_UnitVec3(c->tail) : c->tail;
            mcore_WriteF32(w + 28, t.x);
            mcore_WriteF32(w + 32, t.y);
            mcore_WriteF32(w + 36, t.z);
        }
    }
    /* Per-step values: drag d per frame of the reference rate keeps
     * (1 - d)^(reference / step) of the inertia a step; stiffness and
     * gravity (per second) move 1 / step rate of theirs. */
    const double perStep = 1.0 / (double)source->stepRate;
    const double frames = (double)source->referenceRate / (double)source->stepRate;
    uint32_t joint = 0, link = 0, name = 0;
    if (s.colliderCount) memset(s.stamp, 0, sizeof(uint32_t) * s.colliderCount);
    for (uint32_t k = 0; k < source->springCount; ++k) {
        const maniSpringSourceSpring* sp = &source->springs[k];
        uint8_t* w = file + sec[1].offset + (uint64_t)MANI_SPRING_SPRING_SIZE * k;
        const uint32_t parent = maniSkeleton_GetParent(skeleton, sp->joints[0].bone);
        mcore_WriteU32(w, joint);
        mcore_WriteU32(w + 4, sp->jointCount);
        mcore_WriteU32(w + 8, link);
        mcore_WriteU32(w + 12, s.linkCount[k]);
        mcore_WriteU32(w + 16, sp->center);
        mcore_WriteU32(w + 20, sp->center != MANI_NO_BONE ? s.trackedIndex[sp->center] : MANI_NO_BONE);
        mcore_WriteU32(w + 24, parent != MANI_NO_BONE ? s.trackedIndex[parent] : MANI_NO_BONE);
        mcore_WriteU32(w + 28, name);
        mcore_WriteU32(w + 32, (uint32_t)sp->nameLength);
        if (sp->nameLength) memcpy(file + sec[6].offset + name, sp->name, sp->nameLength);
        (void)mani_ListSpringColliders(source, k, s.stamp, file + sec[4].offset + 4ull * link);
        for (uint32_t j = 0; j < sp->jointCount; ++j) {
            const maniSpringSourceJoint* src = &sp->joints[j];
            uint8_t* jw = file + sec[2].offset + (uint64_t)MANI_SPRING_JOINT_SIZE * (joint + j);
            mcore_WriteU32(jw, src->bone);
            mcore_WriteU32(jw + 4, s.trackedIndex[src->bone]);
            if (j + 1 == sp->jointCount) {
                mcore_WriteF32(jw + 52, 1.0f);
                continue;
            }
            const double keep = mcore_pow(1.0 - (double)src->dragForce, frames);
            float drag = (float)(1.0 - keep);
            drag = drag < 0.0f ? 0.0f : (drag > 1.0f ? 1.0f : drag);
            mcore_WriteF32(jw + 8, src->hitRadius);
            mcore_WriteF32(jw + 12, (float)((double)src->stiffness * perStep));
            mcore_WriteF32(jw + 16, drag);
            mcore_WriteF32(jw + 20, (float)((double)src->gravityPower * perStep));
            const maniVec3 g = mani_UnitVec3(src->gravityDir);
            mcore_WriteF32(jw + 24, g.x);
            mcore_WriteF32(jw + 28, g.y);
            mcore_WriteF32(jw + 32, g.z);
            mcore_WriteU32(jw + 36, src->limitKind);
            const maniQuat q = src->limitKind != maniSpringLimitNone ? mani_UnitQuat(src->limitRotation)
                                                                     : (maniQuat){0.0f, 0.0f, 0.0f, 1.0f};
            mcore_WriteF32(jw + 40, q.x);
            mcore_WriteF32(jw + 44, q.y);
            mcore_WriteF32(jw + 48, q.z);
            mcore_WriteF32(jw + 52, q.w);
            if (src->limitKind != maniSpringLimitNone) mcore_WriteF32(jw + 56, src->limitAngle);
            if (src->limitKind == maniSpringLimitSpherical) mcore_WriteF32(jw + 60, src->limitAngle2);
        }
        joint += sp->jointCount;
        link += s.linkCount[k];
        name += (uint32_t)sp->nameLength;
    }
    mcore_FinishContainer(file, &layout, mcore_kindSpringSet, mcore_formatSpringSetLatest, MANI_ABI_VERSION);
    mani_FreeSpringScratch(builder, &s);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_SpringOk();
}
