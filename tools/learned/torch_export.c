/* torch_export: the data of the PyTorch comparison of the learned trainer
 * (tools/learned/README.md). Makes the trainer of
 * maniFixtureMakeTorchTrainRig(seed), trains it one iteration at a time
 * through every stage and writes to a directory, little-endian:
 *   x.f32        frames x features: the database's normalized features
 *   y.f32        frames x outputs: the Decompressor's targets
 *   z.f32        frames x latent: the latent values at stage 1's end
 *   norms.f32    every network's input offsets, input scales, output
 *                offsets, output scales (network order), as the trainer
 *                uses them (the Stepper's and Projectors' from z)
 *   params0.f32  the initial parameters (every network, in order)
 *   params1.f32  the parameters after the last stage
 *   passing.u32  every Projector's frames, one after another
 *   picks.u32    per iteration, batch frames (window starts; a Projector's
 *                sampled frame)
 *   queries.f32  per Projector iteration, batch x features: the noisy
 *                queries (t->noise)
 *   loss.f32     per iteration, the report's lastLoss
 *   rate.f32     per iteration, the learning rate the iteration used
 *   manifest.json the counts, the skeleton's parents, options, network
 *                shapes and file list.
 * Reads the trainer's state through learned_train_internal.h; the stage
 * block of an iteration that ends a stage is kept by a release hook that
 * defers every free until the iteration is read. Usage:
 *   torch_export OUTDIR [SEED] */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/anim/src/build/learned_train_internal.h"
#include "lib/anim/test/fixtures/learned_fixtures.h"

/* -- An allocator whose frees wait ------------------------------------------- */

typedef struct Deferred {
    void** blocks;
    size_t count, capacity;
} Deferred;

static void* DeferredAllocate(void* user, size_t size, size_t alignment) {
    (void)user;
    const size_t rounded = (size + alignment - 1) / alignment * alignment;
    return aligned_alloc(alignment, rounded);
}

static void DeferredRelease(void* user, void* memory, size_t size) {
    Deferred* d = (Deferred*)user;
    (void)size;
    if (d->count == d->capacity) {
        const size_t cap = d->capacity ? 2 * d->capacity : 16;
        void** grown = (void**)realloc(d->blocks, cap * sizeof *grown);
        if (grown == NULL) {
            free(memory); /* cannot wait: only the last iteration's block must */
            return;
        }
        d->blocks = grown;
        d->capacity = cap;
    }
    d->blocks[d->count++] = memory;
}

static void DeferredFlush(Deferred* d) {
    for (size_t i = 0; i < d->count; ++i) free(d->blocks[i]);
    d->count = 0;
}

/* -- Files ------------------------------------------------------------------- */

static char gDir[4096];

static FILE* OpenOut(const char* name) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", gDir, name);
    FILE* f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "torch_export: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return f;
}

static void PutU32(FILE* f, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fwrite(b, 1, 4, f);
}

static void PutF32(FILE* f, float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    PutU32(f, u);
}

static void WriteF32(const char* name, const float* v, size_t n) {
    FILE* f = OpenOut(name);
    for (size_t i = 0; i < n; ++i) PutF32(f, v[i]);
    fclose(f);
}

static void WriteU32(const char* name, const uint32_t* v, size_t n) {
    FILE* f = OpenOut(name);
    for (size_t i = 0; i < n; ++i) PutU32(f, v[i]);
    fclose(f);
}

/* A float as JSON, exactly (9 significant digits round-trip binary32). */
static void JsonF32(FILE* f, const char* key, float v, int comma) {
    fprintf(f, "    \"%s\": %.9g%s\n", key, (double)v, comma ? "," : "");
}

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: torch_export OUTDIR [SEED]\n");
        return 2;
    }
    snprintf(gDir, sizeof gDir, "%s", argv[1]);
    mkdir(gDir, 0777);
    const uint64_t seed = argc == 3 ? strtoull(argv[2], NULL, 10) : 1u;
    maniFixtureTrainRig rig;
    if (maniFixtureMakeTorchTrainRig(&rig, seed) != 0) {
        fprintf(stderr, "torch_export: the rig of seed %" PRIu64 " failed\n", seed);
        return 1;
    }
    Deferred deferred = {NULL, 0, 0};
    maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
    def.allocator.allocate = DeferredAllocate;
    def.allocator.release = DeferredRelease;
    def.allocator.user = &deferred;
    maniLearnedTrainer* t = NULL;
    const maniBuildResult made = maniCreateLearnedTrainer(&def, &rig.source, &t);
    if (made.result != mani_success) {
        fprintf(stderr, "torch_export: maniCreateLearnedTrainer: %d reason %u item %" PRIu64 "\n", (int)made.result,
                made.reason, made.item);
        return 1;
    }
    const maniLearnedTrainerOptions* o = &t->options;
    const uint32_t B = o->batchSize, P = t->source.projectorCount;
    const uint64_t total = o->decompressorIterations + o->stepperIterations + (uint64_t)P * o->projectorIterations;
    WriteF32("x.f32", t->x, (size_t)t->frames * t->features);
    WriteF32("y.f32", t->y, (size_t)t->frames * t->outputs);
    WriteF32("params0.f32", t->params, t->paramCount);
    WriteU32("passing.u32", t->passing, t->passingFirst[P]);
    uint32_t* picks = (uint32_t*)calloc((size_t)total * B, 4);
    float* queries = (float*)calloc((size_t)P * o->projectorIterations * B * t->features, 4);
    float* loss = (float*)calloc((size_t)total, 4);
    float* rate = (float*)calloc((size_t)total, 4);
    uint32_t* stageOf = (uint32_t*)calloc((size_t)total, 4);
    if (picks == NULL || queries == NULL || loss == NULL || rate == NULL || stageOf == NULL) return 1;
    size_t q = 0;
    for (uint64_t it = 0; it < total; ++it) {
        const uint32_t stage = t->stage, projector = t->projector;
        const uint32_t* heldPicks = t->picks;
        const float* heldNoise = t->noise;
        rate[it] = t->learningRate;
        maniLearnedTrainerReport report;
        if (maniLearnedTrainer_Train(t, 1, &report) != mani_success || report.iterations != 1) {
            fprintf(stderr, "torch_export: iteration %" PRIu64 " failed\n", it);
            return 1;
        }
        /* The stage block of this iteration: the trainer's (the stage goes
         * on), or the one held before the call (it ended the stage; its
         * free waits in `deferred`). */
        const uint32_t* pk = t->stageBlock != NULL ? t->picks : heldPicks;
        const float* nz = t->stageBlock != NULL ? t->noise : heldNoise;
        if (pk == NULL) {
            fprintf(stderr, "torch_export: iteration %" PRIu64 " has no stage block\n", it);
            return 1;
        }
        memcpy(picks + (size_t)it * B, pk, 4u * B);
        if (stage == MANI_TRAIN_STAGE_PROJECTORS) {
            memcpy(queries + q, nz, 4u * (size_t)B * t->features);
            q += (size_t)B * t->features;
        }
        loss[it] = report.lastLoss;
        stageOf[it] = stage == MANI_TRAIN_STAGE_PROJECTORS ? 2u + projector : stage;
        DeferredFlush(&deferred);
    }
    if (t->stage != MANI_TRAIN_STAGE_DONE) {
        fprintf(stderr, "torch_export: not done after %" PRIu64 " iterations\n", total);
        return 1;
    }
    size_t normFloats = 0;
    for (uint32_t n = 0; n < t->netCount; ++n)
        normFloats += 2u * (size_t)t->nets[n].in[0] + 2u * (size_t)t->nets[n].out[t->nets[n].layers - 1];
    WriteF32("z.f32", t->z, (size_t)t->frames * t->latent);
    WriteF32("norms.f32", t->norms, normFloats);
    WriteF32("params1.f32", t->params, t->paramCount);
    WriteU32("picks.u32", picks, (size_t)total * B);
    WriteF32("queries.f32", queries, q);
    WriteF32("loss.f32", loss, (size_t)total);
    WriteF32("rate.f32", rate, (size_t)total);
    WriteU32("stage.u32", stageOf, (size_t)total);

    FILE* m = OpenOut("manifest.json");
    fprintf(m, "{\n  \"seed\": %" PRIu64 ",\n", seed);
    fprintf(m, "  \"frames\": %u, \"features\": %u, \"latent\": %u, \"state\": %u, \"bones\": %u, \"scaled\": %u,\n",
            t->frames, t->features, t->latent, t->state, t->bones, t->scaled);
    fprintf(m, "  \"tracks\": %u, \"events\": %u, \"outputs\": %u, \"projectors\": %u,\n", t->tracks, t->events, t->outputs,
            P);
    fprintf(m, "  \"dt\": %.9g,\n  \"paramCount\": %zu,\n  \"iterations\": %" PRIu64 ",\n", (double)t->dt,
            t->paramCount, total);
    /* The skeleton's parents (-1 a root): the reference's kinematics. */
    fprintf(m, "  \"parents\": [");
    for (uint32_t b = 0; b < t->bones; ++b)
        fprintf(m, "%s%d", b ? ", " : "", t->parents[b] == 0xFFFFFFFFu ? -1 : (int)t->parents[b]);
    fprintf(m, "],\n");
    fprintf(m, "  \"entries\": [");
    for (uint32_t e = 0; e < t->source.database->entryCount; ++e) {
        maniMatchEntry entry;
        if (maniMotionDatabase_GetEntry(t->source.database, e, &entry) != mani_success) return 1;
        fprintf(m, "%s{\"firstFrame\": %u, \"frameCount\": %u, \"tags\": %" PRIu64 "}", e ? ", " : "", entry.firstFrame,
                entry.frameCount, (uint64_t)entry.tags);
    }
    fprintf(m, "],\n");
    fprintf(m, "  \"passingFirst\": [");
    for (uint32_t p = 0; p <= P; ++p) fprintf(m, "%s%u", p ? ", " : "", t->passingFirst[p]);
    fprintf(m, "],\n  \"options\": {\n");
    fprintf(m, "    \"latentCount\": %u,\n    \"compressorWidth\": %u,\n    \"compressorLayers\": %u,\n", o->latentCount,
            o->compressorWidth, o->compressorLayers);
    fprintf(m, "    \"decompressorWidth\": %u,\n    \"decompressorLayers\": %u,\n", o->decompressorWidth,
            o->decompressorLayers);
    fprintf(m, "    \"stepperWidth\": %u,\n    \"stepperLayers\": %u,\n", o->stepperWidth, o->stepperLayers);
    fprintf(m, "    \"projectorWidth\": %u,\n    \"projectorLayers\": %u,\n", o->projectorWidth, o->projectorLayers);
    fprintf(m, "    \"batchSize\": %u,\n    \"trainingWindow\": %u,\n    \"stepperWindow\": %u,\n", o->batchSize,
            o->trainingWindow, o->stepperWindow);
    fprintf(m, "    \"decompressorIterations\": %" PRIu64 ",\n    \"stepperIterations\": %" PRIu64
               ",\n    \"projectorIterations\": %" PRIu64 ",\n",
            o->decompressorIterations, o->stepperIterations, o->projectorIterations);
    JsonF32(m, "learningRate", o->learningRate, 1);
    JsonF32(m, "weightDecay", o->weightDecay, 1);
    JsonF32(m, "beta1", o->beta1, 1);
    JsonF32(m, "beta2", o->beta2, 1);
    JsonF32(m, "epsilon", o->epsilon, 1);
    JsonF32(m, "decayRate", o->decayRate, 1);
    fprintf(m, "    \"decayInterval\": %u,\n    \"seed\": %" PRIu64 "\n  },\n", o->decayInterval, o->seed);
    fprintf(m, "  \"networks\": [\n");
    for (uint32_t n = 0; n < t->netCount; ++n) {
        const mani_TrainNet* net = &t->nets[n];
        fprintf(m, "    {\"first\": %zu, \"count\": %zu, \"elu\": %u, \"layers\": [", net->first, net->count, net->elu);
        for (uint32_t k = 0; k < net->layers; ++k)
            fprintf(m, "%s{\"in\": %u, \"out\": %u, \"weights\": %zu, \"biases\": %zu}", k ? ", " : "", net->in[k],
                    net->out[k], net->weights[k], net->biases[k]);
        fprintf(m, "]}%s\n", n + 1 < t->netCount ? "," : "");
    }
    fprintf(m, "  ],\n");
    fprintf(m, "  \"files\": {\"x\": \"x.f32\", \"y\": \"y.f32\", \"z\": \"z.f32\", \"norms\": \"norms.f32\",\n"
               "            \"params0\": \"params0.f32\", \"params1\": \"params1.f32\", \"passing\": \"passing.u32\",\n"
               "            \"picks\": \"picks.u32\", \"queries\": \"queries.f32\", \"loss\": \"loss.f32\",\n"
               "            \"rate\": \"rate.f32\", \"stage\": \"stage.u32\"}\n}\n");
    fclose(m);
    const uint32_t frames = t->frames, features = t->features, outputs = t->outputs;
    const size_t paramCount = t->paramCount;
    maniDestroyLearnedTrainer(t);
    DeferredFlush(&deferred);
    free(deferred.blocks);
    maniFixtureFreeTrainRig(&rig);
    free(picks);
    free(queries);
    free(loss);
    free(rate);
    free(stageOf);
    printf("torch_export: %" PRIu64 " iterations, %u frames, %u features, %u outputs, %zu parameters -> %s\n", total,
           frames, features, outputs, paramCount, gDir);
    return 0;
}
