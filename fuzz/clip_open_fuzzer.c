/* Harness: maniOpenClip. On a successful open, exercises every reader (then
 * the view bound to a chain skeleton of its bone count, so sampling, cursors
 * and root motion run whatever the input) at several times; then changes
 * bytes after the open and exercises it all again: nothing may read outside
 * the bytes, which sit in a block of exactly their size. Each input is opened
 * twice: as given, and with its identity field stamped with the identity of
 * its bytes, so mutations reach the checks behind the identity. */
#include "fuzz/clip_common.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maul_FuzzOpenClip(data, size, 0);
    return 0;
}
