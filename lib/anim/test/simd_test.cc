// lib/anim/src/simd: the vector kernel layer. Two kinds of tests:
//
//  1. Bits (SimdBits.*): in every build, every kernel of the configured
//     backend (maniSimd_*) against the scalar reference (maniSimdScalar_*) on
//     kGroups * 8 = 131072 seeded random lanes per kernel, special values
//     included (+-0, subnormals, +-inf, NaNs with payloads, signalling NaNs,
//     huge, tiny, non-unit and zero quaternions, singular and rank-deficient
//     matrices), plus the same call in place (out == an input). No tolerance.
//     Comparison rule: a float lane matches when its 32 bits are equal, or
//     when both are NaN -- the sign and payload of a NaN are not part of the
//     contract (x86 and arm64 make different default NaNs and propagate
//     different operands); everything else, the sign of zero included, must
//     be bit-identical. Masks compare all 32 bits.
//
//  2. Semantics (SimdReference.*): the scalar reference against math:
//     known rotations, matrix round trips, compose associativity, inverses,
//     each within the tolerance stated at the test; and the NaN/zero rules
//     (min, max, compares, select, normalize of zero, singular inverse),
//     exactly, for the reference and the configured backend.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lib/anim/src/simd/simd.h"
#include "maul/anim/blend.h"
extern "C" {
#include "lib/core/detmath.h"  // no extern "C" of its own
}
#include "lib/core/hash.h"
#include "lib/core/rng.h"

namespace {

constexpr size_t kGroups = 16384;  // 131072 lanes per kernel
constexpr int kL = MANI_SIMD_LANES;

static_assert(sizeof(maniSimdFloatx8) == 32 && alignof(maniSimdFloatx8) == 32, "layout");
static_assert(sizeof(maniSimdMaskx8) == 32 && alignof(maniSimdMaskx8) == 32, "layout");
static_assert(sizeof(maniSimdVec3x8) == 96 && alignof(maniSimdVec3x8) == 32, "layout");
static_assert(sizeof(maniSimdQuatx8) == 128 && alignof(maniSimdQuatx8) == 32, "layout");
static_assert(sizeof(maniSimdMat3x8) == 288 && alignof(maniSimdMat3x8) == 32, "layout");
static_assert(sizeof(maniSimdAffinex8) == 384 && alignof(maniSimdAffinex8) == 32, "layout");
static_assert(sizeof(maniSimdTransformx8) == 320 && alignof(maniSimdTransformx8) == 32, "layout");

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float FromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
bool IsNan(uint32_t u) { return (u & 0x7FFFFFFFu) > 0x7F800000u; }

// ---- Comparison -------------------------------------------------------

// Float-only group types: every 32-bit word is a float lane.
template <class T>
::testing::AssertionResult SameFloats(const std::vector<T>& got, const std::vector<T>& want) {
  static_assert(sizeof(T) % 4 == 0, "float groups");
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "size";
  const size_t words = sizeof(T) / 4;
  size_t bad = 0, first = 0;
  for (size_t g = 0; g < got.size(); ++g) {
    uint32_t a[sizeof(T) / 4], b[sizeof(T) / 4];
    std::memcpy(a, &got[g], sizeof(T));
    std::memcpy(b, &want[g], sizeof(T));
    for (size_t w = 0; w < words; ++w) {
      if (a[w] == b[w] || (IsNan(a[w]) && IsNan(b[w]))) continue;
      if (bad++ == 0) first = g * words + w;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  uint32_t a, b;
  std::memcpy(&a, reinterpret_cast<const char*>(got.data()) + 4 * first, 4);
  std::memcpy(&b, reinterpret_cast<const char*>(want.data()) + 4 * first, 4);
  char buf[200];
  std::snprintf(buf, sizeof buf, "%zu lanes differ; first: group %zu, word %zu (lane %zu): got 0x%08X (%.9g), want 0x%08X (%.9g)",
                bad, first / words, first % words, first % 8, a, FromBits(a), b, FromBits(b));
  return ::testing::AssertionFailure() << buf;
}

::testing::AssertionResult SameMasks(const std::vector<maniSimdMaskx8>& got, const std::vector<maniSimdMaskx8>& want) {
  for (size_t g = 0; g < got.size(); ++g)
    for (int l = 0; l < kL; ++l)
      if (got[g].m[l] != want[g].m[l])
        return ::testing::AssertionFailure() << "group " << g << " lane " << l << ": got " << got[g].m[l] << " want "
                                             << want[g].m[l];
  return ::testing::AssertionSuccess();
}

// The cross-platform check: mcore_Hash64 (seed 0) of a kernel's reference
// outputs on the seeded inputs below, every NaN replaced by 0x7FC00000
// first. The same value in all four builds (x86-64 avx2/scalar, arm64
// neon/scalar) shows the reference itself gives the same bits on both
// architectures; each build's backend then matches the reference. A
// deliberate change of a kernel or of these inputs changes its digest.
const std::map<std::string, uint64_t> kDigests = {
    {"Acos", 0x561A55F10459AAE8ull},
    {"Add", 0x01BB96887F5263B7ull},
    {"AddLayer", 0x9AD4561636CC1C8Aull},
    {"AffineInverse", 0x169BC0676526BCB3ull},
    {"AffineMul", 0xE240BE39019B2C6Eull},
    {"AffineTransformPoint", 0x6232AF393035F165ull},
    {"Atan2", 0x11012CF29E49B98Dull},
    {"BlendPoses", 0x9ADA4DC4C85173A6ull},
    {"CmpEq", 0x124AABD302B77D09ull},
    {"CmpGe", 0x83FA29AE36398641ull},
    {"CmpGt", 0xCE951E23CAC4FA1Aull},
    {"CmpLe", 0x26D2D956552CD192ull},
    {"CmpLt", 0x89385331AE8A175Eull},
    {"CmpNe", 0x10F270374CFE72A0ull},
    {"ComposeModels", 0x4BD1FA7B3BBC1032ull},
    {"Cos", 0x3C956175F29CBB9Cull},
    {"Dequantize", 0x440A760A6DB1E71Cull},
    {"Div", 0x873B9405033BE9F9ull},
    {"Max", 0xA167CED84D39927Dull},
    {"Min", 0x65ECD74E75593A5Eull},
    {"Mul", 0xEBA47294E2DC1B81ull},
    {"PoseDifference", 0xEB5DC17DDDEE6084ull},
    {"PoseDifferenceOk", 0xED506C3434C426CBull},
    {"QuatConjugate", 0x90DEF55AFD9646A9ull},
    {"QuatFromMat3", 0x366EC0846E032FFAull},
    {"QuatInverse", 0x2F580976CA62E651ull},
    {"QuatMul", 0xCF11BD92378F48B3ull},
    {"QuatNlerp", 0x0FA98B5A9271052Eull},
    {"QuatNormalize", 0x341C890665BC5F05ull},
    {"QuatRotateVec3", 0x5BFCE49FC6AD79B9ull},
    {"QuatToMat3", 0x95FC082EF01AEB21ull},
    {"Select", 0xD40F7CDBF4902082ull},
    {"Sin", 0x6F9FA573F1AD3230ull},
    {"SinCos", 0xE200FB8B8BFECF83ull},
    {"Sqrt", 0xE8A2B3F3E3617728ull},
    {"Sub", 0x2DE6684C87BAD080ull},
    {"TransformLerp", 0xDE2C1D10D2556FD2ull},
    {"TransformMul", 0x2585038DFD8AEFBFull},
    {"TransformToAffine", 0x97C6790179EFF6FBull},
};

template <class T>
void ExpectDigest(const char* kernel, const std::vector<T>& v, bool floats = true) {
  std::vector<uint32_t> w(v.size() * sizeof(T) / 4);
  std::memcpy(w.data(), v.data(), w.size() * 4);
  for (uint32_t& u : w)
    if (floats && IsNan(u)) u = 0x7FC00000u;
  const uint64_t d = mcore_Hash64(0, w.data(), w.size() * 4);
  const auto it = kDigests.find(kernel);
  const uint64_t want = it == kDigests.end() ? 0 : it->second;
  char buf[80];
  std::snprintf(buf, sizeof buf, "{\"%s\", 0x%016llXull},", kernel, (unsigned long long)d);
  EXPECT_EQ(d, want) << "cross-platform digest of the reference outputs: " << buf;
}

// ---- Seeded inputs ----------------------------------------------------

const uint32_t kSpecials[] = {
    0x00000000u, 0x80000000u,                           // +-0
    0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, // subnormals
    0x00400000u, 0x80012345u,                           //
    0x00800000u, 0x80800000u,                           // +-FLT_MIN
    0x7F7FFFFFu, 0xFF7FFFFFu,                           // +-FLT_MAX
    0x7F800000u, 0xFF800000u,                           // +-inf
    0x7FC00000u, 0xFFC00000u, 0x7FC12345u, 0xFFD00001u, // quiet NaNs, payloads
    0x7F800001u, 0xFFA00000u, 0x7FBFFFFFu,              // signalling NaNs
    0x3F800000u, 0xBF800000u, 0x3F000000u, 0xBF000000u, // +-1, +-0.5
    0x40000000u, 0x3F800001u, 0x3F7FFFFFu,              // 2, 1 + ulp, 1 - ulp
    0x7149F2CAu, 0xF149F2CAu,                           // +-1e30
    0x0DA24260u, 0x8DA24260u,                           // +-1e-30
    0x5F0AC723u, 0x1E3CE508u,                           // 1e19 (square overflows), 1e-20 (square underflows)
    0x3F3504F3u, 0xBF3504F3u,                           // +-sqrt(1/2)
};

class Gen {
 public:
  explicit Gen(uint64_t seed) { mcore_RngSeed(&rng_, seed); }

  uint32_t Below(uint32_t n) { return mcore_RngBelow(&rng_, n); }
  uint32_t U32() { return (uint32_t)(mcore_RngNext(&rng_) >> 32); }
  float Range(float lo, float hi) { return mcore_RngFloatRange(&rng_, lo, hi); }
  float Special() { return FromBits(kSpecials[Below(sizeof kSpecials / sizeof kSpecials[0])]); }

  // A general float: ordinary values, specials, every bit pattern, every
  // finite magnitude, small integers, tiny values.
  float Any() {
    const uint32_t r = Below(100);
    if (r < 40) return Range(-4.0f, 4.0f);
    if (r < 55) return Special();
    if (r < 70) return mcore_RngFloatBits(&rng_);
    if (r < 85) return FromBits((U32() & 0x807FFFFFu) | (Below(255) << 23));  // finite, subnormals and zeros
    if (r < 95) return (float)((int)Below(9) - 4);
    return Range(-1e-3f, 1e-3f);
  }

  // A unit quaternion, normalized in double precision.
  void UnitQuat(float q[4]) {
    double d[4], n2;
    do {
      n2 = 0;
      for (double& c : d) {
        c = 2.0 * mcore_RngDouble01(&rng_) - 1.0;
        n2 += c * c;
      }
    } while (n2 < 1e-4 || n2 > 1.0);
    const double n = std::sqrt(n2);
    for (int i = 0; i < 4; ++i) q[i] = (float)(d[i] / n);
  }

  // A quaternion of one of the kinds the kernels must handle.
  void Quat(float q[4]) {
    const uint32_t r = Below(100);
    if (r < 40) {
      UnitQuat(q);
    } else if (r < 46) {  // axis-aligned, +-
      for (int i = 0; i < 4; ++i) q[i] = 0.0f;
      q[Below(4)] = Below(2) ? 1.0f : -1.0f;
    } else if (r < 52) {  // zero, signed zeros
      for (int i = 0; i < 4; ++i) q[i] = Below(2) ? 0.0f : -0.0f;
    } else if (r < 62) {  // non-unit
      UnitQuat(q);
      const float s = Range(0.01f, 100.0f);
      for (int i = 0; i < 4; ++i) q[i] *= s;
    } else if (r < 68) {  // tiny (|q|^2 subnormal or zero) or huge (|q|^2 overflows)
      static const float kScales[] = {1e-22f, 1e-25f, 1e-40f, 3e19f, 1e20f, 1e38f};
      UnitQuat(q);
      const float s = kScales[Below(6)];
      for (int i = 0; i < 4; ++i) q[i] *= s;
    } else if (r < 76) {  // near the identity, either sign
      for (int i = 0; i < 3; ++i) q[i] = Range(-1e-3f, 1e-3f);
      q[3] = Below(2) ? 1.0f : -1.0f;
    } else {
      for (int i = 0; i < 4; ++i) q[i] = Any();
    }
  }

  // b for a two-quaternion kernel: often related to a (negated, equal,
  // orthogonal so the dot product is exactly zero, perturbed).
  void QuatRelated(const float a[4], float b[4]) {
    const uint32_t r = Below(100);
    if (r < 10) {
      for (int i = 0; i < 4; ++i) b[i] = -a[i];
    } else if (r < 15) {
      for (int i = 0; i < 4; ++i) b[i] = a[i];
    } else if (r < 20) {
      b[0] = -a[1], b[1] = a[0], b[2] = -a[3], b[3] = a[2];
    } else if (r < 30) {
      for (int i = 0; i < 4; ++i) b[i] = (Below(2) ? -a[i] : a[i]) + Range(-0.1f, 0.1f);
    } else {
      Quat(b);
    }
  }

  // Columns c[0..2] of a 3x3 matrix (c[j][r] = element (r, j)).
  void Mat(float c[3][3]) {
    const uint32_t r = Below(100);
    if (r < 30) {
      float q[4];
      UnitQuat(q);
      RotationFromQuat(q, c);
    } else if (r < 40) {  // rotations with ties on the diagonal and 180 degree turns
      static const float h = 0.70710678f;
      static const float kQ[][4] = {{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0},  {h, h, 0, 0},
                                    {0, h, h, 0}, {h, 0, h, 0}, {h, 0, 0, h}, {0.5f, 0.5f, 0.5f, 0.5f},
                                    {0.5f, -0.5f, 0.5f, -0.5f}};
      RotationFromQuat(kQ[Below(10)], c);
    } else if (r < 50) {  // rotation times a non-uniform scale
      float q[4];
      UnitQuat(q);
      RotationFromQuat(q, c);
      for (int j = 0; j < 3; ++j) {
        const float s = Range(0.1f, 10.0f);
        for (int i = 0; i < 3; ++i) c[j][i] *= s;
      }
    } else if (r < 65) {  // singular: determinant exactly 0, or nearly
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) c[j][i] = Range(-2.0f, 2.0f);
      switch (Below(6)) {
        case 0: { const uint32_t j = Below(3); for (int i = 0; i < 3; ++i) c[j][i] = 0.0f; } break;  // a zero column
        case 1: for (int i = 0; i < 3; ++i) c[2][i] = c[1][i]; break;                       // equal columns
        case 2: for (int i = 0; i < 3; ++i) c[2][i] = -c[1][i]; break;                      // opposite columns
        case 3: for (int i = 0; i < 3; ++i) c[2][i] = 2.0f * c[1][i]; break;                // parallel
        case 4: for (int j = 0; j < 3; ++j) for (int i = 0; i < 3; ++i) c[j][i] = 0.0f; break;  // zero matrix
        default: for (int i = 0; i < 3; ++i) c[2][i] = c[1][i] + Range(-1e-6f, 1e-6f); break;   // nearly
      }
    } else if (r < 72) {  // diagonal, ties and signs
      static const float kD[] = {1.0f, -1.0f, 0.0f, -0.0f, 0.5f, 2.0f};
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) c[j][i] = 0.0f;
      const float d = kD[Below(6)];
      for (int j = 0; j < 3; ++j) c[j][j] = Below(3) ? d : kD[Below(6)];
    } else if (r < 86) {
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) c[j][i] = Range(-2.0f, 2.0f);
    } else {
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) c[j][i] = Any();
    }
  }

  static void RotationFromQuat(const float qf[4], float c[3][3]) {
    const double x = qf[0], y = qf[1], z = qf[2], w = qf[3];
    const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < 3; ++j) c[j][r] = (float)m[r][j];
  }

  float Vec() { return Below(2) ? Range(-10.0f, 10.0f) : Any(); }

  void Scale(float s[3]) {
    const uint32_t r = Below(100);
    if (r < 40) {
      s[0] = s[1] = s[2] = Range(0.1f, 3.0f);
    } else if (r < 60) {
      s[0] = s[1] = s[2] = 1.0f;
    } else if (r < 85) {
      for (int i = 0; i < 3; ++i) s[i] = Range(-3.0f, 3.0f);
    } else {
      for (int i = 0; i < 3; ++i) s[i] = Any();
    }
  }

  uint32_t Mask() {
    const uint32_t r = Below(100);
    if (r < 40) return 0xFFFFFFFFu;
    if (r < 80) return 0u;
    return U32();
  }

 private:
  mcore_Rng rng_;
};

// Group fillers.
std::vector<maniSimdFloatx8> Floats(Gen& g, size_t n) {
  std::vector<maniSimdFloatx8> v(n);
  for (auto& x : v)
    for (int l = 0; l < kL; ++l) x.v[l] = g.Any();
  return v;
}

// b for a binary element-wise kernel: sometimes equal to a, its negation, or
// one ulp away, so ties (+0 vs -0, equal NaNs) are exercised.
std::vector<maniSimdFloatx8> FloatsRelated(Gen& g, const std::vector<maniSimdFloatx8>& a) {
  std::vector<maniSimdFloatx8> v(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    for (int l = 0; l < kL; ++l) {
      const uint32_t r = g.Below(100);
      const float x = a[i].v[l];
      v[i].v[l] = r < 10 ? x : r < 15 ? -x : r < 20 ? FromBits(Bits(x) + (g.Below(2) ? 1u : 0xFFFFFFFFu)) : g.Any();
    }
  return v;
}

std::vector<maniSimdMaskx8> Masks(Gen& g, size_t n) {
  std::vector<maniSimdMaskx8> v(n);
  for (auto& m : v)
    for (int l = 0; l < kL; ++l) m.m[l] = g.Mask();
  return v;
}

void SetQ(maniSimdQuatx8& q, int l, const float v[4]) { q.x[l] = v[0], q.y[l] = v[1], q.z[l] = v[2], q.w[l] = v[3]; }
void GetQ(const maniSimdQuatx8& q, int l, float v[4]) { v[0] = q.x[l], v[1] = q.y[l], v[2] = q.z[l], v[3] = q.w[l]; }
void SetV(maniSimdVec3x8& p, int l, const float v[3]) { p.x[l] = v[0], p.y[l] = v[1], p.z[l] = v[2]; }
void GetV(const maniSimdVec3x8& p, int l, float v[3]) { v[0] = p.x[l], v[1] = p.y[l], v[2] = p.z[l]; }

std::vector<maniSimdQuatx8> Quats(Gen& g, size_t n) {
  std::vector<maniSimdQuatx8> v(n);
  for (auto& q : v)
    for (int l = 0; l < kL; ++l) {
      float c[4];
      g.Quat(c);
      SetQ(q, l, c);
    }
  return v;
}

std::vector<maniSimdQuatx8> QuatsRelated(Gen& g, const std::vector<maniSimdQuatx8>& a) {
  std::vector<maniSimdQuatx8> v(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    for (int l = 0; l < kL; ++l) {
      float qa[4], qb[4];
      GetQ(a[i], l, qa);
      g.QuatRelated(qa, qb);
      SetQ(v[i], l, qb);
    }
  return v;
}

std::vector<maniSimdVec3x8> Vecs(Gen& g, size_t n) {
  std::vector<maniSimdVec3x8> v(n);
  for (auto& p : v)
    for (int l = 0; l < kL; ++l) p.x[l] = g.Vec(), p.y[l] = g.Vec(), p.z[l] = g.Vec();
  return v;
}

std::vector<maniSimdFloatx8> Weights(Gen& g, size_t n) {
  std::vector<maniSimdFloatx8> v(n);
  for (auto& t : v)
    for (int l = 0; l < kL; ++l) {
      const uint32_t r = g.Below(100);
      static const float kT[] = {0.0f, 1.0f, 0.5f, -0.0f};
      t.v[l] = r < 60 ? g.Range(0.0f, 1.0f) : r < 75 ? kT[g.Below(4)] : g.Any();
    }
  return v;
}

void SetMat(maniSimdVec3x8* cols, int l, const float c[3][3]) {
  for (int j = 0; j < 3; ++j) SetV(cols[j], l, c[j]);
}

std::vector<maniSimdMat3x8> Mats(Gen& g, size_t n) {
  std::vector<maniSimdMat3x8> v(n);
  for (auto& m : v)
    for (int l = 0; l < kL; ++l) {
      float c[3][3];
      g.Mat(c);
      SetMat(m.c, l, c);
    }
  return v;
}

std::vector<maniSimdAffinex8> Affines(Gen& g, size_t n) {
  std::vector<maniSimdAffinex8> v(n);
  for (auto& a : v)
    for (int l = 0; l < kL; ++l) {
      float c[3][3];
      g.Mat(c);
      SetMat(a.c, l, c);
      const float t[3] = {g.Vec(), g.Vec(), g.Vec()};
      SetV(a.c[3], l, t);
    }
  return v;
}

std::vector<maniSimdTransformx8> Transforms(Gen& g, size_t n) {
  std::vector<maniSimdTransformx8> v(n);
  for (auto& x : v)
    for (int l = 0; l < kL; ++l) {
      float t[3] = {g.Vec(), g.Vec(), g.Vec()}, q[4], s[3];
      g.Quat(q);
      g.Scale(s);
      SetV(x.translation, l, t);
      SetQ(x.rotation, l, q);
      SetV(x.scale, l, s);
    }
  return v;
}

// ---- Backend against reference, bit for bit ---------------------------

TEST(SimdBits, BackendIsTheConfiguredOne) {
#if defined(MAUL_TEST_EXPECT_BACKEND)
  EXPECT_STREQ(MANI_SIMD_BACKEND_NAME, MAUL_TEST_EXPECT_BACKEND);
#endif
#if defined(MAUL_ANIM_SIMD_AVX2)
  EXPECT_EQ(&maniSimd_QuatMul, &maniSimdAvx2_QuatMul);
  EXPECT_NE(&maniSimd_QuatMul, &maniSimdScalar_QuatMul);
  EXPECT_TRUE(__builtin_cpu_supports("avx2")) << "the AVX2 backend needs an AVX2 CPU";
#elif defined(MAUL_ANIM_SIMD_NEON)
  EXPECT_EQ(&maniSimd_QuatMul, &maniSimdNeon_QuatMul);
  EXPECT_NE(&maniSimd_QuatMul, &maniSimdScalar_QuatMul);
#else
  EXPECT_EQ(&maniSimd_QuatMul, &maniSimdScalar_QuatMul);
#endif
}

// out = op(a, b) against the reference, then in place (out == a, out == b).
#define MANI_BINARY_BITS_TEST(Name, Seed)                                 \
  TEST(SimdBits, Name) {                                                  \
    Gen g(Seed);                                                          \
    const auto a = Floats(g, kGroups);                                    \
    const auto b = FloatsRelated(g, a);                                   \
    std::vector<maniSimdFloatx8> want(kGroups), got(kGroups);             \
    maniSimdScalar_##Name(want.data(), a.data(), b.data(), kGroups);      \
    ExpectDigest(#Name, want);                                            \
    maniSimd_##Name(got.data(), a.data(), b.data(), kGroups);             \
    EXPECT_TRUE(SameFloats(got, want));                                   \
    auto inA = a;                                                         \
    maniSimd_##Name(inA.data(), inA.data(), b.data(), kGroups);           \
    EXPECT_TRUE(SameFloats(inA, want)) << "in place, out == a";           \
    auto inB = b;                                                         \
    maniSimd_##Name(inB.data(), a.data(), inB.data(), kGroups);           \
    EXPECT_TRUE(SameFloats(inB, want)) << "in place, out == b";           \
  }

MANI_BINARY_BITS_TEST(Add, 101)
MANI_BINARY_BITS_TEST(Sub, 102)
MANI_BINARY_BITS_TEST(Mul, 103)
MANI_BINARY_BITS_TEST(Div, 104)
MANI_BINARY_BITS_TEST(Min, 105)
MANI_BINARY_BITS_TEST(Max, 106)

TEST(SimdBits, Sqrt) {
  Gen g(107);
  const auto a = Floats(g, kGroups);
  std::vector<maniSimdFloatx8> want(kGroups), got(kGroups);
  maniSimdScalar_Sqrt(want.data(), a.data(), kGroups);
  ExpectDigest("Sqrt", want);
  maniSimd_Sqrt(got.data(), a.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
}

TEST(SimdBits, Select) {
  Gen g(108);
  const auto m = Masks(g, kGroups);
  const auto a = Floats(g, kGroups);
  const auto b = Floats(g, kGroups);
  std::vector<maniSimdFloatx8> want(kGroups), got(kGroups);
  maniSimdScalar_Select(want.data(), m.data(), a.data(), b.data(), kGroups);
  ExpectDigest("Select", want);
  maniSimd_Select(got.data(), m.data(), a.data(), b.data(), kGroups);
  // Select moves bits, NaN payloads included: compare every bit.
  EXPECT_EQ(0, std::memcmp(got.data(), want.data(), kGroups * sizeof got[0]));
  auto in = a;
  maniSimd_Select(in.data(), m.data(), in.data(), b.data(), kGroups);
  EXPECT_EQ(0, std::memcmp(in.data(), want.data(), kGroups * sizeof in[0]));
}

#define MANI_COMPARE_BITS_TEST(Name, Seed)                             \
  TEST(SimdBits, Name) {                                               \
    Gen g(Seed);                                                       \
    const auto a = Floats(g, kGroups);                                 \
    const auto b = FloatsRelated(g, a);                                \
    std::vector<maniSimdMaskx8> want(kGroups), got(kGroups);           \
    maniSimdScalar_##Name(want.data(), a.data(), b.data(), kGroups);   \
    ExpectDigest(#Name, want, false);                                  \
    maniSimd_##Name(got.data(), a.data(), b.data(), kGroups);          \
    EXPECT_TRUE(SameMasks(got, want));                                 \
  }

MANI_COMPARE_BITS_TEST(CmpEq, 111)
MANI_COMPARE_BITS_TEST(CmpNe, 112)
MANI_COMPARE_BITS_TEST(CmpLt, 113)
MANI_COMPARE_BITS_TEST(CmpLe, 114)
MANI_COMPARE_BITS_TEST(CmpGt, 115)
MANI_COMPARE_BITS_TEST(CmpGe, 116)

TEST(SimdBits, QuatMul) {
  Gen g(121);
  const auto a = Quats(g, kGroups);
  const auto b = QuatsRelated(g, a);
  std::vector<maniSimdQuatx8> want(kGroups), got(kGroups);
  maniSimdScalar_QuatMul(want.data(), a.data(), b.data(), kGroups);
  ExpectDigest("QuatMul", want);
  maniSimd_QuatMul(got.data(), a.data(), b.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto inA = a, inB = b;
  maniSimd_QuatMul(inA.data(), inA.data(), b.data(), kGroups);
  maniSimd_QuatMul(inB.data(), a.data(), inB.data(), kGroups);
  EXPECT_TRUE(SameFloats(inA, want)) << "out == a";
  EXPECT_TRUE(SameFloats(inB, want)) << "out == b";
}

TEST(SimdBits, QuatNormalize) {
  Gen g(122);
  const auto q = Quats(g, kGroups);
  std::vector<maniSimdQuatx8> want(kGroups), got(kGroups);
  maniSimdScalar_QuatNormalize(want.data(), q.data(), kGroups);
  ExpectDigest("QuatNormalize", want);
  maniSimd_QuatNormalize(got.data(), q.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto in = q;
  maniSimd_QuatNormalize(in.data(), in.data(), kGroups);
  EXPECT_TRUE(SameFloats(in, want)) << "in place";
}

TEST(SimdBits, QuatNlerp) {
  Gen g(123);
  const auto a = Quats(g, kGroups);
  const auto b = QuatsRelated(g, a);
  const auto t = Weights(g, kGroups);
  std::vector<maniSimdQuatx8> want(kGroups), got(kGroups);
  maniSimdScalar_QuatNlerp(want.data(), a.data(), b.data(), t.data(), kGroups);
  ExpectDigest("QuatNlerp", want);
  maniSimd_QuatNlerp(got.data(), a.data(), b.data(), t.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto inA = a, inB = b;
  maniSimd_QuatNlerp(inA.data(), inA.data(), b.data(), t.data(), kGroups);
  maniSimd_QuatNlerp(inB.data(), a.data(), inB.data(), t.data(), kGroups);
  EXPECT_TRUE(SameFloats(inA, want)) << "out == a";
  EXPECT_TRUE(SameFloats(inB, want)) << "out == b";
}

TEST(SimdBits, QuatConjugate) {
  Gen g(124);
  const auto q = Quats(g, kGroups);
  std::vector<maniSimdQuatx8> want(kGroups), got(kGroups);
  maniSimdScalar_QuatConjugate(want.data(), q.data(), kGroups);
  ExpectDigest("QuatConjugate", want);
  maniSimd_QuatConjugate(got.data(), q.data(), kGroups);
  // A sign flip: every bit, NaN payloads included.
  EXPECT_EQ(0, std::memcmp(got.data(), want.data(), kGroups * sizeof got[0]));
  auto in = q;
  maniSimd_QuatConjugate(in.data(), in.data(), kGroups);
  EXPECT_EQ(0, std::memcmp(in.data(), want.data(), kGroups * sizeof in[0]));
}

TEST(SimdBits, QuatInverse) {
  Gen g(125);
  const auto q = Quats(g, kGroups);
  std::vector<maniSimdQuatx8> want(kGroups), got(kGroups);
  maniSimdScalar_QuatInverse(want.data(), q.data(), kGroups);
  ExpectDigest("QuatInverse", want);
  maniSimd_QuatInverse(got.data(), q.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto in = q;
  maniSimd_QuatInverse(in.data(), in.data(), kGroups);
  EXPECT_TRUE(SameFloats(in, want)) << "in place";
}

TEST(SimdBits, QuatRotateVec3) {
  Gen g(126);
  const auto q = Quats(g, kGroups);
  const auto v = Vecs(g, kGroups);
  std::vector<maniSimdVec3x8> want(kGroups), got(kGroups);
  maniSimdScalar_QuatRotateVec3(want.data(), q.data(), v.data(), kGroups);
  ExpectDigest("QuatRotateVec3", want);
  maniSimd_QuatRotateVec3(got.data(), q.data(), v.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto in = v;
  maniSimd_QuatRotateVec3(in.data(), q.data(), in.data(), kGroups);
  EXPECT_TRUE(SameFloats(in, want)) << "out == v";
}

TEST(SimdBits, QuatFromMat3) {
  Gen g(127);
  const auto m = Mats(g, kGroups);
  std::vector<maniSimdQuatx8> want(kGroups), got(kGroups);
  maniSimdScalar_QuatFromMat3(want.data(), m.data(), kGroups);
  ExpectDigest("QuatFromMat3", want);
  maniSimd_QuatFromMat3(got.data(), m.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
}

TEST(SimdBits, QuatToMat3) {
  Gen g(128);
  const auto q = Quats(g, kGroups);
  std::vector<maniSimdMat3x8> want(kGroups), got(kGroups);
  maniSimdScalar_QuatToMat3(want.data(), q.data(), kGroups);
  ExpectDigest("QuatToMat3", want);
  maniSimd_QuatToMat3(got.data(), q.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
}

TEST(SimdBits, TransformMul) {
  Gen g(131);
  const auto p = Transforms(g, kGroups);
  const auto c = Transforms(g, kGroups);
  std::vector<maniSimdTransformx8> want(kGroups), got(kGroups);
  maniSimdScalar_TransformMul(want.data(), p.data(), c.data(), kGroups);
  ExpectDigest("TransformMul", want);
  maniSimd_TransformMul(got.data(), p.data(), c.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto inP = p, inC = c;
  maniSimd_TransformMul(inP.data(), inP.data(), c.data(), kGroups);
  maniSimd_TransformMul(inC.data(), p.data(), inC.data(), kGroups);
  EXPECT_TRUE(SameFloats(inP, want)) << "out == parent";
  EXPECT_TRUE(SameFloats(inC, want)) << "out == child";
}

TEST(SimdBits, TransformToAffine) {
  Gen g(132);
  const auto x = Transforms(g, kGroups);
  std::vector<maniSimdAffinex8> want(kGroups), got(kGroups);
  maniSimdScalar_TransformToAffine(want.data(), x.data(), kGroups);
  ExpectDigest("TransformToAffine", want);
  maniSimd_TransformToAffine(got.data(), x.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
}

// The clip lerp: the same bits as Sub, Mul and Add on the translations and
// scales and QuatNlerp on the rotations (the path it replaced), and the
// backend as the reference, in place too.
TEST(SimdBits, TransformLerp) {
  Gen g(151);
  const auto a = Transforms(g, kGroups);
  const auto b = Transforms(g, kGroups);
  for (float t : {0.0f, 0.25f, 0.7f, 1.0f, -0.5f, 1.5f}) {
    std::vector<maniSimdTransformx8> want(kGroups), got(kGroups), ref(kGroups);
    std::vector<maniSimdFloatx8> tv(10);
    for (auto& v : tv)
      for (int l = 0; l < kL; ++l) v.v[l] = t;
    for (size_t k = 0; k < kGroups; ++k) {
      auto* o = reinterpret_cast<maniSimdFloatx8*>(&want[k]);
      const auto* fa = reinterpret_cast<const maniSimdFloatx8*>(&a[k]);
      const auto* fb = reinterpret_cast<const maniSimdFloatx8*>(&b[k]);
      maniSimdScalar_Sub(o, fb, fa, 10);
      maniSimdScalar_Mul(o, o, tv.data(), 10);
      maniSimdScalar_Add(o, fa, o, 10);
      maniSimdScalar_QuatNlerp(&want[k].rotation, &a[k].rotation, &b[k].rotation, tv.data(), 1);
    }
    maniSimdScalar_TransformLerp(ref.data(), a.data(), b.data(), t, kGroups);
    EXPECT_TRUE(SameFloats(ref, want)) << t;
    if (t == 0.7f) ExpectDigest("TransformLerp", ref);
    maniSimd_TransformLerp(got.data(), a.data(), b.data(), t, kGroups);
    EXPECT_TRUE(SameFloats(got, ref)) << t;
    auto inA = a;
    maniSimd_TransformLerp(inA.data(), inA.data(), b.data(), t, kGroups);
    EXPECT_TRUE(SameFloats(inA, ref)) << "out == a, " << t;
  }
}

TEST(SimdBits, AffineMul) {
  Gen g(133);
  const auto a = Affines(g, kGroups);
  const auto b = Affines(g, kGroups);
  std::vector<maniSimdAffinex8> want(kGroups), got(kGroups);
  maniSimdScalar_AffineMul(want.data(), a.data(), b.data(), kGroups);
  ExpectDigest("AffineMul", want);
  maniSimd_AffineMul(got.data(), a.data(), b.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto inA = a, inB = b;
  maniSimd_AffineMul(inA.data(), inA.data(), b.data(), kGroups);
  maniSimd_AffineMul(inB.data(), a.data(), inB.data(), kGroups);
  EXPECT_TRUE(SameFloats(inA, want)) << "out == a";
  EXPECT_TRUE(SameFloats(inB, want)) << "out == b";
}

// The model pass: seeded locals and parents (roots, parents in the bone's
// own group and in earlier ones, chains at most 6 deep so products stay
// mostly finite, the specials of the seeded matrices included), against the
// test's own composition in AffineMul's documented order, and the backend
// against the reference bit for bit; parents read at any alignment; a parent
// not below its bone stops the pass there.
TEST(SimdBits, ComposeModels) {
  Gen g(150);
  const uint32_t count = 4096 + 5;  // a partial last group
  const size_t groups = (count + 7) / 8;
  const auto locals = Affines(g, groups);
  std::vector<uint32_t> parent(count), depth(count);
  for (uint32_t b = 0; b < count; ++b) {
    uint32_t p = MANI_NO_BONE;
    if (b > 0 && g.Below(4) != 0) {
      p = b - 1 - g.Below(b < 20 ? b : 20);
      if (depth[p] >= 6) p = MANI_NO_BONE;
    }
    parent[b] = p;
    depth[b] = p == MANI_NO_BONE ? 0 : depth[p] + 1;
  }
  std::vector<uint8_t> bytes(4 * count + 1);
  for (uint32_t b = 0; b < count; ++b)
    for (int k = 0; k < 4; ++k) bytes[1 + 4 * b + k] = static_cast<uint8_t>(parent[b] >> (8 * k));
  const uint8_t* parents = bytes.data() + 1;  // misaligned on purpose

  // The test's own pass: (row r, column j) = ((p0r lj.x + p1r lj.y) + p2r lj.z) (+ p3r for j = 3).
  auto want = locals;
  auto at = [](std::vector<maniSimdAffinex8>& v, uint32_t b, int j, int r) -> float& {
    maniSimdVec3x8& c = v[b / 8].c[j];
    return r == 0 ? c.x[b % 8] : r == 1 ? c.y[b % 8] : c.z[b % 8];
  };
  for (uint32_t b = 0; b < count; ++b) {
    if (parent[b] == MANI_NO_BONE) continue;
    float pm[4][3], lm[4][3];
    for (int j = 0; j < 4; ++j)
      for (int r = 0; r < 3; ++r) pm[j][r] = at(want, parent[b], j, r), lm[j][r] = at(want, b, j, r);
    for (int j = 0; j < 4; ++j)
      for (int r = 0; r < 3; ++r) {
        volatile float v = pm[0][r] * lm[j][0];
        v = v + pm[1][r] * lm[j][1];
        v = v + pm[2][r] * lm[j][2];
        if (j == 3) v = v + pm[3][r];
        at(want, b, j, r) = v;
      }
  }
  auto ref = locals, got = locals;
  EXPECT_EQ(maniSimdScalar_ComposeModels(ref.data(), parents, count), count);
  EXPECT_TRUE(SameFloats(ref, want)) << "the reference against the documented order";
  ExpectDigest("ComposeModels", ref);
  EXPECT_EQ(maniSimd_ComposeModels(got.data(), parents, count), count);
  EXPECT_TRUE(SameFloats(got, ref));

  // A parent at or past its bone: the pass stops there, the rest untouched.
  const uint32_t bad = 1000;
  for (uint32_t wrong : {bad, bad + 1, count + 7, 0xFFFFFFFEu}) {
    auto cut = bytes;
    for (int k = 0; k < 4; ++k) cut[1 + 4 * bad + k] = static_cast<uint8_t>(wrong >> (8 * k));
    auto r1 = locals, r2 = locals;
    EXPECT_EQ(maniSimdScalar_ComposeModels(r1.data(), cut.data() + 1, count), bad) << wrong;
    EXPECT_EQ(maniSimd_ComposeModels(r2.data(), cut.data() + 1, count), bad) << wrong;
    EXPECT_TRUE(SameFloats(r1, r2));
    // Bones before it composed, it and those after it still their locals
    // (NaNs compared as NaNs: their payloads are not part of the contract).
    auto expect = locals;
    for (uint32_t b = 0; b < bad; ++b)
      for (int j = 0; j < 4; ++j)
        for (int r = 0; r < 3; ++r) at(expect, b, j, r) = at(want, b, j, r);
    EXPECT_TRUE(SameFloats(r1, expect)) << wrong;
  }
  EXPECT_EQ(maniSimd_ComposeModels(got.data(), parents, 0), 0u);
}

TEST(SimdBits, AffineTransformPoint) {
  Gen g(134);
  const auto a = Affines(g, kGroups);
  const auto p = Vecs(g, kGroups);
  std::vector<maniSimdVec3x8> want(kGroups), got(kGroups);
  maniSimdScalar_AffineTransformPoint(want.data(), a.data(), p.data(), kGroups);
  ExpectDigest("AffineTransformPoint", want);
  maniSimd_AffineTransformPoint(got.data(), a.data(), p.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto in = p;
  maniSimd_AffineTransformPoint(in.data(), a.data(), in.data(), kGroups);
  EXPECT_TRUE(SameFloats(in, want)) << "out == p";
}

TEST(SimdBits, AffineInverse) {
  Gen g(135);
  const auto a = Affines(g, kGroups);
  std::vector<maniSimdAffinex8> want(kGroups), got(kGroups);
  maniSimdScalar_AffineInverse(want.data(), a.data(), kGroups);
  ExpectDigest("AffineInverse", want);
  maniSimd_AffineInverse(got.data(), a.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  auto in = a;
  maniSimd_AffineInverse(in.data(), in.data(), kGroups);
  EXPECT_TRUE(SameFloats(in, want)) << "in place";
}

// ---- Trig kernels: the math core's binary32 functions -----------------
//
// The reference (maniSimdScalar_Sin, ...) is mcore_sinf etc. lane by lane, so
// these compare the backend with the core itself. Every bit, NaN included:
// the trig kernels return the core's canonical NaN 0x7FC00000.

::testing::AssertionResult SameBits(const std::vector<maniSimdFloatx8>& got, const std::vector<maniSimdFloatx8>& want) {
  size_t bad = 0, first = 0;
  for (size_t g = 0; g < got.size(); ++g)
    for (int l = 0; l < kL; ++l)
      if (Bits(got[g].v[l]) != Bits(want[g].v[l]) && bad++ == 0) first = g * kL + l;
  if (bad == 0) return ::testing::AssertionSuccess();
  const float a = got[first / kL].v[first % kL], b = want[first / kL].v[first % kL];
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu lanes differ; first: group %zu lane %zu: got 0x%08X (%.9g), want 0x%08X (%.9g)", bad,
                first / kL, first % kL, Bits(a), a, Bits(b), b);
  return ::testing::AssertionFailure() << buf;
}

::testing::AssertionResult NansCanonical(const std::vector<maniSimdFloatx8>& v) {
  for (size_t g = 0; g < v.size(); ++g)
    for (int l = 0; l < kL; ++l)
      if (IsNan(Bits(v[g].v[l])) && Bits(v[g].v[l]) != 0x7FC00000u)
        return ::testing::AssertionFailure() << "group " << g << " lane " << l << ": NaN 0x" << std::hex
                                             << Bits(v[g].v[l]);
  return ::testing::AssertionSuccess();
}

// A sin/cos argument: ordinary ranges, multiples and near-multiples of pi/2
// (k pi/2 rounded to binary32, then up to +-4 ulps), both sides of 2^17 (the
// straight-line bound; above it the core reduces by Payne-Hanek), huge
// values, the specials and any bit pattern.
float TrigArg(Gen& g) {
  const uint32_t r = g.Below(100);
  const float sign = g.Below(2) ? -1.0f : 1.0f;
  if (r < 20) return g.Range(-8.0f, 8.0f);
  if (r < 30) return g.Range(-1000.0f, 1000.0f);
  if (r < 38) return g.Range(-131072.0f, 131072.0f);
  if (r < 55) {  // k pi/2 and its neighbours, k up to 2^17
    const uint32_t k = g.Below(4) ? g.Below(64) : g.Below(1u << 17);
    const float m = (float)((double)k * 1.5707963267948966);
    return sign * FromBits(Bits(m) + g.Below(9) - 4u);
  }
  if (r < 65) {  // around 2^17 = 0x48000000, either side
    return sign * FromBits(0x48000000u + g.Below(257) - 128u);
  }
  if (r < 72) return sign * FromBits(0x48000000u + g.Below(0x7F800000u - 0x48000000u));  // finite, >= 2^17
  if (r < 80) return g.Special();
  if (r < 85) return FromBits(g.U32() & 0x807FFFFFu);  // subnormals and zeros
  if (r < 92) return FromBits(g.U32());                 // any bit pattern
  return g.Any();
}

std::vector<maniSimdFloatx8> TrigArgs(Gen& g, size_t n) {
  std::vector<maniSimdFloatx8> v(n);
  for (auto& x : v)
    for (int l = 0; l < kL; ++l) x.v[l] = TrigArg(g);
  return v;
}

// An acos argument: [-1, 1], both ends and their neighbours, just outside,
// tiny, the specials.
float AcosArg(Gen& g) {
  const uint32_t r = g.Below(100);
  const float sign = g.Below(2) ? -1.0f : 1.0f;
  if (r < 40) return g.Range(-1.0f, 1.0f);
  if (r < 55) return sign * FromBits(0x3F800000u - g.Below(4096));       // 1 and just below
  if (r < 62) return sign * FromBits(0x3F800000u + 1u + g.Below(4096));  // just above 1
  if (r < 70) return sign * FromBits(g.Below(0x3F800000u));              // [0, 1) by bits: tiny, subnormal
  if (r < 76) return sign * g.Range(0.35f, 0.45f);                       // around tan(pi/8)-related switch points
  if (r < 86) return g.Special();
  if (r < 93) return FromBits(g.U32());
  return g.Any();
}

// atan2 pairs: every sign/zero/inf/NaN combination, y = +-x, ratios next to
// tan(pi/8) (the A6 switch), subnormal over huge, random.
void Atan2Args(Gen& g, size_t n, std::vector<maniSimdFloatx8>& ys, std::vector<maniSimdFloatx8>& xs) {
  static const uint32_t kEdge[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u,
                                   0x7F800001u, 0x3F800000u, 0xBF800000u, 0x00000001u, 0x80000001u, 0x7F7FFFFFu,
                                   0xFF7FFFFFu, 0x00800000u, 0x3F000000u, 0xC0490FDBu};
  constexpr uint32_t kE = sizeof kEdge / sizeof kEdge[0];
  ys.assign(n, maniSimdFloatx8{});
  xs.assign(n, maniSimdFloatx8{});
  size_t i = 0;
  for (uint32_t a = 0; a < kE; ++a)  // the full cross product first
    for (uint32_t b = 0; b < kE; ++b, ++i) ys[i / kL].v[i % kL] = FromBits(kEdge[a]), xs[i / kL].v[i % kL] = FromBits(kEdge[b]);
  for (; i < n * kL; ++i) {
    float y, x;
    const uint32_t r = g.Below(100);
    if (r < 30) {
      y = g.Range(-10.0f, 10.0f), x = g.Range(-10.0f, 10.0f);
    } else if (r < 40) {
      x = g.Range(-10.0f, 10.0f);
      y = (g.Below(2) ? x : -x);
      if (g.Below(2)) y = FromBits(Bits(y) + g.Below(5) - 2u);
    } else if (r < 52) {  // |y/x| or |x/y| next to tan(pi/8) = 0.41421356...
      x = g.Range(0.5f, 4.0f);
      y = (float)((double)x * 0.41421356237309503) ;
      y = FromBits(Bits(y) + g.Below(65) - 32u);
      if (g.Below(2)) std::swap(x, y);
      if (g.Below(2)) x = -x;
      if (g.Below(2)) y = -y;
    } else if (r < 62) {
      y = FromBits(kEdge[g.Below(kE)]), x = g.Any();
      if (g.Below(2)) std::swap(x, y);
    } else if (r < 70) {  // very different magnitudes
      y = FromBits(g.U32() & 0x807FFFFFu), x = FromBits((g.U32() & 0x807FFFFFu) | 0x7E000000u);
      if (g.Below(2)) std::swap(x, y);
    } else if (r < 85) {
      y = FromBits(g.U32()), x = FromBits(g.U32());
    } else {
      y = g.Any(), x = g.Any();
    }
    ys[i / kL].v[i % kL] = y;
    xs[i / kL].v[i % kL] = x;
  }
}

TEST(SimdTrig, Sin) {
  Gen g(151);
  const auto x = TrigArgs(g, kGroups);
  std::vector<maniSimdFloatx8> want(kGroups), got(kGroups);
  maniSimdScalar_Sin(want.data(), x.data(), kGroups);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(Bits(want[i].v[i % kL]), Bits(mcore_sinf(x[i].v[i % kL])));
  ExpectDigest("Sin", want, false);
  EXPECT_TRUE(NansCanonical(want));
  maniSimd_Sin(got.data(), x.data(), kGroups);
  EXPECT_TRUE(SameBits(got, want));
  auto in = x;
  maniSimd_Sin(in.data(), in.data(), kGroups);
  EXPECT_TRUE(SameBits(in, want)) << "in place";
}

TEST(SimdTrig, Cos) {
  Gen g(152);
  const auto x = TrigArgs(g, kGroups);
  std::vector<maniSimdFloatx8> want(kGroups), got(kGroups);
  maniSimdScalar_Cos(want.data(), x.data(), kGroups);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(Bits(want[i].v[i % kL]), Bits(mcore_cosf(x[i].v[i % kL])));
  ExpectDigest("Cos", want, false);
  EXPECT_TRUE(NansCanonical(want));
  maniSimd_Cos(got.data(), x.data(), kGroups);
  EXPECT_TRUE(SameBits(got, want));
  auto in = x;
  maniSimd_Cos(in.data(), in.data(), kGroups);
  EXPECT_TRUE(SameBits(in, want)) << "in place";
}

TEST(SimdTrig, SinCos) {
  Gen g(153);
  const auto x = TrigArgs(g, kGroups);
  std::vector<maniSimdFloatx8> ws(kGroups), wc(kGroups), gs(kGroups), gc(kGroups);
  maniSimdScalar_SinCos(ws.data(), wc.data(), x.data(), kGroups);
  std::vector<maniSimdFloatx8> s1(kGroups), c1(kGroups);
  maniSimdScalar_Sin(s1.data(), x.data(), kGroups);
  maniSimdScalar_Cos(c1.data(), x.data(), kGroups);
  EXPECT_TRUE(SameBits(ws, s1)) << "reference sincos vs sin";
  EXPECT_TRUE(SameBits(wc, c1)) << "reference sincos vs cos";
  std::vector<maniSimdFloatx8> both(2 * kGroups);
  std::memcpy(both.data(), ws.data(), kGroups * sizeof ws[0]);
  std::memcpy(both.data() + kGroups, wc.data(), kGroups * sizeof wc[0]);
  ExpectDigest("SinCos", both, false);
  maniSimd_SinCos(gs.data(), gc.data(), x.data(), kGroups);
  EXPECT_TRUE(SameBits(gs, ws)) << "sin";
  EXPECT_TRUE(SameBits(gc, wc)) << "cos";
  auto inS = x, inC = x;
  maniSimd_SinCos(inS.data(), gc.data(), inS.data(), kGroups);
  maniSimd_SinCos(gs.data(), inC.data(), inC.data(), kGroups);
  EXPECT_TRUE(SameBits(inS, ws)) << "s == x";
  EXPECT_TRUE(SameBits(inC, wc)) << "c == x";
}

TEST(SimdTrig, Atan2) {
  Gen g(154);
  std::vector<maniSimdFloatx8> y, x;
  Atan2Args(g, kGroups, y, x);
  std::vector<maniSimdFloatx8> want(kGroups), got(kGroups);
  maniSimdScalar_Atan2(want.data(), y.data(), x.data(), kGroups);
  for (size_t i = 0; i < 64; ++i)
    ASSERT_EQ(Bits(want[i].v[i % kL]), Bits(mcore_atan2f(y[i].v[i % kL], x[i].v[i % kL])));
  ExpectDigest("Atan2", want, false);
  EXPECT_TRUE(NansCanonical(want));
  maniSimd_Atan2(got.data(), y.data(), x.data(), kGroups);
  EXPECT_TRUE(SameBits(got, want));
  auto inY = y, inX = x;
  maniSimd_Atan2(inY.data(), inY.data(), x.data(), kGroups);
  maniSimd_Atan2(inX.data(), y.data(), inX.data(), kGroups);
  EXPECT_TRUE(SameBits(inY, want)) << "out == y";
  EXPECT_TRUE(SameBits(inX, want)) << "out == x";
}

TEST(SimdTrig, Acos) {
  Gen g(155);
  std::vector<maniSimdFloatx8> x(kGroups);
  for (auto& v : x)
    for (int l = 0; l < kL; ++l) v.v[l] = AcosArg(g);
  std::vector<maniSimdFloatx8> want(kGroups), got(kGroups);
  maniSimdScalar_Acos(want.data(), x.data(), kGroups);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(Bits(want[i].v[i % kL]), Bits(mcore_acosf(x[i].v[i % kL])));
  ExpectDigest("Acos", want, false);
  EXPECT_TRUE(NansCanonical(want));
  maniSimd_Acos(got.data(), x.data(), kGroups);
  EXPECT_TRUE(SameBits(got, want));
  auto in = x;
  maniSimd_Acos(in.data(), in.data(), kGroups);
  EXPECT_TRUE(SameBits(in, want)) << "in place";
}

// Exhaustive over two bands that matter most: every binary32 in [2^17 - 2^10
// ulps, 2^17 + 2^10 ulps] (the straight-line bound, both signs), and every
// k pi/2 neighbourhood for k < 2^12 (+-16 ulps); sin and cos.
TEST(SimdTrig, BandsExhaustive) {
  std::vector<float> xs;
  for (uint32_t d = 0; d < 2048; ++d) {
    xs.push_back(FromBits(0x48000000u - 1024u + d));
    xs.push_back(-FromBits(0x48000000u - 1024u + d));
  }
  for (uint32_t k = 1; k < 4096; ++k) {
    const uint32_t m = Bits((float)((double)k * 1.5707963267948966));
    for (uint32_t d = 0; d < 33; d += 4) xs.push_back(FromBits(m + d - 16u));
  }
  while (xs.size() % kL) xs.push_back(0.0f);
  const size_t n = xs.size() / kL;
  std::vector<maniSimdFloatx8> x(n), ws(n), wc(n), gs(n), gc(n);
  std::memcpy(x.data(), xs.data(), xs.size() * 4);
  maniSimdScalar_SinCos(ws.data(), wc.data(), x.data(), n);
  maniSimd_SinCos(gs.data(), gc.data(), x.data(), n);
  EXPECT_TRUE(SameBits(gs, ws));
  EXPECT_TRUE(SameBits(gc, wc));
}

// A kernel writes exactly its n groups and nothing past them; n == 0 writes
// nothing.
TEST(SimdBits, WritesExactlyNGroups) {
  Gen g(141);
  const auto a = Affines(g, 4);
  const auto b = Affines(g, 4);
  std::vector<maniSimdAffinex8> out(4);
  std::memset(out.data(), 0xA5, 4 * sizeof out[0]);
  const auto before = out;
  maniSimd_AffineMul(out.data(), a.data(), b.data(), 0);
  EXPECT_EQ(0, std::memcmp(out.data(), before.data(), 4 * sizeof out[0]));
  maniSimd_AffineMul(out.data(), a.data(), b.data(), 3);
  EXPECT_EQ(0, std::memcmp(&out[3], &before[3], sizeof out[0]));
  EXPECT_NE(0, std::memcmp(&out[2], &before[2], sizeof out[0]));
}

// ---- The scalar reference against math --------------------------------

struct Q {
  float x, y, z, w;
};

// One group whose lanes all hold the same values (lane 0 is read back).
maniSimdQuatx8 Q8(Q q) {
  maniSimdQuatx8 r;
  for (int l = 0; l < kL; ++l) r.x[l] = q.x, r.y[l] = q.y, r.z[l] = q.z, r.w[l] = q.w;
  return r;
}
Q Lane(const maniSimdQuatx8& q, int l = 0) { return Q{q.x[l], q.y[l], q.z[l], q.w[l]}; }
maniSimdVec3x8 V8(float x, float y, float z) {
  maniSimdVec3x8 r;
  for (int l = 0; l < kL; ++l) r.x[l] = x, r.y[l] = y, r.z[l] = z;
  return r;
}
maniSimdFloatx8 F8(float v) {
  maniSimdFloatx8 r;
  for (int l = 0; l < kL; ++l) r.v[l] = v;
  return r;
}

const float kH = 0.70710678f;  // sqrt(1/2)

#define EXPECT_QUAT_NEAR(a, b, tol)   \
  do {                                \
    const Q qa_ = (a), qb_ = (b);     \
    EXPECT_NEAR(qa_.x, qb_.x, tol);   \
    EXPECT_NEAR(qa_.y, qb_.y, tol);   \
    EXPECT_NEAR(qa_.z, qb_.z, tol);   \
    EXPECT_NEAR(qa_.w, qb_.w, tol);   \
  } while (0)

// Known rotations, tolerance 1e-6 (a few ulps of components <= 1).
TEST(SimdReference, QuatMulKnownRotations) {
  maniSimdQuatx8 out;
  const maniSimdQuatx8 z90 = Q8({0, 0, kH, kH}), x90 = Q8({kH, 0, 0, kH}), y90 = Q8({0, kH, 0, kH});
  maniSimdScalar_QuatMul(&out, &z90, &z90, 1);
  EXPECT_QUAT_NEAR(Lane(out), (Q{0, 0, 1, 0}), 1e-6);  // 180 degrees about z
  maniSimdScalar_QuatMul(&out, &x90, &y90, 1);
  EXPECT_QUAT_NEAR(Lane(out), (Q{0.5f, 0.5f, 0.5f, 0.5f}), 1e-6);  // 120 degrees about (1,1,1)
  const maniSimdQuatx8 id = Q8({0, 0, 0, 1});
  maniSimdScalar_QuatMul(&out, &id, &x90, 1);
  EXPECT_EQ(0, std::memcmp(&out, &x90, sizeof out));  // identity is exact

  // Rotating: z90 takes x to y; (1/2,1/2,1/2,1/2) cycles x -> y -> z.
  maniSimdVec3x8 v = V8(1, 0, 0), r;
  maniSimdScalar_QuatRotateVec3(&r, &z90, &v, 1);
  EXPECT_NEAR(r.x[0], 0.0f, 1e-6);
  EXPECT_NEAR(r.y[0], 1.0f, 1e-6);
  EXPECT_NEAR(r.z[0], 0.0f, 1e-6);
  const maniSimdQuatx8 cyc = Q8({0.5f, 0.5f, 0.5f, 0.5f});
  maniSimdScalar_QuatRotateVec3(&r, &cyc, &v, 1);
  EXPECT_EQ(r.x[0], 0.0f);
  EXPECT_EQ(r.y[0], 1.0f);
  EXPECT_EQ(r.z[0], 0.0f);
}

// a * b rotates by b first: rotate(a*b, v) == rotate(a, rotate(b, v)) within
// 1e-5 for unit quaternions and |v| <= 10.
TEST(SimdReference, QuatMulComposesRotations) {
  Gen g(201);
  std::vector<maniSimdQuatx8> a(64), b(64), ab(64);
  std::vector<maniSimdVec3x8> v(64), r1(64), r2(64), tmp(64);
  for (size_t i = 0; i < 64; ++i)
    for (int l = 0; l < kL; ++l) {
      float qa[4], qb[4];
      g.UnitQuat(qa);
      g.UnitQuat(qb);
      SetQ(a[i], l, qa);
      SetQ(b[i], l, qb);
      const float p[3] = {g.Range(-10, 10), g.Range(-10, 10), g.Range(-10, 10)};
      SetV(v[i], l, p);
    }
  maniSimdScalar_QuatMul(ab.data(), a.data(), b.data(), 64);
  maniSimdScalar_QuatRotateVec3(r1.data(), ab.data(), v.data(), 64);
  maniSimdScalar_QuatRotateVec3(tmp.data(), b.data(), v.data(), 64);
  maniSimdScalar_QuatRotateVec3(r2.data(), a.data(), tmp.data(), 64);
  for (size_t i = 0; i < 64; ++i)
    for (int l = 0; l < kL; ++l) {
      EXPECT_NEAR(r1[i].x[l], r2[i].x[l], 1e-5);
      EXPECT_NEAR(r1[i].y[l], r2[i].y[l], 1e-5);
      EXPECT_NEAR(r1[i].z[l], r2[i].z[l], 1e-5);
    }
}

// Quaternion -> matrix against the double-precision formula (1e-6); matrix
// -> quaternion gives back +-q (2e-6 per component), with the largest
// component positive; every Shepperd case is exercised.
TEST(SimdReference, MatrixRoundTrip) {
  Gen g(202);
  const size_t n = 512;
  std::vector<maniSimdQuatx8> q(n), back(n);
  std::vector<maniSimdMat3x8> m(n);
  for (size_t i = 0; i < n; ++i)
    for (int l = 0; l < kL; ++l) {
      float c[4];
      g.UnitQuat(c);
      if (i % 4 != 0) {  // bias a quarter each toward a dominant x, y, z, w
        const int k = (int)(i % 4) - 1 + (l & 1);
        c[k] = 2.0f * (c[k] < 0 ? -1.0f : 1.0f) + c[k];
        double n2 = 0;
        for (float f : c) n2 += (double)f * f;
        for (float& f : c) f = (float)(f / std::sqrt(n2));
      }
      SetQ(q[i], l, c);
    }
  maniSimdScalar_QuatToMat3(m.data(), q.data(), n);
  maniSimdScalar_QuatFromMat3(back.data(), m.data(), n);
  int largest[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n; ++i)
    for (int l = 0; l < kL; ++l) {
      float c[4], want[3][3];
      GetQ(q[i], l, c);
      Gen::RotationFromQuat(c, want);
      for (int j = 0; j < 3; ++j) {
        float col[3];
        GetV(m[i].c[j], l, col);
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(col[r], want[j][r], 1e-6) << i << " " << l;
      }
      float b[4];
      GetQ(back[i], l, b);
      int k = 0;
      for (int t = 1; t < 4; ++t)
        if (std::fabs(b[t]) > std::fabs(b[k])) k = t;
      ++largest[k];
      float second = 0.0f;
      for (int t = 0; t < 4; ++t)
        if (t != k) second = std::fmax(second, std::fabs(b[t]));
      if (std::fabs(b[k]) - second > 1e-5f) {
        EXPECT_GT(b[k], 0.0f);  // the case's component comes out positive
      }
      const float sign = (b[0] * c[0] + b[1] * c[1] + b[2] * c[2] + b[3] * c[3]) < 0 ? -1.0f : 1.0f;
      for (int t = 0; t < 4; ++t) EXPECT_NEAR(b[t], sign * c[t], 2e-6) << i << " " << l << " " << t;
    }
  for (int k = 0; k < 4; ++k) EXPECT_GT(largest[k], 100) << "Shepperd case for component " << k;
}

// Local-to-model with uniform scales: (A*B)*C == A*(B*C) within 1e-4 times
// the magnitude (translations up to 10, scales 0.5-2); and the transform
// product agrees with the affine product (TransformToAffine) likewise.
TEST(SimdReference, ComposeAssociativeAndMatchesAffine) {
  Gen g(203);
  const size_t n = 64;
  std::vector<maniSimdTransformx8> x[3];
  for (auto& xs : x) {
    xs.resize(n);
    for (auto& t : xs)
      for (int l = 0; l < kL; ++l) {
        float tr[3] = {g.Range(-10, 10), g.Range(-10, 10), g.Range(-10, 10)}, q[4];
        const float s = g.Range(0.5f, 2.0f), sc[3] = {s, s, s};
        g.UnitQuat(q);
        SetV(t.translation, l, tr);
        SetQ(t.rotation, l, q);
        SetV(t.scale, l, sc);
      }
  }
  std::vector<maniSimdTransformx8> ab(n), abc1(n), bc(n), abc2(n);
  maniSimdScalar_TransformMul(ab.data(), x[0].data(), x[1].data(), n);
  maniSimdScalar_TransformMul(abc1.data(), ab.data(), x[2].data(), n);
  maniSimdScalar_TransformMul(bc.data(), x[1].data(), x[2].data(), n);
  maniSimdScalar_TransformMul(abc2.data(), x[0].data(), bc.data(), n);
  std::vector<maniSimdAffinex8> ma(n), mb(n), mab(n), tab(n);
  maniSimdScalar_TransformToAffine(ma.data(), x[0].data(), n);
  maniSimdScalar_TransformToAffine(mb.data(), x[1].data(), n);
  maniSimdScalar_AffineMul(mab.data(), ma.data(), mb.data(), n);
  maniSimdScalar_TransformToAffine(tab.data(), ab.data(), n);
  for (size_t i = 0; i < n; ++i) {
    float p1[sizeof(maniSimdTransformx8) / 4], p2[sizeof(maniSimdTransformx8) / 4];
    std::memcpy(p1, &abc1[i], sizeof p1);
    std::memcpy(p2, &abc2[i], sizeof p2);
    for (size_t k = 0; k < sizeof(maniSimdTransformx8) / 4; ++k)
      EXPECT_NEAR(p1[k], p2[k], 1e-4 * std::fmax(1.0f, std::fabs(p2[k]))) << i << " " << k;
    float f1[sizeof(maniSimdAffinex8) / 4], f2[sizeof(maniSimdAffinex8) / 4];
    std::memcpy(f1, &mab[i], sizeof f1);
    std::memcpy(f2, &tab[i], sizeof f2);
    for (size_t k = 0; k < sizeof(maniSimdAffinex8) / 4; ++k)
      EXPECT_NEAR(f1[k], f2[k], 1e-4 * std::fmax(1.0f, std::fabs(f2[k]))) << i << " " << k;
  }
}

// A * inverse(A) == identity within 1e-4 for rotation * scale (0.5-2) +
// translation (up to 10); a determinant of exactly 0 gives all +0.
TEST(SimdReference, AffineInverse) {
  Gen g(204);
  const size_t n = 64;
  std::vector<maniSimdAffinex8> a(n), inv(n), prod(n);
  for (auto& m : a)
    for (int l = 0; l < kL; ++l) {
      float q[4], c[3][3];
      g.UnitQuat(q);
      Gen::RotationFromQuat(q, c);
      for (int j = 0; j < 3; ++j) {
        const float s = g.Range(0.5f, 2.0f);
        for (int r = 0; r < 3; ++r) c[j][r] *= s;
      }
      SetMat(m.c, l, c);
      const float t[3] = {g.Range(-10, 10), g.Range(-10, 10), g.Range(-10, 10)};
      SetV(m.c[3], l, t);
    }
  maniSimdScalar_AffineInverse(inv.data(), a.data(), n);
  maniSimdScalar_AffineMul(prod.data(), a.data(), inv.data(), n);
  for (size_t i = 0; i < n; ++i)
    for (int l = 0; l < kL; ++l)
      for (int j = 0; j < 4; ++j) {
        float col[3];
        GetV(prod[i].c[j], l, col);
        for (int r = 0; r < 3; ++r) EXPECT_NEAR(col[r], (j == r) ? 1.0f : 0.0f, 1e-4) << i << " " << l;
      }

  // Singular: a zero column, two equal columns.
  maniSimdAffinex8 s, out;
  for (int l = 0; l < kL; ++l) {
    float c[3][3] = {{1, 2, 3}, {4, 5, 6}, {4, 5, 6}};
    if (l & 1) c[0][0] = c[0][1] = c[0][2] = 0;
    SetMat(s.c, l, c);
    const float t[3] = {1, 2, 3};
    SetV(s.c[3], l, t);
  }
  maniSimdScalar_AffineInverse(&out, &s, 1);
  const maniSimdAffinex8 zero = {};
  EXPECT_EQ(0, std::memcmp(&out, &zero, sizeof out));
  maniSimd_AffineInverse(&out, &s, 1);
  EXPECT_EQ(0, std::memcmp(&out, &zero, sizeof out));
}

// Normalize: a zero quaternion (either zero sign, or |q|^2 underflowing to
// 0) gives exactly the identity; exact cases; unit length within 1e-6.
TEST(SimdReference, QuatNormalize) {
  for (auto fn : {&maniSimdScalar_QuatNormalize, &maniSimd_QuatNormalize}) {
    maniSimdQuatx8 q = Q8({0, -0.0f, 0, -0.0f}), out;
    q.x[1] = 1e-30f;  // squares underflow to 0
    q.w[2] = 2.0f;
    q.x[3] = q.y[3] = q.z[3] = q.w[3] = 1.0f;
    q.x[4] = -3.0f, q.y[4] = 4.0f;
    fn(&out, &q, 1);
    // Lane 2 is (0, -0, 0, 2): -0 / 2 keeps its sign.
    const Q want[8] = {{0, 0, 0, 1},           {0, 0, 0, 1}, {0, -0.0f, 0, 1}, {0.5f, 0.5f, 0.5f, 0.5f},
                       {-0.6f, 0.8f, 0, -0.0f}, {0, 0, 0, 1}, {0, 0, 0, 1},     {0, 0, 0, 1}};
    for (int l = 0; l < kL; ++l) {
      const Q got = Lane(out, l);
      EXPECT_EQ(0, std::memcmp(&got, &want[l], sizeof(Q))) << "lane " << l;
    }
  }
  Gen g(205);
  std::vector<maniSimdQuatx8> q(64), out(64);
  for (auto& x : q)
    for (int l = 0; l < kL; ++l) {
      float c[4];
      g.UnitQuat(c);
      const float s = g.Range(0.01f, 100.0f);
      for (float& f : c) f *= s;
      SetQ(x, l, c);
    }
  maniSimdScalar_QuatNormalize(out.data(), q.data(), 64);
  for (auto& x : out)
    for (int l = 0; l < kL; ++l) {
      const double n2 = (double)x.x[l] * x.x[l] + (double)x.y[l] * x.y[l] + (double)x.z[l] * x.z[l] + (double)x.w[l] * x.w[l];
      EXPECT_NEAR(std::sqrt(n2), 1.0, 1e-6);
    }
}

// Nlerp: the endpoints, the shortest-arc flip, the midpoint (tolerance 1e-6).
TEST(SimdReference, QuatNlerp) {
  maniSimdQuatx8 out;
  const maniSimdQuatx8 id = Q8({0, 0, 0, 1}), z90 = Q8({0, 0, kH, kH});
  const maniSimdFloatx8 t0 = F8(0.0f), t1 = F8(1.0f), th = F8(0.5f);
  maniSimdScalar_QuatNlerp(&out, &id, &z90, &t0, 1);
  EXPECT_QUAT_NEAR(Lane(out), (Q{0, 0, 0, 1}), 1e-6);
  maniSimdScalar_QuatNlerp(&out, &id, &z90, &t1, 1);
  EXPECT_QUAT_NEAR(Lane(out), Lane(z90), 1e-6);
  maniSimdScalar_QuatNlerp(&out, &id, &z90, &th, 1);  // 45 degrees about z
  EXPECT_QUAT_NEAR(Lane(out), (Q{0, 0, 0.38268343f, 0.92387953f}), 1e-6);

  // dot < 0 negates b: nlerp(q, -q, t) == normalize(q) exactly.
  Gen g(206);
  std::vector<maniSimdQuatx8> a(32), b(32), r(32), n(32);
  std::vector<maniSimdFloatx8> t(32);
  for (size_t i = 0; i < 32; ++i)
    for (int l = 0; l < kL; ++l) {
      float c[4], d[4];
      g.UnitQuat(c);
      for (int k = 0; k < 4; ++k) d[k] = -c[k];
      SetQ(a[i], l, c);
      SetQ(b[i], l, d);
      t[i].v[l] = (float)g.Below(2) * 0.5f + 0.25f;  // 0.25 or 0.75: (1 - t) and t exact
    }
  maniSimdScalar_QuatNlerp(r.data(), a.data(), b.data(), t.data(), 32);
  maniSimdScalar_QuatNormalize(n.data(), a.data(), 32);
  for (size_t i = 0; i < 32; ++i)
    for (int l = 0; l < kL; ++l) EXPECT_QUAT_NEAR(Lane(r[i], l), Lane(n[i], l), 1e-7);
}

// q * inverse(q) == identity within 1e-6 (|q| from 0.5 to 2); the inverse
// of a zero quaternion is the identity; the conjugate flips x, y, z signs.
TEST(SimdReference, QuatInverseAndConjugate) {
  Gen g(207);
  std::vector<maniSimdQuatx8> q(32), inv(32), prod(32);
  for (auto& x : q)
    for (int l = 0; l < kL; ++l) {
      float c[4];
      g.UnitQuat(c);
      const float s = g.Range(0.5f, 2.0f);
      for (float& f : c) f *= s;
      SetQ(x, l, c);
    }
  maniSimdScalar_QuatInverse(inv.data(), q.data(), 32);
  maniSimdScalar_QuatMul(prod.data(), q.data(), inv.data(), 32);
  for (auto& x : prod)
    for (int l = 0; l < kL; ++l) EXPECT_QUAT_NEAR(Lane(x, l), (Q{0, 0, 0, 1}), 1e-6);
  const maniSimdQuatx8 zero = Q8({-0.0f, 0, 0, 0}), id = Q8({0, 0, 0, 1});
  maniSimdQuatx8 out;
  maniSimdScalar_QuatInverse(&out, &zero, 1);
  EXPECT_EQ(0, std::memcmp(&out, &id, sizeof out));
  const maniSimdQuatx8 c = Q8({1, -0.0f, 0, -2});
  maniSimdScalar_QuatConjugate(&out, &c, 1);
  EXPECT_EQ(Bits(out.x[0]), Bits(-1.0f));
  EXPECT_EQ(Bits(out.y[0]), Bits(0.0f));
  EXPECT_EQ(Bits(out.z[0]), Bits(-0.0f));
  EXPECT_EQ(Bits(out.w[0]), Bits(-2.0f));
}

// The documented NaN and signed-zero rules, exactly, on the reference and
// on the configured backend.
TEST(SimdReference, NanAndZeroRules) {
  const float nan = FromBits(0x7FC00000u), inf = FromBits(0x7F800000u);
  //                 lane:   0    1    2      3      4     5    6     7
  const float av[8] = {nan, 1.0f, 0.0f, -0.0f, nan, 2.0f, -inf, 3.0f};
  const float bv[8] = {1.0f, nan, -0.0f, 0.0f, nan, 1.0f, 2.0f, 3.0f};
  maniSimdFloatx8 a, b;
  for (int l = 0; l < kL; ++l) a.v[l] = av[l], b.v[l] = bv[l];
  using Bin = void (*)(maniSimdFloatx8*, const maniSimdFloatx8*, const maniSimdFloatx8*, size_t);
  using Cmp = void (*)(maniSimdMaskx8*, const maniSimdFloatx8*, const maniSimdFloatx8*, size_t);
  struct Impl {
    Bin min, max;
    Cmp eq, ne, lt, ge;
    void (*sqrt)(maniSimdFloatx8*, const maniSimdFloatx8*, size_t);
    void (*sel)(maniSimdFloatx8*, const maniSimdMaskx8*, const maniSimdFloatx8*, const maniSimdFloatx8*, size_t);
  };
  const Impl impls[2] = {
      {maniSimdScalar_Min, maniSimdScalar_Max, maniSimdScalar_CmpEq, maniSimdScalar_CmpNe, maniSimdScalar_CmpLt,
       maniSimdScalar_CmpGe, maniSimdScalar_Sqrt, maniSimdScalar_Select},
      {maniSimd_Min, maniSimd_Max, maniSimd_CmpEq, maniSimd_CmpNe, maniSimd_CmpLt, maniSimd_CmpGe, maniSimd_Sqrt,
       maniSimd_Select}};
  for (const Impl& f : impls) {
    maniSimdFloatx8 r;
    // min(a, b) = a < b ? a : b: b on a NaN or on equality (+0 vs -0).
    f.min(&r, &a, &b, 1);
    const float minWant[8] = {1.0f, nan, -0.0f, 0.0f, nan, 1.0f, -inf, 3.0f};
    for (int l = 0; l < kL; ++l)
      if (l != 1 && l != 4) {
        EXPECT_EQ(Bits(r.v[l]), Bits(minWant[l])) << "min lane " << l;
      }
    EXPECT_TRUE(IsNan(Bits(r.v[1])) && IsNan(Bits(r.v[4])));
    f.max(&r, &a, &b, 1);
    const float maxWant[8] = {1.0f, nan, -0.0f, 0.0f, nan, 2.0f, 2.0f, 3.0f};
    for (int l = 0; l < kL; ++l)
      if (l != 1 && l != 4) {
        EXPECT_EQ(Bits(r.v[l]), Bits(maxWant[l])) << "max lane " << l;
      }
    EXPECT_TRUE(IsNan(Bits(r.v[1])) && IsNan(Bits(r.v[4])));

    maniSimdMaskx8 m;
    const uint32_t T = 0xFFFFFFFFu;
    f.eq(&m, &a, &b, 1);
    const uint32_t eqWant[8] = {0, 0, T, T, 0, 0, 0, T};
    for (int l = 0; l < kL; ++l) EXPECT_EQ(m.m[l], eqWant[l]) << "eq lane " << l;
    f.ne(&m, &a, &b, 1);
    for (int l = 0; l < kL; ++l) EXPECT_EQ(m.m[l], ~eqWant[l]) << "ne lane " << l;
    f.lt(&m, &a, &b, 1);
    const uint32_t ltWant[8] = {0, 0, 0, 0, 0, 0, T, 0};
    for (int l = 0; l < kL; ++l) EXPECT_EQ(m.m[l], ltWant[l]) << "lt lane " << l;
    f.ge(&m, &a, &b, 1);
    const uint32_t geWant[8] = {0, 0, T, T, 0, T, 0, T};
    for (int l = 0; l < kL; ++l) EXPECT_EQ(m.m[l], geWant[l]) << "ge lane " << l;

    // sqrt(-0) = -0, sqrt(-1) is NaN, sqrt(+inf) = +inf.
    maniSimdFloatx8 s = F8(-0.0f);
    s.v[1] = -1.0f, s.v[2] = inf, s.v[3] = 4.0f;
    f.sqrt(&r, &s, 1);
    EXPECT_EQ(Bits(r.v[0]), 0x80000000u);
    EXPECT_TRUE(IsNan(Bits(r.v[1])));
    EXPECT_EQ(Bits(r.v[2]), Bits(inf));
    EXPECT_EQ(r.v[3], 2.0f);

    // Select uses every mask bit.
    maniSimdMaskx8 mk;
    for (int l = 0; l < kL; ++l) mk.m[l] = 0x0000FFFFu;
    const maniSimdFloatx8 x = F8(FromBits(0x12345678u)), y = F8(FromBits(0x9ABCDEF0u));
    f.sel(&r, &mk, &x, &y, 1);
    for (int l = 0; l < kL; ++l) EXPECT_EQ(Bits(r.v[l]), 0x9ABC5678u);
  }
}

// ---- Single-value helpers (maniSimdSingle_*) ---------------------------
//
// Each AoS helper on one value against that value's lane k of the
// configured backend's batch kernel, for every k, on kSingleGroups * 8 =
// 100000 seeded lanes (the generators above: specials included). Same
// comparison rule as SimdBits: equal bits, or both NaN.

constexpr size_t kSingleGroups = 12500;

maniVec3 LaneV(const maniSimdVec3x8& v, int l) { return maniVec3{v.x[l], v.y[l], v.z[l]}; }
maniQuat LaneQ(const maniSimdQuatx8& q, int l) { return maniQuat{q.x[l], q.y[l], q.z[l], q.w[l]}; }
maniAffine LaneA(const maniSimdAffinex8& a, int l) {
  maniAffine r;
  for (int c = 0; c < 4; ++c) r.columns[c] = LaneV(a.c[c], l);
  return r;
}
maniTransform LaneT(const maniSimdTransformx8& x, int l) {
  return maniTransform{LaneV(x.translation, l), LaneQ(x.rotation, l), LaneV(x.scale, l)};
}

// Counts the words of got (n floats) that differ from want under the rule.
struct SingleCheck {
  const char* kernel;
  size_t bad = 0, firstLane = 0;
  void Words(size_t lane, const void* got, const void* want, size_t bytes) {
    uint32_t a[16], b[16];
    std::memcpy(a, got, bytes);
    std::memcpy(b, want, bytes);
    for (size_t w = 0; w < bytes / 4; ++w)
      if (a[w] != b[w] && !(IsNan(a[w]) && IsNan(b[w])) && bad++ == 0) firstLane = lane;
  }
  ~SingleCheck() { EXPECT_EQ(bad, 0u) << kernel << ": first differing lane " << firstLane; }
};

TEST(SimdSingle, QuatHelpersEqualTheirBatchLanes) {
  Gen g(201);
  const size_t n = kSingleGroups;
  const auto a = Quats(g, n);
  const auto b = QuatsRelated(g, a);
  const auto t = Weights(g, n);
  const auto v = Vecs(g, n);
  const auto m = Mats(g, n);
  std::vector<maniSimdQuatx8> mul(n), nrm(n), nl(n), conj(n), inv(n), fm(n);
  std::vector<maniSimdVec3x8> rot(n);
  std::vector<maniSimdMat3x8> tm(n);
  maniSimd_QuatMul(mul.data(), a.data(), b.data(), n);
  maniSimd_QuatNormalize(nrm.data(), a.data(), n);
  maniSimd_QuatNlerp(nl.data(), a.data(), b.data(), t.data(), n);
  maniSimd_QuatConjugate(conj.data(), a.data(), n);
  maniSimd_QuatInverse(inv.data(), a.data(), n);
  maniSimd_QuatRotateVec3(rot.data(), a.data(), v.data(), n);
  maniSimd_QuatFromMat3(fm.data(), m.data(), n);
  maniSimd_QuatToMat3(tm.data(), a.data(), n);
  SingleCheck cMul{"QuatMul"}, cNrm{"QuatNormalize"}, cNl{"QuatNlerp"}, cConj{"QuatConjugate"}, cInv{"QuatInverse"},
      cRot{"QuatRotateVec3"}, cFm{"QuatFromMat3"}, cTm{"QuatToMat3"};
  for (size_t i = 0; i < n; ++i)
    for (int l = 0; l < kL; ++l) {
      const size_t lane = i * kL + l;
      const maniQuat qa = LaneQ(a[i], l), qb = LaneQ(b[i], l);
      maniQuat r = maniSimdSingle_QuatMul(qa, qb), w = LaneQ(mul[i], l);
      cMul.Words(lane, &r, &w, sizeof r);
      r = maniSimdSingle_QuatNormalize(qa), w = LaneQ(nrm[i], l);
      cNrm.Words(lane, &r, &w, sizeof r);
      r = maniSimdSingle_QuatNlerp(qa, qb, t[i].v[l]), w = LaneQ(nl[i], l);
      cNl.Words(lane, &r, &w, sizeof r);
      r = maniSimdSingle_QuatConjugate(qa), w = LaneQ(conj[i], l);
      cConj.Words(lane, &r, &w, sizeof r);
      r = maniSimdSingle_QuatInverse(qa), w = LaneQ(inv[i], l);
      cInv.Words(lane, &r, &w, sizeof r);
      const maniVec3 rv = maniSimdSingle_QuatRotateVec3(qa, LaneV(v[i], l)), wv = LaneV(rot[i], l);
      cRot.Words(lane, &rv, &wv, sizeof rv);
      const maniSimdMat3 mm = {{LaneV(m[i].c[0], l), LaneV(m[i].c[1], l), LaneV(m[i].c[2], l)}};
      r = maniSimdSingle_QuatFromMat3(&mm), w = LaneQ(fm[i], l);
      cFm.Words(lane, &r, &w, sizeof r);
      const maniSimdMat3 rm = maniSimdSingle_QuatToMat3(qa);
      const maniSimdMat3 wm = {{LaneV(tm[i].c[0], l), LaneV(tm[i].c[1], l), LaneV(tm[i].c[2], l)}};
      cTm.Words(lane, &rm, &wm, sizeof rm);
    }
}

TEST(SimdSingle, TransformAndAffineHelpersEqualTheirBatchLanes) {
  Gen g(202);
  const size_t n = kSingleGroups;
  const auto p = Transforms(g, n);
  const auto c = Transforms(g, n);
  const auto a = Affines(g, n);
  const auto b = Affines(g, n);
  const auto v = Vecs(g, n);
  std::vector<maniSimdTransformx8> tmul(n);
  std::vector<maniSimdAffinex8> taff(n), amul(n), ainv(n);
  std::vector<maniSimdVec3x8> apt(n);
  maniSimd_TransformMul(tmul.data(), p.data(), c.data(), n);
  maniSimd_TransformToAffine(taff.data(), p.data(), n);
  maniSimd_AffineMul(amul.data(), a.data(), b.data(), n);
  maniSimd_AffineTransformPoint(apt.data(), a.data(), v.data(), n);
  maniSimd_AffineInverse(ainv.data(), a.data(), n);
  SingleCheck cTm{"TransformMul"}, cTa{"TransformToAffine"}, cAm{"AffineMul"}, cAp{"AffineTransformPoint"},
      cAi{"AffineInverse"};
  for (size_t i = 0; i < n; ++i)
    for (int l = 0; l < kL; ++l) {
      const size_t lane = i * kL + l;
      const maniTransform tp = LaneT(p[i], l), tc = LaneT(c[i], l);
      const maniAffine aa = LaneA(a[i], l), ab = LaneA(b[i], l);
      const maniTransform rt = maniSimdSingle_TransformMul(&tp, &tc), wt = LaneT(tmul[i], l);
      cTm.Words(lane, &rt, &wt, sizeof rt);
      maniAffine ra = maniSimdSingle_TransformToAffine(&tp), wa = LaneA(taff[i], l);
      cTa.Words(lane, &ra, &wa, sizeof ra);
      ra = maniSimdSingle_AffineMul(&aa, &ab), wa = LaneA(amul[i], l);
      cAm.Words(lane, &ra, &wa, sizeof ra);
      const maniVec3 rp = maniSimdSingle_AffineTransformPoint(&aa, LaneV(v[i], l)), wp = LaneV(apt[i], l);
      cAp.Words(lane, &rp, &wp, sizeof rp);
      ra = maniSimdSingle_AffineInverse(&aa), wa = LaneA(ainv[i], l);
      cAi.Words(lane, &ra, &wa, sizeof ra);
    }
}

// ---- Blend kernels: the binary64 lanes of blend.h ----------------------
//
// Each group blends a seeded number of layers (1 to 40, given to the kernels
// in two seeded parts, each in calls of at most MANI_SIMD_BLEND_LAYERS, as
// blend.c gives more than that), drawn
// from a pool of seeded transform groups with specials, and seeded weights
// (Weights: mostly 0..1, some specials). The backend must give the
// reference's bits on every lane.

struct BlendCase {
  std::vector<maniSimdTransformx8> pool;
  std::vector<maniSimdFloatx8> weights;
  std::vector<maniSimdTransformx8> rest;
  std::vector<maniSimdBlendLayerx8> layers;  // per group, layerCount[g] of them
  std::vector<uint32_t> first, count, split;
  std::vector<float> threshold;
};

BlendCase MakeBlendCase(Gen& g, size_t groups) {
  BlendCase c;
  c.pool = Transforms(g, 64);
  c.weights = Weights(g, 64);
  c.rest = Transforms(g, groups);
  for (size_t i = 0; i < groups; ++i) {
    const uint32_t n = 1 + g.Below(i % 16 == 0 ? 40 : 6);
    c.first.push_back((uint32_t)c.layers.size());
    c.count.push_back(n);
    c.split.push_back(g.Below(n + 1));
    const float th = g.Below(4) == 0 ? 1.0f : g.Range(MANI_BLEND_THRESHOLD_MIN, 1.0f);
    c.threshold.push_back(th);
    for (uint32_t k = 0; k < n; ++k) {
      maniSimdBlendLayerx8 l;
      l.pose = &c.pool[g.Below(64)];
      l.boneWeights = &c.weights[g.Below(64)];
      const uint32_t r = g.Below(10);
      l.weight = r == 0 ? 0.0f : r == 1 ? 1.0f : g.Range(0.0f, 1.0f);
      c.layers.push_back(l);
    }
  }
  return c;
}

// Layers [first, first + n) in calls of at most MANI_SIMD_BLEND_LAYERS.
template <class F, class... A>
void InCalls(F f, maniSimdBlendAccx8* a, const maniSimdBlendLayerx8* l, uint32_t n, A... args) {
  for (uint32_t i = 0; i < n; i += MANI_SIMD_BLEND_LAYERS)
    f(a, l + i, n - i < MANI_SIMD_BLEND_LAYERS ? n - i : MANI_SIMD_BLEND_LAYERS, args...);
}

template <class Total, class Accumulate, class Finish>
std::vector<maniSimdTransformx8> RunBlend(const BlendCase& c, Total total, Accumulate acc, Finish finish) {
  std::vector<maniSimdTransformx8> out(c.rest.size());
  for (size_t i = 0; i < c.rest.size(); ++i) {
    maniSimdBlendAccx8 a;
    std::memset(&a, 0, sizeof a);
    const maniSimdBlendLayerx8* l = &c.layers[c.first[i]];
    const uint32_t n = c.count[i], k = c.split[i];
    InCalls(total, &a, l, k);
    InCalls(total, &a, l + k, n - k);
    InCalls(acc, &a, l, k, c.threshold[i]);
    InCalls(acc, &a, l + k, n - k, c.threshold[i]);
    finish(&out[i], &a, &c.rest[i], c.threshold[i]);
  }
  return out;
}

TEST(SimdBits, BlendPoses) {
  Gen g(141);
  const BlendCase c = MakeBlendCase(g, kGroups);
  const auto want = RunBlend(c, maniSimdScalar_BlendTotal, maniSimdScalar_BlendAccumulate, maniSimdScalar_BlendFinish);
  ExpectDigest("BlendPoses", want);
  const auto got = RunBlend(c, maniSimd_BlendTotal, maniSimd_BlendAccumulate, maniSimd_BlendFinish);
  EXPECT_TRUE(SameFloats(got, want));
  // Every layer in one part: the same.
  std::vector<uint32_t> whole(c.count);
  BlendCase one = c;
  one.split = whole;
  EXPECT_TRUE(SameFloats(RunBlend(one, maniSimd_BlendTotal, maniSimd_BlendAccumulate, maniSimd_BlendFinish), want));
}

TEST(SimdBits, AddLayer) {
  Gen g(142);
  const auto pose = Transforms(g, kGroups);
  const auto diff = Transforms(g, kGroups);
  const auto w = Weights(g, kGroups);
  std::vector<maniSimdBlendLayerx8> layers(kGroups);
  for (size_t i = 0; i < kGroups; ++i) {
    const uint32_t r = g.Below(10);
    layers[i] = {&diff[i], &w[i], r == 0 ? 0.0f : r == 1 ? 1.0f : g.Range(0.0f, 1.0f)};
  }
  auto want = pose, got = pose;
  for (size_t i = 0; i < kGroups; ++i) maniSimdScalar_AddLayer(&want[i], &diff[i], &layers[i]);
  ExpectDigest("AddLayer", want);
  for (size_t i = 0; i < kGroups; ++i) maniSimd_AddLayer(&got[i], &diff[i], &layers[i]);
  EXPECT_TRUE(SameFloats(got, want));
}

TEST(SimdBits, PoseDifference) {
  Gen g(143);
  const auto pose = Transforms(g, kGroups);
  const auto basis = Transforms(g, kGroups);
  std::vector<maniSimdTransformx8> want(kGroups), got(kGroups);
  std::vector<maniSimdMaskx8> wantOk(kGroups), gotOk(kGroups);
  for (size_t i = 0; i < kGroups; ++i) maniSimdScalar_PoseDifference(&want[i], &wantOk[i], &pose[i], &basis[i]);
  ExpectDigest("PoseDifference", want);
  ExpectDigest("PoseDifferenceOk", wantOk, false);
  for (size_t i = 0; i < kGroups; ++i) maniSimd_PoseDifference(&got[i], &gotOk[i], &pose[i], &basis[i]);
  EXPECT_TRUE(SameFloats(got, want));
  EXPECT_TRUE(SameMasks(gotOk, wantOk));
  size_t refused = 0;
  for (const auto& m : wantOk)
    for (int l = 0; l < kL; ++l) refused += m.m[l] == 0;
  EXPECT_GT(refused, 0u) << "the seeded inputs reach the refusals";
  EXPECT_LT(refused, (size_t)kGroups * kL / 2) << "and mostly succeed";
  auto in = pose;
  std::vector<maniSimdMaskx8> inOk(kGroups);
  for (size_t i = 0; i < kGroups; ++i) maniSimd_PoseDifference(&in[i], &inOk[i], &in[i], &basis[i]);
  EXPECT_TRUE(SameFloats(in, want)) << "out == pose";
}

// ---- Decoding kernel: the compressed clip's dequantization ------------

// Parameters as a compressed clip gives them (rates 0 to 15, segment ranges
// in 255ths, clip ranges), with specials and out-of-format integers mixed
// in; q often inside its rate's bits, sometimes anything below 2^24.
struct DequantCase {
  std::vector<maniSimdDequantx8> p;
  std::vector<maniSimdIndexx8> q;      // 9 per group
  std::vector<maniSimdTransformx8> given;
};

float InverseOfRate(uint32_t rate) {
  return rate == 0 || rate >= 15 ? 0.0f : 1.0f / (float)((1u << (rate + 2)) - 1u);
}

DequantCase MakeDequantCase(Gen& g, size_t groups) {
  DequantCase c;
  c.p.resize(groups);
  c.q.resize(9 * groups);
  c.given = Transforms(g, groups);
  for (size_t i = 0; i < groups; ++i)
    for (int l = 0; l < kL; ++l) {
      for (int ch = 0; ch < 3; ++ch) c.p[i].quantized[ch].m[l] = g.Below(4) != 0 ? 0xFFFFFFFFu : 0u;
      for (int k = 0; k < 9; ++k) {
        const uint32_t rate = g.Below(16);
        const uint32_t odd = g.Below(100);
        c.p[i].inverse[k].v[l] = odd < 5 ? g.Any() : InverseOfRate(rate);
        const uint32_t lo = g.Below(256);
        c.p[i].segMin[k].i[l] = odd == 6 ? g.Below(1u << 24) : lo;
        c.p[i].segExt[k].i[l] = odd == 7 ? g.Below(1u << 24) : g.Below(256 - lo);
        c.p[i].clipMin[k].v[l] = odd < 15 ? g.Any() : g.Range(-4.0f, 4.0f);
        c.p[i].clipExt[k].v[l] = odd >= 15 && odd < 20 ? g.Any() : g.Range(0.0f, 2.0f);
        const uint32_t bits = rate == 0 ? 0 : rate >= 15 ? 16 : rate + 2;
        c.q[9 * i + k].i[l] = odd == 8 ? g.Below(1u << 24) : odd == 9 ? (1u << 24) - 1u : g.U32() & ((1u << bits) - 1u);
      }
    }
  return c;
}

TEST(SimdBits, Dequantize) {
  Gen g(144);
  const DequantCase c = MakeDequantCase(g, kGroups);
  auto want = c.given, got = c.given;
  maniSimdScalar_Dequantize(want.data(), c.p.data(), c.q.data(), kGroups);
  ExpectDigest("Dequantize", want);
  maniSimd_Dequantize(got.data(), c.p.data(), c.q.data(), kGroups);
  EXPECT_TRUE(SameFloats(got, want));
  // One group a call: the same bits.
  auto one = c.given;
  for (size_t i = 0; i < kGroups; ++i) maniSimd_Dequantize(&one[i], &c.p[i], &c.q[9 * i], 1);
  EXPECT_TRUE(SameFloats(one, want));
}

// DequantizeFlat (compressed clip format 11): base + scale * (float)q lane
// by lane, against the formula written here (one multiplication, then one
// addition, each rounded: volatile keeps them apart), on the scalar
// reference and the build's backend, for ordinary and extreme bases, scales
// (infinities, NaNs, -0) and every q below 2^24.
TEST(SimdBits, DequantizeFlat) {
  Gen g(145);
  const size_t n = kGroups;
  std::vector<maniSimdIndexx8> q(n);
  std::vector<maniSimdFloatx8> base(n), scale(n), want(n), got(n), ref(n);
  for (size_t i = 0; i < n; ++i)
    for (int l = 0; l < kL; ++l) {
      const uint32_t odd = g.Below(100);
      q[i].i[l] = odd < 10 ? g.Below(1u << 24) : odd < 12 ? (1u << 24) - 1u : g.U32() & 0xFFFFu;
      base[i].v[l] = odd >= 20 && odd < 25 ? g.Any() : g.Range(-4.0f, 4.0f);
      scale[i].v[l] = odd >= 25 && odd < 30 ? g.Any() : g.Range(0.0f, 1e-3f);
      volatile float product = scale[i].v[l] * (float)q[i].i[l];
      volatile float sum = base[i].v[l] + product;
      want[i].v[l] = sum;
    }
  maniSimdScalar_DequantizeFlat(ref.data(), q.data(), base.data(), scale.data(), n);
  maniSimd_DequantizeFlat(got.data(), q.data(), base.data(), scale.data(), n);
  for (size_t i = 0; i < n; ++i)
    for (int l = 0; l < kL; ++l) {
      uint32_t a, b, c;
      std::memcpy(&a, &want[i].v[l], 4);
      std::memcpy(&b, &ref[i].v[l], 4);
      std::memcpy(&c, &got[i].v[l], 4);
      if (IsNan(a)) {
        EXPECT_TRUE(IsNan(b) && IsNan(c)) << i << " " << l;
        continue;
      }
      ASSERT_EQ(a, b) << i << " " << l;
      ASSERT_EQ(a, c) << i << " " << l;
    }
}

// The reference against the operation order simd.h states (that of the
// compressed clip's one-value decoder), lane by lane; and the given values
// of lanes outside a quantized channel kept bit for bit.
TEST(SimdReference, DequantizeOrder) {
  Gen g(145);
  const DequantCase c = MakeDequantCase(g, 512);
  auto out = c.given;
  maniSimdScalar_Dequantize(out.data(), c.p.data(), c.q.data(), out.size());
  size_t quantized = 0, rebuiltZero = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const float* in = reinterpret_cast<const float*>(&c.given[i]);
    const float* got = reinterpret_cast<const float*>(&out[i]);
    static const int kValue[9] = {0, 1, 2, 3, 4, 5, 7, 8, 9};
    for (int l = 0; l < kL; ++l) {
      float v[10];
      for (int k = 0; k < 10; ++k) v[k] = in[8 * k + l];
      for (int k = 0; k < 9; ++k) {
        if (c.p[i].quantized[k / 3].m[l] == 0) continue;
        const maniSimdDequantx8& p = c.p[i];
        const float segMin = (float)p.segMin[k].i[l] * (1.0f / 255.0f);
        const float segExt = (float)p.segExt[k].i[l] * (1.0f / 255.0f);
        const float x = (float)c.q[9 * i + k].i[l] * p.inverse[k].v[l];
        const float norm = segMin + segExt * x;
        v[kValue[k]] = p.clipMin[k].v[l] + p.clipExt[k].v[l] * norm;
        quantized++;
      }
      if (c.p[i].quantized[1].m[l] != 0) {
        const float r = 1.0f - ((v[3] * v[3] + v[4] * v[4]) + v[5] * v[5]);
        v[6] = r > 0.0f ? std::sqrt(r) : 0.0f;
        rebuiltZero += !(r > 0.0f);
      }
      for (int k = 0; k < 10; ++k) {
        const uint32_t a = Bits(got[8 * k + l]), b = Bits(v[k]);
        ASSERT_TRUE(a == b || (IsNan(a) && IsNan(b))) << "group " << i << " lane " << l << " value " << k;
      }
    }
  }
  EXPECT_GT(quantized, 0u);
  EXPECT_GT(rebuiltZero, 0u) << "the inputs reach w = 0";
}

}  // namespace

// ---- The learned trainer's products (TrainAxpy, TrainMatTVec, TrainMatTMat,
// TrainOuterAcc): plain float arrays of any size and alignment ------------

namespace train {

// Seeded values: mostly ordinary, a share of +0 and -0 (the skipped rows),
// and a few specials (inf, NaN, subnormal, huge).
struct TrainGen {
  uint64_t s;
  explicit TrainGen(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t Next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(s >> 32);
  }
  float Value(bool specials) {
    const uint32_t k = Next() % 64;
    if (k < 8) return 0.0f;
    if (k < 14) return -0.0f;
    if (specials && k == 14) return FromBits(0x7F800000u);
    if (specials && k == 15) return FromBits(0x7FC12345u);
    if (specials && k == 16) return FromBits(0x00000003u);
    if (specials && k == 17) return 3.0e38f;
    return ((float)(Next() >> 8) / 16777216.0f - 0.5f) * 4.0f;
  }
  std::vector<float> Values(size_t n, bool specials) {
    std::vector<float> v(n);
    for (float& x : v) x = Value(specials);
    return v;
  }
};

::testing::AssertionResult SameFloatVec(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (size_t i = 0; i < got.size(); ++i) {
    const uint32_t a = Bits(got[i]), b = Bits(want[i]);
    if (a != b && !(IsNan(a) && IsNan(b)))
      return ::testing::AssertionFailure() << "element " << i << ": " << std::hex << a << " want " << b;
  }
  return ::testing::AssertionSuccess();
}

const size_t kCols[] = {1, 3, 4, 5, 8, 9, 15, 16, 17, 31, 32, 33, 37, 48, 70, 105};
const size_t kRows[] = {1, 2, 5, 19, 37};
const size_t kCounts[] = {1, 2, 3, 4, 5, 8, 9};

}  // namespace train

TEST(SimdBits, TrainKernels) {
  using namespace train;
  TrainGen g(26);
  for (bool specials : {false, true})
    for (size_t cols : kCols)
      for (size_t rows : kRows) {
        // Off by one float from any alignment.
        const size_t off = g.Next() % 8;
        std::vector<float> m = g.Values(off + rows * cols, specials);
        const float* mp = m.data() + off;
        for (size_t count : kCounts) {
          const size_t ldy = cols + g.Next() % 3, ldv = rows + g.Next() % 3;
          const std::vector<float> y0 = g.Values(count * ldy + 1, specials);
          const std::vector<float> v = g.Values(count * ldv + 1, specials);
          for (int skip = 0; skip < 2; ++skip) {
            std::vector<float> want = y0, got = y0;
            maniSimdScalar_TrainMatTMat(want.data() + 1, ldy, mp, v.data() + 1, ldv, count, rows, cols, skip);
            maniSimd_TrainMatTMat(got.data() + 1, ldy, mp, v.data() + 1, ldv, count, rows, cols, skip);
            ASSERT_TRUE(SameFloatVec(got, want)) << "MatTMat cols " << cols << " rows " << rows << " count " << count;
            // One vector a call: the same bits.
            std::vector<float> one = y0;
            for (size_t q = 0; q < count; ++q)
              maniSimd_TrainMatTVec(one.data() + 1 + q * ldy, mp, v.data() + 1 + q * ldv, rows, cols, skip);
            ASSERT_TRUE(SameFloatVec(one, want)) << "MatTVec cols " << cols << " rows " << rows;
          }
          // The outer product: outs = rows, ins = cols; d rows of ldv, x rows of ldy.
          const std::vector<float> g0 = g.Values(rows * cols + 3, specials);
          for (int init = 0; init < 2; ++init) {
            std::vector<float> gw = g0, gwant = g0;
            maniSimdScalar_TrainOuterAcc(gwant.data() + 3, v.data() + 1, ldv, y0.data() + 1, ldy, count, rows, cols, init);
            maniSimd_TrainOuterAcc(gw.data() + 3, v.data() + 1, ldv, y0.data() + 1, ldy, count, rows, cols, init);
            ASSERT_TRUE(SameFloatVec(gw, gwant)) << "OuterAcc outs " << rows << " ins " << cols << " count " << count;
            if (init) {
              // From +0: the same as zeroing g first.
              std::vector<float> zeroed = g0;
              for (size_t i = 3; i < zeroed.size(); ++i) zeroed[i] = 0.0f;
              maniSimdScalar_TrainOuterAcc(zeroed.data() + 3, v.data() + 1, ldv, y0.data() + 1, ldy, count, rows, cols, 0);
              ASSERT_TRUE(SameFloatVec(gw, zeroed)) << "OuterAcc init, outs " << rows << " ins " << cols;
            }
          }
        }
        std::vector<float> y = g.Values(cols + 1, specials), want = y;
        const float a = g.Value(specials);
        maniSimdScalar_TrainAxpy(want.data() + 1, mp, a, cols);
        maniSimd_TrainAxpy(y.data() + 1, mp, a, cols);
        ASSERT_TRUE(SameFloatVec(y, want)) << "Axpy n " << cols;
      }
}

// The reference against the order simd.h states, written out here: each
// sum from its start over the rows in order, one rounding per operation; a
// skipped row (v == 0, either sign) adds nothing, even where its product
// would be NaN (0 x inf) or would turn a -0 sum into +0.
TEST(SimdReference, TrainKernelsOrder) {
  using namespace train;
  TrainGen g(27);
  const size_t rows = 19, cols = 37, count = 5;
  const std::vector<float> m = g.Values(rows * cols, false), v = g.Values(count * rows, false);
  const std::vector<float> y0 = g.Values(count * cols, false);
  for (int skip = 0; skip < 2; ++skip) {
    std::vector<float> y = y0;
    maniSimdScalar_TrainMatTMat(y.data(), cols, m.data(), v.data(), rows, count, rows, cols, skip);
    for (size_t q = 0; q < count; ++q)
      for (size_t c = 0; c < cols; ++c) {
        volatile float s = y0[q * cols + c];
        for (size_t r = 0; r < rows; ++r) {
          if (skip && v[q * rows + r] == 0.0f) continue;
          volatile float p = m[r * cols + c] * v[q * rows + r];
          s = s + p;
        }
        ASSERT_EQ(Bits(y[q * cols + c]), Bits((float)s)) << q << " " << c;
      }
  }
  // Skipping: 0 x inf left out, and a -0 sum stays -0.
  const float inf = FromBits(0x7F800000u);
  const float mm[2] = {inf, 1.0f}, vv[2] = {0.0f, -0.0f};
  float ys[2] = {-0.0f, -0.0f};
  maniSimd_TrainMatTVec(ys, mm, vv, 1, 2, 1);
  EXPECT_EQ(Bits(ys[0]), 0x80000000u);
  EXPECT_EQ(Bits(ys[1]), 0x80000000u);
  maniSimd_TrainMatTVec(ys, mm, vv, 1, 2, 0);
  EXPECT_TRUE(IsNan(Bits(ys[0])));
  EXPECT_EQ(Bits(ys[1]), 0x00000000u);  // -0 + (1 x +0) = +0
  // The outer product: a row with d == 0 adds nothing; rows in order.
  const float d[3] = {2.0f, 0.0f, 3.0f}, x[6] = {1.0f, inf, 0.5f, -4.0f, 1e-8f, 8.0f};
  float gw[2] = {1.0f, -0.0f};
  maniSimd_TrainOuterAcc(gw, d, 1, x, 2, 3, 1, 2, 0);
  EXPECT_EQ(gw[0], (1.0f + 2.0f * 1.0f) + 3.0f * 1e-8f);
  EXPECT_EQ(gw[1], inf);  // -0 + 2 inf, row 1 (0 x -4) left out, + 3 x 8
}

TEST(SimdBits, TrainAdamW) {
  using namespace train;
  TrainGen g(28);
  for (bool specials : {false, true})
    for (size_t n : {1, 3, 4, 7, 8, 9, 15, 16, 17, 33, 1001}) {
      const size_t off = g.Next() % 8;
      const std::vector<float> p0 = g.Values(n + off, specials), m0 = g.Values(n + off, specials);
      const std::vector<float> gr = g.Values(n + off, specials);
      std::vector<float> v0 = g.Values(n + off, specials), x0 = g.Values(n + off, specials);
      for (size_t i = 0; i < v0.size(); ++i) {  // second moments are never below 0
        v0[i] = std::fabs(v0[i]);
        x0[i] = i % 3 == 0 ? v0[i] : std::fabs(x0[i]);  // ties of v and its maximum too
      }
      const float k[7] = {1.0f - 1e-6f, 0.1f, 0.999f, 0.001f, 0.0316f, 1e-8f, 1e-3f / 0.1f};
      std::vector<float> p = p0, m = m0, v = v0, x = x0;
      std::vector<float> pw = p0, mw = m0, vw = v0, xw = x0;
      maniSimdScalar_TrainAdamW(pw.data() + off, mw.data() + off, vw.data() + off, xw.data() + off, gr.data() + off, n, k);
      maniSimd_TrainAdamW(p.data() + off, m.data() + off, v.data() + off, x.data() + off, gr.data() + off, n, k);
      ASSERT_TRUE(SameFloatVec(p, pw)) << n;
      ASSERT_TRUE(SameFloatVec(m, mw)) << n;
      ASSERT_TRUE(SameFloatVec(v, vw)) << n;
      ASSERT_TRUE(SameFloatVec(x, xw)) << n;
    }
}
