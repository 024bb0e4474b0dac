// maniGltf_ReadRagdoll on every shared OMI physics document (issue #24):
// ../shared/data/gltf/omi (omigroup/gltf-extensions examples, staged byte for
// byte; skipped when absent). Each document is read for the skeleton its
// nodes make (maniBuildGltfNodeSkeleton of node 0, as ragdoll_test does for
// simple_joint), every body, shape, mass, frame, limit and drive checked
// against the numbers written in the document (by hand, each citing its JSON
// path) mapped as maniGltf_ReadRagdoll's paragraph in
// ../shared/spec/maul-anim-api.txt says, then built with maniBuildRagdoll
// and, where that builds, opened and read back. Defaults the documents leave
// out are OMI's own (OMI_physics_body README: motion.mass 1.0). Last, every
// prefix of each document gives a result code and never crashes.
//
// What the paragraph's words do not decide is said where it comes up
// ("Undecided"); those places record the reader's result, they do not rest
// on it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/build.h"
#include "maul/anim/import.h"
#include "maul/anim/ragdoll.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

// The shared data folder (data_testing.h).
std::string SharedData() { return MaulSharedData(); }

// An OMI document's text, or "" when the shared data is absent.
std::string ReadOmi(const char* relative) {
  std::ifstream in(SharedData() + "/gltf/omi/" + relative, std::ios::binary);
  if (!in) return "";
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

#define OMI_DOC(var, relative)               \
  const std::string var = ReadOmi(relative); \
  if (var.empty()) GTEST_SKIP() << "../shared/data/gltf/omi not present (" relative ")"

maniGltfOptions Units(float unit) {
  maniGltfOptions o = maniDefaultGltfOptions();
  o.unitScale = unit;
  return o;
}

// glTF's +Y becomes +Z and +Z becomes -Y (x stays): a turn of +90 degrees
// about x, M below.
maniGltfOptions ZUp() {
  maniGltfOptions o = maniDefaultGltfOptions();
  o.up = (uint32_t)maniAxisPositiveZ;
  o.front = (uint32_t)maniAxisNegativeY;
  return o;
}

// A document opened with the skeleton of node 0's subtree.
struct Doc {
  Builder b;
  maniGltf* g = nullptr;
  File skeletonFile;
  maniSkeleton s;
  std::string text;
  Doc(const std::string& t, float unit) : Doc(t, Units(unit)) {}
  Doc(const std::string& t, const maniGltfOptions& o) : text(t) {
    EXPECT_EQ(maniOpenGltf(b.b, text.data(), text.size(), &g).result, mani_success);
    EXPECT_EQ(maniBuildGltfNodeSkeleton(b.b, g, 0, &o).result, mani_success);
    skeletonFile = b.Built();
    EXPECT_EQ(maniOpenSkeleton(skeletonFile.data(), skeletonFile.size, &s).result, mani_success);
  }
  ~Doc() { maniCloseGltf(g); }
  uint32_t Bone(const char* name) const { return maniSkeleton_FindBone(&s, name, strlen(name)); }
};

maniImportResult Read(Doc& d, const maniGltfOptions& o, maniVec3 facing, maniVec3 up, maniRagdollSource* src) {
  return maniGltf_ReadRagdoll(d.g, &d.s, &o, facing, up, src);
}
maniImportResult Read(Doc& d, float unit, maniVec3 facing, maniVec3 up, maniRagdollSource* src) {
  return Read(d, Units(unit), facing, up, src);
}

const maniVec3 kFacing{0, 0, 1}, kUp{0, 1, 0};

// The source body on a bone, or nullptr (the paragraph gives no order).
const maniRagdollSourceBody* BodyOn(const maniRagdollSource& src, uint32_t bone) {
  for (uint32_t k = 0; k < src.bodyCount; ++k)
    if (src.bodies[k].bone == bone) return &src.bodies[k];
  return nullptr;
}

// A rotation equal to (x, y, z, w) up to sign.
void ExpectRotation(maniQuat q, double x, double y, double z, double w, double tol = 1e-6) {
  const double s = (q.x * x + q.y * y + q.z * z + q.w * w) < 0 ? -1.0 : 1.0;
  EXPECT_NEAR(s * q.x, x, tol);
  EXPECT_NEAR(s * q.y, y, tol);
  EXPECT_NEAR(s * q.z, z, tol);
  EXPECT_NEAR(s * q.w, w, tol);
}

void ExpectVec(maniVec3 v, double x, double y, double z, double tol) {
  EXPECT_NEAR(v.x, x, tol);
  EXPECT_NEAR(v.y, y, tol);
  EXPECT_NEAR(v.z, z, tol);
}

// The source fields the paragraph decides for a body of these documents: its
// motion, mass, shape and size, and its frame (position, rotation).
struct Expected {
  uint32_t motion;
  float mass;
  uint32_t shape;
  double size[3];
  double position[3];
  double rotation[4];
};

void ExpectBody(const maniRagdollSourceBody* b, const Expected& e, double unit) {
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->motion, e.motion);
  EXPECT_EQ(b->mass, e.mass);
  EXPECT_EQ(b->shape, e.shape);
  ExpectVec(b->size, e.size[0] * unit, e.size[1] * unit, e.size[2] * unit, 1e-6 * unit);
  ExpectVec(b->frame.translation, e.position[0] * unit, e.position[1] * unit, e.position[2] * unit, 1e-6 * unit);
  ExpectRotation(b->frame.rotation, e.rotation[0], e.rotation[1], e.rotation[2], e.rotation[3]);
  // None of these documents has a joint between a body and its nearest
  // ancestor body (their bodies are siblings), and OMI_physics_joint drives
  // appear in none of them: no drive ("stiffness and damping both 0: no
  // drive", build.h).
  EXPECT_EQ(b->driveStiffness, 0.0f);
  EXPECT_EQ(b->driveDamping, 0.0f);
  EXPECT_EQ(b->driveMaxForce, 0.0f);
  // Undecided: a body without a joint to an ancestor body has no limits in
  // the document; the paragraph does not say what the source holds then (the
  // reader gives free limits). Only the builder's range is checked.
  EXPECT_LE(-MANI_RAGDOLL_MAX_ANGLE, b->twistMin);
  EXPECT_LE(b->twistMin, b->twistMax);
  EXPECT_LE(b->twistMax, MANI_RAGDOLL_MAX_ANGLE);
  EXPECT_GE(b->swingY, 0.0f);
  EXPECT_LE(b->swingY, MANI_RAGDOLL_MAX_ANGLE);
  EXPECT_GE(b->swingZ, 0.0f);
  EXPECT_LE(b->swingZ, MANI_RAGDOLL_MAX_ANGLE);
}

// A source of several roots: each body has no body above it, so the joints
// the document has join none of them to an ancestor body, and the profile
// builder refuses the second root ("a second root in the source's order:
// other the first", build.h): item 1, other 0 whatever the order, since
// every body is a root.
void ExpectSeveralRootsRefused(const maniRagdollSource& src) {
  Builder b;
  maniBuildResult r = maniBuildRagdoll(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonJoint);
  EXPECT_EQ(r.item, 1u);
  EXPECT_EQ(r.other, 0u);
}

// An empty source: "A document without bodies on the skeleton gives an
// empty source", which the builder refuses (maniBuildReasonCount, item 0).
void ExpectEmptyRefused(const maniRagdollSource& src) {
  EXPECT_EQ(src.bodyCount, 0u);
  Builder b;
  maniBuildResult r = maniBuildRagdoll(b.b, &src);
  EXPECT_EQ(r.result, mani_errorInvalid);
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount);
  EXPECT_EQ(r.item, 0u);
}

// A one-body source built and opened: the profile's body is the source's
// (parent none, parent joint the identity) and the model's forward and up
// are modelForward and modelUp (the given axes at rest, in the output's
// basis: the axes themselves in glTF's default one).
struct Built {
  File file;
  maniRagdoll r;
};

void BuildAndOpen(const maniRagdollSource& src, const Expected& e, double unit, maniVec3 modelForward, maniVec3 modelUp,
                  Built* out) {
  Builder b;
  maniBuildResult res = maniBuildRagdoll(b.b, &src);
  ASSERT_EQ(res.result, mani_success) << res.reason << " " << res.item << " " << res.other;
  out->file = b.Built();
  ASSERT_EQ(maniOpenRagdoll(out->file.data(), out->file.size, &out->r).result, mani_success);
  ASSERT_EQ(maniRagdoll_GetBodyCount(&out->r), 1u);
  maniRagdollBody body;
  ASSERT_EQ(maniRagdoll_GetBody(&out->r, 0, &body), mani_success);
  EXPECT_EQ(body.bone, src.bodies[0].bone);
  EXPECT_EQ(body.parent, MANI_RAGDOLL_NO_BODY);
  EXPECT_EQ(body.motion, e.motion);
  EXPECT_EQ(body.shape, e.shape);
  EXPECT_EQ(body.mass, e.mass);
  ExpectVec(body.size, e.size[0] * unit, e.size[1] * unit, e.size[2] * unit, 1e-6 * unit);
  ExpectVec(body.frame.position, e.position[0] * unit, e.position[1] * unit, e.position[2] * unit, 1e-6 * unit);
  ExpectRotation(body.frame.rotation, e.rotation[0], e.rotation[1], e.rotation[2], e.rotation[3]);
  ExpectVec(body.parentJoint.position, 0, 0, 0, 0);
  ExpectRotation(body.parentJoint.rotation, 0, 0, 0, 1, 0);
  EXPECT_EQ(body.driveStiffness, 0.0f);
  EXPECT_EQ(body.driveDamping, 0.0f);
  ExpectVec(out->r.modelForward, modelForward.x, modelForward.y, modelForward.z, 1e-6);
  ExpectVec(out->r.modelUp, modelUp.x, modelUp.y, modelUp.z, 1e-6);
}

// -- OMI_physics_body ---------------------------------------------------------------------

// basic/dynamic_box.gltf: nodes[0] "DynamicBox" is a dynamic body
// (extensions.OMI_physics_body.motion {"type": "dynamic"}, no mass: OMI's
// 1.0), its one collider nodes[1] "BoxShape" (collider.shape 0, no
// transform), extensions.OMI_physics_shape.shapes[0] a box of size [1, 2, 3].
TEST(RagdollOmi, DynamicBox) {
  OMI_DOC(text, "OMI_physics_body/dynamic_box.gltf");
  const Expected box{maniRagdollMotionDynamic, 1.0f, maniRagdollShapeBox, {0.5, 1.0, 1.5}, {0, 0, 0}, {0, 0, 0, 1}};
  for (float unit : {1.0f, 100.0f}) {
    SCOPED_TRACE(unit);
    Doc d(text, unit);
    maniRagdollSource src;
    ASSERT_EQ(Read(d, unit, kFacing, kUp, &src).result, mani_success);
    ASSERT_EQ(src.bodyCount, 1u);
    EXPECT_EQ(src.skeleton, &d.s);
    EXPECT_EQ(src.bodies[0].bone, d.Bone("DynamicBox"));  // the body's own node is a bone
    ExpectBody(&src.bodies[0], box, unit);
    // The root body's frame at rest is the identity: the axes as given.
    ExpectVec(src.facing, 0, 0, 1, 1e-6);
    ExpectVec(src.up, 0, 1, 0, 1e-6);
    Built p;
    BuildAndOpen(src, box, unit, kFacing, kUp, &p);
    ExpectVec(p.r.facing, 0, 0, 1, 1e-6);
    ExpectVec(p.r.up, 0, 1, 0, 1e-6);
  }
}

// complex/indirect_children.gltf: three kinematic bodies (no mass: 1.0),
// each with one box of size [1, 1, 1] (shapes[0]) with no transform on its
// collider node: nodes[1] "KinematicDirect" (collider on its child
// nodes[2]), nodes[5] "KinematicIndirect" (on its grandchild nodes[7],
// through nodes[6] "IntermediaryNodeKinematic"), nodes[11]
// "KinematicSameNode" (on itself). nodes[3], [8] and [12] are triggers
// (OMI_physics_body.trigger, no motion): "triggers ... are ignored", so no
// body on them or on their shape nodes [4], [10].
TEST(RagdollOmi, IndirectChildren) {
  OMI_DOC(text, "OMI_physics_body/indirect_children.gltf");
  const Expected box{maniRagdollMotionKinematic, 1.0f, maniRagdollShapeBox, {0.5, 0.5, 0.5}, {0, 0, 0}, {0, 0, 0, 1}};
  for (float unit : {1.0f, 100.0f}) {
    SCOPED_TRACE(unit);
    Doc d(text, unit);
    maniRagdollSource src;
    ASSERT_EQ(Read(d, unit, kFacing, kUp, &src).result, mani_success);
    ASSERT_EQ(src.bodyCount, 3u);
    for (const char* name : {"KinematicDirect", "KinematicIndirect", "KinematicSameNode"}) {
      SCOPED_TRACE(name);
      ExpectBody(BodyOn(src, d.Bone(name)), box, unit);
    }
    for (const char* name : {"TriggerDirect", "BoxShapeTriggerDirect", "TriggerIndirect", "BoxShapeTriggerIndirect",
                             "TriggerSameNode", "IndirectColliders"})
      EXPECT_EQ(BodyOn(src, d.Bone(name)), nullptr) << name;
    // Undecided: with three roots, "the root body" the axes turn into is not
    // one body; the axes are not checked here.
    ExpectSeveralRootsRefused(src);
  }
}

// -- OMI_physics_shape ----------------------------------------------------------------------

// sphere_collider.gltf and capsule_collider.gltf: nodes[0] has a collider
// (OMI_physics_body.collider.shape 0) and no motion: a static collider, not a
// dynamic or kinematic body, so the document has no bodies on the skeleton.
TEST(RagdollOmi, SphereColliderIsNoBody) {
  OMI_DOC(text, "OMI_physics_shape/sphere_collider.gltf");
  Doc d(text, 1);
  maniRagdollSource src;
  ASSERT_EQ(Read(d, 1, kFacing, kUp, &src).result, mani_success);
  ExpectEmptyRefused(src);
}

TEST(RagdollOmi, CapsuleColliderIsNoBody) {
  OMI_DOC(text, "OMI_physics_shape/capsule_collider.gltf");
  Doc d(text, 1);
  maniRagdollSource src;
  ASSERT_EQ(Read(d, 1, kFacing, kUp, &src).result, mani_success);
  ExpectEmptyRefused(src);
}

// The two shape documents' shapes as bodies: the same text with the node
// made dynamic in memory (the shared file is not edited), so the reader
// reaches the shape. shapes[0] of sphere_collider: {"sphere": {"radius":
// 0.5}}. shapes[0] of capsule_collider: {"capsule": {"height": 1.0,
// "radiusBottom": 0.5, "radiusTop": 0.5}}, equal radii.
std::string MadeDynamic(const std::string& text) {
  const std::string key = "\"OMI_physics_body\": {";
  const size_t at = text.find(key);
  if (at == std::string::npos) return "";
  std::string t = text;
  t.insert(at + key.size(), "\"motion\": {\"type\": \"dynamic\"}, ");
  return t;
}

TEST(RagdollOmi, SphereColliderShapeOnADynamicNode) {
  OMI_DOC(text, "OMI_physics_shape/sphere_collider.gltf");
  const std::string t = MadeDynamic(text);
  ASSERT_FALSE(t.empty());
  const Expected sphere{maniRagdollMotionDynamic, 1.0f, maniRagdollShapeSphere, {0.5, 0, 0}, {0, 0, 0}, {0, 0, 0, 1}};
  Doc d(t, 1);
  maniRagdollSource src;
  ASSERT_EQ(Read(d, 1, kFacing, kUp, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 1u);
  EXPECT_EQ(src.bodies[0].bone, d.Bone("SphereShape"));
  ExpectBody(&src.bodies[0], sphere, 1);
  Built p;
  BuildAndOpen(src, sphere, 1, kFacing, kUp, &p);
}

// The capsule: "a capsule's height and radius" go to the profile's size
// (size.x the radius, size.y the height). Undecided: the profile's size.y is
// "the full height (caps included)" (ragdoll.h), while this document is
// written to OMI's later capsule schema, where height is "the mid height
// ..., the distance between the centers of the two capping hemispheres"
// (full height height + radiusBottom + radiusTop = 2.0); its earlier schema,
// which simple_joint and hanging_rope (Godot, "radius") are written to, says
// "The full height of the capsule shape". The paragraph's words give the
// height as written (1.0), which is what is checked; which OMI revision it
// means is for the reference to say.
TEST(RagdollOmi, CapsuleColliderShapeOnADynamicNode) {
  OMI_DOC(text, "OMI_physics_shape/capsule_collider.gltf");
  const std::string t = MadeDynamic(text);
  ASSERT_FALSE(t.empty());
  const Expected capsule{
      maniRagdollMotionDynamic, 1.0f, maniRagdollShapeCapsule, {0.5, 1.0, 0}, {0, 0, 0}, {0, 0, 0, 1}};
  Doc d(t, 1);
  maniRagdollSource src;
  ASSERT_EQ(Read(d, 1, kFacing, kUp, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 1u);
  EXPECT_EQ(src.bodies[0].bone, d.Bone("CapsuleShape"));
  ExpectBody(&src.bodies[0], capsule, 1);
  Built p;
  BuildAndOpen(src, capsule, 1, kFacing, kUp, &p);
}

// -- What a profile cannot hold ---------------------------------------------------------------

// The text with its one occurrence of from replaced by to, or "" (from not
// found once).
std::string Replaced(const std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos) return "";
  std::string t = text;
  t.replace(at, from.size(), to);
  return t;
}

// A refusal: mani_errorFormat with the reason, item and offset (of the
// refused JSON), the source unchanged.
void ExpectRefused(const std::string& t, uint32_t reason, uint32_t item, size_t offset) {
  ASSERT_FALSE(t.empty());
  Doc d(t, 1);
  maniRagdollSource src, copy;
  memset(&src, 0x5A, sizeof src);
  copy = src;
  const maniImportResult r = Read(d, 1, kFacing, kUp, &src);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.item, item);
  EXPECT_NE(offset, std::string::npos);
  EXPECT_EQ(r.offset, (uint64_t)offset);
  EXPECT_EQ(memcmp(&src, &copy, sizeof src), 0);
}

// "its shape that collider's (a box's size halved, a sphere's radius, a
// capsule's height and radius)" and "mani_errorFormat with a reason
// (Unsupported for what a profile cannot hold)": dynamic_box's shapes[0]
// made each of OMI's other kinds (and a kind OMI lacks) is refused as
// Unsupported, item the collider node (nodes[1]), at the type string; a
// string that is not a type at all (a number) is a property refused.
TEST(RagdollOmi, ShapesAProfileCannotHoldAreUnsupported) {
  OMI_DOC(text, "OMI_physics_body/dynamic_box.gltf");
  for (const char* kind : {"cylinder", "convex", "trimesh", "cone"}) {
    SCOPED_TRACE(kind);
    const std::string to = std::string("\"type\": \"") + kind + "\"";
    const std::string t = Replaced(text, "\"type\": \"box\"", to);
    ExpectRefused(t, maniImportReasonUnsupported, 1, t.find("\"" + std::string(kind)));
  }
  const std::string t = Replaced(text, "\"type\": \"box\"", "\"type\": 3");
  ExpectRefused(t, maniImportReasonProperty, 1, t.find("{\n                    \"type\""));
}

// capsule_collider's capsule made tapered (radiusTop 0.25, radiusBottom
// 0.5) on a dynamic node: a profile's capsule has one radius, so
// Unsupported, item the collider node (nodes[0]), at the capsule object.
TEST(RagdollOmi, TaperedCapsuleIsUnsupported) {
  OMI_DOC(text, "OMI_physics_shape/capsule_collider.gltf");
  const std::string t = Replaced(MadeDynamic(text), "\"radiusTop\": 0.5", "\"radiusTop\": 0.25");
  ExpectRefused(t, maniImportReasonUnsupported, 0, t.find("{\n                        \"height\""));
}

// "its frame the frame of its one collider's node ..., its shape that
// collider's": a body without a collider, or with two, has no one shape a
// profile could hold (Unsupported). dynamic_box with its collider made a
// trigger: item the body (nodes[0]), at its OMI_physics_body object.
// indirect_children with a collider added on nodes[6]
// "IntermediaryNodeKinematic", between the kinematic nodes[5] and its
// collider nodes[7]: item the second collider found in node order
// (nodes[7]), at its collider object.
TEST(RagdollOmi, BodiesWithoutOneColliderAreUnsupported) {
  {
    OMI_DOC(text, "OMI_physics_body/dynamic_box.gltf");
    const std::string t = Replaced(text, "\"collider\": {", "\"trigger\": {");
    ExpectRefused(t, maniImportReasonUnsupported, 0, t.find("{\n                    \"motion\""));
  }
  {
    OMI_DOC(text, "OMI_physics_body/indirect_children.gltf");
    const std::string t = Replaced(text, "\"name\": \"IntermediaryNodeKinematic\"",
                                   "\"extensions\": {\"OMI_physics_body\": {\"collider\": {\"shape\": 0}}}, \"name\": "
                                   "\"IntermediaryNodeKinematic\"");
    ASSERT_FALSE(t.empty());
    // nodes[7]'s collider: the first "collider" after nodes[7]'s place.
    const size_t seventh = t.find("\"collider\": { \"shape\": 0 }", t.find("IntermediaryNodeKinematic\""));
    ASSERT_NE(seventh, std::string::npos);
    ExpectRefused(t, maniImportReasonUnsupported, 7, seventh + strlen("\"collider\": "));
  }
}

// -- Bodies on an ancestor bone -----------------------------------------------------------

// A one-bone skeleton: a node skeleton of a document whose one node has the
// name given (so it finds the OMI document's node of that name).
struct OneBone {
  Builder b;
  maniGltf* g = nullptr;
  File file;
  maniSkeleton s;
  std::string text;
  explicit OneBone(const char* name)
      : text(std::string(
                 R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": ")") +
             name + "\"}]}") {
    EXPECT_EQ(maniOpenGltf(b.b, text.data(), text.size(), &g).result, mani_success);
    maniGltfOptions o = maniDefaultGltfOptions();
    EXPECT_EQ(maniBuildGltfNodeSkeleton(b.b, g, 0, &o).result, mani_success);
    file = b.Built();
    EXPECT_EQ(maniOpenSkeleton(file.data(), file.size, &s).result, mani_success);
  }
  ~OneBone() { maniCloseGltf(g); }
};

// "Each dynamic or kinematic body sits on the bone of its node or of the
// node's nearest ancestor that is a bone, its frame the frame of its one
// collider's node (rigid, in the bone's model frame ...)": swing_and_slide
// on a skeleton of nodes[0] "SwingAndSlide" alone puts Ball on that bone,
// its frame BallShape's in SwingAndSlide's, which is Ball's own transform
// (nodes[6] translation [-1.6, 0.15, 0], rotation [0, 0, -0.38268343236509,
// 0.923879532511287]; BallShape and SwingAndSlide have none). The axes are
// turned into the same rest frame as in SwingAndSlide.
TEST(RagdollOmi, SwingAndSlideBallOnItsAncestorBone) {
  OMI_DOC(text, "OMI_physics_joint/swing_and_slide.gltf");
  const Expected ball{maniRagdollMotionDynamic, 1.0f,
                      maniRagdollShapeSphere,   {0.25, 0, 0},
                      {-1.6, 0.15, 0},          {0, 0, -0.38268343236509, 0.923879532511287}};
  const double h = std::sqrt(0.5);
  Doc d(text, 1);
  OneBone one("SwingAndSlide");
  maniGltfOptions o = maniDefaultGltfOptions();
  maniRagdollSource src;
  ASSERT_EQ(maniGltf_ReadRagdoll(d.g, &one.s, &o, kFacing, kUp, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 1u);
  EXPECT_EQ(src.bodies[0].bone, 0u);
  ExpectBody(&src.bodies[0], ball, 1);
  ExpectVec(src.facing, 0, 0, 1, 1e-6);
  ExpectVec(src.up, -h, h, 0, 1e-6);
  Built p;
  BuildAndOpen(src, ball, 1, kFacing, kUp, &p);
}

// Two bodies on one bone: simple_joint's BodyA (nodes[1]) and BodyB
// (nodes[6]) on a skeleton of nodes[0] "SimpleJoint" alone both sit on it.
// A profile holds one body a bone (build.h: "a bone of the skeleton, one
// body a bone"), so the second is Unsupported: item nodes[6], at its
// OMI_physics_body object. (hanging_rope likewise: the second rope segment,
// nodes[11].)
TEST(RagdollOmi, TwoBodiesOnOneBoneAreUnsupported) {
  struct Case {
    const char* doc;
    const char* root;
    uint32_t second;
    const char* secondName;
  };
  for (const Case& c : {Case{"OMI_physics_joint/simple_joint.gltf", "SimpleJoint", 6, "\"BodyB\""},
                        Case{"OMI_physics_joint/hanging_rope.gltf", "HangingRope", 11, "\"RopeSegmentMiddle\""}}) {
    SCOPED_TRACE(c.doc);
    const std::string text = ReadOmi(c.doc);
    if (text.empty()) GTEST_SKIP() << "../shared/data/gltf/omi not present";
    Doc d(text, 1);
    OneBone one(c.root);
    maniGltfOptions o = maniDefaultGltfOptions();
    maniRagdollSource src, copy;
    memset(&src, 0x5A, sizeof src);
    copy = src;
    const maniImportResult r = maniGltf_ReadRagdoll(d.g, &one.s, &o, kFacing, kUp, &src);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonUnsupported);
    EXPECT_EQ(r.item, c.second);
    // The second body's OMI_physics_body object: the last one opened before
    // its name (the node's extensions come before "name" in these files).
    const size_t name = text.find(c.secondName);
    ASSERT_NE(name, std::string::npos);
    const size_t body = text.rfind("\"OMI_physics_body\":", name);
    ASSERT_NE(body, std::string::npos);
    EXPECT_EQ(r.offset, (uint64_t)text.find('{', body));
    EXPECT_EQ(memcmp(&src, &copy, sizeof src), 0);
  }
}

// A static body below a dynamic one keeps its colliders: swing_and_slide
// with nodes[1] "TopBody" (static, its box collider nodes[2]) moved below
// nodes[6] "Ball" (nodes[0] children [1, 6, 10] -> [6, 10], Ball's [7, 9, 5]
// -> [7, 9, 5, 1]). A collider is part of the nearest body above it
// (OMI_physics_body; the static TopBody here), so Ball's one collider is
// still its sphere, and static bodies are not bodies of the profile.
TEST(RagdollOmi, StaticBodyBelowADynamicOneKeepsItsCollider) {
  OMI_DOC(text, "OMI_physics_joint/swing_and_slide.gltf");
  const std::string t = Replaced(Replaced(text, "\"children\": [1, 6, 10]", "\"children\": [6, 10]"),
                                 "\"children\": [7, 9, 5]", "\"children\": [7, 9, 5, 1]");
  ASSERT_FALSE(t.empty());
  const Expected ball{maniRagdollMotionDynamic, 1.0f, maniRagdollShapeSphere, {0.25, 0, 0}, {0, 0, 0}, {0, 0, 0, 1}};
  Doc d(t, 1);
  maniRagdollSource src;
  ASSERT_EQ(Read(d, 1, kFacing, kUp, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 1u);
  EXPECT_EQ(src.bodies[0].bone, d.Bone("Ball"));
  ExpectBody(&src.bodies[0], ball, 1);
}

// -- OMI_physics_joint ----------------------------------------------------------------------

// simple_joint.gltf: nodes[1] "BodyA" and nodes[6] "BodyB" are dynamic (no
// mass: 1.0), siblings under nodes[0]; their colliders nodes[2] "ColliderA"
// and nodes[7] "ColliderB" hold shapes[0] {"capsule": {"height": 0.5,
// "radius": 0.05}} turned by rotation [0, 0, 0.707106796640861,
// 0.707106765732234], no translation. nodes[9] "FloorBody" is static: no
// body. The one joint, nodes[4] "PinJoint" under BodyA, connectedNode 5
// ("BodyBJointAttachment", under BodyB), joins two siblings: neither is the
// other's nearest ancestor body, so it is no profile joint ("Each joint
// joins a body to its nearest ancestor body"). Undecided: whether such a
// joint is refused as something a profile cannot hold (Unsupported) or left
// out; the reader leaves it out (success), which this records.
TEST(RagdollOmi, SimpleJoint) {
  OMI_DOC(text, "OMI_physics_joint/simple_joint.gltf");
  const Expected capsule{maniRagdollMotionDynamic, 1.0f,      maniRagdollShapeCapsule,
                         {0.05, 0.5, 0},           {0, 0, 0}, {0, 0, 0.707106796640861, 0.707106765732234}};
  for (float unit : {1.0f, 100.0f}) {
    SCOPED_TRACE(unit);
    Doc d(text, unit);
    maniRagdollSource src;
    ASSERT_EQ(Read(d, unit, kFacing, kUp, &src).result, mani_success);
    ASSERT_EQ(src.bodyCount, 2u);
    ExpectBody(BodyOn(src, d.Bone("BodyA")), capsule, unit);
    ExpectBody(BodyOn(src, d.Bone("BodyB")), capsule, unit);
    for (const char* name : {"FloorBody", "FloorShape", "ColliderA", "ColliderB", "PinJoint", "BodyBJointAttachment"})
      EXPECT_EQ(BodyOn(src, d.Bone(name)), nullptr) << name;
    ExpectSeveralRootsRefused(src);
  }
}

// hanging_rope.gltf: nodes[6] "RopeSegmentTop", [11] "RopeSegmentMiddle" and
// [16] "RopeSegmentBottom" are dynamic (no mass: 1.0), siblings under
// nodes[0]; their colliders [7], [12], [17] hold shapes[1] {"capsule":
// {"height": 0.5, "radius": 0.05}} turned by [0, 0, 0.707106796640861,
// 0.707106765732234]. nodes[1] "Ceiling" is static: no body. The three pin
// joints (nodes[4] under Top to [5] under the ceiling, [9] under Middle to
// [10] under Top, [14] under Bottom to [15] under Middle) join siblings or a
// static body: no profile joint (undecided as in SimpleJoint), and the pins'
// linear axes (physicsJoints[0].limits[0], soft: stiffness 0.3) are not
// reached.
TEST(RagdollOmi, HangingRope) {
  OMI_DOC(text, "OMI_physics_joint/hanging_rope.gltf");
  const Expected capsule{maniRagdollMotionDynamic, 1.0f,      maniRagdollShapeCapsule,
                         {0.05, 0.5, 0},           {0, 0, 0}, {0, 0, 0.707106796640861, 0.707106765732234}};
  for (float unit : {1.0f, 100.0f}) {
    SCOPED_TRACE(unit);
    Doc d(text, unit);
    maniRagdollSource src;
    ASSERT_EQ(Read(d, unit, kFacing, kUp, &src).result, mani_success);
    ASSERT_EQ(src.bodyCount, 3u);
    for (const char* name : {"RopeSegmentTop", "RopeSegmentMiddle", "RopeSegmentBottom"}) {
      SCOPED_TRACE(name);
      ExpectBody(BodyOn(src, d.Bone(name)), capsule, unit);
    }
    for (const char* name : {"Ceiling", "CeilingCollider", "PinJoint1", "PinJoint2", "PinJoint3"})
      EXPECT_EQ(BodyOn(src, d.Bone(name)), nullptr) << name;
    ExpectSeveralRootsRefused(src);
  }
}

// Rigid frames turned about z only (every frame of hanging_rope is), in
// binary64: a rotation (0, 0, s, c), a position (x, y, 0).
struct Zq {
  double s, c;
};
struct Zf {
  double x, y;
  Zq q;
};
Zq ZMul(Zq a, Zq b) { return Zq{a.c * b.s + a.s * b.c, a.c * b.c - a.s * b.s}; }
void ZTurn(Zq q, double x, double y, double* ox, double* oy) {
  const double n = q.s * q.s + q.c * q.c, cs = (q.c * q.c - q.s * q.s) / n, sn = 2 * q.s * q.c / n;
  *ox = x * cs - y * sn;
  *oy = x * sn + y * cs;
}
Zf ZCompose(Zf a, Zf b) {
  Zf r;
  ZTurn(a.q, b.x, b.y, &r.x, &r.y);
  r.x += a.x, r.y += a.y;
  r.q = ZMul(a.q, b.q);
  return r;
}
Zf ZInverse(Zf a) {
  Zf r;
  r.q = Zq{-a.q.s, a.q.c};
  ZTurn(r.q, -a.x, -a.y, &r.x, &r.y);
  return r;
}
void ExpectZFrame(const maniTransform& t, Zf e) {
  ExpectVec(t.translation, e.x, e.y, 0, 1e-6);
  const double n = std::sqrt(e.q.s * e.q.s + e.q.c * e.q.c);
  ExpectRotation(t.rotation, 0, 0, e.q.s / n, e.q.c / n);
}
void ExpectZFrame(const maniRagdollFrame& t, Zf e) {
  maniTransform m;
  m.translation = t.position;
  m.rotation = t.rotation;
  ExpectZFrame(m, e);
}

// hanging_rope nested as a chain: the same text with nodes[11]
// "RopeSegmentMiddle" made a child of nodes[6] "RopeSegmentTop" and nodes[16]
// "RopeSegmentBottom" one of Middle (nodes[0] children [1, 6, 11, 16, 19] ->
// [1, 6, 19], Top's [7, 10, 4] -> [7, 10, 4, 11], Middle's [12, 15, 9] ->
// [12, 15, 9, 16]; every transform kept, so the chain hangs differently, which
// the reading does not care about). The shared examples hold no body below
// another, so this is the only way their joints reach the reader: now
// PinJoint2 (nodes[9] under Middle, connectedNode 10 under Top) joins Middle
// to its nearest ancestor body Top and PinJoint3 (nodes[14] under Bottom,
// connectedNode 15 under Middle) joins Bottom to Middle: "its frame the
// child side's node's" (nodes[9], nodes[14]) in the body's frame (its
// collider's: [12], [17]); physicsJoints[0] has linear limits only (its
// angular axes have no limit: free) and no drives. PinJoint1 still joins
// Top to the static ceiling: no joint. Values from the JSON: Top
// translation [-0.17, 1.15, 0] rotation [0, 0, 0.258819142609008,
// 0.965925800162279]; Middle [-0.58, 0.95, 0] [0, 0, 0.173648047484773,
// 0.984807775966826]; Bottom [-1.03, 0.87, 0]; colliders [0, 0,
// 0.707106796640861, 0.707106765732234]; nodes[9] [0.224696991890219,
// 0.00335123794016523, 0] [0, 0, -0.17364804748477, 0.984807775966826];
// nodes[14] [0.23, 0, 0].
TEST(RagdollOmi, HangingRopeNestedAsAChain) {
  OMI_DOC(text, "OMI_physics_joint/hanging_rope.gltf");
  const std::string t =
      Replaced(Replaced(Replaced(text, "\"children\": [1, 6, 11, 16, 19]", "\"children\": [1, 6, 19]"),
                        "\"children\": [7, 10, 4]", "\"children\": [7, 10, 4, 11]"),
               "\"children\": [12, 15, 9]", "\"children\": [12, 15, 9, 16]");
  ASSERT_FALSE(t.empty());
  const Zf top{-0.17, 1.15, {0.258819142609008, 0.965925800162279}};
  const Zf middle{-0.58, 0.95, {0.173648047484773, 0.984807775966826}};
  const Zf bottom{-1.03, 0.87, {0, 1}};
  const Zf collider{0, 0, {0.707106796640861, 0.707106765732234}};
  const Zf pin2{0.224696991890219, 0.00335123794016523, {-0.17364804748477, 0.984807775966826}};
  const Zf pin3{0.23, 0, {0, 1}};
  Doc d(t, 1);
  maniRagdollSource src;
  ASSERT_EQ(Read(d, 1, kFacing, kUp, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 3u);
  const maniRagdollSourceBody* bt = BodyOn(src, d.Bone("RopeSegmentTop"));
  const maniRagdollSourceBody* bm = BodyOn(src, d.Bone("RopeSegmentMiddle"));
  const maniRagdollSourceBody* bb = BodyOn(src, d.Bone("RopeSegmentBottom"));
  ASSERT_TRUE(bt != nullptr && bm != nullptr && bb != nullptr);
  for (const maniRagdollSourceBody* b : {bt, bm, bb}) {
    EXPECT_EQ(b->motion, (uint32_t)maniRagdollMotionDynamic);
    EXPECT_EQ(b->mass, 1.0f);
    EXPECT_EQ(b->shape, (uint32_t)maniRagdollShapeCapsule);
    ExpectVec(b->size, 0.05, 0.5, 0, 1e-6);
    ExpectZFrame(b->frame, collider);
    EXPECT_EQ(b->driveStiffness, 0.0f);
    EXPECT_EQ(b->driveDamping, 0.0f);
    EXPECT_EQ(b->driveMaxForce, 0.0f);
  }
  for (const maniRagdollSourceBody* b : {bm, bb}) {
    EXPECT_EQ(b->twistMin, -MANI_RAGDOLL_MAX_ANGLE);
    EXPECT_EQ(b->twistMax, MANI_RAGDOLL_MAX_ANGLE);
    EXPECT_EQ(b->swingY, MANI_RAGDOLL_MAX_ANGLE);
    EXPECT_EQ(b->swingZ, MANI_RAGDOLL_MAX_ANGLE);
  }
  ExpectZFrame(bm->joint, ZCompose(ZInverse(collider), pin2));
  ExpectZFrame(bb->joint, ZCompose(ZInverse(collider), pin3));
  // The root Top's rest frame: Top times its collider; the axes turned into
  // it (facing along z stays).
  const Zf rootRest = ZCompose(top, collider);
  double ux = 0, uy = 0;
  ZTurn(Zq{-rootRest.q.s, rootRest.q.c}, 0, 1, &ux, &uy);
  ExpectVec(src.facing, 0, 0, 1, 1e-6);
  ExpectVec(src.up, ux, uy, 0, 1e-6);

  // Built: parents by bone, each joint's parent side the child side's node
  // at rest in the parent body's frame: the collider's inverse times the
  // child body's node times the pin (Top's own transform cancels).
  Builder b;
  maniBuildResult res = maniBuildRagdoll(b.b, &src);
  ASSERT_EQ(res.result, mani_success) << res.reason << " " << res.item << " " << res.other;
  File file = b.Built();
  maniRagdoll r;
  ASSERT_EQ(maniOpenRagdoll(file.data(), file.size, &r).result, mani_success);
  ASSERT_EQ(maniRagdoll_GetBodyCount(&r), 3u);
  maniRagdollBody body[3];
  uint32_t at[3] = {9, 9, 9};  // Top, Middle, Bottom's profile index
  for (uint32_t k = 0; k < 3; ++k) {
    ASSERT_EQ(maniRagdoll_GetBody(&r, k, &body[k]), mani_success);
    if (body[k].bone == bt->bone) at[0] = k;
    if (body[k].bone == bm->bone) at[1] = k;
    if (body[k].bone == bb->bone) at[2] = k;
  }
  ASSERT_TRUE(at[0] < 3 && at[1] < 3 && at[2] < 3);
  EXPECT_EQ(body[at[0]].parent, MANI_RAGDOLL_NO_BODY);
  EXPECT_EQ(body[at[1]].parent, at[0]);
  EXPECT_EQ(body[at[2]].parent, at[1]);
  ExpectZFrame(body[at[1]].joint, ZCompose(ZInverse(collider), pin2));
  ExpectZFrame(body[at[2]].joint, ZCompose(ZInverse(collider), pin3));
  ExpectZFrame(body[at[1]].parentJoint, ZCompose(ZInverse(collider), ZCompose(middle, pin2)));
  ExpectZFrame(body[at[2]].parentJoint, ZCompose(ZInverse(collider), ZCompose(bottom, pin3)));
  ExpectVec(r.modelForward, 0, 0, 1, 1e-6);
  ExpectVec(r.modelUp, 0, 1, 0, 1e-6);
}

// swing_and_slide.gltf: nodes[6] "Ball" is the one dynamic body (no mass:
// 1.0), turned by rotation [0, 0, -0.38268343236509, 0.923879532511287]
// (-45 degrees about z); its collider nodes[7] "BallShape" (no transform)
// holds shapes[1] {"sphere": {"radius": 0.25}}. nodes[1] "TopBody" is static:
// no body. The joint nodes[4] "CustomJoint" (under TopBody, connectedNode 5
// under Ball) joins the ball to a static body, not to an ancestor body: no
// profile joint, so its linear range on x (limits[0], -0.25 to 1.75), which
// a profile cannot hold, is not reached (undecided as in SimpleJoint).
// The root body's frame at rest is Ball's rotation R: the axes in it are
// R^-1 applied to them, a turn of +45 degrees about z: facing (0, 0, 1)
// stays, up (0, 1, 0) becomes (-sqrt(1/2), sqrt(1/2), 0); facing (1, 0, 0)
// becomes (sqrt(1/2), sqrt(1/2), 0).
TEST(RagdollOmi, SwingAndSlide) {
  OMI_DOC(text, "OMI_physics_joint/swing_and_slide.gltf");
  const Expected ball{maniRagdollMotionDynamic, 1.0f, maniRagdollShapeSphere, {0.25, 0, 0}, {0, 0, 0}, {0, 0, 0, 1}};
  const double h = std::sqrt(0.5);
  for (float unit : {1.0f, 100.0f}) {
    SCOPED_TRACE(unit);
    Doc d(text, unit);
    maniRagdollSource src;
    ASSERT_EQ(Read(d, unit, kFacing, kUp, &src).result, mani_success);
    ASSERT_EQ(src.bodyCount, 1u);
    EXPECT_EQ(src.bodies[0].bone, d.Bone("Ball"));
    ExpectBody(&src.bodies[0], ball, unit);
    for (const char* name : {"TopBody", "TopBodyShape", "CustomJoint", "BallJointAttachment"})
      EXPECT_EQ(BodyOn(src, d.Bone(name)), nullptr) << name;
    ExpectVec(src.facing, 0, 0, 1, 1e-6);
    ExpectVec(src.up, -h, h, 0, 1e-6);
    Built p;
    BuildAndOpen(src, ball, unit, kFacing, kUp, &p);
    // The other facing: the model's forward is the given axis at rest again.
    const maniVec3 side{1, 0, 0};
    ASSERT_EQ(Read(d, unit, side, kUp, &src).result, mani_success);
    ExpectVec(src.facing, h, h, 0, 1e-6);
    ExpectVec(src.up, -h, h, 0, 1e-6);
    BuildAndOpen(src, ball, unit, side, kUp, &p);
  }
}

// swing_and_slide nested: nodes[1] "TopBody" made dynamic ("static" ->
// "dynamic", its only static) and nodes[6] "Ball" its child (nodes[0]
// children [1, 6, 10] -> [1, 10], TopBody's [2, 4] -> [2, 4, 6]), so
// CustomJoint (nodes[4] under TopBody, connectedNode 5 under Ball) joins Ball
// to its nearest ancestor body. Its frame is the child side's node's,
// nodes[5] "BallJointAttachment" (translation [0, 1.20208115603438, 0],
// rotation [0, 0, 0.38268343236509, 0.923879532511287]) in Ball's frame
// (BallShape: no transform). physicsJoints[0].limits[2] {"angularAxes": [0,
// 1], "min": 0, "max": 0}: twist 0 to 0, swing y 0; z has no limit: free.
// No drives (the limits' stiffness and damping are soft limits, not a
// drive). Undecided: limits[0] is a linear range on x (-0.25 to 1.75) where
// the paragraph says "every linear axis fixed"; whether that range is
// refused as something a profile cannot hold or the axis is fixed anyway is
// not said; the reader fixes it (success), which this records. TopBody:
// shapes[0] box [2, 0.1, 0.1], no mass (1.0), the root at the identity.
TEST(RagdollOmi, SwingAndSlideNestedReadsTheAngularLimits) {
  OMI_DOC(text, "OMI_physics_joint/swing_and_slide.gltf");
  const std::string t = Replaced(Replaced(Replaced(text, "\"children\": [1, 6, 10]", "\"children\": [1, 10]"),
                                          "\"children\": [2, 4]", "\"children\": [2, 4, 6]"),
                                 "\"type\": \"static\"", "\"type\": \"dynamic\"");
  ASSERT_FALSE(t.empty());
  const Zf ballNode{-1.6, 0.15, {-0.38268343236509, 0.923879532511287}};
  const Zf attachment{0, 1.20208115603438, {0.38268343236509, 0.923879532511287}};
  const Expected topBox{maniRagdollMotionDynamic, 1.0f, maniRagdollShapeBox, {1, 0.05, 0.05}, {0, 0, 0}, {0, 0, 0, 1}};
  Doc d(t, 1);
  maniRagdollSource src;
  ASSERT_EQ(Read(d, 1, kFacing, kUp, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 2u);
  const maniRagdollSourceBody* top = BodyOn(src, d.Bone("TopBody"));
  const maniRagdollSourceBody* ball = BodyOn(src, d.Bone("Ball"));
  ASSERT_TRUE(top != nullptr && ball != nullptr);
  ExpectBody(top, topBox, 1);
  EXPECT_EQ(ball->shape, (uint32_t)maniRagdollShapeSphere);
  ExpectVec(ball->size, 0.25, 0, 0, 1e-6);
  EXPECT_EQ(ball->mass, 1.0f);
  ExpectZFrame(ball->frame, Zf{0, 0, {0, 1}});
  ExpectZFrame(ball->joint, attachment);
  EXPECT_EQ(ball->twistMin, 0.0f);
  EXPECT_EQ(ball->twistMax, 0.0f);
  EXPECT_EQ(ball->swingY, 0.0f);
  EXPECT_EQ(ball->swingZ, MANI_RAGDOLL_MAX_ANGLE);
  EXPECT_EQ(ball->driveStiffness, 0.0f);
  EXPECT_EQ(ball->driveDamping, 0.0f);
  ExpectVec(src.facing, 0, 0, 1, 1e-6);
  ExpectVec(src.up, 0, 1, 0, 1e-6);
  Builder b;
  maniBuildResult res = maniBuildRagdoll(b.b, &src);
  ASSERT_EQ(res.result, mani_success) << res.reason << " " << res.item << " " << res.other;
  File file = b.Built();
  maniRagdoll r;
  ASSERT_EQ(maniOpenRagdoll(file.data(), file.size, &r).result, mani_success);
  ASSERT_EQ(maniRagdoll_GetBodyCount(&r), 2u);
  maniRagdollBody b0, b1;
  ASSERT_EQ(maniRagdoll_GetBody(&r, 0, &b0), mani_success);
  ASSERT_EQ(maniRagdoll_GetBody(&r, 1, &b1), mani_success);
  EXPECT_EQ(b0.bone, top->bone);
  EXPECT_EQ(b1.bone, ball->bone);
  EXPECT_EQ(b1.parent, 0u);
  EXPECT_EQ(b1.twistMin, 0.0f);
  EXPECT_EQ(b1.twistMax, 0.0f);
  EXPECT_EQ(b1.swingY, 0.0f);
  EXPECT_EQ(b1.swingZ, MANI_RAGDOLL_MAX_ANGLE);
  // The parent side: the attachment at rest in TopBody's frame (its collider
  // has no transform): Ball's node times the attachment.
  ExpectZFrame(b1.parentJoint, ZCompose(ballNode, attachment));
}

// -- The output's basis ----------------------------------------------------------------------

// With glTF's +Y made +Z and +Z made -Y (M, +90 degrees about x), frames and
// the axes come out in the output's basis: "the root body's facing and up
// axes are facing and up (glTF's basis ...) turned into its frame at rest".
// swing_and_slide: Ball's sphere frame stays the identity; the axes in its
// frame (as in SwingAndSlide, then M): facing (0, 0, 1) -> (0, -1, 0), up
// (-sqrt(1/2), sqrt(1/2), 0) -> (-sqrt(1/2), 0, sqrt(1/2)); the model's
// forward and up are M applied to the given axes: (0, -1, 0) and (0, 0, 1).
TEST(RagdollOmi, SwingAndSlideInAZUpBasis) {
  OMI_DOC(text, "OMI_physics_joint/swing_and_slide.gltf");
  const Expected ball{maniRagdollMotionDynamic, 1.0f, maniRagdollShapeSphere, {0.25, 0, 0}, {0, 0, 0}, {0, 0, 0, 1}};
  const double h = std::sqrt(0.5);
  Doc d(text, ZUp());
  maniRagdollSource src;
  ASSERT_EQ(Read(d, ZUp(), kFacing, kUp, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 1u);
  ExpectBody(&src.bodies[0], ball, 1);
  ExpectVec(src.facing, 0, -1, 0, 1e-6);
  ExpectVec(src.up, -h, 0, h, 1e-6);
  Built p;
  BuildAndOpen(src, ball, 1, maniVec3{0, -1, 0}, maniVec3{0, 0, 1}, &p);
}

// simple_joint: the colliders' quarter turn about glTF's z (rotation [0, 0,
// s, c], s = 0.707106796640861, c = 0.707106765732234) is a quarter turn
// about M z = -y: (0, -s, 0, c).
TEST(RagdollOmi, SimpleJointInAZUpBasis) {
  OMI_DOC(text, "OMI_physics_joint/simple_joint.gltf");
  const Expected capsule{maniRagdollMotionDynamic, 1.0f,      maniRagdollShapeCapsule,
                         {0.05, 0.5, 0},           {0, 0, 0}, {0, -0.707106796640861, 0, 0.707106765732234}};
  Doc d(text, ZUp());
  maniRagdollSource src;
  ASSERT_EQ(Read(d, ZUp(), kFacing, kUp, &src).result, mani_success);
  ASSERT_EQ(src.bodyCount, 2u);
  ExpectBody(BodyOn(src, d.Bone("BodyA")), capsule, 1);
  ExpectBody(BodyOn(src, d.Bone("BodyB")), capsule, 1);
}

// -- Every prefix ---------------------------------------------------------------------------

// Every prefix of each document (all but the whole text, which the tests
// above read): opened, and where that opens, its node skeleton built and
// the ragdoll read; each step gives one of its result codes, never a crash
// (run under --config=asan too).
TEST(RagdollOmi, EveryPrefixGivesAResult) {
  const char* docs[] = {"OMI_physics_body/dynamic_box.gltf",      "OMI_physics_body/indirect_children.gltf",
                        "OMI_physics_shape/sphere_collider.gltf", "OMI_physics_shape/capsule_collider.gltf",
                        "OMI_physics_joint/simple_joint.gltf",    "OMI_physics_joint/hanging_rope.gltf",
                        "OMI_physics_joint/swing_and_slide.gltf"};
  size_t tried = 0;
  for (const char* rel : docs) {
    const std::string text = ReadOmi(rel);
    if (text.empty()) GTEST_SKIP() << "../shared/data/gltf/omi not present (" << rel << ")";
    Builder b;
    for (size_t n = 0; n < text.size(); ++n) {
      // A copy of exactly n bytes, so a read past the prefix is a heap
      // overflow under ASan.
      std::vector<char> prefix(text.begin(), text.begin() + (std::ptrdiff_t)n);
      maniGltf* g = nullptr;
      maniImportResult r = maniOpenGltf(b.b, prefix.data(), n, &g);
      ++tried;
      if (r.result != mani_success) {
        ASSERT_TRUE(r.result == mani_errorFormat || r.result == mani_errorInvalid || r.result == mani_errorVersion)
            << rel << " " << n << " " << r.result;
        continue;
      }
      maniGltfOptions o = maniDefaultGltfOptions();
      r = maniBuildGltfNodeSkeleton(b.b, g, 0, &o);
      if (r.result == mani_success) {
        File sf = b.Built();
        maniSkeleton s;
        if (maniOpenSkeleton(sf.data(), sf.size, &s).result == mani_success) {
          maniRagdollSource src;
          r = maniGltf_ReadRagdoll(g, &s, &o, kFacing, kUp, &src);
          EXPECT_TRUE(r.result == mani_success || r.result == mani_errorFormat) << rel << " " << n;
        }
      }
      maniCloseGltf(g);
    }
  }
  EXPECT_GT(tried, 0u);
}

// A prefix of a JSON document does not parse, so the prefixes stop at the
// open. To reach the reader with what it must refuse or survive, each number
// and each string value of each document is replaced in turn by values of
// every kind the extensions index or measure with (-1, 0, 0.5, 7, a past
// binary32 value, a string, an object); where the document still opens and
// its node skeleton builds, the read gives a result code, and a source it
// gives holds finite values and goes to the builder (any result, no crash).
TEST(RagdollOmi, EveryNumberAndStringReplacedGivesAResult) {
  const char* docs[] = {"OMI_physics_body/dynamic_box.gltf",      "OMI_physics_body/indirect_children.gltf",
                        "OMI_physics_shape/sphere_collider.gltf", "OMI_physics_shape/capsule_collider.gltf",
                        "OMI_physics_joint/simple_joint.gltf",    "OMI_physics_joint/hanging_rope.gltf",
                        "OMI_physics_joint/swing_and_slide.gltf"};
  const std::vector<const char*> numbers = {"-1", "0", "0.5", "7", "1e39", "\"x\"", "{}"};
  const std::vector<const char*> strings = {"\"dynamic\"", "\"kinematic\"", "\"static\"", "\"sphere\"", "\"capsule\"",
                                            "\"box\"",     "\"angular\"",   "\"force\"",  "3",          "[]"};
  size_t read = 0, built = 0;
  for (const char* rel : docs) {
    const std::string text = ReadOmi(rel);
    if (text.empty()) GTEST_SKIP() << "../shared/data/gltf/omi not present (" << rel << ")";
    Builder b;
    for (size_t at = 0; at < text.size(); ++at) {
      // A number starts after a ':', ',', '[' or space; a string value after
      // ':' or ',' or '[' (keys, followed by ':', are left alone).
      const char c = text[at];
      const char before = at > 0 ? text[at - 1] : ' ';
      const bool afterValueStart = before == ':' || before == ',' || before == '[' || before == ' ' || before == '\n';
      size_t end = at;
      bool isString = false;
      if (afterValueStart && (c == '-' || (c >= '0' && c <= '9'))) {
        while (end < text.size() && strchr("+-.0123456789eE", text[end]) != nullptr) ++end;
      } else if (afterValueStart && c == '"') {
        end = text.find('"', at + 1);
        if (end == std::string::npos) break;
        ++end;
        size_t next = end;
        while (next < text.size() && (text[next] == ' ' || text[next] == '\n' || text[next] == '\r')) ++next;
        if (next < text.size() && text[next] == ':') continue;  // a key
        isString = true;
      } else {
        continue;
      }
      for (const char* with : isString ? strings : numbers) {
        std::string t = text.substr(0, at) + with + text.substr(end);
        std::vector<char> bytes(t.begin(), t.end());
        maniGltf* g = nullptr;
        if (maniOpenGltf(b.b, bytes.data(), bytes.size(), &g).result != mani_success) continue;
        maniGltfOptions o = maniDefaultGltfOptions();
        if (maniBuildGltfNodeSkeleton(b.b, g, 0, &o).result == mani_success) {
          File sf = b.Built();
          maniSkeleton s;
          if (maniOpenSkeleton(sf.data(), sf.size, &s).result == mani_success) {
            maniRagdollSource src;
            const maniImportResult r = maniGltf_ReadRagdoll(g, &s, &o, kFacing, kUp, &src);
            ++read;
            EXPECT_TRUE(r.result == mani_success || r.result == mani_errorFormat)
                << rel << " at " << at << " with " << with << ": " << r.result;
            if (r.result == mani_success) {
              for (uint32_t k = 0; k < src.bodyCount; ++k) {
                const maniRagdollSourceBody& x = src.bodies[k];
                const float v[] = {x.size.x,
                                   x.size.y,
                                   x.size.z,
                                   x.mass,
                                   x.frame.translation.x,
                                   x.frame.rotation.w,
                                   x.joint.translation.x,
                                   x.joint.rotation.w,
                                   x.twistMin,
                                   x.twistMax,
                                   x.swingY,
                                   x.swingZ,
                                   x.driveStiffness,
                                   x.driveDamping};
                for (float f : v) EXPECT_TRUE(std::isfinite(f)) << rel << " at " << at << " with " << with;
                EXPECT_LT(x.bone, maniSkeleton_GetBoneCount(&s));
              }
              Builder rb;
              const maniBuildResult br = maniBuildRagdoll(rb.b, &src);
              if (br.result == mani_success) ++built;
            }
          }
        }
        maniCloseGltf(g);
      }
    }
  }
  EXPECT_GT(read, 0u);
  EXPECT_GT(built, 0u);
  printf("reads %zu, profiles built %zu\n", read, built);
}

}  // namespace
