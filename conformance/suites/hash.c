/* Suite "hash": freezes maniHash64 (docs/determinism.md) on every length from
 * 0 to 64, long inputs, several seeds and unaligned starts. */
#include <stdio.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/core/rng.h"
#include "maul/anim/base.h"

void mconf_SuiteHash(mconf_Run* run);

/* Input bytes from the generator, taken from each 64-bit draw low byte first
 * by shifts, so they are the same on any host. */
static void mconf_FillBytes(uint8_t* out, size_t n, uint64_t seed) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    uint64_t draw = 0;
    for (size_t i = 0; i < n; ++i) {
        if (i % 8 == 0) draw = mcore_RngNext(&rng);
        out[i] = (uint8_t)(draw >> (8 * (i % 8)));
    }
}

void mconf_SuiteHash(mconf_Run* run) {
    static uint8_t data[70000 + 8];
    static uint8_t shifted[70000 + 8];
    char name[96];
    const uint64_t seeds[] = {0, 1, UINT64_C(0xFFFFFFFFFFFFFFFF), UINT64_C(0x0123456789ABCDEF)};
    mconf_FillBytes(data, sizeof data, 42);

    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; ++s) {
        for (int n = 0; n <= 64; ++n) {
            snprintf(name, sizeof name, "seed%zu-len%d", s, n);
            mconf_Record(run, name, maniHash64(seeds[s], data, n));
        }
    }
    const int64_t longs[] = {127, 1000, 4096, 65536, 65537, 70000};
    for (size_t i = 0; i < sizeof longs / sizeof longs[0]; ++i) {
        for (size_t s = 0; s < 2; ++s) {
            snprintf(name, sizeof name, "seed%zu-long%lld", s, (long long)longs[i]);
            mconf_Record(run, name, maniHash64(seeds[s], data, longs[i]));
        }
    }
    /* The same bytes at every start from 1 to 7: the hash must not depend on
     * the address (each of these equals the aligned case of its length). */
    for (int start = 1; start < 8; ++start) {
        memcpy(shifted + start, data, 4096);
        for (int n = 0; n <= 64; n += 7) {
            snprintf(name, sizeof name, "unaligned%d-len%d", start, n);
            mconf_Record(run, name, maniHash64(0, shifted + start, n));
        }
        snprintf(name, sizeof name, "unaligned%d-len4096", start);
        mconf_Record(run, name, maniHash64(0, shifted + start, 4096));
    }
    /* Degenerate inputs: all zeros and all ones of each length up to 24. */
    uint8_t zeros[24] = {0}, ones[24];
    memset(ones, 0xFF, sizeof ones);
    for (int n = 0; n <= 24; ++n) {
        snprintf(name, sizeof name, "zeros-len%d", n);
        mconf_Record(run, name, maniHash64(0, zeros, n));
        snprintf(name, sizeof name, "ones-len%d", n);
        mconf_Record(run, name, maniHash64(0, ones, n));
    }
    mconf_Record(run, "null-data", maniHash64(7, NULL, 0));
    mconf_Record(run, "negative-count", maniHash64(7, data, -5));
}
