/* base.h: version, result names and the hash. */
#include "maul/anim/base.h"

#include "lib/core/hash.h"

maniVersion maniGetVersion(void) {
    maniVersion v = {MANI_VERSION_MAJOR, MANI_VERSION_MINOR, MANI_VERSION_PATCH};
    return v;
}

uint64_t maniHash64(uint64_t seed, const void* data, int64_t byteCount) {
    if (data == NULL || byteCount < 1) return mcore_Hash64(seed, NULL, 0);
    return mcore_Hash64(seed, data, (size_t)byteCount);
}

const char* maniGetResultName(maniResult result) {
    switch (result) {
        case mani_success: return "mani_success";
        case mani_errorInvalid: return "mani_errorInvalid";
        case mani_errorFormat: return "mani_errorFormat";
        case mani_errorVersion: return "mani_errorVersion";
        case mani_errorCapacity: return "mani_errorCapacity";
        case mani_errorLimit: return "mani_errorLimit";
        case mani_errorBusy: return "mani_errorBusy";
    }
    return "mani_unknownResult";
}
