/* The node kinds the graph runtime plays, one function per kind and step
 * (weighing, moving through time, evaluating), in mani_graphKinds. A kind
 * without an evaluate function is refused by maniBindGraph. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_format.h"
#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "maul/anim/blend.h"
#include "maul/anim/mirror.h"
#include "maul/anim/retarget.h"

/* -- Clip nodes -------------------------------------------------------------- */

/* Lists the events of a clip between two times (maniClip_GetEventRange's
 * rule), forward in index order and backward in reverse. */
static void mani_ListClipEvents(mani_GraphUpdateContext* c, uint32_t node, float from, float to) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    const maniClip* clip = c->binding->clips[n->clip];
    uint32_t first = 0, count = 0;
    maniClip_GetEventRange(clip, from, to, &first, &count);
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t index = from < to ? first + i : first + count - 1u - i;
        if (c->eventCount < c->capacity) {
            const maniClipEvent e = maniClip_GetEvent(clip, index);
            maniGraphEvent* out = &c->events[c->eventCount];
            memset(out, 0, sizeof *out);
            out->node = node;
            out->clip = n->clip;
            out->event = index;
            out->time = e.time;
            out->weight = c->states[node].weight;
            out->name = e.name;
            out->nameLength = e.nameLength;
            /* Under an odd count of mirror nodes: the name's partner. */
            if ((n->flags & MANI_GRAPH_NODE_MIRRORED) != 0 && c->binding->mirrorMap != NULL)
                out->name = maniMirrorMap_MirrorName(c->binding->mirrorMap, e.name, e.nameLength, &out->nameLength);
        }
        if (c->eventCount != UINT32_MAX) c->eventCount++;
    }
}

/* A time a seek moves a clip's playhead to: wrapped into [0, duration)
 * for a repeating clip (binary64, rounded once), held to its duration for
 * a clamped one; 0 for a clip of no duration. */
static float mani_SeekPlayhead(const mani_GraphNodeRt* n, float time) {
    const float d = n->duration;
    if (!(d > 0.0f)) return 0.0f;
    if (n->loop == maniLoopRepeat) {
        const double dd = d;
        double t = time;
        if (t >= dd || t < 0.0) t = t - floor(t / dd) * dd;
        if (t < 0.0) t = 0.0;
        float to = (float)t;
        return to >= d ? 0.0f : to;
    }
    return time > d ? d : (time < 0.0f ? 0.0f : time);
}

/* Moves a clip node's playhead by delta * the time scales above it * speed
 * (or, under a seek that fired, to the seek's time: no events, no root
 * motion), lists the events it passes when weighed past the threshold and
 * keeps its root motion when its root motion weight is above 0 (mirrored
 * under an odd count of mirror nodes). */
static void mani_AdvanceClip(mani_GraphUpdateContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    mani_GraphNodeState* s = &c->states[node];
    const mani_GraphNodeFlow* flow = &c->flows[node];
    const maniClip* clip = c->binding->clips[n->clip];
    if ((flow->flags & MANI_GRAPH_FLOW_SEEK) != 0) {
        s->playhead = mani_SeekPlayhead(n, flow->seekTime);
        return;
    }
    const float step = (c->delta * flow->factor) * n->speed;
    const float from = s->playhead, d = n->duration;
    if (!isfinite(step)) {
        s->flags |= MANI_GRAPH_STATE_FAILED;
        c->failed = 1;
        return;
    }
    float to = from;
    int wrapped = 0, whole = 0;
    if (d > 0.0f) {
        if (n->loop == maniLoopRepeat) {
            const double dd = d;
            double t = (double)from + (double)step;
            whole = fabs((double)step) >= dd;
            if (t >= dd || t < 0.0) {
                wrapped = 1;
                t = t - floor(t / dd) * dd;
                if (t < 0.0) t = 0.0;
            }
            to = (float)t;
            if (to >= d) to = 0.0f;
        } else {
            const float t = from + step;
            to = t > d ? d : (t < 0.0f ? 0.0f : t);
        }
    }
    maniRootMove move = maniMakeRootMoveIdentity();
    int moveOk = 1;
    const float rootWeight = flow->rootWeight;
    if (n->rootMotion && rootWeight > 0.0f) {
        moveOk = maniClip_GetRootMotion(clip, from, step, &move) == mani_success;
        /* A mapped clip's move scaled for the graph's skeleton. */
        if (moveOk && n->map != MANI_NO_TRACK)
            move.translation = maniRetargetMap_RetargetRootMotion(c->binding->maps[n->map], move.translation);
        moveOk = moveOk && isfinite(move.translation.x) &&
                 isfinite(move.translation.y) && isfinite(move.translation.z) && isfinite(move.rotation.x) &&
                 isfinite(move.rotation.y) && isfinite(move.rotation.z) && isfinite(move.rotation.w);
        if (!moveOk) {
            s->flags |= MANI_GRAPH_STATE_FAILED;
            c->failed = 1;
        }
    }
    s->playhead = to;
    if (!moveOk) return;
    if (n->rootMotion && rootWeight > 0.0f) {
        if ((n->flags & MANI_GRAPH_NODE_MIRRORED) != 0) move = maniMirrorMap_MirrorRootMotion(c->binding->mirrorMap, move);
        c->moves[c->moveCount] = move;
        c->moveWeights[c->moveCount] = rootWeight;
        c->moveCount++;
    }
    if (!(s->weight > MANI_GRAPH_EVENT_THRESHOLD) || step == 0.0f || !(d > 0.0f)) return;
    if (whole) {
        mani_ListClipEvents(c, node, -INFINITY, INFINITY);
    } else if (n->loop == maniLoopRepeat && wrapped) {
        if (step > 0.0f) {
            mani_ListClipEvents(c, node, from, INFINITY);
            mani_ListClipEvents(c, node, -INFINITY, to);
        } else {
            mani_ListClipEvents(c, node, from, -INFINITY);
            mani_ListClipEvents(c, node, INFINITY, to);
        }
    } else if (n->loop != maniLoopRepeat && step > 0.0f && to == d) {
        if (from < d) mani_ListClipEvents(c, node, from, INFINITY);
    } else if (n->loop != maniLoopRepeat && step < 0.0f && to == 0.0f) {
        if (from > 0.0f) mani_ListClipEvents(c, node, from, -INFINITY);
    } else {
        mani_ListClipEvents(c, node, from, to);
    }
}

/* A mapped clip node's pose: its clip sampled whole (through the cursor) in
 * a pose of the map's source skeleton, carried through the map into the
 * slot. Subsets take it whole too: the transfer reads the source's root
 * paths. */
static maniResult mani_EvaluateMappedClip(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const maniSkeleton* from = b->sourceSkeletons[n->map];
    maniPose* source = (maniPose*)(void*)(c->scratch + b->scratchSource);
    if (!mani_PoseOk(source) || source->skeletonIdentity != maniSkeleton_GetIdentity(from) ||
        source->boneCount != maniSkeleton_GetBoneCount(from)) {
        maniPose* made = NULL;
        const maniResult r = maniInitPose(from, source, b->sourcePoseSize, &made);
        if (r != mani_success) return r;
    }
    maniClipCursor* cursor = (maniClipCursor*)(void*)((uint8_t*)c->instance + n->state);
    maniResult r = maniClipCursor_Sample(cursor, b->clips[n->clip], from, c->states[node].playhead, source);
    if (r != mani_success) return r;
    maniPose* pose = mani_GraphSlotPose(c, n->slot);
    if (maniPose_IsDifference(pose) && (r = maniPose_SetRest(pose, b->skeleton)) != mani_success) return r;
    return maniRetargetMap_RetargetPose(b->maps[n->map], from, source, b->skeleton, pose, c->scratch + b->scratchTurns,
                                        b->scratchTurnsSize);
}

static maniResult mani_EvaluateClip(const mani_GraphEvalContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    if (n->map != MANI_NO_TRACK) return mani_EvaluateMappedClip(c, node);
    const maniClip* clip = c->binding->clips[n->clip];
    maniPose* pose = mani_GraphSlotPose(c, n->slot);
    const float t = c->states[node].playhead;
    if (c->bones == NULL) {
        maniClipCursor* cursor = (maniClipCursor*)(void*)((uint8_t*)c->instance + n->state);
        return maniClipCursor_Sample(cursor, clip, c->binding->skeleton, t, pose);
    }
    /* A subset samples its bones into a slot of the clip's kind. */
    const int difference = maniClip_GetAdditiveBasis(clip) != maniAdditiveNone;
    if (maniPose_IsDifference(pose) != difference) {
        const maniResult r = difference ? maniSkeleton_ComputePoseDifference(c->binding->skeleton, pose, pose, pose)
                                        : maniPose_SetRest(pose, c->binding->skeleton);
        if (r != mani_success) return r;
    }
    return maniClip_SampleBones(clip, c->binding->skeleton, t, c->bones, c->boneCount, pose);
}

/* A clip node's state block: its clip's cursor, a cache a restore starts
 * over. */
static size_t mani_ClipStateSize(const maniGraphBinding* b, uint32_t node) {
    return mani_GraphRound(maniClip_GetCursorSize(b->clips[b->nodes[node].clip]));
}

static void mani_ResetClip(maniGraphInstance* g, uint32_t node) {
    const mani_GraphNodeRt* n = &g->binding->nodes[node];
    maniClipCursor* cursor = NULL;
    /* Aligned memory of the clip's cursor size: cannot fail. */
    if (maniInitClipCursor((uint8_t*)g + n->state, (size_t)n->stateSize, &cursor) != mani_success)
        memset((uint8_t*)g + n->state, 0, (size_t)n->stateSize);
}

/* -- Blend nodes --------------------------------------------------------------- */

void mani_GraphShare(mani_GraphUpdateContext* c, uint32_t input, float weight, float rootWeight) {
    mani_GraphNodeState* in = &c->states[input];
    mani_GraphNodeFlow* flow = &c->flows[input];
    const float total = in->weight + weight;
    in->weight = total > 1.0f ? 1.0f : total;
    const float root = flow->rootWeight + rootWeight;
    flow->rootWeight = root > 1.0f ? 1.0f : root;
    in->flags |= MANI_GRAPH_STATE_WEIGHED;
}

void mani_GraphCopySlot(const mani_GraphEvalContext* c, uint32_t from, uint32_t to) {
    const maniPose* in = mani_GraphSlotPose(c, from);
    maniPose* out = mani_GraphSlotPose(c, to);
    if (from == to) return;
    if (c->bones == NULL) {
        /* The header and locals (the model is stale after). */
        memcpy(out, in, sizeof(struct maniPose) + sizeof(maniSimdTransformx8) * in->groupCount);
    } else {
        for (uint32_t i = 0; i < c->boneCount; ++i)
            mani_PoseSetLocalRaw(out, c->bones[i], mani_PoseGetLocalRaw(in, c->bones[i]));
        out->flags = (out->flags & ~MANI_POSE_DIFFERENCE) | (in->flags & MANI_POSE_DIFFERENCE);
    }
    out->flags &= ~MANI_POSE_MODEL_CURRENT;
}

maniResult mani_GraphRestSlot(const mani_GraphEvalContext* c, uint32_t slot, int difference) {
    maniPose* out = mani_GraphSlotPose(c, slot);
    maniResult r = maniPose_SetRest(out, c->binding->skeleton);
    if (r == mani_success && difference) r = maniSkeleton_ComputePoseDifference(c->binding->skeleton, out, out, out);
    return r;
}

/* A blend's state block: per input the weight its last update read (its
 * parameter clamped to [0, 1]), so an evaluation blends as that update
 * weighed even when a parameter was set since. */
static float* mani_BlendWeights(const maniGraphInstance* g, uint32_t node) {
    return (float*)mani_GraphNodeBlock(g, node);
}

static size_t mani_BlendStateSize(const maniGraphBinding* b, uint32_t node) {
    return 4u * (size_t)b->nodes[node].inputCount;
}

static void mani_ResetBlend(maniGraphInstance* g, uint32_t node) {
    memset(mani_GraphNodeBlock(g, node), 0, (size_t)g->binding->nodes[node].stateSize);
}

static uint64_t mani_CheckRestoredBlend(const maniGraphBinding* b, uint32_t node, const uint8_t* saved) {
    for (uint32_t i = 0; i < b->nodes[node].inputCount; ++i) {
        const float w = mcore_ReadF32(saved + 4u * i);
        if (!(w >= 0.0f && w <= 1.0f)) return 4u * (uint64_t)i;
    }
    return UINT64_MAX;
}

/* Shares a blend's weight down: normalized, w_i / sum of its own; direct,
 * w_i times its own (binary32, in input order); its root motion weight by
 * the same shares; keeps the w_i. */
static void mani_WeighBlend(mani_GraphUpdateContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    const mani_GraphInputRt* inputs = &c->binding->inputs[n->firstInput];
    const float own = c->states[node].weight, root = c->flows[node].rootWeight;
    const int direct = (n->flags & MANI_GRAPH_NODE_DIRECT) != 0;
    float* kept = mani_BlendWeights(c->instance, node);
    float sum = 0.0f;
    for (uint32_t i = 0; i < n->inputCount; ++i) {
        kept[i] = mani_GraphInputWeight(c->instance, &inputs[i]);
        sum += kept[i];
    }
    if (!direct && !(sum > 0.0f)) return;
    for (uint32_t i = 0; i < n->inputCount; ++i) {
        const float w = kept[i];
        if (!(w > 0.0f)) continue;
        if (direct) mani_GraphShare(c, inputs[i].node, own * w, root * w);
        else mani_GraphShare(c, inputs[i].node, own * (w / sum), root * (w / sum));
    }
}

static maniResult mani_EvaluateBlend(const mani_GraphEvalContext* c, uint32_t node) {
    const mani_GraphNodeRt* n = &c->binding->nodes[node];
    const mani_GraphInputRt* inputs = &c->binding->inputs[n->firstInput];
    const float* kept = mani_BlendWeights(c->instance, node);
    maniBlendLayer* layers = (maniBlendLayer*)(void*)(c->scratch + c->binding->scratchLayers);
    uint32_t count = 0;
    for (uint32_t i = 0; i < n->inputCount; ++i) {
        const float w = kept[i];
        if (!(w > 0.0f)) continue;
        layers[count].pose = mani_GraphSlotPose(c, c->binding->nodes[inputs[i].node].slot);
        layers[count].weight = w;
        layers[count].boneWeights = NULL;
        count++;
    }
    maniPose* out = mani_GraphSlotPose(c, n->slot);
    if (count == 0 && (n->flags & MANI_GRAPH_NODE_DIFFERENCE) != 0) {
        /* No layer: the identity difference (the rest of a difference). */
        maniResult r = maniPose_SetRest(out, c->binding->skeleton);
        if (r == mani_success) r = maniSkeleton_ComputePoseDifference(c->binding->skeleton, out, out, out);
        return r;
    }
    const float threshold = (n->flags & MANI_GRAPH_NODE_DIRECT) != 0 ? MANI_BLEND_THRESHOLD_MAX : MANI_BLEND_THRESHOLD_MIN;
    return maniSkeleton_BlendPoses(c->binding->skeleton, layers, count, threshold, out);
}

const mani_GraphKindRt mani_graphKinds[MANI_GRAPH_NODE_KIND_COUNT] = {
    [maniGraphNodeClip] = {.advance = mani_AdvanceClip, .evaluate = mani_EvaluateClip,
                           .stateSize = mani_ClipStateSize, .reset = mani_ResetClip},
    [maniGraphNodeBlend] = {.weigh = mani_WeighBlend, .evaluate = mani_EvaluateBlend,
                            .stateSize = mani_BlendStateSize, .reset = mani_ResetBlend,
                            .checkRestored = mani_CheckRestoredBlend},
    [maniGraphNodeMask] = {.weigh = mani_WeighMask, .evaluate = mani_EvaluateMask},
    [maniGraphNodeAdditive] = {.weigh = mani_WeighAdditive, .evaluate = mani_EvaluateAdditive,
                               .stateSize = mani_OneWordStateSize, .reset = mani_ResetOneWord,
                               .checkRestored = mani_CheckRestoredAdditive},
    [maniGraphNodeSelect] = {.weigh = mani_WeighSelect, .evaluate = mani_EvaluateSelect,
                             .stateSize = mani_OneWordStateSize, .reset = mani_ResetOneWord,
                             .checkRestored = mani_CheckRestoredSelect},
    [maniGraphNodeTimeScale] = {.weigh = mani_WeighPass, .evaluate = mani_EvaluatePass},
    [maniGraphNodeSeek] = {.weigh = mani_WeighPass, .evaluate = mani_EvaluatePass},
    [maniGraphNodeMirror] = {.weigh = mani_WeighPass, .evaluate = mani_EvaluateMirror},
    [maniGraphNodePose] = {.evaluate = mani_EvaluatePose},
    [maniGraphNodeStateMachine] = {.weigh = mani_WeighMachine, .evaluate = mani_EvaluateMachine,
                                   .stateSize = mani_MachineStateSize, .reset = mani_ResetMachine,
                                   .checkRestored = mani_CheckRestoredMachine, .inspect = mani_InspectMachine},
    [maniGraphNodeOneShot] = {.weigh = mani_WeighOneShot, .evaluate = mani_EvaluateOneShot,
                              .stateSize = mani_OneShotStateSize, .reset = mani_ResetOneShot,
                              .checkRestored = mani_CheckRestoredOneShot, .inspect = mani_InspectOneShot},
    [maniGraphNodeInertialize] = {.weigh = mani_WeighInertialize, .evaluate = mani_EvaluateInertialize,
                                  .stateSize = mani_InertializeStateSize, .reset = mani_ResetInertialize,
                                  .checkRestored = mani_CheckRestoredInertialize, .inspect = mani_InspectInertialize},
    [maniGraphNodeSpace1D] = {.weigh = mani_WeighSpace, .evaluate = mani_EvaluateSpace, .stateSize = mani_SpaceStateSize,
                              .reset = mani_ResetSpace, .checkRestored = mani_CheckRestoredSpace},
    [maniGraphNodeSpaceBanded] = {.weigh = mani_WeighSpace, .evaluate = mani_EvaluateSpace,
                                  .stateSize = mani_SpaceStateSize, .reset = mani_ResetSpace,
                                  .checkRestored = mani_CheckRestoredSpace},
    [maniGraphNodeSpaceTriangulated] = {.weigh = mani_WeighSpace, .evaluate = mani_EvaluateSpace,
                                        .stateSize = mani_SpaceStateSize, .reset = mani_ResetSpace,
                                        .checkRestored = mani_CheckRestoredSpace},
};
