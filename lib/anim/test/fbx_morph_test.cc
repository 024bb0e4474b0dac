// import.h, FBX morph targets: maniFbx_GetMorphCount, maniFbx_GetMorphModel,
// maniFbx_GetMorphTargetCount, maniBuildFbxMorphTargets and
// maniFbx_GetMorphWeights. A synthetic ASCII document written here gives
// hand-worked offsets, names, order and rest weights and every refusal; the
// shared files (../shared/data/fbx, SKIP when absent) give offsets read
// from the files by hand (the ASCII ones) or by an independent dump of the
// binary ones (the values quoted below), and the morphed control points of
// ufbx's evaluated .obj references where the channel weights at the frame
// are key values of the file's curves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/morph.h"
#include "maul/anim/pose.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

// -- Files ------------------------------------------------------------------------------------

std::string SharedData() { return MaulSharedData(); }

bool ReadBytes(const std::string& path, std::string* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  fclose(f);
  return true;
}

// An opened document over its own copy of the bytes.
struct Doc {
  Builder builder;
  File bytes;
  maniFbx* fbx = nullptr;
  explicit Doc(const std::string& text) {
    bytes.Assign(text.data(), text.size());
    maniImportResult r = maniOpenFbx(builder.b, bytes.data(), bytes.size, &fbx);
    EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " at " << r.offset;
  }
  ~Doc() { maniCloseFbx(fbx); }
};

// The options whose basis is the identity for the document: its own axes and a unit of 1.
maniFbxOptions NativeOptions(const maniFbx* fbx) {
  maniFbxSettings s;
  EXPECT_EQ(maniFbx_ReadSettings(fbx, &s), mani_success);
  maniFbxOptions o = maniDefaultFbxOptions();
  o.up = s.up;
  o.front = s.front;
  o.unitScale = 1.0f / s.unitMetres;
  return o;
}

// A built morph targets file, opened.
struct Built {
  File file;
  maniMorphTargets t{};
  bool ok = false;
};

Built Build(const maniFbx* fbx, uint32_t morph, const maniFbxOptions& options) {
  Built out;
  Builder b;
  maniImportResult r = maniBuildFbxMorphTargets(b.b, fbx, morph, &options);
  EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " item " << r.item << " at " << r.offset;
  if (r.result != mani_success) return out;
  out.file = b.Built();
  EXPECT_EQ(maniOpenMorphTargets(out.file.data(), out.file.size, &out.t).result, mani_success);
  out.ok = true;
  return out;
}

// The morphed values of an attribute for target weights over input values.
std::vector<float> Morph(const maniMorphTargets& t, maniMorphSemantic semantic, const std::vector<float>& weights,
                         const std::vector<float>& input) {
  const uint32_t n = maniMorphTargets_GetVertexCount(&t);
  std::vector<float> out(3 * n, 0.0f);
  maniMorphStream s{};
  s.semantic = semantic;
  s.set = 0;
  s.components = 3;
  s.inputStride = 12;
  s.outputStride = 12;
  s.input = input.data();
  s.output = out.data();
  maniMorphJob job{};
  job.targets = &t;
  job.targetWeights = weights.data();
  job.streams = &s;
  job.streamCount = 1;
  job.vertexBegin = 0;
  job.vertexEnd = n;
  EXPECT_EQ(maniApplyMorphTargets(&job), mani_success);
  return out;
}

// One target's position offsets (vertex by vertex): the target alone at weight 1 over zeros.
std::vector<float> Offsets(const maniMorphTargets& t, uint32_t target) {
  std::vector<float> w(maniMorphTargets_GetTargetCount(&t), 0.0f);
  w[target] = 1.0f;
  return Morph(t, maniMorphPosition, w, std::vector<float>(3 * maniMorphTargets_GetVertexCount(&t), 0.0f));
}

std::string Name(const char* s, size_t n) { return s == nullptr ? std::string("(null)") : std::string(s, n); }

std::string ChannelName(const maniMorphTargets& t, uint32_t c) {
  size_t n = 0;
  const char* s = maniMorphTargets_GetChannelName(&t, c, &n);
  return Name(s, n);
}

std::string TargetName(const maniMorphTargets& t, uint32_t c) {
  size_t n = 0;
  const char* s = maniMorphTargets_GetTargetName(&t, c, &n);
  return Name(s, n);
}

void ExpectVec(const std::vector<float>& v, uint32_t vertex, double x, double y, double z, double tol) {
  ASSERT_LT(3 * vertex + 2, v.size());
  EXPECT_NEAR(v[3 * vertex + 0], x, tol) << "vertex " << vertex;
  EXPECT_NEAR(v[3 * vertex + 1], y, tol) << "vertex " << vertex;
  EXPECT_NEAR(v[3 * vertex + 2], z, tol) << "vertex " << vertex;
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// -- A synthetic document -------------------------------------------------------------------
//
// A triangle mesh (3 control points) under model Thing, a BlendShape with
// three channels linked in the order 320, 310, 330: 320 ("Smile", one shape
// Other), 310 (also "Smile", so Smile#1: shapes Full at 100, Half at 50 and
// HalfAgain at 50 again, left out), 330 (Empty, no shapes, left out). No
// GlobalSettings: centimetres, Y up, Z front.
const char* kSynthetic = R"(; FBX 7.5.0 project file
Objects:  {
	Geometry: 100, "Geometry::Mesh", "Mesh" {
		Vertices: *9 {
			a: 0,0,0,1,0,0,0,1,0
		}
	}
	Model: 200, "Model::Thing", "Mesh" {
	}
	Deformer: 300, "Deformer::Blend", "BlendShape" {
	}
	Deformer: 310, "SubDeformer::Smile", "BlendShapeChannel" {
		DeformPercent: 25
		FullWeights: *3 {
			a: 100,50,50
		}
	}
	Deformer: 320, "SubDeformer::Smile", "BlendShapeChannel" {
		Properties70:  {
			P: "DeformPercent", "Number", "", "A",100
		}
		DeformPercent: 10
	}
	Deformer: 330, "SubDeformer::Empty", "BlendShapeChannel" {
		DeformPercent: 50
	}
	Geometry: 400, "Geometry::Full", "Shape" {
		Indexes: *2 {
			a: 2,0
		}
		Vertices: *6 {
			a: 1,2,3,4,5,6
		}
		Normals: *6 {
			a: 0,0,1,0,1,0
		}
	}
	Geometry: 410, "Geometry::Half", "Shape" {
		Indexes: *2 {
			a: 1,7
		}
		Vertices: *6 {
			a: 10,20,30,40,50,60
		}
	}
	Geometry: 420, "Geometry::HalfAgain", "Shape" {
		Indexes: *1 {
			a: 0
		}
		Vertices: *3 {
			a: 7,7,7
		}
	}
	Geometry: 430, "Geometry::Other", "Shape" {
		Indexes: *1 {
			a: 1
		}
		Vertices: *3 {
			a: -1,0,0
		}
	}
}
Connections:  {
	C: "OO",200,0
	C: "OO",100,200
	C: "OO",300,100
	C: "OO",320,300
	C: "OO",310,300
	C: "OO",330,300
	C: "OO",400,310
	C: "OO",410,310
	C: "OO",420,310
	C: "OO",430,320
}
)";

TEST(FbxMorph, SyntheticSetsModelAndCounts) {
  Doc d(kSynthetic);
  ASSERT_NE(d.fbx, nullptr);
  EXPECT_EQ(maniFbx_GetMorphCount(d.fbx), 1u);
  const uint32_t model = maniFbx_GetMorphModel(d.fbx, 0);
  ASSERT_NE(model, UINT32_MAX);
  size_t n = 0;
  const char* name = maniFbx_GetModelBoneName(d.fbx, model, &n);
  EXPECT_EQ(Name(name, n), "Thing");
  // Other; Half and Full (HalfAgain repeats Half's full weight); Empty has none
  EXPECT_EQ(maniFbx_GetMorphTargetCount(d.fbx, 0), 3u);
}

TEST(FbxMorph, SyntheticBuildNamesOrderAndOffsets) {
  Doc d(kSynthetic);
  ASSERT_NE(d.fbx, nullptr);
  // default options: Y up, Z front, metres: the file's centimetres times 0.01
  Built b = Build(d.fbx, 0, maniDefaultFbxOptions());
  ASSERT_TRUE(b.ok);
  const maniMorphTargets& t = b.t;
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&t), 3u);
  ASSERT_EQ(maniMorphTargets_GetChannelCount(&t), 2u);
  ASSERT_EQ(maniMorphTargets_GetTargetCount(&t), 3u);
  EXPECT_EQ(ChannelName(t, 0), "Smile");
  EXPECT_EQ(ChannelName(t, 1), "Smile#1");
  EXPECT_EQ(TargetName(t, 0), "Other");
  EXPECT_EQ(TargetName(t, 1), "Half");
  EXPECT_EQ(TargetName(t, 2), "Full");
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&t, 0), 1.0f);
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&t, 1), 0.5f);
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&t, 2), 1.0f);
  // positions and normals move
  ASSERT_EQ(maniMorphTargets_GetAttributeCount(&t), 2u);
  std::vector<float> o = Offsets(t, 0);
  ExpectVec(o, 0, 0, 0, 0, 0);
  ExpectVec(o, 1, -0.01, 0, 0, 1e-7);
  ExpectVec(o, 2, 0, 0, 0, 0);
  o = Offsets(t, 1);  // index 7 is past the 3 control points: skipped
  ExpectVec(o, 0, 0, 0, 0, 0);
  ExpectVec(o, 1, 0.1, 0.2, 0.3, 1e-7);
  ExpectVec(o, 2, 0, 0, 0, 0);
  o = Offsets(t, 2);
  ExpectVec(o, 0, 0.04, 0.05, 0.06, 1e-7);
  ExpectVec(o, 1, 0, 0, 0, 0);
  ExpectVec(o, 2, 0.01, 0.02, 0.03, 1e-7);
  // normals are directions: turned, not scaled (input normals +X, renormalized after)
  std::vector<float> w = {0, 0, 1};
  std::vector<float> in = {1, 0, 0, 1, 0, 0, 1, 0, 0};
  std::vector<float> nrm = Morph(t, maniMorphNormal, w, in);
  const double s2 = 1.0 / std::sqrt(2.0);
  ExpectVec(nrm, 0, s2, s2, 0, 1e-6);
  ExpectVec(nrm, 1, 1, 0, 0, 0);
  ExpectVec(nrm, 2, s2, 0, s2, 1e-6);
}

TEST(FbxMorph, SyntheticBasisChange) {
  Doc d(kSynthetic);
  ASSERT_NE(d.fbx, nullptr);
  // up +Z, front -Y: right = up x front = +X; the file's (x, y, z) becomes (x, -z, y)
  maniFbxOptions o = maniDefaultFbxOptions();
  o.up = (uint32_t)maniAxisPositiveZ;
  o.front = (uint32_t)maniAxisNegativeY;
  o.unitScale = 100.0f;  // centimetres out: the file's units
  Built b = Build(d.fbx, 0, o);
  ASSERT_TRUE(b.ok);
  std::vector<float> p = Offsets(b.t, 2);
  ExpectVec(p, 2, 1, -3, 2, 1e-5);
  ExpectVec(p, 0, 4, -6, 5, 1e-5);
  std::vector<float> w = {0, 0, 1};
  std::vector<float> zero(9, 0.0f);
  std::vector<float> nrm = Morph(b.t, maniMorphNormal, w, zero);
  ExpectVec(nrm, 2, 0, -1, 0, 1e-6);  // (0, 0, 1) turned
  ExpectVec(nrm, 0, 0, 0, 1, 1e-6);   // (0, 1, 0) turned
}

TEST(FbxMorph, SyntheticRestWeights) {
  Doc d(kSynthetic);
  ASSERT_NE(d.fbx, nullptr);
  uint32_t count = 0;
  float w[4] = {9, 9, 9, 9};
  ASSERT_EQ(maniFbx_GetMorphWeights(d.fbx, 0, w, 4, &count).result, mani_success);
  EXPECT_EQ(count, 3u);
  // 320: Properties70's DeformPercent 100 (not the record's 10): Other at 1.
  // 310: only a DeformPercent record (25), not a property: 0, so Half and Full 0.
  EXPECT_EQ(w[0], 1.0f);
  EXPECT_EQ(w[1], 0.0f);
  EXPECT_EQ(w[2], 0.0f);
  EXPECT_EQ(w[3], 9.0f);  // past the count: untouched
  // 310 with the property: 25% between the zero shape and Half (0.5): Half 0.5, Full 0;
  // the same as the built file's own walk of channel weights 1 and 0.25
  Doc p(Replace(kSynthetic, "\t\tDeformPercent: 25\n",
                "\t\tProperties70:  {\n\t\t\tP: \"DeformPercent\", \"Number\", \"\", \"A\",25\n\t\t}\n"));
  ASSERT_NE(p.fbx, nullptr);
  ASSERT_EQ(maniFbx_GetMorphWeights(p.fbx, 0, w, 3, &count).result, mani_success);
  EXPECT_EQ(w[0], 1.0f);
  EXPECT_EQ(w[1], 0.5f);
  EXPECT_EQ(w[2], 0.0f);
  Built b = Build(p.fbx, 0, maniDefaultFbxOptions());
  ASSERT_TRUE(b.ok);
  float channels[2] = {1.0f, 0.25f};
  float walked[3];
  ASSERT_EQ(maniMorphTargets_ComputeTargetWeights(&b.t, channels, walked, 3, nullptr), mani_success);
  for (int i = 0; i < 3; i++) EXPECT_EQ(walked[i], w[i]);
}

TEST(FbxMorph, SyntheticRefusals) {
  Doc d(kSynthetic);
  ASSERT_NE(d.fbx, nullptr);
  maniFbxOptions o = maniDefaultFbxOptions();
  Builder b;
  EXPECT_EQ(maniBuildFbxMorphTargets(nullptr, d.fbx, 0, &o).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, nullptr, 0, &o).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.fbx, 0, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.fbx, 1, &o).result, mani_errorInvalid);
  maniFbxOptions bad = o;
  bad.cookie = 0;
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.fbx, 0, &bad).result, mani_errorInvalid);
  bad = o;
  bad.unitScale = 0.0f;
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.fbx, 0, &bad).result, mani_errorInvalid);
  bad = o;
  bad.front = bad.up;
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.fbx, 0, &bad).result, mani_errorInvalid);
  // the counts and the model past the count, and for NULL
  EXPECT_EQ(maniFbx_GetMorphCount(nullptr), 0u);
  EXPECT_EQ(maniFbx_GetMorphModel(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetMorphModel(d.fbx, 1), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetMorphTargetCount(nullptr, 0), 0u);
  EXPECT_EQ(maniFbx_GetMorphTargetCount(d.fbx, 1), 0u);
}

TEST(FbxMorph, SyntheticWeightsRefusalsAndMeasure) {
  Doc d(kSynthetic);
  ASSERT_NE(d.fbx, nullptr);
  uint32_t count = 77;
  float w[3] = {5, 5, 5};
  EXPECT_EQ(maniFbx_GetMorphWeights(nullptr, 0, w, 3, &count).result, mani_errorInvalid);
  EXPECT_EQ(maniFbx_GetMorphWeights(d.fbx, 0, nullptr, 3, &count).result, mani_errorInvalid);
  EXPECT_EQ(maniFbx_GetMorphWeights(d.fbx, 1, w, 3, &count).result, mani_errorInvalid);
  EXPECT_EQ(count, 77u);
  EXPECT_EQ(w[0], 5.0f);
  // measure: NULL and 0
  EXPECT_EQ(maniFbx_GetMorphWeights(d.fbx, 0, nullptr, 0, &count).result, mani_errorCapacity);
  EXPECT_EQ(count, 3u);
  // capacity below the count: the count written, the array zeroed
  count = 0;
  EXPECT_EQ(maniFbx_GetMorphWeights(d.fbx, 0, w, 2, &count).result, mani_errorCapacity);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_EQ(w[1], 0.0f);
  EXPECT_EQ(w[2], 5.0f);
  // no count wanted
  EXPECT_EQ(maniFbx_GetMorphWeights(d.fbx, 0, w, 3, nullptr).result, mani_success);
  EXPECT_EQ(w[0], 1.0f);
}

TEST(FbxMorph, SyntheticFormatRefusals) {
  const std::string text = kSynthetic;
  maniFbxOptions o = maniDefaultFbxOptions();
  {  // Full's Vertices not three per Indexes entry: Property, item channel 1 (310), at Full's record
    std::string s = Replace(text, "Vertices: *6 {\n\t\t\ta: 1,2,3,4,5,6", "Vertices: *5 {\n\t\t\ta: 1,2,3,4,5");
    Doc d(s);
    ASSERT_NE(d.fbx, nullptr);
    Builder b;
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.fbx, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
    EXPECT_EQ(r.item, 1u);
    EXPECT_EQ(r.offset, (uint64_t)s.find("Geometry: 400"));
  }
  {  // Full's Normals of another count than its Vertices
    std::string s = Replace(text, "Normals: *6 {\n\t\t\ta: 0,0,1,0,1,0", "Normals: *3 {\n\t\t\ta: 0,0,1");
    Doc d(s);
    ASSERT_NE(d.fbx, nullptr);
    Builder b;
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.fbx, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
    EXPECT_EQ(r.item, 1u);
  }
  {  // a mesh without control points: Property, item the set, at the mesh
    std::string s = Replace(text, "Vertices: *9 {\n\t\t\ta: 0,0,0,1,0,0,0,1,0\n\t\t}", "");
    Doc d(s);
    ASSERT_NE(d.fbx, nullptr);
    Builder b;
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.fbx, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
    EXPECT_EQ(r.item, 0u);
    EXPECT_EQ(r.offset, (uint64_t)s.find("Geometry: 100"));
  }
  {  // a FullWeights value not finite: Data, item channel 1, in the build and the weights
    std::string s = Replace(text, "a: 100,50,50", "a: 100,inf,50");
    Doc d(s);
    ASSERT_NE(d.fbx, nullptr);
    Builder b;
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.fbx, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
    EXPECT_EQ(r.item, 1u);
    float w[3] = {4, 4, 4};
    uint32_t count = 99;
    r = maniFbx_GetMorphWeights(d.fbx, 0, w, 3, &count);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
    EXPECT_EQ(w[0], 4.0f);
    EXPECT_EQ(count, 99u);
  }
  {  // an array that does not decode (a string among Half's Vertices): Data
    std::string s = Replace(text, "a: 10,20,30,40,50,60", "a: 10,20,\"x\",40,50,60");
    Doc d(s);
    ASSERT_NE(d.fbx, nullptr);
    Builder b;
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.fbx, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  }
  {  // a channel name not UTF-8: the builder's refusal (Name)
    std::string s = Replace(text, "\"SubDeformer::Smile\", \"BlendShapeChannel\" {\n\t\tProperties70",
                            "\"SubDeformer::Sm\xff\xfeile\", \"BlendShapeChannel\" {\n\t\tProperties70");
    Doc d(s);
    ASSERT_NE(d.fbx, nullptr);
    Builder b;
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.fbx, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuild);
    EXPECT_EQ(r.item & 0xFFFFu, (uint64_t)maniBuildReasonName);
  }
  {  // a full weight of 0: the builder's refusal (Weight)
    std::string s = Replace(text, "a: 100,50,50", "a: 100,0,50");
    Doc d(s);
    ASSERT_NE(d.fbx, nullptr);
    Builder b;
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.fbx, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuild);
    EXPECT_EQ(r.item & 0xFFFFu, (uint64_t)maniBuildReasonWeight);
  }
  {  // no channel with shapes: the builder's refusal (Count)
    std::string s = text.substr(0, text.find("Connections:")) + "Connections:  {\n\tC: \"OO\",100,200\n\tC: \"OO\",300,100\n\tC: \"OO\",330,300\n}\n";
    Doc d(s);
    ASSERT_NE(d.fbx, nullptr);
    EXPECT_EQ(maniFbx_GetMorphTargetCount(d.fbx, 0), 0u);
    Builder b;
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.fbx, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuild);
    EXPECT_EQ(r.item & 0xFFFFu, (uint64_t)maniBuildReasonCount);
    uint32_t count = 9;
    EXPECT_EQ(maniFbx_GetMorphWeights(d.fbx, 0, nullptr, 0, &count).result, mani_success);
    EXPECT_EQ(count, 0u);
  }
}

// Blender's binary exporter (told by its Creator): every shape at full
// weight 1, so 310 keeps its first shape (Full) alone; FullWeights as many as
// Full's Indexes are its per-vertex weights.
TEST(FbxMorph, SyntheticBlenderFullWeights) {
  const std::string blender = std::string(kSynthetic).replace(
      0, strlen("; FBX 7.5.0 project file\n"),
      "; FBX 7.5.0 project file\nFBXHeaderExtension:  {\n\tCreator: \"Blender (stable FBX IO) - 4.4.1 - 5.12.7\"\n}\n");
  {
    Doc d(blender);
    ASSERT_NE(d.fbx, nullptr);
    EXPECT_EQ(maniFbx_GetMorphTargetCount(d.fbx, 0), 2u);
    Built b = Build(d.fbx, 0, maniDefaultFbxOptions());
    ASSERT_TRUE(b.ok);
    ASSERT_EQ(maniMorphTargets_GetTargetCount(&b.t), 2u);
    EXPECT_EQ(TargetName(b.t, 1), "Full");
    EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&b.t, 1), 1.0f);
    std::vector<float> o = Offsets(b.t, 1);  // 3 FullWeights, 2 Indexes: not per-vertex
    ExpectVec(o, 2, 0.01, 0.02, 0.03, 1e-7);
    ExpectVec(o, 0, 0.04, 0.05, 0.06, 1e-7);
    float w[2];
    ASSERT_EQ(maniFbx_GetMorphWeights(d.fbx, 0, w, 2, nullptr).result, mani_success);
    EXPECT_EQ(w[0], 1.0f);
    EXPECT_EQ(w[1], 0.0f);  // DeformPercent only a record: 0
  }
  {
    Doc d(Replace(blender, "FullWeights: *3 {\n\t\t\ta: 100,50,50", "FullWeights: *2 {\n\t\t\ta: 50,25"));
    ASSERT_NE(d.fbx, nullptr);
    Built b = Build(d.fbx, 0, maniDefaultFbxOptions());
    ASSERT_TRUE(b.ok);
    std::vector<float> o = Offsets(b.t, 1);  // Indexes 2, 0 weighted 50% and 25%
    ExpectVec(o, 2, 0.005, 0.01, 0.015, 1e-7);
    ExpectVec(o, 0, 0.01, 0.0125, 0.015, 1e-7);
    // a per-vertex weight not finite: Data, item channel 1
    Doc bad(Replace(blender, "FullWeights: *3 {\n\t\t\ta: 100,50,50", "FullWeights: *2 {\n\t\t\ta: 50,nan"));
    ASSERT_NE(bad.fbx, nullptr);
    Builder builder;
    maniFbxOptions opt = maniDefaultFbxOptions();
    maniImportResult r = maniBuildFbxMorphTargets(builder.b, bad.fbx, 0, &opt);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
    EXPECT_EQ(r.item, 1u);
  }
  {  // the same FullWeights without Blender's Creator are in-betweens: 50 and 25 (Half at 25 now)
    Doc d(Replace(kSynthetic, "FullWeights: *3 {\n\t\t\ta: 100,50,50", "FullWeights: *2 {\n\t\t\ta: 50,25"));
    ASSERT_NE(d.fbx, nullptr);
    Built b = Build(d.fbx, 0, maniDefaultFbxOptions());
    ASSERT_TRUE(b.ok);
    // Full 0.5, Half 0.25, HalfAgain past the array at 1: sorted Half, Full, HalfAgain
    ASSERT_EQ(maniMorphTargets_GetTargetCount(&b.t), 4u);
    EXPECT_EQ(TargetName(b.t, 1), "Half");
    EXPECT_EQ(TargetName(b.t, 2), "Full");
    EXPECT_EQ(TargetName(b.t, 3), "HalfAgain");
    EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&b.t, 1), 0.25f);
    EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&b.t, 2), 0.5f);
    EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&b.t, 3), 1.0f);
    ExpectVec(Offsets(b.t, 2), 2, 0.01, 0.02, 0.03, 1e-7);  // full offsets
    float w[4];
    ASSERT_EQ(maniFbx_GetMorphWeights(d.fbx, 0, w, 4, nullptr).result, mani_success);
    EXPECT_EQ(w[0], 1.0f);
    EXPECT_EQ(w[1], 0.0f);  // DeformPercent only a record: 0
    EXPECT_EQ(w[3], 0.0f);
  }
}

// An allocator that fails its nth allocation (and every one after).
struct Failing {
  int left = 0;
  static void* Allocate(void* user, size_t size, size_t alignment) {
    Failing* f = static_cast<Failing*>(user);
    if (f->left-- <= 0) return nullptr;
    void* p = nullptr;
    if (posix_memalign(&p, alignment < sizeof(void*) ? sizeof(void*) : alignment, size ? size : 1) != 0) return nullptr;
    return p;
  }
  static void Release(void*, void* memory, size_t) { free(memory); }
};

TEST(FbxMorph, SyntheticAllocationFailures) {
  Doc d(kSynthetic);
  ASSERT_NE(d.fbx, nullptr);
  maniFbxOptions o = maniDefaultFbxOptions();
  Built reference = Build(d.fbx, 0, o);
  ASSERT_TRUE(reference.ok);
  bool done = false;
  for (int n = 0; n < 200 && !done; n++) {
    Failing f;
    f.left = n;
    maniBuilderDef def = maniDefaultBuilderDef();
    def.allocator.allocate = &Failing::Allocate;
    def.allocator.release = &Failing::Release;
    def.allocator.user = &f;
    maniBuilder* b = nullptr;
    if (maniCreateBuilder(&def, &b) != mani_success) continue;
    maniImportResult r = maniBuildFbxMorphTargets(b, d.fbx, 0, &o);
    if (r.result == mani_success) {
      size_t size = 0;
      EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
      EXPECT_EQ(size, reference.file.size);
      done = true;
    } else {
      EXPECT_EQ(r.result, mani_errorCapacity) << "allocation " << n;
    }
    maniDestroyBuilder(b);
  }
  EXPECT_TRUE(done);
}

// -- Shared files ---------------------------------------------------------------------------

struct Shared {
  std::string text;
  std::unique_ptr<Doc> doc;
  bool Load(const std::string& name) {
    std::string dir = SharedData();
    if (dir.empty() || !ReadBytes(dir + "/fbx/" + name, &text)) return false;
    doc.reset(new Doc(text));
    return doc->fbx != nullptr;
  }
};

#define LOAD_OR_SKIP(s, name)                                        \
  Shared s;                                                          \
  if (!s.Load(name)) GTEST_SKIP() << "../shared/data/fbx/" << name;

// The first mesh Geometry's control points (the file's, through the internal reader).
std::vector<float> ControlPoints(const maniFbx* f) {
  std::vector<float> out;
  uint32_t objects = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
  for (uint32_t g = mani_FbxFind(f, objects, "Geometry"); g != MANI_FBX_NONE; g = mani_FbxFindNext(f, g)) {
    uint32_t v = mani_FbxFind(f, g, "Vertices");
    uint32_t n = v != MANI_FBX_NONE ? mani_FbxArrayCount(f, v) : 0;
    if (n == 0 || mani_FbxFind(f, g, "PolygonVertexIndex") == MANI_FBX_NONE) continue;
    std::vector<double> d(n);
    EXPECT_EQ(mani_FbxReadArray(f, v, d.data(), n).result, mani_success);
    for (double x : d) out.push_back((float)x);
    break;
  }
  return out;
}

struct ObjPoints {
  std::vector<double> v;
};

ObjPoints ReadObj(const std::string& name) {
  ObjPoints o;
  std::string text;
  if (!ReadBytes(SharedData() + "/fbx/" + name, &text)) return o;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    double x, y, z;
    if (line.rfind("v ", 0) == 0 && sscanf(line.c_str() + 2, "%lf %lf %lf", &x, &y, &z) == 3) {
      o.v.push_back(x);
      o.v.push_back(y);
      o.v.push_back(z);
    }
  }
  return o;
}

// The legacy layout: Shape children of the 7.1 Geometry and of the 6.1 Model
// (the same Maya cube). Values hand-read from the ASCII file.
void ExpectMayaCube(const maniFbx* fbx, bool normals) {
  ASSERT_EQ(maniFbx_GetMorphCount(fbx), 1u);
  uint32_t model = maniFbx_GetMorphModel(fbx, 0);
  ASSERT_NE(model, UINT32_MAX);
  size_t n = 0;
  const char* name = maniFbx_GetModelBoneName(fbx, model, &n);
  EXPECT_EQ(Name(name, n), "pCube1");
  EXPECT_EQ(maniFbx_GetMorphTargetCount(fbx, 0), 2u);
  Built b = Build(fbx, 0, NativeOptions(fbx));
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&b.t), 8u);
  ASSERT_EQ(maniMorphTargets_GetChannelCount(&b.t), 2u);
  EXPECT_EQ(ChannelName(b.t, 0), "TopH");
  EXPECT_EQ(ChannelName(b.t, 1), "TopV");
  EXPECT_EQ(TargetName(b.t, 0), "TopH");
  EXPECT_EQ(TargetName(b.t, 1), "TopV");
  const double tol = 1e-5;  // the unit's 0.01f * 100
  std::vector<float> h = Offsets(b.t, 0);
  ExpectVec(h, 2, 0.316956400871277, 0, 0, tol);
  ExpectVec(h, 3, -0.316956371068954, 0, 0, tol);
  ExpectVec(h, 4, 0.316956400871277, 0, 0, tol);
  ExpectVec(h, 5, -0.316956400871277, 0, 0, tol);
  ExpectVec(h, 0, 0, 0, 0, 0);
  std::vector<float> v = Offsets(b.t, 1);
  ExpectVec(v, 2, 0, 0, -0.283916115760803, tol);
  ExpectVec(v, 5, 0, 0, 0.283916115760803, tol);
  ExpectVec(v, 7, 0, 0, 0, 0);
  // TopV's normal offsets in the 7.1 file (vertex 2: 0, 0.273121476173401, -0.0380204319953918)
  // over +Z normals; the 6.1 file's are all 0
  std::vector<float> w = {0, 1};
  std::vector<float> in(24, 0.0f);
  for (int i = 0; i < 8; i++) in[3 * i + 2] = 1.0f;
  std::vector<float> nrm = Morph(b.t, maniMorphNormal, w, in);
  const double l = std::sqrt(0.273121476173401 * 0.273121476173401 + (1 - 0.0380204319953918) * (1 - 0.0380204319953918));
  if (normals) ExpectVec(nrm, 2, 0, 0.273121476173401 / l, (1 - 0.0380204319953918) / l, 1e-5);
  else ExpectVec(nrm, 2, 0, 0, 1, 0);
  // rest: the mesh's TopH and TopV properties, 100 each
  float rest[2];
  uint32_t count = 0;
  ASSERT_EQ(maniFbx_GetMorphWeights(fbx, 0, rest, 2, &count).result, mani_success);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(rest[0], 1.0f);
  EXPECT_EQ(rest[1], 1.0f);
}

TEST(FbxMorphShared, MayaBlendShapeCube7100Ascii) {
  LOAD_OR_SKIP(s, "maya_blend_shape_cube_7100_ascii.fbx");
  ExpectMayaCube(s.doc->fbx, true);
}

TEST(FbxMorphShared, MayaBlendShapeCube6100Binary) {
  LOAD_OR_SKIP(s, "maya_blend_shape_cube_6100_binary.fbx");
  ExpectMayaCube(s.doc->fbx, false);
}

// Shapes whose Indexes run backwards (11 down to 0): offsets land on their
// vertices (hand-read from the ASCII file).
TEST(FbxMorphShared, SyntheticBlendShapeOrder) {
  LOAD_OR_SKIP(s, "synthetic_blend_shape_order_7500_ascii.fbx");
  const maniFbx* fbx = s.doc->fbx;
  ASSERT_EQ(maniFbx_GetMorphCount(fbx), 1u);
  EXPECT_EQ(maniFbx_GetMorphTargetCount(fbx, 0), 1u);
  Built b = Build(fbx, 0, NativeOptions(fbx));
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&b.t), 12u);
  EXPECT_EQ(ChannelName(b.t, 0), "Shape.Target");
  EXPECT_EQ(TargetName(b.t, 0), "Target");
  std::vector<float> o = Offsets(b.t, 0);
  const double tol = 1e-5;
  ExpectVec(o, 11, 0.476942347103112, -0.00832856073975385, -0.128225789405406, tol);  // the first entry
  ExpectVec(o, 5, 0.560854681418277, 0, 0, tol);                                     // the seventh
  ExpectVec(o, 0, -0.0839123358285647, -0.00832856073975385, -0.128225789405406, tol);  // the last
  float w = 0;
  ASSERT_EQ(maniFbx_GetMorphWeights(fbx, 0, &w, 1, nullptr).result, mani_success);
  EXPECT_EQ(w, 1.0f);  // DeformPercent 100
}

// In-betweens: LiftTop at 50 and 100, MoveToSide at -49.9, -24.9 and 100.
// The curves key DeformPercent -100 and 200 at frame 1 (the file's rest
// values too) and 200 and -100 at frame 120; ufbx's .obj of those frames
// are the mesh morphed (pCube1 has no transform).
TEST(FbxMorphShared, MayaBlendInbetween) {
  LOAD_OR_SKIP(s, "maya_blend_inbetween_7500_binary.fbx");
  const maniFbx* fbx = s.doc->fbx;
  ASSERT_EQ(maniFbx_GetMorphCount(fbx), 1u);
  ASSERT_EQ(maniFbx_GetMorphTargetCount(fbx, 0), 5u);
  Built b = Build(fbx, 0, NativeOptions(fbx));
  ASSERT_TRUE(b.ok);
  ASSERT_EQ(maniMorphTargets_GetChannelCount(&b.t), 2u);
  EXPECT_EQ(ChannelName(b.t, 0), "KeyBlend.LiftTop");
  EXPECT_EQ(ChannelName(b.t, 1), "KeyBlend.MoveToSide");
  const char* names[5] = {"KeyBlend.LiftTop0", "LiftTop", "KeyBlend.MoveToSide0", "KeyBlend.MoveToSide1",
                          "MoveToSide"};
  const float full[5] = {0.5f, 1.0f, (float)(-49.900000000000006 / 100), (float)(-24.900000000000002 / 100), 1.0f};
  for (uint32_t i = 0; i < 5; i++) {
    EXPECT_EQ(TargetName(b.t, i), names[i]);
    EXPECT_FLOAT_EQ(maniMorphTargets_GetTargetFullWeight(&b.t, i), full[i]);
  }
  // LiftTop0's first offset (vertex 6): 0, -0.12332477928794106, 0 (from the dump)
  ExpectVec(Offsets(b.t, 0), 6, 0, -0.12332477928794106, 0, 1e-5);
  // rest: LiftTop -1 (below the first pair: LiftTop0 -2), MoveToSide 2 (past the last: MoveToSide 2)
  float rest[5];
  uint32_t count = 0;
  ASSERT_EQ(maniFbx_GetMorphWeights(fbx, 0, rest, 5, &count).result, mani_success);
  ASSERT_EQ(count, 5u);
  const float expected[5] = {-2, 0, 0, 0, 2};
  for (int i = 0; i < 5; i++) EXPECT_FLOAT_EQ(rest[i], expected[i]) << i;
  std::vector<float> base = ControlPoints(fbx);
  ASSERT_EQ(base.size(), 3u * maniMorphTargets_GetVertexCount(&b.t));
  struct Frame {
    const char* obj;
    float channels[2];
  } frames[2] = {{"maya_blend_inbetween_1.obj", {-1.0f, 2.0f}}, {"maya_blend_inbetween_120.obj", {2.0f, -1.0f}}};
  for (const Frame& f : frames) {
    std::vector<float> w(5);
    ASSERT_EQ(maniMorphTargets_ComputeTargetWeights(&b.t, f.channels, w.data(), 5, nullptr), mani_success);
    std::vector<float> p = Morph(b.t, maniMorphPosition, w, base);
    ObjPoints o = ReadObj(f.obj);
    ASSERT_EQ(o.v.size(), p.size()) << f.obj;
    for (size_t i = 0; i < p.size(); i++) EXPECT_NEAR(p[i], o.v[i], 0.001) << f.obj << " value " << i;
  }
}

// Blender's per-vertex shape weights: Key (Indexes 1 3 5 7, offsets +2 z,
// weights 0 100 25 75) and Side (Indexes 4 5 6 7, offsets +2 x, weights
// 50 100 50 100), in the file's axes. The .obj frames 5, 15 and 25 give the
// mesh morphed and turned by the model's Lcl Rotation (-90.00000933466734
// about X); the curves key Key at 0, 60.000003814697266 and 100 and Side at
// 27.77777862548828, 65 and 90 there.
TEST(FbxMorphShared, Blender440ShapeWeights) {
  LOAD_OR_SKIP(s, "blender440_shape_weight_anim_7400_binary.fbx");
  const maniFbx* fbx = s.doc->fbx;
  ASSERT_EQ(maniFbx_GetMorphCount(fbx), 1u);
  ASSERT_EQ(maniFbx_GetMorphTargetCount(fbx, 0), 2u);
  Built b = Build(fbx, 0, NativeOptions(fbx));
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(ChannelName(b.t, 0), "Key");
  EXPECT_EQ(ChannelName(b.t, 1), "Side");
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&b.t, 0), 1.0f);
  std::vector<float> k = Offsets(b.t, 0);
  ExpectVec(k, 1, 0, 0, 0, 1e-6);
  ExpectVec(k, 3, 0, 0, 2, 1e-6);
  ExpectVec(k, 5, 0, 0, 0.5, 1e-6);
  ExpectVec(k, 7, 0, 0, 1.5, 1e-6);
  std::vector<float> sd = Offsets(b.t, 1);
  ExpectVec(sd, 4, 1, 0, 0, 1e-6);
  ExpectVec(sd, 5, 2, 0, 0, 1e-6);
  ExpectVec(sd, 6, 1, 0, 0, 1e-6);
  ExpectVec(sd, 0, 0, 0, 0, 0);
  float rest[2] = {7, 7};
  ASSERT_EQ(maniFbx_GetMorphWeights(fbx, 0, rest, 2, nullptr).result, mani_success);
  EXPECT_EQ(rest[0], 0.0f);  // DeformPercent 0
  EXPECT_EQ(rest[1], 0.0f);
  std::vector<float> base = ControlPoints(fbx);
  ASSERT_EQ(base.size(), 24u);
  struct Frame {
    const char* obj;
    float channels[2];
  } frames[3] = {{"blender440_shape_weight_anim_5.obj", {0.0f, 0.2777777862548828f}},
                 {"blender440_shape_weight_anim_15.obj", {0.60000003814697266f, 0.65f}},
                 {"blender440_shape_weight_anim_25.obj", {1.0f, 0.9f}}};
  const double a = -90.00000933466734 * 3.14159265358979323846 / 180.0;
  for (const Frame& f : frames) {
    std::vector<float> w(2);
    ASSERT_EQ(maniMorphTargets_ComputeTargetWeights(&b.t, f.channels, w.data(), 2, nullptr), mani_success);
    std::vector<float> p = Morph(b.t, maniMorphPosition, w, base);
    ObjPoints o = ReadObj(f.obj);
    ASSERT_EQ(o.v.size(), p.size()) << f.obj;
    for (size_t i = 0; i < 8; i++) {
      const double x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
      EXPECT_NEAR(x, o.v[3 * i], 0.001) << f.obj << " vertex " << i;
      EXPECT_NEAR(std::cos(a) * y - std::sin(a) * z, o.v[3 * i + 1], 0.001) << f.obj << " vertex " << i;
      EXPECT_NEAR(std::sin(a) * y + std::cos(a) * z, o.v[3 * i + 2], 0.001) << f.obj << " vertex " << i;
    }
  }
}

// Blender 2.79's vertex-group shape weights: Key (Indexes 1 3 5 7, offsets
// +2 z, weights 0 100 25 75), a DeformPercent record of 100 (no property).
TEST(FbxMorphShared, Blender279ShapeWeights) {
  LOAD_OR_SKIP(s, "blender_279_shape_weights_7400_binary.fbx");
  const maniFbx* fbx = s.doc->fbx;
  ASSERT_EQ(maniFbx_GetMorphCount(fbx), 1u);
  ASSERT_EQ(maniFbx_GetMorphTargetCount(fbx, 0), 1u);
  Built b = Build(fbx, 0, NativeOptions(fbx));
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(ChannelName(b.t, 0), "Key");
  std::vector<float> k = Offsets(b.t, 0);
  ExpectVec(k, 1, 0, 0, 0, 1e-6);
  ExpectVec(k, 3, 0, 0, 2, 1e-6);
  ExpectVec(k, 5, 0, 0, 0.5, 1e-6);
  ExpectVec(k, 7, 0, 0, 1.5, 1e-6);
  float rest = 7;
  ASSERT_EQ(maniFbx_GetMorphWeights(fbx, 0, &rest, 1, nullptr).result, mani_success);
  EXPECT_EQ(rest, 0.0f);  // Blender's DeformPercent 100 is a record, not a property: ufbx's 0
}

// Two BlendShape deformers: Sphere (Left, Right) on model hair and Cube
// (Mouth) on model body, every
// FullWeights Blender's per-vertex 100s; DeformPercent records (8.650016784667969,
// 99.73008632659912, 69.58592534065247) but no properties: rest weights 0.
TEST(FbxMorphShared, Blender293Barbarian) {
  LOAD_OR_SKIP(s, "blender_293_barbarian_7400_binary.fbx");
  const maniFbx* fbx = s.doc->fbx;
  ASSERT_EQ(maniFbx_GetMorphCount(fbx), 2u);
  EXPECT_EQ(maniFbx_GetMorphTargetCount(fbx, 0), 2u);
  EXPECT_EQ(maniFbx_GetMorphTargetCount(fbx, 1), 1u);
  const char* models[2] = {"hair", "body"};  // the models of Geometry Sphere and Cube
  for (uint32_t m = 0; m < 2; m++) {
    uint32_t model = maniFbx_GetMorphModel(fbx, m);
    ASSERT_NE(model, UINT32_MAX);
    size_t n = 0;
    const char* name = maniFbx_GetModelBoneName(fbx, model, &n);
    EXPECT_EQ(Name(name, n), models[m]);
  }
  Built sphere = Build(fbx, 0, NativeOptions(fbx));
  ASSERT_TRUE(sphere.ok);
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&sphere.t), 122u);
  EXPECT_EQ(ChannelName(sphere.t, 0), "Left");
  EXPECT_EQ(ChannelName(sphere.t, 1), "Right");
  ExpectVec(Offsets(sphere.t, 0), 117, -0.09718947112560272, 7.450580596923828e-09, -0.08433198928833008, 1e-6);
  ExpectVec(Offsets(sphere.t, 1), 121, -0.01869705319404602, -0.0025046467781066895, -0.10666084289550781, 1e-6);
  Built cube = Build(fbx, 1, NativeOptions(fbx));
  ASSERT_TRUE(cube.ok);
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&cube.t), 587u);
  EXPECT_EQ(TargetName(cube.t, 0), "Mouth");
  ExpectVec(Offsets(cube.t, 0), 6, 0, -0.014192461967468262, -0.13019752502441406, 1e-6);
  float w[2] = {7, 7};
  ASSERT_EQ(maniFbx_GetMorphWeights(fbx, 0, w, 2, nullptr).result, mani_success);
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_EQ(w[1], 0.0f);
  ASSERT_EQ(maniFbx_GetMorphWeights(fbx, 1, w, 1, nullptr).result, mani_success);
  EXPECT_EQ(w[0], 0.0f);
}

// The stack's start in seconds (LocalStart, else ReferenceStart, else 0), read by the test from
// the stack's properties: clip time 0 is this time.
double StackStart(const maniFbx* f, uint32_t clip) {
  if (maniFbx_GetVersion(f) < 7000) {  // a take: LocalTime's begin
    int64_t v;
    uint32_t t = mani_FbxFind(f, mani_FbxClipNode(f, clip), "LocalTime");
    if (t != MANI_FBX_NONE && mani_FbxPropInt(f, mani_FbxGetProp(f, t, 0), &v)) return (double)v / 46186158000.0;
    return 0.0;
  }
  uint32_t block = mani_FbxPropertiesOf(f, mani_FbxClipNode(f, clip));
  for (const char* name : {"LocalStart", "ReferenceStart"}) {
    uint32_t at = 0;
    uint32_t p = mani_FbxFindSetting(f, block, name, &at);
    int64_t v;
    if (p != MANI_FBX_NONE && mani_FbxPropInt(f, mani_FbxGetProp(f, p, at), &v)) return (double)v / 46186158000.0;
  }
  return 0.0;
}

// maniBuildFbxClip's weight tracks against ufbx's evaluated references:
// the clip of the mesh model's skeleton sampled at each reference time
// (less the stack's start), each target's weight the track
// <mesh>/<target> (every target of an animated channel has one), the
// control points morphed by them and placed by the mesh bone's model
// transform at that time; within the .obj's 0.001. The weights come from
// the file's DeformPercent curves walked through the in-betweens, so they
// are not the hand-read keys the tests above give.
void ExpectClipMorphsAsReference(const char* file, const std::vector<std::pair<const char*, double>>& frames) {
  Shared s;
  if (!s.Load(file)) GTEST_SKIP() << "../shared/data/fbx/" << file;
  const maniFbx* fbx = s.doc->fbx;
  ASSERT_EQ(maniFbx_GetMorphCount(fbx), 1u);
  const maniFbxOptions o = NativeOptions(fbx);
  Built b = Build(fbx, 0, o);
  ASSERT_TRUE(b.ok);
  const uint32_t model = maniFbx_GetMorphModel(fbx, 0);
  ASSERT_NE(model, UINT32_MAX);
  size_t bn = 0;
  const char* bs = maniFbx_GetModelBoneName(fbx, model, &bn);
  const std::string bone = Name(bs, bn);
  Builder bl;
  ASSERT_EQ(maniBuildFbxModelSkeleton(bl.b, fbx, model, &o).result, mani_success);
  File skf = bl.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  ASSERT_EQ(maniFbx_GetClipCount(fbx), 1u);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.sampleRate = 240.0f;  // the references' 1/24 s frames on the grid
  maniImportResult r = maniBuildFbxClip(bl.b, fbx, 0, &sk, &o, &co, nullptr);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  File cf = bl.Built();
  maniClip cl;
  ASSERT_EQ(maniOpenClip(cf.data(), cf.size, &cl).result, mani_success);
  const uint32_t targets = maniMorphTargets_GetTargetCount(&b.t);
  std::vector<uint32_t> track(targets);
  for (uint32_t t = 0; t < targets; t++) {
    size_t n = 0;
    const char* tn = maniMorphTargets_GetTargetName(&b.t, t, &n);
    const std::string name = bone + "/" + Name(tn, n);
    track[t] = maniClip_FindFloatTrack(&cl, name.data(), name.size());
    EXPECT_NE(track[t], MANI_NO_TRACK) << name;
  }
  const double start = StackStart(fbx, 0);
  std::vector<float> base = ControlPoints(fbx);
  ASSERT_EQ(base.size(), 3u * maniMorphTargets_GetVertexCount(&b.t));
  std::vector<uint64_t> memory(maniSkeleton_GetPoseSize(&sk) / 8 + 8);
  void* aligned = (void*)(((uintptr_t)memory.data() + 31) & ~(uintptr_t)31);
  maniPose* pose = nullptr;
  ASSERT_EQ(maniInitPose(&sk, aligned, maniSkeleton_GetPoseSize(&sk), &pose), mani_success);
  maniAffine above;
  ASSERT_EQ(maniFbx_GetModelPlacement(fbx, model, &o, &above).result, mani_success);
  std::vector<float> floats(maniClip_GetFloatTrackCount(&cl) + 1);
  for (const auto& frame : frames) {
    const float time = (float)(frame.second - start);
    uint32_t written = 0;
    ASSERT_EQ(maniClip_SampleFloats(&cl, time, floats.data(), (uint32_t)floats.size(), &written), mani_success);
    std::vector<float> w(targets, 0.0f);
    for (uint32_t t = 0; t < targets; t++)
      if (track[t] != MANI_NO_TRACK) w[t] = floats[track[t]];
    std::vector<float> p = Morph(b.t, maniMorphPosition, w, base);
    ASSERT_EQ(maniClip_Sample(&cl, &sk, time, pose), mani_success);
    ASSERT_EQ(maniPose_ComputeModel(pose, &sk), mani_success);
    const maniAffine m = maniPose_GetModel(pose, 0);
    ObjPoints ref = ReadObj(frame.first);
    ASSERT_EQ(ref.v.size(), p.size()) << frame.first;
    double worst = 0;
    for (size_t i = 0; i < p.size() / 3; i++) {
      double local[3], world[3];
      for (int k = 0; k < 3; k++)
        local[k] = (double)(&m.columns[0].x)[k] * p[3 * i] + (double)(&m.columns[1].x)[k] * p[3 * i + 1] +
                   (double)(&m.columns[2].x)[k] * p[3 * i + 2] + (&m.columns[3].x)[k];
      for (int k = 0; k < 3; k++)
        world[k] = (double)(&above.columns[0].x)[k] * local[0] + (double)(&above.columns[1].x)[k] * local[1] +
                   (double)(&above.columns[2].x)[k] * local[2] + (&above.columns[3].x)[k];
      for (int k = 0; k < 3; k++) {
        EXPECT_NEAR(world[k], ref.v[3 * i + k], 0.001) << frame.first << " vertex " << i << " axis " << k;
        worst = std::max(worst, std::fabs(world[k] - ref.v[3 * i + k]));
      }
    }
    printf("%s: max error %g\n", frame.first, worst);
  }
}

TEST(FbxMorphShared, ClipWeightTracksBlender440) {
  ExpectClipMorphsAsReference("blender440_shape_weight_anim_7400_binary.fbx",
                              {{"blender440_shape_weight_anim_5.obj", 5.0 / 24.0},
                               {"blender440_shape_weight_anim_15.obj", 15.0 / 24.0},
                               {"blender440_shape_weight_anim_25.obj", 25.0 / 24.0}});
}

TEST(FbxMorphShared, ClipWeightTracksMayaInbetween) {
  std::vector<std::pair<const char*, double>> frames;
  static const char* const names[8] = {"maya_blend_inbetween_1.obj",  "maya_blend_inbetween_30.obj",
                                       "maya_blend_inbetween_60.obj", "maya_blend_inbetween_65.obj",
                                       "maya_blend_inbetween_71.obj", "maya_blend_inbetween_80.obj",
                                       "maya_blend_inbetween_89.obj", "maya_blend_inbetween_120.obj"};
  static const int at[8] = {1, 30, 60, 65, 71, 80, 89, 120};
  for (int i = 0; i < 8; i++) frames.push_back({names[i], at[i] / 24.0});
  ExpectClipMorphsAsReference("maya_blend_inbetween_7500_binary.fbx", frames);
}

// The legacy layout's weight tracks: Shape children of the mesh, each its
// own channel, DeformPercent the mesh's property named as the shape,
// animated by a curve node on the 7.1 Geometry and by a take's channel of
// the 6.1 Model. The 7.1 file's curves (hand-read): TopH 100, 0, 100 at
// 1/24, 1 and 2.5 s, TopV 100, 0, 100 at 1/24, 5/3 and 3.75 s, the stack
// from 1/24 s; each shape alone at full weight 1, so the track is the
// percent / 100 at the keys. The 6.1 file is the same scene: its tracks
// agree with the 7.1 file's at every tenth of a second.
std::vector<std::vector<float>> LegacyCubeTracks(const char* file, const std::vector<double>& times) {
  std::vector<std::vector<float>> out;
  Shared s;
  if (!s.Load(file)) return out;
  const maniFbx* fbx = s.doc->fbx;
  const maniFbxOptions o = NativeOptions(fbx);
  const uint32_t model = maniFbx_GetMorphModel(fbx, 0);
  EXPECT_NE(model, UINT32_MAX);
  Builder bl;
  EXPECT_EQ(maniBuildFbxModelSkeleton(bl.b, fbx, model, &o).result, mani_success);
  File skf = bl.Built();
  maniSkeleton sk;
  EXPECT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.sampleRate = 240.0f;
  maniImportResult r = maniBuildFbxClip(bl.b, fbx, 0, &sk, &o, &co, nullptr);
  EXPECT_EQ(r.result, mani_success) << file << " " << r.reason << " " << r.item;
  if (r.result != mani_success) return out;
  File cf = bl.Built();
  maniClip cl;
  EXPECT_EQ(maniOpenClip(cf.data(), cf.size, &cl).result, mani_success);
  const uint32_t h = maniClip_FindFloatTrack(&cl, "pCube1/TopH", 11), v = maniClip_FindFloatTrack(&cl, "pCube1/TopV", 11);
  EXPECT_NE(h, MANI_NO_TRACK) << file;
  EXPECT_NE(v, MANI_NO_TRACK) << file;
  EXPECT_EQ(maniClip_GetFloatTrackCount(&cl), 2u) << file;  // no float track besides the weights
  if (h == MANI_NO_TRACK || v == MANI_NO_TRACK) return out;
  const double start = StackStart(fbx, 0);
  std::vector<float> floats(maniClip_GetFloatTrackCount(&cl) + 1);
  for (double t : times) {
    uint32_t written = 0;
    EXPECT_EQ(maniClip_SampleFloats(&cl, (float)(t - start), floats.data(), (uint32_t)floats.size(), &written),
              mani_success);
    out.push_back({floats[h], floats[v]});
  }
  return out;
}

TEST(FbxMorphShared, LegacyShapeWeightTracks) {
  const std::vector<double> keys = {1.0 / 24.0, 1.0, 2.5, 5.0 / 3.0};
  std::vector<std::vector<float>> at = LegacyCubeTracks("maya_blend_shape_cube_7100_ascii.fbx", keys);
  if (at.empty()) GTEST_SKIP() << "no ../shared/data";
  ASSERT_EQ(at.size(), 4u);
  EXPECT_NEAR(at[0][0], 1.0f, 1e-6f);  // TopH at 1/24 s
  EXPECT_NEAR(at[0][1], 1.0f, 1e-6f);  // TopV at 1/24 s
  EXPECT_NEAR(at[1][0], 0.0f, 1e-6f);  // TopH at 1 s
  EXPECT_NEAR(at[2][0], 1.0f, 1e-6f);  // TopH at 2.5 s
  EXPECT_NEAR(at[3][1], 0.0f, 1e-6f);  // TopV at 5/3 s
  std::vector<double> tenths;
  for (int k = 1; k <= 38; k++) tenths.push_back(k / 10.0);
  std::vector<std::vector<float>> a = LegacyCubeTracks("maya_blend_shape_cube_7100_ascii.fbx", tenths);
  std::vector<std::vector<float>> b = LegacyCubeTracks("maya_blend_shape_cube_6100_binary.fbx", tenths);
  ASSERT_EQ(a.size(), tenths.size());
  ASSERT_EQ(b.size(), tenths.size());
  for (size_t i = 0; i < tenths.size(); i++) {
    EXPECT_NEAR(a[i][0], b[i][0], 1e-5f) << tenths[i];
    EXPECT_NEAR(a[i][1], b[i][1], 1e-5f) << tenths[i];
  }
}

}  // namespace
