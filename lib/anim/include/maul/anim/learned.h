/* Maul Anim: learned.h
 *
 * Learned motion matching (Holden, Kanoun, Perepichka and Popa, 2020): a
 * model of three kinds of network that stands in for a motion database and
 * its clips. A state is a frame's normalized features followed by its latent
 * values. A Projector maps a query to the state of the nearest frame it
 * learned, the Stepper moves a state one step on, and the Decompressor gives
 * the pose, the root's motion, the float tracks and the events' states of a
 * state. Models are built offline (learnedbuild.h) and opened in place; every
 * evaluation runs in binary32 with a fixed order of operations and no
 * contraction, so it gives the same bits on every target. The file format is
 * in docs/formats.md ("Learned model").
 */
#ifndef MAUL_ANIM_LEARNED_H
#define MAUL_ANIM_LEARNED_H

#include "maul/anim/base.h"
#include "maul/anim/match.h"
#include "maul/anim/pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The alignment of an evaluation's scratch memory, bytes. */
#define MANI_LEARNED_SCRATCH_ALIGNMENT 16u

/* What a Decompress writes. The pose and arrays are the caller's; a NULL
 * array takes nothing (its capacity must then be 0). */
typedef struct maniLearnedOutput {
    maniPose* pose;              /* a pose of the model's bone count, not a difference: every bone's local transform */
    maniVec3 rootVelocity;       /* the root's velocity, in the root's space at the frame, units per second */
    maniVec3 rootAngularVelocity;/* the root's angular velocity, in the root's space, radians per second */
    float* floatTracks;          /* the model's float track values, in its order */
    uint32_t floatTrackCapacity; /* floats floatTracks holds */
    float* eventStates;          /* per event the state the Decompressor gives it, in the model's order */
    uint32_t eventCapacity;      /* floats eventStates holds */
} maniLearnedOutput;

/* A learned model view: where an open found the file's parts. A value the
 * caller keeps (it points into the caller's bytes, which must outlive it);
 * only maniOpenLearnedModel writes one. */
typedef struct maniLearnedModel {
    const uint8_t* bytes;      /* the file */
    uint64_t size;             /* its size */
    uint64_t identity;         /* the file's identity (the hash of its sections) */
    uint64_t skeletonIdentity; /* the skeleton it was built for */
    uint64_t databaseIdentity; /* the motion database it learned */
    uint32_t opened;           /* set by an open */
    uint32_t boneCount;        /* bones of the skeleton */
    uint32_t featureCount;     /* features of a query (the database's) */
    uint32_t latentCount;      /* latent values of a state after its features */
    uint32_t channelCount;     /* the database's channels */
    uint32_t projectorCount;   /* Projectors, network 2 + p */
    uint32_t floatTrackCount;  /* float tracks the Decompressor gives */
    uint32_t eventCount;       /* events the Decompressor gives the state of */
    uint32_t scaledBoneCount;  /* bones whose scale the Decompressor gives */
    uint32_t weightFormat;     /* a maniLearnedWeights */
    uint32_t upAxis;           /* the database's axes: 0 x, 1 y, 2 z */
    uint32_t forwardAxis;
    float stepRate;            /* steps per second */
    uint32_t layerCount;       /* layers of every network */
    uint32_t maxWidth;         /* the widest input or output of any layer */
    uint32_t reserved;         /* 0 */
    uint64_t channels;         /* offsets of the sections in the file */
    uint64_t normalization;
    uint64_t boneScales;
    uint64_t scaledBones;
    uint64_t nameIndex;
    uint64_t names;
    uint64_t namesSize;
    uint64_t networks;
    uint64_t layers;
    uint64_t parameters;
    uint64_t networkParameters[2 + 16]; /* per network: its parameters' offset in the file */
} maniLearnedModel;

/* Opens a model file in place: checks the container, every record, count
 * and float, that each network's layers chain and fit its role (the
 * Decompressor from a state to the outputs, the Stepper from a state to a
 * state's rate of change, each Projector from features to a state), and
 * the names. bytes must start at a multiple of MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. modelOut is unchanged on failure. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenLearnedModel(const void* bytes, size_t size, maniLearnedModel* modelOut);

/* A model's identity: the hash of its sections; 0 for NULL. */
MANI_API uint64_t maniLearnedModel_GetIdentity(const maniLearnedModel* model);
/* The identity of the skeleton a model was built for; 0 for NULL. */
MANI_API uint64_t maniLearnedModel_GetSkeletonIdentity(const maniLearnedModel* model);
/* The identity of the motion database a model learned; 0 for NULL. */
MANI_API uint64_t maniLearnedModel_GetDatabaseIdentity(const maniLearnedModel* model);

/* Reads a channel of the database a model learned (a query is laid out as
 * that database's features). Returns mani_success; mani_errorInvalid for a
 * NULL argument or an index past the channels (channelOut unchanged). */
MANI_NODISCARD MANI_API maniResult maniLearnedModel_GetChannel(const maniLearnedModel* model, uint32_t channel,
                                                               maniMatchChannel* channelOut);

/* Reads the normalization of the database a model learned: per feature, the
 * offset taken from a value and the scale it is divided by. Call it with
 * both arrays NULL and capacity 0 to measure (*countOut, when not NULL,
 * receives the feature count). Returns mani_success; mani_errorCapacity
 * when capacity is below the feature count, with the count still written
 * and nothing else; mani_errorInvalid for a NULL model, or both arrays NULL
 * with a positive capacity. Either array may be NULL to skip it. */
MANI_NODISCARD MANI_API maniResult maniLearnedModel_GetNormalization(const maniLearnedModel* model, float* offsetsOut,
                                                                     float* scalesOut, uint32_t capacity,
                                                                     uint32_t* countOut);

/* Reads the tag filter a Projector learned: an entry's tags held all of
 * required and none of excluded for its frames to be targets. Returns
 * mani_success; mani_errorInvalid for a NULL model or an index past the
 * Projectors (outputs unchanged). A NULL output is skipped. */
MANI_NODISCARD MANI_API maniResult maniLearnedModel_GetProjector(const maniLearnedModel* model, uint32_t projector,
                                                                 uint32_t* requiredOut, uint32_t* excludedOut);

/* The number of float tracks a model gives; 0 for NULL. */
MANI_API uint32_t maniLearnedModel_GetFloatTrackCount(const maniLearnedModel* model);
/* The number of events a model gives the state of; 0 for NULL. */
MANI_API uint32_t maniLearnedModel_GetEventCount(const maniLearnedModel* model);
/* The name of a float track a model gives: UTF-8, not terminated (*lengthOut
 * its length when not NULL); NULL for a NULL model or an index past the
 * tracks. */
MANI_API const char* maniLearnedModel_GetFloatTrackName(const maniLearnedModel* model, uint32_t track,
                                                        size_t* lengthOut);
/* The name of an event a model gives the state of, as above; NULL for a
 * NULL model or an index past the events. */
MANI_API const char* maniLearnedModel_GetEventName(const maniLearnedModel* model, uint32_t event, size_t* lengthOut);

/* The bytes of scratch memory (at MANI_LEARNED_SCRATCH_ALIGNMENT) an
 * evaluation of the model needs; 0 for NULL. */
MANI_API size_t maniLearnedModel_GetScratchSize(const maniLearnedModel* model);

/* Projects a query onto the state of the nearest frame a Projector learned.
 * The query is the database's feature count of raw values; it is
 * normalized by the database's normalization ((value - offset) / scale) and
 * run through the Projector (docs/formats.md gives the evaluation). Call it
 * with a NULL state and capacity 0 to measure (*countOut, when not NULL,
 * receives the state's count: features plus latent values).
 * Returns mani_success; mani_errorCapacity when capacity is below the
 * state's count, with the count still written and nothing else;
 * mani_errorFormat when the Projector gives a value past the float range,
 * the model's data (stateOut unchanged); mani_errorInvalid for a NULL
 * argument, a NULL state with a positive capacity, an index past the
 * Projectors, a query value not finite, misaligned or too little scratch.
 * Safe from any thread (each with its own scratch). */
MANI_NODISCARD MANI_API maniResult maniLearnedModel_Project(const maniLearnedModel* model, uint32_t projector,
                                                            const float* query, float* stateOut, uint32_t capacity,
                                                            uint32_t* countOut, void* scratch, size_t scratchSize);

/* Moves a state one step on: adds the Stepper's rate of change times one
 * step's seconds (1 / the model's step rate, in binary32), value by value.
 * Returns mani_success; mani_errorFormat when the step would take a value
 * past the float range, the model's data (the state unchanged);
 * mani_errorInvalid for a NULL argument, a state value not finite,
 * misaligned or too little scratch. Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniLearnedModel_Step(const maniLearnedModel* model, float* state, void* scratch,
                                                         size_t scratchSize);

/* Decompresses a state: every bone's translation, its rotation from two
 * matrix columns (made orthonormal, the first kept: the second loses its
 * part along the first, the third is their cross product; a column of
 * length 0 gives the identity rotation), its scale (given, or the constant
 * the model keeps), the root's velocity and angular velocity, the float
 * tracks and the events' states. Returns mani_success; mani_errorFormat when
 * the Decompressor gives a value past the float range, the model's data
 * (nothing written); mani_errorCapacity when an array given holds fewer
 * floats than the model gives (nothing written); mani_errorInvalid for a
 * NULL argument, a state value not finite, a pose of another bone count or
 * holding a difference, misaligned or too little scratch. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniResult maniLearnedModel_Decompress(const maniLearnedModel* model, const float* state,
                                                               maniLearnedOutput* resultOut, void* scratch,
                                                               size_t scratchSize);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_LEARNED_H */
