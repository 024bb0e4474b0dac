/* Harness: maniOpenLearnedModel and the evaluation. The input's container
 * identity is made good first (when it holds a header), so the fuzzer
 * reaches the open's own checks instead of stopping at the hash. On a
 * successful open, exercises every accessor and runs Project, Step and
 * Decompress in scratch of exactly the size asked (a pose of the model's
 * bone count made from a flat skeleton built here); each result must be one
 * the reference lists and a success must give finite values. Then changes
 * bytes of the parameters after the open and evaluates again: nothing may
 * read outside the bytes or the scratch. The input sits in a block of
 * exactly its size. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "lib/core/container.h"
#include "maul/anim/build.h"
#include "maul/anim/learned.h"
#include "maul/anim/pose.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* A skeleton of `bones` bones in a chain, built and opened (NULL when it
 * does not build). */
static uint8_t* maul_ChainSkeleton(uint32_t bones, maniSkeleton* out) {
    maniSkeletonSourceBone* b = (maniSkeletonSourceBone*)calloc(bones, sizeof *b);
    char(*names)[8] = (char(*)[8])calloc(bones, 8);
    uint8_t* bytes = NULL;
    maniBuilder* builder = NULL;
    maniBuilderDef def = maniDefaultBuilderDef();
    if (b == NULL || names == NULL || maniCreateBuilder(&def, &builder) != mani_success) goto done;
    for (uint32_t i = 0; i < bones; ++i) {
        for (int k = 0; k < 6; ++k) names[i][k] = (char)('a' + (i >> (4 * k)) % 16);
        b[i].name = names[i];
        b[i].nameLength = 6;
        b[i].parent = i == 0 ? MANI_NO_BONE : i - 1;
        b[i].rest.rotation.w = 1;
        b[i].rest.scale.x = b[i].rest.scale.y = b[i].rest.scale.z = 1;
    }
    maniSkeletonSource src = {b, bones};
    if (maniBuildSkeleton(builder, &src).result != mani_success) goto done;
    size_t n = 0;
    bytes = maul_FuzzCopyBuilt(builder, &n);
    if (bytes != NULL && maniOpenSkeleton(bytes, n, out).result != mani_success) {
        free(bytes);
        bytes = NULL;
    }
done:
    maniDestroyBuilder(builder);
    free(b);
    free(names);
    return bytes;
}

static int maul_Finite(const float* v, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i)
        if (!isfinite(v[i])) return 0;
    return 1;
}

static void maul_Evaluate(const maniLearnedModel* m, const maniSkeleton* skel, const uint8_t* data, size_t size,
                          int damaged) {
    const size_t need = maniLearnedModel_GetScratchSize(m);
    void* scratch = aligned_alloc(16, (need + 15) & ~(size_t)15);
    const uint32_t n = m->featureCount + m->latentCount;
    float* state = (float*)malloc(4u * n);
    float* query = (float*)malloc(4u * m->featureCount);
    float* tracks = (float*)malloc(4u * (m->floatTrackCount + 1));
    float* events = (float*)malloc(4u * (m->eventCount + 1));
    size_t poseSize = skel ? maniSkeleton_GetPoseSize(skel) : 0;
    void* poseMemory = poseSize ? aligned_alloc(64, (poseSize + 63) & ~(size_t)63) : NULL;
    maniPose* pose = NULL;
    if (!scratch || !state || !query || !tracks || !events) goto done;
    for (uint32_t j = 0; j < m->featureCount; ++j) query[j] = (float)(size > j ? data[j] : j) * 0.01f - 1.0f;
    for (uint32_t p = 0; p < m->projectorCount && p < 3; ++p) {
        uint32_t count = 0;
        const maniResult r = maniLearnedModel_Project(m, p, query, state, n, &count, scratch, need);
        if (r != mani_success && r != mani_errorFormat) abort();
        if (r == mani_success && !damaged && !maul_Finite(state, n)) abort();
    }
    for (uint32_t i = 0; i < n; ++i) state[i] = 0.1f * (float)(i % 7) - 0.3f;
    for (int k = 0; k < 3; ++k) {
        const maniResult r = maniLearnedModel_Step(m, state, scratch, need);
        if (r != mani_success && r != mani_errorFormat) abort();
        if (!maul_Finite(state, n)) abort();
    }
    if (poseMemory != NULL && maniInitPose(skel, poseMemory, poseSize, &pose) == mani_success) {
        maniLearnedOutput o;
        memset(&o, 0, sizeof o);
        o.pose = pose;
        o.floatTracks = tracks;
        o.floatTrackCapacity = m->floatTrackCount;
        o.eventStates = events;
        o.eventCapacity = m->eventCount;
        const maniResult r = maniLearnedModel_Decompress(m, state, &o, scratch, need);
        if (r != mani_success && r != mani_errorFormat) abort();
        if (r == mani_success && !damaged && (!maul_Finite(tracks, m->floatTrackCount) || !maul_Finite(events, m->eventCount)))
            abort();
    }
done:
    free(scratch);
    free(state);
    free(query);
    free(tracks);
    free(events);
    free(poseMemory);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    if (size >= MCORE_HEADER_SIZE) {
        const uint64_t id =
            maniHash64(MCORE_IDENTITY_SEED ^ (uint64_t)mcore_kindLearnedModel, bytes + 64, (int64_t)size - 64);
        mcore_WriteU64(bytes + 32, id);
    }
    maniLearnedModel m;
    if (maniOpenLearnedModel(bytes, size, &m).result == mani_success) {
        (void)maniLearnedModel_GetIdentity(&m);
        (void)maniLearnedModel_GetSkeletonIdentity(&m);
        (void)maniLearnedModel_GetDatabaseIdentity(&m);
        for (uint32_t i = 0; i < m.channelCount && i < 8; ++i) {
            maniMatchChannel c;
            if (maniLearnedModel_GetChannel(&m, i, &c) != mani_success) abort();
        }
        uint32_t count = 0, req = 0, exc = 0;
        if (maniLearnedModel_GetNormalization(&m, NULL, NULL, 0, &count) != mani_success || count != m.featureCount)
            abort();
        for (uint32_t p = 0; p < m.projectorCount; ++p)
            if (maniLearnedModel_GetProjector(&m, p, &req, &exc) != mani_success) abort();
        size_t length = 0;
        for (uint32_t i = 0; i < maniLearnedModel_GetFloatTrackCount(&m); ++i)
            if (maniLearnedModel_GetFloatTrackName(&m, i, &length) == NULL || length == 0) abort();
        for (uint32_t i = 0; i < maniLearnedModel_GetEventCount(&m); ++i)
            if (maniLearnedModel_GetEventName(&m, i, &length) == NULL || length == 0) abort();
        maniSkeleton skel;
        uint8_t* skelBytes = m.boneCount <= 64 ? maul_ChainSkeleton(m.boneCount, &skel) : NULL;
        maul_Evaluate(&m, skelBytes ? &skel : NULL, data, size, 0);
        for (size_t i = (size_t)m.parameters; i < size; i += 1 + size / 13) bytes[i] ^= (uint8_t)(0x5A + i);
        maul_Evaluate(&m, skelBytes ? &skel : NULL, data, size, 1);
        free(skelBytes);
    }
    free(bytes);
    return 0;
}
