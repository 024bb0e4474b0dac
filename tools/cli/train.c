/* maul train (tools/cli/train.h). */
#include "tools/cli/train.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/json/json.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedtrain.h"
#include "maul/anim/match.h"
#include "maul/anim/skeleton.h"
#include "tools/cli/files.h"

static int maul_TrainUsage(void) {
    fprintf(stderr,
            "usage: maul train DB --skeleton S --out MODEL CLIP... [--iterations N] [--latent N]\n"
            "                  [--width N] [--batch N] [--stepper-window N] [--seed N] [--weights f32|16]\n"
            "                  [--checkpoint FILE] [--every N] [--resume FILE] [--for N] [--json]\n"
            "  trains a learned motion matching model on the motion database file DB (built\n"
            "  from the clip files CLIP, given in the database's order, of the skeleton file S)\n"
            "  with Holden's options but those given: --iterations each stage's (default\n"
            "  1000000), --latent the latent values, --width every network's hidden width,\n"
            "  --batch the samples an iteration (a multiple of 4), --stepper-window the\n"
            "  Stepper's frames a sample (default 20), --seed the generator's;\n"
            "  one Projector over every frame. --checkpoint FILE is written every --every N\n"
            "  iterations (default 1000) and when the run stops; --resume FILE restores one\n"
            "  first; --for N stops after N iterations of this run without a model. MODEL is\n"
            "  written once every stage is done (--weights: binary32, the default, or 16-bit).\n"
            "  Exit status: 0 written, 1 a file refused, 2 usage, I/O or memory errors.\n");
    return 2;
}

/* A whole decimal number from 1 (or 0 when zero is allowed); 0 on success. */
static int maul_ParseCount(const char* text, int allowZero, uint64_t* out) {
    if (text[0] < '0' || text[0] > '9') return -1;
    char* end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || (!allowZero && v == 0)) return -1;
    *out = (uint64_t)v;
    return 0;
}

static const char* const maul_stageNames[4] = {"compressor and decompressor", "stepper", "projectors", "done"};

/* The iterations the trainer's current stage takes in all. */
static uint64_t maul_StageTotal(const maniLearnedTrainerOptions* o, uint32_t stage) {
    switch (stage) {
    case 0: return o->decompressorIterations;
    case 1: return o->stepperIterations;
    case 2: return o->projectorIterations;
    default: return 0;
    }
}

/* Writes the trainer's checkpoint to path; 0 on success. */
static int maul_WriteCheckpoint(const maniLearnedTrainer* trainer, const char* path) {
    size_t size = 0;
    if (maniLearnedTrainer_SaveCheckpoint(trainer, NULL, 0, &size) != mani_errorCapacity || size == 0) {
        fprintf(stderr, "maul train: cannot measure the checkpoint\n");
        return -1;
    }
    const size_t rounded = (size + MANI_FILE_ALIGNMENT - 1) / MANI_FILE_ALIGNMENT * MANI_FILE_ALIGNMENT;
    void* bytes = aligned_alloc(MANI_FILE_ALIGNMENT, rounded);
    if (bytes == NULL) {
        fprintf(stderr, "maul train: out of memory for the checkpoint\n");
        return -1;
    }
    int status = 0;
    if (maniLearnedTrainer_SaveCheckpoint(trainer, bytes, size, NULL) != mani_success) {
        fprintf(stderr, "maul train: cannot save the checkpoint\n");
        status = -1;
    } else if (maul_WriteFile(path, bytes, size) != 0) {
        fprintf(stderr, "maul train: cannot write %s\n", path);
        status = -1;
    }
    free(bytes);
    return status;
}

int maul_Train(FILE* out, int argc, char** argv) {
    const char *databasePath = NULL, *skeletonPath = NULL, *outPath = NULL;
    const char *checkpointPath = NULL, *resumePath = NULL;
    uint64_t iterations = 0, latent = 0, width = 0, batch = 0, seed = 0, window = 0, every = 1000, budget = 0;
    int haveIterations = 0, haveLatent = 0, haveWidth = 0, haveBatch = 0, haveSeed = 0, haveWindow = 0, haveBudget = 0;
    int json = 0, clipCount = 0;
    maniLearnedWeights weights = maniLearnedWeightsFloat32;
    const char** clipPaths = (const char**)calloc((size_t)argc + 1, sizeof(char*));
    if (clipPaths == NULL) return 2;
    for (int i = 0; i < argc; ++i) {
        const char* a = argv[i];
        const int hasValue = i + 1 < argc;
        const char* v = hasValue ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(a, "--skeleton") == 0 && hasValue) {
            skeletonPath = argv[++i];
        } else if (strcmp(a, "--out") == 0 && hasValue) {
            outPath = argv[++i];
        } else if (strcmp(a, "--checkpoint") == 0 && hasValue) {
            checkpointPath = argv[++i];
        } else if (strcmp(a, "--resume") == 0 && hasValue) {
            resumePath = argv[++i];
        } else if (strcmp(a, "--iterations") == 0 && hasValue) {
            bad = maul_ParseCount(v, 0, &iterations), haveIterations = 1, ++i;
        } else if (strcmp(a, "--latent") == 0 && hasValue) {
            bad = maul_ParseCount(v, 0, &latent) || latent > UINT32_MAX, haveLatent = 1, ++i;
        } else if (strcmp(a, "--width") == 0 && hasValue) {
            bad = maul_ParseCount(v, 0, &width) || width > UINT32_MAX, haveWidth = 1, ++i;
        } else if (strcmp(a, "--batch") == 0 && hasValue) {
            bad = maul_ParseCount(v, 0, &batch) || batch > UINT32_MAX, haveBatch = 1, ++i;
        } else if (strcmp(a, "--stepper-window") == 0 && hasValue) {
            bad = maul_ParseCount(v, 0, &window) || window > UINT32_MAX, haveWindow = 1, ++i;
        } else if (strcmp(a, "--seed") == 0 && hasValue) {
            bad = maul_ParseCount(v, 1, &seed), haveSeed = 1, ++i;
        } else if (strcmp(a, "--every") == 0 && hasValue) {
            bad = maul_ParseCount(v, 0, &every), ++i;
        } else if (strcmp(a, "--for") == 0 && hasValue) {
            bad = maul_ParseCount(v, 0, &budget), haveBudget = 1, ++i;
        } else if (strcmp(a, "--weights") == 0 && hasValue) {
            if (strcmp(v, "f32") == 0)
                weights = maniLearnedWeightsFloat32;
            else if (strcmp(v, "16") == 0)
                weights = maniLearnedWeights16;
            else
                bad = 1;
            ++i;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] != '-' && databasePath == NULL) {
            databasePath = a;
        } else if (a[0] != '-') {
            clipPaths[clipCount++] = a;
        } else {
            bad = 1;
        }
        if (bad) {
            free(clipPaths);
            return maul_TrainUsage();
        }
    }
    if (databasePath == NULL || skeletonPath == NULL || outPath == NULL || clipCount == 0 ||
        (haveBudget && checkpointPath == NULL)) {
        free(clipPaths);
        return maul_TrainUsage();
    }

    int status = 2;
    void *skeletonBytes = NULL, *databaseBytes = NULL, *resumeBytes = NULL, *built = NULL;
    void** clipBytes = (void**)calloc((size_t)clipCount, sizeof(void*));
    maniClip* clips = (maniClip*)calloc((size_t)clipCount, sizeof(maniClip));
    maniLearnedTrainer* trainer = NULL;
    maniBuilder* builder = NULL;
    maniSkeleton skeleton;
    maniMotionDatabase database;
    if (clipBytes == NULL || clips == NULL) goto done;

    if ((status = maul_OpenSkeletonFile("train", skeletonPath, &skeletonBytes, &skeleton)) != 0) goto done;
    if ((status = maul_OpenDatabaseFile("train", databasePath, &databaseBytes, &database)) != 0) goto done;
    for (int c = 0; c < clipCount; ++c)
        if ((status = maul_OpenClipFile("train", clipPaths[c], &clipBytes[c], &clips[c])) != 0) goto done;
    status = 2;
    size_t size = 0;

    static const maniLearnedTrainerProjector everyFrame = {0, 0};
    maniLearnedTrainerSource source;
    memset(&source, 0, sizeof source);
    source.skeleton = &skeleton;
    source.database = &database;
    source.clips = clips;
    source.clipCount = (uint32_t)clipCount;
    source.projectors = &everyFrame;
    source.projectorCount = 1;
    source.options = maniDefaultLearnedTrainerOptions();
    maniLearnedTrainerOptions* o = &source.options;
    if (haveIterations) o->decompressorIterations = o->stepperIterations = o->projectorIterations = iterations;
    if (haveLatent) o->latentCount = (uint32_t)latent;
    if (haveWidth)
        o->compressorWidth = o->decompressorWidth = o->stepperWidth = o->projectorWidth = (uint32_t)width;
    if (haveBatch) o->batchSize = (uint32_t)batch;
    if (haveWindow) o->stepperWindow = (uint32_t)window;
    if (haveSeed) o->seed = seed;
    maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
    maniBuildResult made = maniCreateLearnedTrainer(&def, &source, &trainer);
    if (made.result != mani_success) {
        const char* file = databasePath;
        if (made.reason == maniBuildReasonClip && made.item < (uint64_t)clipCount) file = clipPaths[made.item];
        fprintf(stderr,
                "maul train: %s: the trainer refused: %s, reason %s (%u), item %" PRIu64 ", other %" PRIu64 "\n",
                file, maniGetResultName(made.result), maul_BuildReasonName(made.reason), made.reason, made.item,
                made.other);
        status = made.result == mani_errorCapacity ? 2 : 1;
        goto done;
    }
    if (resumePath != NULL) {
        if ((resumeBytes = maul_ReadAllAligned(resumePath, &size)) == NULL) {
            fprintf(stderr, "maul train: cannot read %s\n", resumePath);
            goto done;
        }
        maniFileResult restored = maniLearnedTrainer_RestoreCheckpoint(trainer, resumeBytes, size);
        if (restored.result != mani_success) {
            fprintf(stderr,
                    "maul train: %s: not a checkpoint of this database and these options: %s at offset %" PRIu64
                    "\n",
                    resumePath, maniGetResultName(restored.result), restored.offset);
            status = restored.result == mani_errorCapacity ? 2 : 1;
            goto done;
        }
    }

    /* Train in calls of at most `every` iterations (and what --for leaves),
     * a progress line and a checkpoint after each. */
    maniLearnedTrainerReport report;
    memset(&report, 0, sizeof report);
    if (maniLearnedTrainer_Train(trainer, 0, &report) != mani_success) goto done; /* where it stands */
    uint64_t ran = 0;
    float lastLoss = 0.0f;
    while (report.stage < 3 && (!haveBudget || ran < budget)) {
        /* Calls end at a stage's (or a Projector's) end too: a line for each. */
        uint64_t step = every;
        const uint64_t total = maul_StageTotal(o, report.stage);
        const uint64_t left = report.stageIteration < total ? total - report.stageIteration
                              : report.stage < 2                ? maul_StageTotal(o, report.stage + 1)
                                                                : o->projectorIterations; /* the next Projector */
        if (left < step) step = left;
        if (haveBudget && budget - ran < step) step = budget - ran;
        const uint32_t trained = report.stage; /* the call stays in it */
        const maniResult r = maniLearnedTrainer_Train(trainer, step, &report);
        if (r != mani_success) {
            fprintf(stderr, "maul train: training stopped: %s\n", maniGetResultName(r));
            goto done;
        }
        if (report.iterations == 0 && report.stage < 3) {
            fprintf(stderr, "maul train: the trainer made no progress\n");
            goto done;
        }
        ran += report.iterations;
        if (report.iterations > 0) lastLoss = report.lastLoss;
        /* The stage the call trained: done when the trainer moved on. */
        const uint64_t trainedTotal = maul_StageTotal(o, trained);
        fprintf(stderr, "maul train: stage %u (%s) %" PRIu64 "/%" PRIu64 " loss %.6g\n", trained + 1,
                maul_stageNames[trained], report.stage == trained ? report.stageIteration : trainedTotal, trainedTotal,
                (double)lastLoss);
        if (report.stage >= 3) fprintf(stderr, "maul train: every stage done, last loss %.6g\n", (double)lastLoss);
        if (checkpointPath != NULL && maul_WriteCheckpoint(trainer, checkpointPath) != 0) goto done;
    }
    if (checkpointPath != NULL && ran == 0 && maul_WriteCheckpoint(trainer, checkpointPath) != 0) goto done;

    size_t builtSize = 0;
    uint64_t identity = 0;
    if (report.stage >= 3) {
        maniBuilderDef bdef = maniDefaultBuilderDef();
        if (maniCreateBuilder(&bdef, &builder) != mani_success) goto done;
        maniBuildResult b = maniBuildLearnedModelFromTrainer(builder, trainer, weights);
        if (b.result != mani_success) {
            fprintf(stderr,
                    "maul train: %s: the model builder refused: %s, reason %s (%u), item %" PRIu64 ", other %" PRIu64
                    "\n",
                    databasePath, maniGetResultName(b.result), maul_BuildReasonName(b.reason), b.reason, b.item,
                    b.other);
            status = b.result == mani_errorCapacity ? 2 : 1;
            goto done;
        }
        maniLearnedModel model;
        if ((built = maul_TakeBuilt(builder, &builtSize)) == NULL ||
            maniOpenLearnedModel(built, builtSize, &model).result != mani_success)
            goto done;
        if (maul_WriteFile(outPath, built, builtSize) != 0) {
            fprintf(stderr, "maul train: cannot write %s\n", outPath);
            goto done;
        }
        identity = maniLearnedModel_GetIdentity(&model);
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, identity);
    const int done = report.stage >= 3;
    if (json) {
        mcore_JsonAllocator libc = {NULL, NULL, NULL};
        mcore_JsonWriter w;
        mcore_JsonWriterInit(&w, NULL, 0, &libc);
        mcore_JsonWriteBeginObject(&w);
        mcore_JsonWriteKey(&w, "done", 4);
        mcore_JsonWriteBool(&w, done);
        mcore_JsonWriteKey(&w, "out", 3);
        if (done)
            mcore_JsonWriteString(&w, outPath, strlen(outPath));
        else
            mcore_JsonWriteNull(&w);
        mcore_JsonWriteKey(&w, "iterations", 10);
        mcore_JsonWriteUint64(&w, ran);
        mcore_JsonWriteKey(&w, "stage", 5);
        mcore_JsonWriteUint64(&w, report.stage);
        mcore_JsonWriteKey(&w, "lastLoss", 8);
        mcore_JsonWriteDouble(&w, (double)lastLoss);
        mcore_JsonWriteKey(&w, "bytes", 5);
        mcore_JsonWriteUint64(&w, builtSize);
        mcore_JsonWriteKey(&w, "identity", 8);
        if (done)
            mcore_JsonWriteString(&w, hex, 16);
        else
            mcore_JsonWriteNull(&w);
        mcore_JsonWriteEndObject(&w);
        const int fin = mcore_JsonWriterFinish(&w) == mcore_jsonOk;
        if (fin) {
            fwrite(w.buffer, 1, w.length, out);
            fputc('\n', out);
        }
        mcore_JsonWriterRelease(&w);
        if (!fin) goto done;
    } else if (done) {
        fprintf(out, "model %s  %" PRIu64 " iterations this run, last loss %.6g  %zu bytes  identity %s\n", outPath,
                ran, (double)lastLoss, builtSize, hex);
    } else {
        fprintf(out, "stopped at stage %u after %" PRIu64 " iterations, last loss %.6g; checkpoint %s\n",
                report.stage + 1, ran, (double)lastLoss, checkpointPath);
    }
    status = 0;
done:
    maniDestroyBuilder(builder);
    maniDestroyLearnedTrainer(trainer);
    free(built);
    free(resumeBytes);
    if (clipBytes != NULL)
        for (int c = 0; c < clipCount; ++c) free(clipBytes[c]);
    free(clipBytes);
    free(clips);
    free(databaseBytes);
    free(skeletonBytes);
    free(clipPaths);
    return status;
}
