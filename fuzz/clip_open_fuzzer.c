/* Harness: maniOpenClip. On a successful open, exercises every reader (then
 * the view bound to a chain skeleton of its bone count, so sampling, cursors
 * and root motion run whatever the input) at several times; then changes
 * bytes after the open and exercises it all again: nothing may read outside
 * the bytes, which sit in a block of exactly their size. */
#include "fuzz/clip_common.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = (uint8_t*)malloc(size ? size : 1);
    if (bytes == NULL) return 0;
    memcpy(bytes, data, size);
    if (((uintptr_t)bytes % MANI_FILE_ALIGNMENT) != 0) {
        free(bytes);
        return 0;
    }
    maniClip c;
    maniFileResult r = maniOpenClip(bytes, size, &c);
    if (r.result == mani_errorFormat && r.offset > size) abort();
    if (r.result == mani_success) {
        maniSkeleton skeleton;
        const maniSkeleton* sk = maul_ClipSkeleton(c.boneCount, &skeleton) ? &skeleton : NULL;
        maniClip bound = c;
        if (sk != NULL) bound.skeletonIdentity = maniSkeleton_GetIdentity(sk);
        maul_ExerciseClip(&c, sk);
        maul_ExerciseClip(&bound, sk);
        for (size_t i = 64; i < size; i += 7) bytes[i] ^= 0x5A;
        maul_ExerciseClip(&bound, sk);
        memset(bytes, 0xFF, size);
        maul_ExerciseClip(&bound, sk);
    }
    free(bytes);
    return 0;
}
