/* What the graph restore harness and its seed maker share: seeded graphs
 * over a 12-bone fixture skeleton (lib/anim/test/fixtures/graph_fixtures.h),
 * each bound, made once: 0 clip and blend nodes (3 clips, a clip node read
 * twice), 1 a state machine, 2 every layering kind (time scale, seek,
 * select, additive, mask, pose; no mirror map), 3 a masked one-shot over a
 * state machine, 4 dead blending over a state machine
 * (maniFixtureMakeInertializeGraph's 3). An input's first byte picks the graph (modulo their
 * count), the rest is the saved state. */
#ifndef MAUL_FUZZ_GRAPH_FUZZ_H
#define MAUL_FUZZ_GRAPH_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/graph.h"

#define MAUL_FUZZ_GRAPH_SEED 0x47465A5Au

#define MAUL_FUZZ_GRAPHS 5u

typedef struct maul_FuzzGraph {
    maniFixtureGraph graph;
    void* bindingMemory;
    maniGraphBinding* binding;
} maul_FuzzGraph;

typedef struct maul_FuzzGraphs {
    void* skeletonFile;
    maniSkeleton skeleton;
    maul_FuzzGraph graphs[MAUL_FUZZ_GRAPHS];
} maul_FuzzGraphs;

/* A block of MANI_GRAPH_ALIGNMENT for n bytes, zeroed. */
static inline void* maul_FuzzGraphAligned(size_t n) {
    void* p = aligned_alloc(MANI_GRAPH_ALIGNMENT, (n + 31) / 32 * 32 + 32);
    if (p) memset(p, 0, (n + 31) / 32 * 32 + 32);
    return p;
}

static inline const maul_FuzzGraphs* maul_FuzzGraphRig(void) {
    static maul_FuzzGraphs g;
    static int made = 0;
    if (made) return &g;
    maniSkeletonSource src = maniFixtureMakeSkeletonSource(MAUL_FUZZ_GRAPH_SEED, 12, maniFixtureRandom);
    size_t size = 0;
    g.skeletonFile = maniFixtureBuildSkeleton(&src, &size);
    maniFixtureFreeSkeletonSource(&src);
    if (g.skeletonFile == NULL || maniOpenSkeleton(g.skeletonFile, size, &g.skeleton).result != mani_success) abort();
    for (uint32_t k = 0; k < MAUL_FUZZ_GRAPHS; ++k) {
        maul_FuzzGraph* f = &g.graphs[k];
        const int ok = k == 0   ? maniFixtureMakeGraph(&f->graph, MAUL_FUZZ_GRAPH_SEED, &g.skeleton, 3, 1)
                       : k == 1 ? maniFixtureMakeMachineGraph(&f->graph, MAUL_FUZZ_GRAPH_SEED + 1u, &g.skeleton)
                       : k == 2 ? maniFixtureMakeLayerGraph(&f->graph, MAUL_FUZZ_GRAPH_SEED + 2u, &g.skeleton, NULL)
                       : k == 3 ? maniFixtureMakeOneShotGraph(&f->graph, 1, &g.skeleton)
                                : maniFixtureMakeInertializeGraph(&f->graph, 3, &g.skeleton);
        if (!ok) abort();
        maniGraphAssets assets;
        memset(&assets, 0, sizeof assets);
        assets.skeleton = &g.skeleton;
        assets.clips = f->graph.clipList;
        assets.clipCount = f->graph.clipCount;
        const size_t bindingSize = maniGraph_GetBindingSize(&f->graph.graph);
        f->bindingMemory = maul_FuzzGraphAligned(bindingSize);
        if (f->bindingMemory == NULL ||
            maniBindGraph(&f->graph.graph, &assets, f->bindingMemory, bindingSize, &f->binding, NULL) != mani_success)
            abort();
    }
    made = 1;
    return &g;
}

#endif
