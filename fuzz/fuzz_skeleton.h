/* Shared by the fuzz harnesses that need a skeleton to go with their input:
 * a chain skeleton of n bones (1 to MANI_MAX_BONES), the same for every
 * harness, built once per bone count and kept for the run. */
#ifndef MAUL_FUZZ_FUZZ_SKELETON_H
#define MAUL_FUZZ_FUZZ_SKELETON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maul/anim/build.h"

static uint8_t* maul_fuzzSkeletonFiles[MANI_MAX_BONES + 1];

static inline int maul_FuzzChainSkeleton(uint32_t n, maniSkeleton* out) {
    if (n == 0 || n > MANI_MAX_BONES) return 0;
    if (maul_fuzzSkeletonFiles[n] == NULL) {
        maniBuilderDef def = maniDefaultBuilderDef();
        maniBuilder* b = NULL;
        if (maniCreateBuilder(&def, &b) != mani_success) return 0;
        maniSkeletonSourceBone* bones = (maniSkeletonSourceBone*)calloc(n, sizeof *bones);
        char* names = (char*)malloc((size_t)n * 8);
        size_t size = 0;
        int ok = bones != NULL && names != NULL;
        for (uint32_t i = 0; ok && i < n; ++i) {
            char* name = names + 8 * (size_t)i;
            name[0] = 'b';
            for (int k = 1; k < 6; ++k) name[k] = (char)('0' + (i >> (3 * (k - 1)) & 7));
            bones[i].name = name;
            bones[i].nameLength = 6;
            bones[i].parent = i == 0 ? MANI_NO_BONE : i - 1;
            maniTransform t = {{0.5f, 0, 0}, {0, 0, 0.38268343f, 0.92387953f}, {1, 1.25f, 1}};
            bones[i].rest = t;
        }
        maniSkeletonSource src = {bones, n};
        ok = ok && maniBuildSkeleton(b, &src).result == mani_success &&
             maniBuilder_CopyBuilt(b, NULL, 0, &size) == mani_errorCapacity;
        uint8_t* file = ok ? (uint8_t*)aligned_alloc(MANI_FILE_ALIGNMENT, (size + 15) / 16 * 16) : NULL;
        if (file != NULL && maniBuilder_CopyBuilt(b, file, size, &size) != mani_success) {
            free(file);
            file = NULL;
        }
        free(bones);
        free(names);
        maniDestroyBuilder(b);
        if (file == NULL) return 0;
        maul_fuzzSkeletonFiles[n] = file;
    }
    uint64_t total;
    memcpy(&total, maul_fuzzSkeletonFiles[n] + 16, 8);
    return maniOpenSkeleton(maul_fuzzSkeletonFiles[n], (size_t)total, out).result == mani_success;
}

#endif
