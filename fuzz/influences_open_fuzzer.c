/* Harness: maniOpenInfluences. On a successful open, exercises every
 * accessor, then a palette of the recorded joint count (seeded matrices),
 * its dual quaternion and row conversions, and every skinning job over all
 * the vertices (positions, normals, tangents, the output in place for one
 * stream); then changes bytes after the open (as the reference allows a
 * host's memory to be damaged) and runs it all again: nothing may read
 * outside the bytes or the palette. The input sits in a block of exactly
 * its size, so an overread trips ASan. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "lib/anim/test/fixtures/skinning_fixtures.h"
#include "maul/anim/skinning.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_Exercise(const maniInfluences* inf) {
    const uint32_t n = maniInfluences_GetVertexCount(inf);
    const uint32_t per = maniInfluences_GetPerVertex(inf);
    const uint32_t joints = inf->jointCount;
    for (uint32_t v = 0; v <= n && v < 64; ++v) {
        for (uint32_t k = 0; k <= per; ++k) {
            float w;
            const uint32_t j = maniInfluences_GetInfluence(inf, v, k, &w);
            if (j != 0 && j >= joints) abort();
        }
        (void)maniInfluences_GetDualQuaternionWeight(inf, v);
        maniVec3 c;
        (void)maniInfluences_GetCenter(inf, v, &c);
    }
    (void)maniInfluences_IsSkinFit(inf, NULL);
    if (n == 0 || n > 4096 || joints == 0) return; /* keep an input fast */
    maniAffine* palette = (maniAffine*)malloc((size_t)joints * sizeof(maniAffine));
    float* dq = (float*)malloc((size_t)joints * MANI_DUAL_QUATERNION_FLOATS * sizeof(float));
    float* rows = (float*)malloc((size_t)joints * MANI_PALETTE_ROW_FLOATS * sizeof(float));
    float* pos = (float*)malloc((size_t)n * 12);
    float* nrm = (float*)malloc((size_t)n * 12);
    float* tan = (float*)malloc((size_t)n * 16);
    float* out = (float*)malloc((size_t)n * 16);
    if (palette && dq && rows && pos && nrm && tan && out) {
        maniFixtureRandomPalette(joints, joints, palette);
        if (maniConvertPaletteToDualQuaternions(palette, joints, dq) != mani_success) abort();
        if (maniConvertPaletteToRows(palette, joints, rows) != mani_success) abort();
        for (uint32_t v = 0; v < n; ++v) {
            pos[3 * v] = (float)v, pos[3 * v + 1] = 1.0f, pos[3 * v + 2] = -2.0f;
            nrm[3 * v] = 0.0f, nrm[3 * v + 1] = 1.0f, nrm[3 * v + 2] = 0.0f;
            tan[4 * v] = 1.0f, tan[4 * v + 1] = 0.0f, tan[4 * v + 2] = 0.0f, tan[4 * v + 3] = -1.0f;
        }
        maniSkinStream streams[3] = {{pos, pos, 12, 12, maniSkinStreamPosition, 0},
                                     {nrm, out, 12, 12, maniSkinStreamNormal, 0},
                                     {tan, tan, 16, 16, maniSkinStreamTangent, 0}};
        maniSkinJob job = {inf, palette, dq, joints, 0, n, 3, streams};
        const maniResult linear = maniSkinLinear(&job);
        if (linear != mani_success) abort();
        if (maniSkinDualQuaternion(&job) != mani_success) abort();
        if (maniSkinBlended(&job) != mani_success) abort();
        const maniResult centers = maniSkinCenters(&job);
        if (centers != (inf->centers != 0 ? mani_success : mani_errorInvalid)) abort();
        job.firstVertex = n / 2;
        job.vertexCount = n - n / 2;
        if (maniSkinLinear(&job) != mani_success) abort();
        job.vertexCount++;
        if (maniSkinLinear(&job) != mani_errorInvalid) abort();
    }
    free(palette);
    free(dq);
    free(rows);
    free(pos);
    free(nrm);
    free(tan);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maniInfluences inf;
    maniFileResult r = maniOpenInfluences(bytes, size, &inf);
    if (r.result == mani_errorFormat && r.offset > size) abort(); /* an offset outside the file */
    if (r.result == mani_success) {
        maul_Exercise(&inf);
        /* Bytes changed after the open: every 7th byte, then all of them. */
        for (size_t i = 0; i < size; i += 7) bytes[i] ^= 0x5A;
        maul_Exercise(&inf);
        memset(bytes, 0xFF, size);
        maul_Exercise(&inf);
    }
    free(bytes);
    return 0;
}
