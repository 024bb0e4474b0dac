/* graph.h: binding an opened graph to its assets, and the sizes of what a
 * binding's instances, scratches and subset plans take. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_format.h"
#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/anim/src/retarget/retarget_format.h"
#include "maul/anim/blend.h"
#include "maul/anim/learned.h"
#include "maul/anim/match.h"
#include "maul/anim/mirror.h"
#include "maul/anim/retarget.h"
#include "maul/anim/rootmotion.h"
#include "maul/anim/spring.h"

/* The binding's arrays after its header, each at a multiple of 16 bytes. */
typedef struct mani_GraphBindingLayout {
    size_t clips, nodes, inputs, types, poseIndex, defaults, databases, models, springSets, maps, sources, words, masks,
        total;
} mani_GraphBindingLayout;

static size_t mani_Round16(size_t n) { return (n + 15u) & ~(size_t)15u; }

static int mani_GraphUsable(const maniGraph* g) {
    return g != NULL && g->opened == MANI_GRAPH_OPENED && g->bytes != NULL && maniGraph_GetNodeCount(g) != 0;
}

static mani_GraphBindingLayout mani_GraphBindingLayoutOf(const maniGraph* g) {
    mani_GraphBindingLayout l;
    l.clips = mani_Round16(sizeof(struct maniGraphBinding));
    l.nodes = l.clips + mani_Round16(sizeof(const maniClip*) * g->clipCount);
    l.inputs = l.nodes + mani_Round16(sizeof(mani_GraphNodeRt) * g->nodeCount);
    l.types = l.inputs + mani_Round16(sizeof(mani_GraphInputRt) * g->inputTotal);
    l.poseIndex = l.types + mani_Round16(sizeof(uint32_t) * g->parameterCount);
    l.defaults = l.poseIndex + mani_Round16(sizeof(uint32_t) * g->parameterCount);
    l.databases = l.defaults + mani_Round16(sizeof(maniGraphValue) * g->parameterCount);
    l.models = l.databases + mani_Round16(sizeof(void*) * g->databaseCount);
    l.springSets = l.models + mani_Round16(sizeof(void*) * g->modelCount);
    l.maps = l.springSets + mani_Round16(sizeof(void*) * g->springSetCount);
    l.sources = l.maps + mani_Round16(sizeof(void*) * g->mapCount);
    l.words = l.sources + mani_Round16(sizeof(void*) * g->mapCount);
    l.masks = l.words + mani_Round16(sizeof(uint32_t) * g->nodeDataWords);
    /* Each mask's bone weights and their complements. */
    l.total = mani_GraphRound(l.masks + sizeof(float) * 2u * (size_t)g->maskCount * g->maskBones);
    return l;
}

size_t maniGraph_GetBindingSize(const maniGraph* graph) {
    if (!mani_GraphUsable(graph)) return 0;
    return mani_GraphBindingLayoutOf(graph).total;
}

int mani_GraphBindingOk(const maniGraphBinding* b) {
    return b != NULL && mani_GraphAligned(b) && b->magic == MANI_GRAPH_BINDING_MAGIC;
}

size_t maniGraphBinding_GetInstanceSize(const maniGraphBinding* binding) {
    return mani_GraphBindingOk(binding) ? binding->instanceSize : 0;
}

size_t maniGraphBinding_GetScratchSize(const maniGraphBinding* binding) {
    return mani_GraphBindingOk(binding) ? binding->scratchSize : 0;
}

size_t maniGraphBinding_GetSubsetSize(const maniGraphBinding* binding) {
    return mani_GraphBindingOk(binding) ? binding->subsetSize : 0;
}

/* A parameter's default from its file record, in the form SetParameter
 * keeps values: a bool 0 or 1, a quaternion unit (the identity for one of
 * length 0), the unused lanes 0. */
static maniGraphValue mani_GraphDefault(uint32_t type, const uint8_t* record) {
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    const float d0 = mcore_ReadF32(record + 16), d1 = mcore_ReadF32(record + 20);
    const float d2 = mcore_ReadF32(record + 24), d3 = mcore_ReadF32(record + 28);
    switch (type) {
        case maniGraphParameterFloat: v.number = d0; break;
        case maniGraphParameterBool: v.flag = d0 != 0.0f ? 1u : 0u; break;
        case maniGraphParameterVector:
            v.vector.x = d0;
            v.vector.y = d1;
            v.vector.z = d2;
            break;
        case maniGraphParameterQuaternion: {
            const double x = d0, y = d1, z = d2, w = d3;
            const double len = sqrt(x * x + y * y + z * z + w * w);
            if (len > 0.0 && isfinite(len)) {
                v.rotation.x = (float)(x / len);
                v.rotation.y = (float)(y / len);
                v.rotation.z = (float)(z / len);
                v.rotation.w = (float)(w / len);
            } else {
                v.rotation.w = 1.0f;
            }
            break;
        }
        default: break; /* triggers false, poses none */
    }
    return v;
}

/* The clip of an identity among the assets, or NULL. */
static const maniClip* mani_FindGraphClip(const maniGraphAssets* a, uint64_t identity) {
    for (uint32_t i = 0; i < a->clipCount; ++i) {
        const maniClip* c = a->clips[i];
        if (c != NULL && maniClip_GetIdentity(c) == identity && identity != 0) return c;
    }
    return NULL;
}

/* The assets binding a graph's database, model, spring set and map slots,
 * found by identity (each slot's asset, or NULL for none). */
static const maniRetargetMap* mani_FindGraphMapAsset(const maniGraphAssets* a, uint64_t identity,
                                                     uint64_t sourceIdentity, uint64_t targetIdentity) {
    for (uint32_t i = 0; i < a->retargetMapCount; ++i) {
        const maniRetargetMap* m = a->retargetMaps[i];
        if (m != NULL && maniRetargetMap_GetIdentity(m) == identity &&
            maniRetargetMap_GetSourceIdentity(m) == sourceIdentity &&
            maniRetargetMap_GetTargetIdentity(m) == targetIdentity)
            return m;
    }
    return NULL;
}

static const maniSkeleton* mani_FindGraphSourceSkeleton(const maniGraphAssets* a, uint64_t identity) {
    for (uint32_t i = 0; i < a->sourceSkeletonCount; ++i) {
        const maniSkeleton* s = a->sourceSkeletons[i];
        if (s != NULL && maniSkeleton_GetBoneCount(s) != 0 && maniSkeleton_GetIdentity(s) == identity) return s;
    }
    return NULL;
}

/* A database of the slot's identity and the graph's skeleton whose clips
 * are the clip slots the graph lists for it, in order. */
static const maniMotionDatabase* mani_FindGraphDatabase(const maniGraph* g, const maniGraphAssets* a, uint32_t slot) {
    const uint8_t* rec = g->bytes + g->databases + (uint64_t)MANI_GRAPH_DATABASE_SIZE * slot;
    const uint64_t identity = mcore_ReadU64(rec);
    const uint32_t first = mcore_ReadU32(rec + 16), count = mcore_ReadU32(rec + 20);
    const uint8_t* list = g->bytes + g->databases + (uint64_t)MANI_GRAPH_DATABASE_SIZE * g->databaseCount;
    for (uint32_t i = 0; i < a->databaseCount; ++i) {
        const maniMotionDatabase* d = a->databases[i];
        if (d == NULL || maniMotionDatabase_GetIdentity(d) != identity ||
            maniMotionDatabase_GetSkeletonIdentity(d) != g->skeletonIdentity || d->clipCount != count)
            continue;
        int same = 1;
        for (uint32_t c = 0; c < count && same; ++c)
            same = maniMotionDatabase_GetClipIdentity(d, c) ==
                   maniGraph_GetClipIdentity(g, mcore_ReadU32(list + 4u * ((uint64_t)first + c)));
        if (same) return d;
    }
    return NULL;
}

static const maniLearnedModel* mani_FindGraphModel(const maniGraph* g, const maniGraphAssets* a, uint32_t slot) {
    const uint64_t identity = maniGraph_GetModelIdentity(g, slot);
    for (uint32_t i = 0; i < a->modelCount; ++i) {
        const maniLearnedModel* m = a->models[i];
        if (m != NULL && maniLearnedModel_GetIdentity(m) == identity &&
            maniLearnedModel_GetSkeletonIdentity(m) == g->skeletonIdentity)
            return m;
    }
    return NULL;
}

static const maniSpringSet* mani_FindGraphSpringSet(const maniGraph* g, const maniGraphAssets* a, uint32_t slot) {
    const uint64_t identity = maniGraph_GetSpringSetIdentity(g, slot);
    for (uint32_t i = 0; i < a->springSetCount; ++i) {
        const maniSpringSet* s = a->springSets[i];
        if (s != NULL && maniSpringSet_GetIdentity(s) == identity &&
            maniSpringSet_GetSkeletonIdentity(s) == g->skeletonIdentity)
            return s;
    }
    return NULL;
}

/* The first target bone whose plan follows a source bone alone (a bone's
 * or the pelvis's plan): where a mapped clip's root motion lands; or
 * MANI_NO_BONE. */
static uint32_t mani_GraphMapFollower(const maniRetargetMap* map, uint32_t sourceBone) {
    for (uint32_t i = 0; i < map->targetBoneCount; ++i) {
        const uint8_t* plan = map->bytes + map->plans + (uint64_t)MANI_RETARGET_PLAN_SIZE * i;
        const uint32_t kind = mcore_ReadU32(plan);
        if ((kind == MANI_RETARGET_KIND_BONE || kind == MANI_RETARGET_KIND_PELVIS) &&
            mcore_ReadU32(plan + 4) == sourceBone)
            return i;
    }
    return MANI_NO_BONE;
}

maniResult maniBindGraph(const maniGraph* graph, const maniGraphAssets* assets, void* memory, size_t size,
                         maniGraphBinding** bindingOut, uint32_t* unboundOut) {
    if (bindingOut == NULL) return mani_errorInvalid;
    *bindingOut = NULL;
    if (unboundOut != NULL) *unboundOut = MANI_GRAPH_NONE;
    if (graph == NULL || assets == NULL || memory == NULL || !mani_GraphAligned(memory) || !mani_GraphUsable(graph))
        return mani_errorInvalid;
    if ((assets->clips == NULL && assets->clipCount != 0) || (assets->databases == NULL && assets->databaseCount != 0) ||
        (assets->models == NULL && assets->modelCount != 0) ||
        (assets->springSets == NULL && assets->springSetCount != 0) ||
        (assets->retargetMaps == NULL && assets->retargetMapCount != 0) ||
        (assets->sourceSkeletons == NULL && assets->sourceSkeletonCount != 0))
        return mani_errorInvalid;
    const maniSkeleton* skeleton = assets->skeleton;
    const uint32_t boneCount = maniSkeleton_GetBoneCount(skeleton);
    if (skeleton == NULL || boneCount == 0 || maniSkeleton_GetIdentity(skeleton) != graph->skeletonIdentity)
        return mani_errorInvalid;
    const size_t poseBytes = maniSkeleton_GetPoseSize(skeleton);
    if (poseBytes == 0) return mani_errorInvalid;

    /* Every node of a kind the runtime plays; the most inputs of one. */
    uint32_t maxInputs = 0, oneShots = 0;
    for (uint32_t n = 0; n < graph->nodeCount; ++n) {
        const uint32_t kind = (uint32_t)maniGraph_GetNodeKind(graph, n);
        if (mani_graphKinds[kind].evaluate == NULL) return mani_errorInvalid;
        /* A masked one-shot's bone weights of the skeleton's bones. */
        if (kind == maniGraphNodeOneShot) {
            oneShots++;
            const uint8_t* entry = graph->bytes + graph->nodeData + (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * n;
            const uint32_t first = mcore_ReadU32(entry), words = mcore_ReadU32(entry + 4);
            const uint64_t at = graph->nodeData + (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * graph->nodeCount + 4u * (uint64_t)first;
            if (mcore_ReadU32(graph->bytes + at + 20) != 0 && words != MANI_GRAPH_ONESHOT_HEADER + boneCount)
                return mani_errorInvalid;
        }
        const uint32_t count = maniGraph_GetNodeInputCount(graph, n);
        if (count > maxInputs) maxInputs = count;
    }

    /* Every map slot bound to the map of its identity made for the graph's
     * skeleton from the slot's source, and to that source skeleton; a map
     * no asset binds names the first clip slot through it as unbound. */
    for (uint32_t m = 0; m < graph->mapCount; ++m) {
        const uint64_t source = maniGraph_GetRetargetMapSourceIdentity(graph, m);
        if (mani_FindGraphMapAsset(assets, maniGraph_GetRetargetMapIdentity(graph, m), source,
                                   graph->skeletonIdentity) == NULL ||
            mani_FindGraphSourceSkeleton(assets, source) == NULL) {
            for (uint32_t k = 0; k < graph->clipCount && unboundOut != NULL; ++k)
                if (maniGraph_GetClipRetargetMap(graph, k) == m) {
                    *unboundOut = k;
                    break;
                }
            return mani_errorInvalid;
        }
    }

    /* Every clip slot bound to a clip of its identity, of the graph's
     * skeleton (or its map's source) and of its kind (additive for a slot a
     * difference node plays); their root motion on one bone. */
    const uint8_t* b = graph->bytes;
    uint32_t rootBone = MANI_NO_BONE;
    for (uint32_t k = 0; k < graph->clipCount; ++k) {
        const maniClip* c = mani_FindGraphClip(assets, maniGraph_GetClipIdentity(graph, k));
        const uint32_t map = maniGraph_GetClipRetargetMap(graph, k);
        const uint64_t of =
            map == MANI_NO_TRACK ? graph->skeletonIdentity : maniGraph_GetRetargetMapSourceIdentity(graph, map);
        int kindOk = c != NULL && maniClip_GetSkeletonIdentity(c) == of;
        for (uint32_t n = 0; n < graph->nodeCount && kindOk; ++n) {
            const uint8_t* rec = b + graph->nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * n;
            if (mcore_ReadU32(rec) != maniGraphNodeClip || mcore_ReadU32(rec + 24) != k) continue;
            const int difference = (mcore_ReadU32(rec + 4) & MANI_GRAPH_NODE_DIFFERENCE) != 0;
            kindOk = difference == (maniClip_GetAdditiveBasis(c) != maniAdditiveNone);
        }
        if (!kindOk) {
            if (unboundOut != NULL) *unboundOut = k;
            return mani_errorInvalid;
        }
        /* A mapped clip's root motion names the graph's bone following its
         * own alone (none refused). */
        maniRootMotionSource source;
        if (maniClip_GetRootMotionSource(c, &source)) {
            const uint32_t bone =
                map == MANI_NO_TRACK
                    ? source.bone
                    : mani_GraphMapFollower(mani_FindGraphMapAsset(assets, maniGraph_GetRetargetMapIdentity(graph, map),
                                                                   of, graph->skeletonIdentity),
                                            source.bone);
            if (bone == MANI_NO_BONE || (rootBone != MANI_NO_BONE && rootBone != bone)) return mani_errorInvalid;
            rootBone = bone;
        }
    }

    /* Database, model and spring set slots, each to the asset of its
     * identity and the graph's skeleton; the mirror map by identity. */
    for (uint32_t d = 0; d < graph->databaseCount; ++d)
        if (mani_FindGraphDatabase(graph, assets, d) == NULL) return mani_errorInvalid;
    for (uint32_t m = 0; m < graph->modelCount; ++m)
        if (mani_FindGraphModel(graph, assets, m) == NULL) return mani_errorInvalid;
    for (uint32_t k = 0; k < graph->springSetCount; ++k)
        if (mani_FindGraphSpringSet(graph, assets, k) == NULL) return mani_errorInvalid;
    if (graph->mirrorIdentity != 0 && maniMirrorMap_GetIdentity(assets->mirrorMap) != graph->mirrorIdentity)
        return mani_errorInvalid;

    /* Masks of the skeleton's bones. */
    if (graph->maskCount != 0 && graph->maskBones != boneCount) return mani_errorInvalid;

    const mani_GraphBindingLayout l = mani_GraphBindingLayoutOf(graph);
    if (size < l.total) return mani_errorCapacity;

    uint8_t* m = (uint8_t*)memory;
    memset(m, 0, l.total);
    struct maniGraphBinding* g = (struct maniGraphBinding*)memory;
    const maniClip** clips = (const maniClip**)(void*)(m + l.clips);
    mani_GraphNodeRt* nodes = (mani_GraphNodeRt*)(void*)(m + l.nodes);
    mani_GraphInputRt* inputs = (mani_GraphInputRt*)(void*)(m + l.inputs);
    uint32_t* types = (uint32_t*)(void*)(m + l.types);
    uint32_t* poseIndex = (uint32_t*)(void*)(m + l.poseIndex);
    maniGraphValue* defaults = (maniGraphValue*)(void*)(m + l.defaults);
    const maniMotionDatabase** databases = (const maniMotionDatabase**)(void*)(m + l.databases);
    const maniLearnedModel** models = (const maniLearnedModel**)(void*)(m + l.models);
    const maniSpringSet** springSets = (const maniSpringSet**)(void*)(m + l.springSets);
    const maniRetargetMap** maps = (const maniRetargetMap**)(void*)(m + l.maps);
    const maniSkeleton** sources = (const maniSkeleton**)(void*)(m + l.sources);
    uint32_t* words = (uint32_t*)(void*)(m + l.words);
    float* masks = (float*)(void*)(m + l.masks);
    for (uint32_t k = 0; k < graph->maskCount; ++k) {
        float* w = masks + 2u * (size_t)boneCount * k;
        for (uint32_t bone = 0; bone < boneCount; ++bone) {
            w[bone] = mcore_ReadF32(b + graph->masks + MANI_GRAPH_MASKS_HEADER + 4u * ((uint64_t)k * boneCount + bone));
            w[boneCount + bone] = 1.0f - w[bone];
        }
    }
    const uint64_t wordsAt = graph->nodeData + (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * graph->nodeCount;
    for (uint32_t w = 0; w < graph->nodeDataWords; ++w) words[w] = mcore_ReadU32(b + wordsAt + 4u * (uint64_t)w);
    for (uint32_t d = 0; d < graph->databaseCount; ++d) databases[d] = mani_FindGraphDatabase(graph, assets, d);
    for (uint32_t k = 0; k < graph->modelCount; ++k) models[k] = mani_FindGraphModel(graph, assets, k);
    for (uint32_t k = 0; k < graph->springSetCount; ++k) springSets[k] = mani_FindGraphSpringSet(graph, assets, k);
    for (uint32_t k = 0; k < graph->mapCount; ++k) {
        const uint64_t source = maniGraph_GetRetargetMapSourceIdentity(graph, k);
        maps[k] = mani_FindGraphMapAsset(assets, maniGraph_GetRetargetMapIdentity(graph, k), source,
                                         graph->skeletonIdentity);
        sources[k] = mani_FindGraphSourceSkeleton(assets, source);
    }

    for (uint32_t k = 0; k < graph->clipCount; ++k) clips[k] = mani_FindGraphClip(assets, maniGraph_GetClipIdentity(graph, k));
    uint32_t poseCount = 0, mirrorNodes = 0;
    for (uint32_t p = 0; p < graph->parameterCount; ++p) {
        const uint8_t* rec = b + graph->parameters + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * p;
        types[p] = mcore_ReadU32(rec);
        poseIndex[p] = types[p] == maniGraphParameterPose ? poseCount++ : MANI_GRAPH_NO_POSE;
        defaults[p] = mani_GraphDefault(types[p], rec);
    }
    for (uint32_t e = 0; e < graph->inputTotal; ++e) {
        const uint8_t* rec = b + graph->inputs + (uint64_t)MANI_GRAPH_INPUT_SIZE * e;
        inputs[e].node = mcore_ReadU32(rec);
        inputs[e].parameter = mcore_ReadU32(rec + 4);
    }
    for (uint32_t n = 0; n < graph->nodeCount; ++n) {
        const uint8_t* rec = b + graph->nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * n;
        mani_GraphNodeRt* node = &nodes[n];
        node->kind = mcore_ReadU32(rec);
        node->flags = mcore_ReadU32(rec + 4);
        node->slot = mcore_ReadU32(rec + 12);
        node->firstInput = mcore_ReadU32(rec + 16);
        node->inputCount = mcore_ReadU32(rec + 20);
        node->map = MANI_NO_TRACK;
        const uint8_t* entry = b + graph->nodeData + (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * n;
        node->data = mcore_ReadU32(entry);
        node->dataCount = mcore_ReadU32(entry + 4);
        node->index = mcore_ReadU32(rec + 24);
        node->number = mcore_ReadF32(rec + 28);
        if (node->kind == maniGraphNodeMirror) mirrorNodes++;
        if (node->kind == maniGraphNodeMask) {
            node->mask = masks + 2u * (size_t)boneCount * node->index;
            for (uint32_t bone = 0; bone < boneCount; ++bone)
                if (node->mask[bone] > node->maskMost) node->maskMost = node->mask[bone];
            node->maskRoot = rootBone < boneCount ? node->mask[rootBone] : 0.0f;
        }
        if (node->kind == maniGraphNodeOneShot) mani_BindOneShot(node, words + node->data, boneCount, rootBone);
        for (uint32_t i = 0; i < node->inputCount; ++i) {
            const float span = nodes[inputs[node->firstInput + i].node].span;
            if (span > node->span) node->span = span;
        }
        if (node->kind == maniGraphNodeClip) {
            node->clip = mcore_ReadU32(rec + 24);
            node->speed = mcore_ReadF32(rec + 28);
            const maniClip* c = clips[node->clip];
            node->map = maniGraph_GetClipRetargetMap(graph, node->clip);
            node->duration = maniClip_GetDuration(c);
            node->loop = (uint32_t)maniClip_GetLoopPolicy(c);
            node->span = node->speed != 0.0f ? node->duration / fabsf(node->speed) : 0.0f;
            maniRootMotionSource source;
            node->rootMotion =
                (node->flags & MANI_GRAPH_NODE_DIFFERENCE) == 0 && maniClip_GetRootMotionSource(c, &source) ? 1u : 0u;
        }
    }

    g->magic = MANI_GRAPH_BINDING_MAGIC;
    g->nodeCount = graph->nodeCount;
    g->parameterCount = graph->parameterCount;
    g->clipCount = graph->clipCount;
    g->slotCount = graph->poseSlotCount;
    g->boneCount = boneCount;
    g->inputTotal = graph->inputTotal;
    g->poseParameterCount = poseCount;
    g->maxInputs = maxInputs;
    g->rootBone = rootBone;
    g->graphIdentity = graph->identity;
    g->skeleton = skeleton;
    g->poseSize = mani_GraphRound(poseBytes);
    g->clips = clips;
    g->nodes = nodes;
    g->inputs = inputs;
    g->parameterTypes = types;
    g->poseIndex = poseIndex;
    g->defaults = defaults;
    g->words = words;
    g->wordCount = graph->nodeDataWords;
    g->databaseCount = graph->databaseCount;
    g->modelCount = graph->modelCount;
    g->springSetCount = graph->springSetCount;
    g->mapCount = graph->mapCount;
    g->mirrorNodes = mirrorNodes;
    g->databases = databases;
    g->models = models;
    g->springSets = springSets;
    g->maps = maps;
    g->sourceSkeletons = sources;
    g->mirrorMap = graph->mirrorIdentity != 0 ? assets->mirrorMap : NULL;

    /* The instance: header, parameters, node states, pose parameters, the
     * root motion workspace. */
    size_t at = mani_GraphRound(sizeof(struct maniGraphInstance));
    g->instanceParameters = at;
    at = mani_GraphRound(at + sizeof(maniGraphValue) * g->parameterCount);
    g->instanceNodes = at;
    at = mani_GraphRound(at + sizeof(mani_GraphNodeState) * g->nodeCount);
    g->instancePoses = at;
    g->instancePoseStride = mani_Round16(sizeof(mani_GraphPoseHeader) + sizeof(maniTransform) * boneCount);
    at = mani_GraphRound(at + g->instancePoseStride * poseCount);
    g->instanceMoves = at;
    at = mani_GraphRound(at + sizeof(maniRootMove) * g->nodeCount);
    g->instanceMoveWeights = at;
    at = mani_GraphRound(at + sizeof(float) * g->nodeCount);
    g->instanceFlows = at;
    at = mani_GraphRound(at + sizeof(mani_GraphNodeFlow) * g->nodeCount);
    /* A state block per node of a kind keeping one (a clip node's cursor,
     * a state machine's states; MANI_CLIP_CURSOR_ALIGNMENT divides the
     * instance's alignment). */
    for (uint32_t n = 0; n < g->nodeCount; ++n) {
        const mani_GraphStateSizeFn stateSize = mani_graphKinds[nodes[n].kind].stateSize;
        if (stateSize == NULL) continue;
        nodes[n].state = at;
        nodes[n].stateSize = stateSize(g, n);
        at += mani_GraphRound((size_t)nodes[n].stateSize);
    }
    g->instanceSize = at;

    /* The scratch: header, a pose per slot, one node's layers. */
    g->scratchPoses = MANI_GRAPH_SCRATCH_HEADER;
    g->scratchLayers = g->scratchPoses + g->poseSize * g->slotCount;
    /* With map slots, room to carry one clip's pose: a pose of the largest
     * source skeleton and the largest transfer scratch. */
    size_t sourcePose = 0, turns = 0;
    for (uint32_t k = 0; k < graph->mapCount; ++k) {
        const size_t p = mani_GraphRound(maniSkeleton_GetPoseSize(sources[k]));
        const size_t t = mani_GraphRound(maniRetargetMap_GetScratchSize(maps[k]));
        if (p > sourcePose) sourcePose = p;
        if (t > turns) turns = t;
    }
    g->scratchSource = mani_GraphRound(g->scratchLayers + sizeof(maniBlendLayer) * (maxInputs ? maxInputs : 1u));
    g->sourcePoseSize = sourcePose;
    g->scratchTurns = g->scratchSource + sourcePose;
    g->scratchTurnsSize = turns;
    g->scratchSize = g->scratchTurns + turns;
    /* With one-shots, one's bone weights (shot weights, then complements). */
    if (oneShots != 0) {
        g->scratchShot = mani_GraphRound(g->scratchSize);
        g->scratchSize = g->scratchShot + mani_GraphRound(sizeof(float) * 2u * (size_t)boneCount);
    }

    g->subsetSize = mani_GraphRound(MANI_GRAPH_SUBSET_HEADER + sizeof(uint32_t) * boneCount);
    *bindingOut = g;
    return mani_success;
}
