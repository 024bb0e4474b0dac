// The conformance framework and the frozen generator it builds inputs from.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include "conformance/framework/conformance.h"
#include "lib/core/hash.h"
#include "lib/core/rng.h"
#include "maul/anim/base.h"

namespace {

mconf_Run MakeRun(const char* suite, std::initializer_list<std::pair<const char*, uint64_t>> cases) {
  mconf_Run run;
  memset(&run, 0, sizeof run);
  run.suite = suite;
  for (auto& c : cases) mconf_Record(&run, c.first, c.second);
  return run;
}

TEST(Compare, MatchingRunHasNoProblems) {
  mconf_GoldenLine golden[] = {{"s", "a", 1}, {"s", "b", 2}, {"other", "a", 9}};
  mconf_Run run = MakeRun("s", {{"a", 1}, {"b", 2}});
  EXPECT_EQ(mconf_Compare(&run, golden, 3, nullptr), 0u);
  mconf_RunFree(&run);
}

TEST(Compare, CountsEachKindOfProblem) {
  mconf_GoldenLine golden[] = {{"s", "a", 1}, {"s", "b", 2}, {"s", "gone", 3}};
  // b differs, gone missing, new has no golden line, a recorded twice.
  mconf_Run run = MakeRun("s", {{"a", 1}, {"b", 5}, {"new", 4}, {"a", 1}});
  EXPECT_EQ(mconf_Compare(&run, golden, 3, nullptr), 4u);
  // The report names the cases.
  char buf[4096] = {0};
  FILE* f = fmemopen(buf, sizeof buf - 1, "w");
  ASSERT_NE(f, nullptr);
  mconf_Compare(&run, golden, 3, f);
  fclose(f);
  std::string report(buf);
  EXPECT_NE(report.find("case b differs"), std::string::npos) << report;
  EXPECT_NE(report.find("golden case gone was not recorded"), std::string::npos) << report;
  EXPECT_NE(report.find("case new has no golden line"), std::string::npos) << report;
  EXPECT_NE(report.find("case a recorded twice"), std::string::npos) << report;
  mconf_RunFree(&run);
}

TEST(Compare, AnEmptyRunAgainstGoldenLinesFails) {
  mconf_GoldenLine golden[] = {{"s", "a", 1}};
  mconf_Run run = MakeRun("s", {});
  EXPECT_EQ(mconf_Compare(&run, golden, 1, nullptr), 1u);
  mconf_RunFree(&run);
}

TEST(WriteRun, GoldenFormat) {
  mconf_Run run = MakeRun("s", {{"case-1", 0x0123456789abcdefull}, {"x.y_z", 0}});
  char buf[256] = {0};
  FILE* f = fmemopen(buf, sizeof buf - 1, "w");
  mconf_WriteRun(&run, f);
  fclose(f);
  EXPECT_STREQ(buf, "case-1 0123456789abcdef\nx.y_z 0000000000000000\n");
  mconf_RunFree(&run);
}

TEST(Certificate, ChangesWithAnyCaseOrSuiteName) {
  mconf_Run a[2] = {MakeRun("s", {{"a", 1}, {"b", 2}}), MakeRun("t", {{"a", 3}})};
  uint64_t base = mconf_Certificate(a, 2);
  EXPECT_EQ(base, mconf_Certificate(a, 2));
  a[1].cases[0].hash = 4;
  EXPECT_NE(mconf_Certificate(a, 2), base);
  a[1].cases[0].hash = 3;
  a[1].suite = "u";
  EXPECT_NE(mconf_Certificate(a, 2), base);
  a[1].suite = "t";
  EXPECT_NE(mconf_Certificate(a, 1), base);
  for (auto& r : a) mconf_RunFree(&r);
}

TEST(Bytes, LittleEndianFields) {
  mconf_Bytes b = {};
  mconf_BytesU32(&b, 0x04030201u);
  mconf_BytesU64(&b, 0x0C0B0A0908070605ull);
  mconf_BytesF32(&b, 1.0f);  // 0x3F800000
  ASSERT_EQ(b.size, 16u);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(b.data[i], i + 1);
  EXPECT_EQ(b.data[12], 0x00);
  EXPECT_EQ(b.data[15], 0x3F);
  // Every NaN is one NaN; infinities and zeros keep their bits.
  mconf_BytesReset(&b);
  const uint32_t nans[] = {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7FC12345u};
  for (uint32_t bits : nans) {
    float f;
    memcpy(&f, &bits, 4);
    mconf_BytesF32(&b, f);
  }
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(memcmp(b.data + 4 * i, "\x00\x00\xC0\x7F", 4), 0) << i;
  mconf_BytesReset(&b);
  mconf_BytesF32(&b, -INFINITY);
  mconf_BytesF32(&b, -0.0f);
  EXPECT_EQ(memcmp(b.data, "\x00\x00\x80\xFF\x00\x00\x00\x80", 8), 0);
  mconf_BytesReset(&b);
  mconf_BytesF64(&b, -NAN);
  EXPECT_EQ(memcmp(b.data, "\x00\x00\x00\x00\x00\x00\xF8\x7F", 8), 0);
  mconf_BytesFree(&b);
}

TEST(Registry, SuitesHaveUniqueNamesAndGoldenLines) {
  std::set<std::string> names;
  for (size_t i = 0; i < mconf_suiteCount; ++i) {
    EXPECT_TRUE(names.insert(mconf_suites[i].name).second) << mconf_suites[i].name;
    size_t lines = 0;
    for (size_t j = 0; j < mconf_goldenCount; ++j) lines += strcmp(mconf_golden[j].suite, mconf_suites[i].name) == 0;
    EXPECT_GT(lines, 0u) << "golden/" << mconf_suites[i].name << ".txt is empty";
  }
  // Every golden line belongs to a registered suite.
  for (size_t j = 0; j < mconf_goldenCount; ++j) EXPECT_NE(mconf_FindSuite(mconf_golden[j].suite), nullptr) << mconf_golden[j].suite;
}

// SplitMix64's published output for seed 1234567 (Vigna's xoshiro page, the
// reference C code's test): the generator is the published algorithm.
TEST(Rng, SplitMix64KnownAnswers) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 1234567);
  const uint64_t expected[] = {6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull,
                               4593380528125082431ull, 16408922859458223821ull};
  for (uint64_t e : expected) EXPECT_EQ(mcore_RngNext(&rng), e);
}

TEST(Rng, DerivedDrawsStayInRange) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 99);
  int counts[7] = {0};
  for (int i = 0; i < 70000; ++i) {
    float f = mcore_RngFloat01(&rng);
    ASSERT_GE(f, 0.0f);
    ASSERT_LT(f, 1.0f);
    double d = mcore_RngDouble01(&rng);
    ASSERT_GE(d, 0.0);
    ASSERT_LT(d, 1.0);
    uint32_t k = mcore_RngBelow(&rng, 7);
    ASSERT_LT(k, 7u);
    counts[k]++;
    float r = mcore_RngFloatRange(&rng, -2.0f, 3.0f);
    ASSERT_GE(r, -2.0f);
    ASSERT_LE(r, 3.0f);
  }
  for (int c : counts) {  // 10000 expected each; 5 sigma is about 470
    EXPECT_GT(c, 9500);
    EXPECT_LT(c, 10500);
  }
  EXPECT_EQ(mcore_RngBelow(&rng, 0), 0u);
  EXPECT_EQ(mcore_RngBelow(&rng, 1), 0u);
}

TEST(Hasher, StreamingEqualsOneShotAtEverySplit) {
  uint8_t data[100];
  for (int i = 0; i < 100; ++i) data[i] = (uint8_t)(i * 37 + 11);
  for (size_t n = 0; n <= 100; n += 3) {
    for (size_t split = 0; split <= n; ++split) {
      mcore_Hasher h;
      mcore_HasherInit(&h, 77, n);
      mcore_HasherAdd(&h, data, split);
      mcore_HasherAdd(&h, data + split, n - split);
      ASSERT_EQ(mcore_HasherFinish(&h), maniHash64(77, data, (int64_t)n)) << n << " " << split;
    }
  }
}

}  // namespace
