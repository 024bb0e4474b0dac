// bodyik.h: full-body IK by XPBD and SDLS. Every refusal (pose bytes
// unchanged), the scratch size, top modes, locked bones, bones off the
// solved part, and the properties: reachable goals (made by posing the body
// at random and reading its effectors through maniPose_ComputeModel) are
// reached within the tolerance, limits hold after every solve (checked by a
// swing-twist split written here), XPBD converges as iterations grow, SDLS
// never stretches.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/anim/test/fixtures/bodyik_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/blend.h"
#include "maul/anim/bodyik.h"

namespace {

typedef maniResult (*Solver)(maniPose*, const maniSkeleton*, const maniBodySolve*, void*, size_t, bool*);

struct Body {
  maniFixtureBody f;
  void* bytes = nullptr;
  size_t size = 0;
  maniSkeleton s;
  Body(uint64_t seed, maniFixtureBodyShape shape, uint32_t chain = 0) {
    f = maniFixtureMakeBody(seed, shape, chain);
    bytes = maniFixtureBuildSkeleton(&f.source, &size);
    EXPECT_NE(bytes, nullptr);
    EXPECT_EQ(maniOpenSkeleton(bytes, size, &s).result, mani_success);
  }
  ~Body() {
    free(bytes);
    maniFixtureFreeBody(&f);
  }
};

struct Pose {
  void* memory = nullptr;
  size_t size = 0;
  maniPose* p = nullptr;
  explicit Pose(const maniSkeleton* s) {
    size = maniSkeleton_GetPoseSize(s);
    memory = aligned_alloc(32, (size + 31) / 32 * 32);
    EXPECT_EQ(maniInitPose(s, memory, size, &p), mani_success);
  }
  ~Pose() { free(memory); }
  std::vector<unsigned char> Bytes() const {
    const unsigned char* b = (const unsigned char*)memory;
    return std::vector<unsigned char>(b, b + size);
  }
};

struct Scratch {
  void* memory = nullptr;
  size_t size = 0;
  explicit Scratch(size_t n) {
    size = n;
    memory = aligned_alloc(64, (n + 63) / 64 * 64 + 64);
  }
  ~Scratch() { free(memory); }
};

maniVec3 ModelOrigin(maniPose* pose, const maniSkeleton* s, uint32_t bone) {
  EXPECT_EQ(maniPose_ComputeModel(pose, s), mani_success);
  return maniPose_GetModel(pose, bone).columns[3];
}

double Distance(maniVec3 a, maniVec3 b) {
  const double x = (double)a.x - b.x, y = (double)a.y - b.y, z = (double)a.z - b.z;
  return std::sqrt(x * x + y * y + z * z);
}

// Turns every bone of the pose by a seeded rotation of up to `angle` radians.
void Bend(maniPose* pose, uint64_t seed, double angle, uint32_t first = 0) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, seed);
  for (uint32_t b = first; b < maniPose_GetBoneCount(pose); ++b) {
    maniTransform t = maniPose_GetLocal(pose, b);
    double ax[3], l = 0;
    for (double& c : ax) {
      c = mcore_RngFloatRange(&rng, -1, 1);
      l += c * c;
    }
    l = std::sqrt(l);
    const double a = angle * mcore_RngDouble01(&rng) * 0.5;
    const double d[4] = {ax[0] / l * std::sin(a), ax[1] / l * std::sin(a), ax[2] / l * std::sin(a), std::cos(a)};
    const double q[4] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
    const double r[4] = {d[3] * q[0] + d[0] * q[3] + d[1] * q[2] - d[2] * q[1],
                         d[3] * q[1] - d[0] * q[2] + d[1] * q[3] + d[2] * q[0],
                         d[3] * q[2] + d[0] * q[1] - d[1] * q[0] + d[2] * q[3],
                         d[3] * q[3] - d[0] * q[0] - d[1] * q[1] - d[2] * q[2]};
    t.rotation = {(float)r[0], (float)r[1], (float)r[2], (float)r[3]};
    maniPose_SetLocal(pose, b, t);
  }
}

struct BodyCase {
  std::vector<maniBodyEffector> effectors;
  std::vector<maniBodyBoneSettings> settings;
  maniBodySolve solve;
  BodyCase(const Body& body, uint32_t top, maniBodyTopMode mode) {
    for (uint32_t j = 0; j < body.f.effectorCount; ++j) {
      maniBodyEffector e;
      memset(&e, 0, sizeof e);
      e.bone = body.f.effectors[j];
      e.rotation = {0, 0, 0, 1};
      e.strength = 1;
      effectors.push_back(e);
    }
    memset(&solve, 0, sizeof solve);
    solve.top = top;
    solve.topMode = mode;
    solve.iterations = 64;
    solve.tolerance = 1e-3f;
    Bind();
  }
  void Bind() {
    solve.effectors = effectors.data();
    solve.effectorCount = (uint32_t)effectors.size();
    solve.settings = settings.empty() ? nullptr : settings.data();
    solve.settingCount = (uint32_t)settings.size();
  }
  maniBodyBoneSettings& Add(uint32_t bone) {
    maniBodyBoneSettings s;
    memset(&s, 0, sizeof s);
    s.bone = bone;
    s.positionStiffness = 1;
    settings.push_back(s);
    Bind();
    return settings.back();
  }
};

// Goals: the effectors of the body bent by a seeded pose (its root too unless
// the top is held).
void ReachableGoals(const Body& body, BodyCase* setup, uint64_t seed, double angle) {
  Pose bent(&body.s);
  Bend(bent.p, seed, angle, setup->solve.topMode == maniBodyTopHeld ? 1u : 0u);
  for (auto& e : setup->effectors) e.goal = ModelOrigin(bent.p, &body.s, e.bone);
}

maniResult Solve(Solver solver, maniPose* pose, const maniSkeleton* s, const maniBodySolve* solve, bool* reached) {
  const size_t size = maniSkeleton_GetBodyIkScratchSize(s, solve);
  Scratch scratch(size);
  return solver(pose, s, solve, scratch.memory, scratch.size, reached);
}

const Solver kSolvers[2] = {maniPose_SolveBodyXpbd, maniPose_SolveBodySdls};

// -- Refusals -------------------------------------------------------------------

TEST(BodyIk, RefusalsLeaveThePoseUnchanged) {
  Body body(1, maniFixtureBodyHumanoid);
  for (Solver solver : kSolvers) {
    Pose pose(&body.s);
    Bend(pose.p, 7, 0.5);
    const auto before = pose.Bytes();
    Scratch scratch(1 << 20);
    auto expect = [&](const maniBodySolve& solve, maniResult want, const char* what) {
      bool reached = true;
      EXPECT_EQ(solver(pose.p, &body.s, &solve, scratch.memory, scratch.size, &reached), want) << what;
      if (want == mani_success) return;
      EXPECT_EQ(pose.Bytes(), before) << what;
      EXPECT_TRUE(reached) << what;
    };
    auto with = [&](auto change, maniResult want, const char* what) {
      BodyCase s(body, 0, maniBodyTopPinned);
      s.Add(7);
      change(s);
      s.Bind();
      expect(s.solve, want, what);
    };
    with([](BodyCase&) {}, mani_success, "control");
    // the control solved: restore the bytes for the rest
    memcpy(pose.memory, before.data(), before.size());

    with([](BodyCase& s) { s.effectors.resize(MANI_MAX_BODY_IK_EFFECTORS + 1, s.effectors[0]); }, mani_errorLimit,
         "effectors past the limit");
    with([](BodyCase& s) { s.settings.resize(MANI_MAX_BODY_IK_BONES + 1, s.settings[0]); }, mani_errorLimit,
         "settings past the limit");
    with([](BodyCase& s) { s.solve.iterations = MANI_MAX_IK_ITERATIONS + 1; }, mani_errorLimit, "iterations");
    with([](BodyCase& s) { s.solve.top = 22; }, mani_errorInvalid, "top out of range");
    with([](BodyCase& s) { s.effectors[0].bone = 22; }, mani_errorInvalid, "effector out of range");
    with([](BodyCase& s) { s.settings[0].bone = 22; }, mani_errorInvalid, "setting out of range");
    with([](BodyCase& s) { s.solve.top = 14; }, mani_errorInvalid, "effector not below the top");
    with([](BodyCase& s) { s.effectors[1].bone = s.effectors[0].bone; }, mani_errorInvalid, "effector twice");
    with([](BodyCase& s) { s.Add(7); }, mani_errorInvalid, "setting twice");
    with([](BodyCase& s) { s.settings[0].bone = 17; }, mani_errorInvalid, "setting off the part");
    with([](BodyCase& s) { s.effectors.clear(); }, mani_errorInvalid, "no effectors");
    with([](BodyCase& s) { s.solve.iterations = 0; }, mani_errorInvalid, "no iterations");
    with([](BodyCase& s) { s.effectors[2].goal.y = NAN; }, mani_errorInvalid, "goal not finite");
    with([](BodyCase& s) { s.effectors[2].rotation.w = INFINITY; }, mani_errorInvalid, "rotation not finite");
    with([](BodyCase& s) { s.effectors[2].rotation = {0, 0, 0, 0}; }, mani_errorInvalid, "rotation of length 0");
    with([](BodyCase& s) { s.settings[0].preferredAngles.z = NAN; }, mani_errorInvalid, "preferred angle");
    with([](BodyCase& s) { s.settings[0].limit.kind = 5; }, mani_errorInvalid, "limit kind");
    with(
        [](BodyCase& s) {
          s.settings[0].limit.kind = maniJointLimitCone;
          s.settings[0].limit.cone = 3.5f;
        },
        mani_errorInvalid, "cone out of range");
    with(
        [](BodyCase& s) {
          s.settings[0].limit.kind = maniJointLimitTwist;
          s.settings[0].limit.minAngle = 1;
          s.settings[0].limit.maxAngle = 0.5f;
        },
        mani_errorInvalid, "twist min above max");
    with(
        [](BodyCase& s) {
          s.settings[0].limit.kind = maniJointLimitHinge;
          s.settings[0].limit.axis = {0, 0, 1.01f};
        },
        mani_errorInvalid, "hinge axis not unit");
    with([](BodyCase& s) { s.effectors[0].rotationWeight = 1.5f; }, mani_errorInvalid, "rotation weight");
    with([](BodyCase& s) { s.effectors[0].strength = -0.1f; }, mani_errorInvalid, "strength");
    with([](BodyCase& s) { s.effectors[0].pullChain = NAN; }, mani_errorInvalid, "pull chain");
    with([](BodyCase& s) { s.settings[0].rotationStiffness = 2; }, mani_errorInvalid, "rotation stiffness");
    with([](BodyCase& s) { s.settings[0].positionStiffness = -1; }, mani_errorInvalid, "position stiffness");
    with([](BodyCase& s) { s.solve.prePull = 1.5f; }, mani_errorInvalid, "pre-pull");
    with([](BodyCase& s) { s.solve.tolerance = -1; }, mani_errorInvalid, "tolerance below 0");
    with([](BodyCase& s) { s.solve.tolerance = INFINITY; }, mani_errorInvalid, "tolerance not finite");
    with([](BodyCase& s) { s.solve.topMode = (maniBodyTopMode)3; }, mani_errorInvalid, "top mode");
    if (solver == maniPose_SolveBodySdls)
      with([](BodyCase& s) { s.settings[0].positionStiffness = 0.5f; }, mani_errorInvalid, "stretch");

    BodyCase s(body, 0, maniBodyTopPinned);
    const size_t need = maniSkeleton_GetBodyIkScratchSize(&body.s, &s.solve);
    ASSERT_GT(need, 0u);
    bool reached = true;
    EXPECT_EQ(solver(nullptr, &body.s, &s.solve, scratch.memory, need, &reached), mani_errorInvalid);
    EXPECT_EQ(solver(pose.p, nullptr, &s.solve, scratch.memory, need, &reached), mani_errorInvalid);
    EXPECT_EQ(solver(pose.p, &body.s, nullptr, scratch.memory, need, &reached), mani_errorInvalid);
    EXPECT_EQ(solver(pose.p, &body.s, &s.solve, nullptr, need, &reached), mani_errorInvalid);
    EXPECT_EQ(solver(pose.p, &body.s, &s.solve, (char*)scratch.memory + 8, need, &reached), mani_errorInvalid);
    EXPECT_EQ(solver(pose.p, &body.s, &s.solve, scratch.memory, need - 1, &reached), mani_errorCapacity);
    EXPECT_EQ(pose.Bytes(), before);
    // a pose of another skeleton, and a difference
    Body other(2, maniFixtureBodyChain, 5);
    Pose foreign(&other.s);
    const auto foreignBefore = foreign.Bytes();
    EXPECT_EQ(solver(foreign.p, &body.s, &s.solve, scratch.memory, scratch.size, &reached), mani_errorInvalid);
    EXPECT_EQ(foreign.Bytes(), foreignBefore);
    Pose rest(&body.s), diff(&body.s);
    ASSERT_EQ(maniSkeleton_ComputePoseDifference(&body.s, pose.p, rest.p, diff.p), mani_success);
    const auto diffBefore = diff.Bytes();
    EXPECT_EQ(solver(diff.p, &body.s, &s.solve, scratch.memory, scratch.size, &reached), mani_errorInvalid);
    EXPECT_EQ(diff.Bytes(), diffBefore);
    EXPECT_TRUE(reached);
  }
}

// Both entry points called directly (the tests above go through kSolvers):
// every NULL argument refused, nothing written to reachedOut.
TEST(BodyIk, DirectCallsRefuseNullArguments) {
  Body body(2, maniFixtureBodyHumanoid);
  Pose pose(&body.s);
  bool reached = true;
  alignas(16) unsigned char scratch[64];
  EXPECT_EQ(maniPose_SolveBodyXpbd(nullptr, &body.s, nullptr, scratch, sizeof scratch, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveBodySdls(nullptr, &body.s, nullptr, scratch, sizeof scratch, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveBodyXpbd(pose.p, nullptr, nullptr, scratch, sizeof scratch, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveBodySdls(pose.p, nullptr, nullptr, scratch, sizeof scratch, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveBodyXpbd(pose.p, &body.s, nullptr, scratch, sizeof scratch, &reached), mani_errorInvalid);
  EXPECT_EQ(maniPose_SolveBodySdls(pose.p, &body.s, nullptr, scratch, sizeof scratch, &reached), mani_errorInvalid);
  EXPECT_TRUE(reached);
}

TEST(BodyIk, ScratchSize) {
  Body body(1, maniFixtureBodyHumanoid);
  BodyCase s(body, 0, maniBodyTopFree);
  EXPECT_EQ(maniSkeleton_GetBodyIkScratchSize(nullptr, &s.solve), 0u);
  EXPECT_EQ(maniSkeleton_GetBodyIkScratchSize(&body.s, nullptr), 0u);
  const size_t free = maniSkeleton_GetBodyIkScratchSize(&body.s, &s.solve);
  EXPECT_GT(free, 0u);
  // SDLS's Jacobian alone: 15 rows by 3 x 21 + 3 columns, and W 15 x 15
  EXPECT_GE(free, 8u * (15u * 66u + 15u * 15u));
  s.effectors[0].rotationWeight = 0.5f;  // 3 more rows
  EXPECT_GE(maniSkeleton_GetBodyIkScratchSize(&body.s, &s.solve), free + 8u * 3u * 66u);
  s.solve.iterations = 0;
  EXPECT_EQ(maniSkeleton_GetBodyIkScratchSize(&body.s, &s.solve), 0u);
  // stretch: XPBD takes it, so the size is given
  BodyCase t(body, 0, maniBodyTopHeld);
  t.Add(7).positionStiffness = 0.5f;
  EXPECT_GT(maniSkeleton_GetBodyIkScratchSize(&body.s, &t.solve), 0u);
  BodyCase locked(body, 0, maniBodyTopHeld);
  const size_t all = maniSkeleton_GetBodyIkScratchSize(&body.s, &locked.solve);
  locked.Add(7).rotationStiffness = 1;  // a locked bone has no columns
  EXPECT_LT(maniSkeleton_GetBodyIkScratchSize(&body.s, &locked.solve), all);
}

// -- Properties -------------------------------------------------------------------

TEST(BodyIk, ReachableGoalsAreReached) {
  for (int which = 0; which < 2; ++which)
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      Body body(seed, seed % 2 ? maniFixtureBodyHumanoid : maniFixtureBodyChain, 6);
      BodyCase s(body, 0, maniBodyTopHeld);
      s.solve.iterations = MANI_MAX_IK_ITERATIONS;
      s.solve.tolerance = 5e-3f;
      ReachableGoals(body, &s, seed * 31, 1.0);
      Pose pose(&body.s);
      bool reached = false;
      ASSERT_EQ(Solve(kSolvers[which], pose.p, &body.s, &s.solve, &reached), mani_success);
      bool all = true;
      for (const auto& e : s.effectors) {
        const double d = Distance(ModelOrigin(pose.p, &body.s, e.bone), e.goal);
        EXPECT_LE(d, 5e-3 + 1e-5) << "solver " << which << " seed " << seed << " bone " << e.bone;
        all = all && d <= 5e-3 + 1e-5;
      }
      EXPECT_TRUE(reached) << "solver " << which << " seed " << seed;
      (void)all;
    }
}

TEST(BodyIk, UnreachableGoalStretchesTheChainTowardIt) {
  for (Solver solver : kSolvers) {
    Body body(3, maniFixtureBodyChain, 5);  // 4 bones of about 1 from the root
    BodyCase s(body, 0, maniBodyTopPinned);
    s.effectors[0].goal = {0, 10, 0};
    s.solve.iterations = 200;
    Pose pose(&body.s);
    bool reached = true;
    ASSERT_EQ(Solve(solver, pose.p, &body.s, &s.solve, &reached), mani_success);
    EXPECT_FALSE(reached);
    // the end as far up as the chain reaches: nearly its full length
    const maniVec3 end = ModelOrigin(pose.p, &body.s, 4);
    const maniVec3 root = ModelOrigin(pose.p, &body.s, 0);
    EXPECT_GT(end.y - root.y, 0.97 * 4 * 0.95) << (solver == maniPose_SolveBodySdls ? "sdls" : "xpbd");
  }
}

// A limit's check written from ik.h's words: r = rest d, d = swing twist about
// the bone's axis (its first solved child's translation).
double QDot(const double a[4], const double b[4]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }

void QMul(const double a[4], const double b[4], double o[4]) {
  o[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
  o[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
  o[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
  o[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

bool WithinLimit(const maniJointLimit& l, maniQuat restq, maniQuat rq, const double axis[3], double slack) {
  const double rest[4] = {-restq.x, -restq.y, -restq.z, restq.w};
  const double r[4] = {rq.x, rq.y, rq.z, rq.w};
  double d[4];
  QMul(rest, r, d);
  const double n = std::sqrt(QDot(d, d));
  for (double& c : d) c /= n;
  if (d[3] < 0)
    for (double& c : d) c = -c;
  if (l.kind == maniJointLimitHinge) {
    const double h[3] = {l.axis.x, l.axis.y, l.axis.z};
    const double p = d[0] * h[0] + d[1] * h[1] + d[2] * h[2];
    const double off = std::sqrt(std::max(0.0, d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - p * p));
    const double angle = 2 * std::atan2(p, d[3]);
    return off <= slack && angle >= l.minAngle - slack && angle <= l.maxAngle + slack;
  }
  const double p = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
  const double twist = 2 * std::atan2(p, d[3]);
  // the swing: the angle the axis turns
  double v[3];
  {
    const double q[4] = {d[0], d[1], d[2], d[3]}, a[4] = {axis[0], axis[1], axis[2], 0};
    const double qc[4] = {-d[0], -d[1], -d[2], d[3]};
    double t[4], o[4];
    QMul(q, a, t);
    QMul(t, qc, o);
    v[0] = o[0], v[1] = o[1], v[2] = o[2];
  }
  const double c = std::max(-1.0, std::min(1.0, v[0] * axis[0] + v[1] * axis[1] + v[2] * axis[2]));
  const double swing = std::acos(c);
  bool ok = true;
  if (l.kind == maniJointLimitCone || l.kind == maniJointLimitConeTwist) ok = ok && swing <= l.cone + slack;
  if (l.kind == maniJointLimitTwist || l.kind == maniJointLimitConeTwist)
    ok = ok && twist >= l.minAngle - slack && twist <= l.maxAngle + slack;
  return ok;
}

TEST(BodyIk, LimitsHoldAfterEverySolve) {
  for (int which = 0; which < 2; ++which)
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      Body body(seed, maniFixtureBodyChain, 7);
      BodyCase s(body, 0, maniBodyTopPinned);
      s.solve.iterations = 40;
      ReachableGoals(body, &s, seed, 2.0);
      mcore_Rng rng;
      mcore_RngSeed(&rng, seed * 977);
      for (uint32_t b = 0; b < 6; ++b) {
        maniBodyBoneSettings& st = s.Add(b);
        st.limit.kind = 1 + (uint32_t)((b + seed) % 4);
        st.limit.axis = {0, 0, 1};
        st.limit.minAngle = -mcore_RngFloatRange(&rng, 0.05f, 1.0f);
        st.limit.maxAngle = mcore_RngFloatRange(&rng, 0.05f, 1.0f);
        st.limit.cone = mcore_RngFloatRange(&rng, 0.05f, 1.0f);
        st.rotationStiffness = (b % 3 == 1) ? 0.3f : 0.0f;
      }
      Pose pose(&body.s);
      Bend(pose.p, seed + 100, 1.5);  // a start outside the limits too
      bool reached;
      ASSERT_EQ(Solve(kSolvers[which], pose.p, &body.s, &s.solve, &reached), mani_success);
      for (uint32_t b = 0; b < 6; ++b) {
        const maniTransform child = maniPose_GetLocal(pose.p, b + 1);
        const double l = std::sqrt((double)child.translation.x * child.translation.x +
                                   (double)child.translation.y * child.translation.y +
                                   (double)child.translation.z * child.translation.z);
        const double axis[3] = {child.translation.x / l, child.translation.y / l, child.translation.z / l};
        EXPECT_TRUE(WithinLimit(s.settings[b].limit, maniSkeleton_GetRest(&body.s, b).rotation,
                                maniPose_GetLocal(pose.p, b).rotation, axis, 1e-5))
            << "solver " << which << " seed " << seed << " bone " << b << " kind " << s.settings[b].limit.kind;
      }
    }
}

TEST(BodyIk, XpbdConvergesAsIterationsGrow) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Body body(seed, maniFixtureBodyHumanoid);
    BodyCase s(body, 0, maniBodyTopPinned);
    s.solve.tolerance = 0;
    ReachableGoals(body, &s, seed, 1.0);
    // soft effectors and stiff bones: a compliant equilibrium, not the goals
    for (auto& e : s.effectors) e.strength = 0.5f;
    s.Add(1).rotationStiffness = 0.5f;
    s.Add(7).rotationStiffness = 0.8f;
    auto run = [&](uint32_t iterations) {
      s.solve.iterations = iterations;
      Pose pose(&body.s);
      bool reached;
      EXPECT_EQ(Solve(maniPose_SolveBodyXpbd, pose.p, &body.s, &s.solve, &reached), mani_success);
      std::vector<double> v;
      for (uint32_t b = 0; b < 22; ++b) {
        const maniQuat q = maniPose_GetLocal(pose.p, b).rotation;
        v.insert(v.end(), {q.x, q.y, q.z, q.w});
      }
      return v;
    };
    auto gap = [](const std::vector<double>& a, const std::vector<double>& b) {
      double m = 0;
      for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
      return m;
    };
    const auto r4 = run(4), r8 = run(8), r64 = run(64), r128 = run(128), r256 = run(256);
    EXPECT_GT(gap(r4, r8), 0.0);
    EXPECT_LT(gap(r128, r256), gap(r4, r8)) << seed;
    EXPECT_LT(gap(r64, r128), gap(r4, r8)) << seed;
    EXPECT_LT(gap(r128, r256), 2e-3) << seed;
  }
}

TEST(BodyIk, SdlsNeverStretches) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    Body body(seed, seed % 2 ? maniFixtureBodyHumanoid : maniFixtureBodyStar);
    BodyCase s(body, 0, seed % 3 == 0 ? maniBodyTopFree : maniBodyTopPinned);
    for (auto& e : s.effectors) e.goal = {(float)seed, -3, 2};  // far out of reach
    s.effectors[0].rotationWeight = 0.5f;
    s.effectors[0].rotation = {0.3f, 0.1f, 0, 1};
    s.solve.iterations = seed % 2 ? 12 : 2;  // the star's iterations are costly (qemu)
    Pose pose(&body.s);
    Pose before(&body.s);
    bool reached;
    ASSERT_EQ(Solve(maniPose_SolveBodySdls, pose.p, &body.s, &s.solve, &reached), mani_success);
    EXPECT_FALSE(reached);
    for (uint32_t b = 1; b < maniPose_GetBoneCount(pose.p); ++b) {
      const maniTransform a = maniPose_GetLocal(pose.p, b), o = maniPose_GetLocal(before.p, b);
      EXPECT_EQ(memcmp(&a.translation, &o.translation, sizeof a.translation), 0) << b;
      EXPECT_EQ(memcmp(&a.scale, &o.scale, sizeof a.scale), 0) << b;
    }
  }
}

// -- Top modes, stiffness, the part ---------------------------------------------------

TEST(BodyIk, TopModes) {
  for (Solver solver : kSolvers) {
    Body body(5, maniFixtureBodyHumanoid);
    Pose rest(&body.s);
    const maniVec3 pelvis = ModelOrigin(rest.p, &body.s, 0);
    for (int mode = 0; mode < 3; ++mode) {
      BodyCase s(body, 0, (maniBodyTopMode)mode);
      for (auto& e : s.effectors) e.goal = {2, 3, 1};  // all far to one side
      s.solve.prePull = 1;
      for (auto& e : s.effectors) e.pullChain = 1;
      Pose pose(&body.s);
      const maniTransform before = maniPose_GetLocal(pose.p, 0);
      bool reached;
      ASSERT_EQ(Solve(solver, pose.p, &body.s, &s.solve, &reached), mani_success);
      const maniTransform after = maniPose_GetLocal(pose.p, 0);
      if (mode == maniBodyTopHeld) {
        EXPECT_EQ(memcmp(&before, &after, sizeof before), 0);
      }
      if (mode != maniBodyTopFree) {
        EXPECT_EQ(memcmp(&before.translation, &after.translation, 12), 0);
      }
      if (mode != maniBodyTopHeld) {
        EXPECT_NE(memcmp(&before.rotation, &after.rotation, 16), 0);
      }
      if (mode == maniBodyTopFree) {
        // the pelvis moved toward the goals
        const maniVec3 p = ModelOrigin(pose.p, &body.s, 0);
        EXPECT_LT(Distance(p, {2, 3, 1}), Distance(pelvis, {2, 3, 1}) - 0.5);
      }
    }
  }
}

TEST(BodyIk, LockedBonesAndBonesOffThePartKeepTheirLocals) {
  for (Solver solver : kSolvers) {
    Body body(9, maniFixtureBodyHumanoid);
    BodyCase s(body, 0, maniBodyTopPinned);
    ReachableGoals(body, &s, 4, 1.0);
    s.effectors.resize(2);  // the hands: legs, neck and head off the part
    s.Bind();
    s.Add(11).rotationStiffness = 1;
    Pose pose(&body.s);
    Bend(pose.p, 12, 0.3);
    const auto before = pose.Bytes();
    Pose copy(&body.s);
    memcpy(copy.memory, before.data(), before.size());
    bool reached;
    ASSERT_EQ(Solve(solver, pose.p, &body.s, &s.solve, &reached), mani_success);
    for (uint32_t b : {4u, 5u, 11u, 14u, 15u, 16u, 17u, 18u, 19u, 20u, 21u}) {
      const maniTransform a = maniPose_GetLocal(pose.p, b), o = maniPose_GetLocal(copy.p, b);
      EXPECT_EQ(memcmp(&a, &o, sizeof a), 0) << b;
    }
    EXPECT_FALSE(maniPose_IsModelCurrent(pose.p));
    // something moved
    EXPECT_NE(pose.Bytes(), before);
  }
}

TEST(BodyIk, RotationGoalTurnsTheEffector) {
  for (Solver solver : kSolvers) {
    Body body(4, maniFixtureBodyChain, 5);
    BodyCase s(body, 0, maniBodyTopPinned);
    Pose rest(&body.s);
    s.effectors[0].goal = ModelOrigin(rest.p, &body.s, 4);  // at its place: only the turn
    const float h = 0.5f * 0.6f;
    s.effectors[0].rotation = {0, 0, std::sin(h), std::cos(h)};
    s.effectors[0].rotationWeight = 1;
    s.solve.iterations = 100;
    s.solve.tolerance = 0;  // the origin starts on its goal: only the rotation pulls
    Pose pose(&body.s);
    bool reached;
    ASSERT_EQ(Solve(solver, pose.p, &body.s, &s.solve, &reached), mani_success);
    const maniTransform end = [&] {
      EXPECT_EQ(maniPose_ComputeModel(pose.p, &body.s), mani_success);
      return maniPose_GetModelTransform(pose.p, 4);
    }();
    const maniTransform before = maniPose_GetModelTransform(rest.p, 4);
    const double g[4] = {0, 0, std::sin(h), std::cos(h)};
    const double e[4] = {end.rotation.x, end.rotation.y, end.rotation.z, end.rotation.w};
    const double b[4] = {before.rotation.x, before.rotation.y, before.rotation.z, before.rotation.w};
    EXPECT_GT(std::fabs(QDot(g, e)), std::fabs(QDot(g, b)) + 1e-3);
  }
}

TEST(BodyIk, StretchLengthensTheBonesInXpbd) {
  Body body(3, maniFixtureBodyChain, 4);
  BodyCase s(body, 0, maniBodyTopHeld);
  s.effectors[0].goal = {6, 0, 0};  // 3 bones of about 1: 2 past reach
  for (uint32_t b = 1; b < 4; ++b) s.Add(b).positionStiffness = 0.5f;
  s.solve.iterations = 100;
  Pose pose(&body.s);
  bool reached;
  ASSERT_EQ(Solve(maniPose_SolveBodyXpbd, pose.p, &body.s, &s.solve, &reached), mani_success);
  Pose rest(&body.s);
  const double was = Distance(ModelOrigin(rest.p, &body.s, 3), {6, 0, 0});
  const double now = Distance(ModelOrigin(pose.p, &body.s, 3), {6, 0, 0});
  EXPECT_LT(now, was - 0.5);
  EXPECT_GT(maniPose_GetLocal(pose.p, 2).translation.x, maniPose_GetLocal(rest.p, 2).translation.x * 1.1f);
}

TEST(BodyIk, ReachedStartSolvesNothing) {
  for (Solver solver : kSolvers) {
    Body body(2, maniFixtureBodyHumanoid);
    BodyCase s(body, 0, maniBodyTopPinned);
    Pose pose(&body.s);
    for (auto& e : s.effectors) e.goal = ModelOrigin(pose.p, &body.s, e.bone);
    const auto before = pose.Bytes();
    bool reached = false;
    ASSERT_EQ(Solve(solver, pose.p, &body.s, &s.solve, &reached), mani_success);
    EXPECT_TRUE(reached);
    for (uint32_t b = 0; b < 22; ++b) {
      Pose copy(&body.s);
      memcpy(copy.memory, before.data(), before.size());
      const maniTransform a = maniPose_GetLocal(pose.p, b), o = maniPose_GetLocal(copy.p, b);
      EXPECT_EQ(memcmp(&a, &o, sizeof a), 0) << b;
    }
  }
}

TEST(BodyIk, SdlsTurnsEachBoneAtMostAQuarterPiAnIteration) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Body body(seed, maniFixtureBodyHumanoid);
    BodyCase s(body, 0, maniBodyTopPinned);
    for (auto& e : s.effectors) e.goal = {-3.0f * (float)seed, 4, -2};  // far: the step bounds act
    s.effectors[1].rotationWeight = 1;
    s.effectors[1].rotation = {0, 1, 0, 0};
    s.solve.iterations = 1;
    Pose pose(&body.s);
    Pose before(&body.s);
    bool reached;
    ASSERT_EQ(Solve(maniPose_SolveBodySdls, pose.p, &body.s, &s.solve, &reached), mani_success);
    bool moved = false;
    for (uint32_t b = 0; b < 22; ++b) {
      const maniQuat a = maniPose_GetLocal(pose.p, b).rotation, o = maniPose_GetLocal(before.p, b).rotation;
      const double qa[4] = {a.x, a.y, a.z, a.w}, qo[4] = {o.x, o.y, o.z, o.w};
      const double c = std::min(1.0, std::fabs(QDot(qa, qo)));
      const double angle = 2 * std::acos(c);
      EXPECT_LE(angle, M_PI / 4 + 1e-5) << "seed " << seed << " bone " << b;
      moved = moved || angle > 1e-3;
    }
    EXPECT_TRUE(moved);
  }
}

TEST(BodyIk, EveryIterationCounts) {
  // Short of convergence the result changes with the iteration count; the
  // same count gives the same bits.
  for (Solver solver : kSolvers) {
    Body body(6, maniFixtureBodyHumanoid);
    BodyCase s(body, 0, maniBodyTopFree);
    ReachableGoals(body, &s, 9, 1.0);
    s.solve.tolerance = 0;
    std::vector<std::vector<unsigned char>> results;
    for (uint32_t it : {1u, 2u, 3u, 3u}) {
      s.solve.iterations = it;
      Pose pose(&body.s);
      bool reached;
      EXPECT_EQ(Solve(solver, pose.p, &body.s, &s.solve, &reached), mani_success);
      results.push_back(pose.Bytes());
    }
    EXPECT_NE(results[0], results[1]);
    EXPECT_NE(results[1], results[2]);
    EXPECT_EQ(results[2], results[3]);
  }
}

}  // namespace
