// Retargeting maps (retarget.h, retargetbuild.h): building from pairs,
// chains, the pelvis and names, opening with every check, retargeting poses
// and root motion deltas. Expected values are derived here independently in
// binary64: model rotations as products of locals, the turn from each
// side's reference, positions through the bones' affine transforms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "maul/anim/blend.h"
#include "maul/anim/clip.h"
#include "maul/anim/pose.h"
#include "maul/anim/retarget.h"
#include "maul/anim/retargetbuild.h"

namespace {

struct Q64 {
  double x, y, z, w;
};
struct V64 {
  double x, y, z;
};

Q64 Of(maniQuat q) { return Q64{q.x, q.y, q.z, q.w}; }
Q64 Mul(Q64 a, Q64 b) {
  return Q64{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
             a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Q64 Conj(Q64 q) { return Q64{-q.x, -q.y, -q.z, q.w}; }
Q64 Unit(Q64 q) {
  double l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return Q64{q.x / l, q.y / l, q.z / l, q.w / l};
}
double Dot(Q64 a, Q64 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
// The angle between two rotations (radians, in [0, pi]).
double Angle(Q64 a, Q64 b) { return 2.0 * std::acos(std::fmin(1.0, std::fabs(Dot(Unit(a), Unit(b))))); }
Q64 Slerp(Q64 a, Q64 b, double t) {
  double d = Dot(a, b);
  if (d < 0) b = Q64{-b.x, -b.y, -b.z, -b.w}, d = -d;
  double th = std::acos(std::fmin(1.0, d)), s = std::sin(th);
  double wa = s < 1e-9 ? 1 - t : std::sin((1 - t) * th) / s, wb = s < 1e-9 ? t : std::sin(t * th) / s;
  return Unit(Q64{wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w});
}
V64 Rotate(Q64 q, V64 v) {
  Q64 p = Mul(Mul(q, Q64{v.x, v.y, v.z, 0}), Conj(q));
  return V64{p.x, p.y, p.z};
}

struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  double U(double lo, double hi) { return lo + (hi - lo) * (double)(g() >> 11) * (1.0 / 9007199254740992.0); }
  maniQuat Q() {
    Q64 q{U(-1, 1), U(-1, 1), U(-1, 1), U(0.2, 1)};
    q = Unit(q);
    return maniQuat{(float)q.x, (float)q.y, (float)q.z, (float)q.w};
  }
  maniVec3 V(double r) { return maniVec3{(float)U(-r, r), (float)U(-r, r), (float)U(-r, r)}; }
};

// A skeleton from bones listed depth-first (parents before children).
struct Rig {
  std::vector<std::string> names;
  std::vector<uint32_t> parents;
  std::vector<maniTransform> rests;
  File file;
  maniSkeleton s;
  void Add(const std::string& n, uint32_t parent, maniTransform rest) {
    names.push_back(n);
    parents.push_back(parent);
    rests.push_back(rest);
  }
  void Build() {
    std::vector<maniSkeletonSourceBone> src;
    for (size_t i = 0; i < names.size(); ++i) src.push_back({names[i].data(), names[i].size(), parents[i], rests[i]});
    maniSkeletonSource source = {src.data(), (uint32_t)src.size()};
    Builder b;
    ASSERT_EQ(maniBuildSkeleton(b.b, &source).result, mani_success);
    file = b.Built();
    ASSERT_EQ(maniOpenSkeleton(file.data(), file.size, &s).result, mani_success);
    for (uint32_t i = 0; i < names.size(); ++i) ASSERT_EQ(maniSkeleton_FindBone(&s, names[i].data(), names[i].size()), i);
  }
  uint32_t Count() const { return (uint32_t)names.size(); }
};

// A humanoid-like hierarchy: the hips at height 1 above the ground (y up),
// a spine, an arm chain and two legs; rests seeded, translations times
// `length`, names with a prefix.
const char* const kNames[14] = {"Hips", "Spine", "Chest", "Neck", "Head", "LArm", "LForearm",
                                "LHand", "LUpLeg", "LLeg", "LFoot", "RUpLeg", "RLeg", "RFoot"};
const uint32_t kParents[14] = {MANI_NO_BONE, 0, 1, 2, 3, 2, 5, 6, 0, 8, 9, 0, 11, 12};

Rig Humanoid(uint64_t seed, float length, const std::string& prefix, bool turnRests) {
  Rng r(seed);
  Rig rig;
  for (uint32_t i = 0; i < 14; ++i) {
    maniTransform t;
    maniVec3 v = r.V(0.5);
    t.translation = i == 0 ? maniVec3{0.1f * length, 1.0f * length, 0.05f * length}
                           : maniVec3{v.x * length, (v.y + 0.6f) * length, v.z * length};
    t.rotation = turnRests ? r.Q() : maniQuat{0, 0, 0, 1};
    t.scale = maniVec3{1, 1, 1};
    rig.Add(prefix + kNames[i], kParents[i], t);
  }
  rig.Build();
  return rig;
}

struct Map {
  File file;
  maniRetargetMap m;
};

Map BuildMap(const maniRetargetMapSource& src) {
  Map map;
  Builder b;
  maniBuildResult r = maniBuildRetargetMap(b.b, &src);
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  if (r.result != mani_success) return map;
  map.file = b.Built();
  maniFileResult o = maniOpenRetargetMap(map.file.data(), map.file.size, &map.m);
  EXPECT_EQ(o.result, mani_success) << o.offset;
  return map;
}

maniRetargetMapSource Source(const Rig& a, const Rig& b) {
  maniRetargetMapSource src;
  memset(&src, 0, sizeof src);
  src.source = &a.s;
  src.target = &b.s;
  return src;
}

struct Scratch {
  std::vector<uint64_t> mem;
  void* p = nullptr;
  size_t size = 0;
  explicit Scratch(const maniRetargetMap* m) {
    size = maniRetargetMap_GetScratchSize(m);
    mem.assign(size / 8 + 4, 0);
    p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(mem.data()) + 15) & ~uintptr_t(15));
  }
};

void RandomPose(Rng& r, maniPose* p, uint32_t n, bool moveTranslations) {
  for (uint32_t i = 0; i < n; ++i) {
    maniTransform t = maniPose_GetLocal(p, i);
    t.rotation = r.Q();
    if (moveTranslations) t.translation = r.V(2);
    t.scale = maniVec3{(float)r.U(0.5, 2), (float)r.U(0.5, 2), (float)r.U(0.5, 2)};
    maniPose_SetLocal(p, i, t);
  }
}

// Model rotations from a list of locals (binary64).
std::vector<Q64> Models(const Rig& rig, const std::vector<maniQuat>& locals) {
  std::vector<Q64> m(rig.Count());
  for (uint32_t i = 0; i < rig.Count(); ++i)
    m[i] = rig.parents[i] == MANI_NO_BONE ? Of(locals[i]) : Mul(m[rig.parents[i]], Of(locals[i]));
  return m;
}
std::vector<Q64> PoseModels(const Rig& rig, const maniPose* p) {
  std::vector<maniQuat> l;
  for (uint32_t i = 0; i < rig.Count(); ++i) l.push_back(maniPose_GetLocal(p, i).rotation);
  return Models(rig, l);
}
std::vector<Q64> RestModels(const Rig& rig) {
  std::vector<maniQuat> l;
  for (const maniTransform& t : rig.rests) l.push_back(t.rotation);
  return Models(rig, l);
}
// Model positions (binary64) of a pose whose scales are 1.
std::vector<V64> Positions(const Rig& rig, const maniPose* p) {
  std::vector<V64> pos(rig.Count());
  std::vector<Q64> rot(rig.Count());
  for (uint32_t i = 0; i < rig.Count(); ++i) {
    maniTransform t = maniPose_GetLocal(p, i);
    V64 v{t.translation.x, t.translation.y, t.translation.z};
    if (rig.parents[i] == MANI_NO_BONE) {
      pos[i] = v;
      rot[i] = Of(t.rotation);
    } else {
      V64 w = Rotate(rot[rig.parents[i]], v);
      V64 o = pos[rig.parents[i]];
      pos[i] = V64{o.x + w.x, o.y + w.y, o.z + w.z};
      rot[i] = Mul(rot[rig.parents[i]], Of(t.rotation));
    }
  }
  return pos;
}

bool SameBits(const maniTransform& a, const maniTransform& b) { return memcmp(&a, &b, sizeof a) == 0; }

// Every bone paired with the same index, weight 1.
std::vector<maniRetargetPair> IndexPairs(uint32_t n, uint32_t translation, bool scale) {
  std::vector<maniRetargetPair> p;
  for (uint32_t i = 0; i < n; ++i) p.push_back({i, i, 1.0f, translation, scale});
  return p;
}

TEST(Retarget, SameSkeletonSameReferencesIsTheIdentityBitForBit) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    Skel sk(seed, 24);
    const uint32_t n = maniSkeleton_GetBoneCount(&sk.s);
    std::vector<maniRetargetPair> pairs = IndexPairs(n, maniRetargetTranslationAbsolute, true);
    maniRetargetMapSource src;
    memset(&src, 0, sizeof src);
    src.source = &sk.s;
    src.target = &sk.s;
    src.pairs = pairs.data();
    src.pairCount = n;
    Map map = BuildMap(src);
    EXPECT_EQ(maniRetargetMap_GetSourceIdentity(&map.m), maniSkeleton_GetIdentity(&sk.s));
    EXPECT_EQ(maniRetargetMap_GetTargetIdentity(&map.m), maniSkeleton_GetIdentity(&sk.s));
    EXPECT_NE(maniRetargetMap_GetIdentity(&map.m), 0u);
    EXPECT_EQ(maniRetargetMap_GetScratchSize(&map.m), (size_t)2 * n * 16);
    Scratch scratch(&map.m);
    Pose in(&sk.s), out(&sk.s);
    Rng r(seed * 77);
    for (int k = 0; k < 10; ++k) {
      RandomPose(r, in.p, n, true);
      ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &sk.s, in.p, &sk.s, out.p, scratch.p, scratch.size), mani_success);
      for (uint32_t i = 0; i < n; ++i)
        ASSERT_TRUE(SameBits(maniPose_GetLocal(in.p, i), maniPose_GetLocal(out.p, i))) << "seed " << seed << " bone " << i;
    }
  }
}

TEST(Retarget, MatchNamesKeepsOwnTranslationsAndTakesRotationsBitForBit) {
  Rig a = Humanoid(3, 1.0f, "", true);
  maniRetargetMapSource src = Source(a, a);
  src.matchNames = true;
  Map map = BuildMap(src);
  Scratch scratch(&map.m);
  Pose in(&a.s), out(&a.s);
  Rng r(5);
  RandomPose(r, in.p, a.Count(), true);
  ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &a.s, out.p, scratch.p, scratch.size), mani_success);
  EXPECT_FALSE(maniPose_IsModelCurrent(out.p));
  for (uint32_t i = 0; i < a.Count(); ++i) {
    maniTransform o = maniPose_GetLocal(out.p, i), s = maniPose_GetLocal(in.p, i);
    EXPECT_EQ(memcmp(&o.rotation, &s.rotation, sizeof o.rotation), 0) << i;
    EXPECT_EQ(memcmp(&o.translation, &a.rests[i].translation, sizeof o.translation), 0) << i;
    EXPECT_EQ(memcmp(&o.scale, &a.rests[i].scale, sizeof o.scale), 0) << i;
  }
}

// Mapped bones' model rotations: the source's times the inverse of its
// reference model rotation times the target's reference model rotation.
TEST(Retarget, ModelRotationsFollowTheTurnFromEachReference) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Rig a = Humanoid(seed, 1.0f, "", true);
    Rig b = Humanoid(seed + 100, 1.3f, "", true);
    maniRetargetMapSource src = Source(a, b);
    src.matchNames = true;
    Map map = BuildMap(src);
    Scratch scratch(&map.m);
    Pose in(&a.s), out(&b.s);
    Rng r(seed);
    RandomPose(r, in.p, a.Count(), false);
    ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size), mani_success);
    std::vector<Q64> ms = PoseModels(a, in.p), mt = PoseModels(b, out.p), rs = RestModels(a), rt = RestModels(b);
    for (uint32_t i = 0; i < b.Count(); ++i) {
      Q64 want = Mul(Mul(ms[i], Conj(rs[i])), rt[i]);
      EXPECT_LT(Angle(want, mt[i]), 2e-5) << "seed " << seed << " bone " << i;
    }
  }
}

// A skeleton whose translations are k times the source's, same rotations:
// with the pelvis scaled by the height ratio every model position is k
// times the source's.
TEST(Retarget, ScaledSkeletonScalesModelPositions) {
  const float k = 1.75f;
  Rig a = Humanoid(9, 1.0f, "src_", false);
  Rig b = Humanoid(9, k, "dst_", false);
  std::vector<maniRetargetPair> pairs;
  for (uint32_t i = 1; i < 14; ++i) pairs.push_back({i, i, 1.0f, maniRetargetTranslationOwn, false});
  maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1.0f, 1.0f, {0, 0, 0}, {0, 0, 0}, 1.0f};
  maniRetargetMapSource src = Source(a, b);
  src.pairs = pairs.data();
  src.pairCount = (uint32_t)pairs.size();
  src.pelvis = &pelvis;
  Map map = BuildMap(src);
  Scratch scratch(&map.m);
  Pose in(&a.s), out(&b.s);
  ASSERT_EQ(maniPose_SetRest(in.p, &a.s), mani_success);
  Rng r(2);
  for (int trial = 0; trial < 8; ++trial) {
    for (uint32_t i = 0; i < 14; ++i) {
      maniTransform t = maniPose_GetLocal(in.p, i);
      t.rotation = r.Q();
      if (i == 0) t.translation = maniVec3{(float)r.U(-3, 3), (float)r.U(0.5, 1.5), (float)r.U(-3, 3)};
      maniPose_SetLocal(in.p, i, t);
    }
    ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size), mani_success);
    std::vector<V64> ps = Positions(a, in.p), pt = Positions(b, out.p);
    for (uint32_t i = 0; i < 14; ++i) {
      EXPECT_NEAR(pt[i].x, k * ps[i].x, 1e-4) << i;
      EXPECT_NEAR(pt[i].y, k * ps[i].y, 1e-4) << i;
      EXPECT_NEAR(pt[i].z, k * ps[i].z, 1e-4) << i;
    }
  }
  // Root motion scales by the same ratio (factors 1).
  maniVec3 d = maniRetargetMap_RetargetRootMotion(&map.m, maniVec3{1, 2, -3});
  EXPECT_NEAR(d.x, k * 1, 1e-5);
  EXPECT_NEAR(d.y, k * 2, 1e-5);
  EXPECT_NEAR(d.z, k * -3, 1e-5);
}

TEST(Retarget, RootMotionScalesAlongAndAcrossTheUpAxis) {
  Rig a = Humanoid(4, 1.0f, "", false);
  Rig b = Humanoid(4, 2.0f, "", false);  // height ratio 2
  maniRetargetPelvis pelvis = {0, 0, {0, 0.6f, 0.8f}, 0.5f, 3.0f, {0, 0, 0}, {0, 0, 0}, 1.0f};
  maniRetargetMapSource src = Source(a, b);
  src.pelvis = &pelvis;
  Map map = BuildMap(src);
  const maniVec3 delta = {1.0f, 2.0f, 3.0f};
  // Along up: (2 * 0.6 + 3 * 0.8) = 3.6 -> (0, 2.16, 2.88); across: (1, -0.16, 0.12).
  maniVec3 d = maniRetargetMap_RetargetRootMotion(&map.m, delta);
  const double h = 2 * 0.5, v = 2 * 3.0;
  EXPECT_NEAR(d.x, h * 1.0, 1e-5);
  EXPECT_NEAR(d.y, h * -0.16 + v * 2.16, 1e-4);
  EXPECT_NEAR(d.z, h * 0.12 + v * 2.88, 1e-4);
  // Without a pelvis (or a map) the delta is kept.
  maniRetargetMapSource plain = Source(a, b);
  Map none = BuildMap(plain);
  maniVec3 e = maniRetargetMap_RetargetRootMotion(&none.m, delta);
  EXPECT_EQ(memcmp(&e, &delta, sizeof e), 0);
  e = maniRetargetMap_RetargetRootMotion(nullptr, delta);
  EXPECT_EQ(memcmp(&e, &delta, sizeof e), 0);
}

// The pelvis's blends: toSource 1 puts it at the source pelvis's position;
// weight 0 leaves it at the target reference.
TEST(Retarget, PelvisBlendsTowardTheSourceAndFromTheReference) {
  Rig a = Humanoid(6, 1.0f, "", false);
  Rig b = Humanoid(6, 2.0f, "", false);
  Pose in(&a.s), out(&b.s);
  ASSERT_EQ(maniPose_SetRest(in.p, &a.s), mani_success);
  maniPose_SetLocal(in.p, 0, maniTransform{{0.5f, 0.7f, -0.25f}, {0, 0, 0, 1}, {1, 1, 1}});
  for (int mode = 0; mode < 3; ++mode) {
    maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1.0f, 1.0f, {0, 0, 0}, {0, 0, 0}, 1.0f};
    if (mode == 0) pelvis.toSource = maniVec3{1, 1, 1};
    if (mode == 1) pelvis.weight = 0.0f;
    if (mode == 2) pelvis.absolute = maniVec3{1, 0, 1};  // x and z move unscaled
    maniRetargetMapSource src = Source(a, b);
    src.pelvis = &pelvis;
    Map map = BuildMap(src);
    Scratch scratch(&map.m);
    ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size), mani_success);
    maniVec3 t = maniPose_GetLocal(out.p, 0).translation;
    const maniVec3 ref = b.rests[0].translation, sref = a.rests[0].translation;
    if (mode == 0) {
      EXPECT_TRUE(t.x == 0.5f && t.y == 0.7f && t.z == -0.25f);
    }
    if (mode == 1) {
      EXPECT_EQ(memcmp(&t, &ref, sizeof t), 0);
    }
    if (mode == 2) {
      EXPECT_NEAR(t.x, ref.x + (0.5 - sref.x), 1e-6);
      EXPECT_NEAR(t.y, ref.y + 2.0 * (0.7 - sref.y), 1e-6);
      EXPECT_NEAR(t.z, ref.z + (-0.25 - sref.z), 1e-6);
    }
  }
}

TEST(Retarget, WeightsSlerpFromNoTurn) {
  Rig a = Humanoid(11, 1.0f, "", true);
  Rig b = Humanoid(12, 1.0f, "", true);
  for (float w : {0.0f, 0.25f, 0.5f, 1.0f}) {
    maniRetargetPair pair = {0, 0, w, maniRetargetTranslationOwn, false};
    maniRetargetMapSource src = Source(a, b);
    src.pairs = &pair;
    src.pairCount = 1;
    Map map = BuildMap(src);
    Scratch scratch(&map.m);
    Pose in(&a.s), out(&b.s);
    Rng r(3);
    RandomPose(r, in.p, a.Count(), false);
    ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size), mani_success);
    // Unmapped bones keep their reference local bit for bit.
    for (uint32_t i = 1; i < b.Count(); ++i) EXPECT_TRUE(SameBits(maniPose_GetLocal(out.p, i), b.rests[i])) << i;
    Q64 turn = Mul(Of(maniPose_GetLocal(in.p, 0).rotation), Conj(Of(a.rests[0].rotation)));
    Q64 want = Mul(Slerp(Q64{0, 0, 0, 1}, turn, w), Of(b.rests[0].rotation));
    EXPECT_LT(Angle(want, Of(maniPose_GetLocal(out.p, 0).rotation)), 2e-5) << w;
  }
}

// Chains: the left arm (3 bones) onto a 5-bone chain.
Rig LongArm(uint64_t seed) {
  Rng r(seed);
  Rig rig;
  rig.Add("Root", MANI_NO_BONE, maniTransform{{0, 1, 0}, r.Q(), {1, 1, 1}});
  for (uint32_t j = 0; j < 5; ++j)
    rig.Add("Arm" + std::to_string(j), j, maniTransform{{0, 0.3f, 0}, r.Q(), {1, 1, 1}});
  rig.Build();
  return rig;
}

TEST(Retarget, ChainsMapByTheirMode) {
  Rig a = Humanoid(21, 1.0f, "", true);
  Rig b = LongArm(22);
  Pose in(&a.s), out(&b.s);
  Rng r(8);
  RandomPose(r, in.p, a.Count(), false);
  std::vector<Q64> ms = PoseModels(a, in.p), rs = RestModels(a), rt = RestModels(b);
  const uint32_t sourceChain[3] = {5, 6, 7};
  auto turnOf = [&](uint32_t s) { return Mul(ms[s], Conj(rs[s])); };
  for (uint32_t mode = 0; mode < 4; ++mode) {
    maniRetargetChain chain = {5, 7, 1, 5, mode, maniRetargetTranslationOwn, 1.0f, false};
    maniRetargetMapSource src = Source(a, b);
    src.chains = &chain;
    src.chainCount = 1;
    Map map = BuildMap(src);
    Scratch scratch(&map.m);
    ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size), mani_success);
    std::vector<Q64> mt = PoseModels(b, out.p);
    for (uint32_t j = 0; j < 5; ++j) {
      const uint32_t bone = 1 + j;
      Q64 turn{0, 0, 0, 1};
      if (mode == maniRetargetChainInterpolated) {
        double at = j / 4.0 * 2.0;
        uint32_t lo = (uint32_t)at, hi = lo + 1 < 3 ? lo + 1 : lo;
        turn = Slerp(turnOf(sourceChain[lo]), turnOf(sourceChain[hi]), at - lo);
      } else if (mode == maniRetargetChainOneToOne) {
        turn = turnOf(sourceChain[j < 3 ? j : 2]);
      } else if (mode == maniRetargetChainOneToOneReversed) {
        uint32_t back = 4 - j;
        turn = turnOf(sourceChain[back < 3 ? 2 - back : 0]);
      }
      if (mode == maniRetargetChainNone) {
        EXPECT_TRUE(SameBits(maniPose_GetLocal(out.p, bone), b.rests[bone]));
      } else {
        EXPECT_LT(Angle(Mul(turn, rt[bone]), mt[bone]), 3e-5) << "mode " << mode << " bone " << j;
      }
    }
  }
}

TEST(Retarget, TranslationModesAndScale) {
  Rig a = Humanoid(31, 1.0f, "", false);
  Rig b = Humanoid(32, 1.0f, "", false);
  Pose in(&a.s), out(&b.s);
  ASSERT_EQ(maniPose_SetRest(in.p, &a.s), mani_success);
  maniPose_SetLocal(in.p, 2, maniTransform{{0.25f, 0.5f, 0.75f}, {0, 0, 0, 1}, {2, 3, 4}});
  for (uint32_t mode = 0; mode < 3; ++mode) {
    maniRetargetPair pair = {2, 2, 1.0f, mode, true};
    maniRetargetMapSource src = Source(a, b);
    src.pairs = &pair;
    src.pairCount = 1;
    Map map = BuildMap(src);
    Scratch scratch(&map.m);
    ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size), mani_success);
    maniTransform t = maniPose_GetLocal(out.p, 2);
    const maniVec3 ref = b.rests[2].translation, sref = a.rests[2].translation;
    // Rests have no rotation, so the parent turns are the identity.
    if (mode == maniRetargetTranslationOwn) {
      EXPECT_EQ(memcmp(&t.translation, &ref, sizeof ref), 0);
    }
    if (mode == maniRetargetTranslationScaled) {
      EXPECT_FLOAT_EQ(t.translation.x, ref.x + (0.25f - sref.x));
      EXPECT_FLOAT_EQ(t.translation.z, ref.z + (0.75f - sref.z));
    }
    if (mode == maniRetargetTranslationAbsolute) {
      EXPECT_TRUE(t.translation.x == 0.25f && t.translation.z == 0.75f);
    }
    EXPECT_TRUE(t.scale.x == 2 && t.scale.y == 3 && t.scale.z == 4);
  }
}

// Turned parents: an absolute translation is turned from the source
// parent's reference model frame to the target parent's.
TEST(Retarget, TranslationsTurnBetweenParentFrames) {
  Rig a = Humanoid(41, 1.0f, "", true);
  Rig b = Humanoid(42, 1.0f, "", true);
  Pose in(&a.s), out(&b.s);
  ASSERT_EQ(maniPose_SetRest(in.p, &a.s), mani_success);
  maniRetargetPair pair = {6, 6, 1.0f, maniRetargetTranslationAbsolute, false};
  maniRetargetMapSource src = Source(a, b);
  src.pairs = &pair;
  src.pairCount = 1;
  Map map = BuildMap(src);
  Scratch scratch(&map.m);
  ASSERT_EQ(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size), mani_success);
  std::vector<Q64> rs = RestModels(a), rt = RestModels(b);
  maniVec3 st = a.rests[6].translation;
  V64 want = Rotate(Mul(Conj(rt[5]), rs[5]), V64{st.x, st.y, st.z});
  maniVec3 t = maniPose_GetLocal(out.p, 6).translation;
  EXPECT_NEAR(t.x, want.x, 1e-5);
  EXPECT_NEAR(t.y, want.y, 1e-5);
  EXPECT_NEAR(t.z, want.z, 1e-5);
}

// -- Refusals --------------------------------------------------------------------

void ExpectRefused(const maniRetargetMapSource& src, maniResult result, uint32_t reason, uint64_t item, uint64_t other) {
  Builder b;
  maniBuildResult r = maniBuildRetargetMap(b.b, &src);
  EXPECT_EQ(r.result, result);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.item, item);
  EXPECT_EQ(r.other, other);
}

TEST(RetargetBuild, RefusesNullsAndCountsWithoutLists) {
  Rig a = Humanoid(1, 1.0f, "", false);
  maniRetargetMapSource src = Source(a, a);
  Builder b;
  EXPECT_EQ(maniBuildRetargetMap(nullptr, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildRetargetMap(b.b, nullptr).result, mani_errorInvalid);
  maniRetargetMapSource s = src;
  s.source = nullptr;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.target = nullptr;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.pairCount = 1;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.chainCount = 1;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
}

TEST(RetargetBuild, RefusesReferences) {
  Rig a = Humanoid(1, 1.0f, "", false);
  std::vector<maniTransform> ref = a.rests;
  maniRetargetMapSource src = Source(a, a);
  ref[3].translation.y = NAN;
  src.targetReference = ref.data();
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetReference, 3, 1);
  ref = a.rests;
  ref[5].rotation = maniQuat{0, 0, 0, 1.002f};
  src.targetReference = nullptr;
  src.sourceReference = ref.data();
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetReference, 5, 0);
  // Within a thousandth: accepted (and stored normalized, so it opens).
  ref[5].rotation = maniQuat{0, 0, 0, 1.0005f};
  BuildMap(src);
}

TEST(RetargetBuild, RefusesPairs) {
  Rig a = Humanoid(1, 1.0f, "", false);
  maniRetargetPair pairs[2] = {{1, 1, 1.0f, 0, false}, {2, 2, 1.0f, 0, false}};
  maniRetargetMapSource src = Source(a, a);
  src.pairs = pairs;
  src.pairCount = 2;
  BuildMap(src);
  pairs[1] = {14, 2, 1.0f, 0, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetPair, 1, 2);
  pairs[1] = {2, 14, 1.0f, 0, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetPair, 1, 14);
  pairs[1] = {2, 1, 1.0f, 0, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetPair, 1, 1);
  pairs[1] = {2, 2, 1.5f, 0, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetPair, 1, 2);
  pairs[1] = {2, 2, NAN, 0, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetPair, 1, 2);
  pairs[1] = {2, 2, 1.0f, 3, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetPair, 1, 2);
}

TEST(RetargetBuild, RefusesChains) {
  Rig a = Humanoid(1, 1.0f, "", false);
  maniRetargetPair pair = {6, 6, 1.0f, 0, false};
  maniRetargetChain chains[2] = {{8, 10, 8, 10, maniRetargetChainOneToOne, 0, 1.0f, false},
                                 {5, 7, 5, 7, maniRetargetChainOneToOne, 0, 1.0f, false}};
  maniRetargetMapSource src = Source(a, a);
  src.chains = chains;
  src.chainCount = 2;
  BuildMap(src);
  src.pairs = &pair;
  src.pairCount = 1;
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetChain, 1, 6);  // bone 6 mapped by the pair
  src.pairCount = 0;
  chains[1] = {5, 14, 5, 7, maniRetargetChainOneToOne, 0, 1.0f, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetChain, 1, 0);
  chains[1] = {5, 7, 7, 5, maniRetargetChainOneToOne, 0, 1.0f, false};  // end above its start
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetChain, 1, 0);
  chains[1] = {5, 7, 5, 10, maniRetargetChainOneToOne, 0, 1.0f, false};  // another branch
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetChain, 1, 0);
  chains[1] = {5, 7, 5, 7, 4, 0, 1.0f, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetChain, 1, 0);
  chains[1] = {5, 7, 5, 7, maniRetargetChainOneToOne, 3, 1.0f, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetChain, 1, 0);
  chains[1] = {5, 7, 5, 7, maniRetargetChainOneToOne, 0, -0.5f, false};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetChain, 1, 0);
  chains[1] = {5, 7, 5, 7, maniRetargetChainOneToOne, 0, 1.0f, false};
  chains[0] = {8, 10, 11, 13, maniRetargetChainNone, 0, 1.0f, false};
  chains[1] = {5, 7, 12, 13, maniRetargetChainOneToOne, 0, 1.0f, false};  // 12 taken by the None chain
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetChain, 1, 13);
}

TEST(RetargetBuild, RefusesChainsPastTheLimit) {
  Rig deep;
  deep.Add("b0", MANI_NO_BONE, maniTransform{{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}});
  for (uint32_t i = 1; i < 40; ++i) deep.Add("b" + std::to_string(i), i - 1, maniTransform{{0, 0.1f, 0}, {0, 0, 0, 1}, {1, 1, 1}});
  deep.Build();
  maniRetargetChain chain = {0, MANI_MAX_IK_CHAIN_BONES - 1, 0, MANI_MAX_IK_CHAIN_BONES - 1, maniRetargetChainOneToOne,
                             0, 1.0f, false};
  maniRetargetMapSource src = Source(deep, deep);
  src.chains = &chain;
  src.chainCount = 1;
  BuildMap(src);
  chain.targetEnd = MANI_MAX_IK_CHAIN_BONES;
  ExpectRefused(src, mani_errorLimit, maniBuildReasonRetargetChain, 0, 0);
}

TEST(RetargetBuild, RefusesPelvis) {
  Rig a = Humanoid(1, 1.0f, "", false);
  maniRetargetPair pair = {0, 0, 1.0f, 0, false};
  const maniRetargetPelvis good = {0, 0, {0, 1, 0}, 1.0f, 1.0f, {0, 0, 0}, {0, 0, 0}, 1.0f};
  maniRetargetPelvis p = good;
  maniRetargetMapSource src = Source(a, a);
  src.pelvis = &p;
  BuildMap(src);
  auto refused = [&](void (*change)(maniRetargetPelvis*), uint64_t other) {
    p = good;
    change(&p);
    ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetPelvis, 0, other);
  };
  refused([](maniRetargetPelvis* q) { q->sourceBone = 14; }, 0);
  refused([](maniRetargetPelvis* q) { q->targetBone = 14; }, 14);
  refused([](maniRetargetPelvis* q) { q->up = maniVec3{0, 1.01f, 0}; }, 0);
  refused([](maniRetargetPelvis* q) { q->horizontalFactor = -1; }, 0);
  refused([](maniRetargetPelvis* q) { q->verticalFactor = INFINITY; }, 0);
  refused([](maniRetargetPelvis* q) { q->absolute.y = 1.5f; }, 0);
  refused([](maniRetargetPelvis* q) { q->toSource.z = -0.1f; }, 0);
  refused([](maniRetargetPelvis* q) { q->weight = 2; }, 0);
  refused([](maniRetargetPelvis* q) { q->up = maniVec3{0, -1, 0}; }, 0);  // the pelvis below height 0
  p = good;
  src.pairs = &pair;
  src.pairCount = 1;
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonRetargetPelvis, 0, 0);  // mapped by the pair
}

TEST(RetargetBuild, FailureKeepsTheBuilt) {
  Rig a = Humanoid(1, 1.0f, "", false);
  maniRetargetMapSource src = Source(a, a);
  Builder b;
  ASSERT_EQ(maniBuildRetargetMap(b.b, &src).result, mani_success);
  File before = b.Built();
  maniRetargetPair bad = {99, 0, 1.0f, 0, false};
  src.pairs = &bad;
  src.pairCount = 1;
  EXPECT_EQ(maniBuildRetargetMap(b.b, &src).result, mani_errorInvalid);
  File after = b.Built();
  ASSERT_EQ(before.size, after.size);
  EXPECT_EQ(memcmp(before.data(), after.data(), before.size), 0);
}

TEST(RetargetPose, RefusalsLeaveTheTargetUnchanged) {
  Rig a = Humanoid(1, 1.0f, "", true);
  Rig b = Humanoid(2, 1.2f, "", true);
  maniRetargetMapSource src = Source(a, b);
  src.matchNames = true;
  Map map = BuildMap(src);
  Scratch scratch(&map.m);
  Pose in(&a.s), out(&b.s), wrong(&a.s);
  Rng r(1);
  RandomPose(r, out.p, b.Count(), true);
  const std::vector<uint8_t> before = out.Bytes();
  auto unchanged = [&](maniResult res) {
    EXPECT_EQ(res, mani_errorInvalid);
    EXPECT_EQ(out.Bytes(), before);
  };
  unchanged(maniRetargetMap_RetargetPose(nullptr, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size));
  unchanged(maniRetargetMap_RetargetPose(&map.m, nullptr, in.p, &b.s, out.p, scratch.p, scratch.size));
  unchanged(maniRetargetMap_RetargetPose(&map.m, &a.s, nullptr, &b.s, out.p, scratch.p, scratch.size));
  unchanged(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, nullptr, out.p, scratch.p, scratch.size));
  unchanged(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, nullptr, scratch.size));
  unchanged(maniRetargetMap_RetargetPose(&map.m, &b.s, in.p, &a.s, out.p, scratch.p, scratch.size));  // swapped
  unchanged(maniRetargetMap_RetargetPose(&map.m, &a.s, out.p, &b.s, out.p, scratch.p, scratch.size));  // pose of b
  unchanged(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size - 1));
  unchanged(maniRetargetMap_RetargetPose(&map.m, &a.s, in.p, &b.s, out.p, (uint8_t*)scratch.p + 4, scratch.size));
  maniRetargetMap zero;
  memset(&zero, 0, sizeof zero);
  unchanged(maniRetargetMap_RetargetPose(&zero, &a.s, in.p, &b.s, out.p, scratch.p, scratch.size));
  EXPECT_EQ(maniRetargetMap_GetScratchSize(&zero), 0u);
  EXPECT_EQ(maniRetargetMap_GetIdentity(nullptr), 0u);
  EXPECT_EQ(maniRetargetMap_GetSourceIdentity(nullptr), 0u);
  EXPECT_EQ(maniRetargetMap_GetTargetIdentity(&zero), 0u);
  // A source pose of differences.
  Pose diff(&a.s);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&a.s, in.p, in.p, diff.p), mani_success);
  unchanged(maniRetargetMap_RetargetPose(&map.m, &a.s, diff.p, &b.s, out.p, scratch.p, scratch.size));
  // Overlapping memory: a map from a skeleton to itself, out = in.
  maniRetargetMapSource self = Source(a, a);
  self.matchNames = true;
  Map same = BuildMap(self);
  Scratch s2(&same.m);
  const std::vector<uint8_t> inBefore = in.Bytes();
  EXPECT_EQ(maniRetargetMap_RetargetPose(&same.m, &a.s, in.p, &a.s, in.p, s2.p, s2.size), mani_errorInvalid);
  EXPECT_EQ(in.Bytes(), inBefore);
}

TEST(RetargetOpen, EveryMutationIsRefused) {
  Rig a = Humanoid(1, 1.0f, "", true);
  Rig b = Humanoid(2, 1.4f, "", true);
  maniRetargetChain chain = {5, 7, 5, 7, maniRetargetChainInterpolated, maniRetargetTranslationScaled, 0.75f, true};
  maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1.0f, 0.5f, {0.5f, 0, 0}, {0, 0.25f, 0}, 1.0f};
  maniRetargetMapSource src = Source(a, b);
  src.chains = &chain;
  src.chainCount = 1;
  src.pelvis = &pelvis;
  src.matchNames = true;
  Map map = BuildMap(src);
  ASSERT_GT(map.file.size, 0u);
  ExpectEveryMutationRefused(map.file.data(), map.file.size, [](const void* p, size_t n) {
    maniRetargetMap m;
    return maniOpenRetargetMap(p, n, &m);
  });
  maniRetargetMap m;
  EXPECT_EQ(maniOpenRetargetMap(nullptr, map.file.size, &m).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenRetargetMap(map.file.data(), map.file.size, nullptr).result, mani_errorInvalid);
  File odd;
  odd.words.assign(map.file.size / 8 + 4, 0);
  memcpy(odd.data() + 8, map.file.data(), map.file.size);
  EXPECT_EQ(maniOpenRetargetMap(odd.data() + 8, map.file.size, &m).result, mani_errorInvalid);
}

// The same source builds the same bytes; another build (a fresh builder)
// agrees.
TEST(RetargetBuild, Deterministic) {
  Rig a = Humanoid(1, 1.0f, "", true);
  Rig b = Humanoid(2, 1.4f, "", true);
  maniRetargetMapSource src = Source(a, b);
  src.matchNames = true;
  Map m1 = BuildMap(src), m2 = BuildMap(src);
  ASSERT_EQ(m1.file.size, m2.file.size);
  EXPECT_EQ(memcmp(m1.file.data(), m2.file.data(), m1.file.size), 0);
}

// -- The JSON text form -------------------------------------------------------------

std::string Text(Builder& b) {
  File f = b.Built();
  return std::string(reinterpret_cast<const char*>(f.data()), f.size);
}

struct JsonCase {
  Rig a = Humanoid(51, 1.0f, "", true);
  Rig b = Humanoid(52, 1.3f, "t_", true);
  std::vector<maniTransform> sref, tref;
  maniRetargetPair pairs[2] = {{1, 1, 0.75f, maniRetargetTranslationScaled, true},
                               {2, 2, 1.0f, maniRetargetTranslationAbsolute, false}};
  maniRetargetChain chains[2] = {{5, 7, 5, 7, maniRetargetChainInterpolated, maniRetargetTranslationOwn, 0.5f, false},
                                 {8, 10, 8, 10, maniRetargetChainOneToOneReversed, maniRetargetTranslationOwn, 1.0f, true}};
  maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1.25f, 0.8f, {0.1f, 0, 0.3f}, {0, 0.2f, 0}, 0.9f};
  maniRetargetMapSource src;
  JsonCase() {
    sref = a.rests;
    tref = b.rests;
    sref[3].rotation = maniQuat{0, 0.6f, 0, 0.8f};
    tref[4].translation.x = 0.123456789f;
    src = Source(a, b);
    src.sourceReference = sref.data();
    src.targetReference = tref.data();
    src.pairs = pairs;
    src.pairCount = 2;
    src.chains = chains;
    src.chainCount = 2;
    src.pelvis = &pelvis;
  }
};

TEST(RetargetJson, WriteBuildWriteIsAFixedPointAndBuildsTheSameFile) {
  JsonCase c;
  Builder b;
  ASSERT_EQ(maniWriteRetargetMapJson(b.b, &c.src).result, mani_success);
  const std::string text = Text(b);
  EXPECT_NE(text.find("\"format\": \"maul-anim retarget map\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"oneToOneReversed\""), std::string::npos);
  EXPECT_NE(text.find("\"t_Head\""), std::string::npos);
  ASSERT_EQ(maniBuildRetargetMap(b.b, &c.src).result, mani_success);
  File direct = b.Built();
  maniBuildResult r = maniBuildRetargetMapJson(b.b, text.data(), text.size(), &c.a.s, &c.b.s);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  File fromText = b.Built();
  ASSERT_EQ(direct.size, fromText.size);
  EXPECT_EQ(memcmp(direct.data(), fromText.data(), direct.size), 0);
  // Seeded maps: write -> build -> write through a source read back by the
  // test from the built map's text itself is the same text (write twice).
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Rng rng(seed);
    JsonCase d;
    d.pairs[0].weight = (float)rng.U(0, 1);
    d.chains[0].weight = (float)rng.U(0, 1);
    d.pelvis.horizontalFactor = (float)rng.U(0, 3);
    d.tref[6].rotation = rng.Q();
    d.src.matchNames = seed % 2 == 0;
    Builder w;
    ASSERT_EQ(maniWriteRetargetMapJson(w.b, &d.src).result, mani_success);
    const std::string t1 = Text(w);
    ASSERT_EQ(maniBuildRetargetMapJson(w.b, t1.data(), t1.size(), &d.a.s, &d.b.s).result, mani_success);
    File built = w.Built();
    ASSERT_EQ(maniBuildRetargetMap(w.b, &d.src).result, mani_success);
    File want = w.Built();
    ASSERT_EQ(built.size, want.size);
    EXPECT_EQ(memcmp(built.data(), want.data(), want.size), 0) << seed;
  }
}

TEST(RetargetJson, DefaultsAreTheEmptySource) {
  Rig a = Humanoid(1, 1.0f, "", true);
  Rig b = Humanoid(2, 1.0f, "", true);
  Builder bl;
  maniRetargetMapSource src = Source(a, b);
  ASSERT_EQ(maniBuildRetargetMap(bl.b, &src).result, mani_success);
  File want = bl.Built();
  const std::string text = "{\"format\": \"maul-anim retarget map\", \"version\": 1}";
  ASSERT_EQ(maniBuildRetargetMapJson(bl.b, text.data(), text.size(), &a.s, &b.s).result, mani_success);
  File got = bl.Built();
  ASSERT_EQ(got.size, want.size);
  EXPECT_EQ(memcmp(got.data(), want.data(), want.size), 0);
  // A pair's translation and scale default to "own" and false; the pelvis's
  // blends to zero; matchNames to false; pelvis null is none.
  maniRetargetPair pair = {3, 3, 0.5f, maniRetargetTranslationOwn, false};
  maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1, 1, {0, 0, 0}, {0, 0, 0}, 1};
  src.pairs = &pair;
  src.pairCount = 1;
  src.pelvis = &pelvis;
  ASSERT_EQ(maniBuildRetargetMap(bl.b, &src).result, mani_success);
  want = bl.Built();
  const std::string t2 =
      "{\"format\": \"maul-anim retarget map\", \"version\": 1, \"pairs\": [{\"source\": \"Neck\", \"target\": \"Neck\", "
      "\"weight\": 0.5}], \"pelvis\": {\"source\": \"Hips\", \"target\": \"Hips\", \"up\": [0, 1, 0], "
      "\"horizontalFactor\": 1, \"verticalFactor\": 1, \"weight\": 1}, \"matchNames\": false}";
  ASSERT_EQ(maniBuildRetargetMapJson(bl.b, t2.data(), t2.size(), &a.s, &b.s).result, mani_success);
  got = bl.Built();
  ASSERT_EQ(got.size, want.size);
  EXPECT_EQ(memcmp(got.data(), want.data(), want.size), 0);
  src.pelvis = nullptr;
  ASSERT_EQ(maniBuildRetargetMap(bl.b, &src).result, mani_success);
  want = bl.Built();
  const std::string t3 =
      "{\"format\": \"maul-anim retarget map\", \"version\": 1, \"pairs\": [{\"source\": \"Neck\", \"target\": \"Neck\", "
      "\"weight\": 0.5, \"translation\": \"own\", \"scale\": false}], \"pelvis\": null}";
  ASSERT_EQ(maniBuildRetargetMapJson(bl.b, t3.data(), t3.size(), &a.s, &b.s).result, mani_success);
  got = bl.Built();
  ASSERT_EQ(got.size, want.size);
  EXPECT_EQ(memcmp(got.data(), want.data(), want.size), 0);
}

// Each refusal with the byte offset the test finds in the text.
TEST(RetargetJson, RefusalsNameTheirByteOffsets) {
  Rig a = Humanoid(1, 1.0f, "", true);
  Rig b = Humanoid(2, 1.0f, "", true);
  Builder bl;
  const std::string head = "{\"format\": \"maul-anim retarget map\", \"version\": 1";
  auto check = [&](const std::string& text, maniResult result, uint32_t reason, uint64_t item, uint64_t other) {
    maniBuildResult r = maniBuildRetargetMapJson(bl.b, text.data(), text.size(), &a.s, &b.s);
    EXPECT_EQ(r.result, result) << text;
    EXPECT_EQ(r.reason, reason) << text;
    EXPECT_EQ(r.item, item) << text;
    EXPECT_EQ(r.other, other) << text;
  };
  std::string t = head + ", \"extra\": 1}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("\"extra\""), maniGraphFormMember);
  t = "{\"format\": \"maul-anim mirror map\", \"version\": 1}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("\"maul-anim mirror"), maniGraphFormFormat);
  t = "{\"format\": \"maul-anim retarget map\", \"version\": 2}";
  check(t, mani_errorVersion, maniBuildReasonForm, t.find("2"), maniGraphFormVersion);
  t = "{\"version\": 1}";
  check(t, mani_errorInvalid, maniBuildReasonForm, 0, maniGraphFormMissing);
  t = head + ", \"matchNames\": 1}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("1}"), maniGraphFormType);
  t = head + ", \"pairs\": [{\"source\": \"Nope\", \"target\": \"Neck\", \"weight\": 1}]}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("\"Nope\""), maniGraphFormName);
  t = head + ", \"pairs\": [{\"source\": \"Neck\", \"target\": \"Neck\", \"weight\": 1, \"translation\": \"far\"}]}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("\"far\""), maniGraphFormValue);
  t = head + ", \"pairs\": [{\"source\": \"Neck\", \"target\": \"Neck\"}]}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("{\"source\""), maniGraphFormMissing);
  t = head + ", \"chains\": [{\"sourceStart\": \"LArm\", \"sourceEnd\": \"LHand\", \"targetStart\": \"LArm\", "
             "\"targetEnd\": \"LHand\", \"mode\": \"twisted\", \"weight\": 1}]}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("\"twisted\""), maniGraphFormValue);
  t = head + ", \"targetReference\": [{\"bone\": \"Neck\"}, {\"bone\": \"Neck\"}]}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.rfind("\"Neck\""), maniGraphFormDuplicate);
  t = head + ", \"targetReference\": [{\"bone\": \"Neck\", \"rotation\": [0, 0, 1]}]}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("[0, 0, 1]"), maniGraphFormValue);
  t = head + ", \"sourceReference\": [{\"bone\": \"Neck\", \"translation\": [0, 1e39, 0]}]}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("1e39"), maniGraphFormValue);
  t = head + ", \"pelvis\": {\"source\": \"Hips\", \"target\": \"Hips\", \"up\": [0, 1, 0], \"horizontalFactor\": 1, "
             "\"verticalFactor\": 1, \"weight\": 1, \"blend\": 0}}";
  check(t, mani_errorInvalid, maniBuildReasonForm, t.find("\"blend\""), maniGraphFormMember);
  t = head + ", \"pairs\": [";
  maniBuildResult r = maniBuildRetargetMapJson(bl.b, t.data(), t.size(), &a.s, &b.s);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJson);
  // Refusals of the build, items by place in the text's lists.
  t = head + ", \"targetReference\": [{\"bone\": \"Head\"}, {\"bone\": \"Neck\", \"rotation\": [0, 0, 0, 2]}]}";
  check(t, mani_errorInvalid, maniBuildReasonRetargetReference, 1, 1);
  t = head + ", \"pairs\": [{\"source\": \"Neck\", \"target\": \"Neck\", \"weight\": 1}, "
             "{\"source\": \"Head\", \"target\": \"Neck\", \"weight\": 1}]}";
  check(t, mani_errorInvalid, maniBuildReasonRetargetPair, 1, 3);
  t = head + ", \"pelvis\": {\"source\": \"Hips\", \"target\": \"Hips\", \"up\": [0, 1, 0], \"horizontalFactor\": -1, "
             "\"verticalFactor\": 1, \"weight\": 1}}";
  check(t, mani_errorInvalid, maniBuildReasonRetargetPelvis, 0, 0);
  // NULL arguments.
  EXPECT_EQ(maniBuildRetargetMapJson(nullptr, t.data(), t.size(), &a.s, &b.s).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildRetargetMapJson(bl.b, nullptr, 3, &a.s, &b.s).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildRetargetMapJson(bl.b, t.data(), t.size(), nullptr, &b.s).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildRetargetMapJson(bl.b, t.data(), t.size(), &a.s, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniWriteRetargetMapJson(bl.b, nullptr).result, mani_errorInvalid);
}

// -- Retargeted clips (maniBuildRetargetedClip) ---------------------------------------------------

struct ClipFile {
  File file;
  maniClip c;
};

bool OpenBuilt(Builder& b, ClipFile* out) {
  out->file = b.Built();
  maniFileResult o = maniOpenClip(out->file.data(), out->file.size, &out->c);
  EXPECT_EQ(o.result, mani_success) << o.offset;
  return o.result == mani_success;
}

ClipFile FixtureClip(uint64_t seed, const maniSkeleton* s, uint32_t flags, maniAdditiveBasis additive) {
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, seed, s, flags, maniLoopClamp, additive);
  size_t size = 0;
  void* bytes = maniFixtureBuildClip(&fc.source, &size);
  EXPECT_NE(bytes, nullptr);
  ClipFile clip;
  if (bytes != nullptr) clip.file.Assign(bytes, size);
  free(bytes);
  maniFixtureFreeClip(&fc);
  EXPECT_EQ(maniOpenClip(clip.file.data(), clip.file.size, &clip.c).result, mani_success);
  return clip;
}

ClipFile Retargeted(const Map& map, const maniSkeleton* a, const maniSkeleton* b, const maniClip* clip) {
  Builder bl;
  maniRetargetClipSource src = {&map.m, a, b, clip};
  maniBuildResult r = maniBuildRetargetedClip(bl.b, &src);
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  ClipFile out;
  if (r.result == mani_success) OpenBuilt(bl, &out);
  return out;
}

// Every sample time and the times halfway between (binary64 grid).
std::vector<float> GridTimes(const maniClip* c) {
  const uint32_t n = maniClip_GetSampleCount(c);
  const double rate = maniClip_GetSampleRate(c), duration = maniClip_GetDuration(c);
  std::vector<float> t;
  for (uint32_t k = 0; k < n; ++k) {
    const double a = k + 1 == n ? duration : k / rate;
    t.push_back((float)a);
    if (k + 1 < n) t.push_back((float)((a + (k + 2 == n ? duration : (k + 1) / rate)) / 2));
  }
  return t;
}

TEST(RetargetClip, SameSkeletonSameReferencesIsTheIdentityBitForBit) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Skel sk(seed, 24);
    const uint32_t n = maniSkeleton_GetBoneCount(&sk.s);
    std::vector<maniRetargetPair> pairs = IndexPairs(n, maniRetargetTranslationAbsolute, true);
    maniRetargetMapSource src;
    memset(&src, 0, sizeof src);
    src.source = &sk.s;
    src.target = &sk.s;
    src.pairs = pairs.data();
    src.pairCount = n;
    Map map = BuildMap(src);
    ClipFile clip = FixtureClip(seed, &sk.s, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION, maniAdditiveNone);
    ClipFile out = Retargeted(map, &sk.s, &sk.s, &clip.c);
    ASSERT_NE(out.file.size, 0u);
    // The same file: every sample, channel, track, event and move.
    ASSERT_EQ(out.file.size, clip.file.size) << seed;
    EXPECT_EQ(memcmp(out.file.data(), clip.file.data(), clip.file.size), 0) << seed;
    EXPECT_EQ(maniClip_GetIdentity(&out.c), maniClip_GetIdentity(&clip.c));
    Pose a(&sk.s), b(&sk.s);
    for (float t : GridTimes(&clip.c)) {
      ASSERT_EQ(maniClip_Sample(&clip.c, &sk.s, t, a.p), mani_success);
      ASSERT_EQ(maniClip_Sample(&out.c, &sk.s, t, b.p), mani_success);
      for (uint32_t i = 0; i < n; ++i)
        ASSERT_TRUE(SameBits(maniPose_GetLocal(a.p, i), maniPose_GetLocal(b.p, i))) << seed << " " << t << " " << i;
    }
  }
}

TEST(RetargetClip, AdditiveDifferencesCarryThroughTheSourceRest) {
  // Onto the same skeleton with equal references the rest carries to
  // itself: the differences come back within binary32 rounding.
  Skel sk(7, 16);
  const uint32_t n = maniSkeleton_GetBoneCount(&sk.s);
  std::vector<maniRetargetPair> pairs = IndexPairs(n, maniRetargetTranslationAbsolute, true);
  maniRetargetMapSource src;
  memset(&src, 0, sizeof src);
  src.source = &sk.s;
  src.target = &sk.s;
  src.pairs = pairs.data();
  src.pairCount = n;
  Map map = BuildMap(src);
  ClipFile clip = FixtureClip(3, &sk.s, MANI_FIXTURE_CLIP_ALL_BONES, maniAdditiveRest);
  ClipFile out = Retargeted(map, &sk.s, &sk.s, &clip.c);
  ASSERT_NE(out.file.size, 0u);
  EXPECT_EQ(maniClip_GetAdditiveBasis(&out.c), maniAdditiveRest);
  Pose a(&sk.s), b(&sk.s);
  for (float t : GridTimes(&clip.c)) {
    ASSERT_EQ(maniClip_Sample(&clip.c, &sk.s, t, a.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&out.c, &sk.s, t, b.p), mani_success);
    EXPECT_TRUE(maniPose_IsDifference(b.p));
    for (uint32_t i = 0; i < n; ++i) {
      maniTransform x = maniPose_GetLocal(a.p, i), y = maniPose_GetLocal(b.p, i);
      const double size = 1 + std::fabs(maniSkeleton_GetRest(&sk.s, i).translation.x) +
                          std::fabs(maniSkeleton_GetRest(&sk.s, i).translation.y) +
                          std::fabs(maniSkeleton_GetRest(&sk.s, i).translation.z) + std::fabs(x.translation.x) +
                          std::fabs(x.translation.y) + std::fabs(x.translation.z);
      EXPECT_NEAR(x.translation.x, y.translation.x, 4e-7 * size) << i;
      EXPECT_NEAR(x.translation.y, y.translation.y, 4e-7 * size) << i;
      EXPECT_NEAR(x.translation.z, y.translation.z, 4e-7 * size) << i;
      EXPECT_LT(Angle(Of(x.rotation), Of(y.rotation)), 1e-5) << i;
      EXPECT_NEAR(x.scale.x, y.scale.x, 1e-6 * (1 + x.scale.x)) << i;
      EXPECT_NEAR(x.scale.y, y.scale.y, 1e-6 * (1 + x.scale.y)) << i;
      EXPECT_NEAR(x.scale.z, y.scale.z, 1e-6 * (1 + x.scale.z)) << i;
    }
  }
}

// A seeded humanoid onto one of another proportion (every length times k)
// and naming: the retargeted clip plays, and with root motion put back every
// bone's model position (the feet's included) is the source's times k.
TEST(RetargetClip, AnotherProportionAndNamingScalesPositionsAndRootMotion) {
  const float k = 1.6f;
  Rig a = Humanoid(9, 1.0f, "src_", false);
  Rig b = Humanoid(9, k, "Character1_", false);
  std::vector<maniRetargetPair> pairs;
  for (uint32_t i = 1; i < 14; ++i) pairs.push_back({i, i, 1.0f, maniRetargetTranslationOwn, false});
  maniRetargetPelvis pelvis = {0, 0, {0, 1, 0}, 1.0f, 1.0f, {0, 0, 0}, {0, 0, 0}, 1.0f};
  maniRetargetMapSource src = Source(a, b);
  src.pairs = pairs.data();
  src.pairCount = (uint32_t)pairs.size();
  src.pelvis = &pelvis;
  Map map = BuildMap(src);
  // Rotations on every bone and the hips' translation; root motion of the
  // hips (x, z and the yaw).
  std::vector<std::vector<float>> values;
  std::vector<maniClipSourceChannel> channels;
  const float times[4] = {0.0f, 0.4f, 0.8f, 1.2f};
  Rng r(5);
  values.reserve(15);
  for (uint32_t i = 0; i < 14; ++i) {
    std::vector<float> v;
    for (int key = 0; key < 4; ++key) {
      maniQuat q = r.Q();
      v.insert(v.end(), {q.x, q.y, q.z, q.w});
    }
    values.push_back(v);
    channels.push_back({i, maniChannelRotation, maniInterpolationLinear, 4, times, values.back().data()});
  }
  std::vector<float> hips;
  for (int key = 0; key < 4; ++key) hips.insert(hips.end(), {0.1f + 0.5f * key, 1.0f + 0.05f * key, 0.05f - 0.3f * key});
  values.push_back(hips);
  channels.push_back({0, maniChannelTranslation, maniInterpolationLinear, 4, times, values.back().data()});
  maniRootMotionSource root = {0, MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Z | MANI_ROOT_MOTION_YAW};
  maniClipSource cs;
  memset(&cs, 0, sizeof cs);
  cs.skeleton = &a.s;
  cs.duration = 1.2f;
  cs.sampleRate = 30.0f;
  cs.channels = channels.data();
  cs.channelCount = (uint32_t)channels.size();
  cs.rootMotion = &root;
  Builder bl;
  ASSERT_EQ(maniBuildClip(bl.b, &cs).result, mani_success);
  ClipFile clip;
  ASSERT_TRUE(OpenBuilt(bl, &clip));
  ClipFile out = Retargeted(map, &a.s, &b.s, &clip.c);
  ASSERT_NE(out.file.size, 0u);
  EXPECT_EQ(maniClip_GetSkeletonIdentity(&out.c), maniSkeleton_GetIdentity(&b.s));
  maniRootMotionSource got;
  ASSERT_TRUE(maniClip_GetRootMotionSource(&out.c, &got));
  EXPECT_EQ(got.bone, 0u);
  EXPECT_EQ(got.flags, root.flags);
  Pose pa(&a.s), pb(&b.s);
  for (float t : GridTimes(&clip.c)) {
    ASSERT_EQ(maniClip_Sample(&clip.c, &a.s, t, pa.p), mani_success);
    ASSERT_EQ(maniClip_RestoreRootMotion(&clip.c, &a.s, t, pa.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&out.c, &b.s, t, pb.p), mani_success);
    ASSERT_EQ(maniClip_RestoreRootMotion(&out.c, &b.s, t, pb.p), mani_success);
    std::vector<V64> ps = Positions(a, pa.p), pt = Positions(b, pb.p);
    for (uint32_t i = 0; i < 14; ++i) {
      EXPECT_NEAR(pt[i].x, k * ps[i].x, 2e-5 * k * 4) << t << " " << i;
      EXPECT_NEAR(pt[i].y, k * ps[i].y, 2e-5 * k * 4) << t << " " << i;
      EXPECT_NEAR(pt[i].z, k * ps[i].z, 2e-5 * k * 4) << t << " " << i;
    }
    maniRootMove ma, mb;
    ASSERT_EQ(maniClip_GetRootMotion(&clip.c, 0.0f, t, &ma), mani_success);
    ASSERT_EQ(maniClip_GetRootMotion(&out.c, 0.0f, t, &mb), mani_success);
    EXPECT_NEAR(mb.translation.x, k * ma.translation.x, 1e-5) << t;
    EXPECT_NEAR(mb.translation.y, k * ma.translation.y, 1e-5) << t;
    EXPECT_NEAR(mb.translation.z, k * ma.translation.z, 1e-5) << t;
    EXPECT_LT(Angle(Of(ma.rotation), Of(mb.rotation)), 1e-5) << t;
  }
}

TEST(RetargetClip, ChannelsAtTheTargetRestAreLeftOutAndTurnedRootAxesFollow) {
  // Only the chest is mapped (pair 2 -> 2); every other target bone keeps
  // its reference, so only the chest's rotation is animated. The root
  // motion bone's follower is a bone whose parent frames differ by a
  // quarter turn about z: its x axis becomes y.
  Rig a = Humanoid(3, 1.0f, "", false);
  Rig b;
  const maniTransform id = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
  const float h = std::sqrt(0.5f);
  b.Add("root", MANI_NO_BONE, {{0, 0, 0}, {0, 0, h, h}, {1, 1, 1}});
  b.Add("mover", 0, id);
  b.Add("chest", 1, id);
  b.Build();
  maniRetargetPair pairs[2] = {{0, 1, 1.0f, maniRetargetTranslationAbsolute, false},
                               {2, 2, 1.0f, maniRetargetTranslationOwn, false}};
  maniRetargetMapSource src = Source(a, b);
  src.pairs = pairs;
  src.pairCount = 2;
  Map map = BuildMap(src);
  const float times[2] = {0.0f, 1.0f};
  maniQuat q1 = maniQuat{0.2f, 0.1f, 0.3f, 0.92f};
  const float rv[8] = {0, 0, 0, 1, q1.x, q1.y, q1.z, q1.w};
  const float tv[6] = {0.1f, 1.0f, 0.05f, 1.1f, 1.0f, 0.05f};
  maniClipSourceChannel ch[2] = {{2, maniChannelRotation, maniInterpolationLinear, 2, times, rv},
                                 {0, maniChannelTranslation, maniInterpolationLinear, 2, times, tv}};
  maniRootMotionSource root = {0, MANI_ROOT_MOTION_X};
  maniClipSource cs;
  memset(&cs, 0, sizeof cs);
  cs.skeleton = &a.s;
  cs.duration = 1.0f;
  cs.sampleRate = 10.0f;
  cs.channels = ch;
  cs.channelCount = 2;
  cs.rootMotion = &root;
  Builder bl;
  ASSERT_EQ(maniBuildClip(bl.b, &cs).result, mani_success);
  ClipFile clip;
  ASSERT_TRUE(OpenBuilt(bl, &clip));
  ClipFile out = Retargeted(map, &a.s, &b.s, &clip.c);
  ASSERT_NE(out.file.size, 0u);
  maniRootMotionSource got;
  ASSERT_TRUE(maniClip_GetRootMotionSource(&out.c, &got));
  EXPECT_EQ(got.bone, 1u);
  EXPECT_EQ(got.flags, (uint32_t)MANI_ROOT_MOTION_Y);
  // The source's move along x (1 over the clip) is, in the target parent's
  // frame turned a quarter about z, a move along -y.
  maniRootMove m;
  ASSERT_EQ(maniClip_GetRootMotion(&out.c, 0.0f, 1.0f, &m), mani_success);
  EXPECT_NEAR(m.translation.x, 0.0, 1e-6);
  EXPECT_NEAR(m.translation.y, -1.0, 1e-6);
  EXPECT_NEAR(m.translation.z, 0.0, 1e-6);
  // The root's channels sit at the target rest: sampling gives the rest bits.
  Pose p(&b.s);
  for (float t : GridTimes(&clip.c)) {
    ASSERT_EQ(maniClip_Sample(&out.c, &b.s, t, p.p), mani_success);
    EXPECT_TRUE(SameBits(maniPose_GetLocal(p.p, 0), maniSkeleton_GetRest(&b.s, 0))) << t;
  }
  // The chest: its model rotation the source chest's (q1, the source's
  // references all unturned) times the target reference's model rotation
  // (the root's quarter turn R), taken against the mover's model (R, the
  // hips unturned): conj(R) q1 R.
  ASSERT_EQ(maniClip_Sample(&out.c, &b.s, 1.0f, p.p), mani_success);
  const Q64 quarter = Of(b.rests[0].rotation);
  const Q64 want = Mul(Mul(Conj(quarter), Unit(Of(q1))), quarter);
  EXPECT_LT(Angle(Of(maniPose_GetLocal(p.p, 2).rotation), want), 1e-5);
}

TEST(RetargetClipRefusals, NullsSkeletonsClipsRootMotionAndBasis) {
  Rig a = Humanoid(2, 1.0f, "", false), b = Humanoid(2, 1.5f, "t_", false), c = Humanoid(3, 1.0f, "", true);
  std::vector<maniRetargetPair> pairs;
  for (uint32_t i = 1; i < 14; ++i) pairs.push_back({i, i, 1.0f, maniRetargetTranslationOwn, false});
  maniRetargetMapSource msrc = Source(a, b);
  msrc.pairs = pairs.data();
  msrc.pairCount = (uint32_t)pairs.size();
  Map map = BuildMap(msrc);  // no bone follows the hips
  ClipFile clip = FixtureClip(4, &a.s, 0, maniAdditiveNone);
  ClipFile rooted = FixtureClip(4, &a.s, MANI_FIXTURE_CLIP_ROOT_MOTION, maniAdditiveNone);
  ClipFile other = FixtureClip(4, &c.s, 0, maniAdditiveNone);
  Builder bl;
  maniRetargetClipSource src = {&map.m, &a.s, &b.s, &clip.c};
  ASSERT_EQ(maniBuildRetargetedClip(bl.b, &src).result, mani_success);
  File held = bl.Built();
  auto expect = [&](maniBuilder* builder, const maniRetargetClipSource* s, maniResult result, uint32_t reason, uint64_t item,
                    uint64_t otherWant) {
    ExpectBuildRefusedKeeping(bl, held, builder != nullptr, maniBuildRetargetedClip(builder, s), result, reason, item, otherWant);
  };
  expect(nullptr, &src, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  expect(bl.b, nullptr, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  maniRetargetClipSource s = src;
  s.map = nullptr;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.source = nullptr;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.target = nullptr;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.clip = nullptr;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.source = &c.s;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonRetargetClip, 0, 0);
  s = src;
  s.target = &c.s;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonRetargetClip, 0, 1);
  s = src;
  s.clip = &other.c;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonRetargetClip, 0, 2);
  maniClip zero;
  memset(&zero, 0, sizeof zero);
  s = src;
  s.clip = &zero;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonRetargetClip, 0, 2);
  maniRetargetMap unopened;
  memset(&unopened, 0, sizeof unopened);
  s = src;
  s.map = &unopened;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonRetargetClip, 0, 0);
  // Root motion of the hips, which no target bone follows alone.
  s = src;
  s.clip = &rooted.c;
  expect(bl.b, &s, mani_errorInvalid, maniBuildReasonRootMotion, MANI_NO_BONE, 0);
  // An additive clip onto a target whose reference has a scale of 0: the
  // difference from the rest carried is not finite.
  Rig flat;
  flat.Add("Hips", MANI_NO_BONE, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}});
  flat.Add("Spine", 0, {{0, 0.5f, 0}, {0, 0, 0, 1}, {1, 0, 1}});
  flat.Build();
  maniRetargetMapSource fsrc = Source(a, flat);
  fsrc.matchNames = true;
  Map fmap = BuildMap(fsrc);
  const float times[2] = {0.0f, 1.0f}, values[6] = {0, 0, 0, 0.5f, 0, 0};
  maniClipSourceChannel ch = {0, maniChannelTranslation, maniInterpolationLinear, 2, times, values};
  maniClipSource cs;
  memset(&cs, 0, sizeof cs);
  cs.skeleton = &a.s;
  cs.duration = 1.0f;
  cs.sampleRate = 4.0f;
  cs.additive = maniAdditiveRest;
  cs.channels = &ch;
  cs.channelCount = 1;
  Builder cb;
  ASSERT_EQ(maniBuildClip(cb.b, &cs).result, mani_success);
  ClipFile additive;
  ASSERT_TRUE(OpenBuilt(cb, &additive));
  maniRetargetClipSource as = {&fmap.m, &a.s, &flat.s, &additive.c};
  maniBuildResult r = maniBuildRetargetedClip(bl.b, &as);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonBasis);
  EXPECT_EQ(r.item, 1u);
  EXPECT_EQ(r.other, 0u);
}

}  // namespace
