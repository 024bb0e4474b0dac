/* Writes the seed corpus of learned_checkpoint_fuzzer: checkpoints of the
 * harness's trainer (fuzz/learned_fuzz.h) fresh, inside each stage and with
 * every stage done.
 * Run: bazel run //fuzz/seeds:make_learned_checkpoint_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/learned_fuzz.h"
#include "fuzz/seeds/seed_file.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_learned_checkpoint_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/learned_checkpoint_fuzzer", argv[1]);
    maniLearnedTrainer* trainer = maul_FuzzMakeTrainer();
    /* 3 + 2 + 2 x 2 iterations in all: after 0, 2 (stage 1), 4 (stage 2), 6 and 8 (Projectors), 9 (done). */
    const uint64_t steps[6] = {0, 2, 2, 2, 2, 1};
    int status = 0;
    for (int k = 0; k < 6; ++k) {
        if (maniLearnedTrainer_Train(trainer, steps[k], NULL) != mani_success) return 1;
        size_t size = 0;
        uint8_t* bytes = maul_FuzzCheckpoint(trainer, &size);
        char name[32];
        snprintf(name, sizeof name, "checkpoint-%d", k);
        status |= maul_WriteSeed(dir, name, bytes, size);
        free(bytes);
    }
    maniDestroyLearnedTrainer(trainer);
    return status;
}
