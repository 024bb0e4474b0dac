/* maul compress: maniCompressClip from the command line (tools/cli/compress.h). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "tools/cli/compress.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/core/json/json.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/skeleton.h"
#include "tools/cli/files.h"
#include "tools/cli/import.h"

typedef struct maul_File {
    void* bytes;
    size_t size;
} maul_File;

static int maul_LoadAligned(const char* path, maul_File* f) { return (f->bytes = maul_ReadAllAligned(path, &f->size)) != NULL; }

/* A tolerance argument: a finite number above 0 (the compressor's own rule). */
static int maul_ParseTolerance(const char* text, float* out) {
    float v = 0.0f;
    if (mcore_JsonParseFloat(text, strlen(text), &v) != mcore_jsonOk || !(v > 0.0f) || v > 3.0e38f) return 0;
    *out = v;
    return 1;
}

static char* maul_DefaultOut(const char* clip) {
    size_t n = strlen(clip);
    const char* suffix = "-compressed.mani";
    size_t keep = n >= 5 && strcmp(clip + n - 5, ".mani") == 0 ? n - 5 : n;
    char* path = (char*)malloc(keep + strlen(suffix) + 1);
    if (path == NULL) return NULL;
    memcpy(path, clip, keep);
    strcpy(path + keep, suffix);
    return path;
}

static int maul_CompressUsage(void) {
    fprintf(stderr,
            "usage: maul compress CLIP --skeleton SKELETON [--precision P] [--shell D]\n"
            "                     [--float-precision F] [--out FILE] [--json]\n"
            "  P: the largest distance a shell vertex may move (default 0.0001)\n"
            "  D: the shell vertices' distance from each bone (default 0.03)\n"
            "  F: the largest difference of a float track (default 0.00001)\n");
    return 2;
}

static void maul_PrintText(FILE* out, const char* clipPath, const char* outPath, const maniSkeleton* skeleton,
                           const maniCompressOptions* options, const maniCompressReport* r, double ms) {
    fprintf(out, "compressed %s -> %s\n", clipPath, outPath);
    fprintf(out, "  bytes              %" PRIu64 " -> %" PRIu64 "  ratio %.2f\n", r->sizeBefore, r->sizeAfter,
            r->ratio);
    char precision[MCORE_JSON_NUMBER_CHARS], shell[MCORE_JSON_NUMBER_CHARS];
    size_t pn = mcore_JsonFormatFloat(options->precision, precision); /* the shortest text of the binary32 used */
    size_t sn = mcore_JsonFormatFloat(options->shellDistance, shell);
    fprintf(out, "  precision          %.*s at shell distance %.*s\n", (int)pn, precision, (int)sn, shell);
    if (r->worstBone == MANI_NO_BONE) {
        fprintf(out, "  worst shell error  0\n");
    } else {
        size_t n = 0;
        const char* name = maniSkeleton_GetBoneName(skeleton, r->worstBone, &n);
        fprintf(out, "  worst shell error  %.6e at bone %u %.*s, %s %u\n", r->worstError, r->worstBone, (int)n,
                name ? name : "", (r->worstSample & 1u) ? "halfway after sample" : "sample", r->worstSample / 2u);
    }
    if (r->worstFloatTrack != MANI_NO_TRACK)
        fprintf(out, "  worst float error  %.6e at float track %u\n", r->worstFloatError, r->worstFloatTrack);
    fprintf(out, "  time               %.1f ms\n", ms);
    fprintf(out, "  per bone (worst shell error, share of the precision):\n");
    for (uint32_t b = 0; b < r->boneCapacity; ++b) {
        size_t n = 0;
        const char* name = maniSkeleton_GetBoneName(skeleton, b, &n);
        double share = r->bones[b] / (double)options->precision;
        int bar = share <= 0.0 ? 0 : share >= 1.0 ? 20 : (int)(share * 20.0 + 0.5);
        fprintf(out, "    %4u %-32.*s %.3e %5.1f%% |%.*s%*s|\n", b, (int)(n < 32 ? n : 32), name ? name : "",
                r->bones[b], share * 100.0, bar, "####################", 20 - bar, "");
    }
}

static void maul_PrintJson(FILE* out, const char* clipPath, const char* outPath, const maniCompressOptions* options,
                           const maniCompressReport* r, double ms) {
    mcore_JsonAllocator libc = {NULL, NULL, NULL};
    mcore_JsonWriter w;
    mcore_JsonWriterInit(&w, NULL, 0, &libc);
    mcore_JsonWriteBeginObject(&w);
    mcore_JsonWriteKey(&w, "clip", 4);
    mcore_JsonWriteString(&w, clipPath, strlen(clipPath));
    mcore_JsonWriteKey(&w, "out", 3);
    mcore_JsonWriteString(&w, outPath, strlen(outPath));
    mcore_JsonWriteKey(&w, "sizeBefore", 10);
    mcore_JsonWriteUint64(&w, r->sizeBefore);
    mcore_JsonWriteKey(&w, "sizeAfter", 9);
    mcore_JsonWriteUint64(&w, r->sizeAfter);
    mcore_JsonWriteKey(&w, "ratio", 5);
    mcore_JsonWriteDouble(&w, r->ratio);
    mcore_JsonWriteKey(&w, "precision", 9);
    mcore_JsonWriteFloat(&w, options->precision);
    mcore_JsonWriteKey(&w, "shellDistance", 13);
    mcore_JsonWriteFloat(&w, options->shellDistance);
    mcore_JsonWriteKey(&w, "worstError", 10);
    mcore_JsonWriteDouble(&w, r->worstError);
    mcore_JsonWriteKey(&w, "worstBone", 9);
    if (r->worstBone == MANI_NO_BONE)
        mcore_JsonWriteNull(&w);
    else
        mcore_JsonWriteUint64(&w, r->worstBone);
    mcore_JsonWriteKey(&w, "worstSample", 11);
    mcore_JsonWriteUint64(&w, r->worstSample);
    mcore_JsonWriteKey(&w, "milliseconds", 12);
    mcore_JsonWriteDouble(&w, ms);
    mcore_JsonWriteKey(&w, "bones", 5);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t b = 0; b < r->boneCapacity; ++b) mcore_JsonWriteDouble(&w, r->bones[b]);
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteEndObject(&w);
    if (mcore_JsonWriterFinish(&w) == mcore_jsonOk) fwrite(w.buffer, 1, w.length, out);
    mcore_JsonWriterRelease(&w);
}

int maul_Compress(FILE* out, int argc, char** argv) {
    const char *clipPath = NULL, *skeletonPath = NULL, *outArg = NULL;
    int json = 0;
    maniCompressOptions options = maniDefaultCompressOptions();
    for (int i = 0; i < argc; ++i) {
        const char* a = argv[i];
        int hasValue = i + 1 < argc;
        if (strcmp(a, "--skeleton") == 0 && hasValue) {
            skeletonPath = argv[++i];
        } else if (strcmp(a, "--out") == 0 && hasValue) {
            outArg = argv[++i];
        } else if (strcmp(a, "--precision") == 0 && hasValue) {
            if (!maul_ParseTolerance(argv[++i], &options.precision)) return maul_CompressUsage();
        } else if (strcmp(a, "--shell") == 0 && hasValue) {
            if (!maul_ParseTolerance(argv[++i], &options.shellDistance)) return maul_CompressUsage();
        } else if (strcmp(a, "--float-precision") == 0 && hasValue) {
            if (!maul_ParseTolerance(argv[++i], &options.floatPrecision)) return maul_CompressUsage();
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] != '-' && clipPath == NULL) {
            clipPath = a;
        } else {
            return maul_CompressUsage();
        }
    }
    if (clipPath == NULL || skeletonPath == NULL) return maul_CompressUsage();

    int status = 2;
    maul_File clipFile = {NULL, 0}, skeletonFile = {NULL, 0};
    maniBuilder* builder = NULL;
    void* built = NULL;
    double* bones = NULL;
    char* outPath = outArg != NULL ? NULL : maul_DefaultOut(clipPath);
    const char* target = outArg != NULL ? outArg : outPath;
    maniSkeleton skeleton;
    maniClip clip;
    if (target == NULL) goto done;
    if (!maul_LoadAligned(skeletonPath, &skeletonFile)) {
        fprintf(stderr, "maul compress: cannot read %s\n", skeletonPath);
        goto done;
    }
    if (!maul_LoadAligned(clipPath, &clipFile)) {
        fprintf(stderr, "maul compress: cannot read %s\n", clipPath);
        goto done;
    }
    maniFileResult opened = maniOpenSkeleton(skeletonFile.bytes, skeletonFile.size, &skeleton);
    if (opened.result != mani_success) {
        fprintf(stderr, "maul compress: %s: not a skeleton maniOpenSkeleton accepts: %s at offset %" PRIu64 "\n",
                skeletonPath, maniGetResultName(opened.result), opened.offset);
        status = 1;
        goto done;
    }
    opened = maniOpenClip(clipFile.bytes, clipFile.size, &clip);
    if (opened.result != mani_success) {
        fprintf(stderr, "maul compress: %s: not a clip maniOpenClip accepts: %s at offset %" PRIu64 "\n", clipPath,
                maniGetResultName(opened.result), opened.offset);
        status = 1;
        goto done;
    }
    if (maniClip_IsCompressed(&clip)) {
        fprintf(stderr, "maul compress: %s is already compressed\n", clipPath);
        status = 1;
        goto done;
    }
    if (maniClip_GetSkeletonIdentity(&clip) != maniSkeleton_GetIdentity(&skeleton)) {
        fprintf(stderr, "maul compress: %s was built for skeleton %016" PRIx64 ", %s is %016" PRIx64 "\n", clipPath,
                maniClip_GetSkeletonIdentity(&clip), skeletonPath, maniSkeleton_GetIdentity(&skeleton));
        status = 1;
        goto done;
    }
    uint32_t boneCount = maniSkeleton_GetBoneCount(&skeleton);
    bones = (double*)calloc(boneCount ? boneCount : 1, sizeof(double));
    maniBuilderDef def = maniDefaultBuilderDef();
    if (bones == NULL || maniCreateBuilder(&def, &builder) != mani_success) goto done;
    maniCompressReport report;
    memset(&report, 0, sizeof report);
    report.bones = bones;
    report.boneCapacity = boneCount;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    maniResult r = maniCompressClip(builder, &clip, &skeleton, &options, &report);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (r != mani_success) {
        fprintf(stderr, "maul compress: %s: maniCompressClip refused: %s\n", clipPath, maniGetResultName(r));
        status = r == mani_errorCapacity ? 2 : 1;
        goto done;
    }
    size_t size = 0;
    if ((built = maul_TakeBuilt(builder, &size)) == NULL) goto done;
    if (maul_WriteFile(target, built, size) != 0) {
        fprintf(stderr, "maul compress: cannot write %s\n", target);
        goto done;
    }
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (json)
        maul_PrintJson(out, clipPath, target, &options, &report, ms);
    else
        maul_PrintText(out, clipPath, target, &skeleton, &options, &report, ms);
    status = 0;
done:
    maniDestroyBuilder(builder);
    free(built);
    free(bones);
    free(outPath);
    free(clipFile.bytes);
    free(skeletonFile.bytes);
    return status;
}
