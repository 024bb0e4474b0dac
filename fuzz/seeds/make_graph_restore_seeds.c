/* Writes the seed corpus of graph_restore_fuzzer: saved states of the
 * harness's graph (fuzz/graph_fuzz.h) before any update and after updates
 * with set weights and steps forward and backward.
 * Run: bazel run //fuzz/seeds:make_graph_restore_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/graph_fuzz.h"
#include "fuzz/seeds/seed_file.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_graph_restore_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/graph_restore_fuzzer", argv[1]);
    const maul_FuzzGraph* g = maul_FuzzGraphRig();
    const size_t instanceSize = maniGraphBinding_GetInstanceSize(g->binding);
    void* memory = maul_FuzzGraphAligned(instanceSize);
    maniGraphInstance* instance = NULL;
    if (memory == NULL || maniInitGraphInstance(g->binding, memory, instanceSize, &instance) != mani_success) return 1;
    const float steps[6] = {0.0f, 0.1f, 0.45f, -0.3f, 1.7f, 0.05f};
    int status = 0;
    for (int k = 0; k < 6; ++k) {
        for (uint32_t p = 0; p < maniGraph_GetParameterCount(&g->graph.graph); ++p) {
            maniGraphValue v;
            memset(&v, 0, sizeof v);
            v.number = (float)((k * 5 + (int)p * 3) % 7) / 6.0f;
            if (maniGraphInstance_SetParameter(instance, p, maniGraphParameterFloat, v) != mani_success) return 1;
        }
        if (k > 0 && maniGraphInstance_Update(instance, steps[k], NULL, 0, NULL, NULL) != mani_success) return 1;
        size_t size = 0;
        if (maniGraphInstance_Save(instance, NULL, 0, &size) != mani_errorCapacity) return 1;
        void* state = malloc(size);
        if (state == NULL || maniGraphInstance_Save(instance, state, size, &size) != mani_success) return 1;
        char name[32];
        snprintf(name, sizeof name, "state-%d", k);
        status |= maul_WriteSeed(dir, name, state, size);
        free(state);
    }
    free(memory);
    return status;
}
