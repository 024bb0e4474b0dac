/* Harness: maniDracoDecode (the KHR_draco_mesh_compression stream decoder) on
 * raw bytes. A read past the stream trips ASan (libFuzzer's input is exactly
 * sized); a refusal must give an offset inside the stream; an accepted
 * stream must have every face inside its points and every point's value
 * inside its attribute, and decode twice to the same bytes. Seeds: the
 * reference streams of lib/anim/test/data/draco. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/import/draco/draco.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniDracoMesh m, m2;
    size_t off = SIZE_MAX;
    maniDracoStatus st = maniDracoDecode(size ? data : (const uint8_t*)"", size, NULL, &m, &off);
    if (st == maniDracoRefused) {
        if (off > size) abort();
        return 0;
    }
    if (st != maniDracoOk) abort();
    for (uint64_t i = 0; i < 3u * (uint64_t)m.faceCount; i++)
        if (m.faces[i] >= m.pointCount) abort();
    for (uint32_t a = 0; a < m.attributeCount; a++) {
        const maniDracoAttribute* at = &m.attributes[a];
        for (uint32_t p = 0; p < m.pointCount; p++)
            if (at->pointToValue[p] >= at->valueCount) abort();
    }
    if (maniDracoDecode(data, size, NULL, &m2, &off) != maniDracoOk) abort();
    if (m2.pointCount != m.pointCount || m2.faceCount != m.faceCount || m2.attributeCount != m.attributeCount) abort();
    if (memcmp(m.faces, m2.faces, sizeof(uint32_t) * 3u * (size_t)m.faceCount) != 0) abort();
    for (uint32_t a = 0; a < m.attributeCount; a++) {
        const maniDracoAttribute* x = &m.attributes[a];
        const maniDracoAttribute* y = &m2.attributes[a];
        if (memcmp(x->values, y->values, (size_t)x->valueCount * x->elementSize) != 0) abort();
    }
    maniDracoRelease(&m);
    maniDracoRelease(&m2);
    return 0;
}
