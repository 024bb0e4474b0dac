/* Harness: maniGraphInstance_Restore into an instance of one of the
 * harness's graphs (fuzz/graph_fuzz.h: the input's first byte picks it, the
 * rest is the state). A refused restore must leave the instance's
 * memory as it was (and name an offset within the input); an accepted one
 * must save back exactly the input's bytes, then update and evaluate to a
 * finite pose. The input sits in a block of exactly its size. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/graph_fuzz.h"
#include "maul/anim/graph.h"
#include "maul/anim/pose.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const maul_FuzzGraphs* rig = maul_FuzzGraphRig();
    if (size == 0) return 0;
    const maul_FuzzGraph* g = &rig->graphs[data[0] % MAUL_FUZZ_GRAPHS];
    const maniSkeleton* skeleton = &rig->skeleton;
    ++data;
    --size;
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    const size_t instanceSize = maniGraphBinding_GetInstanceSize(g->binding);
    const size_t scratchSize = maniGraphBinding_GetScratchSize(g->binding);
    const size_t poseSize = maniSkeleton_GetPoseSize(skeleton);
    void* memory = maul_FuzzGraphAligned(instanceSize);
    void* before = malloc(instanceSize);
    void* scratch = maul_FuzzGraphAligned(scratchSize);
    void* poseMemory = maul_FuzzGraphAligned(poseSize);
    maniGraphInstance* instance = NULL;
    maniPose* pose = NULL;
    if (!memory || !before || !scratch || !poseMemory ||
        maniInitGraphInstance(g->binding, memory, instanceSize, &instance) != mani_success ||
        maniInitPose(skeleton, poseMemory, poseSize, &pose) != mani_success)
        abort();
    memcpy(before, memory, instanceSize);
    const maniFileResult r = maniGraphInstance_Restore(instance, bytes, size);
    if (r.result != mani_success) {
        if (memcmp(before, memory, instanceSize) != 0) abort();
        if (r.offset > size) abort();
    } else {
        size_t n = 0;
        if (maniGraphInstance_Save(instance, NULL, 0, &n) != mani_errorCapacity || n != size) abort();
        uint8_t* again = (uint8_t*)malloc(n);
        if (again == NULL || maniGraphInstance_Save(instance, again, n, &n) != mani_success) abort();
        if (memcmp(again, bytes, n) != 0) abort();
        free(again);
        /* Evaluating what was restored may refuse (weights saved as they
         * were), never crash; an update then an evaluation must succeed. */
        const maniResult first = maniGraphInstance_Evaluate(instance, scratch, scratchSize, pose);
        if (first != mani_success && first != mani_errorInvalid) abort();
        maniGraphEvent events[16];
        uint32_t count = 0;
        maniRootMove move;
        const maniResult u = maniGraphInstance_Update(instance, 0.25f, events, 16, &count, &move);
        if (u != mani_success && u != mani_errorFormat) abort();
        if (!isfinite(move.translation.x) || !isfinite(move.rotation.w)) abort();
        if (maniGraphInstance_Evaluate(instance, scratch, scratchSize, pose) != mani_success) abort();
        for (uint32_t b = 0; b < maniPose_GetBoneCount(pose); ++b) {
            const maniTransform t = maniPose_GetLocal(pose, b);
            if (!isfinite(t.translation.x) || !isfinite(t.rotation.w) || !isfinite(t.scale.z)) abort();
        }
    }
    free(memory);
    free(before);
    free(scratch);
    free(poseMemory);
    free(bytes);
    return 0;
}
