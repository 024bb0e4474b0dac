/* Harness: the tween operation sequence (lib/tween/test/tween_ops.c) driven
 * by the fuzzer's bytes: every step's invariants, and the same bytes with a
 * task system giving the same hash. A broken invariant aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/tween/test/tween_ops.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    mtwnOpsResult a = mtwnOps_Run(data, size, 0);
    mtwnOpsResult b = mtwnOps_Run(data, size, 1);
    if (a.failedLine != 0 || b.failedLine != 0 || a.hash != b.hash) {
        fprintf(stderr, "tween_ops: invariant at line %d / %d after %u steps, hashes %llx %llx\n", a.failedLine,
                b.failedLine, a.steps, (unsigned long long)a.hash, (unsigned long long)b.hash);
        abort();
    }
    return 0;
}
