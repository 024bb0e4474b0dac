/* Suite "graph", its inertialize part: four seeded graphs whose output is
 * an inertialize node (maniFixtureMakeInertializeGraph): graph-inertialize-0
 * and -1 over a select of two clips by the bool which, -2 and -3 over a
 * state machine; even ones Bollo's inertialization, odd ones Holden's dead
 * blending. Each graph's node data words (graph-inertialize-K-words), then
 * played and recorded as the other graphs (mconf_GraphPlay; for the machine
 * graphs the machine's state and transition hashed each update). The
 * fire trigger mostly goes with a change of what is beneath (the select
 * flipped, a machine's parameters moved), as a game fires it; sometimes
 * alone, and again while a blend is under way. */
#include <stdio.h>
#include <string.h>

#include "conformance/suites/graph.h"
#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/core/container.h"

#define MCONF_INERTIALIZE_GRAPHS 4u

/* An update's changes, drawn in parameter order before it. Over a select:
 * which flipped one time in six, then fire set three times in four after a
 * flip, else one time in twenty. Over a machine: the machine's parameters
 * as mconf_MachineTimeline draws them, then fire one time in six. */
static float mconf_InertializeTimeline(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters,
                                       void* user) {
    const uint32_t fire = parameters - 1u;
    uint32_t odds = 6;
    float step;
    if (parameters == 2u) {
        maniGraphValue v;
        if (maniGraphInstance_GetParameter(instance, 0, &v) != mani_success) return -1.0f;
        v.flag ^= 1u;
        const int flip = mcore_RngBelow(rng, 6) == 0;
        if (flip && maniGraphInstance_SetParameter(instance, 0, maniGraphParameterBool, v) != mani_success)
            return -1.0f;
        odds = flip ? 0u : 20u;
        step = mcore_RngFloatRange(rng, -0.05f, 0.15f);
    } else {
        step = mconf_MachineTimeline(rng, instance, fire, user);
        if (step < -0.5f) return step;
    }
    const int set = odds == 0u ? mcore_RngBelow(rng, 4) != 0 : mcore_RngBelow(rng, odds) == 0;
    maniGraphValue t;
    memset(&t, 0, sizeof t);
    t.flag = 1;
    if (set && maniGraphInstance_SetParameter(instance, fire, maniGraphParameterTrigger, t) != mani_success)
        return -1.0f;
    return step;
}

void mconf_GraphInertializes(mconf_Run* run, const maniSkeleton* skeleton, mconf_Bytes* bytes) {
    char name[96];
    for (uint32_t k = 0; k < MCONF_INERTIALIZE_GRAPHS; ++k) {
        maniFixtureGraph g;
        if (!maniFixtureMakeInertializeGraph(&g, k, skeleton)) {
            snprintf(name, sizeof name, "graph-inertialize-%u-build-failed", k);
            mconf_Record(run, name, 0);
            continue;
        }
        /* The inertialize's node data words (method, duration, half-lives). */
        const uint8_t* directory = g.graph.bytes + g.graph.nodeData;
        const uint8_t* entry = directory + 8u * (g.graph.nodeCount - 1u);
        mconf_BytesAdd(bytes, directory + 8u * (size_t)g.graph.nodeCount + 4u * (size_t)mcore_ReadU32(entry),
                       4u * (size_t)mcore_ReadU32(entry + 4));
        snprintf(name, sizeof name, "graph-inertialize-%u-words", k);
        mconf_RecordBytes(run, name, bytes);
        snprintf(name, sizeof name, "graph-inertialize-%u", k);
        mconf_GraphPlay(run, name, &g, skeleton, 0x49450000u + k, mconf_InertializeTimeline,
                        k >= 2u ? g.graph.nodeCount - 2u : MANI_GRAPH_NONE, bytes, NULL);
        maniFixtureFreeGraph(&g);
    }
}
