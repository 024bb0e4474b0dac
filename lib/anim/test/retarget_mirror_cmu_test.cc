// Mirrored and retargeted clips on real motion capture: the CMU walk 09_02
// of ../shared/data/cmu-acl (glTF, imported with maniOpenGltf,
// maniBuildGltfNodeSkeleton and maniBuildGltfClip; root motion of the hip
// taken out). Skipped when ../shared/data is absent. Expected values are the
// source clip's own poses, reflected or scaled here in binary64.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/pose.h"
#include "maul/anim/retargetbuild.h"
#include "maul/anim/rootmotion.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

std::string SharedData() { return MaulSharedData(); }

bool ReadFile(const std::string& path, std::string* out) { return MaulReadFile(path, out); }

struct ClipFile {
  File file;
  maniClip c;
};

// The CMU skeleton (node 0's subtree: the scene holder and its 43 bones) and
// its first animation as a clip with the hip's root motion (x, z, yaw).
struct Cmu {
  File skeletonFile;
  maniSkeleton s;
  ClipFile clip;
  bool Load() {
    std::string root = SharedData(), text, bin;
    if (root.empty() || !ReadFile(root + "/cmu-acl/09_02.gltf", &text) || !ReadFile(root + "/cmu-acl/09_02.bin", &bin))
      return false;
    Builder b;
    maniGltf* g = nullptr;
    maniImportResult r = maniOpenGltf(b.b, text.data(), text.size(), &g);
    EXPECT_EQ(r.result, mani_success);
    if (r.result != mani_success) return false;
    bool ok = maniGltf_SupplyBuffer(g, 0, bin.data(), bin.size()).result == mani_success;
    const maniGltfOptions options = maniDefaultGltfOptions();
    ok = ok && maniBuildGltfNodeSkeleton(b.b, g, 0, &options).result == mani_success;
    if (ok) {
      skeletonFile = b.Built();
      ok = maniOpenSkeleton(skeletonFile.data(), skeletonFile.size, &s).result == mani_success;
    }
    if (ok) {
      maniImportClipOptions co = maniDefaultImportClipOptions();
      co.rootMotionBone = maniSkeleton_FindBone(&s, "hip", 3);
      co.rootMotionFlags = MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Z | MANI_ROOT_MOTION_YAW;
      ok = maniBuildGltfClip(b.b, g, 0, &s, &options, &co, nullptr).result == mani_success;
      if (ok) {
        clip.file = b.Built();
        ok = maniOpenClip(clip.file.data(), clip.file.size, &clip.c).result == mani_success;
      }
    }
    maniCloseGltf(g);
    EXPECT_TRUE(ok);
    return ok;
  }
  uint32_t Find(const std::string& n) const { return maniSkeleton_FindBone(&s, n.data(), n.size()); }
};

bool OpenBuilt(Builder& b, ClipFile* out) {
  out->file = b.Built();
  maniFileResult o = maniOpenClip(out->file.data(), out->file.size, &out->c);
  EXPECT_EQ(o.result, mani_success) << o.offset;
  return o.result == mani_success;
}

std::vector<float> SampleTimes(const maniClip* c) {
  const uint32_t n = maniClip_GetSampleCount(c);
  std::vector<float> t;
  for (uint32_t k = 0; k < n; ++k)
    t.push_back(k + 1 == n ? maniClip_GetDuration(c) : (float)((double)k / maniClip_GetSampleRate(c)));
  return t;
}

// The pose at a time with root motion put back, its model current.
void FullPose(const maniClip* c, const maniSkeleton* s, float t, maniPose* p) {
  ASSERT_EQ(maniClip_Sample(c, s, t, p), mani_success);
  ASSERT_EQ(maniClip_RestoreRootMotion(c, s, t, p), mani_success);
  ASSERT_EQ(maniPose_ComputeModel(p, s), mani_success);
}

std::string Sci(double v) {
  char text[32];
  snprintf(text, sizeof text, "%.3g", v);
  return text;
}

double Coord(maniVec3 v, uint32_t k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

// The length of a bone's path of rest translations from the root (the
// scale binary32 rounding errors along the path grow with).
double PathSize(const maniSkeleton* s, uint32_t bone) {
  double size = 1;
  for (uint32_t b = bone; b != MANI_NO_BONE; b = maniSkeleton_GetParent(s, b)) {
    maniVec3 t = maniSkeleton_GetRest(s, b).translation;
    size += std::fabs(t.x) + std::fabs(t.y) + std::fabs(t.z);
  }
  return size;
}

const maniMirrorRule kCmuRules[4] = {
    {"left", 4, "right", 5, maniMirrorRulePrefix},
    {"right", 5, "left", 4, maniMirrorRulePrefix},
    {"l", 1, "r", 1, maniMirrorRulePrefix},
    {"r", 1, "l", 1, maniMirrorRulePrefix},
};

TEST(MirrorClipCmu, TheMirroredWalkSwapsTheFeetAndTwiceGivesThePosesBack) {
  Cmu cmu;
  if (!cmu.Load()) GTEST_SKIP() << "no ../shared/data/cmu-acl";
  const uint32_t n = maniSkeleton_GetBoneCount(&cmu.s);
  ASSERT_EQ(n, 44u);
  // The plane: the axis the feet's rest positions differ most along.
  Pose rest(&cmu.s);
  ASSERT_EQ(maniPose_ComputeModel(rest.p, &cmu.s), mani_success);
  const uint32_t lf = cmu.Find("lFoot"), rf = cmu.Find("rFoot");
  const maniVec3 a = maniPose_GetModel(rest.p, lf).columns[3], b = maniPose_GetModel(rest.p, rf).columns[3];
  const double d[3] = {std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z)};
  const uint32_t axis = d[0] >= d[1] && d[0] >= d[2] ? 0 : (d[1] >= d[2] ? 1 : 2);
  maniMirrorMapSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &cmu.s;
  src.axis = axis;
  src.rules = kCmuRules;
  src.ruleCount = 4;
  Builder bl;
  ASSERT_EQ(maniBuildMirrorMap(bl.b, &src).result, mani_success);
  File mapFile = bl.Built();
  maniMirrorMap map;
  ASSERT_EQ(maniOpenMirrorMap(mapFile.data(), mapFile.size, &map).result, mani_success);
  maniMirrorClipSource cs = {&map, &cmu.s, &cmu.clip.c};
  ASSERT_EQ(maniBuildMirroredClip(bl.b, &cs).result, mani_success);
  ClipFile once, twice;
  ASSERT_TRUE(OpenBuilt(bl, &once));
  cs.clip = &once.c;
  ASSERT_EQ(maniBuildMirroredClip(bl.b, &cs).result, mani_success);
  ASSERT_TRUE(OpenBuilt(bl, &twice));
  maniRootMotionSource root;
  ASSERT_TRUE(maniClip_GetRootMotionSource(&once.c, &root));
  EXPECT_EQ(root.bone, cmu.Find("hip"));
  Pose p0(&cmu.s), p1(&cmu.s), p2(&cmu.s);
  const std::vector<float> times = SampleTimes(&cmu.clip.c);
  ASSERT_GT(times.size(), 10u);
  double worstFoot = 0, worstTwice = 0;
  for (float t : times) {
    FullPose(&cmu.clip.c, &cmu.s, t, p0.p);
    FullPose(&once.c, &cmu.s, t, p1.p);
    FullPose(&twice.c, &cmu.s, t, p2.p);
    // Each foot's model position is the other's reflected, within binary32
    // rounding along its path (the corrections, the root move, the chain).
    const uint32_t feet[2][2] = {{lf, rf}, {rf, lf}};
    for (const auto& f : feet) {
      const maniVec3 got = maniPose_GetModel(p1.p, f[0]).columns[3];
      const maniVec3 src0 = maniPose_GetModel(p0.p, f[1]).columns[3];
      const double size = PathSize(&cmu.s, f[1]) + std::fabs(src0.x) + std::fabs(src0.y) + std::fabs(src0.z);
      for (uint32_t k = 0; k < 3; ++k) {
        const double want = k == axis ? -Coord(src0, k) : Coord(src0, k);
        const double e = std::fabs(Coord(got, k) - want) / size;
        worstFoot = std::fmax(worstFoot, e);
        EXPECT_LT(e, 256 * 6e-8) << t << " " << f[0] << " " << k;
      }
    }
    // Twice: every bone's model position back.
    for (uint32_t i = 0; i < n; ++i) {
      const maniVec3 q0 = maniPose_GetModel(p0.p, i).columns[3], q2 = maniPose_GetModel(p2.p, i).columns[3];
      const double size = PathSize(&cmu.s, i) + std::fabs(q0.x) + std::fabs(q0.y) + std::fabs(q0.z);
      const double e = (std::fabs(q0.x - q2.x) + std::fabs(q0.y - q2.y) + std::fabs(q0.z - q2.z)) / size;
      worstTwice = std::fmax(worstTwice, e);
      EXPECT_LT(e, 4e-6) << t << " " << i;
    }
  }
  RecordProperty("worst_foot_error_relative", Sci(worstFoot));
  RecordProperty("worst_twice_error_relative", Sci(worstTwice));
}

// The CMU walk onto a character of another proportion and naming: every bone
// renamed "Character1_<name>", the hips and the legs 1.25 times as long, the
// upper body 0.85 times. The retargeted clip plays, and its feet follow the
// source's feet scaled by the leg-length ratio 1.25 (root motion put back):
// within 1e-5 of the path's size on every frame, the flat-ground ones (a
// foot within 5% of the hip's height of its lowest; 09_02 is a one-second
// run of 26 frames, so few) among them: their count is recorded.
TEST(RetargetClipCmu, TheWalkOnALongerLeggedCharacterMovesItsFeetByTheLegRatio) {
  Cmu cmu;
  if (!cmu.Load()) GTEST_SKIP() << "no ../shared/data/cmu-acl";
  const uint32_t n = maniSkeleton_GetBoneCount(&cmu.s);
  const float legs = 1.25f, upper = 0.85f;
  const uint32_t hip = cmu.Find("hip");
  std::vector<std::string> names(n);
  std::vector<maniSkeletonSourceBone> bones(n);
  std::vector<float> ratio(n);
  for (uint32_t i = 0; i < n; ++i) {
    size_t len = 0;
    const char* name = maniSkeleton_GetBoneName(&cmu.s, i, &len);
    names[i] = "Character1_" + std::string(name, len);
    // Below the hip: the buttocks' subtrees (the legs) take the leg ratio,
    // the abdomen's the upper body's; the hip and the holder the legs'.
    float k = legs;
    for (uint32_t b = i; b != MANI_NO_BONE && b != hip; b = maniSkeleton_GetParent(&cmu.s, b)) {
      size_t l = 0;
      const char* bn = maniSkeleton_GetBoneName(&cmu.s, b, &l);
      if (std::string(bn, l) == "abdomen") k = upper;
    }
    ratio[i] = k;
    maniTransform rest = maniSkeleton_GetRest(&cmu.s, i);
    rest.translation = maniVec3{rest.translation.x * k, rest.translation.y * k, rest.translation.z * k};
    bones[i] = {nullptr, 0, maniSkeleton_GetParent(&cmu.s, i), rest};
  }
  for (uint32_t i = 0; i < n; ++i) {
    bones[i].name = names[i].data();
    bones[i].nameLength = names[i].size();
  }
  maniSkeletonSource ts = {bones.data(), n};
  Builder bl;
  ASSERT_EQ(maniBuildSkeleton(bl.b, &ts).result, mani_success);
  File targetFile = bl.Built();
  maniSkeleton target;
  ASSERT_EQ(maniOpenSkeleton(targetFile.data(), targetFile.size, &target).result, mani_success);
  // Bone i follows bone i by name (the names differ, so by pairs); the hip
  // is the pelvis (y up, the height ratio the legs').
  std::vector<maniRetargetPair> pairs;
  for (uint32_t i = 0; i < n; ++i) {
    if (i == hip) continue;
    const uint32_t t = maniSkeleton_FindBone(&target, names[i].data(), names[i].size());
    pairs.push_back({i, t, 1.0f, maniRetargetTranslationOwn, false});
  }
  const uint32_t targetHip = maniSkeleton_FindBone(&target, names[hip].data(), names[hip].size());
  // The references: the walk's first frame (the CMU rest has the hip at the
  // origin, so no height to scale by), the target's translations scaled as
  // its rest's. Up: the model axis along which the hip stands highest above
  // the feet there, with its sign.
  Pose first(&cmu.s);
  FullPose(&cmu.clip.c, &cmu.s, 0.0f, first.p);
  std::vector<maniTransform> sourceRef(n), targetRef(n);
  for (uint32_t i = 0; i < n; ++i) {
    sourceRef[i] = targetRef[i] = maniPose_GetLocal(first.p, i);
    const maniVec3 t = sourceRef[i].translation;
    targetRef[i].translation = maniVec3{t.x * ratio[i], t.y * ratio[i], t.z * ratio[i]};
  }
  std::vector<maniTransform> targetRefInOrder(n);
  for (uint32_t i = 0; i < n; ++i)
    targetRefInOrder[maniSkeleton_FindBone(&target, names[i].data(), names[i].size())] = targetRef[i];
  const maniVec3 hipAt = maniPose_GetModel(first.p, hip).columns[3];
  const maniVec3 lfAt = maniPose_GetModel(first.p, cmu.Find("lFoot")).columns[3];
  const maniVec3 rfAt = maniPose_GetModel(first.p, cmu.Find("rFoot")).columns[3];
  double rise[3];
  for (uint32_t k = 0; k < 3; ++k) rise[k] = Coord(hipAt, k) - 0.5 * (Coord(lfAt, k) + Coord(rfAt, k));
  uint32_t upAxis = 0;
  for (uint32_t k = 1; k < 3; ++k)
    if (std::fabs(rise[k]) > std::fabs(rise[upAxis])) upAxis = k;
  const float upSign = rise[upAxis] < 0 ? -1.0f : 1.0f;
  const maniVec3 up = {upAxis == 0 ? upSign : 0.0f, upAxis == 1 ? upSign : 0.0f, upAxis == 2 ? upSign : 0.0f};
  const double hipHeight = std::fabs(rise[upAxis]);
  maniRetargetPelvis pelvis = {hip, targetHip, up, 1.0f, 1.0f, {0, 0, 0}, {0, 0, 0}, 1.0f};
  maniRetargetMapSource src;
  memset(&src, 0, sizeof src);
  src.source = &cmu.s;
  src.target = &target;
  src.pairs = pairs.data();
  src.pairCount = (uint32_t)pairs.size();
  src.pelvis = &pelvis;
  src.sourceReference = sourceRef.data();
  src.targetReference = targetRefInOrder.data();
  maniBuildResult built = maniBuildRetargetMap(bl.b, &src);
  ASSERT_EQ(built.result, mani_success) << built.reason << " " << built.item << " " << built.other;
  File mapFile = bl.Built();
  maniRetargetMap map;
  ASSERT_EQ(maniOpenRetargetMap(mapFile.data(), mapFile.size, &map).result, mani_success);
  maniRetargetClipSource cs = {&map, &cmu.s, &target, &cmu.clip.c};
  maniBuildResult r = maniBuildRetargetedClip(bl.b, &cs);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  ClipFile out;
  ASSERT_TRUE(OpenBuilt(bl, &out));
  EXPECT_EQ(maniClip_GetSkeletonIdentity(&out.c), maniSkeleton_GetIdentity(&target));
  maniRootMotionSource root;
  ASSERT_TRUE(maniClip_GetRootMotionSource(&out.c, &root));
  EXPECT_EQ(root.bone, targetHip);
  // The feet's lowest heights over the clip (source), for the flat-ground
  // frames.
  const uint32_t feet[2] = {cmu.Find("lFoot"), cmu.Find("rFoot")};
  const std::vector<float> times = SampleTimes(&cmu.clip.c);
  Pose ps(&cmu.s), pt(&target);
  double lowest[2] = {1e30, 1e30};
  for (float t : times) {
    FullPose(&cmu.clip.c, &cmu.s, t, ps.p);
    for (int f = 0; f < 2; ++f)
      lowest[f] = std::fmin(lowest[f], upSign * Coord(maniPose_GetModel(ps.p, feet[f]).columns[3], upAxis));
  }
  uint32_t flatFrames = 0;
  double worst = 0;
  for (float t : times) {
    FullPose(&cmu.clip.c, &cmu.s, t, ps.p);
    FullPose(&out.c, &target, t, pt.p);
    for (int f = 0; f < 2; ++f) {
      const maniVec3 a = maniPose_GetModel(ps.p, feet[f]).columns[3];
      const maniVec3 b = maniPose_GetModel(pt.p, feet[f]).columns[3];
      if (upSign * Coord(a, upAxis) <= lowest[f] + 0.05 * hipHeight) flatFrames++;
      const double size = legs * (PathSize(&cmu.s, feet[f]) + std::fabs(a.x) + std::fabs(a.y) + std::fabs(a.z));
      for (uint32_t k = 0; k < 3; ++k) {
        const double e = std::fabs(Coord(b, k) - legs * Coord(a, k)) / size;
        worst = std::fmax(worst, e);
        EXPECT_LT(e, 1e-5) << t << " foot " << f << " axis " << k;
      }
    }
  }
  RecordProperty("worst_foot_error_relative", Sci(worst));
  RecordProperty("flat_ground_foot_frames", std::to_string(flatFrames));
}

}  // namespace
