/* maniBuildRetargetedClip: a clip of the source carried to the target
 * through a retarget map, sample by sample, baked into a full-precision clip
 * (retargetbuild.h). */
#include <string.h>

#include "lib/anim/src/build/bake_clip_internal.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/retarget/retarget_format.h"
#include "maul/anim/retargetbuild.h"

/* The scratch of a build, freed before it returns. */
typedef struct {
    void* sourcePoses; /* two poses of the source: read, work */
    void* targetPoses; /* two poses of the target: work, the source's rest carried */
    void* turns;       /* the retarget scratch */
    float* locals;     /* n x target bones x 10 */
    float* floats;     /* n x float tracks */
    float* moves;      /* n x 8 */
    size_t sourcePoseSize, targetPoseSize, turnsSize, localsSize, floatsSize, movesSize;
} mani_RetargetClipScratch;

static void mani_RetargetClipFree(maniBuilder* b, mani_RetargetClipScratch* x) {
    mani_BuilderFree(b, x->sourcePoses, 2 * x->sourcePoseSize);
    mani_BuilderFree(b, x->targetPoses, 2 * x->targetPoseSize);
    mani_BuilderFree(b, x->turns, x->turnsSize);
    mani_BuilderFree(b, x->locals, x->localsSize);
    mani_BuilderFree(b, x->floats, x->floatsSize);
    mani_BuilderFree(b, x->moves, x->movesSize);
}

static void mani_PutLocal(float* out, maniTransform t) {
    const float v[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                         t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
    memcpy(out, v, sizeof v);
}

static size_t mani_PoseBytes(const maniSkeleton* s) {
    return (maniSkeleton_GetPoseSize(s) + MANI_POSE_ALIGNMENT - 1) / MANI_POSE_ALIGNMENT * MANI_POSE_ALIGNMENT;
}

/* The first target bone whose plan follows the source bone alone (a bone's
 * or the pelvis's plan), or MANI_NO_BONE. */
static uint32_t mani_FollowerOf(const maniRetargetMap* map, uint32_t sourceBone) {
    for (uint32_t i = 0; i < map->targetBoneCount; ++i) {
        const uint8_t* plan = map->bytes + map->plans + (uint64_t)MANI_RETARGET_PLAN_SIZE * i;
        const uint32_t kind = mcore_ReadU32(plan);
        if ((kind == MANI_RETARGET_KIND_BONE || kind == MANI_RETARGET_KIND_PELVIS) &&
            mcore_ReadU32(plan + 4) == sourceBone)
            return i;
    }
    return MANI_NO_BONE;
}

maniBuildResult maniBuildRetargetedClip(maniBuilder* builder, const maniRetargetClipSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniRetargetMap* map = source->map;
    const maniSkeleton* from = source->source;
    const maniSkeleton* to = source->target;
    const maniClip* clip = source->clip;
    if (map == NULL || from == NULL || to == NULL || clip == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    const uint32_t ns = maniSkeleton_GetBoneCount(from), nt = maniSkeleton_GetBoneCount(to);
    if (ns == 0 || maniRetargetMap_GetSourceIdentity(map) != maniSkeleton_GetIdentity(from) ||
        map->sourceBoneCount != ns)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonRetargetClip, 0, 0);
    if (nt == 0 || maniRetargetMap_GetTargetIdentity(map) != maniSkeleton_GetIdentity(to) ||
        map->targetBoneCount != nt)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonRetargetClip, 0, 1);
    if (maniClip_GetSampleCount(clip) == 0 || maniClip_GetSkeletonIdentity(clip) != maniSkeleton_GetIdentity(from) ||
        clip->boneCount != ns)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonRetargetClip, 0, 2);

    /* Root motion: carried by the target bone following its bone alone. */
    uint32_t rootBone = MANI_NO_BONE, rootFlags = 0;
    float turn[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    if (clip->rootFlags != 0) {
        rootBone = mani_FollowerOf(map, clip->rootBone);
        if (rootBone >= nt) return mani_BuildResult(mani_errorInvalid, maniBuildReasonRootMotion, rootBone, 0);
        const uint8_t* p = map->bytes + map->plans + (uint64_t)MANI_RETARGET_PLAN_SIZE * rootBone +
                           MANI_RETARGET_PLAN_TURN_AT + 48;
        for (int j = 0; j < 4; ++j) turn[j] = mcore_ReadF32(p + 4 * j);
        rootFlags = mani_BakeTurnRootFlags(clip->rootFlags, turn);
    }

    const uint32_t n = clip->sampleCount, floatCount = clip->floatTrackCount;
    const int additive = clip->additive != maniAdditiveNone;
    const maniBuildResult noMemory = mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    mani_RetargetClipScratch x;
    memset(&x, 0, sizeof x);
    x.sourcePoseSize = mani_PoseBytes(from);
    x.targetPoseSize = mani_PoseBytes(to);
    x.turnsSize = maniRetargetMap_GetScratchSize(map);
    x.localsSize = (size_t)n * nt * 10 * sizeof(float);
    x.floatsSize = (size_t)n * floatCount * sizeof(float);
    x.movesSize = (size_t)n * 8 * sizeof(float);
    x.sourcePoses = mani_BuilderAlloc(builder, 2 * x.sourcePoseSize, MANI_POSE_ALIGNMENT);
    x.targetPoses = mani_BuilderAlloc(builder, 2 * x.targetPoseSize, MANI_POSE_ALIGNMENT);
    x.turns = mani_BuilderAlloc(builder, x.turnsSize, 16);
    x.locals = (float*)mani_BuilderAlloc(builder, x.localsSize, 16);
    x.floats = (float*)mani_BuilderAlloc(builder, x.floatsSize, 16);
    x.moves = (float*)mani_BuilderAlloc(builder, x.movesSize, 16);
    if (x.sourcePoses == NULL || x.targetPoses == NULL || x.turns == NULL || x.locals == NULL ||
        (x.floatsSize > 0 && x.floats == NULL) || x.moves == NULL) {
        mani_RetargetClipFree(builder, &x);
        return noMemory;
    }
    maniPose* readPose = NULL;
    maniPose* sourceWork = NULL;
    maniPose* targetWork = NULL;
    maniPose* restCarried = NULL;
    uint8_t* sp = (uint8_t*)x.sourcePoses;
    uint8_t* tp = (uint8_t*)x.targetPoses;
    if (maniInitPose(from, sp, x.sourcePoseSize, &readPose) != mani_success ||
        maniInitPose(from, sp + x.sourcePoseSize, x.sourcePoseSize, &sourceWork) != mani_success ||
        maniInitPose(to, tp, x.targetPoseSize, &targetWork) != mani_success ||
        maniInitPose(to, tp + x.targetPoseSize, x.targetPoseSize, &restCarried) != mani_success ||
        maniRetargetMap_RetargetPose(map, from, sourceWork, to, restCarried, x.turns, x.turnsSize) != mani_success) {
        mani_RetargetClipFree(builder, &x);
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonRetargetClip, 0, 0);
    }

    for (uint32_t k = 0; k < n; ++k) {
        float* move = x.moves + 8ull * k;
        if (mani_BakeReadSample(clip, from, k, readPose, floatCount > 0 ? x.floats + (size_t)k * floatCount : NULL, move) != 0) {
            mani_RetargetClipFree(builder, &x);
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonRetargetClip, 0, 2);
        }
        const maniPose* carried = readPose;
        if (additive) {
            for (uint32_t bone = 0; bone < ns; ++bone)
                mani_PoseSetLocalRaw(sourceWork, bone,
                                     mani_BakeAddToBase(maniSkeleton_GetRest(from, bone),
                                                        mani_PoseGetLocalRaw(readPose, bone)));
            sourceWork->flags &= ~MANI_POSE_MODEL_CURRENT;
            carried = sourceWork;
        }
        if (maniRetargetMap_RetargetPose(map, from, carried, to, targetWork, x.turns, x.turnsSize) != mani_success) {
            mani_RetargetClipFree(builder, &x);
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonRetargetClip, 0, 2);
        }
        float* out = x.locals + (size_t)k * nt * 10;
        for (uint32_t bone = 0; bone < nt; ++bone) {
            const maniTransform t = mani_PoseGetLocalRaw(targetWork, bone);
            mani_PutLocal(out + 10ull * bone,
                          additive ? mani_BakeDifference(mani_PoseGetLocalRaw(restCarried, bone), t) : t);
        }
        if (rootFlags != 0) {
            const maniVec3 d = {move[0], move[1], move[2]};
            const maniVec3 scaled = maniRetargetMap_RetargetRootMotion(map, d);
            move[0] = scaled.x;
            move[1] = scaled.y;
            move[2] = scaled.z;
            mani_BakeTurnMove(move, turn);
        }
    }

    mani_BakedClip bake;
    memset(&bake, 0, sizeof bake);
    bake.skeleton = to;
    bake.from = clip;
    bake.locals = x.locals;
    bake.floats = x.floats;
    bake.rootBone = rootBone;
    bake.rootFlags = rootFlags;
    bake.rootMoves = x.moves;
    bake.rename = NULL;
    const maniBuildResult kept = mani_BakeClipKeep(builder, &bake, maniBuildReasonRetargetClip, 2);
    mani_RetargetClipFree(builder, &x);
    return kept;
}
