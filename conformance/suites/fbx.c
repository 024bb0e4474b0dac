/* Suite "fbx": import.h's FBX builds over seeded synthetic ASCII FBX 7.4
 * documents the suite writes. The layout: model 1 "Root" (a Null, uniformly
 * scaled, above the skeleton), bones in a seeded tree under it (LimbNodes
 * with seeded translations, rotations in a seeded RotationOrder under
 * RotationActive, pre- and post-rotations, rotation and scaling pivots and
 * offsets, uniform scalings; some of inherit type Rrs, so helper bones
 * name#unscaled are made), a mesh "Body" under Root with seeded control
 * points and a geometric translation, skinned by a cluster per bone (seeded
 * Indexes and Weights; odd seeds give each cluster a Transform). Cases per
 * document and options: the built skeleton's bytes (placement left out and
 * folded), its placement, the skin's and the influences' bytes, the model
 * skeleton of Root, and the control points skinned (maniSkinLinear) at a
 * seeded pose. Every number the text holds is a binary32 printed with nine
 * significant digits, so the text is the same everywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/core/rng.h"
#include "maul/anim/import.h"
#include "maul/anim/pose.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

void mconf_SuiteFbx(mconf_Run* run);

typedef struct mconf_FbxText {
    char* text;
    size_t size, capacity;
    int failed;
} mconf_FbxText;

static void mconf_FbxPut(mconf_FbxText* t, const char* format, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>

static void mconf_FbxPut(mconf_FbxText* t, const char* format, ...) {
    if (t->failed) return;
    for (;;) {
        va_list args;
        va_start(args, format);
        int n = vsnprintf(t->text + t->size, t->capacity - t->size, format, args);
        va_end(args);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if ((size_t)n < t->capacity - t->size) {
            t->size += (size_t)n;
            return;
        }
        size_t cap = t->capacity * 2 + (size_t)n + 64;
        char* grown = (char*)realloc(t->text, cap);
        if (grown == NULL) {
            t->failed = 1;
            return;
        }
        t->text = grown;
        t->capacity = cap;
    }
}

/* A draw in [lo, hi) as a binary32, drawn into a local before use. */
static float mconf_FbxDraw(mcore_Rng* rng, float lo, float hi) { return mcore_RngFloatRange(rng, lo, hi); }

static void mconf_FbxVector(mconf_FbxText* t, mcore_Rng* rng, const char* name, float lo, float hi) {
    float x = mconf_FbxDraw(rng, lo, hi);
    float y = mconf_FbxDraw(rng, lo, hi);
    float z = mconf_FbxDraw(rng, lo, hi);
    mconf_FbxPut(t, "\t\t\tP: \"%s\", \"Vector3D\", \"Vector\", \"\",%.9g,%.9g,%.9g\n", name, (double)x, (double)y,
                 (double)z);
}

/* Writes the seeded document; bones and vertices as given. */
static void mconf_FbxWrite(mconf_FbxText* t, uint64_t seed, uint32_t bones, uint32_t vertices, int zUp) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mconf_FbxPut(t, "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\n");
    mconf_FbxPut(t, "GlobalSettings:  {\n\tProperties70:  {\n");
    mconf_FbxPut(t, "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",%d\n\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n",
                 zUp ? 2 : 1);
    mconf_FbxPut(t, "\t\tP: \"FrontAxis\", \"int\", \"Integer\", \"\",%d\n", zUp ? 1 : 2);
    mconf_FbxPut(t, "\t\tP: \"FrontAxisSign\", \"int\", \"Integer\", \"\",%d\n", zUp ? -1 : 1);
    mconf_FbxPut(t, "\t\tP: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n\t\tP: \"CoordAxisSign\", \"int\", \"Integer\", \"\",1\n");
    mconf_FbxPut(t, "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",%d\n\t}\n}\n", zUp ? 100 : 1);
    mconf_FbxPut(t, "Objects:  {\n");
    /* Root */
    float rootScale = mconf_FbxDraw(&rng, 0.5f, 2.0f);
    mconf_FbxPut(t, "\tModel: 1, \"Model::Root\", \"Null\" {\n\t\tProperties70:  {\n");
    mconf_FbxVector(t, &rng, "Lcl Translation", -50.0f, 50.0f);
    mconf_FbxVector(t, &rng, "Lcl Rotation", -180.0f, 180.0f);
    mconf_FbxPut(t, "\t\t\tP: \"Lcl Scaling\", \"Vector3D\", \"Vector\", \"\",%.9g,%.9g,%.9g\n\t\t}\n\t}\n",
                 (double)rootScale, (double)rootScale, (double)rootScale);
    uint32_t* parent = (uint32_t*)calloc(bones + 1u, sizeof(uint32_t));
    if (parent == NULL) {
        t->failed = 1;
        return;
    }
    for (uint32_t b = 0; b < bones; b++) {
        uint32_t p = b == 0 ? 0 : mcore_RngBelow(&rng, b + 1u); /* 0: Root, else bone p - 1 */
        parent[b] = p;
        uint32_t order = mcore_RngBelow(&rng, 6);
        uint32_t inherit = b > 0 && mcore_RngBelow(&rng, 4) == 0 ? 2u : 0u;
        float scale = mconf_FbxDraw(&rng, 0.6f, 1.6f);
        mconf_FbxPut(t, "\tModel: %u, \"Model::Bone%u\", \"LimbNode\" {\n\t\tProperties70:  {\n", 100u + b, b);
        mconf_FbxPut(t, "\t\t\tP: \"RotationActive\", \"bool\", \"\", \"\",1\n");
        mconf_FbxPut(t, "\t\t\tP: \"RotationOrder\", \"enum\", \"\", \"\",%u\n", order);
        mconf_FbxPut(t, "\t\t\tP: \"InheritType\", \"enum\", \"\", \"\",%u\n", inherit);
        mconf_FbxVector(t, &rng, "Lcl Translation", -20.0f, 20.0f);
        mconf_FbxVector(t, &rng, "Lcl Rotation", -180.0f, 180.0f);
        mconf_FbxVector(t, &rng, "PreRotation", -90.0f, 90.0f);
        mconf_FbxVector(t, &rng, "PostRotation", -90.0f, 90.0f);
        mconf_FbxVector(t, &rng, "RotationPivot", -2.0f, 2.0f);
        mconf_FbxVector(t, &rng, "RotationOffset", -2.0f, 2.0f);
        mconf_FbxVector(t, &rng, "ScalingPivot", -2.0f, 2.0f);
        mconf_FbxVector(t, &rng, "ScalingOffset", -2.0f, 2.0f);
        mconf_FbxPut(t, "\t\t\tP: \"Lcl Scaling\", \"Vector3D\", \"Vector\", \"\",%.9g,%.9g,%.9g\n\t\t}\n\t}\n",
                     (double)scale, (double)scale, (double)scale);
    }
    /* the mesh */
    mconf_FbxPut(t, "\tModel: 2, \"Model::Body\", \"Mesh\" {\n\t\tProperties70:  {\n");
    mconf_FbxVector(t, &rng, "Lcl Translation", -5.0f, 5.0f);
    mconf_FbxVector(t, &rng, "GeometricTranslation", -1.0f, 1.0f);
    mconf_FbxPut(t, "\t\t}\n\t}\n\tGeometry: 3, \"Geometry::\", \"Mesh\" {\n\t\tVertices: *%u {\n\t\t\ta: ", vertices * 3u);
    for (uint32_t i = 0; i < vertices * 3u; i++) {
        float v = mconf_FbxDraw(&rng, -30.0f, 30.0f);
        mconf_FbxPut(t, "%s%.9g", i ? "," : "", (double)v);
    }
    mconf_FbxPut(t, "\n\t\t}\n\t}\n\tDeformer: 4, \"Deformer::\", \"Skin\" {\n\t}\n");
    for (uint32_t b = 0; b < bones; b++) {
        uint32_t n = 1u + mcore_RngBelow(&rng, vertices < 12u ? vertices : 12u); /* a few influences a vertex */
        mconf_FbxPut(t, "\tDeformer: %u, \"SubDeformer::\", \"Cluster\" {\n\t\tIndexes: *%u {\n\t\t\ta: ", 1000u + b, n);
        for (uint32_t i = 0; i < n; i++) mconf_FbxPut(t, "%s%u", i ? "," : "", mcore_RngBelow(&rng, vertices + 2u));
        mconf_FbxPut(t, "\n\t\t}\n\t\tWeights: *%u {\n\t\t\ta: ", n);
        for (uint32_t i = 0; i < n; i++) {
            float w = mconf_FbxDraw(&rng, 0.0f, 1.0f);
            mconf_FbxPut(t, "%s%.9g", i ? "," : "", (double)w);
        }
        mconf_FbxPut(t, "\n\t\t}\n");
        if (seed & 1u) {
            float tx = mconf_FbxDraw(&rng, -10.0f, 10.0f);
            float ty = mconf_FbxDraw(&rng, -10.0f, 10.0f);
            float tz = mconf_FbxDraw(&rng, -10.0f, 10.0f);
            mconf_FbxPut(t, "\t\tTransform: *16 {\n\t\t\ta: 0,1,0,0,-1,0,0,0,0,0,1,0,%.9g,%.9g,%.9g,1\n\t\t}\n", (double)tx,
                         (double)ty, (double)tz);
        }
        mconf_FbxPut(t, "\t}\n");
    }
    mconf_FbxPut(t, "}\nConnections:  {\n");
    for (uint32_t b = 0; b < bones; b++)
        mconf_FbxPut(t, "\tC: \"OO\",%u,%u\n", 100u + b, parent[b] == 0 ? 1u : 100u + parent[b] - 1u);
    mconf_FbxPut(t, "\tC: \"OO\",2,1\n\tC: \"OO\",3,2\n\tC: \"OO\",4,3\n");
    for (uint32_t b = 0; b < bones; b++) mconf_FbxPut(t, "\tC: \"OO\",%u,4\n\tC: \"OO\",%u,%u\n", 1000u + b, 100u + b, 1000u + b);
    mconf_FbxPut(t, "}\n");
    free(parent);
}

/* The built file in aligned memory (NULL when the copy fails). */
static void* mconf_FbxBuilt(maniBuilder* b, size_t* size) {
    *size = 0;
    if (maniBuilder_CopyBuilt(b, NULL, 0, size) != mani_errorCapacity) return NULL;
    void* p = aligned_alloc(64, (*size + 63) / 64 * 64);
    if (p != NULL && maniBuilder_CopyBuilt(b, p, *size, size) != mani_success) {
        free(p);
        return NULL;
    }
    return p;
}

static void mconf_FbxRecordResult(mconf_Run* run, mconf_Bytes* bytes, const char* name, maniImportResult r) {
    mconf_BytesU32(bytes, (uint32_t)r.result);
    mconf_BytesU32(bytes, r.reason);
    mconf_BytesU64(bytes, r.item);
    mconf_BytesU64(bytes, r.offset);
    mconf_RecordBytes(run, name, bytes);
}

static void mconf_FbxAffine(mconf_Bytes* b, const maniAffine* a) {
    const float* f = &a->columns[0].x;
    for (int i = 0; i < 12; ++i) mconf_BytesF32(b, f[i]);
}

static void mconf_FbxCases(mconf_Run* run, const char* stem, maniBuilder* builder, maniFbx* f,
                           const maniFbxOptions* options, uint64_t seed) {
    mconf_Bytes bytes = {0};
    char name[128];
    maniFbxOptions folded = *options;
    folded.foldPlacement = 1;
    maniImportResult r = maniBuildFbxSkeleton(builder, f, 0, &folded);
    snprintf(name, sizeof name, "%s-skeleton-folded", stem);
    size_t size = 0;
    void* file = r.result == mani_success ? mconf_FbxBuilt(builder, &size) : NULL;
    if (file != NULL) mconf_BytesAdd(&bytes, file, size);
    mconf_FbxRecordResult(run, &bytes, name, r);
    free(file);
    r = maniBuildFbxModelSkeleton(builder, f, 0, options);
    snprintf(name, sizeof name, "%s-model-skeleton", stem);
    file = r.result == mani_success ? mconf_FbxBuilt(builder, &size) : NULL;
    if (file != NULL) mconf_BytesAdd(&bytes, file, size);
    mconf_FbxRecordResult(run, &bytes, name, r);
    free(file);
    maniAffine placement;
    memset(&placement, 0, sizeof placement);
    r = maniFbx_GetSkeletonPlacement(f, 0, options, &placement);
    mconf_FbxAffine(&bytes, &placement);
    snprintf(name, sizeof name, "%s-placement", stem);
    mconf_FbxRecordResult(run, &bytes, name, r);
    r = maniBuildFbxSkeleton(builder, f, 0, options);
    snprintf(name, sizeof name, "%s-skeleton", stem);
    void* skeletonFile = r.result == mani_success ? mconf_FbxBuilt(builder, &size) : NULL;
    maniSkeleton skeleton;
    int haveSkeleton = skeletonFile != NULL && maniOpenSkeleton(skeletonFile, size, &skeleton).result == mani_success;
    if (skeletonFile != NULL) mconf_BytesAdd(&bytes, skeletonFile, size);
    mconf_FbxRecordResult(run, &bytes, name, r);
    if (!haveSkeleton) {
        free(skeletonFile);
        mconf_BytesFree(&bytes);
        return;
    }
    r = maniBuildFbxSkin(builder, f, 0, &skeleton, options);
    snprintf(name, sizeof name, "%s-skin", stem);
    void* skinFile = r.result == mani_success ? mconf_FbxBuilt(builder, &size) : NULL;
    maniSkin skin;
    int haveSkin = skinFile != NULL && maniOpenSkin(skinFile, size, &skin).result == mani_success;
    if (skinFile != NULL) mconf_BytesAdd(&bytes, skinFile, size);
    mconf_FbxRecordResult(run, &bytes, name, r);
    void* influencesFile = NULL;
    maniInfluences influences;
    int haveInfluences = 0;
    if (haveSkin) {
        r = maniBuildFbxInfluences(builder, f, 0, &skin);
        snprintf(name, sizeof name, "%s-influences", stem);
        influencesFile = r.result == mani_success ? mconf_FbxBuilt(builder, &size) : NULL;
        haveInfluences =
            influencesFile != NULL && maniOpenInfluences(influencesFile, size, &influences).result == mani_success;
        if (influencesFile != NULL) mconf_BytesAdd(&bytes, influencesFile, size);
        mconf_FbxRecordResult(run, &bytes, name, r);
    }
    if (haveInfluences) {
        /* a seeded pose: every local's translation moved, then skinned */
        size_t poseSize = maniSkeleton_GetPoseSize(&skeleton);
        void* memory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
        maniPose* pose = NULL;
        uint32_t joints = maniSkin_GetJointCount(&skin);
        uint32_t vertices = maniInfluences_GetVertexCount(&influences);
        maniAffine* palette = (maniAffine*)malloc((size_t)joints * sizeof(maniAffine));
        float* in = (float*)malloc((size_t)vertices * 12u);
        float* out = (float*)malloc((size_t)vertices * 12u);
        if (memory != NULL && palette != NULL && in != NULL && out != NULL &&
            maniInitPose(&skeleton, memory, poseSize, &pose) == mani_success) {
            mcore_Rng rng;
            mcore_RngSeed(&rng, seed * 31u + 7u);
            for (uint32_t i = 0; i < maniSkeleton_GetBoneCount(&skeleton); i++) {
                maniTransform t = maniPose_GetLocal(pose, i);
                float dx = mcore_RngFloatRange(&rng, -0.2f, 0.2f);
                float dy = mcore_RngFloatRange(&rng, -0.2f, 0.2f);
                t.translation.x += dx;
                t.translation.y += dy;
                maniPose_SetLocal(pose, i, t);
            }
            for (uint32_t v = 0; v < vertices * 3u; v++) in[v] = mcore_RngFloatRange(&rng, -1.0f, 1.0f);
            uint32_t count = 0;
            maniResult s = maniPose_ComputeModel(pose, &skeleton);
            if (s == mani_success) s = maniPose_ComputePalette(pose, &skeleton, &skin, palette, joints, &count);
            maniSkinStream stream = {in, out, 12, 12, maniSkinStreamPosition, 0};
            maniSkinJob job = {&influences, palette, NULL, joints, 0, vertices, 1, &stream};
            if (s == mani_success) s = maniSkinLinear(&job);
            mconf_BytesU32(&bytes, (uint32_t)s);
            for (uint32_t v = 0; v < vertices * 3u && s == mani_success; v++) mconf_BytesF32(&bytes, out[v]);
            snprintf(name, sizeof name, "%s-skinned", stem);
            mconf_RecordBytes(run, name, &bytes);
        }
        free(memory);
        free(palette);
        free(in);
        free(out);
    }
    free(influencesFile);
    free(skinFile);
    free(skeletonFile);
    mconf_BytesFree(&bytes);
}

void mconf_SuiteFbx(mconf_Run* run) {
    static const uint32_t bones[] = {1, 3, 8, 20, 40, 64};
    static const uint32_t vertices[] = {4, 17, 40, 90, 150, 256};
    char stem[64], name[96];
    for (uint32_t d = 0; d < sizeof bones / sizeof bones[0]; d++)
        for (int zUp = 0; zUp < 2; zUp++) {
            uint64_t seed = 0xF0B0u + 2u * d + (uint64_t)zUp;
            mconf_FbxText t = {0};
            mconf_FbxWrite(&t, seed, bones[d], vertices[d], zUp);
            snprintf(stem, sizeof stem, "doc-%u-bones-%s", bones[d], zUp ? "zup-metres" : "yup-cm");
            if (t.failed) {
                snprintf(name, sizeof name, "%s-write-failed", stem);
                mconf_Record(run, name, 0);
                free(t.text);
                continue;
            }
            mconf_Bytes text = {0};
            mconf_BytesAdd(&text, t.text, t.size);
            snprintf(name, sizeof name, "%s-text", stem);
            mconf_RecordBytes(run, name, &text);
            mconf_BytesFree(&text);
            maniBuilderDef def = maniDefaultBuilderDef();
            maniBuilder* builder = NULL;
            maniFbx* f = NULL;
            maniImportResult r = {mani_errorCapacity, 0, 0, 0};
            if (maniCreateBuilder(&def, &builder) == mani_success) r = maniOpenFbx(builder, t.text, t.size, &f);
            mconf_Bytes opened = {0};
            mconf_BytesU32(&opened, maniFbx_GetModelCount(f));
            mconf_BytesU32(&opened, maniFbx_GetSkeletonCount(f));
            mconf_BytesU32(&opened, maniFbx_GetSkinCount(f));
            snprintf(name, sizeof name, "%s-open", stem);
            mconf_FbxRecordResult(run, &opened, name, r);
            mconf_BytesFree(&opened);
            if (r.result == mani_success) {
                maniFbxOptions o = maniDefaultFbxOptions();
                snprintf(name, sizeof name, "%s-default", stem);
                mconf_FbxCases(run, name, builder, f, &o, seed);
                o.up = (uint32_t)maniAxisPositiveZ;
                o.front = (uint32_t)maniAxisNegativeY;
                o.unitScale = 100.0f;
                snprintf(name, sizeof name, "%s-zup-cm", stem);
                mconf_FbxCases(run, name, builder, f, &o, seed);
                maniCloseFbx(f);
            }
            maniDestroyBuilder(builder);
            free(t.text);
        }
}
