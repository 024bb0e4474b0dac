// Compressed clips (build.h maniCompressClip, clip.h on compressed views):
// every bone's shell within the precision at every sample and half sample,
// measured by an independent binary64 evaluation of the full-precision
// clip's and the compressed clip's sampled poses; folded channels exact;
// refusals and misuse counts; the same bytes twice; mutations of the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/clip_testing.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/pose.h"

namespace {

// A full-precision clip of a fixture source and its compressed version.
struct Pair {
  File full, packed;
  maniClip f{}, c{};
  maniCompressReport report{};
  std::vector<double> boneErrors;
  bool ok = false;
};

Pair MakePair(const maniSkeleton* s, uint64_t seed, uint32_t flags, maniLoopPolicy loop, maniAdditiveBasis additive,
              const maniCompressOptions& o) {
  Pair p;
  maniFixtureClip fx;
  maniFixtureMakeClip(&fx, seed, s, flags, loop, additive);
  size_t size = 0;
  void* bytes = maniFixtureBuildClip(&fx.source, &size);
  maniFixtureFreeClip(&fx);
  EXPECT_NE(bytes, nullptr);
  if (bytes == nullptr) return p;
  p.full.Assign(bytes, size);
  free(bytes);
  EXPECT_EQ(maniOpenClip(p.full.data(), p.full.size, &p.f).result, mani_success);
  Builder b;
  p.boneErrors.assign(maniSkeleton_GetBoneCount(s), -1.0);
  p.report.bones = p.boneErrors.data();
  p.report.boneCapacity = (uint32_t)p.boneErrors.size();
  EXPECT_EQ(maniCompressClip(b.b, &p.f, s, &o, &p.report), mani_success);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u);
  p.packed = b.Built();
  maniFileResult r = maniOpenClip(p.packed.data(), p.packed.size, &p.c);
  EXPECT_EQ(r.result, mani_success) << "offset " << r.offset;
  p.ok = r.result == mani_success;
  return p;
}

bool SameBits(const maniTransform& a, const maniTransform& b) { return memcmp(&a, &b, sizeof a) == 0; }

// Checks a pair: every time within the shell and the float tolerance, the
// report's worst as measured here, discrete tracks and events as the full
// clip's, cursors and SampleBones the same bits as maniClip_Sample.
void CheckPair(const maniSkeleton* s, const Pair& p, const maniCompressOptions& o) {
  ASSERT_TRUE(p.ok);
  EXPECT_TRUE(maniClip_IsCompressed(&p.c));
  EXPECT_FALSE(maniClip_IsCompressed(&p.f));
  EXPECT_EQ(maniClip_GetSampleCount(&p.c), maniClip_GetSampleCount(&p.f));
  EXPECT_EQ(maniClip_GetIdentity(&p.c) != maniClip_GetIdentity(&p.f), true);
  EXPECT_EQ(p.report.sizeBefore, p.full.size);
  EXPECT_EQ(p.report.sizeAfter, p.packed.size);
  uint32_t bones = maniSkeleton_GetBoneCount(s);
  Pose pf(s), pc(s), pk(s), pb(s);
  CursorMem cur(maniClip_GetCursorSize(&p.c)), compact(maniClip_GetCursorCompactSize(&p.c));
  std::vector<uint32_t> every(bones);
  for (uint32_t k = 0; k < bones; ++k) every[k] = k;
  uint32_t floats = maniClip_GetFloatTrackCount(&p.f);
  std::vector<float> ff(floats + 1), fc(floats + 1);
  double worst = 0;
  std::vector<double> perBone(bones, 0.0);
  for (float t : SampleAndHalfTimes(&p.f)) {
    ASSERT_EQ(maniClip_Sample(&p.f, s, t, pf.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&p.c, s, t, pc.p), mani_success);
    std::vector<double> e = ShellErrors(s, pf.p, pc.p, o.shellDistance);
    for (uint32_t bone = 0; bone < bones; ++bone) {
      ASSERT_LE(e[bone], o.precision * (1 + 1e-9)) << "bone " << bone << " time " << t;
      worst = std::max(worst, e[bone]);
      perBone[bone] = std::max(perBone[bone], e[bone]);
    }
    // Cursors (full and compact) and SampleBones: maniClip_Sample's bits.
    ASSERT_EQ(maniClipCursor_Sample(cur.c, &p.c, s, t, pk.p), mani_success);
    ASSERT_EQ(maniPose_SetRest(pb.p, s), mani_success);
    if (maniClip_GetAdditiveBasis(&p.c) != maniAdditiveNone) {
      ASSERT_EQ(maniClip_Sample(&p.c, s, 0, pb.p), mani_success);
    }
    ASSERT_EQ(maniClip_SampleBones(&p.c, s, t, every.data(), bones, pb.p), mani_success);
    for (uint32_t bone = 0; bone < bones; ++bone) {
      ASSERT_TRUE(SameBits(maniPose_GetLocal(pc.p, bone), maniPose_GetLocal(pk.p, bone))) << bone;
      ASSERT_TRUE(SameBits(maniPose_GetLocal(pc.p, bone), maniPose_GetLocal(pb.p, bone))) << bone;
    }
    ASSERT_EQ(maniClipCursor_Sample(compact.c, &p.c, s, t, pk.p), mani_success);
    for (uint32_t bone = 0; bone < bones; ++bone)
      ASSERT_TRUE(SameBits(maniPose_GetLocal(pc.p, bone), maniPose_GetLocal(pk.p, bone))) << bone;
    // Float tracks.
    uint32_t count = 0;
    ASSERT_EQ(maniClip_SampleFloats(&p.f, t, ff.data(), floats, &count), mani_success);
    ASSERT_EQ(maniClip_SampleFloats(&p.c, t, fc.data(), floats, &count), mani_success);
    for (uint32_t k = 0; k < floats; ++k)
      ASSERT_LE(std::fabs((double)ff[k] - fc[k]), o.floatPrecision * (1 + 1e-9)) << "track " << k << " time " << t;
    for (uint32_t k = 0; k < maniClip_GetDiscreteTrackCount(&p.f); ++k)
      ASSERT_EQ(maniClip_GetDiscreteValue(&p.f, k, t), maniClip_GetDiscreteValue(&p.c, k, t));
  }
  EXPECT_LE(p.report.worstError, o.precision);
  EXPECT_NEAR(p.report.worstError, worst, 1e-12 + 1e-9 * worst);
  for (uint32_t bone = 0; bone < bones; ++bone) EXPECT_NEAR(p.boneErrors[bone], perBone[bone], 1e-12 + 1e-9 * perBone[bone]);
  ASSERT_EQ(maniClip_GetEventCount(&p.c), maniClip_GetEventCount(&p.f));
  for (uint32_t k = 0; k < maniClip_GetEventCount(&p.f); ++k) {
    maniClipEvent a = maniClip_GetEvent(&p.f, k), b = maniClip_GetEvent(&p.c, k);
    EXPECT_EQ(a.time, b.time);
    ASSERT_EQ(a.nameLength, b.nameLength);
    EXPECT_EQ(memcmp(a.name, b.name, a.nameLength), 0);
  }
  EXPECT_EQ(maniClip_GetMarkerCount(&p.c), maniClip_GetMarkerCount(&p.f));
  EXPECT_EQ(maniClip_GetLoopPolicy(&p.c), maniClip_GetLoopPolicy(&p.f));
  EXPECT_EQ(maniClip_GetAdditiveBasis(&p.c), maniClip_GetAdditiveBasis(&p.f));
}

TEST(Compress, DefaultOptions) {
  maniCompressOptions o = maniDefaultCompressOptions();
  EXPECT_EQ(o.precision, 0.0001f);
  EXPECT_EQ(o.shellDistance, 0.03f);
  EXPECT_EQ(o.floatPrecision, 0.00001f);
}

TEST(Compress, WithinTheShellAtEverySampleAndHalfSample) {
  const maniCompressOptions o = maniDefaultCompressOptions();
  const uint32_t sizes[] = {1, 3, 9, 20, 47, 100};
  uint64_t seed = 100;
  double ratioSum = 0;
  int count = 0;
  for (uint32_t n : sizes) {
    Skel sk(seed * 7 + n, n);
    for (int variant = 0; variant < 4; ++variant) {
      ++seed;
      uint32_t flags = variant == 0 ? MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION
                       : variant == 1 ? MANI_FIXTURE_CLIP_ALL_BONES
                                      : MANI_FIXTURE_CLIP_TRACKS;
      maniLoopPolicy loop = variant == 2 ? maniLoopRepeat : maniLoopClamp;
      maniAdditiveBasis add = variant == 3 ? maniAdditiveRest : variant == 2 ? maniAdditiveFirstFrame : maniAdditiveNone;
      SCOPED_TRACE(testing::Message() << "bones " << n << " variant " << variant << " seed " << seed);
      Pair p = MakePair(&sk.s, seed, flags, loop, add, o);
      CheckPair(&sk.s, p, o);
      ratioSum += p.report.ratio;
      printf("bones %u variant %d: %zu -> %zu bytes, ratio %.2f, worst %.3g\n", n, variant, p.full.size,
             p.packed.size, p.report.ratio, p.report.worstError);
      ++count;
    }
  }
  printf("mean ratio %.2f\n", ratioSum / count);
}

TEST(Compress, TighterAndLooserPrecisionStillHold) {
  Skel sk(77, 30);
  for (float precision : {0.00001f, 0.001f, 0.01f}) {
    maniCompressOptions o = maniDefaultCompressOptions();
    o.precision = precision;
    o.floatPrecision = precision;
    Pair p = MakePair(&sk.s, 5150, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES, maniLoopClamp,
                      maniAdditiveNone, o);
    CheckPair(&sk.s, p, o);
  }
}

// A channel whose full-precision samples all have the same bits samples to
// those bits at every time in the compressed clip too.
TEST(Compress, FoldedChannelsExact) {
  const maniCompressOptions o = maniDefaultCompressOptions();
  Skel sk(31, 40);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Pair p = MakePair(&sk.s, seed, MANI_FIXTURE_CLIP_TRACKS, maniLoopClamp, maniAdditiveNone, o);
    ASSERT_TRUE(p.ok);
    uint32_t bones = maniSkeleton_GetBoneCount(&sk.s), n = maniClip_GetSampleCount(&p.f);
    Pose pf(&sk.s), pc(&sk.s), first(&sk.s);
    std::vector<float> times = SampleAndHalfTimes(&p.f);
    ASSERT_EQ(maniClip_Sample(&p.f, &sk.s, 0, first.p), mani_success);
    // Which channels hold still: every sample time's bits equal the first's.
    std::vector<int> still(3 * bones, 1);
    for (uint32_t k = 0; k < n; ++k) {
      ASSERT_EQ(maniClip_Sample(&p.f, &sk.s, times[2 * k], pf.p), mani_success);
      for (uint32_t bone = 0; bone < bones; ++bone) {
        maniTransform a = maniPose_GetLocal(pf.p, bone), b = maniPose_GetLocal(first.p, bone);
        if (memcmp(&a.translation, &b.translation, 12)) still[3 * bone] = 0;
        if (memcmp(&a.rotation, &b.rotation, 16)) still[3 * bone + 1] = 0;
        if (memcmp(&a.scale, &b.scale, 12)) still[3 * bone + 2] = 0;
      }
    }
    int checked = 0;
    for (float t : times) {
      ASSERT_EQ(maniClip_Sample(&p.f, &sk.s, t, pf.p), mani_success);
      ASSERT_EQ(maniClip_Sample(&p.c, &sk.s, t, pc.p), mani_success);
      for (uint32_t bone = 0; bone < bones; ++bone) {
        maniTransform a = maniPose_GetLocal(pf.p, bone), b = maniPose_GetLocal(pc.p, bone);
        if (still[3 * bone]) {
          EXPECT_EQ(memcmp(&a.translation, &b.translation, 12), 0);
          ++checked;
        }
        if (still[3 * bone + 1]) {
          EXPECT_EQ(memcmp(&a.rotation, &b.rotation, 16), 0);
          ++checked;
        }
        if (still[3 * bone + 2]) {
          EXPECT_EQ(memcmp(&a.scale, &b.scale, 12), 0);
          ++checked;
        }
      }
    }
    EXPECT_GT(checked, 0);
  }
}

TEST(Compress, SameBytesTwice) {
  const maniCompressOptions o = maniDefaultCompressOptions();
  Skel sk(5, 25);
  Pair a = MakePair(&sk.s, 9, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES, maniLoopRepeat,
                    maniAdditiveNone, o);
  Pair b = MakePair(&sk.s, 9, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES, maniLoopRepeat,
                    maniAdditiveNone, o);
  ASSERT_TRUE(a.ok && b.ok);
  ASSERT_EQ(a.packed.size, b.packed.size);
  EXPECT_EQ(memcmp(a.packed.data(), b.packed.data(), a.packed.size), 0);
  // Smaller than the source.
  EXPECT_LT(a.packed.size, a.full.size);
  EXPECT_GT(a.report.ratio, 1.0);
}

TEST(Compress, RefusalsAndMisuse) {
  const maniCompressOptions good = maniDefaultCompressOptions();
  Skel sk(12, 10), other(13, 10);
  Pair p = MakePair(&sk.s, 3, 0, maniLoopClamp, maniAdditiveNone, good);
  ASSERT_TRUE(p.ok);
  maniCompressReport r{};
  Builder b;
  EXPECT_EQ(maniCompressClip(nullptr, &p.f, &sk.s, &good, &r), mani_errorInvalid);
  uint32_t misuse = 0;
  EXPECT_EQ(maniCompressClip(b.b, nullptr, &sk.s, &good, &r), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), ++misuse);
  EXPECT_EQ(maniCompressClip(b.b, &p.f, nullptr, &good, &r), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), ++misuse);
  EXPECT_EQ(maniCompressClip(b.b, &p.f, &sk.s, nullptr, &r), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), ++misuse);
  EXPECT_EQ(maniCompressClip(b.b, &p.f, &sk.s, &good, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), ++misuse);
  const float bad[] = {0.0f, -1.0f, NAN, INFINITY, -0.0f};
  for (int field = 0; field < 3; ++field)
    for (float v : bad) {
      maniCompressOptions o = good;
      (field == 0 ? o.precision : field == 1 ? o.shellDistance : o.floatPrecision) = v;
      EXPECT_EQ(maniCompressClip(b.b, &p.f, &sk.s, &o, &r), mani_errorInvalid) << field << " " << v;
      EXPECT_EQ(maniBuilder_GetMisuse(b.b), ++misuse);
    }
  // A compressed clip, another skeleton's: refused, no misuse.
  EXPECT_EQ(maniCompressClip(b.b, &p.c, &sk.s, &good, &r), mani_errorInvalid);
  EXPECT_EQ(maniCompressClip(b.b, &p.f, &other.s, &good, &r), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), misuse);
  // Nothing was built by any of them.
  size_t size = 0;
  EXPECT_EQ(maniBuilder_CopyBuilt(b.b, nullptr, 0, &size), mani_errorInvalid);
  // A good call builds.
  EXPECT_EQ(maniCompressClip(b.b, &p.f, &sk.s, &good, &r), mani_success);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), misuse + 1);  // the CopyBuilt above with nothing built
}

// maniBuilder_MeasureClip measures a compressed clip against its source as it
// measures the full-precision one: the same times, and rotations within what
// the shell allows (1e-4 at 0.03: under 0.007 rad a bone in the model, so
// under 0.014 rad more in a local than the full-precision clip's).
TEST(Compress, MeasureClipOnCompressed) {
  const maniCompressOptions o = maniDefaultCompressOptions();
  Skel sk(61, 15);
  maniFixtureClip fx;
  maniFixtureMakeClip(&fx, 62, &sk.s, MANI_FIXTURE_CLIP_TRACKS, maniLoopClamp, maniAdditiveNone);
  size_t size = 0;
  void* bytes = maniFixtureBuildClip(&fx.source, &size);
  ASSERT_NE(bytes, nullptr);
  File full;
  full.Assign(bytes, size);
  free(bytes);
  maniClip f, c;
  ASSERT_EQ(maniOpenClip(full.data(), full.size, &f).result, mani_success);
  Builder b;
  maniCompressReport r{};
  ASSERT_EQ(maniCompressClip(b.b, &f, &sk.s, &o, &r), mani_success);
  File packed = b.Built();
  ASSERT_EQ(maniOpenClip(packed.data(), packed.size, &c).result, mani_success);
  maniClipReport mf{}, mc{};
  ASSERT_EQ(maniBuilder_MeasureClip(b.b, &fx.source, &f, &mf), mani_success);
  ASSERT_EQ(maniBuilder_MeasureClip(b.b, &fx.source, &c, &mc), mani_success);
  EXPECT_EQ(mc.timesMeasured, mf.timesMeasured);
  EXPECT_GT(mc.timesMeasured, 0u);
  EXPECT_LE(mc.maxRotation, mf.maxRotation + 0.014f);
  EXPECT_LE(mc.maxFloat, mf.maxFloat + o.floatPrecision + 1e-6f);  // within the tolerance, plus rounding
  maniFixtureFreeClip(&fx);
}

// -- Mutations ----------------------------------------------------------------------

Pair SmallPair(const maniSkeleton* s) {
  return MakePair(s, 21, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ROOT_MOTION, maniLoopClamp, maniAdditiveNone,
                  maniDefaultCompressOptions());
}

// Samples everything a clip gives (asan finds reads outside the bytes).
void SampleEverything(const maniClip* c, const maniSkeleton* s) {
  Pose pose(s);
  CursorMem cur(maniClip_GetCursorSize(c) + 64), compact(maniClip_GetCursorCompactSize(c) + 64);
  uint32_t bones = maniSkeleton_GetBoneCount(s);
  std::vector<uint32_t> every(bones);
  for (uint32_t k = 0; k < bones; ++k) every[k] = k;
  std::vector<float> floats(maniClip_GetFloatTrackCount(c) + 1);
  for (float t : {-1.0f, 0.0f, 0.1f, 0.37f, 1.0f, 2.9f, 100.0f}) {
    (void)!maniClip_Sample(c, s, t, pose.p);
    (void)!maniClip_SampleBones(c, s, t, every.data(), bones, pose.p);
    (void)!maniClipCursor_Sample(cur.c, c, s, t, pose.p);
    (void)!maniClipCursor_Sample(compact.c, c, s, t, pose.p);
    uint32_t count = 0;
    (void)!maniClip_SampleFloats(c, t, floats.data(), (uint32_t)floats.size(), &count);
  }
}

TEST(CompressedFile, EveryMutationRefused) {
  Skel sk(8, 4);
  Pair p = SmallPair(&sk.s);
  ASSERT_TRUE(p.ok);
  ExpectEveryMutationRefused(p.packed.data(), p.packed.size,
                             [](const void* b, size_t n) {
                               maniClip c;
                               return maniOpenClip(b, n, &c);
                             });
}

// Patches with the identity rewritten, so the open's own checks meet them:
// each is refused at an offset inside the file, or opens and samples within
// the bytes.
TEST(CompressedFile, RehashedPatchesRefusedOrSafe) {
  Skel sk(8, 6);
  Pair p = SmallPair(&sk.s);
  ASSERT_TRUE(p.ok);
  size_t opened = 0, refused = 0;
  for (size_t i = 64; i < p.packed.size; ++i)
    for (int patch = 0; patch < 3; ++patch) {
      File g;
      g.Assign(p.packed.data(), p.packed.size);
      uint8_t old = g.data()[i];
      uint8_t v = patch == 0 ? (uint8_t)(old + 1) : patch == 1 ? 0 : 0xFF;
      if (v == old) continue;
      g.data()[i] = v;
      uint32_t kind;
      memcpy(&kind, g.data() + 4, 4);
      uint64_t id = maniHash64(UINT64_C(0x4D41554C46494C45) ^ kind, g.data() + 64, (int64_t)(g.size - 64));
      memcpy(g.data() + 32, &id, 8);
      maniClip c;
      maniFileResult r = maniOpenClip(g.data(), g.size, &c);
      if (r.result == mani_success) {
        ++opened;
        SampleEverything(&c, &sk.s);
      } else {
        ++refused;
        ASSERT_TRUE(r.result == mani_errorFormat || r.result == mani_errorVersion) << i;
        ASSERT_LT(r.offset, g.size) << i;
      }
    }
  EXPECT_GT(refused, 0u);
  EXPECT_GT(opened, 0u);  // the packed samples' bits: any value is a value
}

TEST(CompressedFile, BytesChangedAfterTheOpenStayInside) {
  Skel sk(9, 20);
  Pair p = MakePair(&sk.s, 44, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES, maniLoopClamp,
                    maniAdditiveNone, maniDefaultCompressOptions());
  ASSERT_TRUE(p.ok);
  for (int pattern = 0; pattern < 4; ++pattern) {
    File g;
    g.Assign(p.packed.data(), p.packed.size);
    maniClip c;
    ASSERT_EQ(maniOpenClip(g.data(), g.size, &c).result, mani_success);
    uint64_t x = 88172645463325252ull + pattern;
    for (size_t i = 64; i < g.size; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      g.data()[i] = pattern == 0 ? 0xFF : pattern == 1 ? 0 : pattern == 2 ? (uint8_t)x : (uint8_t)(g.data()[i] ^ 0x80);
    }
    SampleEverything(&c, &sk.s);
  }
}

// Targeted changes after the open, in a buffer of exactly the file's size
// (asan sees a read one byte past it): rates raised (the bits a sample walks
// then exceed its entry's bits per sample), channel kinds made animated or
// constant (more tracks or constants than the info counts), segment entries
// moved past the file. Sampling reads only the bytes.
TEST(CompressedFile, TargetedChangesAfterTheOpenStayInside) {
  Skel sk(9, 20);
  Pair p = MakePair(&sk.s, 44, MANI_FIXTURE_CLIP_TRACKS | MANI_FIXTURE_CLIP_ALL_BONES, maniLoopClamp,
                    maniAdditiveNone, maniDefaultCompressOptions());
  ASSERT_TRUE(p.ok);
  const size_t n = p.packed.size;
  for (int pattern = 0; pattern < 7; ++pattern) {
    void* mem = nullptr;
    ASSERT_EQ(posix_memalign(&mem, MANI_FILE_ALIGNMENT, n), 0);
    uint8_t* bytes = static_cast<uint8_t*>(mem);
    memcpy(bytes, p.packed.data(), n);
    maniClip c;
    ASSERT_EQ(maniOpenClip(bytes, n, &c).result, mani_success);
    ASSERT_TRUE(maniClip_IsCompressed(&c));
    const uint32_t tracks = c.boneTracks + c.floatTracks;
    for (uint32_t seg = 0; seg < c.segmentCount; ++seg) {
      uint8_t* entry = bytes + c.samples + 16ull * seg;
      uint32_t offset;
      memcpy(&offset, entry, 4);
      uint8_t* rates = bytes + c.floatSamples + offset;
      if (pattern == 0 || pattern == 6) memset(rates, 15, tracks);
      if (pattern == 1) memset(rates, 14, tracks);
      if (pattern == 4) memset(entry, 0xFF, 12);
      if (pattern == 5) {
        const uint32_t near = (uint32_t)(n - c.floatSamples - 4);
        memcpy(entry, &near, 4);
      }
    }
    for (uint32_t bone = 0; bone < c.boneCount; ++bone) {
      const uint32_t animated = 7u | (0x2Au << 8), constant = 7u | (0x15u << 8);
      if (pattern == 2 || pattern == 6) memcpy(bytes + c.channels + 4ull * bone, &animated, 4);
      if (pattern == 3) memcpy(bytes + c.channels + 4ull * bone, &constant, 4);
    }
    SampleEverything(&c, &sk.s);
    free(mem);
  }
}

// A channel whose every sample lies far within the precision of a constant
// (or of the bone's rest) is stored as that constant (or as default): the
// clip compresses to as many bytes as with the channel exactly still (an
// animated track would add its rates and ranges to every segment), and
// stays within the shell.
TEST(Compress, NearConstantChannelsFoldLikeStillOnes) {
  const maniCompressOptions o = maniDefaultCompressOptions();
  Skel sk(41, 12);
  maniFixtureClip fx;
  maniFixtureMakeClip(&fx, 3, &sk.s, MANI_FIXTURE_CLIP_ALL_BONES, maniLoopClamp, maniAdditiveNone);
  const float times[2] = {0.0f, fx.source.duration};
  size_t sizes[4] = {0, 0, 0, 0};
  for (int variant = 0; variant < 4; ++variant) {
    SCOPED_TRACE(testing::Message() << "variant " << variant);
    // 0 a constant, 1 the constant and 2e-7 more, 2 the rest, 3 the rest
    // and 2e-7 more, on the translations of the odd bones.
    std::vector<maniClipSourceChannel> ch(fx.source.channels, fx.source.channels + fx.source.channelCount);
    std::vector<float> values(6 * ch.size());
    int changed = 0;
    for (size_t k = 0; k < ch.size(); ++k) {
      if (ch[k].path != maniChannelTranslation || ch[k].bone % 2 == 0) continue;
      const maniTransform rest = maniSkeleton_GetRest(&sk.s, ch[k].bone);
      const float base[3] = {variant < 2 ? 0.25f : rest.translation.x, variant < 2 ? -0.5f : rest.translation.y,
                             variant < 2 ? 1.0f : rest.translation.z};
      float* v = &values[6 * k];
      for (int c = 0; c < 3; ++c) {
        v[c] = base[c];
        v[3 + c] = variant % 2 ? base[c] + 2e-7f : base[c];
      }
      ch[k].interpolation = maniInterpolationLinear;
      ch[k].keyCount = 2;
      ch[k].times = times;
      ch[k].values = v;
      ++changed;
    }
    ASSERT_GT(changed, 0);
    maniClipSource source = fx.source;
    source.channels = ch.data();
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&source, &size);
    ASSERT_NE(bytes, nullptr);
    Pair p;
    p.full.Assign(bytes, size);
    free(bytes);
    ASSERT_EQ(maniOpenClip(p.full.data(), p.full.size, &p.f).result, mani_success);
    Builder b;
    p.boneErrors.assign(maniSkeleton_GetBoneCount(&sk.s), -1.0);
    p.report.bones = p.boneErrors.data();
    p.report.boneCapacity = (uint32_t)p.boneErrors.size();
    ASSERT_EQ(maniCompressClip(b.b, &p.f, &sk.s, &o, &p.report), mani_success);
    p.packed = b.Built();
    ASSERT_EQ(maniOpenClip(p.packed.data(), p.packed.size, &p.c).result, mani_success);
    p.ok = true;
    CheckPair(&sk.s, p, o);
    sizes[variant] = p.packed.size;
  }
  maniFixtureFreeClip(&fx);
  EXPECT_EQ(sizes[1], sizes[0]);
  EXPECT_EQ(sizes[3], sizes[2]);
}

// -- Format 11 ------------------------------------------------------------------------

// A clip of every bone turning about its own axis from a0 to a1 (radians,
// linear keys: the builder slerps) over n samples at 8 a second, its
// translations held at the rest; compressed with the default options.
Pair TurningPair(const maniSkeleton* s, uint32_t n, double a0, double a1) {
  const uint32_t bones = maniSkeleton_GetBoneCount(s);
  const float times[2] = {0.0f, (float)(n - 1) / 8.0f};
  const uint32_t keys = n > 1 ? 2u : 1u;
  std::vector<float> values(8ull * bones);
  std::vector<maniClipSourceChannel> ch(bones);
  for (uint32_t b = 0; b < bones; ++b) {
    double axis[3] = {1.0, 0.3 + 0.05 * b, -0.2};
    const double len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    for (int k = 0; k < 2; ++k) {
      const double h = (k == 0 ? a0 : a1) / 2.0 + 0.01 * b;
      float* q = &values[8ull * b + 4 * k];
      for (int c = 0; c < 3; ++c) q[c] = (float)(axis[c] / len * std::sin(h));
      q[3] = (float)std::cos(h);
    }
    ch[b] = maniClipSourceChannel{b, maniChannelRotation, maniInterpolationLinear, keys, times, &values[8ull * b]};
  }
  maniClipSource src{};
  src.skeleton = s;
  src.duration = times[1];
  src.sampleRate = 8.0f;
  src.loop = maniLoopClamp;
  src.additive = maniAdditiveNone;
  src.channels = ch.data();
  src.channelCount = bones;
  Pair p;
  size_t size = 0;
  void* bytes = maniFixtureBuildClip(&src, &size);
  EXPECT_NE(bytes, nullptr);
  if (bytes == nullptr) return p;
  p.full.Assign(bytes, size);
  free(bytes);
  EXPECT_EQ(maniOpenClip(p.full.data(), p.full.size, &p.f).result, mani_success);
  Builder b;
  p.boneErrors.assign(bones, -1.0);
  p.report.bones = p.boneErrors.data();
  p.report.boneCapacity = bones;
  const maniCompressOptions o = maniDefaultCompressOptions();
  EXPECT_EQ(maniCompressClip(b.b, &p.f, s, &o, &p.report), mani_success);
  p.packed = b.Built();
  maniFileResult r = maniOpenClip(p.packed.data(), p.packed.size, &p.c);
  EXPECT_EQ(r.result, mani_success) << "offset " << r.offset;
  p.ok = r.result == mani_success;
  return p;
}

uint32_t FileVersion(File& f) {
  uint32_t v = 0;
  memcpy(&v, f.data() + 8, 4);
  return v;
}

// The rate bytes of every segment of a compressed view (each segment entry's
// first word is its block's offset in the packed section, the block starts
// with a byte per animated track).
std::vector<uint8_t> RateBytes(const maniClip& c) {
  std::vector<uint8_t> out;
  for (uint32_t seg = 0; seg < c.segmentCount; ++seg) {
    uint32_t offset;
    memcpy(&offset, c.bytes + c.samples + 16ull * seg, 4);
    for (uint32_t t = 0; t < c.boneTracks + c.floatTracks; ++t) out.push_back(c.bytes[c.floatSamples + offset + t]);
  }
  return out;
}

TEST(CompressFormat11, TheCompressorWritesFormat11) {
  Skel sk(8, 6);
  Pair p = SmallPair(&sk.s);
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(FileVersion(p.packed), 11u);
  EXPECT_EQ(FileVersion(p.full), 3u);
}

// Rotations through w = 0 (a half turn): with w rebuilt (format 6) their
// components lose their precision near it and such segments went raw; with
// the largest component dropped instead the half turn needs no more raw
// tracks and no more bytes than the same motion about the identity (where
// w is the largest), and some of its segments drop another component.
TEST(CompressFormat11, HalfTurnsAsCheapAsTurnsNearTheIdentity) {
  Skel sk(12, 5);
  const double pi = 3.14159265358979323846;
  Pair half = TurningPair(&sk.s, 64, pi - 0.6, pi + 0.6);
  Pair near = TurningPair(&sk.s, 64, -0.6, 0.6);
  ASSERT_TRUE(half.ok);
  ASSERT_TRUE(near.ok);
  CheckPair(&sk.s, half, maniDefaultCompressOptions());
  CheckPair(&sk.s, near, maniDefaultCompressOptions());
  std::vector<uint8_t> rh = RateBytes(half.c), rn = RateBytes(near.c);
  ASSERT_EQ(rh.size(), rn.size());
  uint32_t rawHalf = 0, rawNear = 0, dropsNotW = 0, dropsNotWNear = 0;
  for (size_t i = 0; i < rh.size(); ++i) {
    rawHalf += (rh[i] & 15) == 15;
    rawNear += (rn[i] & 15) == 15;
    dropsNotW += (rh[i] & 15) != 15 && ((rh[i] >> 4) & 3) != 3;
    dropsNotWNear += (rn[i] & 15) != 15 && ((rn[i] >> 4) & 3) != 3;
  }
  EXPECT_LE(rawHalf, rawNear);
  EXPECT_GT(dropsNotW, 0u);
  EXPECT_EQ(dropsNotWNear, 0u);
  EXPECT_LE(half.packed.size, near.packed.size + 64);
  printf("half turn: %zu bytes, %u raw; near the identity: %zu bytes, %u raw\n", half.packed.size, rawHalf,
         near.packed.size, rawNear);
}

// Segments hold 16 samples; a last rest of fewer than 8 joins the segment
// before (counts by hand).
TEST(CompressFormat11, ShortLastSegmentMerged) {
  Skel sk(14, 3);
  const struct {
    uint32_t n, segments;
  } cases[] = {{1, 1}, {2, 1}, {16, 1}, {17, 1}, {23, 1}, {24, 2}, {32, 2}, {33, 2}, {39, 2}, {40, 3}, {55, 3}, {56, 4}};
  for (const auto& k : cases) {
    SCOPED_TRACE(testing::Message() << "samples " << k.n);
    Pair p = TurningPair(&sk.s, k.n, 0.2, k.n > 1 ? 1.4 : 0.2);
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(maniClip_GetSampleCount(&p.c), k.n);
    EXPECT_EQ(p.c.segmentCount, k.segments);
    CheckPair(&sk.s, p, maniDefaultCompressOptions());
  }
}

}  // namespace
