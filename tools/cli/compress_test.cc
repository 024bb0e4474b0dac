// maul compress: the written file is the compressed clip maniCompressClip
// makes of the same inputs (same bytes), the report's lines are that call's
// report, the per-bone table has every bone, and refusals are told apart by
// exit status with the file and reason named.
#include "tools/cli/compress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/data_testing.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/skeleton.h"

namespace {

std::string TempDir() { return MaulTestTempDir(); }

void WriteFile(const std::string& path, const void* bytes, size_t size) {
  ASSERT_TRUE(MaulWriteFile(path, bytes, size)) << path;
}

std::string ReadFile(const std::string& path) { return MaulReadFile(path); }

struct Outcome {
  int status;
  std::string out;
};

Outcome Compress(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(&a[0]);
  char* buffer = nullptr;
  size_t length = 0;
  FILE* f = open_memstream(&buffer, &length);
  Outcome r;
  r.status = maul_Compress(f, static_cast<int>(argv.size()), argv.data());
  fclose(f);
  r.out.assign(buffer, length);
  free(buffer);
  return r;
}

struct Inputs {
  std::string skeletonPath, clipPath, otherSkeletonPath;
  void* skeletonBytes = nullptr;
  void* clipBytes = nullptr;
  size_t skeletonSize = 0, clipSize = 0;
  maniSkeleton skeleton{};
  maniClip clip{};
  Inputs() {
    maniSkeletonSource source = maniFixtureMakeSkeletonSource(31, 12, maniFixtureRandom);
    skeletonBytes = maniFixtureBuildSkeleton(&source, &skeletonSize);
    maniFixtureFreeSkeletonSource(&source);
    EXPECT_EQ(maniOpenSkeleton(skeletonBytes, skeletonSize, &skeleton).result, mani_success);
    maniFixtureClip fixture;
    maniFixtureMakeClip(&fixture, 5, &skeleton, MANI_FIXTURE_CLIP_ALL_BONES, maniLoopClamp, maniAdditiveNone);
    clipBytes = maniFixtureBuildClip(&fixture.source, &clipSize);
    maniFixtureFreeClip(&fixture);
    EXPECT_EQ(maniOpenClip(clipBytes, clipSize, &clip).result, mani_success);
    skeletonPath = TempDir() + "/compress-test-skeleton.mani";
    clipPath = TempDir() + "/compress-test-clip.mani";
    WriteFile(skeletonPath, skeletonBytes, skeletonSize);
    WriteFile(clipPath, clipBytes, clipSize);
    maniSkeletonSource other = maniFixtureMakeSkeletonSource(32, 12, maniFixtureRandom);
    size_t otherSize = 0;
    void* otherBytes = maniFixtureBuildSkeleton(&other, &otherSize);
    maniFixtureFreeSkeletonSource(&other);
    otherSkeletonPath = TempDir() + "/compress-test-other.mani";
    WriteFile(otherSkeletonPath, otherBytes, otherSize);
    free(otherBytes);
  }
  ~Inputs() {
    free(skeletonBytes);
    free(clipBytes);
  }
};

TEST(MaulCompress, WritesWhatTheCompressorBuildsAndItsReport) {
  Inputs in;
  maniCompressOptions options = maniDefaultCompressOptions();
  options.precision = 0.001f;
  maniBuilderDef def = maniDefaultBuilderDef();
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  std::vector<double> bones(12);
  maniCompressReport report{};
  report.bones = bones.data();
  report.boneCapacity = 12;
  ASSERT_EQ(maniCompressClip(b, &in.clip, &in.skeleton, &options, &report), mani_success);
  size_t size = 0;
  ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
  std::string expected(size, '\0');
  ASSERT_EQ(maniBuilder_CopyBuilt(b, &expected[0], size, &size), mani_success);
  maniDestroyBuilder(b);

  std::string out = TempDir() + "/compress-test-out.mani";
  Outcome r = Compress({in.clipPath, "--skeleton", in.skeletonPath, "--precision", "0.001", "--out", out});
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(ReadFile(out), expected);
  char line[128];
  snprintf(line, sizeof line, "  bytes              %llu -> %llu  ratio %.2f\n",
           static_cast<unsigned long long>(report.sizeBefore), static_cast<unsigned long long>(report.sizeAfter),
           report.ratio);
  EXPECT_NE(r.out.find(line), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("precision          0.001 at shell distance 0.03"), std::string::npos)
      << r.out;
  // Every bone has a row with its name.
  for (uint32_t i = 0; i < 12; ++i) {
    size_t n = 0;
    const char* name = maniSkeleton_GetBoneName(&in.skeleton, i, &n);
    char row[64];
    snprintf(row, sizeof row, "    %4u %.*s", i, static_cast<int>(n), name);
    EXPECT_NE(r.out.find(row), std::string::npos) << row << r.out;
  }
}

TEST(MaulCompress, DefaultOutputNameAndJson) {
  Inputs in;
  Outcome r = Compress({in.clipPath, "--skeleton", in.skeletonPath, "--json"});
  ASSERT_EQ(r.status, 0) << r.out;
  std::string out = TempDir() + "/compress-test-clip-compressed.mani";
  std::string bytes = ReadFile(out);
  ASSERT_FALSE(bytes.empty());
  void* aligned = aligned_alloc(16, (bytes.size() + 15) / 16 * 16);
  memcpy(aligned, bytes.data(), bytes.size());
  maniClip c;
  EXPECT_EQ(maniOpenClip(aligned, bytes.size(), &c).result, mani_success);
  EXPECT_TRUE(maniClip_IsCompressed(&c));
  free(aligned);
  EXPECT_NE(r.out.find("\"sizeAfter\": " + std::to_string(bytes.size())), std::string::npos) << r.out;
}

TEST(MaulCompress, Refusals) {
  Inputs in;
  // Usage: no skeleton, a tolerance at 0, below 0, not a number, an unknown option.
  EXPECT_EQ(Compress({in.clipPath}).status, 2);
  EXPECT_EQ(Compress({in.clipPath, "--skeleton", in.skeletonPath, "--precision", "0"}).status, 2);
  EXPECT_EQ(Compress({in.clipPath, "--skeleton", in.skeletonPath, "--shell", "-1"}).status, 2);
  EXPECT_EQ(Compress({in.clipPath, "--skeleton", in.skeletonPath, "--float-precision", "x"}).status, 2);
  EXPECT_EQ(Compress({in.clipPath, "--skeleton", in.skeletonPath, "--fast"}).status, 2);
  // A missing file is an I/O error; a clip of another skeleton, a skeleton that
  // is a clip, an already compressed clip are refusals.
  EXPECT_EQ(Compress({TempDir() + "/no-such-clip.mani", "--skeleton", in.skeletonPath}).status, 2);
  EXPECT_EQ(Compress({in.clipPath, "--skeleton", in.otherSkeletonPath}).status, 1);
  EXPECT_EQ(Compress({in.clipPath, "--skeleton", in.clipPath}).status, 1);
  std::string out = TempDir() + "/compress-test-twice.mani";
  ASSERT_EQ(Compress({in.clipPath, "--skeleton", in.skeletonPath, "--out", out}).status, 0);
  EXPECT_EQ(Compress({out, "--skeleton", in.skeletonPath, "--out", out + ".again"}).status, 1);
}

}  // namespace
