// lib/core/json numbers, dense and without MPFR (so the scalar leg runs it
// too; json_number_mpfr_test adds "shortest" and "nearest" on the host):
// every 1021st binary32 bit pattern (MAUL_JSON_SWEEP_STRIDE sets it; 1 for all
// 2^32) and 2^19 seeded binary64 patterns written and read back to the same
// bits, and each text no longer than its format allows (9 and 17 digits).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "lib/core/json/json.h"
#include "lib/core/rng.h"
}

namespace {

int SignificantDigits(const char* s, size_t n) {
  int digits = 0, started = 0, trailingZeros = 0;
  for (size_t i = 0; i < n && s[i] != 'e'; ++i) {
    if (s[i] < '0' || s[i] > '9') continue;
    if (s[i] != '0') started = 1;
    if (!started) continue;
    ++digits;
    trailingZeros = s[i] == '0' ? trailingZeros + 1 : 0;
  }
  return digits - trailingZeros;
}

void Binary32Half(uint32_t half) {
  const char* env = std::getenv("MAUL_JSON_SWEEP_STRIDE");
  const uint64_t stride = env != nullptr && *env ? std::strtoull(env, nullptr, 10) : 1021;
  const uint64_t lo = static_cast<uint64_t>(half) << 31, hi = lo + (UINT64_C(1) << 31);
  uint64_t failures = 0;
  for (uint64_t b = lo; b < hi; b += stride) {
    const uint32_t bits = static_cast<uint32_t>(b);
    float v;
    std::memcpy(&v, &bits, 4);
    if (!(v - v == 0)) continue;
    char text[MCORE_JSON_NUMBER_CHARS];
    const size_t n = mcore_JsonFormatFloat(v, text);
    float back = 0;
    uint32_t backBits = ~bits;
    if (mcore_JsonParseFloat(text, n, &back) == mcore_jsonOk) std::memcpy(&backBits, &back, 4);
    if ((backBits != bits || SignificantDigits(text, n) > 9) && ++failures <= 10)
      ADD_FAILURE() << std::hex << bits << " " << std::string(text, n);
  }
  EXPECT_EQ(failures, 0u);
}

TEST(JsonNumberSweep, Binary32Low) { Binary32Half(0); }
TEST(JsonNumberSweep, Binary32High) { Binary32Half(1); }

TEST(JsonNumberSweep, Binary64) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 0xD0B1E);
  uint64_t failures = 0;
  for (int i = 0; i < (1 << 19); ++i) {
    uint64_t bits = mcore_RngNext(&rng);
    if (i % 4 == 1) bits &= 0x800FFFFFFFFFFFFFull;                     // subnormals
    if (i % 4 == 2) bits = (bits & 0xFFF0000000000000ull) | (bits & 7);  // near powers of two
    double v;
    std::memcpy(&v, &bits, 8);
    if (!(v - v == 0)) continue;
    char text[MCORE_JSON_NUMBER_CHARS];
    const size_t n = mcore_JsonFormatDouble(v, text);
    double back = 0;
    uint64_t backBits = ~bits;
    if (mcore_JsonParseDouble(text, n, &back) == mcore_jsonOk) std::memcpy(&backBits, &back, 8);
    if ((backBits != bits || SignificantDigits(text, n) > 17) && ++failures <= 10)
      ADD_FAILURE() << std::hex << bits << " " << std::string(text, n);
  }
  EXPECT_EQ(failures, 0u);
}

}  // namespace
