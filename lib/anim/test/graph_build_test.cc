// Graphs (graph.h, graphbuild.h): maniBuildGraph's checks, order and pose
// slots, maniOpenGraph (every mutation refused) and the accessors. Expected
// orders and slots are derived by hand from the rules in graphbuild.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"

namespace {

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s) {
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, seed, s, 0, maniLoopClamp, maniAdditiveNone);
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&fc.source, &size);
    EXPECT_NE(bytes, nullptr);
    file.Assign(bytes, size);
    free(bytes);
    maniFixtureFreeClip(&fc);
    EXPECT_EQ(maniOpenClip(file.data(), file.size, &c).result, mani_success);
  }
};

maniGraphParameterSource Param(const char* name, maniGraphParameterType type) {
  maniGraphParameterSource p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.nameLength = strlen(name);
  p.type = type;
  return p;
}

maniGraphNodeSource ClipNode(uint32_t clip, float speed = 1.0f) {
  maniGraphNodeSource n;
  memset(&n, 0, sizeof n);
  n.kind = maniGraphNodeClip;
  n.clip = clip;
  n.speed = speed;
  return n;
}

maniGraphNodeSource BlendNode(const uint32_t* inputs, const uint32_t* params, uint32_t count) {
  maniGraphNodeSource n;
  memset(&n, 0, sizeof n);
  n.kind = maniGraphNodeBlend;
  n.inputs = inputs;
  n.parameters = params;
  n.inputCount = count;
  return n;
}

// A graph over two clips: node 0 the output blend of nodes 2 and 1.
struct Fixture {
  Skel skel{11, 12};
  Clip a{1, &skel.s}, b{2, &skel.s};
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  uint32_t inputs[2] = {2, 1};
  uint32_t weights[2] = {0, 1};
  std::vector<maniGraphNodeSource> nodes;
  maniGraphSource src{};
  Fixture() {
    params = {Param("w0", maniGraphParameterFloat), Param("w1", maniGraphParameterFloat),
              Param("go", maniGraphParameterTrigger)};
    params[0].value.number = 0.25f;
    clips = {{"walk", 4, &a.c, nullptr}, {"run", 3, &b.c, nullptr}};
    nodes = {BlendNode(inputs, weights, 2), ClipNode(1, 1.5f), ClipNode(0)};
    Sync();
    src.output = 0;
  }
  void Sync() {
    src.skeleton = &skel.s;
    src.parameters = params.data();
    src.parameterCount = (uint32_t)params.size();
    src.clips = clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.nodes = nodes.data();
    src.nodeCount = (uint32_t)nodes.size();
  }
};

void ExpectRefused(const maniGraphSource& src, maniResult code, uint32_t reason, uint64_t item, uint64_t other) {
  Builder b;
  maniBuildResult r = maniBuildGraph(b.b, &src);
  EXPECT_EQ(r.result, code);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.item, item);
  EXPECT_EQ(r.other, other);
}

TEST(GraphBuild, OrdersInputsFirstAndReadsBack) {
  Fixture f;
  f.src.output = 0;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &f.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetNodeCount(&g), 3u);
  EXPECT_EQ(maniGraph_GetParameterCount(&g), 3u);
  EXPECT_EQ(maniGraph_GetClipCount(&g), 2u);
  EXPECT_EQ(maniGraph_GetSkeletonIdentity(&g), maniSkeleton_GetIdentity(&f.skel.s));
  EXPECT_NE(maniGraph_GetIdentity(&g), 0u);
  // Ready first in the source: node 1 (clip run), then node 2 (clip walk),
  // then the blend.
  EXPECT_EQ(maniGraph_GetNodeSourcePlace(&g, 0), 1u);
  EXPECT_EQ(maniGraph_GetNodeSourcePlace(&g, 1), 2u);
  EXPECT_EQ(maniGraph_GetNodeSourcePlace(&g, 2), 0u);
  EXPECT_EQ(maniGraph_GetNodeSourcePlace(&g, 3), MANI_GRAPH_NONE);
  EXPECT_EQ(maniGraph_GetOutputNode(&g), 2u);
  EXPECT_EQ(maniGraph_GetNodeKind(&g, 2), maniGraphNodeBlend);
  EXPECT_EQ(maniGraph_GetNodeKind(&g, 0), maniGraphNodeClip);
  EXPECT_EQ(maniGraph_GetNodeInputCount(&g, 0), 0u);
  EXPECT_EQ(maniGraph_GetNodeInputCount(&g, 2), 2u);
  EXPECT_EQ(maniGraph_GetNodeInput(&g, 2, 0), 1u);  // source node 2 sits at 1
  EXPECT_EQ(maniGraph_GetNodeInput(&g, 2, 1), 0u);
  EXPECT_EQ(maniGraph_GetNodeInput(&g, 2, 2), MANI_GRAPH_NONE);
  EXPECT_EQ(maniGraph_GetNodeInput(&g, 0, 0), MANI_GRAPH_NONE);
  EXPECT_EQ(maniGraph_GetClipIdentity(&g, 0), maniClip_GetIdentity(&f.a.c));
  EXPECT_EQ(maniGraph_GetClipIdentity(&g, 1), maniClip_GetIdentity(&f.b.c));
  EXPECT_EQ(maniGraph_GetClipIdentity(&g, 2), 0u);
  size_t len = 0;
  const char* name = maniGraph_GetClipName(&g, 1, &len);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name, len), "run");
  EXPECT_EQ(maniGraph_GetClipName(&g, 2, &len), nullptr);
  name = maniGraph_GetParameterName(&g, 2, &len);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name, len), "go");
  EXPECT_EQ(maniGraph_GetParameterName(&g, 3, &len), nullptr);
  EXPECT_EQ(maniGraph_FindParameter(&g, "w1", 2), 1u);
  EXPECT_EQ(maniGraph_FindParameter(&g, "w", 1), MANI_NO_PARAMETER);
  EXPECT_EQ(maniGraph_FindParameter(&g, nullptr, 1), MANI_NO_PARAMETER);
  maniGraphParameterType t = maniGraphParameterPose;
  EXPECT_EQ(maniGraph_GetParameterType(&g, 2, &t), mani_success);
  EXPECT_EQ(t, maniGraphParameterTrigger);
  t = maniGraphParameterPose;
  EXPECT_EQ(maniGraph_GetParameterType(&g, 3, &t), mani_errorInvalid);
  EXPECT_EQ(t, maniGraphParameterPose);
  EXPECT_EQ(maniGraph_GetParameterType(&g, 0, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniGraph_GetParameterType(nullptr, 0, &t), mani_errorInvalid);
  // Two clips alive while the blend runs: three slots.
  EXPECT_EQ(g.poseSlotCount, 3u);
}

TEST(GraphBuild, NullGraphAccessors) {
  EXPECT_EQ(maniGraph_GetIdentity(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetSkeletonIdentity(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetNodeCount(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetParameterCount(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetClipCount(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetClipIdentity(nullptr, 0), 0u);
  EXPECT_EQ(maniGraph_GetClipName(nullptr, 0, nullptr), nullptr);
  EXPECT_EQ(maniGraph_GetParameterName(nullptr, 0, nullptr), nullptr);
  EXPECT_EQ(maniGraph_FindParameter(nullptr, "a", 1), MANI_NO_PARAMETER);
  EXPECT_EQ(maniGraph_GetNodeKind(nullptr, 0), maniGraphNodeClip);
  EXPECT_EQ(maniGraph_GetNodeInputCount(nullptr, 0), 0u);
  EXPECT_EQ(maniGraph_GetNodeInput(nullptr, 0, 0), MANI_GRAPH_NONE);
  EXPECT_EQ(maniGraph_GetOutputNode(nullptr), MANI_GRAPH_NONE);
  EXPECT_EQ(maniGraph_GetNodeSourcePlace(nullptr, 0), MANI_GRAPH_NONE);
  maniGraph zero;
  memset(&zero, 0, sizeof zero);
  EXPECT_EQ(maniGraph_GetNodeCount(&zero), 0u);
  uint64_t word = 0;
  EXPECT_EQ(maniOpenGraph(nullptr, 8, &zero).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenGraph(&word, 8, nullptr).result, mani_errorInvalid);
}

TEST(GraphBuild, SlotsReusedAfterLastReader) {
  // 0 clip, 1 clip, 2 = blend(0, 1), 3 clip, 4 = blend(2, 3) the output.
  // In order: 0 -> slot 0, 1 -> slot 1, 2 -> new slot 2 then 0 and 1 free
  // (pushed 0, 1), 3 -> slot 1, 4 -> slot 0. Three slots, not five.
  Fixture f;
  uint32_t in2[2] = {0, 1}, in4[2] = {2, 3};
  f.nodes = {ClipNode(0), ClipNode(1), BlendNode(in2, f.weights, 2), ClipNode(0), BlendNode(in4, f.weights, 2)};
  f.Sync();
  f.src.output = 4;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &f.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  EXPECT_EQ(g.poseSlotCount, 3u);
  for (uint32_t n = 0; n < 5; ++n) EXPECT_EQ(maniGraph_GetNodeSourcePlace(&g, n), n);
}

TEST(GraphBuild, EveryMutationRefused) {
  Fixture f;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &f.src).result, mani_success);
  File file = b.Built();
  ExpectEveryMutationRefused(file.data(), file.size, [](const void* p, size_t n) {
    maniGraph g;
    return maniOpenGraph(p, n, &g);
  });
}

TEST(GraphBuild, Refusals) {
  {
    Builder b;
    EXPECT_EQ(maniBuildGraph(b.b, nullptr).result, mani_errorInvalid);
    Fixture f;
    EXPECT_EQ(maniBuildGraph(nullptr, &f.src).result, mani_errorInvalid);
  }
  {
    Fixture f;
    f.src.skeleton = nullptr;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  }
  {
    Fixture f;
    f.src.nodeCount = 0;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonCount, 0, 0);
    f.src.nodeCount = MANI_MAX_GRAPH_NODES + 1;
    ExpectRefused(f.src, mani_errorLimit, maniBuildReasonCount, 0, 0);
  }
  {
    Fixture f;
    f.src.parameters = nullptr;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonCount, 0, 0);
  }
  {
    Fixture f;
    f.src.clips = nullptr;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonCount, 0, 0);
  }
  const uint32_t P = maniBuildReasonGraphParameters, C = maniBuildReasonGraphClips;
  {
    Fixture f;
    f.params[1].nameLength = 0;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonName | P, 1, 0);
    std::string long_name(MANI_MAX_NAME_BYTES + 1, 'x');
    f.params[1].name = long_name.c_str();
    f.params[1].nameLength = long_name.size();
    ExpectRefused(f.src, mani_errorLimit, maniBuildReasonName | P, 1, 0);
    f.params[1].name = "\xff";
    f.params[1].nameLength = 1;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonName | P, 1, 0);
    f.params[1].name = "go";
    f.params[1].nameLength = 2;
    f.params[2].name = "w0";
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonDuplicateName | P, 2, 0);
  }
  {
    Fixture f;
    f.clips[1].name = "walk";
    f.clips[1].nameLength = 4;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonDuplicateName | C, 1, 0);
  }
  {
    Fixture f;
    f.params[0].type = (maniGraphParameterType)MANI_GRAPH_PARAMETER_TYPE_COUNT;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonParameter, 0, 0);
    f.params[0].type = maniGraphParameterFloat;
    f.params[0].value.number = std::numeric_limits<float>::infinity();
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonParameter, 0, 0);
    f.params[0].type = maniGraphParameterBool;
    f.params[0].value.flag = 2;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonParameter, 0, 0);
  }
  {
    Fixture f;
    f.clips[1].clip = nullptr;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonClip, 1, 0);
    Skel other(99, 7);
    Clip foreign(3, &other.s);
    f.clips[1].clip = &foreign.c;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonClip, 1, 1);
  }
  {
    Fixture f;
    f.nodes[1].kind = maniGraphNodeLearned;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonNode, 1, maniGraphNodeLearned);
    f.nodes[1].kind = (maniGraphNodeKind)MANI_GRAPH_NODE_KIND_COUNT;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonNode, 1, MANI_GRAPH_NODE_KIND_COUNT);
  }
  {
    Fixture f;
    f.nodes[1].clip = 2;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonClip, 1, 0);
    f.nodes[1].clip = 1;
    f.nodes[1].speed = std::nanf("");
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonScalar, 1, 0);
    f.nodes[1].speed = -MANI_MAX_GRAPH_TIME_FACTOR * 2.0f;
    ExpectRefused(f.src, mani_errorLimit, maniBuildReasonScalar, 1, 0);
    f.nodes[1].speed = -MANI_MAX_GRAPH_TIME_FACTOR;
    Builder ok;
    EXPECT_EQ(maniBuildGraph(ok.b, &f.src).result, mani_success);
    f.nodes[1].inputCount = 1;
    f.nodes[1].inputs = f.inputs;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonInput, 1, 0);
  }
  {
    Fixture f;
    f.nodes[0].inputCount = 0;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonInput, 0, 0);
    f.nodes[0].inputCount = MANI_MAX_GRAPH_INPUTS + 1;
    ExpectRefused(f.src, mani_errorLimit, maniBuildReasonNode, 0, 0);
    f.nodes[0].inputCount = 2;
    f.inputs[1] = 3;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonInput, 0, 1);
    f.inputs[1] = 1;
    f.weights[1] = 2;  // a trigger
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonParameter, 0, 1);
    f.weights[1] = 3;  // past the parameters
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonParameter, 0, 1);
    f.weights[1] = 1;
    f.nodes[0].parameters = nullptr;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonCount, 0, 0);
  }
  {
    Fixture f;
    f.src.output = 3;
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonNode, 3, 0);
    f.src.output = 1;  // nodes 0 and 2 unread
    ExpectRefused(f.src, mani_errorInvalid, maniBuildReasonUnreachable, 0, 0);
  }
  {
    // 0 = blend(1), 1 = blend(2), 2 = blend(1): 1 and 2 a cycle (0 only
    // downstream of it).
    Fixture f;
    uint32_t a[1] = {1}, b1[1] = {2}, c[1] = {1};
    f.nodes = {BlendNode(a, f.weights, 1), BlendNode(b1, f.weights, 1), BlendNode(c, f.weights, 1)};
    f.Sync();
    Builder b;
    maniBuildResult r = maniBuildGraph(b.b, &f.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCycle);
    EXPECT_TRUE(r.item == 1 || r.item == 2) << r.item;
  }
}

TEST(GraphBuild, KeepsTheLastBuiltAndTakesEmptyLists) {
  Fixture f;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &f.src).result, mani_success);
  File first = b.Built();
  // One clip node alone, no parameters (a NULL list of count 0).
  f.nodes = {ClipNode(1, 2.0f)};
  f.Sync();
  f.src.parameters = nullptr;
  f.src.parameterCount = 0;
  f.src.output = 0;
  ASSERT_EQ(maniBuildGraph(b.b, &f.src).result, mani_success);
  File second = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(second.data(), second.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetNodeCount(&g), 1u);
  EXPECT_EQ(maniGraph_GetParameterCount(&g), 0u);
  EXPECT_EQ(maniGraph_GetOutputNode(&g), 0u);
  EXPECT_EQ(g.poseSlotCount, 1u);
  maniGraph h;
  ASSERT_EQ(maniOpenGraph(first.data(), first.size, &h).result, mani_success);
  EXPECT_NE(maniGraph_GetIdentity(&g), maniGraph_GetIdentity(&h));
  // Misaligned bytes.
  File shifted;
  shifted.words.assign(second.words.size() + 2, 0);
  memcpy(shifted.data() + 8, second.data(), second.size);
  EXPECT_EQ(maniOpenGraph(shifted.data() + 8, second.size, &h).result, mani_errorInvalid);
}

}  // namespace
