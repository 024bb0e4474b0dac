/* A program linking only the CPU-check target (//lib/anim:cpu): the machine
 * code cpu_object_test.sh inspects. */
#include <stdio.h>

#include "maul/anim/base.h"

int main(void) {
    const char* backend = NULL;
    int ok = maniCheckCpu(&backend);
    printf("%s %s %d\n", backend, maniGetSimdBackend(), (int)maniIsCpuBackendSupported());
    return ok ? 0 : 1;
}
