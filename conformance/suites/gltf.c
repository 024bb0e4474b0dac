/* Suite "gltf": import.h over real documents compiled in from
 * conformance/data/gltf (Khronos samples, a gltf-transform and a gltfpack
 * meshopt model; README there) and over seeded synthetic characters
 * (gltf_synth.c), each with two option sets: the defaults, and +Z up, -Y
 * front, centimetres, placement folded, 30 samples per second. Per document:
 * the open (counts, bone names, renamed nodes), external buffers supplied,
 * then every item mani_GltfImportAll builds (skeletons with their placement,
 * skins, influences, morph targets, clips: result, counts, the file's bytes
 * and identity) and each clip's poses (locals and model matrices of every
 * bone, float tracks) at nine times over its duration and two outside it.
 * Last, truncations and byte patches of a GLB: the open's result and what
 * builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "conformance/suites/gltf.h"
#include "lib/anim/src/import/gltf/gltf_import_all.h"
#include "lib/core/rng.h"
#include "maul/anim/import.h"
#include "maul/anim/pose.h"

void mconf_SuiteGltf(mconf_Run* run);

static const mconf_EmbeddedFile* mconf_GltfFile(const char* path) {
    for (size_t i = 0; i < mconf_gltfFileCount; i++)
        if (strcmp(mconf_gltfFiles[i].path, path) == 0) return &mconf_gltfFiles[i];
    return NULL;
}

static void mconf_BytesImport(mconf_Bytes* b, maniImportResult r) {
    mconf_BytesU32(b, (uint32_t)r.result);
    mconf_BytesU32(b, r.reason);
    mconf_BytesU64(b, r.item);
    mconf_BytesU64(b, r.offset);
}

static void mconf_BytesAffine(mconf_Bytes* b, const maniAffine* a) {
    for (int c = 0; c < 4; c++) {
        mconf_BytesF32(b, a->columns[c].x);
        mconf_BytesF32(b, a->columns[c].y);
        mconf_BytesF32(b, a->columns[c].z);
    }
}

static void mconf_BytesTransform(mconf_Bytes* b, const maniTransform* t) {
    mconf_BytesF32(b, t->translation.x);
    mconf_BytesF32(b, t->translation.y);
    mconf_BytesF32(b, t->translation.z);
    mconf_BytesF32(b, t->rotation.x);
    mconf_BytesF32(b, t->rotation.y);
    mconf_BytesF32(b, t->rotation.z);
    mconf_BytesF32(b, t->rotation.w);
    mconf_BytesF32(b, t->scale.x);
    mconf_BytesF32(b, t->scale.y);
    mconf_BytesF32(b, t->scale.z);
}

typedef struct mconf_GltfCtx {
    mconf_Run* run;
    mconf_Bytes* b;
    const char* prefix;
    const maniGltf* g;
    const maniGltfOptions* options;
    uint32_t items;
} mconf_GltfCtx;

/* A clip's poses at nine times over [0, duration] and at -0.25 and
 * duration + 0.5: every bone's local and model matrix, every float track. */
static void mconf_GltfPoses(mconf_GltfCtx* c, const char* name, const maniClip* clip, const maniSkeleton* skeleton) {
    mconf_Bytes* b = c->b;
    mconf_BytesReset(b);
    const size_t size = (maniSkeleton_GetPoseSize(skeleton) + 31) / 32 * 32;
    void* memory = size ? aligned_alloc(MANI_POSE_ALIGNMENT, size) : NULL;
    const uint32_t tracks = maniClip_GetFloatTrackCount(clip);
    float* values = (float*)malloc((tracks + 1) * sizeof(float));
    maniPose* pose = NULL;
    if (memory == NULL || values == NULL || maniInitPose(skeleton, memory, size, &pose) != mani_success) {
        mconf_BytesU32(b, 0xFFFFFFFFu);
    } else {
        const float duration = maniClip_GetDuration(clip);
        mconf_BytesF32(b, duration);
        mconf_BytesF32(b, maniClip_GetSampleRate(clip));
        mconf_BytesU32(b, maniClip_GetSampleCount(clip));
        mconf_BytesU32(b, tracks);
        for (uint32_t t = 0; t < tracks; t++) {
            size_t n = 0;
            const char* track = maniClip_GetFloatTrackName(clip, t, &n);
            mconf_BytesU32(b, (uint32_t)n);
            if (track != NULL) mconf_BytesAdd(b, track, n);
        }
        const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
        for (int k = 0; k < 11; k++) {
            const float time = k < 9 ? duration * (float)k / 8.0f : k == 9 ? -0.25f : duration + 0.5f;
            mconf_BytesU32(b, (uint32_t)maniClip_Sample(clip, skeleton, time, pose));
            mconf_BytesU32(b, (uint32_t)maniPose_ComputeModel(pose, skeleton));
            for (uint32_t i = 0; i < bones; i++) {
                maniTransform local = maniPose_GetLocal(pose, i);
                mconf_BytesTransform(b, &local);
                maniAffine model = maniPose_GetModel(pose, i);
                mconf_BytesAffine(b, &model);
            }
            uint32_t count = 0;
            mconf_BytesU32(b, (uint32_t)maniClip_SampleFloats(clip, time, values, tracks, &count));
            for (uint32_t t = 0; t < count && t < tracks; t++) mconf_BytesF32(b, values[t]);
        }
    }
    free(values);
    free(memory);
    mconf_RecordBytes(c->run, name, b);
}

static void mconf_GltfItemCase(void* user, const mani_GltfItem* item) {
    mconf_GltfCtx* c = (mconf_GltfCtx*)user;
    mconf_Bytes* b = c->b;
    char name[160];
    if (item->kind == mani_gltfItemInfluences || item->kind == mani_gltfItemMorph)
        snprintf(name, sizeof name, "%s-%s-%u.%u", c->prefix, mani_GltfItemKindName(item->kind), item->index,
                 item->primitive);
    else if (item->kind == mani_gltfItemClip)
        snprintf(name, sizeof name, "%s-clip-%u.s%u", c->prefix, item->index, item->skeleton);
    else
        snprintf(name, sizeof name, "%s-%s-%u", c->prefix, mani_GltfItemKindName(item->kind), item->index);
    mconf_BytesReset(b);
    mconf_BytesImport(b, item->result);
    mconf_BytesU32(b, item->count);
    mconf_BytesU32(b, item->skeleton);
    mconf_BytesU32(b, (uint32_t)item->nameLength);
    mconf_BytesAdd(b, item->name, item->nameLength);
    mconf_BytesU64(b, (uint64_t)item->size);
    mconf_BytesU64(b, item->identity);
    mconf_BytesU64(b, item->file != NULL ? maniHash64(0, item->file, (int64_t)item->size) : 0);
    if (item->kind == mani_gltfItemSkeleton) {
        maniAffine placement;
        memset(&placement, 0, sizeof placement);
        mconf_BytesImport(b, maniGltf_GetSkeletonPlacement(c->g, item->index, c->options, &placement));
        mconf_BytesAffine(b, &placement);
    }
    mconf_RecordBytes(c->run, name, b);
    if (item->clip != NULL && item->skeletonView != NULL) {
        char poses[176];
        snprintf(poses, sizeof poses, "%s-poses", name);
        mconf_GltfPoses(c, poses, item->clip, item->skeletonView);
    }
    c->items++;
}

/* The open's summary: counts, every bone name, the renamed nodes. */
static void mconf_GltfOpenCase(mconf_Run* run, mconf_Bytes* b, const char* prefix, maniImportResult r,
                               const maniGltf* g) {
    char name[160];
    snprintf(name, sizeof name, "%s-open", prefix);
    mconf_BytesReset(b);
    mconf_BytesImport(b, r);
    if (g != NULL) {
        mconf_BytesU32(b, maniGltf_GetBufferCount(g));
        mconf_BytesU32(b, maniGltf_GetNodeCount(g));
        mconf_BytesU32(b, maniGltf_GetSkinCount(g));
        mconf_BytesU32(b, maniGltf_GetSkeletonCount(g));
        mconf_BytesU32(b, maniGltf_GetMeshCount(g));
        mconf_BytesU32(b, maniGltf_GetAnimationCount(g));
        for (uint32_t n = 0; n < maniGltf_GetNodeCount(g); n++) {
            size_t length = 0;
            const char* bone = maniGltf_GetNodeBoneName(g, n, &length);
            mconf_BytesU32(b, (uint32_t)length);
            if (bone != NULL) mconf_BytesAdd(b, bone, length);
            mconf_BytesU32(b, maniGltf_GetNodeMesh(g, n));
            mconf_BytesU32(b, maniGltf_GetNodeSkin(g, n));
        }
        for (uint32_t k = 0; k < maniGltf_GetSkinCount(g); k++) mconf_BytesU32(b, maniGltf_GetSkinSkeleton(g, k));
        mconf_BytesU32(b, maniGltf_GetRenamedCount(g));
        for (uint32_t i = 0; i < maniGltf_GetRenamedCount(g); i++) mconf_BytesU32(b, maniGltf_GetRenamedNode(g, i));
        for (uint32_t m = 0; m < maniGltf_GetMeshCount(g); m++)
            for (uint32_t p = 0; p < maniGltf_GetPrimitiveCount(g, m); p++)
                mconf_BytesU32(b, maniGltf_GetPrimitiveTargetCount(g, m, p));
    }
    mconf_RecordBytes(run, name, b);
}

static maniGltfOptions mconf_GltfOptions(int set) {
    maniGltfOptions o = maniDefaultGltfOptions();
    if (set == 1) {
        o.up = (uint32_t)maniAxisPositiveZ;
        o.front = (uint32_t)maniAxisNegativeY;
        o.unitScale = 100.0f;
        o.foldPlacement = 1;
    }
    return o;
}

static const char* const mconf_gltfOptionNames[2] = {"default", "zup-cm-fold"};

/* One document under both option sets; externals: the files its external
 * buffers name, in buffer order (NULL when it has none). */
static void mconf_GltfDocument(mconf_Run* run, mconf_Bytes* b, const char* doc, const void* bytes, size_t size,
                               const char* const* externals, size_t externalCount) {
    for (int set = 0; set < 2; set++) {
        char prefix[96];
        snprintf(prefix, sizeof prefix, "%s-%s", doc, mconf_gltfOptionNames[set]);
        maniBuilderDef def = maniDefaultBuilderDef();
        maniBuilder* builder = NULL;
        if (maniCreateBuilder(&def, &builder) != mani_success) {
            char name[128];
            snprintf(name, sizeof name, "%s-builder-failed", prefix);
            mconf_Record(run, name, 0);
            continue;
        }
        maniGltf* g = NULL;
        maniImportResult r = maniOpenGltf(builder, bytes, size, &g);
        if (set == 0) mconf_GltfOpenCase(run, b, doc, r, r.result == mani_success ? g : NULL);
        if (r.result == mani_success) {
            if (externalCount > 0) {
                mconf_BytesReset(b);
                for (uint32_t buf = 0, e = 0; buf < maniGltf_GetBufferCount(g); buf++) {
                    size_t n = 0;
                    if (maniGltf_GetBufferUri(g, buf, &n) == NULL) continue;
                    const mconf_EmbeddedFile* f = e < externalCount ? mconf_GltfFile(externals[e++]) : NULL;
                    mconf_BytesU32(b, buf);
                    mconf_BytesImport(b, f != NULL ? maniGltf_SupplyBuffer(g, buf, f->bytes, f->size)
                                                   : maniGltf_SupplyBuffer(g, buf, NULL, 0));
                }
                char name[128];
                snprintf(name, sizeof name, "%s-buffers", prefix);
                mconf_RecordBytes(run, name, b);
            }
            const maniGltfOptions options = mconf_GltfOptions(set);
            maniImportClipOptions clipOptions = maniDefaultImportClipOptions();
            if (set == 1) clipOptions.sampleRate = 30.0f;
            mconf_GltfCtx c = {run, b, prefix, g, &options, 0};
            const uint32_t refused = mani_GltfImportAll(builder, g, &options, &clipOptions, mconf_GltfItemCase, &c);
            char name[128];
            snprintf(name, sizeof name, "%s-items", prefix);
            mconf_BytesReset(b);
            mconf_BytesU32(b, c.items);
            mconf_BytesU32(b, refused);
            mconf_RecordBytes(run, name, b);
            maniCloseGltf(g);
        }
        mconf_BytesReset(b);
        mconf_BytesU32(b, maniBuilder_GetMisuse(builder));
        if (maniBuilder_GetMisuse(builder) != 0) {
            char name[128];
            snprintf(name, sizeof name, "%s-misuse", prefix);
            mconf_RecordBytes(run, name, b);
        }
        maniDestroyBuilder(builder);
    }
}

/* Truncations and single-byte patches of a GLB at seeded places: the open's
 * result, and when it opens, every item's result. */
static void mconf_GltfDamaged(mconf_Run* run, mconf_Bytes* b, const char* doc, const mconf_EmbeddedFile* f,
                              uint64_t seed) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    uint8_t* copy = (uint8_t*)malloc(f->size);
    if (copy == NULL) return;
    for (int k = 0; k < 24; k++) {
        memcpy(copy, f->bytes, f->size);
        size_t size = f->size;
        const int cut = k < 12;
        if (cut)
            size = k < 4 ? (size_t)k * 7 + 3 : mcore_RngBelow(&rng, (uint32_t)f->size);
        else
            copy[mcore_RngBelow(&rng, k < 18 ? 2048u : (uint32_t)f->size)] ^= (uint8_t)(1u << mcore_RngBelow(&rng, 8));
        char prefix[96];
        snprintf(prefix, sizeof prefix, "%s-%s-%d", doc, cut ? "cut" : "patch", k);
        maniBuilderDef def = maniDefaultBuilderDef();
        maniBuilder* builder = NULL;
        if (maniCreateBuilder(&def, &builder) != mani_success) continue;
        maniGltf* g = NULL;
        mconf_BytesReset(b);
        mconf_BytesU64(b, (uint64_t)size);
        maniImportResult r = maniOpenGltf(builder, copy, size, &g);
        mconf_BytesImport(b, r);
        if (r.result == mani_success) {
            const maniGltfOptions options = maniDefaultGltfOptions();
            const maniImportClipOptions clipOptions = maniDefaultImportClipOptions();
            mconf_Bytes items = {NULL, 0, 0};
            mconf_GltfCtx c = {NULL, &items, prefix, g, &options, 0};
            /* Item results only, into this case's bytes (no case per item). */
            mconf_Run quiet = {"gltf", NULL, 0, 0};
            c.run = &quiet;
            const uint32_t refused = mani_GltfImportAll(builder, g, &options, &clipOptions, mconf_GltfItemCase, &c);
            mconf_BytesU32(b, refused);
            for (size_t i = 0; i < quiet.count; i++) mconf_BytesU64(b, quiet.cases[i].hash);
            mconf_RunFree(&quiet);
            mconf_BytesFree(&items);
            maniCloseGltf(g);
        }
        mconf_BytesU32(b, maniBuilder_GetMisuse(builder));
        maniDestroyBuilder(builder);
        mconf_RecordBytes(run, prefix, b);
    }
    free(copy);
}

void mconf_SuiteGltf(mconf_Run* run) {
    mconf_Bytes b = {NULL, 0, 0};
    static const struct {
        const char* doc;
        const char* path;
        const char* externals[2];
    } docs[] = {
        {"simpleskin", "khronos/SimpleSkin/glTF-Embedded/SimpleSkin.gltf", {NULL, NULL}},
        {"simplemorph", "khronos/SimpleMorph/glTF-Embedded/SimpleMorph.gltf", {NULL, NULL}},
        {"animtriangle", "khronos/AnimatedTriangle/glTF-Embedded/AnimatedTriangle.gltf", {NULL, NULL}},
        {"morphcube", "khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb", {NULL, NULL}},
        {"morphcube-quantized",
         "khronos/AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf",
         {"khronos/AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.bin", NULL}},
        {"interpolation", "khronos/InterpolationTest/glTF-Binary/InterpolationTest.glb", {NULL, NULL}},
        {"riggedsimple", "khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb", {NULL, NULL}},
        {"riggedfigure", "khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb", {NULL, NULL}},
        {"fox", "khronos/Fox/glTF-Binary/Fox.glb", {NULL, NULL}},
        {"boxmeshopt", "gltf-transform/BoxMeshopt.gltf", {"gltf-transform/BoxMeshopt.bin", NULL}},
        {"pirate", "meshopt/pirate.glb", {NULL, NULL}},
    };
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        const mconf_EmbeddedFile* f = mconf_GltfFile(docs[d].path);
        if (f == NULL) {
            char name[96];
            snprintf(name, sizeof name, "%s-missing", docs[d].doc);
            mconf_Record(run, name, 0);
            continue;
        }
        const size_t externals = docs[d].externals[0] != NULL;
        mconf_GltfDocument(run, &b, docs[d].doc, f->bytes, f->size, docs[d].externals, externals);
    }

    /* Seeded characters: bones, vertices, morph targets. */
    static const uint32_t shapes[][3] = {{1, 1, 0},   {2, 10, 1},  {5, 50, 2},  {8, 16, 3},
                                         {12, 200, 3}, {30, 120, 0}, {60, 300, 2}, {3, 3, 1}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char doc[32];
        snprintf(doc, sizeof doc, "synth-%zu", i);
        size_t size = 0;
        char* text = mconf_GltfSynth(0x67C7F000u + i, shapes[i][0], shapes[i][1], shapes[i][2], &size);
        if (text == NULL) {
            char name[64];
            snprintf(name, sizeof name, "%s-alloc-failed", doc);
            mconf_Record(run, name, 0);
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "%s-text", doc);
        mconf_BytesReset(&b);
        mconf_BytesAdd(&b, text, size);
        mconf_RecordBytes(run, name, &b);
        mconf_GltfDocument(run, &b, doc, text, size, NULL, 0);
        free(text);
    }

    const mconf_EmbeddedFile* rigged = mconf_GltfFile("khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb");
    if (rigged != NULL) mconf_GltfDamaged(run, &b, "riggedsimple", rigged, 0x67C7D000u);
    mconf_BytesFree(&b);
}
