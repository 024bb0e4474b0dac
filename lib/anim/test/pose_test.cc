// pose.h: poses in caller memory, model matrices against an independent
// binary64 composition, and maniDecomposeAffine.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/pose.h"

namespace {

struct Opened {
  maniSkeletonSource src;
  void* bytes = nullptr;
  size_t size = 0;
  maniSkeleton s;
  Opened(uint64_t seed, uint32_t n, maniFixtureShape shape) {
    src = maniFixtureMakeSkeletonSource(seed, n, shape);
    bytes = maniFixtureBuildSkeleton(&src, &size);
    EXPECT_NE(bytes, nullptr);
    EXPECT_EQ(maniOpenSkeleton(bytes, size, &s).result, mani_success);
  }
  ~Opened() {
    free(bytes);
    maniFixtureFreeSkeletonSource(&src);
  }
};

struct PoseMemory {
  void* memory;
  size_t size;
  explicit PoseMemory(size_t n) : memory(aligned_alloc(32, (n + 31) / 32 * 32 + 64)), size(n) {}
  ~PoseMemory() { free(memory); }
};

// Column-major 3x4 in binary64: m[c][r].
struct M34 {
  double m[4][3];
};

M34 FromTransform(const maniTransform& t) {
  double x = t.rotation.x, y = t.rotation.y, z = t.rotation.z, w = t.rotation.w;
  double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)},
                    {2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)},
                    {2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)}};
  double s[3] = {t.scale.x, t.scale.y, t.scale.z};
  M34 o;
  for (int c = 0; c < 3; ++c)
    for (int row = 0; row < 3; ++row) o.m[c][row] = r[c][row] * s[c];
  o.m[3][0] = t.translation.x;
  o.m[3][1] = t.translation.y;
  o.m[3][2] = t.translation.z;
  return o;
}

M34 Mul(const M34& a, const M34& b) {
  M34 o;
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 3; ++row) {
      double v = a.m[0][row] * b.m[c][0] + a.m[1][row] * b.m[c][1] + a.m[2][row] * b.m[c][2];
      o.m[c][row] = v + (c == 3 ? a.m[3][row] : 0);
    }
  return o;
}

TEST(Pose, InitErrors) {
  Opened o(1, 20, maniFixtureRandom);
  size_t need = maniSkeleton_GetPoseSize(&o.s);
  ASSERT_GT(need, 0u);
  PoseMemory mem(need);
  maniPose* pose = nullptr;
  EXPECT_EQ(maniInitPose(nullptr, mem.memory, need, &pose), mani_errorInvalid);
  EXPECT_EQ(maniInitPose(&o.s, nullptr, need, &pose), mani_errorInvalid);
  EXPECT_EQ(maniInitPose(&o.s, mem.memory, need, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniInitPose(&o.s, (char*)mem.memory + 16, need, &pose), mani_errorInvalid);
  EXPECT_EQ(maniInitPose(&o.s, mem.memory, need - 1, &pose), mani_errorCapacity);
  maniSkeleton zero;
  memset(&zero, 0, sizeof zero);
  EXPECT_EQ(maniInitPose(&zero, mem.memory, need, &pose), mani_errorInvalid);
  EXPECT_EQ(maniSkeleton_GetPoseSize(&zero), 0u);
  EXPECT_EQ(pose, nullptr);
  ASSERT_EQ(maniInitPose(&o.s, mem.memory, need, &pose), mani_success);
  EXPECT_EQ(maniPose_GetBoneCount(pose), 20u);
  EXPECT_TRUE(maniPose_IsModelCurrent(pose));
  EXPECT_FALSE(maniPose_IsDifference(pose));
}

TEST(Pose, ModelsMatchAnIndependentCompositionForEveryShape) {
  for (int shape = 0; shape < 4; ++shape) {
    Opened o(11 + shape, 257, (maniFixtureShape)shape);
    PoseMemory mem(maniSkeleton_GetPoseSize(&o.s));
    maniPose* pose;
    ASSERT_EQ(maniInitPose(&o.s, mem.memory, mem.size, &pose), mani_success);
    // Random locals.
    mcore_Rng rng;
    mcore_RngSeed(&rng, 99);
    for (uint32_t b = 0; b < 257; ++b) {
      maniTransform t;
      t.translation = {mcore_RngFloatRange(&rng, -1, 1), mcore_RngFloatRange(&rng, -1, 1), mcore_RngFloatRange(&rng, -1, 1)};
      double q[4], l = 0;
      for (double& c : q) {
        c = mcore_RngFloatRange(&rng, -1, 1);
        l += c * c;
      }
      l = std::sqrt(l);
      t.rotation = {(float)(q[0] / l), (float)(q[1] / l), (float)(q[2] / l), (float)(q[3] / l)};
      t.scale = {mcore_RngFloatRange(&rng, 0.9f, 1.1f), mcore_RngFloatRange(&rng, 0.9f, 1.1f), mcore_RngFloatRange(&rng, 0.9f, 1.1f)};
      maniPose_SetLocal(pose, b, t);
    }
    EXPECT_FALSE(maniPose_IsModelCurrent(pose));
    ASSERT_EQ(maniPose_ComputeModel(pose, &o.s), mani_success);
    EXPECT_TRUE(maniPose_IsModelCurrent(pose));
    std::vector<M34> ref(257);
    for (uint32_t b = 0; b < 257; ++b) {
      M34 local = FromTransform(maniPose_GetLocal(pose, b));
      uint32_t p = maniSkeleton_GetParent(&o.s, b);
      ref[b] = p == MANI_NO_BONE ? local : Mul(ref[p], local);
      maniAffine a = maniPose_GetModel(pose, b);
      const float* f = &a.columns[0].x;
      for (int i = 0; i < 12; ++i) {
        double expect = ref[b].m[i / 3][i % 3];
        // Errors grow with depth (a chain of 257): a relative bound per level.
        ASSERT_NEAR(f[i], expect, 1e-4 * (1 + std::fabs(expect))) << shape << " bone " << b << " " << i;
      }
    }
  }
}

TEST(Pose, LocalsReadWriteRangesAndStaleness) {
  Opened o(2, 10, maniFixtureChain);
  PoseMemory mem(maniSkeleton_GetPoseSize(&o.s));
  maniPose* pose;
  ASSERT_EQ(maniInitPose(&o.s, mem.memory, mem.size, &pose), mani_success);
  std::vector<maniTransform> t(10);
  ASSERT_EQ(maniPose_ReadLocals(pose, 0, 10, t.data()), mani_success);
  for (uint32_t b = 0; b < 10; ++b) EXPECT_EQ(memcmp(&t[b], &(const maniTransform&)maniSkeleton_GetRest(&o.s, b), sizeof(maniTransform)), 0);
  EXPECT_EQ(maniPose_ReadLocals(pose, 0, 11, t.data()), mani_errorInvalid);
  EXPECT_EQ(maniPose_ReadLocals(pose, 10, 1, t.data()), mani_errorInvalid);
  EXPECT_EQ(maniPose_ReadLocals(pose, 10, 0, t.data()), mani_success);
  EXPECT_EQ(maniPose_ReadLocals(pose, 0, 1, nullptr), mani_errorInvalid);
  t[3].translation.x = 42;
  EXPECT_EQ(maniPose_WriteLocals(pose, 3, 8, t.data()), mani_errorInvalid);
  EXPECT_TRUE(maniPose_IsModelCurrent(pose));  // a refused write changes nothing
  ASSERT_EQ(maniPose_WriteLocals(pose, 3, 1, &t[3]), mani_success);
  EXPECT_FALSE(maniPose_IsModelCurrent(pose));
  EXPECT_EQ(maniPose_GetLocal(pose, 3).translation.x, 42.0f);
  EXPECT_EQ(maniPose_GetLocal(pose, 10).rotation.w, 1.0f);  // past the count: identity
  maniPose_SetLocal(pose, 10, t[0]);                         // ignored
  std::vector<maniAffine> m(10);
  EXPECT_EQ(maniPose_ReadModels(pose, 5, 6, m.data()), mani_errorInvalid);
  ASSERT_EQ(maniPose_ComputeModel(pose, &o.s), mani_success);
  ASSERT_EQ(maniPose_ReadModels(pose, 0, 10, m.data()), mani_success);
  for (uint32_t b = 0; b < 10; ++b) {
    maniAffine a = maniPose_GetModel(pose, b);
    EXPECT_EQ(memcmp(&a, &m[b], sizeof a), 0);
  }
  EXPECT_EQ(maniPose_GetModel(pose, 10).columns[0].x, 1.0f);
  // SetRest brings the rest back and composes.
  ASSERT_EQ(maniPose_SetRest(pose, &o.s), mani_success);
  EXPECT_TRUE(maniPose_IsModelCurrent(pose));
  EXPECT_EQ(maniPose_GetLocal(pose, 3).translation.x, maniSkeleton_GetRest(&o.s, 3).translation.x);
}

TEST(Pose, OtherSkeletonsAreRefusedAndCopiesArePoses) {
  Opened a(3, 16, maniFixtureRandom), b(4, 16, maniFixtureRandom);
  PoseMemory mem(maniSkeleton_GetPoseSize(&a.s));
  maniPose* pose;
  ASSERT_EQ(maniInitPose(&a.s, mem.memory, mem.size, &pose), mani_success);
  EXPECT_EQ(maniPose_ComputeModel(pose, &b.s), mani_errorInvalid);
  EXPECT_EQ(maniPose_SetRest(pose, &b.s), mani_errorInvalid);
  EXPECT_EQ(maniPose_ComputeModel(nullptr, &a.s), mani_errorInvalid);
  // A pose holds no pointers: its bytes copied elsewhere are the same pose.
  PoseMemory copy(mem.size);
  memcpy(copy.memory, mem.memory, mem.size);
  maniPose* moved = (maniPose*)copy.memory;
  EXPECT_EQ(maniPose_GetBoneCount(moved), 16u);
  EXPECT_EQ(maniPose_ComputeModel(moved, &a.s), mani_success);
  for (uint32_t i = 0; i < 16; ++i) {
    maniAffine x = maniPose_GetModel(pose, i), y = maniPose_GetModel(moved, i);
    EXPECT_EQ(memcmp(&x, &y, sizeof x), 0);
  }
  // Garbage is not a pose.
  std::vector<uint64_t> junk(64, 0x1234567812345678ull);
  EXPECT_EQ(maniPose_GetBoneCount((maniPose*)junk.data()), 0u);
}

TEST(Pose, ParentChangedAfterTheOpenIsAFormatError) {
  Opened o(5, 12, maniFixtureChain);
  PoseMemory mem(maniSkeleton_GetPoseSize(&o.s));
  maniPose* pose;
  ASSERT_EQ(maniInitPose(&o.s, mem.memory, mem.size, &pose), mani_success);
  uint32_t bad = 11;
  memcpy((uint8_t*)o.bytes + o.s.parents + 4 * 6, &bad, 4);
  EXPECT_EQ(maniPose_ComputeModel(pose, &o.s), mani_errorFormat);
  EXPECT_FALSE(maniPose_IsModelCurrent(pose));
  EXPECT_EQ(maniPose_SetRest(pose, &o.s), mani_errorFormat);
  EXPECT_FALSE(maniPose_IsModelCurrent(pose));
  PoseMemory mem2(mem.size);
  maniPose* pose2 = nullptr;
  EXPECT_EQ(maniInitPose(&o.s, mem2.memory, mem2.size, &pose2), mani_errorFormat);
  ASSERT_NE(pose2, nullptr);
  EXPECT_FALSE(maniPose_IsModelCurrent(pose2));
}

// -- maniDecomposeAffine -----------------------------------------------------------

maniAffine ToAffine(const M34& m) {
  maniAffine a;
  float* f = &a.columns[0].x;
  for (int i = 0; i < 12; ++i) f[i] = (float)m.m[i / 3][i % 3];
  return a;
}

TEST(Decompose, RecoversRandomTransforms) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 5);
  for (int i = 0; i < 20000; ++i) {
    maniTransform t;
    t.translation = {mcore_RngFloatRange(&rng, -100, 100), mcore_RngFloatRange(&rng, -100, 100), mcore_RngFloatRange(&rng, -100, 100)};
    double q[4], l = 0;
    for (double& c : q) {
      c = mcore_RngFloatRange(&rng, -1, 1);
      l += c * c;
    }
    l = std::sqrt(l);
    double sign = q[3] < 0 ? -1 : 1;
    t.rotation = {(float)(sign * q[0] / l), (float)(sign * q[1] / l), (float)(sign * q[2] / l), (float)(sign * q[3] / l)};
    bool mirror = i % 3 == 0;
    t.scale = {mcore_RngFloatRange(&rng, 0.1f, 10) * (mirror ? -1 : 1), mcore_RngFloatRange(&rng, 0.1f, 10),
               mcore_RngFloatRange(&rng, 0.1f, 10)};
    maniAffine a = ToAffine(FromTransform(t));
    maniTransform d;
    ASSERT_EQ(maniDecomposeAffine(&a, &d), mani_success);
    EXPECT_EQ(memcmp(&d.translation, &a.columns[3], sizeof d.translation), 0);
    EXPECT_GE(d.rotation.w, 0.0f);
    double dot = (double)d.rotation.x * t.rotation.x + (double)d.rotation.y * t.rotation.y +
                 (double)d.rotation.z * t.rotation.z + (double)d.rotation.w * t.rotation.w;
    ASSERT_NEAR(std::fabs(dot), 1.0, 2e-6) << i;
    ASSERT_NEAR(d.scale.x, t.scale.x, 1e-5 * std::fabs(t.scale.x) + 1e-6) << i;
    ASSERT_NEAR(d.scale.y, t.scale.y, 1e-5 * std::fabs(t.scale.y) + 1e-6) << i;
    ASSERT_NEAR(d.scale.z, t.scale.z, 1e-5 * std::fabs(t.scale.z) + 1e-6) << i;
  }
}

// The polar factor of a sheared matrix: R orthonormal with det 1 and R^T M
// symmetric (the defining property of the polar decomposition).
TEST(Decompose, ShearGivesThePolarRotation) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 6);
  for (int i = 0; i < 2000; ++i) {
    M34 m;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 3; ++r) m.m[c][r] = mcore_RngFloatRange(&rng, -2, 2) + (c == r ? 3 : 0);
    maniAffine a = ToAffine(m);
    maniTransform d;
    ASSERT_EQ(maniDecomposeAffine(&a, &d), mani_success);
    maniTransform rot = {{0, 0, 0}, d.rotation, {1, 1, 1}};
    M34 r = FromTransform(rot);
    double det = a.columns[0].x * ((double)a.columns[1].y * a.columns[2].z - (double)a.columns[1].z * a.columns[2].y) -
                 a.columns[1].x * ((double)a.columns[0].y * a.columns[2].z - (double)a.columns[0].z * a.columns[2].y) +
                 a.columns[2].x * ((double)a.columns[0].y * a.columns[1].z - (double)a.columns[0].z * a.columns[1].y);
    // S = R^T M' where M' has x negated for a mirror.
    double s[3][3];
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) {
        double v = 0;
        const float* col = &a.columns[k].x;
        for (int row = 0; row < 3; ++row) v += r.m[j][row] * col[row] * (det < 0 && k == 0 ? -1 : 1);
        s[j][k] = v;
      }
    for (int j = 0; j < 3; ++j)
      for (int k = j + 1; k < 3; ++k) ASSERT_NEAR(s[j][k], s[k][j], 1e-4) << i;
    ASSERT_EQ(d.scale.x < 0, det < 0) << i;
  }
}

TEST(Decompose, DegenerateAxesStillSplit) {
  auto check = [](M34 m, float sx, float sy, float sz) {
    maniAffine a = ToAffine(m);
    maniTransform d;
    ASSERT_EQ(maniDecomposeAffine(&a, &d), mani_success);
    double l = (double)d.rotation.x * d.rotation.x + (double)d.rotation.y * d.rotation.y +
               (double)d.rotation.z * d.rotation.z + (double)d.rotation.w * d.rotation.w;
    EXPECT_NEAR(l, 1.0, 1e-6);
    EXPECT_TRUE(std::isfinite(d.scale.x) && std::isfinite(d.scale.y) && std::isfinite(d.scale.z));
    EXPECT_NEAR(d.scale.x, sx, 1e-6);
    EXPECT_NEAR(d.scale.y, sy, 1e-6);
    EXPECT_NEAR(d.scale.z, sz, 1e-6);
  };
  M34 zero = {};
  check(zero, 0, 0, 0);  // no axis left: identity rotation
  M34 noX = {{{0, 0, 0}, {0, 2, 0}, {0, 0, 3}, {1, 2, 3}}};
  check(noX, 0, 2, 3);
  M34 onlyZ = {{{0, 0, 0}, {0, 0, 0}, {0, 0, 4}, {0, 0, 0}}};
  check(onlyZ, 0, 0, 4);
  // Flat: z in the plane of x and y.
  M34 flat = {{{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 0}}};
  maniAffine a = ToAffine(flat);
  maniTransform d;
  ASSERT_EQ(maniDecomposeAffine(&a, &d), mani_success);
  EXPECT_NEAR(d.scale.x, 1, 1e-6);
  EXPECT_NEAR(d.scale.y, 1, 1e-6);
  EXPECT_NEAR(d.scale.z, 0, 1e-6);
}

TEST(Decompose, RefusesNonFiniteAndNull) {
  maniAffine a = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}}};
  maniTransform d = {{7, 7, 7}, {7, 7, 7, 7}, {7, 7, 7}};
  maniTransform before = d;
  for (int i = 0; i < 12; ++i) {
    maniAffine b = a;
    (&b.columns[0].x)[i] = i % 2 ? NAN : -INFINITY;
    EXPECT_EQ(maniDecomposeAffine(&b, &d), mani_errorInvalid);
    EXPECT_EQ(memcmp(&d, &before, sizeof d), 0);
  }
  EXPECT_EQ(maniDecomposeAffine(nullptr, &d), mani_errorInvalid);
  EXPECT_EQ(maniDecomposeAffine(&a, nullptr), mani_errorInvalid);
  ASSERT_EQ(maniDecomposeAffine(&a, &d), mani_success);
  EXPECT_EQ(d.rotation.w, 1.0f);
  EXPECT_EQ(d.scale.x, 1.0f);
}

TEST(Pose, ModelTransformSplitsTheModel) {
  Opened o(9, 5, maniFixtureChain);
  PoseMemory mem(maniSkeleton_GetPoseSize(&o.s));
  maniPose* pose;
  ASSERT_EQ(maniInitPose(&o.s, mem.memory, mem.size, &pose), mani_success);
  for (uint32_t b = 0; b < 5; ++b) {
    maniAffine m = maniPose_GetModel(pose, b);
    maniTransform expect, got = maniPose_GetModelTransform(pose, b);
    ASSERT_EQ(maniDecomposeAffine(&m, &expect), mani_success);
    EXPECT_EQ(memcmp(&expect, &got, sizeof got), 0);
  }
  EXPECT_EQ(maniPose_GetModelTransform(pose, 5).rotation.w, 1.0f);
}

}  // namespace
