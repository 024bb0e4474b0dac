/* Maul Tween: base.h
 *
 * The base of the Maul Tween API: the library version, the export and
 * attribute macros, the result codes every fallible function returns, the
 * allocator a context takes, and the four-channel values and their kinds that
 * targets and tracks hold. Conventions: docs/maul-conventions.md.
 */
#ifndef MAUL_TWEEN_BASE_H
#define MAUL_TWEEN_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* -- Version ---------------------------------------------------------------- */

/* The version of the headers a program is compiled with; mtwnGetVersion gives
 * the linked library's. */
#define MTWN_VERSION_MAJOR 0
#define MTWN_VERSION_MINOR 1
#define MTWN_VERSION_PATCH 0

/* The version as one integer: major * 10000 + minor * 100 + patch. */
#define MTWN_VERSION (MTWN_VERSION_MAJOR * 10000 + MTWN_VERSION_MINOR * 100 + MTWN_VERSION_PATCH)

/* The ABI version defs are stamped with: (major << 16) | minor. A context
 * refuses a def stamped with another (mtwn_errorVersion). */
#define MTWN_ABI_VERSION ((uint32_t)((MTWN_VERSION_MAJOR << 16) | MTWN_VERSION_MINOR))

/* A library version, as mtwnGetVersion returns it. */
typedef struct mtwnVersion {
    uint32_t major; /* changes that break source or ABI compatibility */
    uint32_t minor; /* additions; part of the ABI version */
    uint32_t patch; /* fixes that change no interface */
} mtwnVersion;

/* -- Attributes -------------------------------------------------------------- */

/* MTWN_API marks exported functions (default visibility). */
#if defined(_WIN32)
#define MTWN_API
#elif defined(__GNUC__) || defined(__clang__)
#define MTWN_API __attribute__((visibility("default")))
#else
#define MTWN_API
#endif

/* MTWN_NODISCARD marks functions whose result must be checked. */
#if defined(__GNUC__) || defined(__clang__)
#define MTWN_NODISCARD __attribute__((warn_unused_result))
#else
#define MTWN_NODISCARD
#endif

/* -- Result codes ------------------------------------------------------------ */

/* What a fallible function returns. Frozen values: never renumbered or reused. */
typedef enum mtwnResult {
    mtwn_success = 0,       /* the call did what it says */
    mtwn_errorInvalid = 1,  /* an argument the function refuses */
    mtwn_errorStale = 2,    /* an id whose object is gone (its generation no longer matches) */
    mtwn_errorState = 3,    /* a call the object's state does not allow (a sealed clip, ...) */
    mtwn_errorCapacity = 4, /* the context or caller memory holds no more, or the allocator failed */
    mtwn_errorLimit = 5,    /* an input past one of the library's documented bounds (MTWN_MAX_...) */
    mtwn_errorBusy = 6,     /* a call back into a context from the host code it is running */
    mtwn_errorVersion = 7   /* a def stamped by headers of another ABI version */
} mtwnResult;

/* -- Allocator ------------------------------------------------------------------ */

/* The host's allocator a context allocates through (once at creation, again
 * only when the host grows it). Both functions or neither: a def with one of
 * the two is refused. allocate returns memory aligned to at least alignment
 * (a power of two), or NULL on failure; release gets back the pointer and the
 * size it was allocated with. user is passed to both. */
typedef struct mtwnAllocator {
    void* (*allocate)(void* user, size_t size, size_t alignment);
    void (*release)(void* user, void* memory, size_t size);
    void* user;
} mtwnAllocator;

/* -- Values -------------------------------------------------------------------- */

/* A value of up to four channels; kinds with fewer use the first channels and
 * store the rest as 0. Colours are (r, g, b, alpha) or their space's channels,
 * rotations quaternions (x, y, z, w). */
typedef struct mtwnVec4 {
    float x, y, z, w;
} mtwnVec4;

/* The kind of value a target holds and a track animates. Frozen values. */
typedef enum mtwnValueKind {
    mtwn_valueScalar = 0,   /* one number */
    mtwn_valueVec2 = 1,     /* two numbers */
    mtwn_valueVec3 = 2,     /* three numbers */
    mtwn_valueVec4 = 3,     /* four numbers */
    mtwn_valueInteger = 4,  /* one number, the path rounded to nearest, ties away from zero */
    mtwn_valueDiscrete = 5, /* one number that steps (a visibility, an index) */
    mtwn_valueAngle = 6,    /* one angle in radians, unwrapped by its method's turns */
    mtwn_valueColor = 7,    /* a colour with alpha, mixed in a colour space */
    mtwn_valueRotation = 8, /* a unit quaternion (x, y, z, w) */
    mtwn_valueScale = 9     /* up to three positive factors, mixed in ratio (over logarithms) */
} mtwnValueKind;

/* -- Functions ------------------------------------------------------------------ */

/* Returns the version of the library that was linked, which may differ from
 * the MTWN_VERSION macros a program was compiled with. Safe from any thread. */
MTWN_API mtwnVersion mtwnGetVersion(void);

/* Returns the name of a result code, for diagnostics: a static NUL-terminated
 * string such as "mtwn_errorCapacity", or "mtwn_unknownResult" for a value
 * that is not a result code. Safe from any thread. */
MTWN_API const char* mtwnGetResultName(mtwnResult result);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_TWEEN_BASE_H */
