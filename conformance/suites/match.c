/* Suite "match": motion database files built from seeded skeletons and
 * clips (rates, leaf sizes, a float track channel), their bytes and
 * identities, and the results of seeded searches over each (with tags,
 * exclusions, history and a continuing frame), and seeded trajectories
 * advanced and measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/match_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/match.h"
#include "maul/anim/trajectory.h"

void mconf_SuiteMatch(mconf_Run* run);

static void mconf_MatchSearches(mconf_Run* run, const char* prefix, const maniMotionDatabase* d, uint64_t seed) {
    mconf_Bytes b = {0};
    char name[160];
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    const uint32_t f = d->featureCount;
    float q[256], x[256];
    for (uint32_t k = 0; k < 24; ++k) {
        const uint32_t near = mcore_RngBelow(&rng, d->frameCount);
        if (maniMotionDatabase_GetFeatures(d, near, x, f, NULL) != mani_success) break;
        for (uint32_t j = 0; j < f; ++j) q[j] = x[j] + mcore_RngFloatRange(&rng, -0.25f, 0.25f) * (float)(k % 3);
        uint32_t history[4];
        maniMatchQuery query;
        memset(&query, 0, sizeof query);
        query.features = q;
        query.normalized = (k & 1) ? 1u : 0u;
        if (!query.normalized) {
            float off[256], scale[256];
            if (maniMotionDatabase_GetNormalization(d, off, scale, f, NULL) != mani_success) break;
            for (uint32_t j = 0; j < f; ++j) q[j] = q[j] * scale[j] + off[j];
        }
        query.continuingFrame = (k & 2) ? mcore_RngBelow(&rng, d->frameCount) : MANI_NO_FRAME;
        query.transitionCost = mcore_RngFloatRange(&rng, 0, 0.5f);
        query.continuingBias = mcore_RngFloatRange(&rng, -0.1f, 0.1f);
        query.requiredTags = (k & 4) ? (mcore_RngNext(&rng) & 3) : 0;
        query.excludedTags = (k & 8) ? (mcore_RngNext(&rng) & 12) : 0;
        query.endExclusion = (k & 16) ? 0.25f : 0.0f;
        query.surroundExclusion = (k & 2) ? 0.2f : 0.0f;
        query.historyCount = k % 5 == 4 ? 4u : 0u;
        for (uint32_t h = 0; h < 4; ++h) history[h] = mcore_RngBelow(&rng, d->frameCount);
        query.history = history;
        query.historyExclusion = 0.5f;
        maniMatchResult r;
        memset(&r, 0, sizeof r);
        const maniResult code = maniMotionDatabase_Search(d, &query, &r);
        mconf_BytesReset(&b);
        mconf_BytesU32(&b, (uint32_t)code);
        mconf_BytesU32(&b, r.frame);
        mconf_BytesU32(&b, r.entry);
        mconf_BytesF32(&b, r.time);
        mconf_BytesF32(&b, r.cost);
        mconf_BytesU32(&b, r.continuing);
        snprintf(name, sizeof name, "%.64s-search-%02u", prefix, k);
        mconf_RecordBytes(run, name, &b);
    }
    mconf_BytesFree(&b);
}

static maniQuat mconf_MatchYaw(mcore_Rng* rng) {
    const float a = mcore_RngFloatRange(rng, -3.0f, 3.0f);
    /* A unit quaternion about +Y from two numbers normalized (no
     * transcendental). */
    const float s = a, c = 3.2f - fabsf(a);
    const float len = sqrtf(s * s + c * c);
    maniQuat q = {0.0f, s / len, 0.0f, c / len};
    return q;
}

void mconf_SuiteMatch(mconf_Run* run) {
    static const struct {
        uint64_t seed;
        uint32_t clips, entries;
        float rate;
        uint32_t leaf;
        int floats;
    } cases[] = {
        {3, 2, 1, 8.0f, 1, 0}, {2, 4, 2, 30.0f, 4, 1}, {3, 8, 3, 30.0f, 8, 0}, {4, 6, 2, 60.0f, 16, 1},
        {5, 12, 4, 24.0f, 32, 0},
    };
    char name[96];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        size_t size = 0;
        void* bytes = maniFixtureBuildMotionDatabase(cases[c].seed, cases[c].clips, cases[c].entries, cases[c].rate,
                                                     cases[c].leaf, cases[c].floats, &size);
        snprintf(name, sizeof name, "database-%u", (unsigned)c);
        if (bytes == NULL) {
            mconf_Record(run, name, 0);
            continue;
        }
        mconf_Record(run, name, maniHash64(0, bytes, (int64_t)size));
        maniMotionDatabase d;
        if (maniOpenMotionDatabase(bytes, size, &d).result != mani_success) {
            snprintf(name, sizeof name, "database-%u-open-failed", (unsigned)c);
            mconf_Record(run, name, 0);
            free(bytes);
            continue;
        }
        snprintf(name, sizeof name, "database-%u", (unsigned)c);
        mconf_MatchSearches(run, name, &d, 1000 + c);
        if (c == 1) {
            /* Trajectories advanced toward seeded goals and measured. */
            mcore_Rng rng;
            mcore_RngSeed(&rng, 77);
            mconf_Bytes b = {0};
            for (uint32_t k = 0; k < 16; ++k) {
                maniTrajectory t;
                memset(&t, 0, sizeof t);
                t.rotation = mconf_MatchYaw(&rng);
                t.velocity.x = mcore_RngFloatRange(&rng, -3, 3);
                t.velocity.z = mcore_RngFloatRange(&rng, -3, 3);
                t.angularVelocity.y = mcore_RngFloatRange(&rng, -2, 2);
                maniTrajectoryGoal g;
                memset(&g, 0, sizeof g);
                g.velocity.x = mcore_RngFloatRange(&rng, -4, 4);
                g.velocity.z = mcore_RngFloatRange(&rng, -4, 4);
                g.rotation = mconf_MatchYaw(&rng);
                g.velocityHalfLife = mcore_RngFloatRange(&rng, 0.05f, 0.5f);
                g.rotationHalfLife = mcore_RngFloatRange(&rng, 0.05f, 0.5f);
                mconf_BytesReset(&b);
                const maniTrajectory root = t;
                for (uint32_t s = 0; s < 3; ++s) {
                    maniTrajectory p = root;
                    mconf_BytesU32(&b, (uint32_t)maniAdvanceTrajectory(&p, &g, (float)(s + 1) / 3.0f));
                    float pos[2], fac[2];
                    mconf_BytesU32(&b, (uint32_t)maniMotionDatabase_ComputeTrajectoryFeatures(&d, &root, &p, pos, fac));
                    mconf_BytesAdd(&b, &p, sizeof p);
                    for (int j = 0; j < 2; ++j) mconf_BytesF32(&b, pos[j]), mconf_BytesF32(&b, fac[j]);
                }
                snprintf(name, sizeof name, "trajectory-%02u", k);
                mconf_RecordBytes(run, name, &b);
            }
            mconf_BytesFree(&b);
        }
        free(bytes);
    }
}
