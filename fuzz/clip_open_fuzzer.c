/* Harness: maniOpenClip. On a successful open, exercises every reader (then
 * the view bound to a chain skeleton of its bone count, so sampling, cursors
 * and root motion run whatever the input) at several times; then changes
 * bytes after the open and exercises it all again: nothing may read outside
 * the bytes, which sit in a block of exactly their size. Each input is opened
 * twice: as given, and with its identity field stamped with the identity of
 * its bytes, so mutations reach the checks behind the identity. */
#include "fuzz/clip_common.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void maul_OpenAndExercise(uint8_t* bytes, size_t size) {
    maniClip c;
    maniFileResult r = maniOpenClip(bytes, size, &c);
    if (r.result == mani_errorFormat && r.offset > size) abort();
    if (r.result == mani_success) {
        maniSkeleton skeleton;
        const maniSkeleton* sk = maul_FuzzChainSkeleton(c.boneCount, &skeleton) ? &skeleton : NULL;
        maniClip bound = c;
        if (sk != NULL) bound.skeletonIdentity = maniSkeleton_GetIdentity(sk);
        maul_ExerciseClip(&c, sk);
        maul_ExerciseClip(&bound, sk);
        for (size_t i = 64; i < size; i += 7) bytes[i] ^= 0x5A;
        maul_ExerciseClip(&bound, sk);
        memset(bytes, 0xFF, size);
        maul_ExerciseClip(&bound, sk);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    for (int stamped = 0; stamped < 2; ++stamped) {
        uint8_t* bytes = (uint8_t*)malloc(size ? size : 1);
        if (bytes == NULL) return 0;
        memcpy(bytes, data, size);
        if (((uintptr_t)bytes % MANI_FILE_ALIGNMENT) != 0) {
            free(bytes);
            return 0;
        }
        if (stamped) {
            if (size < MCORE_HEADER_SIZE) {
                free(bytes);
                return 0;
            }
            const uint64_t identity =
                mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindClip, bytes + MCORE_HEADER_SIZE, size - MCORE_HEADER_SIZE);
            mcore_WriteU64(bytes + 32, identity);
        }
        maul_OpenAndExercise(bytes, size);
        free(bytes);
    }
    return 0;
}
