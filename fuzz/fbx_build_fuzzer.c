/* Harness: maniOpenFbx (binary or ASCII bytes), then every build call that
 * has landed on what opened: each skeleton (maniBuildFbxSkeleton, unfolded
 * and folded, its placement), each skin on its skeleton (maniBuildFbxSkin,
 * maniBuildFbxInfluences on the skin built), each model's subtree
 * (maniBuildFbxModelSkeleton, maniFbx_GetModelPlacement), each clip on each
 * skeleton (maniBuildFbxClip at 10 samples a second, to bound the work on
 * long stacks), each set of morph targets (maniFbx_GetMorphModel,
 * maniFbx_GetMorphTargetCount, maniFbx_GetMorphWeights measured and read,
 * maniBuildFbxMorphTargets in two bases); what builds must open, with the
 * target count the getters give. Seeds: small shared files
 * (fuzz/corpus/fbx_build_fuzzer: Blender 2.93 binary, Maya 7.5 and 7.7
 * ASCII, a big-endian 6.1 binary; blend shapes: Maya's in-betweens 7.5
 * binary, the legacy Shape children 7.1 ASCII). The builder's
 * allocator is the C library's; ASan finds any read outside the input, any
 * leak after the close. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/morph.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* The built file in aligned memory (freed by the caller), NULL when none. */
static uint64_t* Built(maniBuilder* b, size_t* sizeOut) {
    size_t size = 0;
    if (maniBuilder_CopyBuilt(b, NULL, 0, &size) != mani_errorCapacity || size == 0) abort();
    uint64_t* words = (uint64_t*)calloc(size / 8 + 2, 8);
    if (words == NULL) abort();
    if (maniBuilder_CopyBuilt(b, words, size, &size) != mani_success) abort();
    *sizeOut = size;
    return words;
}

static void Check(maniImportResult r) {
    if (r.result != mani_success && r.result != mani_errorFormat && r.result != mani_errorCapacity &&
        r.result != mani_errorLimit)
        abort();
}

static void Skins(maniBuilder* b, maniFbx* f, uint32_t skeleton, const maniSkeleton* s, const maniFbxOptions* o) {
    for (uint32_t k = 0; k < maniFbx_GetSkinCount(f) && k < 8; k++) {
        if (maniFbx_GetSkinSkeleton(f, k) != skeleton) continue;
        maniImportResult r = maniBuildFbxSkin(b, f, k, s, o);
        Check(r);
        if (r.result != mani_success) continue;
        size_t size;
        uint64_t* file = Built(b, &size);
        maniSkin skin;
        if (maniOpenSkin(file, size, &skin).result != mani_success) abort();
        r = maniBuildFbxInfluences(b, f, k, &skin);
        Check(r);
        if (r.result == mani_success) {
            size_t n;
            uint64_t* inf = Built(b, &n);
            maniInfluences influences;
            if (maniOpenInfluences(inf, n, &influences).result != mani_success) abort();
            free(inf);
        }
        free(file);
    }
}

static void Morphs(maniBuilder* b, maniFbx* f, const maniFbxOptions* o) {
    for (uint32_t k = 0; k < maniFbx_GetMorphCount(f) && k < 8; k++) {
        uint32_t model = maniFbx_GetMorphModel(f, k);
        if (model != UINT32_MAX && model >= maniFbx_GetModelCount(f)) abort();
        const uint32_t targets = maniFbx_GetMorphTargetCount(f, k);
        uint32_t count = 0;
        maniImportResult w = maniFbx_GetMorphWeights(f, k, NULL, 0, &count);
        if (w.result == mani_errorCapacity || w.result == mani_success) {
            if (count != targets) abort();
            float* weights = (float*)calloc(count ? count : 1, sizeof(float));
            if (weights == NULL) abort();
            if (maniFbx_GetMorphWeights(f, k, weights, count, &count).result != mani_success) abort();
            free(weights);
        } else if (w.result != mani_errorFormat) {
            abort();
        }
        maniImportResult r = maniBuildFbxMorphTargets(b, f, k, o);
        Check(r);
        if (r.result != mani_success) continue;
        size_t size;
        uint64_t* file = Built(b, &size);
        maniMorphTargets t;
        if (maniOpenMorphTargets(file, size, &t).result != mani_success) abort();
        if (maniMorphTargets_GetTargetCount(&t) != targets) abort();
        free(file);
    }
}

static void Clips(maniBuilder* b, maniFbx* f, const maniSkeleton* s, const maniFbxOptions* o) {
    maniImportClipOptions co = maniDefaultImportClipOptions();
    co.sampleRate = 10.0f;
    for (uint32_t c = 0; c < maniFbx_GetClipCount(f) && c < 4; c++) {
        size_t length = 0;
        if (maniFbx_GetClipName(f, c, &length) == NULL) abort();
        uint32_t bound = 0;
        maniImportResult r = maniBuildFbxClip(b, f, c, s, o, &co, &bound);
        Check(r);
        if (r.result != mani_success) continue;
        size_t size;
        uint64_t* file = Built(b, &size);
        maniClip clip;
        if (maniOpenClip(file, size, &clip).result != mani_success) abort();
        free(file);
    }
}

static void Exercise(maniBuilder* b, maniFbx* f) {
    maniFbxOptions o = maniDefaultFbxOptions();
    for (uint32_t k = 0; k < maniFbx_GetSkeletonCount(f) && k < 8; k++)
        for (uint32_t fold = 0; fold < 2; fold++) {
            o.foldPlacement = fold;
            maniAffine placement;
            Check(maniFbx_GetSkeletonPlacement(f, k, &o, &placement));
            maniImportResult r = maniBuildFbxSkeleton(b, f, k, &o);
            Check(r);
            if (r.result != mani_success) continue;
            size_t size;
            uint64_t* file = Built(b, &size);
            maniSkeleton s;
            if (maniOpenSkeleton(file, size, &s).result != mani_success) abort();
            if (fold == 0) Skins(b, f, k, &s, &o);
            if (fold == 0) Clips(b, f, &s, &o);
            free(file);
        }
    o.foldPlacement = 0;
    Morphs(b, f, &o);
    o.up = (uint32_t)maniAxisPositiveZ;
    o.front = (uint32_t)maniAxisNegativeY;
    for (uint32_t m = 0; m < maniFbx_GetModelCount(f) && m < 8; m++) {
        maniAffine placement;
        Check(maniFbx_GetModelPlacement(f, m, &o, &placement));
        maniImportResult r = maniBuildFbxModelSkeleton(b, f, m, &o);
        Check(r);
        if (r.result != mani_success) continue;
        size_t size;
        uint64_t* file = Built(b, &size);
        maniSkeleton s;
        if (maniOpenSkeleton(file, size, &s).result != mani_success) abort();
        free(file);
    }
    Morphs(b, f, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 0;
    maniFbx* f = NULL;
    maniImportResult r = maniOpenFbx(b, data, size, &f);
    if (r.result == mani_success) {
        Exercise(b, f);
        maniCloseFbx(f);
    } else if (r.result != mani_errorFormat || r.offset > size) {
        abort();
    }
    maniDestroyBuilder(b);
    return 0;
}
