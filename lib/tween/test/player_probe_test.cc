// Break-it probes of player.h, written from the header, the reference
// (../shared/spec/maul-tween-api.txt, player.h) and Web Animations'
// procedures alone: every listed refusal (and the state after it), the rate,
// seek and weight bounds at their edges, each procedure's state change, the
// values a linear track 0 -> 10 over one second shows, and the records.
#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "maul/tween/clip.h"
#include "maul/tween/context.h"
#include "maul/tween/event.h"
#include "maul/tween/player.h"
#include "maul/tween/target.h"
#include "maul/tween/transition.h"

namespace {

const uint64_t kMs = 1000000u;
const uint64_t kT0 = 1000 * kMs;  // the first update's host time

struct World {
  mtwnContext* c = nullptr;
  mtwnClipId clip{};
  mtwnTargetId target{};
  mtwnNode mark = 0;
  explicit World(bool infinite = false) {
    mtwnContextDef d = mtwnDefaultContextDef();
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_success);
    mtwnClipDef cd = mtwnDefaultClipDef();
    cd.slotCount = 2;
    EXPECT_EQ(mtwnCreateClip(c, &cd, &clip), mtwn_success);
    // one linear track 0 -> 10 over 1 s in slot 0, a mark at 0.5 s, a label
    // (key 7) at 0.25 s
    mtwnKeyframe k[2];
    std::memset(k, 0, sizeof k);
    for (int i = 0; i < 2; ++i) {
      k[i].offset = i;
      k[i].value[0] = 10.0 * i;
      k[i].kind = mtwn_segmentLinear;
      k[i].easing = mtwnMakeLinearEasing();
    }
    mtwnClipTrackDef t = mtwnDefaultClipTrackDef();
    t.parent = MTWN_ROOT_NODE;
    t.position = mtwnPosition{mtwn_positionAt, 0, 0.0};
    t.slot = 0;
    t.keyframes = k;
    t.keyframeCount = 2;
    t.timing.duration = 1.0;
    t.timing.fill = mtwn_fillForwards;
    if (infinite) t.timing.iterations = INFINITY;
    mtwnNode n = 0;
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &t, &n), mtwn_success);
    EXPECT_EQ(mtwnClip_AddMark(c, clip, MTWN_ROOT_NODE, mtwnPosition{mtwn_positionAt, 0, 0.5}, 42, &mark),
              mtwn_success);
    mtwnNode label = 0;
    EXPECT_EQ(mtwnClip_AddLabel(c, clip, MTWN_ROOT_NODE, mtwnPosition{mtwn_positionAt, 0, 0.25}, 7, &label),
              mtwn_success);
    EXPECT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    EXPECT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, mtwnVec4{-1, 0, 0, 0}, &target), mtwn_success);
  }
  ~World() { mtwnDestroyContext(c); }
  mtwnBinding binding{};
  mtwnClipPlayerDef Def(uint32_t keep = 1, uint32_t play = 1, double rate = 1) {
    binding = mtwnMakeBinding(0, target);
    mtwnClipPlayerDef d = mtwnDefaultClipPlayerDef();
    d.clip = clip;
    d.bindings = &binding;
    d.bindingCount = 1;
    d.keep = keep;
    d.play = play;
    d.rate = rate;
    return d;
  }
  mtwnPlayerId Player(uint32_t keep = 1, uint32_t play = 1, double rate = 1) {
    mtwnClipPlayerDef d = Def(keep, play, rate);
    mtwnPlayerId p{};
    EXPECT_EQ(mtwnCreateClipPlayer(c, &d, &p), mtwn_success);
    return p;
  }
  void Update(uint64_t ns) { ASSERT_EQ(mtwnContext_Update(c, ns, nullptr, 0, nullptr), mtwn_success); }
  mtwnClipPlayerState State(mtwnPlayerId p) {
    mtwnClipPlayerState s;
    std::memset(&s, 0, sizeof s);
    EXPECT_EQ(mtwnClipPlayer_GetState(c, p, &s), mtwn_success);
    return s;
  }
  float Value() {
    mtwnVec4 v{};
    EXPECT_EQ(mtwnTarget_GetValue(c, target, &v), mtwn_success);
    return v.x;
  }
  float Base() {
    mtwnTargetState s{};
    EXPECT_EQ(mtwnTarget_GetState(c, target, &s), mtwn_success);
    return s.base.x;
  }
  std::vector<mtwnEvent> Events() {
    std::vector<mtwnEvent> e(256);
    uint32_t n = 0;
    EXPECT_EQ(mtwnContext_ReadEvents(c, e.data(), 256, &n, nullptr), mtwn_success);
    e.resize(n);
    return e;
  }
};

int Count(const std::vector<mtwnEvent>& e, uint32_t kind) {
  int n = 0;
  for (const mtwnEvent& x : e) n += x.kind == kind;
  return n;
}
const mtwnEvent* Find(const std::vector<mtwnEvent>& e, uint32_t kind) {
  for (const mtwnEvent& x : e)
    if (x.kind == kind) return &x;
  return nullptr;
}

// -- mtwnCreateClipPlayer --------------------------------------------------------

TEST(PlayerProbe, CreateRefusals) {
  World w;
  mtwnPlayerId p{};
  mtwnClipPlayerDef d = w.Def();
  EXPECT_EQ(mtwnCreateClipPlayer(nullptr, &d, &p), mtwn_errorInvalid);
  EXPECT_EQ(mtwnCreateClipPlayer(w.c, nullptr, &p), mtwn_errorInvalid);
  EXPECT_EQ(mtwnCreateClipPlayer(w.c, &d, nullptr), mtwn_errorInvalid);
  struct Bad {
    void (*f)(mtwnClipPlayerDef*, mtwnBinding*);
    mtwnResult code;
  };
  const Bad bad[] = {
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->cookie = 0; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->rate = NAN; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->weight = -0.01f; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->weight = 1.01f; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->weight = NAN; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->bindings = nullptr; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef*, mtwnBinding* b) { b->slot = 2; }, mtwn_errorInvalid},  // slotCount 2
      {[](mtwnClipPlayerDef*, mtwnBinding* b) { b->reserved = 1; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef*, mtwnBinding* b) { b->reserved2 = 1; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef*, mtwnBinding* b) { b->weight = 1.5f; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef*, mtwnBinding* b) { b->weight = NAN; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef*, mtwnBinding* b) { b->target = mtwnTargetId{0, 0}; }, mtwn_errorInvalid},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->rate = MTWN_RATE_LIMIT * (1 + 1e-9); }, mtwn_errorLimit},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->rate = -2 * MTWN_RATE_LIMIT; }, mtwn_errorLimit},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->rate = INFINITY; }, mtwn_errorLimit},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->rate = MTWN_MIN_RATE * 0.99; }, mtwn_errorLimit},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->rate = -MTWN_MIN_RATE * 0.99; }, mtwn_errorLimit},
      {[](mtwnClipPlayerDef* d, mtwnBinding*) { d->clip = mtwnClipId{0, 0}; }, mtwn_errorStale},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    mtwnClipPlayerDef e = w.Def();
    mtwnBinding b = w.binding;
    e.bindings = &b;
    bad[i].f(&e, &b);
    if (e.bindings == nullptr) e.bindingCount = 1;
    EXPECT_EQ(mtwnCreateClipPlayer(w.c, &e, &p), bad[i].code) << i;
  }
  // the rate's edges are inside
  for (double rate : {MTWN_RATE_LIMIT, -MTWN_RATE_LIMIT, MTWN_MIN_RATE, -MTWN_MIN_RATE, 0.0}) {
    mtwnClipPlayerDef e = w.Def(1, 1, rate);
    EXPECT_EQ(mtwnCreateClipPlayer(w.c, &e, &p), mtwn_success) << rate;
  }
  // "Whether a slot is bound twice is checked last, after the rate's limit
  // and the capacities"
  mtwnBinding two[2] = {mtwnMakeBinding(0, w.target), mtwnMakeBinding(0, w.target)};
  mtwnClipPlayerDef e = w.Def();
  e.bindings = two;
  e.bindingCount = 2;
  EXPECT_EQ(mtwnCreateClipPlayer(w.c, &e, &p), mtwn_errorInvalid);
  e.rate = 3 * MTWN_RATE_LIMIT;
  EXPECT_EQ(mtwnCreateClipPlayer(w.c, &e, &p), mtwn_errorLimit);
  // a clip not sealed; a destroyed clip
  mtwnClipDef cd = mtwnDefaultClipDef();
  mtwnClipId open{};
  ASSERT_EQ(mtwnCreateClip(w.c, &cd, &open), mtwn_success);
  e = w.Def();
  e.clip = open;
  EXPECT_EQ(mtwnCreateClipPlayer(w.c, &e, &p), mtwn_errorState);
  ASSERT_EQ(mtwnDestroyClip(w.c, open), mtwn_success);
  EXPECT_EQ(mtwnCreateClipPlayer(w.c, &e, &p), mtwn_errorStale);
  // a stale target in a binding
  mtwnTargetId gone{};
  ASSERT_EQ(mtwnCreateTarget(w.c, mtwn_valueScalar, mtwnVec4{0, 0, 0, 0}, &gone), mtwn_success);
  ASSERT_EQ(mtwnDestroyTarget(w.c, gone), mtwn_success);
  mtwnBinding g = mtwnMakeBinding(0, gone);
  e = w.Def();
  e.bindings = &g;
  EXPECT_NE(mtwnCreateClipPlayer(w.c, &e, &p), mtwn_success);
}

TEST(PlayerProbe, CapacityOfPlayers) {
  mtwnContextDef d = mtwnDefaultContextDef();
  d.playerCapacity = 2;
  mtwnContext* c = nullptr;
  ASSERT_EQ(mtwnCreateContext(&d, &c), mtwn_success);
  mtwnClipDef cd = mtwnDefaultClipDef();
  mtwnClipId clip{};
  ASSERT_EQ(mtwnCreateClip(c, &cd, &clip), mtwn_success);
  mtwnNode m = 0;
  ASSERT_EQ(mtwnClip_AddMark(c, clip, MTWN_ROOT_NODE, mtwnPosition{mtwn_positionAt, 0, 0.5}, 1, &m), mtwn_success);
  ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
  mtwnClipPlayerDef pd = mtwnDefaultClipPlayerDef();
  pd.clip = clip;
  mtwnPlayerId p{};
  EXPECT_EQ(mtwnCreateClipPlayer(c, &pd, &p), mtwn_success);
  EXPECT_EQ(mtwnCreateClipPlayer(c, &pd, &p), mtwn_success);
  EXPECT_EQ(mtwnCreateClipPlayer(c, &pd, &p), mtwn_errorCapacity);
  mtwnDestroyContext(c);
}

// -- State and procedures -----------------------------------------------------------

TEST(PlayerProbe, IdleThenPlayRunsOnTheHostClock) {
  World w;
  mtwnPlayerId p = w.Player(1, 0);
  mtwnClipPlayerState s = w.State(p);
  EXPECT_EQ(s.playState, (uint32_t)mtwn_playIdle);
  EXPECT_TRUE(std::isnan(s.currentTime));
  EXPECT_EQ(s.duration, 1.0);
  EXPECT_EQ(s.kept, 1u);
  w.Update(kT0);
  EXPECT_EQ(w.State(p).playState, (uint32_t)mtwn_playIdle);
  EXPECT_EQ(w.Value(), -1.0f);  // idle: without effect, the base shows
  ASSERT_EQ(mtwnClipPlayer_Play(w.c, p), mtwn_success);
  EXPECT_EQ(w.State(p).pending, 1u);
  w.Update(kT0 + 100 * kMs);  // the start time: this update's
  s = w.State(p);
  EXPECT_EQ(s.playState, (uint32_t)mtwn_playRunning);
  EXPECT_EQ(s.pending, 0u);
  EXPECT_EQ(s.currentTime, 0.0);
  w.Update(kT0 + 350 * kMs);
  EXPECT_NEAR(w.State(p).currentTime, 0.25, 1e-9);
  EXPECT_NEAR(w.Value(), 2.5f, 1e-5);
  // past the end: finished, kept, holding the end (fill forwards)
  w.Update(kT0 + 2000 * kMs);
  s = w.State(p);
  EXPECT_EQ(s.playState, (uint32_t)mtwn_playFinished);
  EXPECT_EQ(s.currentTime, 1.0);
  EXPECT_EQ(w.Value(), 10.0f);
  std::vector<mtwnEvent> e = w.Events();
  ASSERT_NE(Find(e, mtwn_eventMark), nullptr);
  EXPECT_EQ(Find(e, mtwn_eventMark)->timeNs, kT0 + 600 * kMs);  // 0.5 s after the start
  EXPECT_EQ(Find(e, mtwn_eventMark)->key, 42u);
  ASSERT_NE(Find(e, mtwn_eventFinish), nullptr);
  EXPECT_EQ(Find(e, mtwn_eventFinish)->timeNs, kT0 + 1100 * kMs);  // at the exact end
  EXPECT_EQ(Count(e, mtwn_eventFinish), 1);
}

TEST(PlayerProbe, RateTwoAndBackwards) {
  World w;
  mtwnPlayerId p = w.Player(1, 1, 2.0);
  w.Update(kT0);
  w.Update(kT0 + 200 * kMs);
  EXPECT_NEAR(w.State(p).currentTime, 0.4, 1e-9);
  EXPECT_NEAR(w.Value(), 4.0f, 1e-5);
  // backwards from idle: "from ... the end, backwards"
  World b;
  mtwnPlayerId q = b.Player(1, 1, -1.0);
  b.Update(kT0);
  EXPECT_EQ(b.State(q).currentTime, 1.0);
  b.Update(kT0 + 250 * kMs);
  EXPECT_NEAR(b.State(q).currentTime, 0.75, 1e-9);
  EXPECT_NEAR(b.Value(), 7.5f, 1e-5);
  b.Update(kT0 + 2000 * kMs);
  EXPECT_EQ(b.State(q).playState, (uint32_t)mtwn_playFinished);
  EXPECT_EQ(b.State(q).currentTime, 0.0);
  std::vector<mtwnEvent> e = b.Events();
  ASSERT_NE(Find(e, mtwn_eventMark), nullptr);
  EXPECT_EQ(Find(e, mtwn_eventMark)->backwards, 1u);
  EXPECT_EQ(Find(e, mtwn_eventMark)->timeNs, kT0 + 500 * kMs);
}

TEST(PlayerProbe, PauseHoldsAndPlayResumes) {
  World w;
  mtwnPlayerId p = w.Player();
  w.Update(kT0);
  w.Update(kT0 + 300 * kMs);
  ASSERT_EQ(mtwnClipPlayer_Pause(w.c, p), mtwn_success);
  mtwnClipPlayerState s = w.State(p);
  EXPECT_EQ(s.playState, (uint32_t)mtwn_playPaused);
  EXPECT_NEAR(s.currentTime, 0.3, 1e-9);
  w.Update(kT0 + 800 * kMs);
  EXPECT_NEAR(w.State(p).currentTime, 0.3, 1e-9);
  EXPECT_NEAR(w.Value(), 3.0f, 1e-5);
  ASSERT_EQ(mtwnClipPlayer_Pause(w.c, p), mtwn_success);  // stays as it is
  EXPECT_EQ(w.State(p).playState, (uint32_t)mtwn_playPaused);
  ASSERT_EQ(mtwnClipPlayer_Play(w.c, p), mtwn_success);
  w.Update(kT0 + 900 * kMs);  // resumes: the start time this update's
  w.Update(kT0 + 1000 * kMs);
  EXPECT_NEAR(w.State(p).currentTime, 0.4, 1e-9);
  // pause an idle one: "at the start"
  mtwnPlayerId q = w.Player(1, 0);
  ASSERT_EQ(mtwnClipPlayer_Pause(w.c, q), mtwn_success);
  w.Update(kT0 + 1100 * kMs);
  EXPECT_EQ(w.State(q).playState, (uint32_t)mtwn_playPaused);
  EXPECT_EQ(w.State(q).currentTime, 0.0);
}

TEST(PlayerProbe, FinishGoesToTheEndWithItsRecords) {
  World w;
  mtwnPlayerId p = w.Player();
  w.Update(kT0);
  w.Update(kT0 + 100 * kMs);
  w.Events();
  ASSERT_EQ(mtwnClipPlayer_Finish(w.c, p), mtwn_success);
  mtwnClipPlayerState s = w.State(p);
  EXPECT_EQ(s.playState, (uint32_t)mtwn_playFinished);
  EXPECT_EQ(s.currentTime, 1.0);
  std::vector<mtwnEvent> e = w.Events();  // "its records and its finish record at once"
  EXPECT_EQ(Count(e, mtwn_eventMark), 1);
  ASSERT_EQ(Count(e, mtwn_eventFinish), 1);
  EXPECT_EQ(Find(e, mtwn_eventFinish)->timeNs, kT0 + 100 * kMs);  // the last update's time
  // finished already: no second finish record
  ASSERT_EQ(mtwnClipPlayer_Finish(w.c, p), mtwn_success);
  EXPECT_EQ(Count(w.Events(), mtwn_eventFinish), 0);
  w.Update(kT0 + 200 * kMs);
  EXPECT_EQ(w.Value(), 10.0f);
  // rate 0: refused
  mtwnPlayerId z = w.Player(1, 1, 0.0);
  w.Update(kT0 + 300 * kMs);
  EXPECT_EQ(mtwnClipPlayer_Finish(w.c, z), mtwn_errorState);
  // a paused player is finished too
  mtwnPlayerId q = w.Player();
  w.Update(kT0 + 400 * kMs);
  ASSERT_EQ(mtwnClipPlayer_Pause(w.c, q), mtwn_success);
  ASSERT_EQ(mtwnClipPlayer_Finish(w.c, q), mtwn_success);
  EXPECT_EQ(w.State(q).playState, (uint32_t)mtwn_playFinished);
  // not kept: commits and is freed at the next update
  mtwnPlayerId n = w.Player(0);
  w.Update(kT0 + 500 * kMs);
  ASSERT_EQ(mtwnClipPlayer_Finish(w.c, n), mtwn_success);
  w.Update(kT0 + 600 * kMs);
  EXPECT_FALSE(mtwnPlayer_IsValid(w.c, n));
  EXPECT_EQ(w.Base(), 10.0f);
}

TEST(PlayerProbe, CancelIsIdleWithoutEffectAtOnceAndKept) {
  World w;
  mtwnPlayerId p = w.Player(0);
  w.Update(kT0);
  w.Update(kT0 + 400 * kMs);
  EXPECT_NEAR(w.Value(), 4.0f, 1e-5);
  w.Events();
  ASSERT_EQ(mtwnClipPlayer_SetRate(w.c, p, 3.0), mtwn_success);  // pending on a running player
  ASSERT_EQ(mtwnClipPlayer_Cancel(w.c, p), mtwn_success);
  EXPECT_EQ(w.Value(), -1.0f);  // at once
  mtwnClipPlayerState s = w.State(p);
  EXPECT_EQ(s.playState, (uint32_t)mtwn_playIdle);
  EXPECT_TRUE(std::isnan(s.currentTime));
  EXPECT_EQ(s.kept, 1u);
  EXPECT_EQ(s.rate, 3.0);  // the pending rate applied
  EXPECT_EQ(Count(w.Events(), mtwn_eventCancel), 1);
  w.Update(kT0 + 500 * kMs);
  EXPECT_TRUE(mtwnPlayer_IsValid(w.c, p));
  EXPECT_EQ(w.Value(), -1.0f);
  // cancelling an idle one: no time, no record
  ASSERT_EQ(mtwnClipPlayer_Cancel(w.c, p), mtwn_success);
  EXPECT_EQ(Count(w.Events(), mtwn_eventCancel), 0);
  // played again at the new rate
  ASSERT_EQ(mtwnClipPlayer_Play(w.c, p), mtwn_success);
  w.Update(kT0 + 600 * kMs);
  w.Update(kT0 + 700 * kMs);
  EXPECT_NEAR(w.State(p).currentTime, 0.3, 1e-9);
}

TEST(PlayerProbe, SeekJumpsAndSweepCrosses) {
  World w;
  mtwnPlayerId p = w.Player(1, 0);
  w.Update(kT0);
  // idle + seek: paused there
  ASSERT_EQ(mtwnClipPlayer_Seek(w.c, p, 0.2), mtwn_success);
  EXPECT_EQ(w.State(p).playState, (uint32_t)mtwn_playPaused);
  EXPECT_NEAR(w.State(p).currentTime, 0.2, 1e-12);
  std::vector<mtwnEvent> e = w.Events();
  EXPECT_EQ(Count(e, mtwn_eventSeek), 1);
  // a seek over the mark crosses nothing
  ASSERT_EQ(mtwnClipPlayer_Seek(w.c, p, 0.8), mtwn_success);
  e = w.Events();
  EXPECT_EQ(Count(e, mtwn_eventMark), 0);
  // a sweep back over it crosses it, backwards, at once
  ASSERT_EQ(mtwnClipPlayer_Sweep(w.c, p, 0.1), mtwn_success);
  e = w.Events();
  ASSERT_EQ(Count(e, mtwn_eventMark), 1);
  EXPECT_EQ(Find(e, mtwn_eventMark)->backwards, 1u);
  EXPECT_EQ(Find(e, mtwn_eventMark)->timeNs, kT0);
  w.Update(kT0 + 100 * kMs);
  EXPECT_NEAR(w.Value(), 1.0f, 1e-5);
  // progress and label
  ASSERT_EQ(mtwnClipPlayer_SeekProgress(w.c, p, 0.5), mtwn_success);
  EXPECT_NEAR(w.State(p).currentTime, 0.5, 1e-12);
  ASSERT_EQ(mtwnClipPlayer_SeekLabel(w.c, p, 7), mtwn_success);
  EXPECT_NEAR(w.State(p).currentTime, 0.25, 1e-12);
  EXPECT_EQ(mtwnClipPlayer_SeekLabel(w.c, p, 8), mtwn_errorInvalid);
  EXPECT_NEAR(w.State(p).currentTime, 0.25, 1e-12);
  // past the end. "one sought past its end is finished (its finish record
  // at once)" read with "as Web Animations sets the current time": a paused
  // player stays paused (WAAPI's play state is paused while the start time
  // is unresolved and no play task is pending), a running one is finished.
  w.Events();
  ASSERT_EQ(mtwnClipPlayer_Seek(w.c, p, 5.0), mtwn_success);
  EXPECT_EQ(w.State(p).playState, (uint32_t)mtwn_playPaused);
  mtwnPlayerId r = w.Player();
  w.Update(kT0 + 200 * kMs);
  w.Update(kT0 + 300 * kMs);
  ASSERT_EQ(w.State(r).playState, (uint32_t)mtwn_playRunning);
  w.Events();
  ASSERT_EQ(mtwnClipPlayer_Seek(w.c, r, 5.0), mtwn_success);
  EXPECT_EQ(w.State(r).playState, (uint32_t)mtwn_playFinished);
  std::vector<mtwnEvent> f = w.Events();
  ASSERT_EQ(Count(f, mtwn_eventFinish), 1);
  EXPECT_EQ(Find(f, mtwn_eventFinish)->timeNs, kT0 + 300 * kMs);
  EXPECT_EQ(Count(f, mtwn_eventMark), 0);  // a jump crosses nothing
  // bounds
  EXPECT_EQ(mtwnClipPlayer_Seek(w.c, p, NAN), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Seek(w.c, p, MTWN_SEEK_LIMIT * (1 + 1e-9)), mtwn_errorLimit);
  EXPECT_EQ(mtwnClipPlayer_Seek(w.c, p, -INFINITY), mtwn_errorLimit);
  EXPECT_EQ(mtwnClipPlayer_Sweep(w.c, p, INFINITY), mtwn_errorLimit);
  EXPECT_EQ(mtwnClipPlayer_Sweep(w.c, p, NAN), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_SeekProgress(w.c, p, NAN), mtwn_errorInvalid);
  EXPECT_EQ(w.State(p).currentTime, 5.0);  // refusals changed nothing
  EXPECT_EQ(mtwnClipPlayer_Seek(w.c, p, -MTWN_SEEK_LIMIT), mtwn_success);
}

// A finished kept player sought back runs on from there (WAAPI: setting the
// current time of a finished animation resumes it).
TEST(PlayerProbe, SeekOnFinishedResumesAndPlayAutoRewinds) {
  World w;
  mtwnPlayerId p = w.Player();
  w.Update(kT0);
  w.Update(kT0 + 1500 * kMs);
  ASSERT_EQ(w.State(p).playState, (uint32_t)mtwn_playFinished);
  ASSERT_EQ(mtwnClipPlayer_Seek(w.c, p, 0.5), mtwn_success);
  w.Update(kT0 + 1600 * kMs);
  EXPECT_EQ(w.State(p).playState, (uint32_t)mtwn_playRunning);
  EXPECT_NEAR(w.State(p).currentTime, 0.6, 1e-9);
  // finished again, then Play: auto-rewind to 0 (a jump: no backward marks)
  w.Update(kT0 + 3000 * kMs);
  w.Events();
  ASSERT_EQ(mtwnClipPlayer_Play(w.c, p), mtwn_success);
  w.Update(kT0 + 3100 * kMs);
  EXPECT_EQ(w.State(p).playState, (uint32_t)mtwn_playRunning);
  EXPECT_EQ(w.State(p).currentTime, 0.0);
  w.Update(kT0 + 3200 * kMs);
  EXPECT_NEAR(w.State(p).currentTime, 0.1, 1e-9);
  std::vector<mtwnEvent> e = w.Events();
  for (const mtwnEvent& x : e) EXPECT_EQ(x.backwards, 0u) << x.kind;
}

TEST(PlayerProbe, ReverseSetRateAndSetWeight) {
  World w;
  mtwnPlayerId p = w.Player();
  w.Update(kT0);
  w.Update(kT0 + 600 * kMs);
  ASSERT_EQ(mtwnClipPlayer_Reverse(w.c, p), mtwn_success);
  w.Update(kT0 + 700 * kMs);  // takes the rate here, keeping the time it has here (0.7)
  w.Update(kT0 + 900 * kMs);
  mtwnClipPlayerState s = w.State(p);
  EXPECT_EQ(s.rate, -1.0);
  EXPECT_NEAR(s.currentTime, 0.5, 1e-9);
  // rate bounds
  EXPECT_EQ(mtwnClipPlayer_SetRate(w.c, p, NAN), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_SetRate(w.c, p, 2 * MTWN_RATE_LIMIT), mtwn_errorLimit);
  EXPECT_EQ(mtwnClipPlayer_SetRate(w.c, p, MTWN_MIN_RATE / 2), mtwn_errorLimit);
  EXPECT_EQ(mtwnClipPlayer_SetRate(w.c, p, -INFINITY), mtwn_errorLimit);
  EXPECT_EQ(w.State(p).rate, -1.0);
  EXPECT_EQ(w.State(p).pending, 0u);
  // rate 0 then 1: runs again
  ASSERT_EQ(mtwnClipPlayer_SetRate(w.c, p, 0.0), mtwn_success);
  w.Update(kT0 + 1000 * kMs);
  w.Update(kT0 + 1100 * kMs);
  EXPECT_NEAR(w.State(p).currentTime, 0.4, 1e-9);
  ASSERT_EQ(mtwnClipPlayer_SetRate(w.c, p, 1.0), mtwn_success);
  w.Update(kT0 + 1200 * kMs);
  w.Update(kT0 + 1300 * kMs);
  EXPECT_EQ(w.State(p).playState, (uint32_t)mtwn_playRunning);
  EXPECT_NEAR(w.State(p).currentTime, 0.5, 1e-9);
  // an idle or paused player takes a rate at once
  mtwnPlayerId q = w.Player(1, 0);
  ASSERT_EQ(mtwnClipPlayer_SetRate(w.c, q, 2.0), mtwn_success);
  EXPECT_EQ(w.State(q).rate, 2.0);
  EXPECT_EQ(w.State(q).pending, 0u);
  // weight: half way from the base (-1) to the value
  EXPECT_EQ(mtwnClipPlayer_SetWeight(w.c, p, -0.1f), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_SetWeight(w.c, p, 1.1f), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_SetWeight(w.c, p, NAN), mtwn_errorInvalid);
  EXPECT_EQ(w.State(p).weight, 1.0f);
  ASSERT_EQ(mtwnClipPlayer_SetWeight(w.c, p, 0.5f), mtwn_success);
  w.Update(kT0 + 1400 * kMs);  // current time 0.6, value 6
  EXPECT_NEAR(w.Value(), -1 + (6 - -1) * 0.5f, 1e-5);
  ASSERT_EQ(mtwnClipPlayer_SetWeight(w.c, p, 0.0f), mtwn_success);
  w.Update(kT0 + 1500 * kMs);
  EXPECT_EQ(w.Value(), -1.0f);
}

TEST(PlayerProbe, StaleIdsTransitionsAndNulls) {
  World w;
  mtwnPlayerId p = w.Player();
  w.Update(kT0);
  mtwnClipPlayerState s;
  EXPECT_EQ(mtwnClipPlayer_GetState(w.c, p, nullptr), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_GetState(nullptr, p, &s), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Play(nullptr, p), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Seek(nullptr, p, 0.1), mtwn_errorInvalid);
  EXPECT_EQ(mtwnDestroyPlayer(nullptr, p), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Pause(w.c, mtwnPlayerId{0, 0}), mtwn_errorStale);
  // a destroyed player's id: stale everywhere, the target back to its base
  w.Update(kT0 + 500 * kMs);
  EXPECT_NEAR(w.Value(), 5.0f, 1e-5);
  ASSERT_EQ(mtwnDestroyPlayer(w.c, p), mtwn_success);
  EXPECT_EQ(w.Value(), -1.0f);
  EXPECT_FALSE(mtwnPlayer_IsValid(w.c, p));
  uint64_t misuse = mtwnContext_GetMisuse(w.c);
  EXPECT_EQ(mtwnClipPlayer_Play(w.c, p), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_Pause(w.c, p), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_Reverse(w.c, p), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_Finish(w.c, p), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_Cancel(w.c, p), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_Seek(w.c, p, 0.1), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_Sweep(w.c, p, 0.1), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_SeekProgress(w.c, p, 0.1), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_SeekLabel(w.c, p, 7), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_SetRate(w.c, p, 1), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_SetWeight(w.c, p, 1), mtwn_errorStale);
  EXPECT_EQ(mtwnClipPlayer_GetState(w.c, p, &s), mtwn_errorStale);
  // "not counted as misuse for an id the context handed out"
  EXPECT_EQ(mtwnDestroyPlayer(w.c, p), mtwn_errorStale);
  EXPECT_EQ(mtwnContext_GetMisuse(w.c), misuse);
  // "but counted for one never handed out, the null id among them"
  EXPECT_EQ(mtwnDestroyPlayer(w.c, mtwnPlayerId{0, 0}), mtwn_errorStale);
  EXPECT_EQ(mtwnContext_GetMisuse(w.c), misuse + 1);
  EXPECT_FALSE(mtwnPlayer_IsValid(w.c, mtwnPlayerId{0, 0}));
  EXPECT_FALSE(mtwnPlayer_IsValid(nullptr, p));
  // a transition's id: refused by the clip player functions
  mtwnTransitionDef td = mtwnDefaultTransitionDef();
  td.target = w.target;
  td.value = mtwnVec4{3, 0, 0, 0};
  mtwnPlayerId t{};
  ASSERT_EQ(mtwnStartTransition(w.c, &td, &t), mtwn_success);
  EXPECT_EQ(mtwnClipPlayer_Play(w.c, t), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Pause(w.c, t), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Reverse(w.c, t), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Finish(w.c, t), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Cancel(w.c, t), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_Seek(w.c, t, 0.1), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_SetRate(w.c, t, 2), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_SetWeight(w.c, t, 0.5f), mtwn_errorInvalid);
  EXPECT_EQ(mtwnClipPlayer_GetState(w.c, t, &s), mtwn_errorInvalid);
  EXPECT_TRUE(mtwnPlayer_IsValid(w.c, t));
}

// "A player not kept ends by committing its last value into its targets'
// base values and is then freed, its id stale."
TEST(PlayerProbe, NotKeptCommitsAndFrees) {
  World w;
  mtwnPlayerId p = w.Player(0);
  w.Update(kT0);
  w.Update(kT0 + 2000 * kMs);
  EXPECT_FALSE(mtwnPlayer_IsValid(w.c, p));
  EXPECT_EQ(w.Base(), 10.0f);
  EXPECT_EQ(w.Value(), 10.0f);
  std::vector<mtwnEvent> e = w.Events();
  ASSERT_EQ(Count(e, mtwn_eventFinish), 1);
  EXPECT_EQ(Find(e, mtwn_eventFinish)->timeNs, kT0 + 1000 * kMs);
}


// An infinite clip: "mtwn_errorState backwards from an end that is
// infinite"; Reverse "refused, and nothing changed, when that would play an
// infinite clip backwards from its end"; Finish "mtwn_errorState also for
// ... an infinite clip played forwards"; SeekProgress "mtwn_errorInvalid
// also for an infinite duration".
TEST(PlayerProbe, InfiniteClips) {
  World w(true);
  mtwnPlayerId idle = w.Player(1, 0, -1.0);
  w.Update(kT0);
  ASSERT_TRUE(std::isinf(w.State(idle).duration));
  EXPECT_EQ(mtwnClipPlayer_Play(w.c, idle), mtwn_errorState);
  EXPECT_EQ(w.State(idle).playState, (uint32_t)mtwn_playIdle);
  mtwnPlayerId fwd = w.Player(1, 0, 1.0);
  mtwnClipPlayerState before = w.State(fwd);
  EXPECT_EQ(mtwnClipPlayer_Reverse(w.c, fwd), mtwn_errorState);
  mtwnClipPlayerState after = w.State(fwd);
  EXPECT_EQ(after.playState, before.playState);
  EXPECT_EQ(after.rate, before.rate);
  EXPECT_EQ(after.pending, before.pending);
  mtwnPlayerId run = w.Player(1, 1, 1.0);
  w.Update(kT0 + 100 * kMs);
  w.Update(kT0 + 2600 * kMs);
  EXPECT_NEAR(w.State(run).currentTime, 2.5, 1e-9);
  EXPECT_NEAR(w.Value(), 5.0f, 1e-4);  // the third iteration, half way
  EXPECT_EQ(mtwnClipPlayer_Finish(w.c, run), mtwn_errorState);
  EXPECT_EQ(mtwnClipPlayer_SeekProgress(w.c, run, 0.5), mtwn_errorInvalid);
  EXPECT_EQ(w.State(run).playState, (uint32_t)mtwn_playRunning);
  // reversing a running one mid-way is no play from the end: taken
  EXPECT_EQ(mtwnClipPlayer_Reverse(w.c, run), mtwn_success);
  w.Update(kT0 + 2700 * kMs);
  w.Update(kT0 + 2900 * kMs);
  EXPECT_NEAR(w.State(run).currentTime, 2.4, 1e-9);
}

// Reverse on an idle player plays from the end backwards; on a paused one
// from its time; Finish backwards goes to 0; a finished player given a
// negative rate plays back from where it is.
TEST(PlayerProbe, ReverseFinishBackwardsAndRateOnFinished) {
  World w;
  mtwnPlayerId p = w.Player(1, 0);
  w.Update(kT0);
  ASSERT_EQ(mtwnClipPlayer_Reverse(w.c, p), mtwn_success);
  w.Update(kT0 + 100 * kMs);
  EXPECT_EQ(w.State(p).currentTime, 1.0);
  EXPECT_EQ(w.State(p).rate, -1.0);
  w.Update(kT0 + 300 * kMs);
  EXPECT_NEAR(w.State(p).currentTime, 0.8, 1e-9);
  ASSERT_EQ(mtwnClipPlayer_Finish(w.c, p), mtwn_success);
  EXPECT_EQ(w.State(p).currentTime, 0.0);
  EXPECT_EQ(w.State(p).playState, (uint32_t)mtwn_playFinished);
  w.Update(kT0 + 400 * kMs);
  // at 0 played backwards the track is in its before phase (Web Animations:
  // "the animation direction is backwards and the local time equals the
  // before-active boundary time"), and it fills forwards only: no effect,
  // the base shows
  EXPECT_EQ(w.Value(), -1.0f);
  // finished at 0 backwards; a positive rate plays it forward from there
  // ("a negative one plays it back": here the mirror case, from the start)
  mtwnPlayerId q = w.Player();
  w.Update(kT0 + 500 * kMs);
  w.Update(kT0 + 2000 * kMs);
  ASSERT_EQ(w.State(q).playState, (uint32_t)mtwn_playFinished);
  ASSERT_EQ(mtwnClipPlayer_SetRate(w.c, q, 2.0), mtwn_success);
  EXPECT_EQ(w.State(q).playState, (uint32_t)mtwn_playFinished);  // "a positive rate keeps it finished"
  ASSERT_EQ(mtwnClipPlayer_SetRate(w.c, q, -1.0), mtwn_success);
  w.Update(kT0 + 2100 * kMs);
  w.Update(kT0 + 2300 * kMs);
  EXPECT_EQ(w.State(q).playState, (uint32_t)mtwn_playRunning);
  EXPECT_LT(w.State(q).currentTime, 1.0);
  EXPECT_GT(w.State(q).currentTime, 0.65);
  // a paused player reversed plays back from its time
  mtwnPlayerId r = w.Player();
  w.Update(kT0 + 2400 * kMs);
  w.Update(kT0 + 2700 * kMs);
  ASSERT_EQ(mtwnClipPlayer_Pause(w.c, r), mtwn_success);
  ASSERT_EQ(mtwnClipPlayer_Reverse(w.c, r), mtwn_success);
  w.Update(kT0 + 2800 * kMs);
  w.Update(kT0 + 2900 * kMs);
  EXPECT_NEAR(w.State(r).currentTime, 0.2, 1e-9);
  EXPECT_EQ(w.State(r).rate, -1.0);
}

// "a binding of weight w (times the player's) mixes what is there toward
// its value per channel, x + (value - x) w"; no bindings is a valid def; the
// context's binding capacity is a capacity.
TEST(PlayerProbe, BindingWeightsAndCapacity) {
  World w;
  mtwnClipPlayerDef d = w.Def();
  w.binding.weight = 0.5f;
  d.weight = 0.5f;
  mtwnPlayerId p{};
  ASSERT_EQ(mtwnCreateClipPlayer(w.c, &d, &p), mtwn_success);
  w.Update(kT0);
  w.Update(kT0 + 400 * kMs);
  EXPECT_NEAR(w.Value(), -1 + (4 - -1) * 0.25f, 1e-5);
  mtwnClipPlayerDef none = mtwnDefaultClipPlayerDef();
  none.clip = w.clip;
  EXPECT_EQ(mtwnCreateClipPlayer(w.c, &none, &p), mtwn_success);

  mtwnContextDef cd = mtwnDefaultContextDef();
  cd.bindingCapacity = 1;
  mtwnContext* c = nullptr;
  ASSERT_EQ(mtwnCreateContext(&cd, &c), mtwn_success);
  mtwnClipDef clipDef = mtwnDefaultClipDef();
  mtwnClipId clip{};
  ASSERT_EQ(mtwnCreateClip(c, &clipDef, &clip), mtwn_success);
  mtwnNode m = 0;
  ASSERT_EQ(mtwnClip_AddMark(c, clip, MTWN_ROOT_NODE, mtwnPosition{mtwn_positionAt, 0, 0.5}, 1, &m), mtwn_success);
  ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
  mtwnTargetId t{};
  ASSERT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, mtwnVec4{0, 0, 0, 0}, &t), mtwn_success);
  mtwnBinding b[2] = {mtwnMakeBinding(0, t), mtwnMakeBinding(1, t)};
  mtwnClipPlayerDef two = mtwnDefaultClipPlayerDef();
  two.clip = clip;
  two.bindings = b;
  two.bindingCount = 2;
  EXPECT_EQ(mtwnCreateClipPlayer(c, &two, &p), mtwn_errorCapacity);
  // bound twice past the capacity: "gets ... mtwn_errorCapacity where
  // either applies"
  b[1].slot = 0;
  EXPECT_EQ(mtwnCreateClipPlayer(c, &two, &p), mtwn_errorCapacity);
  two.bindingCount = 1;
  EXPECT_EQ(mtwnCreateClipPlayer(c, &two, &p), mtwn_success);
  mtwnDestroyContext(c);
}

}  // namespace
