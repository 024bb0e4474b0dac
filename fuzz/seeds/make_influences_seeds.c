/* Writes the seed corpus of influences_open_fuzzer: influences of the
 * seeded skinned mesh (lib/anim/test/fixtures/skinning_fixtures.h) at
 * several sizes and influence counts, with and without centers.
 * Run: bazel run //fuzz/seeds:make_influences_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/skinning_fixtures.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_influences_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/influences_open_fuzzer", argv[1]);
    int status = 0;
    const uint32_t vertices[] = {1, 7, 24, 60, 130};
    const uint32_t per[] = {1, 4, 5, 8, 16};
    for (size_t c = 0; c < sizeof vertices / sizeof vertices[0]; ++c) {
        for (int centers = 0; centers < 2; ++centers) {
            maniFixtureSkinnedMesh m;
            if (!maniFixtureMakeSkinnedMesh(4000 + c, vertices[c], per[c], centers, &m)) {
                status = 1;
                continue;
            }
            char name[64];
            snprintf(name, sizeof name, "vertices%u-per%u%s", vertices[c], per[c], centers ? "-centers" : "");
            status |= maul_WriteSeed(dir, name, m.influencesFile, m.influencesSize);
            maniFixtureFreeSkinnedMesh(&m);
        }
    }
    return status;
}
