/* maul bench learned: Decompress, Step and Project of seeded learned models
 * (lib/anim/test/fixtures/learned_fixtures.h: the seed's 12-bone skeleton
 * and 5-feature database, 4 latent values, every network two layers with
 * 512 hidden values between: Holden's Decompressor width) in binary32 and
 * 16-bit weights, ns per call on one core. */
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/learned.h"
#include "maul/anim/pose.h"
#include "tools/cli/bench_internal.h"

typedef struct {
    void* file;
    void* skeletonFile;
    maniSkeleton skeleton;
    maniLearnedModel model;
    void* scratch;
    size_t scratchSize;
    void* poseMemory;
    maniPose* pose;
    float state[64];
    float query[64];
    float tracks[MANI_FIXTURE_LEARNED_TRACKS];
    float events[MANI_FIXTURE_LEARNED_EVENTS];
} maul_LearnedState;

static int maul_LearnedOpen(maul_LearnedState* s, uint32_t format) {
    memset(s, 0, sizeof *s);
    size_t size = 0, skelSize = 0;
    s->file = maniFixtureBuildLearnedModel(3, 512, format, &size);
    maniSkeletonSource ss = maniFixtureMakeSkeletonSource(3, 12, maniFixtureRandom);
    s->skeletonFile = maniFixtureBuildSkeleton(&ss, &skelSize);
    maniFixtureFreeSkeletonSource(&ss);
    if (s->file == NULL || s->skeletonFile == NULL ||
        maniOpenLearnedModel(s->file, size, &s->model).result != mani_success ||
        maniOpenSkeleton(s->skeletonFile, skelSize, &s->skeleton).result != mani_success)
        return 0;
    s->scratchSize = maniLearnedModel_GetScratchSize(&s->model);
    s->scratch = aligned_alloc(16, (s->scratchSize + 15) & ~(size_t)15);
    const size_t poseSize = maniSkeleton_GetPoseSize(&s->skeleton);
    s->poseMemory = aligned_alloc(64, (poseSize + 63) & ~(size_t)63);
    if (s->scratch == NULL || s->poseMemory == NULL ||
        maniInitPose(&s->skeleton, s->poseMemory, poseSize, &s->pose) != mani_success)
        return 0;
    const uint32_t n = s->model.featureCount + s->model.latentCount;
    if (n > 64) return 0;
    for (uint32_t i = 0; i < n; ++i) s->state[i] = 0.05f * (float)(i % 9) - 0.2f;
    for (uint32_t i = 0; i < s->model.featureCount; ++i) s->query[i] = 0.1f * (float)(i % 5) - 0.2f;
    return 1;
}

static void maul_LearnedClose(maul_LearnedState* s) {
    free(s->file);
    free(s->skeletonFile);
    free(s->scratch);
    free(s->poseMemory);
}

static uint64_t maul_RunLearnedDecompress(void* p, uint32_t iterations) {
    maul_LearnedState* s = (maul_LearnedState*)p;
    uint64_t failed = 0;
    maniLearnedOutput o;
    memset(&o, 0, sizeof o);
    o.pose = s->pose;
    o.floatTracks = s->tracks;
    o.floatTrackCapacity = MANI_FIXTURE_LEARNED_TRACKS;
    o.eventStates = s->events;
    o.eventCapacity = MANI_FIXTURE_LEARNED_EVENTS;
    for (uint32_t k = 0; k < iterations; ++k) {
        failed += maniLearnedModel_Decompress(&s->model, s->state, &o, s->scratch, s->scratchSize) != mani_success;
        maul_benchSink += o.rootVelocity.x;
    }
    return failed;
}

static uint64_t maul_RunLearnedStep(void* p, uint32_t iterations) {
    maul_LearnedState* s = (maul_LearnedState*)p;
    uint64_t failed = 0;
    float state[64];
    const uint32_t n = s->model.featureCount + s->model.latentCount;
    for (uint32_t k = 0; k < iterations; ++k) {
        memcpy(state, s->state, 4u * n); /* the same state each call: no drift */
        failed += maniLearnedModel_Step(&s->model, state, s->scratch, s->scratchSize) != mani_success;
        maul_benchSink += state[0];
    }
    return failed;
}

static uint64_t maul_RunLearnedProject(void* p, uint32_t iterations) {
    maul_LearnedState* s = (maul_LearnedState*)p;
    uint64_t failed = 0;
    float state[64];
    uint32_t count = 0;
    for (uint32_t k = 0; k < iterations; ++k) {
        failed += maniLearnedModel_Project(&s->model, k & 1, s->query, state, 64, &count, s->scratch,
                                           s->scratchSize) != mani_success;
        maul_benchSink += state[0];
    }
    return failed;
}

int maul_BenchLearned(FILE* out) {
    int status = 0;
    static const char* names[2][3] = {
        {"learned-decompress-512-f32", "learned-step-512-f32", "learned-project-512-f32"},
        {"learned-decompress-512-i16", "learned-step-512-i16", "learned-project-512-i16"},
    };
    for (uint32_t format = 0; format < 2; ++format) {
        maul_LearnedState* s = (maul_LearnedState*)malloc(sizeof *s);
        if (s == NULL || !maul_LearnedOpen(s, format)) {
            for (int k = 0; k < 3; ++k) maul_SetupFailed(out, names[format][k]);
            status = 1;
        } else {
            const maul_BenchCase cases[3] = {
                {names[format][0], 2000, 12, maul_RunLearnedDecompress, s},
                {names[format][1], 4000, 0, maul_RunLearnedStep, s},
                {names[format][2], 4000, 0, maul_RunLearnedProject, s},
            };
            for (int k = 0; k < 3; ++k) status |= maul_RunCase(out, &cases[k]);
        }
        if (s != NULL) maul_LearnedClose(s);
        free(s);
    }
    return status;
}
