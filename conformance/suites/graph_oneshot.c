/* Suite "graph", its one-shot part: three seeded graphs of a one-shot (the
 * output) whose triggers fire, fade out and abort at seeded updates:
 * graph-oneshot-0 a clip shot over a normalized blend of two clips (w0, w1),
 * unmasked; -1 a clip shot over maniFixtureMakeMachineGraph's machine, its
 * mask of two seeded chains over a seeded default; -2 a normalized blend
 * (w0, w1) of two clips as the shot over a clip, masked. Clips as
 * maniFixtureAddGraphClip's (seeded loops, events, tracks, root motion),
 * the shots' speeds in [0.5, 2]; curves, fadeIn and fadeOut ([0, 0.4] s)
 * seeded. The parameters: the graph's own, then fire, out and abort
 * (triggers), the last three. Each graph's one-shot words
 * (graph-oneshot-K-words), then played and recorded as the other graphs
 * (mconf_GraphPlay, the one-shot's phase hashed each update). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/suites/graph.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/container.h"
#include "maul/anim/graphbuild.h"

#define MCONF_ONESHOT_GRAPHS 3u
/* A machine graph's parameters (maniFixtureMakeMachineGraph's five) and the
 * one-shot's three. */
#define MCONF_ONESHOT_MACHINE_PARAMETERS 8u

/* An update's changes, drawn in parameter order before it: the graph's
 * floats one time in three to [-0.25, 1.25] (a machine graph's bool one
 * time in four flipped, its triggers one time in five set, as the machine
 * graphs'), then fire one time in ten, out one time in twenty-five and
 * abort one time in forty set. */
static float mconf_OneShotTimeline(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, void* user) {
    (void)user;
    const int machine = parameters == MCONF_ONESHOT_MACHINE_PARAMETERS;
    for (uint32_t p = 0; p < parameters; ++p) {
        maniGraphValue v;
        memset(&v, 0, sizeof v);
        maniGraphParameterType type = maniGraphParameterTrigger;
        int set = 0;
        v.flag = 1;
        if (p + 3u >= parameters) {
            const uint32_t odds[3] = {10, 25, 40};
            set = mcore_RngBelow(rng, odds[p + 3u - parameters]) == 0;
        } else if (!machine || p < 2) {
            type = maniGraphParameterFloat;
            set = mcore_RngBelow(rng, 3) == 0;
            v.number = mcore_RngFloatRange(rng, -0.25f, 1.25f);
        } else if (p == 2) {
            type = maniGraphParameterBool;
            set = mcore_RngBelow(rng, 4) == 0;
            maniGraphValue old;
            if (maniGraphInstance_GetParameter(instance, p, &old) != mani_success) return -1.0f;
            v.flag = old.flag ^ 1u;
        } else {
            set = mcore_RngBelow(rng, 5) == 0;
        }
        if (set && maniGraphInstance_SetParameter(instance, p, type, v) != mani_success) return -1.0f;
    }
    return mcore_RngFloatRange(rng, -0.05f, 0.15f);
}

static void mconf_OneShotParameter(maniFixtureGraph* g, uint32_t p, const char* name, maniGraphParameterType type,
                                   float value) {
    snprintf(g->names[p], 8, "%s", name);
    g->parameters[p].name = g->names[p];
    g->parameters[p].nameLength = strlen(g->names[p]);
    g->parameters[p].type = type;
    g->parameters[p].value.number = type == maniGraphParameterFloat ? value : 0.0f;
}

static void mconf_OneShotClipNode(maniGraphNodeSource* n, uint32_t clip, float speed) {
    memset(n, 0, sizeof *n);
    n->kind = maniGraphNodeClip;
    n->clip = clip;
    n->speed = speed;
}

/* A normalized blend of two nodes by parameters 0 and 1 at node place at. */
static void mconf_OneShotBlend(maniFixtureGraph* g, uint32_t at, uint32_t a, uint32_t b) {
    maniGraphNodeSource* n = &g->nodes[at];
    memset(n, 0, sizeof *n);
    n->kind = maniGraphNodeBlend;
    g->inputs[at][0] = a;
    g->inputs[at][1] = b;
    g->weights[at][0] = 0;
    g->weights[at][1] = 1;
    n->inputs = g->inputs[at];
    n->parameters = g->weights[at];
    n->inputCount = 2;
}

/* Makes one-shot graph k; returns 1, or 0 when a build or open fails
 * (everything freed). */
static int mconf_MakeOneShotGraph(maniFixtureGraph* g, uint32_t k, const maniSkeleton* skeleton) {
    const uint64_t seed = 0x4F530000u + k;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    uint32_t parameters = 0, base = 0, shot = 0, nodes = 0;
    if (k == 1) {
        if (!maniFixtureMakeMachineGraph(g, seed, skeleton)) return 0;
        free(g->file);
        g->file = NULL;
        parameters = g->source.parameterCount;
        base = g->source.nodeCount - 1;
        nodes = g->source.nodeCount;
        shot = nodes++;
        mconf_OneShotClipNode(&g->nodes[shot], g->clipCount - 1, mcore_RngFloatRange(&rng, 0.5f, 2.0f));
    } else {
        memset(g, 0, sizeof *g);
        g->clipCount = 3;
        for (uint32_t c = 0; c < 3; ++c) {
            if (!maniFixtureAddGraphClip(g, c, &rng, skeleton)) {
                maniFixtureFreeGraph(g);
                return 0;
            }
        }
        mconf_OneShotParameter(g, 0, "w0", maniGraphParameterFloat, mcore_RngFloat01(&rng));
        mconf_OneShotParameter(g, 1, "w1", maniGraphParameterFloat, mcore_RngFloat01(&rng));
        parameters = 2;
        for (uint32_t c = 0; c < 3; ++c)
            mconf_OneShotClipNode(&g->nodes[c], c, c == 2 || k == 2 ? mcore_RngFloatRange(&rng, 0.5f, 2.0f)
                                                                    : mcore_RngFloatRange(&rng, -1.5f, 2.0f));
        mconf_OneShotBlend(g, 3, k == 0 ? 0u : 1u, k == 0 ? 1u : 2u);
        base = k == 0 ? 3u : 0u;
        shot = k == 0 ? 2u : 3u;
        nodes = 4;
    }
    mconf_OneShotParameter(g, parameters, "fire", maniGraphParameterTrigger, 0.0f);
    mconf_OneShotParameter(g, parameters + 1, "out", maniGraphParameterTrigger, 0.0f);
    mconf_OneShotParameter(g, parameters + 2, "abort", maniGraphParameterTrigger, 0.0f);
    const uint32_t at = nodes++;
    maniGraphNodeSource* o = &g->nodes[at];
    memset(o, 0, sizeof *o);
    o->kind = maniGraphNodeOneShot;
    g->inputs[at][0] = base;
    g->inputs[at][1] = shot;
    o->inputs = g->inputs[at];
    o->inputCount = 2;
    o->parameter = parameters;
    o->fadeOutTrigger = parameters + 1;
    o->abortTrigger = parameters + 2;
    o->curve = (maniGraphFadeCurve)mcore_RngBelow(&rng, MANI_GRAPH_FADE_CURVE_COUNT);
    o->fadeIn = mcore_RngBelow(&rng, 4) == 0 ? 0.0f : mcore_RngFloatRange(&rng, 0.0f, 0.4f);
    o->fadeOut = mcore_RngBelow(&rng, 4) == 0 ? 0.0f : mcore_RngFloatRange(&rng, 0.0f, 0.4f);
    if (k != 0) {
        const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
        o->masked = true;
        o->defaultWeight = mcore_RngFloat01(&rng);
        for (uint32_t c = 0; c < 2; ++c) {
            g->chains[c].bone = mcore_RngBelow(&rng, bones);
            g->chains[c].weight = mcore_RngFloat01(&rng);
            g->chains[c].subtree = mcore_RngBelow(&rng, 2) == 0;
        }
        o->chains = g->chains;
        o->chainCount = 2;
    }
    g->source.skeleton = skeleton;
    g->source.parameters = g->parameters;
    g->source.parameterCount = parameters + 3;
    g->source.clips = g->clipSources;
    g->source.clipCount = g->clipCount;
    g->source.nodes = g->nodes;
    g->source.nodeCount = nodes;
    g->source.output = at;

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
    if (!ok) maniFixtureFreeGraph(g);
    return ok;
}

void mconf_GraphOneShots(mconf_Run* run, const maniSkeleton* skeleton, mconf_Bytes* bytes) {
    char name[96];
    for (uint32_t k = 0; k < MCONF_ONESHOT_GRAPHS; ++k) {
        maniFixtureGraph g;
        if (!mconf_MakeOneShotGraph(&g, k, skeleton)) {
            snprintf(name, sizeof name, "graph-oneshot-%u-build-failed", k);
            mconf_Record(run, name, 0);
            continue;
        }
        /* The one-shot's node data words (triggers, curve, fades, mask). */
        const uint8_t* directory = g.graph.bytes + g.graph.nodeData;
        const uint8_t* entry = directory + 8u * (g.graph.nodeCount - 1u);
        mconf_BytesAdd(bytes, directory + 8u * (size_t)g.graph.nodeCount + 4u * (size_t)mcore_ReadU32(entry),
                       4u * (size_t)mcore_ReadU32(entry + 4));
        snprintf(name, sizeof name, "graph-oneshot-%u-words", k);
        mconf_RecordBytes(run, name, bytes);
        snprintf(name, sizeof name, "graph-oneshot-%u", k);
        mconf_GraphPlay(run, name, &g, skeleton, 0x4F530000u + k, mconf_OneShotTimeline, g.graph.nodeCount - 1, bytes,
                        NULL);
        maniFixtureFreeGraph(&g);
    }
}
