// Break-it probes of match.h, matchbuild.h and trajectory.h written from the
// headers and the reference alone: the build's refusals with reason and item
// at the bounds, the open's checks on mutated files (truncations, a frame
// placed twice, a box wider than its frames'), every output unchanged on
// failure, accessors on NULL, unopened and inconsistent views, the search
// against a brute force of this file's own (not match_test.h's), and
// Holden's springs against a binary64 evaluation of his formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/match_fixtures.h"
#include "lib/core/container.h"
#include "maul/anim/match.h"
#include "maul/anim/matchbuild.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/rootmotion.h"
#include "maul/anim/trajectory.h"

namespace {

// A database built by the fixture and opened.
struct ProbeDb {
  File file;
  maniMotionDatabase d{};
  ProbeDb(uint64_t seed, uint32_t clips, uint32_t entries, float rate, uint32_t leaf, int floatTrack = 0) {
    size_t size = 0;
    void* bytes = maniFixtureBuildMotionDatabase(seed, clips, entries, rate, leaf, floatTrack, &size);
    EXPECT_NE(bytes, nullptr);
    if (bytes == nullptr) return;
    file.Assign(bytes, size);
    free(bytes);
    maniFileResult r = maniOpenMotionDatabase(file.data(), file.size, &d);
    EXPECT_EQ(r.result, mani_success) << r.offset;
  }
};

// A source of the probe's own: a seeded skeleton, three clips (the first
// repeating) and five channels, one of each kind.
struct ProbeSource {
  Skel skel{52, 12};
  std::vector<File> clipFiles;
  std::vector<maniClip> clips;
  std::vector<maniMatchChannelSource> channels;
  std::vector<maniMatchEntrySource> entries;
  float now[1] = {0.0f};
  float future[2] = {0.5f, 1.0f};
  maniMotionDatabaseSource src{};
  ProbeSource() {
    for (uint32_t i = 0; i < 3; ++i) {
      maniFixtureClip fc;
      maniFixtureMakeClip(&fc, 1300 + i, &skel.s, MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_TRACKS,
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
    for (uint32_t i = 0; i < 3; ++i)
      EXPECT_EQ(maniOpenClip(clipFiles[i].data(), clipFiles[i].size, &clips[i]).result, mani_success);
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

void ExpectBuild(Builder& b, const maniMotionDatabaseSource& s, maniResult r, uint32_t reason, uint64_t item,
                 uint64_t other = 0, int line = 0) {
  maniBuildResult got = maniBuildMotionDatabase(b.b, &s);
  EXPECT_EQ(got.result, r) << "line " << line;
  EXPECT_EQ(got.reason, reason) << "line " << line;
  EXPECT_EQ(got.item, item) << "line " << line;
  EXPECT_EQ(got.other, other) << "line " << line;
}
#define EXPECT_BUILD(b, s, r, reason, item, ...) ExpectBuild(b, s, r, reason, item, 0, __LINE__)

// The open's identity rewritten after a patch, so the open's own checks
// must find it (the identity is the hash of the sections after the header).
void Rehash(File& f) {
  const uint32_t kind = mcore_kindMotionDatabase;
  const uint64_t id = maniHash64(MCORE_IDENTITY_SEED ^ kind, f.data() + 64, (int64_t)f.size - 64);
  mcore_WriteU64(f.data() + 32, id);
}

bool IsSentinel(const void* p, size_t n, uint8_t v) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i] != v) return false;
  return true;
}

// ---------------------------------------------------------------------------
// maniBuildMotionDatabase

TEST(MatchProbeBuild, BoundsThemselvesAccepted) {
  Builder b;
  {
    // 16 times, times at +-MANI_MAX_MATCH_REACH exactly, leaves of 1 and 256,
    // the highest rate.
    ProbeSource s;
    static float sixteen[16];
    for (int k = 0; k < 16; ++k) sixteen[k] = -10.0f + (20.0f / 15.0f) * k;
    sixteen[15] = 10.0f;
    s.channels[2].times = sixteen;
    s.channels[2].timeCount = MANI_MAX_MATCH_TIMES;
    s.Refresh();
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
    s.src.leafSize = 1;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
    s.src.leafSize = 256;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
    s.src.leafSize = 4;
    s.src.rate = MANI_MAX_MATCH_RATE;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  }
  {
    // A track name of MANI_MAX_NAME_BYTES bytes is not past the bound: the
    // clip lacks it (missing track), not a limit.
    ProbeSource s;
    std::string name(MANI_MAX_NAME_BYTES, 'q');
    s.channels[4].track = name.c_str();
    s.channels[4].trackLength = name.size();
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonMissingTrack, 4, 0);
  }
  {
    // A bone channel's bone is ignored by the others: a trajectory channel
    // with any bone builds.
    ProbeSource s;
    s.channels[2].bone = 0xFFFFFFF0u;
    s.channels[4].bone = 999;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  }
  {
    // 64 channels builds; 65 is past the bound.
    ProbeSource s;
    s.channels.resize(MANI_MAX_MATCH_CHANNELS, s.channels[0]);
    for (uint32_t c = 5; c < MANI_MAX_MATCH_CHANNELS; ++c) s.channels[c] = s.channels[c % 4];
    s.Refresh();
    // 64 channels of up to 6 features: past 256 features; keep them to 4
    // features or fewer by using one time each.
    for (uint32_t c = 0; c < MANI_MAX_MATCH_CHANNELS; ++c) {
      s.channels[c].times = s.now;
      s.channels[c].timeCount = 1;
      if (s.channels[c].kind == maniMatchChannelTrajectoryPosition || s.channels[c].kind == maniMatchChannelTrajectoryFacing)
        s.channels[c].times = s.future + 1;
    }
    // Features: count them from the kinds (3, 3, 2, 2, 1 per time).
    uint32_t features = 0;
    for (const auto& c : s.channels) features += c.kind <= 1 ? 3 : c.kind <= 3 ? 2 : 1;
    ASSERT_LE(features, MANI_MAX_MATCH_FEATURES);
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
    s.channels.push_back(s.channels[4]);
    s.Refresh();
    EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonCount, 0);
  }
  {
    // Exactly 256 features builds (16 times of the 1-value float track x 16
    // channels), 257 is past the bound.
    ProbeSource s;
    static float sixteen[16];
    for (int k = 0; k < 16; ++k) sixteen[k] = 0.05f * k;
    std::vector<maniMatchChannelSource> ch;
    for (int c = 0; c < 16; ++c) ch.push_back({maniMatchChannelFloatTrack, 0, sixteen, 16, 1.0f, "curve-0", 7});
    s.channels = ch;
    s.Refresh();
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
    s.channels.push_back({maniMatchChannelFloatTrack, 0, s.now, 1, 1.0f, "curve-0", 7});
    s.Refresh();
    EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonCount, 0);
  }
}

TEST(MatchProbeBuild, RefusalsTheOtherTestsLeaveOut) {
  Builder b;
  {
    ProbeSource s;
    // A time past the reach on the negative side.
    float back[1] = {-10.5f};
    s.channels[1].times = back;
    EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonChannel, 1);
    // The smallest time past the reach.
    back[0] = std::nextafter(10.0f, 20.0f);
    EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonChannel, 1);
    s.channels[1].times = s.now;
    // Weights: infinite, negative, negative zero.
    s.channels[3].weight = INFINITY;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 3);
    s.channels[3].weight = -1.0f;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 3);
    s.channels[3].weight = -0.0f;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 3);
    s.channels[3].weight = 1.0f;
    // A bone channel's bone one past the skeleton (12 bones), for velocity.
    s.channels[1].bone = 12;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 1);
    s.channels[1].bone = MANI_NO_BONE;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 1);
    s.channels[1].bone = 6;
    // An overlong UTF-8 name ("/" as two bytes) and a lone continuation byte.
    s.channels[4].track = "\xc0\xaf";
    s.channels[4].trackLength = 2;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 4);
    s.channels[4].track = "a\x80";
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 4);
    // A surrogate encoded in UTF-8 is not UTF-8.
    s.channels[4].track = "\xed\xa0\x80";
    s.channels[4].trackLength = 3;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 4);
    // A NULL track with a length.
    s.channels[4].track = nullptr;
    s.channels[4].trackLength = 7;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 4);
    s.channels[4].track = "curve-0";
    // NULL times with a count.
    s.channels[0].times = nullptr;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonChannel, 0);
    s.channels[0].times = s.now;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  }
  {
    ProbeSource s;
    // Entry spans: a negative start, a NaN start or end, an infinite bias.
    s.entries[2].start = -0.25f;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 2);
    s.entries[2].start = NAN;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 2);
    s.entries[2].start = 0.0f;
    s.entries[2].end = NAN;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 2);
    s.entries[2].end = maniClip_GetDuration(&s.clips[2]);
    s.entries[2].costBias = NAN;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 2);
    s.entries[2].costBias = -INFINITY;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 2);
    s.entries[2].costBias = 0.0f;
    // The end just past the clip's duration.
    s.entries[2].end = std::nextafter(maniClip_GetDuration(&s.clips[2]), 100.0f);
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 2);
    s.entries[2].end = maniClip_GetDuration(&s.clips[2]);
    // A looping entry that does not start at 0.
    s.entries[0].start = 0.125f;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 0);
    s.entries[0].start = 0.0f;
    // An unknown flag bit high up.
    s.entries[1].flags = 0x80000000u;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonEntry, 1);
    s.entries[1].flags = 0;
    // NULL arrays with counts.
    s.src.entries = nullptr;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_errorInvalid);
    s.Refresh();
    s.src.channels = nullptr;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_errorInvalid);
    s.Refresh();
    s.src.clips = nullptr;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_errorInvalid);
    s.Refresh();
    s.src.skeleton = nullptr;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_errorInvalid);
    s.Refresh();
    // Rates: NaN, -Inf, +Inf (past the bound), the smallest above the bound.
    s.src.rate = NAN;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonTiming, 0);
    s.src.rate = -INFINITY;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonTiming, 0);
    s.src.rate = -0.0f;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonTiming, 0);
    s.src.rate = INFINITY;
    EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonTiming, 0);
    s.src.rate = std::nextafter(MANI_MAX_MATCH_RATE, 1000.0f);
    EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonTiming, 0);
    s.Refresh();
    // Axes past z.
    s.src.upAxis = 3;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonOption, 0);
    s.src.upAxis = 1;
    s.src.forwardAxis = 3;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonOption, 0);
  }
  {
    // A limit is no misuse; a NULL argument is.
    ProbeSource s;
    const uint32_t misuse = maniBuilder_GetMisuse(b.b);
    s.src.rate = 1000.0f;
    EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonTiming, 0);
    s.src.rate = 0.0f;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonTiming, 0);
    EXPECT_EQ(maniBuilder_GetMisuse(b.b), misuse);
  }
  {
    // A mirror map of another skeleton: item 0.
    ProbeSource s;
    Skel other(901, 12);
    maniMirrorMapSource ms{};
    ms.skeleton = &other.s;
    ms.axis = 0;
    ASSERT_EQ(maniBuildMirrorMap(b.b, &ms).result, mani_success);
    File mapFile = b.Built();
    maniMirrorMap map;
    ASSERT_EQ(maniOpenMirrorMap(mapFile.data(), mapFile.size, &map).result, mani_success);
    s.entries[1].flags = maniMatchEntryMirrored;
    s.src.mirror = &map;
    EXPECT_BUILD(b, s.src, mani_errorInvalid, maniBuildReasonMirrorDatabase, 0);
  }
}

// A built database's entries: frame counts floor((end - start) rate) + 1, at
// start + k / rate in binary64 rounded once; channels laid out time by time.
TEST(MatchProbeBuild, FramesFollowTheSpanAndChannelsTheirTimes) {
  Builder b;
  ProbeSource s;
  // Spans exact in binary32 and at the rate: 0.25 to 1.25 at 30 is 31 frames
  // (30 intervals), 0.5 to 0.75 is floor(7.5) + 1 = 8.
  s.entries[1] = {1, 0u, 0.25f, 1.25f, 0, 0.0f};
  s.entries[2] = {2, maniMatchEntryNoJump, 0.5f, 0.75f, 0, 0.25f};
  ASSERT_GE(maniClip_GetDuration(&s.clips[1]), 1.25f);
  ASSERT_GE(maniClip_GetDuration(&s.clips[2]), 0.75f);
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  maniMatchEntry e;
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 1, &e), mani_success);
  EXPECT_EQ(e.frameCount, 31u);
  EXPECT_EQ(e.start, 0.25f);
  EXPECT_EQ(e.end, 1.25f);
  EXPECT_EQ(e.tags, 0u);
  EXPECT_EQ(e.reserved, 0u);
  for (uint32_t k = 0; k < e.frameCount; ++k) {
    uint32_t entry = 99;
    float t = -1;
    ASSERT_EQ(maniMotionDatabase_GetFrame(&d, e.firstFrame + k, &entry, &t), mani_success);
    EXPECT_EQ(entry, 1u);
    EXPECT_EQ(t, (float)(0.25 + (double)k / 30.0)) << k;
  }
  maniMatchEntry e2;
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 2, &e2), mani_success);
  EXPECT_EQ(e2.frameCount, 8u);
  EXPECT_EQ(e2.flags, maniMatchEntryNoJump);
  EXPECT_EQ(e2.costBias, 0.25f);
  EXPECT_EQ(e2.firstFrame, e.firstFrame + e.frameCount);
  maniMatchEntry e0;
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 0, &e0), mani_success);
  EXPECT_EQ(e0.firstFrame, 0u);
  EXPECT_EQ(e0.flags, (uint32_t)maniMatchEntryLoop);
  EXPECT_EQ(d.frameCount, e0.frameCount + e.frameCount + e2.frameCount);
  // Channels: kinds, bones (MANI_NO_BONE for the others), features time by
  // time, contiguous, unused times 0, weights.
  const uint32_t perTime[5] = {3, 3, 2, 2, 1};
  uint32_t first = 0;
  for (uint32_t c = 0; c < 5; ++c) {
    maniMatchChannel ch;
    ASSERT_EQ(maniMotionDatabase_GetChannel(&d, c, &ch), mani_success);
    EXPECT_EQ(ch.kind, s.channels[c].kind);
    EXPECT_EQ(ch.bone, c < 2 ? s.channels[c].bone : MANI_NO_BONE) << c;
    EXPECT_EQ(ch.timeCount, s.channels[c].timeCount);
    EXPECT_EQ(ch.firstFeature, first);
    EXPECT_EQ(ch.featureCount, perTime[c] * ch.timeCount);
    EXPECT_EQ(ch.weight, 1.0f);
    for (uint32_t k = 0; k < MANI_MAX_MATCH_TIMES; ++k)
      EXPECT_EQ(ch.times[k], k < ch.timeCount ? s.channels[c].times[k] : 0.0f);
    first += ch.featureCount;
    size_t length = 1234;
    const char* name = maniMotionDatabase_GetChannelName(&d, c, &length);
    if (c == 4) {
      ASSERT_NE(name, nullptr);
      EXPECT_EQ(length, 7u);
      EXPECT_EQ(std::string(name, length), "curve-0");
      EXPECT_EQ(maniMotionDatabase_GetChannelName(&d, c, nullptr), name);
    } else {
      EXPECT_EQ(name, nullptr);
    }
  }
  EXPECT_EQ(first, d.featureCount);
  EXPECT_EQ(maniMotionDatabase_GetChannelName(&d, 5, nullptr), nullptr);
  EXPECT_EQ(maniMotionDatabase_GetChannelName(nullptr, 4, nullptr), nullptr);
  // Identities: the skeleton's and the clips' are theirs; no mirror.
  EXPECT_EQ(maniMotionDatabase_GetSkeletonIdentity(&d), maniSkeleton_GetIdentity(&s.skel.s));
  for (uint32_t c = 0; c < 3; ++c) EXPECT_EQ(maniMotionDatabase_GetClipIdentity(&d, c), maniClip_GetIdentity(&s.clips[c]));
  EXPECT_EQ(maniMotionDatabase_GetClipIdentity(&d, 3), 0u);
  EXPECT_EQ(maniMotionDatabase_GetMirrorMapIdentity(&d), 0u);
  EXPECT_NE(maniMotionDatabase_GetIdentity(&d), 0u);
  // The same source builds the same bytes.
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File g = b.Built();
  ASSERT_EQ(g.size, f.size);
  EXPECT_EQ(memcmp(g.data(), f.data(), f.size), 0);
  // Normalization: the frames' features averaged per feature give 0 (the
  // offset is each feature's mean), within rounding.
  std::vector<float> x(d.featureCount);
  std::vector<double> sum(d.featureCount, 0.0);
  for (uint32_t fr = 0; fr < d.frameCount; ++fr) {
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, fr, x.data(), d.featureCount, nullptr), mani_success);
    for (uint32_t j = 0; j < d.featureCount; ++j) sum[j] += x[j];
  }
  for (uint32_t j = 0; j < d.featureCount; ++j) EXPECT_NEAR(sum[j] / d.frameCount, 0.0, 1e-3) << j;
}

// ---------------------------------------------------------------------------
// maniOpenMotionDatabase

TEST(MatchProbeOpen, RefusalsLeaveTheViewUnchanged) {
  ProbeDb db(11, 3, 2, 15.0f, 3);
  maniMotionDatabase out;
  memset(&out, 0xA5, sizeof out);
  // Truncations: a handful of sizes, the view unchanged.
  for (size_t n : {(size_t)0, (size_t)1, (size_t)63, (size_t)64, db.file.size / 2, db.file.size - 1}) {
    File g;
    g.Assign(db.file.data(), n);
    maniFileResult r = maniOpenMotionDatabase(g.data(), n, &out);
    EXPECT_EQ(r.result, mani_errorFormat) << n;
    EXPECT_LE(r.offset, n);
    EXPECT_TRUE(IsSentinel(&out, sizeof out, 0xA5)) << n;
  }
  // Misaligned bytes at every offset 1 to 15.
  for (size_t k = 1; k < MANI_FILE_ALIGNMENT; ++k) {
    std::vector<uint64_t> w(db.file.size / 8 + 4);
    uint8_t* p = reinterpret_cast<uint8_t*>(w.data()) + k;
    memcpy(p, db.file.data(), db.file.size);
    EXPECT_EQ(maniOpenMotionDatabase(p, db.file.size, &out).result, mani_errorInvalid) << k;
    EXPECT_TRUE(IsSentinel(&out, sizeof out, 0xA5));
  }
  EXPECT_EQ(maniOpenMotionDatabase(db.file.data(), db.file.size, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenMotionDatabase(nullptr, db.file.size, &out).result, mani_errorInvalid);
  EXPECT_TRUE(IsSentinel(&out, sizeof out, 0xA5));
  // Extra bytes after the file: refused or opened, never past the bytes.
  {
    File g;
    g.Assign(db.file.data(), db.file.size + 8);
    maniFileResult r = maniOpenMotionDatabase(g.data(), db.file.size + 8, &out);
    if (r.result != mani_success) {
      EXPECT_LE(r.offset, db.file.size + 8);
    }
  }
  // A memcpy'd copy opens to the same view but its bytes pointer.
  File copy;
  copy.Assign(db.file.data(), db.file.size);
  maniMotionDatabase v;
  ASSERT_EQ(maniOpenMotionDatabase(copy.data(), copy.size, &v).result, mani_success);
  maniMotionDatabase a = db.d, c = v;
  a.bytes = nullptr;
  c.bytes = nullptr;
  EXPECT_EQ(memcmp(&a, &c, sizeof a), 0);
}

TEST(MatchProbeOpen, TreeMutationsFound) {
  ProbeDb db(12, 4, 2, 20.0f, 4);
  const maniMotionDatabase& d = db.d;
  ASSERT_GT(d.nodeCount, 3u);
  ASSERT_GT(d.frameCount, 8u);
  Rehash(db.file);
  maniMotionDatabase v;
  ASSERT_EQ(maniOpenMotionDatabase(db.file.data(), db.file.size, &v).result, mani_success);
  auto open = [&](File& g) {
    Rehash(g);
    maniMotionDatabase out;
    memset(&out, 0x5A, sizeof out);
    maniFileResult r = maniOpenMotionDatabase(g.data(), g.size, &out);
    if (r.result != mani_success) {
      EXPECT_TRUE(IsSentinel(&out, sizeof out, 0x5A));
    }
    return r;
  };
  // Neighbouring order slots given the same frame (the same leaf, mostly):
  // a frame placed twice, another never.
  for (uint32_t k = 0; k + 1 < d.frameCount; k += 1 + d.frameCount / 9) {
    File g;
    g.Assign(db.file.data(), db.file.size);
    const uint32_t a = mcore_ReadU32(g.data() + d.order + 4ull * k);
    const uint32_t bb = mcore_ReadU32(g.data() + d.order + 4ull * (k + 1));
    if (a == bb) continue;
    mcore_WriteU32(g.data() + d.order + 4ull * (k + 1), a);
    maniFileResult r = open(g);
    EXPECT_EQ(r.result, mani_errorFormat) << "slot " << k;
    EXPECT_GE(r.offset, d.order) << "slot " << k;
    EXPECT_LT(r.offset, d.order + 4ull * d.frameCount) << "slot " << k;
    // Two neighbours swapped: each frame still once, the tree's boxes or
    // order may still hold; the open either refuses or opens, and when it
    // opens a search still finds every frame's own features.
    File h;
    h.Assign(db.file.data(), db.file.size);
    mcore_WriteU32(h.data() + d.order + 4ull * k, bb);
    mcore_WriteU32(h.data() + d.order + 4ull * (k + 1), a);
    maniFileResult rs = open(h);
    if (rs.result != mani_success) {
      EXPECT_EQ(rs.result, mani_errorFormat);
    }
  }
  // Every node's box widened by one step on either side, still containing
  // its frames, is not exactly its frames'.
  for (uint32_t node = 0; node < d.nodeCount; ++node) {
    for (uint32_t side = 0; side < 2; ++side) {
      const uint32_t j = (node * 7 + side) % d.featureCount;
      const uint64_t at = d.boxes + 8ull * d.featureCount * node + 4ull * d.featureCount * side + 4ull * j;
      File g;
      g.Assign(db.file.data(), db.file.size);
      const float old = mcore_ReadF32(g.data() + at);
      const float wider = std::nextafter(old, side == 0 ? -INFINITY : INFINITY);
      uint32_t bits;
      memcpy(&bits, &wider, 4);
      mcore_WriteU32(g.data() + at, bits);
      maniFileResult r = open(g);
      EXPECT_EQ(r.result, mani_errorFormat) << "node " << node << " side " << side;
      EXPECT_EQ(r.offset, at) << "node " << node << " side " << side;
      // NaN and infinity in a box.
      mcore_WriteU32(g.data() + at, 0x7FC00000u);
      r = open(g);
      EXPECT_EQ(r.result, mani_errorFormat);
      EXPECT_EQ(r.offset, at);
    }
  }
  // NaN and infinity among the features and the normalization.
  const uint64_t floats[4] = {d.features, d.features + 4ull * (d.featureCount * d.frameCount - 1), d.normalization,
                              d.normalization + 4ull * d.featureCount};
  for (uint64_t at : floats) {
    for (uint32_t bits : {0x7FC00000u, 0x7F800000u, 0xFF800000u}) {
      File g;
      g.Assign(db.file.data(), db.file.size);
      mcore_WriteU32(g.data() + at, bits);
      maniFileResult r = open(g);
      EXPECT_EQ(r.result, mani_errorFormat) << at;
      EXPECT_EQ(r.offset, at) << at << " " << bits;
    }
  }
  // A scale of 0 or negative.
  for (uint32_t bits : {0x00000000u, 0x80000000u, 0xBF800000u}) {
    File g;
    g.Assign(db.file.data(), db.file.size);
    const uint64_t at = d.normalization + 4ull * d.featureCount + 4;
    mcore_WriteU32(g.data() + at, bits);
    maniFileResult r = open(g);
    EXPECT_EQ(r.result, mani_errorFormat) << bits;
    EXPECT_EQ(r.offset, at) << bits;
  }
}

TEST(MatchProbeOpen, EveryMutationOfASmallFile) {
  size_t size = 0;
  void* bytes = maniFixtureBuildSmallMotionDatabase(21, 2, 6.0f, 2, &size);
  ASSERT_NE(bytes, nullptr);
  File f;
  f.Assign(bytes, size);
  free(bytes);
  ExpectEveryMutationRefused(f.data(), f.size, [](const void* p, size_t n) {
    maniMotionDatabase d;
    memset(&d, 0x3C, sizeof d);
    maniFileResult r = maniOpenMotionDatabase(p, n, &d);
    if (r.result != mani_success) {
      EXPECT_TRUE(IsSentinel(&d, sizeof d, 0x3C));
    }
    return r;
  });
}

// ---------------------------------------------------------------------------
// Accessors

TEST(MatchProbeAccess, NullUnopenedAndInconsistentViews) {
  ProbeDb db(13, 2, 2, 10.0f, 2, 1);
  const maniMotionDatabase& d = db.d;
  maniMotionDatabase zero{};
  maniMotionDatabase lying = d;
  lying.frameCount = d.frameCount * 4096u + 7u;
  lying.featureCount = MANI_MAX_MATCH_FEATURES;
  lying.channelCount = 60;
  lying.entryCount = 60000;
  lying.clipCount = 4000;
  maniMotionDatabase unopened = d;
  unopened.opened = 0;
  for (const maniMotionDatabase* v : {(const maniMotionDatabase*)nullptr, (const maniMotionDatabase*)&zero,
                                      (const maniMotionDatabase*)&unopened, (const maniMotionDatabase*)&lying}) {
    const bool isNull = v == nullptr;
    SCOPED_TRACE(isNull ? "null" : v == &zero ? "zero" : v == &unopened ? "unopened" : "lying");
    if (v == nullptr || v == &zero || v == &unopened) {
      EXPECT_EQ(maniMotionDatabase_GetIdentity(v), 0u);
      EXPECT_EQ(maniMotionDatabase_GetSkeletonIdentity(v), 0u);
      EXPECT_EQ(maniMotionDatabase_GetMirrorMapIdentity(v), 0u);
    }
    EXPECT_EQ(maniMotionDatabase_GetClipIdentity(v, 3000), 0u);
    maniMatchChannel ch;
    memset(&ch, 0x77, sizeof ch);
    EXPECT_EQ(maniMotionDatabase_GetChannel(v, 50, &ch), mani_errorInvalid);
    EXPECT_TRUE(IsSentinel(&ch, sizeof ch, 0x77));
    EXPECT_EQ(maniMotionDatabase_GetChannelName(v, 50, nullptr), nullptr);
    maniMatchEntry e;
    memset(&e, 0x77, sizeof e);
    EXPECT_EQ(maniMotionDatabase_GetEntry(v, 50000, &e), mani_errorInvalid);
    EXPECT_TRUE(IsSentinel(&e, sizeof e, 0x77));
    uint32_t entry = 0x77777777u;
    float t = 7.0f;
    EXPECT_EQ(maniMotionDatabase_GetFrame(v, d.frameCount * 100u, &entry, &t), mani_errorInvalid);
    EXPECT_EQ(entry, 0x77777777u);
    EXPECT_EQ(t, 7.0f);
    std::vector<float> x(MANI_MAX_MATCH_FEATURES, 7.0f);
    uint32_t count = 77;
    EXPECT_EQ(maniMotionDatabase_GetFeatures(v, d.frameCount * 100u, x.data(), MANI_MAX_MATCH_FEATURES, &count),
              mani_errorInvalid);
    for (float value : x) EXPECT_EQ(value, 7.0f);
    maniMatchQuery q{};
    q.features = x.data();
    q.continuingFrame = MANI_NO_FRAME;
    maniMatchResult r;
    memset(&r, 0x77, sizeof r);
    if (v != &lying) {
      EXPECT_EQ(maniMotionDatabase_GetFeatures(v, 0, x.data(), MANI_MAX_MATCH_FEATURES, &count), mani_errorInvalid);
      float off[MANI_MAX_MATCH_FEATURES], sc[MANI_MAX_MATCH_FEATURES];
      EXPECT_EQ(maniMotionDatabase_GetNormalization(v, off, sc, MANI_MAX_MATCH_FEATURES, &count), mani_errorInvalid);
      EXPECT_EQ(maniMotionDatabase_GetChannel(v, 0, &ch), mani_errorInvalid);
      EXPECT_EQ(maniMotionDatabase_GetEntry(v, 0, &e), mani_errorInvalid);
      EXPECT_EQ(maniMotionDatabase_GetFrame(v, 0, &entry, &t), mani_errorInvalid);
      EXPECT_EQ(maniMotionDatabase_Search(v, &q, &r), mani_errorInvalid);
      EXPECT_TRUE(IsSentinel(&r, sizeof r, 0x77));
      maniTrajectory tr{};
      tr.rotation.w = 1;
      float p[2] = {7, 7}, f[2] = {7, 7};
      EXPECT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(v, &tr, &tr, p, f), mani_errorInvalid);
      EXPECT_EQ(p[0], 7.0f);
      EXPECT_EQ(f[1], 7.0f);
    } else {
      // A view whose counts do not fit its file: no read past the file
      // (ASan), a refusal or a value, never a crash.
      EXPECT_EQ(maniMotionDatabase_GetFeatures(v, d.frameCount * 4000u, x.data(), MANI_MAX_MATCH_FEATURES, &count),
                mani_errorInvalid);
      EXPECT_EQ(maniMotionDatabase_GetEntry(v, 59999, &e), mani_errorInvalid);
      EXPECT_EQ(maniMotionDatabase_GetChannel(v, 59, &ch), mani_errorInvalid);
      EXPECT_EQ(maniMotionDatabase_GetChannelName(v, 59, nullptr), nullptr);
      EXPECT_EQ(maniMotionDatabase_GetClipIdentity(v, 3999), 0u);
      EXPECT_EQ(maniMotionDatabase_GetFrame(v, d.frameCount * 4000u, &entry, &t), mani_errorInvalid);
      x.assign(MANI_MAX_MATCH_FEATURES, 0.0f);
      EXPECT_EQ(maniMotionDatabase_Search(v, &q, &r), mani_errorInvalid);
    }
  }
}

TEST(MatchProbeAccess, CapacitiesAndMeasuring) {
  ProbeDb db(14, 4, 2, 20.0f, 2, 1);
  const maniMotionDatabase& d = db.d;
  ASSERT_EQ(d.featureCount, MANI_FIXTURE_MATCH_FEATURES + 1);
  const uint32_t n = d.featureCount;
  uint32_t count = 0;
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, 0, nullptr, 0, &count), mani_errorCapacity);
  EXPECT_EQ(count, n);
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, 0, nullptr, 0, nullptr), mani_errorCapacity);
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, 0, nullptr, 1, &count), mani_errorInvalid);
  std::vector<float> x(n + 1, 9.0f);
  count = 0;
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, d.frameCount - 1, x.data(), n - 1, &count), mani_errorCapacity);
  EXPECT_EQ(count, n);
  for (float v : x) EXPECT_EQ(v, 9.0f);
  count = 0;
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, d.frameCount - 1, x.data(), n + 1, &count), mani_success);
  EXPECT_EQ(count, n);
  EXPECT_EQ(x[n], 9.0f);  // nothing past the count
  for (uint32_t j = 0; j < n; ++j) EXPECT_TRUE(std::isfinite(x[j]));
  count = 5;
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, d.frameCount, x.data(), n, &count), mani_errorInvalid);
  // Normalization: both NULL to measure, either alone, capacity one short.
  count = 0;
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, nullptr, nullptr, 0, &count), mani_errorCapacity);
  EXPECT_EQ(count, n);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, nullptr, nullptr, 4, &count), mani_errorInvalid);
  std::vector<float> off(n + 1, 9.0f), sc(n + 1, 9.0f), off2(n, 8.0f), sc2(n, 8.0f);
  count = 0;
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, off.data(), sc.data(), n - 1, &count), mani_errorCapacity);
  EXPECT_EQ(count, n);
  for (uint32_t j = 0; j <= n; ++j) EXPECT_TRUE(off[j] == 9.0f && sc[j] == 9.0f);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, off.data(), sc.data(), n + 1, &count), mani_success);
  EXPECT_EQ(off[n], 9.0f);
  EXPECT_EQ(sc[n], 9.0f);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, off2.data(), nullptr, n, nullptr), mani_success);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, nullptr, sc2.data(), n, nullptr), mani_success);
  for (uint32_t j = 0; j < n; ++j) {
    EXPECT_EQ(off2[j], off[j]);
    EXPECT_EQ(sc2[j], sc[j]);
    EXPECT_TRUE(std::isfinite(off[j]));
    EXPECT_GT(sc[j], 0.0f);
  }
  // Holden's scale: one per channel (the mean of its features' deviations
  // over the weight): every feature of a channel shares its scale.
  for (uint32_t c = 0; c < d.channelCount; ++c) {
    maniMatchChannel ch;
    ASSERT_EQ(maniMotionDatabase_GetChannel(&d, c, &ch), mani_success);
    for (uint32_t j = 1; j < ch.featureCount; ++j) EXPECT_EQ(sc[ch.firstFeature + j], sc[ch.firstFeature]) << c;
  }
  // Outputs NULL where the reference allows it.
  uint32_t entry = 0;
  float t = 0;
  EXPECT_EQ(maniMotionDatabase_GetFrame(&d, 0, nullptr, &t), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_GetFrame(&d, 0, &entry, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_GetChannel(&d, 0, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_GetEntry(&d, 0, nullptr), mani_errorInvalid);
  maniMatchChannel ch;
  memset(&ch, 0x66, sizeof ch);
  EXPECT_EQ(maniMotionDatabase_GetChannel(&d, d.channelCount, &ch), mani_errorInvalid);
  EXPECT_TRUE(IsSentinel(&ch, sizeof ch, 0x66));
  maniMatchEntry e;
  memset(&e, 0x66, sizeof e);
  EXPECT_EQ(maniMotionDatabase_GetEntry(&d, d.entryCount, &e), mani_errorInvalid);
  EXPECT_TRUE(IsSentinel(&e, sizeof e, 0x66));
  EXPECT_EQ(maniMotionDatabase_GetClipIdentity(&d, d.clipCount), 0u);
  EXPECT_NE(maniMotionDatabase_GetClipIdentity(&d, d.clipCount - 1), 0u);
}

// ---------------------------------------------------------------------------
// maniMotionDatabase_Search against the probe's own brute force

struct Pick {
  uint32_t frame = MANI_NO_FRAME;
  float cost = INFINITY;
};

// Every frame's cost from the reference paragraph: bias + transition (or
// the continuing bias), then each squared difference in feature order, in
// binary32; the candidate rules; ties to the continuing frame, then the
// lowest frame (a scan in frame order keeps the first least cost).
Pick Scan(const maniMotionDatabase& d, const maniMatchQuery& q) {
  const uint32_t n = d.featureCount;
  std::vector<float> off(n), sc(n), qn(n), x(n);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&d, off.data(), sc.data(), n, nullptr), mani_success);
  for (uint32_t j = 0; j < n; ++j) {
    if (q.normalized) {
      qn[j] = q.features[j];
    } else {
      const float diff = q.features[j] - off[j];
      qn[j] = diff / sc[j];
    }
  }
  auto frameOf = [&](uint32_t frame, uint32_t* entry, float* time) {
    EXPECT_EQ(maniMotionDatabase_GetFrame(&d, frame, entry, time), mani_success);
  };
  uint32_t ce = MANI_NO_FRAME;
  float ct = 0;
  if (q.continuingFrame != MANI_NO_FRAME) frameOf(q.continuingFrame, &ce, &ct);
  Pick best;
  float contCost = INFINITY;
  bool contCandidate = false;
  for (uint32_t frame = 0; frame < d.frameCount; ++frame) {
    uint32_t ei;
    float t;
    frameOf(frame, &ei, &t);
    maniMatchEntry e;
    EXPECT_EQ(maniMotionDatabase_GetEntry(&d, ei, &e), mani_success);
    if ((e.tags & q.requiredTags) != q.requiredTags) continue;
    if (e.tags & q.excludedTags) continue;
    const bool isCont = frame == q.continuingFrame;
    if (!isCont) {
      if (e.flags & maniMatchEntryNoJump) continue;
      if (!(e.flags & maniMatchEntryLoop) && e.end - t < q.endExclusion) continue;
      if (ei == ce && std::fabs(t - ct) < q.surroundExclusion) continue;
      bool excluded = false;
      for (uint32_t h = 0; h < q.historyCount; ++h) {
        uint32_t he;
        float ht;
        frameOf(q.history[h], &he, &ht);
        if (he == ei && std::fabs(t - ht) < q.historyExclusion) excluded = true;
      }
      if (excluded) continue;
    }
    EXPECT_EQ(maniMotionDatabase_GetFeatures(&d, frame, x.data(), n, nullptr), mani_success);
    float c = e.costBias + (isCont ? q.continuingBias : q.transitionCost);
    for (uint32_t j = 0; j < n; ++j) {
      const float diff = qn[j] - x[j];
      const float sq = diff * diff;
      c = c + sq;
    }
    if (isCont) {
      contCandidate = true;
      contCost = c;
    } else if (c < best.cost || best.frame == MANI_NO_FRAME) {
      best.frame = frame;
      best.cost = c;
    }
  }
  if (contCandidate && !(best.cost < contCost)) {
    best.frame = q.continuingFrame;
    best.cost = contCost;
  }
  return best;
}

void ExpectSearchMatchesScan(const maniMotionDatabase& d, const maniMatchQuery& q, const char* what, uint32_t k) {
  maniMatchResult r;
  memset(&r, 0xEE, sizeof r);
  ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success) << what << " " << k;
  const Pick p = Scan(d, q);
  ASSERT_EQ(r.frame, p.frame) << what << " " << k << " cost " << r.cost << " vs " << p.cost;
  if (p.frame == MANI_NO_FRAME) {
    EXPECT_EQ(r.entry, MANI_NO_FRAME);
    EXPECT_EQ(r.time, 0.0f);
    EXPECT_TRUE(std::isinf(r.cost) && r.cost > 0);
    EXPECT_EQ(r.continuing, 0u);
    return;
  }
  EXPECT_EQ(memcmp(&r.cost, &p.cost, 4), 0) << what << " " << k << " " << r.cost << " " << p.cost;
  uint32_t e;
  float t;
  ASSERT_EQ(maniMotionDatabase_GetFrame(&d, p.frame, &e, &t), mani_success);
  EXPECT_EQ(r.entry, e);
  EXPECT_EQ(memcmp(&r.time, &t, 4), 0);
  EXPECT_EQ(r.continuing, p.frame == q.continuingFrame ? 1u : 0u);
  EXPECT_GE(r.visited, 1u);
  EXPECT_LE(r.visited, d.frameCount);
}

TEST(MatchProbeSearch, ExactAgainstTheProbesScan) {
  ProbeDb db(15, 6, 3, 20.0f, 5, 1);
  const maniMotionDatabase& d = db.d;
  const uint32_t n = d.featureCount;
  std::mt19937_64 g(77);
  auto U = [&](float lo, float hi) {
    const float u = (float)((g() >> 40) * (1.0 / 16777216.0));
    return lo + (hi - lo) * u;
  };
  std::vector<float> off(n), sc(n), x(n), q(n);
  ASSERT_EQ(maniMotionDatabase_GetNormalization(&d, off.data(), sc.data(), n, nullptr), mani_success);
  uint32_t history[MANI_MAX_MATCH_HISTORY];
  for (uint32_t k = 0; k < 300; ++k) {
    const uint32_t near = (uint32_t)(g() % d.frameCount);
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, near, x.data(), n, nullptr), mani_success);
    maniMatchQuery query{};
    query.normalized = (k % 3) != 0;
    for (uint32_t j = 0; j < n; ++j) {
      const float jitter = (k % 5 == 0) ? 0.0f : U(-0.5f, 0.5f);
      const float v = x[j] + jitter;
      q[j] = query.normalized ? v : v * sc[j] + off[j];
    }
    query.features = q.data();
    const uint64_t bits = g();
    query.continuingFrame = (bits & 1) ? (uint32_t)(g() % d.frameCount) : MANI_NO_FRAME;
    if ((bits & 6) == 6) query.continuingFrame = near;
    query.transitionCost = (bits & 8) ? U(0.0f, 1.0f) : 0.0f;
    query.continuingBias = (bits & 16) ? U(-0.5f, 0.5f) : 0.0f;
    query.requiredTags = (bits & 32) ? (g() & 15) : 0;
    query.excludedTags = (bits & 64) ? (g() & 15) : 0;
    query.endExclusion = (bits & 128) ? U(0.0f, 1.0f) : 0.0f;
    query.surroundExclusion = (bits & 256) ? U(0.0f, 1.0f) : 0.0f;
    query.historyCount = (bits & 512) ? (uint32_t)(g() % (MANI_MAX_MATCH_HISTORY + 1)) : 0;
    for (uint32_t h = 0; h < query.historyCount; ++h) history[h] = (uint32_t)(g() % d.frameCount);
    query.history = query.historyCount ? history : nullptr;
    query.historyExclusion = query.historyCount ? U(0.0f, 2.0f) : 0.0f;
    ExpectSearchMatchesScan(d, query, "random", k);
    if (HasFatalFailure()) return;
  }
}

// Ties: two entries of the same span have the same features; the lower
// frame wins, the continuing frame wins over both.
TEST(MatchProbeSearch, TiesToTheContinuingThenTheLowestFrame) {
  Builder b;
  ProbeSource s;
  s.entries.push_back(s.entries[1]);  // entry 3: entry 1 again, the same tags
  s.entries.push_back(s.entries[1]);  // entry 4
  s.entries[4].costBias = 0.5f;       // entry 4: the same features, dearer
  s.Refresh();
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  maniMatchEntry e1, e3, e4;
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 1, &e1), mani_success);
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 3, &e3), mani_success);
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 4, &e4), mani_success);
  ASSERT_EQ(e1.frameCount, e3.frameCount);
  const uint32_t n = d.featureCount;
  std::vector<float> x(n), y(n);
  for (uint32_t k = 0; k < e1.frameCount; k += 3) {
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, e1.firstFrame + k, x.data(), n, nullptr), mani_success);
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, e3.firstFrame + k, y.data(), n, nullptr), mani_success);
    ASSERT_EQ(memcmp(x.data(), y.data(), 4ull * n), 0) << k;
    maniMatchQuery q{};
    q.features = x.data();
    q.normalized = 1;
    q.continuingFrame = MANI_NO_FRAME;
    maniMatchResult r;
    ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
    // Frame k of entry 1 costs 0 exactly, so does frame k of entry 3: the
    // lower (entry 1's, unless an earlier frame also costs 0).
    EXPECT_EQ(r.cost, 0.0f);
    EXPECT_LE(r.frame, e1.firstFrame + k);
    ExpectSearchMatchesScan(d, q, "tie", k);
    // The continuing frame at the higher copy wins the tie.
    q.continuingFrame = e3.firstFrame + k;
    ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
    EXPECT_EQ(r.frame, e3.firstFrame + k);
    EXPECT_EQ(r.continuing, 1u);
    EXPECT_EQ(r.cost, 0.0f);
    ExpectSearchMatchesScan(d, q, "tie-cont", k);
    // With a transition cost the continuing frame wins outright; with a
    // continuing bias equal to it, the tie still goes to it.
    q.transitionCost = 0.25f;
    q.continuingBias = 0.25f;
    ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
    EXPECT_EQ(r.frame, e3.firstFrame + k);
    EXPECT_EQ(r.cost, 0.25f);
    // The continuing frame of a no-jump entry is a candidate; the excluded
    // tags of its entry make it none.
    q.continuingBias = 0.0f;
    q.transitionCost = 0.0f;
    q.excludedTags = 1u << 1;  // entries 1, 3 and 4 hold bit 1
    ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
    EXPECT_NE(r.frame, e3.firstFrame + k);
    ExpectSearchMatchesScan(d, q, "tie-excluded", k);
    if (HasFatalFailure()) return;
  }
  // No candidate at all: a required tag no entry holds.
  maniMatchQuery q{};
  q.features = x.data();
  q.normalized = 1;
  q.continuingFrame = 0;
  q.requiredTags = 1ull << 63;
  maniMatchResult r;
  memset(&r, 0x11, sizeof r);
  ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
  EXPECT_EQ(r.frame, MANI_NO_FRAME);
  EXPECT_EQ(r.entry, MANI_NO_FRAME);
  EXPECT_EQ(r.time, 0.0f);
  EXPECT_TRUE(std::isinf(r.cost) && r.cost > 0);
  EXPECT_EQ(r.continuing, 0u);
}

// The continuing frame is a candidate inside every exclusion window and on
// a no-jump entry; every other frame of those is not.
TEST(MatchProbeSearch, ExclusionsSpareOnlyTheContinuingFrame) {
  Builder b;
  ProbeSource s;
  s.entries[1].flags = maniMatchEntryNoJump;
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  maniMatchEntry e1, e2;
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 1, &e1), mani_success);
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 2, &e2), mani_success);
  const uint32_t n = d.featureCount;
  std::vector<float> x(n);
  // A no-jump entry's frame: found only as the continuing frame.
  const uint32_t target = e1.firstFrame + e1.frameCount / 2;
  ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, target, x.data(), n, nullptr), mani_success);
  maniMatchQuery q{};
  q.features = x.data();
  q.normalized = 1;
  q.continuingFrame = MANI_NO_FRAME;
  maniMatchResult r;
  ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
  EXPECT_TRUE(r.frame < e1.firstFrame || r.frame >= e1.firstFrame + e1.frameCount);
  ExpectSearchMatchesScan(d, q, "nojump", 0);
  q.continuingFrame = target;
  ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
  EXPECT_EQ(r.frame, target);
  EXPECT_EQ(r.cost, 0.0f);
  // The last frame of entry 2 (not looping): excluded by an end window, but
  // not as the continuing frame, and not by a surround window about itself.
  const uint32_t last = e2.firstFrame + e2.frameCount - 1;
  ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, last, x.data(), n, nullptr), mani_success);
  q.continuingFrame = MANI_NO_FRAME;
  q.endExclusion = 0.2f;
  ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
  EXPECT_NE(r.frame, last);
  ExpectSearchMatchesScan(d, q, "end", 0);
  q.continuingFrame = last;
  q.surroundExclusion = 5.0f;
  q.historyCount = 1;
  q.history = &last;
  q.historyExclusion = 5.0f;
  ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
  EXPECT_EQ(r.frame, last);
  ExpectSearchMatchesScan(d, q, "surround", 0);
  // History: the window about a pick excludes its entry's near frames.
  q.continuingFrame = MANI_NO_FRAME;
  q.endExclusion = 0.0f;
  q.surroundExclusion = 0.0f;
  ASSERT_EQ(maniMotionDatabase_Search(&d, &q, &r), mani_success);
  uint32_t re;
  float rt, lt;
  ASSERT_EQ(maniMotionDatabase_GetFrame(&d, last, &re, &lt), mani_success);
  if (r.frame != MANI_NO_FRAME) {
    ASSERT_EQ(maniMotionDatabase_GetFrame(&d, r.frame, &re, &rt), mani_success);
    EXPECT_FALSE(re == 2u && std::fabs(rt - lt) < 5.0f);
  }
  ExpectSearchMatchesScan(d, q, "history", 0);
  // A window of exactly a frame's distance does not exclude it (closer than).
  q.historyExclusion = 1.0f / 30.0f;
  ExpectSearchMatchesScan(d, q, "history-edge", 0);
  q.historyCount = 0;
  q.history = nullptr;
  q.endExclusion = e2.end - lt;  // exactly the last frame's distance to the end
  ExpectSearchMatchesScan(d, q, "end-edge", 0);
}

TEST(MatchProbeSearch, RefusalsLeaveTheResultUnchanged) {
  ProbeDb db(16, 2, 2, 10.0f, 2);
  const maniMotionDatabase& d = db.d;
  const uint32_t n = d.featureCount;
  std::vector<float> x(n);
  ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, 1, x.data(), n, nullptr), mani_success);
  uint32_t history[MANI_MAX_MATCH_HISTORY + 1];
  for (uint32_t h = 0; h <= MANI_MAX_MATCH_HISTORY; ++h) history[h] = h % d.frameCount;
  auto base = [&]() {
    maniMatchQuery q{};
    q.features = x.data();
    q.normalized = 1;
    q.continuingFrame = MANI_NO_FRAME;
    return q;
  };
  auto refused = [&](const maniMatchQuery& q, maniResult code, int line) {
    maniMatchResult r;
    memset(&r, 0xC3, sizeof r);
    EXPECT_EQ(maniMotionDatabase_Search(&d, &q, &r), code) << "line " << line;
    EXPECT_TRUE(IsSentinel(&r, sizeof r, 0xC3)) << "line " << line;
  };
  maniMatchQuery q = base();
  q.historyCount = MANI_MAX_MATCH_HISTORY;
  q.history = history;
  maniMatchResult ok;
  EXPECT_EQ(maniMotionDatabase_Search(&d, &q, &ok), mani_success);
  q.historyCount = MANI_MAX_MATCH_HISTORY + 1;
  refused(q, mani_errorLimit, __LINE__);
  q.historyCount = 0xFFFFFFFFu;
  refused(q, mani_errorLimit, __LINE__);
  q = base();
  q.historyCount = 1;
  q.history = nullptr;
  refused(q, mani_errorInvalid, __LINE__);
  q = base();
  q.historyCount = 2;
  q.history = history;
  history[1] = d.frameCount;
  refused(q, mani_errorInvalid, __LINE__);
  history[1] = MANI_NO_FRAME;
  refused(q, mani_errorInvalid, __LINE__);
  history[1] = 1;
  q = base();
  q.features = nullptr;
  refused(q, mani_errorInvalid, __LINE__);
  q = base();
  q.continuingFrame = d.frameCount;
  refused(q, mani_errorInvalid, __LINE__);
  for (float bad : {NAN, INFINITY, -INFINITY}) {
    for (uint32_t normalized = 0; normalized < 2; ++normalized) {
      for (uint32_t j : {0u, n / 2, n - 1}) {
        std::vector<float> y = x;
        y[j] = bad;
        q = base();
        q.normalized = normalized;
        q.features = y.data();
        refused(q, mani_errorInvalid, __LINE__);
      }
    }
    q = base();
    q.transitionCost = bad;
    refused(q, mani_errorInvalid, __LINE__);
    q = base();
    q.continuingBias = bad;
    refused(q, mani_errorInvalid, __LINE__);
  }
  for (float bad : {-1.0f, -1e-30f, NAN, -INFINITY}) {
    q = base();
    q.endExclusion = bad;
    refused(q, mani_errorInvalid, __LINE__);
    q = base();
    q.surroundExclusion = bad;
    refused(q, mani_errorInvalid, __LINE__);
    q = base();
    q.historyExclusion = bad;
    refused(q, mani_errorInvalid, __LINE__);
  }
  // A raw query whose normalization is finite only in binary64 (a huge value
  // over a scale below 1): refused or searched, never a NaN cost picked.
  q = base();
  q.normalized = 0;
  std::vector<float> big(n, 3.0e38f);
  q.features = big.data();
  maniMatchResult r;
  const maniResult code = maniMotionDatabase_Search(&d, &q, &r);
  if (code == mani_success && r.frame != MANI_NO_FRAME) {
    EXPECT_FALSE(std::isnan(r.cost));
  }
  // An infinite endExclusion (>= 0) is a window over every non-looping frame.
  q = base();
  q.endExclusion = INFINITY;
  maniMatchResult inf;
  const maniResult ic = maniMotionDatabase_Search(&d, &q, &inf);
  if (ic == mani_success) ExpectSearchMatchesScan(d, q, "end-inf", 0);
}

TEST(MatchProbeSearch, DeterministicOnACopy) {
  ProbeDb db(17, 3, 2, 12.0f, 3, 1);
  File copy;
  copy.Assign(db.file.data(), db.file.size);
  maniMotionDatabase c;
  ASSERT_EQ(maniOpenMotionDatabase(copy.data(), copy.size, &c).result, mani_success);
  const uint32_t n = db.d.featureCount;
  std::vector<float> x(n);
  std::mt19937 g(5);
  for (uint32_t k = 0; k < 40; ++k) {
    for (uint32_t j = 0; j < n; ++j) x[j] = (float)(int)(g() % 2001 - 1000) / 500.0f;
    maniMatchQuery q{};
    q.features = x.data();
    q.normalized = k & 1;
    q.continuingFrame = (k & 2) ? k % db.d.frameCount : MANI_NO_FRAME;
    q.transitionCost = 0.125f;
    maniMatchResult a, b2, b3;
    memset(&a, 0, sizeof a);
    memset(&b2, 0xFF, sizeof b2);
    memset(&b3, 0x55, sizeof b3);
    ASSERT_EQ(maniMotionDatabase_Search(&db.d, &q, &a), mani_success);
    ASSERT_EQ(maniMotionDatabase_Search(&c, &q, &b2), mani_success);
    ASSERT_EQ(maniMotionDatabase_Search(&db.d, &q, &b3), mani_success);
    EXPECT_EQ(memcmp(&a, &b2, sizeof a), 0);
    EXPECT_EQ(memcmp(&a, &b3, sizeof a), 0);
  }
}

// ---------------------------------------------------------------------------
// maniAdvanceTrajectory: Holden's closed forms evaluated here in binary64.

struct V3 {
  double x, y, z;
};
struct Q4 {
  double x, y, z, w;
};
Q4 Mul(Q4 a, Q4 b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Q4 Inv(Q4 a) { return {-a.x, -a.y, -a.z, a.w}; }
V3 ToScaledAxis(Q4 q) {  // 2 log q
  if (q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};
  const double len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  if (len < 1e-12) return {2 * q.x, 2 * q.y, 2 * q.z};
  const double angle = 2.0 * std::atan2(len, q.w);
  return {q.x / len * angle, q.y / len * angle, q.z / len * angle};
}
Q4 FromScaledAxis(V3 v) {  // exp(v / 2)
  const double half = 0.5 * std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (half < 1e-12) return {v.x / 2, v.y / 2, v.z / 2, 1.0};
  const double s = std::sin(half) / (2 * half);
  return {v.x * s, v.y * s, v.z * s, std::cos(half)};
}

struct Sim {
  V3 x, v, a;
  Q4 q;
  V3 w;
};

Sim HoldenAdvance(Sim s, const maniTrajectoryGoal& g, double dt) {
  const double ln2 = std::log(2.0);
  {
    const double y = 2.0 * ln2 / ((double)g.velocityHalfLife + 1e-5);
    const double e = std::exp(-y * dt);
    double* xs[3] = {&s.x.x, &s.x.y, &s.x.z};
    double* vs[3] = {&s.v.x, &s.v.y, &s.v.z};
    double* as[3] = {&s.a.x, &s.a.y, &s.a.z};
    const double dv[3] = {g.velocity.x, g.velocity.y, g.velocity.z};
    for (int i = 0; i < 3; ++i) {
      const double j0 = *vs[i] - dv[i];
      const double j1 = *as[i] + j0 * y;
      *xs[i] = e * (-j1 / (y * y) + (-j0 - j1 * dt) / y) + j1 / (y * y) + j0 / y + dv[i] * dt + *xs[i];
      *vs[i] = e * (j0 + j1 * dt) + dv[i];
      *as[i] = e * (*as[i] - j1 * y * dt);
    }
  }
  {
    const double y = 2.0 * ln2 / ((double)g.rotationHalfLife + 1e-5);
    const double e = std::exp(-y * dt);
    const Q4 goal = {g.rotation.x, g.rotation.y, g.rotation.z, g.rotation.w};
    const V3 j0 = ToScaledAxis(Mul(s.q, Inv(goal)));
    const V3 j1 = {s.w.x + j0.x * y, s.w.y + j0.y * y, s.w.z + j0.z * y};
    const V3 turn = {e * (j0.x + j1.x * dt), e * (j0.y + j1.y * dt), e * (j0.z + j1.z * dt)};
    s.q = Mul(FromScaledAxis(turn), goal);
    s.w = {e * (s.w.x - j1.x * y * dt), e * (s.w.y - j1.y * y * dt), e * (s.w.z - j1.z * y * dt)};
  }
  return s;
}

maniTrajectory StartTrajectory() {
  maniTrajectory t{};
  t.position = {1.0f, 0.0f, -2.0f};
  t.velocity = {0.5f, 0.0f, 1.5f};
  t.acceleration = {-0.25f, 0.0f, 0.75f};
  const float c = std::cos(0.3f), s = std::sin(0.3f);
  t.rotation = {0.0f, s, 0.0f, c};
  t.angularVelocity = {0.0f, 0.8f, 0.0f};
  return t;
}

maniTrajectoryGoal StartGoal() {
  maniTrajectoryGoal g{};
  g.velocity = {-2.0f, 0.0f, 3.0f};
  const float c = std::cos(-1.1f), s = std::sin(-1.1f);
  g.rotation = {0.0f, s, 0.0f, c};
  g.velocityHalfLife = 0.2f;
  g.rotationHalfLife = 0.3f;
  return g;
}

TEST(TrajectoryProbe, AgreesWithHoldensFormulasInBinary64) {
  for (float dt : {0.0f, 1e-6f, 0.016f, 0.25f, 1.0f, 3.0f, 50.0f}) {
    for (int variant = 0; variant < 3; ++variant) {
      maniTrajectory t = StartTrajectory();
      maniTrajectoryGoal g = StartGoal();
      if (variant == 1) {
        g.velocityHalfLife = 0.0f;
        g.rotationHalfLife = 0.0f;
      }
      if (variant == 2) {
        // A turn about a tilted axis, the goal on the far side (w < 0: the
        // same rotation, the shorter arc all the same).
        const double ax = 0.6, ay = 0.0, az = 0.8, ang = 2.5;
        g.rotation = {(float)(ax * std::sin(ang / 2)), (float)(ay * std::sin(ang / 2)),
                      (float)(az * std::sin(ang / 2)), (float)std::cos(ang / 2)};
        g.rotation = {-g.rotation.x, -g.rotation.y, -g.rotation.z, -g.rotation.w};
        t.angularVelocity = {0.3f, -0.2f, 0.1f};
      }
      Sim s{{t.position.x, t.position.y, t.position.z},
            {t.velocity.x, t.velocity.y, t.velocity.z},
            {t.acceleration.x, t.acceleration.y, t.acceleration.z},
            {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w},
            {t.angularVelocity.x, t.angularVelocity.y, t.angularVelocity.z}};
      Sim want = HoldenAdvance(s, g, dt);
      ASSERT_EQ(maniAdvanceTrajectory(&t, &g, dt), mani_success) << dt;
      const double tol = 1e-4 * (1.0 + std::fabs(want.x.x) + std::fabs(want.x.z));
      SCOPED_TRACE(testing::Message() << "dt " << dt << " variant " << variant);
      EXPECT_NEAR(t.position.x, want.x.x, tol);
      EXPECT_NEAR(t.position.y, want.x.y, tol);
      EXPECT_NEAR(t.position.z, want.x.z, tol);
      EXPECT_NEAR(t.velocity.x, want.v.x, 1e-4);
      EXPECT_NEAR(t.velocity.z, want.v.z, 1e-4);
      EXPECT_NEAR(t.acceleration.x, want.a.x, 2e-3 * (1 + std::fabs(want.a.x)));
      EXPECT_NEAR(t.acceleration.z, want.a.z, 2e-3 * (1 + std::fabs(want.a.z)));
      // Rotations up to sign.
      const double dot = t.rotation.x * want.q.x + t.rotation.y * want.q.y + t.rotation.z * want.q.z +
                         t.rotation.w * want.q.w;
      EXPECT_NEAR(std::fabs(dot), 1.0, 1e-5);
      EXPECT_NEAR(t.angularVelocity.x, want.w.x, 2e-3 * (1 + std::fabs(want.w.x)));
      EXPECT_NEAR(t.angularVelocity.y, want.w.y, 2e-3 * (1 + std::fabs(want.w.y)));
      EXPECT_NEAR(t.angularVelocity.z, want.w.z, 2e-3 * (1 + std::fabs(want.w.z)));
      // Unit rotation.
      const double len = (double)t.rotation.x * t.rotation.x + (double)t.rotation.y * t.rotation.y +
                         (double)t.rotation.z * t.rotation.z + (double)t.rotation.w * t.rotation.w;
      EXPECT_NEAR(len, 1.0, 1e-5);
    }
  }
}

TEST(TrajectoryProbe, OneAdvanceIsManyAndCopiesAgree) {
  const maniTrajectoryGoal g = StartGoal();
  maniTrajectory one = StartTrajectory(), many = StartTrajectory();
  ASSERT_EQ(maniAdvanceTrajectory(&one, &g, 1.5f), mani_success);
  for (int k = 0; k < 3; ++k) ASSERT_EQ(maniAdvanceTrajectory(&many, &g, 0.5f), mani_success);
  EXPECT_NEAR(one.position.x, many.position.x, 1e-4);
  EXPECT_NEAR(one.position.z, many.position.z, 1e-4);
  EXPECT_NEAR(one.velocity.x, many.velocity.x, 1e-4);
  const double dot = one.rotation.x * many.rotation.x + one.rotation.y * many.rotation.y +
                     one.rotation.z * many.rotation.z + one.rotation.w * many.rotation.w;
  EXPECT_NEAR(std::fabs(dot), 1.0, 1e-5);
  // A memcpy'd copy advanced the same way gives the same bits.
  maniTrajectory a = StartTrajectory(), b;
  memcpy(&b, &a, sizeof a);
  ASSERT_EQ(maniAdvanceTrajectory(&a, &g, 0.7f), mani_success);
  ASSERT_EQ(maniAdvanceTrajectory(&b, &g, 0.7f), mani_success);
  EXPECT_EQ(memcmp(&a, &b, sizeof a), 0);
  // A trajectory at its goal, at rest in acceleration and turn, stays there.
  maniTrajectory rest{};
  rest.velocity = g.velocity;
  rest.rotation = g.rotation;
  ASSERT_EQ(maniAdvanceTrajectory(&rest, &g, 2.0f), mani_success);
  EXPECT_NEAR(rest.position.x, g.velocity.x * 2.0f, 1e-4);
  EXPECT_NEAR(rest.position.z, g.velocity.z * 2.0f, 1e-4);
  EXPECT_NEAR(rest.velocity.x, g.velocity.x, 1e-5);
  EXPECT_NEAR(rest.acceleration.x, 0.0f, 1e-5);
  EXPECT_NEAR(rest.angularVelocity.y, 0.0f, 1e-5);
}

TEST(TrajectoryProbe, RefusalsLeaveTheTrajectoryUnchanged) {
  const maniTrajectory start = StartTrajectory();
  const maniTrajectoryGoal good = StartGoal();
  auto refusedWith = [&](const maniTrajectory& t0, const maniTrajectoryGoal& g, float dt, int line) {
    maniTrajectory t = t0;
    EXPECT_EQ(maniAdvanceTrajectory(&t, &g, dt), mani_errorInvalid) << "line " << line;
    EXPECT_EQ(memcmp(&t, &t0, sizeof t), 0) << "line " << line;
  };
  for (float bad : {-1e-30f, -1.0f, NAN, INFINITY, -INFINITY}) refusedWith(start, good, bad, __LINE__);
  for (float bad : {NAN, INFINITY, -INFINITY}) {
    maniTrajectory t = start;
    t.position.y = bad;
    refusedWith(t, good, 0.1f, __LINE__);
    t = start;
    t.velocity.z = bad;
    refusedWith(t, good, 0.1f, __LINE__);
    t = start;
    t.acceleration.x = bad;
    refusedWith(t, good, 0.1f, __LINE__);
    t = start;
    t.angularVelocity.z = bad;
    refusedWith(t, good, 0.1f, __LINE__);
    t = start;
    t.rotation.w = bad;
    refusedWith(t, good, 0.1f, __LINE__);
    maniTrajectoryGoal g = good;
    g.velocity.x = bad;
    refusedWith(start, g, 0.1f, __LINE__);
    g = good;
    g.velocityHalfLife = bad;
    refusedWith(start, g, 0.1f, __LINE__);
    g = good;
    g.rotationHalfLife = bad;
    refusedWith(start, g, 0.1f, __LINE__);
    g = good;
    g.rotation.y = bad;
    refusedWith(start, g, 0.1f, __LINE__);
  }
  {
    maniTrajectoryGoal g = good;
    g.velocityHalfLife = -0.01f;
    refusedWith(start, g, 0.1f, __LINE__);
    g = good;
    g.rotationHalfLife = -0.01f;
    refusedWith(start, g, 0.1f, __LINE__);
  }
  // Unit within 1e-3 in squared length: 1.0005 is, 1.002 and 0.998 are not.
  auto scaled = [](maniQuat q, double squared) {
    const double k = std::sqrt(squared);
    return maniQuat{(float)(q.x * k), (float)(q.y * k), (float)(q.z * k), (float)(q.w * k)};
  };
  {
    maniTrajectoryGoal g = good;
    g.rotation = scaled(good.rotation, 1.0005);
    maniTrajectory t = start;
    EXPECT_EQ(maniAdvanceTrajectory(&t, &g, 0.1f), mani_success);
    g.rotation = scaled(good.rotation, 1.002);
    refusedWith(start, g, 0.1f, __LINE__);
    g.rotation = scaled(good.rotation, 0.998);
    refusedWith(start, g, 0.1f, __LINE__);
    g.rotation = {0, 0, 0, 0};
    refusedWith(start, g, 0.1f, __LINE__);
    maniTrajectory u = start;
    u.rotation = scaled(start.rotation, 1.0005);
    maniTrajectory v = u;
    EXPECT_EQ(maniAdvanceTrajectory(&v, &good, 0.1f), mani_success);
    u.rotation = scaled(start.rotation, 1.002);
    refusedWith(u, good, 0.1f, __LINE__);
    u.rotation = scaled(start.rotation, 0.998);
    refusedWith(u, good, 0.1f, __LINE__);
  }
  maniTrajectory t = start;
  EXPECT_EQ(maniAdvanceTrajectory(&t, nullptr, 0.1f), mani_errorInvalid);
  EXPECT_EQ(memcmp(&t, &start, sizeof t), 0);
  EXPECT_EQ(maniAdvanceTrajectory(nullptr, &good, 0.1f), mani_errorInvalid);
}

// ---------------------------------------------------------------------------
// maniMotionDatabase_ComputeTrajectoryFeatures

maniVec3 Rotate(maniQuat q, maniVec3 v, bool inverse) {
  Q4 a{q.x, q.y, q.z, q.w};
  if (inverse) a = Inv(a);
  const Q4 p{v.x, v.y, v.z, 0.0};
  const Q4 r = Mul(Mul(a, p), Inv(a));
  return {(float)r.x, (float)r.y, (float)r.z};
}
float Axis(maniVec3 v, uint32_t i) { return i == 0 ? v.x : i == 1 ? v.y : v.z; }

TEST(TrajectoryProbe, FeaturesInTheRootsFrameOnTheGroundPlane) {
  ProbeDb db(18, 2, 1, 10.0f, 2);
  const maniMotionDatabase& d = db.d;
  ASSERT_LT(d.upAxis, 3u);
  uint32_t ground[2], m = 0;
  for (uint32_t i = 0; i < 3; ++i)
    if (i != d.upAxis) ground[m++] = i;
  std::mt19937 g(9);
  auto U = [&]() { return (float)(int)(g() % 2001 - 1000) / 400.0f; };
  for (int k = 0; k < 50; ++k) {
    maniTrajectory root{}, sample{};
    auto randomRotation = [&]() {
      double x = U(), y = U(), z = U(), w = U() + 0.01;
      const double l = std::sqrt(x * x + y * y + z * z + w * w);
      return maniQuat{(float)(x / l), (float)(y / l), (float)(z / l), (float)(w / l)};
    };
    root.position = {U(), U(), U()};
    sample.position = {U(), U(), U()};
    root.rotation = randomRotation();
    sample.rotation = randomRotation();
    float p[2] = {-7, -7}, f[2] = {-7, -7};
    ASSERT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, &root, &sample, p, f), mani_success);
    const maniVec3 off = {sample.position.x - root.position.x, sample.position.y - root.position.y,
                          sample.position.z - root.position.z};
    const maniVec3 local = Rotate(root.rotation, off, true);
    maniVec3 fwd{0, 0, 0};
    if (d.forwardAxis == 0) fwd.x = 1;
    if (d.forwardAxis == 1) fwd.y = 1;
    if (d.forwardAxis == 2) fwd.z = 1;
    const maniVec3 facing = Rotate(root.rotation, Rotate(sample.rotation, fwd, false), true);
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(p[i], Axis(local, ground[i]), 1e-4 * (1 + std::fabs(Axis(local, ground[i])))) << k;
      EXPECT_NEAR(f[i], Axis(facing, ground[i]), 1e-5) << k;
    }
    // Either output may be NULL, the other the same bits.
    float p2[2], f2[2];
    ASSERT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, &root, &sample, p2, nullptr), mani_success);
    ASSERT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, &root, &sample, nullptr, f2), mani_success);
    EXPECT_EQ(memcmp(p, p2, 8), 0);
    EXPECT_EQ(memcmp(f, f2, 8), 0);
    // The root itself: offset 0, the facing its own forward's ground part.
    ASSERT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, &root, &root, p2, f2), mani_success);
    EXPECT_EQ(p2[0], 0.0f);
    EXPECT_EQ(p2[1], 0.0f);
    EXPECT_NEAR(f2[0], Axis(fwd, ground[0]), 1e-5);
    EXPECT_NEAR(f2[1], Axis(fwd, ground[1]), 1e-5);
  }
  maniTrajectory t{};
  t.rotation.w = 1;
  float p[2] = {7, 7}, f[2] = {7, 7};
  EXPECT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, &t, &t, nullptr, nullptr), mani_success);
  EXPECT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(nullptr, &t, &t, p, f), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, nullptr, &t, p, f), mani_errorInvalid);
  EXPECT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, &t, nullptr, p, f), mani_errorInvalid);
  EXPECT_TRUE(p[0] == 7.0f && p[1] == 7.0f && f[0] == 7.0f && f[1] == 7.0f);
}


// ---------------------------------------------------------------------------
// Second round: missing tracks' other item, mirrored entries, entry records
// patched, costs that overflow binary32.

TEST(MatchProbeBuild, MissingTrackNamesTheEntry) {
  Builder b;
  ProbeSource s;
  // Clip 2 rebuilt without float tracks: the channel's track is missing
  // from entry 2's clip (item the channel, other the entry).
  maniFixtureClip fc;
  maniFixtureMakeClip(&fc, 1302, &s.skel.s, MANI_FIXTURE_CLIP_ROOT_MOTION, maniLoopClamp, maniAdditiveNone);
  size_t size = 0;
  void* bytes = maniFixtureBuildClip(&fc.source, &size);
  maniFixtureFreeClip(&fc);
  ASSERT_NE(bytes, nullptr);
  File bare;
  bare.Assign(bytes, size);
  free(bytes);
  ASSERT_EQ(maniOpenClip(bare.data(), bare.size, &s.clips[2]).result, mani_success);
  s.entries[2].end = maniClip_GetDuration(&s.clips[2]);
  maniBuildResult r = maniBuildMotionDatabase(b.b, &s.src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMissingTrack);
  EXPECT_EQ(r.item, 4u);
  EXPECT_EQ(r.other, 2u);
}

TEST(MatchProbeBuild, MirroredEntries) {
  Builder b;
  ProbeSource s;
  maniMirrorNamePair pair{"curve-0", 7, "curve-zz", 8};
  maniMirrorMapSource ms{};
  ms.skeleton = &s.skel.s;
  ms.axis = 0;
  ms.namePairs = &pair;
  ms.namePairCount = 1;
  ASSERT_EQ(maniBuildMirrorMap(b.b, &ms).result, mani_success);
  File pairedFile = b.Built();
  maniMirrorMap paired;
  ASSERT_EQ(maniOpenMirrorMap(pairedFile.data(), pairedFile.size, &paired).result, mani_success);
  ms.namePairs = nullptr;
  ms.namePairCount = 0;
  ASSERT_EQ(maniBuildMirrorMap(b.b, &ms).result, mani_success);
  File plainFile = b.Built();
  maniMirrorMap plain;
  ASSERT_EQ(maniOpenMirrorMap(plainFile.data(), plainFile.size, &plain).result, mani_success);
  // Entry 2 mirrored through a map pairing "curve-0" with a track no clip
  // has: missing, item the channel, other the entry.
  s.entries[2].flags = maniMatchEntryMirrored;
  s.src.mirror = &paired;
  maniBuildResult r = maniBuildMotionDatabase(b.b, &s.src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMissingTrack);
  EXPECT_EQ(r.item, 4u);
  EXPECT_EQ(r.other, 2u);
  // Through a map pairing nothing: builds, the map's identity recorded.
  s.src.mirror = &plain;
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  EXPECT_EQ(maniMotionDatabase_GetMirrorMapIdentity(&d), maniMirrorMap_GetIdentity(&plain));
  EXPECT_NE(maniMotionDatabase_GetMirrorMapIdentity(&d), 0u);
  maniMatchEntry e;
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 2, &e), mani_success);
  EXPECT_EQ(e.flags, (uint32_t)maniMatchEntryMirrored);
  // A mirror map given without mirrored entries: the database records none.
  s.entries[2].flags = 0;
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File g = b.Built();
  maniMotionDatabase d2;
  ASSERT_EQ(maniOpenMotionDatabase(g.data(), g.size, &d2).result, mani_success);
  EXPECT_EQ(maniMotionDatabase_GetMirrorMapIdentity(&d2), 0u);
}

TEST(MatchProbeOpen, EntryAndChannelRecordsPatched) {
  ProbeDb db(19, 3, 2, 12.0f, 3, 1);
  const maniMotionDatabase& d = db.d;
  Rehash(db.file);
  auto patched = [&](uint64_t at, uint32_t value) {
    File g;
    g.Assign(db.file.data(), db.file.size);
    mcore_WriteU32(g.data() + at, value);
    Rehash(g);
    maniMotionDatabase out;
    memset(&out, 0x44, sizeof out);
    maniFileResult r = maniOpenMotionDatabase(g.data(), g.size, &out);
    if (r.result != mani_success) {
      EXPECT_TRUE(IsSentinel(&out, sizeof out, 0x44));
    }
    return r;
  };
  auto u32 = [&](uint64_t at) { return mcore_ReadU32(db.file.data() + at); };
  ASSERT_GT(d.entryCount, 1u);
  const uint64_t e1 = d.entries + 40;  // entry 1
  struct Patch {
    uint64_t at;
    uint32_t value;
  };
  const Patch patches[] = {
      {e1 + 0, d.clipCount},            // clip past the clips
      {e1 + 4, 8u},                     // unknown flag
      {e1 + 8, u32(e1 + 8) + 1},        // first frame not the running sum
      {e1 + 28, 1u},                    // reserved not 0
      {e1 + 16, 0xBF800000u},           // start -1
      {e1 + 16, 0x7FC00000u},           // start NaN
      {e1 + 24, 0x7F800000u},           // bias infinite
      {d.channels + 0, 9u},             // unknown kind
      {d.channels + 8, 0u},             // no times
      {d.channels + 8, 17u},            // too many times
      {d.channels + 12, 1u},            // first feature not the running sum
      {d.channels + 20, 0u},            // weight 0
      {d.channels + 32 + 4 * 15, 0x3F800000u},  // a time past the count not 0
  };
  for (const Patch& p : patches) {
    if (u32(p.at) == p.value) continue;
    maniFileResult r = patched(p.at, p.value);
    EXPECT_EQ(r.result, mani_errorFormat) << p.at - d.entries << " " << p.at - d.channels;
    EXPECT_EQ(r.offset, p.at) << p.at;
  }
}

TEST(MatchProbeSearch, CostsThatOverflowStillPickAFrame) {
  ProbeDb db(15, 6, 3, 20.0f, 5, 1);
  const maniMotionDatabase& d = db.d;
  const uint32_t n = d.featureCount;
  // Normalized features of 1e20: every squared difference overflows to
  // +infinity, every candidate costs +infinity; the lowest frame (or the
  // continuing one) is still the answer, not MANI_NO_FRAME.
  std::vector<float> far(n, 1e20f);
  maniMatchQuery q{};
  q.features = far.data();
  q.normalized = 1;
  q.continuingFrame = MANI_NO_FRAME;
  ExpectSearchMatchesScan(d, q, "overflow", 0);
  q.continuingFrame = d.frameCount - 1;
  ExpectSearchMatchesScan(d, q, "overflow-cont", 0);
  // A transition cost near the largest float: bias + cost overflows for
  // entries of a positive bias.
  std::vector<float> x(n);
  ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, 2, x.data(), n, nullptr), mani_success);
  q.features = x.data();
  q.continuingFrame = MANI_NO_FRAME;
  q.transitionCost = 3.4e38f;
  ExpectSearchMatchesScan(d, q, "transition-max", 0);
  q.continuingFrame = 5;
  q.continuingBias = 3.4e38f;
  ExpectSearchMatchesScan(d, q, "both-max", 0);
  q.continuingBias = -3.4e38f;
  ExpectSearchMatchesScan(d, q, "cont-min", 0);
}


// An allocator that fails its Nth allocation and counts what is live.
struct FailingHeap {
  int64_t failAt = -1;  // the allocation index to fail (-1: none)
  int64_t count = 0;
  int64_t live = 0;
};
void* FailingAllocate(void* user, size_t size, size_t alignment) {
  FailingHeap* h = static_cast<FailingHeap*>(user);
  if (h->count++ == h->failAt) return nullptr;
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  const size_t rounded = (size + alignment - 1) / alignment * alignment;
  void* p = aligned_alloc(alignment, rounded ? rounded : alignment);
  if (p) h->live++;
  return p;
}
void FailingRelease(void* user, void* memory, size_t) {
  FailingHeap* h = static_cast<FailingHeap*>(user);
  if (memory) {
    h->live--;
    free(memory);
  }
}

// Memory running out at every allocation of a build: mani_errorCapacity,
// the file built before kept, nothing leaked.
TEST(MatchProbeBuild, MemoryRunningOutAtEveryStep) {
  ProbeSource s;
  s.entries[1].flags = maniMatchEntryNoJump;
  File want;
  {
    Builder plain;
    ASSERT_EQ(maniBuildMotionDatabase(plain.b, &s.src).result, mani_success);
    want = plain.Built();
  }
  ProbeSource small;
  small.src.rate = 15.0f;  // another file than the one built after it
  int64_t steps = 0;
  for (int64_t n = 0;; ++n) {
    steps = n;
    FailingHeap h;
    maniBuilderDef def = maniDefaultBuilderDef();
    def.allocator.allocate = FailingAllocate;
    def.allocator.release = FailingRelease;
    def.allocator.user = &h;
    maniBuilder* b = nullptr;
    ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
    // A first, different database held before the failing build.
    ASSERT_EQ(maniBuildMotionDatabase(b, &small.src).result, mani_success);
    size_t heldSize = 0;
    ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &heldSize), mani_errorCapacity);
    std::vector<uint64_t> held(heldSize / 8 + 1);
    ASSERT_EQ(maniBuilder_CopyBuilt(b, held.data(), heldSize, &heldSize), mani_success);
    h.failAt = h.count + n;
    maniBuildResult r = maniBuildMotionDatabase(b, &s.src);
    const bool failed = h.count > h.failAt;
    if (failed) {
      EXPECT_EQ(r.result, mani_errorCapacity) << "allocation " << n;
      size_t size = 0;
      EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
      EXPECT_EQ(size, heldSize) << "allocation " << n;
      std::vector<uint64_t> now(size / 8 + 1);
      EXPECT_EQ(maniBuilder_CopyBuilt(b, now.data(), size, &size), mani_success);
      EXPECT_EQ(memcmp(now.data(), held.data(), heldSize), 0) << "allocation " << n;
    } else {
      EXPECT_EQ(r.result, mani_success);
      size_t size = 0;
      EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
      ASSERT_EQ(size, want.size);
      std::vector<uint64_t> now(size / 8 + 1);
      EXPECT_EQ(maniBuilder_CopyBuilt(b, now.data(), size, &size), mani_success);
      EXPECT_EQ(memcmp(now.data(), want.data(), size), 0);
    }
    maniDestroyBuilder(b);
    EXPECT_EQ(h.live, 0) << "allocation " << n;
    if (!failed || HasFailure()) break;
  }
  // The build allocates more than once: some failures were exercised.
  EXPECT_GT(steps, 1);
}


// Negative and mixed biases, no-jump spans, overlapping entries of the same
// clip, tags: the tree's bounds (least bias + transition) against the scan,
// with a continuing bias far below the transition cost.
TEST(MatchProbeSearch, NegativeBiasesAndAContinuingBiasBelowTheTransition) {
  Builder b;
  ProbeSource s;
  s.entries.clear();
  s.entries.push_back({0, maniMatchEntryLoop, 0.0f, maniClip_GetDuration(&s.clips[0]), 1, -1.0f});
  const float d1 = maniClip_GetDuration(&s.clips[1]), d2 = maniClip_GetDuration(&s.clips[2]);
  s.entries.push_back({1, 0u, 0.0f, 0.5f * d1, 2, 0.5f});
  s.entries.push_back({1, maniMatchEntryNoJump, 0.25f * d1, d1, 3, -0.25f});
  s.entries.push_back({2, 0u, 0.0f, d2, 4, -2.0f});
  s.entries.push_back({2, 0u, 0.5f * d2, d2, 12, 0.0f});
  s.entries.push_back({1, 0u, 0.0f, 0.0f, 1, -0.125f});  // one frame
  s.Refresh();
  s.src.leafSize = 1;
  s.src.rate = 45.0f;
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  const uint32_t n = d.featureCount;
  std::vector<float> x(n), q(n);
  std::mt19937_64 g(31);
  uint32_t history[4];
  for (uint32_t k = 0; k < 400; ++k) {
    const uint32_t near = (uint32_t)(g() % d.frameCount);
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, near, x.data(), n, nullptr), mani_success);
    for (uint32_t j = 0; j < n; ++j) q[j] = x[j] + (float)((int)(g() % 201) - 100) / 100.0f * (k % 3);
    maniMatchQuery query{};
    query.features = q.data();
    query.normalized = 1;
    query.continuingFrame = (uint32_t)(g() % d.frameCount);
    query.transitionCost = (float)(g() % 9) * 0.5f;
    query.continuingBias = -(float)(g() % 5) * 0.75f;
    query.requiredTags = (k & 4) ? 1 : 0;
    query.excludedTags = (k & 8) ? 8 : 0;
    query.endExclusion = (k & 16) ? 0.25f : 0.0f;
    query.surroundExclusion = (k & 32) ? 0.5f : 0.0f;
    query.historyCount = (k & 64) ? 4 : 0;
    for (uint32_t h = 0; h < 4; ++h) history[h] = (uint32_t)(g() % d.frameCount);
    query.history = query.historyCount ? history : nullptr;
    query.historyExclusion = 0.3f;
    ExpectSearchMatchesScan(d, query, "biases", k);
    if (HasFatalFailure()) return;
  }
}

// Trajectory features for each up axis: the ground plane the two other
// axes in order, the forward axis the database's.
TEST(TrajectoryProbe, FeaturesOnEachGroundPlane) {
  const uint32_t axes[3][2] = {{2, 0}, {0, 1}, {1, 0}};
  uint32_t built = 0;
  for (const auto& a : axes) {
    Builder b;
    ProbeSource s;
    s.src.upAxis = a[0];
    s.src.forwardAxis = a[1];
    maniBuildResult br = maniBuildMotionDatabase(b.b, &s.src);
    if (br.result != mani_success) {
      // A ground plane the fixture clips never move on: a channel without
      // spread is the only refusal allowed here.
      EXPECT_EQ(br.reason, (uint32_t)maniBuildReasonSpread) << a[0];
      continue;
    }
    ++built;
    File f = b.Built();
    maniMotionDatabase d;
    ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
    EXPECT_EQ(d.upAxis, a[0]);
    EXPECT_EQ(d.forwardAxis, a[1]);
    uint32_t ground[2], m = 0;
    for (uint32_t i = 0; i < 3; ++i)
      if (i != a[0]) ground[m++] = i;
    maniTrajectory root{}, sample{};
    root.position = {1.0f, 2.0f, 3.0f};
    sample.position = {1.5f, -1.0f, 7.0f};
    // The root turned a quarter about the up axis.
    const float h = std::sqrt(0.5f);
    maniQuat quarter{0, 0, 0, h};
    if (a[0] == 0) quarter.x = h;
    if (a[0] == 1) quarter.y = h;
    if (a[0] == 2) quarter.z = h;
    root.rotation = quarter;
    sample.rotation = quarter;
    float p[2], fc[2];
    ASSERT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, &root, &sample, p, fc), mani_success);
    const maniVec3 off = {0.5f, -3.0f, 4.0f};
    const maniVec3 local = Rotate(root.rotation, off, true);
    for (int i = 0; i < 2; ++i) EXPECT_NEAR(p[i], Axis(local, ground[i]), 1e-5) << a[0] << " " << i;
    // The same turn for both: the facing is the forward axis itself.
    for (int i = 0; i < 2; ++i) EXPECT_NEAR(fc[i], ground[i] == a[1] ? 1.0f : 0.0f, 1e-6) << a[0] << " " << i;
  }
  EXPECT_EQ(built, 3u);
}

TEST(MatchProbeOpen, SectionTagsOfOtherFormats) {
  ProbeDb db(15, 6, 3, 20.0f, 5, 1);
  const uint32_t sections = mcore_ReadU32(db.file.data() + 24);
  ASSERT_GE(sections, 10u);
  for (uint32_t i = 0; i < sections; ++i) {
    const uint64_t at = 64 + 24ull * i;
    const uint32_t tag = mcore_ReadU32(db.file.data() + at);
    File g;
    g.Assign(db.file.data(), db.file.size);
    // A tag a later format introduced.
    mcore_WriteU32(g.data() + at, ((MCORE_TAG_VERSION(tag) + 1) << 16) | (tag & 0xFFFFu));
    Rehash(g);
    maniMotionDatabase out;
    memset(&out, 0x29, sizeof out);
    EXPECT_EQ(maniOpenMotionDatabase(g.data(), g.size, &out).result, mani_errorVersion) << i;
    EXPECT_TRUE(IsSentinel(&out, sizeof out, 0x29));
    // A tag of this format's that is not this section's.
    mcore_WriteU32(g.data() + at, (tag & 0xFFFF0000u) | ((tag + 20) & 0xFFFFu));
    Rehash(g);
    maniFileResult r = maniOpenMotionDatabase(g.data(), g.size, &out);
    EXPECT_EQ(r.result, mani_errorFormat) << i;
    EXPECT_EQ(r.offset, at) << i;
  }
}


// A float track channel's features against the clip's own samples at the
// times the build's paragraph names (clamped to the entry's span, wrapped
// for a looping entry), and the normalization against Holden's formula
// computed here from those samples in binary64.
TEST(MatchProbeBuild, FloatTrackFeaturesAndNormalizationFromTheClips) {
  Builder b;
  ProbeSource s;
  static const float times[3] = {-0.4f, 0.0f, 0.3f};
  s.channels.assign(1, {maniMatchChannelFloatTrack, 0, times, 3, 2.0f, "curve-0", 7});
  const float d1 = maniClip_GetDuration(&s.clips[1]);
  s.entries[1].start = 0.25f * d1;
  s.entries[1].end = 0.75f * d1;
  s.Refresh();
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  ASSERT_EQ(d.featureCount, 3u);
  std::vector<std::vector<double>> raw(d.frameCount, std::vector<double>(3));
  for (uint32_t fr = 0; fr < d.frameCount; ++fr) {
    uint32_t ei;
    float t;
    ASSERT_EQ(maniMotionDatabase_GetFrame(&d, fr, &ei, &t), mani_success);
    maniMatchEntry e;
    ASSERT_EQ(maniMotionDatabase_GetEntry(&d, ei, &e), mani_success);
    const maniClip& clip = s.clips[e.clip];
    const uint32_t track = maniClip_FindFloatTrack(&clip, "curve-0", 7);
    ASSERT_NE(track, MANI_NO_TRACK);
    const uint32_t trackCount = maniClip_GetFloatTrackCount(&clip);
    std::vector<float> values(trackCount);
    for (uint32_t k = 0; k < 3; ++k) {
      double at = (double)t + times[k];
      if (e.flags & maniMatchEntryLoop) {
        const double dur = maniClip_GetDuration(&clip);
        at = std::fmod(at, dur);
        if (at < 0) at += dur;
      } else {
        at = std::min<double>(std::max<double>(at, e.start), e.end);
      }
      ASSERT_EQ(maniClip_SampleFloats(&clip, (float)at, values.data(), trackCount, nullptr), mani_success);
      raw[fr][k] = values[track];
    }
  }
  double offset[3], sigma[3];
  for (uint32_t j = 0; j < 3; ++j) {
    double sum = 0;
    for (uint32_t fr = 0; fr < d.frameCount; ++fr) sum += raw[fr][j];
    offset[j] = sum / d.frameCount;
    double sq = 0;
    for (uint32_t fr = 0; fr < d.frameCount; ++fr) sq += (raw[fr][j] - offset[j]) * (raw[fr][j] - offset[j]);
    sigma[j] = std::sqrt(sq / d.frameCount);
  }
  const double scale = (sigma[0] + sigma[1] + sigma[2]) / 3.0 / 2.0;
  float off[3], sc[3];
  ASSERT_EQ(maniMotionDatabase_GetNormalization(&d, off, sc, 3, nullptr), mani_success);
  for (uint32_t j = 0; j < 3; ++j) {
    EXPECT_NEAR(off[j], offset[j], 1e-4 * (1 + std::fabs(offset[j]))) << j;
    EXPECT_NEAR(sc[j], scale, 1e-4 * scale) << j;
  }
  float x[3];
  for (uint32_t fr = 0; fr < d.frameCount; ++fr) {
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, fr, x, 3, nullptr), mani_success);
    for (uint32_t j = 0; j < 3; ++j) {
      const double want = (raw[fr][j] - offset[j]) / scale;
      EXPECT_NEAR(x[j], want, 1e-3 * (1 + std::fabs(want))) << "frame " << fr << " feature " << j;
    }
    if (HasFailure()) return;
  }
}


// Long and extreme advances: any finite seconds >= 0 is in range, so the
// result is the settled trajectory (finite, unit), as many shorter
// advances would leave it, never a NaN from 0 x infinity.
TEST(TrajectoryProbe, ExtremeAdvancesStayFinite) {
  for (float dt : {1e6f, 1e30f, 3.0e38f, std::numeric_limits<float>::max()}) {
    for (int variant = 0; variant < 3; ++variant) {
      maniTrajectory t = StartTrajectory();
      maniTrajectoryGoal g = StartGoal();
      g.velocity = {0.0f, 0.0f, 0.0f};  // so the position settles, finite
      if (variant == 1) {
        g.velocityHalfLife = 0.0f;
        g.rotationHalfLife = 0.0f;
      }
      if (variant == 2) {
        t.velocity = {40.0f, -30.0f, 25.0f};
        t.acceleration = {500.0f, 0.0f, -500.0f};
        t.angularVelocity = {20.0f, -35.0f, 10.0f};
        g.velocityHalfLife = 5.0f;
        g.rotationHalfLife = 5.0f;
      }
      SCOPED_TRACE(testing::Message() << "dt " << dt << " variant " << variant);
      ASSERT_EQ(maniAdvanceTrajectory(&t, &g, dt), mani_success);
      const float* v = &t.position.x;
      for (int i = 0; i < 16; ++i) EXPECT_TRUE(std::isfinite(v[i])) << i;
      EXPECT_NEAR(t.velocity.x, 0.0f, 1e-5);
      EXPECT_NEAR(t.acceleration.z, 0.0f, 1e-5);
      EXPECT_NEAR(t.angularVelocity.y, 0.0f, 1e-5);
      const double dot = t.rotation.x * g.rotation.x + t.rotation.y * g.rotation.y + t.rotation.z * g.rotation.z +
                         t.rotation.w * g.rotation.w;
      EXPECT_NEAR(std::fabs(dot), 1.0, 1e-5);
      // A further advance from there is accepted (the trajectory in range).
      maniTrajectory u = t;
      EXPECT_EQ(maniAdvanceTrajectory(&u, &g, 0.5f), mani_success);
    }
  }
  // Half a turn apart: the shorter arc is either way, the result unit.
  maniTrajectory t = StartTrajectory();
  maniTrajectoryGoal g = StartGoal();
  t.rotation = {0, 0, 0, 1};
  t.angularVelocity = {0, 0, 0};
  g.rotation = {0, 1, 0, 0};
  ASSERT_EQ(maniAdvanceTrajectory(&t, &g, 0.1f), mani_success);
  const double len = (double)t.rotation.x * t.rotation.x + (double)t.rotation.y * t.rotation.y +
                     (double)t.rotation.z * t.rotation.z + (double)t.rotation.w * t.rotation.w;
  EXPECT_NEAR(len, 1.0, 1e-5);
  const float* v = &t.position.x;
  for (int i = 0; i < 16; ++i) EXPECT_TRUE(std::isfinite(v[i])) << i;
}


// A call back into the builder from its allocator's hook: mani_errorBusy,
// counted as a misuse; the outer build goes on and succeeds.
struct ReentrantHeap {
  maniBuilder* builder = nullptr;
  const maniMotionDatabaseSource* source = nullptr;
  int calls = 0;
  maniResult inner = mani_success;
};
void* ReentrantAllocate(void* user, size_t size, size_t alignment) {
  ReentrantHeap* h = static_cast<ReentrantHeap*>(user);
  if (h->builder != nullptr && h->calls++ == 0) h->inner = maniBuildMotionDatabase(h->builder, h->source).result;
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  const size_t rounded = (size + alignment - 1) / alignment * alignment;
  return aligned_alloc(alignment, rounded ? rounded : alignment);
}
void ReentrantRelease(void*, void* memory, size_t) { free(memory); }

TEST(MatchProbeBuild, CalledBackFromTheAllocatorIsBusy) {
  ProbeSource s;
  ReentrantHeap h;
  maniBuilderDef def = maniDefaultBuilderDef();
  def.allocator.allocate = ReentrantAllocate;
  def.allocator.release = ReentrantRelease;
  def.allocator.user = &h;
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  const uint32_t misuse = maniBuilder_GetMisuse(b);
  h.builder = b;
  h.source = &s.src;
  EXPECT_EQ(maniBuildMotionDatabase(b, &s.src).result, mani_success);
  EXPECT_GE(h.calls, 1);
  EXPECT_EQ(h.inner, mani_errorBusy);
  EXPECT_EQ(maniBuilder_GetMisuse(b), misuse + 1);
  h.builder = nullptr;
  maniDestroyBuilder(b);
}

// The identity is the hash of the sections (lib/core/container.h's rule):
// computed here from the bytes.
TEST(MatchProbeOpen, IdentityIsTheHashOfTheSections) {
  ProbeDb db(15, 6, 3, 20.0f, 5, 1);
  const uint64_t want =
      maniHash64(MCORE_IDENTITY_SEED ^ (uint32_t)mcore_kindMotionDatabase, db.file.data() + 64, (int64_t)db.file.size - 64);
  EXPECT_EQ(maniMotionDatabase_GetIdentity(&db.d), want);
  EXPECT_EQ(db.d.identity, want);
  // One feature bit changed without rehashing: the identity check refuses.
  File g;
  g.Assign(db.file.data(), db.file.size);
  g.data()[db.d.features + 5] ^= 1;
  maniMotionDatabase out;
  maniFileResult r = maniOpenMotionDatabase(g.data(), g.size, &out);
  EXPECT_EQ(r.result, mani_errorFormat);
}


// A track length far past the bound on one channel: that channel's limit
// (never a read of the name, never the 4 GiB count of all names).
TEST(MatchProbeBuild, HugeTrackLengthIsTheChannelsLimit) {
  Builder b;
  ProbeSource s;
  s.channels[4].trackLength = SIZE_MAX;
  EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonChannel, 4);
  s.channels[4].trackLength = (size_t)MANI_MAX_NAME_BYTES + 1;
  EXPECT_BUILD(b, s.src, mani_errorLimit, maniBuildReasonChannel, 4);
}

// -0.0 windows are not negative times; subnormal ones are windows.
TEST(MatchProbeSearch, NegativeZeroWindowsAccepted) {
  ProbeDb db(15, 6, 3, 20.0f, 5, 1);
  std::vector<float> x(db.d.featureCount);
  ASSERT_EQ(maniMotionDatabase_GetFeatures(&db.d, 3, x.data(), db.d.featureCount, nullptr), mani_success);
  maniMatchQuery q{};
  q.features = x.data();
  q.normalized = 1;
  q.continuingFrame = MANI_NO_FRAME;
  q.endExclusion = -0.0f;
  q.surroundExclusion = -0.0f;
  q.historyExclusion = -0.0f;
  ExpectSearchMatchesScan(db.d, q, "negative-zero", 0);
  q.endExclusion = 1e-45f;
  q.continuingFrame = 3;
  q.surroundExclusion = 1e-45f;
  ExpectSearchMatchesScan(db.d, q, "subnormal", 0);
}


// A mirrored entry's root moves reflected: across the plane normal to x
// (y up, z forward, the ground plane x z), its trajectory positions and
// facings are the plain entry's with x negated, time by time.
TEST(MatchProbeBuild, MirroredTrajectoryIsReflected) {
  Builder b;
  ProbeSource s;
  maniMirrorMapSource ms{};
  ms.skeleton = &s.skel.s;
  ms.axis = 0;
  ASSERT_EQ(maniBuildMirrorMap(b.b, &ms).result, mani_success);
  File mapFile = b.Built();
  maniMirrorMap map;
  ASSERT_EQ(maniOpenMirrorMap(mapFile.data(), mapFile.size, &map).result, mani_success);
  s.entries.push_back(s.entries[1]);
  s.entries[3].flags = maniMatchEntryMirrored;
  s.Refresh();
  s.src.mirror = &map;
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  maniMatchEntry plain, mirrored;
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 1, &plain), mani_success);
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 3, &mirrored), mani_success);
  ASSERT_EQ(plain.frameCount, mirrored.frameCount);
  const uint32_t n = d.featureCount;
  std::vector<float> off(n), sc(n), a(n), m(n);
  ASSERT_EQ(maniMotionDatabase_GetNormalization(&d, off.data(), sc.data(), n, nullptr), mani_success);
  for (uint32_t c = 2; c <= 3; ++c) {
    maniMatchChannel ch;
    ASSERT_EQ(maniMotionDatabase_GetChannel(&d, c, &ch), mani_success);
    for (uint32_t k = 0; k < plain.frameCount; ++k) {
      ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, plain.firstFrame + k, a.data(), n, nullptr), mani_success);
      ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, mirrored.firstFrame + k, m.data(), n, nullptr), mani_success);
      for (uint32_t j = 0; j < ch.featureCount; ++j) {
        const uint32_t at = ch.firstFeature + j;
        const double rawPlain = (double)a[at] * sc[at] + off[at];
        const double rawMirrored = (double)m[at] * sc[at] + off[at];
        const double want = (j % 2 == 0) ? -rawPlain : rawPlain;  // x first, then z
        EXPECT_NEAR(rawMirrored, want, 1e-4 * (1 + std::fabs(want)) + 1e-5 * sc[at])
            << "channel " << c << " frame " << k << " feature " << j;
      }
      if (HasFailure()) return;
    }
  }
}

// Leaves of 1 and 256 (one leaf for the whole tree): the same answers as the
// scan.
TEST(MatchProbeSearch, LeafSizesAtTheirBounds) {
  for (uint32_t leaf : {1u, 2u, 255u, 256u}) {
    Builder b;
    ProbeSource s;
    s.src.leafSize = leaf;
    ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
    File f = b.Built();
    maniMotionDatabase d;
    ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
    EXPECT_EQ(d.leafSize, leaf);
    const uint32_t n = d.featureCount;
    std::vector<float> q(n);
    std::mt19937 g(leaf);
    for (uint32_t k = 0; k < 60; ++k) {
      for (uint32_t j = 0; j < n; ++j) q[j] = (float)((int)(g() % 401) - 200) / 100.0f;
      maniMatchQuery query{};
      query.features = q.data();
      query.normalized = 1;
      query.continuingFrame = (k & 1) ? (uint32_t)(g() % d.frameCount) : MANI_NO_FRAME;
      query.transitionCost = 0.5f;
      query.continuingBias = (k & 2) ? -0.5f : 0.0f;
      ExpectSearchMatchesScan(d, query, "leaf", leaf * 1000 + k);
      if (HasFatalFailure()) return;
    }
  }
}


// Frame counts floor((end - start) rate) + 1 in binary64 (docs/formats.md):
// 0.7f is 0.699999988..., so 0 to 0.7f at 10 per second is floor(6.99999988)
// + 1 = 7 frames and at 30 per second floor(20.9999996) + 1 = 21 (a binary32
// product would round to 7 and 21 and give one frame more, past the span).
TEST(MatchProbeBuild, FrameCountsInBinary64) {
  for (float rate : {10.0f, 30.0f}) {
    Builder b;
    ProbeSource s;
    ASSERT_GE(maniClip_GetDuration(&s.clips[1]), 0.7f);
    s.entries[1] = {1, 0u, 0.0f, 0.7f, 0, 0.0f};
    s.Refresh();
    s.src.rate = rate;
    ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
    File f = b.Built();
    maniMotionDatabase d;
    ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
    maniMatchEntry e;
    ASSERT_EQ(maniMotionDatabase_GetEntry(&d, 1, &e), mani_success);
    const double product = ((double)0.7f - 0.0) * (double)rate;
    const uint32_t want = (uint32_t)std::floor(product) + 1;
    EXPECT_EQ(want, rate == 10.0f ? 7u : 21u);
    EXPECT_EQ(e.frameCount, want) << rate;
    // Every frame within the span.
    for (uint32_t k = 0; k < e.frameCount; ++k) {
      uint32_t ei;
      float t;
      ASSERT_EQ(maniMotionDatabase_GetFrame(&d, e.firstFrame + k, &ei, &t), mani_success);
      EXPECT_LE(t, e.end) << k;
    }
  }
}


// A view whose section offsets were moved past its file (a caller's
// corrupted copy): the accessors and the search refuse or answer, never
// read past the file (ASan).
TEST(MatchProbeAccess, OffsetsPastTheFileNeverRead) {
  ProbeDb db(15, 6, 3, 20.0f, 5, 1);
  const maniMotionDatabase& d = db.d;
  uint64_t maniMotionDatabase::*fields[] = {&maniMotionDatabase::clips,         &maniMotionDatabase::channels,
                                             &maniMotionDatabase::names,         &maniMotionDatabase::entries,
                                             &maniMotionDatabase::normalization, &maniMotionDatabase::features,
                                             &maniMotionDatabase::order,         &maniMotionDatabase::nodes,
                                             &maniMotionDatabase::boxes};
  const uint32_t n = d.featureCount;
  std::vector<float> x(n), off(n), sc(n), q(n, 0.25f);
  for (auto field : fields) {
    for (uint64_t past : {d.size, d.size + 4096, d.size * 8, (uint64_t)1 << 40}) {
      maniMotionDatabase v = d;
      v.*field = past;
      maniMatchChannel ch;
      maniMatchEntry e;
      uint32_t entry, count;
      float t;
      (void)maniMotionDatabase_GetClipIdentity(&v, d.clipCount - 1);
      (void)maniMotionDatabase_GetChannelName(&v, d.channelCount - 1, nullptr);
      maniResult r[6];
      r[0] = maniMotionDatabase_GetChannel(&v, d.channelCount - 1, &ch);
      r[1] = maniMotionDatabase_GetEntry(&v, d.entryCount - 1, &e);
      r[2] = maniMotionDatabase_GetFrame(&v, d.frameCount - 1, &entry, &t);
      r[3] = maniMotionDatabase_GetFeatures(&v, d.frameCount - 1, x.data(), n, &count);
      r[4] = maniMotionDatabase_GetNormalization(&v, off.data(), sc.data(), n, &count);
      maniMatchQuery query{};
      query.features = q.data();
      query.continuingFrame = d.frameCount - 1;
      maniMatchResult res;
      r[5] = maniMotionDatabase_Search(&v, &query, &res);
      for (maniResult one : r) EXPECT_TRUE(one == mani_success || one == mani_errorInvalid);
    }
  }
}


// Capacities with one array given: a short one is refused untouched, the
// count written.
TEST(MatchProbeAccess, OneArrayShortOrEmpty) {
  ProbeDb db(15, 6, 3, 20.0f, 5, 1);
  const uint32_t n = db.d.featureCount;
  std::vector<float> a(n, 4.0f);
  uint32_t count = 0;
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&db.d, nullptr, a.data(), n - 1, &count), mani_errorCapacity);
  EXPECT_EQ(count, n);
  for (float v : a) EXPECT_EQ(v, 4.0f);
  count = 0;
  EXPECT_EQ(maniMotionDatabase_GetNormalization(&db.d, a.data(), nullptr, 0, &count), mani_errorCapacity);
  EXPECT_EQ(count, n);
  for (float v : a) EXPECT_EQ(v, 4.0f);
  count = 0;
  EXPECT_EQ(maniMotionDatabase_GetFeatures(&db.d, 0, a.data(), 0, &count), mani_errorCapacity);
  EXPECT_EQ(count, n);
  for (float v : a) EXPECT_EQ(v, 4.0f);
}

// The same channel twice: allowed by the reference, its features twice.
TEST(MatchProbeBuild, DuplicateChannelsGiveEqualFeatures) {
  Builder b;
  ProbeSource s;
  s.channels.push_back(s.channels[2]);
  s.Refresh();
  ASSERT_EQ(maniBuildMotionDatabase(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  maniMatchChannel c2, c5;
  ASSERT_EQ(maniMotionDatabase_GetChannel(&d, 2, &c2), mani_success);
  ASSERT_EQ(maniMotionDatabase_GetChannel(&d, 5, &c5), mani_success);
  ASSERT_EQ(c2.featureCount, c5.featureCount);
  std::vector<float> x(d.featureCount), off(d.featureCount), sc(d.featureCount);
  ASSERT_EQ(maniMotionDatabase_GetNormalization(&d, off.data(), sc.data(), d.featureCount, nullptr), mani_success);
  for (uint32_t j = 0; j < c2.featureCount; ++j) {
    EXPECT_EQ(off[c2.firstFeature + j], off[c5.firstFeature + j]);
    EXPECT_EQ(sc[c2.firstFeature + j], sc[c5.firstFeature + j]);
  }
  for (uint32_t fr = 0; fr < d.frameCount; fr += 7) {
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, fr, x.data(), d.featureCount, nullptr), mani_success);
    for (uint32_t j = 0; j < c2.featureCount; ++j) EXPECT_EQ(x[c2.firstFeature + j], x[c5.firstFeature + j]);
  }
}


// The database's trajectory features are the values ComputeTrajectoryFeatures
// gives for the clip's own root motion (maniClip_GetRootMotion from the
// frame's time to each channel time, clamped to the span, unwrapped for a
// loop): the query side and the build side measure alike.
TEST(TrajectoryProbe, DatabaseTrajectoriesAreTheClipsRootMotion) {
  Builder b;
  ProbeSource s;
  static const float times[2] = {-0.3f, 0.4f};
  s.channels.clear();
  s.channels.push_back({maniMatchChannelTrajectoryPosition, 0, times, 2, 1.0f, nullptr, 0});
  s.channels.push_back({maniMatchChannelTrajectoryFacing, 0, times, 2, 1.0f, nullptr, 0});
  const float d1 = maniClip_GetDuration(&s.clips[1]);
  s.entries[1].start = 0.2f * d1;
  s.entries[1].end = 0.8f * d1;
  s.Refresh();
  maniBuildResult br = maniBuildMotionDatabase(b.b, &s.src);
  ASSERT_EQ(br.result, mani_success) << br.reason << " " << br.item;
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  ASSERT_EQ(d.featureCount, 8u);
  float off[8], sc[8], x[8];
  ASSERT_EQ(maniMotionDatabase_GetNormalization(&d, off, sc, 8, nullptr), mani_success);
  maniTrajectory root{};
  root.rotation.w = 1.0f;
  for (uint32_t fr = 0; fr < d.frameCount; ++fr) {
    uint32_t ei;
    float t;
    ASSERT_EQ(maniMotionDatabase_GetFrame(&d, fr, &ei, &t), mani_success);
    maniMatchEntry e;
    ASSERT_EQ(maniMotionDatabase_GetEntry(&d, ei, &e), mani_success);
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, fr, x, 8, nullptr), mani_success);
    for (uint32_t k = 0; k < 2; ++k) {
      double at = (double)t + times[k];
      if (!(e.flags & maniMatchEntryLoop)) at = std::min<double>(std::max<double>(at, e.start), e.end);
      maniRootMove move;
      ASSERT_EQ(maniClip_GetRootMotion(&s.clips[e.clip], t, (float)(at - t), &move), mani_success);
      maniTrajectory sample{};
      sample.position = move.translation;
      sample.rotation = move.rotation;
      float p[2], fc[2];
      ASSERT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(&d, &root, &sample, p, fc), mani_success);
      for (uint32_t i = 0; i < 2; ++i) {
        const uint32_t jp = 2 * k + i, jf = 4 + 2 * k + i;
        const double rawP = (double)x[jp] * sc[jp] + off[jp], rawF = (double)x[jf] * sc[jf] + off[jf];
        EXPECT_NEAR(rawP, p[i], 1e-4 * (1 + std::fabs(p[i])) + 1e-5 * sc[jp]) << "frame " << fr << " time " << k;
        EXPECT_NEAR(rawF, fc[i], 1e-4 + 1e-5 * sc[jf]) << "frame " << fr << " time " << k;
      }
    }
    if (HasFailure()) return;
  }
}


// Exactly MANI_MAX_MATCH_ENTRIES entries (one frame each) build; the frames
// follow entry by entry.
TEST(MatchProbeBuild, TheMostEntriesBuild) {
  Builder b;
  ProbeSource s;
  const float d1 = maniClip_GetDuration(&s.clips[1]);
  s.entries.resize(MANI_MAX_MATCH_ENTRIES);
  for (uint32_t i = 0; i < MANI_MAX_MATCH_ENTRIES; ++i) {
    const float at = d1 * (float)(i % 97) / 97.0f;
    s.entries[i] = {1, 0u, at, at, (uint64_t)(i & 3), 0.0f};
  }
  // One-frame entries clamp every channel time onto the frame itself: the
  // velocity and the trajectory never vary (spread refusals), so only the
  // bone position and the float track here.
  s.channels = {s.channels[0], s.channels[4]};
  s.Refresh();
  maniBuildResult r = maniBuildMotionDatabase(b.b, &s.src);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  File f = b.Built();
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(f.data(), f.size, &d).result, mani_success);
  EXPECT_EQ(d.entryCount, MANI_MAX_MATCH_ENTRIES);
  EXPECT_EQ(d.frameCount, MANI_MAX_MATCH_ENTRIES);
  maniMatchEntry e;
  ASSERT_EQ(maniMotionDatabase_GetEntry(&d, MANI_MAX_MATCH_ENTRIES - 1, &e), mani_success);
  EXPECT_EQ(e.firstFrame, MANI_MAX_MATCH_ENTRIES - 1);
  EXPECT_EQ(e.frameCount, 1u);
  uint32_t ei;
  float t;
  ASSERT_EQ(maniMotionDatabase_GetFrame(&d, 40000, &ei, &t), mani_success);
  EXPECT_EQ(ei, 40000u);
  EXPECT_EQ(t, d1 * (float)(40000 % 97) / 97.0f);
  // 97 distinct poses repeated: ties everywhere, the lowest frame wins.
  std::vector<float> x(d.featureCount);
  for (uint32_t k = 0; k < 4; ++k) {
    ASSERT_EQ(maniMotionDatabase_GetFeatures(&d, 50000 + 13 * k, x.data(), d.featureCount, nullptr), mani_success);
    maniMatchQuery q{};
    q.features = x.data();
    q.normalized = 1;
    q.continuingFrame = (k & 1) ? 60000 + k : MANI_NO_FRAME;
    q.requiredTags = k & 2;
    ExpectSearchMatchesScan(d, q, "most-entries", k);
  }
}


// A position past binary32's range (a goal velocity near FLT_MAX for 10 s):
// the reference lists no refusal for it; either the trajectory is refused
// unchanged or it is left finite, never infinite after a success.
TEST(TrajectoryProbe, OverflowingPositionNeverReturnedAsSuccess) {
  maniTrajectory t = StartTrajectory();
  const maniTrajectory before = t;
  maniTrajectoryGoal g = StartGoal();
  g.velocity = {3.0e38f, 0.0f, -3.0e38f};
  const maniResult r = maniAdvanceTrajectory(&t, &g, 10.0f);
  if (r == mani_success) {
    const float* v = &t.position.x;
    for (int i = 0; i < 16; ++i) EXPECT_TRUE(std::isfinite(v[i])) << i;
  } else {
    EXPECT_EQ(r, mani_errorInvalid);
    EXPECT_EQ(memcmp(&t, &before, sizeof t), 0);
  }
}

}  // namespace
