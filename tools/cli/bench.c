/* maul bench: micro-benchmarks (tools/cli/bench.h, docs/performance.md).
 *
 * Each case runs a fixed number of operations once to warm up, then 5 times
 * timed with clock_gettime(CLOCK_MONOTONIC); the table gives the median run's
 * ns per operation. Inputs vary from operation to operation (progress
 * i / 1023, seeded starts) so no branch predictor or cache sees one value;
 * results are summed into a volatile sink so no call is optimized away. */
#define _POSIX_C_SOURCE 199309L

#include "tools/cli/bench.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/pose.h"
#include "maul/tween/easing.h"
#include "maul/tween/interpolate.h"
#include "maul/tween/path.h"
#include "maul/tween/spring.h"

#define MAUL_BENCH_RUNS 5

static volatile double maul_benchSink;
static const char* maul_benchFilter; /* run only cases whose name contains it; NULL: all */

/* A case: run(state, iterations) does `iterations` operations and returns the
 * number that failed. */
typedef struct maul_BenchCase {
    const char* name;
    uint32_t iterations;
    uint32_t bones; /* per-bone cases: the bone count; otherwise 0 */
    uint64_t (*run)(void* state, uint32_t iterations);
    void* state;
} maul_BenchCase;

static double maul_Now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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

/* -- Driver ------------------------------------------------------------------------ */

static int maul_RunCase(FILE* out, const maul_BenchCase* c) {
    if (maul_benchFilter != NULL && strstr(c->name, maul_benchFilter) == NULL) return 0;
    double ns[MAUL_BENCH_RUNS];
    uint64_t failed = c->run(c->state, c->iterations); /* warm-up */
    for (int r = 0; r < MAUL_BENCH_RUNS; ++r) {
        const double t0 = maul_Now();
        failed += c->run(c->state, c->iterations);
        ns[r] = (maul_Now() - t0) / (double)c->iterations;
    }
    qsort(ns, MAUL_BENCH_RUNS, sizeof ns[0], maul_CompareDouble);
    const double median = ns[MAUL_BENCH_RUNS / 2];
    fprintf(out, "%-26s %10u %12.2f", c->name, c->iterations, median);
    if (c->bones) fprintf(out, " %10.3f", median / (double)c->bones);
    else fprintf(out, " %10s", "-");
    if (failed) fprintf(out, "  (%llu calls failed)", (unsigned long long)failed);
    fprintf(out, "\n");
    return failed != 0;
}

static void maul_SetupFailed(FILE* out, const char* name) { fprintf(out, "%-26s setup failed\n", name); }

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
    return status;
}
