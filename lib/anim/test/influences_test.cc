// skinning.h's influences and build.h's maniBuildInfluences and
// maniBuildCenters: build, open, accessors, every refusal, mutations of the
// file, forged files, centers against an independent binary64 computation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/skinning_fixtures.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/build.h"
#include "maul/anim/skinning.h"

namespace {


struct Mesh {
  maniFixtureSkinnedMesh m;
  Mesh(uint64_t seed, uint32_t n, uint32_t per, bool centers) {
    EXPECT_EQ(maniFixtureMakeSkinnedMesh(seed, n, per, centers ? 1 : 0, &m), 1);
  }
  ~Mesh() { maniFixtureFreeSkinnedMesh(&m); }
};

struct Source {
  std::vector<uint32_t> offsets{0}, joints;
  std::vector<float> weights, blend;
  void Vertex(std::vector<std::pair<uint32_t, float>> list) {
    for (auto& p : list) {
      joints.push_back(p.first);
      weights.push_back(p.second);
    }
    offsets.push_back((uint32_t)joints.size());
  }
  maniInfluenceSource Get(const maniSkin* skin) {
    maniInfluenceSource s;
    memset(&s, 0, sizeof s);
    s.skin = skin;
    s.offsets = offsets.data();
    s.joints = joints.data();
    s.weights = weights.data();
    s.dualQuaternionWeights = blend.empty() ? nullptr : blend.data();
    s.vertexCount = (uint32_t)offsets.size() - 1;
    return s;
  }
};

TEST(BuildInfluences, SortedPaddedRenormalized) {
  Mesh mesh(1, 500, 4, false);  // for its skin (18 joints)
  const maniSkin* skin = &mesh.m.skin;
  Source src;
  src.Vertex({{3, 0.5f}, {1, 0.25f}, {7, 0.0f}, {2, 0.25f}, {9, 1.0f}});  // 4 weighted, a 0 dropped
  src.Vertex({});                                                         // no weight at all
  src.Vertex({{5, 0.3f}});
  src.Vertex({{0, 0.1f}, {1, 0.1f}, {2, 0.1f}, {3, 0.1f}, {4, 0.2f}, {5, 0.0f}});  // 5 weighted: 2 groups
  src.blend = {0.0f, 1.0f, 0.5f, 0.25f};
  Builder b;
  maniInfluenceSource s = src.Get(skin);
  ASSERT_EQ(maniBuildInfluences(b.b, &s).result, mani_success);
  File f = b.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  EXPECT_EQ(maniInfluences_GetVertexCount(&inf), 4u);
  EXPECT_EQ(maniInfluences_GetPerVertex(&inf), 8u);
  EXPECT_TRUE(maniInfluences_IsSkinFit(&inf, skin));
  // Expected lists: decreasing weight, then increasing joint; w / sum in binary64.
  struct E {
    uint32_t j;
    double w;
  };
  std::vector<std::vector<E>> expect = {
      {{9, 1.0 / 2.0}, {3, 0.5 / 2.0}, {1, 0.25 / 2.0}, {2, 0.25 / 2.0}},
      {},
      {{5, 1.0}},
      {{4, (double)0.2f / ((double)0.2f + 4 * (double)0.1f)},
       {0, (double)0.1f / ((double)0.2f + 4 * (double)0.1f)},
       {1, (double)0.1f / ((double)0.2f + 4 * (double)0.1f)},
       {2, (double)0.1f / ((double)0.2f + 4 * (double)0.1f)},
       {3, (double)0.1f / ((double)0.2f + 4 * (double)0.1f)}},
  };
  for (uint32_t v = 0; v < 4; ++v) {
    for (uint32_t k = 0; k < 8; ++k) {
      float w = -1;
      uint32_t j = maniInfluences_GetInfluence(&inf, v, k, &w);
      if (k < expect[v].size()) {
        EXPECT_EQ(j, expect[v][k].j) << v << " " << k;
        EXPECT_EQ(w, (float)expect[v][k].w) << v << " " << k;
      } else {
        EXPECT_EQ(j, 0u);
        EXPECT_EQ(w, 0.0f);
      }
    }
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, v), src.blend[v]);
  }
  // Past the counts: joint 0 at weight 0.
  float w = -1;
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 4, 0, &w), 0u);
  EXPECT_EQ(w, 0.0f);
  w = -1;
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 8, &w), 0u);
  EXPECT_EQ(w, 0.0f);
  EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 4), 0.0f);
  maniVec3 c = {7, 7, 7};
  EXPECT_FALSE(maniInfluences_GetCenter(&inf, 0, &c));
  EXPECT_EQ(c.x, 7.0f);
  // Same source, same bytes; the order of a vertex's influences does not matter.
  Source shuffled = src;
  std::swap(shuffled.joints[0], shuffled.joints[4]);
  std::swap(shuffled.weights[0], shuffled.weights[4]);
  Builder b2;
  maniInfluenceSource s2 = shuffled.Get(skin);
  ASSERT_EQ(maniBuildInfluences(b2.b, &s2).result, mani_success);
  File g = b2.Built();
  ASSERT_EQ(g.size, f.size);
  EXPECT_EQ(memcmp(g.data(), f.data(), f.size), 0);
  // Without blend weights: 0 everywhere.
  Source noBlend = src;
  noBlend.blend.clear();
  Builder b3;
  maniInfluenceSource s3 = noBlend.Get(skin);
  ASSERT_EQ(maniBuildInfluences(b3.b, &s3).result, mani_success);
  File h = b3.Built();
  ASSERT_EQ(maniOpenInfluences(h.data(), h.size, &inf).result, mani_success);
  EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 1), 0.0f);
  // Another skin's: not fit.
  Mesh other(2, 500, 4, false);
  EXPECT_FALSE(maniInfluences_IsSkinFit(&inf, &other.m.skin));
  EXPECT_FALSE(maniInfluences_IsSkinFit(&inf, nullptr));
}

TEST(BuildInfluences, WeightsSumToOneForTheSeededMesh) {
  Mesh mesh(3, 500, 8, false);
  const maniInfluences* inf = &mesh.m.influences;
  ASSERT_EQ(maniInfluences_GetPerVertex(inf), 8u);
  for (uint32_t v = 0; v < 500; ++v) {
    double sum = 0;
    float last = 2;
    for (uint32_t k = 0; k < 8; ++k) {
      float w;
      (void)maniInfluences_GetInfluence(inf, v, k, &w);
      EXPECT_LE(w, last);
      last = w;
      sum += w;
    }
    if (v % 97 == 96) {
      EXPECT_EQ(sum, 0.0);
    } else {
      EXPECT_NEAR(sum, 1.0, 4e-7);
    }
  }
}

TEST(BuildInfluences, Refusals) {
  Mesh mesh(1, 500, 4, false);
  const maniSkin* skin = &mesh.m.skin;
  const uint32_t joints = mesh.m.jointCount;
  auto build = [&](Source& s, const maniSkin* sk) {
    Builder b;
    maniInfluenceSource src = s.Get(sk);
    return maniBuildInfluences(b.b, &src);
  };
  auto expect = [](maniBuildResult r, maniResult code, uint32_t reason, uint64_t item, uint64_t other) {
    EXPECT_EQ(r.result, code);
    EXPECT_EQ(r.reason, reason);
    EXPECT_EQ(r.item, item);
    EXPECT_EQ(r.other, other);
  };
  {
    Builder b;
    EXPECT_EQ(maniBuildInfluences(b.b, nullptr).result, mani_errorInvalid);
    EXPECT_EQ(maniBuilder_GetMisuse(b.b), 1u);
    EXPECT_EQ(maniBuildInfluences(nullptr, nullptr).result, mani_errorInvalid);
  }
  Source empty;
  expect(build(empty, skin), mani_errorInvalid, maniBuildReasonCount, 0, 0);
  Source ok;
  ok.Vertex({{1, 0.5f}});
  maniSkin zero;
  memset(&zero, 0, sizeof zero);
  expect(build(ok, &zero), mani_errorInvalid, maniBuildReasonJoint, 0, MANI_NO_BONE);
  Source bad = ok;
  bad.Vertex({{2, 0.5f}});
  bad.offsets[1] = 5;  // vertex 0 ends past where vertex 1 ends
  bad.offsets[2] = 2;
  bad.joints.push_back(0);
  bad.weights.push_back(0);
  bad.joints.resize(8, 0);
  bad.weights.resize(8, 0);
  expect(build(bad, skin), mani_errorInvalid, maniBuildReasonCount, 2, 0);
  Source first = ok;
  first.offsets[0] = 1;
  expect(build(first, skin), mani_errorInvalid, maniBuildReasonCount, 0, 0);
  Source joint;
  joint.Vertex({{1, 0.5f}});
  joint.Vertex({{0, 0.5f}, {joints, 0.5f}});
  expect(build(joint, skin), mani_errorInvalid, maniBuildReasonJoint, 1, 2);
  Source nan;
  nan.Vertex({{1, 0.5f}, {2, NAN}});
  expect(build(nan, skin), mani_errorInvalid, maniBuildReasonNotFinite, 0, 1);
  Source infw;
  infw.Vertex({{1, INFINITY}});
  expect(build(infw, skin), mani_errorInvalid, maniBuildReasonNotFinite, 0, 0);
  Source neg;
  neg.Vertex({{1, 0.5f}});
  neg.Vertex({{1, -0.5f}});
  expect(build(neg, skin), mani_errorInvalid, maniBuildReasonWeight, 1, 1);
  Source rep;
  rep.Vertex({{1, 0.5f}, {2, 0.0f}, {2, 0.25f}, {1, 0.25f}});
  expect(build(rep, skin), mani_errorInvalid, maniBuildReasonRepeatedJoint, 0, 3);
  Source repZero;  // a repeated joint at weight 0 is dropped, not refused
  repZero.Vertex({{1, 0.5f}, {1, 0.0f}});
  EXPECT_EQ(build(repZero, skin).result, mani_success);
  Source many;
  std::vector<std::pair<uint32_t, float>> list;
  for (uint32_t k = 0; k < MANI_MAX_INFLUENCES + 2; ++k) list.push_back({k, k == 3 ? 0.0f : 0.1f});
  many.Vertex({{0, 1.0f}});
  many.Vertex(list);
  expect(build(many, skin), mani_errorLimit, maniBuildReasonCount, 1, 1 + MANI_MAX_INFLUENCES + 1);  // an index into joints and weights
  Source blend = ok;
  blend.blend = {1.5f};
  expect(build(blend, skin), mani_errorInvalid, maniBuildReasonWeight, 0, UINT64_MAX);
  blend.blend = {NAN};
  expect(build(blend, skin), mani_errorInvalid, maniBuildReasonNotFinite, 0, UINT64_MAX);
  // A failed build keeps what the builder held.
  Builder b;
  maniInfluenceSource good = ok.Get(skin);
  ASSERT_EQ(maniBuildInfluences(b.b, &good).result, mani_success);
  File before = b.Built();
  maniInfluenceSource worse = neg.Get(skin);
  EXPECT_EQ(maniBuildInfluences(b.b, &worse).result, mani_errorInvalid);
  File after = b.Built();
  ASSERT_EQ(before.size, after.size);
  EXPECT_EQ(memcmp(before.data(), after.data(), before.size), 0);
}

// An independent binary64 computation of Le and Hodgins' Eq. 4, dense.
std::vector<double> ReferenceCenters(const maniFixtureSkinnedMesh& m, double sigma) {
  const maniInfluences* inf = &m.influences;
  const uint32_t n = m.vertexCount, J = m.jointCount;
  std::vector<std::vector<double>> W(n, std::vector<double>(J, 0.0));
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t k = 0; k < maniInfluences_GetPerVertex(inf); ++k) {
      float w;
      uint32_t j = maniInfluences_GetInfluence(inf, v, k, &w);
      W[v][j] += w;
    }
  std::vector<double> out(3 * n);
  for (uint32_t v = 0; v < n; ++v) {
    double num[3] = {0, 0, 0}, den = 0;
    for (uint32_t t = 0; t < m.triangleCount; ++t) {
      const uint32_t* tri = m.triangles + 3 * t;
      std::vector<double> wt(J);
      for (uint32_t j = 0; j < J; ++j) wt[j] = (W[tri[0]][j] + W[tri[1]][j] + W[tri[2]][j]) / 3.0;
      double s = 0;
      for (uint32_t j = 0; j < J; ++j)
        for (uint32_t k = j + 1; k < J; ++k) {
          double d = wt[j] * W[v][k] - wt[k] * W[v][j];
          s += wt[j] * wt[k] * W[v][j] * W[v][k] * std::exp(-d * d / (sigma * sigma));
        }
      const float* p[3] = {m.positions + 3 * tri[0], m.positions + 3 * tri[1], m.positions + 3 * tri[2]};
      double e1[3], e2[3];
      for (int k = 0; k < 3; ++k) e1[k] = (double)p[1][k] - p[0][k], e2[k] = (double)p[2][k] - p[0][k];
      double x = e1[1] * e2[2] - e1[2] * e2[1], y = e1[2] * e2[0] - e1[0] * e2[2], z = e1[0] * e2[1] - e1[1] * e2[0];
      double area = 0.5 * std::sqrt(x * x + y * y + z * z);
      den += s * area;
      for (int k = 0; k < 3; ++k) num[k] += s * area * ((double)p[0][k] + p[1][k] + p[2][k]) / 3.0;
    }
    for (int k = 0; k < 3; ++k) out[3 * v + k] = den > 0 ? num[k] / den : m.positions[3 * v + k];
  }
  return out;
}

TEST(BuildCenters, MatchesIndependentBinary64) {
  Mesh mesh(5, 300, 4, true);
  const maniFixtureSkinnedMesh& m = mesh.m;
  std::vector<double> ref = ReferenceCenters(m, MANI_CENTERS_DEFAULT_SIGMA);
  int restCount = 0;
  for (uint32_t v = 0; v < m.vertexCount; ++v) {
    maniVec3 c;
    ASSERT_TRUE(maniInfluences_GetCenter(&m.influences, v, &c));
    const double scale = 1e-5 * (1 + std::fabs(ref[3 * v]) + std::fabs(ref[3 * v + 1]) + std::fabs(ref[3 * v + 2]));
    EXPECT_NEAR(c.x, ref[3 * v], scale) << v;
    EXPECT_NEAR(c.y, ref[3 * v + 1], scale) << v;
    EXPECT_NEAR(c.z, ref[3 * v + 2], scale) << v;
    if (c.x == m.positions[3 * v] && c.y == m.positions[3 * v + 1] && c.z == m.positions[3 * v + 2]) restCount++;
  }
  EXPECT_GE(restCount, 3);                          // the weightless vertices at least
  EXPECT_LT(restCount, (int)m.vertexCount / 2);      // most have a real center
  maniVec3 c;
  EXPECT_FALSE(maniInfluences_GetCenter(&m.influences, m.vertexCount, &c));
  EXPECT_FALSE(maniInfluences_GetCenter(&m.influences, 0, nullptr));
  // The rest is kept: weights, joints and blend weights.
  for (uint32_t v = 0; v < m.vertexCount; v += 7)
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&m.influences, v), m.blend[v]);
}

TEST(BuildCenters, SingleInfluenceTakesItsRestAndSigmaZero) {
  Mesh mesh(1, 500, 4, false);
  Source src;
  src.Vertex({{1, 1.0f}});
  src.Vertex({{1, 0.5f}, {2, 0.5f}});
  src.Vertex({{1, 0.5f}, {2, 0.5f}});
  src.Vertex({{1, 0.5f}, {2, 0.5f}});
  Builder b;
  maniInfluenceSource s = src.Get(&mesh.m.skin);
  ASSERT_EQ(maniBuildInfluences(b.b, &s).result, mani_success);
  File f = b.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  const float pos[4][4] = {{9, 9, 9, 0}, {0, 0, 0, 0}, {3, 0, 0, 0}, {0, 6, 0, 0}};  // stride 16
  const uint32_t tri[3] = {1, 2, 3};
  for (double sigma : {0.0, 0.1}) {
    maniCenterSource cs = {&inf, &pos[0][0], 16, 1, tri, sigma};
    ASSERT_EQ(maniBuildCenters(b.b, &cs).result, mani_success);
    File g = b.Built();
    maniInfluences out;
    ASSERT_EQ(maniOpenInfluences(g.data(), g.size, &out).result, mani_success);
    maniVec3 c;
    ASSERT_TRUE(maniInfluences_GetCenter(&out, 0, &c));
    EXPECT_EQ(c.x, 9.0f);  // a single influence: its rest position
    ASSERT_TRUE(maniInfluences_GetCenter(&out, 1, &c));
    EXPECT_EQ(c.x, 1.0f);  // the one triangle's centroid, exactly
    EXPECT_EQ(c.y, 2.0f);
    EXPECT_EQ(c.z, 0.0f);
  }
  // Refusals.
  auto expect = [](maniBuildResult r, uint32_t reason, uint64_t item, uint64_t other) {
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, reason);
    EXPECT_EQ(r.item, item);
    EXPECT_EQ(r.other, other);
  };
  maniCenterSource cs = {&inf, &pos[0][0], 16, 1, tri, 0.1};
  maniCenterSource x = cs;
  x.positionStride = 11;
  expect(maniBuildCenters(b.b, &x), maniBuildReasonCount, 0, 0);
  x = cs;
  x.positions = nullptr;
  expect(maniBuildCenters(b.b, &x), maniBuildReasonCount, 0, 0);
  x = cs;
  x.sigma = -1;
  expect(maniBuildCenters(b.b, &x), maniBuildReasonOption, 0, 0);
  x.sigma = NAN;
  expect(maniBuildCenters(b.b, &x), maniBuildReasonOption, 0, 0);
  x = cs;
  const uint32_t badTri[3] = {1, 4, 2};
  x.triangles = badTri;
  expect(maniBuildCenters(b.b, &x), maniBuildReasonTriangle, 0, 1);
  float nanPos[4][4];
  memcpy(nanPos, pos, sizeof pos);
  nanPos[2][1] = NAN;
  x = cs;
  x.positions = &nanPos[0][0];
  expect(maniBuildCenters(b.b, &x), maniBuildReasonNotFinite, 2, 0);
  maniInfluences zero;
  memset(&zero, 0, sizeof zero);
  x = cs;
  x.influences = &zero;
  expect(maniBuildCenters(b.b, &x), maniBuildReasonCount, 0, 0);
  EXPECT_EQ(maniBuildCenters(b.b, nullptr).result, mani_errorInvalid);
}

uint64_t Reidentify(File& g) {
  uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindInfluences, g.data() + 64, g.size - 64);
  memcpy(g.data() + 32, &id, 8);
  return id;
}

File SmallFile(bool centers) {
  Source src;
  src.Vertex({{1, 0.75f}, {2, 0.25f}});
  src.Vertex({{0, 1.0f}});
  src.Vertex({});
  src.blend = {0.5f, 1.0f, 0.0f};
  Mesh mesh(1, 500, 4, false);
  Builder b;
  maniInfluenceSource s = src.Get(&mesh.m.skin);
  EXPECT_EQ(maniBuildInfluences(b.b, &s).result, mani_success);
  File f = b.Built();
  if (!centers) return f;
  maniInfluences inf;
  EXPECT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const uint32_t tri[3] = {0, 1, 2};
  maniCenterSource cs = {&inf, pos, 12, 1, tri, 0.1};
  EXPECT_EQ(maniBuildCenters(b.b, &cs).result, mani_success);
  return b.Built();
}

TEST(OpenInfluences, EveryTruncationAndBytePatchIsRefused) {
  File f = SmallFile(true);
  maniInfluences v;
  ExpectEveryMutationRefused(f.data(), f.size, [&](const void* b, size_t n) { return maniOpenInfluences(b, n, &v); });
}

TEST(OpenInfluences, ForgedFilesAreRefusedAtTheWrongField) {
  File f = SmallFile(true);
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  const uint64_t info = 192;  // the table ends at 184, padded to 16
  auto forge = [&](uint64_t at, const void* value, size_t n) {
    File g = f;
    memcpy(g.data() + at, value, n);
    Reidentify(g);
    maniInfluences v;
    memset(&v, 0xAB, sizeof v);
    maniInfluences before = v;
    maniFileResult r = maniOpenInfluences(g.data(), g.size, &v);
    if (r.result != mani_success) {
      EXPECT_EQ(memcmp(&v, &before, sizeof v), 0);
    }
    return r;
  };
  auto expectAt = [&](uint64_t at, const void* value, size_t n, uint64_t wrongAt) {
    maniFileResult r = forge(at, value, n);
    EXPECT_EQ(r.result, mani_errorFormat) << "field at " << at;
    EXPECT_EQ(r.offset, wrongAt) << "field at " << at;
  };
  uint32_t infoOffset;
  memcpy(&infoOffset, f.data() + 64 + 8, 4);
  ASSERT_EQ(infoOffset, info);
  EXPECT_EQ(forge(inf.joints, f.data() + inf.joints, 2).result, mani_success);
  uint32_t zero = 0, three = 3, twenty = 20, eight = 8, big = MANI_MAX_BONES + 1, flags = 4, two = 2;
  expectAt(info, &zero, 4, info);
  expectAt(info + 4, &zero, 4, info + 4);
  expectAt(info + 4, &three, 4, info + 4);
  expectAt(info + 4, &twenty, 4, info + 4);
  expectAt(info + 4, &eight, 4, mcore_SectionSizeField(1));
  expectAt(info, &two, 4, mcore_SectionSizeField(1));
  expectAt(info + 8, &zero, 4, info + 8);
  expectAt(info + 8, &big, 4, info + 8);
  expectAt(info + 8, &two, 4, inf.joints + 2 * 1);  // vertex 0's second joint, 2, is past 2 joints
  expectAt(info + 12, &flags, 4, info + 12);
  uint32_t blendOnly = 1;
  expectAt(info + 12, &blendOnly, 4, mcore_SectionSizeField(4));
  uint64_t one = 1;
  expectAt(info + 24, &one, 8, info + 24);
  uint16_t far = 0xFFFF;
  expectAt(inf.joints + 2 * 5, &far, 2, inf.joints + 2 * 5);
  float bad[] = {NAN, -0.25f, 1.5f, INFINITY};
  for (float x : bad) {
    expectAt(inf.weights + 4 * 6, &x, 4, inf.weights + 4 * 6);
    expectAt(inf.dualQuaternionWeights + 4, &x, 4, inf.dualQuaternionWeights + 4);
  }
  float nan = NAN, inff = -INFINITY;
  expectAt(inf.centers + 4 * 7, &nan, 4, inf.centers + 4 * 7);
  expectAt(inf.centers, &inff, 4, inf.centers);
  uint64_t skinId = 99;
  EXPECT_EQ(forge(info + 16, &skinId, 8).result, mani_success);
  // Other versions and later tags.
  for (uint32_t ver : {0u, 3u, 5u, 100u}) {
    File g = f;
    memcpy(g.data() + 8, &ver, 4);
    maniInfluences v;
    maniFileResult r = maniOpenInfluences(g.data(), g.size, &v);
    EXPECT_EQ(r.result, mani_errorVersion) << ver;
    EXPECT_EQ(r.offset, 8u);
  }
  File g = f;
  uint32_t later = MCORE_TAG(5, 2);
  memcpy(g.data() + 64 + 24, &later, 4);
  Reidentify(g);
  maniInfluences v;
  maniFileResult r = maniOpenInfluences(g.data(), g.size, &v);
  EXPECT_EQ(r.result, mani_errorVersion);
  EXPECT_EQ(r.offset, 64u + 24);
  // NULL and misaligned.
  EXPECT_EQ(maniOpenInfluences(nullptr, f.size, &v).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenInfluences(f.data(), f.size, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenInfluences(f.data() + 4, f.size - 4, &v).result, mani_errorInvalid);
}

TEST(InfluencesView, ZeroedOrDamagedViewsReadAsEmptyAndChangedBytesStayInside) {
  maniInfluences z;
  memset(&z, 0, sizeof z);
  float w = 5;
  maniVec3 c;
  EXPECT_EQ(maniInfluences_GetVertexCount(&z), 0u);
  EXPECT_EQ(maniInfluences_GetPerVertex(&z), 0u);
  EXPECT_EQ(maniInfluences_GetInfluence(&z, 0, 0, &w), 0u);
  EXPECT_EQ(w, 0.0f);
  EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&z, 0), 0.0f);
  EXPECT_FALSE(maniInfluences_GetCenter(&z, 0, &c));
  EXPECT_EQ(maniInfluences_GetVertexCount(nullptr), 0u);
  File f = SmallFile(true);
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  maniInfluences grown = inf;
  grown.vertexCount = 1000000;  // counts that do not fit the file
  EXPECT_EQ(maniInfluences_GetVertexCount(&grown), 0u);
  maniInfluences shrunk = inf;
  shrunk.size = 100;
  EXPECT_EQ(maniInfluences_GetPerVertex(&shrunk), 0u);
  // A joint changed after the open past the skin's joints reads 0.
  uint16_t far = 0x7777;
  memcpy(f.data() + inf.joints, &far, 2);
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 0, &w), 0u);
  EXPECT_EQ(w, 0.75f);
}

}  // namespace
