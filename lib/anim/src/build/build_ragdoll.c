/* maniBuildRagdoll: checks a source and writes a ragdoll profile file
 * (docs/formats.md, "Ragdoll profile"). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/ragdoll/ragdoll_format.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/core/utf8.h"

static int mani_Vec3IsFinite(maniVec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* A source frame's check: 0 when good, else the reason. */
static uint32_t mani_CheckSourceFrame(const maniTransform* t) {
    if (!mani_Vec3IsFinite(t->translation) || !isfinite(t->rotation.x) || !isfinite(t->rotation.y) ||
        !isfinite(t->rotation.z) || !isfinite(t->rotation.w))
        return maniBuildReasonNotFinite;
    const double l2 = (((double)t->rotation.x * t->rotation.x + (double)t->rotation.y * t->rotation.y) +
                       (double)t->rotation.z * t->rotation.z) +
                      (double)t->rotation.w * t->rotation.w;
    if (!(l2 > 0.0) || !isfinite(l2)) return maniBuildReasonOption;
    return maniBuildReasonNone;
}

/* A source frame as a normalized rigid frame, rounded to binary32 (what the
 * file keeps), and back in binary64. */
static maniRagdollFrame mani_SourceFrame(const maniTransform* t) {
    return mani_Rigid64ToFrame(mani_Rigid64FromFloats(t->translation, t->rotation));
}

static void mani_WriteFrame(uint8_t* p, maniRagdollFrame f) {
    const float v[7] = {f.position.x, f.position.y, f.position.z, f.rotation.x, f.rotation.y, f.rotation.z, f.rotation.w};
    for (int k = 0; k < 7; ++k) mcore_WriteF32(p + 4 * k, v[k]);
}

static void mani_WriteVec3(uint8_t* p, maniVec3 v) {
    mcore_WriteF32(p, v.x);
    mcore_WriteF32(p + 4, v.y);
    mcore_WriteF32(p + 8, v.z);
}

static maniVec3 mani_Vec3From64(const double v[3]) {
    maniVec3 r = {(float)v[0], (float)v[1], (float)v[2]};
    return r;
}

/* One body's checks in the documented order; mani_success or the refusal. */
static maniBuildResult mani_CheckRagdollBody(const maniRagdollSourceBody* s, uint32_t i, uint32_t bones) {
    if (s->name == NULL && s->nameLength != 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, i, 0);
    if (s->nameLength > MANI_MAX_NAME_BYTES) return mani_BuildResult(mani_errorLimit, maniBuildReasonName, i, 0);
    if (s->nameLength > 0 && mcore_Utf8Check((const uint8_t*)s->name, s->nameLength) != s->nameLength)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, i, 0);
    if (s->bone >= bones) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, i, s->bone);
    const uint32_t mask = mani_RagdollShapeMask(s->shape);
    if (mask == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, i, MANI_RAGDOLL_FIELD_SHAPE);
    if (s->motion > maniRagdollMotionKinematic)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, i, MANI_RAGDOLL_FIELD_MOTION);
    const float size[3] = {s->size.x, s->size.y, s->size.z};
    for (uint32_t a = 0; a < 3; ++a) {
        if (!isfinite(size[a])) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, i, MANI_RAGDOLL_FIELD_SIZE);
        if ((mask >> a & 1u) != 0 ? !(size[a] > 0.0f) : size[a] != 0.0f)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, i, MANI_RAGDOLL_FIELD_SIZE);
    }
    if (!isfinite(s->mass)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, i, MANI_RAGDOLL_FIELD_MASS);
    if (!(s->mass > 0.0f)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, i, MANI_RAGDOLL_FIELD_MASS);
    uint32_t reason = mani_CheckSourceFrame(&s->frame);
    if (reason != maniBuildReasonNone) return mani_BuildResult(mani_errorInvalid, reason, i, MANI_RAGDOLL_FIELD_FRAME);
    reason = mani_CheckSourceFrame(&s->joint);
    if (reason != maniBuildReasonNone) return mani_BuildResult(mani_errorInvalid, reason, i, MANI_RAGDOLL_FIELD_JOINT);
    const float lim[4] = {s->twistMin, s->twistMax, s->swingY, s->swingZ};
    for (uint32_t a = 0; a < 4; ++a)
        if (!isfinite(lim[a])) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, i, MANI_RAGDOLL_FIELD_LIMIT);
    if (!mani_RagdollLimitsOk(s->twistMin, s->twistMax, s->swingY, s->swingZ))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, i, MANI_RAGDOLL_FIELD_LIMIT);
    const float drive[3] = {s->driveStiffness, s->driveDamping, s->driveMaxForce};
    for (uint32_t a = 0; a < 3; ++a) {
        if (!isfinite(drive[a])) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, i, MANI_RAGDOLL_FIELD_DRIVE);
        if (!mani_RagdollDriveOk(drive[a]))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, i, MANI_RAGDOLL_FIELD_DRIVE);
    }
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

maniBuildResult maniBuildRagdoll(maniBuilder* builder, const maniRagdollSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniSkeleton* skel = source->skeleton;
    const uint32_t bones = maniSkeleton_GetBoneCount(skel);
    if (bones == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, 0, MANI_NO_BONE);
    const uint32_t count = source->bodyCount;
    if (source->bodies == NULL || count == 0 || count > bones)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);

    /* Scratch: the body on each bone (source index), each bone's model rest
     * frame. */
    const size_t scratchSize = (size_t)bones * (sizeof(uint32_t) + sizeof(mani_Rigid64) + sizeof(maniAffine));
    uint8_t* scratch = (uint8_t*)mani_BuilderAlloc(builder, scratchSize, 16);
    if (scratch == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    mani_Rigid64* rest = (mani_Rigid64*)(void*)scratch;
    maniAffine* restAffine = (maniAffine*)(void*)(scratch + (size_t)bones * sizeof(mani_Rigid64));
    uint32_t* onBone = (uint32_t*)(void*)(scratch + (size_t)bones * (sizeof(mani_Rigid64) + sizeof(maniAffine)));
    for (uint32_t b = 0; b < bones; ++b) onBone[b] = MANI_RAGDOLL_NO_BODY;

    maniBuildResult result = mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
    uint64_t namesSize = 0;
    for (uint32_t i = 0; i < count && result.result == mani_success; ++i) {
        const maniRagdollSourceBody* s = &source->bodies[i];
        result = mani_CheckRagdollBody(s, i, bones);
        if (result.result != mani_success) break;
        if (onBone[s->bone] != MANI_RAGDOLL_NO_BODY) {
            result = mani_BuildResult(mani_errorInvalid, maniBuildReasonRepeatedJoint, i, onBone[s->bone]);
            break;
        }
        onBone[s->bone] = i;
        namesSize += s->nameLength;
    }
    /* One root: the bodies without a body on an ancestor bone, in the
     * source's order (a second is refused, other the first). */
    uint32_t root = MANI_RAGDOLL_NO_BODY;
    for (uint32_t i = 0; i < count && result.result == mani_success; ++i) {
        const uint32_t b = source->bodies[i].bone;
        uint32_t a = mani_SkeletonParentRaw(skel, b);
        while (a < b && onBone[a] == MANI_RAGDOLL_NO_BODY) a = mani_SkeletonParentRaw(skel, a);
        if (a < b) continue;
        if (root != MANI_RAGDOLL_NO_BODY)
            result = mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, i, root);
        else
            root = i;
    }
    if (result.result == mani_success) {
        if (!mani_Vec3IsFinite(source->facing) || !mani_Vec3IsFinite(source->up))
            result = mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, root, MANI_RAGDOLL_FIELD_AXES);
        else if (!mani_RagdollAxesOk(source->facing, source->up))
            result = mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, root, MANI_RAGDOLL_FIELD_AXES);
    }
    if (result.result != mani_success) {
        mani_BuilderFree(builder, scratch, scratchSize);
        return result;
    }

    /* The rest's model frames: composed as poses compose them, split as
     * maniDecomposeAffine splits them. */
    for (uint32_t b = 0; b < bones; ++b) {
        const maniTransform local = mani_SkeletonRestRaw(skel, b);
        const maniAffine la = maniSimdSingle_TransformToAffine(&local);
        const uint32_t p = mani_SkeletonParentRaw(skel, b);
        restAffine[b] = p < b ? maniSimdSingle_AffineMul(&restAffine[p], &la) : la;
        maniTransform split;
        if (maniDecomposeAffine(&restAffine[b], &split) != mani_success) split = mani_IdentityTransform();
        rest[b] = mani_Rigid64FromFloats(split.translation, split.rotation);
    }

    const uint64_t sizes[MANI_RAGDOLL_SECTION_COUNT] = {MANI_RAGDOLL_INFO_SIZE, (uint64_t)MANI_RAGDOLL_BODY_SIZE * count,
                                                         namesSize};
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniRagdollSections, sizes, MANI_RAGDOLL_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) {
        mani_BuilderFree(builder, scratch, scratchSize);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;

    /* The bodies by bone; each one's parent the body on its nearest
     * ancestor bone with one (an earlier body). onBone becomes bone ->
     * file body. */
    uint32_t k = 0, nameAt = 0;
    for (uint32_t b = 0; b < bones; ++b) {
        const uint32_t i = onBone[b];
        if (i == MANI_RAGDOLL_NO_BODY) continue;
        const maniRagdollSourceBody* s = &source->bodies[i];
        onBone[b] = k;
        uint32_t a = mani_SkeletonParentRaw(skel, b);
        while (a < b && onBone[a] == MANI_RAGDOLL_NO_BODY) a = mani_SkeletonParentRaw(skel, a);
        const uint32_t parent = a < b ? onBone[a] : MANI_RAGDOLL_NO_BODY;
        uint8_t* r = file + sec[1].offset + (uint64_t)MANI_RAGDOLL_BODY_SIZE * k;
        mcore_WriteU32(r, b);
        mcore_WriteU32(r + 4, parent);
        mcore_WriteU32(r + 8, s->shape);
        mcore_WriteU32(r + 12, s->motion);
        mani_WriteVec3(r + 16, s->size);
        mcore_WriteF32(r + 28, s->mass);
        const maniRagdollFrame frame = mani_SourceFrame(&s->frame);
        maniRagdollFrame joint = {{0, 0, 0}, {0, 0, 0, 1}}, parentJoint = {{0, 0, 0}, {0, 0, 0, 1}};
        if (parent != MANI_RAGDOLL_NO_BODY) {
            joint = mani_SourceFrame(&s->joint);
            /* The joint's frame at rest in the world of the model, then in
             * the parent body's frame. */
            const uint32_t pb = mcore_ReadU32(file + sec[1].offset + (uint64_t)MANI_RAGDOLL_BODY_SIZE * parent);
            const uint8_t* pr = file + sec[1].offset + (uint64_t)MANI_RAGDOLL_BODY_SIZE * parent + MANI_RAGDOLL_BODY_FRAME;
            const maniVec3 pp = {mcore_ReadF32(pr), mcore_ReadF32(pr + 4), mcore_ReadF32(pr + 8)};
            const maniQuat pq = {mcore_ReadF32(pr + 12), mcore_ReadF32(pr + 16), mcore_ReadF32(pr + 20), mcore_ReadF32(pr + 24)};
            const mani_Rigid64 pf = mani_Rigid64FromFloats(pp, pq);
            const mani_Rigid64 cf = mani_Rigid64FromFloats(frame.position, frame.rotation);
            const mani_Rigid64 jc = mani_Rigid64FromFloats(joint.position, joint.rotation);
            const mani_Rigid64 childBody = mani_Rigid64Mul(&rest[b], &cf);
            const mani_Rigid64 parentBody = mani_Rigid64Mul(&rest[pb], &pf);
            const mani_Rigid64 jointModel = mani_Rigid64Mul(&childBody, &jc);
            const mani_Rigid64 parentInv = mani_Rigid64Inverse(&parentBody);
            parentJoint = mani_Rigid64ToFrame(mani_Rigid64Mul(&parentInv, &jointModel));
        }
        mani_WriteFrame(r + MANI_RAGDOLL_BODY_FRAME, frame);
        mani_WriteFrame(r + MANI_RAGDOLL_BODY_JOINT, joint);
        mani_WriteFrame(r + MANI_RAGDOLL_BODY_PARENT_JOINT, parentJoint);
        mcore_WriteF32(r + MANI_RAGDOLL_BODY_LIMITS, s->twistMin);
        mcore_WriteF32(r + MANI_RAGDOLL_BODY_LIMITS + 4, s->twistMax);
        mcore_WriteF32(r + MANI_RAGDOLL_BODY_LIMITS + 8, s->swingY);
        mcore_WriteF32(r + MANI_RAGDOLL_BODY_LIMITS + 12, s->swingZ);
        mcore_WriteF32(r + MANI_RAGDOLL_BODY_DRIVE, s->driveStiffness);
        mcore_WriteF32(r + MANI_RAGDOLL_BODY_DRIVE + 4, s->driveDamping);
        mcore_WriteF32(r + MANI_RAGDOLL_BODY_DRIVE + 8, s->driveMaxForce);
        mcore_WriteU32(r + MANI_RAGDOLL_BODY_NAME, nameAt);
        mcore_WriteU32(r + MANI_RAGDOLL_BODY_NAME + 4, (uint32_t)s->nameLength);
        if (s->nameLength > 0) memcpy(file + sec[2].offset + nameAt, s->name, s->nameLength);
        nameAt += (uint32_t)s->nameLength;
        ++k;
    }

    /* The header: the axes, and the model's forward and up (the axes at
     * rest: the root body's rest frame turning them). */
    const uint32_t rootBone = mcore_ReadU32(file + sec[1].offset);
    const uint8_t* rf = file + sec[1].offset + MANI_RAGDOLL_BODY_FRAME;
    const maniVec3 rp = {mcore_ReadF32(rf), mcore_ReadF32(rf + 4), mcore_ReadF32(rf + 8)};
    const maniQuat rq = {mcore_ReadF32(rf + 12), mcore_ReadF32(rf + 16), mcore_ReadF32(rf + 20), mcore_ReadF32(rf + 24)};
    const mani_Rigid64 rootFrame = mani_Rigid64FromFloats(rp, rq);
    const mani_Rigid64 rootRest = mani_Rigid64Mul(&rest[rootBone], &rootFrame);
    const double facing[3] = {source->facing.x, source->facing.y, source->facing.z};
    const double up[3] = {source->up.x, source->up.y, source->up.z};
    double mf[3], mu[3];
    mcore_QuatRotateFast64(rootRest.q, facing, mf);
    mcore_QuatRotateFast64(rootRest.q, up, mu);
    uint8_t* info = file + sec[0].offset;
    mcore_WriteU64(info, maniSkeleton_GetIdentity(skel));
    mcore_WriteU32(info + 8, bones);
    mcore_WriteU32(info + 12, count);
    mcore_WriteU32(info + 16, (uint32_t)namesSize);
    mani_WriteVec3(info + 24, source->facing);
    mani_WriteVec3(info + 36, source->up);
    mani_WriteVec3(info + 48, mani_Vec3From64(mf));
    mani_WriteVec3(info + 60, mani_Vec3From64(mu));

    mani_BuilderFree(builder, scratch, scratchSize);
    mcore_FinishContainer(file, &layout, mcore_kindRagdoll, mcore_formatRagdollLatest, MANI_ABI_VERSION);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
