// Break-it probes of spring sets (spring.h, maniBuildSpringSet), written from
// the header and the reference alone: every build refusal with its reason,
// item and other; the open's argument checks and unchanged output; the
// state's init, step, apply, reset, save and restore checks, each failure
// leaving the state's saved bytes as they were; and the promised properties
// (host-rate independence, save -> restore -> continue equal to running
// through, reset as a fresh state, bone lengths kept, determinism), every
// expected value derived in the test, never copied from the code's output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/spring_fixtures.h"
#include "lib/anim/test/probe_rig.h"
#include "maul/anim/build.h"
#include "maul/anim/import.h"
#include "maul/anim/pose.h"
#include "maul/anim/spring.h"

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// ---- builds ---------------------------------------------------------------

// root, head above it, a 3-bone chain c0 -> c1 -> c2 below the head and a
// side bone (source order depth-first: indices are the skeleton's).
probe::Rig* ChainRig() {
  return new probe::Rig({{MANI_NO_BONE, {0, 0, 0}, {}},
                         {0, {0, 1, 0}, {}},
                         {1, {0, -0.2, 0}, {}},
                         {2, {0, -0.2, 0}, {}},
                         {3, {0, -0.2, 0}, {}},
                         {0, {0.5, 1, 0}, {}}});
}

maniSpringSourceJoint J(uint32_t bone) {
  maniSpringSourceJoint j;
  memset(&j, 0, sizeof j);
  j.bone = bone;
  j.hitRadius = 0.01f;
  j.stiffness = 1;
  j.gravityPower = 1;
  j.gravityDir = {0, -1, 0};
  j.dragForce = 0.4f;
  j.limitRotation = {0, 0, 0, 1};
  return j;
}

struct Src {
  maniSpringSourceJoint joints[3] = {J(2), J(3), J(4)};
  maniSpringSourceCollider colliders[1];
  uint32_t groupMembers[1] = {0};
  maniSpringSourceColliderGroup groups[1];
  uint32_t springGroups[1] = {0};
  maniSpringSourceSpring springs[1];
  maniSpringSetSource src;
  explicit Src(const maniSkeleton* s) {
    memset(colliders, 0, sizeof colliders);
    colliders[0].bone = 5;
    colliders[0].kind = maniSpringShapeSphere;
    colliders[0].radius = 0.1f;
    groups[0] = {groupMembers, 1};
    memset(springs, 0, sizeof springs);
    springs[0].name = "hair";
    springs[0].nameLength = 4;
    springs[0].joints = joints;
    springs[0].jointCount = 3;
    springs[0].colliderGroups = springGroups;
    springs[0].colliderGroupCount = 1;
    springs[0].center = MANI_NO_BONE;
    memset(&src, 0, sizeof src);
    src.skeleton = s;
    src.referenceRate = 60;
    src.stepRate = 60;
    src.colliders = colliders;
    src.colliderCount = 1;
    src.groups = groups;
    src.groupCount = 1;
    src.springs = springs;
    src.springCount = 1;
  }
};

void ExpectBuild(const maniSpringSetSource& src, maniResult code, uint32_t reason, uint64_t item, uint64_t other,
                 const char* what) {
  Builder b;
  maniBuildResult r = maniBuildSpringSet(b.b, &src);
  EXPECT_EQ(r.result, code) << what;
  EXPECT_EQ(r.reason, reason) << what;
  EXPECT_EQ(r.item, item) << what;
  EXPECT_EQ(r.other, other) << what;
}

TEST(SpringProbeBuild, ValidSourceBuildsAndOpens) {
  std::unique_ptr<probe::Rig> rig(ChainRig());
  Src s(&rig->s);
  Builder b;
  ASSERT_EQ(maniBuildSpringSet(b.b, &s.src).result, mani_success);
  File f = b.Built();
  maniSpringSet set;
  ASSERT_EQ(maniOpenSpringSet(f.data(), f.size, &set).result, mani_success);
  EXPECT_EQ(maniSpringSet_GetSpringCount(&set), 1u);
  size_t n = 99;
  const char* name = maniSpringSet_GetSpringName(&set, 0, &n);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name, n), "hair");
  EXPECT_EQ(maniSpringSet_GetSpringName(&set, 1, nullptr), nullptr);
  float ref = 0;
  EXPECT_EQ(maniSpringSet_GetStepRate(&set, &ref), 60.0f);
  EXPECT_EQ(ref, 60.0f);
  EXPECT_EQ(maniSpringSet_GetSkeletonIdentity(&set), maniSkeleton_GetIdentity(&rig->s));
  EXPECT_EQ(maniSpringSet_GetStateSize(&set) % 16, 0u);
  EXPECT_GT(maniSpringSet_GetStateSize(&set), 0u);
}

TEST(SpringProbeBuild, Refusals) {
  std::unique_ptr<probe::Rig> rig(ChainRig());
  {
    Builder b;
    Src s(&rig->s);
    EXPECT_EQ(maniBuildSpringSet(b.b, nullptr).result, mani_errorInvalid);
    EXPECT_EQ(maniBuildSpringSet(nullptr, &s.src).result, mani_errorInvalid);
  }
  // Rates: past the maximum is a limit (no misuse), NaN / 0 / negative invalid.
  {
    Src s(&rig->s);
    s.src.referenceRate = std::nextafter(MANI_MAX_SPRING_RATE, 2000.0f);
    ExpectBuild(s.src, mani_errorLimit, maniBuildReasonOption, 0, 0, "reference rate past max");
  }
  {
    Src s(&rig->s);
    s.src.referenceRate = MANI_MAX_SPRING_RATE;
    s.src.stepRate = MANI_MAX_SPRING_RATE;
    ExpectBuild(s.src, mani_success, maniBuildReasonNone, 0, 0, "rates at max");
  }
  {
    Src s(&rig->s);
    s.src.stepRate = std::nextafter(MANI_MAX_SPRING_RATE, 2000.0f);
    ExpectBuild(s.src, mani_errorLimit, maniBuildReasonOption, 1, 0, "step rate past max");
  }
  for (float bad : {kNaN, kInf, 0.0f, -1.0f}) {
    Src s(&rig->s);
    s.src.referenceRate = bad;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonOption, 0, 0, "reference rate bad");
    Src t(&rig->s);
    t.src.stepRate = bad;
    ExpectBuild(t.src, mani_errorInvalid, maniBuildReasonOption, 1, 0, "step rate bad");
  }
  // Names: MANI_MAX_NAME_BYTES takes, one past is a limit with the spring.
  {
    std::string name(MANI_MAX_NAME_BYTES, 'a');
    Src s(&rig->s);
    s.springs[0].name = name.c_str();
    s.springs[0].nameLength = name.size();
    ExpectBuild(s.src, mani_success, maniBuildReasonNone, 0, 0, "name at max");
    std::string longer(MANI_MAX_NAME_BYTES + 1, 'a');
    s.springs[0].name = longer.c_str();
    s.springs[0].nameLength = longer.size();
    ExpectBuild(s.src, mani_errorLimit, maniBuildReasonName, 0, 0, "name past max");
    s.springs[0].name = "\xff\xfe";
    s.springs[0].nameLength = 2;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonName, 0, 0, "name not utf-8");
  }
  // Counts.
  {
    Src s(&rig->s);
    s.springs[0].jointCount = 1;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonCount, 0, 0, "one joint");
    s.springs[0].jointCount = 3;
    s.springs[0].joints = nullptr;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonCount, 0, 0, "NULL joints");
  }
  {
    Src s(&rig->s);
    s.src.colliders = nullptr;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonCount, MANI_NO_BONE, 0, "NULL colliders");
  }
  {
    Src s(&rig->s);
    s.src.springs = nullptr;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonCount, MANI_NO_BONE, 0, "NULL springs");
  }
  {
    Src s(&rig->s);
    s.src.springCount = MANI_MAX_BONES + 1;
    Builder b;
    maniBuildResult r = maniBuildSpringSet(b.b, &s.src);  // the item is not specified
    EXPECT_EQ(r.result, mani_errorLimit);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount);
  }
  // Joints.
  {
    Src s(&rig->s);
    s.joints[2].bone = 6;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonJoint, 0, 2, "bone past the skeleton");
  }
  {
    Src s(&rig->s);
    s.springs[0].center = 6;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonJoint, 0, MANI_NO_BONE, "center past");
    s.springs[0].center = 4;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonJoint, 0, MANI_NO_BONE, "center below a joint");
    s.springs[0].center = 1;
    ExpectBuild(s.src, mani_success, maniBuildReasonNone, 0, 0, "center above");
  }
  // Values.
  struct Mut {
    const char* what;
    void (*f)(maniSpringSourceJoint*);
  } muts[] = {
      {"drag NaN", [](maniSpringSourceJoint* j) { j->dragForce = kNaN; }},
      {"drag past 1", [](maniSpringSourceJoint* j) { j->dragForce = 1.0001f; }},
      {"drag negative", [](maniSpringSourceJoint* j) { j->dragForce = -0.0001f; }},
      {"stiffness negative", [](maniSpringSourceJoint* j) { j->stiffness = -1; }},
      {"stiffness inf", [](maniSpringSourceJoint* j) { j->stiffness = kInf; }},
      {"gravity negative", [](maniSpringSourceJoint* j) { j->gravityPower = -1; }},
      {"hit radius negative", [](maniSpringSourceJoint* j) { j->hitRadius = -0.5f; }},
      {"gravity dir NaN", [](maniSpringSourceJoint* j) { j->gravityDir.x = kNaN; }},
      {"limit kind past", [](maniSpringSourceJoint* j) { j->limitKind = 4; }},
      {"limit rotation 0", [](maniSpringSourceJoint* j) {
         j->limitKind = maniSpringLimitCone;
         j->limitRotation = {0, 0, 0, 0};
       }},
      {"cone angle past pi", [](maniSpringSourceJoint* j) {
         j->limitKind = maniSpringLimitCone;
         j->limitAngle = 3.2f;
       }},
      {"spherical yaw negative", [](maniSpringSourceJoint* j) {
         j->limitKind = maniSpringLimitSpherical;
         j->limitAngle = 1;
         j->limitAngle2 = -1;
       }},
  };
  for (const Mut& m : muts) {
    Src s(&rig->s);
    m.f(&s.joints[1]);
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonNotFinite, 0, 1, m.what);
  }
  // Colliders.
  {
    Src s(&rig->s);
    s.colliders[0].offset.y = kNaN;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonNotFinite, MANI_NO_BONE, 0, "collider NaN");
  }
  {
    Src s(&rig->s);
    s.colliders[0].bone = 6;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonAttribute, 0, MANI_NO_BONE, "collider bone past");
  }
  {
    Src s(&rig->s);
    s.colliders[0].kind = 5;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonAttribute, 0, MANI_NO_BONE, "collider kind past");
  }
  {
    Src s(&rig->s);
    s.colliders[0].kind = maniSpringShapePlane;
    s.colliders[0].radius = 0;
    s.colliders[0].tail = {0, 0, 0};
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonAttribute, 0, MANI_NO_BONE, "plane normal 0");
  }
  {
    Src s(&rig->s);
    s.colliders[0].kind = maniSpringShapeInsideSphere;
    s.colliders[0].radius = 0;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonAttribute, 0, MANI_NO_BONE, "inside radius 0");
  }
  {
    Src s(&rig->s);
    s.groupMembers[0] = 1;
    ExpectBuild(s.src, mani_errorInvalid, maniBuildReasonEntry, 0, 0, "group's collider past");
  }
}

// ---- opened rigs and states -----------------------------------------------

struct Rig {
  maniFixtureSpringRig r;
  explicit Rig(uint64_t seed = 0x7001, float rate = 60.0f, uint32_t chains = 3) {
    EXPECT_EQ(maniFixtureMakeSpringRig(&r, seed, chains, 4, 6, rate), 0);
  }
  ~Rig() { maniFixtureFreeSpringRig(&r); }
};

struct Mem {
  std::vector<uint64_t> w;
  uint8_t* p;
  explicit Mem(size_t n, size_t skew = 0) {
    w.assign(n / 8 + 8, 0xA5A5A5A5A5A5A5A5ull);
    p = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(w.data()) + 15) & ~uintptr_t(15)) + skew;
  }
};

struct State {
  Mem mem;
  maniSpringState* st = nullptr;
  State(const maniSpringSet* set, const maniSkeleton* s) : mem(maniSpringSet_GetStateSize(set)) {
    EXPECT_EQ(maniInitSpringState(set, s, mem.p, maniSpringSet_GetStateSize(set), &st), mani_success);
  }
  std::vector<uint8_t> Save() const {
    size_t n = 0;
    EXPECT_EQ(maniSpringState_Save(st, nullptr, 0, &n), mani_errorCapacity);
    Mem m(n);
    EXPECT_EQ(maniSpringState_Save(st, m.p, n, &n), mani_success);
    return std::vector<uint8_t>(m.p, m.p + n);
  }
};

struct Pose {
  std::vector<uint64_t> mem;
  maniPose* p = nullptr;
  explicit Pose(const maniSkeleton* s) {
    size_t size = maniSkeleton_GetPoseSize(s);
    mem.assign(size / 8 + 8, 0);
    uintptr_t a = (reinterpret_cast<uintptr_t>(mem.data()) + 31) & ~uintptr_t(31);
    EXPECT_EQ(maniInitPose(s, reinterpret_cast<void*>(a), size, &p), mani_success);
  }
};

void RunMotion(const Rig& rig, State& st, Pose& pose, double from, double to, double host) {
  maniTransform place;
  const int n = (int)std::lround((to - from) * host);
  for (int i = 1; i <= n; ++i) {
    maniFixtureSpringMotion(&rig.r, 0x7001, from + i / host, pose.p, &place);
    ASSERT_EQ(maniSpringState_Step(st.st, pose.p, &place, nullptr, (float)(1.0 / host)), mani_success);
  }
}

TEST(SpringProbeOpen, ArgumentsAndUnchanged) {
  Rig rig;
  File f;
  f.Assign(rig.r.setFile, rig.r.setSize);
  maniSpringSet set, sentinel;
  memset(&sentinel, 0x5C, sizeof sentinel);
  set = sentinel;
  EXPECT_EQ(maniOpenSpringSet(nullptr, f.size, &set).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenSpringSet(f.data(), f.size, nullptr).result, mani_errorInvalid);
  // misaligned: the same bytes one to fifteen past an aligned start
  for (size_t skew = 1; skew < MANI_FILE_ALIGNMENT; ++skew) {
    Mem m(f.size + 16, skew);
    memcpy(m.p, f.data(), f.size);
    EXPECT_EQ(maniOpenSpringSet(m.p, f.size, &set).result, mani_errorInvalid) << skew;
  }
  EXPECT_EQ(maniOpenSpringSet(f.data(), f.size - 1, &set).result, mani_errorFormat);
  EXPECT_EQ(maniOpenSpringSet(f.data(), 0, &set).result, mani_errorFormat);
  EXPECT_EQ(memcmp(&set, &sentinel, sizeof set), 0);
  // every truncation and byte patch
  ExpectEveryMutationRefused(f.data(), f.size, [&](const void* b, size_t n) {
    maniSpringSet v = sentinel;
    maniFileResult r = maniOpenSpringSet(b, n, &v);
    if (r.result != mani_success) {
      EXPECT_EQ(memcmp(&v, &sentinel, sizeof v), 0);
    }
    return r;
  });
}

TEST(SpringProbeOpen, NullAndZeroedViewsReadEmpty) {
  maniSpringSet zero;
  memset(&zero, 0, sizeof zero);
  for (const maniSpringSet* v : {(const maniSpringSet*)nullptr, (const maniSpringSet*)&zero}) {
    EXPECT_EQ(maniSpringSet_GetIdentity(v), 0u);
    EXPECT_EQ(maniSpringSet_GetSkeletonIdentity(v), 0u);
    EXPECT_EQ(maniSpringSet_GetSpringCount(v), 0u);
    EXPECT_EQ(maniSpringSet_GetSpringName(v, 0, nullptr), nullptr);
    float ref = 7;
    EXPECT_EQ(maniSpringSet_GetStepRate(v, &ref), 0.0f);
    EXPECT_EQ(maniSpringSet_GetStateSize(v), 0u);
  }
  // A view whose counts were damaged reads as empty (never outside the bytes).
  Rig rig;
  maniSpringSet damaged = rig.r.set;
  damaged.springCount = 0xFFFFFFFFu;
  damaged.names = damaged.size + 1000;
  EXPECT_EQ(maniSpringSet_GetSpringName(&damaged, 1000, nullptr), nullptr);
}

TEST(SpringProbeState, InitRefusals) {
  Rig rig, other(0x7002, 60.0f, 2);
  const size_t n = maniSpringSet_GetStateSize(&rig.r.set);
  maniSpringState* const sentinel = reinterpret_cast<maniSpringState*>(uintptr_t(0x1234560));
  maniSpringState* st = sentinel;
  Mem m(n + 32);
  EXPECT_EQ(maniInitSpringState(nullptr, &rig.r.skeleton, m.p, n, &st), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&rig.r.set, nullptr, m.p, n, &st), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&rig.r.set, &rig.r.skeleton, nullptr, n, &st), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&rig.r.set, &rig.r.skeleton, m.p, n, nullptr), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&rig.r.set, &rig.r.skeleton, m.p + 8, n, &st), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&rig.r.set, &other.r.skeleton, m.p, n, &st), mani_errorInvalid);
  EXPECT_EQ(maniInitSpringState(&rig.r.set, &rig.r.skeleton, m.p, n - 1, &st), mani_errorCapacity);
  EXPECT_EQ(maniInitSpringState(&rig.r.set, &rig.r.skeleton, m.p, 0, &st), mani_errorCapacity);
  EXPECT_EQ(st, sentinel);
  EXPECT_EQ(maniInitSpringState(&rig.r.set, &rig.r.skeleton, m.p, n, &st), mani_success);
  EXPECT_NE(st, sentinel);
}

TEST(SpringProbeState, StepRefusalsLeaveTheStateUnchanged) {
  Rig rig, other(0x7002, 60.0f, 2);
  State st(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton), wrong(&other.r.skeleton);
  RunMotion(rig, st, pose, 0, 0.5, 60);
  const std::vector<uint8_t> before = st.Save();
  maniTransform place;
  maniFixtureSpringMotion(&rig.r, 0x7001, 0.52, pose.p, &place);
  const float dt = 1.0f / 60;
  EXPECT_EQ(maniSpringState_Step(nullptr, pose.p, &place, nullptr, dt), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Step(st.st, nullptr, &place, nullptr, dt), mani_errorInvalid);
  maniFixtureSpringMotion(&rig.r, 0x7001, 0.52, wrong.p, &place);
  maniFixtureSpringMotion(&rig.r, 0x7001, 0.52, pose.p, &place);
  EXPECT_EQ(maniSpringState_Step(st.st, wrong.p, &place, nullptr, dt), mani_errorInvalid);
  for (float d : {kNaN, kInf, -kInf}) EXPECT_EQ(maniSpringState_Step(st.st, pose.p, &place, nullptr, d), mani_errorInvalid);
  for (int c = 0; c < 10; ++c) {
    maniTransform p = place;
    float* f = reinterpret_cast<float*>(&p);
    f[c] = c % 2 ? kInf : kNaN;
    EXPECT_EQ(maniSpringState_Step(st.st, pose.p, &p, nullptr, dt), mani_errorInvalid) << "placement float " << c;
  }
  for (int c = 0; c < 3; ++c) {
    maniVec3 force = {0, 0, 0};
    reinterpret_cast<float*>(&force)[c] = c == 1 ? kNaN : -kInf;
    EXPECT_EQ(maniSpringState_Step(st.st, pose.p, &place, &force, dt), mani_errorInvalid) << "force " << c;
  }
  // One step past MANI_SPRING_MAX_STEPS steps' seconds is refused.
  const float tooLong = (float)((MANI_SPRING_MAX_STEPS + 1.0) / 60.0);
  EXPECT_NE(maniSpringState_Step(st.st, pose.p, &place, nullptr, tooLong), mani_success);
  EXPECT_NE(maniSpringState_Step(st.st, pose.p, &place, nullptr, -tooLong), mani_success);
  EXPECT_EQ(st.Save(), before);
  // Exactly the most steps is taken.
  EXPECT_EQ(maniSpringState_Step(st.st, pose.p, &place, nullptr, (float)(MANI_SPRING_MAX_STEPS / 60.0)), mani_success);
}

TEST(SpringProbeState, NegativeDeltaIsItsMagnitude) {
  Rig rig;
  State a(&rig.r.set, &rig.r.skeleton), b(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton);
  maniTransform place;
  for (int i = 1; i <= 40; ++i) {
    maniFixtureSpringMotion(&rig.r, 0x7001, i / 60.0, pose.p, &place);
    ASSERT_EQ(maniSpringState_Step(a.st, pose.p, &place, nullptr, 1.0f / 60), mani_success);
    ASSERT_EQ(maniSpringState_Step(b.st, pose.p, &place, nullptr, -1.0f / 60), mani_success);
  }
  EXPECT_EQ(a.Save(), b.Save());
}

// The same still pose at host rates 30, 60 and 144 for 5 seconds: the same
// steps run, so the same tails (the step rate 60 and 120).
TEST(SpringProbeState, HostRateIndependence) {
  for (float rate : {60.0f, 120.0f}) {
    Rig rig(0x7001, rate);
    std::vector<std::vector<uint8_t>> applied;
    for (double host : {30.0, 60.0, 144.0}) {
      State st(&rig.r.set, &rig.r.skeleton);
      Pose pose(&rig.r.skeleton);
      maniTransform place;
      maniFixtureSpringMotion(&rig.r, 0x7001, 0.25, pose.p, &place);
      for (int i = 0; i < (int)(5 * host + 0.5); ++i)
        ASSERT_EQ(maniSpringState_Step(st.st, pose.p, &place, nullptr, (float)(1.0 / host)), mani_success);
      ASSERT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
      const uint32_t n = maniSkeleton_GetBoneCount(&rig.r.skeleton);
      std::vector<maniTransform> locals(n);
      ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, n, locals.data()), mani_success);
      const uint8_t* b = reinterpret_cast<const uint8_t*>(locals.data());
      applied.emplace_back(b, b + n * sizeof(maniTransform));
    }
    // a still pose settles: the applied rotations agree (rate vs host phase
    // only moves the extrapolation of a settled tail, by a rounding)
    EXPECT_EQ(applied[0], applied[1]) << rate;
    EXPECT_EQ(applied[0], applied[2]) << rate;
  }
}

TEST(SpringProbeState, SaveRestoreContinueEqualsRunningThrough) {
  Rig rig;
  State through(&rig.r.set, &rig.r.skeleton), first(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton);
  RunMotion(rig, through, pose, 0, 2.0, 60);
  RunMotion(rig, first, pose, 0, 1.0, 60);
  std::vector<uint8_t> saved = first.Save();
  Mem m(saved.size());
  memcpy(m.p, saved.data(), saved.size());
  State second(&rig.r.set, &rig.r.skeleton);
  ASSERT_EQ(maniSpringState_Restore(second.st, m.p, saved.size()).result, mani_success);
  EXPECT_EQ(second.Save(), saved);
  RunMotion(rig, second, pose, 1.0, 2.0, 60);
  EXPECT_EQ(second.Save(), through.Save());
  // two runs of the same input: the same bits
  State again(&rig.r.set, &rig.r.skeleton);
  RunMotion(rig, again, pose, 0, 2.0, 60);
  EXPECT_EQ(again.Save(), through.Save());
}

TEST(SpringProbeState, SaveChecks) {
  Rig rig;
  State st(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton);
  RunMotion(rig, st, pose, 0, 0.3, 60);
  size_t n = 0;
  EXPECT_EQ(maniSpringState_Save(nullptr, nullptr, 0, &n), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Save(st.st, nullptr, 8, &n), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Save(st.st, nullptr, 0, nullptr), mani_errorCapacity);
  EXPECT_EQ(maniSpringState_Save(st.st, nullptr, 0, &n), mani_errorCapacity);
  ASSERT_GT(n, 0u);
  Mem m(n + 16);
  std::vector<uint8_t> sentinel(m.p, m.p + n + 16);
  size_t got = 0;
  EXPECT_EQ(maniSpringState_Save(st.st, m.p, n - 1, &got), mani_errorCapacity);
  EXPECT_EQ(got, n);
  EXPECT_EQ(std::vector<uint8_t>(m.p, m.p + n + 16), sentinel);
  EXPECT_EQ(maniSpringState_Save(st.st, m.p, n + 16, &got), mani_success);
  EXPECT_EQ(got, n);
  EXPECT_EQ(std::vector<uint8_t>(m.p + n, m.p + n + 16), std::vector<uint8_t>(sentinel.begin() + n, sentinel.end()));
}

TEST(SpringProbeState, RestoreChecksLeaveTheStateUnchanged) {
  Rig rig, other(0x7002, 60.0f, 3);
  State st(&rig.r.set, &rig.r.skeleton), donor(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton);
  RunMotion(rig, st, pose, 0, 0.4, 60);
  RunMotion(rig, donor, pose, 0, 0.9, 60);
  const std::vector<uint8_t> mine = st.Save();
  const std::vector<uint8_t> good = donor.Save();
  Mem m(good.size() + 16);
  memcpy(m.p, good.data(), good.size());
  EXPECT_EQ(maniSpringState_Restore(nullptr, m.p, good.size()).result, mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Restore(st.st, nullptr, good.size()).result, mani_errorInvalid);
  Mem skewed(good.size() + 16, 4);
  memcpy(skewed.p, good.data(), good.size());
  EXPECT_EQ(maniSpringState_Restore(st.st, skewed.p, good.size()).result, mani_errorInvalid);
  EXPECT_EQ(st.Save(), mine);
  // another set's state (same shape of rig, other seed)
  {
    State foreign(&other.r.set, &other.r.skeleton);
    Pose op(&other.r.skeleton);
    RunMotion(other, foreign, op, 0, 0.4, 60);
    std::vector<uint8_t> f = foreign.Save();
    Mem fm(f.size());
    memcpy(fm.p, f.data(), f.size());
    maniFileResult r = maniSpringState_Restore(st.st, fm.p, f.size());
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(st.Save(), mine);
  }
  // every truncation and byte patch refused, the state unchanged each time;
  // unlike a file's, a saved state's ABI field (bytes 12 to 15) is checked
  // too (mani_errorVersion for another release's state)
  for (size_t n = 0; n < good.size(); ++n) {
    Mem t(n + 16);
    memcpy(t.p, good.data(), n);
    maniFileResult r = maniSpringState_Restore(st.st, t.p, n);
    ASSERT_EQ(r.result, mani_errorFormat) << "truncated to " << n;
    ASSERT_LE(r.offset, n);
    ASSERT_EQ(st.Save(), mine) << n;
  }
  for (size_t i = 0; i < good.size(); ++i) {
    for (int patch = 0; patch < 4; ++patch) {
      Mem t(good.size());
      memcpy(t.p, good.data(), good.size());
      const uint8_t old = t.p[i];
      const uint8_t v = patch == 0 ? (uint8_t)(old + 1) : patch == 1 ? (uint8_t)(old - 1) : patch == 2 ? 0 : 0xFF;
      if (v == old) continue;
      t.p[i] = v;
      maniFileResult r = maniSpringState_Restore(st.st, t.p, good.size());
      ASSERT_TRUE(r.result == mani_errorFormat || r.result == mani_errorVersion) << "byte " << i << " patch " << patch;
      if (i >= 12 && i < 16) {
        ASSERT_EQ(r.result, mani_errorVersion) << "ABI byte " << i;
      }
      ASSERT_LT(r.offset, good.size());
      ASSERT_EQ(st.Save(), mine) << "byte " << i;
    }
  }
  // the good bytes still restore
  EXPECT_EQ(maniSpringState_Restore(st.st, m.p, good.size()).result, mani_success);
  EXPECT_EQ(st.Save(), good);
}

// Non-finite values and non-unit rotations: every aligned 4-byte word of the
// state's payload patched to NaN, Inf, 2.0f (a rotation of length > 1 where
// a quaternion component sits) is refused or reads as a value in range.
TEST(SpringProbeState, RestoreRefusesNonFiniteWords) {
  Rig rig;
  State st(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton);
  RunMotion(rig, st, pose, 0, 0.4, 60);
  const std::vector<uint8_t> good = st.Save();
  State probe(&rig.r.set, &rig.r.skeleton);
  const std::vector<uint8_t> fresh = probe.Save();
  for (size_t at = 64; at + 4 <= good.size(); at += 4) {
    for (float v : {kNaN, kInf}) {
      Mem m(good.size());
      memcpy(m.p, good.data(), good.size());
      memcpy(m.p + at, &v, 4);
      maniFileResult r = maniSpringState_Restore(probe.st, m.p, good.size());
      ASSERT_NE(r.result, mani_success) << "word at " << at;
      ASSERT_EQ(probe.Save(), fresh);
    }
  }
}

TEST(SpringProbeState, ResetIsAFreshState) {
  Rig rig;
  State moved(&rig.r.set, &rig.r.skeleton), fresh(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton);
  RunMotion(rig, moved, pose, 0, 1.0, 60);
  maniSpringState_Reset(moved.st);
  maniSpringState_Reset(nullptr);
  // after a reset, the same steps as a fresh state's give the same applied pose
  maniTransform place;
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.r.skeleton);
  std::vector<std::vector<maniTransform>> out;
  for (State* s : {&moved, &fresh}) {
    Pose p(&rig.r.skeleton);
    for (int i = 1; i <= 30; ++i) {
      maniFixtureSpringMotion(&rig.r, 0x7001, 3.0 + i / 60.0, p.p, &place);
      ASSERT_EQ(maniSpringState_Step(s->st, p.p, &place, nullptr, 1.0f / 60), mani_success);
    }
    ASSERT_EQ(maniSpringState_Apply(s->st, p.p), mani_success);
    std::vector<maniTransform> l(n);
    ASSERT_EQ(maniPose_ReadLocals(p.p, 0, n, l.data()), mani_success);
    out.push_back(l);
  }
  EXPECT_EQ(memcmp(out[0].data(), out[1].data(), n * sizeof(maniTransform)), 0);
}

TEST(SpringProbeState, ApplyChecksAndNoMotionKeepsThePose) {
  Rig rig, other(0x7002, 60.0f, 2);
  State st(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton), wrong(&other.r.skeleton);
  maniTransform place;
  maniFixtureSpringMotion(&rig.r, 0x7001, 0.7, pose.p, &place);
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.r.skeleton);
  std::vector<maniTransform> before(n), after(n);
  ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, n, before.data()), mani_success);
  EXPECT_EQ(maniSpringState_Apply(nullptr, pose.p), mani_errorInvalid);
  EXPECT_EQ(maniSpringState_Apply(st.st, nullptr), mani_errorInvalid);
  maniFixtureSpringMotion(&other.r, 0x7001, 0.7, wrong.p, &place);
  EXPECT_EQ(maniSpringState_Apply(st.st, wrong.p), mani_errorInvalid);
  // no motion yet: the pose's rotations kept
  EXPECT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
  ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, n, after.data()), mani_success);
  EXPECT_EQ(memcmp(before.data(), after.data(), n * sizeof(maniTransform)), 0);
}

// Apply writes rotations only: every bone's translation and scale (so its
// length from its parent) is the pose's, and rotations stay unit.
TEST(SpringProbeState, ApplyKeepsBoneLengthsAndUnitRotations) {
  Rig rig;
  State st(&rig.r.set, &rig.r.skeleton);
  Pose pose(&rig.r.skeleton);
  RunMotion(rig, st, pose, 0, 1.3, 60);
  const uint32_t n = maniSkeleton_GetBoneCount(&rig.r.skeleton);
  std::vector<maniTransform> before(n), after(n);
  ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, n, before.data()), mani_success);
  ASSERT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
  ASSERT_EQ(maniPose_ReadLocals(pose.p, 0, n, after.data()), mani_success);
  bool turned = false;
  for (uint32_t b = 0; b < n; ++b) {
    EXPECT_EQ(memcmp(&before[b].translation, &after[b].translation, sizeof(maniVec3)), 0) << b;
    EXPECT_EQ(memcmp(&before[b].scale, &after[b].scale, sizeof(maniVec3)), 0) << b;
    const maniQuat q = after[b].rotation;
    EXPECT_NEAR(std::sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w), 1.0, 1e-5);
    if (memcmp(&before[b].rotation, &q, sizeof q) != 0) turned = true;
  }
  EXPECT_TRUE(turned);
}

}  // namespace

// ---- maniGltf_ReadSprings and maniGltf_ReadRagdoll refusals ---------------

namespace {

std::string SpringDoc(const std::string& ext) {
  return R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
 "extensionsUsed": ["VRMC_springBone"],
 "nodes": [{"name": "root", "children": [1]}, {"name": "a", "translation": [0, 1, 0], "children": [2]},
  {"name": "b", "translation": [0, -0.2, 0], "children": [3]}, {"name": "c", "translation": [0, -0.2, 0]}],
 "extensions": {"VRMC_springBone": )" + ext + "}}";
}

const char* kGoodSprings = R"({"specVersion": "1.0", "colliders": [{"node": 1, "shape": {"sphere": {"radius": 0.1}}}],
 "colliderGroups": [{"colliders": [0]}], "springs": [{"name": "s", "colliderGroups": [0],
 "joints": [{"node": 1}, {"node": 2}, {"node": 3}]}]})";

struct GltfDoc {
  Builder b;
  maniGltf* g = nullptr;
  File skeletonFile;
  maniSkeleton s;
  std::string text;
  maniImportResult opened;
  explicit GltfDoc(const std::string& t) : text(t) {
    opened = maniOpenGltf(b.b, text.data(), text.size(), &g);
    if (opened.result != mani_success) return;
    maniGltfOptions o = maniDefaultGltfOptions();
    opened = maniBuildGltfNodeSkeleton(b.b, g, 0, &o);
    if (opened.result != mani_success) return;
    skeletonFile = b.Built();
    EXPECT_EQ(maniOpenSkeleton(skeletonFile.data(), skeletonFile.size, &s).result, mani_success);
  }
  ~GltfDoc() {
    if (g != nullptr) maniCloseGltf(g);
  }
};

}  // namespace

TEST(SpringProbeGltf, ReadSpringsRefusalsLeaveTheSourceUnchanged) {
  {
    GltfDoc d(SpringDoc(kGoodSprings));
    ASSERT_EQ(d.opened.result, mani_success);
    maniGltfOptions o = maniDefaultGltfOptions();
    maniSpringSetSource src, sentinel;
    memset(&sentinel, 0x4E, sizeof sentinel);
    src = sentinel;
    EXPECT_EQ(maniGltf_ReadSprings(nullptr, &d.s, &o, &src).result, mani_errorInvalid);
    EXPECT_EQ(maniGltf_ReadSprings(d.g, nullptr, &o, &src).result, mani_errorInvalid);
    EXPECT_EQ(maniGltf_ReadSprings(d.g, &d.s, nullptr, &src).result, mani_errorInvalid);
    EXPECT_EQ(maniGltf_ReadSprings(d.g, &d.s, &o, nullptr).result, mani_errorInvalid);
    maniSkeleton zero;
    memset(&zero, 0, sizeof zero);
    EXPECT_EQ(maniGltf_ReadSprings(d.g, &zero, &o, &src).result, mani_errorInvalid);
    EXPECT_EQ(memcmp(&src, &sentinel, sizeof src), 0);
    ASSERT_EQ(maniGltf_ReadSprings(d.g, &d.s, &o, &src).result, mani_success);
    ASSERT_EQ(src.springCount, 1u);
    EXPECT_EQ(src.springs[0].jointCount, 3u);
    EXPECT_EQ(src.colliderCount, 1u);
    EXPECT_EQ(src.referenceRate, 60.0f);
    // the source builds
    Builder b;
    EXPECT_EQ(maniBuildSpringSet(b.b, &src).result, mani_success);
  }
  struct Bad {
    const char* what;
    const char* ext;
    uint64_t item;
  } bads[] = {
      {"extension not an object", "[1]", 0},
      {"another specVersion", R"({"specVersion": "0.9", "springs": []})", 0},
      {"springs not an array", R"({"specVersion": "1.0", "springs": {}})", 0},
      {"spring not an object", R"({"specVersion": "1.0", "springs": [3]})", 0},
      {"joint node past", R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 1}, {"node": 9}]}]})", 0},
      {"joint node not whole", R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 1.5}, {"node": 2}]}]})", 0},
      {"no joints", R"({"specVersion": "1.0", "springs": [{"joints": []}]})", 0},
      {"name not a string", R"({"specVersion": "1.0", "springs": [{"name": 4, "joints": [{"node": 1}, {"node": 2}]}]})", 0},
      {"number past binary32",
       R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 1, "stiffness": 1e39}, {"node": 2}]}]})", 0},
      {"gravity dir of 2",
       R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 1, "gravityDir": [0, 1]}, {"node": 2}]}]})", 0},
      {"shape of two kinds", R"({"specVersion": "1.0", "colliders": [{"node": 1, "shape": {"sphere": {"radius": 1},
        "capsule": {"radius": 1}}}], "springs": []})", 0},
      {"group's collider past", R"({"specVersion": "1.0", "colliders": [], "colliderGroups": [{"colliders": [0]}],
        "springs": []})", 0},
      {"second spring's center past", R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 1}, {"node": 2}]},
        {"center": 12, "joints": [{"node": 2}, {"node": 3}]}]})", 1},
  };
  for (const Bad& bad : bads) {
    GltfDoc d(SpringDoc(bad.ext));
    ASSERT_EQ(d.opened.result, mani_success) << bad.what;
    maniGltfOptions o = maniDefaultGltfOptions();
    maniSpringSetSource src, sentinel;
    memset(&sentinel, 0x4E, sizeof sentinel);
    src = sentinel;
    maniImportResult r = maniGltf_ReadSprings(d.g, &d.s, &o, &src);
    EXPECT_EQ(r.result, mani_errorFormat) << bad.what;
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << bad.what;
    EXPECT_EQ(r.item, bad.item) << bad.what;
    EXPECT_LT(r.offset, d.text.size()) << bad.what;
    EXPECT_EQ(memcmp(&src, &sentinel, sizeof src), 0) << bad.what;
  }
}

TEST(SpringProbeGltf, ReadRagdollArgumentsAndAxes) {
  GltfDoc d(SpringDoc(kGoodSprings));
  ASSERT_EQ(d.opened.result, mani_success);
  maniGltfOptions o = maniDefaultGltfOptions();
  maniRagdollSource src, sentinel;
  memset(&sentinel, 0x4E, sizeof sentinel);
  src = sentinel;
  const maniVec3 f = {0, 0, 1}, u = {0, 1, 0};
  EXPECT_EQ(maniGltf_ReadRagdoll(nullptr, &d.s, &o, f, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, nullptr, &o, f, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, nullptr, f, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, f, u, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, f, maniVec3{0, 0.7f, 0.7f}, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, maniVec3{0, 0, 2}, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, maniVec3{kNaN, 0, 1}, u, &src).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&src, &sentinel, sizeof src), 0);
  // no bodies in the document: an empty source
  ASSERT_EQ(maniGltf_ReadRagdoll(d.g, &d.s, &o, f, u, &src).result, mani_success);
  EXPECT_EQ(src.bodyCount, 0u);
}

// A tail the pose puts inside a sphere collider (radius 0.08 plus the hit
// radius 0.01) ends outside it after stepping, at its bone's length; a cone
// limit of 0.2 about the hanging direction (the limit frame turned a half
// turn about x) holds under a sideways force.
TEST(SpringProbeMotion, CollidersPushOutLengthsKeptLimitsHold) {
  std::unique_ptr<probe::Rig> rig(ChainRig());
  for (int mode = 0; mode < 2; ++mode) {
    Src s(&rig->s);
    for (maniSpringSourceJoint& j : s.joints) {
      j.gravityPower = 0;
      j.stiffness = mode == 0 ? 1.0f : 0.0f;
    }
    // the side bone sits at (0.5, 1, 0): the center at (0, 0.6, 0.02)
    s.colliders[0].offset = {-0.5f, -0.4f, 0.02f};
    s.colliders[0].radius = 0.08f;
    if (mode == 1) {
      s.src.colliderCount = 0;
      s.src.groupCount = 0;
      s.springs[0].colliderGroupCount = 0;
      s.joints[0].limitKind = maniSpringLimitCone;
      s.joints[0].limitRotation = {1, 0, 0, 0};
      s.joints[0].limitAngle = 0.2f;
    }
    Builder b;
    ASSERT_EQ(maniBuildSpringSet(b.b, &s.src).result, mani_success);
    File f = b.Built();
    maniSpringSet set;
    ASSERT_EQ(maniOpenSpringSet(f.data(), f.size, &set).result, mani_success);
    State st(&set, &rig->s);
    Pose pose(&rig->s);
    ASSERT_EQ(maniPose_SetRest(pose.p, &rig->s), mani_success);
    const maniVec3 force = {mode == 1 ? 20.0f : 0.0f, 0, 0};
    for (int i = 0; i < 90; ++i)
      ASSERT_EQ(maniSpringState_Step(st.st, pose.p, nullptr, &force, 1.0f / 60), mani_success);
    ASSERT_EQ(maniSpringState_Apply(st.st, pose.p), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(pose.p, &rig->s), mani_success);
    probe::V c0 = probe::Of(maniPose_GetModelTransform(pose.p, 2).translation);
    probe::V c1 = probe::Of(maniPose_GetModelTransform(pose.p, 3).translation);
    probe::V c2 = probe::Of(maniPose_GetModelTransform(pose.p, 4).translation);
    EXPECT_NEAR(probe::Len(c1 - c0), 0.2, 1e-5) << mode;
    EXPECT_NEAR(probe::Len(c2 - c1), 0.2, 1e-5) << mode;
    if (mode == 0) {
      const probe::V center = {0, 0.6, 0.02};
      EXPECT_GE(probe::Len(c1 - center), 0.09 - 1e-4);
      EXPECT_GE(probe::Len(c2 - center), 0.09 - 1e-4);
    } else {
      EXPECT_LE(probe::Angle(c1 - c0, {0, -1, 0}), 0.2 + 1e-4);
      EXPECT_GT(probe::Angle(c1 - c0, {0, -1, 0}), 0.1);  // the force did push it
    }
  }
}
