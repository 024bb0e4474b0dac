// import.h, FBX skeletons: the transform model (Euler orders, pre/post
// rotation, pivots and offsets, inherit type Rrs and its helper bone), the
// skeleton sets (skins' linked models and limb chains), maniBuildFbxSkeleton,
// maniBuildFbxModelSkeleton, the placements, the basis change and the
// parent cycle refused by the open. Expected rests are worked out in the
// test with its own 4x4 matrices (std::sin/cos, binary64), never read back
// from the importer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/import.h"
#include "maul/anim/skeleton.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

namespace {

// -- A 4x4 of the test's own (row-major, column vectors) ---------------------------------

struct M4 {
  double m[4][4];
};

M4 Identity() {
  M4 r{};
  for (int i = 0; i < 4; i++) r.m[i][i] = 1;
  return r;
}

M4 Mul(const M4& a, const M4& b) {
  M4 r{};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 4; k++) r.m[i][j] += a.m[i][k] * b.m[k][j];
  return r;
}

M4 Translate(double x, double y, double z) {
  M4 r = Identity();
  r.m[0][3] = x;
  r.m[1][3] = y;
  r.m[2][3] = z;
  return r;
}

M4 Scale(double x, double y, double z) {
  M4 r = Identity();
  r.m[0][0] = x;
  r.m[1][1] = y;
  r.m[2][2] = z;
  return r;
}

// A right-handed turn about axis 0, 1 or 2 by degrees.
M4 Turn(int axis, double degrees) {
  double a = degrees * M_PI / 180.0, c = std::cos(a), s = std::sin(a);
  M4 r = Identity();
  int i = (axis + 1) % 3, j = (axis + 2) % 3;
  r.m[i][i] = c;
  r.m[i][j] = -s;
  r.m[j][i] = s;
  r.m[j][j] = c;
  return r;
}

M4 Transpose3(const M4& a) {
  M4 r = Identity();
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) r.m[i][j] = a.m[j][i];
  return r;
}

// The rotation matrix of a unit quaternion.
M4 FromQuat(maniQuat q) {
  double x = q.x, y = q.y, z = q.z, w = q.w;
  M4 r = Identity();
  r.m[0][0] = 1 - 2 * (y * y + z * z);
  r.m[0][1] = 2 * (x * y - z * w);
  r.m[0][2] = 2 * (x * z + y * w);
  r.m[1][0] = 2 * (x * y + z * w);
  r.m[1][1] = 1 - 2 * (x * x + z * z);
  r.m[1][2] = 2 * (y * z - x * w);
  r.m[2][0] = 2 * (x * z - y * w);
  r.m[2][1] = 2 * (y * z + x * w);
  r.m[2][2] = 1 - 2 * (x * x + y * y);
  return r;
}

M4 FromTransform(const maniTransform& t) {
  return Mul(Mul(Translate(t.translation.x, t.translation.y, t.translation.z), FromQuat(t.rotation)),
             Scale(t.scale.x, t.scale.y, t.scale.z));
}

void ExpectNear(const M4& got, const M4& want, double tolerance, const std::string& what) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) EXPECT_NEAR(got.m[i][j], want.m[i][j], tolerance) << what << " [" << i << "][" << j << "]";
}

M4 FromAffine(const maniAffine& a) {
  M4 r = Identity();
  for (int c = 0; c < 4; c++) {
    r.m[0][c] = a.columns[c].x;
    r.m[1][c] = a.columns[c].y;
    r.m[2][c] = a.columns[c].z;
  }
  return r;
}

// -- An ASCII FBX 7.4 writer ----------------------------------------------------------------

struct Model {
  long long id;
  std::string name, kind;  // kind: "LimbNode", "Null", "Mesh"
  std::vector<std::string> props;  // P lines
};

std::string P3(const char* name, double x, double y, double z) {
  char buf[256];
  snprintf(buf, sizeof buf, "P: \"%s\", \"Lcl Translation\", \"\", \"A\",%.17g,%.17g,%.17g", name, x, y, z);
  return buf;
}

std::string P1(const char* name, int v) {
  char buf[128];
  snprintf(buf, sizeof buf, "P: \"%s\", \"enum\", \"\", \"\",%d", name, v);
  return buf;
}

std::string Doc(const std::vector<Model>& models, const std::vector<std::pair<long long, long long>>& links,
                const std::string& settings = "", const std::string& extraObjects = "") {
  std::string s = "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\n";
  if (!settings.empty()) s += "GlobalSettings:  {\n\tProperties70:  {\n" + settings + "\t}\n}\n";
  s += "Objects:  {\n";
  for (const Model& m : models) {
    s += "\tModel: " + std::to_string(m.id) + ", \"Model::" + m.name + "\", \"" + m.kind + "\" {\n";
    s += "\t\tProperties70:  {\n";
    for (const std::string& p : m.props) s += "\t\t\t" + p + "\n";
    s += "\t\t}\n\t}\n";
  }
  s += extraObjects;
  s += "}\nConnections:  {\n";
  for (auto& l : links) s += "\tC: \"OO\"," + std::to_string(l.first) + "," + std::to_string(l.second) + "\n";
  s += "}\n";
  return s;
}

struct Doc1 {
  Builder bl;
  std::string text;
  maniFbx* f = nullptr;
  maniImportResult opened;
  explicit Doc1(std::string t) : text(std::move(t)) {
    opened = maniOpenFbx(bl.b, text.data(), text.size(), &f);
  }
  ~Doc1() { maniCloseFbx(f); }
};

struct Built {
  File file;
  maniSkeleton s;
  bool ok = false;
  uint32_t Find(const std::string& name) {
    for (uint32_t b = 0; b < maniSkeleton_GetBoneCount(&s); b++) {
      size_t n;
      const char* t = maniSkeleton_GetBoneName(&s, b, &n);
      if (std::string(t, n) == name) return b;
    }
    ADD_FAILURE() << "no bone " << name;
    return 0;
  }
  M4 Rest(const std::string& name) { return FromTransform(maniSkeleton_GetRest(&s, Find(name))); }
};

void Open(Builder& bl, Built* out) {
  out->file = bl.Built();
  out->ok = maniOpenSkeleton(out->file.data(), out->file.size, &out->s).result == mani_success;
  EXPECT_TRUE(out->ok);
}

// Options for file units kept: a centimetre file read in centimetres.
maniFbxOptions Centimetres() {
  maniFbxOptions o = maniDefaultFbxOptions();
  o.unitScale = 100.0f;
  return o;
}

// -- The transform model ------------------------------------------------------------------

// Each rotation order against the product of the test's own turns: XYZ turns
// about X first (R = Rz Ry Rx), ZYX about Z first.
TEST(FbxSkeleton, RotationOrders) {
  const int turns[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
  const double angles[3] = {30.0, -50.0, 75.0};
  for (int order = 0; order < 7; order++) {
    std::vector<Model> models = {{100, "Bone", "LimbNode", {P3("Lcl Rotation", angles[0], angles[1], angles[2]),
                                                          P1("RotationOrder", order), P1("RotationActive", 1)}}};
    Doc1 d(Doc(models, {}));
    ASSERT_EQ(d.opened.result, mani_success);
    ASSERT_EQ(maniFbx_GetSkeletonCount(d.f), 1u);
    maniFbxOptions o = Centimetres();
    ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
    Built b;
    Open(d.bl, &b);
    const int* k = turns[order == 6 ? 0 : order];  // spheric XYZ read as XYZ
    M4 want = Mul(Turn(k[2], angles[k[2]]), Mul(Turn(k[1], angles[k[1]]), Turn(k[0], angles[k[0]])));
    ExpectNear(b.Rest("Bone"), want, 1e-6, "order " + std::to_string(order));
  }
}

// Without RotationActive (or with it 0) the order is XYZ whatever RotationOrder says.
TEST(FbxSkeleton, RotationOrderNeedsRotationActive) {
  for (int active : {-1, 0}) {
    std::vector<Model> models = {{100, "Bone", "LimbNode", {P3("Lcl Rotation", 30, -50, 75), P1("RotationOrder", 5)}}};
    if (active == 0) models[0].props.push_back(P1("RotationActive", 0));
    Doc1 d(Doc(models, {}));
    ASSERT_EQ(d.opened.result, mani_success);
    maniFbxOptions o = Centimetres();
    ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
    Built b;
    Open(d.bl, &b);
    ExpectNear(b.Rest("Bone"), Mul(Turn(2, 75), Mul(Turn(1, -50), Turn(0, 30))), 1e-6, "XYZ");
  }
}

// The whole chain T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp S Sp^-1 on one
// model (a uniform scale, so the product splits without shear).
TEST(FbxSkeleton, PivotsUniformScale) {
  std::vector<Model> models = {{100,
                                "Bone",
                                "LimbNode",
                                {P3("Lcl Translation", 1, 2, 3), P3("Lcl Rotation", 10, 20, 30),
                                 P3("Lcl Scaling", 2, 2, 2), P3("RotationOffset", 0.5, -1, 0.25),
                                 P3("RotationPivot", 1, 1, 0), P3("ScalingOffset", -0.5, 0, 2),
                                 P3("ScalingPivot", 0, 1, 1), P3("PreRotation", 90, 0, 0),
                                 P3("PostRotation", 0, 45, 0), P1("RotationOrder", 4),
                                 P1("RotationActive", 1)}}};
  Doc1 d(Doc(models, {}));
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = Centimetres();
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built b;
  Open(d.bl, &b);
  M4 r = Mul(Turn(1, 20), Mul(Turn(0, 10), Turn(2, 30)));
  M4 pre = Turn(0, 90);
  M4 post = Turn(1, 45);
  M4 want = Translate(1, 2, 3);
  for (const M4& m : {Translate(0.5, -1, 0.25), Translate(1, 1, 0), pre, r, Transpose3(post), Translate(-1, -1, 0),
                      Translate(-0.5, 0, 2), Translate(0, 1, 1), Scale(2, 2, 2), Translate(0, -1, -1)})
    want = Mul(want, m);
  ExpectNear(b.Rest("Bone"), want, 2e-5, "pivots");
}

// A folded root of inherit type RSrs (1) under a non-uniformly scaled
// parent, turned: the product is sheared and does not split (Matrix, item
// the root model). Of FBX's default RrSs (0) the parent's scale is applied
// componentwise, which does not shear: the fold splits.
TEST(FbxSkeleton, ShearedFoldRefused) {
  {
    std::vector<Model> models = {{100, "Stretch", "Null", {P3("Lcl Scaling", 2, 1, 1)}},
                                 {200, "Bone", "LimbNode", {P3("Lcl Rotation", 0, 0, 45)}}};
    Doc1 d(Doc(models, {{200, 100}}));
    ASSERT_EQ(d.opened.result, mani_success);
    maniFbxOptions o = Centimetres();
    o.foldPlacement = 1;
    ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
    Built b;
    Open(d.bl, &b);
    ExpectNear(b.Rest("Bone"), Mul(Turn(2, 45), Scale(2, 1, 1)), 1e-6, "componentwise fold");
  }
  std::vector<Model> models = {{100, "Stretch", "Null", {P3("Lcl Scaling", 2, 1, 1)}},
                               {200, "Bone", "LimbNode", {P3("Lcl Rotation", 0, 0, 45), P1("InheritType", 1)}}};
  Doc1 d(Doc(models, {{200, 100}}));
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = Centimetres();
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);  // not folded: it splits
  o.foldPlacement = 1;
  maniImportResult r = maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
  EXPECT_EQ(r.item, 1u);
}

// Defaults from the Model template in Definitions, the model's own values over them.
TEST(FbxSkeleton, TemplateDefaults) {
  std::vector<Model> models = {{100, "A", "LimbNode", {}}, {200, "B", "LimbNode", {P3("Lcl Translation", 0, 0, 7)}}};
  std::string text = Doc(models, {{200, 100}});
  std::string defs =
      "Definitions:  {\n\tObjectType: \"Model\" {\n\t\tPropertyTemplate: \"FbxNode\" {\n\t\t\tProperties70:  {\n"
      "\t\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",4,5,6\n\t\t\t}\n\t\t}\n\t}\n}\n";
  text.insert(text.find("Objects:"), defs);
  Doc1 d(text);
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = Centimetres();
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built b;
  Open(d.bl, &b);
  ExpectNear(b.Rest("A"), Translate(4, 5, 6), 1e-5, "template");
  ExpectNear(b.Rest("B"), Translate(0, 0, 7), 1e-5, "own");
}

// Refused values: Property with the model and the value's offset.
TEST(FbxSkeleton, RefusedTransformValues) {
  for (std::string bad : {"P: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",1,\"x\",3",
                          "P: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",1,2",
                          "P: \"Lcl Scaling\", \"Lcl Scaling\", \"\", \"A\",1,inf,1", "P: \"RotationOrder\", \"enum\", \"\", \"\",7",
                          "P: \"InheritType\", \"enum\", \"\", \"\",3"}) {
    std::vector<Model> models = {{100, "Ok", "LimbNode", {}}, {200, "Bad", "LimbNode", {bad}}};
    Doc1 d(Doc(models, {{200, 100}}));
    ASSERT_EQ(d.opened.result, mani_success);
    maniFbxOptions o = Centimetres();
    maniImportResult r = maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat) << bad;
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << bad;
    EXPECT_EQ(r.item, 1u) << bad;
    size_t line = d.text.find(bad);
    EXPECT_GE(r.offset, line) << bad;
    EXPECT_LE(r.offset, line + bad.size()) << bad;
  }
}

// Inherit type Rrs: a helper Parent#unscaled (the parent's scaling inverted)
// between, the child's translation scaled by the parent's scale; the
// child's world is W_parent T(t) S_parent^-1 R.
TEST(FbxSkeleton, InheritRrsMakesAnUnscaledHelper) {
  std::vector<Model> models = {
      {100, "Hip", "LimbNode", {P3("Lcl Rotation", 0, 0, 90), P3("Lcl Scaling", 2, 2, 2)}},
      {200, "Knee", "LimbNode", {P3("Lcl Translation", 5, 0, 0), P3("Lcl Rotation", 30, 0, 0), P1("InheritType", 2)}}};
  Doc1 d(Doc(models, {{200, 100}}));
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = Centimetres();
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built b;
  Open(d.bl, &b);
  ASSERT_EQ(maniSkeleton_GetBoneCount(&b.s), 3u);
  uint32_t hip = b.Find("Hip"), helper = b.Find("Hip#unscaled"), knee = b.Find("Knee");
  EXPECT_EQ(maniSkeleton_GetParent(&b.s, helper), hip);
  EXPECT_EQ(maniSkeleton_GetParent(&b.s, knee), helper);
  M4 hipWorld = Mul(Turn(2, 90), Scale(2, 2, 2));
  M4 wantKnee = Mul(Mul(hipWorld, Translate(5, 0, 0)), Mul(Scale(0.5, 0.5, 0.5), Turn(0, 30)));
  M4 got = Mul(b.Rest("Hip"), Mul(b.Rest("Hip#unscaled"), b.Rest("Knee")));
  ExpectNear(got, wantKnee, 1e-5, "knee world");
  // the knee turns, unscaled, at the hip's end scaled: (0, 10, 0)
  EXPECT_NEAR(got.m[1][3], 10.0, 1e-5);
  EXPECT_NEAR(got.m[0][0] * got.m[0][0] + got.m[1][0] * got.m[1][0] + got.m[2][0] * got.m[2][0], 1.0, 1e-5);
}

// Inherit type RrSs (0, ufbx's componentwise scale): under a parent of
// non-uniform scale E the child's world is U_parent T(E t) R (E s), U the
// parent's unscaled world, through the helper Parent#unscaled (E inverted);
// under a uniform scale it is the normal product and no helper is made.
TEST(FbxSkeleton, InheritRrSsScalesComponentwise) {
  std::vector<Model> models = {
      {100, "Hip", "LimbNode", {P3("Lcl Rotation", 0, 0, 90), P3("Lcl Scaling", 2, 1, 1)}},
      {200, "Knee", "LimbNode",
       {P3("Lcl Translation", 5, 0, 0), P3("Lcl Rotation", 30, 0, 0), P3("Lcl Scaling", 1, 3, 1), P1("InheritType", 0)}}};
  Doc1 d(Doc(models, {{200, 100}}));
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = Centimetres();
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built b;
  Open(d.bl, &b);
  ASSERT_EQ(maniSkeleton_GetBoneCount(&b.s), 3u);
  uint32_t hip = b.Find("Hip"), helper = b.Find("Hip#unscaled"), knee = b.Find("Knee");
  EXPECT_EQ(maniSkeleton_GetParent(&b.s, helper), hip);
  EXPECT_EQ(maniSkeleton_GetParent(&b.s, knee), helper);
  M4 want = Mul(Mul(Turn(2, 90), Translate(10, 0, 0)), Mul(Turn(0, 30), Scale(2, 3, 1)));
  M4 got = Mul(b.Rest("Hip"), Mul(b.Rest("Hip#unscaled"), b.Rest("Knee")));
  ExpectNear(got, want, 1e-5, "knee world");
  // RSrs (1) under the same parent: the normal product, sheared by the parent's scale; no helper
  models[1].props.back() = P1("InheritType", 1);
  Doc1 n(Doc(models, {{200, 100}}));
  ASSERT_EQ(n.opened.result, mani_success);
  ASSERT_EQ(maniBuildFbxSkeleton(n.bl.b, n.f, 0, &o).result, mani_success);
  Built bn;
  Open(n.bl, &bn);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&bn.s), 2u);
  // RrSs under a uniform scale: no helper, the normal product
  std::vector<Model> uniform = {
      {100, "Hip", "LimbNode", {P3("Lcl Rotation", 0, 0, 90), P3("Lcl Scaling", 2, 2, 2)}},
      {200, "Knee", "LimbNode", {P3("Lcl Translation", 5, 0, 0), P3("Lcl Rotation", 30, 0, 0), P1("InheritType", 0)}}};
  Doc1 u(Doc(uniform, {{200, 100}}));
  ASSERT_EQ(u.opened.result, mani_success);
  ASSERT_EQ(maniBuildFbxSkeleton(u.bl.b, u.f, 0, &o).result, mani_success);
  Built bu;
  Open(u.bl, &bu);
  ASSERT_EQ(maniSkeleton_GetBoneCount(&bu.s), 2u);
  ExpectNear(Mul(bu.Rest("Hip"), bu.Rest("Knee")),
             Mul(Mul(Turn(2, 90), Scale(2, 2, 2)), Mul(Translate(5, 0, 0), Turn(0, 30))), 1e-5, "uniform");
}

// ufbx's inherit scale through a chain: an RrSs model under a parent of
// scale (2, 1, 1) takes it componentwise (world T(E t) R E s under the
// parent's unscaled world), and an Rrs grandchild leaves out the RrSs
// parent's scale but keeps the grandparent's, componentwise
// (U_parent T(E_parent t) R (E_grandparent s)).
TEST(FbxSkeleton, InheritScaleThroughAnRrSsChain) {
  std::vector<Model> models = {
      {100, "Top", "LimbNode", {P3("Lcl Scaling", 2, 1, 1)}},
      {200, "Mid", "LimbNode", {P3("Lcl Translation", 1, 0, 0), P3("Lcl Rotation", 0, 0, 90), P1("InheritType", 0)}},
      {300, "End", "LimbNode", {P3("Lcl Translation", 3, 0, 0), P1("InheritType", 2)}}};
  Doc1 d(Doc(models, {{200, 100}, {300, 200}}));
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = Centimetres();
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built b;
  Open(d.bl, &b);
  ASSERT_EQ(maniSkeleton_GetBoneCount(&b.s), 5u);
  M4 mid = Mul(Mul(b.Rest("Top"), b.Rest("Top#unscaled")), b.Rest("Mid"));
  ExpectNear(mid, Mul(Mul(Translate(2, 0, 0), Turn(2, 90)), Scale(2, 1, 1)), 1e-5, "mid world");
  M4 end = Mul(Mul(mid, b.Rest("Mid#unscaled")), b.Rest("End"));
  ExpectNear(end, Mul(Mul(Translate(2, 0, 0), Turn(2, 90)), Mul(Translate(6, 0, 0), Scale(2, 1, 1))), 1e-5,
             "end world");
}

// -- Skeleton sets, the basis, placements --------------------------------------------------

// Two limb chains under one Null, and a Null between: two skeletons; each
// placement is the world above its root, in metres (default options).
TEST(FbxSkeleton, LimbChainsAndPlacements) {
  std::vector<Model> models = {{1, "World", "Null", {P3("Lcl Translation", 0, 100, 0), P3("Lcl Rotation", 0, 90, 0)}},
                               {2, "Spine", "LimbNode", {P3("Lcl Translation", 0, 10, 0)}},
                               {3, "Head", "LimbNode", {P3("Lcl Translation", 0, 20, 0)}},
                               {4, "Prop", "Null", {}},
                               {5, "Sword", "LimbNode", {P3("Lcl Translation", 3, 0, 0)}}};
  Doc1 d(Doc(models, {{2, 1}, {3, 2}, {4, 1}, {5, 4}}));
  ASSERT_EQ(d.opened.result, mani_success);
  ASSERT_EQ(maniFbx_GetSkeletonCount(d.f), 2u);
  maniFbxOptions o = maniDefaultFbxOptions();
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built b;
  Open(d.bl, &b);
  ASSERT_EQ(maniSkeleton_GetBoneCount(&b.s), 2u);
  ExpectNear(b.Rest("Spine"), Translate(0, 0.1, 0), 1e-6, "spine");
  ExpectNear(b.Rest("Head"), Translate(0, 0.2, 0), 1e-6, "head");
  maniAffine placement;
  ASSERT_EQ(maniFbx_GetSkeletonPlacement(d.f, 0, &o, &placement).result, mani_success);
  ExpectNear(FromAffine(placement), Mul(Translate(0, 1, 0), Turn(1, 90)), 1e-6, "placement 0");
  ASSERT_EQ(maniFbx_GetSkeletonPlacement(d.f, 1, &o, &placement).result, mani_success);
  ExpectNear(FromAffine(placement), Mul(Translate(0, 1, 0), Turn(1, 90)), 1e-6, "placement 1");
  // folded: the root's rest carries the placement, the placement is identity
  o.foldPlacement = 1;
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 1, &o).result, mani_success);
  Built c;
  Open(d.bl, &c);
  ExpectNear(c.Rest("Sword"), Mul(Mul(Translate(0, 1, 0), Turn(1, 90)), Translate(0.03, 0, 0)), 1e-6, "folded");
  ASSERT_EQ(maniFbx_GetSkeletonPlacement(d.f, 1, &o, &placement).result, mani_success);
  ExpectNear(FromAffine(placement), Identity(), 0, "folded placement");
  // a model skeleton: World's subtree, five bones; its placement identity at the top
  o.foldPlacement = 0;
  ASSERT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built w;
  Open(d.bl, &w);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&w.s), 5u);
  ASSERT_EQ(maniFbx_GetModelPlacement(d.f, 0, &o, &placement).result, mani_success);
  ExpectNear(FromAffine(placement), Identity(), 0, "top");
  ASSERT_EQ(maniFbx_GetModelPlacement(d.f, 4, &o, &placement).result, mani_success);
  ExpectNear(FromAffine(placement), Mul(Translate(0, 1, 0), Turn(1, 90)), 1e-6, "sword's parent");
}

// A skin's clusters' models closed over their common root, joined with a
// limb chain that shares a model; the skin's skeleton is 0.
TEST(FbxSkeleton, SkinsJoinChainsTheyShare) {
  std::vector<Model> models = {{1, "Root", "Null", {}},
                               {2, "ArmL", "Null", {}},
                               {3, "ArmR", "LimbNode", {}},
                               {4, "HandR", "LimbNode", {}},
                               {5, "Body", "Mesh", {}},
                               {6, "Lone", "LimbNode", {}}};
  std::string deformers =
      "\tGeometry: 50, \"Geometry::\", \"Mesh\" {\n\t}\n"
      "\tDeformer: 60, \"Deformer::\", \"Skin\" {\n\t}\n"
      "\tDeformer: 61, \"SubDeformer::\", \"Cluster\" {\n\t}\n"
      "\tDeformer: 62, \"SubDeformer::\", \"Cluster\" {\n\t}\n";
  Doc1 d(Doc(models, {{2, 1}, {3, 1}, {4, 3}, {5, 1}, {50, 5}, {60, 50}, {61, 60}, {62, 60}, {2, 61}, {3, 62}},
             "", deformers));
  ASSERT_EQ(d.opened.result, mani_success) << d.opened.reason << " " << d.opened.offset;
  ASSERT_EQ(maniFbx_GetSkinCount(d.f), 1u);
  EXPECT_EQ(maniFbx_GetSkinSkeleton(d.f, 0), 0u);
  EXPECT_EQ(maniFbx_GetSkinSkeleton(d.f, 1), UINT32_MAX);
  ASSERT_EQ(maniFbx_GetSkeletonCount(d.f), 2u);  // Root..HandR: the skin with the chain ArmR > HandR; Lone
  maniFbxOptions o = maniDefaultFbxOptions();
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built b;
  Open(d.bl, &b);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&b.s), 4u);  // Root, ArmL, ArmR, HandR
  (void)b.Find("Root");
  (void)b.Find("HandR");
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 1, &o).result, mani_success);
  Built l;
  Open(d.bl, &l);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&l.s), 1u);
  (void)l.Find("Lone");
}

// A Z-up file in metres read Y-up in centimetres: the file's +Z (up) becomes
// +Y, its -Y (front) +Z, its +X (right) stays; lengths times 100.
TEST(FbxSkeleton, BasisFromSettingsAndOptions) {
  std::string settings =
      "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",2\n\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n"
      "\t\tP: \"FrontAxis\", \"int\", \"Integer\", \"\",1\n\t\tP: \"FrontAxisSign\", \"int\", \"Integer\", \"\",-1\n"
      "\t\tP: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n\t\tP: \"CoordAxisSign\", \"int\", \"Integer\", \"\",1\n"
      "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",100\n";
  std::vector<Model> models = {{1, "Root", "LimbNode", {}},
                               {2, "Bone", "LimbNode", {P3("Lcl Translation", 1, 2, 3), P3("Lcl Rotation", 0, 0, 90)}}};
  Doc1 d(Doc(models, {{2, 1}}, settings));
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = maniDefaultFbxOptions();
  o.unitScale = 100.0f;
  ASSERT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Built b;
  Open(d.bl, &b);
  // M: output x = file x, output y = file z, output z = -file y
  M4 m = Identity();
  m.m[1][1] = 0;
  m.m[1][2] = 1;
  m.m[2][1] = -1;
  m.m[2][2] = 0;
  M4 local = Mul(Translate(1, 2, 3), Turn(2, 90));
  M4 want = Mul(Mul(m, local), Transpose3(m));
  for (int i = 0; i < 3; i++) want.m[i][3] *= 100.0;
  ExpectNear(b.Rest("Bone"), want, 1e-4, "basis");
  EXPECT_NEAR(b.Rest("Bone").m[1][3], 300.0, 1e-3);
}

// -- Arguments ------------------------------------------------------------------------------

TEST(FbxSkeleton, Arguments) {
  std::vector<Model> models = {{1, "Root", "LimbNode", {}}};
  Doc1 d(Doc(models, {}));
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = maniDefaultFbxOptions();
  EXPECT_EQ(maniBuildFbxSkeleton(nullptr, d.f, 0, &o).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxSkeleton(d.bl.b, nullptr, 0, &o).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 1, &o).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, 1, &o).result, mani_errorInvalid);
  maniFbxOptions bad = o;
  bad.cookieEnd = 0;
  EXPECT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &bad).result, mani_errorInvalid);
  bad = o;
  bad.abiVersion ^= 0x10000u;
  EXPECT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &bad).result, mani_errorVersion);
  bad = o;
  bad.front = bad.up;
  EXPECT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &bad).result, mani_errorInvalid);
  bad = o;
  bad.unitScale = 0.0f;
  EXPECT_EQ(maniFbx_GetSkeletonPlacement(d.f, 0, &bad, nullptr).result, mani_errorInvalid);
  maniAffine keep;
  memset(&keep, 0x5A, sizeof keep);
  maniAffine p = keep;
  EXPECT_EQ(maniFbx_GetSkeletonPlacement(d.f, 0, &bad, &p).result, mani_errorInvalid);
  EXPECT_EQ(maniFbx_GetSkeletonPlacement(d.f, 1, &o, &p).result, mani_errorInvalid);
  EXPECT_EQ(maniFbx_GetModelPlacement(d.f, 1, &o, &p).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&p, &keep, sizeof p), 0) << "placement written on failure";
  EXPECT_EQ(maniFbx_GetSkeletonCount(nullptr), 0u);
  EXPECT_EQ(maniFbx_GetSkinSkeleton(nullptr, 0), UINT32_MAX);
  EXPECT_GE(maniBuilder_GetMisuse(d.bl.b), 6u);
}

// -- Parent cycles --------------------------------------------------------------------------

// A cycle of parents is refused at the open: Property, the cycle's lowest
// model, the offset of the record linking it to its parent.
TEST(FbxSkeleton, ParentCycleRefusedAtOpen) {
  std::vector<Model> models = {{1, "Top", "Null", {}}, {2, "A", "Null", {}}, {3, "B", "Null", {}}, {4, "C", "Null", {}}};
  std::string text = Doc(models, {{2, 3}, {3, 4}, {4, 2}, {1, 2}});
  Builder bl;
  maniFbx* f = (maniFbx*)0x1;
  maniImportResult r = maniOpenFbx(bl.b, text.data(), text.size(), &f);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
  EXPECT_EQ(r.item, 1u);  // A, linked to B by the first C
  EXPECT_EQ(r.offset, text.find("C: \"OO\",2,3"));
  EXPECT_EQ(f, (maniFbx*)0x1);
  // without the closing link it opens, a chain C > B > A > Top
  std::string open = Doc(models, {{2, 3}, {3, 4}, {1, 2}});
  maniFbx* g = nullptr;
  ASSERT_EQ(maniOpenFbx(bl.b, open.data(), open.size(), &g).result, mani_success);
  maniCloseFbx(g);
}

// -- Skins and influences --------------------------------------------------------------

std::string Arr(const char* name, const std::vector<double>& v) {
  std::string s = std::string("\t\t") + name + ": *" + std::to_string(v.size()) + " {\n\t\t\ta: ";
  char buf[64];
  for (size_t i = 0; i < v.size(); i++) {
    snprintf(buf, sizeof buf, "%s%.17g", i ? "," : "", v[i]);
    s += buf;
  }
  return s + "\n\t\t}\n";
}

// Column-major 16 numbers of an M4.
std::vector<double> Cols(const M4& m) {
  std::vector<double> v;
  for (int c = 0; c < 4; c++)
    for (int r = 0; r < 4; r++) v.push_back(m.m[r][c]);
  return v;
}

// A mesh (Body, under Root) of 4 control points skinned by two clusters on
// Root > Arm; cluster extras (Transform, Mode, arrays) and a pose by the caller.
struct SkinDoc {
  std::string clusterA = Arr("Indexes", {0, 1, 0, 9}) + Arr("Weights", {0.25, 1, 0.25, 1});
  std::string clusterB = Arr("Indexes", {0, 2}) + Arr("Weights", {0.5, 1});
  std::string skinExtra, poses, meshProps = "P3";
  std::string Text() const {
    std::vector<Model> models = {
        {1, "Root", "LimbNode", {P3("Lcl Translation", 0, 10, 0)}},
        {2, "Arm", "LimbNode", {P3("Lcl Translation", 5, 0, 0), P3("Lcl Rotation", 0, 0, 90)}},
        {3, "Body", "Mesh", {P3("Lcl Translation", 0, 0, 2), P3("GeometricTranslation", 1, 0, 0)}}};
    std::string objects = "\tGeometry: 50, \"Geometry::\", \"Mesh\" {\n" + Arr("Vertices", {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}) +
                          "\t}\n\tDeformer: 60, \"Deformer::\", \"Skin\" {\n" + skinExtra +
                          "\t}\n\tDeformer: 61, \"SubDeformer::\", \"Cluster\" {\n" + clusterA +
                          "\t}\n\tDeformer: 62, \"SubDeformer::\", \"Cluster\" {\n" + clusterB + "\t}\n" + poses;
    return Doc(models, {{2, 1}, {3, 1}, {50, 3}, {60, 50}, {61, 60}, {62, 60}, {1, 61}, {2, 62}}, "", objects);
  }
};

struct SkinBuilt {
  File file;
  maniSkin skin;
};

// Builds skeleton 0 and the skin; returns the skin's result.
maniImportResult BuildSkin(Doc1& d, Built* skeleton, SkinBuilt* out, const maniFbxOptions& o) {
  EXPECT_EQ(maniBuildFbxSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
  Open(d.bl, skeleton);
  maniImportResult r = maniBuildFbxSkin(d.bl.b, d.f, 0, &skeleton->s, &o);
  if (r.result == mani_success) {
    out->file = d.bl.Built();
    EXPECT_EQ(maniOpenSkin(out->file.data(), out->file.size, &out->skin).result, mani_success);
  }
  return r;
}

// Inverse binds from the rest (no Transform, no pose): the bone's world
// inverted times the mesh's, times the mesh's geometric transform.
TEST(FbxSkin, InverseBindsFromTheRest) {
  SkinDoc sd;
  Doc1 d(sd.Text());
  ASSERT_EQ(d.opened.result, mani_success);
  EXPECT_EQ(maniFbx_GetSkinModel(d.f, 0), 2u);
  maniFbxOptions o = Centimetres();
  Built sk;
  SkinBuilt skin;
  ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
  ASSERT_EQ(maniSkin_GetJointCount(&skin.skin), 2u);
  EXPECT_EQ(maniSkin_GetJoint(&skin.skin, 0), sk.Find("Root"));
  EXPECT_EQ(maniSkin_GetJoint(&skin.skin, 1), sk.Find("Arm"));
  M4 root = Translate(0, 10, 0), arm = Mul(root, Mul(Translate(5, 0, 0), Turn(2, 90)));
  M4 mesh = Mul(root, Mul(Translate(0, 0, 2), Translate(1, 0, 0)));
  auto inverse = [](const M4& m) {  // a rigid inverse: R^T, -R^T t
    M4 r = Transpose3(m);
    for (int i = 0; i < 3; i++) r.m[i][3] = -(r.m[i][0] * m.m[0][3] + r.m[i][1] * m.m[1][3] + r.m[i][2] * m.m[2][3]);
    return r;
  };
  ExpectNear(FromAffine(maniSkin_GetInverseBind(&skin.skin, 0)), Mul(inverse(root), mesh), 1e-5, "root bind");
  ExpectNear(FromAffine(maniSkin_GetInverseBind(&skin.skin, 1)), Mul(inverse(arm), mesh), 1e-5, "arm bind");
}

// The cluster's Transform first (times the geometric transform), then a bind pose.
TEST(FbxSkin, InverseBindsFromClusterThenPose) {
  SkinDoc sd;
  M4 given = Mul(Translate(1, 2, 3), Turn(0, 30));
  sd.clusterA += Arr("Transform", Cols(given));
  M4 boneAtBind = Mul(Translate(7, 0, 0), Turn(1, 45)), meshAtBind = Translate(0, -3, 0);
  sd.poses = "\tPose: 70, \"Pose::bind\", \"BindPose\" {\n\t\tType: \"BindPose\"\n\t\tPoseNode:  {\n\t\t\tNode: 2\n" +
             Arr("Matrix", Cols(boneAtBind)) + "\t\t}\n\t\tPoseNode:  {\n\t\t\tNode: 3\n" + Arr("Matrix", Cols(meshAtBind)) +
             "\t\t}\n\t}\n";
  Doc1 d(sd.Text());
  ASSERT_EQ(d.opened.result, mani_success);
  maniFbxOptions o = Centimetres();
  Built sk;
  SkinBuilt skin;
  ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
  ExpectNear(FromAffine(maniSkin_GetInverseBind(&skin.skin, 0)), Mul(given, Translate(1, 0, 0)), 1e-5, "cluster");
  M4 inv = Transpose3(boneAtBind);
  for (int i = 0; i < 3; i++)
    inv.m[i][3] = -(inv.m[i][0] * boneAtBind.m[0][3] + inv.m[i][1] * boneAtBind.m[1][3] + inv.m[i][2] * boneAtBind.m[2][3]);
  ExpectNear(FromAffine(maniSkin_GetInverseBind(&skin.skin, 1)), Mul(Mul(inv, meshAtBind), Translate(1, 0, 0)), 1e-5,
             "pose");
}

// The legacy layout (FBX 5.x): top-level models, a rest in each model's
// Channel "Transform" (T, R, S, each X, Y, Z with a Default), parents by
// Children names, and a skin as Link records on the mesh model (each a
// bone by name with Indexes, Weights, Transform, TransformLink), as
// max7_skin writes them. Root turns -90 about X; Bone hangs 2 along X
// under it; Body's one Link binds its two points to Bone at Transform G.
std::string LegacyChannel(const char* kind, double x, double y, double z, const char* bad = nullptr) {
  char buf[256];
  snprintf(buf, sizeof buf,
           "\t\tChannel: \"%s\" {\n\t\t\tChannel: \"X\" {\n\t\t\t\tDefault: %.17g\n\t\t\t}\n"
           "\t\t\tChannel: \"Y\" {\n\t\t\t\tDefault: %s\n\t\t\t}\n\t\t\tChannel: \"Z\" {\n\t\t\t\tDefault: %.17g\n"
           "\t\t\t}\n\t\t}\n",
           kind, x, bad != nullptr ? bad : std::to_string(y).c_str(), z);
  return buf;
}

std::string LegacyModel(const char* name, const char* type, const std::string& channels, const std::string& body) {
  return std::string("Model: \"Model::") + name + "\" {\n\tType: \"" + type + "\"\n\tChannel: \"Transform\" {\n" +
         channels + "\t}\n" + body + "}\n";
}

struct LegacySkinDoc {
  M4 g = Mul(Translate(-2, 0, 0), Turn(2, 30));
  std::string linkName = "Bone", rootY = "";
  std::string Text() const {
    std::string s = "; FBX 5.8.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 5800\n}\n";
    s += LegacyModel("Root", "Null",
                     LegacyChannel("T", 0, 0, 0) + LegacyChannel("R", -90, 0, 0, rootY.empty() ? nullptr : rootY.c_str()) +
                         LegacyChannel("S", 1, 1, 1),
                     "\tChildren: \"Model::Body\", \"Model::Bone\"\n");
    s += LegacyModel("Body", "Mesh", LegacyChannel("T", 0, 0, 0),
                     "\tLink: \"Model::" + linkName + "\" {\n" + Arr("Indexes", {0, 1}) + Arr("Weights", {1, 0.5}) +
                         Arr("Transform", Cols(g)) + Arr("TransformLink", Cols(Translate(2, 0, 0))) + "\t}\n" +
                         Arr("Vertices", {0, 0, 0, 1, 0, 0}));
    s += LegacyModel("Bone", "LimbNode", LegacyChannel("T", 2, 0, 0), "");
    return s;
  }
};

TEST(FbxSkin, LegacyLinksAreASkin) {
  LegacySkinDoc ld;
  Doc1 d(ld.Text());
  ASSERT_EQ(d.opened.result, mani_success) << d.opened.reason << " at " << d.opened.offset;
  ASSERT_EQ(maniFbx_GetModelCount(d.f), 3u);
  ASSERT_EQ(maniFbx_GetSkinCount(d.f), 1u);
  EXPECT_EQ(maniFbx_GetSkinModel(d.f, 0), 1u);  // Body
  EXPECT_EQ(maniFbx_GetSkinMethod(d.f, 0), maniSkinningLinear);
  ASSERT_NE(maniFbx_GetSkinSkeleton(d.f, 0), UINT32_MAX);
  maniFbxOptions o = Centimetres();
  Built sk;
  SkinBuilt skin;
  ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
  // the rest from the Channel defaults: Bone 2 along X; Root's -90 turn its placement
  ExpectNear(sk.Rest("Bone"), Translate(2, 0, 0), 1e-6, "bone rest");
  maniAffine placement;
  ASSERT_EQ(maniFbx_GetSkeletonPlacement(d.f, maniFbx_GetSkinSkeleton(d.f, 0), &o, &placement).result, mani_success);
  ExpectNear(FromAffine(placement), Turn(0, -90), 1e-6, "placement");
  ASSERT_EQ(maniSkin_GetJointCount(&skin.skin), 1u);
  EXPECT_EQ(maniSkin_GetJoint(&skin.skin, 0), sk.Find("Bone"));
  ExpectNear(FromAffine(maniSkin_GetInverseBind(&skin.skin, 0)), ld.g, 1e-6, "the Link's Transform");
  ASSERT_EQ(maniBuildFbxInfluences(d.bl.b, d.f, 0, &skin.skin).result, mani_success);
  File file = d.bl.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(file.data(), file.size, &inf).result, mani_success);
  ASSERT_EQ(maniInfluences_GetVertexCount(&inf), 2u);
  float w = 0;
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 0, &w), 0u);
  EXPECT_FLOAT_EQ(w, 1.0f);
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 1, 0, &w), 0u);
  EXPECT_FLOAT_EQ(w, 1.0f);  // 0.5 alone, renormalized
}

TEST(FbxSkin, LegacyRefusals) {
  maniFbxOptions o = Centimetres();
  {  // a Link naming no model: Bone, item the cluster, offset the Link's record
    LegacySkinDoc ld;
    ld.linkName = "Nope";
    Doc1 d(ld.Text());
    ASSERT_EQ(d.opened.result, mani_success);
    ASSERT_EQ(maniFbx_GetSkinCount(d.f), 1u);
    EXPECT_EQ(maniFbx_GetSkinSkeleton(d.f, 0), UINT32_MAX);  // it links no model
    // the model skeleton of Bone holds no Nope
    ASSERT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, 2, &o).result, mani_success);
    Built sk;
    Open(d.bl, &sk);
    maniImportResult r = maniBuildFbxSkin(d.bl.b, d.f, 0, &sk.s, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBone);
    EXPECT_EQ(r.item, 0u);
    EXPECT_EQ(r.offset, (uint64_t)ld.Text().find("Link:"));
  }
  {  // a Default that is not a number: Property, item the model, offset the value
    LegacySkinDoc ld;
    ld.rootY = "\"y\"";
    Doc1 d(ld.Text());
    ASSERT_EQ(d.opened.result, mani_success);
    maniImportResult r = maniBuildFbxModelSkeleton(d.bl.b, d.f, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
    EXPECT_EQ(r.item, 0u);
    const std::string text = ld.Text();
    EXPECT_EQ(r.offset, (uint64_t)text.find("\"y\"") + 1);
  }
}

TEST(FbxSkin, Refusals) {
  maniFbxOptions o = Centimetres();
  {  // additive: Property at the Mode value
    SkinDoc sd;
    sd.clusterB += "\t\tMode: \"Additive\"\n";
    Doc1 d(sd.Text());
    Built sk;
    SkinBuilt skin;
    maniImportResult r = BuildSkin(d, &sk, &skin, o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
    EXPECT_EQ(r.item, 1u);
    EXPECT_EQ(r.offset, d.text.find("\"Additive\"") + 1);
  }
  {  // a Transform whose last row is not 0 0 0 1: Matrix
    SkinDoc sd;
    M4 bad = Identity();
    bad.m[3][0] = 1;
    sd.clusterB += Arr("Transform", Cols(bad));
    Doc1 d(sd.Text());
    Built sk;
    SkinBuilt skin;
    maniImportResult r = BuildSkin(d, &sk, &skin, o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
    EXPECT_EQ(r.item, 1u);
  }
  {  // a joint the skeleton lacks: Bone
    SkinDoc sd;
    Doc1 d(sd.Text());
    ASSERT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, 1, &o).result, mani_success);  // Arm alone
    Built sk;
    Open(d.bl, &sk);
    maniImportResult r = maniBuildFbxSkin(d.bl.b, d.f, 0, &sk.s, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBone);
    EXPECT_EQ(r.item, 0u);
    EXPECT_EQ(maniBuildFbxSkin(d.bl.b, d.f, 1, &sk.s, &o).result, mani_errorInvalid);
    EXPECT_EQ(maniBuildFbxSkin(d.bl.b, d.f, 0, nullptr, &o).result, mani_errorInvalid);
  }
}

// Weights: vertex 0 given twice by cluster 0 (summed: 0.5) and once by
// cluster 1 (0.5); index 9 past the control points skipped; vertex 3 none.
TEST(FbxSkin, Influences) {
  SkinDoc sd;
  Doc1 d(sd.Text());
  maniFbxOptions o = Centimetres();
  Built sk;
  SkinBuilt skin;
  ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
  maniImportResult r = maniBuildFbxInfluences(d.bl.b, d.f, 0, &skin.skin);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  File file = d.bl.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(file.data(), file.size, &inf).result, mani_success);
  EXPECT_TRUE(maniInfluences_IsSkinFit(&inf, &skin.skin));
  ASSERT_EQ(maniInfluences_GetVertexCount(&inf), 4u);
  float w0, w1;
  uint32_t j0 = maniInfluences_GetInfluence(&inf, 0, 0, &w0), j1 = maniInfluences_GetInfluence(&inf, 0, 1, &w1);
  EXPECT_EQ(j0, 0u);  // equal weights: increasing joint
  EXPECT_EQ(j1, 1u);
  EXPECT_FLOAT_EQ(w0, 0.5f);
  EXPECT_FLOAT_EQ(w1, 0.5f);
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 1, 0, &w0), 0u);
  EXPECT_FLOAT_EQ(w0, 1.0f);
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 2, 0, &w0), 1u);
  EXPECT_FLOAT_EQ(w0, 1.0f);
  (void)maniInfluences_GetInfluence(&inf, 3, 0, &w0);
  EXPECT_EQ(w0, 0.0f);
  EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 0), 0.0f);  // linear: none
}

TEST(FbxSkin, BlendWeightsAndInfluenceRefusals) {
  maniFbxOptions o = Centimetres();
  {
    SkinDoc sd;
    sd.skinExtra = "\t\tSkinningType: \"Blend\"\n" + Arr("BlendIndexes", {1, 3, 7}) + Arr("BlendWeights", {0.25, 1, 0.5});
    Doc1 d(sd.Text());
    ASSERT_EQ(maniFbx_GetSkinMethod(d.f, 0), maniSkinningBlended);
    Built sk;
    SkinBuilt skin;
    ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
    ASSERT_EQ(maniBuildFbxInfluences(d.bl.b, d.f, 0, &skin.skin).result, mani_success);
    File file = d.bl.Built();
    maniInfluences inf;
    ASSERT_EQ(maniOpenInfluences(file.data(), file.size, &inf).result, mani_success);
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 0), 0.0f);
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 1), 0.25f);
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 3), 1.0f);
  }
  {
    // Maya's way (maya_dq_weights): the skin's Indexes with its BlendWeights, the arrays ufbx reads,
    // no SkinningType: blended for the per-vertex weights, the rest 0, index 9 past the control points
    // skipped; Indexes preferred to BlendIndexes when both are given
    SkinDoc sd;
    sd.skinExtra = Arr("Indexes", {2, 9, 0}) + Arr("BlendWeights", {0.75, 1, 0.5}) + Arr("BlendIndexes", {1});
    Doc1 d(sd.Text());
    ASSERT_EQ(d.opened.result, mani_success);
    ASSERT_EQ(maniFbx_GetSkinMethod(d.f, 0), maniSkinningBlended);
    Built sk;
    SkinBuilt skin;
    ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
    maniImportResult r = maniBuildFbxInfluences(d.bl.b, d.f, 0, &skin.skin);
    ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
    File file = d.bl.Built();
    maniInfluences inf;
    ASSERT_EQ(maniOpenInfluences(file.data(), file.size, &inf).result, mani_success);
    ASSERT_EQ(maniInfluences_GetVertexCount(&inf), 4u);
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 0), 0.5f);
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 1), 0.0f);
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 2), 0.75f);
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 3), 0.0f);
  }
  {
    SkinDoc sd;
    sd.skinExtra = "\t\tSkinningType: \"DualQuaternion\"\n";
    Doc1 d(sd.Text());
    Built sk;
    SkinBuilt skin;
    ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
    ASSERT_EQ(maniBuildFbxInfluences(d.bl.b, d.f, 0, &skin.skin).result, mani_success);
    File file = d.bl.Built();
    maniInfluences inf;
    ASSERT_EQ(maniOpenInfluences(file.data(), file.size, &inf).result, mani_success);
    EXPECT_EQ(maniInfluences_GetDualQuaternionWeight(&inf, 2), 1.0f);
  }
  struct Case {
    std::string a, b, skinExtra;
    uint32_t reason;
    uint64_t item;
  };
  for (const Case& c : std::vector<Case>{
           {Arr("Indexes", {0, 1}) + Arr("Weights", {1}), "", "", maniImportReasonProperty, 0},
           {Arr("Indexes", {0}) + Arr("Weights", {-0.5}), "", "", maniImportReasonInfluence, 0},
           {"", Arr("Indexes", {0}) + Arr("Weights", {NAN}), "", maniImportReasonInfluence, 1},
           {"", "", "\t\tSkinningType: \"Blend\"\n" + Arr("BlendIndexes", {1}) + Arr("BlendWeights", {1.5}),
            maniImportReasonInfluence, 0},
           {"", "", "\t\tSkinningType: \"Blend\"\n" + Arr("BlendIndexes", {1, 2}) + Arr("BlendWeights", {1}),
            maniImportReasonProperty, 0},
           {"", "", Arr("Indexes", {1, 2}) + Arr("BlendWeights", {1}), maniImportReasonProperty, 0},
           {"", "", Arr("Indexes", {1}) + Arr("BlendWeights", {-0.25}), maniImportReasonInfluence, 0}}) {
    SkinDoc sd;
    if (!c.a.empty()) sd.clusterA = c.a;
    if (!c.b.empty()) sd.clusterB = c.b;
    sd.skinExtra = c.skinExtra;
    Doc1 d(sd.Text());
    ASSERT_EQ(d.opened.result, mani_success);
    Built sk;
    SkinBuilt skin;
    ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
    maniImportResult r = maniBuildFbxInfluences(d.bl.b, d.f, 0, &skin.skin);
    EXPECT_EQ(r.result, mani_errorFormat) << c.a << c.b << c.skinExtra;
    EXPECT_EQ(r.reason, c.reason) << c.a << c.b << c.skinExtra;
    EXPECT_EQ(r.item, c.item) << c.a << c.b << c.skinExtra;
  }
  SkinDoc sd;
  Doc1 d(sd.Text());
  Built sk;
  SkinBuilt skin;
  ASSERT_EQ(BuildSkin(d, &sk, &skin, o).result, mani_success);
  EXPECT_EQ(maniBuildFbxInfluences(d.bl.b, d.f, 1, &skin.skin).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxInfluences(d.bl.b, d.f, 0, nullptr).result, mani_errorInvalid);
}

// -- Allocation failure ----------------------------------------------------------------------

struct Failing {
  int allocations = 0, failAt = -1;
  std::map<void*, size_t> live;
};

void* FailingAllocate(void* user, size_t size, size_t alignment) {
  Failing* h = (Failing*)user;
  if (h->allocations++ == h->failAt) return nullptr;
  void* p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p) h->live[p] = size;
  return p;
}

void FailingRelease(void* user, void* memory, size_t size) {
  Failing* h = (Failing*)user;
  auto it = h->live.find(memory);
  ASSERT_NE(it, h->live.end());
  EXPECT_EQ(it->second, size);
  h->live.erase(it);
  free(memory);
}

// Every allocation of the open, the skeleton, skin and influence builds and
// the placements failed in turn: Capacity (or success once past them),
// nothing leaked.
TEST(FbxSkin, AllocationFailureAtEveryIndex) {
  SkinDoc sd;
  sd.skinExtra = "\t\tSkinningType: \"Blend\"\n" + Arr("BlendIndexes", {1}) + Arr("BlendWeights", {0.5});
  std::string text = sd.Text();
  int succeeded = 0;
  for (int failAt = 0; failAt < 400; failAt++) {
    Failing h;
    h.failAt = failAt;
    maniBuilderDef def = maniDefaultBuilderDef();
    def.allocator.allocate = FailingAllocate;
    def.allocator.release = FailingRelease;
    def.allocator.user = &h;
    maniBuilder* b = nullptr;
    if (maniCreateBuilder(&def, &b) != mani_success) continue;
    maniFbx* f = nullptr;
    maniFbxOptions o = maniDefaultFbxOptions();
    maniImportResult r = maniOpenFbx(b, text.data(), text.size(), &f);
    bool all = false;
    if (r.result == mani_success) {
      r = maniBuildFbxSkeleton(b, f, 0, &o);
      if (r.result == mani_success) {
        size_t size = 0;
        EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
        File sk;
        sk.words.assign(size / 8 + 2, 0);
        sk.size = size;
        ASSERT_EQ(maniBuilder_CopyBuilt(b, sk.data(), size, &size), mani_success);
        maniSkeleton s;
        ASSERT_EQ(maniOpenSkeleton(sk.data(), sk.size, &s).result, mani_success);
        r = maniBuildFbxSkin(b, f, 0, &s, &o);
        if (r.result == mani_success) {
          EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
          File skin;
          skin.words.assign(size / 8 + 2, 0);
          skin.size = size;
          ASSERT_EQ(maniBuilder_CopyBuilt(b, skin.data(), size, &size), mani_success);
          maniSkin sn;
          ASSERT_EQ(maniOpenSkin(skin.data(), skin.size, &sn).result, mani_success);
          r = maniBuildFbxInfluences(b, f, 0, &sn);
          if (r.result == mani_success) {
            maniAffine p;
            r = maniFbx_GetSkeletonPlacement(f, 0, &o, &p);
            all = r.result == mani_success;
          }
        }
      }
      maniCloseFbx(f);
    }
    if (!all) {
      EXPECT_EQ(r.result, mani_errorCapacity) << "fail at " << failAt << " reason " << r.reason;
    }
    maniDestroyBuilder(b);
    EXPECT_TRUE(h.live.empty()) << "fail at " << failAt << ": " << h.live.size() << " blocks leaked";
    if (all && h.allocations <= failAt) {
      succeeded = failAt;
      break;
    }
  }
  EXPECT_GT(succeeded, 10) << "the sweep never got past every allocation";
}

}  // namespace
