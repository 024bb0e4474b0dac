// maul train: the model written opens as the database's learned model; a run
// stopped by --for and resumed from its checkpoint writes the same bytes as
// one run through; each refusal names the file with its exit status.
#include "tools/cli/train.h"
#include "tools/cli/cli_testing.h"
#include "tools/cli/database.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/data_testing.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/clip.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedbuild.h"
#include "maul/anim/match.h"
#include "maul/anim/skeleton.h"

namespace {

using Outcome = MaulCommandOutcome;

Outcome RunTrain(std::vector<std::string> args) { return MaulRunCommand(maul_Train, std::move(args)); }

// A skeleton, two clips of it and the motion database `maul database` makes
// of them, as files.
struct Rig {
  std::string dir, skeletonPath, clip0, clip1, databasePath;
  explicit Rig(const char* name) {
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
    std::string left(s, len);
    s = maniSkeleton_GetBoneName(&skeleton, n - 2, &len);
    std::string right(s, len);
    s = maniSkeleton_GetBoneName(&skeleton, 1, &len);
    std::string hips(s, len);
    skeletonPath = dir + "/rig.mani";
    EXPECT_TRUE(MaulWriteFile(skeletonPath, skeletonBytes, skeletonSize));
    std::string* paths[2] = {&clip0, &clip1};
    for (int c = 0; c < 2; ++c) {
      maniFixtureClip fc;
      maniFixtureMakeClip(&fc, 21 + c, &skeleton, MANI_FIXTURE_CLIP_ALL_BONES, maniLoopClamp, maniAdditiveNone);
      size_t clipSize = 0;
      void* clipBytes = maniFixtureBuildClip(&fc.source, &clipSize);
      maniFixtureFreeClip(&fc);
      *paths[c] = dir + "/clip" + std::to_string(c) + ".mani";
      EXPECT_TRUE(MaulWriteFile(*paths[c], clipBytes, clipSize));
      free(clipBytes);
    }
    free(skeletonBytes);
    databasePath = dir + "/db.mani";
    Outcome r = MaulRunCommand(maul_Database, {"--skeleton", skeletonPath, "--out", databasePath, clip0, clip1,
                                               "--bone-left-foot", left, "--bone-right-foot", right, "--bone-hips",
                                               hips});
    EXPECT_EQ(r.status, 0) << r.err;
  }
  // Small networks and few iterations: the command's whole path in a moment.
  std::vector<std::string> Small(const std::string& out) const {
    return {databasePath, "--skeleton", skeletonPath, "--out",  out,  clip0, clip1, "--iterations", "5",
            "--latent",   "4",          "--width",    "8",      "--batch", "8", "--stepper-window", "4"};
  }
};

std::vector<std::string> With(std::vector<std::string> a, std::vector<std::string> more) {
  for (auto& m : more) a.push_back(m);
  return a;
}

TEST(MaulTrain, WritesAModelOfTheDatabase) {
  Rig rig("train-model");
  std::string model = rig.dir + "/model.mani";
  Outcome r = RunTrain(rig.Small(model));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("model " + model), std::string::npos) << r.out;
  // A progress line per call, ending with every stage done.
  EXPECT_NE(r.err.find("maul train: stage 1 (compressor and decompressor)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("maul train: every stage done"), std::string::npos) << r.err;
  std::string bytes = MaulReadFile(model);
  ASSERT_FALSE(bytes.empty());
  void* aligned = aligned_alloc(64, (bytes.size() + 63) / 64 * 64);
  memcpy(aligned, bytes.data(), bytes.size());
  maniLearnedModel m;
  ASSERT_EQ(maniOpenLearnedModel(aligned, bytes.size(), &m).result, mani_success);
  EXPECT_EQ(m.latentCount, 4u);
  EXPECT_EQ(m.projectorCount, 1u);
  EXPECT_EQ(m.weightFormat, (uint32_t)maniLearnedWeightsFloat32);
  std::string dbBytes = MaulReadFile(rig.databasePath);
  void* dbAligned = aligned_alloc(64, (dbBytes.size() + 63) / 64 * 64);
  memcpy(dbAligned, dbBytes.data(), dbBytes.size());
  maniMotionDatabase d;
  ASSERT_EQ(maniOpenMotionDatabase(dbAligned, dbBytes.size(), &d).result, mani_success);
  EXPECT_EQ(maniLearnedModel_GetDatabaseIdentity(&m), maniMotionDatabase_GetIdentity(&d));
  EXPECT_EQ(m.featureCount, d.featureCount);
  free(dbAligned);
  free(aligned);

  // 16-bit weights: another model of the same networks.
  std::string model16 = rig.dir + "/model16.mani";
  r = RunTrain(With(rig.Small(model16), {"--weights", "16", "--json"}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"done\": true"), std::string::npos) << r.out;
  bytes = MaulReadFile(model16);
  aligned = aligned_alloc(64, (bytes.size() + 63) / 64 * 64);
  memcpy(aligned, bytes.data(), bytes.size());
  ASSERT_EQ(maniOpenLearnedModel(aligned, bytes.size(), &m).result, mani_success);
  EXPECT_EQ(m.weightFormat, (uint32_t)maniLearnedWeights16);
  free(aligned);
}

// Training is deterministic across a stop and a resume: a run stopped by
// --for in its second stage and resumed from its checkpoint (checkpoints
// every 3 iterations) writes the bytes one run through writes.
TEST(MaulTrain, StoppedAndResumedWritesTheSameModel) {
  Rig rig("train-resume");
  std::string through = rig.dir + "/through.mani", resumed = rig.dir + "/resumed.mani";
  std::string checkpoint = rig.dir + "/train.ckpt";
  Outcome r = RunTrain(rig.Small(through));
  ASSERT_EQ(r.status, 0) << r.err;
  r = RunTrain(With(rig.Small(resumed), {"--checkpoint", checkpoint, "--every", "3", "--for", "7"}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("stopped at stage 2 after 7 iterations"), std::string::npos) << r.out;
  std::string unused;
  EXPECT_FALSE(MaulReadFile(resumed, &unused));  // no model before every stage is done
  ASSERT_TRUE(MaulReadFile(checkpoint, &unused));
  r = RunTrain(With(rig.Small(resumed), {"--resume", checkpoint, "--checkpoint", checkpoint, "--json"}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"iterations\": 8"), std::string::npos) << r.out;  // 15 in all
  std::string a = MaulReadFile(through), b = MaulReadFile(resumed);
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "a resumed run wrote other bytes";
  // A checkpoint of other options is refused, naming it.
  r = RunTrain(With(rig.Small(rig.dir + "/other.mani"), {"--seed", "7", "--resume", checkpoint}));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(checkpoint + ": not a checkpoint of this database and these options"), std::string::npos)
      << r.err;
  EXPECT_FALSE(MaulReadFile(rig.dir + "/other.mani", &unused));
}

TEST(MaulTrain, RefusalsNameTheFileWithTheirStatus) {
  Rig rig("train-refused");
  std::string model = rig.dir + "/model.mani";
  auto small = rig.Small(model);
  // Usage: a count that is not one, an unknown weight format, --for without
  // a checkpoint to keep its progress, no clips.
  for (auto bad : std::vector<std::vector<std::string>>{
           {"--batch", "eight"}, {"--iterations", "0"}, {"--weights", "f16"}, {"--for", "3"}, {"--bogus"}}) {
    Outcome r = RunTrain(With(small, bad));
    EXPECT_EQ(r.status, 2) << bad[0];
    EXPECT_NE(r.err.find("usage: maul train"), std::string::npos) << r.err;
  }
  Outcome r = RunTrain({rig.databasePath, "--skeleton", rig.skeletonPath, "--out", model});
  EXPECT_EQ(r.status, 2);
  // A missing file: I/O, 2.
  auto withDb = small;
  withDb[0] = rig.dir + "/none.mani";
  r = RunTrain(withDb);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot read " + rig.dir + "/none.mani"), std::string::npos) << r.err;
  // A clip file given as the database: refused by the open, 1.
  withDb[0] = rig.clip0;
  r = RunTrain(withDb);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(rig.clip0 + ": not a motion database"), std::string::npos) << r.err;
  // The clips out of the database's order: the trainer's Clip reason naming the first.
  auto swapped = small;
  std::swap(swapped[5], swapped[6]);
  r = RunTrain(swapped);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(rig.clip1 + ": the trainer refused"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("reason Clip"), std::string::npos) << r.err;
  // An option the trainer refuses: a batch not a multiple of 4 (item 9).
  r = RunTrain(With(small, {"--batch", "6"}));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("reason Option"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("item 9"), std::string::npos) << r.err;
  std::string unused;
  EXPECT_FALSE(MaulReadFile(model, &unused));  // nothing written by a refusal
}

}  // namespace
