/* Suite "ragdoll": ragdoll profiles built on seeded skeletons (random,
 * chain, wide and forest shapes; bodies on a seeded subset of the first
 * root's subtree, every shape and motion), their file bytes, and on seeded
 * poses under seeded placements: the bodies with their velocities, the joint
 * targets, the pose back from the bodies and the get-up placements on level
 * and sloped grounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/build.h"
#include "maul/anim/pose.h"
#include "maul/anim/ragdoll.h"

void mconf_SuiteRagdoll(mconf_Run* run);

static maniQuat mconf_RagdollTurn(mcore_Rng* rng, float amount) {
    const float x = mcore_RngFloatRange(rng, -amount, amount), y = mcore_RngFloatRange(rng, -amount, amount);
    const float z = mcore_RngFloatRange(rng, -amount, amount);
    const double l = sqrt(1.0 + (double)x * x + (double)y * y + (double)z * z);
    maniQuat q = {(float)(x / l), (float)(y / l), (float)(z / l), (float)(1.0 / l)};
    return q;
}

static void mconf_RagdollPose(const maniSkeleton* s, maniPose* pose, uint64_t seed) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    if (maniPose_SetRest(pose, s) != mani_success) return;
    const uint32_t n = maniSkeleton_GetBoneCount(s);
    for (uint32_t i = 0; i < n; ++i) {
        maniTransform l = maniPose_GetLocal(pose, i);
        const maniQuat t = mconf_RagdollTurn(&rng, 0.4f);
        /* l.rotation * t, in binary32 as written out. */
        const maniQuat a = l.rotation;
        l.rotation.x = a.w * t.x + a.x * t.w + a.y * t.z - a.z * t.y;
        l.rotation.y = a.w * t.y - a.x * t.z + a.y * t.w + a.z * t.x;
        l.rotation.z = a.w * t.z + a.x * t.y - a.y * t.x + a.z * t.w;
        l.rotation.w = a.w * t.w - a.x * t.x - a.y * t.y - a.z * t.z;
        const double len = sqrt((double)l.rotation.x * l.rotation.x + (double)l.rotation.y * l.rotation.y +
                                (double)l.rotation.z * l.rotation.z + (double)l.rotation.w * l.rotation.w);
        l.rotation.x = (float)(l.rotation.x / len);
        l.rotation.y = (float)(l.rotation.y / len);
        l.rotation.z = (float)(l.rotation.z / len);
        l.rotation.w = (float)(l.rotation.w / len);
        l.translation.x += mcore_RngFloatRange(&rng, -0.05f, 0.05f);
        maniPose_SetLocal(pose, i, l);
    }
    if (maniPose_ComputeModel(pose, s) != mani_success) return;
}

static void mconf_RagdollBodies(mconf_Bytes* b, const maniRagdollBodyState* bodies, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k) {
        const float* f = &bodies[k].position.x;
        for (int c = 0; c < 13; ++c) mconf_BytesF32(b, f[c]);
    }
}

static maniTransform mconf_RagdollPlacement(mcore_Rng* rng) {
    maniTransform t;
    t.translation.x = mcore_RngFloatRange(rng, -5, 5);
    t.translation.y = mcore_RngFloatRange(rng, -1, 1);
    t.translation.z = mcore_RngFloatRange(rng, -5, 5);
    t.rotation = mconf_RagdollTurn(rng, 1.0f);
    t.scale.x = t.scale.y = t.scale.z = 1.0f;
    return t;
}

static void mconf_RagdollCase(mconf_Run* run, maniBuilder* builder, uint64_t seed, uint32_t boneCount,
                              maniFixtureShape shape) {
    char name[96];
    snprintf(name, sizeof name, "ragdoll-%u-%u-%llu-", (unsigned)shape, boneCount, (unsigned long long)seed);
    char* tail = name + strlen(name);
    const size_t room = sizeof name - (size_t)(tail - name);
    maniSkeletonSource src = maniFixtureMakeSkeletonSource(seed, boneCount, shape);
    size_t skeletonSize = 0;
    void* skeletonFile = maniFixtureBuildSkeleton(&src, &skeletonSize);
    maniFixtureFreeSkeletonSource(&src);
    maniSkeleton s;
    if (skeletonFile == NULL || maniOpenSkeleton(skeletonFile, skeletonSize, &s).result != mani_success) {
        snprintf(tail, room, "skeleton-failed");
        mconf_Record(run, name, 0);
        free(skeletonFile);
        return;
    }
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed ^ 0x524147444u);
    const uint32_t end = maniSkeleton_GetSubtreeEnd(&s, 0);
    maniRagdollSourceBody* bodies = (maniRagdollSourceBody*)calloc(boneCount, sizeof *bodies);
    uint32_t count = 0;
    static const char* const names[3] = {"pelvis", "limb", ""};
    for (uint32_t i = 0; bodies != NULL && i < end; ++i) {
        if (i > 0 && mcore_RngBelow(&rng, 3) == 0) continue;
        maniRagdollSourceBody* x = &bodies[count];
        x->name = names[count % 3];
        x->nameLength = strlen(x->name);
        x->bone = i;
        x->shape = mcore_RngBelow(&rng, 3);
        x->motion = mcore_RngBelow(&rng, 2);
        x->size.x = mcore_RngFloatRange(&rng, 0.05f, 0.3f);
        x->size.y = x->shape >= 1 ? mcore_RngFloatRange(&rng, 0.1f, 0.6f) : 0.0f;
        x->size.z = x->shape == 2 ? mcore_RngFloatRange(&rng, 0.05f, 0.3f) : 0.0f;
        x->mass = mcore_RngFloatRange(&rng, 0.5f, 20.0f);
        x->frame.translation.x = mcore_RngFloatRange(&rng, -0.2f, 0.2f);
        x->frame.translation.y = mcore_RngFloatRange(&rng, -0.2f, 0.2f);
        x->frame.rotation = mconf_RagdollTurn(&rng, 1.0f);
        x->joint.translation.y = mcore_RngFloatRange(&rng, -0.2f, 0.2f);
        x->joint.rotation = mconf_RagdollTurn(&rng, 1.0f);
        x->twistMin = mcore_RngFloatRange(&rng, -1.5f, 0.0f);
        x->twistMax = mcore_RngFloatRange(&rng, 0.0f, 1.5f);
        x->swingY = mcore_RngFloatRange(&rng, 0.0f, 3.0f);
        x->swingZ = mcore_RngFloatRange(&rng, 0.0f, 3.0f);
        x->driveStiffness = mcore_RngFloatRange(&rng, 0.0f, 500.0f);
        x->driveDamping = mcore_RngFloatRange(&rng, 0.0f, 50.0f);
        x->driveMaxForce = mcore_RngFloatRange(&rng, 0.0f, 1000.0f);
        ++count;
    }
    maniRagdollSource rs;
    memset(&rs, 0, sizeof rs);
    rs.skeleton = &s;
    rs.bodies = bodies;
    rs.bodyCount = count;
    rs.facing = (maniVec3){0, 0, 1};
    rs.up = (maniVec3){0, 1, 0};
    const maniBuildResult built = maniBuildRagdoll(builder, &rs);
    size_t size = 0;
    void* file = built.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &size) : NULL;
    maniRagdoll r;
    if (file == NULL || maniOpenRagdoll(file, size, &r).result != mani_success) {
        snprintf(tail, room, "build-failed");
        mconf_Record(run, name, (uint64_t)built.result << 32 | built.reason);
        free(file);
        free(bodies);
        free(skeletonFile);
        return;
    }
    mconf_Bytes b = {0};
    mconf_BytesAdd(&b, file, size);
    snprintf(tail, room, "file");
    mconf_RecordBytes(run, name, &b);

    const size_t poseSize = maniSkeleton_GetPoseSize(&s);
    void* m[3];
    maniPose* p[3] = {NULL, NULL, NULL};
    int ok = 1;
    for (int k = 0; k < 3; ++k) {
        m[k] = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
        ok = ok && m[k] != NULL && maniInitPose(&s, m[k], poseSize, &p[k]) == mani_success;
    }
    maniRagdollBodyState* states = (maniRagdollBodyState*)calloc(count, sizeof *states);
    maniRagdollJointTarget* joints = (maniRagdollJointTarget*)calloc(count, sizeof *joints);
    for (uint32_t frame = 0; ok && states != NULL && joints != NULL && frame < 4; ++frame) {
        mconf_RagdollPose(&s, p[0], seed * 31 + frame);
        mconf_RagdollPose(&s, p[1], seed * 31 + frame + 1);
        const maniTransform before = mconf_RagdollPlacement(&rng), now = mconf_RagdollPlacement(&rng);
        maniResult res = maniRagdoll_ComputeBodiesFromPose(&r, p[1], &now, p[0], &before, 1.0f / 30, states, count, NULL);
        mconf_BytesU32(&b, (uint32_t)res);
        mconf_RagdollBodies(&b, states, count);
        snprintf(tail, room, "bodies-%u", frame);
        mconf_RecordBytes(run, name, &b);
        res = maniRagdoll_ComputeJointTargets(&r, states, joints, count, NULL);
        mconf_BytesU32(&b, (uint32_t)res);
        for (uint32_t k = 0; k < count; ++k) {
            const float* f = &joints[k].rotation.x;
            for (int c = 0; c < 7; ++c) mconf_BytesF32(&b, f[c]);
        }
        snprintf(tail, room, "joints-%u", frame);
        mconf_RecordBytes(run, name, &b);
        res = maniRagdoll_ComputePoseFromBodies(&r, &s, states, count, &now, p[0], p[2]);
        mconf_BytesU32(&b, (uint32_t)res);
        for (uint32_t i = 0; i < boneCount; ++i) {
            const maniTransform t = maniPose_GetLocal(p[2], i);
            const float* f = &t.translation.x;
            for (int c = 0; c < 10; ++c) mconf_BytesF32(&b, f[c]);
        }
        snprintf(tail, room, "pose-%u", frame);
        mconf_RecordBytes(run, name, &b);
        const maniRagdollGround grounds[2] = {{{0, 0, 0}, {0, 1, 0}}, {{1, 0.5f, -1}, {0.28734788f, 0.95782629f, 0.0f}}};
        for (int g = 0; g < 2; ++g) {
            maniRagdollGetUp up;
            memset(&up, 0, sizeof up);
            res = maniRagdoll_ComputeGetUpPlacement(&r, states, count, &grounds[g], &up);
            mconf_BytesU32(&b, (uint32_t)res);
            const float* f = &up.placement.translation.x;
            for (int c = 0; c < 10; ++c) mconf_BytesF32(&b, f[c]);
            mconf_BytesF32(&b, up.heading.x);
            mconf_BytesF32(&b, up.heading.y);
            mconf_BytesF32(&b, up.heading.z);
            mconf_BytesU32(&b, up.faceUp);
        }
        snprintf(tail, room, "getup-%u", frame);
        mconf_RecordBytes(run, name, &b);
    }
    for (int k = 0; k < 3; ++k) free(m[k]);
    free(states);
    free(joints);
    mconf_BytesFree(&b);
    free(file);
    free(bodies);
    free(skeletonFile);
}

void mconf_SuiteRagdoll(mconf_Run* run) {
    maniBuilder* builder = NULL;
    maniBuilderDef def = maniDefaultBuilderDef();
    if (maniCreateBuilder(&def, &builder) != mani_success) {
        mconf_Record(run, "ragdoll-builder-failed", 0);
        return;
    }
    const uint32_t counts[4] = {1, 5, 24, 70};
    for (uint32_t shape = 0; shape < 4; ++shape)
        for (uint32_t c = 0; c < 4; ++c)
            for (uint64_t seed = 1; seed <= 2; ++seed)
                mconf_RagdollCase(run, builder, seed * 1000 + shape * 10 + c, counts[c], (maniFixtureShape)shape);
    maniDestroyBuilder(builder);
}
