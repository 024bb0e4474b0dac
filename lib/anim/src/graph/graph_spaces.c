/* The blend space nodes (maniGraphNodeSpace1D, maniGraphNodeSpaceBanded,
 * maniGraphNodeSpaceTriangulated): their node data's check at the open, and
 * their runtime: each update weighs the inputs from the space's parameters
 * (the formulas in graph.h's maniGraphNodeKind comments and
 * docs/formats.md, "Graph"), keeps the weights in the node's state block
 * and shares the node's weight down by them; an evaluation blends the
 * inputs by the weights kept, never reading the parameters.
 *
 * Node data (graph_format.h): a 1D space's f32 period, then n f32
 * positions; a banded space's u32 y parameter, u32 polar, then n (x, y)
 * f32 pairs; a triangulated space's u32 y parameter, u32 triangles T, n
 * (x, y) pairs, then T triangles of 3 u32 input places.
 *
 * State block: n f32 weights, the last update's (0 to 1; 0 before it). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_format.h"
#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/core/container.h"
#include "lib/core/detmath.h"
#include "maul/anim/blend.h"

/* -- The open's check ----------------------------------------------------------- */

static int mani_SpaceFloatParameter(uint32_t p, const uint8_t* params, uint32_t parameterCount) {
    return p < parameterCount &&
           mcore_ReadU32(params + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * p) == maniGraphParameterFloat;
}

uint64_t mani_CheckGraphSpaceData(const uint8_t* b, uint32_t kind, uint64_t words, uint32_t count, uint64_t countAt,
                                  uint32_t n, const uint8_t* params, uint32_t parameterCount) {
    if (kind == maniGraphNodeSpace1D) {
        if ((uint64_t)count != MANI_GRAPH_SPACE1D_HEADER + (uint64_t)n) return countAt;
        const float period = mcore_ReadF32(b + words);
        if (!(isfinite(period) && period >= 0.0f)) return words;
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t at = words + 4u * (MANI_GRAPH_SPACE1D_HEADER + (uint64_t)i);
            const float x = mcore_ReadF32(b + at);
            if (!isfinite(x) || (i > 0 && !(x > mcore_ReadF32(b + at - 4))) ||
                (period > 0.0f && !(x >= 0.0f && x < period)))
                return at;
        }
        return 0;
    }
    if (count < MANI_GRAPH_SPACE2D_HEADER) return countAt;
    if (!mani_SpaceFloatParameter(mcore_ReadU32(b + words), params, parameterCount)) return words;
    const uint32_t second = mcore_ReadU32(b + words + 4);
    uint64_t expected = MANI_GRAPH_SPACE2D_HEADER + 2u * (uint64_t)n;
    if (kind == maniGraphNodeSpaceBanded) {
        if (second > 1) return words + 4;
    } else {
        if (second == 0 || second > MANI_MAX_GRAPH_SPACE_TRIANGLES) return words + 4;
        expected += 3u * (uint64_t)second;
    }
    if ((uint64_t)count != expected) return countAt;
    const uint64_t points = words + 4u * MANI_GRAPH_SPACE2D_HEADER;
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t at = points + 8u * (uint64_t)i;
        const float x = mcore_ReadF32(b + at), y = mcore_ReadF32(b + at + 4);
        if (!isfinite(x)) return at;
        if (!isfinite(y)) return at + 4;
        for (uint32_t j = 0; j < i; ++j)
            if (mcore_ReadF32(b + points + 8u * (uint64_t)j) == x && mcore_ReadF32(b + points + 8u * (uint64_t)j + 4) == y)
                return at;
    }
    if (kind == maniGraphNodeSpaceBanded) return 0;
    /* Each triangle's places below n, distinct, of non-zero area; every
     * input in one (else at its x word). */
    const uint64_t triangles = points + 8u * (uint64_t)n;
    uint8_t covered[MANI_MAX_GRAPH_INPUTS];
    memset(covered, 0, sizeof covered);
    for (uint32_t t = 0; t < second; ++t) {
        const uint64_t at = triangles + 12u * (uint64_t)t;
        uint32_t v[3];
        for (uint32_t k = 0; k < 3; ++k) {
            v[k] = mcore_ReadU32(b + at + 4u * k);
            if (v[k] >= n) return at + 4u * k;
            for (uint32_t e = 0; e < k; ++e)
                if (v[e] == v[k]) return at + 4u * k;
        }
        float px[3], py[3];
        for (uint32_t k = 0; k < 3; ++k) {
            px[k] = mcore_ReadF32(b + points + 8u * (uint64_t)v[k]);
            py[k] = mcore_ReadF32(b + points + 8u * (uint64_t)v[k] + 4);
        }
        if (mani_GraphSpaceCross(px[0], py[0], px[1], py[1], px[2], py[2]) == 0.0) return at;
        covered[v[0]] = covered[v[1]] = covered[v[2]] = 1;
    }
    for (uint32_t i = 0; i < n; ++i)
        if (!covered[i]) return points + 8u * (uint64_t)i;
    return 0;
}

/* -- Weights ---------------------------------------------------------------------- */

static float mani_SpaceWord(const uint32_t* words, uint32_t at) {
    float f;
    memcpy(&f, &words[at], sizeof f);
    return f;
}

/* A 1D space's weights at x (binary32; the wrap in binary64, rounded once). */
static void mani_Space1DWeights(const uint32_t* words, uint32_t n, float x, float* w) {
    const float period = mani_SpaceWord(words, 0);
    const uint32_t* at = words + MANI_GRAPH_SPACE1D_HEADER;
    for (uint32_t i = 0; i < n; ++i) w[i] = 0.0f;
    if (period > 0.0f) {
        const double p = period;
        double t = (double)x - floor((double)x / p) * p;
        if (t < 0.0) t = 0.0;
        x = (float)t;
        if (x >= period) x = 0.0f;
    }
    const float first = mani_SpaceWord(at, 0), last = mani_SpaceWord(at, n - 1);
    if (n == 1) {
        w[0] = 1.0f;
        return;
    }
    if (x < first || x >= last) {
        if (period > 0.0f) {
            /* Between the last and the first, across the wrap. */
            const float span = (first + period) - last;
            const float d = x >= last ? x - last : (x + period) - last;
            float f = d / span;
            f = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
            w[n - 1] = 1.0f - f;
            w[0] = f;
        } else {
            w[x < first ? 0 : n - 1] = 1.0f;
        }
        return;
    }
    uint32_t i = 0;
    while (i + 2 < n && !(x < mani_SpaceWord(at, i + 1))) ++i;
    const float a = mani_SpaceWord(at, i), b = mani_SpaceWord(at, i + 1);
    const float f = (x - a) / (b - a);
    w[i] = 1.0f - f;
    w[i + 1] = f;
}

/* The signed angle from u to v: atan2(u x v, u . v), binary32. */
static float mani_SpaceAngle(float ux, float uy, float vx, float vy) {
    return mcore_atan2f(ux * vy - uy * vx, ux * vx + uy * vy);
}

/* A banded space's weights at (x, y): Johansen's gradient bands, Cartesian
 * or polar, normalized by their sum (binary32, j in input order). */
static void mani_SpaceBandedWeights(const uint32_t* words, uint32_t n, float x, float y, float* w) {
    const int polar = words[1] != 0;
    const uint32_t* pts = words + MANI_GRAPH_SPACE2D_HEADER;
    const float pl = polar ? sqrtf(x * x + y * y) : 0.0f;
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        const float xi = mani_SpaceWord(pts, 2u * i), yi = mani_SpaceWord(pts, 2u * i + 1);
        const float li = polar ? sqrtf(xi * xi + yi * yi) : 0.0f;
        float weight = 1.0f;
        for (uint32_t j = 0; j < n; ++j) {
            if (j == i) continue;
            const float xj = mani_SpaceWord(pts, 2u * j), yj = mani_SpaceWord(pts, 2u * j + 1);
            float ax, ay, bx, by; /* p - p_i and p_j - p_i, in the bands' coordinates */
            if (polar) {
                const float lj = sqrtf(xj * xj + yj * yj);
                const float mean = (li + lj) / 2.0f;
                const int origin = li == 0.0f || lj == 0.0f;
                bx = (lj - li) / mean;
                by = origin ? 0.0f : MANI_GRAPH_SPACE_POLAR_ALPHA * mani_SpaceAngle(xi, yi, xj, yj);
                ax = (pl - li) / mean;
                ay = origin ? 0.0f : MANI_GRAPH_SPACE_POLAR_ALPHA * mani_SpaceAngle(xi, yi, x, y);
            } else {
                ax = x - xi, ay = y - yi;
                bx = xj - xi, by = yj - yi;
            }
            const float length = bx * bx + by * by;
            if (!(length > 0.0f)) continue;
            float h = 1.0f - (ax * bx + ay * by) / length;
            h = h < 0.0f ? 0.0f : (h > 1.0f ? 1.0f : h);
            if (h < weight) weight = h;
        }
        w[i] = weight;
        sum += weight;
    }
    if (!(sum > 0.0f)) {
        /* Not reached for distinct points; the first input then. */
        for (uint32_t i = 0; i < n; ++i) w[i] = 0.0f;
        w[0] = 1.0f;
        return;
    }
    for (uint32_t i = 0; i < n; ++i) w[i] = w[i] / sum;
}

/* A triangulated space's weights at (x, y): barycentric in the first
 * triangle holding the point (each weight at least
 * -MANI_GRAPH_SPACE_TOLERANCE; negatives then 0 and the three normalized by
 * their sum), else linear along the nearest point of the triangles' edges
 * (the first nearest in triangle and edge order). */
static void mani_SpaceTriangulatedWeights(const uint32_t* words, uint32_t n, float x, float y, float* w) {
    const uint32_t count = words[1];
    const uint32_t* pts = words + MANI_GRAPH_SPACE2D_HEADER;
    const uint32_t* tris = pts + 2u * n;
    for (uint32_t i = 0; i < n; ++i) w[i] = 0.0f;
    for (uint32_t t = 0; t < count; ++t) {
        const uint32_t* v = tris + 3u * t;
        const float ax = mani_SpaceWord(pts, 2u * v[0]), ay = mani_SpaceWord(pts, 2u * v[0] + 1);
        const float e0x = mani_SpaceWord(pts, 2u * v[1]) - ax, e0y = mani_SpaceWord(pts, 2u * v[1] + 1) - ay;
        const float e1x = mani_SpaceWord(pts, 2u * v[2]) - ax, e1y = mani_SpaceWord(pts, 2u * v[2] + 1) - ay;
        const float qx = x - ax, qy = y - ay;
        const float den = e0x * e1y - e1x * e0y;
        if (den == 0.0f) continue;
        const float u = (qx * e1y - e1x * qy) / den;
        const float s = (e0x * qy - qx * e0y) / den;
        const float r = 1.0f - u - s;
        const float tol = -MANI_GRAPH_SPACE_TOLERANCE;
        if (!(u >= tol && s >= tol && r >= tol)) continue;
        const float wr = r > 0.0f ? r : 0.0f, wu = u > 0.0f ? u : 0.0f, ws = s > 0.0f ? s : 0.0f;
        const float sum = wr + wu + ws;
        w[v[0]] = wr / sum;
        w[v[1]] = wu / sum;
        w[v[2]] = ws / sum;
        return;
    }
    float best = INFINITY, bestT = 0.0f;
    uint32_t bestA = 0, bestB = 0;
    for (uint32_t t = 0; t < count; ++t) {
        const uint32_t* v = tris + 3u * t;
        for (uint32_t e = 0; e < 3; ++e) {
            const uint32_t a = v[e], b = v[(e + 1) % 3];
            const float ax = mani_SpaceWord(pts, 2u * a), ay = mani_SpaceWord(pts, 2u * a + 1);
            const float dx = mani_SpaceWord(pts, 2u * b) - ax, dy = mani_SpaceWord(pts, 2u * b + 1) - ay;
            const float length = dx * dx + dy * dy;
            float f = length > 0.0f ? ((x - ax) * dx + (y - ay) * dy) / length : 0.0f;
            f = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
            const float ox = (ax + f * dx) - x, oy = (ay + f * dy) - y;
            const float d2 = ox * ox + oy * oy;
            if (d2 < best) {
                best = d2;
                bestT = f;
                bestA = a;
                bestB = b;
            }
        }
    }
    if (best == INFINITY) {
        w[0] = 1.0f; /* distances past the float range: the first input */
        return;
    }
    w[bestA] = 1.0f - bestT;
    w[bestB] = bestT;
}

/* -- The runtime ------------------------------------------------------------------- */

static float* mani_SpaceBlock(const maniGraphInstance* g, uint32_t node) { return (float*)mani_GraphNodeBlock(g, node); }

/* Shares a weight to an input as a normalized blend does (added, at most
 * 1; weighed). */
void mani_WeighSpace(mani_GraphUpdateContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const uint32_t* words = b->words + n->data;
    const maniGraphValue* values = mani_GraphParameters(c->instance);
    const float x = values[n->index].number;
    float* w = mani_SpaceBlock(c->instance, node);
    switch (n->kind) {
    case maniGraphNodeSpace1D: mani_Space1DWeights(words, n->inputCount, x, w); break;
    case maniGraphNodeSpaceBanded: mani_SpaceBandedWeights(words, n->inputCount, x, values[words[0]].number, w); break;
    default: mani_SpaceTriangulatedWeights(words, n->inputCount, x, values[words[0]].number, w); break;
    }
    /* shared as a normalized blend shares, root motion weight alike */
    const float own = c->states[node].weight, root = c->flows[node].rootWeight;
    const mani_GraphInputRt* inputs = &b->inputs[n->firstInput];
    for (uint32_t i = 0; i < n->inputCount; ++i)
        if (w[i] > 0.0f) mani_GraphShare(c, inputs[i].node, own * w[i], root * w[i]);
}

maniResult mani_EvaluateSpace(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const mani_GraphInputRt* inputs = &b->inputs[n->firstInput];
    const float* w = mani_SpaceBlock(c->instance, node);
    maniBlendLayer* layers = (maniBlendLayer*)(void*)(c->scratch + b->scratchLayers);
    uint32_t count = 0;
    for (uint32_t i = 0; i < n->inputCount; ++i) {
        if (!(w[i] > 0.0f)) continue;
        layers[count].pose = mani_GraphSlotPose(c, b->nodes[inputs[i].node].slot);
        layers[count].weight = w[i];
        layers[count].boneWeights = NULL;
        count++;
    }
    maniPose* out = mani_GraphSlotPose(c, n->slot);
    if (count == 0 && (n->flags & MANI_GRAPH_NODE_DIFFERENCE) != 0) {
        maniResult r = maniPose_SetRest(out, b->skeleton);
        if (r == mani_success) r = maniSkeleton_ComputePoseDifference(b->skeleton, out, out, out);
        return r;
    }
    return maniSkeleton_BlendPoses(b->skeleton, layers, count, MANI_BLEND_THRESHOLD_MIN, out);
}

size_t mani_SpaceStateSize(const maniGraphBinding* b, uint32_t node) {
    return sizeof(float) * (size_t)b->nodes[node].inputCount;
}

void mani_ResetSpace(maniGraphInstance* g, uint32_t node) {
    memset(mani_GraphNodeBlock(g, node), 0, (size_t)g->binding->nodes[node].stateSize);
}

uint64_t mani_CheckRestoredSpace(const maniGraphBinding* b, uint32_t node, const uint8_t* saved) {
    for (uint32_t i = 0; i < b->nodes[node].inputCount; ++i) {
        const float w = mcore_ReadF32(saved + 4u * (uint64_t)i);
        if (!(w >= 0.0f && w <= 1.0f)) return 4u * (uint64_t)i;
    }
    return UINT64_MAX;
}
