// Ragdoll profiles (ragdoll.h, maniBuildRagdoll in build.h): the build with
// every refusal, the open with every check, bodies from poses (velocities
// against finite differences and the shortest turn worked out here), joint
// targets (identity at rest, a bone's turn read back), poses from bodies
// (the round trip) and the get-up placement on hand-made lying bodies.
// Expected values are derived here in binary64 from the definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/core/hash.h"
#include "maul/anim/build.h"
#include "maul/anim/pose.h"
#include "maul/anim/ragdoll.h"

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
  std::vector<uint8_t> Bytes() const {
    const uint8_t* b = reinterpret_cast<const uint8_t*>(p);
    return std::vector<uint8_t>(b, b + size);
  }
};

// -- Binary64 rigid math, written here from the definitions ---------------------------------

struct Q {
  double x, y, z, w;
};
struct V {
  double x, y, z;
};
Q Mul(Q a, Q b) {
  return Q{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
           a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Q Conj(Q a) { return Q{-a.x, -a.y, -a.z, a.w}; }
V Rot(Q q, V v) {
  Q r = Mul(Mul(q, Q{v.x, v.y, v.z, 0}), Conj(q));
  return V{r.x, r.y, r.z};
}
Q AxisAngle(V a, double t) {
  double l = std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z), s = std::sin(t / 2) / l;
  return Q{a.x * s, a.y * s, a.z * s, std::cos(t / 2)};
}
Q FromF(maniQuat q) { return Q{q.x, q.y, q.z, q.w}; }
V FromF(maniVec3 v) { return V{v.x, v.y, v.z}; }
maniQuat ToF(Q q) { return maniQuat{(float)q.x, (float)q.y, (float)q.z, (float)q.w}; }
maniVec3 ToF(V v) { return maniVec3{(float)v.x, (float)v.y, (float)v.z}; }
V Add(V a, V b) { return V{a.x + b.x, a.y + b.y, a.z + b.z}; }
V Sub(V a, V b) { return V{a.x - b.x, a.y - b.y, a.z - b.z}; }
V Scale(V a, double s) { return V{a.x * s, a.y * s, a.z * s}; }
double Dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double Len(V a) { return std::sqrt(Dot(a, a)); }
// The angle between two rotations, 0 to pi.
double Angle(Q a, Q b) {
  Q d = Mul(Conj(a), b);
  return 2 * std::atan2(std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), std::fabs(d.w));
}
struct Rigid {
  V p;
  Q q;
};
Rigid Mul(Rigid a, Rigid b) { return Rigid{Add(a.p, Rot(a.q, b.p)), Mul(a.q, b.q)}; }
Rigid FromFrame(maniRagdollFrame f) { return Rigid{FromF(f.position), FromF(f.rotation)}; }

// -- The rig: a small humanoid --------------------------------------------------------------

struct RigBone {
  const char* name;
  uint32_t parent;
  maniTransform rest;
};

maniTransform T(double x, double y, double z, Q q = Q{0, 0, 0, 1}) {
  return maniTransform{maniVec3{(float)x, (float)y, (float)z}, ToF(q), maniVec3{1, 1, 1}};
}

struct Rig {
  File file;
  maniSkeleton s;
  std::vector<RigBone> bones;
  explicit Rig(double spine = 0.2) {
    bones = {
        {"hips", MANI_NO_BONE, T(0, 1, 0)},
        {"spine", 0, T(0, spine, 0, AxisAngle(V{1, 0, 0}, 0.1))},
        {"chest", 1, T(0, 0.2, 0.01)},
        {"neck", 2, T(0, 0.2, 0)},
        {"head", 3, T(0, 0.1, 0, AxisAngle(V{0, 1, 0}, 0.2))},
        {"upperarm_l", 2, T(0.2, 0.1, 0, AxisAngle(V{0, 0, 1}, -1.2))},
        {"forearm_l", 5, T(0.3, 0, 0)},
        {"upperarm_r", 2, T(-0.2, 0.1, 0, AxisAngle(V{0, 0, 1}, 1.2))},
        {"thigh_l", 0, T(0.1, -0.1, 0, AxisAngle(V{1, 0, 0}, 3.1))},
        {"tail", 0, T(0, 0, -0.1)},
    };
    std::vector<maniSkeletonSourceBone> src;
    for (const RigBone& b : bones) src.push_back({b.name, strlen(b.name), b.parent, b.rest});
    maniSkeletonSource source{src.data(), (uint32_t)src.size()};
    Builder builder;
    EXPECT_EQ(maniBuildSkeleton(builder.b, &source).result, mani_success);
    file = builder.Built();
    EXPECT_EQ(maniOpenSkeleton(file.data(), file.size, &s).result, mani_success);
  }
  // A bone's model rest frame in binary64 (every scale is 1).
  Rigid RestModel(uint32_t b) const {
    Rigid local{FromF(bones[b].rest.translation), FromF(bones[b].rest.rotation)};
    return bones[b].parent == MANI_NO_BONE ? local : Mul(RestModel(bones[b].parent), local);
  }
};

maniTransform Frame(double x, double y, double z, Q q) { return T(x, y, z, q); }

// Bodies on bones 8, 0, 2, 1, 4, 5, 6, 7 (source order not by bone; neck and
// tail without one).
std::vector<maniRagdollSourceBody> Bodies() {
  std::vector<maniRagdollSourceBody> v;
  auto add = [&](const char* name, uint32_t bone, uint32_t shape, maniVec3 size, float mass) {
    maniRagdollSourceBody b;
    memset(&b, 0, sizeof b);
    b.name = name;
    b.nameLength = strlen(name);
    b.bone = bone;
    b.shape = shape;
    b.motion = bone == 6 ? maniRagdollMotionKinematic : maniRagdollMotionDynamic;
    b.size = size;
    b.mass = mass;
    b.frame = Frame(0.01 * bone, 0.05, -0.02, AxisAngle(V{1, 2, 3}, 0.1 * bone));
    b.joint = Frame(0, -0.05, 0.01 * bone, AxisAngle(V{0, 0, 1}, 0.05 * bone + 0.3));
    b.twistMin = -0.5f;
    b.twistMax = 0.7f;
    b.swingY = 0.4f;
    b.swingZ = 1.0f;
    b.driveStiffness = 100.0f * (float)bone;
    b.driveDamping = 5.0f;
    b.driveMaxForce = 0.0f;
    v.push_back(b);
  };
  add("thigh", 8, maniRagdollShapeCapsule, maniVec3{0.07f, 0.4f, 0}, 8);
  add("pelvis", 0, maniRagdollShapeBox, maniVec3{0.15f, 0.1f, 0.1f}, 12);
  add("chest", 2, maniRagdollShapeBox, maniVec3{0.17f, 0.12f, 0.1f}, 15);
  add("spine", 1, maniRagdollShapeCapsule, maniVec3{0.1f, 0.25f, 0}, 10);
  add("", 4, maniRagdollShapeSphere, maniVec3{0.1f, 0, 0}, 5);
  add("upperarm_l", 5, maniRagdollShapeCapsule, maniVec3{0.05f, 0.3f, 0}, 3);
  add("forearm_l", 6, maniRagdollShapeCapsule, maniVec3{0.04f, 0.28f, 0}, 2);
  add("upperarm_r", 7, maniRagdollShapeCapsule, maniVec3{0.05f, 0.3f, 0}, 3);
  return v;
}

maniRagdollSource Source(const Rig& rig, const std::vector<maniRagdollSourceBody>& bodies) {
  maniRagdollSource s;
  memset(&s, 0, sizeof s);
  s.skeleton = &rig.s;
  s.bodies = bodies.data();
  s.bodyCount = (uint32_t)bodies.size();
  s.facing = maniVec3{0, 0, 1};
  s.up = maniVec3{0, 1, 0};
  return s;
}

struct Profile {
  File file;
  maniRagdoll r;
};

Profile Build(const Rig& rig) {
  std::vector<maniRagdollSourceBody> bodies = Bodies();
  maniRagdollSource src = Source(rig, bodies);
  Builder b;
  maniBuildResult res = maniBuildRagdoll(b.b, &src);
  EXPECT_EQ(res.result, mani_success) << res.reason << " " << res.item << " " << res.other;
  Profile p;
  p.file = b.Built();
  EXPECT_EQ(maniOpenRagdoll(p.file.data(), p.file.size, &p.r).result, mani_success);
  return p;
}

const maniTransform kIdentity = T(0, 0, 0);

// -- Build ---------------------------------------------------------------------------------

TEST(RagdollBuild, OrdersBodiesByBoneWithParentsFramesAndJointFramesFromTheRest) {
  Rig rig;
  Profile p = Build(rig);
  ASSERT_EQ(maniRagdoll_GetBodyCount(&p.r), 8u);
  EXPECT_EQ(maniRagdoll_GetSkeletonIdentity(&p.r), maniSkeleton_GetIdentity(&rig.s));
  EXPECT_NE(maniRagdoll_GetIdentity(&p.r), 0u);
  const uint32_t bones[8] = {0, 1, 2, 4, 5, 6, 7, 8};
  const uint32_t parents[8] = {MANI_RAGDOLL_NO_BODY, 0, 1, 2, 2, 4, 2, 0};
  std::vector<maniRagdollSourceBody> src = Bodies();
  for (uint32_t k = 0; k < 8; ++k) {
    maniRagdollBody b;
    ASSERT_EQ(maniRagdoll_GetBody(&p.r, k, &b), mani_success);
    EXPECT_EQ(b.bone, bones[k]);
    EXPECT_EQ(b.parent, parents[k]) << k;
    const maniRagdollSourceBody* s = nullptr;
    for (const auto& x : src)
      if (x.bone == b.bone) s = &x;
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(b.shape, s->shape);
    EXPECT_EQ(b.motion, s->motion);
    EXPECT_EQ(b.mass, s->mass);
    EXPECT_EQ(b.size.x, s->size.x);
    EXPECT_EQ(b.size.y, s->size.y);
    EXPECT_EQ(b.driveStiffness, s->driveStiffness);
    EXPECT_EQ(b.twistMin, s->twistMin);
    EXPECT_EQ(b.swingZ, s->swingZ);
    EXPECT_EQ(b.nameLength, s->nameLength);
    if (s->nameLength) {
      EXPECT_EQ(memcmp(b.name, s->name, s->nameLength), 0);
    } else {
      EXPECT_EQ(b.name, nullptr);
    }
    EXPECT_LT(Angle(FromF(b.frame.rotation), FromF(s->frame.rotation)), 1e-6);
    if (b.parent == MANI_RAGDOLL_NO_BODY) {
      EXPECT_EQ(b.parentJoint.rotation.w, 1.0f);
      continue;
    }
    // The joint's rest frame seen from both bodies is one frame.
    maniRagdollBody pb;
    ASSERT_EQ(maniRagdoll_GetBody(&p.r, b.parent, &pb), mani_success);
    Rigid child = Mul(Mul(rig.RestModel(b.bone), FromFrame(b.frame)), FromFrame(b.joint));
    Rigid parent = Mul(Mul(rig.RestModel(pb.bone), FromFrame(pb.frame)), FromFrame(b.parentJoint));
    EXPECT_LT(Len(Sub(child.p, parent.p)), 1e-6) << k;
    EXPECT_LT(Angle(child.q, parent.q), 1e-5) << k;
  }
  maniRagdollBody b;
  EXPECT_EQ(maniRagdoll_GetBody(&p.r, 8, &b), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_GetBody(nullptr, 0, &b), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_GetBody(&p.r, 0, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_GetBodyCount(nullptr), 0u);
  EXPECT_EQ(maniRagdoll_GetIdentity(nullptr), 0u);
  EXPECT_EQ(maniRagdoll_GetSkeletonIdentity(nullptr), 0u);
  maniRagdoll zero;
  memset(&zero, 0, sizeof zero);
  EXPECT_EQ(maniRagdoll_GetBodyCount(&zero), 0u);
  // The model's axes: the root's axes turned by its rest frame.
  maniRagdollBody b0;
  ASSERT_EQ(maniRagdoll_GetBody(&p.r, 0, &b0), mani_success);
  Rigid root = Mul(rig.RestModel(0), FromFrame(b0.frame));
  V mf = Rot(root.q, V{0, 0, 1}), mu = Rot(root.q, V{0, 1, 0});
  EXPECT_NEAR(p.r.modelForward.x, mf.x, 1e-6);
  EXPECT_NEAR(p.r.modelForward.z, mf.z, 1e-6);
  EXPECT_NEAR(p.r.modelUp.y, mu.y, 1e-6);
}

TEST(RagdollBuild, SameSourceSameBytes) {
  Rig rig;
  Profile a = Build(rig), b = Build(rig);
  ASSERT_EQ(a.file.size, b.file.size);
  EXPECT_EQ(memcmp(a.file.data(), b.file.data(), a.file.size), 0);
}

struct Refusal {
  const char* what;
  std::function<void(std::vector<maniRagdollSourceBody>&, maniRagdollSource&)> change;
  maniResult result;
  uint32_t reason;
  uint64_t item, other;
};

TEST(RagdollBuild, RefusesEachCheckAndKeepsWhatItHeld) {
  Rig rig;
  static const char bad[] = {'a', (char)0xFF};
  static std::vector<char> longName(MANI_MAX_NAME_BYTES + 1, 'x');
  const float inf = INFINITY, nan = NAN;
  const std::vector<Refusal> cases = {
      {"no bodies", [](auto&, auto& s) { s.bodyCount = 0; }, mani_errorInvalid, maniBuildReasonCount, 0, 0},
      {"null bodies", [](auto&, auto& s) { s.bodies = nullptr; }, mani_errorInvalid, maniBuildReasonCount, 0, 0},
      {"more than bones", [](auto&, auto& s) { s.bodyCount = 11; }, mani_errorInvalid, maniBuildReasonCount, 0, 0},
      {"no skeleton", [](auto&, auto& s) { s.skeleton = nullptr; }, mani_errorInvalid, maniBuildReasonJoint, 0, MANI_NO_BONE},
      {"name null", [](auto& b, auto&) { b[2].name = nullptr; }, mani_errorInvalid, maniBuildReasonName, 2, 0},
      {"name utf8", [](auto& b, auto&) { b[3].name = bad; b[3].nameLength = 2; }, mani_errorInvalid, maniBuildReasonName, 3, 0},
      {"name long", [](auto& b, auto&) { b[3].name = longName.data(); b[3].nameLength = longName.size(); }, mani_errorLimit, maniBuildReasonName, 3, 0},
      {"bone past", [](auto& b, auto&) { b[1].bone = 10; }, mani_errorInvalid, maniBuildReasonJoint, 1, 10},
      {"bone twice", [](auto& b, auto&) { b[5].bone = 2; }, mani_errorInvalid, maniBuildReasonRepeatedJoint, 5, 2},
      {"shape", [](auto& b, auto&) { b[4].shape = 3; }, mani_errorInvalid, maniBuildReasonOption, 4, MANI_RAGDOLL_FIELD_SHAPE},
      {"motion", [](auto& b, auto&) { b[4].motion = 2; }, mani_errorInvalid, maniBuildReasonOption, 4, MANI_RAGDOLL_FIELD_MOTION},
      {"size inf", [=](auto& b, auto&) { b[0].size.y = inf; }, mani_errorInvalid, maniBuildReasonNotFinite, 0, MANI_RAGDOLL_FIELD_SIZE},
      {"size 0", [](auto& b, auto&) { b[0].size.y = 0; }, mani_errorInvalid, maniBuildReasonOption, 0, MANI_RAGDOLL_FIELD_SIZE},
      {"size negative", [](auto& b, auto&) { b[1].size.z = -1; }, mani_errorInvalid, maniBuildReasonOption, 1, MANI_RAGDOLL_FIELD_SIZE},
      {"size unused", [](auto& b, auto&) { b[4].size.y = 0.1f; }, mani_errorInvalid, maniBuildReasonOption, 4, MANI_RAGDOLL_FIELD_SIZE},
      {"mass nan", [=](auto& b, auto&) { b[6].mass = nan; }, mani_errorInvalid, maniBuildReasonNotFinite, 6, MANI_RAGDOLL_FIELD_MASS},
      {"mass 0", [](auto& b, auto&) { b[6].mass = 0; }, mani_errorInvalid, maniBuildReasonOption, 6, MANI_RAGDOLL_FIELD_MASS},
      {"frame inf", [=](auto& b, auto&) { b[7].frame.translation.x = inf; }, mani_errorInvalid, maniBuildReasonNotFinite, 7, MANI_RAGDOLL_FIELD_FRAME},
      {"frame zero rotation", [](auto& b, auto&) { b[7].frame.rotation = maniQuat{0, 0, 0, 0}; }, mani_errorInvalid, maniBuildReasonOption, 7, MANI_RAGDOLL_FIELD_FRAME},
      {"joint nan", [=](auto& b, auto&) { b[7].joint.rotation.y = nan; }, mani_errorInvalid, maniBuildReasonNotFinite, 7, MANI_RAGDOLL_FIELD_JOINT},
      {"joint zero rotation", [](auto& b, auto&) { b[2].joint.rotation = maniQuat{0, 0, 0, 0}; }, mani_errorInvalid, maniBuildReasonOption, 2, MANI_RAGDOLL_FIELD_JOINT},
      {"limit nan", [=](auto& b, auto&) { b[2].swingY = nan; }, mani_errorInvalid, maniBuildReasonNotFinite, 2, MANI_RAGDOLL_FIELD_LIMIT},
      {"twist order", [](auto& b, auto&) { b[2].twistMin = 0.8f; }, mani_errorInvalid, maniBuildReasonOption, 2, MANI_RAGDOLL_FIELD_LIMIT},
      {"twist past pi", [](auto& b, auto&) { b[2].twistMax = 3.2f; }, mani_errorInvalid, maniBuildReasonOption, 2, MANI_RAGDOLL_FIELD_LIMIT},
      {"swing negative", [](auto& b, auto&) { b[2].swingZ = -0.1f; }, mani_errorInvalid, maniBuildReasonOption, 2, MANI_RAGDOLL_FIELD_LIMIT},
      {"drive inf", [=](auto& b, auto&) { b[3].driveMaxForce = inf; }, mani_errorInvalid, maniBuildReasonNotFinite, 3, MANI_RAGDOLL_FIELD_DRIVE},
      {"drive negative", [](auto& b, auto&) { b[3].driveDamping = -1; }, mani_errorInvalid, maniBuildReasonOption, 3, MANI_RAGDOLL_FIELD_DRIVE},
      // Without the pelvis (source body 1), the thigh and the spine are both
      // roots: the later of the two (source 3) is refused.
      {"two roots", [](auto& b, auto&) { b[1].bone = 9; }, mani_errorInvalid, maniBuildReasonJoint, 1, 0},
      {"axes nan", [=](auto&, auto& s) { s.up.x = nan; }, mani_errorInvalid, maniBuildReasonNotFinite, 1, MANI_RAGDOLL_FIELD_AXES},
      {"axes not unit", [](auto&, auto& s) { s.up.y = 1.01f; }, mani_errorInvalid, maniBuildReasonOption, 1, MANI_RAGDOLL_FIELD_AXES},
      {"axes not perpendicular", [](auto&, auto& s) { s.up.z = 0.01f; s.up.y = 0.99995f; }, mani_errorInvalid, maniBuildReasonOption, 1, MANI_RAGDOLL_FIELD_AXES},
  };
  Builder b;
  std::vector<maniRagdollSourceBody> good = Bodies();
  maniRagdollSource src = Source(rig, good);
  ASSERT_EQ(maniBuildRagdoll(b.b, &src).result, mani_success);
  File held = b.Built();
  for (const Refusal& c : cases) {
    std::vector<maniRagdollSourceBody> bodies = Bodies();
    maniRagdollSource s = Source(rig, bodies);
    c.change(bodies, s);
    maniBuildResult r = maniBuildRagdoll(b.b, &s);
    EXPECT_EQ(r.result, c.result) << c.what;
    EXPECT_EQ(r.reason, c.reason) << c.what;
    EXPECT_EQ(r.item, c.item) << c.what;
    EXPECT_EQ(r.other, c.other) << c.what;
    File now = b.Built();
    ASSERT_EQ(now.size, held.size) << c.what;
    EXPECT_EQ(memcmp(now.data(), held.data(), held.size), 0) << c.what;
  }
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u);
  EXPECT_EQ(maniBuildRagdoll(b.b, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 1u);
  EXPECT_EQ(maniBuildRagdoll(nullptr, &src).result, mani_errorInvalid);
}

TEST(RagdollBuild, TwoRootsReportTheLaterSourceBody) {
  // Bodies on the thigh (source 0) and the spine (source 3) with no pelvis.
  Rig rig;
  std::vector<maniRagdollSourceBody> bodies = Bodies();
  bodies.erase(bodies.begin() + 1);
  maniRagdollSource s = Source(rig, bodies);
  Builder b;
  maniBuildResult r = maniBuildRagdoll(b.b, &s);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJoint);
  EXPECT_EQ(r.item, 2u); // the spine, now source 2
  EXPECT_EQ(r.other, 0u);
}

TEST(RagdollBuild, FailsEveryAllocationCleanly) {
  Rig rig;
  std::vector<maniRagdollSourceBody> bodies = Bodies();
  maniRagdollSource s = Source(rig, bodies);
  struct Counter {
    int failAt = -1, calls = 0;
    long live = 0;
  } counter;
  maniBuilderDef def = maniDefaultBuilderDef();
  def.allocator.user = &counter;
  def.allocator.allocate = [](void* u, size_t size, size_t align) -> void* {
    Counter* c = static_cast<Counter*>(u);
    if (c->calls++ == c->failAt) return nullptr;
    c->live += (long)size;
    return aligned_alloc(align < 16 ? 16 : align, (size + 63) & ~size_t(63));
  };
  def.allocator.release = [](void* u, void* m, size_t size) {
    static_cast<Counter*>(u)->live -= (long)size;
    free(m);
  };
  for (int n = 0; n < 3; ++n) {
    counter.failAt = n;
    counter.calls = 0;
    maniBuilder* b = nullptr;
    if (maniCreateBuilder(&def, &b) != mani_success) continue;
    maniBuildResult r = maniBuildRagdoll(b, &s);
    if (counter.calls > n) {
      EXPECT_EQ(r.result, mani_errorCapacity) << n;
    }
    maniDestroyBuilder(b);
    EXPECT_EQ(counter.live, 0) << n;
  }
}

// -- Open ---------------------------------------------------------------------------------

TEST(RagdollOpen, EveryTruncationAndBytePatchIsRefused) {
  Rig rig;
  Profile p = Build(rig);
  ExpectEveryMutationRefused(p.file.data(), p.file.size, [](const void* b, size_t n) {
    maniRagdoll r;
    return maniOpenRagdoll(b, n, &r);
  });
}

TEST(RagdollOpen, RefusesNullAndMisalignedAndLeavesTheViewUnchanged) {
  Rig rig;
  Profile p = Build(rig);
  maniRagdoll v;
  memset(&v, 0xA5, sizeof v);
  maniRagdoll copy = v;
  EXPECT_EQ(maniOpenRagdoll(nullptr, p.file.size, &v).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenRagdoll(p.file.data(), p.file.size, nullptr).result, mani_errorInvalid);
  std::vector<uint64_t> shifted(p.file.size / 8 + 4, 0);
  uint8_t* odd = reinterpret_cast<uint8_t*>(shifted.data()) + 8;
  memcpy(odd, p.file.data(), p.file.size);
  EXPECT_EQ(maniOpenRagdoll(odd, p.file.size, &v).result, mani_errorInvalid);
  File bad;
  bad.Assign(p.file.data(), p.file.size);
  bad.data()[100] ^= 1;
  EXPECT_NE(maniOpenRagdoll(bad.data(), bad.size, &v).result, mani_success);
  EXPECT_EQ(memcmp(&v, &copy, sizeof v), 0);
  // Another kind's file.
  EXPECT_EQ(maniOpenRagdoll(rig.file.data(), rig.file.size, &v).result, mani_errorFormat);
}

void PutF(uint8_t* p, float f) { memcpy(p, &f, 4); }
void PutU(uint8_t* p, uint32_t u) { memcpy(p, &u, 4); }

// Patches a record field, fixes the identity, and expects the open to report
// exactly that field.
TEST(RagdollOpen, ReportsTheFirstWrongFieldOfEachRecord) {
  Rig rig;
  Profile p = Build(rig);
  auto sectionOffset = [&](uint32_t i) {
    uint64_t o = 0;
    memcpy(&o, p.file.data() + 64 + 24 * i + 8, 8);
    return o;
  };
  auto reopen = [&](const std::function<void(uint8_t*)>& patch) {
    File g;
    g.Assign(p.file.data(), p.file.size);
    patch(g.data());
    uint64_t id = maniHash64(UINT64_C(0x4D41554C46494C45) ^ 12u, g.data() + 64, (int64_t)g.size - 64);
    memcpy(g.data() + 32, &id, 8);
    maniRagdoll r;
    return maniOpenRagdoll(g.data(), g.size, &r);
  };
  const uint64_t info = sectionOffset(0), bodies = sectionOffset(1), names = sectionOffset(2);
  const uint64_t b1 = bodies + 160, b3 = bodies + 3 * 160;
  struct Case {
    const char* what;
    std::function<void(uint8_t*)> patch;
    uint64_t offset;
  };
  const std::vector<Case> cases = {
      {"no change", [](uint8_t*) {}, UINT64_MAX},
      {"bone count 0", [&](uint8_t* b) { PutU(b + info + 8, 0); }, info + 8},
      {"body count past bones", [&](uint8_t* b) { PutU(b + info + 12, 11); }, info + 12},
      {"names size", [&](uint8_t* b) { PutU(b + info + 16, 1); }, info + 16},
      {"reserved", [&](uint8_t* b) { b[info + 21] = 1; }, info + 21},
      {"facing nan", [&](uint8_t* b) { PutF(b + info + 28, NAN); }, info + 28},
      {"facing not unit", [&](uint8_t* b) { PutF(b + info + 32, 2); }, info + 24},
      {"model axes", [&](uint8_t* b) { PutF(b + info + 48, 5); }, info + 48},
      {"tail padding", [&](uint8_t* b) { b[info + 79] = 1; }, info + 79},
      {"bone past", [&](uint8_t* b) { PutU(b + b1, 10); }, b1},
      {"bone not increasing", [&](uint8_t* b) { PutU(b + b1, 0); }, b1},
      {"root parent", [&](uint8_t* b) { PutU(b + bodies + 4, 0); }, bodies + 4},
      {"parent not before", [&](uint8_t* b) { PutU(b + b1 + 4, 1); }, b1 + 4},
      {"second root", [&](uint8_t* b) { PutU(b + b3 + 4, MANI_RAGDOLL_NO_BODY); }, b3 + 4},
      {"shape", [&](uint8_t* b) { PutU(b + b1 + 8, 7); }, b1 + 8},
      {"motion", [&](uint8_t* b) { PutU(b + b1 + 12, 2); }, b1 + 12},
      {"size 0", [&](uint8_t* b) { PutF(b + b1 + 20, 0); }, b1 + 20},
      {"size unused", [&](uint8_t* b) { PutF(b + b1 + 24, 1); }, b1 + 24},
      {"mass negative", [&](uint8_t* b) { PutF(b + b1 + 28, -2); }, b1 + 28},
      {"frame inf", [&](uint8_t* b) { PutF(b + b1 + 32 + 8, INFINITY); }, b1 + 40},
      {"frame not unit", [&](uint8_t* b) { PutF(b + b1 + 32 + 24, 0.5f); }, b1 + 44},
      {"joint not unit", [&](uint8_t* b) { PutF(b + b1 + 60 + 12, 0.9f); }, b1 + 72},
      {"parent joint nan", [&](uint8_t* b) { PutF(b + b1 + 88 + 4, NAN); }, b1 + 92},
      {"limits", [&](uint8_t* b) { PutF(b + b1 + 116, 1.0f); }, b1 + 116},
      {"swing past pi", [&](uint8_t* b) { PutF(b + b1 + 128, 3.2f); }, b1 + 116},
      {"drive", [&](uint8_t* b) { PutF(b + b1 + 136, -1.0f); }, b1 + 136},
      {"name offset", [&](uint8_t* b) { PutU(b + b1 + 144, 1000); }, b1 + 144},
      {"name length", [&](uint8_t* b) { PutU(b + b1 + 148, 1000); }, b1 + 148},
      {"name utf8", [&](uint8_t* b) { b[names + 1] = 0xFF; }, names + 1},
      {"record padding", [&](uint8_t* b) { b[b3 + 155] = 1; }, b3 + 155},
  };
  for (const Case& c : cases) {
    maniFileResult r = reopen(c.patch);
    if (c.offset == UINT64_MAX) {
      EXPECT_EQ(r.result, mani_success) << c.what;
      continue;
    }
    EXPECT_EQ(r.result, mani_errorFormat) << c.what;
    EXPECT_EQ(r.offset, c.offset) << c.what;
  }
}

// -- Bodies from poses --------------------------------------------------------------------

// A pose of the rig: each local's rotation turned by a seeded amount.
void Animate(const Rig& rig, maniPose* pose, double t) {
  ASSERT_EQ(maniPose_SetRest(pose, &rig.s), mani_success);
  for (uint32_t b = 0; b < rig.bones.size(); ++b) {
    maniTransform l = rig.bones[b].rest;
    Q turn = AxisAngle(V{std::sin(b + 1.0), std::cos(b * 2.0), 0.5}, 0.6 * std::sin(t * (1.0 + 0.3 * b)));
    l.rotation = ToF(Mul(FromF(l.rotation), turn));
    l.translation.x += (float)(0.01 * std::sin(t + b));
    maniPose_SetLocal(pose, b, l);
  }
  ASSERT_EQ(maniPose_ComputeModel(pose, &rig.s), mani_success);
}

TEST(RagdollBodies, AreTheBonesModelFramesUnderThePlacementTimesTheBodyFrames) {
  Rig rig;
  Profile p = Build(rig);
  Pose pose(&rig.s);
  Animate(rig, pose.p, 0.7);
  maniTransform placement = T(3, 0.5, -2, AxisAngle(V{0, 1, 0}, 2.0));
  placement.scale = maniVec3{2, 2, 2}; // left out
  std::vector<maniRagdollBodyState> out(8);
  uint32_t count = 0;
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, pose.p, &placement, nullptr, nullptr, 0, out.data(), 8, &count),
            mani_success);
  EXPECT_EQ(count, 8u);
  Rigid P{FromF(placement.translation), FromF(placement.rotation)};
  for (uint32_t k = 0; k < 8; ++k) {
    maniRagdollBody b;
    ASSERT_EQ(maniRagdoll_GetBody(&p.r, k, &b), mani_success);
    maniTransform m = maniPose_GetModelTransform(pose.p, b.bone);
    Rigid want = Mul(Mul(P, Rigid{FromF(m.translation), FromF(m.rotation)}), FromFrame(b.frame));
    EXPECT_LT(Len(Sub(FromF(out[k].position), want.p)), 1e-5) << k;
    EXPECT_LT(Angle(FromF(out[k].rotation), want.q), 1e-5) << k;
    EXPECT_EQ(out[k].linearVelocity.x, 0.0f);
    EXPECT_EQ(out[k].angularVelocity.y, 0.0f);
  }
}

TEST(RagdollBodies, VelocitiesAreFiniteDifferencesTheShortWay) {
  Rig rig;
  Profile p = Build(rig);
  Pose a(&rig.s), b(&rig.s);
  Animate(rig, a.p, 1.0);
  Animate(rig, b.p, 1.0 + 1.0 / 60);
  const float dt = 1.0f / 60;
  maniTransform pa = T(0, 0, 0, AxisAngle(V{0, 1, 0}, 0.3)), pb = T(0.05, 0, 0.02, AxisAngle(V{0, 1, 0}, 0.32));
  std::vector<maniRagdollBodyState> before(8), now(8), moving(8);
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, a.p, &pa, nullptr, nullptr, 0, before.data(), 8, nullptr), mani_success);
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, b.p, &pb, nullptr, nullptr, 0, now.data(), 8, nullptr), mani_success);
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, b.p, &pb, a.p, &pa, dt, moving.data(), 8, nullptr), mani_success);
  for (uint32_t k = 0; k < 8; ++k) {
    EXPECT_EQ(memcmp(&moving[k].position, &now[k].position, sizeof(maniVec3)), 0);
    V lin = Scale(Sub(FromF(now[k].position), FromF(before[k].position)), 1.0 / dt);
    EXPECT_LT(Len(Sub(FromF(moving[k].linearVelocity), lin)), 1e-3 * (1 + Len(lin))) << k;
    // Turning the previous rotation by the angular velocity over dt gives
    // this one.
    V w = FromF(moving[k].angularVelocity);
    Q turn = Len(w) > 0 ? AxisAngle(w, Len(w) * dt) : Q{0, 0, 0, 1};
    EXPECT_LT(Angle(Mul(turn, FromF(before[k].rotation)), FromF(now[k].rotation)), 2e-5) << k;
    EXPECT_LE(Len(w) * dt, M_PI + 1e-6);
  }
  // A root turning by 1.5 pi reads as half a turn the other way.
  Pose c(&rig.s), d(&rig.s);
  ASSERT_EQ(maniPose_SetRest(c.p, &rig.s), mani_success);
  ASSERT_EQ(maniPose_ComputeModel(c.p, &rig.s), mani_success);
  ASSERT_EQ(maniPose_SetRest(d.p, &rig.s), mani_success);
  maniTransform root = rig.bones[0].rest;
  root.rotation = ToF(AxisAngle(V{0, 1, 0}, 1.5 * M_PI));
  maniPose_SetLocal(d.p, 0, root);
  ASSERT_EQ(maniPose_ComputeModel(d.p, &rig.s), mani_success);
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, d.p, &kIdentity, c.p, &kIdentity, 0.5f, moving.data(), 8, nullptr),
            mani_success);
  for (uint32_t k = 0; k < 8; ++k) {
    EXPECT_NEAR(moving[k].angularVelocity.y, -0.5 * M_PI / 0.5, 1e-4) << k;
    EXPECT_NEAR(moving[k].angularVelocity.x, 0, 1e-4);
  }
  // The placement's motion alone: the pose as its own previous.
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, b.p, &pb, b.p, &pa, dt, moving.data(), 8, nullptr), mani_success);
  EXPECT_NEAR(moving[0].angularVelocity.y, 0.02 / dt, 1e-3);
}

TEST(RagdollBodies, RefusesEachArgumentAndLeavesTheBodiesUnchanged) {
  Rig rig;
  Profile p = Build(rig);
  Pose pose(&rig.s), stale(&rig.s);
  Animate(rig, pose.p, 0.2);
  ASSERT_EQ(maniPose_SetRest(stale.p, &rig.s), mani_success);
  maniPose_SetLocal(stale.p, 0, rig.bones[0].rest);  // model not current
  ASSERT_FALSE(maniPose_IsModelCurrent(stale.p));
  Rig other(0.3);
  std::vector<maniRagdollBodyState> out(8);
  memset(out.data(), 0x5A, out.size() * sizeof out[0]);
  std::vector<maniRagdollBodyState> copy = out;
  maniTransform nanPlacement = kIdentity;
  nanPlacement.translation.y = NAN;
  maniTransform zeroRotation = kIdentity;
  zeroRotation.rotation = maniQuat{0, 0, 0, 0};
  uint32_t count = 77;
  auto call = [&](const maniRagdoll* r, const maniPose* ps, const maniTransform* pl, const maniPose* prev,
                  const maniTransform* pp, float sec, maniRagdollBodyState* o, uint32_t cap) {
    return maniRagdoll_ComputeBodiesFromPose(r, ps, pl, prev, pp, sec, o, cap, &count);
  };
  EXPECT_EQ(call(nullptr, pose.p, &kIdentity, nullptr, nullptr, 0, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, nullptr, &kIdentity, nullptr, nullptr, 0, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, nullptr, nullptr, nullptr, 0, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, nullptr, nullptr, 0, nullptr, 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, stale.p, &kIdentity, nullptr, nullptr, 0, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &nanPlacement, nullptr, nullptr, 0, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &zeroRotation, nullptr, nullptr, 0, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, pose.p, nullptr, 0.1f, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, stale.p, &kIdentity, 0.1f, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, pose.p, &nanPlacement, 0.1f, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, pose.p, &kIdentity, 0, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, pose.p, &kIdentity, -1, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, pose.p, &kIdentity, INFINITY, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, pose.p, &kIdentity, NAN, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(count, 77u);
  // A pose of another skeleton.
  Pose foreign(&other.s);
  Animate(other, foreign.p, 0.2);
  EXPECT_EQ(call(&p.r, foreign.p, &kIdentity, nullptr, nullptr, 0, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, foreign.p, &kIdentity, 0.1f, out.data(), 8), mani_errorInvalid);
  EXPECT_EQ(memcmp(out.data(), copy.data(), out.size() * sizeof out[0]), 0);
  EXPECT_EQ(count, 77u);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, nullptr, nullptr, 0, out.data(), 7), mani_errorCapacity);
  EXPECT_EQ(count, 8u);
  EXPECT_EQ(memcmp(out.data(), copy.data(), out.size() * sizeof out[0]), 0);
  EXPECT_EQ(call(&p.r, pose.p, &kIdentity, nullptr, nullptr, 0, nullptr, 0), mani_errorCapacity);
}

// -- Joint targets --------------------------------------------------------------------------

TEST(RagdollJoints, AreTheIdentityAtRestAndReadABonesTurnBack) {
  Rig rig;
  Profile p = Build(rig);
  Pose pose(&rig.s);
  ASSERT_EQ(maniPose_SetRest(pose.p, &rig.s), mani_success);
  ASSERT_EQ(maniPose_ComputeModel(pose.p, &rig.s), mani_success);
  maniTransform placement = T(1, 2, 3, AxisAngle(V{1, 1, 0}, 0.7));
  std::vector<maniRagdollBodyState> bodies(8);
  std::vector<maniRagdollJointTarget> joints(8);
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, pose.p, &placement, nullptr, nullptr, 0, bodies.data(), 8, nullptr),
            mani_success);
  uint32_t count = 0;
  ASSERT_EQ(maniRagdoll_ComputeJointTargets(&p.r, bodies.data(), joints.data(), 8, &count), mani_success);
  EXPECT_EQ(count, 8u);
  for (uint32_t k = 0; k < 8; ++k) EXPECT_LT(Angle(FromF(joints[k].rotation), Q{0, 0, 0, 1}), 1e-4) << k;
  EXPECT_EQ(joints[0].rotation.w, 1.0f);
  // The forearm (body 5) turned by 0.8 about its local x: its joint target
  // turns by 0.8 (about the joint frame's image of that axis).
  maniTransform fore = rig.bones[6].rest;
  fore.rotation = ToF(Mul(FromF(fore.rotation), AxisAngle(V{1, 0, 0}, 0.8)));
  maniPose_SetLocal(pose.p, 6, fore);
  ASSERT_EQ(maniPose_ComputeModel(pose.p, &rig.s), mani_success);
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, pose.p, &placement, nullptr, nullptr, 0, bodies.data(), 8, nullptr),
            mani_success);
  // Angular velocities: the child's spin less the parent's.
  bodies[5].angularVelocity = maniVec3{0, 2, 0};
  bodies[4].angularVelocity = maniVec3{0, 0.5f, 0};
  ASSERT_EQ(maniRagdoll_ComputeJointTargets(&p.r, bodies.data(), joints.data(), 8, &count), mani_success);
  EXPECT_NEAR(Angle(FromF(joints[5].rotation), Q{0, 0, 0, 1}), 0.8, 1e-5);
  for (uint32_t k = 0; k < 8; ++k)
    if (k != 5) {
      EXPECT_LT(Angle(FromF(joints[k].rotation), Q{0, 0, 0, 1}), 1e-4) << k;
    }
  maniRagdollBody b4;
  ASSERT_EQ(maniRagdoll_GetBody(&p.r, 5, &b4), mani_success);
  Rigid parentJoint = Mul(Rigid{FromF(bodies[4].position), FromF(bodies[4].rotation)}, FromFrame(b4.parentJoint));
  V rel = Rot(Conj(parentJoint.q), V{0, 1.5, 0});
  EXPECT_LT(Len(Sub(FromF(joints[5].angularVelocity), rel)), 1e-5);
  EXPECT_NEAR(Len(FromF(joints[5].angularVelocity)), 1.5, 1e-5);
  EXPECT_EQ(joints[0].angularVelocity.x, 0.0f);
  // Refusals.
  std::vector<maniRagdollJointTarget> copy = joints;
  count = 0;
  EXPECT_EQ(maniRagdoll_ComputeJointTargets(nullptr, bodies.data(), joints.data(), 8, &count), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeJointTargets(&p.r, nullptr, joints.data(), 8, &count), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeJointTargets(&p.r, bodies.data(), nullptr, 8, &count), mani_errorInvalid);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(maniRagdoll_ComputeJointTargets(&p.r, bodies.data(), joints.data(), 7, &count), mani_errorCapacity);
  EXPECT_EQ(count, 8u);
  EXPECT_EQ(memcmp(joints.data(), copy.data(), joints.size() * sizeof joints[0]), 0);
}

// -- Poses from bodies ----------------------------------------------------------------------

TEST(RagdollPose, BodiesFromAPoseGiveThePoseBack) {
  Rig rig;
  Profile p = Build(rig);
  Pose pose(&rig.s), back(&rig.s), rest(&rig.s);
  Animate(rig, pose.p, 2.3);
  ASSERT_EQ(maniPose_SetRest(rest.p, &rig.s), mani_success);
  maniTransform placement = T(-1, 0.2, 4, AxisAngle(V{0, 1, 0.2}, -1.1));
  std::vector<maniRagdollBodyState> bodies(8);
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, pose.p, &placement, nullptr, nullptr, 0, bodies.data(), 8, nullptr),
            mani_success);
  // With the pose itself as the reference: every bone's model comes back.
  ASSERT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, &placement, pose.p, back.p), mani_success);
  EXPECT_TRUE(maniPose_IsModelCurrent(back.p));
  for (uint32_t b = 0; b < rig.bones.size(); ++b) {
    maniTransform x = maniPose_GetModelTransform(pose.p, b), y = maniPose_GetModelTransform(back.p, b);
    EXPECT_LT(Len(Sub(FromF(x.translation), FromF(y.translation))), 2e-5) << b;
    EXPECT_LT(Angle(FromF(x.rotation), FromF(y.rotation)), 2e-4) << b;
  }
  // With the rest as the reference: the bones without a body (neck, tail)
  // keep the rest's locals; the head (below the neck) still lands where its
  // body is.
  ASSERT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, &placement, rest.p, back.p), mani_success);
  for (uint32_t b : {3u, 9u}) {
    maniTransform l = maniPose_GetLocal(back.p, b);
    EXPECT_EQ(memcmp(&l, &rig.bones[b].rest, sizeof l), 0) << b;
  }
  for (uint32_t b : {0u, 1u, 2u, 4u, 5u, 6u, 7u, 8u}) {
    maniTransform x = maniPose_GetModelTransform(pose.p, b), y = maniPose_GetModelTransform(back.p, b);
    EXPECT_LT(Len(Sub(FromF(x.translation), FromF(y.translation))), 2e-5) << b;
    EXPECT_LT(Angle(FromF(x.rotation), FromF(y.rotation)), 2e-4) << b;
  }
  // The reference as the output.
  ASSERT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, &placement, rest.p, rest.p), mani_success);
  EXPECT_EQ(memcmp(rest.Bytes().data(), back.Bytes().data(), rest.size), 0);
}

TEST(RagdollPose, RefusesEachArgumentAndLeavesThePoseUnchanged) {
  Rig rig, other(0.3);
  Profile p = Build(rig);
  Pose pose(&rig.s), out(&rig.s);
  Animate(rig, pose.p, 0.4);
  Animate(rig, out.p, 1.4);
  std::vector<maniRagdollBodyState> bodies(8);
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, pose.p, &kIdentity, nullptr, nullptr, 0, bodies.data(), 8, nullptr),
            mani_success);
  const std::vector<uint8_t> before = out.Bytes();
  auto unchanged = [&] { return out.Bytes() == before; };
  Pose foreign(&other.s);
  maniTransform nan = kIdentity;
  nan.translation.z = NAN;
  maniTransform half = kIdentity;
  half.rotation.w = 0.5f;
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(nullptr, &rig.s, bodies.data(), 8, &kIdentity, pose.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, nullptr, bodies.data(), 8, &kIdentity, pose.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, nullptr, 8, &kIdentity, pose.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, nullptr, pose.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, &kIdentity, nullptr, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, &kIdentity, pose.p, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &other.s, bodies.data(), 8, &kIdentity, pose.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, &kIdentity, foreign.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, &nan, pose.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 8, &half, pose.p, out.p), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bodies.data(), 7, &kIdentity, pose.p, out.p), mani_errorCapacity);
  std::vector<maniRagdollBodyState> bad = bodies;
  bad[6].position.x = INFINITY;
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bad.data(), 8, &kIdentity, pose.p, out.p), mani_errorInvalid);
  bad = bodies;
  bad[7].rotation = maniQuat{0, 0, 0, 0.9f};
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig.s, bad.data(), 8, &kIdentity, pose.p, out.p), mani_errorInvalid);
  EXPECT_TRUE(unchanged());
}

// -- The get-up placement ---------------------------------------------------------------------

// Bodies with the root body's rotation q at position p (the others copied).
std::vector<maniRagdollBodyState> Lying(Q q, V p) {
  std::vector<maniRagdollBodyState> v(8);
  for (auto& b : v) {
    memset(&b, 0, sizeof b);
    b.rotation = maniQuat{0, 0, 0, 1};
  }
  v[0].rotation = ToF(q);
  v[0].position = ToF(p);
  return v;
}

// The rotation taking the profile's root axes (facing +z, up +y in its
// frame) to world facing f and up u (perpendicular unit vectors).
Q Orient(V f, V u) {
  // Columns: the frame's x = u x f ... build the matrix [x y z] = [s u f],
  // s = u x f, and turn it into a quaternion.
  V s{u.y * f.z - u.z * f.y, u.z * f.x - u.x * f.z, u.x * f.y - u.y * f.x};
  double m[3][3] = {{s.x, u.x, f.x}, {s.y, u.y, f.y}, {s.z, u.z, f.z}};
  double tr = m[0][0] + m[1][1] + m[2][2];
  Q q;
  if (tr > 0) {
    double r = std::sqrt(1 + tr) * 2;
    q = Q{(m[2][1] - m[1][2]) / r, (m[0][2] - m[2][0]) / r, (m[1][0] - m[0][1]) / r, r / 4};
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    double r = std::sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
    q = Q{r / 4, (m[0][1] + m[1][0]) / r, (m[0][2] + m[2][0]) / r, (m[2][1] - m[1][2]) / r};
  } else if (m[1][1] > m[2][2]) {
    double r = std::sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
    q = Q{(m[0][1] + m[1][0]) / r, r / 4, (m[1][2] + m[2][1]) / r, (m[0][2] - m[2][0]) / r};
  } else {
    double r = std::sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
    q = Q{(m[0][2] + m[2][0]) / r, (m[1][2] + m[2][1]) / r, r / 4, (m[1][0] - m[0][1]) / r};
  }
  return q;
}

V Unit(V v) { return Scale(v, 1 / Len(v)); }

TEST(RagdollGetUp, FollowsTheHeadFaceDownTheFeetFaceUpAndTheChestUpright) {
  Rig rig;
  Profile p = Build(rig);
  maniRagdoll& r = p.r;
  // Make the model's axes plain (forward +z, up +y) for readable
  // expectations: the view's copies are what the computation reads.
  r.modelForward = maniVec3{0, 0, 1};
  r.modelUp = maniVec3{0, 1, 0};
  maniRagdollGround ground{maniVec3{0, 0.1f, 0}, maniVec3{0, 1, 0}};
  struct Case {
    const char* what;
    V facing, up, heading;
    uint32_t faceUp;
  };
  const V head = Unit(V{1, 0, 1});
  const std::vector<Case> cases = {
      {"on its back", V{0, 1, 0}, head, Scale(head, -1), 1},
      {"on its front", V{0, -1, 0}, head, head, 0},
      {"on its side", Unit(V{1, 0, -1}), head, Scale(head, -1), 1},
      {"upright", V{0, 0, -1}, V{0, 1, 0}, V{0, 0, -1}, 1},
      {"sitting back", Unit(V{0, 1, -1}), Unit(V{0, 1, 1}), Unit(V{0, 0, -1}), 1},
      {"head down", V{0, 0, 1}, V{0, -1, 0}, V{0, 0, -1}, 1},
  };
  for (const Case& k : cases) {
    ASSERT_LT(std::fabs(Dot(k.facing, k.up)), 1e-9) << k.what;
    Q q = Orient(k.facing, k.up);
    V pos{2, 0.6, -3};
    std::vector<maniRagdollBodyState> bodies = Lying(q, pos);
    maniRagdollGetUp g;
    ASSERT_EQ(maniRagdoll_ComputeGetUpPlacement(&r, bodies.data(), 8, &ground, &g), mani_success) << k.what;
    EXPECT_EQ(g.faceUp, k.faceUp) << k.what;
    EXPECT_LT(Len(Sub(FromF(g.heading), k.heading)), 1e-5) << k.what;
    EXPECT_NEAR(g.placement.translation.x, 2, 1e-6);
    EXPECT_NEAR(g.placement.translation.y, 0.1, 1e-6);
    EXPECT_NEAR(g.placement.translation.z, -3, 1e-6);
    EXPECT_EQ(g.placement.scale.x, 1.0f);
    V mu = Rot(FromF(g.placement.rotation), V{0, 1, 0}), mf = Rot(FromF(g.placement.rotation), V{0, 0, 1});
    EXPECT_LT(Len(Sub(mu, V{0, 1, 0})), 1e-5) << k.what;
    EXPECT_LT(Len(Sub(mf, k.heading)), 1e-5) << k.what;
  }
  // A sloped ground: the placement on the plane, up along its normal.
  V n = Unit(V{0.3, 1, -0.2});
  maniRagdollGround slope{maniVec3{1, 2, 3}, ToF(n)};
  std::vector<maniRagdollBodyState> bodies = Lying(Orient(V{0, 1, 0}, V{1, 0, 0}), V{4, 5, 6});
  maniRagdollGetUp g;
  ASSERT_EQ(maniRagdoll_ComputeGetUpPlacement(&r, bodies.data(), 8, &slope, &g), mani_success);
  V at = FromF(g.placement.translation);
  EXPECT_NEAR(Dot(Sub(at, V{1, 2, 3}), n), 0, 1e-5);
  V off = Sub(V{4, 5, 6}, at);
  EXPECT_LT(Len(Sub(off, Scale(n, Dot(off, n)))), 1e-5);  // straight under the root
  EXPECT_LT(Len(Sub(Rot(FromF(g.placement.rotation), V{0, 1, 0}), n)), 1e-5);
  EXPECT_NEAR(Dot(FromF(g.heading), n), 0, 1e-6);
  EXPECT_LT(Dot(FromF(g.heading), V{1, 0, 0}), -0.9);  // face up: toward the feet
}

TEST(RagdollGetUp, RefusesEachArgumentAndLeavesThePlacementUnchanged) {
  Rig rig;
  Profile p = Build(rig);
  std::vector<maniRagdollBodyState> bodies = Lying(Q{0, 0, 0, 1}, V{0, 1, 0});
  maniRagdollGround ground{maniVec3{0, 0, 0}, maniVec3{0, 1, 0}};
  maniRagdollGetUp g;
  memset(&g, 0x33, sizeof g);
  const maniRagdollGetUp copy = g;
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(nullptr, bodies.data(), 8, &ground, &g), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, nullptr, 8, &ground, &g), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies.data(), 8, nullptr, &g), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies.data(), 8, &ground, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies.data(), 7, &ground, &g), mani_errorCapacity);
  maniRagdollGround bad = ground;
  bad.point.x = NAN;
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies.data(), 8, &bad, &g), mani_errorInvalid);
  bad = ground;
  bad.normal.y = 1.01f;
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies.data(), 8, &bad, &g), mani_errorInvalid);
  std::vector<maniRagdollBodyState> b = bodies;
  b[0].position.y = INFINITY;
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, b.data(), 8, &ground, &g), mani_errorInvalid);
  b = bodies;
  b[3].rotation.w = 0.99f;
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, b.data(), 8, &ground, &g), mani_errorInvalid);
  maniRagdoll axes = p.r;
  axes.up = maniVec3{0, 1.01f, 0};
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&axes, bodies.data(), 8, &ground, &g), mani_errorInvalid);
  axes = p.r;
  axes.up = maniVec3{0, 0.99995f, 0.01f};
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&axes, bodies.data(), 8, &ground, &g), mani_errorInvalid);
  EXPECT_EQ(memcmp(&g, &copy, sizeof g), 0);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies.data(), 8, &ground, &g), mani_success);
}

}  // namespace

// -- maniGltf_ReadRagdoll ------------------------------------------------------------------

#include <fstream>
#include <iterator>
#include <string>

#include "maul/anim/import.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

const char kOmiDoc[] = R"({
 "asset": {"version": "2.0"},
 "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint"],
 "extensions": {
  "OMI_physics_shape": {"shapes": [
   {"type": "box", "box": {"size": [0.4, 0.2, 0.2]}},
   {"type": "capsule", "capsule": {"radius": 0.05, "height": 0.5}},
   {"type": "sphere", "sphere": {"radius": 0.1}}]},
  "OMI_physics_joint": {"physicsJoints": [
   {"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0},
               {"angularAxes": [0], "min": -0.5, "max": 0.25},
               {"angularAxes": [1, 2], "min": -0.8, "max": 0.6}],
    "drives": [{"type": "angular", "mode": "force", "axis": 0, "stiffness": 50, "damping": 2},
               {"type": "angular", "mode": "force", "axis": 1, "stiffness": 50, "damping": 2}]}]}},
 "nodes": [
  {"name": "root", "children": [1]},
  {"name": "hips", "translation": [0, 1, 0], "children": [2, 3, 5],
   "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 12}, "collider": {"shape": 0}}}},
  {"name": "spine", "translation": [0, 0.3, 0], "children": [4],
   "extensions": {"OMI_physics_body": {"motion": {"type": "kinematic", "mass": 8}}}},
  {"name": "hipsJoint", "translation": [0, 0.1, 0],
   "extensions": {"OMI_physics_joint": {"connectedNode": 2, "joint": 0}}},
  {"name": "spineCollider", "translation": [0, 0.1, 0], "scale": [2, 2, 2],
   "extensions": {"OMI_physics_body": {"collider": {"shape": SHAPE}}}},
  {"name": "floor", "extensions": {"OMI_physics_body": {"motion": {"type": "static"}}}}],
 "skins": [{"joints": [1, 2]}],
 "scenes": [{"nodes": [0]}], "scene": 0
})";

struct Doc {
  Builder b;
  maniGltf* g = nullptr;
  File skeletonFile;
  maniSkeleton s;
  std::string text;
  Doc(const std::string& t, bool nodeSkeleton, float unit = 1) : text(t) {
    EXPECT_EQ(maniOpenGltf(b.b, text.data(), text.size(), &g).result, mani_success);
    maniGltfOptions o = maniDefaultGltfOptions();
    o.unitScale = unit;
    maniImportResult r = nodeSkeleton ? maniBuildGltfNodeSkeleton(b.b, g, 0, &o) : maniBuildGltfSkeleton(b.b, g, 0, &o);
    EXPECT_EQ(r.result, mani_success);
    skeletonFile = b.Built();
    EXPECT_EQ(maniOpenSkeleton(skeletonFile.data(), skeletonFile.size, &s).result, mani_success);
  }
  ~Doc() { maniCloseGltf(g); }
};

std::string WithShape(const char* shape) {
  std::string t = kOmiDoc;
  t.replace(t.find("SHAPE"), 5, shape);
  return t;
}

TEST(RagdollGltf, ReadsBodiesShapesJointsAndDrivesFromOmiPhysics) {
  for (float unit : {1.0f, 100.0f}) {
    Doc d(WithShape("1"), false, unit);
    maniGltfOptions o = maniDefaultGltfOptions();
    o.unitScale = unit;
    maniRagdollSource src;
    ASSERT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, maniVec3{0, 0, 1}, maniVec3{0, 1, 0}, &src).result, mani_success);
    ASSERT_EQ(src.bodyCount, 2u);
    const maniRagdollSourceBody& hips = src.bodies[0];
    const maniRagdollSourceBody& spine = src.bodies[1];
    EXPECT_EQ(hips.bone, maniSkeleton_FindBone(&d.s, "hips", 4));
    EXPECT_EQ(spine.bone, maniSkeleton_FindBone(&d.s, "spine", 5));
    EXPECT_EQ(hips.shape, (uint32_t)maniRagdollShapeBox);
    EXPECT_NEAR(hips.size.x, 0.2 * unit, 1e-5 * unit);
    EXPECT_NEAR(hips.size.y, 0.1 * unit, 1e-5 * unit);
    EXPECT_EQ(hips.mass, 12.0f);
    EXPECT_EQ(hips.motion, (uint32_t)maniRagdollMotionDynamic);
    EXPECT_NEAR(hips.frame.translation.y, 0, 1e-6);
    EXPECT_EQ(spine.motion, (uint32_t)maniRagdollMotionKinematic);
    EXPECT_EQ(spine.mass, 8.0f);
    EXPECT_EQ(spine.shape, (uint32_t)maniRagdollShapeCapsule);
    EXPECT_NEAR(spine.size.x, 0.1 * unit, 1e-5 * unit);  // radius 0.05 times scale 2
    EXPECT_NEAR(spine.size.y, 1.0 * unit, 1e-5 * unit);  // height 0.5 times 2
    EXPECT_NEAR(spine.frame.translation.y, 0.1 * unit, 1e-5 * unit);
    EXPECT_NEAR(spine.joint.translation.y, -0.1 * unit, 1e-5 * unit);  // the spine node in the collider's frame
    EXPECT_EQ(spine.twistMin, -0.5f);
    EXPECT_EQ(spine.twistMax, 0.25f);
    EXPECT_EQ(spine.swingY, 0.8f);
    EXPECT_EQ(spine.swingZ, 0.8f);
    EXPECT_EQ(spine.driveStiffness, 50.0f);
    EXPECT_EQ(spine.driveDamping, 2.0f);
    EXPECT_EQ(hips.twistMin, -MANI_RAGDOLL_MAX_ANGLE);  // no joint: free
    EXPECT_NEAR(src.facing.z, 1, 1e-6);
    EXPECT_NEAR(src.up.y, 1, 1e-6);
    // The source builds.
    Builder b;
    maniBuildResult r = maniBuildRagdoll(b.b, &src);
    EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  }
}

TEST(RagdollGltf, RefusesArgumentsAndBadPropertiesAndGivesEmptySourcesWithoutBodies) {
  Doc d(WithShape("1"), false);
  maniGltfOptions o = maniDefaultGltfOptions();
  maniRagdollSource src;
  memset(&src, 0x5A, sizeof src);
  const maniRagdollSource copy = src;
  const maniVec3 f{0, 0, 1}, u{0, 1, 0};
  EXPECT_EQ(maniGltf_ReadRagdoll(nullptr, &d.s, &o, f, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, nullptr, &o, f, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, nullptr, f, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, f, u, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, maniVec3{0, 0, 2}, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, f, f, &src).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&src, &copy, sizeof src), 0);
  Doc bad(WithShape("7"), false);
  maniImportResult r = maniGltf_ReadRagdoll(bad.g, &bad.s, &o, f, u, &src);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
  EXPECT_EQ(r.item, 4u);
  EXPECT_EQ(memcmp(&src, &copy, sizeof src), 0);
  // A skeleton without the bodies' bones: an empty source.
  Skel named(5, 4);  // bones "bone-<k>"
  ASSERT_EQ(maniGltf_ReadRagdoll(d.g, &named.s, &o, f, u, &src).result, mani_success);
  EXPECT_EQ(src.bodyCount, 0u);
}

std::string SharedData() { return MaulSharedData(); }

// OMI's rigid example: its two dynamic bodies (the floor static), capsules
// of radius 0.05 and height 0.5 under colliders turned a quarter about z.
TEST(RagdollGltf, ReadsTheOmiSimpleJointExample) {
  std::ifstream in(SharedData() + "/gltf/omi/OMI_physics_joint/simple_joint.gltf", std::ios::binary);
  if (!in) GTEST_SKIP() << "../shared/data/gltf/omi not present";
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Doc d(text, true);
  maniGltfOptions o = maniDefaultGltfOptions();
  maniRagdollSource src;
  ASSERT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, maniVec3{0, 0, 1}, maniVec3{0, 1, 0}, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 2u);
  for (uint32_t k = 0; k < 2; ++k) {
    EXPECT_EQ(src.bodies[k].shape, (uint32_t)maniRagdollShapeCapsule);
    EXPECT_NEAR(src.bodies[k].size.x, 0.05, 1e-6);
    EXPECT_NEAR(src.bodies[k].size.y, 0.5, 1e-6);
    EXPECT_NEAR(std::fabs(src.bodies[k].frame.rotation.z), std::sqrt(0.5), 1e-6);
  }
  // Both bodies have no body above them: two roots, which a profile refuses.
  Builder b;
  EXPECT_EQ(maniBuildRagdoll(b.b, &src).reason, (uint32_t)maniBuildReasonJoint);
}

}  // namespace
