// The one-shot node (graphbuild.h's maniGraphNodeSource one-shot members,
// graph.h's update, evaluation, InspectNode, Save and Restore): fired,
// faded in, played, faded out over the end of its span, a fade-out trigger,
// an abort, re-fired from its weight, triggers consumed, the shot's subtree
// restarted, poses against maniSkeleton_BlendPoses at bone weights worked
// out here, root motion shares, save/restore and memcpy copies, subsets,
// every build refusal, the open's checks of its words (resealed as a forger
// would), the restore's checks of its block, and the JSON form.
// Expected weights are worked out by hand (a span of exactly 2 seconds and
// dyadic steps, so exact in binary32), never read back from the runtime.
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
#include "lib/anim/test/fixtures/pose_testing.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/blend.h"
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
  std::vector<uint8_t> Bytes() const { return std::vector<uint8_t>(p, p + size); }
};

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s, maniLoopPolicy loop, maniAdditiveBasis additive = maniAdditiveNone,
       uint32_t flags = MANI_FIXTURE_CLIP_ALL_BONES) {
    maniFixtureClip fc;
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

maniGraphParameterSource Param(const char* name, maniGraphParameterType type) {
  maniGraphParameterSource p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.nameLength = strlen(name);
  p.type = type;
  return p;
}

std::vector<uint8_t> PoseLocals(const maniPose* p) {
  std::vector<maniTransform> t(kBones);
  EXPECT_EQ(maniPose_ReadLocals(p, 0, kBones, t.data()), mani_success);
  std::vector<uint8_t> out(sizeof(maniTransform) * kBones);
  memcpy(out.data(), t.data(), out.size());
  return out;
}

uint32_t F32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

// Parameters by place.
enum : uint32_t { kFire = 0, kOut = 1, kAbort = 2, kX = 3 };

// Nodes: 0 the base clip (repeating, speed 1), 1 the shot clip (clamped, its
// speed half its duration: a span of exactly 2 seconds), 2 the one-shot, the
// output. fadeIn and fadeOut 0.5, linear.
struct Shot {
  Skel skel{41, kBones};
  Clip base{11, &skel.s, maniLoopRepeat}, shot{22, &skel.s, maniLoopClamp}, diff{33, &skel.s, maniLoopClamp,
                                                                                    maniAdditiveRest};
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  std::vector<maniGraphNodeSource> nodes;
  std::vector<maniGraphMaskChain> chains;
  uint32_t in[2] = {0, 1};
  maniGraphSource src;
  File file;
  maniGraph g;
  std::vector<const maniClip*> clipList;
  maniGraphAssets assets;
  Mem binding{0};
  maniGraphBinding* bound = nullptr;
  maniGraphNodeSource node;
  uint32_t baseClip = 0, shotClip = 1;

  Shot() {
    params = {Param("fire", maniGraphParameterTrigger), Param("out", maniGraphParameterTrigger),
              Param("abort", maniGraphParameterTrigger), Param("x", maniGraphParameterFloat)};
    clips = {{"base", 4, &base.c, nullptr}, {"shot", 4, &shot.c, nullptr}, {"diff", 4, &diff.c, nullptr}};
    memset(&node, 0, sizeof node);
    node.kind = maniGraphNodeOneShot;
    node.parameter = kFire;
    node.fadeOutTrigger = kOut;
    node.abortTrigger = kAbort;
    node.curve = maniGraphFadeLinear;
    node.fadeIn = 0.5f;
    node.fadeOut = 0.5f;
  }
  float ShotSpeed() const { return maniClip_GetDuration(&shot.c) / 2.0f; }
  const maniGraphSource& Source() {
    maniGraphNodeSource a, b;
    memset(&a, 0, sizeof a);
    a.kind = maniGraphNodeClip;
    a.clip = baseClip;
    a.speed = 1.0f;
    b = a;
    b.clip = shotClip;
    b.speed = ShotSpeed();
    node.inputs = in;
    node.inputCount = 2;
    node.chains = chains.empty() ? nullptr : chains.data();
    node.chainCount = (uint32_t)chains.size();
    nodes = {a, b, node};
    memset(&src, 0, sizeof src);
    src.skeleton = &skel.s;
    src.parameters = params.data();
    src.parameterCount = (uint32_t)params.size();
    src.clips = clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.nodes = nodes.data();
    src.nodeCount = 3;
    src.output = 2;
    return src;
  }
  void Build() {
    Builder builder;
    ASSERT_EQ(maniBuildGraph(builder.b, &Source()).result, mani_success);
    file = builder.Built();
    Open();
  }
  void Open() {
    ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
    clipList = {&base.c, &shot.c, &diff.c};
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skel.s;
    assets.clips = clipList.data();
    assets.clipCount = 3;
    binding = Mem(maniGraph_GetBindingSize(&g));
    ASSERT_EQ(maniBindGraph(&g, &assets, binding.p, binding.size, &bound, nullptr), mani_success);
  }
  // The mask's bone weights as worked out here: the default, then each
  // chain in order at its bone and (subtree) every bone whose parent chain
  // reaches it.
  std::vector<float> MaskWeights() const {
    std::vector<float> w(kBones, node.masked ? node.defaultWeight : 1.0f);
    if (!node.masked) return w;
    for (const maniGraphMaskChain& c : chains) {
      for (uint32_t bone = 0; bone < kBones; ++bone) {
        bool in = bone == c.bone;
        for (uint32_t p = maniSkeleton_GetParent(&skel.s, bone); c.subtree && !in && p != MANI_NO_BONE;
             p = maniSkeleton_GetParent(&skel.s, p))
          in = p == c.bone;
        if (in) w[bone] = c.weight;
      }
    }
    return w;
  }
};

struct Instance {
  Mem mem{0};
  maniGraphInstance* i = nullptr;
  explicit Instance(const maniGraphBinding* b) : mem(maniGraphBinding_GetInstanceSize(b)) {
    EXPECT_EQ(maniInitGraphInstance(b, mem.p, mem.size, &i), mani_success);
  }
  void Update(float dt = 0.125f, maniRootMove* move = nullptr) {
    ASSERT_EQ(maniGraphInstance_Update(i, dt, nullptr, 0, nullptr, move), mani_success);
  }
  maniGraphNodeView View(uint32_t node = 2) const {
    maniGraphNodeView v;
    EXPECT_EQ(maniGraphInstance_InspectNode(i, node, &v), mani_success);
    return v;
  }
  void Fire(uint32_t p) {
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    v.flag = 1;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, maniGraphParameterTrigger, v), mani_success);
  }
  uint32_t Flag(uint32_t p) const {
    maniGraphValue v;
    EXPECT_EQ(maniGraphInstance_GetParameter(i, p, &v), mani_success);
    return v.flag;
  }
  std::vector<uint8_t> Saved() const {
    size_t size = 0;
    EXPECT_EQ(maniGraphInstance_Save(i, nullptr, 0, &size), mani_errorCapacity);
    std::vector<uint8_t> out(size);
    EXPECT_EQ(maniGraphInstance_Save(i, out.data(), size, &size), mani_success);
    return out;
  }
};

// -- Phases and weights ------------------------------------------------------------

TEST(GraphOneShot, IdleUntilFiredThenFadesInPlaysAndFadesOut) {
  Shot s;
  s.Build();
  Instance in(s.bound);
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_IDLE);  // before any update
  in.Update();
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_IDLE);
  EXPECT_EQ(in.View(0).weight, 1.0f);  // the base: the one-shot's whole weight
  EXPECT_EQ(in.View(1).weight, 0.0f);  // the shot: not weighed
  in.Fire(kFire);
  // After k steps of 1/8 s: fading in to 0.5 s (w = t / 0.5), playing to
  // 1.5 s, fading out over the last 0.5 s (w = 1 - (t - 1.5) / 0.5), idle
  // at 2.
  for (int k = 1; k <= 17; ++k) {
    in.Update();
    const double t = 0.125 * k;
    const double w = t < 0.5 ? t / 0.5 : t < 1.5 ? 1.0 : t < 2.0 ? 1.0 - (t - 1.5) / 0.5 : 0.0;
    const uint32_t phase = t < 0.5    ? MANI_GRAPH_ONESHOT_FADING_IN
                           : t < 1.5  ? MANI_GRAPH_ONESHOT_PLAYING
                           : t < 2.0  ? MANI_GRAPH_ONESHOT_FADING_OUT
                                      : MANI_GRAPH_ONESHOT_IDLE;
    const maniGraphNodeView v = in.View();
    EXPECT_EQ(v.state, phase) << k;
    EXPECT_EQ(v.shotWeight, (float)w) << k;
    EXPECT_EQ(v.shotSeconds, t < 2.0 ? (float)t : 0.0f) << k;
    EXPECT_EQ(in.View(1).weight, (float)w) << k;  // unmasked: own 1 times w
    EXPECT_EQ(in.View(0).weight, 1.0f) << k;      // the base always
    EXPECT_EQ(in.Flag(kFire), 0u);                 // consumed by the first
  }
}

TEST(GraphOneShot, EveryCurveShapesTheFadeIn) {
  const maniGraphFadeCurve curves[] = {maniGraphFadeLinear, maniGraphFadeEaseIn, maniGraphFadeEaseOut,
                                       maniGraphFadeEaseInOut};
  for (maniGraphFadeCurve curve : curves) {
    Shot s;
    s.node.curve = curve;
    s.Build();
    Instance in(s.bound);
    in.Fire(kFire);
    in.Update(0.125f);  // p = 0.25
    const double p = 0.25;
    const double c = curve == maniGraphFadeLinear   ? p
                     : curve == maniGraphFadeEaseIn  ? p * p
                     : curve == maniGraphFadeEaseOut ? p * (2 - p)
                                                     : p * p * (3 - 2 * p);
    EXPECT_EQ(in.View().shotWeight, (float)c) << curve;
    // The fade-out by the same curve: at 1.75 s, q = 0.5, w = 1 - c(0.5).
    for (int k = 0; k < 13; ++k) in.Update(0.125f);
    const double q = 0.5;
    const double cq = curve == maniGraphFadeLinear   ? q
                      : curve == maniGraphFadeEaseIn  ? q * q
                      : curve == maniGraphFadeEaseOut ? q * (2 - q)
                                                      : q * q * (3 - 2 * q);
    EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_FADING_OUT) << curve;
    EXPECT_EQ(in.View().shotWeight, (float)(1.0 - cq)) << curve;
  }
}

TEST(GraphOneShot, NoFadesJumpsToOneAndEndsAtTheSpan) {
  Shot s;
  s.node.fadeIn = 0.0f;
  s.node.fadeOut = 0.0f;
  s.Build();
  Instance in(s.bound);
  in.Fire(kFire);
  in.Update(0.0f);  // a zero step: fired, at 0 seconds, weight 1 at once
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_PLAYING);
  EXPECT_EQ(in.View().shotWeight, 1.0f);
  in.Update(1.875f);
  EXPECT_EQ(in.View().shotWeight, 1.0f);
  in.Update(0.125f);  // 2 s: the span's end
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_IDLE);
  EXPECT_EQ(in.View(1).weight, 0.0f);
}

TEST(GraphOneShot, FadeOutTriggerStartsTheFadeEarly) {
  Shot s;
  s.Build();
  Instance in(s.bound);
  in.Fire(kFire);
  in.Update(0.125f);  // w 0.25
  in.Fire(kOut);
  in.Update(0.125f);  // fade-out from 0.25 at 0.125 s: q = 0.25, w = 0.25 * 0.75
  EXPECT_EQ(in.Flag(kOut), 0u);
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_FADING_OUT);
  EXPECT_EQ(in.View().shotWeight, 0.25f * 0.75f);
  in.Update(0.25f);  // q = 0.75
  EXPECT_EQ(in.View().shotWeight, 0.25f * 0.25f);
  in.Update(0.125f);  // q = 1: idle
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_IDLE);
  EXPECT_EQ(in.View().shotWeight, 0.0f);
  // A fade-out trigger while idle: consumed, nothing starts.
  in.Fire(kOut);
  in.Update();
  EXPECT_EQ(in.Flag(kOut), 0u);
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_IDLE);
}

TEST(GraphOneShot, AbortEndsAtOnceAndWinsOverAFire) {
  Shot s;
  s.Build();
  Instance in(s.bound);
  in.Fire(kFire);
  in.Update(0.75f);
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_PLAYING);
  in.Fire(kAbort);
  in.Update(0.125f);
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_IDLE);
  EXPECT_EQ(in.View(1).weight, 0.0f);
  EXPECT_EQ(in.Flag(kAbort), 0u);
  in.Fire(kFire);
  in.Fire(kAbort);
  in.Update(0.125f);
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_IDLE);
  EXPECT_EQ(in.Flag(kFire), 0u);  // both consumed
  EXPECT_EQ(in.Flag(kAbort), 0u);
}

TEST(GraphOneShot, RefiredRestartsFromItsWeightAndTheShotFromZero) {
  Shot s;
  s.Build();
  Instance in(s.bound);
  in.Fire(kFire);
  in.Update(0.25f);  // w 0.5
  in.Update(1.375f);  // 1.625 s: fading out, w = 1 - 0.125 / 0.5 = 0.75
  EXPECT_EQ(in.View().shotWeight, 0.75f);
  EXPECT_NE(in.View(1).playhead, 0.0f);
  in.Fire(kFire);
  in.Update(0.125f);  // fading in from 0.75: 0.75 + 0.25 * 0.25
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_FADING_IN);
  EXPECT_EQ(in.View().shotWeight, 0.75f + 0.25f * 0.25f);
  EXPECT_EQ(in.View().shotSeconds, 0.125f);
  // The shot restarted: its playhead one step of 1/8 s at its speed.
  EXPECT_EQ(in.View(1).playhead, 0.125f * s.ShotSpeed());
  // The base never restarts.
  EXPECT_EQ(in.View(0).playhead != 0.0f, true);
}

TEST(GraphOneShot, TimeScaleAboveMovesItsSeconds) {
  Shot s;
  s.Source();
  maniGraphNodeSource ts;
  memset(&ts, 0, sizeof ts);
  ts.kind = maniGraphNodeTimeScale;
  uint32_t one = 2;
  ts.inputs = &one;
  ts.inputCount = 1;
  ts.parameter = MANI_NO_PARAMETER;
  ts.factor = -2.0f;
  s.nodes.push_back(ts);
  s.src.nodes = s.nodes.data();
  s.src.nodeCount = 4;
  s.src.output = 3;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  s.file = b.Built();
  s.Open();
  Instance in(s.bound);
  in.Fire(kFire);
  in.Update(0.0625f);  // |0.0625 * -2| = 0.125 s: w 0.25
  EXPECT_EQ(in.View().shotSeconds, 0.125f);
  EXPECT_EQ(in.View().shotWeight, 0.25f);
}

TEST(GraphOneShot, PausedAndItsTriggersKeptWhileUnweighed) {
  // A select (x) of the base clip (0) and the one-shot (2).
  Shot s;
  s.Source();
  maniGraphNodeSource sel;
  memset(&sel, 0, sizeof sel);
  sel.kind = maniGraphNodeSelect;
  uint32_t two[2] = {0, 2};
  sel.inputs = two;
  sel.inputCount = 2;
  sel.parameter = kX;
  s.nodes.push_back(sel);
  s.src.nodes = s.nodes.data();
  s.src.nodeCount = 4;
  s.src.output = 3;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  s.file = b.Built();
  s.Open();
  Instance in(s.bound);
  in.Fire(kFire);
  in.Update();
  EXPECT_EQ(in.Flag(kFire), 1u);  // not read
  EXPECT_EQ(in.View(2).state, MANI_GRAPH_ONESHOT_IDLE);
  maniGraphValue v;
  v.number = 1.0f;
  ASSERT_EQ(maniGraphInstance_SetParameter(in.i, kX, maniGraphParameterFloat, v), mani_success);
  in.Update();
  EXPECT_EQ(in.Flag(kFire), 0u);
  EXPECT_EQ(in.View(2).shotWeight, 0.25f);
  v.number = 0.0f;
  ASSERT_EQ(maniGraphInstance_SetParameter(in.i, kX, maniGraphParameterFloat, v), mani_success);
  in.Update();  // paused
  EXPECT_EQ(in.View(2).shotSeconds, 0.125f);
}

TEST(GraphOneShot, FiringRestartsAMachineShotAtItsEntry) {
  // The shot a machine (place 2) of the shot clip (state 0, its entry) and
  // the base clip (state 1), taking 0 -> 1 on trigger "out" (the one-shot,
  // place 3, has no fade-out trigger here).
  Shot s;
  s.node.fadeOutTrigger = MANI_NO_PARAMETER;
  s.Source();
  maniGraphConditionSource cond;
  memset(&cond, 0, sizeof cond);
  cond.kind = maniGraphConditionTrigger;
  cond.parameter = kOut;
  maniGraphTransitionSource tr;
  memset(&tr, 0, sizeof tr);
  tr.from = 0;
  tr.to = 1;
  tr.conditions = &cond;
  tr.conditionCount = 1;
  maniGraphNodeSource m;
  memset(&m, 0, sizeof m);
  m.kind = maniGraphNodeStateMachine;
  uint32_t states[2] = {1, 0};
  m.inputs = states;
  m.inputCount = 2;
  m.transitions = &tr;
  m.transitionCount = 1;
  uint32_t over[2] = {0, 2};
  maniGraphNodeSource o = s.nodes[2];
  o.inputs = over;
  s.nodes[2] = m;
  s.nodes.push_back(o);
  s.src.nodes = s.nodes.data();
  s.src.nodeCount = 4;
  s.src.output = 3;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  s.file = b.Built();
  s.Open();
  Instance in(s.bound);
  in.Fire(kFire);
  in.Update();
  EXPECT_EQ(in.View(2).state, 0u);
  in.Fire(kOut);
  in.Update();
  EXPECT_EQ(in.View(2).state, 1u);  // the machine moved on
  in.Fire(kFire);
  in.Update();
  EXPECT_EQ(in.View(2).state, 0u);  // restarted at its entry
  EXPECT_EQ(in.View(3).state, MANI_GRAPH_ONESHOT_FADING_IN);
  EXPECT_EQ(in.View(3).shotSeconds, 0.125f);
}

TEST(GraphOneShot, ShotEventsListedAtTheirShare) {
  Skel skel{41, kBones};
  Clip a{11, &skel.s, maniLoopRepeat, maniAdditiveNone, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES};
  Clip b{22, &skel.s, maniLoopClamp, maniAdditiveNone, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES};
  Shot s;
  s.clips[0].clip = &a.c;
  s.clips[1].clip = &b.c;
  s.node.fadeIn = 0.0f;
  s.node.fadeOut = 0.0f;
  maniGraphSource src = s.Source();
  s.nodes[1].speed = 1.0f;
  Builder builder;
  ASSERT_EQ(maniBuildGraph(builder.b, &src).result, mani_success);
  s.file = builder.Built();
  ASSERT_EQ(maniOpenGraph(s.file.data(), s.file.size, &s.g).result, mani_success);
  std::vector<const maniClip*> list = {&a.c, &b.c, &s.diff.c};
  maniGraphAssets assets;
  memset(&assets, 0, sizeof assets);
  assets.skeleton = &s.skel.s;
  assets.clips = list.data();
  assets.clipCount = 3;
  s.binding = Mem(maniGraph_GetBindingSize(&s.g));
  ASSERT_EQ(maniBindGraph(&s.g, &assets, s.binding.p, s.binding.size, &s.bound, nullptr), mani_success);
  const float d = maniClip_GetDuration(&b.c);
  ASSERT_GT(maniClip_GetEventCount(&b.c), 0u);
  Instance in(s.bound);
  std::vector<maniGraphEvent> events(256);
  uint32_t count = 0;
  // Idle: none of the shot's events (its playhead moves, unweighed).
  ASSERT_EQ(maniGraphInstance_Update(in.i, d, events.data(), 256, &count, nullptr), mani_success);
  for (uint32_t e = 0; e < count; ++e) EXPECT_NE(events[e].node, 1u);
  // Fired, half its span: its events from 0 to d / 2 (maniClip_GetEventRange's
  // rule), at the shot's weight 1. (A step of the whole span would end the
  // shot in the update that fired it: weighed 0, no events.)
  in.Fire(kFire);
  ASSERT_EQ(maniGraphInstance_Update(in.i, d / 2, events.data(), 256, &count, nullptr), mani_success);
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_PLAYING);
  uint32_t first = 0, expected = 0;
  maniClip_GetEventRange(&b.c, 0.0f, d / 2, &first, &expected);
  EXPECT_GT(expected, 0u);
  uint32_t shot = 0;
  for (uint32_t e = 0; e < count; ++e) {
    if (events[e].node != 1u) continue;
    EXPECT_EQ(events[e].weight, 1.0f);
    EXPECT_EQ(events[e].event, first + shot);
    shot++;
  }
  EXPECT_EQ(shot, expected);
}

// -- Poses, root motion, events ----------------------------------------------------

// The pose against maniSkeleton_BlendPoses of the clips sampled at the
// playheads the nodes report, by bone weights 1 - w m_i and w m_i.
void ExpectPose(Shot& s, Instance& in, float w) {
  Mem scratch(maniGraphBinding_GetScratchSize(s.bound));
  Pose out(&s.skel.s), expect(&s.skel.s), pb(&s.skel.s), ps(&s.skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(in.i, scratch.p, scratch.size, out.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&s.base.c, &s.skel.s, in.View(0).playhead, pb.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&s.shot.c, &s.skel.s, in.View(1).playhead, ps.p), mani_success);
  const std::vector<float> m = s.MaskWeights();
  std::vector<float> over(kBones), under(kBones);
  for (uint32_t b = 0; b < kBones; ++b) {
    over[b] = w * m[b];
    under[b] = 1.0f - over[b];
  }
  float most = 0.0f;
  for (float x : m) most = x > most ? x : most;
  if (w * most > 0.0f) {
    maniBlendLayer layers[2] = {{pb.p, 1.0f, under.data()}, {ps.p, 1.0f, over.data()}};
    ASSERT_EQ(maniSkeleton_BlendPoses(&s.skel.s, layers, 2, MANI_BLEND_THRESHOLD_MIN, expect.p), mani_success);
    EXPECT_EQ(PoseLocals(out.p), PoseLocals(expect.p));
  } else {
    EXPECT_EQ(PoseLocals(out.p), PoseLocals(pb.p));
  }
  // A subset: the planned bones as Evaluate wrote them.
  const uint32_t bones[2] = {2, 6};
  Mem plan(maniGraphBinding_GetSubsetSize(s.bound));
  maniGraphSubset* sub = nullptr;
  ASSERT_EQ(maniPlanGraphSubset(s.bound, bones, 2, plan.p, plan.size, &sub), mani_success);
  Pose part(&s.skel.s);
  Mem scratch2(maniGraphBinding_GetScratchSize(s.bound));
  ASSERT_EQ(maniGraphInstance_EvaluateSubset(in.i, sub, scratch2.p, scratch2.size, part.p), mani_success);
  uint32_t count = 0;
  const uint32_t* planned = maniGraphSubset_GetBones(sub, &count);
  for (uint32_t k = 0; k < count; ++k) {
    maniTransform a, b;
    ASSERT_EQ(maniPose_ReadLocals(part.p, planned[k], 1, &a), mani_success);
    ASSERT_EQ(maniPose_ReadLocals(out.p, planned[k], 1, &b), mani_success);
    EXPECT_EQ(memcmp(&a, &b, sizeof a), 0) << planned[k];
  }
}

TEST(GraphOneShot, PosesAreTheShotOverTheBaseByItsWeight) {
  for (int masked = 0; masked < 2; ++masked) {
    Shot s;
    if (masked) {
      s.node.masked = true;
      s.node.defaultWeight = 0.25f;
      s.chains = {{3, 0.5f, true}, {5, 1.0f, false}};
    }
    s.Build();
    Instance in(s.bound);
    in.Update();
    ExpectPose(s, in, 0.0f);  // idle: the base as it is
    in.Fire(kFire);
    in.Update(0.125f);
    ExpectPose(s, in, 0.25f);
    in.Update(0.5f);
    ExpectPose(s, in, 1.0f);
    in.Update(1.0f);  // 1.625 s
    ExpectPose(s, in, 0.75f);
    // Masked: the shot's weight times the largest bone weight (1).
    EXPECT_EQ(in.View(1).weight, 0.75f);
  }
}

TEST(GraphOneShot, MaskShareAndRootMotion) {
  // Clips with root motion: the base's by 1 - w r, the shot's by w r (r the
  // mask's weight at the root motion bone, 0).
  Skel skel{41, kBones};
  Clip a{11, &skel.s, maniLoopRepeat, maniAdditiveNone, MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_ALL_BONES};
  Clip b{22, &skel.s, maniLoopRepeat, maniAdditiveNone, MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_ALL_BONES};
  for (int masked = 0; masked < 2; ++masked) {
    Shot s;
    s.clips[0].clip = &a.c;
    s.clips[1].clip = &b.c;
    if (masked) {
      s.node.masked = true;
      s.node.defaultWeight = 0.5f;
      s.chains = {{0, 0.25f, false}};
    }
    s.node.fadeIn = 0.0f;
    maniGraphSource src = s.Source();
    s.nodes[1].speed = 1.0f;
    Builder builder;
    ASSERT_EQ(maniBuildGraph(builder.b, &src).result, mani_success);
    s.file = builder.Built();
    ASSERT_EQ(maniOpenGraph(s.file.data(), s.file.size, &s.g).result, mani_success);
    std::vector<const maniClip*> list = {&a.c, &b.c, &s.diff.c};
    maniGraphAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &s.skel.s;
    assets.clips = list.data();
    assets.clipCount = 3;
    s.binding = Mem(maniGraph_GetBindingSize(&s.g));
    ASSERT_EQ(maniBindGraph(&s.g, &assets, s.binding.p, s.binding.size, &s.bound, nullptr), mani_success);
    Instance in(s.bound);
    in.Update();
    const float pa = in.View(0).playhead;
    in.Fire(kFire);
    maniRootMove move;
    in.Update(0.125f, &move);
    const float w = in.View().shotWeight;
    EXPECT_EQ(w, 1.0f);
    const float r = masked ? 0.25f : 1.0f;
    EXPECT_EQ(in.View(1).weight, masked ? 0.5f : 1.0f);  // w times the largest bone weight
    // Expected: maniBlendRootMotion of the two clips' moves over the step.
    maniRootMove moves[2];
    float weights[2] = {1.0f - w * r, w * r};
    ASSERT_EQ(maniClip_GetRootMotion(&a.c, pa, 0.125f, &moves[0]), mani_success);
    ASSERT_EQ(maniClip_GetRootMotion(&b.c, 0.0f, 0.125f, &moves[1]), mani_success);
    maniRootMove expect = maniMakeRootMoveIdentity();
    if (weights[0] > 0.0f) {
      ASSERT_EQ(maniBlendRootMotion(moves, weights, 2, &expect), mani_success);
    } else {
      ASSERT_EQ(maniBlendRootMotion(moves + 1, weights + 1, 1, &expect), mani_success);
    }
    EXPECT_EQ(memcmp(&move, &expect, sizeof move), 0) << masked;
  }
}

// -- Save, restore, copies ---------------------------------------------------------

TEST(GraphOneShot, SaveRestoreAndCopiesContinueToTheSameBits) {
  Shot s;
  s.node.masked = true;
  s.node.defaultWeight = 0.75f;
  s.chains = {{2, 0.5f, true}};
  s.Build();
  Instance in(s.bound);
  in.Fire(kFire);
  for (int k = 0; k < 3; ++k) in.Update(0.1f);
  const std::vector<uint8_t> saved = in.Saved();
  Instance restored(s.bound), copied(s.bound);
  ASSERT_EQ(maniGraphInstance_Restore(restored.i, saved.data(), saved.size()).result, mani_success);
  memcpy(copied.mem.p, in.mem.p, in.mem.size);
  maniGraphInstance* copy = reinterpret_cast<maniGraphInstance*>(copied.mem.p);
  Mem scratch(maniGraphBinding_GetScratchSize(s.bound));
  for (int k = 0; k < 20; ++k) {
    if (k == 5) {
      in.Fire(kFire);
      restored.Fire(kFire);
      maniGraphValue v;
      v.flag = 1;
      ASSERT_EQ(maniGraphInstance_SetParameter(copy, kFire, maniGraphParameterTrigger, v), mani_success);
    }
    in.Update(0.1f);
    restored.Update(0.1f);
    ASSERT_EQ(maniGraphInstance_Update(copy, 0.1f, nullptr, 0, nullptr, nullptr), mani_success);
    Pose a(&s.skel.s), b(&s.skel.s), c(&s.skel.s);
    ASSERT_EQ(maniGraphInstance_Evaluate(in.i, scratch.p, scratch.size, a.p), mani_success);
    ASSERT_EQ(maniGraphInstance_Evaluate(restored.i, scratch.p, scratch.size, b.p), mani_success);
    ASSERT_EQ(maniGraphInstance_Evaluate(copy, scratch.p, scratch.size, c.p), mani_success);
    EXPECT_EQ(PoseLocals(a.p), PoseLocals(b.p)) << k;
    EXPECT_EQ(PoseLocals(a.p), PoseLocals(c.p)) << k;
    EXPECT_EQ(in.Saved(), restored.Saved()) << k;
  }
}

TEST(GraphOneShot, RestoreChecksEveryWordOfTheBlock) {
  Shot s;
  s.Build();
  Instance in(s.bound);
  in.Fire(kFire);
  in.Update(0.125f);
  // The block: after the header, 4 parameters and 3 nodes (the clips keep no
  // saved block), before the final word.
  const size_t at = 32 + 16 * 4 + 16 * 3;
  std::vector<uint8_t> saved = in.Saved();
  ASSERT_EQ(saved.size(), at + 24 + 8);
  EXPECT_EQ(mcore_ReadU32(saved.data() + at), MANI_GRAPH_ONESHOT_FADING_IN);
  EXPECT_EQ(mcore_ReadF32(saved.data() + at + 4), 0.125f);
  EXPECT_EQ(mcore_ReadF32(saved.data() + at + 20), 0.25f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Bad {
    uint32_t word;
    uint32_t value;
    uint32_t offset;  // inside the block
  };
  const Bad bads[] = {
      {0, 4, 0},                   // a phase past fading out
      {1, F32(nan), 4},            // seconds not finite
      {1, F32(-0.5f), 4},          // below 0
      {2, F32(1.5f), 8},           // a fade-in start weight past 1
      {3, F32(0.0625f), 12},       // a fade-out start while fading in
      {4, F32(0.5f), 16},
      {5, F32(-0.25f), 20},        // a weight below 0
      {5, F32(nan), 20},
  };
  const std::vector<uint8_t> before = in.mem.Bytes();
  for (const Bad& b : bads) {
    std::vector<uint8_t> bad = saved;
    memcpy(bad.data() + at + 4 * b.word, &b.value, 4);
    const maniFileResult r = maniGraphInstance_Restore(in.i, bad.data(), bad.size());
    EXPECT_EQ(r.result, mani_errorFormat) << b.word;
    EXPECT_EQ(r.offset, at + b.offset) << b.word;
    EXPECT_EQ(in.mem.Bytes(), before);
  }
  // Fading out: the start at most the seconds; idle: every word 0.
  std::vector<uint8_t> out = saved;
  uint32_t phase = MANI_GRAPH_ONESHOT_FADING_OUT, late = F32(0.25f);
  memcpy(out.data() + at, &phase, 4);
  memcpy(out.data() + at + 12, &late, 4);
  EXPECT_EQ(maniGraphInstance_Restore(in.i, out.data(), out.size()).offset, at + 12);
  std::vector<uint8_t> idle = saved;
  phase = MANI_GRAPH_ONESHOT_IDLE;
  memcpy(idle.data() + at, &phase, 4);
  EXPECT_EQ(maniGraphInstance_Restore(in.i, idle.data(), idle.size()).offset, at + 4);
  EXPECT_EQ(in.mem.Bytes(), before);
  // And a good fading-out block taken.
  late = F32(0.0625f);
  memcpy(out.data() + at + 12, &late, 4);
  const uint32_t half = F32(0.5f);
  memcpy(out.data() + at + 16, &half, 4);
  EXPECT_EQ(maniGraphInstance_Restore(in.i, out.data(), out.size()).result, mani_success);
  EXPECT_EQ(in.View().state, MANI_GRAPH_ONESHOT_FADING_OUT);
}

// -- Build refusals ------------------------------------------------------------------

TEST(GraphOneShot, BuildRefusals) {
  struct Case {
    const char* what;
    void (*change)(Shot&);
    maniResult result;
    maniBuildReason reason;
    uint64_t other;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  (void)nan;
  const Case cases[] = {
      {"trigger none", [](Shot& s) { s.node.parameter = MANI_NO_PARAMETER; }, mani_errorInvalid,
       maniBuildReasonParameter, 0},
      {"trigger a float", [](Shot& s) { s.node.parameter = kX; }, mani_errorInvalid, maniBuildReasonParameter, 0},
      {"fade-out trigger a float", [](Shot& s) { s.node.fadeOutTrigger = kX; }, mani_errorInvalid,
       maniBuildReasonParameter, 1},
      {"fade-out trigger past", [](Shot& s) { s.node.fadeOutTrigger = 9; }, mani_errorInvalid,
       maniBuildReasonParameter, 1},
      {"abort a float", [](Shot& s) { s.node.abortTrigger = kX; }, mani_errorInvalid, maniBuildReasonParameter, 2},
      {"curve", [](Shot& s) { s.node.curve = (maniGraphFadeCurve)4; }, mani_errorInvalid, maniBuildReasonNode, 1},
      {"fadeIn nan", [](Shot& s) { s.node.fadeIn = std::numeric_limits<float>::quiet_NaN(); }, mani_errorInvalid,
       maniBuildReasonScalar, 0},
      {"fadeIn below 0", [](Shot& s) { s.node.fadeIn = -0.5f; }, mani_errorInvalid, maniBuildReasonScalar, 0},
      {"fadeOut infinite", [](Shot& s) { s.node.fadeOut = INFINITY; }, mani_errorInvalid, maniBuildReasonScalar, 1},
      {"mask default", [](Shot& s) { s.node.masked = true; s.node.defaultWeight = 1.5f; }, mani_errorInvalid,
       maniBuildReasonWeight, 0},
      {"mask chain weight", [](Shot& s) { s.node.masked = true; s.chains = {{1, 0.5f, false}, {2, -1.0f, false}}; },
       mani_errorInvalid, maniBuildReasonWeight, 2},
      {"mask chain bone", [](Shot& s) { s.node.masked = true; s.chains = {{1, 0.5f, false}, {kBones, 0.5f, false}}; },
       mani_errorInvalid, maniBuildReasonJoint, 1},
      {"base a difference", [](Shot& s) { s.baseClip = 2; }, mani_errorInvalid, maniBuildReasonDifference, 0},
      {"shot a difference", [](Shot& s) { s.shotClip = 2; }, mani_errorInvalid, maniBuildReasonDifference, 1},
  };
  for (const Case& k : cases) {
    Shot s;
    k.change(s);
    maniGraphSource src = s.Source();
    Builder b;
    const maniBuildResult r = maniBuildGraph(b.b, &src);
    EXPECT_EQ(r.result, k.result) << k.what;
    EXPECT_EQ(r.reason, k.reason) << k.what;
    EXPECT_EQ(r.item, 2u) << k.what;
    EXPECT_EQ(r.other, k.other) << k.what;
  }
  // The one-shot's input count: 2.
  Shot s;
  maniGraphSource src = s.Source();
  s.nodes[2].inputCount = 1;
  src.nodes = s.nodes.data();
  Builder b;
  const maniBuildResult r = maniBuildGraph(b.b, &src);
  EXPECT_EQ(r.reason, maniBuildReasonInput);
  EXPECT_EQ(r.item, 2u);
  EXPECT_EQ(r.other, 0u);
  // Chains NULL with a count.
  Shot c;
  c.node.masked = true;
  maniGraphSource cs = c.Source();
  c.nodes[2].chainCount = 2;
  c.nodes[2].chains = nullptr;
  cs.nodes = c.nodes.data();
  Builder cb;
  EXPECT_EQ(maniBuildGraph(cb.b, &cs).reason, maniBuildReasonCount);
  // Unmasked, the chains are not read.
  Shot u;
  maniGraphSource us = u.Source();
  u.nodes[2].chainCount = 2;
  u.nodes[2].chains = nullptr;
  u.nodes[2].defaultWeight = 7.0f;
  us.nodes = u.nodes.data();
  Builder ub;
  EXPECT_EQ(maniBuildGraph(ub.b, &us).result, mani_success);
}

// -- The file ----------------------------------------------------------------------

TEST(GraphOneShot, NodeDataWordsAsTheFormatGives) {
  Shot s;
  s.node.masked = true;
  s.node.defaultWeight = 0.25f;
  s.node.curve = maniGraphFadeEaseOut;
  s.node.fadeIn = 0.375f;
  s.node.abortTrigger = MANI_NO_PARAMETER;
  s.chains = {{3, 0.5f, true}};
  s.Build();
  const uint8_t* rec = s.g.bytes + s.g.nodes + 32 * 2;
  EXPECT_EQ(mcore_ReadU32(rec), (uint32_t)maniGraphNodeOneShot);
  EXPECT_EQ(mcore_ReadU32(rec + 4), 0u);     // a pose
  EXPECT_EQ(mcore_ReadU32(rec + 24), kFire);  // the index word: the trigger
  EXPECT_EQ(mcore_ReadU32(rec + 28), 0u);
  EXPECT_EQ(s.g.maskCount, 0u);  // not in the masks section
  const uint8_t* data = s.g.bytes + s.g.nodeData;
  EXPECT_EQ(mcore_ReadU32(data + 16), 0u);
  EXPECT_EQ(mcore_ReadU32(data + 20), 6u + kBones);
  ASSERT_EQ(s.g.nodeDataWords, 6u + kBones);
  const uint8_t* w = data + 24;
  const uint32_t head[] = {kOut, MANI_NO_PARAMETER, maniGraphFadeEaseOut, F32(0.375f), F32(0.5f), 1};
  for (uint32_t k = 0; k < 6; ++k) EXPECT_EQ(mcore_ReadU32(w + 4 * k), head[k]) << k;
  const std::vector<float> m = s.MaskWeights();
  for (uint32_t bone = 0; bone < kBones; ++bone) EXPECT_EQ(mcore_ReadF32(w + 24 + 4 * bone), m[bone]) << bone;
  // Unmasked: the header alone.
  Shot u;
  u.Build();
  EXPECT_EQ(u.g.nodeDataWords, 6u);
}

void Reseal(File& f) {
  const uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindGraph, f.data() + 64, f.size - 64);
  memcpy(f.data() + 32, &id, 8);
}

TEST(GraphOneShot, ResealedWordsRefusedAtTheWord) {
  Shot s;
  s.node.masked = true;
  s.node.defaultWeight = 0.5f;
  s.Build();
  const uint64_t words = s.g.nodeData + 8 * 3;
  const uint64_t rec = s.g.nodes + 32 * 2;
  struct Bad {
    uint64_t at;
    uint32_t value;
    uint64_t offset;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Bad bads[] = {
      {rec + 24, kX, rec + 24},                 // the trigger a float
      {rec + 28, F32(1.0f), rec + 28},          // the number word not 0
      {words, kX, words},                       // the fade-out trigger a float
      {words, 17, words},                       // past the parameters
      {words + 4, kX, words + 4},               // the abort trigger
      {words + 8, 4, words + 8},                // the curve
      {words + 12, F32(nan), words + 12},       // fadeIn
      {words + 12, F32(-1.0f), words + 12},
      {words + 16, F32(INFINITY), words + 16},  // fadeOut
      {words + 20, 2, words + 20},              // masked not 0 or 1
      {words + 20, 0, s.g.nodeData + 8 * 2 + 4},  // unmasked with bone weights: the count
      {words + 24 + 8, F32(1.25f), words + 24 + 8},  // a bone weight past 1
      {s.g.nodeData + 8 * 2 + 4, 5, s.g.nodeData + 8 * 2 + 4},  // fewer words than the header
  };
  for (const Bad& b : bads) {
    File f;
    f.Assign(s.file.data(), s.file.size);
    memcpy(f.data() + b.at, &b.value, 4);
    Reseal(f);
    maniGraph g;
    const maniFileResult r = maniOpenGraph(f.data(), f.size, &g);
    EXPECT_EQ(r.result, mani_errorFormat) << b.at;
    EXPECT_EQ(r.offset, b.offset) << b.at;
  }
  // A base that is a difference (its flag forged): refused at the input.
  File f;
  f.Assign(s.file.data(), s.file.size);
  const uint32_t one = MANI_GRAPH_NODE_DIFFERENCE;
  memcpy(f.data() + s.g.nodes + 4, &one, 4);
  Reseal(f);
  maniGraph g;
  EXPECT_EQ(maniOpenGraph(f.data(), f.size, &g).offset, s.g.inputs);
}

// -- JSON ----------------------------------------------------------------------------

std::string GraphText(const std::string& shot) {
  return "{\"format\": \"maul-anim graph\", \"version\": 1, \"parameters\": [{\"name\": \"fire\", \"type\": "
         "\"trigger\"}, {\"name\": \"out\", \"type\": \"trigger\"}, {\"name\": \"abort\", \"type\": \"trigger\"}, "
         "{\"name\": \"x\", \"type\": \"float\"}], \"clips\": [{\"name\": \"base\"}, {\"name\": \"shot\"}], "
         "\"nodes\": [{\"kind\": \"clip\", \"clip\": \"base\"}, {\"kind\": \"clip\", \"clip\": \"shot\"}, "
         "{\"kind\": \"oneShot\", \"inputs\": [0, 1]" +
         shot + "}], \"output\": 2}";
}

struct Json {
  Shot s;
  maniGraphNamedAssets assets;
  Json() {
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &s.skel.s;
    assets.clips = s.clips.data();
    assets.clipCount = 2;
  }
  maniBuildResult Build(const std::string& text, std::vector<uint8_t>* out = nullptr) {
    Builder b;
    const maniBuildResult r = maniBuildGraphJson(b.b, text.data(), text.size(), &assets);
    if (r.result == mani_success && out != nullptr) {
      File f = b.Built();
      *out = std::vector<uint8_t>(f.data(), f.data() + f.size);
    }
    return r;
  }
  std::vector<uint8_t> FileOf(const std::string& text) {
    std::vector<uint8_t> out;
    EXPECT_EQ(Build(text, &out).result, mani_success) << text;
    return out;
  }
};

TEST(GraphOneShot, JsonLeftOutMembersReadAsTheirDefaults) {
  Json j;
  const std::string t = ", \"trigger\": \"fire\"";
  const std::vector<uint8_t> bare = j.FileOf(GraphText(t));
  EXPECT_EQ(bare, j.FileOf(GraphText(t + ", \"curve\": \"linear\", \"fadeIn\": 0, \"fadeOut\": 0")));
  EXPECT_NE(bare, j.FileOf(GraphText(t + ", \"curve\": \"easeIn\"")));
  EXPECT_NE(bare, j.FileOf(GraphText(t + ", \"fadeIn\": 0.5")));
  EXPECT_NE(bare, j.FileOf(GraphText(t + ", \"fadeOut\": 0.5")));
  EXPECT_NE(bare, j.FileOf(GraphText(t + ", \"fadeOutTrigger\": \"out\"")));
  EXPECT_NE(bare, j.FileOf(GraphText(t + ", \"abort\": \"abort\"")));
  // A mask left out: the whole body; given, its chains and defaultWeight
  // as a mask node's (left out: none and 0).
  const std::vector<uint8_t> masked = j.FileOf(GraphText(t + ", \"mask\": {}"));
  EXPECT_NE(bare, masked);
  EXPECT_EQ(masked, j.FileOf(GraphText(t + ", \"mask\": {\"chains\": [], \"defaultWeight\": 0}")));
  // The same file as the source built directly.
  Shot d;
  d.node.fadeOutTrigger = MANI_NO_PARAMETER;
  d.node.abortTrigger = MANI_NO_PARAMETER;
  d.node.fadeIn = 0.0f;
  d.node.fadeOut = 0.0f;
  maniGraphSource src = d.Source();
  src.clipCount = 2;
  d.nodes[1].speed = 1.0f;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &src).result, mani_success);
  File f = b.Built();
  EXPECT_EQ(bare, std::vector<uint8_t>(f.data(), f.data() + f.size));
}

TEST(GraphOneShot, JsonWrittenReadAndWrittenAgainIsAFixedPoint) {
  for (int masked = 0; masked < 2; ++masked) {
    Json j;
    j.s.node.curve = maniGraphFadeEaseInOut;
    j.s.node.fadeIn = 0.25f;
    j.s.node.fadeOut = 0.75f;
    if (masked) {
      j.s.node.abortTrigger = MANI_NO_PARAMETER;
      j.s.node.masked = true;
      j.s.node.defaultWeight = 0.125f;
      j.s.chains = {{3, 0.5f, true}, {6, 1.0f, false}};
    }
    maniGraphSource src = j.s.Source();
    src.clipCount = 2;
    Builder w;
    ASSERT_EQ(maniWriteGraphJson(w.b, &src).result, mani_success);
    File tf = w.Built();
    const std::string text(reinterpret_cast<const char*>(tf.data()), tf.size);
    EXPECT_NE(text.find("\"kind\": \"oneShot\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"curve\": \"easeInOut\""), std::string::npos) << text;
    EXPECT_EQ(text.find("\"abort\": \"abort\"") != std::string::npos, masked == 0) << text;
    EXPECT_EQ(text.find("\"mask\"") != std::string::npos, masked == 1) << text;
    Builder direct;
    ASSERT_EQ(maniBuildGraph(direct.b, &src).result, mani_success);
    File df = direct.Built();
    EXPECT_EQ(j.FileOf(text), std::vector<uint8_t>(df.data(), df.data() + df.size)) << text;
    struct Keep {
      std::string text;
    } keep;
    Builder b;
    ASSERT_EQ(mani_ReadGraphJson(
                  b.b, text.data(), text.size(), &j.assets,
                  [](void* user, maniBuilder* builder, const maniGraphSource* read) {
                    maniBuildResult r = maniWriteGraphJson(builder, read);
                    size_t size = 0;
                    if (r.result != mani_success ||
                        maniBuilder_CopyBuilt(builder, nullptr, 0, &size) != mani_errorCapacity)
                      return r;
                    std::string& t = static_cast<Keep*>(user)->text;
                    t.assign(size, '\0');
                    if (maniBuilder_CopyBuilt(builder, &t[0], size, &size) != mani_success) t.clear();
                    return r;
                  },
                  &keep)
                  .result,
              mani_success);
    EXPECT_EQ(keep.text, text);
  }
}

TEST(GraphOneShot, JsonRefusalsAtTheirBytes) {
  Json j;
  struct Case {
    std::string members;
    maniBuildReason reason;
    uint64_t other;
    std::string at;  // the text the offset points at ("" for the node object)
  };
  const Case cases[] = {
      {"", maniBuildReasonForm, maniGraphFormMissing, "{\"kind\": \"oneShot\""},
      {", \"trigger\": \"nobody\"", maniBuildReasonForm, maniGraphFormName, "\"nobody\""},
      {", \"trigger\": \"fire\", \"curve\": \"wobbly\"", maniBuildReasonForm, maniGraphFormValue, "\"wobbly\""},
      {", \"trigger\": \"fire\", \"fadeOutTrigger\": \"gone\"", maniBuildReasonForm, maniGraphFormName, "\"gone\""},
      {", \"trigger\": \"fire\", \"abort\": 3", maniBuildReasonForm, maniGraphFormType, "3}"},
      {", \"trigger\": \"fire\", \"mask\": {\"chains\": [{\"bone\": \"nobone\", \"weight\": 1}]}",
       maniBuildReasonForm, maniGraphFormName, "\"nobone\""},
      {", \"trigger\": \"fire\", \"mask\": {\"weight\": 1}", maniBuildReasonForm, maniGraphFormMember, "\"weight\""},
      {", \"trigger\": \"fire\", \"speed\": 1", maniBuildReasonForm, maniGraphFormMember, "\"speed\""},
      {", \"trigger\": \"fire\", \"fadeIn\": -1", maniBuildReasonScalar, 0, ""},
      {", \"trigger\": \"x\"", maniBuildReasonParameter, 0, ""},
      {", \"trigger\": \"fire\", \"mask\": {\"defaultWeight\": 2}", maniBuildReasonWeight, 0, ""},
  };
  for (const Case& k : cases) {
    const std::string text = GraphText(k.members);
    const maniBuildResult r = j.Build(text);
    EXPECT_EQ(r.result, mani_errorInvalid) << k.members;
    EXPECT_EQ(r.reason, k.reason) << k.members;
    if (k.reason == maniBuildReasonForm) {
      EXPECT_EQ(r.other, k.other) << k.members;
      EXPECT_EQ(r.item, text.rfind(k.at)) << k.members;
    } else {
      EXPECT_EQ(r.item, 2u) << k.members;
      EXPECT_EQ(r.other, k.other) << k.members;
    }
  }
}

}  // namespace
