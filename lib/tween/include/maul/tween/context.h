/* Maul Tween: context.h
 *
 * The context: the owner of targets, clips and players, made from a def that
 * names every capacity and allocated in one block through the host's
 * allocator. Nothing allocates after creation; mtwnContext_Grow is the one
 * later allocation, and only when the host asks.
 *
 * The host's code a context's functions run (a host easing, the allocator,
 * the task system's functions and tasks) calls no function of that context:
 * while one runs, those taking the context non-const refuse with
 * mtwn_errorBusy and count one misuse, and the const ones read it in the
 * middle of a call. Two exceptions refuse as the others do: mtwnTarget_GetState,
 * whose velocity may run a host easing again; and, while an update's clip
 * players run in groups on the task system, the readers of targets and
 * players, which a group may be writing.
 */
#ifndef MAUL_TWEEN_CONTEXT_H
#define MAUL_TWEEN_CONTEXT_H

#include "maul/tween/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Ranges ------------------------------------------------------------------- */

/* Every count a def names (targets, players, points per transition, clips,
 * events, bindings, sharing) is at most this, 2^24: a context's block then
 * fits in 64 bits of size whatever the counts. */
#define MTWN_MAX_COUNT 16777216u

/* A context's clip storage is at most this many bytes, 2^36. */
#define MTWN_MAX_CLIP_STORAGE 68719476736ull

/* The value mtwnDefaultContextDef writes in mtwnContextDef.cookie. */
#define MTWN_CONTEXT_DEF_COOKIE 0x43545831u

/* -- Types -------------------------------------------------------------------- */

/* A context: opaque, made by mtwnCreateContext. */
typedef struct mtwnContext mtwnContext;

/* A task the library hands the host's task system: run it for every index
 * from 0 below the count it was given with, on any threads. */
typedef void mtwnTaskFunction(void* taskData, uint32_t index);

/* The host's task system a context may run an update's clip players on. Both
 * functions or neither (none: everything runs on the calling thread); a def
 * with one of the two is refused. begin starts task(taskData, i) for i from 0
 * below count and returns a handle (any value); wait returns once every one
 * of them has run. user is passed to both. */
typedef struct mtwnTaskSystem {
    void* (*begin)(void* user, mtwnTaskFunction* task, void* taskData, uint32_t count);
    void (*wait)(void* user, void* handle);
    void* user;
} mtwnTaskSystem;

/* What a context holds (mtwnDefaultContextDef). Every count is at most
 * MTWN_MAX_COUNT (0 allowed: none of it), clipStorageBytes at most
 * MTWN_MAX_CLIP_STORAGE. */
typedef struct mtwnContextDef {
    uint32_t cookie;              /* MTWN_CONTEXT_DEF_COOKIE */
    uint32_t abiVersion;          /* MTWN_ABI_VERSION of the headers that made the def, checked first */
    uint32_t targetCapacity;      /* live targets */
    uint32_t playerCapacity;      /* live players: transitions and clips' players */
    uint32_t pointsPerTransition; /* linear() points a transition's easing may have, copied into the context */
    uint32_t clipCapacity;        /* live clips */
    uint32_t eventCapacity;       /* records the event queue holds; 0: no records, no sweeps */
    uint32_t bindingCapacity;     /* bindings of every clip player together */
    uint32_t sharingNodes;        /* a clip of up to this many nodes is shared by its players' groups */
    uint32_t sharingRecords;      /* records a group stages before its events are merged */
    uint64_t clipStorageBytes;    /* bytes every live clip's storage takes together */
    mtwnAllocator allocator;      /* both functions, or neither: the C library's */
    mtwnTaskSystem taskSystem;    /* both functions, or neither: none */
} mtwnContextDef;

/* Makes a context def for a medium host: 1024 targets, 256 players with 64
 * points of linear() for each transition, 16 clips, 256 events, 1024
 * bindings, sharing for clips of up to 128 nodes and 64 records, and 240 KiB
 * of clip storage, the C library's allocator and no task system. Built in
 * the program, so it carries the version of the headers the program
 * includes. Safe from any thread. */
static inline mtwnContextDef mtwnDefaultContextDef(void)
{
    mtwnContextDef def;
    def.cookie = MTWN_CONTEXT_DEF_COOKIE;
    def.abiVersion = MTWN_ABI_VERSION;
    def.targetCapacity = 1024u;
    def.playerCapacity = 256u;
    def.pointsPerTransition = 64u;
    def.clipCapacity = 16u;
    def.eventCapacity = 256u;
    def.bindingCapacity = 1024u;
    def.sharingNodes = 128u;
    def.sharingRecords = 64u;
    def.clipStorageBytes = 240u * 1024u;
    def.allocator.allocate = NULL;
    def.allocator.release = NULL;
    def.allocator.user = NULL;
    def.taskSystem.begin = NULL;
    def.taskSystem.wait = NULL;
    def.taskSystem.user = NULL;
    return def;
}

/* -- Functions ------------------------------------------------------------------ */

/* Makes a context: checks the def and allocates everything the context holds
 * in one block.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument or a def
 * without its cookie; then mtwn_errorVersion for a def stamped by headers of
 * another ABI version than the library's, before anything else in it is read;
 * mtwn_errorInvalid for an allocator or a task system with one function of
 * the two; mtwn_errorLimit for a capacity past MTWN_MAX_COUNT or clip storage
 * past MTWN_MAX_CLIP_STORAGE; mtwn_errorCapacity when the allocator fails or
 * the block's size does not fit. *contextOut is written only on success.
 * Safe from any thread. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnCreateContext(const mtwnContextDef* def, mtwnContext** contextOut);

/* Destroys a context and everything it holds (NULL: nothing). Called from
 * the host's code the context runs (an easing during an update), it changes
 * nothing and counts one misuse, as every function taking the context
 * non-const refuses there. */
MTWN_API void mtwnDestroyContext(mtwnContext* context);

/* Grows a context to a def's capacities, each at least the context's own but
 * the sharing's, which may be any, and takes the def's task system, with the
 * allocator it was made with. Its objects move to one new block, their ids
 * unchanged, and the old block is freed, so the context's address changes:
 * the call writes the new one. On any failure nothing changes.
 * Returns mtwn_success; mtwn_errorInvalid for a null argument, a def without
 * its cookie, a capacity below the context's, another allocator, or a task
 * system with one function of the two; mtwn_errorLimit for a capacity past
 * its maximum; mtwn_errorVersion for a def of another ABI version;
 * mtwn_errorCapacity when the allocator fails or the block's size does not
 * fit; mtwn_errorBusy from the host's code the context runs. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnContext_Grow(mtwnContext** contextInOut, const mtwnContextDef* def);

/* Returns how many calls against the context were refused for an invalid
 * argument, a stale target or clip id, a call the object's state does not
 * allow (mtwn_errorState) or a call back in from the host's code since it
 * was made, and the samples of its updates that met a host easing's NaN. A
 * full capacity, the stale id of a player the context handed out, and a clip
 * a player still holds count none. A player id never handed out, the null
 * id among them, counts. 0 for a null context. */
MTWN_API uint64_t mtwnContext_GetMisuse(const mtwnContext* context);

/* Returns how many clip players' advances a context with a task system ran
 * on the calling thread since it was made; 0 without a task system or a
 * context. */
MTWN_API uint64_t mtwnContext_GetSerialAdvanceCount(const mtwnContext* context);

/* Returns the size of the block the context holds everything in; 0 for a
 * null context. */
MTWN_API uint64_t mtwnContext_GetMemoryBytes(const mtwnContext* context);

/* Turns reduced motion on or off; it is off when a context is made. While it
 * is on, every transition and every running clip's player with a finite end
 * finishes at the next update, its delay skipped and its events at that
 * update's time, unless its def marks it essential; a player with an
 * infinite end plays on. A null context changes nothing; a call back in from
 * the host's code changes nothing and counts one misuse. */
MTWN_API void mtwnContext_EnableReducedMotion(mtwnContext* context, bool enabled);

/* Returns whether reduced motion is on; false for a null context. */
MTWN_API bool mtwnContext_IsReducedMotionEnabled(const mtwnContext* context);

/* Returns how many clips' players the last update left running under
 * reduced motion though not essential; 0 for a null context. */
MTWN_API uint32_t mtwnContext_GetPlayingOnCount(const mtwnContext* context);

/* mtwnTargetId: target.h. */
struct mtwnTargetId;

/* Advances every player to the host's time (nanoseconds on the host's
 * clock), in the order they were made, later ones writing over earlier ones:
 * transitions sample their curves, write their targets and end, committing
 * their end values as their targets' bases. Reports the targets whose value
 * or base changed since the last report, in the order they changed, each
 * once: those changed between updates (mtwnTarget_SetBase, a cancel, a
 * destroyed player) first, then those whose base an ending player committed
 * in this update, as they end, then those whose value alone changed, in the
 * order the update first wrote them; a target both committed and moved is
 * listed once, at its commit. Up to changedCapacity ids go into changedOut
 * (may be NULL for 0), the total into *changedTotalOut (may be NULL); the
 * report is then cleared.
 * Returns mtwn_success; mtwn_errorInvalid for a null context, a null array
 * with a capacity, or a time before the last update's, nothing advanced;
 * mtwn_errorBusy from the host's code the context runs. */
MTWN_NODISCARD MTWN_API mtwnResult mtwnContext_Update(mtwnContext* context, uint64_t timeNs,
                                                      struct mtwnTargetId* changedOut, uint32_t changedCapacity,
                                                      uint32_t* changedTotalOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_CONTEXT_H */
