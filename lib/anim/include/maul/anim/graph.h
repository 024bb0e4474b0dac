/* Maul Anim: graph.h
 *
 * Graphs: a graph file built offline against one skeleton (graphbuild.h),
 * opened in place and read through the accessors below. Its nodes form a
 * DAG stored in topological order, each after its inputs, the output last.
 * The graph file format is in docs/formats.md ("Graph").
 *
 * This release opens graphs and reads them; binding, instances, updates and
 * evaluation land with the rest of the graph area.
 */
#ifndef MAUL_ANIM_GRAPH_H
#define MAUL_ANIM_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/base.h"
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
    maniGraphNodeSpace1D = 7,         /* a 1D blend space */
    maniGraphNodeSpaceBanded = 8,     /* a 2D gradient-band blend space */
    maniGraphNodeSpaceTriangulated = 9, /* a 2D triangulated blend space */
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

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_GRAPH_H */
