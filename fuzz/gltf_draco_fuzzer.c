/* Harness: KHR_draco_mesh_compression primitives through the glTF importer.
 * The input is a document (seeds: GLBs with Draco primitives, so most
 * mutations land in the BIN chunk and its streams), opened with maniOpenGltf
 * (external buffers supplied with the input itself); then every primitive
 * with morph targets through maniBuildGltfMorphTargets, and every primitive
 * of every skinned node through maniBuildGltfInfluences against the skin
 * built from its glTF skin. Each result must be one import.h lists for that
 * call (success, Format with one of its reasons, Capacity); the builder must
 * count no misuse. ASan finds any read outside the input, any leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gltf_fuzz.h"
#include "maul/anim/build.h"
#include "maul/anim/import.h"
#include "maul/anim/skeleton.h"
#include "maul/anim/skin.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* The builder's last file, copied into memory aligned for an open in place
 * (freed by the caller), or NULL. */
static void* CopyBuilt(maniBuilder* builder, size_t* sizeOut) {
    size_t n = 0;
    if (maniBuilder_CopyBuilt(builder, NULL, 0, &n) != mani_errorCapacity || n == 0) abort();
    void* p = aligned_alloc(64, (n + 63) / 64 * 64);
    if (p == NULL) abort();
    if (maniBuilder_CopyBuilt(builder, p, n, &n) != mani_success) abort();
    *sizeOut = n;
    return p;
}

/* A result import.h lists for the influence (influences 1) or morph target
 * builder: Property, Data, Pending, Build for both, Influence for the
 * influences, Index for the morph targets. (The influence builder also gives
 * Index for a joint index past the skin's joints, which its Returns does not
 * list: accepted here, reported to the glTF area.) */
static void CheckMeshResult(maniImportResult r, int influences) {
    if (r.result == mani_success || r.result == mani_errorCapacity) return;
    if (r.result != mani_errorFormat) abort();
    switch (r.reason) {
    case maniImportReasonProperty:
    case maniImportReasonData:
    case maniImportReasonPending:
    case maniImportReasonBuild:
    case maniImportReasonIndex: return;
    case maniImportReasonInfluence:
        if (!influences) abort();
        return;
    default: abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniBuilder* builder = NULL;
    maniGltf* g = maniFuzzOpenGltf(data, size, &builder);
    if (g != NULL) {
        for (uint32_t b = 0; b < maniGltf_GetBufferCount(g); b++) {
            size_t n = 0;
            if (maniGltf_GetBufferUri(g, b, &n) == NULL) continue;
            const maniResult r = maniGltf_SupplyBuffer(g, b, data, size).result;
            if (r != mani_success && r != mani_errorFormat && r != mani_errorInvalid) abort();
        }
        const maniGltfOptions options = maniDefaultGltfOptions();
        for (uint32_t m = 0; m < maniGltf_GetMeshCount(g) && m < 16; m++) {
            for (uint32_t p = 0; p < maniGltf_GetPrimitiveCount(g, m) && p < 16; p++) {
                if (maniGltf_GetPrimitiveTargetCount(g, m, p) == 0) continue;
                CheckMeshResult(maniBuildGltfMorphTargets(builder, g, m, p, &options), 0);
            }
        }
        for (uint32_t s = 0; s < maniGltf_GetSkinCount(g) && s < 4; s++) {
            if (maniBuildGltfSkeleton(builder, g, maniGltf_GetSkinSkeleton(g, s), &options).result != mani_success)
                continue;
            size_t skeletonSize = 0, skinSize = 0;
            void* skeletonBytes = CopyBuilt(builder, &skeletonSize);
            maniSkeleton skeleton;
            if (maniOpenSkeleton(skeletonBytes, skeletonSize, &skeleton).result != mani_success) abort();
            void* skinBytes = NULL;
            maniSkin skin;
            if (maniBuildGltfSkin(builder, g, s, &skeleton, &options).result == mani_success) {
                skinBytes = CopyBuilt(builder, &skinSize);
                if (maniOpenSkin(skinBytes, skinSize, &skin).result != mani_success) abort();
                for (uint32_t n = 0; n < maniGltf_GetNodeCount(g) && n < 64; n++) {
                    if (maniGltf_GetNodeSkin(g, n) != s) continue;
                    const uint32_t mesh = maniGltf_GetNodeMesh(g, n);
                    if (mesh >= maniGltf_GetMeshCount(g)) continue;
                    for (uint32_t p = 0; p < maniGltf_GetPrimitiveCount(g, mesh) && p < 16; p++)
                        CheckMeshResult(maniBuildGltfInfluences(builder, g, mesh, p, &skin), 1);
                }
            }
            free(skinBytes);
            free(skeletonBytes);
        }
    }
    maniFuzzEndGltf(builder, g);
    return 0;
}
