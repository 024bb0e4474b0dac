/* The kinds that pass their input on: time scales (their input's time
 * moving by a factor) and seeks (their input's playheads moved to a time
 * by a trigger). What they do to time is handed down by the update
 * (graph_update.c: mani_GraphNodeFlow); here, their weight and pose. */
#include <string.h>

#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "maul/anim/graphbuild.h"

float mani_TimeScaleFactor(const maniGraphInstance* g, uint32_t node) {
    const mani_GraphNodeRt* n = &g->binding->nodes[node];
    if (n->index >= g->binding->parameterCount) return n->number;
    const float f = mani_GraphParameters(g)[n->index].number;
    return f > MANI_MAX_GRAPH_TIME_FACTOR ? MANI_MAX_GRAPH_TIME_FACTOR
                                          : (f < -MANI_MAX_GRAPH_TIME_FACTOR ? -MANI_MAX_GRAPH_TIME_FACTOR : f);
}

int mani_SeekFires(const maniGraphInstance* g, uint32_t node) {
    const mani_GraphNodeRt* n = &g->binding->nodes[node];
    return n->index < g->binding->parameterCount && mani_GraphParameters(g)[n->index].flag != 0;
}

/* The input takes the node's weight and root motion weight. */
void mani_WeighPass(mani_GraphUpdateContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    mani_GraphShare(c, c->binding->inputs[n->firstInput].node, c->states[node].weight, c->flows[node].rootWeight);
}

/* The input's pose as it is. */
maniResult mani_EvaluatePass(const mani_GraphEvalContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    mani_GraphCopySlot(c, c->binding->nodes[c->binding->inputs[n->firstInput].node].slot, n->slot);
    return mani_success;
}
