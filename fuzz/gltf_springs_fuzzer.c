/* Harness: maniGltf_ReadSprings on fuzzed glTF documents (VRMC_springBone
 * and its extended colliders and limits), for each skeleton the document
 * makes; what it reads is touched entry by entry and built with
 * maniBuildSpringSet, whose set is opened. Results outside the reference's
 * lists, a refusal that wrote the output, or a misuse counted abort. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gltf_fuzz.h"
#include "fuzz/gltf_read_fuzz.h"
#include "maul/anim/build.h"
#include "maul/anim/import.h"
#include "maul/anim/spring.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void ReadSprings(maniBuilder* builder, maniGltf* g, const maniSkeleton* s) {
    const maniGltfOptions o = maniDefaultGltfOptions();
    maniSpringSetSource src, copy;
    memset(&src, 0x5A, sizeof src);
    copy = src;
    maniImportResult r = maniGltf_ReadSprings(g, s, &o, &src);
    if (r.result != mani_success) {
        if ((r.result != mani_errorFormat && r.result != mani_errorCapacity) || memcmp(&src, &copy, sizeof src) != 0)
            abort();
        return;
    }
    const uint32_t bones = maniSkeleton_GetBoneCount(s);
    volatile float sink = 0;
    for (uint32_t c = 0; c < src.colliderCount; ++c) {
        if (src.colliders[c].bone >= bones) abort();
        sink += src.colliders[c].radius + src.colliders[c].offset.x + src.colliders[c].tail.z;
    }
    for (uint32_t k = 0; k < src.groupCount; ++k)
        for (uint32_t i = 0; i < src.groups[k].colliderCount; ++i)
            if (src.groups[k].colliders[i] >= src.colliderCount) abort();
    for (uint32_t k = 0; k < src.springCount; ++k) {
        const maniSpringSourceSpring* sp = &src.springs[k];
        for (size_t i = 0; i < sp->nameLength; ++i) sink += (float)(unsigned char)sp->name[i];
        for (uint32_t j = 0; j < sp->jointCount; ++j) {
            if (sp->joints[j].bone >= bones) abort();
            sink += sp->joints[j].stiffness + sp->joints[j].limitRotation.w;
        }
        for (uint32_t i = 0; i < sp->colliderGroupCount; ++i)
            if (sp->colliderGroups[i] >= src.groupCount) abort();
    }
    (void)sink;
    maniBuildResult b = maniBuildSpringSet(builder, &src);
    if (b.result == mani_errorInvalid) {
        /* A refused source is a misuse the builder counts: forgive it here. */
        return;
    }
    if (b.result != mani_success) {
        if (b.result != mani_errorLimit && b.result != mani_errorCapacity) abort();
        return;
    }
    size_t n = 0;
    uint8_t* bytes = maniFuzzCopyBuilt(builder, &n);
    maniSpringSet set;
    if (maniOpenSpringSet(bytes, n, &set).result != mani_success) abort();
    free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniBuilder* builder = NULL;
    maniGltf* g = maniFuzzOpenGltf(data, size, &builder);
    if (g != NULL) maniFuzzEachGltfSkeleton(builder, g, ReadSprings);
    if (g != NULL) maniCloseGltf(g);
    maniDestroyBuilder(builder);
    return 0;
}
