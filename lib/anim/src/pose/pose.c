/* pose.h: poses in caller memory, and composing their model matrices. */
#include <string.h>

#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"

_Static_assert(sizeof(struct maniPose) == 64, "pose header is 64 bytes");
_Static_assert(sizeof(maniSimdTransformx8) == 320 && sizeof(maniSimdAffinex8) == 384, "group sizes");

int mani_PoseOk(const maniPose* pose) {
    return pose != NULL && pose->magic == MANI_POSE_MAGIC && pose->boneCount >= 1 && pose->boneCount <= MANI_MAX_BONES &&
           pose->groupCount == (pose->boneCount + 7) / 8;
}

static size_t mani_PoseBytes(uint32_t boneCount) {
    size_t groups = (boneCount + 7) / 8;
    return sizeof(struct maniPose) + groups * (sizeof(maniSimdTransformx8) + sizeof(maniSimdAffinex8));
}

size_t maniSkeleton_GetPoseSize(const maniSkeleton* skeleton) {
    if (!mani_SkeletonViewOk(skeleton)) return 0;
    return mani_PoseBytes(skeleton->boneCount);
}

maniTransform mani_PoseGetLocalRaw(const maniPose* pose, uint32_t bone) {
    return mani_GroupGetLane(&mani_PoseLocals(pose)[bone / 8], bone % 8);
}

void mani_PoseSetLocalRaw(maniPose* pose, uint32_t bone, maniTransform t) {
    mani_GroupSetLane(&mani_PoseLocals(pose)[bone / 8], bone % 8, t);
}

void mani_PoseRestGroup(const maniSkeleton* skeleton, uint32_t g, maniSimdTransformx8* out) {
    for (uint32_t l = 0; l < MANI_SIMD_LANES; ++l) {
        const uint32_t b = g * MANI_SIMD_LANES + l;
        mani_GroupSetLane(out, l, b < skeleton->boneCount ? mani_SkeletonRestRaw(skeleton, b) : mani_IdentityTransform());
    }
}

static maniAffine mani_PoseGetModelRaw(const maniPose* pose, uint32_t bone) {
    const maniSimdAffinex8* g = &mani_PoseModels(pose)[bone / 8];
    uint32_t l = bone % 8;
    maniAffine a;
    for (int c = 0; c < 4; ++c) {
        a.columns[c].x = g->c[c].x[l];
        a.columns[c].y = g->c[c].y[l];
        a.columns[c].z = g->c[c].z[l];
    }
    return a;
}

/* Sets every local (the lanes past the count too, to the identity) to the
 * skeleton's rest. The view must be ok and of the pose's bone count. */
static void mani_PoseWriteRest(maniPose* pose, const maniSkeleton* skeleton) {
    maniTransform identity = mani_IdentityTransform();
    for (uint32_t b = 0; b < pose->groupCount * 8; ++b)
        mani_PoseSetLocalRaw(pose, b, b < pose->boneCount ? mani_SkeletonRestRaw(skeleton, b) : identity);
    pose->flags &= ~(MANI_POSE_DIFFERENCE | MANI_POSE_MODEL_CURRENT);
}

/* The local matrices of every group through the kernel layer, then each
 * bone's parent model times its local in bone order (parents first) by
 * maniSimdSingle_AffineMul: the AffineMul kernel's own per-lane math, so
 * row r of column j is ((p.c0.r * l.cj.x + p.c1.r * l.cj.y) + p.c2.r *
 * l.cj.z), plus p.c3.r for the translation. */
static maniResult mani_PoseCompose(maniPose* pose, const maniSkeleton* skeleton) {
    maniSimdAffinex8* models = mani_PoseModels(pose);
    maniSimd_TransformToAffine(models, mani_PoseLocals(pose), pose->groupCount);
    if (maniSimd_ComposeModels(models, mani_SkeletonParentsRaw(skeleton), pose->boneCount) != pose->boneCount) {
        pose->flags &= ~MANI_POSE_MODEL_CURRENT;
        return mani_errorFormat;
    }
    pose->flags |= MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

maniResult maniInitPose(const maniSkeleton* skeleton, void* memory, size_t size, maniPose** poseOut) {
    if (skeleton == NULL || memory == NULL || poseOut == NULL) return mani_errorInvalid;
    if (((uintptr_t)memory % MANI_POSE_ALIGNMENT) != 0 || !mani_SkeletonViewOk(skeleton)) return mani_errorInvalid;
    size_t need = mani_PoseBytes(skeleton->boneCount);
    if (size < need) return mani_errorCapacity;
    maniPose* pose = (maniPose*)memory;
    memset(pose, 0, need);
    pose->magic = MANI_POSE_MAGIC;
    pose->boneCount = skeleton->boneCount;
    pose->groupCount = (skeleton->boneCount + 7) / 8;
    pose->skeletonIdentity = skeleton->identity;
    mani_PoseWriteRest(pose, skeleton);
    *poseOut = pose;
    return mani_PoseCompose(pose, skeleton);
}

uint32_t maniPose_GetBoneCount(const maniPose* pose) { return mani_PoseOk(pose) ? pose->boneCount : 0; }

maniTransform maniPose_GetLocal(const maniPose* pose, uint32_t bone) {
    if (!mani_PoseOk(pose) || bone >= pose->boneCount) return mani_IdentityTransform();
    return mani_PoseGetLocalRaw(pose, bone);
}

void maniPose_SetLocal(maniPose* pose, uint32_t bone, maniTransform transform) {
    if (!mani_PoseOk(pose) || bone >= pose->boneCount) return;
    mani_PoseSetLocalRaw(pose, bone, transform);
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
}

static int mani_RangeOk(const maniPose* pose, uint32_t first, uint32_t count) {
    return first <= pose->boneCount && count <= pose->boneCount - first;
}

maniResult maniPose_ReadLocals(const maniPose* pose, uint32_t first, uint32_t count, maniTransform* out) {
    if (!mani_PoseOk(pose) || out == NULL || !mani_RangeOk(pose, first, count)) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i) out[i] = mani_PoseGetLocalRaw(pose, first + i);
    return mani_success;
}

maniResult maniPose_WriteLocals(maniPose* pose, uint32_t first, uint32_t count, const maniTransform* transforms) {
    if (!mani_PoseOk(pose) || transforms == NULL || !mani_RangeOk(pose, first, count)) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i) mani_PoseSetLocalRaw(pose, first + i, transforms[i]);
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

static int mani_SkeletonMatches(const maniPose* pose, const maniSkeleton* skeleton) {
    return mani_SkeletonViewOk(skeleton) && skeleton->identity == pose->skeletonIdentity &&
           skeleton->boneCount == pose->boneCount;
}

maniResult maniPose_SetRest(maniPose* pose, const maniSkeleton* skeleton) {
    if (!mani_PoseOk(pose) || skeleton == NULL || !mani_SkeletonMatches(pose, skeleton)) return mani_errorInvalid;
    mani_PoseWriteRest(pose, skeleton);
    return mani_PoseCompose(pose, skeleton);
}

maniResult maniPose_ComputeModel(maniPose* pose, const maniSkeleton* skeleton) {
    if (!mani_PoseOk(pose) || skeleton == NULL || !mani_SkeletonMatches(pose, skeleton)) return mani_errorInvalid;
    if (pose->flags & MANI_POSE_DIFFERENCE) return mani_errorInvalid;
    return mani_PoseCompose(pose, skeleton);
}

bool maniPose_IsModelCurrent(const maniPose* pose) {
    return mani_PoseOk(pose) && (pose->flags & MANI_POSE_MODEL_CURRENT) != 0;
}

bool maniPose_IsDifference(const maniPose* pose) {
    return mani_PoseOk(pose) && (pose->flags & MANI_POSE_DIFFERENCE) != 0;
}

maniAffine maniPose_GetModel(const maniPose* pose, uint32_t bone) {
    if (!mani_PoseOk(pose) || bone >= pose->boneCount) return mani_IdentityAffine();
    return mani_PoseGetModelRaw(pose, bone);
}

maniResult maniPose_ReadModels(const maniPose* pose, uint32_t first, uint32_t count, maniAffine* out) {
    if (!mani_PoseOk(pose) || out == NULL || !mani_RangeOk(pose, first, count)) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i) out[i] = mani_PoseGetModelRaw(pose, first + i);
    return mani_success;
}

maniTransform maniPose_GetModelTransform(const maniPose* pose, uint32_t bone) {
    maniTransform t = mani_IdentityTransform();
    if (!mani_PoseOk(pose) || bone >= pose->boneCount) return t;
    maniAffine a = mani_PoseGetModelRaw(pose, bone);
    if (maniDecomposeAffine(&a, &t) != mani_success) return mani_IdentityTransform();
    return t;
}
