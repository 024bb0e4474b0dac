// ik.h: the chain solvers, checked against geometry computed here from the
// pose's own model (maniPose_ComputeModel) and quaternion math written here,
// never against the solvers' own output (except the solve on its own
// result, which must change nothing); every refusal leaving the pose's bytes
// unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/ik_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/blend.h"
#include "maul/anim/ik.h"

namespace {

struct V {
  double x = 0, y = 0, z = 0;
};
V operator-(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V operator+(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V operator*(double s, V a) { return {s * a.x, s * a.y, s * a.z}; }
double Dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V Cross(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double Len(V a) { return std::sqrt(Dot(a, a)); }
V Unit(V a) { return (1.0 / Len(a)) * a; }
V Perp(V a, V n) { return a - Dot(a, n) * n; }
double Angle(V a, V b) { return std::atan2(Len(Cross(a, b)), Dot(a, b)); }
V Of(maniVec3 v) { return {v.x, v.y, v.z}; }
maniVec3 F(V v) { return {(float)v.x, (float)v.y, (float)v.z}; }

struct Q {
  double x = 0, y = 0, z = 0, w = 1;
};
Q Of(maniQuat q) { return {q.x, q.y, q.z, q.w}; }
Q Mul(Q a, Q b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Q Conj(Q a) { return {-a.x, -a.y, -a.z, a.w}; }
__attribute__((unused)) V Rot(Q q, V v) {
  Q p = Mul(Mul(q, {v.x, v.y, v.z, 0}), Conj(q));
  return {p.x, p.y, p.z};
}
__attribute__((unused)) Q AxisAngle(V axis, double a) {
  V u = Unit(axis);
  double s = std::sin(a / 2);
  return {u.x * s, u.y * s, u.z * s, std::cos(a / 2)};
}
__attribute__((unused)) double QAngle(Q q) { return 2 * std::atan2(std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z), std::fabs(q.w)); }
// The twist angle of d about the unit a, in [-pi, pi] (d.w >= 0 taken).
__attribute__((unused)) double TwistAngle(Q d, V a) {
  if (d.w < 0) d = {-d.x, -d.y, -d.z, -d.w};
  double p = d.x * a.x + d.y * a.y + d.z * a.z;
  if (std::fabs(p) < 1e-12 && std::fabs(d.w) < 1e-12) return 0;
  return 2 * std::atan2(p, d.w);
}

struct Rig {
  void* bytes = nullptr;
  size_t size = 0;
  maniSkeleton s;
  void* memory = nullptr;
  size_t poseSize = 0;
  maniPose* p = nullptr;
  std::vector<uint32_t> c;  // c0.. by index
  Rig(uint64_t seed, uint32_t n, uint32_t side = 0, float spread = 1.0f) {
    bytes = maniFixtureBuildIkChain(seed, n, side, &size);
    EXPECT_NE(bytes, nullptr);
    EXPECT_EQ(maniOpenSkeleton(bytes, size, &s).result, mani_success);
    poseSize = maniSkeleton_GetPoseSize(&s);
    memory = aligned_alloc(32, (poseSize + 31) / 32 * 32);
    EXPECT_EQ(maniInitPose(&s, memory, poseSize, &p), mani_success);
    maniFixtureBendIkPose(p, &s, seed * 7 + 1, spread);
    for (uint32_t k = 0; k < n; ++k) c.push_back(maniFixtureIkBone(&s, k));
  }
  ~Rig() {
    free(memory);
    free(bytes);
  }
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;
  std::vector<unsigned char> Bytes() const {
    const unsigned char* b = (const unsigned char*)memory;
    return std::vector<unsigned char>(b, b + poseSize);
  }
  void Restore(const std::vector<unsigned char>& b) { memcpy(memory, b.data(), b.size()); }
  // Model-space origin of a bone (composing a copy, the pose left as is).
  V Pos(uint32_t bone) {
    std::vector<unsigned char> keep = Bytes();
    EXPECT_EQ(maniPose_ComputeModel(p, &s), mani_success);
    maniAffine m = maniPose_GetModel(p, bone);
    Restore(keep);
    return Of(m.columns[3]);
  }
  Q ModelRot(uint32_t bone) {
    Q q;
    for (uint32_t b = bone; b != MANI_NO_BONE; b = maniSkeleton_GetParent(&s, b)) q = Mul(Of(maniPose_GetLocal(p, b).rotation), q);
    return q;
  }
  Q Local(uint32_t bone) { return Of(maniPose_GetLocal(p, bone).rotation); }
  double ChainLength(uint32_t from, uint32_t to) {
    double l = 0;
    for (uint32_t k = from; k < to; ++k) l += Len(Pos(c[k + 1]) - Pos(c[k]));
    return l;
  }
};

bool SameBits(const maniQuat& a, const maniQuat& b) { return memcmp(&a, &b, sizeof a) == 0; }

V RandomDir(mcore_Rng* rng) {
  for (;;) {
    V v{mcore_RngFloatRange(rng, -1, 1), mcore_RngFloatRange(rng, -1, 1), mcore_RngFloatRange(rng, -1, 1)};
    double l = Len(v);
    if (l > 0.1 && l <= 1) return (1 / l) * v;
  }
}

maniTwoBoneSolve TwoBone(const Rig& r, V goal) {
  maniTwoBoneSolve t;
  memset(&t, 0, sizeof t);
  t.startBone = r.c[0];
  t.middleBone = r.c[1];
  t.endBone = r.c[2];
  t.goal = F(goal);
  t.soften = 1;
  t.weight = 1;
  return t;
}

// -- Two-bone ----------------------------------------------------------------

TEST(IkTwoBone, RefusalsLeaveThePoseUnchanged) {
  Rig r(1, 4);
  Rig other(2, 4);
  maniTwoBoneSolve ok = TwoBone(r, {1, 1, 1});
  std::vector<maniTwoBoneSolve> bad;
  auto add = [&](void (*f)(maniTwoBoneSolve*)) {
    maniTwoBoneSolve t = ok;
    f(&t);
    bad.push_back(t);
  };
  add([](maniTwoBoneSolve* t) { t->startBone = 99; });
  add([](maniTwoBoneSolve* t) { t->endBone = 99; });
  add([](maniTwoBoneSolve* t) { std::swap(t->startBone, t->middleBone); });
  add([](maniTwoBoneSolve* t) { t->middleBone = t->startBone; });
  add([](maniTwoBoneSolve* t) { t->goal.x = NAN; });
  add([](maniTwoBoneSolve* t) { t->pole.y = INFINITY; });
  add([](maniTwoBoneSolve* t) { t->hinge.z = NAN; });
  add([](maniTwoBoneSolve* t) { t->twist = INFINITY; });
  add([](maniTwoBoneSolve* t) { t->soften = -0.01f; });
  add([](maniTwoBoneSolve* t) { t->soften = 1.01f; });
  add([](maniTwoBoneSolve* t) { t->weight = NAN; });
  add([](maniTwoBoneSolve* t) { t->weight = 2; });
  std::vector<unsigned char> before = r.Bytes();
  bool reached = true;
  for (size_t i = 0; i < bad.size(); ++i) {
    EXPECT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &bad[i], &reached), mani_errorInvalid) << i;
    EXPECT_EQ(r.Bytes(), before) << i;
    EXPECT_TRUE(reached);
  }
  EXPECT_EQ(maniPose_SolveTwoBone(nullptr, &r.s, &ok, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveTwoBone(r.p, nullptr, &ok, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveTwoBone(r.p, &r.s, nullptr, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveTwoBone(r.p, &other.s, &ok, &reached), mani_errorInvalid);  // another skeleton
  EXPECT_EQ(r.Bytes(), before);
  // a difference
  EXPECT_EQ(maniSkeleton_ComputePoseDifference(&r.s, r.p, r.p, r.p), mani_success);
  before = r.Bytes();
  EXPECT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &ok, &reached), mani_errorInvalid);
  EXPECT_EQ(r.Bytes(), before);
  EXPECT_TRUE(reached);
}

// Reachable goals are reached; the middle on the pole's side.
TEST(IkTwoBone, ReachableGoalsAreReachedWithTheBendTowardThePole) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Rig r(seed, 3);
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    V s = r.Pos(r.c[0]), m = r.Pos(r.c[1]), e = r.Pos(r.c[2]);
    double a = Len(m - s), b = Len(e - m);
    double d = std::fabs(a - b) + (a + b - std::fabs(a - b)) * mcore_RngFloatRange(&rng, 0.05f, 0.95f);
    V goal = s + d * RandomDir(&rng);
    V pole = RandomDir(&rng);
    maniTwoBoneSolve t = TwoBone(r, goal);
    t.pole = F(pole);
    bool reached = false;
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
    EXPECT_TRUE(reached) << seed;
    EXPECT_FALSE(maniPose_IsModelCurrent(r.p));
    V e2 = r.Pos(r.c[2]), m2 = r.Pos(r.c[1]), s2 = r.Pos(r.c[0]);
    EXPECT_LT(Len(e2 - goal), 2e-5 * (a + b)) << seed;
    EXPECT_LT(Len(s2 - s), 1e-6) << seed;                    // the start's origin stays
    EXPECT_NEAR(Len(m2 - s2), a, 1e-5 * (a + b)) << seed;   // lengths kept
    V n = Unit(goal - s);
    V bend = Perp(m2 - s, n), pp = Perp(pole, n);
    if (Len(bend) > 1e-3 && Len(pp) > 1e-3) {
      EXPECT_LT(Angle(bend, pp), 1e-3) << seed;
    }
  }
}

TEST(IkTwoBone, OutOfReachStraightensAndTooCloseFolds) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rig r(seed, 3);
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed + 100);
    std::vector<unsigned char> start = r.Bytes();
    V s = r.Pos(r.c[0]), m = r.Pos(r.c[1]), e = r.Pos(r.c[2]);
    double a = Len(m - s), b = Len(e - m);
    V dir = RandomDir(&rng);
    maniTwoBoneSolve t = TwoBone(r, s + (a + b) * 1.5 * dir);
    bool reached = true;
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
    EXPECT_FALSE(reached);
    V e2 = r.Pos(r.c[2]);
    EXPECT_NEAR(Len(e2 - s), a + b, 1e-5 * (a + b)) << seed;
    EXPECT_LT(Angle(e2 - s, dir), 1e-4) << seed;
    r.Restore(start);
    if (std::fabs(a - b) > 0.05) {
      t = TwoBone(r, s + 0.5 * std::fabs(a - b) * dir);
      ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
      EXPECT_FALSE(reached);
      e2 = r.Pos(r.c[2]);
      EXPECT_NEAR(Len(e2 - s), std::fabs(a - b), 1e-5 * (a + b)) << seed;
      EXPECT_LT(Angle(e2 - s, dir), 1e-3) << seed;
    }
  }
}

TEST(IkTwoBone, GoalAtTheStartAndBonesOfNoLengthTurnNothing) {
  Rig r(5, 3);
  V s = r.Pos(r.c[0]);
  maniQuat start = maniPose_GetLocal(r.p, r.c[0]).rotation;
  maniTwoBoneSolve t = TwoBone(r, s);
  bool reached;
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
  EXPECT_TRUE(SameBits(maniPose_GetLocal(r.p, r.c[0]).rotation, start));
  // middle bone of no length: the end bone at the middle's origin
  Rig z(6, 3);
  maniTransform l = maniPose_GetLocal(z.p, z.c[2]);
  l.translation = {0, 0, 0};
  maniPose_SetLocal(z.p, z.c[2], l);
  maniQuat mid = maniPose_GetLocal(z.p, z.c[1]).rotation;
  t = TwoBone(z, z.Pos(z.c[0]) + V{0.3, 0.2, 0.1});
  ASSERT_EQ(maniPose_SolveTwoBone(z.p, &z.s, &t, &reached), mani_success);
  EXPECT_TRUE(SameBits(maniPose_GetLocal(z.p, z.c[1]).rotation, mid));
}

// The solve on its own result changes nothing, bit for bit.
TEST(IkTwoBone, SolveOnItsOwnResultChangesNothing) {
  int changedFirst = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    Rig r(seed, 4, 2);
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed * 3);
    V s = r.Pos(r.c[0]);
    double reach = r.ChainLength(0, 3);
    maniTwoBoneSolve t = TwoBone(r, s + reach * mcore_RngFloatRange(&rng, 0.0f, 1.3f) * RandomDir(&rng));
    t.endBone = r.c[3];  // a bone between the middle and the end, carried along
    t.pole = F(RandomDir(&rng));
    if (seed % 3 == 0) t.hinge = F(RandomDir(&rng));
    t.twist = mcore_RngFloatRange(&rng, -3, 3);
    t.soften = seed % 2 ? 1.0f : mcore_RngFloatRange(&rng, 0.5f, 1.0f);
    std::vector<unsigned char> in = r.Bytes();
    bool reached;
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
    changedFirst += r.Bytes() != in;
    std::vector<maniTransform> once(maniPose_GetBoneCount(r.p));
    ASSERT_EQ(maniPose_ReadLocals(r.p, 0, (uint32_t)once.size(), once.data()), mani_success);
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
    std::vector<maniTransform> twice(once.size());
    ASSERT_EQ(maniPose_ReadLocals(r.p, 0, (uint32_t)twice.size(), twice.data()), mani_success);
    EXPECT_EQ(memcmp(once.data(), twice.data(), once.size() * sizeof(maniTransform)), 0) << seed;
  }
  EXPECT_GT(changedFirst, 350);
}

TEST(IkTwoBone, SoftenWeightAndTwist) {
  Rig r(9, 3);
  std::vector<unsigned char> in = r.Bytes();
  V s = r.Pos(r.c[0]), m = r.Pos(r.c[1]), e = r.Pos(r.c[2]);
  double a = Len(m - s), b = Len(e - m), L = a + b;
  V dir = Unit(V{1, 2, 3});
  // soften: the end short of a goal just inside the full length
  maniTwoBoneSolve t = TwoBone(r, s + 0.97 * L * dir);
  t.soften = 0.8f;
  bool reached = true;
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
  EXPECT_FALSE(reached);
  double ds = Len(r.Pos(r.c[2]) - s), da = 0.8 * L;
  EXPECT_NEAR(ds, da + (L - da) * (1 - std::exp(-(0.97 * L - da) / (L - da))), 1e-5 * L);
  r.Restore(in);
  // weight 0 changes nothing
  t = TwoBone(r, s + 0.7 * L * dir);
  t.weight = 0;
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
  for (uint32_t b2 = 0; b2 < maniPose_GetBoneCount(r.p); ++b2) {
    maniTransform x = maniPose_GetLocal(r.p, b2);
    r.Restore(in);
    maniTransform y = maniPose_GetLocal(r.p, b2);
    EXPECT_EQ(memcmp(&x, &y, sizeof x), 0);
  }
  // weight 1/2: the interior angle at the middle halfway (default hinge, in
  // the bones' plane)
  r.Restore(in);
  double phi0 = Angle(s - m, e - m);
  double want = std::acos((a * a + b * b - 0.49 * L * L) / (2 * a * b));
  t.weight = 0.5f;
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
  V s2 = r.Pos(r.c[0]), m2 = r.Pos(r.c[1]), e2 = r.Pos(r.c[2]);
  EXPECT_NEAR(Angle(s2 - m2, e2 - m2), 0.5 * (phi0 + want), 1e-4);
  // twist: the bend turned about the start-to-goal line
  V goal = s + 0.7 * L * dir;
  V pole{0, 0, 1};
  V mids[2];
  for (int k = 0; k < 2; ++k) {
    r.Restore(in);
    t = TwoBone(r, goal);
    t.pole = F(pole);
    t.twist = k ? 0.6f : 0.0f;
    ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
    mids[k] = Perp(r.Pos(r.c[1]) - s, dir);
  }
  V x = Cross(mids[0], mids[1]);
  EXPECT_NEAR(std::atan2(Dot(x, dir), Dot(mids[0], mids[1])), 0.6, 1e-4);
}

// The pose's model need not be current: a stale model gives the same result.
TEST(IkTwoBone, StaleModelGivesTheSameResult) {
  Rig r(12, 3);
  ASSERT_EQ(maniPose_ComputeModel(r.p, &r.s), mani_success);
  std::vector<unsigned char> in = r.Bytes();
  maniTwoBoneSolve t = TwoBone(r, r.Pos(r.c[0]) + V{0.5, 0.4, -0.3});
  bool reached;
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
  maniTransform a = maniPose_GetLocal(r.p, r.c[0]), b = maniPose_GetLocal(r.p, r.c[1]);
  r.Restore(in);
  maniPose_SetLocal(r.p, r.c[2], maniPose_GetLocal(r.p, r.c[2]));  // model now stale, locals the same
  ASSERT_EQ(maniPose_SolveTwoBone(r.p, &r.s, &t, &reached), mani_success);
  maniTransform a2 = maniPose_GetLocal(r.p, r.c[0]), b2 = maniPose_GetLocal(r.p, r.c[1]);
  EXPECT_EQ(memcmp(&a, &a2, sizeof a), 0);
  EXPECT_EQ(memcmp(&b, &b2, sizeof b), 0);
}
// -- Aim ---------------------------------------------------------------------

maniAimSolve Aim(const Rig& r, std::initializer_list<uint32_t> keys, V goal) {
  maniAimSolve a;
  memset(&a, 0, sizeof a);
  for (uint32_t k : keys) {
    a.bones[a.count] = r.c[k];
    a.shares[a.count++] = 1;
  }
  a.goal = F(goal);
  a.forward = {0, 0, 1};
  a.up = {0, 1, 0};
  a.cone = MANI_AIM_MAX_CONE;
  a.weight = 1;
  return a;
}

TEST(IkAim, RefusalsLeaveThePoseUnchanged) {
  Rig r(3, 5);
  maniAimSolve ok = Aim(r, {1, 2, 3}, {2, 2, 2});
  std::vector<maniAimSolve> bad;
  auto add = [&](void (*f)(maniAimSolve*)) {
    maniAimSolve a = ok;
    f(&a);
    bad.push_back(a);
  };
  add([](maniAimSolve* a) { a->count = 0; });
  add([](maniAimSolve* a) { a->bones[1] = 999; });
  add([](maniAimSolve* a) { std::swap(a->bones[0], a->bones[2]); });
  add([](maniAimSolve* a) { a->bones[1] = a->bones[0]; });
  add([](maniAimSolve* a) { a->shares[1] = -1; });
  add([](maniAimSolve* a) { a->shares[0] = NAN; });
  add([](maniAimSolve* a) { a->shares[0] = a->shares[1] = a->shares[2] = 0; });
  add([](maniAimSolve* a) { a->forward = {0, 0, 1.002f}; });
  add([](maniAimSolve* a) { a->forward = {0, 0, 0}; });
  add([](maniAimSolve* a) { a->goal.y = INFINITY; });
  add([](maniAimSolve* a) { a->pole.x = NAN; });
  add([](maniAimSolve* a) { a->offset.z = NAN; });
  add([](maniAimSolve* a) { a->up.x = INFINITY; });
  add([](maniAimSolve* a) { a->twist = NAN; });
  add([](maniAimSolve* a) { a->cone = -0.1f; });
  add([](maniAimSolve* a) { a->cone = 3.2f; });
  add([](maniAimSolve* a) { a->weight = -0.5f; });
  add([](maniAimSolve* a) { a->weight = 1.5f; });
  std::vector<unsigned char> before = r.Bytes();
  bool reached = true;
  for (size_t i = 0; i < bad.size(); ++i) {
    EXPECT_EQ(maniPose_SolveAim(r.p, &r.s, &bad[i], &reached), mani_errorInvalid) << i;
    EXPECT_EQ(r.Bytes(), before) << i;
  }
  maniAimSolve many = ok;
  many.count = MANI_MAX_AIM_BONES + 1;
  EXPECT_EQ(maniPose_SolveAim(r.p, &r.s, &many, &reached), mani_errorLimit);
  EXPECT_EQ(maniPose_SolveAim(nullptr, &r.s, &ok, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveAim(r.p, nullptr, &ok, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveAim(r.p, &r.s, nullptr, &reached), mani_errorInvalid);
  EXPECT_EQ(r.Bytes(), before);
  EXPECT_TRUE(reached);
  Rig other(4, 5);
  EXPECT_EQ(maniPose_SolveAim(r.p, &other.s, &ok, &reached), mani_errorInvalid);  // another skeleton
  EXPECT_EQ(r.Bytes(), before);
  {
    Rig d(3, 5);
    ASSERT_EQ(maniSkeleton_ComputePoseDifference(&d.s, d.p, d.p, d.p), mani_success);
    std::vector<unsigned char> db = d.Bytes();
    EXPECT_EQ(maniPose_SolveAim(d.p, &d.s, &ok, &reached), mani_errorInvalid);  // a difference
    EXPECT_EQ(d.Bytes(), db);
  }
  // a forward of length 1 within a thousandth is taken
  maniAimSolve near1 = ok;
  near1.forward = {0, 0, 1.0009f};
  EXPECT_EQ(maniPose_SolveAim(r.p, &r.s, &near1, &reached), mani_success);
}

// The forward line from the offset passes through the goal; the up lies in
// the plane of the line and the pole, on the pole's side.
TEST(IkAim, ForwardOntoTheGoalUpTowardThePole) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Rig r(seed, 4);
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed + 9);
    uint32_t bone = r.c[3];
    V o = r.Pos(bone);
    V goal = o + mcore_RngFloatRange(&rng, 1, 5) * RandomDir(&rng);
    maniAimSolve a = Aim(r, {3}, goal);
    if (seed % 4 == 1) {
      a = Aim(r, {0, 1, 2, 3}, goal);
      a.shares[1] = 0.5f;
      a.shares[2] = 2;
    }
    V fwd = RandomDir(&rng), up = RandomDir(&rng), pole = RandomDir(&rng);
    V off = seed % 2 ? V{0.1, 0.2, -0.05} : V{};
    a.forward = F(fwd);
    a.up = F(up);
    a.pole = F(pole);
    a.offset = F(off);
    bool reached = false;
    ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
    EXPECT_TRUE(reached) << seed;
    Q q = r.ModelRot(bone);
    V o2 = r.Pos(bone);
    V f2 = Rot(q, fwd), p2 = o2 + Rot(q, off), u2 = Rot(q, up);
    V toGoal = goal - p2;
    EXPECT_LT(Len(Cross(Unit(toGoal), f2)), 1e-4) << seed;
    EXPECT_GT(Dot(toGoal, f2), 0) << seed;
    V n = Unit(goal - o2);
    V uP = Perp(u2, n), pP = Perp(pole, n);
    if (Len(uP) > 1e-2 && Len(pP) > 1e-2) {
      EXPECT_LT(Angle(uP, pP), 1e-3) << seed;
    }
  }
}

TEST(IkAim, ConeStopsTheForwardAtItsEdge) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rig r(seed, 3);
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed + 50);
    uint32_t bone = r.c[2];
    V fwd{0, 0, 1};
    V f0 = Rot(r.ModelRot(bone), fwd);
    V o = r.Pos(bone);
    V goal = o + 3 * Unit(Rot(AxisAngle(Cross(f0, RandomDir(&rng)), 1.2), f0));
    maniAimSolve a = Aim(r, {2}, goal);
    a.cone = 0.5f;
    bool reached = true;
    ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
    EXPECT_FALSE(reached);
    V f2 = Rot(r.ModelRot(bone), fwd);
    EXPECT_NEAR(Angle(f0, f2), 0.5, 1e-4) << seed;
    // toward the goal: in the plane of f0 and the goal's direction
    EXPECT_LT(std::fabs(Dot(f2, Unit(Cross(f0, goal - o)))), 1e-4) << seed;
    // inside the cone: reached
    Rig r2(seed, 3);
    a.cone = 1.3f;
    ASSERT_EQ(maniPose_SolveAim(r2.p, &r2.s, &a, &reached), mani_success);
    EXPECT_TRUE(reached);
  }
}

TEST(IkAim, OffsetRuleAndGoalAtTheBoneTurnNothing) {
  Rig r(4, 3);
  uint32_t bone = r.c[2];
  V o = r.Pos(bone);
  std::vector<unsigned char> before = r.Bytes();
  maniAimSolve a = Aim(r, {2}, o);
  bool reached = true;
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_FALSE(reached);
  // the goal nearer than the offset lies from the forward line
  a.goal = F(o + V{0.2, 0, 0});
  a.offset = {0.5f, 0, 0};  // 0.5 from the line along z
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_FALSE(reached);
  EXPECT_EQ(r.Bytes(), before);
}

// Shares: each bone turns; the last with a share ends the aim.
TEST(IkAim, SharesSpreadTheTurnAndTwistWithoutAPole) {
  Rig r(21, 5);
  V fwd{0, 0, 1}, up{0, 1, 0};
  uint32_t bone = r.c[4];
  V goal = r.Pos(bone) + 4 * Unit(Rot(r.ModelRot(bone), V{1, 0, 0.3}));
  maniAimSolve a = Aim(r, {1, 2, 3, 4}, goal);
  a.shares[0] = 1;
  a.shares[1] = 1;
  a.shares[2] = 2;
  a.shares[3] = 4;
  std::vector<Q> before;
  for (int k = 1; k <= 4; ++k) before.push_back(r.Local(r.c[k]));
  bool reached;
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_TRUE(reached);
  std::vector<double> turns;
  for (int k = 1; k <= 4; ++k) turns.push_back(QAngle(Mul(Conj(before[k - 1]), r.Local(r.c[k]))));
  for (double t : turns) EXPECT_GT(t, 1e-3);
  Q q = r.ModelRot(bone);
  EXPECT_LT(Len(Cross(Unit(goal - r.Pos(bone)), Rot(q, fwd))), 1e-4);
  // twist without a pole: the up turned about the forward by the twist
  Rig r2(21, 5), r3(21, 5);
  a.twist = 0.7f;
  ASSERT_EQ(maniPose_SolveAim(r2.p, &r2.s, &a, &reached), mani_success);
  a.twist = 0;
  ASSERT_EQ(maniPose_SolveAim(r3.p, &r3.s, &a, &reached), mani_success);
  V f = Rot(r3.ModelRot(bone), fwd);
  V u0 = Perp(Rot(r3.ModelRot(bone), up), f), u1 = Perp(Rot(r2.ModelRot(bone), up), f);
  EXPECT_NEAR(std::atan2(Dot(Cross(u0, u1), f), Dot(u0, u1)), 0.7, 1e-3);
}

TEST(IkAim, WeightTurnsAFraction) {
  Rig r(8, 3);
  uint32_t bone = r.c[2];
  V fwd{0, 0, 1};
  V f0 = Rot(r.ModelRot(bone), fwd);
  V o = r.Pos(bone);
  V g = o + 2 * Unit(Rot(AxisAngle(Cross(f0, V{1, 0, 0}), 1.0), f0));
  maniAimSolve a = Aim(r, {2}, g);
  a.weight = 0.25f;
  bool reached;
  ASSERT_EQ(maniPose_SolveAim(r.p, &r.s, &a, &reached), mani_success);
  EXPECT_NEAR(Angle(f0, Rot(r.ModelRot(bone), fwd)), 0.25, 1e-4);
}
// -- CCD and FABRIK ------------------------------------------------------------

typedef maniResult (*ChainSolver)(maniPose*, const maniSkeleton*, const maniChainSolve*, bool*);

maniChainSolve Chain(const Rig& r, uint32_t root, uint32_t end, V goal) {
  maniChainSolve c;
  memset(&c, 0, sizeof c);
  c.rootBone = r.c[root];
  c.endBone = r.c[end];
  c.goal = F(goal);
  c.rotation = {0, 0, 0, 1};
  c.iterations = 64;
  c.tolerance = 1e-4f;
  c.weight = 1;
  return c;
}

maniJointLimit Limit(uint32_t kind) {
  maniJointLimit l;
  memset(&l, 0, sizeof l);
  l.kind = kind;
  return l;
}

// A limit's own check, written here: d = rest^-1 local within its ranges.
void ExpectWithinLimit(Rig& r, uint32_t bone, uint32_t next, const maniJointLimit& l, const char* what) {
  Q rest = Of(maniSkeleton_GetRest(&r.s, bone).rotation);
  Q d = Mul(Conj(rest), r.Local(bone));
  if (d.w < 0) d = {-d.x, -d.y, -d.z, -d.w};
  V axis = Unit(Of(maniPose_GetLocal(r.p, next).translation));
  const double eps = 2e-5;
  if (l.kind == maniJointLimitHinge) {
    V h = Unit(Of(l.axis));
    V v{d.x, d.y, d.z};
    EXPECT_LT(Len(Cross(v, h)), eps) << what;  // about the hinge only
    double angle = TwistAngle(d, h);
    EXPECT_GE(angle, l.minAngle - eps) << what;
    EXPECT_LE(angle, l.maxAngle + eps) << what;
  }
  if (l.kind == maniJointLimitCone || l.kind == maniJointLimitConeTwist) {
    EXPECT_LE(Angle(axis, Rot(d, axis)), l.cone + eps) << what;
  }
  if (l.kind == maniJointLimitTwist || l.kind == maniJointLimitConeTwist) {
    double angle = TwistAngle(d, axis);
    EXPECT_GE(angle, l.minAngle - eps) << what;
    EXPECT_LE(angle, l.maxAngle + eps) << what;
  }
}

TEST(IkChain, RefusalsLeaveThePoseUnchanged) {
  Rig r(2, 6);
  Rig other(3, 6);
  for (int fabrik = 0; fabrik < 2; ++fabrik) {
    ChainSolver solver = fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd;
    maniChainLimit lim[2];
    lim[0].bone = r.c[1];
    lim[0].limit = Limit(maniJointLimitCone);
    lim[0].limit.cone = 1;
    lim[1] = lim[0];
    maniChainSolve ok = Chain(r, 0, 5, {1, 1, 1});
    ok.limits = lim;
    ok.limitCount = 1;
    std::vector<maniChainSolve> bad;
    std::vector<maniChainLimit> badLimits;
    auto add = [&](void (*f)(maniChainSolve*)) {
      maniChainSolve c = ok;
      f(&c);
      bad.push_back(c);
    };
    add([](maniChainSolve* c) { c->rootBone = 500; });
    add([](maniChainSolve* c) { c->endBone = 500; });
    add([](maniChainSolve* c) { std::swap(c->rootBone, c->endBone); });
    add([](maniChainSolve* c) { c->rootBone = c->endBone; });
    add([](maniChainSolve* c) { c->goal.x = NAN; });
    add([](maniChainSolve* c) { c->pole.x = NAN; });
    add([](maniChainSolve* c) { c->rotation.w = INFINITY; });
    add([](maniChainSolve* c) { c->rotation = {0, 0, 0, 0}; });
    add([](maniChainSolve* c) { c->iterations = 0; });
    add([](maniChainSolve* c) { c->tolerance = -1; });
    add([](maniChainSolve* c) { c->tolerance = INFINITY; });
    add([](maniChainSolve* c) { c->rotationWeight = 1.5f; });
    add([](maniChainSolve* c) { c->weight = -0.1f; });
    add([](maniChainSolve* c) { c->weight = NAN; });
    add([](maniChainSolve* c) { c->limits = nullptr; });
    if (fabrik) {
      add([](maniChainSolve* c) { c->step = 0.5f; });
    } else {
      add([](maniChainSolve* c) { c->pole = {0, 1, 0}; });
      add([](maniChainSolve* c) { c->step = -0.1f; });
      add([](maniChainSolve* c) { c->step = 3.2f; });
    }
    // limits: unknown kind, out of range, a hinge along its bone's axis, off the path, twice
    std::vector<maniJointLimit> badKinds;
    badKinds.push_back(Limit(7));
    maniJointLimit l = Limit(maniJointLimitCone);
    l.cone = -0.1f;
    badKinds.push_back(l);
    l.cone = 3.2f;
    badKinds.push_back(l);
    l.cone = NAN;
    badKinds.push_back(l);
    l = Limit(maniJointLimitTwist);
    l.minAngle = 0.5f;
    l.maxAngle = 0.2f;
    badKinds.push_back(l);
    l.minAngle = -3.5f;
    l.maxAngle = 0;
    badKinds.push_back(l);
    l = Limit(maniJointLimitConeTwist);
    l.cone = 4;
    badKinds.push_back(l);
    l = Limit(maniJointLimitHinge);
    l.axis = {1, 0, 0};
    l.minAngle = -1;
    l.maxAngle = 4;
    badKinds.push_back(l);
    l.maxAngle = 1;
    l.axis = {0.5f, 0, 0};  // not of length 1
    badKinds.push_back(l);
    l.axis = F(Unit(Of(maniPose_GetLocal(r.p, r.c[2]).translation)));  // along c1's axis
    badKinds.push_back(l);
    std::vector<unsigned char> before = r.Bytes();
    bool reached = true;
    for (size_t i = 0; i < bad.size(); ++i) {
      EXPECT_EQ(solver(r.p, &r.s, &bad[i], &reached), mani_errorInvalid) << fabrik << " " << i;
      EXPECT_EQ(r.Bytes(), before) << i;
    }
    for (size_t i = 0; i < badKinds.size(); ++i) {
      maniChainLimit one = {r.c[1], badKinds[i]};
      maniChainSolve c = ok;
      c.limits = &one;
      EXPECT_EQ(solver(r.p, &r.s, &c, &reached), mani_errorInvalid) << fabrik << " kind " << i;
      EXPECT_EQ(r.Bytes(), before) << i;
    }
    {
      maniChainSolve c = ok;
      c.limitCount = 2;  // the same bone twice
      EXPECT_EQ(solver(r.p, &r.s, &c, &reached), mani_errorInvalid);
      maniChainLimit end = {r.c[5], lim[0].limit}, off = {r.c[0] == 0 ? 1u : 0u, lim[0].limit};
      c.limitCount = 1;
      c.limits = &end;  // the end bone
      EXPECT_EQ(solver(r.p, &r.s, &c, &reached), mani_errorInvalid);
      c.limits = &off;  // the base, above the root
      EXPECT_EQ(solver(r.p, &r.s, &c, &reached), mani_errorInvalid);
      c = ok;
      c.iterations = MANI_MAX_IK_ITERATIONS + 1;
      EXPECT_EQ(solver(r.p, &r.s, &c, &reached), mani_errorLimit);
      EXPECT_EQ(solver(nullptr, &r.s, &ok, &reached), mani_errorInvalid);
      EXPECT_EQ(solver(r.p, nullptr, &ok, &reached), mani_errorInvalid);
      EXPECT_EQ(solver(r.p, &r.s, nullptr, &reached), mani_errorInvalid);
      EXPECT_EQ(solver(r.p, &other.s, &ok, &reached), mani_errorInvalid);
      Rig d(2, 6);
      ASSERT_EQ(maniSkeleton_ComputePoseDifference(&d.s, d.p, d.p, d.p), mani_success);
      std::vector<unsigned char> db = d.Bytes();
      maniChainSolve dc = ok;
      dc.limits = nullptr;
      dc.limitCount = 0;
      EXPECT_EQ(solver(d.p, &d.s, &dc, &reached), mani_errorInvalid);  // a difference
      EXPECT_EQ(d.Bytes(), db);
    }
    EXPECT_EQ(r.Bytes(), before);
    EXPECT_TRUE(reached);
  }
  // a path past MANI_MAX_IK_CHAIN_BONES
  Rig longer(4, MANI_MAX_IK_CHAIN_BONES + 1);
  maniChainSolve c = Chain(longer, 0, MANI_MAX_IK_CHAIN_BONES, {1, 1, 1});
  std::vector<unsigned char> before = longer.Bytes();
  bool reached;
  EXPECT_EQ(maniPose_SolveCcd(longer.p, &longer.s, &c, &reached), mani_errorLimit);
  EXPECT_EQ(maniPose_SolveFabrik(longer.p, &longer.s, &c, &reached), mani_errorLimit);
  EXPECT_EQ(longer.Bytes(), before);
  c = Chain(longer, 1, MANI_MAX_IK_CHAIN_BONES, {1, 1, 1});  // exactly the most
  EXPECT_EQ(maniPose_SolveCcd(longer.p, &longer.s, &c, &reached), mani_success);
}

// Reachable goals (the end of another pose of the chain) are reached within
// the tolerance by both solvers.
TEST(IkChain, ReachableGoalsAreReached) {
  for (int fabrik = 0; fabrik < 2; ++fabrik) {
    int reachedCount = 0, total = 0;
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      uint32_t n = 3 + (uint32_t)(seed % 6);
      Rig target(seed + 1000, n);
      Rig r(seed + 1000, n);
      maniFixtureBendIkPose(target.p, &target.s, seed * 11, 1.5f);
      V goal = target.Pos(target.c[n - 1]);
      maniChainSolve c = Chain(r, 0, n - 1, goal);
      c.iterations = 256;
      c.tolerance = 1e-3f;
      bool reached = false;
      ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(r.p, &r.s, &c, &reached), mani_success);
      double miss = Len(r.Pos(r.c[n - 1]) - goal);
      EXPECT_EQ(reached, miss <= 1e-3 + 1e-5) << seed;
      reachedCount += miss <= 1.1e-3;
      ++total;
    }
    EXPECT_EQ(reachedCount, total) << (fabrik ? "fabrik" : "ccd");
  }
}

// Unreachable goals: the chain ends straight, pointing at the goal.
TEST(IkChain, UnreachableGoalsEndStraightTowardTheGoal) {
  for (int fabrik = 0; fabrik < 2; ++fabrik)
    for (uint64_t seed = 1; seed <= 15; ++seed) {
      uint32_t n = 3 + (uint32_t)(seed % 4);
      Rig r(seed + 77, n);
      V root = r.Pos(r.c[0]);
      double L = r.ChainLength(0, n - 1);
      mcore_Rng rng;
      mcore_RngSeed(&rng, seed);
      V dir = RandomDir(&rng);
      maniChainSolve c = Chain(r, 0, n - 1, root + 2 * L * dir);
      c.iterations = 256;
      bool reached = true;
      ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(r.p, &r.s, &c, &reached), mani_success);
      EXPECT_FALSE(reached);
      V e = r.Pos(r.c[n - 1]);
      EXPECT_NEAR(Len(e - root), L, 2e-3 * L) << fabrik << " " << seed;
      EXPECT_LT(Angle(e - root, dir), 2e-3) << fabrik << " " << seed;
    }
}

// Limits of every kind hold after every solve.
TEST(IkChain, LimitsHoldAfterEverySolve) {
  for (int fabrik = 0; fabrik < 2; ++fabrik)
    for (uint64_t seed = 1; seed <= 24; ++seed) {
      const uint32_t n = 5;
      Rig r(seed + 300, n);
      mcore_Rng rng;
      mcore_RngSeed(&rng, seed + 5);
      std::vector<maniChainLimit> limits;
      for (uint32_t k = 0; k + 1 < n; ++k) {
        maniChainLimit cl;
        cl.bone = r.c[k];
        cl.limit = Limit((uint32_t)((seed + k) % 5));
        V axis = Unit(Of(maniPose_GetLocal(r.p, r.c[k + 1]).translation));
        V h = Unit(Cross(axis, RandomDir(&rng)));
        cl.limit.axis = F(h);
        cl.limit.minAngle = -mcore_RngFloatRange(&rng, 0, 1.5f);
        cl.limit.maxAngle = mcore_RngFloatRange(&rng, 0, 1.5f);
        cl.limit.cone = mcore_RngFloatRange(&rng, 0.1f, 1.5f);
        limits.push_back(cl);
      }
      V goal = r.Pos(r.c[0]) + r.ChainLength(0, n - 1) * mcore_RngFloatRange(&rng, 0.2f, 1.2f) * RandomDir(&rng);
      maniChainSolve c = Chain(r, 0, n - 1, goal);
      c.limits = limits.data();
      c.limitCount = (uint32_t)limits.size();
      c.iterations = 1 + (uint32_t)(seed % 20);
      c.weight = seed % 3 == 0 ? 0.6f : 1.0f;
      c.rotationWeight = seed % 2 ? 0.5f : 0.0f;
      c.rotation = {0.2f, 0.3f, -0.1f, 0.9f};
      bool reached;
      ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(r.p, &r.s, &c, &reached), mani_success);
      for (uint32_t k = 0; k + 1 < n; ++k) {
        std::string what = std::string(fabrik ? "fabrik" : "ccd") + " seed " + std::to_string(seed) + " bone " +
                           std::to_string(k) + " kind " + std::to_string(limits[k].limit.kind);
        ExpectWithinLimit(r, r.c[k], r.c[k + 1], limits[k].limit, what.c_str());
      }
    }
}

TEST(IkChain, HingeLimitedChainReachesInItsPlane) {
  // every bone a hinge about the same local axis from a flat rest: the end
  // stays in the plane
  Rig r(31, 4);
  std::vector<maniChainLimit> limits;
  for (uint32_t k = 0; k < 3; ++k) {
    maniChainLimit cl;
    cl.bone = r.c[k];
    cl.limit = Limit(maniJointLimitHinge);
    V axis = Unit(Of(maniPose_GetLocal(r.p, r.c[k + 1]).translation));
    cl.limit.axis = F(Unit(Cross(axis, V{0.3, 0.5, 0.7})));
    cl.limit.minAngle = -3.14159f;
    cl.limit.maxAngle = 3.14159f;
    limits.push_back(cl);
  }
  maniChainSolve c = Chain(r, 0, 3, r.Pos(r.c[0]) + V{0.5, 0.5, 0.5});
  c.limits = limits.data();
  c.limitCount = 3;
  for (int fabrik = 0; fabrik < 2; ++fabrik) {
    Rig x(31, 4);
    bool reached;
    ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(x.p, &x.s, &c, &reached), mani_success);
    for (uint32_t k = 0; k < 3; ++k) ExpectWithinLimit(x, x.c[k], x.c[k + 1], limits[k].limit, "hinge");
  }
}

TEST(IkChain, StepBoundsEachTurn) {
  Rig r(41, 5);
  std::vector<Q> before;
  for (uint32_t k = 0; k < 5; ++k) before.push_back(r.Local(r.c[k]));
  maniChainSolve c = Chain(r, 0, 4, r.Pos(r.c[0]) + V{-1, 2, 0.5});
  c.iterations = 1;
  c.step = 0.05f;
  bool reached;
  ASSERT_EQ(maniPose_SolveCcd(r.p, &r.s, &c, &reached), mani_success);
  int turned = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    double a = QAngle(Mul(Conj(before[k]), r.Local(r.c[k])));
    EXPECT_LE(a, 0.05 + 1e-6) << k;
    turned += a > 0.049;
  }
  EXPECT_GE(turned, 2);
}

TEST(IkChain, ToleranceStopsEarlyAndTheGoalAtTheEndTurnsNothing) {
  for (int fabrik = 0; fabrik < 2; ++fabrik) {
    Rig r(51, 5);
    std::vector<unsigned char> before = r.Bytes();
    V e = r.Pos(r.c[4]);
    maniChainSolve c = Chain(r, 0, 4, e + V{0.01, 0, 0});
    c.tolerance = 0.02f;
    bool reached = false;
    ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(r.p, &r.s, &c, &reached), mani_success);
    EXPECT_TRUE(reached);
    EXPECT_EQ(r.Bytes(), before);
    // one iteration against many: with a loose tolerance the result is the
    // same as stopping there
    Rig a(52, 5), b(52, 5);
    V goal = a.Pos(a.c[0]) + V{1, 1, 0};
    c = Chain(a, 0, 4, goal);
    c.tolerance = 1e-5f;
    c.iterations = 3;
    ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(a.p, &a.s, &c, &reached), mani_success);
    double miss3 = Len(a.Pos(a.c[4]) - goal);
    c.tolerance = (float)(miss3 * 1.0001);
    c.iterations = 200;
    ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(b.p, &b.s, &c, &reached), mani_success);
    double missB = Len(b.Pos(b.c[4]) - goal);
    EXPECT_LE(missB, miss3 * 1.0001 + 1e-6);
    EXPECT_GT(missB, 0.0);
  }
}

TEST(IkChain, RotationWeightTurnsTheEndBone) {
  for (int fabrik = 0; fabrik < 2; ++fabrik) {
    Rig r(61, 4);
    maniChainSolve c = Chain(r, 0, 3, r.Pos(r.c[0]) + V{0.4, 0.8, 0.2});
    Q want = {0.3, -0.4, 0.1, 0.8};
    double l = std::sqrt(want.x * want.x + want.y * want.y + want.z * want.z + want.w * want.w);
    c.rotation = {(float)(want.x * 4), (float)(want.y * 4), (float)(want.z * 4), (float)(want.w * 4)};  // any length
    want = {want.x / l, want.y / l, want.z / l, want.w / l};
    c.rotationWeight = 1;
    bool reached;
    ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(r.p, &r.s, &c, &reached), mani_success);
    EXPECT_LT(QAngle(Mul(Conj(want), r.ModelRot(r.c[3]))), 1e-5);
    // half way: the angle to the wanted halves
    Rig a(61, 4), b(61, 4);
    c.rotationWeight = 0;
    ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(a.p, &a.s, &c, &reached), mani_success);
    c.rotationWeight = 0.5f;
    ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(b.p, &b.s, &c, &reached), mani_success);
    double full = QAngle(Mul(Conj(want), a.ModelRot(a.c[3])));
    EXPECT_NEAR(QAngle(Mul(Conj(want), b.ModelRot(b.c[3]))), 0.5 * full, 1e-5);
  }
}

TEST(IkChain, WeightZeroChangesNothing) {
  for (int fabrik = 0; fabrik < 2; ++fabrik) {
    Rig r(71, 4);
    std::vector<unsigned char> before = r.Bytes();
    maniChainSolve c = Chain(r, 0, 3, r.Pos(r.c[0]) + V{0.4, 0.8, 0.2});
    c.weight = 0;
    bool reached;
    ASSERT_EQ((fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd)(r.p, &r.s, &c, &reached), mani_success);
    EXPECT_EQ(r.Bytes(), before);
  }
}

// FABRIK's pole: the bend faces the pole's side of the root-to-goal line.
TEST(IkFabrik, PoleTurnsTheBendTowardIt) {
  int faced = 0, total = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rig r(seed + 90, 3);
    V root = r.Pos(r.c[0]);
    double L = r.ChainLength(0, 2);
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    V dir = RandomDir(&rng);
    V goal = root + 0.6 * L * dir;
    V pole = Unit(Perp(RandomDir(&rng), dir));
    maniChainSolve c = Chain(r, 0, 2, goal);
    c.pole = F(pole);
    bool reached;
    ASSERT_EQ(maniPose_SolveFabrik(r.p, &r.s, &c, &reached), mani_success);
    V bend = Perp(r.Pos(r.c[1]) - root, dir);
    if (Len(bend) > 0.1 * L) {
      ++total;
      faced += Angle(bend, pole) < 0.35;
    }
  }
  EXPECT_GT(total, 10);
  EXPECT_GE(faced, total - 1);
}
// FABRIK's pole pre-turn alone (a tolerance the chain already meets stops
// before any iteration): the chain turns about the root-to-goal line by the
// angle from its bend to the pole, times the bend's distance from the line
// over a tenth of the chain's length (at most 1).
TEST(IkFabrik, PolePreTurnIsBlendedNearTheLine) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    for (int nearLine = 0; nearLine < 2; ++nearLine) {
      Rig r(seed + 500, 3);
      V root = r.Pos(r.c[0]), j1 = r.Pos(r.c[1]);
      double L = r.ChainLength(0, 2);
      V a = j1 - root;
      double la = Len(a);
      if (0.05 * L >= la) continue;
      double alpha = nearLine ? std::asin(0.05 * L / la) : 0.9;
      V n = Rot(AxisAngle(Unit(Cross(a, V{0.3, 0.7, 0.2})), alpha), Unit(a));
      mcore_Rng rng;
      mcore_RngSeed(&rng, seed);
      V pole = Unit(Perp(RandomDir(&rng), n));
      V b = Perp(j1 - root, n);
      double theta = std::atan2(Dot(Cross(b, pole), n), Dot(b, pole));
      double f = std::min(1.0, Len(b) / (0.1 * L));
      maniChainSolve c = Chain(r, 0, 2, root + 0.5 * L * n);
      c.pole = F(pole);
      c.tolerance = 1e30f;
      ASSERT_EQ(maniPose_SolveFabrik(r.p, &r.s, &c, nullptr), mani_success);
      V b2 = Perp(r.Pos(r.c[1]) - root, n);
      EXPECT_NEAR(std::atan2(Dot(Cross(b, b2), n), Dot(b, b2)), f * theta, 1e-4) << seed << " " << nearLine;
      if (nearLine) {
        EXPECT_NEAR(f, 0.5, 1e-5);
      }
    }
  }
}
}  // namespace
