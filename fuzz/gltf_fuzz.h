/* The glTF harnesses' shared steps (gltf_open_fuzzer.c, gltf_build_fuzzer.c):
 * the open in a fresh builder and the end of a run. */
#ifndef MAUL_FUZZ_GLTF_FUZZ_H
#define MAUL_FUZZ_GLTF_FUZZ_H

#include <stdint.h>
#include <stdlib.h>

#include "maul/anim/import.h"

/* Opens the input in a new builder (*builderOut); returns the document, or
 * NULL when refused. Aborts on a result the reference does not list for the
 * open, or a refusal that still wrote a document. */
static inline maniGltf* maniFuzzOpenGltf(const uint8_t* data, size_t size, maniBuilder** builderOut) {
    maniBuilderDef def = maniDefaultBuilderDef();
    if (maniCreateBuilder(&def, builderOut) != mani_success) abort();
    maniGltf* g = NULL;
    maniImportResult r = maniOpenGltf(*builderOut, data, size, &g);
    if (r.result == mani_success) return g;
    if ((r.result != mani_errorFormat && r.result != mani_errorCapacity) || g != NULL) abort();
    return NULL;
}

/* Closes the document (when not NULL), checks the builder counted no
 * misuse, destroys it. */
static inline void maniFuzzEndGltf(maniBuilder* builder, maniGltf* g) {
    if (g != NULL) maniCloseGltf(g);
    if (maniBuilder_GetMisuse(builder) != 0) abort();
    maniDestroyBuilder(builder);
}

#endif
