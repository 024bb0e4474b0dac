/* The learned trainer's state (learnedtrain.h), shared by its sources. */
#ifndef MAUL_ANIM_LEARNED_TRAIN_INTERNAL_H
#define MAUL_ANIM_LEARNED_TRAIN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/rng.h"
#include "maul/anim/learnedtrain.h"

/* Networks of a trainer: the Compressor, the Decompressor, the Stepper, then
 * the Projectors. */
#define MANI_TRAIN_COMPRESSOR 0u
#define MANI_TRAIN_DECOMPRESSOR 1u
#define MANI_TRAIN_STEPPER 2u
#define MANI_TRAIN_PROJECTOR0 3u
#define MANI_TRAIN_MAX_NETWORKS (3u + MANI_MAX_LEARNED_PROJECTORS)

/* Stages. */
#define MANI_TRAIN_STAGE_DECOMPRESSOR 0u
#define MANI_TRAIN_STAGE_STEPPER 1u
#define MANI_TRAIN_STAGE_PROJECTORS 2u
#define MANI_TRAIN_STAGE_DONE 3u

/* A dense network: layer k maps in[k] to out[k] values (weights out x in,
 * row-major, then biases), a rectifier (or ELU) after every layer but the
 * last. Its parameters start at `first` in the trainer's parameters. */
typedef struct mani_TrainNet {
    uint32_t layers;
    uint32_t elu;
    uint32_t in[MANI_MAX_LEARNED_LAYERS];
    uint32_t out[MANI_MAX_LEARNED_LAYERS];
    size_t weights[MANI_MAX_LEARNED_LAYERS]; /* offsets from first */
    size_t biases[MANI_MAX_LEARNED_LAYERS];
    size_t count;      /* parameters */
    size_t first;      /* offset in the trainer's parameters */
    size_t activations;/* floats of one forward run's activations (input and every layer's output) */
    float* inOffsets;  /* normalization of the inputs and outputs (the model's) */
    float* inScales;
    float* outOffsets;
    float* outScales;
} mani_TrainNet;

struct maniLearnedTrainer {
    maniAllocator allocator;
    maniLearnedTaskHooks tasks;
    uint32_t misuse;
    uint32_t busy;       /* > 0 while the host's allocator or task code runs */
    uint32_t destroying;
    uint32_t building;   /* > 0 while a model is built from it */
    maniLearnedTrainerSource source;
    maniLearnedTrainerOptions options;
    uint64_t signature;
    /* Counts. */
    uint32_t frames, features, latent, state, bones, scaled, tracks, events, outputs;
    float dt;
    /* Data (one block). */
    uint8_t* data;
    size_t dataSize;
    float* x;            /* frames x features: the database's normalized features */
    float* y;            /* frames x outputs: the Decompressor's targets */
    float* z;            /* frames x latent: the latent values (stage 1's end) */
    float* q;            /* frames x bones x MANI_TRAIN_XFM: the targets' character space (mani_TrainFkForward) */
    uint32_t* parents;   /* per bone (the skeleton's) */
    float* yMean;        /* per output */
    float* yStd;
    float* boneScales;   /* 3 per bone */
    uint32_t* scaledBones;
    uint32_t* windowStarts[2]; /* frames a window of trainingWindow / stepperWindow frames may start at */
    uint32_t windowCount[2];
    uint32_t* passing;   /* per Projector its frames, one after another */
    uint32_t passingFirst[MANI_MAX_LEARNED_PROJECTORS + 1];
    float* noiseStd;     /* per feature: Holden's std + 1 */
    float* ones;         /* max(state, outputs) ones and zeros: the Decompressor's input normalization */
    float* zeros;
    float* norms;        /* every network's normalization */
    mani_TrainNet nets[MANI_TRAIN_MAX_NETWORKS];
    uint32_t netCount;
    float* params;       /* every network's parameters */
    size_t paramCount;
    /* Progress. */
    uint32_t stage;
    uint32_t projector;
    uint64_t stageIteration;
    float learningRate;
    float beta1Power, beta2Power;
    mcore_Rng rng;
    uint32_t statsReady; /* the Stepper's and Projectors' normalization computed from the latent values */
    /* The running stage's memory (NULL between stages). */
    uint8_t* stageBlock;
    size_t stageBlockSize;
    float* moments;      /* 3 x the stage's parameters: m, v, max v */
    float* grads;        /* chunks x the stage's parameters */
    float* weightsT;     /* the stage's parameters with every weight block transposed (the forward's) */
    float* scratch;      /* chunks x scratchPerChunk */
    size_t scratchPerChunk;
    float* rowsArea;     /* chunks x the chunk's rows of rowFloats, one stride (mani_TrainRowFloats) */
    size_t rowFloats;
    float* chunkLoss;    /* per chunk */
    uint32_t* picks;     /* per sample: its frame (or window start) */
    float* noise;        /* per sample: features (stage 3) */
    size_t stageFirst;   /* the stage's parameters in params */
    size_t stageCount;
};

/* Stage 1's forward kinematics (learned_train_fk.c). A bone's transform:
 * its position, then its rotation's three columns. */
#define MANI_TRAIN_XFM 12u
/* Floats a row's kinematics keeps per bone: the local rotation (9), the
 * model-space and character-space transforms and their gradients (4 x 12). */
#define MANI_TRAIN_FK_FLOATS 57u

/* Every bone's character-space transform (bone 0's model space inverted
 * times the bone's, the skeleton's parents in index order) of a row of
 * Decompressor outputs y (per bone translation and two rotation columns,
 * orthonormalized as maniLearnedModel_Decompress does; scales not applied),
 * into fk (bones x MANI_TRAIN_FK_FLOATS); the character space's gradient
 * zeroed. */
void mani_TrainFkForward(const uint32_t* parents, uint32_t bones, const float* y, float* fk);
/* A bone's character-space transform in fk (MANI_TRAIN_XFM), and its
 * gradient, which the loss writes before mani_TrainFkBackward. */
const float* mani_TrainFkCharacter(const float* fk, uint32_t bone);
float* mani_TrainFkCharacterGrad(float* fk, uint32_t bone);
/* Adds the character space's gradient, back through the kinematics, to dy
 * (the gradient of y's translations and rotation columns). */
void mani_TrainFkBackward(const uint32_t* parents, uint32_t bones, const float* y, float* fk, float* dy);

#endif
