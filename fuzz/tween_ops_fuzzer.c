/* Harness: the tween operation sequence (lib/tween/test/tween_ops.c) driven
 * by the fuzzer's bytes: every step's invariants, and the same bytes with a
 * task system giving the same hash, with or without the shapes
 * (mtwnOps_RunShaped). A broken invariant aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/tween/test/tween_ops.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    /* The first byte's low bit picks the shapes (issue 19: nested alternating
     * timelines, small staging) for the rest. */
    int shapes = size > 0u && (data[0] & 1u);
    mtwnOpsResult a = mtwnOps_RunShaped(data + (size > 0u), size - (size > 0u), 0, shapes);
    mtwnOpsResult b = mtwnOps_RunShaped(data + (size > 0u), size - (size > 0u), 1, shapes);
    if (a.failedLine != 0 || b.failedLine != 0 || a.hash != b.hash) {
        fprintf(stderr, "tween_ops: invariant at line %d / %d after %u steps, hashes %llx %llx\n", a.failedLine,
                b.failedLine, a.steps, (unsigned long long)a.hash, (unsigned long long)b.hash);
        abort();
    }
    return 0;
}
