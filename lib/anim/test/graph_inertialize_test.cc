// The inertialize node (graphbuild.h's maniGraphNodeSource inertialize
// members, graph.h's MANI_GRAPH_INERTIALIZE_* paragraph): a select between
// two clips switched with the node's trigger set makes the jump it removes.
// The plain graph (the select as the output) gives its input's pose, so the
// expected outputs are worked out here in binary64 from poses the runtime
// gives for other reasons (its input, its own last outputs), never read
// back from the node under test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "lib/anim/src/build/graph_json_internal.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"

namespace {

constexpr uint32_t kBones = 9;

struct Mem {
  std::vector<uint64_t> words;
  uint8_t* p = nullptr;
  size_t size = 0;
  explicit Mem(size_t n) : size(n) {
    words.assign(n / 8 + 8, 0);
    uintptr_t a = (reinterpret_cast<uintptr_t>(words.data()) + 31) & ~uintptr_t(31);
    p = reinterpret_cast<uint8_t*>(a);
  }
};

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s, maniAdditiveBasis additive = maniAdditiveNone) {
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, seed, s, MANI_FIXTURE_CLIP_ALL_BONES, maniLoopRepeat, additive);
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

uint32_t F32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

enum : uint32_t { kFire = 0, kWhich = 1, kX = 2 };

// Nodes: 0 clip a, 1 clip b, 2 a select of them by the bool "which", 3 the
// inertialize (its output); plain: the select the output.
struct Rig {
  Skel skel{57, kBones};
  Clip a{101, &skel.s}, b{202, &skel.s}, diff{303, &skel.s, maniAdditiveRest};
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  std::vector<maniGraphNodeSource> nodes;
  uint32_t both[2] = {0, 1};
  uint32_t sel = 2;
  maniGraphSource src;
  File file;
  maniGraph g;
  std::vector<const maniClip*> clipList;
  maniGraphAssets assets;
  Mem binding{0};
  maniGraphBinding* bound = nullptr;
  maniGraphNodeSource node;
  uint32_t clipA = 0, clipB = 1;

  Rig() {
    params = {Param("fire", maniGraphParameterTrigger), Param("which", maniGraphParameterBool),
              Param("x", maniGraphParameterFloat)};
    clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}, {"diff", 4, &diff.c, nullptr}};
    memset(&node, 0, sizeof node);
    node.kind = maniGraphNodeInertialize;
    node.parameter = kFire;
    node.method = maniGraphInertialization;
    node.duration = 0.5f;
    node.halfLifeScale = 0.3f;
    node.halfLifeMin = 0.1f;
    node.halfLifeMax = 1.0f;
  }
  const maniGraphSource& Source(bool plain = false) {
    maniGraphNodeSource ca, cb, s;
    memset(&ca, 0, sizeof ca);
    ca.kind = maniGraphNodeClip;
    ca.clip = clipA;
    ca.speed = 1.0f;
    cb = ca;
    cb.clip = clipB;
    cb.speed = 1.5f;
    memset(&s, 0, sizeof s);
    s.kind = maniGraphNodeSelect;
    s.inputs = both;
    s.inputCount = 2;
    s.parameter = kWhich;
    node.inputs = &sel;
    node.inputCount = 1;
    nodes = {ca, cb, s, node};
    memset(&src, 0, sizeof src);
    src.skeleton = &skel.s;
    src.parameters = params.data();
    src.parameterCount = (uint32_t)params.size();
    src.clips = clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.nodes = nodes.data();
    src.nodeCount = plain ? 3 : 4;
    src.output = plain ? 2 : 3;
    return src;
  }
  void Build(bool plain = false) {
    Builder builder;
    ASSERT_EQ(maniBuildGraph(builder.b, &Source(plain)).result, mani_success);
    file = builder.Built();
    ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
    clipList = {&a.c, &b.c, &diff.c};
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skel.s;
    assets.clips = clipList.data();
    assets.clipCount = 3;
    binding = Mem(maniGraph_GetBindingSize(&g));
    ASSERT_EQ(maniBindGraph(&g, &assets, binding.p, binding.size, &bound, nullptr), mani_success);
  }
};

struct Instance {
  Mem mem{0};
  Mem scratch{0};
  maniGraphInstance* i = nullptr;
  const maniSkeleton* skel;
  Instance(const maniGraphBinding* b, const maniSkeleton* s)
      : mem(maniGraphBinding_GetInstanceSize(b)), scratch(maniGraphBinding_GetScratchSize(b)), skel(s) {
    EXPECT_EQ(maniInitGraphInstance(b, mem.p, mem.size, &i), mani_success);
  }
  void Update(float dt) { ASSERT_EQ(maniGraphInstance_Update(i, dt, nullptr, 0, nullptr, nullptr), mani_success); }
  void Set(uint32_t p, maniGraphParameterType type, uint32_t flag) {
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    v.flag = flag;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, type, v), mani_success);
  }
  std::vector<maniTransform> Eval() {
    Pose pose(skel);
    EXPECT_EQ(maniGraphInstance_Evaluate(i, scratch.p, scratch.size, pose.p), mani_success);
    std::vector<maniTransform> t(kBones);
    EXPECT_EQ(maniPose_ReadLocals(pose.p, 0, kBones, t.data()), mani_success);
    return t;
  }
  maniGraphNodeView View(uint32_t node = 3) const {
    maniGraphNodeView v;
    EXPECT_EQ(maniGraphInstance_InspectNode(i, node, &v), mani_success);
    return v;
  }
  std::vector<uint8_t> Saved() const {
    size_t size = 0;
    EXPECT_EQ(maniGraphInstance_Save(i, nullptr, 0, &size), mani_errorCapacity);
    std::vector<uint8_t> out(size);
    EXPECT_EQ(maniGraphInstance_Save(i, out.data(), size, &size), mani_success);
    return out;
  }
};

std::vector<uint8_t> Bits(const std::vector<maniTransform>& t) {
  std::vector<uint8_t> out(sizeof(maniTransform) * t.size());
  memcpy(out.data(), t.data(), out.size());
  return out;
}

// The node and the plain graph stepped alike: `which` switched (and the
// node's trigger set) at update `at`, steps of dt.
struct Pair {
  Rig r, plain;
  Instance *in = nullptr, *ref = nullptr;
  explicit Pair(void (*change)(Rig&) = nullptr) {
    if (change) change(r);
    r.Build();
    plain.Build(true);
    in = new Instance(r.bound, &r.skel.s);
    ref = new Instance(plain.bound, &plain.skel.s);
  }
  ~Pair() {
    delete in;
    delete ref;
  }
  // One update of both (switching and firing when asked), then both poses.
  void Step(float dt, bool fire, std::vector<maniTransform>* out, std::vector<maniTransform>* input) {
    if (fire) {
      const uint32_t which = View(kWhich) ? 0u : 1u;
      in->Set(kWhich, maniGraphParameterBool, which);
      ref->Set(kWhich, maniGraphParameterBool, which);
      in->Set(kFire, maniGraphParameterTrigger, 1);
    }
    in->Update(dt);
    ref->Update(dt);
    *out = in->Eval();
    *input = ref->Eval();
  }
  uint32_t View(uint32_t p) {
    maniGraphValue v;
    EXPECT_EQ(maniGraphInstance_GetParameter(in->i, p, &v), mani_success);
    return v.flag;
  }
};

double Dist(const maniTransform& a, const maniTransform& b) {
  double d = 0;
  d = std::fmax(d, std::fabs((double)a.translation.x - b.translation.x));
  d = std::fmax(d, std::fabs((double)a.translation.y - b.translation.y));
  d = std::fmax(d, std::fabs((double)a.translation.z - b.translation.z));
  const double dot = (double)a.rotation.x * b.rotation.x + (double)a.rotation.y * b.rotation.y +
                     (double)a.rotation.z * b.rotation.z + (double)a.rotation.w * b.rotation.w;
  const double s = dot < 0 ? -1 : 1;
  d = std::fmax(d, std::fabs(a.rotation.x - s * b.rotation.x));
  d = std::fmax(d, std::fabs(a.rotation.y - s * b.rotation.y));
  d = std::fmax(d, std::fabs(a.rotation.z - s * b.rotation.z));
  d = std::fmax(d, std::fabs(a.rotation.w - s * b.rotation.w));
  d = std::fmax(d, std::fabs((double)a.scale.x - b.scale.x));
  return d;
}

double MaxDist(const std::vector<maniTransform>& a, const std::vector<maniTransform>& b) {
  double d = 0;
  for (uint32_t k = 0; k < kBones; ++k) d = std::fmax(d, Dist(a[k], b[k]));
  return d;
}

// Bollo's quintic in binary64, written from the talk's conditions.
double Quintic(double x0, double v0, double t, double t1) {
  if (v0 > 0) v0 = 0;
  if (v0 < 0 && -5 * x0 / v0 < t1) t1 = -5 * x0 / v0;
  if (t >= t1 || x0 <= 0) return 0;
  const double a0 = std::fmax(0.0, (-8 * v0 * t1 - 20 * x0) / (t1 * t1));
  const double A = -(a0 * t1 * t1 + 6 * v0 * t1 + 12 * x0) / (2 * std::pow(t1, 5));
  const double B = (3 * a0 * t1 * t1 + 16 * v0 * t1 + 30 * x0) / (2 * std::pow(t1, 4));
  const double C = -(3 * a0 * t1 * t1 + 12 * v0 * t1 + 20 * x0) / (2 * std::pow(t1, 3));
  return A * std::pow(t, 5) + B * std::pow(t, 4) + C * std::pow(t, 3) + a0 / 2 * t * t + v0 * t + x0;
}

// -- Behaviour --------------------------------------------------------------------

TEST(GraphInertialize, QuinticReferenceMeetsItsEndConditions) {
  // The test's own reference: value x0 and velocity v0 at 0, value,
  // velocity and acceleration 0 at t1 (numerical derivatives).
  const double x0 = 0.7, v0 = -0.4, t1 = 0.5, h = 1e-4;
  EXPECT_NEAR(Quintic(x0, v0, 0, t1), x0, 1e-12);
  EXPECT_NEAR((Quintic(x0, v0, h, t1) - Quintic(x0, v0, 0, t1)) / h, v0, 1e-3);
  EXPECT_NEAR(Quintic(x0, v0, t1 - h, t1), 0, 1e-9);
  EXPECT_NEAR((Quintic(x0, v0, t1 - h, t1) - Quintic(x0, v0, t1 - 2 * h, t1)) / h, 0, 1e-5);
  for (double t = 0; t < t1; t += 0.01) EXPECT_GE(Quintic(x0, v0, t, t1), -1e-12) << t;  // no overshoot
}

TEST(GraphInertialize, ContinuousAtTheFiringThenDecaysToExactlyTheInput) {
  Pair p;
  std::vector<maniTransform> out, input, last;
  for (int k = 0; k < 4; ++k) {
    p.Step(0.0625f, false, &out, &input);
    EXPECT_EQ(Bits(out), Bits(input)) << k;  // idle: its input as it is
    EXPECT_EQ(p.in->View().state, MANI_GRAPH_INERTIALIZE_IDLE);
  }
  last = out;
  p.Step(0.0625f, true, &out, &input);
  ASSERT_GT(MaxDist(input, last), 1e-2);  // the switch jumps
  EXPECT_LT(MaxDist(out, last), 2e-6);    // the node's output does not
  EXPECT_EQ(p.in->View().state, MANI_GRAPH_INERTIALIZE_BLENDING);
  EXPECT_EQ(p.in->View().inertialRemaining, 1.0f);
  EXPECT_EQ(p.View(kFire), 0u);  // consumed
  // Steps of 1/16 s over 0.5 s: blending, then exactly the input.
  for (int k = 1; k <= 12; ++k) {
    p.Step(0.0625f, false, &out, &input);
    const maniGraphNodeView v = p.in->View();
    if (k < 8) {
      EXPECT_EQ(v.state, MANI_GRAPH_INERTIALIZE_BLENDING) << k;
      EXPECT_EQ(v.inertialRemaining, 1.0f - (0.0625f * k) / 0.5f) << k;
      EXPECT_GT(MaxDist(out, input), 0.0) << k;
    } else {
      EXPECT_EQ(v.state, MANI_GRAPH_INERTIALIZE_IDLE) << k;
      EXPECT_EQ(v.inertialRemaining, 0.0f) << k;
      EXPECT_EQ(Bits(out), Bits(input)) << k;
    }
  }
}

TEST(GraphInertialize, InertializationFollowsBollosQuintic) {
  Pair p;
  std::vector<maniTransform> out, input, prev, last;
  for (int k = 0; k < 4; ++k) {
    prev = last;
    p.Step(0.0625f, false, &out, &input);
    last = out;
  }
  p.Step(0.0625f, true, &out, &input);
  // The offset x - y taken against the input at the firing (y), x the last
  // output before it, v = (x - p) / (1/16); at t = 3/16 s the translation is
  // the input then plus dir Quintic(|x - y|, v . dir, t, 0.5).
  const std::vector<maniTransform> yAtFire = input;
  for (int k = 0; k < 3; ++k) p.Step(0.0625f, false, &out, &input);
  const double t = 0.1875;
  for (uint32_t bone = 0; bone < kBones; ++bone) {
    const double ox = (double)last[bone].translation.x - yAtFire[bone].translation.x;
    const double oy = (double)last[bone].translation.y - yAtFire[bone].translation.y;
    const double oz = (double)last[bone].translation.z - yAtFire[bone].translation.z;
    const double x0 = std::sqrt(ox * ox + oy * oy + oz * oz);
    if (x0 < 1e-4) continue;
    const double vx = ((double)last[bone].translation.x - prev[bone].translation.x) / 0.0625;
    const double vy = ((double)last[bone].translation.y - prev[bone].translation.y) / 0.0625;
    const double vz = ((double)last[bone].translation.z - prev[bone].translation.z) / 0.0625;
    const double v0 = (vx * ox + vy * oy + vz * oz) / x0;
    const double m = Quintic(x0, v0, t, 0.5) / x0;
    EXPECT_NEAR(out[bone].translation.x, input[bone].translation.x + ox * m, 1e-4) << bone;
    EXPECT_NEAR(out[bone].translation.y, input[bone].translation.y + oy * m, 1e-4) << bone;
    EXPECT_NEAR(out[bone].translation.z, input[bone].translation.z + oz * m, 1e-4) << bone;
  }
}

// Dead blending's translation at t from the last two outputs and the input,
// for a half-life h (binary64).
void ExpectDeadBlend(float scale, float least, float most, double h, double wrongH) {
  struct Settings {
    float scale, least, most;
  };
  static Settings s;
  s = {scale, least, most};
  Pair d([](Rig& r) {
    r.node.method = maniGraphDeadBlending;
    r.node.halfLifeScale = s.scale;
    r.node.halfLifeMin = s.least;
    r.node.halfLifeMax = s.most;
  });
  std::vector<maniTransform> out, input, prev, last;
  for (int k = 0; k < 4; ++k) {
    prev = last;
    d.Step(0.0625f, false, &out, &input);
    last = out;
  }
  d.Step(0.0625f, true, &out, &input);
  for (int k = 0; k < 2; ++k) d.Step(0.0625f, false, &out, &input);
  const double t = 0.125, sd = t / 0.5, a = sd * sd * (3 - 2 * sd);
  double worst = 0, worstWrong = 0;
  for (uint32_t bone = 0; bone < kBones; ++bone) {
    const float* x = &last[bone].translation.x;
    const float* pv = &prev[bone].translation.x;
    for (int c = 0; c < 3; ++c) {
      const double v = ((double)x[c] - pv[c]) / 0.0625;
      const double k = h / std::log(2.0) * (1 - std::exp2(-t / h));
      const double kw = wrongH / std::log(2.0) * (1 - std::exp2(-t / wrongH));
      const double y = (&input[bone].translation.x)[c];
      const double e = x[c] + v * k, ew = x[c] + v * kw;
      worst = std::fmax(worst, std::fabs((&out[bone].translation.x)[c] - (e + (y - e) * a)));
      worstWrong = std::fmax(worstWrong, std::fabs((&out[bone].translation.x)[c] - (ew + (y - ew) * a)));
    }
  }
  EXPECT_LT(worst, 1e-4) << scale << " " << least << " " << most;
  EXPECT_GT(worstWrong, 1e-3) << scale << " " << least << " " << most;  // the clamp is seen
}

TEST(GraphInertialize, DeadBlendingHalfLifeIsClamped) {
  // duration 0.5: scale 0.3 -> 0.15 inside [0.1, 1]; scale 0.02 -> 0.01
  // held at 0.1; scale 4 -> 2 held at 1 (the unclamped half-life differs).
  ExpectDeadBlend(0.3f, 0.1f, 1.0f, 0.15, 0.5);
  ExpectDeadBlend(0.02f, 0.1f, 1.0f, 0.1, 0.01);
  ExpectDeadBlend(4.0f, 0.1f, 1.0f, 1.0, 0.02);
}

TEST(GraphInertialize, DurationZeroIsACut) {
  for (int method = 0; method < 2; ++method) {
    static int m;
    m = method;
    Pair p([](Rig& r) {
      r.node.duration = 0.0f;
      r.node.method = (maniGraphInertializationMethod)m;
    });
    std::vector<maniTransform> out, input;
    for (int k = 0; k < 3; ++k) p.Step(0.0625f, false, &out, &input);
    p.Step(0.0625f, true, &out, &input);
    EXPECT_EQ(Bits(out), Bits(input)) << method;
    EXPECT_EQ(p.in->View().state, MANI_GRAPH_INERTIALIZE_IDLE) << method;
  }
}

TEST(GraphInertialize, NoTriggerNeverFires) {
  Pair p([](Rig& r) { r.node.parameter = MANI_NO_PARAMETER; });
  std::vector<maniTransform> out, input;
  for (int k = 0; k < 3; ++k) p.Step(0.0625f, false, &out, &input);
  p.Step(0.0625f, true, &out, &input);  // switches the select (its "fire" set but not read)
  EXPECT_EQ(Bits(out), Bits(input));
  EXPECT_EQ(p.in->View().state, MANI_GRAPH_INERTIALIZE_IDLE);
  EXPECT_EQ(p.View(kFire), 1u);  // not the node's: left set
}

TEST(GraphInertialize, EvaluatingAgainWritesTheSamePose) {
  Pair p;
  std::vector<maniTransform> out, input;
  for (int k = 0; k < 3; ++k) p.Step(0.0625f, false, &out, &input);
  p.Step(0.0625f, true, &out, &input);
  p.Step(0.0625f, false, &out, &input);
  EXPECT_EQ(Bits(p.in->Eval()), Bits(out));
  EXPECT_EQ(Bits(p.in->Eval()), Bits(out));
}

TEST(GraphInertialize, SaveMidBlendRestoreAndCopyContinueToTheSameBits) {
  for (int method = 0; method < 2; ++method) {
    static int m;
    m = method;
    Pair p([](Rig& r) { r.node.method = (maniGraphInertializationMethod)m; });
    std::vector<maniTransform> out, input;
    for (int k = 0; k < 3; ++k) p.Step(0.0625f, false, &out, &input);
    p.Step(0.0625f, true, &out, &input);
    p.Step(0.0625f, false, &out, &input);
    const std::vector<uint8_t> saved = p.in->Saved();
    Instance restored(p.r.bound, &p.r.skel.s), copied(p.r.bound, &p.r.skel.s);
    ASSERT_EQ(maniGraphInstance_Restore(restored.i, saved.data(), saved.size()).result, mani_success);
    memcpy(copied.mem.p, p.in->mem.p, p.in->mem.size);
    copied.i = reinterpret_cast<maniGraphInstance*>(copied.mem.p);
    for (int k = 0; k < 10; ++k) {
      p.Step(0.0625f, k == 4, &out, &input);
      if (k == 4) {
        restored.Set(kWhich, maniGraphParameterBool, p.View(kWhich));
        copied.Set(kWhich, maniGraphParameterBool, p.View(kWhich));
        restored.Set(kFire, maniGraphParameterTrigger, 1);
        copied.Set(kFire, maniGraphParameterTrigger, 1);
      }
      restored.Update(0.0625f);
      copied.Update(0.0625f);
      EXPECT_EQ(Bits(restored.Eval()), Bits(out)) << method << " " << k;
      EXPECT_EQ(Bits(copied.Eval()), Bits(out)) << method << " " << k;
    }
    EXPECT_EQ(restored.Saved(), p.in->Saved());
  }
}

TEST(GraphInertialize, SubsetWritesThePlannedBonesAndKeepsTheOthers) {
  Pair p, full;
  std::vector<maniTransform> out, input;
  for (int k = 0; k < 3; ++k) {
    p.Step(0.0625f, false, &out, &input);
    full.Step(0.0625f, false, &out, &input);
  }
  p.Step(0.0625f, true, &out, &input);
  full.Step(0.0625f, true, &out, &input);
  // Both step on; p evaluates a plan of bone 0 alone.
  full.in->Update(0.0625f);
  p.in->Update(0.0625f);
  const std::vector<maniTransform> want = full.in->Eval();
  const std::vector<uint8_t> before = p.in->Saved();
  Mem plan(maniGraphBinding_GetSubsetSize(p.r.bound));
  maniGraphSubset* subset = nullptr;
  const uint32_t bone0 = 0;
  ASSERT_EQ(maniPlanGraphSubset(p.r.bound, &bone0, 1, plan.p, plan.size, &subset), mani_success);
  uint32_t count = 0;
  const uint32_t* planned = maniGraphSubset_GetBones(subset, &count);
  ASSERT_EQ(count, 1u);
  ASSERT_EQ(planned[0], 0u);
  Pose pose(&p.r.skel.s);
  std::vector<maniTransform> rest(kBones);
  ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, kBones, rest.data()), mani_success);
  ASSERT_EQ(maniGraphInstance_EvaluateSubset(p.in->i, subset, p.in->scratch.p, p.in->scratch.size, pose.p),
            mani_success);
  std::vector<maniTransform> got(kBones);
  ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, kBones, got.data()), mani_success);
  EXPECT_EQ(memcmp(&got[0], &want[0], sizeof(maniTransform)), 0);
  for (uint32_t b = 1; b < kBones; ++b) EXPECT_EQ(memcmp(&got[b], &rest[b], sizeof(maniTransform)), 0) << b;
  // The node's block: bones past 0 (160 bytes each after its 32-byte
  // header; the block ends 8 bytes before the state's end) as they were.
  const std::vector<uint8_t> after = p.in->Saved();
  ASSERT_EQ(after.size(), before.size());
  const size_t block = after.size() - 8 - (32 + 160 * kBones);
  EXPECT_EQ(memcmp(after.data() + block + 32 + 160, before.data() + block + 32 + 160, 160 * (kBones - 1)), 0);
  EXPECT_NE(memcmp(after.data() + block + 32, before.data() + block + 32, 160), 0);  // bone 0's moved
}

TEST(GraphInertialize, RestoreChecksTheBlock) {
  Pair p;
  std::vector<maniTransform> out, input;
  for (int k = 0; k < 3; ++k) p.Step(0.0625f, false, &out, &input);
  p.Step(0.0625f, true, &out, &input);
  const std::vector<uint8_t> saved = p.in->Saved();
  const size_t block = saved.size() - 8 - (32 + 160 * kBones);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Bad {
    size_t at;
    uint32_t value;
  };
  const Bad bads[] = {
      {block, 3},                           // phase
      {block + 4, F32(-1.0f)},              // seconds
      {block + 8, F32(nan)},                // the seconds since the last evaluation
      {block + 12, F32(INFINITY)},          // the seconds between its outputs
      {block + 16, 3},                      // outputs
      {block + 20, 2},                      // fresh
      {block + 24, 1},                      // 0
      {block + 32 + 160 * 2 + 8, F32(nan)}, // a bone's output
      {block + 32 + 160 + 12, F32(0.5f)},   // a last output's rotation not unit
  };
  for (const Bad& b : bads) {
    std::vector<uint8_t> forged = saved;
    memcpy(forged.data() + b.at, &b.value, 4);
    Instance fresh(p.r.bound, &p.r.skel.s);
    const std::vector<uint8_t> untouched = fresh.Saved();
    const maniFileResult r = maniGraphInstance_Restore(fresh.i, forged.data(), forged.size());
    EXPECT_EQ(r.result, mani_errorFormat) << b.at - block;
    EXPECT_EQ(r.offset, b.at) << b.at - block;
    EXPECT_EQ(fresh.Saved(), untouched) << b.at - block;
  }
}

// -- Build and open ---------------------------------------------------------------

TEST(GraphInertialize, BuildRefusals) {
  struct Case {
    const char* what;
    void (*change)(Rig&);
    maniBuildReason reason;
    uint64_t other;
  };
  const Case cases[] = {
      {"trigger a float", [](Rig& r) { r.node.parameter = kX; }, maniBuildReasonParameter, 0},
      {"trigger a bool", [](Rig& r) { r.node.parameter = kWhich; }, maniBuildReasonParameter, 0},
      {"trigger past", [](Rig& r) { r.node.parameter = 7; }, maniBuildReasonParameter, 0},
      {"method", [](Rig& r) { r.node.method = (maniGraphInertializationMethod)2; }, maniBuildReasonNode, 1},
      {"duration nan", [](Rig& r) { r.node.duration = std::numeric_limits<float>::quiet_NaN(); },
       maniBuildReasonScalar, 0},
      {"duration below 0", [](Rig& r) { r.node.duration = -0.25f; }, maniBuildReasonScalar, 0},
      {"halfLifeScale infinite", [](Rig& r) { r.node.halfLifeScale = INFINITY; }, maniBuildReasonScalar, 1},
      {"halfLifeScale below 0", [](Rig& r) { r.node.halfLifeScale = -1.0f; }, maniBuildReasonScalar, 1},
      {"halfLifeMin below 0", [](Rig& r) { r.node.halfLifeMin = -0.1f; }, maniBuildReasonScalar, 2},
      {"halfLifeMax nan", [](Rig& r) { r.node.halfLifeMax = std::numeric_limits<float>::quiet_NaN(); },
       maniBuildReasonScalar, 3},
      {"halfLifeMin above max", [](Rig& r) { r.node.halfLifeMin = 2.0f; }, maniBuildReasonScalar, 3},
      {"input a difference", [](Rig& r) { r.clipA = r.clipB = 2; }, maniBuildReasonDifference, 0},
  };
  for (const Case& k : cases) {
    Rig r;
    k.change(r);
    maniGraphSource src = r.Source();
    Builder b;
    const maniBuildResult res = maniBuildGraph(b.b, &src);
    EXPECT_EQ(res.result, mani_errorInvalid) << k.what;
    EXPECT_EQ(res.reason, k.reason) << k.what;
    EXPECT_EQ(res.item, 3u) << k.what;
    EXPECT_EQ(res.other, k.other) << k.what;
  }
  // Two inputs: refused as any kind's count.
  Rig r;
  maniGraphSource src = r.Source();
  r.nodes[3].inputs = r.both;
  r.nodes[3].inputCount = 2;
  Builder b;
  const maniBuildResult res = maniBuildGraph(b.b, &src);
  EXPECT_EQ(res.reason, maniBuildReasonInput);
  EXPECT_EQ(res.item, 3u);
  // Every setting at 0 and no trigger builds (duration 0: a cut).
  Rig z;
  z.node.parameter = MANI_NO_PARAMETER;
  z.node.duration = z.node.halfLifeScale = z.node.halfLifeMin = z.node.halfLifeMax = 0.0f;
  Builder bz;
  EXPECT_EQ(maniBuildGraph(bz.b, &z.Source()).result, mani_success);
}

void Reseal(File& f) {
  const uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindGraph, f.data() + 64, f.size - 64);
  memcpy(f.data() + 32, &id, 8);
}

TEST(GraphInertialize, NodeDataWordsAndTheOpensChecks) {
  Rig r;
  r.node.method = maniGraphDeadBlending;
  r.node.duration = 0.25f;
  r.node.halfLifeScale = 0.5f;
  r.node.halfLifeMin = 0.125f;
  r.node.halfLifeMax = 0.75f;
  r.Build();
  // The directory entry of node 3 and its five words.
  const uint8_t* d = r.file.data();
  const uint64_t entry = r.g.nodeData + 8 * 3;
  EXPECT_EQ(mcore_ReadU32(d + entry + 4), 5u);
  const uint64_t words = r.g.nodeData + 8 * 4 + 4u * mcore_ReadU32(d + entry);
  EXPECT_EQ(mcore_ReadU32(d + words), 1u);
  EXPECT_EQ(mcore_ReadU32(d + words + 4), F32(0.25f));
  EXPECT_EQ(mcore_ReadU32(d + words + 8), F32(0.5f));
  EXPECT_EQ(mcore_ReadU32(d + words + 12), F32(0.125f));
  EXPECT_EQ(mcore_ReadU32(d + words + 16), F32(0.75f));
  const uint64_t rec = r.g.nodes + 32 * 3;
  EXPECT_EQ(mcore_ReadU32(d + rec), (uint32_t)maniGraphNodeInertialize);
  EXPECT_EQ(mcore_ReadU32(d + rec + 24), kFire);
  struct Bad {
    uint64_t at;
    uint32_t value;
    uint64_t offset;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Bad bads[] = {
      {rec + 24, kX, rec + 24},              // the trigger a float
      {rec + 28, F32(1.0f), rec + 28},       // the number word not 0
      {rec + 4, MANI_GRAPH_NODE_DIFFERENCE, rec + 4},  // the node a difference
      {words, 2, words},                     // the method
      {words + 4, F32(nan), words + 4},      // duration
      {words + 8, F32(-1.0f), words + 8},    // halfLifeScale
      {words + 12, F32(INFINITY), words + 12},  // halfLifeMin
      {words + 12, F32(0.875f), words + 16},    // min above max: at max
      {words + 16, F32(-0.5f), words + 16},
      {entry + 4, 4, entry + 4},             // four words
  };
  for (const Bad& b : bads) {
    File f;
    f.Assign(r.file.data(), r.file.size);
    memcpy(f.data() + b.at, &b.value, 4);
    Reseal(f);
    maniGraph g;
    const maniFileResult res = maniOpenGraph(f.data(), f.size, &g);
    EXPECT_EQ(res.result, mani_errorFormat) << b.at;
    EXPECT_EQ(res.offset, b.offset) << b.at;
  }
}

// -- JSON ---------------------------------------------------------------------------

std::string GraphText(const std::string& members) {
  return "{\"format\": \"maul-anim graph\", \"version\": 1, \"parameters\": [{\"name\": \"fire\", \"type\": "
         "\"trigger\"}, {\"name\": \"which\", \"type\": \"bool\"}, {\"name\": \"x\", \"type\": \"float\"}], "
         "\"clips\": [{\"name\": \"a\"}, {\"name\": \"b\"}], \"nodes\": [{\"kind\": \"clip\", \"clip\": \"a\"}, "
         "{\"kind\": \"clip\", \"clip\": \"b\", \"speed\": 1.5}, {\"kind\": \"select\", \"inputs\": [0, 1], "
         "\"parameter\": \"which\"}, {\"kind\": \"inertialize\", \"inputs\": [2]" +
         members + "}], \"output\": 3}";
}

struct Json {
  Rig r;
  maniGraphNamedAssets assets;
  Json() {
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &r.skel.s;
    assets.clips = r.clips.data();
    assets.clipCount = 2;
  }
  maniBuildResult Build(const std::string& text, std::vector<uint8_t>* out = nullptr) {
    Builder b;
    const maniBuildResult res = maniBuildGraphJson(b.b, text.data(), text.size(), &assets);
    if (res.result == mani_success && out != nullptr) {
      File f = b.Built();
      *out = std::vector<uint8_t>(f.data(), f.data() + f.size);
    }
    return res;
  }
  std::vector<uint8_t> FileOf(const std::string& text) {
    std::vector<uint8_t> out;
    EXPECT_EQ(Build(text, &out).result, mani_success) << text;
    return out;
  }
  // The source as built directly (its clips the two the text names).
  std::vector<uint8_t> Direct() {
    maniGraphSource src = r.Source();
    src.clipCount = 2;
    Builder b;
    EXPECT_EQ(maniBuildGraph(b.b, &src).result, mani_success);
    File f = b.Built();
    return std::vector<uint8_t>(f.data(), f.data() + f.size);
  }
};

TEST(GraphInertialize, JsonLeftOutMembersReadAsTheirDefaults) {
  Json j;
  const std::vector<uint8_t> bare = j.FileOf(GraphText(""));
  EXPECT_EQ(bare, j.FileOf(GraphText(", \"method\": \"inertialization\", \"duration\": 0, \"halfLifeScale\": 0.3, "
                                     "\"halfLifeMin\": 0.1, \"halfLifeMax\": 1.0")));
  EXPECT_NE(bare, j.FileOf(GraphText(", \"trigger\": \"fire\"")));
  EXPECT_NE(bare, j.FileOf(GraphText(", \"method\": \"deadBlending\"")));
  EXPECT_NE(bare, j.FileOf(GraphText(", \"duration\": 0.25")));
  EXPECT_NE(bare, j.FileOf(GraphText(", \"halfLifeScale\": 0.5")));
  EXPECT_NE(bare, j.FileOf(GraphText(", \"halfLifeMin\": 0.2")));
  EXPECT_NE(bare, j.FileOf(GraphText(", \"halfLifeMax\": 0.5")));
  // The defaults as the source gives them built directly: trigger none,
  // inertialization, duration 0, 0.3, 0.1, 1.0.
  j.r.node.parameter = MANI_NO_PARAMETER;
  j.r.node.method = maniGraphInertialization;
  j.r.node.duration = 0.0f;
  j.r.node.halfLifeScale = 0.3f;
  j.r.node.halfLifeMin = 0.1f;
  j.r.node.halfLifeMax = 1.0f;
  EXPECT_EQ(bare, j.Direct());
}

TEST(GraphInertialize, JsonWrittenReadAndWrittenAgainIsAFixedPoint) {
  for (int dead = 0; dead < 2; ++dead) {
    Json j;
    j.r.node.method = dead ? maniGraphDeadBlending : maniGraphInertialization;
    j.r.node.duration = 0.375f;
    j.r.node.halfLifeScale = 0.25f;
    j.r.node.halfLifeMin = 0.0625f;
    j.r.node.halfLifeMax = 0.75f;
    if (dead) j.r.node.parameter = MANI_NO_PARAMETER;
    maniGraphSource src = j.r.Source();
    src.clipCount = 2;
    Builder w;
    ASSERT_EQ(maniWriteGraphJson(w.b, &src).result, mani_success);
    File tf = w.Built();
    const std::string text(reinterpret_cast<const char*>(tf.data()), tf.size);
    EXPECT_NE(text.find("\"kind\": \"inertialize\""), std::string::npos) << text;
    EXPECT_NE(text.find(dead ? "\"method\": \"deadBlending\"" : "\"method\": \"inertialization\""),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("\"trigger\": \"fire\"") != std::string::npos, dead == 0) << text;
    EXPECT_EQ(j.FileOf(text), j.Direct()) << text;
    struct Keep {
      std::string text;
    } keep;
    Builder b;
    ASSERT_EQ(mani_ReadGraphJson(
                  b.b, text.data(), text.size(), &j.assets,
                  [](void* user, maniBuilder* builder, const maniGraphSource* read) {
                    maniBuildResult res = maniWriteGraphJson(builder, read);
                    size_t size = 0;
                    if (res.result != mani_success ||
                        maniBuilder_CopyBuilt(builder, nullptr, 0, &size) != mani_errorCapacity)
                      return res;
                    std::string& t = static_cast<Keep*>(user)->text;
                    t.assign(size, '\0');
                    if (maniBuilder_CopyBuilt(builder, &t[0], size, &size) != mani_success) t.clear();
                    return res;
                  },
                  &keep)
                  .result,
              mani_success);
    EXPECT_EQ(keep.text, text);
  }
}

TEST(GraphInertialize, JsonRefusalsAtTheirBytes) {
  Json j;
  struct Case {
    std::string members;
    maniBuildReason reason;
    uint64_t other;
    std::string at;  // the text the offset points at (form refusals)
  };
  const Case cases[] = {
      {", \"trigger\": \"nobody\"", maniBuildReasonForm, maniGraphFormName, "\"nobody\""},
      {", \"trigger\": 3", maniBuildReasonForm, maniGraphFormType, "3}]"},
      {", \"method\": \"blending\"", maniBuildReasonForm, maniGraphFormValue, "\"blending\""},
      {", \"duration\": \"long\"", maniBuildReasonForm, maniGraphFormType, "\"long\""},
      {", \"speed\": 1", maniBuildReasonForm, maniGraphFormMember, "\"speed\""},
      {", \"duration\": -1", maniBuildReasonScalar, 0, ""},
      {", \"halfLifeScale\": -1", maniBuildReasonScalar, 1, ""},
      {", \"halfLifeMin\": -1", maniBuildReasonScalar, 2, ""},
      {", \"halfLifeMin\": 2", maniBuildReasonScalar, 3, ""},
      {", \"trigger\": \"x\"", maniBuildReasonParameter, 0, ""},
  };
  for (const Case& k : cases) {
    const std::string text = GraphText(k.members);
    const maniBuildResult res = j.Build(text);
    EXPECT_EQ(res.result, mani_errorInvalid) << k.members;
    EXPECT_EQ(res.reason, k.reason) << k.members;
    if (k.reason == maniBuildReasonForm) {
      EXPECT_EQ(res.other, k.other) << k.members;
      EXPECT_EQ(res.item, text.rfind(k.at)) << k.members;
    } else {
      EXPECT_EQ(res.item, 3u) << k.members;
      EXPECT_EQ(res.other, k.other) << k.members;
    }
  }
}

// The suite's graphs (maniFixtureMakeInertializeGraph): each builds, and a
// firing with a change beneath blends (remaining strictly between 0 and 1
// an update later), then runs out within its duration.
TEST(GraphInertialize, FixtureGraphsFireBlendAndSettle) {
  Skel skel{57, kBones};
  for (uint32_t k = 0; k < 4; ++k) {
    SCOPED_TRACE(k);
    maniFixtureGraph g;
    ASSERT_TRUE(maniFixtureMakeInertializeGraph(&g, k, &skel.s));
    const uint32_t out = g.graph.nodeCount - 1;
    ASSERT_EQ(maniGraph_GetNodeKind(&g.graph, out), maniGraphNodeInertialize);
    maniGraphAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skel.s;
    assets.clips = g.clipList;
    assets.clipCount = g.clipCount;
    Mem binding(maniGraph_GetBindingSize(&g.graph));
    maniGraphBinding* bound = nullptr;
    ASSERT_EQ(maniBindGraph(&g.graph, &assets, binding.p, binding.size, &bound, nullptr), mani_success);
    Instance in(bound, &skel.s);
    // The offsets are taken by the evaluation after a firing: each update
    // evaluated, as a game plays.
    const auto play = [&](int updates) {
      for (int u = 0; u < updates; ++u) {
        in.Update(1.0f / 30);
        in.Eval();
      }
    };
    play(10);
    EXPECT_EQ(in.View(out).inertialRemaining, 0.0f);
    const uint32_t fire = g.source.parameterCount - 1;
    if (k < 2) in.Set(0, maniGraphParameterBool, 1);
    in.Set(fire, maniGraphParameterTrigger, 1);
    play(2);
    const float remaining = in.View(out).inertialRemaining;
    EXPECT_GT(remaining, 0.0f);
    EXPECT_LT(remaining, 1.0f);
    play(20);  // 0.67 s, past any duration of [0.1, 0.6]
    EXPECT_EQ(in.View(out).inertialRemaining, 0.0f);
    maniFixtureFreeGraph(&g);
  }
}

// A step near 0 between two outputs makes their velocity overflow; the
// bones whose blend is then not finite take their input as it is (graph.h),
// so the pose stays finite, with either method.
TEST(GraphInertialize, VelocityPastTheFloatRangeGivesTheInput) {
  for (uint32_t k = 0; k < 2; ++k) {
    SCOPED_TRACE(k);
    Rig r;
    r.node.method = k ? maniGraphDeadBlending : maniGraphInertialization;
    r.Build();
    Instance in(r.bound, &r.skel.s);
    for (int u = 0; u < 5; ++u) {
      in.Update(1.0f / 30);
      in.Eval();
    }
    in.Update(1e-38f);
    in.Eval();
    in.Set(kWhich, maniGraphParameterBool, 1);
    in.Set(kFire, maniGraphParameterTrigger, 1);
    in.Update(1.0f / 30);
    for (int u = 0; u < 3; ++u) {
      const std::vector<maniTransform> pose = in.Eval();
      for (const maniTransform& t : pose) {
        const float v[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                             t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
        for (float x : v) ASSERT_TRUE(std::isfinite(x));
      }
      in.Update(1.0f / 30);
    }
  }
}

}  // namespace
