/* Writes the seed corpus of skin_open_fuzzer: skin files built against
 * fixture skeletons, joints and inverse binds from a seeded generator, one
 * without inverse binds (identities).
 * Run: bazel run //fuzz/seeds:make_skin_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"


int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_skin_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/skin_open_fuzzer", argv[1]);
    int status = 0;
    const uint32_t bones[] = {1, 3, 8, 17, 40};
    const uint32_t joints[] = {1, 2, 5, 9, 24};
    for (size_t c = 0; c < sizeof bones / sizeof bones[0]; ++c) {
        maniSkeletonSource src = maniFixtureMakeSkeletonSource(2000 + c, bones[c], maniFixtureChain);
        size_t size = 0;
        void* file = maniFixtureBuildSkeleton(&src, &size);
        maniFixtureFreeSkeletonSource(&src);
        maniSkeleton skeleton;
        if (file == NULL || maniOpenSkeleton(file, size, &skeleton).result != mani_success) {
            free(file);
            status = 1;
            continue;
        }
        mcore_Rng rng;
        mcore_RngSeed(&rng, 3000 + c);
        uint32_t jointList[64];
        maniAffine binds[64];
        for (uint32_t j = 0; j < joints[c]; ++j) {
            jointList[j] = mcore_RngBelow(&rng, bones[c]);
            float* f = &binds[j].columns[0].x;
            for (int k = 0; k < 12; ++k) f[k] = mcore_RngFloatRange(&rng, k < 9 ? -2.0f : -10.0f, k < 9 ? 2.0f : 10.0f);
        }
        for (int withBinds = 0; withBinds < 2; ++withBinds) {
            if (!withBinds && c != 2) continue;
            maniBuilderDef def = maniDefaultBuilderDef();
            maniBuilder* b = NULL;
            if (maniCreateBuilder(&def, &b) != mani_success) return 1;
            maniSkinSource skin = {&skeleton, jointList, withBinds ? binds : NULL, joints[c]};
            size_t skinSize = 0;
            void* out = NULL;
            if (maniBuildSkin(b, &skin).result == mani_success &&
                maniBuilder_CopyBuilt(b, NULL, 0, &skinSize) == mani_errorCapacity) {
                out = malloc(skinSize);
                if (out != NULL && maniBuilder_CopyBuilt(b, out, skinSize, &skinSize) == mani_success) {
                    char name[64];
                    snprintf(name, sizeof name, "bones%u-joints%u%s", bones[c], joints[c], withBinds ? "" : "-identity");
                    status |= maul_WriteSeed(dir, name, out, skinSize);
                } else {
                    status = 1;
                }
            } else {
                status = 1;
            }
            free(out);
            maniDestroyBuilder(b);
        }
        free(file);
    }
    return status;
}
