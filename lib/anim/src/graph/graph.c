/* graph.h: opening a graph file (every byte checked once) and the view's
 * accessors. */
#include "maul/anim/graph.h"

#include "maul/anim/graphbuild.h" /* the limits a file is checked against */

#include <math.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/graph/graph_format.h"
#include "lib/core/utf8.h"

/* -- The view ------------------------------------------------------------------ */

static int mani_GraphViewOk(const maniGraph* g) {
    if (g == NULL || g->opened != MANI_GRAPH_OPENED || g->bytes == NULL) return 0;
    const uint64_t size = g->size;
    return g->nodeCount != 0 && mcore_SpanFits(g->parameters, g->parameterCount, MANI_GRAPH_PARAMETER_SIZE, size) &&
           mcore_SpanFits(g->clips, g->clipCount, MANI_GRAPH_CLIP_SIZE, size) &&
           mcore_SpanFits(g->nodes, g->nodeCount, MANI_GRAPH_NODE_SIZE, size) &&
           mcore_SpanFits(g->inputs, g->inputTotal, MANI_GRAPH_INPUT_SIZE, size) &&
           mcore_SpanFits(g->names, g->namesSize, 1, size) &&
           mcore_SpanFits(g->databases, g->databaseCount, MANI_GRAPH_DATABASE_SIZE, size) &&
           mcore_SpanFits(g->models, g->modelCount, MANI_GRAPH_SLOT_SIZE, size) &&
           mcore_SpanFits(g->springSets, g->springSetCount, MANI_GRAPH_SLOT_SIZE, size) &&
           mcore_SpanFits(g->maps, g->mapCount, MANI_GRAPH_SLOT_SIZE, size) &&
           mcore_SpanFits(g->nodeData, 2u * (uint64_t)g->nodeCount + g->nodeDataWords, 4, size);
}

uint64_t maniGraph_GetIdentity(const maniGraph* graph) { return mani_GraphViewOk(graph) ? graph->identity : 0; }

uint64_t maniGraph_GetSkeletonIdentity(const maniGraph* graph) {
    return mani_GraphViewOk(graph) ? graph->skeletonIdentity : 0;
}

uint32_t maniGraph_GetNodeCount(const maniGraph* graph) { return mani_GraphViewOk(graph) ? graph->nodeCount : 0; }

uint32_t maniGraph_GetParameterCount(const maniGraph* graph) {
    return mani_GraphViewOk(graph) ? graph->parameterCount : 0;
}

uint32_t maniGraph_GetClipCount(const maniGraph* graph) { return mani_GraphViewOk(graph) ? graph->clipCount : 0; }

/* A name span (offset, length) of the names, or NULL when the span (changed
 * after the open) leaves them. */
static const char* mani_GraphSpan(const maniGraph* g, const uint8_t* span, size_t* lengthOut) {
    const uint64_t offset = mcore_ReadU32(span), length = mcore_ReadU32(span + 4);
    if (offset > g->namesSize || length > g->namesSize - offset) return NULL;
    if (lengthOut != NULL) *lengthOut = (size_t)length;
    return (const char*)(g->bytes + g->names + offset);
}

const char* maniGraph_GetParameterName(const maniGraph* graph, uint32_t parameter, size_t* lengthOut) {
    if (!mani_GraphViewOk(graph) || parameter >= graph->parameterCount) return NULL;
    return mani_GraphSpan(graph, graph->bytes + graph->parameters + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * parameter + 4,
                          lengthOut);
}

uint32_t maniGraph_FindParameter(const maniGraph* graph, const char* name, size_t length) {
    if (!mani_GraphViewOk(graph) || (name == NULL && length != 0)) return MANI_NO_PARAMETER;
    for (uint32_t p = 0; p < graph->parameterCount; ++p) {
        size_t own = 0;
        const char* bytes = maniGraph_GetParameterName(graph, p, &own);
        if (bytes != NULL && own == length && (length == 0 || memcmp(bytes, name, length) == 0)) return p;
    }
    return MANI_NO_PARAMETER;
}

maniResult maniGraph_GetParameterType(const maniGraph* graph, uint32_t parameter, maniGraphParameterType* typeOut) {
    if (!mani_GraphViewOk(graph) || typeOut == NULL || parameter >= graph->parameterCount) return mani_errorInvalid;
    const uint32_t t = mcore_ReadU32(graph->bytes + graph->parameters + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * parameter);
    *typeOut = t < MANI_GRAPH_PARAMETER_TYPE_COUNT ? (maniGraphParameterType)t : maniGraphParameterFloat;
    return mani_success;
}

uint64_t maniGraph_GetClipIdentity(const maniGraph* graph, uint32_t clip) {
    if (!mani_GraphViewOk(graph) || clip >= graph->clipCount) return 0;
    return mcore_ReadU64(graph->bytes + graph->clips + (uint64_t)MANI_GRAPH_CLIP_SIZE * clip);
}

const char* maniGraph_GetClipName(const maniGraph* graph, uint32_t clip, size_t* lengthOut) {
    if (!mani_GraphViewOk(graph) || clip >= graph->clipCount) return NULL;
    return mani_GraphSpan(graph, graph->bytes + graph->clips + (uint64_t)MANI_GRAPH_CLIP_SIZE * clip + 8, lengthOut);
}

uint32_t maniGraph_GetDatabaseCount(const maniGraph* graph) {
    return mani_GraphViewOk(graph) ? graph->databaseCount : 0;
}

uint64_t maniGraph_GetDatabaseIdentity(const maniGraph* graph, uint32_t database) {
    if (!mani_GraphViewOk(graph) || database >= graph->databaseCount) return 0;
    return mcore_ReadU64(graph->bytes + graph->databases + (uint64_t)MANI_GRAPH_DATABASE_SIZE * database);
}

const char* maniGraph_GetDatabaseName(const maniGraph* graph, uint32_t database, size_t* lengthOut) {
    if (!mani_GraphViewOk(graph) || database >= graph->databaseCount) return NULL;
    return mani_GraphSpan(graph, graph->bytes + graph->databases + (uint64_t)MANI_GRAPH_DATABASE_SIZE * database + 8,
                          lengthOut);
}

uint32_t maniGraph_GetModelCount(const maniGraph* graph) { return mani_GraphViewOk(graph) ? graph->modelCount : 0; }

uint64_t maniGraph_GetModelIdentity(const maniGraph* graph, uint32_t model) {
    if (!mani_GraphViewOk(graph) || model >= graph->modelCount) return 0;
    return mcore_ReadU64(graph->bytes + graph->models + (uint64_t)MANI_GRAPH_SLOT_SIZE * model);
}

const char* maniGraph_GetModelName(const maniGraph* graph, uint32_t model, size_t* lengthOut) {
    if (!mani_GraphViewOk(graph) || model >= graph->modelCount) return NULL;
    return mani_GraphSpan(graph, graph->bytes + graph->models + (uint64_t)MANI_GRAPH_SLOT_SIZE * model + 8, lengthOut);
}

uint32_t maniGraph_GetSpringSetCount(const maniGraph* graph) {
    return mani_GraphViewOk(graph) ? graph->springSetCount : 0;
}

uint64_t maniGraph_GetSpringSetIdentity(const maniGraph* graph, uint32_t slot) {
    if (!mani_GraphViewOk(graph) || slot >= graph->springSetCount) return 0;
    return mcore_ReadU64(graph->bytes + graph->springSets + (uint64_t)MANI_GRAPH_SLOT_SIZE * slot);
}

const char* maniGraph_GetSpringSetName(const maniGraph* graph, uint32_t slot, size_t* lengthOut) {
    if (!mani_GraphViewOk(graph) || slot >= graph->springSetCount) return NULL;
    return mani_GraphSpan(graph, graph->bytes + graph->springSets + (uint64_t)MANI_GRAPH_SLOT_SIZE * slot + 8,
                          lengthOut);
}

uint32_t maniGraph_GetRetargetMapCount(const maniGraph* graph) {
    return mani_GraphViewOk(graph) ? graph->mapCount : 0;
}

uint64_t maniGraph_GetRetargetMapIdentity(const maniGraph* graph, uint32_t slot) {
    if (!mani_GraphViewOk(graph) || slot >= graph->mapCount) return 0;
    return mcore_ReadU64(graph->bytes + graph->maps + (uint64_t)MANI_GRAPH_SLOT_SIZE * slot);
}

uint64_t maniGraph_GetRetargetMapSourceIdentity(const maniGraph* graph, uint32_t slot) {
    if (!mani_GraphViewOk(graph) || slot >= graph->mapCount) return 0;
    return mcore_ReadU64(graph->bytes + graph->maps + (uint64_t)MANI_GRAPH_SLOT_SIZE * slot + 8);
}

uint32_t maniGraph_GetClipRetargetMap(const maniGraph* graph, uint32_t clip) {
    if (!mani_GraphViewOk(graph) || clip >= graph->clipCount) return MANI_NO_TRACK;
    const uint32_t map = mcore_ReadU32(graph->bytes + graph->clips + (uint64_t)MANI_GRAPH_CLIP_SIZE * clip + 16);
    return map < graph->mapCount ? map : MANI_NO_TRACK;
}

static const uint8_t* mani_GraphNode(const maniGraph* g, uint32_t node) {
    return g->bytes + g->nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * node;
}

maniGraphNodeKind maniGraph_GetNodeKind(const maniGraph* graph, uint32_t node) {
    if (!mani_GraphViewOk(graph) || node >= graph->nodeCount) return maniGraphNodeClip;
    const uint32_t k = mcore_ReadU32(mani_GraphNode(graph, node));
    return k < MANI_GRAPH_NODE_KIND_COUNT ? (maniGraphNodeKind)k : maniGraphNodeClip;
}

uint32_t maniGraph_GetNodeInputCount(const maniGraph* graph, uint32_t node) {
    if (!mani_GraphViewOk(graph) || node >= graph->nodeCount) return 0;
    const uint8_t* n = mani_GraphNode(graph, node);
    const uint64_t first = mcore_ReadU32(n + 16), count = mcore_ReadU32(n + 20);
    return first <= graph->inputTotal && count <= graph->inputTotal - first ? (uint32_t)count : 0;
}

uint32_t maniGraph_GetNodeInput(const maniGraph* graph, uint32_t node, uint32_t input) {
    if (input >= maniGraph_GetNodeInputCount(graph, node)) return MANI_GRAPH_NONE;
    const uint64_t first = mcore_ReadU32(mani_GraphNode(graph, node) + 16);
    const uint32_t in = mcore_ReadU32(graph->bytes + graph->inputs + MANI_GRAPH_INPUT_SIZE * (first + input));
    return in < node ? in : MANI_GRAPH_NONE;
}

uint32_t maniGraph_GetOutputNode(const maniGraph* graph) {
    return mani_GraphViewOk(graph) ? graph->nodeCount - 1 : MANI_GRAPH_NONE;
}

uint64_t maniGraph_GetMirrorMapIdentity(const maniGraph* graph) {
    return mani_GraphViewOk(graph) ? graph->mirrorIdentity : 0;
}

uint32_t maniGraph_GetNodeSourcePlace(const maniGraph* graph, uint32_t node) {
    if (!mani_GraphViewOk(graph) || node >= graph->nodeCount) return MANI_GRAPH_NONE;
    return mcore_ReadU32(mani_GraphNode(graph, node) + 8);
}

/* -- The open ------------------------------------------------------------------- */

/* Checks a name span at `at` (offset, length): inside the names, 1 to
 * MANI_MAX_NAME_BYTES of UTF-8. Returns 0, or the offset of the wrong byte. */
static uint64_t mani_CheckGraphName(const uint8_t* b, uint64_t at, uint64_t names, uint32_t namesSize) {
    const uint32_t off = mcore_ReadU32(b + at), len = mcore_ReadU32(b + at + 4);
    if (off > namesSize) return at;
    if (len == 0 || len > MANI_MAX_NAME_BYTES || len > namesSize - off) return at + 4;
    const size_t good = mcore_Utf8Check(b + names + off, len);
    if (good != len) return names + off + good;
    return 0;
}

/* Checks a slot record (u64 identity, u32 name offset, name length) of a
 * list of `stride` bytes a record: an identity not 0, a name unique among
 * the list's. Returns 0, or the offset of the wrong byte. */
static uint64_t mani_CheckGraphSlot(const uint8_t* b, uint64_t list, uint32_t stride, uint32_t slot, uint64_t names,
                                    uint32_t namesSize) {
    const uint64_t at = list + (uint64_t)stride * slot;
    if (mcore_ReadU64(b + at) == 0) return at;
    const uint64_t bad = mani_CheckGraphName(b, at + 8, names, namesSize);
    if (bad != 0) return bad;
    const uint32_t off = mcore_ReadU32(b + at + 8), len = mcore_ReadU32(b + at + 12);
    for (uint32_t q = 0; q < slot; ++q) {
        const uint64_t e = list + (uint64_t)stride * q;
        if (mcore_ReadU32(b + e + 12) == len && memcmp(b + names + mcore_ReadU32(b + e + 8), b + names + off, len) == 0)
            return at + 8;
    }
    return 0;
}

maniFileResult maniOpenGraph(const void* bytes, size_t size, maniGraph* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindGraph, mcore_formatGraphLatest,
                                                     maniGraphSections, MANI_GRAPH_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* The header: counts matching the sections' sizes. */
    if (sec[0].size != MANI_GRAPH_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint64_t skeletonIdentity = mcore_ReadU64(b + info);
    const uint32_t nodeCount = mcore_ReadU32(b + info + 8), parameterCount = mcore_ReadU32(b + info + 12);
    const uint32_t clipCount = mcore_ReadU32(b + info + 16), slotCount = mcore_ReadU32(b + info + 20);
    const uint32_t inputTotal = mcore_ReadU32(b + info + 24), namesSize = mcore_ReadU32(b + info + 28);
    if (nodeCount == 0 || nodeCount > MANI_MAX_GRAPH_NODES || (uint64_t)nodeCount * MANI_GRAPH_NODE_SIZE != sec[3].size)
        return mani_FileResult(mani_errorFormat, info + 8);
    if (parameterCount > MANI_MAX_GRAPH_PARAMETERS || (uint64_t)parameterCount * MANI_GRAPH_PARAMETER_SIZE != sec[1].size)
        return mani_FileResult(mani_errorFormat, info + 12);
    if (clipCount > MANI_MAX_GRAPH_CLIPS || (uint64_t)clipCount * MANI_GRAPH_CLIP_SIZE != sec[2].size) return mani_FileResult(mani_errorFormat, info + 16);
    if (slotCount == 0 || slotCount > nodeCount) return mani_FileResult(mani_errorFormat, info + 20);
    if ((uint64_t)inputTotal * MANI_GRAPH_INPUT_SIZE != sec[4].size) return mani_FileResult(mani_errorFormat, info + 24);
    if (namesSize != sec[5].size) return mani_FileResult(mani_errorFormat, info + 28);
    const uint64_t mirrorIdentity = mcore_ReadU64(b + info + 32);
    const uint32_t databaseCount = mcore_ReadU32(b + info + 40), modelCount = mcore_ReadU32(b + info + 44);
    const uint32_t springSetCount = mcore_ReadU32(b + info + 48), mapCount = mcore_ReadU32(b + info + 52);
    const uint32_t databaseClips = mcore_ReadU32(b + info + 56);
    if (databaseCount > MANI_MAX_GRAPH_CLIPS) return mani_FileResult(mani_errorFormat, info + 40);
    if (modelCount > MANI_MAX_GRAPH_CLIPS || (uint64_t)modelCount * MANI_GRAPH_SLOT_SIZE != sec[8].size)
        return mani_FileResult(mani_errorFormat, info + 44);
    if (springSetCount > MANI_MAX_GRAPH_CLIPS || (uint64_t)springSetCount * MANI_GRAPH_SLOT_SIZE != sec[9].size)
        return mani_FileResult(mani_errorFormat, info + 48);
    if (mapCount > MANI_MAX_GRAPH_RETARGET_MAPS || mapCount > clipCount ||
        (uint64_t)mapCount * MANI_GRAPH_SLOT_SIZE != sec[10].size)
        return mani_FileResult(mani_errorFormat, info + 52);
    if ((uint64_t)databaseCount * MANI_GRAPH_DATABASE_SIZE + 4u * (uint64_t)databaseClips != sec[7].size)
        return mani_FileResult(mani_errorFormat, info + 56);
    for (uint64_t i = 60; i < MANI_GRAPH_INFO_SIZE; ++i)
        if (b[info + i] != 0) return mani_FileResult(mani_errorFormat, info + i);
    const uint64_t params = sec[1].offset, clips = sec[2].offset, nodes = sec[3].offset, inputs = sec[4].offset;
    const uint64_t names = sec[5].offset, masks = sec[6].offset, databases = sec[7].offset, models = sec[8].offset;
    const uint64_t springSets = sec[9].offset, maps = sec[10].offset;
    /* Masks: a header of the mask count and the bone count (1 to
     * MANI_MAX_BONES), then each mask's bone weights in [0, 1]. */
    if (sec[6].size < MANI_GRAPH_MASKS_HEADER) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(6));
    const uint32_t maskCount = mcore_ReadU32(b + masks), maskBones = mcore_ReadU32(b + masks + 4);
    if (maskCount > nodeCount) return mani_FileResult(mani_errorFormat, masks);
    if (maskBones == 0 || maskBones > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, masks + 4);
    for (uint64_t i = 8; i < MANI_GRAPH_MASKS_HEADER; ++i)
        if (b[masks + i] != 0) return mani_FileResult(mani_errorFormat, masks + i);
    if (sec[6].size != MANI_GRAPH_MASKS_HEADER + 4u * (uint64_t)maskCount * maskBones)
        return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(6));
    for (uint64_t i = 0; i < (uint64_t)maskCount * maskBones; ++i) {
        const uint64_t at = masks + MANI_GRAPH_MASKS_HEADER + 4u * i;
        const float w = mcore_ReadF32(b + at);
        if (!(w >= 0.0f && w <= 1.0f)) return mani_FileResult(mani_errorFormat, at);
    }

    /* Parameters: a known type, a name, a finite default; names unique. */
    for (uint32_t p = 0; p < parameterCount; ++p) {
        const uint64_t at = params + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * p;
        if (mcore_ReadU32(b + at) >= MANI_GRAPH_PARAMETER_TYPE_COUNT) return mani_FileResult(mani_errorFormat, at);
        const uint64_t bad = mani_CheckGraphName(b, at + 4, names, namesSize);
        if (bad != 0) return mani_FileResult(mani_errorFormat, bad);
        for (uint64_t i = 12; i < 16; ++i)
            if (b[at + i] != 0) return mani_FileResult(mani_errorFormat, at + i);
        for (uint32_t k = 0; k < 4; ++k)
            if (!isfinite(mcore_ReadF32(b + at + 16 + 4 * k))) return mani_FileResult(mani_errorFormat, at + 16 + 4 * k);
        const uint32_t off = mcore_ReadU32(b + at + 4), len = mcore_ReadU32(b + at + 8);
        for (uint32_t q = 0; q < p; ++q) {
            const uint64_t e = params + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * q;
            if (mcore_ReadU32(b + e + 8) == len && memcmp(b + names + mcore_ReadU32(b + e + 4), b + names + off, len) == 0)
                return mani_FileResult(mani_errorFormat, at + 4);
        }
    }
    /* Clip slots: a name; a map slot or none, the maps numbered in the order
     * the slots first name them. */
    uint32_t nextMap = 0;
    for (uint32_t k = 0; k < clipCount; ++k) {
        const uint64_t at = clips + (uint64_t)MANI_GRAPH_CLIP_SIZE * k;
        const uint64_t bad = mani_CheckGraphName(b, at + 8, names, namesSize);
        if (bad != 0) return mani_FileResult(mani_errorFormat, bad);
        const uint32_t map = mcore_ReadU32(b + at + 16);
        if (map != MANI_NO_TRACK && map > nextMap) return mani_FileResult(mani_errorFormat, at + 16);
        if (map == nextMap) ++nextMap;
        if (mcore_ReadU32(b + at + 20) != 0) return mani_FileResult(mani_errorFormat, at + 20);
    }
    if (nextMap != mapCount) return mani_FileResult(mani_errorFormat, info + 52);
    /* Map slots: distinct maps, identities not 0. */
    for (uint32_t m = 0; m < mapCount; ++m) {
        const uint64_t at = maps + (uint64_t)MANI_GRAPH_SLOT_SIZE * m;
        const uint64_t identity = mcore_ReadU64(b + at);
        if (identity == 0) return mani_FileResult(mani_errorFormat, at);
        for (uint32_t e = 0; e < m; ++e)
            if (mcore_ReadU64(b + maps + (uint64_t)MANI_GRAPH_SLOT_SIZE * e) == identity)
                return mani_FileResult(mani_errorFormat, at);
        if (mcore_ReadU64(b + at + 8) == 0) return mani_FileResult(mani_errorFormat, at + 8);
    }
    /* Database slots: an identity, a name (unique among them), the clip
     * slots listed in order covering the list, each a slot of the graph's
     * skeleton; model and spring set slots: an identity and a unique name. */
    uint64_t nextListed = 0;
    const uint64_t list = databases + (uint64_t)MANI_GRAPH_DATABASE_SIZE * databaseCount;
    for (uint32_t d = 0; d < databaseCount; ++d) {
        const uint64_t at = databases + (uint64_t)MANI_GRAPH_DATABASE_SIZE * d;
        const uint64_t bad = mani_CheckGraphSlot(b, databases, MANI_GRAPH_DATABASE_SIZE, d, names, namesSize);
        if (bad != 0) return mani_FileResult(mani_errorFormat, bad);
        if (mcore_ReadU32(b + at + 16) != nextListed) return mani_FileResult(mani_errorFormat, at + 16);
        const uint32_t count = mcore_ReadU32(b + at + 20);
        if (count > databaseClips - nextListed) return mani_FileResult(mani_errorFormat, at + 20);
        for (uint32_t i = 0; i < count; ++i) {
            const uint64_t e = list + 4u * (nextListed + i);
            const uint32_t slot = mcore_ReadU32(b + e);
            if (slot >= clipCount || mcore_ReadU32(b + clips + (uint64_t)MANI_GRAPH_CLIP_SIZE * slot + 16) != MANI_NO_TRACK)
                return mani_FileResult(mani_errorFormat, e);
        }
        nextListed += count;
    }
    if (nextListed != databaseClips) return mani_FileResult(mani_errorFormat, info + 56);
    for (uint32_t m = 0; m < modelCount; ++m) {
        const uint64_t bad = mani_CheckGraphSlot(b, models, MANI_GRAPH_SLOT_SIZE, m, names, namesSize);
        if (bad != 0) return mani_FileResult(mani_errorFormat, bad);
    }
    for (uint32_t k = 0; k < springSetCount; ++k) {
        const uint64_t bad = mani_CheckGraphSlot(b, springSets, MANI_GRAPH_SLOT_SIZE, k, names, namesSize);
        if (bad != 0) return mani_FileResult(mani_errorFormat, bad);
    }
    /* Nodes: a kind this format holds, known flags, source places distinct
     * and within the count, a pose slot within the slots, inputs in order
     * covering the input list, as many as the kind takes, each before its
     * node, weights of float parameters on blends (none elsewhere); the
     * index and number words the kind's (docs/formats.md, "Graph"). */
    uint64_t nextInput = 0;
    uint32_t mirrors = 0, nextMask = 0;
    for (uint32_t n = 0; n < nodeCount; ++n) {
        const uint64_t at = nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * n;
        const uint32_t kind = mcore_ReadU32(b + at);
        if (!mani_GraphKindInFormat(kind)) return mani_FileResult(mani_errorFormat, at);
        mirrors += kind == maniGraphNodeMirror;
        const uint32_t flags = mcore_ReadU32(b + at + 4);
        if ((flags & ~MANI_GRAPH_NODE_FLAGS) != 0 || (kind != maniGraphNodeBlend && (flags & MANI_GRAPH_NODE_DIRECT) != 0))
            return mani_FileResult(mani_errorFormat, at + 4);
        const uint32_t place = mcore_ReadU32(b + at + 8);
        if (place >= nodeCount) return mani_FileResult(mani_errorFormat, at + 8);
        for (uint32_t m = 0; m < n; ++m)
            if (mcore_ReadU32(b + nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * m + 8) == place)
                return mani_FileResult(mani_errorFormat, at + 8);
        if (mcore_ReadU32(b + at + 12) >= slotCount) return mani_FileResult(mani_errorFormat, at + 12);
        const uint32_t first = mcore_ReadU32(b + at + 16), count = mcore_ReadU32(b + at + 20);
        if (first != nextInput) return mani_FileResult(mani_errorFormat, at + 16);
        uint32_t least = 0, most = 0;
        mani_GraphInputBounds(kind, &least, &most);
        if (count < least || count > most || count > inputTotal - first) return mani_FileResult(mani_errorFormat, at + 20);
        nextInput += count;
        for (uint32_t i = 0; i < count; ++i) {
            const uint64_t e = inputs + MANI_GRAPH_INPUT_SIZE * ((uint64_t)first + i);
            if (mcore_ReadU32(b + e) >= n) return mani_FileResult(mani_errorFormat, e);
            const uint32_t w = mcore_ReadU32(b + e + 4);
            const int fits = kind == maniGraphNodeBlend
                                 ? w < parameterCount && mcore_ReadU32(b + params + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * w) ==
                                                             maniGraphParameterFloat
                                 : w == MANI_NO_PARAMETER;
            if (!fits) return mani_FileResult(mani_errorFormat, e + 4);
        }
        /* The index word: a clip slot, a parameter of the kind's type (or
         * none where a constant stands for it), else 0; the number word:
         * the kind's constant, else 0. */
        const uint32_t index = mcore_ReadU32(b + at + 24);
        const float number = mcore_ReadF32(b + at + 28);
        const uint32_t numberBits = mcore_ReadU32(b + at + 28);
        const uint32_t type = index < parameterCount ? mcore_ReadU32(b + params + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * index)
                                                     : MANI_GRAPH_PARAMETER_TYPE_COUNT;
        int indexOk = 1, numberOk = 1;
        switch (kind) {
        case maniGraphNodeClip:
            indexOk = index < clipCount;
            numberOk = isfinite(number) && fabsf(number) <= MANI_MAX_GRAPH_TIME_FACTOR;
            break;
        case maniGraphNodeSelect:
            indexOk = type == maniGraphParameterFloat || type == maniGraphParameterBool;
            numberOk = numberBits == 0;
            break;
        case maniGraphNodeTimeScale:
            indexOk = index == MANI_NO_PARAMETER || type == maniGraphParameterFloat;
            numberOk = index == MANI_NO_PARAMETER ? isfinite(number) && fabsf(number) <= MANI_MAX_GRAPH_TIME_FACTOR
                                                  : numberBits == 0;
            break;
        case maniGraphNodeSeek:
            indexOk = type == maniGraphParameterTrigger;
            numberOk = isfinite(number) && number >= 0.0f;
            break;
        case maniGraphNodeAdditive:
            indexOk = index == MANI_NO_PARAMETER || type == maniGraphParameterFloat;
            numberOk = index == MANI_NO_PARAMETER ? number >= 0.0f && number <= 1.0f : numberBits == 0;
            break;
        case maniGraphNodeSpace1D:
        case maniGraphNodeSpaceBanded:
        case maniGraphNodeSpaceTriangulated:
            indexOk = type == maniGraphParameterFloat;
            numberOk = numberBits == 0;
            break;
        case maniGraphNodePose:
            indexOk = type == maniGraphParameterPose;
            numberOk = numberBits == 0;
            break;
        case maniGraphNodeMask:
            indexOk = index == nextMask++;
            numberOk = numberBits == 0;
            break;
        case maniGraphNodeOneShot:
            indexOk = type == maniGraphParameterTrigger;
            numberOk = numberBits == 0;
            break;
        case maniGraphNodeInertialize:
            indexOk = index == MANI_NO_PARAMETER || type == maniGraphParameterTrigger;
            numberOk = numberBits == 0;
            break;
        default: /* blend, mirror */
            indexOk = index == 0;
            numberOk = numberBits == 0;
            break;
        }
        if (!indexOk) return mani_FileResult(mani_errorFormat, at + 24);
        if (!numberOk) return mani_FileResult(mani_errorFormat, at + 28);
        /* Differences: an additive a pose over a pose base and a difference,
         * a pose node a pose, the others (but clips, whose clips the file
         * does not hold) what all their inputs give. */
        const uint32_t difference = flags & MANI_GRAPH_NODE_DIFFERENCE;
        for (uint32_t i = 0; i < count && kind != maniGraphNodeClip; ++i) {
            const uint64_t e = inputs + MANI_GRAPH_INPUT_SIZE * ((uint64_t)first + i);
            const uint32_t in = mcore_ReadU32(b + e);
            const uint32_t given = mcore_ReadU32(b + nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * in + 4) & MANI_GRAPH_NODE_DIFFERENCE;
            const uint32_t wanted = kind == maniGraphNodeAdditive ? (i == 0 ? 0u : MANI_GRAPH_NODE_DIFFERENCE)
                                    : kind == maniGraphNodeOneShot || kind == maniGraphNodeInertialize ? 0u
                                                                                                       : difference;
            if (given != wanted) return mani_FileResult(mani_errorFormat, e);
        }
        if ((kind == maniGraphNodeAdditive || kind == maniGraphNodePose || kind == maniGraphNodeOneShot ||
             kind == maniGraphNodeInertialize) &&
            difference != 0)
            return mani_FileResult(mani_errorFormat, at + 4);
    }
    if (nextInput != inputTotal) return mani_FileResult(mani_errorFormat, info + 24);
    /* The output gives a pose, unmirrored; each input is mirrored as its
     * reader is, flipped by a mirror reader; a mirror map with mirror
     * nodes. */
    const uint64_t last = nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * (nodeCount - 1);
    if ((mcore_ReadU32(b + last + 4) & (MANI_GRAPH_NODE_DIFFERENCE | MANI_GRAPH_NODE_MIRRORED)) != 0)
        return mani_FileResult(mani_errorFormat, last + 4);
    for (uint32_t n = 0; n < nodeCount; ++n) {
        const uint64_t at = nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * n;
        const uint32_t kind = mcore_ReadU32(b + at), first = mcore_ReadU32(b + at + 16), count = mcore_ReadU32(b + at + 20);
        const uint32_t given = (mcore_ReadU32(b + at + 4) & MANI_GRAPH_NODE_MIRRORED) ^
                               (kind == maniGraphNodeMirror ? MANI_GRAPH_NODE_MIRRORED : 0u);
        for (uint32_t i = 0; i < count; ++i) {
            const uint64_t e = inputs + MANI_GRAPH_INPUT_SIZE * ((uint64_t)first + i);
            const uint32_t in = mcore_ReadU32(b + e);
            if ((mcore_ReadU32(b + nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * in + 4) & MANI_GRAPH_NODE_MIRRORED) != given)
                return mani_FileResult(mani_errorFormat, e);
        }
    }
    if (mirrors != 0 && mirrorIdentity == 0) return mani_FileResult(mani_errorFormat, info + 32);
    if (nextMask != maskCount) return mani_FileResult(mani_errorFormat, masks);
    /* The output (the last node) reads every other: each node but the last
     * read by a later one. */
    for (uint32_t n = 0; n + 1 < nodeCount; ++n) {
        int read = 0;
        for (uint64_t e = 0; e < inputTotal && !read; ++e)
            read = mcore_ReadU32(b + inputs + MANI_GRAPH_INPUT_SIZE * e) == n;
        if (!read) return mani_FileResult(mani_errorFormat, nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * n);
    }
    /* Node data: a directory entry a node (its words taken in order), then
     * the words, each node's checked by its kind; a kind without data none. */
    const uint64_t data = sec[11].offset, dataSize = sec[11].size;
    const uint64_t directory = (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * nodeCount;
    if (dataSize < directory || (dataSize - directory) % 4u != 0 || (dataSize - directory) / 4u > UINT32_MAX)
        return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(11));
    const uint32_t dataWords = (uint32_t)((dataSize - directory) / 4u);
    uint64_t nextWord = 0;
    for (uint32_t n = 0; n < nodeCount; ++n) {
        const uint64_t at = data + (uint64_t)MANI_GRAPH_DATA_ENTRY_SIZE * n;
        const uint64_t node = nodes + (uint64_t)MANI_GRAPH_NODE_SIZE * n;
        const uint32_t first = mcore_ReadU32(b + at), count = mcore_ReadU32(b + at + 4);
        if (first != nextWord) return mani_FileResult(mani_errorFormat, at);
        if (count > dataWords - first) return mani_FileResult(mani_errorFormat, at + 4);
        const uint64_t words = data + directory + 4u * (uint64_t)first;
        uint64_t bad = 0;
        switch (mcore_ReadU32(b + node)) {
        case maniGraphNodeStateMachine:
            bad = mani_CheckGraphMachineData(b, words, count, at + 4, mcore_ReadU32(b + node + 20), b + params,
                                             parameterCount);
            break;
        case maniGraphNodeSpace1D:
        case maniGraphNodeSpaceBanded:
        case maniGraphNodeSpaceTriangulated:
            bad = mani_CheckGraphSpaceData(b, mcore_ReadU32(b + node), words, count, at + 4,
                                           mcore_ReadU32(b + node + 20), b + params, parameterCount);
            break;
        case maniGraphNodeOneShot:
            bad = mani_CheckGraphOneShotData(b, words, count, at + 4, maskBones, b + params, parameterCount);
            break;
        case maniGraphNodeInertialize: bad = mani_CheckGraphInertializeData(b, words, count, at + 4); break;
        default:
            if (count != 0) bad = at + 4;
            break;
        }
        if (bad != 0) return mani_FileResult(mani_errorFormat, bad);
        nextWord += count;
    }
    if (nextWord != dataWords) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(11));

    maniGraph v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skeletonIdentity = skeletonIdentity;
    v.opened = MANI_GRAPH_OPENED;
    v.nodeCount = nodeCount;
    v.parameterCount = parameterCount;
    v.clipCount = clipCount;
    v.poseSlotCount = slotCount;
    v.inputTotal = inputTotal;
    v.parameters = params;
    v.clips = clips;
    v.nodes = nodes;
    v.inputs = inputs;
    v.names = names;
    v.namesSize = namesSize;
    v.mirrorIdentity = mirrorIdentity;
    v.masks = masks;
    v.maskCount = maskCount;
    v.maskBones = maskBones;
    v.databaseCount = databaseCount;
    v.modelCount = modelCount;
    v.springSetCount = springSetCount;
    v.mapCount = mapCount;
    v.databaseClipTotal = databaseClips;
    v.databases = databases;
    v.models = models;
    v.springSets = springSets;
    v.maps = maps;
    v.nodeData = data;
    v.nodeDataWords = dataWords;
    *out = v;
    return mani_FileResult(mani_success, 0);
}
