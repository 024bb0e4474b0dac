// skin.h and the builder's skin: build, open, accessors, every refusal,
// mutations of the file, bytes changed after the open, palettes against
// binary64 math, dual quaternion and row palettes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "lib/core/rng.h"
#include "maul/anim/build.h"
#include "maul/anim/pose.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

namespace {



float Uniform(mcore_Rng* rng, float lo, float hi) { return lo + (hi - lo) * (float)mcore_RngDouble01(rng); }

maniAffine RandomAffine(mcore_Rng* rng, float scaleLo = -2, float scaleHi = 2) {
  maniAffine a;
  float* f = &a.columns[0].x;
  for (int i = 0; i < 9; ++i) f[i] = Uniform(rng, scaleLo, scaleHi);
  for (int i = 9; i < 12; ++i) f[i] = Uniform(rng, -10, 10);
  return a;
}

maniAffine Identity() {
  maniAffine a = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}}};
  return a;
}

// A skin of the skeleton: joints, then binds (empty: none).
File BuildSkin(const maniSkeleton* s, const std::vector<uint32_t>& joints, const std::vector<maniAffine>& binds) {
  Builder b;
  maniSkinSource src = {s, joints.data(), binds.empty() ? nullptr : binds.data(), (uint32_t)joints.size()};
  maniBuildResult r = maniBuildSkin(b.b, &src);
  EXPECT_EQ(r.result, mani_success);
  return b.Built();
}

struct SkinFixture {
  Skel skel;
  std::vector<uint32_t> joints;
  std::vector<maniAffine> binds;
  File file;
  maniSkin skin;
  SkinFixture(uint64_t seed, uint32_t bones, uint32_t jointCount) : skel(seed, bones) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    for (uint32_t j = 0; j < jointCount; ++j) {
      joints.push_back((uint32_t)(mcore_RngNext(&rng) % bones));
      binds.push_back(RandomAffine(&rng));
    }
    file = BuildSkin(&skel.s, joints, binds);
    EXPECT_EQ(maniOpenSkin(file.data(), file.size, &skin).result, mani_success);
  }
};

uint64_t Reidentify(File& g) {
  uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindSkin, g.data() + 64, g.size - 64);
  memcpy(g.data() + 32, &id, 8);
  return id;
}

TEST(BuildSkin, RoundTrip) {
  SkinFixture f(11, 30, 17);
  EXPECT_EQ(maniSkin_GetJointCount(&f.skin), 17u);
  EXPECT_EQ(maniSkin_GetSkeletonIdentity(&f.skin), maniSkeleton_GetIdentity(&f.skel.s));
  EXPECT_NE(maniSkin_GetIdentity(&f.skin), 0u);
  EXPECT_EQ(maniSkin_GetIdentity(&f.skin), mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindSkin, f.file.data() + 64,
                                                        f.file.size - 64));
  for (uint32_t j = 0; j < 17; ++j) {
    EXPECT_EQ(maniSkin_GetJoint(&f.skin, j), f.joints[j]);
    maniAffine m = maniSkin_GetInverseBind(&f.skin, j);
    EXPECT_EQ(memcmp(&m, &f.binds[j], sizeof m), 0) << j;
  }
  EXPECT_EQ(maniSkin_GetJoint(&f.skin, 17), MANI_NO_BONE);
  maniAffine past = maniSkin_GetInverseBind(&f.skin, 17);
  maniAffine id = Identity();
  EXPECT_EQ(memcmp(&past, &id, sizeof id), 0);
  // Format fields.
  uint32_t kind, version;
  memcpy(&kind, f.file.data() + 4, 4);
  memcpy(&version, f.file.data() + 8, 4);
  EXPECT_EQ(kind, (uint32_t)mcore_kindSkin);
  EXPECT_EQ(version, 2u);
  EXPECT_EQ(f.file.size, 144u + 16 + 80 + 48 * 17);  // table ends at 136, padded to 144; 68 joint bytes padded to 80
  // Same source, same bytes.
  File again = BuildSkin(&f.skel.s, f.joints, f.binds);
  ASSERT_EQ(again.size, f.file.size);
  EXPECT_EQ(memcmp(again.data(), f.file.data(), f.file.size), 0);
}

TEST(BuildSkin, NoInverseBindsMeansIdentityAndRepeatedBonesAllowed) {
  Skel skel(3, 5);
  File file = BuildSkin(&skel.s, {4, 0, 4}, {});
  maniSkin skin;
  ASSERT_EQ(maniOpenSkin(file.data(), file.size, &skin).result, mani_success);
  ASSERT_EQ(maniSkin_GetJointCount(&skin), 3u);
  maniAffine id = Identity();
  for (uint32_t j = 0; j < 3; ++j) {
    maniAffine m = maniSkin_GetInverseBind(&skin, j);
    EXPECT_EQ(memcmp(&m, &id, sizeof id), 0);
  }
  EXPECT_EQ(maniSkin_GetJoint(&skin, 0), 4u);
  EXPECT_EQ(maniSkin_GetJoint(&skin, 2), 4u);
}

TEST(BuildSkin, RefusalsWithReasonAndItem) {
  Skel skel(4, 10);
  Builder b;
  std::vector<uint32_t> joints = {0, 3, 9, 1};
  std::vector<maniAffine> binds(4, Identity());
  maniSkinSource good = {&skel.s, joints.data(), binds.data(), 4};
  ASSERT_EQ(maniBuildSkin(b.b, &good).result, mani_success);
  File kept = b.Built();

  maniSkinSource src = good;
  src.jointCount = 0;
  maniBuildResult r = maniBuildSkin(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount);
  src = good;
  src.joints = nullptr;
  r = maniBuildSkin(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount);

  // A bone past the skeleton: the joint and the bone.
  std::vector<uint32_t> badJoints = {0, 3, 10, 1};
  src = good;
  src.joints = badJoints.data();
  r = maniBuildSkin(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJoint);
  EXPECT_EQ(r.item, 2u);
  EXPECT_EQ(r.other, 10u);
  badJoints[1] = MANI_NO_BONE;
  r = maniBuildSkin(b.b, &src);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJoint);
  EXPECT_EQ(r.item, 1u);

  // A matrix not finite, at each of the 12 places.
  for (int k = 0; k < 12; ++k) {
    std::vector<maniAffine> badBinds = binds;
    (&badBinds[3].columns[0].x)[k] = k % 2 ? INFINITY : NAN;
    src = good;
    src.inverseBinds = badBinds.data();
    r = maniBuildSkin(b.b, &src);
    EXPECT_EQ(r.result, mani_errorInvalid) << k;
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNotFinite) << k;
    EXPECT_EQ(r.item, 3u) << k;
  }
  // The bone is checked before the matrix of the same joint.
  {
    std::vector<maniAffine> badBinds = binds;
    badBinds[2].columns[3].y = NAN;
    badJoints = {0, 3, 10, 1};
    src = good;
    src.joints = badJoints.data();
    src.inverseBinds = badBinds.data();
    r = maniBuildSkin(b.b, &src);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJoint);
    EXPECT_EQ(r.item, 2u);
  }

  // A skeleton no open wrote, or NULL.
  maniSkeleton zero;
  memset(&zero, 0, sizeof zero);
  src = good;
  src.skeleton = &zero;
  r = maniBuildSkin(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJoint);
  EXPECT_EQ(r.other, (uint64_t)MANI_NO_BONE);
  src.skeleton = nullptr;
  r = maniBuildSkin(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);

  // More than MANI_MAX_BONES joints: errorLimit, the count as item.
  std::vector<uint32_t> many(MANI_MAX_BONES + 1, 0);
  src = good;
  src.joints = many.data();
  src.inverseBinds = nullptr;
  src.jointCount = MANI_MAX_BONES + 1;
  r = maniBuildSkin(b.b, &src);
  EXPECT_EQ(r.result, mani_errorLimit);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount);
  EXPECT_EQ(r.item, (uint64_t)MANI_MAX_BONES + 1);
  // Exactly MANI_MAX_BONES builds and opens.
  src.jointCount = MANI_MAX_BONES;
  {
    Builder b2;
    ASSERT_EQ(maniBuildSkin(b2.b, &src).result, mani_success);
    File big = b2.Built();
    maniSkin skin;
    ASSERT_EQ(maniOpenSkin(big.data(), big.size, &skin).result, mani_success);
    EXPECT_EQ(maniSkin_GetJointCount(&skin), MANI_MAX_BONES);
  }

  // Refused sources are not misuse, and the builder keeps its file.
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u);
  File still = b.Built();
  ASSERT_EQ(still.size, kept.size);
  EXPECT_EQ(memcmp(still.data(), kept.data(), kept.size), 0);
  // NULL arguments are misuse.
  r = maniBuildSkin(b.b, nullptr);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 1u);
  r = maniBuildSkin(nullptr, &good);
  EXPECT_EQ(r.result, mani_errorInvalid);
  // A skin build replaces a skeleton's order.
  uint32_t count = 0;
  EXPECT_EQ(maniBuilder_CopySkeletonOrder(b.b, nullptr, 0, &count), mani_errorInvalid);
}

TEST(OpenSkin, ArgumentsAlignmentVersionAndViewUnchangedOnFailure) {
  SkinFixture f(5, 8, 6);
  maniSkin v;
  memset(&v, 0x77, sizeof v);
  maniSkin before = v;
  EXPECT_EQ(maniOpenSkin(nullptr, f.file.size, &v).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenSkin(f.file.data(), f.file.size, nullptr).result, mani_errorInvalid);
  // Misaligned.
  std::vector<uint64_t> words(f.file.size / 8 + 4);
  uint8_t* odd = reinterpret_cast<uint8_t*>(words.data()) + 8;
  memcpy(odd, f.file.data(), f.file.size);
  EXPECT_EQ(maniOpenSkin(odd, f.file.size, &v).result, mani_errorInvalid);
  // A skeleton file is not a skin.
  EXPECT_EQ(maniOpenSkin(f.skel.file.data(), f.skel.file.size, &v).result, mani_errorFormat);
  EXPECT_EQ(memcmp(&v, &before, sizeof v), 0);
  // Another format version: errorVersion at offset 8 (1 is the skeleton's,
  // 3 a later one).
  for (uint32_t version : {1u, 3u, 0u}) {
    File g = f.file;
    memcpy(g.data() + 8, &version, 4);
    maniFileResult r = maniOpenSkin(g.data(), g.size, &v);
    EXPECT_EQ(r.result, mani_errorVersion) << version;
    EXPECT_EQ(r.offset, 8u);
  }
  // A tag only a later format writes: errorVersion at the tag.
  File g = f.file;
  uint32_t later = MCORE_TAG(3, 2);
  memcpy(g.data() + 64 + 24, &later, 4);
  Reidentify(g);
  maniFileResult r = maniOpenSkin(g.data(), g.size, &v);
  EXPECT_EQ(r.result, mani_errorVersion);
  EXPECT_EQ(r.offset, 64u + 24);
  EXPECT_EQ(memcmp(&v, &before, sizeof v), 0);
}

// Every truncation and byte patch (file_testing.h).
TEST(OpenSkin, EveryTruncationAndBytePatchIsRefused) {
  SkinFixture f(6, 12, 5);
  maniSkin s;
  ExpectEveryMutationRefused(f.file.data(), f.file.size, [&](const void* b, size_t n) { return maniOpenSkin(b, n, &s); });
}

// Forged files: a field changed and the identity recomputed, so only the
// section checks can find it, each at the exact byte.
TEST(OpenSkin, ForgedFilesAreRefusedAtTheWrongField) {
  SkinFixture f(9, 16, 7);
  const uint64_t info = f.skin.joints - 16;
  auto forge = [&](uint64_t at, const void* value, size_t n) {
    File g = f.file;
    memcpy(g.data() + at, value, n);
    Reidentify(g);
    maniSkin v;
    return maniOpenSkin(g.data(), g.size, &v);
  };
  auto expectAt = [&](uint64_t at, const void* value, size_t n, uint64_t wrongAt) {
    maniFileResult r = forge(at, value, n);
    EXPECT_EQ(r.result, mani_errorFormat) << "field at " << at;
    EXPECT_EQ(r.offset, wrongAt) << "field at " << at;
  };
  // The forge itself is sound.
  EXPECT_EQ(forge(f.skin.joints, f.file.data() + f.skin.joints, 4).result, mani_success);
  uint32_t zero = 0, big = MANI_MAX_BONES + 1, six = 6, eight = 8;
  expectAt(info, &zero, 4, info);                        // no joints
  expectAt(info, &big, 4, info);                         // too many joints
  expectAt(info + 4, &zero, 4, info + 4);                // a skeleton without bones
  expectAt(info + 4, &big, 4, info + 4);                 // too many skeleton bones
  expectAt(info, &six, 4, 64 + 24 * 1 + 16);             // joint count that does not match the joints' size
  expectAt(info, &eight, 4, 64 + 24 * 1 + 16);
  // A joint at or past the skeleton's bones.
  uint32_t sixteen = 16, none = MANI_NO_BONE;
  expectAt(f.skin.joints + 4 * 3, &sixteen, 4, f.skin.joints + 4 * 3);
  expectAt(f.skin.joints + 4 * 6, &none, 4, f.skin.joints + 4 * 6);
  // Fewer skeleton bones than a joint uses: the first such joint.
  uint32_t maxBone = 0, firstAt = 0;
  for (uint32_t j = 0; j < 7; ++j) maxBone = f.joints[j] > maxBone ? f.joints[j] : maxBone;
  while (f.joints[firstAt] != maxBone) firstAt++;
  if (maxBone > 0) expectAt(info + 4, &maxBone, 4, f.skin.joints + 4 * firstAt);
  // Each float of a matrix not finite.
  float nan = NAN, inf = -INFINITY;
  for (uint32_t k = 0; k < 12; ++k) {
    uint64_t at = f.skin.inverseBinds + 48 * 5 + 4 * k;
    expectAt(at, k % 2 ? &nan : &inf, 4, at);
  }
  // The skeleton identity is any value.
  uint64_t other = 12345;
  EXPECT_EQ(forge(info + 8, &other, 8).result, mani_success);
  // A section size that does not fit: the info's size field.
  uint64_t infoSize = 32;
  maniFileResult r = forge(64 + 16, &infoSize, 8);
  EXPECT_EQ(r.result, mani_errorFormat);
}

TEST(SkinView, ZeroedOrDamagedViewsReadAsEmpty) {
  maniSkin z;
  memset(&z, 0, sizeof z);
  EXPECT_EQ(maniSkin_GetJointCount(&z), 0u);
  EXPECT_EQ(maniSkin_GetIdentity(&z), 0u);
  EXPECT_EQ(maniSkin_GetSkeletonIdentity(&z), 0u);
  EXPECT_EQ(maniSkin_GetJoint(&z, 0), MANI_NO_BONE);
  maniAffine m = maniSkin_GetInverseBind(&z, 0);
  maniAffine id = Identity();
  EXPECT_EQ(memcmp(&m, &id, sizeof id), 0);
  EXPECT_EQ(maniSkin_GetJointCount(nullptr), 0u);
  EXPECT_EQ(maniSkin_GetJoint(nullptr, 0), MANI_NO_BONE);

  SkinFixture f(7, 10, 9);
  std::vector<maniSkin> damaged;
  maniSkin d = f.skin;
  d.jointCount = 1000000;
  damaged.push_back(d);
  d = f.skin;
  d.size = 100;
  damaged.push_back(d);
  d = f.skin;
  d.inverseBinds = f.skin.size - 16;
  damaged.push_back(d);
  d = f.skin;
  d.joints = UINT64_MAX;
  damaged.push_back(d);
  d = f.skin;
  d.skeletonBoneCount = 0;
  damaged.push_back(d);
  d = f.skin;
  d.opened = 0;
  damaged.push_back(d);
  for (const maniSkin& v : damaged) {
    EXPECT_EQ(maniSkin_GetJointCount(&v), 0u);
    EXPECT_EQ(maniSkin_GetIdentity(&v), 0u);
    EXPECT_EQ(maniSkin_GetSkeletonIdentity(&v), 0u);
    EXPECT_EQ(maniSkin_GetJoint(&v, 0), MANI_NO_BONE);
    maniAffine a = maniSkin_GetInverseBind(&v, 0);
    EXPECT_EQ(memcmp(&a, &id, sizeof id), 0);
  }
}

// A pose of the skeleton with seeded locals, its model composed.
struct Pose {
  std::vector<uint64_t> memory;
  maniPose* pose = nullptr;
  Pose(const maniSkeleton* s, uint64_t seed) {
    size_t size = maniSkeleton_GetPoseSize(s);
    memory.assign(size / 8 + 8, 0);
    uint8_t* p = reinterpret_cast<uint8_t*>(memory.data());
    p += (32 - (uintptr_t)p % 32) % 32;
    EXPECT_EQ(maniInitPose(s, p, size, &pose), mani_success);
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    for (uint32_t b = 0; b < maniSkeleton_GetBoneCount(s); ++b) {
      maniTransform t;
      t.translation = {Uniform(&rng, -3, 3), Uniform(&rng, -3, 3), Uniform(&rng, -3, 3)};
      double q[4], len = 0;
      for (double& c : q) {
        c = Uniform(&rng, -1, 1);
        len += c * c;
      }
      len = std::sqrt(len);
      t.rotation = {(float)(q[0] / len), (float)(q[1] / len), (float)(q[2] / len), (float)(q[3] / len)};
      t.scale = {Uniform(&rng, 0.5f, 1.5f), Uniform(&rng, 0.5f, 1.5f), Uniform(&rng, 0.5f, 1.5f)};
      maniPose_SetLocal(pose, b, t);
    }
    EXPECT_EQ(maniPose_ComputeModel(pose, s), mani_success);
  }
};

TEST(Palette, ModelTimesInverseBindAgainstBinary64AndExactOrder) {
  SkinFixture f(21, 40, 25);
  Pose p(&f.skel.s, 99);
  std::vector<maniAffine> palette(25);
  uint32_t count = 0;
  ASSERT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 25, &count), mani_success);
  ASSERT_EQ(count, 25u);
  for (uint32_t j = 0; j < 25; ++j) {
    maniAffine m = maniPose_GetModel(p.pose, f.joints[j]);
    const maniAffine& b = f.binds[j];
    const float* mc = &m.columns[0].x;
    const float* bc = &b.columns[0].x;
    const float* pc = &palette[j].columns[0].x;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 3; ++r) {
        // Binary64 reference and its magnitude.
        double ref = 0, mag = 0;
        for (int k = 0; k < 3; ++k) {
          ref += (double)mc[3 * k + r] * bc[3 * c + k];
          mag += std::fabs((double)mc[3 * k + r] * bc[3 * c + k]);
        }
        if (c == 3) {
          ref += mc[9 + r];
          mag += std::fabs(mc[9 + r]);
        }
        EXPECT_NEAR(pc[3 * c + r], ref, 4 * mag * 0x1p-24 + 1e-30) << j << " " << c << " " << r;
        // The documented binary32 order, bit for bit.
        volatile float v = (mc[r] * bc[3 * c] + mc[3 + r] * bc[3 * c + 1]) + mc[6 + r] * bc[3 * c + 2];
        if (c == 3) v = v + mc[9 + r];
        EXPECT_EQ(memcmp((const void*)&v, &pc[3 * c + r], 4), 0) << j << " " << c << " " << r;
      }
    }
  }
}

TEST(Palette, Refusals) {
  SkinFixture f(22, 12, 5);
  Pose p(&f.skel.s, 3);
  std::vector<maniAffine> palette(5);
  maniAffine sentinel;
  memset(&sentinel, 0x5C, sizeof sentinel);
  for (auto& m : palette) m = sentinel;
  uint32_t count = 77;
  // Too short: the count written, nothing else.
  EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 4, &count), mani_errorCapacity);
  EXPECT_EQ(count, 5u);
  for (auto& m : palette) EXPECT_EQ(memcmp(&m, &sentinel, sizeof m), 0);
  // NULL arguments.
  EXPECT_EQ(maniPose_ComputePalette(nullptr, &f.skel.s, &f.skin, palette.data(), 5, &count), mani_errorInvalid);
  EXPECT_EQ(maniPose_ComputePalette(p.pose, nullptr, &f.skin, palette.data(), 5, &count), mani_errorInvalid);
  EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, nullptr, palette.data(), 5, &count), mani_errorInvalid);
  EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, nullptr, 5, &count), mani_errorInvalid);
  EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 5, nullptr), mani_errorInvalid);
  // A skin view no open wrote.
  maniSkin zero;
  memset(&zero, 0, sizeof zero);
  EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &zero, palette.data(), 5, &count), mani_errorInvalid);
  // A skeleton that is not the skin's (nor the pose's).
  Skel other(23, 12);
  Pose otherPose(&other.s, 4);
  EXPECT_EQ(maniPose_ComputePalette(otherPose.pose, &other.s, &f.skin, palette.data(), 5, &count), mani_errorInvalid);
  // A skeleton that is the skin's but not the pose's.
  EXPECT_EQ(maniPose_ComputePalette(otherPose.pose, &f.skel.s, &f.skin, palette.data(), 5, &count),
            mani_errorInvalid);
  // A skin forged to record the skeleton's identity but another bone count.
  {
    File g = f.file;
    uint32_t bones = 13;
    memcpy(g.data() + f.skin.joints - 12, &bones, 4);
    Reidentify(g);
    maniSkin forged;
    ASSERT_EQ(maniOpenSkin(g.data(), g.size, &forged).result, mani_success);
    EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &forged, palette.data(), 5, &count), mani_errorInvalid);
  }
  // A stale model.
  maniPose_SetLocal(p.pose, 0, maniPose_GetLocal(p.pose, 0));
  EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 5, &count), mani_errorInvalid);
  ASSERT_EQ(maniPose_ComputeModel(p.pose, &f.skel.s), mani_success);
  // A difference: the pose header's flags (internal layout: magic, bones,
  // groups, flags; bit 2 marks a difference) set as a difference's are.
  {
    uint32_t flags;
    memcpy(&flags, reinterpret_cast<uint8_t*>(p.pose) + 12, 4);
    uint32_t diff = flags | 2u;
    memcpy(reinterpret_cast<uint8_t*>(p.pose) + 12, &diff, 4);
    EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 5, &count), mani_errorInvalid);
    memcpy(reinterpret_cast<uint8_t*>(p.pose) + 12, &flags, 4);
  }
  for (auto& m : palette) EXPECT_EQ(memcmp(&m, &sentinel, sizeof m), 0);
  EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 5, &count), mani_success);
}

// Bytes changed after the open: accessors stay inside the bytes (asan
// checks), a bone past the skeleton reads MANI_NO_BONE and the root's model.
TEST(SkinView, BytesChangedAfterTheOpenNeverReadOutside) {
  SkinFixture f(31, 20, 10);
  Pose p(&f.skel.s, 5);
  uint32_t far = 0xFFFFFFF0u;
  memcpy(f.file.data() + f.skin.joints + 4 * 4, &far, 4);
  uint32_t justPast = 20;
  memcpy(f.file.data() + f.skin.joints + 4 * 6, &justPast, 4);
  EXPECT_EQ(maniSkin_GetJoint(&f.skin, 4), MANI_NO_BONE);
  EXPECT_EQ(maniSkin_GetJoint(&f.skin, 6), MANI_NO_BONE);
  std::vector<maniAffine> palette(10);
  uint32_t count = 0;
  ASSERT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 10, &count), mani_success);
  std::vector<maniAffine> expect(10);
  maniAffine root = maniPose_GetModel(p.pose, 0);
  for (uint32_t j : {4u, 6u}) {
    // Entry j as for a joint of bone 0.
    File g = f.file;
    uint32_t zero = 0;
    memcpy(g.data() + f.skin.joints + 4 * j, &zero, 4);
    maniSkin v = f.skin;
    v.bytes = g.data();
    std::vector<maniAffine> pal(10);
    ASSERT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &v, pal.data(), 10, &count), mani_success);
    EXPECT_EQ(memcmp(&pal[j], &palette[j], sizeof(maniAffine)), 0) << j;
  }
  (void)root;
  // Every byte 0xff: nothing reads outside; the palette still fits.
  memset(f.file.data(), 0xFF, f.file.size);
  for (uint32_t j = 0; j <= 10; ++j) {
    EXPECT_EQ(maniSkin_GetJoint(&f.skin, j), MANI_NO_BONE);
    (void)maniSkin_GetInverseBind(&f.skin, j);
  }
  EXPECT_EQ(maniSkin_GetJointCount(&f.skin), 10u);
  EXPECT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 10, &count), mani_success);
}

// Rebuilds A from the 20 floats: R from q, S's rows, t = 2 d q*.
void Reconstruct(const float* o, double lin[3][3], double t[3]) {
  const double x = o[0], y = o[1], z = o[2], w = o[3];
  const double R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                          {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                          {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};  // R[row][col]
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      lin[r][c] = 0;
      for (int k = 0; k < 3; ++k) lin[r][c] += R[r][k] * o[8 + 4 * k + c];
    }
  // t = 2 d conj(q): vector part of 2 (dw, dv)(w, -qv) = 2 (w dv - dw qv - dv x qv).
  const double dv[3] = {o[4], o[5], o[6]}, dw = o[7], qv[3] = {x, y, z};
  const double cr[3] = {dv[1] * qv[2] - dv[2] * qv[1], dv[2] * qv[0] - dv[0] * qv[2], dv[0] * qv[1] - dv[1] * qv[0]};
  for (int i = 0; i < 3; ++i) t[i] = 2 * (w * dv[i] - dw * qv[i] - cr[i]);
}

// Tolerance: the rigid part (q, d) reproduces the translation within
// 1e-5 * (1 + |t|) and the product R S the linear part within 1e-5 of the
// matrix's largest column length (binary32 rounding of q, d and S).
TEST(DualQuaternions, ReproduceThePaletteRigidAndScaleParts) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 777);
  std::vector<maniAffine> palette;
  for (int i = 0; i < 200; ++i) palette.push_back(RandomAffine(&rng));
  // Rigid ones: rotations from a pose, scales 1, and a mirror.
  SkinFixture f(41, 16, 16);
  Pose p(&f.skel.s, 6);
  for (uint32_t b = 0; b < 16; ++b) {
    maniTransform t = maniPose_GetLocal(p.pose, b);
    t.scale = {1, 1, 1};
    maniPose_SetLocal(p.pose, b, t);
  }
  ASSERT_EQ(maniPose_ComputeModel(p.pose, &f.skel.s), mani_success);
  for (uint32_t b = 0; b < 16; ++b) palette.push_back(maniPose_GetModel(p.pose, b));
  maniAffine mirror = {{{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 2, 3}}};
  palette.push_back(mirror);
  palette.push_back(Identity());
  maniAffine flat = {{{0, 0, 0}, {0, 2, 0}, {0, 0, 3}, {4, 5, 6}}};
  palette.push_back(flat);
  const uint32_t n = (uint32_t)palette.size();
  std::vector<float> dq(20 * n, -7.0f);
  ASSERT_EQ(maniConvertPaletteToDualQuaternions(palette.data(), n, dq.data()), mani_success);
  for (uint32_t i = 0; i < n; ++i) {
    const float* o = &dq[20 * i];
    const maniAffine& a = palette[i];
    double qlen = (double)o[0] * o[0] + (double)o[1] * o[1] + (double)o[2] * o[2] + (double)o[3] * o[3];
    EXPECT_NEAR(qlen, 1.0, 1e-6) << i;
    EXPECT_GE(o[3], 0.0f) << i;
    for (int r = 0; r < 3; ++r) EXPECT_EQ(o[8 + 4 * r + 3], 0.0f) << i;
    double lin[3][3], t[3];
    Reconstruct(o, lin, t);
    double maxCol = 0, tl = 0;
    for (int c = 0; c < 3; ++c) {
      const float* col = &a.columns[c].x;
      maxCol = std::fmax(maxCol, std::sqrt((double)col[0] * col[0] + (double)col[1] * col[1] + (double)col[2] * col[2]));
    }
    for (int r = 0; r < 3; ++r) tl += (double)(&a.columns[3].x)[r] * (&a.columns[3].x)[r];
    tl = std::sqrt(tl);
    for (int r = 0; r < 3; ++r) {
      EXPECT_NEAR(t[r], (&a.columns[3].x)[r], 1e-5 * (1 + tl)) << i << " " << r;
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(lin[r][c], (&a.columns[c].x)[r], 1e-5 * maxCol) << i << " " << r << c;
    }
    // S = R^T A is symmetric for a polar decomposition of a non-degenerate,
    // unmirrored matrix.
    double det = 0;
    {
      const float* c0 = &a.columns[0].x;
      const float* c1 = &a.columns[1].x;
      const float* c2 = &a.columns[2].x;
      det = c0[0] * ((double)c1[1] * c2[2] - (double)c1[2] * c2[1]) - c0[1] * ((double)c1[0] * c2[2] - (double)c1[2] * c2[0]) +
            c0[2] * ((double)c1[0] * c2[1] - (double)c1[1] * c2[0]);
    }
    if (det > 1e-3 * maxCol * maxCol * maxCol) {
      EXPECT_NEAR(o[8 + 1], o[8 + 4], 1e-5 * maxCol) << i;
      EXPECT_NEAR(o[8 + 2], o[8 + 8], 1e-5 * maxCol) << i;
      EXPECT_NEAR(o[8 + 6], o[8 + 9], 1e-5 * maxCol) << i;
    }
  }
  // Rigid matrices: S within 1e-6 of the identity; the mirror's S is
  // diag(-1, 1, 1) and its rotation the identity.
  for (uint32_t i = 200; i < 216; ++i)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(dq[20 * i + 8 + 4 * r + c], r == c ? 1.0 : 0.0, 2e-6) << i;
  const float* m = &dq[20 * 216];
  EXPECT_EQ(m[3], 1.0f);
  EXPECT_EQ(m[8], -1.0f);
  EXPECT_EQ(m[13], 1.0f);
  EXPECT_EQ(m[18], 1.0f);
  EXPECT_EQ(m[4], 0.5f);  // d = (t, 0) / 2 for q = 1
  EXPECT_EQ(m[5], 1.0f);
  EXPECT_EQ(m[6], 1.5f);
  EXPECT_EQ(m[7], 0.0f);
  // The identity gives exactly (0,0,0,1), (0,0,0,0), I.
  const float* e = &dq[20 * 217];
  const float expectId[20] = {0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  for (int k = 0; k < 20; ++k) EXPECT_EQ(e[k], expectId[k]) << k;
}

TEST(DualQuaternions, RefusalsLeaveTheOutputUnchanged) {
  std::vector<maniAffine> palette(4, Identity());
  std::vector<float> out(80, 3.0f);
  EXPECT_EQ(maniConvertPaletteToDualQuaternions(nullptr, 4, out.data()), mani_errorInvalid);
  EXPECT_EQ(maniConvertPaletteToDualQuaternions(palette.data(), 4, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniConvertPaletteToDualQuaternions(nullptr, 0, nullptr), mani_success);
  for (int k = 0; k < 12; ++k) {
    std::vector<maniAffine> bad = palette;
    (&bad[3].columns[0].x)[k] = k % 3 == 0 ? NAN : (k % 3 == 1 ? INFINITY : -INFINITY);
    EXPECT_EQ(maniConvertPaletteToDualQuaternions(bad.data(), 4, out.data()), mani_errorInvalid) << k;
    for (float v : out) ASSERT_EQ(v, 3.0f);
  }
}

TEST(Rows, LayoutIsRowMajorTranslationLast) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 8);
  std::vector<maniAffine> palette;
  for (int i = 0; i < 9; ++i) palette.push_back(RandomAffine(&rng));
  std::vector<float> rows(12 * 9 + 1, -1.0f);
  ASSERT_EQ(maniConvertPaletteToRows(palette.data(), 9, rows.data()), mani_success);
  for (int i = 0; i < 9; ++i)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) EXPECT_EQ(rows[12 * i + 4 * r + c], (&palette[i].columns[c].x)[r]);
  EXPECT_EQ(rows[108], -1.0f);
  EXPECT_EQ(maniConvertPaletteToRows(nullptr, 1, rows.data()), mani_errorInvalid);
  EXPECT_EQ(maniConvertPaletteToRows(palette.data(), 1, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniConvertPaletteToRows(nullptr, 0, nullptr), mani_success);
}

}  // namespace

namespace {

// One hash over a seeded skin file, its palette for a seeded pose, the dual
// quaternion and row palettes: the same bits in every build (x86-64 AVX2 and
// scalar, arm64 NEON and scalar).
TEST(SkinDeterminism, FileAndPalettesHashTheSameEverywhere) {
  SkinFixture f(1234, 33, 21);
  Pose p(&f.skel.s, 4321);
  std::vector<maniAffine> palette(21);
  uint32_t count = 0;
  ASSERT_EQ(maniPose_ComputePalette(p.pose, &f.skel.s, &f.skin, palette.data(), 21, &count), mani_success);
  std::vector<float> dq(20 * 21), rows(12 * 21);
  ASSERT_EQ(maniConvertPaletteToDualQuaternions(palette.data(), 21, dq.data()), mani_success);
  ASSERT_EQ(maniConvertPaletteToRows(palette.data(), 21, rows.data()), mani_success);
  const uint64_t fileHash = mcore_Hash64(1, f.file.data(), f.file.size);
  uint64_t h = mcore_Hash64(2, palette.data(), palette.size() * sizeof(maniAffine));
  h = mcore_Hash64(h, dq.data(), dq.size() * sizeof(float));
  h = mcore_Hash64(h, rows.data(), rows.size() * sizeof(float));
  printf("skin determinism: file %016llx outputs %016llx\n", (unsigned long long)fileHash, (unsigned long long)h);
  EXPECT_EQ(fileHash, UINT64_C(0x29d83cabfd886c90));
  EXPECT_EQ(h, UINT64_C(0x0b8ae6f5b172c218));
}

}  // namespace
