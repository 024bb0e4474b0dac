/* What the trainer checkpoint harness and its seeds share: the trainer rig
 * of lib/anim/test/fixtures/learned_fixtures.h (maniFixtureMakeTrainRig),
 * made once, a trainer of its source, and a trainer's checkpoint. */
#ifndef MAUL_FUZZ_LEARNED_FUZZ_H
#define MAUL_FUZZ_LEARNED_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "maul/anim/learnedtrain.h"

#define MAUL_FUZZ_LEARNED_SEED 0x4C524E44u

/* The rig, made once; aborts when a build fails. */
static inline const maniFixtureTrainRig* maul_FuzzTrainerRig(void) {
    static maniFixtureTrainRig rig;
    static int made = 0;
    if (!made) {
        if (maniFixtureMakeTrainRig(&rig, MAUL_FUZZ_LEARNED_SEED) != 0) abort();
        made = 1;
    }
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
