/* Harness: maniOpenGltf (JSON or GLB bytes), external buffers supplied with
 * the input itself (so meshopt streams in them are decoded from fuzzed bytes),
 * then every build of import.h on what opened: mani_GltfImportAll (every
 * skeleton, skin, influences, morph targets and clip, each built file opened
 * again), every node's subtree as a skeleton, every skeleton's placement and
 * every node's morph weights, under options the input's last byte picks
 * (basis, unit, folded placement, clip rate, loop, root motion). Every result
 * must be a code the reference lists; the builder must count no misuse. ASan
 * finds any read outside the input, any leak after the close. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/import/gltf/gltf_import_all.h"
#include "fuzz/gltf_fuzz.h"
#include "maul/anim/import.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void Check(maniResult r) {
    if (r != mani_success && r != mani_errorFormat && r != mani_errorCapacity && r != mani_errorInvalid &&
        r != mani_errorLimit)
        abort();
}

static void Item(void* user, const mani_GltfItem* item) {
    (void)user;
    Check(item->result.result);
    if ((item->result.result == mani_success) != (item->file != NULL && item->size > 0)) abort();
    if (item->clip != NULL) {
        /* Touch the float tracks' names and a sample past both ends. */
        for (uint32_t t = 0; t < maniClip_GetFloatTrackCount(item->clip); t++) {
            size_t n = 0;
            (void)maniClip_GetFloatTrackName(item->clip, t, &n);
        }
        float values[8];
        uint32_t count = 0;
        Check(maniClip_SampleFloats(item->clip, -1.0f, values, 8, &count));
        Check(maniClip_SampleFloats(item->clip, maniClip_GetDuration(item->clip) + 1.0f, values, 8, &count));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniBuilder* builder = NULL;
    maniGltf* g = maniFuzzOpenGltf(data, size, &builder);
    if (g != NULL) {
        for (uint32_t b = 0; b < maniGltf_GetBufferCount(g); b++) {
            size_t n = 0;
            if (maniGltf_GetBufferUri(g, b, &n) == NULL) continue;
            Check(maniGltf_SupplyBuffer(g, b, data, size).result);
        }
        const uint8_t pick = size > 0 ? data[size - 1] : 0;
        maniGltfOptions options = maniDefaultGltfOptions();
        maniImportClipOptions clipOptions = maniDefaultImportClipOptions();
        if (pick & 1) {
            options.up = (uint32_t)maniAxisPositiveZ;
            options.front = (uint32_t)maniAxisNegativeY;
            options.unitScale = 100.0f;
        }
        options.foldPlacement = (pick >> 1) & 1;
        clipOptions.sampleRate = (pick & 4) ? 30.0f : 0.0f;
        clipOptions.loop = (pick >> 3) & 1;
        if (pick & 16) {
            clipOptions.rootMotionBone = 0;
            clipOptions.rootMotionFlags = 1;
        }
        const uint32_t refused = mani_GltfImportAll(builder, g, &options, &clipOptions, Item, NULL);
        (void)refused;
        for (uint32_t n = 0; n < maniGltf_GetNodeCount(g) && n < 64; n++) {
            Check(maniBuildGltfNodeSkeleton(builder, g, n, &options).result);
            uint32_t count = 0;
            float w[16];
            Check(maniGltf_GetMorphWeights(g, n, w, 16, &count).result);
        }
        for (uint32_t s = 0; s <= maniGltf_GetSkeletonCount(g); s++) {
            maniAffine placement;
            Check(maniGltf_GetSkeletonPlacement(g, s, &options, &placement).result);
        }
    }
    maniFuzzEndGltf(builder, g);
    return 0;
}
