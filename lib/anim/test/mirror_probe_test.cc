// Break-it probes of mirror.h and mirrorbuild.h, written from the headers and
// the reference alone: every refusal with its reason and item, outputs left
// unchanged on failure (sentinel bytes), NULL and unopened views, and the
// promised properties (a reflection is a sign flip of the normal component,
// mirroring twice is the identity bit for bit on mirrored axes, JSON written
// then built gives the same file) derived here independently.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "maul/anim/clip.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"

namespace {

const uint64_t kNameSeed = 0x6D616E692D6E616DULL;  // docs/formats.md, skeleton name hashes

struct MirrorRig {
  File file;
  maniSkeleton s;
  uint32_t n = 0;
  MirrorRig(uint64_t seed, uint32_t axis, uint32_t chains, uint32_t length, int extraTurns = 0) {
    maniSkeletonSource src = maniFixtureMakeMirrorRig(seed, axis, chains, length, extraTurns);
    Builder b;
    EXPECT_EQ(maniBuildSkeleton(b.b, &src).result, mani_success);
    file = b.Built();
    maniFixtureFreeMirrorRig(&src);
    EXPECT_EQ(maniOpenSkeleton(file.data(), file.size, &s).result, mani_success);
    n = maniSkeleton_GetBoneCount(&s);
  }
  uint32_t Find(const char* name) const { return maniSkeleton_FindBone(&s, name, strlen(name)); }
};

maniMirrorMapSource Source(const MirrorRig& rig, uint32_t axis) {
  maniMirrorMapSource src;
  memset(&src, 0, sizeof src);
  src.skeleton = &rig.s;
  src.axis = axis;
  src.rules = maniFixtureMirrorRules;
  src.ruleCount = 2;
  return src;
}

struct Map {
  File file;
  maniMirrorMap m;
};

Map Build(const maniMirrorMapSource& src) {
  Map map;
  memset(&map.m, 0, sizeof map.m);
  Builder b;
  maniBuildResult r = maniBuildMirrorMap(b.b, &src);
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  if (r.result != mani_success) return map;
  map.file = b.Built();
  EXPECT_EQ(maniOpenMirrorMap(map.file.data(), map.file.size, &map.m).result, mani_success);
  return map;
}

void ExpectRefused(const maniMirrorMapSource& src, maniResult code, uint32_t reason, uint32_t item) {
  Builder b;
  maniBuildResult r = maniBuildMirrorMap(b.b, &src);
  EXPECT_EQ(r.result, code);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.item, item);
}

// Reflection across the plane normal to axis, from its definition: the
// vector's normal component negated; a rotation's two components off the
// normal negated.
maniVec3 Reflect(maniVec3 v, uint32_t axis) {
  float* c[3] = {&v.x, &v.y, &v.z};
  *c[axis] = -*c[axis];
  return v;
}
maniQuat Reflect(maniQuat q, uint32_t axis) {
  if (axis != 0) q.x = -q.x;
  if (axis != 1) q.y = -q.y;
  if (axis != 2) q.z = -q.z;
  return q;
}

// A deterministic pose: values from a fixed linear congruential sequence.
void FillPose(maniPose* p, uint32_t n, uint64_t seed, bool uniformScale = false) {
  uint64_t x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  auto u = [&x](float lo, float hi) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (float)((x >> 40) & 0xFFFFFF) / 16777216.0f;
  };
  for (uint32_t i = 0; i < n; ++i) {
    float a = u(-1, 1), b = u(-1, 1), c = u(-1, 1), d = u(0.2f, 1);
    float l = std::sqrt(a * a + b * b + c * c + d * d);
    float tx = u(-2, 2), ty = u(-2, 2), tz = u(-2, 2);
    float sx = u(0.5f, 2), sy = u(0.5f, 2), sz = u(0.5f, 2);
    if (uniformScale) sy = sz = sx;
    maniTransform t = {{tx, ty, tz}, {a / l, b / l, c / l, d / l}, {sx, sy, sz}};
    maniPose_SetLocal(p, i, t);
  }
}

bool Same(const maniTransform& a, const maniTransform& b) { return memcmp(&a, &b, sizeof a) == 0; }

// -- maniBuildMirrorMap refusals ---------------------------------------------------

TEST(MirrorProbe, BuildNullArgumentsAndCountsWithoutLists) {
  MirrorRig rig(1, 0, 1, 2);
  maniMirrorMapSource src = Source(rig, 0);
  Builder b;
  EXPECT_EQ(maniBuildMirrorMap(nullptr, &src).result, mani_errorInvalid);
  maniBuildResult r = maniBuildMirrorMap(b.b, nullptr);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone);
  maniMirrorMapSource s = src;
  s.skeleton = nullptr;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0);
  s = src;
  s.pairCount = 1;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0);
  s = src;
  s.rules = nullptr;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0);
  s = src;
  s.namePairCount = 1;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0);
  s = src;
  s.nameCount = 1;
  ExpectRefused(s, mani_errorInvalid, maniBuildReasonNone, 0);
}

TEST(MirrorProbe, BuildUnknownAxisIsAnOption) {
  MirrorRig rig(2, 0, 1, 2);
  maniMirrorMapSource src = Source(rig, 3);
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonOption, 0);
  src.axis = 0xFFFFFFFFu;
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonOption, 0);
}

TEST(MirrorProbe, BuildReferenceNotFiniteOrZeroRotationNamesTheBone) {
  MirrorRig rig(3, 0, 1, 2);
  std::vector<maniTransform> ref(rig.n);
  for (uint32_t i = 0; i < rig.n; ++i) ref[i] = maniSkeleton_GetRest(&rig.s, i);
  maniMirrorMapSource src = Source(rig, 0);
  src.reference = ref.data();
  std::vector<maniTransform> bad = ref;
  bad[2].translation.y = NAN;
  src.reference = bad.data();
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorReference, 2);
  bad = ref;
  bad[3].scale.z = INFINITY;
  src.reference = bad.data();
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorReference, 3);
  bad = ref;
  bad[1].rotation = {0, 0, 0, 0};
  src.reference = bad.data();
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorReference, 1);
  bad = ref;
  bad[4].rotation.w = NAN;
  src.reference = bad.data();
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorReference, 4);
  // The rest itself given as the reference builds.
  src.reference = ref.data();
  Map m = Build(src);
  EXPECT_EQ(maniMirrorMap_GetIdentity(&m.m) != 0, true);
}

TEST(MirrorProbe, BuildRuleRefusalsNameTheRule) {
  MirrorRig rig(4, 0, 1, 2);
  maniMirrorMapSource src = Source(rig, 0);
  maniMirrorRule rules[3] = {maniFixtureMirrorRules[0], maniFixtureMirrorRules[1], {"Hips", 4, "Hops", 4, 0}};
  src.rules = rules;
  src.ruleCount = 3;
  // An empty find.
  rules[2] = {"", 0, "X", 1, maniMirrorRulePrefix};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorRule, 2);
  // A non-UTF-8 find and replace.
  rules[2] = {"\xff", 1, "X", 1, maniMirrorRulePrefix};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorRule, 2);
  rules[2] = {"X", 1, "\xc3", 1, maniMirrorRulePrefix};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorRule, 2);
  // An unknown place.
  rules[2] = {"X", 1, "Y", 1, 3};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorRule, 2);
  // Past MANI_MAX_NAME_BYTES: a limit, and one at the limit builds.
  std::string big(MANI_MAX_NAME_BYTES + 1, 'a');
  rules[2] = {big.data(), big.size(), "Y", 1, maniMirrorRuleAnywhere};
  ExpectRefused(src, mani_errorLimit, maniBuildReasonMirrorRule, 2);
  rules[2] = {"Y", 1, big.data(), big.size(), maniMirrorRuleAnywhere};
  ExpectRefused(src, mani_errorLimit, maniBuildReasonMirrorRule, 2);
  rules[2] = {big.data(), MANI_MAX_NAME_BYTES, "Y", 1, maniMirrorRuleAnywhere};
  Build(src);
  // An empty replace is allowed (NULL when 0).
  rules[2] = {"Q", 1, nullptr, 0, maniMirrorRuleSuffix};
  Build(src);
  // A partner that does not pair back: "Left" -> "Right" alone.
  src.ruleCount = 1;
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorRule, 0);
}

TEST(MirrorProbe, BuildRulePartnerExplicitlyPairedIsRefused) {
  MirrorRig rig(5, 0, 2, 1);
  maniMirrorMapSource src = Source(rig, 0);
  // Left_0_0 paired with Right_1_0 explicitly; Left_1_0 then finds Right_1_0 by
  // the rules, which is explicitly paired: refused naming rule 0.
  maniMirrorBonePair pairs[2] = {{rig.Find("Left_0_0"), rig.Find("Right_1_0")},
                                 {rig.Find("Right_0_0"), rig.Find("Left_1_0")}};
  src.pairs = pairs;
  src.pairCount = 1;
  maniBuildResult r;
  {
    Builder b;
    r = maniBuildMirrorMap(b.b, &src);
  }
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorRule);
  // Both cross pairs given: every bone decided, builds, and partners follow.
  src.pairCount = 2;
  Map m = Build(src);
  EXPECT_EQ(maniMirrorMap_GetPartner(&m.m, rig.Find("Left_0_0")), rig.Find("Right_1_0"));
  EXPECT_EQ(maniMirrorMap_GetPartner(&m.m, rig.Find("Right_1_0")), rig.Find("Left_0_0"));
  EXPECT_EQ(maniMirrorMap_GetPartner(&m.m, rig.Find("Left_1_0")), rig.Find("Right_0_0"));
  // The hierarchy is still symmetric (all four hang off Spine).
  EXPECT_EQ(maniMirrorMap_GetUnmatchedBone(&m.m), MANI_NO_BONE);
}

TEST(MirrorProbe, BuildPairRefusals) {
  MirrorRig rig(6, 0, 1, 2);
  maniMirrorMapSource src = Source(rig, 0);
  maniMirrorBonePair pairs[2] = {{0, rig.n}, {1, 1}};
  src.pairs = pairs;
  src.pairCount = 1;
  {
    Builder b;
    maniBuildResult r = maniBuildMirrorMap(b.b, &src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorPair);
    EXPECT_EQ(r.item, 0u);
    EXPECT_EQ(r.other, rig.n);
  }
  pairs[0] = {rig.n, 0};
  {
    Builder b;
    maniBuildResult r = maniBuildMirrorMap(b.b, &src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorPair);
    EXPECT_EQ(r.item, rig.n);
  }
  // A bone in two pairs.
  pairs[0] = {2, 4};
  pairs[1] = {4, 3};
  src.pairCount = 2;
  {
    Builder b;
    maniBuildResult r = maniBuildMirrorMap(b.b, &src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorPair);
  }
  // A bone paired with itself stays unpaired whatever the rules say.
  uint32_t l = rig.Find("Left_0_0"), rr = rig.Find("Right_0_0");
  pairs[0] = {l, l};
  pairs[1] = {rr, rr};
  Map m = Build(src);
  EXPECT_EQ(maniMirrorMap_GetPartner(&m.m, l), l);
  EXPECT_EQ(maniMirrorMap_GetPartner(&m.m, rr), rr);
}

TEST(MirrorProbe, BuildNameRefusalsAndNumbering) {
  MirrorRig rig(7, 0, 1, 1);
  maniMirrorMapSource src = Source(rig, 0);
  maniMirrorNamePair np[2] = {{"a", 1, "b", 1}, {"a", 1, "c", 1}};
  src.namePairs = np;
  src.namePairCount = 2;
  {
    // Name pair 1's name is list item 2; the earlier is item 0.
    Builder b;
    maniBuildResult r = maniBuildMirrorMap(b.b, &src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorName);
    EXPECT_EQ(r.item, 2u);
    EXPECT_EQ(r.other, 0u);
  }
  // The same pair twice is kept once.
  np[1] = np[0];
  Build(src);
  // The same pair reversed is the same pair.
  np[1] = {"b", 1, "a", 1};
  Build(src);
  // An empty partner: item 1.
  np[0] = {"a", 1, "", 0};
  src.namePairCount = 1;
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorName, 1);
  // A non-UTF-8 name: item 0.
  np[0] = {"\x80", 1, "b", 1};
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorName, 0);
  // A name past the limit.
  std::string big(MANI_MAX_NAME_BYTES + 1, 'n');
  np[0] = {"a", 1, big.data(), big.size()};
  ExpectRefused(src, mani_errorLimit, maniBuildReasonMirrorName, 1);
  // names[j] is item 2 namePairCount + j.
  np[0] = {"a", 1, "b", 1};
  maniMirrorName names[2] = {{"LeftHand", 8}, {"", 0}};
  src.names = names;
  src.nameCount = 2;
  ExpectRefused(src, mani_errorInvalid, maniBuildReasonMirrorName, 3);
  // A rule-made partner past the limit: "Left" + 252 bytes is 256 bytes under
  // the rule "Left" -> "Right" (257 bytes).
  std::string longName = "Left" + std::string(MANI_MAX_NAME_BYTES - 4, 'x');
  ASSERT_EQ(longName.size(), MANI_MAX_NAME_BYTES);
  names[1] = {longName.data(), longName.size()};
  ExpectRefused(src, mani_errorLimit, maniBuildReasonMirrorName, 3);
}

TEST(MirrorProbe, BuilderKeepsWhatItHeldOnFailure) {
  MirrorRig rig(8, 0, 1, 2);
  maniMirrorMapSource src = Source(rig, 0);
  Builder b;
  ASSERT_EQ(maniBuildMirrorMap(b.b, &src).result, mani_success);
  File before = b.Built();
  maniMirrorMapSource bad = src;
  bad.axis = 7;
  EXPECT_EQ(maniBuildMirrorMap(b.b, &bad).result, mani_errorInvalid);
  File after = b.Built();
  ASSERT_EQ(before.size, after.size);
  EXPECT_EQ(memcmp(before.data(), after.data(), before.size), 0);
}

// -- maniOpenMirrorMap and accessors -------------------------------------------------

TEST(MirrorProbe, OpenRefusalsLeaveTheViewUnchanged) {
  MirrorRig rig(9, 1, 1, 1);
  Map m = Build(Source(rig, 1));
  maniMirrorMap view;
  memset(&view, 0xA5, sizeof view);
  maniMirrorMap sentinel = view;
  EXPECT_EQ(maniOpenMirrorMap(nullptr, m.file.size, &view).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenMirrorMap(m.file.data(), m.file.size, nullptr).result, mani_errorInvalid);
  // Misaligned bytes: the same file one byte on.
  std::vector<uint64_t> shifted(m.file.size / 8 + 4, 0);
  uint8_t* at = reinterpret_cast<uint8_t*>(shifted.data()) + 8 + 1;
  memcpy(at, m.file.data(), m.file.size);
  EXPECT_EQ(maniOpenMirrorMap(at, m.file.size, &view).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&view, &sentinel, sizeof view), 0);
  // Truncated and patched.
  EXPECT_EQ(maniOpenMirrorMap(m.file.data(), m.file.size - 1, &view).result, mani_errorFormat);
  EXPECT_EQ(maniOpenMirrorMap(m.file.data(), 0, &view).result, mani_errorFormat);
  EXPECT_EQ(memcmp(&view, &sentinel, sizeof view), 0);
  ExpectEveryMutationRefused(m.file.data(), m.file.size, [&](const void* p, size_t n) {
    maniMirrorMap v = sentinel;
    maniFileResult r = maniOpenMirrorMap(p, n, &v);
    if (r.result != mani_success) {
      EXPECT_EQ(memcmp(&v, &sentinel, sizeof v), 0);
    }
    return r;
  });
  // An opened view reports the axis, the skeleton and a symmetric hierarchy.
  EXPECT_EQ(maniMirrorMap_GetAxis(&m.m), maniMirrorAxisY);
  EXPECT_EQ(maniMirrorMap_GetSkeletonIdentity(&m.m), maniSkeleton_GetIdentity(&rig.s));
  EXPECT_EQ(maniMirrorMap_GetUnmatchedBone(&m.m), MANI_NO_BONE);
}

TEST(MirrorProbe, NullAndUnopenedViewsReadAsEmpty) {
  maniMirrorMap zero;
  memset(&zero, 0, sizeof zero);
  for (const maniMirrorMap* v : {(const maniMirrorMap*)nullptr, (const maniMirrorMap*)&zero}) {
    EXPECT_EQ(maniMirrorMap_GetIdentity(v), 0u);
    EXPECT_EQ(maniMirrorMap_GetPartner(v, 0), MANI_NO_BONE);
    EXPECT_EQ(maniMirrorMap_GetBoneFlags(v, 0), 0u);
    EXPECT_EQ(maniMirrorMap_GetUnmatchedBone(v), MANI_NO_BONE);
    EXPECT_EQ(maniMirrorMap_GetAxis(v), maniMirrorAxisX);
    const char* name = "LeftFoot";
    size_t len = 99;
    EXPECT_EQ(maniMirrorMap_MirrorName(v, name, 8, &len), name);
    EXPECT_EQ(len, 8u);
    EXPECT_EQ(maniMirrorMap_MirrorName(v, nullptr, 0, nullptr), nullptr);
    EXPECT_EQ(maniMirrorMap_MirrorNameHash(v, 12345u), 12345u);
  }
  EXPECT_EQ(maniMirrorMap_GetSkeletonIdentity(nullptr), 0u);
  // A view whose counts are damaged past its bytes reads as empty too.
  MirrorRig rig(10, 0, 1, 1);
  Map m = Build(Source(rig, 0));
  maniMirrorMap damaged = m.m;
  damaged.boneCount = 0x7FFFFFFFu;
  damaged.partners = ~0ull;
  EXPECT_EQ(maniMirrorMap_GetPartner(&damaged, 0x7FFFFFF0u), MANI_NO_BONE);
  EXPECT_EQ(maniMirrorMap_GetBoneFlags(&damaged, 0x7FFFFFF0u), 0u);
  // Past the count.
  EXPECT_EQ(maniMirrorMap_GetPartner(&m.m, rig.n), MANI_NO_BONE);
  EXPECT_EQ(maniMirrorMap_GetBoneFlags(&m.m, rig.n), 0u);
}

// -- MirrorName / MirrorNameHash -----------------------------------------------------

TEST(MirrorProbe, NamesPairBothWaysAndHashesFollow) {
  MirrorRig rig(11, 0, 1, 1);
  maniMirrorMapSource src = Source(rig, 0);
  maniMirrorNamePair np[1] = {{"jawOpenL", 8, "jawOpenR", 8}};
  maniMirrorName names[1] = {{"LeftHeel", 8}};
  src.namePairs = np;
  src.namePairCount = 1;
  src.names = names;
  src.nameCount = 1;
  Map m = Build(src);
  auto mirror = [&](const std::string& s) {
    size_t len = 0;
    const char* p = maniMirrorMap_MirrorName(&m.m, s.data(), s.size(), &len);
    return std::string(p, len);
  };
  EXPECT_EQ(mirror("jawOpenL"), "jawOpenR");
  EXPECT_EQ(mirror("jawOpenR"), "jawOpenL");
  EXPECT_EQ(mirror("LeftHeel"), "RightHeel");
  EXPECT_EQ(mirror("RightHeel"), "LeftHeel");
  // Unpaired: the name itself (its pointer), also a prefix of a paired name.
  std::string other = "jawOpen";
  size_t len = 0;
  EXPECT_EQ(maniMirrorMap_MirrorName(&m.m, other.data(), other.size(), &len), other.data());
  EXPECT_EQ(len, other.size());
  // The returned bytes lie inside the map.
  const char* inside = maniMirrorMap_MirrorName(&m.m, "jawOpenL", 8, nullptr);
  EXPECT_GE((const uint8_t*)inside, m.file.data());
  EXPECT_LE((const uint8_t*)inside + 8, m.file.data() + m.file.size);
  auto h = [](const char* s) { return maniHash64(kNameSeed, s, (int64_t)strlen(s)); };
  EXPECT_EQ(maniMirrorMap_MirrorNameHash(&m.m, h("jawOpenL")), h("jawOpenR"));
  EXPECT_EQ(maniMirrorMap_MirrorNameHash(&m.m, h("RightHeel")), h("LeftHeel"));
  EXPECT_EQ(maniMirrorMap_MirrorNameHash(&m.m, h("Nothing")), h("Nothing"));
}

// -- MirrorPose ------------------------------------------------------------------------

TEST(MirrorProbe, PoseIsThePartnersLocalReflectedOnMirroredAxes) {
  for (uint32_t axis = 0; axis < 3; ++axis) {
    MirrorRig rig(20 + axis, axis, 2, 3);
    Map m = Build(Source(rig, axis));
    for (uint32_t i = 0; i < rig.n; ++i) EXPECT_EQ(maniMirrorMap_GetBoneFlags(&m.m, i), 0u) << i;
    Pose in(&rig.s), out(&rig.s);
    FillPose(in.p, rig.n, axis);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, in.p, out.p), mani_success);
    for (uint32_t i = 0; i < rig.n; ++i) {
      size_t nameLength = 0;
      const char* name = maniSkeleton_GetBoneName(&rig.s, i, &nameLength);
      uint32_t partner = i;
      std::string nm(name, nameLength);
      if (nm.rfind("Left", 0) == 0) partner = rig.Find(("Right" + nm.substr(4)).c_str());
      if (nm.rfind("Right", 0) == 0) partner = rig.Find(("Left" + nm.substr(5)).c_str());
      ASSERT_EQ(maniMirrorMap_GetPartner(&m.m, i), partner);
      maniTransform p = maniPose_GetLocal(in.p, partner);
      maniTransform want = {Reflect(p.translation, axis), Reflect(p.rotation, axis), p.scale};
      maniTransform got = maniPose_GetLocal(out.p, i);
      // A quaternion and its negation are the same turn.
      maniTransform neg = want;
      neg.rotation = {-want.rotation.x, -want.rotation.y, -want.rotation.z, -want.rotation.w};
      EXPECT_TRUE(Same(got, want) || Same(got, neg)) << "axis " << axis << " bone " << nm;
    }
    // Twice: the input back bit for bit; in place equals out of place.
    Pose twice(&rig.s);
    ASSERT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, out.p, twice.p), mani_success);
    for (uint32_t i = 0; i < rig.n; ++i) {
      maniTransform a = maniPose_GetLocal(in.p, i), b = maniPose_GetLocal(twice.p, i);
      EXPECT_TRUE(Same(a, b)) << "axis " << axis << " bone " << i;
    }
    ASSERT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, in.p, in.p), mani_success);
    for (uint32_t i = 0; i < rig.n; ++i) {
      maniTransform a = maniPose_GetLocal(in.p, i), b = maniPose_GetLocal(out.p, i);
      EXPECT_TRUE(Same(a, b)) << "in place, axis " << axis << " bone " << i;
    }
  }
}

// The fixture's extra turns turn the right bones' frames but keep their
// children's translations the left's reflected, so model positions are not
// mirror-symmetric: only the rest's model rotations are promised to stay
// (checked here through the locals, which on this rig are rotations alone);
// mirroring twice must still give the pose back.
TEST(MirrorProbe, PoseWithTurnedAxesTwiceComesBackAndRestStays) {
  MirrorRig rig(30, 0, 2, 3, 1);
  Map m = Build(Source(rig, 0));
  Pose rest(&rig.s), out(&rig.s), twice(&rig.s);
  ASSERT_EQ(maniPose_SetRest(rest.p, &rig.s), mani_success);
  ASSERT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, rest.p, out.p), mani_success);
  // The rest of a symmetric rig mirrors to itself (to rounding).
  for (uint32_t i = 0; i < rig.n; ++i) {
    maniTransform a = maniPose_GetLocal(rest.p, i), b = maniPose_GetLocal(out.p, i);
    double dot = (double)a.rotation.x * b.rotation.x + (double)a.rotation.y * b.rotation.y +
                 (double)a.rotation.z * b.rotation.z + (double)a.rotation.w * b.rotation.w;
    EXPECT_NEAR(std::fabs(dot), 1.0, 1e-5) << i;
    EXPECT_NEAR(a.scale.x, b.scale.x, 1e-5) << i;
  }
  Pose in(&rig.s);
  FillPose(in.p, rig.n, 77, true);
  ASSERT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, in.p, out.p), mani_success);
  ASSERT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, out.p, twice.p), mani_success);
  for (uint32_t i = 0; i < rig.n; ++i) {
    maniTransform a = maniPose_GetLocal(in.p, i), b = maniPose_GetLocal(twice.p, i);
    double dot = (double)a.rotation.x * b.rotation.x + (double)a.rotation.y * b.rotation.y +
                 (double)a.rotation.z * b.rotation.z + (double)a.rotation.w * b.rotation.w;
    EXPECT_NEAR(std::fabs(dot), 1.0, 1e-5) << i;
    EXPECT_NEAR(a.translation.x, b.translation.x, 1e-4) << i;
    EXPECT_NEAR(a.translation.y, b.translation.y, 1e-4) << i;
    EXPECT_NEAR(a.translation.z, b.translation.z, 1e-4) << i;
  }
  // Determinism: a memcpy'd copy of the map mirrors to the same bits.
  File copy;
  copy.Assign(m.file.data(), m.file.size);
  maniMirrorMap v;
  ASSERT_EQ(maniOpenMirrorMap(copy.data(), copy.size, &v).result, mani_success);
  Pose again(&rig.s);
  ASSERT_EQ(maniMirrorMap_MirrorPose(&v, &rig.s, in.p, again.p), mani_success);
  EXPECT_EQ(again.Bytes(), out.Bytes());
}

TEST(MirrorProbe, PoseRefusalsLeaveTheOutputUnchanged) {
  MirrorRig rig(40, 0, 1, 2), other(41, 0, 1, 3);
  Map m = Build(Source(rig, 0));
  Pose in(&rig.s), out(&rig.s), foreign(&other.s);
  FillPose(in.p, rig.n, 3);
  FillPose(out.p, rig.n, 4);
  std::vector<uint8_t> before = out.Bytes();
  EXPECT_EQ(maniMirrorMap_MirrorPose(nullptr, &rig.s, in.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&m.m, nullptr, in.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, nullptr, out.p), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, in.p, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&m.m, &other.s, in.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&m.m, &rig.s, foreign.p, out.p), mani_errorInvalid);
  maniMirrorMap zero;
  memset(&zero, 0, sizeof zero);
  EXPECT_EQ(maniMirrorMap_MirrorPose(&zero, &rig.s, in.p, out.p), mani_errorInvalid);
  EXPECT_EQ(out.Bytes(), before);
}

// -- MirrorRootMotion ------------------------------------------------------------------

TEST(MirrorProbe, RootMotionIsReflectedPerAxis) {
  maniRootMove move = {{0.25f, -1.5f, 3.0f}, {0.1f, 0.2f, 0.3f, 0.927362f}};
  for (uint32_t axis = 0; axis < 3; ++axis) {
    MirrorRig rig(50 + axis, axis, 1, 1);
    Map m = Build(Source(rig, axis));
    maniRootMove got = maniMirrorMap_MirrorRootMotion(&m.m, move);
    maniVec3 wt = Reflect(move.translation, axis);
    maniQuat wq = Reflect(move.rotation, axis);
    EXPECT_EQ(memcmp(&got.translation, &wt, sizeof wt), 0) << axis;
    EXPECT_EQ(memcmp(&got.rotation, &wq, sizeof wq), 0) << axis;
    // Twice: the move back bit for bit.
    maniRootMove back = maniMirrorMap_MirrorRootMotion(&m.m, got);
    EXPECT_EQ(memcmp(&back, &move, sizeof move), 0) << axis;
  }
  maniRootMove got = maniMirrorMap_MirrorRootMotion(nullptr, move);
  maniVec3 wt = Reflect(move.translation, 0);
  maniQuat wq = Reflect(move.rotation, 0);
  EXPECT_EQ(memcmp(&got.translation, &wt, sizeof wt), 0);
  EXPECT_EQ(memcmp(&got.rotation, &wq, sizeof wq), 0);
}

// -- JSON ------------------------------------------------------------------------------

std::string Text(Builder& b) {
  File f = b.Built();
  return std::string(reinterpret_cast<const char*>(f.data()), f.size);
}

TEST(MirrorProbe, JsonWrittenThenBuiltIsTheSameFileAndAFixedPoint) {
  MirrorRig rig(60, 2, 2, 2, 1);
  std::vector<maniTransform> ref(rig.n);
  for (uint32_t i = 0; i < rig.n; ++i) ref[i] = maniSkeleton_GetRest(&rig.s, i);
  ref[3].translation.x += 0.125f;
  maniMirrorMapSource src = Source(rig, 2);
  src.reference = ref.data();
  maniMirrorBonePair pairs[1] = {{0, 0}};
  src.pairs = pairs;
  src.pairCount = 1;
  maniMirrorNamePair np[1] = {{"eyeL", 4, "eyeR", 4}};
  maniMirrorName names[1] = {{"LeftStep", 8}};
  src.namePairs = np;
  src.namePairCount = 1;
  src.names = names;
  src.nameCount = 1;
  Map direct = Build(src);
  Builder w;
  ASSERT_EQ(maniWriteMirrorMapJson(w.b, &src).result, mani_success);
  std::string text = Text(w);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text.find("\"maul-anim mirror map\""), std::string::npos);
  EXPECT_NE(text.find("\"z\""), std::string::npos);
  Builder b;
  maniBuildResult r = maniBuildMirrorMapJson(b.b, text.data(), text.size(), &rig.s);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  File fromJson = b.Built();
  ASSERT_EQ(fromJson.size, direct.file.size);
  EXPECT_EQ(memcmp(fromJson.data(), direct.file.data(), fromJson.size), 0);
  // A failed write keeps what the builder held.
  maniMirrorMapSource bad = src;
  bad.axis = 9;
  EXPECT_EQ(maniWriteMirrorMapJson(w.b, &bad).result, mani_errorInvalid);
  EXPECT_EQ(Text(w), text);
}

// "On failure the builder keeps what it held" (mirrorbuild.h, through
// maniBuildMirrorMap's words): the Nth allocation failing in turn, a
// builder holding another file keeps it bit for bit whenever the write
// fails, and frees every block it took (the map is built before its text,
// so a text that runs out of memory must give the held file back).
TEST(MirrorProbe, JsonWriteUnderFailingAllocationsKeepsWhatTheBuilderHeld) {
  MirrorRig rig(71, 0, 2, 2);
  MirrorRig other(72, 2, 1, 1);
  const maniMirrorMapSource src = Source(rig, 0);
  const maniMirrorMapSource first = Source(other, 2);
  ExpectKeepsHeldUnderFailingAllocations([&](maniBuilder* b) { return maniBuildMirrorMap(b, &first); },
                                         [&](maniBuilder* b) { return maniWriteMirrorMapJson(b, &src); });
}

TEST(MirrorProbe, JsonRefusalsWithOffsets) {
  MirrorRig rig(61, 0, 1, 1);
  auto build = [&](const std::string& t) {
    Builder b;
    return maniBuildMirrorMapJson(b.b, t.data(), t.size(), &rig.s);
  };
  const std::string head = "{\"format\": \"maul-anim mirror map\", \"version\": 1, \"axis\": \"x\"";
  EXPECT_EQ(build(head + "}").result, mani_success);
  {
    Builder b;
    EXPECT_EQ(maniBuildMirrorMapJson(nullptr, "{}", 2, &rig.s).result, mani_errorInvalid);
    EXPECT_EQ(maniBuildMirrorMapJson(b.b, "{}", 2, nullptr).result, mani_errorInvalid);
    maniBuildResult r = maniBuildMirrorMapJson(b.b, nullptr, 3, &rig.s);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone);
  }
  // Does not parse: the byte offset of the fault (the missing value at 11).
  maniBuildResult r = build("{\"format\": }");
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJson);
  EXPECT_EQ(r.item, 11u);
  // An unknown member: its key's offset.
  std::string t = head + ", \"bogus\": 1}";
  r = build(t);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonForm);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormMember);
  EXPECT_EQ(r.item, (uint32_t)t.find("\"bogus\""));
  // Missing axis: the object's offset (0).
  r = build("{\"format\": \"maul-anim mirror map\", \"version\": 1}");
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonForm);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormMissing);
  EXPECT_EQ(r.item, 0u);
  // Another format name: the value.
  t = "{\"format\": \"maul-anim graph\", \"version\": 1, \"axis\": \"x\"}";
  r = build(t);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormFormat);
  EXPECT_EQ(r.item, (uint32_t)t.find("\"maul-anim graph\""));
  // Version 2.
  t = "{\"format\": \"maul-anim mirror map\", \"version\": 2, \"axis\": \"x\"}";
  r = build(t);
  EXPECT_EQ(r.result, mani_errorVersion);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonForm);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormVersion);
  EXPECT_EQ(r.item, (uint32_t)t.find('2'));
  // An unknown axis.
  t = "{\"format\": \"maul-anim mirror map\", \"version\": 1, \"axis\": \"w\"}";
  r = build(t);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormValue);
  EXPECT_EQ(r.item, (uint32_t)t.find("\"w\""));
  // A wrong type for axis.
  t = "{\"format\": \"maul-anim mirror map\", \"version\": 1, \"axis\": 0}";
  r = build(t);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormType);
  EXPECT_EQ(r.item, (uint32_t)t.find('0'));
  // A bone the skeleton lacks in the pairs.
  t = head + ", \"pairs\": [{\"bone\": \"Nope\", \"partner\": \"Hips\"}]}";
  r = build(t);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormName);
  EXPECT_EQ(r.item, (uint32_t)t.find("\"Nope\""));
  // A reference listing a bone twice: the second.
  t = head + ", \"reference\": [{\"bone\": \"Hips\"}, {\"bone\": \"Hips\"}]}";
  r = build(t);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonForm);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormDuplicate);
  // A list of the wrong length and a number past binary32.
  t = head + ", \"reference\": [{\"bone\": \"Hips\", \"translation\": [1, 2]}]}";
  r = build(t);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormValue);
  t = head + ", \"reference\": [{\"bone\": \"Hips\", \"translation\": [1, 2, 1e39]}]}";
  r = build(t);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormValue);
  EXPECT_EQ(r.item, (uint32_t)t.find("1e39"));
  // An unknown place.
  t = head + ", \"rules\": [{\"find\": \"L\", \"place\": \"middle\", \"replace\": \"R\"}]}";
  r = build(t);
  EXPECT_EQ(r.other, (uint32_t)maniGraphFormValue);
  EXPECT_EQ(r.item, (uint32_t)t.find("\"middle\""));
  // A refusal of the build names the item by place: the rule "Left" alone
  // does not pair back (rule 0), a pair's bone twice (pair 1).
  t = head + ", \"rules\": [{\"find\": \"Left\", \"place\": \"prefix\", \"replace\": \"Right\"}]}";
  r = build(t);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorRule);
  EXPECT_EQ(r.item, 0u);
  // A reference entry with a zero rotation: its place in "reference".
  t = head + ", \"reference\": [{\"bone\": \"Spine\"}, {\"bone\": \"Hips\", \"rotation\": [0, 0, 0, 0]}]}";
  r = build(t);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorReference);
  EXPECT_EQ(r.item, 1u);
}

TEST(MirrorProbe, MirroredClipSourceRefusals) {
  MirrorRig rig(70, 0, 1, 1);
  Map m = Build(Source(rig, 0));
  maniClip unopened;
  memset(&unopened, 0, sizeof unopened);
  maniMirrorClipSource cs = {&m.m, &rig.s, &unopened};
  Builder b;
  EXPECT_EQ(maniBuildMirroredClip(nullptr, &cs).result, mani_errorInvalid);
  maniBuildResult r = maniBuildMirroredClip(b.b, nullptr);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone);
  for (int field = 0; field < 3; ++field) {
    maniMirrorClipSource c = cs;
    if (field == 0) c.map = nullptr;
    if (field == 1) c.skeleton = nullptr;
    if (field == 2) c.clip = nullptr;
    r = maniBuildMirroredClip(b.b, &c);
    EXPECT_EQ(r.result, mani_errorInvalid) << field;
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonNone) << field;
  }
  // A clip no open wrote: other 1.
  r = maniBuildMirroredClip(b.b, &cs);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonMirrorClip);
  EXPECT_EQ(r.other, 1u);
}

}  // namespace
