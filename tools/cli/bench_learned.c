/* maul bench learned: Decompress, Step and Project of seeded learned models
 * (lib/anim/test/fixtures/learned_fixtures.h: the seed's 12-bone skeleton
 * and 5-feature database, 4 latent values, every network two layers with
 * 512 hidden values between: Holden's Decompressor width) in binary32 and
 * 16-bit weights, ns per call on one core. */
#define _POSIX_C_SOURCE 199309L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/anim/src/build/learned_train_internal.h"
#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/hash.h"
#include "maul/anim/build.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedtrain.h"
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

/* -- Training: Holden's default networks ------------------------------------------------ */

/* The task hooks of the 2-thread rows: a pool of threads made once, the
 * way a game's task system keeps its workers (not a thread made per
 * batch). begin hands the tasks to the workers (task i to thread i %
 * threads, the caller thread 0 running its share at once) and wait waits
 * for the others; the trainer is given maxTasks = threads, so each task
 * runs its chunks' rows together (the bits do not depend on the split). */
typedef struct {
    uint32_t threads;
    maniLearnedTaskFunction* task;
    void* data;
    uint32_t count;
    uint64_t generation; /* the batches begun */
    uint32_t running;    /* the workers not done with this batch */
    int stopping;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    pthread_t ids[8];
    uint32_t started; /* the workers made */
    uint32_t index[8];
} maul_TrainPool;

static void maul_TrainShare(maul_TrainPool* pool, uint32_t k) {
    for (uint32_t i = k; i < pool->count; i += pool->threads) pool->task(pool->data, i);
}

static void* maul_TrainWorker(void* p) {
    uint32_t* k = (uint32_t*)p;
    maul_TrainPool* pool = (maul_TrainPool*)(void*)((char*)(k - *k) - offsetof(maul_TrainPool, index));
    uint64_t seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stopping && pool->generation == seen) pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->stopping) break;
        seen = pool->generation;
        pthread_mutex_unlock(&pool->lock);
        maul_TrainShare(pool, *k);
        pthread_mutex_lock(&pool->lock);
        if (--pool->running == 0) pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* Makes the workers (threads - 1 of them; those not made are run by the
 * caller in wait). */
static void maul_TrainPoolStart(maul_TrainPool* pool, uint32_t threads) {
    memset(pool, 0, sizeof *pool);
    pool->threads = threads;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    pool->started = 1;
    for (uint32_t k = 1; k < threads; ++k, ++pool->started) {
        pool->index[k] = k;
        if (pthread_create(&pool->ids[k], NULL, maul_TrainWorker, &pool->index[k]) != 0) break;
    }
}

static void maul_TrainPoolStop(maul_TrainPool* pool) {
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (uint32_t k = 1; k < pool->started; ++k) pthread_join(pool->ids[k], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->done);
}

static void* maul_TrainBegin(void* user, maniLearnedTaskFunction* task, void* data, uint32_t count) {
    maul_TrainPool* pool = (maul_TrainPool*)user;
    pthread_mutex_lock(&pool->lock);
    pool->task = task;
    pool->data = data;
    pool->count = count;
    pool->running = pool->started - 1u;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    maul_TrainShare(pool, 0);
    return pool;
}

static void maul_TrainWait(void* user, void* handle) {
    maul_TrainPool* pool = (maul_TrainPool*)user;
    (void)handle;
    pthread_mutex_lock(&pool->lock);
    while (pool->running != 0) pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    for (uint32_t k = pool->started; k < pool->threads; ++k) maul_TrainShare(pool, k); /* not made */
}

static double maul_TrainNow(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Iterations per stage timed (after one untimed that allocates the stage). */
#define MAUL_TRAIN_TIMED_1 20u
#define MAUL_TRAIN_TIMED_2 10u
#define MAUL_TRAIN_TIMED_3 10u

/* The learned-train-* rows: maniDefaultLearnedTrainerOptions (batch 32,
 * widths 512, latent 32, windows 2 and 20) on the PyTorch comparison's
 * database (maniFixtureMakeTorchTrainRig(1): its 12 bones, 5 features, a
 * float track and two events), iterations per second of each stage at 1 and
 * 2 threads; then Decompress, Step and Project of the model built from the
 * 1-thread trainer (the default sizes), ns per call. The first line gives
 * the dimensions tools/learned/torch_speed.py takes. */
static int maul_BenchLearnedTrain(FILE* out, int wantTrain, int wantModel) {
    static const char* names[3] = {"compressor+decompressor", "stepper", "projector"};
    maniFixtureTrainRig* rig = (maniFixtureTrainRig*)malloc(sizeof *rig);
    if (rig == NULL || maniFixtureMakeTorchTrainRig(rig, 1) != 0) {
        free(rig);
        maul_SetupFailed(out, "learned-train");
        return 1;
    }
    maniLearnedTrainerSource src = rig->source;
    src.options = maniDefaultLearnedTrainerOptions();
    src.options.decompressorIterations = MAUL_TRAIN_TIMED_1 + 1u;
    src.options.stepperIterations = MAUL_TRAIN_TIMED_2 + 1u;
    src.options.projectorIterations = MAUL_TRAIN_TIMED_3 + 1u;
    const uint64_t timed[3] = {MAUL_TRAIN_TIMED_1, MAUL_TRAIN_TIMED_2, MAUL_TRAIN_TIMED_3};
    int status = 0;
    maniLearnedTrainer* kept = NULL;
    for (uint32_t threads = 1; threads <= 2; ++threads) {
        if (!wantTrain && threads > 1) break;
        maul_TrainPool pool;
        maul_TrainPoolStart(&pool, threads);
        maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
        if (threads > 1) {
            def.tasks.begin = maul_TrainBegin;
            def.tasks.wait = maul_TrainWait;
            def.tasks.user = &pool;
            def.tasks.maxTasks = threads;
        }
        maniLearnedTrainer* t = NULL;
        if (maniCreateLearnedTrainer(&def, &src, &t).result != mani_success) {
            maul_TrainPoolStop(&pool);
            maul_SetupFailed(out, "learned-train");
            status = 1;
            break;
        }
        if (threads == 1)
            fprintf(out,
                    "learned-train data: --features %u --outputs %u --bones %u --latent %u --frames %u --passing %u "
                    "--batch %u --width %u\n",
                    t->features, t->outputs, t->bones, t->latent, t->frames, t->passingFirst[1] - t->passingFirst[0],
                    src.options.batchSize, src.options.compressorWidth);
        uint32_t stage = 0;
        for (uint32_t k = 0; k < 2u + src.projectorCount; ++k, stage = k < 2 ? k : 2) {
            if (maniLearnedTrainer_Train(t, 1, NULL) != mani_success) status = 1;
            if (!wantTrain) {
                if (maniLearnedTrainer_Train(t, timed[stage], NULL) != mani_success) status = 1;
                continue;
            }
            const double start = maul_TrainNow();
            if (maniLearnedTrainer_Train(t, timed[stage], NULL) != mani_success) status = 1;
            const double s = maul_TrainNow() - start;
            char row[64];
            snprintf(row, sizeof row, "learned-train-%s-t%u", names[stage], threads);
            if (k <= 2)
                fprintf(out, "%-42s %12.2f it/s\n", row, (double)timed[stage] / s);
        }
        /* The trained parameters' bits: one hash at any thread count, and the
         * same on every build (the trainer's rule), at the default sizes. */
        fprintf(out, "learned-train params hash t%u %016llx\n", threads,
                (unsigned long long)mcore_Hash64(0, t->params, 4u * t->paramCount));
        if (threads == 1)
            kept = t;
        else
            maniDestroyLearnedTrainer(t);
        maul_TrainPoolStop(&pool);
    }
    if (wantModel && kept != NULL) {
        maniBuilder* b = NULL;
        maniBuilderDef bdef = maniDefaultBuilderDef();
        void* file = NULL;
        size_t size = 0;
        maniLearnedModel model;
        int ok = maniCreateBuilder(&bdef, &b) == mani_success &&
                 maniBuildLearnedModelFromTrainer(b, kept, maniLearnedWeightsFloat32).result == mani_success &&
                 maniBuilder_CopyBuilt(b, NULL, 0, &size) == mani_errorCapacity &&
                 (file = aligned_alloc(64, (size + 63) & ~(size_t)63)) != NULL &&
                 maniBuilder_CopyBuilt(b, file, size, &size) == mani_success &&
                 maniOpenLearnedModel(file, size, &model).result == mani_success;
        maniDestroyBuilder(b);
        maul_LearnedState* s = ok ? (maul_LearnedState*)malloc(sizeof *s) : NULL;
        if (s != NULL) {
            memset(s, 0, sizeof *s);
            s->model = model;
            s->skeleton = rig->skeleton;
            s->scratchSize = maniLearnedModel_GetScratchSize(&s->model);
            s->scratch = aligned_alloc(16, (s->scratchSize + 15) & ~(size_t)15);
            const size_t poseSize = maniSkeleton_GetPoseSize(&s->skeleton);
            s->poseMemory = aligned_alloc(64, (poseSize + 63) & ~(size_t)63);
            const uint32_t n = s->model.featureCount + s->model.latentCount;
            ok = s->scratch != NULL && s->poseMemory != NULL && n <= 64 &&
                 maniInitPose(&s->skeleton, s->poseMemory, poseSize, &s->pose) == mani_success;
            for (uint32_t i = 0; ok && i < n; ++i) s->state[i] = 0.05f * (float)(i % 9) - 0.2f;
            for (uint32_t i = 0; ok && i < s->model.featureCount; ++i) s->query[i] = 0.1f * (float)(i % 5) - 0.2f;
        }
        static const char* rows[3] = {"learned-decompress-default-f32", "learned-step-default-f32",
                                      "learned-project-default-f32"};
        if (!ok || s == NULL) {
            for (int k = 0; k < 3; ++k) maul_SetupFailed(out, rows[k]);
            status = 1;
        } else {
            const maul_BenchCase cases[3] = {
                {rows[0], 2000, 0, maul_RunLearnedDecompress, s},
                {rows[1], 2000, 0, maul_RunLearnedStep, s},
                {rows[2], 2000, 0, maul_RunLearnedProject, s},
            };
            for (int k = 0; k < 3; ++k) status |= maul_RunCase(out, &cases[k]);
        }
        if (s != NULL) {
            free(s->scratch);
            free(s->poseMemory);
        }
        free(s);
        free(file);
    }
    maniDestroyLearnedTrainer(kept);
    maniFixtureFreeTrainRig(rig);
    free(rig);
    return status;
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
    const int wantTrain = maul_BenchWants("learned-train-");
    const int wantModel = maul_BenchWants("learned-decompress-default-f32") ||
                          maul_BenchWants("learned-step-default-f32") || maul_BenchWants("learned-project-default-f32");
    if (wantTrain || wantModel) status |= maul_BenchLearnedTrain(out, wantTrain, wantModel);
    return status;
}
