// maul database: the file written opens as a motion database with one entry
// per clip and the frames its spans make at the rate, and each refusal
// (missing file, bad skeleton, clip of another skeleton, missing bone name)
// names the file with its exit status.
#include "tools/cli/database.h"
#include "tools/cli/cli_testing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/data_testing.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/clip.h"
#include "maul/anim/match.h"
#include "maul/anim/skeleton.h"

namespace {

using Outcome = MaulCommandOutcome;

Outcome RunDatabase(std::vector<std::string> args) { return MaulRunCommand(maul_Database, std::move(args)); }

struct Rig {
  std::string dir, skeletonPath, clipPath, otherClipPath;
  std::string left, right, hips;
  float duration = 0;
  explicit Rig(const char* name, uint32_t clipFlags = 0) {
    dir = MaulTestTempDir() + "/" + name;
    std::string mk = "mkdir -p '" + dir + "'";
    EXPECT_EQ(system(mk.c_str()), 0);
    maniSkeletonSource src = maniFixtureMakeMirrorRig(7, 0, 2, 3, 0);
    size_t skeletonSize = 0;
    void* skeletonBytes = maniFixtureBuildSkeleton(&src, &skeletonSize);
    maniFixtureFreeMirrorRig(&src);
    maniSkeleton skeleton;
    EXPECT_EQ(maniOpenSkeleton(skeletonBytes, skeletonSize, &skeleton).result, mani_success);
    uint32_t n = maniSkeleton_GetBoneCount(&skeleton);
    size_t len = 0;
    const char* s = maniSkeleton_GetBoneName(&skeleton, n - 1, &len);
    left.assign(s, len);
    s = maniSkeleton_GetBoneName(&skeleton, n - 2, &len);
    right.assign(s, len);
    s = maniSkeleton_GetBoneName(&skeleton, 1, &len);
    hips.assign(s, len);
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 11, &skeleton, clipFlags, maniLoopClamp, maniAdditiveNone);
    size_t clipSize = 0;
    void* clipBytes = maniFixtureBuildClip(&fc.source, &clipSize);
    maniFixtureFreeClip(&fc);
    maniClip clip;
    EXPECT_EQ(maniOpenClip(clipBytes, clipSize, &clip).result, mani_success);
    duration = maniClip_GetDuration(&clip);
    skeletonPath = dir + "/rig.mani";
    clipPath = dir + "/walk.mani";
    EXPECT_TRUE(MaulWriteFile(skeletonPath, skeletonBytes, skeletonSize));
    EXPECT_TRUE(MaulWriteFile(clipPath, clipBytes, clipSize));
    free(skeletonBytes);
    free(clipBytes);
    maniSkeletonSource other = maniFixtureMakeSkeletonSource(3, 5, maniFixtureChain);
    size_t otherSize = 0;
    void* otherBytes = maniFixtureBuildSkeleton(&other, &otherSize);
    maniFixtureFreeSkeletonSource(&other);
    maniSkeleton otherSkeleton;
    EXPECT_EQ(maniOpenSkeleton(otherBytes, otherSize, &otherSkeleton).result, mani_success);
    maniFixtureClip oc;
    maniFixtureMakeClip(&oc, 12, &otherSkeleton, 0, maniLoopClamp, maniAdditiveNone);
    size_t ocSize = 0;
    void* ocBytes = maniFixtureBuildClip(&oc.source, &ocSize);
    maniFixtureFreeClip(&oc);
    otherClipPath = dir + "/other.mani";
    EXPECT_TRUE(MaulWriteFile(otherClipPath, ocBytes, ocSize));
    free(ocBytes);
    free(otherBytes);
  }
  std::vector<std::string> Bones() const {
    return {"--bone-left-foot", left, "--bone-right-foot", right, "--bone-hips", hips};
  }
};

TEST(MaulDatabase, WritesADatabaseWithTheFramesOfEachClip) {
  Rig rig("database-ok");
  std::string db = rig.dir + "/db.mani";
  std::vector<std::string> args = {"--skeleton", rig.skeletonPath, "--out", db, "--rate", "20",
                                   rig.clipPath, rig.clipPath};
  for (auto& a : rig.Bones()) args.push_back(a);
  Outcome r = RunDatabase(args);
  ASSERT_EQ(r.status, 0) << r.err;
  // Each entry: floor(duration * rate) + 1 frames (docs/formats.md), two clips.
  uint32_t perClip = static_cast<uint32_t>(std::floor(static_cast<double>(rig.duration) * 20.0)) + 1;
  std::string bytes = MaulReadFile(db);
  ASSERT_FALSE(bytes.empty());
  void* aligned = aligned_alloc(64, (bytes.size() + 63) / 64 * 64);
  memcpy(aligned, bytes.data(), bytes.size());
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(aligned, bytes.size(), &d).result, mani_success);
  EXPECT_EQ(d.frameCount, 2 * perClip);
  EXPECT_EQ(d.clipCount, 2u);
  EXPECT_EQ(d.entryCount, 2u);
  EXPECT_EQ(d.channelCount, 5u);
  EXPECT_EQ(d.featureCount, 15u);  // 2 x (3 position + 3 velocity) + 3 hips velocity
  free(aligned);
  EXPECT_NE(r.out.find(std::to_string(2 * perClip) + " frames, 15 features, 2 clips"), std::string::npos) << r.out;

  args.push_back("--json");
  r = RunDatabase(args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"frames\": " + std::to_string(2 * perClip)), std::string::npos) << r.out;
}

TEST(MaulDatabase, RefusalsNameTheFileWithTheirStatus) {
  Rig rig("database-refused");
  std::string db = rig.dir + "/db.mani";
  auto with = [&](std::vector<std::string> args) {
    for (auto& a : rig.Bones()) args.push_back(a);
    return RunDatabase(args);
  };
  // A missing file: I/O, 2.
  Outcome r = with({"--skeleton", rig.dir + "/none.mani", "--out", db, rig.clipPath});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot read " + rig.dir + "/none.mani"), std::string::npos) << r.err;
  r = with({"--skeleton", rig.skeletonPath, "--out", db, rig.dir + "/none.mani"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot read " + rig.dir + "/none.mani"), std::string::npos) << r.err;
  // A bad skeleton (a clip file given as one): refused, 1.
  r = with({"--skeleton", rig.clipPath, "--out", db, rig.clipPath});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(rig.clipPath + ": not a skeleton"), std::string::npos) << r.err;
  // A clip of another skeleton: the builder's Joint reason, item the clip.
  r = with({"--skeleton", rig.skeletonPath, "--out", db, rig.clipPath, rig.otherClipPath});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(rig.otherClipPath + ": the motion database refused"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("reason Joint"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("item 1"), std::string::npos) << r.err;
  // A bone name the skeleton lacks.
  r = RunDatabase({"--skeleton", rig.skeletonPath, "--out", db, rig.clipPath, "--bone-left-foot", rig.left,
                   "--bone-right-foot", rig.right, "--bone-hips", "NoSuchBone"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no bone named NoSuchBone (--bone-hips)"), std::string::npos) << r.err;
  // Usage: no clips.
  r = with({"--skeleton", rig.skeletonPath, "--out", db});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("usage: maul database"), std::string::npos) << r.err;
  std::string unused;
  EXPECT_FALSE(MaulReadFile(db, &unused));  // nothing written by a refusal
}

// --trajectory adds the trajectory's position and facing at 1/3, 2/3 and 1 s:
// two channels of three times, each 2 numbers a time (the ground plane), so
// 7 channels and 15 + 6 + 6 features.
TEST(MaulDatabase, TrajectoryAddsPositionAndFacingChannels) {
  // The trajectory is the root motion's: a clip without any is refused.
  Rig rig("database-trajectory", MANI_FIXTURE_CLIP_ROOT_MOTION | MANI_FIXTURE_CLIP_ALL_BONES);
  std::string db = rig.dir + "/db.mani";
  std::vector<std::string> args = {"--skeleton", rig.skeletonPath, "--out", db, "--trajectory", rig.clipPath};
  for (auto& a : rig.Bones()) args.push_back(a);
  Outcome r = RunDatabase(args);
  ASSERT_EQ(r.status, 0) << r.err;
  std::string bytes = MaulReadFile(db);
  void* aligned = aligned_alloc(64, (bytes.size() + 63) / 64 * 64);
  memcpy(aligned, bytes.data(), bytes.size());
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(aligned, bytes.size(), &d).result, mani_success);
  EXPECT_EQ(d.channelCount, 7u);
  EXPECT_EQ(d.featureCount, 27u);
  // Default rate 30: floor(duration * 30) + 1 frames.
  EXPECT_EQ(d.frameCount, static_cast<uint32_t>(std::floor(static_cast<double>(rig.duration) * 30.0)) + 1);
  free(aligned);
}

// A rate that is not a number is a usage error; one the builder refuses
// (0, negative) is the builder's Timing refusal naming the skeleton, exit 1.
// Neither leaves a file, nor does an output that cannot be written (no
// .part file beside it either).
TEST(MaulDatabase, BadRatesAndUnwritableOutputsLeaveNoFile) {
  Rig rig("database-rate");
  std::string db = rig.dir + "/db.mani";
  auto with = [&](std::vector<std::string> args) {
    for (auto& a : rig.Bones()) args.push_back(a);
    return RunDatabase(args);
  };
  Outcome r = with({"--skeleton", rig.skeletonPath, "--out", db, "--rate", "fast", rig.clipPath});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("usage: maul database"), std::string::npos) << r.err;
  for (const char* rate : {"0", "-30"}) {
    r = with({"--skeleton", rig.skeletonPath, "--out", db, "--rate", rate, rig.clipPath});
    EXPECT_EQ(r.status, 1) << rate;
    EXPECT_NE(r.err.find("the motion database refused"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("reason Timing"), std::string::npos) << r.err;
  }
  std::string unused;
  EXPECT_FALSE(MaulReadFile(db, &unused));
  std::string nowhere = rig.dir + "/no-such-folder/db.mani";
  r = with({"--skeleton", rig.skeletonPath, "--out", nowhere, rig.clipPath});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot write " + nowhere), std::string::npos) << r.err;
  EXPECT_FALSE(MaulReadFile(nowhere, &unused));
  EXPECT_FALSE(MaulReadFile(nowhere + ".part", &unused));
}

}  // namespace
