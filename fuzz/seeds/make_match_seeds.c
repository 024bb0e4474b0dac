/* Writes the seed corpus of match_open_fuzzer: small motion databases
 * (lib/anim/test/fixtures/match_fixtures.h, 5 features) of seeded clips at
 * a few rates and leaf sizes.
 * Run: bazel run //fuzz/seeds:make_match_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/match_fixtures.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_match_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048], name[64];
    snprintf(dir, sizeof dir, "%s/match_open_fuzzer", argv[1]);
    static const struct { uint64_t seed; uint32_t clips; float rate; uint32_t leaf; } cases[] = {
        {3, 2, 4.0f, 4}, {3, 2, 3.0f, 2}, {5, 2, 3.0f, 4}, {7, 2, 2.0f, 2}, {9, 2, 4.0f, 8},
    };
    int status = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        size_t size = 0;
        void* bytes = maniFixtureBuildSmallMotionDatabase(cases[k].seed, cases[k].clips, cases[k].rate, cases[k].leaf, &size);
        if (bytes == NULL) {
            fprintf(stderr, "make_match_seeds: case %u did not build\n", (unsigned)k);
            status = 1;
            continue;
        }
        snprintf(name, sizeof name, "database-%u.maul", (unsigned)k);
        status |= maul_WriteSeed(dir, name, bytes, size);
        free(bytes);
    }
    return status;
}
