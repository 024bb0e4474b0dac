/* maul bench import: the glTF importer on the shared models that are present
 * (../shared/data/gltf from the current folder, or the folder
 * MAUL_GLTF_MODELS names; absent models are skipped). Two cases a model:
 * import-open-<model> (maniOpenGltf with its external buffers supplied, then
 * the close) and import-build-<model> (mani_GltfImportAll with the default
 * options on a document opened once: every skeleton, skin, influences, morph
 * targets and clip built and copied out). After the ns/op rows, a table of
 * MB/s: the document's bytes (the file and its external buffers) over the
 * median time. docs/performance.md, "glTF import". */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/anim/src/import/gltf/gltf_import_all.h"
#include "maul/anim/import.h"
#include "tools/cli/bench_internal.h"
#include "tools/cli/import.h"

#define MAUL_IMPORT_MAX_BUFFERS 8

typedef struct maul_ImportBench {
    const char* name;
    unsigned char* bytes;
    size_t size;
    unsigned char* buffers[MAUL_IMPORT_MAX_BUFFERS];
    size_t bufferSizes[MAUL_IMPORT_MAX_BUFFERS];
    uint32_t bufferIndex[MAUL_IMPORT_MAX_BUFFERS];
    uint32_t bufferCount;
    size_t totalBytes;
    maniBuilder* builder;
    maniGltf* opened; /* for the build case */
} maul_ImportBench;

static uint64_t maul_OpenOnce(maul_ImportBench* s, maniGltf** out) {
    maniGltf* g = NULL;
    if (maniOpenGltf(s->builder, s->bytes, s->size, &g).result != mani_success) return 1;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < s->bufferCount; i++)
        failed += maniGltf_SupplyBuffer(g, s->bufferIndex[i], s->buffers[i], s->bufferSizes[i]).result != mani_success;
    if (out != NULL)
        *out = g;
    else
        maniCloseGltf(g);
    return failed;
}

static uint64_t maul_RunImportOpen(void* state, uint32_t iterations) {
    maul_ImportBench* s = (maul_ImportBench*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; i++) failed += maul_OpenOnce(s, NULL);
    return failed;
}

static void maul_ImportSink(void* user, const mani_GltfItem* item) {
    (void)user;
    maul_benchSink += (double)item->size;
}

static uint64_t maul_RunImportBuild(void* state, uint32_t iterations) {
    maul_ImportBench* s = (maul_ImportBench*)state;
    const maniGltfOptions options = maniDefaultGltfOptions();
    const maniImportClipOptions clipOptions = maniDefaultImportClipOptions();
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; i++)
        failed += mani_GltfImportAll(s->builder, s->opened, &options, &clipOptions, maul_ImportSink, NULL) == UINT32_MAX;
    return failed;
}

static double maul_ImportNow(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Iterations for about 50 ms a run, from one timed call. */
static uint32_t maul_ImportIterations(uint64_t (*run)(void*, uint32_t), void* state) {
    const double t0 = maul_ImportNow();
    (void)run(state, 1);
    const double ns = maul_ImportNow() - t0;
    const double n = 5e7 / (ns > 1.0 ? ns : 1.0);
    return n < 1.0 ? 1u : n > 100000.0 ? 100000u : (uint32_t)n;
}

static void maul_FreeImportBench(maul_ImportBench* s) {
    if (s->opened != NULL) maniCloseGltf(s->opened);
    if (s->builder != NULL) maniDestroyBuilder(s->builder);
    for (uint32_t i = 0; i < s->bufferCount; i++) free(s->buffers[i]);
    free(s->bytes);
}

/* Loads a model with its external buffers; 0 when absent or refused. */
static int maul_LoadImportBench(maul_ImportBench* s, const char* path) {
    s->bytes = maul_ReadAll(path, &s->size);
    if (s->bytes == NULL) return 0;
    s->totalBytes = s->size;
    maniBuilderDef def = maniDefaultBuilderDef();
    if (maniCreateBuilder(&def, &s->builder) != mani_success) return 0;
    maniGltf* g = NULL;
    if (maniOpenGltf(s->builder, s->bytes, s->size, &g).result != mani_success) return 0;
    for (uint32_t b = 0; b < maniGltf_GetBufferCount(g) && s->bufferCount < MAUL_IMPORT_MAX_BUFFERS; b++) {
        size_t n = 0;
        const char* uri = maniGltf_GetBufferUri(g, b, &n);
        if (uri == NULL) continue;
        char* file = maul_ResolveUri(path, uri, n);
        unsigned char* bytes = file != NULL ? maul_ReadAll(file, &s->bufferSizes[s->bufferCount]) : NULL;
        free(file);
        if (bytes == NULL) {
            maniCloseGltf(g);
            return 0;
        }
        s->buffers[s->bufferCount] = bytes;
        s->bufferIndex[s->bufferCount] = b;
        s->totalBytes += s->bufferSizes[s->bufferCount++];
    }
    maniCloseGltf(g);
    return maul_OpenOnce(s, &s->opened) == 0;
}

int maul_BenchImport(FILE* out) {
    static const struct {
        const char* name;
        const char* path;
    } models[] = {
        {"SimpleSkin", "khronos/SimpleSkin/glTF/SimpleSkin.gltf"},
        {"RiggedSimple", "khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb"},
        {"RiggedFigure", "khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb"},
        {"CesiumMan", "khronos/CesiumMan/glTF-Binary/CesiumMan.glb"},
        {"Fox", "khronos/Fox/glTF-Binary/Fox.glb"},
        {"InterpolationTest", "khronos/InterpolationTest/glTF-Binary/InterpolationTest.glb"},
        {"MorphStressTest", "khronos/MorphStressTest/glTF-Binary/MorphStressTest.glb"},
        {"RecursiveSkeletons", "khronos/RecursiveSkeletons/glTF-Binary/RecursiveSkeletons.glb"},
        {"AnimationPointer", "blender-io/24_animation_pointer/24_animation_pointer.gltf"},
        {"Godette", "vrm/godot-vrm/Godette_vrm_v4.vrm"},
        {"pirate-meshopt", "meshopt/pirate.glb"},
        {"Duck-meshopt", "meshopt/Duck-vp-3-vt-3-vn-3.glb"},
    };
    enum { count = sizeof models / sizeof models[0] };
    const char* root = getenv("MAUL_GLTF_MODELS");
    if (root == NULL) root = "../shared/data/gltf";
    int status = 0;
    double rates[count][2];
    int present[count];
    for (int m = 0; m < count; m++) {
        present[m] = 0;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root, models[m].path);
        char openName[64], buildName[64];
        snprintf(openName, sizeof openName, "import-open-%s", models[m].name);
        snprintf(buildName, sizeof buildName, "import-build-%s", models[m].name);
        maul_ImportBench s;
        memset(&s, 0, sizeof s);
        if (!maul_LoadImportBench(&s, path)) {
            maul_FreeImportBench(&s);
            continue; /* absent (or refused: maul import says why) */
        }
        present[m] = 1;
        maul_BenchCase open = {openName, maul_ImportIterations(maul_RunImportOpen, &s), 0, maul_RunImportOpen, &s};
        maul_BenchCase build = {buildName, maul_ImportIterations(maul_RunImportBuild, &s), 0, maul_RunImportBuild,
                                &s};
        double ns[2] = {0.0, 0.0};
        status |= maul_RunCase(out, &open);
        ns[0] = maul_benchLastMedian;
        status |= maul_RunCase(out, &build);
        ns[1] = maul_benchLastMedian;
        /* bytes per ns is GB/s: MB/s is 1e3 times it. */
        for (int k = 0; k < 2; k++) rates[m][k] = ns[k] > 0.0 ? (double)s.totalBytes / ns[k] * 1e3 : 0.0;
        maul_FreeImportBench(&s);
    }
    int any = 0;
    for (int m = 0; m < count; m++) any |= present[m] && (rates[m][0] > 0.0 || rates[m][1] > 0.0);
    if (any) {
        fprintf(out, "%-26s %12s %12s\n", "import model", "open MB/s", "build MB/s");
        for (int m = 0; m < count; m++)
            if (present[m] && (rates[m][0] > 0.0 || rates[m][1] > 0.0))
                fprintf(out, "%-26s %12.1f %12.1f\n", models[m].name, rates[m][0], rates[m][1]);
    }
    return status | maul_BenchImportFbx(out);
}
