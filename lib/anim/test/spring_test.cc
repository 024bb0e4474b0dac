// Spring sets (spring.h, maniBuildSpringSet): every build refusal, the open
// (every mutation and targeted checks), states (init, step, apply, reset,
// save, restore with every check), and the motion: rest stays, gravity
// hangs, colliders push out, limits hold, centers carry, host-rate
// independence and save/restore equal to running through. Expected values
// come from the rules' definitions (a tail at rest stays, a pendulum under
// gravity hangs along it, a sphere's surface is radius + hit radius from its
// center, drag's conversion 1 - (1 - d)^(r / s)), computed here in binary64.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/spring_fixtures.h"
#include "maul/anim/blend.h"
#include "maul/anim/build.h"
#include "maul/anim/pose.h"
#include "maul/anim/spring.h"

namespace {

// A pose in 32-byte aligned memory.
struct Pose {
  std::vector<uint64_t> mem;
  maniPose* p = nullptr;
  size_t size = 0;
  explicit Pose(const maniSkeleton* s) {
    size = maniSkeleton_GetPoseSize(s);
    mem.assign(size / 8 + 8, 0);
    uintptr_t a = (reinterpret_cast<uintptr_t>(mem.data()) + 31) & ~uintptr_t(31);
    EXPECT_EQ(maniInitPose(s, reinterpret_cast<void*>(a), size, &p), mani_success);
  }
};

maniTransform T(float x, float y, float z) {
  maniTransform t;
  t.translation = {x, y, z};
  t.rotation = {0, 0, 0, 1};
  t.scale = {1, 1, 1};
  return t;
}

// The test rig: a root, a head with a 4-joint hair chain pointing back (-z),
// a 3-joint tail, and a side bone for colliders. Source order is the
// depth-first order, so indices are the skeleton's.
enum { kRoot, kHead, kH0, kH1, kH2, kH3, kT0, kT1, kT2, kSide, kBones };

struct Rig {
  File file;
  maniSkeleton s;
  Rig() {
    static const char* names[kBones] = {"root", "head", "h0", "h1", "h2", "h3", "t0", "t1", "t2", "side"};
    const uint32_t parents[kBones] = {MANI_NO_BONE, kRoot, kHead, kH0, kH1, kH2, kRoot, kT0, kT1, kRoot};
    const maniTransform rests[kBones] = {T(0, 0, 0),  T(0, 1.5f, 0), T(0, 0.1f, 0),  T(0, 0, -0.1f), T(0, 0, -0.1f),
                                         T(0, 0, -0.1f), T(0, 1, 0),  T(0, 0, -0.2f), T(0, 0, -0.2f), T(0.5f, 1, 0)};
    std::vector<maniSkeletonSourceBone> bones(kBones);
    for (int i = 0; i < kBones; ++i) bones[i] = {names[i], strlen(names[i]), parents[i], rests[i]};
    maniSkeletonSource src = {bones.data(), kBones};
    Builder b;
    EXPECT_EQ(maniBuildSkeleton(b.b, &src).result, mani_success);
    file = b.Built();
    EXPECT_EQ(maniOpenSkeleton(file.data(), file.size, &s).result, mani_success);
  }
};

maniSpringSourceJoint J(uint32_t bone, float stiffness = 0, float gravity = 0, float drag = 0.4f) {
  maniSpringSourceJoint j;
  memset(&j, 0, sizeof j);
  j.bone = bone;
  j.hitRadius = 0.02f;
  j.stiffness = stiffness;
  j.gravityPower = gravity;
  j.gravityDir = {0, -1, 0};
  j.dragForce = drag;
  j.limitRotation = {0, 0, 0, 1};
  return j;
}

// A source the tests change one field of at a time.
struct Source {
  const maniSkeleton* skeleton;
  std::vector<maniSpringSourceJoint> hair, tail;
  std::vector<maniSpringSourceCollider> colliders;
  std::vector<uint32_t> group0, group1, hairGroups, tailGroups;
  std::vector<maniSpringSourceColliderGroup> groups;
  std::vector<maniSpringSourceSpring> springs;
  maniSpringSetSource src;
  explicit Source(const maniSkeleton* s, float stiffness = 1.0f, float gravity = 0.5f) : skeleton(s) {
    hair = {J(kH0, stiffness, gravity), J(kH1, stiffness, gravity), J(kH2, stiffness, gravity), J(kH3)};
    tail = {J(kT0, stiffness, gravity), J(kT1, stiffness, gravity), J(kT2)};
    maniSpringSourceCollider sphere = {kHead, maniSpringShapeSphere, {0, 0, 0}, 0.1f, {0, 0, 0}};
    maniSpringSourceCollider capsule = {kSide, maniSpringShapeCapsule, {0, 0, 0}, 0.05f, {0, 0.2f, 0}};
    colliders = {sphere, capsule};
    group0 = {0};
    group1 = {1, 0};
    groups = {{group0.data(), 1}, {group1.data(), 2}};
    hairGroups = {0, 1};
    tailGroups = {1};
    Fix();
  }
  void Fix() {
    springs = {{"hair", 4, hair.data(), (uint32_t)hair.size(), hairGroups.data(), (uint32_t)hairGroups.size(), MANI_NO_BONE},
               {"tail", 4, tail.data(), (uint32_t)tail.size(), tailGroups.data(), (uint32_t)tailGroups.size(), MANI_NO_BONE}};
    src = {skeleton, 60.0f, 60.0f, colliders.data(), (uint32_t)colliders.size(), groups.data(), (uint32_t)groups.size(),
           springs.data(), (uint32_t)springs.size()};
  }
};

struct Set {
  File file;
  maniSpringSet set;
  explicit Set(const maniSpringSetSource& src) {
    Builder b;
    maniBuildResult r = maniBuildSpringSet(b.b, &src);
    EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
    file = b.Built();
    EXPECT_EQ(maniOpenSpringSet(file.data(), file.size, &set).result, mani_success);
  }
};

struct State {
  std::vector<uint64_t> mem;
  maniSpringState* st = nullptr;
  size_t size = 0;
  State(const maniSpringSet* set, const maniSkeleton* s) {
    size = maniSpringSet_GetStateSize(set);
    mem.assign(size / 8 + 4, 0);
    EXPECT_EQ(maniInitSpringState(set, s, mem.data(), size, &st), mani_success);
  }
  std::vector<uint8_t> Save() const {
    size_t n = 0;
    EXPECT_EQ(maniSpringState_Save(st, nullptr, 0, &n), mani_errorCapacity);
    std::vector<uint8_t> out(n);
    EXPECT_EQ(maniSpringState_Save(st, out.data(), n, &n), mani_success);
    return out;
  }
  std::vector<uint8_t> Memory() const {
    const uint8_t* b = reinterpret_cast<const uint8_t*>(mem.data());
    return std::vector<uint8_t>(b, b + size);
  }
};

// The section table of a Maul container: offset and size of section i.
uint64_t SectionOffset(const uint8_t* b, uint32_t i) {
  uint64_t v;
  memcpy(&v, b + 64 + 24 * i + 8, 8);
  return v;
}
uint64_t SectionSize(const uint8_t* b, uint32_t i) {
  uint64_t v;
  memcpy(&v, b + 64 + 24 * i + 16, 8);
  return v;
}
float F32(const uint8_t* b) {
  float f;
  memcpy(&f, b, 4);
  return f;
}
void PutF32(uint8_t* b, float f) { memcpy(b, &f, 4); }
void PutU32(uint8_t* b, uint32_t v) { memcpy(b, &v, 4); }

// Rewrites a container's identity after a patch (docs/formats.md,
// "Container": the hash of bytes 64 to the end, seeded by the kind), so a
// patch reaches the kind's own checks.
void Reseal(uint8_t* b, size_t size) {
  uint32_t kind;
  memcpy(&kind, b + 4, 4);
  uint64_t id = maniHash64(UINT64_C(0x4D41554C46494C45) ^ kind, b + 64, (int64_t)size - 64);
  memcpy(b + 32, &id, 8);
}

double Dist(maniVec3 a, maniVec3 b) {
  double x = (double)a.x - b.x, y = (double)a.y - b.y, z = (double)a.z - b.z;
  return std::sqrt(x * x + y * y + z * z);
}

// Model positions of bones of a pose after Apply.
maniVec3 ModelPos(maniPose* pose, const maniSkeleton* s, uint32_t bone) {
  EXPECT_EQ(maniPose_ComputeModel(pose, s), mani_success);
  return maniPose_GetModelTransform(pose, bone).translation;
}

// Runs a state for seconds at a host rate with the rest pose and a
// placement moving at velocity; applies into pose at the end.
uint32_t RunHost(State& st, Pose& pose, const maniSkeleton* s, double seconds, double hostRate, maniVec3 velocity = {0, 0, 0},
             double* clock = nullptr) {
  const uint32_t calls = (uint32_t)std::lround(seconds * hostRate);
  double t = clock ? *clock : 0.0;
  for (uint32_t i = 0; i < calls; ++i) {
    t += 1.0 / hostRate;
    EXPECT_EQ(maniPose_SetRest(pose.p, s), mani_success);
    maniTransform place = T((float)(velocity.x * t), (float)(velocity.y * t), (float)(velocity.z * t));
    EXPECT_EQ(maniSpringState_Step(st.st, pose.p, &place, nullptr, (float)(1.0 / hostRate)), mani_success);
  }
  if (clock) *clock = t;
  EXPECT_EQ(maniPose_SetRest(pose.p, s), mani_success);
  EXPECT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
  return calls;
}

// -- Build ---------------------------------------------------------------------

TEST(SpringBuild, BuildsAndOpens) {
  Rig rig;
  Source src(&rig.s);
  Set set(src.src);
  EXPECT_EQ(maniSpringSet_GetSpringCount(&set.set), 2u);
  EXPECT_EQ(maniSpringSet_GetSkeletonIdentity(&set.set), maniSkeleton_GetIdentity(&rig.s));
  EXPECT_NE(maniSpringSet_GetIdentity(&set.set), 0u);
  size_t len = 0;
  const char* name = maniSpringSet_GetSpringName(&set.set, 1, &len);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name, len), "tail");
  EXPECT_EQ(maniSpringSet_GetSpringName(&set.set, 2, &len), nullptr);
  EXPECT_EQ(maniSpringSet_GetSpringName(nullptr, 0, &len), nullptr);
  float ref = 0;
  EXPECT_EQ(maniSpringSet_GetStepRate(&set.set, &ref), 60.0f);
  EXPECT_EQ(ref, 60.0f);
  EXPECT_EQ(maniSpringSet_GetStepRate(nullptr, &ref), 0.0f);
  EXPECT_EQ(maniSpringSet_GetIdentity(nullptr), 0u);
  EXPECT_EQ(maniSpringSet_GetSkeletonIdentity(nullptr), 0u);
  EXPECT_EQ(maniSpringSet_GetSpringCount(nullptr), 0u);
  EXPECT_EQ(maniSpringSet_GetStateSize(nullptr), 0u);
  maniSpringSet zero;
  memset(&zero, 0, sizeof zero);
  EXPECT_EQ(maniSpringSet_GetSpringCount(&zero), 0u);
  // An unnamed spring: an empty name's position.
  src.springs[0].name = nullptr;
  src.springs[0].nameLength = 0;
  Set unnamed(src.src);
  EXPECT_NE(maniSpringSet_GetSpringName(&unnamed.set, 0, &len), nullptr);
  EXPECT_EQ(len, 0u);
}

// Drag per frame of the reference rate becomes 1 - (1 - d)^(r / s) a step;
// stiffness and gravity per second become their 1 / s.
TEST(SpringBuild, ConvertsToTheStep) {
  Rig rig;
  Source src(&rig.s, 2.0f, 3.0f);
  src.src.referenceRate = 60.0f;
  src.src.stepRate = 144.0f;
  Set set(src.src);
  const uint8_t* b = set.file.data();
  const uint64_t joints = SectionOffset(b, 2);
  const double drag = 1.0 - std::pow(1.0 - 0.4f, 60.0 / 144.0);
  EXPECT_NEAR(F32(b + joints + 16), drag, 1e-6);
  EXPECT_NEAR(F32(b + joints + 12), 2.0 / 144.0, 1e-7);
  EXPECT_NEAR(F32(b + joints + 20), 3.0 / 144.0, 1e-7);
  // The last joint of a spring holds no values.
  EXPECT_EQ(F32(b + joints + 64 * 3 + 16), 0.0f);
}

TEST(SpringBuild, Refusals) {
  Rig rig;
  Builder b;
  EXPECT_EQ(maniBuildSpringSet(nullptr, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildSpringSet(b.b, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 1u);
  auto expect = [&](Source& s, maniResult code, uint32_t reason, uint64_t item, uint64_t other) {
    s.Fix();
    const uint32_t misuse = maniBuilder_GetMisuse(b.b);
    maniBuildResult r = maniBuildSpringSet(b.b, &s.src);
    EXPECT_EQ(r.result, code);
    EXPECT_EQ(r.reason, reason);
    EXPECT_EQ(r.item, item);
    EXPECT_EQ(r.other, other);
    EXPECT_EQ(maniBuilder_GetMisuse(b.b), misuse);
  };
  {
    Source s(&rig.s);
    s.Fix();
    s.src.skeleton = nullptr;
    EXPECT_EQ(maniBuildSpringSet(b.b, &s.src).result, mani_errorInvalid);
    EXPECT_EQ(maniBuilder_GetMisuse(b.b), 2u);
  }
  const float badRates[] = {0.0f, -1.0f, NAN, INFINITY};
  for (uint32_t which = 0; which < 2; ++which) {
    for (float v : badRates) {
      Source s(&rig.s);
      s.Fix();
      (which ? s.src.stepRate : s.src.referenceRate) = v;
      maniBuildResult r = maniBuildSpringSet(b.b, &s.src);
      EXPECT_EQ(r.result, v == INFINITY ? mani_errorInvalid : mani_errorInvalid);
      EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonOption);
      EXPECT_EQ(r.item, which);
    }
    Source s(&rig.s);
    s.Fix();
    (which ? s.src.stepRate : s.src.referenceRate) = 1001.0f;
    maniBuildResult r = maniBuildSpringSet(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorLimit);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonOption);
    EXPECT_EQ(r.item, which);
  }
  {
    Source s(&rig.s);
    s.Fix();
    s.src.springCount = MANI_MAX_BONES + 1;
    EXPECT_EQ(maniBuildSpringSet(b.b, &s.src).result, mani_errorLimit);
    s.Fix();
    s.src.springs = nullptr;
    maniBuildResult r = maniBuildSpringSet(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount);
  }
  {  // A name past the bound, not UTF-8.
    Source s(&rig.s);
    std::string longName(MANI_MAX_NAME_BYTES + 1, 'a');
    s.Fix();
    s.springs[1].name = longName.data();
    s.springs[1].nameLength = longName.size();
    maniBuildResult r = maniBuildSpringSet(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorLimit);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonName);
    EXPECT_EQ(r.item, 1u);
    s.springs[1].name = "\xff";
    s.springs[1].nameLength = 1;
    r = maniBuildSpringSet(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonName);
  }
  {  // Fewer than 2 joints.
    Source s(&rig.s);
    s.tail.resize(1);
    expect(s, mani_errorInvalid, maniBuildReasonCount, 1, 0);
  }
  {  // A joint not the child of the one before; a bone past the skeleton.
    Source s(&rig.s);
    s.hair[2].bone = kT1;
    expect(s, mani_errorInvalid, maniBuildReasonJoint, 0, 2);
    Source t(&rig.s);
    t.hair[0].bone = kBones;
    expect(t, mani_errorInvalid, maniBuildReasonJoint, 0, 0);
  }
  {  // Joint values out of range, one at a time.
    for (int field = 0; field < 9; ++field) {
      Source s(&rig.s);
      maniSpringSourceJoint& j = s.tail[1];
      switch (field) {
        case 0: j.hitRadius = -1; break;
        case 1: j.stiffness = NAN; break;
        case 2: j.gravityPower = -0.5f; break;
        case 3: j.dragForce = 1.5f; break;
        case 4: j.gravityDir.x = INFINITY; break;
        case 5: j.limitKind = 4; break;
        case 6: j.limitKind = maniSpringLimitCone; j.limitRotation = {0, 0, 0, 0}; break;
        case 7: j.limitKind = maniSpringLimitHinge; j.limitAngle = 4.0f; break;
        case 8: j.limitKind = maniSpringLimitSpherical; j.limitAngle = 1; j.limitAngle2 = -1; break;
      }
      expect(s, mani_errorInvalid, maniBuildReasonNotFinite, 1, 1);
    }
    // The last joint's values are unused: anything goes.
    Source s(&rig.s);
    s.tail[2].dragForce = 7;
    s.tail[2].limitKind = 99;
    s.Fix();
    EXPECT_EQ(maniBuildSpringSet(b.b, &s.src).result, mani_success);
  }
  {  // Colliders.
    for (int field = 0; field < 6; ++field) {
      Source s(&rig.s);
      maniSpringSourceCollider& c = s.colliders[1];
      uint32_t reason = maniBuildReasonAttribute;
      uint64_t item = 1, other = MANI_NO_BONE;
      switch (field) {
        case 0: c.bone = kBones; break;
        case 1: c.kind = 5; break;
        case 2: c.radius = -0.1f; break;
        case 3: c.kind = maniSpringShapeInsideSphere; c.radius = 0; break;
        case 4: c.kind = maniSpringShapePlane; c.radius = 0; c.tail = {0, 0, 0}; break;
        case 5: c.offset.y = NAN; reason = maniBuildReasonNotFinite; item = MANI_NO_BONE; other = 1; break;
      }
      expect(s, mani_errorInvalid, reason, item, other);
    }
  }
  {  // Group entries: a collider past the colliders, a group past the groups.
    Source s(&rig.s);
    s.group1[1] = 2;
    expect(s, mani_errorInvalid, maniBuildReasonEntry, 1, 1);
    Source t(&rig.s);
    t.tailGroups[0] = 2;
    expect(t, mani_errorInvalid, maniBuildReasonEntry, 1, 0);
  }
  {  // A center past the skeleton or inside the spring's subtree.
    Source s(&rig.s);
    s.Fix();
    s.springs[0].center = kH2;
    maniBuildResult r = maniBuildSpringSet(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJoint);
    EXPECT_EQ(r.other, (uint64_t)MANI_NO_BONE);
    s.springs[0].center = kBones;
    EXPECT_EQ(maniBuildSpringSet(b.b, &s.src).result, mani_errorInvalid);
    s.springs[0].center = kHead;
    EXPECT_EQ(maniBuildSpringSet(b.b, &s.src).result, mani_success);
  }
}

// Every allocation failing in turn is mani_errorCapacity, the builder
// keeping what it held.
TEST(SpringBuild, AllocationFailures) {
  Rig rig;
  Source src(&rig.s);
  struct Counter {
    int failAt = -1, calls = 0;
  } counter;
  maniBuilderDef def = maniDefaultBuilderDef();
  def.allocator.user = &counter;
  def.allocator.allocate = [](void* user, size_t size, size_t alignment) -> void* {
    Counter* c = static_cast<Counter*>(user);
    if (c->calls++ == c->failAt) return nullptr;
    return aligned_alloc(alignment < 16 ? 16 : alignment, (size + 63) & ~size_t(63));
  };
  def.allocator.release = [](void*, void* memory, size_t) { free(memory); };
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  ASSERT_EQ(maniBuildSpringSet(b, &src.src).result, mani_success);
  size_t good = 0;
  ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &good), mani_errorCapacity);
  for (int n = 0;; ++n) {
    counter.calls = 0;
    counter.failAt = n;
    src.springs[0].nameLength = 3;  // a different file, so a kept one shows
    maniBuildResult r = maniBuildSpringSet(b, &src.src);
    if (r.result == mani_success) break;
    EXPECT_EQ(r.result, mani_errorCapacity);
    size_t kept = 0;
    EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &kept), mani_errorCapacity);
    EXPECT_EQ(kept, good);
    ASSERT_LT(n, 10);
  }
  maniDestroyBuilder(b);
}

// -- Open ----------------------------------------------------------------------

TEST(SpringOpen, EveryMutationRefused) {
  Rig rig;
  Source src(&rig.s);
  src.springs[0].center = kRoot;
  src.hair[1].limitKind = maniSpringLimitSpherical;
  src.hair[1].limitAngle = 0.5f;
  src.hair[1].limitAngle2 = 0.25f;
  maniSpringSourceCollider plane = {kRoot, maniSpringShapePlane, {0, 0.1f, 0}, 0, {0, 2, 0}};
  src.colliders.push_back(plane);
  src.group0.push_back(2);
  src.groups[0].colliderCount = 2;
  src.groups[0].colliders = src.group0.data();
  src.Fix();
  Set set(src.src);
  maniSpringSet before = set.set;
  ExpectEveryMutationRefused(set.file.data(), set.file.size, [&](const void* p, size_t n) {
    maniSpringSet v = before;
    maniFileResult r = maniOpenSpringSet(p, n, &v);
    if (r.result != mani_success) {
      EXPECT_EQ(memcmp(&v, &before, sizeof v), 0);
    }
    return r;
  });
}

TEST(SpringOpen, Checks) {
  Rig rig;
  Source src(&rig.s);
  Set set(src.src);
  maniSpringSet v;
  EXPECT_EQ(maniOpenSpringSet(nullptr, 0, &v).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenSpringSet(set.file.data(), set.file.size, nullptr).result, mani_errorInvalid);
  File shifted;
  std::vector<uint8_t> zeros(set.file.size + 8, 0);
  shifted.Assign(zeros.data(), zeros.size());
  memcpy(shifted.data() + 8, set.file.data(), set.file.size);
  EXPECT_EQ(maniOpenSpringSet(shifted.data() + 8, set.file.size, &v).result, mani_errorInvalid);
  // Another format version.
  {
    File f;
    f.Assign(set.file.data(), set.file.size);
    PutU32(f.data() + 8, 7);
    EXPECT_EQ(maniOpenSpringSet(f.data(), f.size, &v).result, mani_errorVersion);
  }
  // Targeted patches, resealed so the record checks see them.
  const uint8_t* b = set.file.data();
  const uint64_t info = SectionOffset(b, 0), springs = SectionOffset(b, 1), joints = SectionOffset(b, 2),
                 colliders = SectionOffset(b, 3), links = SectionOffset(b, 4), tracked = SectionOffset(b, 5);
  struct Patch {
    uint64_t at;
    uint32_t value;
    bool isFloat;
    float f;
    uint64_t expect;
  };
  const Patch patches[] = {
      {info + 8, 0, false, 0, info + 8},                                   // no bones
      {info + 36, 0, true, 2000.0f, info + 36},                            // step rate past the bound
      {info + 32, 0, true, -1.0f, info + 32},                              // reference rate
      {tracked + 4, 0, false, 0, tracked + 4},                             // tracked not increasing
      {joints + 16, 0, true, 1.5f, joints + 16},                           // drag past 1
      {joints + 12, 0, true, NAN, joints + 12},                            // stiffness not finite
      {joints + 8, 0, true, -0.5f, joints + 8},                            // hit radius
      {joints + 36, 9, false, 0, joints + 36},                             // limit kind
      {joints + 52, 0, true, 0.5f, joints + 40},                           // limit rotation not unit
      {joints + 64, kRoot, false, 0, joints + 68},                         // a joint bone changed: its tracked index no longer names it
      {joints, kBones, false, 0, joints},                                  // a bone past the skeleton
      {joints + 64 * 3 + 16, 0, true, 0.25f, joints + 64 * 3 + 18},        // a last joint's value (its first non-zero byte)
      {colliders + 8, 7, false, 0, colliders + 8},                         // collider kind
      {colliders + 24, 0, true, -1.0f, colliders + 24},                    // radius
      {colliders + 4, 5, false, 0, colliders + 4},                         // tracked index of another bone
      {links, 9, false, 0, links},                                         // link past the colliders
      {springs + 4, 1, false, 0, springs + 4},                             // a spring of 1 joint
      {springs, 1, false, 0, springs},                                     // joints out of order
      {springs + 16, kBones, false, 0, springs + 16},                      // center past the bones
      {springs + 40, 1, false, 0, springs + 40},                           // padding
  };
  for (const Patch& p : patches) {
    File f;
    f.Assign(b, set.file.size);
    if (p.isFloat)
      PutF32(f.data() + p.at, p.f);
    else
      PutU32(f.data() + p.at, p.value);
    Reseal(f.data(), f.size);
    maniFileResult r = maniOpenSpringSet(f.data(), f.size, &v);
    EXPECT_EQ(r.result, mani_errorFormat) << "patch at " << p.at;
    EXPECT_EQ(r.offset, p.expect) << "patch at " << p.at;
  }
  // A name not UTF-8.
  {
    File f;
    f.Assign(b, set.file.size);
    const uint64_t names = SectionOffset(b, 6);
    f.data()[names + 1] = 0xFF;
    Reseal(f.data(), f.size);
    maniFileResult r = maniOpenSpringSet(f.data(), f.size, &v);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.offset, names + 1);
  }
  EXPECT_EQ(SectionSize(b, 6), 8u);
}

// -- State -----------------------------------------------------------------------

TEST(SpringState, InitRefusals) {
  Rig rig;
  Source src(&rig.s);
  Set set(src.src);
  const size_t size = maniSpringSet_GetStateSize(&set.set);
  EXPECT_EQ(size % 16, 0u);
  std::vector<uint64_t> mem(size / 8 + 4);
  maniSpringState* st = reinterpret_cast<maniSpringState*>(uintptr_t(1));
  maniSpringState* const sentinel = st;
  EXPECT_EQ(maniInitSpringState(nullptr, &rig.s, mem.data(), size, &st), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&set.set, nullptr, mem.data(), size, &st), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&set.set, &rig.s, nullptr, size, &st), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&set.set, &rig.s, mem.data(), size, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&set.set, &rig.s, reinterpret_cast<uint8_t*>(mem.data()) + 8, size, &st),
            mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&set.set, &rig.s, mem.data(), size - 16, &st), mani_errorCapacity);
  Skel other(5, kBones);
  EXPECT_EQ(maniInitSpringState(&set.set, &other.s, mem.data(), size, &st), mani_errorInvalid);
  EXPECT_EQ(st, sentinel);
  EXPECT_EQ(maniInitSpringState(&set.set, &rig.s, mem.data(), size, &st), mani_success);
  EXPECT_NE(st, sentinel);
}

TEST(SpringState, StepAndApplyRefusals) {
  Rig rig;
  Source src(&rig.s);
  Set set(src.src);
  State st(&set.set, &rig.s);
  Pose pose(&rig.s);
  ASSERT_EQ(maniPose_SetRest(pose.p, &rig.s), mani_success);
  ASSERT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, nullptr, 0.1f), mani_success);
  const std::vector<uint8_t> before = st.Memory();
  const maniTransform nan = T(NAN, 0, 0);
  maniTransform badTurn = T(0, 0, 0);
  badTurn.rotation.w = INFINITY;
  const maniVec3 inf = {0, INFINITY, 0};
  EXPECT_EQ(maniSpringState_Step(nullptr, pose.p, nullptr, nullptr, 0.1f), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Step(st.st, nullptr, nullptr, nullptr, 0.1f), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Step(st.st, pose.p, &nan, nullptr, 0.1f), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Step(st.st, pose.p, &badTurn, nullptr, 0.1f), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, &inf, 0.1f), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, nullptr, NAN), mani_errorInvalid);
  const float tooLong = (MANI_SPRING_MAX_STEPS + 1) / 60.0f;
  EXPECT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, nullptr, tooLong), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, nullptr, -tooLong), mani_errorInvalid);
  // A pose of another skeleton, and a difference.
  Skel other(3, 4);
  Pose wrong(&other.s);
  EXPECT_EQ(maniSpringState_Step(st.st, wrong.p, nullptr, nullptr, 0.1f), mani_errorInvalid);
  Pose diff(&rig.s);
  ASSERT_EQ(maniSkeleton_ComputePoseDifference(&rig.s, pose.p, pose.p, diff.p), mani_success);
  EXPECT_EQ(maniSpringState_Step(st.st, diff.p, nullptr, nullptr, 0.1f), mani_errorInvalid);
  EXPECT_EQ(st.Memory(), before);
  // Apply.
  EXPECT_EQ(maniSpringState_Apply(nullptr, pose.p), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Apply(st.st, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Apply(st.st, wrong.p), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Apply(st.st, diff.p), mani_errorInvalid);
  // Exactly the bound runs.
  EXPECT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, nullptr, MANI_SPRING_MAX_STEPS / 60.0f), mani_success);
  maniSpringState_Reset(nullptr);
}

// No motion yet: Apply keeps the pose's rotations; a step under too short a
// delta runs no step.
TEST(SpringState, NoMotionKeepsThePose) {
  Rig rig;
  Source src(&rig.s);
  Set set(src.src);
  State st(&set.set, &rig.s);
  Pose pose(&rig.s), rest(&rig.s);
  ASSERT_EQ(maniPose_SetRest(pose.p, &rig.s), mani_success);
  maniPose_SetLocal(pose.p, kH1, maniTransform{{0, 0, -0.1f}, {0.1f, 0, 0, 0.99498743f}, {1, 1, 1}});
  std::vector<maniTransform> a(kBones), b(kBones);
  ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, kBones, a.data()), mani_success);
  ASSERT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
  ASSERT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, nullptr, 0.5f / 60.0f), mani_success);
  ASSERT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
  ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, kBones, b.data()), mani_success);
  EXPECT_EQ(memcmp(a.data(), b.data(), sizeof(maniTransform) * kBones), 0);
}

// A still rest pose with no gravity: every tail stays where the pose puts
// it, so Apply gives back the rest rotations (the identity).
TEST(SpringMotion, RestStays) {
  Rig rig;
  Source src(&rig.s, 1.0f, 0.0f);
  Set set(src.src);
  State st(&set.set, &rig.s);
  Pose pose(&rig.s);
  RunHost(st, pose, &rig.s, 2.0, 60.0);
  for (uint32_t bone : {kH0, kH1, kH2, kT0, kT1}) {
    maniQuat q = maniPose_GetLocal(pose.p, bone).rotation;
    EXPECT_NEAR(q.w, 1.0, 1e-6) << bone;
  }
}

// Gravity with no stiffness: the tail chain hangs along gravity (-y).
TEST(SpringMotion, GravityHangs) {
  Rig rig;
  Source src(&rig.s, 0.0f, 2.0f);
  src.colliders.clear();
  src.group1 = {};
  src.groups[1].colliderCount = 0;
  src.groups[0].colliderCount = 0;
  src.Fix();
  Set set(src.src);
  State st(&set.set, &rig.s);
  Pose pose(&rig.s);
  RunHost(st, pose, &rig.s, 10.0, 60.0);
  const maniVec3 t0 = ModelPos(pose.p, &rig.s, kT0), t1 = ModelPos(pose.p, &rig.s, kT1), t2 = ModelPos(pose.p, &rig.s, kT2);
  EXPECT_NEAR(t1.x - t0.x, 0.0, 1e-3);
  EXPECT_NEAR(t1.z - t0.z, 0.0, 1e-3);
  EXPECT_NEAR(t1.y - t0.y, -0.2, 1e-3);
  EXPECT_NEAR(t2.y - t1.y, -0.2, 1e-3);
  EXPECT_NEAR(Dist(t1, t0), 0.2, 1e-5);  // lengths kept
}

// A sphere in gravity's way: the tail rests on it, radius + hit radius from
// its center; inside spheres keep it in; planes keep it above.
TEST(SpringMotion, Colliders) {
  Rig rig;
  for (uint32_t kind : {maniSpringShapeSphere, maniSpringShapeCapsule, maniSpringShapeInsideSphere,
                        maniSpringShapePlane}) {
    Source src(&rig.s, 0.0f, 2.0f);
    // t0 at (0, 1, 0); t1 starts at (0, 1, -0.2) and falls toward (0, 0.8, 0).
    maniSpringSourceCollider c;
    memset(&c, 0, sizeof c);
    c.bone = kRoot;
    c.kind = kind;
    if (kind == maniSpringShapeSphere) c = {kRoot, kind, {0, 0.8f, -0.1f}, 0.08f, {0, 0, 0}};
    if (kind == maniSpringShapeCapsule) c = {kRoot, kind, {-1, 0.8f, -0.1f}, 0.08f, {1, 0.8f, -0.1f}};
    if (kind == maniSpringShapeInsideSphere) c = {kRoot, kind, {0, 1, -0.2f}, 0.1f, {0, 0, 0}};
    if (kind == maniSpringShapePlane) c = {kRoot, kind, {0, 0.9f, 0}, 0, {0, 1, 0}};
    src.colliders = {c};
    src.group1 = {0};
    src.groups[1].colliderCount = 1;
    src.groups[0].colliderCount = 0;
    src.tail.resize(2);
    src.tail[1] = J(kT1);
    src.Fix();
    Set set(src.src);
    State st(&set.set, &rig.s);
    Pose pose(&rig.s);
    RunHost(st, pose, &rig.s, 5.0, 60.0);
    const maniVec3 tip = ModelPos(pose.p, &rig.s, kT1);
    const double hit = 0.02f;
    if (kind == maniSpringShapeSphere) { EXPECT_GE(Dist(tip, c.offset), 0.08 + hit - 1e-4); }
    if (kind == maniSpringShapeCapsule) { EXPECT_GE(Dist(tip, maniVec3{tip.x, 0.8f, -0.1f}), 0.08 + hit - 1e-4); }
    if (kind == maniSpringShapeInsideSphere) { EXPECT_LE(Dist(tip, c.offset), 0.1 - hit + 1e-4); }
    if (kind == maniSpringShapePlane) { EXPECT_GE(tip.y, 0.9 + hit - 1.5e-3); }  // gravity pulls back a little each step
    // And it did fall (gravity acted).
    EXPECT_LT(tip.y, 1.0f - 1e-3f) << kind;
  }
}

// Limits: a cone of 0.3 rad about the rest direction (-z, the limit frame's
// Y turned onto it) holds the tail against gravity; a hinge keeps it in its
// plane.
TEST(SpringMotion, Limits) {
  Rig rig;
  // The frame's Y onto -z: a quarter turn about x (y -> -z).
  const float h = 0.70710678f;
  for (uint32_t kind : {maniSpringLimitCone, maniSpringLimitHinge, maniSpringLimitSpherical}) {
    Source src(&rig.s, 0.0f, 2.0f);
    src.tail.resize(2);
    src.tail[0].limitKind = kind;
    src.tail[0].limitRotation = {-h, 0, 0, h};
    src.tail[0].limitAngle = 0.3f;
    src.tail[0].limitAngle2 = kind == maniSpringLimitSpherical ? 0.3f : 0.0f;
    src.tail[1] = J(kT1);
    src.tail[0].gravityDir = {1, -1, 0};
    src.Fix();
    Set set(src.src);
    State st(&set.set, &rig.s);
    Pose pose(&rig.s);
    RunHost(st, pose, &rig.s, 5.0, 60.0);
    const maniVec3 t0 = ModelPos(pose.p, &rig.s, kT0), t1 = ModelPos(pose.p, &rig.s, kT1);
    const double dx = t1.x - t0.x, dy = t1.y - t0.y, dz = t1.z - t0.z;
    const double angle = std::acos(-dz / std::sqrt(dx * dx + dy * dy + dz * dz));
    if (kind == maniSpringLimitCone) { EXPECT_NEAR(angle, 0.3, 2e-3); }
    if (kind == maniSpringLimitHinge) {
      EXPECT_NEAR(dx, 0.0, 1e-4);  // turning about x only
      EXPECT_NEAR(angle, 0.3, 2e-3);
    }
    if (kind == maniSpringLimitSpherical) { EXPECT_LE(angle, 0.3 * 1.5); }
    EXPECT_GT(angle, 0.1);  // it did move
  }
}

// A center carries inertia in its space: the whole model moving at a
// constant velocity in the pose leaves the tails at rest relative to the
// center, while without a center they lag.
TEST(SpringMotion, CenterCarries) {
  Rig rig;
  double lag[2];
  for (int withCenter = 0; withCenter < 2; ++withCenter) {
    Source src(&rig.s, 0.5f, 0.0f);
    src.tail[0].dragForce = 0.1f;
    src.tail[1].dragForce = 0.1f;
    src.Fix();
    src.springs[1].center = withCenter ? (uint32_t)kRoot : MANI_NO_BONE;
    Set set(src.src);
    State st(&set.set, &rig.s);
    Pose pose(&rig.s);
    for (int i = 1; i <= 120; ++i) {
      ASSERT_EQ(maniPose_SetRest(pose.p, &rig.s), mani_success);
      maniPose_SetLocal(pose.p, kRoot, T(0.05f * i, 0, 0));
      ASSERT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, nullptr, 1.0f / 60), mani_success);
    }
    ASSERT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
    const maniVec3 t0 = ModelPos(pose.p, &rig.s, kT0), t2 = ModelPos(pose.p, &rig.s, kT2);
    lag[withCenter] = std::fabs((double)t2.x - t0.x);
  }
  EXPECT_LT(lag[1], 1e-4);
  EXPECT_GT(lag[0], 1e-2);
}

// maniSpringState_Step: tails "keep their bone's length" (spring.h: a step's
// tail is "put back at the bone's length from the joint"). The chain t0 -> t1 -> t2
// (0.2 a bone, no stiffness, gravity or colliders, drag 0.4) under a swaying
// placement: every step's tails (the saved state's, world space without a
// center) are each at 0.2 from its head (t0 placed, then the previous
// joint's tail), and follow the verlet rule worked here in binary64 (the
// first step places the tails; then tail + (tail - previous) (1 - drag),
// put at the bone's length from the head); the applied t2 is at the second
// tail's direction. three-vrm 3.5.5 does otherwise, and Maul differs from
// it on purpose of this sentence: three-vrm takes a joint's length from its
// child's world matrix as it was before the parent joint turned in the same
// update (tools/springs/threevrm_reference.mjs), so the second joint's tail
// is put at |head - stale child| and carries that into its inertia. The
// same rule with that stale length moves t2 by 0.010 at most here; the
// check below tells it apart at 50 times the probe's 1e-4 tolerance.
TEST(SpringMotion, TailsKeepTheirBoneLengthIntoTheirInertia) {
  Rig rig;
  std::vector<maniSpringSourceJoint> tail = {J(kT0), J(kT1), J(kT2)};
  maniSpringSourceSpring spring = {"tail", 4, tail.data(), 3, nullptr, 0, MANI_NO_BONE};
  maniSpringSetSource src = {&rig.s, 60.0f, 60.0f, nullptr, 0, nullptr, 0, &spring, 1};
  Set set(src);
  State st(&set.set, &rig.s);
  Pose pose(&rig.s);
  const double L = 0.2, keep = 1 - 0.4;
  struct V {
    double x, y, z;
  };
  auto add = [](V a, V b) { return V{a.x + b.x, a.y + b.y, a.z + b.z}; };
  auto sub = [](V a, V b) { return V{a.x - b.x, a.y - b.y, a.z - b.z}; };
  auto mul = [](V a, double k) { return V{a.x * k, a.y * k, a.z * k}; };
  auto len = [](V a) { return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z); };
  auto at = [&](V head, V p, double l) { return add(head, mul(sub(p, head), l / len(sub(p, head)))); };
  auto dist = [&](maniVec3 a, V b) { return len(V{a.x - b.x, a.y - b.y, a.z - b.z}); };
  // [0] Maul's rule (lengths kept), [1] three-vrm's stale length.
  V tails[2][2], prevs[2][2], ends[2] = {}, lastPlace = {0, 0, 0};
  double apart = 0;
  for (int k = 1; k <= 120; ++k) {
    const double t = k / 60.0;
    const maniTransform place = T((float)(0.2 * std::sin(2 * M_PI * 1.3 * t)), 0, (float)(0.1 * std::sin(2 * M_PI * 0.7 * t)));
    const V p = {place.translation.x, place.translation.y, place.translation.z};
    const V h0 = add(p, V{0, 1, 0});
    for (int m = 0; m < 2; ++m) {
      if (k == 1) {
        tails[m][0] = prevs[m][0] = add(h0, V{0, 0, -L});
        tails[m][1] = prevs[m][1] = add(h0, V{0, 0, -2 * L});
      } else {
        V head = h0;
        for (int j = 0; j < 2; ++j) {
          // three-vrm's child of the second joint: t2 where the last update
          // left it, moved with the placement only.
          const double l = (m == 1 && j == 1) ? len(sub(add(ends[m], sub(p, lastPlace)), head)) : L;
          const V next = at(head, add(tails[m][j], mul(sub(tails[m][j], prevs[m][j]), keep)), l);
          prevs[m][j] = tails[m][j];
          tails[m][j] = next;
          head = next;
        }
      }
      ends[m] = at(tails[m][0], tails[m][1], L);  // the applied t2 (world)
    }
    lastPlace = p;
    apart = std::max(apart, len(sub(ends[0], ends[1])));
    ASSERT_EQ(maniPose_SetRest(pose.p, &rig.s), mani_success);
    ASSERT_EQ(maniSpringState_Step(st.st, pose.p, &place, nullptr, 1.0f / 60), mani_success);
    const std::vector<uint8_t> saved = st.Save();
    const uint8_t* b = saved.data() + SectionOffset(saved.data(), 3);
    const maniVec3 s0 = {F32(b), F32(b + 4), F32(b + 8)}, s1 = {F32(b + 24), F32(b + 28), F32(b + 32)};
    EXPECT_NEAR(dist(s0, h0), L, 1e-5) << k;
    EXPECT_NEAR(Dist(s1, s0), L, 1e-5) << k;
    EXPECT_LT(dist(s0, tails[0][0]), 1e-4) << k;
    EXPECT_LT(dist(s1, tails[0][1]), 1e-4) << k;
    ASSERT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
    const maniVec3 end = ModelPos(pose.p, &rig.s, kT2);
    EXPECT_LT(dist(end, sub(ends[0], p)), 1e-4) << k;
  }
  EXPECT_GT(apart, 5e-3) << "the stale length is not told apart";  // measured 0.010
}

// With still inputs, the steps see the same values whatever the host rate:
// 10 s at 30, 60 and 144 Hz run 600 steps at 60 and leave the same tails.
TEST(SpringMotion, HostRateIndependent) {
  Rig rig;
  Source src(&rig.s, 0.3f, 1.0f);
  src.src.stepRate = 60.0f;
  Set set(src.src);
  std::vector<std::vector<uint8_t>> tails;
  for (double host : {30.0, 60.0, 144.0}) {
    State st(&set.set, &rig.s);
    Pose pose(&rig.s);
    RunHost(st, pose, &rig.s, 10.0, host);
    std::vector<uint8_t> saved = st.Save();
    const uint64_t at = SectionOffset(saved.data(), 3), n = SectionSize(saved.data(), 3);
    tails.emplace_back(saved.begin() + at, saved.begin() + at + n);
    double since;
    memcpy(&since, saved.data() + SectionOffset(saved.data(), 0) + 24, 8);
    EXPECT_LT(std::fabs(since), 1e-3) << host;
  }
  EXPECT_EQ(tails[0], tails[1]);
  EXPECT_EQ(tails[0], tails[2]);
}

// The same with a seeded rig whose still pose has turned bones (rotations
// interpolated between equal values must stay bit for bit).
TEST(SpringMotion, HostRateIndependentTurned) {
  maniFixtureSpringRig rig;
  ASSERT_EQ(maniFixtureMakeSpringRig(&rig, 0x5351, 5, 6, 8, 60.0f), 0);
  std::vector<std::vector<uint8_t>> tails;
  for (double host : {30.0, 60.0, 144.0}) {
    State st(&rig.set, &rig.skeleton);
    Pose pose(&rig.skeleton);
    maniTransform place;
    for (int i = 0; i < (int)(10 * host + 0.5); ++i) {
      maniFixtureSpringMotion(&rig, 0x5351, 0.0, pose.p, &place);
      ASSERT_EQ(maniSpringState_Step(st.st, pose.p, &place, nullptr, (float)(1.0 / host)), mani_success);
    }
    std::vector<uint8_t> saved = st.Save();
    const uint64_t at = SectionOffset(saved.data(), 3), n = SectionSize(saved.data(), 3);
    tails.emplace_back(saved.begin() + at, saved.begin() + at + n);
  }
  EXPECT_EQ(tails[0], tails[1]);
  EXPECT_EQ(tails[0], tails[2]);
  maniFixtureFreeSpringRig(&rig);
}

// A moving placement interpolated across a long call equals stepping at the
// step rate with the same positions (host 30 vs 60 at step 60, linear
// motion: within rounding).
TEST(SpringMotion, InterpolatesAcrossTheCall) {
  Rig rig;
  Source src(&rig.s, 0.5f, 0.5f);
  Set set(src.src);
  std::vector<maniVec3> tips;
  for (double host : {30.0, 60.0}) {
    State st(&set.set, &rig.s);
    Pose pose(&rig.s);
    RunHost(st, pose, &rig.s, 2.0, host, maniVec3{1.0f, 0, 0.5f});
    tips.push_back(ModelPos(pose.p, &rig.s, kH3));
  }
  EXPECT_LT(Dist(tips[0], tips[1]), 1e-4);
}

// Save at t, restore into fresh memory, continue: the same bits as running
// through.
TEST(SpringState, SaveRestoreRunsThrough) {
  Rig rig;
  Source src(&rig.s, 0.5f, 1.0f);
  src.springs[0].center = kHead;
  src.src.stepRate = 90.0f;
  src.Fix();
  src.springs[0].center = kHead;
  Set set(src.src);
  State through(&set.set, &rig.s);
  Pose pose(&rig.s);
  double clock = 0;
  RunHost(through, pose, &rig.s, 1.03, 50.0, maniVec3{0.5f, 0.2f, 0}, &clock);
  std::vector<uint8_t> saved = through.Save();
  State fresh(&set.set, &rig.s);
  File copy;
  copy.Assign(saved.data(), saved.size());
  ASSERT_EQ(maniSpringState_Restore(fresh.st, copy.data(), copy.size).result, mani_success);
  EXPECT_EQ(fresh.Save(), saved);
  double clock2 = clock;
  RunHost(through, pose, &rig.s, 1.0, 50.0, maniVec3{0.5f, 0.2f, 0}, &clock);
  Pose other(&rig.s);
  RunHost(fresh, other, &rig.s, 1.0, 50.0, maniVec3{0.5f, 0.2f, 0}, &clock2);
  EXPECT_EQ(through.Save(), fresh.Save());
  EXPECT_EQ(memcmp(pose.p, other.p, pose.size), 0);
  // Reset drops the motion: a fresh state's save.
  maniSpringState_Reset(through.st);
  State blank(&set.set, &rig.s);
  EXPECT_EQ(through.Save(), blank.Save());
}

TEST(SpringState, SaveRefusals) {
  Rig rig;
  Source src(&rig.s);
  Set set(src.src);
  State st(&set.set, &rig.s);
  size_t n = 0;
  EXPECT_EQ(maniSpringState_Save(nullptr, nullptr, 0, &n), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Save(st.st, nullptr, 16, &n), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Save(st.st, nullptr, 0, &n), mani_errorCapacity);
  std::vector<uint8_t> small(n - 1, 0xAB);
  size_t m = 0;
  EXPECT_EQ(maniSpringState_Save(st.st, small.data(), small.size(), &m), mani_errorCapacity);
  EXPECT_EQ(m, n);
  for (uint8_t c : small) EXPECT_EQ(c, 0xAB);
}

TEST(SpringState, RestoreChecks) {
  Rig rig;
  Source src(&rig.s, 0.5f, 1.0f);
  Set set(src.src);
  State st(&set.set, &rig.s);
  Pose pose(&rig.s);
  RunHost(st, pose, &rig.s, 0.5, 60.0, maniVec3{0.3f, 0, 0});
  const std::vector<uint8_t> saved = st.Save();
  State target(&set.set, &rig.s);
  const std::vector<uint8_t> before = target.Memory();
  auto restore = [&](const std::vector<uint8_t>& bytes) {
    File f;
    f.Assign(bytes.data(), bytes.size());
    maniFileResult r = maniSpringState_Restore(target.st, f.data(), f.size);
    if (r.result != mani_success) {
      EXPECT_EQ(target.Memory(), before);
    }
    return r;
  };
  EXPECT_EQ(maniSpringState_Restore(nullptr, saved.data(), saved.size()).result, mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Restore(target.st, nullptr, 0).result, mani_errorInvalid);
  // ABI and state format versions.
  {
    std::vector<uint8_t> b = saved;
    PutU32(b.data() + 12, MANI_ABI_VERSION + 1);
    maniFileResult r = restore(b);
    EXPECT_EQ(r.result, mani_errorVersion);
    b = saved;
    PutU32(b.data() + 8, 99);
    EXPECT_EQ(restore(b).result, mani_errorVersion);
  }
  // Another set's state.
  {
    Source other(&rig.s, 0.7f, 1.0f);
    Set otherSet(other.src);
    State os(&otherSet.set, &rig.s);
    maniFileResult r = restore(os.Save());
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.offset, SectionOffset(saved.data(), 0));
  }
  const uint64_t info = SectionOffset(saved.data(), 0), call = SectionOffset(saved.data(), 1),
                 models = SectionOffset(saved.data(), 2), tails = SectionOffset(saved.data(), 3);
  struct Patch {
    uint64_t at;
    float f;
    uint64_t expect;
  };
  const Patch patches[] = {
      {call + 4, NAN, call + 4},             // placement not finite
      {call + 24, 0.5f, call + 12},          // placement rotation not unit
      {models + 40 + 16, 2.0f, models + 52}, // a model rotation not unit
      {tails + 8, INFINITY, tails + 8},      // a tail not finite
      {call + 84, NAN, call + 84},           // force not finite
  };
  for (const Patch& p : patches) {
    std::vector<uint8_t> b = saved;
    PutF32(b.data() + p.at, p.f);
    Reseal(b.data(), b.size());
    maniFileResult r = restore(b);
    EXPECT_EQ(r.result, mani_errorFormat) << p.at;
    EXPECT_EQ(r.offset, p.expect) << p.at;
  }
  {  // Flags: unknown bits, motion without a call.
    std::vector<uint8_t> b = saved;
    PutU32(b.data() + info + 8, 7);
    Reseal(b.data(), b.size());
    EXPECT_EQ(restore(b).offset, info + 8);
    PutU32(b.data() + info + 8, 2);
    Reseal(b.data(), b.size());
    EXPECT_EQ(restore(b).offset, info + 8);
  }
  {  // Time since the last step out of range.
    std::vector<uint8_t> b = saved;
    const double bad = 1.5;
    memcpy(b.data() + info + 24, &bad, 8);
    Reseal(b.data(), b.size());
    EXPECT_EQ(restore(b).offset, info + 24);
  }
  {  // Without motion, values but zeros.
    std::vector<uint8_t> b = target.Save();
    PutF32(b.data() + tails + 4, 1.0f);
    Reseal(b.data(), b.size());
    maniFileResult r = restore(b);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.offset, tails + 6);  // 1.0f's first non-zero byte
    b = target.Save();
    PutF32(b.data() + models, 1.0f);
    Reseal(b.data(), b.size());
    EXPECT_EQ(restore(b).offset, models + 2);
  }
  // Every mutation refused or, if it opens, only where values may be
  // anything finite (never a crash; the state checked).
  ExpectEveryMutationRefused(saved.data(), saved.size(), [&](const void* p, size_t n) {
    State fresh(&set.set, &rig.s);
    const std::vector<uint8_t> clean = fresh.Memory();
    File f;
    f.Assign(p, n);
    if (n >= 16) {
      uint32_t abi = MANI_ABI_VERSION;
      memcpy(f.data() + 12, &abi, 4);  // the field the helper lets change
    }
    maniFileResult r = maniSpringState_Restore(fresh.st, f.data(), n);
    if (r.result != mani_success) {
      EXPECT_EQ(fresh.Memory(), clean);
    }
    return r;
  });
  EXPECT_EQ(restore(saved).result, mani_success);
}

}  // namespace
