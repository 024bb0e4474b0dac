/* The fuzz input as a file: copied into a malloc block of its own, so ASan
 * catches a read one byte past its end (libFuzzer's buffer has slack). */
#ifndef MAUL_FUZZ_FUZZ_FILE_H
#define MAUL_FUZZ_FUZZ_FILE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maul/anim/base.h"
#include "maul/anim/build.h"
#include "maul/anim/skeleton.h"

/* The copy (free it), or NULL when malloc fails or gives a block not at a
 * MANI_FILE_ALIGNMENT boundary (which glibc's never is). */
static inline uint8_t* maul_FuzzFileCopy(const uint8_t* data, size_t size) {
    uint8_t* bytes = (uint8_t*)malloc(size ? size : 1);
    if (bytes == NULL) return NULL;
    memcpy(bytes, data, size);
    if (((uintptr_t)bytes % MANI_FILE_ALIGNMENT) != 0) {
        free(bytes);
        return NULL;
    }
    return bytes;
}

/* The builder's last built file or text in a block of its own (free it), or
 * NULL when the builder holds nothing or memory runs out; aborts when the
 * copy itself fails. */
static inline uint8_t* maul_FuzzCopyBuilt(maniBuilder* b, size_t* size) {
    if (maniBuilder_CopyBuilt(b, NULL, 0, size) != mani_errorCapacity) return NULL;
    uint8_t* out = (uint8_t*)aligned_alloc(MANI_FILE_ALIGNMENT, (*size + 15) / 16 * 16);
    if (out != NULL && maniBuilder_CopyBuilt(b, out, *size, size) != mani_success) abort();
    return out;
}

/* Rewrites bytes 32 to 39 as the container identity of the rest (the hash
 * of bytes 64 to the end, seeded by the kind): docs/formats.md,
 * "Container"), so a mutated input also reaches the record checks. */
static inline void maul_FuzzReseal(uint8_t* bytes, size_t size) {
    if (size < 64) return;
    uint32_t kind;
    memcpy(&kind, bytes + 4, 4);
    const uint64_t id = maniHash64(UINT64_C(0x4D41554C46494C45) ^ kind, bytes + 64, (int64_t)(size - 64));
    memcpy(bytes + 32, &id, 8);
}

#endif
