/* Writes the seed corpus of ragdoll_open_fuzzer: ragdoll profiles of the
 * harnesses' chain skeletons (fuzz/fuzz_skeleton.h), bodies on every bone or
 * every other one, each shape and motion, named and unnamed (the 20-bone
 * profile with a body on every bone, 3456 bytes, is kept out of the committed
 * corpus, whose inputs are 2 KB or less).
 * Run: bazel run //fuzz/seeds:make_ragdoll_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_skeleton.h"
#include "fuzz/seeds/seed_file.h"
#include "maul/anim/build.h"
#include "maul/anim/ragdoll.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_ragdoll_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/ragdoll_open_fuzzer", argv[1]);
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 1;
    int status = 0;
    const uint32_t counts[] = {1, 3, 8, 20};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        maniSkeleton s;
        if (!maul_FuzzChainSkeleton(counts[c], &s)) return 1;
        for (uint32_t step = 1; step <= 2; ++step) {
            maniRagdollSourceBody bodies[20];
            uint32_t n = 0;
            for (uint32_t i = 0; i < counts[c]; i += step) {
                maniRagdollSourceBody* x = &bodies[n];
                memset(x, 0, sizeof *x);
                x->name = i % 3 == 0 ? "body" : NULL;
                x->nameLength = i % 3 == 0 ? 4 : 0;
                x->bone = i;
                x->shape = i % 3;
                x->motion = i % 2;
                x->size = (maniVec3){0.1f, x->shape >= 1 ? 0.3f : 0.0f, x->shape == 2 ? 0.2f : 0.0f};
                x->mass = 1.0f + (float)i;
                x->frame = (maniTransform){{0, 0.1f, 0}, {0, 0, 0.6f, 0.8f}, {1, 1, 1}};
                x->joint = (maniTransform){{0, -0.1f, 0}, {0.6f, 0, 0, 0.8f}, {1, 1, 1}};
                x->twistMin = -0.5f;
                x->twistMax = 0.5f;
                x->swingY = 0.3f;
                x->swingZ = 0.8f;
                x->driveStiffness = 10.0f * (float)(i % 2);
                x->driveDamping = 1.0f;
                ++n;
            }
            maniRagdollSource src;
            memset(&src, 0, sizeof src);
            src.skeleton = &s;
            src.bodies = bodies;
            src.bodyCount = n;
            src.facing = (maniVec3){0, 0, 1};
            src.up = (maniVec3){0, 1, 0};
            if (maniBuildRagdoll(b, &src).result != mani_success) return 1;
            size_t size = 0;
            if (maniBuilder_CopyBuilt(b, NULL, 0, &size) != mani_errorCapacity) return 1;
            void* out = malloc(size);
            if (out == NULL || maniBuilder_CopyBuilt(b, out, size, &size) != mani_success) return 1;
            char name[64];
            snprintf(name, sizeof name, "bones%u-step%u", counts[c], step);
            status |= maul_WriteSeed(dir, name, out, size);
            free(out);
        }
    }
    maniDestroyBuilder(b);
    return status;
}
