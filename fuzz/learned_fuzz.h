/* What the trainer checkpoint harness and its seeds share: a seeded
 * 8-bone skeleton, two clips with root motion and a motion database of them
 * (a bone's position and the trajectory 1 s ahead), made once, and a trainer
 * source of small networks over it (a few iterations a stage). */
#ifndef MAUL_FUZZ_LEARNED_FUZZ_H
#define MAUL_FUZZ_LEARNED_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/learnedtrain.h"
#include "maul/anim/matchbuild.h"

#define MAUL_FUZZ_LEARNED_SEED 0x4C524E44u

typedef struct maul_FuzzTrainRig {
    maniSkeleton skeleton;
    maniClip clips[2];
    maniMotionDatabase database;
    maniLearnedTrainerSource source;
} maul_FuzzTrainRig;

/* The rig, made once; aborts when a build fails. */
static inline const maul_FuzzTrainRig* maul_FuzzTrainerRig(void) {
    static maul_FuzzTrainRig rig;
    static int made = 0;
    if (made) return &rig;
    size_t size = 0;
    maniSkeletonSource ss = maniFixtureMakeSkeletonSource(MAUL_FUZZ_LEARNED_SEED, 8, maniFixtureRandom);
    void* skeletonBytes = maniFixtureBuildSkeleton(&ss, &size);
    maniFixtureFreeSkeletonSource(&ss);
    if (skeletonBytes == NULL || maniOpenSkeleton(skeletonBytes, size, &rig.skeleton).result != mani_success) abort();
    for (uint32_t c = 0; c < 2; ++c) {
        maniFixtureClip fc;
        maniFixtureMakeClip(&fc, MAUL_FUZZ_LEARNED_SEED + c, &rig.skeleton,
                            MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_ALL_BONES, maniLoopClamp,
                            maniAdditiveNone);
        void* clipBytes = maniFixtureBuildClip(&fc.source, &size);
        maniFixtureFreeClip(&fc);
        if (clipBytes == NULL || maniOpenClip(clipBytes, size, &rig.clips[c]).result != mani_success) abort();
    }
    static const float now[1] = {0.0f}, ahead[1] = {1.0f};
    maniMatchChannelSource channels[2];
    memset(channels, 0, sizeof channels);
    channels[0].kind = maniMatchChannelBonePosition, channels[0].bone = 7, channels[0].times = now;
    channels[0].timeCount = 1, channels[0].weight = 1.0f;
    channels[1].kind = maniMatchChannelTrajectoryPosition, channels[1].times = ahead;
    channels[1].timeCount = 1, channels[1].weight = 1.0f;
    maniMatchEntrySource entries[2];
    memset(entries, 0, sizeof entries);
    for (uint32_t c = 0; c < 2; ++c) {
        entries[c].clip = c;
        entries[c].end = maniClip_GetDuration(&rig.clips[c]);
        entries[c].tags = 1u << c;
    }
    maniMotionDatabaseSource ds;
    memset(&ds, 0, sizeof ds);
    ds.skeleton = &rig.skeleton;
    ds.clips = rig.clips;
    ds.clipCount = 2;
    ds.channels = channels;
    ds.channelCount = 2;
    ds.entries = entries;
    ds.entryCount = 2;
    ds.rate = 30.0f;
    ds.upAxis = 1;
    ds.forwardAxis = 2;
    ds.leafSize = 8;
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* builder = NULL;
    if (maniCreateBuilder(&def, &builder) != mani_success || maniBuildMotionDatabase(builder, &ds).result != mani_success)
        abort();
    uint8_t* databaseBytes = maul_FuzzCopyBuilt(builder, &size);
    maniDestroyBuilder(builder);
    if (databaseBytes == NULL || maniOpenMotionDatabase(databaseBytes, size, &rig.database).result != mani_success)
        abort();
    static const maniLearnedTrainerProjector projectors[2] = {{0, 0}, {1, 2}};
    memset(&rig.source, 0, sizeof rig.source);
    rig.source.skeleton = &rig.skeleton;
    rig.source.database = &rig.database;
    rig.source.clips = rig.clips;
    rig.source.clipCount = 2;
    rig.source.projectors = projectors;
    rig.source.projectorCount = 2;
    maniLearnedTrainerOptions* o = &rig.source.options;
    *o = maniDefaultLearnedTrainerOptions();
    o->latentCount = 3;
    o->compressorWidth = o->decompressorWidth = o->stepperWidth = o->projectorWidth = 6;
    o->compressorLayers = o->stepperLayers = o->projectorLayers = 1;
    o->batchSize = 4;
    o->stepperWindow = 3;
    o->decompressorIterations = 3;
    o->stepperIterations = 2;
    o->projectorIterations = 2;
    o->decayInterval = 2;
    made = 1; /* the skeleton, clips and database bytes live as long as the process */
    return &rig;
}

/* A trainer of the rig's source; aborts when it cannot be made. */
static inline maniLearnedTrainer* maul_FuzzMakeTrainer(void) {
    maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
    maniLearnedTrainer* trainer = NULL;
    if (maniCreateLearnedTrainer(&def, &maul_FuzzTrainerRig()->source, &trainer).result != mani_success) abort();
    return trainer;
}

/* The trainer's checkpoint in a block of its own (free it); aborts on failure. */
static inline uint8_t* maul_FuzzCheckpoint(const maniLearnedTrainer* trainer, size_t* size) {
    if (maniLearnedTrainer_SaveCheckpoint(trainer, NULL, 0, size) != mani_errorCapacity) abort();
    uint8_t* bytes = (uint8_t*)aligned_alloc(MANI_FILE_ALIGNMENT, (*size + 15) / 16 * 16);
    if (bytes == NULL || maniLearnedTrainer_SaveCheckpoint(trainer, bytes, *size, size) != mani_success) abort();
    return bytes;
}

#endif
