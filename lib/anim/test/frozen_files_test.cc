// Frozen files of every shipped format version (lib/anim/test/data): they
// keep opening, with the contents their source had, and other versions of
// the same bytes are refused as versions.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/clip_testing.h"
#include "lib/anim/test/fixtures/morph_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/anim/test/fixtures/skinning_fixtures.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/morph.h"
#include "maul/anim/skeleton.h"
#include "maul/anim/skinning.h"

namespace {

std::vector<uint64_t> ReadFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  EXPECT_NE(f, nullptr) << path;
  std::vector<uint64_t> words;
  *size = 0;
  if (f == nullptr) return words;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  words.assign((size_t)n / 8 + 2, 0);
  *size = fread(words.data(), 1, (size_t)n, f);
  fclose(f);
  return words;
}

// The skeleton the frozen clips were made with (make_clip_seeds): seed 4003,
// a chain of 9 bones, opened over its own built bytes.
struct FrozenClipSkeleton {
  void* file = nullptr;
  size_t size = 0;
  maniSkeleton s;
  bool ok = false;
  FrozenClipSkeleton() {
    maniSkeletonSource ss = maniFixtureMakeSkeletonSource(4003, 9, maniFixtureChain);
    file = maniFixtureBuildSkeleton(&ss, &size);
    maniFixtureFreeSkeletonSource(&ss);
    ok = file != nullptr && maniOpenSkeleton(file, size, &s).result == mani_success;
  }
  ~FrozenClipSkeleton() { free(file); }
  FrozenClipSkeleton(const FrozenClipSkeleton&) = delete;
  FrozenClipSkeleton& operator=(const FrozenClipSkeleton&) = delete;
};

TEST(FrozenFiles, SkeletonFormat1Opens) {
  size_t size = 0;
  std::vector<uint64_t> file = ReadFile("lib/anim/test/data/skeleton-format1.maul", &size);
  ASSERT_GT(size, 0u);
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(file.data(), size, &s).result, mani_success);
  // Its contents are its source's.
  maniSkeletonSource src = maniFixtureMakeSkeletonSource(1000 + 3 * 10 + 3, 17, maniFixtureForest);
  ASSERT_EQ(maniSkeleton_GetBoneCount(&s), src.boneCount);
  for (uint32_t i = 0; i < src.boneCount; ++i) {
    const maniSkeletonSourceBone& b = src.bones[i];
    uint32_t at = maniSkeleton_FindBone(&s, b.name, b.nameLength);
    ASSERT_NE(at, MANI_NO_BONE) << std::string(b.name, b.nameLength);
    maniTransform rest = maniSkeleton_GetRest(&s, at);
    EXPECT_EQ(memcmp(&rest.translation, &b.rest.translation, sizeof rest.translation), 0);
    if (b.parent != MANI_NO_BONE) {
      const maniSkeletonSourceBone& p = src.bones[b.parent];
      EXPECT_EQ(maniSkeleton_GetParent(&s, at), maniSkeleton_FindBone(&s, p.name, p.nameLength));
    } else {
      EXPECT_EQ(maniSkeleton_GetParent(&s, at), MANI_NO_BONE);
    }
  }
  // While format 1 is the one the builder writes, it writes these bytes.
  size_t builtSize = 0;
  void* built = maniFixtureBuildSkeleton(&src, &builtSize);
  ASSERT_NE(built, nullptr);
  EXPECT_EQ(builtSize, size);
  EXPECT_EQ(memcmp(built, file.data(), size), 0);
  free(built);
  maniFixtureFreeSkeletonSource(&src);
  // The same bytes stamped with any other version are refused as versions.
  for (uint32_t v : {0u, 2u, 100u}) {
    std::vector<uint64_t> other = file;
    memcpy((uint8_t*)other.data() + 8, &v, 4);
    maniFileResult r = maniOpenSkeleton(other.data(), size, &s);
    EXPECT_EQ(r.result, mani_errorVersion) << v;
    EXPECT_EQ(r.offset, 8u);
  }
}

TEST(FrozenFiles, ClipFormat3Opens) {
  size_t size = 0;
  std::vector<uint64_t> file = ReadFile("lib/anim/test/data/clip-format3.maul", &size);
  ASSERT_GT(size, 0u);
  maniClip c;
  ASSERT_EQ(maniOpenClip(file.data(), size, &c).result, mani_success);
  // Its source, as make_clip_seeds made it.
  FrozenClipSkeleton skel;
  ASSERT_TRUE(skel.ok);
  const maniSkeleton& sk = skel.s;
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, 5003, &sk, MANI_FIXTURE_CLIP_TRACKS, maniLoopRepeat, maniAdditiveNone);
  fc.source.duration = 0.5f;
  fc.source.sampleRate = 10.0f;
  for (uint32_t k = 0; k < fc.source.eventCount; ++k) const_cast<maniClipSourceEvent*>(fc.source.events)[k].time *= 0.2f;
  for (uint32_t k = 0; k < fc.source.markerCount; ++k) const_cast<maniClipSourceEvent*>(fc.source.markers)[k].time *= 0.2f;
  for (uint32_t k = 0; k < fc.source.discreteTrackCount; ++k) {
    auto* d = const_cast<maniClipSourceDiscreteTrack*>(&fc.source.discreteTracks[k]);
    d->keyCount = 1;
    const_cast<float*>(d->times)[0] = 0.25f;
  }
  EXPECT_EQ(maniClip_GetSkeletonIdentity(&c), maniSkeleton_GetIdentity(&sk));
  EXPECT_EQ(maniClip_GetSampleCount(&c), 6u);
  EXPECT_EQ(maniClip_GetDuration(&c), 0.5f);
  EXPECT_EQ(maniClip_GetLoopPolicy(&c), maniLoopRepeat);
  EXPECT_EQ(maniClip_GetFloatTrackCount(&c), fc.source.floatTrackCount);
  for (uint32_t k = 0; k < fc.source.floatTrackCount; ++k)
    EXPECT_EQ(maniClip_FindFloatTrack(&c, fc.source.floatTracks[k].name, fc.source.floatTracks[k].nameLength), k);
  EXPECT_EQ(maniClip_GetEventCount(&c), fc.source.eventCount);
  // While format 3 is the one the builder writes, it writes these bytes.
  size_t builtSize = 0;
  void* built = maniFixtureBuildClip(&fc.source, &builtSize);
  ASSERT_NE(built, nullptr);
  EXPECT_EQ(builtSize, size);
  EXPECT_EQ(memcmp(built, file.data(), size), 0);
  free(built);
  maniFixtureFreeClip(&fc);
  // Any other version of the same bytes is a version refusal.
  for (uint32_t v : {0u, 1u, 2u, 4u, 100u}) {
    std::vector<uint64_t> other = file;
    memcpy((uint8_t*)other.data() + 8, &v, 4);
    maniFileResult r = maniOpenClip(other.data(), size, &c);
    EXPECT_EQ(r.result, mani_errorVersion) << v;
    EXPECT_EQ(r.offset, 8u);
  }
}

TEST(FrozenFiles, CompressedClipFormat6Opens) {
  size_t size = 0, fullSize = 0;
  std::vector<uint64_t> file = ReadFile("lib/anim/test/data/clip-format6.maul", &size);
  std::vector<uint64_t> full = ReadFile("lib/anim/test/data/clip-format3.maul", &fullSize);
  ASSERT_GT(size, 0u);
  maniClip c, f;
  ASSERT_EQ(maniOpenClip(file.data(), size, &c).result, mani_success);
  ASSERT_EQ(maniOpenClip(full.data(), fullSize, &f).result, mani_success);
  EXPECT_TRUE(maniClip_IsCompressed(&c));
  EXPECT_EQ(maniClip_GetSkeletonIdentity(&c), maniClip_GetSkeletonIdentity(&f));
  EXPECT_EQ(maniClip_GetSampleCount(&c), 6u);
  EXPECT_EQ(maniClip_GetDuration(&c), 0.5f);
  EXPECT_EQ(maniClip_GetFloatTrackCount(&c), maniClip_GetFloatTrackCount(&f));
  EXPECT_EQ(maniClip_GetEventCount(&c), maniClip_GetEventCount(&f));
  // maniCompressClip wrote these bytes from the frozen format 3 clip (its
  // skeleton as ClipFormat3Opens makes it) until its search changed
  // (docs/CHANGES.md, 2026-12-01, the compression golden); what it writes
  // from that clip now is format 6 too: it opens, compressed, with the same
  // counts as this file. The frozen file's contents stay its source's: within
  // the default options' shell of the format 3 clip at every sample and half
  // sample.
  FrozenClipSkeleton skel;
  ASSERT_TRUE(skel.ok);
  const maniSkeleton& sk = skel.s;
  {
    const maniCompressOptions o = maniDefaultCompressOptions();
    Pose pf(&sk), pc(&sk);
    for (float t : SampleAndHalfTimes(&f)) {
      ASSERT_EQ(maniClip_Sample(&f, &sk, t, pf.p), mani_success);
      ASSERT_EQ(maniClip_Sample(&c, &sk, t, pc.p), mani_success);
      std::vector<double> e = ShellErrors(&sk, pf.p, pc.p, o.shellDistance);
      for (size_t bone = 0; bone < e.size(); ++bone) EXPECT_LE(e[bone], o.precision * (1 + 1e-9)) << bone << " " << t;
    }
  }
  maniBuilderDef def = maniDefaultBuilderDef();
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  const maniCompressOptions o = maniDefaultCompressOptions();
  maniCompressReport r{};
  ASSERT_EQ(maniCompressClip(b, &f, &sk, &o, &r), mani_success);
  std::vector<uint64_t> built(size / 8 + 2, 0);
  size_t builtSize = 0;
  ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &builtSize), mani_errorCapacity);
  built.assign(builtSize / 8 + 2, 0);
  EXPECT_EQ(maniBuilder_CopyBuilt(b, built.data(), builtSize, &builtSize), mani_success);
  maniClip now;
  ASSERT_EQ(maniOpenClip(built.data(), builtSize, &now).result, mani_success);
  EXPECT_TRUE(maniClip_IsCompressed(&now));
  EXPECT_EQ(maniClip_GetSampleCount(&now), maniClip_GetSampleCount(&c));
  EXPECT_EQ(maniClip_GetFloatTrackCount(&now), maniClip_GetFloatTrackCount(&c));
  EXPECT_EQ(maniClip_GetEventCount(&now), maniClip_GetEventCount(&c));
  maniDestroyBuilder(b);
  // Any other version of the same bytes is a version refusal.
  for (uint32_t v : {0u, 1u, 2u, 4u, 5u, 7u, 100u}) {
    std::vector<uint64_t> other = file;
    memcpy((uint8_t*)other.data() + 8, &v, 4);
    maniFileResult res = maniOpenClip(other.data(), size, &c);
    EXPECT_EQ(res.result, mani_errorVersion) << v;
    EXPECT_EQ(res.offset, 8u);
  }
}


TEST(FrozenFiles, CompressedClipFormat11Opens) {
  size_t size = 0, fullSize = 0;
  std::vector<uint64_t> file = ReadFile("lib/anim/test/data/clip-format11.maul", &size);
  std::vector<uint64_t> full = ReadFile("lib/anim/test/data/clip-format3.maul", &fullSize);
  ASSERT_GT(size, 0u);
  uint32_t version = 0;
  memcpy(&version, (const uint8_t*)file.data() + 8, 4);
  EXPECT_EQ(version, 11u);
  maniClip c, f;
  ASSERT_EQ(maniOpenClip(file.data(), size, &c).result, mani_success);
  ASSERT_EQ(maniOpenClip(full.data(), fullSize, &f).result, mani_success);
  EXPECT_TRUE(maniClip_IsCompressed(&c));
  EXPECT_EQ(maniClip_GetSkeletonIdentity(&c), maniClip_GetSkeletonIdentity(&f));
  EXPECT_EQ(maniClip_GetSampleCount(&c), 6u);
  EXPECT_EQ(maniClip_GetDuration(&c), 0.5f);
  EXPECT_EQ(maniClip_GetFloatTrackCount(&c), maniClip_GetFloatTrackCount(&f));
  EXPECT_EQ(maniClip_GetEventCount(&c), maniClip_GetEventCount(&f));
  // Its contents are its source's: within the default options' shell of the
  // format 3 clip at every sample and half sample, as the compressor that
  // wrote it measured (binary64 composition of the locals; docs/CHANGES.md:
  // the precision is now promised on the runtime's binary32 model matrices,
  // where this file's worst bone is 1.03x it); a cursor samples it as
  // maniClip_Sample does.
  FrozenClipSkeleton skel;
  ASSERT_TRUE(skel.ok);
  const maniSkeleton& sk = skel.s;
  const maniCompressOptions o = maniDefaultCompressOptions();
  {
    Pose pf(&sk), pc(&sk), pk(&sk);
    CursorMem cur(maniClip_GetCursorSize(&c));
    double worstRuntime = 0;  // the same samples on the runtime's model matrices
    for (float t : SampleAndHalfTimes(&f)) {
      ASSERT_EQ(maniClip_Sample(&f, &sk, t, pf.p), mani_success);
      ASSERT_EQ(maniClip_Sample(&c, &sk, t, pc.p), mani_success);
      ASSERT_EQ(maniClipCursor_Sample(cur.c, &c, &sk, t, pk.p), mani_success);
      for (double r : ShellErrors(&sk, pf.p, pc.p, o.shellDistance)) worstRuntime = std::max(worstRuntime, r);
      std::vector<double> e = ShellErrors64(&sk, pf.p, pc.p, o.shellDistance);
      for (size_t bone = 0; bone < e.size(); ++bone) {
        EXPECT_LE(e[bone], o.precision * (1 + 1e-9)) << bone << " " << t;
        maniTransform a = maniPose_GetLocal(pc.p, (uint32_t)bone), b = maniPose_GetLocal(pk.p, (uint32_t)bone);
        EXPECT_EQ(memcmp(&a, &b, sizeof a), 0) << bone << " " << t;
      }
    }
    // The defect the runtime measure fixes: bounded in binary64, this file
    // passes the precision on the runtime's poses (the compressor below no
    // longer does).
    EXPECT_GT(worstRuntime, (double)o.precision);
  }
  // maniCompressClip writes format 11 from the frozen format 3 clip, within
  // the precision on the runtime's model matrices at every sample and half
  // sample (no longer these bytes: the measure changed after they were
  // frozen, docs/CHANGES.md).
  maniBuilderDef def = maniDefaultBuilderDef();
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  maniCompressReport r{};
  ASSERT_EQ(maniCompressClip(b, &f, &sk, &o, &r), mani_success);
  size_t builtSize = 0;
  ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &builtSize), mani_errorCapacity);
  std::vector<uint64_t> built(builtSize / 8 + 2, 0);
  EXPECT_EQ(maniBuilder_CopyBuilt(b, built.data(), builtSize, &builtSize), mani_success);
  maniDestroyBuilder(b);
  {
    uint32_t builtVersion = 0;
    memcpy(&builtVersion, (const uint8_t*)built.data() + 8, 4);
    EXPECT_EQ(builtVersion, 11u);
    maniClip fresh;
    ASSERT_EQ(maniOpenClip(built.data(), builtSize, &fresh).result, mani_success);
    Pose pf(&sk), pc(&sk);
    double worst = 0;
    for (float t : SampleAndHalfTimes(&f)) {
      ASSERT_EQ(maniClip_Sample(&f, &sk, t, pf.p), mani_success);
      ASSERT_EQ(maniClip_Sample(&fresh, &sk, t, pc.p), mani_success);
      for (double e : ShellErrors(&sk, pf.p, pc.p, o.shellDistance)) worst = std::max(worst, e);
    }
    EXPECT_LE(worst, (double)o.precision);
    EXPECT_NEAR(r.worstError, worst, 1e-12 + 1e-9 * worst);
  }
  // Any other version of the same bytes is a version refusal (its tags are
  // format 11's).
  for (uint32_t v : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 100u}) {
    std::vector<uint64_t> other = file;
    memcpy((uint8_t*)other.data() + 8, &v, 4);
    maniFileResult res = maniOpenClip(other.data(), size, &c);
    EXPECT_EQ(res.result, mani_errorVersion) << v;
  }
}

TEST(FrozenFiles, InfluencesFormat4Opens) {
  size_t size = 0;
  std::vector<uint64_t> file = ReadFile("lib/anim/test/data/influences-format4.maul", &size);
  ASSERT_GT(size, 0u);
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(file.data(), size, &inf).result, mani_success);
  maniFixtureSkinnedMesh m;
  ASSERT_EQ(maniFixtureMakeSkinnedMesh(4001, 7, 4, 1, &m), 1);
  // Its contents are its source's: every vertex's weighted joints, its blend
  // weight, a center for every vertex, bound to the fixture's skin.
  EXPECT_TRUE(maniInfluences_IsSkinFit(&inf, &m.skin));
  ASSERT_EQ(maniInfluences_GetVertexCount(&inf), 7u);
  for (uint32_t v = 0; v < 7; ++v) {
    for (uint32_t k = 0; k < maniInfluences_GetPerVertex(&inf); ++k) {
      float w;
      uint32_t j = maniInfluences_GetInfluence(&inf, v, k, &w);
      if (w == 0.0f) continue;
      bool found = false;
      for (uint32_t i = m.offsets[v]; i < m.offsets[v + 1]; ++i) found |= m.joints[i] == j && m.weights[i] != 0.0f;
      EXPECT_TRUE(found) << v << " " << k;
    }
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, v), m.blend[v]);
    maniVec3 c;
    EXPECT_TRUE(maniInfluences_GetCenter(&inf, v, &c));
  }
  // While format 4 is the one the builder writes, it writes these bytes.
  ASSERT_EQ(m.influencesSize, size);
  EXPECT_EQ(memcmp(m.influencesFile, file.data(), size), 0);
  maniFixtureFreeSkinnedMesh(&m);
  for (uint32_t v : {0u, 2u, 3u, 5u, 100u}) {
    std::vector<uint64_t> other = file;
    memcpy((uint8_t*)other.data() + 8, &v, 4);
    maniFileResult r = maniOpenInfluences(other.data(), size, &inf);
    EXPECT_EQ(r.result, mani_errorVersion) << v;
    EXPECT_EQ(r.offset, 8u);
  }
}

TEST(FrozenFiles, MorphTargetsFormat5Opens) {
  size_t size = 0;
  std::vector<uint64_t> file = ReadFile("lib/anim/test/data/morph-format5.maul", &size);
  ASSERT_GT(size, 0u);
  maniMorphTargets m;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), size, &m).result, mani_success);
  // Its contents are its source's (fuzz/seeds/make_morph_seeds.c).
  maniFixtureMorph fx;
  ASSERT_TRUE(maniFixtureMakeMorph(&fx, 5005, 23, 5, maniFixtureMorphMixed));
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&m), 23u);
  ASSERT_EQ(maniMorphTargets_GetChannelCount(&m), 5u);
  EXPECT_EQ(maniMorphTargets_GetAttributeCount(&m), 5u);
  uint32_t t = 0;
  for (uint32_t c = 0; c < 5; ++c) {
    const maniMorphSourceChannel& ch = fx.channels[c];
    EXPECT_EQ(maniMorphTargets_FindChannel(&m, ch.name, ch.nameLength), c);
    uint32_t first = 0;
    ASSERT_EQ(maniMorphTargets_GetChannelTargets(&m, c, &first), ch.targetCount);
    EXPECT_EQ(first, t);
    for (uint32_t k = 0; k < ch.targetCount; ++k, ++t)
      EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&m, t), ch.targets[k].fullWeight);
  }
  EXPECT_EQ(maniMorphTargets_GetTargetCount(&m), t);
  // While format 5 is the one the builder writes, it writes these bytes.
  size_t builtSize = 0;
  void* built = maniFixtureBuildMorph(&fx.source, &builtSize);
  ASSERT_NE(built, nullptr);
  EXPECT_EQ(builtSize, size);
  EXPECT_EQ(memcmp(built, file.data(), size), 0);
  free(built);
  maniFixtureFreeMorph(&fx);
  for (uint32_t v : {0u, 1u, 2u, 4u, 6u, 100u}) {
    std::vector<uint64_t> other = file;
    memcpy((uint8_t*)other.data() + 8, &v, 4);
    maniFileResult r = maniOpenMorphTargets(other.data(), size, &m);
    EXPECT_EQ(r.result, mani_errorVersion) << v;
    EXPECT_EQ(r.offset, 8u);
  }
}

}  // namespace
