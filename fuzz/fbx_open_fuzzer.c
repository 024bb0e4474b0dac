/* Harness: maniOpenFbx (binary or ASCII bytes), then the document's queries
 * (version, settings) and every record reader of fbx_internal.h on what
 * opened: each property converted, each array decoded (deflated ones through
 * zlib, their size bounded by the header). The builder's allocator is the C
 * library's; ASan finds any read outside the input, any leak after the
 * close. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "maul/anim/import.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void Exercise(maniFbx* f) {
    if (maniFbx_GetVersion(f) < 3000 || maniFbx_GetVersion(f) > 7700) abort();
    maniFbxSettings s;
    if (maniFbx_ReadSettings(f, &s) != mani_success) abort();
    if (s.up > maniAxisNegativeZ || s.front > maniAxisNegativeZ || s.right > maniAxisNegativeZ) abort();
    if (!(s.unitMetres > 0.0f) || !(s.frameRate > 0.0f)) abort();
    for (uint32_t i = 0; i < f->nodeCount; i++) {
        const mani_FbxNode* n = &f->nodes[i];
        if (n->nameOffset + n->nameLength > f->size) abort();
        for (uint32_t k = 0; k < n->propCount; k++) {
            const mani_FbxProp* p = mani_FbxGetProp(f, i, k);
            if (p == NULL || p->offset + p->length > f->size) abort();
            double d;
            int64_t v;
            uint32_t length;
            (void)mani_FbxPropDouble(f, p, &d);
            (void)mani_FbxPropInt(f, p, &v);
            const char* text = mani_FbxPropString(f, p, &length);
            /* Any byte may appear in a binary string; what matters is that it lies in the file. */
            if (text != NULL && (text < (const char*)f->bytes || (size_t)(text - (const char*)f->bytes) + length > f->size)) abort();
        }
        uint32_t count = mani_FbxArrayCount(f, i);
        if (count > 0 && count <= (1u << 20)) {
            double* out = (double*)malloc((size_t)count * sizeof(double));
            if (out == NULL) abort();
            maniImportResult r = mani_FbxReadArray(f, i, out, count);
            if (r.result != mani_success && r.result != mani_errorFormat) abort();
            free(out);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 0;
    maniFbx* f = NULL;
    maniImportResult r = maniOpenFbx(b, data, size, &f);
    if (r.result == mani_success) {
        Exercise(f);
        maniCloseFbx(f);
    } else if (r.result != mani_errorFormat || r.offset > size) {
        abort();
    }
    maniDestroyBuilder(b);
    return 0;
}
