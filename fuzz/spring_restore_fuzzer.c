/* Harness: maniSpringState_Restore into a state of the harness's rig, on
 * the input as given and resealed. A refused restore must leave the state's
 * memory as it was; an accepted one must step and apply, and save bytes
 * that restore again to the same save. The input sits in a block of
 * exactly its size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/spring_fuzz.h"
#include "maul/anim/pose.h"
#include "maul/anim/spring.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_Restore(const maniFixtureSpringRig* rig, const uint8_t* bytes, size_t size) {
    const size_t stateSize = maniSpringSet_GetStateSize(&rig->set), poseSize = maniSkeleton_GetPoseSize(&rig->skeleton);
    void* stateMemory = maul_FuzzAligned(stateSize);
    void* before = malloc(stateSize);
    void* poseMemory = maul_FuzzAligned(poseSize);
    maniSpringState* state = NULL;
    maniPose* pose = NULL;
    if (!stateMemory || !before || !poseMemory ||
        maniInitSpringState(&rig->set, &rig->skeleton, stateMemory, stateSize, &state) != mani_success ||
        maniInitPose(&rig->skeleton, poseMemory, poseSize, &pose) != mani_success)
        abort();
    memcpy(before, stateMemory, stateSize);
    const maniFileResult r = maniSpringState_Restore(state, bytes, size);
    if (r.result != mani_success) {
        if (memcmp(before, stateMemory, stateSize) != 0) abort();
        if (r.result == mani_errorFormat && r.offset > size) abort(); /* a truncation: at most the end */
    } else {
        size_t n = 0;
        if (maniSpringState_Save(state, NULL, 0, &n) != mani_errorCapacity || n != size) abort();
        uint8_t* again = (uint8_t*)maul_FuzzAligned(n);
        if (again == NULL || maniSpringState_Save(state, again, n, &n) != mani_success) abort();
        if (maniSpringState_Restore(state, again, n).result != mani_success) abort();
        maniTransform placement;
        maniFixtureSpringMotion(rig, 3, 0.5, pose, &placement);
        if (maniSpringState_Step(state, pose, &placement, NULL, 1.0f / 60) != mani_success) abort();
        if (maniSpringState_Apply(state, pose) != mani_success) abort();
        free(again);
    }
    free(stateMemory);
    free(before);
    free(poseMemory);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const maniFixtureSpringRig* rig = maul_FuzzSpringRig();
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maul_Restore(rig, bytes, size);
    maul_FuzzReseal(bytes, size);
    maul_Restore(rig, bytes, size);
    free(bytes);
    return 0;
}
