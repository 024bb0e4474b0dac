/* Suite "graph", its blend space part: six seeded graphs of 3 to 6 clips
 * (as maniFixtureMakeGraph's: seeded loop policies and speeds in [-1.5, 2],
 * events, float tracks, root motion) under one blend space, the output:
 * graph-space-0 a clamped 1D space, -1 banded, -2 triangulated (the
 * Delaunay triangulation of seeded points), -3 a 1D space with a period,
 * -4 polar bands, -5 triangulated over given triangles (a rectangle fanned
 * from a point inside). Parameters x and y (floats) are each set one
 * update in two, over the space and past it. Each graph's space words
 * (graph-space-K-words: positions, flags and the triangles the build
 * made), then played and recorded as the other graphs (mconf_GraphPlay). */
#include <stdio.h>
#include <string.h>

#include "conformance/suites/graph.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/graphbuild.h"

#define MCONF_SPACE_GRAPHS 6u

static float mconf_SpaceTimeline(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, float lo,
                                 float hi) {
    for (uint32_t p = 0; p < parameters; ++p) {
        const uint32_t pick = mcore_RngBelow(rng, 2);
        maniGraphValue v;
        memset(&v, 0, sizeof v);
        v.number = mcore_RngFloatRange(rng, lo, hi);
        if (pick == 0 && maniGraphInstance_SetParameter(instance, p, maniGraphParameterFloat, v) != mani_success)
            return -1.0f;
    }
    return mcore_RngFloatRange(rng, -0.05f, 0.15f);
}

static float mconf_SpaceTimeline1D(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, void* user) {
    (void)user;
    return mconf_SpaceTimeline(rng, instance, parameters, -1.0f, 6.0f);
}

static float mconf_SpaceTimeline2D(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, void* user) {
    (void)user;
    return mconf_SpaceTimeline(rng, instance, parameters, -2.5f, 2.5f);
}

/* Makes space graph k; returns 1, or 0 when a build or open fails
 * (everything freed). */
static int mconf_MakeSpaceGraph(maniFixtureGraph* g, uint32_t k, const maniSkeleton* skeleton) {
    memset(g, 0, sizeof *g);
    mcore_Rng rng;
    mcore_RngSeed(&rng, 0x53500000u + k);
    const maniGraphNodeKind kind = k % 3u == 0   ? maniGraphNodeSpace1D
                                   : k % 3u == 1 ? maniGraphNodeSpaceBanded
                                                 : maniGraphNodeSpaceTriangulated;
    const int variant = k >= 3u;
    uint32_t clips = 3u + mcore_RngBelow(&rng, 4);
    if (kind == maniGraphNodeSpaceTriangulated && variant) clips = 5;
    g->clipCount = clips;
    for (uint32_t c = 0; c < clips; ++c) {
        if (!maniFixtureAddGraphClip(g, c, &rng, skeleton)) {
            maniFixtureFreeGraph(g);
            return 0;
        }
        maniGraphNodeSource* n = &g->nodes[c];
        n->kind = maniGraphNodeClip;
        n->clip = c;
        n->speed = mcore_RngFloatRange(&rng, -1.5f, 2.0f);
        g->inputs[clips][c] = c;
    }
    const char* names[2] = {"x", "y"};
    for (uint32_t p = 0; p < 2; ++p) {
        snprintf(g->names[p], 8, "%s", names[p]);
        g->parameters[p].name = g->names[p];
        g->parameters[p].nameLength = 1;
        g->parameters[p].type = maniGraphParameterFloat;
        g->parameters[p].value.number = mcore_RngFloatRange(&rng, -1.0f, 1.0f);
    }
    maniGraphSpacePoint points[MANI_FIXTURE_GRAPH_MAX_CLIPS];
    uint32_t triangles[12];
    maniGraphNodeSource* s = &g->nodes[clips];
    s->kind = kind;
    s->inputs = g->inputs[clips];
    s->inputCount = clips;
    s->parameter = 0;
    s->parameterY = 1;
    s->points = points;
    if (kind == maniGraphNodeSpace1D) {
        float at = mcore_RngFloatRange(&rng, 0.0f, 0.5f);
        for (uint32_t c = 0; c < clips; ++c) {
            points[c].x = at;
            points[c].y = 0.0f;
            at += mcore_RngFloatRange(&rng, 0.25f, 1.0f);
        }
        if (variant) s->period = at;
    } else if (kind == maniGraphNodeSpaceTriangulated && variant) {
        /* A rectangle's corners (counterclockwise) and a point inside. */
        const float x0 = mcore_RngFloatRange(&rng, -2.0f, -0.5f), x1 = mcore_RngFloatRange(&rng, 0.5f, 2.0f);
        const float y0 = mcore_RngFloatRange(&rng, -2.0f, -0.5f), y1 = mcore_RngFloatRange(&rng, 0.5f, 2.0f);
        points[0] = (maniGraphSpacePoint){x0, y0};
        points[1] = (maniGraphSpacePoint){x1, y0};
        points[2] = (maniGraphSpacePoint){x1, y1};
        points[3] = (maniGraphSpacePoint){x0, y1};
        points[4] = (maniGraphSpacePoint){mcore_RngFloatRange(&rng, -0.4f, 0.4f), mcore_RngFloatRange(&rng, -0.4f, 0.4f)};
        for (uint32_t t = 0; t < 4; ++t) {
            triangles[3 * t] = t;
            triangles[3 * t + 1] = (t + 1) % 4u;
            triangles[3 * t + 2] = 4;
        }
        s->triangles = triangles;
        s->triangleCount = 4;
    } else {
        for (uint32_t c = 0; c < clips; ++c) {
            points[c].x = mcore_RngFloatRange(&rng, -2.0f, 2.0f);
            points[c].y = mcore_RngFloatRange(&rng, -2.0f, 2.0f);
        }
        s->polar = kind == maniGraphNodeSpaceBanded && variant;
    }
    g->source.skeleton = skeleton;
    g->source.parameters = g->parameters;
    g->source.parameterCount = 2;
    g->source.clips = g->clipSources;
    g->source.clipCount = clips;
    g->source.nodes = g->nodes;
    g->source.nodeCount = clips + 1;
    g->source.output = clips;

    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* builder = NULL;
    if (maniCreateBuilder(&def, &builder) != mani_success) {
        maniFixtureFreeGraph(g);
        return 0;
    }
    int ok = maniBuildGraph(builder, &g->source).result == mani_success;
    if (ok) {
        g->file = maniFixtureCopyBuilt(builder, 16, &g->size);
        ok = g->file != NULL && maniOpenGraph(g->file, g->size, &g->graph).result == mani_success;
    }
    maniDestroyBuilder(builder);
    /* The source's points and triangles were this function's: none kept. */
    s->points = NULL;
    s->triangles = NULL;
    if (!ok) maniFixtureFreeGraph(g);
    return ok;
}

void mconf_GraphSpaces(mconf_Run* run, const maniSkeleton* skeleton, mconf_Bytes* bytes) {
    char name[96];
    for (uint32_t k = 0; k < MCONF_SPACE_GRAPHS; ++k) {
        maniFixtureGraph g;
        if (!mconf_MakeSpaceGraph(&g, k, skeleton)) {
            snprintf(name, sizeof name, "graph-space-%u-build-failed", k);
            mconf_Record(run, name, 0);
            continue;
        }
        /* The space's node data words (a 1D space's period and positions,
         * a 2D space's y parameter, flag or triangle count, points and the
         * triangles the build wrote). */
        const uint8_t* directory = g.graph.bytes + g.graph.nodeData;
        mconf_BytesAdd(bytes, directory + 8u * g.graph.nodeCount,
                       4u * (size_t)g.graph.nodeDataWords);
        snprintf(name, sizeof name, "graph-space-%u-words", k);
        mconf_RecordBytes(run, name, bytes);
        snprintf(name, sizeof name, "graph-space-%u", k);
        mconf_GraphPlay(run, name, &g, skeleton, 0x53500000u + k,
                        k % 3u == 0 ? mconf_SpaceTimeline1D : mconf_SpaceTimeline2D, MANI_GRAPH_NONE, bytes, NULL);
        maniFixtureFreeGraph(&g);
    }
}
