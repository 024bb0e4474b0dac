// The state machine node (graphbuild.h's maniGraphTransitionSource and
// maniGraphConditionSource, graph.h's update, evaluation, InspectNode, Save
// and Restore): every condition kind, triggers consumed, priorities, any
// state transitions, interruption, cooldowns, chain limits, finals, entry
// modes, fade curves, the weights shared down to the current and fading
// states, save/restore and memcpy copies continuing to the same bits, every
// build refusal, the open's checks of the node data words (resealed as a
// forger would) and the restore's checks of the machine's state block.
// Expected weights are worked out by hand from the curves (dyadic steps, so
// exact in binary32), never read back from the runtime.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/blend.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"

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
  std::vector<uint8_t> Bytes() const { return std::vector<uint8_t>(p, p + size); }
};

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s) {
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, seed, s, 0, maniLoopRepeat, maniAdditiveNone);
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

maniGraphNodeSource ClipNode(uint32_t clip, float speed) {
  maniGraphNodeSource n;
  memset(&n, 0, sizeof n);
  n.kind = maniGraphNodeClip;
  n.clip = clip;
  n.speed = speed;
  return n;
}

maniGraphConditionSource Cond(maniGraphConditionKind kind, uint32_t parameter = MANI_NO_PARAMETER,
                              float value = 0.0f) {
  maniGraphConditionSource c;
  memset(&c, 0, sizeof c);
  c.kind = kind;
  c.parameter = parameter;
  c.value = value;
  return c;
}

// Parameters by place.
enum : uint32_t { kSpeed = 0, kFlag = 1, kGo = 2, kGo2 = 3, kGo3 = 4, kBack = 5 };

struct Transition {
  maniGraphTransitionSource t;
  std::vector<maniGraphConditionSource> conditions;
};

Transition Tr(uint32_t from, uint32_t to, std::vector<maniGraphConditionSource> conditions, float duration = 0.0f) {
  Transition t;
  memset(&t.t, 0, sizeof t.t);
  t.t.from = from;
  t.t.to = to;
  t.t.duration = duration;
  t.conditions = conditions;
  return t;
}

// Clips a, b, c (source places 0-2, speeds given) and a machine of them
// (place 3) the output; or, nested, an inner machine of a and b (place 3)
// and an outer machine of the inner and c (place 4).
struct Machine {
  Skel skel{41, 9};
  Clip a{11, &skel.s}, b{22, &skel.s}, c{33, &skel.s};
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  std::vector<maniGraphNodeSource> nodes;
  std::vector<Transition> transitions, innerTransitions;
  std::vector<uint32_t> finals, innerFinals;
  uint32_t states[3] = {0, 1, 2}, innerStates[2] = {0, 1}, outerStates[2] = {3, 2};
  std::vector<maniGraphTransitionSource> flat, innerFlat;
  maniGraphSource src;
  File file;
  maniGraph g;
  std::vector<const maniClip*> clipList;
  maniGraphAssets assets;
  Mem binding{0};
  maniGraphBinding* bound = nullptr;
  bool nested = false;
  uint32_t chainLimit = 0, entry = 0;

  Machine() {
    params = {Param("speed", maniGraphParameterFloat), Param("flag", maniGraphParameterBool),
              Param("go", maniGraphParameterTrigger),  Param("go2", maniGraphParameterTrigger),
              Param("go3", maniGraphParameterTrigger), Param("back", maniGraphParameterTrigger)};
    clips = {{"a", 1, &a.c, nullptr}, {"b", 1, &b.c, nullptr}, {"c", 1, &c.c, nullptr}};
    nodes = {ClipNode(0, 1.0f), ClipNode(1, 1.0f), ClipNode(2, 1.0f)};
  }
  static std::vector<maniGraphTransitionSource> Flatten(std::vector<Transition>& list) {
    std::vector<maniGraphTransitionSource> out;
    for (Transition& t : list) {
      t.t.conditions = t.conditions.empty() ? nullptr : t.conditions.data();
      t.t.conditionCount = (uint32_t)t.conditions.size();
      out.push_back(t.t);
    }
    return out;
  }
  // The source (pointers made fresh); nodes past the clips rebuilt.
  const maniGraphSource& Source() {
    nodes.resize(3);
    flat = Flatten(transitions);
    innerFlat = Flatten(innerTransitions);
    maniGraphNodeSource m;
    memset(&m, 0, sizeof m);
    m.kind = maniGraphNodeStateMachine;
    if (nested) {
      maniGraphNodeSource inner = m;
      inner.inputs = innerStates;
      inner.inputCount = 2;
      inner.transitions = innerFlat.empty() ? nullptr : innerFlat.data();
      inner.transitionCount = (uint32_t)innerFlat.size();
      inner.finals = innerFinals.empty() ? nullptr : innerFinals.data();
      inner.finalCount = (uint32_t)innerFinals.size();
      nodes.push_back(inner);
      m.inputs = outerStates;
      m.inputCount = 2;
    } else {
      m.inputs = states;
      m.inputCount = 3;
    }
    m.entry = entry;
    m.chainLimit = chainLimit;
    m.transitions = flat.empty() ? nullptr : flat.data();
    m.transitionCount = (uint32_t)flat.size();
    m.finals = finals.empty() ? nullptr : finals.data();
    m.finalCount = (uint32_t)finals.size();
    nodes.push_back(m);
    memset(&src, 0, sizeof src);
    src.skeleton = &skel.s;
    src.parameters = params.data();
    src.parameterCount = (uint32_t)params.size();
    src.clips = clips.data();
    src.clipCount = 3;
    src.nodes = nodes.data();
    src.nodeCount = (uint32_t)nodes.size();
    src.output = src.nodeCount - 1;
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
    // The file keeps the source's order (each node after its inputs already).
    for (uint32_t n = 0; n < maniGraph_GetNodeCount(&g); ++n) ASSERT_EQ(maniGraph_GetNodeSourcePlace(&g, n), n);
    clipList = {&a.c, &b.c, &c.c};
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skel.s;
    assets.clips = clipList.data();
    assets.clipCount = 3;
    binding = Mem(maniGraph_GetBindingSize(&g));
    ASSERT_EQ(maniBindGraph(&g, &assets, binding.p, binding.size, &bound, nullptr), mani_success);
  }
  uint32_t Output() const { return src.nodeCount - 1; }
};

struct Instance {
  Mem mem{0};
  maniGraphInstance* i = nullptr;
  explicit Instance(const maniGraphBinding* b) : mem(maniGraphBinding_GetInstanceSize(b)) {
    EXPECT_EQ(maniInitGraphInstance(b, mem.p, mem.size, &i), mani_success);
  }
  void Update(float dt) { ASSERT_EQ(maniGraphInstance_Update(i, dt, nullptr, 0, nullptr, nullptr), mani_success); }
  maniGraphNodeView View(uint32_t node) const {
    maniGraphNodeView v;
    EXPECT_EQ(maniGraphInstance_InspectNode(i, node, &v), mani_success);
    return v;
  }
  float Weight(uint32_t node) const { return View(node).weight; }
  void Set(uint32_t p, uint32_t flag) { SetTyped(p, p == kFlag ? maniGraphParameterBool : maniGraphParameterTrigger, flag); }
  void SetTyped(uint32_t p, maniGraphParameterType type, uint32_t flag) {
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    v.flag = flag;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, type, v), mani_success);
  }
  void SetFloat(uint32_t p, float f) {
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    v.number = f;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, maniGraphParameterFloat, v), mani_success);
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

// -- Entry, conditions, triggers ----------------------------------------------------

TEST(GraphMachine, StartsInItsEntryWithItsWholeWeight) {
  Machine m;
  m.entry = 2;
  m.Build();
  Instance in(m.bound);
  maniGraphNodeView v = in.View(3);
  EXPECT_EQ(v.kind, maniGraphNodeStateMachine);
  EXPECT_EQ(v.state, 2u);  // before any update: the entry
  EXPECT_EQ(v.transition, MANI_GRAPH_NONE);
  in.Update(0.125f);
  EXPECT_EQ(in.Weight(2), 1.0f);
  EXPECT_EQ(in.Weight(0), 0.0f);
  EXPECT_EQ(in.Weight(1), 0.0f);
  // Another kind's view: no state.
  EXPECT_EQ(in.View(0).state, MANI_GRAPH_NONE);
  EXPECT_EQ(in.View(0).transition, MANI_GRAPH_NONE);
}

TEST(GraphMachine, EveryComparisonAtItsBoundary) {
  struct Case {
    maniGraphConditionKind kind;
    float value;  // the parameter's
    bool taken;
  };
  const Case cases[] = {
      {maniGraphConditionGreater, 0.5f, false},     {maniGraphConditionGreater, 0.75f, true},
      {maniGraphConditionGreater, 0.25f, false},    {maniGraphConditionLess, 0.25f, true},
      {maniGraphConditionLess, 0.5f, false},        {maniGraphConditionGreaterEqual, 0.5f, true},
      {maniGraphConditionGreaterEqual, 0.25f, false}, {maniGraphConditionLessEqual, 0.5f, true},
      {maniGraphConditionLessEqual, 0.75f, false},  {maniGraphConditionEqual, 0.5f, true},
      {maniGraphConditionEqual, 0.75f, false},      {maniGraphConditionNotEqual, 0.5f, false},
      {maniGraphConditionNotEqual, 0.25f, true},
  };
  for (const Case& k : cases) {
    Machine m;
    m.transitions = {Tr(0, 1, {Cond(k.kind, kSpeed, 0.5f)})};
    m.Build();
    Instance in(m.bound);
    in.SetFloat(kSpeed, k.value);
    in.Update(0.125f);
    EXPECT_EQ(in.View(3).state, k.taken ? 1u : 0u) << k.kind << " " << k.value;
    EXPECT_EQ(in.Weight(1), k.taken ? 1.0f : 0.0f);  // duration 0: at once
    EXPECT_EQ(in.View(3).transition, MANI_GRAPH_NONE);
  }
}

TEST(GraphMachine, BoolConditions) {
  for (int kind = 0; kind < 2; ++kind) {
    for (uint32_t flag = 0; flag < 2; ++flag) {
      Machine m;
      m.transitions = {Tr(0, 1, {Cond(kind == 0 ? maniGraphConditionTrue : maniGraphConditionFalse, kFlag)})};
      m.Build();
      Instance in(m.bound);
      in.Set(kFlag, flag);
      in.Update(0.125f);
      EXPECT_EQ(in.View(3).state, (kind == 0) == (flag == 1) ? 1u : 0u);
      EXPECT_EQ(in.Flag(kFlag), flag);  // a bool is never consumed
    }
  }
}

TEST(GraphMachine, TriggersConsumedOnlyByTheTransitionTaken) {
  Machine m;
  m.transitions = {Tr(0, 1, {Cond(maniGraphConditionTrigger, kGo), Cond(maniGraphConditionGreater, kSpeed, 0.5f)})};
  m.Build();
  Instance in(m.bound);
  in.Set(kGo, 1);
  in.Update(0.125f);
  EXPECT_EQ(in.View(3).state, 0u);
  EXPECT_EQ(in.Flag(kGo), 1u);  // not taken: kept
  in.SetFloat(kSpeed, 1.0f);
  in.Update(0.125f);
  EXPECT_EQ(in.View(3).state, 1u);
  EXPECT_EQ(in.Flag(kGo), 0u);  // taken: consumed
}

TEST(GraphMachine, TimeInTheSourceState) {
  Machine m;
  m.transitions = {Tr(0, 1, {Cond(maniGraphConditionTime, MANI_NO_PARAMETER, 0.3f)})};
  m.Build();
  Instance in(m.bound);
  // Seconds in the state before each update: 0, 0.125, 0.25, 0.375.
  for (int u = 1; u <= 3; ++u) {
    in.Update(0.125f);
    EXPECT_EQ(in.View(3).state, 0u) << u;
  }
  in.Update(0.125f);
  EXPECT_EQ(in.View(3).state, 1u);
  // A negative step moves the machine's time forward too (its magnitude).
  Machine n;
  n.transitions = {Tr(0, 1, {Cond(maniGraphConditionTime, MANI_NO_PARAMETER, 0.2f)})};
  n.Build();
  Instance back(n.bound);
  back.Update(-0.125f);
  back.Update(-0.125f);
  EXPECT_EQ(back.View(3).state, 0u);
  back.Update(-0.125f);
  EXPECT_EQ(back.View(3).state, 1u);
}

TEST(GraphMachine, ExitTimeOverTheStateSpan) {
  // Clip a at speed 2: its span is its duration over 2.
  Machine m;
  m.transitions = {Tr(0, 1, {Cond(maniGraphConditionExitTime, MANI_NO_PARAMETER, 0.5f)})};
  m.Source();
  m.nodes[0].speed = 2.0f;
  Builder builder;
  // Source() rebuilds nodes past the clips only, so the speed stays.
  ASSERT_EQ(maniBuildGraph(builder.b, &m.Source()).result, mani_success);
  m.file = builder.Built();
  m.Open();
  const float span = maniClip_GetDuration(&m.a.c) / 2.0f;
  ASSERT_GT(span, 0.0f);
  Instance in(m.bound);
  const float dt = 1.0f / 64.0f;
  float t = 0.0f;
  int expected = -1;
  for (int u = 0; u < 10000 && expected < 0; ++u) {
    if (t / span >= 0.5f) expected = u;
    t += dt;
  }
  ASSERT_GT(expected, 0);
  for (int u = 0; u < expected; ++u) {
    in.Update(dt);
    ASSERT_EQ(in.View(3).state, 0u) << u;
  }
  in.Update(dt);
  EXPECT_EQ(in.View(3).state, 1u);
}

// -- Priorities, any state, finals -----------------------------------------------------

TEST(GraphMachine, HighestPriorityThenEarliest) {
  {
    Machine m;
    m.transitions = {Tr(0, 1, {}), Tr(0, 2, {})};
    m.transitions[0].t.priority = 1;
    m.transitions[1].t.priority = 2;
    m.Build();
    Instance in(m.bound);
    in.Update(0.125f);
    EXPECT_EQ(in.View(3).state, 2u);
  }
  {
    Machine m;
    m.transitions = {Tr(0, 1, {}), Tr(0, 2, {})};
    m.transitions[0].t.priority = 1;
    m.transitions[1].t.priority = 1;
    m.Build();
    Instance in(m.bound);
    in.Update(0.125f);
    EXPECT_EQ(in.View(3).state, 1u);
  }
  {
    // A transition out of another state never competes.
    Machine m;
    m.transitions = {Tr(1, 2, {}), Tr(0, 1, {Cond(maniGraphConditionTrigger, kGo)})};
    m.Build();
    Instance in(m.bound);
    in.Update(0.125f);
    EXPECT_EQ(in.View(3).state, 0u);
  }
}

TEST(GraphMachine, AnyStateTransitionsButToItself) {
  Machine m;
  m.transitions = {Tr(MANI_GRAPH_NONE, 2, {Cond(maniGraphConditionTrigger, kGo)})};
  m.Build();
  Instance in(m.bound);
  in.Set(kGo, 1);
  in.Update(0.125f);
  EXPECT_EQ(in.View(3).state, 2u);
  EXPECT_EQ(in.Flag(kGo), 0u);
  in.Set(kGo, 1);
  in.Update(0.125f);
  EXPECT_EQ(in.View(3).state, 2u);
  EXPECT_EQ(in.Flag(kGo), 1u);  // not taken into its own destination: kept
}

TEST(GraphMachine, FinalsTakeNoTransition) {
  Machine m;
  m.finals = {1};
  m.transitions = {Tr(0, 1, {}), Tr(1, 0, {}), Tr(MANI_GRAPH_NONE, 2, {})};
  m.transitions[0].t.priority = 5;  // over the any-state one
  m.Build();
  Instance in(m.bound);
  in.Update(0.125f);
  EXPECT_EQ(in.View(3).state, 1u);
  for (int u = 0; u < 4; ++u) {
    in.Update(0.125f);
    EXPECT_EQ(in.View(3).state, 1u);
  }
}

TEST(GraphMachine, FinishedNestedMachineAndRestartToItsEntry) {
  for (int mode = 0; mode < 2; ++mode) {
    Machine m;
    m.nested = true;
    m.innerFinals = {1};
    m.innerTransitions = {Tr(0, 1, {Cond(maniGraphConditionTrigger, kGo)}), Tr(1, 0, {})};
    m.transitions = {Tr(0, 1, {Cond(maniGraphConditionFinished)}), Tr(1, 0, {Cond(maniGraphConditionTrigger, kBack)})};
    m.transitions[1].t.entry = mode == 0 ? maniGraphEntryRestart : maniGraphEntryContinue;
    m.Build();
    Instance in(m.bound);
    in.Update(0.125f);
    EXPECT_EQ(in.View(4).state, 0u);
    EXPECT_EQ(in.View(3).state, 0u);
    in.Set(kGo, 1);
    in.Update(0.125f);  // the inner reaches its final; the outer saw it before
    EXPECT_EQ(in.View(3).state, 1u);
    EXPECT_EQ(in.View(4).state, 0u);
    in.Update(0.125f);
    EXPECT_EQ(in.View(4).state, 1u);
    EXPECT_EQ(in.Weight(2), 1.0f);
    EXPECT_EQ(in.Weight(3), 0.0f);
    in.Update(0.125f);
    EXPECT_EQ(in.View(3).state, 1u);  // unweighed: paused in its final
    in.Set(kBack, 1);
    in.Update(0.125f);
    EXPECT_EQ(in.View(4).state, 0u);
    // Restart: the inner back at its entry; continue: still in its final.
    EXPECT_EQ(in.View(3).state, mode == 0 ? 0u : 1u);
    EXPECT_EQ(in.Weight(mode == 0 ? 0 : 1), 1.0f);
  }
}

// -- Entry modes, fades ------------------------------------------------------------------

// A playhead moved as graph.h says (a repeating clip wraps).
float Advance(const maniClip* c, float from, float step) {
  const float d = maniClip_GetDuration(c);
  double t = (double)from + (double)step;
  while (t >= d) t -= d;
  float f = (float)t;
  return f >= d ? 0.0f : f;
}

TEST(GraphMachine, RestartOrContinueTheDestination) {
  for (int mode = 0; mode < 2; ++mode) {
    Machine m;
    m.transitions = {Tr(0, 1, {Cond(maniGraphConditionTrigger, kGo)})};
    m.transitions[0].t.entry = mode == 0 ? maniGraphEntryRestart : maniGraphEntryContinue;
    m.Build();
    Instance in(m.bound);
    const float dt = 0.125f;
    float b = 0.0f;
    for (int u = 0; u < 3; ++u) {
      in.Update(dt);
      b = Advance(&m.b.c, b, dt);  // clips move weighed or not
    }
    EXPECT_EQ(in.View(1).playhead, b);
    in.Set(kGo, 1);
    in.Update(dt);
    EXPECT_EQ(in.View(3).state, 1u);
    EXPECT_EQ(in.View(1).playhead, mode == 0 ? Advance(&m.b.c, 0.0f, dt) : Advance(&m.b.c, b, dt));
  }
}

float Curve(maniGraphFadeCurve c, float p) {
  switch (c) {
    case maniGraphFadeEaseIn: return p * p;
    case maniGraphFadeEaseOut: return 1.0f - (1.0f - p) * (1.0f - p);
    case maniGraphFadeEaseInOut: return 3.0f * p * p - 2.0f * p * p * p;  // smoothstep
    default: return p;
  }
}

TEST(GraphMachine, FadesByTheirCurvesThenSettle) {
  for (maniGraphFadeCurve curve :
       {maniGraphFadeLinear, maniGraphFadeEaseIn, maniGraphFadeEaseOut, maniGraphFadeEaseInOut}) {
    Machine m;
    m.transitions = {Tr(0, 1, {Cond(maniGraphConditionTrigger, kGo)}, 0.5f)};
    m.transitions[0].t.fade = curve;
    m.Build();
    Instance in(m.bound);
    in.Set(kGo, 1);
    for (int u = 1; u <= 3; ++u) {
      in.Update(0.125f);
      const float p = 0.25f * (float)u;  // the fade's progress after the update
      EXPECT_EQ(in.Weight(1), Curve(curve, p)) << curve << " " << u;
      EXPECT_EQ(in.Weight(0), 1.0f - Curve(curve, p)) << curve << " " << u;
      EXPECT_EQ(in.View(3).state, 1u);
      EXPECT_EQ(in.View(3).transition, 0u);
    }
    in.Update(0.125f);
    EXPECT_EQ(in.Weight(1), 1.0f);
    EXPECT_EQ(in.Weight(0), 0.0f);
    EXPECT_EQ(in.View(3).transition, MANI_GRAPH_NONE);
  }
}

TEST(GraphMachine, EvaluatesTheFadingStatesBlend) {
  Machine m;
  m.transitions = {Tr(0, 1, {Cond(maniGraphConditionTrigger, kGo)}, 0.5f)};
  m.Build();
  Instance in(m.bound);
  in.Update(0.25f);
  in.Set(kGo, 1);
  in.Update(0.125f);  // B at 0.25 of its fade
  Mem scratch(maniGraphBinding_GetScratchSize(m.bound));
  const size_t poseSize = maniSkeleton_GetPoseSize(&m.skel.s);
  Mem out(poseSize), pa(poseSize), pb(poseSize), blended(poseSize);
  maniPose *po = nullptr, *ppa = nullptr, *ppb = nullptr, *pbl = nullptr;
  ASSERT_EQ(maniInitPose(&m.skel.s, out.p, poseSize, &po), mani_success);
  ASSERT_EQ(maniInitPose(&m.skel.s, pa.p, poseSize, &ppa), mani_success);
  ASSERT_EQ(maniInitPose(&m.skel.s, pb.p, poseSize, &ppb), mani_success);
  ASSERT_EQ(maniInitPose(&m.skel.s, blended.p, poseSize, &pbl), mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(in.i, scratch.p, scratch.size, po), mani_success);
  ASSERT_EQ(maniClip_Sample(&m.a.c, &m.skel.s, in.View(0).playhead, ppa), mani_success);
  ASSERT_EQ(maniClip_Sample(&m.b.c, &m.skel.s, in.View(1).playhead, ppb), mani_success);
  maniBlendLayer layers[2] = {{ppa, 0.75f, nullptr}, {ppb, 0.25f, nullptr}};
  ASSERT_EQ(maniSkeleton_BlendPoses(&m.skel.s, layers, 2, MANI_BLEND_THRESHOLD_MIN, pbl), mani_success);
  const uint32_t bones = maniSkeleton_GetBoneCount(&m.skel.s);
  std::vector<maniTransform> got(bones), want(bones);
  ASSERT_EQ(maniPose_ReadLocals(po, 0, bones, got.data()), mani_success);
  ASSERT_EQ(maniPose_ReadLocals(pbl, 0, bones, want.data()), mani_success);
  for (uint32_t k = 0; k < bones; ++k) {
    EXPECT_NEAR(got[k].translation.x, want[k].translation.x, 1e-5f);
    EXPECT_NEAR(got[k].translation.y, want[k].translation.y, 1e-5f);
    // The same rotation (a blend's sign follows its first layer's).
    const maniQuat& q = got[k].rotation;
    const maniQuat& r = want[k].rotation;
    const float sign = q.x * r.x + q.y * r.y + q.z * r.z + q.w * r.w < 0.0f ? -1.0f : 1.0f;
    EXPECT_NEAR(q.x * sign, r.x, 1e-5f);
    EXPECT_NEAR(q.y * sign, r.y, 1e-5f);
    EXPECT_NEAR(q.z * sign, r.z, 1e-5f);
    EXPECT_NEAR(q.w * sign, r.w, 1e-5f);
    EXPECT_NEAR(got[k].scale.z, want[k].scale.z, 1e-5f);
  }
}

// -- Interruption, chain limits, cooldowns ---------------------------------------------

// A to B (go), B to C (go2), A to C (go3), each over 1 s; B's fade
// interruptible as `mode` says.
Machine& Interrupting(Machine& m, maniGraphInterruption mode, uint32_t chain, float cooldown = 0.0f) {
  m.chainLimit = chain;
  m.transitions = {Tr(0, 1, {Cond(maniGraphConditionTrigger, kGo)}, 1.0f),
                   Tr(1, 2, {Cond(maniGraphConditionTrigger, kGo2)}, 1.0f),
                   Tr(0, 2, {Cond(maniGraphConditionTrigger, kGo3)}, 1.0f)};
  m.transitions[0].t.interruption = mode;
  m.transitions[1].t.cooldown = cooldown;
  m.Build();
  return m;
}

TEST(GraphMachine, InterruptionNoneRunsTheFadeToItsEnd) {
  Machine m;
  Interrupting(m, maniGraphInterruptNone, 0);
  Instance in(m.bound);
  in.Set(kGo, 1);
  in.Update(0.25f);
  in.Set(kGo2, 1);
  in.Set(kGo3, 1);
  in.Update(0.25f);
  EXPECT_EQ(in.View(3).transition, 0u);
  EXPECT_EQ(in.Weight(1), 0.5f);
  EXPECT_EQ(in.Weight(0), 0.5f);
  EXPECT_EQ(in.Weight(2), 0.0f);
  EXPECT_EQ(in.Flag(kGo2), 1u);
  in.Update(0.25f);
  in.Update(0.25f);  // the fade done: B alone
  EXPECT_EQ(in.Weight(1), 1.0f);
  in.Update(0.25f);  // now B's own transition goes
  EXPECT_EQ(in.View(3).transition, 1u);
  EXPECT_EQ(in.Weight(2), 0.25f);
  EXPECT_EQ(in.Weight(1), 0.75f);
}

TEST(GraphMachine, InterruptionBySourceOrDestination) {
  struct Case {
    maniGraphInterruption mode;
    uint32_t trigger;     // set during the fade
    uint32_t transition;  // the one under way after
  };
  const Case cases[] = {
      {maniGraphInterruptDestination, kGo2, 1}, {maniGraphInterruptDestination, kGo3, 0},
      {maniGraphInterruptSource, kGo3, 2},      {maniGraphInterruptSource, kGo2, 0},
      {maniGraphInterruptBoth, kGo2, 1},        {maniGraphInterruptBoth, kGo3, 2},
  };
  for (const Case& k : cases) {
    Machine m;
    Interrupting(m, k.mode, 0);
    Instance in(m.bound);
    in.Set(kGo, 1);
    in.Update(0.25f);
    in.Set(k.trigger, 1);
    in.Update(0.25f);
    EXPECT_EQ(in.View(3).transition, k.transition) << k.mode << " " << k.trigger;
    if (k.transition == 0) {
      EXPECT_EQ(in.Weight(1), 0.5f);
      EXPECT_EQ(in.Weight(0), 0.5f);
      continue;
    }
    // C at 0.25 over the A-B mix (B at 0.5): 0.25, 0.375, 0.375.
    EXPECT_EQ(in.View(3).state, 2u);
    EXPECT_EQ(in.Weight(2), 0.25f);
    EXPECT_EQ(in.Weight(1), 0.375f);
    EXPECT_EQ(in.Weight(0), 0.375f);
    // C's fade done: everything beneath dropped.
    in.Update(0.25f);
    in.Update(0.25f);
    in.Update(0.25f);
    EXPECT_EQ(in.Weight(2), 1.0f);
    EXPECT_EQ(in.Weight(1), 0.0f);
    EXPECT_EQ(in.Weight(0), 0.0f);
  }
}

TEST(GraphMachine, ChainLimitDropsTheOldestFade) {
  Machine m;
  Interrupting(m, maniGraphInterruptDestination, 1);
  Instance in(m.bound);
  in.Set(kGo, 1);
  in.Update(0.25f);
  in.Set(kGo2, 1);
  in.Update(0.25f);
  // One fade at most: A dropped, B the base under C at 0.25.
  EXPECT_EQ(in.View(3).transition, 1u);
  EXPECT_EQ(in.Weight(0), 0.0f);
  EXPECT_EQ(in.Weight(1), 0.75f);
  EXPECT_EQ(in.Weight(2), 0.25f);
}

TEST(GraphMachine, CooldownHoldsTheTransitionBack) {
  Machine m;
  m.transitions = {Tr(0, 1, {Cond(maniGraphConditionTrigger, kGo)}), Tr(1, 0, {})};
  m.transitions[0].t.cooldown = 0.5f;
  m.Build();
  Instance in(m.bound);
  in.Set(kGo, 1);
  in.Update(0.125f);  // taken: 0.375 s left after the update
  EXPECT_EQ(in.View(3).state, 1u);
  in.Update(0.125f);  // back to A: 0.25 left
  EXPECT_EQ(in.View(3).state, 0u);
  in.Set(kGo, 1);
  in.Update(0.125f);  // 0.25 left before: held, 0.125 after
  EXPECT_EQ(in.View(3).state, 0u);
  EXPECT_EQ(in.Flag(kGo), 1u);
  in.Update(0.125f);  // 0.125 left before: held
  EXPECT_EQ(in.View(3).state, 0u);
  in.Update(0.125f);  // cooled down
  EXPECT_EQ(in.View(3).state, 1u);
  EXPECT_EQ(in.Flag(kGo), 0u);
}

// -- Copies, save and restore -----------------------------------------------------------

std::vector<uint8_t> Pose(const Machine& m, Instance& in, Mem& scratch) {
  const size_t poseSize = maniSkeleton_GetPoseSize(&m.skel.s);
  Mem out(poseSize);
  maniPose* p = nullptr;
  EXPECT_EQ(maniInitPose(&m.skel.s, out.p, poseSize, &p), mani_success);
  EXPECT_EQ(maniGraphInstance_Evaluate(in.i, scratch.p, scratch.size, p), mani_success);
  const uint32_t bones = maniSkeleton_GetBoneCount(&m.skel.s);
  std::vector<maniTransform> t(bones);
  EXPECT_EQ(maniPose_ReadLocals(p, 0, bones, t.data()), mani_success);
  std::vector<uint8_t> bytes(sizeof(maniTransform) * bones);
  memcpy(bytes.data(), t.data(), bytes.size());
  return bytes;
}

TEST(GraphMachine, SavedRestoredAndCopiedMidFadeContinueToTheSameBits) {
  Machine m;
  Interrupting(m, maniGraphInterruptBoth, 0, 2.0f);
  Instance in(m.bound);
  in.Set(kGo, 1);
  in.Update(0.25f);
  in.Set(kGo2, 1);
  in.Update(0.125f);  // two fades under way, a cooldown running
  ASSERT_EQ(in.View(3).transition, 1u);
  const std::vector<uint8_t> saved = in.Saved();
  Instance restored(m.bound);
  ASSERT_EQ(maniGraphInstance_Restore(restored.i, saved.data(), saved.size()).result, mani_success);
  EXPECT_EQ(restored.Saved(), saved);
  Instance copied(m.bound);
  memcpy(copied.mem.p, in.mem.p, in.mem.size);
  Mem scratch(maniGraphBinding_GetScratchSize(m.bound));
  for (int u = 0; u < 12; ++u) {
    for (Instance* x : {&in, &restored, &copied}) {
      if (u == 3) x->Set(kGo3, 1);
      x->Update(0.0625f * (float)(u % 3 + 1));
    }
    const std::vector<uint8_t> pose = Pose(m, in, scratch);
    EXPECT_EQ(Pose(m, restored, scratch), pose) << u;
    EXPECT_EQ(Pose(m, copied, scratch), pose) << u;
    EXPECT_EQ(restored.Saved(), in.Saved()) << u;
    EXPECT_EQ(copied.Saved(), in.Saved()) << u;
  }
}

TEST(GraphMachine, RestoreChecksTheMachineBlock) {
  Machine m;
  Interrupting(m, maniGraphInterruptBoth, 0, 2.0f);
  Instance in(m.bound);
  in.Set(kGo, 1);
  in.Update(0.25f);
  in.Set(kGo2, 1);
  in.Update(0.125f);  // layers A, B (transition 0), C (transition 1)
  const std::vector<uint8_t> saved = in.Saved();
  // The machine's block: 4 * (2 + 5 * 4 + 3 transitions) bytes before the
  // last 8.
  const size_t blockSize = 4u * (2u + 20u + 3u);
  const size_t block = saved.size() - 8u - blockSize;
  ASSERT_EQ(mcore_ReadU32(saved.data() + block), 3u);
  auto f32 = [](float f) {
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
  };
  const size_t layer1 = block + 8u + 16u, layer2 = layer1 + 16u, layer3 = layer2 + 16u;
  struct Patch {
    size_t at;
    uint32_t value;
    size_t wrong;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Patch patches[] = {
      {block, 0u, block},                                        // no layer
      {block, 6u, block},                                        // past the chain
      {block + 4, 1u, block + 4},                                // the reserved word
      {block + 8, 3u, block + 8},                                // the base's state past the states
      {block + 12, 0u, block + 12},                              // the base entered by a transition
      {block + 16, f32(0.5f), block + 16},                       // the base fading
      {block + 20, f32(-1.0f), block + 20},                      // negative seconds
      {block + 20, f32(nan), block + 20},
      {layer1 + 4, 3u, layer1 + 4},                              // a transition past the list
      {layer1 + 4, 1u, layer1 + 4},                              // a transition into another state
      {layer1, 2u, layer1 + 4},                                  // a state its transition does not enter
      {layer1 + 8, f32(1.0f), layer1 + 8},                       // a fade at its duration
      {layer1 + 8, f32(-0.125f), layer1 + 8},
      {layer2 + 8, f32(INFINITY), layer2 + 8},
      {layer2 + 12, f32(nan), layer2 + 12},
      {layer3 + 12, 1u, layer3 + 12},                            // an unused layer not 0
      {block + 4u * (22u + 1u), f32(2.5f), block + 4u * (22u + 1u)},  // past its transition's cooldown
      {block + 4u * (22u + 0u), f32(0.25f), block + 4u * (22u + 0u)}, // on a transition of none
      {block + 4u * (22u + 1u), f32(-0.5f), block + 4u * (22u + 1u)},
  };
  const std::vector<uint8_t> before = in.mem.Bytes();
  for (const Patch& p : patches) {
    std::vector<uint8_t> bad = saved;
    mcore_WriteU32(bad.data() + p.at, p.value);
    const maniFileResult r = maniGraphInstance_Restore(in.i, bad.data(), bad.size());
    EXPECT_EQ(r.result, mani_errorFormat) << p.at - block;
    EXPECT_EQ(r.offset, p.wrong) << p.at - block;
    EXPECT_EQ(in.mem.Bytes(), before);
  }
}

// -- Build refusals ---------------------------------------------------------------------

void ExpectRefused(Machine& m, maniResult code, uint32_t reason, uint64_t item, uint64_t other) {
  Builder b;
  const maniBuildResult r = maniBuildGraph(b.b, &m.Source());
  EXPECT_EQ(r.result, code);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.item, item);
  EXPECT_EQ(r.other, other);
}

TEST(GraphMachine, BuildRefusals) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  {
    Machine m;
    m.entry = 3;
    ExpectRefused(m, mani_errorInvalid, maniBuildReasonNode, 3, 0);
  }
  {
    Machine m;
    m.chainLimit = 5;
    ExpectRefused(m, mani_errorInvalid, maniBuildReasonNode, 3, 1);
  }
  {
    Machine m;
    m.finals = {1, 3};
    ExpectRefused(m, mani_errorInvalid, maniBuildReasonNode, 3, 3);
    m.finals = {2, 0, 2};
    ExpectRefused(m, mani_errorInvalid, maniBuildReasonNode, 3, 4);
  }
  {
    Machine m;
    m.Source();
    m.nodes[3].finals = nullptr;
    m.nodes[3].finalCount = 1;
    Builder b;
    maniBuildResult r = maniBuildGraph(b.b, &m.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, maniBuildReasonCount);
    EXPECT_EQ(r.item, 3u);
    m.nodes[3].finalCount = 0;
    m.nodes[3].transitionCount = 2;  // transitions NULL
    r = maniBuildGraph(b.b, &m.src);
    EXPECT_EQ(r.reason, maniBuildReasonCount);
    m.nodes[3].transitionCount = MANI_MAX_GRAPH_TRANSITIONS + 1;
    r = maniBuildGraph(b.b, &m.src);
    EXPECT_EQ(r.result, mani_errorLimit);
    EXPECT_EQ(r.reason, maniBuildReasonNode);
    EXPECT_EQ(r.item, 3u);
    m.nodes[3].transitionCount = 0;
    m.nodes[3].inputCount = 0;
    r = maniBuildGraph(b.b, &m.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, maniBuildReasonInput);
  }
  // Each transition refusal names the node and the transition (the second).
  auto transition = [&](const std::function<void(Transition&)>& spoil, maniResult code = mani_errorInvalid) {
    Machine m;
    m.transitions = {Tr(0, 1, {}), Tr(1, 2, {Cond(maniGraphConditionTrigger, kGo)})};
    spoil(m.transitions[1]);
    ExpectRefused(m, code, maniBuildReasonTransition, 3, 1);
  };
  transition([](Transition& t) { t.t.from = 3; });
  transition([](Transition& t) { t.t.to = 3; });
  transition([](Transition& t) { t.t.to = MANI_GRAPH_NONE; });
  transition([](Transition& t) { t.t.interruption = (maniGraphInterruption)4; });
  transition([](Transition& t) { t.t.entry = (maniGraphEntry)2; });
  transition([](Transition& t) { t.t.fade = (maniGraphFadeCurve)4; });
  transition([&](Transition& t) { t.t.duration = nan; });
  transition([](Transition& t) { t.t.duration = -0.5f; });
  transition([](Transition& t) { t.t.cooldown = INFINITY; });
  transition([](Transition& t) { t.t.cooldown = -1.0f; });
  transition([](Transition& t) { t.conditions[0].kind = (maniGraphConditionKind)MANI_GRAPH_CONDITION_KIND_COUNT; });
  transition([](Transition& t) { t.conditions[0].parameter = kFlag; });  // a trigger condition of a bool
  transition([](Transition& t) { t.conditions[0].parameter = 99; });
  transition([](Transition& t) { t.conditions = {Cond(maniGraphConditionGreater, kGo, 0.0f)}; });
  transition([&](Transition& t) { t.conditions = {Cond(maniGraphConditionLess, kSpeed, nan)}; });
  transition([](Transition& t) { t.conditions = {Cond(maniGraphConditionTrue, kSpeed)}; });
  transition([](Transition& t) { t.conditions = {Cond(maniGraphConditionTime, MANI_NO_PARAMETER, -1.0f)}; });
  transition([&](Transition& t) { t.conditions = {Cond(maniGraphConditionExitTime, MANI_NO_PARAMETER, nan)}; });
  transition([](Transition& t) { t.conditions.assign(MANI_MAX_GRAPH_CONDITIONS + 1, Cond(maniGraphConditionFinished)); },
             mani_errorLimit);
  {
    // Conditions NULL with a count.
    Machine m;
    m.transitions = {Tr(0, 1, {}), Tr(1, 2, {})};
    m.Source();
    m.flat[1].conditionCount = 1;
    m.nodes[3].transitions = m.flat.data();
    Builder b;
    const maniBuildResult r = maniBuildGraph(b.b, &m.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, maniBuildReasonTransition);
    EXPECT_EQ(r.item, 3u);
    EXPECT_EQ(r.other, 1u);
  }
  {
    // The most conditions and the parameters Time, ExitTime and Finished
    // ignore build.
    Machine m;
    m.transitions = {Tr(0, 1, std::vector<maniGraphConditionSource>(MANI_MAX_GRAPH_CONDITIONS,
                                                                     Cond(maniGraphConditionFinished, 77, nan)))};
    Builder b;
    EXPECT_EQ(maniBuildGraph(b.b, &m.Source()).result, mani_success);
  }
}

// -- The open's checks -------------------------------------------------------------------

void Reseal(File& f) {
  const uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindGraph, f.data() + 64, f.size - 64);
  memcpy(f.data() + 32, &id, 8);
}

TEST(GraphMachine, NodeDataWordsAsTheFormatGives) {
  Machine m;
  m.finals = {2};
  m.chainLimit = 2;
  m.transitions = {Tr(0, 1, {Cond(maniGraphConditionGreater, kSpeed, 0.5f), Cond(maniGraphConditionTime, 7, 0.25f)},
                      0.5f),
                   Tr(MANI_GRAPH_NONE, 2, {Cond(maniGraphConditionTrigger, kGo, 3.0f)})};
  m.transitions[0].t.priority = 9;
  m.transitions[0].t.interruption = maniGraphInterruptSource;
  m.transitions[0].t.entry = maniGraphEntryContinue;
  m.transitions[0].t.fade = maniGraphFadeEaseOut;
  m.transitions[0].t.cooldown = 1.5f;
  m.Build();
  const uint8_t* data = m.g.bytes + m.g.nodeData;
  ASSERT_EQ(m.g.nodeDataWords, 4u + 1u + (9u + 6u) + (9u + 3u));
  for (uint32_t n = 0; n < 3; ++n) {
    EXPECT_EQ(mcore_ReadU32(data + 8 * n), 0u);
    EXPECT_EQ(mcore_ReadU32(data + 8 * n + 4), 0u);
  }
  EXPECT_EQ(mcore_ReadU32(data + 24), 0u);
  EXPECT_EQ(mcore_ReadU32(data + 28), m.g.nodeDataWords);
  const uint8_t* w = data + 32;
  auto f32 = [](float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  };
  const uint32_t expected[] = {0, 2, 2, 1, 2,
                               // the first transition
                               0, 1, 9, maniGraphInterruptSource, maniGraphEntryContinue, maniGraphFadeEaseOut,
                               f32(0.5f), f32(1.5f), 2, maniGraphConditionGreater, kSpeed, f32(0.5f),
                               maniGraphConditionTime, MANI_NO_PARAMETER, f32(0.25f),
                               // the second: the trigger's value not kept
                               MANI_GRAPH_NONE, 2, 0, 0, 0, 0, 0, 0, 1, maniGraphConditionTrigger, kGo, 0};
  for (uint32_t k = 0; k < sizeof expected / 4; ++k) EXPECT_EQ(mcore_ReadU32(w + 4 * k), expected[k]) << k;
  // The default chain limit is written as 4.
  Machine d;
  d.Build();
  EXPECT_EQ(mcore_ReadU32(d.g.bytes + d.g.nodeData + 32 + 4), 4u);
}

TEST(GraphMachine, ResealedNodeDataRefusedAtTheWord) {
  Machine m;
  m.finals = {2};
  m.transitions = {Tr(0, 1, {Cond(maniGraphConditionGreater, kSpeed, 0.5f)}, 0.5f),
                   Tr(1, 0, {Cond(maniGraphConditionTrigger, kGo)})};
  m.Build();
  File built = m.file;
  const uint64_t data = m.g.nodeData, words = data + 32, t0 = words + 4u * 5u, c0 = t0 + 36u;
  const uint64_t t1 = c0 + 12u, c1 = t1 + 36u;
  auto f32 = [](float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  };
  struct Patch {
    uint64_t at;
    uint32_t value;
    uint64_t wrong;
  };
  const Patch patches[] = {
      {data + 4, 1u, data + 4},           // a clip node with words
      {data + 8, 1u, data + 8},           // a first word out of order
      {data + 28, 3u, data + 28},         // a machine of too few words
      {data + 28, 33u, data + 28},        // more words than the section holds
      {words, 3u, words},                 // the entry past the states
      {words + 4, 0u, words + 4},         // a chain limit of 0
      {words + 4, 5u, words + 4},
      {words + 8, MANI_MAX_GRAPH_TRANSITIONS + 1, words + 8},
      {words + 8, 3u, data + 28},         // transitions past the words
      {words + 12, 4u, words + 12},       // more finals than states
      {words + 16, 3u, words + 16},       // a final past the states
      {t0, 3u, t0},
      {t0 + 4, MANI_GRAPH_NONE, t0 + 4},
      {t0 + 12, 4u, t0 + 12},
      {t0 + 16, 2u, t0 + 16},
      {t0 + 20, 4u, t0 + 20},
      {t0 + 24, f32(-1.0f), t0 + 24},
      {t0 + 28, f32(std::numeric_limits<float>::quiet_NaN()), t0 + 28},
      {t0 + 32, MANI_MAX_GRAPH_CONDITIONS + 1, t0 + 32},
      {t0 + 32, 3u, data + 28},           // conditions past the words
      {c0, MANI_GRAPH_CONDITION_KIND_COUNT, c0},
      {c0 + 4, kFlag, c0 + 4},            // a comparison of a bool
      {c0 + 4, 6u, c0 + 4},               // past the parameters
      {c0 + 8, f32(INFINITY), c0 + 8},
      {c1 + 4, kSpeed, c1 + 4},           // a trigger condition of a float
      {c1 + 8, 1u, c1 + 8},               // a trigger condition's value not 0
      {c1, maniGraphConditionTime, c1 + 4},  // Time with a parameter
  };
  for (const Patch& p : patches) {
    File f = built;
    mcore_WriteU32(f.data() + p.at, p.value);
    Reseal(f);
    maniGraph out;
    const maniFileResult r = maniOpenGraph(f.data(), f.size, &out);
    EXPECT_EQ(r.result, mani_errorFormat) << p.at - data;
    EXPECT_EQ(r.offset, p.wrong) << p.at - data;
  }
  {
    // Time with no parameter and a negative time.
    File f = built;
    mcore_WriteU32(f.data() + c1, maniGraphConditionTime);
    mcore_WriteU32(f.data() + c1 + 4, MANI_NO_PARAMETER);
    mcore_WriteU32(f.data() + c1 + 8, f32(-0.25f));
    Reseal(f);
    maniGraph out;
    const maniFileResult r = maniOpenGraph(f.data(), f.size, &out);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.offset, c1 + 8);
  }
  ExpectEveryMutationRefused(built.data(), built.size, [](const void* p, size_t n) {
    maniGraph g;
    return maniOpenGraph(p, n, &g);
  });
}

// -- The JSON text form ---------------------------------------------------------------

struct Json {
  Machine m;
  maniGraphNamedAssets assets;
  Json() {
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &m.skel.s;
    assets.clips = m.clips.data();
    assets.clipCount = 3;
  }
  std::string Text(const maniGraphSource& src) {
    Builder b;
    EXPECT_EQ(maniWriteGraphJson(b.b, &src).result, mani_success);
    File f = b.Built();
    return std::string(reinterpret_cast<const char*>(f.data()), f.size);
  }
  maniBuildResult Build(const std::string& text, File* out = nullptr) {
    Builder b;
    const maniBuildResult r = maniBuildGraphJson(b.b, text.data(), text.size(), &assets);
    if (r.result == mani_success && out != nullptr) *out = b.Built();
    return r;
  }
  std::vector<uint8_t> FileOf(const std::string& text) {
    File f;
    EXPECT_EQ(Build(text, &f).result, mani_success) << text;
    return std::vector<uint8_t>(f.data(), f.data() + f.size);
  }
  // A graph of the three clips and a machine of them (its members given).
  static std::string Graph(const std::string& machine) {
    return "{\"format\": \"maul-anim graph\", \"version\": 1, \"parameters\": [{\"name\": \"speed\", \"type\": "
           "\"float\"}, {\"name\": \"flag\", \"type\": \"bool\"}, {\"name\": \"go\", \"type\": \"trigger\"}], "
           "\"clips\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\"}], \"nodes\": [{\"kind\": \"clip\", "
           "\"clip\": \"a\"}, {\"kind\": \"clip\", \"clip\": \"b\"}, {\"kind\": \"clip\", \"clip\": \"c\"}, "
           "{\"kind\": \"stateMachine\", \"inputs\": [0, 1, 2]" +
           machine + "}], \"output\": 3}";
  }
  void ExpectForm(const std::string& text, maniGraphForm form, size_t offset) {
    const maniBuildResult r = Build(text);
    EXPECT_EQ(r.result, mani_errorInvalid) << text;
    EXPECT_EQ(r.reason, maniBuildReasonForm) << text;
    EXPECT_EQ(r.other, (uint64_t)form) << text;
    EXPECT_EQ(r.item, offset) << text;
  }
};

TEST(GraphMachine, JsonWrittenAndReadBackToTheSameFile) {
  Json j;
  j.m.entry = 1;
  j.m.chainLimit = 3;
  j.m.finals = {2};
  j.m.transitions = {Tr(1, 0, {Cond(maniGraphConditionGreaterEqual, kSpeed, 0.75f), Cond(maniGraphConditionTrue, kFlag),
                               Cond(maniGraphConditionExitTime, MANI_NO_PARAMETER, 0.5f)},
                        0.25f),
                     Tr(MANI_GRAPH_NONE, 2, {Cond(maniGraphConditionTrigger, kGo), Cond(maniGraphConditionFinished),
                                             Cond(maniGraphConditionTime, MANI_NO_PARAMETER, 1.5f)})};
  j.m.transitions[0].t.priority = 3;
  j.m.transitions[0].t.interruption = maniGraphInterruptDestination;
  j.m.transitions[0].t.entry = maniGraphEntryContinue;
  j.m.transitions[0].t.fade = maniGraphFadeEaseInOut;
  j.m.transitions[0].t.cooldown = 0.125f;
  const maniGraphSource& src = j.m.Source();
  Builder direct;
  ASSERT_EQ(maniBuildGraph(direct.b, &src).result, mani_success);
  File built = direct.Built();
  const std::string text = j.Text(src);
  EXPECT_NE(text.find("\"from\": \"any\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"interruption\": \"destination\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"fade\": \"easeInOut\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"kind\": \"exitTime\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"chainLimit\": 3"), std::string::npos) << text;
  EXPECT_EQ(j.FileOf(text), std::vector<uint8_t>(built.data(), built.data() + built.size));
}

TEST(GraphMachine, JsonLeftOutMembersReadAsTheirDefaults) {
  Json j;
  const std::string full = Json::Graph(
      ", \"entry\": 0, \"chainLimit\": 0, \"finals\": [], \"transitions\": [{\"from\": 0, \"to\": 1, \"priority\": 0, "
      "\"interruption\": \"none\", \"entry\": \"restart\", \"fade\": \"linear\", \"duration\": 0, \"cooldown\": 0, "
      "\"conditions\": [{\"kind\": \"time\", \"value\": 0}]}]");
  const std::string bare = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"conditions\": [{\"kind\": \"time\"}]}]");
  EXPECT_EQ(j.FileOf(full), j.FileOf(bare));
  EXPECT_EQ(j.FileOf(Json::Graph("")), j.FileOf(Json::Graph(", \"transitions\": [], \"finals\": []")));
  // Each default is the off value: another value gives another file.
  EXPECT_NE(j.FileOf(bare), j.FileOf(Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"fade\": \"easeIn\", "
                                                  "\"conditions\": [{\"kind\": \"time\"}]}]")));
  EXPECT_NE(j.FileOf(Json::Graph("")), j.FileOf(Json::Graph(", \"chainLimit\": 2")));
}

TEST(GraphMachine, JsonRefusalsAtTheirBytes) {
  Json j;
  std::string t = Json::Graph(", \"transitions\": [{\"from\": \"all\", \"to\": 1}]");
  j.ExpectForm(t, maniGraphFormValue, t.find("\"all\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"interruption\": \"sometimes\"}]");
  j.ExpectForm(t, maniGraphFormValue, t.find("\"sometimes\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"entry\": \"jump\"}]");
  j.ExpectForm(t, maniGraphFormValue, t.find("\"jump\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"fade\": \"cubic\"}]");
  j.ExpectForm(t, maniGraphFormValue, t.find("\"cubic\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"speed\": 1}]");
  j.ExpectForm(t, maniGraphFormMember, t.rfind("\"speed\""));
  t = Json::Graph(", \"transitions\": [{\"to\": 1}]");
  j.ExpectForm(t, maniGraphFormMissing, t.find("{\"to\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0.5, \"to\": 1}]");
  j.ExpectForm(t, maniGraphFormValue, t.find("0.5"));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"duration\": \"long\"}]");
  j.ExpectForm(t, maniGraphFormType, t.find("\"long\""));
  t = Json::Graph(", \"finals\": [true]");
  j.ExpectForm(t, maniGraphFormType, t.find("true"));
  t = Json::Graph(", \"entry\": -1");
  j.ExpectForm(t, maniGraphFormValue, t.find("-1"));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"conditions\": [{\"kind\": \"sooner\"}]}]");
  j.ExpectForm(t, maniGraphFormValue, t.find("\"sooner\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"conditions\": [{\"kind\": \"greater\", \"value\": 1}]}]");
  j.ExpectForm(t, maniGraphFormMissing, t.find("{\"kind\": \"greater\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"conditions\": [{\"kind\": \"time\", \"parameter\": "
                  "\"speed\"}]}]");
  j.ExpectForm(t, maniGraphFormMember, t.find("\"parameter\": \"speed\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"conditions\": [{\"kind\": \"trigger\", \"parameter\": "
                  "\"go\", \"value\": 1}]}]");
  j.ExpectForm(t, maniGraphFormMember, t.find("\"value\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"conditions\": [{\"kind\": \"less\", \"parameter\": "
                  "\"slow\"}]}]");
  j.ExpectForm(t, maniGraphFormName, t.find("\"slow\""));
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1, \"conditions\": [{\"kind\": \"less\", \"parameter\": "
                  "\"speed\", \"value\": 1e39}]}]");
  j.ExpectForm(t, maniGraphFormValue, t.find("1e39"));
  // The build's refusals, items by place: a trigger condition of a float,
  // a transition to a state past the machine's.
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 1}, {\"from\": 0, \"to\": 1, \"conditions\": "
                  "[{\"kind\": \"trigger\", \"parameter\": \"speed\"}]}]");
  maniBuildResult r = j.Build(t);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, maniBuildReasonTransition);
  EXPECT_EQ(r.item, 3u);
  EXPECT_EQ(r.other, 1u);
  t = Json::Graph(", \"transitions\": [{\"from\": 0, \"to\": 3}]");
  r = j.Build(t);
  EXPECT_EQ(r.reason, maniBuildReasonTransition);
  EXPECT_EQ(r.other, 0u);
}

// The conformance suite's seeded machine graphs take transitions (so their
// golden lines exercise the machine): over 120 updates with triggers set
// every few updates, most seeds change state.
TEST(GraphMachine, SeededMachineGraphsTakeTransitions) {
  Skel skel{0x4752, 23};
  int changing = 0;
  for (uint32_t k = 0; k < 6; ++k) {
    maniFixtureGraph g;
    ASSERT_EQ(maniFixtureMakeMachineGraph(&g, 0x4D430000u + k, &skel.s), 1);
    maniGraphAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skel.s;
    assets.clips = g.clipList;
    assets.clipCount = g.clipCount;
    Mem binding(maniGraph_GetBindingSize(&g.graph));
    maniGraphBinding* b = nullptr;
    ASSERT_EQ(maniBindGraph(&g.graph, &assets, binding.p, binding.size, &b, nullptr), mani_success);
    Instance in(b);
    const uint32_t machine = maniGraph_GetNodeCount(&g.graph) - 1;
    ASSERT_EQ(maniGraph_GetNodeKind(&g.graph, machine), maniGraphNodeStateMachine);
    uint32_t changes = 0, last = in.View(machine).state;
    for (int u = 0; u < 120; ++u) {
      if (u % 4 == 0) in.SetTyped(3, maniGraphParameterTrigger, 1);
      if (u % 7 == 0) in.SetTyped(4, maniGraphParameterTrigger, 1);
      in.SetTyped(2, maniGraphParameterBool, (uint32_t)(u / 10) & 1u);
      in.SetFloat(1, (float)(u % 9) * 0.15f);
      in.Update(0.05f);
      const uint32_t now = in.View(machine).state;
      changes += now != last;
      last = now;
    }
    changing += changes > 0;
    maniFixtureFreeGraph(&g);
  }
  EXPECT_GE(changing, 4);
}

}  // namespace
