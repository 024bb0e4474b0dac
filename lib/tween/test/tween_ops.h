/* A seeded or fuzzed sequence of operations on one tween context (create,
 * destroy, play, seek, update, grow, read, ...), checking invariants after
 * every step. Shared by ops_test (seeded) and fuzz/tween_ops (bytes). */
#ifndef MAUL_TWEEN_TEST_TWEEN_OPS_H
#define MAUL_TWEEN_TEST_TWEEN_OPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a run went. */
typedef struct mtwnOpsResult {
    int failedLine;    /* 0, or the driver's line of the invariant that broke */
    uint32_t steps;    /* operations run */
    uint64_t hash;     /* of every update's target values, changed lists and events */
} mtwnOpsResult;

/* Runs the operations the bytes describe; taskSystem 1 runs the context with
 * a serial task system (which must not change any result). */
mtwnOpsResult mtwnOps_Run(const uint8_t* bytes, size_t size, int taskSystem);

/* As mtwnOps_Run; shapes 1 also takes the context's sharing (staging) from
 * the bytes, down to none, and makes clips' timelines alternate more often
 * (nested alternating timelines under small staging: issue 19). The
 * conformance suite runs shapes 0, whose byte use is mtwnOps_Run's. */
mtwnOpsResult mtwnOps_RunShaped(const uint8_t* bytes, size_t size, int taskSystem, int shapes);

#ifdef __cplusplus
}
#endif

#endif
