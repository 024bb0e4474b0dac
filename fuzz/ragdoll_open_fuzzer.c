/* Harness: maniOpenRagdoll. On a successful open, reads every body, and,
 * when the profile is of the harness's chain skeleton of its bone count
 * (the seeds are), places bodies from the rest pose (with and without the
 * pose before), works out joint targets, the pose back from the bodies and
 * the get-up placement; then changes bytes after the open (as a host's
 * memory may be damaged) and exercises it all again: nothing may read
 * outside the bytes. The input sits in a block of exactly its size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_skeleton.h"
#include "maul/anim/pose.h"
#include "maul/anim/ragdoll.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_ExerciseRagdoll(const maniRagdoll* r, const uint8_t* bytes, size_t size) {
    (void)maniRagdoll_GetIdentity(r);
    (void)maniRagdoll_GetSkeletonIdentity(r);
    const uint32_t n = maniRagdoll_GetBodyCount(r);
    for (uint32_t k = 0; k <= n; ++k) {
        maniRagdollBody b;
        if (maniRagdoll_GetBody(r, k, &b) == mani_success && b.nameLength > 0 &&
            ((const uint8_t*)b.name < bytes || (const uint8_t*)b.name + b.nameLength > bytes + size))
            abort();
    }
    maniSkeleton s;
    if (!maul_FuzzChainSkeleton(r->boneCount, &s)) return;
    const size_t poseSize = maniSkeleton_GetPoseSize(&s);
    void* m0 = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    void* m1 = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    maniRagdollBodyState* bodies = (maniRagdollBodyState*)calloc(n + 1, sizeof *bodies);
    maniRagdollJointTarget* joints = (maniRagdollJointTarget*)calloc(n + 1, sizeof *joints);
    maniPose *a = NULL, *b = NULL;
    if (m0 && m1 && bodies && joints && maniInitPose(&s, m0, poseSize, &a) == mani_success &&
        maniInitPose(&s, m1, poseSize, &b) == mani_success && maniPose_ComputeModel(a, &s) == mani_success) {
        const maniTransform placement = {{1, 2, 3}, {0, 0.6f, 0, 0.8f}, {1, 1, 1}};
        uint32_t count = 0;
        if (maniRagdoll_ComputeBodiesFromPose(r, a, &placement, NULL, NULL, 0, bodies, n, &count) != mani_success) count = 0;
        if (maniRagdoll_ComputeBodiesFromPose(r, a, &placement, a, &placement, 0.1f, bodies, n, &count) ==
            mani_success) {
            maniResult done = maniRagdoll_ComputeJointTargets(r, bodies, joints, n, &count);
            done |= maniRagdoll_ComputePoseFromBodies(r, &s, bodies, n, &placement, a, b);
            const maniRagdollGround ground = {{0, 0, 0}, {0, 1, 0}};
            maniRagdollGetUp g;
            done |= maniRagdoll_ComputeGetUpPlacement(r, bodies, n, &ground, &g);
            (void)done;
        }
    }
    free(m0);
    free(m1);
    free(bodies);
    free(joints);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maniRagdoll r;
    if (maniOpenRagdoll(bytes, size, &r).result == mani_success) {
        maul_ExerciseRagdoll(&r, bytes, size);
        for (size_t i = 64; i < size; i += 1 + size / 32) bytes[i] ^= 0xA5;
        maul_ExerciseRagdoll(&r, bytes, size);
    }
    free(bytes);
    return 0;
}
