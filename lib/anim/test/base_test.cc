// base.h: version, backend, CPU check, result names, and maniHash64 against
// an independent implementation written from docs/determinism.md.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "maul/anim/base.h"

namespace {

TEST(Version, LinkedMatchesHeaders) {
  maniVersion v = maniGetVersion();
  EXPECT_EQ(v.major, (uint32_t)MANI_VERSION_MAJOR);
  EXPECT_EQ(v.minor, (uint32_t)MANI_VERSION_MINOR);
  EXPECT_EQ(v.patch, (uint32_t)MANI_VERSION_PATCH);
  EXPECT_EQ(MANI_VERSION, MANI_VERSION_MAJOR * 10000 + MANI_VERSION_MINOR * 100 + MANI_VERSION_PATCH);
  EXPECT_EQ(MANI_ABI_VERSION, (uint32_t)((MANI_VERSION_MAJOR << 16) | MANI_VERSION_MINOR));
}

TEST(Backend, NameIsTheConfiguredOne) {
  std::string name = maniGetSimdBackend();
#if defined(MAUL_TEST_EXPECT_BACKEND)
  EXPECT_EQ(name, MAUL_TEST_EXPECT_BACKEND);
#endif
  EXPECT_TRUE(name == "avx2" || name == "neon" || name == "scalar") << name;
#if defined(__aarch64__)
  EXPECT_NE(name, "avx2");
#elif defined(__x86_64__)
  EXPECT_NE(name, "neon");
#endif
}

TEST(Backend, CheckCpuReportsBackendAndAgrees) {
  const char* backend = nullptr;
  bool ok = maniCheckCpu(&backend);
  ASSERT_NE(backend, nullptr);
  EXPECT_STREQ(backend, maniGetSimdBackend());
  EXPECT_EQ(ok, maniIsCpuBackendSupported());
  EXPECT_EQ(maniCheckCpu(nullptr), ok);  // NULL backend is allowed
  // Every machine this project tests on runs its own build: the x86-64 CI
  // machines have AVX2 and FMA, and qemu-aarch64 has AdvSIMD.
  EXPECT_TRUE(ok);
}

TEST(ResultNames, EveryCodeHasItsName) {
  struct { maniResult r; const char* name; } table[] = {
      {mani_success, "mani_success"},
      {mani_errorInvalid, "mani_errorInvalid"},
      {mani_errorFormat, "mani_errorFormat"},
      {mani_errorVersion, "mani_errorVersion"},
      {mani_errorCapacity, "mani_errorCapacity"},
      {mani_errorLimit, "mani_errorLimit"},
      {mani_errorBusy, "mani_errorBusy"},
  };
  for (auto& e : table) EXPECT_STREQ(maniGetResultName(e.r), e.name);
  EXPECT_STREQ(maniGetResultName((maniResult)7), "mani_unknownResult");
  EXPECT_STREQ(maniGetResultName((maniResult)-1), "mani_unknownResult");
}

TEST(ResultNames, FrozenValues) {
  // The stability rule: these values never change.
  EXPECT_EQ((int)mani_success, 0);
  EXPECT_EQ((int)mani_errorInvalid, 1);
  EXPECT_EQ((int)mani_errorFormat, 2);
  EXPECT_EQ((int)mani_errorVersion, 3);
  EXPECT_EQ((int)mani_errorCapacity, 4);
  EXPECT_EQ((int)mani_errorLimit, 5);
  EXPECT_EQ((int)mani_errorBusy, 6);
}

// An independent reading of the hash as docs/determinism.md writes it: words
// assembled byte by byte (little-endian, as on every supported host), not
// through memcpy.
uint64_t ReferenceHash(uint64_t seed, const uint8_t* p, uint64_t n) {
  const uint64_t P1 = 0x9E3779B97F4A7C15ull, P2 = 0xD6E8FEB86659FD93ull;
  uint64_t h = seed ^ (n * P1);
  uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; --b) w = (w << 8) | p[i + b];
    h ^= w;
    h *= P2;
    h ^= h >> 32;
  }
  for (; i < n; ++i) {
    h ^= p[i];
    h *= P1;
    h ^= h >> 32;
  }
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P1;
  h ^= h >> 32;
  return h;
}

TEST(Hash64, MatchesIndependentReadingAtEveryLengthAndAlignment) {
  std::vector<uint8_t> buf(300 + 8);
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = (uint8_t)(i * 131u + 7u);
  const uint64_t seeds[] = {0, 1, 0xFFFFFFFFFFFFFFFFull, 0x0123456789ABCDEFull};
  for (uint64_t seed : seeds)
    for (int start = 0; start < 8; ++start)
      for (int n = 0; n <= 300; ++n)
        ASSERT_EQ(maniHash64(seed, buf.data() + start, n), ReferenceHash(seed, buf.data() + start, n))
            << "seed " << seed << " start " << start << " n " << n;
}

TEST(Hash64, NullOrNonPositiveCountHashesAsEmpty) {
  uint8_t b[4] = {1, 2, 3, 4};
  uint64_t empty = maniHash64(5, nullptr, 0);
  EXPECT_EQ(empty, ReferenceHash(5, b, 0));
  EXPECT_EQ(maniHash64(5, nullptr, 100), empty);
  EXPECT_EQ(maniHash64(5, b, 0), empty);
  EXPECT_EQ(maniHash64(5, b, -1), empty);
  EXPECT_EQ(maniHash64(5, b, INT64_MIN), empty);
}

TEST(Hash64, EverySingleBitFlipChangesTheHash) {
  uint8_t b[40];
  for (int i = 0; i < 40; ++i) b[i] = (uint8_t)i;
  for (int n : {1, 7, 8, 9, 16, 40}) {
    uint64_t base = maniHash64(0, b, n);
    for (int bit = 0; bit < n * 8; ++bit) {
      b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      EXPECT_NE(maniHash64(0, b, n), base) << n << " " << bit;
      b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
  }
  // Length is part of the hash: trailing zero bytes differ from none.
  uint8_t z[16] = {0};
  for (int n = 0; n < 16; ++n) EXPECT_NE(maniHash64(0, z, n), maniHash64(0, z, n + 1));
  // The seed counts.
  EXPECT_NE(maniHash64(0, b, 8), maniHash64(1, b, 8));
}

}  // namespace
