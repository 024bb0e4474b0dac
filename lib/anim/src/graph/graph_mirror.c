/* Mirror nodes: their input's pose mirrored through the graph's mirror map
 * (maniMirrorMap_MirrorPose). The clips under an odd count of them give
 * their root motion mirrored and their events' names' partners
 * (graph_kinds.c); a subset plan holds each planned bone's partner
 * (graph_subset.c), the only bone a mirrored local reads. */
#include <string.h>

#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "maul/anim/mirror.h"

/* A pose mirrored into the node's slot; a difference mirrored as its
 * locals are (the map's corrections applied as to a pose's), staying a
 * difference. */
maniResult mani_EvaluateMirror(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const uint32_t from = b->nodes[b->inputs[n->firstInput].node].slot;
    const maniPose* in = mani_GraphSlotPose(c, from);
    maniPose* out = mani_GraphSlotPose(c, n->slot);
    if ((in->flags & MANI_POSE_DIFFERENCE) == 0) {
        out->flags &= ~MANI_POSE_DIFFERENCE;
        return maniMirrorMap_MirrorPose(b->mirrorMap, b->skeleton, in, out);
    }
    mani_GraphCopySlot(c, from, n->slot);
    out->flags &= ~MANI_POSE_DIFFERENCE;
    const maniResult r = maniMirrorMap_MirrorPose(b->mirrorMap, b->skeleton, out, out);
    out->flags |= MANI_POSE_DIFFERENCE;
    return r;
}
