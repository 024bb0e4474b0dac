// Graph runtime of the layering and time kinds (graph.h): masks, additive
// layers, selects, time scales, seeks, mirrors and pose nodes. Each graph's
// pose, events and root motion are compared bit for bit with the same
// computation made here through the direct API (maniClip_Sample at playheads
// computed here, maniSkeleton_BlendPoses with bone weights,
// maniPose_AddLayers, maniMirrorMap_MirrorPose / MirrorRootMotion,
// maniClip_GetRootMotion and maniBlendRootMotion), never read back from the
// graph runtime; then Save/Restore mid-run and subsets on the seeded layer
// graphs (graph_fixtures.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/blend.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/rootmotion.h"

namespace {

struct Mem {
  std::vector<uint64_t> words;
  uint8_t* p = nullptr;
  size_t size = 0;
  explicit Mem(size_t n = 0) : size(n) {
    words.assign(n / 8 + 8, 0);
    uintptr_t a = (reinterpret_cast<uintptr_t>(words.data()) + 31) & ~uintptr_t(31);
    p = reinterpret_cast<uint8_t*>(a);
  }
};

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s, maniLoopPolicy loop = maniLoopRepeat,
       maniAdditiveBasis additive = maniAdditiveNone) {
    maniFixtureClip fc;
    const uint32_t flags = MANI_FIXTURE_CLIP_TRACKS | (additive == maniAdditiveNone ? MANI_FIXTURE_CLIP_ROOT_MOTION : 0u);
    maniFixtureMakeClip(&fc, seed, s, flags, loop, additive);
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&fc.source, &size);
    EXPECT_NE(bytes, nullptr);
    file.Assign(bytes, size);
    free(bytes);
    maniFixtureFreeClip(&fc);
    EXPECT_EQ(maniOpenClip(file.data(), file.size, &c).result, mani_success);
  }
};

// A pose of a skeleton in its own memory.
struct Pose {
  Mem mem;
  maniPose* p = nullptr;
  explicit Pose(const maniSkeleton* s) : mem(maniSkeleton_GetPoseSize(s)) {
    EXPECT_EQ(maniInitPose(s, mem.p, mem.size, &p), mani_success);
  }
};

// A mirror rig (2 chains of 3 bones a side across x) and its map by the
// Left/Right rules.
struct MirrorRig {
  File skelFile, mapFile;
  maniSkeleton s;
  maniMirrorMap m;
  MirrorRig() {
    maniSkeletonSource src = maniFixtureMakeMirrorRig(0x4D52, 0, 2, 3, 0);
    size_t size = 0;
    void* bytes = maniFixtureBuildSkeleton(&src, &size);
    EXPECT_NE(bytes, nullptr);
    skelFile.Assign(bytes, size);
    free(bytes);
    maniFixtureFreeMirrorRig(&src);
    EXPECT_EQ(maniOpenSkeleton(skelFile.data(), skelFile.size, &s).result, mani_success);
    maniMirrorMapSource ms;
    memset(&ms, 0, sizeof ms);
    ms.skeleton = &s;
    ms.axis = maniMirrorAxisX;
    ms.rules = maniFixtureMirrorRules;
    ms.ruleCount = 2;
    Builder b;
    EXPECT_EQ(maniBuildMirrorMap(b.b, &ms).result, mani_success);
    mapFile = b.Built();
    EXPECT_EQ(maniOpenMirrorMap(mapFile.data(), mapFile.size, &m).result, mani_success);
  }
};

maniGraphParameterSource Param(const char* name, maniGraphParameterType type, float value = 0.0f) {
  maniGraphParameterSource p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.nameLength = strlen(name);
  p.type = type;
  if (type == maniGraphParameterFloat) p.value.number = value;
  return p;
}

maniGraphNodeSource Node(maniGraphNodeKind kind, const uint32_t* inputs = nullptr, uint32_t count = 0) {
  maniGraphNodeSource n;
  memset(&n, 0, sizeof n);
  n.kind = kind;
  n.speed = 1.0f;
  n.parameter = MANI_NO_PARAMETER;
  n.inputs = inputs;
  n.inputCount = count;
  return n;
}

maniGraphNodeSource ClipNode(uint32_t clip, float speed) {
  maniGraphNodeSource n = Node(maniGraphNodeClip);
  n.clip = clip;
  n.speed = speed;
  return n;
}

// A built, bound graph with one instance, a scratch and a pose; the source
// kept by the caller.
struct Play {
  const maniSkeleton* s;
  File file;
  maniGraph g;
  std::vector<const maniClip*> clips;
  maniGraphAssets assets;
  Mem binding, instance, scratch;
  maniGraphBinding* b = nullptr;
  maniGraphInstance* i = nullptr;
  Pose pose;
  std::vector<maniGraphEvent> events;
  uint32_t eventCount = 0;
  maniRootMove move;
  Play(const maniGraphSource& src, std::vector<const maniClip*> list, const maniMirrorMap* mirror = nullptr)
      : s(src.skeleton), clips(list), pose(src.skeleton) {
    Builder builder;
    const maniBuildResult r = maniBuildGraph(builder.b, &src);
    EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
    file = builder.Built();
    EXPECT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
    memset(&assets, 0, sizeof assets);
    assets.skeleton = s;
    assets.clips = clips.data();
    assets.clipCount = (uint32_t)clips.size();
    assets.mirrorMap = mirror;
    binding = Mem(maniGraph_GetBindingSize(&g));
    EXPECT_EQ(maniBindGraph(&g, &assets, binding.p, binding.size, &b, nullptr), mani_success);
    instance = Mem(maniGraphBinding_GetInstanceSize(b));
    EXPECT_EQ(maniInitGraphInstance(b, instance.p, instance.size, &i), mani_success);
    scratch = Mem(maniGraphBinding_GetScratchSize(b));
    events.resize(64);
  }
  void Step(float dt) {
    ASSERT_EQ(maniGraphInstance_Update(i, dt, events.data(), 64, &eventCount, &move), mani_success);
    ASSERT_EQ(maniGraphInstance_Evaluate(i, scratch.p, scratch.size, pose.p), mani_success);
  }
  uint32_t NodeOf(uint32_t place) const {
    for (uint32_t n = 0; n < maniGraph_GetNodeCount(&g); ++n)
      if (maniGraph_GetNodeSourcePlace(&g, n) == place) return n;
    return MANI_GRAPH_NONE;
  }
  maniGraphNodeView View(uint32_t place) const {
    maniGraphNodeView v;
    EXPECT_EQ(maniGraphInstance_InspectNode(i, NodeOf(place), &v), mani_success);
    return v;
  }
  void SetFloat(uint32_t p, float v) {
    maniGraphValue value;
    memset(&value, 0, sizeof value);
    value.number = v;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, maniGraphParameterFloat, value), mani_success);
  }
  void SetFlag(uint32_t p, maniGraphParameterType type, uint32_t flag) {
    maniGraphValue value;
    memset(&value, 0, sizeof value);
    value.flag = flag;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, type, value), mani_success);
  }
  uint32_t Flag(uint32_t p) const {
    maniGraphValue value;
    EXPECT_EQ(maniGraphInstance_GetParameter(i, p, &value), mani_success);
    return value.flag;
  }
};

// A playhead moved as graph.h says, computed here.
float Advance(const maniClip* c, float from, float step) {
  const float d = maniClip_GetDuration(c);
  if (!(d > 0.0f)) return from;
  if (maniClip_GetLoopPolicy(c) == maniLoopClamp) return std::fmin(std::fmax(from + step, 0.0f), d);
  double t = (double)from + (double)step;
  while (t >= d) t -= d;
  while (t < 0.0) t += d;
  float f = (float)t;
  return f >= d ? 0.0f : f;
}

// A seek's playhead, computed here.
float SeekTo(const maniClip* c, float time) {
  const float d = maniClip_GetDuration(c);
  if (maniClip_GetLoopPolicy(c) == maniLoopClamp) return std::fmin(time, d);
  double t = time;
  while (t >= d) t -= d;
  float f = (float)t;
  return f >= d ? 0.0f : f;
}

std::vector<maniTransform> Locals(const maniPose* p) {
  std::vector<maniTransform> t(maniPose_GetBoneCount(p));
  EXPECT_EQ(maniPose_ReadLocals(p, 0, (uint32_t)t.size(), t.data()), mani_success);
  return t;
}

::testing::AssertionResult SameBits(const maniPose* a, const maniPose* b) {
  const std::vector<maniTransform> x = Locals(a), y = Locals(b);
  if (x.size() != y.size()) return ::testing::AssertionFailure() << "bone counts differ";
  for (size_t k = 0; k < x.size(); ++k)
    if (memcmp(&x[k], &y[k], sizeof x[k]) != 0) return ::testing::AssertionFailure() << "bone " << k << " differs";
  if (maniPose_IsDifference(a) != maniPose_IsDifference(b)) return ::testing::AssertionFailure() << "kinds differ";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult SameMove(const maniRootMove& a, const maniRootMove& b) {
  if (memcmp(&a, &b, sizeof a) != 0)
    return ::testing::AssertionFailure() << "moves differ: " << a.translation.x << " vs " << b.translation.x;
  return ::testing::AssertionSuccess();
}

maniRootMove MoveOf(const maniClip* c, float from, float step) {
  maniRootMove m = maniMakeRootMoveIdentity();
  EXPECT_EQ(maniClip_GetRootMotion(c, from, step, &m), mani_success);
  return m;
}

maniRootMove Blend(const std::vector<maniRootMove>& moves, const std::vector<float>& weights) {
  maniRootMove m = maniMakeRootMoveIdentity();
  EXPECT_EQ(maniBlendRootMotion(moves.data(), weights.data(), (uint32_t)moves.size(), &m), mani_success);
  return m;
}

// -- Masks --------------------------------------------------------------------

// mask(a, b) of one subtree chain over a default: the pose is the blend of
// a by 1 - w and b by w (w from maniSkeleton_BuildMask, the same rule for
// one chain), the root motion a's and b's by 1 - w and w at bone 0, b's
// events at its largest weight.
TEST(GraphPlay, MaskBlendsByBoneWeightsAndRootWeight) {
  Skel skel(41, 16);
  Clip a(1, &skel.s), b(2, &skel.s, maniLoopClamp);
  const uint32_t in[2] = {0, 1};
  maniGraphMaskChain chain = {3, 0.75f, true};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 0.5f), Node(maniGraphNodeMask, in, 2)};
  nodes[2].chains = &chain;
  nodes[2].chainCount = 1;
  nodes[2].defaultWeight = 0.25f;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 3;
  src.output = 2;
  Play p(src, {&a.c, &b.c});
  const uint32_t bones = maniSkeleton_GetBoneCount(&skel.s);
  std::vector<float> w(bones), rest(bones);
  maniMaskChain mc = {3, 0.75f, true};
  ASSERT_EQ(maniSkeleton_BuildMask(&skel.s, &mc, 1, 0.25f, w.data(), bones, nullptr), mani_success);
  for (uint32_t k = 0; k < bones; ++k) rest[k] = 1.0f - w[k];
  Pose pa(&skel.s), pb(&skel.s), expect(&skel.s);
  float ta = 0.0f, tb = 0.0f;
  for (int u = 0; u < 12; ++u) {
    const float dt = 0.037f * (float)(u + 1);
    p.Step(dt);
    const maniRootMove ma = MoveOf(&a.c, ta, dt * 1.0f), mb = MoveOf(&b.c, tb, dt * 0.5f);
    ta = Advance(&a.c, ta, dt * 1.0f);
    tb = Advance(&b.c, tb, dt * 0.5f);
    ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, ta, pa.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&b.c, &skel.s, tb, pb.p), mani_success);
    maniBlendLayer layers[2] = {{pa.p, 1.0f, rest.data()}, {pb.p, 1.0f, w.data()}};
    ASSERT_EQ(maniSkeleton_BlendPoses(&skel.s, layers, 2, MANI_BLEND_THRESHOLD_MIN, expect.p), mani_success);
    EXPECT_TRUE(SameBits(p.pose.p, expect.p)) << "update " << u;
    EXPECT_TRUE(SameMove(p.move, Blend({ma, mb}, {1.0f - w[0], w[0]}))) << "update " << u;
    EXPECT_EQ(p.View(0).weight, 1.0f);
    EXPECT_EQ(p.View(1).weight, 0.75f);  // the largest bone weight
    for (uint32_t e = 0; e < p.eventCount && e < 64; ++e)
      EXPECT_EQ(p.events[e].weight, p.events[e].node == p.NodeOf(1) ? 0.75f : 1.0f);
  }
  // The chain's subtree at 0.75, the rest at 0.25: the weights the builder
  // made are BuildMask's.
  EXPECT_EQ(w[3], 0.75f);
  EXPECT_EQ(w[0], 0.25f);
}

// A mask whose bone weights are all 0 gives its base as it is and leaves
// its second input unweighed (no events, no root motion from it).
TEST(GraphPlay, MaskOfNoWeightGivesItsBase) {
  Skel skel(42, 12);
  Clip a(3, &skel.s), b(4, &skel.s);
  const uint32_t in[2] = {0, 1};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.0f), Node(maniGraphNodeMask, in, 2)};
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 3;
  src.output = 2;
  Play p(src, {&a.c, &b.c});
  p.Step(0.3f);
  Pose pa(&skel.s);
  ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, Advance(&a.c, 0.0f, 0.3f), pa.p), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, pa.p));
  EXPECT_EQ(p.View(1).weight, 0.0f);
  EXPECT_TRUE(SameMove(p.move, Blend({MoveOf(&a.c, 0.0f, 0.3f)}, {1.0f})));
  for (uint32_t e = 0; e < p.eventCount && e < 64; ++e) EXPECT_EQ(p.events[e].node, p.NodeOf(0));
}

// -- Additive layers ----------------------------------------------------------

// additive(a, d) by a parameter: a, then d added at the parameter held to
// [0, 1]; root motion a's alone; d's events at its weight.
TEST(GraphPlay, AdditiveAddsTheDifferenceAtItsWeight) {
  Skel skel(43, 14);
  Clip a(5, &skel.s), d(6, &skel.s, maniLoopRepeat, maniAdditiveRest);
  const uint32_t in[2] = {0, 1};
  std::vector<maniGraphParameterSource> params = {Param("aw", maniGraphParameterFloat, 0.6f)};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.25f), Node(maniGraphNodeAdditive, in, 2)};
  nodes[2].parameter = 0;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"d", 1, &d.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 1;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 3;
  src.output = 2;
  Play p(src, {&a.c, &d.c});
  Pose pd(&skel.s), expect(&skel.s);
  float ta = 0.0f, td = 0.0f;
  const float weights[5] = {0.6f, 1.7f, -0.2f, 0.3f, 1.0f};
  for (int u = 0; u < 5; ++u) {
    p.SetFloat(0, weights[u]);
    const float dt = 0.11f;
    p.Step(dt);
    const maniRootMove ma = MoveOf(&a.c, ta, dt);
    ta = Advance(&a.c, ta, dt);
    td = Advance(&d.c, td, dt * 1.25f);
    const float w = std::fmin(std::fmax(weights[u], 0.0f), 1.0f);
    ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, ta, expect.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&d.c, &skel.s, td, pd.p), mani_success);
    maniBlendLayer layer = {pd.p, w, nullptr};
    if (w > 0.0f) {
      ASSERT_EQ(maniPose_AddLayers(expect.p, &skel.s, &layer, 1), mani_success);
    }
    EXPECT_TRUE(SameBits(p.pose.p, expect.p)) << "update " << u;
    EXPECT_TRUE(SameMove(p.move, Blend({ma}, {1.0f}))) << "update " << u;
    EXPECT_EQ(p.View(1).weight, w);
    for (uint32_t e = 0; e < p.eventCount && e < 64; ++e)
      if (p.events[e].node == p.NodeOf(1)) {
        EXPECT_EQ(p.events[e].weight, w);
      }
  }
}

// The weight set after the update (0.6 to 0) changes nothing until the next
// update: "as its last update weighed it", across a save and restore too.
TEST(GraphPlay, AdditiveWeightChangedAfterUpdateKeepsTheUpdatesWeight) {
  Skel skel(43, 14);
  Clip a(5, &skel.s), d(6, &skel.s, maniLoopRepeat, maniAdditiveRest);
  const uint32_t in[2] = {0, 1};
  std::vector<maniGraphParameterSource> params = {Param("aw", maniGraphParameterFloat, 0.6f)};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.25f), Node(maniGraphNodeAdditive, in, 2)};
  nodes[2].parameter = 0;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"d", 1, &d.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 1;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 3;
  src.output = 2;
  Play p(src, {&a.c, &d.c});
  p.SetFloat(0, 0.6f);
  p.Step(0.2f);
  Pose expect(&skel.s), pd(&skel.s), after(&skel.s);
  ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, Advance(&a.c, 0.0f, 0.2f), expect.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&d.c, &skel.s, Advance(&d.c, 0.0f, 0.25f), pd.p), mani_success);
  maniBlendLayer layer = {pd.p, 0.6f, nullptr};
  ASSERT_EQ(maniPose_AddLayers(expect.p, &skel.s, &layer, 1), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
  p.SetFloat(0, 0.0f);
  ASSERT_EQ(maniGraphInstance_Evaluate(p.i, p.scratch.p, p.scratch.size, after.p), mani_success);
  EXPECT_TRUE(SameBits(after.p, expect.p)) << "a weight set since the update";
  size_t size = 0;
  ASSERT_EQ(maniGraphInstance_Save(p.i, nullptr, 0, &size), mani_errorCapacity);
  std::vector<uint64_t> saved(size / 8 + 1);
  ASSERT_EQ(maniGraphInstance_Save(p.i, saved.data(), size, &size), mani_success);
  Play q(src, {&a.c, &d.c});
  ASSERT_EQ(maniGraphInstance_Restore(q.i, saved.data(), size).result, mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(q.i, q.scratch.p, q.scratch.size, after.p), mani_success);
  EXPECT_TRUE(SameBits(after.p, expect.p)) << "restored";
  // A forged kept weight past 1 is refused at its byte (the last block before the tail).
  std::vector<uint8_t> bytes(size);
  memcpy(bytes.data(), saved.data(), size);
  const float two = 2.0f;
  memcpy(bytes.data() + size - 12, &two, 4);
  std::vector<uint64_t> forged(size / 8 + 1);
  memcpy(forged.data(), bytes.data(), size);
  const maniFileResult r = maniGraphInstance_Restore(q.i, forged.data(), size);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.offset, size - 12);
}

// An additive's constant weight without a parameter.
TEST(GraphPlay, AdditiveConstantWeight) {
  Skel skel(44, 10);
  Clip a(7, &skel.s), d(8, &skel.s, maniLoopClamp, maniAdditiveRest);
  const uint32_t in[2] = {0, 1};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.0f), Node(maniGraphNodeAdditive, in, 2)};
  nodes[2].weight = 0.35f;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"d", 1, &d.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 3;
  src.output = 2;
  Play p(src, {&a.c, &d.c});
  p.Step(0.4f);
  Pose pd(&skel.s), expect(&skel.s);
  ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, Advance(&a.c, 0.0f, 0.4f), expect.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&d.c, &skel.s, Advance(&d.c, 0.0f, 0.4f), pd.p), mani_success);
  maniBlendLayer layer = {pd.p, 0.35f, nullptr};
  ASSERT_EQ(maniPose_AddLayers(expect.p, &skel.s, &layer, 1), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
}

// -- Selects ------------------------------------------------------------------

struct Three {
  Skel skel{45, 12};
  Clip a{9, &skel.s}, b{10, &skel.s, maniLoopClamp}, c{11, &skel.s};
  uint32_t in[3] = {0, 1, 2};
  std::vector<maniGraphParameterSource> params = {Param("sel", maniGraphParameterFloat),
                                                  Param("flag", maniGraphParameterBool)};
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}, {"c", 1, &c.c, nullptr}};
  std::vector<maniGraphNodeSource> nodes;
  maniGraphSource src;
  explicit Three(uint32_t parameter) {
    nodes = {ClipNode(0, 1.0f), ClipNode(1, 0.75f), ClipNode(2, -1.0f), Node(maniGraphNodeSelect, in, 3)};
    nodes[3].parameter = parameter;
    memset(&src, 0, sizeof src);
    src.skeleton = &skel.s;
    src.parameters = params.data();
    src.parameterCount = 2;
    src.clips = clips.data();
    src.clipCount = 3;
    src.nodes = nodes.data();
    src.nodeCount = 4;
    src.output = 3;
  }
};

// A float select rounds to the nearest input (halves up), held to the
// inputs; every playhead moves whichever is chosen; the chosen clip's pose,
// root motion and events alone.
TEST(GraphPlay, SelectFloatPicksTheNearestInput) {
  Three f(0);
  Play p(f.src, {&f.a.c, &f.b.c, &f.c.c});
  const maniClip* list[3] = {&f.a.c, &f.b.c, &f.c.c};
  const float speeds[3] = {1.0f, 0.75f, -1.0f};
  const float values[8] = {-3.0f, 0.49f, 0.5f, 1.49f, 1.5f, 7.0f, 2.0f, 0.0f};
  const uint32_t chosen[8] = {0, 0, 1, 1, 2, 2, 2, 0};
  float t[3] = {0, 0, 0};
  Pose expect(&f.skel.s);
  for (int u = 0; u < 8; ++u) {
    p.SetFloat(0, values[u]);
    const float dt = 0.09f;
    p.Step(dt);
    maniRootMove m[3];
    for (int k = 0; k < 3; ++k) {
      m[k] = MoveOf(list[k], t[k], dt * speeds[k]);
      t[k] = Advance(list[k], t[k], dt * speeds[k]);
      EXPECT_EQ(p.View((uint32_t)k).playhead, t[k]);
    }
    const uint32_t c = chosen[u];
    ASSERT_EQ(maniClip_Sample(list[c], &f.skel.s, t[c], expect.p), mani_success);
    EXPECT_TRUE(SameBits(p.pose.p, expect.p)) << "update " << u;
    EXPECT_TRUE(SameMove(p.move, Blend({m[c]}, {1.0f}))) << "update " << u;
    for (uint32_t k = 0; k < 3; ++k) EXPECT_EQ(p.View(k).weight, k == c ? 1.0f : 0.0f);
    // What InspectNode shows of a select: its weight, no playhead or state.
    const maniGraphNodeView sv = p.View(3);
    EXPECT_EQ(sv.kind, maniGraphNodeSelect);
    EXPECT_EQ(sv.weight, 1.0f);
    EXPECT_EQ(sv.playhead, 0.0f);
    EXPECT_EQ(sv.state, MANI_GRAPH_NONE);
    EXPECT_EQ(sv.transition, MANI_GRAPH_NONE);
    EXPECT_EQ(sv.failed, 0u);
    for (uint32_t e = 0; e < p.eventCount && e < 64; ++e) EXPECT_EQ(p.events[e].node, p.NodeOf(c));
  }
}

// A bool select: false the first input, true the second.
TEST(GraphPlay, SelectBoolPicksFirstOrSecond) {
  Three f(1);
  Play p(f.src, {&f.a.c, &f.b.c, &f.c.c});
  Pose expect(&f.skel.s);
  p.Step(0.2f);
  ASSERT_EQ(maniClip_Sample(&f.a.c, &f.skel.s, Advance(&f.a.c, 0.0f, 0.2f), expect.p), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
  p.SetFlag(1, maniGraphParameterBool, 1);
  p.Step(0.2f);
  ASSERT_EQ(maniClip_Sample(&f.b.c, &f.skel.s, Advance(&f.b.c, Advance(&f.b.c, 0.0f, 0.15f), 0.15f), expect.p),
            mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
  EXPECT_EQ(p.View(1).weight, 1.0f);
  EXPECT_EQ(p.View(0).weight, 0.0f);
}

// A parameter changed between the update and the evaluation to an input
// the update did not weigh: the evaluation gives the input it weighed.
TEST(GraphPlay, SelectChangedAfterUpdateKeepsTheWeighedInput) {
  Three f(0);
  Play p(f.src, {&f.a.c, &f.b.c, &f.c.c});
  p.Step(0.25f);
  p.SetFloat(0, 2.0f);
  ASSERT_EQ(maniGraphInstance_Evaluate(p.i, p.scratch.p, p.scratch.size, p.pose.p), mani_success);
  Pose expect(&f.skel.s);
  ASSERT_EQ(maniClip_Sample(&f.a.c, &f.skel.s, Advance(&f.a.c, 0.0f, 0.25f), expect.p), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
}

// -- Time scales ----------------------------------------------------------------

// ts2(ts1(a)): the clip steps by (delta * (f1 * f2)) * speed, the factor
// parameter held to +-MANI_MAX_GRAPH_TIME_FACTOR; root motion and events
// over the scaled step.
TEST(GraphPlay, TimeScalesMultiplyTheStep) {
  Skel skel(46, 12);
  Clip a(12, &skel.s);
  const uint32_t in0[1] = {0}, in1[1] = {1};
  std::vector<maniGraphParameterSource> params = {Param("ts", maniGraphParameterFloat, 1.0f)};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 0.8f), Node(maniGraphNodeTimeScale, in0, 1),
                                            Node(maniGraphNodeTimeScale, in1, 1)};
  nodes[1].factor = 1.5f;
  nodes[2].parameter = 0;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 1;
  src.clips = clips.data();
  src.clipCount = 1;
  src.nodes = nodes.data();
  src.nodeCount = 3;
  src.output = 2;
  Play p(src, {&a.c});
  Pose expect(&skel.s);
  const float outer[6] = {1.0f, -0.5f, 2.25f, 100.0f, -100.0f, 0.0f};
  float t = 0.0f;
  for (int u = 0; u < 6; ++u) {
    p.SetFloat(0, outer[u]);
    const float dt = 0.013f;
    p.Step(dt);
    const float f2 = std::fmin(std::fmax(outer[u], -MANI_MAX_GRAPH_TIME_FACTOR), MANI_MAX_GRAPH_TIME_FACTOR);
    const float step = (dt * (f2 * 1.5f)) * 0.8f;
    const maniRootMove m = MoveOf(&a.c, t, step);
    const float from = t;
    t = Advance(&a.c, t, step);
    EXPECT_EQ(p.View(0).playhead, t) << "update " << u;
    ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, t, expect.p), mani_success);
    EXPECT_TRUE(SameBits(p.pose.p, expect.p)) << "update " << u;
    EXPECT_TRUE(SameMove(p.move, Blend({m}, {1.0f}))) << "update " << u;
    // Events over the scaled step (no wrap within these steps but the
    // large ones, which list whole clips: counted at least).
    if (std::fabs(step) < maniClip_GetDuration(&a.c) && step > 0.0f && t > from) {
      uint32_t first = 0, count = 0;
      maniClip_GetEventRange(&a.c, from, t, &first, &count);
      EXPECT_EQ(p.eventCount, count) << "update " << u;
    }
  }
}

// A time scale of factor 0 stops its clip (no step, no events).
TEST(GraphPlay, TimeScaleZeroStops) {
  Skel skel(47, 8);
  Clip a(13, &skel.s);
  const uint32_t in0[1] = {0};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), Node(maniGraphNodeTimeScale, in0, 1)};
  nodes[1].factor = 0.0f;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.clips = clips.data();
  src.clipCount = 1;
  src.nodes = nodes.data();
  src.nodeCount = 2;
  src.output = 1;
  Play p(src, {&a.c});
  p.Step(0.3f);
  p.Step(0.3f);
  EXPECT_EQ(p.View(0).playhead, 0.0f);
  EXPECT_EQ(p.eventCount, 0u);
}

// A time scale over a state machine moves its seconds too: a transition on
// 0.5 s in its state is taken an update earlier at factor 2 than at 1.
TEST(GraphPlay, TimeScaleMovesAMachinesSeconds) {
  Skel skel(51, 8);
  Clip a(20, &skel.s), b(21, &skel.s);
  for (float factor : {1.0f, 2.0f}) {
    const uint32_t states[2] = {0, 1}, in2[1] = {2};
    maniGraphConditionSource cond;
    memset(&cond, 0, sizeof cond);
    cond.kind = maniGraphConditionTime;
    cond.parameter = MANI_NO_PARAMETER;
    cond.value = 0.5f;
    maniGraphTransitionSource tr;
    memset(&tr, 0, sizeof tr);
    tr.from = 0;
    tr.to = 1;
    tr.conditions = &cond;
    tr.conditionCount = 1;
    std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.0f),
                                              Node(maniGraphNodeStateMachine, states, 2),
                                              Node(maniGraphNodeTimeScale, in2, 1)};
    nodes[2].transitions = &tr;
    nodes[2].transitionCount = 1;
    nodes[3].factor = factor;
    std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}};
    maniGraphSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = &skel.s;
    src.clips = clips.data();
    src.clipCount = 2;
    src.nodes = nodes.data();
    src.nodeCount = 4;
    src.output = 3;
    Play p(src, {&a.c, &b.c});
    float t = 0.0f;
    for (int u = 1; u <= 4; ++u) {
      p.Step(0.2f);
      t = Advance(&a.c, t, (0.2f * factor) * 1.0f);
      // Seconds after update k: 0.2 k factor; the transition is taken at
      // the start of the first update after they reach 0.5.
      const int taken = factor == 2.0f ? 3 : 4;
      EXPECT_EQ(p.View(2).state, u >= taken ? 1u : 0u) << "factor " << factor << " update " << u;
      if (u < taken) {
        EXPECT_EQ(p.View(0).playhead, t);
      }
    }
  }
}

// A clip read by two time scales takes the factor of its last reader in
// node order.
TEST(GraphPlay, SharedClipTakesItsLastReadersFactor) {
  Skel skel(52, 8);
  Clip a(22, &skel.s);
  const uint32_t in0[1] = {0}, blendIn[2] = {1, 2}, blendW[2] = {0, 0};
  std::vector<maniGraphParameterSource> params = {Param("w", maniGraphParameterFloat, 0.5f)};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), Node(maniGraphNodeTimeScale, in0, 1),
                                            Node(maniGraphNodeTimeScale, in0, 1), Node(maniGraphNodeBlend, blendIn, 2)};
  nodes[1].factor = 2.0f;
  nodes[2].factor = 3.0f;
  nodes[3].parameters = blendW;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 1;
  src.clips = clips.data();
  src.clipCount = 1;
  src.nodes = nodes.data();
  src.nodeCount = 4;
  src.output = 3;
  Play p(src, {&a.c});
  p.Step(0.05f);
  const float last = p.NodeOf(2) > p.NodeOf(1) ? 3.0f : 2.0f;
  EXPECT_EQ(p.View(0).playhead, Advance(&a.c, 0.0f, (0.05f * last) * 1.0f));
  EXPECT_EQ(p.View(0).weight, 1.0f);  // 0.5 + 0.5 from the two readers
}

// -- Seeks --------------------------------------------------------------------

// Two seeks on one trigger (a repeating clip and a clamped one): once set,
// both playheads move to their times (wrapped, held), with no root motion
// or events for that step, and the trigger is cleared; otherwise the clips
// step.
TEST(GraphPlay, SeekMovesPlayheadsAndConsumesTheTrigger) {
  Skel skel(48, 12);
  Clip a(14, &skel.s, maniLoopRepeat), b(15, &skel.s, maniLoopClamp);
  const uint32_t in0[1] = {0}, in1[1] = {1}, blendIn[2] = {2, 3}, blendW[2] = {1, 2};
  std::vector<maniGraphParameterSource> params = {Param("go", maniGraphParameterTrigger),
                                                  Param("w0", maniGraphParameterFloat, 0.5f),
                                                  Param("w1", maniGraphParameterFloat, 0.5f)};
  const float seekA = maniClip_GetDuration(&a.c) * 1.5f, seekB = maniClip_GetDuration(&b.c) + 3.0f;
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.0f), Node(maniGraphNodeSeek, in0, 1),
                                            Node(maniGraphNodeSeek, in1, 1), Node(maniGraphNodeBlend, blendIn, 2)};
  nodes[2].parameter = 0;
  nodes[2].time = seekA;
  nodes[3].parameter = 0;
  nodes[3].time = seekB;
  nodes[4].parameters = blendW;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 3;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 5;
  src.output = 4;
  Play p(src, {&a.c, &b.c});
  p.Step(0.1f);
  EXPECT_EQ(p.View(0).playhead, Advance(&a.c, 0.0f, 0.1f));
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Step(0.1f);
  EXPECT_EQ(p.View(0).playhead, SeekTo(&a.c, seekA));
  EXPECT_EQ(p.View(1).playhead, maniClip_GetDuration(&b.c));
  EXPECT_EQ(p.Flag(0), 0u);
  EXPECT_EQ(p.eventCount, 0u);
  EXPECT_TRUE(SameMove(p.move, maniMakeRootMoveIdentity()));
  Pose pa(&skel.s), pb(&skel.s), expect(&skel.s);
  ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, SeekTo(&a.c, seekA), pa.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&b.c, &skel.s, maniClip_GetDuration(&b.c), pb.p), mani_success);
  maniBlendLayer layers[2] = {{pa.p, 0.5f, nullptr}, {pb.p, 0.5f, nullptr}};
  ASSERT_EQ(maniSkeleton_BlendPoses(&skel.s, layers, 2, MANI_BLEND_THRESHOLD_MIN, expect.p), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
  // The trigger consumed: the next update steps again.
  p.Step(0.1f);
  EXPECT_EQ(p.View(0).playhead, Advance(&a.c, SeekTo(&a.c, seekA), 0.1f));
}

// A seek whose trigger is set by a caller but unweighed (under a select
// choosing elsewhere) still moves its playheads and consumes its trigger.
TEST(GraphPlay, UnweighedSeekStillSeeks) {
  Skel skel(49, 8);
  Clip a(16, &skel.s), b(17, &skel.s);
  const uint32_t in0[1] = {0}, selIn[2] = {2, 1};
  std::vector<maniGraphParameterSource> params = {Param("go", maniGraphParameterTrigger),
                                                  Param("sel", maniGraphParameterFloat, 1.0f)};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.0f), Node(maniGraphNodeSeek, in0, 1),
                                            Node(maniGraphNodeSelect, selIn, 2)};
  nodes[2].parameter = 0;
  nodes[2].time = 0.2f;
  nodes[3].parameter = 1;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 2;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 4;
  src.output = 3;
  Play p(src, {&a.c, &b.c});
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Step(0.05f);
  EXPECT_EQ(p.View(0).weight, 0.0f);
  EXPECT_EQ(p.View(0).playhead, SeekTo(&a.c, 0.2f));
  EXPECT_EQ(p.Flag(0), 0u);
}

// One trigger read by a state machine's transition and by a seek beneath
// it: the machine takes its transition and the seek still fires (the
// trigger consumed after every node read it).
TEST(GraphPlay, TriggerSharedByMachineAndSeek) {
  Skel skel(54, 8);
  Clip a(24, &skel.s), b(25, &skel.s);
  const uint32_t in0[1] = {0}, states[2] = {1, 2};
  std::vector<maniGraphParameterSource> params = {Param("go", maniGraphParameterTrigger)};
  maniGraphConditionSource cond;
  memset(&cond, 0, sizeof cond);
  cond.kind = maniGraphConditionTrigger;
  cond.parameter = 0;
  maniGraphTransitionSource tr;
  memset(&tr, 0, sizeof tr);
  tr.from = 0;
  tr.to = 1;
  tr.entry = maniGraphEntryContinue;
  tr.duration = 0.5f;
  tr.conditions = &cond;
  tr.conditionCount = 1;
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), Node(maniGraphNodeSeek, in0, 1), ClipNode(1, 1.0f),
                                            Node(maniGraphNodeStateMachine, states, 2)};
  nodes[1].parameter = 0;
  nodes[1].time = 0.125f;
  nodes[3].transitions = &tr;
  nodes[3].transitionCount = 1;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 1;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 4;
  src.output = 3;
  Play p(src, {&a.c, &b.c});
  p.Step(0.1f);
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Step(0.1f);
  EXPECT_EQ(p.View(3).state, 1u);
  EXPECT_EQ(p.View(3).transition, 0u);
  EXPECT_EQ(p.View(0).playhead, SeekTo(&a.c, 0.125f));
  EXPECT_EQ(p.Flag(0), 0u);
}

// seekOuter(seekInner(a)) on two triggers: the nearest seek's time when
// both fire, the outer's alone when only it does; both triggers consumed.
TEST(GraphPlay, NestedSeeksNearestWins) {
  Skel skel(53, 8);
  Clip a(23, &skel.s, maniLoopClamp);
  const uint32_t in0[1] = {0}, in1[1] = {1};
  std::vector<maniGraphParameterSource> params = {Param("outer", maniGraphParameterTrigger),
                                                  Param("inner", maniGraphParameterTrigger)};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), Node(maniGraphNodeSeek, in0, 1),
                                            Node(maniGraphNodeSeek, in1, 1)};
  const float d = maniClip_GetDuration(&a.c);
  nodes[1].parameter = 1;
  nodes[1].time = 0.25f * d;
  nodes[2].parameter = 0;
  nodes[2].time = 0.75f * d;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 2;
  src.clips = clips.data();
  src.clipCount = 1;
  src.nodes = nodes.data();
  src.nodeCount = 3;
  src.output = 2;
  Play p(src, {&a.c});
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.SetFlag(1, maniGraphParameterTrigger, 1);
  p.Step(0.1f);
  EXPECT_EQ(p.View(0).playhead, 0.25f * d);
  EXPECT_EQ(p.Flag(0), 0u);
  EXPECT_EQ(p.Flag(1), 0u);
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Step(0.1f);
  EXPECT_EQ(p.View(0).playhead, 0.75f * d);
  Pose expect(&skel.s);
  ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, 0.75f * d, expect.p), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
}

// -- Mirrors ----------------------------------------------------------------------

// mirror(a) on a mirror rig: the pose is maniMirrorMap_MirrorPose of a's,
// the root motion MirrorRootMotion of a's move, the events' names their
// partners; a subset of one left bone plans its right partner and gives the
// evaluation's bits on its bones.
TEST(GraphPlay, MirrorMirrorsPoseRootMotionAndEvents) {
  MirrorRig rig;
  Clip a(18, &rig.s);
  const uint32_t in0[1] = {0};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), Node(maniGraphNodeMirror, in0, 1)};
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &rig.s;
  src.clips = clips.data();
  src.clipCount = 1;
  src.nodes = nodes.data();
  src.nodeCount = 2;
  src.output = 1;
  src.mirror = &rig.m;
  Play p(src, {&a.c}, &rig.m);
  Pose pa(&rig.s), expect(&rig.s);
  float t = 0.0f;
  for (int u = 0; u < 6; ++u) {
    const float dt = 0.21f;
    p.Step(dt);
    const maniRootMove m = MoveOf(&a.c, t, dt);
    const float from = t;
    t = Advance(&a.c, t, dt);
    ASSERT_EQ(maniClip_Sample(&a.c, &rig.s, t, pa.p), mani_success);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&rig.m, &rig.s, pa.p, expect.p), mani_success);
    EXPECT_TRUE(SameBits(p.pose.p, expect.p)) << "update " << u;
    EXPECT_TRUE(SameMove(p.move, Blend({maniMirrorMap_MirrorRootMotion(&rig.m, m)}, {1.0f}))) << "update " << u;
    for (uint32_t e = 0; e < p.eventCount && e < 64; ++e) {
      const maniClipEvent ev = maniClip_GetEvent(&a.c, p.events[e].event);
      size_t length = 0;
      const char* name = maniMirrorMap_MirrorName(&rig.m, ev.name, ev.nameLength, &length);
      EXPECT_EQ(p.events[e].name, name);
      EXPECT_EQ(p.events[e].nameLength, length);
    }
    (void)from;
  }
  // A subset of a left bone: its partner planned; its bones bit for bit.
  const uint32_t bones = maniSkeleton_GetBoneCount(&rig.s);
  uint32_t left = MANI_NO_BONE;
  for (uint32_t k = 0; k < bones && left == MANI_NO_BONE; ++k)
    if (maniMirrorMap_GetPartner(&rig.m, k) != k) left = k;
  ASSERT_NE(left, MANI_NO_BONE);
  const uint32_t partner = maniMirrorMap_GetPartner(&rig.m, left);
  Mem planMem(maniGraphBinding_GetSubsetSize(p.b));
  maniGraphSubset* plan = nullptr;
  ASSERT_EQ(maniPlanGraphSubset(p.b, &left, 1, planMem.p, planMem.size, &plan), mani_success);
  uint32_t count = 0;
  const uint32_t* planned = maniGraphSubset_GetBones(plan, &count);
  bool hasPartner = false;
  for (uint32_t k = 0; k < count; ++k) hasPartner |= planned[k] == partner;
  EXPECT_TRUE(hasPartner);
  Pose sub(&rig.s);
  ASSERT_EQ(maniGraphInstance_EvaluateSubset(p.i, plan, p.scratch.p, p.scratch.size, sub.p), mani_success);
  for (uint32_t k = 0; k < count; ++k) {
    const maniTransform x = maniPose_GetLocal(sub.p, planned[k]), y = maniPose_GetLocal(p.pose.p, planned[k]);
    EXPECT_EQ(memcmp(&x, &y, sizeof x), 0) << "bone " << planned[k];
  }
}

// additive(a, mirror(d)) of a difference clip: the mirror gives the
// difference's locals mirrored as a pose's would be (MirrorPose of those
// locals in a pose), still a difference, added to a at the weight.
TEST(GraphPlay, MirrorOfADifference) {
  MirrorRig rig;
  Clip a(26, &rig.s), d(27, &rig.s, maniLoopRepeat, maniAdditiveRest);
  const uint32_t in1[1] = {1}, addIn[2] = {0, 2};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.0f), Node(maniGraphNodeMirror, in1, 1),
                                            Node(maniGraphNodeAdditive, addIn, 2)};
  nodes[3].weight = 0.8f;
  std::vector<maniGraphClipSource> clips = {{"a", 1, &a.c, nullptr}, {"d", 1, &d.c, nullptr}};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &rig.s;
  src.clips = clips.data();
  src.clipCount = 2;
  src.nodes = nodes.data();
  src.nodeCount = 4;
  src.output = 3;
  src.mirror = &rig.m;
  Play p(src, {&a.c, &d.c}, &rig.m);
  p.Step(0.33f);
  const uint32_t bones = maniSkeleton_GetBoneCount(&rig.s);
  Pose pd(&rig.s), plain(&rig.s), mirrored(&rig.s), diff(&rig.s), expect(&rig.s);
  ASSERT_EQ(maniClip_Sample(&d.c, &rig.s, Advance(&d.c, 0.0f, 0.33f), pd.p), mani_success);
  ASSERT_TRUE(maniPose_IsDifference(pd.p));
  std::vector<maniTransform> locals = Locals(pd.p);
  ASSERT_EQ(maniPose_WriteLocals(plain.p, 0, bones, locals.data()), mani_success);
  ASSERT_EQ(maniMirrorMap_MirrorPose(&rig.m, &rig.s, plain.p, mirrored.p), mani_success);
  // A difference holding the mirrored locals.
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&rig.s, plain.p, plain.p, diff.p), mani_success);
  locals = Locals(mirrored.p);
  ASSERT_EQ(maniPose_WriteLocals(diff.p, 0, bones, locals.data()), mani_success);
  ASSERT_TRUE(maniPose_IsDifference(diff.p));
  ASSERT_EQ(maniClip_Sample(&a.c, &rig.s, Advance(&a.c, 0.0f, 0.33f), expect.p), mani_success);
  maniBlendLayer layer = {diff.p, 0.8f, nullptr};
  ASSERT_EQ(maniPose_AddLayers(expect.p, &rig.s, &layer, 1), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
  // Only a's root motion (the difference gives none).
  EXPECT_TRUE(SameMove(p.move, Blend({MoveOf(&a.c, 0.0f, 0.33f)}, {1.0f})));
}

// -- Pose nodes -------------------------------------------------------------------

// A pose node gives the rest until its parameter is set, then the set
// locals bit for bit.
TEST(GraphPlay, PoseNodeGivesItsParameter) {
  Skel skel(50, 10);
  Clip a(19, &skel.s);
  std::vector<maniGraphParameterSource> params = {Param("pose", maniGraphParameterPose)};
  std::vector<maniGraphNodeSource> nodes = {Node(maniGraphNodePose)};
  nodes[0].parameter = 0;
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = 1;
  src.nodes = nodes.data();
  src.nodeCount = 1;
  src.output = 0;
  Play p(src, {});
  p.Step(0.1f);
  Pose expect(&skel.s);
  ASSERT_EQ(maniPose_SetRest(expect.p, &skel.s), mani_success);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
  EXPECT_TRUE(SameMove(p.move, maniMakeRootMoveIdentity()));
  ASSERT_EQ(maniClip_Sample(&a.c, &skel.s, 0.3f, expect.p), mani_success);
  ASSERT_EQ(maniGraphInstance_SetPose(p.i, 0, expect.p), mani_success);
  p.Step(0.1f);
  EXPECT_TRUE(SameBits(p.pose.p, expect.p));
}

// -- Seeded layer graphs ----------------------------------------------------------

struct LayerRun {
  MirrorRig rig;
  maniFixtureGraph g;
  bool made = false;
  LayerRun(uint64_t seed, bool mirror) { made = maniFixtureMakeLayerGraph(&g, seed, &rig.s, mirror ? &rig.m : nullptr) == 1; }
  ~LayerRun() {
    if (made) maniFixtureFreeGraph(&g);
  }
};

// One update's parameter draws (every type the layer graph reads).
void Draw(uint32_t u, Play& p, Pose& scratchPose) {
  const uint32_t h = (u * 2654435761u) >> 7;
  if (h % 3 == 0) p.SetFloat(0, (float)(h % 17) / 10.0f - 0.3f);
  if (h % 5 == 0) p.SetFloat(1, (float)(h % 13) / 10.0f - 0.1f);
  if (h % 4 == 1) p.SetFloat(2, (float)(h % 31) / 10.0f - 0.5f);
  if (h % 7 == 2) p.SetFlag(3, maniGraphParameterBool, (h >> 3) & 1u);
  if (h % 6 == 3) p.SetFloat(4, (float)(h % 41) / 10.0f - 1.0f);
  if (h % 9 == 4) p.SetFlag(5, maniGraphParameterTrigger, 1);
  if (h % 4 == 2) p.SetFloat(6, (float)(h % 11) / 10.0f);
  if (h % 11 == 5) {
    ASSERT_EQ(maniClip_Sample(p.clips[0], p.s, (float)(h % 7) / 10.0f, scratchPose.p), mani_success);
    ASSERT_EQ(maniGraphInstance_SetPose(p.i, 7, scratchPose.p), mani_success);
  }
}

std::vector<uint8_t> StepBytes(const Play& p) {
  std::vector<uint8_t> out;
  const std::vector<maniTransform> l = Locals(p.pose.p);
  out.insert(out.end(), reinterpret_cast<const uint8_t*>(l.data()),
             reinterpret_cast<const uint8_t*>(l.data()) + l.size() * sizeof(maniTransform));
  out.insert(out.end(), reinterpret_cast<const uint8_t*>(&p.move),
             reinterpret_cast<const uint8_t*>(&p.move) + sizeof p.move);
  for (uint32_t e = 0; e < p.eventCount && e < 64; ++e) {
    const uint32_t w[3] = {p.events[e].node, p.events[e].event, 0};
    out.insert(out.end(), reinterpret_cast<const uint8_t*>(w), reinterpret_cast<const uint8_t*>(w) + sizeof w);
    out.insert(out.end(), reinterpret_cast<const uint8_t*>(&p.events[e].weight),
               reinterpret_cast<const uint8_t*>(&p.events[e].weight) + 4);
  }
  return out;
}

// Every seed builds (with and without mirror nodes) and binds.
TEST(GraphPlay, LayerGraphsBuild) {
  for (uint64_t seed = 0; seed < 16; ++seed) {
    LayerRun r(0x4C590000u + seed, (seed & 1u) == 0);
    EXPECT_TRUE(r.made) << "seed " << seed;
  }
}

// Save mid-run, restore into a fresh instance: the same bits from there on,
// through seeks, selects, time scales and pose parameters.
TEST(GraphPlay, SaveRestoreMidRunSameBits) {
  for (uint64_t seed = 0; seed < 6; ++seed) {
    LayerRun r(0x4C590000u + seed, (seed & 1u) == 0);
    ASSERT_TRUE(r.made);
    Play a(r.g.source, std::vector<const maniClip*>(r.g.clipList, r.g.clipList + r.g.clipCount),
           (seed & 1u) == 0 ? &r.rig.m : nullptr);
    Pose work(&r.rig.s);
    for (uint32_t u = 0; u < 30; ++u) {
      Draw(u, a, work);
      a.Step(0.03f + 0.01f * (float)(u % 5));
    }
    size_t size = 0;
    ASSERT_EQ(maniGraphInstance_Save(a.i, nullptr, 0, &size), mani_errorCapacity);
    std::vector<uint8_t> state(size);
    ASSERT_EQ(maniGraphInstance_Save(a.i, state.data(), size, &size), mani_success);
    Play b(r.g.source, std::vector<const maniClip*>(r.g.clipList, r.g.clipList + r.g.clipCount),
           (seed & 1u) == 0 ? &r.rig.m : nullptr);
    ASSERT_EQ(maniGraphInstance_Restore(b.i, state.data(), size).result, mani_success);
    // Restored, evaluated before any update: the same pose.
    Pose restored(&r.rig.s);
    ASSERT_EQ(maniGraphInstance_Evaluate(b.i, b.scratch.p, b.scratch.size, restored.p), mani_success);
    EXPECT_TRUE(SameBits(restored.p, a.pose.p)) << "seed " << seed;
    for (uint32_t u = 30; u < 70; ++u) {
      Draw(u, a, work);
      Draw(u, b, work);
      const float dt = 0.03f + 0.01f * (float)(u % 5);
      a.Step(dt);
      b.Step(dt);
      EXPECT_EQ(StepBytes(a), StepBytes(b)) << "seed " << seed << " update " << u;
    }
  }
}

// EvaluateSubset gives Evaluate's bits on the planned bones, for seeded
// plans, on every seed (mirror partners planned).
TEST(GraphPlay, SubsetMatchesEvaluate) {
  for (uint64_t seed = 0; seed < 8; ++seed) {
    LayerRun r(0x4C590000u + seed, (seed & 1u) == 0);
    ASSERT_TRUE(r.made);
    Play a(r.g.source, std::vector<const maniClip*>(r.g.clipList, r.g.clipList + r.g.clipCount),
           (seed & 1u) == 0 ? &r.rig.m : nullptr);
    Pose work(&r.rig.s), sub(&r.rig.s);
    const uint32_t bones = maniSkeleton_GetBoneCount(&r.rig.s);
    Mem planMem(maniGraphBinding_GetSubsetSize(a.b));
    for (uint32_t u = 0; u < 20; ++u) {
      Draw(u, a, work);
      a.Step(0.05f);
      const uint32_t one = (u * 7u + (uint32_t)seed) % bones;
      maniGraphSubset* plan = nullptr;
      ASSERT_EQ(maniPlanGraphSubset(a.b, &one, 1, planMem.p, planMem.size, &plan), mani_success);
      ASSERT_EQ(maniPose_SetRest(sub.p, &r.rig.s), mani_success);
      ASSERT_EQ(maniGraphInstance_EvaluateSubset(a.i, plan, a.scratch.p, a.scratch.size, sub.p), mani_success);
      uint32_t count = 0;
      const uint32_t* planned = maniGraphSubset_GetBones(plan, &count);
      for (uint32_t k = 0; k < count; ++k) {
        const maniTransform x = maniPose_GetLocal(sub.p, planned[k]), y = maniPose_GetLocal(a.pose.p, planned[k]);
        EXPECT_EQ(memcmp(&x, &y, sizeof x), 0) << "seed " << seed << " update " << u << " bone " << planned[k];
      }
      if ((seed & 1u) == 0) {
        for (uint32_t k = 0; k < count; ++k) {
          const uint32_t partner = maniMirrorMap_GetPartner(&r.rig.m, planned[k]);
          bool in = false;
          for (uint32_t j = 0; j < count; ++j) in |= planned[j] == partner;
          EXPECT_TRUE(in) << "partner of " << planned[k];
        }
      }
    }
  }
}

}  // namespace
