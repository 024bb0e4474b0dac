// Break-it probe of import.h's FBX clips and morph targets (issue #21):
// maniFbx_GetClipCount, maniFbx_GetClipName, maniBuildFbxClip,
// maniFbx_GetMorphCount, maniFbx_GetMorphModel, maniFbx_GetMorphTargetCount,
// maniBuildFbxMorphTargets and maniFbx_GetMorphWeights, written from the
// header and ../shared/spec/maul-anim-api.txt alone. Every refusal is
// checked to leave the builder holding what it held (a file built first,
// compared byte for byte), and the values are hand computed on tiny ASCII
// documents written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/morph.h"
#include "maul/anim/pose.h"
#include "maul/anim/rootmotion.h"

namespace {

const long long kTicks = 46186158000LL;  // KTime ticks a second

std::string Ticks(double seconds) { return std::to_string((long long)llround(seconds * (double)kTicks)); }

struct Doc {
  Builder bl;
  File bytes;
  maniFbx* f = nullptr;
  explicit Doc(const std::string& text) {
    bytes.Assign(text.data(), text.size());
    maniImportResult r = maniOpenFbx(bl.b, bytes.data(), bytes.size, &f);
    EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " offset " << r.offset;
  }
  ~Doc() { maniCloseFbx(f); }
};

// The builder still holds `held`, byte for byte.
void ExpectHolds(Builder& b, File& held, const char* what) {
  File now = b.Built();
  ASSERT_EQ(now.size, held.size) << what;
  EXPECT_EQ(memcmp(now.data(), held.data(), held.size), 0) << what;
}

// -- Clip documents ---------------------------------------------------------------------------

// A curve with linear keys (seconds, value), or constant (0x2) ones.
std::string CurveObject(long long id, const std::vector<std::pair<double, double>>& keys, bool constant = false) {
  std::string times, values;
  for (auto& k : keys) {
    times += (times.empty() ? "" : ",") + Ticks(k.first);
    char v[64];
    snprintf(v, sizeof v, "%.17g", k.second);
    values += (values.empty() ? "" : ",") + std::string(v);
  }
  std::string n = std::to_string(keys.size());
  return "\tAnimationCurve: " + std::to_string(id) + ", \"AnimCurve::\", \"\" {\n\t\tDefault: 0\n" +
         "\t\tKeyTime: *" + n + " {\n\t\t\ta: " + times + "\n\t\t}\n" +
         "\t\tKeyValueFloat: *" + n + " {\n\t\t\ta: " + values + "\n\t\t}\n" +
         "\t\tKeyAttrFlags: *1 {\n\t\t\ta: " + (constant ? "2" : "4") + "\n\t\t}\n" +
         "\t\tKeyAttrDataFloat: *4 {\n\t\t\ta: 0,0,0,0\n\t\t}\n" +
         "\t\tKeyAttrRefCount: *1 {\n\t\t\ta: " + n + "\n\t\t}\n\t}\n";
}

// A Lcl Translation curve node (id) in a layer with one curve on a component.
struct TNode {
  long long id, layer;
  char component;  // 'X', 'Y' or 'Z'
  std::vector<std::pair<double, double>> keys;
};

// Model Bone (rest translation `rest`) with stacks: "Take" (20, LocalStart/Stop
// given) holding layer 30 (and `extraLayers`), and "Second" (21) without layers.
std::string ClipDoc(const std::vector<TNode>& nodes, double start, double stop, const std::string& extraLayers = "",
                    const std::string& extraLinks = "", const std::string& rest = "0,0,0") {
  std::string s = "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\nObjects:  {\n";
  s += "\tModel: 10, \"Model::Bone\", \"LimbNode\" {\n\t\tProperties70:  {\n"
       "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\"," + rest + "\n\t\t}\n\t}\n";
  s += "\tAnimationStack: 20, \"AnimStack::Take\", \"\" {\n\t\tProperties70:  {\n"
       "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\"," + Ticks(start) + "\n"
       "\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\"," + Ticks(stop) + "\n\t\t}\n\t}\n";
  s += "\tAnimationStack: 21, \"AnimStack::Second\", \"\" {\n\t}\n";
  s += "\tAnimationLayer: 30, \"AnimLayer::Base\", \"\" {\n\t}\n" + extraLayers;
  std::string conns = "\tC: \"OO\",10,0\n\tC: \"OO\",30,20\n" + extraLinks;
  long long curve = 1000;
  for (const TNode& n : nodes) {
    s += "\tAnimationCurveNode: " + std::to_string(n.id) + ", \"AnimCurveNode::T\", \"\" {\n\t\tProperties70:  {\n";
    for (const char* c : {"X", "Y", "Z"}) s += std::string("\t\t\tP: \"d|") + c + "\", \"Number\", \"\", \"A\",0\n";
    s += "\t\t}\n\t}\n";
    conns += "\tC: \"OO\"," + std::to_string(n.id) + "," + std::to_string(n.layer) + "\n";
    conns += "\tC: \"OP\"," + std::to_string(n.id) + ",10, \"Lcl Translation\"\n";
    s += CurveObject(curve, n.keys, n.keys.size() == 1);
    conns += "\tC: \"OP\"," + std::to_string(curve) + "," + std::to_string(n.id) + ", \"d|" + n.component + "\"\n";
    curve++;
  }
  return s + "}\nConnections:  {\n" + conns + "}\n";
}

// The document with its model skeleton built in the file's own axes and units.
struct ClipCase {
  Doc d;
  File skelFile;
  maniSkeleton sk{};
  maniFbxOptions opt = maniDefaultFbxOptions();
  maniImportClipOptions co = maniDefaultImportClipOptions();
  explicit ClipCase(const std::string& text) : d(text) {
    if (d.f == nullptr) return;
    maniFbxSettings st;
    EXPECT_EQ(maniFbx_ReadSettings(d.f, &st), mani_success);
    opt.up = st.up;
    opt.front = st.front;
    opt.unitScale = 1.0f / st.unitMetres;
    EXPECT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, 0, &opt).result, mani_success);
    skelFile = d.bl.Built();
    EXPECT_EQ(maniOpenSkeleton(skelFile.data(), skelFile.size, &sk).result, mani_success);
  }
  maniImportResult Build(uint32_t clip = 0, uint32_t* bound = nullptr) {
    return maniBuildFbxClip(d.bl.b, d.f, clip, &sk, &opt, &co, bound);
  }
};

// The bone's local translation of a built clip at a time, and its duration.
struct Sampled {
  maniVec3 t;
  float duration;
};
Sampled SampleBone(ClipCase& c, float time) {
  Sampled out{};
  File file = c.d.bl.Built();
  maniClip cl;
  EXPECT_EQ(maniOpenClip(file.data(), file.size, &cl).result, mani_success);
  std::vector<uint64_t> memory(maniSkeleton_GetPoseSize(&c.sk) / 8 + 8);
  void* aligned = (void*)(((uintptr_t)memory.data() + 31) & ~(uintptr_t)31);
  maniPose* pose = nullptr;
  EXPECT_EQ(maniInitPose(&c.sk, aligned, maniSkeleton_GetPoseSize(&c.sk), &pose), mani_success);
  EXPECT_EQ(maniClip_Sample(&cl, &c.sk, time, pose), mani_success);
  out.t = maniPose_GetLocal(pose, 0).translation;
  out.duration = maniClip_GetDuration(&cl);
  return out;
}

TEST(FbxClipProbe, CountAndNames) {
  Doc d(ClipDoc({{40, 30, 'X', {{0, 0}, {1, 2}}}}, 0, 1));
  ASSERT_NE(d.f, nullptr);
  EXPECT_EQ(maniFbx_GetClipCount(nullptr), 0u);
  EXPECT_EQ(maniFbx_GetClipCount(d.f), 2u);
  size_t n = 99;
  const char* s = maniFbx_GetClipName(d.f, 0, &n);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(std::string(s, n), "Take");  // without the class
  s = maniFbx_GetClipName(d.f, 1, &n);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(std::string(s, n), "Second");
  n = 99;
  EXPECT_EQ(maniFbx_GetClipName(d.f, 2, &n), nullptr);
  EXPECT_EQ(n, 0u);  // "NULL (length 0) past the count"
  n = 99;
  EXPECT_EQ(maniFbx_GetClipName(d.f, UINT32_MAX, &n), nullptr);
  EXPECT_EQ(n, 0u);
  n = 99;
  EXPECT_EQ(maniFbx_GetClipName(nullptr, 0, &n), nullptr);
}

// Each refusal of maniBuildFbxClip after a built clip: the listed code, the
// builder still holding the clip, *boundOut unchanged.
TEST(FbxClipProbe, RefusalsKeepWhatTheBuilderHeld) {
  ClipCase c(ClipDoc({{40, 30, 'X', {{0, 0}, {1, 2}}}}, 0, 1));
  ASSERT_NE(c.d.f, nullptr);
  c.co.sampleRate = 4.0f;
  ASSERT_EQ(c.Build().result, mani_success);
  File held = c.d.bl.Built();
  maniBuilder* b = c.d.bl.b;
  uint32_t bound = 77;
  auto expect = [&](maniImportResult r, maniResult want, const char* what) {
    EXPECT_EQ(r.result, want) << what;
    EXPECT_EQ(bound, 77u) << what;
    ExpectHolds(c.d.bl, held, what);
  };
  expect(maniBuildFbxClip(b, nullptr, 0, &c.sk, &c.opt, &c.co, &bound), mani_errorInvalid, "NULL fbx");
  expect(maniBuildFbxClip(b, c.d.f, 0, nullptr, &c.opt, &c.co, &bound), mani_errorInvalid, "NULL skeleton");
  expect(maniBuildFbxClip(b, c.d.f, 0, &c.sk, nullptr, &c.co, &bound), mani_errorInvalid, "NULL options");
  expect(maniBuildFbxClip(b, c.d.f, 0, &c.sk, &c.opt, nullptr, &bound), mani_errorInvalid, "NULL clip options");
  EXPECT_EQ(maniBuildFbxClip(nullptr, c.d.f, 0, &c.sk, &c.opt, &c.co, &bound).result, mani_errorInvalid);
  EXPECT_EQ(bound, 77u);
  expect(maniBuildFbxClip(b, c.d.f, 2, &c.sk, &c.opt, &c.co, &bound), mani_errorInvalid, "clip past the count");
  expect(maniBuildFbxClip(b, c.d.f, UINT32_MAX, &c.sk, &c.opt, &c.co, &bound), mani_errorInvalid, "clip UINT32_MAX");

  // options out of range (checked as maniGltfOptions are)
  struct OptCase {
    const char* what;
    void (*patch)(maniFbxOptions*);
  } opts[] = {
      {"cookie", [](maniFbxOptions* o) { o->cookie = 0; }},
      {"cookieEnd", [](maniFbxOptions* o) { o->cookieEnd = 0; }},
      {"up 6", [](maniFbxOptions* o) { o->up = 6; }},
      {"front 6", [](maniFbxOptions* o) { o->front = 6; }},
      {"front = up", [](maniFbxOptions* o) { o->front = o->up; }},
      {"front = -up", [](maniFbxOptions* o) { o->front = o->up ^ 1u; }},
      {"unit 0", [](maniFbxOptions* o) { o->unitScale = 0.0f; }},
      {"unit -1", [](maniFbxOptions* o) { o->unitScale = -1.0f; }},
      {"unit nan", [](maniFbxOptions* o) { o->unitScale = std::numeric_limits<float>::quiet_NaN(); }},
      {"unit inf", [](maniFbxOptions* o) { o->unitScale = std::numeric_limits<float>::infinity(); }},
      {"fold 2", [](maniFbxOptions* o) { o->foldPlacement = 2; }},
      {"reserved 0", [](maniFbxOptions* o) { o->reserved[0] = 1; }},
      {"reserved 1", [](maniFbxOptions* o) { o->reserved[1] = 1; }},
  };
  for (const OptCase& oc : opts) {
    maniFbxOptions bad = c.opt;
    oc.patch(&bad);
    expect(maniBuildFbxClip(b, c.d.f, 0, &c.sk, &bad, &c.co, &bound), mani_errorInvalid, oc.what);
  }
  {
    maniFbxOptions bad = c.opt;
    bad.abiVersion += 1;
    maniImportResult r = maniBuildFbxClip(b, c.d.f, 0, &c.sk, &bad, &c.co, &bound);
    EXPECT_NE(r.result, mani_success) << "abi";
    ExpectHolds(c.d.bl, held, "abi");
  }

  // clip settings out of range, as maniBuildGltfClip: a rate not finite or negative, a loop, basis or
  // root motion source field out of range, a root motion bone past the skeleton
  struct CoCase {
    const char* what;
    void (*patch)(maniImportClipOptions*);
  } cos[] = {
      {"cookie", [](maniImportClipOptions* o) { o->cookie = 0; }},
      {"cookieEnd", [](maniImportClipOptions* o) { o->cookieEnd = 0; }},
      {"rate -1", [](maniImportClipOptions* o) { o->sampleRate = -1.0f; }},
      {"rate -0 tiny", [](maniImportClipOptions* o) { o->sampleRate = -1e-30f; }},
      {"rate nan", [](maniImportClipOptions* o) { o->sampleRate = std::numeric_limits<float>::quiet_NaN(); }},
      {"rate inf", [](maniImportClipOptions* o) { o->sampleRate = std::numeric_limits<float>::infinity(); }},
      {"loop 2", [](maniImportClipOptions* o) { o->loop = 2; }},
      {"additive 3", [](maniImportClipOptions* o) { o->additive = 3; }},
      {"root bone 1", [](maniImportClipOptions* o) { o->rootMotionBone = 1; o->rootMotionFlags = MANI_ROOT_MOTION_X; }},
      {"root flags 0", [](maniImportClipOptions* o) { o->rootMotionBone = 0; o->rootMotionFlags = 0; }},
      {"root flags 32", [](maniImportClipOptions* o) { o->rootMotionBone = 0; o->rootMotionFlags = 32; }},
      {"root both rotations",
       [](maniImportClipOptions* o) {
         o->rootMotionBone = 0;
         o->rootMotionFlags = MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION;
       }},
      {"reserved", [](maniImportClipOptions* o) { o->reserved = 1; }},
  };
  for (const CoCase& cc : cos) {
    maniImportClipOptions bad = c.co;
    cc.patch(&bad);
    expect(maniBuildFbxClip(b, c.d.f, 0, &c.sk, &c.opt, &bad, &bound), mani_errorInvalid, cc.what);
  }
  {
    maniImportClipOptions bad = c.co;
    bad.abiVersion += 1;
    maniImportResult r = maniBuildFbxClip(b, c.d.f, 0, &c.sk, &c.opt, &bad, &bound);
    EXPECT_NE(r.result, mani_success) << "clip abi";
    ExpectHolds(c.d.bl, held, "clip abi");
  }
  // flags are ignored without a bone
  {
    maniImportClipOptions ok = c.co;
    ok.rootMotionFlags = 999;
    EXPECT_EQ(maniBuildFbxClip(b, c.d.f, 0, &c.sk, &c.opt, &ok, nullptr).result, mani_success)
        << "flags ignored without a bone";
  }
}

// A format refusal (root motion on a bone the clip leaves at rest) keeps the clip held.
TEST(FbxClipProbe, FormatRefusalKeepsWhatTheBuilderHeld) {
  ClipCase c(ClipDoc({{40, 30, 'X', {{0, 0}, {1, 0}}}}, 0, 1));
  ASSERT_NE(c.d.f, nullptr);
  ASSERT_EQ(c.Build().result, mani_success);
  File held = c.d.bl.Built();
  c.co.rootMotionBone = 0;
  c.co.rootMotionFlags = MANI_ROOT_MOTION_X;
  uint32_t bound = 55;
  maniImportResult r = c.Build(0, &bound);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuild);
  EXPECT_EQ(bound, 55u);
  ExpectHolds(c.d.bl, held, "root motion refused");
}

// Lcl Translation Y linear from 1 at 0 s to 5 at 1 s, sampled at 4 a second:
// the grid's samples 1, 2, 3, 4, 5 at 0, 0.25 ... 1 s.
TEST(FbxClipProbe, LinearCurveAtTheGrid) {
  ClipCase c(ClipDoc({{40, 30, 'Y', {{0, 1}, {1, 5}}}}, 0, 1));
  ASSERT_NE(c.d.f, nullptr);
  c.co.sampleRate = 4.0f;
  uint32_t bound = 99;
  maniImportResult r = c.Build(0, &bound);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  EXPECT_EQ(bound, 1u);
  for (int k = 0; k <= 4; k++) {
    Sampled s = SampleBone(c, 0.25f * (float)k);
    EXPECT_NEAR(s.t.y, 1.0f + (float)k, 1e-5f) << k;
    EXPECT_NEAR(s.t.x, 0.0f, 1e-6f);
    EXPECT_NEAR(s.duration, 1.0f, 1e-6f);
  }
}

// The default rate: the keys' shortest interval (0.25 s) gives 4 a second, so
// the grid's samples are at 0.125 s's neighbours and 0.125 s is their mean.
TEST(FbxClipProbe, KeysOwnRate) {
  ClipCase c(ClipDoc({{40, 30, 'Y', {{0, 0}, {0.25, 1}, {1, 4}}}}, 0, 1));
  ASSERT_NE(c.d.f, nullptr);
  ASSERT_EQ(c.Build().result, mani_success);
  EXPECT_NEAR(SampleBone(c, 0.25f).t.y, 1.0f, 1e-5f);
  EXPECT_NEAR(SampleBone(c, 0.5f).t.y, 2.0f, 1e-5f);
  EXPECT_NEAR(SampleBone(c, 0.125f).t.y, 0.5f, 1e-5f);
}

// The stack's local time starts the grid: LocalStart 0.5 s, LocalStop 1 s
// over keys from 0 to 1 s: the clip lasts 0.5 s and its time 0 is the curve's 0.5 s (3).
TEST(FbxClipProbe, GridFromTheStacksStart) {
  ClipCase c(ClipDoc({{40, 30, 'Y', {{0, 1}, {1, 5}}}}, 0.5, 1));
  ASSERT_NE(c.d.f, nullptr);
  c.co.sampleRate = 4.0f;
  ASSERT_EQ(c.Build().result, mani_success);
  Sampled s0 = SampleBone(c, 0.0f);
  EXPECT_NEAR(s0.duration, 0.5f, 1e-6f);
  EXPECT_NEAR(s0.t.y, 3.0f, 1e-5f);
  EXPECT_NEAR(SampleBone(c, 0.25f).t.y, 4.0f, 1e-5f);
  EXPECT_NEAR(SampleBone(c, 0.5f).t.y, 5.0f, 1e-5f);
}

// A curve of one key holds its value everywhere: Z 6 from the rest 0.
TEST(FbxClipProbe, ConstantKey) {
  ClipCase c(ClipDoc({{40, 30, 'Z', {{0.25, 6}}}}, 0, 1));
  ASSERT_NE(c.d.f, nullptr);
  c.co.sampleRate = 4.0f;
  uint32_t bound = 0;
  ASSERT_EQ(c.Build(0, &bound).result, mani_success);
  EXPECT_EQ(bound, 1u);
  for (float t : {0.0f, 0.25f, 0.6f, 1.0f}) EXPECT_NEAR(SampleBone(c, t).t.z, 6.0f, 1e-5f) << t;
}

// A second layer at Weight 50 holding X at 6 over a base going 0 to 2 (b = 2 t).
// Override passthrough (BlendMode 2): x = b + (6 - b) / 2: 3 at 0, 3.5 at 0.5 s, 4 at 1 s.
// Override (BlendMode 1) replaces whatever its weight, as ufbx evaluates it (ufbx.c,
// ufbxi_combine_anim_layer: a layer neither additive nor blended takes the value): 6, 6, 6.
// Without a BlendMode the layer is additive (FBX's default, 0): x = b + 6 / 2: 3, 4, 5.
// (The probe first left BlendMode out expecting an override; the code was right.)
TEST(FbxClipProbe, LayerWeightFiftyPercent) {
  struct Mode {
    const char* blend;
    float at0, at05, at1;
  } modes[] = {{"\t\t\tP: \"BlendMode\", \"enum\", \"\", \"\",2\n", 3.0f, 3.5f, 4.0f},
               {"\t\t\tP: \"BlendMode\", \"enum\", \"\", \"\",1\n", 6.0f, 6.0f, 6.0f},
               {"", 3.0f, 4.0f, 5.0f}};
  for (const Mode& m : modes) {
    std::string layer = std::string("\tAnimationLayer: 31, \"AnimLayer::Top\", \"\" {\n\t\tProperties70:  {\n") +
                        "\t\t\tP: \"Weight\", \"Number\", \"\", \"A\",50\n" + m.blend + "\t\t}\n\t}\n";
    ClipCase c(ClipDoc({{40, 30, 'X', {{0, 0}, {1, 2}}}, {41, 31, 'X', {{0, 6}, {1, 6}}}}, 0, 1, layer,
                       "\tC: \"OO\",31,20\n"));
    ASSERT_NE(c.d.f, nullptr);
    c.co.sampleRate = 2.0f;
    ASSERT_EQ(c.Build().result, mani_success);
    EXPECT_NEAR(SampleBone(c, 0.0f).t.x, m.at0, 1e-5f) << m.blend;
    EXPECT_NEAR(SampleBone(c, 0.5f).t.x, m.at05, 1e-5f) << m.blend;
    EXPECT_NEAR(SampleBone(c, 1.0f).t.x, m.at1, 1e-5f) << m.blend;
  }
}


// Limits: a rate so high the grid would be finer than a tick is refused (or
// runs out of memory) without a crash, keeping the held clip.
TEST(FbxClipProbe, HugeRateRefusedOrBuilt) {
  ClipCase c(ClipDoc({{40, 30, 'X', {{0, 0}, {1, 2}}}}, 0, 1));
  ASSERT_NE(c.d.f, nullptr);
  c.co.sampleRate = 4.0f;
  ASSERT_EQ(c.Build().result, mani_success);
  File held = c.d.bl.Built();
  c.co.sampleRate = std::numeric_limits<float>::max();
  maniImportResult r = c.Build();
  if (r.result != mani_success) {
    EXPECT_TRUE(r.result == mani_errorFormat || r.result == mani_errorCapacity) << r.result;
    if (r.result == mani_errorFormat) {  // "Build with the build reason as item for a timing"
      EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuild);
      EXPECT_EQ(r.item, (uint64_t)maniBuildReasonTiming);
    }
    ExpectHolds(c.d.bl, held, "huge rate");
  }
}

// -- Morph documents --------------------------------------------------------------------------

// A mesh of 2 control points under model Face, a BlendShape with channel
// 310 "Open" (shapes A at FullWeights 50 and B at 100, DeformPercent 75)
// and channel 320 "Blink" (one shape C, no FullWeights, DeformPercent 40).
const char* kMorph = R"(; FBX 7.4.0 project file
Objects:  {
	Geometry: 100, "Geometry::Mesh", "Mesh" {
		Vertices: *6 {
			a: 0,0,0,1,0,0
		}
	}
	Model: 200, "Model::Face", "Mesh" {
	}
	Deformer: 300, "Deformer::Blend", "BlendShape" {
	}
	Deformer: 310, "SubDeformer::Open", "BlendShapeChannel" {
		Properties70:  {
			P: "DeformPercent", "Number", "", "A",75
		}
		FullWeights: *2 {
			a: 50,100
		}
	}
	Deformer: 320, "SubDeformer::Blink", "BlendShapeChannel" {
		Properties70:  {
			P: "DeformPercent", "Number", "", "A",40
		}
	}
	Geometry: 400, "Geometry::A", "Shape" {
		Indexes: *1 {
			a: 0
		}
		Vertices: *3 {
			a: 2,0,0
		}
	}
	Geometry: 410, "Geometry::B", "Shape" {
		Indexes: *1 {
			a: 0
		}
		Vertices: *3 {
			a: 4,0,0
		}
	}
	Geometry: 420, "Geometry::C", "Shape" {
		Indexes: *1 {
			a: 1
		}
		Vertices: *3 {
			a: 0,10,0
		}
	}
}
Connections:  {
	C: "OO",200,0
	C: "OO",100,200
	C: "OO",300,100
	C: "OO",310,300
	C: "OO",320,300
	C: "OO",400,310
	C: "OO",410,310
	C: "OO",420,320
}
)";

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(FbxMorphProbe, CountsAndModel) {
  Doc d(kMorph);
  ASSERT_NE(d.f, nullptr);
  EXPECT_EQ(maniFbx_GetMorphCount(d.f), 1u);
  uint32_t model = maniFbx_GetMorphModel(d.f, 0);
  ASSERT_NE(model, UINT32_MAX);
  size_t n = 0;
  const char* s = maniFbx_GetModelBoneName(d.f, model, &n);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(std::string(s, n), "Face");
  EXPECT_EQ(maniFbx_GetMorphTargetCount(d.f, 0), 3u);  // A, B and C
  EXPECT_EQ(maniFbx_GetMorphModel(d.f, UINT32_MAX), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetMorphTargetCount(d.f, UINT32_MAX), 0u);
  EXPECT_EQ(maniFbx_GetMorphCount(nullptr), 0u);
}

// DeformPercent 75 between in-betweens at 50 and 100: halfway from A to B, so
// A 0.5 and B 0.5; Blink's 40 on its one shape at 1: C 0.4.
TEST(FbxMorphProbe, InBetweenRestWeights) {
  Doc d(kMorph);
  ASSERT_NE(d.f, nullptr);
  float w[4] = {9, 9, 9, 9};
  uint32_t count = 0;
  maniImportResult r = maniFbx_GetMorphWeights(d.f, 0, w, 4, &count);
  ASSERT_EQ(r.result, mani_success) << r.reason;
  EXPECT_EQ(count, 3u);
  EXPECT_NEAR(w[0], 0.5f, 1e-6f);
  EXPECT_NEAR(w[1], 0.5f, 1e-6f);
  EXPECT_NEAR(w[2], 0.4f, 1e-6f);
  EXPECT_EQ(w[3], 9.0f);
  // the built set: targets A (0.5), B (1), C (1), and the morphed vertex 0 at those weights
  // is 0.5 * 2 + 0.5 * 4 = 3 file units (cm): 0.03 m
  Builder b;
  maniFbxOptions o = maniDefaultFbxOptions();
  ASSERT_EQ(maniBuildFbxMorphTargets(b.b, d.f, 0, &o).result, mani_success);
  File file = b.Built();
  maniMorphTargets t;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &t).result, mani_success);
  ASSERT_EQ(maniMorphTargets_GetTargetCount(&t), 3u);
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&t, 0), 0.5f);
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&t, 1), 1.0f);
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&t, 2), 1.0f);
  size_t n = 0;
  const char* name = maniMorphTargets_GetTargetName(&t, 0, &n);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name, n), "A");
  std::vector<float> in(6, 0.0f), out(6, 0.0f);
  maniMorphStream s{};
  s.semantic = maniMorphPosition;
  s.components = 3;
  s.inputStride = 12;
  s.outputStride = 12;
  s.input = in.data();
  s.output = out.data();
  maniMorphJob job{};
  job.targets = &t;
  job.targetWeights = w;
  job.streams = &s;
  job.streamCount = 1;
  job.vertexBegin = 0;
  job.vertexEnd = 2;
  ASSERT_EQ(maniApplyMorphTargets(&job), mani_success);
  EXPECT_NEAR(out[0], 0.03f, 1e-7f);
  EXPECT_NEAR(out[4], 0.04f, 1e-7f);  // C 0.4 of 10 cm
}

// Other DeformPercents through the same in-betweens: 25 (below the first): A 0.5, B 0;
// 50: A 1; 100: B 1; 0: nothing.
TEST(FbxMorphProbe, InBetweenWalk) {
  struct Case {
    const char* percent;
    float a, b;
  } cases[] = {{"25", 0.5f, 0.0f}, {"50", 1.0f, 0.0f}, {"100", 0.0f, 1.0f}, {"0", 0.0f, 0.0f}};
  for (const Case& k : cases) {
    Doc d(Replace(kMorph, "\"A\",75", std::string("\"A\",") + k.percent));
    ASSERT_NE(d.f, nullptr);
    float w[3] = {9, 9, 9};
    ASSERT_EQ(maniFbx_GetMorphWeights(d.f, 0, w, 3, nullptr).result, mani_success) << k.percent;
    EXPECT_NEAR(w[0], k.a, 1e-6f) << k.percent;
    EXPECT_NEAR(w[1], k.b, 1e-6f) << k.percent;
  }
}

TEST(FbxMorphProbe, WeightsMeasureAndCapacity) {
  Doc d(kMorph);
  ASSERT_NE(d.f, nullptr);
  uint32_t count = 0;
  maniImportResult r = maniFbx_GetMorphWeights(d.f, 0, nullptr, 0, &count);
  EXPECT_EQ(r.result, mani_errorCapacity);  // the count 3 is above capacity 0
  EXPECT_EQ(count, 3u);
  float w[3] = {7, 7, 7};
  count = 0;
  r = maniFbx_GetMorphWeights(d.f, 0, w, 1, &count);
  EXPECT_EQ(r.result, mani_errorCapacity);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(w[0], 0.0f);  // the array (its capacity) zeroed
  EXPECT_EQ(w[1], 7.0f);
  w[0] = 7;
  r = maniFbx_GetMorphWeights(d.f, 0, w, 2, nullptr);
  EXPECT_EQ(r.result, mani_errorCapacity);
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_EQ(w[1], 0.0f);
  EXPECT_EQ(w[2], 7.0f);
  // refusals: the array and count unchanged
  float u[3] = {7, 7, 7};
  count = 44;
  EXPECT_EQ(maniFbx_GetMorphWeights(nullptr, 0, u, 3, &count).result, mani_errorInvalid);
  EXPECT_EQ(maniFbx_GetMorphWeights(d.f, 0, nullptr, 1, &count).result, mani_errorInvalid);
  EXPECT_EQ(maniFbx_GetMorphWeights(d.f, 1, u, 3, &count).result, mani_errorInvalid);
  EXPECT_EQ(maniFbx_GetMorphWeights(d.f, UINT32_MAX, u, 3, &count).result, mani_errorInvalid);
  EXPECT_EQ(count, 44u);
  EXPECT_EQ(u[0], 7.0f);
  // a FullWeights value not finite: Data, array and count unchanged
  Doc bad(Replace(kMorph, "a: 50,100", "a: 50,nan"));
  ASSERT_NE(bad.f, nullptr);
  r = maniFbx_GetMorphWeights(bad.f, 0, u, 3, &count);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  EXPECT_EQ(r.item, 0u);  // the channel's index in the set
  EXPECT_EQ(count, 44u);
  EXPECT_EQ(u[0], 7.0f);
}

TEST(FbxMorphProbe, RefusalsKeepWhatTheBuilderHeld) {
  Doc d(kMorph);
  ASSERT_NE(d.f, nullptr);
  maniFbxOptions o = maniDefaultFbxOptions();
  Builder b;
  ASSERT_EQ(maniBuildFbxMorphTargets(b.b, d.f, 0, &o).result, mani_success);
  File held = b.Built();
  EXPECT_EQ(maniBuildFbxMorphTargets(nullptr, d.f, 0, &o).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, nullptr, 0, &o).result, mani_errorInvalid);
  ExpectHolds(b, held, "NULL fbx");
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.f, 0, nullptr).result, mani_errorInvalid);
  ExpectHolds(b, held, "NULL options");
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.f, 1, &o).result, mani_errorInvalid);
  ExpectHolds(b, held, "past the count");
  EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.f, UINT32_MAX, &o).result, mani_errorInvalid);
  ExpectHolds(b, held, "UINT32_MAX");
  for (int k = 0; k < 7; k++) {
    maniFbxOptions bad = o;
    switch (k) {
      case 0: bad.cookie = 0; break;
      case 1: bad.cookieEnd = 0; break;
      case 2: bad.up = 9; break;
      case 3: bad.front = bad.up ^ 1u; break;
      case 4: bad.unitScale = std::numeric_limits<float>::quiet_NaN(); break;
      case 5: bad.foldPlacement = 3; break;
      case 6: bad.reserved[1] = 5; break;
    }
    EXPECT_EQ(maniBuildFbxMorphTargets(b.b, d.f, 0, &bad).result, mani_errorInvalid) << k;
    ExpectHolds(b, held, "options");
  }
  // format refusals keep it too: a full weight of 0 (Build), Vertices not three per Indexes (Property),
  // FullWeights not finite (Data)
  struct F {
    const char* from;
    const char* to;
    uint32_t reason;
  } fs[] = {{"a: 50,100", "a: 0,100", (uint32_t)maniImportReasonBuild},
            {"Vertices: *3 {\n\t\t\ta: 4,0,0", "Vertices: *2 {\n\t\t\ta: 4,0", (uint32_t)maniImportReasonProperty},
            {"a: 50,100", "a: 50,inf", (uint32_t)maniImportReasonData}};
  for (const F& f : fs) {
    Doc e(Replace(kMorph, f.from, f.to));
    ASSERT_NE(e.f, nullptr);
    maniImportResult r = maniBuildFbxMorphTargets(b.b, e.f, 0, &o);
    EXPECT_EQ(r.result, mani_errorFormat) << f.to;
    EXPECT_EQ(r.reason, f.reason) << f.to;
    ExpectHolds(b, held, f.to);
  }
}

// "as maniMorphTargets_ComputeTargetWeights walks them": the rest weights are the
// built set's own walk of the channel weights DeformPercent / 100, also past
// the last full weight (150) and below 0 (-50), where the walk extrapolates.
TEST(FbxMorphProbe, RestWeightsAreTheBuiltSetsWalk) {
  for (const char* percent : {"150", "-50", "75", "10", "100"}) {
    Doc d(Replace(kMorph, "\"A\",75", std::string("\"A\",") + percent));
    ASSERT_NE(d.f, nullptr);
    float w[3] = {9, 9, 9};
    ASSERT_EQ(maniFbx_GetMorphWeights(d.f, 0, w, 3, nullptr).result, mani_success) << percent;
    Builder b;
    maniFbxOptions o = maniDefaultFbxOptions();
    ASSERT_EQ(maniBuildFbxMorphTargets(b.b, d.f, 0, &o).result, mani_success);
    File file = b.Built();
    maniMorphTargets t;
    ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &t).result, mani_success);
    float channels[2] = {(float)(atof(percent) / 100.0), 0.4f};
    float walked[3];
    ASSERT_EQ(maniMorphTargets_ComputeTargetWeights(&t, channels, walked, 3, nullptr), mani_success);
    for (int i = 0; i < 3; i++) EXPECT_NEAR(w[i], walked[i], 1e-6f) << percent << " target " << i;
  }
}

// Shapes without names: "a target as its shape, else as its channel with '/'
// and its index past the first": Open and Open/1.
TEST(FbxMorphProbe, UnnamedShapesNamedByTheirChannel) {
  std::string text = Replace(Replace(kMorph, "\"Geometry::A\"", "\"Geometry::\""), "\"Geometry::B\"", "\"Geometry::\"");
  Doc d(text);
  ASSERT_NE(d.f, nullptr);
  Builder b;
  maniFbxOptions o = maniDefaultFbxOptions();
  maniImportResult r = maniBuildFbxMorphTargets(b.b, d.f, 0, &o);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  File file = b.Built();
  maniMorphTargets t;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &t).result, mani_success);
  ASSERT_EQ(maniMorphTargets_GetTargetCount(&t), 3u);
  const char* want[] = {"Open", "Open/1", "C"};
  for (uint32_t k = 0; k < 3; k++) {
    size_t n = 0;
    const char* s = maniMorphTargets_GetTargetName(&t, k, &n);
    EXPECT_EQ(s == nullptr ? std::string("(null)") : std::string(s, n), want[k]) << k;
  }
}

// kMorph with a stack animating channel Open's DeformPercent 0 to 100 over 1 s.
std::string MorphClipText() {
  std::string text = kMorph;
  size_t objectsEnd = text.find("}\nConnections:");
  EXPECT_NE(objectsEnd, std::string::npos);
  if (objectsEnd == std::string::npos) return text;
  text.insert(objectsEnd,
              "\tAnimationStack: 20, \"AnimStack::Take\", \"\" {\n\t\tProperties70:  {\n"
              "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",0\n"
              "\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\"," + Ticks(1) + "\n\t\t}\n\t}\n"
              "\tAnimationLayer: 30, \"AnimLayer::Base\", \"\" {\n\t}\n"
              "\tAnimationCurveNode: 40, \"AnimCurveNode::DeformPercent\", \"\" {\n\t\tProperties70:  {\n"
              "\t\t\tP: \"d|DeformPercent\", \"Number\", \"\", \"A\",0\n\t\t}\n\t}\n" +
                  CurveObject(1000, {{0, 0}, {1, 100}}));
  text = Replace(text, "\tC: \"OO\",420,320\n",
                 "\tC: \"OO\",420,320\n\tC: \"OO\",30,20\n\tC: \"OO\",40,30\n"
                 "\tC: \"OP\",40,310, \"DeformPercent\"\n\tC: \"OP\",1000,40, \"d|DeformPercent\"\n");
  return text;
}

// An animated DeformPercent (0 to 100 over 1 s) on channel Open gives the
// clip weight tracks Face/A and Face/B walked through the in-betweens: at
// 0.25 s (25) A 0.5, B 0; at 0.5 s A 1, B 0; at 0.75 s A 0.5, B 0.5; at 1 s A 0, B 1.
// The reference: maniFbx_GetMorphModel ("its bone name begins the clips' weight tracks for it
// (<mesh>/<target>)") and maniFbx_GetMorphWeights ("as the clips' weight tracks are").
TEST(FbxMorphProbe, ClipWeightTracks) {
  std::string text = MorphClipText();
  Doc d(text);
  ASSERT_NE(d.f, nullptr);
  ASSERT_EQ(maniFbx_GetClipCount(d.f), 1u);
  maniFbxOptions o = maniDefaultFbxOptions();
  uint32_t model = maniFbx_GetMorphModel(d.f, 0);
  ASSERT_NE(model, UINT32_MAX);
  ASSERT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, model, &o).result, mani_success);
  File skf = d.bl.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.sampleRate = 4.0f;
  maniImportResult r = maniBuildFbxClip(d.bl.b, d.f, 0, &sk, &o, &co, nullptr);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  File cf = d.bl.Built();
  maniClip cl;
  ASSERT_EQ(maniOpenClip(cf.data(), cf.size, &cl).result, mani_success);
  uint32_t a = maniClip_FindFloatTrack(&cl, "Face/A", 6);
  uint32_t bt = maniClip_FindFloatTrack(&cl, "Face/B", 6);
  ASSERT_NE(a, MANI_NO_TRACK);
  ASSERT_NE(bt, MANI_NO_TRACK);
  const float expect[][3] = {{0.25f, 0.5f, 0.0f}, {0.5f, 1.0f, 0.0f}, {0.75f, 0.5f, 0.5f}, {1.0f, 0.0f, 1.0f}};
  std::vector<float> v(maniClip_GetFloatTrackCount(&cl) + 1);
  for (const auto& e : expect) {
    uint32_t written = 0;
    ASSERT_EQ(maniClip_SampleFloats(&cl, e[0], v.data(), (uint32_t)v.size(), &written), mani_success);
    EXPECT_NEAR(v[a], e[1], 1e-5f) << e[0];
    EXPECT_NEAR(v[bt], e[2], 1e-5f) << e[0];
  }
}

// Two animated channels whose targets share a name (shape C renamed A): the
// weight tracks would repeat Face/A, refused as Name with the mesh's model as
// item, the builder keeping the file it held.
TEST(FbxMorphProbe, ClipWeightTracksRepeatedName) {
  std::string text = Replace(kMorph, "\"Geometry::C\"", "\"Geometry::A\"");
  size_t objectsEnd = text.find("}\nConnections:");
  ASSERT_NE(objectsEnd, std::string::npos);
  text.insert(objectsEnd,
              "\tAnimationStack: 20, \"AnimStack::Take\", \"\" {\n\t\tProperties70:  {\n"
              "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",0\n"
              "\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\"," + Ticks(1) + "\n\t\t}\n\t}\n"
              "\tAnimationLayer: 30, \"AnimLayer::Base\", \"\" {\n\t}\n"
              "\tAnimationCurveNode: 40, \"AnimCurveNode::DeformPercent\", \"\" {\n\t\tProperties70:  {\n"
              "\t\t\tP: \"d|DeformPercent\", \"Number\", \"\", \"A\",0\n\t\t}\n\t}\n"
              "\tAnimationCurveNode: 41, \"AnimCurveNode::DeformPercent\", \"\" {\n\t\tProperties70:  {\n"
              "\t\t\tP: \"d|DeformPercent\", \"Number\", \"\", \"A\",0\n\t\t}\n\t}\n" +
                  CurveObject(1000, {{0, 0}, {1, 100}}) + CurveObject(1001, {{0, 100}, {1, 0}}));
  text = Replace(text, "\tC: \"OO\",420,320\n",
                 "\tC: \"OO\",420,320\n\tC: \"OO\",30,20\n\tC: \"OO\",40,30\n\tC: \"OO\",41,30\n"
                 "\tC: \"OP\",40,310, \"DeformPercent\"\n\tC: \"OP\",1000,40, \"d|DeformPercent\"\n"
                 "\tC: \"OP\",41,320, \"DeformPercent\"\n\tC: \"OP\",1001,41, \"d|DeformPercent\"\n");
  Doc d(text);
  ASSERT_NE(d.f, nullptr);
  maniFbxOptions o = maniDefaultFbxOptions();
  uint32_t model = maniFbx_GetMorphModel(d.f, 0);
  ASSERT_NE(model, UINT32_MAX);
  ASSERT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, model, &o).result, mani_success);
  File skf = d.bl.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.sampleRate = 4.0f;
  maniImportResult r = maniBuildFbxClip(d.bl.b, d.f, 0, &sk, &o, &co, nullptr);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonName);
  EXPECT_EQ(r.item, (uint64_t)model);
  ExpectHolds(d.bl, skf, "repeated weight track");
}

// "the options' axes and unit applied": the file's centimetres (no
// GlobalSettings) out in metres, and up +Z, front -Y turning the file's
// (x, y, z) into (x, -z, y): the Y curve 1 to 5 is 0.01 to 0.05 on Y, then on Z.
TEST(FbxClipProbe, AxesAndUnitApplied) {
  const std::string text = ClipDoc({{40, 30, 'Y', {{0, 1}, {1, 5}}}}, 0, 1);
  for (int turned = 0; turned < 2; turned++) {
    Doc d(text);
    ASSERT_NE(d.f, nullptr);
    maniFbxOptions o = maniDefaultFbxOptions();
    if (turned) {
      o.up = (uint32_t)maniAxisPositiveZ;
      o.front = (uint32_t)maniAxisNegativeY;
    }
    ASSERT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, 0, &o).result, mani_success);
    File skf = d.bl.Built();
    maniSkeleton sk;
    ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
    maniImportClipOptions co = maniDefaultImportClipOptions();
    co.sampleRate = 4.0f;
    ASSERT_EQ(maniBuildFbxClip(d.bl.b, d.f, 0, &sk, &o, &co, nullptr).result, mani_success);
    File cf = d.bl.Built();
    maniClip cl;
    ASSERT_EQ(maniOpenClip(cf.data(), cf.size, &cl).result, mani_success);
    std::vector<uint64_t> memory(maniSkeleton_GetPoseSize(&sk) / 8 + 8);
    void* aligned = (void*)(((uintptr_t)memory.data() + 31) & ~(uintptr_t)31);
    maniPose* pose = nullptr;
    ASSERT_EQ(maniInitPose(&sk, aligned, maniSkeleton_GetPoseSize(&sk), &pose), mani_success);
    ASSERT_EQ(maniClip_Sample(&cl, &sk, 0.5f, pose), mani_success);
    maniVec3 t = maniPose_GetLocal(pose, 0).translation;
    EXPECT_NEAR(t.x, 0.0f, 1e-7f) << turned;
    EXPECT_NEAR(turned ? t.z : t.y, 0.03f, 1e-7f) << turned;
    EXPECT_NEAR(turned ? t.y : t.z, 0.0f, 1e-7f) << turned;
  }
}

// The rest is the skeleton built from the file: a rest X of 4 and a curve
// holding 4 leaves the channel out (bound 0); one going 4 to 6 binds it.
TEST(FbxClipProbe, ChannelAtANonZeroRestLeftOut) {
  {
    ClipCase c(ClipDoc({{40, 30, 'X', {{0, 4}, {1, 4}}}}, 0, 1, "", "", "4,0,0"));
    ASSERT_NE(c.d.f, nullptr);
    uint32_t bound = 99;
    ASSERT_EQ(c.Build(0, &bound).result, mani_success);
    EXPECT_EQ(bound, 0u);
  }
  {
    ClipCase c(ClipDoc({{40, 30, 'X', {{0, 4}, {1, 6}}}}, 0, 1, "", "", "4,0,0"));
    ASSERT_NE(c.d.f, nullptr);
    c.co.sampleRate = 4.0f;
    uint32_t bound = 99;
    ASSERT_EQ(c.Build(0, &bound).result, mani_success);
    EXPECT_EQ(bound, 1u);
    EXPECT_NEAR(SampleBone(c, 0.5f).t.x, 5.0f, 1e-5f);
  }
}

// A BlendShape on no mesh: no model ("UINT32_MAX for none"), its targets still counted.
TEST(FbxMorphProbe, BlendShapeOnNoMesh) {
  Doc d(Replace(kMorph, "\tC: \"OO\",300,100\n", ""));
  ASSERT_NE(d.f, nullptr);
  ASSERT_EQ(maniFbx_GetMorphCount(d.f), 1u);
  EXPECT_EQ(maniFbx_GetMorphModel(d.f, 0), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetMorphTargetCount(d.f, 0), 3u);
  Builder b;
  maniFbxOptions o = maniDefaultFbxOptions();
  maniImportResult r = maniBuildFbxMorphTargets(b.b, d.f, 0, &o);
  EXPECT_EQ(r.result, mani_errorFormat);  // no control points
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
}

// Before 7000 the clips are the takes (Take records of Takes), named as the
// file gives them; Walk's X key list (linear, 0 at 0 s, 2 at 1 s) gives 1 at 0.5 s.
const char* kTakes = R"(; FBX 6.1.0 project file
FBXHeaderExtension:  {
	FBXHeaderVersion: 1003
	FBXVersion: 6100
}
Objects:  {
	Model: "Model::Bone", "Limb" {
		Version: 232
		Properties60:  {
			Property: "Lcl Translation", "Lcl Translation", "A",0,0,0
		}
	}
}
Connections:  {
	Connect: "OO", "Model::Bone", "Model::Scene"
}
Takes:  {
	Current: "Walk"
	Take: "Walk" {
		FileName: "Walk.tak"
		LocalTime: 0,46186158000
		ReferenceTime: 0,46186158000
		Model: "Model::Bone" {
			Version: 1.1
			Channel: "Transform" {
				Channel: "T" {
					Channel: "X" {
						Default: 0
						KeyVer: 4005
						KeyCount: 2
						Key: 0,0,L,46186158000,2,L
						Color: 1,0,0
					}
					Channel: "Y" {
						Default: 0
					}
					Channel: "Z" {
						Default: 0
					}
				}
			}
		}
	}
	Take: "Run" {
		LocalTime: 0,46186158000
	}
}
)";

TEST(FbxClipProbe, TakesBefore7000) {
  ClipCase c(kTakes);
  ASSERT_NE(c.d.f, nullptr);
  ASSERT_EQ(maniFbx_GetClipCount(c.d.f), 2u);
  size_t n = 0;
  const char* s = maniFbx_GetClipName(c.d.f, 0, &n);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(std::string(s, n), "Walk");
  s = maniFbx_GetClipName(c.d.f, 1, &n);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(std::string(s, n), "Run");
  c.co.sampleRate = 4.0f;
  uint32_t bound = 0;
  maniImportResult r = c.Build(0, &bound);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  EXPECT_EQ(bound, 1u);
  Sampled at = SampleBone(c, 0.5f);
  EXPECT_NEAR(at.t.x, 1.0f, 1e-5f);
  EXPECT_NEAR(at.duration, 1.0f, 1e-6f);
}

// FullWeights 100, 25 (A, B): sorted B at 0.25, then A at 1; DeformPercent 75
// lies between them: B (1 - 0.75) / 0.75 = 1/3, A (0.75 - 0.25) / 0.75 = 2/3.
TEST(FbxMorphProbe, UnsortedFullWeights) {
  Doc d(Replace(kMorph, "a: 50,100", "a: 100,25"));
  ASSERT_NE(d.f, nullptr);
  float w[3] = {9, 9, 9};
  ASSERT_EQ(maniFbx_GetMorphWeights(d.f, 0, w, 3, nullptr).result, mani_success);
  EXPECT_NEAR(w[0], 1.0f / 3.0f, 1e-6f);
  EXPECT_NEAR(w[1], 2.0f / 3.0f, 1e-6f);
  EXPECT_NEAR(w[2], 0.4f, 1e-6f);
  Builder b;
  maniFbxOptions o = maniDefaultFbxOptions();
  ASSERT_EQ(maniBuildFbxMorphTargets(b.b, d.f, 0, &o).result, mani_success);
  File file = b.Built();
  maniMorphTargets t;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &t).result, mani_success);
  ASSERT_EQ(maniMorphTargets_GetTargetCount(&t), 3u);
  const char* names[] = {"B", "A", "C"};
  const float full[] = {0.25f, 1.0f, 1.0f};
  for (uint32_t k = 0; k < 3; k++) {
    size_t n = 0;
    const char* s = maniMorphTargets_GetTargetName(&t, k, &n);
    EXPECT_EQ(s == nullptr ? std::string("(null)") : std::string(s, n), names[k]) << k;
    EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&t, k), full[k]) << k;
  }
}

// A stack name without the "AnimStack::" class is the whole string.
TEST(FbxClipProbe, NameWithoutClass) {
  Doc d(Replace(ClipDoc({{40, 30, 'X', {{0, 0}, {1, 2}}}}, 0, 1), "\"AnimStack::Second\"", "\"Plain\""));
  ASSERT_NE(d.f, nullptr);
  size_t n = 0;
  const char* s = maniFbx_GetClipName(d.f, 1, &n);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(std::string(s, n), "Plain");
}

// A stack starting before the first key (LocalStart -0.5 s): the clip's time 0
// is the curve's -0.5 s, held at its first key (1) by the default constant
// extrapolation; the clip lasts 1.5 s and reaches 5 at its end.
TEST(FbxClipProbe, StackStartingBeforeTheKeys) {
  ClipCase c(ClipDoc({{40, 30, 'Y', {{0, 1}, {1, 5}}}}, -0.5, 1));
  ASSERT_NE(c.d.f, nullptr);
  c.co.sampleRate = 4.0f;
  maniImportResult r = c.Build();
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  Sampled s0 = SampleBone(c, 0.0f);
  EXPECT_NEAR(s0.duration, 1.5f, 1e-6f);
  EXPECT_NEAR(s0.t.y, 1.0f, 1e-5f);
  EXPECT_NEAR(SampleBone(c, 0.75f).t.y, 2.0f, 1e-5f);
  EXPECT_NEAR(SampleBone(c, 1.5f).t.y, 5.0f, 1e-5f);
}

// "indices past the control points (or below 0) skipped": C's Indexes -1, 1, 5
// move only vertex 1 (by its second triple, 0 20 0 cm); no normals in any
// shape, so positions alone; centimetres out with unitScale 100.
TEST(FbxMorphProbe, IndicesOutsideSkippedPositionsOnly) {
  Doc d(Replace(kMorph, "Indexes: *1 {\n\t\t\ta: 1\n\t\t}\n\t\tVertices: *3 {\n\t\t\ta: 0,10,0",
                "Indexes: *3 {\n\t\t\ta: -1,1,5\n\t\t}\n\t\tVertices: *9 {\n\t\t\ta: 7,7,7,0,20,0,9,9,9"));
  ASSERT_NE(d.f, nullptr);
  Builder b;
  maniFbxOptions o = maniDefaultFbxOptions();
  o.unitScale = 100.0f;
  maniImportResult r = maniBuildFbxMorphTargets(b.b, d.f, 0, &o);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  File file = b.Built();
  maniMorphTargets t;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &t).result, mani_success);
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&t), 2u);
  ASSERT_EQ(maniMorphTargets_GetAttributeCount(&t), 1u);
  uint32_t set = 9;
  EXPECT_EQ(maniMorphTargets_GetAttribute(&t, 0, &set), maniMorphPosition);
  std::vector<float> in(6, 0.0f), out(6, 0.0f);
  float w[3] = {0, 0, 1};  // C alone
  maniMorphStream s{};
  s.semantic = maniMorphPosition;
  s.components = 3;
  s.inputStride = 12;
  s.outputStride = 12;
  s.input = in.data();
  s.output = out.data();
  maniMorphJob job{};
  job.targets = &t;
  job.targetWeights = w;
  job.streams = &s;
  job.streamCount = 1;
  job.vertexBegin = 0;
  job.vertexEnd = 2;
  ASSERT_EQ(maniApplyMorphTargets(&job), mani_success);
  const float want[6] = {0, 0, 0, 0, 20, 0};
  for (int k = 0; k < 6; k++) EXPECT_NEAR(out[k], want[k], 1e-5f) << k;
}

// Limits (import.h): "a FullWeights of more than 1024 values that are not
// per-vertex weights" is Data with the channel's index; 1024 values are read
// (the two shapes at 50 and 100, the rest unused).
TEST(FbxMorphProbe, FullWeightsPastTheLimit) {
  for (int count : {1024, 1025}) {
    std::string values = "50,100";
    for (int k = 2; k < count; k++) values += ",100";
    Doc d(Replace(kMorph, "FullWeights: *2 {\n\t\t\ta: 50,100",
                  "FullWeights: *" + std::to_string(count) + " {\n\t\t\ta: " + values));
    ASSERT_NE(d.f, nullptr);
    Builder b;
    maniFbxOptions o = maniDefaultFbxOptions();
    maniImportResult r = maniBuildFbxMorphTargets(b.b, d.f, 0, &o);
    if (count == 1024) {
      EXPECT_EQ(r.result, mani_success) << r.reason;
      float w[3];
      ASSERT_EQ(maniFbx_GetMorphWeights(d.f, 0, w, 3, nullptr).result, mani_success);
      EXPECT_NEAR(w[0], 0.5f, 1e-6f);
      EXPECT_NEAR(w[1], 0.5f, 1e-6f);
    } else {
      EXPECT_EQ(r.result, mani_errorFormat);
      EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
      EXPECT_EQ(r.item, 0u);
    }
  }
}

// -- Limits and allocation failures -------------------------------------------------------------

// A stack with no layer and no times, a stack stopping before it starts, and a
// skeleton none of whose bones is named as a model: never a crash; a refusal
// keeps the held clip; the foreign skeleton binds no bone.
TEST(FbxClipProbe, OddStacksAndForeignSkeleton) {
  ClipCase c(ClipDoc({{40, 30, 'X', {{0, 0}, {1, 2}}}}, 1, 0.5));
  ASSERT_NE(c.d.f, nullptr);
  ClipCase good(ClipDoc({{40, 30, 'X', {{0, 0}, {1, 2}}}}, 0, 1));
  ASSERT_NE(good.d.f, nullptr);
  ASSERT_EQ(good.Build().result, mani_success);
  File held = good.d.bl.Built();
  uint32_t bound = 66;
  maniImportResult r = good.Build(1, &bound);  // "Second": no layers, no times
  if (r.result != mani_success) {
    EXPECT_EQ(bound, 66u);
    ExpectHolds(good.d.bl, held, "empty stack");
  } else {
    EXPECT_EQ(bound, 0u);
  }
  ASSERT_EQ(good.Build().result, mani_success);
  held = good.d.bl.Built();
  // stop before start, built on good's builder so the held clip can be compared
  r = maniBuildFbxClip(good.d.bl.b, c.d.f, 0, &c.sk, &c.opt, &c.co, nullptr);
  if (r.result != mani_success) ExpectHolds(good.d.bl, held, "stop before start");
  Skel foreign(7, 5);
  bound = 66;
  r = maniBuildFbxClip(good.d.bl.b, good.d.f, 0, &foreign.s, &good.opt, &good.co, &bound);
  EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  EXPECT_EQ(bound, 0u);
}

// An allocator that fails every allocation once `left` runs out.
struct Failing {
  long left = 1L << 40;
  static void* Allocate(void* user, size_t size, size_t alignment) {
    Failing* f = static_cast<Failing*>(user);
    if (f->left-- <= 0) return nullptr;
    void* p = nullptr;
    if (posix_memalign(&p, alignment < sizeof(void*) ? sizeof(void*) : alignment, size ? size : 1) != 0) return nullptr;
    return p;
  }
  static void Release(void*, void* memory, size_t) { free(memory); }
};

struct FailingBuilder {
  Failing f;
  maniBuilder* b = nullptr;
  FailingBuilder() {
    maniBuilderDef def = maniDefaultBuilderDef();
    def.allocator.allocate = &Failing::Allocate;
    def.allocator.release = &Failing::Release;
    def.allocator.user = &f;
    EXPECT_EQ(maniCreateBuilder(&def, &b), mani_success);
  }
  ~FailingBuilder() { maniDestroyBuilder(b); }
  File Built() {
    size_t size = 0;
    EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
    File out;
    out.words.assign(size / 8 + 2, 0);
    out.size = size;
    EXPECT_EQ(maniBuilder_CopyBuilt(b, out.data(), size, &size), mani_success);
    return out;
  }
};

// Every allocation of a clip build, a morph build and a rest weight read failing in
// turn, after a clip was built: mani_errorCapacity, the held file kept; the last run succeeds.
TEST(FbxProbe, AllocationFailuresKeepWhatTheBuilderHeld) {
  const std::string clipText = ClipDoc({{40, 30, 'X', {{0, 0}, {1, 2}}}, {41, 30, 'Y', {{0, 1}, {1, 5}}}}, 0, 1);
  const std::string morphClip = MorphClipText();
  for (int which = 0; which < 4; which++) {
    bool done = false;
    int refused = 0;
    for (long n = 0; n < 400 && !done; n++) {
      FailingBuilder fb;
      File bytes;
      const std::string text = which == 0 ? clipText : which == 3 ? morphClip : std::string(kMorph);
      bytes.Assign(text.data(), text.size());
      maniFbx* f = nullptr;
      ASSERT_EQ(maniOpenFbx(fb.b, bytes.data(), bytes.size, &f).result, mani_success);
      maniFbxOptions o = maniDefaultFbxOptions();
      maniImportClipOptions co = maniDefaultImportClipOptions();
      co.sampleRate = 4.0f;
      File skf;
      maniSkeleton sk{};
      ASSERT_EQ(maniBuildFbxModelSkeleton(fb.b, f, 0, &o).result, mani_success);
      skf = fb.Built();
      ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
      File held = skf;
      fb.f.left = n;
      maniImportResult r{};
      float w[3] = {5, 5, 5};
      uint32_t count = 77;
      if (which == 0) r = maniBuildFbxClip(fb.b, f, 0, &sk, &o, &co, nullptr);
      if (which == 1) r = maniBuildFbxMorphTargets(fb.b, f, 0, &o);
      if (which == 2) r = maniFbx_GetMorphWeights(f, 0, w, 3, &count);
      if (which == 3) r = maniBuildFbxClip(fb.b, f, 0, &sk, &o, &co, nullptr);  // with weight tracks
      fb.f.left = 1L << 40;
      if (r.result == mani_success) {
        done = true;
      } else {
        refused++;
        EXPECT_EQ(r.result, mani_errorCapacity) << which << " allocation " << n;
        File now = fb.Built();
        ASSERT_EQ(now.size, held.size) << which << " allocation " << n;
        EXPECT_EQ(memcmp(now.data(), held.data(), held.size), 0) << which << " allocation " << n;
        if (which == 2) {
          EXPECT_EQ(w[0], 5.0f) << n;
          EXPECT_EQ(count, 77u) << n;
        }
      }
      maniCloseFbx(f);
    }
    EXPECT_TRUE(done) << which;
    if (which != 2) {
      EXPECT_GT(refused, 0) << which;  // the builds allocate
    }
  }
}

}  // namespace
