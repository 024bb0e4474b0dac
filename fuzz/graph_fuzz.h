/* What the graph restore harness and its seed maker share: one seeded graph
 * of clip and blend nodes (lib/anim/test/fixtures/graph_fixtures.h, 3 clips,
 * a clip node read twice) over a 12-bone fixture skeleton, bound, made
 * once. */
#ifndef MAUL_FUZZ_GRAPH_FUZZ_H
#define MAUL_FUZZ_GRAPH_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/graph.h"

#define MAUL_FUZZ_GRAPH_SEED 0x47465A5Au

typedef struct maul_FuzzGraph {
    void* skeletonFile;
    maniSkeleton skeleton;
    maniFixtureGraph graph;
    void* bindingMemory;
    maniGraphBinding* binding;
} maul_FuzzGraph;

/* A block of MANI_GRAPH_ALIGNMENT for n bytes, zeroed. */
static inline void* maul_FuzzGraphAligned(size_t n) {
    void* p = aligned_alloc(MANI_GRAPH_ALIGNMENT, (n + 31) / 32 * 32 + 32);
    if (p) memset(p, 0, (n + 31) / 32 * 32 + 32);
    return p;
}

static inline const maul_FuzzGraph* maul_FuzzGraphRig(void) {
    static maul_FuzzGraph g;
    static int made = 0;
    if (made) return &g;
    maniSkeletonSource src = maniFixtureMakeSkeletonSource(MAUL_FUZZ_GRAPH_SEED, 12, maniFixtureRandom);
    size_t size = 0;
    g.skeletonFile = maniFixtureBuildSkeleton(&src, &size);
    maniFixtureFreeSkeletonSource(&src);
    if (g.skeletonFile == NULL || maniOpenSkeleton(g.skeletonFile, size, &g.skeleton).result != mani_success) abort();
    if (!maniFixtureMakeGraph(&g.graph, MAUL_FUZZ_GRAPH_SEED, &g.skeleton, 3, 1)) abort();
    maniGraphAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &g.skeleton;
    assets.clips = g.graph.clipList;
    assets.clipCount = g.graph.clipCount;
    const size_t bindingSize = maniGraph_GetBindingSize(&g.graph.graph);
    g.bindingMemory = maul_FuzzGraphAligned(bindingSize);
    if (g.bindingMemory == NULL ||
        maniBindGraph(&g.graph.graph, &assets, g.bindingMemory, bindingSize, &g.binding, NULL) != mani_success)
        abort();
    made = 1;
    return &g;
}

#endif
