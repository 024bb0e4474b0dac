// Tests of clip.h and player.h's clip players: positions, nested timelines,
// sealing and reads, storage, players' Web Animations procedures, weights,
// later players over earlier ones, commits, marks and refusals.
#include <cmath>
#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>
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

mtwnVec4 V(float x, float y = 0, float z = 0, float w = 0) { return mtwnVec4{x, y, z, w}; }

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

struct Fixture : ::testing::Test {
    mtwnContext* c = nullptr;
    void SetUp() override {
        mtwnContextDef d = mtwnDefaultContextDef();
        ASSERT_EQ(mtwnCreateContext(&d, &c), mtwn_success);
    }
    void TearDown() override { mtwnDestroyContext(c); }
    mtwnClipId Clip() {
        mtwnClipDef d = mtwnDefaultClipDef();
        mtwnClipId id{};
        EXPECT_EQ(mtwnCreateClip(c, &d, &id), mtwn_success);
        return id;
    }
    // A scalar track from a to b over `duration` on a parent at a start, filling forwards.
    mtwnNode Track(mtwnClipId clip, mtwnNode parent, double start, double duration, double a, double b,
                   uint32_t slot = 0) {
        mtwnKeyframe k[2] = {Key(0, a), Key(1, b)};
        mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
        d.parent = parent;
        d.position = At(start);
        d.slot = slot;
        d.keyframes = k;
        d.keyframeCount = 2;
        d.timing.duration = duration;
        d.timing.fill = mtwn_fillForwards;
        mtwnNode n = 0;
        EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &n), mtwn_success);
        return n;
    }
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
    mtwnPlayerId Player(mtwnClipId clip, const std::vector<mtwnBinding>& b, uint32_t keep = 0, double rate = 1.0) {
        mtwnClipPlayerDef d = mtwnDefaultClipPlayerDef();
        d.clip = clip;
        d.bindings = b.data();
        d.bindingCount = (uint32_t)b.size();
        d.keep = keep;
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
};

TEST_F(Fixture, DefaultClipBytesAndStorageCounted) {
    mtwnClipDef d = mtwnDefaultClipDef();
    uint64_t bytes = 0;
    ASSERT_EQ(mtwnContext_GetClipBytes(c, &d, &bytes), mtwn_success);
    EXPECT_GT(bytes, 8000u);
    EXPECT_LT(bytes, 20000u);
    // Clips fit while the storage lasts; then capacity, not misuse.
    uint64_t fit = mtwnDefaultContextDef().clipStorageBytes / bytes;
    std::vector<mtwnClipId> ids;
    for (uint64_t i = 0; i < fit; ++i) ids.push_back(Clip());
    mtwnClipId extra;
    EXPECT_EQ(mtwnCreateClip(c, &d, &extra), mtwn_errorCapacity);
    EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);
    // Destroying one in the middle makes room; the others keep their contents.
    Track(ids.back(), MTWN_ROOT_NODE, 0, 2, 0, 1);
    ASSERT_EQ(mtwnClip_Seal(c, ids.back()), mtwn_success);
    ASSERT_EQ(mtwnDestroyClip(c, ids[0]), mtwn_success);
    EXPECT_FALSE(mtwnClip_IsValid(c, ids[0]));
    double dur = 0;
    ASSERT_EQ(mtwnClip_GetDuration(c, ids.back(), &dur), mtwn_success);
    EXPECT_EQ(dur, 2.0);
    EXPECT_EQ(mtwnCreateClip(c, &d, &extra), mtwn_success);
    d.cookie = 0;
    EXPECT_EQ(mtwnContext_GetClipBytes(c, &d, &bytes), mtwn_errorInvalid);
    d = mtwnDefaultClipDef();
    d.nodeCapacity = MTWN_MAX_COUNT + 1;
    EXPECT_EQ(mtwnContext_GetClipBytes(c, &d, &bytes), mtwn_errorLimit);
    EXPECT_EQ(mtwnCreateClip(c, &d, &extra), mtwn_errorLimit);
}

// The reference: the default context def's "240 KiB of clip storage, which
// holds 16 clips of the default clip def" (mtwnDefaultContextDef), that def
// "about 15 KB". 240 * 1024 / 16 = 15360 bytes a clip at most.
TEST_F(Fixture, DefaultContextStorageHoldsSixteenDefaultClips) {
    mtwnClipDef d = mtwnDefaultClipDef();
    uint64_t bytes = 0;
    ASSERT_EQ(mtwnContext_GetClipBytes(c, &d, &bytes), mtwn_success);
    EXPECT_LE(bytes, 15360u);
    EXPECT_GT(bytes, 14000u);  // about 15 KB
    EXPECT_EQ(mtwnDefaultContextDef().clipStorageBytes, 245760u);
    std::vector<mtwnClipId> ids;
    for (int i = 0; i < 16; ++i) ids.push_back(Clip());
    for (const mtwnClipId& id : ids) EXPECT_TRUE(mtwnClip_IsValid(c, id));
    // Filled, each node kind still reads only its own fields.
    mtwnClipTimelineDef td = mtwnDefaultClipTimelineDef();
    mtwnNode tl = 0, tr = 0, lb = 0, mk = 0;
    ASSERT_EQ(mtwnClip_AddTimeline(c, ids[15], &td, &tl), mtwn_success);
    tr = Track(ids[15], tl, 0.25, 2.0, 0, 1, 5);
    ASSERT_EQ(mtwnClip_AddLabel(c, ids[15], tl, At(1.5), 7u, &lb), mtwn_success);
    ASSERT_EQ(mtwnClip_AddMark(c, ids[15], tl, At(0.5), 9u, &mk), mtwn_success);
    ASSERT_EQ(mtwnClip_Seal(c, ids[15]), mtwn_success);
    mtwnClipNodeInfo info{};
    ASSERT_EQ(mtwnClip_GetNode(c, ids[15], tl, &info), mtwn_success);
    EXPECT_EQ(info.kind, (uint32_t)mtwn_nodeTimeline);
    EXPECT_EQ(info.depth, 1u);
    EXPECT_EQ(info.key, 0u);
    EXPECT_EQ(info.slot, 0u);
    EXPECT_EQ(info.end, 2.25);
    ASSERT_EQ(mtwnClip_GetNode(c, ids[15], tr, &info), mtwn_success);
    EXPECT_EQ(info.depth, 2u);
    EXPECT_EQ(info.key, 0u);
    EXPECT_EQ(info.slot, 5u);
    EXPECT_EQ(info.start, 0.25);
    EXPECT_EQ(info.end, 2.25);
    ASSERT_EQ(mtwnClip_GetNode(c, ids[15], lb, &info), mtwn_success);
    EXPECT_EQ(info.key, 7u);
    EXPECT_EQ(info.slot, 0u);
    EXPECT_EQ(info.end, 1.5);
    ASSERT_EQ(mtwnClip_GetNode(c, ids[15], mk, &info), mtwn_success);
    EXPECT_EQ(info.key, 9u);
    EXPECT_EQ(info.end, 0.5);
    double dur = 0;
    ASSERT_EQ(mtwnClip_GetDuration(c, ids[15], &dur), mtwn_success);
    EXPECT_EQ(dur, 2.25);
    EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);
}

// NaN strictly inside 0 to 1, the ends given as they are.
double NanInside(void*, double q) { return q > 0.0 && q < 1.0 ? NAN : q; }

// The reference (mtwnContext_GetMisuse): the samples "that met a host
// easing's NaN: ... one for each player's clip track at an update, whichever
// of the track's easings gave it" -- a keyframe's easing as much as the
// track's timing's, and one sample one count when both do. The NaN's progress
// is taken (mtwnMakeHostEasing): linear there, so 0 to 8 at 0.25 is 2.
TEST_F(Fixture, HostEasingNaNInAKeyframeCountsOnePerPlayersTrackSample) {
    mtwnEasing nan{};
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, &NanInside, nullptr, &nan), mtwn_success);
    mtwnKeyframe k[2] = {Key(0, 0), Key(1, 8)};
    k[0].easing = nan;
    mtwnClipId a = Clip(), b = Clip();
    mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
    d.keyframes = k;
    d.keyframeCount = 2;
    d.timing.duration = 1.0;
    d.timing.fill = mtwn_fillForwards;
    mtwnNode n = 0;
    ASSERT_EQ(mtwnClip_AddTrack(c, a, &d, &n), mtwn_success);  // the keyframe's easing only
    d.timing.easing = nan;
    ASSERT_EQ(mtwnClip_AddTrack(c, b, &d, &n), mtwn_success);  // the timing's and the keyframe's
    ASSERT_EQ(mtwnClip_Seal(c, a), mtwn_success);
    ASSERT_EQ(mtwnClip_Seal(c, b), mtwn_success);
    mtwnTargetId t1 = Target(0), t2 = Target(0), t3 = Target(0);
    Player(a, {mtwnMakeBinding(0, t1)});
    Player(a, {mtwnMakeBinding(0, t2)});
    Player(b, {mtwnMakeBinding(0, t3)});
    Update(10 * kMs);  // progress 0: no NaN
    EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);
    Update(260 * kMs);  // progress 0.25: one for each of the three players' track
    EXPECT_EQ(mtwnContext_GetMisuse(c), 3u);
    EXPECT_EQ(Value(t1), 2.0f);
    EXPECT_EQ(Value(t2), 2.0f);
    EXPECT_EQ(Value(t3), 2.0f);
    Update(510 * kMs);
    EXPECT_EQ(mtwnContext_GetMisuse(c), 6u);
    EXPECT_EQ(Value(t1), 4.0f);
    EXPECT_EQ(Value(t3), 4.0f);
    Update(1510 * kMs);  // ended: the fill's end value at progress 1, no NaN
    EXPECT_EQ(mtwnContext_GetMisuse(c), 6u);
    EXPECT_EQ(Value(t1), 8.0f);
}

// event.h's reference: "at most one record per player, node or mark, kind and
// direction, with the count of crossings, ordered by the time of the first
// crossing". A timeline of 10 iterations of 1 s holds a track from 0.125 to
// 0.625 and a mark at 0.5; one update takes the root from 0.25 to 3.75,
// across 3 iteration boundaries. Hand count, in the timeline's overall
// progress o: the mark at o = 0.5, 1.5, 2.5, 3.5 (4); the track's end at
// 0.625, 1.625, 2.625, 3.625 (4); its start at 1.125, 2.125, 3.125 (3; 0.125
// came before 0.25). The first crossing's host time is 260 ms plus the share
// (o - 0.25) / 3.5 of the 3500 ms step: (o - 0.25) seconds.
struct Crossings : Fixture {
    mtwnNode tl = 0, track = 0, mark = 0;
    std::vector<mtwnEvent> Run(uint32_t direction) {
        mtwnClipId clip = Clip();
        mtwnClipTimelineDef td = mtwnDefaultClipTimelineDef();
        td.durationFromChildren = 0;
        td.timing.duration = 1.0;
        td.timing.iterations = 10.0;
        td.timing.direction = direction;
        EXPECT_EQ(mtwnClip_AddTimeline(c, clip, &td, &tl), mtwn_success);
        track = Track(clip, tl, 0.125, 0.5, 0, 1);
        EXPECT_EQ(mtwnClip_AddMark(c, clip, tl, At(0.5), 7u, &mark), mtwn_success);
        EXPECT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
        mtwnTargetId t = Target(0);
        Player(clip, {mtwnMakeBinding(0, t)}, 1);
        mtwnEvent ev[32];
        uint32_t n = 0;
        Update(10 * kMs);   // starts: current time 0
        Update(260 * kMs);  // 0.25
        EXPECT_EQ(mtwnContext_ReadEvents(c, ev, 32, &n, nullptr), mtwn_success);
        Update(3760 * kMs);  // 3.75
        EXPECT_EQ(mtwnContext_ReadEvents(c, ev, 32, &n, nullptr), mtwn_success);
        EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);
        return std::vector<mtwnEvent>(ev, ev + n);
    }
    void Expect(const mtwnEvent& e, uint32_t kind, mtwnNode node, uint32_t backwards, uint32_t count, double o) {
        EXPECT_EQ(e.kind, kind);
        EXPECT_EQ(e.node, node);
        EXPECT_EQ(e.key, kind == (uint32_t)mtwn_eventMark ? 7u : 0u);
        EXPECT_EQ(e.backwards, backwards);
        EXPECT_EQ(e.count, count);
        // The share of the step rounds to within a few ns.
        EXPECT_NEAR((double)e.timeNs, 260e6 + (o - 0.25) * 1e9, 1e3);
    }
};

TEST_F(Crossings, AnIteratingParentsCrossingsAreCountedInOneRecordEach) {
    std::vector<mtwnEvent> ev = Run(mtwn_directionNormal);
    ASSERT_EQ(ev.size(), 3u);
    Expect(ev[0], mtwn_eventMark, mark, 0, 4, 0.5);
    Expect(ev[1], mtwn_eventNodeEnd, track, 0, 4, 0.625);
    Expect(ev[2], mtwn_eventNodeStart, track, 0, 3, 1.125);
}

// Alternating, iterations 1 and 3 run the timeline's time down: 0.25 to 1
// forwards, 1 to 0 backwards, 0 to 1, 1 to 0.25 backwards. Down, the track is
// entered at its end (a start record, backwards) and left at its start.
TEST_F(Crossings, AnAlternatingParentsCrossingsAreCountedByDirection) {
    std::vector<mtwnEvent> ev = Run(mtwn_directionAlternate);
    ASSERT_EQ(ev.size(), 6u);
    Expect(ev[0], mtwn_eventMark, mark, 0, 2, 0.5);          // 0.5, 2.5
    Expect(ev[1], mtwn_eventNodeEnd, track, 0, 2, 0.625);    // 0.625, 2.625
    Expect(ev[2], mtwn_eventNodeStart, track, 1, 2, 1.375);  // 1.375, 3.375
    Expect(ev[3], mtwn_eventMark, mark, 1, 2, 1.5);          // 1.5, 3.5
    Expect(ev[4], mtwn_eventNodeEnd, track, 1, 1, 1.875);    // 1.875
    Expect(ev[5], mtwn_eventNodeStart, track, 0, 1, 2.125);  // 2.125
}

// Crossings under an iterating grandparent (docs/internals/timing.md). The
// root holds timeline O at 0: delay 0.5, 3 iterations of 2 s, alternate,
// filling both ways. O holds timeline I at 0.25: delay 0.25, 4 iterations of
// 0.25 s, alternate, filling both ways, so I runs while O's time is in
// [0.5, 1.5], iteration j over [0.5 + 0.25 j, 0.75 + 0.25 j], I's time up
// (0 to 0.25) for j even, down for j odd. I holds track T at 0.0625 for
// 0.125 (its active interval 0.0625 to 0.1875) and mark M at 0.125. Each of
// O's iterations runs O's time over all of [0, 2] (up, down, up), so I's four
// iterations in each: two up and two down in I's time whichever way O runs.
// Each up crosses T's start, M, T's end forwards; each down enters T at its
// end (a start record, backwards), crosses M, leaves at T's start (an end
// record, backwards). Three of O's iterations: 6 of each of the six records.
// Without a repeat delay and with linear easings, root time t gives O's time
// t - 0.5 in O's first iteration: the first crossings at O times 0.5625 (T
// start), 0.625 (M), 0.6875 (T end), then down in I's iteration 1 at 0.8125
// (T's end, entering), 0.875 (M), 0.9375 (T's start, leaving).
// The timelines' own records: O's start at root time 0.5, once. I's active
// interval, O's time 0.5 to 1.5, is crossed up in O's iterations 0 and 2
// (start and end forwards, 2 each) and down in iteration 1 (entered at its
// end, left at its start: 1 each); linear, O's time is t - 0.5, then
// 2 - (t - 2.5) in iteration 1: I's records first at t = 1, 2, 3, 4.
struct NestedCrossings : Fixture {
    mtwnNode outer = 0, inner = 0, track = 0, mark = 0;
    mtwnPlayerId player{};
    void Build(double repeatDelay, const mtwnEasing& outerEasing) {
        mtwnClipId clip = Clip();
        mtwnClipTimelineDef td = mtwnDefaultClipTimelineDef();
        td.durationFromChildren = 0;
        td.timing.delay = 0.5;
        td.timing.duration = 2.0;
        td.timing.iterations = 3.0;
        td.timing.direction = mtwn_directionAlternate;
        td.timing.fill = mtwn_fillBoth;
        td.timing.repeatDelay = repeatDelay;
        td.timing.easing = outerEasing;
        ASSERT_EQ(mtwnClip_AddTimeline(c, clip, &td, &outer), mtwn_success);
        td = mtwnDefaultClipTimelineDef();
        td.parent = outer;
        td.position = At(0.25);
        td.durationFromChildren = 0;
        td.timing.delay = 0.25;
        td.timing.duration = 0.25;
        td.timing.iterations = 4.0;
        td.timing.direction = mtwn_directionAlternate;
        td.timing.fill = mtwn_fillBoth;
        ASSERT_EQ(mtwnClip_AddTimeline(c, clip, &td, &inner), mtwn_success);
        track = Track(clip, inner, 0.0625, 0.125, 0, 1);
        ASSERT_EQ(mtwnClip_AddMark(c, clip, inner, At(0.125), 7u, &mark), mtwn_success);
        ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
        player = Player(clip, {mtwnMakeBinding(0, Target(0))}, 1);
        Update(10 * kMs);  // starts: current time 0
    }
    std::vector<mtwnEvent> Read() {
        mtwnEvent ev[64];
        uint32_t n = 0;
        EXPECT_EQ(mtwnContext_ReadEvents(c, ev, 64, &n, nullptr), mtwn_success);
        return std::vector<mtwnEvent>(ev, ev + n);
    }
    // The records in the order of their first crossings: O's start, I's
    // four at root times tI, and the six of T and M, each counted 6 times,
    // at root times t (host 10 ms + t s).
    void ExpectAll(const std::vector<mtwnEvent>& all, const double tI[4], const double t[6]) {
        std::vector<mtwnEvent> ev, o, in;
        for (size_t i = 0; i < all.size(); ++i) {
            if (i > 0) {
                EXPECT_LE(all[i - 1].timeNs, all[i].timeNs);
            }
            (all[i].node == outer ? o : all[i].node == inner ? in : ev).push_back(all[i]);
        }
        ASSERT_EQ(o.size(), 1u);
        EXPECT_EQ(o[0].kind, (uint32_t)mtwn_eventNodeStart);
        EXPECT_EQ(o[0].backwards, 0u);
        EXPECT_EQ(o[0].count, 1u);
        EXPECT_NEAR((double)o[0].timeNs, 10e6 + 0.5e9, 1e3);
        ASSERT_EQ(in.size(), 4u);
        const uint32_t inKind[4] = {mtwn_eventNodeStart, mtwn_eventNodeEnd, mtwn_eventNodeStart, mtwn_eventNodeEnd};
        for (int i = 0; i < 4; ++i) {
            SCOPED_TRACE(i);
            EXPECT_EQ(in[i].kind, inKind[i]);
            EXPECT_EQ(in[i].backwards, i < 2 ? 0u : 1u);
            EXPECT_EQ(in[i].count, i < 2 ? 2u : 1u);
            EXPECT_NEAR((double)in[i].timeNs, 10e6 + tI[i] * 1e9, 1e3);
        }
        ASSERT_EQ(ev.size(), 6u);
        const uint32_t kind[6] = {mtwn_eventNodeStart, mtwn_eventMark,      mtwn_eventNodeEnd,
                                  mtwn_eventNodeStart, mtwn_eventMark,      mtwn_eventNodeEnd};
        const mtwnNode node[6] = {track, mark, track, track, mark, track};
        for (int i = 0; i < 6; ++i) {
            SCOPED_TRACE(i);
            EXPECT_EQ(ev[i].kind, kind[i]);
            EXPECT_EQ(ev[i].node, node[i]);
            EXPECT_EQ(ev[i].backwards, i < 3 ? 0u : 1u);
            EXPECT_EQ(ev[i].count, 6u);
            EXPECT_NEAR((double)ev[i].timeNs, 10e6 + t[i] * 1e9, 1e3);
        }
    }
    // Advances to host time `to` in uneven small steps, summing each
    // record's counts by node, kind and direction.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> Steps(uint64_t to) {
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> sum;
        uint64_t now = 10 * kMs;
        for (int i = 0; now < to; ++i) {
            now = std::min(to, now + (i % 2 == 0 ? 7 : 13) * kMs);
            Update(now);
            for (const mtwnEvent& e : Read()) sum[std::make_tuple(e.node, e.kind, e.backwards)] += e.count;
        }
        return sum;
    }
    void ExpectSteps(const std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>& sum) {
        const uint32_t start = mtwn_eventNodeStart, end = mtwn_eventNodeEnd;
        EXPECT_EQ(sum.size(), 11u);
        EXPECT_EQ(sum.at(std::make_tuple(outer, start, 0u)), 1u);
        EXPECT_EQ(sum.at(std::make_tuple(inner, start, 0u)), 2u);
        EXPECT_EQ(sum.at(std::make_tuple(inner, end, 0u)), 2u);
        EXPECT_EQ(sum.at(std::make_tuple(inner, start, 1u)), 1u);
        EXPECT_EQ(sum.at(std::make_tuple(inner, end, 1u)), 1u);
        for (uint32_t b = 0; b < 2u; ++b) {
            EXPECT_EQ(sum.at(std::make_tuple(track, (uint32_t)mtwn_eventNodeStart, b)), 6u);
            EXPECT_EQ(sum.at(std::make_tuple(track, (uint32_t)mtwn_eventNodeEnd, b)), 6u);
            EXPECT_EQ(sum.at(std::make_tuple(mark, (uint32_t)mtwn_eventMark, b)), 6u);
        }
    }
};

// One update from root time 0 to 6.25 (O's last iteration, from 4.5, has run
// I's to their end by O's time 1.5, root time 6).
TEST_F(NestedCrossings, AGrandparentsIterationsAreFollowedInOneUpdate) {
    Build(0.0, mtwnMakeLinearEasing());
    Update(6260 * kMs);
    const double tI[4] = {1.0, 2.0, 3.0, 4.0};
    const double t[6] = {1.0625, 1.125, 1.1875, 1.3125, 1.375, 1.4375};
    ExpectAll(Read(), tI, t);
    EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);
}

TEST_F(NestedCrossings, SmallStepsGiveTheSameCounts) {
    Build(0.0, mtwnMakeLinearEasing());
    ExpectSteps(Steps(6260 * kMs));
}

// With a repeat delay of 0.5 and O eased by p^2: O's iterations at local
// times [0.5, 2.5], [3, 5], [5.5, 7.5]; in the first, O's time is 2 u^2 at
// u = (t - 0.5) / 2, so it reaches x at t = 0.5 + 2 sqrt(x / 2). O's third
// iteration runs I's to their end at 2 u^2 = 1.5, t = 5.5 + 2 sqrt(0.75),
// about 7.23; the update ends at 7.375, before O's end at 7.5. I's records:
// O's time 0.5 and 1.5 up in the first iteration, then down in the second
// (from t = 3, O's time 2 (1 - u)^2): t = 3 + 2 (1 - sqrt(x / 2)).
TEST_F(NestedCrossings, FirstCrossingsAreTimedThroughRepeatDelaysAndEasings) {
    mtwnEasing square{};
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2.0, &square), mtwn_success);
    Build(0.5, square);
    Update(7385 * kMs);
    const double x[6] = {0.5625, 0.625, 0.6875, 0.8125, 0.875, 0.9375};
    double t[6];
    for (int i = 0; i < 6; ++i) t[i] = 0.5 + 2.0 * std::sqrt(x[i] / 2.0);
    const double tI[4] = {0.5 + 2.0 * std::sqrt(0.25), 0.5 + 2.0 * std::sqrt(0.75),
                          3.0 + 2.0 * (1.0 - std::sqrt(0.75)), 3.0 + 2.0 * (1.0 - std::sqrt(0.25))};
    ExpectAll(Read(), tI, t);
}

TEST_F(NestedCrossings, SmallStepsGiveTheSameCountsThroughRepeatDelaysAndEasings) {
    mtwnEasing square{};
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2.0, &square), mtwn_success);
    Build(0.5, square);
    ExpectSteps(Steps(7385 * kMs));
}

// Three levels iterating within one update: the root holds A (2 iterations
// of 1 s, filling both ways), A holds B at 0 (2 of 0.5 s), B holds C at 0 (2
// of 0.25 s), C holds a mark at 0.125. Each of C's 8 iterations (2 x 2 x 2)
// crosses the mark once, forwards; the first at root time 0.125, the last in
// A's, B's and C's second iterations: 1 + 0.5 + 0.25 + 0.125 = 1.875. One
// update from 0 to 1.9375 counts all 8; so do small steps.
struct DeepCrossings : Fixture {
    mtwnNode mark = 0;
    void Build() {
        mtwnClipId clip = Clip();
        mtwnNode parent = MTWN_ROOT_NODE;
        double duration = 1.0;
        for (int level = 0; level < 3; ++level) {
            mtwnClipTimelineDef td = mtwnDefaultClipTimelineDef();
            td.parent = parent;
            td.durationFromChildren = 0;
            td.timing.duration = duration;
            td.timing.iterations = 2.0;
            td.timing.fill = mtwn_fillBoth;
            ASSERT_EQ(mtwnClip_AddTimeline(c, clip, &td, &parent), mtwn_success);
            duration /= 2.0;
        }
        ASSERT_EQ(mtwnClip_AddMark(c, clip, parent, At(0.125), 7u, &mark), mtwn_success);
        ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
        Player(clip, {mtwnMakeBinding(0, Target(0))}, 1);
        Update(10 * kMs);  // starts: current time 0
    }
    // The mark's records since the last read.
    std::vector<mtwnEvent> Marks() {
        mtwnEvent ev[64];
        uint32_t n = 0;
        EXPECT_EQ(mtwnContext_ReadEvents(c, ev, 64, &n, nullptr), mtwn_success);
        std::vector<mtwnEvent> out;
        for (uint32_t i = 0; i < n; ++i)
            if (ev[i].node == mark) out.push_back(ev[i]);
        return out;
    }
};

TEST_F(DeepCrossings, EveryLevelsIterationsAreFollowedInOneUpdate) {
    Build();
    Update(1947500000u);  // 10 ms + 1.9375 s
    std::vector<mtwnEvent> ev = Marks();
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].kind, (uint32_t)mtwn_eventMark);
    EXPECT_EQ(ev[0].backwards, 0u);
    EXPECT_EQ(ev[0].count, 8u);
    EXPECT_NEAR((double)ev[0].timeNs, 10e6 + 0.125e9, 1e3);
}

TEST_F(DeepCrossings, SmallStepsGiveTheSameCount) {
    Build();
    uint32_t sum = 0;
    for (uint64_t now = 10 * kMs; now < 1947500000u;) {
        now = std::min<uint64_t>(1947500000u, now + 3 * kMs);
        Update(now);
        for (const mtwnEvent& e : Marks()) {
            EXPECT_EQ(e.backwards, 0u);
            sum += e.count;
        }
    }
    EXPECT_EQ(sum, 8u);
}

#if defined(MTWN_TEST_STRETCH_BOUND)
// Past the bound of stretches (docs/internals/timing.md, "Bound"), built
// with a bound of 3 (clip_stretch_bound_test): NestedCrossings' clip, an
// update from root time 1.1 (O's time 0.6 in its iteration 0, I's time 0.1
// in its iteration 0) to 5.6 (O's time 1.1 in its iteration 2, I's time 0.1
// in its iteration 2). O's time runs 0.6 to 2, 2 to 0, 0 to 1.1: three
// stretches, within the bound, so I's own records are exact: its end at O's
// 1.5 forwards, entered at its end and left at its start backwards, its
// start at 0.5 forwards, once each. I's time would be cut into four distinct
// stretches (0.1 to 0.25, 0.25 to 0, 0 to 0.25, 0 to 0.1): past the bound,
// so I is followed from O's time at the update's two ends, 0.6 to 1.1, as
// if O ran straight there: I's iterations 0 (from 0.1), 1 and 2 (to 0.1).
// Up from 0.1: M and T's end forwards; down: T entered at its end, M, T
// left at its start; up to 0.1: T's start. Each of the six records once,
// where small steps count each 5 times (O's three passes over I).
struct StretchBound : NestedCrossings {
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> Counts(const std::vector<mtwnEvent>& ev) {
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> sum;
        for (const mtwnEvent& e : ev) sum[std::make_tuple(e.node, e.kind, e.backwards)] += e.count;
        return sum;
    }
    void ExpectCounts(const std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>& sum, uint32_t each) {
        const uint32_t start = mtwn_eventNodeStart, end = mtwn_eventNodeEnd, m = mtwn_eventMark;
        EXPECT_EQ(sum.size(), 10u);
        for (uint32_t b = 0; b < 2u; ++b) {
            EXPECT_EQ(sum.at(std::make_tuple(inner, start, b)), 1u) << b;
            EXPECT_EQ(sum.at(std::make_tuple(inner, end, b)), 1u) << b;
            EXPECT_EQ(sum.at(std::make_tuple(track, start, b)), each) << b;
            EXPECT_EQ(sum.at(std::make_tuple(track, end, b)), each) << b;
            EXPECT_EQ(sum.at(std::make_tuple(mark, m, b)), each) << b;
        }
    }
};

TEST_F(StretchBound, PastTheBoundTheParentIsFollowedFromTheUpdatesEnds) {
    Build(0.0, mtwnMakeLinearEasing());
    Update(1110 * kMs);
    (void)Read();
    Update(5610 * kMs);
    std::vector<mtwnEvent> ev = Read();
    ExpectCounts(Counts(ev), 1u);
    // I's records at their exact first crossings: O's time 1.5 at root 2.0,
    // then down (2 - (t - 2.5)) 1.5 at 3.0 and 0.5 at 4.0, up 0.5 at 5.0.
    for (const mtwnEvent& e : ev) {
        if (e.node != inner) continue;
        const double t = e.kind == (uint32_t)mtwn_eventNodeEnd ? (e.backwards ? 4.0 : 2.0) : (e.backwards ? 3.0 : 5.0);
        EXPECT_NEAR((double)e.timeNs, 10e6 + t * 1e9, 1e3) << e.kind << " " << e.backwards;
    }
    EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);
}

TEST_F(StretchBound, SmallStepsStayWithinTheBoundAndCountEveryPass) {
    Build(0.0, mtwnMakeLinearEasing());
    Update(1110 * kMs);
    (void)Read();
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> sum;
    for (uint64_t now = 1110 * kMs; now < 5610 * kMs;) {
        now = std::min<uint64_t>(5610 * kMs, now + 9 * kMs);
        Update(now);
        for (const mtwnEvent& e : Read()) sum[std::make_tuple(e.node, e.kind, e.backwards)] += e.count;
    }
    ExpectCounts(sum, 5u);
}
#endif

TEST_F(Fixture, PositionsResolveWhenAdded) {
    mtwnClipId clip = Clip();
    mtwnNode a = Track(clip, MTWN_ROOT_NODE, 0.5, 1.0, 0, 1);
    mtwnKeyframe k[2] = {Key(0, 0), Key(1, 1)};
    mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
    d.keyframes = k;
    d.keyframeCount = 2;
    d.position = mtwnPosition{mtwn_positionAfterPrevious, 0, 0.25};
    mtwnNode b;
    ASSERT_EQ(mtwnClip_AddTrack(c, clip, &d, &b), mtwn_success);
    mtwnNode label;
    ASSERT_EQ(mtwnClip_AddLabel(c, clip, MTWN_ROOT_NODE, mtwnPosition{mtwn_positionWithPrevious, 0, 0.0}, 42, &label),
              mtwn_success);
    EXPECT_EQ(mtwnClip_AddLabel(c, clip, MTWN_ROOT_NODE, At(0), 42, &label), mtwn_errorInvalid);  // key taken
    d.position = mtwnPosition{mtwn_positionLabel, 42, -0.5};
    mtwnNode e;
    ASSERT_EQ(mtwnClip_AddTrack(c, clip, &d, &e), mtwn_success);
    d.position = mtwnPosition{mtwn_positionLabel, 7, 0};
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &e), mtwn_errorInvalid);  // no such label
    d.position = At(-1);
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &e), mtwn_errorInvalid);
    mtwnClipNodeInfo info;
    EXPECT_EQ(mtwnClip_GetNode(c, clip, a, &info), mtwn_errorState);  // not sealed
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    EXPECT_EQ(mtwnClip_Seal(c, clip), mtwn_errorState);
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &e), mtwn_errorState);
    ASSERT_EQ(mtwnClip_GetNode(c, clip, b, &info), mtwn_success);
    EXPECT_EQ(info.start, 1.75);  // a ends at 1.5, plus 0.25
    EXPECT_EQ(info.end, 2.75);
    double at = 0;
    ASSERT_EQ(mtwnClip_FindLabel(c, clip, MTWN_ROOT_NODE, 42, &at), mtwn_success);
    EXPECT_EQ(at, 1.75);
    ASSERT_EQ(mtwnClip_GetNode(c, clip, e, &info), mtwn_success);
    EXPECT_EQ(info.start, 1.25);
    EXPECT_EQ(mtwnClip_FindLabel(c, clip, MTWN_ROOT_NODE, 9, &at), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_FindLabel(c, clip, b, 42, &at), mtwn_errorInvalid);  // not a timeline
    double dur;
    ASSERT_EQ(mtwnClip_GetDuration(c, clip, &dur), mtwn_success);
    EXPECT_EQ(dur, 2.75);
    mtwnClipTrack tr;
    ASSERT_EQ(mtwnClip_GetTrack(c, clip, a, &tr), mtwn_success);
    EXPECT_EQ(tr.start, 0.5);
    mtwnVec4 v;
    ASSERT_EQ(mtwnSampleTrack(&tr.track, 0.25, &v), mtwn_success);
    EXPECT_EQ(v.x, 0.25f);
    EXPECT_EQ(mtwnClip_GetTrack(c, clip, label, &tr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_GetTrack(c, clip, 99, &tr), mtwn_errorInvalid);
}

// linear() easings' points are copied into the clip when a track or timeline
// is added (AddTrack's paragraph): the host's may change once added. They
// count against the clip's pointCapacity; a def that does not fit is
// mtwn_errorCapacity and takes none of it; points the host put out of order
// or made not finite are mtwn_errorInvalid.
TEST_F(Fixture, LinearPointsAreCopiedCountedAndChecked) {
    mtwnClipDef cd = mtwnDefaultClipDef();
    cd.pointCapacity = 8;
    mtwnClipId clip{};
    ASSERT_EQ(mtwnCreateClip(c, &cd, &clip), mtwn_success);
    mtwnLinearPoint p[3] = {{0.0, 0.0}, {0.5, 0.8}, {1.0, 1.0}};
    mtwnEasing easing;
    ASSERT_EQ(mtwnMakeLinearPointsEasing(p, 3, &easing), mtwn_success);
    mtwnKeyframe k[2] = {Key(0, 0), Key(1, 10)};
    k[0].easing = easing;
    mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
    d.position = At(0);
    d.keyframes = k;
    d.keyframeCount = 2;
    d.timing.duration = 1.0;
    d.timing.fill = mtwn_fillForwards;
    d.timing.easing = easing;
    mtwnNode first = 0, n = 0;
    // 3 + 3 points: fits the 8.
    ASSERT_EQ(mtwnClip_AddTrack(c, clip, &d, &first), mtwn_success);
    // Another 6, or 3, do not fit the 2 left (a timeline's timing easing and
    // a track's keyframe easing alike) ...
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &n), mtwn_errorCapacity);
    mtwnClipTimelineDef td = mtwnDefaultClipTimelineDef();
    td.position = At(0);
    td.timing.easing = easing;
    EXPECT_EQ(mtwnClip_AddTimeline(c, clip, &td, &n), mtwn_errorCapacity);
    d.timing.easing = mtwnMakeLinearEasing();
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &n), mtwn_errorCapacity);
    // Points the host changed after making the easing (2, which would fit):
    // out of order, not finite.
    mtwnLinearPoint bad[2] = {{0.0, 0.0}, {1.0, 1.0}};
    mtwnEasing badEasing;
    ASSERT_EQ(mtwnMakeLinearPointsEasing(bad, 2, &badEasing), mtwn_success);
    bad[0].input = 1.5;  // the last is now below the one before it
    k[0].easing = badEasing;
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &n), mtwn_errorInvalid);
    bad[0].input = 0.0;
    bad[1].output = NAN;
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &n), mtwn_errorInvalid);
    bad[1].output = 1.0;
    bad[0].input = -INFINITY;
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &n), mtwn_errorInvalid);
    // ... and took none of them: a timeline of 2 points fits, one more does not.
    mtwnLinearPoint two[2] = {{0.0, 0.0}, {1.0, 1.0}};
    ASSERT_EQ(mtwnMakeLinearPointsEasing(two, 2, &td.timing.easing), mtwn_success);
    EXPECT_EQ(mtwnClip_AddTimeline(c, clip, &td, &n), mtwn_success);
    EXPECT_EQ(mtwnClip_AddTimeline(c, clip, &td, &n), mtwn_errorCapacity);
    // The host's points change; the clip keeps the ones it copied: at half
    // the keyframe segment linear() gives 0.8 of the way from 0 to 10.
    p[1].output = 0.1;
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    mtwnClipTrack tr;
    ASSERT_EQ(mtwnClip_GetTrack(c, clip, first, &tr), mtwn_success);
    mtwnVec4 v;
    ASSERT_EQ(mtwnSampleTrack(&tr.track, 0.5, &v), mtwn_success);
    EXPECT_EQ(v.x, 8.0f);
    ASSERT_NE(tr.timing.easing.points, nullptr);
    EXPECT_NE(tr.timing.easing.points, p);
    EXPECT_EQ(tr.timing.easing.points[1].output, 0.8);
    // Growing the context moves the clip's storage: the track's points move
    // with it and sample the same.
    const mtwnLinearPoint* before = tr.timing.easing.points;
    mtwnContextDef g = mtwnDefaultContextDef();
    g.targetCapacity *= 2;
    ASSERT_EQ(mtwnContext_Grow(&c, &g), mtwn_success);
    ASSERT_EQ(mtwnClip_GetTrack(c, clip, first, &tr), mtwn_success);
    EXPECT_NE(tr.timing.easing.points, before);
    EXPECT_EQ(tr.timing.easing.points[1].output, 0.8);
    ASSERT_EQ(mtwnSampleTrack(&tr.track, 0.5, &v), mtwn_success);
    EXPECT_EQ(v.x, 8.0f);
}

// Every clip function's refusals and what each counts (GetMisuse's
// paragraph: invalid arguments, stale ids and state refusals count; a full
// capacity and a limit do not; a null context counts nowhere).
TEST_F(Fixture, ClipRefusalsAndTheMisusesTheyCount) {
    auto misuse = [&] { return mtwnContext_GetMisuse(c); };
    uint64_t bytes = 0;
    mtwnClipDef d = mtwnDefaultClipDef();
    uint64_t m = misuse();
    EXPECT_EQ(mtwnContext_GetClipBytes(nullptr, &d, &bytes), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_GetClipBytes(c, nullptr, &bytes), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_GetClipBytes(c, &d, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(misuse(), m + 2);
    mtwnClipDef big = d;
    big.pointCapacity = MTWN_MAX_COUNT + 1;
    EXPECT_EQ(mtwnContext_GetClipBytes(c, &big, &bytes), mtwn_errorLimit);
    mtwnClipId id{};
    EXPECT_EQ(mtwnCreateClip(c, &big, &id), mtwn_errorLimit);
    EXPECT_EQ(misuse(), m + 2);  // limits count none
    mtwnClipDef zero = d;
    zero.slotCount = 0;
    EXPECT_EQ(mtwnContext_GetClipBytes(c, &zero, &bytes), mtwn_errorInvalid);
    EXPECT_EQ(mtwnCreateClip(c, nullptr, &id), mtwn_errorInvalid);
    EXPECT_EQ(mtwnCreateClip(c, &d, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(misuse(), m + 5);

    mtwnClipId clip = Clip();
    mtwnNode track = Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 1);
    mtwnNode n = 0;
    m = misuse();
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, nullptr, &n), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_AddTimeline(c, clip, nullptr, &n), mtwn_errorInvalid);
    mtwnClipTimelineDef td = mtwnDefaultClipTimelineDef();
    td.cookie ^= 1u;
    EXPECT_EQ(mtwnClip_AddTimeline(c, clip, &td, &n), mtwn_errorInvalid);
    td = mtwnDefaultClipTimelineDef();
    td.position = mtwnPosition{99, 0, 0.0};  // no such anchor
    EXPECT_EQ(mtwnClip_AddTimeline(c, clip, &td, &n), mtwn_errorInvalid);
    td.position = mtwnPosition{mtwn_positionParentEnd, 0, 0.5};  // after the track's end
    ASSERT_EQ(mtwnClip_AddTimeline(c, clip, &td, &n), mtwn_success);
    EXPECT_EQ(misuse(), m + 4);
    // Reads of a clip not sealed: state refusals, counted.
    mtwnClipTrack tr;
    mtwnClipNodeInfo info;
    double at = 0;
    EXPECT_EQ(mtwnClip_GetTrack(c, clip, track, &tr), mtwn_errorState);
    EXPECT_EQ(mtwnClip_GetNode(c, clip, track, &info), mtwn_errorState);
    EXPECT_EQ(mtwnClip_FindLabel(c, clip, MTWN_ROOT_NODE, 1, &at), mtwn_errorState);
    EXPECT_EQ(mtwnClip_GetDuration(c, clip, &at), mtwn_errorState);
    EXPECT_EQ(misuse(), m + 8);
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    ASSERT_EQ(mtwnClip_GetNode(c, clip, n, &info), mtwn_success);
    EXPECT_EQ(info.start, 1.5);  // the root's children end at 1, plus 0.5
    // Null outputs and nodes outside the clip.
    EXPECT_EQ(mtwnClip_GetTrack(nullptr, clip, track, &tr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_GetTrack(c, clip, track, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_GetNode(nullptr, clip, track, &info), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_GetNode(c, clip, track, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_GetNode(c, clip, 0, &info), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_GetNode(c, clip, 4, &info), mtwn_errorInvalid);  // root, track, timeline
    EXPECT_EQ(mtwnClip_FindLabel(nullptr, clip, MTWN_ROOT_NODE, 1, &at), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_FindLabel(c, clip, MTWN_ROOT_NODE, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_GetDuration(nullptr, clip, &at), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClip_GetDuration(c, clip, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(misuse(), m + 8 + 6);
    // A destroyed clip's id: stale everywhere, counted; IsValid counts none.
    ASSERT_EQ(mtwnDestroyClip(c, clip), mtwn_success);
    m = misuse();
    EXPECT_FALSE(mtwnClip_IsValid(c, clip));
    EXPECT_EQ(mtwnDestroyClip(c, clip), mtwn_errorStale);
    mtwnClipTrackDef trackDef = mtwnDefaultClipTrackDef();
    EXPECT_EQ(mtwnClip_AddTrack(c, clip, &trackDef, &n), mtwn_errorStale);
    EXPECT_EQ(mtwnClip_AddTimeline(c, clip, &td, &n), mtwn_errorStale);
    EXPECT_EQ(mtwnClip_Seal(c, clip), mtwn_errorStale);
    EXPECT_EQ(mtwnClip_GetTrack(c, clip, track, &tr), mtwn_errorStale);
    EXPECT_EQ(mtwnClip_GetNode(c, clip, track, &info), mtwn_errorStale);
    EXPECT_EQ(mtwnClip_FindLabel(c, clip, MTWN_ROOT_NODE, 1, &at), mtwn_errorStale);
    EXPECT_EQ(mtwnClip_GetDuration(c, clip, &at), mtwn_errorStale);
    EXPECT_EQ(misuse(), m + 8);
}

// A player below full weight mixes each kind as player.h says: integers
// x + (v - x) w rounded half away from zero, discrete values the player's
// from a weight of 0.5, rotations toward the clip's in the shorter hemisphere
// (the clip's negated when the dot is below 0) then normalized, in binary64.
TEST_F(Fixture, PartialWeightsMixIntegersDiscreteValuesAndRotations) {
    mtwnClipId clip = Clip();
    auto add = [&](mtwnValueKind kind, uint32_t slot, mtwnVec4 v) {
        mtwnKeyframe k[2] = {Key(0, 0), Key(1, 0)};
        for (mtwnKeyframe& key : k) {
            key.value[0] = v.x, key.value[1] = v.y, key.value[2] = v.z, key.value[3] = v.w;
            key.kind = kind == mtwn_valueDiscrete ? mtwn_segmentStep : mtwn_segmentLinear;
        }
        mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
        d.track = mtwnDefaultTrackDef(kind);
        d.position = At(0);
        d.slot = slot;
        d.keyframes = k;
        d.keyframeCount = 2;
        d.timing.duration = 10.0;
        mtwnNode n = 0;
        EXPECT_EQ(mtwnClip_AddTrack(c, clip, &d, &n), mtwn_success);
        return n;
    };
    add(mtwn_valueInteger, 0, V(10));
    add(mtwn_valueDiscrete, 1, V(7));
    mtwnNode rot = add(mtwn_valueRotation, 2, V(0, 0, 0.6f, -0.8f));
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    mtwnTargetId ti{}, td{}, tr{};
    ASSERT_EQ(mtwnCreateTarget(c, mtwn_valueInteger, V(1), &ti), mtwn_success);
    ASSERT_EQ(mtwnCreateTarget(c, mtwn_valueDiscrete, V(3), &td), mtwn_success);
    ASSERT_EQ(mtwnCreateTarget(c, mtwn_valueRotation, V(0, 0, 0, 1), &tr), mtwn_success);
    mtwnClipPlayerDef pd = mtwnDefaultClipPlayerDef();
    std::vector<mtwnBinding> b = {mtwnMakeBinding(0, ti), mtwnMakeBinding(1, td), mtwnMakeBinding(2, tr)};
    pd.clip = clip;
    pd.bindings = b.data();
    pd.bindingCount = 3;
    pd.weight = 0.5f;
    mtwnPlayerId p{};
    ASSERT_EQ(mtwnCreateClipPlayer(c, &pd, &p), mtwn_success);
    Update(0);
    Update(100 * kMs);
    // The clip's own rotation there, as its track samples it.
    mtwnClipTrack track;
    ASSERT_EQ(mtwnClip_GetTrack(c, clip, rot, &track), mtwn_success);
    mtwnVec4 q{};
    ASSERT_EQ(mtwnSampleTrack(&track.track, 0.01, &q), mtwn_success);
    auto expectMix = [&](double w) {
        mtwnVec4 v{};
        ASSERT_EQ(mtwnTarget_GetValue(c, ti, &v), mtwn_success);
        EXPECT_EQ(v.x, (float)std::round(1.0 + 9.0 * w)) << w;  // 5.5 -> 6, 3.25 -> 3
        ASSERT_EQ(mtwnTarget_GetValue(c, td, &v), mtwn_success);
        EXPECT_EQ(v.x, w >= 0.5 ? 7.0f : 3.0f) << w;
        ASSERT_EQ(mtwnTarget_GetValue(c, tr, &v), mtwn_success);
        // Base (0, 0, 0, 1) . clip = clip.w < 0: mix toward -clip.
        ASSERT_LT(q.w, 0.0f);
        double m[4] = {-(double)q.x * w, -(double)q.y * w, -(double)q.z * w, 1.0 + (-(double)q.w - 1.0) * w};
        double n = std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
        EXPECT_EQ(v.x, (float)(m[0] / n)) << w;
        EXPECT_EQ(v.y, (float)(m[1] / n)) << w;
        EXPECT_EQ(v.z, (float)(m[2] / n)) << w;
        EXPECT_EQ(v.w, (float)(m[3] / n)) << w;
    };
    expectMix(0.5);
    ASSERT_EQ(mtwnClipPlayer_SetWeight(c, p, 0.25f), mtwn_success);
    Update(200 * kMs);
    ASSERT_EQ(mtwnSampleTrack(&track.track, 0.02, &q), mtwn_success);
    expectMix(0.25);
}

TEST_F(Fixture, NestedTimelinesTakeTheirParentsTransformedTime) {
    mtwnClipId clip = Clip();
    mtwnClipTimelineDef td = mtwnDefaultClipTimelineDef();
    td.position = At(1.0);
    td.timing.iterations = 2;
    td.timing.fill = mtwn_fillForwards;
    td.timing.direction = mtwn_directionAlternate;
    mtwnNode tl;
    ASSERT_EQ(mtwnClip_AddTimeline(c, clip, &td, &tl), mtwn_success);
    Track(clip, tl, 0.0, 2.0, 0, 10);  // the timeline lasts 2 s an iteration, 4 s in all
    mtwnNode mark;
    ASSERT_EQ(mtwnClip_AddMark(c, clip, tl, At(1.0), 5, &mark), mtwn_success);
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    double dur;
    ASSERT_EQ(mtwnClip_GetDuration(c, clip, &dur), mtwn_success);
    EXPECT_EQ(dur, 5.0);
    mtwnTargetId t = Target(-1);
    mtwnPlayerId p = Player(clip, {mtwnMakeBinding(0, t)}, 1);
    Update(0);
    EXPECT_EQ(Value(t), -1.0f);  // before the timeline: the base
    Update(1500 * kMs);
    EXPECT_EQ(Value(t), 2.5f);  // 0.5 s into the first iteration
    Update(3500 * kMs);
    EXPECT_EQ(Value(t), 7.5f);  // 0.5 s into the second, alternate: 2 - 0.5 = 1.5 s
    Update(6000 * kMs);
    EXPECT_EQ(Value(t), 0.0f);  // ended backwards, filling forwards
    EXPECT_EQ(State(p).playState, (uint32_t)mtwn_playFinished);
    // The mark at 1 s of each iteration: crossed at 2 s and 4 s of the clip.
    mtwnEvent ev[32];
    uint32_t n = 0;
    ASSERT_EQ(mtwnContext_ReadEvents(c, ev, 32, &n, nullptr), mtwn_success);
    int marks = 0, finishes = 0, timelineStarts = 0;
    for (uint32_t i = 0; i < n; ++i) {
        // The timeline's active interval starts at 1 s of the clip (crossed by the 0 -> 1.5 s update).
        if (ev[i].kind == mtwn_eventNodeStart && ev[i].node == tl) {
            ++timelineStarts;
            EXPECT_EQ(ev[i].timeNs, 1000 * kMs);
        }
        if (ev[i].kind == mtwn_eventMark) {
            ++marks;
            EXPECT_EQ(ev[i].key, 5u);
            EXPECT_EQ(ev[i].node, mark);
        }
        if (ev[i].kind == mtwn_eventFinish) ++finishes;
    }
    EXPECT_EQ(marks, 2);
    EXPECT_EQ(finishes, 1);
    EXPECT_EQ(timelineStarts, 1);
}

TEST_F(Fixture, PlayersCommitTheirEndAndFree) {
    mtwnClipId clip = Clip();
    Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 8);
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    mtwnTargetId t = Target(3);
    mtwnPlayerId p = Player(clip, {mtwnMakeBinding(0, t)});
    EXPECT_EQ(mtwnDestroyClip(c, clip), mtwn_errorBusy);  // held, not misuse
    EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);
    Update(10 * kMs);
    EXPECT_EQ(Value(t), 0.0f);
    Update(260 * kMs);
    EXPECT_EQ(Value(t), 2.0f);
    EXPECT_EQ(Base(t), 3.0f);
    Update(1500 * kMs);
    EXPECT_FALSE(mtwnPlayer_IsValid(c, p));
    EXPECT_EQ(Value(t), 8.0f);
    EXPECT_EQ(Base(t), 8.0f);
    EXPECT_EQ(mtwnDestroyClip(c, clip), mtwn_success);
    mtwnClipPlayerState s;
    EXPECT_EQ(mtwnClipPlayer_GetState(c, p, &s), mtwn_errorStale);
    EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);  // an id it handed out
}

TEST_F(Fixture, PauseSeekReverseFinishCancel) {
    mtwnClipId clip = Clip();
    Track(clip, MTWN_ROOT_NODE, 0, 2.0, 0, 2);
    mtwnNode label;
    ASSERT_EQ(mtwnClip_AddLabel(c, clip, MTWN_ROOT_NODE, At(1.5), 3, &label), mtwn_success);
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    mtwnTargetId t = Target(0);
    mtwnPlayerId p = Player(clip, {mtwnMakeBinding(0, t)}, 1);
    Update(1000 * kMs);
    Update(1500 * kMs);
    EXPECT_EQ(Value(t), 0.5f);
    ASSERT_EQ(mtwnClipPlayer_Pause(c, p), mtwn_success);
    Update(1900 * kMs);
    EXPECT_EQ(Value(t), 0.5f);
    EXPECT_EQ(State(p).playState, (uint32_t)mtwn_playPaused);
    ASSERT_EQ(mtwnClipPlayer_Play(c, p), mtwn_success);
    Update(2000 * kMs);  // resumes here
    Update(2250 * kMs);
    EXPECT_EQ(Value(t), 0.75f);
    ASSERT_EQ(mtwnClipPlayer_Seek(c, p, 1.25), mtwn_success);
    Update(2250 * kMs);
    EXPECT_EQ(Value(t), 1.25f);
    ASSERT_EQ(mtwnClipPlayer_SeekLabel(c, p, 3), mtwn_success);
    Update(2250 * kMs);
    EXPECT_EQ(Value(t), 1.5f);
    ASSERT_EQ(mtwnClipPlayer_SeekProgress(c, p, 0.25), mtwn_success);
    Update(2250 * kMs);
    EXPECT_EQ(Value(t), 0.5f);
    ASSERT_EQ(mtwnClipPlayer_Reverse(c, p), mtwn_success);
    Update(2250 * kMs);
    Update(2500 * kMs);
    EXPECT_EQ(Value(t), 0.25f);
    EXPECT_EQ(State(p).rate, -1.0);
    ASSERT_EQ(mtwnClipPlayer_Finish(c, p), mtwn_success);  // backwards: to 0
    Update(2600 * kMs);
    EXPECT_EQ(Value(t), 0.0f);
    EXPECT_EQ(State(p).playState, (uint32_t)mtwn_playFinished);
    // Playing a finished player backwards at its start rewinds to the end.
    ASSERT_EQ(mtwnClipPlayer_Play(c, p), mtwn_success);
    Update(2700 * kMs);
    Update(2800 * kMs);
    EXPECT_EQ(Value(t), 1.9f);
    ASSERT_EQ(mtwnClipPlayer_Cancel(c, p), mtwn_success);
    Update(2900 * kMs);
    EXPECT_EQ(Value(t), 0.0f);  // without effect: the base
    EXPECT_EQ(State(p).playState, (uint32_t)mtwn_playIdle);
    EXPECT_TRUE(std::isnan(State(p).currentTime));
    // Refusals.
    EXPECT_EQ(mtwnClipPlayer_Seek(c, p, NAN), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClipPlayer_Seek(c, p, INFINITY), mtwn_errorLimit);
    EXPECT_EQ(mtwnClipPlayer_SeekLabel(c, p, 99), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClipPlayer_SetRate(c, p, NAN), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClipPlayer_SetRate(c, p, 2e6), mtwn_errorLimit);
    EXPECT_EQ(mtwnClipPlayer_SetRate(c, p, 1e-9), mtwn_errorLimit);
    EXPECT_EQ(mtwnClipPlayer_SetWeight(c, p, 1.5f), mtwn_errorInvalid);
    ASSERT_EQ(mtwnClipPlayer_SetRate(c, p, 0.0), mtwn_success);
    EXPECT_EQ(mtwnClipPlayer_Finish(c, p), mtwn_errorState);
}

// Web Animations' "set the current time": a seek while a pause is pending
// completes the pause there (hold time the seek time, start time unresolved,
// the pending pause cancelled): the player is paused at the seek time at
// once and holds it through later updates.
TEST_F(Fixture, ASeekCompletesAPendingPause) {
    mtwnClipId clip = Clip();
    Track(clip, MTWN_ROOT_NODE, 0, 2.0, 0, 2);
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    mtwnTargetId t = Target(0);
    mtwnPlayerId p = Player(clip, {mtwnMakeBinding(0, t)}, 1);
    Update(0);
    Update(500 * kMs);
    EXPECT_EQ(Value(t), 0.5f);
    ASSERT_EQ(mtwnClipPlayer_Pause(c, p), mtwn_success);
    ASSERT_EQ(mtwnClipPlayer_Seek(c, p, 1.5), mtwn_success);
    mtwnClipPlayerState s = State(p);
    EXPECT_EQ(s.playState, (uint32_t)mtwn_playPaused);
    EXPECT_EQ(s.pending, 0u);
    EXPECT_EQ(s.currentTime, 1.5);
    Update(900 * kMs);
    EXPECT_EQ(Value(t), 1.5f);
    Update(1900 * kMs);
    EXPECT_EQ(Value(t), 1.5f);
    EXPECT_EQ(State(p).playState, (uint32_t)mtwn_playPaused);
    // Playing on from there.
    ASSERT_EQ(mtwnClipPlayer_Play(c, p), mtwn_success);
    Update(2000 * kMs);
    Update(2250 * kMs);
    EXPECT_EQ(Value(t), 1.75f);
}

TEST_F(Fixture, SeamlessRateKeepsTheCurrentTime) {
    mtwnClipId clip = Clip();
    Track(clip, MTWN_ROOT_NODE, 0, 4.0, 0, 4);
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    mtwnTargetId t = Target(0);
    mtwnPlayerId p = Player(clip, {mtwnMakeBinding(0, t)}, 1);
    Update(0);
    Update(1000 * kMs);
    ASSERT_EQ(mtwnClipPlayer_SetRate(c, p, 2.0), mtwn_success);
    EXPECT_EQ(State(p).pending, 1u);
    Update(1000 * kMs);
    EXPECT_EQ(Value(t), 1.0f);
    Update(1500 * kMs);
    EXPECT_EQ(Value(t), 2.0f);
    // A finished player at a negative rate plays back from where it holds (Chrome).
    Update(3000 * kMs);
    EXPECT_EQ(State(p).playState, (uint32_t)mtwn_playFinished);
    ASSERT_EQ(mtwnClipPlayer_SetRate(c, p, -1.0), mtwn_success);
    Update(3000 * kMs);
    Update(3500 * kMs);
    EXPECT_EQ(Value(t), 3.5f);
}

TEST_F(Fixture, LaterPlayersOverEarlierAndWeights) {
    mtwnClipId a = Clip();
    Track(a, MTWN_ROOT_NODE, 0, 1.0, 0, 10);
    ASSERT_EQ(mtwnClip_Seal(c, a), mtwn_success);
    mtwnClipId b = Clip();
    Track(b, MTWN_ROOT_NODE, 0, 1.0, 100, 100);
    ASSERT_EQ(mtwnClip_Seal(c, b), mtwn_success);
    mtwnTargetId t = Target(0);
    mtwnPlayerId pa = Player(a, {mtwnMakeBinding(0, t)}, 1);
    mtwnBinding half = mtwnMakeBinding(0, t);
    half.weight = 0.5f;
    mtwnPlayerId pb = Player(b, {half}, 1);
    Update(0);
    Update(500 * kMs);
    EXPECT_EQ(Value(t), 5.0f + (100.0f - 5.0f) * 0.5f);
    ASSERT_EQ(mtwnClipPlayer_SetWeight(c, pb, 0.0f), mtwn_success);
    Update(600 * kMs);
    EXPECT_EQ(Value(t), 6.0f);
    ASSERT_EQ(mtwnDestroyPlayer(c, pa), mtwn_success);
    EXPECT_EQ(Value(t), 0.0f);  // the base at once
    (void)pb;
}

TEST_F(Fixture, CreateRefusals) {
    mtwnClipId clip = Clip();
    Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 1);
    mtwnTargetId t = Target(0);
    mtwnBinding bind[2] = {mtwnMakeBinding(0, t), mtwnMakeBinding(0, t)};
    mtwnClipPlayerDef d = mtwnDefaultClipPlayerDef();
    d.clip = clip;
    d.bindings = bind;
    d.bindingCount = 1;
    mtwnPlayerId p{5, 5};
    EXPECT_EQ(mtwnCreateClipPlayer(c, &d, &p), mtwn_errorState);  // not sealed
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    auto expect = [&](mtwnClipPlayerDef x, mtwnResult want) { EXPECT_EQ(mtwnCreateClipPlayer(c, &x, &p), want); };
    mtwnClipPlayerDef x = d;
    x.cookie = 1;
    expect(x, mtwn_errorInvalid);
    x = d;
    x.rate = NAN;
    expect(x, mtwn_errorInvalid);
    x = d;
    x.weight = -0.5f;
    expect(x, mtwn_errorInvalid);
    x = d;
    x.rate = 1e7;
    expect(x, mtwn_errorLimit);
    x = d;
    x.bindingCount = 2;  // slot 0 twice
    expect(x, mtwn_errorInvalid);
    bind[1].slot = 99;
    expect(x, mtwn_errorInvalid);  // past the clip's slots
    x = d;
    x.clip.generation += 1;
    expect(x, mtwn_errorStale);
    EXPECT_EQ(p.index, 5u);
    EXPECT_EQ(mtwnCreateClipPlayer(c, &d, &p), mtwn_success);
    // A transition is not a clip player.
    mtwnTransitionDef td = mtwnDefaultTransitionDef();
    td.target = t;
    td.value = V(1);
    mtwnPlayerId tp;
    ASSERT_EQ(mtwnStartTransition(c, &td, &tp), mtwn_success);
    EXPECT_EQ(mtwnClipPlayer_Play(c, tp), mtwn_errorInvalid);
    mtwnClipPlayerState s;
    EXPECT_EQ(mtwnClipPlayer_GetState(c, tp, &s), mtwn_errorInvalid);
    EXPECT_EQ(mtwnClipPlayer_Play(c, mtwnPlayerId{0, 0}), mtwn_errorStale);
}

TEST_F(Fixture, ReducedMotionFinishesFiniteClipsAndCountsThoseThatPlayOn) {
    mtwnClipId clip = Clip();
    Track(clip, MTWN_ROOT_NODE, 0, 1.0, 0, 4);
    ASSERT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    mtwnClipId inf = Clip();
    mtwnKeyframe k[2] = {Key(0, 0), Key(1, 1)};
    mtwnClipTrackDef d = mtwnDefaultClipTrackDef();
    d.keyframes = k;
    d.keyframeCount = 2;
    d.timing.iterations = INFINITY;
    mtwnNode n;
    ASSERT_EQ(mtwnClip_AddTrack(c, inf, &d, &n), mtwn_success);
    ASSERT_EQ(mtwnClip_Seal(c, inf), mtwn_success);
    mtwnTargetId a = Target(0), b = Target(0);
    mtwnPlayerId pa = Player(clip, {mtwnMakeBinding(0, a)});
    mtwnPlayerId pb = Player(inf, {mtwnMakeBinding(0, b)});
    mtwnContext_EnableReducedMotion(c, true);
    Update(0);
    EXPECT_EQ(Value(a), 4.0f);
    EXPECT_FALSE(mtwnPlayer_IsValid(c, pa));
    EXPECT_EQ(mtwnContext_GetPlayingOnCount(c), 1u);
    EXPECT_EQ(State(pb).playsOnReduced, 1u);
    EXPECT_EQ(mtwnClipPlayer_Finish(c, pb), mtwn_errorState);  // infinite forwards
}

}  // namespace

namespace {

struct Tasks {
    mtwnContext* c = nullptr;
    mtwnTargetId probe{};
    int calls = 0;
    std::vector<mtwnResult> inside;
    static void* Begin(void* user, mtwnTaskFunction* task, void* data, uint32_t count) {
        auto* t = static_cast<Tasks*>(user);
        t->calls += 1;
        mtwnVec4 v;
        t->inside.push_back(mtwnTarget_GetValue(t->c, t->probe, &v));  // a group may be writing it
        for (uint32_t i = count; i > 0; --i) task(data, i - 1);          // any order
        return nullptr;
    }
    static void Wait(void*, void*) {}
};

// The same seeded scenario with and without a task system: the same values,
// changed lists and events at every update.
uint64_t RunScenario(bool tasks, Tasks* t, uint64_t* serial, uint32_t sharingRecords = 16) {
    mtwnContextDef d = mtwnDefaultContextDef();
    d.sharingRecords = sharingRecords;
    if (tasks) {
        d.taskSystem.begin = &Tasks::Begin;
        d.taskSystem.wait = &Tasks::Wait;
        d.taskSystem.user = t;
    }
    mtwnContext* c = nullptr;
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_success);
    t->c = c;
    mtwnClipDef cd = mtwnDefaultClipDef();
    mtwnClipId clip;
    EXPECT_EQ(mtwnCreateClip(c, &cd, &clip), mtwn_success);
    for (uint32_t s = 0; s < 4; ++s) {
        mtwnKeyframe k[2] = {Key(0, s), Key(1, 10.0 + s)};
        mtwnClipTrackDef td = mtwnDefaultClipTrackDef();
        td.slot = s;
        td.keyframes = k;
        td.keyframeCount = 2;
        td.timing.duration = 0.5 + 0.25 * s;
        td.timing.fill = mtwn_fillForwards;
        mtwnNode n;
        EXPECT_EQ(mtwnClip_AddTrack(c, clip, &td, &n), mtwn_success);
        mtwnNode m;
        EXPECT_EQ(mtwnClip_AddMark(c, clip, MTWN_ROOT_NODE, At(0.1 * (s + 1)), s, &m), mtwn_success);
    }
    EXPECT_EQ(mtwnClip_Seal(c, clip), mtwn_success);
    std::vector<mtwnTargetId> targets(12);
    for (uint32_t i = 0; i < 12; ++i) EXPECT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, V(0), &targets[i]), mtwn_success);
    t->probe = targets[0];
    for (uint32_t p = 0; p < 9; ++p) {
        std::vector<mtwnBinding> b;
        for (uint32_t s = 0; s < 4; ++s) {
            mtwnBinding x = mtwnMakeBinding(s, targets[(p + s * 3) % 12]);
            x.weight = (p % 3 == 0) ? 0.5f : 1.0f;
            b.push_back(x);
        }
        mtwnClipPlayerDef pd = mtwnDefaultClipPlayerDef();
        pd.clip = clip;
        pd.bindings = b.data();
        pd.bindingCount = 4;
        pd.rate = 0.5 + 0.25 * p;
        pd.keep = p % 2;
        mtwnPlayerId id;
        EXPECT_EQ(mtwnCreateClipPlayer(c, &pd, &id), mtwn_success);
        if (p == 4) {
            mtwnTransitionDef tr = mtwnDefaultTransitionDef();
            tr.target = targets[5];
            tr.value = V(-3);
            EXPECT_EQ(mtwnStartTransition(c, &tr, &id), mtwn_success);
        }
    }
    uint64_t h = 1469598103934665603ull;
    auto mix = [&](const void* data, size_t n) {
        const unsigned char* b = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
    };
    for (uint64_t ms = 0; ms <= 3000; ms += 70) {
        mtwnTargetId changed[16];
        uint32_t total = 0;
        EXPECT_EQ(mtwnContext_Update(c, ms * kMs, changed, 16, &total), mtwn_success);
        mix(&total, sizeof(total));
        mix(changed, std::min(total, 16u) * sizeof(mtwnTargetId));
        std::vector<mtwnVec4> v(12);
        EXPECT_EQ(mtwnContext_ReadTargets(c, targets.data(), 12, v.data()), mtwn_success);
        mix(v.data(), v.size() * sizeof(mtwnVec4));
        mtwnEvent ev[64];
        uint32_t n = 0;
        uint64_t dropped = 0;
        EXPECT_EQ(mtwnContext_ReadEvents(c, ev, 64, &n, &dropped), mtwn_success);
        mix(ev, n * sizeof(mtwnEvent));
        mix(&dropped, sizeof(dropped));
    }
    *serial = mtwnContext_GetSerialAdvanceCount(c);
    mtwnDestroyContext(c);
    return h;
}

TEST(TaskSystem, SameValuesEventsAndChangedListsAsWithout) {
    Tasks none, with;
    uint64_t s0 = 0, s1 = 0;
    uint64_t a = RunScenario(false, &none, &s0);
    uint64_t b = RunScenario(true, &with, &s1);
    EXPECT_EQ(a, b);
    EXPECT_EQ(s0, 0u);
    EXPECT_GT(with.calls, 0);
    // Staging of 16 records holds one player's 4 marks, 4 tracks' starts and
    // ends and its finish (13): a group of one each, none on the calling thread.
    EXPECT_EQ(s1, 0u);
    for (mtwnResult r : with.inside) EXPECT_EQ(r, mtwn_errorBusy);
    // Staging of 4 holds none: every advance runs on the calling thread, counted, the same.
    Tasks small;
    uint64_t s2 = 0;
    EXPECT_EQ(RunScenario(true, &small, &s2, 4), a);
    EXPECT_GT(s2, 0u);
    EXPECT_EQ(small.calls, 0);
}

}  // namespace
