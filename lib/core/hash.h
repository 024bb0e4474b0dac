/* lib/core: the frozen 64-bit hash both libraries and the conformance suites
 * build on (maniHash64 is its public face). The algorithm and constants are
 * written in docs/determinism.md; golden/hash.txt freezes them. */
#ifndef MAUL_CORE_HASH_H
#define MAUL_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The two odd multipliers. Frozen. */
#define MCORE_HASH_P1 UINT64_C(0x9E3779B97F4A7C15)
#define MCORE_HASH_P2 UINT64_C(0xD6E8FEB86659FD93)

/* Hashes size bytes at data (which may be NULL when size is 0). */
uint64_t mcore_Hash64(uint64_t seed, const void* data, size_t size);

/* Streaming form, for hashing an output field by field without building a
 * buffer: the same result as one mcore_Hash64 over the concatenated bytes
 * when the total size is known up front (it seeds the state). */
typedef struct mcore_Hasher {
    uint64_t state;
    uint8_t pending[8];
    uint32_t pendingCount;
} mcore_Hasher;

void mcore_HasherInit(mcore_Hasher* hasher, uint64_t seed, uint64_t totalSize);
void mcore_HasherAdd(mcore_Hasher* hasher, const void* data, size_t size);
uint64_t mcore_HasherFinish(const mcore_Hasher* hasher);

#ifdef __cplusplus
}
#endif

#endif
