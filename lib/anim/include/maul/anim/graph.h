/* Maul Anim: graph.h
 *
 * Graphs: a graph file built offline against one skeleton (graphbuild.h),
 * opened in place and read through the accessors below. Its nodes form a
 * DAG stored in topological order, each after its inputs, the output last.
 * The graph file format is in docs/formats.md ("Graph").
 *
 * Playing a graph: maniBindGraph binds an opened graph to its assets; an
 * instance (maniInitGraphInstance, caller memory holding no pointer into
 * itself) keeps its parameters and playheads; maniGraphInstance_Update moves
 * it through time (weights, playheads, events, root motion) and
 * maniGraphInstance_Evaluate writes its pose through a scratch shared by any
 * number of instances. This release updates and evaluates clip, blend
 * (direct and normalized), mask, additive, select, time scale, seek, state
 * machine, blend space, one-shot, inertialize, mirror and pose nodes; a graph holding a node of any
 * other kind is refused by maniBindGraph (mani_errorInvalid), never bound to
 * do nothing.
 */
#ifndef MAUL_ANIM_GRAPH_H
#define MAUL_ANIM_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/base.h"
#include "maul/anim/pose.h"
#include "maul/anim/rootmotion.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What node accessors return for no node: past a count, or a NULL graph. */
#define MANI_GRAPH_NONE 0xFFFFFFFFu

/* What maniGraph_FindParameter returns for a name no parameter has. */
#define MANI_NO_PARAMETER 0xFFFFFFFFu

/* The weight a clip node must be given, above which its events are listed
 * by an update. */
#define MANI_GRAPH_EVENT_THRESHOLD 0.001f

/* The most steps an update moves a learned node's state. */
#define MANI_GRAPH_LEARNED_MAX_STEPS 8u

/* Node flags a graph file records (docs/formats.md, "Graph"). */
#define MANI_GRAPH_NODE_DIFFERENCE 0x1u /* the node gives a difference, not a pose */
#define MANI_GRAPH_NODE_MIRRORED 0x2u   /* an odd count of mirror nodes is above it */

/* A parameter's type: what values an instance sets it to. Frozen values
 * (files record them). */
typedef enum maniGraphParameterType {
    maniGraphParameterFloat = 0,      /* a number (default 0) */
    maniGraphParameterBool = 1,       /* true or false (default false) */
    maniGraphParameterTrigger = 2,    /* set by a caller, cleared by the node that consumes it (default false) */
    maniGraphParameterVector = 3,     /* three numbers (default the zero vector) */
    maniGraphParameterQuaternion = 4, /* a rotation (default the identity) */
    maniGraphParameterPose = 5        /* a pose the caller gives (default none) */
} maniGraphParameterType;

/* The number of parameter types. */
#define MANI_GRAPH_PARAMETER_TYPE_COUNT 6u

/* A node's kind. Frozen values (files record them). */
typedef enum maniGraphNodeKind {
    maniGraphNodeClip = 0,            /* plays a clip slot: no inputs */
    maniGraphNodeBlend = 1,           /* blends its inputs by float parameters (normalized unless direct) */
    maniGraphNodeMask = 2,            /* its second input over its first, by bone weights */
    maniGraphNodeAdditive = 3,        /* a difference input added to a base by a weight */
    maniGraphNodeSelect = 4,          /* one of its inputs, chosen by a parameter */
    maniGraphNodeTimeScale = 5,       /* its input with time moving by a factor */
    maniGraphNodeSeek = 6,            /* its input's playheads moved to a time by a trigger */
    maniGraphNodeSpace1D = 7,         /* a 1D blend space (MANI_GRAPH_SPACE_WEIGHTS) */
    maniGraphNodeSpaceBanded = 8,     /* a 2D gradient-band blend space (MANI_GRAPH_SPACE_WEIGHTS) */
    maniGraphNodeSpaceTriangulated = 9, /* a 2D triangulated blend space (MANI_GRAPH_SPACE_WEIGHTS) */
    maniGraphNodeStateMachine = 10,   /* states (its inputs) and transitions */
    maniGraphNodeOneShot = 11,        /* a shot played over a base */
    maniGraphNodeInertialize = 12,    /* its input with changes inertialized or dead-blended */
    maniGraphNodeMirror = 13,         /* its input mirrored through the graph's mirror map */
    maniGraphNodePose = 14,           /* a pose parameter's pose */
    maniGraphNodeIk = 15,             /* inverse kinematics ([graph-nodes]) */
    maniGraphNodeSpring = 16,         /* springs ([graph-nodes]) */
    maniGraphNodeMotionMatch = 17,    /* motion matching ([graph-nodes]) */
    maniGraphNodeLearned = 18         /* learned motion matching ([graph-nodes]) */
} maniGraphNodeKind;

/* The number of node kinds. */
#define MANI_GRAPH_NODE_KIND_COUNT 19u

/* MANI_GRAPH_SPACE_WEIGHTS: how a blend space weighs its inputs i (position
 * p_i) at its parameters' point p = (x, y) (a 1D space: x), in binary32,
 * sums and minima in input order:
 * - 1D: with a period P, x first wrapped into [0, P) (x - floor(x / P) P in
 *   binary64, rounded once; P itself taken as 0). One input: weight 1. x
 *   between neighbouring positions t_i <= x < t_i+1: f = (x - t_i) /
 *   (t_i+1 - t_i), w_i = 1 - f, w_i+1 = f. Below the first or at or past the
 *   last: without a period the end's weight 1 (clamped); with one the last
 *   and first joined across the wrap, f = d / ((t_0 + P) - t_last), d = x -
 *   t_last (or (x + P) - t_last below t_0), f clamped to [0, 1], w_last = 1 -
 *   f, w_0 = f.
 * - Banded (Johansen's gradient bands): w_i = min over j != i of
 *   clamp(1 - (a . b) / (b . b), 0, 1) (1 with one input), a = p - p_i, b =
 *   p_j - p_i, then each divided by their sum (a sum of 0, not reached by
 *   distinct points: the first input 1). Polar: a = ((|p| - |p_i|) / m,
 *   alpha angle(p_i, p)), b = ((|p_j| - |p_i|) / m, alpha angle(p_i, p_j)), m
 *   = (|p_i| + |p_j|) / 2, alpha MANI_GRAPH_SPACE_POLAR_ALPHA, angle(u, v) =
 *   atan2(u x v, u . v) (mcore_atan2f; lengths by sqrtf), the angular parts
 *   0 when p_i or p_j is the origin.
 * - Triangulated: in the first triangle (a, b, c) of the file's order whose
 *   barycentric weights (u of b, s of c from (p - a) against b - a, c - a,
 *   r = 1 - u - s of a) are all at least -MANI_GRAPH_SPACE_TOLERANCE: those
 *   weights, negatives taken as 0, divided by their sum. Outside every
 *   triangle: the nearest point of the triangles' edges (each edge a -> b
 *   clamped f = ((p - a) . (b - a)) / |b - a|^2 in [0, 1], the first
 *   strictly nearest in triangle then edge order), w_a = 1 - f, w_b = f.
 * The node's weight is shared to each input of weight w_i above 0 as a
 * normalized blend's share (own * w_i, sums at most 1). */
#define MANI_GRAPH_SPACE_POLAR_ALPHA 2.0f
#define MANI_GRAPH_SPACE_TOLERANCE 1e-5f

/* A parameter's value, by its type: number for floats, flag for bools and
 * triggers (0 or 1), vector for vectors, rotation for quaternions. */
typedef union maniGraphValue {
    float number;      /* a float parameter's value */
    uint32_t flag;     /* a bool's or trigger's value: 0 or 1 */
    maniVec3 vector;   /* a vector parameter's value */
    maniQuat rotation; /* a quaternion parameter's value */
} maniGraphValue;

/* An opened graph: a view of a graph file in caller memory (the bytes stay
 * the caller's and must outlive the view). Fields are written by
 * maniOpenGraph; read them through the accessors. */
typedef struct maniGraph {
    const uint8_t* bytes;      /* the file */
    uint64_t size;             /* its size */
    uint64_t identity;         /* the file's identity (the hash of its contents) */
    uint64_t skeletonIdentity; /* the identity of the skeleton it was built against */
    uint32_t opened;           /* set by an open */
    uint32_t nodeCount;        /* nodes, 1 or more */
    uint32_t parameterCount;   /* parameters */
    uint32_t clipCount;        /* clip slots */
    uint32_t poseSlotCount;    /* the pose slots the nodes' poses share */
    uint32_t inputTotal;       /* the inputs of all nodes */
    uint64_t parameters;       /* offsets of the sections in the file */
    uint64_t clips;
    uint64_t nodes;
    uint64_t inputs;
    uint64_t names;
    uint64_t namesSize;        /* the names section's size */
    uint64_t mirrorIdentity;   /* the identity of the mirror map its mirror nodes use (0: none) */
    uint64_t masks;            /* the offset of the masks section */
    uint32_t maskCount;        /* mask nodes */
    uint32_t maskBones;        /* the bone weights of each */
    uint32_t databaseCount;    /* motion database slots */
    uint32_t modelCount;       /* learned model slots */
    uint32_t springSetCount;   /* spring set slots */
    uint32_t mapCount;         /* retargeting map slots */
    uint32_t databaseClipTotal; /* the clip slots all database slots list */
    uint32_t reserved;         /* 0 */
    uint64_t databases;        /* offsets of the slot sections */
    uint64_t models;
    uint64_t springSets;
    uint64_t maps;
    uint64_t nodeData;         /* the offset of the node data section (its directory, then its words) */
    uint32_t nodeDataWords;    /* the words after the directory */
    uint32_t reserved2;        /* 0 */
} maniGraph;

/* Opens a graph file in place: checks the container, every record, index,
 * count, float and name, and that every node's inputs come before it (the
 * output the last node). bytes must start at a multiple of
 * MANI_FILE_ALIGNMENT. Returns mani_success; mani_errorInvalid for a NULL
 * argument or misaligned bytes; mani_errorFormat with the offset of the
 * first byte found wrong; mani_errorVersion for an earlier or a newer
 * format, or a section tag only a later format writes. graphOut is written
 * only on success. Safe from any thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenGraph(const void* bytes, size_t size, maniGraph* graphOut);

/* The graph's identity, the hash of its contents; 0 for a NULL graph. */
MANI_API uint64_t maniGraph_GetIdentity(const maniGraph* graph);
/* The identity of the skeleton the graph was built against; 0 for NULL. */
MANI_API uint64_t maniGraph_GetSkeletonIdentity(const maniGraph* graph);
/* The number of nodes; 0 for a NULL graph. */
MANI_API uint32_t maniGraph_GetNodeCount(const maniGraph* graph);
/* The number of parameters; 0 for a NULL graph. */
MANI_API uint32_t maniGraph_GetParameterCount(const maniGraph* graph);
/* The parameter of a name (length bytes, not terminated), or
 * MANI_NO_PARAMETER. */
MANI_API uint32_t maniGraph_FindParameter(const maniGraph* graph, const char* name, size_t length);
/* A parameter's type. mani_success; mani_errorInvalid for a NULL argument
 * or a parameter past the count (typeOut unchanged). */
MANI_NODISCARD MANI_API maniResult maniGraph_GetParameterType(const maniGraph* graph, uint32_t parameter,
                                                               maniGraphParameterType* typeOut);
/* A parameter's name, its bytes inside the file, not terminated (its length
 * in *lengthOut when not NULL); NULL past the count. */
MANI_API const char* maniGraph_GetParameterName(const maniGraph* graph, uint32_t parameter, size_t* lengthOut);
/* The number of clip slots the graph plays; 0 for a NULL graph. */
MANI_API uint32_t maniGraph_GetClipCount(const maniGraph* graph);
/* The identity of the clip a slot names; 0 past the count. */
MANI_API uint64_t maniGraph_GetClipIdentity(const maniGraph* graph, uint32_t clip);
/* The name a slot gives its clip, its bytes inside the file; NULL past the
 * count. */
MANI_API const char* maniGraph_GetClipName(const maniGraph* graph, uint32_t clip, size_t* lengthOut);
/* The number of motion database slots the graph's motion matching nodes
 * search; 0 for a NULL graph. */
MANI_API uint32_t maniGraph_GetDatabaseCount(const maniGraph* graph);
/* The identity of the motion database a slot names; 0 past the count. */
MANI_API uint64_t maniGraph_GetDatabaseIdentity(const maniGraph* graph, uint32_t database);
/* The name a slot gives its motion database, its bytes inside the file, not
 * terminated (its length in *lengthOut when not NULL); NULL past the
 * count. */
MANI_API const char* maniGraph_GetDatabaseName(const maniGraph* graph, uint32_t database, size_t* lengthOut);
/* The number of learned model slots the graph's learned motion matching
 * nodes play; 0 for a NULL graph. */
MANI_API uint32_t maniGraph_GetModelCount(const maniGraph* graph);
/* The identity of the learned model a slot names; 0 past the count. */
MANI_API uint64_t maniGraph_GetModelIdentity(const maniGraph* graph, uint32_t model);
/* The name a slot gives its learned model, its bytes inside the file; NULL
 * past the count. */
MANI_API const char* maniGraph_GetModelName(const maniGraph* graph, uint32_t model, size_t* lengthOut);
/* The number of spring set slots the graph's spring nodes read; 0 for a
 * NULL graph. */
MANI_API uint32_t maniGraph_GetSpringSetCount(const maniGraph* graph);
/* The identity of the spring set a slot names; 0 past the count. */
MANI_API uint64_t maniGraph_GetSpringSetIdentity(const maniGraph* graph, uint32_t slot);
/* The name a slot gives its spring set, its bytes inside the file; NULL past
 * the count. */
MANI_API const char* maniGraph_GetSpringSetName(const maniGraph* graph, uint32_t slot, size_t* lengthOut);
/* The number of retargeting map slots the graph's clips play through: one
 * for each map its clip slots name; 0 for a NULL graph. */
MANI_API uint32_t maniGraph_GetRetargetMapCount(const maniGraph* graph);
/* The identity of the retargeting map a slot names; 0 past the count. */
MANI_API uint64_t maniGraph_GetRetargetMapIdentity(const maniGraph* graph, uint32_t slot);
/* The identity of the skeleton a map slot's map takes poses from (the
 * skeleton its clips are of); 0 past the count. */
MANI_API uint64_t maniGraph_GetRetargetMapSourceIdentity(const maniGraph* graph, uint32_t slot);
/* The map slot a clip slot plays through; MANI_NO_TRACK for a clip of the
 * graph's skeleton or past the count. */
MANI_API uint32_t maniGraph_GetClipRetargetMap(const maniGraph* graph, uint32_t clip);
/* A node's kind; maniGraphNodeClip for a NULL graph or past the count. */
MANI_API maniGraphNodeKind maniGraph_GetNodeKind(const maniGraph* graph, uint32_t node);
/* How many inputs a node has; 0 for a NULL graph or past the count. */
MANI_API uint32_t maniGraph_GetNodeInputCount(const maniGraph* graph, uint32_t node);
/* A node's input by its place among the node's inputs; MANI_GRAPH_NONE for
 * a NULL graph or past a count. */
MANI_API uint32_t maniGraph_GetNodeInput(const maniGraph* graph, uint32_t node, uint32_t input);
/* The node whose pose the graph gives (its last); MANI_GRAPH_NONE for NULL. */
MANI_API uint32_t maniGraph_GetOutputNode(const maniGraph* graph);
/* The identity of the mirror map the graph was built with; 0 for none or
 * a NULL graph. */
MANI_API uint64_t maniGraph_GetMirrorMapIdentity(const maniGraph* graph);
/* A node's place in the source it was built from; MANI_GRAPH_NONE for a
 * NULL graph or past the count. */
MANI_API uint32_t maniGraph_GetNodeSourcePlace(const maniGraph* graph, uint32_t node);

/* -- Binding, instances, updates and evaluation ------------------------------ */

/* The byte alignment of a binding's, an instance's, a scratch's and a subset
 * plan's memory (mani_errorInvalid otherwise). */
#define MANI_GRAPH_ALIGNMENT 32u

/* The version of the saved state format maniGraphInstance_Save writes and
 * maniGraphInstance_Restore reads (besides MANI_ABI_VERSION). */
#define MANI_GRAPH_STATE_VERSION 2u

struct maniMotionDatabase;
struct maniLearnedModel;
struct maniSpringSet;
struct maniRetargetMap;
struct maniMirrorMap;

/* What a graph is bound to (maniBindGraph): lists of opened views the
 * caller keeps, each searched by identity; a list may be NULL when its
 * count is 0. Every view must outlive the binding. */
typedef struct maniGraphAssets {
    const maniSkeleton* skeleton;                       /* the graph's skeleton */
    const maniClip* const* clips;                       /* clipCount clips, bound to slots by identity */
    uint32_t clipCount;
    uint32_t databaseCount;                             /* databases, bound to database slots */
    const struct maniMotionDatabase* const* databases;
    const struct maniLearnedModel* const* models;       /* modelCount learned models, bound to model slots */
    uint32_t modelCount;
    uint32_t springSetCount;                            /* spring sets, bound to spring set slots */
    const struct maniSpringSet* const* springSets;
    const struct maniRetargetMap* const* retargetMaps;  /* retargetMapCount maps, bound to map slots */
    uint32_t retargetMapCount;
    uint32_t sourceSkeletonCount;                       /* the maps' source skeletons */
    const maniSkeleton* const* sourceSkeletons;
    const struct maniMirrorMap* mirrorMap;              /* the graph's mirror map, or NULL for a graph without */
} maniGraphAssets;

/* A bound graph, in caller memory made by maniBindGraph. Opaque; it points
 * at the graph and its assets. */
typedef struct maniGraphBinding maniGraphBinding;

/* An instance of a bound graph, in caller memory made by
 * maniInitGraphInstance. Opaque; it points at its binding but never into
 * itself, so a memcpy of its bytes (maniGraphBinding_GetInstanceSize) is a
 * copy that continues with the same bits. */
typedef struct maniGraphInstance maniGraphInstance;

/* A subset plan (maniPlanGraphSubset), in caller memory. Opaque. */
typedef struct maniGraphSubset maniGraphSubset;

/* An event an update lists: a clip node weighed past
 * MANI_GRAPH_EVENT_THRESHOLD whose playhead passed one of its clip's
 * events. */
typedef struct maniGraphEvent {
    uint32_t node;     /* the clip node */
    uint32_t clip;     /* its clip slot */
    uint32_t event;    /* the event's index in the clip (maniClip_GetEvent) */
    float time;        /* the event's time in the clip */
    float weight;      /* the node's share of the output in the update */
    uint32_t reserved; /* 0 */
    const char* name;  /* the event's name inside the clip file, not terminated */
    size_t nameLength; /* its bytes */
} maniGraphEvent;

/* What a node of an instance did in its last update
 * (maniGraphInstance_InspectNode). */
typedef struct maniGraphNodeView {
    maniGraphNodeKind kind; /* the node's kind */
    float weight;           /* its share of the output, 0 to 1 (0 before the first update) */
    float playhead;         /* a clip node's playhead in seconds (0 for other kinds) */
    uint32_t state;         /* a state machine's current state; MANI_GRAPH_NONE for other kinds */
    uint32_t transition;    /* the transition under way; MANI_GRAPH_NONE for none or other kinds */
    uint32_t failed;        /* 1 when the node's data failed in the last update or evaluation, else 0 */
    float shotWeight;       /* a one-shot's shot weight (before its mask), 0 for other kinds */
    float shotSeconds;      /* a one-shot's seconds into its shot (0 idle), 0 for other kinds */
    float inertialRemaining; /* an inertialize's share of its blend still to go, 1 - seconds / duration
                                (1 fired, 0 idle), 0 for other kinds */
} maniGraphNodeView;

/* MANI_GRAPH_ONESHOT_UPDATE: a weighed one-shot's update (an unweighed one
 * is paused, its triggers left as they are), binary32. First its triggers,
 * read then cleared (a node beneath reading the same trigger finds it
 * cleared): its abort trigger set ends the shot at once (idle, weight 0,
 * no fade; a fire or fade-out in the same update ignored); else its
 * trigger set fires it: the shot and every node beneath restart (playheads
 * 0, machines at their entry, as a transition's restart entry), its
 * seconds 0, fading in from the shot weight it had (0 when idle; re-fired
 * while playing or fading, the weight goes on without a jump, the shot's
 * pose starting over beneath it); else its fade-out trigger set while
 * fading in or playing starts the fade-out there, from the weight it has
 * (while idle or fading out: nothing). Then, unless idle, its seconds move
 * by |delta times its time scales' factor| (not finite: idle, the node
 * failed), and with S the shot's span (the seconds its longest clip plays
 * through, as ExitTime's: a clip's duration / |speed|, a looping clip's
 * taken once; the longest of a node's inputs') and t the seconds: not fading out and S above 0 and t at or
 * past max(S - fadeOut, 0): fading out from there, from the fade-in's
 * weight at that time (a span of 0, as a pose node's: no end, the shot
 * plays until a trigger ends it); fading out from time t0 and weight w0:
 * q = (t - t0) / fadeOut (1 for a fadeOut of 0), idle at q of 1 or more,
 * else w0 (1 - curve(q)); t at or past fadeIn: playing, weight 1; else
 * fading in from w_from: w_from + (1 - w_from) curve(t / fadeIn). curve is
 * its maniGraphFadeCurve (graphbuild.h). It shares: the base its own weight
 * (always evaluated) and its root motion weight times 1 - s r; the shot its
 * own times s times its mask's largest bone weight (none when 0) and its
 * root motion weight times s r; s the shot weight, r the mask's bone weight
 * at the root motion bone (1 unmasked, the whole body; a masked one 0
 * without a root motion bone). Events: the shot's clips' as any clip
 * node's, by the weight shared to them.
 * Its phases below: the state maniGraphInstance_InspectNode gives it. */
#define MANI_GRAPH_ONESHOT_IDLE 0u        /* no shot: weight 0, the shot not evaluated */
#define MANI_GRAPH_ONESHOT_FADING_IN 1u   /* fired: the shot's weight rising over fadeIn */
#define MANI_GRAPH_ONESHOT_PLAYING 2u     /* the shot at weight 1 */
#define MANI_GRAPH_ONESHOT_FADING_OUT 3u  /* its weight falling over fadeOut */

/* An inertialize node (maniGraphNodeInertialize, graphbuild.h): its input
 * with the jumps of a firing removed. An update reads and clears its
 * trigger (none: it never fires, its input passed on as it is): set, it
 * fires, seconds 0; else, blending, its seconds move by |delta times its
 * time scales' factor|, idle at duration or past. It shares its own weight
 * and root motion weight to its input: root motion and events are its
 * input's. An evaluation after a firing takes, per bone, the last output it
 * wrote (x) and the one before (p, the updates between them moving T
 * seconds; a velocity v = (x - p) / T, 0 without two outputs or for T 0;
 * rotations by the shorter arc as angle times axis) and its input's new
 * pose (y), then writes until idle (t the seconds, D the duration):
 * - inertialization: y plus the offset x - y (translation and scale
 *   differences; rotation the shorter-arc x y^-1 as an axis and angle,
 *   applied before y) each as a magnitude x0 along its direction, with v0
 *   v's part along it, decayed by Bollo's quintic: v0 above 0 taken as 0,
 *   D shortened to -5 x0 / v0 when that is less, a0 = max(0, (-8 v0 D - 20
 *   x0) / D^2), and the quintic of value x0, velocity v0 and acceleration a0
 *   at 0 reaching value, velocity and acceleration 0 at D (0 from D on);
 * - dead blending: x extrapolated by v decaying with the half-life h =
 *   clamp(halfLifeScale D, halfLifeMin, halfLifeMax), x + v (h / ln 2)(1 -
 *   2^(-t / h)) (rotations as that angle-axis turn before x; h 0: x),
 *   lerped to y (rotations by a normalized lerp on the shorter arc) by
 *   a = s^2 (3 - 2 s), s = t / D (1 at D or past).
 * At the firing's evaluation t is 0, so the output is the last one (up to
 * float rounding); D 0 is a cut (y). A bone whose blended value is not
 * finite (a velocity past the float range, from two outputs a step near 0
 * apart) takes y as it is. All binary32 through detmath, the
 * same bits on every build. An evaluation of the same update writes the
 * same pose again; the node keeps its last two outputs and offsets in its
 * state block (saved), a subset evaluation moving only the planned bones'
 * (the others keep their offsets and last outputs as they were). Its phases
 * below: the state maniGraphInstance_InspectNode gives it. */
#define MANI_GRAPH_INERTIALIZE_IDLE 0u     /* no offset: its input as it is */
#define MANI_GRAPH_INERTIALIZE_FIRED 1u    /* fired: its next evaluation takes the offsets */
#define MANI_GRAPH_INERTIALIZE_BLENDING 2u /* the offsets decaying over its duration */

/* The bytes a binding of the graph needs; 0 for a NULL graph (or a view no
 * open wrote). */
MANI_API size_t maniGraph_GetBindingSize(const maniGraph* graph);

/* Binds a graph to its assets, in caller memory (size bytes at a multiple of
 * MANI_GRAPH_ALIGNMENT): each clip slot to the clip of its identity among
 * assets->clips, of the graph's skeleton and of the slot's kind (an additive
 * clip for a slot whose node gives a difference, a pose clip otherwise);
 * each map slot to the retargeting map of its identity among
 * assets->retargetMaps, made for the graph's skeleton from the slot's source
 * skeleton, and to that skeleton among assets->sourceSkeletons (a clip slot
 * through a map then to a clip of the map's source skeleton); each database
 * slot to the database of its identity among assets->databases, of the
 * graph's skeleton, whose clips are the clip slots the graph lists for it;
 * each model slot to the learned model of its identity, of the graph's
 * skeleton; each spring set slot to the spring set of its identity, of the
 * graph's skeleton; a graph's mirror map to assets->mirrorMap, of its
 * identity. The graph and assets must outlive the binding.
 * Returns mani_success; mani_errorInvalid for a NULL or misaligned argument,
 * a list NULL with a count, a skeleton that is not the graph's, a slot no
 * asset binds, clips whose root motion names different bones (a mapped
 * clip's naming the graph's bone that follows its own alone, none refused),
 * a node of a kind this release does not update (the [graph-nodes]
 * kinds), or masks (a mask node's, a masked one-shot's) of
 * another bone count than the skeleton's;
 * mani_errorCapacity when the memory is too small. *bindingOut (and
 * *unboundOut, when not NULL: the first clip slot no asset binds, or for a
 * map slot no asset binds the first clip slot through it, else
 * MANI_GRAPH_NONE) written on every return but a NULL argument. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniResult maniBindGraph(const maniGraph* graph, const maniGraphAssets* assets, void* memory,
                                                 size_t size, maniGraphBinding** bindingOut, uint32_t* unboundOut);

/* The bytes an instance of a bound graph needs (its parameters, nodes' state,
 * pose parameters' locals and a clip cursor per clip node); 0 for a NULL
 * binding. */
MANI_API size_t maniGraphBinding_GetInstanceSize(const maniGraphBinding* binding);

/* The bytes of the scratch an evaluation of a bound graph's instances needs:
 * a pose per pose slot, room for one node's layers and, with map slots, for
 * carrying one clip's pose (a pose of the largest source skeleton and the
 * largest transfer scratch). One scratch serves any number of instances,
 * one at a time. 0 for NULL. */
MANI_API size_t maniGraphBinding_GetScratchSize(const maniGraphBinding* binding);

/* The bytes a subset plan of the binding takes, whatever its bones; 0 for
 * NULL. */
MANI_API size_t maniGraphBinding_GetSubsetSize(const maniGraphBinding* binding);

/* Makes an instance in caller memory (size bytes at a multiple of
 * MANI_GRAPH_ALIGNMENT): parameters at their defaults (pose parameters at
 * the skeleton's rest, not set), every playhead at 0, nothing weighed until
 * the first update. Returns mani_success; mani_errorInvalid for a NULL or
 * misaligned argument; mani_errorCapacity when the memory is too small. */
MANI_NODISCARD MANI_API maniResult maniInitGraphInstance(const maniGraphBinding* binding, void* memory, size_t size,
                                                         maniGraphInstance** instanceOut);

/* Sets a parameter of the type given: a float finite, a bool or trigger 0 or
 * 1 (flag), a vector finite, a quaternion of non-zero finite length
 * (normalized in binary64, rounded once). Returns mani_success;
 * mani_errorInvalid for a NULL instance, a parameter past the count, a type
 * that is not the parameter's (a pose parameter is set by
 * maniGraphInstance_SetPose) or a value out of form (nothing changed). */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_SetParameter(maniGraphInstance* instance, uint32_t parameter,
                                                                  maniGraphParameterType type, maniGraphValue value);

/* Reads a parameter's value (a pose parameter: flag 1 once a pose was set,
 * else 0). mani_success; mani_errorInvalid for a NULL argument or a
 * parameter past the count (valueOut unchanged). */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_GetParameter(const maniGraphInstance* instance,
                                                                  uint32_t parameter, maniGraphValue* valueOut);

/* Sets a pose parameter to a pose's local transforms (copied). Returns
 * mani_success; mani_errorInvalid for a NULL argument, a parameter past the
 * count or of another type, a pose of another skeleton or a difference, or
 * locals not finite (nothing changed). */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_SetPose(maniGraphInstance* instance, uint32_t parameter,
                                                             const maniPose* pose);

/* Reads a pose parameter's locals into a pose (the skeleton's rest until one
 * is set); the pose becomes a pose of the skeleton, its model stale.
 * mani_success; mani_errorInvalid for a NULL argument, a parameter past the
 * count or of another type, or a pose of another skeleton. */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_GetPose(const maniGraphInstance* instance, uint32_t parameter,
                                                             maniPose* poseOut);

/* Moves an instance through time by delta seconds. Weights are shared down
 * from the output (weight 1): a normalized blend gives input i the share
 * w_i / (w_0 + ... ) of its own (none when the sum is 0), a direct blend
 * w_i times its own, w_i the input's weight parameter clamped to [0, 1]
 * (binary32 products and sums in input order). A weighed state machine
 * first takes at most one transition (of those leaving its current state,
 * or during a fade those its interruption lets in, any-state ones included
 * but into the current state; none out of a final; cooled down; all
 * conditions holding on the seconds the last update left; the highest
 * priority, the earliest of equals: its triggers cleared, its cooldown
 * started, its destination a new layer fading in over the others, the
 * oldest dropped past the chain limit, a restart entry restarting the
 * destination and every node beneath: playheads 0, machines at their
 * entry), then moves every layer's seconds, fade and cooldown by |delta times its time
 * scales' factor|, drops the layers beneath a finished fade, and shares its weight down:
 * layer i (from the current down) curve(elapsed / duration) times what the
 * layers above leave, the oldest the rest. An unweighed machine is
 * paused. A weighed blend space weighs its inputs at its parameters' values
 * (MANI_GRAPH_SPACE_WEIGHTS), keeps those weights for the evaluation and
 * shares its own by them. A weighed one-shot (MANI_GRAPH_ONESHOT_UPDATE)
 * moves its shot and shares its weight. A mask gives its base its own weight and its
 * second input its own times its largest bone weight; an additive its base its own and its
 * difference its own times its weight (its float parameter held to [0, 1],
 * or its constant); a select all of its own to the input its parameter
 * picks (a float held to [0, inputs - 1] and rounded to the nearest place,
 * halves up; a bool 0 or 1, held to the last input); a time scale, seek or
 * mirror all of its own to its input. Root motion weights are shared the
 * same way but for masks (the base its own times 1 - w, the second input its
 * own times w, w the mask's bone weight at the root motion bone), one-shots
 * (as masks, w the shot weight times that bone weight) and
 * additive differences (none). A time scale multiplies the step its inputs
 * see by its factor (its float parameter held to
 * +-MANI_MAX_GRAPH_TIME_FACTOR of graphbuild.h, or its constant; nested factors multiply,
 * binary32, from the output down); a seek whose trigger is set as the update
 * begins (a machine's transition taking the same trigger or not), weighed or
 * not, moves every
 * clip playhead beneath it to its time instead of stepping it (wrapped into
 * [0, duration) for a repeating clip, held to the duration for a clamped
 * one; no events or root motion for that step; the nearest seek's time
 * where two fire), and every seek's trigger is cleared once all nodes have
 * read it. A node read by several nodes takes the factor and seek of its
 * last reader in node order. Every clip node's playhead
 * moves by delta * its time scales' factor * speed (binary32, in that
 * order): a repeating clip wraps into
 * [0, duration) (binary64, rounded once), a clamped one stops at 0 or its
 * duration. Each clip node weighed past MANI_GRAPH_EVENT_THRESHOLD lists the
 * events its playhead passed (maniClip_GetEventRange's rule; across a wrap
 * the rest of the clip then its start; a step of a whole duration or more
 * lists each event once), in node order; events past capacity are counted
 * in *eventCountOut but not written. *rootMotionOut (when not NULL) is the
 * blend (maniBlendRootMotion) of the root motion of every clip node giving
 * a pose with root motion weight above 0 over its step, by that weight (a
 * mapped clip's translation scaled by maniRetargetMap_RetargetRootMotion; a
 * clip under an odd count of mirror nodes its move mirrored by
 * maniMirrorMap_MirrorRootMotion and its events' names the map's partners,
 * maniMirrorMap_MirrorName). Returns
 * mani_success; mani_errorInvalid for a NULL instance, eventsOut NULL with a
 * capacity, or a delta not finite (nothing changed); mani_errorFormat when a
 * node's data failed (a step delta * speed or a root motion past the float
 * range): the update
 * completed for every other node, the failing nodes gave no root motion or
 * events, maniGraphInstance_InspectNode names them, and the outputs are
 * valid and finite. Safe from any thread; the instance is used by one thread
 * at a time. */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_Update(maniGraphInstance* instance, float delta,
                                                            maniGraphEvent* eventsOut, uint32_t capacity,
                                                            uint32_t* eventCountOut, maniRootMove* rootMotionOut);

/* Writes an instance's pose as its last update weighed it: each node of
 * weight above 0, in order, into its slot of the scratch (a clip sampled at
 * its playhead through the instance's cursor for the node, the bits of
 * maniClip_Sample; a clip through a map sampled whole on the map's source
 * skeleton and carried by maniRetargetMap_RetargetPose, also under a
 * subset; a blend by
 * maniSkeleton_BlendPoses over its inputs of weight above 0, threshold 0
 * when normalized and 1 when direct; a state machine by it over its layers'
 * states, normalized, each state once with its layers' weights summed; a
 * blend space by it over its inputs of weight above 0 at the weights its
 * last update kept, threshold 0, whatever its parameters are now; a
 * mask by it, threshold 0, over its base with bone weights 1 - w (binary32)
 * and its second input with the mask's bone weights w, or its base as it is
 * when its largest bone weight is 0; a one-shot as a mask with w = s m_i (s
 * the shot weight its last update left, m_i its mask's bone weight, 1
 * unmasked), its base as it is when s times its largest bone weight is 0
 * (idle) or its shot unweighed; an additive as its base then
 * maniPose_AddLayers of its difference at its weight; a select, time scale
 * or seek as its input (a select the input its last update chose, an
 * additive at the weight that update read, whatever their parameters are
 * now); a mirror by maniMirrorMap_MirrorPose of its
 * input, a difference mirrored as its locals are; a pose node as its pose
 * parameter's locals, the rest until one is set), then
 * the output's pose copied into
 * poseOut. The rest pose before the first update. The arithmetic is the
 * blending functions' own: blends stay finite for inputs up to 2^127
 * (maniSkeleton_BlendPoses), but an additive multiplies a scale by its
 * difference's factor, so a pose parameter set near the float range (say a
 * scale of 3e38) may leave it there as maniPose_AddLayers would. Returns mani_success;
 * mani_errorInvalid for a NULL or misaligned argument or a pose of another
 * skeleton; mani_errorCapacity when the scratch is too small. Safe from any
 * thread; the instance, scratch and pose are used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_Evaluate(maniGraphInstance* instance, void* scratch, size_t size,
                                                              maniPose* poseOut);

/* Reads what a node did in its last update (a state machine's current
 * state, by its place among the machine's inputs, and the transition whose
 * fade is under way, by its place among the machine's, or
 * MANI_GRAPH_NONE; a one-shot's phase, MANI_GRAPH_ONESHOT_*, as its state,
 * its shot weight and seconds into the shot). mani_success; mani_errorInvalid for a NULL argument or
 * a node past the count. */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_InspectNode(const maniGraphInstance* instance, uint32_t node,
                                                                 maniGraphNodeView* viewOut);

/* Writes an instance's state as bytes holding no pointer (little-endian):
 * a 32-byte header (u32 "GRST", MANI_ABI_VERSION, MANI_GRAPH_STATE_VERSION,
 * the state's size; u64 the graph's identity; u32 the node count, the
 * parameter count), then 16 bytes a parameter (its value), 16 bytes a node
 * (f32 weight, f32 playhead, u32 flags: 1 weighed, 2 failed; 0), then for
 * each pose parameter u32 set, 0 and 40 bytes a bone (its locals), then
 * in node order each blend's and blend space's block (f32 per input: the
 * weights its last update read or made, which an evaluation blends by),
 * each additive's (f32 the weight) and select's (u32 the input chosen),
 * each state machine's (its layers and cooldowns, docs/formats.md) and each
 * one-shot's (24 bytes: u32 phase, f32 seconds into the shot, f32 the
 * weight its fade-in started from, f32 the seconds and f32 the weight its
 * fade-out started from (0 but fading out), f32 the shot weight) and each
 * inertialize's (32 + 160 bytes a bone: its phase, seconds, the outputs it
 * keeps and its blend's record per bone), then a
 * u32 1 once updated and 0. Call it with a NULL buffer and capacity 0 to
 * measure. Returns mani_success; mani_errorCapacity when capacity is smaller
 * than the state, with *sizeOut still written and nothing else;
 * mani_errorInvalid for a NULL instance or a NULL buffer with a positive
 * capacity. */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_Save(const maniGraphInstance* instance, void* bytesOut,
                                                          size_t capacity, size_t* sizeOut);

/* Restores a saved state, checked as external bytes: the graph's identity,
 * the size, every parameter in form for its type, every node's weight in
 * [0, 1], playhead finite within its clip's duration and flags known, every
 * pose parameter's locals finite with rotations of length 1 within a
 * thousandth, every blend's, blend space's and additive's weights in [0, 1],
 * every select's choice below its input count, every state
 * machine's layers, fades, seconds and cooldowns in range, every one-shot's
 * phase known, seconds finite and 0 or more, weights in [0, 1], a fade-out's
 * start within [0, seconds] (0 but fading out; every word 0 when idle),
 * every inertialize's phase known, seconds finite and 0 or more, floats
 * finite and kept outputs' rotations of length 1 within a thousandth
 * (docs/formats.md).
 * Returns mani_success; mani_errorInvalid for a NULL argument;
 * mani_errorVersion for a state of another MANI_ABI_VERSION or
 * MANI_GRAPH_STATE_VERSION (offset the field); mani_errorFormat with the
 * offset of the first byte found wrong (the instance unchanged in either
 * case). */
MANI_NODISCARD MANI_API maniFileResult maniGraphInstance_Restore(maniGraphInstance* instance, const void* bytes,
                                                                 size_t size);

/* Plans the evaluation of some bones: the bones listed and every ancestor
 * of them, and, for a graph with mirror nodes, each planned bone's partner
 * in the mirror map and its ancestors, to a fixed point (the node kinds
 * this release plays read no other bones), in
 * memory of maniGraphBinding_GetSubsetSize bytes at a multiple of
 * MANI_GRAPH_ALIGNMENT. Returns mani_success; mani_errorInvalid for a NULL
 * or misaligned argument (bones may be NULL when count is 0), bones out of
 * range or not increasing; mani_errorCapacity when the memory is too
 * small. */
MANI_NODISCARD MANI_API maniResult maniPlanGraphSubset(const maniGraphBinding* binding, const uint32_t* bones,
                                                       uint32_t count, void* memory, size_t size,
                                                       maniGraphSubset** planOut);

/* The bones a plan evaluates and writes, strictly increasing (their count in
 * *countOut when not NULL); NULL for a NULL plan. */
MANI_API const uint32_t* maniGraphSubset_GetBones(const maniGraphSubset* plan, uint32_t* countOut);

/* Writes the plan's bones of an instance's pose as maniGraphInstance_Evaluate
 * writes them, bit for bit, sampling only the plan's bones; every other bone
 * of the pose is left as it was (its model stale). Returns as
 * maniGraphInstance_Evaluate; mani_errorInvalid also for a NULL plan or one
 * of another binding. */
MANI_NODISCARD MANI_API maniResult maniGraphInstance_EvaluateSubset(maniGraphInstance* instance,
                                                                    const maniGraphSubset* plan, void* scratch,
                                                                    size_t size, maniPose* pose);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_GRAPH_H */
