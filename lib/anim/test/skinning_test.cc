// skinning.h's jobs: every method against an independent binary64
// reference, the backend's bits against the scalar reference's, ranges,
// strides, in place, weightless vertices, blends at 0 and 1, refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/anim/test/fixtures/skinning_fixtures.h"
#include "maul/anim/build.h"
#include "maul/anim/skinning.h"

// The job runner with a choice of kernels (lib/anim/src/skinning/
// skinning_internal.h): reference != 0 runs the scalar reference's.
extern "C" maniResult mani_SkinRun(const maniSkinJob* job, int method, int reference);

namespace {

enum Method { kLinear = 0, kDual = 1, kBlended = 2, kCenters = 3 };

maniResult Skin(const maniSkinJob* job, int method) {
  switch (method) {
    case kLinear: return maniSkinLinear(job);
    case kDual: return maniSkinDualQuaternion(job);
    case kBlended: return maniSkinBlended(job);
    default: return maniSkinCenters(job);
  }
}

struct Mesh {
  maniFixtureSkinnedMesh m;
  std::vector<maniAffine> palette;
  std::vector<float> dq;
  Mesh(uint64_t seed, uint32_t n, uint32_t per, bool centers = true) {
    EXPECT_EQ(maniFixtureMakeSkinnedMesh(seed, n, per, centers ? 1 : 0, &m), 1);
    palette.resize(m.jointCount);
    maniFixtureRandomPalette(seed + 1, m.jointCount, palette.data());
    dq.resize((size_t)m.jointCount * MANI_DUAL_QUATERNION_FLOATS);
    EXPECT_EQ(maniConvertPaletteToDualQuaternions(palette.data(), m.jointCount, dq.data()), mani_success);
  }
  ~Mesh() { maniFixtureFreeSkinnedMesh(&m); }
};

// Outputs of one job over the three packed streams.
struct Out {
  std::vector<float> pos, nrm, tan;
  explicit Out(uint32_t n, float fill = 12345.0f) : pos(3 * n, fill), nrm(3 * n, fill), tan(4 * n, fill) {}
  bool operator==(const Out& o) const {
    return memcmp(pos.data(), o.pos.data(), 4 * pos.size()) == 0 && memcmp(nrm.data(), o.nrm.data(), 4 * nrm.size()) == 0 &&
           memcmp(tan.data(), o.tan.data(), 4 * tan.size()) == 0;
  }
};

struct Job {
  maniSkinStream streams[3];
  maniSkinJob job;
  Job(const Mesh& mesh, Out& out, uint32_t first, uint32_t count, const maniInfluences* inf = nullptr) {
    const maniFixtureSkinnedMesh& m = mesh.m;
    streams[0] = {m.positions, out.pos.data(), 12, 12, maniSkinStreamPosition, 0};
    streams[1] = {m.normals, out.nrm.data(), 12, 12, maniSkinStreamNormal, 0};
    streams[2] = {m.tangents, out.tan.data(), 16, 16, maniSkinStreamTangent, 0};
    job.influences = inf ? inf : &m.influences;
    job.palette = mesh.palette.data();
    job.dualQuaternions = mesh.dq.data();
    job.paletteCount = m.jointCount;
    job.firstVertex = first;
    job.vertexCount = count;
    job.streamCount = 3;
    job.streams = streams;
  }
};

// ---- The independent binary64 reference -----------------------------------

struct M34 {
  double m[3][4];  // rows
};

M34 FromAffine(const maniAffine& a) {
  M34 r;
  for (int c = 0; c < 4; ++c) {
    const float* col = &a.columns[c].x;
    for (int row = 0; row < 3; ++row) r.m[row][c] = col[row];
  }
  return r;
}

void QuatToRot(const double q[4], double r[3][3]) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  r[0][0] = 1 - 2 * (y * y + z * z), r[0][1] = 2 * (x * y - w * z), r[0][2] = 2 * (x * z + w * y);
  r[1][0] = 2 * (x * y + w * z), r[1][1] = 1 - 2 * (x * x + z * z), r[1][2] = 2 * (y * z - w * x);
  r[2][0] = 2 * (x * z - w * y), r[2][1] = 2 * (y * z + w * x), r[2][2] = 1 - 2 * (x * x + y * y);
}

// The vertex's matrix for a method, from the influences and the palettes.
M34 Reference(const Mesh& mesh, const maniInfluences* inf, uint32_t v, int method) {
  const uint32_t k = maniInfluences_GetPerVertex(inf);
  std::vector<uint32_t> j(k);
  std::vector<double> w(k);
  for (uint32_t i = 0; i < k; ++i) {
    float f;
    j[i] = maniInfluences_GetInfluence(inf, v, i, &f);
    w[i] = f;
  }
  M34 lin = {};
  for (uint32_t i = 0; i < k; ++i) {
    M34 p = FromAffine(mesh.palette[j[i]]);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) lin.m[r][c] += w[i] * p.m[r][c];
  }
  if (method == kLinear) return lin;
  // Two phases: S blended, then q (and d) in the first's hemisphere.
  double S[3][3] = {}, q[4] = {}, d[4] = {};
  const float* q0 = &mesh.dq[(size_t)j[0] * 20];
  for (uint32_t i = 0; i < k; ++i) {
    const float* e = &mesh.dq[(size_t)j[i] * 20];
    double dot = 0;
    for (int t = 0; t < 4; ++t) dot += (double)q0[t] * e[t];
    const double s = dot < 0 ? -w[i] : w[i];
    for (int t = 0; t < 4; ++t) q[t] += s * e[t], d[t] += s * e[4 + t];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) S[r][c] += w[i] * e[8 + 4 * r + c];
  }
  const double len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int t = 0; t < 4; ++t) q[t] /= len, d[t] /= len;
  double R[3][3];
  QuatToRot(q, R);
  M34 out = {};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      for (int t = 0; t < 3; ++t) out.m[r][c] += R[r][t] * S[t][c];
  if (method == kDual || method == kBlended) {
    // t = 2 d conj(q), vector part.
    const double tx = 2 * (q[3] * d[0] - d[3] * q[0] + (q[1] * d[2] - q[2] * d[1]));
    const double ty = 2 * (q[3] * d[1] - d[3] * q[1] + (q[2] * d[0] - q[0] * d[2]));
    const double tz = 2 * (q[3] * d[2] - d[3] * q[2] + (q[0] * d[1] - q[1] * d[0]));
    out.m[0][3] = tx, out.m[1][3] = ty, out.m[2][3] = tz;
    if (method == kDual) return out;
    const double b = maniInfluences_GetDualQuaternionWeight(inf, v);
    M34 mix;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) mix.m[r][c] = (1 - b) * lin.m[r][c] + b * out.m[r][c];
    return mix;
  }
  // Centers: translation sum w_j (R_j S c + t_j) - R S c.
  maniVec3 cf;
  EXPECT_TRUE(maniInfluences_GetCenter(inf, v, &cf));
  const double c[3] = {cf.x, cf.y, cf.z};
  double sc[3] = {};
  for (int r = 0; r < 3; ++r)
    for (int t = 0; t < 3; ++t) sc[r] += S[r][t] * c[t];
  double acc[3] = {};
  for (uint32_t i = 0; i < k; ++i) {
    const float* e = &mesh.dq[(size_t)j[i] * 20];
    const double qi[4] = {e[0], e[1], e[2], e[3]};
    double Ri[3][3];
    QuatToRot(qi, Ri);
    const maniAffine& p = mesh.palette[j[i]];
    const double ti[3] = {p.columns[3].x, p.columns[3].y, p.columns[3].z};
    for (int r = 0; r < 3; ++r) {
      double x = ti[r];
      for (int t = 0; t < 3; ++t) x += Ri[r][t] * sc[t];
      acc[r] += w[i] * x;
    }
  }
  for (int r = 0; r < 3; ++r) {
    double rsc = 0;
    for (int t = 0; t < 3; ++t) rsc += out.m[r][t] * c[t];
    out.m[r][3] = acc[r] - rsc;
  }
  return out;
}

void Normalize(double v[3]) {
  const double l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int i = 0; i < 3; ++i) v[i] = l > 0 ? v[i] / l : 0;
}

class Methods : public ::testing::TestWithParam<int> {};

TEST_P(Methods, MatchIndependentBinary64AndTheScalarReferenceBits) {
  const int method = GetParam();
  Mesh mesh(7, 1000, 8);
  const maniFixtureSkinnedMesh& m = mesh.m;
  Out out(m.vertexCount), ref(m.vertexCount);
  Job a(mesh, out, 0, m.vertexCount), b(mesh, ref, 0, m.vertexCount);
  ASSERT_EQ(Skin(&a.job, method), mani_success);
  ASSERT_EQ(mani_SkinRun(&b.job, method, 1), mani_success);
  EXPECT_TRUE(out == ref) << "backend and scalar reference differ";
  double worstP = 0, worstN = 0, worstT = 0;
  for (uint32_t v = 0; v < m.vertexCount; ++v) {
    const float* p = m.positions + 3 * v;
    const float* n = m.normals + 3 * v;
    const float* t = m.tangents + 4 * v;
    if (v % 97 == 96) {  // weightless: copied
      EXPECT_EQ(memcmp(&out.pos[3 * v], p, 12), 0);
      EXPECT_EQ(memcmp(&out.nrm[3 * v], n, 12), 0);
      EXPECT_EQ(memcmp(&out.tan[4 * v], t, 16), 0);
      continue;
    }
    M34 M = Reference(mesh, &m.influences, v, method);
    double P[3], N[3], T[3];
    for (int r = 0; r < 3; ++r) {
      P[r] = M.m[r][3] + M.m[r][0] * p[0] + M.m[r][1] * p[1] + M.m[r][2] * p[2];
      T[r] = M.m[r][0] * t[0] + M.m[r][1] * t[1] + M.m[r][2] * t[2];
    }
    // The inverse transpose's direction: cofactor times the determinant's sign.
    double a3[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) a3[r][c] = M.m[r][c];
    double cof[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        cof[r][c] = a3[r1][c1] * a3[r2][c2] - a3[r1][c2] * a3[r2][c1];
      }
    const double det = a3[0][0] * cof[0][0] + a3[0][1] * cof[0][1] + a3[0][2] * cof[0][2];
    for (int r = 0; r < 3; ++r) N[r] = (det < 0 ? -1 : 1) * (cof[r][0] * n[0] + cof[r][1] * n[1] + cof[r][2] * n[2]);
    Normalize(N);
    Normalize(T);
    for (int r = 0; r < 3; ++r) {
      worstP = std::max(worstP, std::fabs(P[r] - out.pos[3 * v + r]) / (1 + std::fabs(P[r])));
      worstN = std::max(worstN, std::fabs(N[r] - out.nrm[3 * v + r]));
      worstT = std::max(worstT, std::fabs(T[r] - out.tan[4 * v + r]));
    }
    EXPECT_EQ(memcmp(&out.tan[4 * v + 3], &t[3], 4), 0);  // handedness copied
  }
  EXPECT_LT(worstP, 2e-5) << "method " << method;
  EXPECT_LT(worstN, 2e-4) << "method " << method;
  EXPECT_LT(worstT, 2e-4) << "method " << method;
}

TEST_P(Methods, DisjointRangesGiveTheBitsOfOneJob) {
  const int method = GetParam();
  Mesh mesh(8, 777, 4);
  const uint32_t n = mesh.m.vertexCount;
  Out whole(n), parts(n);
  Job a(mesh, whole, 0, n);
  ASSERT_EQ(Skin(&a.job, method), mani_success);
  const uint32_t cuts[] = {0, 1, 13, 14, 100, 509, 776, 777};
  for (size_t i = 0; i + 1 < sizeof cuts / sizeof cuts[0]; ++i) {
    Job b(mesh, parts, cuts[i], cuts[i + 1] - cuts[i]);
    ASSERT_EQ(Skin(&b.job, method), mani_success);
  }
  EXPECT_TRUE(whole == parts);
  // An empty range writes nothing.
  Out none(n);
  Job e(mesh, none, n, 0);
  ASSERT_EQ(Skin(&e.job, method), mani_success);
  EXPECT_TRUE(none == Out(n));
}

TEST_P(Methods, StridesAndInPlaceGiveTheSameBits) {
  const int method = GetParam();
  Mesh mesh(9, 301, 12);
  const maniFixtureSkinnedMesh& m = mesh.m;
  const uint32_t n = m.vertexCount;
  Out packed(n);
  Job a(mesh, packed, 0, n);
  ASSERT_EQ(Skin(&a.job, method), mani_success);
  // One interleaved buffer of 48 bytes a vertex: position, normal, tangent, 8 spare; skinned in place.
  std::vector<float> inter(12 * (size_t)n, -7.0f);
  for (uint32_t v = 0; v < n; ++v) {
    memcpy(&inter[12 * v], m.positions + 3 * v, 12);
    memcpy(&inter[12 * v + 3], m.normals + 3 * v, 12);
    memcpy(&inter[12 * v + 6], m.tangents + 4 * v, 16);
  }
  maniSkinStream s[3] = {{&inter[0], &inter[0], 48, 48, maniSkinStreamPosition, 0},
                         {&inter[3], &inter[3], 48, 48, maniSkinStreamNormal, 0},
                         {&inter[6], &inter[6], 48, 48, maniSkinStreamTangent, 0}};
  maniSkinJob job = a.job;
  job.streams = s;
  ASSERT_EQ(Skin(&job, method), mani_success);
  for (uint32_t v = 0; v < n; ++v) {
    ASSERT_EQ(memcmp(&inter[12 * v], &packed.pos[3 * v], 12), 0) << v;
    ASSERT_EQ(memcmp(&inter[12 * v + 3], &packed.nrm[3 * v], 12), 0) << v;
    ASSERT_EQ(memcmp(&inter[12 * v + 6], &packed.tan[4 * v], 16), 0) << v;
    EXPECT_EQ(inter[12 * v + 10], -7.0f);
    EXPECT_EQ(inter[12 * v + 11], -7.0f);
  }
  // A tangent read as a direction stream: the same xyz.
  std::vector<float> dir(3 * (size_t)n);
  maniSkinStream d = {m.tangents, dir.data(), 16, 12, maniSkinStreamDirection, 0};
  job.streams = &d;
  job.streamCount = 1;
  ASSERT_EQ(Skin(&job, method), mani_success);
  for (uint32_t v = 0; v < n; ++v) ASSERT_EQ(memcmp(&dir[3 * v], &packed.tan[4 * v], 12), 0) << v;
}

INSTANTIATE_TEST_SUITE_P(Skinning, Methods, ::testing::Values(kLinear, kDual, kBlended, kCenters));

TEST(Skinning, BlendAtZeroAndOneGivesLinearAndDualBits) {
  Mesh mesh(10, 600, 8);
  const uint32_t n = mesh.m.vertexCount;
  Out lin(n), dual(n), blended(n);
  Job a(mesh, lin, 0, n), b(mesh, dual, 0, n), c(mesh, blended, 0, n);
  ASSERT_EQ(maniSkinLinear(&a.job), mani_success);
  ASSERT_EQ(maniSkinDualQuaternion(&b.job), mani_success);
  ASSERT_EQ(maniSkinBlended(&c.job), mani_success);
  int zeros = 0, ones = 0;
  for (uint32_t v = 0; v < n; ++v) {
    const float bw = maniInfluences_GetDualQuaternionWeight(&mesh.m.influences, v);
    const Out& want = bw == 0.0f ? lin : dual;
    if (bw != 0.0f && bw != 1.0f) continue;
    (bw == 0.0f ? zeros : ones)++;
    EXPECT_EQ(memcmp(&blended.pos[3 * v], &want.pos[3 * v], 12), 0) << v;
    EXPECT_EQ(memcmp(&blended.nrm[3 * v], &want.nrm[3 * v], 12), 0) << v;
    EXPECT_EQ(memcmp(&blended.tan[4 * v], &want.tan[4 * v], 16), 0) << v;
  }
  EXPECT_GT(zeros, 50);
  EXPECT_GT(ones, 50);
}

TEST(Skinning, OneInfluenceMovesAsLinearUpToRounding) {
  Mesh base(11, 100, 4, false);
  // Influences with one joint a vertex, and centers (anywhere: one influence makes them irrelevant).
  std::vector<uint32_t> offsets(101), joints(100);
  std::vector<float> weights(100, 1.0f);
  for (uint32_t v = 0; v < 100; ++v) offsets[v + 1] = v + 1, joints[v] = (v * 7) % base.m.jointCount;
  maniBuilderDef def = maniDefaultBuilderDef();
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  maniInfluenceSource src = {&base.m.skin, offsets.data(), joints.data(), weights.data(), nullptr, 100, 0};
  ASSERT_EQ(maniBuildInfluences(b, &src).result, mani_success);
  size_t size = 0;
  void* f1 = maniFixtureCopyBuilt(b, 16, &size);
  maniInfluences one;
  ASSERT_EQ(maniOpenInfluences(f1, size, &one).result, mani_success);
  maniCenterSource cs = {&one, base.m.positions, 12, base.m.triangleCount, base.m.triangles, 0.1};
  ASSERT_EQ(maniBuildCenters(b, &cs).result, mani_success);
  void* f2 = maniFixtureCopyBuilt(b, 16, &size);
  maniInfluences withCenters;
  ASSERT_EQ(maniOpenInfluences(f2, size, &withCenters).result, mani_success);
  Out lin(100), dual(100), cen(100);
  Job a(base, lin, 0, 100, &withCenters), d(base, dual, 0, 100, &withCenters), c(base, cen, 0, 100, &withCenters);
  ASSERT_EQ(maniSkinLinear(&a.job), mani_success);
  ASSERT_EQ(maniSkinDualQuaternion(&d.job), mani_success);
  ASSERT_EQ(maniSkinCenters(&c.job), mani_success);
  for (size_t i = 0; i < lin.pos.size(); ++i) {
    EXPECT_NEAR(dual.pos[i], lin.pos[i], 2e-5 * (1 + std::fabs(lin.pos[i])));
    EXPECT_NEAR(cen.pos[i], lin.pos[i], 2e-5 * (1 + std::fabs(lin.pos[i])));
    EXPECT_NEAR(dual.nrm[i], lin.nrm[i], 2e-5);
    EXPECT_NEAR(cen.nrm[i], lin.nrm[i], 2e-5);
  }
  free(f1);
  free(f2);
  maniDestroyBuilder(b);
}

TEST(Skinning, RefusalsWriteNothing) {
  Mesh mesh(12, 64, 4, false);  // no centers
  const uint32_t n = mesh.m.vertexCount;
  Out out(n);
  Job good(mesh, out, 0, n);
  auto refused = [&](const maniSkinJob& job, int method) {
    EXPECT_EQ(Skin(&job, method), mani_errorInvalid) << method;
    EXPECT_TRUE(out == Out(n)) << method;
  };
  for (int method = 0; method < 4; ++method) {
    EXPECT_EQ(Skin(nullptr, method), mani_errorInvalid);
    maniSkinJob j = good.job;
    maniInfluences zero;
    memset(&zero, 0, sizeof zero);
    j.influences = &zero;
    refused(j, method);
    j = good.job;
    j.influences = nullptr;
    refused(j, method);
    j = good.job;
    j.palette = nullptr;
    refused(j, method);
    j = good.job;
    j.paletteCount--;
    refused(j, method);
    j = good.job;
    j.firstVertex = 1;
    refused(j, method);
    j = good.job;
    j.firstVertex = n + 1;
    j.vertexCount = 0;
    refused(j, method);
    j = good.job;
    j.streamCount = MANI_MAX_SKIN_STREAMS + 1;
    refused(j, method);
    j = good.job;
    j.streams = nullptr;
    refused(j, method);
    for (int field = 0; field < 6; ++field) {
      maniSkinStream s[3];
      memcpy(s, good.streams, sizeof s);
      if (field == 0) s[2].input = nullptr;
      if (field == 1) s[2].output = nullptr;
      if (field == 2) s[2].inputStride = 12;  // a tangent needs 16
      if (field == 3) s[0].outputStride = 11;
      if (field == 4) s[1].kind = 0;
      if (field == 5) s[1].kind = 5;
      j = good.job;
      j.streams = s;
      refused(j, method);
    }
    if (method != kLinear) {
      j = good.job;
      j.dualQuaternions = nullptr;
      refused(j, method);
    }
  }
  // Centers without centers in the influences.
  refused(good.job, kCenters);
  // Linear needs no dual quaternions.
  maniSkinJob j = good.job;
  j.dualQuaternions = nullptr;
  EXPECT_EQ(maniSkinLinear(&j), mani_success);
}

TEST(Skinning, JointsChangedAfterTheOpenReadPaletteEntryZero) {
  Mesh mesh(13, 80, 4, false);
  const maniFixtureSkinnedMesh& m = mesh.m;
  // A copy of the file whose joints are all changed to 0 after the open, and one changed past the joints.
  std::vector<uint64_t> zeroed((m.influencesSize + 7) / 8), far((m.influencesSize + 7) / 8);
  memcpy(zeroed.data(), m.influencesFile, m.influencesSize);
  memcpy(far.data(), m.influencesFile, m.influencesSize);
  maniInfluences a, b;
  ASSERT_EQ(maniOpenInfluences(zeroed.data(), m.influencesSize, &a).result, mani_success);
  ASSERT_EQ(maniOpenInfluences(far.data(), m.influencesSize, &b).result, mani_success);
  const uint64_t count = (uint64_t)m.vertexCount * a.perVertex;
  memset((uint8_t*)zeroed.data() + a.joints, 0, 2 * count);
  memset((uint8_t*)far.data() + b.joints, 0xFF, 2 * count);
  for (int method = 0; method < 3; ++method) {
    Out oa(m.vertexCount), ob(m.vertexCount);
    Job ja(mesh, oa, 0, m.vertexCount, &a), jb(mesh, ob, 0, m.vertexCount, &b);
    ASSERT_EQ(Skin(&ja.job, method), mani_success);
    ASSERT_EQ(Skin(&jb.job, method), mani_success);
    EXPECT_TRUE(oa == ob) << method;
  }
}

TEST(Skinning, CollapsedDirectionsAreZero) {
  Mesh mesh(14, 16, 4, false);
  std::vector<maniAffine> flat = mesh.palette;
  for (auto& p : flat) p.columns[0] = p.columns[1] = p.columns[2] = maniVec3{0, 0, 0};
  Out out(16);
  Job j(mesh, out, 0, 16);
  j.job.palette = flat.data();
  ASSERT_EQ(maniSkinLinear(&j.job), mani_success);
  for (uint32_t v = 0; v < 16; ++v) {
    if (v % 97 == 96) continue;
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(out.nrm[3 * v + r], 0.0f);
      EXPECT_EQ(out.tan[4 * v + r], 0.0f);
    }
  }
}

}  // namespace
