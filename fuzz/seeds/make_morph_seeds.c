/* Writes the seed corpus of morph_open_fuzzer: morph targets files built
 * from seeded fixtures (sparse, dense, mixed; in-betweens; few and many
 * vertices), and the frozen file of format 5 (lib/anim/test/data).
 * Run: bazel run //fuzz/seeds:make_morph_seeds -- $PWD/fuzz/corpus [FROZEN_PATH] */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/morph_fixtures.h"

/* The frozen file's fixture (frozen_files_test.cc builds it again). */
#define MAUL_FROZEN_MORPH_SEED 5005u

int main(int argc, char** argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: make_morph_seeds CORPUS_DIR [FROZEN_FILE]\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/morph_open_fuzzer", argv[1]);
    int status = 0;
    const uint32_t vertices[] = {1, 5, 12, 40, 90};
    const uint32_t channels[] = {1, 2, 4, 3, 6};
    for (size_t c = 0; c < sizeof vertices / sizeof vertices[0]; ++c) {
        for (int kind = 0; kind < 3; ++kind) {
            if (c == 0 && kind != 0) continue;
            maniFixtureMorph fx;
            if (!maniFixtureMakeMorph(&fx, 4000 + 10 * c + (size_t)kind, vertices[c], channels[c],
                                      (maniFixtureMorphKind)kind)) {
                status = 1;
                continue;
            }
            size_t size = 0;
            void* file = maniFixtureBuildMorph(&fx.source, &size);
            maniFixtureFreeMorph(&fx);
            if (file == NULL) {
                status = 1;
                continue;
            }
            static const char* kinds[3] = {"mixed", "sparse", "dense"};
            char name[64];
            snprintf(name, sizeof name, "v%u-c%u-%s", vertices[c], channels[c], kinds[kind]);
            status |= maul_WriteSeed(dir, name, file, size);
            free(file);
        }
    }
    if (argc == 3) {
        maniFixtureMorph fx;
        if (!maniFixtureMakeMorph(&fx, MAUL_FROZEN_MORPH_SEED, 23, 5, maniFixtureMorphMixed)) return 1;
        size_t size = 0;
        void* file = maniFixtureBuildMorph(&fx.source, &size);
        maniFixtureFreeMorph(&fx);
        FILE* f = file != NULL ? fopen(argv[2], "wb") : NULL;
        if (f == NULL || fwrite(file, 1, size, f) != size) status = 1;
        if (f != NULL) fclose(f);
        free(file);
    }
    return status;
}
