// Break-it probes of the graph's layering and blend space node kinds (issue
// #27), written from graph.h, graphbuild.h and the reference alone: every
// refusal they list (reason, item, other), JSON defaults and byte offsets,
// weights shared as documented, poses bit for bit against the direct API
// (maniSkeleton_BlendPoses, maniPose_AddLayers, maniMirrorMap_MirrorPose,
// maniClip_Sample), time scale products, seeks, select rounding, space
// weights, "as its last update weighed it", Save/Restore, memcpy copies and
// subsets. Expected values are computed here, never read back from the
// graph runtime. A claim the code breaks is kept DISABLED_ with the
// sentence quoted above it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "maul/anim/blend.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/pose.h"

namespace {

struct Mem {
  std::vector<uint64_t> words;
  uint8_t* p = nullptr;
  size_t size = 0;
  explicit Mem(size_t n) : size(n) {
    words.assign(n / 8 + 8, 0);
    uintptr_t a = (reinterpret_cast<uintptr_t>(words.data()) + 31) & ~uintptr_t(31);
    p = reinterpret_cast<uint8_t*>(a);
  }
  Mem(const Mem&) = delete;
  Mem& operator=(const Mem&) = delete;
};

struct PoseBuf {
  std::unique_ptr<Mem> mem;
  maniPose* p = nullptr;
  explicit PoseBuf(const maniSkeleton* s) : mem(new Mem(maniSkeleton_GetPoseSize(s))) {
    EXPECT_EQ(maniInitPose(s, mem->p, mem->size, &p), mani_success);
  }
};

std::vector<uint8_t> Locals(const maniPose* p) {
  const uint32_t n = maniPose_GetBoneCount(p);
  std::vector<maniTransform> t(n);
  EXPECT_EQ(maniPose_ReadLocals(p, 0, n, t.data()), mani_success);
  std::vector<uint8_t> out(sizeof(maniTransform) * n);
  memcpy(out.data(), t.data(), out.size());
  return out;
}

struct ClipFile {
  File file;
  maniClip c;
  ClipFile(uint64_t seed, const maniSkeleton* s, maniLoopPolicy loop = maniLoopRepeat,
           maniAdditiveBasis additive = maniAdditiveNone) {
    maniFixtureClip fc;
    const uint32_t flags = MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES |
                           (additive == maniAdditiveNone ? MANI_FIXTURE_CLIP_ROOT_MOTION : 0u);
    maniFixtureMakeClip(&fc, seed, s, flags, loop, additive);
    fc.root.bone = 0;
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&fc.source, &size);
    EXPECT_NE(bytes, nullptr);
    file.Assign(bytes, size);
    free(bytes);
    maniFixtureFreeClip(&fc);
    EXPECT_EQ(maniOpenClip(file.data(), file.size, &c).result, mani_success);
  }
};

struct MirrorRig {
  File skelFile, mapFile;
  maniSkeleton s;
  maniMirrorMap m;
  MirrorRig() {
    maniSkeletonSource src = maniFixtureMakeMirrorRig(0x6B1D, 0, 2, 3, 0);
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

maniGraphParameterSource P(const char* name, maniGraphParameterType type, float value = 0.0f) {
  maniGraphParameterSource p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.nameLength = strlen(name);
  p.type = type;
  if (type == maniGraphParameterFloat) p.value.number = value;
  if (type == maniGraphParameterQuaternion) p.value.rotation.w = 1.0f;
  return p;
}

maniGraphNodeSource N(maniGraphNodeKind kind) {
  maniGraphNodeSource n;
  memset(&n, 0, sizeof n);
  n.kind = kind;
  n.parameter = MANI_NO_PARAMETER;
  return n;
}

// A graph source under construction; lists it points at live in the Net.
struct Net {
  const maniSkeleton* s = nullptr;
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  std::vector<maniGraphNodeSource> nodes;
  std::deque<std::vector<uint32_t>> lists;
  std::deque<std::vector<maniGraphSpacePoint>> points;
  const maniMirrorMap* mirror = nullptr;
  uint32_t output = 0;
  const uint32_t* L(std::vector<uint32_t> v) {
    lists.push_back(std::move(v));
    return lists.back().data();
  }
  const maniGraphSpacePoint* Pts(std::vector<maniGraphSpacePoint> v) {
    points.push_back(std::move(v));
    return points.back().data();
  }
  uint32_t Clip(uint32_t slot, float speed = 1.0f) {
    maniGraphNodeSource n = N(maniGraphNodeClip);
    n.clip = slot;
    n.speed = speed;
    nodes.push_back(n);
    return (uint32_t)nodes.size() - 1;
  }
  uint32_t Add(maniGraphNodeSource n, std::vector<uint32_t> in) {
    n.inputCount = (uint32_t)in.size();
    n.inputs = in.empty() ? nullptr : L(in);
    nodes.push_back(n);
    return (uint32_t)nodes.size() - 1;
  }
  void Slot(const char* name, const maniClip* c) { clips.push_back({name, strlen(name), c, nullptr}); }
  maniGraphSource Src() {
    maniGraphSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = s;
    src.parameters = params.empty() ? nullptr : params.data();
    src.parameterCount = (uint32_t)params.size();
    src.clips = clips.empty() ? nullptr : clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.nodes = nodes.data();
    src.nodeCount = (uint32_t)nodes.size();
    src.output = output;
    src.mirror = mirror;
    return src;
  }
  maniBuildResult Build() {
    Builder b;
    maniGraphSource src = Src();
    return maniBuildGraph(b.b, &src);
  }
};

void ExpectRefused(Net& net, maniResult result, uint32_t reason, uint64_t item, uint64_t other) {
  maniBuildResult r = net.Build();
  EXPECT_EQ(r.result, result);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.item, item);
  EXPECT_EQ(r.other, other);
}

// A built, bound graph with an instance, a scratch and an output pose.
struct Play {
  File file;
  maniGraph g;
  const maniSkeleton* s = nullptr;
  std::vector<const maniClip*> cl;
  maniGraphAssets assets;
  std::unique_ptr<Mem> binding, inst, scratch;
  maniGraphBinding* b = nullptr;
  maniGraphInstance* i = nullptr;
  bool ok = false;
  void Init(Net& net) {
    s = net.s;
    Builder builder;
    maniGraphSource src = net.Src();
    maniBuildResult r = maniBuildGraph(builder.b, &src);
    ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
    file = builder.Built();
    ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
    for (auto& c : net.clips) cl.push_back(c.clip);
    memset(&assets, 0, sizeof assets);
    assets.skeleton = net.s;
    assets.clips = cl.empty() ? nullptr : cl.data();
    assets.clipCount = (uint32_t)cl.size();
    assets.mirrorMap = net.mirror;
    binding.reset(new Mem(maniGraph_GetBindingSize(&g)));
    uint32_t unbound = 0;
    ASSERT_EQ(maniBindGraph(&g, &assets, binding->p, binding->size, &b, &unbound), mani_success);
    inst.reset(new Mem(maniGraphBinding_GetInstanceSize(b)));
    ASSERT_EQ(maniInitGraphInstance(b, inst->p, inst->size, &i), mani_success);
    scratch.reset(new Mem(maniGraphBinding_GetScratchSize(b)));
    ok = true;
  }
  uint32_t NodeOf(uint32_t place) {
    for (uint32_t n = 0; n < maniGraph_GetNodeCount(&g); ++n)
      if (maniGraph_GetNodeSourcePlace(&g, n) == place) return n;
    return MANI_GRAPH_NONE;
  }
  maniGraphNodeView View(uint32_t place) {
    maniGraphNodeView v;
    memset(&v, 0, sizeof v);
    EXPECT_EQ(maniGraphInstance_InspectNode(i, NodeOf(place), &v), mani_success);
    return v;
  }
  void Update(float dt) { ASSERT_EQ(maniGraphInstance_Update(i, dt, nullptr, 0, nullptr, nullptr), mani_success); }
  std::vector<uint8_t> Eval() {
    PoseBuf out(s);
    EXPECT_EQ(maniGraphInstance_Evaluate(i, scratch->p, scratch->size, out.p), mani_success);
    return Locals(out.p);
  }
  void SetF(uint32_t p, float v) {
    maniGraphValue value;
    memset(&value, 0, sizeof value);
    value.number = v;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, maniGraphParameterFloat, value), mani_success);
  }
  void SetFlag(uint32_t p, maniGraphParameterType t, uint32_t v) {
    maniGraphValue value;
    memset(&value, 0, sizeof value);
    value.flag = v;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, t, value), mani_success);
  }
  std::vector<uint8_t> Save() {
    size_t size = 0;
    EXPECT_EQ(maniGraphInstance_Save(i, nullptr, 0, &size), mani_errorCapacity);
    std::vector<uint8_t> out(size);
    EXPECT_EQ(maniGraphInstance_Save(i, out.data(), size, &size), mani_success);
    return out;
  }
};

std::vector<uint8_t> SampleAt(const maniClip* c, const maniSkeleton* s, float t, PoseBuf& p) {
  EXPECT_EQ(maniClip_Sample(c, s, t, p.p), mani_success);
  return Locals(p.p);
}

// A playhead moved by a step: a repeating clip wraps in binary64 rounded
// once, a clamped one stops.
float Advance(const maniClip* c, float from, float step) {
  const float d = maniClip_GetDuration(c);
  if (maniClip_GetLoopPolicy(c) == maniLoopClamp) return std::fmin(std::fmax(from + step, 0.0f), d);
  double t = (double)from + (double)step;
  t = t - std::floor(t / d) * (double)d;
  float f = (float)t;
  return f >= d ? 0.0f : f;
}

// A fixture: a skeleton, two pose clips and a difference clip.
struct Rig {
  Skel skel{0x27A, 12};
  ClipFile a{0xA1, &skel.s}, b{0xB2, &skel.s, maniLoopClamp}, d{0xD3, &skel.s, maniLoopRepeat, maniAdditiveRest};
  Net net;
  Rig() {
    net.s = &skel.s;
    net.Slot("a", &a.c);
    net.Slot("b", &b.c);
    net.Slot("d", &d.c);
  }
};

// -- Build refusals -------------------------------------------------------------------

TEST(GraphKindsBuild, AdditiveWeightOutsideUnitRefusedAsWeightOther0) {
  for (float w : {-0.01f, 1.01f, NAN}) {
    Rig r;
    uint32_t a = r.net.Clip(0), d = r.net.Clip(2);
    maniGraphNodeSource n = N(maniGraphNodeAdditive);
    n.weight = w;
    r.net.output = r.net.Add(n, {a, d});
    ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonWeight, r.net.output, 0);
  }
}

TEST(GraphKindsBuild, AdditiveBaseDifferenceOther0SecondPoseOther1) {
  Rig r;
  uint32_t d = r.net.Clip(2);
  maniGraphNodeSource n = N(maniGraphNodeAdditive);
  n.weight = 1.0f;
  r.net.output = r.net.Add(n, {d, d});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonDifference, r.net.output, 0);
  Rig q;
  uint32_t a = q.net.Clip(0);
  uint32_t b = q.net.Clip(1);
  q.net.output = q.net.Add(n, {a, b});
  ExpectRefused(q.net, mani_errorInvalid, maniBuildReasonDifference, q.net.output, 1);
}

TEST(GraphKindsBuild, AdditiveParameterNotFloatRefusedParameterOther0) {
  Rig r;
  r.net.params = {P("flag", maniGraphParameterBool)};
  uint32_t a = r.net.Clip(0), d = r.net.Clip(2);
  maniGraphNodeSource n = N(maniGraphNodeAdditive);
  n.parameter = 0;
  r.net.output = r.net.Add(n, {a, d});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 0);
  r.net.nodes[r.net.output].parameter = 5;  // past the parameters
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 0);
}

TEST(GraphKindsBuild, InputCountsEachKindRefusedInputOther0) {
  struct K {
    maniGraphNodeKind kind;
    uint32_t count;
  } cases[] = {{maniGraphNodeAdditive, 1}, {maniGraphNodeAdditive, 3}, {maniGraphNodeMask, 1},
               {maniGraphNodeMask, 3},     {maniGraphNodeTimeScale, 2}, {maniGraphNodeSeek, 2},
               {maniGraphNodeSelect, 0},   {maniGraphNodeTimeScale, 0}};
  for (const K& k : cases) {
    Rig r;
    r.net.params = {P("go", maniGraphParameterTrigger), P("x", maniGraphParameterFloat)};
    std::vector<uint32_t> in;
    for (uint32_t c = 0; c < k.count; ++c) in.push_back(r.net.Clip(0));
    maniGraphNodeSource n = N(k.kind);
    n.factor = 1.0f;
    n.weight = 1.0f;
    n.parameter = k.kind == maniGraphNodeSeek ? 0 : k.kind == maniGraphNodeSelect ? 1 : MANI_NO_PARAMETER;
    r.net.output = r.net.Add(n, in);
    SCOPED_TRACE(k.kind);
    SCOPED_TRACE(k.count);
    ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonInput, r.net.output, 0);
  }
}

TEST(GraphKindsBuild, MaskWeightsRefused) {
  Rig r;
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
  maniGraphMaskChain chains[2] = {{1, 0.5f, true}, {2, 1.5f, false}};
  maniGraphNodeSource n = N(maniGraphNodeMask);
  n.chains = chains;
  n.chainCount = 2;
  n.defaultWeight = 0.0f;
  r.net.output = r.net.Add(n, {a, b});
  // A chain's: other the chain + 1.
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonWeight, r.net.output, 2);
  chains[1].weight = 0.5f;
  r.net.nodes[r.net.output].defaultWeight = -0.5f;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonWeight, r.net.output, 0);
  r.net.nodes[r.net.output].defaultWeight = 0.0f;
  chains[0].bone = 12;  // past the skeleton: Joint, other the chain
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonJoint, r.net.output, 0);
  chains[0].bone = 1;
  r.net.nodes[r.net.output].chains = nullptr;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonCount, r.net.output, 0);
}

TEST(GraphKindsBuild, MaskMoreChainsThanMaxBonesIsLimitNode) {
  Rig r;
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
  std::vector<maniGraphMaskChain> chains(MANI_MAX_BONES + 1, maniGraphMaskChain{0, 0.5f, false});
  maniGraphNodeSource n = N(maniGraphNodeMask);
  n.chains = chains.data();
  n.chainCount = (uint32_t)chains.size();
  r.net.output = r.net.Add(n, {a, b});
  maniBuildResult res = r.net.Build();
  EXPECT_EQ(res.result, mani_errorLimit);
  EXPECT_EQ(res.reason, (uint32_t)maniBuildReasonNode);
}

TEST(GraphKindsBuild, TimeScaleFactorPastBoundIsLimitScalar) {
  for (float f : {64.0f, -64.0f, 64.00001f, -65.0f}) {
    Rig r;
    uint32_t a = r.net.Clip(0);
    maniGraphNodeSource n = N(maniGraphNodeTimeScale);
    n.factor = f;
    r.net.output = r.net.Add(n, {a});
    maniBuildResult res = r.net.Build();
    if (std::fabs(f) <= MANI_MAX_GRAPH_TIME_FACTOR) {
      EXPECT_EQ(res.result, mani_success) << f;
    } else {
      EXPECT_EQ(res.result, mani_errorLimit) << f;
      EXPECT_EQ(res.reason, (uint32_t)maniBuildReasonScalar);
      EXPECT_EQ(res.item, r.net.output);
    }
  }
  Rig r;
  uint32_t a = r.net.Clip(0);
  maniGraphNodeSource n = N(maniGraphNodeTimeScale);
  n.factor = INFINITY;
  r.net.output = r.net.Add(n, {a});
  maniBuildResult res = r.net.Build();
  // Not finite: mani_errorInvalid with Scalar, not the limit's code.
  EXPECT_EQ(res.reason, (uint32_t)maniBuildReasonScalar);
  EXPECT_EQ(res.item, r.net.output);
  EXPECT_EQ(res.result, mani_errorInvalid);
}

TEST(GraphKindsBuild, TimeScaleParameterNotFloatRefused) {
  Rig r;
  r.net.params = {P("v", maniGraphParameterVector)};
  uint32_t a = r.net.Clip(0);
  maniGraphNodeSource n = N(maniGraphNodeTimeScale);
  n.parameter = 0;
  r.net.output = r.net.Add(n, {a});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 0);
}

TEST(GraphKindsBuild, SeekTimeAndTriggerRefused) {
  Rig r;
  r.net.params = {P("go", maniGraphParameterTrigger), P("x", maniGraphParameterFloat)};
  uint32_t a = r.net.Clip(0);
  maniGraphNodeSource n = N(maniGraphNodeSeek);
  n.parameter = 0;
  n.time = -0.001f;
  r.net.output = r.net.Add(n, {a});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonScalar, r.net.output, 0);
  r.net.nodes[r.net.output].time = NAN;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonScalar, r.net.output, 0);
  r.net.nodes[r.net.output].time = 0.25f;
  r.net.nodes[r.net.output].parameter = 1;  // a float, not a trigger
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 0);
  r.net.nodes[r.net.output].parameter = MANI_NO_PARAMETER;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 0);
}

TEST(GraphKindsBuild, SelectParameterAndMixedInputsRefused) {
  Rig r;
  r.net.params = {P("q", maniGraphParameterQuaternion)};
  uint32_t a = r.net.Clip(0), d = r.net.Clip(2);
  maniGraphNodeSource n = N(maniGraphNodeSelect);
  n.parameter = 0;
  r.net.output = r.net.Add(n, {a, a});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 0);
  Rig q;
  q.net.params = {P("x", maniGraphParameterFloat)};
  a = q.net.Clip(0);
  d = q.net.Clip(2);
  n.parameter = 0;
  uint32_t sel = q.net.Add(n, {a, d});
  q.net.output = sel;
  ExpectRefused(q.net, mani_errorInvalid, maniBuildReasonDifference, sel, 1);
}

TEST(GraphKindsBuild, PoseNodeParameterMustBePose) {
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat)};
  maniGraphNodeSource n = N(maniGraphNodePose);
  n.parameter = 0;
  r.net.output = r.net.Add(n, {});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 0);
}

TEST(GraphKindsBuild, MirrorWithoutMapRefusedMirrorGraphOther0) {
  Rig r;
  uint32_t a = r.net.Clip(0);
  r.net.output = r.net.Add(N(maniGraphNodeMirror), {a});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonMirrorGraph, r.net.output, 0);
}

TEST(GraphKindsBuild, MirrorMapOfAnotherSkeletonItem0Other1) {
  Rig r;
  MirrorRig m;
  r.net.mirror = &m.m;
  uint32_t a = r.net.Clip(0);
  r.net.output = r.net.Add(N(maniGraphNodeMirror), {a});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonMirrorGraph, 0, 1);
}

TEST(GraphKindsBuild, MirrorParityNamesTheOtherReader) {
  MirrorRig m;
  ClipFile c(0xC1, &m.s);
  Net net;
  net.s = &m.s;
  net.mirror = &m.m;
  net.Slot("c", &c.c);
  net.params = {P("w0", maniGraphParameterFloat, 1), P("w1", maniGraphParameterFloat, 1)};
  uint32_t clip = net.Clip(0);
  uint32_t mir = net.Add(N(maniGraphNodeMirror), {clip});
  maniGraphNodeSource blend = N(maniGraphNodeBlend);
  blend.parameters = net.L({0, 1});
  net.output = net.Add(blend, {clip, mir});
  maniBuildResult res = net.Build();
  EXPECT_EQ(res.result, mani_errorInvalid);
  EXPECT_EQ(res.reason, (uint32_t)maniBuildReasonMirrorParity);
  EXPECT_EQ(res.item, clip);
  EXPECT_TRUE(res.other == mir || res.other == net.output) << res.other;
}

TEST(GraphKindsBuild, BlendMoreThanMaxInputsIsLimitNode) {
  Rig r;
  uint32_t a = r.net.Clip(0);
  r.net.params = {P("w", maniGraphParameterFloat, 1)};
  std::vector<uint32_t> in(MANI_MAX_GRAPH_INPUTS + 1, a), w(MANI_MAX_GRAPH_INPUTS + 1, 0);
  maniGraphNodeSource n = N(maniGraphNodeBlend);
  n.parameters = r.net.L(w);
  r.net.output = r.net.Add(n, in);
  maniBuildResult res = r.net.Build();
  EXPECT_EQ(res.result, mani_errorLimit);
  EXPECT_EQ(res.reason, (uint32_t)maniBuildReasonNode);
  // At the limit it builds.
  Rig q;
  a = q.net.Clip(0);
  q.net.params = {P("w", maniGraphParameterFloat, 1)};
  in.pop_back();
  w.pop_back();
  n.parameters = q.net.L(w);
  q.net.output = q.net.Add(n, in);
  EXPECT_EQ(q.net.Build().result, mani_success);
}

// -- Blend space build refusals ---------------------------------------------------

maniGraphNodeSource Space(maniGraphNodeKind kind, const maniGraphSpacePoint* pts, uint32_t px, uint32_t py) {
  maniGraphNodeSource n = N(kind);
  n.points = pts;
  n.parameter = px;
  n.parameterY = py;
  return n;
}

TEST(GraphKindsBuild, SpaceNoInputsAndNullPoints) {
  for (maniGraphNodeKind k : {maniGraphNodeSpace1D, maniGraphNodeSpaceBanded, maniGraphNodeSpaceTriangulated}) {
    Rig r;
    r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
    const maniGraphSpacePoint* pts = r.net.Pts({{0, 0}});
    r.net.output = r.net.Add(Space(k, pts, 0, 1), {});
    ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonInput, r.net.output, 0);
    Rig q;
    q.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
    uint32_t a = q.net.Clip(0), b = q.net.Clip(1), c = q.net.Clip(0);
    q.net.output = q.net.Add(Space(k, nullptr, 0, 1), {a, b, c});
    SCOPED_TRACE(k);
    ExpectRefused(q.net, mani_errorInvalid, maniBuildReasonCount, q.net.output, 0);
  }
}

TEST(GraphKindsBuild, SpaceParametersRefusedOther0And1) {
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat), P("b", maniGraphParameterBool)};
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1), c = r.net.Clip(0);
  const maniGraphSpacePoint* pts = r.net.Pts({{0, 0}, {1, 0}, {0, 1}});
  r.net.output = r.net.Add(Space(maniGraphNodeSpaceBanded, pts, 1, 0), {a, b, c});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 0);
  r.net.nodes[r.net.output].parameter = 0;
  r.net.nodes[r.net.output].parameterY = 1;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 1);
  r.net.nodes[r.net.output].parameterY = 7;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonParameter, r.net.output, 1);
}

TEST(GraphKindsBuild, Space1DPositionsRefused) {
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat)};
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1), c = r.net.Clip(0);
  std::vector<maniGraphSpacePoint>& pts = (r.net.points.push_back({{0, 0}, {1, 0}, {1, 0}}), r.net.points.back());
  r.net.output = r.net.Add(Space(maniGraphNodeSpace1D, pts.data(), 0, 0), {a, b, c});
  // Not above the one before: other the input's place.
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonInput, r.net.output, 2);
  pts[2].x = 2.0f;
  r.net.nodes[r.net.output].period = 2.0f;  // 2 outside [0, 2)
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonInput, r.net.output, 2);
  r.net.nodes[r.net.output].period = -1.0f;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonScalar, r.net.output, 0);
  r.net.nodes[r.net.output].period = NAN;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonScalar, r.net.output, 0);
  r.net.nodes[r.net.output].period = 0.0f;
  pts[1].x = NAN;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonNotFinite, r.net.output, 1);
  pts[1].x = 1.0f;
  EXPECT_EQ(r.net.Build().result, mani_success);
}

TEST(GraphKindsBuild, Space2DEqualPositionsRefusedAtTheLater) {
  for (maniGraphNodeKind k : {maniGraphNodeSpaceBanded, maniGraphNodeSpaceTriangulated}) {
    Rig r;
    r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
    std::vector<uint32_t> in;
    for (int c = 0; c < 4; ++c) in.push_back(r.net.Clip(c & 1));
    const maniGraphSpacePoint* pts = r.net.Pts({{0, 0}, {1, 0}, {0, 1}, {1, 0}});
    r.net.output = r.net.Add(Space(k, pts, 0, 1), in);
    SCOPED_TRACE(k);
    ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonInput, r.net.output, 3);
  }
}

TEST(GraphKindsBuild, TriangulatedTrianglesRefused) {
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
  std::vector<uint32_t> in;
  for (int c = 0; c < 4; ++c) in.push_back(r.net.Clip(c & 1));
  const maniGraphSpacePoint* pts = r.net.Pts({{0, 0}, {2, 0}, {0, 2}, {2, 2}});
  std::vector<uint32_t>& tri = (r.net.lists.push_back({0, 1, 2, 1, 3, 4}), r.net.lists.back());
  maniGraphNodeSource n = Space(maniGraphNodeSpaceTriangulated, pts, 0, 1);
  n.triangles = tri.data();
  n.triangleCount = 2;
  r.net.output = r.net.Add(n, in);
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonTriangle, r.net.output, 1);  // index past the inputs
  tri[5] = 1;  // twice in it
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonTriangle, r.net.output, 1);
  tri[5] = 2;
  tri[3] = 0;
  tri[4] = 0;  // 0, 0, 2 twice too
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonTriangle, r.net.output, 1);
  // Input 3 in no given triangle: Input, other its place.
  r.net.nodes[r.net.output].triangleCount = 1;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonInput, r.net.output, 3);
  // Triangles NULL with a count: Count other 1.
  r.net.nodes[r.net.output].triangles = nullptr;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonCount, r.net.output, 1);
}

TEST(GraphKindsBuild, TriangulatedZeroAreaGivenTriangleRefused) {
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
  std::vector<uint32_t> in;
  for (int c = 0; c < 4; ++c) in.push_back(r.net.Clip(c & 1));
  const maniGraphSpacePoint* pts = r.net.Pts({{0, 0}, {1, 1}, {2, 2}, {0, 2}});
  maniGraphNodeSource n = Space(maniGraphNodeSpaceTriangulated, pts, 0, 1);
  n.triangles = r.net.L({0, 2, 3, 0, 1, 2});
  n.triangleCount = 2;
  r.net.output = r.net.Add(n, in);
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonTriangle, r.net.output, 1);
}

TEST(GraphKindsBuild, TriangulatedCollinearWithoutTrianglesOtherNone) {
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
  std::vector<uint32_t> in;
  for (int c = 0; c < 3; ++c) in.push_back(r.net.Clip(c & 1));
  const maniGraphSpacePoint* pts = r.net.Pts({{0, 0}, {1, 1}, {3, 3}});
  r.net.output = r.net.Add(Space(maniGraphNodeSpaceTriangulated, pts, 0, 1), in);
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonTriangle, r.net.output, MANI_GRAPH_NONE);
}

TEST(GraphKindsBuild, SpaceLimitsInputsAndTriangles) {
  for (maniGraphNodeKind k : {maniGraphNodeSpace1D, maniGraphNodeSpaceBanded, maniGraphNodeSpaceTriangulated}) {
    Rig r;
    r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
    uint32_t a = r.net.Clip(0);
    std::vector<maniGraphSpacePoint> pts;
    for (uint32_t i = 0; i <= MANI_MAX_GRAPH_INPUTS; ++i) pts.push_back({(float)i, (float)((i * 7) % 5)});
    std::vector<uint32_t> in(pts.size(), a);
    r.net.output = r.net.Add(Space(k, r.net.Pts(pts), 0, 1), in);
    SCOPED_TRACE(k);
    ExpectRefused(r.net, mani_errorLimit, maniBuildReasonNode, r.net.output, 0);
  }
  // More than MANI_MAX_GRAPH_SPACE_TRIANGLES triangles.
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
  uint32_t a = r.net.Clip(0);
  std::vector<uint32_t> tri;
  for (uint32_t t = 0; t <= MANI_MAX_GRAPH_SPACE_TRIANGLES; ++t) tri.insert(tri.end(), {0, 1, 2});
  maniGraphNodeSource n = Space(maniGraphNodeSpaceTriangulated, r.net.Pts({{0, 0}, {1, 0}, {0, 1}}), 0, 1);
  n.triangles = r.net.L(tri);
  n.triangleCount = MANI_MAX_GRAPH_SPACE_TRIANGLES + 1;
  r.net.output = r.net.Add(n, {a, a, a});
  ExpectRefused(r.net, mani_errorLimit, maniBuildReasonNode, r.net.output, 0);
  // At the limit (the same triangle 1024 times) it builds.
  r.net.nodes[r.net.output].triangleCount = MANI_MAX_GRAPH_SPACE_TRIANGLES;
  EXPECT_EQ(r.net.Build().result, mani_success);
}

// -- Bind ------------------------------------------------------------------------------

TEST(GraphKindsBind, MirrorGraphRefusedWithoutItsMap) {
  MirrorRig m;
  ClipFile c(0xC1, &m.s);
  Net net;
  net.s = &m.s;
  net.mirror = &m.m;
  net.Slot("c", &c.c);
  uint32_t clip = net.Clip(0);
  net.output = net.Add(N(maniGraphNodeMirror), {clip});
  Play p;
  p.Init(net);
  ASSERT_TRUE(p.ok);
  maniGraphAssets a = p.assets;
  a.mirrorMap = nullptr;
  Mem mem(maniGraph_GetBindingSize(&p.g));
  maniGraphBinding* b = nullptr;
  EXPECT_EQ(maniBindGraph(&p.g, &a, mem.p, mem.size, &b, nullptr), mani_errorInvalid);
}

TEST(GraphKindsBind, MaskBoneCountOfAnotherSkeletonRefused) {
  // Two skeletons of different bone counts: a mask graph built on one bound
  // with the other is refused (the skeleton is not the graph's).
  Rig r;
  Skel other(0x55, 9);
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
  maniGraphNodeSource n = N(maniGraphNodeMask);
  n.defaultWeight = 0.5f;
  r.net.output = r.net.Add(n, {a, b});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  maniGraphAssets as = p.assets;
  as.skeleton = &other.s;
  Mem mem(maniGraph_GetBindingSize(&p.g));
  maniGraphBinding* bo = nullptr;
  EXPECT_EQ(maniBindGraph(&p.g, &as, mem.p, mem.size, &bo, nullptr), mani_errorInvalid);
}

// -- Additive --------------------------------------------------------------------------

struct AdditiveGraph {
  Rig r;
  Play p;
  uint32_t base = 0, diff = 0, add = 0;
  explicit AdditiveGraph(bool byParameter, float weight = 0.4f) {
    r.net.params = {P("aw", maniGraphParameterFloat, 0.3f)};
    base = r.net.Clip(0, 1.0f);
    diff = r.net.Clip(2, 0.5f);
    maniGraphNodeSource n = N(maniGraphNodeAdditive);
    n.weight = weight;
    n.parameter = byParameter ? 0 : MANI_NO_PARAMETER;
    add = r.net.output = r.net.Add(n, {base, diff});
    p.Init(r.net);
  }
  std::vector<uint8_t> Expected(float w) {
    const maniSkeleton* s = &r.skel.s;
    PoseBuf out(s), rest(s), dp(s);
    EXPECT_EQ(maniPose_SetRest(rest.p, s), mani_success);
    EXPECT_EQ(maniSkeleton_ComputePoseDifference(s, rest.p, rest.p, dp.p), mani_success);
    const maniGraphNodeView vb = p.View(base), vd = p.View(diff);
    EXPECT_EQ(maniClip_Sample(&r.a.c, s, vb.playhead, out.p), mani_success);
    EXPECT_EQ(maniClip_Sample(&r.d.c, s, vd.playhead, dp.p), mani_success);
    maniBlendLayer layer = {dp.p, w, nullptr};
    EXPECT_EQ(maniPose_AddLayers(out.p, s, &layer, 1), mani_success);
    return Locals(out.p);
  }
};

TEST(GraphKindsAdditive, ConstantWeightSharedAndPoseAsAddLayers) {
  AdditiveGraph f(false, 0.4f);
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.3f);
  EXPECT_EQ(f.p.View(f.add).weight, 1.0f);
  EXPECT_EQ(f.p.View(f.base).weight, 1.0f);
  EXPECT_EQ(f.p.View(f.diff).weight, 0.4f);
  EXPECT_EQ(f.p.View(f.diff).playhead, Advance(&f.r.d.c, 0.0f, 0.3f * 0.5f));
  EXPECT_EQ(f.p.Eval(), f.Expected(0.4f));
}

TEST(GraphKindsAdditive, ParameterHeldToUnitAndKeptFromTheUpdate) {
  AdditiveGraph f(true);
  ASSERT_TRUE(f.p.ok);
  f.p.SetF(0, 3.0f);
  f.p.Update(0.2f);
  EXPECT_EQ(f.p.View(f.diff).weight, 1.0f);
  const std::vector<uint8_t> atUpdate = f.Expected(1.0f);
  // A parameter set between Update and Evaluate changes nothing.
  f.p.SetF(0, 0.25f);
  EXPECT_EQ(f.p.Eval(), atUpdate);
  f.p.SetF(0, -2.0f);
  f.p.Update(0.2f);
  EXPECT_EQ(f.p.View(f.diff).weight, 0.0f);
  EXPECT_EQ(f.p.Eval(), f.Expected(0.0f));
  f.p.SetF(0, 0.625f);
  f.p.Update(0.1f);
  EXPECT_EQ(f.p.View(f.diff).weight, 0.625f);
  EXPECT_EQ(f.p.Eval(), f.Expected(0.625f));
}

// -- Select ----------------------------------------------------------------------------

struct SelectGraph {
  Rig r;
  Play p;
  std::vector<uint32_t> in;
  uint32_t sel = 0;
  explicit SelectGraph(bool byBool, uint32_t count = 3) {
    r.net.params = {P("s", maniGraphParameterFloat), P("f", maniGraphParameterBool)};
    for (uint32_t k = 0; k < count; ++k) in.push_back(r.net.Clip(k & 1, 1.0f + 0.25f * k));
    maniGraphNodeSource n = N(maniGraphNodeSelect);
    n.parameter = byBool ? 1 : 0;
    sel = r.net.output = r.net.Add(n, in);
    p.Init(r.net);
  }
  uint32_t Chosen() {
    uint32_t c = MANI_GRAPH_NONE;
    for (uint32_t k = 0; k < in.size(); ++k) {
      const float w = p.View(in[k]).weight;
      if (w == 1.0f) {
        EXPECT_EQ(c, MANI_GRAPH_NONE);
        c = k;
      } else {
        EXPECT_EQ(w, 0.0f);
      }
    }
    return c;
  }
};

TEST(GraphKindsSelect, FloatHeldAndRoundedHalvesUp) {
  SelectGraph f(false, 4);
  ASSERT_TRUE(f.p.ok);
  struct C {
    float v;
    uint32_t pick;
  } cases[] = {{0.0f, 0}, {0.49999997f, 0}, {0.5f, 1}, {1.5f, 2}, {2.5f, 3}, {2.4999998f, 2},
               {-7.0f, 0}, {-0.5f, 0}, {3.0f, 3},   {99.0f, 3}, {1e30f, 3}};
  for (const C& c : cases) {
    f.p.SetF(0, c.v);
    f.p.Update(0.01f);
    EXPECT_EQ(f.Chosen(), c.pick) << c.v;
  }
}

TEST(GraphKindsSelect, BoolPicksZeroOrOneHeldToLast) {
  SelectGraph f(true, 3);
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.01f);
  EXPECT_EQ(f.Chosen(), 0u);
  f.p.SetFlag(1, maniGraphParameterBool, 1);
  f.p.Update(0.01f);
  EXPECT_EQ(f.Chosen(), 1u);
  SelectGraph one(true, 1);
  ASSERT_TRUE(one.p.ok);
  one.p.SetFlag(1, maniGraphParameterBool, 1);
  one.p.Update(0.01f);
  EXPECT_EQ(one.Chosen(), 0u);
}

TEST(GraphKindsSelect, EvaluatesTheInputTheUpdateChose) {
  SelectGraph f(false, 2);
  ASSERT_TRUE(f.p.ok);
  f.p.SetF(0, 1.0f);
  f.p.Update(0.37f);
  PoseBuf s(&f.r.skel.s);
  // Input 1 is clip b at speed 1.25.
  const float t = f.p.View(f.in[1]).playhead;
  EXPECT_EQ(t, Advance(&f.r.b.c, 0.0f, 0.37f * 1.25f));
  const std::vector<uint8_t> expect = SampleAt(&f.r.b.c, &f.r.skel.s, t, s);
  f.p.SetF(0, 0.0f);  // after the update: changes nothing
  EXPECT_EQ(f.p.Eval(), expect);
}

// -- Time scale ------------------------------------------------------------------------

TEST(GraphKindsTimeScale, NestedFactorsMultiplyFromTheOutputDown) {
  Rig r;
  r.net.params = {P("k", maniGraphParameterFloat, 1.0f)};
  uint32_t a = r.net.Clip(0, 0.75f);
  maniGraphNodeSource inner = N(maniGraphNodeTimeScale);
  inner.factor = -1.5f;
  uint32_t ti = r.net.Add(inner, {a});
  maniGraphNodeSource outer = N(maniGraphNodeTimeScale);
  outer.parameter = 0;
  r.net.output = r.net.Add(outer, {ti});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  float head = 0.0f;
  for (float k : {2.5f, 0.3f, -4.0f, 100.0f, -1e9f}) {
    p.SetF(0, k);
    const float dt = 0.0173f;
    p.Update(dt);
    const float kh = std::fmax(std::fmin(k, MANI_MAX_GRAPH_TIME_FACTOR), -MANI_MAX_GRAPH_TIME_FACTOR);
    const float factor = kh * -1.5f;
    const float step = (dt * factor) * 0.75f;
    head = Advance(&r.a.c, head, step);
    EXPECT_EQ(p.View(a).playhead, head) << k;
    EXPECT_EQ(p.View(a).weight, 1.0f);
  }
  PoseBuf s(&r.skel.s);
  EXPECT_EQ(p.Eval(), SampleAt(&r.a.c, &r.skel.s, head, s));
}

// -- Seek ------------------------------------------------------------------------------

TEST(GraphKindsSeek, TriggerMovesPlayheadsAndIsCleared) {
  Rig r;
  r.net.params = {P("go", maniGraphParameterTrigger)};
  uint32_t a = r.net.Clip(0, 1.0f), b = r.net.Clip(1, 2.0f);
  r.net.params.push_back(P("w0", maniGraphParameterFloat, 0.5f));
  r.net.params.push_back(P("w1", maniGraphParameterFloat, 0.5f));
  maniGraphNodeSource blend = N(maniGraphNodeBlend);
  blend.parameters = r.net.L({1, 2});
  uint32_t bl = r.net.Add(blend, {a, b});
  maniGraphNodeSource seek = N(maniGraphNodeSeek);
  seek.parameter = 0;
  seek.time = 100.25f;  // past both durations
  r.net.output = r.net.Add(seek, {bl});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.Update(0.1f);
  float ha = Advance(&r.a.c, 0.0f, 0.1f), hb = Advance(&r.b.c, 0.0f, 0.2f);
  EXPECT_EQ(p.View(a).playhead, ha);
  EXPECT_EQ(p.View(b).playhead, hb);
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Update(0.1f);
  // Wrapped for the repeating clip, held to the duration for the clamped one.
  ha = Advance(&r.a.c, 0.0f, 100.25f);
  hb = maniClip_GetDuration(&r.b.c);
  EXPECT_EQ(p.View(a).playhead, ha);
  EXPECT_EQ(p.View(b).playhead, hb);
  maniGraphValue v;
  memset(&v, 0xFF, sizeof v);
  ASSERT_EQ(maniGraphInstance_GetParameter(p.i, 0, &v), mani_success);
  EXPECT_EQ(v.flag, 0u);
  // Next update steps again.
  p.Update(0.05f);
  EXPECT_EQ(p.View(a).playhead, Advance(&r.a.c, ha, 0.05f));
  EXPECT_EQ(p.View(b).playhead, Advance(&r.b.c, hb, 0.1f));
}

TEST(GraphKindsSeek, UnweighedSeekStillSeeksAndClears) {
  Rig r;
  r.net.params = {P("go", maniGraphParameterTrigger), P("s", maniGraphParameterFloat, 0.0f)};
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
  maniGraphNodeSource seek = N(maniGraphNodeSeek);
  seek.parameter = 0;
  seek.time = 0.125f;
  uint32_t sk = r.net.Add(seek, {b});
  maniGraphNodeSource sel = N(maniGraphNodeSelect);
  sel.parameter = 1;
  r.net.output = r.net.Add(sel, {a, sk});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Update(0.3f);
  EXPECT_EQ(p.View(sk).weight, 0.0f);
  EXPECT_EQ(p.View(b).playhead, 0.125f);
  maniGraphValue v;
  ASSERT_EQ(maniGraphInstance_GetParameter(p.i, 0, &v), mani_success);
  EXPECT_EQ(v.flag, 0u);
}

// -- Mirror, pose, mask ----------------------------------------------------------------

TEST(GraphKindsMirror, PoseIsMirrorPoseOfTheSample) {
  MirrorRig m;
  ClipFile c(0xC7, &m.s);
  Net net;
  net.s = &m.s;
  net.mirror = &m.m;
  net.Slot("c", &c.c);
  uint32_t clip = net.Clip(0, 1.0f);
  net.output = net.Add(N(maniGraphNodeMirror), {clip});
  Play p;
  p.Init(net);
  ASSERT_TRUE(p.ok);
  p.Update(0.41f);
  const float t = p.View(clip).playhead;
  EXPECT_EQ(t, Advance(&c.c, 0.0f, 0.41f));
  PoseBuf s(&m.s), out(&m.s);
  ASSERT_EQ(maniClip_Sample(&c.c, &m.s, t, s.p), mani_success);
  ASSERT_EQ(maniMirrorMap_MirrorPose(&m.m, &m.s, s.p, out.p), mani_success);
  EXPECT_EQ(p.Eval(), Locals(out.p));
}

TEST(GraphKindsPose, RestUntilSetThenTheLocals) {
  Rig r;
  r.net.params = {P("pp", maniGraphParameterPose)};
  maniGraphNodeSource n = N(maniGraphNodePose);
  n.parameter = 0;
  r.net.output = r.net.Add(n, {});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  PoseBuf rest(&r.skel.s), given(&r.skel.s);
  ASSERT_EQ(maniPose_SetRest(rest.p, &r.skel.s), mani_success);
  EXPECT_EQ(p.Eval(), Locals(rest.p));  // before the first update
  p.Update(0.1f);
  EXPECT_EQ(p.Eval(), Locals(rest.p));
  SampleAt(&r.a.c, &r.skel.s, 0.3f, given);
  ASSERT_EQ(maniGraphInstance_SetPose(p.i, 0, given.p), mani_success);
  p.Update(0.1f);
  EXPECT_EQ(p.Eval(), Locals(given.p));
  // A difference is refused and changes nothing.
  PoseBuf d(&r.skel.s);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&r.skel.s, rest.p, rest.p, d.p), mani_success);
  EXPECT_EQ(maniGraphInstance_SetPose(p.i, 0, d.p), mani_errorInvalid);
  EXPECT_EQ(p.Eval(), Locals(given.p));
}

bool IsUnder(const maniSkeleton* s, uint32_t bone, uint32_t top) {
  for (uint32_t b = bone; b != MANI_NO_BONE && b < maniSkeleton_GetBoneCount(s); b = maniSkeleton_GetParent(s, b))
    if (b == top) return true;
  return false;
}

TEST(GraphKindsMask, BlendOfBaseAndOverByBoneWeightsAndSharedByLargest) {
  Rig r;
  const maniSkeleton* s = &r.skel.s;
  const uint32_t bones = maniSkeleton_GetBoneCount(s);
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1, 0.5f);
  // A subtree chain at a root's child, a later bone-alone chain inside it.
  uint32_t top = 0;
  for (uint32_t k = 0; k < bones; ++k)
    if (maniSkeleton_GetParent(s, k) != MANI_NO_BONE && maniSkeleton_GetSubtreeEnd(s, k) > k + 1) {
      top = k;
      break;
    }
  uint32_t inner = MANI_NO_BONE;
  for (uint32_t k = 0; k < bones; ++k)
    if (k != top && IsUnder(s, k, top)) inner = k;
  ASSERT_NE(inner, MANI_NO_BONE);
  maniGraphMaskChain chains[2] = {{top, 0.75f, true}, {inner, 0.25f, false}};
  maniGraphNodeSource n = N(maniGraphNodeMask);
  n.chains = chains;
  n.chainCount = 2;
  n.defaultWeight = 0.125f;
  r.net.output = r.net.Add(n, {a, b});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.Update(0.2f);
  EXPECT_EQ(p.View(a).weight, 1.0f);
  EXPECT_EQ(p.View(b).weight, 0.75f);
  std::vector<float> w(bones, 0.125f), inv(bones);
  for (uint32_t k = 0; k < bones; ++k)
    if (IsUnder(s, k, top)) w[k] = 0.75f;
  w[inner] = 0.25f;
  for (uint32_t k = 0; k < bones; ++k) inv[k] = 1.0f - w[k];
  PoseBuf pa(s), pb(s), out(s);
  SampleAt(&r.a.c, s, p.View(a).playhead, pa);
  SampleAt(&r.b.c, s, p.View(b).playhead, pb);
  EXPECT_EQ(p.View(b).playhead, Advance(&r.b.c, 0.0f, 0.1f));
  maniBlendLayer layers[2] = {{pa.p, 1.0f, inv.data()}, {pb.p, 1.0f, w.data()}};
  ASSERT_EQ(maniSkeleton_BlendPoses(s, layers, 2, 0.0f, out.p), mani_success);
  EXPECT_EQ(p.Eval(), Locals(out.p));
}

TEST(GraphKindsMask, LargestBoneWeightZeroGivesTheBaseAsItIs) {
  Rig r;
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
  maniGraphNodeSource n = N(maniGraphNodeMask);
  n.defaultWeight = 0.0f;
  r.net.output = r.net.Add(n, {a, b});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.Update(0.2f);
  EXPECT_EQ(p.View(b).weight, 0.0f);
  PoseBuf pa(&r.skel.s);
  EXPECT_EQ(p.Eval(), SampleAt(&r.a.c, &r.skel.s, p.View(a).playhead, pa));
}

// -- Blend spaces ----------------------------------------------------------------------

struct SpaceGraph {
  Rig r;
  Play p;
  std::vector<uint32_t> in;
  std::vector<maniGraphSpacePoint> pts;
  uint32_t node = 0;
  SpaceGraph(maniGraphNodeKind kind, std::vector<maniGraphSpacePoint> points, float period = 0.0f,
             bool polar = false) {
    pts = points;
    r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
    for (uint32_t k = 0; k < pts.size(); ++k) in.push_back(r.net.Clip(k & 1, 1.0f + 0.125f * k));
    maniGraphNodeSource n = Space(kind, r.net.Pts(pts), 0, 1);
    n.period = period;
    n.polar = polar;
    node = r.net.output = r.net.Add(n, in);
    p.Init(r.net);
  }
  std::vector<float> Weights() {
    std::vector<float> w;
    for (uint32_t k : in) w.push_back(p.View(k).weight);
    return w;
  }
  void At(float x, float y) {
    p.SetF(0, x);
    p.SetF(1, y);
    p.Update(0.01f);
  }
  std::vector<uint8_t> Expected(const std::vector<float>& w) {
    const maniSkeleton* s = &r.skel.s;
    std::vector<std::unique_ptr<PoseBuf>> poses;
    std::vector<maniBlendLayer> layers;
    for (uint32_t k = 0; k < in.size(); ++k) {
      if (!(w[k] > 0.0f)) continue;
      poses.emplace_back(new PoseBuf(s));
      SampleAt(k & 1 ? &r.b.c : &r.a.c, s, p.View(in[k]).playhead, *poses.back());
      layers.push_back({poses.back()->p, w[k], nullptr});
    }
    PoseBuf out(s);
    EXPECT_EQ(maniSkeleton_BlendPoses(s, layers.data(), (uint32_t)layers.size(), 0.0f, out.p), mani_success);
    return Locals(out.p);
  }
};

void ExpectOneHot(const std::vector<float>& w, uint32_t k) {
  for (uint32_t j = 0; j < w.size(); ++j) EXPECT_EQ(w[j], j == k ? 1.0f : 0.0f) << "input " << j;
}

float Sum(const std::vector<float>& w) {
  float s = 0.0f;
  for (float v : w) s += v;
  return s;
}

TEST(GraphKindsSpace1D, WeightsAtPointsBetweenAndClamped) {
  SpaceGraph f(maniGraphNodeSpace1D, {{-1, 0}, {0.5f, 0}, {2, 0}});
  ASSERT_TRUE(f.p.ok);
  for (uint32_t k = 0; k < 3; ++k) {
    f.At(f.pts[k].x, 0);
    ExpectOneHot(f.Weights(), k);
  }
  f.At(-5, 0);
  ExpectOneHot(f.Weights(), 0);
  f.At(7, 0);
  ExpectOneHot(f.Weights(), 2);
  f.At(1.0f, 0);
  const float fr = (1.0f - 0.5f) / (2.0f - 0.5f);
  std::vector<float> w = f.Weights();
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_EQ(w[1], 1.0f - fr);
  EXPECT_EQ(w[2], fr);
  EXPECT_EQ(f.p.Eval(), f.Expected(w));
}

TEST(GraphKindsSpace1D, PeriodWrapsAndJoinsLastToFirst) {
  SpaceGraph f(maniGraphNodeSpace1D, {{1, 0}, {2, 0}, {3, 0}}, 4.0f);
  ASSERT_TRUE(f.p.ok);
  // x = 4.5 wraps to 0.5: below t_0 = 1, d = (0.5 + 4) - 3 = 1.5, span (1 + 4) - 3 = 2.
  f.At(4.5f, 0);
  std::vector<float> w = f.Weights();
  EXPECT_EQ(w[2], 1.0f - 0.75f);
  EXPECT_EQ(w[0], 0.75f);
  EXPECT_EQ(w[1], 0.0f);
  // x = 3.5: past the last, d = 0.5, f = 0.25.
  f.At(3.5f, 0);
  w = f.Weights();
  EXPECT_EQ(w[2], 0.75f);
  EXPECT_EQ(w[0], 0.25f);
  // x = -2: wraps to 2, input 1's point.
  f.At(-2.0f, 0);
  ExpectOneHot(f.Weights(), 1);
}

TEST(GraphKindsSpace1D, EvaluationKeepsTheUpdatesWeights) {
  SpaceGraph f(maniGraphNodeSpace1D, {{0, 0}, {1, 0}});
  ASSERT_TRUE(f.p.ok);
  f.At(0.3f, 0);
  const std::vector<float> w = f.Weights();
  const std::vector<uint8_t> expect = f.Expected(w);
  f.p.SetF(0, 0.9f);
  EXPECT_EQ(f.p.Eval(), expect);
}

TEST(GraphKindsSpaceBanded, OneAtEachPointSumOneBetween) {
  for (bool polar : {false, true}) {
    SpaceGraph f(maniGraphNodeSpaceBanded, {{0, 0}, {2, 0}, {0, 2}, {-2, -1}, {3, 3}}, 0.0f, polar);
    ASSERT_TRUE(f.p.ok);
    SCOPED_TRACE(polar);
    for (uint32_t k = 0; k < f.pts.size(); ++k) {
      f.At(f.pts[k].x, f.pts[k].y);
      ExpectOneHot(f.Weights(), k);
    }
    for (maniGraphSpacePoint q : {maniGraphSpacePoint{0.7f, 0.4f}, {-1.0f, 1.3f}, {10.0f, -3.0f}}) {
      f.At(q.x, q.y);
      const std::vector<float> w = f.Weights();
      EXPECT_NEAR(Sum(w), 1.0f, 1e-6f);
      EXPECT_LE(Sum(w), 1.0f + 1e-6f);
      EXPECT_EQ(f.p.Eval(), f.Expected(w));
    }
  }
}

TEST(GraphKindsSpaceBanded, CartesianWeightsByTheFormula) {
  std::vector<maniGraphSpacePoint> pts = {{0, 0}, {2, 0}, {0, 2}};
  SpaceGraph f(maniGraphNodeSpaceBanded, pts);
  ASSERT_TRUE(f.p.ok);
  const maniGraphSpacePoint q = {0.5f, 0.25f};
  f.At(q.x, q.y);
  std::vector<float> raw(3);
  for (uint32_t i = 0; i < 3; ++i) {
    float m = 1.0f;
    bool first = true;
    for (uint32_t j = 0; j < 3; ++j) {
      if (j == i) continue;
      const float ax = q.x - pts[i].x, ay = q.y - pts[i].y, bx = pts[j].x - pts[i].x, by = pts[j].y - pts[i].y;
      float v = 1.0f - (ax * bx + ay * by) / (bx * bx + by * by);
      v = std::fmin(std::fmax(v, 0.0f), 1.0f);
      m = first ? v : std::fmin(m, v);
      first = false;
    }
    raw[i] = m;
  }
  const float sum = (raw[0] + raw[1]) + raw[2];
  const std::vector<float> w = f.Weights();
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(w[i], raw[i] / sum) << i;
}

TEST(GraphKindsSpaceTriangulated, OneAtEachPointBarycentricInsideNearestEdgeOutside) {
  SpaceGraph f(maniGraphNodeSpaceTriangulated, {{0, 0}, {4, 0}, {0, 4}, {4, 4}, {2, 6}});
  ASSERT_TRUE(f.p.ok);
  for (uint32_t k = 0; k < f.pts.size(); ++k) {
    f.At(f.pts[k].x, f.pts[k].y);
    ExpectOneHot(f.Weights(), k);
  }
  // Inside (1, 1): in the triangle holding (0,0), (4,0), (0,4) whatever the
  // diagonal: r = 0.5, u = 0.25, s = 0.25.
  f.At(1, 1);
  std::vector<float> w = f.Weights();
  EXPECT_EQ(w[0], 0.5f);
  EXPECT_EQ(w[1], 0.25f);
  EXPECT_EQ(w[2], 0.25f);
  EXPECT_EQ(w[3], 0.0f);
  EXPECT_EQ(w[4], 0.0f);
  EXPECT_EQ(f.p.Eval(), f.Expected(w));
  // Outside below the bottom edge: nearest point (1, 0) on (0,0)-(4,0).
  f.At(1, -3);
  w = f.Weights();
  EXPECT_EQ(w[0] + w[1], 1.0f);
  EXPECT_EQ(w[1], 0.25f);
  EXPECT_EQ(w[2] + w[3] + w[4], 0.0f);
  // Inside anywhere: sums 1.
  f.At(2.9f, 4.7f);
  EXPECT_NEAR(Sum(f.Weights()), 1.0f, 1e-6f);
}

TEST(GraphKindsSpaceTriangulated, GivenTrianglesFirstInFileOrder) {
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
  std::vector<uint32_t> in;
  for (int c = 0; c < 4; ++c) in.push_back(r.net.Clip(c & 1));
  // Two triangles sharing the diagonal 1-2 of a square; clockwise given too.
  maniGraphNodeSource n = Space(maniGraphNodeSpaceTriangulated, r.net.Pts({{0, 0}, {2, 0}, {0, 2}, {2, 2}}), 0, 1);
  n.triangles = r.net.L({0, 2, 1, 1, 2, 3});
  n.triangleCount = 2;
  r.net.output = r.net.Add(n, in);
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  // On the shared diagonal at (1, 1): the first triangle wins, weights 0.5, 0.5 of 1 and 2.
  p.SetF(0, 1);
  p.SetF(1, 1);
  p.Update(0.01f);
  EXPECT_EQ(p.View(in[0]).weight, 0.0f);
  EXPECT_EQ(p.View(in[1]).weight, 0.5f);
  EXPECT_EQ(p.View(in[2]).weight, 0.5f);
  EXPECT_EQ(p.View(in[3]).weight, 0.0f);
  // (1.5, 1.5): in the second.
  p.SetF(0, 1.5f);
  p.SetF(1, 1.5f);
  p.Update(0.01f);
  EXPECT_EQ(p.View(in[0]).weight, 0.0f);
  EXPECT_EQ(p.View(in[3]).weight, 0.5f);
  EXPECT_EQ(p.View(in[1]).weight, 0.25f);
  EXPECT_EQ(p.View(in[2]).weight, 0.25f);
}

TEST(GraphKindsSpace, NodeWeightSharedTimesOwn) {
  // A space under a direct blend of weight 0.5: inputs get 0.5 * w_i.
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat, 0.25f), P("bw", maniGraphParameterFloat, 0.5f)};
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
  uint32_t sp = r.net.Add(Space(maniGraphNodeSpace1D, r.net.Pts({{0, 0}, {1, 0}}), 0, 0), {a, b});
  maniGraphNodeSource blend = N(maniGraphNodeBlend);
  blend.direct = true;
  blend.parameters = r.net.L({1});
  r.net.output = r.net.Add(blend, {sp});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.Update(0.01f);
  EXPECT_EQ(p.View(sp).weight, 0.5f);
  EXPECT_EQ(p.View(a).weight, 0.5f * 0.75f);
  EXPECT_EQ(p.View(b).weight, 0.5f * 0.25f);
}

// -- JSON ------------------------------------------------------------------------------

struct JsonFix {
  Rig r;
  maniGraphNamedAssets assets;
  JsonFix() {
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &r.skel.s;
    assets.clips = r.net.clips.data();
    assets.clipCount = (uint32_t)r.net.clips.size();
  }
  maniBuildResult Read(const std::string& text, File* out = nullptr) {
    Builder b;
    maniBuildResult res = maniBuildGraphJson(b.b, text.data(), text.size(), &assets);
    if (out && res.result == mani_success) *out = b.Built();
    return res;
  }
};

const char* kHead = "{\"format\": \"maul-anim graph\", \"version\": 1, ";

TEST(GraphKindsJson, LeftOutMembersTakeTheirDefaults) {
  JsonFix f;
  std::string text = std::string(kHead) +
                     "\"parameters\": [{\"name\": \"go\", \"type\": \"trigger\"}, {\"name\": \"s\", \"type\": \"float\"}],"
                     "\"clips\": [{\"name\": \"a\"}, {\"name\": \"d\"}],"
                     "\"nodes\": [{\"kind\": \"clip\", \"clip\": \"a\"}, {\"kind\": \"clip\", \"clip\": \"d\"},"
                     "{\"kind\": \"additive\", \"inputs\": [0, 1]},"
                     "{\"kind\": \"timeScale\", \"inputs\": [2]},"
                     "{\"kind\": \"seek\", \"inputs\": [3], \"trigger\": \"go\"},"
                     "{\"kind\": \"mask\", \"inputs\": [4, 0]},"
                     "{\"kind\": \"select\", \"inputs\": [5], \"parameter\": \"s\"}],"
                     "\"output\": 6}";
  File fromJson;
  maniBuildResult res = f.Read(text, &fromJson);
  ASSERT_EQ(res.result, mani_success) << res.reason << " " << res.item << " " << res.other;
  // The same graph through maniBuildGraph with the documented defaults.
  Net net;
  net.s = &f.r.skel.s;
  net.Slot("a", &f.r.a.c);
  net.Slot("d", &f.r.d.c);
  net.params = {P("go", maniGraphParameterTrigger), P("s", maniGraphParameterFloat)};
  uint32_t a = net.Clip(0, 1.0f), d = net.Clip(1, 1.0f);
  maniGraphNodeSource add = N(maniGraphNodeAdditive);
  add.weight = 1.0f;
  uint32_t ad = net.Add(add, {a, d});
  maniGraphNodeSource ts = N(maniGraphNodeTimeScale);
  ts.factor = 1.0f;
  uint32_t t = net.Add(ts, {ad});
  maniGraphNodeSource sk = N(maniGraphNodeSeek);
  sk.parameter = 0;
  sk.time = 0.0f;
  uint32_t s = net.Add(sk, {t});
  maniGraphNodeSource mask = N(maniGraphNodeMask);
  mask.defaultWeight = 0.0f;
  uint32_t m = net.Add(mask, {s, a});
  maniGraphNodeSource sel = N(maniGraphNodeSelect);
  sel.parameter = 1;
  net.output = net.Add(sel, {m});
  Builder b;
  maniGraphSource src = net.Src();
  ASSERT_EQ(maniBuildGraph(b.b, &src).result, mani_success);
  File direct = b.Built();
  ASSERT_EQ(direct.size, fromJson.size);
  EXPECT_EQ(memcmp(direct.data(), fromJson.data(), direct.size), 0);
}

TEST(GraphKindsJson, SpaceDefaultsPeriodPolarTrianglesY) {
  JsonFix f;
  std::string text = std::string(kHead) +
                     "\"parameters\": [{\"name\": \"x\", \"type\": \"float\"}, {\"name\": \"y\", \"type\": \"float\"}],"
                     "\"clips\": [{\"name\": \"a\"}, {\"name\": \"b\"}],"
                     "\"nodes\": [{\"kind\": \"clip\", \"clip\": \"a\"}, {\"kind\": \"clip\", \"clip\": \"b\"},"
                     "{\"kind\": \"clip\", \"clip\": \"a\"},"
                     "{\"kind\": \"spaceTriangulated\", \"inputs\": [0, 1, 2], \"parameter\": \"x\","
                     " \"parameterY\": \"y\", \"positions\": [{\"x\": 0}, {\"x\": 1}, {\"x\": 0, \"y\": 1}]},"
                     "{\"kind\": \"spaceBanded\", \"inputs\": [3, 0], \"parameter\": \"x\", \"parameterY\": \"y\","
                     " \"positions\": [{\"x\": 0}, {\"x\": 1, \"y\": 1}]},"
                     "{\"kind\": \"space1D\", \"inputs\": [4, 1], \"parameter\": \"x\","
                     " \"positions\": [{\"x\": 0}, {\"x\": 1}]}],"
                     "\"output\": 5}";
  File fromJson;
  maniBuildResult res = f.Read(text, &fromJson);
  ASSERT_EQ(res.result, mani_success) << res.reason << " " << res.item << " " << res.other;
  Net net;
  net.s = &f.r.skel.s;
  net.Slot("a", &f.r.a.c);
  net.Slot("b", &f.r.b.c);
  net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
  uint32_t a = net.Clip(0), b = net.Clip(1), c = net.Clip(0);
  uint32_t tri = net.Add(Space(maniGraphNodeSpaceTriangulated, net.Pts({{0, 0}, {1, 0}, {0, 1}}), 0, 1), {a, b, c});
  uint32_t band = net.Add(Space(maniGraphNodeSpaceBanded, net.Pts({{0, 0}, {1, 1}}), 0, 1), {tri, a});
  net.output = net.Add(Space(maniGraphNodeSpace1D, net.Pts({{0, 0}, {1, 0}}), 0, 0), {band, b});
  Builder bb;
  maniGraphSource src = net.Src();
  ASSERT_EQ(maniBuildGraph(bb.b, &src).result, mani_success);
  File direct = bb.Built();
  ASSERT_EQ(direct.size, fromJson.size);
  EXPECT_EQ(memcmp(direct.data(), fromJson.data(), direct.size), 0);
}

void ExpectForm(const maniBuildResult& r, maniGraphForm form, size_t offset) {
  EXPECT_EQ(r.result, form == maniGraphFormVersion ? mani_errorVersion : mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonForm);
  EXPECT_EQ(r.other, (uint64_t)form);
  EXPECT_EQ(r.item, (uint64_t)offset);
}

std::string Graph(const std::string& params, const std::string& nodes, uint32_t output) {
  return std::string(kHead) + "\"parameters\": [" + params +
         "], \"clips\": [{\"name\": \"a\"}, {\"name\": \"d\"}], \"nodes\": [{\"kind\": \"clip\", \"clip\": \"a\"}, "
         "{\"kind\": \"clip\", \"clip\": \"d\"}, " +
         nodes + "], \"output\": " + std::to_string(output) + "}";
}

TEST(GraphKindsJson, RequiredMembersMissingAtTheObject) {
  JsonFix f;
  const std::string p = "{\"name\": \"go\", \"type\": \"trigger\"}, {\"name\": \"s\", \"type\": \"float\"}";
  struct C {
    const char* node;
  } cases[] = {{"{\"kind\": \"select\", \"inputs\": [0]}"},
               {"{\"kind\": \"seek\", \"inputs\": [0]}"},
               {"{\"kind\": \"additive\"}"},
               {"{\"kind\": \"mirror\"}"},
               {"{\"kind\": \"space1D\", \"inputs\": [0], \"positions\": [{\"x\": 0}]}"},
               {"{\"kind\": \"spaceBanded\", \"inputs\": [0], \"parameter\": \"s\", \"positions\": [{\"x\": 0}]}"},
               {"{\"kind\": \"space1D\", \"inputs\": [0], \"parameter\": \"s\", \"positions\": [{\"y\": 0}]}"}};
  for (const C& c : cases) {
    const std::string text = Graph(p, c.node, 2);
    SCOPED_TRACE(c.node);
    const std::string nodeText = c.node;
    size_t at = text.find(nodeText);
    // The object missing a member: the node, or the position for "x".
    if (nodeText.find("\"y\": 0") != std::string::npos) at = text.find("{\"y\"");
    ExpectForm(f.Read(text), maniGraphFormMissing, at);
  }
}

TEST(GraphKindsJson, MembersAKindDoesNotTakeRefusedAtTheKey) {
  JsonFix f;
  const std::string p = "{\"name\": \"go\", \"type\": \"trigger\"}, {\"name\": \"s\", \"type\": \"float\"}";
  struct C {
    const char* node;
    const char* key;
  } cases[] = {{"{\"kind\": \"mirror\", \"inputs\": [0], \"factor\": 2}", "\"factor\""},
               {"{\"kind\": \"timeScale\", \"inputs\": [0], \"time\": 2}", "\"time\""},
               {"{\"kind\": \"space1D\", \"inputs\": [0], \"parameter\": \"s\", \"positions\": [{\"x\": 0}], "
                "\"polar\": true}",
                "\"polar\""},
               {"{\"kind\": \"spaceBanded\", \"inputs\": [0], \"parameter\": \"s\", \"parameterY\": \"s\", "
                "\"positions\": [{\"x\": 0}], \"period\": 1}",
                "\"period\""}};
  for (const C& c : cases) {
    const std::string text = Graph(p, c.node, 2);
    SCOPED_TRACE(c.node);
    ExpectForm(f.Read(text), maniGraphFormMember, text.find(c.key, text.find(c.node)));
  }
}

TEST(GraphKindsJson, NamesAndValuesRefusedAtTheValue) {
  JsonFix f;
  const std::string p = "{\"name\": \"go\", \"type\": \"trigger\"}, {\"name\": \"s\", \"type\": \"float\"}";
  {
    const std::string text = Graph(p, "{\"kind\": \"seek\", \"inputs\": [0], \"trigger\": \"nope\"}", 2);
    ExpectForm(f.Read(text), maniGraphFormName, text.find("\"nope\""));
  }
  {
    const std::string text = Graph(
        p, "{\"kind\": \"mask\", \"inputs\": [0, 0], \"chains\": [{\"bone\": \"no-such-bone\", \"weight\": 1}]}", 2);
    ExpectForm(f.Read(text), maniGraphFormName, text.find("\"no-such-bone\""));
  }
  {
    // Positions not one for each input: Value at the value.
    const std::string text =
        Graph(p, "{\"kind\": \"space1D\", \"inputs\": [0, 0], \"parameter\": \"s\", \"positions\": [{\"x\": 0}]}", 2);
    ExpectForm(f.Read(text), maniGraphFormValue, text.find("[{\"x\": 0}]"));
  }
  {
    // A triangle not 3 node places.
    const std::string text = Graph(p,
                                   "{\"kind\": \"spaceTriangulated\", \"inputs\": [0, 0, 0], \"parameter\": \"s\", "
                                   "\"parameterY\": \"s\", \"positions\": [{\"x\": 0}, {\"x\": 1}, {\"y\": 1, \"x\": 0}],"
                                   " \"triangles\": [[0, 1]]}",
                                   2);
    ExpectForm(f.Read(text), maniGraphFormValue, text.find("[0, 1]]"));
  }
  {
    // An additive's weight of the wrong type.
    const std::string text = Graph(p, "{\"kind\": \"additive\", \"inputs\": [0, 1], \"weight\": \"x\"}", 2);
    ExpectForm(f.Read(text), maniGraphFormType, text.find("\"x\"}"));
  }
  {
    // A trigger given a value: Member at its key.
    const std::string text = Graph("{\"name\": \"go\", \"type\": \"trigger\", \"value\": false}",
                                   "{\"kind\": \"mirror\", \"inputs\": [0]}", 2);
    ExpectForm(f.Read(text), maniGraphFormMember, text.find("\"value\""));
  }
}

TEST(GraphKindsJson, WeightByParameterObjectRoundTrips) {
  // {"parameter": name} stands for an additive weight and a time scale factor.
  JsonFix f;
  Net& net = f.r.net;
  net.params = {P("aw", maniGraphParameterFloat, 0.5f), P("k", maniGraphParameterFloat, 1.0f)};
  uint32_t a = net.Clip(0), d = net.Clip(2);
  maniGraphNodeSource add = N(maniGraphNodeAdditive);
  add.parameter = 0;
  uint32_t ad = net.Add(add, {a, d});
  maniGraphNodeSource ts = N(maniGraphNodeTimeScale);
  ts.parameter = 1;
  net.output = net.Add(ts, {ad});
  Builder w;
  maniGraphSource src = net.Src();
  ASSERT_EQ(maniWriteGraphJson(w.b, &src).result, mani_success);
  File text = w.Built();
  const std::string s(reinterpret_cast<const char*>(text.data()), text.size);
  // The writer lays objects out a member a line.
  const size_t weight = s.find("\"weight\": {"), factor = s.find("\"factor\": {");
  ASSERT_NE(weight, std::string::npos) << s;
  ASSERT_NE(factor, std::string::npos) << s;
  EXPECT_EQ(s.find("\"parameter\": \"aw\"", weight), s.find("\"parameter\"", weight)) << s;
  EXPECT_EQ(s.find("\"parameter\": \"k\"", factor), s.find("\"parameter\"", factor)) << s;
  f.assets.clips = net.clips.data();
  File fromJson;
  ASSERT_EQ(f.Read(s, &fromJson).result, mani_success);
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &src).result, mani_success);
  File direct = b.Built();
  ASSERT_EQ(direct.size, fromJson.size);
  EXPECT_EQ(memcmp(direct.data(), fromJson.data(), direct.size), 0);
}

// -- Save, Restore, copies, subsets -------------------------------------------------------

// A graph of every layering kind: select(ts(seek(additive(a, d))), mask(b, mirror-free a)), space.
struct Layered {
  Rig r;
  Play p;
  uint32_t add = 0, sel = 0;
  Layered() {
    Net& n = r.net;
    n.params = {P("aw", maniGraphParameterFloat, 0.5f), P("go", maniGraphParameterTrigger),
                P("s", maniGraphParameterFloat, 0.0f), P("x", maniGraphParameterFloat, 0.3f),
                P("k", maniGraphParameterFloat, 1.5f)};
    uint32_t a = n.Clip(0), d = n.Clip(2, 0.5f), b = n.Clip(1, -0.75f), a2 = n.Clip(0, 1.25f);
    maniGraphNodeSource ad = N(maniGraphNodeAdditive);
    ad.parameter = 0;
    add = n.Add(ad, {a, d});
    maniGraphNodeSource sk = N(maniGraphNodeSeek);
    sk.parameter = 1;
    sk.time = 0.2f;
    uint32_t s = n.Add(sk, {add});
    maniGraphNodeSource ts = N(maniGraphNodeTimeScale);
    ts.parameter = 4;
    uint32_t t = n.Add(ts, {s});
    maniGraphMaskChain chains[1] = {{1, 0.5f, true}};
    maniGraphNodeSource mk = N(maniGraphNodeMask);
    mk.chains = chains;  // copied by the build
    mk.chainCount = 1;
    mk.defaultWeight = 0.25f;
    static maniGraphMaskChain keep[1];
    keep[0] = chains[0];
    mk.chains = keep;
    uint32_t m = n.Add(mk, {b, a2});
    uint32_t sp = n.Add(Space(maniGraphNodeSpace1D, n.Pts({{0, 0}, {1, 0}}), 3, 0), {t, m});
    maniGraphNodeSource se = N(maniGraphNodeSelect);
    se.parameter = 2;
    sel = n.output = n.Add(se, {sp, m});
    p.Init(n);
  }
};

TEST(GraphKindsState, RestoreOfBadChoiceOrWeightRefusedInstanceUnchanged) {
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.1f);
  f.p.SetF(2, 1.0f);
  f.p.Update(0.1f);
  const std::vector<uint8_t> saved = f.p.Save();
  const std::vector<uint8_t> pose = f.p.Eval();
  // Corrupt every 4-byte word of the tail (after the header, parameters and
  // nodes) to a huge value: each must be refused or restore to something
  // that evaluates finite; a refusal leaves the instance as it was.
  const size_t nodes = maniGraph_GetNodeCount(&f.p.g);
  const size_t params = maniGraph_GetParameterCount(&f.p.g);
  const size_t tail = 32 + 16 * params + 16 * nodes;
  ASSERT_LT(tail, saved.size());
  uint32_t refused = 0;
  // 1.7e38, a NaN, -1 and the float after 1: out of [0, 1] as floats, past
  // any count or flag as u32s.
  for (uint32_t v : {0x7F000000u, 0x7FC00000u, 0xBF800000u, 0x3F800001u})
  for (size_t at = tail; at + 4 <= saved.size() - 4; at += 4) {
    std::vector<uint8_t> bad = saved;
    memcpy(bad.data() + at, &v, 4);
    maniFileResult r = maniGraphInstance_Restore(f.p.i, bad.data(), bad.size());
    // Every word of the tail is a weight, a choice or the updated flag: each
    // refused at its offset.
    EXPECT_EQ(r.result, mani_errorFormat) << at;
    EXPECT_EQ(r.offset, at);
    if (r.result != mani_success) {
      ++refused;
      EXPECT_EQ(f.p.Save(), saved) << at;
    } else {
      ASSERT_EQ(maniGraphInstance_Restore(f.p.i, saved.data(), saved.size()).result, mani_success);
    }
  }
  EXPECT_GT(refused, 0u);
  // Same bits after a restore into a fresh instance.
  Mem other(maniGraphBinding_GetInstanceSize(f.p.b));
  maniGraphInstance* o = nullptr;
  ASSERT_EQ(maniInitGraphInstance(f.p.b, other.p, other.size, &o), mani_success);
  ASSERT_EQ(maniGraphInstance_Restore(o, saved.data(), saved.size()).result, mani_success);
  PoseBuf out(&f.r.skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(o, f.p.scratch->p, f.p.scratch->size, out.p), mani_success);
  EXPECT_EQ(Locals(out.p), pose);
  size_t size = 0;
  std::vector<uint8_t> again(saved.size());
  ASSERT_EQ(maniGraphInstance_Save(o, again.data(), again.size(), &size), mani_success);
  EXPECT_EQ(again, saved);
}

TEST(GraphKindsState, SelectChoicePastInputsRefused) {
  // The select's block is a u32 choice; find it by saving under two choices.
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.SetF(2, 0.0f);
  f.p.Update(0.1f);
  const std::vector<uint8_t> s0 = f.p.Save();
  f.p.SetF(2, 1.0f);
  f.p.Update(0.0f);
  const std::vector<uint8_t> s1 = f.p.Save();
  ASSERT_EQ(s0.size(), s1.size());
  size_t at = SIZE_MAX;
  const size_t tail = 32 + 16 * maniGraph_GetParameterCount(&f.p.g) + 16 * maniGraph_GetNodeCount(&f.p.g);
  for (size_t k = tail; k + 4 <= s1.size(); k += 4) {
    uint32_t a, b;
    memcpy(&a, s0.data() + k, 4);
    memcpy(&b, s1.data() + k, 4);
    if (a == 0 && b == 1) at = k;
  }
  ASSERT_NE(at, SIZE_MAX);
  std::vector<uint8_t> bad = s1;
  const uint32_t two = 2;
  memcpy(bad.data() + at, &two, 4);
  maniFileResult r = maniGraphInstance_Restore(f.p.i, bad.data(), bad.size());
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.offset, at);
  EXPECT_EQ(f.p.Save(), s1);
}

TEST(GraphKindsState, MemcpyCopyGoesOnWithTheSameBits) {
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.13f);
  Mem copy(f.p.inst->size);
  memcpy(copy.p, f.p.inst->p, f.p.inst->size);
  maniGraphInstance* c = reinterpret_cast<maniGraphInstance*>(copy.p + (reinterpret_cast<uint8_t*>(f.p.i) - f.p.inst->p));
  maniGraphValue v;
  memset(&v, 0, sizeof v);
  v.flag = 1;
  for (maniGraphInstance* i : {f.p.i, c}) {
    ASSERT_EQ(maniGraphInstance_SetParameter(i, 1, maniGraphParameterTrigger, v), mani_success);
    ASSERT_EQ(maniGraphInstance_Update(i, 0.21f, nullptr, 0, nullptr, nullptr), mani_success);
  }
  PoseBuf out(&f.r.skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(c, f.p.scratch->p, f.p.scratch->size, out.p), mani_success);
  EXPECT_EQ(Locals(out.p), f.p.Eval());
  size_t size = 0;
  std::vector<uint8_t> saved(f.p.Save().size());
  ASSERT_EQ(maniGraphInstance_Save(c, saved.data(), saved.size(), &size), mani_success);
  EXPECT_EQ(saved, f.p.Save());
}

TEST(GraphKindsState, SubsetEqualsEvaluateOnPlannedBones) {
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.17f);
  f.p.SetF(2, 0.0f);
  f.p.Update(0.05f);
  const std::vector<uint8_t> full = f.p.Eval();
  const uint32_t bones = maniSkeleton_GetBoneCount(&f.r.skel.s);
  Mem plan(maniGraphBinding_GetSubsetSize(f.p.b));
  maniGraphSubset* sp = nullptr;
  const uint32_t want[2] = {3, bones - 1};
  ASSERT_EQ(maniPlanGraphSubset(f.p.b, want, 2, plan.p, plan.size, &sp), mani_success);
  uint32_t count = 0;
  const uint32_t* planned = maniGraphSubset_GetBones(sp, &count);
  ASSERT_NE(planned, nullptr);
  // Every listed bone and its ancestors are planned.
  for (uint32_t w : want)
    for (uint32_t b = w; b != MANI_NO_BONE && b < bones; b = maniSkeleton_GetParent(&f.r.skel.s, b)) {
      bool found = false;
      for (uint32_t k = 0; k < count; ++k) found = found || planned[k] == b;
      EXPECT_TRUE(found) << b;
    }
  PoseBuf out(&f.r.skel.s);
  const std::vector<uint8_t> before = Locals(out.p);
  ASSERT_EQ(maniGraphInstance_EvaluateSubset(f.p.i, sp, f.p.scratch->p, f.p.scratch->size, out.p), mani_success);
  const std::vector<uint8_t> sub = Locals(out.p);
  const size_t t = sizeof(maniTransform);
  std::vector<bool> in(bones, false);
  for (uint32_t k = 0; k < count; ++k) in[planned[k]] = true;
  for (uint32_t b = 0; b < bones; ++b) {
    if (in[b]) {
      EXPECT_EQ(memcmp(sub.data() + b * t, full.data() + b * t, t), 0) << b;
    } else {
      EXPECT_EQ(memcmp(sub.data() + b * t, before.data() + b * t, t), 0) << b;
    }
  }
}

TEST(GraphKindsState, SubsetOfMirrorGraphMatchesEvaluate) {
  MirrorRig m;
  ClipFile c(0xC9, &m.s);
  Net net;
  net.s = &m.s;
  net.mirror = &m.m;
  net.Slot("c", &c.c);
  uint32_t clip = net.Clip(0);
  net.output = net.Add(N(maniGraphNodeMirror), {clip});
  Play p;
  p.Init(net);
  ASSERT_TRUE(p.ok);
  p.Update(0.3f);
  const std::vector<uint8_t> full = p.Eval();
  const uint32_t bones = maniSkeleton_GetBoneCount(&m.s);
  Mem plan(maniGraphBinding_GetSubsetSize(p.b));
  maniGraphSubset* sp = nullptr;
  const uint32_t want[1] = {bones - 1};
  ASSERT_EQ(maniPlanGraphSubset(p.b, want, 1, plan.p, plan.size, &sp), mani_success);
  uint32_t count = 0;
  const uint32_t* planned = maniGraphSubset_GetBones(sp, &count);
  PoseBuf out(&m.s);
  ASSERT_EQ(maniGraphInstance_EvaluateSubset(p.i, sp, p.scratch->p, p.scratch->size, out.p), mani_success);
  const std::vector<uint8_t> sub = Locals(out.p);
  const size_t t = sizeof(maniTransform);
  EXPECT_GT(count, 1u);
  for (uint32_t k = 0; k < count; ++k)
    EXPECT_EQ(memcmp(sub.data() + planned[k] * t, full.data() + planned[k] * t, t), 0) << planned[k];
}

// -- More claims ------------------------------------------------------------------------

// "A node read by several nodes takes the factor and seek of its last reader
// in node order."
TEST(GraphKindsTimeScale, SharedNodeTakesItsLastReadersFactor) {
  Rig r;
  r.net.params = {P("w0", maniGraphParameterFloat, 0.5f), P("w1", maniGraphParameterFloat, 0.5f)};
  uint32_t a = r.net.Clip(0, 0.5f);
  maniGraphNodeSource t1 = N(maniGraphNodeTimeScale), t2 = N(maniGraphNodeTimeScale);
  t1.factor = 2.0f;
  t2.factor = 3.0f;
  uint32_t s1 = r.net.Add(t1, {a}), s2 = r.net.Add(t2, {a});
  maniGraphNodeSource blend = N(maniGraphNodeBlend);
  blend.parameters = r.net.L({0, 1});
  r.net.output = r.net.Add(blend, {s1, s2});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  const float factor = p.NodeOf(s1) > p.NodeOf(s2) ? 2.0f : 3.0f;
  p.Update(0.1f);
  EXPECT_EQ(p.View(a).playhead, Advance(&r.a.c, 0.0f, (0.1f * factor) * 0.5f));
  // Its weight is the sum of both shares.
  EXPECT_EQ(p.View(a).weight, 0.5f + 0.5f);
}

// "the nearest seek's time where two fire"
TEST(GraphKindsSeek, NestedSeeksTheNearestTimeWins) {
  Rig r;
  r.net.params = {P("go", maniGraphParameterTrigger)};
  uint32_t a = r.net.Clip(0);
  maniGraphNodeSource inner = N(maniGraphNodeSeek), outer = N(maniGraphNodeSeek);
  inner.parameter = outer.parameter = 0;
  inner.time = 0.125f;
  outer.time = 0.375f;
  uint32_t si = r.net.Add(inner, {a});
  r.net.output = r.net.Add(outer, {si});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Update(0.05f);
  EXPECT_EQ(p.View(a).playhead, 0.125f);
}

// "every seek's trigger is cleared once all nodes have read it": two seeks
// on one trigger in two branches both fire.
TEST(GraphKindsSeek, TwoSeeksOnOneTriggerBothFire) {
  Rig r;
  r.net.params = {P("go", maniGraphParameterTrigger), P("w0", maniGraphParameterFloat, 0.5f),
                  P("w1", maniGraphParameterFloat, 0.5f)};
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
  maniGraphNodeSource s1 = N(maniGraphNodeSeek), s2 = N(maniGraphNodeSeek);
  s1.parameter = s2.parameter = 0;
  s1.time = 0.25f;
  s2.time = 0.375f;
  uint32_t k1 = r.net.Add(s1, {a}), k2 = r.net.Add(s2, {b});
  maniGraphNodeSource blend = N(maniGraphNodeBlend);
  blend.parameters = r.net.L({1, 2});
  r.net.output = r.net.Add(blend, {k1, k2});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.Update(0.05f);
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Update(0.05f);
  EXPECT_EQ(p.View(a).playhead, 0.25f);
  EXPECT_EQ(p.View(b).playhead, std::fmin(0.375f, maniClip_GetDuration(&r.b.c)));
}

// "no events or root motion for that step"
TEST(GraphKindsSeek, SeekStepListsNoEventsAndNoRootMotion) {
  Rig r;
  r.net.params = {P("go", maniGraphParameterTrigger)};
  uint32_t a = r.net.Clip(0);
  maniGraphNodeSource sk = N(maniGraphNodeSeek);
  sk.parameter = 0;
  sk.time = 0.0f;
  r.net.output = r.net.Add(sk, {a});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  ASSERT_GT(maniClip_GetEventCount(&r.a.c), 0u);
  const float dt = maniClip_GetDuration(&r.a.c) * 1.5f;
  std::vector<maniGraphEvent> ev(64);
  uint32_t count = 0;
  maniRootMove move;
  ASSERT_EQ(maniGraphInstance_Update(p.i, dt, ev.data(), 64, &count, &move), mani_success);
  EXPECT_EQ(count, maniClip_GetEventCount(&r.a.c));  // a whole duration: each event once
  const bool moved = move.translation.x != 0.0f || move.translation.y != 0.0f || move.translation.z != 0.0f;
  EXPECT_TRUE(moved);
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  count = 99;
  ASSERT_EQ(maniGraphInstance_Update(p.i, dt, ev.data(), 64, &count, &move), mani_success);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(move.translation.x, 0.0f);
  EXPECT_EQ(move.translation.y, 0.0f);
  EXPECT_EQ(move.translation.z, 0.0f);
  EXPECT_EQ(std::fabs(move.rotation.w), 1.0f);
}

// "a mask's chains, applied in order over defaultWeight (a later chain's
// bones take its weight)": a bone-alone chain before a subtree chain over
// it takes the subtree's weight (unlike maniSkeleton_BuildMask).
TEST(GraphKindsMask, LaterChainWinsWhateverItsKind) {
  Rig r;
  const maniSkeleton* s = &r.skel.s;
  const uint32_t bones = maniSkeleton_GetBoneCount(s);
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
  uint32_t top = MANI_NO_BONE, inner = MANI_NO_BONE;
  for (uint32_t k = 0; k < bones && top == MANI_NO_BONE; ++k)
    if (maniSkeleton_GetSubtreeEnd(s, k) > k + 1) top = k;
  ASSERT_NE(top, MANI_NO_BONE);
  for (uint32_t k = 0; k < bones; ++k)
    if (k != top && IsUnder(s, k, top)) inner = k;
  maniGraphMaskChain chains[2] = {{inner, 0.25f, false}, {top, 0.5f, true}};
  maniGraphNodeSource n = N(maniGraphNodeMask);
  n.chains = chains;
  n.chainCount = 2;
  n.defaultWeight = 1.0f;
  r.net.output = r.net.Add(n, {a, b});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.Update(0.2f);
  std::vector<float> w(bones, 1.0f), inv(bones);
  for (uint32_t k = 0; k < bones; ++k)
    if (IsUnder(s, k, top)) w[k] = 0.5f;
  for (uint32_t k = 0; k < bones; ++k) inv[k] = 1.0f - w[k];
  PoseBuf pa(s), pb(s), out(s);
  SampleAt(&r.a.c, s, p.View(a).playhead, pa);
  SampleAt(&r.b.c, s, p.View(b).playhead, pb);
  maniBlendLayer layers[2] = {{pa.p, 1.0f, inv.data()}, {pb.p, 1.0f, w.data()}};
  ASSERT_EQ(maniSkeleton_BlendPoses(s, layers, 2, 0.0f, out.p), mani_success);
  EXPECT_EQ(p.Eval(), Locals(out.p));
}

TEST(GraphKindsSpace1D, OneInputWeighsOneAnywhere) {
  SpaceGraph f(maniGraphNodeSpace1D, {{0.5f, 0}});
  ASSERT_TRUE(f.p.ok);
  for (float x : {-100.0f, 0.5f, 3.0f}) {
    f.At(x, 0);
    ExpectOneHot(f.Weights(), 0);
  }
}

// "giving poses or differences alike": a space of differences under an
// additive is its base then AddLayers of the blend of the differences.
TEST(GraphKindsSpace1D, SpaceOfDifferencesUnderAdditive) {
  Rig r;
  ClipFile d2(0xD4, &r.skel.s, maniLoopRepeat, maniAdditiveRest);
  r.net.Slot("d2", &d2.c);
  r.net.params = {P("x", maniGraphParameterFloat, 0.25f)};
  uint32_t a = r.net.Clip(0), d = r.net.Clip(2), e = r.net.Clip(3);
  uint32_t sp = r.net.Add(Space(maniGraphNodeSpace1D, r.net.Pts({{0, 0}, {1, 0}}), 0, 0), {d, e});
  maniGraphNodeSource add = N(maniGraphNodeAdditive);
  add.weight = 0.5f;
  r.net.output = r.net.Add(add, {a, sp});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.Update(0.3f);
  EXPECT_EQ(p.View(d).weight, 0.5f * 0.75f);
  EXPECT_EQ(p.View(e).weight, 0.5f * 0.25f);
  const maniSkeleton* s = &r.skel.s;
  PoseBuf rest(s), pd(s), pe(s), blend(s), out(s);
  ASSERT_EQ(maniPose_SetRest(rest.p, s), mani_success);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(s, rest.p, rest.p, pd.p), mani_success);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(s, rest.p, rest.p, pe.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&r.d.c, s, p.View(d).playhead, pd.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&d2.c, s, p.View(e).playhead, pe.p), mani_success);
  maniBlendLayer layers[2] = {{pd.p, 0.75f, nullptr}, {pe.p, 0.25f, nullptr}};
  ASSERT_EQ(maniSkeleton_BlendPoses(s, layers, 2, 0.0f, blend.p), mani_success);
  SampleAt(&r.a.c, s, p.View(a).playhead, out);
  maniBlendLayer l = {blend.p, 0.5f, nullptr};
  ASSERT_EQ(maniPose_AddLayers(out.p, s, &l, 1), mani_success);
  EXPECT_EQ(p.Eval(), Locals(out.p));
}

// "Returns as maniBuildGraph, items by place in the text's lists"
TEST(GraphKindsJson, BuildRefusalsByTheTextsPlaces) {
  JsonFix f;
  const std::string p = "{\"name\": \"go\", \"type\": \"trigger\"}";
  maniBuildResult r = f.Read(Graph(p, "{\"kind\": \"additive\", \"inputs\": [0, 1], \"weight\": 2}", 2));
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonWeight);
  EXPECT_EQ(r.item, 2u);
  EXPECT_EQ(r.other, 0u);
  r = f.Read(Graph(p, "{\"kind\": \"timeScale\", \"inputs\": [0], \"factor\": 65}, {\"kind\": \"mirror\", \"inputs\": [1]}", 2));
  EXPECT_EQ(r.result, mani_errorLimit);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonScalar);
  EXPECT_EQ(r.item, 2u);
}

TEST(GraphKindsJson, VersionOtherThanOneAtTheValue) {
  JsonFix f;
  std::string text = Graph("", "{\"kind\": \"mirror\", \"inputs\": [0]}", 2);
  const size_t at = text.find("1, ");
  text.replace(at, 1, "2");
  ExpectForm(f.Read(text), maniGraphFormVersion, at);
}

// "mani_errorCapacity when capacity is smaller than the state, with
// *sizeOut still written and nothing else"
TEST(GraphKindsState, SaveTooSmallWritesNothing) {
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.1f);
  const std::vector<uint8_t> saved = f.p.Save();
  std::vector<uint8_t> buf(saved.size(), 0xAB);
  size_t size = 0;
  EXPECT_EQ(maniGraphInstance_Save(f.p.i, buf.data(), saved.size() - 1, &size), mani_errorCapacity);
  EXPECT_EQ(size, saved.size());
  for (uint8_t c : buf) ASSERT_EQ(c, 0xAB);
}

// "every node's weight in [0, 1], playhead finite within its clip's duration
// and flags known" (the instance unchanged), and another state version.
TEST(GraphKindsState, RestoreNodeRecordsCheckedAtTheirOffsets) {
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.1f);
  const std::vector<uint8_t> saved = f.p.Save();
  const size_t params = maniGraph_GetParameterCount(&f.p.g);
  const uint32_t nodes = maniGraph_GetNodeCount(&f.p.g);
  auto expectRefused = [&](size_t at, uint32_t word) {
    std::vector<uint8_t> bad = saved;
    memcpy(bad.data() + at, &word, 4);
    maniFileResult r = maniGraphInstance_Restore(f.p.i, bad.data(), bad.size());
    EXPECT_EQ(r.result, mani_errorFormat) << at;
    EXPECT_EQ(r.offset, at);
    EXPECT_EQ(f.p.Save(), saved);
  };
  for (uint32_t n = 0; n < nodes; ++n) {
    const size_t rec = 32 + 16 * params + 16 * n;
    float big = 1.5f, neg = -0.25f, nan = NAN;
    uint32_t w;
    memcpy(&w, &big, 4);
    expectRefused(rec, w);
    memcpy(&w, &neg, 4);
    expectRefused(rec, w);
    memcpy(&w, &nan, 4);
    expectRefused(rec, w);
    expectRefused(rec + 8, 4u);  // an unknown flag
    if (maniGraph_GetNodeKind(&f.p.g, n) == maniGraphNodeClip) {
      for (float past : {1000.0f, -0.5f, NAN, INFINITY}) {
        memcpy(&w, &past, 4);
        expectRefused(rec + 4, w);
      }
    }
  }
  std::vector<uint8_t> bad = saved;
  const uint32_t v = MANI_GRAPH_STATE_VERSION + 1;
  memcpy(bad.data() + 8, &v, 4);
  maniFileResult r = maniGraphInstance_Restore(f.p.i, bad.data(), bad.size());
  EXPECT_EQ(r.result, mani_errorVersion);
  EXPECT_EQ(r.offset, 8u);
  EXPECT_EQ(f.p.Save(), saved);
}

// InspectNode: "a clip node's playhead in seconds (0 for other kinds)",
// state and transition MANI_GRAPH_NONE for other kinds.
TEST(GraphKindsInspect, OtherKindsViewZeroPlayheadAndNoState) {
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.3f);
  for (uint32_t n = 0; n < maniGraph_GetNodeCount(&f.p.g); ++n) {
    maniGraphNodeView v;
    ASSERT_EQ(maniGraphInstance_InspectNode(f.p.i, n, &v), mani_success);
    EXPECT_EQ(v.kind, maniGraph_GetNodeKind(&f.p.g, n));
    EXPECT_GE(v.weight, 0.0f);
    EXPECT_LE(v.weight, 1.0f);
    if (v.kind != maniGraphNodeClip) {
      EXPECT_EQ(v.playhead, 0.0f) << n;
    }
    EXPECT_EQ(v.state, MANI_GRAPH_NONE);
    EXPECT_EQ(v.transition, MANI_GRAPH_NONE);
    EXPECT_EQ(v.failed, 0u);
  }
}

// "Members a kind does not read are ignored": garbage in every member a
// kind does not read builds the same file as zeros there.
TEST(GraphKindsBuild, MembersAKindDoesNotReadAreIgnored) {
  struct Case {
    maniGraphNodeKind kind;
    uint32_t inputs;
  } cases[] = {{maniGraphNodeMirror, 1},   {maniGraphNodeTimeScale, 1},      {maniGraphNodeSeek, 1},
               {maniGraphNodeAdditive, 2}, {maniGraphNodeSelect, 2},         {maniGraphNodeMask, 2},
               {maniGraphNodePose, 0},     {maniGraphNodeSpace1D, 2},        {maniGraphNodeSpaceBanded, 2},
               {maniGraphNodeSpaceTriangulated, 3}};
  MirrorRig m;
  ClipFile c(0xC3, &m.s), d(0xC4, &m.s, maniLoopRepeat, maniAdditiveRest);
  static const maniGraphSpacePoint kPts[3] = {{0, 0}, {1, 0}, {0, 1}};
  static const uint32_t kBadList[3] = {77, 88, 99};
  static const maniGraphMaskChain kBadChains[1] = {{9999, 7.0f, true}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.kind);
    File files[2];
    for (int garbage = 0; garbage < 2; ++garbage) {
      Net net;
      net.s = &m.s;
      net.mirror = &m.m;
      net.Slot("c", &c.c);
      net.Slot("d", &d.c);
      net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat),
                    P("go", maniGraphParameterTrigger), P("pp", maniGraphParameterPose)};
      std::vector<uint32_t> in;
      for (uint32_t i = 0; i < k.inputs; ++i)
        in.push_back(net.Clip(k.kind == maniGraphNodeAdditive && i == 1 ? 1 : 0));
      maniGraphNodeSource n = N(k.kind);
      // What the kind reads.
      if (k.kind == maniGraphNodeTimeScale) n.factor = 1.5f;
      if (k.kind == maniGraphNodeSeek) n.parameter = 2, n.time = 0.5f;
      if (k.kind == maniGraphNodeAdditive) n.weight = 0.5f;
      if (k.kind == maniGraphNodeSelect) n.parameter = 0;
      if (k.kind == maniGraphNodeMask) n.defaultWeight = 0.5f;
      if (k.kind == maniGraphNodePose) n.parameter = 3;
      const bool space = k.kind == maniGraphNodeSpace1D || k.kind == maniGraphNodeSpaceBanded ||
                         k.kind == maniGraphNodeSpaceTriangulated;
      if (space) n.points = kPts, n.parameter = 0, n.parameterY = 1;
      if (garbage) {
        if (k.kind != maniGraphNodeClip) n.clip = 12345, n.speed = NAN;
        n.parameters = kBadList;  // a blend's only
        n.direct = true;
        if (k.kind != maniGraphNodeTimeScale) n.factor = -1e30f;
        if (k.kind != maniGraphNodeSeek) n.time = -5.0f;
        if (k.kind != maniGraphNodeAdditive) n.weight = 9.0f;
        if (k.kind != maniGraphNodeMask) n.chains = kBadChains, n.chainCount = 1, n.defaultWeight = -3.0f;
        n.entry = 999;
        n.chainLimit = 999;
        n.transitions = nullptr;
        n.transitionCount = 5;
        n.finals = nullptr;
        n.finalCount = 3;
        if (!space) n.points = nullptr;
        if (k.kind == maniGraphNodeSpace1D || !space) n.parameterY = 4242;
        if (k.kind != maniGraphNodeSpace1D) n.period = -7.0f;
        if (k.kind != maniGraphNodeSpaceBanded) n.polar = true;
        if (k.kind != maniGraphNodeSpaceTriangulated) n.triangles = nullptr, n.triangleCount = 3;
        if (k.kind == maniGraphNodeMirror || k.kind == maniGraphNodeMask)
          n.parameter = 4242;
      }
      uint32_t node = net.Add(n, in);
      net.output = node;
      Builder b;
      maniGraphSource src = net.Src();
      maniBuildResult r = maniBuildGraph(b.b, &src);
      ASSERT_EQ(r.result, mani_success) << "garbage " << garbage << " reason " << r.reason << " item " << r.item
                                        << " other " << r.other;
      files[garbage] = b.Built();
    }
    ASSERT_EQ(files[0].size, files[1].size);
    EXPECT_EQ(memcmp(files[0].data(), files[1].data(), files[0].size), 0);
  }
}

// The writer: a 1D space's positions without y, "period" (1D), "polar"
// (banded), "triangles" (the given ones, empty for Delaunay), and the text
// reads back to the same file.
TEST(GraphKindsJson, SpacesWriteTheirMembersAndReadBack) {
  JsonFix f;
  Net& net = f.r.net;
  net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
  uint32_t a = net.Clip(0), b = net.Clip(1), c = net.Clip(0, 0.1f), e = net.Clip(1, 0.3f);
  maniGraphNodeSource one = Space(maniGraphNodeSpace1D, net.Pts({{0.25f, 9.0f}, {1.5f, -3.0f}}), 0, 0);
  one.period = 2.0f;
  uint32_t s1 = net.Add(one, {a, b});
  maniGraphNodeSource band = Space(maniGraphNodeSpaceBanded, net.Pts({{0, 0}, {1, 0.1f}}), 0, 1);
  band.polar = true;
  uint32_t s2 = net.Add(band, {s1, c});
  maniGraphNodeSource given = Space(maniGraphNodeSpaceTriangulated, net.Pts({{0, 0}, {1, 0}, {0, 1}}), 0, 1);
  given.triangles = net.L({0, 2, 1});
  given.triangleCount = 1;
  uint32_t s3 = net.Add(given, {s2, e, a});
  uint32_t s4 = net.Add(Space(maniGraphNodeSpaceTriangulated, net.Pts({{0, 0}, {1, 0}, {0, 1}, {1, 1}}), 0, 1),
                        {s3, b, c, e});
  net.output = s4;
  maniGraphSource src = net.Src();
  Builder w;
  maniBuildResult r = maniWriteGraphJson(w.b, &src);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  File t = w.Built();
  const std::string text(reinterpret_cast<const char*>(t.data()), t.size);
  const size_t k1 = text.find("\"space1D\""), k2 = text.find("\"spaceBanded\""),
               k3 = text.find("\"spaceTriangulated\""), k4 = text.find("\"spaceTriangulated\"", k3 + 1);
  ASSERT_NE(k1, std::string::npos);
  ASSERT_NE(k4, std::string::npos);
  const std::string one1 = text.substr(k1, k2 - k1), band2 = text.substr(k2, k3 - k2), g3 = text.substr(k3, k4 - k3),
                    d4 = text.substr(k4);
  EXPECT_EQ(one1.find("\"y\""), std::string::npos) << one1;
  EXPECT_NE(one1.find("\"period\": 2"), std::string::npos) << one1;
  EXPECT_NE(one1.find("0.25"), std::string::npos) << one1;
  EXPECT_NE(band2.find("\"polar\": true"), std::string::npos) << band2;
  EXPECT_NE(band2.find("0.1"), std::string::npos) << band2;
  EXPECT_EQ(band2.find("0.100000"), std::string::npos) << band2;  // shortest text
  EXPECT_EQ(band2.find("\"period\""), std::string::npos) << band2;
  EXPECT_NE(g3.find("\"triangles\""), std::string::npos) << g3;
  EXPECT_EQ(g3.find("\"polar\""), std::string::npos) << g3;
  std::string compact;
  for (char ch : d4)
    if (ch != ' ' && ch != '\n') compact += ch;
  EXPECT_NE(compact.find("\"triangles\":[]"), std::string::npos) << d4;
  File fromJson;
  ASSERT_EQ(f.Read(text, &fromJson).result, mani_success);
  Builder bb;
  ASSERT_EQ(maniBuildGraph(bb.b, &src).result, mani_success);
  File direct = bb.Built();
  ASSERT_EQ(direct.size, fromJson.size);
  EXPECT_EQ(memcmp(direct.data(), fromJson.data(), direct.size), 0);
}

// The polar banded formula, computed here in binary64 (near, not bits: the
// header's operation order is the code's).
TEST(GraphKindsSpaceBanded, PolarWeightsByTheFormula) {
  std::vector<maniGraphSpacePoint> pts = {{0, 0}, {2, 0}, {0, 1.5f}, {-1, -1}};
  SpaceGraph f(maniGraphNodeSpaceBanded, pts, 0.0f, true);
  ASSERT_TRUE(f.p.ok);
  const double alpha = MANI_GRAPH_SPACE_POLAR_ALPHA;
  auto len = [](double x, double y) { return std::sqrt(x * x + y * y); };
  auto angle = [](double ux, double uy, double vx, double vy) {
    return std::atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  };
  for (maniGraphSpacePoint q : {maniGraphSpacePoint{1.0f, 0.5f}, {-0.5f, 1.0f}, {0.3f, -0.9f}}) {
    f.At(q.x, q.y);
    std::vector<double> raw(pts.size());
    double sum = 0;
    for (size_t i = 0; i < pts.size(); ++i) {
      double mn = 1;
      for (size_t j = 0; j < pts.size(); ++j) {
        if (j == i) continue;
        const double li = len(pts[i].x, pts[i].y), lj = len(pts[j].x, pts[j].y), lp = len(q.x, q.y);
        const double m = (li + lj) / 2;
        const bool origin = li == 0 || lj == 0;
        const double a0 = (lp - li) / m, a1 = origin ? 0 : alpha * angle(pts[i].x, pts[i].y, q.x, q.y);
        const double b0 = (lj - li) / m, b1 = origin ? 0 : alpha * angle(pts[i].x, pts[i].y, pts[j].x, pts[j].y);
        double v = 1 - (a0 * b0 + a1 * b1) / (b0 * b0 + b1 * b1);
        v = std::fmin(std::fmax(v, 0.0), 1.0);
        mn = std::fmin(mn, v);
      }
      raw[i] = mn;
      sum += mn;
    }
    const std::vector<float> w = f.Weights();
    for (size_t i = 0; i < pts.size(); ++i) EXPECT_NEAR(w[i], raw[i] / sum, 2e-6) << q.x << "," << q.y << " " << i;
  }
}

// "cocircular points keep the first triangulation found": a square's points
// sorted (0,0), (0,2), (2,0), (2,2) give the first triangle 0, 2, 1 and the
// diagonal 1-2, never flipped.
TEST(GraphKindsSpaceTriangulated, DelaunaySquareKeepsTheFirstDiagonal) {
  SpaceGraph f(maniGraphNodeSpaceTriangulated, {{0, 0}, {2, 0}, {0, 2}, {2, 2}});
  ASSERT_TRUE(f.p.ok);
  f.At(0.5f, 0.5f);
  std::vector<float> w = f.Weights();
  EXPECT_EQ(w[0], 0.5f);
  EXPECT_EQ(w[1], 0.25f);
  EXPECT_EQ(w[2], 0.25f);
  EXPECT_EQ(w[3], 0.0f);
  f.At(1.5f, 1.5f);
  w = f.Weights();
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_EQ(w[3], 0.5f);
  EXPECT_EQ(w[1], 0.25f);
  EXPECT_EQ(w[2], 0.25f);
}

// Lawson flips: (0,0), (1,3), (1,-3), (2,0) fan to the diagonal x = 1, whose
// opposite point (2,0) lies inside the circumcircle of (0,0), (1,-3), (1,3)
// (centre (5,0), radius 5): flipped to the diagonal y = 0.
TEST(GraphKindsSpaceTriangulated, DelaunayFlipsANonDelaunayEdge) {
  SpaceGraph f(maniGraphNodeSpaceTriangulated, {{0, 0}, {1, 3}, {1, -3}, {2, 0}});
  ASSERT_TRUE(f.p.ok);
  f.At(1.0f, 0.5f);
  const std::vector<float> w = f.Weights();
  EXPECT_EQ(w[2], 0.0f);
  EXPECT_NEAR(w[0], 5.0 / 12, 1e-6);
  EXPECT_NEAR(w[3], 5.0 / 12, 1e-6);
  EXPECT_NEAR(w[1], 1.0 / 6, 1e-6);
  EXPECT_EQ(f.p.Eval(), f.Expected(w));
}

TEST(GraphKindsBuild, ClipSpeedPastTheBoundIsLimitScalar) {
  Rig r;
  r.net.output = r.net.Clip(0, 64.5f);
  ExpectRefused(r.net, mani_errorLimit, maniBuildReasonScalar, 0, 0);
  r.net.nodes[0].speed = -64.0f;
  EXPECT_EQ(r.net.Build().result, mani_success);
  r.net.nodes[0].speed = NAN;
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonScalar, 0, 0);
}

// "mani_errorFormat when a node's data failed (a step delta * speed ...
// past the float range): the update completed for every other node, the
// failing nodes gave no root motion or events, maniGraphInstance_InspectNode
// names them, and the outputs are valid and finite."
TEST(GraphKindsTimeScale, StepPastFloatRangeFailsThatNodeAlone) {
  Rig r;
  r.net.params = {P("w0", maniGraphParameterFloat, 0.5f), P("w1", maniGraphParameterFloat, 0.5f)};
  uint32_t a = r.net.Clip(0, 64.0f), b = r.net.Clip(1, 1.0f);
  maniGraphNodeSource ts = N(maniGraphNodeTimeScale);
  ts.factor = 64.0f;
  uint32_t t = r.net.Add(ts, {a});
  maniGraphNodeSource blend = N(maniGraphNodeBlend);
  blend.parameters = r.net.L({0, 1});
  r.net.output = r.net.Add(blend, {t, b});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  const float dt = 3e36f;  // dt * 64 finite, * 64 again past the range
  ASSERT_TRUE(std::isfinite(dt * 64.0f));
  ASSERT_FALSE(std::isfinite((dt * 64.0f) * 64.0f));
  std::vector<maniGraphEvent> ev(64);
  uint32_t count = 0;
  maniRootMove move;
  EXPECT_EQ(maniGraphInstance_Update(p.i, dt, ev.data(), 64, &count, &move), mani_errorFormat);
  EXPECT_EQ(p.View(a).failed, 1u);
  EXPECT_EQ(p.View(b).failed, 0u);
  EXPECT_TRUE(std::isfinite(p.View(a).playhead));
  EXPECT_EQ(p.View(b).playhead, Advance(&r.b.c, 0.0f, dt));
  for (uint32_t k = 0; k < std::min<uint32_t>(count, 64); ++k) EXPECT_NE(ev[k].node, p.NodeOf(a));
  EXPECT_TRUE(std::isfinite(move.translation.x) && std::isfinite(move.translation.y) &&
              std::isfinite(move.translation.z));
  const std::vector<uint8_t> pose = p.Eval();
  const maniTransform* tr = reinterpret_cast<const maniTransform*>(pose.data());
  for (size_t k = 0; k < pose.size() / sizeof(maniTransform); ++k) {
    EXPECT_TRUE(std::isfinite(tr[k].translation.x));
    EXPECT_TRUE(std::isfinite(tr[k].rotation.w));
  }
}

maniRootMove Blended(std::vector<maniRootMove> moves, std::vector<float> weights) {
  maniRootMove out;
  memset(&out, 0, sizeof out);
  EXPECT_EQ(maniBlendRootMotion(moves.data(), weights.data(), (uint32_t)moves.size(), &out), mani_success);
  return out;
}

maniRootMove ClipMove(const maniClip* c, float time, float step) {
  maniRootMove m;
  memset(&m, 0, sizeof m);
  EXPECT_EQ(maniClip_GetRootMotion(c, time, step, &m), mani_success);
  return m;
}

std::vector<uint8_t> MoveBits(const maniRootMove& m) {
  std::vector<uint8_t> b(sizeof m);
  memcpy(b.data(), &m, sizeof m);
  return b;
}

// "Root motion weights are shared the same way but for masks (the base its
// own times 1 - w, the second input its own times w, w the mask's bone weight
// at the root motion bone) and additive differences (none)."
TEST(GraphKindsMask, RootMotionByTheRootBonesWeight) {
  Rig r;
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1, 0.5f);
  maniGraphMaskChain chains[1] = {{0, 0.3f, false}};
  maniGraphNodeSource n = N(maniGraphNodeMask);
  n.chains = chains;
  n.chainCount = 1;
  n.defaultWeight = 0.8f;
  r.net.output = r.net.Add(n, {a, b});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  maniRootMove move;
  ASSERT_EQ(maniGraphInstance_Update(p.i, 0.2f, nullptr, 0, nullptr, &move), mani_success);
  // The over input's share of the output is the largest bone weight (0.8),
  // its root motion weight the root bone's (0.3).
  EXPECT_EQ(p.View(b).weight, 0.8f);
  const maniRootMove expect =
      Blended({ClipMove(&r.a.c, 0.0f, 0.2f), ClipMove(&r.b.c, 0.0f, 0.2f * 0.5f)}, {1.0f - 0.3f, 0.3f});
  EXPECT_EQ(MoveBits(move), MoveBits(expect));
}

TEST(GraphKindsAdditive, DifferenceGivesNoRootMotion) {
  Rig r;
  uint32_t a = r.net.Clip(0), d = r.net.Clip(2);
  maniGraphNodeSource n = N(maniGraphNodeAdditive);
  n.weight = 1.0f;
  r.net.output = r.net.Add(n, {a, d});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  maniRootMove move;
  ASSERT_EQ(maniGraphInstance_Update(p.i, 0.3f, nullptr, 0, nullptr, &move), mani_success);
  EXPECT_EQ(MoveBits(move), MoveBits(Blended({ClipMove(&r.a.c, 0.0f, 0.3f)}, {1.0f})));
}

// "a clip under an odd count of mirror nodes its move mirrored by
// maniMirrorMap_MirrorRootMotion"; an even count not.
TEST(GraphKindsMirror, RootMotionMirroredUnderAnOddCount) {
  MirrorRig m;
  ClipFile c(0xC7, &m.s);
  for (int count = 1; count <= 2; ++count) {
    Net net;
    net.s = &m.s;
    net.mirror = &m.m;
    net.Slot("c", &c.c);
    uint32_t node = net.Clip(0, 1.0f);
    for (int k = 0; k < count; ++k) node = net.Add(N(maniGraphNodeMirror), {node});
    net.output = node;
    Play p;
    p.Init(net);
    ASSERT_TRUE(p.ok);
    maniRootMove move;
    ASSERT_EQ(maniGraphInstance_Update(p.i, 0.35f, nullptr, 0, nullptr, &move), mani_success);
    maniRootMove own = ClipMove(&c.c, 0.0f, 0.35f);
    if (count == 1) own = maniMirrorMap_MirrorRootMotion(&m.m, own);
    EXPECT_EQ(MoveBits(move), MoveBits(Blended({own}, {1.0f}))) << count;
    if (count == 2) {
      PoseBuf s(&m.s);
      EXPECT_EQ(p.Eval(), SampleAt(&c.c, &m.s, p.View(0).playhead, s));
    }
  }
}

// The saved state's blocks: "in node order each blend's and blend space's
// block (f32 per input: the weights its last update read or made ...),
// each additive's (f32 the weight) and select's (u32 the input chosen)
// ..., then a u32 1 once updated and 0."
TEST(GraphKindsState, SavedBlocksHoldTheUpdatesWeightsAndChoice) {
  Rig r;
  r.net.params = {P("aw", maniGraphParameterFloat, 0.5f), P("s", maniGraphParameterFloat, 1.0f),
                  P("x", maniGraphParameterFloat, 0.25f), P("bw", maniGraphParameterFloat, 0.5f)};
  uint32_t a = r.net.Clip(0), b = r.net.Clip(1), d = r.net.Clip(2);
  maniGraphNodeSource ad = N(maniGraphNodeAdditive);
  ad.parameter = 0;
  uint32_t add = r.net.Add(ad, {a, d});
  uint32_t sp = r.net.Add(Space(maniGraphNodeSpace1D, r.net.Pts({{0, 0}, {1, 0}}), 2, 0), {add, b});
  maniGraphNodeSource bl = N(maniGraphNodeBlend);
  bl.direct = true;
  bl.parameters = r.net.L({3});
  uint32_t blend = r.net.Add(bl, {sp});
  maniGraphNodeSource se = N(maniGraphNodeSelect);
  se.parameter = 1;
  r.net.output = r.net.Add(se, {b, blend});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.SetF(0, 7.0f);  // held to 1
  p.Update(0.1f);
  const std::vector<uint8_t> saved = p.Save();
  const uint32_t nodes = maniGraph_GetNodeCount(&p.g);
  size_t at = 32 + 16 * 4 + 16 * nodes;
  std::vector<uint8_t> expect(saved.begin(), saved.begin() + at);
  auto putF = [&](float v) {
    uint8_t w[4];
    memcpy(w, &v, 4);
    expect.insert(expect.end(), w, w + 4);
  };
  auto putU = [&](uint32_t v) {
    uint8_t w[4];
    memcpy(w, &v, 4);
    expect.insert(expect.end(), w, w + 4);
  };
  for (uint32_t n = 0; n < nodes; ++n) {
    const uint32_t place = maniGraph_GetNodeSourcePlace(&p.g, n);
    if (place == add) putF(1.0f);
    if (place == sp) putF(0.75f), putF(0.25f);
    if (place == blend) putF(0.5f);
    if (place == r.net.output) putU(1);
  }
  putU(1);
  putU(0);
  EXPECT_EQ(saved, expect);
  EXPECT_EQ(p.View(add).weight, 0.5f * 0.75f);
  EXPECT_EQ(p.View(d).weight, 0.5f * 0.75f * 1.0f);
}

// "wrapped into [0, duration) for a repeating clip"
TEST(GraphKindsSeek, TimeOfAWholeDurationWrapsToZero) {
  Rig r;
  r.net.params = {P("go", maniGraphParameterTrigger)};
  uint32_t a = r.net.Clip(0);
  maniGraphNodeSource sk = N(maniGraphNodeSeek);
  sk.parameter = 0;
  sk.time = maniClip_GetDuration(&r.a.c);
  r.net.output = r.net.Add(sk, {a});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Update(0.1f);
  EXPECT_EQ(p.View(a).playhead, 0.0f);
}

TEST(GraphKindsBuild, OutputGivingADifferenceRefused) {
  Rig r;
  uint32_t d = r.net.Clip(2);
  maniGraphNodeSource ts = N(maniGraphNodeTimeScale);
  ts.factor = 1.0f;
  r.net.output = r.net.Add(ts, {d});
  ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonDifference, r.net.output, 0);
  Rig q;
  q.net.params = {P("x", maniGraphParameterFloat)};
  uint32_t d1 = q.net.Clip(2), d2 = q.net.Clip(2, 0.5f);
  q.net.output = q.net.Add(Space(maniGraphNodeSpace1D, q.net.Pts({{0, 0}, {1, 0}}), 0, 0), {d1, d2});
  ExpectRefused(q.net, mani_errorInvalid, maniBuildReasonDifference, q.net.output, 0);
}

TEST(GraphKindsJson, NumbersAndPlacesOutOfRangeAreValue) {
  JsonFix f;
  const std::string p = "{\"name\": \"go\", \"type\": \"trigger\"}";
  {
    const std::string text = Graph(p, "{\"kind\": \"additive\", \"inputs\": [0, 1], \"weight\": 1e39}", 2);
    ExpectForm(f.Read(text), maniGraphFormValue, text.find("1e39"));
  }
  {
    const std::string text = Graph(p, "{\"kind\": \"mirror\", \"inputs\": [0.5]}", 2);
    ExpectForm(f.Read(text), maniGraphFormValue, text.find("0.5]"));
  }
  {
    const std::string text = Graph(p, "{\"kind\": \"timeScale\", \"inputs\": [4294967296]}", 2);
    ExpectForm(f.Read(text), maniGraphFormValue, text.find("4294967296"));
  }
  {
    const std::string text = Graph(p, "{\"kind\": \"mirror\", \"inputs\": [0]}", 2);
    std::string t2 = text;
    const size_t at = t2.rfind("2}");
    t2.replace(at, 1, "-1");
    ExpectForm(f.Read(t2), maniGraphFormValue, at);
  }
  {
    const std::string text = Graph(p, "{\"kind\": \"learned\", \"inputs\": [0, 0]}", 2);
    ExpectForm(f.Read(text), maniGraphFormValue, text.find("\"learned\""));
  }
}

TEST(GraphKindsState, UpdateWithNonFiniteDeltaChangesNothing) {
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.1f);
  const std::vector<uint8_t> saved = f.p.Save();
  for (float dt : {NAN, INFINITY, -INFINITY}) {
    EXPECT_EQ(maniGraphInstance_Update(f.p.i, dt, nullptr, 0, nullptr, nullptr), mani_errorInvalid);
    EXPECT_EQ(f.p.Save(), saved);
  }
}

// A pose parameter's saved block: "u32 set, 0 and 40 bytes a bone (its
// locals)"; Restore takes rotations "of length 1 within a thousandth".
TEST(GraphKindsState, PoseParameterBlockAndRotationLengths) {
  Rig r;
  r.net.params = {P("pp", maniGraphParameterPose)};
  maniGraphNodeSource n = N(maniGraphNodePose);
  n.parameter = 0;
  r.net.output = r.net.Add(n, {});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  PoseBuf given(&r.skel.s);
  SampleAt(&r.a.c, &r.skel.s, 0.4f, given);
  ASSERT_EQ(maniGraphInstance_SetPose(p.i, 0, given.p), mani_success);
  p.Update(0.1f);
  const std::vector<uint8_t> saved = p.Save();
  const uint32_t bones = maniSkeleton_GetBoneCount(&r.skel.s);
  const size_t block = 32 + 16 * 1 + 16 * maniGraph_GetNodeCount(&p.g);
  ASSERT_GE(saved.size(), block + 8 + 40 * bones + 8);
  uint32_t set, zero;
  memcpy(&set, saved.data() + block, 4);
  memcpy(&zero, saved.data() + block + 4, 4);
  EXPECT_EQ(set, 1u);
  EXPECT_EQ(zero, 0u);
  const std::vector<uint8_t> locals = Locals(given.p);
  ASSERT_EQ(locals.size(), 40u * bones);
  EXPECT_EQ(memcmp(saved.data() + block + 8, locals.data(), locals.size()), 0);
  // Bone 0's rotation (after its translation) scaled: within a thousandth
  // restores, past it is refused at the rotation.
  for (double k : {1.0004, 1.003, 0.996}) {
    std::vector<uint8_t> bad = saved;
    float q[4];
    memcpy(q, bad.data() + block + 8 + 12, 16);
    for (float& c : q) c = (float)(c * k);
    memcpy(bad.data() + block + 8 + 12, q, 16);
    maniFileResult res = maniGraphInstance_Restore(p.i, bad.data(), bad.size());
    if (k < 1.001 && k > 0.999) {
      EXPECT_EQ(res.result, mani_success) << k;
      ASSERT_EQ(maniGraphInstance_Restore(p.i, saved.data(), saved.size()).result, mani_success);
    } else {
      EXPECT_EQ(res.result, mani_errorFormat) << k;
      EXPECT_GE(res.offset, block + 8 + 12) << k;
      EXPECT_LT(res.offset, block + 8 + 28) << k;
      EXPECT_EQ(p.Save(), saved);
    }
  }
}

// Delaunay on a 16 x 16 grid (cocircular everywhere) and on seeded points,
// MANI_MAX_GRAPH_INPUTS inputs: each point weighs its input 1, and points
// inside the hull weigh inputs >= 0 summing to 1.
TEST(GraphKindsSpaceTriangulated, DelaunayOfGridAndSeededPointsAtTheLimit) {
  for (int seeded = 0; seeded < 2; ++seeded) {
    SCOPED_TRACE(seeded);
    std::vector<maniGraphSpacePoint> pts;
    uint64_t st = 0x9E3779B97F4A7C15ull;
    auto next = [&]() {
      st ^= st << 13;
      st ^= st >> 7;
      st ^= st << 17;
      return (float)((st >> 40) % 10000) / 100.0f;
    };
    for (uint32_t k = 0; k < MANI_MAX_GRAPH_INPUTS; ++k) {
      if (seeded) {
        maniGraphSpacePoint q = {next(), next()};
        bool dup = false;
        for (auto& o : pts) dup = dup || (o.x == q.x && o.y == q.y);
        if (dup) {
          --k;
          continue;
        }
        pts.push_back(q);
      } else {
        pts.push_back({(float)(k % 16), (float)(k / 16)});
      }
    }
    SpaceGraph f(maniGraphNodeSpaceTriangulated, pts);
    ASSERT_TRUE(f.p.ok);
    for (uint32_t k = 0; k < pts.size(); k += 7) {
      f.At(pts[k].x, pts[k].y);
      ExpectOneHot(f.Weights(), k);
      if (HasFailure()) return;
    }
    for (int t = 0; t < 40; ++t) {
      const float x = seeded ? next() : next() * 0.15f, y = seeded ? next() : next() * 0.15f;
      f.At(x, y);
      const std::vector<float> w = f.Weights();
      for (float v : w) EXPECT_GE(v, 0.0f);
      EXPECT_NEAR(Sum(w), 1.0f, 1e-5f) << x << "," << y;
      uint32_t nonzero = 0;
      for (float v : w) nonzero += v > 0.0f;
      EXPECT_LE(nonzero, 3u);
    }
    EXPECT_EQ(f.p.Eval(), f.Expected(f.Weights()));
  }
}

TEST(GraphKindsSpace1D, LimitInputsEachPointOneHot) {
  std::vector<maniGraphSpacePoint> pts;
  for (uint32_t k = 0; k < MANI_MAX_GRAPH_INPUTS; ++k) pts.push_back({(float)k * 0.5f - 10.0f, 0});
  SpaceGraph f(maniGraphNodeSpace1D, pts, 0.0f);
  ASSERT_TRUE(f.p.ok);
  for (uint32_t k = 0; k < pts.size(); k += 5) {
    f.At(pts[k].x, 0);
    ExpectOneHot(f.Weights(), k);
  }
}

TEST(GraphKindsSpaceBanded, LimitInputsEachPointOneHot) {
  std::vector<maniGraphSpacePoint> pts;
  for (uint32_t k = 0; k < MANI_MAX_GRAPH_INPUTS; ++k) pts.push_back({(float)(k % 16) - 7.5f, (float)(k / 16) - 7.0f});
  for (bool polar : {false, true}) {
    SpaceGraph f(maniGraphNodeSpaceBanded, pts, 0.0f, polar);
    ASSERT_TRUE(f.p.ok);
    for (uint32_t k = 0; k < pts.size(); k += 9) {
      f.At(pts[k].x, pts[k].y);
      ExpectOneHot(f.Weights(), k);
    }
  }
}

// "Outside every triangle: the nearest point of the triangles' edges ...
// the first strictly nearest in triangle then edge order": (3, 0) lies 1
// from B = (2, 0) of the first triangle and 1 from D = (4, 0) of the second.
TEST(GraphKindsSpaceTriangulated, OutsideTiesGoToTheFirstTriangle) {
  Rig r;
  r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
  std::vector<uint32_t> in;
  for (int c = 0; c < 6; ++c) in.push_back(r.net.Clip(c & 1));
  maniGraphNodeSource n =
      Space(maniGraphNodeSpaceTriangulated, r.net.Pts({{0, 0}, {2, 0}, {0, 2}, {4, 0}, {6, 0}, {4, 2}}), 0, 1);
  n.triangles = r.net.L({0, 1, 2, 3, 4, 5});
  n.triangleCount = 2;
  r.net.output = r.net.Add(n, in);
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.SetF(0, 3.0f);
  p.SetF(1, 0.0f);
  p.Update(0.01f);
  EXPECT_EQ(p.View(in[1]).weight, 1.0f);
  EXPECT_EQ(p.View(in[3]).weight, 0.0f);
  // (3.5, 0) is nearer D: the second triangle's.
  p.SetF(0, 3.5f);
  p.Update(0.01f);
  EXPECT_EQ(p.View(in[3]).weight, 1.0f);
  EXPECT_EQ(p.View(in[1]).weight, 0.0f);
}

// "an odd count of mirror nodes": a node under mirror(mirror(...)) and
// read plainly too is of even parity both ways and builds.
TEST(GraphKindsBuild, EvenMirrorCountsShareANode) {
  MirrorRig m;
  ClipFile c(0xC1, &m.s);
  Net net;
  net.s = &m.s;
  net.mirror = &m.m;
  net.Slot("c", &c.c);
  net.params = {P("w0", maniGraphParameterFloat, 1), P("w1", maniGraphParameterFloat, 1)};
  uint32_t clip = net.Clip(0);
  uint32_t m1 = net.Add(N(maniGraphNodeMirror), {clip});
  uint32_t m2 = net.Add(N(maniGraphNodeMirror), {m1});
  maniGraphNodeSource blend = N(maniGraphNodeBlend);
  blend.parameters = net.L({0, 1});
  net.output = net.Add(blend, {clip, m2});
  maniBuildResult r = net.Build();
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
}

// Every kind through the writer and back: the same file.
TEST(GraphKindsJson, EveryKindWritesAndReadsBack) {
  MirrorRig m;
  ClipFile c(0xC1, &m.s), d(0xC2, &m.s, maniLoopRepeat, maniAdditiveRest);
  Net net;
  net.s = &m.s;
  net.mirror = &m.m;
  net.Slot("c", &c.c);
  net.Slot("d", &d.c);
  net.params = {P("aw", maniGraphParameterFloat, 0.75f), P("go", maniGraphParameterTrigger),
                P("sel", maniGraphParameterBool), P("k", maniGraphParameterFloat, 0.5f),
                P("pp", maniGraphParameterPose)};
  uint32_t a = net.Clip(0, 1.25f), df = net.Clip(1, 0.5f);
  maniGraphNodeSource ad = N(maniGraphNodeAdditive);
  ad.weight = 0.3f;
  uint32_t add = net.Add(ad, {a, df});
  maniGraphNodeSource ts = N(maniGraphNodeTimeScale);
  ts.parameter = 3;
  uint32_t t = net.Add(ts, {add});
  maniGraphNodeSource sk = N(maniGraphNodeSeek);
  sk.parameter = 1;
  sk.time = 0.7f;
  uint32_t s = net.Add(sk, {t});
  maniGraphNodeSource pose = N(maniGraphNodePose);
  pose.parameter = 4;
  uint32_t po = net.Add(pose, {});
  uint32_t mi = net.Add(N(maniGraphNodeMirror), {po});
  static const maniGraphMaskChain chains[2] = {{1, 0.6f, true}, {4, 0.2f, false}};
  maniGraphNodeSource mk = N(maniGraphNodeMask);
  mk.chains = chains;
  mk.chainCount = 2;
  mk.defaultWeight = 0.1f;
  uint32_t mask = net.Add(mk, {s, mi});
  maniGraphNodeSource se = N(maniGraphNodeSelect);
  se.parameter = 2;
  uint32_t c2 = net.Clip(0, -0.5f);
  net.output = net.Add(se, {mask, c2});
  maniGraphSource src = net.Src();
  Builder w;
  maniBuildResult r = maniWriteGraphJson(w.b, &src);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  File text = w.Built();
  const std::string str(reinterpret_cast<const char*>(text.data()), text.size);
  ASSERT_FALSE(str.empty());
  EXPECT_EQ(str.back(), '\n');
  maniGraphNamedAssets assets;
  memset(&assets, 0, sizeof assets);
  assets.skeleton = &m.s;
  assets.clips = net.clips.data();
  assets.clipCount = (uint32_t)net.clips.size();
  assets.mirror = &m.m;
  Builder rb;
  r = maniBuildGraphJson(rb.b, str.data(), str.size(), &assets);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other << "\n" << str;
  File fromJson = rb.Built();
  Builder bb;
  ASSERT_EQ(maniBuildGraph(bb.b, &src).result, mani_success);
  File direct = bb.Built();
  ASSERT_EQ(direct.size, fromJson.size);
  EXPECT_EQ(memcmp(direct.data(), fromJson.data(), direct.size), 0);
  // A chain without its weight: Missing at the chain.
  const std::string bad = Graph("", "{\"kind\": \"mask\", \"inputs\": [0, 0], \"chains\": [{\"bone\": \"Hips\"}]}", 2);
  JsonFix f;
  f.assets.skeleton = &m.s;
  ExpectForm(f.Read(bad), maniGraphFormMissing, bad.find("{\"bone\""));
}

// "for a graph with mirror nodes, each planned bone's partner in the
// mirror map and its ancestors"
TEST(GraphKindsState, MirrorSubsetPlansPartners) {
  MirrorRig m;
  ClipFile c(0xC9, &m.s);
  Net net;
  net.s = &m.s;
  net.mirror = &m.m;
  net.Slot("c", &c.c);
  uint32_t clip = net.Clip(0);
  net.output = net.Add(N(maniGraphNodeMirror), {clip});
  Play p;
  p.Init(net);
  ASSERT_TRUE(p.ok);
  const uint32_t left = maniSkeleton_FindBone(&m.s, "Left_1_2", 8);
  const uint32_t right = maniSkeleton_FindBone(&m.s, "Right_1_2", 9);
  ASSERT_NE(left, MANI_NO_BONE);
  ASSERT_NE(right, MANI_NO_BONE);
  Mem plan(maniGraphBinding_GetSubsetSize(p.b));
  maniGraphSubset* sp = nullptr;
  ASSERT_EQ(maniPlanGraphSubset(p.b, &left, 1, plan.p, plan.size, &sp), mani_success);
  uint32_t count = 0;
  const uint32_t* planned = maniGraphSubset_GetBones(sp, &count);
  std::vector<bool> in(maniSkeleton_GetBoneCount(&m.s), false);
  for (uint32_t k = 0; k < count; ++k) in[planned[k]] = true;
  for (uint32_t b = right; b != MANI_NO_BONE && b < in.size(); b = maniSkeleton_GetParent(&m.s, b))
    EXPECT_TRUE(in[b]) << b;
  for (uint32_t b = left; b != MANI_NO_BONE && b < in.size(); b = maniSkeleton_GetParent(&m.s, b))
    EXPECT_TRUE(in[b]) << b;
  for (uint32_t k = 1; k < count; ++k) EXPECT_LT(planned[k - 1], planned[k]);
  // Without mirror nodes the partner is not planned.
  Rig r;
  r.net.output = r.net.Clip(0);
  Play q;
  q.Init(r.net);
  ASSERT_TRUE(q.ok);
  Mem plan2(maniGraphBinding_GetSubsetSize(q.b));
  const uint32_t leaf = 0;
  ASSERT_EQ(maniPlanGraphSubset(q.b, &leaf, 1, plan2.p, plan2.size, &sp), mani_success);
  maniGraphSubset_GetBones(sp, &count);
  uint32_t depth = 0;
  for (uint32_t b = 0; b != MANI_NO_BONE && b < 12; b = maniSkeleton_GetParent(&r.skel.s, b)) ++depth;
  EXPECT_EQ(count, depth);
}

// "A node read by several nodes takes the factor and seek of its last
// reader in node order": two seeks on one trigger read one clip.
TEST(GraphKindsSeek, SharedNodeTakesItsLastReadersSeek) {
  Rig r;
  r.net.params = {P("go", maniGraphParameterTrigger), P("w0", maniGraphParameterFloat, 0.5f),
                  P("w1", maniGraphParameterFloat, 0.5f)};
  uint32_t a = r.net.Clip(0);
  maniGraphNodeSource s1 = N(maniGraphNodeSeek), s2 = N(maniGraphNodeSeek);
  s1.parameter = s2.parameter = 0;
  s1.time = 0.125f;
  s2.time = 0.375f;
  uint32_t k1 = r.net.Add(s1, {a}), k2 = r.net.Add(s2, {a});
  maniGraphNodeSource blend = N(maniGraphNodeBlend);
  blend.parameters = r.net.L({1, 2});
  r.net.output = r.net.Add(blend, {k1, k2});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  const float expect = p.NodeOf(k1) > p.NodeOf(k2) ? 0.125f : 0.375f;
  p.SetFlag(0, maniGraphParameterTrigger, 1);
  p.Update(0.05f);
  EXPECT_EQ(p.View(a).playhead, expect);
}

// "Every clip node's playhead moves by delta * its time scales' factor *
// speed": an input a select does not pick moves too.
TEST(GraphKindsSelect, UnchosenClipsStillMove) {
  SelectGraph f(false, 3);
  ASSERT_TRUE(f.p.ok);
  f.p.SetF(0, 2.0f);
  f.p.Update(0.2f);
  EXPECT_EQ(f.Chosen(), 2u);
  // Inputs k: clip k & 1 at speed 1 + 0.25 k.
  EXPECT_EQ(f.p.View(f.in[0]).playhead, Advance(&f.r.a.c, 0.0f, 0.2f * 1.0f));
  EXPECT_EQ(f.p.View(f.in[1]).playhead, Advance(&f.r.b.c, 0.0f, 0.2f * 1.25f));
}

// Events only from clip nodes weighed past MANI_GRAPH_EVENT_THRESHOLD: an
// additive's difference at weight 0.0005 lists none, at 0.5 its events.
TEST(GraphKindsAdditive, DifferenceEventsByItsShare) {
  for (float weight : {0.0005f, 0.5f}) {
    Rig r;
    uint32_t a = r.net.Clip(0), d = r.net.Clip(2);
    maniGraphNodeSource n = N(maniGraphNodeAdditive);
    n.weight = weight;
    r.net.output = r.net.Add(n, {a, d});
    Play p;
    p.Init(r.net);
    ASSERT_TRUE(p.ok);
    ASSERT_GT(maniClip_GetEventCount(&r.d.c), 0u);
    const float dt = std::fmax(maniClip_GetDuration(&r.a.c), maniClip_GetDuration(&r.d.c)) * 1.01f;
    std::vector<maniGraphEvent> ev(256);
    uint32_t count = 0;
    ASSERT_EQ(maniGraphInstance_Update(p.i, dt, ev.data(), 256, &count, nullptr), mani_success);
    uint32_t fromD = 0;
    for (uint32_t k = 0; k < std::min<uint32_t>(count, 256); ++k)
      if (ev[k].node == p.NodeOf(d)) {
        ++fromD;
        EXPECT_EQ(ev[k].weight, weight);
      }
    EXPECT_EQ(fromD, weight > MANI_GRAPH_EVENT_THRESHOLD ? maniClip_GetEventCount(&r.d.c) : 0u) << weight;
  }
}

TEST(GraphKindsPose, GetParameterFlagOnceSet) {
  Rig r;
  r.net.params = {P("pp", maniGraphParameterPose)};
  maniGraphNodeSource n = N(maniGraphNodePose);
  n.parameter = 0;
  r.net.output = r.net.Add(n, {});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  maniGraphValue v;
  memset(&v, 0xFF, sizeof v);
  ASSERT_EQ(maniGraphInstance_GetParameter(p.i, 0, &v), mani_success);
  EXPECT_EQ(v.flag, 0u);
  PoseBuf given(&r.skel.s);
  SampleAt(&r.a.c, &r.skel.s, 0.2f, given);
  ASSERT_EQ(maniGraphInstance_SetPose(p.i, 0, given.p), mani_success);
  ASSERT_EQ(maniGraphInstance_GetParameter(p.i, 0, &v), mani_success);
  EXPECT_EQ(v.flag, 1u);
  PoseBuf back(&r.skel.s);
  ASSERT_EQ(maniGraphInstance_GetPose(p.i, 0, back.p), mani_success);
  EXPECT_EQ(Locals(back.p), Locals(given.p));
}

// The 1D formula's bits: f = (x - t_i) / (t_i+1 - t_i), w_i = 1 - f in
// binary32; with a period x wrapped in binary64 rounded once.
TEST(GraphKindsSpace1D, WeightsBitForBitByTheFormula) {
  const std::vector<maniGraphSpacePoint> pts = {{0.1f, 0}, {0.7f, 0}, {1.3f, 0}};
  SpaceGraph f(maniGraphNodeSpace1D, pts);
  ASSERT_TRUE(f.p.ok);
  for (float x : {0.55f, 0.1000001f, 0.69999f, 1.2999f, 0.7000001f}) {
    f.At(x, 0);
    const uint32_t i = x < pts[1].x ? 0 : 1;
    const float fr = (x - pts[i].x) / (pts[i + 1].x - pts[i].x);
    const std::vector<float> w = f.Weights();
    EXPECT_EQ(w[i], 1.0f - fr) << x;
    EXPECT_EQ(w[i + 1], fr) << x;
    EXPECT_EQ(w[2 - 2 * i], 0.0f) << x;
  }
  const float P = 1.7f;
  SpaceGraph g(maniGraphNodeSpace1D, pts, P);
  ASSERT_TRUE(g.p.ok);
  for (float x : {12345.67f, -98.76f, 1.69f, 0.05f, -0.0001f}) {
    g.At(x, 0);
    float xw = (float)((double)x - std::floor((double)x / (double)P) * (double)P);
    if (xw == P) xw = 0.0f;
    const std::vector<float> w = g.Weights();
    SCOPED_TRACE(x);
    if (xw >= pts[0].x && xw < pts[2].x) {
      const uint32_t i = xw < pts[1].x ? 0 : 1;
      const float fr = (xw - pts[i].x) / (pts[i + 1].x - pts[i].x);
      EXPECT_EQ(w[i], 1.0f - fr);
      EXPECT_EQ(w[i + 1], fr);
    } else {
      const float d = xw >= pts[2].x ? xw - pts[2].x : (xw + P) - pts[2].x;
      float fr = d / ((pts[0].x + P) - pts[2].x);
      fr = std::fmin(std::fmax(fr, 0.0f), 1.0f);
      EXPECT_EQ(w[2], 1.0f - fr);
      EXPECT_EQ(w[0], fr);
      EXPECT_EQ(w[1], 0.0f);
    }
  }
}

TEST(GraphKindsState, EvaluateScratchTooSmallLeavesThePose) {
  Layered f;
  ASSERT_TRUE(f.p.ok);
  f.p.Update(0.1f);
  PoseBuf out(&f.r.skel.s);
  const std::vector<uint8_t> before = Locals(out.p);
  EXPECT_EQ(maniGraphInstance_Evaluate(f.p.i, f.p.scratch->p, f.p.scratch->size - 1, out.p), mani_errorCapacity);
  EXPECT_EQ(Locals(out.p), before);
  EXPECT_EQ(maniGraphInstance_Evaluate(f.p.i, f.p.scratch->p + 8, f.p.scratch->size - 8, out.p), mani_errorInvalid);
  EXPECT_EQ(Locals(out.p), before);
}

TEST(GraphKindsBuild, InputsNullPastCycleUnreachableAndKinds) {
  for (maniGraphNodeKind k : {maniGraphNodeAdditive, maniGraphNodeMask, maniGraphNodeSelect, maniGraphNodeTimeScale,
                              maniGraphNodeSeek, maniGraphNodeMirror, maniGraphNodeSpace1D}) {
    Rig r;
    r.net.params = {P("go", maniGraphParameterTrigger), P("x", maniGraphParameterFloat)};
    r.net.mirror = nullptr;
    uint32_t a = r.net.Clip(0);
    (void)a;
    maniGraphNodeSource n = N(k);
    n.factor = 1.0f;
    n.weight = 1.0f;
    n.parameter = k == maniGraphNodeSeek ? 0 : (k == maniGraphNodeSelect || k == maniGraphNodeSpace1D) ? 1 : MANI_NO_PARAMETER;
    n.points = r.net.Pts({{0, 0}, {1, 0}});
    n.inputs = nullptr;
    n.inputCount = (k == maniGraphNodeAdditive || k == maniGraphNodeMask || k == maniGraphNodeSpace1D) ? 2 : 1;
    r.net.nodes.push_back(n);
    r.net.output = 1;
    maniBuildResult res = r.net.Build();
    SCOPED_TRACE(k);
    EXPECT_EQ(res.result, mani_errorInvalid);
    EXPECT_EQ(res.reason, (uint32_t)maniBuildReasonCount);
    EXPECT_EQ(res.item, 1u);
  }
  {
    Rig r;
    uint32_t a = r.net.Clip(0);
    maniGraphNodeSource n = N(maniGraphNodeAdditive);
    n.weight = 1.0f;
    r.net.output = r.net.Add(n, {a, 99});
    ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonInput, r.net.output, 1);
  }
  {
    Rig r;
    maniGraphNodeSource n = N(maniGraphNodeTimeScale);
    n.factor = 1.0f;
    r.net.output = r.net.Add(n, {0});  // itself
    maniBuildResult res = r.net.Build();
    EXPECT_EQ(res.result, mani_errorInvalid);
    EXPECT_EQ(res.reason, (uint32_t)maniBuildReasonCycle);
    EXPECT_EQ(res.item, 0u);
  }
  {
    Rig r;
    uint32_t a = r.net.Clip(0);
    maniGraphNodeSource n = N(maniGraphNodeTimeScale);
    n.factor = 1.0f;
    r.net.Add(n, {a});  // read by nothing
    maniGraphNodeSource m = N(maniGraphNodeSeek);
    r.net.params = {P("go", maniGraphParameterTrigger)};
    m.parameter = 0;
    r.net.output = r.net.Add(m, {a});
    ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonUnreachable, 1, 0);
  }
  for (uint32_t kind : {15u, 16u, 17u, 18u, 19u, 1000u}) {
    Rig r;
    uint32_t a = r.net.Clip(0);
    maniGraphNodeSource n = N((maniGraphNodeKind)kind);
    r.net.output = r.net.Add(n, {a, a});
    maniBuildResult res = r.net.Build();
    SCOPED_TRACE(kind);
    EXPECT_EQ(res.result, mani_errorInvalid);
    EXPECT_EQ(res.reason, (uint32_t)maniBuildReasonNode);
    EXPECT_EQ(res.item, r.net.output);
    EXPECT_EQ(res.other, kind);
  }
}

// "its second input its own times its largest bone weight": the largest
// of the bones' weights, not of the default when chains reach every bone.
TEST(GraphKindsMask, LargestBoneWeightIgnoresAnUnusedDefault) {
  for (float cw : {0.2f, 0.0f}) {
    Rig r;
    const maniSkeleton* s = &r.skel.s;
    uint32_t a = r.net.Clip(0), b = r.net.Clip(1);
    std::vector<maniGraphMaskChain> chains;
    for (uint32_t k = 0; k < maniSkeleton_GetBoneCount(s); ++k)
      if (maniSkeleton_GetParent(s, k) == MANI_NO_BONE) chains.push_back({k, cw, true});
    maniGraphNodeSource n = N(maniGraphNodeMask);
    static std::vector<maniGraphMaskChain> keep;
    keep = chains;
    n.chains = keep.data();
    n.chainCount = (uint32_t)keep.size();
    n.defaultWeight = 0.9f;
    r.net.output = r.net.Add(n, {a, b});
    Play p;
    p.Init(r.net);
    ASSERT_TRUE(p.ok);
    p.Update(0.2f);
    EXPECT_EQ(p.View(b).weight, cw);
    PoseBuf pa(s), pb(s), out(s);
    SampleAt(&r.a.c, s, p.View(a).playhead, pa);
    if (cw == 0.0f) {
      EXPECT_EQ(p.Eval(), Locals(pa.p));
    } else {
      SampleAt(&r.b.c, s, p.View(b).playhead, pb);
      const uint32_t bones = maniSkeleton_GetBoneCount(s);
      std::vector<float> w(bones, cw), inv(bones, 1.0f - cw);
      maniBlendLayer layers[2] = {{pa.p, 1.0f, inv.data()}, {pb.p, 1.0f, w.data()}};
      ASSERT_EQ(maniSkeleton_BlendPoses(s, layers, 2, 0.0f, out.p), mani_success);
      EXPECT_EQ(p.Eval(), Locals(out.p));
    }
  }
}

// "Each clip slot takes the assets' first clip of its name"; "A trigger or
// pose parameter takes no value".
TEST(GraphKindsJson, FirstNamedClipAndPoseParameterWithoutValue) {
  JsonFix f;
  std::vector<maniGraphClipSource> named = {{"a", 1, &f.r.b.c, nullptr}, {"a", 1, &f.r.a.c, nullptr},
                                            {"d", 1, &f.r.d.c, nullptr}};
  f.assets.clips = named.data();
  f.assets.clipCount = 3;
  // A text of one clip node (slots no node plays are not refused, nodes the
  // output never reads are).
  const std::string one = std::string(kHead) +
                          "\"clips\": [{\"name\": \"a\"}], \"nodes\": [{\"kind\": \"clip\", \"clip\": \"a\"}], "
                          "\"output\": 0}";
  File fromJson;
  ASSERT_EQ(f.Read(one, &fromJson).result, mani_success);
  Net net;
  net.s = &f.r.skel.s;
  net.Slot("a", &f.r.b.c);
  net.output = net.Clip(0);
  Builder b;
  maniGraphSource src = net.Src();
  ASSERT_EQ(maniBuildGraph(b.b, &src).result, mani_success);
  File direct = b.Built();
  ASSERT_EQ(direct.size, fromJson.size);
  EXPECT_EQ(memcmp(direct.data(), fromJson.data(), direct.size), 0);
  const std::string pose = std::string(kHead) +
                           "\"parameters\": [{\"name\": \"pp\", \"type\": \"pose\", \"value\": 0}], \"nodes\": "
                           "[{\"kind\": \"pose\", \"parameter\": \"pp\"}], \"output\": 0}";
  ExpectForm(f.Read(pose), maniGraphFormMember, pose.find("\"value\""));
}

TEST(GraphKindsBuild, Space2DPositionNotFiniteOtherTheInput) {
  for (maniGraphNodeKind k : {maniGraphNodeSpaceBanded, maniGraphNodeSpaceTriangulated}) {
    Rig r;
    r.net.params = {P("x", maniGraphParameterFloat), P("y", maniGraphParameterFloat)};
    std::vector<uint32_t> in;
    for (int c = 0; c < 3; ++c) in.push_back(r.net.Clip(c & 1));
    r.net.output = r.net.Add(Space(k, r.net.Pts({{0, 0}, {1, 0}, {0, INFINITY}}), 0, 1), in);
    SCOPED_TRACE(k);
    ExpectRefused(r.net, mani_errorInvalid, maniBuildReasonNotFinite, r.net.output, 2);
  }
}

// "every pose parameter's locals finite"
TEST(GraphKindsState, RestorePoseLocalsNotFiniteRefused) {
  Rig r;
  r.net.params = {P("pp", maniGraphParameterPose)};
  maniGraphNodeSource n = N(maniGraphNodePose);
  n.parameter = 0;
  r.net.output = r.net.Add(n, {});
  Play p;
  p.Init(r.net);
  ASSERT_TRUE(p.ok);
  p.Update(0.1f);
  const std::vector<uint8_t> saved = p.Save();
  const size_t block = 32 + 16 + 16 * maniGraph_GetNodeCount(&p.g);
  const uint32_t bones = maniSkeleton_GetBoneCount(&r.skel.s);
  for (uint32_t bone : {0u, bones - 1}) {
    for (size_t field : {0u, 28u, 36u}) {  // translation x, scale x, scale z
      std::vector<uint8_t> bad = saved;
      const float nan = NAN;
      const size_t at = block + 8 + 40 * bone + field;
      memcpy(bad.data() + at, &nan, 4);
      maniFileResult res = maniGraphInstance_Restore(p.i, bad.data(), bad.size());
      EXPECT_EQ(res.result, mani_errorFormat);
      EXPECT_EQ(res.offset, at);
      EXPECT_EQ(p.Save(), saved);
    }
  }
}

}  // namespace
