// skeleton.h and the builder's skeleton: build, order, open, accessors,
// every refusal, mutations of the file, bytes changed after the open.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/build.h"
#include "maul/anim/skeleton.h"

namespace {

// A seeded source and its built file, freed at the end of the scope.
struct Seeded {
  maniSkeletonSource src;
  uint8_t* bytes = nullptr;
  size_t size = 0;
  Seeded(uint64_t seed, uint32_t n, maniFixtureShape shape) {
    src = maniFixtureMakeSkeletonSource(seed, n, shape);
    bytes = (uint8_t*)maniFixtureBuildSkeleton(&src, &size);
    EXPECT_NE(bytes, nullptr);
  }
  ~Seeded() {
    free(bytes);
    maniFixtureFreeSkeletonSource(&src);
  }
};

// Recomputes a (changed) file's identity, as a forger would.
void ResealIdentity(File& g) {
  uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindSkeleton, g.data() + 64, g.size - 64);
  memcpy(g.data() + 32, &id, 8);
}

maniTransform Rest(float tx, float qz, float qw) {
  maniTransform t = {{tx, 0, 0}, {0, 0, qz, qw}, {1, 1, 1}};
  return t;
}

maniSkeletonSourceBone Bone(const char* name, uint32_t parent, maniTransform rest) {
  maniSkeletonSourceBone b;
  b.name = name;
  b.nameLength = strlen(name);
  b.parent = parent;
  b.rest = rest;
  return b;
}


// Source order: a child listed before its parent, two roots.
//   0 "hand" (parent 2), 1 "root", 2 "arm" (parent 1), 3 "other-root", 4 "head" (parent 1)
std::vector<maniSkeletonSourceBone> SmallSource() {
  return {Bone("hand", 2, Rest(3, 0, 1)), Bone("root", MANI_NO_BONE, Rest(0, 0, 2)),
          Bone("arm", 1, Rest(1, 1, 1)), Bone("other-root", MANI_NO_BONE, Rest(5, 0, 1)),
          Bone("head", 1, Rest(0, 0, 1))};
}

TEST(BuildSkeleton, OrdersDepthFirstChildrenAndRootsInSourceOrder) {
  Builder b;
  auto bones = SmallSource();
  maniSkeletonSource src = {bones.data(), (uint32_t)bones.size()};
  maniBuildResult r = maniBuildSkeleton(b.b, &src);
  ASSERT_EQ(r.result, mani_success);
  File f = b.Built();
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  ASSERT_EQ(maniSkeleton_GetBoneCount(&s), 5u);
  // Expected order: root, arm, hand, head, other-root.
  const char* expected[] = {"root", "arm", "hand", "head", "other-root"};
  const uint32_t parents[] = {MANI_NO_BONE, 0, 1, 0, MANI_NO_BONE};
  const uint32_t ends[] = {4, 3, 3, 4, 5};
  for (uint32_t i = 0; i < 5; ++i) {
    size_t len = 0;
    const char* name = maniSkeleton_GetBoneName(&s, i, &len);
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(std::string(name, len), expected[i]);
    EXPECT_EQ(maniSkeleton_GetParent(&s, i), parents[i]) << i;
    EXPECT_EQ(maniSkeleton_GetSubtreeEnd(&s, i), ends[i]) << i;
    EXPECT_EQ(maniSkeleton_FindBone(&s, expected[i], strlen(expected[i])), i);
  }
  uint32_t order[5];
  uint32_t count = 0;
  ASSERT_EQ(maniBuilder_CopySkeletonOrder(b.b, order, 5, &count), mani_success);
  EXPECT_EQ(count, 5u);
  const uint32_t expectOrder[] = {2, 0, 1, 4, 3};  // source bone i -> skeleton index
  for (int i = 0; i < 5; ++i) EXPECT_EQ(order[i], expectOrder[i]) << i;
  // Rotations normalized: root's (0,0,0,2) becomes (0,0,0,1); arm's (0,0,1,1) is 45 degrees.
  maniTransform root = maniSkeleton_GetRest(&s, 0);
  EXPECT_EQ(root.rotation.w, 1.0f);
  maniTransform arm = maniSkeleton_GetRest(&s, 1);
  EXPECT_NEAR(arm.rotation.z, std::sqrt(0.5), 1e-7);
  EXPECT_NEAR(arm.rotation.w, std::sqrt(0.5), 1e-7);
  EXPECT_EQ(arm.translation.x, 1.0f);
  EXPECT_NE(maniSkeleton_GetIdentity(&s), 0u);
  EXPECT_EQ(maniSkeleton_FindBone(&s, "nobody", 6), MANI_NO_BONE);
  EXPECT_EQ(maniSkeleton_FindBone(&s, "roo", 3), MANI_NO_BONE);
  EXPECT_EQ(maniSkeleton_FindBone(&s, nullptr, 0), MANI_NO_BONE);
  EXPECT_EQ(maniSkeleton_FindBone(&s, nullptr, 4), MANI_NO_BONE);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u);
}

TEST(BuildSkeleton, SameSourceSameBytesAndIdentity) {
  maniSkeletonSource src = maniFixtureMakeSkeletonSource(7, 200, maniFixtureRandom);
  size_t n1 = 0, n2 = 0;
  void* a = maniFixtureBuildSkeleton(&src, &n1);
  void* c = maniFixtureBuildSkeleton(&src, &n2);
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(n1, n2);
  EXPECT_EQ(memcmp(a, c, n1), 0);
  free(a);
  free(c);
  maniFixtureFreeSkeletonSource(&src);
}

TEST(BuildSkeleton, EveryShapeOpensWithParentsBeforeChildrenAndConsistentSubtrees) {
  for (int shape = 0; shape < 4; ++shape) {
    for (uint32_t n : {1u, 2u, 9u, 300u, 1000u}) {
      maniSkeletonSource src = maniFixtureMakeSkeletonSource(100 + n, n, (maniFixtureShape)shape);
      size_t size = 0;
      void* bytes = maniFixtureBuildSkeleton(&src, &size);
      ASSERT_NE(bytes, nullptr);
      maniSkeleton s;
      ASSERT_EQ(maniOpenSkeleton(bytes, size, &s).result, mani_success) << shape << " " << n;
      ASSERT_EQ(maniSkeleton_GetBoneCount(&s), n);
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t p = maniSkeleton_GetParent(&s, i);
        if (p != MANI_NO_BONE) {
          ASSERT_LT(p, i);
          ASSERT_LE(maniSkeleton_GetSubtreeEnd(&s, i), maniSkeleton_GetSubtreeEnd(&s, p));
        }
        size_t len;
        const char* name = maniSkeleton_GetBoneName(&s, i, &len);
        ASSERT_EQ(maniSkeleton_FindBone(&s, name, len), i);
        maniTransform r = maniSkeleton_GetRest(&s, i);
        double l2 = (double)r.rotation.x * r.rotation.x + (double)r.rotation.y * r.rotation.y +
                    (double)r.rotation.z * r.rotation.z + (double)r.rotation.w * r.rotation.w;
        ASSERT_NEAR(l2, 1.0, 1e-6);
      }
      free(bytes);
      maniFixtureFreeSkeletonSource(&src);
    }
  }
}

TEST(BuildSkeleton, RefusalsWithReasonAndItem) {
  Builder b;
  auto check = [&](std::vector<maniSkeletonSourceBone> bones, maniResult code, uint32_t reason, uint64_t item,
                   uint64_t other = 0) {
    maniSkeletonSource src = {bones.data(), (uint32_t)bones.size()};
    maniBuildResult r = maniBuildSkeleton(b.b, &src);
    EXPECT_EQ(r.result, code);
    EXPECT_EQ(r.reason, reason);
    EXPECT_EQ(r.item, item);
    EXPECT_EQ(r.other, other);
  };
  maniTransform ok = Rest(0, 0, 1);
  check({}, mani_errorInvalid, maniBuildReasonCount, 0);
  check({Bone("a", MANI_NO_BONE, ok), Bone("", 0, ok)}, mani_errorInvalid, maniBuildReasonName, 1);
  std::string longName(MANI_MAX_NAME_BYTES, 'x'), tooLong(MANI_MAX_NAME_BYTES + 1, 'x');
  check({Bone("a", MANI_NO_BONE, ok), Bone(longName.c_str(), 0, ok)}, mani_success, maniBuildReasonNone, 0);
  check({Bone("a", MANI_NO_BONE, ok), Bone(tooLong.c_str(), 0, ok)}, mani_errorLimit, maniBuildReasonName, 1);
  check({Bone("a", MANI_NO_BONE, ok), Bone("\xC0\xAF", 0, ok)}, mani_errorInvalid, maniBuildReasonName, 1);
  check({Bone("a", MANI_NO_BONE, ok), Bone("\xED\xA0\x80", 0, ok)}, mani_errorInvalid, maniBuildReasonName, 1);
  check({Bone("a", MANI_NO_BONE, ok), Bone("b", 2, ok)}, mani_errorInvalid, maniBuildReasonJoint, 1);
  check({Bone("a", MANI_NO_BONE, ok), Bone("b", 1, ok)}, mani_errorInvalid, maniBuildReasonJoint, 1);
  check({Bone("a", MANI_NO_BONE, ok), Bone("b", 2, ok), Bone("c", 1, ok)}, mani_errorInvalid, maniBuildReasonJoint, 1);
  check({Bone("a", MANI_NO_BONE, ok), Bone("b", 0, ok), Bone("a", 1, ok)}, mani_errorInvalid,
        maniBuildReasonDuplicateName, 2, 0);
  maniTransform nan = ok;
  nan.translation.y = NAN;
  check({Bone("a", MANI_NO_BONE, ok), Bone("b", 0, nan)}, mani_errorInvalid, maniBuildReasonNotFinite, 1);
  maniTransform inf = ok;
  inf.scale.z = INFINITY;
  check({Bone("a", MANI_NO_BONE, inf)}, mani_errorInvalid, maniBuildReasonNotFinite, 0);
  maniTransform zero = ok;
  zero.rotation.w = 0;
  check({Bone("a", MANI_NO_BONE, zero)}, mani_errorInvalid, maniBuildReasonNotFinite, 0);
  maniTransform tiny = ok;
  tiny.rotation.w = 1e-30f;  // squares underflow in binary32, not in binary64: still builds
  check({Bone("a", MANI_NO_BONE, tiny)}, mani_success, maniBuildReasonNone, 0);
  // Refused sources are not misuse; NULL arguments are.
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u);
  maniBuildResult r = maniBuildSkeleton(b.b, nullptr);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 1u);
  EXPECT_EQ(maniBuildSkeleton(nullptr, nullptr).result, mani_errorInvalid);
}

TEST(BuildSkeleton, BoneCountLimitBothSides) {
  Builder b;
  std::vector<maniSkeletonSourceBone> bones(MANI_MAX_BONES + 1);
  std::vector<std::string> names(bones.size());
  for (size_t i = 0; i < bones.size(); ++i) {
    names[i] = "b" + std::to_string(i);
    bones[i] = Bone(names[i].c_str(), i == 0 ? MANI_NO_BONE : (uint32_t)(i - 1) / 2, Rest(1, 0, 1));
  }
  maniSkeletonSource src = {bones.data(), MANI_MAX_BONES};
  ASSERT_EQ(maniBuildSkeleton(b.b, &src).result, mani_success);
  src.boneCount = MANI_MAX_BONES + 1;
  maniBuildResult r = maniBuildSkeleton(b.b, &src);
  EXPECT_EQ(r.result, mani_errorLimit);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount);
  // The refused build left the last file in place.
  File f = b.Built();
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&s), MANI_MAX_BONES);
}

TEST(OpenSkeleton, ArgumentsAlignmentAndViewUnchangedOnFailure) {
  Seeded seeded(3, 20, maniFixtureForest);
  ASSERT_NE(seeded.bytes, nullptr);
  uint8_t* bytes = seeded.bytes;
  const size_t size = seeded.size;
  maniSkeleton s;
  memset(&s, 0xAB, sizeof s);
  maniSkeleton before = s;
  EXPECT_EQ(maniOpenSkeleton(nullptr, size, &s).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenSkeleton(bytes, size, nullptr).result, mani_errorInvalid);
  // Misaligned: the same bytes one byte later.
  std::vector<uint8_t> shifted(size + 32);
  uint8_t* at = shifted.data() + (16 - ((uintptr_t)shifted.data() % 16)) % 16 + 1;
  memcpy(at, bytes, size);
  EXPECT_EQ(maniOpenSkeleton(at, size, &s).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&s, &before, sizeof s), 0);
  // Trailing bytes are wrong: the file says its size.
  std::vector<uint64_t> bigger((size + 16) / 8 + 1, 0);
  memcpy(bigger.data(), bytes, size);
  maniFileResult r = maniOpenSkeleton(bigger.data(), size + 16, &s);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.offset, 16u);
}

TEST(OpenSkeleton, OtherVersionsAndLaterTagsAreVersionErrors) {
  Seeded seeded(4, 10, maniFixtureRandom);
  ASSERT_NE(seeded.bytes, nullptr);
  uint8_t* bytes = seeded.bytes;
  const size_t size = seeded.size;
  File f;
  f.Assign(bytes, size);
  maniSkeleton s;
  for (uint32_t v : {0u, 2u, 3u, 0xFFFFFFFFu}) {
    File g = f;
    memcpy(g.data() + 8, &v, 4);
    maniFileResult r = maniOpenSkeleton(g.data(), g.size, &s);
    EXPECT_EQ(r.result, mani_errorVersion) << v;
    EXPECT_EQ(r.offset, 8u);
  }
  // A section tag a later format (version 2) introduced, in place of the last.
  File g = f;
  uint32_t laterTag = (2u << 16) | 9u;
  memcpy(g.data() + 64 + 24 * 7, &laterTag, 4);
  maniFileResult r = maniOpenSkeleton(g.data(), g.size, &s);
  EXPECT_EQ(r.result, mani_errorVersion);
  EXPECT_EQ(r.offset, 64u + 24 * 7);
  // A tag of this format out of place is a format error.
  uint32_t wrongTag = (1u << 16) | 99u;
  g = f;
  memcpy(g.data() + 64 + 24 * 7, &wrongTag, 4);
  EXPECT_EQ(maniOpenSkeleton(g.data(), g.size, &s).result, mani_errorFormat);
}

// Every truncation and byte patch (file_testing.h).
TEST(OpenSkeleton, EveryTruncationAndBytePatchIsRefused) {
  Seeded seeded(5, 12, maniFixtureRandom);
  ASSERT_NE(seeded.bytes, nullptr);
  maniSkeleton s;
  ExpectEveryMutationRefused(seeded.bytes, seeded.size,
                             [&](const void* b, size_t n) { return maniOpenSkeleton(b, n, &s); });
}

// Forged files: a field changed and the identity recomputed, so only the
// section checks can find it, each at the exact byte.
TEST(OpenSkeleton, ForgedFilesAreRefusedAtTheWrongField) {
  Seeded seeded(9, 16, maniFixtureRandom);
  ASSERT_NE(seeded.bytes, nullptr);
  uint8_t* bytes = seeded.bytes;
  const size_t size = seeded.size;
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(bytes, size, &s).result, mani_success);
  auto forge = [&](uint64_t at, const void* value, size_t n) {
    File g;
    g.Assign(bytes, size);
    memcpy(g.data() + at, value, n);
    ResealIdentity(g);
    maniSkeleton v;
    return maniOpenSkeleton(g.data(), g.size, &v);
  };
  auto expectAt = [&](uint64_t at, const void* value, size_t n, uint64_t wrongAt) {
    maniFileResult r = forge(at, value, n);
    EXPECT_EQ(r.result, mani_errorFormat) << "field at " << at;
    EXPECT_EQ(r.offset, wrongAt) << "field at " << at;
  };
  // The forge itself is sound: rewriting a byte with its own value opens.
  EXPECT_EQ(forge(s.parents, bytes + s.parents, 4).result, mani_success);
  const uint64_t info = s.parents - 0;  // sections follow in order; info is 16 bytes before parents
  const uint64_t infoAt = info - 16;
  uint32_t zero = 0, big = MANI_MAX_BONES + 1, one = 1;
  expectAt(infoAt, &zero, 4, infoAt);                   // no bones
  expectAt(infoAt, &big, 4, infoAt);                    // too many bones
  expectAt(infoAt + 8, &one, 4, infoAt + 8);            // reserved not zero
  uint32_t fifteen = 15;
  expectAt(infoAt, &fifteen, 4, 64 + 24 * 1 + 16);      // counts that do not match the sizes
  // Find a bone with a parent and a sibling order to break.
  uint32_t child = 1;
  while (maniSkeleton_GetParent(&s, child) == MANI_NO_BONE) child++;
  uint32_t self = child;
  expectAt(s.parents + 4 * child, &self, 4, s.parents + 4 * child);  // parent not lower
  // A parent that breaks the depth-first order: the last bone made a child
  // of a bone whose subtree closed earlier (bone 0's first child, if closed).
  float nan = NAN, two = 2.0f;
  expectAt(s.rests + 40 * 3 + 4, &nan, 4, s.rests + 40 * 3 + 4);     // rest not finite
  expectAt(s.rests + 40 * 3 + 24, &two, 4, s.rests + 40 * 3 + 12);   // rotation not unit
  uint32_t end = 16;
  if (maniSkeleton_GetSubtreeEnd(&s, 15) == 16 && maniSkeleton_GetSubtreeEnd(&s, 14) != 16) {
    expectAt(s.subtreeEnds + 4 * 14, &end, 4, s.subtreeEnds + 4 * 14);
  }
  uint32_t wrongEnd = maniSkeleton_GetSubtreeEnd(&s, 0) - 1;
  maniFileResult r = forge(s.subtreeEnds, &wrongEnd, 4);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.offset, s.subtreeEnds);
  uint32_t gap = 1;
  expectAt(s.nameSpans, &gap, 4, s.nameSpans);                       // spans must tile
  uint8_t badUtf8 = 0xC0;
  expectAt(s.names, &badUtf8, 1, s.names);                           // not UTF-8
  uint8_t other = 'x';
  expectAt(s.names, &other, 1, s.nameHashes);                        // hash no longer matches
  uint32_t swapped[2];
  memcpy(swapped, bytes + s.nameOrder, 8);
  std::swap(swapped[0], swapped[1]);
  expectAt(s.nameOrder, swapped, 8, s.nameOrder + 4);                // order not increasing
  uint32_t past = 16;
  expectAt(s.nameOrder, &past, 4, s.nameOrder);                      // a bone past the count
}

// A parent that is a lower index but not on the chain of the bone before:
// not a depth-first order.
TEST(OpenSkeleton, ForgedOrderThatIsNotDepthFirst) {
  // root(0) with children a(1), b(2); a has child c(3). Depth-first: 0 1 3 2.
  maniTransform id = Rest(0, 0, 1);
  std::vector<maniSkeletonSourceBone> bones = {Bone("root", MANI_NO_BONE, id), Bone("a", 0, id), Bone("b", 0, id),
                                                Bone("c", 1, id)};
  Builder b;
  maniSkeletonSource src = {bones.data(), 4};
  ASSERT_EQ(maniBuildSkeleton(b.b, &src).result, mani_success);
  File f = b.Built();
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  ASSERT_EQ(maniSkeleton_GetParent(&s, 2), 1u);  // c
  ASSERT_EQ(maniSkeleton_GetParent(&s, 3), 0u);  // b
  // Make b (bone 3) a child of c's parent a (bone 1): 1 is on the chain of 2,
  // so still depth-first but the subtree ends are now wrong at bone 1.
  File g = f;
  uint32_t one = 1;
  memcpy(g.data() + s.parents + 12, &one, 4);
  ResealIdentity(g);
  maniFileResult r = maniOpenSkeleton(g.data(), g.size, &s);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.offset, s.subtreeEnds + 4 * 1);
  // Make c (bone 2) a child of root and b (bone 3) a child of c's old parent
  // a (bone 1), which closed when c moved: not depth-first.
  g = f;
  uint32_t zero = 0;
  memcpy(g.data() + s.parents + 8, &zero, 4);
  memcpy(g.data() + s.parents + 12, &one, 4);
  ResealIdentity(g);
  r = maniOpenSkeleton(g.data(), g.size, &s);
  EXPECT_EQ(r.result, mani_errorFormat);
}

TEST(SkeletonView, ZeroedOrDamagedViewsReadAsEmpty) {
  maniSkeleton z;
  memset(&z, 0, sizeof z);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&z), 0u);
  EXPECT_EQ(maniSkeleton_GetIdentity(&z), 0u);
  EXPECT_EQ(maniSkeleton_GetParent(&z, 0), MANI_NO_BONE);
  EXPECT_EQ(maniSkeleton_GetSubtreeEnd(&z, 3), 3u);
  maniTransform t = maniSkeleton_GetRest(&z, 0);
  EXPECT_EQ(t.rotation.w, 1.0f);
  EXPECT_EQ(t.scale.y, 1.0f);
  size_t len = 99;
  EXPECT_EQ(maniSkeleton_GetBoneName(&z, 0, &len), nullptr);
  EXPECT_EQ(len, 0u);
  EXPECT_EQ(maniSkeleton_FindBone(&z, "a", 1), MANI_NO_BONE);
  EXPECT_EQ(maniSkeleton_GetBoneCount(nullptr), 0u);

  Seeded seeded(6, 30, maniFixtureRandom);
  ASSERT_NE(seeded.bytes, nullptr);
  uint8_t* bytes = seeded.bytes;
  const size_t size = seeded.size;
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(bytes, size, &s).result, mani_success);
  // Counts that do not fit the file.
  maniSkeleton d = s;
  d.boneCount = 1000000;
  EXPECT_EQ(maniSkeleton_GetBoneCount(&d), 0u);
  d = s;
  d.size = 100;
  EXPECT_EQ(maniSkeleton_GetIdentity(&d), 0u);
  d = s;
  d.names = s.size;
  EXPECT_EQ(maniSkeleton_GetBoneName(&d, 0, nullptr), nullptr);
  // Past the count.
  EXPECT_EQ(maniSkeleton_GetParent(&s, 30), MANI_NO_BONE);
  EXPECT_EQ(maniSkeleton_GetSubtreeEnd(&s, 30), 30u);
  EXPECT_EQ(maniSkeleton_GetBoneName(&s, 30, nullptr), nullptr);
}

// Bytes changed after the open: accessors stay inside the bytes (asan
// checks) and clamp as the reference says.
TEST(SkeletonView, BytesChangedAfterTheOpenNeverReadOutside) {
  Seeded seeded(8, 40, maniFixtureRandom);
  ASSERT_NE(seeded.bytes, nullptr);
  uint8_t* bytes = seeded.bytes;
  const size_t size = seeded.size;
  File f;
  f.Assign(bytes, size);
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  // A parent that is not a lower index reads as MANI_NO_BONE.
  uint32_t bad = 39;
  memcpy(f.data() + s.parents + 4 * 5, &bad, 4);
  EXPECT_EQ(maniSkeleton_GetParent(&s, 5), MANI_NO_BONE);
  // A subtree end past the count reads as the bone.
  uint32_t far = 1000;
  memcpy(f.data() + s.subtreeEnds + 4 * 7, &far, 4);
  EXPECT_EQ(maniSkeleton_GetSubtreeEnd(&s, 7), 7u);
  // A name span past the names: NULL.
  uint32_t span[2] = {0xFFFFFF00u, 50};
  memcpy(f.data() + s.nameSpans + 8 * 3, span, 8);
  EXPECT_EQ(maniSkeleton_GetBoneName(&s, 3, nullptr), nullptr);
  // Every byte set to 0xff: nothing reads outside.
  memset(f.data(), 0xFF, f.size);
  for (uint32_t i = 0; i <= 40; ++i) {
    (void)maniSkeleton_GetParent(&s, i);
    (void)maniSkeleton_GetSubtreeEnd(&s, i);
    (void)maniSkeleton_GetRest(&s, i);
    size_t len;
    const char* name = maniSkeleton_GetBoneName(&s, i, &len);
    if (name != nullptr) {
      ASSERT_GE((const uint8_t*)name, f.data());
      ASSERT_LE((const uint8_t*)name + len, f.data() + f.size);
    }
  }
  EXPECT_EQ(maniSkeleton_FindBone(&s, "bone-1", 6), MANI_NO_BONE);
}

}  // namespace
