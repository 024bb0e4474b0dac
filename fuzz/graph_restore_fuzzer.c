/* Harness: maniGraphInstance_Restore into an instance of one of the
 * harness's graphs (fuzz/graph_fuzz.h: the input's first byte picks it, the
 * rest is the state). A refused restore must leave the instance's
 * memory as it was (and name an offset within the input); an accepted one
 * must save back exactly the input's bytes, then update and evaluate to a
 * finite pose when its pose parameters are within 2^64 (an additive layer
 * multiplies a scale by up to its difference's factor, as maniPose_AddLayers'
 * formula gives, so a finite pose parameter near the float range may leave
 * it: graph.h, maniGraphInstance_Evaluate). The input sits in a block of
 * exactly its size. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/graph_fuzz.h"
#include "maul/anim/graph.h"
#include "maul/anim/pose.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* Whether every pose parameter's translations and scales are within 2^64
 * (pose is scratch of the skeleton's size). */
static int maul_PoseParametersModerate(const maniGraph* graph, const maniGraphInstance* instance, maniPose* pose) {
    for (uint32_t p = 0; p < maniGraph_GetParameterCount(graph); ++p) {
        maniGraphParameterType type;
        if (maniGraph_GetParameterType(graph, p, &type) != mani_success) abort();
        if (type != maniGraphParameterPose) continue;
        if (maniGraphInstance_GetPose(instance, p, pose) != mani_success) abort();
        for (uint32_t b = 0; b < maniPose_GetBoneCount(pose); ++b) {
            const maniTransform t = maniPose_GetLocal(pose, b);
            const float v[6] = {t.translation.x, t.translation.y, t.translation.z, t.scale.x, t.scale.y, t.scale.z};
            for (int k = 0; k < 6; ++k)
                if (!(fabsf(v[k]) <= 0x1p64f)) return 0;
        }
    }
    return 1;
}

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
        const int moderate = maul_PoseParametersModerate(&g->graph.graph, instance, pose);
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
        for (uint32_t b = 0; moderate && b < maniPose_GetBoneCount(pose); ++b) {
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
