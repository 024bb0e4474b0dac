/* The extension readers' harnesses' shared step (gltf_springs_fuzzer.c,
 * gltf_ragdoll_fuzzer.c): for an opened document, each skeleton it makes
 * (its skins' skeletons, then node 0's subtree) built, opened and handed to
 * the harness's reader. */
#ifndef MAUL_FUZZ_GLTF_READ_FUZZ_H
#define MAUL_FUZZ_GLTF_READ_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maul/anim/build.h"
#include "maul/anim/import.h"
#include "maul/anim/skeleton.h"

/* Copies the builder's last file into 16-byte aligned memory (free it). */
static inline uint8_t* maniFuzzCopyBuilt(maniBuilder* b, size_t* sizeOut) {
    size_t size = 0;
    if (maniBuilder_CopyBuilt(b, NULL, 0, &size) != mani_errorCapacity) abort();
    uint8_t* bytes = (uint8_t*)aligned_alloc(16, (size + 15) & ~(size_t)15);
    if (bytes == NULL) abort();
    if (maniBuilder_CopyBuilt(b, bytes, size, &size) != mani_success) abort();
    *sizeOut = size;
    return bytes;
}

/* Runs read on each skeleton of the document: up to 4 of its skeletons and
 * node 0's subtree. */
static inline void maniFuzzEachGltfSkeleton(maniBuilder* builder, maniGltf* g,
                                            void (*read)(maniBuilder*, maniGltf*, const maniSkeleton*)) {
    const maniGltfOptions o = maniDefaultGltfOptions();
    const uint32_t count = maniGltf_GetSkeletonCount(g);
    for (uint32_t k = 0; k <= count && k < 5; ++k) {
        maniImportResult r = k < count && k < 4 ? maniBuildGltfSkeleton(builder, g, k, &o)
                                                : maniBuildGltfNodeSkeleton(builder, g, 0, &o);
        if (r.result != mani_success) continue;
        size_t size = 0;
        uint8_t* bytes = maniFuzzCopyBuilt(builder, &size);
        maniSkeleton s;
        if (maniOpenSkeleton(bytes, size, &s).result != mani_success) abort();
        read(builder, g, &s);
        free(bytes);
        if (k >= count || k >= 4) break;
    }
}

#endif
