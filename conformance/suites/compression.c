/* Suite "compression": compressed clips (issue [compression]) for 32 seeded
 * sources of 1 to 550 bones (still and fast motion, scale, both loop
 * policies, the three additive bases, root motion, float and discrete
 * tracks, precisions from 0.00001 to 0.01): the compressed file's bytes, the
 * report's sizes and worst errors (binary64 bits), and the poses and float
 * tracks maniClip_Sample gives at every sample time, halfway between samples
 * and at special times, and the poses a cursor gives at those times. The bytes
 * must match on every platform: this golden is the "compressed clips"
 * promise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"

void mconf_SuiteCompression(mconf_Run* run);

static void* mconf_CompressionAligned(size_t size) { return aligned_alloc(32, (size + 31) / 32 * 32); }

/* A still source: every channel one key (the clip holds still). */
static void mconf_MakeStill(maniFixtureClip* fc) {
    for (uint32_t k = 0; k < fc->source.channelCount; ++k) {
        maniClipSourceChannel* ch = (maniClipSourceChannel*)&fc->source.channels[k];
        if (ch->keyCount > 1) ch->keyCount = 1;
    }
}

/* The poses and float tracks at every sample time, halfway between samples
 * and at special times, by maniClip_Sample and by a cursor. */
static void mconf_CompressionPoses(mconf_Run* run, mconf_Bytes* b, char* name, size_t nameSize, size_t at,
                                   const maniSkeleton* sk, const maniClip* c) {
    const uint32_t bones = maniSkeleton_GetBoneCount(sk);
    const size_t poseSize = maniSkeleton_GetPoseSize(sk), cursorSize = maniClip_GetCursorSize(c);
    void* poseMemory = mconf_CompressionAligned(poseSize);
    void* cursorMemory = mconf_CompressionAligned(cursorSize);
    const uint32_t floats = maniClip_GetFloatTrackCount(c);
    float* values = (float*)malloc(sizeof(float) * (floats + 1));
    maniPose* pose = NULL;
    maniClipCursor* cursor = NULL;
    if (poseMemory != NULL && cursorMemory != NULL && values != NULL &&
        maniInitPose(sk, poseMemory, poseSize, &pose) == mani_success &&
        maniInitClipCursor(cursorMemory, cursorSize, &cursor) == mani_success) {
        const uint32_t n = maniClip_GetSampleCount(c);
        const float d = maniClip_GetDuration(c), r = maniClip_GetSampleRate(c);
        for (int way = 0; way < 2; ++way) {
            for (uint32_t k = 0; k < 2 * n + 3; ++k) {
                float t;
                if (k < 2 * n - 1) {
                    const double tk = k / 2 + 1 == n ? (double)d : (double)(k / 2) / r;
                    t = (float)(k % 2 ? tk + 0.5 / r : tk);
                } else {
                    static const float specials[4] = {-1.0f, NAN, 1e30f, 0.0f};
                    t = specials[k - (2 * n - 1)];
                }
                const maniResult res =
                    way == 0 ? maniClip_Sample(c, sk, t, pose) : maniClipCursor_Sample(cursor, c, sk, t, pose);
                mconf_BytesU32(b, (uint32_t)res);
                for (uint32_t i = 0; i < bones; ++i) {
                    const maniTransform tr = maniPose_GetLocal(pose, i);
                    const float* f = &tr.translation.x;
                    for (int q = 0; q < 10; ++q) mconf_BytesF32(b, f[q]);
                }
                if (way == 0) {
                    uint32_t count = 0;
                    mconf_BytesU32(b, (uint32_t)maniClip_SampleFloats(c, t, values, floats, &count));
                    for (uint32_t q = 0; q < floats; ++q) mconf_BytesF32(b, values[q]);
                }
            }
            snprintf(name + at, nameSize - at, way == 0 ? "-poses" : "-cursor-poses");
            mconf_RecordBytes(run, name, b);
        }
    } else {
        snprintf(name + at, nameSize - at, "-poses-failed");
        mconf_Record(run, name, 0);
    }
    free(values);
    free(poseMemory);
    free(cursorMemory);
}

/* Case ci: its skeleton and source, compressed, then the file, the report
 * and the poses. */
static void mconf_CompressionCase(mconf_Run* run, mconf_Bytes* b, uint32_t ci) {
    static const uint32_t sizes[] = {1, 2, 5, 9, 16, 20, 33, 47, 64, 100, 150, 550};
    const uint32_t bones = sizes[ci % 12];
    const int still = ci % 8 == 5;
    const uint32_t flags = (ci % 2 ? MANI_FIXTURE_CLIP_TRACKS : 0) | (ci % 3 == 0 ? MANI_FIXTURE_CLIP_ALL_BONES : 0) |
                           (ci % 5 == 1 ? MANI_FIXTURE_CLIP_ROOT_MOTION : 0);
    const maniLoopPolicy loop = (maniLoopPolicy)((ci / 2) % 2);
    const maniAdditiveBasis additive =
        flags & MANI_FIXTURE_CLIP_ROOT_MOTION ? maniAdditiveNone : (maniAdditiveBasis)((ci / 3) % 3);
    maniCompressOptions o = maniDefaultCompressOptions();
    if (ci % 7 == 3) o.precision = 0.00001f, o.floatPrecision = 0.000001f;
    if (ci % 7 == 6) o.precision = 0.01f, o.shellDistance = 0.5f;
    char name[128];
    snprintf(name, sizeof name, "clip-%02u-%ub", ci, bones);
    const size_t at = strlen(name);

    void* file = NULL;
    void* packed = NULL;
    maniBuilder* builder = NULL;
    maniSkeletonSource ss = maniFixtureMakeSkeletonSource(0xC0A0 + ci, bones, maniFixtureRandom);
    size_t skSize = 0;
    void* skFile = maniFixtureBuildSkeleton(&ss, &skSize);
    maniFixtureFreeSkeletonSource(&ss);
    maniSkeleton sk;
    if (skFile == NULL || maniOpenSkeleton(skFile, skSize, &sk).result != mani_success) {
        snprintf(name + at, sizeof name - at, "-skeleton-failed");
        mconf_Record(run, name, 0);
        goto done;
    }
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 0xC0B0 + 31 * ci, &sk, flags, loop, additive);
    if (still) mconf_MakeStill(&fc);
    size_t size = 0;
    file = maniFixtureBuildClip(&fc.source, &size);
    maniFixtureFreeClip(&fc);
    maniClip full, c;
    maniBuilderDef def = maniDefaultBuilderDef();
    maniCompressReport report;
    memset(&report, 0, sizeof report);
    size_t packedSize = 0;
    if (file == NULL || maniOpenClip(file, size, &full).result != mani_success ||
        maniCreateBuilder(&def, &builder) != mani_success ||
        maniCompressClip(builder, &full, &sk, &o, &report) != mani_success ||
        maniBuilder_CopyBuilt(builder, NULL, 0, &packedSize) != mani_errorCapacity ||
        (packed = mconf_CompressionAligned(packedSize)) == NULL ||
        maniBuilder_CopyBuilt(builder, packed, packedSize, &packedSize) != mani_success ||
        maniOpenClip(packed, packedSize, &c).result != mani_success) {
        snprintf(name + at, sizeof name - at, "-compress-failed");
        mconf_Record(run, name, 0);
        goto done;
    }
    mconf_BytesAdd(b, packed, packedSize);
    snprintf(name + at, sizeof name - at, "-file");
    mconf_RecordBytes(run, name, b);
    mconf_BytesU64(b, report.sizeBefore);
    mconf_BytesU64(b, report.sizeAfter);
    mconf_BytesF64(b, report.ratio);
    mconf_BytesF64(b, report.worstError);
    mconf_BytesU32(b, report.worstBone);
    mconf_BytesU32(b, report.worstSample);
    mconf_BytesF64(b, report.worstFloatError);
    mconf_BytesU32(b, report.worstFloatTrack);
    snprintf(name + at, sizeof name - at, "-report");
    mconf_RecordBytes(run, name, b);
    mconf_CompressionPoses(run, b, name, sizeof name, at, &sk, &c);
done:
    maniDestroyBuilder(builder);
    free(packed);
    free(file);
    free(skFile);
}

void mconf_SuiteCompression(mconf_Run* run) {
    mconf_Bytes b = {0};
    for (uint32_t ci = 0; ci < 32; ++ci) mconf_CompressionCase(run, &b, ci);
    mconf_BytesFree(&b);
}
