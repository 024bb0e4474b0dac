/* maul retarget, maul mirror and maul graph (tools/cli/transfer.h). */
#include "tools/cli/transfer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/json/json.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/retarget.h"
#include "maul/anim/retargetbuild.h"
#include "maul/anim/skeleton.h"
#include "tools/cli/files.h"
#include "tools/cli/import.h"

static void maul_PrintRefusal(const char* tool, const char* path, const char* what, maniBuildResult r) {
    fprintf(stderr, "maul %s: %s: %s refused: %s, reason %s%s%s (%u), item %" PRIu64 ", other %" PRIu64 "\n", tool,
            path, what, maniGetResultName(r.result), maul_BuildReasonName(r.reason),
            (r.reason & maniBuildReasonFloatTrack) ? " of a float track" : "",
            (r.reason & maniBuildReasonEvent) ? " of an event" : "", r.reason, r.item, r.other);
}

/* DIR/<path's last component without suffix><tail>. */
static char* maul_OutPath(const char* dir, const char* path, const char* suffix, const char* tail) {
    const char* base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    size_t n = strlen(base), sn = strlen(suffix);
    if (n > sn && strcmp(base + n - sn, suffix) == 0) n -= sn;
    size_t dn = strlen(dir);
    char* out = (char*)malloc(dn + 1 + n + strlen(tail) + 1);
    if (out == NULL) return NULL;
    memcpy(out, dir, dn);
    out[dn] = '/';
    memcpy(out + dn + 1, base, n);
    strcpy(out + dn + 1 + n, tail);
    return out;
}

/* Copies what the builder holds into a file; 0 on success, 2 on failure. */
static int maul_WriteBuilt(const char* tool, maniBuilder* builder, const char* target, size_t* sizeOut) {
    size_t size = 0;
    void* built = maul_TakeBuilt(builder, &size);
    int ok = built != NULL && maul_WriteFile(target, built, size) == 0;
    free(built);
    if (!ok) {
        fprintf(stderr, "maul %s: cannot write %s\n", tool, target);
        return 2;
    }
    *sizeOut = size;
    return 0;
}

static int maul_IsJsonText(const unsigned char* bytes, size_t size) {
    for (size_t i = 0; i < size; ++i) {
        if (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' || bytes[i] == '\n') continue;
        return bytes[i] == '{';
    }
    return 0;
}

/* One output line (or JSON item) per file written. */
typedef struct maul_Report {
    FILE* out;
    int json;
    mcore_JsonWriter w;
} maul_Report;

static void maul_ReportFile(maul_Report* rep, const char* kind, const char* input, const char* path, size_t size,
                            uint64_t identity, const maniClip* clip) {
    if (!rep->json) {
        fprintf(rep->out, "%-5s %s -> %s  %zu bytes  identity %016" PRIx64, kind, input, path, size, identity);
        if (clip != NULL)
            fprintf(rep->out, "  %u samples at %g Hz, %g s", maniClip_GetSampleCount(clip),
                    (double)maniClip_GetSampleRate(clip), (double)maniClip_GetDuration(clip));
        fputc('\n', rep->out);
        return;
    }
    mcore_JsonWriter* w = &rep->w;
    mcore_JsonWriteBeginObject(w);
    mcore_JsonWriteKey(w, "kind", 4);
    mcore_JsonWriteString(w, kind, strlen(kind));
    mcore_JsonWriteKey(w, "input", 5);
    mcore_JsonWriteString(w, input, strlen(input));
    mcore_JsonWriteKey(w, "out", 3);
    mcore_JsonWriteString(w, path, strlen(path));
    mcore_JsonWriteKey(w, "bytes", 5);
    mcore_JsonWriteUint64(w, size);
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, identity);
    mcore_JsonWriteKey(w, "identity", 8);
    mcore_JsonWriteString(w, hex, 16);
    if (clip != NULL) {
        mcore_JsonWriteKey(w, "samples", 7);
        mcore_JsonWriteUint64(w, maniClip_GetSampleCount(clip));
        mcore_JsonWriteKey(w, "sampleRate", 10);
        mcore_JsonWriteFloat(w, maniClip_GetSampleRate(clip));
        mcore_JsonWriteKey(w, "duration", 8);
        mcore_JsonWriteFloat(w, maniClip_GetDuration(clip));
    }
    mcore_JsonWriteEndObject(w);
}

typedef enum maul_TransferKind { maul_transferRetarget, maul_transferMirror } maul_TransferKind;

static int maul_TransferUsage(maul_TransferKind kind) {
    if (kind == maul_transferRetarget)
        fprintf(stderr,
                "usage: maul retarget MAP --source S --target T [CLIP...] [--out DIR] [--json]\n"
                "  MAP: a retargeting map file, or its JSON text form (built for S and T and\n"
                "       written as DIR/MAP.mani)\n"
                "  CLIP: a clip file of S, retargeted to T and written as DIR/CLIP-retargeted.mani\n");
    else
        fprintf(stderr,
                "usage: maul mirror MAP --skeleton S [CLIP...] [--out DIR] [--json]\n"
                "  MAP: a mirror map file, or its JSON text form (built for S and written as\n"
                "       DIR/MAP.mani)\n"
                "  CLIP: a clip file of S, mirrored and written as DIR/CLIP-mirrored.mani\n");
    return 2;
}

static int maul_Transfer(FILE* out, int argc, char** argv, maul_TransferKind kind) {
    const char* tool = kind == maul_transferRetarget ? "retarget" : "mirror";
    const char *mapPath = NULL, *sourcePath = NULL, *targetPath = NULL, *dir = ".";
    int json = 0;
    char** clips = (char**)calloc((size_t)argc + 1, sizeof(char*));
    int clipCount = 0;
    if (clips == NULL) return 2;
    for (int i = 0; i < argc; ++i) {
        const char* a = argv[i];
        int hasValue = i + 1 < argc;
        if (kind == maul_transferRetarget && strcmp(a, "--source") == 0 && hasValue) {
            sourcePath = argv[++i];
        } else if (kind == maul_transferRetarget && strcmp(a, "--target") == 0 && hasValue) {
            targetPath = argv[++i];
        } else if (kind == maul_transferMirror && strcmp(a, "--skeleton") == 0 && hasValue) {
            sourcePath = argv[++i];
        } else if (strcmp(a, "--out") == 0 && hasValue) {
            dir = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] != '-' && mapPath == NULL) {
            mapPath = a;
        } else if (a[0] != '-') {
            clips[clipCount++] = argv[i];
        } else {
            free(clips);
            return maul_TransferUsage(kind);
        }
    }
    if (mapPath == NULL || sourcePath == NULL || (kind == maul_transferRetarget && targetPath == NULL)) {
        free(clips);
        return maul_TransferUsage(kind);
    }

    int status = 2;
    void *sourceBytes = NULL, *targetBytes = NULL, *mapBytes = NULL, *builtMap = NULL, *clipBytes = NULL;
    char* path = NULL;
    maniBuilder* builder = NULL;
    maniSkeleton source, target;
    maul_Report rep;
    memset(&rep, 0, sizeof rep);
    rep.out = out;
    rep.json = json;
    mcore_JsonAllocator libc = {NULL, NULL, NULL};
    if (json) {
        mcore_JsonWriterInit(&rep.w, NULL, 0, &libc);
        mcore_JsonWriteBeginArray(&rep.w);
    }
    if ((status = maul_OpenSkeletonFile(tool, sourcePath, &sourceBytes, &source)) != 0) goto done;
    if (kind == maul_transferRetarget &&
        (status = maul_OpenSkeletonFile(tool, targetPath, &targetBytes, &target)) != 0)
        goto done;
    status = 2;
    maniBuilderDef def = maniDefaultBuilderDef();
    if (maniCreateBuilder(&def, &builder) != mani_success) goto done;

    /* The map: opened from its file, or built from its JSON text and written. */
    size_t mapSize = 0;
    if ((mapBytes = maul_ReadAllAligned(mapPath, &mapSize)) == NULL) {
        fprintf(stderr, "maul %s: cannot read %s\n", tool, mapPath);
        goto done;
    }
    const void* mapFile = mapBytes;
    if (maul_IsJsonText((const unsigned char*)mapBytes, mapSize)) {
        maniBuildResult b =
            kind == maul_transferRetarget
                ? maniBuildRetargetMapJson(builder, (const char*)mapBytes, mapSize, &source, &target)
                : maniBuildMirrorMapJson(builder, (const char*)mapBytes, mapSize, &source);
        if (b.result != mani_success) {
            maul_PrintRefusal(tool, mapPath, kind == maul_transferRetarget ? "the retargeting map's JSON"
                                                                          : "the mirror map's JSON", b);
            if (b.reason == maniBuildReasonJson || b.reason == maniBuildReasonForm)
                fprintf(stderr, "maul %s: %s: at byte offset %" PRIu64 "\n", tool, mapPath, b.item);
            status = b.result == mani_errorCapacity ? 2 : 1;
            goto done;
        }
        size_t written = 0;
        if ((path = maul_OutPath(dir, mapPath, ".json", ".mani")) == NULL) goto done;
        if (maul_WriteBuilt(tool, builder, path, &written) != 0) goto done;
        if ((builtMap = maul_TakeBuilt(builder, &mapSize)) == NULL) goto done;
        mapFile = builtMap;
    }
    maniRetargetMap retargetMap;
    maniMirrorMap mirrorMap;
    maniFileResult opened = kind == maul_transferRetarget ? maniOpenRetargetMap(mapFile, mapSize, &retargetMap)
                                                           : maniOpenMirrorMap(mapFile, mapSize, &mirrorMap);
    if (opened.result != mani_success) {
        fprintf(stderr, "maul %s: %s: not a %s map the open accepts: %s at offset %" PRIu64 "\n", tool, mapPath,
                kind == maul_transferRetarget ? "retargeting" : "mirror", maniGetResultName(opened.result),
                opened.offset);
        status = 1;
        goto done;
    }
    uint64_t mapIdentity = kind == maul_transferRetarget ? maniRetargetMap_GetIdentity(&retargetMap)
                                                         : maniMirrorMap_GetIdentity(&mirrorMap);
    if (builtMap != NULL) maul_ReportFile(&rep, "map", mapPath, path, mapSize, mapIdentity, NULL);
    free(path);
    path = NULL;

    for (int c = 0; c < clipCount; ++c) {
        size_t clipSize = 0;
        free(clipBytes);
        if ((clipBytes = maul_ReadAllAligned(clips[c], &clipSize)) == NULL) {
            fprintf(stderr, "maul %s: cannot read %s\n", tool, clips[c]);
            goto done;
        }
        maniClip clip;
        opened = maniOpenClip(clipBytes, clipSize, &clip);
        if (opened.result != mani_success) {
            fprintf(stderr, "maul %s: %s: not a clip maniOpenClip accepts: %s at offset %" PRIu64 "\n", tool,
                    clips[c], maniGetResultName(opened.result), opened.offset);
            status = 1;
            goto done;
        }
        maniBuildResult b;
        if (kind == maul_transferRetarget) {
            maniRetargetClipSource s = {&retargetMap, &source, &target, &clip};
            b = maniBuildRetargetedClip(builder, &s);
        } else {
            maniMirrorClipSource s = {&mirrorMap, &source, &clip};
            b = maniBuildMirroredClip(builder, &s);
        }
        if (b.result != mani_success) {
            maul_PrintRefusal(tool, clips[c], "the clip", b);
            status = b.result == mani_errorCapacity ? 2 : 1;
            goto done;
        }
        size_t written = 0;
        path = maul_OutPath(dir, clips[c], ".mani", kind == maul_transferRetarget ? "-retargeted.mani"
                                                                                  : "-mirrored.mani");
        if (path == NULL || maul_WriteBuilt(tool, builder, path, &written) != 0) goto done;
        /* Describe the clip as written: open the bytes the file holds. */
        size_t builtSize = 0;
        void* built = maul_TakeBuilt(builder, &builtSize);
        maniClip result;
        if (built == NULL || maniOpenClip(built, builtSize, &result).result != mani_success) {
            free(built);
            goto done;
        }
        maul_ReportFile(&rep, "clip", clips[c], path, written, maniClip_GetIdentity(&result), &result);
        free(built);
        free(path);
        path = NULL;
    }
    status = 0;
done:
    if (json) {
        mcore_JsonWriteEndArray(&rep.w);
        if (status == 0 && mcore_JsonWriterFinish(&rep.w) == mcore_jsonOk) {
            fwrite(rep.w.buffer, 1, rep.w.length, out);
            fputc('\n', out);
        }
        mcore_JsonWriterRelease(&rep.w);
    }
    maniDestroyBuilder(builder);
    free(path);
    free(clipBytes);
    free(builtMap);
    free(mapBytes);
    free(targetBytes);
    free(sourceBytes);
    free(clips);
    return status;
}

int maul_Retarget(FILE* out, int argc, char** argv) { return maul_Transfer(out, argc, argv, maul_transferRetarget); }

int maul_Mirror(FILE* out, int argc, char** argv) { return maul_Transfer(out, argc, argv, maul_transferMirror); }

static int maul_GraphUsage(void) {
    fprintf(stderr,
            "usage: maul graph GRAPH.json --skeleton S [--clip NAME=CLIP]... [--mirror MAP]\n"
            "                  [--out FILE] [--json]\n"
            "  builds the graph's JSON text form for the skeleton file S: each clip slot NAME\n"
            "  plays the clip file CLIP, mirror nodes use the mirror map file MAP; writes FILE\n"
            "  (default GRAPH.mani)\n");
    return 2;
}

int maul_Graph(FILE* out, int argc, char** argv) {
    const char *graphPath = NULL, *skeletonPath = NULL, *mirrorPath = NULL, *outArg = NULL;
    int json = 0, clipCount = 0;
    const char** clipArgs = (const char**)calloc((size_t)argc + 1, sizeof(char*));
    if (clipArgs == NULL) return 2;
    for (int i = 0; i < argc; ++i) {
        const char* a = argv[i];
        int hasValue = i + 1 < argc;
        if (strcmp(a, "--skeleton") == 0 && hasValue) {
            skeletonPath = argv[++i];
        } else if (strcmp(a, "--clip") == 0 && hasValue && strchr(argv[i + 1], '=') != NULL &&
                   argv[i + 1][0] != '=') {
            clipArgs[clipCount++] = argv[++i];
        } else if (strcmp(a, "--mirror") == 0 && hasValue) {
            mirrorPath = argv[++i];
        } else if (strcmp(a, "--out") == 0 && hasValue) {
            outArg = argv[++i];
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (a[0] != '-' && graphPath == NULL) {
            graphPath = a;
        } else {
            free(clipArgs);
            return maul_GraphUsage();
        }
    }
    if (graphPath == NULL || skeletonPath == NULL) {
        free(clipArgs);
        return maul_GraphUsage();
    }
    int status = 2;
    void *skeletonBytes = NULL, *mirrorBytes = NULL, *text = NULL, *built = NULL;
    void** clipBytes = (void**)calloc((size_t)clipCount + 1, sizeof(void*));
    maniClip* clips = (maniClip*)calloc((size_t)clipCount + 1, sizeof(maniClip));
    maniGraphClipSource* named = (maniGraphClipSource*)calloc((size_t)clipCount + 1, sizeof(maniGraphClipSource));
    char* outPath = NULL;
    maniBuilder* builder = NULL;
    maniSkeleton skeleton;
    maniMirrorMap mirror;
    if (clipBytes == NULL || clips == NULL || named == NULL) goto done;
    if ((status = maul_OpenSkeletonFile("graph", skeletonPath, &skeletonBytes, &skeleton)) != 0) goto done;
    status = 2;
    for (int c = 0; c < clipCount; ++c) {
        const char* eq = strchr(clipArgs[c], '=');
        const char* path = eq + 1;
        size_t size = 0;
        if ((clipBytes[c] = maul_ReadAllAligned(path, &size)) == NULL) {
            fprintf(stderr, "maul graph: cannot read %s\n", path);
            goto done;
        }
        maniFileResult opened = maniOpenClip(clipBytes[c], size, &clips[c]);
        if (opened.result != mani_success) {
            fprintf(stderr, "maul graph: %s: not a clip maniOpenClip accepts: %s at offset %" PRIu64 "\n", path,
                    maniGetResultName(opened.result), opened.offset);
            status = 1;
            goto done;
        }
        named[c].name = clipArgs[c];
        named[c].nameLength = (size_t)(eq - clipArgs[c]);
        named[c].clip = &clips[c];
        named[c].map = NULL;
    }
    if (mirrorPath != NULL) {
        size_t size = 0;
        if ((mirrorBytes = maul_ReadAllAligned(mirrorPath, &size)) == NULL) {
            fprintf(stderr, "maul graph: cannot read %s\n", mirrorPath);
            goto done;
        }
        maniFileResult opened = maniOpenMirrorMap(mirrorBytes, size, &mirror);
        if (opened.result != mani_success) {
            fprintf(stderr, "maul graph: %s: not a mirror map the open accepts: %s at offset %" PRIu64 "\n",
                    mirrorPath, maniGetResultName(opened.result), opened.offset);
            status = 1;
            goto done;
        }
    }
    size_t textSize = 0;
    if ((text = maul_ReadAllAligned(graphPath, &textSize)) == NULL) {
        fprintf(stderr, "maul graph: cannot read %s\n", graphPath);
        goto done;
    }
    maniGraphNamedAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skeleton;
    assets.clips = clipCount > 0 ? named : NULL;
    assets.clipCount = (uint32_t)clipCount;
    assets.mirror = mirrorPath != NULL ? &mirror : NULL;
    maniBuilderDef def = maniDefaultBuilderDef();
    if (maniCreateBuilder(&def, &builder) != mani_success) goto done;
    maniBuildResult b = maniBuildGraphJson(builder, (const char*)text, textSize, &assets);
    if (b.result != mani_success) {
        maul_PrintRefusal("graph", graphPath, "the graph's JSON", b);
        if (b.reason == maniBuildReasonJson || b.reason == maniBuildReasonForm)
            fprintf(stderr, "maul graph: %s: at byte offset %" PRIu64 "\n", graphPath, b.item);
        status = b.result == mani_errorCapacity ? 2 : 1;
        goto done;
    }
    outPath = outArg != NULL ? NULL : maul_OutPath(".", graphPath, ".json", ".mani");
    const char* target = outArg != NULL ? outArg : outPath;
    if (target == NULL) goto done;
    if (outArg == NULL) target += 2; /* "./" */
    size_t written = 0, size = 0;
    if (maul_WriteBuilt("graph", builder, target, &written) != 0) goto done;
    maniGraph graph;
    if ((built = maul_TakeBuilt(builder, &size)) == NULL || maniOpenGraph(built, size, &graph).result != mani_success)
        goto done;
    if (json) {
        mcore_JsonAllocator libc = {NULL, NULL, NULL};
        mcore_JsonWriter w;
        mcore_JsonWriterInit(&w, NULL, 0, &libc);
        char hex[17];
        snprintf(hex, sizeof hex, "%016" PRIx64, maniGraph_GetIdentity(&graph));
        mcore_JsonWriteBeginObject(&w);
        mcore_JsonWriteKey(&w, "input", 5);
        mcore_JsonWriteString(&w, graphPath, strlen(graphPath));
        mcore_JsonWriteKey(&w, "out", 3);
        mcore_JsonWriteString(&w, target, strlen(target));
        mcore_JsonWriteKey(&w, "bytes", 5);
        mcore_JsonWriteUint64(&w, written);
        mcore_JsonWriteKey(&w, "identity", 8);
        mcore_JsonWriteString(&w, hex, 16);
        mcore_JsonWriteKey(&w, "parameters", 10);
        mcore_JsonWriteUint64(&w, maniGraph_GetParameterCount(&graph));
        mcore_JsonWriteKey(&w, "clips", 5);
        mcore_JsonWriteUint64(&w, maniGraph_GetClipCount(&graph));
        mcore_JsonWriteKey(&w, "nodes", 5);
        mcore_JsonWriteUint64(&w, maniGraph_GetNodeCount(&graph));
        mcore_JsonWriteEndObject(&w);
        if (mcore_JsonWriterFinish(&w) == mcore_jsonOk) {
            fwrite(w.buffer, 1, w.length, out);
            fputc('\n', out);
        }
        mcore_JsonWriterRelease(&w);
    } else {
        fprintf(out, "graph %s -> %s  %zu bytes  identity %016" PRIx64 "  %u parameters, %u clip slots, %u nodes\n",
                graphPath, target, written, maniGraph_GetIdentity(&graph), maniGraph_GetParameterCount(&graph),
                maniGraph_GetClipCount(&graph), maniGraph_GetNodeCount(&graph));
    }
    status = 0;
done:
    maniDestroyBuilder(builder);
    free(built);
    free(outPath);
    free(text);
    free(mirrorBytes);
    if (clipBytes != NULL)
        for (int c = 0; c < clipCount; ++c) free(clipBytes[c]);
    free(clipBytes);
    free(clips);
    free(named);
    free(skeletonBytes);
    free(clipArgs);
    return status;
}
