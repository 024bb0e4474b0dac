/* The graph runtime's memory layouts (binding, instance, scratch, subset
 * plan) and the table of node kinds the runtime updates and evaluates. */
#ifndef MAUL_ANIM_GRAPH_RUNTIME_INTERNAL_H
#define MAUL_ANIM_GRAPH_RUNTIME_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/rootmotion.h"

#define MANI_GRAPH_BINDING_MAGIC 0x444E4247u  /* "GBND" */
#define MANI_GRAPH_INSTANCE_MAGIC 0x54534E47u /* "GNST" */
#define MANI_GRAPH_SCRATCH_MAGIC 0x52435347u  /* "GSCR" */
#define MANI_GRAPH_SUBSET_MAGIC 0x42555347u   /* "GSUB" */
#define MANI_GRAPH_STATE_MAGIC 0x54535247u    /* "GRST" */

/* Where a parameter's index among the pose parameters says it has none. */
#define MANI_GRAPH_NO_POSE 0xFFFFFFFFu

/* A node as the binding keeps it, decoded from the file. */
typedef struct mani_GraphNodeRt {
    uint32_t kind;
    uint32_t flags;      /* MANI_GRAPH_NODE_* of the file */
    uint32_t slot;       /* its pose slot */
    uint32_t firstInput; /* into the binding's inputs */
    uint32_t inputCount;
    uint32_t clip;       /* a clip node's slot */
    float speed;         /* a clip node's speed */
    float duration;      /* a clip node's clip's duration */
    uint32_t loop;       /* a clip node's clip's maniLoopPolicy */
    uint32_t rootMotion; /* 1 when a clip node's clip has root motion and gives a pose */
    uint32_t map;        /* a clip node's map slot, or MANI_NO_TRACK for a clip of the graph's skeleton */
    uint32_t data;       /* its first word among the binding's node data words */
    uint32_t dataCount;  /* its words */
    float span;          /* the seconds it plays through: a clip's duration over its speed's magnitude (0 for
                            speed 0), the longest of its inputs' for other kinds */
    uint64_t state;      /* its state block's offset inside the instance (0 for a kind without one) */
    uint64_t stateSize;  /* the block's bytes (a multiple of 4; the instance rounds each block up) */
    uint32_t index;      /* the record's index word: the parameter a select, time scale, seek, additive or
                            pose node reads (or MANI_NO_PARAMETER), a blend space's x parameter, a
                            mask's place among the masks */
    float number;        /* the record's number word: a time scale's factor, a seek's time, an additive's
                            weight (the ones without a parameter) */
    const float* mask;   /* a mask's bone weights (its second input's), then their complements 1 - w */
    float maskMost;      /* a mask's largest bone weight */
    float maskRoot;      /* a mask's bone weight at the root motion bone (0 without one) */
} mani_GraphNodeRt;

typedef struct mani_GraphInputRt {
    uint32_t node;
    uint32_t parameter; /* the weight parameter, or MANI_NO_PARAMETER */
} mani_GraphInputRt;

struct maniGraphBinding {
    uint32_t magic;
    uint32_t nodeCount;
    uint32_t parameterCount;
    uint32_t clipCount;
    uint32_t slotCount;
    uint32_t boneCount;
    uint32_t inputTotal;
    uint32_t poseParameterCount;
    uint32_t maxInputs;  /* the most inputs of one node */
    uint32_t rootBone;   /* the bound clips' root motion bone, or MANI_NO_BONE */
    uint64_t graphIdentity;
    const maniSkeleton* skeleton;
    size_t poseSize;     /* one pose, rounded to MANI_GRAPH_ALIGNMENT */
    size_t instanceSize;
    size_t scratchSize;
    size_t subsetSize;
    /* Offsets inside the instance. */
    size_t instanceParameters;
    size_t instanceNodes;
    size_t instancePoses;   /* per pose parameter: mani_GraphPoseHeader and its locals */
    size_t instancePoseStride;
    size_t instanceMoves;   /* root motion workspace: moves, then weights */
    size_t instanceMoveWeights;
    size_t instanceFlows;   /* per node: mani_GraphNodeFlow (an update's own, never saved) */
    /* Offsets inside the scratch. */
    size_t scratchPoses;
    size_t scratchLayers;
    size_t scratchSource;    /* with map slots: a pose of the largest source skeleton */
    size_t scratchTurns;     /* and the transfer's scratch */
    size_t scratchTurnsSize;
    size_t sourcePoseSize;
    /* Arrays inside the binding's memory. */
    const maniClip* const* clips;       /* per clip slot */
    const mani_GraphNodeRt* nodes;      /* per node */
    const mani_GraphInputRt* inputs;    /* per input */
    const uint32_t* parameterTypes;     /* per parameter */
    const uint32_t* poseIndex;          /* per parameter: its place among the pose parameters, or MANI_GRAPH_NO_POSE */
    const maniGraphValue* defaults;     /* per parameter */
    const uint32_t* words;              /* the node data words (mani_GraphNodeRt's data and dataCount) */
    uint32_t wordCount;
    uint32_t reservedWords;             /* 0 */
    /* The asset slots' bindings (used by the [graph-nodes] kinds and map
     * slots' clips once they play). */
    uint32_t databaseCount;
    uint32_t modelCount;
    uint32_t springSetCount;
    uint32_t mapCount;
    uint32_t mirrorNodes;                              /* the graph's mirror nodes */
    uint32_t reservedCount;                            /* 0 */
    const struct maniMotionDatabase* const* databases; /* per database slot */
    const struct maniLearnedModel* const* models;      /* per model slot */
    const struct maniSpringSet* const* springSets;     /* per spring set slot */
    const struct maniRetargetMap* const* maps;         /* per map slot */
    const maniSkeleton* const* sourceSkeletons;        /* per map slot: its map's source skeleton */
    const struct maniMirrorMap* mirrorMap;             /* the graph's mirror map, or NULL */
    size_t scratchShot; /* with one-shots: the scratch's bone weights of one (shot weights, then complements) */
};

/* A node's state in an instance (saved as it is). */
typedef struct mani_GraphNodeState {
    float weight;
    float playhead;
    uint32_t flags; /* MANI_GRAPH_STATE_WEIGHED, MANI_GRAPH_STATE_FAILED */
    uint32_t reserved;
} mani_GraphNodeState;

#define MANI_GRAPH_STATE_WEIGHED 1u
#define MANI_GRAPH_STATE_FAILED 2u
#define MANI_GRAPH_STATE_FLAGS 3u
/* Set on a node during an update's weighing by a reader (a state machine
 * entering it with restart): the node and everything beneath start over
 * (playheads at 0, each kind's reset); cleared once handed down. */
#define MANI_GRAPH_STATE_RESTART 4u

/* What an update hands down beside the weights, per node: the share of the
 * output's root motion it gives (its pose weight but under masks, by their
 * weight at the root motion bone, and additive layers, none), the product
 * of the time scales above it, and a seek's time its playheads move to.
 * Made afresh by every update (not saved: nothing after the update reads
 * it). */
typedef struct mani_GraphNodeFlow {
    float rootWeight;
    float factor;
    float seekTime;
    uint32_t flags; /* MANI_GRAPH_FLOW_* */
} mani_GraphNodeFlow;

/* Its reader set its factor and seek (the last reader in node order). */
#define MANI_GRAPH_FLOW_HANDED 1u
/* A seek above it fired: its playheads move to seekTime. */
#define MANI_GRAPH_FLOW_SEEK 2u
/* A seek whose trigger was set when the update began. */
#define MANI_GRAPH_FLOW_FIRES 4u

/* What precedes a pose parameter's locals in an instance. */
typedef struct mani_GraphPoseHeader {
    uint32_t set;
    uint32_t reserved;
} mani_GraphPoseHeader;

/* The instance's header; its parts follow at the binding's offsets. */
struct maniGraphInstance {
    uint32_t magic;
    uint32_t updated; /* 1 once an update weighed the nodes */
    uint64_t graphIdentity;
    const maniGraphBinding* binding;
};

/* The scratch's header: which binding its slot poses were made for. */
typedef struct mani_GraphScratchHeader {
    uint32_t magic;
    uint32_t reserved;
    const maniGraphBinding* binding;
} mani_GraphScratchHeader;

struct maniGraphSubset {
    uint32_t magic;
    uint32_t count;
    const maniGraphBinding* binding;
    /* count bones follow */
};

#define MANI_GRAPH_SCRATCH_HEADER 64u
#define MANI_GRAPH_SUBSET_HEADER 32u

static inline size_t mani_GraphRound(size_t n) {
    return (n + (MANI_GRAPH_ALIGNMENT - 1)) & ~(size_t)(MANI_GRAPH_ALIGNMENT - 1);
}

static inline int mani_GraphAligned(const void* p) { return ((uintptr_t)p & (MANI_GRAPH_ALIGNMENT - 1)) == 0; }

int mani_GraphBindingOk(const maniGraphBinding* b);
/* Resets every node's state block of a kind with a reset (all of them
 * with `all`, else only the kinds whose state is not saved: the caches a
 * restore starts over, like clip cursors). */
void mani_GraphResetStates(maniGraphInstance* instance, int all);
int mani_GraphInstanceOk(const maniGraphInstance* instance);

static inline maniGraphValue* mani_GraphParameters(const maniGraphInstance* g) {
    return (maniGraphValue*)(void*)((uint8_t*)(uintptr_t)g + g->binding->instanceParameters);
}
static inline mani_GraphNodeState* mani_GraphStates(const maniGraphInstance* g) {
    return (mani_GraphNodeState*)(void*)((uint8_t*)(uintptr_t)g + g->binding->instanceNodes);
}
static inline mani_GraphPoseHeader* mani_GraphPoseParameter(const maniGraphInstance* g, uint32_t poseIndex) {
    return (mani_GraphPoseHeader*)(void*)((uint8_t*)(uintptr_t)g + g->binding->instancePoses +
                                          g->binding->instancePoseStride * poseIndex);
}
static inline maniTransform* mani_GraphPoseLocals(mani_GraphPoseHeader* h) {
    return (maniTransform*)(void*)(h + 1);
}
static inline mani_GraphNodeFlow* mani_GraphFlows(const maniGraphInstance* g) {
    return (mani_GraphNodeFlow*)(void*)((uint8_t*)(uintptr_t)g + g->binding->instanceFlows);
}
/* A node's state block inside an instance. */
static inline void* mani_GraphNodeBlock(const maniGraphInstance* g, uint32_t node) {
    return (void*)((uint8_t*)(uintptr_t)g + g->binding->nodes[node].state);
}

/* The weight an input gives (its parameter clamped to [0, 1]). */
float mani_GraphInputWeight(const maniGraphInstance* g, const mani_GraphInputRt* input);

/* -- The node kinds' table ----------------------------------------------------- */

/* What an update and an evaluation hand a kind's functions. */
typedef struct mani_GraphUpdateContext {
    maniGraphInstance* instance;
    const maniGraphBinding* binding;
    mani_GraphNodeState* states;
    mani_GraphNodeFlow* flows;
    float delta;
    maniGraphEvent* events;
    uint32_t capacity;
    uint32_t eventCount;
    uint32_t moveCount;
    maniRootMove* moves;
    float* moveWeights;
    int failed;
} mani_GraphUpdateContext;

typedef struct mani_GraphEvalContext {
    maniGraphInstance* instance;
    const maniGraphBinding* binding;
    const mani_GraphNodeState* states;
    uint8_t* scratch;
    const uint32_t* bones; /* a subset's bones, or NULL for every bone */
    uint32_t boneCount;
} mani_GraphEvalContext;

/* A kind's share of weights down to its inputs (the node's own weight set). */
typedef void (*mani_GraphWeighFn)(mani_GraphUpdateContext* c, uint32_t node);
/* A kind's step through time (playheads, events, root motion). */
typedef void (*mani_GraphAdvanceFn)(mani_GraphUpdateContext* c, uint32_t node);
/* A kind's pose into its slot. */
typedef maniResult (*mani_GraphEvaluateFn)(const mani_GraphEvalContext* c, uint32_t node);

/* The bytes of a node's state block in an instance (a multiple of 4), from
 * the binding's nodes, clips and words (its instance layout not made yet). */
typedef size_t (*mani_GraphStateSizeFn)(const maniGraphBinding* b, uint32_t node);
/* Makes a node's state block afresh (maniInitGraphInstance, a restart). */
typedef void (*mani_GraphResetFn)(maniGraphInstance* g, uint32_t node);
/* Checks a node's saved state block (stateSize bytes, little-endian words)
 * as external bytes: returns the offset inside it of the first wrong word,
 * or UINT64_MAX when every word is in range. A kind with it has its block
 * saved and restored word by word; one without has it reset by a restore. */
typedef uint64_t (*mani_GraphCheckRestoredFn)(const maniGraphBinding* b, uint32_t node, const uint8_t* saved);
/* Fills a kind's part of maniGraphInstance_InspectNode's view. */
typedef void (*mani_GraphInspectFn)(const maniGraphInstance* g, uint32_t node, maniGraphNodeView* view);

typedef struct mani_GraphKindRt {
    mani_GraphWeighFn weigh;       /* NULL for a kind without inputs */
    mani_GraphAdvanceFn advance;   /* NULL for a kind that keeps no time */
    mani_GraphEvaluateFn evaluate; /* NULL for a kind this release does not play */
    /* Per-node instance state (NULL: none); new members go at the end. */
    mani_GraphStateSizeFn stateSize;
    mani_GraphResetFn reset;
    mani_GraphCheckRestoredFn checkRestored;
    mani_GraphInspectFn inspect;
} mani_GraphKindRt;

/* Adds a share of a node's weight and of its root motion weight to an
 * input (each sum held at 1) and marks it weighed: every kind's weighing
 * shares through it. */
void mani_GraphShare(mani_GraphUpdateContext* c, uint32_t input, float weight, float rootWeight);

/* Copies a slot's pose into another (the subset's bones only, with a
 * subset; the difference flag always). */
void mani_GraphCopySlot(const mani_GraphEvalContext* c, uint32_t from, uint32_t to);
/* A pose's slot made the rest (or the identity difference). */
maniResult mani_GraphRestSlot(const mani_GraphEvalContext* c, uint32_t slot, int difference);

/* The kinds of graph_layers.c (mask, additive, select, pose), graph_pass.c
 * (time scale, seek) and graph_mirror.c. */
void mani_WeighMask(mani_GraphUpdateContext* c, uint32_t node);
maniResult mani_EvaluateMask(const mani_GraphEvalContext* c, uint32_t node);
void mani_WeighAdditive(mani_GraphUpdateContext* c, uint32_t node);
maniResult mani_EvaluateAdditive(const mani_GraphEvalContext* c, uint32_t node);
void mani_WeighSelect(mani_GraphUpdateContext* c, uint32_t node);
maniResult mani_EvaluateSelect(const mani_GraphEvalContext* c, uint32_t node);
maniResult mani_EvaluatePose(const mani_GraphEvalContext* c, uint32_t node);
/* An additive's and a select's one-word state blocks (graph_layers.c). */
size_t mani_OneWordStateSize(const maniGraphBinding* b, uint32_t node);
void mani_ResetOneWord(maniGraphInstance* g, uint32_t node);
uint64_t mani_CheckRestoredAdditive(const maniGraphBinding* b, uint32_t node, const uint8_t* saved);
uint64_t mani_CheckRestoredSelect(const maniGraphBinding* b, uint32_t node, const uint8_t* saved);
/* A select's chosen input by its parameter (a place among its inputs). */
uint32_t mani_SelectChoice(const maniGraphInstance* g, uint32_t node);
void mani_WeighPass(mani_GraphUpdateContext* c, uint32_t node);
maniResult mani_EvaluatePass(const mani_GraphEvalContext* c, uint32_t node);
/* A time scale's factor (its parameter held to +-MANI_MAX_GRAPH_TIME_FACTOR,
 * or its constant). */
float mani_TimeScaleFactor(const maniGraphInstance* g, uint32_t node);
/* Whether a seek's trigger is set. */
int mani_SeekFires(const maniGraphInstance* g, uint32_t node);
maniResult mani_EvaluateMirror(const mani_GraphEvalContext* c, uint32_t node);

/* The state machine's (graph_machine.c). */
void mani_WeighMachine(mani_GraphUpdateContext* c, uint32_t node);
maniResult mani_EvaluateMachine(const mani_GraphEvalContext* c, uint32_t node);
size_t mani_MachineStateSize(const maniGraphBinding* b, uint32_t node);
void mani_ResetMachine(maniGraphInstance* g, uint32_t node);
uint64_t mani_CheckRestoredMachine(const maniGraphBinding* b, uint32_t node, const uint8_t* saved);
void mani_InspectMachine(const maniGraphInstance* g, uint32_t node, maniGraphNodeView* view);

/* The blend spaces' (graph_spaces.c). */
void mani_WeighSpace(mani_GraphUpdateContext* c, uint32_t node);
maniResult mani_EvaluateSpace(const mani_GraphEvalContext* c, uint32_t node);
size_t mani_SpaceStateSize(const maniGraphBinding* b, uint32_t node);
void mani_ResetSpace(maniGraphInstance* g, uint32_t node);
uint64_t mani_CheckRestoredSpace(const maniGraphBinding* b, uint32_t node, const uint8_t* saved);

/* A fade curve (maniGraphFadeCurve) at a progress p in [0, 1], binary32
 * (graph_machine.c): the machine's transitions' and the one-shots'. */
float mani_FadeCurve(uint32_t curve, float p);

/* The one-shots' (graph_oneshot.c). */
void mani_WeighOneShot(mani_GraphUpdateContext* c, uint32_t node);
maniResult mani_EvaluateOneShot(const mani_GraphEvalContext* c, uint32_t node);
size_t mani_OneShotStateSize(const maniGraphBinding* b, uint32_t node);
void mani_ResetOneShot(maniGraphInstance* g, uint32_t node);
uint64_t mani_CheckRestoredOneShot(const maniGraphBinding* b, uint32_t node, const uint8_t* saved);
void mani_InspectOneShot(const maniGraphInstance* g, uint32_t node, maniGraphNodeView* view);
/* A bound one-shot's mask summary from its node data words: its largest
 * bone weight and its weight at the root motion bone (1 and 1 unmasked; a
 * masked one without a root motion bone 0 there). */
void mani_BindOneShot(mani_GraphNodeRt* node, const uint32_t* words, uint32_t boneCount, uint32_t rootBone);

/* The inertialize nodes' (graph_inertialize.c). */
void mani_WeighInertialize(mani_GraphUpdateContext* c, uint32_t node);
maniResult mani_EvaluateInertialize(const mani_GraphEvalContext* c, uint32_t node);
size_t mani_InertializeStateSize(const maniGraphBinding* b, uint32_t node);
void mani_ResetInertialize(maniGraphInstance* g, uint32_t node);
uint64_t mani_CheckRestoredInertialize(const maniGraphBinding* b, uint32_t node, const uint8_t* saved);
void mani_InspectInertialize(const maniGraphInstance* g, uint32_t node, maniGraphNodeView* view);

/* Indexed by maniGraphNodeKind. */
extern const mani_GraphKindRt mani_graphKinds[MANI_GRAPH_NODE_KIND_COUNT];

static inline maniPose* mani_GraphSlotPose(const mani_GraphEvalContext* c, uint32_t slot) {
    return (maniPose*)(void*)(c->scratch + c->binding->scratchPoses + c->binding->poseSize * slot);
}

#endif
