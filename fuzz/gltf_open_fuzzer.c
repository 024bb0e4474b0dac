/* Harness: maniOpenGltf (JSON or GLB bytes), then every query of import.h
 * and every accessor read (gltf_internal.h) on what opened. External buffers
 * are supplied with the input itself when it is long enough (so meshopt
 * streams in them are decoded from fuzzed bytes too). The builder's
 * allocator is the C library's; ASan finds any read outside the input, any
 * leak after the close. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/import/gltf/gltf_internal.h"
#include "fuzz/gltf_fuzz.h"
#include "maul/anim/import.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void Exercise(maniGltf* g) {
    size_t n = 0;
    for (uint32_t i = 0; i <= maniGltf_GetNodeCount(g); i++) {
        const char* name = maniGltf_GetNodeBoneName(g, i, &n);
        if (name != NULL && n > 0 && (name[0] == 0x7f && name[n - 1] == 0x7f)) abort(); /* touch both ends */
        (void)maniGltf_GetNodeMesh(g, i);
        (void)maniGltf_GetNodeSkin(g, i);
        uint32_t count = 0;
        maniImportResult r = maniGltf_GetMorphWeights(g, i, NULL, 0, &count);
        if (r.result == mani_errorCapacity && count > 0 && count < (1u << 20)) {
            float* w = (float*)malloc(count * sizeof(float));
            if (w == NULL) abort();
            r = maniGltf_GetMorphWeights(g, i, w, count, NULL);
            if (r.result != mani_success) abort();
            free(w);
        }
    }
    for (uint32_t i = 0; i <= maniGltf_GetRenamedCount(g); i++) {
        uint32_t node = maniGltf_GetRenamedNode(g, i);
        if (i < maniGltf_GetRenamedCount(g) && node >= maniGltf_GetNodeCount(g)) abort();
    }
    for (uint32_t i = 0; i <= maniGltf_GetSkinCount(g); i++) {
        uint32_t s = maniGltf_GetSkinSkeleton(g, i);
        if (i < maniGltf_GetSkinCount(g) && s >= maniGltf_GetSkeletonCount(g)) abort();
    }
    for (uint32_t i = 0; i <= maniGltf_GetAnimationCount(g); i++) (void)maniGltf_GetAnimationName(g, i, &n);
    for (uint32_t m = 0; m <= maniGltf_GetMeshCount(g); m++)
        for (uint32_t p = 0; p <= maniGltf_GetPrimitiveCount(g, m); p++) (void)maniGltf_GetPrimitiveTargetCount(g, m, p);
    for (uint32_t i = 0; i < g->accessorCount; i++) {
        size_t values = mani_GltfAccessorValues(g, i);
        if (values > ((size_t)1 << 22)) continue;
        void* out = malloc(values * 4 + 4);
        if (out == NULL) abort();
        (void)mani_GltfReadFloats(g, i, (float*)out, values);
        (void)mani_GltfReadUints(g, i, (uint32_t*)out, values);
        free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniBuilder* builder = NULL;
    maniGltf* g = maniFuzzOpenGltf(data, size, &builder);
    if (g != NULL) {
        Exercise(g);
        for (uint32_t b = 0; b < maniGltf_GetBufferCount(g); b++) {
            size_t n = 0;
            if (maniGltf_GetBufferUri(g, b, &n) == NULL) continue;
            maniImportResult s = maniGltf_SupplyBuffer(g, b, data, size);
            if (s.result != mani_success && s.result != mani_errorFormat && s.result != mani_errorCapacity) abort();
        }
        Exercise(g);
    }
    maniFuzzEndGltf(builder, g);
    return 0;
}
