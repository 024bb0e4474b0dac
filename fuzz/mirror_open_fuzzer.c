/* Harness: maniOpenMirrorMap. On a successful open, exercises every
 * accessor, names and root moves, and, when the map is of the harness's
 * chain skeleton of its bone count (the seeds are), mirrors poses into
 * another pose and in place; then changes bytes after the open (as a host's
 * memory may be damaged) and exercises it all again: nothing may read
 * outside the bytes. The input sits in a block of exactly its size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_skeleton.h"
#include "maul/anim/mirror.h"
#include "maul/anim/pose.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_ExerciseMirror(const maniMirrorMap* m, const uint8_t* bytes, size_t size) {
    const uint32_t n = m->boneCount;
    (void)maniMirrorMap_GetIdentity(m);
    (void)maniMirrorMap_GetSkeletonIdentity(m);
    (void)maniMirrorMap_GetAxis(m);
    (void)maniMirrorMap_GetUnmatchedBone(m);
    for (uint32_t i = 0; i <= n; ++i) {
        (void)maniMirrorMap_GetPartner(m, i);
        (void)maniMirrorMap_GetBoneFlags(m, i);
    }
    /* Names: every span of the input up to 16 bytes at a few places. */
    for (size_t at = 0; at + 1 < size; at += 1 + size / 16) {
        for (size_t len = 0; len <= 16 && at + len <= size; len += 4) {
            size_t out = 0;
            const char* p = maniMirrorMap_MirrorName(m, (const char*)bytes + at, len, &out);
            if (p != (const char*)bytes + at && ((const uint8_t*)p < bytes || (const uint8_t*)p + out > bytes + size))
                abort();
        }
        uint64_t h = 0;
        if (at + 8 <= size) memcpy(&h, bytes + at, 8);
        (void)maniMirrorMap_MirrorNameHash(m, h);
    }
    maniRootMove move = {{1, 2, 3}, {0, 0.6f, 0, 0.8f}};
    (void)maniMirrorMap_MirrorRootMotion(m, move);
    maniSkeleton s;
    if (!maul_FuzzChainSkeleton(n, &s)) return;
    const size_t poseSize = maniSkeleton_GetPoseSize(&s);
    void* m0 = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    void* m1 = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    maniPose *a = NULL, *b = NULL;
    if (m0 && m1 && maniInitPose(&s, m0, poseSize, &a) == mani_success && maniInitPose(&s, m1, poseSize, &b) == mani_success) {
        const maniResult r = maniMirrorMap_MirrorPose(m, &s, a, b);
        if (r == mani_success) {
            if (maniMirrorMap_MirrorPose(m, &s, b, b) != mani_success) abort();
            if (maniPose_ComputeModel(b, &s) != mani_success) abort();
        }
    }
    free(m0);
    free(m1);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maniMirrorMap m;
    if (maniOpenMirrorMap(bytes, size, &m).result == mani_success) {
        maul_ExerciseMirror(&m, bytes, size);
        for (size_t i = 64; i < size; i += 1 + size / 32) bytes[i] ^= 0xA5;
        maul_ExerciseMirror(&m, bytes, size);
    }
    free(bytes);
    return 0;
}
