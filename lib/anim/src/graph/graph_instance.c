/* graph.h: instances in caller memory, their parameters and pose
 * parameters, and what a node did in the last update. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/anim/src/pose/pose_internal.h"

int mani_GraphInstanceOk(const maniGraphInstance* g) {
    return g != NULL && mani_GraphAligned(g) && g->magic == MANI_GRAPH_INSTANCE_MAGIC &&
           mani_GraphBindingOk(g->binding) && g->graphIdentity == g->binding->graphIdentity;
}

float mani_GraphInputWeight(const maniGraphInstance* g, const mani_GraphInputRt* input) {
    if (input->parameter >= g->binding->parameterCount) return 1.0f;
    const float w = mani_GraphParameters(g)[input->parameter].number;
    return w > 1.0f ? 1.0f : (w > 0.0f ? w : 0.0f);
}

void mani_GraphResetStates(maniGraphInstance* g, int all) {
    const maniGraphBinding* b = g->binding;
    for (uint32_t n = 0; n < b->nodeCount; ++n) {
        const mani_GraphKindRt* kind = &mani_graphKinds[b->nodes[n].kind];
        if (kind->reset != NULL && b->nodes[n].stateSize != 0 && (all || kind->checkRestored == NULL))
            kind->reset(g, n);
    }
}

maniResult maniInitGraphInstance(const maniGraphBinding* binding, void* memory, size_t size,
                                 maniGraphInstance** instanceOut) {
    if (!mani_GraphBindingOk(binding) || memory == NULL || instanceOut == NULL || !mani_GraphAligned(memory))
        return mani_errorInvalid;
    if (size < binding->instanceSize) return mani_errorCapacity;
    memset(memory, 0, binding->instanceSize);
    maniGraphInstance* g = (maniGraphInstance*)memory;
    g->magic = MANI_GRAPH_INSTANCE_MAGIC;
    g->updated = 0;
    g->graphIdentity = binding->graphIdentity;
    g->binding = binding;
    maniGraphValue* values = mani_GraphParameters(g);
    for (uint32_t p = 0; p < binding->parameterCount; ++p) values[p] = binding->defaults[p];
    for (uint32_t k = 0; k < binding->poseParameterCount; ++k) {
        maniTransform* locals = mani_GraphPoseLocals(mani_GraphPoseParameter(g, k));
        for (uint32_t bone = 0; bone < binding->boneCount; ++bone)
            locals[bone] = maniSkeleton_GetRest(binding->skeleton, bone);
    }
    mani_GraphResetStates(g, 1);
    *instanceOut = g;
    return mani_success;
}

maniResult maniGraphInstance_SetParameter(maniGraphInstance* instance, uint32_t parameter,
                                          maniGraphParameterType type, maniGraphValue value) {
    if (!mani_GraphInstanceOk(instance) || parameter >= instance->binding->parameterCount) return mani_errorInvalid;
    if ((uint32_t)type != instance->binding->parameterTypes[parameter]) return mani_errorInvalid;
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    switch (type) {
        case maniGraphParameterFloat:
            if (!isfinite(value.number)) return mani_errorInvalid;
            v.number = value.number;
            break;
        case maniGraphParameterBool:
        case maniGraphParameterTrigger:
            if (value.flag > 1u) return mani_errorInvalid;
            v.flag = value.flag;
            break;
        case maniGraphParameterVector:
            if (!isfinite(value.vector.x) || !isfinite(value.vector.y) || !isfinite(value.vector.z))
                return mani_errorInvalid;
            v.vector = value.vector;
            break;
        case maniGraphParameterQuaternion: {
            const double x = value.rotation.x, y = value.rotation.y, z = value.rotation.z, w = value.rotation.w;
            const double len = sqrt(x * x + y * y + z * z + w * w);
            if (!(len > 0.0) || !isfinite(len)) return mani_errorInvalid;
            v.rotation.x = (float)(x / len);
            v.rotation.y = (float)(y / len);
            v.rotation.z = (float)(z / len);
            v.rotation.w = (float)(w / len);
            break;
        }
        default: return mani_errorInvalid; /* a pose parameter: SetPose */
    }
    mani_GraphParameters(instance)[parameter] = v;
    return mani_success;
}

maniResult maniGraphInstance_GetParameter(const maniGraphInstance* instance, uint32_t parameter,
                                          maniGraphValue* valueOut) {
    if (!mani_GraphInstanceOk(instance) || valueOut == NULL || parameter >= instance->binding->parameterCount)
        return mani_errorInvalid;
    const uint32_t k = instance->binding->poseIndex[parameter];
    if (k != MANI_GRAPH_NO_POSE) {
        maniGraphValue v;
        memset(&v, 0, sizeof v);
        v.flag = mani_GraphPoseParameter(instance, k)->set;
        *valueOut = v;
        return mani_success;
    }
    *valueOut = mani_GraphParameters(instance)[parameter];
    return mani_success;
}

/* Whether a pose is one maniInitPose made for the binding's skeleton. */
static int mani_GraphPoseOfSkeleton(const maniGraphBinding* b, const maniPose* pose) {
    return pose != NULL && mani_PoseOk(pose) && pose->skeletonIdentity == maniSkeleton_GetIdentity(b->skeleton) &&
           pose->boneCount == b->boneCount;
}

static int mani_TransformFinite(const maniTransform* t) {
    return isfinite(t->translation.x) && isfinite(t->translation.y) && isfinite(t->translation.z) &&
           isfinite(t->rotation.x) && isfinite(t->rotation.y) && isfinite(t->rotation.z) && isfinite(t->rotation.w) &&
           isfinite(t->scale.x) && isfinite(t->scale.y) && isfinite(t->scale.z);
}

maniResult maniGraphInstance_SetPose(maniGraphInstance* instance, uint32_t parameter, const maniPose* pose) {
    if (!mani_GraphInstanceOk(instance) || parameter >= instance->binding->parameterCount) return mani_errorInvalid;
    const maniGraphBinding* b = instance->binding;
    const uint32_t k = b->poseIndex[parameter];
    if (k == MANI_GRAPH_NO_POSE || !mani_GraphPoseOfSkeleton(b, pose) || maniPose_IsDifference(pose))
        return mani_errorInvalid;
    for (uint32_t bone = 0; bone < b->boneCount; ++bone) {
        const maniTransform t = mani_PoseGetLocalRaw(pose, bone);
        if (!mani_TransformFinite(&t)) return mani_errorInvalid;
    }
    mani_GraphPoseHeader* h = mani_GraphPoseParameter(instance, k);
    maniTransform* locals = mani_GraphPoseLocals(h);
    for (uint32_t bone = 0; bone < b->boneCount; ++bone) locals[bone] = mani_PoseGetLocalRaw(pose, bone);
    h->set = 1;
    return mani_success;
}

maniResult maniGraphInstance_GetPose(const maniGraphInstance* instance, uint32_t parameter, maniPose* poseOut) {
    if (!mani_GraphInstanceOk(instance) || parameter >= instance->binding->parameterCount) return mani_errorInvalid;
    const maniGraphBinding* b = instance->binding;
    const uint32_t k = b->poseIndex[parameter];
    if (k == MANI_GRAPH_NO_POSE || !mani_GraphPoseOfSkeleton(b, poseOut)) return mani_errorInvalid;
    const maniTransform* locals = mani_GraphPoseLocals(mani_GraphPoseParameter(instance, k));
    for (uint32_t bone = 0; bone < b->boneCount; ++bone) mani_PoseSetLocalRaw(poseOut, bone, locals[bone]);
    poseOut->flags &= ~(MANI_POSE_MODEL_CURRENT | MANI_POSE_DIFFERENCE);
    return mani_success;
}

maniResult maniGraphInstance_InspectNode(const maniGraphInstance* instance, uint32_t node, maniGraphNodeView* viewOut) {
    if (!mani_GraphInstanceOk(instance) || viewOut == NULL || node >= instance->binding->nodeCount)
        return mani_errorInvalid;
    const mani_GraphNodeRt* n = &instance->binding->nodes[node];
    const mani_GraphNodeState* s = &mani_GraphStates(instance)[node];
    maniGraphNodeView v;
    memset(&v, 0, sizeof v);
    v.kind = (maniGraphNodeKind)n->kind;
    v.weight = s->weight;
    v.playhead = n->kind == maniGraphNodeClip ? s->playhead : 0.0f;
    v.state = MANI_GRAPH_NONE;
    v.transition = MANI_GRAPH_NONE;
    v.failed = (s->flags & MANI_GRAPH_STATE_FAILED) != 0 ? 1u : 0u;
    const mani_GraphInspectFn inspect = mani_graphKinds[n->kind].inspect;
    if (inspect != NULL) inspect(instance, node, &v);
    *viewOut = v;
    return mani_success;
}
