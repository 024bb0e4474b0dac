/* Harness: maniOpenMorphTargets. On a successful open, exercises every
 * accessor, target weights from channel weights, and a morph job over
 * streams of every attribute the file moves (plus one it does not), whole
 * and in two ranges; then changes bytes after the open (as the reference
 * allows a host's memory to be damaged) and exercises it all again: nothing
 * may read or write outside the bytes and the arrays. Each input is opened
 * twice: as it is, and with its identity recomputed (so the fuzzer reaches
 * every check of the sections' contents, past the container's hash). The
 * input sits in a block of exactly its size, so an overread trips ASan. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/morph.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* The most vertices a job runs over (a file may declare many more). */
#define MAUL_FUZZ_MORPH_VERTICES 4096u

static void maul_Exercise(const maniMorphTargets* m) {
    const uint32_t channels = maniMorphTargets_GetChannelCount(m), targets = maniMorphTargets_GetTargetCount(m);
    const uint32_t attributes = maniMorphTargets_GetAttributeCount(m), vertices = maniMorphTargets_GetVertexCount(m);
    (void)maniMorphTargets_FindChannel(m, "shape-1", 7);
    (void)maniMorphTargets_FindTarget(m, "shape-1/1", 9);
    for (uint32_t c = 0; c <= channels; ++c) {
        size_t len = 0;
        const char* name = maniMorphTargets_GetChannelName(m, c, &len);
        if (name != NULL && len > 0 && (name[0] == 0 && name[len - 1] == 1)) abort(); /* read every end */
        uint32_t first = 0, n = maniMorphTargets_GetChannelTargets(m, c, &first);
        if (n > targets || first > targets - n) abort();
    }
    for (uint32_t t = 0; t <= targets; ++t) {
        size_t len = 0;
        const char* name = maniMorphTargets_GetTargetName(m, t, &len);
        if (name != NULL && len > 0 && (name[0] == 0 && name[len - 1] == 1)) abort();
        (void)maniMorphTargets_GetTargetFullWeight(m, t);
    }
    if (targets == 0 || channels == 0) return;
    float* cw = (float*)malloc((size_t)channels * sizeof(float));
    float* tw = (float*)malloc((size_t)targets * sizeof(float));
    const uint32_t n = vertices < MAUL_FUZZ_MORPH_VERTICES ? vertices : MAUL_FUZZ_MORPH_VERTICES;
    float* streamData = (float*)calloc((size_t)(attributes + 1) * 2 * n * 4 + 1, sizeof(float));
    if (cw != NULL && tw != NULL && streamData != NULL) {
        for (uint32_t c = 0; c < channels; ++c) cw[c] = (float)(c % 7) * 0.375f - 1.0f;
        uint32_t count = 0;
        maniResult r = maniMorphTargets_ComputeTargetWeights(m, cw, tw, targets, &count);
        if (r != mani_success || count != targets) abort();
        for (uint32_t t = 0; t < targets; ++t)
            if (!isfinite(tw[t])) tw[t] = 0.5f;
        maniMorphStream streams[MANI_MAX_MORPH_ATTRIBUTES + 1];
        uint32_t s = 0;
        for (uint32_t a = 0; a <= attributes; ++a) {
            uint32_t set = 0;
            maniMorphSemantic semantic = a < attributes ? maniMorphTargets_GetAttribute(m, a, &set) : maniMorphColor;
            if (a == attributes) set = 7;
            if (semantic == maniMorphSemanticNone) continue;
            const uint32_t comps = semantic == maniMorphTexCoord ? 2 : semantic == maniMorphColor ? 4 : 3;
            float* in = streamData + (size_t)s * 2 * n * 4;
            float* out = in + (size_t)n * 4;
            for (uint32_t i = 0; i < n * 4; ++i) in[i] = (float)(i % 5) * 0.25f - 0.5f;
            maniMorphStream st = {semantic, set, comps, 16, 16, in, out};
            streams[s++] = st;
        }
        maniMorphJob job = {m, tw, streams, s, 0, n};
        if (maniApplyMorphTargets(&job) != mani_success) abort();
        job.vertexBegin = n / 3;
        if (maniApplyMorphTargets(&job) != mani_success) abort();
        job.vertexEnd = n / 3;
        job.vertexBegin = 0;
        if (maniApplyMorphTargets(&job) != mani_success) abort();
    }
    free(cw);
    free(tw);
    free(streamData);
}

static void maul_OpenAndExercise(const uint8_t* data, size_t size, int reidentify) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return;
    if (reidentify) {
        const uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindMorphTargets, bytes + 64, size - 64);
        for (int i = 0; i < 8; ++i) bytes[32 + i] = (uint8_t)(id >> (8 * i));
    }
    maniMorphTargets m;
    maniFileResult r = maniOpenMorphTargets(bytes, size, &m);
    if (r.result == mani_errorFormat && r.offset > size) abort(); /* an offset outside the file */
    if (r.result == mani_success) {
        maul_Exercise(&m);
        /* Bytes changed after the open: every 7th byte, then all of them. */
        for (size_t i = 64; i < size; i += 7) bytes[i] ^= 0x5A;
        maul_Exercise(&m);
        memset(bytes, 0xFF, size);
        maul_Exercise(&m);
    }
    free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maul_OpenAndExercise(data, size, 0);
    if (size >= 64) maul_OpenAndExercise(data, size, 1);
    return 0;
}
