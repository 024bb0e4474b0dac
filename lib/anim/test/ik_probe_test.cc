// Break-it probes of ik.h, written from the header and the reference
// (../shared/spec/maul-anim-api.txt, ik.h) alone: hand-placed chains whose
// expected results are plain geometry computed here; every refusal with
// the pose bytes and *reachedOut checked after the call; the constants at
// their edges; fields the reference says are not read filled with NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include "lib/anim/test/probe_rig.h"
#include "maul/anim/ik.h"

namespace {

using namespace probe;

const double kPi = 3.14159265358979323846;

// 0 when the bone's local rotation has the bits of q.
int SameRot(const maniQuat& q, const Rig& r, uint32_t bone) {
  maniQuat now = maniPose_GetLocal(r.p, bone).rotation;
  return memcmp(&q, &now, sizeof q);
}

maniTwoBoneSolve TwoBone(V goal) {
  maniTwoBoneSolve t;
  memset(&t, 0, sizeof t);
  t.startBone = 0;
  t.middleBone = 1;
  t.endBone = 2;
  t.goal = F(goal);
  t.hinge = {0, 0, 1};
  t.soften = 1;
  t.weight = 1;
  return t;
}

// Checks a call refused with `code` left the pose's bytes and both
// reachedOut sentinels as they were.
template <typename S>
void ExpectRefused(Rig& r, maniResult (*fn)(maniPose*, const maniSkeleton*, const S*, bool*), const S& solve,
                   maniResult code, int item) {
  std::vector<unsigned char> before = r.Bytes();
  for (bool sentinel : {true, false}) {
    bool reached = sentinel;
    EXPECT_EQ(fn(r.p, &r.s, &solve, &reached), code) << "item " << item;
    EXPECT_EQ(reached, sentinel) << "item " << item;
    EXPECT_TRUE(r.Bytes() == before) << "item " << item;
  }
}

// A two-bone chain along x, lengths 1 and 1, bent 90 degrees at the middle
// about z (so it has a bend plane), the end at (1, 1, 0).
std::vector<Bone> BentTwo() {
  std::vector<Bone> b = XChain(4);
  b[1].r = AxisAngle({0, 0, 1}, kPi / 2);
  return b;
}

// -- Two-bone ---------------------------------------------------------------

TEST(IkProbeTwoBone, EveryListedRefusal) {
  Rig r(BentTwo());
  Rig other(XChain(4));
  std::vector<std::function<void(maniTwoBoneSolve*)>> bad = {
      [](maniTwoBoneSolve* t) { t->startBone = 4; },          // out of range
      [](maniTwoBoneSolve* t) { t->middleBone = MANI_NO_BONE; },
      [](maniTwoBoneSolve* t) { t->endBone = 4; },
      [](maniTwoBoneSolve* t) { t->middleBone = 0; },         // start not an ancestor of middle
      [](maniTwoBoneSolve* t) { t->endBone = 1; },            // middle not an ancestor of end
      [](maniTwoBoneSolve* t) { t->startBone = 2, t->endBone = 0; },
      [](maniTwoBoneSolve* t) { t->goal.y = NAN; },
      [](maniTwoBoneSolve* t) { t->goal.z = -INFINITY; },
      [](maniTwoBoneSolve* t) { t->pole.x = NAN; },
      [](maniTwoBoneSolve* t) { t->hinge.y = INFINITY; },
      [](maniTwoBoneSolve* t) { t->twist = NAN; },
      [](maniTwoBoneSolve* t) { t->soften = std::nextafter(0.0f, -1.0f); },
      [](maniTwoBoneSolve* t) { t->soften = std::nextafter(1.0f, 2.0f); },
      [](maniTwoBoneSolve* t) { t->soften = NAN; },
      [](maniTwoBoneSolve* t) { t->weight = -0.5f; },
      [](maniTwoBoneSolve* t) { t->weight = std::nextafter(1.0f, 2.0f); },
      [](maniTwoBoneSolve* t) { t->weight = NAN; },
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    maniTwoBoneSolve t = TwoBone({1.2, 0.5, 0.3});
    bad[i](&t);
    ExpectRefused(r, maniPose_SolveTwoBone, t, mani_errorInvalid, (int)i);
  }
  maniTwoBoneSolve ok = TwoBone({1.2, 0.5, 0.3});
  std::vector<unsigned char> before = r.Bytes();
  bool reached = true;
  EXPECT_EQ(maniPose_SolveTwoBone(nullptr, &r.s, &ok, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveTwoBone(r.p, nullptr, &ok, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveTwoBone(r.p, &r.s, nullptr, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveTwoBone(r.p, &other.s, &ok, &reached), mani_errorInvalid);
  EXPECT_TRUE(reached);
  EXPECT_TRUE(r.Bytes() == before);
  // a difference
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&r.s, r.p, r.p, r.p), mani_success);
  ExpectRefused(r, maniPose_SolveTwoBone, ok, mani_errorInvalid, 100);
}

TEST(IkProbeTwoBone, EdgesOfTheRangesAreTaken) {
  // "a soften or weight outside [0, 1]" is refused: 0 and 1 are inside.
  for (float soften : {0.0f, 1.0f})
    for (float weight : {0.0f, 1.0f}) {
      Rig r(BentTwo());
      maniTwoBoneSolve t = TwoBone({1.5, 0.2, 0.1});
      t.soften = soften;
      t.weight = weight;
      EXPECT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success) << soften << " " << weight;
      EXPECT_TRUE(r.LocalsFinite());
    }
}

// "each turn is made by that fraction of its angle (0 changes nothing)".
TEST(IkProbeTwoBone, WeightZeroChangesNothing) {
  Rig r(BentTwo());
  std::vector<unsigned char> before = r.Bytes();
  maniTwoBoneSolve t = TwoBone({0.3, 1.6, -0.4});
  t.pole = {0, 0, 1};
  t.twist = 0.7f;
  t.weight = 0;
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
  EXPECT_EQ(r.LocalsDiffer(before), "");
}

// Lengths 1 and 1, hinge z: a goal at distance d asks a middle angle (the
// bend between the bones) of 2 asin(d / 2); the end lands on the goal.
TEST(IkProbeTwoBone, ReachableGoalLandsExactly) {
  const V goals[] = {{1.2, 0.5, 0.3}, {0, 1.9, 0}, {-0.3, -0.2, 0.4}, {1.0, 0, -1.0}};
  for (V g : goals) {
    Rig r(BentTwo());
    bool reached = false;
    maniTwoBoneSolve t = TwoBone(g);
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
    EXPECT_TRUE(reached);
    V e = r.Pos(2), m = r.Pos(1);
    EXPECT_LT(Len(e - g), 1e-5) << g.x << " " << g.y << " " << g.z;
    EXPECT_NEAR(Len(m), 1.0, 1e-6);
    EXPECT_NEAR(Len(e - m), 1.0, 1e-6);
    EXPECT_LT(Len(r.Pos(0)), 1e-7);  // the start's origin stays
    // the bones between the middle and the end are carried: bone 3 one
    // further along the end's frame
    EXPECT_NEAR(Len(r.Pos(3) - e), 1.0, 1e-6);
    EXPECT_FALSE(maniPose_IsModelCurrent(r.p));
  }
}

TEST(IkProbeTwoBone, OutOfReachStraightensTowardTheGoalAndCloseFolds) {
  Rig r(BentTwo());
  bool reached = true;
  maniTwoBoneSolve t = TwoBone({0, 0, 7});
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
  EXPECT_FALSE(reached);
  EXPECT_LT(Len(r.Pos(2) - V{0, 0, 2}), 1e-5);
  // lengths 1 and 0.25: a goal at 0.5 is closer than the difference 0.75
  std::vector<Bone> b = BentTwo();
  b[2].t = {0.25, 0, 0};
  Rig f(b);
  t = TwoBone({0.5, 0, 0});
  reached = true;
  ASSERT_EQ(maniPose_SolveTwoBone(f.p, &f.s, &t, &reached), mani_success);
  EXPECT_FALSE(reached);
  EXPECT_LT(Len(f.Pos(2) - V{0.75, 0, 0}), 1e-5);
  // exactly at full reach: reached (from the difference to the full length)
  Rig e(BentTwo());
  t = TwoBone({0, 2 - 1e-4, 0});
  reached = false;
  ASSERT_EQ(maniPose_SolveTwoBone(e.p, &e.s, &t, &reached), mani_success);
  EXPECT_TRUE(reached);
  EXPECT_LT(Len(e.Pos(2) - V{0, 2 - 1e-4, 0}), 1e-5);
}

// "the middle bone's origin lies on the pole's side of the start-to-goal
// line"; a pole along that line keeps the chain's bend plane.
TEST(IkProbeTwoBone, PoleSideAndCollinearPole) {
  for (V pole : {V{0, 0, 1}, V{0, 0, -1}, V{0, -1, 0}}) {
    Rig r(BentTwo());
    maniTwoBoneSolve t = TwoBone({1.5, 0, 0});
    t.pole = F(pole);
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
    V m = r.Pos(1);
    V side = m - Dot(m, {1, 0, 0}) * V{1, 0, 0};
    EXPECT_LT(Angle(side, pole), 1e-4) << pole.y << pole.z;
    EXPECT_LT(Len(r.Pos(2) - V{1.5, 0, 0}), 1e-5);
  }
  // the bend plane is z = 0 (bone 1 up +y); pole along the goal line
  Rig r(BentTwo());
  maniTwoBoneSolve t = TwoBone({1.5, 0, 0});
  t.pole = {3, 0, 0};
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
  EXPECT_NEAR(r.Pos(1).z, 0, 1e-5);
  EXPECT_LT(Len(r.Pos(2) - V{1.5, 0, 0}), 1e-5);
}

// "A goal at the start ... turns nothing at the start; a bone of no length
// turns nothing at the middle."
TEST(IkProbeTwoBone, GoalAtTheStartAndZeroLengthBones) {
  Rig r(BentTwo());
  maniQuat s0 = maniPose_GetLocal(r.p, 0).rotation;
  maniTwoBoneSolve t = TwoBone({0, 0, 0});
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
  EXPECT_EQ(SameRot(s0, r, 0), 0);
  EXPECT_TRUE(r.LocalsFinite());
  // the upper bone of no length (middle at the start)
  std::vector<Bone> b = BentTwo();
  b[1].t = {0, 0, 0};
  Rig z(b);
  maniQuat m0 = maniPose_GetLocal(z.p, 1).rotation;
  t = TwoBone({0.2, 0.3, 0.5});
  ASSERT_EQ(maniPose_SolveTwoBone(z.p, &z.s, &t, nullptr), mani_success);
  EXPECT_EQ(SameRot(m0, z, 1), 0);
  EXPECT_TRUE(z.LocalsFinite());
  // the lower bone of no length
  b = BentTwo();
  b[2].t = {0, 0, 0};
  Rig y(b);
  m0 = maniPose_GetLocal(y.p, 1).rotation;
  ASSERT_EQ(maniPose_SolveTwoBone(y.p, &y.s, &t, nullptr), mani_success);
  EXPECT_EQ(SameRot(m0, y, 1), 0);
  EXPECT_TRUE(y.LocalsFinite());
  // both of no length: nothing at all, finite
  b[1].t = {0, 0, 0};
  Rig x(b);
  std::vector<unsigned char> before = x.Bytes();
  ASSERT_EQ(maniPose_SolveTwoBone(x.p, &x.s, &t, nullptr), mani_success);
  EXPECT_EQ(x.LocalsDiffer(before), "");
}

// Hinge of length 0 on a straight chain: "otherwise the middle bone is not
// bent and the chain not turned toward the pole".
TEST(IkProbeTwoBone, StraightChainWithoutHingeDoesNotBend) {
  Rig r(XChain(3));
  maniQuat m0 = maniPose_GetLocal(r.p, 1).rotation;
  maniTwoBoneSolve t = TwoBone({0, 1.2, 0});
  t.hinge = {0, 0, 0};
  t.pole = {0, 0, 1};
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
  EXPECT_EQ(SameRot(m0, r, 1), 0);
  EXPECT_TRUE(r.LocalsFinite());
  // the start still turns the chain onto the goal's line
  EXPECT_LT(Angle(r.Pos(2), {0, 1, 0}), 1e-4);
}

TEST(IkProbeTwoBone, SolveOnItsOwnResultChangesNothingAndStaleModelIsIgnored) {
  const V goals[] = {{1.2, 0.5, 0.3}, {0, 0, 5}, {0.01, 0.02, 0}};
  for (V g : goals) {
    Rig r(BentTwo());
    maniTwoBoneSolve t = TwoBone(g);
    t.pole = {0, 0.3, 1};
    t.twist = 0.4f;
    // "the pose's model need not be current": a model composed before a
    // local changed must not matter
    ASSERT_EQ(maniPose_ComputeModel(r.p, &r.s), mani_success);
    r.SetLocalRot(3, AxisAngle({0, 1, 0}, 0.3));  // the model is stale now
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
    std::vector<unsigned char> once = r.Bytes();
    Rig q(BentTwo());
    q.SetLocalRot(3, AxisAngle({0, 1, 0}, 0.3));
    ASSERT_EQ(maniPose_SolveTwoBone(q.p, &q.s, &t, nullptr), mani_success);
    for (uint32_t b = 0; b < 4; ++b) {
      maniTransform a = maniPose_GetLocal(r.p, b), c = maniPose_GetLocal(q.p, b);
      EXPECT_EQ(memcmp(&a, &c, sizeof a), 0) << b;
    }
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
    for (uint32_t b = 0; b < 4; ++b) {
      maniTransform a = maniPose_GetLocal(r.p, b), c = maniPose_GetLocal(q.p, b);
      EXPECT_EQ(memcmp(&a, &c, sizeof a), 0) << "second solve changed bone " << b;
    }
  }
}

// -- Aim ----------------------------------------------------------------------

// Bones 0..3 along x; bone 3 (at (3, 0, 0)) aims.
maniAimSolve Aim(V goal, uint32_t count = 1) {
  maniAimSolve a;
  memset(&a, 0, sizeof a);
  for (uint32_t i = 0; i < count; ++i) {
    a.bones[i] = 4 - count + i;
    a.shares[i] = 1;
  }
  a.count = count;
  a.goal = F(goal);
  a.forward = {1, 0, 0};
  a.cone = MANI_AIM_MAX_CONE;
  a.weight = 1;
  return a;
}

TEST(IkProbeAim, EveryListedRefusal) {
  Rig r(XChain(10));
  std::vector<std::function<void(maniAimSolve*)>> bad = {
      [](maniAimSolve* a) { a->count = 0; },
      [](maniAimSolve* a) { a->bones[0] = 10; },
      [](maniAimSolve* a) { a->bones[1] = 0; },  // 0 is an ancestor, but after 1
      [](maniAimSolve* a) { a->bones[0] = a->bones[1]; },
      [](maniAimSolve* a) { a->shares[0] = -1e-6f; },
      [](maniAimSolve* a) { a->shares[1] = NAN; },
      [](maniAimSolve* a) { a->shares[1] = INFINITY; },
      [](maniAimSolve* a) { a->shares[0] = a->shares[1] = 0; },
      [](maniAimSolve* a) { a->forward = {1.0011f, 0, 0}; },
      [](maniAimSolve* a) { a->forward = {0.9989f, 0, 0}; },
      [](maniAimSolve* a) { a->forward = {0, 0, 0}; },
      [](maniAimSolve* a) { a->forward = {NAN, 0, 0}; },
      [](maniAimSolve* a) { a->goal.x = NAN; },
      [](maniAimSolve* a) { a->pole.y = INFINITY; },
      [](maniAimSolve* a) { a->offset.z = NAN; },
      [](maniAimSolve* a) { a->up.x = -INFINITY; },
      [](maniAimSolve* a) { a->twist = NAN; },
      [](maniAimSolve* a) { a->cone = -1e-7f; },
      [](maniAimSolve* a) { a->cone = std::nextafter(MANI_AIM_MAX_CONE, 4.0f); },
      [](maniAimSolve* a) { a->cone = NAN; },
      [](maniAimSolve* a) { a->weight = -0.01f; },
      [](maniAimSolve* a) { a->weight = 1.01f; },
      [](maniAimSolve* a) { a->weight = NAN; },
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    maniAimSolve a = Aim({3, 2, 1}, 2);
    bad[i](&a);
    ExpectRefused(r, maniPose_SolveAim, a, mani_errorInvalid, (int)i);
  }
  // "mani_errorLimit for a count past MANI_MAX_AIM_BONES"
  maniAimSolve a = Aim({3, 2, 1}, 2);
  a.count = MANI_MAX_AIM_BONES + 1;
  ExpectRefused(r, maniPose_SolveAim, a, mani_errorLimit, 200);
  a.count = 0xFFFFFFFFu;
  ExpectRefused(r, maniPose_SolveAim, a, mani_errorLimit, 201);
  bool reached = true;
  a = Aim({3, 2, 1}, 2);
  EXPECT_EQ(maniPose_SolveAim(nullptr, &r.s, &a, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveAim(r.p, nullptr, &a, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveAim(r.p, &r.s, nullptr, &reached), mani_errorInvalid);
  EXPECT_TRUE(reached);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&r.s, r.p, r.p, r.p), mani_success);
  ExpectRefused(r, maniPose_SolveAim, a, mani_errorInvalid, 300);
}

// The edges the reference puts inside: MANI_MAX_AIM_BONES bones, a cone of
// exactly 0 or MANI_AIM_MAX_CONE, a forward of length 1 +- 0.0009, a zero
// share among others; and only the first count bones and shares are read.
TEST(IkProbeAim, EdgesAreTakenAndUnreadFieldsIgnored) {
  {
    Rig r(XChain(10));
    maniAimSolve a = Aim({3, 2, 1}, 1);
    for (uint32_t i = 0; i < MANI_MAX_AIM_BONES; ++i) {
      a.bones[i] = 1 + i;
      a.shares[i] = 1;
    }
    a.count = MANI_MAX_AIM_BONES;
    a.goal = {12, 3, 0};
    bool reached = false;
    ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
    EXPECT_TRUE(reached);
    V o = r.Pos(8), fw = Rot(r.ModelRot(8), {1, 0, 0});
    EXPECT_LT(Angle(fw, V{12, 3, 0} - o), 1e-4);
  }
  for (float len : {1.0009f, 0.9991f}) {
    Rig r(XChain(4));
    maniAimSolve a = Aim({3, 2, 0});
    a.forward = {len, 0, 0};
    EXPECT_EQ(maniPose_SolveAim(r.p, &r.s, &a, nullptr), mani_success) << len;
  }
  {
    Rig r(XChain(4));
    maniAimSolve a = Aim({3, 2, 0}, 2);
    a.shares[0] = 0;  // not all 0
    a.bones[2] = 77;  // unread
    a.shares[2] = NAN;
    a.shares[7] = -5;
    EXPECT_EQ(maniPose_SolveAim(r.p, &r.s, &a, nullptr), mani_success);
    // bone 2 had no share: it keeps its rotation
    EXPECT_EQ(QDist(r.Local(2), Q{}), 0.0);
    EXPECT_LT(Angle(Rot(r.ModelRot(3), {1, 0, 0}), V{0, 2, 0}), 1e-4);
  }
  {
    Rig r(XChain(4));
    maniAimSolve a = Aim({3, 2, 0});
    a.cone = 0;
    std::vector<unsigned char> before = r.Bytes();
    bool reached = true;
    EXPECT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
    EXPECT_FALSE(reached);  // the cone stopped it
    EXPECT_LT(QDist(r.Local(3), Q{}), 1e-6);
  }
}

// Single bone at (3, 0, 0) forward +x, goal (3, 2, 0): a quarter turn about z.
TEST(IkProbeAim, ShortestArcOntoTheGoal) {
  Rig r(XChain(4));
  bool reached = false;
  maniAimSolve a = Aim({3, 2, 0});
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_TRUE(reached);
  EXPECT_LT(QDist(r.Local(3), AxisAngle({0, 0, 1}, kPi / 2)), 1e-6)
      << r.Local(3).x << " " << r.Local(3).y << " " << r.Local(3).z << " " << r.Local(3).w;
  for (uint32_t b = 0; b < 3; ++b) EXPECT_EQ(QDist(r.Local(b), Q{}), 0.0);
  // a goal straight behind: a half turn, still onto the goal
  Rig h(XChain(4));
  a = Aim({1, 0, 0});
  ASSERT_EQ(maniPose_SolveAim(h.p, &h.s, &a, &reached), mani_success);
  EXPECT_TRUE(h.LocalsFinite());
  EXPECT_LT(Angle(Rot(h.ModelRot(3), {1, 0, 0}), {-1, 0, 0}), 1e-4);
}

// "A cone stops the forward at its edge": goal at 90 degrees, cone 0.5.
TEST(IkProbeAim, ConeStopsAtItsEdgeTowardTheGoal) {
  Rig r(XChain(4));
  bool reached = true;
  maniAimSolve a = Aim({3, 0, -2});
  a.cone = 0.5f;
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_FALSE(reached);
  V fw = Rot(r.ModelRot(3), {1, 0, 0});
  EXPECT_NEAR(Angle(fw, {1, 0, 0}), 0.5, 1e-5);
  EXPECT_LT(Angle(fw, {std::cos(0.5), 0, -std::sin(0.5)}), 1e-5);
}

// "then about that line so its up axis lies in the plane of the line and
// the pole, then by the twist".
TEST(IkProbeAim, UpTowardThePoleThenTwist) {
  for (double twist : {0.0, 0.6}) {
    Rig r(XChain(4));
    maniAimSolve a = Aim({3, 5, 0});
    a.up = {0, 1, 0};
    a.pole = {0, 0, 1};
    a.twist = (float)twist;
    ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, nullptr), mani_success);
    Q m = r.ModelRot(3);
    V fw = Rot(m, {1, 0, 0}), up = Rot(m, {0, 1, 0});
    EXPECT_LT(Angle(fw, {0, 1, 0}), 1e-5);
    // with twist 0 the up faces +z; with a twist it faces +z turned by the
    // twist about the aim line (+y)
    V want = Rot(AxisAngle({0, 1, 0}, twist), {0, 0, 1});
    EXPECT_LT(Angle(up, want), 1e-4) << twist;
  }
}

// "A goal at the aiming bone, or nearer to it than the offset lies from the
// forward line, turns nothing."
TEST(IkProbeAim, GoalAtTheBoneOrInsideTheOffsetTurnsNothing) {
  Rig r(XChain(4));
  std::vector<unsigned char> before = r.Bytes();
  bool reached = true;
  maniAimSolve a = Aim({3, 0, 0});
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_FALSE(reached);
  EXPECT_EQ(r.LocalsDiffer(before), "");
  a = Aim({3.2, 0.3, 0});  // 0.36 from the bone; the offset 1 from the forward line
  a.offset = {0, 1, 0};
  reached = true;
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_FALSE(reached);
  EXPECT_EQ(r.LocalsDiffer(before), "");
}

// The offset: the forward line starts at (3, 0.5, 0) in the model; a goal
// at (5, 2.5, 0) is reached by that line, not the line from the origin.
TEST(IkProbeAim, OffsetLineGoesThroughTheGoal) {
  Rig r(XChain(4));
  maniAimSolve a = Aim({3, 4, 0});
  a.offset = {0, 1, 0};
  bool reached = false;
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_TRUE(reached);
  Q m = r.ModelRot(3);
  V o = r.Pos(3) + Rot(m, {0, 1, 0}), fw = Rot(m, {1, 0, 0});
  V toGoal = V{3, 4, 0} - o;
  EXPECT_LT(Len(Cross(fw, toGoal)) / Len(toGoal), 1e-5);
  EXPECT_GT(Dot(fw, toGoal), 0);
}

TEST(IkProbeAim, WeightZeroAndHalf) {
  Rig r(XChain(4));
  std::vector<unsigned char> before = r.Bytes();
  maniAimSolve a = Aim({3, 2, 0});
  a.weight = 0;
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, nullptr), mani_success);
  EXPECT_EQ(r.LocalsDiffer(before), "");
  a.weight = 0.5f;
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, nullptr), mani_success);
  EXPECT_LT(QDist(r.Local(3), AxisAngle({0, 0, 1}, kPi / 4)), 1e-6);
}

// -- CCD and FABRIK --------------------------------------------------------------

typedef maniResult (*ChainFn)(maniPose*, const maniSkeleton*, const maniChainSolve*, bool*);

maniChainSolve Chain(uint32_t root, uint32_t end, V goal) {
  maniChainSolve c;
  memset(&c, 0, sizeof c);
  c.rootBone = root;
  c.endBone = end;
  c.goal = F(goal);
  c.rotation = {0, 0, 0, 1};
  c.iterations = 64;
  c.tolerance = 1e-4f;
  c.weight = 1;
  return c;
}

void ChainRefusals(ChainFn fn, bool fabrik) {
  Rig r(XChain(40));
  std::vector<maniChainLimit> limits(3);
  memset(limits.data(), 0, limits.size() * sizeof limits[0]);
  for (int i = 0; i < 3; ++i) {
    limits[i].bone = 1 + i;
    limits[i].limit.kind = maniJointLimitHinge;
    limits[i].limit.axis = {0, 0, 1};
    limits[i].limit.minAngle = -1;
    limits[i].limit.maxAngle = 1;
  }
  const maniChainLimit* L = limits.data();
  std::vector<std::function<void(maniChainSolve*, maniChainLimit*)>> bad = {
      [](maniChainSolve* c, maniChainLimit*) { c->rootBone = 40; },
      [](maniChainSolve* c, maniChainLimit*) { c->endBone = MANI_NO_BONE; },
      [](maniChainSolve* c, maniChainLimit*) { c->rootBone = 5, c->endBone = 2; },  // root not an ancestor
      [](maniChainSolve* c, maniChainLimit*) { c->goal.x = NAN; },
      [](maniChainSolve* c, maniChainLimit*) { c->rotation = {0, 0, 0, 0}; },
      [](maniChainSolve* c, maniChainLimit*) { c->rotation.y = INFINITY; },
      [](maniChainSolve* c, maniChainLimit*) { c->iterations = 0; },
      [](maniChainSolve* c, maniChainLimit*) { c->tolerance = -1e-7f; },
      [](maniChainSolve* c, maniChainLimit*) { c->tolerance = INFINITY; },
      [](maniChainSolve* c, maniChainLimit*) { c->tolerance = NAN; },
      [](maniChainSolve* c, maniChainLimit*) { c->rotationWeight = 1.5f; },
      [](maniChainSolve* c, maniChainLimit*) { c->rotationWeight = -0.1f; },
      [](maniChainSolve* c, maniChainLimit*) { c->rotationWeight = NAN; },
      [](maniChainSolve* c, maniChainLimit*) { c->weight = 1.5f; },
      [](maniChainSolve* c, maniChainLimit*) { c->weight = NAN; },
      [](maniChainSolve* c, maniChainLimit*) { c->pole.x = NAN; },
      // limits
      [](maniChainSolve* c, maniChainLimit*) { c->limits = nullptr; },
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.kind = 5; },
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.kind = 0xFFFFFFFFu; },
      [](maniChainSolve*, maniChainLimit* l) { l[1].bone = 1; },   // given twice
      [](maniChainSolve*, maniChainLimit* l) { l[2].bone = 4; },   // the end: off the root-to-end's-parent path
      [](maniChainSolve*, maniChainLimit* l) { l[2].bone = 30; },  // below the end
      [](maniChainSolve*, maniChainLimit* l) { l[2].bone = 40; },  // out of range
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.axis = {0, 0, 1.002f}; },
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.axis = {0, 0, 0}; },
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.axis = {1, 0, 0}; },  // along the bone's axis
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.axis = {-1, 0, 0}; },
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.minAngle = 1.5f; },  // min > max
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.minAngle = -3.2f; },
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.maxAngle = 3.2f; },
      [](maniChainSolve*, maniChainLimit* l) { l[0].limit.maxAngle = NAN; },
      [](maniChainSolve*, maniChainLimit* l) {
        l[0].limit.kind = maniJointLimitCone;
        l[0].limit.cone = -0.1f;
      },
      [](maniChainSolve*, maniChainLimit* l) {
        l[0].limit.kind = maniJointLimitCone;
        l[0].limit.cone = 3.15f;
      },
      [](maniChainSolve*, maniChainLimit* l) {
        l[0].limit.kind = maniJointLimitConeTwist;
        l[0].limit.cone = NAN;
      },
      [](maniChainSolve*, maniChainLimit* l) {
        l[0].limit.kind = maniJointLimitTwist;
        l[0].limit.minAngle = 0.5f;
        l[0].limit.maxAngle = 0.4f;
      },
      [](maniChainSolve*, maniChainLimit* l) {
        l[0].limit.kind = maniJointLimitConeTwist;
        l[0].limit.cone = 1;
        l[0].limit.maxAngle = INFINITY;
      },
  };
  if (fabrik) {
    bad.push_back([](maniChainSolve* c, maniChainLimit*) { c->step = 0.1f; });
    bad.push_back([](maniChainSolve* c, maniChainLimit*) { c->step = -0.0001f; });
  } else {
    bad.push_back([](maniChainSolve* c, maniChainLimit*) { c->pole = {0, 0, 1}; });
    bad.push_back([](maniChainSolve* c, maniChainLimit*) { c->step = -0.1f; });
    bad.push_back([](maniChainSolve* c, maniChainLimit*) { c->step = 3.1416f; });
    bad.push_back([](maniChainSolve* c, maniChainLimit*) { c->step = NAN; });
  }
  for (size_t i = 0; i < bad.size(); ++i) {
    std::vector<maniChainLimit> l = limits;
    maniChainSolve c = Chain(0, 4, {1, 2, 0.5});
    c.limits = l.data();
    c.limitCount = 3;
    bad[i](&c, l.data());
    ExpectRefused(r, fn, c, mani_errorInvalid, (int)i);
  }
  (void)L;
  // limits: "MANI_MAX_IK_CHAIN_BONES ... its root and end included"
  maniChainSolve c = Chain(0, MANI_MAX_IK_CHAIN_BONES, {3, 3, 0});  // 33 bones
  ExpectRefused(r, fn, c, mani_errorLimit, 500);
  c = Chain(0, 4, {1, 2, 0});
  c.iterations = MANI_MAX_IK_ITERATIONS + 1;
  ExpectRefused(r, fn, c, mani_errorLimit, 501);
  bool reached = true;
  EXPECT_EQ(fn(nullptr, &r.s, &c, &reached), mani_errorInvalid);
  EXPECT_EQ(fn(r.p, nullptr, &c, &reached), mani_errorInvalid);
  EXPECT_EQ(fn(r.p, &r.s, nullptr, &reached), mani_errorInvalid);
  EXPECT_TRUE(reached);
  c = Chain(0, 4, {1, 2, 0});
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&r.s, r.p, r.p, r.p), mani_success);
  ExpectRefused(r, fn, c, mani_errorInvalid, 600);
}

TEST(IkProbeCcd, EveryListedRefusal) { ChainRefusals(maniPose_SolveCcd, false); }
TEST(IkProbeFabrik, EveryListedRefusal) { ChainRefusals(maniPose_SolveFabrik, true); }

// The edges the reference puts inside: 32 bones on the path, 256
// iterations, a step of exactly pi (CCD), a non-unit rotation, a tolerance
// of 0; fields a limit's kind does not use are not read.
void ChainEdges(ChainFn fn, bool fabrik) {
  Rig r(XChain(40));
  maniChainSolve c = Chain(0, MANI_MAX_IK_CHAIN_BONES - 1, {10, 10, 0});
  c.iterations = MANI_MAX_IK_ITERATIONS;
  c.tolerance = 0;
  c.rotation = {0, 0, 3, 3};  // any finite length but 0
  c.rotationWeight = 1;
  if (!fabrik) c.step = (float)kPi;
  bool reached = false;
  ASSERT_EQ(fn(r.p, &r.s, &c, &reached), mani_success);
  EXPECT_TRUE(r.LocalsFinite());
  Q want = AxisAngle({0, 0, 1}, kPi / 2);
  EXPECT_LT(QDist(r.ModelRot(MANI_MAX_IK_CHAIN_BONES - 1), want), 1e-4);
  // fields a kind does not use: NaN
  Rig q(XChain(6));
  maniChainLimit l[3];
  memset(l, 0, sizeof l);
  l[0].bone = 1;
  l[0].limit.kind = maniJointLimitNone;
  l[0].limit.axis = {NAN, NAN, NAN};
  l[0].limit.minAngle = l[0].limit.maxAngle = l[0].limit.cone = NAN;
  l[1].bone = 2;
  l[1].limit.kind = maniJointLimitCone;
  l[1].limit.cone = 0.5f;
  l[1].limit.axis = {NAN, 0, 0};
  l[1].limit.minAngle = NAN;
  l[1].limit.maxAngle = -INFINITY;
  l[2].bone = 3;
  l[2].limit.kind = maniJointLimitTwist;
  l[2].limit.minAngle = -kPi;
  l[2].limit.maxAngle = kPi;
  l[2].limit.cone = NAN;
  l[2].limit.axis = {0, 0, 0};
  c = Chain(0, 5, {2, 2, 1});
  c.limits = l;
  c.limitCount = 3;
  EXPECT_EQ(fn(q.p, &q.s, &c, nullptr), mani_success);
  // a limit count of 0 with NULL limits
  c.limits = nullptr;
  c.limitCount = 0;
  EXPECT_EQ(fn(q.p, &q.s, &c, nullptr), mani_success);
}

TEST(IkProbeCcd, EdgesAreTaken) { ChainEdges(maniPose_SolveCcd, false); }
TEST(IkProbeFabrik, EdgesAreTaken) { ChainEdges(maniPose_SolveFabrik, true); }

void ChainReachAndLimits(ChainFn fn) {
  // reachable: a 4-bone chain (reach 4) to points well inside
  const V goals[] = {{2, 2, 0}, {0, 0, 3}, {-1, 1.5, 1}, {3.5, 0.5, 0}};
  for (V g : goals) {
    Rig r(XChain(5));
    bool reached = false;
    maniChainSolve c = Chain(0, 4, g);
    c.iterations = MANI_MAX_IK_ITERATIONS;
    ASSERT_EQ(fn(r.p, &r.s, &c, &reached), mani_success);
    EXPECT_TRUE(reached) << g.x << g.y << g.z;
    EXPECT_LT(Len(r.Pos(4) - g), 1e-4 * 1.01);
    for (uint32_t k = 1; k < 5; ++k) EXPECT_NEAR(Len(r.Pos(k) - r.Pos(k - 1)), 1.0, 1e-5);
    EXPECT_FALSE(maniPose_IsModelCurrent(r.p));
  }
  // unreachable: the chain ends straight toward the goal, reachedOut false
  {
    Rig r(XChain(5));
    r.SetLocalRot(1, AxisAngle({0, 0, 1}, 0.4));
    r.SetLocalRot(2, AxisAngle({0, 1, 0}, 0.3));
    bool reached = true;
    maniChainSolve c = Chain(0, 4, {0, 9, 0});
    c.iterations = MANI_MAX_IK_ITERATIONS;
    ASSERT_EQ(fn(r.p, &r.s, &c, &reached), mani_success);
    EXPECT_FALSE(reached);
    EXPECT_LT(Len(r.Pos(4) - V{0, 4, 0}), 2e-3);
  }
  // hinge limits hold: bones 1..3 hinge about z in [0, 0.4]; the chain's
  // locals stay rotations about z within that range
  {
    Rig r(XChain(5));
    maniChainLimit l[3];
    memset(l, 0, sizeof l);
    for (int i = 0; i < 3; ++i) {
      l[i].bone = 1 + i;
      l[i].limit.kind = maniJointLimitHinge;
      l[i].limit.axis = {0, 0, 1};
      l[i].limit.minAngle = 0;
      l[i].limit.maxAngle = 0.4f;
    }
    maniChainSolve c = Chain(0, 4, {-1, 2, 1.5});
    c.limits = l;
    c.limitCount = 3;
    ASSERT_EQ(fn(r.p, &r.s, &c, nullptr), mani_success);
    for (int i = 1; i <= 3; ++i) {
      Q q = r.Local(i);
      if (q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};
      EXPECT_LT(std::fabs(q.x), 1e-6) << i;
      EXPECT_LT(std::fabs(q.y), 1e-6) << i;
      double a = 2 * std::atan2(q.z, q.w);
      EXPECT_GE(a, -1e-6) << i;
      EXPECT_LE(a, 0.4 + 1e-6) << i;
    }
  }
  // cone limits hold: bone axis (+x, the next bone's translation) within 0.3
  {
    Rig r(XChain(5));
    maniChainLimit l[4];
    memset(l, 0, sizeof l);
    for (int i = 0; i < 4; ++i) {
      l[i].bone = i;
      l[i].limit.kind = maniJointLimitCone;
      l[i].limit.cone = 0.3f;
    }
    maniChainSolve c = Chain(0, 4, {0, 3, 0});
    c.limits = l;
    c.limitCount = 4;
    ASSERT_EQ(fn(r.p, &r.s, &c, nullptr), mani_success);
    for (int i = 0; i < 4; ++i) EXPECT_LE(Angle(Rot(r.Local(i), {1, 0, 0}), {1, 0, 0}), 0.3 + 1e-5) << i;
  }
  // weight 0: nothing changes
  {
    Rig r(XChain(5));
    r.SetLocalRot(2, AxisAngle({0, 1, 1}, 0.5));
    std::vector<unsigned char> before = r.Bytes();
    maniChainSolve c = Chain(0, 4, {1, 2, 0.5});
    c.weight = 0;
    ASSERT_EQ(fn(r.p, &r.s, &c, nullptr), mani_success);
    EXPECT_EQ(r.LocalsDiffer(before), "");
  }
  // the goal on the end: nothing turns, reached
  {
    Rig r(XChain(5));
    std::vector<unsigned char> before = r.Bytes();
    bool reached = false;
    maniChainSolve c = Chain(0, 4, {4, 0, 0});
    ASSERT_EQ(fn(r.p, &r.s, &c, &reached), mani_success);
    EXPECT_TRUE(reached);
    EXPECT_EQ(r.LocalsDiffer(before), "");
  }
  // a goal at the root (a reachable point at distance 0) and zero-length
  // bones: finite, lengths kept
  {
    std::vector<Bone> b = XChain(5);
    b[2].t = {0, 0, 0};
    Rig r(b);
    maniChainSolve c = Chain(0, 4, {0, 0, 0});
    ASSERT_EQ(fn(r.p, &r.s, &c, nullptr), mani_success);
    EXPECT_TRUE(r.LocalsFinite());
    EXPECT_NEAR(Len(r.Pos(1)), 1, 1e-5);
    EXPECT_NEAR(Len(r.Pos(2) - r.Pos(1)), 0, 1e-6);
  }
  // rotation weight 1 puts the end bone at the wanted model rotation
  {
    Rig r(XChain(5));
    maniChainSolve c = Chain(0, 4, {2, 2, 0});
    Q want = AxisAngle({1, 1, 0}, 1.1);
    c.rotation = FQ(Q{-want.x, -want.y, -want.z, -want.w});
    c.rotationWeight = 1;
    ASSERT_EQ(fn(r.p, &r.s, &c, nullptr), mani_success);
    EXPECT_LT(QDist(r.ModelRot(4), want), 1e-5);
  }
}

TEST(IkProbeCcd, ReachLimitsWeightAndDegenerateChains) { ChainReachAndLimits(maniPose_SolveCcd); }
TEST(IkProbeFabrik, ReachLimitsWeightAndDegenerateChains) { ChainReachAndLimits(maniPose_SolveFabrik); }

// "the most a bone turns in one step": one iteration, step 0.1: no bone's
// local turns by more than 0.1 (each bone turns once an iteration).
TEST(IkProbeCcd, StepBoundsOneIteration) {
  Rig r(XChain(5));
  maniChainSolve c = Chain(0, 4, {-2, 1, 0});
  c.iterations = 1;
  c.step = 0.1f;
  ASSERT_EQ(maniPose_SolveCcd(r.p, &r.s, &c, nullptr), mani_success);
  double most = 0;
  for (int i = 0; i < 4; ++i) {
    EXPECT_LE(QDist(r.Local(i), Q{}), 0.1 + 1e-6) << i;
    most = std::max(most, QDist(r.Local(i), Q{}));
  }
  EXPECT_GT(most, 0.099);
}

// FABRIK's pole: a chain bent in the z = 0 plane, goal on +x, pole +z: the
// bend ends facing +z.
TEST(IkProbeFabrik, PoleTurnsTheBend) {
  Rig r(XChain(4));
  r.SetLocalRot(1, AxisAngle({0, 0, 1}, 0.6));
  r.SetLocalRot(2, AxisAngle({0, 0, 1}, -0.2));
  maniChainSolve c = Chain(0, 3, {2.5, 0, 0});
  c.pole = {0, 0, 1};
  ASSERT_EQ(maniPose_SolveFabrik(r.p, &r.s, &c, nullptr), mani_success);
  EXPECT_LT(Len(r.Pos(3) - V{2.5, 0, 0}), 2e-4);
  V m = r.Pos(1) + r.Pos(2);
  V side = m - Dot(m, {1, 0, 0}) * V{1, 0, 0};
  EXPECT_GT(side.z, 0.1);
  EXPECT_LT(std::fabs(side.y), 0.05 * side.z);
}


// Hinge limits: "an axis of length 1 within a thousandth and not along the
// bone's axis (within a thousandth of a radian)"; bone 1's axis is +x.
void HingeThresholds(ChainFn fn) {
  struct Case {
    V axis;
    maniResult want;
  };
  const Case cases[] = {
      {{std::cos(0.0005), std::sin(0.0005), 0}, mani_errorInvalid},
      {{std::cos(0.002), std::sin(0.002), 0}, mani_success},
      {{-std::cos(0.0005), 0, std::sin(0.0005)}, mani_errorInvalid},
      {{0, 0, 1.0009}, mani_success},
      {{0, 0, 0.9991}, mani_success},
      {{0, 0, 1.0011}, mani_errorInvalid},
      {{0, 0, 0.9989}, mani_errorInvalid},
  };
  for (const Case& k : cases) {
    Rig r(XChain(5));
    maniChainLimit l;
    memset(&l, 0, sizeof l);
    l.bone = 1;
    l.limit.kind = maniJointLimitHinge;
    l.limit.axis = F(k.axis);
    l.limit.minAngle = -1;
    l.limit.maxAngle = 1;
    maniChainSolve c = Chain(0, 4, {1, 2, 1});
    c.limits = &l;
    c.limitCount = 1;
    std::vector<unsigned char> before = r.Bytes();
    EXPECT_EQ(fn(r.p, &r.s, &c, nullptr), k.want) << k.axis.x << " " << k.axis.y << " " << k.axis.z;
    if (k.want != mani_success) {
      EXPECT_TRUE(r.Bytes() == before);
    }
  }
  // a cone of (float) pi and a hinge range of +-(float) pi are pi as a
  // binary32 gives it: taken
  Rig r(XChain(5));
  maniChainLimit l[2];
  memset(l, 0, sizeof l);
  l[0].bone = 1;
  l[0].limit.kind = maniJointLimitCone;
  l[0].limit.cone = (float)kPi;
  l[1].bone = 2;
  l[1].limit.kind = maniJointLimitHinge;
  l[1].limit.axis = {0, 1, 0};
  l[1].limit.minAngle = -(float)kPi;
  l[1].limit.maxAngle = (float)kPi;
  maniChainSolve c = Chain(0, 4, {1, 2, 1});
  c.limits = l;
  c.limitCount = 2;
  EXPECT_EQ(fn(r.p, &r.s, &c, nullptr), mani_success);
}

TEST(IkProbeCcd, HingeThresholds) { HingeThresholds(maniPose_SolveCcd); }
TEST(IkProbeFabrik, HingeThresholds) { HingeThresholds(maniPose_SolveFabrik); }

// Degenerate chains: a root that is the end, bones of no or tiny length,
// goals far away; a cone or twist on a bone without an axis leaves it free.
void DegenerateChains(ChainFn fn) {
  {
    Rig r(XChain(5));
    std::vector<unsigned char> before = r.Bytes();
    maniChainSolve c = Chain(2, 2, {1, 2, 1});
    maniResult res = fn(r.p, &r.s, &c, nullptr);
    EXPECT_TRUE(res == mani_success || res == mani_errorInvalid) << res;
    if (res == mani_errorInvalid) {
      EXPECT_TRUE(r.Bytes() == before);
    }
    EXPECT_TRUE(r.LocalsFinite());
  }
  for (double len : {1e-30, 1e-12, 1e-6}) {
    Rig r(XChain(5, {len, len, len, len}));
    maniChainSolve c = Chain(0, 4, {len, 2 * len, 0});
    bool reached;
    ASSERT_EQ(fn(r.p, &r.s, &c, &reached), mani_success);
    EXPECT_TRUE(r.LocalsFinite()) << len;
  }
  for (float far : {1e30f, 3e38f}) {
    Rig r(XChain(5));
    maniChainSolve c = Chain(0, 4, {far, -far, far});
    bool reached = true;
    ASSERT_EQ(fn(r.p, &r.s, &c, &reached), mani_success);
    EXPECT_FALSE(reached);
    EXPECT_TRUE(r.LocalsFinite()) << far;
  }
  {
    std::vector<Bone> b = XChain(5);
    b[2].t = {0, 0, 0};  // bone 1's next bone at its origin: no axis
    Rig r(b);
    maniChainLimit l[2];
    memset(l, 0, sizeof l);
    l[0].bone = 1;
    l[0].limit.kind = maniJointLimitConeTwist;
    l[0].limit.cone = 0;
    l[1].bone = 2;
    l[1].limit.kind = maniJointLimitHinge;
    l[1].limit.axis = {0, 0, 1};
    l[1].limit.minAngle = -0.5f;
    l[1].limit.maxAngle = 0.5f;
    maniChainSolve c = Chain(0, 4, {1, 1.5, 0});
    c.limits = l;
    c.limitCount = 2;
    ASSERT_EQ(fn(r.p, &r.s, &c, nullptr), mani_success);
    EXPECT_TRUE(r.LocalsFinite());
  }
}

TEST(IkProbeCcd, DegenerateChains) { DegenerateChains(maniPose_SolveCcd); }
TEST(IkProbeFabrik, DegenerateChains) { DegenerateChains(maniPose_SolveFabrik); }

// "A goal at the aiming bone (within 1e-5 times one plus the bone's
// distance from the model's origin) ... turns nothing": the bone at
// (3, 0, 0), so within 4e-5.
TEST(IkProbeAim, GoalAtTheBoneThreshold) {
  Rig r(XChain(4));
  std::vector<unsigned char> before = r.Bytes();
  bool reached = true;
  maniAimSolve a = Aim({3, 3.5e-5, 0});
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_FALSE(reached);
  EXPECT_EQ(r.LocalsDiffer(before), "");
  a = Aim({3, 5e-5, 0});
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_TRUE(reached);
  EXPECT_LT(Angle(Rot(r.ModelRot(3), {1, 0, 0}), {0, 1, 0}), 1e-3);
}

// Far goals and tiny or huge coordinates stay finite in every solver.
TEST(IkProbeAll, FarGoalsStayFinite) {
  for (float far : {1e30f, 3e38f, -3e38f}) {
    Rig r(BentTwo());
    maniTwoBoneSolve t = TwoBone({far, far, 0});
    t.pole = {far, 0, far};
    bool reached = true;
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
    EXPECT_FALSE(reached);
    EXPECT_TRUE(r.LocalsFinite()) << far;
    Rig q(XChain(4));
    maniAimSolve a = Aim({far, 1, far}, 2);
    a.up = {0, 1, 0};
    a.pole = {far, far, far};
    ASSERT_EQ(maniPose_SolveAim(q.p, &q.s, &a, nullptr), mani_success);
    EXPECT_TRUE(q.LocalsFinite()) << far;
  }
  // the pole along the aim line: no up turn, finite
  Rig q(XChain(4));
  maniAimSolve a = Aim({3, 5, 0});
  a.up = {0, 1, 0};
  a.pole = {0, 1, 0};
  ASSERT_EQ(maniPose_SolveAim(q.p, &q.s, &a, nullptr), mani_success);
  EXPECT_TRUE(q.LocalsFinite());
  EXPECT_LT(Angle(Rot(q.ModelRot(3), {1, 0, 0}), {0, 1, 0}), 1e-5);
}


// The hinge's sense: "the bend from the start bone to the end bone is
// counterclockwise about it, between 0 (folded) and pi (straight)": the
// angle at the middle from the start bone (back toward the start, -x) to
// the end bone, so a straight chain along x, hinge +z, goal (1, 1, 0) at
// sqrt 2 bends to pi/2 from -x counterclockwise: the end bone along -y, the
// middle turned -pi/2 about z, the start +pi/2 about z to put the end on
// the goal; at weight 0.5 the middle's turn is half its angle.
TEST(IkProbeTwoBone, HingeSenseAndWeightHalf) {
  Rig r(XChain(3));
  maniTwoBoneSolve t = TwoBone({1, 1, 0});
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
  EXPECT_LT(QDist(r.Local(1), AxisAngle({0, 0, 1}, -kPi / 2)), 1e-5);
  EXPECT_LT(QDist(r.Local(0), AxisAngle({0, 0, 1}, kPi / 2)), 1e-5);
  Rig h(XChain(3));
  t.weight = 0.5f;
  ASSERT_EQ(maniPose_SolveTwoBone(h.p, &h.s, &t, nullptr), mani_success);
  EXPECT_LT(QDist(h.Local(1), AxisAngle({0, 0, 1}, -kPi / 4)), 1e-5);
}

// The twist: "the chain's turn about the start-to-goal line after the pole,
// in radians (counterclockwise looking from the goal to the start)": the
// line is +x toward the viewer at the goal, so a twist of pi/2 takes a +z
// pole's side to -y. (float)(pi/2) is 4.4e-8 past pi/2: the bend's side
// then lies 4.4e-8 short of opposite the pose's, where the shortest arc's
// own fallback axis (perpendicular, not along the line) flipped the chain
// to (-1.5, 0, 0) before the fix in ik_common.c.
TEST(IkProbeTwoBone, TwistSense) {
  for (double tw : {1.0, 1.5707963267948966 + 1e-7, 1.5707963267948966 - 1e-7, -1.5707963267948966,
                    1.5707963267948966 + 1e-9}) {
    Rig q(BentTwo());
    maniTwoBoneSolve u = TwoBone({1.5, 0, 0});
    u.pole = {0, 0, 1};
    u.twist = (float)tw;
    bool reached = false;
    ASSERT_EQ(maniPose_SolveTwoBone(q.p, &q.s, &u, &reached), mani_success);
    EXPECT_TRUE(reached);
    EXPECT_LT(Len(q.Pos(2) - V{1.5, 0, 0}), 1e-5) << tw;
    V m = q.Pos(1);
    V side = m - Dot(m, {1, 0, 0}) * V{1, 0, 0};
    EXPECT_LT(Angle(side, Rot(AxisAngle({1, 0, 0}, (float)tw), {0, 0, 1})), 1e-4) << tw;
  }
  Rig r(BentTwo());
  maniTwoBoneSolve t = TwoBone({1.5, 0, 0});
  t.pole = {0, 0, 1};
  t.twist = (float)(kPi / 2);
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, nullptr), mani_success);
  V m = r.Pos(1);
  V side = m - Dot(m, {1, 0, 0}) * V{1, 0, 0};
  EXPECT_LT(Angle(side, {0, -1, 0}), 1e-4);
  EXPECT_LT(Len(r.Pos(2) - V{1.5, 0, 0}), 1e-5);
}

// The up's turn about the aim line onto a pole nearly opposite the up (a
// twist of (float) pi, 8.7e-8 past pi): the forward stays on the goal and
// the up faces the pole turned by the twist (the same near-opposite turn
// the two-bone twist probe found).
TEST(IkProbeAim, UpTurnOntoANearlyOppositeDirection) {
  for (double tw : {3.14159265358979323846, -3.14159265358979323846, 3.14159265358979323846 - 1e-7}) {
    Rig r(XChain(4));
    maniAimSolve a = Aim({3, 5, 0});
    a.up = {0, 0, 1};
    a.pole = {0, 0, 1};
    a.twist = (float)tw;
    bool reached = false;
    ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
    EXPECT_TRUE(reached);
    Q m = r.ModelRot(3);
    EXPECT_LT(Angle(Rot(m, {1, 0, 0}), {0, 1, 0}), 1e-5) << tw;
    EXPECT_LT(Angle(Rot(m, {0, 0, 1}), Rot(AxisAngle({0, 1, 0}, (float)tw), {0, 0, 1})), 1e-4) << tw;
  }
}

// FABRIK's pole exactly opposite the bend: a half turn about the line.
TEST(IkProbeFabrik, PoleOppositeTheBend) {
  Rig r(XChain(4));
  r.SetLocalRot(1, AxisAngle({0, 0, 1}, 0.6));
  r.SetLocalRot(2, AxisAngle({0, 0, 1}, -0.2));
  maniChainSolve c = Chain(0, 3, {2.5, 0, 0});
  c.pole = {0, -1, 0};
  ASSERT_EQ(maniPose_SolveFabrik(r.p, &r.s, &c, nullptr), mani_success);
  EXPECT_LT(Len(r.Pos(3) - V{2.5, 0, 0}), 2e-4);
  V m = r.Pos(1) + r.Pos(2);
  V side = m - Dot(m, {1, 0, 0}) * V{1, 0, 0};
  EXPECT_LT(side.y, -0.1);
  EXPECT_LT(std::fabs(side.z), 0.05 * -side.y);
}

}  // namespace
