/* maul bench: micro-benchmarks (tools/cli/bench.h, docs/performance.md).
 *
 * Each case runs a fixed number of operations once to warm up, then 5 times
 * timed with clock_gettime(CLOCK_MONOTONIC); the table gives the median run's
 * ns per operation. Inputs vary from operation to operation (progress
 * i / 1023, seeded starts) so no branch predictor or cache sees one value;
 * results are summed into a volatile sink so no call is optimized away. */
#define _POSIX_C_SOURCE 199309L

#include "tools/cli/bench.h"
#include "tools/cli/bench_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <math.h>

#include "lib/anim/src/import/gltf/meshopt.h"
#include "lib/anim/src/import/draco/draco.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/ik_fixtures.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/spring_fixtures.h"
#include "lib/anim/test/fixtures/morph_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/anim/test/fixtures/skinning_fixtures.h"
#include "lib/core/detmath.h"
#include "lib/core/json/json.h"
#include "lib/core/rng.h"
#include "maul/anim/blend.h"
#include "maul/anim/clip.h"
#include "maul/anim/ik.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/spring.h"
#include "maul/anim/morph.h"
#include "maul/anim/pose.h"
#include "maul/anim/skinning.h"
#include "maul/tween/clip.h"
#include "maul/tween/context.h"
#include "maul/tween/easing.h"
#include "maul/tween/player.h"
#include "maul/tween/target.h"
#include "maul/tween/transition.h"
#include "maul/tween/interpolate.h"
#include "maul/tween/path.h"
#include "maul/tween/spring.h"

#define MAUL_BENCH_RUNS 5

volatile double maul_benchSink;
static const char* maul_benchFilter; /* run only cases whose name contains it; NULL: all */

/* Whether a case is wanted: its name contains the filter, not as the start
 * of a longer number (a filter ending in "-1000" does not take "-10000").
 * The tween-update callgrind counts in docs/performance.md were three times
 * too high when the 1,000 case's filter ran the 10,000 and 100,000 too. */
static int maul_Wanted(const char* name) {
    size_t n;
    if (maul_benchFilter == NULL) return 1;
    n = strlen(maul_benchFilter);
    for (const char* p = strstr(name, maul_benchFilter); p != NULL; p = strstr(p + 1, maul_benchFilter)) {
        char next = p[n];
        int endsInDigit = n > 0 && maul_benchFilter[n - 1] >= '0' && maul_benchFilter[n - 1] <= '9';
        if (!(endsInDigit && next >= '0' && next <= '9')) return 1;
    }
    return 0;
}

int maul_BenchWants(const char* name) { return maul_Wanted(name); }

/* MAUL_BENCH_CPU=1 times the calling thread's CPU time instead of the wall
 * clock: on a shared machine it is the figure load dilutes least
 * (tools/tween-bench/run.sh sets it and times the JavaScript engines the same
 * way). */
static double maul_Now(void) {
    static int useCpu = -1;
    if (useCpu < 0) {
        const char* e = getenv("MAUL_BENCH_CPU");
        useCpu = e != NULL && e[0] == '1';
    }
    struct timespec ts;
    clock_gettime(useCpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int maul_CompareDouble(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double maul_Progress(uint32_t i) { return (double)(i & 1023u) / 1023.0; }

/* -- Pose ---------------------------------------------------------------------- */

typedef struct maul_PoseState {
    maniSkeletonSource source;
    void* file;
    void* memory;
    maniSkeleton skeleton;
    maniPose* pose;
} maul_PoseState;

static int maul_PoseOpen(maul_PoseState* s, uint32_t bones) {
    memset(s, 0, sizeof *s);
    s->source = maniFixtureMakeSkeletonSource(0xBE7C + bones, bones, maniFixtureRandom);
    size_t size = 0;
    s->file = maniFixtureBuildSkeleton(&s->source, &size);
    if (s->file == NULL || maniOpenSkeleton(s->file, size, &s->skeleton).result != mani_success) return 0;
    const size_t poseSize = maniSkeleton_GetPoseSize(&s->skeleton);
    s->memory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + MANI_POSE_ALIGNMENT - 1) / MANI_POSE_ALIGNMENT *
                                                       MANI_POSE_ALIGNMENT);
    return s->memory != NULL && maniInitPose(&s->skeleton, s->memory, poseSize, &s->pose) == mani_success;
}

static void maul_PoseClose(maul_PoseState* s) {
    free(s->memory);
    free(s->file);
    maniFixtureFreeSkeletonSource(&s->source);
}

static uint64_t maul_RunComputeModel(void* state, uint32_t iterations) {
    maul_PoseState* s = (maul_PoseState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i) failed += maniPose_ComputeModel(s->pose, &s->skeleton) != mani_success;
    maul_benchSink += maniPose_GetModel(s->pose, 0).columns[0].x;
    return failed;
}

/* -- Mirroring ----------------------------------------------------------------- */

/* A seeded symmetric rig (lib/anim/test/fixtures/mirror_fixtures.h), its
 * mirror map across x, and a seeded pose mirrored into a second pose. */
typedef struct maul_MirrorState {
    maniSkeletonSource source;
    void* file;
    void* mapFile;
    void* memory[2];
    maniSkeleton skeleton;
    maniMirrorMap map;
    maniPose* pose[2];
} maul_MirrorState;

static void maul_MirrorClose(maul_MirrorState* s) {
    free(s->memory[0]);
    free(s->memory[1]);
    free(s->mapFile);
    free(s->file);
    maniFixtureFreeMirrorRig(&s->source);
}

static int maul_MirrorOpen(maul_MirrorState* s, uint32_t chains, uint32_t length, int turned) {
    memset(s, 0, sizeof *s);
    s->source = maniFixtureMakeMirrorRig(0x313 + chains * length, 0, chains, length, turned);
    size_t size = 0;
    s->file = maniFixtureBuildSkeleton(&s->source, &size);
    if (s->file == NULL || maniOpenSkeleton(s->file, size, &s->skeleton).result != mani_success) return 0;
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 0;
    maniMirrorMapSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = &s->skeleton;
    src.rules = maniFixtureMirrorRules;
    src.ruleCount = 2;
    const int built = maniBuildMirrorMap(b, &src).result == mani_success;
    s->mapFile = built ? maniFixtureCopyBuilt(b, 16, &size) : NULL;
    maniDestroyBuilder(b);
    if (s->mapFile == NULL || maniOpenMirrorMap(s->mapFile, size, &s->map).result != mani_success) return 0;
    const size_t poseSize = maniSkeleton_GetPoseSize(&s->skeleton);
    for (int k = 0; k < 2; ++k) {
        s->memory[k] = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + MANI_POSE_ALIGNMENT - 1) / MANI_POSE_ALIGNMENT *
                                                              MANI_POSE_ALIGNMENT);
        if (s->memory[k] == NULL || maniInitPose(&s->skeleton, s->memory[k], poseSize, &s->pose[k]) != mani_success)
            return 0;
    }
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0x3177);
    for (uint32_t i = 0; i < s->source.boneCount; ++i) {
        maniTransform t = maniPose_GetLocal(s->pose[0], i);
        t.translation.x += mcore_RngFloatRange(&rng, -0.5f, 0.5f);
        t.rotation.y += mcore_RngFloatRange(&rng, -0.1f, 0.1f);
        maniPose_SetLocal(s->pose[0], i, t);
    }
    return 1;
}

static uint64_t maul_RunMirrorPose(void* state, uint32_t iterations) {
    maul_MirrorState* s = (maul_MirrorState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i)
        failed += maniMirrorMap_MirrorPose(&s->map, &s->skeleton, s->pose[0], s->pose[1]) != mani_success;
    maul_benchSink += maniPose_GetLocal(s->pose[1], 0).translation.x;
    return failed;
}

static uint64_t maul_RunMirrorComputeModel(void* state, uint32_t iterations) {
    maul_MirrorState* s = (maul_MirrorState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i) failed += maniPose_ComputeModel(s->pose[0], &s->skeleton) != mani_success;
    maul_benchSink += maniPose_GetModel(s->pose[0], 0).columns[0].x;
    return failed;
}

/* -- Blending ------------------------------------------------------------------ */

#define MAUL_BLEND_MAX_LAYERS 4

/* A skeleton, its output pose (in pose) and layer poses of seeded locals. */
typedef struct maul_BlendState {
    maul_PoseState pose;
    void* memory[MAUL_BLEND_MAX_LAYERS];
    maniBlendLayer layers[MAUL_BLEND_MAX_LAYERS];
    uint32_t count;
} maul_BlendState;

static void maul_BlendClose(maul_BlendState* s) {
    for (uint32_t k = 0; k < MAUL_BLEND_MAX_LAYERS; ++k) free(s->memory[k]);
    maul_PoseClose(&s->pose);
}

static int maul_BlendOpen(maul_BlendState* s, uint32_t bones, uint32_t count) {
    memset(s, 0, sizeof *s);
    s->count = count;
    if (!maul_PoseOpen(&s->pose, bones)) return 0;
    const size_t poseSize = maniSkeleton_GetPoseSize(&s->pose.skeleton);
    const size_t rounded = (poseSize + MANI_POSE_ALIGNMENT - 1) / MANI_POSE_ALIGNMENT * MANI_POSE_ALIGNMENT;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0xB1E7u + bones);
    for (uint32_t k = 0; k < count; ++k) {
        maniPose* pose = NULL;
        s->memory[k] = aligned_alloc(MANI_POSE_ALIGNMENT, rounded);
        if (s->memory[k] == NULL || maniInitPose(&s->pose.skeleton, s->memory[k], poseSize, &pose) != mani_success) return 0;
        for (uint32_t b = 0; b < bones; ++b) {
            /* One draw a statement: an initializer list's order is unspecified. */
            float v[7], n = 0.0f;
            for (int c = 0; c < 7; ++c) v[c] = mcore_RngFloatRange(&rng, -1.0f, 1.0f);
            for (int c = 3; c < 7; ++c) n += v[c] * v[c];
            n = sqrtf(n > 0.0f ? n : 1.0f);
            maniTransform t = {{v[0], v[1], v[2]}, {v[3] / n, v[4] / n, v[5] / n, v[6] / n}, {1.0f, 1.0f, 1.0f}};
            maniPose_SetLocal(pose, b, t);
        }
        s->layers[k].pose = pose;
        s->layers[k].weight = 1.0f / (float)(k + 1);
        s->layers[k].boneWeights = NULL;
    }
    return 1;
}

static uint64_t maul_RunBlend(void* state, uint32_t iterations) {
    maul_BlendState* s = (maul_BlendState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i)
        failed += maniSkeleton_BlendPoses(&s->pose.skeleton, s->layers, s->count, 0.1f, s->pose.pose) != mani_success;
    maul_benchSink += maniPose_GetLocal(s->pose.pose, 0).translation.x;
    return failed;
}

/* -- Easings ------------------------------------------------------------------- */

static uint64_t maul_RunEasing(void* state, uint32_t iterations) {
    const mtwnEasing* e = (const mtwnEasing*)state;
    uint64_t failed = 0;
    double sum = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        double v = 0;
        failed += mtwnSampleEasing(e, maul_Progress(i), false, &v) != mtwn_success;
        sum += v;
    }
    maul_benchSink += sum;
    return failed;
}

static uint64_t maul_RunCubicBezier(void* state, uint32_t iterations) {
    const mtwnEasing* e = (const mtwnEasing*)state;
    uint64_t failed = 0;
    double sum = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        double v = 0;
        failed += mtwnSampleCubicBezierEasing(e, maul_Progress(i), &v) != mtwn_success;
        sum += v;
    }
    maul_benchSink += sum;
    return failed;
}

/* -- Spring, colours, path ------------------------------------------------------- */

static uint64_t maul_RunSpring(void* state, uint32_t iterations) {
    const mtwnSpring* s = (const mtwnSpring*)state;
    uint64_t failed = 0;
    double sum = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        double x = 0, v = 0;
        failed += mtwnSampleSpring(s, -1.0 + maul_Progress(i * 7u), 3.0, maul_Progress(i) * 2.0, &x, &v) !=
                  mtwn_success;
        sum += x + v;
    }
    maul_benchSink += sum;
    return failed;
}

static uint64_t maul_RunColor(void* state, uint32_t iterations) {
    const mtwnColorMix* mix = (const mtwnColorMix*)state;
    uint64_t failed = 0;
    double sum = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        mtwnColor c = {0, 0, 0, 0};
        failed += mtwnMixColor(mix, maul_Progress(i), &c) != mtwn_success;
        sum += (double)c.r;
    }
    maul_benchSink += sum;
    return failed;
}

typedef struct maul_PathState {
    mtwnKeyframe keys[8];
    double lengths[8];
    mtwnPath path;
} maul_PathState;

static int maul_PathOpen(maul_PathState* s) {
    memset(s, 0, sizeof *s);
    for (uint32_t i = 0; i < 8; ++i) {
        mtwnKeyframe* k = &s->keys[i];
        k->offset = (double)i / 7.0;
        k->value[0] = (double)i;
        k->value[1] = (double)((i * 5u) % 7u) - 3.0;
        k->value[2] = (double)(i % 3u);
        k->kind = mtwn_segmentCatmullRom;
        k->easing = mtwnMakeLinearEasing();
    }
    return mtwnMakePath(s->keys, 8, 3, 0.5, s->lengths, &s->path) == mtwn_success;
}

static uint64_t maul_RunPath(void* state, uint32_t iterations) {
    const maul_PathState* s = (const maul_PathState*)state;
    uint64_t failed = 0;
    double sum = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        double v[4];
        failed += mtwnSamplePath(&s->path, maul_Progress(i), v, NULL) != mtwn_success;
        sum += v[0];
    }
    maul_benchSink += sum;
    return failed;
}

/* -- Math core and kernels ("core-*") ------------------------------------------------
 *
 * core-<fn>-f64/-f32: the math core's function (lib/core/detmath.h) and the C
 * library's, both called through a function pointer on the same 4096 inputs
 * (uniform in the function's ordinary domain, cycled), ns per call, and their
 * ratio. core-kernel-<name>: the configured backend's kernel (maniSimd_*) on
 * batches of 64 groups, ns per 8-lane group. */

#define MAUL_CORE_INPUTS 4096
#define MAUL_CORE_GROUPS 64

static double maul_coreX64[MAUL_CORE_INPUTS], maul_coreY64[MAUL_CORE_INPUTS];
static float maul_coreX32[MAUL_CORE_INPUTS], maul_coreY32[MAUL_CORE_INPUTS];

typedef struct maul_CoreFn {
    const char* name;
    double (*f64)(double);
    double (*g64)(double, double);
    float (*f32)(float);
    float (*g32)(float, float);
    double xlo, xhi, ylo, yhi;
} maul_CoreFn;

static double maul_CoreUnit(uint64_t* state) {
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return (double)(*state >> 11) * 0x1p-53;
}

static void maul_CoreInputs(const maul_CoreFn* f) {
    uint64_t st = 0xC0DEu;
    for (int i = 0; i < MAUL_CORE_INPUTS; ++i) {
        maul_coreX64[i] = f->xlo + (f->xhi - f->xlo) * maul_CoreUnit(&st);
        maul_coreY64[i] = f->ylo + (f->yhi - f->ylo) * maul_CoreUnit(&st);
        maul_coreX32[i] = (float)maul_coreX64[i];
        maul_coreY32[i] = (float)maul_coreY64[i];
    }
}

/* One timed run state: which function, which precision, whose. */
typedef struct maul_CoreRun {
    const maul_CoreFn* core;
    const maul_CoreFn* libc;
    int f32;
    int useLibc;
} maul_CoreRun;

static uint64_t maul_RunCoreFn(void* state, uint32_t iterations) {
    const maul_CoreRun* r = (const maul_CoreRun*)state;
    const maul_CoreFn* f = r->useLibc ? r->libc : r->core;
    double sum = 0;
    const uint32_t m = MAUL_CORE_INPUTS - 1;
    if (!r->f32 && f->f64)
        for (uint32_t i = 0; i < iterations; ++i) sum += f->f64(maul_coreX64[i & m]);
    else if (!r->f32)
        for (uint32_t i = 0; i < iterations; ++i) sum += f->g64(maul_coreX64[i & m], maul_coreY64[i & m]);
    else if (f->f32)
        for (uint32_t i = 0; i < iterations; ++i) sum += (double)f->f32(maul_coreX32[i & m]);
    else
        for (uint32_t i = 0; i < iterations; ++i) sum += (double)f->g32(maul_coreX32[i & m], maul_coreY32[i & m]);
    maul_benchSink += sum;
    return 0;
}

/* The median ns per operation of c (warm-up, then MAUL_BENCH_RUNS runs). */
static double maul_Median(const maul_BenchCase* c) {
    double ns[MAUL_BENCH_RUNS];
    c->run(c->state, c->iterations);
    for (int r = 0; r < MAUL_BENCH_RUNS; ++r) {
        const double t0 = maul_Now();
        c->run(c->state, c->iterations);
        ns[r] = (maul_Now() - t0) / (double)c->iterations;
    }
    qsort(ns, MAUL_BENCH_RUNS, sizeof ns[0], maul_CompareDouble);
    return ns[MAUL_BENCH_RUNS / 2];
}

#define MAUL_U(n, lo, hi) {#n, mcore_##n, NULL, mcore_##n##f, NULL, lo, hi, 0, 1}
#define MAUL_B(n, xl, xh, yl, yh) {#n, NULL, mcore_##n, NULL, mcore_##n##f, xl, xh, yl, yh}
#define MAUL_LU(n, lo, hi) {#n, n, NULL, n##f, NULL, lo, hi, 0, 1}
#define MAUL_LB(n, xl, xh, yl, yh) {#n, NULL, n, NULL, n##f, xl, xh, yl, yh}
#define MAUL_CORE_FNS(U, B)                                                                              \
    U(sin, -8, 8), U(cos, -8, 8), U(tan, -8, 8), U(asin, -1, 1), U(acos, -1, 1), U(atan, -10, 10),     \
        U(exp, -20, 20), U(exp2, -30, 30), U(expm1, -2, 2), U(log, 1e-3, 4), U(log2, 1e-3, 4),         \
        U(log1p, -0.9, 4), U(sinh, -5, 5), U(cosh, -5, 5), U(tanh, -5, 5), U(cbrt, -10, 10),           \
        B(atan2, -10, 10, -10, 10), B(pow, 1e-3, 4, -10, 10), B(hypot, -10, 10, -10, 10),              \
        B(fmod, -100, 100, 0.5, 10)

static const maul_CoreFn maul_coreFns[] = {MAUL_CORE_FNS(MAUL_U, MAUL_B)};
static const maul_CoreFn maul_libcFns[] = {MAUL_CORE_FNS(MAUL_LU, MAUL_LB)};

enum {
    maul_kAdd, maul_kMul, maul_kDiv, maul_kMin, maul_kSqrt, maul_kSelect, maul_kCmpLt, maul_kQuatMul,
    maul_kQuatNormalize, maul_kQuatNlerp, maul_kQuatConjugate, maul_kQuatInverse, maul_kQuatRotateVec3,
    maul_kQuatFromMat3, maul_kQuatToMat3, maul_kTransformMul, maul_kTransformToAffine, maul_kAffineMul,
    maul_kAffineTransformPoint, maul_kAffineInverse, maul_kSin, maul_kCos, maul_kSinCos, maul_kAtan2, maul_kAcos,
    maul_kCount
};
static const char* const maul_kernelNames[maul_kCount] = {
    "add", "mul", "div", "min", "sqrt", "select", "cmplt", "quatmul", "quatnormalize", "quatnlerp",
    "quatconjugate", "quatinverse", "quatrotatevec3", "quatfrommat3", "quattomat3", "transformmul",
    "transformtoaffine", "affinemul", "affinetransformpoint", "affineinverse", "sin", "cos", "sincos", "atan2",
    "acos",
};

/* Inputs: every group type is a run of Floatx8 fields (simd.h); at most 12. */
typedef struct maul_KernelState {
    maniSimdFloatx8 a[MAUL_CORE_GROUPS * 12], b[MAUL_CORE_GROUPS * 12], t[MAUL_CORE_GROUPS];
    maniSimdFloatx8 out[MAUL_CORE_GROUPS * 12], out2[MAUL_CORE_GROUPS];
    maniSimdMaskx8 mask[MAUL_CORE_GROUPS];
    int kernel;
} maul_KernelState;

#define MAUL_AS(T, p) ((T*)(void*)(p))

static uint64_t maul_RunKernel(void* state, uint32_t iterations) {
    maul_KernelState* s = (maul_KernelState*)state;
    const size_t n = MAUL_CORE_GROUPS;
    maniSimdFloatx8 *a = s->a, *b = s->b, *o = s->out;
    for (uint32_t i = 0; i < iterations; ++i) switch (s->kernel) {
        case maul_kAdd: maniSimd_Add(o, a, b, n); break;
        case maul_kMul: maniSimd_Mul(o, a, b, n); break;
        case maul_kDiv: maniSimd_Div(o, a, b, n); break;
        case maul_kMin: maniSimd_Min(o, a, b, n); break;
        case maul_kSqrt: maniSimd_Sqrt(o, a, n); break;
        case maul_kSelect: maniSimd_Select(o, s->mask, a, b, n); break;
        case maul_kCmpLt: maniSimd_CmpLt(s->mask, a, b, n); break;
        case maul_kQuatMul:
            maniSimd_QuatMul(MAUL_AS(maniSimdQuatx8, o), MAUL_AS(maniSimdQuatx8, a), MAUL_AS(maniSimdQuatx8, b), n);
            break;
        case maul_kQuatNormalize: maniSimd_QuatNormalize(MAUL_AS(maniSimdQuatx8, o), MAUL_AS(maniSimdQuatx8, a), n); break;
        case maul_kQuatNlerp:
            maniSimd_QuatNlerp(MAUL_AS(maniSimdQuatx8, o), MAUL_AS(maniSimdQuatx8, a), MAUL_AS(maniSimdQuatx8, b), s->t,
                               n);
            break;
        case maul_kQuatConjugate: maniSimd_QuatConjugate(MAUL_AS(maniSimdQuatx8, o), MAUL_AS(maniSimdQuatx8, a), n); break;
        case maul_kQuatInverse: maniSimd_QuatInverse(MAUL_AS(maniSimdQuatx8, o), MAUL_AS(maniSimdQuatx8, a), n); break;
        case maul_kQuatRotateVec3:
            maniSimd_QuatRotateVec3(MAUL_AS(maniSimdVec3x8, o), MAUL_AS(maniSimdQuatx8, a), MAUL_AS(maniSimdVec3x8, b), n);
            break;
        case maul_kQuatFromMat3: maniSimd_QuatFromMat3(MAUL_AS(maniSimdQuatx8, o), MAUL_AS(maniSimdMat3x8, a), n); break;
        case maul_kQuatToMat3: maniSimd_QuatToMat3(MAUL_AS(maniSimdMat3x8, o), MAUL_AS(maniSimdQuatx8, a), n); break;
        case maul_kTransformMul:
            maniSimd_TransformMul(MAUL_AS(maniSimdTransformx8, o), MAUL_AS(maniSimdTransformx8, a),
                                  MAUL_AS(maniSimdTransformx8, b), n);
            break;
        case maul_kTransformToAffine:
            maniSimd_TransformToAffine(MAUL_AS(maniSimdAffinex8, o), MAUL_AS(maniSimdTransformx8, a), n);
            break;
        case maul_kAffineMul:
            maniSimd_AffineMul(MAUL_AS(maniSimdAffinex8, o), MAUL_AS(maniSimdAffinex8, a), MAUL_AS(maniSimdAffinex8, b), n);
            break;
        case maul_kAffineTransformPoint:
            maniSimd_AffineTransformPoint(MAUL_AS(maniSimdVec3x8, o), MAUL_AS(maniSimdAffinex8, a),
                                          MAUL_AS(maniSimdVec3x8, b), n);
            break;
        case maul_kAffineInverse: maniSimd_AffineInverse(MAUL_AS(maniSimdAffinex8, o), MAUL_AS(maniSimdAffinex8, a), n); break;
        case maul_kSin: maniSimd_Sin(o, a, n); break;
        case maul_kCos: maniSimd_Cos(o, a, n); break;
        case maul_kSinCos: maniSimd_SinCos(o, s->out2, a, n); break;
        case maul_kAtan2: maniSimd_Atan2(o, a, b, n); break;
        case maul_kAcos: maniSimd_Acos(o, s->t, n); break;
        default: return 1;
    }
    maul_benchSink += (double)s->out[0].v[0];
    return 0;
}

#undef MAUL_AS

static int maul_BenchCore(FILE* out) {
    int status = 0, header = 0;
    char name[48];
    for (size_t i = 0; i < sizeof maul_coreFns / sizeof maul_coreFns[0]; ++i)
        for (int f32 = 0; f32 < 2; ++f32) {
            snprintf(name, sizeof name, "core-%s-%s", maul_coreFns[i].name, f32 ? "f32" : "f64");
            if (!maul_Wanted(name)) continue;
            if (!header++)
                fprintf(out, "\n%-26s %10s %12s %12s %8s\n", "case", "iterations", "mcore ns", "libc ns", "ratio");
            maul_CoreInputs(&maul_coreFns[i]);
            maul_CoreRun run = {&maul_coreFns[i], &maul_libcFns[i], f32, 0};
            const maul_BenchCase c = {name, 1000000, 0, maul_RunCoreFn, &run};
            const double core = maul_Median(&c);
            run.useLibc = 1;
            const double libc = maul_Median(&c);
            fprintf(out, "%-26s %10u %12.2f %12.2f %8.2f\n", name, c.iterations, core, libc, core / libc);
        }

    maul_KernelState* k = (maul_KernelState*)aligned_alloc(MANI_SIMD_ALIGN, sizeof(maul_KernelState));
    if (k == NULL) return 1;
    uint64_t st = 0x5EEDu;
    for (size_t g = 0; g < MAUL_CORE_GROUPS * 12; ++g)
        for (int l = 0; l < MANI_SIMD_LANES; ++l) {
            k->a[g].v[l] = (float)(maul_CoreUnit(&st) * 2.0 - 1.0);
            k->b[g].v[l] = (float)(maul_CoreUnit(&st) * 2.0 - 1.0);
        }
    for (size_t g = 0; g < MAUL_CORE_GROUPS; ++g)
        for (int l = 0; l < MANI_SIMD_LANES; ++l) {
            k->t[g].v[l] = (float)maul_CoreUnit(&st);
            k->mask[g].m[l] = (uint32_t)(maul_CoreUnit(&st) < 0.5 ? 0u : 0xFFFFFFFFu);
        }
    header = 0;
    for (int i = 0; i < maul_kCount; ++i) {
        snprintf(name, sizeof name, "core-kernel-%s", maul_kernelNames[i]);
        if (!maul_Wanted(name)) continue;
        if (!header++)
            fprintf(out, "\n%-26s %10s %12s %12s  (backend %s)\n", "case", "iterations", "ns/group", "ns/lane",
                    MANI_SIMD_BACKEND_NAME);
        k->kernel = i;
        const maul_BenchCase c = {name, 20000, 0, maul_RunKernel, k};
        const double perGroup = maul_Median(&c) / MAUL_CORE_GROUPS;
        fprintf(out, "%-26s %10u %12.2f %12.3f\n", name, c.iterations * MAUL_CORE_GROUPS, perGroup,
                perGroup / MANI_SIMD_LANES);
    }
    free(k);
    return status;
}

/* -- Morph targets ("morph-*") ------------------------------------------------------
 *
 * morph-<kind>-<vertices>: maniApplyMorphTargets over a seeded mesh's five
 * streams (position, normal, tangent, texture coordinates, color) with the
 * targets of 24 seeded channels (in-betweens included; morph_fixtures.h) at
 * target weights from seeded channel weights: sparse targets (about a tenth
 * of the vertices each), dense ones, or a mix. ns per job, ns per vertex
 * (all five streams) and morphed vertices per second. */


typedef struct maul_MorphState {
    maniFixtureMorph fixture;
    maniFixtureMorphMesh in, out;
    void* file;
    maniMorphTargets targets;
    float* weights;
    maniMorphStream streams[5];
    uint32_t vertices;
} maul_MorphState;

#define MAUL_MORPH_CHANNELS 24u

static int maul_MorphOpen(maul_MorphState* s, maniFixtureMorphKind kind, uint32_t vertices) {
    memset(s, 0, sizeof *s);
    s->vertices = vertices;
    if (!maniFixtureMakeMorph(&s->fixture, 0x3B0F + (uint64_t)kind, vertices, MAUL_MORPH_CHANNELS, kind)) return 0;
    size_t size = 0;
    s->file = maniFixtureBuildMorph(&s->fixture.source, &size);
    if (s->file == NULL || maniOpenMorphTargets(s->file, size, &s->targets).result != mani_success) return 0;
    if (!maniFixtureMakeMorphMesh(&s->in, 0x3B1F, vertices) || !maniFixtureMakeMorphMesh(&s->out, 0x3B1F, vertices))
        return 0;
    const uint32_t targets = maniMorphTargets_GetTargetCount(&s->targets);
    s->weights = (float*)malloc(targets * sizeof(float));
    float channelWeights[MAUL_MORPH_CHANNELS];
    for (uint32_t c = 0; c < MAUL_MORPH_CHANNELS; ++c) channelWeights[c] = (float)((c * 7u) % 11u) / 8.0f - 0.25f;
    if (s->weights == NULL ||
        maniMorphTargets_ComputeTargetWeights(&s->targets, channelWeights, s->weights, targets, NULL) != mani_success)
        return 0;
    maniFixtureMorphStreams(&s->in, &s->out, s->streams);
    return 1;
}

static void maul_MorphClose(maul_MorphState* s) {
    free(s->weights);
    free(s->file);
    maniFixtureFreeMorphMesh(&s->in);
    maniFixtureFreeMorphMesh(&s->out);
    maniFixtureFreeMorph(&s->fixture);
}

static uint64_t maul_RunMorph(void* state, uint32_t iterations) {
    maul_MorphState* s = (maul_MorphState*)state;
    uint64_t failed = 0;
    const maniMorphJob job = {&s->targets, s->weights, s->streams, 5, 0, s->vertices};
    for (uint32_t i = 0; i < iterations; ++i) failed += maniApplyMorphTargets(&job) != mani_success;
    maul_benchSink += s->out.position[0];
    return failed;
}

static int maul_BenchMorph(FILE* out) {
    static const char* kinds[3] = {"mixed", "sparse", "dense"};
    static const uint32_t vertices[2] = {1000, 20000};
    int status = 0, header = 0;
    char name[48];
    for (int k = 0; k < 3; ++k)
        for (int v = 0; v < 2; ++v) {
            snprintf(name, sizeof name, "morph-%s-%u", kinds[k], vertices[v]);
            if (!maul_Wanted(name)) continue;
            if (!header++)
                fprintf(out, "\n%-26s %10s %12s %12s %14s  (backend %s)\n", "case", "iterations", "ns/job",
                        "ns/vertex", "vertices/s", MANI_SIMD_BACKEND_NAME);
            maul_MorphState* s = (maul_MorphState*)malloc(sizeof *s);
            if (s == NULL || !maul_MorphOpen(s, (maniFixtureMorphKind)k, vertices[v])) {
                maul_SetupFailed(out, name);
                if (s != NULL) maul_MorphClose(s);
                free(s);
                status = 1;
                continue;
            }
            const maul_BenchCase c = {name, vertices[v] >= 20000 ? 5 : 100, 0, maul_RunMorph, s};
            const uint64_t failed = maul_RunMorph(s, 1);
            const double ns = maul_Median(&c), perVertex = ns / (double)vertices[v];
            fprintf(out, "%-26s %10u %12.0f %12.2f %14.3e\n", name, c.iterations, ns, perVertex, 1e9 / perVertex);
            if (failed) {
                fprintf(out, "%-26s (calls failed)\n", name);
                status = 1;
            }
            maul_MorphClose(s);
            free(s);
        }
    return status;
}

/* -- Meshopt stream decoding ---------------------------------------------------------- */

/* maniMeshoptDecode (the glTF importer's EXT/KHR_meshopt_compression decoder)
 * over streams made here by small encoders written from the specification
 * (the bench has no meshoptimizer): ATTRIBUTES v0 picking each group's
 * smallest coding, TRIANGLES with edge/vertex FIFO codes where they apply and
 * explicit triangles otherwise, INDICES with one baseline. The inputs are a
 * seeded 256 x 256 grid mesh: 16-byte vertices (quantized positions, octahedral
 * normals, texture coordinates), its 393216 triangle indices, and the same
 * indices as a sequence. MB/s counts decoded output bytes. */

typedef struct maul_MoWriter {
    uint8_t* p;
    size_t n, cap;
} maul_MoWriter;

static void maul_MoPut(maul_MoWriter* w, uint8_t b) {
    if (w->n < w->cap) w->p[w->n] = b;
    w->n++;
}

static void maul_MoVarint(maul_MoWriter* w, uint32_t v) {
    while (v >= 0x80u) {
        maul_MoPut(w, (uint8_t)(v | 0x80u));
        v >>= 7;
    }
    maul_MoPut(w, (uint8_t)v);
}

static size_t maul_MoEncodeAttributes(uint8_t* dst, size_t cap, const uint8_t* src, size_t count, size_t stride) {
    maul_MoWriter w = {dst, 0, cap};
    maul_MoPut(&w, 0xa0);
    size_t maxBlock = (8192 / stride) & ~(size_t)15;
    if (maxBlock > 256) maxBlock = 256;
    uint8_t deltas[256];
    for (size_t done = 0; done < count; done += maxBlock) {
        size_t n = count - done < maxBlock ? count - done : maxBlock;
        size_t groups = (n + 15) / 16;
        for (size_t k = 0; k < stride; ++k) {
            memset(deltas, 0, sizeof deltas);
            for (size_t i = 0; i < n; ++i) {
                size_t e = done + i;
                uint8_t prev = e == 0 ? src[k] : src[(e - 1) * stride + k]; /* baseline: element 0 */
                uint8_t d = (uint8_t)(src[e * stride + k] - prev);
                deltas[i] = (uint8_t)((d & 0x80u) ? ~(d << 1) : (d << 1));
            }
            size_t headerAt = w.n;
            for (size_t h = 0; h < (groups + 3) / 4; ++h) maul_MoPut(&w, 0);
            for (size_t g = 0; g < groups; ++g) {
                static const unsigned widths[4] = {0, 2, 4, 8};
                const uint8_t* d = deltas + 16 * g;
                unsigned best = 3;
                size_t bestSize = 16;
                for (unsigned m = 0; m < 3; ++m) {
                    unsigned wd = widths[m], sentinel = (1u << wd) - 1u;
                    size_t size = 2u * wd;
                    int ok = 1;
                    for (unsigned i = 0; i < 16; ++i) {
                        if (wd == 0 && d[i] != 0) ok = 0;
                        if (wd != 0 && d[i] >= sentinel) size++;
                    }
                    if (ok && size < bestSize) {
                        best = m;
                        bestSize = size;
                    }
                }
                if (headerAt + g / 4 < w.cap) w.p[headerAt + g / 4] |= (uint8_t)(best << (2 * (g % 4)));
                unsigned wd = widths[best], sentinel = (1u << wd) - 1u;
                if (wd == 8) {
                    for (unsigned i = 0; i < 16; ++i) maul_MoPut(&w, d[i]);
                } else if (wd != 0) {
                    for (unsigned i = 0; i < 16; i += 8 / wd) {
                        unsigned b = 0;
                        for (unsigned j = 0; j < 8 / wd; ++j) {
                            unsigned v = d[i + j] < sentinel ? d[i + j] : sentinel;
                            b |= v << (8 - wd * (j + 1));
                        }
                        maul_MoPut(&w, (uint8_t)b);
                    }
                    for (unsigned i = 0; i < 16; ++i)
                        if (d[i] >= sentinel) maul_MoPut(&w, d[i]);
                }
            }
        }
    }
    for (size_t i = stride; i < 32; ++i) maul_MoPut(&w, 0);
    for (size_t k = 0; k < stride; ++k) maul_MoPut(&w, src[k]);
    return w.n;
}

typedef struct maul_MoFifos {
    uint32_t ea[16], eb[16], v[16];
    unsigned eh, ec, vh, vc;
    uint32_t next, last;
} maul_MoFifos;

static void maul_MoPushEdge(maul_MoFifos* f, uint32_t a, uint32_t b) {
    f->ea[f->eh] = a;
    f->eb[f->eh] = b;
    f->eh = (f->eh + 1) & 15u;
    if (f->ec < 16) f->ec++;
}

static void maul_MoPushVertex(maul_MoFifos* f, uint32_t v) {
    f->v[f->vh] = v;
    f->vh = (f->vh + 1) & 15u;
    if (f->vc < 16) f->vc++;
}

static uint32_t maul_MoZigzag(uint32_t d) { return (d << 1) ^ (uint32_t)(-(int32_t)(d >> 31)); }

static size_t maul_MoEncodeTriangles(uint8_t* dst, size_t cap, const uint32_t* idx, size_t count) {
    size_t triangles = count / 3;
    maul_MoWriter codes = {dst, 0, cap};
    maul_MoPut(&codes, 0xe1);
    codes.n += triangles; /* codes first, data after them */
    maul_MoWriter data = {dst, codes.n, cap};
    maul_MoFifos f;
    memset(&f, 0, sizeof f);
    for (size_t t = 0; t < triangles; ++t) {
        const uint32_t* tri = idx + 3 * t;
        int done = 0;
        for (unsigned r = 0; r < 3 && !done; ++r) {
            uint32_t a = tri[r], b = tri[(r + 1) % 3], c = tri[(r + 2) % 3];
            for (unsigned x = 0; x < f.ec && x < 15 && !done; ++x) {
                unsigned e = (f.eh + 15u - x) & 15u;
                if (f.ea[e] != a || f.eb[e] != b) continue;
                unsigned y = 16;
                for (unsigned k = 1; k < f.vc && k < 13; ++k)
                    if (f.v[(f.vh + 15u - k) & 15u] == c) y = k;
                uint8_t code;
                if (c == f.next) {
                    code = (uint8_t)(x << 4);
                    f.next++;
                    maul_MoPushVertex(&f, c);
                } else if (y < 16) {
                    code = (uint8_t)((x << 4) | y);
                } else {
                    code = (uint8_t)((x << 4) | 15u);
                    maul_MoVarint(&data, maul_MoZigzag(c - f.last));
                    f.last = c;
                    maul_MoPushVertex(&f, c);
                }
                if (1 + t < cap) dst[1 + t] = code;
                maul_MoPushEdge(&f, c, b);
                maul_MoPushEdge(&f, a, c);
                done = 1;
            }
        }
        if (done) continue;
        /* explicit: 0xfe when a is next, else 0xff; b and c explicit (0xff byte) */
        uint32_t a = tri[0], b = tri[1], c = tri[2];
        int fe = a == f.next;
        if (1 + t < cap) dst[1 + t] = fe ? 0xfe : 0xff;
        maul_MoPut(&data, 0xff);
        if (fe) {
            f.next++;
        } else {
            maul_MoVarint(&data, maul_MoZigzag(a - f.last));
            f.last = a;
        }
        maul_MoVarint(&data, maul_MoZigzag(b - f.last));
        f.last = b;
        maul_MoVarint(&data, maul_MoZigzag(c - f.last));
        f.last = c;
        maul_MoPushEdge(&f, b, a);
        maul_MoPushEdge(&f, c, b);
        maul_MoPushEdge(&f, a, c);
        maul_MoPushVertex(&f, a);
        maul_MoPushVertex(&f, b);
        maul_MoPushVertex(&f, c);
    }
    for (int i = 0; i < 16; ++i) maul_MoPut(&data, 0); /* codeaux: all 0x00 (unused) */
    return data.n;
}

static size_t maul_MoEncodeIndices(uint8_t* dst, size_t cap, const uint32_t* idx, size_t count) {
    maul_MoWriter w = {dst, 0, cap};
    maul_MoPut(&w, 0xd1);
    uint32_t last = 0;
    for (size_t i = 0; i < count; ++i) {
        maul_MoVarint(&w, maul_MoZigzag(idx[i] - last) << 1);
        last = idx[i];
    }
    for (int i = 0; i < 4; ++i) maul_MoPut(&w, 0);
    return w.n;
}

typedef struct maul_MeshoptState {
    uint8_t* stream;
    size_t streamSize;
    uint8_t* out;
    size_t count, stride;
    maniMeshoptMode mode;
    maniMeshoptFilter filter;
} maul_MeshoptState;

static uint64_t maul_RunMeshopt(void* state, uint32_t iterations) {
    maul_MeshoptState* s = (maul_MeshoptState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i)
        failed += maniMeshoptDecode(s->out, s->count, s->stride, s->stream, s->streamSize, s->mode, s->filter,
                                    maniMeshoptKhr, NULL) != mani_success;
    maul_benchSink += s->out[s->count * s->stride / 2];
    return failed;
}

#define MAUL_MO_GRID 256u

static int maul_BenchMeshopt(FILE* out) {
    static const char* const names[4] = {"meshopt-attributes-16", "meshopt-exponential-12", "meshopt-triangles-4",
                                         "meshopt-indices-4"};
    int wanted = maul_benchFilter == NULL;
    for (int i = 0; i < 4; ++i) wanted |= maul_Wanted(names[i]);
    if (!wanted) return 0;
    const size_t vertices = (MAUL_MO_GRID + 1) * (MAUL_MO_GRID + 1), indices = MAUL_MO_GRID * MAUL_MO_GRID * 6;
    uint8_t* attr = (uint8_t*)malloc(vertices * 16);
    uint8_t* floats = (uint8_t*)malloc(vertices * 12);
    uint32_t* idx = (uint32_t*)malloc(indices * sizeof(uint32_t));
    const size_t cap = indices * 6 + vertices * 20 + 64;
    uint8_t* stream = (uint8_t*)malloc(cap);
    uint8_t* dst = (uint8_t*)malloc(indices * 4 + vertices * 16);
    int status = 0;
    if (attr == NULL || floats == NULL || idx == NULL || stream == NULL || dst == NULL) {
        maul_SetupFailed(out, "meshopt");
        status = 1;
        goto done;
    }
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0x6D657368);
    for (size_t v = 0; v < vertices; ++v) {
        uint32_t x = (uint32_t)(v % (MAUL_MO_GRID + 1)), y = (uint32_t)(v / (MAUL_MO_GRID + 1));
        uint32_t h = (uint32_t)(mcore_RngNext(&rng) & 63u);
        uint8_t* e = attr + 16 * v;
        uint32_t px = x * 250, py = y * 250, pz = 30000 + h + x * 3;
        e[0] = (uint8_t)px; e[1] = (uint8_t)(px >> 8); e[2] = (uint8_t)py; e[3] = (uint8_t)(py >> 8);
        e[4] = (uint8_t)pz; e[5] = (uint8_t)(pz >> 8); e[6] = 0; e[7] = 0;
        e[8] = (uint8_t)(h - 32); e[9] = (uint8_t)(x & 15); e[10] = 127; e[11] = 0; /* octahedral normal */
        uint32_t u = x * 255, w = y * 255;
        e[12] = (uint8_t)u; e[13] = (uint8_t)(u >> 8); e[14] = (uint8_t)w; e[15] = (uint8_t)(w >> 8);
        for (int c = 0; c < 3; ++c) { /* EXPONENTIAL words: exponent -12, 16-bit mantissas */
            uint32_t m = (uint32_t)((c == 0 ? x : c == 1 ? y : h) * 97u) & 0xffffu;
            uint32_t word = ((uint32_t)(-12 & 255) << 24) | m;
            memcpy(floats + 12 * v + 4 * c, &word, 4);
        }
    }
    for (uint32_t y = 0, t = 0; y < MAUL_MO_GRID; ++y)
        for (uint32_t x = 0; x < MAUL_MO_GRID; ++x, t += 6) {
            uint32_t a = y * (MAUL_MO_GRID + 1) + x, b = a + 1, c = a + MAUL_MO_GRID + 1, d = c + 1;
            idx[t] = a; idx[t + 1] = b; idx[t + 2] = c; idx[t + 3] = b; idx[t + 4] = d; idx[t + 5] = c;
        }
    fprintf(out, "\n%-26s %10s %12s %12s %10s\n", "case", "iterations", "ns/decode", "stream bytes", "MB/s");
    for (int i = 0; i < 4; ++i) {
        if (!maul_Wanted(names[i])) continue;
        maul_MeshoptState s = {stream, 0, dst, 0, 0, maniMeshoptAttributes, maniMeshoptFilterNone};
        if (i == 0) {
            s.count = vertices, s.stride = 16;
            s.streamSize = maul_MoEncodeAttributes(stream, cap, attr, vertices, 16);
        } else if (i == 1) {
            s.count = vertices, s.stride = 12, s.filter = maniMeshoptFilterExponential;
            s.streamSize = maul_MoEncodeAttributes(stream, cap, floats, vertices, 12);
        } else if (i == 2) {
            s.count = indices, s.stride = 4, s.mode = maniMeshoptTriangles;
            s.streamSize = maul_MoEncodeTriangles(stream, cap, idx, indices);
        } else {
            s.count = indices, s.stride = 4, s.mode = maniMeshoptIndices;
            s.streamSize = maul_MoEncodeIndices(stream, cap, idx, indices);
        }
        if (s.streamSize > cap || maul_RunMeshopt(&s, 1) != 0) {
            maul_SetupFailed(out, names[i]);
            status = 1;
            continue;
        }
        /* a triangle's rotation may change; the indices stay the triangle's */
        const maul_BenchCase c = {names[i], 10, 0, maul_RunMeshopt, &s};
        const double ns = maul_Median(&c);
        const double bytes = (double)(s.count * s.stride);
        fprintf(out, "%-26s %10u %12.0f %12zu %10.1f\n", names[i], c.iterations, ns, s.streamSize, bytes / ns * 1e3);
    }
done:
    free(attr);
    free(floats);
    free(idx);
    free(stream);
    free(dst);
    return status;
}

/* -- Draco stream decoding ------------------------------------------------------------ */

/* maniDracoDecode (the glTF importer's KHR_draco_mesh_compression decoder)
 * on streams Google's draco_encoder wrote (lib/anim/test/data/draco, read
 * from the working directory: run from the repository's root): the bench
 * torus (40401 points, 80000 faces, -cl 7: edgebreaker, parallelogram,
 * geometric normals, portable texture coordinates) and CesiumMan's view
 * (valence edgebreaker, JOINTS/WEIGHTS). MB/s counts stream bytes, points/s
 * decoded points, by the wall clock and per CPU second of the thread (the
 * machine is shared: load dilutes the first, not the second). Beside each,
 * when `draco_decoder` is on PATH, the decode time Google's decoder reports
 * for the same file in the same run (its median over five runs,
 * milliseconds as it prints them); tools/draco/bench.sh adds Google's
 * library timed in process the same way. */

static double maul_ThreadCpu(void);

typedef struct maul_DracoState {
    uint8_t* stream;
    size_t size;
} maul_DracoState;

static uint64_t maul_RunDraco(void* state, uint32_t iterations) {
    maul_DracoState* s = (maul_DracoState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        maniDracoMesh m;
        if (maniDracoDecode(s->stream, s->size, NULL, &m, NULL) != maniDracoOk) {
            failed++;
            continue;
        }
        maul_benchSink += m.pointCount;
        maniDracoRelease(&m);
    }
    return failed;
}

/* Google's draco_decoder on path: its reported decode milliseconds (median
 * of five), or a negative value when it is not there. */
static double maul_GoogleDracoMs(const char* path) {
    double ms[5];
    for (int r = 0; r < 5; ++r) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "draco_decoder -i '%s' -o /tmp/maul_bench_draco.ply 2>/dev/null", path);
        FILE* p = popen(cmd, "r");
        if (p == NULL) return -1.0;
        char line[512];
        double got = -1.0;
        while (fgets(line, sizeof line, p) != NULL) {
            const char* at = strstr(line, " ms to decode");
            if (at == NULL) continue;
            while (at > line && at[-1] >= '0' && at[-1] <= '9') at--;
            got = atof(at);
        }
        if (pclose(p) != 0 || got < 0) return -1.0;
        ms[r] = got;
    }
    remove("/tmp/maul_bench_draco.ply");
    qsort(ms, 5, sizeof ms[0], maul_CompareDouble);
    return ms[2];
}

/* The median CPU ns of the thread per operation of c (warm-up, then
 * MAUL_BENCH_RUNS runs), as maul_Median times the wall clock. */
static double maul_DracoCpuMedian(const maul_BenchCase* c) {
    double ns[MAUL_BENCH_RUNS];
    c->run(c->state, c->iterations);
    for (int r = 0; r < MAUL_BENCH_RUNS; ++r) {
        const double t0 = maul_ThreadCpu();
        c->run(c->state, c->iterations);
        ns[r] = (maul_ThreadCpu() - t0) / (double)c->iterations;
    }
    qsort(ns, MAUL_BENCH_RUNS, sizeof ns[0], maul_CompareDouble);
    return ns[MAUL_BENCH_RUNS / 2];
}

static int maul_BenchDraco(FILE* out) {
    static const char* const names[2] = {"draco-torus200-cl7", "draco-cesiumman"};
    static const char* const files[2] = {"lib/anim/test/data/draco/bench_torus200_cl7.drc",
                                         "lib/anim/test/data/draco/gltf_CesiumMan_m0_p0.drc"};
    int wanted = maul_benchFilter == NULL;
    for (int i = 0; i < 2; ++i) wanted |= maul_Wanted(names[i]);
    if (!wanted) return 0;
    int status = 0;
    fprintf(out, "\n%-22s %10s %12s %12s %8s %8s %8s %10s %10s %12s %14s\n", "case", "iterations", "ns/decode",
            "cpu-ns", "bytes", "points", "MB/s", "Mpoints/s", "MB/cpu-s", "Mpoints/cpu-s", "draco_decoder ms");
    for (int i = 0; i < 2; ++i) {
        if (!maul_Wanted(names[i]) && maul_benchFilter != NULL) continue;
        maul_DracoState s = {NULL, 0};
        FILE* f = fopen(files[i], "rb");
        if (f != NULL) {
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            s.stream = n > 0 ? (uint8_t*)malloc((size_t)n) : NULL;
            s.size = s.stream != NULL && fread(s.stream, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
            fclose(f);
        }
        maniDracoMesh m;
        if (s.size == 0 || maniDracoDecode(s.stream, s.size, NULL, &m, NULL) != maniDracoOk) {
            maul_SetupFailed(out, names[i]);
            free(s.stream);
            status = 1;
            continue;
        }
        const uint32_t points = m.pointCount;
        maniDracoRelease(&m);
        const maul_BenchCase c = {names[i], 10, 0, maul_RunDraco, &s};
        const double ns = maul_Median(&c);
        const double cpu = maul_DracoCpuMedian(&c);
        const double google = maul_GoogleDracoMs(files[i]);
        char gtext[32];
        if (google < 0)
            snprintf(gtext, sizeof gtext, "-");
        else
            snprintf(gtext, sizeof gtext, "%.0f", google);
        fprintf(out, "%-22s %10u %12.0f %12.0f %8zu %8u %8.1f %10.2f %10.1f %12.2f %14s\n", names[i], c.iterations, ns,
                cpu, s.size, points, (double)s.size / ns * 1e3, (double)points / ns * 1e3, (double)s.size / cpu * 1e3,
                (double)points / cpu * 1e3, gtext);
        free(s.stream);
    }
    return status;
}

/* -- Driver ------------------------------------------------------------------------ */

/* -- Skinning -------------------------------------------------------------------- */

/* One skinning job over a seeded mesh (skinning_fixtures.h: 5000 vertices,
 * 8 influences, centers): positions, normals and tangents, a seeded palette
 * and its dual quaternions. An operation is one job over every vertex. */
typedef struct maul_SkinState {
    maniFixtureSkinnedMesh mesh;
    maniAffine* palette;
    float* dq;
    float* out;
    maniSkinStream streams[3];
    maniSkinJob job;
    int method;
} maul_SkinState;

static int maul_SkinOpen(maul_SkinState* s, uint32_t vertices, uint32_t per) {
    memset(s, 0, sizeof *s);
    if (!maniFixtureMakeSkinnedMesh(0x5C1A, vertices, per, 1, &s->mesh)) return 0;
    const uint32_t j = s->mesh.jointCount, n = s->mesh.vertexCount;
    s->palette = (maniAffine*)malloc(sizeof(maniAffine) * j);
    s->dq = (float*)malloc(sizeof(float) * MANI_DUAL_QUATERNION_FLOATS * j);
    s->out = (float*)malloc(sizeof(float) * 10 * (size_t)n);
    if (s->palette == NULL || s->dq == NULL || s->out == NULL) return 0;
    maniFixtureRandomPalette(0x5C1B, j, s->palette);
    if (maniConvertPaletteToDualQuaternions(s->palette, j, s->dq) != mani_success) return 0;
    const maniSkinStream streams[3] = {
        {s->mesh.positions, s->out, 12, 12, maniSkinStreamPosition, 0},
        {s->mesh.normals, s->out + 3 * (size_t)n, 12, 12, maniSkinStreamNormal, 0},
        {s->mesh.tangents, s->out + 6 * (size_t)n, 16, 16, maniSkinStreamTangent, 0}};
    memcpy(s->streams, streams, sizeof streams);
    const maniSkinJob job = {&s->mesh.influences, s->palette, s->dq, j, 0, n, 3, s->streams};
    s->job = job;
    return 1;
}

static void maul_SkinClose(maul_SkinState* s) {
    maniFixtureFreeSkinnedMesh(&s->mesh);
    free(s->palette);
    free(s->dq);
    free(s->out);
}

static uint64_t maul_RunSkin(void* state, uint32_t iterations) {
    maul_SkinState* s = (maul_SkinState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        maniResult r;
        switch (s->method) {
            case 0: r = maniSkinLinear(&s->job); break;
            case 1: r = maniSkinDualQuaternion(&s->job); break;
            case 2: r = maniSkinBlended(&s->job); break;
            default: r = maniSkinCenters(&s->job); break;
        }
        failed += r != mani_success;
        maul_benchSink += s->out[i % 1024];
    }
    return failed;
}

double maul_benchLastMedian;

int maul_RunCase(FILE* out, const maul_BenchCase* c) {
    maul_benchLastMedian = 0.0;
    if (!maul_Wanted(c->name)) return 0;
    double ns[MAUL_BENCH_RUNS];
    uint64_t failed = c->run(c->state, c->iterations); /* warm-up */
    for (int r = 0; r < MAUL_BENCH_RUNS; ++r) {
        const double t0 = maul_Now();
        failed += c->run(c->state, c->iterations);
        ns[r] = (maul_Now() - t0) / (double)c->iterations;
    }
    qsort(ns, MAUL_BENCH_RUNS, sizeof ns[0], maul_CompareDouble);
    const double median = ns[MAUL_BENCH_RUNS / 2];
    maul_benchLastMedian = median;
    fprintf(out, "%-26s %10u %12.2f", c->name, c->iterations, median);
    if (c->bones) fprintf(out, " %10.3f", median / (double)c->bones);
    else fprintf(out, " %10s", "-");
    if (failed) fprintf(out, "  (%llu calls failed)", (unsigned long long)failed);
    fprintf(out, "\n");
    return failed != 0;
}

void maul_SetupFailed(FILE* out, const char* name) { fprintf(out, "%-26s setup failed\n", name); }

/* -- Clip sampling ------------------------------------------------------------------ */

#define MAUL_CLIP_TIMES 1024

typedef struct maul_ClipState {
    maul_PoseState pose;
    maniFixtureClip fixture;
    void* file;
    maniClip clip;
    void* cursorMemory;
    maniClipCursor* cursor;
    float times[MAUL_CLIP_TIMES]; /* the playhead: sequential (60 Hz steps, wrapping) or seeded random */
} maul_ClipState;

/* A clip of every bone animated, 30 samples a second over 4 s; cursorSize 0
 * gives no cursor. */
static int maul_ClipOpen(maul_ClipState* s, uint32_t bones, int random, size_t (*cursorSize)(const maniClip*)) {
    memset(s, 0, sizeof *s);
    if (!maul_PoseOpen(&s->pose, bones)) return 0;
    maniFixtureMakeClip(&s->fixture, 0xC11F + bones, &s->pose.skeleton, MANI_FIXTURE_CLIP_ALL_BONES, maniLoopRepeat,
                        maniAdditiveNone);
    s->fixture.source.duration = 4.0f;
    s->fixture.source.sampleRate = 30.0f;
    size_t size = 0;
    s->file = maniFixtureBuildClip(&s->fixture.source, &size);
    if (s->file == NULL || maniOpenClip(s->file, size, &s->clip).result != mani_success) return 0;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (uint32_t i = 0; i < MAUL_CLIP_TIMES; ++i) {
        if (random) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            s->times[i] = (float)((double)(x >> 11) / 9007199254740992.0 * 4.0);
        } else {
            s->times[i] = (float)fmod(i / 60.0, 4.0);
        }
    }
    if (cursorSize != NULL) {
        const size_t bytes = cursorSize(&s->clip);
        s->cursorMemory = aligned_alloc(MANI_CLIP_CURSOR_ALIGNMENT, (bytes + 31) / 32 * 32);
        if (s->cursorMemory == NULL || maniInitClipCursor(s->cursorMemory, bytes, &s->cursor) != mani_success) return 0;
    }
    return 1;
}

static void maul_ClipClose(maul_ClipState* s) {
    free(s->cursorMemory);
    free(s->file);
    maniFixtureFreeClip(&s->fixture);
    maul_PoseClose(&s->pose);
}

static uint64_t maul_RunClipSample(void* state, uint32_t iterations) {
    maul_ClipState* s = (maul_ClipState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i)
        failed += maniClip_Sample(&s->clip, &s->pose.skeleton, s->times[i % MAUL_CLIP_TIMES], s->pose.pose) != mani_success;
    maul_benchSink += maniPose_GetLocal(s->pose.pose, 0).translation.x;
    return failed;
}

static uint64_t maul_RunClipCursor(void* state, uint32_t iterations) {
    maul_ClipState* s = (maul_ClipState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i)
        failed += maniClipCursor_Sample(s->cursor, &s->clip, &s->pose.skeleton, s->times[i % MAUL_CLIP_TIMES],
                                        s->pose.pose) != mani_success;
    maul_benchSink += maniPose_GetLocal(s->pose.pose, 0).translation.x;
    return failed;
}

static int maul_BenchClips(FILE* out) {
    int status = 0;
    static const uint32_t bones[] = {20, 70, 550};
    static const uint32_t iterations[] = {100000, 30000, 4000};
    static const char* const ways[] = {"sample", "cursor", "compact-cursor"};
    for (int b = 0; b < 3; ++b) {
        for (int way = 0; way < 3; ++way) {
            for (int random = 0; random < 2; ++random) {
                char name[48];
                snprintf(name, sizeof name, "clip-%s-%s-%u", ways[way], random ? "random" : "seq", bones[b]);
                if (!maul_Wanted(name)) continue;
                maul_ClipState* s = (maul_ClipState*)malloc(sizeof *s);
                size_t (*size)(const maniClip*) = way == 0   ? NULL
                                                  : way == 1 ? maniClip_GetCursorSize
                                                             : maniClip_GetCursorCompactSize;
                if (s != NULL && maul_ClipOpen(s, bones[b], random, size)) {
                    const maul_BenchCase c = {name, iterations[b], bones[b], way == 0 ? maul_RunClipSample : maul_RunClipCursor,
                                              s};
                    status |= maul_RunCase(out, &c);
                } else {
                    maul_SetupFailed(out, name);
                    status = 1;
                }
                if (s != NULL) maul_ClipClose(s);
                free(s);
            }
        }
    }
    return status;
}

/* -- Compressed clips ---------------------------------------------------------------- */

/* The clip of maul_ClipOpen compressed with the default options: the
 * compression's ratio, worst shell error and time (one line), then
 * maniClip_Sample and a cursor on the compressed clip, sequential and random
 * playheads: ns per whole pose. */
static int maul_BenchCompress(FILE* out) {
    int status = 0;
    static const uint32_t bones[] = {20, 70, 550};
    static const uint32_t iterations[] = {100000, 30000, 4000};
    for (int b = 0; b < 3; ++b) {
        char name[48];
        snprintf(name, sizeof name, "compress-%u", bones[b]);
        int wanted = maul_Wanted(name);
        for (int way = 0; way < 2 && !wanted; ++way)
            for (int random = 0; random < 2; ++random) {
                char n2[48];
                snprintf(n2, sizeof n2, "compressed-%s-%s-%u", way ? "cursor" : "sample", random ? "random" : "seq",
                         bones[b]);
                if (maul_Wanted(n2)) wanted = 1;
            }
        if (!wanted) continue;
        for (int way = 0; way < 2; ++way)
            for (int random = 0; random < 2; ++random) {
                maul_ClipState* s = (maul_ClipState*)malloc(sizeof *s);
                void* packed = NULL;
                maniBuilder* builder = NULL;
                int ok = s != NULL && maul_ClipOpen(s, bones[b], random, way ? maniClip_GetCursorSize : NULL);
                maniCompressReport report;
                memset(&report, 0, sizeof report);
                const maniCompressOptions options = maniDefaultCompressOptions();
                maniBuilderDef def = maniDefaultBuilderDef();
                size_t size = 0;
                double t0 = 0, t1 = 0;
                if (ok) {
                    ok = maniCreateBuilder(&def, &builder) == mani_success;
                    t0 = maul_Now();
                    ok = ok && maniCompressClip(builder, &s->clip, &s->pose.skeleton, &options, &report) == mani_success;
                    t1 = maul_Now();
                    ok = ok && maniBuilder_CopyBuilt(builder, NULL, 0, &size) == mani_errorCapacity;
                    ok = ok && (packed = aligned_alloc(MANI_FILE_ALIGNMENT, (size + 31) / 32 * 32)) != NULL;
                    ok = ok && maniBuilder_CopyBuilt(builder, packed, size, &size) == mani_success;
                    ok = ok && maniOpenClip(packed, size, &s->clip).result == mani_success;
                }
                if (ok && way == 0 && random == 0 && maul_Wanted(name))
                    fprintf(out, "%-26s ratio %.2f (%llu -> %llu bytes), worst shell error %.3g, compression %.1f ms\n",
                            name, report.ratio, (unsigned long long)report.sizeBefore,
                            (unsigned long long)report.sizeAfter, report.worstError, (t1 - t0) / 1e6);
                char caseName[48];
                snprintf(caseName, sizeof caseName, "compressed-%s-%s-%u", way ? "cursor" : "sample",
                         random ? "random" : "seq", bones[b]);
                if (ok) {
                    const maul_BenchCase c = {caseName, iterations[b], bones[b],
                                              way == 0 ? maul_RunClipSample : maul_RunClipCursor, s};
                    status |= maul_RunCase(out, &c);
                } else {
                    maul_SetupFailed(out, caseName);
                    status = 1;
                }
                maniDestroyBuilder(builder);
                if (s != NULL) maul_ClipClose(s);
                free(s);
                free(packed);
            }
    }
    return status;
}

/* -- Tween update ------------------------------------------------------------------- */

/* A task system that runs every task on the calling thread: what the staging
 * and the groups cost, without threads. */
static void* maul_InlineBegin(void* user, mtwnTaskFunction* task, void* data, uint32_t count) {
    (void)user;
    for (uint32_t i = 0; i < count; ++i) task(data, i);
    return NULL;
}
static void maul_InlineWait(void* user, void* handle) { (void)user, (void)handle; }

typedef struct maul_TweenState {
    mtwnContext* context;
    uint64_t timeNs;
} maul_TweenState;

static uint64_t maul_RunTweenUpdate(void* state, uint32_t iterations) {
    maul_TweenState* s = (maul_TweenState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        uint32_t total = 0;
        s->timeNs += 16666667u;
        failed += mtwnContext_Update(s->context, s->timeNs, NULL, 0, &total) != mtwn_success;
        maul_benchSink += (double)total;
    }
    return failed;
}

/* n targets, each with a transition by CSS's ease that never ends in the run
 * (players 0), or n / 4 clip players of one clip of 4 looping tracks (CSS's
 * ease, or linear easing with linear 1), each binding 4 targets of its own. */
static int maul_TweenOpen(maul_TweenState* s, uint32_t n, int players, int tasks, int linear) {
    mtwnContextDef d = mtwnDefaultContextDef();
    memset(s, 0, sizeof *s);
    d.targetCapacity = n;
    d.playerCapacity = players ? n / 4u : n;
    d.bindingCapacity = n;
    d.eventCapacity = 0;
    if (tasks) {
        d.taskSystem.begin = maul_InlineBegin;
        d.taskSystem.wait = maul_InlineWait;
    }
    if (mtwnCreateContext(&d, &s->context) != mtwn_success) return 0;
    mtwnClipId clip = {0, 0};
    if (players) {
        mtwnClipDef cd = mtwnDefaultClipDef();
        if (mtwnCreateClip(s->context, &cd, &clip) != mtwn_success) return 0;
        for (uint32_t k = 0; k < 4u; ++k) {
            mtwnKeyframe kf[2];
            memset(kf, 0, sizeof kf);
            kf[1].offset = 1.0;
            kf[1].value[0] = 1.0 + k;
            kf[0].easing = kf[1].easing = mtwnMakeLinearEasing();
            mtwnClipTrackDef td = mtwnDefaultClipTrackDef();
            td.slot = k;
            td.keyframes = kf;
            td.keyframeCount = 2;
            td.timing.iterations = INFINITY;
            td.timing.duration = 1.0 + 0.25 * k;
            if (!linear && mtwnMakeCssEasing(mtwn_cssEase, &td.timing.easing) != mtwn_success) return 0;
            mtwnNode node;
            if (mtwnClip_AddTrack(s->context, clip, &td, &node) != mtwn_success) return 0;
        }
        if (mtwnClip_Seal(s->context, clip) != mtwn_success) return 0;
    }
    mtwnBinding b[4];
    for (uint32_t i = 0; i < n; ++i) {
        mtwnTargetId t;
        mtwnVec4 v = {0, 0, 0, 0};
        if (mtwnCreateTarget(s->context, mtwn_valueScalar, v, &t) != mtwn_success) return 0;
        mtwnPlayerId p;
        if (!players) {
            mtwnTransitionDef td = mtwnDefaultTransitionDef();
            td.target = t;
            td.value.x = 1.0f + (float)(i & 7u);
            td.duration = 1e6;
            if (mtwnStartTransition(s->context, &td, &p) != mtwn_success) return 0;
            continue;
        }
        b[i & 3u] = mtwnMakeBinding(i & 3u, t);
        if ((i & 3u) == 3u) {
            mtwnClipPlayerDef pd = mtwnDefaultClipPlayerDef();
            pd.clip = clip;
            pd.bindings = b;
            pd.bindingCount = 4;
            pd.rate = 0.5 + (double)(i & 15u) * 0.125;
            if (mtwnCreateClipPlayer(s->context, &pd, &p) != mtwn_success) return 0;
        }
    }
    return 1;
}

static int maul_BenchTween(FILE* out) {
    static const uint32_t counts[] = {1000, 10000, 100000};
    static const uint32_t iterations[] = {500, 50, 5};
    static const char* const kinds[] = {"transitions", "players", "players-tasks", "players-linear"};
    int status = 0;
    for (int k = 0; k < 4; ++k) {
        for (int i = 0; i < 3; ++i) {
            char name[48];
            snprintf(name, sizeof name, "tween-update-%s-%u", kinds[k], counts[i]);
            if (!maul_Wanted(name)) continue;
            maul_TweenState s;
            if (maul_TweenOpen(&s, counts[i], k > 0, k == 2, k == 3)) {
                const maul_BenchCase c = {name, iterations[i], counts[i], maul_RunTweenUpdate, &s};
                status |= maul_RunCase(out, &c);
            } else {
                maul_SetupFailed(out, name);
                status = 1;
            }
            mtwnDestroyContext(s.context);
        }
    }
    return status;
}

/* -- JSON ("json-*") ----------------------------------------------------------------
 *
 * A 10 MB glTF-like document (asset, nodes with names, TRS and children,
 * accessors with min and max, animation samplers and channels, and an
 * "extras" block of float arrays standing in for inline data), generated by
 * lib/core/json's writer from a seeded generator and then stripped of the
 * white space outside strings (a minified file: more tokens per byte).
 * json-read-structure: the reader alone (tokens into an array sized once);
 * json-read-floats: the read and every number converted to binary32
 * (mcore_JsonGetFloat); json-read-strtod: the read and every number through
 * the C library's strtod, the baseline (bench only: lib/core/json never uses
 * strtod); json-write: the document written again from its tokens. MB/s of
 * the document's bytes. */

typedef struct maul_JsonState {
    char* text;
    size_t length;
    mcore_JsonToken* tokens;
    uint32_t capacity;
    int mode; /* 0 structure, 1 floats, 2 strtod, 3 write */
    char* out;
    size_t outCapacity;
} maul_JsonState;

static void maul_JsonFloats(mcore_JsonWriter* w, mcore_Rng* rng, uint32_t n, float scale) {
    mcore_JsonWriteBeginArray(w);
    for (uint32_t i = 0; i < n; ++i) mcore_JsonWriteFloat(w, mcore_RngFloatRange(rng, -scale, scale));
    mcore_JsonWriteEndArray(w);
}

static int maul_JsonOpen(maul_JsonState* s) {
    memset(s, 0, sizeof *s);
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0x6C7Fu);
    mcore_JsonWriter w;
    mcore_JsonAllocator libc = {NULL, NULL, NULL};
    mcore_JsonWriterInit(&w, NULL, 0, &libc);
    char name[32];
    mcore_JsonWriteBeginObject(&w);
    mcore_JsonWriteKey(&w, "asset", 5);
    mcore_JsonWriteBeginObject(&w);
    mcore_JsonWriteKey(&w, "version", 7);
    mcore_JsonWriteString(&w, "2.0", 3);
    mcore_JsonWriteKey(&w, "generator", 9);
    mcore_JsonWriteString(&w, "maul bench", 10);
    mcore_JsonWriteEndObject(&w);
    mcore_JsonWriteKey(&w, "nodes", 5);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t i = 0; i < 20000; ++i) {
        mcore_JsonWriteBeginObject(&w);
        const int n = snprintf(name, sizeof name, "mixamorig:Bone_%u", i);
        mcore_JsonWriteKey(&w, "name", 4);
        mcore_JsonWriteString(&w, name, (size_t)n);
        mcore_JsonWriteKey(&w, "translation", 11);
        maul_JsonFloats(&w, &rng, 3, 2.0f);
        mcore_JsonWriteKey(&w, "rotation", 8);
        maul_JsonFloats(&w, &rng, 4, 1.0f);
        mcore_JsonWriteKey(&w, "scale", 5);
        maul_JsonFloats(&w, &rng, 3, 1.5f);
        mcore_JsonWriteKey(&w, "children", 8);
        mcore_JsonWriteBeginArray(&w);
        for (uint32_t c = 0; c < mcore_RngBelow(&rng, 4); ++c) mcore_JsonWriteUint64(&w, mcore_RngBelow(&rng, 20000));
        mcore_JsonWriteEndArray(&w);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "accessors", 9);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t i = 0; i < 20000; ++i) {
        mcore_JsonWriteBeginObject(&w);
        mcore_JsonWriteKey(&w, "bufferView", 10);
        mcore_JsonWriteUint64(&w, i);
        mcore_JsonWriteKey(&w, "componentType", 13);
        mcore_JsonWriteUint64(&w, 5126);
        mcore_JsonWriteKey(&w, "count", 5);
        mcore_JsonWriteUint64(&w, mcore_RngBelow(&rng, 100000));
        mcore_JsonWriteKey(&w, "type", 4);
        mcore_JsonWriteString(&w, "VEC3", 4);
        mcore_JsonWriteKey(&w, "min", 3);
        maul_JsonFloats(&w, &rng, 3, 100.0f);
        mcore_JsonWriteKey(&w, "max", 3);
        maul_JsonFloats(&w, &rng, 3, 100.0f);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "animations", 10);
    mcore_JsonWriteBeginArray(&w);
    mcore_JsonWriteBeginObject(&w);
    mcore_JsonWriteKey(&w, "channels", 8);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t i = 0; i < 20000; ++i) {
        mcore_JsonWriteBeginObject(&w);
        mcore_JsonWriteKey(&w, "sampler", 7);
        mcore_JsonWriteUint64(&w, i);
        mcore_JsonWriteKey(&w, "target", 6);
        mcore_JsonWriteBeginObject(&w);
        mcore_JsonWriteKey(&w, "node", 4);
        mcore_JsonWriteUint64(&w, i);
        mcore_JsonWriteKey(&w, "path", 4);
        mcore_JsonWriteString(&w, "rotation", 8);
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteEndObject(&w);
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "extras", 6);
    mcore_JsonWriteBeginArray(&w);
    while (w.length < 20u * 1000u * 1000u && w.failed == mcore_jsonOk) maul_JsonFloats(&w, &rng, 64, 10.0f);
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteEndObject(&w);
    if (mcore_JsonWriterFinish(&w) != mcore_jsonOk) {
        mcore_JsonWriterRelease(&w);
        return 0;
    }
    /* minify, cut at 10 MB of text: close the extras array there */
    s->text = (char*)malloc(w.length + 4);
    if (s->text == NULL) {
        mcore_JsonWriterRelease(&w);
        return 0;
    }
    int inString = 0, escaped = 0;
    size_t o = 0;
    const size_t target = 10u * 1000u * 1000u;
    size_t i = 0;
    for (; i < w.length; ++i) {
        const char c = w.buffer[i];
        if (inString) {
            s->text[o++] = c;
            if (escaped) escaped = 0;
            else if (c == '\\') escaped = 1;
            else if (c == '"') inString = 0;
            continue;
        }
        if (c == ' ' || c == '\n') continue;
        if (c == '"') inString = 1;
        if (o >= target && c == '[' && o > 0 && s->text[o - 1] == ',') break; /* the next float array of extras */
        s->text[o++] = c;
    }
    const int cut = i < w.length;
    mcore_JsonWriterRelease(&w);
    if (!cut) return 0; /* the generated extras always pass 10 MB */
    if (o > 0 && s->text[o - 1] == ',') o--;
    s->text[o++] = ']';
    s->text[o++] = '}';
    s->length = o;
    mcore_JsonDoc doc;
    const mcore_JsonResult q = mcore_JsonRead((const uint8_t*)s->text, s->length, NULL, 0, &doc);
    if (q.reason != mcore_jsonCapacity) return 0;
    s->capacity = q.needed;
    s->tokens = (mcore_JsonToken*)malloc((size_t)s->capacity * sizeof *s->tokens);
    s->outCapacity = s->length * 3;
    s->out = (char*)malloc(s->outCapacity);
    return s->tokens != NULL && s->out != NULL;
}

static void maul_JsonClose(maul_JsonState* s) {
    free(s->text);
    free(s->tokens);
    free(s->out);
}

/* The calling thread's CPU time in ns: the machine is shared, so the JSON
 * cases also give MB/s per CPU second, which load does not dilute. */
static double maul_ThreadCpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t maul_RunJson(void* state, uint32_t iterations) {
    maul_JsonState* s = (maul_JsonState*)state;
    uint64_t failed = 0;
    for (uint32_t it = 0; it < iterations; ++it) {
        mcore_JsonDoc doc;
        if (mcore_JsonRead((const uint8_t*)s->text, s->length, s->tokens, s->capacity, &doc).reason != mcore_jsonOk) {
            failed++;
            continue;
        }
        double sum = 0;
        if (s->mode == 1) {
            for (uint32_t t = 0; t < doc.count; ++t)
                if (doc.tokens[t].type == mcore_jsonNumber) {
                    float f;
                    failed += mcore_JsonGetFloat(&doc, t, &f) != mcore_jsonOk;
                    sum += (double)f;
                }
        } else if (s->mode == 2) {
            for (uint32_t t = 0; t < doc.count; ++t)
                if (doc.tokens[t].type == mcore_jsonNumber) sum += (float)strtod(s->text + doc.tokens[t].start, NULL);
        } else if (s->mode == 3) {
            mcore_JsonWriter w;
            mcore_JsonWriterInit(&w, s->out, s->outCapacity, NULL);
            uint32_t open[64], left[64], depth = 0;
            for (uint32_t t = 0; t < doc.count; ++t) {
                const mcore_JsonToken* k = &doc.tokens[t];
                const int inObject = depth > 0 && doc.tokens[open[depth - 1]].type == mcore_jsonObject;
                if (inObject && left[depth - 1] % 2 == 0 && left[depth - 1] > 0) {
                    mcore_JsonWriteKey(&w, s->text + k->start, k->length); /* keys hold no escapes here */
                    left[depth - 1]--;
                    continue;
                }
                if (depth > 0) left[depth - 1]--;
                if (k->type == mcore_jsonNumber) {
                    float f = 0;
                    failed += mcore_JsonGetFloat(&doc, t, &f) != mcore_jsonOk;
                    mcore_JsonWriteFloat(&w, f);
                } else if (k->type == mcore_jsonString) {
                    mcore_JsonWriteString(&w, s->text + k->start, k->length);
                } else if (k->type == mcore_jsonArray || k->type == mcore_jsonObject) {
                    if (k->type == mcore_jsonArray) mcore_JsonWriteBeginArray(&w);
                    else mcore_JsonWriteBeginObject(&w);
                    open[depth] = t;
                    left[depth] = k->type == mcore_jsonObject ? k->count * 2 : k->count;
                    depth++;
                } else {
                    mcore_JsonWriteNull(&w);
                }
                while (depth > 0 && left[depth - 1] == 0) {
                    depth--;
                    if (doc.tokens[open[depth]].type == mcore_jsonArray) mcore_JsonWriteEndArray(&w);
                    else mcore_JsonWriteEndObject(&w);
                }
            }
            failed += mcore_JsonWriterFinish(&w) != mcore_jsonOk;
            sum += (double)w.length;
        }
        maul_benchSink += sum + doc.count;
    }
    return failed;
}

static int maul_BenchJson(FILE* out) {
    static const char* const names[4] = {"json-read-structure", "json-read-floats", "json-read-strtod", "json-write"};
    int any = 0;
    for (int m = 0; m < 4; ++m) any |= maul_Wanted(names[m]);
    if (!any) return 0;
    maul_JsonState s;
    if (!maul_JsonOpen(&s)) {
        maul_SetupFailed(out, "json");
        maul_JsonClose(&s);
        return 1;
    }
    int status = 0, header = 0;
    for (int m = 0; m < 4; ++m) {
        if (!maul_Wanted(names[m])) continue;
        if (!header++)
            fprintf(out, "\n%-26s %10s %12s %10s %10s  (document %.2f MB, %u tokens)\n", "case", "iterations",
                    "ms/doc", "MB/s", "MB/s cpu", (double)s.length / 1e6, s.capacity);
        s.mode = m;
        const maul_BenchCase c = {names[m], 3, 0, maul_RunJson, &s};
        double ns[MAUL_BENCH_RUNS], cpu[MAUL_BENCH_RUNS];
        uint64_t failed = c.run(c.state, c.iterations);
        for (int r = 0; r < MAUL_BENCH_RUNS; ++r) {
            const double t0 = maul_Now(), c0 = maul_ThreadCpu();
            failed += c.run(c.state, c.iterations);
            ns[r] = (maul_Now() - t0) / (double)c.iterations;
            cpu[r] = (maul_ThreadCpu() - c0) / (double)c.iterations;
        }
        qsort(ns, MAUL_BENCH_RUNS, sizeof ns[0], maul_CompareDouble);
        qsort(cpu, MAUL_BENCH_RUNS, sizeof cpu[0], maul_CompareDouble);
        const double median = ns[MAUL_BENCH_RUNS / 2], medianCpu = cpu[MAUL_BENCH_RUNS / 2];
        fprintf(out, "%-26s %10u %12.2f %10.1f %10.1f", names[m], c.iterations, median / 1e6,
                (double)s.length / median * 1e3, (double)s.length / medianCpu * 1e3);
        if (failed) fprintf(out, "  (%llu calls failed)", (unsigned long long)failed);
        fprintf(out, "\n");
        status |= failed != 0;
    }
    maul_JsonClose(&s);
    return status;
}

/* -- IK ("ik-*") ---------------------------------------------------------------------
 *
 * One solve an operation on a seeded chain (ik_fixtures.h), the pose copied
 * back to its start before each (a memcpy of its bytes), the goal one of
 * 1024 seeded ones: reachable (within 0.2 to 0.9 of the chain's reach) for
 * the two-bone and chain solves, 1 to 5 away for the aim. Callgrind counts
 * the solve alone with --toggle-collect=maniPose_Solve*. */

#define MAUL_IK_GOALS 1024

typedef struct maul_IkState {
    void* file;
    maniSkeleton skeleton;
    void* memory;
    void* startMemory;
    size_t poseSize;
    maniPose* pose;
    uint32_t chain[MANI_MAX_IK_CHAIN_BONES];
    uint32_t n;
    int kind; /* 0 two-bone, 1 aim, 2 CCD, 3 FABRIK */
    maniTwoBoneSolve twoBone;
    maniAimSolve aim;
    maniChainSolve chainSolve;
    maniVec3 goals[MAUL_IK_GOALS];
} maul_IkState;

static void maul_IkClose(maul_IkState* s) {
    free(s->file);
    free(s->memory);
    free(s->startMemory);
}

static int maul_IkOpen(maul_IkState* s, int kind, uint32_t n, uint32_t iterations) {
    memset(s, 0, sizeof *s);
    size_t size = 0;
    s->file = maniFixtureBuildIkChain(0x1CE + n, n, 0, &size);
    if (s->file == NULL || maniOpenSkeleton(s->file, size, &s->skeleton).result != mani_success) return 0;
    s->poseSize = maniSkeleton_GetPoseSize(&s->skeleton);
    s->memory = aligned_alloc(MANI_POSE_ALIGNMENT, (s->poseSize + 31) / 32 * 32);
    s->startMemory = aligned_alloc(MANI_POSE_ALIGNMENT, (s->poseSize + 31) / 32 * 32);
    maniPose* start = NULL;
    if (s->memory == NULL || s->startMemory == NULL ||
        maniInitPose(&s->skeleton, s->startMemory, s->poseSize, &start) != mani_success ||
        maniInitPose(&s->skeleton, s->memory, s->poseSize, &s->pose) != mani_success)
        return 0;
    maniFixtureBendIkPose(start, &s->skeleton, 0xBE4D + n, 1.0f);
    if (maniPose_ComputeModel(start, &s->skeleton) != mani_success) return 0;
    s->n = n;
    s->kind = kind;
    for (uint32_t k = 0; k < n; ++k) s->chain[k] = maniFixtureIkBone(&s->skeleton, k);
    const maniVec3 root = maniPose_GetModel(start, s->chain[0]).columns[3];
    const uint32_t last = kind == 0 ? 2 : n - 1;
    float reach = 0;
    for (uint32_t k = 0; k < last; ++k) {
        const maniVec3 a = maniPose_GetModel(start, s->chain[k]).columns[3];
        const maniVec3 b = maniPose_GetModel(start, s->chain[k + 1]).columns[3];
        reach += sqrtf((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
    }
    const maniVec3 from = kind == 1 ? maniPose_GetModel(start, s->chain[n - 1]).columns[3] : root;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0x60A1 + n);
    for (uint32_t i = 0; i < MAUL_IK_GOALS; ++i) {
        maniVec3 d;
        float l;
        do {
            d.x = mcore_RngFloatRange(&rng, -1, 1), d.y = mcore_RngFloatRange(&rng, -1, 1), d.z = mcore_RngFloatRange(&rng, -1, 1);
            l = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
        } while (l < 0.1f || l > 1.0f);
        const float at = kind == 1 ? mcore_RngFloatRange(&rng, 1, 5) : reach * mcore_RngFloatRange(&rng, 0.2f, 0.9f);
        s->goals[i].x = from.x + d.x / l * at, s->goals[i].y = from.y + d.y / l * at, s->goals[i].z = from.z + d.z / l * at;
    }
    maniTwoBoneSolve* t = &s->twoBone;
    t->startBone = s->chain[0], t->middleBone = s->chain[1], t->endBone = s->chain[2];
    t->pole.y = 1, t->soften = 1, t->weight = 1;
    maniAimSolve* a = &s->aim;
    a->count = n < MANI_MAX_AIM_BONES ? n : MANI_MAX_AIM_BONES;
    for (uint32_t k = 0; k < a->count; ++k) a->bones[k] = s->chain[n - a->count + k], a->shares[k] = 1;
    a->forward.z = 1, a->up.y = 1, a->pole.y = 1, a->cone = MANI_AIM_MAX_CONE, a->weight = 1;
    maniChainSolve* c = &s->chainSolve;
    c->rootBone = s->chain[0], c->endBone = s->chain[n - 1], c->rotation.w = 1;
    c->iterations = iterations, c->tolerance = 0, c->weight = 1;
    return 1;
}

static uint64_t maul_RunIk(void* state, uint32_t iterations) {
    maul_IkState* s = (maul_IkState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        memcpy(s->memory, s->startMemory, s->poseSize);
        const maniVec3 g = s->goals[i % MAUL_IK_GOALS];
        bool reached = false;
        maniResult r;
        switch (s->kind) {
            case 0: s->twoBone.goal = g; r = maniPose_SolveTwoBone(s->pose, &s->skeleton, &s->twoBone, &reached); break;
            case 1: s->aim.goal = g; r = maniPose_SolveAim(s->pose, &s->skeleton, &s->aim, &reached); break;
            case 2: s->chainSolve.goal = g; r = maniPose_SolveCcd(s->pose, &s->skeleton, &s->chainSolve, &reached); break;
            default: s->chainSolve.goal = g; r = maniPose_SolveFabrik(s->pose, &s->skeleton, &s->chainSolve, &reached); break;
        }
        failed += r != mani_success;
        maul_benchSink += reached;
    }
    maul_benchSink += maniPose_GetLocal(s->pose, s->chain[0]).rotation.x;
    return failed;
}

/* ns per solve; the per-bone column is ns per bone per iteration for CCD and
 * FABRIK (a fixed count: tolerance 0). */
static int maul_BenchIk(FILE* out) {
    int status = 0;
    static const struct {
        const char* name;
        int kind;
        uint32_t bones, iterations, ops;
    } cases[] = {
        {"ik-twobone", 0, 3, 0, 200000},  {"ik-aim-1", 1, 1, 0, 200000},     {"ik-aim-4", 1, 4, 0, 50000},
        {"ik-ccd-8x10", 2, 8, 10, 5000},  {"ik-fabrik-8x10", 3, 8, 10, 5000}, {"ik-ccd-32x10", 2, 32, 10, 500},
        {"ik-fabrik-32x10", 3, 32, 10, 500},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (!maul_Wanted(cases[i].name)) continue;
        maul_IkState* s = (maul_IkState*)malloc(sizeof *s);
        if (s != NULL && maul_IkOpen(s, cases[i].kind, cases[i].bones + (cases[i].kind == 1 ? 2u : 0u), cases[i].iterations)) {
            if (cases[i].kind == 1) s->aim.count = cases[i].bones;
            if (cases[i].kind == 1)
                for (uint32_t k = 0; k < s->aim.count; ++k) s->aim.bones[k] = s->chain[s->n - s->aim.count + k];
            const maul_BenchCase c = {cases[i].name, cases[i].ops,
                                      cases[i].iterations ? cases[i].bones * cases[i].iterations : 0, maul_RunIk, s};
            status |= maul_RunCase(out, &c);
        } else {
            maul_SetupFailed(out, cases[i].name);
            status = 1;
        }
        if (s != NULL) maul_IkClose(s);
        free(s);
    }
    return status;
}

/* -- Spring bones ------------------------------------------------------------------- */

/* maniSpringState_Step on a seeded spring rig (lib/anim/test/fixtures/
 * spring_fixtures.h) of 8 chains of 8 joints against 8 colliders (every
 * kind), 8 fixed steps a call under seeded motion: the per-item column is
 * ns per joint per step (the call's model composition included). */
typedef struct maul_SpringBenchState {
    maniFixtureSpringRig rig;
    void* stateMemory;
    void* poseMemory;
    maniSpringState* state;
    maniPose* pose;
    maniTransform placement;
    uint32_t steps;
} maul_SpringBenchState;

static void maul_SpringBenchClose(maul_SpringBenchState* s) {
    free(s->stateMemory);
    free(s->poseMemory);
    maniFixtureFreeSpringRig(&s->rig);
}

static int maul_SpringBenchOpen(maul_SpringBenchState* s, uint32_t chains, uint32_t length, uint32_t colliders) {
    memset(s, 0, sizeof *s);
    if (maniFixtureMakeSpringRig(&s->rig, 0x42454E43, chains, length, colliders, 60.0f) != 0) return 0;
    const size_t stateSize = maniSpringSet_GetStateSize(&s->rig.set), poseSize = maniSkeleton_GetPoseSize(&s->rig.skeleton);
    s->stateMemory = aligned_alloc(32, (stateSize + 31) / 32 * 32);
    s->poseMemory = aligned_alloc(32, (poseSize + 31) / 32 * 32);
    if (!s->stateMemory || !s->poseMemory) return 0;
    if (maniInitSpringState(&s->rig.set, &s->rig.skeleton, s->stateMemory, stateSize, &s->state) != mani_success ||
        maniInitPose(&s->rig.skeleton, s->poseMemory, poseSize, &s->pose) != mani_success)
        return 0;
    maniFixtureSpringMotion(&s->rig, 9, 0.25, s->pose, &s->placement);
    s->steps = 8;
    return 1;
}

static uint64_t maul_RunSprings(void* state, uint32_t iterations) {
    maul_SpringBenchState* s = (maul_SpringBenchState*)state;
    uint64_t failed = 0;
    for (uint32_t i = 0; i < iterations; ++i) {
        s->placement.translation.z += 0.01f;
        failed += maniSpringState_Step(s->state, s->pose, &s->placement, NULL, (float)s->steps / 60.0f) != mani_success;
    }
    maul_benchSink += maniPose_GetLocal(s->pose, 3).rotation.x;
    return failed;
}

static int maul_BenchSprings(FILE* out) {
    static const uint32_t shapes[2][3] = {{8, 8, 8}, {32, 8, 8}};
    int status = 0;
    for (int k = 0; k < 2; ++k) {
        char name[48];
        snprintf(name, sizeof name, "springs-%ux%u-k%u", shapes[k][0], shapes[k][1], shapes[k][2]);
        if (!maul_Wanted(name)) continue;
        maul_SpringBenchState* s = (maul_SpringBenchState*)malloc(sizeof *s);
        if (s == NULL || !maul_SpringBenchOpen(s, shapes[k][0], shapes[k][1], shapes[k][2])) {
            maul_SetupFailed(out, name);
            if (s != NULL) maul_SpringBenchClose(s);
            free(s);
            status = 1;
            continue;
        }
        /* Items: the joints that move (a spring's last is its tail) times the steps. */
        const uint32_t moving = shapes[k][0] * (shapes[k][1] - 1);
        const maul_BenchCase c = {name, 2000, moving * s->steps, maul_RunSprings, s};
        status |= maul_RunCase(out, &c);
        maul_SpringBenchClose(s);
        free(s);
    }
    return status;
}

int maul_Bench(FILE* out, const char* filter) {
    int status = 0;
    maul_benchFilter = filter;
    fprintf(out, "%-26s %10s %12s %10s\n", "case", "iterations", "ns/op", "ns/bone");

    static const uint32_t boneCounts[] = {64, 1000};
    static const uint32_t poseIterations[] = {20000, 2000};
    for (int i = 0; i < 2; ++i) {
        char name[40];
        snprintf(name, sizeof name, "pose-compute-model-%u", boneCounts[i]);
        maul_PoseState pose;
        if (maul_PoseOpen(&pose, boneCounts[i])) {
            const maul_BenchCase c = {name, poseIterations[i], boneCounts[i], maul_RunComputeModel, &pose};
            status |= maul_RunCase(out, &c);
        } else {
            maul_SetupFailed(out, name);
            status = 1;
        }
        maul_PoseClose(&pose);
    }

    /* Mirroring: MirrorPose on symmetric rigs with mirrored axes (identity
     * corrections) and turned axes, against ComputeModel on the same rig. */
    static const uint32_t mirrorChains[] = {4, 25}, mirrorLengths[] = {8, 20};
    for (int i = 0; i < 2; ++i) {
        for (int turned = 0; turned < 3; ++turned) {
            char name[48];
            const uint32_t n = 2 + 2 * mirrorChains[i] * mirrorLengths[i];
            snprintf(name, sizeof name, "mirror-%s-%u", turned == 0 ? "pose" : turned == 1 ? "pose-turned" : "compute-model", n);
            maul_MirrorState mirror;
            if (maul_MirrorOpen(&mirror, mirrorChains[i], mirrorLengths[i], turned == 1)) {
                const maul_BenchCase c = {name, i == 0 ? 20000u : 2000u, n,
                                          turned == 2 ? maul_RunMirrorComputeModel : maul_RunMirrorPose, &mirror};
                status |= maul_RunCase(out, &c);
            } else {
                maul_SetupFailed(out, name);
                status = 1;
            }
            maul_MirrorClose(&mirror);
        }
    }

    /* Blending: the per-bone column is ns per bone per layer (bones x layers items). */
    static const uint32_t blendBones[] = {20, 70, 550};
    static const uint32_t blendLayers[] = {2, 4};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) {
            char name[40];
            snprintf(name, sizeof name, "blend-%ux%u", blendBones[i], blendLayers[j]);
            maul_BlendState blend;
            if (maul_BlendOpen(&blend, blendBones[i], blendLayers[j])) {
                const maul_BenchCase c = {name, 200000u / blendBones[i] * 10u, blendBones[i] * blendLayers[j],
                                          maul_RunBlend, &blend};
                status |= maul_RunCase(out, &c);
            } else {
                maul_SetupFailed(out, name);
                status = 1;
            }
            maul_BlendClose(&blend);
        }

    /* Skinning: ns per vertex in the per-bone column (a vertex an item). */
    static const char* const skinNames[4] = {"skin-linear-5000x8", "skin-dual-quaternion-5000x8",
                                             "skin-blended-5000x8", "skin-centers-5000x8"};
    int skinWanted = maul_benchFilter == NULL;
    for (int m = 0; m < 4; ++m) skinWanted |= maul_benchFilter != NULL && maul_Wanted(skinNames[m]);
    if (skinWanted) { /* the mesh's setup (its centers) takes seconds: only when a case runs */
        maul_SkinState skin;
        const int opened = maul_SkinOpen(&skin, 5000, 8);
        for (int m = 0; m < 4; ++m) {
            if (!opened) {
                maul_SetupFailed(out, skinNames[m]);
                status = 1;
                continue;
            }
            skin.method = m;
            const maul_BenchCase c = {skinNames[m], 20, 5000, maul_RunSkin, &skin};
            status |= maul_RunCase(out, &c);
        }
        maul_SkinClose(&skin);
    }

    status |= maul_BenchClips(out);
    status |= maul_BenchCompress(out);
    status |= maul_BenchIk(out);
    status |= maul_BenchSprings(out);

    /* One easing of each kind (the host kind excepted: its cost is the host's). */
    typedef struct {
        const char* name;
        mtwnResult made;
        mtwnEasing easing;
    } maul_NamedEasing;
    maul_NamedEasing easings[16];
    size_t n = 0;
    mtwnSpring spring;
    const mtwnResult springMade = mtwnMakeSpringFromDuration(0.5, 0.3, &spring);
    static mtwnLinearPoint points[5] = {{0, 0}, {0.25, 0.4}, {0.5, 0.45}, {0.75, 0.9}, {1, 1}};
    easings[n].name = "easing-linear", easings[n].made = mtwn_success, easings[n++].easing = mtwnMakeLinearEasing();
    easings[n].name = "easing-power-3";
    easings[n].made = mtwnMakePowerEasing(mtwn_easeInOut, 3, &easings[n].easing), ++n;
    easings[n].name = "easing-power-2.5";
    easings[n].made = mtwnMakePowerEasing(mtwn_easeInOut, 2.5, &easings[n].easing), ++n;
    easings[n].name = "easing-sine";
    easings[n].made = mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeInOut, &easings[n].easing), ++n;
    easings[n].name = "easing-expo";
    easings[n].made = mtwnMakePennerEasing(mtwn_easingExpo, mtwn_easeInOut, &easings[n].easing), ++n;
    easings[n].name = "easing-circ";
    easings[n].made = mtwnMakePennerEasing(mtwn_easingCirc, mtwn_easeInOut, &easings[n].easing), ++n;
    easings[n].name = "easing-bounce";
    easings[n].made = mtwnMakePennerEasing(mtwn_easingBounce, mtwn_easeOut, &easings[n].easing), ++n;
    easings[n].name = "easing-back";
    easings[n].made = mtwnMakeBackEasing(mtwn_easeInOut, 1.70158, &easings[n].easing), ++n;
    easings[n].name = "easing-elastic";
    easings[n].made = mtwnMakeElasticEasing(mtwn_easeOut, 1, 0.3, &easings[n].easing), ++n;
    easings[n].name = "easing-cubic-bezier";
    easings[n].made = mtwnMakeCssEasing(mtwn_cssEase, &easings[n].easing), ++n;
    easings[n].name = "easing-steps";
    easings[n].made = mtwnMakeStepsEasing(5, mtwn_stepJumpEnd, &easings[n].easing), ++n;
    easings[n].name = "easing-linear-points";
    easings[n].made = mtwnMakeLinearPointsEasing(points, 5, &easings[n].easing), ++n;
    easings[n].name = "easing-spring";
    easings[n].made = springMade != mtwn_success ? springMade
                                                 : mtwnMakeSpringEasing(&spring, 1, 0, mtwn_easeIn, &easings[n].easing);
    ++n;
    for (size_t i = 0; i < n; ++i) {
        if (easings[i].made != mtwn_success) {
            maul_SetupFailed(out, easings[i].name);
            status = 1;
            continue;
        }
        const maul_BenchCase c = {easings[i].name, 1000000, 0, maul_RunEasing, &easings[i].easing};
        status |= maul_RunCase(out, &c);
    }

    mtwnEasing bezier;
    if (mtwnMakeCubicBezierEasing(0.68, -0.55, 0.265, 1.55, &bezier) == mtwn_success) {
        const maul_BenchCase c = {"cubic-bezier-solve", 1000000, 0, maul_RunCubicBezier, &bezier};
        status |= maul_RunCase(out, &c);
    } else {
        maul_SetupFailed(out, "cubic-bezier-solve");
        status = 1;
    }

    if (springMade == mtwn_success) {
        const maul_BenchCase c = {"spring-sample", 1000000, 0, maul_RunSpring, &spring};
        status |= maul_RunCase(out, &c);
    } else {
        maul_SetupFailed(out, "spring-sample");
        status = 1;
    }

    static const struct {
        const char* name;
        mtwnColorSpace space;
        mtwnHueMethod hue;
    } mixes[] = {{"color-mix-oklab", mtwn_colorOklab, mtwn_hueShorter}, {"color-mix-oklch", mtwn_colorOklch, mtwn_hueShorter}};
    for (int i = 0; i < 2; ++i) {
        const mtwnColor from = {0.9f, 0.2f, 0.1f, 1.0f}, to = {0.1f, 0.5f, 0.95f, 0.8f};
        mtwnColorMix mix;
        if (mtwnMakeColorMix(from, to, mixes[i].space, mixes[i].hue, &mix) == mtwn_success) {
            const maul_BenchCase c = {mixes[i].name, 200000, 0, maul_RunColor, &mix};
            status |= maul_RunCase(out, &c);
        } else {
            maul_SetupFailed(out, mixes[i].name);
            status = 1;
        }
    }

    maul_PathState* path = (maul_PathState*)malloc(sizeof *path);
    if (path != NULL && maul_PathOpen(path)) {
        const maul_BenchCase c = {"path-sample-constant-speed", 50000, 0, maul_RunPath, path};
        status |= maul_RunCase(out, &c);
    } else {
        maul_SetupFailed(out, "path-sample-constant-speed");
        status = 1;
    }
    free(path);
    status |= maul_BenchMorph(out);
    status |= maul_BenchTween(out);
    status |= maul_BenchMeshopt(out);
    status |= maul_BenchDraco(out);
    status |= maul_BenchCore(out);
    status |= maul_BenchJson(out);
    status |= maul_BenchBodyIk(out);
    status |= maul_BenchImport(out);
    if (maul_Wanted("match-search")) status |= maul_BenchMatch(out, maul_benchFilter != NULL);
    status |= maul_BenchRetarget(out);
    if (maul_Wanted("graph-update-evaluate-44") || maul_Wanted("graph-instances-1000")) status |= maul_BenchGraph(out);
    if (maul_Wanted("graph-locomotion-44") || maul_Wanted("graph-locomotion-1000") ||
        maul_Wanted("graph-locomotion-1000-threads-2"))
        status |= maul_BenchLocomotion(out);
    status |= maul_BenchLearned(out);
    return status;
}
