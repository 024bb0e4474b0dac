/* graph.h: maniGraphInstance_Update (weights down from the output, then
 * every node's step through time in node order, then the root motion
 * blend) and maniGraphInstance_Evaluate (each weighed node into its slot in
 * node order, the output's pose copied out). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "maul/anim/blend.h"

maniResult maniGraphInstance_Update(maniGraphInstance* instance, float delta, maniGraphEvent* eventsOut,
                                    uint32_t capacity, uint32_t* eventCountOut, maniRootMove* rootMotionOut) {
    if (!mani_GraphInstanceOk(instance) || (eventsOut == NULL && capacity != 0) || !isfinite(delta))
        return mani_errorInvalid;
    const maniGraphBinding* b = instance->binding;
    mani_GraphUpdateContext c;
    memset(&c, 0, sizeof c);
    c.instance = instance;
    c.binding = b;
    c.states = mani_GraphStates(instance);
    c.delta = delta;
    c.events = eventsOut;
    c.capacity = capacity;
    c.moves = (maniRootMove*)(void*)((uint8_t*)instance + b->instanceMoves);
    c.moveWeights = (float*)(void*)((uint8_t*)instance + b->instanceMoveWeights);
    c.flows = mani_GraphFlows(instance);

    /* Weights: the output 1, each weighed node's shared to its inputs from
     * the last node down (a node's readers all come after it). */
    for (uint32_t n = 0; n < b->nodeCount; ++n) {
        c.states[n].weight = 0.0f;
        c.states[n].flags = 0;
        c.flows[n].rootWeight = 0.0f;
        c.flows[n].factor = 1.0f;
        c.flows[n].seekTime = 0.0f;
        /* A seek's trigger as the update found it (a machine may clear a
         * trigger it shares while weighing). */
        c.flows[n].flags = b->nodes[n].kind == maniGraphNodeSeek && mani_SeekFires(instance, n) ? MANI_GRAPH_FLOW_FIRES : 0u;
    }
    c.states[b->nodeCount - 1].weight = 1.0f;
    c.states[b->nodeCount - 1].flags = MANI_GRAPH_STATE_WEIGHED;
    c.flows[b->nodeCount - 1].rootWeight = 1.0f;
    c.flows[b->nodeCount - 1].flags |= MANI_GRAPH_FLOW_HANDED;
    for (uint32_t n = b->nodeCount; n-- > 0;) {
        const mani_GraphKindRt* kind = &mani_graphKinds[b->nodes[n].kind];
        /* A node a reader restarted: its playhead at 0, its state afresh,
         * and everything beneath restarted too (weighed or not). */
        if ((c.states[n].flags & MANI_GRAPH_STATE_RESTART) != 0) {
            const mani_GraphNodeRt* node = &b->nodes[n];
            c.states[n].flags &= ~MANI_GRAPH_STATE_RESTART;
            c.states[n].playhead = 0.0f;
            if (kind->reset != NULL && node->stateSize != 0) kind->reset(instance, n);
            for (uint32_t i = 0; i < node->inputCount; ++i)
                c.states[b->inputs[node->firstInput + i].node].flags |= MANI_GRAPH_STATE_RESTART;
        }
        /* Time handed down, weighed or not: the product of the time scales
         * above, a fired seek's time (the nearest seek's); a node read by
         * several takes its last reader's. */
        const mani_GraphNodeRt* node = &b->nodes[n];
        if (node->inputCount != 0) {
            mani_GraphNodeFlow down = c.flows[n];
            if (node->kind == maniGraphNodeTimeScale) down.factor = down.factor * mani_TimeScaleFactor(instance, n);
            if ((down.flags & MANI_GRAPH_FLOW_FIRES) != 0) {
                down.flags |= MANI_GRAPH_FLOW_SEEK;
                down.seekTime = node->number;
            }
            for (uint32_t i = 0; i < node->inputCount; ++i) {
                mani_GraphNodeFlow* in = &c.flows[b->inputs[node->firstInput + i].node];
                if ((in->flags & MANI_GRAPH_FLOW_HANDED) != 0) continue;
                in->factor = down.factor;
                in->seekTime = down.seekTime;
                in->flags |= MANI_GRAPH_FLOW_HANDED | (down.flags & MANI_GRAPH_FLOW_SEEK);
            }
        }
        if ((c.states[n].flags & MANI_GRAPH_STATE_WEIGHED) != 0 && kind->weigh != NULL) kind->weigh(&c, n);
    }
    /* Time, in node order. */
    for (uint32_t n = 0; n < b->nodeCount; ++n) {
        const mani_GraphAdvanceFn advance = mani_graphKinds[b->nodes[n].kind].advance;
        if (advance != NULL) advance(&c, n);
    }
    /* The seeks' triggers consumed once every node read them (one trigger
     * read by two seeks moves both). */
    maniGraphValue* values = mani_GraphParameters(instance);
    for (uint32_t n = 0; n < b->nodeCount; ++n)
        if (b->nodes[n].kind == maniGraphNodeSeek && b->nodes[n].index < b->parameterCount)
            values[b->nodes[n].index].flag = 0;
    instance->updated = 1;
    if (eventCountOut != NULL) *eventCountOut = c.eventCount;
    if (rootMotionOut != NULL) {
        maniRootMove move = maniMakeRootMoveIdentity();
        if (c.moveCount != 0 && maniBlendRootMotion(c.moves, c.moveWeights, c.moveCount, &move) != mani_success) {
            move = maniMakeRootMoveIdentity();
            c.failed = 1;
        }
        *rootMotionOut = move;
    }
    return c.failed ? mani_errorFormat : mani_success;
}

/* Whether the scratch holds the binding's slot poses; makes them when not. */
static maniResult mani_PrepareGraphScratch(const maniGraphBinding* b, uint8_t* scratch) {
    mani_GraphScratchHeader* h = (mani_GraphScratchHeader*)(void*)scratch;
    if (h->magic == MANI_GRAPH_SCRATCH_MAGIC && h->binding == b) {
        int ok = 1;
        for (uint32_t s = 0; s < b->slotCount && ok; ++s) {
            const maniPose* p = (const maniPose*)(const void*)(scratch + b->scratchPoses + b->poseSize * s);
            ok = mani_PoseOk(p) && p->boneCount == b->boneCount &&
                 p->skeletonIdentity == maniSkeleton_GetIdentity(b->skeleton);
        }
        if (ok) return mani_success;
    }
    h->magic = 0;
    for (uint32_t s = 0; s < b->slotCount; ++s) {
        maniPose* p = NULL;
        const maniResult r = maniInitPose(b->skeleton, scratch + b->scratchPoses + b->poseSize * s, b->poseSize, &p);
        if (r != mani_success) return r;
    }
    h->magic = MANI_GRAPH_SCRATCH_MAGIC;
    h->reserved = 0;
    h->binding = b;
    return mani_success;
}

static int mani_GraphPoseOfBinding(const maniGraphBinding* b, const maniPose* pose) {
    return pose != NULL && mani_PoseOk(pose) && pose->boneCount == b->boneCount &&
           pose->skeletonIdentity == maniSkeleton_GetIdentity(b->skeleton);
}

/* Evaluates the weighed nodes into the scratch's slots (bones NULL: all). */
static maniResult mani_EvaluateGraphNodes(maniGraphInstance* instance, uint8_t* scratch, const uint32_t* bones,
                                          uint32_t boneCount) {
    const maniGraphBinding* b = instance->binding;
    const maniResult prepared = mani_PrepareGraphScratch(b, scratch);
    if (prepared != mani_success) return prepared;
    mani_GraphEvalContext c;
    c.instance = instance;
    c.binding = b;
    c.states = mani_GraphStates(instance);
    c.scratch = scratch;
    c.bones = bones;
    c.boneCount = boneCount;
    for (uint32_t n = 0; n < b->nodeCount; ++n) {
        if ((c.states[n].flags & MANI_GRAPH_STATE_WEIGHED) == 0) continue;
        const maniResult r = mani_graphKinds[b->nodes[n].kind].evaluate(&c, n);
        if (r != mani_success) return r;
    }
    return mani_success;
}

maniResult maniGraphInstance_Evaluate(maniGraphInstance* instance, void* scratch, size_t size, maniPose* poseOut) {
    if (!mani_GraphInstanceOk(instance) || scratch == NULL || !mani_GraphAligned(scratch))
        return mani_errorInvalid;
    const maniGraphBinding* b = instance->binding;
    if (!mani_GraphPoseOfBinding(b, poseOut)) return mani_errorInvalid;
    if (size < b->scratchSize) return mani_errorCapacity;
    if (!instance->updated) return maniPose_SetRest(poseOut, b->skeleton);
    const maniResult r = mani_EvaluateGraphNodes(instance, (uint8_t*)scratch, NULL, 0);
    if (r != mani_success) return r;
    const maniPose* out = (const maniPose*)(const void*)((uint8_t*)scratch + b->scratchPoses +
                                                         b->poseSize * b->nodes[b->nodeCount - 1].slot);
    memcpy(poseOut, out, maniSkeleton_GetPoseSize(b->skeleton));
    poseOut->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

maniResult maniGraphInstance_EvaluateSubset(maniGraphInstance* instance, const maniGraphSubset* plan, void* scratch,
                                            size_t size, maniPose* pose) {
    if (!mani_GraphInstanceOk(instance) || plan == NULL || !mani_GraphAligned(plan) ||
        plan->magic != MANI_GRAPH_SUBSET_MAGIC || plan->binding != instance->binding || scratch == NULL ||
        !mani_GraphAligned(scratch))
        return mani_errorInvalid;
    const maniGraphBinding* b = instance->binding;
    if (!mani_GraphPoseOfBinding(b, pose)) return mani_errorInvalid;
    if (size < b->scratchSize) return mani_errorCapacity;
    uint32_t count = 0;
    const uint32_t* bones = maniGraphSubset_GetBones(plan, &count);
    if (!instance->updated) {
        for (uint32_t i = 0; i < count; ++i) mani_PoseSetLocalRaw(pose, bones[i], maniSkeleton_GetRest(b->skeleton, bones[i]));
        pose->flags &= ~(MANI_POSE_MODEL_CURRENT | MANI_POSE_DIFFERENCE);
        return mani_success;
    }
    const maniResult r = mani_EvaluateGraphNodes(instance, (uint8_t*)scratch, bones, count);
    if (r != mani_success) return r;
    const maniPose* out = (const maniPose*)(const void*)((uint8_t*)scratch + b->scratchPoses +
                                                         b->poseSize * b->nodes[b->nodeCount - 1].slot);
    for (uint32_t i = 0; i < count; ++i) mani_PoseSetLocalRaw(pose, bones[i], mani_PoseGetLocalRaw(out, bones[i]));
    pose->flags = (pose->flags & ~(MANI_POSE_MODEL_CURRENT | MANI_POSE_DIFFERENCE)) |
                  (out->flags & MANI_POSE_DIFFERENCE);
    return mani_success;
}
