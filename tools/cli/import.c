/* maul import FILE.gltf|FILE.glb|FILE.fbx [--out DIR] (FBX: import_fbx.c): opens a glTF document with
 * maniOpenGltf, supplies its external buffers from the files beside it
 * (percent escapes of the URIs decoded), builds every skeleton, skin,
 * influences, morph targets and clip with the default options
 * (mani_GltfImportAll) and prints a report table, one row per item: kind,
 * glTF index, name, count (bones, joints, vertices, morph channels, bound
 * channels), bytes, identity hash and result (with reason, item and offset
 * when refused). With --out each built file is written to DIR as
 * KIND-INDEX[-PRIMITIVE].mani. Progress lines go to stderr. Exit status 0
 * when every item built, 1 when the document or an item was refused, 2 for
 * usage or I/O errors. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "tools/cli/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <errno.h>
#include <sys/stat.h>

#include "lib/anim/src/import/gltf/gltf_import_all.h"
#include "maul/anim/import.h"

const char* maul_FileKindName(unsigned kind) {
    static const char* const names[] = {"none",          "skeleton",   "skin",         "influences", "clip",
                                        "morph targets", "graph",      "motion database", "learned model",
                                        "mirror map",    "retarget map", "spring set", "ragdoll", "saved state",
                                        "checkpoint"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

const char* maul_GraphNodeKindName(unsigned kind) {
    static const char* const names[] = {"clip",          "blend",    "mask",        "additive",     "select",
                                        "time scale",    "seek",     "1D space",    "banded space", "triangulated space",
                                        "state machine", "one-shot", "inertialize", "mirror",       "pose",
                                        "ik",            "spring",   "motion match", "learned"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

static int maul_HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char* maul_ResolveUri(const char* document, const char* uri, size_t length) {
    const char* slash = strrchr(document, '/');
    const size_t dirLength = slash != NULL ? (size_t)(slash - document) + 1 : 0;
    for (size_t i = 0; i < length && uri[i] != '/'; i++)
        if (uri[i] == ':') return NULL; /* a scheme: not a file beside the document */
    if (length > 0 && uri[0] == '/') return NULL;
    char* path = (char*)malloc(dirLength + length + 1);
    if (path == NULL) return NULL;
    memcpy(path, document, dirLength);
    size_t n = dirLength;
    for (size_t i = 0; i < length; i++) {
        if (uri[i] == '%' && i + 2 < length && maul_HexDigit(uri[i + 1]) >= 0 && maul_HexDigit(uri[i + 2]) >= 0) {
            path[n++] = (char)(maul_HexDigit(uri[i + 1]) * 16 + maul_HexDigit(uri[i + 2]));
            i += 2;
        } else {
            path[n++] = uri[i];
        }
    }
    path[n] = 0;
    if (strlen(path) != n) { /* %00 */
        free(path);
        return NULL;
    }
    return path;
}

static double maul_Seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct maul_ImportRun {
    maniBuilder* builder;
    FILE* out;
    const char* outDir;
    double start, lastProgress;
    uint32_t items, written, refused;
    size_t bytes;
    int ioFailed;
} maul_ImportRun;

static void maul_PrintResult(FILE* out, maniImportResult r) {
    if (r.result == mani_success) {
        fprintf(out, "ok");
        return;
    }
    fprintf(out, "%s", maniGetResultName(r.result));
    if (r.reason != 0)
        fprintf(out, " reason=%s item=%llu offset=%llu", mani_GltfImportReasonName(r.reason),
                (unsigned long long)r.item, (unsigned long long)r.offset);
}

/* Writes a built file to DIR/NAME.mani under --out. */
static void maul_WriteItem(maul_ImportRun* run, const char* name, const void* bytes, size_t size) {
    if (run->outDir == NULL) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.mani", run->outDir, name);
    if (maul_WriteFile(path, bytes, size) != 0) {
        perror(path);
        run->ioFailed = 1;
    } else {
        run->written++;
    }
}

/* A clip's compressed form (maniCompressClip, default tolerances): its row
 * (bytes, ratio, worst shell error in the clip's units and its bone) and,
 * under --out, its file NAME-compressed.mani. */
static void maul_CompressItem(maul_ImportRun* run, const mani_GltfItem* item, const char* name) {
    const maniCompressOptions options = maniDefaultCompressOptions();
    maniCompressReport report;
    memset(&report, 0, sizeof report);
    const maniResult r = maniCompressClip(run->builder, item->clip, item->skeletonView, &options, &report);
    fprintf(run->out, "%-13s %-8s %-40s %8u ", "  compressed", "", "", item->count);
    if (r != mani_success) {
        fprintf(run->out, "%10s  %16s  %s\n", "0", "", maniGetResultName(r));
        run->refused++;
        return;
    }
    fprintf(run->out, "%10llu  ratio %6.2f    worst %.3g (bone %u)", (unsigned long long)report.sizeAfter,
            report.ratio, report.worstError, report.worstBone);
    if (item->channels > item->count)
        fprintf(run->out, ", %u of %u channels skipped (nodes outside the skeleton or paths not read)",
                item->channels - item->count, item->channels);
    fprintf(run->out, "\n");
    run->bytes += (size_t)report.sizeAfter;
    if (run->outDir == NULL) return;
    size_t size = 0;
    if (maniBuilder_CopyBuilt(run->builder, NULL, 0, &size) != mani_errorCapacity) return;
    void* bytes = malloc(size);
    if (bytes != NULL && maniBuilder_CopyBuilt(run->builder, bytes, size, &size) == mani_success) {
        char file[128];
        snprintf(file, sizeof file, "%s-compressed", name);
        maul_WriteItem(run, file, bytes, size);
    }
    free(bytes);
}

static void maul_ImportItem(void* user, const mani_GltfItem* item) {
    maul_ImportRun* run = (maul_ImportRun*)user;
    char index[32];
    if (item->kind == mani_gltfItemInfluences || item->kind == mani_gltfItemMorph)
        snprintf(index, sizeof index, "%u.%u", item->index, item->primitive);
    else if (item->kind == mani_gltfItemClip)
        snprintf(index, sizeof index, "%u@%u", item->index, item->skeleton);
    else
        snprintf(index, sizeof index, "%u", item->index);
    const int nameLength = item->nameLength > 40 ? 40 : (int)item->nameLength;
    /* The identity column is the file's own (its container header's, bytes 32 to 40: what GetIdentity and
     * maul inspect report) for every kind, also those whose item carries a hash of the bytes instead. */
    uint64_t identity = item->identity;
    if (item->file != NULL && item->size >= 40) {
        identity = 0;
        for (int i = 7; i >= 0; --i) identity = identity << 8 | ((const unsigned char*)item->file)[32 + i];
    }
    fprintf(run->out, "%-13s %-8s %-40.*s %8u %10zu  %016llx  ", mani_GltfItemKindName(item->kind), index, nameLength,
            item->nameLength ? item->name : "-", item->count, item->size, (unsigned long long)identity);
    maul_PrintResult(run->out, item->result);
    fprintf(run->out, "\n");
    run->items++;
    run->bytes += item->size;
    if (item->result.result != mani_success) run->refused++;
    if (item->file != NULL) {
        char file[96];
        if (item->kind == mani_gltfItemInfluences || item->kind == mani_gltfItemMorph)
            snprintf(file, sizeof file, "%s-%u-%u", mani_GltfItemKindName(item->kind), item->index, item->primitive);
        else if (item->kind == mani_gltfItemClip)
            snprintf(file, sizeof file, "clip-%u-skeleton-%u", item->index, item->skeleton);
        else
            snprintf(file, sizeof file, "%s-%u", mani_GltfItemKindName(item->kind), item->index);
        maul_WriteItem(run, file, item->file, item->size);
        if (item->clip != NULL && item->skeletonView != NULL) maul_CompressItem(run, item, file);
    }
    const double now = maul_Seconds();
    if (now - run->lastProgress >= 1.0) {
        fprintf(stderr, "maul import: %u items built, %.1f s\n", run->items, now - run->start);
        run->lastProgress = now;
    }
}

int maul_Import(int argc, char** argv) {
    const char* input = NULL;
    const char* outDir = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            outDir = argv[++i];
        else if (input == NULL && argv[i][0] != '-')
            input = argv[i];
        else {
            fprintf(stderr, "usage: maul import FILE.gltf|FILE.glb|FILE.fbx [--out DIR]\n");
            return 2;
        }
    }
    if (input == NULL) {
        fprintf(stderr, "usage: maul import FILE.gltf|FILE.glb|FILE.fbx [--out DIR]\n");
        return 2;
    }
    if (outDir != NULL && mkdir(outDir, 0777) != 0 && errno != EEXIST) {
        perror(outDir);
        return 2;
    }
    maul_ImportRun run = {NULL, stdout, outDir, maul_Seconds(), 0, 0, 0, 0, 0, 0};
    run.lastProgress = run.start;
    size_t size = 0;
    unsigned char* bytes = maul_ReadAll(input, &size);
    if (bytes == NULL) {
        perror(input);
        return 2;
    }
    fprintf(stderr, "maul import: %s, %zu bytes\n", input, size);
    const size_t inputLength = strlen(input);
    if (inputLength > 4 && (strcmp(input + inputLength - 4, ".fbx") == 0 || strcmp(input + inputLength - 4, ".FBX") == 0)) {
        const int fbxStatus = maul_ImportFbx(input, outDir, bytes, size);
        free(bytes);
        fprintf(stderr, "maul import: done in %.2f s\n", maul_Seconds() - run.start);
        return fbxStatus;
    }
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* builder = NULL;
    if (maniCreateBuilder(&def, &builder) != mani_success) {
        free(bytes);
        return 2;
    }
    run.builder = builder;
    int status = 0;
    maniGltf* g = NULL;
    unsigned char** external = NULL;
    uint32_t buffers = 0;
    maniImportResult r = maniOpenGltf(builder, bytes, size, &g);
    printf("open %s: ", input);
    maul_PrintResult(stdout, r);
    printf("\n");
    if (r.result != mani_success) {
        status = 1;
        goto done;
    }
    /* External buffers, from the files beside the document. */
    buffers = maniGltf_GetBufferCount(g);
    external = (unsigned char**)calloc(buffers ? buffers : 1, sizeof(unsigned char*));
    if (external == NULL) {
        status = 2;
        goto close;
    }
    for (uint32_t b = 0; b < buffers; b++) {
        size_t length = 0;
        const char* uri = maniGltf_GetBufferUri(g, b, &length);
        if (uri == NULL) continue;
        char* path = maul_ResolveUri(input, uri, length);
        size_t got = 0;
        if (path != NULL) external[b] = maul_ReadAll(path, &got);
        if (external[b] == NULL) {
            printf("buffer %u %.*s: not read (%s)\n", b, (int)length, uri, path != NULL ? "no such file" : "not a file URI");
        } else {
            maniImportResult s = maniGltf_SupplyBuffer(g, b, external[b], got);
            printf("buffer %u %.*s: %zu bytes, ", b, (int)length, uri, got);
            maul_PrintResult(stdout, s);
            printf("\n");
            if (s.result != mani_success) status = 1;
        }
        free(path);
    }
    for (uint32_t i = 0; i < maniGltf_GetRenamedCount(g); i++) {
        const uint32_t node = maniGltf_GetRenamedNode(g, i);
        size_t length = 0;
        const char* bone = maniGltf_GetNodeBoneName(g, node, &length);
        printf("renamed node %u: %.*s (no name, or an earlier node's)\n", node, (int)length, bone != NULL ? bone : "");
    }
    printf("%-13s %-8s %-40s %8s %10s  %-16s  %s\n", "kind", "index", "name", "count", "bytes", "identity", "result");
    maniGltfOptions options = maniDefaultGltfOptions();
    maniImportClipOptions clipOptions = maniDefaultImportClipOptions();
    const uint32_t refused = mani_GltfImportAll(builder, g, &options, &clipOptions, maul_ImportItem, &run);
    if (refused == UINT32_MAX) {
        fprintf(stderr, "maul import: out of memory\n");
        status = 2;
    } else if (refused > 0 && status == 0) {
        status = 1;
    }
    printf("%u items, %u refused, %zu bytes built", run.items, run.refused, run.bytes);
    if (outDir != NULL) printf(", %u files written to %s", run.written, outDir);
    printf("\n");
    if (run.ioFailed) status = 2;
    fprintf(stderr, "maul import: done in %.2f s\n", maul_Seconds() - run.start);
close:
    maniCloseGltf(g); /* before the buffers it reads are freed */
    for (uint32_t b = 0; external != NULL && b < buffers; b++) free(external[b]);
    free(external);
done:
    maniDestroyBuilder(builder);
    free(bytes);
    return status;
}
