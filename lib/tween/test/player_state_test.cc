// Regression tests of issue 19: the clip players' state as Web Animations'
// (play states, pending tasks, the finished state), records timed from the
// player's own time mapping, storage that stays under live handles, the
// host-code guard and the task system's staging bound. Expected values come
// from the reference (player.h, clip.h, context.h, target.h, event.h) and
// Web Animations' procedures (play, pause, finish, cancel, seek, update the
// playback rate, update the finished state), each derived in its comment.
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "maul/tween/clip.h"
#include "maul/tween/context.h"
#include "maul/tween/event.h"
#include "maul/tween/path.h"
#include "maul/tween/player.h"
#include "maul/tween/target.h"
#include "maul/tween/transition.h"

namespace {

const uint64_t kMs = 1000000u;

mtwnVec4 V(float x) { return mtwnVec4{x, 0, 0, 0}; }

mtwnKeyframe Key(double offset, double value) {
    mtwnKeyframe k;
    std::memset(&k, 0, sizeof(k));
    k.offset = offset;
    k.value[0] = value;
    k.kind = mtwn_segmentLinear;
    k.easing = mtwnMakeLinearEasing();
    return k;
}

mtwnPosition At(double s) { return mtwnPosition{mtwn_positionAt, 0, s}; }

struct Ctx {
    mtwnContext* c = nullptr;
    explicit Ctx(const mtwnContextDef* def = nullptr) {
        mtwnContextDef d = def ? *def : mtwnDefaultContextDef();
        EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_success);
    }
    ~Ctx() { mtwnDestroyContext(c); }
    mtwnClipId Clip() {
        mtwnClipDef d = mtwnDefaultClipDef();
        mtwnClipId id{};
        EXPECT_EQ(mtwnCreateClip(c, &d, &id), mtwn_success);
        return id;
    }
    mtwnNode Track(mtwnClipId clip, mtwnNode parent, double start, double duration, double a, double b,
                   uint32_t fill = mtwn_fillForwards, uint32_t slot = 0) {
        mtwnKeyframe k[2] = {Key(0, a), Key(1, b)};
        mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
        d.parent = parent;
        d.position = At(start);
        d.slot = slot;
        d.keyframes = k;
        d.keyframeCount = 2;
        d.timing.duration = duration;
        d.timing.fill = fill;
        mtwnNode n = 0;
        EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &n), mtwn_success);
        return n;
    }
    mtwnNode Mark(mtwnClipId clip, mtwnNode parent, double at, uint32_t key) {
        mtwnNode n = 0;
        EXPECT_EQ(mtwnClip_AddMark(c, clip, parent, At(at), key, &n), mtwn_success);
        return n;
    }
    void Seal(mtwnClipId clip) { EXPECT_EQ(mtwnClip_Seal(c, clip), mtwn_success); }
    mtwnTargetId Target(float v) {
        mtwnTargetId t{};
        EXPECT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, V(v), &t), mtwn_success);
        return t;
    }
    float Value(mtwnTargetId t) {
        mtwnVec4 v{};
        EXPECT_EQ(mtwnTarget_GetValue(c, t, &v), mtwn_success);
        return v.x;
    }
    float Base(mtwnTargetId t) {
        mtwnTargetState s{};
        EXPECT_EQ(mtwnTarget_GetState(c, t, &s), mtwn_success);
        return s.base.x;
    }
    void Update(uint64_t ns) { ASSERT_EQ(mtwnContext_Update(c, ns, nullptr, 0, nullptr), mtwn_success); }
    mtwnPlayerId Player(mtwnClipId clip, mtwnTargetId t, uint32_t keep, uint32_t play = 1, double rate = 1.0) {
        mtwnBinding b = mtwnMakeBinding(0, t);
        mtwnClipPlayerDef d = mtwnDefaultClipPlayerDef();
        d.clip = clip;
        d.bindings = &b;
        d.bindingCount = 1;
        d.keep = keep;
        d.play = play;
        d.rate = rate;
        mtwnPlayerId p{};
        EXPECT_EQ(mtwnCreateClipPlayer(c, &d, &p), mtwn_success);
        return p;
    }
    mtwnClipPlayerState State(mtwnPlayerId p) {
        mtwnClipPlayerState s{};
        EXPECT_EQ(mtwnClipPlayer_GetState(c, p, &s), mtwn_success);
        return s;
    }
    std::vector<mtwnEvent> Events() {
        std::vector<mtwnEvent> e(256);
        uint32_t n = 0;
        EXPECT_EQ(mtwnContext_ReadEvents(c, e.data(), 256, &n, nullptr), mtwn_success);
        e.resize(n);
        return e;
    }
};

const mtwnEvent* Find(const std::vector<mtwnEvent>& e, uint32_t kind, uint32_t node = 0) {
    for (const mtwnEvent& x : e)
        if (x.kind == kind && (node == 0 || x.node == node)) return &x;
    return nullptr;
}

// -- 4: players that say running move -------------------------------------------

// Seeking an idle animation silently sets its hold time (its start time is
// unresolved); the play state is then paused (current time resolved, start
// time unresolved, no pending task), and it stays where it was sought.
TEST(PlayerState, SeekOnAnIdlePlayerPausesThere) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 2.0, 0, 2);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    mtwnPlayerId p = x.Player(clip, t, 1, 0);
    x.Update(0);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playIdle);
    ASSERT_EQ(mtwnClipPlayer_Seek(x.c, p, 0.5), mtwn_success);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playPaused);
    EXPECT_EQ(x.State(p).currentTime, 0.5);
    x.Update(100 * kMs);
    x.Update(600 * kMs);
    EXPECT_EQ(x.Value(t), 0.5f);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playPaused);
    // Play resumes from there: the start time 0.6 - 0.5 at the ready update.
    ASSERT_EQ(mtwnClipPlayer_Play(x.c, p), mtwn_success);
    x.Update(700 * kMs);
    x.Update(950 * kMs);
    EXPECT_EQ(x.Value(t), 0.75f);
}

// A finished animation keeps its start time; a seek sets its hold time and
// "update the finished state" with did seek resolves the start time again
// from it (now - 1.0 = 1.5), making the hold time unresolved: it runs.
TEST(PlayerState, SeekOnAFinishedKeptPlayerResumesThere) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 2.0, 0, 2);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    mtwnPlayerId p = x.Player(clip, t, 1);
    x.Update(0);
    x.Update(2500 * kMs);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playFinished);
    EXPECT_EQ(x.Value(t), 2.0f);
    ASSERT_EQ(mtwnClipPlayer_Seek(x.c, p, 1.0), mtwn_success);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playRunning);
    x.Update(3000 * kMs);
    EXPECT_EQ(x.Value(t), 1.5f);
    EXPECT_EQ(x.State(p).currentTime, 1.5);
}

// Rate 0 on a running animation: the pending play task's ready time (1.5 s)
// matches the current time 1.5 and holds it. Rate 1 then: play (no
// auto-rewind) with a pending rate makes a pending play task; at its ready
// time 2.5 the hold time 1.5 gives the start time 1.0, so 3.0 is at 2.0.
TEST(PlayerState, RateZeroThenOneRunsAgain) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 4.0, 0, 4);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    mtwnPlayerId p = x.Player(clip, t, 1);
    x.Update(0);
    x.Update(1000 * kMs);
    ASSERT_EQ(mtwnClipPlayer_SetRate(x.c, p, 0.0), mtwn_success);
    x.Update(1500 * kMs);
    EXPECT_EQ(x.Value(t), 1.5f);
    x.Update(2000 * kMs);
    EXPECT_EQ(x.Value(t), 1.5f);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playRunning);
    ASSERT_EQ(mtwnClipPlayer_SetRate(x.c, p, 1.0), mtwn_success);
    x.Update(2500 * kMs);
    EXPECT_EQ(x.Value(t), 1.5f);
    x.Update(3000 * kMs);
    EXPECT_EQ(x.Value(t), 2.0f);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playRunning);
}

// -- 5: record times from the player's time --------------------------------------

// Start time 0, rate 1: root time 0.9 is host time 0.9 s, the end 1.0 s at
// 1.0 s, whatever the update's interval (0 to 2 s).
TEST(PlayerState, RecordsAtTheHostTimeOfTheirCrossing) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    mtwnNode tr = x.Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 1);
    mtwnNode mk = x.Mark(clip, MTWN_ROOT_NODE, 0.9, 7);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    x.Player(clip, t, 1);
    x.Update(0);
    x.Update(2000 * kMs);
    std::vector<mtwnEvent> e = x.Events();
    const mtwnEvent* m = Find(e, mtwn_eventMark, mk);
    const mtwnEvent* f = Find(e, mtwn_eventFinish);
    const mtwnEvent* end = Find(e, mtwn_eventNodeEnd, tr);
    ASSERT_NE(m, nullptr);
    ASSERT_NE(f, nullptr);
    ASSERT_NE(end, nullptr);
    EXPECT_NEAR((double)m->timeNs, 900.0 * kMs, 1.0);
    EXPECT_NEAR((double)end->timeNs, 1000.0 * kMs, 1.0);
    EXPECT_NEAR((double)f->timeNs, 1000.0 * kMs, 1.0);
}

// Rate 2 from a start time of 0.5 s: root time 0.9 at 0.5 + 0.45 s.
TEST(PlayerState, RecordTimesInvertTheRate) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 1);
    mtwnNode mk = x.Mark(clip, MTWN_ROOT_NODE, 0.9, 7);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    x.Update(500 * kMs);
    x.Player(clip, t, 1, 1, 2.0);
    x.Update(500 * kMs);
    x.Update(3000 * kMs);
    std::vector<mtwnEvent> e = x.Events();
    const mtwnEvent* m = Find(e, mtwn_eventMark, mk);
    const mtwnEvent* f = Find(e, mtwn_eventFinish);
    ASSERT_NE(m, nullptr);
    ASSERT_NE(f, nullptr);
    EXPECT_NEAR((double)m->timeNs, 950.0 * kMs, 1.0);
    EXPECT_NEAR((double)f->timeNs, 1000.0 * kMs, 1.0);
}

// Reduced motion: "its events at that update's time" (context.h), the
// marks of a player finished at its first update among them.
TEST(PlayerState, ReducedMotionRecordsAtTheUpdatesTime) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 1);
    mtwnNode mk = x.Mark(clip, MTWN_ROOT_NODE, 0.9, 7);
    x.Seal(clip);
    mtwnTargetId a = x.Target(0), b = x.Target(0);
    x.Player(clip, a, 1);
    x.Update(0);
    x.Update(100 * kMs);
    x.Events();
    mtwnContext_EnableReducedMotion(x.c, true);
    x.Player(clip, b, 1);
    x.Update(200 * kMs);
    std::vector<mtwnEvent> e = x.Events();
    int marks = 0;
    for (const mtwnEvent& r : e) {
        EXPECT_EQ(r.timeNs, 200 * kMs) << r.kind;
        if (r.kind == mtwn_eventMark && r.node == mk) marks += 1;
    }
    EXPECT_EQ(marks, 2);  // the running player's and the new one's
}

// -- 7: finish -------------------------------------------------------------------

// Finish on a paused animation: the hold time is the limit, the start time
// resolved from it (step 5), the pause task none: finished. A finish record
// comes at once ("its records at once"), at the last update's time.
TEST(PlayerState, FinishOnAPausedPlayerFinishesAndRecords) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 2.0, 0, 2);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    mtwnPlayerId p = x.Player(clip, t, 1);
    x.Update(0);
    x.Update(500 * kMs);
    ASSERT_EQ(mtwnClipPlayer_Pause(x.c, p), mtwn_success);
    x.Events();
    ASSERT_EQ(mtwnClipPlayer_Finish(x.c, p), mtwn_success);
    std::vector<mtwnEvent> e = x.Events();
    const mtwnEvent* f = Find(e, mtwn_eventFinish);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->timeNs, 500 * kMs);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playFinished);
    EXPECT_EQ(x.State(p).currentTime, 2.0);
    x.Update(600 * kMs);
    EXPECT_EQ(x.Value(t), 2.0f);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playFinished);
    EXPECT_EQ(Find(x.Events(), mtwn_eventFinish), nullptr);  // one record for one finish
}

// A player not kept ends by committing its last value and is freed
// (player.h), a finished one by Finish too.
TEST(PlayerState, FinishedPlayerNotKeptCommitsAndFrees) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 2.0, 0, 2);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    mtwnPlayerId p = x.Player(clip, t, 0);
    x.Update(0);
    x.Update(500 * kMs);
    ASSERT_EQ(mtwnClipPlayer_Pause(x.c, p), mtwn_success);
    ASSERT_EQ(mtwnClipPlayer_Finish(x.c, p), mtwn_success);
    x.Update(600 * kMs);
    EXPECT_FALSE(mtwnPlayer_IsValid(x.c, p));
    EXPECT_EQ(x.Base(t), 2.0f);
    EXPECT_EQ(x.Value(t), 2.0f);
}

// -- 8: jumps do not cross -------------------------------------------------------

// Play with auto-rewind on a finished animation seeks to 0: a jump, so the
// next update crosses nothing backwards; a seek jumps over the mark.
TEST(PlayerState, AutoRewindAndSeeksJump) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 1);
    mtwnNode mk = x.Mark(clip, MTWN_ROOT_NODE, 0.5, 7);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    mtwnPlayerId p = x.Player(clip, t, 1);
    x.Update(0);
    x.Update(1500 * kMs);
    ASSERT_NE(Find(x.Events(), mtwn_eventMark, mk), nullptr);
    ASSERT_EQ(mtwnClipPlayer_Play(x.c, p), mtwn_success);
    x.Update(1500 * kMs);
    x.Update(1600 * kMs);
    EXPECT_EQ(x.Value(t), 0.1f);
    ASSERT_EQ(mtwnClipPlayer_Seek(x.c, p, 0.8), mtwn_success);
    x.Update(1700 * kMs);
    EXPECT_FLOAT_EQ(x.Value(t), 0.9f);
    for (const mtwnEvent& e : x.Events()) {
        EXPECT_EQ(e.backwards, 0u) << e.kind << " " << e.node;
        EXPECT_NE(e.kind, (uint32_t)mtwn_eventMark);
    }
}

// -- 9: cancel ---------------------------------------------------------------------

// A pending rate on a running animation is a pending play task; cancel
// resets the pending tasks, which applies the pending rate: the next play
// is backwards from the end.
TEST(PlayerState, CancelAppliesThePendingRate) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 4.0, 0, 4);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    mtwnPlayerId p = x.Player(clip, t, 1);
    x.Update(0);
    x.Update(1000 * kMs);
    ASSERT_EQ(mtwnClipPlayer_SetRate(x.c, p, -1.0), mtwn_success);
    ASSERT_EQ(mtwnClipPlayer_Cancel(x.c, p), mtwn_success);
    EXPECT_EQ(x.State(p).rate, -1.0);
    ASSERT_EQ(mtwnClipPlayer_Play(x.c, p), mtwn_success);
    x.Update(1000 * kMs);
    x.Update(1500 * kMs);
    EXPECT_EQ(x.Value(t), 3.5f);
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playRunning);
}

// Cancel: "without effect", at once, as mtwnDestroyPlayer shows the base.
TEST(PlayerState, CancelShowsTheBaseAtOnce) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 4.0, 0, 4);
    x.Seal(clip);
    mtwnTargetId t = x.Target(7);
    mtwnPlayerId p = x.Player(clip, t, 1);
    x.Update(0);
    x.Update(1000 * kMs);
    EXPECT_EQ(x.Value(t), 1.0f);
    ASSERT_EQ(mtwnClipPlayer_Cancel(x.c, p), mtwn_success);
    EXPECT_EQ(x.Value(t), 7.0f);
    mtwnTargetId changed[4];
    uint32_t total = 0;
    ASSERT_EQ(mtwnContext_Update(x.c, 1100 * kMs, changed, 4, &total), mtwn_success);
    EXPECT_EQ(x.Value(t), 7.0f);
    EXPECT_EQ(total, 1u);  // reported changed once
}

// -- 10: a later player not kept ending over an earlier one -------------------------

TEST(PlayerState, LaterFillNonePlayerEndingLeavesTheEarlierValue) {
    Ctx x;
    mtwnClipId a = x.Clip();
    x.Track(a, MTWN_ROOT_NODE, 0, 2.0, 0, 10);
    x.Seal(a);
    mtwnClipId b = x.Clip();
    x.Track(b, MTWN_ROOT_NODE, 0, 1.0, 100, 100, mtwn_fillNone);
    x.Seal(b);
    mtwnTargetId t = x.Target(0);
    x.Player(a, t, 1);
    mtwnPlayerId pb = x.Player(b, t, 0);
    x.Update(0);
    x.Update(500 * kMs);
    EXPECT_EQ(x.Value(t), 100.0f);
    x.Update(1500 * kMs);
    EXPECT_FALSE(mtwnPlayer_IsValid(x.c, pb));
    EXPECT_EQ(x.Value(t), 7.5f);
    EXPECT_EQ(x.Base(t), 0.0f);  // fill none commits nothing
}

// -- 11: refusals and SetBase -------------------------------------------------------

TEST(PlayerState, TimelineEasingMustNeverDecrease) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    mtwnClipTimelineDef d = mtwnDefaultClipTimelineDef();
    ASSERT_EQ(mtwnMakeBackEasing(mtwn_easeOut, 1.70158, &d.timing.easing), mtwn_success);
    mtwnNode n = 0;
    uint64_t misuse = mtwnContext_GetMisuse(x.c);
    EXPECT_EQ(mtwnClip_AddTimeline(x.c, clip, &d, &n), mtwn_errorInvalid);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), misuse + 1);
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeOut, &d.timing.easing), mtwn_success);
    EXPECT_EQ(mtwnClip_AddTimeline(x.c, clip, &d, &n), mtwn_success);
}

TEST(PlayerState, SlotCountStartsAtOne) {
    Ctx x;
    mtwnClipDef d = mtwnDefaultClipDef();
    d.slotCount = 0;
    mtwnClipId id{77, 77};
    EXPECT_EQ(mtwnCreateClip(x.c, &d, &id), mtwn_errorInvalid);
    EXPECT_EQ(id.index, 77u);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 1u);
}

// "A target no animation writes shows it at once": one a clip player writes
// shows it at the next update, composed under the player.
TEST(PlayerState, SetBaseUnderAClipPlayerShowsAtTheNextUpdate) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    mtwnKeyframe k[2] = {Key(0, 0), Key(1, 4)};
    mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
    d.keyframes = k;
    d.keyframeCount = 2;
    d.timing.duration = 4.0;
    d.timing.fill = mtwn_fillForwards;
    mtwnNode n;
    ASSERT_EQ(mtwnClip_AddTrack(x.c, clip, &d, &n), mtwn_success);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    x.Player(clip, t, 1);
    x.Update(0);
    x.Update(1000 * kMs);
    EXPECT_EQ(x.Value(t), 1.0f);
    ASSERT_EQ(mtwnTarget_SetBase(x.c, t, V(9)), mtwn_success);
    EXPECT_EQ(x.Value(t), 1.0f);
    EXPECT_EQ(x.Base(t), 9.0f);
}

// -- 2: storage under live handles ----------------------------------------------------

TEST(PlayerState, ATracksStorageStaysWhileItsClipLives) {
    Ctx x;
    mtwnClipId a = x.Clip();
    x.Track(a, MTWN_ROOT_NODE, 0, 1.0, 0, 1);
    x.Seal(a);
    mtwnClipId b = x.Clip();
    mtwnNode n = x.Track(b, MTWN_ROOT_NODE, 0, 1.0, 0, 8);
    x.Seal(b);
    mtwnClipTrack tr;
    ASSERT_EQ(mtwnClip_GetTrack(x.c, b, n, &tr), mtwn_success);
    mtwnVec4 v{};
    ASSERT_EQ(mtwnSampleTrack(&tr.track, 0.5, &v), mtwn_success);
    EXPECT_EQ(v.x, 4.0f);
    ASSERT_EQ(mtwnDestroyClip(x.c, a), mtwn_success);
    mtwnClipId c2 = x.Clip();
    x.Track(c2, MTWN_ROOT_NODE, 0, 1.0, 100, 200);
    x.Seal(c2);
    mtwnClipId c3 = x.Clip();
    x.Track(c3, MTWN_ROOT_NODE, 0, 1.0, 300, 400);
    x.Seal(c3);
    ASSERT_EQ(mtwnSampleTrack(&tr.track, 0.5, &v), mtwn_success);
    EXPECT_EQ(v.x, 4.0f);
}

// -- 3: host code calls no non-const function ----------------------------------------

struct Host {
    mtwnContext* c = nullptr;
    mtwnTargetId target{};
    mtwnPlayerId player{};
    mtwnClipId clip{};
    std::vector<mtwnResult> results;
    int voids = 0;
    bool done = false;
};

double CallEverything(void* user, double q) {
    auto* h = static_cast<Host*>(user);
    if (h->done) return q;
    h->done = true;
    mtwnContext* c = h->c;
    std::vector<mtwnResult>& r = h->results;
    mtwnClipDef cd = mtwnDefaultClipDef();
    mtwnClipId clip;
    r.push_back(mtwnCreateClip(c, &cd, &clip));
    r.push_back(mtwnDestroyClip(c, h->clip));
    mtwnClipTrackDef td = mtwnDefaultClipTrackDef();
    mtwnNode n;
    r.push_back(mtwnClip_AddTrack(c, h->clip, &td, &n));
    mtwnClipTimelineDef tl = mtwnDefaultClipTimelineDef();
    r.push_back(mtwnClip_AddTimeline(c, h->clip, &tl, &n));
    r.push_back(mtwnClip_AddLabel(c, h->clip, MTWN_ROOT_NODE, At(0), 1, &n));
    r.push_back(mtwnClip_AddMark(c, h->clip, MTWN_ROOT_NODE, At(0), 1, &n));
    r.push_back(mtwnClip_Seal(c, h->clip));
    mtwnContextDef d = mtwnDefaultContextDef();
    mtwnContext* g = c;
    r.push_back(mtwnContext_Grow(&g, &d));
    r.push_back(mtwnContext_Update(c, 1u << 30, nullptr, 0, nullptr));
    uint32_t count;
    r.push_back(mtwnContext_ReadEvents(c, nullptr, 0, &count, nullptr));
    mtwnClipPlayerDef pd = mtwnDefaultClipPlayerDef();
    pd.clip = h->clip;
    mtwnPlayerId p;
    r.push_back(mtwnCreateClipPlayer(c, &pd, &p));
    r.push_back(mtwnClipPlayer_Play(c, h->player));
    r.push_back(mtwnClipPlayer_Pause(c, h->player));
    r.push_back(mtwnClipPlayer_Reverse(c, h->player));
    r.push_back(mtwnClipPlayer_Finish(c, h->player));
    r.push_back(mtwnClipPlayer_Cancel(c, h->player));
    r.push_back(mtwnClipPlayer_Seek(c, h->player, 0.5));
    r.push_back(mtwnClipPlayer_Sweep(c, h->player, 0.5));
    r.push_back(mtwnClipPlayer_SeekProgress(c, h->player, 0.5));
    r.push_back(mtwnClipPlayer_SeekLabel(c, h->player, 1));
    r.push_back(mtwnClipPlayer_SetRate(c, h->player, 2.0));
    r.push_back(mtwnClipPlayer_SetWeight(c, h->player, 0.5f));
    r.push_back(mtwnDestroyPlayer(c, h->player));
    mtwnTargetId t;
    r.push_back(mtwnCreateTarget(c, mtwn_valueScalar, V(0), &t));
    r.push_back(mtwnDestroyTarget(c, h->target));
    r.push_back(mtwnTarget_SetBase(c, h->target, V(3)));
    mtwnTransitionDef tr = mtwnDefaultTransitionDef();
    tr.target = h->target;
    tr.value = V(1);
    mtwnPlayerId tp;
    r.push_back(mtwnStartTransition(c, &tr, &tp));
    // The two that return nothing.
    mtwnContext_EnableReducedMotion(c, true);
    mtwnDestroyContext(c);
    h->voids = 2;
    return q;
}

TEST(PlayerState, HostCodeCallsNoNonConstFunction) {
    Ctx x;
    Host h;
    h.c = x.c;
    h.clip = x.Clip();
    mtwnKeyframe k[2] = {Key(0, 0), Key(1, 4)};
    mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
    d.keyframes = k;
    d.keyframeCount = 2;
    d.timing.duration = 4.0;
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, &CallEverything, &h, &d.timing.easing), mtwn_success);
    mtwnNode n;
    ASSERT_EQ(mtwnClip_AddTrack(x.c, h.clip, &d, &n), mtwn_success);
    ASSERT_EQ(mtwnClip_AddLabel(x.c, h.clip, MTWN_ROOT_NODE, At(1), 1, &n), mtwn_success);
    x.Seal(h.clip);
    h.target = x.Target(0);
    h.player = x.Player(h.clip, h.target, 1);
    x.Update(0);
    x.Update(1000 * kMs);
    ASSERT_TRUE(h.done);
    ASSERT_EQ(h.results.size(), 27u);
    for (size_t i = 0; i < h.results.size(); ++i) EXPECT_EQ(h.results[i], mtwn_errorBusy) << i;
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 27u + (uint64_t)h.voids);
    // Nothing changed: the context, its player and target live on.
    EXPECT_TRUE(mtwnPlayer_IsValid(x.c, h.player));
    EXPECT_TRUE(mtwnTarget_IsValid(x.c, h.target));
    EXPECT_FALSE(mtwnContext_IsReducedMotionEnabled(x.c));
    EXPECT_EQ(x.Value(h.target), 1.0f);
}

// -- 1: staging under an alternating grandparent ------------------------------------

struct Serial {
    static void* Begin(void*, mtwnTaskFunction* task, void* data, uint32_t count) {
        for (uint32_t i = count; i > 0; --i) task(data, i - 1);
        return nullptr;
    }
    static void Wait(void*, void*) {}
};

struct Outcome {
    std::vector<float> values;
    std::vector<mtwnEvent> events;
};

Outcome RunAlternatingGrandparent(bool tasks) {
    mtwnContextDef d = mtwnDefaultContextDef();
    if (tasks) {
        d.taskSystem.begin = &Serial::Begin;
        d.taskSystem.wait = &Serial::Wait;
    }
    Ctx x(&d);
    mtwnClipId clip = x.Clip();
    mtwnClipTimelineDef g = mtwnDefaultClipTimelineDef();
    g.timing.direction = mtwn_directionAlternate;
    g.timing.iterations = 3;
    g.timing.fill = mtwn_fillBoth;
    mtwnNode gp = 0, pa = 0;
    EXPECT_EQ(mtwnClip_AddTimeline(x.c, clip, &g, &gp), mtwn_success);
    mtwnClipTimelineDef p = mtwnDefaultClipTimelineDef();
    p.parent = gp;
    p.timing.fill = mtwn_fillBoth;
    EXPECT_EQ(mtwnClip_AddTimeline(x.c, clip, &p, &pa), mtwn_success);
    for (uint32_t i = 0; i < 3; ++i) x.Track(clip, pa, 0.1 * i, 0.5, 0, 1 + i);
    for (uint32_t i = 0; i < 5; ++i) x.Mark(clip, pa, 0.05 + 0.1 * i, i);
    x.Seal(clip);
    mtwnTargetId a = x.Target(5), b = x.Target(5);
    x.Player(clip, a, 1);
    x.Player(clip, b, 1);
    x.Update(0);
    x.Update(10000 * kMs);
    Outcome o;
    o.values = {x.Value(a), x.Value(b)};
    o.events = x.Events();
    return o;
}

TEST(PlayerState, StagingHoldsAnAlternatingGrandparentsRecords) {
    Outcome serial = RunAlternatingGrandparent(false);
    Outcome staged = RunAlternatingGrandparent(true);
    EXPECT_EQ(serial.values, staged.values);
    ASSERT_EQ(serial.events.size(), staged.events.size());
    EXPECT_GT(serial.events.size(), 20u);
    for (size_t i = 0; i < serial.events.size(); ++i)
        EXPECT_EQ(std::memcmp(&serial.events[i], &staged.events[i], sizeof(mtwnEvent)), 0) << i;
}

}  // namespace

namespace {

// -- 13: decided and documented in the headers -----------------------------------------

// target.h: "a transition's only (a target only clip players move reports 0)".
TEST(PlayerState, AClipPlayersTargetReportsNoVelocity) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 4.0, 0, 4);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    x.Player(clip, t, 1);
    x.Update(0);
    x.Update(1000 * kMs);
    mtwnTargetState s{};
    ASSERT_EQ(mtwnTarget_GetState(x.c, t, &s), mtwn_success);
    EXPECT_EQ(s.value.x, 1.0f);
    EXPECT_EQ(s.velocity.x, 0.0f);
}

// context.h: a base committed in the update is listed at its commit, before
// targets whose value alone changed, whatever order the update wrote them.
TEST(PlayerState, ChangedListsCommitsBeforeValueChanges) {
    Ctx x;
    mtwnClipId moving = x.Clip();
    x.Track(moving, MTWN_ROOT_NODE, 0, 4.0, 0, 4);
    x.Seal(moving);
    mtwnClipId ending = x.Clip();
    x.Track(ending, MTWN_ROOT_NODE, 0, 1.0, 0, 8);
    x.Seal(ending);
    mtwnTargetId a = x.Target(0), b = x.Target(0);
    x.Player(moving, a, 1);  // made first: written first
    x.Player(ending, b, 0);
    x.Update(0);
    mtwnTargetId changed[4];
    uint32_t total = 0;
    ASSERT_EQ(mtwnContext_Update(x.c, 2000 * kMs, changed, 4, &total), mtwn_success);
    ASSERT_EQ(total, 2u);
    EXPECT_EQ(changed[0].index, b.index);  // committed (base 8) in the update
    EXPECT_EQ(changed[1].index, a.index);  // its value alone
    EXPECT_EQ(x.Base(b), 8.0f);
}

// player.h: a cancelled player is kept, whatever its def said.
TEST(PlayerState, CancelKeepsAPlayerNotKept) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    x.Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 4);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    mtwnPlayerId p = x.Player(clip, t, 0);
    x.Update(0);
    ASSERT_EQ(mtwnClipPlayer_Cancel(x.c, p), mtwn_success);
    EXPECT_EQ(x.State(p).kept, 1u);
    ASSERT_EQ(mtwnClipPlayer_Play(x.c, p), mtwn_success);
    x.Update(100 * kMs);
    x.Update(2000 * kMs);
    EXPECT_TRUE(mtwnPlayer_IsValid(x.c, p));
    EXPECT_EQ(x.State(p).playState, (uint32_t)mtwn_playFinished);
    EXPECT_EQ(x.Base(t), 0.0f);  // kept: nothing committed
}

}  // namespace

namespace {

// -- 6: crossings not lost, whatever the frame size ------------------------------------

// A timeline of fill none ending at 1 s (its child's end), holding a mark at
// 0.9 s and a track over it; the root ends there too.
mtwnClipId FillNoneTimeline(Ctx& x, mtwnNode* track, mtwnNode* mark) {
    mtwnClipId clip = x.Clip();
    mtwnClipTimelineDef d = mtwnDefaultClipTimelineDef();
    mtwnNode tl = 0;
    EXPECT_EQ(mtwnClip_AddTimeline(x.c, clip, &d, &tl), mtwn_success);
    *track = x.Track(clip, tl, 0, 1.0, 0, 1);
    *mark = x.Mark(clip, tl, 0.9, 3);
    x.Seal(clip);
    return clip;
}

struct Tally {
    uint32_t count = 0;
    uint64_t first = UINT64_MAX;
};

// Records summed over a run by node, kind and direction.
std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Tally> Sum(const std::vector<mtwnEvent>& e) {
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Tally> m;
    for (const mtwnEvent& r : e) {
        Tally& t = m[std::make_tuple(r.node, r.kind, r.backwards)];
        t.count += r.count;
        if (r.timeNs < t.first) t.first = r.timeNs;
    }
    return m;
}

std::vector<mtwnEvent> RunFillNone(const std::vector<uint64_t>& times, mtwnNode* track, mtwnNode* mark) {
    Ctx x;
    mtwnClipId clip = FillNoneTimeline(x, track, mark);
    mtwnTargetId t = x.Target(0);
    x.Player(clip, t, 1);
    std::vector<mtwnEvent> all;
    for (uint64_t ns : times) {
        x.Update(ns);
        std::vector<mtwnEvent> e = x.Events();
        all.insert(all.end(), e.begin(), e.end());
    }
    return all;
}

// GSAP (clip.h's model) records a child's start when its time leaves 0,
// its end when it reaches it, a mark when crossed: one update or many.
TEST(PlayerState, CrossingsUnderAFillNoneTimelineAreNotLost) {
    mtwnNode track = 0, mark = 0;
    std::vector<uint64_t> jump = {0, 200 * kMs, 2000 * kMs};
    std::vector<uint64_t> steps;
    for (uint64_t ms = 0; ms <= 2000; ms += 7) steps.push_back(ms * kMs);
    for (const std::vector<uint64_t>* run : {&jump, &steps}) {
        auto m = Sum(RunFillNone(*run, &track, &mark));
        auto at = [&](uint32_t node, uint32_t kind) { return m[std::make_tuple(node, (uint32_t)kind, 0u)]; };
        EXPECT_EQ(at(mark, mtwn_eventMark).count, 1u) << run->size();
        EXPECT_NEAR((double)at(mark, mtwn_eventMark).first, 900.0 * kMs, 2.0);
        EXPECT_EQ(at(track, mtwn_eventNodeEnd).count, 1u) << run->size();
        EXPECT_NEAR((double)at(track, mtwn_eventNodeEnd).first, 1000.0 * kMs, 2.0);
        EXPECT_EQ(at(track, mtwn_eventNodeStart).count, 1u) << run->size();
    }
}

// A track at its parent's time 0 starts when that time leaves 0.
TEST(PlayerState, ATrackAtZeroStartsWhenTheTimeLeavesZero) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    mtwnNode tr = x.Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 1);
    x.Seal(clip);
    mtwnTargetId t = x.Target(0);
    x.Player(clip, t, 1);
    x.Update(0);
    EXPECT_EQ(Find(x.Events(), mtwn_eventNodeStart, tr), nullptr);  // still at 0
    x.Update(100 * kMs);
    const std::vector<mtwnEvent> e = x.Events();
    const mtwnEvent* s = Find(e, mtwn_eventNodeStart, tr);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->count, 1u);
    EXPECT_EQ(s->timeNs, 0u);  // it left 0 at the previous update
}

// Frame-size independence: a clip with an alternating iterating timeline,
// marks and tracks at several depths, run in one update, in 7 ms steps and
// in seeded random steps, gives the same counts per node, kind and
// direction, and the same first times within the timing's rounding.
std::vector<mtwnEvent> RunNested(const std::vector<uint64_t>& times) {
    Ctx x;
    mtwnClipId clip = x.Clip();
    mtwnClipTimelineDef g = mtwnDefaultClipTimelineDef();
    g.timing.direction = mtwn_directionAlternate;
    g.timing.iterations = 3;
    g.timing.fill = mtwn_fillBoth;
    g.position = At(0.25);
    mtwnNode gp = 0, inner = 0;
    EXPECT_EQ(mtwnClip_AddTimeline(x.c, clip, &g, &gp), mtwn_success);
    x.Track(clip, gp, 0.1, 0.4, 0, 1);
    x.Mark(clip, gp, 0.3, 1);
    mtwnClipTimelineDef in = mtwnDefaultClipTimelineDef();
    in.parent = gp;
    in.position = At(0.2);
    EXPECT_EQ(mtwnClip_AddTimeline(x.c, clip, &in, &inner), mtwn_success);
    x.Track(clip, inner, 0, 0.3, 2, 3, mtwn_fillNone, 1);
    x.Mark(clip, inner, 0.15, 2);
    x.Mark(clip, MTWN_ROOT_NODE, 0.5, 9);
    x.Track(clip, MTWN_ROOT_NODE, 0, 0.6, 5, 6, mtwn_fillForwards, 2);
    x.Seal(clip);
    mtwnTargetId t0 = x.Target(0), t1 = x.Target(0), t2 = x.Target(0);
    mtwnBinding b[3] = {mtwnMakeBinding(0, t0), mtwnMakeBinding(1, t1), mtwnMakeBinding(2, t2)};
    mtwnClipPlayerDef d = mtwnDefaultClipPlayerDef();
    d.clip = clip;
    d.bindings = b;
    d.bindingCount = 3;
    d.keep = 1;
    mtwnPlayerId p;
    EXPECT_EQ(mtwnCreateClipPlayer(x.c, &d, &p), mtwn_success);
    std::vector<mtwnEvent> all;
    for (uint64_t ns : times) {
        x.Update(ns);
        std::vector<mtwnEvent> e = x.Events();
        all.insert(all.end(), e.begin(), e.end());
    }
    return all;
}

TEST(PlayerState, RecordsDoNotDependOnTheFrameSize) {
    const uint64_t end = 5000 * kMs;
    std::vector<uint64_t> one = {0, end};
    std::vector<uint64_t> fixed, random;
    for (uint64_t ns = 0; ns < end; ns += 7 * kMs) fixed.push_back(ns);
    fixed.push_back(end);
    uint64_t seed = 0x9E3779B97F4A7C15ull, at = 0;
    while (at < end) {
        random.push_back(at);
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        at += (seed >> 40) % (60 * kMs) + 1;
    }
    random.push_back(end);
    auto a = Sum(RunNested(one)), b = Sum(RunNested(fixed)), c = Sum(RunNested(random));
    EXPECT_GT(a.size(), 8u);
    for (const auto* o : {&b, &c}) {
        ASSERT_EQ(a.size(), o->size());
        for (const auto& kv : a) {
            auto it = o->find(kv.first);
            ASSERT_NE(it, o->end());
            EXPECT_EQ(kv.second.count, it->second.count)
                << std::get<0>(kv.first) << " " << std::get<1>(kv.first) << " " << std::get<2>(kv.first);
            EXPECT_NEAR((double)kv.second.first, (double)it->second.first, 2.0)
                << std::get<0>(kv.first) << " " << std::get<1>(kv.first) << " " << std::get<2>(kv.first);
        }
    }
}

}  // namespace
