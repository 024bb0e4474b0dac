// maul inspect: the header fields read back as the container layout puts them,
// the open's verdict and first wrong offset as the kind's own open reports
// them, counts and the bone tree, text and JSON from the same fields.
#include "tools/cli/inspect.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/json/json.h"
#include "maul/anim/clip.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedbuild.h"
#include "maul/anim/skeleton.h"

namespace {

struct Output {
  std::string text;
  int status = -1;
};

Output Inspect(const void* bytes, size_t size, int json) {
  Output o;
  char* buffer = nullptr;
  size_t length = 0;
  FILE* f = open_memstream(&buffer, &length);
  o.status = maul_InspectBytes(f, "test.maul", bytes, size, json);
  fclose(f);
  o.text.assign(buffer, length);
  free(buffer);
  return o;
}

struct Skeleton {
  void* bytes = nullptr;
  size_t size = 0;
  maniSkeleton view{};
  explicit Skeleton(uint64_t seed, uint32_t bones) {
    maniSkeletonSource source = maniFixtureMakeSkeletonSource(seed, bones, maniFixtureRandom);
    bytes = maniFixtureBuildSkeleton(&source, &size);
    maniFixtureFreeSkeletonSource(&source);
    EXPECT_NE(bytes, nullptr);
    EXPECT_EQ(maniOpenSkeleton(bytes, size, &view).result, mani_success);
  }
  ~Skeleton() { free(bytes); }
};

std::string Hex(uint64_t v) {
  char text[17];
  snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

// The line "  key<padding> value" of the text report.
bool HasField(const std::string& text, const std::string& key, const std::string& value) {
  std::string pad = key.size() < 18 ? std::string(18 - key.size(), ' ') : std::string();
  return text.find("  " + key + pad + " " + value + "\n") != std::string::npos;
}

TEST(Inspect, SkeletonTextHasHeaderCountsAndTree) {
  Skeleton s(7, 9);
  Output o = Inspect(s.bytes, s.size, 0);
  ASSERT_EQ(o.status, 0) << o.text;
  const uint8_t* p = static_cast<const uint8_t*>(s.bytes);
  uint32_t format = p[8] | (p[9] << 8), abi = p[12] | (p[13] << 8) | (p[14] << 16);
  EXPECT_TRUE(HasField(o.text, "kind", "skeleton")) << o.text;
  EXPECT_TRUE(HasField(o.text, "format", std::to_string(format))) << o.text;
  EXPECT_TRUE(HasField(o.text, "written by ABI", std::to_string(abi))) << o.text;
  EXPECT_TRUE(HasField(o.text, "bytes", std::to_string(s.size))) << o.text;
  EXPECT_TRUE(HasField(o.text, "identity", Hex(maniSkeleton_GetIdentity(&s.view)))) << o.text;
  EXPECT_TRUE(HasField(o.text, "open", "accepted")) << o.text;
  EXPECT_TRUE(HasField(o.text, "bones", "9")) << o.text;
  // Every bone on its own line, indented two spaces per ancestor.
  for (uint32_t b = 0; b < 9; ++b) {
    uint32_t depth = 0;
    for (uint32_t q = maniSkeleton_GetParent(&s.view, b); q != MANI_NO_BONE; q = maniSkeleton_GetParent(&s.view, q))
      depth++;
    size_t n = 0;
    const char* name = maniSkeleton_GetBoneName(&s.view, b, &n);
    std::string line = "    " + std::string(depth * 2, ' ') + std::to_string(b) + " " + std::string(name, n) + "\n";
    EXPECT_NE(o.text.find(line), std::string::npos) << line << o.text;
  }
}

TEST(Inspect, JsonIsOneObjectWithTheSameFields) {
  Skeleton s(11, 5);
  Output o = Inspect(s.bytes, s.size, 1);
  ASSERT_EQ(o.status, 0);
  mcore_JsonToken tokens[256];
  mcore_JsonDoc doc;
  mcore_JsonResult r = mcore_JsonRead(reinterpret_cast<const uint8_t*>(o.text.data()), o.text.size(), tokens, 256,
                                      &doc);
  ASSERT_EQ(r.reason, mcore_jsonOk) << o.text;
  uint32_t kind = mcore_JsonFind(&doc, 0, "kind", 4);
  ASSERT_NE(kind, MCORE_JSON_NONE);
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, kind, "skeleton", 8));
  uint32_t identity = mcore_JsonFind(&doc, 0, "identity", 8);
  ASSERT_NE(identity, MCORE_JSON_NONE);
  std::string hex = Hex(maniSkeleton_GetIdentity(&s.view));
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, identity, hex.c_str(), 16));
  uint32_t bones = mcore_JsonFind(&doc, 0, "bones", 5);
  ASSERT_NE(bones, MCORE_JSON_NONE);
  uint64_t count = 0;
  ASSERT_EQ(mcore_JsonGetUint64(&doc, bones, &count), mcore_jsonOk);
  EXPECT_EQ(count, 5u);
}

TEST(Inspect, RefusedFileReportsTheOpensOffset) {
  Skeleton s(3, 6);
  // A byte past the header changed: the identity no longer matches, or a
  // section's check fails; either way the report carries the open's offset.
  std::string copy(static_cast<const char*>(s.bytes), s.size);
  copy[s.size - 1] ^= 0x5a;
  void* patched = aligned_alloc(16, (s.size + 15) / 16 * 16);
  memcpy(patched, copy.data(), s.size);
  maniSkeleton view;
  maniFileResult expected = maniOpenSkeleton(patched, s.size, &view);
  ASSERT_NE(expected.result, mani_success);
  Output o = Inspect(patched, s.size, 0);
  free(patched);
  EXPECT_EQ(o.status, 1);
  EXPECT_TRUE(HasField(o.text, "open", "refused")) << o.text;
  EXPECT_TRUE(HasField(o.text, "result", maniGetResultName(expected.result))) << o.text;
  EXPECT_TRUE(HasField(o.text, "offset", std::to_string(expected.offset))) << o.text;
}

TEST(Inspect, BytesThatAreNoMaulFile) {
  alignas(16) uint8_t bytes[80] = {'g', 'l', 'T', 'F'};
  Output o = Inspect(bytes, sizeof bytes, 0);
  EXPECT_EQ(o.status, 1);
  EXPECT_TRUE(HasField(o.text, "kind", "not a Maul file")) << o.text;
  Output shortOne = Inspect(bytes, 10, 1);
  EXPECT_EQ(shortOne.status, 1);
  EXPECT_NE(shortOne.text.find("shorter than a container header"), std::string::npos) << shortOne.text;
}

TEST(Inspect, ClipCountsAreTheClipsOwn) {
  Skeleton s(5, 4);
  maniFixtureClip clip;
  maniFixtureMakeClip(&clip, 21, &s.view, MANI_FIXTURE_CLIP_TRACKS, maniLoopRepeat, maniAdditiveNone);
  size_t size = 0;
  void* bytes = maniFixtureBuildClip(&clip.source, &size);
  ASSERT_NE(bytes, nullptr);
  maniClip view;
  ASSERT_EQ(maniOpenClip(bytes, size, &view).result, mani_success);
  Output o = Inspect(bytes, size, 0);
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_TRUE(HasField(o.text, "kind", "clip")) << o.text;
  EXPECT_TRUE(HasField(o.text, "loop", "repeat")) << o.text;
  EXPECT_TRUE(HasField(o.text, "samples", std::to_string(maniClip_GetSampleCount(&view)))) << o.text;
  EXPECT_TRUE(HasField(o.text, "float tracks", std::to_string(clip.source.floatTrackCount))) << o.text;
  EXPECT_TRUE(HasField(o.text, "events", std::to_string(clip.source.eventCount))) << o.text;
  EXPECT_TRUE(HasField(o.text, "skeleton", Hex(maniSkeleton_GetIdentity(&s.view)))) << o.text;
  free(bytes);
  maniFixtureFreeClip(&clip);
}

// A learned model: its counts and identities as the open gives them, the
// fixture's second Projector's tag filter among the list.
TEST(Inspect, LearnedModelCountsAndProjectors) {
  size_t size = 0;
  void* bytes = maniFixtureBuildLearnedModel(5, 8, maniLearnedWeights16, &size);
  ASSERT_NE(bytes, nullptr);
  maniLearnedModel m;
  ASSERT_EQ(maniOpenLearnedModel(bytes, size, &m).result, mani_success);
  Output o = Inspect(bytes, size, 0);
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_TRUE(HasField(o.text, "kind", "learned model")) << o.text;
  EXPECT_TRUE(HasField(o.text, "open", "accepted")) << o.text;
  EXPECT_TRUE(HasField(o.text, "bones", "12")) << o.text;
  EXPECT_TRUE(HasField(o.text, "latent values", "4")) << o.text;
  EXPECT_TRUE(HasField(o.text, "float tracks", "1")) << o.text;
  EXPECT_TRUE(HasField(o.text, "events", "2")) << o.text;
  EXPECT_TRUE(HasField(o.text, "scaled bones", "2")) << o.text;
  EXPECT_TRUE(HasField(o.text, "weights", "16-bit")) << o.text;
  EXPECT_TRUE(HasField(o.text, "projectors", std::to_string(m.projectorCount))) << o.text;
  EXPECT_TRUE(HasField(o.text, "database", Hex(maniLearnedModel_GetDatabaseIdentity(&m)))) << o.text;
  EXPECT_NE(o.text.find("1 required 00000001 excluded 00000004"), std::string::npos) << o.text;
  // Another format version: refused.
  static_cast<uint8_t*>(bytes)[8] ^= 1;
  o = Inspect(bytes, size, 0);
  EXPECT_EQ(o.status, 1) << o.text;
  free(bytes);
}

TEST(Inspect, CommandStatusAndUsage) {
  char* noFile[] = {const_cast<char*>("/nonexistent/maul-inspect-test")};
  FILE* sink = tmpfile();
  EXPECT_EQ(maul_Inspect(sink, 1, noFile), 2);
  char* json[] = {const_cast<char*>("--json")};
  EXPECT_EQ(maul_Inspect(sink, 1, json), 2);
  EXPECT_EQ(maul_Inspect(sink, 0, nullptr), 2);
  fclose(sink);
}

}  // namespace
