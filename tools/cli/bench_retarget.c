/* maul bench retarget: maniRetargetMap_RetargetPose and
 * maniMirrorMap_MirrorPose beside maniPose_ComputeModel, ns per bone, on
 * seeded symmetric rigs (lib/anim/test/fixtures/mirror_fixtures.h, 66 and
 * 1002 bones). The retarget map carries one rig onto a second of the same
 * naming and other rests (turned axes): every bone by name, the hips as the
 * pelvis. The mirror map mirrors the target rig across x (its right bones'
 * axes turned: the corrections compose). */
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/pose.h"
#include "maul/anim/retarget.h"
#include "maul/anim/retargetbuild.h"
#include "tools/cli/bench_internal.h"

typedef struct {
    maniSkeletonSource sources[2];
    void* files[2];
    maniSkeleton skeletons[2];
    void* mapFile;
    void* mirrorFile;
    maniRetargetMap map;
    maniMirrorMap mirror;
    void* memory[3];
    maniPose* poses[3]; /* the source pose, the target pose, the mirrored target pose */
    void* scratch;
    size_t scratchSize;
} maul_RetargetBench;

static void maul_RetargetBenchClose(maul_RetargetBench* s) {
    for (int k = 0; k < 3; ++k) free(s->memory[k]);
    for (int k = 0; k < 2; ++k) {
        free(s->files[k]);
        maniFixtureFreeMirrorRig(&s->sources[k]);
    }
    free(s->mapFile);
    free(s->mirrorFile);
    free(s->scratch);
}

static void* maul_AlignedPose(const maniSkeleton* skeleton, maniPose** poseOut) {
    const size_t size = maniSkeleton_GetPoseSize(skeleton);
    void* memory = aligned_alloc(MANI_POSE_ALIGNMENT, (size + MANI_POSE_ALIGNMENT - 1) / MANI_POSE_ALIGNMENT *
                                                          MANI_POSE_ALIGNMENT);
    if (memory != NULL && maniInitPose(skeleton, memory, size, poseOut) != mani_success) {
        free(memory);
        return NULL;
    }
    return memory;
}

static int maul_RetargetBenchOpen(maul_RetargetBench* s, uint32_t chains, uint32_t length) {
    memset(s, 0, sizeof *s);
    for (int k = 0; k < 2; ++k) {
        s->sources[k] = maniFixtureMakeMirrorRig(0x5242 + chains * length + 1000 * (uint64_t)k, 0, chains, length, k);
        size_t size = 0;
        s->files[k] = maniFixtureBuildSkeleton(&s->sources[k], &size);
        if (s->files[k] == NULL || maniOpenSkeleton(s->files[k], size, &s->skeletons[k]).result != mani_success)
            return 0;
    }
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 0;
    maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1.0f, 1.0f, {0, 0, 0}, {0, 0, 0}, 1.0f};
    if (maniSkeleton_GetRest(&s->skeletons[0], 0).translation.y < 0 ||
        maniSkeleton_GetRest(&s->skeletons[1], 0).translation.y < 0)
        pelvis.up.y = -1.0f;
    maniRetargetMapSource src;
    memset(&src, 0, sizeof src);
    src.source = &s->skeletons[0];
    src.target = &s->skeletons[1];
    src.matchNames = true;
    src.pelvis = &pelvis;
    size_t size = 0;
    if (maniBuildRetargetMap(b, &src).result == mani_success) s->mapFile = maniFixtureCopyBuilt(b, 16, &size);
    const int mapOpened = s->mapFile != NULL && maniOpenRetargetMap(s->mapFile, size, &s->map).result == mani_success;
    maniMirrorMapSource msrc;
    memset(&msrc, 0, sizeof msrc);
    msrc.skeleton = &s->skeletons[1];
    msrc.rules = maniFixtureMirrorRules;
    msrc.ruleCount = 2;
    if (maniBuildMirrorMap(b, &msrc).result == mani_success) s->mirrorFile = maniFixtureCopyBuilt(b, 16, &size);
    const int mirrorOpened =
        s->mirrorFile != NULL && maniOpenMirrorMap(s->mirrorFile, size, &s->mirror).result == mani_success;
    maniDestroyBuilder(b);
    if (!mapOpened || !mirrorOpened) return 0;
    s->memory[0] = maul_AlignedPose(&s->skeletons[0], &s->poses[0]);
    s->memory[1] = maul_AlignedPose(&s->skeletons[1], &s->poses[1]);
    s->memory[2] = maul_AlignedPose(&s->skeletons[1], &s->poses[2]);
    s->scratchSize = maniRetargetMap_GetScratchSize(&s->map);
    s->scratch = aligned_alloc(16, (s->scratchSize + 15) / 16 * 16);
    if (s->memory[0] == NULL || s->memory[1] == NULL || s->memory[2] == NULL || s->scratch == NULL) return 0;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0x5243);
    for (uint32_t i = 0; i < s->sources[0].boneCount; ++i) {
        maniTransform t = maniPose_GetLocal(s->poses[0], i);
        t.translation.x += mcore_RngFloatRange(&rng, -0.5f, 0.5f);
        t.rotation.y += mcore_RngFloatRange(&rng, -0.1f, 0.1f);
        maniPose_SetLocal(s->poses[0], i, t);
    }
    return maniRetargetMap_RetargetPose(&s->map, &s->skeletons[0], s->poses[0], &s->skeletons[1], s->poses[1],
                                        s->scratch, s->scratchSize) == mani_success;
}

static uint64_t maul_RunRetargetPose(void* state, uint32_t iterations) {
    maul_RetargetBench* s = (maul_RetargetBench*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i)
        failed += maniRetargetMap_RetargetPose(&s->map, &s->skeletons[0], s->poses[0], &s->skeletons[1], s->poses[1],
                                               s->scratch, s->scratchSize) != mani_success;
    maul_benchSink += maniPose_GetLocal(s->poses[1], 0).translation.x;
    return failed;
}

static uint64_t maul_RunRetargetMirrorPose(void* state, uint32_t iterations) {
    maul_RetargetBench* s = (maul_RetargetBench*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i)
        failed += maniMirrorMap_MirrorPose(&s->mirror, &s->skeletons[1], s->poses[1], s->poses[2]) != mani_success;
    maul_benchSink += maniPose_GetLocal(s->poses[2], 0).translation.x;
    return failed;
}

static uint64_t maul_RunRetargetComputeModel(void* state, uint32_t iterations) {
    maul_RetargetBench* s = (maul_RetargetBench*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i)
        failed += maniPose_ComputeModel(s->poses[1], &s->skeletons[1]) != mani_success;
    maul_benchSink += maniPose_GetModel(s->poses[1], 0).columns[0].x;
    return failed;
}

int maul_BenchRetarget(FILE* out) {
    int status = 0;
    static const uint32_t chains[2] = {4, 25}, lengths[2] = {8, 20};
    static const char* const kinds[3] = {"pose", "mirror-pose", "compute-model"};
    uint64_t (*const runs[3])(void*, uint32_t) = {maul_RunRetargetPose, maul_RunRetargetMirrorPose,
                                                 maul_RunRetargetComputeModel};
    for (int i = 0; i < 2; ++i) {
        maul_RetargetBench* s = (maul_RetargetBench*)malloc(sizeof *s);
        const uint32_t n = 2 + 2 * chains[i] * lengths[i];
        const int opened = s != NULL && maul_RetargetBenchOpen(s, chains[i], lengths[i]);
        for (int k = 0; k < 3; ++k) {
            char name[48];
            snprintf(name, sizeof name, "retarget-%s-%u", kinds[k], n);
            if (!opened) {
                maul_SetupFailed(out, name);
                status = 1;
                continue;
            }
            const maul_BenchCase c = {name, i == 0 ? 20000u : 2000u, n, runs[k], s};
            status |= maul_RunCase(out, &c);
        }
        if (s != NULL) maul_RetargetBenchClose(s);
        free(s);
    }
    return status;
}
