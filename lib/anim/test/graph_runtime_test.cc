// Graph runtime (graph.h): maniBindGraph and its refusals, instances in
// caller memory (a memcpy is a copy), parameters and pose parameters,
// Update (weights, playheads, events, root motion), Evaluate against
// blends the test makes itself with maniSkeleton_BlendPoses, Save and
// Restore (every byte checked, the instance unchanged on failure), subsets
// bit-identical to Evaluate on their bones. Expected values are computed in
// the test from the clips (maniClip_Sample, maniClip_GetEvent,
// maniClip_GetRootMotion, maniBlendRootMotion), never read back from the
// graph runtime.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "maul/anim/blend.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/rootmotion.h"

namespace {

// Memory at MANI_GRAPH_ALIGNMENT (plus an offset, for misalignment tests).
struct Mem {
  std::vector<uint64_t> words;
  uint8_t* p = nullptr;
  size_t size = 0;
  explicit Mem(size_t n, size_t offset = 0) : size(n) {
    words.assign((n + offset) / 8 + 8, 0);
    uintptr_t a = (reinterpret_cast<uintptr_t>(words.data()) + 31) & ~uintptr_t(31);
    p = reinterpret_cast<uint8_t*>(a) + offset;
  }
  std::vector<uint8_t> Bytes() const { return std::vector<uint8_t>(p, p + size); }
};

// A clip built from the fixture's source, with the changes a test asks.
struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s, maniLoopPolicy loop = maniLoopRepeat,
       maniAdditiveBasis additive = maniAdditiveNone, uint32_t rootBone = 0) {
    maniFixtureClip fc;
    // Root motion only for pose clips (an additive clip takes none).
    const uint32_t flags = MANI_FIXTURE_CLIP_TRACKS | (additive == maniAdditiveNone ? MANI_FIXTURE_CLIP_ROOT_MOTION : 0u);
    maniFixtureMakeClip(&fc, seed, s, flags, loop, additive);
    fc.root.bone = rootBone;
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&fc.source, &size);
    EXPECT_NE(bytes, nullptr);
    file.Assign(bytes, size);
    free(bytes);
    maniFixtureFreeClip(&fc);
    EXPECT_EQ(maniOpenClip(file.data(), file.size, &c).result, mani_success);
  }
};

maniGraphParameterSource FloatParam(const char* name, float value) {
  maniGraphParameterSource p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.nameLength = strlen(name);
  p.type = maniGraphParameterFloat;
  p.value.number = value;
  return p;
}

maniGraphParameterSource Param(const char* name, maniGraphParameterType type) {
  maniGraphParameterSource p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.nameLength = strlen(name);
  p.type = type;
  if (type == maniGraphParameterQuaternion) p.value.rotation.w = 1.0f;
  return p;
}

maniGraphNodeSource ClipNode(uint32_t clip, float speed) {
  maniGraphNodeSource n;
  memset(&n, 0, sizeof n);
  n.kind = maniGraphNodeClip;
  n.clip = clip;
  n.speed = speed;
  return n;
}

// A built, opened and bound graph.
struct Bound {
  File file;
  maniGraph g;
  std::vector<const maniClip*> clipList;
  maniGraphAssets assets;
  Mem binding{0};
  maniGraphBinding* b = nullptr;
  void Build(const maniGraphSource& src) {
    Builder builder;
    ASSERT_EQ(maniBuildGraph(builder.b, &src).result, mani_success);
    file = builder.Built();
    ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  }
  void Bind(const maniSkeleton* s, std::vector<const maniClip*> clips) {
    clipList = clips;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = s;
    assets.clips = clipList.data();
    assets.clipCount = (uint32_t)clipList.size();
    binding = Mem(maniGraph_GetBindingSize(&g));
    uint32_t unbound = 0;
    ASSERT_EQ(maniBindGraph(&g, &assets, binding.p, binding.size, &b, &unbound), mani_success);
    EXPECT_EQ(unbound, MANI_GRAPH_NONE);
  }
};

struct Instance {
  Mem mem{0};
  maniGraphInstance* i = nullptr;
  explicit Instance(const maniGraphBinding* b) : mem(maniGraphBinding_GetInstanceSize(b)) {
    EXPECT_EQ(maniInitGraphInstance(b, mem.p, mem.size, &i), mani_success);
  }
};

// A normalized (or direct) blend of clips a and b by parameters "wa", "wb",
// the blend the output; the clips' nodes at the speeds given. Extra
// parameters of every type follow.
struct TwoClips {
  Skel skel{31, 14};
  Clip a, b;
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  uint32_t inputs[2] = {0, 1};
  uint32_t weights[2] = {0, 1};
  std::vector<maniGraphNodeSource> nodes;
  maniGraphSource src;
  Bound bound;
  float speedA, speedB;
  TwoClips(bool direct = false, float sa = 1.0f, float sb = -0.75f, maniLoopPolicy la = maniLoopRepeat,
           maniLoopPolicy lb = maniLoopClamp)
      : a(101, &skel.s, la), b(202, &skel.s, lb), speedA(sa), speedB(sb) {
    params = {FloatParam("wa", 0.25f), FloatParam("wb", 0.5f), Param("flag", maniGraphParameterBool),
              Param("go", maniGraphParameterTrigger), Param("dir", maniGraphParameterVector),
              Param("turn", maniGraphParameterQuaternion), Param("look", maniGraphParameterPose)};
    clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}};
    nodes = {ClipNode(0, sa), ClipNode(1, sb)};
    maniGraphNodeSource blend;
    memset(&blend, 0, sizeof blend);
    blend.kind = maniGraphNodeBlend;
    blend.inputs = inputs;
    blend.parameters = weights;
    blend.inputCount = 2;
    blend.direct = direct;
    nodes.push_back(blend);
    memset(&src, 0, sizeof src);
    src.skeleton = &skel.s;
    src.parameters = params.data();
    src.parameterCount = (uint32_t)params.size();
    src.clips = clips.data();
    src.clipCount = 2;
    src.nodes = nodes.data();
    src.nodeCount = 3;
    src.output = 2;
    bound.Build(src);
    bound.Bind(&skel.s, {&b.c, &a.c});  // by identity, in any order
  }
  // The file's node of a source place.
  uint32_t NodeOf(uint32_t place) {
    for (uint32_t n = 0; n < maniGraph_GetNodeCount(&bound.g); ++n)
      if (maniGraph_GetNodeSourcePlace(&bound.g, n) == place) return n;
    return MANI_GRAPH_NONE;
  }
};

void SetFloat(maniGraphInstance* i, uint32_t p, float v) {
  maniGraphValue value;
  memset(&value, 0, sizeof value);
  value.number = v;
  ASSERT_EQ(maniGraphInstance_SetParameter(i, p, maniGraphParameterFloat, value), mani_success);
}

// A playhead moved as the header says, computed here: a repeating clip
// wraps in binary64, a clamped one stops.
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

std::vector<uint8_t> PoseLocals(const maniPose* p, uint32_t bones) {
  std::vector<maniTransform> t(bones);
  EXPECT_EQ(maniPose_ReadLocals(p, 0, bones, t.data()), mani_success);
  std::vector<uint8_t> out(sizeof(maniTransform) * bones);
  memcpy(out.data(), t.data(), out.size());
  return out;
}

std::vector<uint8_t> MoveBytes(const maniRootMove& m) {
  std::vector<uint8_t> out(sizeof m);
  memcpy(out.data(), &m, sizeof m);
  return out;
}

TEST(GraphRuntime, SizesForNullAndUnopened) {
  EXPECT_EQ(maniGraph_GetBindingSize(nullptr), 0u);
  maniGraph zero;
  memset(&zero, 0, sizeof zero);
  EXPECT_EQ(maniGraph_GetBindingSize(&zero), 0u);
  EXPECT_EQ(maniGraphBinding_GetInstanceSize(nullptr), 0u);
  EXPECT_EQ(maniGraphBinding_GetScratchSize(nullptr), 0u);
  EXPECT_EQ(maniGraphBinding_GetSubsetSize(nullptr), 0u);
  TwoClips f;
  EXPECT_GT(maniGraph_GetBindingSize(&f.bound.g), 0u);
  EXPECT_GT(maniGraphBinding_GetInstanceSize(f.bound.b), 0u);
  // A pose per slot at least.
  EXPECT_GE(maniGraphBinding_GetScratchSize(f.bound.b), maniSkeleton_GetPoseSize(&f.skel.s) * 2);
  EXPECT_GE(maniGraphBinding_GetSubsetSize(f.bound.b), sizeof(uint32_t) * 14);
}

TEST(GraphRuntime, BindRefusals) {
  TwoClips f;
  maniGraph* g = &f.bound.g;
  const size_t size = maniGraph_GetBindingSize(g);
  Mem mem(size), odd(size, 16);
  maniGraphAssets assets = f.bound.assets;
  maniGraphBinding* b = reinterpret_cast<maniGraphBinding*>(1);
  uint32_t unbound = 7;
  EXPECT_EQ(maniBindGraph(nullptr, &assets, mem.p, size, &b, &unbound), mani_errorInvalid);
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(maniBindGraph(g, nullptr, mem.p, size, &b, &unbound), mani_errorInvalid);
  EXPECT_EQ(maniBindGraph(g, &assets, nullptr, size, &b, &unbound), mani_errorInvalid);
  EXPECT_EQ(maniBindGraph(g, &assets, mem.p, size, nullptr, &unbound), mani_errorInvalid);
  EXPECT_EQ(maniBindGraph(g, &assets, odd.p, size, &b, &unbound), mani_errorInvalid);
  EXPECT_EQ(maniBindGraph(g, &assets, mem.p, size - 1, &b, &unbound), mani_errorCapacity);
  EXPECT_EQ(b, nullptr);
  // Lists NULL with a count, each.
  {
    maniGraphAssets a = assets;
    a.clips = nullptr;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
    a = assets;
    a.databaseCount = 1;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
    a = assets;
    a.modelCount = 1;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
    a = assets;
    a.springSetCount = 1;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
    a = assets;
    a.retargetMapCount = 1;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
    a = assets;
    a.sourceSkeletonCount = 1;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
  }
  // A skeleton that is not the graph's, or none.
  {
    Skel other(32, 14);
    maniGraphAssets a = assets;
    a.skeleton = &other.s;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
    a.skeleton = nullptr;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
  }
  // A slot no asset binds: the first such slot named.
  {
    const maniClip* only[1] = {&f.b.c};
    maniGraphAssets a = assets;
    a.clips = only;
    a.clipCount = 1;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
    EXPECT_EQ(unbound, 0u);  // slot "a"
    a.clipCount = 0;
    a.clips = nullptr;
    EXPECT_EQ(maniBindGraph(g, &a, mem.p, size, &b, &unbound), mani_errorInvalid);
    EXPECT_EQ(unbound, 0u);
  }
  // A clip of another skeleton with the same identity cannot exist; a clip
  // of the slot's identity but the wrong kind: an additive clip cannot
  // share a pose clip's identity either, so the kind check is exercised by
  // binding an additive clip's slot below (AdditiveSlotNeedsDifference).
  // Clips whose root motion names different bones.
  {
    Clip other(101, &f.skel.s, maniLoopRepeat, maniAdditiveNone, 3);
    std::vector<maniGraphClipSource> clips = {{"a", 1, &other.c, nullptr}, {"b", 1, &f.b.c, nullptr}};
    maniGraphSource src = f.src;
    src.clips = clips.data();
    Bound b2;
    b2.Build(src);
    maniGraphAssets a = assets;
    const maniClip* list[2] = {&other.c, &f.b.c};
    a.clips = list;
    Mem m2(maniGraph_GetBindingSize(&b2.g));
    EXPECT_EQ(maniBindGraph(&b2.g, &a, m2.p, m2.size, &b, &unbound), mani_errorInvalid);
    EXPECT_EQ(unbound, MANI_GRAPH_NONE);
    // The same clips' root motion on one bone binds.
    Clip same(101, &f.skel.s, maniLoopRepeat, maniAdditiveNone, 0);
    clips[0].clip = &same.c;
    Bound b3;
    b3.Build(src);
    list[0] = &same.c;
    Mem m3(maniGraph_GetBindingSize(&b3.g));
    EXPECT_EQ(maniBindGraph(&b3.g, &a, m3.p, m3.size, &b, &unbound), mani_success);
  }
  EXPECT_EQ(maniBindGraph(g, &assets, mem.p, size, &b, &unbound), mani_success);
  EXPECT_EQ(reinterpret_cast<uint8_t*>(b), mem.p);
}

TEST(GraphRuntime, ClipSlotBindsOnlyAClipOfItsKind) {
  // A clip node playing an additive clip gives a difference, which the
  // builder refuses as the graph's output (maniBuildGraph: the output gives a
  // pose). A slot built for a full clip refuses an additive clip at bind: a
  // slot no asset of its kind binds. (A difference slot under an additive
  // node binds once the runtime evaluates additive nodes.)
  Skel skel(33, 9);
  Clip add(303, &skel.s, maniLoopRepeat, maniAdditiveRest);
  Clip full(304, &skel.s, maniLoopRepeat, maniAdditiveNone);
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f)};
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.nodes = nodes.data();
  src.nodeCount = 1;
  std::vector<maniGraphClipSource> additive = {{"add", 3, &add.c, nullptr}};
  src.clips = additive.data();
  src.clipCount = 1;
  {
    Builder builder;
    maniBuildResult r = maniBuildGraph(builder.b, &src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonDifference);
    EXPECT_EQ(r.item, 0u);
  }
  std::vector<maniGraphClipSource> plain = {{"add", 3, &full.c, nullptr}};
  src.clips = plain.data();
  Bound bound;
  bound.Build(src);
  const uint32_t flags = (uint32_t)bound.g.bytes[bound.g.nodes + 4] | ((uint32_t)bound.g.bytes[bound.g.nodes + 5] << 8);
  EXPECT_EQ(flags & MANI_GRAPH_NODE_DIFFERENCE, 0u);
  const maniClip* list[1] = {&add.c};
  maniGraphAssets assets;
  memset(&assets, 0, sizeof assets);
  assets.skeleton = &skel.s;
  assets.clips = list;
  assets.clipCount = 1;
  Mem mem(maniGraph_GetBindingSize(&bound.g));
  maniGraphBinding* b = nullptr;
  uint32_t unbound = 7;
  EXPECT_EQ(maniBindGraph(&bound.g, &assets, mem.p, mem.size, &b, &unbound), mani_errorInvalid);
  EXPECT_EQ(unbound, 0u);
  // The full clip it was built with binds.
  list[0] = &full.c;
  EXPECT_EQ(maniBindGraph(&bound.g, &assets, mem.p, mem.size, &b, &unbound), mani_success);
}

TEST(GraphRuntime, InitAndParameters) {
  TwoClips f;
  const maniGraphBinding* b = f.bound.b;
  const size_t size = maniGraphBinding_GetInstanceSize(b);
  Mem mem(size), odd(size, 8);
  maniGraphInstance* i = nullptr;
  EXPECT_EQ(maniInitGraphInstance(nullptr, mem.p, size, &i), mani_errorInvalid);
  EXPECT_EQ(maniInitGraphInstance(b, nullptr, size, &i), mani_errorInvalid);
  EXPECT_EQ(maniInitGraphInstance(b, mem.p, size, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniInitGraphInstance(b, odd.p, size, &i), mani_errorInvalid);
  EXPECT_EQ(maniInitGraphInstance(b, mem.p, size - 1, &i), mani_errorCapacity);
  ASSERT_EQ(maniInitGraphInstance(b, mem.p, size, &i), mani_success);

  const uint32_t wa = maniGraph_FindParameter(&f.bound.g, "wa", 2), flag = maniGraph_FindParameter(&f.bound.g, "flag", 4);
  const uint32_t go = maniGraph_FindParameter(&f.bound.g, "go", 2), dir = maniGraph_FindParameter(&f.bound.g, "dir", 3);
  const uint32_t turn = maniGraph_FindParameter(&f.bound.g, "turn", 4);
  const uint32_t look = maniGraph_FindParameter(&f.bound.g, "look", 4);
  maniGraphValue v;
  // Defaults.
  ASSERT_EQ(maniGraphInstance_GetParameter(i, wa, &v), mani_success);
  EXPECT_EQ(v.number, 0.25f);
  ASSERT_EQ(maniGraphInstance_GetParameter(i, flag, &v), mani_success);
  EXPECT_EQ(v.flag, 0u);
  ASSERT_EQ(maniGraphInstance_GetParameter(i, turn, &v), mani_success);
  EXPECT_EQ(v.rotation.w, 1.0f);
  ASSERT_EQ(maniGraphInstance_GetParameter(i, look, &v), mani_success);
  EXPECT_EQ(v.flag, 0u);
  EXPECT_EQ(maniGraphInstance_GetParameter(nullptr, wa, &v), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_GetParameter(i, wa, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_GetParameter(i, 7, &v), mani_errorInvalid);

  const std::vector<uint8_t> before = mem.Bytes();
  memset(&v, 0, sizeof v);
  v.number = NAN;
  EXPECT_EQ(maniGraphInstance_SetParameter(i, wa, maniGraphParameterFloat, v), mani_errorInvalid);
  v.number = INFINITY;
  EXPECT_EQ(maniGraphInstance_SetParameter(i, wa, maniGraphParameterFloat, v), mani_errorInvalid);
  v.number = 0.5f;
  EXPECT_EQ(maniGraphInstance_SetParameter(nullptr, wa, maniGraphParameterFloat, v), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_SetParameter(i, 7, maniGraphParameterFloat, v), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_SetParameter(i, wa, maniGraphParameterBool, v), mani_errorInvalid);  // not its type
  memset(&v, 0, sizeof v);
  v.flag = 2;
  EXPECT_EQ(maniGraphInstance_SetParameter(i, flag, maniGraphParameterBool, v), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_SetParameter(i, go, maniGraphParameterTrigger, v), mani_errorInvalid);
  memset(&v, 0, sizeof v);
  v.vector.y = NAN;
  EXPECT_EQ(maniGraphInstance_SetParameter(i, dir, maniGraphParameterVector, v), mani_errorInvalid);
  memset(&v, 0, sizeof v);  // a zero quaternion
  EXPECT_EQ(maniGraphInstance_SetParameter(i, turn, maniGraphParameterQuaternion, v), mani_errorInvalid);
  v.rotation.x = NAN;
  v.rotation.w = 1.0f;
  EXPECT_EQ(maniGraphInstance_SetParameter(i, turn, maniGraphParameterQuaternion, v), mani_errorInvalid);
  memset(&v, 0, sizeof v);
  EXPECT_EQ(maniGraphInstance_SetParameter(i, look, maniGraphParameterPose, v), mani_errorInvalid);
  EXPECT_EQ(mem.Bytes(), before);  // nothing changed

  // Values kept; a quaternion normalized in binary64.
  memset(&v, 0, sizeof v);
  v.number = -3.5f;  // no bounds in this format: kept as is
  ASSERT_EQ(maniGraphInstance_SetParameter(i, wa, maniGraphParameterFloat, v), mani_success);
  maniGraphValue r;
  ASSERT_EQ(maniGraphInstance_GetParameter(i, wa, &r), mani_success);
  EXPECT_EQ(r.number, -3.5f);
  memset(&v, 0, sizeof v);
  v.flag = 1;
  ASSERT_EQ(maniGraphInstance_SetParameter(i, go, maniGraphParameterTrigger, v), mani_success);
  ASSERT_EQ(maniGraphInstance_GetParameter(i, go, &r), mani_success);
  EXPECT_EQ(r.flag, 1u);
  memset(&v, 0, sizeof v);
  v.vector = {1.0f, -2.0f, 3.0f};
  ASSERT_EQ(maniGraphInstance_SetParameter(i, dir, maniGraphParameterVector, v), mani_success);
  ASSERT_EQ(maniGraphInstance_GetParameter(i, dir, &r), mani_success);
  EXPECT_EQ(r.vector.y, -2.0f);
  memset(&v, 0, sizeof v);
  v.rotation = {0.0f, 3.0f, 0.0f, 4.0f};
  ASSERT_EQ(maniGraphInstance_SetParameter(i, turn, maniGraphParameterQuaternion, v), mani_success);
  ASSERT_EQ(maniGraphInstance_GetParameter(i, turn, &r), mani_success);
  EXPECT_EQ(r.rotation.y, (float)(3.0 / 5.0));
  EXPECT_EQ(r.rotation.w, (float)(4.0 / 5.0));
}

TEST(GraphRuntime, PoseParameters) {
  TwoClips f;
  Instance inst(f.bound.b);
  const uint32_t look = maniGraph_FindParameter(&f.bound.g, "look", 4);
  const uint32_t wa = maniGraph_FindParameter(&f.bound.g, "wa", 2);
  Pose p(&f.skel.s), q(&f.skel.s);
  // Unset: the rest.
  ASSERT_EQ(maniClip_Sample(&f.a.c, &f.skel.s, 0.4f, q.p), mani_success);
  ASSERT_EQ(maniGraphInstance_GetPose(inst.i, look, q.p), mani_success);
  Pose rest(&f.skel.s);
  EXPECT_EQ(PoseLocals(q.p, 14), PoseLocals(rest.p, 14));
  // Set, read back.
  ASSERT_EQ(maniClip_Sample(&f.a.c, &f.skel.s, 0.4f, p.p), mani_success);
  const std::vector<uint8_t> before = inst.mem.Bytes();
  EXPECT_EQ(maniGraphInstance_SetPose(nullptr, look, p.p), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_SetPose(inst.i, look, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_SetPose(inst.i, wa, p.p), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_SetPose(inst.i, 99, p.p), mani_errorInvalid);
  Skel other(77, 14);
  Pose foreign(&other.s);
  EXPECT_EQ(maniGraphInstance_SetPose(inst.i, look, foreign.p), mani_errorInvalid);
  Pose diff(&f.skel.s);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&f.skel.s, p.p, rest.p, diff.p), mani_success);
  EXPECT_EQ(maniGraphInstance_SetPose(inst.i, look, diff.p), mani_errorInvalid);
  EXPECT_EQ(inst.mem.Bytes(), before);
  ASSERT_EQ(maniGraphInstance_SetPose(inst.i, look, p.p), mani_success);
  Pose r(&f.skel.s);
  EXPECT_EQ(maniGraphInstance_GetPose(nullptr, look, r.p), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_GetPose(inst.i, look, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_GetPose(inst.i, wa, r.p), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_GetPose(inst.i, look, foreign.p), mani_errorInvalid);
  ASSERT_EQ(maniGraphInstance_GetPose(inst.i, look, r.p), mani_success);
  EXPECT_EQ(PoseLocals(r.p, 14), PoseLocals(p.p, 14));
  maniGraphValue v;
  ASSERT_EQ(maniGraphInstance_GetParameter(inst.i, look, &v), mani_success);
  EXPECT_EQ(v.flag, 1u);
}

TEST(GraphRuntime, UpdateRefusalsChangeNothing) {
  TwoClips f;
  Instance inst(f.bound.b);
  const std::vector<uint8_t> before = inst.mem.Bytes();
  maniGraphEvent events[4];
  uint32_t count = 99;
  maniRootMove move;
  EXPECT_EQ(maniGraphInstance_Update(nullptr, 0.1f, events, 4, &count, &move), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Update(inst.i, 0.1f, nullptr, 4, &count, &move), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Update(inst.i, NAN, events, 4, &count, &move), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Update(inst.i, INFINITY, events, 4, &count, &move), mani_errorInvalid);
  EXPECT_EQ(inst.mem.Bytes(), before);
  EXPECT_EQ(count, 99u);
  // A zeroed instance is no instance.
  Mem zero(maniGraphBinding_GetInstanceSize(f.bound.b));
  EXPECT_EQ(maniGraphInstance_Update(reinterpret_cast<maniGraphInstance*>(zero.p), 0.1f, nullptr, 0, nullptr, nullptr),
            mani_errorInvalid);
}

// A step past the float range (delta * speed overflows binary32): the
// update completes, the failing clip nodes keep their playheads and give no
// events or root motion, InspectNode names them, the outputs stay finite.
TEST(GraphRuntime, StepPastTheFloatRangeFailsTheNodesOnly) {
  TwoClips f(false, 2.0f, 0.5f);
  Instance inst(f.bound.b);
  ASSERT_EQ(maniGraphInstance_Update(inst.i, 0.2f, nullptr, 0, nullptr, nullptr), mani_success);
  const float ta = Advance(&f.a.c, 0.0f, 0.2f * 2.0f), tb = Advance(&f.b.c, 0.0f, 0.2f * 0.5f);
  maniGraphEvent events[8];
  uint32_t count = 99;
  maniRootMove move;
  // 3e38 * 2 overflows; 3e38 * 0.5 does not.
  EXPECT_EQ(maniGraphInstance_Update(inst.i, 3e38f, events, 8, &count, &move), mani_errorFormat);
  maniGraphNodeView va, vb;
  ASSERT_EQ(maniGraphInstance_InspectNode(inst.i, f.NodeOf(0), &va), mani_success);
  ASSERT_EQ(maniGraphInstance_InspectNode(inst.i, f.NodeOf(1), &vb), mani_success);
  EXPECT_EQ(va.failed, 1u);
  EXPECT_EQ(va.playhead, ta);
  EXPECT_EQ(vb.failed, 0u);
  EXPECT_EQ(vb.playhead, Advance(&f.b.c, tb, 3e38f * 0.5f));
  EXPECT_TRUE(std::isfinite(move.translation.x) && std::isfinite(move.translation.y) &&
              std::isfinite(move.translation.z) && std::isfinite(move.rotation.w));
  for (uint32_t e = 0; e < count && e < 8; ++e) EXPECT_NE(events[e].node, f.NodeOf(0));
  Mem scratch(maniGraphBinding_GetScratchSize(f.bound.b));
  Pose out(&f.skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, scratch.size, out.p), mani_success);
  for (uint32_t b = 0; b < 14; ++b) EXPECT_TRUE(std::isfinite(maniPose_GetLocal(out.p, b).translation.x));
  // The next finite step clears the failure.
  ASSERT_EQ(maniGraphInstance_Update(inst.i, 0.1f, nullptr, 0, nullptr, nullptr), mani_success);
  ASSERT_EQ(maniGraphInstance_InspectNode(inst.i, f.NodeOf(0), &va), mani_success);
  EXPECT_EQ(va.failed, 0u);
}

TEST(GraphRuntime, EvaluateRefusalsAndRestBeforeUpdate) {
  TwoClips f;
  Instance inst(f.bound.b);
  const size_t size = maniGraphBinding_GetScratchSize(f.bound.b);
  Mem scratch(size), odd(size, 16);
  Pose out(&f.skel.s), rest(&f.skel.s);
  ASSERT_EQ(maniClip_Sample(&f.a.c, &f.skel.s, 0.7f, out.p), mani_success);
  EXPECT_EQ(maniGraphInstance_Evaluate(nullptr, scratch.p, size, out.p), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Evaluate(inst.i, nullptr, size, out.p), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Evaluate(inst.i, odd.p, size, out.p), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, size, nullptr), mani_errorInvalid);
  Skel other(77, 14);
  Pose foreign(&other.s);
  EXPECT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, size, foreign.p), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, size - 1, out.p), mani_errorCapacity);
  // Nothing weighed before the first update: the rest pose.
  ASSERT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, size, out.p), mani_success);
  EXPECT_EQ(PoseLocals(out.p, 14), PoseLocals(rest.p, 14));
  maniGraphNodeView view;
  ASSERT_EQ(maniGraphInstance_InspectNode(inst.i, 0, &view), mani_success);
  EXPECT_EQ(view.weight, 0.0f);
  EXPECT_EQ(maniGraphInstance_InspectNode(inst.i, 3, &view), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_InspectNode(nullptr, 0, &view), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_InspectNode(inst.i, 0, nullptr), mani_errorInvalid);
}

// The blend checked against one made here: the clips sampled at the
// playheads worked out above, blended by maniSkeleton_BlendPoses.
void CheckBlend(bool direct) {
  TwoClips f(direct, 1.25f, -0.5f);
  Instance inst(f.bound.b);
  Mem scratch(maniGraphBinding_GetScratchSize(f.bound.b));
  Pose out(&f.skel.s), sa(&f.skel.s), sb(&f.skel.s), expect(&f.skel.s);
  const uint32_t wa = maniGraph_FindParameter(&f.bound.g, "wa", 2), wb = maniGraph_FindParameter(&f.bound.g, "wb", 2);
  float ta = 0.0f, tb = 0.0f;
  const float steps[] = {0.1f, 0.35f, 0.9f, 0.05f, 1.7f, 0.2f};
  const float was[] = {0.25f, 0.8f, 1.5f, 0.0f, 0.3f, 0.6f};  // 1.5 clamped to 1
  const float wbs[] = {0.5f, 0.1f, 0.4f, 0.0f, -1.0f, 0.6f};  // -1 clamped to 0
  for (int k = 0; k < 6; ++k) {
    SetFloat(inst.i, wa, was[k]);
    SetFloat(inst.i, wb, wbs[k]);
    ASSERT_EQ(maniGraphInstance_Update(inst.i, steps[k], nullptr, 0, nullptr, nullptr), mani_success);
    ta = Advance(&f.a.c, ta, steps[k] * 1.25f);
    tb = Advance(&f.b.c, tb, steps[k] * -0.5f);
    ASSERT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, scratch.size, out.p), mani_success);
    const float a = std::fmin(std::fmax(was[k], 0.0f), 1.0f), b = std::fmin(std::fmax(wbs[k], 0.0f), 1.0f);
    ASSERT_EQ(maniClip_Sample(&f.a.c, &f.skel.s, ta, sa.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&f.b.c, &f.skel.s, tb, sb.p), mani_success);
    maniBlendLayer layers[2];
    uint32_t count = 0;
    if (a > 0) layers[count++] = {sa.p, a, nullptr};
    if (b > 0) layers[count++] = {sb.p, b, nullptr};
    ASSERT_EQ(maniSkeleton_BlendPoses(&f.skel.s, layers, count, direct ? 1.0f : 0.0f, expect.p), mani_success);
    EXPECT_EQ(PoseLocals(out.p, 14), PoseLocals(expect.p, 14)) << "step " << k;
    // Shares of the output.
    maniGraphNodeView va, vb, vo;
    ASSERT_EQ(maniGraphInstance_InspectNode(inst.i, f.NodeOf(0), &va), mani_success);
    ASSERT_EQ(maniGraphInstance_InspectNode(inst.i, f.NodeOf(1), &vb), mani_success);
    ASSERT_EQ(maniGraphInstance_InspectNode(inst.i, f.NodeOf(2), &vo), mani_success);
    EXPECT_EQ(vo.weight, 1.0f);
    EXPECT_EQ(vo.kind, maniGraphNodeBlend);
    EXPECT_EQ(va.kind, maniGraphNodeClip);
    const float sum = a + b;
    EXPECT_EQ(va.weight, direct ? a : (sum > 0 ? a / sum : 0.0f));
    EXPECT_EQ(vb.weight, direct ? b : (sum > 0 ? b / sum : 0.0f));
    EXPECT_EQ(va.playhead, ta);
    EXPECT_EQ(vb.playhead, tb);
    EXPECT_EQ(va.state, MANI_GRAPH_NONE);
    EXPECT_EQ(va.failed, 0u);
  }
}

TEST(GraphRuntime, NormalizedBlendMatchesBlendPoses) { CheckBlend(false); }
TEST(GraphRuntime, DirectBlendMatchesBlendPoses) { CheckBlend(true); }

// Evaluate: "Writes an instance's pose as its last update weighed it": a
// weight set after the update (one input from 0 to 1, the other to 0)
// changes nothing until the next update, also across a save and restore.
TEST(GraphRuntime, EvaluateBlendsAsTheLastUpdateWeighed) {
  TwoClips f(false, 1.0f, 0.5f);
  Instance inst(f.bound.b);
  Mem scratch(maniGraphBinding_GetScratchSize(f.bound.b));
  Pose before(&f.skel.s), after(&f.skel.s), restored(&f.skel.s), next(&f.skel.s);
  const uint32_t wa = maniGraph_FindParameter(&f.bound.g, "wa", 2), wb = maniGraph_FindParameter(&f.bound.g, "wb", 2);
  SetFloat(inst.i, wa, 1.0f);
  SetFloat(inst.i, wb, 0.0f);
  ASSERT_EQ(maniGraphInstance_Update(inst.i, 0.3f, nullptr, 0, nullptr, nullptr), mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, scratch.size, before.p), mani_success);
  SetFloat(inst.i, wa, 0.0f);
  SetFloat(inst.i, wb, 1.0f);
  ASSERT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, scratch.size, after.p), mani_success);
  EXPECT_EQ(PoseLocals(after.p, 14), PoseLocals(before.p, 14));
  size_t size = 0;
  ASSERT_EQ(maniGraphInstance_Save(inst.i, nullptr, 0, &size), mani_errorCapacity);
  std::vector<uint64_t> saved(size / 8 + 1);
  ASSERT_EQ(maniGraphInstance_Save(inst.i, saved.data(), size, &size), mani_success);
  Instance other(f.bound.b);
  ASSERT_EQ(maniGraphInstance_Restore(other.i, saved.data(), size).result, mani_success);
  Mem scratch2(maniGraphBinding_GetScratchSize(f.bound.b));
  ASSERT_EQ(maniGraphInstance_Evaluate(other.i, scratch2.p, scratch2.size, restored.p), mani_success);
  EXPECT_EQ(PoseLocals(restored.p, 14), PoseLocals(before.p, 14));
  // The next update takes the new weights: clip b alone, sampled at its playhead.
  ASSERT_EQ(maniGraphInstance_Update(inst.i, 0.1f, nullptr, 0, nullptr, nullptr), mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, scratch.size, next.p), mani_success);
  Pose sb(&f.skel.s);
  Pose expect(&f.skel.s);
  ASSERT_EQ(maniClip_Sample(&f.b.c, &f.skel.s, Advance(&f.b.c, Advance(&f.b.c, 0.0f, 0.15f), 0.05f), sb.p), mani_success);
  maniBlendLayer layer = {sb.p, 1.0f, nullptr};
  ASSERT_EQ(maniSkeleton_BlendPoses(&f.skel.s, &layer, 1, 0.0f, expect.p), mani_success);
  EXPECT_EQ(PoseLocals(next.p, 14), PoseLocals(expect.p, 14));
}

// Weights shared down two levels, a node read twice summing its shares:
// output = normalized blend(clip 0 by a, inner by b, clip 1 by e); inner =
// direct blend(clip 1 by c, clip 2 by d). Expected shares by hand:
// clip 0 a/S, inner b/S, clip 1 (b/S) c + e/S, clip 2 (b/S) d, S = a + b + e.
TEST(GraphRuntime, WeightsSharedDownFromTheOutput) {
  Skel skel(35, 10);
  Clip c0(501, &skel.s), c1(502, &skel.s), c2(503, &skel.s);
  std::vector<maniGraphParameterSource> params = {FloatParam("a", 0.5f), FloatParam("b", 0.75f),
                                                   FloatParam("c", 0.5f), FloatParam("d", 0.25f),
                                                   FloatParam("e", 0.25f)};
  std::vector<maniGraphClipSource> clips = {{"c0", 2, &c0.c, nullptr}, {"c1", 2, &c1.c, nullptr}, {"c2", 2, &c2.c, nullptr}};
  const uint32_t outInputs[3] = {0, 4, 1}, outWeights[3] = {0, 1, 4};
  const uint32_t innerInputs[2] = {1, 2}, innerWeights[2] = {2, 3};
  std::vector<maniGraphNodeSource> nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.0f), ClipNode(2, 1.0f)};
  maniGraphNodeSource out, inner;
  memset(&out, 0, sizeof out);
  out.kind = maniGraphNodeBlend;
  out.inputs = outInputs;
  out.parameters = outWeights;
  out.inputCount = 3;
  inner = out;
  inner.inputs = innerInputs;
  inner.parameters = innerWeights;
  inner.inputCount = 2;
  inner.direct = true;
  nodes.push_back(out);    // place 3
  nodes.push_back(inner);  // place 4
  maniGraphSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &skel.s;
  src.parameters = params.data();
  src.parameterCount = (uint32_t)params.size();
  src.clips = clips.data();
  src.clipCount = 3;
  src.nodes = nodes.data();
  src.nodeCount = 5;
  src.output = 3;
  Bound bound;
  bound.Build(src);
  bound.Bind(&skel.s, {&c0.c, &c1.c, &c2.c});
  Instance inst(bound.b);
  ASSERT_EQ(maniGraphInstance_Update(inst.i, 0.1f, nullptr, 0, nullptr, nullptr), mani_success);
  auto weightOf = [&](uint32_t place) {
    for (uint32_t n = 0; n < 5; ++n)
      if (maniGraph_GetNodeSourcePlace(&bound.g, n) == place) {
        maniGraphNodeView v;
        EXPECT_EQ(maniGraphInstance_InspectNode(inst.i, n, &v), mani_success);
        return v.weight;
      }
    return -1.0f;
  };
  const float S = 0.5f + 0.75f + 0.25f;
  const float innerShare = 1.0f * (0.75f / S);
  EXPECT_EQ(weightOf(3), 1.0f);
  EXPECT_EQ(weightOf(0), 1.0f * (0.5f / S));
  EXPECT_EQ(weightOf(4), innerShare);
  EXPECT_EQ(weightOf(2), innerShare * 0.25f);
  // Clip 1: the output's share (e) first, the inner's (c) then, in node
  // order from the output down: the output is the last node.
  EXPECT_EQ(weightOf(1), 1.0f * (0.25f / S) + innerShare * 0.5f);
  // The pose: the inner direct blend then the outer one, made here.
  Mem scratch(maniGraphBinding_GetScratchSize(bound.b));
  Pose got(&skel.s), p0(&skel.s), p1(&skel.s), p2(&skel.s), mid(&skel.s), want(&skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, scratch.size, got.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&c0.c, &skel.s, Advance(&c0.c, 0.0f, 0.1f), p0.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&c1.c, &skel.s, Advance(&c1.c, 0.0f, 0.1f), p1.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&c2.c, &skel.s, Advance(&c2.c, 0.0f, 0.1f), p2.p), mani_success);
  const maniBlendLayer innerLayers[2] = {{p1.p, 0.5f, nullptr}, {p2.p, 0.25f, nullptr}};
  ASSERT_EQ(maniSkeleton_BlendPoses(&skel.s, innerLayers, 2, 1.0f, mid.p), mani_success);
  const maniBlendLayer outLayers[3] = {{p0.p, 0.5f, nullptr}, {mid.p, 0.75f, nullptr}, {p1.p, 0.25f, nullptr}};
  ASSERT_EQ(maniSkeleton_BlendPoses(&skel.s, outLayers, 3, 0.0f, want.p), mani_success);
  EXPECT_EQ(PoseLocals(got.p, 10), PoseLocals(want.p, 10));
}

TEST(GraphRuntime, EventsPastThresholdInNodeOrder) {
  TwoClips f(false, 1.0f, 1.0f, maniLoopRepeat, maniLoopRepeat);
  Instance inst(f.bound.b);
  const uint32_t wa = maniGraph_FindParameter(&f.bound.g, "wa", 2), wb = maniGraph_FindParameter(&f.bound.g, "wb", 2);
  SetFloat(inst.i, wa, 1.0f);
  SetFloat(inst.i, wb, 0.0005f);  // b's share 0.0005 / 1.0005: under the threshold
  const uint32_t na = f.NodeOf(0);
  ASSERT_GT(maniClip_GetEventCount(&f.a.c), 0u);
  float t = 0.0f;
  const float d = maniClip_GetDuration(&f.a.c);
  uint32_t total = 0;
  for (int k = 0; k < 40; ++k) {
    const float step = d * 0.13f;
    maniGraphEvent events[64];
    uint32_t count = 0;
    ASSERT_EQ(maniGraphInstance_Update(inst.i, step, events, 64, &count, nullptr), mani_success);
    // Expected: clip a's events with from <= time < to, across a wrap the
    // rest of the clip then its start.
    std::vector<uint32_t> expect;
    const double to = (double)t + (double)step;
    for (uint32_t e = 0; e < maniClip_GetEventCount(&f.a.c); ++e) {
      const float et = maniClip_GetEvent(&f.a.c, e).time;
      if (to < d ? (et >= t && et < (float)to) : (et >= t)) expect.push_back(e);
    }
    const float next = Advance(&f.a.c, t, step);
    if (to >= d)
      for (uint32_t e = 0; e < maniClip_GetEventCount(&f.a.c); ++e)
        if (maniClip_GetEvent(&f.a.c, e).time < next) expect.push_back(e);
    ASSERT_EQ(count, expect.size()) << "update " << k;
    for (uint32_t e = 0; e < count; ++e) {
      EXPECT_EQ(events[e].node, na);
      EXPECT_EQ(events[e].clip, 0u);
      EXPECT_EQ(events[e].event, expect[e]);
      const maniClipEvent ce = maniClip_GetEvent(&f.a.c, expect[e]);
      EXPECT_EQ(events[e].time, ce.time);
      EXPECT_EQ(events[e].name, ce.name);
      EXPECT_EQ(events[e].nameLength, ce.nameLength);
      EXPECT_EQ(events[e].weight, 1.0f / (1.0f + 0.0005f));
    }
    total += count;
    t = next;
  }
  EXPECT_GT(total, 0u);
  // Past capacity: counted, not written.
  SetFloat(inst.i, wb, 1.0f);
  maniGraphEvent few[1];
  memset(few, 0xAB, sizeof few);
  uint32_t count = 0;
  ASSERT_EQ(maniGraphInstance_Update(inst.i, d * 3.0f, few, 0, &count, nullptr), mani_success);
  EXPECT_EQ(count, maniClip_GetEventCount(&f.a.c) + maniClip_GetEventCount(&f.b.c));  // each once: a whole duration
  const uint8_t* raw = reinterpret_cast<const uint8_t*>(few);
  for (size_t k = 0; k < sizeof few; ++k) ASSERT_EQ(raw[k], 0xAB);
}

TEST(GraphRuntime, RootMotionBlendedByOutputWeights) {
  TwoClips f(false, 1.0f, 2.0f, maniLoopRepeat, maniLoopClamp);
  Instance inst(f.bound.b);
  const uint32_t wa = maniGraph_FindParameter(&f.bound.g, "wa", 2), wb = maniGraph_FindParameter(&f.bound.g, "wb", 2);
  SetFloat(inst.i, wa, 0.3f);
  SetFloat(inst.i, wb, 0.9f);
  float ta = 0.0f, tb = 0.0f;
  for (int k = 0; k < 12; ++k) {
    const float step = 0.21f;
    maniRootMove move;
    ASSERT_EQ(maniGraphInstance_Update(inst.i, step, nullptr, 0, nullptr, &move), mani_success);
    maniRootMove moves[2];
    ASSERT_EQ(maniClip_GetRootMotion(&f.a.c, ta, step * 1.0f, &moves[0]), mani_success);
    ASSERT_EQ(maniClip_GetRootMotion(&f.b.c, tb, step * 2.0f, &moves[1]), mani_success);
    const float sum = 0.3f + 0.9f;
    const float weights[2] = {0.3f / sum, 0.9f / sum};
    // The nodes' order in the file is the blend's order of moves.
    maniRootMove expect;
    if (f.NodeOf(0) < f.NodeOf(1)) {
      ASSERT_EQ(maniBlendRootMotion(moves, weights, 2, &expect), mani_success);
    } else {
      const maniRootMove swapped[2] = {moves[1], moves[0]};
      const float sw[2] = {weights[1], weights[0]};
      ASSERT_EQ(maniBlendRootMotion(swapped, sw, 2, &expect), mani_success);
    }
    EXPECT_EQ(MoveBytes(move), MoveBytes(expect)) << "update " << k;
    ta = Advance(&f.a.c, ta, step);
    tb = Advance(&f.b.c, tb, step * 2.0f);
  }
  // No weight on either: the move of no motion.
  SetFloat(inst.i, wa, 0.0f);
  SetFloat(inst.i, wb, 0.0f);
  maniRootMove move;
  ASSERT_EQ(maniGraphInstance_Update(inst.i, 0.2f, nullptr, 0, nullptr, &move), mani_success);
  EXPECT_EQ(MoveBytes(move), MoveBytes(maniMakeRootMoveIdentity()));
}

// Runs a seeded graph over a seeded timeline, returning every update's
// pose, events and root motion bytes.
struct Recording {
  std::vector<uint8_t> bytes;
  void Step(maniGraphInstance* i, const maniFixtureGraph& g, void* scratch, size_t size, maniPose* out,
            uint32_t bones, float step) {
    maniGraphEvent events[32];
    uint32_t count = 0;
    maniRootMove move;
    ASSERT_EQ(maniGraphInstance_Update(i, step, events, 32, &count, &move), mani_success);
    ASSERT_EQ(maniGraphInstance_Evaluate(i, scratch, size, out), mani_success);
    const std::vector<uint8_t> p = PoseLocals(out, bones), m = MoveBytes(move);
    bytes.insert(bytes.end(), p.begin(), p.end());
    bytes.insert(bytes.end(), m.begin(), m.end());
    for (uint32_t e = 0; e < count && e < 32; ++e) {
      const uint8_t* r = reinterpret_cast<const uint8_t*>(&events[e]);
      bytes.insert(bytes.end(), r, r + 24);  // node to weight and reserved: no pointer
    }
  }
};

struct Seeded {
  Skel skel{41, 23};
  maniFixtureGraph g;
  maniGraphAssets assets;
  Mem binding{0};
  maniGraphBinding* b = nullptr;
  explicit Seeded(uint64_t seed) {
    EXPECT_EQ(maniFixtureMakeGraph(&g, seed, &skel.s, 0, 1), 1);
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skel.s;
    assets.clips = g.clipList;
    assets.clipCount = g.clipCount;
    binding = Mem(maniGraph_GetBindingSize(&g.graph));
    EXPECT_EQ(maniBindGraph(&g.graph, &assets, binding.p, binding.size, &b, nullptr), mani_success);
  }
  ~Seeded() { maniFixtureFreeGraph(&g); }
  void Weights(maniGraphInstance* i, int k) {
    for (uint32_t p = 0; p < maniGraph_GetParameterCount(&g.graph); ++p)
      SetFloat(i, p, (float)((k * 7 + (int)p * 3) % 11) / 8.0f - 0.125f);
  }
};

TEST(GraphRuntime, MemcpyOfAnInstanceContinuesWithTheSameBits) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Seeded s(seed);
    Instance a(s.b);
    Mem scratch(maniGraphBinding_GetScratchSize(s.b));
    Pose out(&s.skel.s);
    Recording warm;
    for (int k = 0; k < 5; ++k) {
      s.Weights(a.i, k);
      warm.Step(a.i, s.g, scratch.p, scratch.size, out.p, 23, 0.07f * (float)(k + 1));
    }
    Mem copy(a.mem.size);
    memcpy(copy.p, a.mem.p, a.mem.size);
    maniGraphInstance* c = reinterpret_cast<maniGraphInstance*>(copy.p);
    Recording ra, rc;
    for (int k = 5; k < 15; ++k) {
      s.Weights(a.i, k);
      s.Weights(c, k);
      ra.Step(a.i, s.g, scratch.p, scratch.size, out.p, 23, 0.11f * (float)(k % 4) - 0.05f);
      rc.Step(c, s.g, scratch.p, scratch.size, out.p, 23, 0.11f * (float)(k % 4) - 0.05f);
    }
    EXPECT_EQ(ra.bytes, rc.bytes) << "seed " << seed;
  }
}

TEST(GraphRuntime, OneScratchServesManyInstances) {
  Seeded s(9);
  Instance a(s.b), b(s.b);
  Mem shared(maniGraphBinding_GetScratchSize(s.b)), own(maniGraphBinding_GetScratchSize(s.b));
  Pose pa(&s.skel.s), pb(&s.skel.s), alone(&s.skel.s);
  s.Weights(a.i, 1);
  s.Weights(b.i, 4);
  ASSERT_EQ(maniGraphInstance_Update(a.i, 0.3f, nullptr, 0, nullptr, nullptr), mani_success);
  ASSERT_EQ(maniGraphInstance_Update(b.i, 0.8f, nullptr, 0, nullptr, nullptr), mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(a.i, own.p, own.size, alone.p), mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(b.i, shared.p, shared.size, pb.p), mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(a.i, shared.p, shared.size, pa.p), mani_success);
  EXPECT_EQ(PoseLocals(pa.p, 23), PoseLocals(alone.p, 23));
}

TEST(GraphRuntime, SaveRestoreContinuesWithTheSameBits) {
  for (uint64_t seed = 11; seed <= 14; ++seed) {
    Seeded s(seed);
    Instance through(s.b), first(s.b);
    Mem scratch(maniGraphBinding_GetScratchSize(s.b));
    Pose out(&s.skel.s);
    Recording all, part;
    for (int k = 0; k < 6; ++k) {
      s.Weights(through.i, k);
      s.Weights(first.i, k);
      all.Step(through.i, s.g, scratch.p, scratch.size, out.p, 23, 0.13f * (float)k);
      part.Step(first.i, s.g, scratch.p, scratch.size, out.p, 23, 0.13f * (float)k);
    }
    size_t size = 0;
    ASSERT_EQ(maniGraphInstance_Save(first.i, nullptr, 0, &size), mani_errorCapacity);
    std::vector<uint8_t> state(size);
    ASSERT_EQ(maniGraphInstance_Save(first.i, state.data(), size, &size), mani_success);
    Instance fresh(s.b);
    ASSERT_EQ(maniGraphInstance_Restore(fresh.i, state.data(), size).result, mani_success);
    for (int k = 6; k < 16; ++k) {
      s.Weights(through.i, k);
      s.Weights(fresh.i, k);
      all.Step(through.i, s.g, scratch.p, scratch.size, out.p, 23, 0.09f * (float)(k % 5) - 0.1f);
      part.Step(fresh.i, s.g, scratch.p, scratch.size, out.p, 23, 0.09f * (float)(k % 5) - 0.1f);
    }
    EXPECT_EQ(all.bytes, part.bytes) << "seed " << seed;
    // A saved state of the same instance saves to the same bytes.
    std::vector<uint8_t> again(size), other(size);
    ASSERT_EQ(maniGraphInstance_Save(through.i, again.data(), size, &size), mani_success);
    ASSERT_EQ(maniGraphInstance_Save(fresh.i, other.data(), size, &size), mani_success);
    EXPECT_EQ(again, other);
  }
}

TEST(GraphRuntime, SaveRefusals) {
  TwoClips f;
  Instance inst(f.bound.b);
  size_t size = 0;
  EXPECT_EQ(maniGraphInstance_Save(nullptr, nullptr, 0, &size), mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Save(inst.i, nullptr, 4, &size), mani_errorInvalid);
  ASSERT_EQ(maniGraphInstance_Save(inst.i, nullptr, 0, &size), mani_errorCapacity);
  // Header, 7 parameters, 3 nodes, one pose parameter of 14 bones, the
  // blend's weights of its 2 inputs, the tail.
  EXPECT_EQ(size, 32u + 16u * 7 + 16u * 3 + (8u + 40u * 14) + 4u * 2 + 8u);
  std::vector<uint8_t> small(size - 1, 0x5A);
  size_t got = 0;
  EXPECT_EQ(maniGraphInstance_Save(inst.i, small.data(), small.size(), &got), mani_errorCapacity);
  EXPECT_EQ(got, size);
  for (uint8_t b : small) ASSERT_EQ(b, 0x5A);
}

void PutU32(std::vector<uint8_t>& s, size_t at, uint32_t v) { memcpy(&s[at], &v, 4); }
void PutF32(std::vector<uint8_t>& s, size_t at, float v) { memcpy(&s[at], &v, 4); }

TEST(GraphRuntime, RestoreRefusalsLeaveTheInstance) {
  TwoClips f(false, 1.0f, 1.0f);
  Instance inst(f.bound.b);
  ASSERT_EQ(maniGraphInstance_Update(inst.i, 0.4f, nullptr, 0, nullptr, nullptr), mani_success);
  size_t size = 0;
  ASSERT_EQ(maniGraphInstance_Save(inst.i, nullptr, 0, &size), mani_errorCapacity);
  std::vector<uint8_t> good(size);
  ASSERT_EQ(maniGraphInstance_Save(inst.i, good.data(), size, &size), mani_success);
  Instance target(f.bound.b);
  SetFloat(target.i, 0, 0.125f);
  const std::vector<uint8_t> before = target.mem.Bytes();
  auto expect = [&](std::vector<uint8_t> s, maniResult code, uint64_t offset) {
    const maniFileResult r = maniGraphInstance_Restore(target.i, s.data(), s.size());
    EXPECT_EQ(r.result, code);
    EXPECT_EQ(r.offset, offset);
    EXPECT_EQ(target.mem.Bytes(), before);
  };
  EXPECT_EQ(maniGraphInstance_Restore(nullptr, good.data(), size).result, mani_errorInvalid);
  EXPECT_EQ(maniGraphInstance_Restore(target.i, nullptr, size).result, mani_errorInvalid);
  std::vector<uint8_t> s = good;
  s[0] ^= 1;
  expect(s, mani_errorFormat, 0);
  s = good;
  PutU32(s, 4, MANI_ABI_VERSION + 1);
  expect(s, mani_errorVersion, 4);
  s = good;
  PutU32(s, 8, MANI_GRAPH_STATE_VERSION + 1);
  expect(s, mani_errorVersion, 8);
  s = good;
  PutU32(s, 12, (uint32_t)size + 16);
  expect(s, mani_errorFormat, 12);
  s = good;
  s.resize(size - 8);
  expect(s, mani_errorFormat, 12);
  s = good;
  s.resize(20);
  expect(s, mani_errorFormat, 20);  // the header cut short: its first missing byte
  s = good;
  s[16] ^= 1;
  expect(s, mani_errorFormat, 16);  // another graph's identity
  s = good;
  PutU32(s, 24, 4);
  expect(s, mani_errorFormat, 24);
  s = good;
  PutU32(s, 28, 6);
  expect(s, mani_errorFormat, 28);
  // Parameters in form: a float not finite, a bool past 1, a trigger's
  // unused bytes, a vector not finite, a quaternion not unit, a pose
  // parameter's record not empty.
  const size_t params = 32;
  s = good;
  PutF32(s, params + 0 * 16, NAN);
  expect(s, mani_errorFormat, params);
  s = good;
  PutU32(s, params + 2 * 16, 2);
  expect(s, mani_errorFormat, params + 2 * 16);
  s = good;
  s[params + 3 * 16 + 5] = 1;
  expect(s, mani_errorFormat, params + 3 * 16 + 5);
  s = good;
  PutF32(s, params + 4 * 16 + 8, INFINITY);
  expect(s, mani_errorFormat, params + 4 * 16 + 8);
  s = good;
  PutF32(s, params + 5 * 16 + 12, 1.01f);
  expect(s, mani_errorFormat, params + 5 * 16);
  s = good;
  s[params + 6 * 16 + 1] = 3;
  expect(s, mani_errorFormat, params + 6 * 16 + 1);
  // Nodes: a weight past 1, a playhead past its clip's duration, unknown
  // flags, the reserved word.
  const size_t nodes = params + 7 * 16;
  const uint32_t n0 = 0;  // a clip node (clips come first in the file here)
  ASSERT_EQ(maniGraph_GetNodeKind(&f.bound.g, n0), maniGraphNodeClip);
  s = good;
  PutF32(s, nodes + 16 * n0, 1.5f);
  expect(s, mani_errorFormat, nodes + 16 * n0);
  s = good;
  PutF32(s, nodes + 16 * n0 + 4, maniClip_GetDuration(&f.a.c) * 2.0f + 5.0f);
  expect(s, mani_errorFormat, nodes + 16 * n0 + 4);
  s = good;
  PutF32(s, nodes + 16 * n0 + 4, -0.0001f);
  expect(s, mani_errorFormat, nodes + 16 * n0 + 4);
  s = good;
  PutU32(s, nodes + 16 * n0 + 8, 4);
  expect(s, mani_errorFormat, nodes + 16 * n0 + 8);
  s = good;
  PutU32(s, nodes + 16 * n0 + 12, 1);
  expect(s, mani_errorFormat, nodes + 16 * n0 + 12);
  s = good;
  PutF32(s, nodes + 16 * 2 + 4, 0.5f);  // the blend keeps no playhead
  expect(s, mani_errorFormat, nodes + 16 * 2 + 4);
  // The pose parameter: set past 1, a rotation not unit, a scale not
  // finite; the tail.
  const size_t poses = nodes + 3 * 16;
  s = good;
  PutU32(s, poses, 2);
  expect(s, mani_errorFormat, poses);
  s = good;
  PutF32(s, poses + 8 + 40 * 3 + 24, 0.5f);
  expect(s, mani_errorFormat, poses + 8 + 40 * 3 + 12);
  s = good;
  PutF32(s, poses + 8 + 40 * 5 + 32, NAN);
  expect(s, mani_errorFormat, poses + 8 + 40 * 5 + 32);
  s = good;
  PutU32(s, size - 8, 2);
  expect(s, mani_errorFormat, size - 8);
  s = good;
  s[size - 1] = 1;
  expect(s, mani_errorFormat, size - 1);
  // A state of another graph of the same shape: its identity.
  {
    TwoClips g2(true, 1.0f, 1.0f);
    Instance other(g2.bound.b);
    std::vector<uint8_t> os(size);
    size_t n = 0;
    ASSERT_EQ(maniGraphInstance_Save(other.i, os.data(), size, &n), mani_success);
    expect(os, mani_errorFormat, 16);
  }
  // Every single-byte change is refused with the instance unchanged or
  // restores to a state that saves back to exactly those bytes.
  for (size_t at = 0; at < size; ++at) {
    for (uint8_t x : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
      s = good;
      s[at] ^= x;
      Mem copy(target.mem.size);
      memcpy(copy.p, target.mem.p, target.mem.size);
      maniGraphInstance* c = reinterpret_cast<maniGraphInstance*>(copy.p);
      const maniFileResult r = maniGraphInstance_Restore(c, s.data(), s.size());
      if (r.result != mani_success) {
        ASSERT_TRUE(memcmp(copy.p, target.mem.p, target.mem.size) == 0) << at;
        ASSERT_LE(r.offset, at) << at;
      } else {
        std::vector<uint8_t> back(size);
        size_t n = 0;
        ASSERT_EQ(maniGraphInstance_Save(c, back.data(), size, &n), mani_success);
        ASSERT_EQ(back, s) << at;
      }
    }
  }
  ASSERT_EQ(maniGraphInstance_Restore(target.i, good.data(), size).result, mani_success);
}

TEST(GraphRuntime, SubsetPlanRefusalsAndBones) {
  Seeded s(21);
  const size_t size = maniGraphBinding_GetSubsetSize(s.b);
  Mem mem(size), odd(size, 4);
  maniGraphSubset* plan = nullptr;
  const uint32_t bones[3] = {4, 9, 17};
  EXPECT_EQ(maniPlanGraphSubset(nullptr, bones, 3, mem.p, size, &plan), mani_errorInvalid);
  EXPECT_EQ(maniPlanGraphSubset(s.b, nullptr, 3, mem.p, size, &plan), mani_errorInvalid);
  EXPECT_EQ(maniPlanGraphSubset(s.b, bones, 3, nullptr, size, &plan), mani_errorInvalid);
  EXPECT_EQ(maniPlanGraphSubset(s.b, bones, 3, mem.p, size, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniPlanGraphSubset(s.b, bones, 3, odd.p, size, &plan), mani_errorInvalid);
  EXPECT_EQ(maniPlanGraphSubset(s.b, bones, 3, mem.p, size - 1, &plan), mani_errorCapacity);
  const uint32_t unordered[2] = {9, 4}, repeated[2] = {4, 4}, past[1] = {23};
  EXPECT_EQ(maniPlanGraphSubset(s.b, unordered, 2, mem.p, size, &plan), mani_errorInvalid);
  EXPECT_EQ(maniPlanGraphSubset(s.b, repeated, 2, mem.p, size, &plan), mani_errorInvalid);
  EXPECT_EQ(maniPlanGraphSubset(s.b, past, 1, mem.p, size, &plan), mani_errorInvalid);
  EXPECT_EQ(maniGraphSubset_GetBones(nullptr, nullptr), nullptr);
  ASSERT_EQ(maniPlanGraphSubset(s.b, bones, 3, mem.p, size, &plan), mani_success);
  // The listed bones and their ancestors, increasing, worked out here.
  std::vector<bool> want(23, false);
  for (uint32_t b : bones)
    for (uint32_t k = b; k != MANI_NO_BONE; k = maniSkeleton_GetParent(&s.skel.s, k)) want[k] = true;
  std::vector<uint32_t> expect;
  for (uint32_t k = 0; k < 23; ++k)
    if (want[k]) expect.push_back(k);
  uint32_t count = 0;
  const uint32_t* got = maniGraphSubset_GetBones(plan, &count);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(std::vector<uint32_t>(got, got + count), expect);
  ASSERT_EQ(maniPlanGraphSubset(s.b, nullptr, 0, mem.p, size, &plan), mani_success);
  EXPECT_NE(maniGraphSubset_GetBones(plan, &count), nullptr);
  EXPECT_EQ(count, 0u);
}

TEST(GraphRuntime, SubsetMatchesEvaluateOnItsBones) {
  for (uint64_t seed = 31; seed <= 34; ++seed) {
    Seeded s(seed);
    Mem mem(maniGraphBinding_GetSubsetSize(s.b)), scratch(maniGraphBinding_GetScratchSize(s.b));
    const uint32_t bones[2] = {(uint32_t)(seed % 7), 12 + (uint32_t)(seed % 9)};
    maniGraphSubset* plan = nullptr;
    ASSERT_EQ(maniPlanGraphSubset(s.b, bones, 2, mem.p, mem.size, &plan), mani_success);
    uint32_t count = 0;
    const uint32_t* planned = maniGraphSubset_GetBones(plan, &count);
    Instance inst(s.b);
    Pose full(&s.skel.s), part(&s.skel.s), mark(&s.skel.s);
    for (int k = 0; k < 8; ++k) {
      s.Weights(inst.i, k);
      ASSERT_EQ(maniGraphInstance_Update(inst.i, 0.17f * (float)k - 0.3f, nullptr, 0, nullptr, nullptr), mani_success);
      // The pose evaluated into first holds something else: a clip sample.
      ASSERT_EQ(maniClip_Sample(&s.g.clips[0], &s.skel.s, 0.05f * (float)k, part.p), mani_success);
      ASSERT_EQ(maniClip_Sample(&s.g.clips[0], &s.skel.s, 0.05f * (float)k, mark.p), mani_success);
      ASSERT_EQ(maniGraphInstance_EvaluateSubset(inst.i, plan, scratch.p, scratch.size, part.p), mani_success);
      ASSERT_EQ(maniGraphInstance_Evaluate(inst.i, scratch.p, scratch.size, full.p), mani_success);
      std::vector<bool> in(23, false);
      for (uint32_t i = 0; i < count; ++i) in[planned[i]] = true;
      for (uint32_t b = 0; b < 23; ++b) {
        const maniTransform want = maniPose_GetLocal(in[b] ? full.p : mark.p, b), got = maniPose_GetLocal(part.p, b);
        ASSERT_EQ(memcmp(&want, &got, sizeof want), 0) << "seed " << seed << " update " << k << " bone " << b;
      }
    }
    // Refusals: a NULL plan, one of another binding.
    EXPECT_EQ(maniGraphInstance_EvaluateSubset(inst.i, nullptr, scratch.p, scratch.size, part.p), mani_errorInvalid);
    Seeded other(seed + 100);
    Mem om(maniGraphBinding_GetSubsetSize(other.b));
    maniGraphSubset* foreign = nullptr;
    ASSERT_EQ(maniPlanGraphSubset(other.b, bones, 2, om.p, om.size, &foreign), mani_success);
    EXPECT_EQ(maniGraphInstance_EvaluateSubset(inst.i, foreign, scratch.p, scratch.size, part.p), mani_errorInvalid);
    EXPECT_EQ(maniGraphInstance_EvaluateSubset(inst.i, plan, scratch.p, scratch.size - 1, part.p), mani_errorCapacity);
  }
}

}  // namespace
