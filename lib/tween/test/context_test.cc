// Tests of context.h, target.h, player.h's ids, transition.h and event.h:
// every refusal and "nothing changed" promise, ids and generations, growth,
// allocation failures, transitions of every kind against independent
// formulas, the changed list and the event queue.
#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "maul/tween/context.h"
#include "maul/tween/event.h"
#include "maul/tween/player.h"
#include "maul/tween/target.h"
#include "maul/tween/transition.h"

namespace {

const uint64_t kMs = 1000000u;

struct CountingAllocator {
    int allocations = 0;
    int releases = 0;
    int failAfter = -1;  // allocations allowed before failing; -1: never fail
    size_t lastSize = 0;
    static void* Allocate(void* user, size_t size, size_t alignment) {
        auto* a = static_cast<CountingAllocator*>(user);
        if (a->failAfter >= 0 && a->allocations >= a->failAfter) return nullptr;
        a->allocations += 1;
        a->lastSize = size;
        return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    }
    static void Release(void* user, void* memory, size_t size) {
        auto* a = static_cast<CountingAllocator*>(user);
        a->releases += 1;
        free(memory);
    }
    mtwnAllocator Get() { return mtwnAllocator{&Allocate, &Release, this}; }
};

mtwnVec4 V(float x, float y = 0, float z = 0, float w = 0) { return mtwnVec4{x, y, z, w}; }

bool Same(mtwnVec4 a, mtwnVec4 b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

struct Ctx {
    mtwnContext* c = nullptr;
    explicit Ctx(mtwnContextDef d = mtwnDefaultContextDef()) { EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_success); }
    ~Ctx() { mtwnDestroyContext(c); }
    mtwnTargetId Target(mtwnValueKind k, mtwnVec4 v) {
        mtwnTargetId id{};
        EXPECT_EQ(mtwnCreateTarget(c, k, v, &id), mtwn_success);
        return id;
    }
    mtwnVec4 Value(mtwnTargetId id) {
        mtwnVec4 v{};
        EXPECT_EQ(mtwnTarget_GetValue(c, id, &v), mtwn_success);
        return v;
    }
    void Update(uint64_t t) { ASSERT_EQ(mtwnContext_Update(c, t, nullptr, 0, nullptr), mtwn_success); }
};

mtwnTransitionDef Linear(mtwnTargetId target, mtwnVec4 to, double duration) {
    mtwnTransitionDef d = mtwnDefaultTransitionDef();
    d.target = target;
    d.value = to;
    d.duration = duration;
    d.easing = mtwnMakeLinearEasing();
    return d;
}

// -- Context ------------------------------------------------------------------

TEST(Context, DefaultDefNamesEveryCapacity) {
    mtwnContextDef d = mtwnDefaultContextDef();
    EXPECT_EQ(d.targetCapacity, 1024u);
    EXPECT_EQ(d.playerCapacity, 256u);
    EXPECT_EQ(d.pointsPerTransition, 64u);
    EXPECT_EQ(d.clipCapacity, 16u);
    EXPECT_EQ(d.eventCapacity, 256u);
    EXPECT_EQ(d.bindingCapacity, 1024u);
    EXPECT_EQ(d.sharingNodes, 128u);
    EXPECT_EQ(d.sharingRecords, 64u);
    EXPECT_EQ(d.clipStorageBytes, 240u * 1024u);
    EXPECT_EQ(d.abiVersion, MTWN_ABI_VERSION);
}

TEST(Context, CreateRefusalsInTheirOrder) {
    mtwnContext* c = reinterpret_cast<mtwnContext*>(0x1);
    mtwnContextDef d = mtwnDefaultContextDef();
    EXPECT_EQ(mtwnCreateContext(nullptr, &c), mtwn_errorInvalid);
    EXPECT_EQ(mtwnCreateContext(&d, nullptr), mtwn_errorInvalid);
    d.cookie = 0;
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_errorInvalid);
    // The version is checked before anything else the def holds.
    d = mtwnDefaultContextDef();
    d.abiVersion += 1;
    d.targetCapacity = MTWN_MAX_COUNT + 1;
    d.allocator.allocate = &CountingAllocator::Allocate;
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_errorVersion);
    // A half allocator or task system before the limits.
    d.abiVersion = MTWN_ABI_VERSION;
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_errorInvalid);
    d = mtwnDefaultContextDef();
    d.taskSystem.wait = [](void*, void*) {};
    d.targetCapacity = MTWN_MAX_COUNT + 1;
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_errorInvalid);
    d.taskSystem.wait = nullptr;
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_errorLimit);
    uint32_t mtwnContextDef::*fields[] = {&mtwnContextDef::targetCapacity, &mtwnContextDef::playerCapacity,
                                          &mtwnContextDef::pointsPerTransition, &mtwnContextDef::clipCapacity,
                                          &mtwnContextDef::eventCapacity, &mtwnContextDef::bindingCapacity,
                                          &mtwnContextDef::sharingNodes, &mtwnContextDef::sharingRecords};
    for (auto f : fields) {
        d = mtwnDefaultContextDef();
        d.*f = MTWN_MAX_COUNT + 1;
        EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_errorLimit);
    }
    d = mtwnDefaultContextDef();
    d.clipStorageBytes = MTWN_MAX_CLIP_STORAGE + 1;
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_errorLimit);
    EXPECT_EQ(c, reinterpret_cast<mtwnContext*>(0x1));  // never written on failure
}

TEST(Context, OneAllocationThroughTheHostsAllocator) {
    CountingAllocator a;
    mtwnContextDef d = mtwnDefaultContextDef();
    d.allocator = a.Get();
    mtwnContext* c = nullptr;
    ASSERT_EQ(mtwnCreateContext(&d, &c), mtwn_success);
    EXPECT_EQ(a.allocations, 1);
    EXPECT_EQ(mtwnContext_GetMemoryBytes(c), a.lastSize);
    // Nothing allocates after creation: targets, transitions, updates, events.
    mtwnTargetId t;
    ASSERT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, V(0), &t), mtwn_success);
    mtwnTransitionDef td = Linear(t, V(1), 0.1);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(c, &td, &p), mtwn_success);
    for (uint64_t i = 0; i < 20; ++i) ASSERT_EQ(mtwnContext_Update(c, i * 10 * kMs, nullptr, 0, nullptr), mtwn_success);
    EXPECT_EQ(a.allocations, 1);
    mtwnDestroyContext(c);
    EXPECT_EQ(a.releases, 1);
    mtwnDestroyContext(nullptr);
}

TEST(Context, AllocationFailureOnCreate) {
    CountingAllocator a;
    a.failAfter = 0;
    mtwnContextDef d = mtwnDefaultContextDef();
    d.allocator = a.Get();
    mtwnContext* c = nullptr;
    EXPECT_EQ(mtwnCreateContext(&d, &c), mtwn_errorCapacity);
    EXPECT_EQ(c, nullptr);
    EXPECT_EQ(a.releases, 0);
}

TEST(Context, NullContextReaders) {
    EXPECT_EQ(mtwnContext_GetMisuse(nullptr), 0u);
    EXPECT_EQ(mtwnContext_GetSerialAdvanceCount(nullptr), 0u);
    EXPECT_EQ(mtwnContext_GetMemoryBytes(nullptr), 0u);
    EXPECT_FALSE(mtwnContext_IsReducedMotionEnabled(nullptr));
    EXPECT_EQ(mtwnContext_GetPlayingOnCount(nullptr), 0u);
    EXPECT_EQ(mtwnContext_GetEventCount(nullptr), 0u);
    EXPECT_EQ(mtwnContext_GetEventsDropped(nullptr), 0u);
    mtwnContext_EnableReducedMotion(nullptr, true);
    EXPECT_EQ(mtwnContext_Update(nullptr, 0, nullptr, 0, nullptr), mtwn_errorInvalid);
    EXPECT_FALSE(mtwnTarget_IsValid(nullptr, mtwnTargetId{0, 1}));
    EXPECT_FALSE(mtwnPlayer_IsValid(nullptr, mtwnPlayerId{0, 1}));
}

TEST(Context, GrowKeepsIdsAndValuesAndMovesTheBlock) {
    CountingAllocator a;
    mtwnContextDef d = mtwnDefaultContextDef();
    d.allocator = a.Get();
    d.targetCapacity = 2;
    d.playerCapacity = 1;
    d.pointsPerTransition = 3;
    mtwnContext* c = nullptr;
    ASSERT_EQ(mtwnCreateContext(&d, &c), mtwn_success);
    mtwnTargetId t0, t1, t2;
    ASSERT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, V(1), &t0), mtwn_success);
    ASSERT_EQ(mtwnCreateTarget(c, mtwn_valueVec2, V(2, 3), &t1), mtwn_success);
    EXPECT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, V(1), &t2), mtwn_errorCapacity);
    // A linear() transition whose points live in the block.
    mtwnLinearPoint pts[3] = {{0.0, 0.0}, {0.5, 0.8}, {1.0, 1.0}};
    mtwnTransitionDef td = Linear(t0, V(11), 1.0);
    ASSERT_EQ(mtwnMakeLinearPointsEasing(pts, 3, &td.easing), mtwn_success);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(c, &td, &p), mtwn_success);
    ASSERT_EQ(mtwnContext_Update(c, 0, nullptr, 0, nullptr), mtwn_success);
    ASSERT_EQ(mtwnContext_Update(c, 250 * kMs, nullptr, 0, nullptr), mtwn_success);
    mtwnContext* before = c;
    uint64_t misuse = mtwnContext_GetMisuse(c);
    // Failures change nothing.
    mtwnContextDef g = d;
    g.targetCapacity = 1;
    EXPECT_EQ(mtwnContext_Grow(&c, &g), mtwn_errorInvalid);
    g = d;
    g.allocator.user = nullptr;
    EXPECT_EQ(mtwnContext_Grow(&c, &g), mtwn_errorInvalid);
    g = d;
    g.abiVersion = 0;
    EXPECT_EQ(mtwnContext_Grow(&c, &g), mtwn_errorVersion);
    g = d;
    g.targetCapacity = MTWN_MAX_COUNT + 1;
    EXPECT_EQ(mtwnContext_Grow(&c, &g), mtwn_errorLimit);
    g = d;
    g.targetCapacity = 8;
    g.pointsPerTransition = 16;
    a.failAfter = a.allocations;
    EXPECT_EQ(mtwnContext_Grow(&c, &g), mtwn_errorCapacity);
    EXPECT_EQ(c, before);
    EXPECT_EQ(mtwnContext_GetMisuse(c), misuse + 2);  // the two invalid ones
    EXPECT_EQ(mtwnContext_Grow(nullptr, &g), mtwn_errorInvalid);
    pts[1].output = 0.0;  // the host's points may change: the context holds a copy
    a.failAfter = -1;
    ASSERT_EQ(mtwnContext_Grow(&c, &g), mtwn_success);
    EXPECT_NE(c, before);
    EXPECT_EQ(a.allocations, 2);
    EXPECT_EQ(a.releases, 1);
    EXPECT_TRUE(mtwnTarget_IsValid(c, t0));
    EXPECT_TRUE(mtwnTarget_IsValid(c, t1));
    EXPECT_TRUE(mtwnPlayer_IsValid(c, p));
    mtwnVec4 v{};
    ASSERT_EQ(mtwnTarget_GetValue(c, t1, &v), mtwn_success);
    EXPECT_TRUE(Same(v, V(2, 3)));
    // linear() at 0.5: 0.8 of the way; at 0.25: 0.4 (the points' first segment).
    ASSERT_EQ(mtwnTarget_GetValue(c, t0, &v), mtwn_success);
    EXPECT_EQ(v.x, (float)(1.0 + 10.0 * 0.4));
    ASSERT_EQ(mtwnContext_Update(c, 500 * kMs, nullptr, 0, nullptr), mtwn_success);
    ASSERT_EQ(mtwnTarget_GetValue(c, t0, &v), mtwn_success);
    EXPECT_EQ(v.x, (float)(1.0 + 10.0 * 0.8));
    // Room for more now.
    EXPECT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, V(1), &t2), mtwn_success);
    mtwnDestroyContext(c);
    EXPECT_EQ(a.releases, 2);
}

TEST(Context, GrowWithTheCLibraryAllocator) {
    Ctx x;
    mtwnTargetId t = x.Target(mtwn_valueScalar, V(5));
    mtwnContextDef g = mtwnDefaultContextDef();
    g.targetCapacity = 4096;
    ASSERT_EQ(mtwnContext_Grow(&x.c, &g), mtwn_success);
    EXPECT_EQ(x.Value(t).x, 5.0f);
    CountingAllocator a;
    g.allocator = a.Get();
    EXPECT_EQ(mtwnContext_Grow(&x.c, &g), mtwn_errorInvalid);  // another allocator
}

// -- Targets ------------------------------------------------------------------

TEST(Target, KindsAndValues) {
    Ctx x;
    mtwnTargetId t;
    const float inf = INFINITY, nan = NAN;
    struct Case {
        mtwnValueKind kind;
        mtwnVec4 value;
        bool ok;
        mtwnVec4 stored;
    } cases[] = {
        {mtwn_valueScalar, V(1, 2, 3, 4), true, V(1)},
        {mtwn_valueScalar, V(inf), false, V(0)},
        {mtwn_valueScalar, V(1, nan), true, V(1)},  // channels past the kind are ignored
        {mtwn_valueVec2, V(1, 2, 3, 4), true, V(1, 2)},
        {mtwn_valueVec2, V(1, nan), false, V(0)},
        {mtwn_valueVec3, V(1, 2, 3, 4), true, V(1, 2, 3)},
        {mtwn_valueVec4, V(1, 2, 3, 4), true, V(1, 2, 3, 4)},
        {mtwn_valueVec4, V(1, 2, 3, -inf), false, V(0)},
        {mtwn_valueInteger, V(-7), true, V(-7)},
        {mtwn_valueInteger, V(0.5f), false, V(0)},
        {mtwn_valueDiscrete, V(3), true, V(3)},
        {mtwn_valueDiscrete, V(-1), false, V(0)},
        {mtwn_valueDiscrete, V(1.5f), false, V(0)},
        {mtwn_valueAngle, V(7, 1), true, V(7)},
        {mtwn_valueColor, V(1, 0.5f, 2, 1), true, V(1, 0.5f, 2, 1)},
        {mtwn_valueColor, V(1, 0.5f, 2, 1.5f), false, V(0)},
        {mtwn_valueRotation, V(0, 0, 0, 1), true, V(0, 0, 0, 1)},
        {mtwn_valueRotation, V(0, 0, 0, 0), false, V(0)},
        {mtwn_valueScale, V(1, 2, 3, 9), true, V(1, 2, 3)},
        {mtwn_valueScale, V(1, 0, 3), false, V(0)},
    };
    for (const Case& k : cases) {
        uint64_t misuse = mtwnContext_GetMisuse(x.c);
        mtwnResult r = mtwnCreateTarget(x.c, k.kind, k.value, &t);
        ASSERT_EQ(r, k.ok ? mtwn_success : mtwn_errorInvalid) << k.kind;
        EXPECT_EQ(mtwnContext_GetMisuse(x.c), misuse + (k.ok ? 0 : 1));
        if (!k.ok) continue;
        mtwnTargetState s;
        ASSERT_EQ(mtwnTarget_GetState(x.c, t, &s), mtwn_success);
        EXPECT_EQ(s.kind, (uint32_t)k.kind);
        EXPECT_TRUE(Same(s.base, k.stored));
        EXPECT_TRUE(Same(s.value, k.stored));
        EXPECT_TRUE(Same(s.velocity, V(0)));
    }
    EXPECT_EQ(mtwnCreateTarget(x.c, (mtwnValueKind)10, V(1), &t), mtwn_errorInvalid);
    EXPECT_EQ(mtwnCreateTarget(x.c, mtwn_valueScalar, V(1), nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnCreateTarget(nullptr, mtwn_valueScalar, V(1), &t), mtwn_errorInvalid);
}

TEST(Target, StaleIdsAreRefusedAndCounted) {
    Ctx x;
    mtwnTargetId a = x.Target(mtwn_valueScalar, V(1));
    EXPECT_EQ(a.generation, 1u);
    ASSERT_EQ(mtwnDestroyTarget(x.c, a), mtwn_success);
    EXPECT_FALSE(mtwnTarget_IsValid(x.c, a));
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 0u);  // IsValid counts nothing
    mtwnTargetId b = x.Target(mtwn_valueScalar, V(2));
    EXPECT_EQ(b.index, a.index);  // the slot is reused with the next generation
    EXPECT_EQ(b.generation, 2u);
    mtwnVec4 v = V(9, 9, 9, 9);
    EXPECT_EQ(mtwnDestroyTarget(x.c, a), mtwn_errorStale);
    EXPECT_EQ(mtwnTarget_SetBase(x.c, a, V(3)), mtwn_errorStale);
    EXPECT_EQ(mtwnTarget_GetValue(x.c, a, &v), mtwn_errorStale);
    mtwnTargetState s;
    EXPECT_EQ(mtwnTarget_GetState(x.c, a, &s), mtwn_errorStale);
    EXPECT_EQ(mtwnTarget_GetValue(x.c, mtwnTargetId{0, 0}, &v), mtwn_errorStale);
    EXPECT_EQ(mtwnTarget_GetValue(x.c, mtwnTargetId{1000000, 1}, &v), mtwn_errorStale);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 6u);
    EXPECT_TRUE(Same(v, V(9, 9, 9, 9)));
    EXPECT_EQ(x.Value(b).x, 2.0f);
    EXPECT_EQ(mtwnTarget_GetValue(x.c, b, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnTarget_GetState(x.c, b, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnTarget_SetBase(x.c, b, V(NAN)), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 9u);
    EXPECT_EQ(x.Value(b).x, 2.0f);
    EXPECT_EQ(mtwnDestroyTarget(nullptr, b), mtwn_errorInvalid);
    EXPECT_EQ(mtwnTarget_SetBase(nullptr, b, V(1)), mtwn_errorInvalid);
}

TEST(Target, BatchReadsReadTheLiveAndCountTheStale) {
    Ctx x;
    mtwnTargetId a = x.Target(mtwn_valueScalar, V(1));
    mtwnTargetId b = x.Target(mtwn_valueVec2, V(2, 3));
    mtwnTargetId c = x.Target(mtwn_valueScalar, V(4));
    ASSERT_EQ(mtwnDestroyTarget(x.c, c), mtwn_success);
    mtwnTargetId ids[3] = {b, c, a};
    mtwnVec4 out[3] = {V(7), V(7), V(7)};
    EXPECT_EQ(mtwnContext_ReadTargets(x.c, ids, 3, out), mtwn_errorStale);
    EXPECT_TRUE(Same(out[0], V(2, 3)));
    EXPECT_TRUE(Same(out[1], V(7)));
    EXPECT_TRUE(Same(out[2], V(1)));
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 1u);
    EXPECT_EQ(mtwnContext_ReadTargets(x.c, ids, 2, out), mtwn_errorStale);
    EXPECT_EQ(mtwnContext_ReadTargets(x.c, ids, 1, out), mtwn_success);
    EXPECT_EQ(mtwnContext_ReadTargets(x.c, nullptr, 0, nullptr), mtwn_success);
    EXPECT_EQ(mtwnContext_ReadTargets(x.c, nullptr, 1, out), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_ReadTargets(x.c, ids, 1, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_ReadTargets(nullptr, ids, 1, out), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 4u);
}

TEST(Target, ChangedListInOrderOnceEach) {
    Ctx x;
    mtwnTargetId a = x.Target(mtwn_valueScalar, V(1));
    mtwnTargetId b = x.Target(mtwn_valueScalar, V(2));
    mtwnTargetId c = x.Target(mtwn_valueScalar, V(3));
    ASSERT_EQ(mtwnTarget_SetBase(x.c, c, V(30)), mtwn_success);
    ASSERT_EQ(mtwnTarget_SetBase(x.c, a, V(10)), mtwn_success);
    ASSERT_EQ(mtwnTarget_SetBase(x.c, c, V(31)), mtwn_success);
    EXPECT_EQ(x.Value(c).x, 31.0f);  // shown at once: nothing writes it
    mtwnTargetId out[4];
    uint32_t total = 99;
    EXPECT_EQ(mtwnContext_Update(x.c, 0, nullptr, 1, &total), mtwn_errorInvalid);
    EXPECT_EQ(total, 99u);
    ASSERT_EQ(mtwnContext_Update(x.c, 0, out, 4, &total), mtwn_success);
    ASSERT_EQ(total, 2u);
    EXPECT_EQ(out[0].index, c.index);
    EXPECT_EQ(out[1].index, a.index);
    EXPECT_EQ(out[1].generation, a.generation);
    ASSERT_EQ(mtwnContext_Update(x.c, 0, out, 4, &total), mtwn_success);
    EXPECT_EQ(total, 0u);
    // More than fit: the total says so.
    ASSERT_EQ(mtwnTarget_SetBase(x.c, b, V(20)), mtwn_success);
    ASSERT_EQ(mtwnTarget_SetBase(x.c, a, V(11)), mtwn_success);
    ASSERT_EQ(mtwnContext_Update(x.c, 1, out, 1, &total), mtwn_success);
    EXPECT_EQ(total, 2u);
    EXPECT_EQ(out[0].index, b.index);
    // A destroyed target leaves the list.
    ASSERT_EQ(mtwnTarget_SetBase(x.c, b, V(21)), mtwn_success);
    ASSERT_EQ(mtwnDestroyTarget(x.c, b), mtwn_success);
    ASSERT_EQ(mtwnContext_Update(x.c, 2, out, 4, &total), mtwn_success);
    EXPECT_EQ(total, 0u);
    // Time never goes back.
    uint64_t misuse = mtwnContext_GetMisuse(x.c);
    EXPECT_EQ(mtwnContext_Update(x.c, 1, out, 4, &total), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), misuse + 1);
}

// -- Busy ---------------------------------------------------------------------

struct Reentry {
    mtwnContext* c;
    mtwnTargetId target;
    std::vector<mtwnResult> results;
};

double ReenteringEase(void* user, double p) {
    auto* r = static_cast<Reentry*>(user);
    mtwnTargetId t;
    r->results.push_back(mtwnCreateTarget(r->c, mtwn_valueScalar, mtwnVec4{0, 0, 0, 0}, &t));
    r->results.push_back(mtwnTarget_SetBase(r->c, r->target, mtwnVec4{1, 0, 0, 0}));
    r->results.push_back(mtwnContext_Update(r->c, 1u << 30, nullptr, 0, nullptr));
    mtwnTargetState s;
    r->results.push_back(mtwnTarget_GetState(r->c, r->target, &s));
    uint32_t n;
    r->results.push_back(mtwnContext_ReadEvents(r->c, nullptr, 0, &n, nullptr));
    mtwnContext* c = r->c;
    mtwnContextDef d = mtwnDefaultContextDef();
    r->results.push_back(mtwnContext_Grow(&c, &d));
    mtwnContext_EnableReducedMotion(r->c, true);
    // The other readers read it in the middle of a call.
    mtwnVec4 v;
    r->results.push_back(mtwnTarget_GetValue(r->c, r->target, &v));
    return p;
}

TEST(Context, CallsBackInFromHostCodeAreRefusedAndCounted) {
    Ctx x;
    Reentry r{x.c, x.Target(mtwn_valueScalar, V(0)), {}};
    mtwnTransitionDef d = Linear(r.target, V(10), 1.0);
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, &ReenteringEase, &r, &d.easing), mtwn_success);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    x.Update(0);
    EXPECT_TRUE(r.results.empty());  // progress 0 holds the start without the easing
    x.Update(500 * kMs);
    ASSERT_EQ(r.results.size(), 7u);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(r.results[i], mtwn_errorBusy) << i;
    EXPECT_EQ(r.results[6], mtwn_success);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 7u);  // six refusals and the reduced motion call
    EXPECT_FALSE(mtwnContext_IsReducedMotionEnabled(x.c));
    EXPECT_EQ(x.Value(r.target).x, 5.0f);
    // GetState samples the easing for the velocity: refused inside it too.
    r.results.clear();
    mtwnTargetState s;
    ASSERT_EQ(mtwnTarget_GetState(x.c, r.target, &s), mtwn_success);
    EXPECT_EQ(r.results[3], mtwn_errorBusy);
    EXPECT_NEAR(s.velocity.x, 10.0f, 1e-3);
}

// -- Transitions --------------------------------------------------------------

TEST(Transition, EasingScalarAgainstTheFormula) {
    Ctx x;
    mtwnTargetId t = x.Target(mtwn_valueScalar, V(2));
    mtwnTransitionDef d = mtwnDefaultTransitionDef();
    d.target = t;
    d.value = V(6);
    d.duration = 0.5;
    d.delay = 0.1;
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2.0, &d.easing), mtwn_success);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    EXPECT_TRUE(mtwnPlayer_IsValid(x.c, p));
    EXPECT_EQ(x.Value(t).x, 2.0f);  // starts at the next update
    const uint64_t t0 = 1000 * kMs;
    x.Update(t0);
    x.Update(t0 + 50 * kMs);
    EXPECT_EQ(x.Value(t).x, 2.0f);  // the delay holds the start
    for (int ms = 150; ms < 600; ms += 37) {
        x.Update(t0 + (uint64_t)ms * kMs);
        double q = ((double)ms * 1e-3 - 0.1) / 0.5;
        EXPECT_NEAR(x.Value(t).x, 2.0 + 4.0 * q * q, 2e-6) << ms;
        mtwnTargetState s;
        ASSERT_EQ(mtwnTarget_GetState(x.c, t, &s), mtwn_success);
        EXPECT_EQ(s.base.x, 2.0f);
        // velocity: 4 * 2q / 0.5 at the middle of the last millisecond
        double qm = ((double)ms * 1e-3 - 0.1005) / 0.5;
        EXPECT_NEAR(s.velocity.x, 16.0 * qm, 2e-2) << ms;
    }
    mtwnTargetId changed[4];
    uint32_t total = 0;
    ASSERT_EQ(mtwnContext_Update(x.c, t0 + 600 * kMs, changed, 4, &total), mtwn_success);
    EXPECT_EQ(x.Value(t).x, 6.0f);
    EXPECT_FALSE(mtwnPlayer_IsValid(x.c, p));
    mtwnTargetState s;
    ASSERT_EQ(mtwnTarget_GetState(x.c, t, &s), mtwn_success);
    EXPECT_EQ(s.base.x, 6.0f);  // committed
    EXPECT_TRUE(Same(s.velocity, V(0)));
    EXPECT_EQ(total, 1u);
    mtwnEvent ev[4];
    uint32_t n = 0;
    uint64_t dropped = 7;
    ASSERT_EQ(mtwnContext_ReadEvents(x.c, ev, 4, &n, &dropped), mtwn_success);
    ASSERT_EQ(n, 1u);
    EXPECT_EQ(dropped, 0u);
    EXPECT_EQ(ev[0].kind, (uint32_t)mtwn_eventFinish);
    EXPECT_EQ(ev[0].timeNs, t0 + 600 * kMs);  // ends exactly at 0.6 s
    EXPECT_EQ(ev[0].player.index, p.index);
    EXPECT_EQ(ev[0].count, 1u);
    // The ended player's id: stale, not counted (it was handed out).
    EXPECT_EQ(mtwnDestroyPlayer(x.c, p), mtwn_errorStale);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 0u);
    EXPECT_EQ(mtwnDestroyPlayer(x.c, mtwnPlayerId{0, 0}), mtwn_errorStale);
    EXPECT_EQ(mtwnDestroyPlayer(x.c, mtwnPlayerId{p.index, p.generation + 1}), mtwn_errorStale);
    EXPECT_EQ(mtwnDestroyPlayer(x.c, mtwnPlayerId{99, 1}), mtwn_errorStale);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 3u);
}

TEST(Transition, ReplacingStartsFromTheReachedValue) {
    Ctx x;
    mtwnTargetId t = x.Target(mtwn_valueVec2, V(0, 0));
    mtwnTransitionDef d = Linear(t, V(10, 20), 1.0);
    mtwnPlayerId p1, p2;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p1), mtwn_success);
    x.Update(0);
    x.Update(250 * kMs);
    EXPECT_TRUE(Same(x.Value(t), V(2.5f, 5.0f)));
    d.value = V(0, 0);
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p2), mtwn_success);
    EXPECT_FALSE(mtwnPlayer_IsValid(x.c, p1));
    EXPECT_TRUE(mtwnPlayer_IsValid(x.c, p2));
    x.Update(250 * kMs);  // the new one starts here, from (2.5, 5)
    EXPECT_TRUE(Same(x.Value(t), V(2.5f, 5.0f)));
    x.Update(750 * kMs);
    EXPECT_TRUE(Same(x.Value(t), V(1.25f, 2.5f)));
    // Destroying stops without committing: the base shows at once.
    ASSERT_EQ(mtwnDestroyPlayer(x.c, p2), mtwn_success);
    EXPECT_TRUE(Same(x.Value(t), V(0, 0)));
    x.Update(2000 * kMs);
    uint32_t n;
    ASSERT_EQ(mtwnContext_ReadEvents(x.c, nullptr, 0, &n, nullptr), mtwn_success);
    EXPECT_EQ(mtwnContext_GetEventCount(x.c), 0u);  // neither ended
}

TEST(Transition, Refusals) {
    Ctx x;
    mtwnTargetId t = x.Target(mtwn_valueScalar, V(0));
    mtwnTargetId rot = x.Target(mtwn_valueRotation, V(0, 0, 0, 1));
    mtwnTargetId col = x.Target(mtwn_valueColor, V(1, 0, 0, 1));
    mtwnTargetId dis = x.Target(mtwn_valueDiscrete, V(1));
    mtwnTargetId gone = x.Target(mtwn_valueScalar, V(0));
    ASSERT_EQ(mtwnDestroyTarget(x.c, gone), mtwn_success);
    mtwnPlayerId p{77, 77};
    auto expect = [&](mtwnTransitionDef d, mtwnResult want) {
        uint64_t misuse = mtwnContext_GetMisuse(x.c);
        EXPECT_EQ(mtwnStartTransition(x.c, &d, &p), want);
        bool counted = want == mtwn_errorInvalid || want == mtwn_errorStale;
        EXPECT_EQ(mtwnContext_GetMisuse(x.c), misuse + (counted ? 1u : 0u));
    };
    mtwnTransitionDef ok = Linear(t, V(1), 1.0);
    mtwnTransitionDef d = ok;
    d.cookie = 0;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.value = V(NAN);
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.delay = -1;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.duration = NAN;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.duration = 2e9;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.restOffset = 0;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.easing.cookie = 0;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.kind = 3;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.colorSpace = 99;  // unknown whatever the target's kind
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.reserved = 1;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.kind = mtwn_transitionSpring;
    d.velocitySource = mtwn_velocityGiven;
    d.velocity = V(INFINITY);
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.kind = mtwn_transitionSpring;
    d.spring.cookie = 0;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.target = dis;
    d.value = V(2);
    d.kind = mtwn_transitionSpring;
    expect(d, mtwn_errorInvalid);
    d.kind = mtwn_transitionDecay;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.target = col;
    d.value = V(0, 1, 0, 1);
    d.kind = mtwn_transitionDecay;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.target = rot;
    d.value = V(0, 0, 0, 1);
    d.rotationPath = mtwn_rotationLongest;  // the longest way between equal rotations
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.target = t;
    d.kind = mtwn_transitionDecay;
    d.decayEnd = mtwn_decayBounded;
    d.lower = 2;
    d.upper = 1;
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.kind = mtwn_transitionDecay;
    d.decayEnd = mtwn_decayLanding;
    d.velocitySource = mtwn_velocityGiven;
    d.velocity = V(-1);  // moves away from 1
    expect(d, mtwn_errorInvalid);
    d = ok;
    d.target = gone;
    expect(d, mtwn_errorStale);
    EXPECT_EQ(mtwnStartTransition(x.c, nullptr, &p), mtwn_errorInvalid);
    EXPECT_EQ(mtwnStartTransition(x.c, &ok, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnStartTransition(nullptr, &ok, &p), mtwn_errorInvalid);
    // linear() points: more than the context holds; and out of order.
    mtwnLinearPoint pts[70];
    for (int i = 0; i < 70; ++i) pts[i] = mtwnLinearPoint{NAN, i / 69.0};
    d = ok;
    ASSERT_EQ(mtwnMakeLinearPointsEasing(pts, 70, &d.easing), mtwn_success);
    expect(d, mtwn_errorCapacity);
    ASSERT_EQ(mtwnMakeLinearPointsEasing(pts, 3, &d.easing), mtwn_success);
    pts[2].input = -1;
    expect(d, mtwn_errorInvalid);
    EXPECT_EQ(p.index, 77u);  // never written on failure
    EXPECT_EQ(x.Value(t).x, 0.0f);
}

// The reference (mtwnStartTransition): refused with mtwn_errorInvalid for "a
// scale's bound not above 0" -- a scale decays in its logarithm, where 0 has
// no place; an invalid argument is counted (mtwnContext_GetMisuse).
TEST(Transition, ScaleDecayBoundNotAbove0IsRefused) {
    Ctx x;
    mtwnTargetId sc = x.Target(mtwn_valueScale, V(1, 1, 1));
    mtwnTransitionDef ok = mtwnDefaultTransitionDef();
    ok.target = sc;
    ok.value = V(1, 1, 1);
    ok.kind = mtwn_transitionDecay;
    ok.decayEnd = mtwn_decayBounded;
    ok.velocitySource = mtwn_velocityGiven;
    ok.velocity = V(1, 1, 1);
    ok.lower = 0.5;
    ok.upper = 4.0;
    mtwnPlayerId p{77, 77};
    const double lowers[] = {0.0, -0.0, -1.0, -(double)INFINITY};
    for (double lower : lowers) {
        mtwnTransitionDef d = ok;
        d.lower = lower;
        uint64_t misuse = mtwnContext_GetMisuse(x.c);
        EXPECT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_errorInvalid) << lower;
        EXPECT_EQ(mtwnContext_GetMisuse(x.c), misuse + 1u) << lower;
    }
    mtwnTransitionDef d = ok;
    d.upper = 0.0;
    d.lower = 0.0;
    EXPECT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_errorInvalid);
    EXPECT_EQ(p.index, 77u);  // never written on failure
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 5u);
    // Bounds above 0 (the upper may be none) start.
    EXPECT_EQ(mtwnStartTransition(x.c, &ok, &p), mtwn_success);
    d = ok;
    d.upper = (double)INFINITY;
    EXPECT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 5u);
}

TEST(Transition, CapacityOfPlayers) {
    mtwnContextDef cd = mtwnDefaultContextDef();
    cd.playerCapacity = 2;
    Ctx x(cd);
    mtwnTargetId a = x.Target(mtwn_valueScalar, V(0));
    mtwnTargetId b = x.Target(mtwn_valueScalar, V(0));
    mtwnTargetId c = x.Target(mtwn_valueScalar, V(0));
    mtwnPlayerId p;
    mtwnTransitionDef d = Linear(a, V(1), 1.0);
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    d.target = b;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    d.target = c;
    EXPECT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_errorCapacity);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 0u);
    d.target = b;  // a replacement takes no more
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    x.Update(0);
    x.Update(1000 * kMs);  // both end and free their slots
    d.target = c;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
}

TEST(Transition, KindsEndExactlyAndMixTheirWay) {
    Ctx x;
    // An angle the shorter way: from 0.5 to 6 turns by 6 - 2 pi - 0.5.
    mtwnTargetId ang = x.Target(mtwn_valueAngle, V(0.5f));
    mtwnTransitionDef d = Linear(ang, V(6.0f), 1.0);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    // A scale in ratio: 1 to 4 is 2 at the middle.
    mtwnTargetId sc = x.Target(mtwn_valueScale, V(1, 1, 1));
    d = Linear(sc, V(4, 1, 0.25f), 1.0);
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    // An integer rounds, ties away from zero: 0 to 3 at 0.5 is 1.5 -> 2.
    mtwnTargetId in = x.Target(mtwn_valueInteger, V(0));
    d = Linear(in, V(3), 1.0);
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    // A discrete value steps at 1/2.
    mtwnTargetId di = x.Target(mtwn_valueDiscrete, V(1));
    d = Linear(di, V(4), 1.0);
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    // A rotation about z by pi/2: halfway is pi/4.
    mtwnTargetId ro = x.Target(mtwn_valueRotation, V(0, 0, 0, 1));
    const double h = std::sqrt(0.5);
    d = Linear(ro, V(0, 0, (float)h, (float)h), 1.0);
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    // A color with equal ends stays.
    mtwnTargetId co = x.Target(mtwn_valueColor, V(0.2f, 0.4f, 0.6f, 1));
    d = Linear(co, V(0.2f, 0.4f, 0.6f, 1), 1.0);
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    x.Update(0);
    x.Update(499 * kMs);
    EXPECT_EQ(x.Value(di).x, 1.0f);
    x.Update(500 * kMs);
    EXPECT_NEAR(x.Value(ang).x, 0.5 + 0.5 * (6.0 - 6.283185307179586 - 0.5), 1e-6);
    EXPECT_NEAR(x.Value(sc).x, 2.0, 1e-6);
    EXPECT_NEAR(x.Value(sc).z, 0.5, 1e-6);
    EXPECT_EQ(x.Value(sc).y, 1.0f);
    EXPECT_EQ(x.Value(in).x, 2.0f);
    EXPECT_EQ(x.Value(di).x, 4.0f);
    EXPECT_NEAR(x.Value(ro).z, std::sin(M_PI / 8), 1e-6);
    EXPECT_NEAR(x.Value(ro).w, std::cos(M_PI / 8), 1e-6);
    EXPECT_NEAR(x.Value(co).x, 0.2, 1e-5);
    x.Update(1000 * kMs);
    EXPECT_EQ(x.Value(ang).x, (float)(6.0 - 6.283185307179586));
    EXPECT_TRUE(Same(x.Value(sc), V(4, 1, 0.25f)));
    EXPECT_EQ(x.Value(in).x, 3.0f);
    EXPECT_TRUE(Same(x.Value(co), V(0.2f, 0.4f, 0.6f, 1)));
    EXPECT_NEAR(x.Value(ro).z, h, 1e-7);
    EXPECT_EQ(mtwnContext_GetEventCount(x.c), 6u);
}

TEST(Transition, CriticalSpringAgainstTheClosedForm) {
    Ctx x;
    mtwnTargetId t = x.Target(mtwn_valueScalar, V(0));
    mtwnTransitionDef d = mtwnDefaultTransitionDef();
    d.target = t;
    d.value = V(1);
    d.kind = mtwn_transitionSpring;
    d.velocitySource = mtwn_velocityGiven;
    d.velocity = V(3);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    const double w = 4.0 * M_PI;  // 0.5 s perceptual duration, critical
    x.Update(0);
    for (int ms = 10; ms < 600; ms += 30) {
        x.Update((uint64_t)ms * kMs);
        double s = ms * 1e-3, x0 = -1.0, v0 = 3.0;
        double off = (x0 + (v0 + w * x0) * s) * std::exp(-w * s);
        EXPECT_NEAR(x.Value(t).x, 1.0 + off, 1e-6) << ms;
    }
    x.Update(100000 * kMs);
    EXPECT_EQ(x.Value(t).x, 1.0f);
    EXPECT_FALSE(mtwnPlayer_IsValid(x.c, p));
    mtwnTargetState s;
    ASSERT_EQ(mtwnTarget_GetState(x.c, t, &s), mtwn_success);
    EXPECT_EQ(s.base.x, 1.0f);
}

TEST(Transition, SpringTakesTheVelocityItReplaces) {
    Ctx x;
    mtwnTargetId t = x.Target(mtwn_valueScalar, V(0));
    mtwnTransitionDef d = Linear(t, V(10), 1.0);  // 10 a second
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    x.Update(0);
    x.Update(500 * kMs);
    d = mtwnDefaultTransitionDef();
    d.target = t;
    d.value = V(5);
    d.kind = mtwn_transitionSpring;  // from 5 to 5 with velocity 10: moves only by the velocity
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    x.Update(500 * kMs);
    x.Update(520 * kMs);
    const double w = 4.0 * M_PI, s = 0.02;
    EXPECT_NEAR(x.Value(t).x, 5.0 + 10.0 * s * std::exp(-w * s), 1e-4);
}

TEST(Transition, DecayAgainstTheFormula) {
    Ctx x;
    mtwnTargetId t = x.Target(mtwn_valueScalar, V(100));
    mtwnTransitionDef d = mtwnDefaultTransitionDef();
    d.target = t;
    d.kind = mtwn_transitionDecay;
    d.velocitySource = mtwn_velocityGiven;
    d.velocity = V(1000);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    const double k = -1000.0 * std::log(0.998);
    x.Update(0);
    x.Update(300 * kMs);
    EXPECT_NEAR(x.Value(t).x, 100.0 + 1000.0 * (1.0 - std::exp(-k * 0.3)) / k, 1e-3);
    x.Update(60000 * kMs);
    EXPECT_FALSE(mtwnPlayer_IsValid(x.c, p));
    // It stops where the speed falls to 1e-2: the rest less 1e-2 / k.
    EXPECT_NEAR(x.Value(t).x, 100.0 + (1000.0 - 1e-2) / k, 1e-3);
    // A landing comes to rest at its value; a bounded one at its bound.
    d.decayEnd = mtwn_decayLanding;
    d.value = V(700);
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    x.Update(120000 * kMs);  // starts here
    x.Update(180000 * kMs);
    EXPECT_EQ(x.Value(t).x, 700.0f);
    d.decayEnd = mtwn_decayBounded;
    d.upper = 800;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    x.Update(240000 * kMs);
    x.Update(300000 * kMs);
    EXPECT_EQ(x.Value(t).x, 800.0f);
}

TEST(Transition, LinearPointsAreCopied) {
    Ctx x;
    mtwnTargetId t = x.Target(mtwn_valueScalar, V(0));
    mtwnLinearPoint pts[3] = {{0.0, 0.0}, {0.5, 0.9}, {1.0, 1.0}};
    mtwnTransitionDef d = Linear(t, V(1), 1.0);
    ASSERT_EQ(mtwnMakeLinearPointsEasing(pts, 3, &d.easing), mtwn_success);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    pts[1].output = 0.1;
    x.Update(0);
    x.Update(500 * kMs);
    EXPECT_EQ(x.Value(t).x, 0.9f);
}

TEST(Transition, ReducedMotionFinishesAllButTheEssential) {
    Ctx x;
    mtwnTargetId a = x.Target(mtwn_valueScalar, V(0));
    mtwnTargetId b = x.Target(mtwn_valueScalar, V(0));
    mtwnTransitionDef d = Linear(a, V(1), 1.0);
    d.delay = 5.0;
    mtwnPlayerId pa, pb;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &pa), mtwn_success);
    d.target = b;
    d.essential = 1;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &pb), mtwn_success);
    mtwnContext_EnableReducedMotion(x.c, true);
    EXPECT_TRUE(mtwnContext_IsReducedMotionEnabled(x.c));
    x.Update(7 * kMs);
    EXPECT_EQ(x.Value(a).x, 1.0f);  // its delay skipped
    EXPECT_EQ(x.Value(b).x, 0.0f);
    EXPECT_FALSE(mtwnPlayer_IsValid(x.c, pa));
    EXPECT_TRUE(mtwnPlayer_IsValid(x.c, pb));
    mtwnEvent ev;
    uint32_t n;
    ASSERT_EQ(mtwnContext_ReadEvents(x.c, &ev, 1, &n, nullptr), mtwn_success);
    ASSERT_EQ(n, 1u);
    EXPECT_EQ(ev.timeNs, 7 * kMs);  // at that update's time
    EXPECT_EQ(mtwnContext_GetPlayingOnCount(x.c), 0u);
    mtwnContext_EnableReducedMotion(x.c, false);
    EXPECT_FALSE(mtwnContext_IsReducedMotionEnabled(x.c));
}

TEST(Transition, MeasureInTheKindsOwnMeasure) {
    Ctx x;
    mtwnTargetId v = x.Target(mtwn_valueVec2, V(0, 0));
    mtwnTargetId ang = x.Target(mtwn_valueAngle, V(0.5f));
    mtwnTargetId sc = x.Target(mtwn_valueScale, V(1, 1, 1));
    mtwnTargetId ro = x.Target(mtwn_valueRotation, V(0, 0, 0, 1));
    mtwnTargetId co = x.Target(mtwn_valueColor, V(1, 1, 1, 1));
    mtwnTargetId di = x.Target(mtwn_valueDiscrete, V(1));
    mtwnTransitionDef d = mtwnDefaultTransitionDef();
    double dist = -1;
    d.target = v;
    d.value = V(3, 4);
    ASSERT_EQ(mtwnContext_MeasureTransition(x.c, &d, &dist), mtwn_success);
    EXPECT_EQ(dist, 5.0);
    d.target = ang;
    d.value = V(6.0f);
    ASSERT_EQ(mtwnContext_MeasureTransition(x.c, &d, &dist), mtwn_success);
    EXPECT_NEAR(dist, 0.5 + 6.283185307179586 - 6.0, 1e-6);
    d.target = sc;
    d.value = V((float)M_E, 1, 1);
    ASSERT_EQ(mtwnContext_MeasureTransition(x.c, &d, &dist), mtwn_success);
    EXPECT_NEAR(dist, 1.0, 1e-7);
    d.target = ro;
    const double h = std::sqrt(0.5);
    d.value = V(0, 0, (float)h, (float)h);
    ASSERT_EQ(mtwnContext_MeasureTransition(x.c, &d, &dist), mtwn_success);
    EXPECT_NEAR(dist, M_PI / 2, 1e-6);
    d.target = co;
    d.value = V(1, 1, 1, 0);  // white to transparent white: alpha alone, 1
    ASSERT_EQ(mtwnContext_MeasureTransition(x.c, &d, &dist), mtwn_success);
    EXPECT_NEAR(dist, 1.0, 1e-6);
    d.value = V(0, 0, 0, 1);  // white to black: Oklab's L from 1 to 0
    ASSERT_EQ(mtwnContext_MeasureTransition(x.c, &d, &dist), mtwn_success);
    EXPECT_NEAR(dist, 1.0, 1e-4);
    dist = -1;
    d.target = di;
    d.value = V(2);
    EXPECT_EQ(mtwnContext_MeasureTransition(x.c, &d, &dist), mtwn_errorInvalid);
    EXPECT_EQ(dist, -1);
    d.target = mtwnTargetId{0, 9};
    EXPECT_EQ(mtwnContext_MeasureTransition(x.c, &d, &dist), mtwn_errorStale);
    EXPECT_EQ(mtwnContext_MeasureTransition(x.c, &d, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_MeasureTransition(nullptr, &d, &dist), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_GetMisuse(x.c), 3u);
}

// -- Events -------------------------------------------------------------------

TEST(Event, OrderedByTimeThenCreationAndDropsCounted) {
    mtwnContextDef cd = mtwnDefaultContextDef();
    cd.eventCapacity = 3;
    Ctx x(cd);
    mtwnTargetId t[5];
    mtwnPlayerId p[5];
    const double durations[5] = {0.3, 0.1, 0.2, 0.1, 0.05};
    for (int i = 0; i < 5; ++i) {
        t[i] = x.Target(mtwn_valueScalar, V(0));
        mtwnTransitionDef d = Linear(t[i], V(1), durations[i]);
        ASSERT_EQ(mtwnStartTransition(x.c, &d, &p[i]), mtwn_success);
    }
    x.Update(0);
    x.Update(250 * kMs);  // four end, in creation order 1, 2, 3, 4: the first three are kept
    EXPECT_EQ(mtwnContext_GetEventCount(x.c), 3u);
    EXPECT_EQ(mtwnContext_GetEventsDropped(x.c), 1u);
    mtwnEvent ev[4];
    uint32_t n = 0;
    uint64_t dropped = 0;
    ASSERT_EQ(mtwnContext_ReadEvents(x.c, ev, 2, &n, &dropped), mtwn_success);
    ASSERT_EQ(n, 2u);
    EXPECT_EQ(dropped, 1u);
    // Kept 1 (0.1), 2 (0.2), 3 (0.1), sorted: 1 and 3 at 0.1 in creation order, then 2.
    EXPECT_EQ(ev[0].player.index, p[1].index);
    EXPECT_EQ(ev[0].timeNs, 100 * kMs);
    EXPECT_EQ(ev[1].player.index, p[3].index);
    ASSERT_EQ(mtwnContext_ReadEvents(x.c, ev, 4, &n, &dropped), mtwn_success);
    ASSERT_EQ(n, 1u);
    EXPECT_EQ(dropped, 0u);
    EXPECT_EQ(ev[0].player.index, p[2].index);
    EXPECT_EQ(ev[0].timeNs, 200 * kMs);
    EXPECT_EQ(mtwnContext_ReadEvents(x.c, nullptr, 1, &n, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_ReadEvents(x.c, ev, 1, nullptr, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnContext_ReadEvents(nullptr, ev, 1, &n, nullptr), mtwn_errorInvalid);
}

TEST(Event, CapacityZeroMakesNoRecordsAndDropsNone) {
    mtwnContextDef cd = mtwnDefaultContextDef();
    cd.eventCapacity = 0;
    Ctx x(cd);
    mtwnTargetId t = x.Target(mtwn_valueScalar, V(0));
    mtwnTransitionDef d = Linear(t, V(1), 0.1);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(x.c, &d, &p), mtwn_success);
    x.Update(0);
    x.Update(1000 * kMs);
    EXPECT_EQ(x.Value(t).x, 1.0f);
    EXPECT_EQ(mtwnContext_GetEventCount(x.c), 0u);
    EXPECT_EQ(mtwnContext_GetEventsDropped(x.c), 0u);
}

}  // namespace

namespace {

double NanEase(void*, double) { return NAN; }

TEST(Context, HostEasingNaNCountsOneMisusePerSampledUpdate) {
    mtwnContextDef cd = mtwnDefaultContextDef();
    mtwnContext* c = nullptr;
    ASSERT_EQ(mtwnCreateContext(&cd, &c), mtwn_success);
    mtwnTargetId t;
    ASSERT_EQ(mtwnCreateTarget(c, mtwn_valueScalar, mtwnVec4{0, 0, 0, 0}, &t), mtwn_success);
    mtwnTransitionDef d = mtwnDefaultTransitionDef();
    d.target = t;
    d.value = mtwnVec4{8, 0, 0, 0};
    d.duration = 1.0;
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, &NanEase, nullptr, &d.easing), mtwn_success);
    mtwnPlayerId p;
    ASSERT_EQ(mtwnStartTransition(c, &d, &p), mtwn_success);
    ASSERT_EQ(mtwnContext_Update(c, 0, nullptr, 0, nullptr), mtwn_success);  // progress 0: no sample
    EXPECT_EQ(mtwnContext_GetMisuse(c), 0u);
    ASSERT_EQ(mtwnContext_Update(c, 250 * kMs, nullptr, 0, nullptr), mtwn_success);
    EXPECT_EQ(mtwnContext_GetMisuse(c), 1u);
    mtwnVec4 v;
    ASSERT_EQ(mtwnTarget_GetValue(c, t, &v), mtwn_success);
    EXPECT_EQ(v.x, 2.0f);  // the progress taken for the NaN: linear there
    // The velocity's samples count none.
    mtwnTargetState s;
    ASSERT_EQ(mtwnTarget_GetState(c, t, &s), mtwn_success);
    EXPECT_EQ(mtwnContext_GetMisuse(c), 1u);
    ASSERT_EQ(mtwnContext_Update(c, 500 * kMs, nullptr, 0, nullptr), mtwn_success);
    EXPECT_EQ(mtwnContext_GetMisuse(c), 2u);
    mtwnDestroyContext(c);
}

}  // namespace
