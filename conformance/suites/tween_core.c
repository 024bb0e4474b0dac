/* Suite "tween-core": freezes the tween core (lib/tween): every easing kind
 * in every mode, the easing table and linear() fit, Web Animations timing,
 * staggers, springs, decays, the rubber band, colour, angle, rotation, scale,
 * zoom, integer and discrete mixes, punch and shake, and paths and tracks of
 * every segment kind, timed and at constant speed.
 *
 * Easings are sampled at N = 1024 progresses (kProgress): 1000 evenly from 0
 * to 1 (i / 999, 0 and 1 exact), then 24 at 1/2, the ends' neighbours and
 * outside 0 to 1, each with the before flag clear and set. Other cases draw
 * their inputs from a generator seeded with maniHash64(0, case name). Every
 * call's result code is hashed, then its outputs (only on success), field by
 * field with mconf_BytesU32/F32/F64. One case per family ("easing-elastic",
 * "timing-alternate", "color-oklch-longer", ...). */
#include <math.h> /* INFINITY, NAN, isfinite, floor (exact) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/core/detmath.h"
#include "lib/core/hash.h"
#include "lib/core/rng.h"
#include "maul/tween/easing.h"
#include "maul/tween/interpolate.h"
#include "maul/tween/path.h"
#include "maul/tween/sample.h"
#include "maul/tween/spring.h"
#include "maul/tween/timing.h"

void mconf_SuiteTweenCore(mconf_Run* run);

#define TC_N 1024
#define TC_EVEN 1000

static double kProgress[TC_N];

static void tc_InitProgress(void) {
    static const double extra[TC_N - TC_EVEN] = {
        0.5, -0x1p-1074, 0x1p-1074, 0x1p-53, 1.0 - 0x1p-53, 1.0 + 0x1p-52, -1e-9, 1.0 + 1e-9,
        -0.001, 1.001, -0.1, 1.1, -0.25, 1.25, -0.5, 1.5, -1.0, 2.0, -3.0, 4.0, -1e6, 1e6, -1e300, 1e300,
    };
    for (int i = 0; i < TC_EVEN; ++i) kProgress[i] = (double)i / (double)(TC_EVEN - 1);
    for (int i = 0; i < TC_N - TC_EVEN; ++i) kProgress[TC_EVEN + i] = extra[i];
}

static void tc_Seed(mcore_Rng* rng, const char* name) { mcore_RngSeed(rng, mcore_Hash64(0, name, strlen(name))); }

static double tc_Range(mcore_Rng* rng, double lo, double hi) { return lo + (hi - lo) * mcore_RngDouble01(rng); }

static void tc_Result(mconf_Bytes* b, mtwnResult r) { mconf_BytesU32(b, (uint32_t)r); }

/* An easing's make result, then (made) its samples at every progress, before
 * clear and set, in the mode it was made in and then each of the four. */
static void tc_AddEasing(mconf_Bytes* b, mtwnResult made, const mtwnEasing* easing) {
    tc_Result(b, made);
    if (made != mtwn_success) return;
    for (uint32_t mode = 0; mode < 5; ++mode) {
        mtwnEasing e = *easing;
        if (mode > 0) {
            const mtwnResult r = mtwnSetEaseMode(&e, (mtwnEaseMode)(mode - 1));
            tc_Result(b, r);
            if (r != mtwn_success) continue;
        }
        bool monotonic = false;
        const mtwnResult rm = mtwnIsEasingMonotonic(&e, &monotonic);
        tc_Result(b, rm);
        mconf_BytesU8(b, (uint8_t)(rm == mtwn_success && monotonic));
        for (int i = 0; i < TC_N; ++i) {
            for (int before = 0; before < 2; ++before) {
                double v = 0;
                const mtwnResult r = mtwnSampleEasing(&e, kProgress[i], before != 0, &v);
                tc_Result(b, r);
                if (r == mtwn_success) mconf_BytesF64(b, v);
            }
        }
        if (e.kind == mtwn_easingCubicBezier) {
            for (int i = 0; i < TC_N; ++i) {
                double v = 0;
                const mtwnResult r = mtwnSampleCubicBezierEasing(&e, kProgress[i], &v);
                tc_Result(b, r);
                if (r == mtwn_success) mconf_BytesF64(b, v);
            }
        }
    }
}

/* -- Easings ---------------------------------------------------------------- */

static void tc_Easings(mconf_Run* run, mconf_Bytes* b) {
    mtwnEasing e;

    e = mtwnMakeLinearEasing();
    tc_AddEasing(b, mtwn_success, &e);
    mconf_RecordBytes(run, "easing-linear", b);

    static const double exponents[] = {1, 2, 3, 4, 5, 6, 7, 8, 0.5, 1.5, 2.5, 0.01, 9, 64};
    for (size_t i = 0; i < sizeof exponents / sizeof exponents[0]; ++i)
        tc_AddEasing(b, mtwnMakePowerEasing(mtwn_easeIn, exponents[i], &e), &e);
    mconf_RecordBytes(run, "easing-power", b);

    static const struct {
        mtwnEasingKind kind;
        const char* name;
    } penner[] = {{mtwn_easingSine, "easing-sine"},
                  {mtwn_easingExpo, "easing-expo"},
                  {mtwn_easingCirc, "easing-circ"},
                  {mtwn_easingBounce, "easing-bounce"}};
    for (size_t k = 0; k < 4; ++k) {
        tc_AddEasing(b, mtwnMakePennerEasing(penner[k].kind, mtwn_easeIn, &e), &e);
        mconf_RecordBytes(run, penner[k].name, b);
    }

    static const double overshoots[] = {0, 1.70158, 1.70158 * 1.525, 0.5, 10, 1024};
    for (size_t i = 0; i < sizeof overshoots / sizeof overshoots[0]; ++i)
        tc_AddEasing(b, mtwnMakeBackEasing(mtwn_easeIn, overshoots[i], &e), &e);
    mconf_RecordBytes(run, "easing-back", b);

    static const double elastic[][2] = {{1, 0.3}, {1, 0.45}, {1, 0.4}, {0.5, 0.3}, {2, 0.4},
                                        {512, 0.1}, {0.25, 0.5}, {1, 0.0009765625}, {3, 2.5}};
    for (size_t i = 0; i < sizeof elastic / sizeof elastic[0]; ++i)
        tc_AddEasing(b, mtwnMakeElasticEasing(mtwn_easeIn, elastic[i][0], elastic[i][1], &e), &e);
    mconf_RecordBytes(run, "easing-elastic", b);

    static const double beziers[][4] = {
        {0.25, 0.1, 0.25, 1}, {0, 0, 1, 1},   {0.68, -0.55, 0.265, 1.55}, {0, 1, 1, 0}, {1, 0, 0, 1},
        {0, 0, 0, 1},         {1, 0, 1, 1},   {0.5, 2, 0.5, -1},          {0.1, 5, 0.9, -4}, {0.3, 0.3, 0.7, 0.7},
        {0, 0.5, 0, 0.5},     {1, 0.5, 1, 0.5}, {0.999, 0, 0.001, 1},
    };
    for (size_t i = 0; i < sizeof beziers / sizeof beziers[0]; ++i)
        tc_AddEasing(b, mtwnMakeCubicBezierEasing(beziers[i][0], beziers[i][1], beziers[i][2], beziers[i][3], &e), &e);
    mconf_RecordBytes(run, "easing-cubic-bezier", b);

    for (uint32_t k = 0; k <= (uint32_t)mtwn_cssStepEnd; ++k)
        tc_AddEasing(b, mtwnMakeCssEasing((mtwnCssKeyword)k, &e), &e);
    mconf_RecordBytes(run, "easing-css", b);

    static const uint32_t stepCounts[] = {1, 2, 3, 4, 5, 7, 10, 100};
    for (uint32_t pos = 0; pos < 4; ++pos)
        for (size_t i = 0; i < sizeof stepCounts / sizeof stepCounts[0]; ++i)
            tc_AddEasing(b, mtwnMakeStepsEasing(stepCounts[i], (mtwnStepPosition)pos, &e), &e);
    mconf_RecordBytes(run, "easing-steps", b);

    {
        const double nan = NAN;
        mtwnLinearPoint sets[][6] = {
            {{0, 0}, {1, 1}},
            {{nan, 0}, {nan, 0.25}, {nan, 1}},
            {{nan, 0}, {0.2, 0.8}, {nan, 0.3}, {0.1, 0.5}, {nan, 1}, {nan, 0.9}},
            {{-0.5, -1}, {0.5, 0.5}, {0.5, 0.7}, {1.5, 2}},
            {{0, 1}, {0.3, 0}, {0.6, 1}, {1, 0}},
            {{0.25, 0.1}, {0.75, 0.9}},
        };
        const uint32_t counts[] = {2, 3, 6, 4, 4, 2};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
            tc_AddEasing(b, mtwnMakeLinearPointsEasing(sets[i], counts[i], &e), &e);
            if (e.kind == mtwn_easingLinearPoints)
                for (uint32_t k = 0; k < counts[i]; ++k) {
                    mconf_BytesF64(b, sets[i][k].input);
                    mconf_BytesF64(b, sets[i][k].output);
                }
        }
        mconf_RecordBytes(run, "easing-linear-points", b);
    }

    {
        static const uint64_t seeds[] = {0, 1, 0x5EED, UINT64_C(0xFFFFFFFFFFFFFFFF), 1234567};
        static const uint32_t counts[] = {2, 5, 20, 64};
        mtwnLinearPoint points[64];
        for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; ++s) {
            for (uint32_t taper = 0; taper < 4; ++taper) {
                mtwnRoughDef def;
                memset(&def, 0, sizeof def);
                if (mtwnMakePennerEasing(mtwn_easingSine, (mtwnEaseMode)(taper % 4), &def.shape) != mtwn_success) {
                    mconf_BytesU32(b, 0xFFFFFFFFu);
                    continue;
                }
                def.strength = 0.1 + 0.2 * (double)s;
                def.seed = seeds[s];
                def.taper = taper;
                def.flags = (s + taper) % 2 ? MTWN_ROUGH_CLAMP : 0;
                const uint32_t count = counts[(s + taper) % 4];
                tc_AddEasing(b, mtwnMakeRoughEasing(&def, points, count, &e), &e);
                for (uint32_t k = 0; k < count && e.kind == mtwn_easingLinearPoints; ++k) {
                    mconf_BytesF64(b, points[k].input);
                    mconf_BytesF64(b, points[k].output);
                }
            }
        }
        mconf_RecordBytes(run, "easing-rough", b);
    }

    {
        /* hertz, ratio, duration, velocity */
        static const double springs[][4] = {
            {1, 0.5, 1, 0},   {2, 0.1, 1, 0},   {1, 1, 1, 0},    {1, 1, 2, 3},   {0.5, 2, 1, 0},
            {3, 0.3, 0.5, -2}, {1, 5, 3, 1},    {10, 0.7, 0.25, 0}, {0.2, 0, 1, 0}, {4, 0.05, 2, 10},
        };
        for (size_t i = 0; i < sizeof springs / sizeof springs[0]; ++i) {
            mtwnSpring s;
            const mtwnResult r = mtwnMakeSpringFromFrequency(springs[i][0], springs[i][1], &s);
            tc_Result(b, r);
            if (r != mtwn_success) continue;
            tc_AddEasing(b, mtwnMakeSpringEasing(&s, springs[i][2], springs[i][3], mtwn_easeIn, &e), &e);
            if (e.kind == mtwn_easingSpring)
                for (int k = 0; k < MTWN_EASING_PARAM_COUNT; ++k) mconf_BytesF64(b, e.params[k]);
        }
        mconf_RecordBytes(run, "easing-spring", b);
    }
}

/* The easings the table and fit cases run over. */
static size_t tc_SomeEasings(mtwnEasing* out, mtwnLinearPoint* points) {
    size_t n = 0;
    out[n++] = mtwnMakeLinearEasing();
    if (mtwnMakePowerEasing(mtwn_easeInOut, 3, &out[n]) == mtwn_success) ++n;
    if (mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeOut, &out[n]) == mtwn_success) ++n;
    if (mtwnMakePennerEasing(mtwn_easingExpo, mtwn_easeInOut, &out[n]) == mtwn_success) ++n;
    if (mtwnMakePennerEasing(mtwn_easingCirc, mtwn_easeOutIn, &out[n]) == mtwn_success) ++n;
    if (mtwnMakePennerEasing(mtwn_easingBounce, mtwn_easeOut, &out[n]) == mtwn_success) ++n;
    if (mtwnMakeBackEasing(mtwn_easeInOut, 1.70158, &out[n]) == mtwn_success) ++n;
    if (mtwnMakeElasticEasing(mtwn_easeOut, 1, 0.3, &out[n]) == mtwn_success) ++n;
    if (mtwnMakeCssEasing(mtwn_cssEase, &out[n]) == mtwn_success) ++n;
    if (mtwnMakeCubicBezierEasing(0.68, -0.55, 0.265, 1.55, &out[n]) == mtwn_success) ++n;
    if (mtwnMakeStepsEasing(4, mtwn_stepJumpBoth, &out[n]) == mtwn_success) ++n;
    points[0] = (mtwnLinearPoint){0, 0};
    points[1] = (mtwnLinearPoint){0.3, 0.7};
    points[2] = (mtwnLinearPoint){1, 1};
    if (mtwnMakeLinearPointsEasing(points, 3, &out[n]) == mtwn_success) ++n;
    mtwnSpring s;
    if (mtwnMakeSpringFromDuration(0.5, 0.3, &s) == mtwn_success &&
        mtwnMakeSpringEasing(&s, 1, 0, mtwn_easeIn, &out[n]) == mtwn_success)
        ++n;
    return n;
}

static void tc_Sampling(mconf_Run* run, mconf_Bytes* b) {
    mtwnEasing easings[16];
    mtwnLinearPoint points[3];
    const size_t n = tc_SomeEasings(easings, points);
    mconf_BytesU32(b, (uint32_t)n);
    static const uint32_t counts[] = {2, 3, 17, 256, 1025};
    float* table = malloc(1025 * sizeof *table);
    for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            const mtwnResult r = table ? mtwnSampleEasingTable(&easings[i], counts[c], table) : mtwn_errorCapacity;
            tc_Result(b, r);
            if (r == mtwn_success)
                for (uint32_t k = 0; k < counts[c]; ++k) mconf_BytesF32(b, table[k]);
        }
    free(table);
    mconf_RecordBytes(run, "sample-table", b);

    static const double tolerances[] = {0.1, 0.01, 1e-3, 1e-5};
    for (size_t i = 0; i < n; ++i)
        for (size_t t = 0; t < sizeof tolerances / sizeof tolerances[0]; ++t) {
            uint32_t count = 0;
            mtwnResult r = mtwnFitLinearEasing(&easings[i], tolerances[t], NULL, 0, &count);
            tc_Result(b, r);
            mconf_BytesU32(b, count);
            if (r != mtwn_errorCapacity || count == 0) continue;
            mtwnLinearPoint* fit = malloc(count * sizeof *fit);
            if (fit == NULL) continue;
            uint32_t written = 0;
            r = mtwnFitLinearEasing(&easings[i], tolerances[t], fit, count, &written);
            tc_Result(b, r);
            mconf_BytesU32(b, written);
            if (r == mtwn_success)
                for (uint32_t k = 0; k < written; ++k) {
                    mconf_BytesF64(b, fit[k].input);
                    mconf_BytesF64(b, fit[k].output);
                }
            free(fit);
        }
    mconf_RecordBytes(run, "sample-fit-linear", b);
}

/* -- Timing ------------------------------------------------------------------ */

static void tc_AddTimingResult(mconf_Bytes* b, const mtwnTimingResult* t) {
    mconf_BytesF64(b, t->activeDuration);
    mconf_BytesF64(b, t->endTime);
    mconf_BytesF64(b, t->activeTime);
    mconf_BytesF64(b, t->overallProgress);
    mconf_BytesF64(b, t->iterationProgress);
    mconf_BytesF64(b, t->currentIteration);
    mconf_BytesF64(b, t->directedProgress);
    mconf_BytesF64(b, t->transformedProgress);
    mconf_BytesU32(b, t->phase);
    mconf_BytesU8(b, (uint8_t)((t->inEffect ? 1 : 0) | (t->forwards ? 2 : 0) | (t->before ? 4 : 0) |
                               (t->inRepeatDelay ? 8 : 0)));
}

/* A timing over 1024 seeded local times around its active interval, plus its
 * interval's edges, in both animation directions. */
static void tc_AddTiming(mconf_Bytes* b, const char* name, const mtwnTiming* timing) {
    mcore_Rng rng;
    tc_Seed(&rng, name);
    tc_Result(b, mtwnValidateTiming(timing));
    const double span = isfinite(timing->duration) ? timing->duration * 6 + 4 : 40;
    for (int i = 0; i < 1040; ++i) {
        double t;
        if (i < 1024) {
            t = timing->delay - 1 + tc_Range(&rng, 0, span);
            if (i % 8 == 0) t = floor(t * 4) / 4; /* on quarter boundaries */
        } else {
            static const double fixed[] = {0, -0.0, 1, 2, 3, 0.5, 1e-12, -1e-12, 1e9, -1e9, INFINITY, 0.25, 0.75, 1.5, 2.5, 5};
            t = timing->delay + fixed[i - 1024];
        }
        for (int back = 0; back < 2; ++back) {
            mtwnTimingResult res;
            const mtwnResult r = mtwnComputeTiming(timing, t, back != 0, &res);
            tc_Result(b, r);
            if (r == mtwn_success) tc_AddTimingResult(b, &res);
        }
    }
}

static void tc_Timing(mconf_Run* run, mconf_Bytes* b) {
    static const char* directions[] = {"timing-normal", "timing-reverse", "timing-alternate",
                                       "timing-alternate-reverse"};
    for (uint32_t d = 0; d < 4; ++d) {
        for (uint32_t rev = 0; rev < 2; ++rev) {
            mtwnTiming t = mtwnDefaultTiming();
            t.duration = 1;
            t.iterations = 3.5;
            t.direction = d;
            t.fill = mtwn_fillBoth;
            t.reverseEasing = rev;
            if (mtwnMakePennerEasing(mtwn_easingCirc, mtwn_easeIn, &t.easing) != mtwn_success) continue;
            tc_AddTiming(b, directions[d], &t);
        }
        mconf_RecordBytes(run, directions[d], b);
    }

    static const char* fills[] = {"timing-fill-none", "timing-fill-forwards", "timing-fill-backwards",
                                  "timing-fill-both"};
    for (uint32_t f = 0; f < 4; ++f) {
        mtwnTiming t = mtwnDefaultTiming();
        t.duration = 2;
        t.delay = 0.5;
        t.endDelay = 0.25;
        t.iterations = 2;
        t.fill = f;
        if (mtwnMakeStepsEasing(3, mtwn_stepJumpStart, &t.easing) != mtwn_success) continue;
        tc_AddTiming(b, fills[f], &t);
        t.iterations = 0;
        tc_AddTiming(b, fills[f], &t);
        t.iterations = 1;
        t.duration = 0;
        tc_AddTiming(b, fills[f], &t);
        mconf_RecordBytes(run, fills[f], b);
    }

    static const double starts[] = {0, 0.25, 0.5, 1, 1.75, 3};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; ++i) {
        mtwnTiming t = mtwnDefaultTiming();
        t.duration = 1.5;
        t.iterations = 2.25;
        t.iterationStart = starts[i];
        t.fill = mtwn_fillBoth;
        t.direction = mtwn_directionAlternate;
        if (mtwnMakeBackEasing(mtwn_easeInOut, 1.70158, &t.easing) != mtwn_success) continue;
        tc_AddTiming(b, "timing-iteration-start", &t);
    }
    mconf_RecordBytes(run, "timing-iteration-start", b);

    static const double rates[] = {1, 2, 0.5, -1, -3, 1e-3, 7.25};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; ++i) {
        mtwnTiming t = mtwnDefaultTiming();
        t.duration = 1;
        t.iterations = 3;
        t.playbackRate = rates[i];
        t.fill = mtwn_fillBoth;
        t.direction = (uint32_t)(i % 4);
        if (mtwnMakeCssEasing(mtwn_cssEaseInOut, &t.easing) != mtwn_success) continue;
        tc_AddTiming(b, "timing-rates", &t);
    }
    mconf_RecordBytes(run, "timing-rates", b);

    static const double delays[][2] = {{0, 0}, {1, 0}, {-0.5, 0}, {0.5, 1}, {0.25, -2}, {-3, -1}};
    for (size_t i = 0; i < sizeof delays / sizeof delays[0]; ++i) {
        mtwnTiming t = mtwnDefaultTiming();
        t.duration = 1;
        t.iterations = 2;
        t.delay = delays[i][0];
        t.endDelay = delays[i][1];
        t.fill = (uint32_t)(i % 4);
        if (mtwnMakePowerEasing(mtwn_easeOut, 2, &t.easing) != mtwn_success) continue;
        tc_AddTiming(b, "timing-delays", &t);
    }
    mconf_RecordBytes(run, "timing-delays", b);

    static const double repeatDelays[] = {0, 0.5, 2};
    for (size_t i = 0; i < sizeof repeatDelays / sizeof repeatDelays[0]; ++i)
        for (uint32_t d = 0; d < 4; ++d) {
            mtwnTiming t = mtwnDefaultTiming();
            t.duration = 1;
            t.iterations = 3;
            t.repeatDelay = repeatDelays[i];
            t.direction = d;
            t.reverseEasing = d % 2;
            t.fill = mtwn_fillBoth;
            if (mtwnMakePennerEasing(mtwn_easingBounce, mtwn_easeOut, &t.easing) != mtwn_success) continue;
            tc_AddTiming(b, "timing-repeat-delay", &t);
        }
    mconf_RecordBytes(run, "timing-repeat-delay", b);

    for (int i = 0; i < 4; ++i) {
        mtwnTiming t = mtwnDefaultTiming();
        t.duration = i < 2 ? 1.25 : INFINITY;
        t.iterations = i < 2 ? INFINITY : 1;
        t.direction = (uint32_t)i;
        t.fill = mtwn_fillForwards;
        t.playbackRate = i % 2 ? 0.5 : 2; /* a backward play of an infinite one is refused */
        if (mtwnMakeElasticEasing(mtwn_easeOut, 1, 0.3, &t.easing) != mtwn_success) continue;
        tc_AddTiming(b, "timing-infinite", &t);
    }
    mconf_RecordBytes(run, "timing-infinite", b);

    /* Staggers: every origin, axis and spacing kind, in one row and in grids. */
    static const uint32_t columns[] = {0, 1, 4, 7};
    double offsets[60];
    for (uint32_t origin = 0; origin < 5; ++origin)
        for (uint32_t axis = 0; axis < 3; ++axis)
            for (uint32_t kind = 0; kind < 2; ++kind)
                for (size_t c = 0; c < sizeof columns / sizeof columns[0]; ++c) {
                    mtwnStagger s = mtwnDefaultStagger();
                    s.origin = origin;
                    s.axis = axis;
                    s.spacingKind = kind;
                    s.columns = columns[c];
                    s.originIndex = 17;
                    s.start = 0.125 * (double)c;
                    s.spacing = (origin + axis + kind) % 2 ? -0.3 : 0.07;
                    if (c == 2 && mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeInOut, &s.ease) != mtwn_success)
                        continue;
                    const mtwnResult r = mtwnComputeStagger(&s, 60, offsets);
                    tc_Result(b, r);
                    if (r == mtwn_success)
                        for (int k = 0; k < 60; ++k) mconf_BytesF64(b, offsets[k]);
                }
    mconf_RecordBytes(run, "stagger", b);
}

/* -- Springs and decays ----------------------------------------------------------- */

static void tc_Springs(mconf_Run* run, mconf_Bytes* b) {
    mcore_Rng rng;
    mtwnSpring springs[12];
    size_t n = 0;
    /* stiffness, damping, mass; then frequency and duration makers */
    static const double physical[][3] = {{100, 10, 1}, {170, 26, 1}, {300, 5, 2}, {1, 0, 1}, {50, 40, 1}};
    for (size_t i = 0; i < 5; ++i) {
        const mtwnResult r = mtwnMakeSpring(physical[i][0], physical[i][1], physical[i][2], &springs[n]);
        tc_Result(b, r);
        if (r == mtwn_success) ++n;
    }
    static const double freq[][2] = {{1, 1}, {2.5, 0.2}, {0.5, 3}};
    for (size_t i = 0; i < 3; ++i) {
        const mtwnResult r = mtwnMakeSpringFromFrequency(freq[i][0], freq[i][1], &springs[n]);
        tc_Result(b, r);
        if (r == mtwn_success) ++n;
    }
    static const double dur[][2] = {{0.5, 0}, {1, 0.5}, {0.3, -0.5}, {2, 0.99}};
    for (size_t i = 0; i < 4; ++i) {
        const mtwnResult r = mtwnMakeSpringFromDuration(dur[i][0], dur[i][1], &springs[n]);
        tc_Result(b, r);
        if (r == mtwn_success) ++n;
    }
    for (size_t i = 0; i < n; ++i) {
        mconf_BytesF64(b, springs[i].omega);
        mconf_BytesF64(b, springs[i].zeta);
    }
    mconf_RecordBytes(run, "spring-make", b);

    tc_Seed(&rng, "spring-sample");
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 512; ++k) {
            const double x0 = tc_Range(&rng, -100, 100), v0 = tc_Range(&rng, -1000, 1000);
            const double t = k % 64 == 0 ? (double)(k / 64) : tc_Range(&rng, 0, 5);
            double x = 0, v = 0;
            mtwnResult r = mtwnSampleSpring(&springs[i], x0, v0, t, &x, &v);
            tc_Result(b, r);
            if (r == mtwn_success) mconf_BytesF64(b, x), mconf_BytesF64(b, v);
            mtwnSpringMotion m;
            r = mtwnComputeSpringMotion(&springs[i], t, &m);
            tc_Result(b, r);
            if (r == mtwn_success) {
                mconf_BytesF64(b, m.offsetFromOffset);
                mconf_BytesF64(b, m.offsetFromVelocity);
                mconf_BytesF64(b, m.velocityFromOffset);
                mconf_BytesF64(b, m.velocityFromVelocity);
            }
        }
    mconf_RecordBytes(run, "spring-sample", b);

    tc_Seed(&rng, "spring-settle");
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 64; ++k) {
            const double x0 = tc_Range(&rng, -100, 100), v0 = tc_Range(&rng, -1000, 1000);
            const double tol = k % 2 ? 1e-3 : 0.5;
            double t = 0;
            const mtwnResult r = mtwnComputeSpringSettlingTime(&springs[i], x0, v0, tol, tol * 10, &t);
            tc_Result(b, r);
            if (r == mtwn_success) mconf_BytesF64(b, t);
        }
    mconf_RecordBytes(run, "spring-settle", b);

    mtwnDecay decays[4];
    memset(decays, 0, sizeof decays);
    size_t nd = 0;
    tc_Result(b, mtwnMakeDecay(2.5, &decays[nd]));
    ++nd;
    tc_Result(b, mtwnMakeDecayFromDeceleration(0.998, &decays[nd]));
    ++nd;
    tc_Result(b, mtwnMakeDecayFromDeceleration(0.99, &decays[nd]));
    ++nd;
    tc_Result(b, mtwnMakeDecayToRest(10, 250, 137.5, &decays[nd]));
    ++nd;
    tc_Seed(&rng, "decay");
    for (size_t i = 0; i < nd; ++i) {
        if (decays[i].cookie != MTWN_DECAY_COOKIE) continue;
        mconf_BytesF64(b, decays[i].rate);
        for (int k = 0; k < 256; ++k) {
            const double p0 = tc_Range(&rng, -500, 500), v0 = tc_Range(&rng, -3000, 3000);
            double t = k == 0 ? INFINITY : tc_Range(&rng, 0, 3);
            double p = 0, v = 0;
            mtwnResult r = mtwnSampleDecay(&decays[i], p0, v0, t, &p, &v);
            tc_Result(b, r);
            if (r == mtwn_success) mconf_BytesF64(b, p), mconf_BytesF64(b, v);
            r = mtwnComputeDecayStopTime(&decays[i], v0, 0.5, &t);
            tc_Result(b, r);
            if (r == mtwn_success) mconf_BytesF64(b, t);
            r = mtwnComputeDecayCrossingTime(&decays[i], p0, v0, tc_Range(&rng, -600, 600), &t);
            tc_Result(b, r);
            if (r == mtwn_success) mconf_BytesF64(b, t);
        }
    }
    mconf_RecordBytes(run, "decay", b);

    tc_Seed(&rng, "decay-bounded");
    for (size_t i = 0; i < nd && n > 1; ++i) {
        mtwnBoundedDecay bd;
        const mtwnResult rm = mtwnMakeBoundedDecay(&decays[i], &springs[i % n], -100, i == 2 ? INFINITY : 200, &bd);
        tc_Result(b, rm);
        if (rm != mtwn_success) continue;
        for (int k = 0; k < 256; ++k) {
            const double p0 = tc_Range(&rng, -150, 250), v0 = tc_Range(&rng, -2000, 2000);
            double t = tc_Range(&rng, 0, 4);
            double p = 0, v = 0;
            mtwnResult r = mtwnSampleBoundedDecay(&bd, p0, v0, t, &p, &v);
            tc_Result(b, r);
            if (r == mtwn_success) mconf_BytesF64(b, p), mconf_BytesF64(b, v);
            r = mtwnComputeBoundedDecayStopTime(&bd, p0, v0, 0.01, 0.5, &t);
            tc_Result(b, r);
            if (r == mtwn_success) mconf_BytesF64(b, t);
        }
    }
    mconf_RecordBytes(run, "decay-bounded", b);

    tc_Seed(&rng, "rubber-band");
    for (int k = 0; k < 1024; ++k) {
        const double d = tc_Range(&rng, -5000, 5000), dim = tc_Range(&rng, 1, 2000);
        const double c = k % 2 ? 0.55 : tc_Range(&rng, 0.01, 2);
        double o = 0, back = 0;
        mtwnResult r = mtwnApplyRubberBand(d, dim, c, &o);
        tc_Result(b, r);
        if (r != mtwn_success) continue;
        mconf_BytesF64(b, o);
        r = mtwnInvertRubberBand(o, dim, c, &back);
        tc_Result(b, r);
        if (r == mtwn_success) mconf_BytesF64(b, back);
    }
    mconf_RecordBytes(run, "rubber-band", b);
}

/* -- Mixes ------------------------------------------------------------------------ */

static void tc_AddColor(mconf_Bytes* b, mtwnColor c) {
    mconf_BytesF32(b, c.r);
    mconf_BytesF32(b, c.g);
    mconf_BytesF32(b, c.b);
    mconf_BytesF32(b, c.a);
}

static mtwnColor tc_RandomColor(mcore_Rng* rng, int k) {
    mtwnColor c;
    c.r = mcore_RngFloat01(rng);
    c.g = mcore_RngFloat01(rng);
    c.b = mcore_RngFloat01(rng);
    c.a = k % 3 ? 1.0f : mcore_RngFloat01(rng);
    if (k % 7 == 0) c.g = c.b = c.r; /* grey: a powerless hue */
    if (k % 11 == 0) c.r = mcore_RngFloatRange(rng, -0.2f, 1.2f); /* out of gamut */
    return c;
}

static void tc_Mixes(mconf_Run* run, mconf_Bytes* b) {
    static const char* spaces[] = {"srgb", "srgb-linear", "xyz-d65", "oklab", "oklch"};
    static const char* hues[] = {"shorter", "longer", "increasing", "decreasing"};
    mcore_Rng rng;
    char name[64];
    for (uint32_t s = 0; s < 5; ++s)
        for (uint32_t h = 0; h < 4; ++h) {
            snprintf(name, sizeof name, "color-%s-%s", spaces[s], hues[h]);
            tc_Seed(&rng, name);
            for (int k = 0; k < 64; ++k) {
                /* One draw a statement: an argument list's or an initializer
                 * list's order of evaluation is unspecified in C. */
                const mtwnColor c0 = tc_RandomColor(&rng, k);
                const mtwnColor c1 = tc_RandomColor(&rng, k + 1);
                mtwnColorMix mix;
                const mtwnResult r = mtwnMakeColorMix(c0, c1, (mtwnColorSpace)s, (mtwnHueMethod)h, &mix);
                tc_Result(b, r);
                if (r != mtwn_success) continue;
                for (int c = 0; c < 4; ++c) mconf_BytesF64(b, mix.start[c]), mconf_BytesF64(b, mix.end[c]);
                for (int i = 0; i < 33; ++i) {
                    const double p = i < 32 ? (double)i / 31.0 : tc_Range(&rng, -0.5, 1.5);
                    mtwnColor out;
                    const mtwnResult rs = mtwnMixColor(&mix, p, &out);
                    tc_Result(b, rs);
                    if (rs == mtwn_success) tc_AddColor(b, out);
                }
            }
            mconf_RecordBytes(run, name, b);
        }

    tc_Seed(&rng, "color-convert");
    for (int k = 0; k < 512; ++k) {
        const mtwnColor c = tc_RandomColor(&rng, k);
        for (uint32_t s = 0; s < 5; ++s) {
            double coords[4];
            mtwnResult r = mtwnConvertColorToSpace(c, (mtwnColorSpace)s, coords);
            tc_Result(b, r);
            if (r != mtwn_success) continue;
            for (int i = 0; i < 4; ++i) mconf_BytesF64(b, coords[i]);
            mtwnColor back;
            r = mtwnConvertColorFromSpace(coords, (mtwnColorSpace)s, &back);
            tc_Result(b, r);
            if (r == mtwn_success) tc_AddColor(b, back);
        }
    }
    mconf_RecordBytes(run, "color-convert", b);

    /* CSS Color 4's other spaces (interpolate.h values 5 to 13), in the
     * style of the cases above, their own seeds. */
    static const char* cssSpaces[] = {"lab", "lch", "xyz-d50", "hsl", "hwb",
                                      "display-p3", "rec2020", "a98-rgb", "prophoto-rgb"};
    for (uint32_t s = 5; s < 14; ++s)
        for (uint32_t h = 0; h < 4; ++h) {
            snprintf(name, sizeof name, "color-%s-%s", cssSpaces[s - 5], hues[h]);
            tc_Seed(&rng, name);
            for (int k = 0; k < 64; ++k) {
                const mtwnColor c0 = tc_RandomColor(&rng, k);
                const mtwnColor c1 = tc_RandomColor(&rng, k + 1);
                mtwnColorMix mix;
                const mtwnResult r = mtwnMakeColorMix(c0, c1, (mtwnColorSpace)s, (mtwnHueMethod)h, &mix);
                tc_Result(b, r);
                if (r != mtwn_success) continue;
                for (int c = 0; c < 4; ++c) mconf_BytesF64(b, mix.start[c]), mconf_BytesF64(b, mix.end[c]);
                for (int i = 0; i < 33; ++i) {
                    const double p = i < 32 ? (double)i / 31.0 : tc_Range(&rng, -0.5, 1.5);
                    mtwnColor out;
                    const mtwnResult rs = mtwnMixColor(&mix, p, &out);
                    tc_Result(b, rs);
                    if (rs == mtwn_success) tc_AddColor(b, out);
                }
            }
            mconf_RecordBytes(run, name, b);
        }

    tc_Seed(&rng, "color-convert-css4");
    for (int k = 0; k < 512; ++k) {
        const mtwnColor c = tc_RandomColor(&rng, k);
        for (uint32_t s = 5; s < 15; ++s) { /* 14: the first unknown space, refused */
            double coords[4];
            mtwnResult r = mtwnConvertColorToSpace(c, (mtwnColorSpace)s, coords);
            tc_Result(b, r);
            if (r != mtwn_success) continue;
            for (int i = 0; i < 4; ++i) mconf_BytesF64(b, coords[i]);
            mtwnColor back;
            r = mtwnConvertColorFromSpace(coords, (mtwnColorSpace)s, &back);
            tc_Result(b, r);
            if (r == mtwn_success) tc_AddColor(b, back);
        }
    }
    mconf_RecordBytes(run, "color-convert-css4", b);

    static const char* angles[] = {"angle-shorter", "angle-longer", "angle-increasing", "angle-decreasing"};
    for (uint32_t m = 0; m < 4; ++m) {
        tc_Seed(&rng, angles[m]);
        for (int k = 0; k < 1024; ++k) {
            const double a0 = tc_Range(&rng, -20, 20), a1 = k % 16 == 0 ? a0 + 3.141592653589793 : tc_Range(&rng, -20, 20);
            const double p = k % 4 == 0 ? (double)(k % 5) / 4.0 : tc_Range(&rng, -0.25, 1.25);
            double out = 0;
            const mtwnResult r = mtwnMixAngle(a0, a1, (mtwnAngleMethod)m, p, &out);
            tc_Result(b, r);
            if (r == mtwn_success) mconf_BytesF64(b, out);
        }
        mconf_RecordBytes(run, angles[m], b);
    }

    static const char* rotations[] = {"rotation-shortest", "rotation-longest"};
    for (uint32_t path = 0; path < 2; ++path) {
        tc_Seed(&rng, rotations[path]);
        for (int k = 0; k < 128; ++k) {
            mtwnQuat q0, q1;
            q0.x = mcore_RngFloatRange(&rng, -1, 1);
            q0.y = mcore_RngFloatRange(&rng, -1, 1);
            q0.z = mcore_RngFloatRange(&rng, -1, 1);
            q0.w = mcore_RngFloatRange(&rng, -1, 1);
            q1.x = mcore_RngFloatRange(&rng, -1, 1);
            q1.y = mcore_RngFloatRange(&rng, -1, 1);
            q1.z = mcore_RngFloatRange(&rng, -1, 1);
            q1.w = mcore_RngFloatRange(&rng, -1, 1);
            if (k % 8 == 0) q1 = q0; /* equal: no angle */
            if (k % 8 == 1) q1 = (mtwnQuat){-q0.x, -q0.y, -q0.z, -q0.w}; /* antipodal */
            if (k % 8 == 2) q1 = (mtwnQuat){q0.x * 3, q0.y * 3, q0.z * 3, q0.w * 3 + 1e-4f}; /* nearly equal */
            mtwnRotationMix mix;
            const mtwnResult r = mtwnMakeRotationMix(q0, q1, (mtwnRotationPath)path, &mix);
            tc_Result(b, r);
            if (r != mtwn_success) continue;
            for (int c = 0; c < 4; ++c) mconf_BytesF64(b, mix.from[c]), mconf_BytesF64(b, mix.to[c]);
            mconf_BytesF64(b, mix.angle);
            for (int i = 0; i < 17; ++i) {
                const double p = i < 16 ? (double)i / 15.0 : tc_Range(&rng, -0.5, 1.5);
                mtwnQuat out;
                const mtwnResult rs = mtwnMixRotation(&mix, p, &out);
                tc_Result(b, rs);
                if (rs == mtwn_success) {
                    mconf_BytesF32(b, out.x);
                    mconf_BytesF32(b, out.y);
                    mconf_BytesF32(b, out.z);
                    mconf_BytesF32(b, out.w);
                }
            }
        }
        mconf_RecordBytes(run, rotations[path], b);
    }

    tc_Seed(&rng, "scale");
    for (int k = 0; k < 256; ++k) {
        const double s0 = mcore_exp2(tc_Range(&rng, -20, 20)), s1 = k % 9 == 0 ? s0 : mcore_exp2(tc_Range(&rng, -20, 20));
        mtwnScaleMix mix;
        const mtwnResult r = mtwnMakeScaleMix(s0, s1, &mix);
        tc_Result(b, r);
        if (r != mtwn_success) continue;
        mconf_BytesF64(b, mix.logFrom);
        mconf_BytesF64(b, mix.logTo);
        for (int i = 0; i < 9; ++i) {
            double out = 0;
            const mtwnResult rs = mtwnMixScale(&mix, i < 8 ? (double)i / 7.0 : tc_Range(&rng, -1, 2), &out);
            tc_Result(b, rs);
            if (rs == mtwn_success) mconf_BytesF64(b, out);
        }
    }
    mconf_RecordBytes(run, "scale", b);

    tc_Seed(&rng, "zoom");
    static const double rhos[] = {1.4142135623730951, 0.5, 1, 4};
    for (int k = 0; k < 128; ++k) {
        mtwnZoomView v0, v1;
        v0.x = tc_Range(&rng, -1000, 1000);
        v0.y = tc_Range(&rng, -1000, 1000);
        v0.width = tc_Range(&rng, 1, 500);
        v1.x = tc_Range(&rng, -1000, 1000);
        v1.y = tc_Range(&rng, -1000, 1000);
        v1.width = tc_Range(&rng, 1, 500);
        if (k % 8 == 0) v1.x = v0.x, v1.y = v0.y; /* a geometric zoom */
        if (k % 8 == 1) v1.width = v0.width;       /* a pan */
        mtwnZoomMix mix;
        const mtwnResult r = mtwnMakeZoomMix(v0, v1, rhos[k % 4], &mix);
        tc_Result(b, r);
        if (r != mtwn_success) continue;
        mconf_BytesF64(b, mix.length);
        mconf_BytesF64(b, mix.r0);
        mconf_BytesF64(b, mix.panScale);
        double length = 0;
        const mtwnResult rl = mtwnComputeZoomLength(&mix, &length);
        tc_Result(b, rl);
        if (rl == mtwn_success) mconf_BytesF64(b, length);
        for (int i = 0; i < 17; ++i) {
            mtwnZoomView out;
            const mtwnResult rs = mtwnMixZoom(&mix, i < 16 ? (double)i / 15.0 : tc_Range(&rng, -0.5, 1.5), &out);
            tc_Result(b, rs);
            if (rs == mtwn_success) mconf_BytesF64(b, out.x), mconf_BytesF64(b, out.y), mconf_BytesF64(b, out.width);
        }
    }
    mconf_RecordBytes(run, "zoom", b);

    tc_Seed(&rng, "integer-discrete");
    for (int k = 0; k < 1024; ++k) {
        const int64_t i0 = (int64_t)(mcore_RngNext(&rng) >> (k % 60)) - (int64_t)(k * 977);
        const int64_t i1 = (int64_t)(mcore_RngNext(&rng) >> (63 - k % 60));
        const double p = k % 4 == 0 ? (double)(k % 9) / 8.0 : tc_Range(&rng, -0.5, 1.5);
        int64_t iv = 0;
        mtwnResult r = mtwnMixInteger(i0, i1, p, &iv);
        tc_Result(b, r);
        if (r == mtwn_success) mconf_BytesU64(b, (uint64_t)iv);
        uint32_t dv = 0;
        r = mtwnMixDiscrete((uint32_t)k, (uint32_t)(k * 31 + 7), p, &dv);
        tc_Result(b, r);
        if (r == mtwn_success) mconf_BytesU32(b, dv);
    }
    mconf_RecordBytes(run, "integer-discrete", b);

    static const double punchShake[][3] = {{10, 0.5, 1}, {3, 2, 2}, {25, 0.25, 0.5}, {1, 1, 0}};
    tc_Seed(&rng, "punch");
    for (int i = 0; i < 4; ++i) {
        mtwnPunch punch;
        const mtwnResult r = mtwnMakePunch(punchShake[i][0], punchShake[i][1], punchShake[i][2], &punch);
        tc_Result(b, r);
        if (r != mtwn_success) continue;
        for (int k = 0; k < 256; ++k) {
            double f = 0;
            const mtwnResult rs = mtwnSamplePunch(&punch, tc_Range(&rng, -0.1, punch.duration * 1.2), &f);
            tc_Result(b, rs);
            if (rs == mtwn_success) mconf_BytesF64(b, f);
        }
    }
    mconf_RecordBytes(run, "punch", b);

    tc_Seed(&rng, "shake");
    for (int i = 0; i < 4; ++i) {
        mtwnShake shake;
        const mtwnResult r =
            mtwnMakeShake(punchShake[i][0], punchShake[i][1], punchShake[i][2], mcore_RngNext(&rng), &shake);
        tc_Result(b, r);
        if (r != mtwn_success) continue;
        for (int k = 0; k < 256; ++k) {
            const double t = tc_Range(&rng, -0.1, shake.duration * 1.2);
            double f = 0;
            mtwnResult rs = mtwnSampleShake(&shake, (uint32_t)(k % 5), t, &f);
            tc_Result(b, rs);
            if (rs == mtwn_success) mconf_BytesF64(b, f);
            rs = mtwnSampleShakeNoise(&shake, (uint32_t)(k % 3), t, &f);
            tc_Result(b, rs);
            if (rs == mtwn_success) mconf_BytesF64(b, f);
        }
    }
    mconf_RecordBytes(run, "shake", b);
}

/* -- Paths and tracks -------------------------------------------------------------- */

#define TC_KEYS 8

static void tc_MakeKeyframes(mcore_Rng* rng, mtwnKeyframe* keys, uint32_t count, uint32_t kind, int mixed) {
    memset(keys, 0, count * sizeof *keys);
    double offset = 0;
    for (uint32_t i = 0; i < count; ++i) {
        mtwnKeyframe* k = &keys[i];
        offset += i == 0 ? 0 : (i == 3 ? 0 : tc_Range(rng, 0.05, 0.3)); /* a zero-duration segment */
        k->offset = offset;
        for (int c = 0; c < 4; ++c) {
            k->value[c] = tc_Range(rng, -10, 10);
            k->inControl[c] = k->value[c] + tc_Range(rng, -3, 3);
            k->outControl[c] = k->value[c] + tc_Range(rng, -3, 3);
        }
        if (i == 5) memcpy(k->value, keys[4].value, sizeof k->value); /* coincident keyframes */
        k->kind = mixed ? (uint32_t)((i + kind) % 4) : kind;
        if (i % 3 == 1) {
            if (mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeInOut, &k->easing) != mtwn_success)
                k->easing = mtwnMakeLinearEasing();
        } else {
            k->easing = mtwnMakeLinearEasing();
        }
    }
    for (uint32_t i = 0; i < count; ++i) keys[i].offset /= offset; /* 0 to 1 */
}

static void tc_AddPath(mconf_Bytes* b, mcore_Rng* rng, const mtwnPath* path) {
    for (int i = 0; i < 300; ++i) {
        const double p = i < 256 ? (double)i / 255.0 : tc_Range(rng, -0.5, 1.5);
        double v[4], t[4], d[4], a = 0;
        mtwnResult r = mtwnSamplePath(path, p, v, t);
        tc_Result(b, r);
        if (r == mtwn_success)
            for (int c = 0; c < 4; ++c) mconf_BytesF64(b, v[c]), mconf_BytesF64(b, t[c]);
        r = mtwnComputePathDirection(path, p, d);
        tc_Result(b, r);
        if (r == mtwn_success)
            for (int c = 0; c < 4; ++c) mconf_BytesF64(b, d[c]);
        r = mtwnComputePathAngle(path, p, &a);
        tc_Result(b, r);
        if (r == mtwn_success) mconf_BytesF64(b, a);
    }
}

static void tc_Paths(mconf_Run* run, mconf_Bytes* b) {
    static const char* kinds[] = {"path-linear", "path-step", "path-bezier", "path-catmull-rom", "path-mixed"};
    static const double alphas[] = {0, 0.5, 1};
    mcore_Rng rng;
    mtwnKeyframe keys[TC_KEYS];
    double lengths[TC_KEYS];
    char name[64];
    for (uint32_t kind = 0; kind < 5; ++kind) {
        for (int speed = 0; speed < 2; ++speed) {
            snprintf(name, sizeof name, "%s%s", kinds[kind], speed ? "-constant-speed" : "");
            tc_Seed(&rng, name);
            for (uint8_t channels = 1; channels <= 4; ++channels)
                for (size_t a = 0; a < 3; ++a) {
                    if (kind != 3 && kind != 4 && a > 0) continue;
                    tc_MakeKeyframes(&rng, keys, TC_KEYS, kind < 4 ? kind : 0, kind == 4);
                    mtwnPath path;
                    const mtwnResult r =
                        mtwnMakePath(keys, TC_KEYS, channels, alphas[a], speed ? lengths : NULL, &path);
                    tc_Result(b, r);
                    if (r != mtwn_success) continue;
                    if (speed)
                        for (int k = 0; k < TC_KEYS; ++k) mconf_BytesF64(b, lengths[k]);
                    tc_AddPath(b, &rng, &path);
                }
            mconf_RecordBytes(run, name, b);
        }
    }

    /* Tracks: each value kind over linear, step, Bezier and Catmull-Rom
     * segments (the ones its kind takes), timed and at constant speed. */
    static const char* trackNames[] = {"track-scalar", "track-vec2",     "track-vec3",  "track-vec4",
                                       "track-integer", "track-discrete", "track-angle", "track-color",
                                       "track-rotation", "track-scale"};
    mtwnSegmentMix mixes[TC_KEYS];
    for (uint32_t kind = 0; kind < 10; ++kind) {
        tc_Seed(&rng, trackNames[kind]);
        for (uint32_t seg = 0; seg < 4; ++seg)
            for (int speed = 0; speed < 2; ++speed) {
                mtwnTrackDef def = mtwnDefaultTrackDef((mtwnValueKind)kind);
                def.colorSpace = seg + (uint32_t)speed; /* 0 to 4 */
                def.hueMethod = seg;
                def.angleMethod = (seg + 1) % 4;
                def.rotationPath = (uint32_t)speed;
                def.alpha = 0.25 * seg;
                tc_MakeKeyframes(&rng, keys, TC_KEYS, seg, 0);
                for (uint32_t i = 0; i < TC_KEYS; ++i) {
                    mtwnKeyframe* k = &keys[i];
                    if (kind == mtwn_valueColor) {
                        for (int c = 0; c < 4; ++c) k->value[c] = mcore_RngDouble01(&rng);
                    } else if (kind == mtwn_valueScale) {
                        for (int c = 0; c < 4; ++c) {
                            k->value[c] = mcore_exp2(tc_Range(&rng, -3, 3));
                            k->inControl[c] = mcore_exp2(tc_Range(&rng, -3, 3));
                            k->outControl[c] = mcore_exp2(tc_Range(&rng, -3, 3));
                        }
                    } else if (kind == mtwn_valueRotation) {
                        for (int c = 0; c < 4; ++c) {
                            k->value[c] = (double)mcore_RngFloatRange(&rng, -1, 1);
                            k->inControl[c] = (double)mcore_RngFloatRange(&rng, -1, 1);
                            k->outControl[c] = (double)mcore_RngFloatRange(&rng, -1, 1);
                        }
                    }
                }
                mtwnTrack track;
                const mtwnResult r = mtwnMakeTrack(keys, TC_KEYS, &def, speed ? lengths : NULL, mixes, &track);
                tc_Result(b, r);
                if (r != mtwn_success) continue;
                for (int i = 0; i < 300; ++i) {
                    const double p = i < 256 ? (double)i / 255.0 : tc_Range(&rng, -0.5, 1.5);
                    mtwnVec4 v;
                    const mtwnResult rs = mtwnSampleTrack(&track, p, &v);
                    tc_Result(b, rs);
                    if (rs == mtwn_success) {
                        mconf_BytesF32(b, v.x);
                        mconf_BytesF32(b, v.y);
                        mconf_BytesF32(b, v.z);
                        mconf_BytesF32(b, v.w);
                    }
                }
            }
        mconf_RecordBytes(run, trackNames[kind], b);
    }
}

void mconf_SuiteTweenCore(mconf_Run* run) {
    mconf_Bytes b = {0};
    tc_InitProgress();
    tc_Easings(run, &b);
    tc_Sampling(run, &b);
    tc_Timing(run, &b);
    tc_Springs(run, &b);
    tc_Mixes(run, &b);
    tc_Paths(run, &b);
    mconf_BytesFree(&b);
}
