// Break-it probes of ragdoll profiles (ragdoll.h, maniBuildRagdoll), written
// from the header and the reference alone: build refusals with their reason,
// item and other; the open's argument checks and unchanged output; bodies
// from poses with velocities (the angular one by the shortest turn) and
// every refusal leaving the output as it was; the get-up placement exactly
// as the paragraph defines it, lying face down and face up. Every expected
// value is derived here in binary64 from hand-placed frames.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/probe_rig.h"
#include "maul/anim/build.h"
#include "maul/anim/pose.h"
#include "maul/anim/ragdoll.h"

namespace {

using probe::AxisAngle;
using probe::Mul;
using probe::Of;
using probe::Q;
using probe::Rot;
using probe::V;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const double kPi = 3.14159265358979323846;

maniTransform Id() {
  maniTransform t;
  t.translation = {0, 0, 0};
  t.rotation = {0, 0, 0, 1};
  t.scale = {1, 1, 1};
  return t;
}

// root -> spine (0,1,0) -> head (0,0.5,0); bodies on the root and the spine.
probe::Rig* MakeRig() {
  return new probe::Rig({{MANI_NO_BONE, {0, 0, 0}, {}}, {0, {0, 1, 0}, {}}, {1, {0, 0.5, 0}, {}}});
}

maniRagdollSourceBody Body(uint32_t bone) {
  maniRagdollSourceBody b;
  memset(&b, 0, sizeof b);
  b.bone = bone;
  b.shape = maniRagdollShapeSphere;
  b.motion = maniRagdollMotionDynamic;
  b.size = {0.1f, 0, 0};
  b.mass = 1;
  b.frame = Id();
  b.joint = Id();
  b.twistMin = -0.5f;
  b.twistMax = 0.5f;
  b.swingY = 0.5f;
  b.swingZ = 0.5f;
  return b;
}

struct Src {
  maniRagdollSourceBody bodies[2] = {Body(0), Body(1)};
  maniRagdollSource src;
  explicit Src(const maniSkeleton* s) {
    memset(&src, 0, sizeof src);
    src.skeleton = s;
    src.bodies = bodies;
    src.bodyCount = 2;
    src.facing = {0, 0, 1};
    src.up = {0, 1, 0};
  }
};

struct Profile {
  File file;
  maniRagdoll r;
  explicit Profile(const maniRagdollSource& src) {
    Builder b;
    EXPECT_EQ(maniBuildRagdoll(b.b, &src).result, mani_success);
    file = b.Built();
    EXPECT_EQ(maniOpenRagdoll(file.data(), file.size, &r).result, mani_success);
  }
};

void ExpectBuild(const maniRagdollSource& src, maniResult code, uint32_t reason, uint64_t item, uint64_t other,
                 const char* what) {
  Builder b;
  maniBuildResult r = maniBuildRagdoll(b.b, &src);
  EXPECT_EQ(r.result, code) << what;
  EXPECT_EQ(r.reason, reason) << what;
  EXPECT_EQ(r.item, item) << what;
  EXPECT_EQ(r.other, other) << what;
}

TEST(RagdollProbeBuild, Refusals) {
  std::unique_ptr<probe::Rig> rig(MakeRig());
  {
    Src s(&rig->s);
    Builder b;
    EXPECT_EQ(maniBuildRagdoll(nullptr, &s.src).result, mani_errorInvalid);
    EXPECT_EQ(maniBuildRagdoll(b.b, nullptr).result, mani_errorInvalid);
  }
  {
    Src s(&rig->s);
    s.bodies[1].bone = 3;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonJoint, 1, 3, "bone past the skeleton");
  }
  {
    Src s(&rig->s);
    s.bodies[1].bone = 0;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonRepeatedJoint, 1, 0, "two bodies on a bone");
  }
  {
    Src s(&rig->s);
    s.src.bodyCount = 0;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonCount, 0, 0, "no bodies");
    s.src.bodyCount = 4;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonCount, 0, 0, "more bodies than bones");
    s.src.bodyCount = 2;
    s.src.bodies = nullptr;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonCount, 0, 0, "NULL bodies");
  }
  {
    std::string name(MANI_MAX_NAME_BYTES + 1, 'n');
    Src s(&rig->s);
    s.bodies[1].name = name.c_str();
    s.bodies[1].nameLength = name.size();
    Builder b;
    maniBuildResult r = maniBuildRagdoll(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorLimit);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonName);
    EXPECT_EQ(r.item, 1u);
    s.bodies[1].name = nullptr;
    s.bodies[1].nameLength = 3;
    r = maniBuildRagdoll(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonName);
    EXPECT_EQ(r.item, 1u);
  }
  // Field refusals: other names the field (the reason NotFinite or Option).
  struct Mut {
    const char* what;
    uint32_t field;
    void (*f)(maniRagdollSourceBody*);
  } muts[] = {
      {"shape past", MANI_RAGDOLL_FIELD_SHAPE, [](maniRagdollSourceBody* b) { b->shape = 3; }},
      {"motion past", MANI_RAGDOLL_FIELD_MOTION, [](maniRagdollSourceBody* b) { b->motion = 2; }},
      {"radius 0", MANI_RAGDOLL_FIELD_SIZE, [](maniRagdollSourceBody* b) { b->size.x = 0; }},
      {"unused size", MANI_RAGDOLL_FIELD_SIZE, [](maniRagdollSourceBody* b) { b->size.y = 0.1f; }},
      {"mass 0", MANI_RAGDOLL_FIELD_MASS, [](maniRagdollSourceBody* b) { b->mass = 0; }},
      {"mass NaN", MANI_RAGDOLL_FIELD_MASS, [](maniRagdollSourceBody* b) { b->mass = kNaN; }},
      {"frame rotation 0", MANI_RAGDOLL_FIELD_FRAME, [](maniRagdollSourceBody* b) { b->frame.rotation = {0, 0, 0, 0}; }},
      {"frame NaN", MANI_RAGDOLL_FIELD_FRAME, [](maniRagdollSourceBody* b) { b->frame.translation.z = kNaN; }},
      {"joint rotation 0", MANI_RAGDOLL_FIELD_JOINT, [](maniRagdollSourceBody* b) { b->joint.rotation = {0, 0, 0, 0}; }},
      {"twist min > max", MANI_RAGDOLL_FIELD_LIMIT, [](maniRagdollSourceBody* b) { b->twistMin = 0.6f; }},
      {"twist past pi", MANI_RAGDOLL_FIELD_LIMIT,
       [](maniRagdollSourceBody* b) { b->twistMax = std::nextafter(MANI_RAGDOLL_MAX_ANGLE, 4.0f); }},
      {"swing negative", MANI_RAGDOLL_FIELD_LIMIT, [](maniRagdollSourceBody* b) { b->swingY = -0.1f; }},
      {"drive negative", MANI_RAGDOLL_FIELD_DRIVE, [](maniRagdollSourceBody* b) { b->driveDamping = -1; }},
  };
  for (const Mut& m : muts) {
    Src s(&rig->s);
    m.f(&s.bodies[1]);
    Builder b;
    maniBuildResult r = maniBuildRagdoll(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorInvalid) << m.what;
    EXPECT_TRUE(r.reason == maniBuildReasonNotFinite || r.reason == maniBuildReasonOption) << m.what;
    EXPECT_EQ(r.item, 1u) << m.what;
    EXPECT_EQ(r.other, m.field) << m.what;
  }
  {
    Src s(&rig->s);
    s.bodies[1].twistMin = -MANI_RAGDOLL_MAX_ANGLE;
    s.bodies[1].twistMax = MANI_RAGDOLL_MAX_ANGLE;
    s.bodies[1].swingY = MANI_RAGDOLL_MAX_ANGLE;
    ExpectBuild(s.src, mani_success, maniBuildReasonNone, 0, 0, "limits of a half turn");
  }
  {
    Src s(&rig->s);
    s.src.up = {0, 0.7f, 0.7f};
    Builder b;
    maniBuildResult r = maniBuildRagdoll(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.other, MANI_RAGDOLL_FIELD_AXES);
    EXPECT_EQ(r.item, 0u);  // the root body
  }
}

TEST(RagdollProbeOpen, ArgumentsAndUnchanged) {
  std::unique_ptr<probe::Rig> rig(MakeRig());
  Src s(&rig->s);
  Profile p(s.src);
  maniRagdoll sentinel, v;
  memset(&sentinel, 0x6B, sizeof sentinel);
  v = sentinel;
  EXPECT_EQ(maniOpenRagdoll(nullptr, p.file.size, &v).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenRagdoll(p.file.data(), p.file.size, nullptr).result, mani_errorInvalid);
  std::vector<uint64_t> w(p.file.size / 8 + 4);
  uint8_t* skew = reinterpret_cast<uint8_t*>(w.data()) + 4;
  memcpy(skew, p.file.data(), p.file.size);
  EXPECT_EQ(maniOpenRagdoll(skew, p.file.size, &v).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&v, &sentinel, sizeof v), 0);
  ExpectEveryMutationRefused(p.file.data(), p.file.size, [&](const void* b, size_t n) {
    maniRagdoll o = sentinel;
    maniFileResult r = maniOpenRagdoll(b, n, &o);
    if (r.result != mani_success) {
      EXPECT_EQ(memcmp(&o, &sentinel, sizeof o), 0);
    }
    return r;
  });
  maniRagdoll zero;
  memset(&zero, 0, sizeof zero);
  for (const maniRagdoll* z : {(const maniRagdoll*)nullptr, (const maniRagdoll*)&zero}) {
    EXPECT_EQ(maniRagdoll_GetIdentity(z), 0u);
    EXPECT_EQ(maniRagdoll_GetBodyCount(z), 0u);
    maniRagdollBody body;
    EXPECT_EQ(maniRagdoll_GetBody(z, 0, &body), mani_errorInvalid);
  }
  maniRagdollBody body, bs;
  memset(&bs, 0x3C, sizeof bs);
  body = bs;
  EXPECT_EQ(maniRagdoll_GetBody(&p.r, 2, &body), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_GetBody(&p.r, 0, nullptr), mani_errorInvalid);
  EXPECT_EQ(memcmp(&body, &bs, sizeof body), 0);
  ASSERT_EQ(maniRagdoll_GetBody(&p.r, 1, &body), mani_success);
  EXPECT_EQ(body.bone, 1u);
  EXPECT_EQ(body.parent, 0u);
  // the joint's frame in the parent at rest: the spine's rest offset (0, 1, 0)
  EXPECT_NEAR(body.parentJoint.position.y, 1.0, 1e-6);
  ASSERT_EQ(maniRagdoll_GetBody(&p.r, 0, &body), mani_success);
  EXPECT_EQ(body.parent, MANI_RAGDOLL_NO_BODY);
}

struct Pose {
  std::vector<uint64_t> mem;
  maniPose* p = nullptr;
  explicit Pose(const maniSkeleton* s) {
    size_t size = maniSkeleton_GetPoseSize(s);
    mem.assign(size / 8 + 8, 0);
    uintptr_t a = (reinterpret_cast<uintptr_t>(mem.data()) + 31) & ~uintptr_t(31);
    EXPECT_EQ(maniInitPose(s, reinterpret_cast<void*>(a), size, &p), mani_success);
    EXPECT_EQ(maniPose_SetRest(p, s), mani_success);
  }
};

// The root turned +170 degrees about y, then -170: the shortest turn is +20
// degrees, so over 0.5 s the angular velocity is 40 degrees a second about +y
// (not -680). The placement moved by (1, 0, 0): 2 units a second.
TEST(RagdollProbeBodies, VelocitiesTakeTheShortestTurn) {
  std::unique_ptr<probe::Rig> rig(MakeRig());
  Src s(&rig->s);
  Profile p(s.src);
  Pose now(&rig->s), before(&rig->s);
  const double a = 170 * kPi / 180;
  maniTransform r0 = Id(), r1 = Id();
  r0.rotation = probe::FQ(AxisAngle({0, 1, 0}, a));
  r1.rotation = probe::FQ(AxisAngle({0, 1, 0}, -a));
  maniPose_SetLocal(before.p, 0, r0);
  maniPose_SetLocal(now.p, 0, r1);
  ASSERT_EQ(maniPose_ComputeModel(before.p, &rig->s), mani_success);
  ASSERT_EQ(maniPose_ComputeModel(now.p, &rig->s), mani_success);
  maniTransform place = Id(), prevPlace = Id();
  place.translation = {1, 0, 0};
  maniRagdollBodyState out[2];
  uint32_t count = 0;
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &place, before.p, &prevPlace, 0.5f, out, 2, &count),
            mani_success);
  EXPECT_EQ(count, 2u);
  const double w = (2 * kPi - 2 * a) / 0.5;  // +20 degrees in 0.5 s
  for (int b = 0; b < 2; ++b) {
    EXPECT_NEAR(out[b].angularVelocity.x, 0, 1e-4) << b;
    EXPECT_NEAR(out[b].angularVelocity.y, w, 1e-4) << b;
    EXPECT_NEAR(out[b].angularVelocity.z, 0, 1e-4) << b;
    EXPECT_NEAR(out[b].linearVelocity.x, 2, 1e-4) << b;
    EXPECT_NEAR(out[b].linearVelocity.y, 0, 1e-4) << b;
    EXPECT_NEAR(out[b].linearVelocity.z, 0, 1e-4) << b;
  }
  // the spine body at (1, 1, 0), turned with the root
  EXPECT_NEAR(out[1].position.x, 1, 1e-5);
  EXPECT_NEAR(out[1].position.y, 1, 1e-5);
  EXPECT_NEAR(probe::QDist(Of(out[1].rotation), AxisAngle({0, 1, 0}, -a)), 0, 1e-5);
  // previous NULL: velocities 0
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &place, nullptr, nullptr, kNaN, out, 2, &count),
            mani_success);
  for (int b = 0; b < 2; ++b) {
    EXPECT_EQ(out[b].linearVelocity.x, 0.0f);
    EXPECT_EQ(out[b].angularVelocity.y, 0.0f);
  }
}

TEST(RagdollProbeBodies, RefusalsLeaveTheOutputUnchanged) {
  std::unique_ptr<probe::Rig> rig(MakeRig());
  Src s(&rig->s);
  Profile p(s.src);
  Pose now(&rig->s), before(&rig->s);
  ASSERT_EQ(maniPose_ComputeModel(before.p, &rig->s), mani_success);
  ASSERT_EQ(maniPose_ComputeModel(now.p, &rig->s), mani_success);
  maniTransform place = Id();
  maniRagdollBodyState out[2], sentinel[2];
  memset(sentinel, 0x77, sizeof sentinel);
  memcpy(out, sentinel, sizeof out);
  uint32_t count = 99;
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &place, nullptr, nullptr, 0, out, 1, &count),
            mani_errorCapacity);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &place, nullptr, nullptr, 0, nullptr, 2, &count),
            mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(nullptr, now.p, &place, nullptr, nullptr, 0, out, 2, &count),
            mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, nullptr, &place, nullptr, nullptr, 0, out, 2, &count),
            mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, nullptr, nullptr, nullptr, 0, out, 2, &count),
            mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &place, before.p, nullptr, 0.1f, out, 2, &count),
            mani_errorInvalid);
  for (float sec : {0.0f, -0.1f, kNaN, std::numeric_limits<float>::infinity()})
    EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &place, before.p, &place, sec, out, 2, &count),
              mani_errorInvalid)
        << sec;
  maniTransform bad = place;
  bad.translation.y = kNaN;
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &bad, nullptr, nullptr, 0, out, 2, &count),
            mani_errorInvalid);
  bad = place;
  bad.rotation = {0, 0, 0, 0};
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &bad, nullptr, nullptr, 0, out, 2, &count),
            mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &place, before.p, &bad, 0.1f, out, 2, &count),
            mani_errorInvalid);
  // a model not current
  maniPose_SetLocal(now.p, 1, Id());
  EXPECT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, now.p, &place, nullptr, nullptr, 0, out, 2, &count),
            mani_errorInvalid);
  EXPECT_EQ(memcmp(out, sentinel, sizeof out), 0);
}

// A pose with the root and the spine turned, under a placement: bodies from
// it, then a pose from those bodies under the same placement, gives the
// pose's locals back (the head, without a body, the reference's); the joint
// target of the spine is its local turn (joint frames identity), the root's
// the identity, and with bodies at rest the relative angular velocity 0.
TEST(RagdollProbeBodies, PoseRoundTripAndJointTargets) {
  std::unique_ptr<probe::Rig> rig(MakeRig());
  Src s(&rig->s);
  Profile p(s.src);
  Pose pose(&rig->s), back(&rig->s), rest(&rig->s);
  maniTransform l0 = Id(), l1 = Id();
  l0.translation = {0.5f, 0.25f, -1};
  l0.rotation = probe::FQ(AxisAngle({1, 2, 3}, 0.7));
  l1.translation = {0, 1, 0};
  const Q spin = AxisAngle({0, 0, 1}, 0.4);
  l1.rotation = probe::FQ(spin);
  maniPose_SetLocal(pose.p, 0, l0);
  maniPose_SetLocal(pose.p, 1, l1);
  ASSERT_EQ(maniPose_ComputeModel(pose.p, &rig->s), mani_success);
  maniTransform place = Id();
  place.translation = {2, 0, 3};
  place.rotation = probe::FQ(AxisAngle({0, 1, 0}, 1.1));
  maniRagdollBodyState bodies[2];
  ASSERT_EQ(maniRagdoll_ComputeBodiesFromPose(&p.r, pose.p, &place, nullptr, nullptr, 0, bodies, 2, nullptr),
            mani_success);
  ASSERT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig->s, bodies, 2, &place, rest.p, back.p), mani_success);
  for (uint32_t b = 0; b < 2; ++b) {
    maniTransform want = maniPose_GetLocal(pose.p, b), got = maniPose_GetLocal(back.p, b);
    EXPECT_LT(probe::Len(Of(want.translation) - Of(got.translation)), 1e-5) << b;
    EXPECT_LT(probe::QDist(Of(want.rotation), Of(got.rotation)), 1e-5) << b;
  }
  maniTransform head = maniPose_GetLocal(back.p, 2), headRest = maniPose_GetLocal(rest.p, 2);
  EXPECT_EQ(memcmp(&head, &headRest, sizeof head), 0);
  // too few bodies: refused, the pose unchanged
  std::vector<uint64_t> was(back.mem);
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig->s, bodies, 1, &place, rest.p, back.p), mani_errorCapacity);
  maniRagdollBodyState bad[2] = {bodies[0], bodies[1]};
  bad[1].rotation.w *= 1.5f;
  EXPECT_EQ(maniRagdoll_ComputePoseFromBodies(&p.r, &rig->s, bad, 2, &place, rest.p, back.p), mani_errorInvalid);
  EXPECT_EQ(back.mem, was);
  // joint targets
  maniRagdollJointTarget t[2], ts[2];
  memset(ts, 0x19, sizeof ts);
  memcpy(t, ts, sizeof t);
  uint32_t count = 0;
  EXPECT_EQ(maniRagdoll_ComputeJointTargets(&p.r, bodies, t, 1, &count), mani_errorCapacity);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(maniRagdoll_ComputeJointTargets(&p.r, bodies, nullptr, 2, &count), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeJointTargets(nullptr, bodies, t, 2, &count), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeJointTargets(&p.r, nullptr, t, 2, &count), mani_errorInvalid);
  EXPECT_EQ(memcmp(t, ts, sizeof t), 0);
  ASSERT_EQ(maniRagdoll_ComputeJointTargets(&p.r, bodies, t, 2, &count), mani_success);
  EXPECT_LT(probe::QDist(Of(t[0].rotation), Q{}), 1e-6);
  EXPECT_LT(probe::QDist(Of(t[1].rotation), spin), 1e-5);
  for (int b = 0; b < 2; ++b) EXPECT_LT(probe::Len(Of(t[b].angularVelocity)), 1e-6) << b;
}

// Lying face down with the head toward +x on the ground y = 0: heading +x,
// face down, the placement under the root body, model forward (0,0,1) turned
// onto +x and model up on the normal. Face up with the head toward +x:
// heading -x (toward the feet).
TEST(RagdollProbeGetUp, FaceDownAndFaceUp) {
  std::unique_ptr<probe::Rig> rig(MakeRig());
  Src s(&rig->s);
  Profile p(s.src);
  struct Case {
    Q rot;
    uint32_t faceUp;
    V heading;
  } cases[] = {
      {Mul(AxisAngle({0, 1, 0}, kPi / 2), AxisAngle({1, 0, 0}, kPi / 2)), 0, {1, 0, 0}},
      {Mul(AxisAngle({0, 1, 0}, -kPi / 2), AxisAngle({1, 0, 0}, -kPi / 2)), 1, {-1, 0, 0}},
  };
  for (const Case& c : cases) {
    // the frames as the test means them: up (y) toward +x, facing (z) down or up
    ASSERT_NEAR(Rot(c.rot, {0, 1, 0}).x, 1, 1e-12);
    ASSERT_NEAR(Rot(c.rot, {0, 0, 1}).y, c.faceUp ? 1 : -1, 1e-12);
    maniRagdollBodyState bodies[2];
    memset(bodies, 0, sizeof bodies);
    bodies[0].position = {3, 0.2f, 4};
    bodies[0].rotation = probe::FQ(c.rot);
    bodies[1].position = {4, 0.2f, 4};
    bodies[1].rotation = probe::FQ(c.rot);
    maniRagdollGround ground = {{0, 0, 0}, {0, 1, 0}};
    maniRagdollGetUp g;
    ASSERT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies, 2, &ground, &g), mani_success);
    EXPECT_EQ(g.faceUp, c.faceUp);
    EXPECT_NEAR(g.heading.x, c.heading.x, 1e-6);
    EXPECT_NEAR(g.heading.y, 0, 1e-6);
    EXPECT_NEAR(g.heading.z, 0, 1e-6);
    EXPECT_NEAR(g.placement.translation.x, 3, 1e-6);
    EXPECT_NEAR(g.placement.translation.y, 0, 1e-6);
    EXPECT_NEAR(g.placement.translation.z, 4, 1e-6);
    EXPECT_EQ(g.placement.scale.x, 1.0f);
    EXPECT_EQ(g.placement.scale.y, 1.0f);
    EXPECT_EQ(g.placement.scale.z, 1.0f);
    const Q pr = Of(g.placement.rotation);
    V fwd = Rot(pr, Of(p.r.modelForward)), up = Rot(pr, Of(p.r.modelUp));
    EXPECT_NEAR(fwd.x, c.heading.x, 1e-6);
    EXPECT_NEAR(up.y, 1, 1e-6);
    EXPECT_EQ(g.reserved, 0u);
  }
}

TEST(RagdollProbeGetUp, RefusalsLeaveTheOutputUnchanged) {
  std::unique_ptr<probe::Rig> rig(MakeRig());
  Src s(&rig->s);
  Profile p(s.src);
  maniRagdollBodyState bodies[2];
  memset(bodies, 0, sizeof bodies);
  bodies[0].rotation = {0, 0, 0, 1};
  bodies[1].rotation = {0, 0, 0, 1};
  maniRagdollGround ground = {{0, 0, 0}, {0, 1, 0}};
  maniRagdollGetUp g, sentinel;
  memset(&sentinel, 0x2D, sizeof sentinel);
  g = sentinel;
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(nullptr, bodies, 2, &ground, &g), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, nullptr, 2, &ground, &g), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies, 2, nullptr, &g), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies, 2, &ground, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies, 1, &ground, &g), mani_errorCapacity);
  maniRagdollGround g2 = ground;
  g2.normal = {0, 1.01f, 0};
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies, 2, &g2, &g), mani_errorInvalid);
  g2 = ground;
  g2.point.x = kNaN;
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, bodies, 2, &g2, &g), mani_errorInvalid);
  maniRagdollBodyState b2[2];
  memcpy(b2, bodies, sizeof b2);
  b2[0].rotation = {0, 0, 0, 1.01f};
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, b2, 2, &ground, &g), mani_errorInvalid);
  memcpy(b2, bodies, sizeof b2);
  b2[0].position.z = kNaN;
  EXPECT_EQ(maniRagdoll_ComputeGetUpPlacement(&p.r, b2, 2, &ground, &g), mani_errorInvalid);
  EXPECT_EQ(memcmp(&g, &sentinel, sizeof g), 0);
}

}  // namespace
