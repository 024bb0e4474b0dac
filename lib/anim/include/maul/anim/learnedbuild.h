/* Maul Anim: learnedbuild.h
 *
 * Building learned motion matching models (learned.h) from networks'
 * weights: what a trainer gives, or networks trained elsewhere. Offline
 * (built unless MAUL_ANIM_OFFLINE is off). The format is in docs/formats.md
 * ("Learned model").
 */
#ifndef MAUL_ANIM_LEARNEDBUILD_H
#define MAUL_ANIM_LEARNEDBUILD_H

#include "maul/anim/build.h"
#include "maul/anim/learned.h"
#include "maul/anim/match.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The highest step rate of a model, steps per second. */
#define MANI_MAX_LEARNED_RATE 240.0f
/* The most latent values of a state. */
#define MANI_MAX_LEARNED_LATENT 256u
/* The most Projectors of a model. */
#define MANI_MAX_LEARNED_PROJECTORS 16u
/* The most float tracks a model gives. */
#define MANI_MAX_LEARNED_FLOAT_TRACKS 64u
/* The most events a model gives the state of. */
#define MANI_MAX_LEARNED_EVENTS 64u
/* The most layers of a network. */
#define MANI_MAX_LEARNED_LAYERS 8u
/* The widest input or output of a layer. */
#define MANI_MAX_LEARNED_WIDTH 65536u
/* The most weights of a network (all its layers). */
#define MANI_MAX_LEARNED_WEIGHTS 16777216u

/* How a model keeps its weights. Frozen values (files record them). */
typedef enum maniLearnedWeights {
    maniLearnedWeightsFloat32 = 0, /* binary32 */
    maniLearnedWeights16 = 1       /* 16-bit integers, per input of a layer a binary32 scale */
} maniLearnedWeights;

/* A layer: outputs = biases + weights x inputs, then a rectifier (max(v, 0))
 * unless it is its network's last. */
typedef struct maniLearnedLayerSource {
    uint32_t inputs;        /* 1 to MANI_MAX_LEARNED_WIDTH; the previous layer's outputs (the first: the network's inputs) */
    uint32_t outputs;       /* 1 to MANI_MAX_LEARNED_WIDTH; the last: the network's outputs */
    const float* weights;   /* outputs x inputs, output by output (row-major), finite */
    const float* biases;    /* outputs, finite */
} maniLearnedLayerSource;

/* A network: its input normalization, layers and output denormalization. */
typedef struct maniLearnedNetworkSource {
    const maniLearnedLayerSource* layers;
    uint32_t layerCount;           /* 1 to MANI_MAX_LEARNED_LAYERS */
    const float* inputOffsets;     /* per input: taken from the value */
    const float* inputScales;      /* per input: divides the value, finite and above 0 */
    const float* outputOffsets;    /* per output: added to the last layer's value times its scale, finite */
    const float* outputScales;     /* per output: finite */
} maniLearnedNetworkSource;

/* A Projector: its network (features to a state) and the tag filter of the
 * frames it learned (recorded, not applied: learned.h). */
typedef struct maniLearnedProjectorSource {
    maniLearnedNetworkSource network;
    uint32_t requiredTags;
    uint32_t excludedTags;
} maniLearnedProjectorSource;

/* A name of a list (float tracks, events). */
typedef struct maniLearnedNameSource {
    const char* name;   /* UTF-8, not terminated */
    size_t length;      /* 1 to MANI_MAX_NAME_BYTES */
} maniLearnedNameSource;

/* A model's source. With F the database's features, L the latent values, B
 * the skeleton's bones, S the scaled bones, T float tracks and E events: a
 * state holds F + L values; the Decompressor maps a state to 9 B + 3 S + 6
 * + T + E outputs (per bone its translation and two rotation columns, per
 * scaled bone its scale, the root's velocity then angular velocity, the
 * float tracks, the events' states); the Stepper maps a state to a state's
 * rate of change (F + L); each Projector maps F normalized features to a
 * state. */
typedef struct maniLearnedModelSource {
    const maniSkeleton* skeleton;              /* the skeleton (opened) */
    const maniMotionDatabase* database;        /* the database learned (opened), of the skeleton */
    float stepRate;                            /* steps per second, above 0, at most MANI_MAX_LEARNED_RATE */
    uint32_t latentCount;                      /* 1 to MANI_MAX_LEARNED_LATENT */
    uint32_t weightFormat;                     /* a maniLearnedWeights */
    const float* boneScales;                   /* 3 per bone: the constant scale of a bone not scaled, finite */
    const uint32_t* scaledBones;               /* increasing bones whose scale the Decompressor gives */
    uint32_t scaledBoneCount;
    maniLearnedNetworkSource decompressor;
    maniLearnedNetworkSource stepper;
    const maniLearnedProjectorSource* projectors;
    uint32_t projectorCount;                   /* 1 to MANI_MAX_LEARNED_PROJECTORS */
    const maniLearnedNameSource* floatTracks;  /* the float tracks' names, in output order */
    uint32_t floatTrackCount;
    const maniLearnedNameSource* events;       /* the events' names, in output order */
    uint32_t eventCount;
} maniLearnedModelSource;

/* Builds a model: checks the networks' shapes against their roles and every
 * value, copies the database's channels, normalization and axes, and writes
 * the weights as asked (16-bit: each input's weights divided by the largest
 * of their magnitudes over 32767, rounded to nearest, ties to even, that
 * scale kept; an input whose weights are all 0 keeps scale 0). Keeps the
 * file in place of any built before.
 * Returns mani_success; mani_errorLimit with the reason and item for a
 * source past a bound (no misuse): a name past MANI_MAX_NAME_BYTES (the
 * reason and item a refused name gets), maniBuildReasonTiming (a step rate
 * past MANI_MAX_LEARNED_RATE), maniBuildReasonOption (item 0: more than
 * MANI_MAX_LEARNED_LATENT latent values), maniBuildReasonCount (more than
 * MANI_MAX_LEARNED_PROJECTORS Projectors, MANI_MAX_LEARNED_FLOAT_TRACKS
 * float tracks or MANI_MAX_LEARNED_EVENTS events), maniBuildReasonNetwork
 * (more than MANI_MAX_LEARNED_LAYERS layers, a layer wider than
 * MANI_MAX_LEARNED_WIDTH or more than MANI_MAX_LEARNED_WEIGHTS weights; item
 * and other as below); mani_errorInvalid for a NULL argument (a misuse), or
 * with the reason and item for a refused source: maniBuildReasonDatabase (a
 * database of another skeleton, or a view no open wrote), maniBuildReasonTiming
 * (a step rate not above 0), maniBuildReasonOption (no latent values or the
 * weight format), maniBuildReasonCount (no Projector), maniBuildReasonJoint
 * (a scaled bone past the skeleton or not increasing; item its place, a
 * skeleton no open wrote item 0), maniBuildReasonNotFinite (a bone's scale,
 * or boneScales NULL; item the bone), maniBuildReasonNetwork (item the
 * network: 0 the Decompressor, 1 the Stepper, 2 + p Projector p; other its
 * layer: no layers or NULL arrays, a shape that does not chain or fit the
 * role, a value not finite; or its layer count for its normalization),
 * maniBuildReasonFloatTrack or maniBuildReasonEvent combined with
 * maniBuildReasonName (empty, NULL or not UTF-8) or
 * maniBuildReasonDuplicateName (other the earlier); mani_errorBusy from the
 * allocator's hooks; mani_errorCapacity when memory runs out. On failure the
 * builder keeps what it held. Safe from any thread; the builder is used by
 * one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildLearnedModel(maniBuilder* builder,
                                                              const maniLearnedModelSource* source);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_LEARNEDBUILD_H */
