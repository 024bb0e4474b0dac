/* maul bench match: maniMotionDatabase_Search on seeded databases of about
 * 10 k, 100 k and 1 M frames x 27 features (Holden's set,
 * lib/anim/test/fixtures/match_fixtures.h), against an exhaustive scan and
 * against Holden's AABB scheme (boxes of 16 and 64 consecutive frames,
 * orangeduck/Motion-Matching's description), both written here, all three
 * with the same cost (bias + squared differences in feature order, binary32,
 * partial sums cut off above the best) and ties (the lowest frame), so their
 * answers must agree bit for bit: the row says how many did not. Queries: a
 * seeded frame's features with noise of up to 0.3 on each. One run; the 1 M
 * database (a minute to build) only when the filter names match. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/anim/test/fixtures/match_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/match.h"
#include "tools/cli/bench_internal.h"

typedef struct {
    uint32_t n, f;
    float* x;     /* n x f */
    float* bias;  /* n */
    float* lo16;  /* per 16-frame box: f minima, f maxima */
    float* lo64;
    float* bias16;
    float* bias64;
} maul_MatchScan;

static double maul_MatchNow(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void maul_MatchBoxes(const maul_MatchScan* s, uint32_t size, float* boxes, float* bias) {
    for (uint32_t b = 0; b * size < s->n; ++b) {
        float* lo = boxes + 2ull * s->f * b;
        float* hi = lo + s->f;
        const uint32_t end = (b + 1) * size < s->n ? (b + 1) * size : s->n;
        for (uint32_t i = b * size; i < end; ++i) {
            const float* x = s->x + (size_t)s->f * i;
            for (uint32_t j = 0; j < s->f; ++j) {
                if (i == b * size || x[j] < lo[j]) lo[j] = x[j];
                if (i == b * size || x[j] > hi[j]) hi[j] = x[j];
            }
            if (i == b * size || s->bias[i] < bias[b]) bias[b] = s->bias[i];
        }
    }
}

static float maul_MatchBoxBound(const float* q, const float* lo, uint32_t f, float start, float best) {
    const float* hi = lo + f;
    float c = start;
    for (uint32_t j = 0; j < f; ++j) {
        float d = 0;
        if (q[j] < lo[j]) d = q[j] - lo[j];
        else if (q[j] > hi[j]) d = q[j] - hi[j];
        c = c + d * d;
        if (c > best) return c;
    }
    return c;
}

static void maul_MatchFrame(const maul_MatchScan* s, const float* q, uint32_t i, float* best, uint32_t* frame) {
    const float* x = s->x + (size_t)s->f * i;
    float c = s->bias[i];
    for (uint32_t j = 0; j < s->f; ++j) {
        const float d = q[j] - x[j];
        c = c + d * d;
        if (c > *best) return;
    }
    if (c < *best) *best = c, *frame = i; /* frames in increasing order: ties keep the lowest */
}

static uint32_t maul_MatchExhaustive(const maul_MatchScan* s, const float* q, float* cost) {
    float best = INFINITY;
    uint32_t frame = MANI_NO_FRAME;
    for (uint32_t i = 0; i < s->n; ++i) maul_MatchFrame(s, q, i, &best, &frame);
    *cost = best;
    return frame;
}

static uint32_t maul_MatchAabb(const maul_MatchScan* s, const float* q, float* cost) {
    float best = INFINITY;
    uint32_t frame = MANI_NO_FRAME;
    for (uint32_t big = 0; big * 64 < s->n; ++big) {
        if (maul_MatchBoxBound(q, s->lo64 + 2ull * s->f * big, s->f, s->bias64[big], best) > best) continue;
        for (uint32_t small = big * 4; small < big * 4 + 4 && small * 16 < s->n; ++small) {
            if (maul_MatchBoxBound(q, s->lo16 + 2ull * s->f * small, s->f, s->bias16[small], best) > best) continue;
            const uint32_t end = (small + 1) * 16 < s->n ? (small + 1) * 16 : s->n;
            for (uint32_t i = small * 16; i < end; ++i) maul_MatchFrame(s, q, i, &best, &frame);
        }
    }
    *cost = best;
    return frame;
}

static int maul_MatchRow(FILE* out, uint64_t seed, uint32_t clips, uint32_t entries, float rate) {
    size_t size = 0;
    const double t0 = maul_MatchNow();
    void* bytes = maniFixtureBuildMotionDatabase(seed, clips, entries, rate, 32, 0, &size);
    maniMotionDatabase d;
    if (bytes == NULL || maniOpenMotionDatabase(bytes, size, &d).result != mani_success) {
        free(bytes);
        maul_SetupFailed(out, "match-search");
        return 1;
    }
    const double built = maul_MatchNow() - t0;
    maul_MatchScan s;
    memset(&s, 0, sizeof s);
    s.n = d.frameCount;
    s.f = d.featureCount;
    const uint32_t boxes16 = (s.n + 15) / 16, boxes64 = (s.n + 63) / 64;
    s.x = (float*)malloc(4ull * s.n * s.f);
    s.bias = (float*)malloc(4ull * s.n);
    s.lo16 = (float*)malloc(8ull * s.f * boxes16);
    s.lo64 = (float*)malloc(8ull * s.f * boxes64);
    s.bias16 = (float*)malloc(4ull * boxes16);
    s.bias64 = (float*)malloc(4ull * boxes64);
    int status = 0;
    if (!s.x || !s.bias || !s.lo16 || !s.lo64 || !s.bias16 || !s.bias64) status = 1;
    for (uint32_t i = 0; !status && i < s.n; ++i) {
        uint32_t e = 0;
        float t = 0;
        maniMatchEntry entry;
        if (maniMotionDatabase_GetFeatures(&d, i, s.x + (size_t)s.f * i, s.f, NULL) != mani_success ||
            maniMotionDatabase_GetFrame(&d, i, &e, &t) != mani_success ||
            maniMotionDatabase_GetEntry(&d, e, &entry) != mani_success)
            status = 1;
        else /* a no-jump entry's frames are no candidates: an infinite bias never wins */
            s.bias[i] = (entry.flags & maniMatchEntryNoJump) ? INFINITY : entry.costBias;
    }
    if (!status) {
        maul_MatchBoxes(&s, 16, s.lo16, s.bias16);
        maul_MatchBoxes(&s, 64, s.lo64, s.bias64);
    }
    enum { Q = 64 };
    static float queries[Q][256];
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed + 17);
    for (uint32_t k = 0; !status && k < Q; ++k) {
        const uint32_t near = mcore_RngBelow(&rng, s.n);
        for (uint32_t j = 0; j < s.f; ++j)
            queries[k][j] = s.x[(size_t)s.f * near + j] + mcore_RngFloatRange(&rng, -0.3f, 0.3f);
    }
    uint32_t treeFrame[Q], scanFrame[Q], aabbFrame[Q], visited = 0;
    float treeCost[Q], scanCost[Q], aabbCost[Q];
    double rates[3] = {0, 0, 0};
    for (int method = 0; !status && method < 3; ++method) {
        uint32_t done = 0;
        const double start = maul_MatchNow();
        double now = start;
        /* At least 0.5 s and every query once. */
        while (done < Q || now - start < 0.5) {
            const uint32_t k = done % Q;
            uint32_t frame = 0;
            float cost = 0;
            if (method == 0) {
                maniMatchQuery query;
                memset(&query, 0, sizeof query);
                query.features = queries[k];
                query.normalized = 1;
                query.continuingFrame = MANI_NO_FRAME;
                maniMatchResult r;
                if (maniMotionDatabase_Search(&d, &query, &r) != mani_success) status = 1;
                frame = r.frame, cost = r.cost;
                if (done < Q) visited += r.visited;
            } else if (method == 1) {
                frame = maul_MatchAabb(&s, queries[k], &cost);
            } else {
                frame = maul_MatchExhaustive(&s, queries[k], &cost);
            }
            if (done < Q) {
                uint32_t* fr = method == 0 ? treeFrame : method == 1 ? aabbFrame : scanFrame;
                float* co = method == 0 ? treeCost : method == 1 ? aabbCost : scanCost;
                fr[k] = frame, co[k] = cost;
            }
            maul_benchSink += cost;
            done++;
            if ((done & 7) == 0 || done <= Q) now = maul_MatchNow();
        }
        rates[method] = done / (now - start);
    }
    uint32_t wrong = 0;
    for (uint32_t k = 0; !status && k < Q; ++k)
        if (treeFrame[k] != scanFrame[k] || aabbFrame[k] != scanFrame[k] || memcmp(&treeCost[k], &scanCost[k], 4) != 0 ||
            memcmp(&aabbCost[k], &scanCost[k], 4) != 0)
            wrong++;
    if (!status)
        fprintf(out,
                "match-search-%-8u features %u  tree %10.0f/s  aabb-16/64 %9.0f/s  scan %8.0f/s  tree/aabb %6.1fx  "
                "tree/scan %7.1fx  frames costed %5.2f%%  disagree %u/%u  build %.1f s\n",
                s.n, s.f, rates[0], rates[1], rates[2], rates[0] / rates[1], rates[0] / rates[2],
                100.0 * visited / ((double)Q * s.n), wrong, (unsigned)Q, built);
    else
        maul_SetupFailed(out, "match-search");
    free(s.x);
    free(s.bias);
    free(s.lo16);
    free(s.lo64);
    free(s.bias16);
    free(s.bias64);
    free(bytes);
    return status || wrong != 0;
}

int maul_BenchMatch(FILE* out, int full) {
    int status = 0;
    status |= maul_MatchRow(out, 51, 30, 8, 60.0f);    /* about 10 k frames */
    status |= maul_MatchRow(out, 52, 180, 8, 120.0f);  /* about 100 k */
    if (full) status |= maul_MatchRow(out, 53, 700, 10, 240.0f); /* about 1 M */
    return status;
}
