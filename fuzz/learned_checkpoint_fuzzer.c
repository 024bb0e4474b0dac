/* Harness: maniLearnedTrainer_RestoreCheckpoint into a fresh trainer of the
 * harness's source (fuzz/learned_fuzz.h), on the input as given and
 * resealed. A refused restore must leave the trainer as it was (its
 * checkpoint the same bytes); an accepted one must train on and save a
 * checkpoint that restores again. The input sits in a block of exactly its
 * size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/learned_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_Restore(const uint8_t* bytes, size_t size) {
    maniLearnedTrainer* trainer = maul_FuzzMakeTrainer();
    size_t beforeSize = 0, afterSize = 0;
    uint8_t* before = maul_FuzzCheckpoint(trainer, &beforeSize);
    const maniFileResult r = maniLearnedTrainer_RestoreCheckpoint(trainer, bytes, size);
    if (r.result != mani_success) {
        if (r.result == mani_errorFormat && r.offset > size) abort(); /* a truncation: at most the end */
        if (r.result != mani_errorCapacity) {
            uint8_t* after = maul_FuzzCheckpoint(trainer, &afterSize);
            if (afterSize != beforeSize || memcmp(before, after, beforeSize) != 0) abort();
            free(after);
        }
    } else {
        if (maniLearnedTrainer_Train(trainer, 2, NULL) != mani_success) abort();
        uint8_t* again = maul_FuzzCheckpoint(trainer, &afterSize);
        if (maniLearnedTrainer_RestoreCheckpoint(trainer, again, afterSize).result != mani_success) abort();
        free(again);
    }
    free(before);
    maniDestroyLearnedTrainer(trainer);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maul_Restore(bytes, size);
    maul_FuzzReseal(bytes, size);
    maul_Restore(bytes, size);
    free(bytes);
    return 0;
}
