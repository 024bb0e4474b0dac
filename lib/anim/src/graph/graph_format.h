/* The graph file format, version 10 (docs/formats.md, "Graph"): shared by
 * the open (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_GRAPH_FORMAT_H
#define MAUL_ANIM_GRAPH_FORMAT_H

#include "lib/core/container.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h" /* the limits */

/* Section tags and their order. */
#define MANI_GRAPH_INFO MCORE_TAG(10, 1)       /* u64 skeleton identity, u32 nodes, parameters, clips, pose slots, inputs, name bytes, u64 mirror map identity, u32 database slots, model slots, spring set slots, map slots, database clips, 0 */
#define MANI_GRAPH_PARAMETERS MCORE_TAG(10, 2) /* 32 bytes a parameter: u32 type, name offset, name length, 0, 4 x f32 default */
#define MANI_GRAPH_CLIPS MCORE_TAG(10, 3)      /* 24 bytes a slot: u64 clip identity, u32 name offset, name length, map slot (or MANI_NO_TRACK), 0 */
#define MANI_GRAPH_NODES MCORE_TAG(10, 4)      /* 32 bytes a node: u32 kind, flags, source place, pose slot, first input, input count, index (clip slot or parameter), f32 number (speed, factor, time or weight) */
#define MANI_GRAPH_INPUTS MCORE_TAG(10, 5)     /* 8 bytes an input: u32 node, u32 weight parameter (a blend's; else MANI_NO_PARAMETER) */
#define MANI_GRAPH_NAMES MCORE_TAG(10, 6)      /* the names' UTF-8 bytes */
#define MANI_GRAPH_MASKS MCORE_TAG(10, 7)      /* u32 masks, u32 bones, 8 bytes 0, then f32 bone weights a mask */
#define MANI_GRAPH_DATABASES MCORE_TAG(10, 8)  /* 24 bytes a slot: u64 database identity, u32 name offset, name length, first listed clip, listed clips; then u32 clip slots the slots list */
#define MANI_GRAPH_MODELS MCORE_TAG(10, 9)     /* 16 bytes a slot: u64 model identity, u32 name offset, name length */
#define MANI_GRAPH_SPRINGS MCORE_TAG(10, 10)   /* 16 bytes a slot: u64 spring set identity, u32 name offset, name length */
#define MANI_GRAPH_MAPS MCORE_TAG(10, 11)      /* 16 bytes a slot: u64 map identity, u64 its source skeleton's identity */
#define MANI_GRAPH_NODE_DATA MCORE_TAG(10, 12) /* 8 bytes a node: u32 first word, word count; then the u32/f32 words */
#define MANI_GRAPH_SECTION_COUNT 12u
#define MANI_GRAPH_MASKS_HEADER 16u

#define MANI_GRAPH_INFO_SIZE 64u
#define MANI_GRAPH_PARAMETER_SIZE 32u
#define MANI_GRAPH_CLIP_SIZE 24u
#define MANI_GRAPH_NODE_SIZE 32u
#define MANI_GRAPH_INPUT_SIZE 8u
#define MANI_GRAPH_DATABASE_SIZE 24u
#define MANI_GRAPH_SLOT_SIZE 16u /* a model, spring set or map slot */
#define MANI_GRAPH_DATA_ENTRY_SIZE 8u /* a node's entry in the node data's directory */

/* A state machine's node data (docs/formats.md, "Graph"): a header, its
 * final states, then each transition's words and its conditions'. */
#define MANI_GRAPH_MACHINE_HEADER 4u     /* u32 entry state, chain limit (1 to 4), transitions, finals */
#define MANI_GRAPH_MACHINE_TRANSITION 9u /* u32 from (or MANI_GRAPH_NONE: any state), to, priority,
                                            interruption, entry, fade; f32 duration, cooldown; u32 conditions */
#define MANI_GRAPH_MACHINE_CONDITION 3u  /* u32 kind, parameter (or MANI_NO_PARAMETER); f32 value */
/* The most fades a machine keeps under way (its chain limit's bound). */
#define MANI_GRAPH_MACHINE_CHAIN 4u

/* Node flag bits a file may hold: the public ones and the blend's direct. */
#define MANI_GRAPH_NODE_DIRECT 0x100u
#define MANI_GRAPH_NODE_FLAGS (MANI_GRAPH_NODE_DIFFERENCE | MANI_GRAPH_NODE_MIRRORED | MANI_GRAPH_NODE_DIRECT)

/* The node kinds this format holds (the others are refused at build and
 * open until they land). */
static inline int mani_GraphKindInFormat(uint32_t kind) {
    switch (kind) {
    case maniGraphNodeClip:
    case maniGraphNodeBlend:
    case maniGraphNodeMask:
    case maniGraphNodeAdditive:
    case maniGraphNodeSelect:
    case maniGraphNodeTimeScale:
    case maniGraphNodeSeek:
    case maniGraphNodeMirror:
    case maniGraphNodeStateMachine:
    case maniGraphNodeSpace1D:
    case maniGraphNodeSpaceBanded:
    case maniGraphNodeSpaceTriangulated:
    case maniGraphNodeOneShot:
    case maniGraphNodeInertialize:
    case maniGraphNodePose: return 1;
    default: return 0;
    }
}

/* The input counts a kind of the format takes: [least, most]. */
static inline void mani_GraphInputBounds(uint32_t kind, uint32_t* least, uint32_t* most) {
    switch (kind) {
    case maniGraphNodeClip:
    case maniGraphNodePose: *least = *most = 0; return;
    case maniGraphNodeAdditive:
    case maniGraphNodeOneShot:
    case maniGraphNodeMask: *least = *most = 2; return;
    case maniGraphNodeTimeScale:
    case maniGraphNodeSeek:
    case maniGraphNodeInertialize:
    case maniGraphNodeMirror: *least = *most = 1; return;
    default: *least = 1, *most = MANI_MAX_GRAPH_INPUTS; return; /* blend, select, state machine, spaces */
    }
}

/* Checks a state machine's node data words (count of them at `words`, the
 * directory's count field at countAt) for a machine of `states` inputs:
 * returns 0, or the offset of the first wrong word (graph_machine.c). */
uint64_t mani_CheckGraphMachineData(const uint8_t* b, uint64_t words, uint32_t count, uint64_t countAt,
                                    uint32_t states, const uint8_t* params, uint32_t parameterCount);

/* A blend space's node data (docs/formats.md, "Graph"; graph_spaces.c),
 * n its inputs: a 1D space's f32 period, then n f32 positions; a banded
 * space's u32 y parameter, u32 polar (0 or 1), then n (x, y) f32 pairs; a
 * triangulated space's u32 y parameter, u32 triangles T, n (x, y) f32
 * pairs, then T triangles of 3 u32 input places. */
#define MANI_GRAPH_SPACE1D_HEADER 1u
#define MANI_GRAPH_SPACE2D_HEADER 2u

/* The cross product (b - a) x (c - a) of three space positions in binary64
 * (positive: counterclockwise): a triangle's doubled area as the build and
 * the open judge it. */
static inline double mani_GraphSpaceCross(float ax, float ay, float bx, float by, float cx, float cy) {
    return ((double)bx - (double)ax) * ((double)cy - (double)ay) - ((double)by - (double)ay) * ((double)cx - (double)ax);
}

/* Checks a blend space's node data words as mani_CheckGraphMachineData
 * checks a machine's (n the space's inputs, kind its kind): returns 0, or
 * the offset of the first wrong word (graph_spaces.c). */
uint64_t mani_CheckGraphSpaceData(const uint8_t* b, uint32_t kind, uint64_t words, uint32_t count, uint64_t countAt,
                                  uint32_t n, const uint8_t* params, uint32_t parameterCount);

/* A one-shot's node data (docs/formats.md, "Graph"; graph_oneshot.c): u32
 * fade-out trigger (or MANI_NO_PARAMETER), u32 abort trigger (or
 * MANI_NO_PARAMETER), u32 curve (a maniGraphFadeCurve), f32 fadeIn, f32
 * fadeOut, u32 masked (0 or 1), then with a mask one f32 bone weight a bone
 * (the masks section's bone count), in [0, 1]. */
#define MANI_GRAPH_ONESHOT_HEADER 6u

/* Checks a one-shot's node data words as mani_CheckGraphMachineData checks
 * a machine's (bones the masks section's bone count): returns 0, or the
 * offset of the first wrong word (graph_oneshot.c). */
uint64_t mani_CheckGraphOneShotData(const uint8_t* b, uint64_t words, uint32_t count, uint64_t countAt, uint32_t bones,
                                    const uint8_t* params, uint32_t parameterCount);

/* An inertialize's node data (docs/formats.md, "Graph"; graph_inertialize.c):
 * u32 method (a maniGraphInertializationMethod), f32 duration, f32
 * halfLifeScale, f32 halfLifeMin, f32 halfLifeMax. */
#define MANI_GRAPH_INERTIALIZE_WORDS 5u

/* Checks an inertialize's node data words as mani_CheckGraphOneShotData
 * checks a one-shot's: returns 0, or the offset of the first wrong word
 * (graph_inertialize.c). */
uint64_t mani_CheckGraphInertializeData(const uint8_t* b, uint64_t words, uint32_t count, uint64_t countAt);

/* The value maniGraph.opened holds once an open wrote the view. */
#define MANI_GRAPH_OPENED 0x47525048u /* "GRPH" */

static const mcore_SectionSpec maniGraphSections[MANI_GRAPH_SECTION_COUNT] = {
    {MANI_GRAPH_INFO, 16},  {MANI_GRAPH_PARAMETERS, 16}, {MANI_GRAPH_CLIPS, 16},
    {MANI_GRAPH_NODES, 16}, {MANI_GRAPH_INPUTS, 16},     {MANI_GRAPH_NAMES, 16},
    {MANI_GRAPH_MASKS, 16}, {MANI_GRAPH_DATABASES, 16}, {MANI_GRAPH_MODELS, 16},
    {MANI_GRAPH_SPRINGS, 16}, {MANI_GRAPH_MAPS, 16},     {MANI_GRAPH_NODE_DATA, 16},
};

#endif
