/* Harness: maniOpenClip on compressed clips (docs/formats.md, "Compressed
 * clip"), seeded with compressed files. As clip_open_fuzzer: on a successful
 * open every reader runs (sampling, SampleBones, both cursors, float tracks,
 * root motion) at several times, then again after bytes changed after the
 * open; nothing may read outside the bytes. Each input is opened as given,
 * with its identity stamped, and with the compressed format version and the
 * identity stamped, so mutations reach the compressed open's own checks:
 * format 11's (what maniCompressClip writes, seeds f11-*) for an input whose
 * version field says 11, else format 6's. */
#include "fuzz/clip_common.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const uint32_t version = size >= 12 && data[8] == mcore_formatClipCompressed2 && data[9] == 0 && data[10] == 0 &&
                                     data[11] == 0
                                 ? (uint32_t)mcore_formatClipCompressed2
                                 : (uint32_t)mcore_formatClipCompressed1;
    maul_FuzzOpenClip(data, size, version);
    return 0;
}
