// blend.h: blends, masks, differences and additive layers, against
// independent binary64 math written here (never against the library's own
// output), and every refusal leaving its output's bytes unchanged.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/blend.h"

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

struct Pose {
  void* memory = nullptr;
  size_t size = 0;
  maniPose* p = nullptr;
  explicit Pose(const maniSkeleton* s) {
    size = maniSkeleton_GetPoseSize(s);
    memory = aligned_alloc(32, (size + 31) / 32 * 32);
    EXPECT_EQ(maniInitPose(s, memory, size, &p), mani_success);
  }
  ~Pose() { free(memory); }
  std::vector<unsigned char> Bytes() const {
    const unsigned char* b = (const unsigned char*)memory;
    return std::vector<unsigned char>(b, b + size);
  }
};

maniQuat RandomQuat(mcore_Rng* rng) {
  double q[4], l = 0;
  for (double& c : q) {
    c = mcore_RngFloatRange(rng, -1, 1);
    l += c * c;
  }
  l = std::sqrt(l);
  return {(float)(q[0] / l), (float)(q[1] / l), (float)(q[2] / l), (float)(q[3] / l)};
}

maniTransform RandomTransform(mcore_Rng* rng) {
  maniTransform t;
  t.translation = {mcore_RngFloatRange(rng, -5, 5), mcore_RngFloatRange(rng, -5, 5), mcore_RngFloatRange(rng, -5, 5)};
  t.rotation = RandomQuat(rng);
  t.scale = {mcore_RngFloatRange(rng, 0.5f, 2), mcore_RngFloatRange(rng, 0.5f, 2), mcore_RngFloatRange(rng, 0.5f, 2)};
  return t;
}

void Randomize(maniPose* pose, uint64_t seed) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, seed);
  for (uint32_t b = 0; b < maniPose_GetBoneCount(pose); ++b) maniPose_SetLocal(pose, b, RandomTransform(&rng));
}

maniQuat AxisAngleZ(double degrees) {
  double h = degrees * M_PI / 360.0;
  return {0, 0, (float)std::sin(h), (float)std::cos(h)};
}

// Rotation equality up to sign.
double QuatAgreement(const maniQuat& a, const maniQuat& b) {
  return std::fabs((double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w);
}

// Reference blend of one bone, straight from the reference's text.
struct Contribution {
  maniTransform v;
  double w;
};

maniTransform ReferenceBlend(const std::vector<Contribution>& layers, const maniTransform& rest, double threshold) {
  double total = 0;
  for (const auto& c : layers) total += c.w;
  if (total == 0) return rest;
  double d = std::max(total, threshold);
  std::vector<Contribution> all;
  for (const auto& c : layers)
    if (c.w > 0) all.push_back({c.v, c.w / d});
  if (total < d) all.push_back({rest, (d - total) / d});
  double t[3] = {0, 0, 0}, s[3] = {0, 0, 0}, q[4] = {0, 0, 0, 0};
  for (const auto& c : all) {
    const float* tv = &c.v.translation.x;
    const float* sv = &c.v.scale.x;
    for (int k = 0; k < 3; ++k) {
      t[k] += c.w * tv[k];
      s[k] += c.w * sv[k];
    }
    const double r[4] = {c.v.rotation.x, c.v.rotation.y, c.v.rotation.z, c.v.rotation.w};
    double dot = q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3];
    for (int k = 0; k < 4; ++k) q[k] += (dot < 0 ? -c.w : c.w) * r[k];
  }
  double l = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  maniTransform o;
  o.translation = {(float)t[0], (float)t[1], (float)t[2]};
  o.scale = {(float)s[0], (float)s[1], (float)s[2]};
  o.rotation = {(float)(q[0] / l), (float)(q[1] / l), (float)(q[2] / l), (float)(q[3] / l)};
  return o;
}

void ExpectNearTransform(const maniTransform& got, const maniTransform& want, double tol, const char* what) {
  const float* g = &got.translation.x;
  const float* w = &want.translation.x;
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(g[k], w[k], tol * (1 + std::fabs(w[k]))) << what << " t" << k;
  for (int k = 7; k < 10; ++k) EXPECT_NEAR(g[k], w[k], tol * (1 + std::fabs(w[k]))) << what << " s" << k;
  EXPECT_GT(QuatAgreement(got.rotation, want.rotation), 1 - tol) << what;
}

maniTransform Identity() {
  maniTransform t;
  t.translation = {0, 0, 0};
  t.rotation = {0, 0, 0, 1};
  t.scale = {1, 1, 1};
  return t;
}

// -- BlendPoses -----------------------------------------------------------

TEST(Blend, RefusalsLeaveTheOutputUnchanged) {
  Opened o(1, 20, maniFixtureRandom);
  Opened other(2, 20, maniFixtureRandom);
  Pose a(&o.s), b(&o.s), out(&o.s), diff(&o.s), foreign(&other.s);
  Randomize(a.p, 1);
  Randomize(b.p, 2);
  Randomize(out.p, 3);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, a.p, b.p, diff.p), mani_success);
  const auto before = out.Bytes();
  std::vector<float> mask(20, 0.5f);
  maniBlendLayer good[2] = {{a.p, 0.5f, nullptr}, {b.p, 0.5f, mask.data()}};

  auto refused = [&](const maniSkeleton* s, const maniBlendLayer* l, uint32_t n, float th, maniPose* p, int line) {
    EXPECT_EQ(maniSkeleton_BlendPoses(s, l, n, th, p), mani_errorInvalid) << "line " << line;
    EXPECT_EQ(out.Bytes(), before) << "line " << line;
  };
  refused(nullptr, good, 2, 0.5f, out.p, __LINE__);
  refused(&o.s, nullptr, 2, 0.5f, out.p, __LINE__);
  EXPECT_EQ(maniSkeleton_BlendPoses(&o.s, good, 2, 0.5f, nullptr), mani_errorInvalid);
  refused(&other.s, good, 2, 0.5f, out.p, __LINE__);  // poseOut of another skeleton
  maniSkeleton zero;
  memset(&zero, 0, sizeof zero);
  refused(&zero, good, 2, 0.5f, out.p, __LINE__);
  {
    maniBlendLayer l[2] = {{a.p, 0.5f, nullptr}, {nullptr, 0.5f, nullptr}};
    refused(&o.s, l, 2, 0.5f, out.p, __LINE__);
  }
  {
    maniBlendLayer l[2] = {{a.p, 0.5f, nullptr}, {foreign.p, 0.5f, nullptr}};
    refused(&o.s, l, 2, 0.5f, out.p, __LINE__);
  }
  {
    maniBlendLayer l[2] = {{a.p, 0.5f, nullptr}, {diff.p, 0.5f, nullptr}};  // both kinds
    refused(&o.s, l, 2, 0.5f, out.p, __LINE__);
    maniBlendLayer m[2] = {{diff.p, 0.0f, nullptr}, {a.p, 0.5f, nullptr}};  // even at weight 0
    refused(&o.s, m, 2, 0.5f, out.p, __LINE__);
  }
  {
    maniBlendLayer l[2] = {{a.p, 0.5f, nullptr}, {out.p, 0.5f, nullptr}};  // poseOut among the layers
    refused(&o.s, l, 2, 0.5f, out.p, __LINE__);
  }
  const float badWeights[] = {-FLT_MIN, std::nextafter(0.0f, -1.0f), std::nextafter(1.0f, 2.0f), 2.0f, NAN, INFINITY};
  for (float w : badWeights) {
    maniBlendLayer l[2] = {{a.p, w, nullptr}, {b.p, 0.5f, nullptr}};
    refused(&o.s, l, 2, 0.5f, out.p, __LINE__);
    std::vector<float> m(20, 1.0f);
    m[19] = w;
    maniBlendLayer lm[2] = {{a.p, 0.5f, nullptr}, {b.p, 0.5f, m.data()}};
    refused(&o.s, lm, 2, 0.5f, out.p, __LINE__);
  }
  const float badThresholds[] = {std::nextafter(0.0f, -1.0f), -1.0f, std::nextafter(1.0f, 2.0f), NAN, INFINITY};
  for (float th : badThresholds) refused(&o.s, good, 2, th, out.p, __LINE__);

  // The other side of each boundary is accepted.
  const float okWeights[] = {0.0f, -0.0f, FLT_TRUE_MIN, std::nextafter(1.0f, 0.0f), 1.0f};
  for (float w : okWeights) {
    std::vector<float> m(20, w);
    maniBlendLayer l[2] = {{a.p, w, nullptr}, {b.p, 0.5f, m.data()}};
    EXPECT_EQ(maniSkeleton_BlendPoses(&o.s, l, 2, 0.5f, out.p), mani_success) << w;
  }
  for (float th : {0.0f, MANI_BLEND_THRESHOLD_MIN, MANI_BLEND_THRESHOLD_MAX, 1.0f})
    EXPECT_EQ(maniSkeleton_BlendPoses(&o.s, good, 2, th, out.p), mani_success) << th;
}

TEST(Blend, MatchesIndependentMath) {
  Opened o(3, 37, maniFixtureForest);
  Pose a(&o.s), b(&o.s), c(&o.s), out(&o.s);
  Randomize(a.p, 10);
  Randomize(b.p, 11);
  Randomize(c.p, 12);
  mcore_Rng rng;
  mcore_RngSeed(&rng, 77);
  std::vector<float> mb(37), mc(37);
  for (uint32_t i = 0; i < 37; ++i) {
    mb[i] = mcore_RngFloat01(&rng);
    mc[i] = i % 5 == 0 ? 0.0f : mcore_RngFloat01(&rng);
  }
  const float thresholds[] = {0.0f, 0.3f, 1.0f};
  for (float th : thresholds) {
    maniBlendLayer l[3] = {{a.p, 0.25f, nullptr}, {b.p, 0.6f, mb.data()}, {c.p, 0.4f, mc.data()}};
    ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, l, 3, th, out.p), mani_success);
    EXPECT_FALSE(maniPose_IsDifference(out.p));
    EXPECT_FALSE(maniPose_IsModelCurrent(out.p));
    for (uint32_t bone = 0; bone < 37; ++bone) {
      std::vector<Contribution> cs = {{maniPose_GetLocal(a.p, bone), 0.25},
                                      {maniPose_GetLocal(b.p, bone), 0.6f * (double)mb[bone]},
                                      {maniPose_GetLocal(c.p, bone), 0.4f * (double)mc[bone]}};
      maniTransform want = ReferenceBlend(cs, maniSkeleton_GetRest(&o.s, bone), th);
      maniTransform got = maniPose_GetLocal(out.p, bone);
      ExpectNearTransform(got, want, 1e-6, "blend");
      double len = std::sqrt((double)got.rotation.x * got.rotation.x + (double)got.rotation.y * got.rotation.y +
                             (double)got.rotation.z * got.rotation.z + (double)got.rotation.w * got.rotation.w);
      EXPECT_NEAR(len, 1.0, 1e-6);
    }
  }
  // One full layer: the layer itself (the normalized weight is exactly 1).
  maniBlendLayer one = {b.p, 1.0f, nullptr};
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &one, 1, 1.0f, out.p), mani_success);
  for (uint32_t bone = 0; bone < 37; ++bone) {
    maniTransform got = maniPose_GetLocal(out.p, bone), want = maniPose_GetLocal(b.p, bone);
    EXPECT_EQ(memcmp(&got.translation, &want.translation, 12), 0);
    EXPECT_EQ(memcmp(&got.scale, &want.scale, 12), 0);
    EXPECT_GT(QuatAgreement(got.rotation, want.rotation), 1 - 1e-7);
  }
}

// More layers than blend.c hands the kernel layer in one call (16), and a
// bone count that leaves the last group of eight partly empty.
TEST(Blend, ManyLayersMatchIndependentMath) {
  const uint32_t kBones = 21, kLayers = 41;
  Opened o(5, kBones, maniFixtureChain);
  std::vector<std::unique_ptr<Pose>> poses;
  std::vector<std::vector<float>> masks(kLayers, std::vector<float>(kBones));
  std::vector<maniBlendLayer> layers(kLayers);
  mcore_Rng rng;
  mcore_RngSeed(&rng, 91);
  for (uint32_t i = 0; i < kLayers; ++i) {
    poses.emplace_back(new Pose(&o.s));
    Randomize(poses.back()->p, 200 + i);
    for (uint32_t b = 0; b < kBones; ++b) {
      const float m = mcore_RngFloat01(&rng);
      masks[i][b] = (b + i) % 7 == 0 ? 0.0f : m;
    }
    const float w = mcore_RngFloat01(&rng) * 0.05f;
    layers[i] = {poses.back()->p, w, i % 3 == 0 ? nullptr : masks[i].data()};
  }
  Pose out(&o.s);
  for (float th : {0.0f, 0.5f, 1.0f}) {
    ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, layers.data(), kLayers, th, out.p), mani_success);
    for (uint32_t bone = 0; bone < kBones; ++bone) {
      std::vector<Contribution> cs;
      for (uint32_t i = 0; i < kLayers; ++i)
        cs.push_back({maniPose_GetLocal(layers[i].pose, bone),
                      (double)layers[i].weight * (layers[i].boneWeights ? (double)masks[i][bone] : 1.0)});
      ExpectNearTransform(maniPose_GetLocal(out.p, bone), ReferenceBlend(cs, maniSkeleton_GetRest(&o.s, bone), th),
                          1e-6, "many layers");
    }
  }
}

TEST(Blend, ThresholdSlidesIntoTheRest) {
  Opened o(4, 9, maniFixtureChain);
  Pose a(&o.s), out(&o.s);
  Randomize(a.p, 20);
  // Total 0.3 below threshold 0.8: 0.3/0.8 of the layer, 0.5/0.8 of the rest.
  maniBlendLayer l = {a.p, 0.3f, nullptr};
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &l, 1, 0.8f, out.p), mani_success);
  for (uint32_t bone = 0; bone < 9; ++bone) {
    maniTransform v = maniPose_GetLocal(a.p, bone), r = maniSkeleton_GetRest(&o.s, bone);
    double k = 0.3f / (double)0.8f;
    maniTransform got = maniPose_GetLocal(out.p, bone);
    EXPECT_NEAR(got.translation.x, k * v.translation.x + (1 - k) * r.translation.x, 1e-5);
    EXPECT_NEAR(got.scale.z, k * v.scale.z + (1 - k) * r.scale.z, 1e-6);
  }
  // Total exactly at the threshold: no rest at all.
  l.weight = 0.5f;
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &l, 1, 0.5f, out.p), mani_success);
  for (uint32_t bone = 0; bone < 9; ++bone) {
    maniTransform got = maniPose_GetLocal(out.p, bone), want = maniPose_GetLocal(a.p, bone);
    EXPECT_EQ(got.translation.y, want.translation.y);
  }
  // Just below: a sliver of rest.
  l.weight = std::nextafter(0.5f, 0.0f);
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &l, 1, 0.5f, out.p), mani_success);
  // Falling weights approach the rest.
  double prev = 1e30;
  for (float w : {0.4f, 0.2f, 0.1f, 0.01f}) {
    l.weight = w;
    ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &l, 1, 1.0f, out.p), mani_success);
    maniTransform got = maniPose_GetLocal(out.p, 3), r = maniSkeleton_GetRest(&o.s, 3);
    double dist = std::fabs((double)got.translation.x - r.translation.x) + (1 - QuatAgreement(got.rotation, r.rotation));
    EXPECT_LT(dist, prev);
    prev = dist;
  }
  // No weight at all: the rest as it is, bit for bit, at any threshold.
  for (float th : {0.0f, 0.5f}) {
    l.weight = 0;
    Randomize(out.p, 5);
    ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &l, 1, th, out.p), mani_success);
    for (uint32_t bone = 0; bone < 9; ++bone) {
      maniTransform got = maniPose_GetLocal(out.p, bone), want = maniSkeleton_GetRest(&o.s, bone);
      EXPECT_EQ(memcmp(&got, &want, sizeof got), 0);
    }
  }
  // No layers: every bone at rest.
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &l, 0, 0.5f, out.p), mani_success);
  maniTransform got = maniPose_GetLocal(out.p, 4), want = maniSkeleton_GetRest(&o.s, 4);
  EXPECT_EQ(memcmp(&got, &want, sizeof got), 0);
}

TEST(Blend, LayerOrderCountsOnOppositeArcs) {
  Opened o(5, 1, maniFixtureChain);
  Pose a(&o.s), b(&o.s), c(&o.s), out1(&o.s), out2(&o.s);
  maniTransform t = Identity();
  t.rotation = AxisAngleZ(0);
  maniPose_SetLocal(a.p, 0, t);
  t.rotation = AxisAngleZ(170);
  maniPose_SetLocal(b.p, 0, t);
  t.rotation = AxisAngleZ(-170);
  maniPose_SetLocal(c.p, 0, t);
  maniBlendLayer abc[3] = {{a.p, 1, nullptr}, {b.p, 1, nullptr}, {c.p, 1, nullptr}};
  maniBlendLayer cba[3] = {{c.p, 1, nullptr}, {b.p, 1, nullptr}, {a.p, 1, nullptr}};
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, abc, 3, 0, out1.p), mani_success);
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, cba, 3, 0, out2.p), mani_success);
  maniQuat q1 = maniPose_GetLocal(out1.p, 0).rotation, q2 = maniPose_GetLocal(out2.p, 0).rotation;
  // By hand: a, then b (dot > 0, added), then c (dot < 0, subtracted):
  // (0, 0, 2 sin 85, 1) / |.|, a turn of +2 atan(2 sin 85) about z; the
  // reverse order gives the opposite turn.
  double expect = 2 * std::atan(2 * std::sin(85 * M_PI / 180));
  EXPECT_NEAR(2 * std::atan2((double)q1.z, (double)q1.w), expect, 1e-6);
  EXPECT_NEAR(2 * std::atan2((double)q2.z, (double)q2.w), -expect, 1e-6);
  EXPECT_LT(QuatAgreement(q1, q2), 0.7);  // cos(253.4 deg / 2) = 0.598
}

TEST(Blend, HugeInputsStayFinite) {
  Opened o(6, 10, maniFixtureWide);
  Pose a(&o.s), b(&o.s), out(&o.s);
  const float huge = std::ldexp(1.0f, 127);
  for (uint32_t bone = 0; bone < 10; ++bone) {
    maniTransform t = Identity();
    float v = bone % 2 ? FLT_MAX : huge;
    t.translation = {v, -v, v};
    t.scale = {v, v, -v};
    maniPose_SetLocal(a.p, bone, t);
    maniPose_SetLocal(b.p, bone, t);
  }
  for (float w : {1.0f, 0.7f, 0.3f, 0.1f}) {
    for (float th : {0.0f, 1.0f}) {
      maniBlendLayer l[2] = {{a.p, w, nullptr}, {b.p, 1 - w, nullptr}};
      ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, l, 2, th, out.p), mani_success);
      for (uint32_t bone = 0; bone < 10; ++bone) {
        maniTransform t = maniPose_GetLocal(out.p, bone);
        const float* f = &t.translation.x;
        float v = bone % 2 ? FLT_MAX : huge;
        for (int k = 0; k < 10; ++k) ASSERT_TRUE(std::isfinite(f[k])) << w << " " << th << " " << k;
        EXPECT_LE(std::fabs(t.translation.x), v);
        EXPECT_LE(std::fabs(t.scale.z), v);
        if (th == 0.0f) {
          EXPECT_NEAR(t.translation.x / v, 1.0, 1e-6);
        }
      }
    }
  }
}

TEST(Blend, DifferencesBlendAgainstTheIdentity) {
  Opened o(7, 12, maniFixtureRandom);
  Pose a(&o.s), b(&o.s), d(&o.s), out(&o.s);
  Randomize(a.p, 30);
  Randomize(b.p, 31);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, a.p, b.p, d.p), mani_success);
  maniBlendLayer l = {d.p, 0.25f, nullptr};
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &l, 1, 1.0f, out.p), mani_success);
  EXPECT_TRUE(maniPose_IsDifference(out.p));
  EXPECT_EQ(maniPose_ComputeModel(out.p, &o.s), mani_errorInvalid);
  for (uint32_t bone = 0; bone < 12; ++bone) {
    std::vector<Contribution> cs = {{maniPose_GetLocal(d.p, bone), 0.25}};
    ExpectNearTransform(maniPose_GetLocal(out.p, bone), ReferenceBlend(cs, Identity(), 1.0), 1e-6, "difference");
  }
  // A pose blend makes it a pose again.
  maniBlendLayer p = {a.p, 1.0f, nullptr};
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, &p, 1, 1.0f, out.p), mani_success);
  EXPECT_FALSE(maniPose_IsDifference(out.p));
}

// -- BuildMask ------------------------------------------------------------

// The reference's rule, walked bone by bone.
std::vector<float> ReferenceMask(const maniSkeleton* s, const std::vector<maniMaskChain>& chains, float def) {
  uint32_t n = maniSkeleton_GetBoneCount(s);
  std::vector<float> w(n);
  for (uint32_t b = 0; b < n; ++b) {
    const maniMaskChain* alone = nullptr;
    for (const auto& c : chains)
      if (c.bone == b && !c.subtree) alone = &c;
    if (alone) {
      w[b] = alone->weight;
      continue;
    }
    w[b] = def;
    for (uint32_t a = b; a != MANI_NO_BONE; a = maniSkeleton_GetParent(s, a)) {
      const maniMaskChain* sub = nullptr;
      for (const auto& c : chains)
        if (c.bone == a && c.subtree) sub = &c;
      if (sub) {
        w[b] = sub->weight;
        break;
      }
    }
  }
  return w;
}

TEST(Mask, ChainsAloneAndSubtreesLaterWins) {
  Opened o(8, 10, maniFixtureChain);
  std::vector<float> w(10, -7.0f);
  uint32_t n = 0;
  // Default only.
  maniMaskChain none = {0, 0, false};
  ASSERT_EQ(maniSkeleton_BuildMask(&o.s, &none, 0, 0.25f, w.data(), 10, &n), mani_success);
  EXPECT_EQ(n, 10u);
  for (float v : w) EXPECT_EQ(v, 0.25f);
  uint32_t mid = 4;
  std::vector<maniMaskChain> chains = {{mid, 1.0f, true}, {mid, 0.5f, false}, {7, 0.0f, true}, {mid, 0.75f, true}};
  ASSERT_EQ(maniSkeleton_BuildMask(&o.s, chains.data(), 4, 0.1f, w.data(), 10, &n), mani_success);
  EXPECT_EQ(w, ReferenceMask(&o.s, chains, 0.1f));
  EXPECT_EQ(w[mid], 0.5f);  // the bone alone first
  // A chain skeleton is bone k under bone k - 1: 0..3 the default, 4 its
  // chain alone, 5 and 6 the later subtree chain on 4, 7..9 the chain on 7.
  for (uint32_t b = 1; b < 10; ++b) ASSERT_EQ(maniSkeleton_GetParent(&o.s, b), b - 1);
  const float expect[10] = {0.1f, 0.1f, 0.1f, 0.1f, 0.5f, 0.75f, 0.75f, 0.0f, 0.0f, 0.0f};
  for (uint32_t b = 0; b < 10; ++b) EXPECT_EQ(w[b], expect[b]) << b;
  // A chain on a bone alone reaches no descendant.
  std::vector<maniMaskChain> alone = {{0, 0.9f, false}, {0, 0.3f, false}};
  ASSERT_EQ(maniSkeleton_BuildMask(&o.s, alone.data(), 2, 0.0f, w.data(), 10, nullptr), mani_success);
  EXPECT_EQ(w[0], 0.3f);
  for (uint32_t b = 1; b < 10; ++b) EXPECT_EQ(w[b], 0.0f);

  // Random skeletons and chains against the reference rule.
  mcore_Rng rng;
  mcore_RngSeed(&rng, 5);
  for (int shape = 0; shape < 4; ++shape) {
    Opened r(40 + shape, 60, (maniFixtureShape)shape);
    for (int round = 0; round < 20; ++round) {
      std::vector<maniMaskChain> cs;
      uint32_t k = 1 + mcore_RngBelow(&rng, 12);
      for (uint32_t i = 0; i < k; ++i)
        cs.push_back({mcore_RngBelow(&rng, 60), mcore_RngFloat01(&rng), mcore_RngBelow(&rng, 2) == 1});
      std::vector<float> got(64, -1.0f);
      ASSERT_EQ(maniSkeleton_BuildMask(&r.s, cs.data(), (uint32_t)cs.size(), 0.5f, got.data(), 64, &n), mani_success);
      got.resize(60);
      EXPECT_EQ(got, ReferenceMask(&r.s, cs, 0.5f)) << shape << " " << round;
    }
  }
}

TEST(Mask, Refusals) {
  Opened o(9, 10, maniFixtureRandom);
  std::vector<float> w(10, -7.0f);
  const std::vector<float> before = w;
  uint32_t n = 1234;
  maniMaskChain ok = {3, 0.5f, true};
  EXPECT_EQ(maniSkeleton_BuildMask(nullptr, &ok, 1, 0, w.data(), 10, &n), mani_errorInvalid);
  EXPECT_EQ(maniSkeleton_BuildMask(&o.s, nullptr, 0, 0, w.data(), 10, &n), mani_errorInvalid);
  EXPECT_EQ(maniSkeleton_BuildMask(&o.s, &ok, 1, 0, nullptr, 10, &n), mani_errorInvalid);
  const maniMaskChain bad[] = {{10, 0.5f, false}, {MANI_NO_BONE, 0.5f, true}, {3, -FLT_TRUE_MIN, false},
                               {3, NAN, true},    {3, INFINITY, false},       {3, -1.0f, true}};
  for (const auto& c : bad) {
    maniMaskChain cs[2] = {ok, c};
    EXPECT_EQ(maniSkeleton_BuildMask(&o.s, cs, 2, 0, w.data(), 10, &n), mani_errorInvalid);
  }
  for (float d : {-1.0f, NAN, INFINITY})
    EXPECT_EQ(maniSkeleton_BuildMask(&o.s, &ok, 1, d, w.data(), 10, &n), mani_errorInvalid);
  EXPECT_EQ(w, before);
  EXPECT_EQ(n, 1234u);
  // Capacity: the count written, nothing else.
  EXPECT_EQ(maniSkeleton_BuildMask(&o.s, &ok, 1, 0, w.data(), 9, &n), mani_errorCapacity);
  EXPECT_EQ(n, 10u);
  EXPECT_EQ(w, before);
  n = 0;
  EXPECT_EQ(maniSkeleton_BuildMask(&o.s, &ok, 1, 0, nullptr, 0, &n), mani_errorCapacity);
  EXPECT_EQ(n, 10u);
  // Boundaries accepted: weight 0, bone count - 1, a weight above 1.
  maniMaskChain edge[2] = {{9, 0.0f, false}, {0, 2.0f, true}};
  EXPECT_EQ(maniSkeleton_BuildMask(&o.s, edge, 2, 0, w.data(), 10, &n), mani_success);
}

TEST(Mask, MaskedBlendTakesPerBoneWeights) {
  Opened o(10, 16, maniFixtureChain);
  Pose a(&o.s), b(&o.s), out(&o.s);
  Randomize(a.p, 50);
  Randomize(b.p, 51);
  std::vector<float> mask(16);
  maniMaskChain chains[1] = {{8, 1.0f, true}};
  ASSERT_EQ(maniSkeleton_BuildMask(&o.s, chains, 1, 0.0f, mask.data(), 16, nullptr), mani_success);
  maniBlendLayer l[2] = {{a.p, 1.0f, nullptr}, {b.p, 1.0f, mask.data()}};
  ASSERT_EQ(maniSkeleton_BlendPoses(&o.s, l, 2, 1.0f, out.p), mani_success);
  for (uint32_t bone = 0; bone < 16; ++bone) {
    std::vector<Contribution> cs = {{maniPose_GetLocal(a.p, bone), 1.0}, {maniPose_GetLocal(b.p, bone), mask[bone]}};
    ExpectNearTransform(maniPose_GetLocal(out.p, bone), ReferenceBlend(cs, maniSkeleton_GetRest(&o.s, bone), 1.0),
                        1e-6, "masked");
    if (mask[bone] == 0) {
      maniTransform got = maniPose_GetLocal(out.p, bone), want = maniPose_GetLocal(a.p, bone);
      EXPECT_EQ(got.translation.x, want.translation.x);
    }
  }
}

// -- Differences and additive layers ---------------------------------------

TEST(Difference, ReproducesThePoseThroughAddLayers) {
  Opened o(11, 50, maniFixtureRandom);
  Pose p(&o.s), basis(&o.s), d(&o.s), work(&o.s);
  Randomize(p.p, 60);
  Randomize(basis.p, 61);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, p.p, basis.p, d.p), mani_success);
  EXPECT_TRUE(maniPose_IsDifference(d.p));
  EXPECT_FALSE(maniPose_IsDifference(p.p));
  for (uint32_t bone = 0; bone < 50; ++bone) {
    maniTransform pt = maniPose_GetLocal(p.p, bone), bt = maniPose_GetLocal(basis.p, bone);
    maniTransform dt = maniPose_GetLocal(d.p, bone);
    EXPECT_EQ(dt.translation.x, pt.translation.x - bt.translation.x);
    EXPECT_EQ(dt.scale.y, pt.scale.y / bt.scale.y);
    // conj(b) r in binary64.
    double bx = -bt.rotation.x, by = -bt.rotation.y, bz = -bt.rotation.z, bw = bt.rotation.w;
    double rx = pt.rotation.x, ry = pt.rotation.y, rz = pt.rotation.z, rw = pt.rotation.w;
    double q[4] = {bw * rx + bx * rw + by * rz - bz * ry, bw * ry - bx * rz + by * rw + bz * rx,
                   bw * rz + bx * ry - by * rx + bz * rw, bw * rw - bx * rx - by * ry - bz * rz};
    double l = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    EXPECT_NEAR(dt.rotation.x, q[0] / l, 1e-7);
    EXPECT_NEAR(dt.rotation.w, q[3] / l, 1e-7);
  }
  // basis + difference at weight 1 = the pose, within a few ulps (stated
  // tolerance: 1e-5 relative on translations and scales, rotations agreeing
  // to 1e-6).
  memcpy(work.memory, basis.memory, basis.size);
  maniBlendLayer l = {d.p, 1.0f, nullptr};
  ASSERT_EQ(maniPose_AddLayers(work.p, &o.s, &l, 1), mani_success);
  EXPECT_FALSE(maniPose_IsDifference(work.p));
  EXPECT_FALSE(maniPose_IsModelCurrent(work.p));
  for (uint32_t bone = 0; bone < 50; ++bone)
    ExpectNearTransform(maniPose_GetLocal(work.p, bone), maniPose_GetLocal(p.p, bone), 1e-5, "reproduce");

  // Weight 0.5 per bone through a mask, against the formulas.
  std::vector<float> mask(50);
  for (uint32_t i = 0; i < 50; ++i) mask[i] = (float)(i % 3) / 2.0f;
  memcpy(work.memory, basis.memory, basis.size);
  maniBlendLayer h = {d.p, 0.5f, mask.data()};
  ASSERT_EQ(maniPose_AddLayers(work.p, &o.s, &h, 1), mani_success);
  for (uint32_t bone = 0; bone < 50; ++bone) {
    double w = 0.5 * mask[bone];
    maniTransform bt = maniPose_GetLocal(basis.p, bone), dt = maniPose_GetLocal(d.p, bone);
    maniTransform got = maniPose_GetLocal(work.p, bone);
    if (w == 0) {
      EXPECT_EQ(memcmp(&got, &bt, sizeof got), 0);
      continue;
    }
    EXPECT_NEAR(got.translation.z, bt.translation.z + w * dt.translation.z, 1e-5);
    EXPECT_NEAR(got.scale.x, bt.scale.x * (1 + w * (dt.scale.x - 1)), 1e-5);
    double s = dt.rotation.w < 0 ? -1 : 1;
    double f[4] = {w * s * dt.rotation.x, w * s * dt.rotation.y, w * s * dt.rotation.z, (1 - w) + w * s * dt.rotation.w};
    double fl = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2] + f[3] * f[3]);
    for (double& c : f) c /= fl;
    double ax = bt.rotation.x, ay = bt.rotation.y, az = bt.rotation.z, aw = bt.rotation.w;
    maniQuat want = {(float)(aw * f[0] + ax * f[3] + ay * f[2] - az * f[1]),
                     (float)(aw * f[1] - ax * f[2] + ay * f[3] + az * f[0]),
                     (float)(aw * f[2] + ax * f[1] - ay * f[0] + az * f[3]),
                     (float)(aw * f[3] - ax * f[0] - ay * f[1] - az * f[2])};
    EXPECT_GT(QuatAgreement(got.rotation, want), 1 - 1e-6);
  }
}

TEST(Difference, OutputMayBeAnInput) {
  Opened o(12, 9, maniFixtureWide);
  Pose p(&o.s), basis(&o.s), d(&o.s), copy(&o.s);
  Randomize(p.p, 70);
  Randomize(basis.p, 71);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, p.p, basis.p, d.p), mani_success);
  memcpy(copy.memory, p.memory, p.size);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, copy.p, basis.p, copy.p), mani_success);
  EXPECT_EQ(copy.Bytes(), d.Bytes());
  memcpy(copy.memory, basis.memory, basis.size);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, p.p, copy.p, copy.p), mani_success);
  EXPECT_EQ(copy.Bytes(), d.Bytes());
}

TEST(Difference, Refusals) {
  Opened o(13, 9, maniFixtureRandom);
  Opened other(14, 9, maniFixtureRandom);
  Pose p(&o.s), basis(&o.s), d(&o.s), out(&o.s), foreign(&other.s);
  Randomize(p.p, 80);
  Randomize(basis.p, 81);
  Randomize(out.p, 82);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, p.p, basis.p, d.p), mani_success);
  const auto before = out.Bytes();
  auto refused = [&](const maniSkeleton* s, const maniPose* a, const maniPose* b, int line) {
    EXPECT_EQ(maniSkeleton_ComputePoseDifference(s, a, b, out.p), mani_errorInvalid) << line;
    EXPECT_EQ(out.Bytes(), before) << line;
  };
  refused(nullptr, p.p, basis.p, __LINE__);
  refused(&o.s, nullptr, basis.p, __LINE__);
  refused(&o.s, p.p, nullptr, __LINE__);
  EXPECT_EQ(maniSkeleton_ComputePoseDifference(&o.s, p.p, basis.p, nullptr), mani_errorInvalid);
  refused(&o.s, foreign.p, basis.p, __LINE__);
  refused(&o.s, p.p, foreign.p, __LINE__);
  refused(&other.s, p.p, basis.p, __LINE__);
  refused(&o.s, d.p, basis.p, __LINE__);
  refused(&o.s, p.p, d.p, __LINE__);
  // Not finite: a basis scale of 0 on the last bone, translations too far
  // apart, a NaN input.
  maniTransform keep = maniPose_GetLocal(basis.p, 8), t = keep;
  t.scale.y = 0;
  maniPose_SetLocal(basis.p, 8, t);
  refused(&o.s, p.p, basis.p, __LINE__);
  t = keep;
  t.scale.y = FLT_TRUE_MIN;  // near 0: the quotient overflows
  maniPose_SetLocal(basis.p, 8, t);
  refused(&o.s, p.p, basis.p, __LINE__);
  t = keep;
  t.translation.x = -FLT_MAX;
  maniPose_SetLocal(basis.p, 8, t);
  maniTransform pk = maniPose_GetLocal(p.p, 8), pt = pk;
  pt.translation.x = FLT_MAX;
  maniPose_SetLocal(p.p, 8, pt);
  refused(&o.s, p.p, basis.p, __LINE__);
  // Other side: far apart but still finite is accepted.
  t.translation.x = -FLT_MAX / 2;
  maniPose_SetLocal(basis.p, 8, t);
  pt.translation.x = FLT_MAX / 2;
  maniPose_SetLocal(p.p, 8, pt);
  Pose scratch(&o.s);
  EXPECT_EQ(maniSkeleton_ComputePoseDifference(&o.s, p.p, basis.p, scratch.p), mani_success);
  pt.rotation.x = NAN;
  maniPose_SetLocal(p.p, 8, pt);
  refused(&o.s, p.p, basis.p, __LINE__);
}

TEST(AddLayers, Refusals) {
  Opened o(15, 9, maniFixtureRandom);
  Opened other(16, 9, maniFixtureRandom);
  Pose p(&o.s), basis(&o.s), d(&o.s), work(&o.s), foreign(&other.s), fd(&other.s), fb(&other.s);
  Randomize(p.p, 90);
  Randomize(basis.p, 91);
  Randomize(work.p, 92);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, p.p, basis.p, d.p), mani_success);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&other.s, foreign.p, fb.p, fd.p), mani_success);
  const auto before = work.Bytes();
  maniBlendLayer ok = {d.p, 0.5f, nullptr};
  auto refused = [&](maniPose* target, const maniSkeleton* s, const maniBlendLayer* l, uint32_t n, int line) {
    EXPECT_EQ(maniPose_AddLayers(target, s, l, n), mani_errorInvalid) << line;
    EXPECT_EQ(work.Bytes(), before) << line;
  };
  refused(nullptr, &o.s, &ok, 1, __LINE__);
  refused(work.p, nullptr, &ok, 1, __LINE__);
  refused(work.p, &o.s, nullptr, 1, __LINE__);
  refused(work.p, &other.s, &ok, 1, __LINE__);
  {
    maniBlendLayer l[2] = {ok, {fd.p, 0.5f, nullptr}};
    refused(work.p, &o.s, l, 2, __LINE__);
    maniBlendLayer m[2] = {ok, {p.p, 0.5f, nullptr}};  // a layer not a difference
    refused(work.p, &o.s, m, 2, __LINE__);
    maniBlendLayer n[2] = {ok, {nullptr, 0.5f, nullptr}};
    refused(work.p, &o.s, n, 2, __LINE__);
  }
  for (float w : {std::nextafter(0.0f, -1.0f), std::nextafter(1.0f, 2.0f), (float)NAN}) {
    maniBlendLayer l[2] = {ok, {d.p, w, nullptr}};
    refused(work.p, &o.s, l, 2, __LINE__);
    std::vector<float> m(9, 1.0f);
    m[8] = w;
    maniBlendLayer lm[2] = {ok, {d.p, 1.0f, m.data()}};
    refused(work.p, &o.s, lm, 2, __LINE__);
  }
  // A difference as the pose.
  const auto dBefore = d.Bytes();
  EXPECT_EQ(maniPose_AddLayers(d.p, &o.s, &ok, 1), mani_errorInvalid);
  EXPECT_EQ(d.Bytes(), dBefore);
  // Boundaries accepted; weight 0 changes nothing but the model's currency.
  maniBlendLayer zero = {d.p, 0.0f, nullptr};
  ASSERT_EQ(maniPose_ComputeModel(work.p, &o.s), mani_success);
  const auto current = work.Bytes();
  EXPECT_EQ(maniPose_AddLayers(work.p, &o.s, &zero, 1), mani_success);
  EXPECT_FALSE(maniPose_IsModelCurrent(work.p));
  maniTransform x = maniPose_GetLocal(work.p, 4);
  memcpy(work.memory, current.data(), current.size());
  maniTransform y = maniPose_GetLocal(work.p, 4);
  EXPECT_EQ(memcmp(&x, &y, sizeof x), 0);
  maniBlendLayer full = {d.p, 1.0f, nullptr};
  EXPECT_EQ(maniPose_AddLayers(work.p, &o.s, &full, 1), mani_success);
  EXPECT_EQ(maniPose_AddLayers(work.p, &o.s, &full, 0), mani_success);
}

TEST(AddLayers, InOrderAndScaleBetweenOneAndTheFactor) {
  Opened o(17, 8, maniFixtureChain);
  Pose p(&o.s), basis(&o.s), d(&o.s), work(&o.s);
  for (uint32_t b = 0; b < 8; ++b) {
    maniTransform t = Identity();
    t.scale = {3.0f, 0.5f, 1.0f};
    t.rotation = AxisAngleZ(90);
    t.translation = {1, 2, 3};
    maniPose_SetLocal(p.p, b, t);
    maniPose_SetLocal(basis.p, b, Identity());
  }
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&o.s, p.p, basis.p, d.p), mani_success);
  ASSERT_EQ(maniPose_SetRest(work.p, &o.s), mani_success);
  for (uint32_t b = 0; b < 8; ++b) maniPose_SetLocal(work.p, b, Identity());
  maniBlendLayer l[2] = {{d.p, 0.5f, nullptr}, {d.p, 0.5f, nullptr}};
  ASSERT_EQ(maniPose_AddLayers(work.p, &o.s, l, 2), mani_success);
  maniTransform t = maniPose_GetLocal(work.p, 5);
  EXPECT_FLOAT_EQ(t.translation.y, 2.0f);
  EXPECT_FLOAT_EQ(t.scale.x, 2.0f * 2.0f);      // (1 + 0.5 * 2) twice
  EXPECT_FLOAT_EQ(t.scale.y, 0.75f * 0.75f);    // (1 + 0.5 * -0.5) twice
  EXPECT_FLOAT_EQ(t.scale.z, 1.0f);
  // nlerp(1, 90 deg, 0.5) is a 45 degree turn; twice is 90 degrees.
  EXPECT_NEAR(2 * std::atan2((double)t.rotation.z, (double)t.rotation.w), M_PI / 2, 1e-6);
}

}  // namespace
