/* examples/character: a glTF character into Maul and onto the screen's
 * vertices. Opens a glTF document (its external buffers read from beside
 * it), builds its first skeleton, skin, the skinned primitive's influences
 * and its first animation as a clip, compresses the clip, then at a few
 * times samples both clips, composes the model pose and the skin's palette
 * and skins the mesh's vertices with linear blend skinning, printing where
 * they land and how far the compressed clip moves them.
 *
 *   character FILE.gltf
 *
 * The importer reads what animation needs (skeletons, skins, influences,
 * morph targets, clips), not render meshes: a renderer brings its own vertex
 * positions. This example skins the
 * ten vertices of the glTF tutorial's SimpleSkin strip (x -0.5 and 0.5, y 0
 * to 2 by 0.5), which is what tools/cli/testdata/SimpleSkin holds.
 * Exits 0 when everything built and the compressed clip stays within its
 * precision (scaled by the vertices' lever) on every vertex. */
#include <maul/anim/build.h>
#include <maul/anim/clip.h>
#include <maul/anim/import.h>
#include <maul/anim/pose.h>
#include <maul/anim/skeleton.h>
#include <maul/anim/skin.h>
#include <maul/anim/skinning.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file's bytes in MANI_FILE_ALIGNMENT-aligned memory (NULL on failure). */
static void* ReadFile(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void* p = n >= 0 ? aligned_alloc(MANI_FILE_ALIGNMENT, ((size_t)n + MANI_FILE_ALIGNMENT) & ~(size_t)(MANI_FILE_ALIGNMENT - 1)) : NULL;
    if (p != NULL && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

/* What the builder last built, copied out into aligned memory the caller frees. */
static void* TakeBuilt(maniBuilder* b, size_t* size) {
    if (maniBuilder_CopyBuilt(b, NULL, 0, size) != mani_errorCapacity) return NULL;
    void* p = aligned_alloc(MANI_FILE_ALIGNMENT, (*size + MANI_FILE_ALIGNMENT - 1) & ~(size_t)(MANI_FILE_ALIGNMENT - 1));
    if (p != NULL && maniBuilder_CopyBuilt(b, p, *size, size) != mani_success) {
        free(p);
        p = NULL;
    }
    return p;
}

static int Check(maniImportResult r, const char* what) {
    if (r.result == mani_success) return 1;
    fprintf(stderr, "%s: %s (reason %u, item %llu, offset %llu)\n", what, maniGetResultName(r.result), r.reason,
            (unsigned long long)r.item, (unsigned long long)r.offset);
    return 0;
}

/* Skins the vertices with the clip's pose at time t into out (3 floats a vertex). */
static int SkinAt(const maniClip* clip, const maniSkeleton* skeleton, const maniSkin* skin,
                  const maniInfluences* influences, maniPose* pose, float t, const float* positions, float* out) {
    maniAffine palette[256];
    uint32_t count = 0;
    if (maniClip_Sample(clip, skeleton, t, pose) != mani_success) return 0;
    if (maniPose_ComputeModel(pose, skeleton) != mani_success) return 0;
    if (maniPose_ComputePalette(pose, skeleton, skin, palette, 256, &count) != mani_success) return 0;
    maniSkinStream stream;
    memset(&stream, 0, sizeof stream);
    stream.input = positions;
    stream.output = out;
    stream.inputStride = 3 * sizeof(float);
    stream.outputStride = 3 * sizeof(float);
    stream.kind = maniSkinStreamPosition;
    maniSkinJob job;
    memset(&job, 0, sizeof job);
    job.influences = influences;
    job.palette = palette;
    job.paletteCount = count;
    job.firstVertex = 0;
    job.vertexCount = maniInfluences_GetVertexCount(influences);
    job.streamCount = 1;
    job.streams = &stream;
    return maniSkinLinear(&job) == mani_success;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: character FILE.gltf\n");
        return 2;
    }
    size_t size = 0;
    void* document = ReadFile(argv[1], &size);
    if (document == NULL) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 2;
    maniGltf* gltf = NULL;
    if (!Check(maniOpenGltf(b, document, size, &gltf), "open")) return 1;

    /* External buffers: read from beside the document, kept alive until the close. */
    void* buffers[16] = {NULL};
    uint32_t bufferCount = maniGltf_GetBufferCount(gltf);
    for (uint32_t i = 0; i < bufferCount && i < 16; ++i) {
        size_t length = 0;
        const char* uri = maniGltf_GetBufferUri(gltf, i, &length);
        if (uri == NULL || length == 0) continue; /* a GLB's own chunk or a data: URI, already read */
        char path[1024];
        const char* slash = strrchr(argv[1], '/');
        int folder = slash != NULL ? (int)(slash - argv[1] + 1) : 0;
        snprintf(path, sizeof path, "%.*s%.*s", folder, argv[1], (int)length, uri);
        size_t n = 0;
        buffers[i] = ReadFile(path, &n);
        if (buffers[i] == NULL || !Check(maniGltf_SupplyBuffer(gltf, i, buffers[i], n), path)) return 1;
    }

    maniGltfOptions options = maniDefaultGltfOptions();
    maniImportClipOptions clipOptions = maniDefaultImportClipOptions();
    size_t skeletonSize = 0, skinSize = 0, influencesSize = 0, clipSize = 0, compressedSize = 0;
    if (!Check(maniBuildGltfSkeleton(b, gltf, maniGltf_GetSkinSkeleton(gltf, 0), &options), "skeleton")) return 1;
    void* skeletonFile = TakeBuilt(b, &skeletonSize);
    maniSkeleton skeleton;
    if (skeletonFile == NULL || maniOpenSkeleton(skeletonFile, skeletonSize, &skeleton).result != mani_success) return 1;
    if (!Check(maniBuildGltfSkin(b, gltf, 0, &skeleton, &options), "skin")) return 1;
    void* skinFile = TakeBuilt(b, &skinSize);
    maniSkin skin;
    if (skinFile == NULL || maniOpenSkin(skinFile, skinSize, &skin).result != mani_success) return 1;
    if (!Check(maniBuildGltfInfluences(b, gltf, 0, 0, &skin), "influences")) return 1;
    void* influencesFile = TakeBuilt(b, &influencesSize);
    maniInfluences influences;
    if (influencesFile == NULL ||
        maniOpenInfluences(influencesFile, influencesSize, &influences).result != mani_success)
        return 1;
    uint32_t bound = 0;
    if (!Check(maniBuildGltfClip(b, gltf, 0, &skeleton, &options, &clipOptions, &bound), "clip")) return 1;
    void* clipFile = TakeBuilt(b, &clipSize);
    maniClip clip;
    if (clipFile == NULL || maniOpenClip(clipFile, clipSize, &clip).result != mani_success) return 1;

    maniCompressOptions compress = maniDefaultCompressOptions();
    maniCompressReport report;
    memset(&report, 0, sizeof report);
    if (maniCompressClip(b, &clip, &skeleton, &compress, &report) != mani_success) return 1;
    void* compressedFile = TakeBuilt(b, &compressedSize);
    maniClip compressed;
    if (compressedFile == NULL || maniOpenClip(compressedFile, compressedSize, &compressed).result != mani_success)
        return 1;
    printf("skeleton %u bones, skin %u joints, %u vertices, clip %.3f s at %.1f Hz (%u channels bound)\n",
           maniSkeleton_GetBoneCount(&skeleton), maniSkin_GetJointCount(&skin),
           maniInfluences_GetVertexCount(&influences), (double)maniClip_GetDuration(&clip),
           (double)maniClip_GetSampleRate(&clip), bound);
    printf("compressed %llu -> %llu bytes (ratio %.2f), worst shell error %.3g\n",
           (unsigned long long)report.sizeBefore, (unsigned long long)report.sizeAfter, report.ratio, report.worstError);

    /* SimpleSkin's strip: x -0.5 and 0.5, y 0 to 2 by 0.5. */
    float positions[10 * 3];
    uint32_t vertices = maniInfluences_GetVertexCount(&influences);
    if (vertices != 10) {
        fprintf(stderr, "this example's positions are SimpleSkin's ten vertices; the file has %u\n", vertices);
        return 1;
    }
    for (uint32_t v = 0; v < 10; ++v) {
        positions[3 * v + 0] = (v % 2 == 0) ? -0.5f : 0.5f;
        positions[3 * v + 1] = 0.5f * (float)(v / 2);
        positions[3 * v + 2] = 0.0f;
    }
    size_t poseSize = maniSkeleton_GetPoseSize(&skeleton);
    void* poseMemory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + MANI_POSE_ALIGNMENT - 1) & ~(size_t)(MANI_POSE_ALIGNMENT - 1));
    maniPose* pose = NULL;
    if (poseMemory == NULL || maniInitPose(&skeleton, poseMemory, poseSize, &pose) != mani_success) return 1;
    int ok = 1;
    for (int k = 0; k <= 4; ++k) {
        float t = maniClip_GetDuration(&clip) * (float)k / 4.0f;
        float full[30], small[30];
        if (!SkinAt(&clip, &skeleton, &skin, &influences, pose, t, positions, full) ||
            !SkinAt(&compressed, &skeleton, &skin, &influences, pose, t, positions, small))
            return 1;
        double worst = 0.0;
        for (int i = 0; i < 10; ++i) {
            double dx = full[3 * i] - small[3 * i], dy = full[3 * i + 1] - small[3 * i + 1],
                   dz = full[3 * i + 2] - small[3 * i + 2];
            double d = sqrt(dx * dx + dy * dy + dz * dz);
            if (d > worst) worst = d;
        }
        printf("t=%.3f s  top vertex (%.4f, %.4f, %.4f)  compressed moves a vertex at most %.3g\n", (double)t,
               (double)full[27], (double)full[28], (double)full[29], worst);
        /* The precision holds at the shell distance (0.03) from each bone; a turn's error grows with the
         * lever, and these vertices lie within 2.5 of every joint: within precision x 2.5 / shell. */
        if (!(worst <= (double)compress.precision * 2.5 / (double)compress.shellDistance)) ok = 0;
    }
    free(poseMemory);
    free(compressedFile);
    free(clipFile);
    free(influencesFile);
    free(skinFile);
    free(skeletonFile);
    maniCloseGltf(gltf);
    for (uint32_t i = 0; i < 16; ++i) free(buffers[i]);
    maniDestroyBuilder(b);
    free(document);
    printf("%s\n", ok ? "compressed and full-precision skinning agree" : "compressed skinning moved too far");
    return ok ? 0 : 1;
}
