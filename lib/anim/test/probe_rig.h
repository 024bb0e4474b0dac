// Hand-placed skeletons and binary64 geometry for the break-it probes
// (ik_probe_test.cc, bodyik_probe_test.cc): every expected value there is
// derived from these exact placements, never from a solver's output.
#ifndef MAUL_ANIM_TEST_PROBE_RIG_H
#define MAUL_ANIM_TEST_PROBE_RIG_H

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/blend.h"
#include "maul/anim/pose.h"

namespace probe {

struct V {
  double x = 0, y = 0, z = 0;
};
inline V operator-(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V operator+(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V operator*(double s, V a) { return {s * a.x, s * a.y, s * a.z}; }
inline double Dot(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V Cross(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline double Len(V a) { return std::sqrt(Dot(a, a)); }
inline double Angle(V a, V b) { return std::atan2(Len(Cross(a, b)), Dot(a, b)); }
inline V Of(maniVec3 v) { return {v.x, v.y, v.z}; }
inline maniVec3 F(V v) { return {(float)v.x, (float)v.y, (float)v.z}; }

struct Q {
  double x = 0, y = 0, z = 0, w = 1;
};
inline Q Of(maniQuat q) { return {q.x, q.y, q.z, q.w}; }
inline Q Mul(Q a, Q b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
inline Q Conj(Q a) { return {-a.x, -a.y, -a.z, a.w}; }
inline V Rot(Q q, V v) {
  Q p = Mul(Mul(q, {v.x, v.y, v.z, 0}), Conj(q));
  return {p.x, p.y, p.z};
}
inline Q AxisAngle(V axis, double a) {
  double l = Len(axis);
  double s = std::sin(a / 2) / l;
  return {axis.x * s, axis.y * s, axis.z * s, std::cos(a / 2)};
}
inline maniQuat FQ(Q q) { return {(float)q.x, (float)q.y, (float)q.z, (float)q.w}; }
// The angle between two rotations (0 to pi), sign of the quaternion ignored.
inline double QDist(Q a, Q b) {
  Q d = Mul(Conj(a), b);
  return 2 * std::atan2(std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), std::fabs(d.w));
}

// One bone of a hand-placed skeleton: listed depth-first, so a source index
// is the skeleton index (maniBuildSkeleton keeps a depth-first order).
struct Bone {
  uint32_t parent;
  V t;
  Q r;
};

struct Rig {
  void* bytes = nullptr;
  size_t size = 0;
  maniSkeleton s;
  void* memory = nullptr;
  size_t poseSize = 0;
  maniPose* p = nullptr;
  explicit Rig(const std::vector<Bone>& bones) {
    std::vector<maniSkeletonSourceBone> src(bones.size());
    names.resize(bones.size());
    for (size_t i = 0; i < bones.size(); ++i) {
      names[i] = "b" + std::to_string(i);
      src[i].name = names[i].c_str();
      src[i].nameLength = names[i].size();
      src[i].parent = bones[i].parent;
      src[i].rest.translation = F(bones[i].t);
      src[i].rest.rotation = FQ(bones[i].r);
      src[i].rest.scale = {1, 1, 1};
    }
    maniSkeletonSource source = {src.data(), (uint32_t)src.size()};
    bytes = maniFixtureBuildSkeleton(&source, &size);
    EXPECT_NE(bytes, nullptr);
    EXPECT_EQ(maniOpenSkeleton(bytes, size, &s).result, mani_success);
    poseSize = maniSkeleton_GetPoseSize(&s);
    memory = aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32);
    EXPECT_EQ(maniInitPose(&s, memory, poseSize, &p), mani_success);
  }
  ~Rig() {
    free(memory);
    free(bytes);
  }
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;
  std::vector<unsigned char> Bytes() const {
    const unsigned char* b = (const unsigned char*)memory;
    return std::vector<unsigned char>(b, b + poseSize);
  }
  // Every local transform's bits as they were in `b` (a Bytes() copy): the
  // bones that differ, listed.
  std::string LocalsDiffer(const std::vector<unsigned char>& b) {
    std::vector<unsigned char> now = Bytes();
    Restore(b);
    std::vector<maniTransform> was(maniSkeleton_GetBoneCount(&s));
    for (uint32_t k = 0; k < was.size(); ++k) was[k] = maniPose_GetLocal(p, k);
    Restore(now);
    std::string out;
    for (uint32_t k = 0; k < was.size(); ++k) {
      maniTransform l = maniPose_GetLocal(p, k);
      if (memcmp(&l, &was[k], sizeof l) != 0) {
        char buf[200];
        snprintf(buf, sizeof buf, " bone %u r(%.9g %.9g %.9g %.9g) was (%.9g %.9g %.9g %.9g);", k, l.rotation.x,
                 l.rotation.y, l.rotation.z, l.rotation.w, was[k].rotation.x, was[k].rotation.y, was[k].rotation.z,
                 was[k].rotation.w);
        out += buf;
      }
    }
    return out;
  }
  void Restore(const std::vector<unsigned char>& b) { memcpy(memory, b.data(), b.size()); }
  // Model frames composed here from the locals (rotation and translation;
  // every probe rig has scale 1), the pose left as is.
  Q ModelRot(uint32_t bone) const {
    Q q;
    for (uint32_t b = bone; b != MANI_NO_BONE; b = maniSkeleton_GetParent(&s, b)) q = Mul(Of(maniPose_GetLocal(p, b).rotation), q);
    return q;
  }
  V Pos(uint32_t bone) const {
    V at;
    for (uint32_t b = bone; b != MANI_NO_BONE; b = maniSkeleton_GetParent(&s, b)) {
      maniTransform l = maniPose_GetLocal(p, b);
      at = Rot(Of(l.rotation), at) + Of(l.translation);
    }
    return at;
  }
  Q Local(uint32_t bone) const { return Of(maniPose_GetLocal(p, bone).rotation); }
  void SetLocalRot(uint32_t bone, Q q) {
    maniTransform l = maniPose_GetLocal(p, bone);
    l.rotation = FQ(q);
    maniPose_SetLocal(p, bone, l);
  }
  void SetLocalT(uint32_t bone, V t) {
    maniTransform l = maniPose_GetLocal(p, bone);
    l.translation = F(t);
    maniPose_SetLocal(p, bone, l);
  }
  bool LocalsFinite() const {
    for (uint32_t b = 0; b < maniSkeleton_GetBoneCount(&s); ++b) {
      maniTransform l = maniPose_GetLocal(p, b);
      const float* f = &l.translation.x;
      for (int i = 0; i < 3; ++i)
        if (!std::isfinite(f[i])) return false;
      const float* r = &l.rotation.x;
      for (int i = 0; i < 4; ++i)
        if (!std::isfinite(r[i])) return false;
    }
    return true;
  }

 private:
  std::vector<std::string> names;
};

// A chain of n bones along +x: bone 0 at the origin, each next `len` (or
// lens[k]) further, every rest rotation the identity.
inline std::vector<Bone> XChain(uint32_t n, std::vector<double> lens = {}) {
  std::vector<Bone> b;
  for (uint32_t k = 0; k < n; ++k) {
    double l = k == 0 ? 0 : (lens.size() >= k ? lens[k - 1] : 1.0);
    b.push_back({k == 0 ? MANI_NO_BONE : k - 1, {l, 0, 0}, Q{}});
  }
  return b;
}

}  // namespace probe

#endif
