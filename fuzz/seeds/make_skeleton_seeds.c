/* Writes the seed corpora of the skeleton harnesses: built skeleton files
 * for skeleton_open_fuzzer, source encodings for skeleton_build_fuzzer.
 * Run: bazel run //fuzz/seeds:make_skeleton_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"


int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_skeleton_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[4096];
    int status = 0;
    const uint32_t counts[] = {1, 2, 5, 17, 64};
    for (int shape = 0; shape < 4; ++shape) {
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            maniSkeletonSource src = maniFixtureMakeSkeletonSource(1000 + shape * 10 + c, counts[c], (maniFixtureShape)shape);
            size_t size = 0;
            void* file = maniFixtureBuildSkeleton(&src, &size);
            char name[64];
            snprintf(name, sizeof name, "shape%d-bones%u", shape, counts[c]);
            snprintf(dir, sizeof dir, "%s/skeleton_open_fuzzer", argv[1]);
            status |= file == NULL || maul_WriteSeed(dir, name, file, size);
            free(file);
            maniFixtureFreeSkeletonSource(&src);
        }
    }
    /* Build-fuzzer seeds: count byte, then per bone parent, name length,
     * name bytes and ten small floats. */
    snprintf(dir, sizeof dir, "%s/skeleton_build_fuzzer", argv[1]);
    for (int k = 1; k <= 6; ++k) {
        unsigned char buf[512];
        size_t n = 0;
        buf[n++] = (unsigned char)(k * 3 - 1);
        for (int i = 0; i < k * 3; ++i) {
            buf[n++] = i == 0 ? 0xFF : (unsigned char)(i - 1 - (i % 3 == 2));
            buf[n++] = 3;
            buf[n++] = 'b';
            buf[n++] = (unsigned char)('a' + i / 10);
            buf[n++] = (unsigned char)('0' + i % 10);
            for (int f = 0; f < 10; ++f) buf[n++] = (unsigned char)(f == 6 ? 136 : 120 + f);
        }
        char name[32];
        snprintf(name, sizeof name, "source%d", k);
        status |= maul_WriteSeed(dir, name, buf, n);
    }
    return status;
}
