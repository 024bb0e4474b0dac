/* Suite "retarget-mirror", the mirror half: mirror map files built from
 * seeded symmetric rigs (three axes; mirrored and unmirrored axes; names
 * paired by rules and by pairs), their identities and JSON text, seeded
 * poses mirrored once and twice, and root moves mirrored. The retarget half
 * (cases retarget-*, after every mirror case): retarget map files between
 * seeded rigs of one naming and other proportions (names, pairs, chains of
 * every mode, the pelvis), their identities and JSON text, seeded poses
 * retargeted, and root motion deltas scaled. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/pose.h"
#include "maul/anim/retargetbuild.h"

void mconf_SuiteRetargetMirror(mconf_Run* run);
void mconf_RetargetMirrorClipCases(mconf_Run* run, maniBuilder* builder, mconf_Bytes* b);

static void mconf_MirrorLocals(mconf_Bytes* b, const maniPose* pose, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
        const maniTransform t = maniPose_GetLocal(pose, i);
        const float* f = &t.translation.x;
        for (int k = 0; k < 10; ++k) mconf_BytesF32(b, f[k]);
    }
}

static maniQuat mconf_MirrorTurn(mcore_Rng* rng) {
    for (;;) {
        double v[4], len = 0;
        for (int k = 0; k < 4; ++k) {
            v[k] = mcore_RngDouble01(rng) * 2 - 1;
            len += v[k] * v[k];
        }
        if (len > 0.01 && len <= 1) {
            const double l = sqrt(len);
            maniQuat q = {(float)(v[0] / l), (float)(v[1] / l), (float)(v[2] / l), (float)(v[3] / l)};
            return q;
        }
    }
}

static const maniMirrorNamePair mconf_mirrorNamePairs[2] = {{"footstep_l", 10, "footstep_r", 10},
                                                             {"hit \"a\"", 7, "hit \"b\"", 7}};
static const maniMirrorName mconf_mirrorNames[3] = {{"LeftGrip", 8}, {"RightGrip", 9}, {"center", 6}};

static maniBuildResult mconf_RetargetRefused(void) {
    maniBuildResult r = {mani_errorInvalid, maniBuildReasonNone, 0, 0};
    return r;
}

/* The retarget half: a map per case between two seeded mirror rigs of one
 * shape (so names match) and other rests. */
static void mconf_RetargetCases(mconf_Run* run, maniBuilder* builder, mconf_Bytes* b) {
    char name[96];
    const uint32_t shapes[3][2] = {{1, 2}, {2, 3}, {3, 5}};
    for (uint32_t z = 0; z < 3; ++z) {
        for (uint32_t variant = 0; variant < 4; ++variant) {
            maniSkeletonSource rigs[2];
            void* files[2] = {NULL, NULL};
            maniSkeleton sk[2];
            int ok = 1;
            for (int side = 0; side < 2; ++side) {
                rigs[side] = maniFixtureMakeMirrorRig(0x5254 + 31 * z + 7 * (uint64_t)variant + 1000 * (uint64_t)side, 0,
                                                      shapes[z][0], shapes[z][1], side);
                size_t size = 0;
                files[side] = maniFixtureBuildSkeleton(&rigs[side], &size);
                ok = ok && files[side] != NULL && maniOpenSkeleton(files[side], size, &sk[side]).result == mani_success;
            }
            const uint32_t n = rigs[0].boneCount, length = shapes[z][1];
            snprintf(name, sizeof name, "retarget-%u-%u-", n, variant);
            char* tail = name + strlen(name);
            const size_t room = sizeof name - (size_t)(tail - name);
            if (!ok) {
                snprintf(tail, room, "skeleton-failed");
                mconf_Record(run, name, 0);
            }
            /* Variant 0: names only; 1: pairs with each translation mode and
             * scale; 2: chains of every mode; 3: the pelvis, names and a
             * turned target reference. */
            maniRetargetMapSource src;
            memset(&src, 0, sizeof src);
            src.source = &sk[0];
            src.target = &sk[1];
            maniRetargetPair pairs[3];
            maniRetargetChain chains[4];
            maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1.0f, 0.75f, {0.25f, 0, 0}, {0, 0, 0.5f}, 0.875f};
            maniTransform* reference = NULL;
            if (variant == 0) src.matchNames = true;
            if (variant == 1) {
                for (uint32_t k = 0; k < 3; ++k) {
                    const uint32_t bone = (k * 5u + 1u) % n;
                    const maniRetargetPair p = {bone, bone, 0.25f + 0.375f * (float)k, k, k != 1};
                    pairs[k] = p;
                }
                src.pairs = pairs;
                src.pairCount = 3;
            }
            if (variant == 2 && length >= 2) {
                /* Left_c chains: bones 2 + 2 length c .. + length - 1. */
                uint32_t count = 0;
                for (uint32_t c = 0; c < shapes[z][0] && count < 4; ++c) {
                    for (uint32_t side = 0; side < 2 && count < 4; ++side) {
                        const uint32_t first = 2 + 2 * length * c + length * side;
                        const maniRetargetChain chain = {first, first + length - 1, first, first + length - 1,
                                                         count % 4, count % 3, count == 3 ? 0.5f : 1.0f, count == 2};
                        chains[count++] = chain;
                    }
                }
                if (count >= 2) chains[1].targetEnd = chains[1].targetStart + 1; /* a shorter target side */
                src.chains = chains;
                src.chainCount = count;
            }
            if (variant == 3) {
                src.pelvis = &pelvis;
                src.matchNames = true;
                reference = (maniTransform*)malloc(sizeof(maniTransform) * rigs[1].boneCount);
                if (reference != NULL) {
                    mcore_Rng turnRng;
                    mcore_RngSeed(&turnRng, 0x7F + n);
                    for (uint32_t i = 0; i < rigs[1].boneCount; ++i) {
                        reference[i] = maniSkeleton_GetRest(&sk[1], i);
                        if (i % 3 == 1) reference[i].rotation = mconf_MirrorTurn(&turnRng);
                    }
                    /* The target's hips 1.25 times the source's from the
                     * origin, up the side they stand on. */
                    const maniVec3 hips = maniSkeleton_GetRest(&sk[0], 0).translation;
                    reference[0].translation.x = 1.25f * hips.x;
                    reference[0].translation.y = 1.25f * hips.y;
                    reference[0].translation.z = 1.25f * hips.z;
                    if (hips.y < 0) pelvis.up.y = -1.0f;
                    src.targetReference = reference;
                }
            }
            maniBuildResult r = ok ? maniWriteRetargetMapJson(builder, &src)
                                   : mconf_RetargetRefused();
            size_t size = 0;
            void* text = r.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &size) : NULL;
            if (text != NULL) mconf_BytesAdd(b, text, size);
            mconf_BytesU32(b, (uint32_t)r.result);
            mconf_BytesU32(b, r.reason);
            mconf_BytesU32(b, (uint32_t)r.item);
            snprintf(tail, room, "json");
            mconf_RecordBytes(run, name, b);
            free(text);
            r = ok ? maniBuildRetargetMap(builder, &src) : mconf_RetargetRefused();
            void* file = r.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &size) : NULL;
            maniRetargetMap map;
            if (file == NULL || maniOpenRetargetMap(file, size, &map).result != mani_success) {
                snprintf(tail, room, "map-failed");
                mconf_Record(run, name, (uint64_t)r.result);
            } else {
                mconf_BytesAdd(b, file, size);
                snprintf(tail, room, "map");
                mconf_RecordBytes(run, name, b);
                snprintf(tail, room, "identity");
                mconf_Record(run, name, maniRetargetMap_GetIdentity(&map));
                /* Seeded source poses retargeted. */
                const size_t ps = maniSkeleton_GetPoseSize(&sk[0]), pt = maniSkeleton_GetPoseSize(&sk[1]);
                const size_t scratchSize = maniRetargetMap_GetScratchSize(&map);
                void* m0 = aligned_alloc(MANI_POSE_ALIGNMENT, (ps + 31) / 32 * 32);
                void* m1 = aligned_alloc(MANI_POSE_ALIGNMENT, (pt + 31) / 32 * 32);
                void* scratch = aligned_alloc(16, (scratchSize + 15) / 16 * 16);
                maniPose *in = NULL, *out = NULL;
                if (m0 && m1 && scratch && maniInitPose(&sk[0], m0, ps, &in) == mani_success &&
                    maniInitPose(&sk[1], m1, pt, &out) == mani_success) {
                    mcore_Rng rng;
                    mcore_RngSeed(&rng, 0x5250 + n + 16 * variant);
                    for (int trial = 0; trial < 4; ++trial) {
                        for (uint32_t i = 0; i < n; ++i) {
                            maniTransform t;
                            t.translation.x = mcore_RngFloatRange(&rng, -2, 2);
                            t.translation.y = mcore_RngFloatRange(&rng, -2, 2);
                            t.translation.z = mcore_RngFloatRange(&rng, -2, 2);
                            t.rotation = mconf_MirrorTurn(&rng);
                            t.scale.x = mcore_RngFloatRange(&rng, 0.5f, 2);
                            t.scale.y = mcore_RngFloatRange(&rng, 0.5f, 2);
                            t.scale.z = mcore_RngFloatRange(&rng, 0.5f, 2);
                            maniPose_SetLocal(in, i, t);
                        }
                        const maniResult m = maniRetargetMap_RetargetPose(&map, &sk[0], in, &sk[1], out, scratch, scratchSize);
                        mconf_BytesU32(b, (uint32_t)m);
                        mconf_MirrorLocals(b, out, rigs[1].boneCount);
                    }
                    snprintf(tail, room, "poses");
                    mconf_RecordBytes(run, name, b);
                    for (int k = 0; k < 16; ++k) {
                        maniVec3 d = {mcore_RngFloatRange(&rng, -5, 5), mcore_RngFloatRange(&rng, -5, 5),
                                      mcore_RngFloatRange(&rng, -5, 5)};
                        d = maniRetargetMap_RetargetRootMotion(&map, d);
                        mconf_BytesF32(b, d.x);
                        mconf_BytesF32(b, d.y);
                        mconf_BytesF32(b, d.z);
                    }
                    snprintf(tail, room, "root-motion");
                    mconf_RecordBytes(run, name, b);
                }
                free(m0);
                free(m1);
                free(scratch);
            }
            free(file);
            free(reference);
            for (int side = 0; side < 2; ++side) {
                free(files[side]);
                maniFixtureFreeMirrorRig(&rigs[side]);
            }
        }
    }
}

void mconf_SuiteRetargetMirror(mconf_Run* run) {
    mconf_Bytes b = {0};
    char name[96];
    maniBuilder* builder = NULL;
    maniBuilderDef def = maniDefaultBuilderDef();
    if (maniCreateBuilder(&def, &builder) != mani_success) {
        mconf_Record(run, "mirror-builder-failed", 0);
        return;
    }
    const uint32_t sizes[3][2] = {{1, 1}, {2, 3}, {4, 8}};
    for (uint32_t axis = 0; axis < 3; ++axis) {
        for (int turned = 0; turned < 2; ++turned) {
            for (uint32_t z = 0; z < 3; ++z) {
                const char* kind = turned ? "turned" : "mirrored";
                const uint32_t chains = sizes[z][0], length = sizes[z][1];
                maniSkeletonSource rig =
                    maniFixtureMakeMirrorRig(0x4D49 + 97 * axis + 13 * (uint64_t)turned + z, axis, chains, length, turned);
                size_t skeletonSize = 0;
                void* skeletonFile = maniFixtureBuildSkeleton(&rig, &skeletonSize);
                maniSkeleton s;
                snprintf(name, sizeof name, "mirror-%c-%s-%u-", "xyz"[axis], kind, rig.boneCount);
                char* tail = name + strlen(name);
                const size_t room = sizeof name - (size_t)(tail - name);
                if (skeletonFile == NULL || maniOpenSkeleton(skeletonFile, skeletonSize, &s).result != mani_success) {
                    snprintf(tail, room, "skeleton-failed");
                    mconf_Record(run, name, 0);
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
                src.namePairs = mconf_mirrorNamePairs;
                src.namePairCount = 2;
                src.names = mconf_mirrorNames;
                src.nameCount = 3;
                /* A reference off the rest for every third bone (a seeded
                 * turn applied on the right of both sides' rests keeps the
                 * map's pairs; the corrections change). */
                maniTransform* reference = (maniTransform*)malloc(sizeof(maniTransform) * rig.boneCount);
                if (reference != NULL) {
                    mcore_Rng turnRng;
                    mcore_RngSeed(&turnRng, 0x7E + rig.boneCount);
                    for (uint32_t i = 0; i < rig.boneCount; ++i) {
                        reference[i] = maniSkeleton_GetRest(&s, i);
                        if (i % 3 == 2) reference[i].rotation = mconf_MirrorTurn(&turnRng);
                    }
                    src.reference = reference;
                }
                /* The JSON text, then the file (the builder keeps the last). */
                maniBuildResult r = maniWriteMirrorMapJson(builder, &src);
                size_t size = 0;
                void* text = maniFixtureCopyBuilt(builder, 16, &size);
                if (r.result == mani_success && text != NULL) mconf_BytesAdd(&b, text, size);
                mconf_BytesU32(&b, (uint32_t)r.result);
                snprintf(tail, room, "json");
                mconf_RecordBytes(run, name, &b);
                free(text);
                r = maniBuildMirrorMap(builder, &src);
                void* file = r.result == mani_success ? maniFixtureCopyBuilt(builder, 16, &size) : NULL;
                maniMirrorMap map;
                if (file == NULL || maniOpenMirrorMap(file, size, &map).result != mani_success) {
                    snprintf(tail, room, "map-failed");
                    mconf_Record(run, name, (uint64_t)r.result);
                    free(reference);
                    free(file);
                    free(skeletonFile);
                    maniFixtureFreeMirrorRig(&rig);
                    continue;
                }
                mconf_BytesAdd(&b, file, size);
                snprintf(tail, room, "map");
                mconf_RecordBytes(run, name, &b);
                snprintf(tail, room, "identity");
                mconf_Record(run, name, maniMirrorMap_GetIdentity(&map));

                /* Seeded poses, mirrored once and twice. */
                const size_t poseSize = maniSkeleton_GetPoseSize(&s);
                const size_t rounded = (poseSize + 31) / 32 * 32;
                void* m0 = aligned_alloc(MANI_POSE_ALIGNMENT, rounded);
                void* m1 = aligned_alloc(MANI_POSE_ALIGNMENT, rounded);
                maniPose *in = NULL, *out = NULL;
                if (m0 && m1 && maniInitPose(&s, m0, poseSize, &in) == mani_success &&
                    maniInitPose(&s, m1, poseSize, &out) == mani_success) {
                    mcore_Rng rng;
                    mcore_RngSeed(&rng, 0x9051 + rig.boneCount + axis);
                    for (int trial = 0; trial < 4; ++trial) {
                        for (uint32_t i = 0; i < rig.boneCount; ++i) {
                            maniTransform t;
                            t.translation.x = mcore_RngFloatRange(&rng, -3, 3);
                            t.translation.y = mcore_RngFloatRange(&rng, -3, 3);
                            t.translation.z = mcore_RngFloatRange(&rng, -3, 3);
                            t.rotation = mconf_MirrorTurn(&rng);
                            t.scale.x = mcore_RngFloatRange(&rng, 0.5f, 2);
                            t.scale.y = turned ? t.scale.x : mcore_RngFloatRange(&rng, 0.5f, 2);
                            t.scale.z = turned ? t.scale.x : mcore_RngFloatRange(&rng, 0.5f, 2);
                            maniPose_SetLocal(in, i, t);
                        }
                        maniResult m = maniMirrorMap_MirrorPose(&map, &s, in, out);
                        mconf_BytesU32(&b, (uint32_t)m);
                        mconf_MirrorLocals(&b, out, rig.boneCount);
                        m = maniMirrorMap_MirrorPose(&map, &s, out, out);
                        mconf_BytesU32(&b, (uint32_t)m);
                        mconf_MirrorLocals(&b, out, rig.boneCount);
                    }
                    snprintf(tail, room, "poses");
                    mconf_RecordBytes(run, name, &b);
                    mcore_RngSeed(&rng, 0x2007 + 64 * axis + 8 * (uint64_t)turned + z);
                    for (int k = 0; k < 16; ++k) {
                        maniRootMove move;
                        move.translation.x = mcore_RngFloatRange(&rng, -5, 5);
                        move.translation.y = mcore_RngFloatRange(&rng, -5, 5);
                        move.translation.z = mcore_RngFloatRange(&rng, -5, 5);
                        move.rotation = mconf_MirrorTurn(&rng);
                        const maniRootMove o = maniMirrorMap_MirrorRootMotion(&map, move);
                        const float* f = &o.translation.x;
                        for (int c = 0; c < 7; ++c) mconf_BytesF32(&b, f[c]);
                    }
                    snprintf(tail, room, "root-moves");
                    mconf_RecordBytes(run, name, &b);
                }
                free(m0);
                free(m1);
                free(reference);
                free(file);
                free(skeletonFile);
                maniFixtureFreeMirrorRig(&rig);
            }
        }
    }
    mconf_RetargetCases(run, builder, &b);
    mconf_RetargetMirrorClipCases(run, builder, &b); /* retarget_mirror_clips.c */
    maniDestroyBuilder(builder);
    mconf_BytesFree(&b);
}
