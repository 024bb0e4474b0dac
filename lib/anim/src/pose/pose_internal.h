/* The pose's memory layout (caller memory, no pointers): a 64-byte header,
 * then the locals and the model matrices in groups of eight bones. */
#ifndef MAUL_ANIM_POSE_INTERNAL_H
#define MAUL_ANIM_POSE_INTERNAL_H

#include "lib/anim/src/simd/simd.h"
#include "maul/anim/pose.h"

#define MANI_POSE_MAGIC 0x45534F50u /* "POSE" */
#define MANI_POSE_MODEL_CURRENT 1u
#define MANI_POSE_DIFFERENCE 2u

struct maniPose {
    uint32_t magic;
    uint32_t boneCount;
    uint32_t groupCount;
    uint32_t flags;
    uint64_t skeletonIdentity;
    uint8_t reserved[40];
};

static inline maniSimdTransformx8* mani_PoseLocals(const maniPose* pose) {
    return (maniSimdTransformx8*)(void*)((uint8_t*)(uintptr_t)pose + sizeof(struct maniPose));
}

static inline maniSimdAffinex8* mani_PoseModels(const maniPose* pose) {
    return (maniSimdAffinex8*)(void*)((uint8_t*)mani_PoseLocals(pose) + sizeof(maniSimdTransformx8) * pose->groupCount);
}

/* Lane l (0..7) of a transform group, and setting it. */
static inline maniTransform mani_GroupGetLane(const maniSimdTransformx8* g, uint32_t l) {
    maniTransform t;
    t.translation.x = g->translation.x[l];
    t.translation.y = g->translation.y[l];
    t.translation.z = g->translation.z[l];
    t.rotation.x = g->rotation.x[l];
    t.rotation.y = g->rotation.y[l];
    t.rotation.z = g->rotation.z[l];
    t.rotation.w = g->rotation.w[l];
    t.scale.x = g->scale.x[l];
    t.scale.y = g->scale.y[l];
    t.scale.z = g->scale.z[l];
    return t;
}

static inline void mani_GroupSetLane(maniSimdTransformx8* g, uint32_t l, maniTransform t) {
    g->translation.x[l] = t.translation.x;
    g->translation.y[l] = t.translation.y;
    g->translation.z[l] = t.translation.z;
    g->rotation.x[l] = t.rotation.x;
    g->rotation.y[l] = t.rotation.y;
    g->rotation.z[l] = t.rotation.z;
    g->rotation.w[l] = t.rotation.w;
    g->scale.x[l] = t.scale.x;
    g->scale.y[l] = t.scale.y;
    g->scale.z[l] = t.scale.z;
}

/* The rests of group g's bones as a transform group, the identity past the
 * skeleton's bones (skeleton view ok). */
void mani_PoseRestGroup(const maniSkeleton* skeleton, uint32_t g, maniSimdTransformx8* out);

/* Whether pose is a pose maniInitPose made (its header intact). */
int mani_PoseOk(const maniPose* pose);

maniTransform mani_PoseGetLocalRaw(const maniPose* pose, uint32_t bone);
void mani_PoseSetLocalRaw(maniPose* pose, uint32_t bone, maniTransform t);

#endif
