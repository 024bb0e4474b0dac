/* Suite "rng": freezes the seeded generator (lib/core/rng.h) and each of its
 * derived draws, which every other suite builds its inputs from. */
#include <stdio.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/core/rng.h"

void mconf_SuiteRng(mconf_Run* run);

void mconf_SuiteRng(mconf_Run* run) {
    const uint64_t seeds[] = {0, 1, 1234567, UINT64_C(0xFFFFFFFFFFFFFFFF)};
    const uint32_t bounds[] = {1, 2, 3, 7, 10, 1000, 65536, 2147483649u, 4294967295u};
    mconf_Bytes b = {0};
    char name[64];
    mcore_Rng rng;
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; ++s) {
        mcore_RngSeed(&rng, seeds[s]);
        for (int i = 0; i < 4096; ++i) mconf_BytesU64(&b, mcore_RngNext(&rng));
        snprintf(name, sizeof name, "seed%zu-next", s);
        mconf_RecordBytes(run, name, &b);

        mcore_RngSeed(&rng, seeds[s]);
        for (int i = 0; i < 4096; ++i) mconf_BytesF32(&b, mcore_RngFloat01(&rng));
        snprintf(name, sizeof name, "seed%zu-float01", s);
        mconf_RecordBytes(run, name, &b);

        mcore_RngSeed(&rng, seeds[s]);
        for (int i = 0; i < 4096; ++i) mconf_BytesF64(&b, mcore_RngDouble01(&rng));
        snprintf(name, sizeof name, "seed%zu-double01", s);
        mconf_RecordBytes(run, name, &b);

        mcore_RngSeed(&rng, seeds[s]);
        for (int i = 0; i < 4096; ++i) mconf_BytesF32(&b, mcore_RngFloatRange(&rng, -3.5f, 1e3f));
        snprintf(name, sizeof name, "seed%zu-range", s);
        mconf_RecordBytes(run, name, &b);

        mcore_RngSeed(&rng, seeds[s]);
        for (int i = 0; i < 4096; ++i) { /* raw bits: this draw's NaNs are the point */
            float f = mcore_RngFloatBits(&rng);
            uint32_t bits;
            memcpy(&bits, &f, 4);
            mconf_BytesU32(&b, bits);
        }
        snprintf(name, sizeof name, "seed%zu-floatbits", s);
        mconf_RecordBytes(run, name, &b);

        for (size_t k = 0; k < sizeof bounds / sizeof bounds[0]; ++k) {
            mcore_RngSeed(&rng, seeds[s]);
            for (int i = 0; i < 1024; ++i) mconf_BytesU32(&b, mcore_RngBelow(&rng, bounds[k]));
            snprintf(name, sizeof name, "seed%zu-below%u", s, bounds[k]);
            mconf_RecordBytes(run, name, &b);
        }
    }
    mconf_BytesFree(&b);
}
