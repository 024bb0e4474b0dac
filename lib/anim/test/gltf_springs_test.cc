// maniGltf_ReadSprings (import.h): VRMC_springBone 1.0 with its extended
// colliders and limits, on documents written here (every value worked out
// by hand from the JSON: nodes, shapes, the basis and unit, versions
// ignored, colliders carried to their bones) and on three-vrm's examples and
// a VRM 0.x avatar in ../shared/data (skipped when absent), with every
// refusal and its item and offset; then the springs stepped against
// three-vrm's joints (data/springs, tools/springs) on the generated
// documents and three-vrm's examples.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/build.h"
#include "maul/anim/import.h"
#include "maul/anim/pose.h"
#include "maul/anim/spring.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

std::string SharedData() { return MaulSharedData(); }

bool ReadFile(const std::string& path, std::string* out) { return MaulReadFile(path, out); }

// A document opened with its skeleton (skin 0's, or node 0's subtree)
// built and opened.
struct Doc {
  Builder b;
  maniGltf* g = nullptr;
  File skeletonFile;
  maniSkeleton s;
  std::string text;
  Doc(const std::string& t, bool nodeSkeleton) : text(t) {
    EXPECT_EQ(maniOpenGltf(b.b, text.data(), text.size(), &g).result, mani_success);
    maniGltfOptions o = maniDefaultGltfOptions();
    maniImportResult r = nodeSkeleton ? maniBuildGltfNodeSkeleton(b.b, g, 0, &o) : maniBuildGltfSkeleton(b.b, g, 0, &o);
    EXPECT_EQ(r.result, mani_success);
    skeletonFile = b.Built();
    EXPECT_EQ(maniOpenSkeleton(skeletonFile.data(), skeletonFile.size, &s).result, mani_success);
  }
  ~Doc() { maniCloseGltf(g); }
  uint32_t Bone(const char* name) const { return maniSkeleton_FindBone(&s, name, strlen(name)); }
};

// A skeleton of named bones at rest (identity), parents by index.
struct NamedSkeleton {
  File file;
  maniSkeleton s;
  NamedSkeleton(const std::vector<const char*>& names, const std::vector<uint32_t>& parents) {
    std::vector<maniSkeletonSourceBone> bones(names.size());
    for (size_t k = 0; k < names.size(); ++k) {
      memset(&bones[k], 0, sizeof bones[k]);
      bones[k].name = names[k];
      bones[k].nameLength = strlen(names[k]);
      bones[k].parent = parents[k];
      bones[k].rest.rotation.w = 1;
      bones[k].rest.scale = maniVec3{1, 1, 1};
    }
    maniSkeletonSource src{bones.data(), (uint32_t)bones.size()};
    Builder b;
    EXPECT_EQ(maniBuildSkeleton(b.b, &src).result, mani_success);
    file = b.Built();
    EXPECT_EQ(maniOpenSkeleton(file.data(), file.size, &s).result, mani_success);
  }
};

void ExpectVec(maniVec3 v, double x, double y, double z, double tol = 1e-6) {
  EXPECT_NEAR(v.x, x, tol);
  EXPECT_NEAR(v.y, y, tol);
  EXPECT_NEAR(v.z, z, tol);
}

// v turned by q, in binary64.
void Rotate(const maniQuat& q, const double v[3], double out[3]) {
  const double x = q.x, y = q.y, z = q.z, w = q.w;
  const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                          {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                          {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
  for (int r = 0; r < 3; ++r) out[r] = m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2];
}

// Hair and a tail on a head, every collider kind: glTF +Y up, metres.
const char kAvatar[] = R"({
 "asset": {"version": "2.0"},
 "extensionsUsed": ["VRMC_springBone", "VRMC_springBone_extended_collider", "VRMC_springBone_limit"],
 "nodes": [
  {"name": "root", "children": [1]},
  {"name": "hips", "translation": [0, 1, 0], "children": [2, 7]},
  {"name": "spine", "translation": [0, 0.5, 0], "children": [3]},
  {"name": "head", "translation": [0, 0.3, 0], "children": [4, 9]},
  {"name": "hair1", "translation": [0, 0, -0.1], "children": [5]},
  {"name": "hair2", "translation": [0, -0.1, 0], "children": [6]},
  {"name": "hair3", "translation": [0, -0.1, 0]},
  {"name": "tail1", "translation": [0, 0, -0.2], "children": [8]},
  {"name": "tail2", "translation": [0, 0, -0.2]},
  {"name": "headCollider", "translation": [0, 0.1, 0], "scale": [2, 2, 2]},
  {"name": "prop"}],
 "skins": [{"joints": [1, 2, 3, 4, 5, 6, 7, 8]}],
 "scenes": [{"nodes": [0, 10]}], "scene": 0,
 "extensions": {"VRMC_springBone": {"specVersion": "1.0",
  "colliders": [
   {"node": 3, "shape": {"sphere": {"offset": [0, 0.1, 0], "radius": 0.15}}},
   {"node": 2, "shape": {"capsule": {"offset": [0, 0, 0], "radius": 0.1, "tail": [0, 0.4, 0]}}},
   {"node": 9, "shape": {"sphere": {"offset": [0, 0.05, 0], "radius": 0.1}}},
   {"node": 1, "shape": {"sphere": {"offset": [0, -10000, 0], "radius": 0}},
    "extensions": {"VRMC_springBone_extended_collider": {"specVersion": "1.0",
     "shape": {"sphere": {"offset": [0, 0.5, 0], "radius": 2, "inside": true}}}}},
   {"node": 1, "shape": {"sphere": {"offset": [0, -10000, 0], "radius": 0}},
    "extensions": {"VRMC_springBone_extended_collider": {"specVersion": "1.0",
     "shape": {"capsule": {"tail": [0, 1, 0], "radius": 1.5, "inside": true}}}}},
   {"node": 1, "shape": {"sphere": {"offset": [0, -1000, 0], "radius": 999}},
    "extensions": {"VRMC_springBone_extended_collider": {"specVersion": "1.0",
     "shape": {"plane": {"offset": [0, -1, 0], "normal": [0, 2, 0]}}}}},
   {"node": 1, "shape": {"sphere": {"offset": [1, 2, 3], "radius": 0.25}},
    "extensions": {"VRMC_springBone_extended_collider": {"specVersion": "1.0-draft",
     "shape": {"plane": {"offset": [0, 0, 0], "normal": [0, 1, 0]}}}}},
   {"node": 10, "shape": {"sphere": {"radius": 1}}}],
  "colliderGroups": [{"colliders": [0, 2]}, {"colliders": [1, 7, 3]}, {"colliders": [4, 5, 6]}],
  "springs": [
   {"name": "hair", "center": 3, "colliderGroups": [0, 1], "joints": [
    {"node": 4, "hitRadius": 0.02, "stiffness": 1.5, "gravityPower": 0.5, "gravityDir": [0, -1, 0], "dragForce": 0.3,
     "extensions": {"VRMC_springBone_limit": {"specVersion": "1.0",
      "limit": {"cone": {"angle": 0.5, "rotation": [0, 0, 0.38268343, 0.92387953]}}}}},
    {"node": 5, "extensions": {"VRMC_springBone_limit": {"specVersion": "1.0-draft",
      "limit": {"hinge": {"angle": 0.5}}}}},
    {"node": 6, "extensions": {"VRMC_springBone_limit": {"specVersion": "1.0",
      "limit": {"spherical": {"pitch": 0.1, "yaw": 0.2}}}}}]},
   {"name": "t\u0061il", "colliderGroups": [2], "joints": [
    {"node": 7, "gravityDir": [1, 0, 0], "extensions": {"VRMC_springBone_limit": {"specVersion": "1.0",
      "limit": {"spherical": {"pitch": 0.4, "yaw": 0.6}}}}},
    {"node": 8}]},
   {"name": "prop", "joints": [{"node": 10}]}]}}
})";

TEST(GltfSprings, ReadsCollidersGroupsSpringsAndLimitsOnTheSkeleton) {
  Doc d(kAvatar, false);
  maniGltfOptions o = maniDefaultGltfOptions();
  maniSpringSetSource src;
  maniImportResult r = maniGltf_ReadSprings(d.g, &d.s, &o, &src);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.offset;
  EXPECT_EQ(src.skeleton, &d.s);
  EXPECT_EQ(src.referenceRate, 60.0f);
  EXPECT_EQ(src.stepRate, 60.0f);
  // The collider on "prop" (no bone) is left out; the others in order.
  ASSERT_EQ(src.colliderCount, 7u);
  const maniSpringSourceCollider* c = src.colliders;
  EXPECT_EQ(c[0].bone, d.Bone("head"));
  EXPECT_EQ(c[0].kind, (uint32_t)maniSpringShapeSphere);
  ExpectVec(c[0].offset, 0, 0.1, 0);
  EXPECT_NEAR(c[0].radius, 0.15, 1e-7);
  EXPECT_EQ(c[1].bone, d.Bone("spine"));
  EXPECT_EQ(c[1].kind, (uint32_t)maniSpringShapeCapsule);
  ExpectVec(c[1].tail, 0, 0.4, 0);
  // headCollider is no bone: its sphere on head, through its translation
  // 0.1 and scale 2: offset 0.1 + 2 * 0.05, radius 2 * 0.1.
  EXPECT_EQ(c[2].bone, d.Bone("head"));
  ExpectVec(c[2].offset, 0, 0.2, 0);
  EXPECT_NEAR(c[2].radius, 0.2, 1e-7);
  // Extended colliders (1.0) replace the fallback shapes.
  EXPECT_EQ(c[3].kind, (uint32_t)maniSpringShapeInsideSphere);
  EXPECT_EQ(c[3].bone, d.Bone("hips"));
  ExpectVec(c[3].offset, 0, 0.5, 0);
  EXPECT_EQ(c[3].radius, 2.0f);
  EXPECT_EQ(c[4].kind, (uint32_t)maniSpringShapeInsideCapsule);
  ExpectVec(c[4].offset, 0, 0, 0);
  ExpectVec(c[4].tail, 0, 1, 0);
  EXPECT_EQ(c[4].radius, 1.5f);
  EXPECT_EQ(c[5].kind, (uint32_t)maniSpringShapePlane);
  ExpectVec(c[5].offset, 0, -1, 0);
  ExpectVec(c[5].tail, 0, 1, 0);  // normal (0, 2, 0) normalized
  EXPECT_EQ(c[5].radius, 0.0f);
  // A "1.0-draft" extended collider is ignored: its VRMC_springBone sphere.
  EXPECT_EQ(c[6].kind, (uint32_t)maniSpringShapeSphere);
  ExpectVec(c[6].offset, 1, 2, 3);
  EXPECT_EQ(c[6].radius, 0.25f);
  // Groups keep their colliders on the skeleton, in order.
  ASSERT_EQ(src.groupCount, 3u);
  ASSERT_EQ(src.groups[0].colliderCount, 2u);
  EXPECT_EQ(src.groups[0].colliders[0], 0u);
  EXPECT_EQ(src.groups[0].colliders[1], 2u);
  ASSERT_EQ(src.groups[1].colliderCount, 2u);
  EXPECT_EQ(src.groups[1].colliders[0], 1u);
  EXPECT_EQ(src.groups[1].colliders[1], 3u);
  ASSERT_EQ(src.groups[2].colliderCount, 3u);
  EXPECT_EQ(src.groups[2].colliders[2], 6u);
  // The "prop" spring is off the skeleton.
  ASSERT_EQ(src.springCount, 2u);
  const maniSpringSourceSpring& hair = src.springs[0];
  ASSERT_EQ(hair.nameLength, 4u);
  EXPECT_EQ(std::string(hair.name, hair.nameLength), "hair");
  EXPECT_EQ(hair.center, d.Bone("head"));
  ASSERT_EQ(hair.colliderGroupCount, 2u);
  EXPECT_EQ(hair.colliderGroups[1], 1u);
  ASSERT_EQ(hair.jointCount, 3u);
  const maniSpringSourceJoint* j = hair.joints;
  EXPECT_EQ(j[0].bone, d.Bone("hair1"));
  EXPECT_EQ(j[1].bone, d.Bone("hair2"));
  EXPECT_EQ(j[2].bone, d.Bone("hair3"));
  EXPECT_EQ(j[0].hitRadius, 0.02f);
  EXPECT_EQ(j[0].stiffness, 1.5f);
  EXPECT_EQ(j[0].gravityPower, 0.5f);
  EXPECT_EQ(j[0].dragForce, 0.3f);
  ExpectVec(j[0].gravityDir, 0, -1, 0);
  EXPECT_EQ(j[0].limitKind, (uint32_t)maniSpringLimitCone);
  EXPECT_EQ(j[0].limitAngle, 0.5f);
  EXPECT_NEAR(j[0].limitRotation.z, 0.38268343, 1e-7);
  EXPECT_NEAR(j[0].limitRotation.w, 0.92387953, 1e-7);
  // VRMC_springBone's defaults; a "1.0-draft" limit is ignored.
  EXPECT_EQ(j[1].hitRadius, 0.0f);
  EXPECT_EQ(j[1].stiffness, 1.0f);
  EXPECT_EQ(j[1].gravityPower, 0.0f);
  EXPECT_EQ(j[1].dragForce, 0.5f);
  ExpectVec(j[1].gravityDir, 0, -1, 0);
  EXPECT_EQ(j[1].limitKind, (uint32_t)maniSpringLimitNone);
  // A last joint's limit (1.0 spherical) is ignored.
  EXPECT_EQ(j[2].limitKind, (uint32_t)maniSpringLimitNone);
  const maniSpringSourceSpring& tail = src.springs[1];
  EXPECT_EQ(std::string(tail.name, tail.nameLength), "tail");  // after its escape
  EXPECT_EQ(tail.center, MANI_NO_BONE);
  ASSERT_EQ(tail.jointCount, 2u);
  EXPECT_EQ(tail.joints[0].limitKind, (uint32_t)maniSpringLimitSpherical);
  EXPECT_EQ(tail.joints[0].limitAngle, 0.4f);
  EXPECT_EQ(tail.joints[0].limitAngle2, 0.6f);
  ExpectVec(tail.joints[0].gravityDir, 1, 0, 0);
  // The source builds.
  Builder b;
  maniBuildResult br = maniBuildSpringSet(b.b, &src);
  EXPECT_EQ(br.result, mani_success) << br.reason << " " << br.item << " " << br.other;
}

TEST(GltfSprings, TurnsIntoTheOutputBasisAndScalesLengthsByTheUnit) {
  Doc d(kAvatar, false);
  maniGltfOptions o = maniDefaultGltfOptions();
  o.up = maniAxisPositiveZ;     // glTF +Y becomes +Z
  o.front = maniAxisNegativeY;  // glTF +Z becomes -Y; then +X stays +X: (x, y, z) -> (x, -z, y)
  o.unitScale = 100;
  maniSpringSetSource src;
  ASSERT_EQ(maniGltf_ReadSprings(d.g, &d.s, &o, &src).result, mani_success);
  ASSERT_EQ(src.colliderCount, 7u);
  ExpectVec(src.colliders[0].offset, 0, 0, 10, 1e-4);
  EXPECT_NEAR(src.colliders[0].radius, 15, 1e-5);
  ExpectVec(src.colliders[1].tail, 0, 0, 40, 1e-4);
  ExpectVec(src.colliders[6].offset, 100, -300, 200, 1e-4);
  ExpectVec(src.colliders[5].tail, 0, 0, 1);  // a normal turns, unscaled
  const maniSpringSourceJoint& j = src.springs[0].joints[0];
  EXPECT_NEAR(j.hitRadius, 2, 1e-5);
  EXPECT_NEAR(j.stiffness, 150, 1e-4);
  EXPECT_NEAR(j.gravityPower, 50, 1e-4);
  ExpectVec(j.gravityDir, 0, 0, -1);
  ExpectVec(src.springs[1].joints[0].gravityDir, 1, 0, 0);
  // The limit's frame is glTF's: its axes the images of glTF's frame's. In
  // glTF the frame (45 degrees about Z) has Y (-s, s, 0) and X (s, s, 0).
  const double s = std::sqrt(0.5), ey[3] = {0, 1, 0}, ex[3] = {1, 0, 0};
  double y[3], x[3];
  Rotate(j.limitRotation, ey, y);
  Rotate(j.limitRotation, ex, x);
  EXPECT_NEAR(y[0], -s, 1e-6);
  EXPECT_NEAR(y[1], 0, 1e-6);
  EXPECT_NEAR(y[2], s, 1e-6);
  EXPECT_NEAR(x[0], s, 1e-6);
  EXPECT_NEAR(x[1], 0, 1e-6);
  EXPECT_NEAR(x[2], s, 1e-6);
}

TEST(GltfSprings, GivesAnEmptySetWithoutTheExtensionAndRefusesArguments) {
  std::string plain = kAvatar;
  plain.replace(plain.find("\"extensions\": {\"VRMC_springBone\""), strlen("\"extensions\": {\"VRMC_springBone\""),
                "\"extras\": {\"VRMC_springBone\"");
  Doc d(plain, false);
  maniGltfOptions o = maniDefaultGltfOptions();
  maniSpringSetSource src;
  memset(&src, 0x5A, sizeof src);
  ASSERT_EQ(maniGltf_ReadSprings(d.g, &d.s, &o, &src).result, mani_success);
  EXPECT_EQ(src.skeleton, &d.s);
  EXPECT_EQ(src.colliderCount, 0u);
  EXPECT_EQ(src.groupCount, 0u);
  EXPECT_EQ(src.springCount, 0u);
  EXPECT_EQ(src.springs, nullptr);
  memset(&src, 0x5A, sizeof src);
  const maniSpringSetSource copy = src;
  EXPECT_EQ(maniGltf_ReadSprings(nullptr, &d.s, &o, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadSprings(d.g, nullptr, &o, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadSprings(d.g, &d.s, nullptr, &src).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_ReadSprings(d.g, &d.s, &o, nullptr).result, mani_errorInvalid);
  maniSkeleton zeroed;
  memset(&zeroed, 0, sizeof zeroed);
  EXPECT_EQ(maniGltf_ReadSprings(d.g, &zeroed, &o, &src).result, mani_errorInvalid);
  maniGltfOptions bad = o;
  bad.unitScale = -1;
  EXPECT_EQ(maniGltf_ReadSprings(d.g, &d.s, &bad, &src).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&src, &copy, sizeof src), 0);
}

// A chain a -> b (skin joints) and a node c outside the skin, the
// extension's text in EXT.
const char kMini[] = R"({
 "asset": {"version": "2.0"},
 "nodes": [{"name": "a", "children": [1]}, {"name": "b", "translation": [0, -1, 0], "children": [3]}, {"name": "c"},
           {"name": "d", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0.5, 0,0,0,1]}],
 "skins": [{"joints": [0, 1]}],
 "scenes": [{"nodes": [0, 2]}],
 "extensions": {"VRMC_springBone": EXT}
})";

struct Refusal {
  const char* ext;
  uint32_t reason;
  uint64_t item;
  const char* at;  // the refused value's text (its first occurrence in EXT), or nullptr: offset 0
  int skip;        // occurrences of at to skip
};

TEST(GltfSprings, RefusesEachBadPropertyWithItsItemAndOffsetAndLeavesTheOutputUnchanged) {
  const uint32_t P = maniImportReasonProperty, B = maniImportReasonBone;
  const Refusal cases[] = {
      {"5", P, 0, "5", 0},
      {R"({"specVersion": "0.9"})", P, 0, "\"0.9\"", 0},
      {R"({"colliders": []})", P, 0, "{\"colliders\"", 0},
      {R"({"specVersion": "1.0", "colliders": {}})", P, 0, "{}", 0},
      {R"({"specVersion": "1.0", "colliderGroups": 3})", P, 0, "3", 0},
      {R"({"specVersion": "1.0", "springs": "x"})", P, 0, "\"x\"", 0},
      {R"({"specVersion": "1.0", "colliders": [7]})", P, 0, "7", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {"sphere": {}}}, {"node": 9}]})", P, 1, "9", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0.5}]})", P, 0, "0.5", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0}]})", P, 0, "{\"node\"", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {}}]})", P, 0, "{}", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {"sphere": {}, "capsule": {}}}]})", P, 0,
       "{\"sphere\"", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {"sphere": {"radius": "r"}}}]})", P, 0,
       "{\"radius\"", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {"capsule": {"tail": [0, 1]}}}]})", P, 0,
       "{\"tail\"", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {"sphere": {"offset": [0, 1e39, 0]}}}]})", P, 0,
       "{\"offset\"", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {"sphere": {}}, "extensions":
        {"VRMC_springBone_extended_collider": {"specVersion": "1.0", "shape": {"sphere": {"inside": 1}}}}}]})",
       P, 0, "{\"inside\"", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {"sphere": {}}, "extensions":
        {"VRMC_springBone_extended_collider": {"specVersion": "1.0", "shape": {"plane": {"normal": 1}}}}}]})",
       P, 0, "{\"normal\"", 0},
      {R"({"specVersion": "1.0", "colliders": [{"node": 0, "shape": {"sphere": {}}}],
        "colliderGroups": [{"colliders": [0, 1]}]})", P, 0, "1]", 0},
      {R"({"specVersion": "1.0", "colliderGroups": [{"name": "g"}]})", P, 0, "{\"name\"", 0},
      {R"({"specVersion": "1.0", "colliderGroups": [5]})", P, 0, "5", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": []}]})", P, 0, "[]", 0},
      {R"({"specVersion": "1.0", "springs": [{"name": "s"}]})", P, 0, "{\"name\"", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0}, {"node": 1}], "colliderGroups": [2]}]})", P, 0,
       "2]", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0}, {"node": 1}]}, {"joints": [{"node": 99}]}]})", P,
       1, "99", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0}, 4]}]})", P, 0, "4]", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0}, {"node": 1}], "center": 12}]})", P, 0, "12", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0}, {"node": 1}], "name": 12345}]})", P, 0,
       "12345", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0, "stiffness": "s"}, {"node": 1}]}]})", P, 0,
       "{\"node\": 0", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0, "gravityDir": [0, 1]}, {"node": 1}]}]})", P, 0,
       "{\"node\": 0", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0, "dragForce": 1e40}, {"node": 1}]}]})", P, 0,
       "{\"node\": 0", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0, "extensions": {"VRMC_springBone_limit":
        {"specVersion": "1.0", "limit": {"cone": {"angle": 1}, "hinge": {"angle": 1}}}}}, {"node": 1}]}]})", P, 0,
       "{\"cone\"", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0, "extensions": {"VRMC_springBone_limit":
        {"specVersion": "1.0", "limit": {"cone": {"rotation": [0, 0, 0, 1]}}}}}, {"node": 1}]}]})", P, 0,
       "{\"rotation\"", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0, "extensions": {"VRMC_springBone_limit":
        {"specVersion": "1.0", "limit": {"spherical": {"pitch": 1}}}}}, {"node": 1}]}]})", P, 0, "{\"pitch\"", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0, "extensions": {"VRMC_springBone_limit":
        {"specVersion": "1.0", "limit": {"hinge": {"angle": 1, "rotation": [0, 0, 1]}}}}}, {"node": 1}]}]})", P, 0,
       "{\"angle\"", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0, "extensions": {"VRMC_springBone_limit":
        {"specVersion": "1.0"}}}, {"node": 1}]}]})", P, 0, "{\"specVersion\": \"1.0\"}", 0},
      // Joints partly off the skeleton; a center without a bone.
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0}, {"node": 2}]}]})", B, 0, "2}", 0},
      {R"({"specVersion": "1.0", "springs": [{"joints": [{"node": 0}, {"node": 1}], "center": 2}]})", B, 0, "2}", 0},
      // A matrix between a collider and its bone that does not split.
      {R"({"specVersion": "1.0", "colliders": [{"node": 3, "shape": {"sphere": {}}}]})", maniImportReasonMatrix, 3,
       nullptr, 0},
  };
  maniGltfOptions o = maniDefaultGltfOptions();
  for (const Refusal& c : cases) {
    std::string text = kMini;
    const size_t at = text.find("EXT");
    text.replace(at, 3, c.ext);
    Doc d(text, false);
    maniSpringSetSource src;
    memset(&src, 0x5A, sizeof src);
    const maniSpringSetSource copy = src;
    maniImportResult r = maniGltf_ReadSprings(d.g, &d.s, &o, &src);
    EXPECT_EQ(r.result, mani_errorFormat) << c.ext;
    EXPECT_EQ(r.reason, c.reason) << c.ext;
    EXPECT_EQ(r.item, c.item) << c.ext;
    uint64_t offset = 0;
    if (c.at != nullptr) {
      size_t p = text.find(c.at, at);
      for (int k = 0; k < c.skip; ++k) p = text.find(c.at, p + 1);
      offset = p;
    }
    EXPECT_EQ(r.offset, offset) << c.ext;
    EXPECT_EQ(memcmp(&src, &copy, sizeof src), 0) << c.ext;
  }
}

// -- three-vrm's examples and a VRM 0.x avatar -------------------------------------------

struct SharedDoc {
  std::string text;
  Builder b;
  maniGltf* g = nullptr;
  explicit SharedDoc(const std::string& t) : text(t) {
    EXPECT_EQ(maniOpenGltf(b.b, text.data(), text.size(), &g).result, mani_success);
  }
  ~SharedDoc() { maniCloseGltf(g); }
};

TEST(GltfSprings, ReadsThreeVrmSphereAndInsideColliderExamples) {
  const std::string dir = SharedData() + "/gltf/vrm/three-vrm-springbone/";
  std::string sphere, inside;
  if (!ReadFile(dir + "sphere-collider.gltf", &sphere) || !ReadFile(dir + "inside-collider.gltf", &inside))
    GTEST_SKIP() << "../shared/data/gltf/vrm not present";
  // Their nodes: a chain "Spring A" to "Spring E" and a root "Collider".
  NamedSkeleton sk({"Spring A", "Spring B", "Spring C", "Spring D", "Spring E", "Collider"},
                   {MANI_NO_BONE, 0, 1, 2, 3, MANI_NO_BONE});
  maniGltfOptions o = maniDefaultGltfOptions();
  for (int which = 0; which < 2; ++which) {
    SharedDoc d(which == 0 ? sphere : inside);
    maniSpringSetSource src;
    ASSERT_EQ(maniGltf_ReadSprings(d.g, &sk.s, &o, &src).result, mani_success);
    ASSERT_EQ(src.colliderCount, 1u);
    EXPECT_EQ(src.colliders[0].bone, maniSkeleton_FindBone(&sk.s, "Collider", 8));
    if (which == 0) {
      EXPECT_EQ(src.colliders[0].kind, (uint32_t)maniSpringShapeSphere);
      EXPECT_EQ(src.colliders[0].radius, 0.5f);
    } else {
      // The extension's inside sphere (radius 1.25 at the node), not the
      // fallback far away.
      EXPECT_EQ(src.colliders[0].kind, (uint32_t)maniSpringShapeInsideSphere);
      EXPECT_EQ(src.colliders[0].radius, 1.25f);
      ExpectVec(src.colliders[0].offset, 0, 0, 0);
    }
    ASSERT_EQ(src.groupCount, 1u);
    EXPECT_EQ(src.groups[0].colliderCount, 1u);
    ASSERT_EQ(src.springCount, 1u);
    ASSERT_EQ(src.springs[0].jointCount, 5u);
    for (uint32_t k = 0; k < 5; ++k) EXPECT_EQ(src.springs[0].joints[k].bone, k);
    EXPECT_EQ(src.springs[0].joints[0].hitRadius, 0.25f);
    EXPECT_EQ(src.springs[0].joints[0].dragForce, 0.4f);
    EXPECT_EQ(src.springs[0].joints[0].stiffness, 1.0f);
    Builder b;
    maniBuildResult r = maniBuildSpringSet(b.b, &src);
    EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  }
}

// Their limits say "1.0-draft": import.h ignores another version than 1.0.
TEST(GltfSprings, IgnoresThreeVrmDraftLimits) {
  const std::string dir = SharedData() + "/gltf/vrm/three-vrm-springbone/";
  for (const char* name : {"cone-limit.gltf", "hinge-limit.gltf"}) {
    std::string text;
    if (!ReadFile(dir + name, &text)) GTEST_SKIP() << "../shared/data/gltf/vrm not present";
    Doc d(text, true);  // node 0's subtree: spring A's chain
    maniGltfOptions o = maniDefaultGltfOptions();
    maniSpringSetSource src;
    ASSERT_EQ(maniGltf_ReadSprings(d.g, &d.s, &o, &src).result, mani_success) << name;
    // cone-limit's second spring is on another root, off the skeleton.
    ASSERT_EQ(src.springCount, 1u) << name;
    ASSERT_EQ(src.springs[0].jointCount, 5u);
    for (uint32_t k = 0; k < 5; ++k) {
      EXPECT_EQ(src.springs[0].joints[k].limitKind, (uint32_t)maniSpringLimitNone) << name << " " << k;
      EXPECT_EQ(src.springs[0].joints[k].limitRotation.w, 1.0f);
    }
    // The same document with the limits marked 1.0 gives them (the draft's
    // fields are 1.0's).
    std::string v10 = text;
    for (size_t p = v10.find("1.0-draft"); p != std::string::npos; p = v10.find("1.0-draft")) v10.replace(p, 9, "1.0");
    Doc e(v10, true);
    ASSERT_EQ(maniGltf_ReadSprings(e.g, &e.s, &o, &src).result, mani_success) << name;
    EXPECT_NE(src.springs[0].joints[0].limitKind, (uint32_t)maniSpringLimitNone) << name;
    EXPECT_EQ(src.springs[0].joints[4].limitKind, (uint32_t)maniSpringLimitNone) << name;  // the last joint's
    Builder b;
    EXPECT_EQ(maniBuildSpringSet(b.b, &src).result, mani_success) << name;
  }
}

TEST(GltfSprings, GivesAVrm0AvatarAnEmptySet) {
  std::string text;
  if (!ReadFile(SharedData() + "/gltf/vrm/godot-vrm/Godette_vrm_v4.vrm", &text))
    GTEST_SKIP() << "../shared/data/gltf/vrm not present";
  ASSERT_EQ(text.find("VRMC_springBone"), std::string::npos);
  ASSERT_NE(text.find("secondaryAnimation"), std::string::npos);  // VRM 0.x's springs
  Doc d(text, false);
  maniGltfOptions o = maniDefaultGltfOptions();
  maniSpringSetSource src;
  ASSERT_EQ(maniGltf_ReadSprings(d.g, &d.s, &o, &src).result, mani_success);
  EXPECT_EQ(src.springCount, 0u);
  EXPECT_EQ(src.colliderCount, 0u);
  EXPECT_EQ(src.groupCount, 0u);
}

// -- The shared skinned models with springs added (tools/springs) -------------------------

// The project root (this file's path in the source tree, less its own).
std::string ProjectRoot() { return MaulProjectRoot(); }

// Memory at a multiple of 32 inside a vector's words (poses need it).
void* Aligned32(std::vector<uint64_t>& words) {
  return reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(words.data()) + 31) & ~uintptr_t(31));
}

double Distance(const maniVec3& a, const maniVec3& b) {
  const double x = (double)a.x - b.x, y = (double)a.y - b.y, z = (double)a.z - b.z;
  return std::sqrt(x * x + y * y + z * z);
}

// tools/springs/add_springs.py's documents: every collider kind, a cone
// and a spherical limit, read and built; then 10 s of a swaying placement
// at 60 Hz: every applied pose finite, each spring bone's length kept.
TEST(GltfSprings, ReadsBuildsAndStepsTheGeneratedSpringDocuments) {
  for (const char* model : {"Fox", "CesiumMan", "RiggedFigure"}) {
    std::string text;
    ASSERT_TRUE(ReadFile(ProjectRoot() + "lib/anim/test/data/springs/" + model + "-springs.gltf", &text)) << model;
    Doc d(text, false);
    maniGltfOptions o = maniDefaultGltfOptions();
    maniSpringSetSource src;
    maniImportResult r = maniGltf_ReadSprings(d.g, &d.s, &o, &src);
    ASSERT_EQ(r.result, mani_success) << model << " " << r.reason << " " << r.item << " " << r.offset;
    ASSERT_EQ(src.colliderCount, 5u) << model;
    const uint32_t kinds[5] = {maniSpringShapeSphere, maniSpringShapeCapsule, maniSpringShapeInsideSphere,
                               maniSpringShapeInsideCapsule, maniSpringShapePlane};
    for (uint32_t c = 0; c < 5; ++c) EXPECT_EQ(src.colliders[c].kind, kinds[c]) << model << " " << c;
    ASSERT_EQ(src.springCount, 2u) << model;
    EXPECT_EQ(src.springs[0].jointCount, 4u);
    EXPECT_EQ(src.springs[0].joints[0].limitKind, (uint32_t)maniSpringLimitCone);
    EXPECT_EQ(src.springs[1].joints[0].limitKind, (uint32_t)maniSpringLimitSpherical);
    Builder b;
    maniBuildResult br = maniBuildSpringSet(b.b, &src);
    ASSERT_EQ(br.result, mani_success) << model << " " << br.reason << " " << br.item << " " << br.other;
    File setFile = b.Built();
    maniSpringSet set;
    ASSERT_EQ(maniOpenSpringSet(setFile.data(), setFile.size, &set).result, mani_success);
    std::vector<uint64_t> stateMem(maniSpringSet_GetStateSize(&set) / 8 + 2);
    maniSpringState* state = nullptr;
    ASSERT_EQ(maniInitSpringState(&set, &d.s, stateMem.data(), stateMem.size() * 8, &state), mani_success);
    const size_t poseSize = maniSkeleton_GetPoseSize(&d.s);
    std::vector<uint64_t> poseMem(poseSize / 8 + 8), restMem(poseSize / 8 + 8);
    maniPose *pose = nullptr, *rest = nullptr;
    ASSERT_EQ(maniInitPose(&d.s, Aligned32(poseMem), poseSize, &pose), mani_success);
    ASSERT_EQ(maniInitPose(&d.s, Aligned32(restMem), poseSize, &rest), mani_success);
    ASSERT_EQ(maniPose_SetRest(rest, &d.s), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(rest, &d.s), mani_success);
    // The sway's size: the hair's first bone's length times 5.
    const maniSpringSourceSpring& hair = src.springs[0];
    const double sway = 5 * Distance(maniPose_GetModelTransform(rest, hair.joints[0].bone).translation,
                                     maniPose_GetModelTransform(rest, hair.joints[1].bone).translation);
    for (int k = 1; k <= 600; ++k) {
      ASSERT_EQ(maniPose_SetRest(pose, &d.s), mani_success);
      const double t = k / 60.0;
      maniTransform place;
      memset(&place, 0, sizeof place);
      place.translation.x = (float)(sway * std::sin(2 * M_PI * 1.3 * t));
      place.translation.z = (float)(sway * 0.5 * std::sin(2 * M_PI * 0.7 * t));
      place.rotation.w = 1;
      place.scale = maniVec3{1, 1, 1};
      ASSERT_EQ(maniSpringState_Step(state, pose, &place, nullptr, 1.0f / 60.0f), mani_success);
      ASSERT_EQ(maniSpringState_Apply(state, pose), mani_success);
      ASSERT_EQ(maniPose_ComputeModel(pose, &d.s), mani_success);
      for (uint32_t sp = 0; sp < 2; ++sp) {
        const maniSpringSourceSpring& spring = src.springs[sp];
        for (uint32_t j = 0; j + 1 < spring.jointCount; ++j) {
          const uint32_t a = spring.joints[j].bone, c = spring.joints[j + 1].bone;
          const maniVec3 pa = maniPose_GetModelTransform(pose, a).translation;
          const maniVec3 pc = maniPose_GetModelTransform(pose, c).translation;
          ASSERT_TRUE(std::isfinite(pa.x) && std::isfinite(pc.y) && std::isfinite(pc.z)) << model << " " << k;
          const double length = Distance(maniPose_GetModelTransform(rest, a).translation,
                                         maniPose_GetModelTransform(rest, c).translation);
          EXPECT_NEAR(Distance(pa, pc), length, 1e-4 * length + 1e-6) << model << " step " << k << " joint " << j;
        }
      }
    }
    // The hair has moved off its rest direction (the springs are live).
    const maniQuat q = maniPose_GetLocal(pose, hair.joints[0].bone).rotation;
    const maniQuat q0 = maniPose_GetLocal(rest, hair.joints[0].bone).rotation;
    EXPECT_GT(std::fabs(q.x - q0.x) + std::fabs(q.y - q0.y) + std::fabs(q.z - q0.z), 1e-4) << model;
  }
}

// -- Against three-vrm (tools/springs: make_reference.sh, @pixiv/three-vrm 3.5.5, three 0.187.0) ---

// A reference file: the sway's amplitude and one row a step (k, then every
// spring joint's world x y z after three-vrm's update at t = k / 60).
struct ThreeVrm {
  double amplitude = 0;
  std::vector<uint32_t> nodes;  // the joints' glTF nodes, in the rows' order
  std::vector<std::vector<double>> rows;
};

void ReadThreeVrm(const std::string& name, ThreeVrm* out) {
  std::string text;
  ASSERT_TRUE(ReadFile(ProjectRoot() + "lib/anim/test/data/springs/" + name, &text)) << name;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# sway amplitude ", 0) == 0) {
      out->amplitude = std::stod(line.substr(17));
      const size_t at = line.find("(nodes) ");
      ASSERT_NE(at, std::string::npos) << name;
      std::istringstream nodes(line.substr(at + 8));
      uint32_t n;
      while (nodes >> n) out->nodes.push_back(n);
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    std::vector<double> v;
    double x;
    while (row >> x) v.push_back(x);
    out->rows.push_back(v);
  }
  ASSERT_EQ(out->rows.size(), 601u) << name;
  ASSERT_FALSE(out->nodes.empty()) << name;
  ASSERT_GT(out->amplitude, 0) << name;
}

// Distances of Maul's joints to a reference's over the 601 steps.
struct Follow {
  double rms = -1, worst = 0;
  int worstStep = -1;
};

// The springs of src with their limits dropped (three-vrm 3.5.5 reads no
// VRMC_springBone_limit; Maul applies them: import.h "joints'
// VRMC_springBone_limit ... give ... cones, hinges and spherical limits"),
// built for sk, stepped at 60 Hz once a frame under the reference's sway
// (the placement x = A sin(2 pi 1.3 t), z = A/2 sin(2 pi 0.7 t), the scene
// three-vrm moves), every spring joint's world position against the
// reference's.
void FollowThreeVrm(const maniGltf* g, const maniSkeleton* sk, maniSpringSetSource src, const ThreeVrm& ref,
                    Follow* out) {
  std::vector<maniSpringSourceJoint> joints;
  std::vector<maniSpringSourceSpring> springs(src.springs, src.springs + src.springCount);
  for (auto& sp : springs) joints.insert(joints.end(), sp.joints, sp.joints + sp.jointCount);
  for (auto& j : joints) j.limitKind = maniSpringLimitNone, j.limitAngle = j.limitAngle2 = 0;
  size_t at = 0;
  std::vector<uint32_t> bones;
  for (auto& sp : springs) {
    sp.joints = &joints[at];
    for (uint32_t k = 0; k < sp.jointCount; ++k) bones.push_back(joints[at + k].bone);
    at += sp.jointCount;
  }
  src.springs = springs.data();
  // The same joints as the reference's, in its order: each its node's bone.
  ASSERT_EQ(bones.size(), ref.nodes.size());
  for (size_t j = 0; j < bones.size(); ++j) {
    size_t length = 0;
    const char* name = maniGltf_GetNodeBoneName(g, ref.nodes[j], &length);
    ASSERT_NE(name, nullptr) << ref.nodes[j];
    EXPECT_EQ(bones[j], maniSkeleton_FindBone(sk, name, length)) << j;
  }
  Builder sb;
  ASSERT_EQ(maniBuildSpringSet(sb.b, &src).result, mani_success);
  File setFile = sb.Built();
  maniSpringSet set;
  ASSERT_EQ(maniOpenSpringSet(setFile.data(), setFile.size, &set).result, mani_success);
  std::vector<uint64_t> stateMem(maniSpringSet_GetStateSize(&set) / 8 + 2);
  maniSpringState* state = nullptr;
  ASSERT_EQ(maniInitSpringState(&set, sk, stateMem.data(), stateMem.size() * 8, &state), mani_success);
  std::vector<uint64_t> poseMem(maniSkeleton_GetPoseSize(sk) / 8 + 8);
  maniPose* pose = nullptr;
  ASSERT_EQ(maniInitPose(sk, Aligned32(poseMem), maniSkeleton_GetPoseSize(sk), &pose), mani_success);
  double sum2 = 0;
  size_t count = 0;
  for (int k = 0; k <= 600; ++k) {
    ASSERT_EQ(ref.rows[k].size(), 1 + 3 * bones.size());
    ASSERT_EQ(maniPose_SetRest(pose, sk), mani_success);
    const double t = k / 60.0;
    maniTransform place;
    memset(&place, 0, sizeof place);
    place.translation.x = (float)(ref.amplitude * std::sin(2 * M_PI * 1.3 * t));
    place.translation.z = (float)(ref.amplitude * 0.5 * std::sin(2 * M_PI * 0.7 * t));
    place.rotation.w = 1;
    place.scale = maniVec3{1, 1, 1};
    ASSERT_EQ(maniSpringState_Step(state, pose, &place, nullptr, 1.0f / 60.0f), mani_success);
    ASSERT_EQ(maniSpringState_Apply(state, pose), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(pose, sk), mani_success);
    for (size_t j = 0; j < bones.size(); ++j) {
      const maniVec3 m = maniPose_GetModelTransform(pose, bones[j]).translation;
      const double dx = (double)m.x + place.translation.x - ref.rows[k][1 + 3 * j];
      const double dy = (double)m.y + place.translation.y - ref.rows[k][2 + 3 * j];
      const double dz = (double)m.z + place.translation.z - ref.rows[k][3 + 3 * j];
      const double e = std::sqrt(dx * dx + dy * dy + dz * dz);
      if (e > out->worst) out->worst = e, out->worstStep = k;
      sum2 += e * e;
      ++count;
    }
  }
  out->rms = std::sqrt(sum2 / (double)count);
}

// The rms distance between two references' joints (the same document).
double ReferenceRms(const ThreeVrm& a, const ThreeVrm& b) {
  double sum2 = 0;
  size_t count = 0;
  for (size_t k = 0; k < a.rows.size() && k < b.rows.size(); ++k)
    for (size_t c = 1; c + 2 < a.rows[k].size() && c + 2 < b.rows[k].size(); c += 3) {
      const double dx = a.rows[k][c] - b.rows[k][c], dy = a.rows[k][c + 1] - b.rows[k][c + 1],
                   dz = a.rows[k][c + 2] - b.rows[k][c + 2];
      sum2 += dx * dx + dy * dy + dz * dz;
      ++count;
    }
  return count > 0 ? std::sqrt(sum2 / (double)count) : -1;
}

void Print(const char* doc, const char* which, const Follow& f, double amplitude) {
  std::printf("%s against %s: rms %.6g (%.4g%% of the sway), worst %.6g (%.4g%%) at step %d\n", doc, which, f.rms,
              100 * f.rms / amplitude, f.worst, 100 * f.worst / amplitude, f.worstStep);
}

// Two references a document: three-vrm as it is (<doc>-threevrm.txt) and
// with each joint's child matrix refreshed before its bone length is taken
// (<doc>-threevrm-kept.txt, make_reference.sh's --kept run). three-vrm
// takes a joint's length from its child's world matrix as the scene's
// update left it, before the parent joint turned in this update, so a
// joint below another joint normalizes its tail to a length that grows and
// shrinks as its parent turns (Fox's second tail bone, 24.24 long, held at
// 24.24 to 25.89 in the first five updates), and that tail feeds the next
// update's inertia. Maul differs on purpose: maniSpringState_Step "Tails
// move by inertia less drag, ... keep their bone's length" (spring.h: "put
// back at the bone's length from the joint"; spring_test.cc's
// SpringMotion.TailsKeepTheirBoneLengthIntoTheirInertia tests it).
// Maul's first step only places the tails (spring.h: "the first step
// places every tail where the pose puts it") where three-vrm's first update
// already moves them by stiffness and gravity, a difference that dies out
// with the drag.
//
// Tolerances, on the root mean square of the joints' distances over the
// 601 steps: within 0.5% of the sway's amplitude against the kept-length
// reference on every document (measured: Fox 0.092%, CesiumMan 0.27%,
// RiggedFigure 0.27%; single steps differ by up to 5.4% in the first
// steps); within 2% against three-vrm as it is where its parent joints turn
// little a frame (CesiumMan 1.03%, RiggedFigure 1.25%: the two references
// differ by 0.99% and 1.22%). Fox's tail turns far more (8.35% off three-vrm
// as it is, worst 66% at step 404): Fox is held to the kept reference, and
// its distance to three-vrm as it is must be the two references' own
// distance within 1% of the sway (measured 8.353% and 8.352%): the stale
// length alone explains it.
TEST(GltfSprings, FollowsThreeVrmOnTheGeneratedSpringDocuments) {
  for (const char* model : {"Fox", "CesiumMan", "RiggedFigure"}) {
    std::string text;
    ASSERT_TRUE(ReadFile(ProjectRoot() + "lib/anim/test/data/springs/" + model + "-springs.gltf", &text)) << model;
    ThreeVrm plain, kept;
    ReadThreeVrm(std::string(model) + "-threevrm.txt", &plain);
    ReadThreeVrm(std::string(model) + "-threevrm-kept.txt", &kept);
    if (HasFatalFailure()) return;
    ASSERT_EQ(plain.amplitude, kept.amplitude) << model;
    Builder b;
    maniGltf* g = nullptr;
    ASSERT_EQ(maniOpenGltf(b.b, text.data(), text.size(), &g).result, mani_success);
    maniGltfOptions o = maniDefaultGltfOptions();
    o.foldPlacement = 1;  // the nodes above the root in the root: three-vrm's scene is the placement
    ASSERT_EQ(maniBuildGltfSkeleton(b.b, g, 0, &o).result, mani_success);
    File skeletonFile = b.Built();
    maniSkeleton sk;
    ASSERT_EQ(maniOpenSkeleton(skeletonFile.data(), skeletonFile.size, &sk).result, mani_success);
    maniSpringSetSource src;
    ASSERT_EQ(maniGltf_ReadSprings(g, &sk, &o, &src).result, mani_success);
    Follow toPlain, toKept;
    FollowThreeVrm(g, &sk, src, plain, &toPlain);
    FollowThreeVrm(g, &sk, src, kept, &toKept);
    maniCloseGltf(g);
    if (HasFatalFailure()) return;
    const double a = kept.amplitude, between = ReferenceRms(plain, kept);
    Print(model, "three-vrm", toPlain, a);
    Print(model, "three-vrm, lengths kept", toKept, a);
    std::printf("%s: the two references differ by rms %.6g (%.4g%% of the sway)\n", model, between, 100 * between / a);
    EXPECT_LE(toKept.rms, 0.005 * a) << model;
    if (strcmp(model, "Fox") != 0) {
      EXPECT_LE(toPlain.rms, 0.02 * a) << model;
    } else {
      EXPECT_GT(toPlain.rms, 0.02 * a) << "Fox follows three-vrm as it is: drop the kept reference's exception";
      EXPECT_NEAR(toPlain.rms, between, 0.01 * a) << model;
    }
  }
}

// three-vrm's own examples (../shared/data/gltf/vrm/three-vrm-springbone,
// skipped when absent): five-joint chains under a root scaled by 0.25 (bones
// 0.5 long in the world), a sphere or an inside sphere on a scaled node of
// its own, two chains with "1.0-draft" cone limits and one with a hinge
// (ignored by Maul's import.h and not read by three-vrm 3.5.5). Maul's
// skeleton: every scene root's node subtree side by side (their rests the
// document's, through maniBuildGltfNodeSkeleton), the sway the placement.
// The same two references and the same reasons as the generated documents
// (the chains' lower joints turn under turning parents: three-vrm as it is
// moves them off their lengths). Tolerance: rms within 0.5% of the sway
// against the kept reference (measured: sphere-collider 0.040%,
// inside-collider 0.24%, cone-limit and hinge-limit 0.0001%), and the
// distance to three-vrm as it is within 1% of the sway of the two
// references' own (measured 5.26%, 1.42%, 5.22% and 5.22% against
// references 5.26%, 1.44%, 5.22% and 5.22% apart).
TEST(GltfSprings, FollowsThreeVrmOnItsExampleDocuments) {
  struct Example {
    const char* name;
    std::vector<uint32_t> roots;
  };
  const Example examples[] = {{"sphere-collider", {0, 5}},
                              {"inside-collider", {0, 5}},
                              {"cone-limit", {0, 5}},
                              {"hinge-limit", {0}}};
  const std::string dir = SharedData() + "/gltf/vrm/three-vrm-springbone/";
  for (const Example& ex : examples) {
    std::string text;
    if (!ReadFile(dir + ex.name + ".gltf", &text)) GTEST_SKIP() << "../shared/data/gltf/vrm not present";
    ThreeVrm plain, kept;
    ReadThreeVrm(std::string(ex.name) + "-threevrm.txt", &plain);
    ReadThreeVrm(std::string(ex.name) + "-threevrm-kept.txt", &kept);
    if (HasFatalFailure()) return;
    SharedDoc d(text);
    ASSERT_NE(d.g, nullptr);
    maniGltfOptions o = maniDefaultGltfOptions();
    // Each root's subtree built alone, then all in one source.
    std::vector<File> parts;
    std::vector<maniSkeleton> views(ex.roots.size());
    std::vector<maniSkeletonSourceBone> bones;
    for (size_t r = 0; r < ex.roots.size(); ++r) {
      Builder b;
      ASSERT_EQ(maniBuildGltfNodeSkeleton(b.b, d.g, ex.roots[r], &o).result, mani_success) << ex.name;
      parts.push_back(b.Built());
    }
    for (size_t r = 0; r < ex.roots.size(); ++r) {
      ASSERT_EQ(maniOpenSkeleton(parts[r].data(), parts[r].size, &views[r]).result, mani_success);
      const uint32_t first = (uint32_t)bones.size();
      for (uint32_t k = 0; k < maniSkeleton_GetBoneCount(&views[r]); ++k) {
        maniSkeletonSourceBone bone;
        memset(&bone, 0, sizeof bone);
        bone.name = maniSkeleton_GetBoneName(&views[r], k, &bone.nameLength);
        const uint32_t parent = maniSkeleton_GetParent(&views[r], k);
        bone.parent = parent == MANI_NO_BONE ? MANI_NO_BONE : first + parent;
        bone.rest = maniSkeleton_GetRest(&views[r], k);
        bones.push_back(bone);
      }
    }
    maniSkeletonSource all{bones.data(), (uint32_t)bones.size()};
    Builder sb;
    ASSERT_EQ(maniBuildSkeleton(sb.b, &all).result, mani_success) << ex.name;
    File skeletonFile = sb.Built();
    maniSkeleton sk;
    ASSERT_EQ(maniOpenSkeleton(skeletonFile.data(), skeletonFile.size, &sk).result, mani_success);
    maniSpringSetSource src;
    ASSERT_EQ(maniGltf_ReadSprings(d.g, &sk, &o, &src).result, mani_success) << ex.name;
    Follow toPlain, toKept;
    FollowThreeVrm(d.g, &sk, src, plain, &toPlain);
    FollowThreeVrm(d.g, &sk, src, kept, &toKept);
    if (HasFatalFailure()) return;
    const double a = kept.amplitude, between = ReferenceRms(plain, kept);
    Print(ex.name, "three-vrm", toPlain, a);
    Print(ex.name, "three-vrm, lengths kept", toKept, a);
    std::printf("%s: the two references differ by rms %.6g (%.4g%% of the sway)\n", ex.name, between, 100 * between / a);
    EXPECT_LE(toKept.rms, 0.005 * a) << ex.name;
    EXPECT_NEAR(toPlain.rms, between, 0.01 * a) << ex.name;
  }
}

}  // namespace
