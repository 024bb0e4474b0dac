#include "lib/core/hash.h"

#include <string.h>

/* One round on an eight-byte word: xor in, multiply by an odd constant, fold
 * the high half into the low. */
static uint64_t mcore_HashWord(uint64_t h, uint64_t word) {
    h = (h ^ word) * MCORE_HASH_P2;
    return h ^ (h >> 32);
}

/* One round on a leftover byte. */
static uint64_t mcore_HashByte(uint64_t h, uint8_t byte) {
    h = (h ^ byte) * MCORE_HASH_P1;
    return h ^ (h >> 32);
}

static uint64_t mcore_HashFinal(uint64_t h) {
    h ^= h >> 33;
    h *= MCORE_HASH_P2;
    h ^= h >> 29;
    h *= MCORE_HASH_P1;
    return h ^ (h >> 32);
}

uint64_t mcore_Hash64(uint64_t seed, const void* data, size_t size) {
    const uint8_t* p = (const uint8_t*)data;
    if (p == NULL) size = 0;
    uint64_t h = seed ^ ((uint64_t)size * MCORE_HASH_P1);
    size_t words = size / 8;
    for (size_t i = 0; i < words; ++i) {
        uint64_t word;
        memcpy(&word, p + i * 8, 8); /* host byte order; any alignment */
        h = mcore_HashWord(h, word);
    }
    for (size_t i = words * 8; i < size; ++i) h = mcore_HashByte(h, p[i]);
    return mcore_HashFinal(h);
}

void mcore_HasherInit(mcore_Hasher* hasher, uint64_t seed, uint64_t totalSize) {
    hasher->state = seed ^ (totalSize * MCORE_HASH_P1);
    hasher->pendingCount = 0;
    memset(hasher->pending, 0, sizeof hasher->pending);
}

void mcore_HasherAdd(mcore_Hasher* hasher, const void* data, size_t size) {
    const uint8_t* p = (const uint8_t*)data;
    for (size_t i = 0; i < size; ++i) {
        hasher->pending[hasher->pendingCount++] = p[i];
        if (hasher->pendingCount == 8) {
            uint64_t word;
            memcpy(&word, hasher->pending, 8);
            hasher->state = mcore_HashWord(hasher->state, word);
            hasher->pendingCount = 0;
        }
    }
}

uint64_t mcore_HasherFinish(const mcore_Hasher* hasher) {
    uint64_t h = hasher->state;
    for (uint32_t i = 0; i < hasher->pendingCount; ++i) h = mcore_HashByte(h, hasher->pending[i]);
    return mcore_HashFinal(h);
}
