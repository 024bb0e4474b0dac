/* Harness: maniOpenRetargetMap. On a successful open, exercises every
 * accessor and root motion scaling and, when the map is between the
 * harness's chain skeletons of its bone counts (the seeds are), retargets
 * poses (the rest, and the result retargeted again where the map's two
 * skeletons are one); then changes bytes after the open (as a host's memory
 * may be damaged) and exercises it all again: nothing may read outside the
 * bytes. The input sits in a block of exactly its size. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_skeleton.h"
#include "maul/anim/pose.h"
#include "maul/anim/retarget.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static maniPose* maul_NewPose(const maniSkeleton* s, void** memory) {
    const size_t poseSize = maniSkeleton_GetPoseSize(s);
    *memory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    maniPose* p = NULL;
    if (*memory == NULL || maniInitPose(s, *memory, poseSize, &p) != mani_success) return NULL;
    return p;
}

static void maul_ExerciseRetarget(const maniRetargetMap* m) {
    (void)maniRetargetMap_GetIdentity(m);
    (void)maniRetargetMap_GetSourceIdentity(m);
    (void)maniRetargetMap_GetTargetIdentity(m);
    const maniVec3 d = {1, 2, 3};
    (void)maniRetargetMap_RetargetRootMotion(m, d);
    const size_t scratchSize = maniRetargetMap_GetScratchSize(m);
    maniSkeleton s, t;
    if (scratchSize == 0 || !maul_FuzzChainSkeleton(m->sourceBoneCount, &s)) return;
    if (!maul_FuzzChainSkeleton(m->targetBoneCount, &t)) return;
    void *m0 = NULL, *m1 = NULL;
    void* scratch = aligned_alloc(16, (scratchSize + 15) / 16 * 16);
    maniPose* a = maul_NewPose(&s, &m0);
    maniPose* b = maul_NewPose(&t, &m1);
    if (scratch && a && b) {
        const maniResult r = maniRetargetMap_RetargetPose(m, &s, a, &t, b, scratch, scratchSize);
        if (r == mani_success) {
            if (maniPose_ComputeModel(b, &t) != mani_success) abort();
            if (m->sourceBoneCount == m->targetBoneCount) {
                void* m2 = NULL;
                maniPose* c = maul_NewPose(&s, &m2);
                if (c && maniRetargetMap_RetargetPose(m, &s, b, &t, c, scratch, scratchSize) != mani_success) abort();
                free(m2);
            }
        }
    }
    free(scratch);
    free(m0);
    free(m1);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maniRetargetMap m;
    if (maniOpenRetargetMap(bytes, size, &m).result == mani_success) {
        maul_ExerciseRetarget(&m);
        for (size_t i = 64; i < size; i += 1 + size / 32) bytes[i] ^= 0xA5;
        maul_ExerciseRetarget(&m);
    }
    free(bytes);
    return 0;
}
