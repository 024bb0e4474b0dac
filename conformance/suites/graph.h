/* Suite "graph": its parts, run in this order by mconf_SuiteGraph
 * (graph.c). A part only appends cases; the shared player below. */
#ifndef MAUL_CONFORMANCE_SUITES_GRAPH_H
#define MAUL_CONFORMANCE_SUITES_GRAPH_H

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/graph.h"
#include "maul/anim/mirror.h"

/* One update's parameter changes, drawn before the update; returns the
 * update's step (below 0 - 1 when a call failed). */
typedef float (*mconf_GraphTimelineFn)(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, void* user);

/* Plays a graph over its timeline and records its lines, named by label:
 * its shape, the chain every 40 updates, the state at 60, the restored
 * chain and whether it equals the chain run through (graph.c). machine: a
 * node whose InspectNode state and transition are hashed too, or
 * MANI_GRAPH_NONE; mirror: the graph's mirror map, or NULL. The timeline's
 * user pointer is a pose of the skeleton. */
void mconf_GraphPlay(mconf_Run* run, const char* label, maniFixtureGraph* fixture, const maniSkeleton* skel,
                     uint64_t seed, mconf_GraphTimelineFn timelineOf, uint32_t machine, mconf_Bytes* out,
                     const maniMirrorMap* mirror);

/* A machine graph's update changes (graph.c): each float one time in three
 * to [-0.25, 1.25], the bool one time in four flipped, each trigger one time
 * in five set; returns the step, drawn in [-0.05, 0.15]. */
float mconf_MachineTimeline(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, void* user);

/* Seeded blend space graphs (graph_spaces.c): cases graph-space-K-*. */
void mconf_GraphSpaces(mconf_Run* run, const maniSkeleton* skeleton, mconf_Bytes* bytes);

/* Seeded one-shot graphs (graph_oneshot.c): cases graph-oneshot-K-*. */
void mconf_GraphOneShots(mconf_Run* run, const maniSkeleton* skeleton, mconf_Bytes* bytes);

/* Seeded inertialize graphs (graph_inertialize.c): cases graph-inertialize-K-*. */
void mconf_GraphInertializes(mconf_Run* run, const maniSkeleton* skeleton, mconf_Bytes* bytes);

#endif
