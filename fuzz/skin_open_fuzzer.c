/* Harness: maniOpenSkin. On a successful open, exercises every accessor, a
 * palette against a skeleton of the recorded bone count and identity (a
 * view filled in by the harness: only the palette's skeleton check reads
 * it), the dual quaternion and row conversions of that palette; then changes
 * bytes after the open (as the reference allows a host's memory to be
 * damaged) and exercises it all again: nothing may read outside the bytes.
 * The input sits in a block of exactly its size, so an overread trips ASan. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_skeleton.h"
#include "maul/anim/build.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);


static void maul_Exercise(const maniSkin* s, const maniSkeleton* skeleton, const uint8_t* bytes, size_t size) {
    uint32_t n = maniSkin_GetJointCount(s);
    (void)maniSkin_GetIdentity(s);
    (void)maniSkin_GetSkeletonIdentity(s);
    for (uint32_t j = 0; j <= n; ++j) {
        uint32_t bone = maniSkin_GetJoint(s, j);
        if (bone != MANI_NO_BONE && bone >= s->skeletonBoneCount) abort();
        (void)maniSkin_GetInverseBind(s, j);
    }
    (void)bytes;
    (void)size;
    if (skeleton == NULL || n == 0) return;
    size_t poseSize = maniSkeleton_GetPoseSize(skeleton);
    if (poseSize == 0) return;
    void* memory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    maniAffine* palette = (maniAffine*)malloc((size_t)n * sizeof(maniAffine));
    float* dq = (float*)malloc((size_t)n * MANI_DUAL_QUATERNION_FLOATS * sizeof(float));
    float* rows = (float*)malloc((size_t)n * MANI_PALETTE_ROW_FLOATS * sizeof(float));
    maniPose* pose = NULL;
    if (memory != NULL && palette != NULL && dq != NULL && rows != NULL &&
        maniInitPose(skeleton, memory, poseSize, &pose) == mani_success) {
        uint32_t count = 0;
        maniResult r = maniPose_ComputePalette(pose, skeleton, s, palette, n, &count);
        if (r == mani_success) {
            if (count != n) abort();
            if (maniPose_ComputePalette(pose, skeleton, s, palette, n - 1, &count) != mani_errorCapacity) abort();
            r = maniConvertPaletteToDualQuaternions(palette, n, dq);
            if (r != mani_success && r != mani_errorInvalid) abort();
            if (maniConvertPaletteToRows(palette, n, rows) != mani_success) abort();
        } else if (r != mani_errorInvalid) {
            abort();
        }
    }
    free(memory);
    free(palette);
    free(dq);
    free(rows);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maniSkin s;
    maniFileResult r = maniOpenSkin(bytes, size, &s);
    if (r.result == mani_errorFormat && r.offset > size) abort(); /* an offset outside the file */
    if (r.result == mani_success) {
        /* A skeleton of the recorded bone count; the skin is bound to it when
         * the recorded identity is its (the seeds'), refused otherwise. */
        maniSkeleton skeleton;
        const maniSkeleton* sk = maul_FuzzChainSkeleton(s.skeletonBoneCount, &skeleton) ? &skeleton : NULL;
        /* The view rebound to that skeleton (only the palette's check reads
         * the identity), so every palette path runs whatever the input. */
        maniSkin bound = s;
        if (sk != NULL) bound.skeletonIdentity = maniSkeleton_GetIdentity(sk);
        maul_Exercise(&s, sk, bytes, size);
        maul_Exercise(&bound, sk, bytes, size);
        /* Bytes changed after the open: every 7th byte, then all of them. */
        for (size_t i = 0; i < size; i += 7) bytes[i] ^= 0x5A;
        maul_Exercise(&bound, sk, bytes, size);
        memset(bytes, 0xFF, size);
        maul_Exercise(&bound, sk, bytes, size);
    }
    free(bytes);
    return 0;
}
