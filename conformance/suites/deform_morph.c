/* Suite "deform", its morph part: morph.h over seeded morph targets (sparse,
 * dense and mixed; 1 to 3000 vertices; channels of one target and of
 * in-betweens on both sides of zero) and seeded meshes: the built file's
 * bytes, target weights from seeded channel weights (extrapolated past the
 * ends included), the job's five streams whole and over ranges, a sweep of
 * one in-between channel's weights, and refused jobs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/morph_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/morph.h"

#include "conformance/suites/deform.h"

static void mconf_MorphAddMesh(mconf_Bytes* b, const maniFixtureMorphMesh* m) {
    const size_t n = m->vertexCount;
    const float* arrays[5] = {m->position, m->normal, m->tangent, m->texCoord, m->color};
    const size_t per[5] = {3, 3, 4, 2, 4};
    for (int s = 0; s < 5; ++s)
        for (size_t i = 0; i < n * per[s]; ++i) mconf_BytesF32(b, arrays[s][i]);
}

static void mconf_MorphCase(mconf_Run* run, mconf_Bytes* b, const char* kindName, maniFixtureMorphKind kind,
                            uint32_t vertices, uint32_t channels, uint64_t seed) {
    char prefix[64], name[128];
    snprintf(prefix, sizeof prefix, "morph-%s-%u", kindName, vertices);
    maniFixtureMorph fx;
    maniFixtureMorphMesh in, out;
    if (!maniFixtureMakeMorph(&fx, seed, vertices, channels, kind)) {
        snprintf(name, sizeof name, "%s-alloc-failed", prefix);
        mconf_Record(run, name, 0);
        return;
    }
    size_t size = 0;
    void* file = maniFixtureBuildMorph(&fx.source, &size);
    maniMorphTargets m;
    if (file == NULL || maniOpenMorphTargets(file, size, &m).result != mani_success ||
        !maniFixtureMakeMorphMesh(&in, seed + 1, vertices) || !maniFixtureMakeMorphMesh(&out, seed + 1, vertices)) {
        snprintf(name, sizeof name, "%s-build-failed", prefix);
        mconf_Record(run, name, 0);
        free(file);
        maniFixtureFreeMorph(&fx);
        return;
    }
    mconf_BytesReset(b);
    mconf_BytesAdd(b, file, size);
    snprintf(name, sizeof name, "%s-file", prefix);
    mconf_RecordBytes(run, name, b);

    /* Channel weights in [-1.5, 2]: in-betweens walked and extrapolated. */
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed + 3);
    const uint32_t T = maniMorphTargets_GetTargetCount(&m);
    float* cw = (float*)malloc(channels * sizeof(float));
    float* tw = (float*)malloc(T * sizeof(float));
    if (cw == NULL || tw == NULL) {
        snprintf(name, sizeof name, "%s-alloc-failed", prefix);
        mconf_Record(run, name, 0);
    } else {
        for (uint32_t c = 0; c < channels; ++c)
            cw[c] = mcore_RngBelow(&rng, 6) == 0 ? 0.0f : mcore_RngFloatRange(&rng, -1.5f, 2.0f);
        uint32_t count = 0;
        maniResult r = maniMorphTargets_ComputeTargetWeights(&m, cw, tw, T, &count);
        mconf_BytesReset(b);
        mconf_BytesU32(b, (uint32_t)r);
        mconf_BytesU32(b, count);
        for (uint32_t t = 0; r == mani_success && t < T; ++t) mconf_BytesF32(b, tw[t]);
        snprintf(name, sizeof name, "%s-weights", prefix);
        mconf_RecordBytes(run, name, b);

        /* The job over the whole mesh. */
        maniMorphStream streams[5];
        maniFixtureMorphStreams(&in, &out, streams);
        maniMorphJob job = {&m, tw, streams, 5, 0, vertices};
        r = maniApplyMorphTargets(&job);
        mconf_BytesReset(b);
        if (r == mani_success)
            mconf_MorphAddMesh(b, &out);
        else
            mconf_BytesU32(b, (uint32_t)r);
        snprintf(name, sizeof name, "%s-apply", prefix);
        mconf_RecordBytes(run, name, b);

        /* Over seeded ranges, in place, last range first. */
        uint32_t cuts[6] = {0, mcore_RngBelow(&rng, vertices + 1), mcore_RngBelow(&rng, vertices + 1),
                            mcore_RngBelow(&rng, vertices + 1), vertices, vertices};
        for (int i = 1; i < 5; ++i)
            for (int k = i; k > 0 && cuts[k] < cuts[k - 1]; --k) {
                uint32_t x = cuts[k];
                cuts[k] = cuts[k - 1];
                cuts[k - 1] = x;
            }
        maniFixtureMorphStreams(&in, &in, streams);
        /* The same bits as the whole: this case's hash is the one above. */
        mconf_BytesReset(b);
        maniResult rr = mani_success;
        for (int i = 4; i > 0; --i) {
            maniMorphJob part = {&m, tw, streams, 5, cuts[i - 1], cuts[i]};
            maniResult ri = maniApplyMorphTargets(&part);
            if (ri != mani_success) rr = ri;
        }
        if (rr == mani_success)
            mconf_MorphAddMesh(b, &in);
        else
            mconf_BytesU32(b, (uint32_t)rr);
        snprintf(name, sizeof name, "%s-apply-ranges", prefix);
        mconf_RecordBytes(run, name, b);

        /* Refused: a weight not finite, a range past the vertices. */
        tw[T - 1] = INFINITY;
        mconf_BytesReset(b);
        mconf_BytesU32(b, (uint32_t)maniApplyMorphTargets(&job));
        tw[T - 1] = 0.5f;
        job.vertexEnd = vertices + 1;
        mconf_BytesU32(b, (uint32_t)maniApplyMorphTargets(&job));
        snprintf(name, sizeof name, "%s-refused", prefix);
        mconf_RecordBytes(run, name, b);
    }
    free(cw);
    free(tw);
    maniFixtureFreeMorphMesh(&in);
    maniFixtureFreeMorphMesh(&out);
    free(file);
    maniFixtureFreeMorph(&fx);
}

/* One channel of in-betweens at -1, 0.25, 0.5 and 2 over one vertex: target
 * weights swept from -3 to 3 by 1/8, and the morphed position at each. */
static void mconf_MorphSweep(mconf_Run* run, mconf_Bytes* b) {
    static const float full[4] = {-1.0f, 0.25f, 0.5f, 2.0f};
    static const float deltas[4][3] = {{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    maniMorphSourceTarget t[4];
    memset(t, 0, sizeof t);
    for (int k = 0; k < 4; ++k) {
        t[k].fullWeight = full[k];
        t[k].count = 1;
        t[k].deltas[0] = deltas[k];
    }
    maniMorphSourceAttribute attr = {maniMorphPosition, 0};
    maniMorphSourceChannel ch = {"sweep", 5, t, 4};
    maniMorphSource src = {1, &attr, 1, &ch, 1};
    size_t size = 0;
    void* file = maniFixtureBuildMorph(&src, &size);
    maniMorphTargets m;
    mconf_BytesReset(b);
    if (file != NULL && maniOpenMorphTargets(file, size, &m).result == mani_success) {
        for (int i = -24; i <= 24; ++i) {
            float w = (float)i / 8.0f, tw[4];
            float pos[3] = {0.5f, -0.25f, 2.0f}, outPos[3];
            mconf_BytesU32(b, (uint32_t)maniMorphTargets_ComputeTargetWeights(&m, &w, tw, 4, NULL));
            for (int k = 0; k < 4; ++k) mconf_BytesF32(b, tw[k]);
            maniMorphStream s = {maniMorphPosition, 0, 3, 12, 12, pos, outPos};
            maniMorphJob job = {&m, tw, &s, 1, 0, 1};
            mconf_BytesU32(b, (uint32_t)maniApplyMorphTargets(&job));
            for (int c = 0; c < 3; ++c) mconf_BytesF32(b, outPos[c]);
        }
    } else {
        mconf_BytesU32(b, 0xFFFFFFFFu);
    }
    mconf_RecordBytes(run, "morph-inbetween-sweep", b);
    free(file);
}

void mconf_DeformMorph(mconf_Run* run) {
    mconf_Bytes b = {0};
    static const char* kinds[3] = {"mixed", "sparse", "dense"};
    const uint32_t vertices[] = {1, 7, 64, 500, 3000};
    const uint32_t channels[] = {1, 3, 8, 12, 20};
    for (int kind = 0; kind < 3; ++kind)
        for (size_t v = 0; v < sizeof vertices / sizeof vertices[0]; ++v)
            mconf_MorphCase(run, &b, kinds[kind], (maniFixtureMorphKind)kind, vertices[v], channels[v],
                            0x30F0 + 100 * (uint64_t)kind + v);
    mconf_MorphSweep(run, &b);
    mconf_BytesFree(&b);
}
