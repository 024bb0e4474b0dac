/* Suite "retarget-mirror", the mirror half: mirror map files built from
 * seeded symmetric rigs (three axes; mirrored and unmirrored axes; names
 * paired by rules and by pairs), their identities and JSON text, seeded
 * poses mirrored once and twice, and root moves mirrored. The retarget half
 * adds its cases later. */
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

void mconf_SuiteRetargetMirror(mconf_Run* run);

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
    maniDestroyBuilder(builder);
    mconf_BytesFree(&b);
}
