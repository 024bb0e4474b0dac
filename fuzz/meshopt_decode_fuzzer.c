/* Harness: maniMeshoptDecode (the glTF importer's EXT/KHR_meshopt_compression
 * stream decoder). The first 5 bytes choose the call: byte 0 the mode (mod 3),
 * byte 1 the filter (mod 5), byte 2 bit 0 the extension (EXT, KHR) and bits
 * 1..6 the stride (ATTRIBUTES: 4 * (code + 1); TRIANGLES and INDICES: 2 or 4
 * by bit 1), bytes 3..4 the count (little-endian, low 12 bits; TRIANGLES
 * rounded down to a multiple of 3); the rest is the stream. The output block
 * is exactly count * stride bytes, so a write past it trips ASan, as does a
 * read past the stream (libFuzzer's input is exactly sized). A refusal must
 * leave the output as it was; an accepted stream is decoded twice to the
 * same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/import/gltf/meshopt.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 5) return 0;
    maniMeshoptMode mode = (maniMeshoptMode)(data[0] % 3);
    maniMeshoptFilter filter = (maniMeshoptFilter)(data[1] % 5);
    maniMeshoptExtension ext = (maniMeshoptExtension)(data[2] & 1);
    unsigned code = (data[2] >> 1) & 63u;
    size_t stride = mode == maniMeshoptAttributes ? 4u * (code + 1u) : ((code & 1u) ? 4u : 2u);
    size_t count = ((size_t)data[3] | ((size_t)data[4] << 8)) & 0xfffu;
    if (mode == maniMeshoptTriangles) count -= count % 3;
    const uint8_t* src = data + 5;
    size_t srcSize = size - 5;

    size_t bytes = count * stride;
    uint8_t* out = (uint8_t*)malloc(bytes ? bytes : 1);
    uint8_t* again = (uint8_t*)malloc(bytes ? bytes : 1);
    if (out == NULL || again == NULL) abort();
    memset(out, 0xA5, bytes);
    size_t err = SIZE_MAX;
    maniResult r = maniMeshoptDecode(out, count, stride, src, srcSize, mode, filter, ext, &err);
    if (r == mani_errorInvalid) {
        /* a combination the specifications forbid: the codec alone then */
        filter = maniMeshoptFilterNone;
        r = maniMeshoptDecode(out, count, stride, src, srcSize, mode, filter, ext, &err);
        if (r == mani_errorInvalid) abort();
    }
    if (r == mani_errorFormat) {
        if (err > srcSize) abort();
        for (size_t i = 0; i < bytes; ++i) {
            if (out[i] != 0xA5) abort(); /* dst unchanged on refusal */
        }
    } else if (r == mani_success) {
        memset(again, 0x5A, bytes);
        if (maniMeshoptDecode(again, count, stride, src, srcSize, mode, filter, ext, NULL) != mani_success) abort();
        if (memcmp(out, again, bytes) != 0) abort(); /* deterministic, nothing left unwritten */
    } else {
        abort();
    }
    free(again);
    free(out);
    return 0;
}
