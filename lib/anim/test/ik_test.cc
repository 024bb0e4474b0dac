// ik.h: the chain solvers, checked against geometry computed here from the
// pose's own model (maniPose_ComputeModel) and quaternion math written here,
// never against the solvers' own output (except the solve on its own
// result, which must change nothing); every refusal leaving the pose's bytes
// unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
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
}  // namespace
