/* Writes the seed corpus of graph_restore_fuzzer: for each of the harness's
 * graphs (fuzz/graph_fuzz.h), its saved states before any update and after
 * updates with set parameters and steps forward and backward, each behind
 * the byte that picks the graph. The inertialize graph's updates are each
 * evaluated (its blend starts at the evaluation after a firing), the
 * others' not (their states as they were first written).
 * Run: bazel run //fuzz/seeds:make_graph_restore_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/graph_fuzz.h"
#include "fuzz/seeds/seed_file.h"

/* Sets every parameter of an instance for step k: floats to a value in
 * [0, 1], bools alternating, triggers every other step; poses stay unset. */
static int maul_SetSeedParameters(const maniGraph* graph, maniGraphInstance* instance, int k) {
    for (uint32_t p = 0; p < maniGraph_GetParameterCount(graph); ++p) {
        maniGraphParameterType type;
        if (maniGraph_GetParameterType(graph, p, &type) != mani_success) return 0;
        maniGraphValue v;
        memset(&v, 0, sizeof v);
        if (type == maniGraphParameterFloat) {
            v.number = (float)((k * 5 + (int)p * 3) % 7) / 6.0f;
        } else if (type == maniGraphParameterBool) {
            v.flag = (uint32_t)((k + (int)p) % 2);
        } else if (type == maniGraphParameterTrigger && (k + (int)p) % 2 == 0) {
            v.flag = 1;
        } else {
            continue; /* triggers every other step; vectors, rotations and poses keep their defaults */
        }
        if (maniGraphInstance_SetParameter(instance, p, type, v) != mani_success) return 0;
    }
    return 1;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_graph_restore_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/graph_restore_fuzzer", argv[1]);
    const maul_FuzzGraphs* rig = maul_FuzzGraphRig();
    const float steps[6] = {0.0f, 0.1f, 0.45f, -0.3f, 1.7f, 0.05f};
    int status = 0;
    for (uint32_t graph = 0; graph < MAUL_FUZZ_GRAPHS; ++graph) {
        const maul_FuzzGraph* g = &rig->graphs[graph];
        const size_t instanceSize = maniGraphBinding_GetInstanceSize(g->binding);
        void* memory = maul_FuzzGraphAligned(instanceSize);
        maniGraphInstance* instance = NULL;
        if (memory == NULL || maniInitGraphInstance(g->binding, memory, instanceSize, &instance) != mani_success)
            return 1;
        const size_t scratchSize = maniGraphBinding_GetScratchSize(g->binding);
        const size_t poseSize = maniSkeleton_GetPoseSize(&rig->skeleton);
        void* scratch = maul_FuzzGraphAligned(scratchSize);
        void* poseMemory = maul_FuzzGraphAligned(poseSize);
        maniPose* pose = NULL;
        if (scratch == NULL || poseMemory == NULL ||
            maniInitPose(&rig->skeleton, poseMemory, poseSize, &pose) != mani_success)
            return 1;
        const int evaluated = maniGraph_GetNodeKind(&g->graph.graph, maniGraph_GetNodeCount(&g->graph.graph) - 1u) ==
                              maniGraphNodeInertialize;
        for (int k = 0; k < 6; ++k) {
            if (!maul_SetSeedParameters(&g->graph.graph, instance, k)) return 1;
            if (k > 0 && maniGraphInstance_Update(instance, steps[k], NULL, 0, NULL, NULL) != mani_success) return 1;
            if (k > 0 && evaluated && maniGraphInstance_Evaluate(instance, scratch, scratchSize, pose) != mani_success)
                return 1;
            size_t size = 0;
            if (maniGraphInstance_Save(instance, NULL, 0, &size) != mani_errorCapacity) return 1;
            uint8_t* seed = (uint8_t*)malloc(size + 1u);
            if (seed == NULL || maniGraphInstance_Save(instance, seed + 1, size, &size) != mani_success) return 1;
            seed[0] = (uint8_t)graph;
            char name[32];
            snprintf(name, sizeof name, "graph-%u-state-%d", graph, k);
            status |= maul_WriteSeed(dir, name, seed, size + 1u);
            free(seed);
        }
        free(memory);
        free(scratch);
        free(poseMemory);
    }
    return status;
}
