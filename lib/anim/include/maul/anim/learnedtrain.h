/* Maul Anim: learnedtrain.h
 *
 * Training learned motion matching models (learned.h) in the library, from a
 * motion database, its clips and skeleton: Holden, Kanoun, Perepichka and
 * Popa's networks, losses and optimizer (SIGGRAPH 2020, and the public
 * training scripts that go with it), with the same bits on every platform,
 * at any thread count and across checkpoints. Offline (built unless
 * MAUL_ANIM_OFFLINE is off).
 *
 * Training runs in three stages, each to its option's iterations:
 *   1. the Compressor and the Decompressor together (the Compressor maps a
 *      frame's pose values to its latent values; the Decompressor maps a
 *      frame's features and latent values back to the pose values); its end
 *      gives every frame's latent values;
 *   2. the Stepper, run on from a window's first state over the window;
 *   3. each Projector, from a frame's features with noise added to the state
 *      of the nearest frame its tag filter passes.
 * Every network is binary32, each product and sum rounded once in a fixed
 * order (no contraction). A batch is split into chunks of 4 samples; the
 * def's task hooks run the chunks (on any threads, in tasks of one or more
 * chunks), each into its own gradients, which are then summed chunk after
 * chunk (each parameter's sum in chunk order, parameter ranges on the hooks
 * too) before the optimizer's step (element by element, on the hooks too):
 * so neither the split nor the task count changes a bit. docs/learned-training.md states
 * the defaults, the losses and their sources.
 */
#ifndef MAUL_ANIM_LEARNEDTRAIN_H
#define MAUL_ANIM_LEARNEDTRAIN_H

#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedbuild.h"
#include "maul/anim/match.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most samples of a batch (a multiple of 4). */
#define MANI_MAX_LEARNED_BATCH 4096u
/* The most frames of a training window (the Decompressor's or the Stepper's). */
#define MANI_MAX_LEARNED_WINDOW 256u
/* Samples in a chunk: a batch runs as batch / 4 chunks. */
#define MANI_LEARNED_CHUNK_SAMPLES 4u

/* The value of a trainer def's two cookies, set by maniDefaultLearnedTrainerDef. */
#define MANI_LEARNED_TRAINER_DEF_COOKIE 0x4C545244u /* "DRTL" */

/* A task the trainer hands the host's task system: run it for every index
 * from 0 below the count it was given with, on any threads. */
typedef void maniLearnedTaskFunction(void* taskData, uint32_t index);

/* The host's task system a trainer runs a batch's chunks on. Both functions
 * or neither (neither: every chunk runs on the calling thread, in order); a
 * def with one of the two is refused. begin starts task(taskData, i) for i
 * from 0 below count and returns a handle (any value); wait returns once
 * every one of them has run. user is passed to both. A call back into the
 * trainer from either, or from a task, is refused with mani_errorBusy and
 * counted as a misuse. An iteration begins and waits for its chunks, then
 * (with maxTasks above 1) for the sum of their gradients and the
 * optimizer's step over ranges of the parameters. */
typedef struct maniLearnedTaskHooks {
    void* (*begin)(void* user, maniLearnedTaskFunction* task, void* taskData, uint32_t count);
    void (*wait)(void* user, void* handle);
    void* user;
    uint32_t maxTasks; /* the most tasks an iteration's chunks are handed in (its chunks split evenly, in
                          order, each task's chunks run through each network together as the calling
                          thread runs a batch without hooks); 0: a task per chunk; give the host's
                          thread count (or a small multiple) so each task has rows enough to be fast.
                          The bits do not depend on it. */
} maniLearnedTaskHooks;

/* How to make a trainer. Make one with maniDefaultLearnedTrainerDef, then
 * change the settings: the cookies (at both ends, so a def not made by the
 * function, or overwritten past its end, is refused) and abiVersion (the
 * headers' ABI version, checked against the library's) are the function's. */
typedef struct maniLearnedTrainerDef {
    uint32_t cookie;            /* MANI_LEARNED_TRAINER_DEF_COOKIE */
    uint32_t abiVersion;        /* MANI_ABI_VERSION of the headers the def was made with */
    maniAllocator allocator;    /* default: the C library's (build.h) */
    maniLearnedTaskHooks tasks; /* default: none, every chunk on the calling thread */
    uint32_t cookieEnd;         /* MANI_LEARNED_TRAINER_DEF_COOKIE */
} maniLearnedTrainerDef;

/* What to train: Holden's settings by default (maniDefaultLearnedTrainerOptions).
 * A refusal's item is the option's place in this list, counted from 0
 * (latentCount 0, compressorWidth 1, ..., seed 23). Widths are hidden
 * values of every hidden layer; layers are hidden layers (a network has one
 * more, its output layer). */
typedef struct maniLearnedTrainerOptions {
    uint32_t latentCount;            /*  0: latent values per frame, 1 to MANI_MAX_LEARNED_LATENT (Holden: 32) */
    uint32_t compressorWidth;        /*  1: 1 to MANI_MAX_LEARNED_WIDTH (512) */
    uint32_t compressorLayers;       /*  2: 1 to MANI_MAX_LEARNED_LAYERS - 1 (3), ELU after each */
    uint32_t decompressorWidth;      /*  3: (512) */
    uint32_t decompressorLayers;     /*  4: (1), rectifier after each */
    uint32_t stepperWidth;           /*  5: (512) */
    uint32_t stepperLayers;          /*  6: (2) */
    uint32_t projectorWidth;         /*  7: (512) */
    uint32_t projectorLayers;        /*  8: (4) */
    uint32_t batchSize;              /*  9: samples per iteration, a multiple of 4, at most MANI_MAX_LEARNED_BATCH (32) */
    uint32_t trainingWindow;         /* 10: frames per sample of stage 1, 2 to MANI_MAX_LEARNED_WINDOW (2) */
    uint32_t stepperWindow;          /* 11: frames per sample of stage 2, 2 to MANI_MAX_LEARNED_WINDOW (20) */
    uint64_t decompressorIterations; /* 12: iterations of stage 1, above 0 (1,000,000) */
    uint64_t stepperIterations;      /* 13: of stage 2, above 0 (1,000,000) */
    uint64_t projectorIterations;    /* 14: of stage 3, every Projector in turn, above 0 (1,000,000) */
    float learningRate;              /* 15: AdamW's, finite, at least 0 (0.001) */
    float weightDecay;               /* 16: AdamW's decoupled decay, finite, at least 0 (0.001) */
    float beta1;                     /* 17: first moment's rate, finite, 0 to below 1 (0.9) */
    float beta2;                     /* 18: second moment's rate, finite, 0 to below 1 (0.999) */
    float epsilon;                   /* 19: finite, at least 0 (1e-8) */
    float decayRate;                 /* 20: the learning rate's factor after each stage's first iteration and then every
                                        decayInterval iterations (Holden's i % 1000 == 0), finite, at least 0 (0.99) */
    uint32_t decayInterval;          /* 21: iterations between decays, above 0 (1000) */
    uint32_t reserved;               /* 22: 0 */
    uint64_t seed;                   /* 23: the generator's seed: initial weights, batches, noise (1234) */
} maniLearnedTrainerOptions;

/* A Projector to train: the tag filter of the frames it learns (an entry's
 * tags hold all of required and none of excluded). Tags are 32 bits in a
 * model (learnedbuild.h). */
typedef struct maniLearnedTrainerProjector {
    uint64_t requiredTags;
    uint64_t excludedTags;
} maniLearnedTrainerProjector;

/* What a trainer learns from. Its objects and arrays must outlive the
 * trainer. */
typedef struct maniLearnedTrainerSource {
    const maniSkeleton* skeleton;                   /* opened */
    const maniMotionDatabase* database;             /* opened, of the skeleton, at most MANI_MAX_LEARNED_RATE frames per second */
    const maniClip* clips;                          /* the database's clips, in its order (their identities its) */
    uint32_t clipCount;                             /* the database's clip count */
    const maniLearnedTrainerProjector* projectors;  /* 1 to MANI_MAX_LEARNED_PROJECTORS */
    uint32_t projectorCount;
    const maniLearnedNameSource* floatTracks;       /* float tracks the Decompressor gives (each clip's, 0 where a clip lacks it) */
    uint32_t floatTrackCount;                       /* 0 to MANI_MAX_LEARNED_FLOAT_TRACKS */
    const maniLearnedNameSource* events;            /* events whose state the Decompressor gives: 1 at a frame within half a frame of one of that name, else 0 */
    uint32_t eventCount;                            /* 0 to MANI_MAX_LEARNED_EVENTS */
    maniLearnedTrainerOptions options;
} maniLearnedTrainerSource;

/* What a Train call did. */
typedef struct maniLearnedTrainerReport {
    uint32_t stage;          /* the stage the trainer is at after the call: 0 Compressor and Decompressor, 1 Stepper, 2 Projectors, 3 done */
    uint32_t projector;      /* in stage 2, the Projector being trained */
    uint64_t iterations;     /* iterations the call ran */
    uint64_t stageIteration; /* iterations done of the current stage (of its Projector in stage 2) */
    float lastLoss;          /* the loss of the call's last iteration (0 when it ran none) */
    float learningRate;      /* the learning rate the next iteration uses */
} maniLearnedTrainerReport;

/* A trainer: made by maniCreateLearnedTrainer, used by one thread at a time. */
typedef struct maniLearnedTrainer maniLearnedTrainer;

/* Returns a trainer def with every setting at its default, with a valid
 * cookie and the headers' ABI version. Safe from any thread. */
static inline maniLearnedTrainerDef maniDefaultLearnedTrainerDef(void) {
    maniLearnedTrainerDef def;
    def.cookie = MANI_LEARNED_TRAINER_DEF_COOKIE;
    def.abiVersion = MANI_ABI_VERSION;
    def.allocator.allocate = NULL;
    def.allocator.release = NULL;
    def.allocator.user = NULL;
    def.tasks.begin = NULL;
    def.tasks.wait = NULL;
    def.tasks.user = NULL;
    def.tasks.maxTasks = 0;
    def.cookieEnd = MANI_LEARNED_TRAINER_DEF_COOKIE;
    return def;
}

/* Returns Holden's options (docs/learned-training.md): a Compressor of 3
 * hidden layers of 512 to 32 latent values, a Decompressor of 1 x 512, a
 * Stepper of 2 x 512 over windows of 20 frames, Projectors of 4 x 512;
 * AdamW (amsgrad) at a learning rate of 0.001, weight decay 0.001, betas
 * 0.9 and 0.999, epsilon 1e-8, the rate times 0.99 after each stage's first
 * iteration and every 1000 after it;
 * batches of 32, stage 1 windows of 2 frames, 1,000,000 iterations a stage,
 * seed 1234. Safe from any thread. */
static inline maniLearnedTrainerOptions maniDefaultLearnedTrainerOptions(void) {
    maniLearnedTrainerOptions o;
    o.latentCount = 32u;
    o.compressorWidth = 512u;
    o.compressorLayers = 3u;
    o.decompressorWidth = 512u;
    o.decompressorLayers = 1u;
    o.stepperWidth = 512u;
    o.stepperLayers = 2u;
    o.projectorWidth = 512u;
    o.projectorLayers = 4u;
    o.batchSize = 32u;
    o.trainingWindow = 2u;
    o.stepperWindow = 20u;
    o.decompressorIterations = 1000000u;
    o.stepperIterations = 1000000u;
    o.projectorIterations = 1000000u;
    o.learningRate = 0.001f;
    o.weightDecay = 0.001f;
    o.beta1 = 0.9f;
    o.beta2 = 0.999f;
    o.epsilon = 1e-8f;
    o.decayRate = 0.99f;
    o.decayInterval = 1000u;
    o.reserved = 0u;
    o.seed = 1234u;
    return o;
}

/* Makes a trainer: checks the def and source, and samples the training data
 * from the database's clips at its frames. The source's objects and arrays
 * must outlive the trainer.
 * Returns mani_success; mani_errorVersion for a def built against another
 * major or minor version; mani_errorLimit with the reason and item for a
 * source past a bound: maniBuildReasonOption (item the option's place: more
 * than MANI_MAX_LEARNED_LATENT latent values, a width past
 * MANI_MAX_LEARNED_WIDTH, a network of MANI_MAX_LEARNED_LAYERS hidden layers
 * or more, a batch past MANI_MAX_LEARNED_BATCH, a window past
 * MANI_MAX_LEARNED_WINDOW; item 1 for networks past the width or
 * MANI_MAX_LEARNED_WEIGHTS), maniBuildReasonTiming (a database rate past
 * MANI_MAX_LEARNED_RATE), maniBuildReasonCount (more than
 * MANI_MAX_LEARNED_PROJECTORS Projectors, MANI_MAX_LEARNED_FLOAT_TRACKS
 * float tracks or MANI_MAX_LEARNED_EVENTS events) or a name past
 * MANI_MAX_NAME_BYTES (the reason and item a refused name gets);
 * mani_errorInvalid for a NULL argument, a def without its cookie, an
 * allocator or task hooks with one function, a list missing (maniBuildReasonCount),
 * or with the reason and item for a refused source: maniBuildReasonOption
 * (item the option's place: no latent values, no width, no layers, a batch
 * not a multiple of 4, a window below 2 or longer than every entry, no
 * iterations, a rate, decay or epsilon not finite or negative, a beta not
 * below 1, no decay interval, reserved not 0), maniBuildReasonDatabase (a
 * database of another skeleton, or a view no open wrote),
 * maniBuildReasonClip (item the clip whose identity is not the database's;
 * the clip count and the database's as item and other when they differ),
 * maniBuildReasonCount (no Projector), maniBuildReasonTags (item the
 * Projector: tags past 32 bits, a tag both required and excluded, or no
 * frame that passes), maniBuildReasonFloatTrack or maniBuildReasonEvent
 * combined with maniBuildReasonName (empty, NULL or not UTF-8) or
 * maniBuildReasonDuplicateName (other the earlier); mani_errorCapacity when
 * memory runs out. *trainerOut is written only on success. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniBuildResult maniCreateLearnedTrainer(const maniLearnedTrainerDef* def,
                                                                 const maniLearnedTrainerSource* source,
                                                                 maniLearnedTrainer** trainerOut);

/* Destroys a trainer (NULL: nothing). Called back in from the trainer's
 * allocator or task hooks it destroys nothing and counts one misuse. From
 * the moment it begins, the trainer is gone to the host's code: a call on it
 * from the free hook, the trainer's own block's free among it, is refused
 * with mani_errorBusy and counted. Safe from any thread; the trainer is used
 * by one thread at a time. */
MANI_API void maniDestroyLearnedTrainer(maniLearnedTrainer* trainer);

/* The misuses counted on a trainer: calls back in from its allocator or
 * task hooks, which are refused with mani_errorBusy; 0 for NULL. */
MANI_API uint32_t maniLearnedTrainer_GetMisuse(const maniLearnedTrainer* trainer);

/* Trains on: up to iterations iterations, stage after stage. A stage whose
 * iterations are all done ends (its network kept, the rest of its memory
 * released) and the next begins when it first runs; the first stage's end
 * gives every frame's latent values. reportOut may be NULL.
 * Returns mani_success; mani_errorInvalid for a NULL trainer; mani_errorBusy
 * when called back in from the trainer's allocator or task hooks, or while
 * a model is built from it (one misuse counted); mani_errorCapacity when
 * memory runs out as a stage begins or ends (the trainer keeps its progress,
 * and a later call goes on). Its chunks run on the def's task hooks. */
MANI_NODISCARD MANI_API maniResult maniLearnedTrainer_Train(maniLearnedTrainer* trainer, uint64_t iterations,
                                                            maniLearnedTrainerReport* reportOut);

/* Writes a checkpoint of the trainer as it is now (docs/formats.md,
 * "Trainer checkpoint"): its progress, generator, networks and AdamW
 * moments, under the signature of its source and options. Call it with a
 * NULL buffer and capacity 0 to measure (*sizeOut, when not NULL, receives
 * the size); the size changes as training moves through its stages. The
 * buffer must start at a multiple of MANI_FILE_ALIGNMENT to restore in place.
 * Returns mani_success; mani_errorCapacity when capacity is smaller than
 * the checkpoint, with the size still written and the buffer zeroed;
 * mani_errorInvalid for a NULL trainer or a NULL buffer with a positive
 * capacity; mani_errorBusy when called back in from the trainer's allocator
 * or task hooks (one misuse counted). */
MANI_NODISCARD MANI_API maniResult maniLearnedTrainer_SaveCheckpoint(const maniLearnedTrainer* trainer, void* bytesOut,
                                                                     size_t capacity, size_t* sizeOut);

/* Restores a checkpoint into a trainer of the same source and options,
 * replacing its progress; training on gives the same bits as training
 * through. Returns mani_success; mani_errorInvalid for a NULL argument or
 * misaligned bytes; mani_errorFormat with the offset of the first byte found
 * wrong (the signature's, the info section's first byte, for a checkpoint of
 * another source or options); mani_errorVersion for any other format
 * version or a checkpoint written by a release of another ABI version
 * (MANI_ABI_VERSION, the container's ABI field); mani_errorBusy when called
 * back in from the host's code or while a model is built from it (counted);
 * mani_errorCapacity when memory runs out (the trainer then starts over).
 * On any other failure the trainer is unchanged. */
MANI_NODISCARD MANI_API maniFileResult maniLearnedTrainer_RestoreCheckpoint(maniLearnedTrainer* trainer,
                                                                            const void* bytes, size_t size);

/* Builds the model a trainer has trained, every stage done, through
 * maniBuildLearnedModel: its step rate the database's sample rate, its
 * weights as weightFormat asks (a maniLearnedWeights).
 * Returns as maniBuildLearnedModel; mani_errorInvalid for a NULL argument or
 * a trainer with a stage to run; mani_errorBusy when called back in from the
 * trainer's allocator or task hooks (one misuse counted on the trainer).
 * While the call runs, training, restoring or destroying the trainer is
 * refused with mani_errorBusy and counted on it; saving a checkpoint of it
 * or building it again works. Safe from any thread; the builder is used by
 * one thread at a time. The trainer is not trained meanwhile. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildLearnedModelFromTrainer(maniBuilder* builder,
                                                                         const maniLearnedTrainer* trainer,
                                                                         maniLearnedWeights weightFormat);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_LEARNEDTRAIN_H */
