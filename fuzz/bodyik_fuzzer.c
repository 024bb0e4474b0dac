/* Harness: maniPose_SolveBodyXpbd and maniPose_SolveBodySdls on a solve
 * read from the input (raw binary32 fields, NaNs and infinities included)
 * over a seeded body (a 22-bone humanoid, a 128-bone star or a 9-bone chain,
 * the first byte picks). Checks more than crashes: a refused solve leaves the
 * pose's bytes unchanged, maniSkeleton_GetBodyIkScratchSize is 0 exactly for
 * a solve XPBD refuses without looking at the pose or scratch, one byte less
 * scratch is mani_errorCapacity, and the scratch sits at the very end of its
 * buffer so an overrun trips ASan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/bodyik_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/bodyik.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

typedef struct {
    const uint8_t* p;
    size_t left;
} mfuzz_Reader;

static uint32_t mfuzz_U32(mfuzz_Reader* r) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        v |= (uint32_t)(r->left ? *r->p : 0) << (8 * i);
        if (r->left) ++r->p, --r->left;
    }
    return v;
}

static uint8_t mfuzz_U8(mfuzz_Reader* r) {
    const uint8_t v = r->left ? *r->p : 0;
    if (r->left) ++r->p, --r->left;
    return v;
}

static float mfuzz_F32(mfuzz_Reader* r) {
    const uint32_t u = mfuzz_U32(r);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A small bone index most of the time, anything now and then. */
static uint32_t mfuzz_Bone(mfuzz_Reader* r, uint32_t bones) {
    const uint8_t b = mfuzz_U8(r);
    return b == 255 ? mfuzz_U32(r) : (uint32_t)b % (bones + 2u);
}

static void mfuzz_Vec(mfuzz_Reader* r, maniVec3* v) {
    v->x = mfuzz_F32(r), v->y = mfuzz_F32(r), v->z = mfuzz_F32(r);
}

static void mfuzz_Fail(const char* what) {
    fprintf(stderr, "bodyik_fuzzer: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    mfuzz_Reader r = {data, size};
    const uint8_t shape = mfuzz_U8(&r) % 3;
    maniFixtureBody body = maniFixtureMakeBody(7, (maniFixtureBodyShape)shape, 9);
    size_t fileSize = 0;
    void* file = maniFixtureBuildSkeleton(&body.source, &fileSize);
    maniSkeleton s;
    if (file == NULL || maniOpenSkeleton(file, fileSize, &s).result != mani_success) mfuzz_Fail("setup");
    const uint32_t n = maniSkeleton_GetBoneCount(&s);
    const size_t poseSize = maniSkeleton_GetPoseSize(&s);
    void* poseMemory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    maniPose* pose = NULL;
    if (poseMemory == NULL || maniInitPose(&s, poseMemory, poseSize, &pose) != mani_success) mfuzz_Fail("pose");

    maniBodyEffector effectors[MANI_MAX_BODY_IK_EFFECTORS + 1];
    maniBodyBoneSettings settings[9];
    maniBodySolve solve;
    memset(&solve, 0, sizeof solve);
    solve.top = mfuzz_Bone(&r, n);
    solve.topMode = (maniBodyTopMode)(mfuzz_U8(&r) % 4);
    solve.effectorCount = mfuzz_U8(&r) % (MANI_MAX_BODY_IK_EFFECTORS + 2);
    solve.settingCount = mfuzz_U8(&r) % 10;
    solve.iterations = mfuzz_U8(&r) % 12;
    if (solve.iterations == 11) solve.iterations = mfuzz_U32(&r);
    solve.tolerance = mfuzz_F32(&r);
    solve.prePull = mfuzz_F32(&r);
    for (uint32_t j = 0; j < solve.effectorCount; ++j) {
        maniBodyEffector* e = &effectors[j];
        e->bone = j < body.effectorCount && mfuzz_U8(&r) < 200 ? body.effectors[j] : mfuzz_Bone(&r, n);
        mfuzz_Vec(&r, &e->goal);
        e->rotation.x = mfuzz_F32(&r), e->rotation.y = mfuzz_F32(&r);
        e->rotation.z = mfuzz_F32(&r), e->rotation.w = mfuzz_F32(&r);
        e->rotationWeight = mfuzz_F32(&r);
        e->strength = mfuzz_F32(&r);
        e->pullChain = mfuzz_F32(&r);
    }
    for (uint32_t i = 0; i < solve.settingCount; ++i) {
        maniBodyBoneSettings* st = &settings[i];
        st->bone = mfuzz_Bone(&r, n);
        st->rotationStiffness = mfuzz_F32(&r);
        st->positionStiffness = mfuzz_F32(&r);
        mfuzz_Vec(&r, &st->preferredAngles);
        st->limit.kind = mfuzz_U8(&r) % 6;
        mfuzz_Vec(&r, &st->limit.axis);
        st->limit.minAngle = mfuzz_F32(&r);
        st->limit.maxAngle = mfuzz_F32(&r);
        st->limit.cone = mfuzz_F32(&r);
    }
    solve.effectors = effectors;
    solve.settings = solve.settingCount ? settings : NULL;

    const size_t need = maniSkeleton_GetBodyIkScratchSize(&s, &solve);
    const size_t room = need + 64;
    uint8_t* buffer = (uint8_t*)malloc(room + 16);
    if (buffer == NULL) mfuzz_Fail("scratch");
    /* the scratch ends at the buffer's end (16-aligned start) */
    uint8_t* end = buffer + room + 16;
    uint8_t* scratch = (uint8_t*)((uintptr_t)(end - need) & ~(uintptr_t)15);
    const size_t scratchSize = (size_t)(end - scratch);
    uint8_t* before = (uint8_t*)malloc(poseSize);
    if (before == NULL) mfuzz_Fail("copy");
    for (int k = 0; k < 2; ++k) {
        maniResult (*solver)(maniPose*, const maniSkeleton*, const maniBodySolve*, void*, size_t, bool*) =
            k == 0 ? maniPose_SolveBodyXpbd : maniPose_SolveBodySdls;
        if (maniPose_SetRest(pose, &s) != mani_success) mfuzz_Fail("rest");
        memcpy(before, poseMemory, poseSize);
        bool reached = false;
        const maniResult res = solver(pose, &s, &solve, scratch, scratchSize, &reached);
        if (k == 0 && (need == 0) != (res != mani_success)) mfuzz_Fail("size 0 exactly for a refused solve");
        if (res != mani_success && memcmp(before, poseMemory, poseSize) != 0) mfuzz_Fail("a refusal changed the pose");
        if (res == mani_success && need > 0) {
            memcpy(poseMemory, before, poseSize);
            uint8_t* shorter = scratch + 16; /* 16 bytes less, still aligned */
            if (solver(pose, &s, &solve, shorter, (size_t)(end - shorter), &reached) != mani_errorCapacity)
                mfuzz_Fail("less scratch accepted");
            if (memcmp(before, poseMemory, poseSize) != 0) mfuzz_Fail("a capacity refusal changed the pose");
        }
    }
    free(before);
    free(buffer);
    free(poseMemory);
    free(file);
    maniFixtureFreeBody(&body);
    return 0;
}
