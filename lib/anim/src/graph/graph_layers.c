/* The layering node kinds: masks (a second input over the first by bone
 * weights), additive layers (a difference added to a base by a weight),
 * selects (one input chosen by a parameter) and pose nodes (a pose
 * parameter's pose). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/core/container.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "maul/anim/blend.h"

/* -- Masks --------------------------------------------------------------------- */

/* The base takes the mask's weight and its root motion weight times
 * 1 - w at the root motion bone; the layer its weight times the largest
 * bone weight and its root motion weight times w at that bone (binary32). */
void mani_WeighMask(mani_GraphUpdateContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    const mani_GraphInputRt* inputs = &c->binding->inputs[n->firstInput];
    const float own = c->states[node].weight, root = c->flows[node].rootWeight;
    mani_GraphShare(c, inputs[0].node, own, root * (1.0f - n->maskRoot));
    const float layer = own * n->maskMost;
    if (layer > 0.0f) mani_GraphShare(c, inputs[1].node, layer, root * n->maskRoot);
}

/* maniSkeleton_BlendPoses (threshold 0) of the base by the complements
 * 1 - w and the layer by the bone weights w; the base as it is when the
 * layer has no weight. */
maniResult mani_EvaluateMask(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const mani_GraphInputRt* inputs = &b->inputs[n->firstInput];
    const uint32_t base = inputs[0].node, over = inputs[1].node;
    if (!(n->maskMost > 0.0f) || (c->states[over].flags & MANI_GRAPH_STATE_WEIGHED) == 0) {
        mani_GraphCopySlot(c, b->nodes[base].slot, n->slot);
        return mani_success;
    }
    maniBlendLayer* layers = (maniBlendLayer*)(void*)(c->scratch + b->scratchLayers);
    layers[0].pose = mani_GraphSlotPose(c, b->nodes[base].slot);
    layers[0].weight = 1.0f;
    layers[0].boneWeights = n->mask + b->boneCount;
    layers[1].pose = mani_GraphSlotPose(c, b->nodes[over].slot);
    layers[1].weight = 1.0f;
    layers[1].boneWeights = n->mask;
    return maniSkeleton_BlendPoses(b->skeleton, layers, 2, MANI_BLEND_THRESHOLD_MIN, mani_GraphSlotPose(c, n->slot));
}

/* -- Additive layers -------------------------------------------------------- */

/* Its weight: the float parameter held to [0, 1], or its constant. */
static float mani_AdditiveWeight(const maniGraphInstance* g, uint32_t node) {
    const mani_GraphNodeRt* n = &g->binding->nodes[node];
    if (n->index >= g->binding->parameterCount) return n->number;
    const float w = mani_GraphParameters(g)[n->index].number;
    return w > 1.0f ? 1.0f : (w > 0.0f ? w : 0.0f);
}

/* An additive's and a select's state block: one word, what its last update
 * read (the weight; the chosen input), so an evaluation layers or picks as
 * that update weighed even when the parameter was set since. */
size_t mani_OneWordStateSize(const maniGraphBinding* b, uint32_t node) {
    (void)b;
    (void)node;
    return 4u;
}

void mani_ResetOneWord(maniGraphInstance* g, uint32_t node) { memset(mani_GraphNodeBlock(g, node), 0, 4u); }

uint64_t mani_CheckRestoredAdditive(const maniGraphBinding* b, uint32_t node, const uint8_t* saved) {
    (void)b;
    (void)node;
    const float w = mcore_ReadF32(saved);
    return w >= 0.0f && w <= 1.0f ? UINT64_MAX : 0u;
}

uint64_t mani_CheckRestoredSelect(const maniGraphBinding* b, uint32_t node, const uint8_t* saved) {
    return mcore_ReadU32(saved) < b->nodes[node].inputCount ? UINT64_MAX : 0u;
}

/* The base takes the node's weight and root motion weight; the difference
 * its weight times the additive's (no root motion); keeps the weight. */
void mani_WeighAdditive(mani_GraphUpdateContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    const mani_GraphInputRt* inputs = &c->binding->inputs[n->firstInput];
    const float own = c->states[node].weight;
    float* kept = (float*)mani_GraphNodeBlock(c->instance, node);
    *kept = mani_AdditiveWeight(c->instance, node);
    mani_GraphShare(c, inputs[0].node, own, c->flows[node].rootWeight);
    const float layer = own * *kept;
    if (layer > 0.0f) mani_GraphShare(c, inputs[1].node, layer, 0.0f);
}

/* The base, then maniPose_AddLayers of the difference at the weight its
 * update kept. */
maniResult mani_EvaluateAdditive(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const mani_GraphInputRt* inputs = &b->inputs[n->firstInput];
    const uint32_t base = inputs[0].node, over = inputs[1].node;
    mani_GraphCopySlot(c, b->nodes[base].slot, n->slot);
    const float w = *(const float*)mani_GraphNodeBlock(c->instance, node);
    if (!(w > 0.0f) || (c->states[over].flags & MANI_GRAPH_STATE_WEIGHED) == 0) return mani_success;
    maniBlendLayer layer;
    layer.pose = mani_GraphSlotPose(c, b->nodes[over].slot);
    layer.weight = w;
    layer.boneWeights = NULL;
    return maniPose_AddLayers(mani_GraphSlotPose(c, n->slot), b->skeleton, &layer, 1);
}

/* -- Selects ------------------------------------------------------------------- */

/* A float held to [0, inputs - 1] and rounded to the nearest input (halves
 * up); a bool 0 or 1 (held to the last input). */
uint32_t mani_SelectChoice(const maniGraphInstance* g, uint32_t node) {
    const maniGraphBinding* b = g->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    if (n->index >= b->parameterCount || n->inputCount == 0) return 0;
    const maniGraphValue v = mani_GraphParameters(g)[n->index];
    const uint32_t last = n->inputCount - 1u;
    if (b->parameterTypes[n->index] == maniGraphParameterBool) return v.flag < last ? v.flag : last;
    const float x = v.number;
    if (!(x > 0.0f)) return 0;
    if (x >= (float)last) return last;
    const uint32_t k = (uint32_t)floor((double)x + 0.5); /* exact in binary64 */
    return k < last ? k : last;
}

/* Shares all to the chosen input; keeps the choice. */
void mani_WeighSelect(mani_GraphUpdateContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    uint32_t* kept = (uint32_t*)mani_GraphNodeBlock(c->instance, node);
    *kept = mani_SelectChoice(c->instance, node);
    const uint32_t in = c->binding->inputs[n->firstInput + *kept].node;
    mani_GraphShare(c, in, c->states[node].weight, c->flows[node].rootWeight);
}

/* The pose of the input its update chose (whatever the parameter is now;
 * the first weighed input or the rest only if a restored state's choice
 * was not weighed). */
maniResult mani_EvaluateSelect(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const mani_GraphInputRt* inputs = &b->inputs[n->firstInput];
    const uint32_t choice = *(const uint32_t*)mani_GraphNodeBlock(c->instance, node);
    uint32_t in = inputs[choice < n->inputCount ? choice : 0u].node;
    for (uint32_t i = 0; i < n->inputCount && (c->states[in].flags & MANI_GRAPH_STATE_WEIGHED) == 0; ++i)
        in = inputs[i].node;
    if ((c->states[in].flags & MANI_GRAPH_STATE_WEIGHED) == 0)
        return mani_GraphRestSlot(c, n->slot, (n->flags & MANI_GRAPH_NODE_DIFFERENCE) != 0);
    mani_GraphCopySlot(c, b->nodes[in].slot, n->slot);
    return mani_success;
}

/* -- Pose nodes -------------------------------------------------------------- */

/* The pose parameter's locals (the rest until one is set). */
maniResult mani_EvaluatePose(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    maniPose* out = mani_GraphSlotPose(c, n->slot);
    const uint32_t k = n->index < b->parameterCount ? b->poseIndex[n->index] : MANI_GRAPH_NO_POSE;
    if (k == MANI_GRAPH_NO_POSE) return maniPose_SetRest(out, b->skeleton);
    const maniTransform* locals = mani_GraphPoseLocals(mani_GraphPoseParameter(c->instance, k));
    if (c->bones == NULL) {
        for (uint32_t bone = 0; bone < b->boneCount; ++bone) mani_PoseSetLocalRaw(out, bone, locals[bone]);
    } else {
        for (uint32_t i = 0; i < c->boneCount; ++i) mani_PoseSetLocalRaw(out, c->bones[i], locals[c->bones[i]]);
    }
    out->flags &= ~(MANI_POSE_MODEL_CURRENT | MANI_POSE_DIFFERENCE);
    return mani_success;
}
