/* The glTF builders' plumbing (gltf_build_internal.h): scratch memory from
 * the builder, results, the entry checks. */
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/gltf/gltf_build_internal.h"

void mani_GbScratchInit(mani_GbScratch* s, maniBuilder* builder) {
    memset(s, 0, sizeof *s);
    s->builder = builder;
}

void* mani_GbAlloc(mani_GbScratch* s, size_t size) {
    if (size == 0 || s->count >= MANI_GB_SCRATCH_BLOCKS) return NULL;
    void* p = mani_BuilderAlloc(s->builder, size, 16);
    if (p == NULL) return NULL;
    s->block[s->count] = p;
    s->size[s->count] = size;
    s->count++;
    return p;
}

void mani_GbScratchFree(mani_GbScratch* s) {
    while (s->count > 0) {
        s->count--;
        mani_BuilderFree(s->builder, s->block[s->count], s->size[s->count]);
    }
}

maniImportResult mani_GbImportResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset) {
    maniImportResult r;
    r.result = result;
    r.reason = reason;
    r.item = item;
    r.offset = offset;
    return r;
}

maniImportResult mani_GbFromBuild(maniBuildResult r) {
    if (r.result == mani_success || r.result == mani_errorCapacity || r.result == mani_errorBusy)
        return mani_GbImportResult(r.result, maniImportReasonNone, 0, 0);
    return mani_GbImportResult(mani_errorFormat, maniImportReasonBuild, r.reason, 0);
}

maniImportResult mani_GbMisuse(maniBuilder* b) {
    b->misuse++;
    return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
}

maniImportResult mani_GbEnter(maniBuilder* b, const maniGltf* g, const maniGltfOptions* options,
                              mani_GbBasis* basis) {
    if (b == NULL) return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    maniResult entered = mani_BuilderEnter(b);
    if (entered != mani_success) return mani_GbImportResult(entered, maniImportReasonNone, 0, 0);
    if (g == NULL || options == NULL) return mani_GbMisuse(b);
    maniResult o = mani_GbCheckOptions(options, basis);
    if (o != mani_success) {
        b->misuse++;
        return mani_GbImportResult(o, maniImportReasonNone, 0, 0);
    }
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}
