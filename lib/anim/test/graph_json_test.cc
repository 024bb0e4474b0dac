// The graph's JSON text form (graphbuild.h): maniWriteGraphJson's text
// against one written out by hand from the form, every left-out member
// reading as its default (the file equal to the one of the text giving it),
// every refusal at its byte offset (found in the text by the test), and
// write -> build -> write a fixed point on seeded graphs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lib/anim/src/build/graph_json_internal.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"

namespace {

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s, maniAdditiveBasis additive = maniAdditiveNone) {
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, seed, s, 0, maniLoopClamp, additive);
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&fc.source, &size);
    EXPECT_NE(bytes, nullptr);
    file.Assign(bytes, size);
    free(bytes);
    maniFixtureFreeClip(&fc);
    EXPECT_EQ(maniOpenClip(file.data(), file.size, &c).result, mani_success);
  }
};

std::string Text(Builder& b) {
  size_t size = 0;
  EXPECT_EQ(maniBuilder_CopyBuilt(b.b, nullptr, 0, &size), mani_errorCapacity);
  std::string s(size, '\0');
  EXPECT_EQ(maniBuilder_CopyBuilt(b.b, &s[0], size, &size), mani_success);
  return s;
}

std::vector<uint8_t> Bytes(Builder& b) {
  File f = b.Built();
  return std::vector<uint8_t>(f.data(), f.data() + f.size);
}

// A mirror map of a skeleton: every bone its own partner, across x.
struct Mirror {
  File file;
  maniMirrorMap m;
  explicit Mirror(const maniSkeleton* s) {
    maniMirrorMapSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = s;
    src.axis = maniMirrorAxisX;
    Builder b;
    EXPECT_EQ(maniBuildMirrorMap(b.b, &src).result, mani_success);
    file = b.Built();
    EXPECT_EQ(maniOpenMirrorMap(file.data(), file.size, &m).result, mani_success);
  }
};

// Three clips of one skeleton, the host's named clips "walk", "run" and
// "lean" (differences from the rest), and a mirror map (given to the
// assets by the tests of mirror nodes).
struct Assets {
  Skel skel{21, 9};
  Clip walk{1, &skel.s}, run{2, &skel.s}, lean{3, &skel.s, maniAdditiveRest};
  Mirror mirror{&skel.s};
  std::vector<maniGraphClipSource> named;
  maniGraphNamedAssets assets{};
  Assets() {
    named = {{"walk", 4, &walk.c, nullptr}, {"run", 3, &run.c, nullptr}, {"lean", 4, &lean.c, nullptr}};
    assets.skeleton = &skel.s;
    assets.clips = named.data();
    assets.clipCount = (uint32_t)named.size();
    assets.mirror = nullptr;
  }
};

maniBuildResult BuildText(Builder& b, const Assets& a, const std::string& text) {
  return maniBuildGraphJson(b.b, text.data(), text.size(), &a.assets);
}

// The file a text builds (empty when refused).
std::vector<uint8_t> FileOf(const Assets& a, const std::string& text) {
  Builder b;
  maniBuildResult r = BuildText(b, a, text);
  EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " item " << r.item << " other " << r.other << "\n"
                                    << text;
  if (r.result != mani_success) return {};
  return Bytes(b);
}

void ExpectRefused(const Assets& a, const std::string& text, maniResult code, uint32_t reason, uint64_t item,
                   uint64_t other) {
  Builder b;
  maniBuildResult r = BuildText(b, a, text);
  EXPECT_EQ(r.result, code) << text;
  EXPECT_EQ(r.reason, reason) << text;
  EXPECT_EQ(r.item, item) << text;
  EXPECT_EQ(r.other, other) << text;
}

void ExpectForm(const Assets& a, const std::string& text, maniGraphForm form, size_t offset) {
  ASSERT_NE(offset, std::string::npos);
  ExpectRefused(a, text, form == maniGraphFormVersion ? mani_errorVersion : mani_errorInvalid, maniBuildReasonForm,
                offset, form);
}

// A graph text of the members given, in the form's order.
std::string Graph(const std::string& parameters, const std::string& clips, const std::string& nodes,
                  const std::string& output = "0") {
  std::string s = "{\"format\": \"maul-anim graph\", \"version\": 1";
  if (!parameters.empty()) s += ", \"parameters\": [" + parameters + "]";
  if (!clips.empty()) s += ", \"clips\": [" + clips + "]";
  s += ", \"nodes\": [" + nodes + "], \"output\": " + output + "}";
  return s;
}

const char kWalkNode[] = "{\"kind\": \"clip\", \"clip\": \"walk\"}";
const char kWalkSlot[] = "{\"name\": \"walk\"}";

// -- The text written ----------------------------------------------------------------

TEST(GraphJson, WritesTheFormLaidOut) {
  Assets a;
  std::vector<maniGraphParameterSource> params(6);
  const char* names[6] = {"w0", "on", "go", "dir", "turn", "pose"};
  for (int i = 0; i < 6; ++i) {
    memset(&params[i], 0, sizeof params[i]);
    params[i].name = names[i];
    params[i].nameLength = strlen(names[i]);
    params[i].type = (maniGraphParameterType)i;
  }
  params[0].value.number = 0.1f;
  params[1].value.flag = 1;
  params[3].value.vector = {1.5f, -2.0f, 1e-7f};
  params[4].value.rotation = {0.0f, 0.0f, -0.0f, 1.0f};
  const uint32_t inputs[2] = {2, 1}, weights[2] = {0, 0};
  maniGraphNodeSource nodes[3];
  memset(nodes, 0, sizeof nodes);
  nodes[0].kind = maniGraphNodeBlend;
  nodes[0].inputs = inputs;
  nodes[0].parameters = weights;
  nodes[0].inputCount = 2;
  nodes[0].direct = true;
  nodes[1].kind = maniGraphNodeClip;
  nodes[1].clip = 1;
  nodes[1].speed = -1.25f;
  nodes[2].kind = maniGraphNodeClip;
  nodes[2].clip = 0;
  nodes[2].speed = 1.0f;
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &a.skel.s;
  src.parameters = params.data();
  src.parameterCount = 6;
  src.clips = a.named.data();
  src.clipCount = 2;
  src.nodes = nodes;
  src.nodeCount = 3;
  src.mirror = nullptr;
  src.output = 0;
  Builder b;
  ASSERT_EQ(maniWriteGraphJson(b.b, &src).result, mani_success);
  const std::string expected =
      "{\n"
      "  \"format\": \"maul-anim graph\",\n"
      "  \"version\": 1,\n"
      "  \"parameters\": [\n"
      "    {\n      \"name\": \"w0\",\n      \"type\": \"float\",\n      \"value\": 0.1\n    },\n"
      "    {\n      \"name\": \"on\",\n      \"type\": \"bool\",\n      \"value\": true\n    },\n"
      "    {\n      \"name\": \"go\",\n      \"type\": \"trigger\"\n    },\n"
      "    {\n      \"name\": \"dir\",\n      \"type\": \"vector\",\n      \"value\": [\n        1.5,\n"
      "        -2,\n        1e-7\n      ]\n    },\n"
      "    {\n      \"name\": \"turn\",\n      \"type\": \"quaternion\",\n      \"value\": [\n        0,\n"
      "        0,\n        -0,\n        1\n      ]\n    },\n"
      "    {\n      \"name\": \"pose\",\n      \"type\": \"pose\"\n    }\n"
      "  ],\n"
      "  \"clips\": [\n"
      "    {\n      \"name\": \"walk\"\n    },\n"
      "    {\n      \"name\": \"run\"\n    }\n"
      "  ],\n"
      "  \"nodes\": [\n"
      "    {\n      \"kind\": \"blend\",\n      \"inputs\": [\n        2,\n        1\n      ],\n"
      "      \"weights\": [\n        \"w0\",\n        \"w0\"\n      ],\n      \"direct\": true\n    },\n"
      "    {\n      \"kind\": \"clip\",\n      \"clip\": \"run\",\n      \"speed\": -1.25\n    },\n"
      "    {\n      \"kind\": \"clip\",\n      \"clip\": \"walk\",\n      \"speed\": 1\n    }\n"
      "  ],\n"
      "  \"output\": 0\n"
      "}\n";
  EXPECT_EQ(Text(b), expected);
  // The text builds the file the source builds.
  Builder direct;
  ASSERT_EQ(maniBuildGraph(direct.b, &src).result, mani_success);
  EXPECT_EQ(FileOf(a, expected), Bytes(direct));
}

TEST(GraphJson, WriteRefusesAsTheBuildAndKeepsTheEarlierText) {
  Assets a;
  maniGraphNodeSource node;
  memset(&node, 0, sizeof node);
  node.kind = maniGraphNodeClip;
  node.clip = 0;
  node.speed = 1.0f;
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &a.skel.s;
  src.clips = a.named.data();
  src.clipCount = 2;
  src.nodes = &node;
  src.nodeCount = 1;
  Builder b;
  ASSERT_EQ(maniWriteGraphJson(b.b, &src).result, mani_success);
  const std::string first = Text(b);
  node.clip = 5;  // past the slots
  maniBuildResult r = maniWriteGraphJson(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonClip);
  EXPECT_EQ(r.item, 0u);
  EXPECT_EQ(Text(b), first);
  r = maniWriteGraphJson(b.b, nullptr);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(maniWriteGraphJson(nullptr, &src).result, mani_errorInvalid);
}

// The builder keeps what it held when the write fails: every allocation
// failing in turn, with another file held, the held file is kept bit for
// bit (the graph is built before its text, so a text that runs out of memory
// must give the held file back) and no block is left behind.
TEST(GraphJson, WriteUnderFailingAllocationsKeepsWhatTheBuilderHeld) {
  Assets a;
  maniGraphNodeSource nodes[3];
  memset(nodes, 0, sizeof nodes);
  const uint32_t in[2] = {0, 1};
  const uint32_t wp[2] = {0, 1};
  maniGraphParameterSource params[2];
  memset(params, 0, sizeof params);
  params[0].name = "wa";
  params[0].nameLength = 2;
  params[0].type = maniGraphParameterFloat;
  params[1].name = "wb";
  params[1].nameLength = 2;
  params[1].type = maniGraphParameterFloat;
  for (int k = 0; k < 2; ++k) {
    nodes[k].kind = maniGraphNodeClip;
    nodes[k].clip = (uint32_t)k;
    nodes[k].speed = 1.0f;
  }
  nodes[2].kind = maniGraphNodeBlend;
  nodes[2].inputs = in;
  nodes[2].inputCount = 2;
  nodes[2].parameters = wp;
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &a.skel.s;
  src.parameters = params;
  src.parameterCount = 2;
  src.clips = a.named.data();
  src.clipCount = 2;
  src.nodes = nodes;
  src.nodeCount = 3;
  src.output = 2;
  maniGraphSource first = src;
  first.nodes = nodes;
  first.nodeCount = 1;
  first.output = 0;
  first.parameterCount = 0;
  first.parameters = nullptr;
  ExpectKeepsHeldUnderFailingAllocations([&](maniBuilder* b) { return maniBuildGraph(b, &first); },
                                         [&](maniBuilder* b) { return maniWriteGraphJson(b, &src); });
}

// -- Defaults --------------------------------------------------------------------------

TEST(GraphJson, LeftOutFloatValueReadsAsZero) {
  Assets a;
  const std::string nodes = std::string(kWalkNode);
  EXPECT_EQ(FileOf(a, Graph("{\"name\": \"p\", \"type\": \"float\"}", kWalkSlot, nodes)),
            FileOf(a, Graph("{\"name\": \"p\", \"type\": \"float\", \"value\": 0}", kWalkSlot, nodes)));
}

TEST(GraphJson, LeftOutBoolValueReadsAsFalse) {
  Assets a;
  EXPECT_EQ(FileOf(a, Graph("{\"name\": \"p\", \"type\": \"bool\"}", kWalkSlot, kWalkNode)),
            FileOf(a, Graph("{\"name\": \"p\", \"type\": \"bool\", \"value\": false}", kWalkSlot, kWalkNode)));
  EXPECT_NE(FileOf(a, Graph("{\"name\": \"p\", \"type\": \"bool\"}", kWalkSlot, kWalkNode)),
            FileOf(a, Graph("{\"name\": \"p\", \"type\": \"bool\", \"value\": true}", kWalkSlot, kWalkNode)));
}

TEST(GraphJson, LeftOutVectorValueReadsAsZeroVector) {
  Assets a;
  EXPECT_EQ(FileOf(a, Graph("{\"name\": \"p\", \"type\": \"vector\"}", kWalkSlot, kWalkNode)),
            FileOf(a, Graph("{\"name\": \"p\", \"type\": \"vector\", \"value\": [0, 0, 0]}", kWalkSlot, kWalkNode)));
}

TEST(GraphJson, LeftOutQuaternionValueReadsAsIdentity) {
  Assets a;
  EXPECT_EQ(
      FileOf(a, Graph("{\"name\": \"p\", \"type\": \"quaternion\"}", kWalkSlot, kWalkNode)),
      FileOf(a, Graph("{\"name\": \"p\", \"type\": \"quaternion\", \"value\": [0, 0, 0, 1]}", kWalkSlot, kWalkNode)));
}

TEST(GraphJson, LeftOutSpeedReadsAsOne) {
  Assets a;
  EXPECT_EQ(FileOf(a, Graph("", kWalkSlot, kWalkNode)),
            FileOf(a, Graph("", kWalkSlot, "{\"kind\": \"clip\", \"clip\": \"walk\", \"speed\": 1}")));
  EXPECT_NE(FileOf(a, Graph("", kWalkSlot, kWalkNode)),
            FileOf(a, Graph("", kWalkSlot, "{\"kind\": \"clip\", \"clip\": \"walk\", \"speed\": 2}")));
}

TEST(GraphJson, LeftOutDirectReadsAsFalse) {
  Assets a;
  const std::string params = "{\"name\": \"w\", \"type\": \"float\"}";
  const std::string blend = "{\"kind\": \"blend\", \"inputs\": [1], \"weights\": [\"w\"]";
  const std::string walk = std::string(", ") + kWalkNode;
  EXPECT_EQ(FileOf(a, Graph(params, kWalkSlot, blend + "}" + walk)),
            FileOf(a, Graph(params, kWalkSlot, blend + ", \"direct\": false}" + walk)));
  EXPECT_NE(FileOf(a, Graph(params, kWalkSlot, blend + "}" + walk)),
            FileOf(a, Graph(params, kWalkSlot, blend + ", \"direct\": true}" + walk)));
}

TEST(GraphJson, LeftOutParametersReadAsEmpty) {
  Assets a;
  std::vector<uint8_t> file = FileOf(a, Graph("", kWalkSlot, kWalkNode));
  EXPECT_EQ(file, FileOf(a, "{\"format\": \"maul-anim graph\", \"version\": 1, \"parameters\": [], \"clips\": [" +
                                std::string(kWalkSlot) + "], \"nodes\": [" + kWalkNode + "], \"output\": 0}"));
  ASSERT_FALSE(file.empty());
  File f;
  f.Assign(file.data(), file.size());
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(f.data(), f.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetParameterCount(&g), 0u);
}

TEST(GraphJson, LeftOutClipsReadAsEmpty) {
  Assets a;
  // With no clip slots there is no clip node to give: a blend's input left
  // without one is refused by the build, not the form.
  const std::string params = "{\"name\": \"w\", \"type\": \"float\"}";
  const std::string nodes = "{\"kind\": \"blend\", \"inputs\": [0], \"weights\": [\"w\"]}";
  ExpectRefused(a, Graph(params, "", nodes), mani_errorInvalid, maniBuildReasonCycle, 0, 0);
  ExpectRefused(a,
                "{\"format\": \"maul-anim graph\", \"version\": 1, \"parameters\": [" + params +
                    "], \"clips\": [], \"nodes\": [" + nodes + "], \"output\": 0}",
                mani_errorInvalid, maniBuildReasonCycle, 0, 0);
  // A clip node naming a slot of an empty list names nothing.
  const std::string text = Graph("", "", kWalkNode);
  ExpectForm(a, text, maniGraphFormName, text.find("\"walk\""));
}

TEST(GraphJson, ClipSlotTakesTheFirstHostClipOfItsName) {
  Assets a;
  a.named = {{"walk", 4, &a.run.c, nullptr}, {"walk", 4, &a.walk.c, nullptr}};
  a.assets.clips = a.named.data();
  std::vector<uint8_t> file = FileOf(a, Graph("", kWalkSlot, kWalkNode));
  ASSERT_FALSE(file.empty());
  File f;
  f.Assign(file.data(), file.size());
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(f.data(), f.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetClipIdentity(&g, 0), maniClip_GetIdentity(&a.run.c));
}

// -- Refusals ---------------------------------------------------------------------------

TEST(GraphJson, NullArgumentsRefused) {
  Assets a;
  Builder b;
  const std::string text = Graph("", kWalkSlot, kWalkNode);
  maniBuildResult r = maniBuildGraphJson(nullptr, text.data(), text.size(), &a.assets);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone);
  EXPECT_EQ(maniBuildGraphJson(b.b, text.data(), text.size(), nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGraphJson(b.b, nullptr, 4, &a.assets).result, mani_errorInvalid);
  maniGraphNamedAssets noSkeleton = a.assets;
  noSkeleton.skeleton = nullptr;
  EXPECT_EQ(maniBuildGraphJson(b.b, text.data(), text.size(), &noSkeleton).result, mani_errorInvalid);
  maniGraphNamedAssets noClips = a.assets;
  noClips.clips = nullptr;
  EXPECT_EQ(maniBuildGraphJson(b.b, text.data(), text.size(), &noClips).result, mani_errorInvalid);
  // An empty text does not parse (it ends where a value must start).
  r = maniBuildGraphJson(b.b, nullptr, 0, &a.assets);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJson);
  EXPECT_EQ(r.item, 0u);
}

TEST(GraphJson, TextThatDoesNotParseRefusedAtItsByte) {
  Assets a;
  std::string text = Graph("", kWalkSlot, kWalkNode);
  text.insert(text.find("\"nodes\""), ",");  // ", ," : the second comma is wrong
  ExpectRefused(a, text, mani_errorInvalid, maniBuildReasonJson, text.find(" ,\"nodes\"") + 1, 0);
  const std::string trailing = Graph("", kWalkSlot, kWalkNode) + " x";
  ExpectRefused(a, trailing, mani_errorInvalid, maniBuildReasonJson, trailing.size() - 1, 0);
}

TEST(GraphJson, UnknownTopMemberRefusedAtItsKey) {
  Assets a;
  std::string text = Graph("", kWalkSlot, kWalkNode);
  text.insert(text.size() - 1, ", \"extra\": 1");
  ExpectForm(a, text, maniGraphFormMember, text.find("\"extra\""));
}

TEST(GraphJson, UnknownParameterMemberRefusedAtItsKey) {
  Assets a;
  const std::string text = Graph("{\"name\": \"p\", \"type\": \"float\", \"bounds\": [0, 1]}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormMember, text.find("\"bounds\""));
}

TEST(GraphJson, TriggerValueRefusedAtItsKey) {
  Assets a;
  const std::string text = Graph("{\"name\": \"p\", \"type\": \"trigger\", \"value\": true}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormMember, text.find("\"value\""));
}

TEST(GraphJson, PoseValueRefusedAtItsKey) {
  Assets a;
  const std::string text = Graph("{\"name\": \"p\", \"type\": \"pose\", \"value\": 0}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormMember, text.find("\"value\""));
}

TEST(GraphJson, UnknownClipSlotMemberRefusedAtItsKey) {
  Assets a;
  const std::string text = Graph("", "{\"name\": \"walk\", \"map\": 0}", kWalkNode);
  ExpectForm(a, text, maniGraphFormMember, text.find("\"map\""));
}

TEST(GraphJson, ClipNodeMemberOfABlendRefusedAtItsKey) {
  Assets a;
  const std::string text = Graph("", kWalkSlot, "{\"kind\": \"clip\", \"clip\": \"walk\", \"direct\": true}");
  ExpectForm(a, text, maniGraphFormMember, text.find("\"direct\""));
}

TEST(GraphJson, BlendNodeMemberOfAClipRefusedAtItsKey) {
  Assets a;
  const std::string text = Graph("{\"name\": \"w\", \"type\": \"float\"}", kWalkSlot,
                                 "{\"kind\": \"blend\", \"inputs\": [1], \"weights\": [\"w\"], \"speed\": 1}, " +
                                     std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormMember, text.find("\"speed\""));
}

TEST(GraphJson, WrongTypesRefusedAtTheValue) {
  Assets a;
  std::string text = "{\"format\": 1, \"version\": 1, \"nodes\": [], \"output\": 0}";
  ExpectForm(a, text, maniGraphFormType, text.find("1"));
  text = "{\"format\": \"maul-anim graph\", \"version\": \"1\", \"nodes\": [], \"output\": 0}";
  ExpectForm(a, text, maniGraphFormType, text.find("\"1\""));
  text = "{\"format\": \"maul-anim graph\", \"version\": 1, \"nodes\": {}, \"output\": 0}";
  ExpectForm(a, text, maniGraphFormType, text.find("{}"));
  text = "{\"format\": \"maul-anim graph\", \"version\": 1, \"nodes\": [], \"output\": null}";
  ExpectForm(a, text, maniGraphFormType, text.find("null"));
  text = "[]";
  ExpectForm(a, text, maniGraphFormType, 0);
  text = Graph("{\"name\": \"p\", \"type\": \"float\", \"value\": true}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormType, text.find("true"));
  text = Graph("{\"name\": \"p\", \"type\": \"bool\", \"value\": 1}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormType, text.find("1}"));
  text = Graph("{\"name\": \"p\", \"type\": \"vector\", \"value\": 1}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormType, text.find("1}"));
  text = Graph("{\"name\": \"p\", \"type\": \"vector\", \"value\": [1, \"2\", 3]}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormType, text.find("\"2\""));
  text = Graph("{\"name\": 5, \"type\": \"float\"}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormType, text.find("5"));
  text = Graph("", "\"walk\"", kWalkNode);
  ExpectForm(a, text, maniGraphFormType, text.find("\"walk\""));
  text = Graph("", kWalkSlot, "[]");
  ExpectForm(a, text, maniGraphFormType, text.find("[[]") + 1);
  text = Graph("", kWalkSlot, "{\"kind\": 0}");
  ExpectForm(a, text, maniGraphFormType, text.find("0}"));
  text = Graph("", kWalkSlot, "{\"kind\": \"clip\", \"clip\": \"walk\", \"speed\": \"1\"}");
  ExpectForm(a, text, maniGraphFormType, text.find("\"1\""));
  text = Graph("{\"name\": \"w\", \"type\": \"float\"}", kWalkSlot,
               "{\"kind\": \"blend\", \"inputs\": [\"1\"], \"weights\": [\"w\"]}, " + std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormType, text.find("\"1\""));
  text = Graph("{\"name\": \"w\", \"type\": \"float\"}", kWalkSlot,
               "{\"kind\": \"blend\", \"inputs\": [1], \"weights\": [0]}, " + std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormType, text.find("[0]") + 1);
  text = Graph("{\"name\": \"w\", \"type\": \"float\"}", kWalkSlot,
               "{\"kind\": \"blend\", \"inputs\": [1], \"weights\": [\"w\"], \"direct\": 1}, " + std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormType, text.find("1}"));
}

TEST(GraphJson, RequiredMembersLeftOutRefusedAtTheObject) {
  Assets a;
  ExpectForm(a, "{\"version\": 1, \"nodes\": [], \"output\": 0}", maniGraphFormMissing, 0);
  ExpectForm(a, "{\"format\": \"maul-anim graph\", \"nodes\": [], \"output\": 0}", maniGraphFormMissing, 0);
  ExpectForm(a, "{\"format\": \"maul-anim graph\", \"version\": 1, \"output\": 0}", maniGraphFormMissing, 0);
  ExpectForm(a, "{\"format\": \"maul-anim graph\", \"version\": 1, \"nodes\": []}", maniGraphFormMissing, 0);
  std::string text = Graph("{\"type\": \"float\"}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"type\""));
  text = Graph("{\"name\": \"p\"}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"name\": \"p\"}"));
  text = Graph("", "{}", kWalkNode);
  ExpectForm(a, text, maniGraphFormMissing, text.find("{}"));
  text = Graph("", kWalkSlot, "{\"clip\": \"walk\"}");
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"clip\""));
  text = Graph("", kWalkSlot, "{\"kind\": \"clip\"}");
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"kind\""));
  text = Graph("{\"name\": \"w\", \"type\": \"float\"}", kWalkSlot,
               "{\"kind\": \"blend\", \"weights\": [\"w\"]}, " + std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"kind\": \"blend\""));
  text = Graph("{\"name\": \"w\", \"type\": \"float\"}", kWalkSlot,
               "{\"kind\": \"blend\", \"inputs\": [1]}, " + std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"kind\": \"blend\""));
}

TEST(GraphJson, AnotherFormatRefusedAtItsName) {
  Assets a;
  const std::string text = "{\"format\": \"maul-anim mirror map\", \"version\": 1, \"nodes\": [], \"output\": 0}";
  ExpectForm(a, text, maniGraphFormFormat, text.find("\"maul-anim mirror map\""));
}

TEST(GraphJson, AnotherVersionRefusedAsVersion) {
  Assets a;
  for (const char* version : {"2", "0", "1.5", "-1", "1e0"}) {
    const std::string text = "{\"format\": \"maul-anim graph\", \"version\": " + std::string(version) +
                             ", \"nodes\": [], \"output\": 0, \"later\": true}";
    // The version is judged before the members: "later" may be another
    // version's.
    ExpectForm(a, text, maniGraphFormVersion, text.find(version, text.find("version")));
  }
}

TEST(GraphJson, ValuesOutOfRangeRefusedAtTheValue) {
  Assets a;
  std::string text = Graph("{\"name\": \"p\", \"type\": \"number\"}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormValue, text.find("\"number\""));
  text = Graph("", kWalkSlot, "{\"kind\": \"spring\"}");
  ExpectForm(a, text, maniGraphFormValue, text.find("\"spring\""));
  text = Graph("{\"name\": \"p\", \"type\": \"float\", \"value\": 1e39}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormValue, text.find("1e39"));
  text = Graph("{\"name\": \"p\", \"type\": \"vector\", \"value\": [0, 0]}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormValue, text.find("[0, 0]"));
  text = Graph("{\"name\": \"p\", \"type\": \"quaternion\", \"value\": [0, 0, 0]}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormValue, text.find("[0, 0, 0]"));
  text = Graph("{\"name\": \"p\", \"type\": \"vector\", \"value\": [0, -4e38, 0]}", kWalkSlot, kWalkNode);
  ExpectForm(a, text, maniGraphFormValue, text.find("-4e38"));
  text = Graph("", kWalkSlot, "{\"kind\": \"clip\", \"clip\": \"walk\", \"speed\": 1e40}");
  ExpectForm(a, text, maniGraphFormValue, text.find("1e40"));
  for (const char* output : {"-1", "0.5", "4294967296", "1e1"}) {
    text = Graph("", kWalkSlot, kWalkNode, output);
    ExpectForm(a, text, maniGraphFormValue, text.rfind(output));
  }
  const std::string params = "{\"name\": \"w\", \"type\": \"float\"}";
  text = Graph(params, kWalkSlot, "{\"kind\": \"blend\", \"inputs\": [1.5], \"weights\": [\"w\"]}, " +
                                      std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormValue, text.find("1.5"));
  text = Graph(params, kWalkSlot,
               "{\"kind\": \"blend\", \"inputs\": [1], \"weights\": [\"w\", \"w\"]}, " + std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormValue, text.find("[\"w\", \"w\"]"));
}

TEST(GraphJson, NamesThatNameNothingRefusedAtTheString) {
  Assets a;
  std::string text = Graph("", "{\"name\": \"jump\"}", kWalkNode);
  ExpectForm(a, text, maniGraphFormName, text.find("\"jump\""));
  text = Graph("", kWalkSlot, "{\"kind\": \"clip\", \"clip\": \"run\"}");
  ExpectForm(a, text, maniGraphFormName, text.find("\"run\""));
  text = Graph("{\"name\": \"w\", \"type\": \"float\"}", kWalkSlot,
               "{\"kind\": \"blend\", \"inputs\": [1], \"weights\": [\"v\"]}, " + std::string(kWalkNode));
  ExpectForm(a, text, maniGraphFormName, text.find("\"v\""));
}

TEST(GraphJson, BuildRefusalsNameItemsByPlaceInTheText) {
  Assets a;
  // Two parameters of one name: the second, the earlier as other.
  ExpectRefused(a,
                Graph("{\"name\": \"p\", \"type\": \"float\"}, {\"name\": \"q\", \"type\": \"bool\"}, "
                      "{\"name\": \"p\", \"type\": \"bool\"}",
                      kWalkSlot, kWalkNode),
                mani_errorInvalid, maniBuildReasonDuplicateName | maniBuildReasonGraphParameters, 2, 0);
  ExpectRefused(a, Graph("", "{\"name\": \"walk\"}, {\"name\": \"run\"}, {\"name\": \"walk\"}", kWalkNode),
                mani_errorInvalid, maniBuildReasonDuplicateName | maniBuildReasonGraphClips, 2, 0);
  // A blend weight of a bool parameter: item the node, other the input.
  ExpectRefused(a,
                Graph("{\"name\": \"w\", \"type\": \"float\"}, {\"name\": \"b\", \"type\": \"bool\"}", kWalkSlot,
                      std::string(kWalkNode) + ", {\"kind\": \"blend\", \"inputs\": [0, 0], \"weights\": [\"w\", \"b\"]}",
                      "1"),
                mani_errorInvalid, maniBuildReasonParameter, 1, 1);
  // An input past the nodes; a cycle; a node the output never reads; the
  // output past the nodes; no nodes.
  const std::string w = "{\"name\": \"w\", \"type\": \"float\"}";
  ExpectRefused(a, Graph(w, kWalkSlot, "{\"kind\": \"blend\", \"inputs\": [1], \"weights\": [\"w\"]}"),
                mani_errorInvalid, maniBuildReasonInput, 0, 0);
  ExpectRefused(a,
                Graph(w, kWalkSlot,
                      "{\"kind\": \"blend\", \"inputs\": [1], \"weights\": [\"w\"]}, "
                      "{\"kind\": \"blend\", \"inputs\": [0], \"weights\": [\"w\"]}"),
                mani_errorInvalid, maniBuildReasonCycle, 0, 0);
  ExpectRefused(a, Graph("", kWalkSlot, std::string(kWalkNode) + ", " + kWalkNode, "1"), mani_errorInvalid,
                maniBuildReasonUnreachable, 0, 0);
  ExpectRefused(a, Graph("", kWalkSlot, kWalkNode, "1"), mani_errorInvalid, maniBuildReasonNode, 1, 0);
  ExpectRefused(a, Graph("", kWalkSlot, ""), mani_errorInvalid, maniBuildReasonCount, 0, 0);
  // A speed past the time factor bound.
  ExpectRefused(a, Graph("", kWalkSlot, "{\"kind\": \"clip\", \"clip\": \"walk\", \"speed\": 64.5}"),
                mani_errorLimit, maniBuildReasonScalar, 0, 0);
  // A name past MANI_MAX_NAME_BYTES.
  const std::string longName(MANI_MAX_NAME_BYTES + 1, 'n');
  ExpectRefused(a, Graph("{\"name\": \"" + longName + "\", \"type\": \"float\"}", kWalkSlot, kWalkNode),
                mani_errorLimit, maniBuildReasonName | maniBuildReasonGraphParameters, 0, 0);
  // A host clip of another skeleton.
  Skel other{99, 4};
  Clip foreign{3, &other.s};
  a.named[0].clip = &foreign.c;
  ExpectRefused(a, Graph("", kWalkSlot, kWalkNode), mani_errorInvalid, maniBuildReasonClip, 0, 1);
}

TEST(GraphJson, RefusedTextKeepsTheEarlierFile) {
  Assets a;
  Builder b;
  const std::string good = Graph("", kWalkSlot, kWalkNode);
  ASSERT_EQ(BuildText(b, a, good).result, mani_success);
  const std::vector<uint8_t> first = Bytes(b);
  EXPECT_EQ(BuildText(b, a, Graph("", kWalkSlot, kWalkNode, "-1")).result, mani_errorInvalid);
  EXPECT_EQ(BuildText(b, a, "{").result, mani_errorInvalid);
  EXPECT_EQ(Bytes(b), first);
}

// -- The other kinds -----------------------------------------------------------------

// Parameters f (float), b (bool), t (trigger), p (pose); slots walk and
// lean; nodes as given, the output 0.
std::string KindsGraph(const std::string& nodes) {
  return Graph(
      "{\"name\": \"f\", \"type\": \"float\"}, {\"name\": \"b\", \"type\": \"bool\"}, "
      "{\"name\": \"t\", \"type\": \"trigger\"}, {\"name\": \"p\", \"type\": \"pose\"}",
      "{\"name\": \"walk\"}, {\"name\": \"lean\"}", nodes);
}
const char kLeanNode[] = "{\"kind\": \"clip\", \"clip\": \"lean\"}";
// An additive of walk and lean, its weight as given (nothing: left out).
std::string Additive(const std::string& weight) {
  return "{\"kind\": \"additive\", \"inputs\": [1, 2]" + (weight.empty() ? "" : ", \"weight\": " + weight) + "}, " +
         kWalkNode + ", " + kLeanNode;
}

TEST(GraphJson, EveryKindOfTheFormBuildsAsItsSource) {
  Assets a;
  a.assets.mirror = &a.mirror.m;
  // 0 additive(1, 2) by f; 1 select(3, 4) by b; 2 time scale(5) by 2; 3
  // clip walk; 4 mirror(6); 5 clip lean; 6 seek(7) by t to 0.5; 7 pose p.
  const std::string text = KindsGraph(
      "{\"kind\": \"additive\", \"inputs\": [1, 2], \"weight\": {\"parameter\": \"f\"}}, "
      "{\"kind\": \"select\", \"inputs\": [3, 4], \"parameter\": \"b\"}, "
      "{\"kind\": \"timeScale\", \"inputs\": [5], \"factor\": 2}, " +
      std::string(kWalkNode) + ", {\"kind\": \"mirror\", \"inputs\": [6]}, " + kLeanNode +
      ", {\"kind\": \"seek\", \"inputs\": [7], \"trigger\": \"t\", \"time\": 0.5}, "
      "{\"kind\": \"pose\", \"parameter\": \"p\"}");
  std::vector<maniGraphParameterSource> params(4);
  const char* names[4] = {"f", "b", "t", "p"};
  const maniGraphParameterType types[4] = {maniGraphParameterFloat, maniGraphParameterBool,
                                           maniGraphParameterTrigger, maniGraphParameterPose};
  for (int i = 0; i < 4; ++i) {
    memset(&params[i], 0, sizeof params[i]);
    params[i].name = names[i];
    params[i].nameLength = 1;
    params[i].type = types[i];
  }
  const maniGraphClipSource clips[2] = {{"walk", 4, &a.walk.c, nullptr}, {"lean", 4, &a.lean.c, nullptr}};
  const uint32_t in0[2] = {1, 2}, in1[2] = {3, 4}, in2[1] = {5}, in4[1] = {6}, in6[1] = {7};
  maniGraphNodeSource nodes[8];
  memset(nodes, 0, sizeof nodes);
  const maniGraphNodeKind kinds[8] = {maniGraphNodeAdditive, maniGraphNodeSelect, maniGraphNodeTimeScale,
                                      maniGraphNodeClip,     maniGraphNodeMirror, maniGraphNodeClip,
                                      maniGraphNodeSeek,     maniGraphNodePose};
  const uint32_t* ins[8] = {in0, in1, in2, nullptr, in4, nullptr, in6, nullptr};
  const uint32_t counts[8] = {2, 2, 1, 0, 1, 0, 1, 0};
  const uint32_t parameter[8] = {0, 1, MANI_NO_PARAMETER, 0, 0, 0, 2, 3};
  for (int i = 0; i < 8; ++i) {
    nodes[i].kind = kinds[i];
    nodes[i].inputs = ins[i];
    nodes[i].inputCount = counts[i];
    nodes[i].parameter = parameter[i];
    nodes[i].speed = 1.0f;
  }
  nodes[2].factor = 2.0f;
  nodes[5].clip = 1;
  nodes[6].time = 0.5f;
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &a.skel.s;
  src.parameters = params.data();
  src.parameterCount = 4;
  src.clips = clips;
  src.clipCount = 2;
  src.nodes = nodes;
  src.nodeCount = 8;
  src.mirror = &a.mirror.m;
  Builder direct;
  ASSERT_EQ(maniBuildGraph(direct.b, &src).result, mani_success);
  EXPECT_EQ(FileOf(a, text), Bytes(direct));
  // The written text of the source builds it too, and reads back to itself.
  Builder w;
  ASSERT_EQ(maniWriteGraphJson(w.b, &src).result, mani_success);
  const std::string written = Text(w);
  EXPECT_EQ(FileOf(a, written), Bytes(direct));
  EXPECT_NE(written.find("\"weight\": {\n        \"parameter\": \"f\"\n      }"), std::string::npos) << written;
  EXPECT_NE(written.find("\"kind\": \"timeScale\""), std::string::npos);
  struct Keep {
    std::string text;
  } keep;
  ASSERT_EQ(mani_ReadGraphJson(
                w.b, written.data(), written.size(), &a.assets,
                [](void* user, maniBuilder* builder, const maniGraphSource* s) {
                  maniBuildResult r = maniWriteGraphJson(builder, s);
                  size_t size = 0;
                  if (r.result != mani_success || maniBuilder_CopyBuilt(builder, nullptr, 0, &size) != mani_errorCapacity)
                    return r;
                  std::string& t = static_cast<Keep*>(user)->text;
                  t.assign(size, '\0');
                  if (maniBuilder_CopyBuilt(builder, &t[0], size, &size) != mani_success) t.clear();
                  return r;
                },
                &keep)
                .result,
            mani_success);
  EXPECT_EQ(keep.text, written);
}

TEST(GraphJson, LeftOutAdditiveWeightReadsAsOne) {
  Assets a;
  EXPECT_EQ(FileOf(a, KindsGraph(Additive(""))), FileOf(a, KindsGraph(Additive("1"))));
  EXPECT_NE(FileOf(a, KindsGraph(Additive(""))), FileOf(a, KindsGraph(Additive("0.5"))));
}

TEST(GraphJson, LeftOutTimeScaleFactorReadsAsOne) {
  Assets a;
  const std::string walk = std::string(", ") + kWalkNode;
  EXPECT_EQ(FileOf(a, KindsGraph("{\"kind\": \"timeScale\", \"inputs\": [1]}" + walk)),
            FileOf(a, KindsGraph("{\"kind\": \"timeScale\", \"inputs\": [1], \"factor\": 1}" + walk)));
  EXPECT_NE(FileOf(a, KindsGraph("{\"kind\": \"timeScale\", \"inputs\": [1]}" + walk)),
            FileOf(a, KindsGraph("{\"kind\": \"timeScale\", \"inputs\": [1], \"factor\": -1}" + walk)));
}

TEST(GraphJson, LeftOutSeekTimeReadsAsZero) {
  Assets a;
  const std::string seek = "{\"kind\": \"seek\", \"inputs\": [1], \"trigger\": \"t\"";
  const std::string walk = std::string(", ") + kWalkNode;
  EXPECT_EQ(FileOf(a, KindsGraph(seek + "}" + walk)), FileOf(a, KindsGraph(seek + ", \"time\": 0}" + walk)));
  EXPECT_NE(FileOf(a, KindsGraph(seek + "}" + walk)), FileOf(a, KindsGraph(seek + ", \"time\": 1}" + walk)));
}

TEST(GraphJson, KindsNotInTheFormYetRefusedAtTheKind) {
  Assets a;
  for (const char* kind : {"ik", "spring", "motionMatch", "learned"}) {
    const std::string text = KindsGraph("{\"kind\": \"" + std::string(kind) + "\", \"inputs\": [1]}, " + kWalkNode);
    ExpectForm(a, text, maniGraphFormValue, text.find("\"" + std::string(kind) + "\""));
  }
}

TEST(GraphJson, OtherKindsMembersAndNamesRefused) {
  Assets a;
  const std::string walk = std::string(", ") + kWalkNode;
  // A member another kind takes.
  std::string text = KindsGraph("{\"kind\": \"mirror\", \"inputs\": [1], \"factor\": 1}" + walk);
  ExpectForm(a, text, maniGraphFormMember, text.find("\"factor\""));
  text = KindsGraph("{\"kind\": \"pose\", \"parameter\": \"p\", \"inputs\": []}");
  ExpectForm(a, text, maniGraphFormMember, text.find("\"inputs\""));
  // Required members.
  text = KindsGraph("{\"kind\": \"select\", \"inputs\": [1]}" + walk);
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"kind\": \"select\""));
  text = KindsGraph("{\"kind\": \"seek\", \"inputs\": [1]}" + walk);
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"kind\": \"seek\""));
  text = KindsGraph("{\"kind\": \"mirror\"}" + walk);
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"kind\": \"mirror\""));
  text = KindsGraph("{\"kind\": \"pose\"}");
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"kind\": \"pose\""));
  // A weight of another type, a parameter reference of another member, a
  // name no parameter has, a number past binary32.
  text = KindsGraph(Additive("\"f\""));
  ExpectForm(a, text, maniGraphFormType, text.find("\"f\"}"));
  text = KindsGraph(Additive("{\"name\": \"f\"}"));
  ExpectForm(a, text, maniGraphFormMember, text.find("\"name\": \"f\"}"));
  text = KindsGraph(Additive("{}"));
  ExpectForm(a, text, maniGraphFormMissing, text.find("{}"));
  text = KindsGraph(Additive("{\"parameter\": \"g\"}"));
  ExpectForm(a, text, maniGraphFormName, text.find("\"g\""));
  text = KindsGraph(Additive("1e39"));
  ExpectForm(a, text, maniGraphFormValue, text.find("1e39"));
  text = KindsGraph("{\"kind\": \"seek\", \"inputs\": [1], \"trigger\": \"u\"}" + walk);
  ExpectForm(a, text, maniGraphFormName, text.find("\"u\""));
  text = KindsGraph("{\"kind\": \"seek\", \"inputs\": [1], \"trigger\": \"t\", \"time\": -1e39}" + walk);
  ExpectForm(a, text, maniGraphFormValue, text.find("-1e39"));
  text = KindsGraph("{\"kind\": \"pose\", \"parameter\": \"q\"}");
  ExpectForm(a, text, maniGraphFormName, text.find("\"q\""));
  text = KindsGraph("{\"kind\": \"select\", \"inputs\": [1], \"parameter\": 1}" + walk);
  ExpectForm(a, text, maniGraphFormType, text.find("1}"));
  text = KindsGraph("{\"kind\": \"timeScale\", \"inputs\": [1], \"factor\": {\"parameter\": \"f\", \"x\": 0}}" + walk);
  ExpectForm(a, text, maniGraphFormMember, text.find("\"x\""));
}

TEST(GraphJson, OtherKindsBuildRefusalsByPlace) {
  Assets a;
  const std::string walk = std::string(", ") + kWalkNode;
  // A select by a trigger: Parameter, item the node.
  ExpectRefused(a, KindsGraph("{\"kind\": \"select\", \"inputs\": [1], \"parameter\": \"t\"}" + walk),
                mani_errorInvalid, maniBuildReasonParameter, 0, 0);
  // An additive weight past 1.
  ExpectRefused(a, KindsGraph(Additive("1.5")), mani_errorInvalid, maniBuildReasonWeight, 0, 0);
  // An additive of two poses: its second must be a difference.
  ExpectRefused(a, KindsGraph("{\"kind\": \"additive\", \"inputs\": [1, 1]}" + walk), mani_errorInvalid,
                maniBuildReasonDifference, 0, 1);
  // A time scale factor past the bound.
  ExpectRefused(a, KindsGraph("{\"kind\": \"timeScale\", \"inputs\": [1], \"factor\": 65}" + walk),
                mani_errorLimit, maniBuildReasonScalar, 0, 0);
  // A mirror node when the assets have no mirror map; with one it builds.
  const std::string mirrored = KindsGraph("{\"kind\": \"mirror\", \"inputs\": [1]}" + walk);
  ExpectRefused(a, mirrored, mani_errorInvalid, maniBuildReasonMirrorGraph, 0, 0);
  a.assets.mirror = &a.mirror.m;
  EXPECT_FALSE(FileOf(a, mirrored).empty());
  // A mirror over an unmirrored path's node.
  ExpectRefused(a,
                KindsGraph("{\"kind\": \"blend\", \"inputs\": [1, 2], \"weights\": [\"f\", \"f\"]}, "
                           "{\"kind\": \"mirror\", \"inputs\": [2]}" + walk),
                mani_errorInvalid, maniBuildReasonMirrorParity, 2, 1);
}

// A mask of walk over run, its members after the inputs as given.
std::string Mask(const std::string& members) {
  return "{\"kind\": \"mask\", \"inputs\": [1, 2]" + members + "}, " + std::string(kWalkNode) +
         ", {\"kind\": \"clip\", \"clip\": \"run\"}";
}
std::string MaskGraph(const std::string& members) { return Graph("", "{\"name\": \"walk\"}, {\"name\": \"run\"}", Mask(members)); }

// The name of a bone of the assets' skeleton.
std::string BoneName(const Assets& a, uint32_t bone) {
  size_t length = 0;
  const char* name = maniSkeleton_GetBoneName(&a.skel.s, bone, &length);
  return std::string(name, length);
}

TEST(GraphJson, LeftOutMaskMembersReadAsDefaults) {
  Assets a;
  // chains empty and defaultWeight 0.
  EXPECT_EQ(FileOf(a, MaskGraph("")), FileOf(a, MaskGraph(", \"chains\": [], \"defaultWeight\": 0")));
  EXPECT_NE(FileOf(a, MaskGraph("")), FileOf(a, MaskGraph(", \"defaultWeight\": 1")));
  // A chain's subtree false.
  const std::string chain = ", \"chains\": [{\"bone\": \"" + BoneName(a, 1) + "\", \"weight\": 1";
  EXPECT_EQ(FileOf(a, MaskGraph(chain + "}]")), FileOf(a, MaskGraph(chain + ", \"subtree\": false}]")));
}

TEST(GraphJson, MaskChainsWrittenByBoneName) {
  Assets a;
  const std::string text =
      MaskGraph(", \"chains\": [{\"bone\": \"" + BoneName(a, 2) + "\", \"weight\": 0.5, \"subtree\": true}], "
                "\"defaultWeight\": 0.25");
  std::vector<uint8_t> file = FileOf(a, text);
  ASSERT_FALSE(file.empty());
  // The source it reads writes the bone's name, and builds the same file.
  struct Keep {
    std::string text;
  } keep;
  Builder b;
  ASSERT_EQ(mani_ReadGraphJson(
                b.b, text.data(), text.size(), &a.assets,
                [](void* user, maniBuilder* builder, const maniGraphSource* s) {
                  maniBuildResult r = maniWriteGraphJson(builder, s);
                  size_t size = 0;
                  if (r.result != mani_success || maniBuilder_CopyBuilt(builder, nullptr, 0, &size) != mani_errorCapacity)
                    return r;
                  std::string& t = static_cast<Keep*>(user)->text;
                  t.assign(size, '\0');
                  if (maniBuilder_CopyBuilt(builder, &t[0], size, &size) != mani_success) t.clear();
                  return r;
                },
                &keep)
                .result,
            mani_success);
  EXPECT_NE(keep.text.find("\"bone\": \"" + BoneName(a, 2) + "\""), std::string::npos) << keep.text;
  EXPECT_NE(keep.text.find("\"defaultWeight\": 0.25"), std::string::npos);
  EXPECT_EQ(FileOf(a, keep.text), file);
}

TEST(GraphJson, MaskRefusals) {
  Assets a;
  std::string text = MaskGraph(", \"chains\": [{\"bone\": \"no such bone\", \"weight\": 1}]");
  ExpectForm(a, text, maniGraphFormName, text.find("\"no such bone\""));
  text = MaskGraph(", \"chains\": [{\"bone\": \"" + BoneName(a, 0) + "\"}]");
  ExpectForm(a, text, maniGraphFormMissing, text.find("{\"bone\""));
  text = MaskGraph(", \"chains\": [{\"bone\": \"" + BoneName(a, 0) + "\", \"weight\": 1, \"depth\": 2}]");
  ExpectForm(a, text, maniGraphFormMember, text.find("\"depth\""));
  text = MaskGraph(", \"defaultWeight\": 1e39");
  ExpectForm(a, text, maniGraphFormValue, text.find("1e39"));
  text = MaskGraph(", \"chains\": {}");
  ExpectForm(a, text, maniGraphFormType, text.find("{}"));
  // The build's: a chain's weight past 1, by its place + 1.
  ExpectRefused(a,
                MaskGraph(", \"chains\": [{\"bone\": \"" + BoneName(a, 0) + "\", \"weight\": 1}, {\"bone\": \"" +
                          BoneName(a, 1) + "\", \"weight\": 2}]"),
                mani_errorInvalid, maniBuildReasonWeight, 0, 2);
}

// -- write -> build -> write ------------------------------------------------------------

// A random finite binary32 of magnitude at most `bound`, from its bits (so
// subnormals, negative zeros and long shortest forms all turn up).
float RandomFloat(std::mt19937& rng, float bound) {
  for (;;) {
    const uint32_t bits = (uint32_t)rng();
    float f;
    memcpy(&f, &bits, 4);
    if (std::isfinite(f) && std::fabs(f) <= bound) return f;
  }
}

// A seeded graph over the assets' clips: parameters of every type (the
// first four a float, a bool, a trigger and a pose), clip slots, and a DAG
// read from node 0, the output: inner nodes blends, selects, masks (of
// seeded chains), time scales (a factor or a parameter) and seeks, leaves
// clip and pose nodes, each node's inputs placed after it, some read twice.
struct SeededGraph {
  std::vector<std::string> names;
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  std::vector<maniGraphNodeSource> nodes;
  std::vector<std::vector<uint32_t>> inputs, weights;
  std::vector<std::vector<maniGraphMaskChain>> chains;
  maniGraphSource src;
  SeededGraph(uint32_t seed, const Assets& a) {
    std::mt19937 rng(seed);
    const uint32_t paramCount = 4 + rng() % 6, clipCount = 1 + rng() % 4, nodeTarget = 1 + rng() % 24;
    for (uint32_t p = 0; p < paramCount; ++p) names.push_back("param \"" + std::to_string(p) + "\"\n");
    for (uint32_t k = 0; k < clipCount; ++k) names.push_back("clip\\" + std::to_string(k));
    const maniGraphParameterType first[4] = {maniGraphParameterFloat, maniGraphParameterBool,
                                             maniGraphParameterTrigger, maniGraphParameterPose};
    for (uint32_t p = 0; p < paramCount; ++p) {
      maniGraphParameterSource s;
      memset(&s, 0, sizeof s);
      s.name = names[p].data();
      s.nameLength = names[p].size();
      s.type = p < 4 ? first[p] : (maniGraphParameterType)(rng() % MANI_GRAPH_PARAMETER_TYPE_COUNT);
      const float x = RandomFloat(rng, 3e38f), y = RandomFloat(rng, 3e38f), z = RandomFloat(rng, 3e38f),
                  w = RandomFloat(rng, 3e38f);
      switch (s.type) {
        case maniGraphParameterFloat: s.value.number = x; break;
        case maniGraphParameterBool: s.value.flag = rng() % 2; break;
        case maniGraphParameterVector: s.value.vector = {x, y, z}; break;
        case maniGraphParameterQuaternion: s.value.rotation = {x, y, z, w}; break;
        default: break;
      }
      params.push_back(s);
    }
    std::vector<uint32_t> floats;
    for (uint32_t p = 0; p < paramCount; ++p)
      if (params[p].type == maniGraphParameterFloat) floats.push_back(p);
    for (uint32_t k = 0; k < clipCount; ++k)
      clips.push_back({names[paramCount + k].data(), names[paramCount + k].size(), rng() % 2 ? &a.walk.c : &a.run.c, nullptr});
    // Kinds: node 0 inner unless the graph is one node; the others inner
    // while there is room, else leaves.
    const maniGraphNodeKind innerKinds[5] = {maniGraphNodeBlend, maniGraphNodeSelect, maniGraphNodeMask,
                                             maniGraphNodeTimeScale, maniGraphNodeSeek};
    std::vector<int> kind(nodeTarget, -1);
    inputs.assign(nodeTarget, {});
    weights.assign(nodeTarget, {});
    chains.assign(nodeTarget, {});
    uint32_t next = 1;
    for (uint32_t n = 0; n < next; ++n) {
      if (!(next < nodeTarget && (n == 0 || rng() % 3 == 0))) continue;
      int k = (int)(rng() % 5);
      if (innerKinds[k] == maniGraphNodeMask && nodeTarget - next < 2) k = 3;  // no room for two: a time scale
      kind[n] = k;
      const maniGraphNodeKind nk = innerKinds[k];
      uint32_t fresh = 1;
      if (nk == maniGraphNodeMask) fresh = 2;
      if (nk == maniGraphNodeBlend || nk == maniGraphNodeSelect)
        fresh = std::min<uint32_t>(1 + rng() % 3, nodeTarget - next);
      for (uint32_t i = 0; i < fresh; ++i) inputs[n].push_back(next++);
      if ((nk == maniGraphNodeBlend || nk == maniGraphNodeSelect) && n + 1 < next && rng() % 2)
        inputs[n].push_back(n + 1 + rng() % (next - n - 1));  // a shared input
    }
    nodes.resize(next);
    const uint32_t bones = maniSkeleton_GetBoneCount(&a.skel.s);
    for (uint32_t n = 0; n < next; ++n) {
      maniGraphNodeSource& s = nodes[n];
      memset(&s, 0, sizeof s);
      s.parameter = MANI_NO_PARAMETER;
      if (kind[n] < 0) {
        if (rng() % 5 == 0) {
          s.kind = maniGraphNodePose;
          s.parameter = 3;
        } else {
          s.kind = maniGraphNodeClip;
          s.clip = rng() % clipCount;
          s.speed = RandomFloat(rng, MANI_MAX_GRAPH_TIME_FACTOR);
        }
        continue;
      }
      s.kind = innerKinds[kind[n]];
      s.inputs = inputs[n].data();
      s.inputCount = (uint32_t)inputs[n].size();
      switch (s.kind) {
        case maniGraphNodeBlend:
          for (size_t i = 0; i < inputs[n].size(); ++i) weights[n].push_back(floats[rng() % floats.size()]);
          s.parameters = weights[n].data();
          s.direct = rng() % 2;
          break;
        case maniGraphNodeSelect: s.parameter = rng() % 2 ? 1u : floats[rng() % floats.size()]; break;
        case maniGraphNodeMask: {
          const uint32_t count = rng() % 4;
          for (uint32_t c = 0; c < count; ++c) {
            const uint32_t bone = rng() % bones;
            const float weight = std::fabs(RandomFloat(rng, 1.0f));
            chains[n].push_back({bone, weight, rng() % 2 == 0});
          }
          s.chains = chains[n].data();
          s.chainCount = count;
          s.defaultWeight = std::fabs(RandomFloat(rng, 1.0f));
          break;
        }
        case maniGraphNodeTimeScale:
          if (rng() % 2)
            s.parameter = floats[rng() % floats.size()];
          else
            s.factor = RandomFloat(rng, MANI_MAX_GRAPH_TIME_FACTOR);
          break;
        default:  // seek
          s.parameter = 2;
          s.time = std::fabs(RandomFloat(rng, 3e38f));
          break;
      }
    }
    memset(&src, 0, sizeof src);
    src.skeleton = &a.skel.s;
    src.parameters = params.data();
    src.parameterCount = paramCount;
    src.clips = clips.data();
    src.clipCount = clipCount;
    src.nodes = nodes.data();
    src.nodeCount = (uint32_t)nodes.size();
    src.output = 0;
  }
};

struct Rewrite {
  std::string text;
};

maniBuildResult WriteRead(void* user, maniBuilder* builder, const maniGraphSource* source) {
  maniBuildResult r = maniWriteGraphJson(builder, source);
  if (r.result == mani_success) {
    size_t size = 0;
    if (maniBuilder_CopyBuilt(builder, nullptr, 0, &size) != mani_errorCapacity) return r;
    std::string& s = static_cast<Rewrite*>(user)->text;
    s.assign(size, '\0');
    if (maniBuilder_CopyBuilt(builder, &s[0], size, &size) != mani_success) s.clear();
  }
  return r;
}

TEST(GraphJson, WriteBuildWriteIsAFixedPointOnSeededGraphs) {
  Assets a;
  std::vector<int> seen(MANI_GRAPH_NODE_KIND_COUNT, 0);
  for (uint32_t seed = 1; seed <= 120; ++seed) {
    SeededGraph g(seed, a);
    for (const maniGraphNodeSource& n : g.nodes) seen[n.kind] = 1;
    Builder b;
    ASSERT_EQ(maniBuildGraph(b.b, &g.src).result, mani_success) << seed;
    const std::vector<uint8_t> file = Bytes(b);
    ASSERT_EQ(maniWriteGraphJson(b.b, &g.src).result, mani_success) << seed;
    const std::string text = Text(b);
    // The text builds the source's file, against the slots as named clips.
    maniGraphNamedAssets named = {&a.skel.s, g.clips.data(), (uint32_t)g.clips.size(), nullptr, nullptr, 0, 0, nullptr, nullptr, 0};
    Builder c;
    ASSERT_EQ(maniBuildGraphJson(c.b, text.data(), text.size(), &named).result, mani_success) << seed;
    EXPECT_EQ(Bytes(c), file) << seed;
    // The source it reads writes the same text.
    Rewrite again;
    ASSERT_EQ(mani_ReadGraphJson(c.b, text.data(), text.size(), &named, WriteRead, &again).result, mani_success);
    EXPECT_EQ(again.text, text) << seed;
  }
  // The seeds reach every kind they may hold.
  for (maniGraphNodeKind k : {maniGraphNodeClip, maniGraphNodeBlend, maniGraphNodeSelect, maniGraphNodeMask,
                              maniGraphNodeTimeScale, maniGraphNodeSeek, maniGraphNodePose})
    EXPECT_TRUE(seen[k]) << k;
}

}  // namespace
