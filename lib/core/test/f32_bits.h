// Bit access for the binary32 tests, and their definition of a binary32
// function: the binary64 function's result rounded once, NaN canonical.
#ifndef MAUL_CORE_TEST_F32_BITS_H
#define MAUL_CORE_TEST_F32_BITS_H

#include <cstdint>
#include <cstring>

inline uint32_t BitsF(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
}
inline float FromBits(uint32_t u) {
    float v;
    std::memcpy(&v, &u, 4);
    return v;
}
inline float Rounded(double v) {
    float f = (float)v;
    return f != f ? FromBits(0x7FC00000u) : f;
}

#endif
