/* Maul Anim: graphbuild.h
 *
 * Building graph files, offline: a graph's parameters, clip slots and nodes,
 * checked against one skeleton and its clips, ordered so each node follows
 * its inputs, its poses given slots, and written (docs/formats.md, "Graph").
 * Also maniGraphForm: why a JSON text form (of a graph, a mirror map or a
 * retarget map) does not follow its form, the value a maniBuildReasonForm
 * refusal gives as its other.
 */
#ifndef MAUL_ANIM_GRAPHBUILD_H
#define MAUL_ANIM_GRAPHBUILD_H

#include "maul/anim/base.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/mirror.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How JSON text does not follow its form: the other of a
 * maniBuildReasonForm refusal, whose item is the byte offset of the wrong
 * member, value or object. Frozen values. */
typedef enum maniGraphForm {
    maniGraphFormNone = 0,      /* no form error */
    maniGraphFormMember = 1,    /* a member its object does not take (offset: its key) */
    maniGraphFormType = 2,      /* a value of a type its member does not take (offset: the value) */
    maniGraphFormMissing = 3,   /* a required member left out (offset: the object) */
    maniGraphFormFormat = 4,    /* a "format" that is not the form's name (offset: the value) */
    maniGraphFormVersion = 5,   /* a "version" this library does not read (mani_errorVersion; offset: the value) */
    maniGraphFormValue = 6,     /* a value out of its range: an unknown keyword, a number past binary32, a count of numbers not the member's */
    maniGraphFormName = 7,      /* a name that names nothing (a bone the skeleton lacks, ...; offset: the string) */
    maniGraphFormDuplicate = 8  /* an item listed twice where once is allowed (offset: the second) */
} maniGraphForm;

/* The most parameters, clip slots and nodes a graph source may have, and
 * the most inputs a node may have. */
#define MANI_MAX_GRAPH_PARAMETERS 1024u
#define MANI_MAX_GRAPH_CLIPS 4096u
#define MANI_MAX_GRAPH_NODES 16384u
#define MANI_MAX_GRAPH_INPUTS 256u
/* The deepest subgraphs may nest. */
#define MANI_MAX_GRAPH_DEPTH 8u
/* The most conditions a transition may have. */
#define MANI_MAX_GRAPH_CONDITIONS 16u
/* The most retargeting maps a graph's clip slots may name. */
#define MANI_MAX_GRAPH_RETARGET_MAPS 64u
/* The largest time factor (speeds and time scales, in magnitude). */
#define MANI_MAX_GRAPH_TIME_FACTOR 64.0f

/* A parameter of a graph source. */
typedef struct maniGraphParameterSource {
    const char* name;            /* UTF-8, not terminated, nameLength bytes (1 to MANI_MAX_NAME_BYTES), unique */
    size_t nameLength;           /* the name's bytes */
    maniGraphParameterType type; /* its type */
    maniGraphValue value;        /* its default (finite; ignored for triggers and poses) */
} maniGraphParameterSource;

struct maniRetargetMap;
struct maniMotionDatabase;
struct maniLearnedModel;
struct maniSpringSet;

/* A clip slot of a graph source: a name, the clip it plays and the map it
 * plays through. */
typedef struct maniGraphClipSource {
    const char* name;     /* UTF-8, not terminated, nameLength bytes (1 to MANI_MAX_NAME_BYTES), unique */
    size_t nameLength;    /* the name's bytes */
    const maniClip* clip; /* an opened clip of the source's skeleton, or of the map's source skeleton */
    const struct maniRetargetMap* map; /* an opened retargeting map made for the source's skeleton the clip
                                          plays through (its identity and source skeleton's recorded in a
                                          map slot), or NULL: a clip of the graph's skeleton */
} maniGraphClipSource;

/* A motion database slot of a graph source: a name and the database (of the
 * source's skeleton) its motion matching nodes search. The slot lists the
 * clip slots that play the database's clips, in the database's order: each
 * of its clips must be a clip slot's (the first slot of the clip's identity,
 * of the graph's skeleton). */
typedef struct maniGraphDatabaseSource {
    const char* name;                            /* 1 to MANI_MAX_NAME_BYTES of UTF-8, unique among databases */
    size_t nameLength;
    const struct maniMotionDatabase* database;   /* an opened database (its identity is recorded) */
} maniGraphDatabaseSource;

/* A learned model slot of a graph source: a name and the model (of the
 * source's skeleton) its learned motion matching nodes play. */
typedef struct maniGraphModelSource {
    const char* name;                     /* 1 to MANI_MAX_NAME_BYTES of UTF-8, unique among models */
    size_t nameLength;
    const struct maniLearnedModel* model; /* an opened model (its identity is recorded) */
} maniGraphModelSource;

/* A spring set slot of a graph source: a name and the set (of the source's
 * skeleton) its spring nodes read. */
typedef struct maniGraphSpringSetSource {
    const char* name;                  /* 1 to MANI_MAX_NAME_BYTES of UTF-8, unique among spring sets */
    size_t nameLength;
    const struct maniSpringSet* set;   /* an opened spring set (its identity is recorded) */
} maniGraphSpringSetSource;

/* A chain of a mask: a bone given a weight, and with subtree its
 * descendants too. */
typedef struct maniGraphMaskChain {
    uint32_t bone; /* a bone of the source's skeleton */
    float weight;  /* the weight of the mask's second input there, in [0, 1] */
    bool subtree;  /* the bone's descendants take the weight too */
} maniGraphMaskChain;

/* The most transitions a state machine may have. */
#define MANI_MAX_GRAPH_TRANSITIONS 1024u
/* The most fades a state machine keeps under way at once (its chainLimit's
 * bound; 0 stands for it). */
#define MANI_MAX_GRAPH_CHAIN 4u

/* What a transition's condition tests. Frozen values (files record them). */
typedef enum maniGraphConditionKind {
    maniGraphConditionGreater = 0,      /* a float parameter above value */
    maniGraphConditionLess = 1,         /* a float parameter below value */
    maniGraphConditionGreaterEqual = 2, /* a float parameter at or above value */
    maniGraphConditionLessEqual = 3,    /* a float parameter at or below value */
    maniGraphConditionEqual = 4,        /* a float parameter equal to value */
    maniGraphConditionNotEqual = 5,     /* a float parameter other than value */
    maniGraphConditionTrue = 6,         /* a bool parameter true */
    maniGraphConditionFalse = 7,        /* a bool parameter false */
    maniGraphConditionTrigger = 8,      /* a trigger parameter set (cleared when the transition is taken) */
    maniGraphConditionTime = 9,         /* value seconds or more spent in the transition's source state */
    maniGraphConditionExitTime = 10,    /* the source state's time over its span (the seconds its longest clip
                                           plays through) at value or more */
    maniGraphConditionFinished = 11     /* the source state a state machine in one of its finals, no fade under
                                           way (never for a state of another kind) */
} maniGraphConditionKind;

#define MANI_GRAPH_CONDITION_KIND_COUNT 12u

/* Which transitions may interrupt a transition under way (the any-state
 * ones with any but none). Frozen values. */
typedef enum maniGraphInterruption {
    maniGraphInterruptNone = 0,        /* none: the fade runs to its end */
    maniGraphInterruptSource = 1,      /* the transitions out of its source state */
    maniGraphInterruptDestination = 2, /* the transitions out of its destination state */
    maniGraphInterruptBoth = 3         /* either's */
} maniGraphInterruption;

/* How a transition enters its destination. Frozen values. */
typedef enum maniGraphEntry {
    maniGraphEntryRestart = 0, /* the destination and every node beneath start over (playheads 0, machines at entry) */
    maniGraphEntryContinue = 1 /* the destination's nodes go on from where they are */
} maniGraphEntry;

/* A fade's curve: the weight a fade gives its destination at a progress p
 * (0 to 1) of its duration, in binary32. Frozen values. */
typedef enum maniGraphFadeCurve {
    maniGraphFadeLinear = 0,   /* p */
    maniGraphFadeEaseIn = 1,   /* p * p */
    maniGraphFadeEaseOut = 2,  /* p * (2 - p) */
    maniGraphFadeEaseInOut = 3 /* p * p * (3 - 2p) */
} maniGraphFadeCurve;

#define MANI_GRAPH_FADE_CURVE_COUNT 4u

/* How an inertialize node removes the jump a firing leaves (graph.h, next
 * to MANI_GRAPH_INERTIALIZE_IDLE, gives the arithmetic). Frozen values. */
typedef enum maniGraphInertializationMethod {
    maniGraphInertialization = 0, /* Bollo's: the offset from the last output to the input decayed to 0 by a
                                     quintic over the duration */
    maniGraphDeadBlending = 1     /* Holden's: the last output extrapolated with its velocity decaying by a
                                     half-life, cross-faded to the input over the duration (smoothstep) */
} maniGraphInertializationMethod;

#define MANI_GRAPH_INERTIALIZATION_METHOD_COUNT 2u

/* A condition of a transition. */
typedef struct maniGraphConditionSource {
    maniGraphConditionKind kind; /* what it tests */
    uint32_t parameter;          /* the parameter the comparisons, True, False and Trigger read (a float, a
                                    bool, a trigger by the kind); ignored by Time, ExitTime and Finished */
    float value;                 /* the comparisons' number (finite), Time's seconds and ExitTime's fraction
                                    (finite, 0 or more); ignored by the others */
} maniGraphConditionSource;

/* A transition of a state machine: from a state (or any) to a state when
 * all its conditions hold, fading over duration seconds. */
typedef struct maniGraphTransitionSource {
    uint32_t from;                            /* a state (a place among the machine's inputs), or MANI_GRAPH_NONE:
                                                 any state but the destination */
    uint32_t to;                              /* a state */
    uint32_t priority;                        /* among the transitions that may be taken, the highest goes (the
                                                 earliest of equal priorities) */
    maniGraphInterruption interruption;       /* what may interrupt its fade */
    maniGraphEntry entry;                     /* how it enters its destination */
    maniGraphFadeCurve fade;                  /* its fade's curve */
    float duration;                           /* its fade's seconds, finite, 0 or more (0: at once) */
    float cooldown;                           /* the seconds after it is taken before it may be taken again,
                                                 finite, 0 or more */
    const maniGraphConditionSource* conditions; /* conditionCount conditions, all of which must hold (none: it
                                                   may always be taken) */
    uint32_t conditionCount;                  /* at most MANI_MAX_GRAPH_CONDITIONS */
} maniGraphTransitionSource;

/* A blend space input's position: a 1D space reads x, the 2D spaces x and
 * y (in their parameters' units). */
typedef struct maniGraphSpacePoint {
    float x;
    float y;
} maniGraphSpacePoint;

/* The most triangles a triangulated space may be given. */
#define MANI_MAX_GRAPH_SPACE_TRIANGLES 1024u

/* A node of a graph source. This release builds clip, blend, mask,
 * additive, select, time scale, seek, mirror, pose, state machine, one-shot,
 * inertialize and the three blend space nodes (1D, banded, triangulated); the
 * other kinds (the [graph-nodes] kinds IK, springs,
 * motion matching and learned) are refused with maniBuildReasonNode (other:
 * the kind). Members a kind does not read are ignored. */
typedef struct maniGraphNodeSource {
    maniGraphNodeKind kind;      /* its kind */
    const uint32_t* inputs;      /* inputCount nodes by their place in the source */
    uint32_t inputCount;         /* clip, pose: 0; blend, select: 1 or more; additive: 2 (base, difference);
                                    mask: 2 (base, the one over it); one-shot: 2 (base, shot);
                                    time scale, seek, mirror, inertialize: 1 (an inertialize's a pose, not a
                                    difference: maniBuildReasonDifference) */
    uint32_t clip;               /* a clip node's slot */
    float speed;                 /* a clip node's speed, finite, at most MANI_MAX_GRAPH_TIME_FACTOR in magnitude */
    const uint32_t* parameters;  /* a blend's float weight parameter for each input (inputCount) */
    bool direct;                 /* a blend's weights used as they are (else normalized) */
    uint32_t parameter;          /* the parameter the node reads: a select's float or bool (the input it
                                    picks), a time scale's float factor or MANI_NO_PARAMETER (then factor),
                                    a seek's trigger, an additive's float weight or MANI_NO_PARAMETER (then
                                    weight), a pose node's pose parameter, a one-shot's trigger (the one
                                    that fires its shot), an inertialize's trigger or MANI_NO_PARAMETER (then
                                    it never fires: its input passed on) */
    float factor;                /* a time scale's factor without a parameter: finite, at most
                                    MANI_MAX_GRAPH_TIME_FACTOR in magnitude */
    float time;                  /* the time in seconds a seek moves its input's playheads to: finite, 0 or more */
    float weight;                /* an additive's weight without a parameter: in [0, 1] */
    const maniGraphMaskChain* chains; /* a mask's chains, applied in order over defaultWeight (a later
                                         chain's bones take its weight), chainCount of them */
    uint32_t chainCount;         /* at most MANI_MAX_BONES */
    float defaultWeight;         /* a mask's weight at the bones no chain reaches, in [0, 1] */
    /* A state machine's (its inputs are its states). */
    uint32_t entry;              /* the state it starts in (and a restart takes it back to) */
    uint32_t chainLimit;         /* the most fades under way at once, 1 to MANI_MAX_GRAPH_CHAIN (0: the most);
                                    an interruption past it drops the oldest */
    const maniGraphTransitionSource* transitions; /* transitionCount transitions */
    uint32_t transitionCount;    /* at most MANI_MAX_GRAPH_TRANSITIONS */
    const uint32_t* finals;      /* finalCount states no transition leaves */
    uint32_t finalCount;         /* at most the inputs */
    /* A blend space's (its inputs 1 to MANI_MAX_GRAPH_INPUTS, giving poses or
     * differences alike; parameter is its x float parameter). */
    const maniGraphSpacePoint* points; /* per input its position (inputCount), finite; a 1D space reads x
                                          alone, strictly increasing (within [0, period) with a period);
                                          a 2D space's no two equal */
    uint32_t parameterY;         /* a 2D space's y float parameter */
    float period;                /* a 1D space's period: 0 none (x clamped to the ends), else positions in
                                    [0, period) and x wrapped into it, the last and first joined across the
                                    wrap; finite, 0 or more */
    bool polar;                  /* a banded space's gradient bands in polar form (radial, angular) */
    const uint32_t* triangles;   /* a triangulated space's triangles: 3 input places each (triangleCount of
                                    them), each of non-zero area (either winding), every input in one; 0
                                    triangles: the Delaunay triangulation of the points, made here */
    uint32_t triangleCount;      /* at most MANI_MAX_GRAPH_SPACE_TRIANGLES */
    /* A one-shot's (its inputs base and shot; parameter is its trigger, the
     * trigger that fires the shot; chains, chainCount and defaultWeight its
     * mask when masked). */
    uint32_t fadeOutTrigger;     /* a trigger starting the shot's fade-out early, or MANI_NO_PARAMETER */
    uint32_t abortTrigger;       /* a trigger ending the shot at once (no fade), or MANI_NO_PARAMETER */
    maniGraphFadeCurve curve;    /* the curve of its fade-in and fade-out */
    float fadeIn;                /* the seconds the shot's weight rises over, finite, 0 or more */
    float fadeOut;               /* the seconds it falls over, finite, 0 or more */
    bool masked;                 /* the shot weighed per bone by a mask (chains, chainCount, defaultWeight, as a
                                    mask node's); false: the whole body */
    /* An inertialize's (its one input; parameter is its trigger). Each
     * number finite and 0 or more, halfLifeMin at most halfLifeMax, else
     * maniBuildReasonScalar (other 0 duration, 1 halfLifeScale, 2
     * halfLifeMin, 3 halfLifeMax or min above max); a method out of range
     * maniBuildReasonNode (other 1). */
    maniGraphInertializationMethod method; /* how a firing's jump is removed */
    float duration;              /* the seconds the jump is removed over (0: none, a cut) */
    float halfLifeScale;         /* dead blending: the half-life clamp(halfLifeScale * duration, halfLifeMin,
                                    halfLifeMax) of the extrapolated velocity (the JSON form's defaults 0.3,
                                    0.1, 1.0; read but unused by inertialization) */
    float halfLifeMin;           /* dead blending: the least half-life in seconds */
    float halfLifeMax;           /* dead blending: the most half-life in seconds, halfLifeMin or more */
} maniGraphNodeSource;

/* A graph source: what maniBuildGraph builds. */
typedef struct maniGraphSource {
    const maniSkeleton* skeleton;               /* the skeleton the graph poses (an open's view) */
    const maniGraphParameterSource* parameters; /* parameterCount parameters (NULL when none) */
    uint32_t parameterCount;                    /* at most MANI_MAX_GRAPH_PARAMETERS */
    const maniGraphClipSource* clips;           /* clipCount clip slots (NULL when none) */
    uint32_t clipCount;                         /* at most MANI_MAX_GRAPH_CLIPS */
    const maniGraphNodeSource* nodes;           /* nodeCount nodes, 1 or more */
    uint32_t nodeCount;                         /* at most MANI_MAX_GRAPH_NODES */
    uint32_t output;                            /* the node whose pose the graph gives, by its place */
    const maniMirrorMap* mirror;                /* the mirror map mirror nodes use, of the skeleton (NULL: none;
                                                   its identity is recorded) */
    const maniGraphDatabaseSource* databases;   /* databaseCount motion database slots (NULL when none) */
    uint32_t databaseCount;                     /* at most MANI_MAX_GRAPH_CLIPS */
    uint32_t modelCount;                        /* at most MANI_MAX_GRAPH_CLIPS */
    const maniGraphModelSource* models;         /* modelCount learned model slots (NULL when none) */
    const maniGraphSpringSetSource* springSets; /* springSetCount spring set slots (NULL when none) */
    uint32_t springSetCount;                    /* at most MANI_MAX_GRAPH_CLIPS */
} maniGraphSource;

/* Builds a graph file: checks every parameter, clip slot, database slot,
 * model slot, spring set slot and node, gives each retargeting map the clip
 * slots name a map slot (distinct maps by identity, in the clip slots'
 * order), orders
 * the nodes so each follows its inputs (the output last, the source's order
 * kept where it may be: among the nodes whose inputs are placed, the first
 * in the source goes next), marks each node as giving poses or differences
 * (a clip node of an additive clip gives differences; a blend, mask or
 * select what all its inputs give; a time scale, seek or mirror what its input
 * gives; an additive, a one-shot and a pose node poses) and as mirrored or not (an odd
 * count of mirror nodes on its path to the output), gives each node's pose a
 * slot reused once its last reader has run, and keeps the file in place of
 * any built before.
 *
 * Returns mani_success; mani_errorLimit with maniBuildReasonCount (item 0)
 * for more parameters, clips or nodes than their limits, with
 * maniBuildReasonName | the list bit for a name past MANI_MAX_NAME_BYTES
 * (item the parameter or slot), with maniBuildReasonScalar (item the node)
 * for a speed or a time scale's factor past MANI_MAX_GRAPH_TIME_FACTOR, with
 * maniBuildReasonNode for more than MANI_MAX_GRAPH_INPUTS inputs or a mask
 * of more than MANI_MAX_BONES chains, with maniBuildReasonClip (item the
 * clip slot naming it, other 0) for more maps than
 * MANI_MAX_GRAPH_RETARGET_MAPS, with maniBuildReasonCount (item 0) for more
 * database, model or spring set slots than MANI_MAX_GRAPH_CLIPS, and with
 * maniBuildReasonName and the list bit for a slot name past
 * MANI_MAX_NAME_BYTES;
 * mani_errorInvalid for a NULL argument (reason None), or for a refused
 * source: Count (no nodes, or a list with a count and NULL: item 0, or a
 * blend's inputs or weights, or another node's inputs, NULL with a count:
 * item the node), Name / DuplicateName / NameHash with the list bit
 * maniBuildReasonGraphParameters, maniBuildReasonGraphClips,
 * maniBuildReasonGraphDatabases, maniBuildReasonGraphModels or
 * maniBuildReasonGraphSpringSets (other: the earlier item), Database (item
 * the slot: a database not opened, other 0; of another skeleton, other 1; a
 * clip of it no clip slot without a map plays, other 2 + the clip), Model
 * and SpringSetSlot (item the slot: not opened, other 0; of another
 * skeleton, other 1), Parameter (a type out of range, a default not finite: item
 * the parameter; a blend weight past the parameters or not a float: item
 * the node, other the input's place; a node's parameter past the parameters
 * or of a type it does not read: item the node, other 0), Clip (item the slot:
 * a NULL clip, other 0; a clip of another skeleton than the graph's, or its
 * map's source skeleton, other 1; a map not opened or not made for the
 * graph's skeleton, other 2; an additive clip through a map, other 3; a clip
 * node's slot past the slots: item the node), Node (a kind out of range or not
 * built here, other the kind; the output past the nodes, item the output),
 * Input (an input past the nodes, other the input's place; or a count of
 * inputs the kind does not take, other 0: item the node), Scalar (a speed,
 * factor or time not finite, a time below 0), Weight (an additive's weight
 * or a mask's default weight outside [0, 1] or not finite, other 0; a mask
 * chain's, other the chain + 1), Joint (a mask chain's bone past the
 * skeleton: item the node, other the chain), Count (a mask's chains NULL
 * with a count), Cycle (item a node on the cycle),
 * Unreachable (item the first node the output never reads), Difference
 * (item the node: a blend or select whose inputs give poses and
 * differences, other the first input giving the other; an additive's base a
 * difference, other 0, or its second input a pose, other 1; the output
 * giving a difference, other 0; a one-shot's base a difference, other 0,
 * or its shot, other 1), MirrorGraph (a mirror node without a
 * mirror map, other 0; a mirror map of another skeleton, item 0, other 1),
 * MirrorParity (a node under both a mirrored and an unmirrored path, item
 * the node, other the reader reaching it the other way: give each path its
 * own copy of the nodes beneath). A state machine (its inputs its states,
 * 1 to MANI_MAX_GRAPH_INPUTS, giving poses or differences alike): mani_errorLimit
 * with Node (item the node, other 0) for more than MANI_MAX_GRAPH_TRANSITIONS
 * transitions, with Transition (item the node, other the transition) for
 * more than MANI_MAX_GRAPH_CONDITIONS conditions; mani_errorInvalid with
 * Count (item the node) for transitions or finals NULL with a count, Node
 * (item the node) for the entry past the states (other 0), a chainLimit past
 * MANI_MAX_GRAPH_CHAIN (other 1) or a final past the states or given twice
 * (other 2 + its place), Transition (item the node, other the transition)
 * for a from past the states (not MANI_GRAPH_NONE), a to past them, an
 * interruption, entry or fade out of range, a duration or cooldown not
 * finite or below 0, conditions NULL with a count, a condition kind out of
 * range, a condition's parameter past the parameters or not of the type its
 * kind reads, a comparison's value not finite, or a Time or ExitTime value
 * not finite or below 0. A blend space (item the node): mani_errorLimit
 * with Node (other 0) for more than MANI_MAX_GRAPH_INPUTS inputs or more
 * than MANI_MAX_GRAPH_SPACE_TRIANGLES triangles; mani_errorInvalid with
 * Input (other 0) for no inputs, Count (points NULL, other 0; triangles
 * NULL with a count, other 1), Parameter (its parameter, other 0, or a 2D
 * space's parameterY, other 1, past the parameters or not a float),
 * NotFinite (a position not finite, other the input), Scalar (a period not
 * finite or below 0, other 0), Input (other the input's place: a 1D
 * position not above the one before, or outside [0, period) with a period;
 * a 2D position equal to an earlier one; a triangulated input in no given
 * triangle), Triangle (other the triangle: an index past the inputs or
 * twice in it, or an area of 0 (binary64 cross product); other
 * MANI_GRAPH_NONE: no triangles given and the points all on one line, so
 * none to make, or binary64 rounding leaving the triangulation made with a
 * triangle of no area or a point in none). A one-shot (item the node):
 * Input (other 0) for other than 2 inputs, Parameter for its trigger past
 * the parameters or not a trigger (other 0), its fadeOutTrigger (other 1)
 * or abortTrigger (other 2) neither MANI_NO_PARAMETER nor a trigger, Node
 * (other 1) for a curve out of range, Scalar for a fadeIn (other 0) or
 * fadeOut (other 1) not finite or below 0, and, masked, its chains checked
 * as a mask's (mani_errorLimit with Node for more than MANI_MAX_BONES;
 * Count, Weight, Joint); unmasked its chains are not read. Its mask's bone
 * weights are made as a mask node's and kept in its node data words, not
 * the masks section. The Delaunay triangulation (binary64): the points sorted
 * by x then y (then place), a triangle of the first points not on one line
 * with the ones before them on it fanned, each later point joined to the
 * hull edges it sees, then Lawson flips, pass after pass in triangle order,
 * of each edge whose opposite point lies strictly inside the other
 * triangle's circumcircle until none does (cocircular points keep the first
 * triangulation found); each triangle written counterclockwise.
 * mani_errorCapacity when the allocator fails. Safe from any thread; the
 * builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildGraph(maniBuilder* builder, const maniGraphSource* source);

/* -- The JSON text form ---------------------------------------------------------- */

/* The assets a graph's JSON text names: the skeleton it poses and the host's
 * clips by name. Each clip slot of the text takes the first clip here of its
 * name. */
typedef struct maniGraphNamedAssets {
    const maniSkeleton* skeleton;     /* the skeleton the graph poses (an open's view) */
    const maniGraphClipSource* clips; /* clipCount named clips, each with its map (NULL when none) */
    uint32_t clipCount;               /* the named clips */
    const maniMirrorMap* mirror;      /* the mirror map every graph read takes (NULL: none) */
    const maniGraphDatabaseSource* databases;   /* databaseCount named motion databases (NULL when none) */
    uint32_t databaseCount;
    uint32_t modelCount;                        /* the named learned models */
    const maniGraphModelSource* models;         /* modelCount named learned models (NULL when none) */
    const maniGraphSpringSetSource* springSets; /* springSetCount named spring sets (NULL when none) */
    uint32_t springSetCount;
} maniGraphNamedAssets;

/* Builds a graph source as maniBuildGraph does and, when it builds, keeps its
 * JSON text form in the builder in place of the file (UTF-8, two-space
 * indents, a line per list item, ending in a new line; maniBuilder_CopyBuilt
 * copies it): an object of "format" ("maul-anim graph"), "version" (1),
 * "parameters" ([{"name", "type": "float" | "bool" | "trigger" | "vector" |
 * "quaternion" | "pose", "value"}], value a number, true or false, [x, y, z]
 * or [x, y, z, w] by the type, written for every type but triggers and
 * poses), "clips" ([{"name"}], the slots' names), "databases", "models"
 * and "springSets" ([{"name"}], the slots' names, each written only when the
 * graph has slots of its kind), "nodes" (each an object
 * of "kind" and its kind's members: a clip node {"kind": "clip", "clip": the
 * slot's name, "speed"}; a blend {"kind": "blend", "inputs": [node places],
 * "weights": [parameter names], "direct"}; {"kind": "mask", "inputs": [base,
 * over], "chains": [{"bone": name, "weight", "subtree"}], "defaultWeight"};
 * {"kind": "additive", "inputs":
 * [base, difference], "weight"}; {"kind": "select", "inputs", "parameter":
 * name}; {"kind": "timeScale", "inputs": [node], "factor"}; {"kind": "seek",
 * "inputs": [node], "trigger": name, "time"}; {"kind": "mirror", "inputs":
 * [node]}; {"kind": "pose", "parameter": name}; {"kind": "stateMachine",
 * "inputs": [states], "entry", "chainLimit", "transitions": [{"from": a
 * state's place among the inputs or "any", "to", "priority", "interruption":
 * "none" | "source" | "destination" | "both", "entry": "restart" |
 * "continue", "fade": "linear" | "easeIn" | "easeOut" | "easeInOut",
 * "duration", "cooldown", "conditions": [{"kind": "greater" | "less" |
 * "greaterEqual" | "lessEqual" | "equal" | "notEqual" | "true" | "false" |
 * "trigger" | "time" | "exitTime" | "finished", "parameter": name (the
 * kinds reading one), "value" (the comparisons, time and exitTime)}]}],
 * "finals": [states]}; a blend space {"kind": "space1D" | "spaceBanded" |
 * "spaceTriangulated", "inputs", "parameter": name (x), "parameterY": name
 * (the 2D spaces), "positions": [{"x", "y"}] (a 1D space's without y),
 * "period" (1D), "polar" (banded), "triangles": [[i, j, k]] (triangulated:
 * the given ones, empty for the Delaunay triangulation)}; {"kind": "oneShot",
 * "inputs": [base, shot], "trigger": name, "fadeOutTrigger": name and
 * "abort": name (each written only when set), "curve": "linear" | "easeIn"
 * | "easeOut" | "easeInOut", "fadeIn", "fadeOut", "mask": {"chains":
 * [{"bone", "weight", "subtree"}], "defaultWeight"} (written only when
 * masked)}; a weight or factor a number,
 * or {"parameter": name} for the parameter standing for it) and "output"
 * (the output's place), lists in the source's order, numbers as
 * the shortest text that reads back to the same binary32 (ECMAScript's
 * layout). A source maniBuildGraph refuses is refused the same way and not
 * written. Returns as maniBuildGraph (and mani_errorCapacity when the text's
 * memory runs out). Safe from any thread; the builder is used by one thread
 * at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniWriteGraphJson(maniBuilder* builder, const maniGraphSource* source);

/* Builds a graph file from its JSON text form (length bytes), as
 * maniWriteGraphJson writes it: members an object does not take are refused;
 * "format", "version", "nodes" and "output", a parameter's "name" and
 * "type", a clip slot's "name", a node's "kind", a clip node's "clip", a
 * blend's "inputs" and "weights", the "inputs" of the other kinds that take
 * inputs, a select's and a pose node's "parameter", a seek's and a
 * one-shot's "trigger" are required; the others may be left out (a parameter's value: 0, false,
 * the zero vector or the identity quaternion by its type; a clip node's
 * speed 1; a blend's direct false; a mask's chains empty and defaultWeight
 * 0, a chain's subtree false (its bone and weight required); an additive's
 * weight 1; a time scale's
 * factor 1; a seek's time 0; a machine's entry 0, chainLimit 0 (4),
 * transitions and finals empty; a transition's priority 0, interruption
 * "none", entry "restart", fade "linear", duration and cooldown 0 and
 * conditions empty; a condition's value 0 ("from", "to", a condition's
 * "kind" and the parameter of the kinds reading one required; a parameter
 * or value given a kind that does not read it refused as a Member at its
 * key); a 1D space's period 0, a banded space's polar false, a
 * triangulated space's triangles none (its Delaunay triangulation), a
 * position's y 0 (a space's "inputs", "parameter", "positions" and a 2D
 * space's "parameterY" required, a position's "x" required); a one-shot's
 * fadeOutTrigger and abort none, curve "linear", fadeIn and fadeOut 0, mask
 * none (the whole body; a "mask" given, even {}, masks it: its chains empty
 * and defaultWeight 0 when left out, as a mask node's); parameters, clips, databases, models and
 * springSets empty). A trigger or pose
 * parameter takes no value. The kinds maniBuildGraph does not build yet are
 * not in this version of the form. Each clip slot takes the assets' first
 * clip of its name (and its map), each database, model and spring set slot
 * the assets' first of its name and kind, and the graph the assets' mirror
 * map. The source read
 * is then built as maniBuildGraph builds it.
 * Returns as maniBuildGraph, items by place in the text's lists; or
 * mani_errorInvalid with maniBuildReasonNone for a NULL builder, assets or
 * skeleton, a NULL text with a length or named clips, databases, models or
 * spring sets with a count and NULL;
 * maniBuildReasonJson (item the byte offset) for text that does not parse;
 * maniBuildReasonForm (other a maniGraphForm, item the byte offset) for text
 * that does not follow the form: Member (a member its object does not take,
 * a value given a trigger or pose parameter; offset the key), Type (offset
 * the value), Missing (offset the object), Format, Value (an unknown type or
 * kind or one not in the form yet, a number past binary32, a vector or quaternion of another count of
 * numbers, a node place or output not a whole number below 2^32, weights
 * or a space's positions not one for each input, a triangle not 3 node
 * places; offset the value), Name (a clip slot no named
 * clip has, a clip node's slot or a parameter no slot or parameter of the
 * text has, a database, model or spring set slot no named asset of its
 * kind has, a mask chain's bone the skeleton lacks; offset the string); mani_errorVersion with
 * maniBuildReasonForm (maniGraphFormVersion) for a version other than 1;
 * mani_errorCapacity when memory runs out. Safe from any thread; the builder
 * is used by one thread at a time. */
MANI_NODISCARD MANI_API maniBuildResult maniBuildGraphJson(maniBuilder* builder, const char* text, size_t length,
                                                           const maniGraphNamedAssets* assets);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_GRAPHBUILD_H */
