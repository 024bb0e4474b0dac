/* Suite "skeleton": the bytes of built skeleton files for seeded sources
 * (1 to 1000 bones; random, deep, wide and forest hierarchies), their
 * identities, the model matrices of seeded poses, and decompositions of
 * seeded affine matrices (sheared, mirrored and degenerate among them). */
#include <stdio.h>
#include <stdlib.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/pose.h"

void mconf_SuiteSkeleton(mconf_Run* run);

static void mconf_AddTransform(mconf_Bytes* b, const maniTransform* t) {
    const float* f = &t->translation.x;
    for (int i = 0; i < 10; ++i) mconf_BytesF32(b, f[i]);
}

static void mconf_AddAffine(mconf_Bytes* b, const maniAffine* a) {
    const float* f = &a->columns[0].x;
    for (int i = 0; i < 12; ++i) mconf_BytesF32(b, f[i]);
}

void mconf_SuiteSkeleton(mconf_Run* run) {
    static const char* shapes[] = {"random", "chain", "wide", "forest"};
    const uint32_t counts[] = {1, 2, 8, 9, 100, 1000};
    mconf_Bytes b = {0};
    char name[96];
    for (int shape = 0; shape < 4; ++shape) {
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            uint32_t n = counts[c];
            maniSkeletonSource src = maniFixtureMakeSkeletonSource(0x5EED + 31 * shape + n, n, (maniFixtureShape)shape);
            size_t size = 0;
            void* file = maniFixtureBuildSkeleton(&src, &size);
            maniSkeleton s;
            if (file == NULL || maniOpenSkeleton(file, size, &s).result != mani_success) {
                snprintf(name, sizeof name, "%s-%u-build-failed", shapes[shape], n);
                mconf_Record(run, name, 0);
                free(file);
                maniFixtureFreeSkeletonSource(&src);
                continue;
            }
            mconf_BytesAdd(&b, file, size);
            snprintf(name, sizeof name, "%s-%u-file", shapes[shape], n);
            mconf_RecordBytes(run, name, &b);
            snprintf(name, sizeof name, "%s-%u-identity", shapes[shape], n);
            mconf_Record(run, name, maniSkeleton_GetIdentity(&s));

            /* A seeded pose: every local perturbed, then composed. */
            size_t poseSize = maniSkeleton_GetPoseSize(&s);
            void* memory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
            maniPose* pose = NULL;
            if (memory != NULL && maniInitPose(&s, memory, poseSize, &pose) == mani_success) {
                mcore_Rng rng;
                mcore_RngSeed(&rng, n * 7 + shape);
                for (uint32_t i = 0; i < n; ++i) {
                    maniTransform t = maniPose_GetLocal(pose, i);
                    t.translation.x += mcore_RngFloatRange(&rng, -0.5f, 0.5f);
                    t.rotation.y += mcore_RngFloatRange(&rng, -0.1f, 0.1f); /* composed as given */
                    t.scale.z *= mcore_RngFloatRange(&rng, 0.9f, 1.1f);
                    maniPose_SetLocal(pose, i, t);
                }
                if (maniPose_ComputeModel(pose, &s) == mani_success) {
                    for (uint32_t i = 0; i < n; ++i) {
                        maniAffine a = maniPose_GetModel(pose, i);
                        mconf_AddAffine(&b, &a);
                    }
                    snprintf(name, sizeof name, "%s-%u-models", shapes[shape], n);
                    mconf_RecordBytes(run, name, &b);
                    for (uint32_t i = 0; i < n; ++i) {
                        maniTransform t = maniPose_GetModelTransform(pose, i);
                        mconf_AddTransform(&b, &t);
                    }
                    snprintf(name, sizeof name, "%s-%u-model-transforms", shapes[shape], n);
                    mconf_RecordBytes(run, name, &b);
                }
            }
            free(memory);
            free(file);
            maniFixtureFreeSkeletonSource(&src);
        }
    }
    /* Decompositions: general, sheared, mirrored, and degenerate matrices. */
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0xDEC0);
    const char* kinds[] = {"general", "mirrored", "zero-axis", "flat"};
    for (int kind = 0; kind < 4; ++kind) {
        for (int i = 0; i < 2048; ++i) {
            maniAffine a;
            float* f = &a.columns[0].x;
            for (int k = 0; k < 12; ++k) f[k] = mcore_RngFloatRange(&rng, -3, 3);
            if (kind == 1) {
                a.columns[0].x = -a.columns[0].x;
                a.columns[0].y = -a.columns[0].y;
                a.columns[0].z = -a.columns[0].z;
            } else if (kind == 2) {
                a.columns[i % 3].x = a.columns[i % 3].y = a.columns[i % 3].z = 0;
            } else if (kind == 3) {
                a.columns[2].x = a.columns[0].x + a.columns[1].x;
                a.columns[2].y = a.columns[0].y + a.columns[1].y;
                a.columns[2].z = a.columns[0].z + a.columns[1].z;
            }
            maniTransform t;
            if (maniDecomposeAffine(&a, &t) == mani_success) {
                mconf_AddTransform(&b, &t);
            } else {
                mconf_BytesU32(&b, 0xFFFFFFFFu);
            }
        }
        snprintf(name, sizeof name, "decompose-%s", kinds[kind]);
        mconf_RecordBytes(run, name, &b);
    }
    mconf_BytesFree(&b);
}
