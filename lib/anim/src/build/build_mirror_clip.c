/* maniBuildMirroredClip: a clip mirrored through a mirror map, sample by
 * sample, baked into a full-precision clip (mirrorbuild.h). */
#include <string.h>

#include "lib/anim/src/build/bake_clip_internal.h"
#include "lib/anim/src/mirror/mirror_format.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "maul/anim/mirrorbuild.h"

/* The scratch of a build, freed before it returns. */
typedef struct {
    void* poses;    /* three poses: read, work, the rest mirrored */
    float* locals;  /* n x bones x 10 */
    float* floats;  /* n x float tracks */
    float* moves;   /* n x 8 */
    size_t poseSize, localsSize, floatsSize, movesSize;
} mani_MirrorClipScratch;

static void mani_MirrorClipFree(maniBuilder* b, mani_MirrorClipScratch* x) {
    mani_BuilderFree(b, x->poses, 3 * x->poseSize);
    mani_BuilderFree(b, x->locals, x->localsSize);
    mani_BuilderFree(b, x->floats, x->floatsSize);
    mani_BuilderFree(b, x->moves, x->movesSize);
}

static void mani_PutLocal(float* out, maniTransform t) {
    const float v[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                         t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
    memcpy(out, v, sizeof v);
}

maniBuildResult maniBuildMirroredClip(maniBuilder* builder, const maniMirrorClipSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniMirrorMap* map = source->map;
    const maniSkeleton* skeleton = source->skeleton;
    const maniClip* clip = source->clip;
    if (map == NULL || skeleton == NULL || clip == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
    const uint64_t skeletonIdentity = maniSkeleton_GetIdentity(skeleton);
    if (bones == 0 || maniMirrorMap_GetSkeletonIdentity(map) != skeletonIdentity || map->boneCount != bones)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorClip, 0, 0);
    if (maniClip_GetSampleCount(clip) == 0 || maniClip_GetSkeletonIdentity(clip) != skeletonIdentity ||
        clip->boneCount != bones)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorClip, 0, 1);

    const uint32_t n = clip->sampleCount, floatCount = clip->floatTrackCount;
    const int additive = clip->additive != maniAdditiveNone;
    const maniBuildResult noMemory = mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    mani_MirrorClipScratch x;
    memset(&x, 0, sizeof x);
    x.poseSize = (maniSkeleton_GetPoseSize(skeleton) + MANI_POSE_ALIGNMENT - 1) / MANI_POSE_ALIGNMENT *
                 MANI_POSE_ALIGNMENT;
    x.localsSize = (size_t)n * bones * 10 * sizeof(float);
    x.floatsSize = (size_t)n * floatCount * sizeof(float);
    x.movesSize = (size_t)n * 8 * sizeof(float);
    x.poses = mani_BuilderAlloc(builder, 3 * x.poseSize, MANI_POSE_ALIGNMENT);
    x.locals = (float*)mani_BuilderAlloc(builder, x.localsSize, 16);
    x.floats = (float*)mani_BuilderAlloc(builder, x.floatsSize, 16);
    x.moves = (float*)mani_BuilderAlloc(builder, x.movesSize, 16);
    if (x.poses == NULL || x.locals == NULL || (x.floatsSize > 0 && x.floats == NULL) || x.moves == NULL) {
        mani_MirrorClipFree(builder, &x);
        return noMemory;
    }
    maniPose* readPose = NULL;
    maniPose* workPose = NULL;
    maniPose* restPose = NULL;
    uint8_t* poseBytes = (uint8_t*)x.poses;
    if (maniInitPose(skeleton, poseBytes, x.poseSize, &readPose) != mani_success ||
        maniInitPose(skeleton, poseBytes + x.poseSize, x.poseSize, &workPose) != mani_success ||
        maniInitPose(skeleton, poseBytes + 2 * x.poseSize, x.poseSize, &restPose) != mani_success ||
        maniMirrorMap_MirrorPose(map, skeleton, restPose, restPose) != mani_success) {
        mani_MirrorClipFree(builder, &x);
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorClip, 0, 0);
    }

    /* Root motion moves to the root bone's partner, through its parent-side
     * correction. */
    uint32_t rootBone = MANI_NO_BONE, rootFlags = 0;
    float before[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    if (clip->rootFlags != 0 && clip->rootBone < bones) {
        rootBone = maniMirrorMap_GetPartner(map, clip->rootBone);
        const uint8_t* p = map->bytes + map->corrections + 4ull * MANI_MIRROR_CORRECTION_FLOATS * rootBone;
        for (int j = 0; j < 4; ++j) before[j] = mcore_ReadF32(p + 4 * j);
        rootFlags = mani_BakeTurnRootFlags(clip->rootFlags, before);
    }

    for (uint32_t k = 0; k < n; ++k) {
        float* move = x.moves + 8ull * k;
        if (mani_BakeReadSample(clip, skeleton, k, readPose, floatCount > 0 ? x.floats + (size_t)k * floatCount : NULL, move) != 0) {
            mani_MirrorClipFree(builder, &x);
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorClip, 0, 1);
        }
        float* out = x.locals + (size_t)k * bones * 10;
        if (additive) {
            for (uint32_t bone = 0; bone < bones; ++bone)
                mani_PoseSetLocalRaw(workPose, bone,
                                     mani_BakeAddToBase(maniSkeleton_GetRest(skeleton, bone),
                                                        mani_PoseGetLocalRaw(readPose, bone)));
            if (maniMirrorMap_MirrorPose(map, skeleton, workPose, workPose) != mani_success) {
                mani_MirrorClipFree(builder, &x);
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorClip, 0, 0);
            }
            for (uint32_t bone = 0; bone < bones; ++bone)
                mani_PutLocal(out + 10ull * bone, mani_BakeDifference(mani_PoseGetLocalRaw(restPose, bone),
                                                                      mani_PoseGetLocalRaw(workPose, bone)));
        } else {
            if (maniMirrorMap_MirrorPose(map, skeleton, readPose, workPose) != mani_success) {
                mani_MirrorClipFree(builder, &x);
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorClip, 0, 1);
            }
            for (uint32_t bone = 0; bone < bones; ++bone)
                mani_PutLocal(out + 10ull * bone, mani_PoseGetLocalRaw(workPose, bone));
        }
        if (rootFlags != 0) {
            maniRootMove m = {{move[0], move[1], move[2]}, {move[4], move[5], move[6], move[7]}};
            m = maniMirrorMap_MirrorRootMotion(map, m);
            const float v[8] = {m.translation.x, m.translation.y, m.translation.z, 0.0f,
                                m.rotation.x,    m.rotation.y,    m.rotation.z,    m.rotation.w};
            memcpy(move, v, sizeof v);
            mani_BakeTurnMove(move, before);
        }
    }

    mani_BakedClip bake;
    memset(&bake, 0, sizeof bake);
    bake.skeleton = skeleton;
    bake.from = clip;
    bake.locals = x.locals;
    bake.floats = x.floats;
    bake.rootBone = rootBone;
    bake.rootFlags = rootFlags;
    bake.rootMoves = x.moves;
    bake.rename = map;
    const maniBuildResult kept = mani_BakeClipKeep(builder, &bake, maniBuildReasonMirrorClip, 1);
    mani_MirrorClipFree(builder, &x);
    return kept;
}
