/* Writes the seed corpus of learned_open_fuzzer: small learned models
 * (lib/anim/test/fixtures/learned_fixtures.h) of two weight formats and a
 * few hidden widths.
 * Run: bazel run //fuzz/seeds:make_learned_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/learned_fixtures.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_learned_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048], name[64];
    snprintf(dir, sizeof dir, "%s/learned_open_fuzzer", argv[1]);
    static const struct { uint64_t seed; uint32_t hidden, format; } cases[] = {
        {3, 2, 0}, {3, 2, 1}, {4, 3, 0}, {7, 1, 1},
    };
    int status = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        size_t size = 0;
        void* bytes = maniFixtureBuildLearnedModel(cases[k].seed, cases[k].hidden, cases[k].format, &size);
        if (bytes == NULL) {
            fprintf(stderr, "make_learned_seeds: case %u did not build\n", (unsigned)k);
            status = 1;
            continue;
        }
        snprintf(name, sizeof name, "model-%u.maul", (unsigned)k);
        status |= maul_WriteSeed(dir, name, bytes, size);
        free(bytes);
    }
    return status;
}
