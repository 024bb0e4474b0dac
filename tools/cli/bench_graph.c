/* maul bench graph: one instance of a blend graph over 9 seeded clips
 * (lib/anim/test/fixtures/graph_fixtures.h: a seeded tree of normalized and
 * direct blends, a clip node read twice) on a seeded 44-bone skeleton (the
 * CMU skeleton's bone count; no bench helper reads ../shared/data's CMU
 * files), updated by 1/60 s with events and root motion and evaluated:
 * graph-update-evaluate-44 per instance, and graph-instances-1000 for 1,000
 * instances updated and evaluated one after the other from one thread
 * through one scratch (per op: all 1,000). */
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/graph.h"
#include "maul/anim/pose.h"
#include "tools/cli/bench_internal.h"

#define MAUL_GRAPH_BONES 44u
#define MAUL_GRAPH_INSTANCES 1000u

typedef struct maul_GraphState {
    void* skeletonFile;
    maniSkeleton skeleton;
    maniFixtureGraph graph;
    void* bindingMemory;
    maniGraphBinding* binding;
    size_t instanceSize, scratchSize;
    uint8_t* instances; /* MAUL_GRAPH_INSTANCES of instanceSize */
    void* scratch;
    void* poseMemory;
    maniPose* pose;
    int made;
} maul_GraphState;

static void* maul_GraphAligned(size_t n) {
    const size_t rounded = (n + 31u) / 32u * 32u;
    void* p = aligned_alloc(32, rounded ? rounded : 32);
    if (p) memset(p, 0, rounded ? rounded : 32);
    return p;
}

static void maul_GraphClose(maul_GraphState* s) {
    if (s->made) maniFixtureFreeGraph(&s->graph);
    free(s->skeletonFile);
    free(s->bindingMemory);
    free(s->instances);
    free(s->scratch);
    free(s->poseMemory);
}

static maniGraphInstance* maul_GraphInstance(maul_GraphState* s, uint32_t i) {
    return (maniGraphInstance*)(void*)(s->instances + s->instanceSize * i);
}

static int maul_GraphOpen(maul_GraphState* s) {
    memset(s, 0, sizeof *s);
    maniSkeletonSource src = maniFixtureMakeSkeletonSource(0x474248, MAUL_GRAPH_BONES, maniFixtureRandom);
    size_t size = 0;
    s->skeletonFile = maniFixtureBuildSkeleton(&src, &size);
    maniFixtureFreeSkeletonSource(&src);
    if (s->skeletonFile == NULL || maniOpenSkeleton(s->skeletonFile, size, &s->skeleton).result != mani_success) return 0;
    if (!maniFixtureMakeGraph(&s->graph, 0x474249, &s->skeleton, 9, 1)) return 0;
    s->made = 1;
    maniGraphAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &s->skeleton;
    assets.clips = s->graph.clipList;
    assets.clipCount = s->graph.clipCount;
    const size_t bindingSize = maniGraph_GetBindingSize(&s->graph.graph);
    s->bindingMemory = maul_GraphAligned(bindingSize);
    if (s->bindingMemory == NULL ||
        maniBindGraph(&s->graph.graph, &assets, s->bindingMemory, bindingSize, &s->binding, NULL) != mani_success)
        return 0;
    s->instanceSize = maniGraphBinding_GetInstanceSize(s->binding);
    s->scratchSize = maniGraphBinding_GetScratchSize(s->binding);
    s->instances = (uint8_t*)maul_GraphAligned(s->instanceSize * MAUL_GRAPH_INSTANCES);
    s->scratch = maul_GraphAligned(s->scratchSize);
    const size_t poseSize = maniSkeleton_GetPoseSize(&s->skeleton);
    s->poseMemory = maul_GraphAligned(poseSize);
    if (!s->instances || !s->scratch || !s->poseMemory ||
        maniInitPose(&s->skeleton, s->poseMemory, poseSize, &s->pose) != mani_success)
        return 0;
    const uint32_t parameters = maniGraph_GetParameterCount(&s->graph.graph);
    for (uint32_t i = 0; i < MAUL_GRAPH_INSTANCES; ++i) {
        maniGraphInstance* instance = NULL;
        if (maniInitGraphInstance(s->binding, s->instances + s->instanceSize * i, s->instanceSize, &instance) !=
            mani_success)
            return 0;
        /* Every input weighed: each weight in (0.2, 1]. */
        for (uint32_t p = 0; p < parameters; ++p) {
            maniGraphValue v;
            memset(&v, 0, sizeof v);
            v.number = 0.2f + 0.8f * (float)((i * 7u + p * 13u) % 17u + 1u) / 17.0f;
            if (maniGraphInstance_SetParameter(instance, p, maniGraphParameterFloat, v) != mani_success) return 0;
        }
        /* Spread the playheads. */
        if (maniGraphInstance_Update(instance, 0.013f * (float)(i % 97u), NULL, 0, NULL, NULL) != mani_success) return 0;
    }
    return 1;
}

static uint64_t maul_GraphStep(maul_GraphState* s, maniGraphInstance* instance) {
    maniGraphEvent events[16];
    uint32_t count = 0;
    maniRootMove move;
    uint64_t failed = 0;
    if (maniGraphInstance_Update(instance, 1.0f / 60.0f, events, 16, &count, &move) != mani_success) failed++;
    if (maniGraphInstance_Evaluate(instance, s->scratch, s->scratchSize, s->pose) != mani_success) failed++;
    maul_benchSink += (double)move.translation.x + (double)count;
    return failed;
}

static uint64_t maul_RunGraphOne(void* state, uint32_t iterations) {
    maul_GraphState* s = (maul_GraphState*)state;
    uint64_t failed = 0;
    for (uint32_t k = 0; k < iterations; ++k) failed += maul_GraphStep(s, maul_GraphInstance(s, 0));
    maul_benchSink += (double)maniPose_GetLocal(s->pose, 1).translation.x;
    return failed;
}

static uint64_t maul_RunGraphMany(void* state, uint32_t iterations) {
    maul_GraphState* s = (maul_GraphState*)state;
    uint64_t failed = 0;
    for (uint32_t k = 0; k < iterations; ++k)
        for (uint32_t i = 0; i < MAUL_GRAPH_INSTANCES; ++i) failed += maul_GraphStep(s, maul_GraphInstance(s, i));
    maul_benchSink += (double)maniPose_GetLocal(s->pose, 1).translation.x;
    return failed;
}

int maul_BenchGraph(FILE* out) {
    maul_GraphState* s = (maul_GraphState*)malloc(sizeof *s);
    int status = 0;
    if (s != NULL && maul_GraphOpen(s)) {
        const maul_BenchCase one = {"graph-update-evaluate-44", 20000, MAUL_GRAPH_BONES, maul_RunGraphOne, s};
        status |= maul_RunCase(out, &one);
        const maul_BenchCase many = {"graph-instances-1000", 10, 0, maul_RunGraphMany, s};
        status |= maul_RunCase(out, &many);
    } else {
        maul_SetupFailed(out, "graph-update-evaluate-44");
        status = 1;
    }
    if (s != NULL) maul_GraphClose(s);
    free(s);
    return status;
}
