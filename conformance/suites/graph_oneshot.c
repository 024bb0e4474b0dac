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
#include "lib/anim/test/fixtures/graph_fixtures.h"
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

void mconf_GraphOneShots(mconf_Run* run, const maniSkeleton* skeleton, mconf_Bytes* bytes) {
    char name[96];
    for (uint32_t k = 0; k < MCONF_ONESHOT_GRAPHS; ++k) {
        maniFixtureGraph g;
        if (!maniFixtureMakeOneShotGraph(&g, k, skeleton)) {
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
