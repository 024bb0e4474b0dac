/* graphbuild.h: building graph files (docs/formats.md, "Graph"). */
#include "maul/anim/graphbuild.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/graph/graph_format.h"
#include "lib/anim/src/skeleton/skeleton_format.h"
#include "lib/core/utf8.h"
#include "maul/anim/learned.h"
#include "maul/anim/match.h"
#include "maul/anim/retarget.h"
#include "maul/anim/spring.h"

static maniBuildResult mani_GraphOk(void) { return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0); }

/* Checks one list of names (parameters or clip slots, `bit` its list bit):
 * each 1 to MANI_MAX_NAME_BYTES of UTF-8, unique, of distinct hashes. */
static maniBuildResult mani_CheckGraphNames(const void* items, size_t stride, uint32_t count, uint32_t bit) {
    const uint8_t* base = (const uint8_t*)items;
    for (uint32_t i = 0; i < count; ++i) {
        const char* name = *(const char* const*)(base + stride * i);
        const size_t length = *(const size_t*)(base + stride * i + sizeof(const char*));
        if (length > MANI_MAX_NAME_BYTES) return mani_BuildResult(mani_errorLimit, maniBuildReasonName | bit, i, 0);
        if (name == NULL || length == 0 || mcore_Utf8Check((const uint8_t*)name, length) != length)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonName | bit, i, 0);
        const uint64_t hash = mani_NameHash(name, length);
        for (uint32_t j = 0; j < i; ++j) {
            const char* other = *(const char* const*)(base + stride * j);
            const size_t otherLength = *(const size_t*)(base + stride * j + sizeof(const char*));
            if (otherLength == length && memcmp(other, name, length) == 0)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonDuplicateName | bit, i, j);
            if (mani_NameHash(other, otherLength) == hash)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonNameHash | bit, i, j);
        }
    }
    return mani_GraphOk();
}

static int mani_ParameterValueOk(const maniGraphParameterSource* p) {
    const maniGraphValue v = p->value;
    switch (p->type) {
        case maniGraphParameterFloat: return isfinite(v.number);
        case maniGraphParameterBool: return v.flag <= 1;
        case maniGraphParameterVector: return isfinite(v.vector.x) && isfinite(v.vector.y) && isfinite(v.vector.z);
        case maniGraphParameterQuaternion:
            return isfinite(v.rotation.x) && isfinite(v.rotation.y) && isfinite(v.rotation.z) && isfinite(v.rotation.w);
        default: return 1; /* triggers and poses: no default */
    }
}

static int mani_GraphIsSpace(maniGraphNodeKind kind) {
    return kind == maniGraphNodeSpace1D || kind == maniGraphNodeSpaceBanded || kind == maniGraphNodeSpaceTriangulated;
}

/* -- Blend spaces -------------------------------------------------------------- */

/* The points' places sorted by x, then y, then place (insertion sort). */
static void mani_SortSpacePoints(const maniGraphSpacePoint* p, uint32_t n, uint32_t* order) {
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t j = i;
        while (j > 0) {
            const maniGraphSpacePoint a = p[order[j - 1]], b = p[i];
            if (a.x < b.x || (a.x == b.x && a.y <= b.y)) break;
            order[j] = order[j - 1];
            --j;
        }
        order[j] = i;
    }
}

/* The first sorted place from 2 whose point is off the line of the first
 * two sorted points (binary64 cross product not 0), or 0 when none. */
static uint32_t mani_SpaceSeed(const maniGraphSpacePoint* p, uint32_t n, const uint32_t* order) {
    if (n < 3) return 0;
    const maniGraphSpacePoint a = p[order[0]], b = p[order[1]];
    for (uint32_t k = 2; k < n; ++k) {
        const maniGraphSpacePoint c = p[order[k]];
        if (mani_GraphSpaceCross(a.x, a.y, b.x, b.y, c.x, c.y) != 0.0) return k;
    }
    return 0;
}

/* Whether d lies strictly inside the circumcircle of the counterclockwise
 * triangle a, b, c (binary64). */
static int mani_InCircle(maniGraphSpacePoint a, maniGraphSpacePoint b, maniGraphSpacePoint c, maniGraphSpacePoint d) {
    const double adx = (double)a.x - d.x, ady = (double)a.y - d.y;
    const double bdx = (double)b.x - d.x, bdy = (double)b.y - d.y;
    const double cdx = (double)c.x - d.x, cdy = (double)c.y - d.y;
    const double det = (adx * adx + ady * ady) * (bdx * cdy - cdx * bdy) +
                       (bdx * bdx + bdy * bdy) * (cdx * ady - adx * cdy) +
                       (cdx * cdx + cdy * cdy) * (adx * bdy - bdx * ady);
    return det > 0.0;
}

static double mani_SpaceCrossOf(const maniGraphSpacePoint* p, uint32_t a, uint32_t b, uint32_t c) {
    return mani_GraphSpaceCross(p[a].x, p[a].y, p[b].x, p[b].y, p[c].x, p[c].y);
}

/* The triangulation being made: triangles (3 places each) and the owner of
 * each directed edge a -> b (edge[a n + b]: the triangle + 1, 0 none). */
typedef struct mani_SpaceMesh {
    uint32_t* tris;
    uint32_t* edge;
    uint32_t n, count, capacity;
    int broken;
} mani_SpaceMesh;

static void mani_SpaceSetEdges(mani_SpaceMesh* m, uint32_t t, uint32_t owner) {
    const uint32_t* v = m->tris + 3u * t;
    for (uint32_t e = 0; e < 3; ++e) {
        uint32_t* at = &m->edge[v[e] * m->n + v[(e + 1) % 3]];
        if (owner != 0 && *at != 0) m->broken = 1; /* a directed edge twice: overlap */
        *at = owner;
    }
}

static void mani_SpaceAdd(mani_SpaceMesh* m, uint32_t a, uint32_t b, uint32_t c) {
    if (m->count == m->capacity) {
        m->broken = 1;
        return;
    }
    uint32_t* v = m->tris + 3u * m->count;
    v[0] = a;
    v[1] = b;
    v[2] = c;
    mani_SpaceSetEdges(m, m->count, m->count + 1);
    m->count++;
}

/* The Delaunay triangulation of n distinct points not all on one line
 * (graphbuild.h's rule) into tris (room for 2n triangles), each
 * counterclockwise; edge is n x n words of scratch. Returns the triangle
 * count, or 0 when the points give none (all on one line, or a rounding
 * that leaves a triangle of no area or a point in none). */
static uint32_t mani_GraphDelaunay(const maniGraphSpacePoint* p, uint32_t n, uint32_t* tris, uint32_t* edge) {
    uint32_t order[MANI_MAX_GRAPH_INPUTS];
    mani_SortSpacePoints(p, n, order);
    const uint32_t k = mani_SpaceSeed(p, n, order);
    if (k == 0) return 0;
    memset(edge, 0, sizeof(uint32_t) * (size_t)n * n);
    mani_SpaceMesh m = {tris, edge, n, 0, 2u * n, 0};
    /* The first points on a line, fanned to the first off it. */
    for (uint32_t i = 0; i + 1 < k; ++i) {
        uint32_t a = order[i], b = order[i + 1];
        const uint32_t c = order[k];
        if (mani_SpaceCrossOf(p, a, b, c) < 0.0) {
            const uint32_t t = a;
            a = b;
            b = t;
        }
        mani_SpaceAdd(&m, a, b, c);
    }
    /* Each later point (outside the hull, being the greatest so far) joined
     * to the hull edges it sees. */
    uint32_t seen[2u * MANI_MAX_GRAPH_INPUTS];
    for (uint32_t at = k + 1; at < n && !m.broken; ++at) {
        const uint32_t q = order[at];
        uint32_t count = 0;
        for (uint32_t t = 0; t < m.count; ++t) {
            for (uint32_t e = 0; e < 3; ++e) {
                const uint32_t a = m.tris[3u * t + e], b = m.tris[3u * t + (e + 1) % 3];
                if (m.edge[b * n + a] == 0 && mani_SpaceCrossOf(p, a, b, q) < 0.0 && count < 2u * MANI_MAX_GRAPH_INPUTS) {
                    seen[count++] = a;
                    seen[count++] = b;
                }
            }
        }
        if (count == 0) m.broken = 1;
        for (uint32_t i = 0; i < count; i += 2) mani_SpaceAdd(&m, seen[i + 1], seen[i], q);
    }
    /* Lawson flips until no edge's opposite point lies strictly inside,
     * each flip only of a convex quadrilateral (both new triangles
     * counterclockwise), bounded against rounding's cycles. */
    uint64_t flips = 0;
    const uint64_t most = 4u * (uint64_t)n * n + 64u;
    for (int changed = 1; changed && !m.broken && flips < most;) {
        changed = 0;
        for (uint32_t t = 0; t < m.count && flips < most; ++t) {
            for (uint32_t e = 0; e < 3; ++e) {
                const uint32_t a = m.tris[3u * t + e], b = m.tris[3u * t + (e + 1) % 3], c = m.tris[3u * t + (e + 2) % 3];
                const uint32_t owner = m.edge[b * n + a];
                if (owner == 0) continue;
                const uint32_t u = owner - 1;
                uint32_t d = m.tris[3u * u];
                for (uint32_t j = 1; j < 3; ++j)
                    if (d == a || d == b) d = m.tris[3u * u + j];
                if (!mani_InCircle(p[a], p[b], p[c], p[d]) || !(mani_SpaceCrossOf(p, a, d, c) > 0.0) ||
                    !(mani_SpaceCrossOf(p, d, b, c) > 0.0))
                    continue;
                mani_SpaceSetEdges(&m, t, 0);
                mani_SpaceSetEdges(&m, u, 0);
                uint32_t* vt = m.tris + 3u * t;
                uint32_t* vu = m.tris + 3u * u;
                vt[0] = a, vt[1] = d, vt[2] = c;
                vu[0] = d, vu[1] = b, vu[2] = c;
                mani_SpaceSetEdges(&m, t, t + 1);
                mani_SpaceSetEdges(&m, u, u + 1);
                ++flips;
                changed = 1;
                break; /* the triangle changed: its edges again next pass */
            }
        }
    }
    if (m.broken) return 0;
    /* Every triangle counterclockwise as written, every point in one. */
    memset(edge, 0, sizeof(uint32_t) * n);
    for (uint32_t t = 0; t < m.count; ++t) {
        const uint32_t* v = m.tris + 3u * t;
        if (!(mani_SpaceCrossOf(p, v[0], v[1], v[2]) > 0.0)) return 0;
        edge[v[0]] = edge[v[1]] = edge[v[2]] = 1;
    }
    for (uint32_t i = 0; i < n; ++i)
        if (edge[i] == 0) return 0;
    return m.count;
}

/* Triangulates a space without given triangles (into tris, room for 2n)
 * with builder scratch: the triangle count, 0 for none; UINT32_MAX when
 * the allocator fails. */
static uint32_t mani_TriangulateSpace(maniBuilder* builder, const maniGraphNodeSource* node, uint32_t* tris) {
    const uint32_t n = node->inputCount;
    const size_t size = sizeof(uint32_t) * (size_t)n * n;
    uint32_t* edge = (uint32_t*)mani_BuilderAlloc(builder, size ? size : 4, 4);
    if (edge == NULL) return UINT32_MAX;
    const uint32_t count = mani_GraphDelaunay(node->points, n, tris, edge);
    mani_BuilderFree(builder, edge, size ? size : 4);
    return count;
}

/* Checks a blend space's points, period, y parameter and triangles
 * (graphbuild.h; item the node). */
static maniBuildResult mani_CheckGraphSpace(const maniGraphSource* src, uint32_t n) {
    const maniGraphNodeSource* node = &src->nodes[n];
    const uint32_t count = node->inputCount;
    const int planar = node->kind != maniGraphNodeSpace1D;
    if (node->kind == maniGraphNodeSpaceTriangulated && node->triangleCount > MANI_MAX_GRAPH_SPACE_TRIANGLES)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonNode, n, 0);
    if (node->points == NULL) return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, n, 0);
    if (node->kind == maniGraphNodeSpaceTriangulated && node->triangleCount != 0 && node->triangles == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, n, 1);
    if (planar && (node->parameterY >= src->parameterCount ||
                   src->parameters[node->parameterY].type != maniGraphParameterFloat))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonParameter, n, 1);
    for (uint32_t i = 0; i < count; ++i)
        if (!isfinite(node->points[i].x) || (planar && !isfinite(node->points[i].y)))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, n, i);
    if (!planar) {
        if (!isfinite(node->period) || node->period < 0.0f)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonScalar, n, 0);
        for (uint32_t i = 0; i < count; ++i) {
            const float x = node->points[i].x;
            if ((i > 0 && !(x > node->points[i - 1].x)) || (node->period > 0.0f && !(x >= 0.0f && x < node->period)))
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonInput, n, i);
        }
        return mani_GraphOk();
    }
    for (uint32_t i = 1; i < count; ++i)
        for (uint32_t j = 0; j < i; ++j)
            if (node->points[i].x == node->points[j].x && node->points[i].y == node->points[j].y)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonInput, n, i);
    if (node->kind != maniGraphNodeSpaceTriangulated) return mani_GraphOk();
    if (node->triangleCount == 0) {
        uint32_t order[MANI_MAX_GRAPH_INPUTS];
        mani_SortSpacePoints(node->points, count, order);
        if (mani_SpaceSeed(node->points, count, order) == 0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonTriangle, n, MANI_GRAPH_NONE);
        return mani_GraphOk(); /* the triangulation itself: made (and checked) by the build */
    }
    uint8_t covered[MANI_MAX_GRAPH_INPUTS];
    memset(covered, 0, sizeof covered);
    for (uint32_t t = 0; t < node->triangleCount; ++t) {
        const uint32_t* v = node->triangles + 3u * t;
        if (v[0] >= count || v[1] >= count || v[2] >= count || v[0] == v[1] || v[1] == v[2] || v[0] == v[2] ||
            mani_SpaceCrossOf(node->points, v[0], v[1], v[2]) == 0.0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonTriangle, n, t);
        covered[v[0]] = covered[v[1]] = covered[v[2]] = 1;
    }
    for (uint32_t i = 0; i < count; ++i)
        if (!covered[i]) return mani_BuildResult(mani_errorInvalid, maniBuildReasonInput, n, i);
    return mani_GraphOk();
}

/* Whether a node's parameter is of a type its kind reads (MANI_NO_PARAMETER
 * where the kind has a constant instead). */
static int mani_GraphParameterFits(const maniGraphSource* src, const maniGraphNodeSource* node) {
    if (node->kind != maniGraphNodeSelect && node->kind != maniGraphNodeTimeScale && node->kind != maniGraphNodeSeek &&
        node->kind != maniGraphNodeAdditive && node->kind != maniGraphNodePose && node->kind != maniGraphNodeOneShot &&
        node->kind != maniGraphNodeInertialize && !mani_GraphIsSpace(node->kind))
        return 1; /* no parameter read */
    const uint32_t p = node->parameter;
    const int none = p == MANI_NO_PARAMETER;
    if (!none && p >= src->parameterCount) return 0;
    const maniGraphParameterType t = none ? maniGraphParameterFloat : src->parameters[p].type;
    switch (node->kind) {
    case maniGraphNodeSelect: return !none && (t == maniGraphParameterFloat || t == maniGraphParameterBool);
    case maniGraphNodeTimeScale:
    case maniGraphNodeAdditive: return none || t == maniGraphParameterFloat;
    case maniGraphNodeSeek:
    case maniGraphNodeOneShot: return !none && t == maniGraphParameterTrigger;
    case maniGraphNodeInertialize: return none || t == maniGraphParameterTrigger;
    case maniGraphNodePose: return !none && t == maniGraphParameterPose;
    case maniGraphNodeSpace1D:
    case maniGraphNodeSpaceBanded:
    case maniGraphNodeSpaceTriangulated: return !none && t == maniGraphParameterFloat;
    default: return 1;
    }
}

/* Whether a condition's parameter and value are of its kind. */
static int mani_GraphConditionOk(const maniGraphSource* src, const maniGraphConditionSource* c) {
    if ((uint32_t)c->kind >= MANI_GRAPH_CONDITION_KIND_COUNT) return 0;
    const uint32_t p = c->parameter;
    const maniGraphParameterType t = p < src->parameterCount ? src->parameters[p].type : MANI_GRAPH_PARAMETER_TYPE_COUNT;
    switch (c->kind) {
    case maniGraphConditionTrue:
    case maniGraphConditionFalse: return t == maniGraphParameterBool;
    case maniGraphConditionTrigger: return t == maniGraphParameterTrigger;
    case maniGraphConditionTime:
    case maniGraphConditionExitTime: return isfinite(c->value) && c->value >= 0.0f;
    case maniGraphConditionFinished: return 1;
    default: return t == maniGraphParameterFloat && isfinite(c->value); /* the comparisons */
    }
}

/* Checks a state machine's entry, chain limit, finals and transitions. */
static maniBuildResult mani_CheckGraphMachine(const maniGraphSource* src, uint32_t n) {
    const maniGraphNodeSource* node = &src->nodes[n];
    const uint32_t states = node->inputCount;
    if (node->transitionCount > MANI_MAX_GRAPH_TRANSITIONS)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonNode, n, 0);
    if ((node->transitionCount != 0 && node->transitions == NULL) || (node->finalCount != 0 && node->finals == NULL))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, n, 0);
    if (node->entry >= states) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNode, n, 0);
    if (node->chainLimit > MANI_MAX_GRAPH_CHAIN) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNode, n, 1);
    for (uint32_t f = 0; f < node->finalCount; ++f) {
        int ok = node->finals[f] < states;
        for (uint32_t e = 0; e < f && ok; ++e) ok = node->finals[e] != node->finals[f];
        if (!ok) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNode, n, 2u + (uint64_t)f);
    }
    for (uint32_t t = 0; t < node->transitionCount; ++t) {
        const maniGraphTransitionSource* tr = &node->transitions[t];
        if (tr->conditionCount > MANI_MAX_GRAPH_CONDITIONS)
            return mani_BuildResult(mani_errorLimit, maniBuildReasonTransition, n, t);
        int ok = (tr->from == MANI_GRAPH_NONE || tr->from < states) && tr->to < states &&
                 (uint32_t)tr->interruption <= maniGraphInterruptBoth && (uint32_t)tr->entry <= maniGraphEntryContinue &&
                 (uint32_t)tr->fade < MANI_GRAPH_FADE_CURVE_COUNT && isfinite(tr->duration) && tr->duration >= 0.0f &&
                 isfinite(tr->cooldown) && tr->cooldown >= 0.0f && (tr->conditionCount == 0 || tr->conditions != NULL);
        for (uint32_t k = 0; k < tr->conditionCount && ok; ++k) ok = mani_GraphConditionOk(src, &tr->conditions[k]);
        if (!ok) return mani_BuildResult(mani_errorInvalid, maniBuildReasonTransition, n, t);
    }
    return mani_GraphOk();
}

/* Checks a mask's chains and default weight (a mask node's, a masked
 * one-shot's). */
static maniBuildResult mani_CheckGraphMaskChains(const maniGraphSource* src, uint32_t n) {
    const maniGraphNodeSource* node = &src->nodes[n];
    if (node->chainCount > MANI_MAX_BONES) return mani_BuildResult(mani_errorLimit, maniBuildReasonNode, n, 0);
    if (node->chainCount != 0 && node->chains == NULL) return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, n, 0);
    if (!(node->defaultWeight >= 0.0f && node->defaultWeight <= 1.0f))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonWeight, n, 0);
    const uint32_t bones = maniSkeleton_GetBoneCount(src->skeleton);
    for (uint32_t c = 0; c < node->chainCount; ++c) {
        if (node->chains[c].bone >= bones) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, n, c);
        if (!(node->chains[c].weight >= 0.0f && node->chains[c].weight <= 1.0f))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonWeight, n, (uint64_t)c + 1);
    }
    return mani_GraphOk();
}

/* Whether a one-shot's optional trigger is none or a trigger parameter. */
static int mani_GraphOptionalTrigger(const maniGraphSource* src, uint32_t p) {
    return p == MANI_NO_PARAMETER || (p < src->parameterCount && src->parameters[p].type == maniGraphParameterTrigger);
}

/* Checks a one-shot's triggers, curve, fades and mask. */
static maniBuildResult mani_CheckGraphOneShot(const maniGraphSource* src, uint32_t n) {
    const maniGraphNodeSource* node = &src->nodes[n];
    if (!mani_GraphOptionalTrigger(src, node->fadeOutTrigger))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonParameter, n, 1);
    if (!mani_GraphOptionalTrigger(src, node->abortTrigger))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonParameter, n, 2);
    if ((uint32_t)node->curve >= MANI_GRAPH_FADE_CURVE_COUNT)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNode, n, 1);
    if (!(isfinite(node->fadeIn) && node->fadeIn >= 0.0f))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonScalar, n, 0);
    if (!(isfinite(node->fadeOut) && node->fadeOut >= 0.0f))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonScalar, n, 1);
    return node->masked ? mani_CheckGraphMaskChains(src, n) : mani_GraphOk();
}

/* Checks an inertialize's method, duration and half-life settings. */
static maniBuildResult mani_CheckGraphInertialize(const maniGraphNodeSource* node, uint32_t n) {
    if ((uint32_t)node->method >= MANI_GRAPH_INERTIALIZATION_METHOD_COUNT)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNode, n, 1);
    const float numbers[4] = {node->duration, node->halfLifeScale, node->halfLifeMin, node->halfLifeMax};
    for (uint32_t k = 0; k < 4; ++k)
        if (!(isfinite(numbers[k]) && numbers[k] >= 0.0f))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonScalar, n, k);
    if (node->halfLifeMin > node->halfLifeMax) return mani_BuildResult(mani_errorInvalid, maniBuildReasonScalar, n, 3);
    return mani_GraphOk();
}

/* Checks a node against the source (all but order and reachability). */
static maniBuildResult mani_CheckGraphNode(const maniGraphSource* src, uint32_t n) {
    const maniGraphNodeSource* node = &src->nodes[n];
    if ((uint32_t)node->kind >= MANI_GRAPH_NODE_KIND_COUNT || !mani_GraphKindInFormat((uint32_t)node->kind))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNode, n, (uint32_t)node->kind);
    if (node->inputCount > MANI_MAX_GRAPH_INPUTS) return mani_BuildResult(mani_errorLimit, maniBuildReasonNode, n, 0);
    uint32_t least = 0, most = 0;
    mani_GraphInputBounds((uint32_t)node->kind, &least, &most);
    if (node->inputCount < least || node->inputCount > most)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonInput, n, 0);
    if (node->inputCount != 0 && (node->inputs == NULL || (node->kind == maniGraphNodeBlend && node->parameters == NULL)))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, n, 0);
    for (uint32_t i = 0; i < node->inputCount; ++i) {
        if (node->inputs[i] >= src->nodeCount) return mani_BuildResult(mani_errorInvalid, maniBuildReasonInput, n, i);
        if (node->kind != maniGraphNodeBlend) continue;
        const uint32_t w = node->parameters[i];
        if (w >= src->parameterCount || src->parameters[w].type != maniGraphParameterFloat)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonParameter, n, i);
    }
    if (!mani_GraphParameterFits(src, node)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonParameter, n, 0);
    switch (node->kind) {
    case maniGraphNodeClip:
        if (node->clip >= src->clipCount) return mani_BuildResult(mani_errorInvalid, maniBuildReasonClip, n, 0);
        if (!isfinite(node->speed)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonScalar, n, 0);
        if (fabsf(node->speed) > MANI_MAX_GRAPH_TIME_FACTOR)
            return mani_BuildResult(mani_errorLimit, maniBuildReasonScalar, n, 0);
        break;
    case maniGraphNodeTimeScale:
        if (node->parameter != MANI_NO_PARAMETER) break;
        if (!isfinite(node->factor)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonScalar, n, 0);
        if (fabsf(node->factor) > MANI_MAX_GRAPH_TIME_FACTOR)
            return mani_BuildResult(mani_errorLimit, maniBuildReasonScalar, n, 0);
        break;
    case maniGraphNodeSeek:
        if (!isfinite(node->time) || node->time < 0.0f)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonScalar, n, 0);
        break;
    case maniGraphNodeAdditive:
        if (node->parameter == MANI_NO_PARAMETER && !(node->weight >= 0.0f && node->weight <= 1.0f))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonWeight, n, 0);
        break;
    case maniGraphNodeMirror:
        if (src->mirror == NULL) return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorGraph, n, 0);
        break;
    case maniGraphNodeStateMachine: return mani_CheckGraphMachine(src, n);
    case maniGraphNodeSpace1D:
    case maniGraphNodeSpaceBanded:
    case maniGraphNodeSpaceTriangulated: return mani_CheckGraphSpace(src, n);
    case maniGraphNodeMask: return mani_CheckGraphMaskChains(src, n);
    case maniGraphNodeOneShot: return mani_CheckGraphOneShot(src, n);
    case maniGraphNodeInertialize: return mani_CheckGraphInertialize(node, n);
    default: break;
    }
    return mani_GraphOk();
}

/* A mask's bone weights: its default, then each chain's weight at its bone
 * and, for a subtree, at the bones after it whose parents lie in it (the
 * depth-first order keeps a subtree together). */
static void mani_MakeMaskWeights(const maniSkeleton* skeleton, const maniGraphNodeSource* node, uint8_t* out) {
    const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
    for (uint32_t b = 0; b < bones; ++b) mcore_WriteF32(out + 4u * b, node->defaultWeight);
    for (uint32_t c = 0; c < node->chainCount; ++c) {
        const maniGraphMaskChain* chain = &node->chains[c];
        mcore_WriteF32(out + 4u * chain->bone, chain->weight);
        if (!chain->subtree) continue;
        for (uint32_t b = chain->bone + 1; b < bones; ++b) {
            const uint32_t parent = maniSkeleton_GetParent(skeleton, b);
            if (parent == MANI_NO_BONE || parent < chain->bone) break;
            mcore_WriteF32(out + 4u * b, chain->weight);
        }
    }
}

/* The node record's index and number words: a clip's slot and speed, the
 * parameter and the constant of the kinds reading one (the constant 0 when
 * a parameter stands for it), else 0. */
static uint32_t mani_GraphNodeIndex(const maniGraphNodeSource* node) {
    switch (node->kind) {
    case maniGraphNodeClip: return node->clip;
    case maniGraphNodeMask: return 0; /* written in order: the mask's place among the masks */
    case maniGraphNodeAdditive:
    case maniGraphNodeSelect:
    case maniGraphNodeTimeScale:
    case maniGraphNodeSeek:
    case maniGraphNodeSpace1D:
    case maniGraphNodeSpaceBanded:
    case maniGraphNodeSpaceTriangulated:
    case maniGraphNodeOneShot:
    case maniGraphNodeInertialize:
    case maniGraphNodePose: return node->parameter;
    default: return 0;
    }
}

static float mani_GraphNodeNumber(const maniGraphNodeSource* node) {
    switch (node->kind) {
    case maniGraphNodeClip: return node->speed;
    case maniGraphNodeTimeScale: return node->parameter == MANI_NO_PARAMETER ? node->factor : 0.0f;
    case maniGraphNodeSeek: return node->time;
    case maniGraphNodeAdditive: return node->parameter == MANI_NO_PARAMETER ? node->weight : 0.0f;
    default: return 0.0f;
    }
}

/* The node data words of a node (docs/formats.md, "Graph"): a state
 * machine's header, finals, transitions and conditions; none for the
 * kinds whose index and number words hold them. */
static uint64_t mani_GraphNodeWords(const maniGraphNodeSource* node, uint32_t triangles, uint32_t bones) {
    switch (node->kind) {
    case maniGraphNodeOneShot: return MANI_GRAPH_ONESHOT_HEADER + (node->masked ? (uint64_t)bones : 0u);
    case maniGraphNodeInertialize: return MANI_GRAPH_INERTIALIZE_WORDS;
    case maniGraphNodeSpace1D: return MANI_GRAPH_SPACE1D_HEADER + (uint64_t)node->inputCount;
    case maniGraphNodeSpaceBanded: return MANI_GRAPH_SPACE2D_HEADER + 2u * (uint64_t)node->inputCount;
    case maniGraphNodeSpaceTriangulated:
        return MANI_GRAPH_SPACE2D_HEADER + 2u * (uint64_t)node->inputCount + 3u * (uint64_t)triangles;
    case maniGraphNodeStateMachine: {
        uint64_t words = MANI_GRAPH_MACHINE_HEADER + (uint64_t)node->finalCount;
        for (uint32_t t = 0; t < node->transitionCount; ++t)
            words += MANI_GRAPH_MACHINE_TRANSITION + MANI_GRAPH_MACHINE_CONDITION * (uint64_t)node->transitions[t].conditionCount;
        return words;
    }
    default: return 0;
    }
}

static void mani_WriteGraphNodeWords(const maniSkeleton* skeleton, const maniGraphNodeSource* node,
                                     const uint32_t* triangles, uint32_t triangleCount, uint8_t* out) {
    switch (node->kind) {
    case maniGraphNodeOneShot:
        mcore_WriteU32(out, node->fadeOutTrigger);
        mcore_WriteU32(out + 4, node->abortTrigger);
        mcore_WriteU32(out + 8, (uint32_t)node->curve);
        mcore_WriteF32(out + 12, node->fadeIn);
        mcore_WriteF32(out + 16, node->fadeOut);
        mcore_WriteU32(out + 20, node->masked ? 1u : 0u);
        if (node->masked) mani_MakeMaskWeights(skeleton, node, out + 4u * MANI_GRAPH_ONESHOT_HEADER);
        break;
    case maniGraphNodeInertialize:
        mcore_WriteU32(out, (uint32_t)node->method);
        mcore_WriteF32(out + 4, node->duration);
        mcore_WriteF32(out + 8, node->halfLifeScale);
        mcore_WriteF32(out + 12, node->halfLifeMin);
        mcore_WriteF32(out + 16, node->halfLifeMax);
        break;
    case maniGraphNodeSpace1D:
        mcore_WriteF32(out, node->period);
        for (uint32_t i = 0; i < node->inputCount; ++i) mcore_WriteF32(out + 4u * (MANI_GRAPH_SPACE1D_HEADER + i), node->points[i].x);
        break;
    case maniGraphNodeSpaceBanded:
    case maniGraphNodeSpaceTriangulated: {
        const int banded = node->kind == maniGraphNodeSpaceBanded;
        mcore_WriteU32(out, node->parameterY);
        mcore_WriteU32(out + 4, banded ? (node->polar ? 1u : 0u) : triangleCount);
        uint8_t* w = out + 4u * MANI_GRAPH_SPACE2D_HEADER;
        for (uint32_t i = 0; i < node->inputCount; ++i, w += 8) {
            mcore_WriteF32(w, node->points[i].x);
            mcore_WriteF32(w + 4, node->points[i].y);
        }
        for (uint32_t t = 0; !banded && t < 3u * triangleCount; ++t, w += 4) mcore_WriteU32(w, triangles[t]);
        break;
    }
    case maniGraphNodeStateMachine: {
        mcore_WriteU32(out, node->entry);
        mcore_WriteU32(out + 4, node->chainLimit != 0 ? node->chainLimit : MANI_MAX_GRAPH_CHAIN);
        mcore_WriteU32(out + 8, node->transitionCount);
        mcore_WriteU32(out + 12, node->finalCount);
        uint8_t* w = out + 4u * MANI_GRAPH_MACHINE_HEADER;
        for (uint32_t f = 0; f < node->finalCount; ++f, w += 4) mcore_WriteU32(w, node->finals[f]);
        for (uint32_t t = 0; t < node->transitionCount; ++t) {
            const maniGraphTransitionSource* tr = &node->transitions[t];
            mcore_WriteU32(w, tr->from);
            mcore_WriteU32(w + 4, tr->to);
            mcore_WriteU32(w + 8, tr->priority);
            mcore_WriteU32(w + 12, (uint32_t)tr->interruption);
            mcore_WriteU32(w + 16, (uint32_t)tr->entry);
            mcore_WriteU32(w + 20, (uint32_t)tr->fade);
            mcore_WriteF32(w + 24, tr->duration);
            mcore_WriteF32(w + 28, tr->cooldown);
            mcore_WriteU32(w + 32, tr->conditionCount);
            w += 4u * MANI_GRAPH_MACHINE_TRANSITION;
            for (uint32_t k = 0; k < tr->conditionCount; ++k, w += 4u * MANI_GRAPH_MACHINE_CONDITION) {
                const maniGraphConditionSource* c = &tr->conditions[k];
                const int reads = c->kind <= maniGraphConditionTrigger;
                const int counts = c->kind <= maniGraphConditionNotEqual || c->kind == maniGraphConditionTime ||
                                   c->kind == maniGraphConditionExitTime;
                mcore_WriteU32(w, (uint32_t)c->kind);
                mcore_WriteU32(w + 4, reads ? c->parameter : MANI_NO_PARAMETER);
                mcore_WriteF32(w + 8, counts ? c->value : 0.0f);
            }
        }
        break;
    }
    default: (void)out; break;
    }
}

/* The scratch of a build: per node (by source place) its place in the
 * order, its last reader's place in the order, its slot; per order place
 * the node; a free slot stack; marks. */
typedef struct mani_GraphScratch {
    uint32_t* order;
    uint32_t* place;
    uint32_t* lastReader;
    uint32_t* slot;
    uint32_t* freeSlots;
    uint32_t* mark;
    uint32_t* difference;
    uint32_t* parity;
} mani_GraphScratch;

static int mani_InputsPlaced(const maniGraphSource* src, const mani_GraphScratch* s, uint32_t n) {
    const maniGraphNodeSource* node = &src->nodes[n];
    for (uint32_t i = 0; i < node->inputCount; ++i)
        if (s->place[node->inputs[i]] == UINT32_MAX) return 0;
    return 1;
}

/* Orders the nodes (among those whose inputs are placed, the first in the
 * source next); on a cycle returns a node on it (else UINT32_MAX). */
static uint32_t mani_OrderGraph(const maniGraphSource* src, mani_GraphScratch* s) {
    const uint32_t n = src->nodeCount;
    for (uint32_t i = 0; i < n; ++i) s->place[i] = UINT32_MAX;
    for (uint32_t placed = 0; placed < n; ++placed) {
        uint32_t next = UINT32_MAX;
        for (uint32_t i = 0; i < n && next == UINT32_MAX; ++i)
            if (s->place[i] == UINT32_MAX && mani_InputsPlaced(src, s, i)) next = i;
        if (next == UINT32_MAX) {
            /* Every unplaced node has an unplaced input: follow them n
             * times from the first, landing on a cycle. */
            uint32_t at = 0;
            while (s->place[at] != UINT32_MAX) ++at;
            for (uint32_t step = 0; step < n; ++step) {
                const maniGraphNodeSource* node = &src->nodes[at];
                for (uint32_t k = 0; k < node->inputCount; ++k) {
                    if (s->place[node->inputs[k]] == UINT32_MAX) {
                        at = node->inputs[k];
                        break;
                    }
                }
            }
            return at;
        }
        s->place[next] = placed;
        s->order[placed] = next;
    }
    return UINT32_MAX;
}

/* The retargeting map slots of a source: each distinct map (by identity)
 * its clip slots name, in the clip slots' order. */
typedef struct mani_GraphMaps {
    uint32_t count;
    uint64_t identity[MANI_MAX_GRAPH_RETARGET_MAPS];
    uint64_t source[MANI_MAX_GRAPH_RETARGET_MAPS];
} mani_GraphMaps;

/* The map slot of a map's identity, or MANI_NO_TRACK. */
static uint32_t mani_FindGraphMap(const mani_GraphMaps* maps, uint64_t identity) {
    for (uint32_t m = 0; m < maps->count; ++m)
        if (maps->identity[m] == identity) return m;
    return MANI_NO_TRACK;
}

/* Checks the clip slots' clips and maps, giving each distinct map a slot:
 * Clip (item the slot; other 0 a clip not opened, 1 a clip of another
 * skeleton than the graph's or its map's source, 2 a map not opened or not
 * made for the graph's skeleton, 3 an additive clip through a map), Limit Clip past
 * MANI_MAX_GRAPH_RETARGET_MAPS maps (item the slot naming the first map
 * past them). */
static maniBuildResult mani_CheckGraphClips(const maniGraphSource* src, uint64_t skeletonIdentity,
                                            mani_GraphMaps* maps) {
    maps->count = 0;
    for (uint32_t k = 0; k < src->clipCount; ++k) {
        const maniGraphClipSource* cs = &src->clips[k];
        if (maniClip_GetIdentity(cs->clip) == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonClip, k, 0);
        uint64_t of = skeletonIdentity;
        if (cs->map != NULL) {
            const uint64_t identity = maniRetargetMap_GetIdentity(cs->map);
            if (identity == 0 || maniRetargetMap_GetTargetIdentity(cs->map) != skeletonIdentity)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonClip, k, 2);
            of = maniRetargetMap_GetSourceIdentity(cs->map);
            if (mani_FindGraphMap(maps, identity) == MANI_NO_TRACK) {
                if (maps->count == MANI_MAX_GRAPH_RETARGET_MAPS)
                    return mani_BuildResult(mani_errorLimit, maniBuildReasonClip, k, 0);
                maps->identity[maps->count] = identity;
                maps->source[maps->count++] = of;
            }
        }
        if (maniClip_GetSkeletonIdentity(cs->clip) != of)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonClip, k, 1);
        if (cs->map != NULL && maniClip_GetAdditiveBasis(cs->clip) != maniAdditiveNone)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonClip, k, 3); /* a map carries poses */
    }
    return mani_GraphOk();
}

/* The clip slot a database's clip is played by: the first slot of its
 * identity playing a clip of the graph's skeleton (no map), or
 * MANI_NO_TRACK. */
static uint32_t mani_GraphDatabaseClipSlot(const maniGraphSource* src, uint64_t identity) {
    for (uint32_t k = 0; k < src->clipCount; ++k)
        if (src->clips[k].map == NULL && maniClip_GetIdentity(src->clips[k].clip) == identity) return k;
    return MANI_NO_TRACK;
}

/* Checks the database, model and spring set slots: names with their list
 * bits, then each slot's asset opened (other 0) and of the graph's skeleton
 * (other 1); a database's clips each a clip slot's (other 2 + the clip). */
static maniBuildResult mani_CheckGraphAssetSlots(const maniGraphSource* src, uint64_t skeletonIdentity,
                                                 uint64_t* databaseClipsOut) {
    maniBuildResult r = mani_CheckGraphNames(src->databases, sizeof(maniGraphDatabaseSource), src->databaseCount,
                                             maniBuildReasonGraphDatabases);
    if (r.result != mani_success) return r;
    r = mani_CheckGraphNames(src->models, sizeof(maniGraphModelSource), src->modelCount, maniBuildReasonGraphModels);
    if (r.result != mani_success) return r;
    r = mani_CheckGraphNames(src->springSets, sizeof(maniGraphSpringSetSource), src->springSetCount,
                             maniBuildReasonGraphSpringSets);
    if (r.result != mani_success) return r;
    uint64_t total = 0;
    for (uint32_t d = 0; d < src->databaseCount; ++d) {
        const maniMotionDatabase* db = src->databases[d].database;
        if (maniMotionDatabase_GetIdentity(db) == 0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonDatabase, d, 0);
        if (maniMotionDatabase_GetSkeletonIdentity(db) != skeletonIdentity)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonDatabase, d, 1);
        for (uint32_t c = 0; c < db->clipCount; ++c)
            if (mani_GraphDatabaseClipSlot(src, maniMotionDatabase_GetClipIdentity(db, c)) == MANI_NO_TRACK)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonDatabase, d, 2u + (uint64_t)c);
        total += db->clipCount;
    }
    for (uint32_t m = 0; m < src->modelCount; ++m) {
        const maniLearnedModel* model = src->models[m].model;
        if (maniLearnedModel_GetIdentity(model) == 0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonModel, m, 0);
        if (maniLearnedModel_GetSkeletonIdentity(model) != skeletonIdentity)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonModel, m, 1);
    }
    for (uint32_t k = 0; k < src->springSetCount; ++k) {
        const maniSpringSet* set = src->springSets[k].set;
        if (maniSpringSet_GetIdentity(set) == 0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonSpringSetSlot, k, 0);
        if (maniSpringSet_GetSkeletonIdentity(set) != skeletonIdentity)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonSpringSetSlot, k, 1);
    }
    *databaseClipsOut = total;
    return mani_GraphOk();
}

/* Writes a slot record's name (offset, length at w) and its bytes into the
 * names at *cursor. */
static void mani_WriteGraphName(uint8_t* w, uint8_t* names, uint32_t* cursor, const char* name, size_t length) {
    mcore_WriteU32(w, *cursor);
    mcore_WriteU32(w + 4, (uint32_t)length);
    memcpy(names + *cursor, name, length);
    *cursor += (uint32_t)length;
}

/* A triangulated space without given triangles: its points' Delaunay
 * triangulation made once to be refused here (Triangle, other
 * MANI_GRAPH_NONE) rather than when written. */
static maniBuildResult mani_CheckGraphDelaunay(maniBuilder* builder, const maniGraphSource* src, uint32_t n) {
    const maniGraphNodeSource* node = &src->nodes[n];
    if (node->kind != maniGraphNodeSpaceTriangulated || node->triangleCount != 0) return mani_GraphOk();
    const size_t size = sizeof(uint32_t) * 6u * node->inputCount;
    uint32_t* tris = (uint32_t*)mani_BuilderAlloc(builder, size, 4);
    if (tris == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    const uint32_t count = mani_TriangulateSpace(builder, node, tris);
    mani_BuilderFree(builder, tris, size);
    if (count == UINT32_MAX) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    if (count == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonTriangle, n, MANI_GRAPH_NONE);
    return mani_GraphOk();
}

/* The triangles a node's words hold: a triangulated space's given ones, or
 * those made for it (made[node]: first word in made's words, count). */
static const uint32_t* mani_NodeTriangles(const maniGraphNodeSource* node, const uint32_t* made, uint32_t place,
                                          uint32_t nodeCount, uint32_t* countOut) {
    *countOut = 0;
    if (node->kind != maniGraphNodeSpaceTriangulated) return NULL;
    if (node->triangleCount != 0) {
        *countOut = node->triangleCount;
        return node->triangles;
    }
    *countOut = made[2u * place + 1];
    return made + 2u * (size_t)nodeCount + made[2u * place];
}

maniBuildResult maniBuildGraph(maniBuilder* builder, const maniGraphSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniSkeleton* skeleton = source->skeleton;
    if (maniSkeleton_GetBoneCount(skeleton) == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    if (source->nodeCount > MANI_MAX_GRAPH_NODES || source->parameterCount > MANI_MAX_GRAPH_PARAMETERS ||
        source->clipCount > MANI_MAX_GRAPH_CLIPS || source->databaseCount > MANI_MAX_GRAPH_CLIPS ||
        source->modelCount > MANI_MAX_GRAPH_CLIPS || source->springSetCount > MANI_MAX_GRAPH_CLIPS)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, 0, 0);
    if (source->nodeCount == 0 || source->nodes == NULL || (source->parameterCount && !source->parameters) ||
        (source->clipCount && !source->clips) || (source->databaseCount && !source->databases) ||
        (source->modelCount && !source->models) || (source->springSetCount && !source->springSets))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);

    /* Parameters and clip slots. */
    maniBuildResult r = mani_CheckGraphNames(source->parameters, sizeof(maniGraphParameterSource), source->parameterCount,
                                             maniBuildReasonGraphParameters);
    if (r.result != mani_success) return r;
    for (uint32_t p = 0; p < source->parameterCount; ++p)
        if ((uint32_t)source->parameters[p].type >= MANI_GRAPH_PARAMETER_TYPE_COUNT ||
            !mani_ParameterValueOk(&source->parameters[p]))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonParameter, p, 0);
    r = mani_CheckGraphNames(source->clips, sizeof(maniGraphClipSource), source->clipCount, maniBuildReasonGraphClips);
    if (r.result != mani_success) return r;
    const uint64_t skeletonIdentity = maniSkeleton_GetIdentity(skeleton);
    mani_GraphMaps maps;
    r = mani_CheckGraphClips(source, skeletonIdentity, &maps);
    if (r.result != mani_success) return r;
    uint64_t databaseClips = 0;
    r = mani_CheckGraphAssetSlots(source, skeletonIdentity, &databaseClips);
    if (r.result != mani_success) return r;

    /* The mirror map. */
    if (source->mirror != NULL && (maniMirrorMap_GetIdentity(source->mirror) == 0 ||
                                   maniMirrorMap_GetSkeletonIdentity(source->mirror) != skeletonIdentity))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorGraph, 0, 1);

    /* Nodes and the output. */
    const uint32_t n = source->nodeCount;
    uint64_t inputTotal = 0;
    for (uint32_t i = 0; i < n; ++i) {
        r = mani_CheckGraphNode(source, i);
        if (r.result != mani_success) return r;
        r = mani_CheckGraphDelaunay(builder, source, i);
        if (r.result != mani_success) return r;
        inputTotal += source->nodes[i].inputCount;
    }
    if (source->output >= n) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNode, source->output, 0);

    mani_GraphScratch s;
    const size_t scratchSize = (size_t)n * 8 * sizeof(uint32_t);
    uint32_t* block = (uint32_t*)mani_BuilderAlloc(builder, scratchSize, 4);
    if (block == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    s.order = block;
    s.place = block + n;
    s.lastReader = block + 2 * (size_t)n;
    s.slot = block + 3 * (size_t)n;
    s.freeSlots = block + 4 * (size_t)n;
    s.mark = block + 5 * (size_t)n;
    s.difference = block + 6 * (size_t)n;
    s.parity = block + 7 * (size_t)n;

    /* The order, then what the output reads (walking the order down). */
    const uint32_t cycle = mani_OrderGraph(source, &s);
    if (cycle != UINT32_MAX) {
        mani_BuilderFree(builder, block, scratchSize);
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCycle, cycle, 0);
    }
    memset(s.mark, 0, (size_t)n * 4);
    s.mark[source->output] = 1;
    for (uint32_t at = n; at-- > 0;) {
        const maniGraphNodeSource* node = &source->nodes[s.order[at]];
        if (!s.mark[s.order[at]]) continue;
        for (uint32_t k = 0; k < node->inputCount; ++k) s.mark[node->inputs[k]] = 1;
    }
    for (uint32_t i = 0; i < n; ++i) {
        if (!s.mark[i]) {
            mani_BuilderFree(builder, block, scratchSize);
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonUnreachable, i, 0);
        }
    }

    /* Differences, in order (inputs first): each node's from its inputs'. */
    for (uint32_t at = 0; at < n; ++at) {
        const uint32_t i = s.order[at];
        const maniGraphNodeSource* node = &source->nodes[i];
        uint32_t difference = 0;
        switch (node->kind) {
        case maniGraphNodeClip:
            difference = maniClip_GetAdditiveBasis(source->clips[node->clip].clip) != maniAdditiveNone;
            break;
        case maniGraphNodeAdditive:
            if (s.difference[node->inputs[0]]) r = mani_BuildResult(mani_errorInvalid, maniBuildReasonDifference, i, 0);
            else if (!s.difference[node->inputs[1]])
                r = mani_BuildResult(mani_errorInvalid, maniBuildReasonDifference, i, 1);
            break;
        case maniGraphNodePose: break;
        case maniGraphNodeInertialize: /* a pose of a pose: offsets are between poses */
            if (s.difference[node->inputs[0]]) r = mani_BuildResult(mani_errorInvalid, maniBuildReasonDifference, i, 0);
            break;
        case maniGraphNodeOneShot: /* a pose: its base and its shot poses */
            if (s.difference[node->inputs[0]]) r = mani_BuildResult(mani_errorInvalid, maniBuildReasonDifference, i, 0);
            else if (s.difference[node->inputs[1]])
                r = mani_BuildResult(mani_errorInvalid, maniBuildReasonDifference, i, 1);
            break;
        default:
            difference = s.difference[node->inputs[0]];
            for (uint32_t k = 1; k < node->inputCount && r.result == mani_success; ++k)
                if (s.difference[node->inputs[k]] != difference)
                    r = mani_BuildResult(mani_errorInvalid, maniBuildReasonDifference, i, k);
            break;
        }
        if (r.result != mani_success) {
            mani_BuilderFree(builder, block, scratchSize);
            return r;
        }
        s.difference[i] = difference;
    }
    if (s.difference[source->output]) {
        mani_BuilderFree(builder, block, scratchSize);
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonDifference, source->output, 0);
    }
    /* Mirror parity, down from the output (readers before their inputs):
     * each node's the parity its first reader gives it, every other reader
     * giving the same. s.mark holds the reader that set it, + 1. */
    memset(s.mark, 0, (size_t)n * 4);
    s.parity[source->output] = 0;
    s.mark[source->output] = n + 1;
    for (uint32_t at = n; at-- > 0;) {
        const uint32_t i = s.order[at];
        const maniGraphNodeSource* node = &source->nodes[i];
        const uint32_t given = s.parity[i] ^ (node->kind == maniGraphNodeMirror ? 1u : 0u);
        for (uint32_t k = 0; k < node->inputCount; ++k) {
            const uint32_t in = node->inputs[k];
            if (s.mark[in] == 0) {
                s.mark[in] = i + 1;
                s.parity[in] = given;
            } else if (s.parity[in] != given) {
                mani_BuilderFree(builder, block, scratchSize);
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorParity, in, i);
            }
        }
    }

    /* Pose slots: a node takes a free slot (or a new one) before its inputs
     * whose last reader it is give theirs back. */
    for (uint32_t i = 0; i < n; ++i) s.lastReader[i] = UINT32_MAX;
    for (uint32_t at = 0; at < n; ++at) {
        const maniGraphNodeSource* node = &source->nodes[s.order[at]];
        for (uint32_t k = 0; k < node->inputCount; ++k) s.lastReader[node->inputs[k]] = at;
    }
    uint32_t slotCount = 0, freeCount = 0;
    for (uint32_t at = 0; at < n; ++at) {
        const uint32_t i = s.order[at];
        s.slot[i] = freeCount ? s.freeSlots[--freeCount] : slotCount++;
        const maniGraphNodeSource* node = &source->nodes[i];
        for (uint32_t k = 0; k < node->inputCount; ++k) {
            const uint32_t in = node->inputs[k];
            if (s.lastReader[in] == at) {
                s.freeSlots[freeCount++] = s.slot[in];
                s.lastReader[in] = UINT32_MAX; /* given back once */
            }
        }
    }

    /* The file. */
    uint64_t namesSize = 0;
    for (uint32_t p = 0; p < source->parameterCount; ++p) namesSize += source->parameters[p].nameLength;
    for (uint32_t k = 0; k < source->clipCount; ++k) namesSize += source->clips[k].nameLength;
    for (uint32_t d = 0; d < source->databaseCount; ++d) namesSize += source->databases[d].nameLength;
    for (uint32_t m = 0; m < source->modelCount; ++m) namesSize += source->models[m].nameLength;
    for (uint32_t k = 0; k < source->springSetCount; ++k) namesSize += source->springSets[k].nameLength;
    uint32_t maskCount = 0;
    for (uint32_t i = 0; i < n; ++i) maskCount += source->nodes[i].kind == maniGraphNodeMask;
    const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
    /* The triangulations of the spaces without given triangles: per node
     * (by source place) its first word and count, then the words. */
    size_t madeWords = 2u * (size_t)n;
    for (uint32_t i = 0; i < n; ++i)
        if (source->nodes[i].kind == maniGraphNodeSpaceTriangulated && source->nodes[i].triangleCount == 0)
            madeWords += 6u * (size_t)source->nodes[i].inputCount;
    uint32_t* made = (uint32_t*)mani_BuilderAlloc(builder, sizeof(uint32_t) * madeWords, 4);
    if (made == NULL) {
        mani_BuilderFree(builder, block, scratchSize);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    memset(made, 0, sizeof(uint32_t) * madeWords);
    uint32_t madeAt = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const maniGraphNodeSource* node = &source->nodes[i];
        if (node->kind != maniGraphNodeSpaceTriangulated || node->triangleCount != 0) continue;
        const uint32_t count = mani_TriangulateSpace(builder, node, made + 2u * (size_t)n + madeAt);
        if (count == UINT32_MAX) {
            mani_BuilderFree(builder, made, sizeof(uint32_t) * madeWords);
            mani_BuilderFree(builder, block, scratchSize);
            return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
        }
        made[2u * i] = madeAt;
        made[2u * i + 1] = count; /* not 0: the check made it before */
        madeAt += 6u * node->inputCount;
    }
    uint64_t dataWords = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t triangles = 0;
        (void)mani_NodeTriangles(&source->nodes[i], made, i, n, &triangles);
        dataWords += mani_GraphNodeWords(&source->nodes[i], triangles, bones);
    }
    const uint64_t sizes[MANI_GRAPH_SECTION_COUNT] = {
        MANI_GRAPH_INFO_SIZE, (uint64_t)MANI_GRAPH_PARAMETER_SIZE * source->parameterCount,
        (uint64_t)MANI_GRAPH_CLIP_SIZE * source->clipCount, (uint64_t)MANI_GRAPH_NODE_SIZE * n,
        MANI_GRAPH_INPUT_SIZE * inputTotal, namesSize,
        MANI_GRAPH_MASKS_HEADER + 4u * (uint64_t)maskCount * bones,
        (uint64_t)MANI_GRAPH_DATABASE_SIZE * source->databaseCount + 4u * databaseClips,
        (uint64_t)MANI_GRAPH_SLOT_SIZE * source->modelCount, (uint64_t)MANI_GRAPH_SLOT_SIZE * source->springSetCount,
        (uint64_t)MANI_GRAPH_SLOT_SIZE * maps.count,
        (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * n + 4u * dataWords};
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniGraphSections, sizes, MANI_GRAPH_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) {
        mani_BuilderFree(builder, made, sizeof(uint32_t) * madeWords);
        mani_BuilderFree(builder, block, scratchSize);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    const uint64_t info = sec[0].offset;
    mcore_WriteU64(file + info, skeletonIdentity);
    mcore_WriteU32(file + info + 8, n);
    mcore_WriteU32(file + info + 12, source->parameterCount);
    mcore_WriteU32(file + info + 16, source->clipCount);
    mcore_WriteU32(file + info + 20, slotCount);
    mcore_WriteU32(file + info + 24, (uint32_t)inputTotal);
    mcore_WriteU32(file + info + 28, (uint32_t)namesSize);
    mcore_WriteU64(file + info + 32, source->mirror != NULL ? maniMirrorMap_GetIdentity(source->mirror) : 0u);
    mcore_WriteU32(file + info + 40, source->databaseCount);
    mcore_WriteU32(file + info + 44, source->modelCount);
    mcore_WriteU32(file + info + 48, source->springSetCount);
    mcore_WriteU32(file + info + 52, maps.count);
    mcore_WriteU32(file + info + 56, (uint32_t)databaseClips);
    uint32_t cursor = 0;
    for (uint32_t p = 0; p < source->parameterCount; ++p) {
        const maniGraphParameterSource* ps = &source->parameters[p];
        uint8_t* w = file + sec[1].offset + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * p;
        mcore_WriteU32(w, (uint32_t)ps->type);
        mcore_WriteU32(w + 4, cursor);
        mcore_WriteU32(w + 8, (uint32_t)ps->nameLength);
        memcpy(file + sec[5].offset + cursor, ps->name, ps->nameLength);
        cursor += (uint32_t)ps->nameLength;
        float d[4] = {0, 0, 0, 0};
        if (ps->type == maniGraphParameterFloat) d[0] = ps->value.number;
        if (ps->type == maniGraphParameterBool) d[0] = (float)ps->value.flag;
        if (ps->type == maniGraphParameterVector) {
            d[0] = ps->value.vector.x;
            d[1] = ps->value.vector.y;
            d[2] = ps->value.vector.z;
        }
        if (ps->type == maniGraphParameterQuaternion) {
            d[0] = ps->value.rotation.x;
            d[1] = ps->value.rotation.y;
            d[2] = ps->value.rotation.z;
            d[3] = ps->value.rotation.w;
        }
        for (int k = 0; k < 4; ++k) mcore_WriteF32(w + 16 + 4 * k, d[k]);
    }
    for (uint32_t k = 0; k < source->clipCount; ++k) {
        const maniGraphClipSource* cs = &source->clips[k];
        uint8_t* w = file + sec[2].offset + (uint64_t)MANI_GRAPH_CLIP_SIZE * k;
        mcore_WriteU64(w, maniClip_GetIdentity(cs->clip));
        mcore_WriteU32(w + 8, cursor);
        mcore_WriteU32(w + 12, (uint32_t)cs->nameLength);
        mcore_WriteU32(w + 16, cs->map != NULL ? mani_FindGraphMap(&maps, maniRetargetMap_GetIdentity(cs->map))
                                               : MANI_NO_TRACK);
        memcpy(file + sec[5].offset + cursor, cs->name, cs->nameLength);
        cursor += (uint32_t)cs->nameLength;
    }
    /* The slots of databases (each listing the clip slots of its clips),
     * models, spring sets and maps; their names after the clips'. */
    uint32_t listed = 0;
    const uint64_t list = sec[7].offset + (uint64_t)MANI_GRAPH_DATABASE_SIZE * source->databaseCount;
    for (uint32_t d = 0; d < source->databaseCount; ++d) {
        const maniMotionDatabase* db = source->databases[d].database;
        uint8_t* w = file + sec[7].offset + (uint64_t)MANI_GRAPH_DATABASE_SIZE * d;
        mcore_WriteU64(w, maniMotionDatabase_GetIdentity(db));
        mani_WriteGraphName(w + 8, file + sec[5].offset, &cursor, source->databases[d].name,
                            source->databases[d].nameLength);
        mcore_WriteU32(w + 16, listed);
        mcore_WriteU32(w + 20, db->clipCount);
        for (uint32_t c = 0; c < db->clipCount; ++c, ++listed)
            mcore_WriteU32(file + list + 4u * (uint64_t)listed,
                           mani_GraphDatabaseClipSlot(source, maniMotionDatabase_GetClipIdentity(db, c)));
    }
    for (uint32_t m = 0; m < source->modelCount; ++m) {
        uint8_t* w = file + sec[8].offset + (uint64_t)MANI_GRAPH_SLOT_SIZE * m;
        mcore_WriteU64(w, maniLearnedModel_GetIdentity(source->models[m].model));
        mani_WriteGraphName(w + 8, file + sec[5].offset, &cursor, source->models[m].name, source->models[m].nameLength);
    }
    for (uint32_t k = 0; k < source->springSetCount; ++k) {
        uint8_t* w = file + sec[9].offset + (uint64_t)MANI_GRAPH_SLOT_SIZE * k;
        mcore_WriteU64(w, maniSpringSet_GetIdentity(source->springSets[k].set));
        mani_WriteGraphName(w + 8, file + sec[5].offset, &cursor, source->springSets[k].name,
                            source->springSets[k].nameLength);
    }
    for (uint32_t m = 0; m < maps.count; ++m) {
        uint8_t* w = file + sec[10].offset + (uint64_t)MANI_GRAPH_SLOT_SIZE * m;
        mcore_WriteU64(w, maps.identity[m]);
        mcore_WriteU64(w + 8, maps.source[m]);
    }
    mcore_WriteU32(file + sec[6].offset, maskCount);
    mcore_WriteU32(file + sec[6].offset + 4, bones);
    uint32_t nextInput = 0, nextMask = 0, nextWord = 0;
    for (uint32_t at = 0; at < n; ++at) {
        const uint32_t i = s.order[at];
        const maniGraphNodeSource* node = &source->nodes[i];
        uint8_t* w = file + sec[3].offset + (uint64_t)MANI_GRAPH_NODE_SIZE * at;
        mcore_WriteU32(w, (uint32_t)node->kind);
        mcore_WriteU32(w + 4, (node->kind == maniGraphNodeBlend && node->direct ? MANI_GRAPH_NODE_DIRECT : 0u) |
                                  (s.difference[i] ? MANI_GRAPH_NODE_DIFFERENCE : 0u) |
                                  (s.parity[i] ? MANI_GRAPH_NODE_MIRRORED : 0u));
        mcore_WriteU32(w + 8, i);
        mcore_WriteU32(w + 12, s.slot[i]);
        mcore_WriteU32(w + 16, nextInput);
        mcore_WriteU32(w + 20, node->inputCount);
        mcore_WriteU32(w + 24, node->kind == maniGraphNodeMask ? nextMask : mani_GraphNodeIndex(node));
        if (node->kind == maniGraphNodeMask)
            mani_MakeMaskWeights(skeleton, node,
                                 file + sec[6].offset + MANI_GRAPH_MASKS_HEADER + 4u * (uint64_t)bones * nextMask++);
        mcore_WriteF32(w + 28, mani_GraphNodeNumber(node));
        for (uint32_t k = 0; k < node->inputCount; ++k) {
            uint8_t* e = file + sec[4].offset + MANI_GRAPH_INPUT_SIZE * ((uint64_t)nextInput + k);
            mcore_WriteU32(e, s.place[node->inputs[k]]);
            mcore_WriteU32(e + 4, node->kind == maniGraphNodeBlend ? node->parameters[k] : MANI_NO_PARAMETER);
        }
        nextInput += node->inputCount;
        uint32_t triangleCount = 0;
        const uint32_t* triangles = mani_NodeTriangles(node, made, i, n, &triangleCount);
        const uint32_t words = (uint32_t)mani_GraphNodeWords(node, triangleCount, bones);
        uint8_t* dir = file + sec[11].offset + (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * at;
        mcore_WriteU32(dir, nextWord);
        mcore_WriteU32(dir + 4, words);
        mani_WriteGraphNodeWords(skeleton, node, triangles, triangleCount, file + sec[11].offset + (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * n +
                                           4u * (uint64_t)nextWord);
        nextWord += words;
    }
    mcore_FinishContainer(file, &layout, mcore_kindGraph, mcore_formatGraphLatest, MANI_ABI_VERSION);
    mani_BuilderFree(builder, made, sizeof(uint32_t) * madeWords);
    mani_BuilderFree(builder, block, scratchSize);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_GraphOk();
}
