// Motion databases (match.h, matchbuild.h) and trajectories (trajectory.h):
// the build's refusals and normalization, the open's checks (every mutation,
// and a tree, box, lowest frame or least bias patched with the identity
// made good), the search against a brute force written in match_test.h,
// and Holden's springs (one advance against many shorter ones).
#include "lib/anim/test/match_test.h"

#include <cstring>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/core/container.h"
#include "maul/anim/matchbuild.h"
#include "maul/anim/trajectory.h"

namespace {

// A small source of the test's own: a seeded skeleton and clips, Holden-like
// channels, for the build's refusals.
struct Source {
  Skel skel{41, 12};
  std::vector<File> clipFiles;
  std::vector<maniClip> clips;
  std::vector<maniMatchChannelSource> channels;
  std::vector<maniMatchEntrySource> entries;
  float now[1] = {0.0f};
  float future[2] = {0.5f, 1.0f};
  maniMotionDatabaseSource src{};
  Source() {
    for (uint32_t i = 0; i < 3; ++i) {
      maniFixtureClip fc;
      maniFixtureMakeClip(&fc, 900 + i, &skel.s, MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_TRACKS,
                          i == 0 ? maniLoopRepeat : maniLoopClamp, maniAdditiveNone);
      size_t size = 0;
      void* bytes = maniFixtureBuildClip(&fc.source, &size);
      maniFixtureFreeClip(&fc);
      EXPECT_NE(bytes, nullptr);
      File f;
      f.Assign(bytes, size);
      free(bytes);
      clipFiles.push_back(f);
    }
    clips.resize(3);
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(maniOpenClip(clipFiles[i].data(), clipFiles[i].size, &clips[i]).result, mani_success);
    channels.push_back({maniMatchChannelBonePosition, 11, now, 1, 1.0f, nullptr, 0});
    channels.push_back({maniMatchChannelBoneVelocity, 6, now, 1, 1.0f, nullptr, 0});
    channels.push_back({maniMatchChannelTrajectoryPosition, 0, future, 2, 1.0f, nullptr, 0});
    channels.push_back({maniMatchChannelTrajectoryFacing, 0, future, 2, 1.0f, nullptr, 0});
    channels.push_back({maniMatchChannelFloatTrack, 0, now, 1, 1.0f, "curve-0", 7});
    for (uint32_t i = 0; i < 3; ++i) {
      const float d = maniClip_GetDuration(&clips[i]);
      entries.push_back({i, i == 0 ? maniMatchEntryLoop : 0u, 0.0f, d, 1u << i, 0.0f});
    }
    Refresh();
  }
  void Refresh() {
    src.skeleton = &skel.s;
    src.clips = clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.channels = channels.data();
    src.channelCount = (uint32_t)channels.size();
    src.entries = entries.data();
    src.entryCount = (uint32_t)entries.size();
    src.rate = 30.0f;
    src.upAxis = 1;
    src.forwardAxis = 2;
    src.leafSize = 4;
    src.mirror = nullptr;
  }
};

void ExpectRefused(Builder& b, const maniMotionDatabaseSource& s, maniResult r, uint32_t reason, uint64_t item,
                   uint64_t other = 0) {
  maniBuildResult got = maniBuildMotionDatabase(b.b, &s);
  EXPECT_EQ(got.result, r);
  EXPECT_EQ(got.reason, reason);
  EXPECT_EQ(got.item, item);
  EXPECT_EQ(got.other, other);
}

TEST(MatchBuild, BuildsAndReadsBack) {
  Source s;
  Builder b;
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  EXPECT_EQ(maniMotionDatabase_GetSkeletonIdentity(&d), maniSkeleton_GetIdentity(&s.skel.s));
  EXPECT_EQ(maniMotionDatabase_GetMirrorMapIdentity(&d), 0u);
  EXPECT_NE(maniMotionDatabase_GetIdentity(&d), 0u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(maniMotionDatabase_GetClipIdentity(&d, i), maniClip_GetIdentity(&s.clips[i]));
  EXPECT_EQ(maniMotionDatabase_GetClipIdentity(&d, 3), 0u);
  EXPECT_EQ(d.featureCount, 3u + 3u + 4u + 4u + 1u);
  // Entries: floor((end - start) rate) + 1 frames each, in order.
  uint32_t frames = 0;
  for (uint32_t i = 0; i < 3; ++i) {
    maniMatchEntry e;
    ASSERT_EQ(maniMotionDatabase_GetEntry(&d, i, &e), mani_success);
    EXPECT_EQ(e.firstFrame, frames);
    EXPECT_EQ(e.frameCount, (uint32_t)std::floor(((double)e.end - e.start) * 30.0) + 1);
    EXPECT_EQ(e.tags, 1u << i);
    frames += e.frameCount;
    uint32_t entry = 9;
    float t = -1;
    ASSERT_EQ(maniMotionDatabase_GetFrame(&d, e.firstFrame + 1, &entry, &t), mani_success);
    EXPECT_EQ(entry, i);
    EXPECT_FLOAT_EQ(t, 1.0f / 30.0f);
  }
  EXPECT_EQ(d.frameCount, frames);
  maniMatchChannel c;
  ASSERT_EQ(maniMotionDatabase_GetChannel(&d, 3, &c), mani_success);
  EXPECT_EQ(c.kind, (uint32_t)maniMatchChannelTrajectoryFacing);
  EXPECT_EQ(c.firstFeature, 10u);
  EXPECT_EQ(c.featureCount, 4u);
  EXPECT_EQ(c.times[1], 1.0f);
  EXPECT_EQ(c.times[2], 0.0f);
  size_t length = 0;
  const char* name = maniMotionDatabase_GetChannelName(&d, 4, &length);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name, length), "curve-0");
  EXPECT_EQ(maniMotionDatabase_GetChannelName(&d, 0, &length), nullptr);
  EXPECT_EQ(maniMotionDatabase_GetChannelName(&d, 5, &length), nullptr);
  EXPECT_EQ(maniMotionDatabase_GetChannel(&d, 5, &c), mani_errorInvalid);
  maniMatchEntry e;
  EXPECT_EQ(maniMotionDatabase_GetEntry(&d, 3, &e), mani_errorInvalid);
  uint32_t entry = 0;
  float t = 0;
  EXPECT_EQ(maniMotionDatabase_GetFrame(&d, frames, &entry, &t), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_GetFrame(nullptr, 0, &entry, &t), mani_errorInvalid);

  // Holden's normalization, checked from its definition: per feature the
  // normalized values' mean is 0 and, per channel, the mean of their
  // standard deviations is the channel's weight.
  const uint32_t F = d.featureCount;
  std::vector<double> mean(F, 0), var(F, 0);
  std::vector<float> x(F);
  for (uint32_t i = 0; i < frames; ++i) {
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, i, x.data(), F, nullptr), mani_success);
    for (uint32_t j = 0; j < F; ++j) mean[j] += x[j] / (double)frames;
  }
  for (uint32_t i = 0; i < frames; ++i) {
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, i, x.data(), F, nullptr), mani_success);
    for (uint32_t j = 0; j < F; ++j) var[j] += (x[j] - mean[j]) * (x[j] - mean[j]) / frames;
  }
  for (uint32_t j = 0; j < F; ++j) EXPECT_NEAR(mean[j], 0.0, 1e-4) << j;
  for (uint32_t ch = 0; ch < 5; ++ch) {
    ASSERT_EQ(maniMotionDatabase_GetChannel(&d, ch, &c), mani_success);
    double stdMean = 0;
    for (uint32_t j = c.firstFeature; j < c.firstFeature + c.featureCount; ++j) stdMean += std::sqrt(var[j]) / c.featureCount;
    EXPECT_NEAR(stdMean, c.weight, 1e-4) << ch;
  }
  // Measuring and capacity.
  uint32_t count = 0;
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, 0, nullptr, 0, &count), mani_errorCapacity);
  EXPECT_EQ(count, F);
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, 0, nullptr, 3, &count), mani_errorInvalid);
  std::vector<float> small(F - 1, 7.0f);
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, 0, small.data(), F - 1, &count), mani_errorCapacity);
  EXPECT_EQ(small[0], 7.0f);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, nullptr, nullptr, 0, &count), mani_errorCapacity);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, nullptr, nullptr, 5, &count), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, small.data(), nullptr, F - 1, &count), mani_errorCapacity);
  EXPECT_EQ(small[0], 7.0f);
  std::vector<float> scales(F);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, nullptr, scales.data(), F, &count), mani_success);
  for (float v : scales) EXPECT_GT(v, 0.0f);
  // A zeroed view reads as empty.
  maniMotionDatabase zero{};
  EXPECT_EQ(maniMotionDatabase_GetIdentity(&zero), 0u);
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&zero, 0, nullptr, 0, &count), mani_errorInvalid);
}

TEST(MatchBuild, RefusesEachReason) {
  Builder b;
  {
    Source s;
    s.src.rate = 0;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonTiming, 0);
    s.src.rate = 241;
    ExpectRefused(b, s.src, mani_errorLimit, maniBuildReasonTiming, 0);
  }
  {
    Source s;
    s.src.upAxis = 2;
    s.src.forwardAxis = 2;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonOption, 0);
    s.src.forwardAxis = 0;
    s.src.leafSize = 0;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonOption, 0);
    s.src.leafSize = 257;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonOption, 0);
  }
  {
    Source s;
    s.src.channelCount = 0;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonCount, 0);
    s.Refresh();
    s.src.entryCount = 0;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonCount, 0);
    s.Refresh();
    s.src.clipCount = 0;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonCount, 0);
    s.Refresh();
    s.src.channelCount = MANI_MAX_MATCH_CHANNELS + 1;
    ExpectRefused(b, s.src, mani_errorLimit, maniBuildReasonCount, 0);
    s.Refresh();
    s.src.entryCount = MANI_MAX_MATCH_ENTRIES + 1;
    ExpectRefused(b, s.src, mani_errorLimit, maniBuildReasonCount, 0);
    s.Refresh();
    s.src.clipCount = MANI_MAX_MATCH_CLIPS + 1;
    ExpectRefused(b, s.src, mani_errorLimit, maniBuildReasonCount, 0);
  }
  {
    // Features past the bound: 16 times of 3 values in 6 channels.
    Source s;
    static float many[16];
    for (int k = 0; k < 16; ++k) many[k] = 0.1f * k;
    s.channels.assign(6, {maniMatchChannelBonePosition, 3, many, 16, 1.0f, nullptr, 0});
    s.Refresh();
    ExpectRefused(b, s.src, mani_errorLimit, maniBuildReasonCount, 0);
    // Frames past the bound: many long entries.
    Source t;
    t.entries.assign(60000, t.entries[1]);
    t.src.rate = 240;
    t.Refresh();
    t.src.rate = 240;
    ExpectRefused(b, t.src, mani_errorLimit, maniBuildReasonCount, 0);
  }
  {
    Source s;
    Skel other(77, 12);
    File clipFile;
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 5, &other.s, 0, maniLoopClamp, maniAdditiveNone);
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&fc.source, &size);
    maniFixtureFreeClip(&fc);
    clipFile.Assign(bytes, size);
    free(bytes);
    ASSERT_EQ(maniOpenClip(clipFile.data(), clipFile.size, &s.clips[1]).result, mani_success);
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonJoint, 1);
    maniFixtureMakeClip(&fc, 6, &s.skel.s, 0, maniLoopClamp, maniAdditiveRest);
    bytes = maniFixtureBuildClip(&fc.source, &size);
    maniFixtureFreeClip(&fc);
    clipFile.Assign(bytes, size);
    free(bytes);
    ASSERT_EQ(maniOpenClip(clipFile.data(), clipFile.size, &s.clips[2]).result, mani_success);
    s.clips[1] = s.clips[0];
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonJoint, 2);
  }
  {
    Source s;
    s.channels[2].kind = 9;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 2);
    s.channels[2].kind = maniMatchChannelTrajectoryPosition;
    s.channels[0].bone = 12;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 0);
    s.channels[0].bone = 11;
    s.channels[1].weight = 0;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 1);
    s.channels[1].weight = NAN;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 1);
    s.channels[1].weight = 1;
    s.channels[3].timeCount = 0;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 3);
    s.channels[3].timeCount = MANI_MAX_MATCH_TIMES + 1;
    ExpectRefused(b, s.src, mani_errorLimit, maniBuildReasonChannel, 3);
    s.channels[3].timeCount = 2;
    float far[1] = {10.5f};
    s.channels[0].times = far;
    ExpectRefused(b, s.src, mani_errorLimit, maniBuildReasonChannel, 0);
    far[0] = NAN;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 0);
    s.channels[0].times = s.now;
    s.channels[4].trackLength = 0;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 4);
    s.channels[4].track = "\xff";
    s.channels[4].trackLength = 1;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 4);
    std::string longName(256, 'a');
    s.channels[4].track = longName.c_str();
    s.channels[4].trackLength = 256;
    ExpectRefused(b, s.src, mani_errorLimit, maniBuildReasonChannel, 4);
    s.channels[4].track = "no-such";
    s.channels[4].trackLength = 7;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonMissingTrack, 4, 0);
  }
  {
    Source s;
    s.entries[1].clip = 3;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 1);
    s.entries[1].clip = 1;
    s.entries[1].flags = 8;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 1);
    s.entries[1].flags = 0;
    s.entries[1].start = 0.5f;
    s.entries[1].end = 0.25f;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 1);
    s.entries[1].end = maniClip_GetDuration(&s.clips[1]) + 0.5f;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 1);
    s.entries[1].end = 0.75f;
    s.entries[1].costBias = INFINITY;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 1);
    s.entries[1].costBias = 0;
    s.entries[1].flags = maniMatchEntryLoop;  // a clamped clip
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 1);
    s.entries[1].flags = 0;
    s.entries[0].end = maniClip_GetDuration(&s.clips[0]) * 0.5f;  // a loop over less than its clip
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 0);
    s.entries[0].end = maniClip_GetDuration(&s.clips[0]);
    s.entries[2].flags = maniMatchEntryMirrored;
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonMirrorDatabase, 2);
  }
  {
    // A channel that never varies: the facing of one clip entry of one
    // frame.
    Source s;
    s.entries.assign(1, {1, 0u, 0.0f, 0.0f, 0, 0.0f});
    s.Refresh();
    ExpectRefused(b, s.src, mani_errorInvalid, maniBuildReasonSpread, 0);
  }
  // NULLs: a misuse.
  EXPECT_EQ(maniBuildMotionDatabase(nullptr, nullptr).result, mani_errorInvalid);
  const uint32_t misuse = maniBuilder_GetMisuse(b.b);
  EXPECT_EQ(maniBuildMotionDatabase(b.b, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), misuse + 1);
}

TEST(MatchBuild, KeepsTheFileOnAFailedBuild) {
  Source s;
  Builder b;
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File before = b.Built();
  s.src.rate = 0;
  EXPECT_NE(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File after = b.Built();
  ASSERT_EQ(before.size, after.size);
  EXPECT_EQ(memcmp(before.data(), after.data(), before.size), 0);
}

// Rewrites a file's identity after a patch, so the open's own checks (not
// the identity) must find it.
void Rehash(File& f) {
  const uint32_t kind = mcore_kindMotionDatabase;
  const uint64_t id = maniHash64(MCORE_IDENTITY_SEED ^ kind, f.data() + 64, (int64_t)f.size - 64);
  mcore_WriteU64(f.data() + 32, id);
}

TEST(MatchOpen, EveryMutationRefused) {
  Db db(3, 2, 1, 8.0f, 2);
  ExpectEveryMutationRefused(db.file.data(), db.file.size, [](const void* p, size_t n) {
    maniMotionDatabase d;
    return maniOpenMotionDatabase(p, n, &d);
  });
}

TEST(MatchOpen, TreeBoxesAndOrderChecked) {
  Db db(4, 3, 2, 20.0f, 3);
  const maniMotionDatabase& d = db.d;
  ASSERT_GT(d.nodeCount, 3u);
  Rehash(db.file);
  maniMotionDatabase v;
  ASSERT_EQ(maniOpenMotionDatabase(db.file.data(), db.file.size, &v).result, mani_success);
  auto patched = [&](uint64_t at, uint32_t value) {
    File g;
    g.Assign(db.file.data(), db.file.size);
    mcore_WriteU32(g.data() + at, value);
    Rehash(g);
    maniMotionDatabase out{};
    maniFileResult r = maniOpenMotionDatabase(g.data(), g.size, &out);
    EXPECT_EQ(out.opened, 0u);
    return r;
  };
  // Two frames swapped between the first and the last leaf: a frame placed
  // twice is found by the splits or the leaf order.
  const uint32_t first = mcore_ReadU32(db.file.data() + d.order);
  const uint32_t last = mcore_ReadU32(db.file.data() + d.order + 4ull * (d.frameCount - 1));
  maniFileResult r = patched(d.order, last);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_GE(r.offset, d.order);
  EXPECT_LT(r.offset, d.order + 4ull * d.frameCount);
  (void)first;
  // A frame past the frames.
  r = patched(d.order + 4, d.frameCount);
  EXPECT_EQ(r.result, mani_errorFormat);
  // Each node's lowest frame, least bias and box, exactly.
  for (uint32_t node = 0; node < d.nodeCount; node += 1 + d.nodeCount / 7) {
    const uint64_t at = d.nodes + 32ull * node;
    r = patched(at + 16, mcore_ReadU32(db.file.data() + at + 16) + 1);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.offset, at + 16);
    float bias = mcore_ReadF32(db.file.data() + at + 20);
    uint32_t bits;
    memcpy(&bits, &bias, 4);
    r = patched(at + 20, bits + 1);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.offset, at + 20);
    const uint64_t box = d.boxes + 8ull * d.featureCount * node + 4ull * (node % d.featureCount);
    r = patched(box, mcore_ReadU32(db.file.data() + box) ^ 1u);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.offset, box);
    // A child made a leaf, a count moved.
    r = patched(at + 4, mcore_ReadU32(db.file.data() + at + 4) + 1);
    EXPECT_EQ(r.result, mani_errorFormat);
  }
  // A feature changed: some box no longer its frames'.
  r = patched(d.features + 8, 0x3F800000u ^ mcore_ReadU32(db.file.data() + d.features + 8));
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_GE(r.offset, d.boxes);
  // An entry's frame count not its span's.
  r = patched(d.entries + 12, mcore_ReadU32(db.file.data() + d.entries + 12) + 1);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.offset, d.entries + 12);
  // Other versions.
  File g;
  g.Assign(db.file.data(), db.file.size);
  mcore_WriteU32(g.data() + 8, mcore_formatMotionDatabase1 + 1);
  maniMotionDatabase out;
  EXPECT_EQ(maniOpenMotionDatabase(g.data(), g.size, &out).result, mani_errorVersion);
  EXPECT_EQ(maniOpenMotionDatabase(nullptr, 0, &out).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenMotionDatabase(db.file.data() + 4, db.file.size - 4, &out).result, mani_errorInvalid);
}

TEST(MatchSearch, ExactAgainstBruteForce) {
  // About 1 k and 10 k frames (smaller leaves and larger); the 100 k
  // databases are in match_sweep_test.
  {
    Db db(11, 12, 3, 30.0f, 4, 1);
    ASSERT_GT(db.d.frameCount, 500u);
    ExpectSearchesExact(&db.d, 101, 256);
  }
  {
    Db db(12, 40, 4, 60.0f, 16);
    ASSERT_GT(db.d.frameCount, 5000u);
    ExpectSearchesExact(&db.d, 102, 128);
  }
  {
    Db db(13, 8, 2, 30.0f, 1);
    ExpectSearchesExact(&db.d, 103, 128);
  }
}

TEST(MatchSearch, FindsEachFrameFromItsOwnFeatures) {
  Db db(14, 10, 2, 30.0f, 8);
  const uint32_t F = db.d.featureCount;
  std::vector<float> x(F);
  uint32_t ties = 0;
  for (uint32_t frame = 0; frame < db.d.frameCount; ++frame) {
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&db.d, frame, x.data(), F, nullptr), mani_success);
    maniMatchQuery q{};
    q.features = x.data();
    q.normalized = 1;
    q.continuingFrame = frame;  // the frame itself, whatever its entry's flags
    maniMatchResult r{};
    ASSERT_EQ(maniMotionDatabase_Search(&db.d, &q, &r), mani_success);
    uint32_t e = 0;
    float t = 0;
    ASSERT_EQ(maniMotionDatabase_GetFrame(&db.d, frame, &e, &t), mani_success);
    maniMatchEntry entry;
    ASSERT_EQ(maniMotionDatabase_GetEntry(&db.d, e, &entry), mani_success);
    // Cost of the frame itself: its bias exactly; another frame wins only
    // by a strictly lower bias at distance 0 (a tie of features).
    if (r.frame != frame) {
      ties++;
      ASSERT_LT(r.cost, entry.costBias);
    } else {
      ASSERT_EQ(r.cost, entry.costBias);
      ASSERT_EQ(r.continuing, 1u);
    }
  }
  EXPECT_LT(ties, db.d.frameCount / 2);
}

TEST(MatchSearch, RefusesAndLeavesTheResult) {
  Db db(15, 3, 2, 30.0f, 4);
  std::vector<float> x(db.d.featureCount, 0.0f);
  maniMatchQuery q{};
  q.features = x.data();
  q.continuingFrame = MANI_NO_FRAME;
  maniMatchResult r{};
  r.frame = 1234;
  auto refused = [&](maniResult code) {
    EXPECT_EQ(maniMotionDatabase_Search(&db.d, &q, &r), code);
    EXPECT_EQ(r.frame, 1234u);
  };
  EXPECT_EQ(maniMotionDatabase_Search(nullptr, &q, &r), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_Search(&db.d, nullptr, &r), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_Search(&db.d, &q, nullptr), mani_errorInvalid);
  uint32_t history[MANI_MAX_MATCH_HISTORY + 1] = {0};
  q.history = history;
  q.historyCount = MANI_MAX_MATCH_HISTORY + 1;
  refused(mani_errorLimit);
  q.historyCount = 1;
  history[0] = db.d.frameCount;
  refused(mani_errorInvalid);
  history[0] = 0;
  q.history = nullptr;
  refused(mani_errorInvalid);
  q.historyCount = 0;
  q.continuingFrame = db.d.frameCount;
  refused(mani_errorInvalid);
  q.continuingFrame = MANI_NO_FRAME;
  x[3] = NAN;
  refused(mani_errorInvalid);
  x[3] = INFINITY;
  refused(mani_errorInvalid);
  x[3] = 0;
  q.transitionCost = INFINITY;
  refused(mani_errorInvalid);
  q.transitionCost = 0;
  q.continuingBias = NAN;
  refused(mani_errorInvalid);
  q.continuingBias = 0;
  q.endExclusion = -1;
  refused(mani_errorInvalid);
  q.endExclusion = 0;
  q.historyExclusion = -0.5f;
  refused(mani_errorInvalid);
  q.historyExclusion = 0;
  q.surroundExclusion = NAN;
  refused(mani_errorInvalid);
  q.surroundExclusion = 0;
  q.features = nullptr;
  refused(mani_errorInvalid);
  q.features = x.data();
  // No candidate: a tag no entry holds required.
  q.requiredTags = 1ull << 40;
  ASSERT_EQ(maniMotionDatabase_Search(&db.d, &q, &r), mani_success);
  EXPECT_EQ(r.frame, MANI_NO_FRAME);
  EXPECT_TRUE(std::isinf(r.cost));
  q.requiredTags = 0;
  ASSERT_EQ(maniMotionDatabase_Search(&db.d, &q, &r), mani_success);
  EXPECT_LT(r.frame, db.d.frameCount);
}

// -- Trajectories ---------------------------------------------------------------

struct TRng {
  std::mt19937_64 g;
  explicit TRng(uint64_t s) : g(s) {}
  float U(double lo, double hi) { return (float)(lo + (hi - lo) * (double)(g() >> 11) * (1.0 / 9007199254740992.0)); }
  maniVec3 V(double r) { return maniVec3{U(-r, r), U(-r, r), U(-r, r)}; }
  maniQuat Yaw(double a) {
    return maniQuat{0.0f, (float)std::sin(a / 2), 0.0f, (float)std::cos(a / 2)};
  }
};

TEST(Trajectory, OneAdvanceIsManyShorterOnes) {
  TRng rng(21);
  double worstPos = 0, worstRot = 0;
  for (int k = 0; k < 200; ++k) {
    maniTrajectory t{};
    t.position = rng.V(5);
    t.velocity = rng.V(3);
    t.acceleration = rng.V(2);
    t.rotation = rng.Yaw(rng.U(-3, 3));
    t.angularVelocity = maniVec3{0, rng.U(-2, 2), 0};
    maniTrajectoryGoal goal{};
    goal.velocity = rng.V(4);
    goal.rotation = rng.Yaw(rng.U(-3.1, 3.1));
    goal.velocityHalfLife = rng.U(0.05, 0.5);
    goal.rotationHalfLife = rng.U(0.05, 0.5);
    const float total = rng.U(0.1, 1.5);
    const int steps = 2 + (int)(rng.g() % 30);
    maniTrajectory one = t, many = t;
    ASSERT_EQ(maniAdvanceTrajectory(&one, &goal, total), mani_success);
    for (int s = 0; s < steps; ++s) ASSERT_EQ(maniAdvanceTrajectory(&many, &goal, total / steps), mani_success);
    const float* a = &one.position.x;
    const float* b = &many.position.x;
    for (int j = 0; j < 9; ++j) worstPos = std::max(worstPos, (double)std::fabs(a[j] - b[j]));
    const double dot = std::fabs((double)one.rotation.x * many.rotation.x + (double)one.rotation.y * many.rotation.y +
                                 (double)one.rotation.z * many.rotation.z + (double)one.rotation.w * many.rotation.w);
    worstRot = std::max(worstRot, 1.0 - dot);
    worstRot = std::max(worstRot, (double)std::fabs(one.angularVelocity.y - many.angularVelocity.y) * 1e-3);
  }
  EXPECT_LT(worstPos, 2e-3);
  EXPECT_LT(worstRot, 1e-5);
}

TEST(Trajectory, SettlesOnItsGoalAndRefuses) {
  maniTrajectory t{};
  t.rotation = maniQuat{0, 0, 0, 1};
  t.velocity = maniVec3{1, 0, 0};
  maniTrajectoryGoal goal{};
  goal.velocity = maniVec3{0, 0, 2};
  goal.rotation = maniQuat{0, (float)std::sin(0.5), 0, (float)std::cos(0.5)};
  goal.velocityHalfLife = 0.1f;
  goal.rotationHalfLife = 0.1f;
  ASSERT_EQ(maniAdvanceTrajectory(&t, &goal, 0.1f), mani_success);
  // After one half-life the velocity gap (with no acceleration at the
  // start) is between a quarter and a half of what it was (critical
  // damping: (1 + y t) e^{-y t} with y t = ln 4).
  const double gap = std::hypot(t.velocity.x, t.velocity.z - 2.0);
  const double expected = (1 + std::log(4.0)) / 4.0 * std::sqrt(5.0);
  EXPECT_NEAR(gap, expected, 1e-3);
  ASSERT_EQ(maniAdvanceTrajectory(&t, &goal, 5.0f), mani_success);
  EXPECT_NEAR(t.velocity.z, 2.0f, 1e-4);
  EXPECT_NEAR(t.velocity.x, 0.0f, 1e-4);
  EXPECT_NEAR(std::fabs(t.rotation.y), std::sin(0.5), 1e-4);
  maniTrajectory keep = t;
  EXPECT_EQ(maniAdvanceTrajectory(&t, &goal, -1.0f), mani_errorInvalid);
  EXPECT_EQ(maniAdvanceTrajectory(&t, &goal, NAN), mani_errorInvalid);
  EXPECT_EQ(maniAdvanceTrajectory(nullptr, &goal, 1.0f), mani_errorInvalid);
  EXPECT_EQ(maniAdvanceTrajectory(&t, nullptr, 1.0f), mani_errorInvalid);
  goal.velocityHalfLife = -1;
  EXPECT_EQ(maniAdvanceTrajectory(&t, &goal, 1.0f), mani_errorInvalid);
  goal.velocityHalfLife = 0.1f;
  goal.rotation = maniQuat{0, 0, 0, 2};
  EXPECT_EQ(maniAdvanceTrajectory(&t, &goal, 1.0f), mani_errorInvalid);
  goal.rotation = maniQuat{0, 0, 0, 1};
  t.velocity.x = INFINITY;
  keep.velocity.x = INFINITY;
  EXPECT_EQ(maniAdvanceTrajectory(&t, &goal, 1.0f), mani_errorInvalid);
  EXPECT_EQ(memcmp(&t, &keep, sizeof t), 0);
}

TEST(Trajectory, FeaturesInTheRootsFrame) {
  Db db(16, 2, 1, 30.0f, 4);
  TRng rng(22);
  for (int k = 0; k < 50; ++k) {
    const double yaw = rng.U(-3, 3), turn = rng.U(-3, 3);
    const float a = rng.U(-2, 2), c = rng.U(-2, 2);
    maniTrajectory root{}, sample{};
    root.position = rng.V(10);
    root.rotation = rng.Yaw(yaw);
    // The sample at (a, 0, c) in the root's frame, turned a further turn.
    sample.position = maniVec3{(float)(root.position.x + std::cos(yaw) * a + std::sin(yaw) * c), root.position.y,
                               (float)(root.position.z - std::sin(yaw) * a + std::cos(yaw) * c)};
    sample.rotation = rng.Yaw(yaw + turn);
    float p[2], f[2];
    ASSERT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&db.d, &root, &sample, p, f), mani_success);
    EXPECT_NEAR(p[0], a, 1e-4);
    EXPECT_NEAR(p[1], c, 1e-4);
    EXPECT_NEAR(f[0], std::sin(turn), 1e-4);
    EXPECT_NEAR(f[1], std::cos(turn), 1e-4);
  }
  maniTrajectory t{};
  float p[2];
  EXPECT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(nullptr, &t, &t, p, p), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&db.d, nullptr, &t, p, p), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&db.d, &t, nullptr, p, p), mani_errorInvalid);
}

}  // namespace
