/* Harness: maniOpenMotionDatabase and maniMotionDatabase_Search. The input's
 * container identity is made good first (when it holds a header), so the
 * fuzzer reaches the open's own checks of every section instead of
 * stopping at the hash. On a successful open, exercises every accessor and
 * searches with queries made from the input's frames (the result's cost
 * must be its frame's, computed here); then changes bytes after the open
 * (as a host's memory may be damaged) and searches again: nothing may read
 * outside the bytes. The input sits in a block of exactly its size. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "lib/core/container.h"
#include "maul/anim/match.h"
#include "maul/anim/trajectory.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_Exercise(const maniMotionDatabase* d, const uint8_t* data, size_t size, int damaged) {
    (void)maniMotionDatabase_GetIdentity(d);
    (void)maniMotionDatabase_GetMirrorMapIdentity(d);
    (void)maniMotionDatabase_GetSkeletonIdentity(d);
    for (uint32_t i = 0; i < d->clipCount && i < 8; ++i) (void)maniMotionDatabase_GetClipIdentity(d, i);
    for (uint32_t i = 0; i < d->channelCount && i < 8; ++i) {
        maniMatchChannel c;
        size_t length = 0;
        if (maniMotionDatabase_GetChannel(d, i, &c) != mani_success && !damaged) abort();
        (void)maniMotionDatabase_GetChannelName(d, i, &length);
    }
    for (uint32_t i = 0; i < d->entryCount && i < 8; ++i) {
        maniMatchEntry e;
        if (maniMotionDatabase_GetEntry(d, i, &e) != mani_success && !damaged) abort();
    }
    float q[256], offsets[256], scales[256];
    uint32_t count = 0;
    if (maniMotionDatabase_GetNormalization(d, offsets, scales, 256, &count) != mani_success) return;
    for (uint32_t k = 0; k < 4; ++k) {
        const uint32_t frame = (uint32_t)(size > k ? data[size - 1 - k] : k) % d->frameCount;
        uint32_t entry = 0;
        float t = 0;
        if (maniMotionDatabase_GetFrame(d, frame, &entry, &t) != mani_success && !damaged) abort();
        if (maniMotionDatabase_GetFeatures(d, frame, q, 256, &count) != mani_success) return;
        for (uint32_t j = 0; j < count; ++j) q[j] += (float)((k * 7 + j) % 5) * 0.1f - 0.2f;
        uint32_t history[2] = {frame, (frame * 3u) % d->frameCount};
        maniMatchQuery query;
        memset(&query, 0, sizeof query);
        query.features = q;
        query.normalized = 1;
        query.continuingFrame = (k & 1) ? frame : MANI_NO_FRAME;
        query.transitionCost = 0.1f * (float)k;
        query.requiredTags = k == 2 ? 1u : 0u;
        query.endExclusion = k == 3 ? 0.2f : 0.0f;
        query.surroundExclusion = 0.1f;
        query.history = history;
        query.historyCount = k;
        if (query.historyCount > 2) query.historyCount = 2;
        query.historyExclusion = 0.3f;
        maniMatchResult r;
        if (maniMotionDatabase_Search(d, &query, &r) != mani_success || r.frame == MANI_NO_FRAME || damaged) continue;
        /* The winner's cost is its own. */
        float x[256];
        maniMatchEntry e;
        if (maniMotionDatabase_GetFeatures(d, r.frame, x, 256, &count) != mani_success) abort();
        if (maniMotionDatabase_GetEntry(d, r.entry, &e) != mani_success) abort();
        float cost = e.costBias + (r.continuing ? query.continuingBias : query.transitionCost);
        for (uint32_t j = 0; j < count; ++j) cost = cost + (q[j] - x[j]) * (q[j] - x[j]);
        if (memcmp(&cost, &r.cost, 4) != 0) abort();
    }
    maniTrajectory a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.rotation.w = b.rotation.w = 1;
    float p[2], f[2];
    if (maniMotionDatabase_ComputeTrajectoryFeatures(d, &a, &b, p, f) != mani_success) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    if (size >= MCORE_HEADER_SIZE) {
        const uint64_t id =
            maniHash64(MCORE_IDENTITY_SEED ^ (uint64_t)mcore_kindMotionDatabase, bytes + 64, (int64_t)size - 64);
        mcore_WriteU64(bytes + 32, id);
    }
    maniMotionDatabase d;
    if (maniOpenMotionDatabase(bytes, size, &d).result == mani_success) {
        maul_Exercise(&d, data, size, 0);
        for (size_t i = 64; i < size; i += 1 + size / 13) bytes[i] ^= (uint8_t)(0x5A + i);
        maul_Exercise(&d, data, size, 1);
    }
    free(bytes);
    return 0;
}
