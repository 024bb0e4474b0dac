// maniBuildGraph's node kinds past clip and blend (graphbuild.h): mask,
// additive, select, time scale, seek, mirror and pose nodes built with the words
// docs/formats.md ("Graph") gives them, pose/difference and mirror parity
// marking, every refusal with its reason and items, the kinds not built yet
// refused with their kind, and maniOpenGraph's checks of the new records
// (each rewritten record, resealed as a forger would, refused at the byte
// the format names). Expected values are worked out by hand from the rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"

namespace {

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s, maniAdditiveBasis additive) {
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

maniGraphNodeSource Node(maniGraphNodeKind kind, const std::vector<uint32_t>* inputs = nullptr) {
  maniGraphNodeSource n;
  memset(&n, 0, sizeof n);
  n.kind = kind;
  n.speed = 1.0f;
  n.parameter = MANI_NO_PARAMETER;
  if (inputs != nullptr) {
    n.inputs = inputs->data();
    n.inputCount = (uint32_t)inputs->size();
  }
  return n;
}

enum { kFloat, kBool, kTrigger, kPose, kFloat2 };

// Parameters f (float), b (bool), t (trigger), p (pose), g (float); clip
// slots walk (poses) and lean (differences from the rest); the mirror map.
struct Rig {
  Skel skel{31, 10};
  Clip walk{1, &skel.s, maniAdditiveNone}, lean{2, &skel.s, maniAdditiveRest};
  Mirror mirror{&skel.s};
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  std::vector<maniGraphNodeSource> nodes;
  maniGraphSource src{};
  Rig() {
    const char* names[5] = {"f", "b", "t", "p", "g"};
    const maniGraphParameterType types[5] = {maniGraphParameterFloat, maniGraphParameterBool,
                                             maniGraphParameterTrigger, maniGraphParameterPose,
                                             maniGraphParameterFloat};
    for (int i = 0; i < 5; ++i) {
      maniGraphParameterSource p;
      memset(&p, 0, sizeof p);
      p.name = names[i];
      p.nameLength = 1;
      p.type = types[i];
      params.push_back(p);
    }
    clips = {{"walk", 4, &walk.c, nullptr}, {"lean", 4, &lean.c, nullptr}};
  }
  maniGraphSource& Sync(uint32_t output = 0) {
    src.skeleton = &skel.s;
    src.parameters = params.data();
    src.parameterCount = (uint32_t)params.size();
    src.clips = clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.nodes = nodes.data();
    src.nodeCount = (uint32_t)nodes.size();
    src.output = output;
    src.mirror = &mirror.m;
    return src;
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

// The node record of file place n (docs/formats.md: 32 bytes each).
const uint8_t* Record(const maniGraph& g, uint32_t n) { return g.bytes + g.nodes + 32u * n; }
uint32_t Word(const uint8_t* p, uint32_t offset) { return mcore_ReadU32(p + offset); }

// The graph of every new kind, by source place:
//  0 additive(1, 2) by parameter f, the output
//  1 select(3, 4, 8) by b
//  2 time scale(5), factor 2
//  3 clip walk
//  4 mirror(6)
//  5 clip lean (differences)
//  6 seek(7) by t to 0.5 s
//  7 clip walk, speed -1
//  8 pose node of p
struct AllKinds : Rig {
  std::vector<uint32_t> in0{1, 2}, in1{3, 4, 8}, in2{5}, in4{6}, in6{7};
  AllKinds() {
    nodes.push_back(Node(maniGraphNodeAdditive, &in0));
    nodes[0].parameter = kFloat;
    nodes.push_back(Node(maniGraphNodeSelect, &in1));
    nodes[1].parameter = kBool;
    nodes.push_back(Node(maniGraphNodeTimeScale, &in2));
    nodes[2].factor = 2.0f;
    nodes.push_back(Node(maniGraphNodeClip));
    nodes.push_back(Node(maniGraphNodeMirror, &in4));
    nodes.push_back(Node(maniGraphNodeClip));
    nodes[5].clip = 1;
    nodes.push_back(Node(maniGraphNodeSeek, &in6));
    nodes[6].parameter = kTrigger;
    nodes[6].time = 0.5f;
    nodes.push_back(Node(maniGraphNodeClip));
    nodes[7].speed = -1.0f;
    nodes.push_back(Node(maniGraphNodePose));
    nodes[8].parameter = kPose;
    Sync();
  }
};

TEST(GraphNodes, EveryKindBuildsWithItsWordsAndMarks) {
  AllKinds k;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  ASSERT_EQ(maniGraph_GetNodeCount(&g), 9u);
  // The order: the first ready node in the source next. Ready at first:
  // 3, 5, 7, 8 (no inputs); 3 goes, then 5, then 2 (its input 5 placed),
  // then 7, 6, 4, 8, 1, 0.
  const uint32_t order[9] = {3, 5, 2, 7, 6, 4, 8, 1, 0};
  uint32_t place[9];
  for (uint32_t n = 0; n < 9; ++n) {
    EXPECT_EQ(maniGraph_GetNodeSourcePlace(&g, n), order[n]) << n;
    place[order[n]] = n;
  }
  EXPECT_EQ(maniGraph_GetNodeKind(&g, place[0]), maniGraphNodeAdditive);
  EXPECT_EQ(maniGraph_GetNodeKind(&g, place[1]), maniGraphNodeSelect);
  EXPECT_EQ(maniGraph_GetNodeKind(&g, place[2]), maniGraphNodeTimeScale);
  EXPECT_EQ(maniGraph_GetNodeKind(&g, place[4]), maniGraphNodeMirror);
  EXPECT_EQ(maniGraph_GetNodeKind(&g, place[6]), maniGraphNodeSeek);
  EXPECT_EQ(maniGraph_GetNodeKind(&g, place[8]), maniGraphNodePose);
  EXPECT_EQ(maniGraph_GetNodeInput(&g, place[0], 0), place[1]);
  EXPECT_EQ(maniGraph_GetNodeInput(&g, place[0], 1), place[2]);
  EXPECT_EQ(maniGraph_GetNodeInput(&g, place[1], 2), place[8]);
  EXPECT_EQ(maniGraph_GetMirrorMapIdentity(&g), maniMirrorMap_GetIdentity(&k.mirror.m));
  EXPECT_NE(maniGraph_GetMirrorMapIdentity(&g), 0u);
  // Flags: differences at the lean clip (5) and the time scale over it
  // (2); mirrored beneath the mirror node (6 and 7), not the mirror itself.
  for (uint32_t s = 0; s < 9; ++s) {
    const uint32_t flags = Word(Record(g, place[s]), 4);
    EXPECT_EQ((flags & MANI_GRAPH_NODE_DIFFERENCE) != 0, s == 5 || s == 2) << s;
    EXPECT_EQ((flags & MANI_GRAPH_NODE_MIRRORED) != 0, s == 6 || s == 7) << s;
  }
  // Index and number words.
  float number;
  EXPECT_EQ(Word(Record(g, place[0]), 24), (uint32_t)kFloat);
  EXPECT_EQ(Word(Record(g, place[0]), 28), 0u);  // a parameter stands for the weight
  EXPECT_EQ(Word(Record(g, place[1]), 24), (uint32_t)kBool);
  EXPECT_EQ(Word(Record(g, place[2]), 24), MANI_NO_PARAMETER);
  number = mcore_ReadF32(Record(g, place[2]) + 28);
  EXPECT_EQ(number, 2.0f);
  EXPECT_EQ(Word(Record(g, place[6]), 24), (uint32_t)kTrigger);
  number = mcore_ReadF32(Record(g, place[6]) + 28);
  EXPECT_EQ(number, 0.5f);
  EXPECT_EQ(Word(Record(g, place[8]), 24), (uint32_t)kPose);
  EXPECT_EQ(Word(Record(g, place[4]), 24), 0u);
  number = mcore_ReadF32(Record(g, place[7]) + 28);
  EXPECT_EQ(number, -1.0f);
  // Inputs of kinds other than blends carry no weight parameter.
  const uint32_t first = Word(Record(g, place[0]), 16);
  EXPECT_EQ(mcore_ReadU32(g.bytes + g.inputs + 8u * first + 4), MANI_NO_PARAMETER);
  // Slots: at most the live poses. Walking the order: 3 s0; 5 s1; 2 s2,
  // frees s1; 7 s1; 6 s3, frees s1; 4 s1, frees s3; 8 s3; 1 s4, frees s3
  // s1 s0... so five slots.
  EXPECT_EQ(g.poseSlotCount, 5u);
}

TEST(GraphNodes, AdditiveWeightWithoutParameterRecorded) {
  AllKinds k;
  k.nodes[0].parameter = MANI_NO_PARAMETER;
  k.nodes[0].weight = 0.75f;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  EXPECT_EQ(Word(Record(g, 8), 24), MANI_NO_PARAMETER);
  EXPECT_EQ(mcore_ReadF32(Record(g, 8) + 28), 0.75f);
}

TEST(GraphNodes, NoMirrorMapRecordsZero) {
  Rig r;
  r.nodes.push_back(Node(maniGraphNodeClip));
  r.Sync();
  r.src.mirror = nullptr;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &r.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetMirrorMapIdentity(&g), 0u);
  EXPECT_EQ(maniGraph_GetMirrorMapIdentity(nullptr), 0u);
}

TEST(GraphNodes, KindsNotBuiltYetRefusedWithTheirKind) {
  for (maniGraphNodeKind kind :
       {maniGraphNodeIk,
        maniGraphNodeSpring, maniGraphNodeMotionMatch, maniGraphNodeLearned}) {
    AllKinds k;
    k.nodes[3].kind = kind;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonNode, 3, (uint64_t)kind);
  }
}

TEST(GraphNodes, InputCountsTheKindDoesNotTakeRefused) {
  {
    AllKinds k;  // an additive of one input
    k.nodes[0].inputCount = 1;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonInput, 0, 0);
  }
  {
    AllKinds k;  // a time scale of none
    k.nodes[2].inputCount = 0;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonInput, 2, 0);
  }
  {
    AllKinds k;  // a mirror of two
    std::vector<uint32_t> two{6, 7};
    k.nodes[4].inputs = two.data();
    k.nodes[4].inputCount = 2;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonInput, 4, 0);
  }
  {
    AllKinds k;  // a seek of two
    std::vector<uint32_t> two{7, 7};
    k.nodes[6].inputs = two.data();
    k.nodes[6].inputCount = 2;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonInput, 6, 0);
  }
  {
    AllKinds k;  // a select of none
    k.nodes[1].inputCount = 0;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonInput, 1, 0);
  }
  {
    AllKinds k;  // a pose node with an input
    std::vector<uint32_t> one{3};
    k.nodes[8].inputs = one.data();
    k.nodes[8].inputCount = 1;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonInput, 8, 0);
  }
  {
    AllKinds k;  // an input past the nodes, at its place
    k.in1[2] = 9;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonInput, 1, 2);
  }
  {
    AllKinds k;  // inputs NULL with a count
    k.nodes[1].inputs = nullptr;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonCount, 1, 0);
  }
}

TEST(GraphNodes, ParametersOfTheWrongTypeRefused) {
  const struct {
    uint32_t node, parameter;
  } cases[] = {
      {1, kTrigger}, {1, kPose}, {1, MANI_NO_PARAMETER}, {1, 5},  // select: a float or bool
      {2, kBool},    {2, 5},                                      // time scale: a float or none
      {6, kFloat},   {6, MANI_NO_PARAMETER},                      // seek: a trigger
      {0, kTrigger}, {0, 7},                                      // additive: a float or none
      {8, kFloat},   {8, MANI_NO_PARAMETER},                      // pose: a pose parameter
  };
  for (const auto& c : cases) {
    AllKinds k;
    k.nodes[c.node].parameter = c.parameter;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonParameter, c.node, 0);
  }
  // A float select and a float time scale build.
  AllKinds k;
  k.nodes[1].parameter = kFloat2;
  k.nodes[2].parameter = kFloat2;
  Builder b;
  EXPECT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
}

TEST(GraphNodes, ScalarsOutOfRangeRefused) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  {
    AllKinds k;
    k.nodes[2].factor = nan;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonScalar, 2, 0);
    k.nodes[2].factor = -inf;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonScalar, 2, 0);
    k.nodes[2].factor = -64.5f;
    ExpectRefused(k.src, mani_errorLimit, maniBuildReasonScalar, 2, 0);
    k.nodes[2].factor = -64.0f;
    Builder b;
    EXPECT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
    // With a parameter the factor is not read.
    k.nodes[2].factor = nan;
    k.nodes[2].parameter = kFloat;
    EXPECT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
  }
  {
    AllKinds k;
    k.nodes[6].time = -0.001f;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonScalar, 6, 0);
    k.nodes[6].time = inf;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonScalar, 6, 0);
    k.nodes[6].time = nan;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonScalar, 6, 0);
    k.nodes[6].time = 0.0f;
    Builder b;
    EXPECT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
  }
  {
    AllKinds k;
    k.nodes[0].parameter = MANI_NO_PARAMETER;
    for (float w : {1.0001f, -0.0001f, nan, inf}) {
      k.nodes[0].weight = w;
      ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonWeight, 0, 0);
    }
    k.nodes[0].weight = 1.0f;
    Builder b;
    EXPECT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
  }
}

TEST(GraphNodes, DifferencesWherePosesAreNeededRefused) {
  {
    AllKinds k;  // the additive's base a difference (the time scale over lean)
    k.in0[0] = 2;
    k.in0[1] = 1;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonDifference, 0, 0);
  }
  {
    AllKinds k;  // the additive's second a pose (the time scale over walk)
    k.nodes[5].clip = 0;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonDifference, 0, 1);
  }
  {
    AllKinds k;  // a select over a pose, a difference, ...: other the first odd input
    std::vector<uint32_t> in{3, 2, 4, 8};
    k.nodes[1].inputs = in.data();
    k.nodes[1].inputCount = 4;
    ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonDifference, 1, 1);
  }
  {
    Rig r;  // the output a difference
    r.nodes.push_back(Node(maniGraphNodeClip));
    r.nodes[0].clip = 1;
    ExpectRefused(r.Sync(), mani_errorInvalid, maniBuildReasonDifference, 0, 0);
  }
  {
    Rig r;  // a blend of a difference and a pose
    std::vector<uint32_t> in{1, 2}, w{kFloat, kFloat};
    r.nodes.push_back(Node(maniGraphNodeBlend, &in));
    r.nodes[0].parameters = w.data();
    r.nodes.push_back(Node(maniGraphNodeClip));
    r.nodes.push_back(Node(maniGraphNodeClip));
    r.nodes[2].clip = 1;
    ExpectRefused(r.Sync(), mani_errorInvalid, maniBuildReasonDifference, 0, 1);
  }
}

TEST(GraphNodes, MirrorWithoutAMapRefused) {
  AllKinds k;
  k.src.mirror = nullptr;
  ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonMirrorGraph, 4, 0);
  // A map of another skeleton.
  Skel other{77, 6};
  Mirror foreign(&other.s);
  k.src.mirror = &foreign.m;
  ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonMirrorGraph, 0, 1);
  // An unopened map.
  maniMirrorMap zero;
  memset(&zero, 0, sizeof zero);
  k.src.mirror = &zero;
  ExpectRefused(k.src, mani_errorInvalid, maniBuildReasonMirrorGraph, 0, 1);
}

TEST(GraphNodes, NodeUnderMirroredAndUnmirroredPathsRefused) {
  // 0 blend(1, 2); 1 mirror(2); 2 clip: the clip read mirrored by 1 and
  // unmirrored by 0. Down from the output in order (2, 1, 0): 0 gives 1 and
  // 2 parity 0; then 1 (a mirror) gives 2 parity 1: refused at 2, reader 1.
  Rig r;
  std::vector<uint32_t> in0{1, 2}, in1{2}, w{kFloat, kFloat};
  r.nodes.push_back(Node(maniGraphNodeBlend, &in0));
  r.nodes[0].parameters = w.data();
  r.nodes.push_back(Node(maniGraphNodeMirror, &in1));
  r.nodes.push_back(Node(maniGraphNodeClip));
  ExpectRefused(r.Sync(), mani_errorInvalid, maniBuildReasonMirrorParity, 2, 1);
  // Two mirrors on one path cancel: 0 blend(1, 3); 1 mirror(2); 2
  // mirror(3); 3 clip: read at parity 0 both ways.
  std::vector<uint32_t> in0b{1, 3}, in2{3};
  r.nodes = {Node(maniGraphNodeBlend, &in0b), Node(maniGraphNodeMirror, &in1), Node(maniGraphNodeMirror, &in2),
             Node(maniGraphNodeClip)};
  r.nodes[0].parameters = w.data();
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &r.Sync()).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  // Order 3, 2, 1, 0: the clip unmirrored, the inner mirror (2) mirrored.
  EXPECT_EQ(Word(Record(g, 0), 4) & MANI_GRAPH_NODE_MIRRORED, 0u);
  EXPECT_EQ(Word(Record(g, 1), 4) & MANI_GRAPH_NODE_MIRRORED, MANI_GRAPH_NODE_MIRRORED);
  EXPECT_EQ(Word(Record(g, 2), 4) & MANI_GRAPH_NODE_MIRRORED, 0u);
}

// -- Opening ------------------------------------------------------------------------

TEST(GraphNodes, EveryMutationOfEveryKindRefused) {
  AllKinds k;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
  File file = b.Built();
  ExpectEveryMutationRefused(file.data(), file.size, [](const void* p, size_t n) {
    maniGraph g;
    return maniOpenGraph(p, n, &g);
  });
}

void Reseal(File& f) {
  const uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindGraph, f.data() + 64, f.size - 64);
  memcpy(f.data() + 32, &id, 8);
}

// Each record word rewritten (and the file resealed) is refused at the byte
// the format's checks name.
TEST(GraphNodes, ResealedRecordsRefusedAtTheirWord) {
  AllKinds k;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &k.src).result, mani_success);
  const File built = b.Built();
  maniGraph g;
  File view = built;
  ASSERT_EQ(maniOpenGraph(view.data(), view.size, &g).result, mani_success);
  const uint64_t nodes = g.nodes, inputs = g.inputs;
  struct Patch {
    uint64_t at;    // the word's offset in the file
    uint32_t value; // written there
    uint64_t wrong; // the offset the open names
  };
  // File places: 0 clip walk(3), 1 clip lean(5), 2 time scale(2), 3 clip
  // walk(7), 4 seek(6), 5 mirror(4), 6 pose(8), 7 select(1), 8 additive(0).
  auto rec = [&](uint32_t n, uint32_t word) { return nodes + 32u * n + word; };
  const uint32_t selFirst = mcore_ReadU32(view.data() + rec(7, 16));
  const uint32_t scaleFirst = mcore_ReadU32(view.data() + rec(2, 16));
  uint32_t minus;
  const float minusOne = -1.0f;
  memcpy(&minus, &minusOne, 4);
  const Patch patches[] = {
      {rec(2, 0), maniGraphNodeLearned, rec(2, 0)},                   // a kind not in the format
      {rec(2, 4), MANI_GRAPH_NODE_DIFFERENCE | 0x100u, rec(2, 4)},    // direct on a time scale
      {rec(7, 24), kTrigger, rec(7, 24)},                             // a select of a trigger
      {rec(7, 28), 1u, rec(7, 28)},                                   // a select's number not 0
      {rec(2, 24), kBool, rec(2, 24)},                                // a time scale of a bool
      {rec(4, 24), kFloat, rec(4, 24)},                               // a seek of a float
      {rec(4, 28), minus, rec(4, 28)},                                // a seek to -1 s
      {rec(8, 28), 0x3F800000u, rec(8, 28)},                          // an additive's weight beside a parameter
      {rec(6, 24), kFloat, rec(6, 24)},                               // a pose node of a float
      {rec(5, 24), 1u, rec(5, 24)},                                   // a mirror's index not 0
      {rec(5, 20), 2u, rec(5, 20)},                                   // a mirror of two inputs
      {inputs + 8u * selFirst + 4, kFloat, inputs + 8u * selFirst + 4},  // a weight on a select input
      {rec(2, 4), 0u, inputs + 8u * scaleFirst},                      // the time scale unmarked over the lean
      {rec(6, 4), MANI_GRAPH_NODE_DIFFERENCE, rec(6, 4)},             // a pose node giving differences
      {rec(0, 4), MANI_GRAPH_NODE_MIRRORED, inputs + 8u * selFirst},  // the walk mirrored under the unmirrored select
      {rec(8, 4), MANI_GRAPH_NODE_MIRRORED, rec(8, 4)},               // the output mirrored
  };
  for (const Patch& p : patches) {
    File f = built;
    mcore_WriteU32(f.data() + p.at, p.value);
    Reseal(f);
    maniGraph out;
    maniFileResult r = maniOpenGraph(f.data(), f.size, &out);
    EXPECT_EQ(r.result, mani_errorFormat) << p.at;
    EXPECT_EQ(r.offset, p.wrong) << p.at;
  }
  // The mirror map's identity (info bytes 32-39, found by its value)
  // cleared with a mirror node present: refused at it; another identity
  // opens and reads back.
  const uint64_t identity = maniMirrorMap_GetIdentity(&k.mirror.m);
  size_t at = 0;
  File scan = built;
  while (at + 8 <= scan.size && memcmp(scan.data() + at, &identity, 8) != 0) ++at;
  ASSERT_LT(at + 8, built.size);
  {
    File f = built;
    memset(f.data() + at, 0, 8);
    Reseal(f);
    maniGraph out;
    maniFileResult r = maniOpenGraph(f.data(), f.size, &out);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.offset, at);
    mcore_WriteU64(f.data() + at, 12345u);
    Reseal(f);
    ASSERT_EQ(maniOpenGraph(f.data(), f.size, &out).result, mani_success);
    EXPECT_EQ(maniGraph_GetMirrorMapIdentity(&out), 12345u);
  }
}

}  // namespace

namespace {

// -- Masks ---------------------------------------------------------------------------

// Whether bone b lies in the subtree of `root` (walking its parents).
bool InSubtree(const maniSkeleton* s, uint32_t b, uint32_t root) {
  for (uint32_t at = b; at != MANI_NO_BONE; at = maniSkeleton_GetParent(s, at))
    if (at == root) return true;
  return false;
}

// 0 mask(1, 2) over the walk clip and the walk clip at speed 2.
struct MaskGraph : Rig {
  std::vector<uint32_t> in{1, 2};
  std::vector<maniGraphMaskChain> chains;
  MaskGraph() {
    nodes.push_back(Node(maniGraphNodeMask, &in));
    nodes.push_back(Node(maniGraphNodeClip));
    nodes.push_back(Node(maniGraphNodeClip));
    nodes[2].speed = 2.0f;
    Sync();
  }
  void SetChains() {
    nodes[0].chains = chains.data();
    nodes[0].chainCount = (uint32_t)chains.size();
  }
};

TEST(GraphNodes, MaskBoneWeightsFromItsChains) {
  MaskGraph m;
  const uint32_t bones = maniSkeleton_GetBoneCount(&m.skel.s);
  ASSERT_GE(bones, 6u);
  // A subtree from bone 1 at 0.5, bone 3 alone at 1 (a later chain wins),
  // a subtree from the last bone at 0.25; the others the default 0.125.
  m.chains = {{1, 0.5f, true}, {3, 1.0f, false}, {bones - 1, 0.25f, true}};
  m.SetChains();
  m.nodes[0].defaultWeight = 0.125f;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &m.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  ASSERT_EQ(g.maskCount, 1u);
  ASSERT_EQ(g.maskBones, bones);
  EXPECT_EQ(Word(Record(g, 2), 24), 0u);  // the first mask
  for (uint32_t bone = 0; bone < bones; ++bone) {
    float expected = 0.125f;
    if (InSubtree(&m.skel.s, bone, 1)) expected = 0.5f;
    if (bone == 3) expected = 1.0f;
    if (InSubtree(&m.skel.s, bone, bones - 1)) expected = 0.25f;
    EXPECT_EQ(mcore_ReadF32(g.bytes + g.masks + 16 + 4u * bone), expected) << bone;
  }
}

TEST(GraphNodes, MaskRefusals) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  {
    MaskGraph m;
    m.nodes[0].defaultWeight = 1.5f;
    ExpectRefused(m.src, mani_errorInvalid, maniBuildReasonWeight, 0, 0);
    m.nodes[0].defaultWeight = nan;
    ExpectRefused(m.src, mani_errorInvalid, maniBuildReasonWeight, 0, 0);
  }
  {
    MaskGraph m;
    m.chains = {{0, 1.0f, false}, {2, -0.25f, true}};
    m.SetChains();
    ExpectRefused(m.src, mani_errorInvalid, maniBuildReasonWeight, 0, 2);
    m.chains[1] = {maniSkeleton_GetBoneCount(&m.skel.s), 0.5f, false};
    ExpectRefused(m.src, mani_errorInvalid, maniBuildReasonJoint, 0, 1);
    m.nodes[0].chains = nullptr;
    ExpectRefused(m.src, mani_errorInvalid, maniBuildReasonCount, 0, 0);
    m.nodes[0].chainCount = MANI_MAX_BONES + 1;
    ExpectRefused(m.src, mani_errorLimit, maniBuildReasonNode, 0, 0);
  }
  {
    MaskGraph m;  // one input
    m.nodes[0].inputCount = 1;
    ExpectRefused(m.src, mani_errorInvalid, maniBuildReasonInput, 0, 0);
  }
  {
    MaskGraph m;  // a difference over a pose
    m.nodes[2].clip = 1;
    ExpectRefused(m.src, mani_errorInvalid, maniBuildReasonDifference, 0, 1);
  }
}

TEST(GraphNodes, ResealedMasksRefusedAtTheirBytes) {
  MaskGraph m;
  m.chains = {{1, 0.5f, true}};
  m.SetChains();
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &m.src).result, mani_success);
  const File built = b.Built();
  File view = built;
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(view.data(), view.size, &g).result, mani_success);
  const uint64_t masks = g.masks;
  const struct {
    uint64_t at;
    uint32_t value;
    uint64_t wrong;
  } patches[] = {
      {masks + 16 + 4, 0x3FC00000u, masks + 16 + 4},   // a weight of 1.5
      {masks + 16 + 8, 0x7FC00000u, masks + 16 + 8},   // a NaN weight
      {masks + 16, 0xBF800000u, masks + 16},           // -1
      {masks + 4, 0u, masks + 4},                      // no bones
      {masks + 8, 1u, masks + 8},                      // the reserved word
      {masks, 4u, masks},                              // more masks than nodes
      {g.nodes + 2 * 32 + 24, 1u, g.nodes + 2 * 32 + 24},  // the mask's index
  };
  for (const auto& p : patches) {
    File f = built;
    mcore_WriteU32(f.data() + p.at, p.value);
    Reseal(f);
    maniGraph out;
    maniFileResult r = maniOpenGraph(f.data(), f.size, &out);
    EXPECT_EQ(r.result, mani_errorFormat) << p.at;
    EXPECT_EQ(r.offset, p.wrong) << p.at;
  }
  ExpectEveryMutationRefused(built.words.empty() ? nullptr : view.data(), view.size, [](const void* p, size_t n) {
    maniGraph out;
    return maniOpenGraph(p, n, &out);
  });
}

}  // namespace
