/* Suite "retarget-mirror", the clip cases (clip-*, after every map case):
 * seeded fixture clips (float and discrete tracks, events, markers, root
 * motion; additive ones) on seeded mirror rigs, mirrored once and twice by
 * maniBuildMirroredClip, and carried between two rigs of one naming and
 * other rests by maniBuildRetargetedClip: each built clip's bytes, its poses
 * sampled at every sample time and halfway between, and its root moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/clip.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/pose.h"
#include "maul/anim/retargetbuild.h"
#include "maul/anim/rootmotion.h"

void mconf_RetargetMirrorClipCases(mconf_Run* run, maniBuilder* builder, mconf_Bytes* b);

/* The fixture clips' first float track, discrete track, event and marker
 * renamed. */
static const maniMirrorNamePair mconf_clipNamePairs[4] = {
    {"curve-0", 7, "curve-mirrored", 14},
    {"state-0", 7, "state-mirrored", 14},
    {"event-0", 7, "event-mirrored", 14},
    {"marker-0", 8, "marker-mirrored", 15},
};

/* An opened clip in its own aligned copy (file NULL when not). */
typedef struct {
    void* file;
    size_t size;
    maniClip clip;
} mconf_ClipCopy;

static int mconf_OpenCopy(void* file, size_t size, mconf_ClipCopy* out) {
    out->file = file;
    out->size = size;
    return file != NULL && maniOpenClip(file, size, &out->clip).result == mani_success;
}

/* The clip's time of sample k of n, and halfway to the next. */
static double mconf_GridTime(const maniClip* c, uint32_t k) {
    const uint32_t n = maniClip_GetSampleCount(c);
    return k + 1 == n ? (double)maniClip_GetDuration(c) : (double)k / (double)maniClip_GetSampleRate(c);
}

/* The clip's file, its poses at every sample and halfway between (each
 * bone's local), its float values and its root moves from 0. */
static void mconf_RecordClip(mconf_Run* run, const char* prefix, const mconf_ClipCopy* c, const maniSkeleton* s,
                             mconf_Bytes* b) {
    char name[256];
    mconf_BytesAdd(b, c->file, c->size);
    snprintf(name, sizeof name, "%s-file", prefix);
    mconf_RecordBytes(run, name, b);
    const size_t poseSize = maniSkeleton_GetPoseSize(s);
    void* memory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    maniPose* pose = NULL;
    if (memory == NULL || maniInitPose(s, memory, poseSize, &pose) != mani_success) {
        snprintf(name, sizeof name, "%s-pose-failed", prefix);
        mconf_Record(run, name, 0);
        free(memory);
        return;
    }
    const uint32_t n = maniClip_GetSampleCount(&c->clip), bones = maniSkeleton_GetBoneCount(s);
    float values[64];
    for (uint32_t k = 0; k < n; ++k) {
        for (int half = 0; half < 2 && !(half == 1 && k + 1 == n); ++half) {
            const double t0 = mconf_GridTime(&c->clip, k);
            const float t = half ? (float)((t0 + mconf_GridTime(&c->clip, k + 1)) / 2) : (float)t0;
            mconf_BytesU32(b, (uint32_t)maniClip_Sample(&c->clip, s, t, pose));
            for (uint32_t i = 0; i < bones; ++i) {
                const maniTransform x = maniPose_GetLocal(pose, i);
                const float f[10] = {x.translation.x, x.translation.y, x.translation.z, x.rotation.x, x.rotation.y,
                                     x.rotation.z,    x.rotation.w,    x.scale.x,       x.scale.y,    x.scale.z};
                for (int j = 0; j < 10; ++j) mconf_BytesF32(b, f[j]);
            }
            uint32_t count = 0;
            mconf_BytesU32(b, (uint32_t)maniClip_SampleFloats(&c->clip, t, values, 64, &count));
            for (uint32_t j = 0; j < count && j < 64; ++j) mconf_BytesF32(b, values[j]);
        }
    }
    snprintf(name, sizeof name, "%s-poses", prefix);
    mconf_RecordBytes(run, name, b);
    for (uint32_t k = 0; k < n; ++k) {
        maniRootMove m;
        mconf_BytesU32(b, (uint32_t)maniClip_GetRootMotion(&c->clip, 0.0f, (float)mconf_GridTime(&c->clip, k), &m));
        const float f[7] = {m.translation.x, m.translation.y, m.translation.z, m.rotation.x,
                            m.rotation.y,    m.rotation.z,    m.rotation.w};
        for (int j = 0; j < 7; ++j) mconf_BytesF32(b, f[j]);
    }
    maniRootMotionSource root;
    memset(&root, 0, sizeof root);
    mconf_BytesU32(b, maniClip_GetRootMotionSource(&c->clip, &root) ? 1u : 0u);
    mconf_BytesU32(b, root.bone);
    mconf_BytesU32(b, root.flags);
    snprintf(name, sizeof name, "%s-moves", prefix);
    mconf_RecordBytes(run, name, b);
    free(memory);
}

static void mconf_RecordRefused(mconf_Run* run, const char* prefix, maniBuildResult r) {
    char name[256];
    snprintf(name, sizeof name, "%s-refused", prefix);
    mconf_Record(run, name, ((uint64_t)r.result << 32) ^ ((uint64_t)r.reason << 16) ^ r.item ^ (r.other << 48));
}

/* A fixture clip of a skeleton, opened (file NULL when the build failed). */
static int mconf_FixtureClip(uint64_t seed, const maniSkeleton* s, uint32_t flags, maniAdditiveBasis additive,
                             mconf_ClipCopy* out) {
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, seed, s, flags, maniLoopRepeat, additive);
    size_t size = 0;
    void* file = maniFixtureBuildClip(&fc.source, &size);
    maniFixtureFreeClip(&fc);
    return mconf_OpenCopy(file, size, out);
}

static void mconf_MirrorClipCases(mconf_Run* run, maniBuilder* builder, mconf_Bytes* b) {
    char prefix[96];
    for (uint32_t axis = 0; axis < 3; ++axis) {
        for (int turned = 0; turned < 2; ++turned) {
            for (int additive = 0; additive < 2; ++additive) {
                maniSkeletonSource rig = maniFixtureMakeMirrorRig(0x434C + 41 * axis + 5 * (uint64_t)turned, axis, 2, 3,
                                                                  turned);
                snprintf(prefix, sizeof prefix, "clip-mirror-%c-%s-%s", "xyz"[axis], turned ? "turned" : "mirrored",
                         additive ? "additive" : "full");
                size_t skeletonSize = 0;
                void* skeletonFile = maniFixtureBuildSkeleton(&rig, &skeletonSize);
                maniSkeleton s;
                mconf_ClipCopy clip = {NULL, 0, {0}}, once = {NULL, 0, {0}}, twice = {NULL, 0, {0}};
                if (skeletonFile == NULL || maniOpenSkeleton(skeletonFile, skeletonSize, &s).result != mani_success) {
                    mconf_RecordRefused(run, prefix, (maniBuildResult){mani_errorInvalid, 0, 0, 0});
                    free(skeletonFile);
                    maniFixtureFreeMirrorRig(&rig);
                    continue;
                }
                maniMirrorMapSource src;
                memset(&src, 0, sizeof src);
                src.skeleton = &s;
                src.axis = axis;
                src.rules = maniFixtureMirrorRules;
                src.ruleCount = 2;
                src.namePairs = mconf_clipNamePairs;
                src.namePairCount = 4;
                maniBuildResult r = maniBuildMirrorMap(builder, &src);
                size_t mapSize = 0;
                void* mapFile = r.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &mapSize) : NULL;
                maniMirrorMap map;
                const uint32_t flags = additive ? MANI_FIXTURE_CLIP_ALL_BONES
                                                : MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION;
                if (mapFile == NULL || maniOpenMirrorMap(mapFile, mapSize, &map).result != mani_success ||
                    !mconf_FixtureClip(0x4D43 + 3 * axis + (uint64_t)turned, &s, flags,
                                       additive ? maniAdditiveRest : maniAdditiveNone, &clip)) {
                    mconf_RecordRefused(run, prefix, r);
                } else {
                    maniMirrorClipSource cs = {&map, &s, &clip.clip};
                    r = maniBuildMirroredClip(builder, &cs);
                    size_t size = 0;
                    void* file = r.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &size) : NULL;
                    if (!mconf_OpenCopy(file, size, &once)) {
                        mconf_RecordRefused(run, prefix, r);
                    } else {
                        mconf_RecordClip(run, prefix, &once, &s, b);
                        cs.clip = &once.clip;
                        r = maniBuildMirroredClip(builder, &cs);
                        file = r.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &size) : NULL;
                        char twicePrefix[128];
                        snprintf(twicePrefix, sizeof twicePrefix, "%s-twice", prefix);
                        if (!mconf_OpenCopy(file, size, &twice))
                            mconf_RecordRefused(run, twicePrefix, r);
                        else
                            mconf_RecordClip(run, twicePrefix, &twice, &s, b);
                    }
                }
                free(clip.file);
                free(once.file);
                free(twice.file);
                free(mapFile);
                free(skeletonFile);
                maniFixtureFreeMirrorRig(&rig);
            }
        }
    }
}

static void mconf_RetargetClipCases(mconf_Run* run, maniBuilder* builder, mconf_Bytes* b) {
    char prefix[96];
    const uint32_t shapes[2][2] = {{1, 2}, {2, 3}};
    for (uint32_t z = 0; z < 2; ++z) {
        for (uint32_t variant = 0; variant < 3; ++variant) {
            maniSkeletonSource rigs[2];
            void* files[2] = {NULL, NULL};
            maniSkeleton sk[2];
            int ok = 1;
            for (int side = 0; side < 2; ++side) {
                rigs[side] = maniFixtureMakeMirrorRig(0x5243 + 17 * z + 3 * (uint64_t)variant + 500 * (uint64_t)side, 0,
                                                      shapes[z][0], shapes[z][1], side);
                size_t size = 0;
                files[side] = maniFixtureBuildSkeleton(&rigs[side], &size);
                ok = ok && files[side] != NULL && maniOpenSkeleton(files[side], size, &sk[side]).result == mani_success;
            }
            snprintf(prefix, sizeof prefix, "clip-retarget-%u-%u", rigs[0].boneCount, variant);
            /* Variant 0: names; 1: the pelvis and names, a scaled target
             * reference; 2: names and an additive clip. */
            maniRetargetMapSource src;
            memset(&src, 0, sizeof src);
            maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1.0f, 0.75f, {0.25f, 0, 0}, {0, 0, 0.5f}, 0.875f};
            maniTransform* reference = NULL;
            void* mapFile = NULL;
            mconf_ClipCopy clip = {NULL, 0, {0}}, out = {NULL, 0, {0}};
            maniBuildResult r = {mani_errorInvalid, 0, 0, 0};
            if (ok) {
                src.source = &sk[0];
                src.target = &sk[1];
                src.matchNames = true;
                if (variant == 1) {
                    reference = (maniTransform*)malloc(sizeof(maniTransform) * rigs[1].boneCount);
                    if (reference != NULL) {
                        for (uint32_t i = 0; i < rigs[1].boneCount; ++i) reference[i] = maniSkeleton_GetRest(&sk[1], i);
                        const maniVec3 hips = maniSkeleton_GetRest(&sk[0], 0).translation;
                        reference[0].translation.x = 1.5f * hips.x;
                        reference[0].translation.y = 1.5f * hips.y;
                        reference[0].translation.z = 1.5f * hips.z;
                        if (hips.y < 0) pelvis.up.y = -1.0f;
                        src.targetReference = reference;
                    }
                    src.pelvis = &pelvis;
                }
                r = maniBuildRetargetMap(builder, &src);
            }
            size_t mapSize = 0;
            mapFile = r.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &mapSize) : NULL;
            maniRetargetMap map;
            const uint32_t flags = variant == 2 ? MANI_FIXTURE_CLIP_ALL_BONES
                                                : MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION;
            if (mapFile == NULL || maniOpenRetargetMap(mapFile, mapSize, &map).result != mani_success ||
                !mconf_FixtureClip(0x5254 + 7 * z + variant, &sk[0], flags,
                                   variant == 2 ? maniAdditiveRest : maniAdditiveNone, &clip)) {
                mconf_RecordRefused(run, prefix, r);
            } else {
                maniRetargetClipSource cs = {&map, &sk[0], &sk[1], &clip.clip};
                r = maniBuildRetargetedClip(builder, &cs);
                size_t size = 0;
                void* file = r.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &size) : NULL;
                if (!mconf_OpenCopy(file, size, &out))
                    mconf_RecordRefused(run, prefix, r);
                else
                    mconf_RecordClip(run, prefix, &out, &sk[1], b);
            }
            free(clip.file);
            free(out.file);
            free(mapFile);
            free(reference);
            for (int side = 0; side < 2; ++side) {
                free(files[side]);
                maniFixtureFreeMirrorRig(&rigs[side]);
            }
        }
    }
}

void mconf_RetargetMirrorClipCases(mconf_Run* run, maniBuilder* builder, mconf_Bytes* b) {
    mconf_MirrorClipCases(run, builder, b);
    mconf_RetargetClipCases(run, builder, b);
}
