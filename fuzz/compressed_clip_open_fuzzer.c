/* Harness: maniOpenClip on compressed clips (docs/formats.md, "Compressed
 * clip"), seeded with compressed files. As clip_open_fuzzer: on a successful
 * open every reader runs (sampling, SampleBones, both cursors, float tracks,
 * root motion) at several times, then again after bytes changed after the
 * open; nothing may read outside the bytes. Each input is opened as given,
 * with its identity stamped, and with the compressed format version and the
 * identity stamped, so mutations reach the compressed open's own checks. */
#include "fuzz/clip_common.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maul_FuzzOpenClip(data, size, mcore_formatClipCompressed1);
    return 0;
}
