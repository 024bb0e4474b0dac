/* Harness: maniGltf_ReadRagdoll on fuzzed glTF documents (OMI_physics_body,
 * OMI_physics_shape, OMI_physics_joint), for each skeleton the document
 * makes; what it reads is touched body by body and built with
 * maniBuildRagdoll, whose profile is opened. Results outside the
 * reference's lists or a refusal that wrote the output abort. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gltf_fuzz.h"
#include "fuzz/gltf_read_fuzz.h"
#include "maul/anim/build.h"
#include "maul/anim/import.h"
#include "maul/anim/ragdoll.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void ReadRagdoll(maniBuilder* builder, maniGltf* g, const maniSkeleton* s) {
    const maniGltfOptions o = maniDefaultGltfOptions();
    const maniVec3 facing = {0, 0, 1}, up = {0, 1, 0};
    maniRagdollSource src, copy;
    memset(&src, 0x5A, sizeof src);
    copy = src;
    maniImportResult r = maniGltf_ReadRagdoll(g, s, &o, facing, up, &src);
    if (r.result != mani_success) {
        if ((r.result != mani_errorFormat && r.result != mani_errorCapacity) || memcmp(&src, &copy, sizeof src) != 0)
            abort();
        return;
    }
    const uint32_t bones = maniSkeleton_GetBoneCount(s);
    if (src.bodyCount > bones) abort();
    volatile float sink = 0;
    for (uint32_t k = 0; k < src.bodyCount; ++k) {
        const maniRagdollSourceBody* b = &src.bodies[k];
        if (b->bone >= bones) abort();
        for (size_t i = 0; i < b->nameLength; ++i) sink += (float)(unsigned char)b->name[i];
        sink += b->mass + b->size.x + b->frame.rotation.w + b->joint.translation.y;
    }
    (void)sink;
    if (src.bodyCount == 0) return;
    maniBuildResult b = maniBuildRagdoll(builder, &src);
    if (b.result != mani_success) {
        if (b.result != mani_errorInvalid && b.result != mani_errorLimit && b.result != mani_errorCapacity) abort();
        return;
    }
    size_t n = 0;
    uint8_t* bytes = maniFuzzCopyBuilt(builder, &n);
    maniRagdoll profile;
    if (maniOpenRagdoll(bytes, n, &profile).result != mani_success) abort();
    free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniBuilder* builder = NULL;
    maniGltf* g = maniFuzzOpenGltf(data, size, &builder);
    if (g != NULL) maniFuzzEachGltfSkeleton(builder, g, ReadRagdoll);
    if (g != NULL) maniCloseGltf(g);
    maniDestroyBuilder(builder);
    return 0;
}
