/* Harness: maniHash64. The first 8 bytes are the seed, the rest the data.
 * Checks more than crashes: the one-shot hash must equal the streaming hash
 * at a split the input picks, and the same bytes at another address (placed
 * at the very end of their buffer, so an overread trips ASan) must give the
 * same hash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/hash.h"
#include "maul/anim/base.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint64_t seed = 0;
    if (size >= 8) {
        for (int i = 0; i < 8; ++i) seed |= (uint64_t)data[i] << (8 * i);
        data += 8;
        size -= 8;
    }
    uint64_t h = maniHash64(seed, data, (int64_t)size);

    size_t split = size ? (size_t)data[0] % (size + 1) : 0;
    mcore_Hasher s;
    mcore_HasherInit(&s, seed, size);
    mcore_HasherAdd(&s, data, split);
    mcore_HasherAdd(&s, data + split, size - split);
    if (mcore_HasherFinish(&s) != h) {
        fprintf(stderr, "streaming hash differs at split %zu of %zu\n", split, size);
        abort();
    }

    size_t shift = size ? 1 + data[size - 1] % 7 : 3;
    uint8_t* copy = (uint8_t*)malloc(size + shift);
    if (copy == NULL) return 0;
    memcpy(copy + shift, data, size); /* ends at the buffer's last byte */
    if (maniHash64(seed, copy + shift, (int64_t)size) != h) {
        fprintf(stderr, "hash depends on the address (shift %zu)\n", shift);
        abort();
    }
    free(copy);
    return 0;
}
