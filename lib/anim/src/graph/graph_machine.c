/* The state machine node (maniGraphNodeStateMachine): its node data's
 * check at the open, and its runtime: states (its inputs) entered by
 * transitions whose conditions hold, faded by curves, interrupted, cooled
 * down, chained up to its chain limit; the weights shared down to the
 * current and fading states; its state block saved and checked.
 *
 * Node data (docs/formats.md, "Graph"): u32 entry, chain limit (1 to 4),
 * transitions T, finals F; F u32 final states; then each transition's
 * MANI_GRAPH_MACHINE_TRANSITION words and its conditions' words.
 *
 * State block: u32 layer count L (1 to chain limit + 1), u32 0, then
 * MANI_GRAPH_MACHINE_LAYERS layers of u32 state, u32 transition (the one
 * that entered it; MANI_GRAPH_NONE for the base), f32 fade elapsed, f32
 * seconds in the state (the unused layers 0), then T f32 cooldowns left.
 * Layer L - 1 is the current state; each layer i above the base fades in
 * over the mix of the layers below it. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_format.h"
#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/core/container.h"
#include "maul/anim/blend.h"

#define MANI_GRAPH_MACHINE_LAYERS (MANI_GRAPH_MACHINE_CHAIN + 1u)
#define MANI_GRAPH_MACHINE_BLOCK_HEADER 2u
#define MANI_GRAPH_MACHINE_LAYER 4u
#define MANI_GRAPH_MACHINE_COOLDOWNS (MANI_GRAPH_MACHINE_BLOCK_HEADER + MANI_GRAPH_MACHINE_LAYER * MANI_GRAPH_MACHINE_LAYERS)

/* -- The open's check ----------------------------------------------------------- */

static int mani_MachineConditionParameterOk(uint32_t kind, uint32_t parameter, const uint8_t* params,
                                            uint32_t parameterCount) {
    if (kind > maniGraphConditionTrigger) return parameter == MANI_NO_PARAMETER;
    if (parameter >= parameterCount) return 0;
    const uint32_t type = mcore_ReadU32(params + (uint64_t)MANI_GRAPH_PARAMETER_SIZE * parameter);
    if (kind == maniGraphConditionTrue || kind == maniGraphConditionFalse) return type == maniGraphParameterBool;
    if (kind == maniGraphConditionTrigger) return type == maniGraphParameterTrigger;
    return type == maniGraphParameterFloat;
}

uint64_t mani_CheckGraphMachineData(const uint8_t* b, uint64_t words, uint32_t count, uint64_t countAt,
                                    uint32_t states, const uint8_t* params, uint32_t parameterCount) {
    if (count < MANI_GRAPH_MACHINE_HEADER) return countAt;
    if (mcore_ReadU32(b + words) >= states) return words;
    const uint32_t chain = mcore_ReadU32(b + words + 4);
    if (chain == 0 || chain > MANI_GRAPH_MACHINE_CHAIN) return words + 4;
    const uint32_t transitions = mcore_ReadU32(b + words + 8), finals = mcore_ReadU32(b + words + 12);
    if (transitions > MANI_MAX_GRAPH_TRANSITIONS) return words + 8;
    if (finals > states) return words + 12;
    uint64_t used = MANI_GRAPH_MACHINE_HEADER + (uint64_t)finals;
    if (used > count) return countAt;
    for (uint32_t f = 0; f < finals; ++f) {
        const uint64_t at = words + 4u * (MANI_GRAPH_MACHINE_HEADER + (uint64_t)f);
        const uint32_t state = mcore_ReadU32(b + at);
        if (state >= states) return at;
        for (uint32_t e = 0; e < f; ++e)
            if (mcore_ReadU32(b + words + 4u * (MANI_GRAPH_MACHINE_HEADER + (uint64_t)e)) == state) return at;
    }
    for (uint32_t t = 0; t < transitions; ++t) {
        if (used + MANI_GRAPH_MACHINE_TRANSITION > count) return countAt;
        const uint64_t at = words + 4u * used;
        const uint32_t from = mcore_ReadU32(b + at), to = mcore_ReadU32(b + at + 4);
        if (from != MANI_GRAPH_NONE && from >= states) return at;
        if (to >= states) return at + 4;
        /* at + 8: the priority, any value */
        if (mcore_ReadU32(b + at + 12) > maniGraphInterruptBoth) return at + 12;
        if (mcore_ReadU32(b + at + 16) > maniGraphEntryContinue) return at + 16;
        if (mcore_ReadU32(b + at + 20) >= MANI_GRAPH_FADE_CURVE_COUNT) return at + 20;
        const float duration = mcore_ReadF32(b + at + 24), cooldown = mcore_ReadF32(b + at + 28);
        if (!(isfinite(duration) && duration >= 0.0f)) return at + 24;
        if (!(isfinite(cooldown) && cooldown >= 0.0f)) return at + 28;
        const uint32_t conditions = mcore_ReadU32(b + at + 32);
        if (conditions > MANI_MAX_GRAPH_CONDITIONS) return at + 32;
        used += MANI_GRAPH_MACHINE_TRANSITION;
        if (used + (uint64_t)MANI_GRAPH_MACHINE_CONDITION * conditions > count) return countAt;
        for (uint32_t k = 0; k < conditions; ++k, used += MANI_GRAPH_MACHINE_CONDITION) {
            const uint64_t c = words + 4u * used;
            const uint32_t kind = mcore_ReadU32(b + c);
            if (kind >= MANI_GRAPH_CONDITION_KIND_COUNT) return c;
            if (!mani_MachineConditionParameterOk(kind, mcore_ReadU32(b + c + 4), params, parameterCount)) return c + 4;
            const float value = mcore_ReadF32(b + c + 8);
            int valueOk;
            if (kind <= maniGraphConditionNotEqual) valueOk = isfinite(value);
            else if (kind == maniGraphConditionTime || kind == maniGraphConditionExitTime)
                valueOk = isfinite(value) && value >= 0.0f;
            else valueOk = mcore_ReadU32(b + c + 8) == 0;
            if (!valueOk) return c + 8;
        }
    }
    return used == count ? 0 : countAt;
}

/* -- The node data at run time ------------------------------------------------- */

static float mani_WordFloat(uint32_t w) {
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

static uint32_t mani_FloatWord(float f) {
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

/* A transition's words, by its place (walking the list). */
typedef struct mani_MachineTransition {
    uint32_t from, to, priority, interruption, entry, fade;
    float duration, cooldown;
    uint32_t conditionCount;
    const uint32_t* conditions;
} mani_MachineTransition;

typedef struct mani_Machine {
    const uint32_t* words;
    uint32_t states, entry, chain, transitionCount, finalCount;
    const uint32_t* finals;
    const uint32_t* transitions; /* the first transition's words */
} mani_Machine;

static mani_Machine mani_MachineOf(const maniGraphBinding* b, uint32_t node) {
    const mani_GraphNodeRt* n = &b->nodes[node];
    mani_Machine m;
    m.words = b->words + n->data;
    m.states = n->inputCount;
    m.entry = m.words[0];
    m.chain = m.words[1];
    m.transitionCount = m.words[2];
    m.finalCount = m.words[3];
    m.finals = m.words + MANI_GRAPH_MACHINE_HEADER;
    m.transitions = m.finals + m.finalCount;
    return m;
}

/* Reads the transition at `at` and returns the words after it. */
static const uint32_t* mani_ReadTransition(const uint32_t* at, mani_MachineTransition* t) {
    t->from = at[0];
    t->to = at[1];
    t->priority = at[2];
    t->interruption = at[3];
    t->entry = at[4];
    t->fade = at[5];
    t->duration = mani_WordFloat(at[6]);
    t->cooldown = mani_WordFloat(at[7]);
    t->conditionCount = at[8];
    t->conditions = at + MANI_GRAPH_MACHINE_TRANSITION;
    return t->conditions + MANI_GRAPH_MACHINE_CONDITION * t->conditionCount;
}

static mani_MachineTransition mani_TransitionAt(const mani_Machine* m, uint32_t index) {
    mani_MachineTransition t;
    const uint32_t* at = m->transitions;
    for (uint32_t i = 0; i <= index; ++i) at = mani_ReadTransition(at, &t);
    return t;
}

static int mani_MachineFinal(const mani_Machine* m, uint32_t state) {
    for (uint32_t f = 0; f < m->finalCount; ++f)
        if (m->finals[f] == state) return 1;
    return 0;
}

/* The fade curve at a progress p in [0, 1] (binary32, in this order); the
 * one-shots' fades too (graph_runtime_internal.h). */
float mani_FadeCurve(uint32_t curve, float p) {
    switch (curve) {
    case maniGraphFadeEaseIn: return p * p;
    case maniGraphFadeEaseOut: return p * (2.0f - p);
    case maniGraphFadeEaseInOut: return (p * p) * (3.0f - 2.0f * p);
    default: return p;
    }
}

/* -- The state block ---------------------------------------------------------- */

typedef struct mani_MachineLayer {
    uint32_t state;
    uint32_t transition;
    float elapsed;
    float time;
} mani_MachineLayer;

/* The block as words in instance memory (4-byte aligned inside it). */
static uint32_t* mani_MachineBlock(const maniGraphInstance* g, uint32_t node) {
    return (uint32_t*)mani_GraphNodeBlock(g, node);
}

static mani_MachineLayer mani_GetLayer(const uint32_t* block, uint32_t i) {
    const uint32_t* w = block + MANI_GRAPH_MACHINE_BLOCK_HEADER + MANI_GRAPH_MACHINE_LAYER * i;
    mani_MachineLayer l;
    l.state = w[0];
    l.transition = w[1];
    l.elapsed = mani_WordFloat(w[2]);
    l.time = mani_WordFloat(w[3]);
    return l;
}

static void mani_SetLayer(uint32_t* block, uint32_t i, const mani_MachineLayer* l) {
    uint32_t* w = block + MANI_GRAPH_MACHINE_BLOCK_HEADER + MANI_GRAPH_MACHINE_LAYER * i;
    w[0] = l->state;
    w[1] = l->transition;
    w[2] = mani_FloatWord(l->elapsed);
    w[3] = mani_FloatWord(l->time);
}

static void mani_ClearLayer(uint32_t* block, uint32_t i) {
    memset(block + MANI_GRAPH_MACHINE_BLOCK_HEADER + MANI_GRAPH_MACHINE_LAYER * i, 0,
           4u * MANI_GRAPH_MACHINE_LAYER);
}

/* Drops the layers below `first`: it becomes the base (no fade). */
static void mani_DropLayersBelow(uint32_t* block, uint32_t first) {
    const uint32_t count = block[0];
    for (uint32_t i = first; i < count; ++i) {
        mani_MachineLayer l = mani_GetLayer(block, i);
        if (i == first) {
            l.transition = MANI_GRAPH_NONE;
            l.elapsed = 0.0f;
        }
        mani_SetLayer(block, i - first, &l);
    }
    for (uint32_t i = count - first; i < count; ++i) mani_ClearLayer(block, i);
    block[0] = count - first;
}

size_t mani_MachineStateSize(const maniGraphBinding* b, uint32_t node) {
    const mani_Machine m = mani_MachineOf(b, node);
    return 4u * ((size_t)MANI_GRAPH_MACHINE_COOLDOWNS + m.transitionCount);
}

void mani_ResetMachine(maniGraphInstance* g, uint32_t node) {
    const mani_GraphNodeRt* n = &g->binding->nodes[node];
    const mani_Machine m = mani_MachineOf(g->binding, node);
    uint32_t* block = mani_MachineBlock(g, node);
    memset(block, 0, (size_t)n->stateSize);
    block[0] = 1;
    const mani_MachineLayer base = {m.entry, MANI_GRAPH_NONE, 0.0f, 0.0f};
    mani_SetLayer(block, 0, &base);
}

/* The weight of each layer (of the machine's own 1): layer i the curve of
 * its fade times what the layers above leave, the base what is left. */
static void mani_LayerWeights(const mani_Machine* m, const uint32_t* block, float* weights) {
    const uint32_t count = block[0];
    float rest = 1.0f;
    for (uint32_t i = count; i-- > 0;) {
        if (i == 0) {
            weights[0] = rest;
            break;
        }
        const mani_MachineLayer l = mani_GetLayer(block, i);
        const mani_MachineTransition t = mani_TransitionAt(m, l.transition);
        float p = t.duration > 0.0f ? l.elapsed / t.duration : 1.0f;
        p = p > 1.0f ? 1.0f : (p > 0.0f ? p : 0.0f);
        const float c = mani_FadeCurve(t.fade, p);
        weights[i] = rest * c;
        rest = rest * (1.0f - c);
    }
}

/* -- Conditions and transitions ------------------------------------------------ */

/* Whether a state machine node is in one of its finals with no fade. */
static int mani_MachineFinished(const maniGraphInstance* g, uint32_t node) {
    const maniGraphBinding* b = g->binding;
    if (b->nodes[node].kind != maniGraphNodeStateMachine) return 0;
    const mani_Machine m = mani_MachineOf(b, node);
    const uint32_t* block = mani_MachineBlock(g, node);
    return block[0] == 1 && mani_MachineFinal(&m, mani_GetLayer(block, 0).state);
}

/* Whether every condition of a transition holds, its source state's layer
 * (its seconds in it) given. */
static int mani_ConditionsHold(const mani_GraphUpdateContext* c, uint32_t node, const mani_MachineTransition* t,
                               const mani_MachineLayer* from) {
    const maniGraphBinding* b = c->binding;
    const maniGraphValue* values = mani_GraphParameters(c->instance);
    const uint32_t fromNode = b->inputs[b->nodes[node].firstInput + from->state].node;
    for (uint32_t k = 0; k < t->conditionCount; ++k) {
        const uint32_t* w = t->conditions + MANI_GRAPH_MACHINE_CONDITION * k;
        const uint32_t kind = w[0], p = w[1];
        const float value = mani_WordFloat(w[2]);
        int holds = 0;
        switch (kind) {
        case maniGraphConditionGreater: holds = values[p].number > value; break;
        case maniGraphConditionLess: holds = values[p].number < value; break;
        case maniGraphConditionGreaterEqual: holds = values[p].number >= value; break;
        case maniGraphConditionLessEqual: holds = values[p].number <= value; break;
        case maniGraphConditionEqual: holds = values[p].number == value; break;
        case maniGraphConditionNotEqual: holds = values[p].number != value; break;
        case maniGraphConditionTrue: holds = values[p].flag != 0; break;
        case maniGraphConditionFalse: holds = values[p].flag == 0; break;
        case maniGraphConditionTrigger: holds = values[p].flag != 0; break;
        case maniGraphConditionTime: holds = from->time >= value; break;
        case maniGraphConditionExitTime: {
            const float span = b->nodes[fromNode].span;
            holds = span > 0.0f && from->time / span >= value;
            break;
        }
        default: holds = mani_MachineFinished(c->instance, fromNode); break; /* Finished */
        }
        if (!holds) return 0;
    }
    return 1;
}

/* Takes at most one transition: of those that may leave the current state
 * (or, during a fade, those its interruption lets in), cooled down, whose
 * conditions hold, the highest priority, the earliest of equals. */
static void mani_TakeTransition(mani_GraphUpdateContext* c, uint32_t node, const mani_Machine* m, uint32_t* block) {
    const uint32_t count = block[0];
    const mani_MachineLayer current = mani_GetLayer(block, count - 1);
    if (mani_MachineFinal(m, current.state)) return;
    uint32_t mode = maniGraphInterruptDestination; /* no fade: the current state's transitions */
    mani_MachineLayer source = current;
    if (count > 1) {
        mode = mani_TransitionAt(m, current.transition).interruption;
        if (mode == maniGraphInterruptNone) return;
        source = mani_GetLayer(block, count - 2);
    }
    const uint32_t* cooldowns = block + MANI_GRAPH_MACHINE_COOLDOWNS;
    uint32_t best = MANI_GRAPH_NONE;
    mani_MachineTransition chosen;
    memset(&chosen, 0, sizeof chosen);
    const uint32_t* at = m->transitions;
    for (uint32_t i = 0; i < m->transitionCount; ++i) {
        mani_MachineTransition t;
        at = mani_ReadTransition(at, &t);
        const mani_MachineLayer* from = NULL;
        if (t.from == MANI_GRAPH_NONE) {
            if (t.to != current.state) from = &current;
        } else if ((mode & maniGraphInterruptDestination) != 0 && t.from == current.state) {
            from = &current;
        } else if ((mode & maniGraphInterruptSource) != 0 && count > 1 && t.from == source.state) {
            from = &source;
        }
        if (from == NULL || mani_WordFloat(cooldowns[i]) > 0.0f) continue;
        if (best != MANI_GRAPH_NONE && t.priority <= chosen.priority) continue;
        if (!mani_ConditionsHold(c, node, &t, from)) continue;
        best = i;
        chosen = t;
    }
    if (best == MANI_GRAPH_NONE) return;
    /* Taken: its triggers consumed, its cooldown started, its destination
     * a new layer over the others (the oldest dropped past the chain). */
    maniGraphValue* values = mani_GraphParameters(c->instance);
    for (uint32_t k = 0; k < chosen.conditionCount; ++k) {
        const uint32_t* w = chosen.conditions + MANI_GRAPH_MACHINE_CONDITION * k;
        if (w[0] == maniGraphConditionTrigger) values[w[1]].flag = 0;
    }
    block[MANI_GRAPH_MACHINE_COOLDOWNS + best] = mani_FloatWord(chosen.cooldown);
    if (count == m->chain + 1u) mani_DropLayersBelow(block, 1);
    const mani_MachineLayer entered = {chosen.to, best, 0.0f, 0.0f};
    mani_SetLayer(block, block[0], &entered);
    block[0] += 1;
    if (chosen.entry == maniGraphEntryRestart) {
        const uint32_t in = c->binding->inputs[c->binding->nodes[node].firstInput + chosen.to].node;
        c->states[in].flags |= MANI_GRAPH_STATE_RESTART;
    }
}

/* A weighed machine's step: a transition taken on the times the last
 * update left, then every layer's time, fade and cooldown moved by the
 * step's magnitude, the fades done dropping what they covered, and the
 * machine's weight shared down by the layers' weights. */
void mani_WeighMachine(mani_GraphUpdateContext* c, uint32_t node) {
    const mani_Machine m = mani_MachineOf(c->binding, node);
    uint32_t* block = mani_MachineBlock(c->instance, node);
    mani_TakeTransition(c, node, &m, block);
    const float step = fabsf(c->delta * c->flows[node].factor);
    const uint32_t count = block[0];
    for (uint32_t i = 0; i < count; ++i) {
        mani_MachineLayer l = mani_GetLayer(block, i);
        l.time += step;
        if (i > 0) l.elapsed += step;
        mani_SetLayer(block, i, &l);
    }
    for (uint32_t t = 0; t < m.transitionCount; ++t) {
        const float left = mani_WordFloat(block[MANI_GRAPH_MACHINE_COOLDOWNS + t]) - step;
        block[MANI_GRAPH_MACHINE_COOLDOWNS + t] = mani_FloatWord(left > 0.0f ? left : 0.0f);
    }
    for (uint32_t i = count; i-- > 1;) {
        const mani_MachineLayer l = mani_GetLayer(block, i);
        if (l.elapsed >= mani_TransitionAt(&m, l.transition).duration) {
            mani_DropLayersBelow(block, i);
            break;
        }
    }
    float weights[MANI_GRAPH_MACHINE_LAYERS];
    mani_LayerWeights(&m, block, weights);
    const float own = c->states[node].weight, root = c->flows[node].rootWeight;
    const mani_GraphInputRt* inputs = &c->binding->inputs[c->binding->nodes[node].firstInput];
    for (uint32_t i = block[0]; i-- > 0;) {
        const float share = own * weights[i];
        if (!(share > 0.0f)) continue;
        mani_GraphShare(c, inputs[mani_GetLayer(block, i).state].node, share, root * weights[i]);
    }
}

/* The layers' poses blended by their weights (a state in several layers
 * once, its weights summed in layer order from the current down). */
maniResult mani_EvaluateMachine(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const mani_Machine m = mani_MachineOf(b, node);
    const uint32_t* block = mani_MachineBlock(c->instance, node);
    float weights[MANI_GRAPH_MACHINE_LAYERS];
    mani_LayerWeights(&m, block, weights);
    maniBlendLayer* layers = (maniBlendLayer*)(void*)(c->scratch + b->scratchLayers);
    uint32_t states[MANI_GRAPH_MACHINE_LAYERS];
    uint32_t count = 0;
    for (uint32_t i = block[0]; i-- > 0;) {
        const uint32_t state = mani_GetLayer(block, i).state;
        const uint32_t in = b->inputs[n->firstInput + state].node;
        if (!(c->states[node].weight * weights[i] > 0.0f) || (c->states[in].flags & MANI_GRAPH_STATE_WEIGHED) == 0)
            continue;
        uint32_t k = 0;
        while (k < count && states[k] != state) ++k;
        if (k == count) {
            states[count] = state;
            layers[count].pose = mani_GraphSlotPose(c, b->nodes[in].slot);
            layers[count].weight = weights[i];
            layers[count].boneWeights = NULL;
            count++;
        } else {
            /* Summed, held at 1 (binary32 rounding may carry a sum of
             * shares past it, which a blend refuses). */
            const float sum = layers[k].weight + weights[i];
            layers[k].weight = sum > 1.0f ? 1.0f : sum;
        }
    }
    maniPose* out = mani_GraphSlotPose(c, n->slot);
    if (count == 0 && (n->flags & MANI_GRAPH_NODE_DIFFERENCE) != 0) {
        maniResult r = maniPose_SetRest(out, b->skeleton);
        if (r == mani_success) r = maniSkeleton_ComputePoseDifference(b->skeleton, out, out, out);
        return r;
    }
    return maniSkeleton_BlendPoses(b->skeleton, layers, count, MANI_BLEND_THRESHOLD_MIN, out);
}

/* Checks a saved block: the layer count within the chain, each used
 * layer's state, transition (the base none, the others one entering that
 * state), fade (0 for the base, under the transition's duration for the
 * others) and seconds (finite, 0 or more), the unused layers 0, the
 * cooldowns from 0 to their transition's. */
uint64_t mani_CheckRestoredMachine(const maniGraphBinding* b, uint32_t node, const uint8_t* saved) {
    const mani_Machine m = mani_MachineOf(b, node);
    const uint32_t count = mcore_ReadU32(saved);
    if (count == 0 || count > m.chain + 1u) return 0;
    if (mcore_ReadU32(saved + 4) != 0) return 4;
    for (uint32_t i = 0; i < MANI_GRAPH_MACHINE_LAYERS; ++i) {
        const uint64_t at = 4u * (MANI_GRAPH_MACHINE_BLOCK_HEADER + (uint64_t)MANI_GRAPH_MACHINE_LAYER * i);
        if (i >= count) {
            for (uint64_t k = 0; k < 4u * MANI_GRAPH_MACHINE_LAYER; k += 4)
                if (mcore_ReadU32(saved + at + k) != 0) return at + k;
            continue;
        }
        const uint32_t state = mcore_ReadU32(saved + at), transition = mcore_ReadU32(saved + at + 4);
        const float elapsed = mcore_ReadF32(saved + at + 8), time = mcore_ReadF32(saved + at + 12);
        if (state >= m.states) return at;
        if (i == 0) {
            if (transition != MANI_GRAPH_NONE) return at + 4;
            if (mcore_ReadU32(saved + at + 8) != 0) return at + 8;
        } else {
            if (transition >= m.transitionCount) return at + 4;
            const mani_MachineTransition t = mani_TransitionAt(&m, transition);
            if (t.to != state) return at + 4;
            if (!(elapsed >= 0.0f && elapsed < t.duration)) return at + 8;
        }
        if (!(isfinite(time) && time >= 0.0f)) return at + 12;
    }
    const uint32_t* at = m.transitions;
    for (uint32_t t = 0; t < m.transitionCount; ++t) {
        mani_MachineTransition tr;
        at = mani_ReadTransition(at, &tr);
        const uint64_t off = 4u * ((uint64_t)MANI_GRAPH_MACHINE_COOLDOWNS + t);
        const float left = mcore_ReadF32(saved + off);
        if (!(left >= 0.0f && left <= tr.cooldown)) return off;
    }
    return UINT64_MAX;
}

void mani_InspectMachine(const maniGraphInstance* g, uint32_t node, maniGraphNodeView* view) {
    const uint32_t* block = mani_MachineBlock(g, node);
    const mani_MachineLayer current = mani_GetLayer(block, block[0] - 1);
    view->state = current.state;
    view->transition = block[0] > 1 ? current.transition : MANI_GRAPH_NONE;
}
