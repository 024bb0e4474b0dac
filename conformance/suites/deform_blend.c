/* Suite "deform", its blend part: blend.h over seeded skeletons (random, chain, wide and
 * forest; 1 to 300 bones) and seeded poses: blends of three layers at several
 * thresholds, with and without masks, a blend with every weight 0, blends of
 * differences, masks from seeded chains, differences, additive layers, and
 * blends of inputs near binary32's range. Every local hashed field by field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/blend.h"

#include "conformance/suites/deform.h"

static void mconf_BlendAddLocals(mconf_Bytes* b, const maniPose* pose) {
    uint32_t n = maniPose_GetBoneCount(pose);
    for (uint32_t i = 0; i < n; ++i) {
        maniTransform t = maniPose_GetLocal(pose, i);
        const float* f = &t.translation.x;
        for (int k = 0; k < 10; ++k) mconf_BytesF32(b, f[k]);
    }
    mconf_BytesU32(b, maniPose_IsDifference(pose) ? 1u : 0u);
}

static maniPose* mconf_BlendNewPose(const maniSkeleton* s, void** memory) {
    size_t size = maniSkeleton_GetPoseSize(s);
    *memory = aligned_alloc(MANI_POSE_ALIGNMENT, (size + 31) / 32 * 32);
    maniPose* pose = NULL;
    if (*memory == NULL || maniInitPose(s, *memory, size, &pose) != mani_success) return NULL;
    return pose;
}

/* Locals: translations in [-range, range], rotations from seeded components
 * (not exactly unit: the library takes them as given), scales in [0.25, 4]. */
static void mconf_BlendRandomize(maniPose* pose, mcore_Rng* rng, float range) {
    uint32_t n = maniPose_GetBoneCount(pose);
    for (uint32_t i = 0; i < n; ++i) {
        maniTransform t;
        t.translation.x = mcore_RngFloatRange(rng, -range, range);
        t.translation.y = mcore_RngFloatRange(rng, -range, range);
        t.translation.z = mcore_RngFloatRange(rng, -range, range);
        t.rotation.x = mcore_RngFloatRange(rng, -1, 1);
        t.rotation.y = mcore_RngFloatRange(rng, -1, 1);
        t.rotation.z = mcore_RngFloatRange(rng, -1, 1);
        t.rotation.w = mcore_RngFloatRange(rng, -1, 1);
        t.scale.x = mcore_RngFloatRange(rng, 0.25f, 4);
        t.scale.y = mcore_RngFloatRange(rng, 0.25f, 4);
        t.scale.z = mcore_RngFloatRange(rng, 0.25f, 4);
        maniPose_SetLocal(pose, i, t);
    }
}

static void mconf_BlendRecordPose(mconf_Run* run, mconf_Bytes* b, const char* prefix, const char* what,
                                  maniResult r, const maniPose* pose) {
    char name[128];
    if (r == mani_success)
        mconf_BlendAddLocals(b, pose);
    else
        mconf_BytesU32(b, 0xFFFFFFFFu);
    snprintf(name, sizeof name, "%s-%s", prefix, what);
    mconf_RecordBytes(run, name, b);
}

void mconf_DeformBlend(mconf_Run* run) {
    static const char* shapes[] = {"random", "chain", "wide", "forest"};
    const uint32_t counts[] = {1, 9, 64, 300};
    mconf_Bytes b = {0};
    char prefix[64], name[128];
    for (int shape = 0; shape < 4; ++shape) {
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            const uint32_t n = counts[c];
            snprintf(prefix, sizeof prefix, "%s-%u", shapes[shape], n);
            maniSkeletonSource src = maniFixtureMakeSkeletonSource(0xB1E0 + 17 * shape + n, n, (maniFixtureShape)shape);
            size_t size = 0;
            void* file = maniFixtureBuildSkeleton(&src, &size);
            maniSkeleton s;
            if (file == NULL || maniOpenSkeleton(file, size, &s).result != mani_success) {
                snprintf(name, sizeof name, "%s-build-failed", prefix);
                mconf_Record(run, name, 0);
                free(file);
                maniFixtureFreeSkeletonSource(&src);
                continue;
            }
            void* mem[7] = {0};
            maniPose* p[7];
            int ok = 1;
            for (int i = 0; i < 7; ++i) {
                p[i] = mconf_BlendNewPose(&s, &mem[i]);
                if (p[i] == NULL) ok = 0;
            }
            float* maskA = (float*)malloc(sizeof(float) * n);
            float* maskB = (float*)malloc(sizeof(float) * n);
            if (ok && maskA != NULL && maskB != NULL) {
                mcore_Rng rng;
                mcore_RngSeed(&rng, 0xB1E4D + 131 * shape + n);
                mconf_BlendRandomize(p[0], &rng, 10);
                mconf_BlendRandomize(p[1], &rng, 10);
                mconf_BlendRandomize(p[2], &rng, 10);

                /* Masks from seeded chains. */
                maniMaskChain chains[8];
                for (int k = 0; k < 8; ++k) {
                    chains[k].bone = mcore_RngBelow(&rng, n);
                    chains[k].weight = mcore_RngFloat01(&rng);
                    chains[k].subtree = mcore_RngBelow(&rng, 2) == 1;
                }
                uint32_t maskCount = 0;
                maniResult ra = maniSkeleton_BuildMask(&s, chains, 8, 0.25f, maskA, n, &maskCount);
                maniResult rb = maniSkeleton_BuildMask(&s, chains, 3, 1.0f, maskB, n, &maskCount);
                mconf_BytesU32(&b, (uint32_t)ra);
                mconf_BytesU32(&b, (uint32_t)rb);
                mconf_BytesU32(&b, maskCount);
                for (uint32_t i = 0; i < n; ++i) mconf_BytesF32(&b, ra == mani_success ? maskA[i] : -1.0f);
                for (uint32_t i = 0; i < n; ++i) mconf_BytesF32(&b, rb == mani_success ? maskB[i] : -1.0f);
                snprintf(name, sizeof name, "%s-masks", prefix);
                mconf_RecordBytes(run, name, &b);

                /* Blends of three poses. */
                const float thresholds[] = {0.0f, 0.35f, 1.0f};
                for (int t = 0; t < 3; ++t) {
                    maniBlendLayer l[3] = {{p[0], 0.2f, NULL}, {p[1], 0.45f, NULL}, {p[2], 0.1f, NULL}};
                    maniResult r = maniSkeleton_BlendPoses(&s, l, 3, thresholds[t], p[3]);
                    snprintf(name, sizeof name, "blend-%d", t);
                    mconf_BlendRecordPose(run, &b, prefix, name, r, p[3]);
                    maniBlendLayer m[3] = {{p[2], 0.9f, maskA}, {p[0], 0.5f, NULL}, {p[1], 0.3f, maskB}};
                    r = maniSkeleton_BlendPoses(&s, m, 3, thresholds[t], p[3]);
                    snprintf(name, sizeof name, "masked-blend-%d", t);
                    mconf_BlendRecordPose(run, &b, prefix, name, r, p[3]);
                }
                {
                    maniBlendLayer z[2] = {{p[0], 0.0f, NULL}, {p[1], 0.7f, maskA}};
                    maniBlendLayer zero[1] = {{p[1], 0.0f, NULL}};
                    maniResult r = maniSkeleton_BlendPoses(&s, z, 2, 1.0f, p[3]);
                    mconf_BlendRecordPose(run, &b, prefix, "blend-partial", r, p[3]);
                    r = maniSkeleton_BlendPoses(&s, zero, 1, 0.5f, p[3]);
                    mconf_BlendRecordPose(run, &b, prefix, "blend-unweighted", r, p[3]);
                }

                /* Differences, their blends, and additive layers. */
                maniResult r = maniSkeleton_ComputePoseDifference(&s, p[0], p[1], p[4]);
                mconf_BlendRecordPose(run, &b, prefix, "difference-0-1", r, p[4]);
                maniResult r2 = maniSkeleton_ComputePoseDifference(&s, p[2], p[1], p[5]);
                mconf_BlendRecordPose(run, &b, prefix, "difference-2-1", r2, p[5]);
                if (r == mani_success && r2 == mani_success) {
                    maniBlendLayer d[2] = {{p[4], 0.6f, maskA}, {p[5], 0.3f, NULL}};
                    maniResult rd = maniSkeleton_BlendPoses(&s, d, 2, 0.8f, p[6]);
                    mconf_BlendRecordPose(run, &b, prefix, "difference-blend", rd, p[6]);

                    memcpy(mem[3], mem[1], maniSkeleton_GetPoseSize(&s));
                    maniBlendLayer one = {p[4], 1.0f, NULL};
                    maniResult ra1 = maniPose_AddLayers(p[3], &s, &one, 1);
                    mconf_BlendRecordPose(run, &b, prefix, "add-full", ra1, p[3]);
                    memcpy(mem[3], mem[2], maniSkeleton_GetPoseSize(&s));
                    maniBlendLayer add[3] = {{p[4], 0.5f, maskB}, {p[5], 0.75f, NULL}, {p[6], 1.0f, maskA}};
                    maniResult ra3 = maniPose_AddLayers(p[3], &s, add, 3);
                    mconf_BlendRecordPose(run, &b, prefix, "add-layers", ra3, p[3]);
                }

                /* Inputs near binary32's range. */
                mconf_BlendRandomize(p[0], &rng, 3.0e38f);
                mconf_BlendRandomize(p[1], &rng, 3.0e38f);
                {
                    maniBlendLayer h[2] = {{p[0], 0.75f, NULL}, {p[1], 1.0f, maskA}};
                    maniResult rh = maniSkeleton_BlendPoses(&s, h, 2, 1.0f, p[3]);
                    mconf_BlendRecordPose(run, &b, prefix, "blend-huge", rh, p[3]);
                    /* Past binary32's range apart: refused. */
                    maniResult rdh = maniSkeleton_ComputePoseDifference(&s, p[0], p[1], p[4]);
                    mconf_BlendRecordPose(run, &b, prefix, "difference-huge-refused", rdh, p[4]);
                    /* Within it (at most 3e38 apart): accepted. */
                    mconf_BlendRandomize(p[0], &rng, 1.5e38f);
                    mconf_BlendRandomize(p[1], &rng, 1.5e38f);
                    rdh = maniSkeleton_ComputePoseDifference(&s, p[0], p[1], p[4]);
                    mconf_BlendRecordPose(run, &b, prefix, "difference-huge", rdh, p[4]);
                }
            } else {
                snprintf(name, sizeof name, "%s-alloc-failed", prefix);
                mconf_Record(run, name, 0);
            }
            free(maskA);
            free(maskB);
            for (int i = 0; i < 7; ++i) free(mem[i]);
            free(file);
            maniFixtureFreeSkeletonSource(&src);
        }
    }
    mconf_BytesFree(&b);
}
