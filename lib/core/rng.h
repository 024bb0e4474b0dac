/* lib/core: the seeded generator conformance suites and seeded features
 * (the rough easing, the trainer's initialization and shuffles) draw from.
 * SplitMix64 (Steele, Lea and Flood 2014) with its published constants; the
 * derived draws below are integer and exact-float only, so every platform
 * gives the same bits. Frozen: docs/determinism.md, golden/rng.txt. */
#ifndef MAUL_CORE_RNG_H
#define MAUL_CORE_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mcore_Rng {
    uint64_t state;
} mcore_Rng;

/* Starts a generator at a seed (any value, 0 included). */
void mcore_RngSeed(mcore_Rng* rng, uint64_t seed);

/* The next 64 random bits. */
uint64_t mcore_RngNext(mcore_Rng* rng);

/* A uniform integer in [0, bound), bound >= 1, without modulo bias
 * (Lemire's multiply-and-reject, exact in integers). 0 for a bound of 0. */
uint32_t mcore_RngBelow(mcore_Rng* rng, uint32_t bound);

/* A uniform binary32 in [0, 1): the top 24 bits times 2^-24, exact. */
float mcore_RngFloat01(mcore_Rng* rng);

/* A uniform binary64 in [0, 1): the top 53 bits times 2^-53, exact. */
double mcore_RngDouble01(mcore_Rng* rng);

/* lo + (hi - lo) * u for u from mcore_RngFloat01: one subtraction, one
 * multiplication and one addition in binary32, in that order. */
float mcore_RngFloatRange(mcore_Rng* rng, float lo, float hi);

/* A binary32 with 32 uniformly random bits: every pattern (NaNs, infinities,
 * subnormals) equally likely, for edge-heavy tests. */
float mcore_RngFloatBits(mcore_Rng* rng);

#ifdef __cplusplus
}
#endif

#endif
