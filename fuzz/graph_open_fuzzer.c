/* Harness: maniOpenGraph. On a successful open, exercises every accessor
 * past every count; then changes bytes after the open (as a host's memory
 * may be damaged) and exercises it all again: nothing may read outside the
 * bytes. The input sits in a block of exactly its size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "maul/anim/clip.h" /* MANI_NO_TRACK */
#include "maul/anim/graph.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_CheckSpan(const char* p, size_t length, const uint8_t* bytes, size_t size) {
    if (p != NULL && ((const uint8_t*)p < bytes || (const uint8_t*)p + length > bytes + size)) abort();
}

static void maul_ExerciseGraph(const maniGraph* g, const uint8_t* bytes, size_t size) {
    (void)maniGraph_GetIdentity(g);
    (void)maniGraph_GetSkeletonIdentity(g);
    (void)maniGraph_GetMirrorMapIdentity(g);
    const uint32_t nodes = maniGraph_GetNodeCount(g), params = maniGraph_GetParameterCount(g);
    const uint32_t clips = maniGraph_GetClipCount(g);
    if (maniGraph_GetOutputNode(g) != nodes - 1) abort();
    for (uint32_t p = 0; p <= params; ++p) {
        size_t length = 0;
        const char* name = maniGraph_GetParameterName(g, p, &length);
        maul_CheckSpan(name, length, bytes, size);
        if (name != NULL) (void)maniGraph_FindParameter(g, name, length);
        maniGraphParameterType t = maniGraphParameterFloat;
        const maniResult r = maniGraph_GetParameterType(g, p, &t);
        if ((r == mani_success) != (p < params) || (uint32_t)t >= MANI_GRAPH_PARAMETER_TYPE_COUNT) abort();
    }
    for (uint32_t c = 0; c <= clips; ++c) {
        size_t length = 0;
        maul_CheckSpan(maniGraph_GetClipName(g, c, &length), length, bytes, size);
        (void)maniGraph_GetClipIdentity(g, c);
    }
    /* The asset slots: names inside the bytes, a clip's map slot a map slot
     * or none. */
    const uint32_t databases = maniGraph_GetDatabaseCount(g), models = maniGraph_GetModelCount(g);
    const uint32_t springs = maniGraph_GetSpringSetCount(g), maps = maniGraph_GetRetargetMapCount(g);
    for (uint32_t d = 0; d <= databases; ++d) {
        size_t length = 0;
        maul_CheckSpan(maniGraph_GetDatabaseName(g, d, &length), length, bytes, size);
        if (d == databases && maniGraph_GetDatabaseIdentity(g, d) != 0) abort();
    }
    for (uint32_t m = 0; m <= models; ++m) {
        size_t length = 0;
        maul_CheckSpan(maniGraph_GetModelName(g, m, &length), length, bytes, size);
        if (m == models && maniGraph_GetModelIdentity(g, m) != 0) abort();
    }
    for (uint32_t k = 0; k <= springs; ++k) {
        size_t length = 0;
        maul_CheckSpan(maniGraph_GetSpringSetName(g, k, &length), length, bytes, size);
        if (k == springs && maniGraph_GetSpringSetIdentity(g, k) != 0) abort();
    }
    for (uint32_t m = 0; m <= maps; ++m) {
        const uint64_t identity = maniGraph_GetRetargetMapIdentity(g, m);
        const uint64_t source = maniGraph_GetRetargetMapSourceIdentity(g, m);
        if (m == maps && (identity != 0 || source != 0)) abort();
    }
    for (uint32_t c = 0; c <= clips; ++c) {
        const uint32_t map = maniGraph_GetClipRetargetMap(g, c);
        if (map != MANI_NO_TRACK && (map >= maps || c == clips)) abort();
    }
    for (uint32_t n = 0; n <= nodes; ++n) {
        (void)maniGraph_GetNodeKind(g, n);
        (void)maniGraph_GetNodeSourcePlace(g, n);
        const uint32_t count = maniGraph_GetNodeInputCount(g, n);
        for (uint32_t i = 0; i <= count; ++i) {
            const uint32_t in = maniGraph_GetNodeInput(g, n, i);
            if (in != MANI_GRAPH_NONE && in >= n) abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maniGraph g;
    if (maniOpenGraph(bytes, size, &g).result == mani_success) {
        maul_ExerciseGraph(&g, bytes, size);
        for (size_t i = 64; i < size; i += 1 + size / 32) bytes[i] ^= 0xA5;
        maul_ExerciseGraph(&g, bytes, size);
    }
    free(bytes);
    return 0;
}
