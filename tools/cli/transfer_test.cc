// maul retarget and maul mirror: the map and clip files written are the
// bytes the library's builders make of the same inputs, the lines name every
// file, and refusals are told apart by exit status with the file, the
// builder's reason and the JSON's byte offset named.
#include "tools/cli/transfer.h"
#include "tools/cli/cli_testing.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/data_testing.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/retarget.h"
#include "maul/anim/retargetbuild.h"
#include "maul/anim/skeleton.h"

namespace {

std::string TempDir() { return MaulTestTempDir(); }

void WriteFile(const std::string& path, const void* bytes, size_t size) {
  ASSERT_TRUE(MaulWriteFile(path, bytes, size)) << path;
}

std::string ReadFile(const std::string& path) { return MaulReadFile(path); }

using Outcome = MaulCommandOutcome;

Outcome RunTool(int (*command)(FILE*, int, char**), std::vector<std::string> args) {
  return MaulRunCommand(command, std::move(args));
}

// The builder's output as a string.
std::string Built(maniBuilder* b) {
  size_t size = 0;
  void* bytes = maniFixtureCopyBuilt(b, 16, &size);
  std::string s(static_cast<const char*>(bytes), size);
  free(bytes);
  return s;
}

struct Rig {
  std::string dir;
  std::string skeletonPath, clipPath, otherClipPath;
  void* skeletonBytes = nullptr;
  size_t skeletonSize = 0;
  maniSkeleton skeleton;
  void* clipBytes = nullptr;
  size_t clipSize = 0;
  maniClip clip;

  explicit Rig(const char* name) {
    dir = TempDir() + "/" + name;
    std::string mk = "mkdir -p '" + dir + "'";
    EXPECT_EQ(system(mk.c_str()), 0);
    maniSkeletonSource src = maniFixtureMakeMirrorRig(7, 0, 2, 3, 0);
    skeletonBytes = maniFixtureBuildSkeleton(&src, &skeletonSize);
    maniFixtureFreeMirrorRig(&src);
    EXPECT_NE(skeletonBytes, nullptr);
    EXPECT_EQ(maniOpenSkeleton(skeletonBytes, skeletonSize, &skeleton).result, mani_success);
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 11, &skeleton, 0, maniLoopClamp, maniAdditiveNone);
    clipBytes = maniFixtureBuildClip(&fc.source, &clipSize);
    maniFixtureFreeClip(&fc);
    EXPECT_NE(clipBytes, nullptr);
    EXPECT_EQ(maniOpenClip(clipBytes, clipSize, &clip).result, mani_success);
    skeletonPath = dir + "/rig.mani";
    clipPath = dir + "/walk.mani";
    WriteFile(skeletonPath, skeletonBytes, skeletonSize);
    WriteFile(clipPath, clipBytes, clipSize);
    // A clip of another skeleton.
    maniSkeletonSource other = maniFixtureMakeSkeletonSource(3, 5, maniFixtureChain);
    size_t otherSize = 0;
    void* otherBytes = maniFixtureBuildSkeleton(&other, &otherSize);
    maniFixtureFreeSkeletonSource(&other);
    maniSkeleton otherSkeleton;
    EXPECT_EQ(maniOpenSkeleton(otherBytes, otherSize, &otherSkeleton).result, mani_success);
    maniFixtureClip oc;
    maniFixtureMakeClip(&oc, 12, &otherSkeleton, 0, maniLoopClamp, maniAdditiveNone);
    size_t ocSize = 0;
    void* ocBytes = maniFixtureBuildClip(&oc.source, &ocSize);
    maniFixtureFreeClip(&oc);
    otherClipPath = dir + "/other.mani";
    WriteFile(otherClipPath, ocBytes, ocSize);
    free(ocBytes);
    free(otherBytes);
  }
  ~Rig() {
    free(skeletonBytes);
    free(clipBytes);
  }
};

const char kMirrorJson[] =
    "{\n  \"format\": \"maul-anim mirror map\",\n  \"version\": 1,\n  \"axis\": \"x\",\n"
    "  \"rules\": [\n    {\"find\": \"Left\", \"place\": \"prefix\", \"replace\": \"Right\"},\n"
    "    {\"find\": \"Right\", \"place\": \"prefix\", \"replace\": \"Left\"}\n  ]\n}\n";

const char kRetargetJson[] =
    "{\"format\": \"maul-anim retarget map\", \"version\": 1, \"matchNames\": true}\n";

TEST(MaulMirror, WritesTheMapAndClipTheBuildersMake) {
  Rig rig("mirror-ok");
  std::string mapPath = rig.dir + "/lr.json";
  WriteFile(mapPath, kMirrorJson, sizeof kMirrorJson - 1);

  maniBuilderDef def = maniDefaultBuilderDef();
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  ASSERT_EQ(maniBuildMirrorMapJson(b, kMirrorJson, sizeof kMirrorJson - 1, &rig.skeleton).result, mani_success);
  std::string mapFile = Built(b);
  maniMirrorMap map;
  ASSERT_EQ(maniOpenMirrorMap(mapFile.data(), mapFile.size(), &map).result, mani_success);
  maniMirrorClipSource s = {&map, &rig.skeleton, &rig.clip};
  ASSERT_EQ(maniBuildMirroredClip(b, &s).result, mani_success);
  std::string clipFile = Built(b);
  maniDestroyBuilder(b);

  Outcome r = RunTool(maul_Mirror, {mapPath, "--skeleton", rig.skeletonPath, rig.clipPath, "--out", rig.dir});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(ReadFile(rig.dir + "/lr.mani"), mapFile);
  EXPECT_EQ(ReadFile(rig.dir + "/walk-mirrored.mani"), clipFile);
  EXPECT_NE(r.out.find("map   " + mapPath + " -> " + rig.dir + "/lr.mani"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("clip  " + rig.clipPath + " -> " + rig.dir + "/walk-mirrored.mani"), std::string::npos)
      << r.out;

  // The written map file is taken as a map too, and mirrors the same clip.
  std::string again = rig.dir + "/again";
  ASSERT_EQ(system(("mkdir -p '" + again + "'").c_str()), 0);
  r = RunTool(maul_Mirror, {rig.dir + "/lr.mani", "--skeleton", rig.skeletonPath, rig.clipPath, "--out", again});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(ReadFile(again + "/walk-mirrored.mani"), clipFile);
  EXPECT_EQ(r.out.find("map "), std::string::npos) << "a map file is read, not written again";

  // --json: one document naming both files.
  r = RunTool(maul_Mirror, {mapPath, "--skeleton", rig.skeletonPath, rig.clipPath, "--out", again, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.front(), '[');
  EXPECT_NE(r.out.find("\"kind\": \"map\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"kind\": \"clip\""), std::string::npos) << r.out;
}

TEST(MaulMirror, RefusalsNameTheFileAndReason) {
  Rig rig("mirror-bad");
  // JSON that does not follow the form: an unknown axis word, at its offset.
  std::string bad = kMirrorJson;
  size_t at = bad.find("\"x\"");
  bad.replace(at, 3, "\"w\"");
  std::string badPath = rig.dir + "/bad.json";
  WriteFile(badPath, bad.data(), bad.size());
  Outcome r = RunTool(maul_Mirror, {badPath, "--skeleton", rig.skeletonPath});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(badPath), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("reason Form"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at byte offset"), std::string::npos) << r.err;

  // A clip of another skeleton: the builder's MirrorClip reason, other 1.
  std::string mapPath = rig.dir + "/lr.json";
  WriteFile(mapPath, kMirrorJson, sizeof kMirrorJson - 1);
  r = RunTool(maul_Mirror, {mapPath, "--skeleton", rig.skeletonPath, rig.otherClipPath, "--out", rig.dir});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(rig.otherClipPath), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("reason MirrorClip"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("other 1"), std::string::npos) << r.err;

  // A skeleton file that does not open: its offset; a missing file: status 2.
  std::string trunc = rig.dir + "/trunc.mani";
  WriteFile(trunc, rig.skeletonBytes, 20);
  r = RunTool(maul_Mirror, {mapPath, "--skeleton", trunc});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("not a skeleton"), std::string::npos) << r.err;
  EXPECT_EQ(RunTool(maul_Mirror, {mapPath, "--skeleton", rig.dir + "/none.mani"}).status, 2);
  // Usage.
  EXPECT_EQ(RunTool(maul_Mirror, {mapPath}).status, 2);
  EXPECT_EQ(RunTool(maul_Mirror, {"--skeleton", rig.skeletonPath}).status, 2);
  EXPECT_EQ(RunTool(maul_Mirror, {mapPath, "--skeleton", rig.skeletonPath, "--bogus"}).status, 2);
}

TEST(MaulRetarget, WritesTheMapAndClipTheBuildersMake) {
  Rig rig("retarget-ok");
  std::string mapPath = rig.dir + "/same.json";
  WriteFile(mapPath, kRetargetJson, sizeof kRetargetJson - 1);

  maniBuilderDef def = maniDefaultBuilderDef();
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  ASSERT_EQ(maniBuildRetargetMapJson(b, kRetargetJson, sizeof kRetargetJson - 1, &rig.skeleton, &rig.skeleton)
                .result,
            mani_success);
  std::string mapFile = Built(b);
  maniRetargetMap map;
  ASSERT_EQ(maniOpenRetargetMap(mapFile.data(), mapFile.size(), &map).result, mani_success);
  maniRetargetClipSource s = {&map, &rig.skeleton, &rig.skeleton, &rig.clip};
  ASSERT_EQ(maniBuildRetargetedClip(b, &s).result, mani_success);
  std::string clipFile = Built(b);
  maniDestroyBuilder(b);

  Outcome r = RunTool(maul_Retarget, {mapPath, "--source", rig.skeletonPath, "--target", rig.skeletonPath,
                                  rig.clipPath, "--out", rig.dir});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(ReadFile(rig.dir + "/same.mani"), mapFile);
  EXPECT_EQ(ReadFile(rig.dir + "/walk-retargeted.mani"), clipFile);
  EXPECT_NE(r.out.find(rig.dir + "/walk-retargeted.mani"), std::string::npos) << r.out;
}

TEST(MaulRetarget, RefusalsNameTheFileAndReason) {
  Rig rig("retarget-bad");
  // Not JSON at all past its first brace: Json, at its byte offset.
  std::string badPath = rig.dir + "/bad.json";
  WriteFile(badPath, "{\"format\": ", 11);
  Outcome r = RunTool(maul_Retarget, {badPath, "--source", rig.skeletonPath, "--target", rig.skeletonPath});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("reason Json"), std::string::npos) << r.err;
  // A clip of another skeleton: RetargetClip, other 2.
  std::string mapPath = rig.dir + "/same.json";
  WriteFile(mapPath, kRetargetJson, sizeof kRetargetJson - 1);
  r = RunTool(maul_Retarget, {mapPath, "--source", rig.skeletonPath, "--target", rig.skeletonPath, rig.otherClipPath,
                          "--out", rig.dir});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("reason RetargetClip"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("other 2"), std::string::npos) << r.err;
  // A map file that does not open: its offset.
  std::string junk = rig.dir + "/junk.mani";
  WriteFile(junk, rig.skeletonBytes, rig.skeletonSize);  // a skeleton is not a map
  r = RunTool(maul_Retarget, {junk, "--source", rig.skeletonPath, "--target", rig.skeletonPath});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("not a retargeting map"), std::string::npos) << r.err;
  // Usage: the target is required.
  EXPECT_EQ(RunTool(maul_Retarget, {mapPath, "--source", rig.skeletonPath}).status, 2);
}

// maul graph: the JSON text maniWriteGraphJson writes for a blend of two
// clips, built by the tool with the clips given by name, is the file
// maniBuildGraph makes of the same source; a slot name without a clip and
// text that does not parse are refused with the reason and offset.
TEST(MaulGraph, BuildsTheFileTheSourceMakes) {
  Rig rig("graph-ok");
  maniGraphClipSource named[2] = {{"walk", 4, &rig.clip, nullptr}, {"run", 3, &rig.clip, nullptr}};
  maniGraphParameterSource params[2];
  memset(params, 0, sizeof params);
  params[0].name = "wa";
  params[0].nameLength = 2;
  params[0].type = maniGraphParameterFloat;
  params[0].value.number = 0.25f;
  params[1] = params[0];
  params[1].name = "wb";
  maniGraphNodeSource nodes[3];
  memset(nodes, 0, sizeof nodes);
  const uint32_t in[2] = {0, 1}, wp[2] = {0, 1};
  for (int k = 0; k < 2; ++k) {
    nodes[k].kind = maniGraphNodeClip;
    nodes[k].clip = (uint32_t)k;
    nodes[k].speed = k == 0 ? 1.0f : 1.5f;
  }
  nodes[2].kind = maniGraphNodeBlend;
  nodes[2].inputs = in;
  nodes[2].inputCount = 2;
  nodes[2].parameters = wp;
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &rig.skeleton;
  src.parameters = params;
  src.parameterCount = 2;
  src.clips = named;
  src.clipCount = 2;
  src.nodes = nodes;
  src.nodeCount = 3;
  src.output = 2;
  maniBuilderDef def = maniDefaultBuilderDef();
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  ASSERT_EQ(maniBuildGraph(b, &src).result, mani_success);
  const std::string direct = Built(b);
  ASSERT_EQ(maniWriteGraphJson(b, &src).result, mani_success);
  const std::string text = Built(b);
  maniDestroyBuilder(b);
  const std::string jsonPath = rig.dir + "/blend.json", outPath = rig.dir + "/blend.mani";
  WriteFile(jsonPath, text.data(), text.size());

  Outcome r = RunTool(maul_Graph, {jsonPath, "--skeleton", rig.skeletonPath, "--clip", "walk=" + rig.clipPath,
                                   "--clip", "run=" + rig.clipPath, "--out", outPath});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(ReadFile(outPath), direct);
  EXPECT_NE(r.out.find("2 parameters, 2 clip slots, 3 nodes"), std::string::npos) << r.out;
  r = RunTool(maul_Graph, {jsonPath, "--skeleton", rig.skeletonPath, "--clip", "walk=" + rig.clipPath, "--clip",
                           "run=" + rig.clipPath, "--out", outPath, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"nodes\": 3"), std::string::npos) << r.out;

  // The slot "run" with no clip given: refused, the file and reason named.
  r = RunTool(maul_Graph, {jsonPath, "--skeleton", rig.skeletonPath, "--clip", "walk=" + rig.clipPath});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(jsonPath), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("refused"), std::string::npos) << r.err;
  // Text cut short: Json at its byte offset.
  WriteFile(jsonPath, text.data(), text.size() / 2);
  r = RunTool(maul_Graph, {jsonPath, "--skeleton", rig.skeletonPath, "--clip", "walk=" + rig.clipPath, "--clip",
                           "run=" + rig.clipPath});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("reason Json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at byte offset"), std::string::npos) << r.err;
  // Usage: no skeleton; a --clip without NAME=.
  EXPECT_EQ(RunTool(maul_Graph, {jsonPath}).status, 2);
  EXPECT_EQ(RunTool(maul_Graph, {jsonPath, "--skeleton", rig.skeletonPath, "--clip", rig.clipPath}).status, 2);
}

}  // namespace
