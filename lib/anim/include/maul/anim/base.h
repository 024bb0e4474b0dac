/* Maul Anim: base.h
 *
 * The base of the Maul Anim API: the library version, the export and
 * attribute macros, and the result codes every fallible function returns,
 * with the result structs that file opens, builds and imports return.
 *
 * Conventions shared by every header (docs/maul-conventions.md): a function
 * refusing its arguments returns a result code and leaves its outputs as they
 * were unless its text says otherwise; "Thread safety" lines say which
 * arguments one thread at a time may use.
 */
#ifndef MAUL_ANIM_BASE_H
#define MAUL_ANIM_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* -- Version ---------------------------------------------------------------- */

/* The version of the headers a program is compiled with. maniGetVersion gives
 * the version of the library it links. */
#define MANI_VERSION_MAJOR 0
#define MANI_VERSION_MINOR 1
#define MANI_VERSION_PATCH 0

/* The version as one integer: major * 10000 + minor * 100 + patch. */
#define MANI_VERSION (MANI_VERSION_MAJOR * 10000 + MANI_VERSION_MINOR * 100 + MANI_VERSION_PATCH)

/* The ABI version: the major and minor version, (major << 16) | minor. Defs
 * carry it (stamped by the headers a program includes) and saved states
 * record it; a library refuses either when it is not its own. Patch releases
 * keep the ABI. */
#define MANI_ABI_VERSION ((uint32_t)((MANI_VERSION_MAJOR << 16) | MANI_VERSION_MINOR))

/* A library version, as maniGetVersion returns it. */
typedef struct maniVersion {
    uint32_t major; /* incremented for changes that break source or ABI compatibility */
    uint32_t minor; /* incremented for additions; also part of the ABI version */
    uint32_t patch; /* incremented for fixes that change no interface */
} maniVersion;

/* -- Attributes -------------------------------------------------------------- */

/* MANI_API marks the library's exported functions: default visibility, so a
 * shared build exports exactly the public API. */
#if defined(_WIN32)
#define MANI_API
#elif defined(__GNUC__) || defined(__clang__)
#define MANI_API __attribute__((visibility("default")))
#else
#define MANI_API
#endif

/* MANI_NODISCARD marks functions whose result must be checked: ignoring a
 * result code is a compile warning (an error in the project's own builds). */
#if defined(__GNUC__) || defined(__clang__)
#define MANI_NODISCARD __attribute__((warn_unused_result))
#else
#define MANI_NODISCARD
#endif

/* -- Result codes ------------------------------------------------------------ */

/* What a fallible function returns. The values are frozen: a code is never
 * renumbered or reused, new codes take new values. */
typedef enum maniResult {
    mani_success = 0,       /* the call did what it says */
    mani_errorInvalid = 1,  /* an argument the function refuses (NULL, out of range, a def without its cookie, ...) */
    mani_errorFormat = 2,   /* bytes or data that do not follow their format; the result says where */
    mani_errorVersion = 3,  /* a file, def or state of another version than this library reads */
    mani_errorCapacity = 4, /* caller memory too small, or an allocator that failed */
    mani_errorLimit = 5,    /* an input past one of the library's documented bounds (MANI_MAX_...) */
    mani_errorBusy = 6      /* a call back into an object from the host code it is running (allocator, hooks) */
} maniResult;

/* -- Result structs ----------------------------------------------------------- */

/* What opening a file (maniOpenSkeleton, maniOpenClip, ...) or restoring a
 * saved state returns: the code and, for mani_errorFormat, the offset of the
 * first byte found wrong (0 otherwise). */
typedef struct maniFileResult {
    maniResult result;
    uint64_t offset; /* byte offset from the start of the bytes given to the open */
} maniFileResult;

/* Why a builder refused a source: maniBuildResult's reason. The values below
 * 0x100 are reasons; maniBuildReasonFloatTrack and maniBuildReasonEvent are
 * list bits combined with a name reason (maniBuildReasonName,
 * maniBuildReasonDuplicateName) to say which list a refused name is in. The
 * values are frozen. */
typedef enum maniBuildReason {
    maniBuildReasonNone = 0,            /* no reason: success, or a refusal the code alone explains */
    maniBuildReasonCount = 1,           /* a count: none where one is needed, too many, or offsets out of order */
    maniBuildReasonName = 2,            /* a name not valid UTF-8, empty, or past MANI_MAX_NAME_BYTES */
    maniBuildReasonDuplicateName = 3,   /* a name given twice in one list (other: the earlier item) */
    maniBuildReasonNameHash = 4,        /* two names whose hashes collide */
    maniBuildReasonNotFinite = 5,       /* a number that is NaN or infinite */
    maniBuildReasonOption = 6,          /* an option out of its range */
    maniBuildReasonTiming = 7,          /* times, rates or sample counts that do not make a timeline */
    maniBuildReasonJoint = 8,           /* a joint or bone past the skeleton, or of another skeleton */
    maniBuildReasonRepeatedJoint = 9,   /* one joint twice among a vertex's influences */
    maniBuildReasonWeight = 10,         /* a weight out of range, or weights that do not sum */
    maniBuildReasonTriangle = 11,       /* a triangle with an index past the vertices */
    maniBuildReasonAttribute = 12,      /* a morph attribute refused */
    maniBuildReasonVertex = 13,         /* a vertex index out of range or not increasing */
    maniBuildReasonBasis = 14,          /* an additive basis the operation cannot take */
    maniBuildReasonRootMotion = 15,     /* a root motion setting refused */
    maniBuildReasonChannel = 16,        /* a motion database channel refused */
    maniBuildReasonEntry = 17,          /* a motion database entry refused */
    maniBuildReasonMissingTrack = 18,   /* a float track a clip lacks */
    maniBuildReasonSpread = 19,         /* a channel that never varies */
    maniBuildReasonMirrorDatabase = 20, /* a mirror map refused for a database */
    maniBuildReasonClip = 21,           /* a clip refused (identity, skeleton or kind) */
    maniBuildReasonDatabase = 22,       /* a motion database of another skeleton */
    maniBuildReasonTags = 23,           /* tags refused */
    maniBuildReasonNetwork = 24,        /* a network's shape refused */
    maniBuildReasonJson = 25,           /* JSON text that does not parse (item: byte offset) */
    maniBuildReasonForm = 26,           /* JSON that does not follow its form (other: a maniGraphForm) */
    maniBuildReasonMirrorName = 27,     /* a mirror naming rule refused */
    maniBuildReasonMirrorPair = 28,     /* a mirror pair refused */
    maniBuildReasonMirrorReference = 29,/* a mirror reference pose refused */
    maniBuildReasonMirrorRule = 30,     /* a mirror rule refused */
    maniBuildReasonMirrorClip = 31,     /* a clip a mirror cannot take */
    maniBuildReasonRetargetChain = 32,  /* a retarget chain refused */
    maniBuildReasonRetargetPair = 33,   /* a retarget bone pair refused */
    maniBuildReasonRetargetPelvis = 34, /* a retarget pelvis refused */
    maniBuildReasonRetargetReference = 35, /* a retarget reference pose refused */
    maniBuildReasonRetargetClip = 36,   /* a clip a retarget map cannot take */
    /* Graph reasons (graphbuild.h; item a node by its place in the source
     * unless maniBuildGraph says otherwise). */
    maniBuildReasonParameter = 48,      /* a parameter refused: a type out of range, or one a node cannot read */
    maniBuildReasonNode = 49,           /* a node refused: a kind out of range or not built here, or its settings */
    maniBuildReasonInput = 50,          /* a node's input past the nodes, or too few or many inputs (other: its place) */
    maniBuildReasonCycle = 51,          /* a node among its own inputs' inputs */
    maniBuildReasonUnreachable = 52,    /* a node the output never reads */
    maniBuildReasonScalar = 53,         /* a number out of range (a speed not finite, ...) */
    maniBuildReasonDifference = 54,     /* a difference where a pose is needed, or the other way */
    maniBuildReasonMirrorGraph = 55,    /* a mirror node without a mirror map */
    maniBuildReasonMirrorParity = 56,   /* a node under both a mirrored and an unmirrored path (other: the reader) */
    maniBuildReasonSpringSetSlot = 57,  /* a spring set slot refused */
    maniBuildReasonModel = 58,          /* a learned model slot refused */
    maniBuildReasonTransition = 59,     /* a state machine transition refused */

    maniBuildReasonFloatTrack = 0x100,  /* list bit: the refused name is a float track's */
    maniBuildReasonEvent = 0x200,       /* list bit: the refused name is an event's */
    maniBuildReasonGraphParameters = 0x400, /* list bit: the refused name is a graph parameter's */
    maniBuildReasonGraphClips = 0x800,      /* list bit: the refused name is a graph clip slot's */
    /* 0x1000 is kept for graph sync groups' names. */
    maniBuildReasonGraphDatabases = 0x2000, /* list bit: the refused name is a graph motion database slot's */
    maniBuildReasonGraphModels = 0x4000,    /* list bit: the refused name is a graph learned model slot's */
    maniBuildReasonGraphSpringSets = 0x8000 /* list bit: the refused name is a graph spring set slot's */
} maniBuildReason;

/* What a build returns: the code, and for a refused source the reason, the
 * item it concerns (a bone, track, vertex, ... as the function says) and
 * another item the reason names (an earlier duplicate, an influence, ...). */
typedef struct maniBuildResult {
    maniResult result;
    uint32_t reason; /* a maniBuildReason, possibly with a list bit */
    uint64_t item;
    uint64_t other;
} maniBuildResult;

/* Why an import refused a document: maniImportResult's reason. Frozen values;
 * import.h documents each in full. */
typedef enum maniImportReason {
    maniImportReasonNone = 0,        /* no reason */
    maniImportReasonContainer = 1,   /* the container (GLB chunks, FBX header) is wrong */
    maniImportReasonJson = 2,        /* the JSON text does not parse */
    maniImportReasonProperty = 3,    /* a property missing, of the wrong type or out of range */
    maniImportReasonUnsupported = 4, /* a required extension or feature the importer lacks */
    maniImportReasonBuffer = 5,      /* a buffer missing, or of the wrong size */
    maniImportReasonData = 6,        /* data in a buffer refused (item and offset say where) */
    maniImportReasonBone = 7,        /* a node that cannot be a bone */
    maniImportReasonMatrix = 8,      /* a matrix that does not decompose */
    maniImportReasonName = 9,        /* a name refused */
    maniImportReasonBuild = 10,      /* the builder refused what the import made (item: its maniBuildReason) */
    maniImportReasonIndex = 11,      /* an index in the data past what it indexes (a vertex, a joint) */
    maniImportReasonPending = 12,    /* data in an external buffer not supplied yet (item: the buffer) */
    maniImportReasonInfluence = 13,  /* a vertex influence refused (a weight below 0, out of range or not
                                        finite; a joint past its skin's joints) */
    maniImportReasonVersion = 14,    /* a document version the importer does not read */
    maniImportReasonSyntax = 15      /* text (FBX ASCII) that does not parse */
} maniImportReason;

/* What an import returns: the code, the reason, the item it concerns and the
 * byte offset in the document or buffer where it was found. */
typedef struct maniImportResult {
    maniResult result;
    uint32_t reason; /* a maniImportReason */
    uint64_t item;
    uint64_t offset;
} maniImportResult;

/* -- Functions ------------------------------------------------------------------ */

/* Returns the version of the library that was linked, which may differ from
 * the MANI_VERSION macros a program was compiled with. Safe from any thread. */
MANI_API maniVersion maniGetVersion(void);

/* Returns the backend the library's vector code was built for, set by the
 * MAUL_ANIM_SIMD build option: "avx2", "neon" or "scalar"; a static string.
 * Safe from any thread. */
MANI_API const char* maniGetSimdBackend(void);

/* Tells whether this CPU runs the backend the library was built for.
 * Safe from any thread. */
MANI_API bool maniIsCpuBackendSupported(void);

/* The CPU check a host makes once, before any other call into the library:
 * an AVX2 build on a CPU without AVX2 and FMA would stop on its first vector
 * instruction, so on false the host refuses to run or loads a scalar build.
 * No job checks it again. This function and the two above are built without
 * the backend's instructions and are safe on any CPU of the architecture.
 * backend, when not NULL, receives the backend's name (maniGetSimdBackend).
 * Returns whether this CPU runs the backend. Safe from any thread; no state. */
MANI_API bool maniCheckCpu(const char** backend);

/* Hashes bytes into a 64-bit value: eight bytes a round, read in the host's
 * byte order, xored in, multiplied by an odd constant and folded, the leftover
 * bytes one at a time. The algorithm and its constants are frozen and written
 * in docs/determinism.md. data may be NULL when byteCount is 0; a NULL data or
 * a byteCount below 1 hashes as no bytes. Safe from any thread. */
MANI_API uint64_t maniHash64(uint64_t seed, const void* data, int64_t byteCount);

/* Returns the name of a result code, for diagnostics: a static NUL-terminated
 * string such as "mani_errorCapacity", or "mani_unknownResult" for a value
 * that is not a result code. Safe from any thread. */
MANI_API const char* maniGetResultName(maniResult result);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_BASE_H */
