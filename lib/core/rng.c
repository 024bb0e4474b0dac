#include "lib/core/rng.h"

#include <string.h>

void mcore_RngSeed(mcore_Rng* rng, uint64_t seed) { rng->state = seed; }

uint64_t mcore_RngNext(mcore_Rng* rng) {
    uint64_t z = (rng->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint32_t mcore_RngBelow(mcore_Rng* rng, uint32_t bound) {
    if (bound == 0) return 0;
    /* 32 random bits times the bound; reject the low products that would
     * make some values more likely (threshold = 2^32 mod bound). */
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint64_t m = (uint64_t)(uint32_t)(mcore_RngNext(rng) >> 32) * bound;
        if ((uint32_t)m >= threshold) return (uint32_t)(m >> 32);
    }
}

float mcore_RngFloat01(mcore_Rng* rng) {
    return (float)(mcore_RngNext(rng) >> 40) * (1.0f / 16777216.0f);
}

double mcore_RngDouble01(mcore_Rng* rng) {
    return (double)(mcore_RngNext(rng) >> 11) * (1.0 / 9007199254740992.0);
}

float mcore_RngFloatRange(mcore_Rng* rng, float lo, float hi) {
    float u = mcore_RngFloat01(rng);
    float span = hi - lo;
    float scaled = span * u;
    return lo + scaled;
}

float mcore_RngFloatBits(mcore_Rng* rng) {
    uint32_t bits = (uint32_t)(mcore_RngNext(rng) >> 32);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}
