/* Harness: maniOpenSkeleton. On a successful open, exercises every accessor,
 * a pose (init, compose, split), then changes bytes after the open (as the
 * reference allows a host's memory to be damaged) and exercises it all again:
 * nothing may read outside the bytes. The input sits in a block of exactly
 * its size, so an overread trips ASan. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "maul/anim/pose.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_Exercise(const maniSkeleton* s, const uint8_t* bytes, size_t size) {
    uint32_t n = maniSkeleton_GetBoneCount(s);
    (void)maniSkeleton_GetIdentity(s);
    for (uint32_t i = 0; i <= n; ++i) {
        (void)maniSkeleton_GetParent(s, i);
        (void)maniSkeleton_GetSubtreeEnd(s, i);
        (void)maniSkeleton_GetRest(s, i);
        size_t len = 0;
        const char* name = maniSkeleton_GetBoneName(s, i, &len);
        if (name != NULL) {
            if ((const uint8_t*)name < bytes || (const uint8_t*)name + len > bytes + size) abort();
            (void)maniSkeleton_FindBone(s, name, len);
        }
    }
    size_t poseSize = maniSkeleton_GetPoseSize(s);
    if (poseSize == 0) return;
    void* memory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    if (memory == NULL) return;
    maniPose* pose = NULL;
    maniResult r = maniInitPose(s, memory, poseSize, &pose);
    if (r == mani_success || r == mani_errorFormat) {
        /* Either result is right once bytes changed after the open. */
        r = maniPose_ComputeModel(pose, s);
        if (r != mani_success && r != mani_errorFormat) abort();
        for (uint32_t i = 0; i <= n; ++i) (void)maniPose_GetModelTransform(pose, i);
        r = maniPose_SetRest(pose, s);
        if (r != mani_success && r != mani_errorFormat) abort();
    }
    free(memory);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = maul_FuzzFileCopy(data, size);
    if (bytes == NULL) return 0;
    maniSkeleton s;
    maniFileResult r = maniOpenSkeleton(bytes, size, &s);
    if (r.result == mani_errorFormat && r.offset > size) abort(); /* an offset outside the file */
    if (r.result == mani_success) {
        maul_Exercise(&s, bytes, size);
        /* Bytes changed after the open: every 7th byte, then all of them. */
        for (size_t i = 0; i < size; i += 7) bytes[i] ^= 0x5A;
        maul_Exercise(&s, bytes, size);
        memset(bytes, 0xFF, size);
        maul_Exercise(&s, bytes, size);
    }
    free(bytes);
    return 0;
}
