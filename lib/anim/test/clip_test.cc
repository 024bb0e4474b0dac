// clip.h and maniBuildClip: hand-computed clips for each interpolation, seeded
// clips against an independent binary64 glTF evaluation, the grid and
// sampling rules, tracks, events, every refusal, mutations of the file and
// bytes changed after the open.
//
// Built twice: clip_test on full-precision clips, and clip_compressed_test
// (MANI_CLIP_TEST_COMPRESSED) on the same clips compressed with the default
// options. There every clip the tests open is first checked within the error
// shell at every sample and half sample against its full-precision clip, and
// a value the full-precision clip holds exactly is compared within what the
// shell allows (Near below); everything else (grid, tracks, events, root
// motion, cursors, refusals, bytes changed after the open) is the same test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/container.h"
#include "lib/anim/test/fixtures/clip_testing.h"
#include "lib/core/rng.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/pose.h"
#include "maul/anim/rootmotion.h"

namespace {

#if defined(MANI_CLIP_TEST_COMPRESSED)
constexpr bool kCompressed = true;
#else
constexpr bool kCompressed = false;
#endif

// What a compressed clip's values may differ by from the full-precision
// clip's at the default options (precision 0.0001 at shell distance 0.03).
// Translations: a root bone's shell vertices move with its translation, so
// 2 x the precision. Rotation components and scales: a vertex at the shell
// distance moves by about that distance times their error, so 2 x
// precision / shell. Local values of bones deeper in a hierarchy carry their
// parents' errors too (kDeep*, measured
// well inside). Float tracks: the float precision.
constexpr double kTranslation = 2e-4, kRotation = 2 * 1e-4 / 0.03, kScale = 2 * 1e-4 / 0.03;
constexpr double kDeepTranslation = 0.02, kDeepScale = 0.05, kDeepRotationDot = 1e-4;
constexpr double kFloat = 1e-5;

// A full-precision tolerance, or the larger compressed one in that build.
double Tol(double full, double compressed) { return kCompressed ? std::max(full, compressed) : full; }

// A value the full-precision clip holds exactly: its bits there, within tol
// in a compressed clip.
#define EXPECT_VALUE(got, want, tol)          \
  do {                                        \
    if (kCompressed) {                        \
      EXPECT_NEAR((got), (want), (tol));      \
    } else {                                  \
      EXPECT_EQ((got), (want));               \
    }                                         \
  } while (0)

struct Clip {
  File file;
  maniClip c;
  bool ok = false;
};

// The compressed clip of a full-precision clip file, checked within the
// shell at every sample and half sample (and the float tracks within the
// float precision) against it.
File CompressChecked(const maniSkeleton* skeleton, File& full) {
  maniClip f;
  EXPECT_EQ(maniOpenClip(full.data(), full.size, &f).result, mani_success);
  const maniCompressOptions o = maniDefaultCompressOptions();
  Builder b;
  maniCompressReport report = {};
  EXPECT_EQ(maniCompressClip(b.b, &f, skeleton, &o, &report), mani_success);
  File packed = b.Built();
  maniClip c;
  EXPECT_EQ(maniOpenClip(packed.data(), packed.size, &c).result, mani_success);
  EXPECT_TRUE(maniClip_IsCompressed(&c));
  Pose pf(skeleton), pc(skeleton);
  const uint32_t floats = maniClip_GetFloatTrackCount(&f);
  std::vector<float> ff(floats + 1), fc(floats + 1);
  for (float t : SampleAndHalfTimes(&f)) {
    EXPECT_EQ(maniClip_Sample(&f, skeleton, t, pf.p), mani_success);
    EXPECT_EQ(maniClip_Sample(&c, skeleton, t, pc.p), mani_success);
    std::vector<double> e = ShellErrors(skeleton, pf.p, pc.p, o.shellDistance);
    for (size_t bone = 0; bone < e.size(); ++bone)
      EXPECT_LE(e[bone], o.precision * (1 + 1e-9)) << "bone " << bone << " time " << t;
    uint32_t count = 0;
    EXPECT_EQ(maniClip_SampleFloats(&f, t, ff.data(), floats, &count), mani_success);
    EXPECT_EQ(maniClip_SampleFloats(&c, t, fc.data(), floats, &count), mani_success);
    for (uint32_t k = 0; k < floats; ++k)
      EXPECT_LE(std::fabs((double)ff[k] - fc[k]), o.floatPrecision * (1 + 1e-9))
          << "track " << k << " time " << t << ": " << ff[k] << " compressed " << fc[k];
  }
  return packed;
}

// The built file, compressed in the compressed build.
File Finished(const maniSkeleton* skeleton, File full) {
  return kCompressed ? CompressChecked(skeleton, full) : full;
}

Clip BuildOpen(const maniClipSource* src) {
  Clip out;
  Builder b;
  maniBuildResult r = maniBuildClip(b.b, src);
  EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " item " << r.item << " other " << r.other;
  if (r.result != mani_success) return out;
  out.file = Finished(src->skeleton, b.Built());
  maniFileResult f = maniOpenClip(out.file.data(), out.file.size, &out.c);
  EXPECT_EQ(f.result, mani_success) << "offset " << f.offset;
  out.ok = f.result == mani_success;
  EXPECT_EQ(maniClip_IsCompressed(&out.c), kCompressed);
  return out;
}

// -- An independent binary64 glTF evaluation ------------------------------------

void Normalize(double* q) {
  double l = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int k = 0; k < 4; ++k) q[k] /= l;
}

// glTF 2.0 Appendix: slerp(a, b, u) on the shorter arc, by the angle.
void Slerp(const double* a, const double* b, double u, double* out) {
  double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  double s = d < 0 ? -1 : 1;
  double ad = std::fabs(d);
  if (ad > 0.9999999) {
    for (int k = 0; k < 4; ++k) out[k] = a[k] * (1 - u) + s * b[k] * u;
  } else {
    double th = std::acos(ad);
    for (int k = 0; k < 4; ++k)
      out[k] = (std::sin((1 - u) * th) * a[k] + s * std::sin(u * th) * b[k]) / std::sin(th);
  }
  Normalize(out);
}

void EvalSampler(const float* times, const float* values, uint32_t n, uint32_t interp, int width, bool rot, double t,
                 double* out) {
  const bool cubic = interp == maniInterpolationCubicSpline;
  const int per = cubic ? 3 * width : width, at = cubic ? width : 0;
  auto val = [&](uint32_t k, int c) { return (double)values[per * k + at + c]; };
  if (t <= times[0] || n == 1) {
    for (int c = 0; c < width; ++c) out[c] = val(0, c);
  } else if (t >= times[n - 1]) {
    for (int c = 0; c < width; ++c) out[c] = val(n - 1, c);
  } else {
    uint32_t k = 0;
    while (!(t < times[k + 1])) ++k;
    double td = (double)times[k + 1] - times[k], u = (t - times[k]) / td;
    if (interp == maniInterpolationStep) {
      for (int c = 0; c < width; ++c) out[c] = val(k, c);
    } else if (cubic) {
      for (int c = 0; c < width; ++c) {
        double p0 = val(k, c), p1 = val(k + 1, c);
        double m0 = td * values[per * k + 2 * width + c], m1 = td * values[per * (k + 1) + c];
        out[c] = (2 * u * u * u - 3 * u * u + 1) * p0 + (u * u * u - 2 * u * u + u) * m0 +
                 (-2 * u * u * u + 3 * u * u) * p1 + (u * u * u - u * u) * m1;
      }
    } else if (rot) {
      double a[4], b[4];
      for (int c = 0; c < 4; ++c) a[c] = val(k, c), b[c] = val(k + 1, c);
      Normalize(a);
      Normalize(b);
      Slerp(a, b, u, out);
      return;
    } else {
      for (int c = 0; c < width; ++c) out[c] = val(k, c) * (1 - u) + val(k + 1, c) * u;
    }
  }
  if (rot) Normalize(out);
}

// The source local of a bone at a time.
void SourceLocal(const maniClipSource* s, uint32_t bone, double t, double* out) {
  maniTransform r = maniSkeleton_GetRest(s->skeleton, bone);
  double rest[10] = {r.translation.x, r.translation.y, r.translation.z, r.rotation.x, r.rotation.y,
                     r.rotation.z,    r.rotation.w,    r.scale.x,       r.scale.y,    r.scale.z};
  for (int k = 0; k < 10; ++k) out[k] = rest[k];
  for (uint32_t i = 0; i < s->channelCount; ++i) {
    const maniClipSourceChannel& c = s->channels[i];
    if (c.bone != bone) continue;
    int start = c.path == 0 ? 0 : c.path == 1 ? 3 : 7;
    EvalSampler(c.times, c.values, c.keyCount, c.interpolation, c.path == 1 ? 4 : 3, c.path == 1, t, out + start);
  }
}

double SampleTime(uint32_t k, uint32_t n, float duration, float rate) {
  return k + 1 == n ? (double)duration : (double)k / rate;
}

uint32_t ExpectedCount(float duration, float rate) {
  double m = (double)duration * rate;
  double f = std::floor(m);
  return (uint32_t)f + (m == f ? 1 : 2);
}

bool SameBits(const maniTransform& a, const maniTransform& b) { return memcmp(&a, &b, sizeof a) == 0; }

// -- Hand-computed clips -------------------------------------------------------------

struct OneBone {
  Skel skel{7, 1};
};

TEST(Clip, LinearTranslationByHand) {
  OneBone o;
  const float times[2] = {0.0f, 1.0f};
  const float values[6] = {0, 0, 0, 10, -4, 2};
  maniClipSourceChannel ch = {0, maniChannelTranslation, maniInterpolationLinear, 2, times, values};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 1.0f;
  src.sampleRate = 4.0f;
  src.channels = &ch;
  src.channelCount = 1;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(maniClip_GetSampleCount(&c.c), 5u);
  EXPECT_EQ(maniClip_GetDuration(&c.c), 1.0f);
  EXPECT_EQ(maniClip_GetSampleRate(&c.c), 4.0f);
  Pose p(&o.skel.s);
  // 0.5 is sample 2: (5, -2, 1) exactly; 0.625 halfway to sample 3: 6.25.
  ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 0.5f, p.p), mani_success);
  maniTransform t = maniPose_GetLocal(p.p, 0);
  EXPECT_VALUE(t.translation.x, 5.0f, kTranslation);
  EXPECT_VALUE(t.translation.y, -2.0f, kTranslation);
  EXPECT_VALUE(t.translation.z, 1.0f, kTranslation);
  ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 0.625f, p.p), mani_success);
  EXPECT_VALUE(maniPose_GetLocal(p.p, 0).translation.x, 6.25f, kTranslation);
  // Rotation and scale not animated: the rest's bits.
  maniTransform rest = maniSkeleton_GetRest(&o.skel.s, 0);
  t = maniPose_GetLocal(p.p, 0);
  EXPECT_EQ(memcmp(&t.rotation, &rest.rotation, sizeof t.rotation), 0);
  EXPECT_EQ(memcmp(&t.scale, &rest.scale, sizeof t.scale), 0);
  EXPECT_FALSE(maniPose_IsModelCurrent(p.p));
  EXPECT_FALSE(maniPose_IsDifference(p.p));
}

TEST(Clip, StepAndCubicByHand) {
  OneBone o;
  // Step: 1 until 0.6, then 2; the grid holds 1 at 0.5 and 2 at 0.75.
  const float st[2] = {0.0f, 0.6f};
  const float sv[6] = {1, 1, 1, 2, 2, 2};
  // Cubic with zero tangents from 0 to 1 over [0, 1]: 3u^2 - 2u^3.
  const float ct[2] = {0.0f, 1.0f};
  const float cv[18] = {0, 0, 0, 0, 0, 0, 0, 0, 0, /* key 1: */ 0, 0, 0, 1, 1, 1, 0, 0, 0};
  maniClipSourceChannel ch[2] = {{0, maniChannelScale, maniInterpolationStep, 2, st, sv},
                                 {0, maniChannelTranslation, maniInterpolationCubicSpline, 2, ct, cv}};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 1.0f;
  src.sampleRate = 4.0f;
  src.channels = ch;
  src.channelCount = 2;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  Pose p(&o.skel.s);
  ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 0.5f, p.p), mani_success);
  EXPECT_VALUE(maniPose_GetLocal(p.p, 0).scale.x, 1.0f, kScale);
  EXPECT_VALUE(maniPose_GetLocal(p.p, 0).translation.y, 0.5f, kTranslation);
  ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 0.75f, p.p), mani_success);
  EXPECT_VALUE(maniPose_GetLocal(p.p, 0).scale.z, 2.0f, kScale);
  ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 0.25f, p.p), mani_success);
  EXPECT_VALUE(maniPose_GetLocal(p.p, 0).translation.x, 0.15625f, kTranslation);  // 3/16 - 2/64
  ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 0.625f, p.p), mani_success);
  EXPECT_VALUE(maniPose_GetLocal(p.p, 0).scale.y, 1.5f, kScale);  // sampled, then linear between samples
}

TEST(Clip, SlerpByHand) {
  OneBone o;
  // Identity to 90 degrees about z over one second; at 0.5: 45 degrees.
  const float t[2] = {0.0f, 1.0f};
  const float s2 = (float)std::sqrt(0.5);
  const float v[8] = {0, 0, 0, 1, 0, 0, s2, s2};
  maniClipSourceChannel ch = {0, maniChannelRotation, maniInterpolationLinear, 2, t, v};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 1.0f;
  src.sampleRate = 2.0f;
  src.channels = &ch;
  src.channelCount = 1;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  Pose p(&o.skel.s);
  ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 0.5f, p.p), mani_success);
  maniQuat q = maniPose_GetLocal(p.p, 0).rotation;
  EXPECT_NEAR(q.z, std::sin(M_PI / 8), Tol(1e-7, kRotation));
  EXPECT_NEAR(q.w, std::cos(M_PI / 8), Tol(1e-7, kRotation));
  EXPECT_EQ(q.x, 0.0f);
}

TEST(Clip, HemisphereKeptFromSampleToSample) {
  OneBone o;
  // Keys q and -q' (q' near q): every stored sample in one hemisphere.
  const float t[3] = {0.0f, 1.0f, 2.0f};
  const float v[12] = {0, 0, 0.1f, 0.995f, 0, 0, -0.2f, -0.98f, 0, 0, 0.3f, 0.954f};
  maniClipSourceChannel ch = {0, maniChannelRotation, maniInterpolationStep, 3, t, v};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 2.0f;
  src.sampleRate = 10.0f;
  src.channels = &ch;
  src.channelCount = 1;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  Pose p(&o.skel.s);
  maniQuat prev = {0, 0, 0, 1};
  for (uint32_t k = 0; k < maniClip_GetSampleCount(&c.c); ++k) {
    ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, (float)SampleTime(k, 21, 2.0f, 10.0f), p.p), mani_success);
    maniQuat q = maniPose_GetLocal(p.p, 0).rotation;
    if (k > 0) {
      EXPECT_GT(prev.x * q.x + prev.y * q.y + prev.z * q.z + prev.w * q.w, 0.0f) << k;
    }
    EXPECT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0, 1e-6);
    prev = q;
  }
}

TEST(Clip, GridCounts) {
  OneBone o;
  const float t[1] = {0};
  const float v[3] = {1, 2, 3};
  maniClipSourceChannel ch = {0, maniChannelTranslation, maniInterpolationLinear, 1, t, v};
  struct Case {
    float d, r;
    uint32_t n;
  } cases[] = {{0.0f, 30.0f, 1}, {1.0f, 30.0f, 31}, {1.01f, 30.0f, 32}, {0.5f, 3.0f, 3}, {2.0f, 0.5f, 2}};
  for (const Case& k : cases) {
    maniClipSource src = {};
    src.skeleton = &o.skel.s;
    src.duration = k.d;
    src.sampleRate = k.r;
    src.channels = &ch;
    src.channelCount = 1;
    Clip c = BuildOpen(&src);
    ASSERT_TRUE(c.ok);
    EXPECT_EQ(maniClip_GetSampleCount(&c.c), k.n) << k.d << " " << k.r;
    EXPECT_EQ(ExpectedCount(k.d, k.r), k.n);
    Pose p(&o.skel.s);
    ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 100.0f, p.p), mani_success);
    EXPECT_EQ(maniPose_GetLocal(p.p, 0).translation.z, 3.0f);
  }
}

// -- Seeded clips against the binary64 evaluation ------------------------------------

TEST(Clip, SeededClipsMatchSourceAtSampleTimes) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    Skel skel(100 + seed, 1 + (uint32_t)(seed * 7 % 30));
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, seed, &skel.s, MANI_FIXTURE_CLIP_TRACKS, maniLoopClamp, maniAdditiveNone);
    Clip c = BuildOpen(&fc.source);
    ASSERT_TRUE(c.ok);
    const maniClipSource& s = fc.source;
    uint32_t n = maniClip_GetSampleCount(&c.c);
    EXPECT_EQ(n, ExpectedCount(s.duration, s.sampleRate));
    Pose p(&skel.s);
    for (uint32_t k = 0; k < n; k += 1 + n / 9) {
      double t = SampleTime(k, n, s.duration, s.sampleRate);
      ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, (float)t, p.p), mani_success);
      for (uint32_t bone = 0; bone < maniSkeleton_GetBoneCount(&skel.s); ++bone) {
        double ref[10];
        SourceLocal(&s, bone, t, ref);
        maniTransform got = maniPose_GetLocal(p.p, bone);
        const float* g = &got.translation.x;
        const double rel = 1 + std::fabs(ref[0]) + std::fabs(ref[1]) + std::fabs(ref[2]);
        for (int j = 0; j < 3; ++j)
          EXPECT_NEAR(g[j], ref[j], Tol(1e-5 * (1 + std::fabs(ref[j])), kDeepTranslation * rel)) << seed << " " << k;
        for (int j = 7; j < 10; ++j)
          EXPECT_NEAR(g[j], ref[j], Tol(1e-5 * (1 + std::fabs(ref[j])), kDeepScale * (1 + std::fabs(ref[j]))))
              << seed << " " << k;
        double dot = 0;
        for (int j = 0; j < 4; ++j) dot += g[3 + j] * ref[3 + j];
        EXPECT_GT(std::fabs(dot), 1 - Tol(1e-6, kDeepRotationDot)) << seed << " bone " << bone << " sample " << k;
      }
      // Float tracks at sample times are the source's.
      std::vector<float> f(s.floatTrackCount);
      uint32_t count = 0;
      ASSERT_EQ(maniClip_SampleFloats(&c.c, (float)t, f.data(), (uint32_t)f.size(), &count), mani_success);
      ASSERT_EQ(count, s.floatTrackCount);
      for (uint32_t j = 0; j < count; ++j) {
        const maniClipSourceFloatTrack& ft = s.floatTracks[j];
        double ref = 0;
        EvalSampler(ft.times, ft.values, ft.keyCount, ft.interpolation, 1, false, t, &ref);
        EXPECT_NEAR(f[j], ref, Tol(1e-6 * (1 + std::fabs(ref)), kFloat + 1e-6 * (1 + std::fabs(ref))));
      }
    }
    maniFixtureFreeClip(&fc);
  }
}

// Between samples: translation and scale a + (b - a) f in binary32, rotation a
// normalized lerp, with f from the grid rule computed here.
TEST(Clip, BetweenSamplesInterpolatesTheTwoSamples) {
  Skel skel(55, 13);
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, 77, &skel.s, 0, maniLoopClamp, maniAdditiveNone);
  // Sample times k / 8 are exact in binary32: sampling there reads the
  // stored sample (f = 0) for every sample but the last.
  fc.source.duration = 2.0f;
  fc.source.sampleRate = 8.0f;
  Clip c = BuildOpen(&fc.source);
  ASSERT_TRUE(c.ok);
  const maniClipSource& s = fc.source;
  uint32_t n = maniClip_GetSampleCount(&c.c);
  ASSERT_EQ(n, 17u);
  Pose pa(&skel.s), pb(&skel.s), p(&skel.s);
  mcore_Rng rng;
  mcore_RngSeed(&rng, 9);
  for (int trial = 0; trial < 300; ++trial) {
    float t = mcore_RngFloat01(&rng) * (s.duration - 0.125f);
    uint32_t i = (uint32_t)std::floor((double)t * 8);
    double t0 = i / 8.0, t1 = (i + 1) / 8.0;
    float f = (float)((t - t0) / (t1 - t0));
    ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, (float)t0, pa.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, (float)t1, pb.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, t, p.p), mani_success);
    for (uint32_t bone = 0; bone < 13; ++bone) {
      maniTransform a = maniPose_GetLocal(pa.p, bone), b = maniPose_GetLocal(pb.p, bone),
                    g = maniPose_GetLocal(p.p, bone);
      const float* af = &a.translation.x;
      const float* bf = &b.translation.x;
      const float* gf = &g.translation.x;
      for (int j : {0, 1, 2, 7, 8, 9}) EXPECT_EQ(gf[j], af[j] + (bf[j] - af[j]) * f) << trial << " " << j;
      double q[4] = {a.rotation.x, a.rotation.y, a.rotation.z, a.rotation.w};
      double r[4] = {b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w};
      double d = q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3];
      double m[4];
      for (int j = 0; j < 4; ++j) m[j] = q[j] * (1 - f) + (d < 0 ? -r[j] : r[j]) * f;
      Normalize(m);
      for (int j = 0; j < 4; ++j) EXPECT_NEAR(gf[3 + j], m[j], 3e-7) << trial;
    }
  }
  maniFixtureFreeClip(&fc);
}

TEST(Clip, TimeClampedNaNIsZero) {
  Skel skel(3, 9);
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, 5, &skel.s, 0, maniLoopRepeat, maniAdditiveNone);
  Clip c = BuildOpen(&fc.source);
  ASSERT_TRUE(c.ok);
  Pose a(&skel.s), b(&skel.s);
  auto same = [&](float x, float y) {
    EXPECT_EQ(maniClip_Sample(&c.c, &skel.s, x, a.p), mani_success);
    EXPECT_EQ(maniClip_Sample(&c.c, &skel.s, y, b.p), mani_success);
    for (uint32_t k = 0; k < 9; ++k) EXPECT_TRUE(SameBits(maniPose_GetLocal(a.p, k), maniPose_GetLocal(b.p, k)));
  };
  same(NAN, 0.0f);
  same(-3.0f, 0.0f);
  same(-INFINITY, 0.0f);
  same(1e30f, fc.source.duration);
  same(INFINITY, fc.source.duration);
  maniFixtureFreeClip(&fc);
}

TEST(Clip, SampleBonesMatchesSampleAndLeavesOthers) {
  Skel skel(8, 30);
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, 8, &skel.s, 0, maniLoopClamp, maniAdditiveNone);
  Clip c = BuildOpen(&fc.source);
  ASSERT_TRUE(c.ok);
  Pose full(&skel.s), some(&skel.s);
  const uint32_t bones[5] = {0, 3, 8, 9, 29};
  ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, 0.37f, full.p), mani_success);
  ASSERT_EQ(maniClip_SampleBones(&c.c, &skel.s, 0.37f, bones, 5, some.p), mani_success);
  for (uint32_t b = 0, j = 0; b < 30; ++b) {
    if (j < 5 && bones[j] == b) {
      EXPECT_TRUE(SameBits(maniPose_GetLocal(full.p, b), maniPose_GetLocal(some.p, b)));
      ++j;
    } else {
      EXPECT_TRUE(SameBits(maniPose_GetLocal(some.p, b), maniSkeleton_GetRest(&skel.s, b)));
    }
  }
  const uint32_t bad1[2] = {3, 3}, bad2[1] = {30};
  EXPECT_EQ(maniClip_SampleBones(&c.c, &skel.s, 0.1f, bad1, 2, some.p), mani_errorInvalid);
  EXPECT_EQ(maniClip_SampleBones(&c.c, &skel.s, 0.1f, bad2, 1, some.p), mani_errorInvalid);
  EXPECT_EQ(maniClip_SampleBones(&c.c, &skel.s, 0.1f, nullptr, 1, some.p), mani_errorInvalid);
  EXPECT_EQ(maniClip_SampleBones(&c.c, &skel.s, 0.1f, nullptr, 0, some.p), mani_success);
  maniFixtureFreeClip(&fc);
}

TEST(Clip, AdditiveClipsWriteDifferences) {
  Skel skel(21, 12);
  for (uint32_t basis = maniAdditiveRest; basis <= maniAdditiveFirstFrame; ++basis) {
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 31 + basis, &skel.s, 0, maniLoopClamp, (maniAdditiveBasis)basis);
    Clip c = BuildOpen(&fc.source);
    ASSERT_TRUE(c.ok);
    EXPECT_EQ(maniClip_GetAdditiveBasis(&c.c), (maniAdditiveBasis)basis);
    Pose p(&skel.s);
    const maniClipSource& s = fc.source;
    uint32_t n = maniClip_GetSampleCount(&c.c);
    for (uint32_t k = 0; k < n; k += 3) {
      double t = SampleTime(k, n, s.duration, s.sampleRate);
      ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, (float)t, p.p), mani_success);
      EXPECT_TRUE(maniPose_IsDifference(p.p));
      for (uint32_t bone = 0; bone < 12; ++bone) {
        double l[10], base[10];
        SourceLocal(&s, bone, t, l);
        SourceLocal(&s, bone, basis == maniAdditiveRest ? -1.0 : 0.0, base);
        if (basis == maniAdditiveRest) {
          maniTransform r = maniSkeleton_GetRest(&skel.s, bone);
          const float* rf = &r.translation.x;
          for (int j = 0; j < 10; ++j) base[j] = rf[j];
        }
        bool animated[3] = {false, false, false};
        for (uint32_t i = 0; i < s.channelCount; ++i)
          if (s.channels[i].bone == bone) animated[s.channels[i].path] = true;
        maniTransform g = maniPose_GetLocal(p.p, bone);
        if (!animated[0]) {
          EXPECT_EQ(g.translation.x, 0.0f);
        } else {
          EXPECT_NEAR(g.translation.x, l[0] - base[0], Tol(1e-5, kDeepTranslation * (1 + std::fabs(l[0]))));
        }
        if (!animated[2]) {
          EXPECT_EQ(g.scale.y, 1.0f);
        } else {
          EXPECT_NEAR(g.scale.y, l[8] / base[8], Tol(1e-5, kDeepScale * (1 + std::fabs(l[8] / base[8]))));
        }
        if (!animated[1]) {
          EXPECT_EQ(g.rotation.w, 1.0f);
        } else {
          // conj(base) * l, compared by |dot|.
          double bx = -base[3], by = -base[4], bz = -base[5], bw = base[6];
          double lx = l[3], ly = l[4], lz = l[5], lw = l[6];
          double q[4] = {bw * lx + bx * lw + by * lz - bz * ly, bw * ly - bx * lz + by * lw + bz * lx,
                         bw * lz + bx * ly - by * lx + bz * lw, bw * lw - bx * lx - by * ly - bz * lz};
          Normalize(q);
          double dot = q[0] * g.rotation.x + q[1] * g.rotation.y + q[2] * g.rotation.z + q[3] * g.rotation.w;
          EXPECT_GT(std::fabs(dot), 1 - Tol(1e-6, kDeepRotationDot));
        }
      }
    }
    // An additive clip samples bones into a difference only.
    Pose fresh(&skel.s);
    const uint32_t one = 0;
    EXPECT_EQ(maniClip_SampleBones(&c.c, &skel.s, 0.0f, &one, 1, fresh.p), mani_errorInvalid);
    EXPECT_EQ(maniClip_SampleBones(&c.c, &skel.s, 0.0f, &one, 1, p.p), mani_success);
    maniFixtureFreeClip(&fc);
  }
}

// -- Tracks and events ----------------------------------------------------------------

TEST(Clip, FloatTracksStepAndCapacity) {
  OneBone o;
  const float t[3] = {0.0f, 0.5f, 1.0f};
  const float v[3] = {0.0f, 1.0f, 3.0f};
  maniClipSourceFloatTrack ft[2] = {{"lin", 3, maniInterpolationLinear, 3, t, v},
                                    {"stp", 3, maniInterpolationStep, 3, t, v}};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 1.0f;
  src.sampleRate = 4.0f;
  src.floatTracks = ft;
  src.floatTrackCount = 2;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(maniClip_GetFloatTrackCount(&c.c), 2u);
  size_t len = 0;
  const char* name = maniClip_GetFloatTrackName(&c.c, 1, &len);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name, len), "stp");
  EXPECT_EQ(maniClip_GetFloatTrackName(&c.c, 2, &len), nullptr);
  EXPECT_EQ(len, 0u);
  EXPECT_EQ(maniClip_FindFloatTrack(&c.c, "lin", 3), 0u);
  EXPECT_EQ(maniClip_FindFloatTrack(&c.c, "stp", 3), 1u);
  EXPECT_EQ(maniClip_FindFloatTrack(&c.c, "st", 2), MANI_NO_TRACK);
  float out[2] = {-1, -1};
  uint32_t count = 0;
  // 0.625: linear between samples 0.5 (1) and 0.75 (2) -> 1.5; step holds 1.
  ASSERT_EQ(maniClip_SampleFloats(&c.c, 0.625f, out, 2, &count), mani_success);
  EXPECT_VALUE(out[0], 1.5f, kFloat);
  EXPECT_VALUE(out[1], 1.0f, kFloat);
  ASSERT_EQ(maniClip_SampleFloats(&c.c, 1.0f, out, 2, &count), mani_success);
  EXPECT_VALUE(out[0], 3.0f, kFloat);
  EXPECT_VALUE(out[1], 3.0f, kFloat);
  out[0] = -7;
  EXPECT_EQ(maniClip_SampleFloats(&c.c, 0.5f, out, 1, &count), mani_errorCapacity);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(out[0], -7.0f);
  EXPECT_EQ(maniClip_SampleFloats(&c.c, 0.5f, nullptr, 1, &count), mani_errorInvalid);
  EXPECT_EQ(maniClip_SampleFloats(nullptr, 0.5f, out, 2, &count), mani_errorInvalid);
}

TEST(Clip, DiscreteTracks) {
  OneBone o;
  const float t[3] = {0.25f, 0.5f, 0.8f};
  const int32_t v[3] = {7, -3, 12};
  maniClipSourceDiscreteTrack dt = {"mode", 4, 3, 0, t, v};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 1.0f;
  src.sampleRate = 4.0f;
  src.discreteTracks = &dt;
  src.discreteTrackCount = 1;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(maniClip_GetDiscreteTrackCount(&c.c), 1u);
  EXPECT_EQ(maniClip_FindDiscreteTrack(&c.c, "mode", 4), 0u);
  EXPECT_EQ(maniClip_FindDiscreteTrack(&c.c, "mod", 3), MANI_NO_TRACK);
  size_t len = 0;
  const char* dname = maniClip_GetDiscreteTrackName(&c.c, 0, &len);
  ASSERT_NE(dname, nullptr);
  EXPECT_EQ(std::string(dname, len), "mode");
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 0, 0.0f), 7);   // before the first key: the first
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 0, NAN), 7);
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 0, 0.25f), 7);
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 0, 0.4999f), 7);
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 0, 0.5f), -3);
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 0, 0.79f), -3);
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 0, 0.8f), 12);
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 0, 50.0f), 12);
  EXPECT_EQ(maniClip_GetDiscreteValue(&c.c, 1, 0.5f), 0);
}

TEST(Clip, EventsSortedAndRangesFollowTheRules) {
  OneBone o;
  maniClipSourceEvent ev[6] = {{0.5f, 0, "c", 1}, {0.0f, 0, "a", 1}, {0.5f, 0, "d", 1},
                               {1.0f, 0, "f", 1}, {0.25f, 0, "b", 1}, {0.75f, 0, "e", 1}};
  maniClipSourceEvent mk[2] = {{0.6f, 0, "right", 5}, {0.1f, 0, "left", 4}};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 1.0f;
  src.sampleRate = 30.0f;
  src.events = ev;
  src.eventCount = 6;
  src.markers = mk;
  src.markerCount = 2;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  ASSERT_EQ(maniClip_GetEventCount(&c.c), 6u);
  const char* order = "abcdef";  // by time, ties (c, d) in source order
  std::vector<float> times;
  for (uint32_t k = 0; k < 6; ++k) {
    maniClipEvent e = maniClip_GetEvent(&c.c, k);
    ASSERT_EQ(e.nameLength, 1u);
    EXPECT_EQ(e.name[0], order[k]);
    times.push_back(e.time);
  }
  EXPECT_EQ(maniClip_GetEvent(&c.c, 6).name, nullptr);
  ASSERT_EQ(maniClip_GetMarkerCount(&c.c), 2u);
  maniClipEvent m0 = maniClip_GetMarker(&c.c, 0);
  EXPECT_EQ(std::string(m0.name, m0.nameLength), "left");
  EXPECT_EQ(m0.time, 0.1f);
  // Against brute force at many pairs, including exact event times.
  const float probes[] = {-1.0f, 0.0f, 0.1f, 0.25f, 0.3f, 0.5f, 0.6f, 0.75f, 1.0f, 2.0f, NAN};
  for (float from : probes) {
    for (float to : probes) {
      uint32_t first = 99, count = 99;
      maniClip_GetEventRange(&c.c, from, to, &first, &count);
      std::vector<uint32_t> want;
      for (uint32_t k = 0; k < 6; ++k) {
        float t = times[k];
        if (from < to && from <= t && t < to) want.push_back(k);
        if (from > to && to < t && t <= from) want.push_back(k);
      }
      ASSERT_EQ(count, want.size()) << from << " -> " << to;
      if (!want.empty()) {
        EXPECT_EQ(first, want[0]);
      }
      for (size_t j = 1; j < want.size(); ++j) EXPECT_EQ(want[j], want[j - 1] + 1);
    }
  }
}

// -- Views no open wrote ------------------------------------------------------------

TEST(Clip, ZeroedAndDamagedViewsReadAsEmpty) {
  Skel skel(4, 5);
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, 4, &skel.s, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION, maniLoopRepeat,
                      maniAdditiveNone);
  Clip c = BuildOpen(&fc.source);
  ASSERT_TRUE(c.ok);
  maniClip views[4];
  memset(&views[0], 0, sizeof views[0]);
  views[1] = c.c;
  views[1].sampleCount = 1u << 30;
  views[2] = c.c;
  views[2].size = 64;
  views[3] = c.c;
  views[3].floatTrackCount = 1u << 20;
  Pose p(&skel.s);
  for (const maniClip& v : views) {
    EXPECT_EQ(maniClip_GetDuration(&v), 0.0f);
    EXPECT_EQ(maniClip_GetSampleRate(&v), 0.0f);
    EXPECT_EQ(maniClip_GetSampleCount(&v), 0u);
    EXPECT_EQ(maniClip_GetLoopPolicy(&v), maniLoopClamp);
    EXPECT_EQ(maniClip_GetAdditiveBasis(&v), maniAdditiveNone);
    EXPECT_EQ(maniClip_GetIdentity(&v), 0u);
    EXPECT_EQ(maniClip_GetSkeletonIdentity(&v), 0u);
    EXPECT_FALSE(maniClip_IsCompressed(&v));
    EXPECT_EQ(maniClip_GetFloatTrackCount(&v), 0u);
    EXPECT_EQ(maniClip_GetDiscreteTrackCount(&v), 0u);
    EXPECT_EQ(maniClip_GetEventCount(&v), 0u);
    EXPECT_EQ(maniClip_GetMarkerCount(&v), 0u);
    EXPECT_EQ(maniClip_GetFloatTrackName(&v, 0, nullptr), nullptr);
    EXPECT_EQ(maniClip_GetDiscreteTrackName(&v, 0, nullptr), nullptr);
    EXPECT_EQ(maniClip_FindFloatTrack(&v, "curve-0", 7), MANI_NO_TRACK);
    EXPECT_EQ(maniClip_FindDiscreteTrack(&v, "state-0", 7), MANI_NO_TRACK);
    EXPECT_EQ(maniClip_GetDiscreteValue(&v, 0, 0.5f), 0);
    EXPECT_EQ(maniClip_GetEvent(&v, 0).name, nullptr);
    EXPECT_EQ(maniClip_GetMarker(&v, 0).time, 0.0f);
    uint32_t first = 5, count = 5;
    maniClip_GetEventRange(&v, -1.0f, 10.0f, &first, &count);
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(maniClip_Sample(&v, &skel.s, 0.0f, p.p), mani_errorInvalid);
    float f[8];
    EXPECT_EQ(maniClip_SampleFloats(&v, 0.0f, f, 8, &count), mani_errorInvalid);
    maniRootMove m;
    EXPECT_EQ(maniClip_GetRootMotion(&v, 0.0f, 1.0f, &m), mani_errorInvalid);
    maniRootMotionSource rs;
    EXPECT_FALSE(maniClip_GetRootMotionSource(&v, &rs));
    EXPECT_EQ(maniClip_GetCursorSize(&v), 0u);
    EXPECT_EQ(maniClip_GetCursorCompactSize(&v), 0u);
  }
  // Another skeleton, or a pose of another skeleton, is refused.
  Skel other(99, 5);
  Pose q(&other.s);
  EXPECT_EQ(maniClip_Sample(&c.c, &other.s, 0.0f, q.p), mani_errorInvalid);
  EXPECT_EQ(maniClip_Sample(&c.c, &skel.s, 0.0f, q.p), mani_errorInvalid);
  EXPECT_EQ(maniClip_Sample(&c.c, &skel.s, 0.0f, nullptr), mani_errorInvalid);
  maniFixtureFreeClip(&fc);
}

// -- Refusals --------------------------------------------------------------------------

struct Refusal {
  maniResult result;
  uint32_t reason;
  uint64_t item, other;
};

void ExpectRefused(const maniClipSource* src, Refusal want, const char* what) {
  Builder b;
  maniBuildResult r = maniBuildClip(b.b, src);
  EXPECT_EQ(r.result, want.result) << what;
  EXPECT_EQ(r.reason, want.reason) << what;
  EXPECT_EQ(r.item, want.item) << what;
  EXPECT_EQ(r.other, want.other) << what;
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u) << what;
}

TEST(ClipBuild, EveryRefusal) {
  Skel skel(12, 4);
  float t2[2] = {0.0f, 1.0f};
  float v2[8] = {0, 0, 0, 1, 0, 0, 0, 1};
  maniClipSourceChannel ch[2] = {{1, maniChannelRotation, maniInterpolationLinear, 2, t2, v2},
                                 {2, maniChannelTranslation, maniInterpolationLinear, 2, t2, v2}};
  maniClipSourceFloatTrack ft[2] = {{"a", 1, 0, 2, t2, v2}, {"b", 1, 0, 2, t2, v2}};
  maniClipSourceDiscreteTrack dt[1] = {{"d", 1, 2, 0, t2, (const int32_t*)v2}};
  maniClipSourceEvent ev[1] = {{0.5f, 0, "e", 1}};
  maniRootMotionSource rm = {0, MANI_ROOT_MOTION_X};
  auto base = [&]() {
    maniClipSource s = {};
    s.skeleton = &skel.s;
    s.duration = 1.0f;
    s.sampleRate = 30.0f;
    s.channels = ch;
    s.channelCount = 2;
    s.floatTracks = ft;
    s.floatTrackCount = 2;
    s.discreteTracks = dt;
    s.discreteTrackCount = 1;
    s.events = ev;
    s.eventCount = 1;
    s.markers = ev;
    s.markerCount = 1;
    s.rootMotion = &rm;
    return s;
  };
  {
    maniClipSource s = base();
    Clip c = BuildOpen(&s);
    EXPECT_TRUE(c.ok);
  }
  const uint32_t F = maniBuildReasonFloatTrack, E = maniBuildReasonEvent;
  maniSkeleton zero;
  memset(&zero, 0, sizeof zero);
  struct Case {
    const char* what;
    std::function<void(maniClipSource&)> edit;
    Refusal want;
  };
  std::vector<Case> cases = {
      {"skeleton", [&](maniClipSource& s) { s.skeleton = &zero; }, {mani_errorInvalid, maniBuildReasonJoint, 0, MANI_NO_BONE}},
      {"duration nan", [](maniClipSource& s) { s.duration = NAN; }, {mani_errorInvalid, maniBuildReasonTiming, 0, 0}},
      {"duration negative", [](maniClipSource& s) { s.duration = -1; }, {mani_errorInvalid, maniBuildReasonTiming, 0, 0}},
      {"rate 0", [](maniClipSource& s) { s.sampleRate = 0; }, {mani_errorInvalid, maniBuildReasonTiming, 0, 0}},
      {"rate inf", [](maniClipSource& s) { s.sampleRate = INFINITY; }, {mani_errorInvalid, maniBuildReasonTiming, 0, 0}},
      {"too many samples", [](maniClipSource& s) { s.duration = 1e6f; s.discreteTrackCount = 0; },
       {mani_errorLimit, maniBuildReasonTiming, 0, 0}},
      {"loop", [](maniClipSource& s) { s.loop = 2; }, {mani_errorInvalid, maniBuildReasonOption, 0, 0}},
      {"basis", [](maniClipSource& s) { s.additive = 3; }, {mani_errorInvalid, maniBuildReasonOption, 0, 0}},
      {"path", [&](maniClipSource& s) { static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[1]; c[1].path = 3; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonOption, 1, 0}},
      {"interp", [&](maniClipSource& s) { static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[1]; c[0].interpolation = 3; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonOption, 0, 0}},
      {"bone", [&](maniClipSource& s) { static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[1]; c[1].bone = 4; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonJoint, 1, 4}},
      {"no keys", [&](maniClipSource& s) { static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[1]; c[1].keyCount = 0; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonCount, 1, 0}},
      {"null channels", [](maniClipSource& s) { s.channels = nullptr; }, {mani_errorInvalid, maniBuildReasonCount, 0, 0}},
      {"times not increasing", [&](maniClipSource& s) { static float t[2] = {0.5f, 0.5f}; static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[1]; c[0].times = t; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonTiming, 0, 0}},
      {"time negative", [&](maniClipSource& s) { static float t[2] = {-0.5f, 0.5f}; static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[1]; c[1].times = t; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonTiming, 1, 0}},
      {"value nan", [&](maniClipSource& s) { static float v[8] = {0, NAN, 0, 1, 0, 0, 0, 1}; static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[1]; c[1].values = v; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonNotFinite, 1, 0}},
      {"rotation zero", [&](maniClipSource& s) { static float v[8] = {0, 0, 0, 1, 0, 0, 0, 0}; static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[1]; c[0].values = v; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonNotFinite, 0, 1}},
      {"duplicate channel", [&](maniClipSource& s) { static maniClipSourceChannel c[2]; c[0] = ch[0]; c[1] = ch[0]; s.channels = c; },
       {mani_errorInvalid, maniBuildReasonCount, 1, 0}},
      {"float name empty", [&](maniClipSource& s) { static maniClipSourceFloatTrack f[2]; f[0] = ft[0]; f[1] = ft[1]; f[1].nameLength = 0; s.floatTracks = f; },
       {mani_errorInvalid, maniBuildReasonName | F, 1, 0}},
      {"float name long", [&](maniClipSource& s) { static std::string n(256, 'x'); static maniClipSourceFloatTrack f[2]; f[0] = ft[0]; f[1] = ft[1]; f[1].name = n.data(); f[1].nameLength = 256; s.floatTracks = f; },
       {mani_errorLimit, maniBuildReasonName | F, 1, 0}},
      {"float name utf8", [&](maniClipSource& s) { static maniClipSourceFloatTrack f[2]; f[0] = ft[0]; f[1] = ft[1]; f[1].name = "\xff"; s.floatTracks = f; },
       {mani_errorInvalid, maniBuildReasonName | F, 1, 0}},
      {"float duplicate", [&](maniClipSource& s) { static maniClipSourceFloatTrack f[2]; f[0] = ft[0]; f[1] = ft[0]; s.floatTracks = f; },
       {mani_errorInvalid, maniBuildReasonDuplicateName | F, 1, 0}},
      {"float times", [&](maniClipSource& s) { static float t[2] = {1.0f, 0.5f}; static maniClipSourceFloatTrack f[2]; f[0] = ft[0]; f[1] = ft[1]; f[0].times = t; s.floatTracks = f; },
       {mani_errorInvalid, maniBuildReasonTiming | F, 0, 0}},
      {"float value", [&](maniClipSource& s) { static float v[2] = {1.0f, INFINITY}; static maniClipSourceFloatTrack f[2]; f[0] = ft[0]; f[1] = ft[1]; f[1].values = v; s.floatTracks = f; },
       {mani_errorInvalid, maniBuildReasonNotFinite | F, 1, 0}},
      {"discrete past duration", [&](maniClipSource& s) { static float t[2] = {0.0f, 1.5f}; static maniClipSourceDiscreteTrack d[1]; d[0] = dt[0]; d[0].times = t; s.discreteTracks = d; },
       {mani_errorInvalid, maniBuildReasonTiming | F, 0, 1}},
      {"discrete name", [&](maniClipSource& s) { static maniClipSourceDiscreteTrack d[1]; d[0] = dt[0]; d[0].name = nullptr; s.discreteTracks = d; },
       {mani_errorInvalid, maniBuildReasonName | F, 0, 1}},
      {"event time", [&](maniClipSource& s) { static maniClipSourceEvent e[1]; e[0] = ev[0]; e[0].time = 2.0f; s.events = e; },
       {mani_errorInvalid, maniBuildReasonTiming | E, 0, 0}},
      {"marker name", [&](maniClipSource& s) { static maniClipSourceEvent e[1]; e[0] = ev[0]; e[0].nameLength = 0; s.markers = e; },
       {mani_errorInvalid, maniBuildReasonName | E, 0, 1}},
      {"root bone", [&](maniClipSource& s) { static maniRootMotionSource r = {9, 1}; s.rootMotion = &r; },
       {mani_errorInvalid, maniBuildReasonRootMotion, 9, 1}},
      {"root flags 0", [&](maniClipSource& s) { static maniRootMotionSource r = {0, 0}; s.rootMotion = &r; },
       {mani_errorInvalid, maniBuildReasonRootMotion, 0, 0}},
      {"root both turns", [&](maniClipSource& s) { static maniRootMotionSource r = {0, 24}; s.rootMotion = &r; },
       {mani_errorInvalid, maniBuildReasonRootMotion, 0, 24}},
      {"root additive", [&](maniClipSource& s) { s.additive = maniAdditiveRest; },
       {mani_errorInvalid, maniBuildReasonRootMotion, 0, 1}},
  };
  for (Case& c : cases) {
    maniClipSource s = base();
    c.edit(s);
    ExpectRefused(&s, c.want, c.what);
  }
  // NULL arguments are misuses.
  Builder b;
  maniClipSource s = base();
  EXPECT_EQ(maniBuildClip(b.b, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 1u);
  EXPECT_EQ(maniBuildClip(nullptr, &s).result, mani_errorInvalid);
}

// -- Files -------------------------------------------------------------------------------

File SmallClipFile(const Skel& skel) {
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, 2024, &skel.s, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION, maniLoopRepeat,
                      maniAdditiveNone);
  fc.source.duration = 0.3f;
  fc.source.sampleRate = 10.0f;
  for (uint32_t k = 0; k < fc.source.eventCount; ++k)
    const_cast<maniClipSourceEvent*>(fc.source.events)[k].time *= 0.1f;
  for (uint32_t k = 0; k < fc.source.markerCount; ++k)
    const_cast<maniClipSourceEvent*>(fc.source.markers)[k].time *= 0.1f;
  for (uint32_t k = 0; k < fc.source.discreteTrackCount; ++k) {
    auto* d = const_cast<maniClipSourceDiscreteTrack*>(&fc.source.discreteTracks[k]);
    d->keyCount = 1;
    const_cast<float*>(d->times)[0] = 0.0f;
  }
  Builder b;
  maniBuildResult r = maniBuildClip(b.b, &fc.source);
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  maniFixtureFreeClip(&fc);
  return Finished(&skel.s, b.Built());
}

TEST(ClipFile, EveryMutationRefused) {
  Skel skel(31, 3);
  File f = SmallClipFile(skel);
  ASSERT_GT(f.size, 0u);
  maniClip c;
  ASSERT_EQ(maniOpenClip(f.data(), f.size, &c).result, mani_success);
  EXPECT_GT(maniClip_GetEventCount(&c), 0u);
  EXPECT_GT(maniClip_GetDiscreteTrackCount(&c), 0u);
  ExpectEveryMutationRefused(f.data(), f.size, [](const void* p, size_t n) {
    maniClip v;
    return maniOpenClip(p, n, &v);
  });
}

TEST(ClipFile, OpenRefusesArgumentsAndOtherKinds) {
  Skel skel(31, 3);
  File f = SmallClipFile(skel);
  maniClip c;
  EXPECT_EQ(maniOpenClip(nullptr, f.size, &c).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenClip(f.data(), f.size, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenClip(f.data() + 8, f.size, &c).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenClip(skel.file.data(), skel.file.size, &c).result, mani_errorFormat);
  // Another format version of the same bytes: a version refusal.
  File g = f;
  g.data()[8] = 4;
  EXPECT_EQ(maniOpenClip(g.data(), g.size, &c).result, mani_errorVersion);
  // The view is unchanged on failure.
  memset(&c, 0x5A, sizeof c);
  maniClip before = c;
  EXPECT_NE(maniOpenClip(g.data(), g.size, &c).result, mani_success);
  EXPECT_EQ(memcmp(&c, &before, sizeof c), 0);
  // The identity is the container's.
  ASSERT_EQ(maniOpenClip(f.data(), f.size, &c).result, mani_success);
  EXPECT_EQ(maniClip_GetIdentity(&c), mcore_ReadU64(f.data() + 32));
  EXPECT_EQ(maniClip_GetSkeletonIdentity(&c), maniSkeleton_GetIdentity(&skel.s));
}

// The reference: bytes changed after the open sample to some pose, read only
// within the file (asan checks the reads).
TEST(ClipFile, BytesChangedAfterOpenStayInside) {
  Skel skel(41, 11);
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, 41, &skel.s, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION, maniLoopRepeat,
                      maniAdditiveNone);
  Builder b;
  ASSERT_EQ(maniBuildClip(b.b, &fc.source).result, mani_success);
  File f = Finished(&skel.s, b.Built());
  // Exactly the file's bytes in their own heap block, so asan sees a read past them.
  mcore_Rng rng;
  mcore_RngSeed(&rng, 3);
  Pose p(&skel.s);
  for (int round = 0; round < 40; ++round) {
    uint8_t* exact = static_cast<uint8_t*>(aligned_alloc(16, f.size));
    memcpy(exact, f.data(), f.size);
    maniClip c;
    ASSERT_EQ(maniOpenClip(exact, f.size, &c).result, mani_success);
    for (int k = 0; k < 64; ++k) exact[64 + mcore_RngBelow(&rng, (uint32_t)f.size - 64)] = (uint8_t)mcore_RngNext(&rng);
    if (round % 4 == 0)  // whole sections scribbled
      memset(exact + 64 + mcore_RngBelow(&rng, (uint32_t)f.size - 64) / 2, 0xFF, 256 < f.size / 4 ? 256 : f.size / 4);
    for (float t : {0.0f, 0.3f, 1.0f, 5.0f, NAN}) {
      EXPECT_EQ(maniClip_Sample(&c, &skel.s, t, p.p), mani_success);
      float fl[16];
      uint32_t count;
      EXPECT_EQ(maniClip_SampleFloats(&c, t, fl, 16, &count), mani_success);
      for (uint32_t k = 0; k < maniClip_GetDiscreteTrackCount(&c); ++k) (void)maniClip_GetDiscreteValue(&c, k, t);
      for (uint32_t k = 0; k < maniClip_GetEventCount(&c); ++k) (void)maniClip_GetEvent(&c, k);
      for (uint32_t k = 0; k < maniClip_GetMarkerCount(&c); ++k) (void)maniClip_GetMarker(&c, k);
      uint32_t first, n;
      maniClip_GetEventRange(&c, t, 0.7f, &first, &n);
      EXPECT_LE((uint64_t)first + n, maniClip_GetEventCount(&c));
      maniRootMove m;
      EXPECT_EQ(maniClip_GetRootMotion(&c, 0.2f, 3.7f, &m), mani_success);
      EXPECT_EQ(maniClip_RestoreRootMotion(&c, &skel.s, t, p.p), mani_success);
      (void)maniClip_FindFloatTrack(&c, "curve-0", 7);
      (void)maniClip_FindDiscreteTrack(&c, "state-0", 7);
      for (uint32_t k = 0; k < 4; ++k) (void)maniClip_GetFloatTrackName(&c, k, nullptr);
    }
    free(exact);
  }
  maniFixtureFreeClip(&fc);
}

// -- Root motion ------------------------------------------------------------------------

struct RootClip {
  OneBone o;
  float t[2] = {0.0f, 1.0f};
  float tv[6] = {0, 0, 0, 4, 0, 0};
  float rv[8] = {0, 0, 0, 1, 0, 0, 0, 1};
  maniClipSourceChannel ch[2];
  maniRootMotionSource rm = {0, MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Z};
  maniClipSource src = {};
  RootClip(maniLoopPolicy loop, uint32_t flags) {
    ch[0] = {0, maniChannelTranslation, maniInterpolationLinear, 2, t, tv};
    ch[1] = {0, maniChannelRotation, maniInterpolationLinear, 2, t, rv};
    rm.flags = flags;
    src.skeleton = &o.skel.s;
    src.duration = 1.0f;
    src.sampleRate = 4.0f;
    src.loop = loop;
    src.channels = ch;
    src.channelCount = 2;
    src.rootMotion = &rm;
  }
};

maniRootMove Move(const maniClip* c, float time, float step) {
  maniRootMove m;
  memset(&m, 0x7F, sizeof m);
  EXPECT_EQ(maniClip_GetRootMotion(c, time, step, &m), mani_success);
  return m;
}

TEST(RootMotion, ClampedSignedSteps) {
  RootClip r(maniLoopClamp, MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Z);
  Clip c = BuildOpen(&r.src);
  ASSERT_TRUE(c.ok);
  maniRootMotionSource got;
  ASSERT_TRUE(maniClip_GetRootMotionSource(&c.c, &got));
  EXPECT_EQ(got.bone, 0u);
  EXPECT_EQ(got.flags, MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Z);
  EXPECT_EQ(Move(&c.c, 0.25f, 0.5f).translation.x, 2.0f);
  EXPECT_EQ(Move(&c.c, 0.75f, -0.5f).translation.x, -2.0f);
  EXPECT_EQ(Move(&c.c, 0.5f, 10.0f).translation.x, 2.0f);   // clamped at the end
  EXPECT_EQ(Move(&c.c, 0.5f, -10.0f).translation.x, -2.0f); // and at 0
  EXPECT_EQ(Move(&c.c, 0.5f, 0.0f).translation.x, 0.0f);
  EXPECT_EQ(Move(&c.c, 0.5f, 0.5f).rotation.w, 1.0f);
  // The bone plays in place; the restore puts the motion back.
  Pose p(&r.o.skel.s);
  ASSERT_EQ(maniClip_Sample(&c.c, &r.o.skel.s, 0.5f, p.p), mani_success);
  EXPECT_EQ(maniPose_GetLocal(p.p, 0).translation.x, 0.0f);
  ASSERT_EQ(maniClip_RestoreRootMotion(&c.c, &r.o.skel.s, 0.5f, p.p), mani_success);
  EXPECT_EQ(maniPose_GetLocal(p.p, 0).translation.x, 2.0f);
  maniRootMove m;
  EXPECT_EQ(maniClip_GetRootMotion(&c.c, NAN, 1.0f, &m), mani_errorInvalid);
  EXPECT_EQ(maniClip_GetRootMotion(&c.c, 0.0f, INFINITY, &m), mani_errorInvalid);
  EXPECT_EQ(maniClip_GetRootMotion(&c.c, 0.0f, 1.0f, nullptr), mani_errorInvalid);
}

TEST(RootMotion, RepeatingWrapsAndWholePeriods) {
  RootClip r(maniLoopRepeat, MANI_ROOT_MOTION_X);
  Clip c = BuildOpen(&r.src);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(Move(&c.c, 0.75f, 0.5f).translation.x, 2.0f);    // across one wrap
  EXPECT_EQ(Move(&c.c, 0.25f, -0.5f).translation.x, -2.0f);  // backward across it
  EXPECT_EQ(Move(&c.c, 0.5f, 3.0f).translation.x, 12.0f);
  EXPECT_EQ(Move(&c.c, -7.5f, 2.0f).translation.x, 8.0f);
  EXPECT_EQ(Move(&c.c, 0.0f, 1048576.0f).translation.x, 4194304.0f);
  EXPECT_EQ(Move(&c.c, 0.0f, -1048576.0f).translation.x, -4194304.0f);
  // More than 2^32 periods count as 2^32.
  EXPECT_EQ(Move(&c.c, 0.0f, 1e12f).translation.x, 4.0f * 4294967296.0f);
}

// A period that walks one unit forward and turns a quarter about +Y: four
// periods close a square (translation 0, a whole turn).
TEST(RootMotion, SquaringComposesTurningPeriods) {
  RootClip r(maniLoopRepeat, MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Z | MANI_ROOT_MOTION_YAW);
  const float s2 = (float)std::sqrt(0.5);
  r.tv[3] = 0;
  r.tv[5] = 1;  // (0, 0, 1) after one period
  r.rv[4] = 0;
  r.rv[5] = s2;
  r.rv[6] = 0;
  r.rv[7] = s2;  // 90 degrees about +Y
  Clip c = BuildOpen(&r.src);
  ASSERT_TRUE(c.ok);
  maniRootMove p1 = Move(&c.c, 0.0f, 1.0f);
  EXPECT_NEAR(p1.translation.z, 1.0, 1e-6);
  EXPECT_NEAR(p1.rotation.y, s2, 1e-6);
  maniRootMove p2 = Move(&c.c, 0.0f, 2.0f);
  EXPECT_NEAR(p2.translation.x, 1.0, 1e-6);
  EXPECT_NEAR(p2.translation.z, 1.0, 1e-6);
  EXPECT_NEAR(std::fabs(p2.rotation.y), 1.0, 1e-6);
  maniRootMove p4 = Move(&c.c, 0.0f, 4.0f);
  EXPECT_NEAR(p4.translation.x, 0.0, 1e-5);
  EXPECT_NEAR(p4.translation.z, 0.0, 1e-5);
  EXPECT_NEAR(std::fabs(p4.rotation.w), 1.0, 1e-6);
  // k periods against the closed form of the stored period P = (t, turn
  // theta about +Y): a point (x, z) as z + i x turns by e^(i theta), so
  // P^k's translation is v (1 - e^(i k theta)) / (1 - e^(i theta)).
  const double theta = 2 * std::atan2((double)p1.rotation.y, (double)p1.rotation.w);
  const std::complex<double> v((double)p1.translation.z, (double)p1.translation.x);
  for (float k : {5.0f, 41.0f, 4097.0f, 1048577.0f, 33554432.0f}) {
    maniRootMove m = Move(&c.c, 0.0f, k);
    const std::complex<double> e1 = std::polar(1.0, theta), ek = std::polar(1.0, (double)k * theta);
    const std::complex<double> want = v * (1.0 - ek) / (1.0 - e1);
    EXPECT_NEAR(m.translation.z, want.real(), 1e-5) << k;
    EXPECT_NEAR(m.translation.x, want.imag(), 1e-5) << k;
    EXPECT_NEAR(2 * std::atan2((double)m.rotation.y, (double)m.rotation.w),
                std::remainder((double)k * theta, 4 * M_PI), 1e-5) << k;
  }
  // Backward three periods equals forward one period inverted thrice...:
  // going back one period from 0 undoes it: P^-1 then P is nothing.
  maniRootMove back = Move(&c.c, 1.0f, -1.0f);
  maniRootMove both = maniComposeRootMotion(p1, back);
  EXPECT_NEAR(both.translation.x, 0.0, 1e-6);
  EXPECT_NEAR(both.translation.z, 0.0, 1e-6);
  EXPECT_NEAR(std::fabs(both.rotation.w), 1.0, 1e-6);
  // Moves of two steps compose into the move of their sum.
  maniRootMove a = Move(&c.c, 0.3f, 0.45f), b = Move(&c.c, 0.75f, 1.5f), ab = Move(&c.c, 0.3f, 1.95f);
  maniRootMove composed = maniComposeRootMotion(a, b);
  EXPECT_NEAR(composed.translation.x, ab.translation.x, 1e-5);
  EXPECT_NEAR(composed.translation.z, ab.translation.z, 1e-5);
  EXPECT_NEAR(std::fabs(composed.rotation.y * ab.rotation.y + composed.rotation.w * ab.rotation.w), 1.0, 1e-6);
}

TEST(RootMotion, ComposeAndBlendByHand) {
  const float s2 = (float)std::sqrt(0.5);
  maniRootMove first = {{1, 0, 0}, {0, s2, 0, s2}}, then = {{0, 0, 1}, {0, 0, 0, 1}};
  maniRootMove m = maniComposeRootMotion(first, then);
  EXPECT_NEAR(m.translation.x, 2.0, 1e-6);
  EXPECT_NEAR(m.translation.z, 0.0, 1e-6);
  maniRootMove id = maniMakeRootMoveIdentity();
  EXPECT_EQ(id.translation.x, 0.0f);
  EXPECT_EQ(id.rotation.w, 1.0f);
  maniRootMove moves[3] = {{{4, 0, 0}, {0, 0, 0, 1}}, {{0, 8, 0}, {0, 0, 0, -1}}, {{9, 9, 9}, {1, 0, 0, 0}}};
  float w[3] = {1, 3, 0};
  maniRootMove out;
  ASSERT_EQ(maniBlendRootMotion(moves, w, 3, &out), mani_success);
  EXPECT_EQ(out.translation.x, 1.0f);
  EXPECT_EQ(out.translation.y, 6.0f);
  EXPECT_EQ(out.rotation.w, 1.0f);  // -1 turned into the first's hemisphere
  float zero[3] = {0, 0, 0};
  ASSERT_EQ(maniBlendRootMotion(moves, zero, 3, &out), mani_success);
  EXPECT_EQ(out.translation.y, 0.0f);
  EXPECT_EQ(out.rotation.w, 1.0f);
  float neg[3] = {1, -1, 0}, nan[3] = {1, NAN, 0};
  out.translation.x = 42;
  EXPECT_EQ(maniBlendRootMotion(moves, neg, 3, &out), mani_errorInvalid);
  EXPECT_EQ(maniBlendRootMotion(moves, nan, 3, &out), mani_errorInvalid);
  EXPECT_EQ(maniBlendRootMotion(nullptr, w, 3, &out), mani_errorInvalid);
  EXPECT_EQ(out.translation.x, 42.0f);
  moves[2].translation.x = INFINITY;
  EXPECT_EQ(maniBlendRootMotion(moves, w, 3, &out), mani_errorInvalid);
  EXPECT_EQ(maniBlendRootMotion(nullptr, nullptr, 0, &out), mani_success);
}

TEST(RootMotion, RestoredPosesMatchTheSource) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    Skel skel(300 + seed, 6);
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 500 + seed, &skel.s, MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_ALL_BONES,
                        maniLoopRepeat, maniAdditiveNone);
    Clip c = BuildOpen(&fc.source);
    ASSERT_TRUE(c.ok);
    const maniClipSource& s = fc.source;
    uint32_t n = maniClip_GetSampleCount(&c.c);
    Pose p(&skel.s);
    for (uint32_t k = 0; k < n; k += 2) {
      double t = SampleTime(k, n, s.duration, s.sampleRate);
      ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, (float)t, p.p), mani_success);
      ASSERT_EQ(maniClip_RestoreRootMotion(&c.c, &skel.s, (float)t, p.p), mani_success);
      double ref[10];
      SourceLocal(&s, 0, t, ref);
      maniTransform g = maniPose_GetLocal(p.p, 0);
      const float* gf = &g.translation.x;
      for (int j = 0; j < 3; ++j)
        EXPECT_NEAR(gf[j], ref[j], Tol(5e-5 * (1 + std::fabs(ref[j])), kTranslation + 5e-5 * (1 + std::fabs(ref[j]))))
            << seed << " " << k;
      double dot = 0;
      for (int j = 0; j < 4; ++j) dot += gf[3 + j] * ref[3 + j];
      EXPECT_GT(std::fabs(dot), 1 - Tol(1e-6, kDeepRotationDot)) << seed << " " << k;
    }
    // No root motion: the restore changes nothing; the move is none.
    maniFixtureFreeClip(&fc);
  }
  OneBone o;
  const float t[1] = {0};
  const float v[3] = {1, 2, 3};
  maniClipSourceChannel ch = {0, maniChannelTranslation, maniInterpolationLinear, 1, t, v};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 1.0f;
  src.sampleRate = 4.0f;
  src.channels = &ch;
  src.channelCount = 1;
  Clip c = BuildOpen(&src);
  maniRootMotionSource rs;
  EXPECT_FALSE(maniClip_GetRootMotionSource(&c.c, &rs));
  EXPECT_EQ(Move(&c.c, 0.2f, 5.0f).translation.x, 0.0f);
  Pose p(&o.skel.s);
  ASSERT_EQ(maniClip_Sample(&c.c, &o.skel.s, 0.5f, p.p), mani_success);
  maniTransform before = maniPose_GetLocal(p.p, 0);
  ASSERT_EQ(maniClip_RestoreRootMotion(&c.c, &o.skel.s, 0.5f, p.p), mani_success);
  EXPECT_TRUE(SameBits(before, maniPose_GetLocal(p.p, 0)));
}

// -- Cursors ------------------------------------------------------------------------------


TEST(ClipCursor, SameBitsAsSampleFullAndCompact) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Skel skel(600 + seed, (uint32_t)(seed * 13));
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 700 + seed, &skel.s, MANI_FIXTURE_CLIP_TRACKS, maniLoopClamp,
                        seed == 3 ? maniAdditiveRest : maniAdditiveNone);
    Clip c = BuildOpen(&fc.source);
    ASSERT_TRUE(c.ok);
    size_t full = maniClip_GetCursorSize(&c.c), compact = maniClip_GetCursorCompactSize(&c.c);
    EXPECT_EQ(compact, 64 + 80 * (size_t)maniSkeleton_GetBoneCount(&skel.s));
    if (std::string(maniGetSimdBackend()) == "scalar") {
      EXPECT_EQ(full, compact);
    } else {
      // A compressed clip's cursor also keeps its segment's decoded state.
      if (kCompressed)
        EXPECT_GT(full, 64 + 640 * (size_t)((maniSkeleton_GetBoneCount(&skel.s) + 7) / 8));
      else
        EXPECT_EQ(full, 64 + 640 * (size_t)((maniSkeleton_GetBoneCount(&skel.s) + 7) / 8));
    }
    CursorMem cf(full), cc(compact);
    Pose a(&skel.s), b(&skel.s), d(&skel.s);
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    float t = -0.1f;
    for (int step = 0; step < 150; ++step) {
      t = step < 100 ? t + 0.013f : mcore_RngFloat01(&rng) * 3.0f - 0.5f;  // sequential, then random
      if (step == 120) t = NAN;
      ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, t, a.p), mani_success);
      ASSERT_EQ(maniClipCursor_Sample(cf.c, &c.c, &skel.s, t, b.p), mani_success);
      ASSERT_EQ(maniClipCursor_Sample(cc.c, &c.c, &skel.s, t, d.p), mani_success);
      EXPECT_EQ(maniPose_IsDifference(b.p), maniPose_IsDifference(a.p));
      for (uint32_t k = 0; k < maniSkeleton_GetBoneCount(&skel.s); ++k) {
        ASSERT_TRUE(SameBits(maniPose_GetLocal(a.p, k), maniPose_GetLocal(b.p, k))) << step << " " << k;
        ASSERT_TRUE(SameBits(maniPose_GetLocal(a.p, k), maniPose_GetLocal(d.p, k))) << step << " " << k;
      }
      float fa[8], fb[8];
      uint32_t na = 0, nb = 0;
      ASSERT_EQ(maniClip_SampleFloats(&c.c, t, fa, 8, &na), mani_success);
      ASSERT_EQ(maniClipCursor_SampleFloats(cc.c, &c.c, t, fb, 8, &nb), mani_success);
      ASSERT_EQ(na, nb);
      EXPECT_EQ(memcmp(fa, fb, 4 * na), 0);
    }
    maniFixtureFreeClip(&fc);
  }
}

TEST(ClipCursor, RebindsAndRefuses) {
  Skel skel(61, 9);
  maniFixtureClip f1, f2;
  maniFixtureMakeClip(&f1, 1, &skel.s, 0, maniLoopClamp, maniAdditiveNone);
  maniFixtureMakeClip(&f2, 2, &skel.s, 0, maniLoopClamp, maniAdditiveNone);
  Clip c1 = BuildOpen(&f1.source), c2 = BuildOpen(&f2.source);
  ASSERT_TRUE(c1.ok && c2.ok);
  CursorMem cur(maniClip_GetCursorSize(&c1.c));
  Pose a(&skel.s), b(&skel.s);
  for (int k = 0; k < 20; ++k) {
    const Clip& c = k % 2 ? c2 : c1;
    ASSERT_EQ(maniClipCursor_Sample(cur.c, &c.c, &skel.s, 0.3f, b.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&c.c, &skel.s, 0.3f, a.p), mani_success);
    for (uint32_t j = 0; j < 9; ++j) ASSERT_TRUE(SameBits(maniPose_GetLocal(a.p, j), maniPose_GetLocal(b.p, j)));
  }
  // The same bytes at another address rebind too.
  File copy = c1.file;
  maniClip moved;
  ASSERT_EQ(maniOpenClip(copy.data(), copy.size, &moved).result, mani_success);
  ASSERT_EQ(maniClipCursor_Sample(cur.c, &moved, &skel.s, 0.7f, b.p), mani_success);
  ASSERT_EQ(maniClip_Sample(&c1.c, &skel.s, 0.7f, a.p), mani_success);
  for (uint32_t j = 0; j < 9; ++j) ASSERT_TRUE(SameBits(maniPose_GetLocal(a.p, j), maniPose_GetLocal(b.p, j)));
  // Too small: capacity, the pose unchanged.
  CursorMem tiny(64);
  maniTransform before = maniPose_GetLocal(b.p, 4);
  EXPECT_EQ(maniClipCursor_Sample(tiny.c, &c1.c, &skel.s, 0.1f, b.p), mani_errorCapacity);
  EXPECT_TRUE(SameBits(before, maniPose_GetLocal(b.p, 4)));
  float fl[4];
  uint32_t n;
  EXPECT_EQ(maniClipCursor_SampleFloats(tiny.c, &c1.c, 0.1f, fl, 4, &n), mani_errorCapacity);
  EXPECT_EQ(maniClipCursor_Sample(nullptr, &c1.c, &skel.s, 0.1f, b.p), mani_errorInvalid);
  EXPECT_EQ(maniClipCursor_SampleFloats(nullptr, &c1.c, 0.1f, fl, 4, &n), mani_errorInvalid);
  // Init: misaligned, too small, NULL.
  alignas(32) uint8_t mem[128];
  maniClipCursor* c = nullptr;
  EXPECT_EQ(maniInitClipCursor(mem + 16, 100, &c), mani_errorInvalid);
  EXPECT_EQ(maniInitClipCursor(mem, 63, &c), mani_errorCapacity);
  EXPECT_EQ(maniInitClipCursor(nullptr, 128, &c), mani_errorInvalid);
  EXPECT_EQ(maniInitClipCursor(mem, 128, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniInitClipCursor(mem, 128, &c), mani_success);
  maniFixtureFreeClip(&f1);
  maniFixtureFreeClip(&f2);
}

// -- Measuring ------------------------------------------------------------------------------

TEST(ClipMeasure, CubicErrorsHalfwayByHand) {
  OneBone o;
  const float ct[2] = {0.0f, 1.0f};
  const float cv[18] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
  const float lt[2] = {0.0f, 1.0f};
  const float lv[2] = {0.0f, 2.0f};
  const float sv[2] = {0.0f, 1.0f};
  maniClipSourceChannel ch = {0, maniChannelTranslation, maniInterpolationCubicSpline, 2, ct, cv};
  maniClipSourceFloatTrack ft[2] = {{"lin", 3, maniInterpolationLinear, 2, lt, lv},
                                    {"stp", 3, maniInterpolationStep, 2, lt, sv}};
  maniClipSource src = {};
  src.skeleton = &o.skel.s;
  src.duration = 1.0f;
  src.sampleRate = 4.0f;
  src.channels = &ch;
  src.channelCount = 1;
  src.floatTracks = ft;
  src.floatTrackCount = 2;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  Builder b;
  maniClipBoneError perBone[1];
  float perFloat[2];
  maniClipReport r = {};
  r.bones = perBone;
  r.boneCapacity = 1;
  r.floatTracks = perFloat;
  r.floatCapacity = 2;
  ASSERT_EQ(maniBuilder_MeasureClip(b.b, &src, &c.c, &r), mani_success);
  EXPECT_EQ(r.timesMeasured, 9u);
  // x(u) = 3u^2 - 2u^3; the clip is linear between samples at quarters.
  auto p = [](double u) { return 3 * u * u - 2 * u * u * u; };
  double worst = 0;
  for (int i = 0; i < 4; ++i)
    worst = std::max(worst, std::fabs((p(i / 4.0) + p((i + 1) / 4.0)) / 2 - p((i + 0.5) / 4)));
  EXPECT_NEAR(r.maxTranslation, worst, Tol(1e-6, kTranslation));
  EXPECT_NEAR(perBone[0].translation, worst, Tol(1e-6, kTranslation));
  EXPECT_EQ(r.maxRotation, 0.0f);  // the rotation is not animated
  EXPECT_EQ(r.maxScale, 0.0f);
  // The linear float track is exact; the step track errs by 0 too (its key
  // change at 1 falls on the last sample).
  EXPECT_LT(perFloat[0], Tol(1e-6, kFloat));
  EXPECT_LT(perFloat[1], Tol(1e-6, kFloat));
  // Refusals.
  Skel other(5, 1);
  maniClipSource wrong = src;
  wrong.skeleton = &other.s;
  EXPECT_EQ(maniBuilder_MeasureClip(b.b, &wrong, &c.c, &r), mani_errorInvalid);
  maniClipSourceFloatTrack extra[3] = {ft[0], ft[1], {"new", 3, maniInterpolationLinear, 2, lt, lv}};
  wrong = src;
  wrong.floatTracks = extra;
  wrong.floatTrackCount = 3;
  EXPECT_EQ(maniBuilder_MeasureClip(b.b, &wrong, &c.c, &r), mani_errorInvalid);
  wrong = src;
  wrong.duration = NAN;
  EXPECT_EQ(maniBuilder_MeasureClip(b.b, &wrong, &c.c, &r), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u);
  EXPECT_EQ(maniBuilder_MeasureClip(b.b, &src, nullptr, &r), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_MeasureClip(b.b, nullptr, &c.c, &r), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_MeasureClip(nullptr, &src, &c.c, &r), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 2u);
}

// Regression: the angle was 2 acos(|dot|), whose rounding near 1 reported up
// to 3.9e-4 rad for rotations that agree to the last bit of binary32, and
// named unanimated bones as the worst. A bone at its rest rotation measures 0;
// a bone held at one rotation by keys measures only binary32's rounding of
// that rotation (at most about 2.4e-7 rad), and it is the worst bone.
TEST(ClipMeasure, AnglesOfExactRotationsAreTheirRounding) {
  if (kCompressed) GTEST_SKIP() << "measures the full-precision clip's rounding";
  Skel skel(31, 3);
  const float times[2] = {0.0f, 1.0f};
  // A rotation whose binary32 components are not exact: 0.7 rad about (1, 2, 3).
  const double axisLen = std::sqrt(14.0), half = 0.35;
  const float q[4] = {(float)(std::sin(half) / axisLen), (float)(2 * std::sin(half) / axisLen),
                      (float)(3 * std::sin(half) / axisLen), (float)std::cos(half)};
  const float values[8] = {q[0], q[1], q[2], q[3], q[0], q[1], q[2], q[3]};
  maniClipSourceChannel ch = {1, maniChannelRotation, maniInterpolationLinear, 2, times, values};
  maniClipSource src = {};
  src.skeleton = &skel.s;
  src.duration = 1.0f;
  src.sampleRate = 8.0f;
  src.channels = &ch;
  src.channelCount = 1;
  Clip c = BuildOpen(&src);
  ASSERT_TRUE(c.ok);
  Builder b;
  maniClipBoneError perBone[3];
  maniClipReport r = {};
  r.bones = perBone;
  r.boneCapacity = 3;
  ASSERT_EQ(maniBuilder_MeasureClip(b.b, &src, &c.c, &r), mani_success);
  EXPECT_EQ(perBone[0].rotation, 0.0f);
  EXPECT_EQ(perBone[2].rotation, 0.0f);
  EXPECT_LE(perBone[1].rotation, 2.5e-7f);
  EXPECT_EQ(r.maxRotation, perBone[1].rotation);
  EXPECT_EQ(r.worstBone, perBone[1].rotation > 0.0f ? 1u : MANI_NO_BONE);
}

TEST(ClipMeasure, SeededClipsErrOnlyBetweenSamples) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Skel skel(800 + seed, 10);
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 900 + seed, &skel.s, MANI_FIXTURE_CLIP_TRACKS | (seed % 2 ? MANI_FIXTURE_CLIP_ROOT_MOTION : 0),
                        maniLoopClamp, seed == 2 ? maniAdditiveFirstFrame : maniAdditiveNone);
    Clip c = BuildOpen(&fc.source);
    ASSERT_TRUE(c.ok);
    Builder b;
    maniClipReport r = {};
    ASSERT_EQ(maniBuilder_MeasureClip(b.b, &fc.source, &c.c, &r), mani_success);
    EXPECT_EQ(r.timesMeasured, 2 * maniClip_GetSampleCount(&c.c) - 1);
    // Step and spline channels between samples err; bounded by the ranges.
    EXPECT_GT(r.maxTranslation + r.maxRotation + r.maxScale, 0.0f);
    EXPECT_LT(r.maxTranslation, 20.0f);
    EXPECT_LE(r.maxRotation, (float)M_PI + 1e-6f);
    EXPECT_NE(r.worstBone, MANI_NO_BONE);
    maniFixtureFreeClip(&fc);
  }
}

}  // namespace
