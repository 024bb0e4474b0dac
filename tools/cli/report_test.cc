// maul report: the page is self-contained (no external reference), holds one
// picture per file kind it knows and the easings' pictures, its compression
// chart's worst error is the shell error recomputed here, and usage and
// unreadable files are refused.
#include "tools/cli/report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/data_testing.h"
#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/skeleton.h"

namespace {

std::string Dir() { return MaulTestTempDir(); }

void Write(const std::string& path, const void* bytes, size_t size) {
  ASSERT_TRUE(MaulWriteFile(path, bytes, size)) << path;
}

std::string Read(const std::string& path) { return MaulReadFile(path); }

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

int Report(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(&a[0]);
  FILE* sink = tmpfile();
  int status = maul_Report(sink, static_cast<int>(argv.size()), argv.data());
  fclose(sink);
  return status;
}

struct Files {
  std::string skeleton, clip, compressed, other;
  Files() {
    maniSkeletonSource source = maniFixtureMakeSkeletonSource(41, 10, maniFixtureChain);
    size_t size = 0;
    void* bytes = maniFixtureBuildSkeleton(&source, &size);
    maniFixtureFreeSkeletonSource(&source);
    skeleton = Dir() + "/report-skeleton.mani";
    Write(skeleton, bytes, size);
    maniSkeleton s;
    EXPECT_EQ(maniOpenSkeleton(bytes, size, &s).result, mani_success);
    maniFixtureClip fixture;
    maniFixtureMakeClip(&fixture, 9, &s, MANI_FIXTURE_CLIP_ALL_BONES, maniLoopClamp, maniAdditiveNone);
    size_t clipSize = 0;
    void* clipBytes = maniFixtureBuildClip(&fixture.source, &clipSize);
    maniFixtureFreeClip(&fixture);
    clip = Dir() + "/report-clip.mani";
    Write(clip, clipBytes, clipSize);
    maniClip c;
    EXPECT_EQ(maniOpenClip(clipBytes, clipSize, &c).result, mani_success);
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = nullptr;
    EXPECT_EQ(maniCreateBuilder(&def, &b), mani_success);
    maniCompressOptions options = maniDefaultCompressOptions();
    maniCompressReport report{};
    EXPECT_EQ(maniCompressClip(b, &c, &s, &options, &report), mani_success);
    size_t compressedSize = 0;
    void* compressedBytes = maniFixtureCopyBuilt(b, 16, &compressedSize);
    compressed = Dir() + "/report-compressed.mani";
    Write(compressed, compressedBytes, compressedSize);
    free(compressedBytes);
    maniDestroyBuilder(b);
    free(clipBytes);
    free(bytes);
    other = Dir() + "/report-not-maul.bin";
    Write(other, "not a maul file, just bytes long enough to be read as a header......", 68);
  }
};

TEST(MaulReport, OnePagePicturesEveryFile) {
  Files f;
  std::string page = Dir() + "/report.html";
  // A file that is not Maul's is listed and makes the status 1; the page is still written.
  ASSERT_EQ(Report({f.skeleton, f.clip, f.compressed, f.other, "--out", page}), 1);
  std::string html = Read(page);
  ASSERT_FALSE(html.empty());
  // Self-contained: no external scripts, stylesheets, images or links.
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  EXPECT_EQ(Count(html, "data-kind=\"skeleton\""), 1u);
  EXPECT_EQ(Count(html, "data-kind=\"clip-pose\""), 2u);    // both clips drawn
  EXPECT_EQ(Count(html, "data-kind=\"clip-curves\""), 2u);
  EXPECT_EQ(Count(html, "data-kind=\"compression\""), 1u);  // the compressed clip against the full one
  EXPECT_EQ(Count(html, "data-kind=\"compression-bones\""), 1u);
  EXPECT_EQ(Count(html, "data-kind=\"easing\""), 3u);
  EXPECT_EQ(Count(html, "data-kind=\"easing-error\""), 3u);
  EXPECT_NE(html.find("not a Maul file"), std::string::npos);
  // The compressor's guarantee, measured again by the report: the worst shell error within the precision.
  const char* key = "shell error over the clip (shell 0.03): worst ";
  size_t at = html.find(key);
  ASSERT_NE(at, std::string::npos);
  double worstShell = atof(html.c_str() + at + strlen(key));
  EXPECT_GT(worstShell, 0.0);
  EXPECT_LE(worstShell, 0.0001 * (1 + 1e-6));
  // Every bone has its bar in the compression picture: 10 rects plus the chart frames.
  size_t bones = html.find("data-kind=\"compression-bones\"");
  size_t end = html.find("</svg>", bones);
  EXPECT_EQ(Count(html.substr(bones, end - bones), "<rect"), 10u);
  // The easings' worst errors against MPFR are printed and within the MPFR test's bounds (a few x 2^-53).
  for (const char* name : {"sine in: error against MPFR (worst ", "expo in: error against MPFR (worst ",
                           "circ in: error against MPFR (worst "}) {
    size_t at = html.find(name);
    ASSERT_NE(at, std::string::npos) << name;
    double worst = atof(html.c_str() + at + strlen(name));
    EXPECT_LT(worst, 8.0) << name;
  }
}

// A learned model with its skeleton: its counts, a rollout of five poses
// (front and side views: ten bone groups) and the rollout's curves (the root
// speed and the first latent values: 1 + 4 lines over 61 steps); without its
// skeleton it is named, not drawn.
TEST(MaulReport, LearnedModelRollout) {
  const uint64_t seed = 7;
  maniSkeletonSource source = maniFixtureMakeSkeletonSource(seed, 12, maniFixtureRandom);
  size_t size = 0;
  void* bytes = maniFixtureBuildSkeleton(&source, &size);
  maniFixtureFreeSkeletonSource(&source);
  ASSERT_NE(bytes, nullptr);
  std::string skeleton = Dir() + "/report-learned-skeleton.mani";
  Write(skeleton, bytes, size);
  free(bytes);
  size_t modelSize = 0;
  void* model = maniFixtureBuildLearnedModel(seed, 8, 0, &modelSize);
  ASSERT_NE(model, nullptr);
  std::string modelPath = Dir() + "/report-learned-model.mani";
  Write(modelPath, model, modelSize);
  free(model);
  std::string page = Dir() + "/report-learned.html";
  ASSERT_EQ(Report({skeleton, modelPath, "--out", page}), 0);
  std::string html = Read(page);
  EXPECT_NE(html.find("4 latent values, 2 Projectors, 1 float tracks, 2 events, binary32 weights, 30 steps a second"),
            std::string::npos);
  ASSERT_EQ(Count(html, "data-kind=\"learned-rollout\""), 1u);
  ASSERT_EQ(Count(html, "data-kind=\"learned-curves\""), 1u);
  EXPECT_EQ(html.find("The rollout stopped"), std::string::npos);
  size_t at = html.find("data-kind=\"learned-rollout\"");
  std::string rollout = html.substr(at, html.find("</svg>", at) - at);
  EXPECT_EQ(Count(rollout, "class=\"bones\""), 10u);
  at = html.find("data-kind=\"learned-curves\"");
  std::string curves = html.substr(at, html.find("</svg>", at) - at);
  EXPECT_EQ(Count(curves, "<polyline"), 5u);
  // 61 points a line.
  size_t line = curves.find("points=\"");
  ASSERT_NE(line, std::string::npos);
  std::string points = curves.substr(line, curves.find("\"", line + 8) - line);
  EXPECT_EQ(Count(points, ","), 61u);

  page = Dir() + "/report-learned-alone.html";
  ASSERT_EQ(Report({modelPath, "--out", page}), 0);
  html = Read(page);
  EXPECT_EQ(Count(html, "data-kind=\"learned-rollout\""), 0u);
  EXPECT_NE(html.find("is not among the files: give it to draw the model"), std::string::npos);
}

TEST(MaulReport, ClipWithoutItsSkeletonIsNamedNotDrawn) {
  Files f;
  std::string page = Dir() + "/report-alone.html";
  ASSERT_EQ(Report({f.clip, "--out", page}), 0);
  EXPECT_EQ(Report({f.skeleton, f.clip, f.compressed, "--out", page + ".all"}), 0);
  std::string html = Read(page);
  EXPECT_NE(html.find("is not among the files"), std::string::npos);
  EXPECT_EQ(Count(html, "data-kind=\"clip-pose\""), 0u);
}

TEST(MaulReport, Refusals) {
  Files f;
  EXPECT_EQ(Report({f.skeleton}), 2);  // no --out
  EXPECT_EQ(Report({f.skeleton, "--out", Dir() + "/r.html", "--precision", "0"}), 2);
  EXPECT_EQ(Report({Dir() + "/no-such-file.mani", "--out", Dir() + "/r.html"}), 2);
  EXPECT_EQ(Report({f.skeleton, "--out", "/nonexistent-dir/r.html"}), 2);
  // A damaged file: listed, the status says it was refused.
  std::string bytes = Read(f.skeleton);
  bytes[bytes.size() - 1] ^= 0x40;
  std::string damaged = Dir() + "/report-damaged.mani";
  Write(damaged, bytes.data(), bytes.size());
  EXPECT_EQ(Report({damaged, "--out", Dir() + "/r2.html"}), 1);
}

}  // namespace
