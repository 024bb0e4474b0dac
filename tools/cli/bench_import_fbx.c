/* maul bench import, its FBX half: the FBX importer on the shared files that
 * are present (../shared/data/fbx from the current folder, or the folder
 * MAUL_FBX_FILES names; absent files are skipped). Two cases a file:
 * import-open-fbx-<file> (maniOpenFbx, then the close) and
 * import-build-fbx-<file> (on a document opened once: every skeleton, every
 * skin on its skeleton and its influences built with the default options
 * and copied out). After the ns/op rows, a table of MB/s: the file's bytes
 * over the median time. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "maul/anim/import.h"
#include "maul/anim/skin.h"
#include "tools/cli/bench_internal.h"
#include "tools/cli/import.h"

typedef struct maul_FbxBench {
    unsigned char* bytes;
    size_t size;
    maniBuilder* builder;
    maniFbx* opened;
    void* copy; /* the copy-out buffer of the build case */
    size_t copyCapacity;
} maul_FbxBench;

static uint64_t maul_RunFbxOpen(void* state, uint32_t iterations) {
    maul_FbxBench* s = (maul_FbxBench*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; i++) {
        maniFbx* f = NULL;
        if (maniOpenFbx(s->builder, s->bytes, s->size, &f).result != mani_success) {
            failed++;
            continue;
        }
        maul_benchSink += (double)maniFbx_GetModelCount(f);
        maniCloseFbx(f);
    }
    return failed;
}

/* Copies the built file into the case's buffer (grown as needed); 0 when it fails. */
static void* maul_FbxCopy(maul_FbxBench* s, size_t* size) {
    *size = 0;
    if (maniBuilder_CopyBuilt(s->builder, NULL, 0, size) != mani_errorCapacity) return NULL;
    if (*size > s->copyCapacity) {
        free(s->copy);
        s->copyCapacity = (*size + 63) / 64 * 64;
        s->copy = aligned_alloc(64, s->copyCapacity);
        if (s->copy == NULL) {
            s->copyCapacity = 0;
            return NULL;
        }
    }
    return maniBuilder_CopyBuilt(s->builder, s->copy, *size, size) == mani_success ? s->copy : NULL;
}

static uint64_t maul_BuildFbxOnce(maul_FbxBench* s) {
    const maniFbxOptions o = maniDefaultFbxOptions();
    const maniFbx* f = s->opened;
    uint64_t failed = 0;
    for (uint32_t k = 0; k < maniFbx_GetSkeletonCount(f); k++) {
        if (maniBuildFbxSkeleton(s->builder, f, k, &o).result != mani_success) {
            failed++;
            continue;
        }
        size_t size;
        void* file = maul_FbxCopy(s, &size);
        maniSkeleton skeleton;
        if (file == NULL || maniOpenSkeleton(file, size, &skeleton).result != mani_success) {
            failed++;
            continue;
        }
        /* the skeleton's bytes must stay while its skins build: keep them aside */
        void* kept = aligned_alloc(64, (size + 63) / 64 * 64);
        if (kept == NULL) return failed + 1;
        memcpy(kept, file, size);
        if (maniOpenSkeleton(kept, size, &skeleton).result != mani_success) failed++;
        for (uint32_t n = 0; n < maniFbx_GetSkinCount(f); n++) {
            if (maniFbx_GetSkinSkeleton(f, n) != k) continue;
            if (maniBuildFbxSkin(s->builder, f, n, &skeleton, &o).result != mani_success) {
                failed++;
                continue;
            }
            void* skinFile = maul_FbxCopy(s, &size);
            maniSkin skin;
            if (skinFile == NULL || maniOpenSkin(skinFile, size, &skin).result != mani_success) {
                failed++;
                continue;
            }
            failed += maniBuildFbxInfluences(s->builder, f, n, &skin).result != mani_success;
            maul_benchSink += (double)size;
        }
        free(kept);
    }
    return failed;
}

static uint64_t maul_RunFbxBuild(void* state, uint32_t iterations) {
    maul_FbxBench* s = (maul_FbxBench*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; i++) failed += maul_BuildFbxOnce(s);
    return failed;
}

static double maul_FbxNow(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Iterations for about 50 ms a run, from one timed call. */
static uint32_t maul_FbxIterations(uint64_t (*run)(void*, uint32_t), void* state) {
    const double t0 = maul_FbxNow();
    (void)run(state, 1);
    const double ns = maul_FbxNow() - t0;
    const double n = 5e7 / (ns > 1.0 ? ns : 1.0);
    return n < 1.0 ? 1u : n > 100000.0 ? 100000u : (uint32_t)n;
}

int maul_BenchImportFbx(FILE* out) {
    static const char* const files[] = {
        "blender_293_half_skinned_7400_binary.fbx", "maya_skinned_pivot_7700_ascii.fbx",
        "blender_279_sausage_7400_binary.fbx",      "maya_game_sausage_7500_binary_deform.fbx",
        "maya_human_ik_7400_binary.fbx",            "blender_293_barbarian_7400_binary.fbx",
    };
    enum { count = sizeof files / sizeof files[0] };
    const char* root = getenv("MAUL_FBX_FILES");
    if (root == NULL) root = "../shared/data/fbx";
    int status = 0;
    double rates[count][2];
    int present[count];
    for (int m = 0; m < count; m++) {
        present[m] = 0;
        char path[4096], openName[96], buildName[96];
        snprintf(path, sizeof path, "%s/%s", root, files[m]);
        snprintf(openName, sizeof openName, "import-open-fbx-%s", files[m]);
        snprintf(buildName, sizeof buildName, "import-build-fbx-%s", files[m]);
        maul_FbxBench s;
        memset(&s, 0, sizeof s);
        s.bytes = maul_ReadAll(path, &s.size);
        maniBuilderDef def = maniDefaultBuilderDef();
        if (s.bytes == NULL || maniCreateBuilder(&def, &s.builder) != mani_success ||
            maniOpenFbx(s.builder, s.bytes, s.size, &s.opened).result != mani_success) {
            maniDestroyBuilder(s.builder);
            free(s.bytes);
            continue; /* absent (or refused: maul import says why) */
        }
        present[m] = 1;
        maul_BenchCase open = {openName, maul_FbxIterations(maul_RunFbxOpen, &s), 0, maul_RunFbxOpen, &s};
        maul_BenchCase build = {buildName, maul_FbxIterations(maul_RunFbxBuild, &s), 0, maul_RunFbxBuild, &s};
        double ns[2] = {0.0, 0.0};
        status |= maul_RunCase(out, &open);
        ns[0] = maul_benchLastMedian;
        status |= maul_RunCase(out, &build);
        ns[1] = maul_benchLastMedian;
        for (int k = 0; k < 2; k++) rates[m][k] = ns[k] > 0.0 ? (double)s.size / ns[k] * 1e3 : 0.0;
        maniCloseFbx(s.opened);
        maniDestroyBuilder(s.builder);
        free(s.copy);
        free(s.bytes);
    }
    int any = 0;
    for (int m = 0; m < count; m++) any |= present[m] && (rates[m][0] > 0.0 || rates[m][1] > 0.0);
    if (any) {
        fprintf(out, "%-42s %12s %12s\n", "import FBX file", "open MB/s", "build MB/s");
        for (int m = 0; m < count; m++)
            if (present[m] && (rates[m][0] > 0.0 || rates[m][1] > 0.0))
                fprintf(out, "%-42s %12.1f %12.1f\n", files[m], rates[m][0], rates[m][1]);
    }
    return status;
}
