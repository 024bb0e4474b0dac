/* maul bench ik-body-*: maniPose_SolveBodyXpbd and maniPose_SolveBodySdls on
 * the seeded bodies of lib/anim/test/fixtures/bodyik_fixtures.h (a 22-bone
 * humanoid with 5 effectors, all with rotation goals; a 128-bone star with 32
 * effectors, no rotations), a free top, tolerance 0 so every solve runs its
 * iterations. Each op restores the rest and solves toward one of 16 goal sets
 * (the effectors of the body bent by seeded turns). docs/performance.md has
 * the instructions per iteration (callgrind). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/bodyik_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/bodyik.h"
#include "tools/cli/bench_internal.h"

#define MAUL_BODY_GOAL_SETS 16

typedef struct maul_BodyState {
    maniFixtureBody body;
    void* file;
    maniSkeleton skeleton;
    void* poseMemory;
    maniPose* pose;
    maniBodyEffector effectors[MAUL_BODY_GOAL_SETS][MANI_MAX_BODY_IK_EFFECTORS];
    maniBodySolve solve;
    void* scratch;
    size_t scratchSize;
    int sdls;
} maul_BodyState;

static void maul_BodyClose(maul_BodyState* s) {
    free(s->scratch);
    free(s->poseMemory);
    free(s->file);
    maniFixtureFreeBody(&s->body);
}

/* Turns every bone by a seeded turn of up to 0.4 radian about a seeded axis. */
static void maul_BodyBend(maniPose* pose, mcore_Rng* rng) {
    for (uint32_t b = 0; b < maniPose_GetBoneCount(pose); ++b) {
        maniTransform t = maniPose_GetLocal(pose, b);
        const float x = mcore_RngFloatRange(rng, -0.2f, 0.2f), y = mcore_RngFloatRange(rng, -0.2f, 0.2f);
        const float z = mcore_RngFloatRange(rng, -0.2f, 0.2f);
        const maniQuat q = t.rotation; /* (x, y, z, 1) q, the build-free small turn */
        maniQuat r = {q.x + x * q.w + y * q.z - z * q.y, q.y - x * q.z + y * q.w + z * q.x,
                      q.z + x * q.y - y * q.x + z * q.w, q.w - x * q.x - y * q.y - z * q.z};
        const float l = (float)sqrt((double)(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w));
        r.x /= l, r.y /= l, r.z /= l, r.w /= l;
        t.rotation = r;
        maniPose_SetLocal(pose, b, t);
    }
}

static int maul_BodyOpen(maul_BodyState* s, maniFixtureBodyShape shape, int rotations, uint32_t iterations, int sdls) {
    memset(s, 0, sizeof *s);
    s->sdls = sdls;
    s->body = maniFixtureMakeBody(0xB0D1 + (uint64_t)shape, shape, 0);
    size_t size = 0;
    s->file = maniFixtureBuildSkeleton(&s->body.source, &size);
    if (s->file == NULL || maniOpenSkeleton(s->file, size, &s->skeleton).result != mani_success) return 0;
    const size_t poseSize = maniSkeleton_GetPoseSize(&s->skeleton);
    s->poseMemory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    if (s->poseMemory == NULL || maniInitPose(&s->skeleton, s->poseMemory, poseSize, &s->pose) != mani_success)
        return 0;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0x60A1 + (uint64_t)shape);
    for (uint32_t g = 0; g < MAUL_BODY_GOAL_SETS; ++g) {
        if (maniPose_SetRest(s->pose, &s->skeleton) != mani_success) return 0;
        maul_BodyBend(s->pose, &rng);
        if (maniPose_ComputeModel(s->pose, &s->skeleton) != mani_success) return 0;
        for (uint32_t j = 0; j < s->body.effectorCount; ++j) {
            maniBodyEffector* e = &s->effectors[g][j];
            const maniTransform m = maniPose_GetModelTransform(s->pose, s->body.effectors[j]);
            e->bone = s->body.effectors[j];
            e->goal = m.translation;
            e->rotation = m.rotation;
            e->rotationWeight = rotations ? 1.0f : 0.0f;
            e->strength = 1.0f;
            e->pullChain = 0.0f;
        }
    }
    s->solve.top = 0;
    s->solve.topMode = maniBodyTopFree;
    s->solve.effectors = s->effectors[0];
    s->solve.effectorCount = s->body.effectorCount;
    s->solve.iterations = iterations;
    s->solve.tolerance = 0.0f;
    s->scratchSize = maniSkeleton_GetBodyIkScratchSize(&s->skeleton, &s->solve);
    s->scratch = s->scratchSize ? aligned_alloc(64, (s->scratchSize + 63) / 64 * 64) : NULL;
    return s->scratch != NULL && maniPose_SetRest(s->pose, &s->skeleton) == mani_success;
}

static uint64_t maul_RunBody(void* state, uint32_t iterations) {
    maul_BodyState* s = (maul_BodyState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        failed += maniPose_SetRest(s->pose, &s->skeleton) != mani_success;
        s->solve.effectors = s->effectors[i % MAUL_BODY_GOAL_SETS];
        bool reached;
        const maniResult r = s->sdls ? maniPose_SolveBodySdls(s->pose, &s->skeleton, &s->solve, s->scratch,
                                                              s->scratchSize, &reached)
                                     : maniPose_SolveBodyXpbd(s->pose, &s->skeleton, &s->solve, s->scratch,
                                                              s->scratchSize, &reached);
        failed += r != mani_success;
        maul_benchSink += maniPose_GetLocal(s->pose, s->body.effectors[0]).rotation.x;
    }
    return failed;
}

int maul_BenchBodyIk(FILE* out) {
    static const struct {
        const char* name;
        maniFixtureBodyShape shape;
        int rotations, sdls;
        uint32_t iterations, ops;
    } cases[] = {
        {"ik-body-xpbd-22", maniFixtureBodyHumanoid, 1, 0, 16, 2000},
        {"ik-body-sdls-22", maniFixtureBodyHumanoid, 1, 1, 4, 200},
        {"ik-body-xpbd-128", maniFixtureBodyStar, 0, 0, 16, 200},
        {"ik-body-sdls-128", maniFixtureBodyStar, 0, 1, 4, 4},
    };
    int status = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        maul_BodyState* s = (maul_BodyState*)malloc(sizeof *s);
        if (s != NULL && maul_BodyOpen(s, cases[k].shape, cases[k].rotations, cases[k].iterations, cases[k].sdls)) {
            const maul_BenchCase c = {cases[k].name, cases[k].ops, maniSkeleton_GetBoneCount(&s->skeleton),
                                      maul_RunBody, s};
            status |= maul_RunCase(out, &c);
        } else {
            maul_SetupFailed(out, cases[k].name);
            status = 1;
        }
        if (s != NULL) maul_BodyClose(s);
        free(s);
    }
    return status;
}
