// A motion database of the 25 CMU clips of ../shared/data/cmu-acl (glTF,
// imported through import.h), each clip an entry and a mirrored entry
// through a mirror map of the CMU skeleton's left/right names, with Holden's
// 27 features: every frame's own features find that frame (or an exact tie,
// reported), a mirrored frame's features are its source frame's reflected,
// and a seeded joystick trajectory (maniAdvanceTrajectory) drives a search
// every 0.1 s: each pick is the brute force's, never costs more than playing
// on, and over the demo the picks' mean squared distance to the query is
// below half the mean between two of the database's frames (the stated
// cost; the worst pick is reported: the CMU captures turn little, so a
// sharp turn asked for has no close frame). SKIPs when ../shared/data is
// absent.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "lib/anim/test/match_test.h"
#include "maul/anim/import.h"
#include "maul/anim/matchbuild.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/trajectory.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

std::string SharedData() { return MaulSharedData(); }

bool ReadAll(const std::string& path, std::string* out) { return MaulReadFile(path, out); }

// The 25 clips, in the README's table order.
const char* const kClips[25] = {"09_02",       "09_02_multi_root", "09_02_with_inf_error", "09_02_with_rising_scale",
                                "09_02_with_scale", "09_02_with_zero_scale", "13_07", "27_06", "49_09", "49_15",
                                "76_07",       "81_16",            "81_18",                "81_18_looping",
                                "82_01",       "82_18",            "90_10",                "93_01",
                                "93_01_zero_range_extent", "102_09", "103_01", "104_30", "121_10", "127_14", "140_05"};

// 09_02_with_inf_error puts the hip 1e25 cm away at its first sample (ACL's
// test of an infinite error): imported, but no motion to match, so left out
// of the database (its root motion alone would swamp every spread).
const char* const kLeftOut = "09_02_with_inf_error";

// The CMU names: lFoot / rFoot, lShldr / rShldr, leftEye / rightEye.
const maniMirrorRule kCmuRules[4] = {
    {"left", 4, "right", 5, maniMirrorRulePrefix},
    {"right", 5, "left", 4, maniMirrorRulePrefix},
    {"l", 1, "r", 1, maniMirrorRulePrefix},
    {"r", 1, "l", 1, maniMirrorRulePrefix},
};

// The import basis: glTF's +Y becomes +Z and +Z becomes -Y, undoing the CMU
// root's bind turn (Z-up to Y-up), so the model space is the capture's own
// Z-up one and the hip's parent frame is the model's.
maniGltfOptions CmuOptions() {
  maniGltfOptions o = maniDefaultGltfOptions();
  o.up = (uint32_t)maniAxisPositiveZ;
  o.front = (uint32_t)maniAxisNegativeY;
  return o;
}

struct Gltf {
  std::string text, bin;
  maniGltf* g = nullptr;
  ~Gltf() { maniCloseGltf(g); }
  bool Open(maniBuilder* b, const std::string& dir, const std::string& name) {
    if (!ReadAll(dir + "/" + name + ".gltf", &text) || !ReadAll(dir + "/" + name + ".bin", &bin)) return false;
    maniImportResult r = maniOpenGltf(b, text.data(), text.size(), &g);
    EXPECT_EQ(r.result, mani_success) << name << " reason " << r.reason;
    if (r.result != mani_success) return false;
    EXPECT_EQ(maniGltf_GetBufferCount(g), 1u) << name;
    r = maniGltf_SupplyBuffer(g, 0, bin.data(), bin.size());
    EXPECT_EQ(r.result, mani_success) << name << " reason " << r.reason;
    return r.result == mani_success;
  }
};

// Holden's 27 features on the CMU skeleton (the fixture's layout): both
// feet's positions, their and the hip's velocities, and the trajectory's
// positions and facings 20, 40 and 60 frames of 60 per second ahead.
constexpr uint32_t kFeatures = 27;
constexpr uint32_t kTrajectoryPosition = 15, kTrajectoryFacing = 21;
const float kNow[1] = {0.0f};
const float kFuture[3] = {20.0f / 60.0f, 40.0f / 60.0f, 1.0f};

struct Cmu {
  std::string dir;
  File skelFile, mapFile, dbFile;
  std::vector<File> clipFiles;
  std::vector<std::string> clipNames;
  maniSkeleton skel{};
  std::vector<maniClip> clips;
  maniMirrorMap map{};
  maniMotionDatabase d{};
  uint32_t lFoot = MANI_NO_BONE, rFoot = MANI_NO_BONE, hip = MANI_NO_BONE;
  uint32_t mirrorAxis = 0, forwardAxis = 0;
  std::vector<maniMatchEntrySource> entries;
  bool present = false;  // the data is there
  bool ok = false;        // and the database built and opened

  uint32_t Find(const char* name) const {
    for (uint32_t i = 0; i < maniSkeleton_GetBoneCount(&skel); ++i) {
      size_t n = 0;
      const char* s = maniSkeleton_GetBoneName(&skel, i, &n);
      if (std::string(s, n) == name) return i;
    }
    return MANI_NO_BONE;
  }

  void Build() {
    dir = SharedData() + "/cmu-acl";
    std::string probe;
    if (!ReadAll(dir + "/09_02.gltf", &probe)) return;
    present = true;
    const maniGltfOptions opt = CmuOptions();
    {
      Builder b;
      Gltf g;
      ASSERT_TRUE(g.Open(b.b, dir, "09_02"));
      // No skin: the skeleton is node 0's subtree (the root, named after the clip).
      ASSERT_EQ(maniGltf_GetSkinCount(g.g), 0u);
      ASSERT_EQ(maniBuildGltfNodeSkeleton(b.b, g.g, 0, &opt).result, mani_success);
      skelFile = b.Built();
      ASSERT_EQ(maniOpenSkeleton(skelFile.data(), skelFile.size, &skel).result, mani_success);
    }
    ASSERT_EQ(maniSkeleton_GetBoneCount(&skel), 44u);
    lFoot = Find("lFoot"), rFoot = Find("rFoot"), hip = Find("hip");
    ASSERT_NE(lFoot, MANI_NO_BONE);
    ASSERT_NE(rFoot, MANI_NO_BONE);
    ASSERT_NE(hip, MANI_NO_BONE);
    // The mirror plane's normal: the axis the feet's rest model positions
    // differ most along (a ground axis: up is z); forward the other one.
    {
      Pose rest(&skel);
      ASSERT_EQ(maniPose_SetRest(rest.p, &skel), mani_success);
      ASSERT_EQ(maniPose_ComputeModel(rest.p, &skel), mani_success);
      const maniVec3 l = maniPose_GetModel(rest.p, lFoot).columns[3], r = maniPose_GetModel(rest.p, rFoot).columns[3];
      const double dx = std::fabs(l.x - r.x), dy = std::fabs(l.y - r.y), dz = std::fabs(l.z - r.z);
      mirrorAxis = dx >= dy && dx >= dz ? 0 : (dy >= dz ? 1 : 2);
      ASSERT_NE(mirrorAxis, 2u) << "the feet side by side along up";
      forwardAxis = mirrorAxis == 0 ? 1 : 0;
    }
    {
      maniMirrorMapSource src;
      memset(&src, 0, sizeof src);
      src.skeleton = &skel;
      src.axis = mirrorAxis;
      src.rules = kCmuRules;
      src.ruleCount = 4;
      Builder b;
      maniBuildResult r = maniBuildMirrorMap(b.b, &src);
      ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
      mapFile = b.Built();
      ASSERT_EQ(maniOpenMirrorMap(mapFile.data(), mapFile.size, &map).result, mani_success);
      ASSERT_EQ(maniMirrorMap_GetPartner(&map, lFoot), rFoot);
      ASSERT_EQ(maniMirrorMap_GetPartner(&map, hip), hip);
    }
    // Every clip imported with the hip's root motion on the ground plane and
    // its whole turn (the hip's parent frame is the model's).
    maniImportClipOptions co = maniDefaultImportClipOptions();
    co.rootMotionBone = hip;
    co.rootMotionFlags = MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Y | MANI_ROOT_MOTION_ROTATION;
    clipFiles.reserve(25);
    for (const char* name : kClips) {
      Builder b;
      Gltf g;
      ASSERT_TRUE(g.Open(b.b, dir, name)) << name;
      ASSERT_EQ(maniGltf_GetAnimationCount(g.g), 1u) << name;
      uint32_t bound = 0;
      maniImportResult r = maniBuildGltfClip(b.b, g.g, 0, &skel, &opt, &co, &bound);
      ASSERT_EQ(r.result, mani_success) << name << " reason " << r.reason << " item " << r.item;
      if (std::string(name) == kLeftOut) continue;
      clipFiles.push_back(b.Built());
      clipNames.push_back(name);
    }
    ASSERT_EQ(clipFiles.size(), 24u);
    clips.resize(clipFiles.size());
    for (size_t i = 0; i < clipFiles.size(); ++i)
      ASSERT_EQ(maniOpenClip(clipFiles[i].data(), clipFiles[i].size, &clips[i]).result, mani_success) << clipNames[i];
    // Each clip whole, then mirrored; tags: bit 0 mirrored.
    for (uint32_t i = 0; i < clips.size(); ++i) {
      for (uint32_t m = 0; m < 2; ++m) {
        maniMatchEntrySource e;
        memset(&e, 0, sizeof e);
        e.clip = i;
        e.flags = m ? maniMatchEntryMirrored : 0u;
        e.start = 0;
        e.end = maniClip_GetDuration(&clips[i]);
        e.tags = m;
        entries.push_back(e);
      }
    }
    maniMatchChannelSource ch[7];
    memset(ch, 0, sizeof ch);
    const uint32_t bones[3] = {lFoot, rFoot, hip};
    for (int k = 0; k < 2; ++k) {
      ch[k].kind = maniMatchChannelBonePosition, ch[k].bone = bones[k], ch[k].times = kNow, ch[k].timeCount = 1;
      ch[k].weight = 0.75f;
    }
    for (int k = 0; k < 3; ++k) {
      ch[2 + k].kind = maniMatchChannelBoneVelocity, ch[2 + k].bone = bones[k], ch[2 + k].times = kNow;
      ch[2 + k].timeCount = 1, ch[2 + k].weight = 1.0f;
    }
    ch[5].kind = maniMatchChannelTrajectoryPosition, ch[5].times = kFuture, ch[5].timeCount = 3, ch[5].weight = 1.0f;
    ch[6].kind = maniMatchChannelTrajectoryFacing, ch[6].times = kFuture, ch[6].timeCount = 3, ch[6].weight = 1.5f;
    maniMotionDatabaseSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = &skel;
    src.clips = clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.channels = ch;
    src.channelCount = 7;
    src.entries = entries.data();
    src.entryCount = (uint32_t)entries.size();
    src.rate = 24.0f;  // the captures' own rate: frames at their samples
    src.upAxis = 2;
    src.forwardAxis = forwardAxis;
    src.leafSize = 16;
    src.mirror = &map;
    Builder b;
    maniBuildResult r = maniBuildMotionDatabase(b.b, &src);
    ASSERT_EQ(r.result, mani_success) << r.reason << " item " << r.item << " other " << r.other;
    dbFile = b.Built();
    maniFileResult o = maniOpenMotionDatabase(dbFile.data(), dbFile.size, &d);
    ASSERT_EQ(o.result, mani_success) << o.offset;
    ASSERT_EQ(d.featureCount, kFeatures);
    ok = true;
  }
};

Cmu* Shared() {
  static std::unique_ptr<Cmu> cmu;
  if (!cmu) {
    cmu.reset(new Cmu);
    cmu->Build();
  }
  return cmu.get();
}

// The shared database, or a SKIP when ../shared/data/cmu-acl is absent.
#define CMU_OR_SKIP(c)                                                    \
  Cmu* c = Shared();                                                      \
  if (!c->present) GTEST_SKIP() << "no ../shared/data/cmu-acl";           \
  ASSERT_TRUE(c->ok)

std::vector<float> Features(const maniMotionDatabase* d, uint32_t frame) {
  std::vector<float> x(d->featureCount);
  EXPECT_EQ(maniMotionDatabase_GetFeatures(d, frame, x.data(), d->featureCount, nullptr), mani_success);
  return x;
}

TEST(MatchCmu, EachFrameFindsItselfOrAnExactTie) {
  CMU_OR_SKIP(c);
  const maniMotionDatabase* d = &c->d;
  // Frames: every sample of every clip (24 Hz, the database's rate), twice.
  uint32_t samples = 0;
  for (const maniClip& clip : c->clips) samples += (uint32_t)std::floor((double)maniClip_GetDuration(&clip) * 24.0) + 1;
  EXPECT_EQ(d->frameCount, 2 * samples);
  uint32_t self = 0, ties = 0;
  for (uint32_t frame = 0; frame < d->frameCount; ++frame) {
    const std::vector<float> x = Features(d, frame);
    maniMatchQuery q{};
    q.features = x.data();
    q.normalized = 1;
    q.continuingFrame = MANI_NO_FRAME;
    maniMatchResult r{};
    ASSERT_EQ(maniMotionDatabase_Search(d, &q, &r), mani_success);
    ASSERT_NE(r.frame, MANI_NO_FRAME);
    // Its own cost is 0 (bias 0, no transition cost): nothing costs less.
    ASSERT_EQ(r.cost, 0.0f) << frame;
    if (r.frame == frame) {
      self++;
      continue;
    }
    // An exact tie: the same features bit for bit, and the lower frame.
    const std::vector<float> y = Features(d, r.frame);
    ASSERT_EQ(memcmp(x.data(), y.data(), 4 * x.size()), 0) << frame << " found " << r.frame;
    ASSERT_LT(r.frame, frame);
    ties++;
  }
  std::printf("CMU database: %u frames (%u entries), %u found themselves, %u an exact tie at a lower frame\n",
              d->frameCount, d->entryCount, self, ties);
  EXPECT_EQ(self + ties, d->frameCount);
  // 103_01 repeats 93_01's samples and 121_10 90_10's: at least their frames tie.
  EXPECT_GT(ties, 0u);
}

TEST(MatchCmu, MirroredFramesAreTheirSourcesReflected) {
  CMU_OR_SKIP(c);
  const maniMotionDatabase* d = &c->d;
  std::vector<float> off(kFeatures), scale(kFeatures);
  ASSERT_EQ(maniMotionDatabase_GetNormalization(d, off.data(), scale.data(), kFeatures, nullptr), mani_success);
  // Raw value of feature j: offset + scale x (binary64).
  auto raw = [&](const std::vector<float>& x, uint32_t j) { return (double)off[j] + (double)scale[j] * x[j]; };
  // The feature a mirrored frame's feature j is, and its sign: the feet
  // swap, the component along the plane's normal negates (ground plane
  // pairs (x, y): the normal is 0 or 1).
  auto source = [&](uint32_t j, double* sign) {
    uint32_t k = j;
    uint32_t component = 0;
    if (j < 3) k = 3 + j, component = j;
    else if (j < 6) k = j - 3, component = j - 3;
    else if (j < 9) k = 9 + (j - 6), component = j - 6;
    else if (j < 12) k = 6 + (j - 9), component = j - 9;
    else if (j < 15) component = j - 12;
    else component = (j - 15) % 2;
    *sign = component == c->mirrorAxis ? -1.0 : 1.0;
    return k;
  };
  double worst = 0;
  uint32_t checked = 0;
  for (uint32_t e = 0; e + 1 < d->entryCount; e += 2) {
    maniMatchEntry a, m;
    ASSERT_EQ(maniMotionDatabase_GetEntry(d, e, &a), mani_success);
    ASSERT_EQ(maniMotionDatabase_GetEntry(d, e + 1, &m), mani_success);
    ASSERT_EQ(m.flags & maniMatchEntryMirrored, (uint32_t)maniMatchEntryMirrored);
    ASSERT_EQ(a.clip, m.clip);
    ASSERT_EQ(a.frameCount, m.frameCount);
    for (uint32_t k = 0; k < a.frameCount; ++k) {
      const std::vector<float> x = Features(d, a.firstFrame + k), y = Features(d, m.firstFrame + k);
      for (uint32_t j = 0; j < kFeatures; ++j) {
        double sign = 1;
        const uint32_t from = source(j, &sign);
        const double want = sign * raw(x, from), got = raw(y, j);
        // Binary32 rounding through the mirrored pose's chain and the
        // normalization (both ways): relative to the channel's scale.
        const double err = std::fabs(got - want) / (double)scale[j];
        worst = std::max(worst, err);
        ASSERT_LT(err, 1e-3) << c->clipNames[a.clip] << " frame " << k << " feature " << j << " got " << got
                             << " want " << want;
        checked++;
      }
    }
  }
  std::printf("mirrored features checked %u, worst difference %.3g of the scale\n", checked, worst);
}

// Where a joystick's seeded goal points: a direction on the ground plane
// turned up to 90 degrees either way from the last, held for 0.5 to 2 s, at
// a walking speed of 0 to 120 cm/s, facing along it.
struct Joystick {
  std::mt19937_64 g;
  float until = 0;
  double heading = 0;
  maniTrajectoryGoal goal{};
  explicit Joystick(uint64_t seed) : g(seed) {}
  double U(double lo, double hi) { return lo + (hi - lo) * (double)(g() >> 11) * (1.0 / 9007199254740992.0); }
  void Update(float now, uint32_t forward) {
    if (now < until) return;
    const double held = U(0.5, 2.0), turn = U(-M_PI / 2, M_PI / 2), speed = U(0.0, 120.0);
    heading += turn;
    const double angle = heading;
    until = now + (float)held;
    const float ca = (float)std::cos(angle), sa = (float)std::sin(angle);
    // The forward axis turned by angle about up (z).
    const float fx = forward == 0 ? ca : -sa, fy = forward == 0 ? sa : ca;
    goal.velocity = {(float)(speed * fx), (float)(speed * fy), 0.0f};
    goal.rotation = {0.0f, 0.0f, (float)std::sin(angle / 2), (float)std::cos(angle / 2)};
    goal.velocityHalfLife = 0.2f;
    goal.rotationHalfLife = 0.15f;
  }
};

TEST(MatchCmu, JoystickDrivenSearchStaysNearTheQuery) {
  CMU_OR_SKIP(c);
  const maniMotionDatabase* d = &c->d;
  std::vector<float> off(kFeatures), scale(kFeatures);
  ASSERT_EQ(maniMotionDatabase_GetNormalization(d, off.data(), scale.data(), kFeatures, nullptr), mani_success);
  // The stated bound: half the mean cost between two frames of the
  // database, which for normalized features is the sum over features of
  // their variances (computed here from the stored features, binary64).
  double bound = 0;
  {
    std::vector<double> sum(kFeatures, 0), sq(kFeatures, 0);
    for (uint32_t f = 0; f < d->frameCount; ++f) {
      const std::vector<float> x = Features(d, f);
      for (uint32_t j = 0; j < kFeatures; ++j) sum[j] += x[j], sq[j] += (double)x[j] * x[j];
    }
    for (uint32_t j = 0; j < kFeatures; ++j) {
      const double mean = sum[j] / d->frameCount;
      bound += sq[j] / d->frameCount - mean * mean;
    }
  }
  maniTrajectory sim{};
  sim.rotation = {0, 0, 0, 1};
  Joystick stick(2027);
  uint32_t frame = 0;  // the first frame of the first clip
  uint32_t jumps = 0, searches = 0;
  double worst = 0, total = 0;
  const float step = 0.1f;
  const uint32_t advance = (uint32_t)std::lround(step * 24.0);  // frames played per search
  for (int k = 0; k < 200; ++k) {
    const float now = step * (float)k;
    stick.Update(now, c->forwardAxis);
    ASSERT_EQ(maniAdvanceTrajectory(&sim, &stick.goal, step), mani_success);
    // The query: the playing frame's pose features, the predicted
    // trajectory's (copies of the simulation advanced 1/3, 2/3 and 1 s).
    std::vector<float> q = Features(d, frame);
    for (uint32_t t = 0; t < 3; ++t) {
      maniTrajectory ahead = sim;
      ASSERT_EQ(maniAdvanceTrajectory(&ahead, &stick.goal, kFuture[t]), mani_success);
      float p[2], f[2];
      ASSERT_EQ(maniMotionDatabase_ComputeTrajectoryFeatures(d, &sim, &ahead, p, f), mani_success);
      for (uint32_t a = 0; a < 2; ++a) {
        const uint32_t jp = kTrajectoryPosition + 2 * t + a, jf = kTrajectoryFacing + 2 * t + a;
        q[jp] = (p[a] - off[jp]) / scale[jp];
        q[jf] = (f[a] - off[jf]) / scale[jf];
      }
    }
    // Playing on: the frame `advance` later in its entry, if it has one.
    uint32_t entry = 0;
    float time = 0;
    ASSERT_EQ(maniMotionDatabase_GetFrame(d, frame, &entry, &time), mani_success);
    maniMatchEntry e;
    ASSERT_EQ(maniMotionDatabase_GetEntry(d, entry, &e), mani_success);
    maniMatchQuery query{};
    query.features = q.data();
    query.normalized = 1;
    query.continuingFrame = frame + advance < e.firstFrame + e.frameCount ? frame + advance : MANI_NO_FRAME;
    query.transitionCost = 0.5f;
    query.endExclusion = 0.2f;
    maniMatchResult r{};
    ASSERT_EQ(maniMotionDatabase_Search(d, &query, &r), mani_success);
    ASSERT_NE(r.frame, MANI_NO_FRAME);
    // Exact: the brute force's frame and cost.
    const Brute b = BruteSearch(d, query);
    ASSERT_EQ(r.frame, b.frame) << "search " << k;
    ASSERT_EQ(memcmp(&r.cost, &b.cost, 4), 0) << "search " << k;
    // Within the stated bound of the query, the cost's terms summed here.
    const std::vector<float> x = Features(d, r.frame);
    maniMatchEntry picked;
    ASSERT_EQ(maniMotionDatabase_GetEntry(d, r.entry, &picked), mani_success);
    double distance = 0;
    for (uint32_t j = 0; j < kFeatures; ++j) distance += ((double)q[j] - x[j]) * ((double)q[j] - x[j]);
    EXPECT_NEAR(distance + (r.continuing ? 0.0 : 0.5), (double)r.cost, 1e-4 * (1 + distance));
    // Never farther than playing on: the continuing frame's cost summed
    // here in feature order in binary32 (its bias 0, no continuing bias).
    if (query.continuingFrame != MANI_NO_FRAME) {
      const std::vector<float> y = Features(d, query.continuingFrame);
      float cont = 0.0f;
      for (uint32_t j = 0; j < kFeatures; ++j) {
        const float diff = q[j] - y[j];
        cont = cont + diff * diff;
      }
      EXPECT_LE(r.cost, cont) << "search " << k;
    }
    worst = std::max(worst, distance);
    total += distance;
    searches++;
    if (!r.continuing) jumps++;
    frame = r.frame;
  }
  // The stated cost: over the demo, the picks' mean squared distance to the
  // query is below half the mean between two frames of the database.
  EXPECT_LT(total / searches, bound);
  std::printf("joystick: %u searches over %.0f s, %u jumps; squared distance to the query mean %.2f, worst %.2f, "
              "stated bound %.2f (half the mean between two frames)\n",
              searches, searches * step, jumps, total / searches, worst, bound);
}

}  // namespace
