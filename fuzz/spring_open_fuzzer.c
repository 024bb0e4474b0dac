/* Harness: maniOpenSpringSet, on the input as given and resealed (its
 * identity rewritten so mutations reach the record checks). On a
 * successful open every accessor runs; a set of the harness's rig (the
 * seeds are) makes a state that steps, applies, saves and restores; then
 * bytes change after the open (as a host's memory may be damaged) and it
 * all runs again: nothing may read outside the bytes. The input sits in a
 * block of exactly its size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/spring_fuzz.h"
#include "maul/anim/pose.h"
#include "maul/anim/spring.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_ExerciseSprings(const maniSpringSet* set) {
    (void)maniSpringSet_GetIdentity(set);
    (void)maniSpringSet_GetSkeletonIdentity(set);
    float ref = 0;
    (void)maniSpringSet_GetStepRate(set, &ref);
    const uint32_t n = maniSpringSet_GetSpringCount(set);
    for (uint32_t k = 0; k <= n && k < 256; ++k) {
        size_t len = 0;
        const char* name = maniSpringSet_GetSpringName(set, k, &len);
        if (name != NULL && ((const uint8_t*)name < set->bytes || (const uint8_t*)name + len > set->bytes + set->size))
            abort();
    }
    const maniFixtureSpringRig* rig = maul_FuzzSpringRig();
    if (maniSpringSet_GetSkeletonIdentity(set) != maniSkeleton_GetIdentity(&rig->skeleton)) return;
    const size_t stateSize = maniSpringSet_GetStateSize(set), poseSize = maniSkeleton_GetPoseSize(&rig->skeleton);
    void* stateMemory = maul_FuzzAligned(stateSize);
    void* poseMemory = maul_FuzzAligned(poseSize);
    maniSpringState* state = NULL;
    maniPose* pose = NULL;
    if (stateMemory && poseMemory && maniInitSpringState(set, &rig->skeleton, stateMemory, stateSize, &state) == mani_success &&
        maniInitPose(&rig->skeleton, poseMemory, poseSize, &pose) == mani_success) {
        for (int i = 1; i <= 6; ++i) {
            maniTransform placement;
            maniFixtureSpringMotion(rig, 7, i / 30.0, pose, &placement);
            if (maniSpringState_Step(state, pose, &placement, NULL, 1.0f / 30) != mani_success) abort();
            if (maniSpringState_Apply(state, pose) != mani_success) abort();
        }
        size_t saved = 0;
        if (maniSpringState_Save(state, NULL, 0, &saved) != mani_errorCapacity) abort();
        void* bytes = maul_FuzzAligned(saved);
        if (bytes && maniSpringState_Save(state, bytes, saved, &saved) == mani_success) {
            /* Damaged views may step to any finite-or-not values, but what
             * was saved from an intact one restores. */
            const maniFileResult restored = maniSpringState_Restore(state, bytes, saved);
            if (restored.result != mani_success && restored.result != mani_errorFormat) abort();
        }
        free(bytes);
    }
    free(stateMemory);
    free(poseMemory);
}

static void maul_OpenAndExercise(uint8_t* bytes, size_t size) {
    maniSpringSet set;
    if (maniOpenSpringSet(bytes, size, &set).result != mani_success) return;
    maul_ExerciseSprings(&set);
    for (size_t i = 64; i < size; i += 1 + size / 32) bytes[i] ^= 0xA5;
    maul_ExerciseSprings(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maul_OpenAndExercise(bytes, size);
    memcpy(bytes, data, size);
    maul_FuzzReseal(bytes, size);
    maul_OpenAndExercise(bytes, size);
    free(bytes);
    return 0;
}
