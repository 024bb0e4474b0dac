/* mani_GltfImportAll (gltf_import_all.h): every build of import.h over one
 * document, in a fixed order, each built file copied out of the builder and
 * opened again so later builds (skins, influences, clips) bind to it. */
#include "lib/anim/src/import/gltf/gltf_import_all.h"

#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/import/gltf/gltf_internal.h"
#include "maul/anim/morph.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

const char* mani_GltfItemKindName(uint32_t kind) {
    static const char* const names[] = {"skeleton", "node-skeleton", "skin", "influences", "morph", "clip"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

const char* mani_GltfImportReasonName(uint32_t reason) {
    static const char* const names[] = {"none",   "container", "json",  "property", "unsupported", "buffer",
                                        "data",   "bone",      "matrix", "name",    "build",       "index",
                                        "pending", "influence", "version", "syntax"};
    return reason < sizeof names / sizeof names[0] ? names[reason] : "?";
}

/* A built file copied out of the builder, aligned for the opens. */
typedef struct mani_GltfFile {
    void* bytes;
    size_t size;
} mani_GltfFile;

/* Copies the builder's last file; 0 when memory runs out. */
static int mani_GltfCopyFile(maniBuilder* builder, mani_GltfFile* f) {
    size_t size = 0;
    f->bytes = NULL;
    f->size = 0;
    if (maniBuilder_CopyBuilt(builder, NULL, 0, &size) != mani_errorCapacity || size == 0) return 1;
    const size_t rounded = (size + MANI_FILE_ALIGNMENT - 1) / MANI_FILE_ALIGNMENT * MANI_FILE_ALIGNMENT;
    f->bytes = aligned_alloc(MANI_FILE_ALIGNMENT, rounded);
    if (f->bytes == NULL) return 0;
    if (maniBuilder_CopyBuilt(builder, f->bytes, rounded, &f->size) != mani_success) {
        free(f->bytes);
        f->bytes = NULL;
        f->size = 0;
    }
    return 1;
}

static void mani_GltfSetName(mani_GltfItem* item, mani_GltfString s) {
    item->name = s.text != NULL ? s.text : "";
    item->nameLength = s.text != NULL ? s.length : 0;
}

typedef struct mani_GltfAll {
    maniBuilder* builder;
    const maniGltf* g;
    const maniGltfOptions* options;
    mani_GltfItemFn fn;
    void* user;
    uint32_t refused;
    int outOfMemory;
} mani_GltfAll;

/* After a build: copies the file when it succeeded (into *f; NULL when not),
 * counts a refusal otherwise. Returns 0 when memory ran out. */
static int mani_GltfTake(mani_GltfAll* a, mani_GltfItem* item, mani_GltfFile* f) {
    f->bytes = NULL;
    f->size = 0;
    if (item->result.result != mani_success) {
        a->refused++;
        return 1;
    }
    if (!mani_GltfCopyFile(a->builder, f)) {
        a->outOfMemory = 1;
        return 0;
    }
    item->file = f->bytes;
    item->size = f->size;
    if (f->bytes != NULL) item->identity = maniHash64(0, f->bytes, (int64_t)f->size);
    return 1;
}

uint32_t mani_GltfImportAll(maniBuilder* builder, const maniGltf* gltf, const maniGltfOptions* options,
                            const maniImportClipOptions* clipOptions, mani_GltfItemFn fn, void* user) {
    if (builder == NULL || gltf == NULL || options == NULL || clipOptions == NULL || fn == NULL) return UINT32_MAX;
    mani_GltfAll a = {builder, gltf, options, fn, user, 0, 0};
    const maniGltf* g = gltf;

    /* Skeletons: the skins', or each root node's subtree when there is no skin. */
    uint32_t skeletonItems = g->skeletonCount;
    if (skeletonItems == 0)
        for (uint32_t n = 0; n < g->nodeCount; n++) skeletonItems += g->nodes[n].parent == MANI_GLTF_NONE;
    const size_t sItems = skeletonItems ? skeletonItems : 1, kItems = g->skinCount ? g->skinCount : 1;
    mani_GltfFile* skelFiles = (mani_GltfFile*)calloc(sItems, sizeof(mani_GltfFile));
    maniSkeleton* skels = (maniSkeleton*)calloc(sItems, sizeof(maniSkeleton));
    int* skelOpen = (int*)calloc(sItems, sizeof(int));
    mani_GltfFile* skinFiles = (mani_GltfFile*)calloc(kItems, sizeof(mani_GltfFile));
    maniSkin* skins = (maniSkin*)calloc(kItems, sizeof(maniSkin));
    int* skinOpen = (int*)calloc(kItems, sizeof(int));
    if (skelFiles == NULL || skels == NULL || skelOpen == NULL || skinFiles == NULL || skins == NULL ||
        skinOpen == NULL) {
        a.outOfMemory = 1;
        goto done;
    }

    for (uint32_t s = 0, node = 0; s < skeletonItems; s++) {
        mani_GltfItem item;
        memset(&item, 0, sizeof item);
        if (g->skeletonCount > 0) {
            item.kind = mani_gltfItemSkeleton;
            item.index = s;
            item.result = maniBuildGltfSkeleton(builder, g, s, options);
            const mani_GltfSkeleton* sk = &g->skeletons[s];
            if (sk->rootCount > 0) mani_GltfSetName(&item, g->nodes[g->skeletonRoots[sk->rootStart]].boneName);
        } else {
            while (g->nodes[node].parent != MANI_GLTF_NONE) node++;
            item.kind = mani_gltfItemNodeSkeleton;
            item.index = node;
            item.result = maniBuildGltfNodeSkeleton(builder, g, node, options);
            mani_GltfSetName(&item, g->nodes[node].boneName);
            node++;
        }
        item.skeleton = s;
        mani_GltfFile* file = &skelFiles[s];
        if (!mani_GltfTake(&a, &item, file)) goto done;
        if (file->bytes != NULL && maniOpenSkeleton(file->bytes, file->size, &skels[s]).result == mani_success) {
            skelOpen[s] = 1;
            item.skeletonView = &skels[s];
            item.count = maniSkeleton_GetBoneCount(&skels[s]);
            item.identity = maniSkeleton_GetIdentity(&skels[s]);
        }
        fn(user, &item);
    }

    for (uint32_t k = 0; k < g->skinCount; k++) {
        mani_GltfItem item;
        memset(&item, 0, sizeof item);
        item.kind = mani_gltfItemSkin;
        item.index = k;
        item.skeleton = g->skins[k].skeleton;
        mani_GltfSetName(&item, g->skins[k].name);
        const uint32_t s = g->skins[k].skeleton;
        if (s < skeletonItems && skelOpen[s]) {
            item.skeletonView = &skels[s];
            item.result = maniBuildGltfSkin(builder, g, k, &skels[s], options);
        } else {
            item.result.result = mani_errorInvalid; /* its skeleton was refused */
        }
        mani_GltfFile f;
        if (!mani_GltfTake(&a, &item, &f)) goto done;
        if (f.bytes != NULL) {
            if (maniOpenSkin(f.bytes, f.size, &skins[k]).result == mani_success) {
                skinOpen[k] = 1;
                item.count = maniSkin_GetJointCount(&skins[k]);
                item.identity = maniSkin_GetIdentity(&skins[k]);
            }
        }
        skinFiles[k] = f;
        fn(user, &item);
    }

    /* Influences: each skinned primitive once per (mesh, skin). */
    for (uint32_t n = 0; n < g->nodeCount; n++) {
        const uint32_t mesh = g->nodes[n].mesh, skin = g->nodes[n].skin;
        if (mesh == MANI_GLTF_NONE || skin == MANI_GLTF_NONE) continue;
        int seen = 0;
        for (uint32_t e = 0; e < n && !seen; e++) seen = g->nodes[e].mesh == mesh && g->nodes[e].skin == skin;
        if (seen) continue;
        for (uint32_t p = 0; p < g->meshes[mesh].primitiveCount; p++) {
            mani_GltfItem item;
            memset(&item, 0, sizeof item);
            item.kind = mani_gltfItemInfluences;
            item.index = mesh;
            item.primitive = p;
            item.skeleton = g->skins[skin].skeleton;
            mani_GltfSetName(&item, g->meshes[mesh].name);
            if (skinOpen[skin]) {
                item.result = maniBuildGltfInfluences(builder, g, mesh, p, &skins[skin]);
            } else {
                item.result.result = mani_errorInvalid; /* its skin was refused */
            }
            mani_GltfFile f;
            if (!mani_GltfTake(&a, &item, &f)) goto done;
            if (f.bytes != NULL) {
                maniInfluences inf;
                if (maniOpenInfluences(f.bytes, f.size, &inf).result == mani_success)
                    item.count = maniInfluences_GetVertexCount(&inf);
            }
            fn(user, &item);
            free(f.bytes);
        }
    }

    for (uint32_t m = 0; m < g->meshCount; m++)
        for (uint32_t p = 0; p < g->meshes[m].primitiveCount; p++) {
            if (maniGltf_GetPrimitiveTargetCount(g, m, p) == 0) continue;
            mani_GltfItem item;
            memset(&item, 0, sizeof item);
            item.kind = mani_gltfItemMorph;
            item.index = m;
            item.primitive = p;
            mani_GltfSetName(&item, g->meshes[m].name);
            item.result = maniBuildGltfMorphTargets(builder, g, m, p, options);
            mani_GltfFile f;
            if (!mani_GltfTake(&a, &item, &f)) goto done;
            if (f.bytes != NULL) {
                maniMorphTargets mt;
                if (maniOpenMorphTargets(f.bytes, f.size, &mt).result == mani_success)
                    item.count = maniMorphTargets_GetChannelCount(&mt);
            }
            fn(user, &item);
            free(f.bytes);
        }

    uint32_t lastOpen = UINT32_MAX;
    for (uint32_t s = 0; s < skeletonItems; s++)
        if (skelOpen[s]) lastOpen = s;
    for (uint32_t an = 0; an < g->animationCount; an++) {
        int reported = 0;
        for (uint32_t s = 0; s < skeletonItems; s++) {
            if (!skelOpen[s]) continue;
            mani_GltfItem item;
            memset(&item, 0, sizeof item);
            item.kind = mani_gltfItemClip;
            item.index = an;
            item.skeleton = s;
            item.skeletonView = &skels[s];
            mani_GltfSetName(&item, g->animations[an].name);
            uint32_t bound = 0;
            item.result = maniBuildGltfClip(builder, g, an, &skels[s], options, clipOptions, &bound);
            item.count = bound;
            item.channels = g->animations[an].channelCount;
            if (item.result.result == mani_success && bound == 0 && !(s == lastOpen && !reported)) continue;
            mani_GltfFile f;
            maniClip clip;
            if (!mani_GltfTake(&a, &item, &f)) goto done;
            if (f.bytes != NULL && maniOpenClip(f.bytes, f.size, &clip).result == mani_success) {
                item.clip = &clip;
                item.identity = maniClip_GetIdentity(&clip);
            }
            fn(user, &item);
            free(f.bytes);
            reported = 1;
        }
    }

done:
    for (uint32_t s = 0; skelFiles != NULL && s < skeletonItems; s++) free(skelFiles[s].bytes);
    for (uint32_t k = 0; skinFiles != NULL && k < g->skinCount; k++) free(skinFiles[k].bytes);
    free(skelFiles);
    free(skels);
    free(skelOpen);
    free(skinFiles);
    free(skins);
    free(skinOpen);
    return a.outOfMemory ? UINT32_MAX : a.refused;
}
