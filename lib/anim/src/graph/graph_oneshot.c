/* The one-shot node (maniGraphNodeOneShot): its node data's check at the
 * open, and its runtime: a trigger fires its shot (its second input) over
 * its base (its first), the shot's subtree restarted, its weight faded in,
 * held and faded out over the end of the shot's span (or from a fade-out
 * trigger), an abort trigger ending it at once; the base evaluated always,
 * the shot over it by bone weights (the shot weight times its mask's) as a
 * mask evaluates; its state block saved and checked.
 *
 * Node data (docs/formats.md, "Graph"): u32 fade-out trigger, u32 abort
 * trigger (each MANI_NO_PARAMETER for none), u32 curve, f32 fadeIn, f32
 * fadeOut, u32 masked; with a mask one f32 bone weight a bone.
 *
 * State block (24 bytes): u32 phase (MANI_GRAPH_ONESHOT_*), f32 seconds
 * into the shot, f32 the weight its fade-in started from, f32 the seconds
 * its fade-out started at and f32 the weight it started from (both 0 but
 * fading out), f32 the shot weight the last update gave (what an
 * evaluation blends by); every word 0 when idle. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_format.h"
#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/core/container.h"
#include "maul/anim/blend.h"

/* -- The open's check ----------------------------------------------------------- */

static int mani_OneShotTriggerOk(uint32_t p, const uint8_t* params, uint32_t parameterCount) {
    if (p == MANI_NO_PARAMETER) return 1;
    return p < parameterCount &&
           mcore_ReadU32(params + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * p) == maniGraphParameterTrigger;
}

uint64_t mani_CheckGraphOneShotData(const uint8_t* b, uint64_t words, uint32_t count, uint64_t countAt, uint32_t bones,
                                    const uint8_t* params, uint32_t parameterCount) {
    if (count < MANI_GRAPH_ONESHOT_HEADER) return countAt;
    if (!mani_OneShotTriggerOk(mcore_ReadU32(b + words), params, parameterCount)) return words;
    if (!mani_OneShotTriggerOk(mcore_ReadU32(b + words + 4), params, parameterCount)) return words + 4;
    if (mcore_ReadU32(b + words + 8) >= MANI_GRAPH_FADE_CURVE_COUNT) return words + 8;
    const float fadeIn = mcore_ReadF32(b + words + 12), fadeOut = mcore_ReadF32(b + words + 16);
    if (!(isfinite(fadeIn) && fadeIn >= 0.0f)) return words + 12;
    if (!(isfinite(fadeOut) && fadeOut >= 0.0f)) return words + 16;
    const uint32_t masked = mcore_ReadU32(b + words + 20);
    if (masked > 1u) return words + 20;
    if ((uint64_t)count != MANI_GRAPH_ONESHOT_HEADER + (masked ? (uint64_t)bones : 0u)) return countAt;
    for (uint32_t i = 0; masked && i < bones; ++i) {
        const uint64_t at = words + 4u * (MANI_GRAPH_ONESHOT_HEADER + (uint64_t)i);
        const float w = mcore_ReadF32(b + at);
        if (!(w >= 0.0f && w <= 1.0f)) return at;
    }
    return 0;
}

/* -- The node data at run time ------------------------------------------------- */

static float mani_OneShotWordFloat(uint32_t w) {
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

typedef struct mani_OneShot {
    uint32_t trigger, fadeOutTrigger, abortTrigger, curve, masked;
    float fadeIn, fadeOut;
    const uint32_t* mask; /* the bone weights' words (masked) */
} mani_OneShot;

static mani_OneShot mani_OneShotOf(const maniGraphBinding* b, uint32_t node) {
    const mani_GraphNodeRt* n = &b->nodes[node];
    const uint32_t* w = b->words + n->data;
    mani_OneShot o;
    o.trigger = n->index;
    o.fadeOutTrigger = w[0];
    o.abortTrigger = w[1];
    o.curve = w[2];
    o.fadeIn = mani_OneShotWordFloat(w[3]);
    o.fadeOut = mani_OneShotWordFloat(w[4]);
    o.masked = w[5];
    o.mask = w + MANI_GRAPH_ONESHOT_HEADER;
    return o;
}

void mani_BindOneShot(mani_GraphNodeRt* node, const uint32_t* words, uint32_t boneCount, uint32_t rootBone) {
    if (words[5] == 0) {
        node->maskMost = 1.0f;
        node->maskRoot = 1.0f;
        return;
    }
    node->maskMost = 0.0f;
    for (uint32_t bone = 0; bone < boneCount; ++bone) {
        const float w = mani_OneShotWordFloat(words[MANI_GRAPH_ONESHOT_HEADER + bone]);
        if (w > node->maskMost) node->maskMost = w;
    }
    node->maskRoot = rootBone < boneCount ? mani_OneShotWordFloat(words[MANI_GRAPH_ONESHOT_HEADER + rootBone]) : 0.0f;
}

/* -- The state block ------------------------------------------------------------ */

typedef struct mani_OneShotState {
    uint32_t phase;
    float seconds;
    float from;       /* the weight its fade-in started from */
    float outAt;      /* the seconds its fade-out started at */
    float outWeight;  /* the weight its fade-out started from */
    float weight;     /* the shot weight of the last update */
} mani_OneShotState;

#define MANI_GRAPH_ONESHOT_BLOCK 24u

static mani_OneShotState* mani_OneShotStateOf(const maniGraphInstance* g, uint32_t node) {
    return (mani_OneShotState*)mani_GraphNodeBlock(g, node);
}

size_t mani_OneShotStateSize(const maniGraphBinding* b, uint32_t node) {
    (void)b;
    (void)node;
    return MANI_GRAPH_ONESHOT_BLOCK;
}

void mani_ResetOneShot(maniGraphInstance* g, uint32_t node) {
    memset(mani_GraphNodeBlock(g, node), 0, MANI_GRAPH_ONESHOT_BLOCK);
}

uint64_t mani_CheckRestoredOneShot(const maniGraphBinding* b, uint32_t node, const uint8_t* saved) {
    (void)b;
    (void)node;
    const uint32_t phase = mcore_ReadU32(saved);
    if (phase > MANI_GRAPH_ONESHOT_FADING_OUT) return 0;
    if (phase == MANI_GRAPH_ONESHOT_IDLE) {
        for (uint32_t k = 4; k < MANI_GRAPH_ONESHOT_BLOCK; k += 4)
            if (mcore_ReadU32(saved + k) != 0) return k;
        return UINT64_MAX;
    }
    const float seconds = mcore_ReadF32(saved + 4), from = mcore_ReadF32(saved + 8);
    const float outAt = mcore_ReadF32(saved + 12), outWeight = mcore_ReadF32(saved + 16), weight = mcore_ReadF32(saved + 20);
    if (!(isfinite(seconds) && seconds >= 0.0f)) return 4;
    if (!(from >= 0.0f && from <= 1.0f)) return 8;
    if (phase == MANI_GRAPH_ONESHOT_FADING_OUT) {
        if (!(outAt >= 0.0f && outAt <= seconds)) return 12;
        if (!(outWeight >= 0.0f && outWeight <= 1.0f)) return 16;
    } else {
        if (mcore_ReadU32(saved + 12) != 0) return 12;
        if (mcore_ReadU32(saved + 16) != 0) return 16;
    }
    if (!(weight >= 0.0f && weight <= 1.0f)) return 20;
    return UINT64_MAX;
}

void mani_InspectOneShot(const maniGraphInstance* g, uint32_t node, maniGraphNodeView* view) {
    const mani_OneShotState* s = mani_OneShotStateOf(g, node);
    view->state = s->phase;
    view->shotWeight = s->weight;
    view->shotSeconds = s->seconds;
}

/* -- Weighing --------------------------------------------------------------------- */

/* The fade-in's weight at `seconds`: from + (1 - from) curve(seconds /
 * fadeIn), 1 at or past fadeIn (binary32). */
static float mani_OneShotFadeIn(const mani_OneShot* o, float from, float seconds) {
    if (!(seconds < o->fadeIn)) return 1.0f;
    return from + (1.0f - from) * mani_FadeCurve(o->curve, seconds / o->fadeIn);
}

/* Reads and clears its triggers (abort first, then fire, then fade-out),
 * moves its seconds by |delta * the time scales above|, finds its phase
 * and weight, then shares: the base its own weight and its root motion
 * weight times 1 - s r, the shot its own times s times the mask's largest
 * bone weight and its root motion weight times s r (s the shot weight, r
 * the mask's weight at the root motion bone), binary32. */
void mani_WeighOneShot(mani_GraphUpdateContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const mani_GraphInputRt* inputs = &b->inputs[n->firstInput];
    const uint32_t base = inputs[0].node, shot = inputs[1].node;
    const mani_OneShot o = mani_OneShotOf(b, node);
    mani_OneShotState* s = mani_OneShotStateOf(c->instance, node);
    maniGraphValue* values = mani_GraphParameters(c->instance);
    const int fire = values[o.trigger].flag != 0;
    const int abort = o.abortTrigger != MANI_NO_PARAMETER && values[o.abortTrigger].flag != 0;
    const int early = o.fadeOutTrigger != MANI_NO_PARAMETER && values[o.fadeOutTrigger].flag != 0;
    values[o.trigger].flag = 0;
    if (o.abortTrigger != MANI_NO_PARAMETER) values[o.abortTrigger].flag = 0;
    if (o.fadeOutTrigger != MANI_NO_PARAMETER) values[o.fadeOutTrigger].flag = 0;
    if (abort) {
        memset(s, 0, sizeof *s);
    } else if (fire) {
        /* From the weight it has: no jump in the shot's weight. */
        const float from = s->weight;
        memset(s, 0, sizeof *s);
        s->phase = MANI_GRAPH_ONESHOT_FADING_IN;
        s->from = from;
        c->states[shot].flags |= MANI_GRAPH_STATE_RESTART;
    } else if (early && (s->phase == MANI_GRAPH_ONESHOT_FADING_IN || s->phase == MANI_GRAPH_ONESHOT_PLAYING)) {
        s->phase = MANI_GRAPH_ONESHOT_FADING_OUT;
        s->outAt = s->seconds;
        s->outWeight = s->weight;
    }
    if (s->phase != MANI_GRAPH_ONESHOT_IDLE) {
        const float seconds = s->seconds + fabsf(c->delta * c->flows[node].factor);
        if (!isfinite(seconds)) {
            memset(s, 0, sizeof *s);
            c->states[node].flags |= MANI_GRAPH_STATE_FAILED;
            c->failed = 1;
        } else {
            s->seconds = seconds;
            /* The fade-out over the last fadeOut seconds of the span (a
             * span of 0: none, the shot plays until a trigger ends it). */
            const float span = b->nodes[shot].span;
            if (s->phase != MANI_GRAPH_ONESHOT_FADING_OUT && span > 0.0f) {
                float outAt = span - o.fadeOut;
                if (outAt < 0.0f) outAt = 0.0f;
                if (seconds >= outAt) {
                    s->phase = MANI_GRAPH_ONESHOT_FADING_OUT;
                    s->outAt = outAt;
                    s->outWeight = mani_OneShotFadeIn(&o, s->from, outAt);
                }
            }
            if (s->phase == MANI_GRAPH_ONESHOT_FADING_OUT) {
                const float q = o.fadeOut > 0.0f ? (seconds - s->outAt) / o.fadeOut : 1.0f;
                if (q >= 1.0f) memset(s, 0, sizeof *s);
                else s->weight = s->outWeight * (1.0f - mani_FadeCurve(o.curve, q));
            } else if (seconds >= o.fadeIn) {
                s->phase = MANI_GRAPH_ONESHOT_PLAYING;
                s->weight = 1.0f;
            } else {
                s->phase = MANI_GRAPH_ONESHOT_FADING_IN;
                s->weight = mani_OneShotFadeIn(&o, s->from, seconds);
            }
        }
    }
    const float own = c->states[node].weight, root = c->flows[node].rootWeight;
    const float rootShare = s->weight * n->maskRoot;
    mani_GraphShare(c, base, own, root * (1.0f - rootShare));
    const float layer = (own * s->weight) * n->maskMost;
    if (layer > 0.0f) mani_GraphShare(c, shot, layer, root * rootShare);
}

/* -- Evaluation ------------------------------------------------------------------- */

/* maniSkeleton_BlendPoses (threshold 0) of the base by 1 - s m_i and the
 * shot by s m_i (s the shot weight, m_i the mask's bone weight, 1
 * unmasked; binary32); the base as it is when the shot has no weight. */
maniResult mani_EvaluateOneShot(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const mani_GraphInputRt* inputs = &b->inputs[n->firstInput];
    const uint32_t base = inputs[0].node, shot = inputs[1].node;
    const float w = mani_OneShotStateOf(c->instance, node)->weight;
    if (!(w * n->maskMost > 0.0f) || (c->states[shot].flags & MANI_GRAPH_STATE_WEIGHED) == 0) {
        mani_GraphCopySlot(c, b->nodes[base].slot, n->slot);
        return mani_success;
    }
    const mani_OneShot o = mani_OneShotOf(b, node);
    float* weights = (float*)(void*)(c->scratch + b->scratchShot);
    for (uint32_t bone = 0; bone < b->boneCount; ++bone) {
        const float m = o.masked ? mani_OneShotWordFloat(o.mask[bone]) : 1.0f;
        weights[bone] = w * m;
        weights[b->boneCount + bone] = 1.0f - weights[bone];
    }
    maniBlendLayer* layers = (maniBlendLayer*)(void*)(c->scratch + b->scratchLayers);
    layers[0].pose = mani_GraphSlotPose(c, b->nodes[base].slot);
    layers[0].weight = 1.0f;
    layers[0].boneWeights = weights + b->boneCount;
    layers[1].pose = mani_GraphSlotPose(c, b->nodes[shot].slot);
    layers[1].weight = 1.0f;
    layers[1].boneWeights = weights;
    return maniSkeleton_BlendPoses(b->skeleton, layers, 2, MANI_BLEND_THRESHOLD_MIN, mani_GraphSlotPose(c, n->slot));
}
