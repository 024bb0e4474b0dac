/* maul import FILE.fbx [--out DIR] (tools/cli/import.c hands FBX files
 * here): opens the document with maniOpenFbx and builds, with the default
 * options, every skeleton (maniBuildFbxSkeleton), every skin on its skeleton
 * (maniBuildFbxSkin) and its influences (maniBuildFbxInfluences), and every
 * set of morph targets (maniBuildFbxMorphTargets) and each clip on each
 * skeleton (maniBuildFbxClip, as glTF's: a row where the clip binds a bone
 * or is refused), printing the report table maul import prints for glTF:
 * kind, index, name (a skeleton's root bone, a skin's or morph set's mesh
 * model, a clip's stack), count (bones, joints, vertices, morph channels,
 * bound bones), bytes, identity hash (influences: maniHash64 of the file)
 * and result. With --out
 * each built file is written to DIR as KIND-INDEX.mani. */
#include "tools/cli/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/morph.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

typedef struct maul_FbxRun {
    maniBuilder* builder;
    const char* outDir;
    uint32_t items, refused, written;
    size_t bytes;
    int ioFailed;
} maul_FbxRun;

static void maul_FbxResult(maniImportResult r) {
    if (r.result == mani_success) {
        printf("ok");
        return;
    }
    printf("%s", maniGetResultName(r.result));
    if (r.reason != 0)
        printf(" reason=%u item=%llu offset=%llu", r.reason, (unsigned long long)r.item, (unsigned long long)r.offset);
}

/* The built file (malloc'd, 16-byte aligned through aligned_alloc), NULL when none. */
static void* maul_FbxBuilt(maniBuilder* b, size_t* size) {
    *size = 0;
    if (maniBuilder_CopyBuilt(b, NULL, 0, size) != mani_errorCapacity) return NULL;
    void* p = aligned_alloc(64, (*size + 63) / 64 * 64);
    if (p != NULL && maniBuilder_CopyBuilt(b, p, *size, size) != mani_success) {
        free(p);
        p = NULL;
    }
    return p;
}

static void maul_FbxRow(maul_FbxRun* run, const char* kind, uint32_t index, const char* name, size_t nameLength,
                        uint32_t count, size_t size, uint64_t identity, maniImportResult r, const void* file) {
    char at[16];
    snprintf(at, sizeof at, "%u", index);
    const int n = nameLength > 40 ? 40 : (int)nameLength;
    printf("%-13s %-8s %-40.*s %8u %10zu  %016llx  ", kind, at, n, nameLength ? name : "-", count, size,
           (unsigned long long)identity);
    maul_FbxResult(r);
    printf("\n");
    run->items++;
    run->bytes += size;
    if (r.result != mani_success) run->refused++;
    if (file != NULL && run->outDir != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-%u.mani", run->outDir, kind, index);
        if (maul_WriteFile(path, file, size) != 0) {
            perror(path);
            run->ioFailed = 1;
        } else {
            run->written++;
        }
    }
}

static void maul_FbxSkins(maul_FbxRun* run, const maniFbx* f, uint32_t skeleton, const maniSkeleton* s,
                          const maniFbxOptions* o) {
    for (uint32_t k = 0; k < maniFbx_GetSkinCount(f); k++) {
        if (maniFbx_GetSkinSkeleton(f, k) != skeleton) continue;
        size_t nameLength = 0;
        const char* name = maniFbx_GetModelBoneName(f, maniFbx_GetSkinModel(f, k), &nameLength);
        maniImportResult r = maniBuildFbxSkin(run->builder, f, k, s, o);
        size_t size = 0;
        void* file = r.result == mani_success ? maul_FbxBuilt(run->builder, &size) : NULL;
        maniSkin skin;
        int opened = file != NULL && maniOpenSkin(file, size, &skin).result == mani_success;
        maul_FbxRow(run, "skin", k, name, nameLength, opened ? maniSkin_GetJointCount(&skin) : 0, size,
                    opened ? maniSkin_GetIdentity(&skin) : 0, r, file);
        if (opened) {
            maniImportResult i = maniBuildFbxInfluences(run->builder, f, k, &skin);
            size_t n = 0;
            void* inf = i.result == mani_success ? maul_FbxBuilt(run->builder, &n) : NULL;
            maniInfluences view;
            int ok = inf != NULL && maniOpenInfluences(inf, n, &view).result == mani_success;
            maul_FbxRow(run, "influences", k, name, nameLength, ok ? maniInfluences_GetVertexCount(&view) : 0, n,
                        inf != NULL ? maniHash64(0, inf, (int64_t)n) : 0, i, inf);
            free(inf);
        }
        free(file);
    }
}

/* Each clip on a skeleton: a row where it binds a bone or is refused. */
static void maul_FbxClips(maul_FbxRun* run, const maniFbx* f, const maniSkeleton* s, const maniFbxOptions* o) {
    const maniImportClipOptions co = maniDefaultImportClipOptions();
    for (uint32_t c = 0; c < maniFbx_GetClipCount(f); c++) {
        size_t nameLength = 0;
        const char* name = maniFbx_GetClipName(f, c, &nameLength);
        uint32_t bound = 0;
        maniImportResult r = maniBuildFbxClip(run->builder, f, c, s, o, &co, &bound);
        if (r.result == mani_success && bound == 0) continue;
        size_t size = 0;
        void* file = r.result == mani_success ? maul_FbxBuilt(run->builder, &size) : NULL;
        maniClip clip;
        int opened = file != NULL && maniOpenClip(file, size, &clip).result == mani_success;
        maul_FbxRow(run, "clip", c, name, nameLength, bound, size, opened ? maniClip_GetIdentity(&clip) : 0, r, file);
        free(file);
    }
}

int maul_ImportFbx(const char* input, const char* outDir, const unsigned char* bytes, size_t size) {
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* builder = NULL;
    if (maniCreateBuilder(&def, &builder) != mani_success) return 2;
    maul_FbxRun run = {builder, outDir, 0, 0, 0, 0, 0};
    maniFbx* f = NULL;
    maniImportResult r = maniOpenFbx(builder, bytes, size, &f);
    printf("open %s: ", input);
    maul_FbxResult(r);
    printf("\n");
    if (r.result != mani_success) {
        maniDestroyBuilder(builder);
        return 1;
    }
    printf("FBX %u, %u models, %u skeletons, %u skins, %u morph sets, %u clips\n", maniFbx_GetVersion(f),
           maniFbx_GetModelCount(f), maniFbx_GetSkeletonCount(f), maniFbx_GetSkinCount(f), maniFbx_GetMorphCount(f),
           maniFbx_GetClipCount(f));
    for (uint32_t i = 0; i < maniFbx_GetRenamedCount(f); i++) {
        const uint32_t model = maniFbx_GetRenamedModel(f, i);
        size_t length = 0;
        const char* bone = maniFbx_GetModelBoneName(f, model, &length);
        printf("renamed model %u: %.*s (no name, or an earlier model's)\n", model, (int)length, bone != NULL ? bone : "");
    }
    printf("%-13s %-8s %-40s %8s %10s  %-16s  %s\n", "kind", "index", "name", "count", "bytes", "identity", "result");
    maniFbxOptions o = maniDefaultFbxOptions();
    for (uint32_t k = 0; k < maniFbx_GetSkeletonCount(f); k++) {
        maniImportResult b = maniBuildFbxSkeleton(builder, f, k, &o);
        size_t n = 0;
        void* file = b.result == mani_success ? maul_FbxBuilt(builder, &n) : NULL;
        maniSkeleton s;
        int opened = file != NULL && maniOpenSkeleton(file, n, &s).result == mani_success;
        size_t nameLength = 0;
        const char* name = opened ? maniSkeleton_GetBoneName(&s, 0, &nameLength) : NULL;
        maul_FbxRow(&run, "skeleton", k, name, name != NULL ? nameLength : 0, opened ? maniSkeleton_GetBoneCount(&s) : 0,
                    n, opened ? maniSkeleton_GetIdentity(&s) : 0, b, file);
        if (opened) maul_FbxSkins(&run, f, k, &s, &o);
        if (opened) maul_FbxClips(&run, f, &s, &o);
        free(file);
    }
    for (uint32_t k = 0; k < maniFbx_GetMorphCount(f); k++) {
        size_t nameLength = 0;
        const char* name = maniFbx_GetModelBoneName(f, maniFbx_GetMorphModel(f, k), &nameLength);
        maniImportResult b = maniBuildFbxMorphTargets(builder, f, k, &o);
        size_t n = 0;
        void* file = b.result == mani_success ? maul_FbxBuilt(builder, &n) : NULL;
        maniMorphTargets t;
        int opened = file != NULL && maniOpenMorphTargets(file, n, &t).result == mani_success;
        maul_FbxRow(&run, "morph targets", k, name, nameLength, opened ? maniMorphTargets_GetChannelCount(&t) : 0, n,
                    opened ? t.identity : 0, b, file);
        free(file);
    }
    printf("%u items, %u refused, %zu bytes built", run.items, run.refused, run.bytes);
    if (outDir != NULL) printf(", %u files written to %s", run.written, outDir);
    printf("\n");
    maniCloseFbx(f);
    maniDestroyBuilder(builder);
    if (run.ioFailed) return 2;
    return run.refused > 0 ? 1 : 0;
}
