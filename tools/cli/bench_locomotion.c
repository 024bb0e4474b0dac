/* maul bench graph (locomotion): issue [graph-core]'s locomotion graph on a
 * seeded 44-bone skeleton (the CMU skeleton's bone count; no bench reads
 * ../shared/data): a state machine from an idle clip to a 2D banded blend
 * space of 9 clips, its transitions fading over 0.25 s on a float "moving",
 * an additive lean layer over it and a one-shot over that (a wave on bone
 * 1's subtree, fading in and out over 0.2 s, fired every 120 updates), every
 * clip compressed
 * (maniCompressClip, default options), built from the graph's JSON text form
 * (maniBuildGraphJson). Each instance is driven by a seeded joystick (its
 * speed point on a circle turning at its own rate, "moving" flipped every
 * 90 updates) and updated by 1/60 s with events and root motion, then
 * evaluated:
 * - graph-locomotion-44: one instance, per op one update and evaluation;
 * - graph-locomotion-1000: 1,000 instances one after the other from one
 *   thread through one scratch (per op: all 1,000);
 * - graph-locomotion-1000-threads-2: the same 1,000 split between two
 *   threads (each its own scratch and pose), per op all 1,000.
 * The graph and parameters are the same bytes each run. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/pose.h"
#include "tools/cli/bench_internal.h"

#define MAUL_LOCO_BONES 44u
#define MAUL_LOCO_INSTANCES 1000u
#define MAUL_LOCO_CLIPS 12u /* idle, 9 moves, the additive lean, the shot */
#define MAUL_LOCO_THREADS 2u

static const char maul_locoJson[] =
    "{\"format\": \"maul-anim graph\", \"version\": 1,\n"
    " \"parameters\": [{\"name\": \"x\", \"type\": \"float\"}, {\"name\": \"y\", \"type\": \"float\"},\n"
    "   {\"name\": \"moving\", \"type\": \"float\"}, {\"name\": \"lean\", \"type\": \"float\"},\n"
    "   {\"name\": \"wave\", \"type\": \"trigger\"}],\n"
    " \"clips\": [{\"name\": \"idle\"}, {\"name\": \"m0\"}, {\"name\": \"m1\"}, {\"name\": \"m2\"}, {\"name\": \"m3\"},\n"
    "   {\"name\": \"m4\"}, {\"name\": \"m5\"}, {\"name\": \"m6\"}, {\"name\": \"m7\"}, {\"name\": \"m8\"},\n"
    "   {\"name\": \"lean\"}, {\"name\": \"wave\"}],\n"
    " \"nodes\": [\n"
    "  {\"kind\": \"clip\", \"clip\": \"idle\"},\n"
    "  {\"kind\": \"clip\", \"clip\": \"m0\"}, {\"kind\": \"clip\", \"clip\": \"m1\"},\n"
    "  {\"kind\": \"clip\", \"clip\": \"m2\"}, {\"kind\": \"clip\", \"clip\": \"m3\"},\n"
    "  {\"kind\": \"clip\", \"clip\": \"m4\"}, {\"kind\": \"clip\", \"clip\": \"m5\"},\n"
    "  {\"kind\": \"clip\", \"clip\": \"m6\"}, {\"kind\": \"clip\", \"clip\": \"m7\"},\n"
    "  {\"kind\": \"clip\", \"clip\": \"m8\"},\n"
    "  {\"kind\": \"spaceBanded\", \"inputs\": [1, 2, 3, 4, 5, 6, 7, 8, 9], \"parameter\": \"x\",\n"
    "   \"parameterY\": \"y\", \"positions\": [{\"x\": 0, \"y\": 0}, {\"x\": 1, \"y\": 0}, {\"x\": -1, \"y\": 0},\n"
    "   {\"x\": 0, \"y\": 1}, {\"x\": 0, \"y\": -1}, {\"x\": 1, \"y\": 1}, {\"x\": -1, \"y\": 1},\n"
    "   {\"x\": 1, \"y\": -1}, {\"x\": -1, \"y\": -1}]},\n"
    "  {\"kind\": \"stateMachine\", \"inputs\": [0, 10], \"transitions\": [\n"
    "   {\"from\": 0, \"to\": 1, \"fade\": \"easeInOut\", \"duration\": 0.25,\n"
    "    \"conditions\": [{\"kind\": \"greater\", \"parameter\": \"moving\", \"value\": 0.5}]},\n"
    "   {\"from\": 1, \"to\": 0, \"fade\": \"easeInOut\", \"duration\": 0.25,\n"
    "    \"conditions\": [{\"kind\": \"less\", \"parameter\": \"moving\", \"value\": 0.5}]}]},\n"
    "  {\"kind\": \"clip\", \"clip\": \"lean\"},\n"
    "  {\"kind\": \"additive\", \"inputs\": [11, 12], \"weight\": {\"parameter\": \"lean\"}},\n"
    "  {\"kind\": \"clip\", \"clip\": \"wave\"},\n"
    "  {\"kind\": \"oneShot\", \"inputs\": [13, 14], \"trigger\": \"wave\", \"curve\": \"easeInOut\",\n"
    "   \"fadeIn\": 0.2, \"fadeOut\": 0.2, \"mask\": {\"chains\": [{\"bone\": \"bone-1\", \"weight\": 1, \"subtree\": true}]}}],\n"
    " \"output\": 15}\n";

typedef struct maul_LocoState {
    void* skeletonFile;
    maniSkeleton skeleton;
    void* clipFiles[MAUL_LOCO_CLIPS];
    maniClip clips[MAUL_LOCO_CLIPS];
    const maniClip* clipList[MAUL_LOCO_CLIPS];
    void* graphFile;
    maniGraph graph;
    void* bindingMemory;
    maniGraphBinding* binding;
    size_t instanceSize, scratchSize, poseSize;
    uint8_t* instances; /* MAUL_LOCO_INSTANCES of instanceSize */
    void* scratch[MAUL_LOCO_THREADS];
    void* poseMemory[MAUL_LOCO_THREADS];
    maniPose* pose[MAUL_LOCO_THREADS];
    uint32_t step; /* updates made, for the joystick */
} maul_LocoState;

static void* maul_LocoAligned(size_t n) {
    const size_t rounded = (n + 31u) / 32u * 32u;
    void* p = aligned_alloc(32, rounded ? rounded : 32);
    if (p) memset(p, 0, rounded ? rounded : 32);
    return p;
}

static void maul_LocoClose(maul_LocoState* s) {
    free(s->skeletonFile);
    for (uint32_t k = 0; k < MAUL_LOCO_CLIPS; ++k) free(s->clipFiles[k]);
    free(s->graphFile);
    free(s->bindingMemory);
    free(s->instances);
    for (uint32_t t = 0; t < MAUL_LOCO_THREADS; ++t) {
        free(s->scratch[t]);
        free(s->poseMemory[t]);
    }
}

/* The builder's last file in fresh aligned memory. */
static void* maul_LocoTakeBuilt(maniBuilder* builder, size_t* sizeOut) {
    size_t size = 0;
    if (maniBuilder_CopyBuilt(builder, NULL, 0, &size) != mani_errorCapacity && size == 0) return NULL;
    void* bytes = maul_LocoAligned(size);
    if (bytes == NULL || maniBuilder_CopyBuilt(builder, bytes, size, &size) != mani_success) {
        free(bytes);
        return NULL;
    }
    *sizeOut = size;
    return bytes;
}

/* Clip k compressed: seeded, with tracks, events and root motion (the lean
 * additive, without root motion). */
static int maul_LocoClip(maul_LocoState* s, maniBuilder* builder, uint32_t k) {
    const int lean = k == MAUL_LOCO_CLIPS - 2u;
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 0x4C4F434Full + k, &s->skeleton,
                        lean ? MANI_FIXTURE_CLIP_TRACKS : MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION,
                        maniLoopRepeat, lean ? maniAdditiveFirstFrame : maniAdditiveNone);
    size_t size = 0;
    void* full = maniFixtureBuildClip(&fc.source, &size);
    maniFixtureFreeClip(&fc);
    maniClip view;
    int ok = full != NULL && maniOpenClip(full, size, &view).result == mani_success;
    if (ok) {
        const maniCompressOptions options = maniDefaultCompressOptions();
        maniCompressReport report;
        memset(&report, 0, sizeof report);
        ok = maniCompressClip(builder, &view, &s->skeleton, &options, &report) == mani_success;
    }
    free(full);
    if (!ok) return 0;
    s->clipFiles[k] = maul_LocoTakeBuilt(builder, &size);
    if (s->clipFiles[k] == NULL || maniOpenClip(s->clipFiles[k], size, &s->clips[k]).result != mani_success) return 0;
    s->clipList[k] = &s->clips[k];
    return 1;
}

static maniGraphInstance* maul_LocoInstance(maul_LocoState* s, uint32_t i) {
    return (maniGraphInstance*)(void*)(s->instances + s->instanceSize * i);
}

/* The joystick of instance i at update n: its speed point on a circle of
 * radius 1 turning at its own rate, moving for 90 updates of each 180 (the
 * phase its own), leaning by a slow wave. */
static int maul_LocoDrive(maniGraphInstance* instance, uint32_t i, uint32_t n) {
    const float angle = (float)n * (0.01f + 0.0003f * (float)(i % 29u)) + 0.37f * (float)i;
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    v.number = cosf(angle);
    if (maniGraphInstance_SetParameter(instance, 0, maniGraphParameterFloat, v) != mani_success) return 0;
    v.number = sinf(angle);
    if (maniGraphInstance_SetParameter(instance, 1, maniGraphParameterFloat, v) != mani_success) return 0;
    v.number = ((n + 7u * i) / 90u) % 2u ? 1.0f : 0.0f;
    if (maniGraphInstance_SetParameter(instance, 2, maniGraphParameterFloat, v) != mani_success) return 0;
    v.number = 0.5f + 0.5f * sinf(0.02f * (float)n + (float)i);
    if (maniGraphInstance_SetParameter(instance, 3, maniGraphParameterFloat, v) != mani_success) return 0;
    if ((n + 11u * i) % 120u != 0) return 1;
    memset(&v, 0, sizeof v);
    v.flag = 1;
    return maniGraphInstance_SetParameter(instance, 4, maniGraphParameterTrigger, v) == mani_success;
}

static int maul_LocoOpen(maul_LocoState* s) {
    memset(s, 0, sizeof *s);
    maniSkeletonSource src = maniFixtureMakeSkeletonSource(0x474248, MAUL_LOCO_BONES, maniFixtureRandom);
    size_t size = 0;
    s->skeletonFile = maniFixtureBuildSkeleton(&src, &size);
    maniFixtureFreeSkeletonSource(&src);
    if (s->skeletonFile == NULL || maniOpenSkeleton(s->skeletonFile, size, &s->skeleton).result != mani_success) return 0;
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* builder = NULL;
    if (maniCreateBuilder(&def, &builder) != mani_success) return 0;
    int ok = 1;
    for (uint32_t k = 0; k < MAUL_LOCO_CLIPS && ok; ++k) ok = maul_LocoClip(s, builder, k);
    static const char* const names[MAUL_LOCO_CLIPS] = {"idle", "m0", "m1", "m2", "m3",   "m4",
                                                       "m5",   "m6", "m7", "m8", "lean", "wave"};
    maniGraphClipSource named[MAUL_LOCO_CLIPS];
    memset(named, 0, sizeof named);
    for (uint32_t k = 0; k < MAUL_LOCO_CLIPS; ++k) {
        named[k].name = names[k];
        named[k].nameLength = strlen(names[k]);
        named[k].clip = &s->clips[k];
    }
    maniGraphNamedAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &s->skeleton;
    assets.clips = named;
    assets.clipCount = MAUL_LOCO_CLIPS;
    if (ok) {
        const maniBuildResult r = maniBuildGraphJson(builder, maul_locoJson, sizeof maul_locoJson - 1, &assets);
        ok = r.result == mani_success;
        if (!ok)
            fprintf(stderr, "graph-locomotion: the graph's JSON refused: result %d reason %d item %u other %u\n",
                    (int)r.result, (int)r.reason, (unsigned)r.item, (unsigned)r.other);
    }
    if (ok) {
        s->graphFile = maul_LocoTakeBuilt(builder, &size);
        ok = s->graphFile != NULL && maniOpenGraph(s->graphFile, size, &s->graph).result == mani_success;
    }
    maniDestroyBuilder(builder);
    if (!ok) return 0;
    maniGraphAssets bind;
    memset(&bind, 0, sizeof bind);
    bind.skeleton = &s->skeleton;
    bind.clips = s->clipList;
    bind.clipCount = MAUL_LOCO_CLIPS;
    const size_t bindingSize = maniGraph_GetBindingSize(&s->graph);
    s->bindingMemory = maul_LocoAligned(bindingSize);
    if (s->bindingMemory == NULL ||
        maniBindGraph(&s->graph, &bind, s->bindingMemory, bindingSize, &s->binding, NULL) != mani_success)
        return 0;
    s->instanceSize = maniGraphBinding_GetInstanceSize(s->binding);
    s->scratchSize = maniGraphBinding_GetScratchSize(s->binding);
    s->poseSize = maniSkeleton_GetPoseSize(&s->skeleton);
    s->instances = (uint8_t*)maul_LocoAligned(s->instanceSize * MAUL_LOCO_INSTANCES);
    if (s->instances == NULL) return 0;
    for (uint32_t t = 0; t < MAUL_LOCO_THREADS; ++t) {
        s->scratch[t] = maul_LocoAligned(s->scratchSize);
        s->poseMemory[t] = maul_LocoAligned(s->poseSize);
        if (!s->scratch[t] || !s->poseMemory[t] ||
            maniInitPose(&s->skeleton, s->poseMemory[t], s->poseSize, &s->pose[t]) != mani_success)
            return 0;
    }
    for (uint32_t i = 0; i < MAUL_LOCO_INSTANCES; ++i) {
        maniGraphInstance* instance = NULL;
        if (maniInitGraphInstance(s->binding, s->instances + s->instanceSize * i, s->instanceSize, &instance) !=
                mani_success ||
            !maul_LocoDrive(instance, i, 0))
            return 0;
        /* Spread the playheads and states. */
        for (uint32_t n = 0; n < i % 13u; ++n)
            if (!maul_LocoDrive(instance, i, n * 17u) ||
                maniGraphInstance_Update(instance, 0.11f, NULL, 0, NULL, NULL) != mani_success)
                return 0;
    }
    return 1;
}

/* One update (joystick first) and evaluation of instance i through thread
 * t's scratch and pose. */
static uint64_t maul_LocoStep(maul_LocoState* s, uint32_t i, uint32_t n, uint32_t t) {
    maniGraphInstance* instance = maul_LocoInstance(s, i);
    maniGraphEvent events[16];
    uint32_t count = 0;
    maniRootMove move;
    uint64_t failed = 0;
    if (!maul_LocoDrive(instance, i, n)) failed++;
    if (maniGraphInstance_Update(instance, 1.0f / 60.0f, events, 16, &count, &move) != mani_success) failed++;
    if (maniGraphInstance_Evaluate(instance, s->scratch[t], s->scratchSize, s->pose[t]) != mani_success) failed++;
    return failed;
}

static uint64_t maul_RunLocoOne(void* state, uint32_t iterations) {
    maul_LocoState* s = (maul_LocoState*)state;
    uint64_t failed = 0;
    for (uint32_t k = 0; k < iterations; ++k) failed += maul_LocoStep(s, 0, s->step++, 0);
    maul_benchSink += (double)maniPose_GetLocal(s->pose[0], 1).translation.x;
    return failed;
}

static uint64_t maul_RunLocoMany(void* state, uint32_t iterations) {
    maul_LocoState* s = (maul_LocoState*)state;
    uint64_t failed = 0;
    for (uint32_t k = 0; k < iterations; ++k, ++s->step)
        for (uint32_t i = 0; i < MAUL_LOCO_INSTANCES; ++i) failed += maul_LocoStep(s, i, s->step, 0);
    maul_benchSink += (double)maniPose_GetLocal(s->pose[0], 1).translation.x;
    return failed;
}

typedef struct maul_LocoShare {
    maul_LocoState* state;
    uint32_t thread, step;
    uint64_t failed;
} maul_LocoShare;

/* A thread's half of the instances (instances i with i % threads == its
 * number): each instance is used by one thread only. */
static void* maul_LocoThread(void* argument) {
    maul_LocoShare* share = (maul_LocoShare*)argument;
    for (uint32_t i = share->thread; i < MAUL_LOCO_INSTANCES; i += MAUL_LOCO_THREADS)
        share->failed += maul_LocoStep(share->state, i, share->step, share->thread);
    return NULL;
}

static uint64_t maul_RunLocoThreads(void* state, uint32_t iterations) {
    maul_LocoState* s = (maul_LocoState*)state;
    uint64_t failed = 0;
    for (uint32_t k = 0; k < iterations; ++k, ++s->step) {
        maul_LocoShare shares[MAUL_LOCO_THREADS];
        pthread_t threads[MAUL_LOCO_THREADS];
        for (uint32_t t = 0; t < MAUL_LOCO_THREADS; ++t) {
            shares[t].state = s;
            shares[t].thread = t;
            shares[t].step = s->step;
            shares[t].failed = 0;
        }
        uint32_t started = 1;
        for (uint32_t t = 1; t < MAUL_LOCO_THREADS; ++t, ++started)
            if (pthread_create(&threads[t], NULL, maul_LocoThread, &shares[t]) != 0) break;
        maul_LocoThread(&shares[0]);
        for (uint32_t t = 1; t < started; ++t) pthread_join(threads[t], NULL);
        if (started != MAUL_LOCO_THREADS) failed++;
        for (uint32_t t = 0; t < started; ++t) failed += shares[t].failed;
    }
    maul_benchSink += (double)maniPose_GetLocal(s->pose[0], 1).translation.x;
    return failed;
}

int maul_BenchLocomotion(FILE* out) {
    maul_LocoState* s = (maul_LocoState*)malloc(sizeof *s);
    int status = 0;
    if (s != NULL && maul_LocoOpen(s)) {
        const maul_BenchCase one = {"graph-locomotion-44", 20000, MAUL_LOCO_BONES, maul_RunLocoOne, s};
        status |= maul_RunCase(out, &one);
        const maul_BenchCase many = {"graph-locomotion-1000", 10, 0, maul_RunLocoMany, s};
        status |= maul_RunCase(out, &many);
        const maul_BenchCase threads = {"graph-locomotion-1000-threads-2", 10, 0, maul_RunLocoThreads, s};
        status |= maul_RunCase(out, &threads);
    } else {
        maul_SetupFailed(out, "graph-locomotion-44");
        status = 1;
    }
    if (s != NULL) maul_LocoClose(s);
    free(s);
    return status;
}
