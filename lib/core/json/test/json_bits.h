// Bit access for the JSON number tests: Bits(x) of a binary64 or binary32,
// D(bits) and F(bits) back.
#ifndef MAUL_CORE_JSON_TEST_JSON_BITS_H
#define MAUL_CORE_JSON_TEST_JSON_BITS_H

#include <cstdint>
#include <cstring>

inline uint64_t Bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}
inline uint32_t Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
inline double D(uint64_t b) {
  double v;
  std::memcpy(&v, &b, 8);
  return v;
}
inline float F(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

#endif
