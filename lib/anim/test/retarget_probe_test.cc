// Break-it probes of retarget.h and retargetbuild.h, written from the headers
// and the reference alone: build refusals with reason, item and other, the
// open (NULL, misaligned, every mutation, the view unchanged), NULL and
// unopened views, and RetargetPose's promise that a map between equal
// references gives the source's locals bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "maul/anim/clip.h"
#include "maul/anim/retarget.h"
#include "maul/anim/retargetbuild.h"

namespace {

struct NamedRig {
  File file;
  maniSkeleton s;
  uint32_t n = 0;
  explicit NamedRig(uint64_t seed) {
    maniSkeletonSource src = maniFixtureMakeMirrorRig(seed, 0, 1, 3, 0);
    Builder b;
    EXPECT_EQ(maniBuildSkeleton(b.b, &src).result, mani_success);
    file = b.Built();
    maniFixtureFreeMirrorRig(&src);
    EXPECT_EQ(maniOpenSkeleton(file.data(), file.size, &s).result, mani_success);
    n = maniSkeleton_GetBoneCount(&s);
  }
};

maniRetargetMapSource Source(const NamedRig& a, const NamedRig& b) {
  maniRetargetMapSource src;
  memset(&src, 0, sizeof src);
  src.source = &a.s;
  src.target = &b.s;
  src.matchNames = true;
  return src;
}

maniBuildResult BuildResult(const maniRetargetMapSource& src) {
  Builder b;
  return maniBuildRetargetMap(b.b, &src);
}

void ExpectRefused(const maniRetargetMapSource& src, uint32_t reason, uint32_t item, uint32_t other) {
  maniBuildResult r = BuildResult(src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.item, item);
  EXPECT_EQ(r.other, other);
}

TEST(RetargetProbe, BuildRefusals) {
  NamedRig a(1), t(2);
  maniRetargetMapSource src = Source(a, t);
  {
    Builder b;
    EXPECT_EQ(maniBuildRetargetMap(nullptr, &src).result, mani_errorInvalid);
    EXPECT_EQ(maniBuildRetargetMap(b.b, nullptr).result, mani_errorInvalid);
  }
  maniRetargetMapSource s = src;
  s.target = nullptr;
  ExpectRefused(s, maniBuildReasonNone, 0, 0);
  s = src;
  s.pairCount = 1;
  ExpectRefused(s, maniBuildReasonNone, 0, 0);
  s = src;
  s.chainCount = 1;
  ExpectRefused(s, maniBuildReasonNone, 0, 0);
  // Pairs: a target out of range, a weight past 1 or NaN, an unknown
  // translation, a target mapped twice (the second pair, other the bone).
  maniRetargetPair pairs[2] = {{0, 0, 1, maniRetargetTranslationOwn, false}, {1, 0, 1, 0, false}};
  s = src;
  s.pairs = pairs;
  s.pairCount = 2;
  ExpectRefused(s, maniBuildReasonRetargetPair, 1, 0);
  pairs[1] = {1, t.n, 1, 0, false};
  ExpectRefused(s, maniBuildReasonRetargetPair, 1, t.n);
  pairs[1] = {a.n, 1, 1, 0, false};
  {
    maniBuildResult r = BuildResult(s);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonRetargetPair);
    EXPECT_EQ(r.item, 1u);
  }
  pairs[1] = {1, 1, 1.5f, 0, false};
  ExpectRefused(s, maniBuildReasonRetargetPair, 1, 1);
  pairs[1] = {1, 1, NAN, 0, false};
  ExpectRefused(s, maniBuildReasonRetargetPair, 1, 1);
  pairs[1] = {1, 1, -0.0f, 3, false};
  ExpectRefused(s, maniBuildReasonRetargetPair, 1, 1);
  pairs[1] = {1, 1, 0, maniRetargetTranslationAbsolute, true};
  {
    Builder b;
    EXPECT_EQ(maniBuildRetargetMap(b.b, &s).result, mani_success);
  }
  // Chains: an unknown mode, an end not below its start.
  maniRetargetChain chain = {2, 4, 2, 4, 4, 0, 1, false};
  s = src;
  s.chains = &chain;
  s.chainCount = 1;
  ExpectRefused(s, maniBuildReasonRetargetChain, 0, 0);
  chain = {4, 2, 2, 4, maniRetargetChainOneToOne, 0, 1, false};
  ExpectRefused(s, maniBuildReasonRetargetChain, 0, 0);
  chain = {2, 4, 2, 4, maniRetargetChainOneToOne, 0, 2.0f, false};
  ExpectRefused(s, maniBuildReasonRetargetChain, 0, 0);
  // References: not finite (other 0 the source, 1 the target), not unit.
  std::vector<maniTransform> ra(a.n), rt(t.n);
  for (uint32_t i = 0; i < a.n; ++i) ra[i] = maniSkeleton_GetRest(&a.s, i);
  for (uint32_t i = 0; i < t.n; ++i) rt[i] = maniSkeleton_GetRest(&t.s, i);
  s = src;
  ra[3].translation.z = INFINITY;
  s.sourceReference = ra.data();
  ExpectRefused(s, maniBuildReasonRetargetReference, 3, 0);
  ra[3] = maniSkeleton_GetRest(&a.s, 3);
  rt[2].rotation = {0, 0, 0, 1.01f};
  s.targetReference = rt.data();
  ExpectRefused(s, maniBuildReasonRetargetReference, 2, 1);
  // Pelvis: an up axis not of length 1, a factor negative, a blend past 1.
  maniRetargetPelvis pelvis = {0, 0, {0, 2, 0}, 1, 1, {0, 0, 0}, {0, 0, 0}, 1};
  s = src;
  s.pelvis = &pelvis;
  EXPECT_EQ(BuildResult(s).reason, (uint32_t)maniBuildReasonRetargetPelvis);
  pelvis.up = {0, 1, 0};
  pelvis.verticalFactor = -1;
  EXPECT_EQ(BuildResult(s).reason, (uint32_t)maniBuildReasonRetargetPelvis);
  pelvis.verticalFactor = 1;
  pelvis.toSource.y = 1.25f;
  EXPECT_EQ(BuildResult(s).reason, (uint32_t)maniBuildReasonRetargetPelvis);
}

struct RMap {
  File file;
  maniRetargetMap m;
};

RMap Build(const maniRetargetMapSource& src) {
  RMap out;
  Builder b;
  maniBuildResult r = maniBuildRetargetMap(b.b, &src);
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  out.file = b.Built();
  EXPECT_EQ(maniOpenRetargetMap(out.file.data(), out.file.size, &out.m).result, mani_success);
  return out;
}

TEST(RetargetProbe, OpenRefusalsAndNullViews) {
  NamedRig a(3);
  RMap m = Build(Source(a, a));
  maniRetargetMap view;
  memset(&view, 0x5A, sizeof view);
  const maniRetargetMap sentinel = view;
  EXPECT_EQ(maniOpenRetargetMap(nullptr, m.file.size, &view).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenRetargetMap(m.file.data(), m.file.size, nullptr).result, mani_errorInvalid);
  std::vector<uint64_t> shifted(m.file.size / 8 + 4, 0);
  uint8_t* at = reinterpret_cast<uint8_t*>(shifted.data()) + 8 + 4;
  memcpy(at, m.file.data(), m.file.size);
  EXPECT_EQ(maniOpenRetargetMap(at, m.file.size, &view).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&view, &sentinel, sizeof view), 0);
  ExpectEveryMutationRefused(m.file.data(), m.file.size, [&](const void* p, size_t n) {
    maniRetargetMap v = sentinel;
    maniFileResult r = maniOpenRetargetMap(p, n, &v);
    if (r.result != mani_success) {
      EXPECT_EQ(memcmp(&v, &sentinel, sizeof v), 0);
    }
    return r;
  });
  EXPECT_EQ(maniRetargetMap_GetSourceIdentity(&m.m), maniSkeleton_GetIdentity(&a.s));
  EXPECT_EQ(maniRetargetMap_GetTargetIdentity(&m.m), maniSkeleton_GetIdentity(&a.s));
  EXPECT_EQ(maniRetargetMap_GetScratchSize(&m.m), (size_t)16 * 2 * a.n);
  maniRetargetMap zero;
  memset(&zero, 0, sizeof zero);
  for (const maniRetargetMap* v : {(const maniRetargetMap*)nullptr, (const maniRetargetMap*)&zero}) {
    EXPECT_EQ(maniRetargetMap_GetIdentity(v), 0u);
    EXPECT_EQ(maniRetargetMap_GetSourceIdentity(v), 0u);
    EXPECT_EQ(maniRetargetMap_GetTargetIdentity(v), 0u);
    EXPECT_EQ(maniRetargetMap_GetScratchSize(v), 0u);
  }
  // Root motion without a pelvis (or a NULL map): scales 1, the bits kept.
  maniVec3 d = {0.1f, -2.5f, 3.0e-7f};
  maniVec3 g = maniRetargetMap_RetargetRootMotion(nullptr, d);
  EXPECT_EQ(memcmp(&g, &d, sizeof d), 0);
  g = maniRetargetMap_RetargetRootMotion(&m.m, d);
  EXPECT_EQ(memcmp(&g, &d, sizeof d), 0);
}

TEST(RetargetProbe, EqualReferencesGiveTheLocalsBitForBitAndRefusalsLeaveTheTarget) {
  NamedRig a(4), other(5);
  RMap m = Build(Source(a, a));
  Pose in(&a.s), out(&a.s), foreign(&other.s);
  for (uint32_t i = 0; i < a.n; ++i) {
    float f = 0.1f * (float)(i + 1);
    float l = std::sqrt(f * f + 1.0f);
    maniPose_SetLocal(in.p, i, maniTransform{{f, -f, 2 * f}, {f / l, 0, 0, 1.0f / l}, {1, 1, 1}});
  }
  const size_t need = maniRetargetMap_GetScratchSize(&m.m);
  std::vector<uint64_t> scratchMem(need / 8 + 4, 0);
  uint8_t* scratch = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratchMem.data()) + 15) & ~uintptr_t(15));
  ASSERT_EQ(maniPose_SetRest(out.p, &a.s), mani_success);
  std::vector<uint8_t> before = out.Bytes();
  EXPECT_EQ(maniRetargetMap_RetargetPose(&m.m, &a.s, in.p, &a.s, out.p, scratch, need - 1), mani_errorInvalid);
  EXPECT_EQ(maniRetargetMap_RetargetPose(&m.m, &a.s, in.p, &a.s, out.p, scratch + 8, need), mani_errorInvalid);
  EXPECT_EQ(maniRetargetMap_RetargetPose(&m.m, &a.s, in.p, &a.s, out.p, nullptr, need), mani_errorInvalid);
  EXPECT_EQ(maniRetargetMap_RetargetPose(nullptr, &a.s, in.p, &a.s, out.p, scratch, need), mani_errorInvalid);
  EXPECT_EQ(maniRetargetMap_RetargetPose(&m.m, &other.s, in.p, &a.s, out.p, scratch, need), mani_errorInvalid);
  EXPECT_EQ(maniRetargetMap_RetargetPose(&m.m, &a.s, foreign.p, &a.s, out.p, scratch, need), mani_errorInvalid);
  EXPECT_EQ(maniRetargetMap_RetargetPose(&m.m, &a.s, in.p, &a.s, in.p, scratch, need), mani_errorInvalid);
  EXPECT_EQ(out.Bytes(), before);
  ASSERT_EQ(maniRetargetMap_RetargetPose(&m.m, &a.s, in.p, &a.s, out.p, scratch, need), mani_success);
  // matchNames maps every bone at weight 1 with its own translation: the
  // rotations are the source's bit for bit, the translations the rest's.
  for (uint32_t i = 0; i < a.n; ++i) {
    maniTransform s = maniPose_GetLocal(in.p, i), o = maniPose_GetLocal(out.p, i);
    maniTransform rest = maniSkeleton_GetRest(&a.s, i);
    EXPECT_EQ(memcmp(&s.rotation, &o.rotation, sizeof s.rotation), 0) << i;
    EXPECT_EQ(memcmp(&rest.translation, &o.translation, sizeof rest.translation), 0) << i;
  }
}

TEST(RetargetProbe, RetargetedClipSourceRefusals) {
  NamedRig a(6);
  RMap m = Build(Source(a, a));
  maniClip unopened;
  memset(&unopened, 0, sizeof unopened);
  maniRetargetClipSource cs = {&m.m, &a.s, &a.s, &unopened};
  Builder b;
  EXPECT_EQ(maniBuildRetargetedClip(nullptr, &cs).result, mani_errorInvalid);
  maniBuildResult r = maniBuildRetargetedClip(b.b, nullptr);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone);
  for (int field = 0; field < 4; ++field) {
    maniRetargetClipSource c = cs;
    if (field == 0) c.map = nullptr;
    if (field == 1) c.source = nullptr;
    if (field == 2) c.target = nullptr;
    if (field == 3) c.clip = nullptr;
    r = maniBuildRetargetedClip(b.b, &c);
    EXPECT_EQ(r.result, mani_errorInvalid) << field;
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone) << field;
  }
  // A clip no open wrote: other 2.
  r = maniBuildRetargetedClip(b.b, &cs);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonRetargetClip);
  EXPECT_EQ(r.other, 2u);
}

}  // namespace
