/* Suite "clips": built full-precision clip files for seeded sources (every
 * interpolation, both loop policies, the three additive bases, root motion
 * of each kind, float and discrete tracks, events and markers), poses
 * sampled at seeded times (exact sample times, halfway, NaN, negative, past
 * the end) through maniClip_Sample, a full and a compact cursor and
 * maniClip_SampleBones, float and discrete values, event ranges, root motion
 * moves over long wrapped steps, and maniBuilder_MeasureClip's reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/rootmotion.h"

void mconf_SuiteClips(mconf_Run* run);

static void mconf_AddLocals(mconf_Bytes* b, const maniPose* pose, uint32_t bones) {
    for (uint32_t i = 0; i < bones; ++i) {
        const maniTransform t = maniPose_GetLocal(pose, i);
        const float* f = &t.translation.x;
        for (int k = 0; k < 10; ++k) mconf_BytesF32(b, f[k]);
    }
}

static void mconf_AddMove(mconf_Bytes* b, const maniRootMove* m) {
    const float v[7] = {m->translation.x, m->translation.y, m->translation.z, m->rotation.x,
                        m->rotation.y,    m->rotation.z,    m->rotation.w};
    for (int k = 0; k < 7; ++k) mconf_BytesF32(b, v[k]);
}

static void* mconf_Aligned(size_t size) { return aligned_alloc(32, (size + 31) / 32 * 32); }

/* The times a clip is sampled at: every sample time, every halfway, specials
 * and seeded ones. */
static uint32_t mconf_Times(const maniClip* c, uint64_t seed, float* out, uint32_t capacity) {
    const uint32_t n = maniClip_GetSampleCount(c);
    const float d = maniClip_GetDuration(c), r = maniClip_GetSampleRate(c);
    uint32_t count = 0;
    for (uint32_t k = 0; k < n && count + 2 < capacity; ++k) {
        const double t = k + 1 == n ? (double)d : (double)k / r;
        out[count++] = (float)t;
        if (k + 1 < n) out[count++] = (float)(t + 0.5 / r);
    }
    const float specials[] = {NAN, -0.0f, -1.0f, -INFINITY, 1e30f, INFINITY, d, d * 1.5f};
    for (size_t k = 0; k < sizeof specials / sizeof specials[0] && count < capacity; ++k) out[count++] = specials[k];
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    while (count < capacity) out[count++] = mcore_RngFloatRange(&rng, -0.2f * d, 1.2f * d);
    return count;
}

typedef struct {
    const char* name;
    uint32_t bones;
    uint32_t flags;
    maniLoopPolicy loop;
    maniAdditiveBasis additive;
} mconf_ClipCase;

void mconf_SuiteClips(mconf_Run* run) {
    static const mconf_ClipCase cases[] = {
        {"one-bone", 1, MANI_FIXTURE_CLIP_TRACKS, maniLoopClamp, maniAdditiveNone},
        {"chain-9", 9, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES, maniLoopRepeat, maniAdditiveNone},
        {"some-20", 20, MANI_FIXTURE_CLIP_TRACKS, maniLoopClamp, maniAdditiveNone},
        {"root-16", 16, MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_TRACKS, maniLoopRepeat, maniAdditiveNone},
        {"root-clamp-5", 5, MANI_FIXTURE_CLIP_ROOT_MOTION, maniLoopClamp, maniAdditiveNone},
        {"root-all-33", 33, MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_ALL_BONES, maniLoopRepeat, maniAdditiveNone},
        {"additive-rest-12", 12, MANI_FIXTURE_CLIP_TRACKS, maniLoopClamp, maniAdditiveRest},
        {"additive-first-17", 17, 0, maniLoopRepeat, maniAdditiveFirstFrame},
        {"wide-70", 70, MANI_FIXTURE_CLIP_TRACKS, maniLoopRepeat, maniAdditiveNone},
    };
    mconf_Bytes b = {0};
    char name[128];
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ++ci) {
        const mconf_ClipCase* cc = &cases[ci];
        maniSkeletonSource ss = maniFixtureMakeSkeletonSource(0xC11B + ci, cc->bones, maniFixtureRandom);
        size_t skSize = 0;
        void* skFile = maniFixtureBuildSkeleton(&ss, &skSize);
        maniFixtureFreeSkeletonSource(&ss);
        maniSkeleton sk;
        if (skFile == NULL || maniOpenSkeleton(skFile, skSize, &sk).result != mani_success) {
            snprintf(name, sizeof name, "%s-skeleton-failed", cc->name);
            mconf_Record(run, name, 0);
            free(skFile);
            continue;
        }
        maniFixtureClip fc;
        maniFixtureMakeClip(&fc, 0xC1A0 + 17 * ci, &sk, cc->flags, cc->loop, cc->additive);
        size_t size = 0;
        void* file = maniFixtureBuildClip(&fc.source, &size);
        maniClip c;
        if (file == NULL || maniOpenClip(file, size, &c).result != mani_success) {
            snprintf(name, sizeof name, "%s-build-failed", cc->name);
            mconf_Record(run, name, 0);
            free(file);
            free(skFile);
            maniFixtureFreeClip(&fc);
            continue;
        }
        mconf_BytesAdd(&b, file, size);
        snprintf(name, sizeof name, "%s-file", cc->name);
        mconf_RecordBytes(run, name, &b);
        snprintf(name, sizeof name, "%s-identity", cc->name);
        mconf_Record(run, name, maniClip_GetIdentity(&c));

        const uint32_t bones = cc->bones;
        const size_t poseSize = maniSkeleton_GetPoseSize(&sk);
        void* poseMemory = mconf_Aligned(poseSize);
        const size_t fullSize = maniClip_GetCursorSize(&c), compactSize = maniClip_GetCursorCompactSize(&c);
        void* fullMemory = mconf_Aligned(fullSize);
        void* compactMemory = mconf_Aligned(compactSize);
        maniPose* pose = NULL;
        maniClipCursor* full = NULL;
        maniClipCursor* compact = NULL;
        float times[160];
        const uint32_t timeCount = mconf_Times(&c, 0x7135 + ci, times, 160);
        if (poseMemory != NULL && fullMemory != NULL && compactMemory != NULL &&
            maniInitPose(&sk, poseMemory, poseSize, &pose) == mani_success &&
            maniInitClipCursor(fullMemory, fullSize, &full) == mani_success &&
            maniInitClipCursor(compactMemory, compactSize, &compact) == mani_success) {
            for (int way = 0; way < 3; ++way) {
                for (uint32_t k = 0; k < timeCount; ++k) {
                    maniResult r = way == 0   ? maniClip_Sample(&c, &sk, times[k], pose)
                                   : way == 1 ? maniClipCursor_Sample(full, &c, &sk, times[k], pose)
                                              : maniClipCursor_Sample(compact, &c, &sk, times[k], pose);
                    mconf_BytesU32(&b, (uint32_t)r);
                    mconf_AddLocals(&b, pose, bones);
                    mconf_BytesU8(&b, maniPose_IsDifference(pose) ? 1 : 0);
                }
                static const char* ways[] = {"poses", "cursor-poses", "compact-cursor-poses"};
                snprintf(name, sizeof name, "%s-%s", cc->name, ways[way]);
                mconf_RecordBytes(run, name, &b);
            }
            /* Some bones into a pose at rest (or a difference, for additive clips). */
            if (cc->additive == maniAdditiveNone) {
                maniResult rest = maniPose_SetRest(pose, &sk);
                mconf_BytesU32(&b, (uint32_t)rest);
            } else {
                maniResult first = maniClip_Sample(&c, &sk, 0.0f, pose);
                mconf_BytesU32(&b, (uint32_t)first);
            }
            uint32_t some[8], someCount = 0;
            for (uint32_t i = 0; i < bones && someCount < 8; i += 1 + bones / 5) some[someCount++] = i;
            for (uint32_t k = 0; k < timeCount; k += 7) {
                mconf_BytesU32(&b, (uint32_t)maniClip_SampleBones(&c, &sk, times[k], some, someCount, pose));
                mconf_AddLocals(&b, pose, bones);
            }
            snprintf(name, sizeof name, "%s-sample-bones", cc->name);
            mconf_RecordBytes(run, name, &b);
            /* Root motion put back. */
            if (cc->additive == maniAdditiveNone) {
                for (uint32_t k = 0; k < timeCount; k += 3) {
                    mconf_BytesU32(&b, (uint32_t)maniClip_Sample(&c, &sk, times[k], pose));
                    mconf_BytesU32(&b, (uint32_t)maniClip_RestoreRootMotion(&c, &sk, times[k], pose));
                    const maniTransform t = maniPose_GetLocal(pose, 0);
                    const float* f = &t.translation.x;
                    for (int j = 0; j < 10; ++j) mconf_BytesF32(&b, f[j]);
                }
                snprintf(name, sizeof name, "%s-restored-root", cc->name);
                mconf_RecordBytes(run, name, &b);
            }
        }

        /* Float and discrete values, event ranges. */
        float values[8];
        for (uint32_t k = 0; k < timeCount; ++k) {
            uint32_t count = 0;
            mconf_BytesU32(&b, (uint32_t)maniClip_SampleFloats(&c, times[k], values, 8, &count));
            for (uint32_t j = 0; j < count && j < 8; ++j) mconf_BytesF32(&b, values[j]);
            if (compact != NULL) {
                mconf_BytesU32(&b, (uint32_t)maniClipCursor_SampleFloats(compact, &c, times[k], values, 8, &count));
                for (uint32_t j = 0; j < count && j < 8; ++j) mconf_BytesF32(&b, values[j]);
            }
            for (uint32_t j = 0; j < maniClip_GetDiscreteTrackCount(&c); ++j)
                mconf_BytesU32(&b, (uint32_t)maniClip_GetDiscreteValue(&c, j, times[k]));
        }
        snprintf(name, sizeof name, "%s-tracks", cc->name);
        mconf_RecordBytes(run, name, &b);
        for (uint32_t k = 0; k < timeCount; ++k) {
            uint32_t first = 0, count = 0;
            maniClip_GetEventRange(&c, times[k], times[(k * 7 + 3) % timeCount], &first, &count);
            mconf_BytesU32(&b, first);
            mconf_BytesU32(&b, count);
        }
        for (uint32_t k = 0; k < maniClip_GetEventCount(&c); ++k) mconf_BytesF32(&b, maniClip_GetEvent(&c, k).time);
        for (uint32_t k = 0; k < maniClip_GetMarkerCount(&c); ++k) mconf_BytesF32(&b, maniClip_GetMarker(&c, k).time);
        snprintf(name, sizeof name, "%s-events", cc->name);
        mconf_RecordBytes(run, name, &b);

        /* Root motion over short and long, signed, wrapped steps. */
        static const float steps[] = {0.0f, 0.01f, -0.01f, 0.5f, -0.7f, 1.0f, 3.25f, -9.5f, 1000.5f, -65536.25f, 1e7f, 1e12f};
        for (uint32_t k = 0; k < timeCount; k += 5) {
            for (size_t j = 0; j < sizeof steps / sizeof steps[0]; ++j) {
                maniRootMove m = maniMakeRootMoveIdentity();
                const float t = isfinite(times[k]) ? times[k] : 0.25f;
                mconf_BytesU32(&b, (uint32_t)maniClip_GetRootMotion(&c, t, steps[j], &m));
                mconf_AddMove(&b, &m);
            }
        }
        snprintf(name, sizeof name, "%s-root-motion", cc->name);
        mconf_RecordBytes(run, name, &b);

        /* The measure of the clip against its source. */
        {
            maniBuilderDef def = maniDefaultBuilderDef();
            maniBuilder* builder = NULL;
            maniClipBoneError perBone[80];
            float perFloat[8];
            maniClipReport report;
            memset(&report, 0, sizeof report);
            report.bones = perBone;
            report.boneCapacity = 80;
            report.floatTracks = perFloat;
            report.floatCapacity = 8;
            maniResult r = mani_errorCapacity;
            if (maniCreateBuilder(&def, &builder) == mani_success) {
                r = maniBuilder_MeasureClip(builder, &fc.source, &c, &report);
                maniDestroyBuilder(builder);
            }
            mconf_BytesU32(&b, (uint32_t)r);
            mconf_BytesF32(&b, report.maxTranslation);
            mconf_BytesF32(&b, report.maxRotation);
            mconf_BytesF32(&b, report.maxScale);
            mconf_BytesF32(&b, report.maxFloat);
            mconf_BytesU32(&b, report.worstBone);
            mconf_BytesU32(&b, report.worstFloatTrack);
            mconf_BytesU32(&b, report.timesMeasured);
            for (uint32_t k = 0; k < bones && r == mani_success; ++k) {
                mconf_BytesF32(&b, perBone[k].translation);
                mconf_BytesF32(&b, perBone[k].rotation);
                mconf_BytesF32(&b, perBone[k].scale);
                mconf_BytesF32(&b, perBone[k].time);
            }
            for (uint32_t k = 0; k < fc.source.floatTrackCount && r == mani_success; ++k) mconf_BytesF32(&b, perFloat[k]);
            snprintf(name, sizeof name, "%s-measure", cc->name);
            mconf_RecordBytes(run, name, &b);
        }
        free(poseMemory);
        free(fullMemory);
        free(compactMemory);
        free(file);
        free(skFile);
        maniFixtureFreeClip(&fc);
    }
    mconf_BytesFree(&b);
}
