/* maniWriteGraphJson and maniBuildGraphJson: a graph source's JSON text form
 * (graphbuild.h), written and read with lib/core/json. */
#include <string.h>

#include "lib/anim/src/build/form_json_internal.h"
#include "lib/anim/src/build/graph_json_internal.h"

#define MANI_GRAPH_FORM_NAME "maul-anim graph"
#define MANI_GRAPH_FORM_VERSION 1u

/* Keywords by maniGraphParameterType and by the node kinds the form takes. */
static const char* const maniGraphTypeNames[MANI_GRAPH_PARAMETER_TYPE_COUNT] = {"float",  "bool",       "trigger",
                                                                               "vector", "quaternion", "pose"};
static const char* const maniGraphKindNames[MANI_GRAPH_NODE_KIND_COUNT] = {
    "clip",       "blend",        "mask",        "additive",   "select",      "timeScale", "seek",
    "space1D",    "spaceBanded",  "spaceTriangulated", "stateMachine", "oneShot", "inertialize", "mirror",
    "pose",       "ik",           "spring",      "motionMatch", "learned"};

/* Keywords of a state machine's transitions and conditions, by their
 * enumerations' values. */
static const char* const maniGraphInterruptionNames[4] = {"none", "source", "destination", "both"};
static const char* const maniGraphEntryNames[2] = {"restart", "continue"};
static const char* const maniGraphFadeNames[MANI_GRAPH_FADE_CURVE_COUNT] = {"linear", "easeIn", "easeOut",
                                                                           "easeInOut"};
static const char* const maniGraphInertializationNames[MANI_GRAPH_INERTIALIZATION_METHOD_COUNT] = {
    "inertialization", "deadBlending"};
static const char* const maniGraphConditionNames[MANI_GRAPH_CONDITION_KIND_COUNT] = {
    "greater", "less", "greaterEqual", "lessEqual", "equal", "notEqual",
    "true",    "false", "trigger",     "time",      "exitTime", "finished"};

/* Whether a condition kind reads a parameter, and a value. */
static int mani_ConditionReads(uint32_t kind) { return kind <= maniGraphConditionTrigger; }
static int mani_ConditionCounts(uint32_t kind) {
    return kind <= maniGraphConditionNotEqual || kind == maniGraphConditionTime || kind == maniGraphConditionExitTime;
}

static maniBuildResult mani_JsonOk(void) { return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0); }

/* -- Writing ---------------------------------------------------------------------- */

static void mani_WriteGraphParameter(mcore_JsonWriter* w, const maniGraphParameterSource* p) {
    mcore_JsonWriteBeginObject(w);
    mani_FormWriteKeyString(w, "name", p->name, p->nameLength);
    const char* type = maniGraphTypeNames[p->type];
    mani_FormWriteKeyString(w, "type", type, strlen(type));
    switch (p->type) {
    case maniGraphParameterFloat:
        mcore_JsonWriteKey(w, "value", 5);
        mcore_JsonWriteFloat(w, p->value.number);
        break;
    case maniGraphParameterBool: mani_FormWriteBool(w, "value", p->value.flag != 0); break;
    case maniGraphParameterVector: mani_FormWriteFloats(w, "value", &p->value.vector.x, 3); break;
    case maniGraphParameterQuaternion: mani_FormWriteFloats(w, "value", &p->value.rotation.x, 4); break;
    default: break; /* triggers and poses: no value */
    }
    mcore_JsonWriteEndObject(w);
}

static void mani_WriteGraphParameterName(mcore_JsonWriter* w, const maniGraphSource* src, uint32_t p) {
    mcore_JsonWriteString(w, src->parameters[p].name, src->parameters[p].nameLength);
}

/* A number member that a parameter may stand for: the number, or
 * {"parameter": name}. */
static void mani_WriteGraphNumberOrParameter(mcore_JsonWriter* w, const char* key, const maniGraphSource* src,
                                             uint32_t parameter, float number) {
    mcore_JsonWriteKey(w, key, strlen(key));
    if (parameter == MANI_NO_PARAMETER) {
        mcore_JsonWriteFloat(w, number);
        return;
    }
    mcore_JsonWriteBeginObject(w);
    mcore_JsonWriteKey(w, "parameter", 9);
    mani_WriteGraphParameterName(w, src, parameter);
    mcore_JsonWriteEndObject(w);
}

/* A mask's "chains" and "defaultWeight" (a mask node's, a masked
 * one-shot's "mask"). */
static void mani_WriteGraphMaskChains(mcore_JsonWriter* w, const maniGraphSource* src, const maniGraphNodeSource* node) {
    mcore_JsonWriteKey(w, "chains", 6);
    mcore_JsonWriteBeginArray(w);
    for (uint32_t c = 0; c < node->chainCount; ++c) {
        mcore_JsonWriteBeginObject(w);
        mani_FormWriteBoneName(w, "bone", src->skeleton, node->chains[c].bone);
        mcore_JsonWriteKey(w, "weight", 6);
        mcore_JsonWriteFloat(w, node->chains[c].weight);
        mani_FormWriteBool(w, "subtree", node->chains[c].subtree);
        mcore_JsonWriteEndObject(w);
    }
    mcore_JsonWriteEndArray(w);
    mcore_JsonWriteKey(w, "defaultWeight", 13);
    mcore_JsonWriteFloat(w, node->defaultWeight);
}

static void mani_WriteGraphNode(mcore_JsonWriter* w, const maniGraphSource* src, const maniGraphNodeSource* node) {
    mcore_JsonWriteBeginObject(w);
    const char* kind = maniGraphKindNames[node->kind];
    mani_FormWriteKeyString(w, "kind", kind, strlen(kind));
    if (node->kind == maniGraphNodeClip) {
        const maniGraphClipSource* slot = &src->clips[node->clip];
        mani_FormWriteKeyString(w, "clip", slot->name, slot->nameLength);
        mcore_JsonWriteKey(w, "speed", 5);
        mcore_JsonWriteFloat(w, node->speed);
    }
    if (node->inputCount != 0) {
        mcore_JsonWriteKey(w, "inputs", 6);
        mcore_JsonWriteBeginArray(w);
        for (uint32_t i = 0; i < node->inputCount; ++i) mcore_JsonWriteUint64(w, node->inputs[i]);
        mcore_JsonWriteEndArray(w);
    }
    switch (node->kind) {
    case maniGraphNodeBlend:
        mcore_JsonWriteKey(w, "weights", 7);
        mcore_JsonWriteBeginArray(w);
        for (uint32_t i = 0; i < node->inputCount; ++i) mani_WriteGraphParameterName(w, src, node->parameters[i]);
        mcore_JsonWriteEndArray(w);
        mani_FormWriteBool(w, "direct", node->direct);
        break;
    case maniGraphNodeAdditive:
        mani_WriteGraphNumberOrParameter(w, "weight", src, node->parameter, node->weight);
        break;
    case maniGraphNodeMask: mani_WriteGraphMaskChains(w, src, node); break;
    case maniGraphNodeOneShot: {
        mcore_JsonWriteKey(w, "trigger", 7);
        mani_WriteGraphParameterName(w, src, node->parameter);
        if (node->fadeOutTrigger != MANI_NO_PARAMETER) {
            mcore_JsonWriteKey(w, "fadeOutTrigger", 14);
            mani_WriteGraphParameterName(w, src, node->fadeOutTrigger);
        }
        if (node->abortTrigger != MANI_NO_PARAMETER) {
            mcore_JsonWriteKey(w, "abort", 5);
            mani_WriteGraphParameterName(w, src, node->abortTrigger);
        }
        const char* word = maniGraphFadeNames[node->curve];
        mani_FormWriteKeyString(w, "curve", word, strlen(word));
        mcore_JsonWriteKey(w, "fadeIn", 6);
        mcore_JsonWriteFloat(w, node->fadeIn);
        mcore_JsonWriteKey(w, "fadeOut", 7);
        mcore_JsonWriteFloat(w, node->fadeOut);
        if (node->masked) {
            mcore_JsonWriteKey(w, "mask", 4);
            mcore_JsonWriteBeginObject(w);
            mani_WriteGraphMaskChains(w, src, node);
            mcore_JsonWriteEndObject(w);
        }
        break;
    }
    case maniGraphNodeInertialize: {
        if (node->parameter != MANI_NO_PARAMETER) {
            mcore_JsonWriteKey(w, "trigger", 7);
            mani_WriteGraphParameterName(w, src, node->parameter);
        }
        const char* word = maniGraphInertializationNames[node->method];
        mani_FormWriteKeyString(w, "method", word, strlen(word));
        mcore_JsonWriteKey(w, "duration", 8);
        mcore_JsonWriteFloat(w, node->duration);
        mcore_JsonWriteKey(w, "halfLifeScale", 13);
        mcore_JsonWriteFloat(w, node->halfLifeScale);
        mcore_JsonWriteKey(w, "halfLifeMin", 11);
        mcore_JsonWriteFloat(w, node->halfLifeMin);
        mcore_JsonWriteKey(w, "halfLifeMax", 11);
        mcore_JsonWriteFloat(w, node->halfLifeMax);
        break;
    }
    case maniGraphNodeTimeScale:
        mani_WriteGraphNumberOrParameter(w, "factor", src, node->parameter, node->factor);
        break;
    case maniGraphNodeSeek:
        mcore_JsonWriteKey(w, "trigger", 7);
        mani_WriteGraphParameterName(w, src, node->parameter);
        mcore_JsonWriteKey(w, "time", 4);
        mcore_JsonWriteFloat(w, node->time);
        break;
    case maniGraphNodeSelect:
    case maniGraphNodePose:
        mcore_JsonWriteKey(w, "parameter", 9);
        mani_WriteGraphParameterName(w, src, node->parameter);
        break;
    case maniGraphNodeStateMachine:
        mcore_JsonWriteKey(w, "entry", 5);
        mcore_JsonWriteUint64(w, node->entry);
        mcore_JsonWriteKey(w, "chainLimit", 10);
        mcore_JsonWriteUint64(w, node->chainLimit);
        mcore_JsonWriteKey(w, "transitions", 11);
        mcore_JsonWriteBeginArray(w);
        for (uint32_t t = 0; t < node->transitionCount; ++t) {
            const maniGraphTransitionSource* tr = &node->transitions[t];
            mcore_JsonWriteBeginObject(w);
            if (tr->from == MANI_GRAPH_NONE) {
                mani_FormWriteKeyString(w, "from", "any", 3);
            } else {
                mcore_JsonWriteKey(w, "from", 4);
                mcore_JsonWriteUint64(w, tr->from);
            }
            mcore_JsonWriteKey(w, "to", 2);
            mcore_JsonWriteUint64(w, tr->to);
            mcore_JsonWriteKey(w, "priority", 8);
            mcore_JsonWriteUint64(w, tr->priority);
            const char* word = maniGraphInterruptionNames[tr->interruption];
            mani_FormWriteKeyString(w, "interruption", word, strlen(word));
            word = maniGraphEntryNames[tr->entry];
            mani_FormWriteKeyString(w, "entry", word, strlen(word));
            word = maniGraphFadeNames[tr->fade];
            mani_FormWriteKeyString(w, "fade", word, strlen(word));
            mcore_JsonWriteKey(w, "duration", 8);
            mcore_JsonWriteFloat(w, tr->duration);
            mcore_JsonWriteKey(w, "cooldown", 8);
            mcore_JsonWriteFloat(w, tr->cooldown);
            mcore_JsonWriteKey(w, "conditions", 10);
            mcore_JsonWriteBeginArray(w);
            for (uint32_t k = 0; k < tr->conditionCount; ++k) {
                const maniGraphConditionSource* c = &tr->conditions[k];
                mcore_JsonWriteBeginObject(w);
                word = maniGraphConditionNames[c->kind];
                mani_FormWriteKeyString(w, "kind", word, strlen(word));
                if (mani_ConditionReads(c->kind)) {
                    mcore_JsonWriteKey(w, "parameter", 9);
                    mani_WriteGraphParameterName(w, src, c->parameter);
                }
                if (mani_ConditionCounts(c->kind)) {
                    mcore_JsonWriteKey(w, "value", 5);
                    mcore_JsonWriteFloat(w, c->value);
                }
                mcore_JsonWriteEndObject(w);
            }
            mcore_JsonWriteEndArray(w);
            mcore_JsonWriteEndObject(w);
        }
        mcore_JsonWriteEndArray(w);
        mcore_JsonWriteKey(w, "finals", 6);
        mcore_JsonWriteBeginArray(w);
        for (uint32_t f = 0; f < node->finalCount; ++f) mcore_JsonWriteUint64(w, node->finals[f]);
        mcore_JsonWriteEndArray(w);
        break;
    case maniGraphNodeSpace1D:
    case maniGraphNodeSpaceBanded:
    case maniGraphNodeSpaceTriangulated: {
        const int planar = node->kind != maniGraphNodeSpace1D;
        mcore_JsonWriteKey(w, "parameter", 9);
        mani_WriteGraphParameterName(w, src, node->parameter);
        if (planar) {
            mcore_JsonWriteKey(w, "parameterY", 10);
            mani_WriteGraphParameterName(w, src, node->parameterY);
        }
        mcore_JsonWriteKey(w, "positions", 9);
        mcore_JsonWriteBeginArray(w);
        for (uint32_t i = 0; i < node->inputCount; ++i) {
            mcore_JsonWriteBeginObject(w);
            mcore_JsonWriteKey(w, "x", 1);
            mcore_JsonWriteFloat(w, node->points[i].x);
            if (planar) {
                mcore_JsonWriteKey(w, "y", 1);
                mcore_JsonWriteFloat(w, node->points[i].y);
            }
            mcore_JsonWriteEndObject(w);
        }
        mcore_JsonWriteEndArray(w);
        if (node->kind == maniGraphNodeSpace1D) {
            mcore_JsonWriteKey(w, "period", 6);
            mcore_JsonWriteFloat(w, node->period);
        } else if (node->kind == maniGraphNodeSpaceBanded) {
            mani_FormWriteBool(w, "polar", node->polar);
        } else {
            mcore_JsonWriteKey(w, "triangles", 9);
            mcore_JsonWriteBeginArray(w);
            for (uint32_t t = 0; t < node->triangleCount; ++t) {
                mcore_JsonWriteBeginArray(w);
                for (uint32_t k = 0; k < 3; ++k) mcore_JsonWriteUint64(w, node->triangles[3u * t + k]);
                mcore_JsonWriteEndArray(w);
            }
            mcore_JsonWriteEndArray(w);
        }
        break;
    }
    default: break; /* clip (above), mirror */
    }
    mcore_JsonWriteEndObject(w);
}

/* A list of slots by name ([{"name"}]), left out when empty. Each slot
 * source begins with its name and length. */
static void mani_WriteGraphSlotNames(mcore_JsonWriter* w, const char* key, const void* slots, size_t stride,
                                     uint32_t count) {
    if (count == 0) return;
    mcore_JsonWriteKey(w, key, strlen(key));
    mcore_JsonWriteBeginArray(w);
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t* slot = (const uint8_t*)slots + stride * i;
        mcore_JsonWriteBeginObject(w);
        mani_FormWriteKeyString(w, "name", *(const char* const*)slot, *(const size_t*)(slot + sizeof(const char*)));
        mcore_JsonWriteEndObject(w);
    }
    mcore_JsonWriteEndArray(w);
}

/* The text's own steps, once the graph built (the build checks everything
 * the writer reads: kinds, slots, weights). */
static maniBuildResult mani_WriteGraphText(maniBuilder* builder, const maniGraphSource* source) {
    const mcore_JsonAllocator allocator = mani_FormAllocator(builder);
    mcore_JsonWriter w;
    mcore_JsonWriterInit(&w, NULL, 0, &allocator);
    mcore_JsonWriteBeginObject(&w);
    mani_FormWriteKeyString(&w, "format", MANI_GRAPH_FORM_NAME, strlen(MANI_GRAPH_FORM_NAME));
    mcore_JsonWriteKey(&w, "version", 7);
    mcore_JsonWriteUint64(&w, MANI_GRAPH_FORM_VERSION);
    mcore_JsonWriteKey(&w, "parameters", 10);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t p = 0; p < source->parameterCount; ++p) mani_WriteGraphParameter(&w, &source->parameters[p]);
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "clips", 5);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t k = 0; k < source->clipCount; ++k) {
        mcore_JsonWriteBeginObject(&w);
        mani_FormWriteKeyString(&w, "name", source->clips[k].name, source->clips[k].nameLength);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    /* The asset slots' lists, each written only when the graph has slots
     * of its kind (the name layout is the same for all three). */
    mani_WriteGraphSlotNames(&w, "databases", source->databases, sizeof *source->databases, source->databaseCount);
    mani_WriteGraphSlotNames(&w, "models", source->models, sizeof *source->models, source->modelCount);
    mani_WriteGraphSlotNames(&w, "springSets", source->springSets, sizeof *source->springSets,
                             source->springSetCount);
    mcore_JsonWriteKey(&w, "nodes", 5);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t n = 0; n < source->nodeCount; ++n) mani_WriteGraphNode(&w, source, &source->nodes[n]);
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "output", 6);
    mcore_JsonWriteUint64(&w, source->output);
    mcore_JsonWriteEndObject(&w);
    return mani_FormKeepText(builder, &w);
}

maniBuildResult maniWriteGraphJson(maniBuilder* builder, const maniGraphSource* source) {
    /* "A source maniBuildGraph refuses is refused the same way" and, as every
     * build, the builder keeps what it held on failure: the graph is built
     * with the held file taken out, so a text that then runs out of memory
     * gives the held file back rather than leaving the graph. */
    if (builder == NULL || builder->busy || builder->destroying) return maniBuildGraph(builder, source);
    mani_BuilderHeld held;
    mani_BuilderTakeHeld(builder, &held);
    maniBuildResult r = maniBuildGraph(builder, source);
    if (r.result == mani_success) r = mani_WriteGraphText(builder, source);
    if (r.result == mani_success) {
        mani_BuilderDropTaken(builder, &held);
    } else {
        mani_BuilderPutBack(builder, &held);
    }
    return r;
}

/* -- Reading ---------------------------------------------------------------------- */

enum { maniGraphTopFormat, maniGraphTopVersion, maniGraphTopParameters, maniGraphTopClips, maniGraphTopDatabases,
       maniGraphTopModels, maniGraphTopSpringSets, maniGraphTopNodes, maniGraphTopOutput, maniGraphTopCount };

static const mcore_JsonFormKey maniGraphTopForm[maniGraphTopCount] = {
    {"format", MCORE_JSON_TAKES_STRING, 1},    {"version", MCORE_JSON_TAKES_NUMBER, 1},
    {"parameters", MCORE_JSON_TAKES_ARRAY, 0}, {"clips", MCORE_JSON_TAKES_ARRAY, 0},
    {"databases", MCORE_JSON_TAKES_ARRAY, 0},  {"models", MCORE_JSON_TAKES_ARRAY, 0},
    {"springSets", MCORE_JSON_TAKES_ARRAY, 0}, {"nodes", MCORE_JSON_TAKES_ARRAY, 1},
    {"output", MCORE_JSON_TAKES_NUMBER, 1},
};
static const mcore_JsonFormKey maniGraphParameterForm[3] = {
    {"name", MCORE_JSON_TAKES_STRING, 1},
    {"type", MCORE_JSON_TAKES_STRING, 1},
    {"value", MCORE_JSON_TAKES_NUMBER | MCORE_JSON_TAKES_BOOL | MCORE_JSON_TAKES_ARRAY, 0},
};
static const mcore_JsonFormKey maniGraphClipForm[1] = {{"name", MCORE_JSON_TAKES_STRING, 1}};
/* A node's kind first; then the form of its kind. */
static const mcore_JsonFormKey maniGraphClipNodeForm[3] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"clip", MCORE_JSON_TAKES_STRING, 1},
    {"speed", MCORE_JSON_TAKES_NUMBER, 0},
};
static const mcore_JsonFormKey maniGraphBlendNodeForm[4] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"weights", MCORE_JSON_TAKES_ARRAY, 1},
    {"direct", MCORE_JSON_TAKES_BOOL, 0},
};
static const mcore_JsonFormKey maniGraphAdditiveNodeForm[3] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"weight", MCORE_JSON_TAKES_NUMBER | MCORE_JSON_TAKES_OBJECT, 0},
};
static const mcore_JsonFormKey maniGraphMaskNodeForm[4] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"chains", MCORE_JSON_TAKES_ARRAY, 0},
    {"defaultWeight", MCORE_JSON_TAKES_NUMBER, 0},
};
static const mcore_JsonFormKey maniGraphOneShotNodeForm[9] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},           {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"trigger", MCORE_JSON_TAKES_STRING, 1},        {"fadeOutTrigger", MCORE_JSON_TAKES_STRING, 0},
    {"abort", MCORE_JSON_TAKES_STRING, 0},          {"curve", MCORE_JSON_TAKES_STRING, 0},
    {"fadeIn", MCORE_JSON_TAKES_NUMBER, 0},         {"fadeOut", MCORE_JSON_TAKES_NUMBER, 0},
    {"mask", MCORE_JSON_TAKES_OBJECT, 0},
};
static const mcore_JsonFormKey maniGraphInertializeNodeForm[8] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},          {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"trigger", MCORE_JSON_TAKES_STRING, 0},       {"method", MCORE_JSON_TAKES_STRING, 0},
    {"duration", MCORE_JSON_TAKES_NUMBER, 0},      {"halfLifeScale", MCORE_JSON_TAKES_NUMBER, 0},
    {"halfLifeMin", MCORE_JSON_TAKES_NUMBER, 0},   {"halfLifeMax", MCORE_JSON_TAKES_NUMBER, 0},
};
static const mcore_JsonFormKey maniGraphShotMaskForm[2] = {
    {"chains", MCORE_JSON_TAKES_ARRAY, 0},
    {"defaultWeight", MCORE_JSON_TAKES_NUMBER, 0},
};
static const mcore_JsonFormKey maniGraphMaskChainForm[3] = {
    {"bone", MCORE_JSON_TAKES_STRING, 1},
    {"weight", MCORE_JSON_TAKES_NUMBER, 1},
    {"subtree", MCORE_JSON_TAKES_BOOL, 0},
};
static const mcore_JsonFormKey maniGraphSelectNodeForm[3] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"parameter", MCORE_JSON_TAKES_STRING, 1},
};
static const mcore_JsonFormKey maniGraphTimeScaleNodeForm[3] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"factor", MCORE_JSON_TAKES_NUMBER | MCORE_JSON_TAKES_OBJECT, 0},
};
static const mcore_JsonFormKey maniGraphSeekNodeForm[4] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"trigger", MCORE_JSON_TAKES_STRING, 1},
    {"time", MCORE_JSON_TAKES_NUMBER, 0},
};
static const mcore_JsonFormKey maniGraphMirrorNodeForm[2] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
};
static const mcore_JsonFormKey maniGraphPoseNodeForm[2] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"parameter", MCORE_JSON_TAKES_STRING, 1},
};
static const mcore_JsonFormKey maniGraphMachineNodeForm[6] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},        {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"entry", MCORE_JSON_TAKES_NUMBER, 0},       {"chainLimit", MCORE_JSON_TAKES_NUMBER, 0},
    {"transitions", MCORE_JSON_TAKES_ARRAY, 0}, {"finals", MCORE_JSON_TAKES_ARRAY, 0},
};
static const mcore_JsonFormKey maniGraphTransitionForm[9] = {
    {"from", MCORE_JSON_TAKES_NUMBER | MCORE_JSON_TAKES_STRING, 1},
    {"to", MCORE_JSON_TAKES_NUMBER, 1},
    {"priority", MCORE_JSON_TAKES_NUMBER, 0},
    {"interruption", MCORE_JSON_TAKES_STRING, 0},
    {"entry", MCORE_JSON_TAKES_STRING, 0},
    {"fade", MCORE_JSON_TAKES_STRING, 0},
    {"duration", MCORE_JSON_TAKES_NUMBER, 0},
    {"cooldown", MCORE_JSON_TAKES_NUMBER, 0},
    {"conditions", MCORE_JSON_TAKES_ARRAY, 0},
};
static const mcore_JsonFormKey maniGraphConditionForm[3] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},
    {"parameter", MCORE_JSON_TAKES_STRING, 0},
    {"value", MCORE_JSON_TAKES_NUMBER, 0},
};
/* A blend space's: its kind's members, in the order written. */
static const mcore_JsonFormKey maniGraphSpace1DNodeForm[5] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},      {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"parameter", MCORE_JSON_TAKES_STRING, 1}, {"positions", MCORE_JSON_TAKES_ARRAY, 1},
    {"period", MCORE_JSON_TAKES_NUMBER, 0},
};
static const mcore_JsonFormKey maniGraphSpaceBandedNodeForm[6] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},       {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"parameter", MCORE_JSON_TAKES_STRING, 1},  {"positions", MCORE_JSON_TAKES_ARRAY, 1},
    {"polar", MCORE_JSON_TAKES_BOOL, 0},        {"parameterY", MCORE_JSON_TAKES_STRING, 1},
};
static const mcore_JsonFormKey maniGraphSpaceTriangulatedNodeForm[6] = {
    {"kind", MCORE_JSON_TAKES_STRING, 1},       {"inputs", MCORE_JSON_TAKES_ARRAY, 1},
    {"parameter", MCORE_JSON_TAKES_STRING, 1},  {"positions", MCORE_JSON_TAKES_ARRAY, 1},
    {"triangles", MCORE_JSON_TAKES_ARRAY, 0},   {"parameterY", MCORE_JSON_TAKES_STRING, 1},
};
static const mcore_JsonFormKey maniGraphPositionForm[2] = {
    {"x", MCORE_JSON_TAKES_NUMBER, 1},
    {"y", MCORE_JSON_TAKES_NUMBER, 0},
};
static const mcore_JsonFormKey maniGraphParameterRefForm[1] = {{"parameter", MCORE_JSON_TAKES_STRING, 1}};

/* The reader: the document, the string arena and the source's lists (each
 * from the builder, sized by the text's lists; the node inputs and weights
 * from one pool of the document's token count each, which bounds them). */
typedef struct mani_GraphReader {
    mani_FormReader f;
    const maniGraphNamedAssets* assets;
    maniGraphParameterSource* parameters;
    maniGraphClipSource* clips;
    maniGraphDatabaseSource* databases;
    maniGraphModelSource* models;
    maniGraphSpringSetSource* springSets;
    maniGraphNodeSource* nodes;
    uint32_t* inputPool;
    uint32_t* weightPool;
    maniGraphMaskChain* chainPool;
    maniGraphTransitionSource* transitionPool;
    maniGraphConditionSource* conditionPool;
    maniGraphSpacePoint* pointPool;
    uint32_t* trianglePool;
    uint32_t transitionsUsed, conditionsUsed, pointsUsed, triangleWordsUsed;
    uint32_t parameterCount, clipCount, databaseCount, modelCount, springSetCount, nodeCount, poolSize, poolUsed,
        chainsUsed;
} mani_GraphReader;

static void mani_FreeGraphReader(mani_GraphReader* rd) {
    maniBuilder* b = rd->f.builder;
    if (rd->f.arena != NULL) mani_BuilderFree(b, rd->f.arena, rd->f.arenaSize);
    if (rd->parameters != NULL) mani_BuilderFree(b, rd->parameters, rd->parameterCount * sizeof *rd->parameters);
    if (rd->clips != NULL) mani_BuilderFree(b, rd->clips, rd->clipCount * sizeof *rd->clips);
    if (rd->databases != NULL) mani_BuilderFree(b, rd->databases, rd->databaseCount * sizeof *rd->databases);
    if (rd->models != NULL) mani_BuilderFree(b, rd->models, rd->modelCount * sizeof *rd->models);
    if (rd->springSets != NULL) mani_BuilderFree(b, rd->springSets, rd->springSetCount * sizeof *rd->springSets);
    if (rd->nodes != NULL) mani_BuilderFree(b, rd->nodes, rd->nodeCount * sizeof *rd->nodes);
    if (rd->inputPool != NULL) mani_BuilderFree(b, rd->inputPool, rd->poolSize * sizeof(uint32_t));
    if (rd->weightPool != NULL) mani_BuilderFree(b, rd->weightPool, rd->poolSize * sizeof(uint32_t));
    if (rd->chainPool != NULL) mani_BuilderFree(b, rd->chainPool, rd->poolSize * sizeof(maniGraphMaskChain));
    if (rd->transitionPool != NULL)
        mani_BuilderFree(b, rd->transitionPool, rd->poolSize * sizeof(maniGraphTransitionSource));
    if (rd->conditionPool != NULL)
        mani_BuilderFree(b, rd->conditionPool, rd->poolSize * sizeof(maniGraphConditionSource));
    if (rd->pointPool != NULL) mani_BuilderFree(b, rd->pointPool, rd->poolSize * sizeof(maniGraphSpacePoint));
    if (rd->trianglePool != NULL) mani_BuilderFree(b, rd->trianglePool, rd->poolSize * sizeof(uint32_t));
    mcore_JsonRelease(&rd->f.doc);
}

static uint32_t mani_ListCount(const mani_GraphReader* rd, uint32_t t) {
    return t == MCORE_JSON_NONE ? 0u : mani_FormToken(&rd->f, t)->count;
}

/* A whole number in [0, 2^32) at token t (FormValue otherwise). */
static maniBuildResult mani_ReadGraphPlace(mani_GraphReader* rd, uint32_t t, uint32_t* out) {
    const mcore_JsonToken* tok = mani_FormToken(&rd->f, t);
    if (tok->type != mcore_jsonNumber) return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, mani_FormAt(&rd->f, t));
    uint64_t v = 0;
    if (mcore_JsonGetUint64(&rd->f.doc, t, &v) != mcore_jsonOk || v > UINT32_MAX)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, tok->start);
    *out = (uint32_t)v;
    return mani_JsonOk();
}

/* The first parameter (or clip) of a name: MANI_NO_PARAMETER when none. */
static uint32_t mani_FindParameterName(const mani_GraphReader* rd, const char* name, size_t length) {
    for (uint32_t p = 0; p < rd->parameterCount; ++p)
        if (rd->parameters[p].nameLength == length && memcmp(rd->parameters[p].name, name, length) == 0) return p;
    return MANI_NO_PARAMETER;
}

static uint32_t mani_FindClipName(const maniGraphClipSource* clips, uint32_t count, const char* name, size_t length) {
    for (uint32_t k = 0; k < count; ++k)
        if (clips[k].nameLength == length && clips[k].name != NULL && memcmp(clips[k].name, name, length) == 0)
            return k;
    return MANI_NO_PARAMETER;
}

static maniBuildResult mani_ReadGraphParameter(mani_GraphReader* rd, uint32_t object, maniGraphParameterSource* p) {
    uint32_t f[3];
    maniBuildResult r = mani_FormRead(&rd->f, object, maniGraphParameterForm, 3, f);
    if (r.result != mani_success) return r;
    if ((r = mani_FormReadString(&rd->f, f[0], &p->name, &p->nameLength)).result != mani_success) return r;
    uint32_t type = 0;
    if ((r = mani_FormReadKeyword(&rd->f, f[1], maniGraphTypeNames, MANI_GRAPH_PARAMETER_TYPE_COUNT, &type)).result !=
        mani_success)
        return r;
    p->type = (maniGraphParameterType)type;
    memset(&p->value, 0, sizeof p->value);
    if (p->type == maniGraphParameterQuaternion) p->value.rotation.w = 1.0f;
    if (f[2] == MCORE_JSON_NONE) return r;
    const mcore_JsonToken* v = mani_FormToken(&rd->f, f[2]);
    const uint64_t at = mani_FormAt(&rd->f, f[2]);
    switch (p->type) {
    case maniGraphParameterFloat:
        if (v->type != mcore_jsonNumber) return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, at);
        if (mcore_JsonGetFloat(&rd->f.doc, f[2], &p->value.number) != mcore_jsonOk)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, at);
        return r;
    case maniGraphParameterBool:
        if (v->type != mcore_jsonTrue && v->type != mcore_jsonFalse)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, at);
        p->value.flag = v->type == mcore_jsonTrue ? 1u : 0u;
        return r;
    case maniGraphParameterVector:
    case maniGraphParameterQuaternion: {
        if (v->type != mcore_jsonArray) return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, at);
        float q[4] = {0, 0, 0, 0};
        const uint32_t count = p->type == maniGraphParameterVector ? 3u : 4u;
        if ((r = mani_FormReadFloats(&rd->f, f[2], q, count)).result != mani_success) return r;
        if (count == 3) {
            p->value.vector.x = q[0];
            p->value.vector.y = q[1];
            p->value.vector.z = q[2];
        } else {
            p->value.rotation.x = q[0];
            p->value.rotation.y = q[1];
            p->value.rotation.z = q[2];
            p->value.rotation.w = q[3];
        }
        return r;
    }
    default:
        /* Triggers and poses take no value: the member is refused at its
         * key (the token before its value). */
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormMember, mani_FormAt(&rd->f, f[2] - 1));
    }
}

/* A parameter named by the string at token t (Name when none has it). */
static maniBuildResult mani_ReadGraphParameterName(mani_GraphReader* rd, uint32_t t, uint32_t* out) {
    const char* name;
    size_t length;
    maniBuildResult r = mani_FormReadString(&rd->f, t, &name, &length);
    if (r.result != mani_success) return r;
    *out = mani_FindParameterName(rd, name, length);
    if (*out == MANI_NO_PARAMETER) return mani_FormRefusal(mani_errorInvalid, maniGraphFormName, mani_FormAt(&rd->f, t));
    return r;
}

/* A member a parameter may stand for: a number into *number, or
 * {"parameter": name} into *parameter; left out, *number keeps its
 * default. */
static maniBuildResult mani_ReadGraphNumberOrParameter(mani_GraphReader* rd, uint32_t t, float* number,
                                                       uint32_t* parameter) {
    *parameter = MANI_NO_PARAMETER;
    if (t == MCORE_JSON_NONE) return mani_JsonOk();
    if (mani_FormToken(&rd->f, t)->type == mcore_jsonNumber) {
        if (mcore_JsonGetFloat(&rd->f.doc, t, number) != mcore_jsonOk)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, t));
        return mani_JsonOk();
    }
    uint32_t f[1];
    maniBuildResult r = mani_FormRead(&rd->f, t, maniGraphParameterRefForm, 1, f);
    if (r.result != mani_success) return r;
    return mani_ReadGraphParameterName(rd, f[0], parameter);
}

/* A node's inputs, at token t, from the pools. */
static maniBuildResult mani_ReadGraphInputs(mani_GraphReader* rd, uint32_t t, maniGraphNodeSource* node) {
    const uint32_t count = mani_FormToken(&rd->f, t)->count;
    node->inputCount = count;
    if (count == 0) return mani_JsonOk(); /* the build refuses the kinds that need inputs */
    /* Each item is a token, so the pools (the document's token count each)
     * always hold the inputs. */
    uint32_t* inputs = rd->inputPool + rd->poolUsed;
    rd->poolUsed += count;
    uint32_t item = t + 1;
    for (uint32_t i = 0; i < count; ++i) {
        maniBuildResult r = mani_ReadGraphPlace(rd, item, &inputs[i]);
        if (r.result != mani_success) return r;
        item = mani_FormToken(&rd->f, item)->next;
    }
    node->inputs = inputs;
    return mani_JsonOk();
}

/* A number member (left out: *out keeps its default) read as binary32. */
static maniBuildResult mani_ReadGraphFloat(mani_GraphReader* rd, uint32_t t, float* out) {
    if (t != MCORE_JSON_NONE && mcore_JsonGetFloat(&rd->f.doc, t, out) != mcore_jsonOk)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, t));
    return mani_JsonOk();
}

/* A keyword member (left out: *out keeps its default). */
static maniBuildResult mani_ReadGraphWord(mani_GraphReader* rd, uint32_t t, const char* const* words, uint32_t count,
                                          uint32_t* out) {
    if (t == MCORE_JSON_NONE) return mani_JsonOk();
    return mani_FormReadKeyword(&rd->f, t, words, count, out);
}

/* A condition: its kind; a parameter for the kinds reading one (required;
 * refused as a member on the others), a value for the kinds counting one
 * (0 when left out; refused as a member on the others). */
static maniBuildResult mani_ReadGraphCondition(mani_GraphReader* rd, uint32_t object, maniGraphConditionSource* c) {
    uint32_t f[3];
    maniBuildResult r = mani_FormRead(&rd->f, object, maniGraphConditionForm, 3, f);
    if (r.result != mani_success) return r;
    uint32_t kind = 0;
    if ((r = mani_FormReadKeyword(&rd->f, f[0], maniGraphConditionNames, MANI_GRAPH_CONDITION_KIND_COUNT, &kind))
            .result != mani_success)
        return r;
    memset(c, 0, sizeof *c);
    c->kind = (maniGraphConditionKind)kind;
    c->parameter = MANI_NO_PARAMETER;
    if (mani_ConditionReads(kind)) {
        if (f[1] == MCORE_JSON_NONE)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormMissing, mani_FormAt(&rd->f, object));
        if ((r = mani_ReadGraphParameterName(rd, f[1], &c->parameter)).result != mani_success) return r;
    } else if (f[1] != MCORE_JSON_NONE) {
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormMember, mani_FormAt(&rd->f, f[1] - 1));
    }
    if (!mani_ConditionCounts(kind) && f[2] != MCORE_JSON_NONE)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormMember, mani_FormAt(&rd->f, f[2] - 1));
    return mani_ReadGraphFloat(rd, f[2], &c->value);
}

/* A state machine's members past its inputs: entry and chainLimit whole
 * numbers, transitions and finals (each transition and condition a token,
 * so the pools hold them). */
static maniBuildResult mani_ReadGraphMachine(mani_GraphReader* rd, const uint32_t* f, maniGraphNodeSource* node) {
    maniBuildResult r = mani_JsonOk();
    if (f[2] != MCORE_JSON_NONE && (r = mani_ReadGraphPlace(rd, f[2], &node->entry)).result != mani_success) return r;
    if (f[3] != MCORE_JSON_NONE && (r = mani_ReadGraphPlace(rd, f[3], &node->chainLimit)).result != mani_success)
        return r;
    const uint32_t finals = mani_ListCount(rd, f[5]);
    if (finals != 0) {
        uint32_t* list = rd->inputPool + rd->poolUsed;
        rd->poolUsed += finals;
        uint32_t item = f[5] + 1;
        for (uint32_t i = 0; i < finals; ++i) {
            if ((r = mani_ReadGraphPlace(rd, item, &list[i])).result != mani_success) return r;
            item = mani_FormToken(&rd->f, item)->next;
        }
        node->finals = list;
        node->finalCount = finals;
    }
    const uint32_t count = mani_ListCount(rd, f[4]);
    if (count == 0) return r;
    maniGraphTransitionSource* transitions = rd->transitionPool + rd->transitionsUsed;
    rd->transitionsUsed += count;
    uint32_t item = f[4] + 1;
    for (uint32_t t = 0; t < count; ++t) {
        maniGraphTransitionSource* tr = &transitions[t];
        memset(tr, 0, sizeof *tr);
        uint32_t g[9];
        if ((r = mani_FormRead(&rd->f, item, maniGraphTransitionForm, 9, g)).result != mani_success) return r;
        if (mani_FormToken(&rd->f, g[0])->type == mcore_jsonString) {
            if (!mcore_JsonStringEquals(&rd->f.doc, g[0], "any", 3))
                return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, g[0]));
            tr->from = MANI_GRAPH_NONE;
        } else if ((r = mani_ReadGraphPlace(rd, g[0], &tr->from)).result != mani_success) {
            return r;
        }
        if ((r = mani_ReadGraphPlace(rd, g[1], &tr->to)).result != mani_success) return r;
        if (g[2] != MCORE_JSON_NONE && (r = mani_ReadGraphPlace(rd, g[2], &tr->priority)).result != mani_success)
            return r;
        uint32_t word = 0;
        if ((r = mani_ReadGraphWord(rd, g[3], maniGraphInterruptionNames, 4, &word)).result != mani_success) return r;
        tr->interruption = (maniGraphInterruption)word;
        word = 0;
        if ((r = mani_ReadGraphWord(rd, g[4], maniGraphEntryNames, 2, &word)).result != mani_success) return r;
        tr->entry = (maniGraphEntry)word;
        word = 0;
        if ((r = mani_ReadGraphWord(rd, g[5], maniGraphFadeNames, MANI_GRAPH_FADE_CURVE_COUNT, &word)).result !=
            mani_success)
            return r;
        tr->fade = (maniGraphFadeCurve)word;
        if ((r = mani_ReadGraphFloat(rd, g[6], &tr->duration)).result != mani_success) return r;
        if ((r = mani_ReadGraphFloat(rd, g[7], &tr->cooldown)).result != mani_success) return r;
        const uint32_t conditions = mani_ListCount(rd, g[8]);
        if (conditions != 0) {
            maniGraphConditionSource* list = rd->conditionPool + rd->conditionsUsed;
            rd->conditionsUsed += conditions;
            uint32_t c = g[8] + 1;
            for (uint32_t k = 0; k < conditions; ++k) {
                if ((r = mani_ReadGraphCondition(rd, c, &list[k])).result != mani_success) return r;
                c = mani_FormToken(&rd->f, c)->next;
            }
            tr->conditions = list;
            tr->conditionCount = conditions;
        }
        item = mani_FormToken(&rd->f, item)->next;
    }
    node->transitions = transitions;
    node->transitionCount = count;
    return r;
}

/* A blend space's members past its kind and inputs (f in its form's
 * order): the parameters, one position for each input ({"x", "y"}, y 0
 * when left out), and the period, polar flag or triangles ([i, j, k] of
 * node places) by the kind. Each position and triangle number is a token,
 * so the pools hold them. */
static maniBuildResult mani_ReadGraphSpace(mani_GraphReader* rd, const uint32_t* f, maniGraphNodeSource* node) {
    maniBuildResult r = mani_ReadGraphParameterName(rd, f[2], &node->parameter);
    if (r.result != mani_success) return r;
    if (node->kind != maniGraphNodeSpace1D && (r = mani_ReadGraphParameterName(rd, f[5], &node->parameterY)).result !=
                                                  mani_success)
        return r;
    const uint32_t count = mani_FormToken(&rd->f, f[3])->count;
    if (count != node->inputCount)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, f[3]));
    maniGraphSpacePoint* points = rd->pointPool + rd->pointsUsed;
    rd->pointsUsed += count;
    uint32_t item = f[3] + 1;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t g[2];
        if ((r = mani_FormRead(&rd->f, item, maniGraphPositionForm, 2, g)).result != mani_success) return r;
        points[i].y = 0.0f;
        if ((r = mani_ReadGraphFloat(rd, g[0], &points[i].x)).result != mani_success) return r;
        if ((r = mani_ReadGraphFloat(rd, g[1], &points[i].y)).result != mani_success) return r;
        item = mani_FormToken(&rd->f, item)->next;
    }
    node->points = points;
    switch (node->kind) {
    case maniGraphNodeSpace1D: return mani_ReadGraphFloat(rd, f[4], &node->period);
    case maniGraphNodeSpaceBanded:
        node->polar = f[4] != MCORE_JSON_NONE && mani_FormToken(&rd->f, f[4])->type == mcore_jsonTrue;
        return r;
    default: break;
    }
    const uint32_t triangles = mani_ListCount(rd, f[4]);
    if (triangles == 0) return r;
    uint32_t* list = rd->trianglePool + rd->triangleWordsUsed;
    item = f[4] + 1;
    for (uint32_t t = 0; t < triangles; ++t) {
        const mcore_JsonToken* tok = mani_FormToken(&rd->f, item);
        if (tok->type != mcore_jsonArray) return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, tok->start);
        if (tok->count != 3) return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, tok->start);
        uint32_t corner = item + 1;
        for (uint32_t k = 0; k < 3; ++k) {
            if ((r = mani_ReadGraphPlace(rd, corner, &list[3u * t + k])).result != mani_success) return r;
            corner = mani_FormToken(&rd->f, corner)->next;
        }
        item = tok->next;
    }
    rd->triangleWordsUsed += 3u * triangles;
    node->triangles = list;
    node->triangleCount = triangles;
    return r;
}

/* A mask's chains (array token chainsAt, or none) and defaultWeight (token
 * weightAt, or none: 0) into a node (each chain a token: the pool holds
 * them). */
static maniBuildResult mani_ReadGraphMaskChains(mani_GraphReader* rd, uint32_t chainsAt, uint32_t weightAt,
                                                maniGraphNodeSource* node) {
    maniBuildResult r = mani_JsonOk();
    if (weightAt != MCORE_JSON_NONE && mcore_JsonGetFloat(&rd->f.doc, weightAt, &node->defaultWeight) != mcore_jsonOk)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, weightAt));
    const uint32_t count = mani_ListCount(rd, chainsAt);
    if (count == 0) return r;
    maniGraphMaskChain* chains = rd->chainPool + rd->chainsUsed;
    rd->chainsUsed += count;
    uint32_t item = chainsAt + 1;
    for (uint32_t c = 0; c < count; ++c) {
        uint32_t g[3];
        if ((r = mani_FormRead(&rd->f, item, maniGraphMaskChainForm, 3, g)).result != mani_success) return r;
        if ((r = mani_FormReadBone(&rd->f, rd->assets->skeleton, g[0], &chains[c].bone)).result != mani_success)
            return r;
        if (mcore_JsonGetFloat(&rd->f.doc, g[1], &chains[c].weight) != mcore_jsonOk)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, g[1]));
        chains[c].subtree = g[2] != MCORE_JSON_NONE && mani_FormToken(&rd->f, g[2])->type == mcore_jsonTrue;
        item = mani_FormToken(&rd->f, item)->next;
    }
    node->chains = chains;
    node->chainCount = count;
    return r;
}

/* A one-shot's members past its inputs: its trigger (required), fade-out
 * and abort triggers (none when left out), curve ("linear"), fadeIn and
 * fadeOut (0) and mask (none: the whole body). */
static maniBuildResult mani_ReadGraphOneShot(mani_GraphReader* rd, const uint32_t* g, maniGraphNodeSource* node) {
    maniBuildResult r = mani_ReadGraphParameterName(rd, g[2], &node->parameter);
    if (r.result != mani_success) return r;
    node->fadeOutTrigger = MANI_NO_PARAMETER;
    node->abortTrigger = MANI_NO_PARAMETER;
    if (g[3] != MCORE_JSON_NONE && (r = mani_ReadGraphParameterName(rd, g[3], &node->fadeOutTrigger)).result != mani_success)
        return r;
    if (g[4] != MCORE_JSON_NONE && (r = mani_ReadGraphParameterName(rd, g[4], &node->abortTrigger)).result != mani_success)
        return r;
    uint32_t curve = maniGraphFadeLinear;
    if ((r = mani_ReadGraphWord(rd, g[5], maniGraphFadeNames, MANI_GRAPH_FADE_CURVE_COUNT, &curve)).result != mani_success)
        return r;
    node->curve = (maniGraphFadeCurve)curve;
    if ((r = mani_ReadGraphFloat(rd, g[6], &node->fadeIn)).result != mani_success) return r;
    if ((r = mani_ReadGraphFloat(rd, g[7], &node->fadeOut)).result != mani_success) return r;
    if (g[8] == MCORE_JSON_NONE) return r;
    uint32_t m[2];
    if ((r = mani_FormRead(&rd->f, g[8], maniGraphShotMaskForm, 2, m)).result != mani_success) return r;
    node->masked = true;
    return mani_ReadGraphMaskChains(rd, m[0], m[1], node);
}

/* An inertialize's members past its inputs: its trigger (none when left
 * out), method ("inertialization"), duration (0), halfLifeScale (0.3),
 * halfLifeMin (0.1) and halfLifeMax (1.0). */
static maniBuildResult mani_ReadGraphInertialize(mani_GraphReader* rd, const uint32_t* g, maniGraphNodeSource* node) {
    maniBuildResult r = mani_JsonOk();
    if (g[2] != MCORE_JSON_NONE && (r = mani_ReadGraphParameterName(rd, g[2], &node->parameter)).result != mani_success)
        return r;
    uint32_t method = maniGraphInertialization;
    if ((r = mani_ReadGraphWord(rd, g[3], maniGraphInertializationNames, MANI_GRAPH_INERTIALIZATION_METHOD_COUNT,
                                &method))
            .result != mani_success)
        return r;
    node->method = (maniGraphInertializationMethod)method;
    node->halfLifeScale = 0.3f;
    node->halfLifeMin = 0.1f;
    node->halfLifeMax = 1.0f;
    if ((r = mani_ReadGraphFloat(rd, g[4], &node->duration)).result != mani_success) return r;
    if ((r = mani_ReadGraphFloat(rd, g[5], &node->halfLifeScale)).result != mani_success) return r;
    if ((r = mani_ReadGraphFloat(rd, g[6], &node->halfLifeMin)).result != mani_success) return r;
    return mani_ReadGraphFloat(rd, g[7], &node->halfLifeMax);
}

static maniBuildResult mani_ReadGraphNode(mani_GraphReader* rd, uint32_t object, maniGraphNodeSource* node) {
    memset(node, 0, sizeof *node);
    node->parameter = MANI_NO_PARAMETER;
    const mcore_JsonToken* obj = mani_FormToken(&rd->f, object);
    if (obj->type != mcore_jsonObject) return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, obj->start);
    const uint32_t kindToken = mcore_JsonFind(&rd->f.doc, object, "kind", 4);
    if (kindToken == MCORE_JSON_NONE) return mani_FormRefusal(mani_errorInvalid, maniGraphFormMissing, obj->start);
    if (mani_FormToken(&rd->f, kindToken)->type != mcore_jsonString)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, mani_FormAt(&rd->f, kindToken));
    uint32_t kind = 0;
    maniBuildResult r = mani_FormReadKeyword(&rd->f, kindToken, maniGraphKindNames, MANI_GRAPH_NODE_KIND_COUNT, &kind);
    if (r.result != mani_success) return r;
    node->kind = (maniGraphNodeKind)kind;
    uint32_t f[4];
    switch (node->kind) {
    case maniGraphNodeClip: {
        if ((r = mani_FormRead(&rd->f, object, maniGraphClipNodeForm, 3, f)).result != mani_success) return r;
        const char* name;
        size_t length;
        if ((r = mani_FormReadString(&rd->f, f[1], &name, &length)).result != mani_success) return r;
        node->clip = mani_FindClipName(rd->clips, rd->clipCount, name, length);
        if (node->clip == MANI_NO_PARAMETER)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormName, mani_FormAt(&rd->f, f[1]));
        node->speed = 1.0f;
        if (f[2] != MCORE_JSON_NONE && mcore_JsonGetFloat(&rd->f.doc, f[2], &node->speed) != mcore_jsonOk)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, f[2]));
        return r;
    }
    case maniGraphNodeBlend: {
        if ((r = mani_FormRead(&rd->f, object, maniGraphBlendNodeForm, 4, f)).result != mani_success) return r;
        const uint32_t count = mani_FormToken(&rd->f, f[1])->count;
        if (mani_FormToken(&rd->f, f[2])->count != count)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, f[2]));
        node->direct = f[3] != MCORE_JSON_NONE && mani_FormToken(&rd->f, f[3])->type == mcore_jsonTrue;
        if ((r = mani_ReadGraphInputs(rd, f[1], node)).result != mani_success || count == 0) return r;
        uint32_t* weights = rd->weightPool + rd->poolUsed - count;
        uint32_t item = f[2] + 1;
        for (uint32_t i = 0; i < count; ++i) {
            if ((r = mani_ReadGraphParameterName(rd, item, &weights[i])).result != mani_success) return r;
            item = mani_FormToken(&rd->f, item)->next;
        }
        node->parameters = weights;
        return r;
    }
    case maniGraphNodeMask: {
        if ((r = mani_FormRead(&rd->f, object, maniGraphMaskNodeForm, 4, f)).result != mani_success) return r;
        if ((r = mani_ReadGraphInputs(rd, f[1], node)).result != mani_success) return r;
        return mani_ReadGraphMaskChains(rd, f[2], f[3], node);
    }
    case maniGraphNodeOneShot: {
        uint32_t g[9];
        if ((r = mani_FormRead(&rd->f, object, maniGraphOneShotNodeForm, 9, g)).result != mani_success) return r;
        if ((r = mani_ReadGraphInputs(rd, g[1], node)).result != mani_success) return r;
        return mani_ReadGraphOneShot(rd, g, node);
    }
    case maniGraphNodeInertialize: {
        uint32_t g[8];
        if ((r = mani_FormRead(&rd->f, object, maniGraphInertializeNodeForm, 8, g)).result != mani_success) return r;
        if ((r = mani_ReadGraphInputs(rd, g[1], node)).result != mani_success) return r;
        return mani_ReadGraphInertialize(rd, g, node);
    }
    case maniGraphNodeAdditive:
        if ((r = mani_FormRead(&rd->f, object, maniGraphAdditiveNodeForm, 3, f)).result != mani_success) return r;
        if ((r = mani_ReadGraphInputs(rd, f[1], node)).result != mani_success) return r;
        node->weight = 1.0f;
        return mani_ReadGraphNumberOrParameter(rd, f[2], &node->weight, &node->parameter);
    case maniGraphNodeTimeScale:
        if ((r = mani_FormRead(&rd->f, object, maniGraphTimeScaleNodeForm, 3, f)).result != mani_success) return r;
        if ((r = mani_ReadGraphInputs(rd, f[1], node)).result != mani_success) return r;
        node->factor = 1.0f;
        return mani_ReadGraphNumberOrParameter(rd, f[2], &node->factor, &node->parameter);
    case maniGraphNodeSelect:
        if ((r = mani_FormRead(&rd->f, object, maniGraphSelectNodeForm, 3, f)).result != mani_success) return r;
        if ((r = mani_ReadGraphInputs(rd, f[1], node)).result != mani_success) return r;
        return mani_ReadGraphParameterName(rd, f[2], &node->parameter);
    case maniGraphNodeSeek:
        if ((r = mani_FormRead(&rd->f, object, maniGraphSeekNodeForm, 4, f)).result != mani_success) return r;
        if ((r = mani_ReadGraphInputs(rd, f[1], node)).result != mani_success) return r;
        if ((r = mani_ReadGraphParameterName(rd, f[2], &node->parameter)).result != mani_success) return r;
        if (f[3] != MCORE_JSON_NONE && mcore_JsonGetFloat(&rd->f.doc, f[3], &node->time) != mcore_jsonOk)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, f[3]));
        return r;
    case maniGraphNodeMirror:
        if ((r = mani_FormRead(&rd->f, object, maniGraphMirrorNodeForm, 2, f)).result != mani_success) return r;
        return mani_ReadGraphInputs(rd, f[1], node);
    case maniGraphNodePose:
        if ((r = mani_FormRead(&rd->f, object, maniGraphPoseNodeForm, 2, f)).result != mani_success) return r;
        return mani_ReadGraphParameterName(rd, f[1], &node->parameter);
    case maniGraphNodeStateMachine: {
        uint32_t g[6];
        if ((r = mani_FormRead(&rd->f, object, maniGraphMachineNodeForm, 6, g)).result != mani_success) return r;
        if ((r = mani_ReadGraphInputs(rd, g[1], node)).result != mani_success) return r;
        return mani_ReadGraphMachine(rd, g, node);
    }
    case maniGraphNodeSpace1D:
    case maniGraphNodeSpaceBanded:
    case maniGraphNodeSpaceTriangulated: {
        uint32_t g[6] = {MCORE_JSON_NONE, MCORE_JSON_NONE, MCORE_JSON_NONE,
                         MCORE_JSON_NONE, MCORE_JSON_NONE, MCORE_JSON_NONE};
        const mcore_JsonFormKey* form = node->kind == maniGraphNodeSpace1D       ? maniGraphSpace1DNodeForm
                                        : node->kind == maniGraphNodeSpaceBanded ? maniGraphSpaceBandedNodeForm
                                                                                 : maniGraphSpaceTriangulatedNodeForm;
        if ((r = mani_FormRead(&rd->f, object, form, node->kind == maniGraphNodeSpace1D ? 5u : 6u, g)).result !=
            mani_success)
            return r;
        if ((r = mani_ReadGraphInputs(rd, g[1], node)).result != mani_success) return r;
        return mani_ReadGraphSpace(rd, g, node);
    }
    default:
        /* A kind this version of the form does not hold yet. */
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(&rd->f, kindToken));
    }
}

/* Reads a list of asset slots ([{"name"}] at token list, count items of
 * `stride` bytes, each beginning with its name, length and asset pointer):
 * each takes the first host slot of its name (Name at the string when
 * none). */
static maniBuildResult mani_ReadGraphSlotList(mani_GraphReader* rd, uint32_t list, void* slots, size_t stride,
                                              uint32_t count, const void* hosts, uint32_t hostCount) {
    maniBuildResult r = mani_JsonOk();
    uint32_t item = list + 1;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t f[1];
        uint8_t* slot = (uint8_t*)slots + stride * i;
        const char* name = NULL;
        size_t length = 0;
        if ((r = mani_FormRead(&rd->f, item, maniGraphClipForm, 1, f)).result != mani_success) return r;
        if ((r = mani_FormReadString(&rd->f, f[0], &name, &length)).result != mani_success) return r;
        const uint8_t* host = NULL;
        for (uint32_t h = 0; h < hostCount && host == NULL; ++h) {
            const uint8_t* at = (const uint8_t*)hosts + stride * h;
            const char* hostName = *(const char* const*)at;
            if (*(const size_t*)(at + sizeof(const char*)) == length && hostName != NULL &&
                memcmp(hostName, name, length) == 0)
                host = at;
        }
        if (host == NULL) return mani_FormRefusal(mani_errorInvalid, maniGraphFormName, mani_FormAt(&rd->f, f[0]));
        memcpy(slot, host, stride); /* the host's asset */
        memcpy(slot, &name, sizeof name);
        memcpy(slot + sizeof(const char*), &length, sizeof length);
        item = mani_FormToken(&rd->f, item)->next;
    }
    return r;
}

/* Reads the lists into the reader (allocated to the text's counts). */
static maniBuildResult mani_ReadGraphLists(mani_GraphReader* rd, const uint32_t* top) {
    maniBuildResult r = mani_JsonOk();
    uint32_t item = top[maniGraphTopParameters] + 1;
    for (uint32_t p = 0; p < rd->parameterCount; ++p) {
        if ((r = mani_ReadGraphParameter(rd, item, &rd->parameters[p])).result != mani_success) return r;
        item = mani_FormToken(&rd->f, item)->next;
    }
    const maniGraphNamedAssets* assets = rd->assets;
    item = top[maniGraphTopClips] + 1;
    for (uint32_t k = 0; k < rd->clipCount; ++k) {
        uint32_t f[1];
        maniGraphClipSource* slot = &rd->clips[k];
        if ((r = mani_FormRead(&rd->f, item, maniGraphClipForm, 1, f)).result != mani_success) return r;
        if ((r = mani_FormReadString(&rd->f, f[0], &slot->name, &slot->nameLength)).result != mani_success) return r;
        const uint32_t host = mani_FindClipName(assets->clips, assets->clipCount, slot->name, slot->nameLength);
        if (host == MANI_NO_PARAMETER)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormName, mani_FormAt(&rd->f, f[0]));
        slot->clip = assets->clips[host].clip;
        slot->map = assets->clips[host].map;
        item = mani_FormToken(&rd->f, item)->next;
    }
    if ((r = mani_ReadGraphSlotList(rd, top[maniGraphTopDatabases], rd->databases, sizeof *rd->databases,
                                    rd->databaseCount, assets->databases, assets->databaseCount))
            .result != mani_success)
        return r;
    if ((r = mani_ReadGraphSlotList(rd, top[maniGraphTopModels], rd->models, sizeof *rd->models, rd->modelCount,
                                    assets->models, assets->modelCount))
            .result != mani_success)
        return r;
    if ((r = mani_ReadGraphSlotList(rd, top[maniGraphTopSpringSets], rd->springSets, sizeof *rd->springSets,
                                    rd->springSetCount, assets->springSets, assets->springSetCount))
            .result != mani_success)
        return r;
    item = top[maniGraphTopNodes] + 1;
    for (uint32_t n = 0; n < rd->nodeCount; ++n) {
        if ((r = mani_ReadGraphNode(rd, item, &rd->nodes[n])).result != mani_success) return r;
        item = mani_FormToken(&rd->f, item)->next;
    }
    return r;
}

maniBuildResult mani_ReadGraphJson(maniBuilder* builder, const char* text, size_t length,
                                   const maniGraphNamedAssets* assets, mani_GraphSourceUse use, void* user) {
    if (builder == NULL || assets == NULL || assets->skeleton == NULL || (text == NULL && length != 0) ||
        (assets->clipCount != 0 && assets->clips == NULL) || (assets->databaseCount != 0 && assets->databases == NULL) ||
        (assets->modelCount != 0 && assets->models == NULL) || (assets->springSetCount != 0 && assets->springSets == NULL))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    const maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_BuildResult(entered, maniBuildReasonNone, 0, 0);

    mani_GraphReader rd;
    memset(&rd, 0, sizeof rd);
    rd.f.builder = builder;
    rd.assets = assets;
    const mcore_JsonAllocator allocator = mani_FormAllocator(builder);
    const mcore_JsonResult parsed = mcore_JsonReadAlloc((const uint8_t*)(text ? text : ""), length, &allocator, &rd.f.doc);
    if (parsed.reason == mcore_jsonCapacity) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    if (parsed.reason != mcore_jsonOk) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJson, parsed.offset, 0);

    /* The format and version before the members: another version's members
     * are not judged by this one's form. */
    maniBuildResult r = mani_JsonOk();
    if (mani_FormToken(&rd.f, 0)->type == mcore_jsonObject) {
        const uint32_t format = mcore_JsonFind(&rd.f.doc, 0, "format", 6);
        const uint32_t version = mcore_JsonFind(&rd.f.doc, 0, "version", 7);
        uint64_t number = 0;
        if (format != MCORE_JSON_NONE && mani_FormToken(&rd.f, format)->type == mcore_jsonString &&
            !mcore_JsonStringEquals(&rd.f.doc, format, MANI_GRAPH_FORM_NAME, strlen(MANI_GRAPH_FORM_NAME)))
            r = mani_FormRefusal(mani_errorInvalid, maniGraphFormFormat, mani_FormAt(&rd.f, format));
        else if (version != MCORE_JSON_NONE && mani_FormToken(&rd.f, version)->type == mcore_jsonNumber &&
                 (mcore_JsonGetUint64(&rd.f.doc, version, &number) != mcore_jsonOk || number != MANI_GRAPH_FORM_VERSION))
            r = mani_FormRefusal(mani_errorVersion, maniGraphFormVersion, mani_FormAt(&rd.f, version));
    }
    uint32_t top[maniGraphTopCount];
    if (r.result == mani_success) r = mani_FormRead(&rd.f, 0, maniGraphTopForm, maniGraphTopCount, top);
    uint32_t output = 0;
    if (r.result == mani_success) r = mani_ReadGraphPlace(&rd, top[maniGraphTopOutput], &output);
    if (r.result != mani_success) {
        mani_FreeGraphReader(&rd);
        return r;
    }
    int failed = 0;
    const uint32_t parameterCount = mani_ListCount(&rd, top[maniGraphTopParameters]);
    const uint32_t clipCount = mani_ListCount(&rd, top[maniGraphTopClips]);
    const uint32_t nodeCount = mani_ListCount(&rd, top[maniGraphTopNodes]);
    rd.f.arena = (char*)mani_FormAlloc(&rd.f, length, 1, &failed);
    if (rd.f.arena != NULL) rd.f.arenaSize = length;
    rd.parameters = (maniGraphParameterSource*)mani_FormAlloc(&rd.f, parameterCount, sizeof *rd.parameters, &failed);
    if (rd.parameters != NULL) rd.parameterCount = parameterCount;
    rd.clips = (maniGraphClipSource*)mani_FormAlloc(&rd.f, clipCount, sizeof *rd.clips, &failed);
    if (rd.clips != NULL) rd.clipCount = clipCount;
    const uint32_t databaseCount = mani_ListCount(&rd, top[maniGraphTopDatabases]);
    const uint32_t modelCount = mani_ListCount(&rd, top[maniGraphTopModels]);
    const uint32_t springSetCount = mani_ListCount(&rd, top[maniGraphTopSpringSets]);
    rd.databases = (maniGraphDatabaseSource*)mani_FormAlloc(&rd.f, databaseCount, sizeof *rd.databases, &failed);
    if (rd.databases != NULL) rd.databaseCount = databaseCount;
    rd.models = (maniGraphModelSource*)mani_FormAlloc(&rd.f, modelCount, sizeof *rd.models, &failed);
    if (rd.models != NULL) rd.modelCount = modelCount;
    rd.springSets = (maniGraphSpringSetSource*)mani_FormAlloc(&rd.f, springSetCount, sizeof *rd.springSets, &failed);
    if (rd.springSets != NULL) rd.springSetCount = springSetCount;
    rd.nodes = (maniGraphNodeSource*)mani_FormAlloc(&rd.f, nodeCount, sizeof *rd.nodes, &failed);
    if (rd.nodes != NULL) rd.nodeCount = nodeCount;
    const uint32_t pool = rd.f.doc.count;
    rd.inputPool = (uint32_t*)mani_FormAlloc(&rd.f, pool, sizeof(uint32_t), &failed);
    rd.weightPool = (uint32_t*)mani_FormAlloc(&rd.f, pool, sizeof(uint32_t), &failed);
    rd.chainPool = (maniGraphMaskChain*)mani_FormAlloc(&rd.f, pool, sizeof(maniGraphMaskChain), &failed);
    rd.transitionPool =
        (maniGraphTransitionSource*)mani_FormAlloc(&rd.f, pool, sizeof(maniGraphTransitionSource), &failed);
    rd.conditionPool = (maniGraphConditionSource*)mani_FormAlloc(&rd.f, pool, sizeof(maniGraphConditionSource), &failed);
    rd.pointPool = (maniGraphSpacePoint*)mani_FormAlloc(&rd.f, pool, sizeof(maniGraphSpacePoint), &failed);
    rd.trianglePool = (uint32_t*)mani_FormAlloc(&rd.f, pool, sizeof(uint32_t), &failed);
    rd.poolSize = pool;
    if (failed) {
        /* Each pool freed apart from the others (each of poolSize items). */
        mani_FreeGraphReader(&rd);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    r = mani_ReadGraphLists(&rd, top);
    if (r.result == mani_success) {
        maniGraphSource src;
        memset(&src, 0, sizeof src);
        src.skeleton = assets->skeleton;
        src.parameters = rd.parameters;
        src.parameterCount = rd.parameterCount;
        src.clips = rd.clips;
        src.clipCount = rd.clipCount;
        src.databases = rd.databases;
        src.databaseCount = rd.databaseCount;
        src.models = rd.models;
        src.modelCount = rd.modelCount;
        src.springSets = rd.springSets;
        src.springSetCount = rd.springSetCount;
        src.nodes = rd.nodes;
        src.nodeCount = rd.nodeCount;
        src.output = output;
        src.mirror = assets->mirror;
        r = use(user, builder, &src);
    }
    mani_FreeGraphReader(&rd);
    return r;
}

static maniBuildResult mani_BuildGraphUse(void* user, maniBuilder* builder, const maniGraphSource* source) {
    (void)user;
    return maniBuildGraph(builder, source);
}

maniBuildResult maniBuildGraphJson(maniBuilder* builder, const char* text, size_t length,
                                   const maniGraphNamedAssets* assets) {
    return mani_ReadGraphJson(builder, text, length, assets, mani_BuildGraphUse, NULL);
}
