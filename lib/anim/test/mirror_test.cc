// Mirror maps (mirror.h, mirrorbuild.h): building from pairs and rules,
// opening with every check, mirroring poses, root moves and names.
// Expected values come from the reflection's definition (a sign flip of the
// normal component), computed here independently in binary64.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "lib/core/json/json.h"
#include "maul/anim/blend.h"
#include "maul/anim/clip.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/pose.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

// Deterministic numbers in [lo, hi) (not std's distributions, which vary).
struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  double U(double lo, double hi) { return lo + (hi - lo) * (double)(g() >> 11) * (1.0 / 9007199254740992.0); }
  maniQuat Q() {
    double v[4], len = 0;
    do {
      len = 0;
      for (double& x : v) {
        x = U(-1, 1);
        len += x * x;
      }
    } while (len < 0.01 || len > 1);
    len = std::sqrt(len);
    return maniQuat{(float)(v[0] / len), (float)(v[1] / len), (float)(v[2] / len), (float)(v[3] / len)};
  }
  maniVec3 V(double r) { return maniVec3{(float)U(-r, r), (float)U(-r, r), (float)U(-r, r)}; }
};

maniQuat Reflect(maniQuat q, uint32_t axis) {
  if (axis != 0) q.x = -q.x;
  if (axis != 1) q.y = -q.y;
  if (axis != 2) q.z = -q.z;
  return q;
}
maniVec3 Reflect(maniVec3 v, uint32_t axis) {
  float* c[3] = {&v.x, &v.y, &v.z};
  *c[axis] = -*c[axis];
  return v;
}
// Binary64 quaternion product (b first).
maniQuat Mul(maniQuat a, maniQuat b) {
  double ax = a.x, ay = a.y, az = a.z, aw = a.w, bx = b.x, by = b.y, bz = b.z, bw = b.w;
  double x = aw * bx + ax * bw + ay * bz - az * by, y = aw * by - ax * bz + ay * bw + az * bx;
  double z = aw * bz + ax * by - ay * bx + az * bw, w = aw * bw - ax * bx - ay * by - az * bz;
  double l = std::sqrt(x * x + y * y + z * z + w * w);
  return maniQuat{(float)(x / l), (float)(y / l), (float)(z / l), (float)(w / l)};
}

struct Bone {
  std::string name;
  uint32_t parent;
  maniTransform rest;
};

// A skeleton built from bones listed depth-first (so source order is the
// skeleton's order).
struct Rig {
  File file;
  maniSkeleton s;
  std::vector<Bone> bones;
  void Build() {
    std::vector<maniSkeletonSourceBone> src;
    for (const Bone& b : bones) src.push_back({b.name.data(), b.name.size(), b.parent, b.rest});
    maniSkeletonSource source = {src.data(), (uint32_t)src.size()};
    Builder b;
    ASSERT_EQ(maniBuildSkeleton(b.b, &source).result, mani_success);
    file = b.Built();
    ASSERT_EQ(maniOpenSkeleton(file.data(), file.size, &s).result, mani_success);
    for (uint32_t i = 0; i < bones.size(); ++i)
      ASSERT_EQ(maniSkeleton_FindBone(&s, bones[i].name.data(), bones[i].name.size()), i);
  }
  uint32_t Find(const std::string& n) const { return maniSkeleton_FindBone(&s, n.data(), n.size()); }
};

// A rotation that is its own mirror across the plane normal to axis: a turn
// about the normal.
maniQuat SymmetricTurn(Rng& r, uint32_t axis) {
  double a = r.U(-1.5, 1.5);
  maniQuat q = {0, 0, 0, (float)std::cos(a)};
  float* c[3] = {&q.x, &q.y, &q.z};
  *c[axis] = (float)std::sin(a);
  return q;
}

// A symmetric rig: Hips and Spine on the plane, `chains` chains of `length`
// bones each side, Right_c_j the mirror of Left_c_j. With extraTurns, the
// right bones' axes are not mirrored: their rests take a further turn (so
// corrections are not the identity); scales are then uniform.
Rig SymmetricRig(uint64_t seed, uint32_t axis, uint32_t chains, uint32_t length, bool extraTurns = false) {
  Rng r(seed);
  Rig rig;
  maniVec3 t0 = Reflect(r.V(1), axis);
  float* c0[3] = {&t0.x, &t0.y, &t0.z};
  *c0[axis] = 0;
  rig.bones.push_back({"Hips", MANI_NO_BONE, {t0, SymmetricTurn(r, axis), {1, 1, 1}}});
  maniVec3 t1 = r.V(1);
  float* c1[3] = {&t1.x, &t1.y, &t1.z};
  *c1[axis] = 0;
  rig.bones.push_back({"Spine", 0, {t1, SymmetricTurn(r, axis), {1, 1, 1}}});
  for (uint32_t c = 0; c < chains; ++c) {
    std::vector<maniTransform> left;
    for (uint32_t j = 0; j < length; ++j) {
      float u = (float)r.U(0.5, 2);
      maniVec3 sc = extraTurns ? maniVec3{u, u, u} : maniVec3{(float)r.U(0.5, 2), (float)r.U(0.5, 2), (float)r.U(0.5, 2)};
      left.push_back({r.V(2), r.Q(), sc});
    }
    const uint32_t first = (uint32_t)rig.bones.size();
    for (uint32_t j = 0; j < length; ++j)
      rig.bones.push_back({"Left_" + std::to_string(c) + "_" + std::to_string(j), j == 0 ? 1u : first + j - 1, left[j]});
    const uint32_t firstRight = (uint32_t)rig.bones.size();
    for (uint32_t j = 0; j < length; ++j) {
      maniTransform t = left[j];
      t.translation = Reflect(t.translation, axis);
      t.rotation = Reflect(t.rotation, axis);
      if (extraTurns) t.rotation = Mul(t.rotation, r.Q());
      rig.bones.push_back({"Right_" + std::to_string(c) + "_" + std::to_string(j), j == 0 ? 1u : firstRight + j - 1, t});
    }
  }
  rig.Build();
  return rig;
}

const maniMirrorRule kLeftRight[2] = {
    {"Left", 4, "Right", 5, maniMirrorRulePrefix},
    {"Right", 5, "Left", 4, maniMirrorRulePrefix},
};

maniMirrorMapSource RuleSource(const Rig& rig, uint32_t axis) {
  maniMirrorMapSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &rig.s;
  src.axis = axis;
  src.rules = kLeftRight;
  src.ruleCount = 2;
  return src;
}

struct Map {
  File file;
  maniMirrorMap m;
};

Map BuildMap(const maniMirrorMapSource& src) {
  Map map;
  Builder b;
  maniBuildResult r = maniBuildMirrorMap(b.b, &src);
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  if (r.result != mani_success) return map;
  map.file = b.Built();
  maniFileResult o = maniOpenMirrorMap(map.file.data(), map.file.size, &map.m);
  EXPECT_EQ(o.result, mani_success) << o.offset;
  return map;
}

void RandomPose(Rng& r, maniPose* p, uint32_t n, bool uniformScale) {
  for (uint32_t i = 0; i < n; ++i) {
    float u = (float)r.U(0.5, 2);
    maniVec3 sc = uniformScale ? maniVec3{u, u, u} : maniVec3{(float)r.U(0.5, 2), (float)r.U(0.5, 2), (float)r.U(0.5, 2)};
    maniPose_SetLocal(p, i, maniTransform{r.V(3), r.Q(), sc});
  }
}

bool SameBits(const maniTransform& a, const maniTransform& b) { return memcmp(&a, &b, sizeof a) == 0; }

double Near(double a, double b) { return std::fabs(a - b) / (1.0 + std::fabs(a) + std::fabs(b)); }

// -- Pairing -----------------------------------------------------------------------

TEST(MirrorMap, RulesPairLeftAndRightAndCenterBonesStay) {
  Rig rig = SymmetricRig(1, 0, 2, 3);
  Map map = BuildMap(RuleSource(rig, 0));
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
  EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, rig.Find("Hips")), rig.Find("Hips"));
  EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, rig.Find("Spine")), rig.Find("Spine"));
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t j = 0; j < 3; ++j) {
      std::string l = "Left_" + std::to_string(c) + "_" + std::to_string(j), rr = "Right_" + std::to_string(c) + "_" + std::to_string(j);
      EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, rig.Find(l)), rig.Find(rr));
      EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, rig.Find(rr)), rig.Find(l));
    }
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(maniMirrorMap_GetBoneFlags(&map.m, i), 0u) << i;
  EXPECT_EQ(maniMirrorMap_GetUnmatchedBone(&map.m), MANI_NO_BONE);
  EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, n), MANI_NO_BONE);
  EXPECT_EQ(maniMirrorMap_GetPartner(nullptr, 0), MANI_NO_BONE);
  EXPECT_EQ(maniMirrorMap_GetSkeletonIdentity(&map.m), maniSkeleton_GetIdentity(&rig.s));
  EXPECT_NE(maniMirrorMap_GetIdentity(&map.m), 0u);
  EXPECT_EQ(maniMirrorMap_GetIdentity(nullptr), 0u);
  EXPECT_EQ(maniMirrorMap_GetAxis(&map.m), maniMirrorAxisX);
  EXPECT_EQ(maniMirrorMap_GetAxis(nullptr), maniMirrorAxisX);
}

TEST(MirrorMap, ExplicitPairsWinOverRulesAndSuffixAnywhereRulesPair) {
  Rig rig;
  maniTransform id = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
  rig.bones = {{"root", MANI_NO_BONE, id}, {"arm.L", 0, id}, {"arm.R", 0, id}, {"xLx", 0, id}, {"xRx", 0, id},
               {"Left_a", 0, id}, {"Right_a", 0, id}};
  rig.Build();
  maniMirrorRule rules[6] = {{".L", 2, ".R", 2, maniMirrorRuleSuffix}, {".R", 2, ".L", 2, maniMirrorRuleSuffix},
                             {"L", 1, "R", 1, maniMirrorRuleAnywhere}, {"R", 1, "L", 1, maniMirrorRuleAnywhere},
                             kLeftRight[0], kLeftRight[1]};
  maniMirrorBonePair pairs[1] = {{5, 5}}; // Left_a stays itself
  maniMirrorMapSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &rig.s;
  src.rules = rules;
  src.ruleCount = 6;
  src.pairs = pairs;
  src.pairCount = 1;
  // Right_a's rule partner (Left_a, by rule 5: "Light_a" of rule 3 is no
  // bone) is explicitly paired: refused.
  Builder b;
  maniBuildResult r = maniBuildMirrorMap(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorRule);
  EXPECT_EQ(r.item, 5u);
  maniMirrorBonePair pairs2[1] = {{5, 6}};
  src.pairs = pairs2;
  Map map = BuildMap(src);
  EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, 1), 2u);
  EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, 3), 4u);
  EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, 5), 6u);
  EXPECT_EQ(maniMirrorMap_GetPartner(&map.m, 0), 0u);
}

// -- Mirroring poses ------------------------------------------------------------------

TEST(MirrorPose, TwiceGivesEveryPoseBackBitForBit) {
  for (uint32_t axis = 0; axis < 3; ++axis) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      Rig rig = SymmetricRig(seed * 7 + axis, axis, 3, 4);
      Map map = BuildMap(RuleSource(rig, axis));
      const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
      Pose in(&rig.s), once(&rig.s), twice(&rig.s);
      Rng r(seed);
      for (int trial = 0; trial < 20; ++trial) {
        RandomPose(r, in.p, n, false);
        ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, in.p, once.p), mani_success);
        ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, once.p, twice.p), mani_success);
        EXPECT_FALSE(maniPose_IsModelCurrent(twice.p));
        for (uint32_t i = 0; i < n; ++i)
          ASSERT_TRUE(SameBits(maniPose_GetLocal(in.p, i), maniPose_GetLocal(twice.p, i))) << axis << " " << seed << " " << i;
        // In place gives the same bits as into another pose.
        ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, in.p, in.p), mani_success);
        for (uint32_t i = 0; i < n; ++i) ASSERT_TRUE(SameBits(maniPose_GetLocal(in.p, i), maniPose_GetLocal(once.p, i)));
      }
    }
  }
}

// Each bone's model position is its partner's reflected, and its model
// linear part its partner's conjugated by the reflection (mirrored axes).
void ExpectModelsReflected(const Rig& rig, const Map& map, uint32_t axis, const Pose& in, const Pose& out,
                           bool linearToo) {
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = maniMirrorMap_GetPartner(&map.m, i);
    maniAffine a = maniPose_GetModel(in.p, p), b = maniPose_GetModel(out.p, i);
    for (uint32_t col = 0; col < 4; ++col) {
      if (col < 3 && !linearToo) continue;
      const float* ca = &a.columns[col].x;
      const float* cb = &b.columns[col].x;
      for (uint32_t row = 0; row < 3; ++row) {
        double sign = (row == axis) != (col == axis && col < 3) ? -1.0 : 1.0;
        EXPECT_LT(Near(cb[row], sign * ca[row]), 2e-5) << "bone " << i << " col " << col << " row " << row;
      }
    }
  }
}

TEST(MirrorPose, ModelsAreThePartnersReflectedOnMirroredAxes) {
  for (uint32_t axis = 0; axis < 3; ++axis) {
    Rig rig = SymmetricRig(100 + axis, axis, 2, 5);
    Map map = BuildMap(RuleSource(rig, axis));
    const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
    Pose in(&rig.s), out(&rig.s);
    Rng r(axis);
    for (int trial = 0; trial < 10; ++trial) {
      RandomPose(r, in.p, n, false);
      ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, in.p, out.p), mani_success);
      ASSERT_EQ(maniPose_ComputeModel(in.p, &rig.s), mani_success);
      ASSERT_EQ(maniPose_ComputeModel(out.p, &rig.s), mani_success);
      ExpectModelsReflected(rig, map, axis, in, out, true);
    }
  }
}

TEST(MirrorPose, AxesNotMirroredKeepTheReferenceAndReflectPositions) {
  for (uint32_t axis = 0; axis < 3; ++axis) {
    Rig rig = SymmetricRig(200 + axis, axis, 2, 4, true);
    Map map = BuildMap(RuleSource(rig, axis));
    const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
    uint32_t corrected = 0;
    for (uint32_t i = 0; i < n; ++i) corrected += (maniMirrorMap_GetBoneFlags(&map.m, i) & MANI_MIRROR_BONE_SCALE_APPROXIMATE) != 0;
    EXPECT_GT(corrected, 0u); // random turns take axes off the axes
    Pose rest(&rig.s), out(&rig.s);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, rest.p, out.p), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(out.p, &rig.s), mani_success);
    for (uint32_t i = 0; i < n; ++i) {
      // The rest's model rotations stay.
      maniAffine a = maniPose_GetModel(rest.p, i), b = maniPose_GetModel(out.p, i);
      for (uint32_t col = 0; col < 3; ++col)
        for (uint32_t row = 0; row < 3; ++row)
          EXPECT_LT(Near((&b.columns[col].x)[row], (&a.columns[col].x)[row]), 2e-5) << i;
    }
    Pose in(&rig.s);
    Rng r(axis + 9);
    RandomPose(r, in.p, n, true);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, in.p, out.p), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(in.p, &rig.s), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(out.p, &rig.s), mani_success);
    ExpectModelsReflected(rig, map, axis, in, out, false);
  }
}

TEST(MirrorPose, AQuarterTurnPermutesTheScaleExactly) {
  Rig rig;
  const float h = (float)std::sqrt(0.5);
  rig.bones = {{"root", MANI_NO_BONE, {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
               {"Left", 0, {{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
               {"Right", 0, {{-1, 0, 0}, {0, 0, h, h}, {1, 1, 1}}}}; // a quarter turn about z
  rig.Build();
  Map map = BuildMap(RuleSource(rig, 0));
  EXPECT_EQ(maniMirrorMap_GetBoneFlags(&map.m, 2), 0u);
  Pose in(&rig.s), out(&rig.s);
  maniPose_SetLocal(in.p, 1, maniTransform{{1, 0, 0}, {0, 0, 0, 1}, {2, 3, 5}});
  ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, in.p, out.p), mani_success);
  // Right's x axis lies along Left's mirrored y axis, and its y along x.
  maniTransform t = maniPose_GetLocal(out.p, 2);
  EXPECT_EQ(t.scale.x, 3.0f);
  EXPECT_EQ(t.scale.y, 2.0f);
  EXPECT_EQ(t.scale.z, 5.0f);
}

TEST(MirrorPose, UnmatchedBonesAreRecordedAndTakeTheLocalTurn) {
  Rig rig;
  Rng r(5);
  maniTransform id = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
  maniTransform l = {{1, 2, 3}, r.Q(), {1, 1, 1}};
  maniTransform rt = l;
  rt.translation = Reflect(l.translation, 0);
  rt.rotation = Mul(Reflect(l.rotation, 0), r.Q());
  rig.bones = {{"root", MANI_NO_BONE, id}, {"spine", 0, {{0, 1, 0}, {0.3f, 0, 0, 0.9539392f}, {1, 1, 1}}},
               {"Left", 1, l}, {"Right", 0, rt}};
  rig.Build();
  Map map = BuildMap(RuleSource(rig, 0));
  EXPECT_EQ(maniMirrorMap_GetUnmatchedBone(&map.m), 2u);
  EXPECT_NE(maniMirrorMap_GetBoneFlags(&map.m, 2) & MANI_MIRROR_BONE_UNMATCHED, 0u);
  EXPECT_NE(maniMirrorMap_GetBoneFlags(&map.m, 3) & MANI_MIRROR_BONE_UNMATCHED, 0u);
  EXPECT_EQ(maniMirrorMap_GetBoneFlags(&map.m, 1) & MANI_MIRROR_BONE_UNMATCHED, 0u);
  Pose rest(&rig.s), out(&rig.s);
  ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, rest.p, out.p), mani_success);
  for (uint32_t i = 2; i < 4; ++i) {
    maniQuat a = maniPose_GetLocal(rest.p, i).rotation, b = maniPose_GetLocal(out.p, i).rotation;
    double dot = (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w;
    EXPECT_GT(std::fabs(dot), 1 - 1e-6) << i;
  }
}

TEST(MirrorPose, RefusesWrongArgumentsAndLeavesTheOutputUnchanged) {
  Rig rig = SymmetricRig(3, 0, 1, 2);
  Rig other = SymmetricRig(4, 0, 1, 2);
  Map map = BuildMap(RuleSource(rig, 0));
  Pose in(&rig.s), out(&rig.s), foreign(&other.s);
  Rng r(1);
  RandomPose(r, out.p, maniSkeleton_GetBoneCount(&rig.s), false);
  const std::vector<uint8_t> before = out.Bytes();
  EXPECT_EQ(maniMirrorMap_MirrorPose(nullptr, &rig.s, in.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&map.m, nullptr, in.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, nullptr, out.p), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, in.p, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&map.m, &other.s, in.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, foreign.p, out.p), mani_errorInvalid);
  maniMirrorMap zero;
  memset(&zero, 0, sizeof zero);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&zero, &rig.s, in.p, out.p), mani_errorInvalid);
  // A difference.
  Pose diff(&rig.s);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&rig.s, in.p, in.p, diff.p), mani_success);
  ASSERT_TRUE(maniPose_IsDifference(diff.p));
  EXPECT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, diff.p, out.p), mani_errorInvalid);
  EXPECT_EQ(out.Bytes(), before);
}

// -- Root motion and names ---------------------------------------------------------------

TEST(MirrorRootMotion, NegatesTheNormalAndMirrorsTheTurn) {
  for (uint32_t axis = 0; axis < 3; ++axis) {
    Rig rig = SymmetricRig(9, axis, 1, 1);
    Map map = BuildMap(RuleSource(rig, axis));
    Rng r(axis);
    maniRootMove m = {r.V(5), r.Q()};
    maniRootMove o = maniMirrorMap_MirrorRootMotion(&map.m, m);
    const float* t = &m.translation.x;
    const float* u = &o.translation.x;
    const float* q = &m.rotation.x;
    const float* w = &o.rotation.x;
    for (uint32_t k = 0; k < 3; ++k) {
      EXPECT_EQ(u[k], k == axis ? -t[k] : t[k]);
      EXPECT_EQ(w[k], k == axis ? q[k] : -q[k]);
    }
    EXPECT_EQ(o.rotation.w, m.rotation.w);
    maniRootMove back = maniMirrorMap_MirrorRootMotion(&map.m, o);
    EXPECT_EQ(memcmp(&back, &m, sizeof m), 0);
  }
}

TEST(MirrorName, PairsBothWaysAndLeavesOthers) {
  Rig rig = SymmetricRig(11, 0, 1, 1);
  maniMirrorMapSource src = RuleSource(rig, 0);
  maniMirrorNamePair pairs[1] = {{"footstep_l", 10, "footstep_r", 10}};
  maniMirrorName names[3] = {{"LeftGrip", 8}, {"RightGrip", 9}, {"Center", 6}};
  src.namePairs = pairs;
  src.namePairCount = 1;
  src.names = names;
  src.nameCount = 3;
  Map map = BuildMap(src);
  auto mirrored = [&](const char* s) {
    size_t len = 0;
    const char* p = maniMirrorMap_MirrorName(&map.m, s, strlen(s), &len);
    return std::string(p, len);
  };
  EXPECT_EQ(mirrored("footstep_l"), "footstep_r");
  EXPECT_EQ(mirrored("footstep_r"), "footstep_l");
  EXPECT_EQ(mirrored("LeftGrip"), "RightGrip");
  EXPECT_EQ(mirrored("RightGrip"), "LeftGrip");
  EXPECT_EQ(mirrored("Center"), "Center");
  EXPECT_EQ(mirrored("LeftFoot"), "LeftFoot"); // not listed: unpaired
  const char* self = "abc";
  size_t len = 0;
  EXPECT_EQ(maniMirrorMap_MirrorName(&map.m, self, 3, &len), self);
  EXPECT_EQ(maniMirrorMap_MirrorName(nullptr, self, 3, &len), self);
  EXPECT_EQ(len, 3u);
  const uint64_t hl = maniHash64(UINT64_C(0x6D616E692D6E616D), "footstep_l", 10);
  const uint64_t hr = maniHash64(UINT64_C(0x6D616E692D6E616D), "footstep_r", 10);
  EXPECT_EQ(maniMirrorMap_MirrorNameHash(&map.m, hl), hr);
  EXPECT_EQ(maniMirrorMap_MirrorNameHash(&map.m, hr), hl);
  EXPECT_EQ(maniMirrorMap_MirrorNameHash(&map.m, 12345), 12345u);
  EXPECT_EQ(maniMirrorMap_MirrorNameHash(nullptr, hl), hl);
}

// -- Build refusals ------------------------------------------------------------------------

struct Refusal {
  maniResult result;
  uint32_t reason;
  uint64_t item, other;
};

void ExpectRefused(const maniMirrorMapSource& src, Refusal want) {
  Builder b;
  // The builder keeps what it held on failure.
  Rig keep = SymmetricRig(77, 0, 1, 1);
  maniMirrorMapSource good = RuleSource(keep, 0);
  ASSERT_EQ(maniBuildMirrorMap(b.b, &good).result, mani_success);
  File before = b.Built();
  maniBuildResult r = maniBuildMirrorMap(b.b, &src);
  EXPECT_EQ(r.result, want.result);
  EXPECT_EQ(r.reason, want.reason);
  EXPECT_EQ(r.item, want.item);
  EXPECT_EQ(r.other, want.other);
  File after = b.Built();
  ASSERT_EQ(after.size, before.size);
  EXPECT_EQ(memcmp(after.data(), before.data(), before.size), 0);
}

TEST(MirrorBuildRefusals, NullArguments) {
  Rig rig = SymmetricRig(1, 0, 1, 1);
  maniMirrorMapSource src = RuleSource(rig, 0);
  maniBuildResult r = maniBuildMirrorMap(nullptr, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  Builder b;
  r = maniBuildMirrorMap(b.b, nullptr);
  EXPECT_EQ(r.result, mani_errorInvalid);
  maniMirrorMapSource noSkeleton = src;
  noSkeleton.skeleton = nullptr;
  ExpectRefused(noSkeleton, {mani_errorInvalid, maniBuildReasonNone, 0, 0});
  maniMirrorMapSource noList = src;
  noList.rules = nullptr;
  ExpectRefused(noList, {mani_errorInvalid, maniBuildReasonNone, 0, 0});
  noList = src;
  noList.pairCount = 1;
  ExpectRefused(noList, {mani_errorInvalid, maniBuildReasonNone, 0, 0});
  noList = src;
  noList.namePairCount = 1;
  ExpectRefused(noList, {mani_errorInvalid, maniBuildReasonNone, 0, 0});
  noList = src;
  noList.nameCount = 2;
  ExpectRefused(noList, {mani_errorInvalid, maniBuildReasonNone, 0, 0});
}

TEST(MirrorBuildRefusals, UnknownAxis) {
  Rig rig = SymmetricRig(1, 0, 1, 1);
  maniMirrorMapSource src = RuleSource(rig, 0);
  src.axis = 3;
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonOption, 0, 0});
}

TEST(MirrorBuildRefusals, Reference) {
  Rig rig = SymmetricRig(1, 0, 1, 2);
  maniMirrorMapSource src = RuleSource(rig, 0);
  std::vector<maniTransform> ref(maniSkeleton_GetBoneCount(&rig.s));
  for (uint32_t i = 0; i < ref.size(); ++i) ref[i] = maniSkeleton_GetRest(&rig.s, i);
  src.reference = ref.data();
  ref[3].scale.y = INFINITY;
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorReference, 3, 0});
  ref[3].scale.y = 1;
  ref[2].rotation = maniQuat{0, 0, 0, 0};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorReference, 2, 0});
  ref[2].translation.x = NAN;
  ref[1].rotation.w = NAN;
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorReference, 1, 0});
}

TEST(MirrorBuildRefusals, Rules) {
  Rig rig = SymmetricRig(1, 0, 1, 1);
  maniMirrorMapSource src = RuleSource(rig, 0);
  std::string longText(MANI_MAX_NAME_BYTES + 1, 'a');
  maniMirrorRule rules[3] = {kLeftRight[0], kLeftRight[1], {"x", 1, "y", 1, maniMirrorRulePrefix}};
  src.rules = rules;
  src.ruleCount = 3;
  rules[2].place = 3;
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorRule, 2, 0});
  rules[2] = {"", 0, "y", 1, maniMirrorRulePrefix};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorRule, 2, 0});
  rules[2] = {"\xff", 1, "y", 1, maniMirrorRulePrefix};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorRule, 2, 0});
  rules[2] = {"x", 1, "\xc3", 1, maniMirrorRulePrefix};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorRule, 2, 0});
  rules[2] = {"x", 1, nullptr, 1, maniMirrorRulePrefix};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorRule, 2, 0});
  rules[2] = {longText.data(), longText.size(), "y", 1, maniMirrorRulePrefix};
  ExpectRefused(src, {mani_errorLimit, maniBuildReasonMirrorRule, 2, 0});
  rules[2] = {"x", 1, longText.data(), longText.size(), maniMirrorRulePrefix};
  ExpectRefused(src, {mani_errorLimit, maniBuildReasonMirrorRule, 2, 0});
  // A partner that does not pair back: Left -> Right, but Right -> nothing.
  src.ruleCount = 1;
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorRule, 0, 0});
}

TEST(MirrorBuildRefusals, Pairs) {
  Rig rig = SymmetricRig(1, 0, 1, 1);
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
  maniMirrorMapSource src = RuleSource(rig, 0);
  maniMirrorBonePair pairs[2] = {{0, 0}, {1, n}};
  src.pairs = pairs;
  src.pairCount = 2;
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorPair, 1, n});
  pairs[1] = {n + 5, 1};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorPair, n + 5, 1});
  pairs[1] = {2, 0}; // bone 0 already paired
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorPair, 2, 0});
}

TEST(MirrorBuildRefusals, Names) {
  Rig rig = SymmetricRig(1, 0, 1, 1);
  maniMirrorMapSource src = RuleSource(rig, 0);
  std::string longText(MANI_MAX_NAME_BYTES + 1, 'a');
  maniMirrorNamePair pairs[2] = {{"a", 1, "b", 1}, {"c", 1, "d", 1}};
  maniMirrorName names[2] = {{"e", 1}, {"f", 1}};
  src.namePairs = pairs;
  src.namePairCount = 2;
  src.names = names;
  src.nameCount = 2;
  {
    Builder b;
    EXPECT_EQ(maniBuildMirrorMap(b.b, &src).result, mani_success);
  }
  pairs[1] = {"c", 1, "", 0};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorName, 3, 0});
  pairs[1] = {"\x80", 1, "d", 1};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorName, 2, 0});
  pairs[1] = {longText.data(), longText.size(), "d", 1};
  ExpectRefused(src, {mani_errorLimit, maniBuildReasonMirrorName, 2, 0});
  pairs[1] = {"c", 1, "d", 1};
  names[1] = {nullptr, 0};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorName, 5, 0});
  // A partner a rule makes past the bound.
  std::string grow(MANI_MAX_NAME_BYTES - 2, 'z');
  std::string longName = "Left" + grow.substr(0, MANI_MAX_NAME_BYTES - 4);
  names[1] = {longName.data(), longName.size()};
  ExpectRefused(src, {mani_errorLimit, maniBuildReasonMirrorName, 5, 0});
  // A name given two partners: "a" pairs with "b" and (pair 1) with "x".
  names[1] = {"f", 1};
  pairs[1] = {"a", 1, "x", 1};
  ExpectRefused(src, {mani_errorInvalid, maniBuildReasonMirrorName, 2, 0});
  // The same pair given twice is kept once.
  pairs[1] = {"b", 1, "a", 1};
  Builder b;
  EXPECT_EQ(maniBuildMirrorMap(b.b, &src).result, mani_success);
}

// Many names paired by a rule, found both ways. (The maniBuildReasonNameHash
// refusal needs two names of one 64-bit hash, which no test can search for;
// it is not exercised here.)
TEST(MirrorName, ManyNamesPairByARule) {
  std::vector<std::string> keep;
  for (int i = 0; i < 200; ++i) keep.push_back("n" + std::to_string(i));
  std::vector<maniMirrorName> names;
  for (const std::string& s : keep) names.push_back({s.data(), s.size()});
  Rig rig = SymmetricRig(1, 0, 1, 1);
  maniMirrorMapSource src = RuleSource(rig, 0);
  maniMirrorRule rules[1] = {{"n", 1, "m", 1, maniMirrorRulePrefix}};
  src.rules = rules;
  src.ruleCount = 1;
  src.names = names.data();
  src.nameCount = (uint32_t)names.size();
  Map map = BuildMap(src);
  size_t len = 0;
  const char* p = maniMirrorMap_MirrorName(&map.m, "n17", 3, &len);
  EXPECT_EQ(std::string(p, len), "m17");
  p = maniMirrorMap_MirrorName(&map.m, "m17", 3, &len);
  EXPECT_EQ(std::string(p, len), "n17");
}

// -- The open --------------------------------------------------------------------------------

Map NamedMap() {
  Rig* rig = new Rig(SymmetricRig(21, 2, 1, 2)); // kept alive: the map records its identity only
  maniMirrorMapSource src = RuleSource(*rig, 2);
  static const maniMirrorNamePair pairs[1] = {{"hit_l", 5, "hit_r", 5}};
  static const maniMirrorName names[1] = {{"LeftStep", 8}};
  src.namePairs = pairs;
  src.namePairCount = 1;
  src.names = names;
  src.nameCount = 1;
  Map m = BuildMap(src);
  delete rig;
  return m;
}

TEST(MirrorOpen, EveryTruncationAndBytePatchIsRefused) {
  Map map = NamedMap();
  ExpectEveryMutationRefused(map.file.data(), map.file.size, [](const void* b, size_t n) {
    maniMirrorMap m;
    return maniOpenMirrorMap(b, n, &m);
  });
}

TEST(MirrorOpen, RefusesNullAndMisalignedAndLeavesTheViewUnchanged) {
  Map map = NamedMap();
  maniMirrorMap v;
  memset(&v, 0xA5, sizeof v);
  maniMirrorMap copy = v;
  EXPECT_EQ(maniOpenMirrorMap(nullptr, map.file.size, &v).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenMirrorMap(map.file.data(), map.file.size, nullptr).result, mani_errorInvalid);
  std::vector<uint64_t> shifted(map.file.size / 8 + 4, 0);
  uint8_t* odd = reinterpret_cast<uint8_t*>(shifted.data()) + 8;
  memcpy(odd, map.file.data(), map.file.size);
  EXPECT_EQ(maniOpenMirrorMap(odd, map.file.size, &v).result, mani_errorInvalid);
  File bad;
  bad.Assign(map.file.data(), map.file.size);
  bad.data()[100] ^= 1;
  EXPECT_NE(maniOpenMirrorMap(bad.data(), bad.size, &v).result, mani_success);
  EXPECT_EQ(memcmp(&v, &copy, sizeof v), 0);
}

// Patches a section field, fixes the identity, and expects the open to
// report exactly that field.
TEST(MirrorOpen, ReportsTheFirstWrongFieldOfEachSection) {
  Map map = NamedMap();
  auto sectionOffset = [&](uint32_t i) {
    const uint8_t* t = map.file.data() + 64 + 24 * i + 8;
    uint64_t o = 0;
    memcpy(&o, t, 8);
    return o;
  };
  auto reopen = [&](const std::function<void(uint8_t*)>& patch) {
    File g;
    g.Assign(map.file.data(), map.file.size);
    patch(g.data());
    // Recompute the identity over bytes 64 to the end.
    uint64_t id = maniHash64(UINT64_C(0x4D41554C46494C45) ^ 9u, g.data() + 64, (int64_t)g.size - 64);
    memcpy(g.data() + 32, &id, 8);
    maniMirrorMap m;
    return maniOpenMirrorMap(g.data(), g.size, &m);
  };
  const uint64_t info = sectionOffset(0), partners = sectionOffset(1), flags = sectionOffset(2),
                 corrections = sectionOffset(3), entries = sectionOffset(4);
  maniFileResult r = reopen([&](uint8_t* b) { b[info + 12] = 3; });
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.offset, info + 12);
  r = reopen([&](uint8_t* b) { b[info + 24] = 1; b[info + 25] = b[info + 26] = b[info + 27] = 0; });
  EXPECT_EQ(r.offset, info + 24); // an unmatched bone no flag says
  r = reopen([&](uint8_t* b) { b[partners + 4] = 0; }); // bone 1 paired with 0, which does not pair back
  EXPECT_EQ(r.offset, partners + 4);
  r = reopen([&](uint8_t* b) { b[flags + 4 * 2 + 3] = 0x80; });
  EXPECT_EQ(r.offset, flags + 8);
  r = reopen([&](uint8_t* b) { b[flags + 4 * 2 + 1] = 0; }); // permutation (0, 0, 0)
  EXPECT_EQ(r.offset, flags + 9);
  r = reopen([&](uint8_t* b) { b[corrections + 32 + 16 + 12 + 3] = 0x7F; b[corrections + 32 + 16 + 12 + 2] = 0x80; });
  EXPECT_EQ(r.offset, corrections + 32 + 16 + 12); // an infinite w
  r = reopen([&](uint8_t* b) { b[corrections + 12 + 3] = 0x3F; b[corrections + 12 + 2] = 0x00; b[corrections + 12 + 1] = 0; b[corrections + 12] = 0; });
  EXPECT_EQ(r.offset, corrections); // w = 0.5: not of length 1
  r = reopen([&](uint8_t* b) { b[entries + 32 + 8] ^= 1; }); // the second entry's partner hash
  EXPECT_EQ(r.offset, entries + 32 + 8);
}

// -- The CMU skeleton ------------------------------------------------------------------------

std::string SharedData() { return MaulSharedData(); }

float JsonFloat(const mcore_JsonDoc& d, uint32_t array, uint32_t k, float fallback) {
  if (array == MCORE_JSON_NONE) return fallback;
  uint32_t item = array + 1;
  for (uint32_t i = 0; i < k; ++i) item = mcore_JsonAt(&d, item)->next;
  float f = 0;
  EXPECT_EQ(mcore_JsonGetFloat(&d, item, &f), mcore_jsonOk);
  return f;
}

// The CMU 09_02 skeleton (nodes 1.. are the bones; node 0 the scene root
// holder), read with lib/core/json.
bool CmuRig(Rig* rig) {
  std::string root = SharedData();
  std::ifstream in(root + "/cmu-acl/09_02.gltf", std::ios::binary);
  if (!in) return false;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  mcore_JsonDoc d;
  mcore_JsonResult jr = mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>(text.data()), text.size(), nullptr, &d);
  EXPECT_EQ(jr.reason, mcore_jsonOk);
  if (jr.reason != mcore_jsonOk) return false;
  uint32_t nodes = mcore_JsonFind(&d, 0, "nodes", 5);
  const uint32_t count = mcore_JsonAt(&d, nodes)->count;
  std::vector<uint32_t> parent(count, MANI_NO_BONE);
  std::vector<uint32_t> at(count);
  uint32_t item = nodes + 1;
  for (uint32_t i = 0; i < count; ++i) {
    at[i] = item;
    item = mcore_JsonAt(&d, item)->next;
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t children = mcore_JsonFind(&d, at[i], "children", 8);
    if (children == MCORE_JSON_NONE) continue;
    uint32_t c = children + 1;
    for (uint32_t k = 0; k < mcore_JsonAt(&d, children)->count; ++k) {
      uint64_t v = 0;
      EXPECT_EQ(mcore_JsonGetUint64(&d, c, &v), mcore_jsonOk);
      parent[v] = i;
      c = mcore_JsonAt(&d, c)->next;
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    char name[256];
    size_t len = 0;
    EXPECT_EQ(mcore_JsonGetString(&d, mcore_JsonFind(&d, at[i], "name", 4), name, sizeof name, &len), mcore_jsonOk);
    uint32_t t = mcore_JsonFind(&d, at[i], "translation", 11), r = mcore_JsonFind(&d, at[i], "rotation", 8),
             s = mcore_JsonFind(&d, at[i], "scale", 5);
    maniTransform x = {{JsonFloat(d, t, 0, 0), JsonFloat(d, t, 1, 0), JsonFloat(d, t, 2, 0)},
                       {JsonFloat(d, r, 0, 0), JsonFloat(d, r, 1, 0), JsonFloat(d, r, 2, 0), JsonFloat(d, r, 3, 1)},
                       {JsonFloat(d, s, 0, 1), JsonFloat(d, s, 1, 1), JsonFloat(d, s, 2, 1)}};
    rig->bones.push_back({std::string(name, len), parent[i], x});
  }
  mcore_JsonRelease(&d);
  // Depth-first as listed (the file lists nodes parents first, depth-first).
  for (uint32_t i = 0; i < count; ++i)
    if (rig->bones[i].parent != MANI_NO_BONE && rig->bones[i].parent >= i) return false;
  rig->Build();
  return true;
}

const maniMirrorRule kCmuRules[4] = {
    {"left", 4, "right", 5, maniMirrorRulePrefix},
    {"right", 5, "left", 4, maniMirrorRulePrefix},
    {"l", 1, "r", 1, maniMirrorRulePrefix},
    {"r", 1, "l", 1, maniMirrorRulePrefix},
};

TEST(MirrorCmu, PairsTheLeftAndRightBonesAndSwapsTheFeet) {
  Rig rig;
  if (!CmuRig(&rig)) GTEST_SKIP() << "no ../shared/data/cmu-acl";
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
  ASSERT_EQ(n, 44u);
  // The plane: the axis the two feet's rest positions differ most along.
  Pose rest(&rig.s);
  ASSERT_EQ(maniPose_ComputeModel(rest.p, &rig.s), mani_success);
  const uint32_t lf = rig.Find("lFoot"), rf = rig.Find("rFoot");
  maniVec3 a = maniPose_GetModel(rest.p, lf).columns[3], b = maniPose_GetModel(rest.p, rf).columns[3];
  const double d[3] = {std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z)};
  const uint32_t axis = d[0] >= d[1] && d[0] >= d[2] ? 0 : (d[1] >= d[2] ? 1 : 2);
  maniMirrorMapSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &rig.s;
  src.axis = axis;
  src.rules = kCmuRules;
  src.ruleCount = 4;
  Map map = BuildMap(src);
  uint32_t paired = 0;
  for (uint32_t i = 0; i < n; ++i) {
    size_t len = 0;
    const char* name = maniSkeleton_GetBoneName(&rig.s, i, &len);
    std::string s(name, len);
    const uint32_t p = maniMirrorMap_GetPartner(&map.m, i);
    if (p != i) paired++;
    if (s[0] == 'l' && s != "lightEye") {
      std::string other = s.rfind("left", 0) == 0 ? "right" + s.substr(4) : "r" + s.substr(1);
      EXPECT_EQ(p, rig.Find(other)) << s;
    }
  }
  EXPECT_EQ(paired, 38u); // 19 pairs: the eyes, collar to pinky (14), buttock to foot (4)
  EXPECT_EQ(maniMirrorMap_GetUnmatchedBone(&map.m), MANI_NO_BONE);
  // Poses about the rest: the left foot's model path is the right foot's
  // reflected within binary32 rounding; mirroring twice gives it back.
  Pose in(&rig.s), out(&rig.s), twice(&rig.s);
  Rng r(2024);
  for (int frame = 0; frame < 30; ++frame) {
    for (uint32_t i = 0; i < n; ++i) {
      maniTransform t = maniSkeleton_GetRest(&rig.s, i);
      t.rotation = Mul(t.rotation, maniQuat{(float)r.U(-0.2, 0.2), (float)r.U(-0.2, 0.2), (float)r.U(-0.2, 0.2), 1});
      maniPose_SetLocal(in.p, i, t);
    }
    ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, in.p, out.p), mani_success);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, out.p, twice.p), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(in.p, &rig.s), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(out.p, &rig.s), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(twice.p, &rig.s), mani_success);
    const uint32_t feet[2][2] = {{lf, rf}, {rf, lf}};
    for (const auto& f : feet) {
      maniVec3 got = maniPose_GetModel(out.p, f[0]).columns[3];
      maniVec3 want = Reflect(maniPose_GetModel(in.p, f[1]).columns[3], axis);
      const double scale = 1.0 + std::fabs(want.x) + std::fabs(want.y) + std::fabs(want.z);
      EXPECT_LT(std::fabs(got.x - want.x), 64 * 6e-8 * scale);
      EXPECT_LT(std::fabs(got.y - want.y), 64 * 6e-8 * scale);
      EXPECT_LT(std::fabs(got.z - want.z), 64 * 6e-8 * scale);
    }
    for (uint32_t i = 0; i < n; ++i) {
      maniVec3 p0 = maniPose_GetModel(in.p, i).columns[3], p2 = maniPose_GetModel(twice.p, i).columns[3];
      // Within binary32 rounding of the corrections along the chain,
      // relative to the length of the bone's path from the root.
      double size = 1;
      for (uint32_t b = i; b != MANI_NO_BONE; b = maniSkeleton_GetParent(&rig.s, b)) {
        maniVec3 t = maniSkeleton_GetRest(&rig.s, b).translation;
        size += std::fabs(t.x) + std::fabs(t.y) + std::fabs(t.z);
      }
      EXPECT_LT(std::fabs(p0.x - p2.x) + std::fabs(p0.y - p2.y) + std::fabs(p0.z - p2.z), 4e-6 * size) << i;
    }
  }
}

// -- The JSON form ------------------------------------------------------------------------------

std::string Text(Builder& b) {
  File f = b.Built();
  return std::string(reinterpret_cast<const char*>(f.data()), f.size);
}

// A seeded source with every list: a reference moved off the rest for some
// bones, an explicit pair, rules of each place, name pairs and names.
struct SeededSource {
  Rig rig;
  std::vector<maniTransform> reference;
  std::vector<maniMirrorRule> rules;
  std::vector<maniMirrorBonePair> pairs;
  std::vector<maniMirrorNamePair> namePairs;
  std::vector<maniMirrorName> names;
  maniMirrorMapSource src;
  explicit SeededSource(uint64_t seed) : rig(SymmetricRig(seed, (uint32_t)(seed % 3), 2, 3)) {
    Rng r(seed);
    const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
    for (uint32_t i = 0; i < n; ++i) {
      maniTransform t = maniSkeleton_GetRest(&rig.s, i);
      if (i % 3 == 1) t.rotation = Mul(t.rotation, maniQuat{(float)r.U(-0.1, 0.1), 0, 0, 1});
      if (i % 4 == 2) t.translation.y += (float)r.U(-1, 1);
      reference.push_back(t);
    }
    rules = {kLeftRight[0], kLeftRight[1], {"_l", 2, "_r", 2, maniMirrorRuleSuffix},
             {"_r", 2, "_l", 2, maniMirrorRuleSuffix}, {"Lft", 3, "Rgt", 3, maniMirrorRuleAnywhere}};
    pairs = {{0, 0}};
    namePairs = {{"hit \"a\"", 7, "hit \"b\"", 7}, {"\xc3\xa9t\xc3\xa9", 5, "hiver", 5}};
    names = {{"step_l", 6}, {"LeftGrab", 8}, {"center", 6}};
    memset(&src, 0, sizeof src);
    src.skeleton = &rig.s;
    src.axis = (uint32_t)(seed % 3);
    src.reference = reference.data();
    src.rules = rules.data();
    src.ruleCount = (uint32_t)rules.size();
    src.pairs = pairs.data();
    src.pairCount = (uint32_t)pairs.size();
    src.namePairs = namePairs.data();
    src.namePairCount = (uint32_t)namePairs.size();
    src.names = names.data();
    src.nameCount = (uint32_t)names.size();
  }
};

// The test's own reader of the text form (lib/core/json directly): the
// source the text describes, so that writing it again can be compared.
struct TextSource {
  std::vector<std::string> strings;  // reserved up front: pointers stay
  std::vector<maniTransform> reference;
  std::vector<maniMirrorBonePair> pairs;
  std::vector<maniMirrorRule> rules;
  std::vector<maniMirrorNamePair> namePairs;
  std::vector<maniMirrorName> names;
  maniMirrorMapSource src;
};

bool ReadTextSource(const std::string& text, const maniSkeleton* s, TextSource* out) {
  mcore_JsonDoc d;
  if (mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>(text.data()), text.size(), nullptr, &d).reason != mcore_jsonOk)
    return false;
  out->strings.reserve(text.size());
  auto str = [&](uint32_t t) -> const std::string& {
    char buf[1024];
    size_t len = 0;
    EXPECT_EQ(mcore_JsonGetString(&d, t, buf, sizeof buf, &len), mcore_jsonOk);
    out->strings.emplace_back(buf, len);
    return out->strings.back();
  };
  auto items = [&](uint32_t array) {
    std::vector<uint32_t> v;
    if (array == MCORE_JSON_NONE) return v;
    uint32_t t = array + 1;
    for (uint32_t k = 0; k < mcore_JsonAt(&d, array)->count; ++k) {
      v.push_back(t);
      t = mcore_JsonAt(&d, t)->next;
    }
    return v;
  };
  auto bone = [&](uint32_t t) {
    const std::string& n = str(t);
    return maniSkeleton_FindBone(s, n.data(), n.size());
  };
  const uint32_t n = maniSkeleton_GetBoneCount(s);
  out->reference.resize(n);
  for (uint32_t i = 0; i < n; ++i) out->reference[i] = maniSkeleton_GetRest(s, i);
  for (uint32_t e : items(mcore_JsonFind(&d, 0, "reference", 9))) {
    maniTransform& t = out->reference[bone(mcore_JsonFind(&d, e, "bone", 4))];
    const char* keys[3] = {"translation", "rotation", "scale"};
    float* dst[3] = {&t.translation.x, &t.rotation.x, &t.scale.x};
    for (int k = 0; k < 3; ++k) {
      uint32_t a = mcore_JsonFind(&d, e, keys[k], strlen(keys[k]));
      std::vector<uint32_t> v = items(a);
      for (size_t c = 0; c < v.size(); ++c) EXPECT_EQ(mcore_JsonGetFloat(&d, v[c], &dst[k][c]), mcore_jsonOk);
    }
  }
  for (uint32_t e : items(mcore_JsonFind(&d, 0, "pairs", 5)))
    out->pairs.push_back({bone(mcore_JsonFind(&d, e, "bone", 4)), bone(mcore_JsonFind(&d, e, "partner", 7))});
  for (uint32_t e : items(mcore_JsonFind(&d, 0, "rules", 5))) {
    const std::string& f = str(mcore_JsonFind(&d, e, "find", 4));
    const std::string& place = str(mcore_JsonFind(&d, e, "place", 5));
    const std::string& r = str(mcore_JsonFind(&d, e, "replace", 7));
    uint32_t p = place == "prefix" ? 0u : place == "suffix" ? 1u : 2u;
    out->rules.push_back({f.data(), f.size(), r.data(), r.size(), p});
  }
  for (uint32_t e : items(mcore_JsonFind(&d, 0, "namePairs", 9))) {
    const std::string& a = str(mcore_JsonFind(&d, e, "name", 4));
    const std::string& b = str(mcore_JsonFind(&d, e, "partner", 7));
    out->namePairs.push_back({a.data(), a.size(), b.data(), b.size()});
  }
  for (uint32_t e : items(mcore_JsonFind(&d, 0, "names", 5))) {
    const std::string& a = str(e);
    out->names.push_back({a.data(), a.size()});
  }
  const std::string& axis = str(mcore_JsonFind(&d, 0, "axis", 4));
  mcore_JsonRelease(&d);
  memset(&out->src, 0, sizeof out->src);
  out->src.skeleton = s;
  out->src.axis = axis == "x" ? 0u : axis == "y" ? 1u : 2u;
  out->src.reference = out->reference.data();
  out->src.pairs = out->pairs.data();
  out->src.pairCount = (uint32_t)out->pairs.size();
  out->src.rules = out->rules.data();
  out->src.ruleCount = (uint32_t)out->rules.size();
  out->src.namePairs = out->namePairs.data();
  out->src.namePairCount = (uint32_t)out->namePairs.size();
  out->src.names = out->names.data();
  out->src.nameCount = (uint32_t)out->names.size();
  return true;
}

// Write -> build gives the file the source builds to bit for bit (so the
// text carries the whole source), and write -> read -> write is a fixed
// point: the source the text describes writes the same text.
TEST(MirrorJson, WriteBuildWriteIsAFixedPoint) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    SeededSource ss(seed);
    Builder b;
    maniBuildResult d = maniBuildMirrorMap(b.b, &ss.src);
    ASSERT_EQ(d.result, mani_success) << d.reason << " " << d.item << " " << d.other;
    File direct = b.Built();
    ASSERT_EQ(maniWriteMirrorMapJson(b.b, &ss.src).result, mani_success);
    std::string text = Text(b);
    ASSERT_EQ(text.back(), '\n');
    EXPECT_NE(text.find("\"format\""), std::string::npos);
    maniBuildResult r = maniBuildMirrorMapJson(b.b, text.data(), text.size(), &ss.rig.s);
    ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other << "\n" << text;
    File fromText = b.Built();
    ASSERT_EQ(fromText.size, direct.size);
    EXPECT_EQ(memcmp(fromText.data(), direct.data(), direct.size), 0) << seed;
    TextSource again;
    ASSERT_TRUE(ReadTextSource(text, &ss.rig.s, &again));
    ASSERT_EQ(maniWriteMirrorMapJson(b.b, &again.src).result, mani_success);
    EXPECT_EQ(Text(b), text) << seed;
    EXPECT_EQ(memcmp(b.Built().data(), text.data(), text.size()), 0);
  }
}

TEST(MirrorJson, LeftOutListsAndFieldsAreTheirDefaults) {
  Rig rig = SymmetricRig(3, 0, 1, 2);
  const std::string text = "{\"format\": \"maul-anim mirror map\", \"version\": 1, \"axis\": \"x\", "
                           "\"rules\": [{\"find\": \"Left\", \"place\": \"prefix\", \"replace\": \"Right\"}, "
                           "{\"find\": \"Right\", \"place\": \"prefix\", \"replace\": \"Left\"}], "
                           "\"reference\": [{\"bone\": \"Spine\"}]}";
  Builder b;
  ASSERT_EQ(maniBuildMirrorMapJson(b.b, text.data(), text.size(), &rig.s).result, mani_success);
  File fromText = b.Built();
  const maniMirrorMapSource plain = RuleSource(rig, 0);
  ASSERT_EQ(maniBuildMirrorMap(b.b, &plain).result, mani_success);
  File direct = b.Built();
  ASSERT_EQ(fromText.size, direct.size);
  EXPECT_EQ(memcmp(fromText.data(), direct.data(), direct.size), 0);
}

// Builds text and expects the refusal, with the offset found in the text
// independently (the first byte of `at`, searched from `from`).
void ExpectJsonRefused(const maniSkeleton* s, const std::string& text, maniResult result, uint32_t reason,
                       uint64_t item, uint64_t other) {
  Builder b;
  Rig keep = SymmetricRig(77, 0, 1, 1);
  maniMirrorMapSource good = RuleSource(keep, 0);
  ASSERT_EQ(maniBuildMirrorMap(b.b, &good).result, mani_success);
  File before = b.Built();
  maniBuildResult r = maniBuildMirrorMapJson(b.b, text.data(), text.size(), s);
  EXPECT_EQ(r.result, result) << text;
  EXPECT_EQ(r.reason, reason) << text;
  EXPECT_EQ(r.item, item) << text;
  EXPECT_EQ(r.other, other) << text;
  File after = b.Built();
  ASSERT_EQ(after.size, before.size);
  EXPECT_EQ(memcmp(after.data(), before.data(), before.size), 0);
}

const std::string kHead = "{\"format\": \"maul-anim mirror map\", \"version\": 1, \"axis\": \"x\"";

uint64_t At(const std::string& text, const std::string& what) {
  size_t at = text.find(what);
  EXPECT_NE(at, std::string::npos) << what;
  return at;
}

TEST(MirrorJsonRefusals, NullArguments) {
  Rig rig = SymmetricRig(3, 0, 1, 1);
  Builder b;
  const std::string t = kHead + "}";
  EXPECT_EQ(maniBuildMirrorMapJson(nullptr, t.data(), t.size(), &rig.s).result, mani_errorInvalid);
  maniBuildResult r = maniBuildMirrorMapJson(b.b, t.data(), t.size(), nullptr);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone);
  r = maniBuildMirrorMapJson(b.b, nullptr, 4, &rig.s);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone);
}

TEST(MirrorJsonRefusals, TextThatDoesNotParse) {
  Rig rig = SymmetricRig(3, 0, 1, 1);
  std::string t = kHead;  // ends inside the object
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonJson, t.size(), 0);
  t = kHead + ", \"names\": [1 2]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonJson, At(t, "2]"), 0);
  ExpectJsonRefused(&rig.s, "", mani_errorInvalid, maniBuildReasonJson, 0, 0);
}

TEST(MirrorJsonRefusals, UnknownMember) {
  Rig rig = SymmetricRig(3, 0, 1, 1);
  std::string t = kHead + ", \"mirror\": true}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "\"mirror\""), maniGraphFormMember);
  t = kHead + ", \"pairs\": [{\"bone\": \"Hips\", \"partner\": \"Hips\", \"weight\": 1}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "\"weight\""), maniGraphFormMember);
}

TEST(MirrorJsonRefusals, WrongTypeAndMissingMember) {
  Rig rig = SymmetricRig(3, 0, 1, 1);
  std::string t = "{\"format\": \"maul-anim mirror map\", \"version\": 1, \"axis\": 0}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "0}"), maniGraphFormType);
  t = "{\"format\": \"maul-anim mirror map\", \"version\": 1}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, 0, maniGraphFormMissing);
  t = kHead + ", \"names\": [\"a\", 5]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "5]"), maniGraphFormType);
  t = kHead + ", \"reference\": [{\"bone\": \"Hips\", \"scale\": [1, \"1\", 1]}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "\"1\""), maniGraphFormType);
  t = "[1]";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, 0, maniGraphFormType);
}

TEST(MirrorJsonRefusals, FormatAndVersion) {
  Rig rig = SymmetricRig(3, 0, 1, 1);
  std::string t = "{\"format\": \"maul-anim graph\", \"version\": 1, \"axis\": \"x\"}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "\"maul-anim graph\""), maniGraphFormFormat);
  t = "{\"format\": \"maul-anim mirror map\", \"version\": 2, \"axis\": \"x\"}";
  ExpectJsonRefused(&rig.s, t, mani_errorVersion, maniBuildReasonForm, At(t, "2,"), maniGraphFormVersion);
}

TEST(MirrorJsonRefusals, ValuesOutOfRange) {
  Rig rig = SymmetricRig(3, 0, 1, 1);
  std::string t = "{\"format\": \"maul-anim mirror map\", \"version\": 1, \"axis\": \"w\"}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "\"w\""), maniGraphFormValue);
  t = kHead + ", \"rules\": [{\"find\": \"a\", \"place\": \"middle\", \"replace\": \"b\"}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "\"middle\""), maniGraphFormValue);
  t = kHead + ", \"reference\": [{\"bone\": \"Hips\", \"translation\": [1, 2]}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "[1, 2]"), maniGraphFormValue);
  t = kHead + ", \"reference\": [{\"bone\": \"Hips\", \"translation\": [1, 1e39, 0]}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "1e39"), maniGraphFormValue);
}

TEST(MirrorJsonRefusals, BoneNamesAndReferenceTwice) {
  Rig rig = SymmetricRig(3, 0, 1, 1);
  std::string t = kHead + ", \"pairs\": [{\"bone\": \"Hips\", \"partner\": \"Tail\"}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "\"Tail\""), maniGraphFormName);
  t = kHead + ", \"reference\": [{\"bone\": \"Nose\"}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, At(t, "\"Nose\""), maniGraphFormName);
  t = kHead + ", \"reference\": [{\"bone\": \"Spine\"}, {\"bone\": \"Hips\"}, {\"bone\": \"Spine\", \"scale\": [2, 2, 2]}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonForm, t.rfind("\"Spine\""), maniGraphFormDuplicate);
}

TEST(MirrorJsonRefusals, BuildRefusalsByPlaceInTheLists) {
  Rig rig = SymmetricRig(3, 0, 1, 1);
  std::string t = kHead + ", \"reference\": [{\"bone\": \"Spine\"}, {\"bone\": \"Hips\", \"rotation\": [0, 0, 0, 0]}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonMirrorReference, 1, 0);
  t = kHead + ", \"pairs\": [{\"bone\": \"Hips\", \"partner\": \"Hips\"}, {\"bone\": \"Spine\", \"partner\": \"Hips\"}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonMirrorPair, 1, 0);
  t = kHead + ", \"rules\": [{\"find\": \"\", \"place\": \"prefix\", \"replace\": \"b\"}]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonMirrorRule, 0, 0);
  t = kHead + ", \"namePairs\": [{\"name\": \"a\", \"partner\": \"b\"}], \"names\": [\"\"]}";
  ExpectJsonRefused(&rig.s, t, mani_errorInvalid, maniBuildReasonMirrorName, 2, 0);
}

// -- Mirrored clips (maniBuildMirroredClip) -------------------------------------------------------

// A clip file built from a fixture source, opened.
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
  maniFixtureMakeClip(&fc, seed, s, flags, maniLoopRepeat, additive);
  size_t size = 0;
  void* bytes = maniFixtureBuildClip(&fc.source, &size);
  EXPECT_NE(bytes, nullptr);
  ClipFile clip;
  clip.file.Assign(bytes, size);
  free(bytes);
  maniFixtureFreeClip(&fc);
  EXPECT_EQ(maniOpenClip(clip.file.data(), clip.file.size, &clip.c).result, mani_success);
  return clip;
}

ClipFile Mirrored(const Map& map, const maniSkeleton* s, const maniClip* clip) {
  Builder b;
  maniMirrorClipSource src = {&map.m, s, clip};
  maniBuildResult r = maniBuildMirroredClip(b.b, &src);
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  ClipFile out;
  if (r.result == mani_success) OpenBuilt(b, &out);
  return out;
}

// Every sample time of a clip and the times halfway between, in binary64 as
// the grid defines them (sample k at k / rate, the last at the duration).
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

// The name pairs of the fixture clip's first float track, discrete track,
// event and marker.
const maniMirrorNamePair kFixtureNamePairs[4] = {
    {"curve-0", 7, "curve-mirrored", 14},
    {"state-0", 7, "state-mirrored", 14},
    {"event-0", 7, "event-mirrored", 14},
    {"marker-0", 8, "marker-mirrored", 15},
};

// Equal values component by component (0 and -0 equal).
bool SameValues(const maniTransform& a, const maniTransform& b) {
  const float x[10] = {a.translation.x, a.translation.y, a.translation.z, a.rotation.x, a.rotation.y,
                       a.rotation.z,    a.rotation.w,    a.scale.x,       a.scale.y,    a.scale.z};
  const float y[10] = {b.translation.x, b.translation.y, b.translation.z, b.rotation.x, b.rotation.y,
                       b.rotation.z,    b.rotation.w,    b.scale.x,       b.scale.y,    b.scale.z};
  for (int k = 0; k < 10; ++k)
    if (!(x[k] == y[k])) return false;
  return true;
}

// Equal moves component by component (0 and -0 equal).
bool SameMove(const maniRootMove& a, const maniRootMove& b) {
  return a.translation.x == b.translation.x && a.translation.y == b.translation.y && a.translation.z == b.translation.z &&
         a.rotation.x == b.rotation.x && a.rotation.y == b.rotation.y && a.rotation.z == b.rotation.z &&
         a.rotation.w == b.rotation.w;
}

std::string Str(const char* p, size_t n) { return p == nullptr ? std::string() : std::string(p, n); }

TEST(MirrorClip, TwiceGivesTheSampledPosesBackBitForBit) {
  for (uint32_t axis = 0; axis < 3; ++axis) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      Rig rig = SymmetricRig(seed * 13 + axis, axis, 2, 3);
      maniMirrorMapSource msrc = RuleSource(rig, axis);
      msrc.namePairs = kFixtureNamePairs;
      msrc.namePairCount = 4;
      Map map = BuildMap(msrc);
      const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
      ClipFile clip = FixtureClip(seed, &rig.s, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION, maniAdditiveNone);
      ClipFile once = Mirrored(map, &rig.s, &clip.c);
      ClipFile twice = Mirrored(map, &rig.s, &once.c);
      ASSERT_NE(twice.file.size, 0u);
      EXPECT_EQ(maniClip_GetSampleCount(&once.c), maniClip_GetSampleCount(&clip.c));
      EXPECT_EQ(maniClip_GetDuration(&once.c), maniClip_GetDuration(&clip.c));
      EXPECT_EQ(maniClip_GetSampleRate(&once.c), maniClip_GetSampleRate(&clip.c));
      EXPECT_EQ(maniClip_GetLoopPolicy(&once.c), maniClip_GetLoopPolicy(&clip.c));
      Pose a(&rig.s), m(&rig.s), b(&rig.s), want(&rig.s);
      for (float t : GridTimes(&clip.c)) {
        ASSERT_EQ(maniClip_Sample(&clip.c, &rig.s, t, a.p), mani_success);
        ASSERT_EQ(maniClip_Sample(&once.c, &rig.s, t, m.p), mani_success);
        ASSERT_EQ(maniClip_Sample(&twice.c, &rig.s, t, b.p), mani_success);
        // On mirrored axes the corrections are the identity: the mirrored
        // clip's pose is the clip's pose mirrored, exactly (a reflected 0 is
        // -0, which the clip holds as the rest's 0).
        ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, a.p, want.p), mani_success);
        for (uint32_t i = 0; i < n; ++i) {
          ASSERT_TRUE(SameBits(maniPose_GetLocal(a.p, i), maniPose_GetLocal(b.p, i))) << axis << " " << seed << " " << t << " " << i;
          ASSERT_TRUE(SameValues(maniPose_GetLocal(want.p, i), maniPose_GetLocal(m.p, i))) << axis << " " << seed << " " << t << " " << i;
        }
        // Root motion: the reflection of the clip's moves (Hips is its own
        // partner), and the clip's again after twice.
        maniRootMove ma, mm, mb;
        ASSERT_EQ(maniClip_GetRootMotion(&clip.c, 0.0f, t, &ma), mani_success);
        ASSERT_EQ(maniClip_GetRootMotion(&once.c, 0.0f, t, &mm), mani_success);
        ASSERT_EQ(maniClip_GetRootMotion(&twice.c, 0.0f, t, &mb), mani_success);
        EXPECT_EQ(memcmp(&ma, &mb, sizeof ma), 0) << t;
        const maniVec3 rt = Reflect(ma.translation, axis);
        const maniQuat rr = Reflect(ma.rotation, axis);
        EXPECT_TRUE(SameMove(maniRootMove{rt, rr}, mm)) << t;
        // Float tracks keep their values.
        float fa[64], fm[64];
        uint32_t ca = 0, cm = 0;
        ASSERT_EQ(maniClip_SampleFloats(&clip.c, t, fa, 64, &ca), mani_success);
        ASSERT_EQ(maniClip_SampleFloats(&once.c, t, fm, 64, &cm), mani_success);
        ASSERT_EQ(ca, cm);
        EXPECT_EQ(memcmp(fa, fm, sizeof(float) * ca), 0);
      }
      maniRootMotionSource ra, rm;
      ASSERT_TRUE(maniClip_GetRootMotionSource(&clip.c, &ra));
      ASSERT_TRUE(maniClip_GetRootMotionSource(&once.c, &rm));
      EXPECT_EQ(ra.bone, rm.bone);
      EXPECT_EQ(ra.flags, rm.flags);
      // Names renamed by the map, values and times copied, twice back.
      ASSERT_EQ(maniClip_GetFloatTrackCount(&once.c), maniClip_GetFloatTrackCount(&clip.c));
      for (uint32_t k = 0; k < maniClip_GetFloatTrackCount(&clip.c); ++k) {
        size_t la = 0, lm = 0, lb = 0;
        std::string na = Str(maniClip_GetFloatTrackName(&clip.c, k, &la), la);
        std::string nm = Str(maniClip_GetFloatTrackName(&once.c, k, &lm), lm);
        std::string nb = Str(maniClip_GetFloatTrackName(&twice.c, k, &lb), lb);
        EXPECT_EQ(nm, na == "curve-0" ? "curve-mirrored" : na);
        EXPECT_EQ(nb, na);
      }
      ASSERT_EQ(maniClip_GetDiscreteTrackCount(&once.c), maniClip_GetDiscreteTrackCount(&clip.c));
      for (uint32_t k = 0; k < maniClip_GetDiscreteTrackCount(&clip.c); ++k) {
        size_t la = 0, lm = 0;
        std::string na = Str(maniClip_GetDiscreteTrackName(&clip.c, k, &la), la);
        EXPECT_EQ(Str(maniClip_GetDiscreteTrackName(&once.c, k, &lm), lm), na == "state-0" ? "state-mirrored" : na);
        for (float t : GridTimes(&clip.c))
          EXPECT_EQ(maniClip_GetDiscreteValue(&once.c, k, t), maniClip_GetDiscreteValue(&clip.c, k, t));
      }
      for (uint32_t list = 0; list < 2; ++list) {
        const uint32_t count = list == 0 ? maniClip_GetEventCount(&clip.c) : maniClip_GetMarkerCount(&clip.c);
        ASSERT_EQ(count, list == 0 ? maniClip_GetEventCount(&once.c) : maniClip_GetMarkerCount(&once.c));
        const std::string first = list == 0 ? "event-0" : "marker-0", renamed = list == 0 ? "event-mirrored" : "marker-mirrored";
        for (uint32_t k = 0; k < count; ++k) {
          maniClipEvent ea = list == 0 ? maniClip_GetEvent(&clip.c, k) : maniClip_GetMarker(&clip.c, k);
          maniClipEvent em = list == 0 ? maniClip_GetEvent(&once.c, k) : maniClip_GetMarker(&once.c, k);
          EXPECT_EQ(ea.time, em.time);
          std::string na = Str(ea.name, ea.nameLength);
          EXPECT_EQ(Str(em.name, em.nameLength), na == first ? renamed : na);
        }
      }
    }
  }
}

TEST(MirrorClip, ChannelsAtTheRestAreLeftOutAndTheBaseBitsKept) {
  // A clip animating only the left chain's rotations: the mirrored clip
  // animates the right chain's (the left at its rest everywhere).
  Rig rig = SymmetricRig(5, 0, 1, 2);
  Map map = BuildMap(RuleSource(rig, 0));
  const uint32_t left = rig.Find("Left_0_1"), right = rig.Find("Right_0_1");
  const float times[2] = {0.0f, 1.0f};
  maniQuat q0 = maniSkeleton_GetRest(&rig.s, left).rotation, q1 = Mul(q0, maniQuat{0.3f, 0.1f, -0.2f, 0.9f});
  const float values[8] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w};
  maniClipSourceChannel ch = {left, maniChannelRotation, maniInterpolationLinear, 2, times, values};
  maniClipSource cs;
  memset(&cs, 0, sizeof cs);
  cs.skeleton = &rig.s;
  cs.duration = 1.0f;
  cs.sampleRate = 10.0f;
  cs.channels = &ch;
  cs.channelCount = 1;
  Builder b;
  ASSERT_EQ(maniBuildClip(b.b, &cs).result, mani_success);
  ClipFile clip;
  ASSERT_TRUE(OpenBuilt(b, &clip));
  ClipFile once = Mirrored(map, &rig.s, &clip.c);
  ClipFile twice = Mirrored(map, &rig.s, &once.c);
  // The twice-mirrored clip is the clip, byte for byte.
  ASSERT_EQ(twice.file.size, clip.file.size);
  EXPECT_EQ(memcmp(twice.file.data(), clip.file.data(), clip.file.size), 0);
  Pose p(&rig.s);
  ASSERT_EQ(maniClip_Sample(&once.c, &rig.s, 1.0f, p.p), mani_success);
  EXPECT_TRUE(SameBits(maniPose_GetLocal(p.p, left), maniSkeleton_GetRest(&rig.s, left)));
  maniQuat want = Reflect(q1, 0);
  maniQuat got = maniPose_GetLocal(p.p, right).rotation;
  EXPECT_NEAR(got.x, want.x, 1e-6);
  EXPECT_NEAR(got.y, want.y, 1e-6);
  EXPECT_NEAR(got.z, want.z, 1e-6);
  EXPECT_NEAR(got.w, want.w, 1e-6);
}

TEST(MirrorClip, AdditiveDifferencesMirrorThroughTheRest) {
  Rig rig = SymmetricRig(8, 2, 2, 3);
  Map map = BuildMap(RuleSource(rig, 2));
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
  ClipFile clip = FixtureClip(21, &rig.s, MANI_FIXTURE_CLIP_ALL_BONES, maniAdditiveRest);
  ClipFile once = Mirrored(map, &rig.s, &clip.c);
  ASSERT_NE(once.file.size, 0u);
  EXPECT_EQ(maniClip_GetAdditiveBasis(&once.c), maniAdditiveRest);
  Pose d(&rig.s), dm(&rig.s), abs(&rig.s), mirrored(&rig.s), rest(&rig.s), restMirrored(&rig.s);
  ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, rest.p, restMirrored.p), mani_success);
  for (float t : GridTimes(&clip.c)) {
    ASSERT_EQ(maniClip_Sample(&clip.c, &rig.s, t, d.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&once.c, &rig.s, t, dm.p), mani_success);
    // rest + difference, mirrored, against the mirrored rest + the mirrored
    // difference (binary64 here).
    for (uint32_t i = 0; i < n; ++i) {
      maniTransform r = maniSkeleton_GetRest(&rig.s, i), x = maniPose_GetLocal(d.p, i);
      maniTransform a = {{r.translation.x + x.translation.x, r.translation.y + x.translation.y, r.translation.z + x.translation.z},
                         Mul(r.rotation, x.rotation),
                         {r.scale.x * x.scale.x, r.scale.y * x.scale.y, r.scale.z * x.scale.z}};
      maniPose_SetLocal(abs.p, i, a);
    }
    ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, abs.p, mirrored.p), mani_success);
    for (uint32_t i = 0; i < n; ++i) {
      maniTransform r = maniPose_GetLocal(restMirrored.p, i), x = maniPose_GetLocal(dm.p, i);
      maniTransform w = maniPose_GetLocal(mirrored.p, i);
      maniQuat q = Mul(r.rotation, x.rotation);
      const double dot = (double)q.x * w.rotation.x + (double)q.y * w.rotation.y + (double)q.z * w.rotation.z + (double)q.w * w.rotation.w;
      EXPECT_GT(std::fabs(dot), 1 - 1e-6) << t << " " << i;
      EXPECT_NEAR(r.translation.x + x.translation.x, w.translation.x, 1e-5) << t << " " << i;
      EXPECT_NEAR(r.translation.y + x.translation.y, w.translation.y, 1e-5) << t << " " << i;
      EXPECT_NEAR(r.translation.z + x.translation.z, w.translation.z, 1e-5) << t << " " << i;
      EXPECT_NEAR(r.scale.x * x.scale.x, w.scale.x, 1e-5) << t << " " << i;
      EXPECT_NEAR(r.scale.y * x.scale.y, w.scale.y, 1e-5) << t << " " << i;
      EXPECT_NEAR(r.scale.z * x.scale.z, w.scale.z, 1e-5) << t << " " << i;
    }
  }
}

TEST(MirrorClip, RootMotionOnAPairedBoneMovesToItsPartner) {
  // Root motion of Left_0_0 (x and z, whole rotation): the mirrored clip
  // declares Right_0_0 with the same flags (mirrored axes: identity
  // corrections), each move reflected.
  Rig rig = SymmetricRig(12, 0, 1, 2);
  Map map = BuildMap(RuleSource(rig, 0));
  const uint32_t left = rig.Find("Left_0_0"), right = rig.Find("Right_0_0");
  const float times[3] = {0.0f, 0.5f, 1.0f};
  maniTransform r0 = maniSkeleton_GetRest(&rig.s, left);
  const float tv[9] = {r0.translation.x, r0.translation.y, r0.translation.z, r0.translation.x + 0.5f, r0.translation.y,
                       r0.translation.z - 0.25f, r0.translation.x + 1.0f, r0.translation.y + 0.1f, r0.translation.z - 0.5f};
  maniQuat q1 = Mul(r0.rotation, maniQuat{0, 0.2f, 0, 0.98f}), q2 = Mul(r0.rotation, maniQuat{0.1f, 0.4f, 0, 0.9f});
  const float rv[12] = {r0.rotation.x, r0.rotation.y, r0.rotation.z, r0.rotation.w, q1.x, q1.y, q1.z, q1.w, q2.x, q2.y, q2.z, q2.w};
  maniClipSourceChannel ch[2] = {{left, maniChannelTranslation, maniInterpolationLinear, 3, times, tv},
                                 {left, maniChannelRotation, maniInterpolationLinear, 3, times, rv}};
  maniRootMotionSource root = {left, MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Z | MANI_ROOT_MOTION_ROTATION};
  maniClipSource cs;
  memset(&cs, 0, sizeof cs);
  cs.skeleton = &rig.s;
  cs.duration = 1.0f;
  cs.sampleRate = 30.0f;
  cs.channels = ch;
  cs.channelCount = 2;
  cs.rootMotion = &root;
  Builder b;
  ASSERT_EQ(maniBuildClip(b.b, &cs).result, mani_success);
  ClipFile clip;
  ASSERT_TRUE(OpenBuilt(b, &clip));
  ClipFile once = Mirrored(map, &rig.s, &clip.c);
  maniRootMotionSource got;
  ASSERT_TRUE(maniClip_GetRootMotionSource(&once.c, &got));
  EXPECT_EQ(got.bone, right);
  EXPECT_EQ(got.flags, root.flags);
  for (float t : GridTimes(&clip.c)) {
    maniRootMove a, m;
    ASSERT_EQ(maniClip_GetRootMotion(&clip.c, 0.0f, t, &a), mani_success);
    ASSERT_EQ(maniClip_GetRootMotion(&once.c, 0.0f, t, &m), mani_success);
    const maniVec3 rt = Reflect(a.translation, 0);
    const maniQuat rr = Reflect(a.rotation, 0);
    EXPECT_TRUE(SameMove(maniRootMove{rt, rr}, m)) << t;
  }
  // The full pose (root motion put back) is the full pose mirrored.
  Pose pa(&rig.s), pm(&rig.s), want(&rig.s);
  for (float t : GridTimes(&clip.c)) {
    ASSERT_EQ(maniClip_Sample(&clip.c, &rig.s, t, pa.p), mani_success);
    ASSERT_EQ(maniClip_RestoreRootMotion(&clip.c, &rig.s, t, pa.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&once.c, &rig.s, t, pm.p), mani_success);
    ASSERT_EQ(maniClip_RestoreRootMotion(&once.c, &rig.s, t, pm.p), mani_success);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, pa.p, want.p), mani_success);
    maniTransform w = maniPose_GetLocal(want.p, right), g = maniPose_GetLocal(pm.p, right);
    EXPECT_NEAR(g.translation.x, w.translation.x, 1e-5) << t;
    EXPECT_NEAR(g.translation.y, w.translation.y, 1e-5) << t;
    EXPECT_NEAR(g.translation.z, w.translation.z, 1e-5) << t;
    const double dot = (double)g.rotation.x * w.rotation.x + (double)g.rotation.y * w.rotation.y +
                       (double)g.rotation.z * w.rotation.z + (double)g.rotation.w * w.rotation.w;
    EXPECT_GT(std::fabs(dot), 1 - 1e-6) << t;
  }
}

TEST(MirrorClip, RootMotionThroughATurnedCorrectionTakesEveryAxis) {
  // The same on a rig whose right bones' axes are turned, on Left_0_1,
  // whose parent is turned: Right_0_1's parent-side correction takes the
  // axes off the axes, so the mirrored
  // clip's root motion takes every axis and the whole rotation, and the
  // full pose (root motion put back) is still the full pose mirrored.
  Rig rig = SymmetricRig(12, 0, 1, 2, true);
  Map map = BuildMap(RuleSource(rig, 0));
  const uint32_t left = rig.Find("Left_0_1"), right = rig.Find("Right_0_1");
  const float times[3] = {0.0f, 0.5f, 1.0f};
  maniTransform r0 = maniSkeleton_GetRest(&rig.s, left);
  const float tv[9] = {r0.translation.x, r0.translation.y, r0.translation.z, r0.translation.x + 0.5f, r0.translation.y,
                       r0.translation.z - 0.25f, r0.translation.x + 1.0f, r0.translation.y + 0.1f, r0.translation.z - 0.5f};
  maniQuat q1 = Mul(r0.rotation, maniQuat{0, 0.2f, 0, 0.98f}), q2 = Mul(r0.rotation, maniQuat{0.1f, 0.4f, 0, 0.9f});
  const float rv[12] = {r0.rotation.x, r0.rotation.y, r0.rotation.z, r0.rotation.w, q1.x, q1.y, q1.z, q1.w, q2.x, q2.y, q2.z, q2.w};
  maniClipSourceChannel ch[2] = {{left, maniChannelTranslation, maniInterpolationLinear, 3, times, tv},
                                 {left, maniChannelRotation, maniInterpolationLinear, 3, times, rv}};
  maniRootMotionSource root = {left, MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Z | MANI_ROOT_MOTION_ROTATION};
  maniClipSource cs;
  memset(&cs, 0, sizeof cs);
  cs.skeleton = &rig.s;
  cs.duration = 1.0f;
  cs.sampleRate = 30.0f;
  cs.channels = ch;
  cs.channelCount = 2;
  cs.rootMotion = &root;
  Builder b;
  ASSERT_EQ(maniBuildClip(b.b, &cs).result, mani_success);
  ClipFile clip;
  ASSERT_TRUE(OpenBuilt(b, &clip));
  ClipFile once = Mirrored(map, &rig.s, &clip.c);
  maniRootMotionSource got;
  ASSERT_TRUE(maniClip_GetRootMotionSource(&once.c, &got));
  EXPECT_EQ(got.bone, right);
  EXPECT_NE(maniMirrorMap_GetBoneFlags(&map.m, right) & MANI_MIRROR_BONE_UNMATCHED, MANI_MIRROR_BONE_UNMATCHED);
  EXPECT_EQ(got.flags, MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Y | MANI_ROOT_MOTION_Z | MANI_ROOT_MOTION_ROTATION);
  // The full pose (root motion put back) is the full pose mirrored.
  Pose pa(&rig.s), pm(&rig.s), want(&rig.s);
  for (float t : GridTimes(&clip.c)) {
    ASSERT_EQ(maniClip_Sample(&clip.c, &rig.s, t, pa.p), mani_success);
    ASSERT_EQ(maniClip_RestoreRootMotion(&clip.c, &rig.s, t, pa.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&once.c, &rig.s, t, pm.p), mani_success);
    ASSERT_EQ(maniClip_RestoreRootMotion(&once.c, &rig.s, t, pm.p), mani_success);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, pa.p, want.p), mani_success);
    maniTransform w = maniPose_GetLocal(want.p, right), g = maniPose_GetLocal(pm.p, right);
    EXPECT_NEAR(g.translation.x, w.translation.x, 1e-5) << t;
    EXPECT_NEAR(g.translation.y, w.translation.y, 1e-5) << t;
    EXPECT_NEAR(g.translation.z, w.translation.z, 1e-5) << t;
    const double dot = (double)g.rotation.x * w.rotation.x + (double)g.rotation.y * w.rotation.y +
                       (double)g.rotation.z * w.rotation.z + (double)g.rotation.w * w.rotation.w;
    EXPECT_GT(std::fabs(dot), 1 - 1e-6) << t;
  }
}

TEST(MirrorClip, ACompressedClipIsMirroredFromItsSampledPoses) {
  // A compressed clip's samples are its poses sampled at the sample times:
  // the mirrored clip (full precision) holds them mirrored.
  Rig rig = SymmetricRig(31, 1, 2, 2);
  Map map = BuildMap(RuleSource(rig, 1));
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.s);
  ClipFile clip = FixtureClip(9, &rig.s, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION, maniAdditiveNone);
  Builder b;
  maniCompressOptions o = maniDefaultCompressOptions();
  maniCompressReport report;
  memset(&report, 0, sizeof report);
  ASSERT_EQ(maniCompressClip(b.b, &clip.c, &rig.s, &o, &report), mani_success);
  ClipFile compressed;
  ASSERT_TRUE(OpenBuilt(b, &compressed));
  ASSERT_TRUE(maniClip_IsCompressed(&compressed.c));
  ClipFile once = Mirrored(map, &rig.s, &compressed.c);
  ASSERT_NE(once.file.size, 0u);
  EXPECT_FALSE(maniClip_IsCompressed(&once.c));
  Pose a(&rig.s), m(&rig.s), want(&rig.s);
  const uint32_t samples = maniClip_GetSampleCount(&compressed.c);
  for (uint32_t k = 0; k < samples; ++k) {
    const float t = k + 1 == samples ? maniClip_GetDuration(&compressed.c)
                                     : (float)((double)k / maniClip_GetSampleRate(&compressed.c));
    ASSERT_EQ(maniClip_Sample(&compressed.c, &rig.s, t, a.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&once.c, &rig.s, t, m.p), mani_success);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&map.m, &rig.s, a.p, want.p), mani_success);
    for (uint32_t i = 0; i < n; ++i) {
      const maniTransform g = maniPose_GetLocal(m.p, i), w = maniPose_GetLocal(want.p, i);
      EXPECT_NEAR(g.translation.x, w.translation.x, 1e-5) << k << " " << i;
      EXPECT_NEAR(g.translation.y, w.translation.y, 1e-5) << k << " " << i;
      EXPECT_NEAR(g.translation.z, w.translation.z, 1e-5) << k << " " << i;
      const double dot = (double)g.rotation.x * w.rotation.x + (double)g.rotation.y * w.rotation.y +
                         (double)g.rotation.z * w.rotation.z + (double)g.rotation.w * w.rotation.w;
      EXPECT_GT(std::fabs(dot), 1 - 1e-6) << k << " " << i;
      EXPECT_NEAR(g.scale.x, w.scale.x, 1e-5) << k << " " << i;
      EXPECT_NEAR(g.scale.y, w.scale.y, 1e-5) << k << " " << i;
      EXPECT_NEAR(g.scale.z, w.scale.z, 1e-5) << k << " " << i;
    }
    maniRootMove ma, mm;
    ASSERT_EQ(maniClip_GetRootMotion(&compressed.c, 0.0f, t, &ma), mani_success);
    ASSERT_EQ(maniClip_GetRootMotion(&once.c, 0.0f, t, &mm), mani_success);
    const maniVec3 rt = Reflect(ma.translation, 1);
    EXPECT_NEAR(mm.translation.x, rt.x, 1e-5) << k;
    EXPECT_NEAR(mm.translation.y, rt.y, 1e-5) << k;
    EXPECT_NEAR(mm.translation.z, rt.z, 1e-5) << k;
  }
}

TEST(MirrorClipRefusals, NullsOtherSkeletonsAndClipsKeepTheBuilt) {
  Rig rig = SymmetricRig(3, 0, 1, 2), other = SymmetricRig(4, 0, 1, 3);
  Map map = BuildMap(RuleSource(rig, 0));
  ClipFile clip = FixtureClip(2, &rig.s, 0, maniAdditiveNone);
  ClipFile otherClip = FixtureClip(2, &other.s, 0, maniAdditiveNone);
  Builder b;
  maniMirrorClipSource src = {&map.m, &rig.s, &clip.c};
  ASSERT_EQ(maniBuildMirroredClip(b.b, &src).result, mani_success);
  File held = b.Built();
  auto expect = [&](maniBuilder* builder, const maniMirrorClipSource* s, maniResult result, uint32_t reason, uint64_t item,
                    uint64_t otherWant) {
    ExpectBuildRefusedKeeping(b, held, builder != nullptr, maniBuildMirroredClip(builder, s), result, reason, item, otherWant);
  };
  expect(nullptr, &src, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  expect(b.b, nullptr, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  maniMirrorClipSource s = src;
  s.map = nullptr;
  expect(b.b, &s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.skeleton = nullptr;
  expect(b.b, &s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  s = src;
  s.clip = nullptr;
  expect(b.b, &s, mani_errorInvalid, maniBuildReasonNone, 0, 0);
  // A skeleton not the map's; a clip of another skeleton; a clip no open wrote.
  s = src;
  s.skeleton = &other.s;
  expect(b.b, &s, mani_errorInvalid, maniBuildReasonMirrorClip, 0, 0);
  maniMirrorMap unopened;
  memset(&unopened, 0, sizeof unopened);
  s = src;
  s.map = &unopened;
  expect(b.b, &s, mani_errorInvalid, maniBuildReasonMirrorClip, 0, 0);
  s = src;
  s.clip = &otherClip.c;
  expect(b.b, &s, mani_errorInvalid, maniBuildReasonMirrorClip, 0, 1);
  maniClip zero;
  memset(&zero, 0, sizeof zero);
  s = src;
  s.clip = &zero;
  expect(b.b, &s, mani_errorInvalid, maniBuildReasonMirrorClip, 0, 1);
}

TEST(MirrorClipRefusals, AnAdditiveClipWhoseMirroredRestScaleIsZero) {
  // Right_0_1's rest scale has a 0 (its scale not animated, so the additive
  // clip builds): mirrored onto Left_0_1, the difference from the rest
  // mirrored is 0 / 0, refused with the bone and the sample.
  Rig rig;
  maniTransform id = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
  maniTransform flat = {{0.5f, 0, 0}, {0, 0, 0, 1}, {0, 1, 1}};
  rig.bones = {{"Hips", MANI_NO_BONE, id}, {"Left_0_1", 0, id}, {"Right_0_1", 0, flat}};
  rig.Build();
  Map map = BuildMap(RuleSource(rig, 0));
  const float times[2] = {0.0f, 1.0f}, values[6] = {0, 0, 0, 0.5f, 0, 0};
  maniClipSourceChannel ch = {0, maniChannelTranslation, maniInterpolationLinear, 2, times, values};
  maniClipSource cs;
  memset(&cs, 0, sizeof cs);
  cs.skeleton = &rig.s;
  cs.duration = 1.0f;
  cs.sampleRate = 4.0f;
  cs.additive = maniAdditiveRest;
  cs.channels = &ch;
  cs.channelCount = 1;
  Builder b;
  ASSERT_EQ(maniBuildClip(b.b, &cs).result, mani_success);
  ClipFile clip;
  ASSERT_TRUE(OpenBuilt(b, &clip));
  maniMirrorClipSource src = {&map.m, &rig.s, &clip.c};
  maniBuildResult r = maniBuildMirroredClip(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonBasis);
  EXPECT_EQ(r.item, 1u);
  EXPECT_EQ(r.other, 0u);
}

}  // namespace
