// Probes of learnedtrain.h written from its header and the reference
// (maul-anim-api.txt, "learnedtrain.h") alone, without the implementation:
// one test per claim. A claim the code breaks is DISABLED_ with the sentence
// it breaks quoted above it.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/hash.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedbuild.h"
#include "maul/anim/learnedtrain.h"
#include "maul/anim/matchbuild.h"

namespace {

// -- The small source (learned_train_test.cc's setup) --------------------------

// A seeded 12-bone skeleton, two clips with root motion and tracks, and a
// small database of them (bone 11 now, the trajectory 1 s ahead; one entry
// a clip, tags 1 and 2).
struct TrainData {
  File skelFile;
  maniSkeleton skel{};
  std::vector<File> clipFiles;
  std::vector<maniClip> clips;
  File dbFile;
  maniMotionDatabase db{};
  bool ok = false;

  explicit TrainData(uint64_t seed, float rate = 30.0f) {
    maniSkeletonSource ss = maniFixtureMakeSkeletonSource(seed, 12, maniFixtureRandom);
    size_t size = 0;
    void* bytes = maniFixtureBuildSkeleton(&ss, &size);
    maniFixtureFreeSkeletonSource(&ss);
    if (!bytes) return;
    skelFile.Assign(bytes, size);
    free(bytes);
    if (maniOpenSkeleton(skelFile.data(), skelFile.size, &skel).result != mani_success) return;
    clipFiles.resize(2);
    clips.resize(2);
    for (uint32_t i = 0; i < 2; ++i) {
      maniFixtureClip fc;
      maniFixtureMakeClip(&fc, seed * 7919u + i, &skel, MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_TRACKS,
                          maniLoopClamp, maniAdditiveNone);
      void* cb = maniFixtureBuildClip(&fc.source, &size);
      maniFixtureFreeClip(&fc);
      if (!cb) return;
      clipFiles[i].Assign(cb, size);
      free(cb);
      if (maniOpenClip(clipFiles[i].data(), clipFiles[i].size, &clips[i]).result != mani_success) return;
    }
    static const float now[1] = {0.0f};
    static const float ahead[1] = {1.0f};
    maniMatchChannelSource ch[2];
    memset(ch, 0, sizeof ch);
    ch[0].kind = maniMatchChannelBonePosition, ch[0].bone = 11, ch[0].times = now, ch[0].timeCount = 1, ch[0].weight = 1;
    ch[1].kind = maniMatchChannelTrajectoryPosition, ch[1].times = ahead, ch[1].timeCount = 1, ch[1].weight = 1;
    maniMatchEntrySource entries[2];
    memset(entries, 0, sizeof entries);
    for (uint32_t i = 0; i < 2; ++i) {
      entries[i].clip = i;
      entries[i].start = 0;
      entries[i].end = maniClip_GetDuration(&clips[i]);
      entries[i].tags = 1u << i;
    }
    maniMotionDatabaseSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = &skel;
    src.clips = clips.data();
    src.clipCount = 2;
    src.channels = ch;
    src.channelCount = 2;
    src.entries = entries;
    src.entryCount = 2;
    src.rate = rate;
    src.upAxis = 1;
    src.forwardAxis = 2;
    src.leafSize = 8;
    Builder b;
    if (maniBuildMotionDatabase(b.b, &src).result != mani_success) return;
    dbFile = b.Built();
    ok = maniOpenMotionDatabase(dbFile.data(), dbFile.size, &db).result == mani_success;
  }
};

// Small networks: stage 1 five iterations, stage 2 four, each Projector three.
maniLearnedTrainerOptions SmallOptions() {
  maniLearnedTrainerOptions o = maniDefaultLearnedTrainerOptions();
  o.latentCount = 4;
  o.compressorWidth = 8;
  o.decompressorWidth = 8;
  o.stepperWidth = 8;
  o.projectorWidth = 8;
  o.batchSize = 8;
  o.stepperWindow = 4;
  o.decompressorIterations = 5;
  o.stepperIterations = 4;
  o.projectorIterations = 3;
  o.decayInterval = 2;
  return o;
}
constexpr uint64_t kTotal = 5 + 4 + 3 * 2;

const maniLearnedNameSource kTracks[1] = {{"curve-0", 7}};
const maniLearnedNameSource kEvents[2] = {{"event-0", 7}, {"event-1", 7}};
const maniLearnedTrainerProjector kProjectors[2] = {{0, 0}, {1, 2}};

struct Source {
  maniLearnedTrainerSource s;
  explicit Source(TrainData& d) {
    memset(&s, 0, sizeof s);
    s.skeleton = &d.skel;
    s.database = &d.db;
    s.clips = d.clips.data();
    s.clipCount = 2;
    s.projectors = kProjectors;
    s.projectorCount = 2;
    s.floatTracks = kTracks;
    s.floatTrackCount = 1;
    s.events = kEvents;
    s.eventCount = 2;
    s.options = SmallOptions();
  }
};

// -- Helpers of the probes -------------------------------------------------------

TrainData& Data() {
  static TrainData* d = new TrainData(11);
  return *d;
}

// A checkpoint's bytes, 16-byte aligned.
File Save(const maniLearnedTrainer* t) {
  size_t size = 0;
  EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(t, nullptr, 0, &size), mani_errorCapacity);
  File f;
  f.words.assign(size / 8 + 4, 0);
  f.size = size;
  EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(t, f.data(), size, &size), mani_success);
  EXPECT_EQ(size, f.size);
  return f;
}

bool SameBytes(File& a, File& b) { return a.size == b.size && memcmp(a.data(), b.data(), a.size) == 0; }

uint32_t U32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
uint64_t U64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
float F32(const uint8_t* p) {
  float v;
  memcpy(&v, p, 4);
  return v;
}

// The info section's offset (section table entry 0's offset field).
uint64_t InfoOffset(File& f) { return U64(f.data() + 64 + 8); }

// The container identity recomputed after a patch (formats.md: the hash of
// bytes 64 to the end, seeded with "MAULFILE" XOR the kind).
void Rehash(File& f) {
  const uint64_t id = mcore_Hash64(UINT64_C(0x4D41554C46494C45) ^ 14u, f.data() + 64, f.size - 64);
  memcpy(f.data() + 32, &id, 8);
}

struct Trainer {
  maniLearnedTrainer* t = nullptr;
  Trainer(const maniLearnedTrainerDef& def, const maniLearnedTrainerSource& s) {
    const maniBuildResult r = maniCreateLearnedTrainer(&def, &s, &t);
    EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  }
  explicit Trainer(const maniLearnedTrainerSource& s) : Trainer(maniDefaultLearnedTrainerDef(), s) {}
  ~Trainer() { maniDestroyLearnedTrainer(t); }
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;
  maniLearnedTrainerReport Train(uint64_t n) {
    maniLearnedTrainerReport rep;
    memset(&rep, 0xCD, sizeof rep);
    EXPECT_EQ(maniLearnedTrainer_Train(t, n, &rep), mani_success);
    return rep;
  }
};

maniLearnedTrainer* const kSentinel = reinterpret_cast<maniLearnedTrainer*>(uintptr_t(0x1234));

// A create refused: result, reason, item, other, *trainerOut untouched.
void ExpectCreateRefused(const maniLearnedTrainerDef& def, const maniLearnedTrainerSource& s, maniResult result,
                         uint32_t reason, uint64_t item, uint64_t other, bool checkItems = true) {
  maniLearnedTrainer* t = kSentinel;
  const maniBuildResult r = maniCreateLearnedTrainer(&def, &s, &t);
  EXPECT_EQ(r.result, result);
  EXPECT_EQ(r.reason, reason);
  if (checkItems) {
    EXPECT_EQ(r.item, item);
    EXPECT_EQ(r.other, other);
  }
  EXPECT_EQ(t, kSentinel) << "trainerOut written on a failure";
  if (t != kSentinel) maniDestroyLearnedTrainer(t);
}

void ExpectRefused(const std::function<void(maniLearnedTrainerSource&)>& change, maniResult result, uint32_t reason,
                   uint64_t item, uint64_t other = 0, bool checkItems = true) {
  TrainData& d = Data();
  ASSERT_TRUE(d.ok);
  Source src(d);
  change(src.s);
  ExpectCreateRefused(maniDefaultLearnedTrainerDef(), src.s, result, reason, item, other, checkItems);
}

void ExpectOptionRefused(const std::function<void(maniLearnedTrainerOptions&)>& change, maniResult result,
                         uint64_t item) {
  ExpectRefused([&](maniLearnedTrainerSource& s) { change(s.options); }, result, maniBuildReasonOption, item);
}

// -- maniCreateLearnedTrainer ----------------------------------------------------

TEST(LearnedTrainProbe, CreateSucceedsOnTheSmallSource) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  maniLearnedTrainer* t = nullptr;
  const maniBuildResult r = maniCreateLearnedTrainer(&def, &src.s, &t);
  EXPECT_EQ(r.result, mani_success);
  EXPECT_EQ(r.reason, 0u);
  EXPECT_NE(t, nullptr);
  EXPECT_EQ(maniLearnedTrainer_GetMisuse(t), 0u);
  maniDestroyLearnedTrainer(t);
}

// "mani_errorInvalid for a NULL argument"
TEST(LearnedTrainProbe, CreateRefusesNullArguments) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  maniLearnedTrainer* t = kSentinel;
  EXPECT_EQ(maniCreateLearnedTrainer(nullptr, &src.s, &t).result, mani_errorInvalid);
  EXPECT_EQ(t, kSentinel);
  EXPECT_EQ(maniCreateLearnedTrainer(&def, nullptr, &t).result, mani_errorInvalid);
  EXPECT_EQ(t, kSentinel);
  EXPECT_EQ(maniCreateLearnedTrainer(&def, &src.s, nullptr).result, mani_errorInvalid);
}

// "a def without its cookie" (at both ends)
TEST(LearnedTrainProbe, CreateRefusesDefCookies) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  def.cookie ^= 1u;
  ExpectCreateRefused(def, src.s, mani_errorInvalid, 0, 0, 0, false);
  def = maniDefaultLearnedTrainerDef();
  def.cookieEnd = 0;
  ExpectCreateRefused(def, src.s, mani_errorInvalid, 0, 0, 0, false);
  def = maniDefaultLearnedTrainerDef();
  def.cookie = MANI_BUILDER_DEF_COOKIE;  // another def's cookie
  ExpectCreateRefused(def, src.s, mani_errorInvalid, 0, 0, 0, false);
}

// "mani_errorVersion for a def built against another major or minor version"
TEST(LearnedTrainProbe, CreateRefusesOtherAbiVersions) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  for (uint32_t abi : {MANI_ABI_VERSION + 1u, MANI_ABI_VERSION + (1u << 16), MANI_ABI_VERSION ^ 0xFFFFu, 0u,
                       0xFFFFFFFFu}) {
    if (abi == MANI_ABI_VERSION) continue;
    maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
    def.abiVersion = abi;
    ExpectCreateRefused(def, src.s, mani_errorVersion, 0, 0, 0, false);
  }
}

void* NoAlloc(void*, size_t, size_t) { return nullptr; }
void NoRelease(void*, void*, size_t) {}
void* NoBegin(void*, maniLearnedTaskFunction*, void*, uint32_t) { return nullptr; }
void NoWait(void*, void*) {}

// "an allocator or task hooks with one function"
TEST(LearnedTrainProbe, CreateRefusesHalfHooks) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  def.allocator.allocate = NoAlloc;
  ExpectCreateRefused(def, src.s, mani_errorInvalid, 0, 0, 0, false);
  def = maniDefaultLearnedTrainerDef();
  def.allocator.release = NoRelease;
  ExpectCreateRefused(def, src.s, mani_errorInvalid, 0, 0, 0, false);
  def = maniDefaultLearnedTrainerDef();
  def.tasks.begin = NoBegin;
  ExpectCreateRefused(def, src.s, mani_errorInvalid, 0, 0, 0, false);
  def = maniDefaultLearnedTrainerDef();
  def.tasks.wait = NoWait;
  ExpectCreateRefused(def, src.s, mani_errorInvalid, 0, 0, 0, false);
}

// "more than MANI_MAX_LEARNED_LATENT latent values" -> Limit, Option, item 0
TEST(LearnedTrainProbe, LimitLatentItem0) {
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.latentCount = MANI_MAX_LEARNED_LATENT + 1; },
                      mani_errorLimit, 0);
}

// "a width past MANI_MAX_LEARNED_WIDTH" -> item the width's place
TEST(LearnedTrainProbe, LimitWidthsAtTheirPlaces) {
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.compressorWidth = MANI_MAX_LEARNED_WIDTH + 1; },
                      mani_errorLimit, 1);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.decompressorWidth = MANI_MAX_LEARNED_WIDTH + 1; },
                      mani_errorLimit, 3);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.stepperWidth = MANI_MAX_LEARNED_WIDTH + 1; },
                      mani_errorLimit, 5);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.projectorWidth = MANI_MAX_LEARNED_WIDTH + 1; },
                      mani_errorLimit, 7);
}

// "a network of MANI_MAX_LEARNED_LAYERS hidden layers or more"
TEST(LearnedTrainProbe, LimitLayersAtTheirPlaces) {
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.compressorLayers = MANI_MAX_LEARNED_LAYERS; },
                      mani_errorLimit, 2);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.decompressorLayers = MANI_MAX_LEARNED_LAYERS; },
                      mani_errorLimit, 4);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.stepperLayers = MANI_MAX_LEARNED_LAYERS; },
                      mani_errorLimit, 6);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.projectorLayers = MANI_MAX_LEARNED_LAYERS + 5; },
                      mani_errorLimit, 8);
}

// 1 to MANI_MAX_LEARNED_LAYERS - 1 hidden layers are accepted (the bound's
// other side).
TEST(LearnedTrainProbe, AcceptsMaxHiddenLayers) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.stepperLayers = MANI_MAX_LEARNED_LAYERS - 1;
  Trainer t(src.s);
  EXPECT_NE(t.t, nullptr);
}

// "a batch past MANI_MAX_LEARNED_BATCH, a window past MANI_MAX_LEARNED_WINDOW"
TEST(LearnedTrainProbe, LimitBatchAndWindows) {
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.batchSize = MANI_MAX_LEARNED_BATCH + 4; },
                      mani_errorLimit, 9);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.trainingWindow = MANI_MAX_LEARNED_WINDOW + 1; },
                      mani_errorLimit, 10);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.stepperWindow = MANI_MAX_LEARNED_WINDOW + 1; },
                      mani_errorLimit, 11);
}

// "item 1 for networks past the width or MANI_MAX_LEARNED_WEIGHTS"
TEST(LearnedTrainProbe, LimitWeightsItem1) {
  // 5000 x 5000 between two hidden layers: 25e6 weights > 2^24.
  ExpectOptionRefused(
      [](maniLearnedTrainerOptions& o) {
        o.compressorWidth = 5000;
        o.compressorLayers = 3;
      },
      mani_errorLimit, 1);
  ExpectOptionRefused(
      [](maniLearnedTrainerOptions& o) {
        o.stepperWidth = 5000;
        o.stepperLayers = 2;
      },
      mani_errorLimit, 1);
}

// "maniBuildReasonTiming (a database rate past MANI_MAX_LEARNED_RATE)": not
// reachable, MANI_MAX_MATCH_RATE is the same 240 and an open database holds
// no other rate; the bound's own value is accepted.
TEST(LearnedTrainProbe, AcceptsDatabaseAtMaxRate) {
  ASSERT_EQ(MANI_MAX_MATCH_RATE, MANI_MAX_LEARNED_RATE);
  TrainData fast(11, MANI_MAX_LEARNED_RATE);
  ASSERT_TRUE(fast.ok);
  Source src(fast);
  Trainer t(src.s);
  EXPECT_NE(t.t, nullptr);
}

// "maniBuildReasonCount (more than MANI_MAX_LEARNED_PROJECTORS Projectors,
// MANI_MAX_LEARNED_FLOAT_TRACKS float tracks or MANI_MAX_LEARNED_EVENTS events)"
TEST(LearnedTrainProbe, LimitCounts) {
  static maniLearnedTrainerProjector projectors[MANI_MAX_LEARNED_PROJECTORS + 1];
  for (auto& p : projectors) p = {0, 0};
  ExpectRefused(
      [](maniLearnedTrainerSource& s) {
        s.projectors = projectors;
        s.projectorCount = MANI_MAX_LEARNED_PROJECTORS + 1;
      },
      mani_errorLimit, maniBuildReasonCount, 0, 0, false);
  static std::vector<std::string> names;
  static std::vector<maniLearnedNameSource> list;
  names.clear();
  list.clear();
  for (uint32_t i = 0; i < 65; ++i) names.push_back("n" + std::to_string(i));
  for (auto& n : names) list.push_back({n.data(), n.size()});
  ExpectRefused(
      [](maniLearnedTrainerSource& s) {
        s.floatTracks = list.data();
        s.floatTrackCount = MANI_MAX_LEARNED_FLOAT_TRACKS + 1;
      },
      mani_errorLimit, maniBuildReasonCount, 0, 0, false);
  ExpectRefused(
      [](maniLearnedTrainerSource& s) {
        s.events = list.data();
        s.eventCount = MANI_MAX_LEARNED_EVENTS + 1;
      },
      mani_errorLimit, maniBuildReasonCount, 0, 0, false);
}

// "or a name past MANI_MAX_NAME_BYTES (the reason and item a refused name gets)"
TEST(LearnedTrainProbe, LimitNameLength) {
  static std::string longName(MANI_MAX_NAME_BYTES + 1, 'a');
  static maniLearnedNameSource tracks[2];
  tracks[0] = kTracks[0];
  tracks[1] = {longName.data(), longName.size()};
  ExpectRefused(
      [](maniLearnedTrainerSource& s) {
        s.floatTracks = tracks;
        s.floatTrackCount = 2;
      },
      mani_errorLimit, maniBuildReasonFloatTrack | maniBuildReasonName, 1);
  static maniLearnedNameSource events[3];
  events[0] = kEvents[0];
  events[1] = kEvents[1];
  events[2] = {longName.data(), longName.size()};
  ExpectRefused(
      [](maniLearnedTrainerSource& s) {
        s.events = events;
        s.eventCount = 3;
      },
      mani_errorLimit, maniBuildReasonEvent | maniBuildReasonName, 2);
}

// "no latent values, no width, no layers" -> Invalid, item the place
TEST(LearnedTrainProbe, RefusesZeroSizes) {
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.latentCount = 0; }, mani_errorInvalid, 0);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.compressorWidth = 0; }, mani_errorInvalid, 1);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.compressorLayers = 0; }, mani_errorInvalid, 2);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.decompressorWidth = 0; }, mani_errorInvalid, 3);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.decompressorLayers = 0; }, mani_errorInvalid, 4);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.stepperWidth = 0; }, mani_errorInvalid, 5);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.stepperLayers = 0; }, mani_errorInvalid, 6);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.projectorWidth = 0; }, mani_errorInvalid, 7);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.projectorLayers = 0; }, mani_errorInvalid, 8);
}

// "a batch not a multiple of 4"
TEST(LearnedTrainProbe, RefusesBatchNotMultipleOf4) {
  for (uint32_t b : {1u, 2u, 3u, 6u, 33u})
    ExpectOptionRefused([b](maniLearnedTrainerOptions& o) { o.batchSize = b; }, mani_errorInvalid, 9);
}

// "a window below 2 or longer than every entry"
TEST(LearnedTrainProbe, RefusesWindows) {
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.trainingWindow = 1; }, mani_errorInvalid, 10);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.trainingWindow = 0; }, mani_errorInvalid, 10);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.stepperWindow = 1; }, mani_errorInvalid, 11);
  // The fixture clips are a few seconds at 30 frames a second at most: a
  // window of MANI_MAX_LEARNED_WINDOW frames is longer than every entry.
  ASSERT_TRUE(Data().ok);
  for (uint32_t e = 0; e < 2; ++e) ASSERT_LT(maniClip_GetDuration(&Data().clips[e]) * 30.0f + 1.0f, 256.0f);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.trainingWindow = MANI_MAX_LEARNED_WINDOW; },
                      mani_errorInvalid, 10);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.stepperWindow = MANI_MAX_LEARNED_WINDOW; },
                      mani_errorInvalid, 11);
}

// "no iterations"
TEST(LearnedTrainProbe, RefusesNoIterations) {
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.decompressorIterations = 0; }, mani_errorInvalid, 12);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.stepperIterations = 0; }, mani_errorInvalid, 13);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.projectorIterations = 0; }, mani_errorInvalid, 14);
}

// "a rate, decay or epsilon not finite or negative, a beta not below 1"
TEST(LearnedTrainProbe, RefusesFloatOptions) {
  const float bad[] = {-1.0f, -1e-30f, NAN, INFINITY, -INFINITY};
  for (float v : bad) {
    ExpectOptionRefused([v](maniLearnedTrainerOptions& o) { o.learningRate = v; }, mani_errorInvalid, 15);
    ExpectOptionRefused([v](maniLearnedTrainerOptions& o) { o.weightDecay = v; }, mani_errorInvalid, 16);
    ExpectOptionRefused([v](maniLearnedTrainerOptions& o) { o.beta1 = v; }, mani_errorInvalid, 17);
    ExpectOptionRefused([v](maniLearnedTrainerOptions& o) { o.beta2 = v; }, mani_errorInvalid, 18);
    ExpectOptionRefused([v](maniLearnedTrainerOptions& o) { o.epsilon = v; }, mani_errorInvalid, 19);
    ExpectOptionRefused([v](maniLearnedTrainerOptions& o) { o.decayRate = v; }, mani_errorInvalid, 20);
  }
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.beta1 = 1.0f; }, mani_errorInvalid, 17);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.beta2 = 1.0f; }, mani_errorInvalid, 18);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.beta2 = 2.0f; }, mani_errorInvalid, 18);
}

// The bounds' other side: 0 is "at least 0" / "0 to below 1".
TEST(LearnedTrainProbe, AcceptsZeroRatesAndBetas) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.learningRate = 0.0f;
  src.s.options.weightDecay = 0.0f;
  src.s.options.beta1 = 0.0f;
  src.s.options.beta2 = 0.0f;
  src.s.options.epsilon = 0.0f;
  src.s.options.decayRate = 0.0f;
  Trainer t(src.s);
  EXPECT_NE(t.t, nullptr);
}

// "no decay interval, reserved not 0"
TEST(LearnedTrainProbe, RefusesDecayIntervalAndReserved) {
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.decayInterval = 0; }, mani_errorInvalid, 21);
  ExpectOptionRefused([](maniLearnedTrainerOptions& o) { o.reserved = 1; }, mani_errorInvalid, 22);
}

// "maniBuildReasonDatabase (a database of another skeleton, or a view no open wrote)"
TEST(LearnedTrainProbe, RefusesDatabases) {
  TrainData other(12);
  ASSERT_TRUE(other.ok);
  ASSERT_NE(maniMotionDatabase_GetSkeletonIdentity(&other.db), maniMotionDatabase_GetSkeletonIdentity(&Data().db));
  ExpectRefused([&](maniLearnedTrainerSource& s) { s.database = &other.db; }, mani_errorInvalid,
                maniBuildReasonDatabase, 0, 0, false);
  static maniMotionDatabase blank;
  memset(&blank, 0, sizeof blank);
  ExpectRefused([](maniLearnedTrainerSource& s) { s.database = &blank; }, mani_errorInvalid, maniBuildReasonDatabase,
                0, 0, false);
}

// "maniBuildReasonClip (item the clip whose identity is not the database's;
// the clip count and the database's as item and other when they differ)"
TEST(LearnedTrainProbe, RefusesClips) {
  ExpectRefused([](maniLearnedTrainerSource& s) { s.clipCount = 1; }, mani_errorInvalid, maniBuildReasonClip, 1, 2);
  static maniClip three[3];
  three[0] = Data().clips[0];
  three[1] = Data().clips[1];
  three[2] = Data().clips[1];
  ExpectRefused(
      [](maniLearnedTrainerSource& s) {
        s.clips = three;
        s.clipCount = 3;
      },
      mani_errorInvalid, maniBuildReasonClip, 3, 2);
  static maniClip swapped[2];
  swapped[0] = Data().clips[0];
  swapped[1] = Data().clips[0];
  ExpectRefused([](maniLearnedTrainerSource& s) { s.clips = swapped; }, mani_errorInvalid, maniBuildReasonClip, 1);
  static maniClip reversed[2];
  reversed[0] = Data().clips[1];
  reversed[1] = Data().clips[0];
  ExpectRefused([](maniLearnedTrainerSource& s) { s.clips = reversed; }, mani_errorInvalid, maniBuildReasonClip, 0);
}

// "a list missing (maniBuildReasonCount)"
TEST(LearnedTrainProbe, RefusesListsMissing) {
  ExpectRefused([](maniLearnedTrainerSource& s) { s.projectors = nullptr; }, mani_errorInvalid, maniBuildReasonCount,
                0, 0, false);
  ExpectRefused([](maniLearnedTrainerSource& s) { s.floatTracks = nullptr; }, mani_errorInvalid,
                maniBuildReasonCount, 0, 0, false);
  ExpectRefused([](maniLearnedTrainerSource& s) { s.events = nullptr; }, mani_errorInvalid, maniBuildReasonCount, 0,
                0, false);
  ExpectRefused([](maniLearnedTrainerSource& s) { s.clips = nullptr; }, mani_errorInvalid, maniBuildReasonCount, 0,
                0, false);
}

// Empty lists (count 0) are not missing: 0 float tracks and events accepted.
TEST(LearnedTrainProbe, AcceptsNoFloatTracksOrEvents) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.floatTracks = nullptr;
  src.s.floatTrackCount = 0;
  src.s.events = nullptr;
  src.s.eventCount = 0;
  Trainer t(src.s);
  EXPECT_NE(t.t, nullptr);
}

// "maniBuildReasonCount (no Projector)"
TEST(LearnedTrainProbe, RefusesNoProjector) {
  ExpectRefused([](maniLearnedTrainerSource& s) { s.projectorCount = 0; }, mani_errorInvalid, maniBuildReasonCount,
                0, 0, false);
}

// "maniBuildReasonTags (item the Projector: tags past 32 bits, a tag both
// required and excluded, or no frame that passes)"
TEST(LearnedTrainProbe, RefusesTags) {
  static maniLearnedTrainerProjector p[3];
  auto with = [](maniLearnedTrainerProjector bad) {
    p[0] = kProjectors[0];
    p[1] = kProjectors[1];
    p[2] = bad;
    ExpectRefused(
        [](maniLearnedTrainerSource& s) {
          s.projectors = p;
          s.projectorCount = 3;
        },
        mani_errorInvalid, maniBuildReasonTags, 2);
  };
  with({uint64_t(1) << 32, 0});
  with({0, uint64_t(1) << 40});
  with({1, 1});
  with({4, 0});  // tags 1 and 2 only in the database
  with({3, 0});  // no entry has both
  with({0, 3});  // every entry excluded
}

// "maniBuildReasonFloatTrack or maniBuildReasonEvent combined with
// maniBuildReasonName (empty, NULL or not UTF-8) or
// maniBuildReasonDuplicateName (other the earlier)"
TEST(LearnedTrainProbe, RefusesNames) {
  static maniLearnedNameSource list[3];
  struct Case {
    maniLearnedNameSource bad;
    uint32_t reason;
    uint64_t other;
  };
  const Case cases[] = {
      {{"", 0}, maniBuildReasonName, 0},
      {{nullptr, 3}, maniBuildReasonName, 0},
      {{"\xff\xfe", 2}, maniBuildReasonName, 0},
      {{"\xc3", 1}, maniBuildReasonName, 0},
      {{"event-0", 7}, maniBuildReasonDuplicateName, 0},
  };
  for (const Case& c : cases) {
    list[0] = kEvents[0];
    list[1] = {"x", 1};
    list[2] = c.bad;
    ExpectRefused(
        [](maniLearnedTrainerSource& s) {
          s.events = list;
          s.eventCount = 3;
        },
        mani_errorInvalid, maniBuildReasonEvent | c.reason, 2, c.other);
    ExpectRefused(
        [](maniLearnedTrainerSource& s) {
          s.floatTracks = list;
          s.floatTrackCount = 3;
        },
        mani_errorInvalid, maniBuildReasonFloatTrack | c.reason, 2, c.other);
  }
}

// Names valid UTF-8 of several bytes, of MANI_MAX_NAME_BYTES, and one name
// in both lists (lists are separate) are accepted.
TEST(LearnedTrainProbe, AcceptsNames) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  static std::string longest(MANI_MAX_NAME_BYTES, 'b');
  static const maniLearnedNameSource tracks[2] = {{"\xc3\xa9t\xc3\xa9", 5}, {longest.data(), longest.size()}};
  static const maniLearnedNameSource events[1] = {{"\xc3\xa9t\xc3\xa9", 5}};
  src.s.floatTracks = tracks;
  src.s.floatTrackCount = 2;
  src.s.events = events;
  src.s.eventCount = 1;
  Trainer t(src.s);
  EXPECT_NE(t.t, nullptr);
}

// A trainer allocator failing once `left` reaches 0, with re-entry hooks.
struct Alloc {
  long left = -1;
  long outstanding = 0;
  std::function<void()> onAllocate;
  std::function<void(void*)> onRelease;
  static void* Allocate(void* user, size_t size, size_t alignment) {
    Alloc* a = static_cast<Alloc*>(user);
    if (a->onAllocate) a->onAllocate();
    if (a->left == 0) return nullptr;
    if (a->left > 0) a->left--;
    if (alignment < sizeof(void*)) alignment = sizeof(void*);
    void* p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    if (p) a->outstanding++;
    return p;
  }
  static void Release(void* user, void* memory, size_t) {
    Alloc* a = static_cast<Alloc*>(user);
    if (a->onRelease) a->onRelease(memory);
    if (memory) a->outstanding--;
    free(memory);
  }
  maniLearnedTrainerDef Def() {
    maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
    def.allocator.allocate = Allocate;
    def.allocator.release = Release;
    def.allocator.user = this;
    return def;
  }
};

// "mani_errorCapacity when memory runs out. *trainerOut is written only on success."
TEST(LearnedTrainProbe, CreateUnderEveryFailingAllocation) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  bool sawCapacity = false, sawSuccess = false;
  for (long n = 0; n < 3000 && !sawSuccess; ++n) {
    Alloc a;
    a.left = n;
    const maniLearnedTrainerDef def = a.Def();
    maniLearnedTrainer* t = kSentinel;
    const maniBuildResult r = maniCreateLearnedTrainer(&def, &src.s, &t);
    if (r.result == mani_success) {
      sawSuccess = true;
      a.left = -1;
      maniDestroyLearnedTrainer(t);
    } else {
      sawCapacity = true;
      EXPECT_EQ(r.result, mani_errorCapacity) << "allocation " << n;
      EXPECT_EQ(t, kSentinel) << "allocation " << n;
    }
    EXPECT_EQ(a.outstanding, 0) << "allocation " << n;
  }
  EXPECT_TRUE(sawCapacity);
  EXPECT_TRUE(sawSuccess);
}

// -- Destroy / GetMisuse / calls back in -------------------------------------------

TEST(LearnedTrainProbe, NullTrainer) {
  maniDestroyLearnedTrainer(nullptr);
  EXPECT_EQ(maniLearnedTrainer_GetMisuse(nullptr), 0u);
  maniLearnedTrainerReport rep;
  memset(&rep, 0, sizeof rep);
  EXPECT_EQ(maniLearnedTrainer_Train(nullptr, 1, &rep), mani_errorInvalid);
  EXPECT_EQ(maniLearnedTrainer_Train(nullptr, 0, nullptr), mani_errorInvalid);
  size_t size = 77;
  uint64_t buf[4];
  EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(nullptr, nullptr, 0, &size), mani_errorInvalid);
  EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(nullptr, buf, sizeof buf, &size), mani_errorInvalid);
  EXPECT_EQ(maniLearnedTrainer_RestoreCheckpoint(nullptr, buf, sizeof buf).result, mani_errorInvalid);
  Builder b;
  EXPECT_EQ(maniBuildLearnedModelFromTrainer(b.b, nullptr, maniLearnedWeightsFloat32).result, mani_errorInvalid);
}

// Every call the paragraphs name, made on `t` from the host's code, with the
// results seen.
struct Calls {
  maniLearnedTrainer* t = nullptr;
  File checkpoint;  // a valid checkpoint of t's source
  maniBuilder* builder = nullptr;
  bool done = false;
  maniResult train = mani_success, save = mani_success, restore = mani_success, build = mani_success;
  uint32_t misuseBefore = 0, misuseAfterDestroy = 0, misuseAfter = 0;
  void Run() {
    if (done || !t) return;
    done = true;
    misuseBefore = maniLearnedTrainer_GetMisuse(t);
    train = maniLearnedTrainer_Train(t, 1, nullptr);
    size_t size = 0;
    save = maniLearnedTrainer_SaveCheckpoint(t, nullptr, 0, &size);
    restore = maniLearnedTrainer_RestoreCheckpoint(t, checkpoint.data(), checkpoint.size).result;
    const uint32_t m = maniLearnedTrainer_GetMisuse(t);
    maniDestroyLearnedTrainer(t);
    misuseAfterDestroy = maniLearnedTrainer_GetMisuse(t) - m;
    build = maniBuildLearnedModelFromTrainer(builder, t, maniLearnedWeightsFloat32).result;
    misuseAfter = maniLearnedTrainer_GetMisuse(t);
  }
  void Expect() {
    EXPECT_TRUE(done);
    EXPECT_EQ(train, mani_errorBusy);
    EXPECT_EQ(save, mani_errorBusy);
    EXPECT_EQ(restore, mani_errorBusy);
    EXPECT_EQ(misuseAfterDestroy, 1u) << "a Destroy from the hooks counts one misuse";
    EXPECT_EQ(build, mani_errorBusy);
    EXPECT_EQ(misuseAfter - misuseBefore, 5u);
  }
};

// A task system running every index on the calling thread, calling back in first.
struct HookTasks {
  Calls* calls = nullptr;
  bool inTask = false;
  static void* Begin(void* user, maniLearnedTaskFunction* task, void* data, uint32_t count) {
    HookTasks* h = static_cast<HookTasks*>(user);
    if (h->calls) h->calls->Run();
    for (uint32_t i = 0; i < count; ++i) task(data, i);
    return h;
  }
  static void Wait(void*, void*) {}
};

// "A call back into the trainer from either, or from a task, is refused with
// mani_errorBusy and counted as a misuse." (task hooks: begin)
TEST(LearnedTrainProbe, CallsBackInFromTaskBeginAreBusy) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  HookTasks h;
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  def.tasks.begin = HookTasks::Begin;
  def.tasks.wait = HookTasks::Wait;
  def.tasks.user = &h;
  Trainer tr(def, src.s);
  ASSERT_NE(tr.t, nullptr);
  Builder b;
  Calls calls;
  calls.t = tr.t;
  calls.builder = b.b;
  calls.checkpoint = Save(tr.t);
  h.calls = &calls;
  maniLearnedTrainerReport rep = tr.Train(1);
  calls.Expect();
  EXPECT_EQ(rep.iterations, 1u);
  EXPECT_EQ(maniLearnedTrainer_GetMisuse(tr.t), 5u);
  // The trainer was not destroyed nor trained by the calls: it trains on.
  h.calls = nullptr;
  tr.Train(kTotal);
  Trainer plain(src.s);
  plain.Train(kTotal);
  File a = Save(tr.t), c = Save(plain.t);
  EXPECT_TRUE(SameBytes(a, c));
}

// From a task itself, and from wait.
struct TaskCalls {
  Calls* calls = nullptr;
  bool fromWait = false;
  maniLearnedTaskFunction* task = nullptr;
  void* data = nullptr;
  uint32_t count = 0;
  static void* Begin(void* user, maniLearnedTaskFunction* task, void* data, uint32_t count) {
    TaskCalls* h = static_cast<TaskCalls*>(user);
    h->task = task, h->data = data, h->count = count;
    return h;
  }
  static void Wait(void* user, void*) {
    TaskCalls* h = static_cast<TaskCalls*>(user);
    if (h->fromWait && h->calls) h->calls->Run();
    for (uint32_t i = 0; i < h->count; ++i) {
      if (!h->fromWait && h->calls && i == h->count - 1) h->calls->Run();
      h->task(h->data, i);
    }
  }
};

void ExpectCallsBackInFromTasks(bool fromWait) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  TaskCalls h;
  h.fromWait = fromWait;
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  def.tasks.begin = TaskCalls::Begin;
  def.tasks.wait = TaskCalls::Wait;
  def.tasks.user = &h;
  Trainer tr(def, src.s);
  ASSERT_NE(tr.t, nullptr);
  Builder b;
  Calls calls;
  calls.t = tr.t;
  calls.builder = b.b;
  calls.checkpoint = Save(tr.t);
  h.calls = &calls;
  tr.Train(1);
  calls.Expect();
  EXPECT_EQ(maniLearnedTrainer_GetMisuse(tr.t), 5u);
}

TEST(LearnedTrainProbe, CallsBackInFromTaskWaitAreBusy) { ExpectCallsBackInFromTasks(true); }
TEST(LearnedTrainProbe, CallsBackInFromATaskAreBusy) { ExpectCallsBackInFromTasks(false); }

// "mani_errorBusy when called back in from the trainer's allocator" (allocate
// and release hooks, as stages begin and end while training through).
TEST(LearnedTrainProbe, CallsBackInFromAllocatorAreBusy) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  for (int which = 0; which < 2; ++which) {
    Alloc a;
    const maniLearnedTrainerDef def = a.Def();
    Builder b;
    Calls calls;
    {
      Trainer tr(def, src.s);
      ASSERT_NE(tr.t, nullptr);
      calls.t = tr.t;
      calls.builder = b.b;
      calls.checkpoint = Save(tr.t);
      if (which == 0)
        a.onAllocate = [&] { calls.Run(); };
      else
        a.onRelease = [&](void*) { calls.Run(); };
      maniLearnedTrainerReport rep;
      EXPECT_EQ(maniLearnedTrainer_Train(tr.t, kTotal, &rep), mani_success);
      a.onAllocate = nullptr;
      a.onRelease = nullptr;
      calls.Expect();
      EXPECT_EQ(rep.stage, 3u);
      EXPECT_EQ(maniLearnedTrainer_GetMisuse(tr.t), 5u) << (which ? "release" : "allocate");
    }
    EXPECT_EQ(a.outstanding, 0);
  }
}

File OtherPoint(uint64_t n);

// The same from the allocator as a restore takes a stage's memory: each call
// refused, the outer restore done.
TEST(LearnedTrainProbe, CallsBackInFromAllocatorDuringRestoreAreBusy) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  File cp = OtherPoint(11);
  Alloc a;
  const maniLearnedTrainerDef def = a.Def();
  Builder b;
  Calls calls;
  {
    Trainer tr(def, src.s);
    ASSERT_NE(tr.t, nullptr);
    calls.t = tr.t;
    calls.builder = b.b;
    calls.checkpoint = cp;
    a.onAllocate = [&] { calls.Run(); };
    const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(tr.t, cp.data(), cp.size);
    a.onAllocate = nullptr;
    EXPECT_EQ(res.result, mani_success);
    if (calls.done) {
      calls.Expect();
      EXPECT_EQ(maniLearnedTrainer_GetMisuse(tr.t), 5u);
    }
    File now = Save(tr.t);
    EXPECT_TRUE(SameBytes(now, cp));
  }
  EXPECT_EQ(a.outstanding, 0);
}

// "From the moment it begins, the trainer is gone to the host's code: a call
// on it from the free hook, the trainer's own block's free among it, is
// refused with mani_errorBusy and counted."
TEST(LearnedTrainProbe, CallsFromTheFreeHooksOfDestroyAreBusy) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Alloc a;
  const maniLearnedTrainerDef def = a.Def();
  maniLearnedTrainer* t = nullptr;
  ASSERT_EQ(maniCreateLearnedTrainer(&def, &src.s, &t).result, mani_success);
  maniLearnedTrainerReport rep;
  ASSERT_EQ(maniLearnedTrainer_Train(t, 7, &rep), mani_success);
  File cp = Save(t);
  Builder b;
  uint32_t releases = 0, busy = 0, counted = 0;
  a.onRelease = [&](void*) {
    releases++;
    const uint32_t m0 = maniLearnedTrainer_GetMisuse(t);
    bool ok = maniLearnedTrainer_Train(t, 1, nullptr) == mani_errorBusy;
    size_t size = 0;
    ok = ok && maniLearnedTrainer_SaveCheckpoint(t, nullptr, 0, &size) == mani_errorBusy;
    ok = ok && maniLearnedTrainer_RestoreCheckpoint(t, cp.data(), cp.size).result == mani_errorBusy;
    ok = ok && maniBuildLearnedModelFromTrainer(b.b, t, maniLearnedWeightsFloat32).result == mani_errorBusy;
    maniDestroyLearnedTrainer(t);
    const uint32_t m1 = maniLearnedTrainer_GetMisuse(t);
    if (ok) busy++;
    if (m1 - m0 == 5u) counted++;
  };
  maniDestroyLearnedTrainer(t);
  EXPECT_GT(releases, 0u);
  EXPECT_EQ(busy, releases);
  EXPECT_EQ(counted, releases);
  EXPECT_EQ(a.outstanding, 0);
}

// Builder allocator hooks for the build-from-trainer re-entry probe.
struct BuilderHook {
  std::function<void()> onAllocate;
  static void* Allocate(void* user, size_t size, size_t alignment) {
    BuilderHook* h = static_cast<BuilderHook*>(user);
    if (h->onAllocate) h->onAllocate();
    if (alignment < sizeof(void*)) alignment = sizeof(void*);
    return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  }
  static void Release(void*, void* memory, size_t) { free(memory); }
};

// "While the call runs, training, restoring or destroying the trainer is
// refused with mani_errorBusy and counted on it; saving a checkpoint of it or
// building it again works."
TEST(LearnedTrainProbe, WhileBuildingTrainRestoreDestroyAreBusySaveAndBuildWork) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  tr.Train(kTotal);
  File cp = Save(tr.t);
  BuilderHook h;
  maniBuilderDef bdef = maniDefaultBuilderDef();
  bdef.allocator.allocate = BuilderHook::Allocate;
  bdef.allocator.release = BuilderHook::Release;
  bdef.allocator.user = &h;
  maniBuilder* builder = nullptr;
  ASSERT_EQ(maniCreateBuilder(&bdef, &builder), mani_success);
  Builder other;
  bool ran = false;
  maniResult train = mani_success, restore = mani_success, save = mani_errorInvalid;
  maniBuildResult again{};
  uint32_t misuse = 0;
  bool saveSame = false;
  h.onAllocate = [&] {
    if (ran) return;
    ran = true;
    const uint32_t m0 = maniLearnedTrainer_GetMisuse(tr.t);
    train = maniLearnedTrainer_Train(tr.t, 1, nullptr);
    restore = maniLearnedTrainer_RestoreCheckpoint(tr.t, cp.data(), cp.size).result;
    maniDestroyLearnedTrainer(tr.t);
    misuse = maniLearnedTrainer_GetMisuse(tr.t) - m0;
    File now;
    size_t size = 0;
    if (maniLearnedTrainer_SaveCheckpoint(tr.t, nullptr, 0, &size) == mani_errorCapacity) {
      now.words.assign(size / 8 + 2, 0);
      now.size = size;
      save = maniLearnedTrainer_SaveCheckpoint(tr.t, now.data(), size, &size);
      saveSame = SameBytes(now, cp);
    }
    again = maniBuildLearnedModelFromTrainer(other.b, tr.t, maniLearnedWeightsFloat32);
  };
  const maniBuildResult r = maniBuildLearnedModelFromTrainer(builder, tr.t, maniLearnedWeightsFloat32);
  h.onAllocate = nullptr;
  EXPECT_EQ(r.result, mani_success);
  ASSERT_TRUE(ran);
  EXPECT_EQ(train, mani_errorBusy);
  EXPECT_EQ(restore, mani_errorBusy);
  EXPECT_EQ(misuse, 3u);
  EXPECT_EQ(save, mani_success);
  EXPECT_TRUE(saveSame);
  EXPECT_EQ(again.result, mani_success);
  // Both builds the same model.
  size_t s1 = 0, s2 = 0;
  EXPECT_EQ(maniBuilder_CopyBuilt(builder, nullptr, 0, &s1), mani_errorCapacity);
  File m2 = other.Built();
  File m1;
  m1.words.assign(s1 / 8 + 2, 0);
  m1.size = s1;
  EXPECT_EQ(maniBuilder_CopyBuilt(builder, m1.data(), s1, &s2), mani_success);
  EXPECT_TRUE(SameBytes(m1, m2));
  maniDestroyBuilder(builder);
  // After the build the trainer is usable again.
  EXPECT_EQ(maniLearnedTrainer_RestoreCheckpoint(tr.t, cp.data(), cp.size).result, mani_success);
}

// -- Train ----------------------------------------------------------------------

// "reportOut may be NULL"; "lastLoss ... (0 when it ran none)"; 0 iterations.
TEST(LearnedTrainProbe, TrainZeroIterations) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  File before = Save(tr.t);
  maniLearnedTrainerReport rep = tr.Train(0);
  EXPECT_EQ(rep.iterations, 0u);
  EXPECT_EQ(rep.stage, 0u);
  EXPECT_EQ(rep.stageIteration, 0u);
  EXPECT_EQ(rep.lastLoss, 0.0f);
  EXPECT_EQ(rep.learningRate, 0.001f);
  File after = Save(tr.t);
  EXPECT_TRUE(SameBytes(before, after));
  EXPECT_EQ(maniLearnedTrainer_Train(tr.t, 3, nullptr), mani_success);
  rep = tr.Train(0);
  EXPECT_EQ(rep.stageIteration, 3u);
  EXPECT_EQ(rep.lastLoss, 0.0f);
}

// One call through every stage, one iteration a call, and uneven splits:
// the same checkpoint bytes.
TEST(LearnedTrainProbe, OneCallOrManyGiveTheSameBits) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer once(src.s), ones(src.s), split(src.s);
  maniLearnedTrainerReport r = once.Train(1000);
  EXPECT_EQ(r.iterations, kTotal);
  EXPECT_EQ(r.stage, 3u);
  for (uint64_t i = 0; i < kTotal; ++i) EXPECT_EQ(ones.Train(1).iterations, 1u);
  EXPECT_EQ(split.Train(4).iterations, 4u);
  EXPECT_EQ(split.Train(7).iterations, 7u);
  EXPECT_EQ(split.Train(100).iterations, kTotal - 11);
  File a = Save(once.t), b = Save(ones.t), c = Save(split.t);
  EXPECT_TRUE(SameBytes(a, b));
  EXPECT_TRUE(SameBytes(a, c));
  // Done: more calls run nothing and change nothing.
  Trainer all(src.s);
  r = all.Train(UINT64_MAX);
  EXPECT_EQ(r.iterations, kTotal);
  File e = Save(all.t);
  EXPECT_TRUE(SameBytes(a, e));
  r = once.Train(5);
  EXPECT_EQ(r.iterations, 0u);
  EXPECT_EQ(r.stage, 3u);
  File d = Save(once.t);
  EXPECT_TRUE(SameBytes(a, d));
}

// The report's stage, projector and stageIteration, one iteration at a time,
// and the checkpoint's stage, Projector and iterations (formats.md) alike.
TEST(LearnedTrainProbe, ReportFollowsTheStages) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  // (stage, projector, stageIteration) after n iterations; a stage whose
  // iterations are all done has ended ("below its count" in the checkpoint).
  struct At {
    uint32_t stage, projector;
    uint64_t it;
  };
  const At at[kTotal] = {{0, 0, 1}, {0, 0, 2}, {0, 0, 3}, {0, 0, 4}, {1, 0, 0}, {1, 0, 1}, {1, 0, 2}, {1, 0, 3},
                         {2, 0, 0}, {2, 0, 1}, {2, 0, 2}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2}, {3, 1, 0}};
  for (uint64_t n = 0; n < kTotal; ++n) {
    maniLearnedTrainerReport rep = tr.Train(1);
    EXPECT_EQ(rep.iterations, 1u);
    EXPECT_TRUE(std::isfinite(rep.lastLoss)) << n;
    EXPECT_GE(rep.lastLoss, 0.0f) << n;
    EXPECT_EQ(rep.stage, at[n].stage) << "after " << n + 1;
    if (rep.stage == 2) { EXPECT_EQ(rep.projector, at[n].projector) << "after " << n + 1; }
    if (rep.stage < 3) { EXPECT_EQ(rep.stageIteration, at[n].it) << "after " << n + 1; }
    File cp = Save(tr.t);
    const uint8_t* info = cp.data() + InfoOffset(cp);
    EXPECT_EQ(U32(info + 8), at[n].stage) << "checkpoint after " << n + 1;
    EXPECT_EQ(U32(info + 12), at[n].projector) << "checkpoint after " << n + 1;
    EXPECT_EQ(U64(info + 16), at[n].it) << "checkpoint after " << n + 1;
  }
}

// The rate the next iteration uses after k iterations of stage 1, with
// decayInterval 2: 0.001 times 0.99 `decays` times, each product binary32.
void ExpectRates(const std::function<uint64_t(uint64_t)>& decays) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.decompressorIterations = 9;
  Trainer tr(src.s);
  for (uint64_t k = 1; k < 9; ++k) {
    maniLearnedTrainerReport rep = tr.Train(1);
    volatile float expected = 0.001f;
    for (uint64_t d = 0; d < decays(k); ++d) expected = expected * 0.99f;
    EXPECT_EQ(rep.learningRate, expected) << "after " << k;
    File cp = Save(tr.t);
    EXPECT_EQ(F32(cp.data() + InfoOffset(cp) + 32), expected) << "checkpoint after " << k;
  }
}

// Holden's train_decompressor.py steps its ExponentialLR scheduler when
// `i % 1000 == 0` after iteration i (from 0): the first decay after the
// first iteration, then one every decayInterval.
TEST(LearnedTrainProbe, LearningRateDecaysAsHoldensScripts) {
  ExpectRates([](uint64_t k) { return (k + 1) / 2; });
}

// learnedtrain.h: "decayRate ... the learning rate's factor after each
// stage's first iteration and then every decayInterval iterations": not a
// schedule that first decays after decayInterval iterations (the header
// once read so; the probe that held it to that now checks the wording's
// other reading fails).
TEST(LearnedTrainProbe, LearningRateFirstDecayIsNotAfterAnInterval) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.decayInterval = 2;
  Trainer tr(src.s);
  maniLearnedTrainerReport rep = tr.Train(1);
  EXPECT_LT(rep.learningRate, 0.001f) << "decayed after the first iteration";
}

// Holden's three scripts (train_decompressor.py, train_stepper.py,
// train_projector.py) each make their own AdamW at lr 0.001 and their own
// ExponentialLR: every stage (every Projector in turn) starts at the option's
// rate and decays after its first iteration, then every decayInterval.
TEST(LearnedTrainProbe, LearningRateStartsOverEachStage) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  const uint64_t counts[4] = {5, 4, 3, 3};
  for (int stage = 0; stage < 4; ++stage) {
    for (uint64_t j = 1; j <= counts[stage]; ++j) {
      maniLearnedTrainerReport rep = tr.Train(1);
      if (j == counts[stage]) continue;  // the next stage's rate follows
      volatile float expected = 0.001f;
      for (uint64_t d = 0; d < (j + 1) / 2; ++d) expected = expected * 0.99f;
      EXPECT_EQ(rep.learningRate, expected) << "stage " << stage << " after " << j;
    }
  }
}

// A Train call within a stage allocates nothing (memory is taken as a stage
// begins and released as it ends: "Hot paths allocate nothing").
TEST(LearnedTrainProbe, IterationsWithinAStageAllocateNothing) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Alloc a;
  uint32_t allocations = 0;
  a.onAllocate = [&] { allocations++; };
  const maniLearnedTrainerDef def = a.Def();
  Trainer tr(def, src.s);
  tr.Train(1);  // stage 1 begins
  allocations = 0;
  tr.Train(3);  // iterations 2 to 4 of 5
  EXPECT_EQ(allocations, 0u);
  tr.Train(2);  // stage 1 ends, stage 2 begins
  allocations = 0;
  tr.Train(2);
  EXPECT_EQ(allocations, 0u);
  a.onAllocate = nullptr;
}

// "begin starts task(taskData, i) for i from 0 below count and returns a
// handle (any value); wait returns once every one of them has run": every
// handle begin returned is waited on once, in order, before Train returns;
// an iteration's batch runs as batch / 4 chunks.
struct Recorder {
  std::vector<uintptr_t> begun, waited;
  std::vector<uint32_t> counts;
  uintptr_t next = 0x1000;
  bool waitBeforeBegin = false;
  static void* Begin(void* user, maniLearnedTaskFunction* task, void* data, uint32_t count) {
    Recorder* r = static_cast<Recorder*>(user);
    if (r->begun.size() != r->waited.size()) r->waitBeforeBegin = true;
    for (uint32_t i = count; i-- > 0;) task(data, i);
    r->counts.push_back(count);
    r->next += 16;
    r->begun.push_back(r->next);
    return reinterpret_cast<void*>(r->next);
  }
  static void Wait(void* user, void* handle) {
    static_cast<Recorder*>(user)->waited.push_back(reinterpret_cast<uintptr_t>(handle));
  }
};

TEST(LearnedTrainProbe, TaskHooksBeginAndWaitPair) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.batchSize = 24;
  Recorder rec;
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  def.tasks.begin = Recorder::Begin;
  def.tasks.wait = Recorder::Wait;
  def.tasks.user = &rec;
  Trainer tr(def, src.s);
  tr.Train(2);
  rec.begun.clear(), rec.waited.clear(), rec.counts.clear();
  tr.Train(1);  // a plain iteration of stage 1
  EXPECT_FALSE(rec.begun.empty());
  EXPECT_EQ(rec.begun, rec.waited);
  EXPECT_FALSE(rec.waitBeforeBegin) << "a begin before the last was waited on";
  bool sawChunks = false;
  for (uint32_t c : rec.counts) {
    EXPECT_GT(c, 0u);
    sawChunks = sawChunks || c == 24 / MANI_LEARNED_CHUNK_SAMPLES;
  }
  EXPECT_TRUE(sawChunks);
  tr.Train(kTotal);
  EXPECT_EQ(rec.begun, rec.waited);
  // Tasks run backwards from begin (before it returns) give the same bits.
  Source plainSrc(Data());
  plainSrc.s.options.batchSize = 24;
  Trainer plain(plainSrc.s);
  plain.Train(kTotal);
  File x = Save(tr.t), y = Save(plain.t);
  EXPECT_TRUE(SameBytes(x, y));
}

// "mani_errorCapacity when memory runs out as a stage begins or ends (the
// trainer keeps its progress, and a later call goes on)"
TEST(LearnedTrainProbe, TrainUnderFailingAllocationsGoesOn) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer ref(src.s);
  ref.Train(kTotal);
  File want = Save(ref.t);
  Alloc a;
  const maniLearnedTrainerDef def = a.Def();
  uint32_t failures = 0;
  {
    Trainer tr(def, src.s);
    ASSERT_NE(tr.t, nullptr);
    for (int guard = 0; guard < 200; ++guard) {
      // Each call first with every allocation failing, then (after a
      // refusal) again with none failing: it must go on from its progress.
      a.left = 0;
      maniLearnedTrainerReport rep;
      maniResult r = maniLearnedTrainer_Train(tr.t, 1, &rep);
      a.left = -1;
      if (r == mani_errorCapacity) {
        failures++;
        r = maniLearnedTrainer_Train(tr.t, 1, &rep);
      }
      ASSERT_EQ(r, mani_success) << "call " << guard;
      if (rep.stage == 3) break;
    }
    File got = Save(tr.t);
    EXPECT_TRUE(SameBytes(got, want));
  }
  EXPECT_EQ(a.outstanding, 0);
  EXPECT_GT(failures, 0u) << "no stage allocated (nothing probed)";
}

// A task system on real threads (index i on thread i mod threads), or
// running the indices backwards from wait.
struct Threads {
  uint32_t threads = 1;
  bool backwards = false;
  struct Run {
    std::vector<std::thread> workers;
    maniLearnedTaskFunction* task;
    void* data;
    uint32_t count;
  };
  static void* Begin(void* user, maniLearnedTaskFunction* task, void* data, uint32_t count) {
    Threads* t = static_cast<Threads*>(user);
    Run* run = new Run;
    run->task = task, run->data = data, run->count = count;
    if (!t->backwards)
      for (uint32_t k = 0; k < t->threads; ++k)
        run->workers.emplace_back([=] {
          for (uint32_t i = k; i < count; i += t->threads) task(data, i);
        });
    return run;
  }
  static void Wait(void* user, void* handle) {
    Threads* t = static_cast<Threads*>(user);
    Run* run = static_cast<Run*>(handle);
    if (t->backwards)
      for (uint32_t i = run->count; i-- > 0;) run->task(run->data, i);
    for (auto& w : run->workers) w.join();
    delete run;
  }
  maniLearnedTrainerDef Def() {
    maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
    def.tasks.begin = Begin;
    def.tasks.wait = Wait;
    def.tasks.user = this;
    return def;
  }
};

// "the bits, do not depend on the thread count"
TEST(LearnedTrainProbe, SameBitsOnOneTwoThreeThreadsAndNone) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.batchSize = 24;  // 6 chunks
  Trainer none(src.s);
  none.Train(7);
  File midNone = Save(none.t);
  none.Train(kTotal);
  File endNone = Save(none.t);
  for (int mode = 0; mode < 4; ++mode) {
    Threads th;
    th.threads = mode == 3 ? 1 : uint32_t(mode + 1);
    th.backwards = mode == 3;
    Trainer tr(th.Def(), src.s);
    tr.Train(7);
    File mid = Save(tr.t);
    EXPECT_TRUE(SameBytes(mid, midNone)) << "mode " << mode;
    tr.Train(kTotal);
    File end = Save(tr.t);
    EXPECT_TRUE(SameBytes(end, endNone)) << "mode " << mode;
  }
}

// maniLearnedTaskHooks.maxTasks: "the most tasks an iteration's chunks are
// handed in ... The bits do not depend on it", and begin is never given more
// tasks than it; the gradient sums and the step run on the hooks too.
TEST(LearnedTrainProbe, SameBitsAtAnyMaxTasks) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.batchSize = 28;  // 7 chunks: uneven splits
  Trainer none(src.s);
  none.Train(kTotal);
  File endNone = Save(none.t);
  const uint32_t maxTasks[] = {1, 2, 3, 7, 9};
  for (uint32_t most : maxTasks)
    for (uint32_t threads = 1; threads <= 2; ++threads) {
      Threads th;
      th.threads = threads;
      maniLearnedTrainerDef def = th.Def();
      def.tasks.maxTasks = most;
      Trainer tr(def, src.s);
      tr.Train(kTotal);
      File end = Save(tr.t);
      EXPECT_TRUE(SameBytes(end, endNone)) << "maxTasks " << most << " threads " << threads;
    }
  Recorder rec;
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  def.tasks.begin = Recorder::Begin;
  def.tasks.wait = Recorder::Wait;
  def.tasks.user = &rec;
  def.tasks.maxTasks = 3;
  Trainer tr(def, src.s);
  tr.Train(3);
  ASSERT_FALSE(rec.counts.empty());
  for (uint32_t c : rec.counts) EXPECT_TRUE(c >= 1 && c <= 3) << c;
  Trainer three(src.s);
  three.Train(3);
  File a = Save(tr.t), b = Save(three.t);
  EXPECT_TRUE(SameBytes(a, b));
}

// -- SaveCheckpoint ----------------------------------------------------------------

// "Call it with a NULL buffer and capacity 0 to measure"; "the size changes
// as training moves through its stages"; the container's header fields.
TEST(LearnedTrainProbe, SaveMeasuresAndWritesTheContainer) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  std::vector<size_t> sizes;
  for (uint64_t n : {0, 1, 5, 4, 3, 3}) {
    if (n) tr.Train(n);
    size_t size = 0;
    EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(tr.t, nullptr, 0, &size), mani_errorCapacity);
    EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(tr.t, nullptr, 0, nullptr), mani_errorCapacity);
    File f = Save(tr.t);
    EXPECT_EQ(f.size, size);
    sizes.push_back(size);
    const uint8_t* h = f.data();
    EXPECT_EQ(memcmp(h, "MAUL", 4), 0);
    EXPECT_EQ(U32(h + 4), 14u);
    EXPECT_EQ(U32(h + 8), 40u);
    EXPECT_EQ(U32(h + 12), MANI_ABI_VERSION);
    EXPECT_EQ(U64(h + 16), size);
    EXPECT_EQ(U32(h + 24), 4u);
    EXPECT_EQ(size % 16, 0u);
    const uint64_t id = U64(h + 32);
    Rehash(f);
    EXPECT_EQ(U64(f.data() + 32), id) << "identity is the hash of bytes 64 to the end";
    // sizeOut NULL with enough room works.
    File g;
    g.words.assign(size / 8 + 2, 0);
    g.size = size;
    EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(tr.t, g.data(), size + 16, nullptr), mani_success);
    EXPECT_TRUE(SameBytes(g, f));
  }
  // Stage 1 has the Compressor's and Decompressor's moments, stage 2 the
  // Stepper's, done none: the sizes differ.
  EXPECT_NE(sizes[1], sizes[5]);
  EXPECT_NE(sizes[2], sizes[1]);
}

// "mani_errorCapacity when capacity is smaller than the checkpoint, with the
// size still written and the buffer zeroed"
TEST(LearnedTrainProbe, SaveTooSmallZeroesTheBuffer) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  tr.Train(6);
  File full = Save(tr.t);
  for (size_t cap : {size_t(1), size_t(16), size_t(64), full.size / 2, full.size - 1}) {
    std::vector<uint8_t> buf(full.size + 32, 0xAB);
    size_t size = 3;
    EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(tr.t, buf.data() + 16 - (uintptr_t(buf.data()) % 16), cap, &size),
              mani_errorCapacity);
    EXPECT_EQ(size, full.size);
    const uint8_t* p = buf.data() + 16 - (uintptr_t(buf.data()) % 16);
    size_t nonzero = 0;
    for (size_t i = 0; i < cap; ++i) nonzero += p[i] != 0;
    EXPECT_EQ(nonzero, 0u) << "capacity " << cap;
    EXPECT_EQ(p[cap], 0xAB) << "written past the capacity " << cap;
  }
}

// "mani_errorInvalid for a NULL trainer or a NULL buffer with a positive capacity"
TEST(LearnedTrainProbe, SaveNullBufferWithCapacity) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  size_t size = 0;
  EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(tr.t, nullptr, 1, &size), mani_errorInvalid);
  EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(tr.t, nullptr, 1u << 20, &size), mani_errorInvalid);
  EXPECT_EQ(maniLearnedTrainer_GetMisuse(tr.t), 0u) << "only calls back in are counted";
}

// -- RestoreCheckpoint -----------------------------------------------------------

// A trainer part way (stage 2, Stepper) and its checkpoint, for the failure
// probes: restore must leave it as it was.
struct Restored {
  Source src{Data()};
  Trainer tr{src.s};
  File before;
  Restored() {
    tr.Train(7);
    before = Save(tr.t);
  }
  void ExpectUnchanged(const std::string& what) {
    File now = Save(tr.t);
    EXPECT_TRUE(SameBytes(now, before)) << "trainer changed by a failed restore: " << what;
  }
};

// A checkpoint of the same source after n iterations (12: stage 2, Projector 1).
File OtherPoint(uint64_t n) {
  Source src(Data());
  Trainer tr(src.s);
  tr.Train(n);
  return Save(tr.t);
}

// "mani_errorInvalid for a NULL argument or misaligned bytes"
TEST(LearnedTrainProbe, RestoreNullAndMisaligned) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  File cp = OtherPoint(12);
  EXPECT_EQ(maniLearnedTrainer_RestoreCheckpoint(r.tr.t, nullptr, cp.size).result, mani_errorInvalid);
  r.ExpectUnchanged("NULL bytes");
  std::vector<uint64_t> shifted(cp.size / 8 + 4, 0);
  for (size_t shift : {1u, 4u, 8u}) {
    uint8_t* p = reinterpret_cast<uint8_t*>(shifted.data()) + (16 - uintptr_t(shifted.data()) % 16) % 16 + shift;
    memcpy(p, cp.data(), cp.size);
    EXPECT_EQ(maniLearnedTrainer_RestoreCheckpoint(r.tr.t, p, cp.size).result, mani_errorInvalid) << shift;
    r.ExpectUnchanged("misaligned");
  }
}

// Truncated at every length up to 512 and sampled past it: mani_errorFormat
// at an offset within the bytes given, the trainer unchanged.
TEST(LearnedTrainProbe, RestoreTruncated) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  File cp = OtherPoint(12);
  std::vector<size_t> lengths;
  for (size_t n = 0; n < cp.size && n < 512; ++n) lengths.push_back(n);
  for (size_t n = 512; n < cp.size; n += 509) lengths.push_back(n);
  for (size_t n = cp.size > 32 ? cp.size - 32 : 0; n < cp.size; ++n) lengths.push_back(n);
  for (size_t n : lengths) {
    File g;
    g.Assign(cp.data(), n);
    const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, g.data(), n);
    ASSERT_EQ(res.result, mani_errorFormat) << "truncated to " << n;
    ASSERT_LE(res.offset, n) << "truncated to " << n;
  }
  r.ExpectUnchanged("truncated");
  // Longer than the checkpoint: the total size field (offset 16) is wrong.
  File g;
  g.Assign(cp.data(), cp.size + 16);
  const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, g.data(), cp.size + 16);
  EXPECT_EQ(res.result, mani_errorFormat);
  EXPECT_EQ(res.offset, 16u);
  r.ExpectUnchanged("longer");
}

// Every byte of the header, section table and info section changed (+1, 0xFF
// XOR): refused with mani_errorFormat or mani_errorVersion inside the bytes,
// the trainer unchanged.
TEST(LearnedTrainProbe, RestoreEveryHeaderAndInfoByteChanged) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  File cp = OtherPoint(12);
  const size_t end = InfoOffset(cp) + 64;
  for (size_t i = 0; i < end; ++i) {
    for (int patch = 0; patch < 2; ++patch) {
      File g;
      g.Assign(cp.data(), cp.size);
      g.data()[i] = patch ? uint8_t(g.data()[i] ^ 0xFF) : uint8_t(g.data()[i] + 1);
      const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, g.data(), g.size);
      ASSERT_TRUE(res.result == mani_errorFormat || res.result == mani_errorVersion)
          << "byte " << i << " patch " << patch << " result " << res.result;
      ASSERT_LT(res.offset, cp.size);
      // Past the header only a table tag's version half (its bytes 2 and 3)
      // may say mani_errorVersion (a section only a later format writes).
      const bool tagVersion = i >= 64 && i < 64 + 4 * 24 && (i - 64) % 24 >= 2 && (i - 64) % 24 < 4;
      if (i >= 64 && !tagVersion) { EXPECT_EQ(res.result, mani_errorFormat) << "byte " << i; }
    }
    if (i % 16 == 0) r.ExpectUnchanged("byte " + std::to_string(i));
  }
  r.ExpectUnchanged("header bytes");
}

// With the identity recomputed, info fields out of their ranges are refused
// at their own byte (formats.md: "then each info field at its byte").
TEST(LearnedTrainProbe, RestoreInfoFieldsAtTheirBytes) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  File cp = OtherPoint(7);  // stage 1 (Stepper), iteration 2, moments follow
  const uint64_t info = InfoOffset(cp);
  {
    File g;
    g.Assign(cp.data(), cp.size);
    Rehash(g);
    EXPECT_EQ(maniLearnedTrainer_RestoreCheckpoint(r.tr.t, g.data(), g.size).result, mani_success);
  }
  ASSERT_EQ(U32(cp.data() + info + 8), 1u);
  struct Patch {
    uint64_t at;
    uint32_t value;
  };
  const float neg = -1.0f, two = 2.0f;
  uint32_t negBits, twoBits;
  memcpy(&negBits, &neg, 4);
  memcpy(&twoBits, &two, 4);
  const Patch patches[] = {
      {8, 4},            // stage past done
      {16, 4},           // iterations of stage 2 (4) not below its count
      {16, 1000},        //
      {32, negBits},     // learning rate negative (NaN and inf are a decayed run's: RestoreTakesDivergedFloats)
      {36, twoBits},     // beta1^t past 1
      {40, negBits},     // beta2^t below 0
      {44, 2},           // moments flag not 0 or 1
      {48, 1},           // parameter count not the trainer's
      {56, 3},           // moment count not the stage's rounded to 16
  };
  for (const Patch& p : patches) {
    File g;
    g.Assign(cp.data(), cp.size);
    memcpy(g.data() + info + p.at, &p.value, 4);
    if (p.at == 16 || p.at == 48 || p.at == 56) memset(g.data() + info + p.at + 4, 0, 4);
    Rehash(g);
    const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, g.data(), g.size);
    EXPECT_EQ(res.result, mani_errorFormat) << "info field " << p.at;
    EXPECT_EQ(res.offset, info + p.at) << "info field " << p.at;
  }
  r.ExpectUnchanged("info fields");
}

// Header: "mani_errorFormat with the offset of the first byte found wrong (the
// signature's, the info section's first byte, for a checkpoint of another
// source or options)"
TEST(LearnedTrainProbe, RestoreOtherSourceOrOptionsAtTheSignature) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  auto expectAtSignature = [&](const std::function<void(maniLearnedTrainerSource&)>& change, const char* what) {
    Source src(Data());
    change(src.s);
    Trainer o(src.s);
    ASSERT_NE(o.t, nullptr) << what;
    o.Train(7);
    File cp = Save(o.t);
    const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, cp.data(), cp.size);
    EXPECT_EQ(res.result, mani_errorFormat) << what;
    EXPECT_EQ(res.offset, InfoOffset(cp)) << what;
    r.ExpectUnchanged(what);
  };
  expectAtSignature([](maniLearnedTrainerSource& s) { s.options.seed = 99; }, "seed");
  expectAtSignature([](maniLearnedTrainerSource& s) { s.options.learningRate = 0.002f; }, "learning rate");
  expectAtSignature([](maniLearnedTrainerSource& s) { s.options.projectorIterations = 4; }, "projector iterations");
  static const maniLearnedTrainerProjector tags[2] = {{0, 0}, {2, 1}};
  expectAtSignature([](maniLearnedTrainerSource& s) { s.projectors = tags; }, "projector tags");
  static const maniLearnedNameSource names[2] = {{"event-0", 7}, {"event-2", 7}};
  expectAtSignature([](maniLearnedTrainerSource& s) { s.events = names; }, "event names");
}

// "the hash of the source and options: ... every option": each option
// changed alone to another valid value gives a checkpoint refused at the
// signature.
TEST(LearnedTrainProbe, RestoreEveryOptionInTheSignature) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  const std::function<void(maniLearnedTrainerOptions&)> changes[] = {
      [](maniLearnedTrainerOptions& o) { o.latentCount = 5; },
      [](maniLearnedTrainerOptions& o) { o.compressorWidth = 9; },
      [](maniLearnedTrainerOptions& o) { o.compressorLayers = 2; },
      [](maniLearnedTrainerOptions& o) { o.decompressorWidth = 9; },
      [](maniLearnedTrainerOptions& o) { o.decompressorLayers = 2; },
      [](maniLearnedTrainerOptions& o) { o.stepperWidth = 9; },
      [](maniLearnedTrainerOptions& o) { o.stepperLayers = 3; },
      [](maniLearnedTrainerOptions& o) { o.projectorWidth = 9; },
      [](maniLearnedTrainerOptions& o) { o.projectorLayers = 3; },
      [](maniLearnedTrainerOptions& o) { o.batchSize = 12; },
      [](maniLearnedTrainerOptions& o) { o.trainingWindow = 3; },
      [](maniLearnedTrainerOptions& o) { o.stepperWindow = 5; },
      [](maniLearnedTrainerOptions& o) { o.decompressorIterations = 6; },
      [](maniLearnedTrainerOptions& o) { o.stepperIterations = 5; },
      [](maniLearnedTrainerOptions& o) { o.projectorIterations = 4; },
      [](maniLearnedTrainerOptions& o) { o.learningRate = 0.0011f; },
      [](maniLearnedTrainerOptions& o) { o.weightDecay = 0.002f; },
      [](maniLearnedTrainerOptions& o) { o.beta1 = 0.8f; },
      [](maniLearnedTrainerOptions& o) { o.beta2 = 0.99f; },
      [](maniLearnedTrainerOptions& o) { o.epsilon = 1e-7f; },
      [](maniLearnedTrainerOptions& o) { o.decayRate = 0.98f; },
      [](maniLearnedTrainerOptions& o) { o.decayInterval = 3; },
      [](maniLearnedTrainerOptions& o) { o.seed = 1235; },
  };
  int place = 0;
  for (const auto& change : changes) {
    Source src(Data());
    change(src.s.options);
    Trainer o(src.s);
    ASSERT_NE(o.t, nullptr) << "option " << place;
    o.Train(1);
    File cp = Save(o.t);
    const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, cp.data(), cp.size);
    EXPECT_EQ(res.result, mani_errorFormat) << "option change " << place;
    EXPECT_EQ(res.offset, InfoOffset(cp)) << "option change " << place;
    place++;
  }
  r.ExpectUnchanged("options");
}

// "mani_errorVersion for any other format version or a checkpoint written by
// a release of another ABI version (MANI_ABI_VERSION, the container's ABI field)"
TEST(LearnedTrainProbe, RestoreOtherFormatOrAbiIsVersion) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  File cp = OtherPoint(12);
  for (uint32_t format : {39u, 41u, 31u, 0u}) {
    File g;
    g.Assign(cp.data(), cp.size);
    memcpy(g.data() + 8, &format, 4);
    // The reference's offsets (40 for the identity, 16 for a version) name
    // another header; Maul's one container has its format version at 8 and
    // its ABI field at 12 (docs/formats.md, "Trainer checkpoint").
    const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, g.data(), g.size);
    EXPECT_EQ(res.result, mani_errorVersion) << format;
    EXPECT_EQ(res.offset, 8u) << format;
  }
  for (uint32_t abi : {MANI_ABI_VERSION + 1u, MANI_ABI_VERSION + (1u << 16), 0u}) {
    File g;
    g.Assign(cp.data(), cp.size);
    memcpy(g.data() + 12, &abi, 4);
    const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, g.data(), g.size);
    EXPECT_EQ(res.result, mani_errorVersion) << abi;
    EXPECT_EQ(res.offset, 12u) << abi;
  }
  r.ExpectUnchanged("versions");
}


// "mani_errorCapacity when memory runs out (the trainer then starts over)"
TEST(LearnedTrainProbe, RestoreUnderFailingAllocationsStartsOver) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer fresh(src.s);
  File start = Save(fresh.t);
  File cp = OtherPoint(11);  // stage 2 (Projectors), Projector 0, iteration 2
  bool sawSuccess = false;
  uint32_t failures = 0;
  for (long n = 0; n < 400 && !sawSuccess; ++n) {
    Alloc a;
    const maniLearnedTrainerDef def = a.Def();
    {
      Trainer tr(def, src.s);
      ASSERT_NE(tr.t, nullptr);
      tr.Train(6);  // in stage 2
      a.left = n;
      const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(tr.t, cp.data(), cp.size);
      a.left = -1;
      File now = Save(tr.t);
      if (res.result == mani_success) {
        sawSuccess = true;
        EXPECT_TRUE(SameBytes(now, cp));
      } else {
        failures++;
        EXPECT_EQ(res.result, mani_errorCapacity) << n;
        EXPECT_TRUE(SameBytes(now, start)) << "not started over, allocation " << n;
        // It trains on from the start as a fresh trainer does.
        tr.Train(3);
        Trainer ref(src.s);
        ref.Train(3);
        File x = Save(tr.t), y = Save(ref.t);
        EXPECT_TRUE(SameBytes(x, y)) << n;
      }
    }
    EXPECT_EQ(a.outstanding, 0) << n;
  }
  EXPECT_TRUE(sawSuccess);
  RecordProperty("restore_allocation_failures", failures);
}

// "training on gives the same bits as training through", from every point,
// into fresh trainers and ones further along.
TEST(LearnedTrainProbe, RestoreThenTrainIsTrainThrough) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer through(src.s);
  through.Train(kTotal);
  File want = Save(through.t);
  for (uint64_t at = 0; at <= kTotal; ++at) {
    File cp = OtherPoint(at);
    for (uint64_t otherAt : {uint64_t(0), uint64_t(13), kTotal}) {
      Trainer tr(src.s);
      tr.Train(otherAt);
      ASSERT_EQ(maniLearnedTrainer_RestoreCheckpoint(tr.t, cp.data(), cp.size).result, mani_success)
          << at << " into " << otherAt;
      File same = Save(tr.t);
      EXPECT_TRUE(SameBytes(same, cp)) << at;
      maniLearnedTrainerReport rep = tr.Train(kTotal);
      EXPECT_EQ(rep.iterations, kTotal - at) << at;
      File got = Save(tr.t);
      EXPECT_TRUE(SameBytes(got, want)) << at << " into " << otherAt;
    }
  }
}

// A second moment below 0 (no trainer writes one), identity recomputed:
// refused at its byte, trainer unchanged.
TEST(LearnedTrainProbe, RestoreRefusesNegativeSecondMoment) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  File cp = OtherPoint(2);  // stage 1, moments follow
  const uint64_t moments = U64(cp.data() + 64 + 3 * 24 + 8);
  const uint64_t m = U64(cp.data() + InfoOffset(cp) + 56);
  ASSERT_GT(m, 0u);
  const float neg = -1.0f;
  for (uint64_t at : {moments + 4 * m + 4, moments + 8 * m + 4}) {  // v[1], max v[1]
    File g;
    g.Assign(cp.data(), cp.size);
    memcpy(g.data() + at, &neg, 4);
    Rehash(g);
    const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, g.data(), g.size);
    EXPECT_EQ(res.result, mani_errorFormat);
    EXPECT_EQ(res.offset, at);
  }
  r.ExpectUnchanged("negative second moment");
}

// "training on gives the same bits as training through": a run that
// diverges saves infinities and NaN, so a restore takes any parameter,
// latent value, first moment and learning rate bits and saves them back
// unchanged (a fuzz finding: a huge finite weight trained to inf in two
// iterations and its own checkpoint was refused).
TEST(LearnedTrainProbe, RestoreTakesDivergedFloats) {
  ASSERT_TRUE(Data().ok);
  File cp = OtherPoint(7);  // stage 2 under way: latent values present, moments follow
  const uint64_t params = U64(cp.data() + 64 + 24 + 8);
  const uint64_t latent = U64(cp.data() + 64 + 2 * 24 + 8);
  const uint64_t moments = U64(cp.data() + 64 + 3 * 24 + 8);
  const uint64_t info = InfoOffset(cp);
  ASSERT_GT(U64(cp.data() + info + 56), 0u);
  const float nan = NAN, inf = INFINITY, huge = 3e38f;
  File g;
  g.Assign(cp.data(), cp.size);
  memcpy(g.data() + params + 8, &nan, 4);
  memcpy(g.data() + params + 12, &huge, 4);
  memcpy(g.data() + latent + 4, &inf, 4);
  memcpy(g.data() + moments + 4, &nan, 4);
  memcpy(g.data() + info + 32, &inf, 4);
  Rehash(g);
  Source src(Data());
  Trainer a(src.s);
  const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(a.t, g.data(), g.size);
  ASSERT_EQ(res.result, mani_success) << res.offset;
  File back = Save(a.t);
  EXPECT_TRUE(SameBytes(back, g)) << "a restore saves what it took";
  // Trained on (to whatever it diverges to), saved, restored into a fresh
  // trainer and trained on: the same bits as training through.
  a.Train(2);
  File mid = Save(a.t);
  Trainer b(src.s);
  ASSERT_EQ(maniLearnedTrainer_RestoreCheckpoint(b.t, mid.data(), mid.size).result, mani_success);
  a.Train(2);
  b.Train(2);
  File through = Save(a.t), restored = Save(b.t);
  EXPECT_TRUE(SameBytes(through, restored));
}

// A checkpoint of another database and skeleton: refused at the signature
// (checked before the sections' sizes, which differ too).
TEST(LearnedTrainProbe, RestoreOtherDatabaseAtTheSignature) {
  ASSERT_TRUE(Data().ok);
  Restored r;
  TrainData other(12);
  ASSERT_TRUE(other.ok);
  Source src(other);
  Trainer o(src.s);
  o.Train(7);
  File cp = Save(o.t);
  const maniFileResult res = maniLearnedTrainer_RestoreCheckpoint(r.tr.t, cp.data(), cp.size);
  EXPECT_EQ(res.result, mani_errorFormat);
  EXPECT_EQ(res.offset, InfoOffset(cp));
  r.ExpectUnchanged("other database");
}

// formats.md's info: "u32 1 when the stage's moments follow else 0 (0 when
// done) ... u64 moment count m (the stage's parameters rounded up to 16, or
// 0)", the moments section 12 m bytes; the latent section 4 x frames x
// latent, "0 before stage 1 ends", then every frame's latent values.
TEST(LearnedTrainProbe, CheckpointMomentsAndLatentFollowTheStages) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  uint32_t features = 0;
  ASSERT_EQ(maniMotionDatabase_GetFeatures(&Data().db, 0, nullptr, 0, &features), mani_errorCapacity);
  ASSERT_GT(features, 0u);
  const uint64_t state = features + 4;
  // The Stepper: state -> 8 -> 8 -> state, weights and biases.
  const uint64_t stepper = state * 8 + 8 + 8 * 8 + 8 + 8 * state + state;
  Trainer tr(src.s);
  for (uint64_t n = 1; n <= kTotal; ++n) {
    tr.Train(1);
    File cp = Save(tr.t);
    const uint8_t* info = cp.data() + InfoOffset(cp);
    const uint32_t stage = U32(info + 8);
    const uint32_t flag = U32(info + 44);
    const uint64_t m = U64(info + 56);
    const uint64_t momentsSize = U64(cp.data() + 64 + 3 * 24 + 16);
    const uint64_t latentOffset = U64(cp.data() + 64 + 2 * 24 + 8);
    const uint64_t latentSize = U64(cp.data() + 64 + 2 * 24 + 16);
    EXPECT_EQ(momentsSize, 12 * m) << n;
    EXPECT_EQ(m % 16, 0u) << n;
    EXPECT_EQ(flag, m ? 1u : 0u) << n;
    if (stage == 3) {
      EXPECT_EQ(flag, 0u);
      EXPECT_EQ(m, 0u);
    }
    if (stage == 1 && U64(info + 16) > 0) {
      EXPECT_EQ(m, (stepper + 15) / 16 * 16) << n;
    }
    EXPECT_EQ(latentSize % 16, 0u);
    size_t nonzero = 0, finite = 0;
    for (uint64_t k = 0; k < latentSize / 4; ++k) {
      const float v = F32(cp.data() + latentOffset + 4 * k);
      nonzero += v != 0.0f;
      finite += std::isfinite(v);
    }
    EXPECT_EQ(finite, latentSize / 4) << n;
    if (n < 5) {
      EXPECT_EQ(nonzero, 0u) << "latent values before stage 1 ends, after " << n;
    } else {
      EXPECT_GT(nonzero, latentSize / 8) << "no latent values after stage 1, after " << n;
    }
  }
}

// Reports (lastLoss included, which no checkpoint holds) the same bits with
// and without threads, one iteration a call.
TEST(LearnedTrainProbe, SameLossesOnThreads) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.batchSize = 16;
  Threads th;
  th.threads = 3;
  Trainer a(src.s), b(th.Def(), src.s);
  for (uint64_t n = 0; n < kTotal; ++n) {
    maniLearnedTrainerReport ra = a.Train(1), rb = b.Train(1);
    EXPECT_EQ(memcmp(&ra.lastLoss, &rb.lastLoss, 4), 0) << n;
    EXPECT_EQ(memcmp(&ra.learningRate, &rb.learningRate, 4), 0) << n;
    EXPECT_NE(ra.lastLoss, 0.0f) << n;
  }
}

// "Safe from any thread": trainers made and trained on two threads at once
// give the bits of one made and trained alone.
TEST(LearnedTrainProbe, TrainersOnTwoThreadsAtOnce) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer alone(src.s);
  alone.Train(kTotal);
  File want = Save(alone.t);
  File got[2];
  std::thread workers[2];
  for (int k = 0; k < 2; ++k)
    workers[k] = std::thread([&, k] {
      Trainer t(src.s);
      t.Train(kTotal);
      got[k] = Save(t.t);
    });
  for (auto& w : workers) w.join();
  EXPECT_TRUE(SameBytes(got[0], want));
  EXPECT_TRUE(SameBytes(got[1], want));
}

// The bounds' other side: MANI_MAX_LEARNED_BATCH and MANI_MAX_LEARNED_LATENT
// are accepted.
TEST(LearnedTrainProbe, AcceptsMaxBatchAndLatent) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  src.s.options.batchSize = MANI_MAX_LEARNED_BATCH;
  src.s.options.latentCount = MANI_MAX_LEARNED_LATENT;
  Trainer t(src.s);
  EXPECT_NE(t.t, nullptr);
}

// A checkpoint written to a buffer at any alignment (only a restore needs 16).
TEST(LearnedTrainProbe, SaveToAnyAlignment) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  tr.Train(3);
  File want = Save(tr.t);
  std::vector<uint8_t> buf(want.size + 32);
  for (size_t shift : {1u, 3u, 8u}) {
    size_t size = 0;
    EXPECT_EQ(maniLearnedTrainer_SaveCheckpoint(tr.t, buf.data() + shift, want.size, &size), mani_success);
    EXPECT_EQ(size, want.size);
    EXPECT_EQ(memcmp(buf.data() + shift, want.data(), want.size), 0) << shift;
  }
}

// -- BuildLearnedModelFromTrainer ------------------------------------------------

// "mani_errorInvalid for a NULL argument or a trainer with a stage to run"
TEST(LearnedTrainProbe, BuildBeforeDoneIsInvalid) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  Builder b;
  for (uint64_t n : {0, 1, 5, 4, 4}) {  // 0, 1, 6, 10 and 14 iterations of 15
    tr.Train(n);
    const maniBuildResult r = maniBuildLearnedModelFromTrainer(b.b, tr.t, maniLearnedWeightsFloat32);
    EXPECT_EQ(r.result, mani_errorInvalid) << n;
  }
  EXPECT_EQ(maniBuildLearnedModelFromTrainer(nullptr, tr.t, maniLearnedWeightsFloat32).result, mani_errorInvalid);
  tr.Train(1);
  EXPECT_EQ(maniBuildLearnedModelFromTrainer(b.b, tr.t, maniLearnedWeightsFloat32).result, mani_success);
  EXPECT_EQ(maniBuildLearnedModelFromTrainer(nullptr, tr.t, maniLearnedWeightsFloat32).result, mani_errorInvalid);
  // "maniBuildReasonOption (no latent values or the weight format)"
  const maniBuildResult bad = maniBuildLearnedModelFromTrainer(b.b, tr.t, maniLearnedWeights(2));
  EXPECT_EQ(bad.result, mani_errorInvalid);
  EXPECT_EQ(bad.reason, uint32_t(maniBuildReasonOption));
  // Refused arguments are not calls back in: no misuse.
  EXPECT_EQ(maniLearnedTrainer_GetMisuse(tr.t), 0u);
}

// "Returns as maniBuildLearnedModel" ("On failure the builder keeps what it
// held"): a refused build from a trainer leaves the builder's model.
TEST(LearnedTrainProbe, RefusedBuildKeepsTheBuildersModel) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer done(src.s), young(src.s);
  done.Train(kTotal);
  young.Train(3);
  Builder b;
  ASSERT_EQ(maniBuildLearnedModelFromTrainer(b.b, done.t, maniLearnedWeights16).result, mani_success);
  File held = b.Built();
  EXPECT_EQ(maniBuildLearnedModelFromTrainer(b.b, young.t, maniLearnedWeightsFloat32).result, mani_errorInvalid);
  File now = b.Built();
  EXPECT_TRUE(SameBytes(now, held));
  EXPECT_EQ(maniBuildLearnedModelFromTrainer(b.b, done.t, maniLearnedWeights(7)).result, mani_errorInvalid);
  File again = b.Built();
  EXPECT_TRUE(SameBytes(again, held));
}

// Float tracks and events no clip has: "0 where a clip lacks it" (not
// refused); they train through and build.
TEST(LearnedTrainProbe, NamesNoClipHasTrain) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  static const maniLearnedNameSource absent[1] = {{"absent-name", 11}};
  src.s.floatTracks = absent;
  src.s.floatTrackCount = 1;
  src.s.events = absent;
  src.s.eventCount = 1;
  Trainer tr(src.s);
  ASSERT_NE(tr.t, nullptr);
  maniLearnedTrainerReport rep = tr.Train(kTotal);
  EXPECT_EQ(rep.stage, 3u);
  Builder b;
  EXPECT_EQ(maniBuildLearnedModelFromTrainer(b.b, tr.t, maniLearnedWeightsFloat32).result, mani_success);
}

struct Models {
  File f32, w16;
  maniLearnedModel m32{}, m16{};
};

void BuildBoth(const maniLearnedTrainer* t, Models& out) {
  Builder b;
  ASSERT_EQ(maniBuildLearnedModelFromTrainer(b.b, t, maniLearnedWeightsFloat32).result, mani_success);
  out.f32 = b.Built();
  ASSERT_EQ(maniBuildLearnedModelFromTrainer(b.b, t, maniLearnedWeights16).result, mani_success);
  out.w16 = b.Built();
  ASSERT_EQ(maniOpenLearnedModel(out.f32.data(), out.f32.size, &out.m32).result, mani_success);
  ASSERT_EQ(maniOpenLearnedModel(out.w16.data(), out.w16.size, &out.m16).result, mani_success);
}

// Both weight formats open, with the source's shape; "its step rate the
// database's sample rate".
TEST(LearnedTrainProbe, BuildBothFormatsOpen) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  tr.Train(kTotal);
  Models m;
  BuildBoth(tr.t, m);
  for (maniLearnedModel* model : {&m.m32, &m.m16}) {
    EXPECT_EQ(model->stepRate, 30.0f);
    EXPECT_EQ(model->latentCount, 4u);
    EXPECT_EQ(model->projectorCount, 2u);
    EXPECT_EQ(model->floatTrackCount, 1u);
    EXPECT_EQ(model->eventCount, 2u);
    EXPECT_EQ(model->boneCount, 12u);
    EXPECT_EQ(maniLearnedModel_GetSkeletonIdentity(model), maniSkeleton_GetIdentity(&Data().skel));
    EXPECT_EQ(maniLearnedModel_GetDatabaseIdentity(model), maniMotionDatabase_GetIdentity(&Data().db));
    for (uint32_t p = 0; p < 2; ++p) {
      uint32_t req = 99, exc = 99;
      EXPECT_EQ(maniLearnedModel_GetProjector(model, p, &req, &exc), mani_success);
      EXPECT_EQ(req, uint32_t(kProjectors[p].requiredTags));
      EXPECT_EQ(exc, uint32_t(kProjectors[p].excludedTags));
    }
    size_t len = 0;
    const char* n = maniLearnedModel_GetEventName(model, 1, &len);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(std::string(n, len), "event-1");
    n = maniLearnedModel_GetFloatTrackName(model, 0, &len);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(std::string(n, len), "curve-0");
  }
  EXPECT_EQ(m.m32.weightFormat, uint32_t(maniLearnedWeightsFloat32));
  EXPECT_EQ(m.m16.weightFormat, uint32_t(maniLearnedWeights16));
  EXPECT_NE(maniLearnedModel_GetIdentity(&m.m32), maniLearnedModel_GetIdentity(&m.m16));
}

// The model's identity (and bytes) the same across builds, builders, and a
// trainer restored from the trained one's checkpoint.
TEST(LearnedTrainProbe, BuildIdentityStable) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  tr.Train(kTotal);
  Models a, b;
  BuildBoth(tr.t, a);
  BuildBoth(tr.t, b);
  EXPECT_TRUE(SameBytes(a.f32, b.f32));
  EXPECT_TRUE(SameBytes(a.w16, b.w16));
  EXPECT_EQ(maniLearnedModel_GetIdentity(&a.m32), maniLearnedModel_GetIdentity(&b.m32));
  File cp = Save(tr.t);
  Trainer other(src.s);
  ASSERT_EQ(maniLearnedTrainer_RestoreCheckpoint(other.t, cp.data(), cp.size).result, mani_success);
  Models c;
  BuildBoth(other.t, c);
  EXPECT_TRUE(SameBytes(a.f32, c.f32));
  EXPECT_TRUE(SameBytes(a.w16, c.w16));
  // Building leaves the trainer as it was.
  File after = Save(tr.t);
  EXPECT_TRUE(SameBytes(after, cp));
}

// learnedbuild.h: "16-bit: each input's weights divided by the largest of
// their magnitudes over 32767, rounded to nearest, ties to even, that scale
// kept; an input whose weights are all 0 keeps scale 0" — checked against the
// binary32 model of the same trainer, parameter by parameter (formats.md's
// parameters layout).
TEST(LearnedTrainProbe, Build16BitRounding) {
  ASSERT_TRUE(Data().ok);
  Source src(Data());
  Trainer tr(src.s);
  tr.Train(kTotal);
  Models m;
  BuildBoth(tr.t, m);
  ASSERT_EQ(m.m32.layers, m.m16.layers);
  const uint8_t* b32 = m.f32.data();
  const uint8_t* b16 = m.w16.data();
  const uint32_t networks = 2 + m.m32.projectorCount;
  uint64_t layer = m.m32.layers;
  uint64_t checked = 0, nonzeroScales = 0;
  ASSERT_EQ(fegetround(), FE_TONEAREST);
  for (uint32_t n = 0; n < networks; ++n) {
    const uint32_t layerCount = U32(b32 + m.m32.networks + 16 * n);
    ASSERT_EQ(layerCount, U32(b16 + m.m16.networks + 16 * n));
    uint64_t p32 = m.m32.networkParameters[n], p16 = m.m16.networkParameters[n];
    const uint32_t in0 = U32(b32 + layer);
    // Input offsets and scales: the same bits.
    EXPECT_EQ(memcmp(b32 + p32, b16 + p16, 8 * in0), 0) << "network " << n;
    p32 += 8 * in0, p16 += 8 * in0;
    uint32_t lastOut = 0;
    for (uint32_t l = 0; l < layerCount; ++l, layer += 8) {
      const uint32_t in = U32(b32 + layer), out = U32(b32 + layer + 4);
      lastOut = out;
      EXPECT_EQ(memcmp(b32 + p32, b16 + p16, 4 * out), 0) << "biases, network " << n << " layer " << l;
      p32 += 4 * out, p16 += 4 * out;
      const uint8_t* w = b32 + p32;
      const uint8_t* scales = b16 + p16;
      const uint8_t* q = b16 + p16 + 4 * in;
      for (uint32_t j = 0; j < in; ++j) {
        float big = 0.0f;
        for (uint32_t i = 0; i < out; ++i) big = std::fmax(big, std::fabs(F32(w + 4 * (uint64_t(i) * in + j))));
        volatile float scale = big / 32767.0f;
        EXPECT_EQ(F32(scales + 4 * j), scale) << "scale, network " << n << " layer " << l << " input " << j;
        nonzeroScales += scale != 0.0f;
        for (uint32_t i = 0; i < out; ++i) {
          const float wij = F32(w + 4 * (uint64_t(i) * in + j));
          int16_t want = 0;
          if (scale != 0.0f) {
            volatile float ratio = wij / scale;
            want = int16_t(std::nearbyint(ratio));
          }
          int16_t got;
          memcpy(&got, q + 2 * (uint64_t(i) * in + j), 2);
          ASSERT_EQ(got, want) << "network " << n << " layer " << l << " output " << i << " input " << j;
          checked++;
        }
      }
      p32 += 4 * uint64_t(out) * in;
      p16 += 4 * uint64_t(in) + (2 * uint64_t(out) * in + 3) / 4 * 4;
    }
    EXPECT_EQ(memcmp(b32 + p32, b16 + p16, 8 * lastOut), 0) << "output normalization, network " << n;
  }
  EXPECT_GT(checked, 1000u);
  EXPECT_GT(nonzeroScales, 0u);
}

}  // namespace
