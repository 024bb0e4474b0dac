// import.h's FBX clips: AnimationCurve keys read and evaluated as ufbx does
// (fbx_curves.c) against hand-computed values on small ASCII documents
// written here, and extrapolation on the shared
// maya_anim_extrapolation_7200_binary.fbx (SKIPs without ../shared/data).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/pose.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

bool ReadText(const std::string& path, std::string* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  fclose(f);
  return true;
}

// ../shared/data (data_testing.h).
std::string SharedData() { return MaulSharedData(); }

struct Opened {
  Builder bl;
  std::string bytes;
  maniFbx* f = nullptr;
  explicit Opened(const std::string& text) : bytes(text) {
    maniImportResult r = maniOpenFbx(bl.b, bytes.data(), bytes.size(), &f);
    EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " offset " << r.offset;
  }
  ~Opened() { maniCloseFbx(f); }
};

// A 7.4 ASCII document with one AnimationCurve whose body is given.
std::string CurveDocument(const std::string& body) {
  return "; FBX 7.4.0 project file\n"
         "FBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n}\n"
         "Objects:  {\n"
         "\tAnimationCurve: 1, \"AnimCurve::\", \"\" {\n"
         "\t\tDefault: 7\n" +
         body +
         "\t}\n"
         "}\n";
}

// KeyTime, KeyValueFloat, one attribute run per key (flags, data) as text.
std::string Keys(const std::string& times, const std::string& values, int n, const std::string& flags,
                 const std::string& data, const std::string& refs, int runs) {
  return "\t\tKeyTime: *" + std::to_string(n) + " {\n\t\t\ta: " + times + "\n\t\t}\n" +
         "\t\tKeyValueFloat: *" + std::to_string(n) + " {\n\t\t\ta: " + values + "\n\t\t}\n" +
         "\t\tKeyAttrFlags: *" + std::to_string(runs) + " {\n\t\t\ta: " + flags + "\n\t\t}\n" +
         "\t\tKeyAttrDataFloat: *" + std::to_string(4 * runs) + " {\n\t\t\ta: " + data + "\n\t\t}\n" +
         "\t\tKeyAttrRefCount: *" + std::to_string(runs) + " {\n\t\t\ta: " + refs + "\n\t\t}\n";
}

// The float's bits in decimal, as FBX SDK writes KeyAttrDataFloat in ASCII.
std::string Bits(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return std::to_string(b);
}

struct Curve {
  std::vector<mani_FbxCurveKey> keys;
  std::vector<double> scratch;
  mani_FbxCurve c{};
  maniImportResult r{};
};

Curve Read(const maniFbx* f, uint32_t node) {
  Curve c;
  c.keys.resize(mani_FbxCurveKeyCount(f, node) + 1);
  c.scratch.resize(mani_FbxCurveScratch(f, node));
  c.r = mani_FbxReadCurve(f, node, c.scratch.data(), c.keys.data(), (uint32_t)c.keys.size(), &c.c);
  return c;
}

uint32_t FirstCurve(const maniFbx* f) {
  return mani_FbxFind(f, mani_FbxFind(f, MANI_FBX_NONE, "Objects"), "AnimationCurve");
}

const char* kSecond = "46186158000";  // one second in KTime ticks

TEST(FbxCurves, LinearKeyPair) {
  // keys (0 s, 1) and (1 s, 3), linear (0x4): 1 + 2 t inside, the end values outside
  Opened o(CurveDocument(Keys(std::string("0,") + kSecond, "1,3", 2, "4", "0,0,0,0", "2", 1)));
  ASSERT_NE(o.f, nullptr);
  Curve c = Read(o.f, FirstCurve(o.f));
  ASSERT_EQ(c.r.result, mani_success);
  ASSERT_EQ(c.c.count, 2u);
  EXPECT_DOUBLE_EQ(c.c.keys[1].time, 1.0);
  EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.25), 1.5, 1e-12);
  EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.5), 2.0, 1e-12);
  EXPECT_EQ(mani_FbxEvalCurve(&c.c, -1.0), 1.0);
  EXPECT_EQ(mani_FbxEvalCurve(&c.c, 2.0), 3.0);
  EXPECT_EQ(c.c.defaultValue, 7.0);
}

TEST(FbxCurves, ConstantKeyPairs) {
  // 0x2: the key's own value to the next; 0x102: the next key's
  Opened a(CurveDocument(Keys(std::string("0,") + kSecond, "1,3", 2, "2", "0,0,0,0", "2", 1)));
  Curve c = Read(a.f, FirstCurve(a.f));
  ASSERT_EQ(c.r.result, mani_success);
  EXPECT_EQ(mani_FbxEvalCurve(&c.c, 0.5), 1.0);
  EXPECT_EQ(mani_FbxEvalCurve(&c.c, 0.999), 1.0);
  EXPECT_EQ(mani_FbxEvalCurve(&c.c, 1.0), 3.0);
  Opened b(CurveDocument(Keys(std::string("0,") + kSecond, "1,3", 2, "258", "0,0,0,0", "2", 1)));
  Curve d = Read(b.f, FirstCurve(b.f));
  ASSERT_EQ(d.r.result, mani_success);
  EXPECT_EQ(mani_FbxEvalCurve(&d.c, 0.0), 1.0);
  EXPECT_EQ(mani_FbxEvalCurve(&d.c, 0.5), 3.0);
}

TEST(FbxCurves, CubicKeyPairs) {
  // user tangents (0x408), flat: x(s) = s (weights 1/3), y = 3 s^2 - 2 s^3
  {
    Opened o(CurveDocument(Keys(std::string("0,") + kSecond, "0,1", 2, "1032", "0,0,0,0", "2", 1)));
    Curve c = Read(o.f, FirstCurve(o.f));
    ASSERT_EQ(c.r.result, mani_success);
    EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.25), 3.0 / 16.0 - 2.0 / 64.0, 1e-12);
    EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.5), 0.5, 1e-12);
  }
  // slopes 3 at both ends of (0, 0)-(1, 3): control values 0, 1, 2, 3, a line
  {
    std::string data = Bits(3.0f) + "," + Bits(3.0f) + ",0,0";
    Opened o(CurveDocument(Keys(std::string("0,") + kSecond, "0,3", 2, "1032", data, "2", 1)));
    Curve c = Read(o.f, FirstCurve(o.f));
    ASSERT_EQ(c.r.result, mani_success);
    EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.25), 0.75, 1e-12);
    EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.8), 2.4, 1e-12);
  }
  // right tangent weighted 0.5 (0x1000000; low half 5000 ten-thousandths), next left 1/3:
  // x control points 0, 1/2, 2/3, 1; at s = 1/2, x = 3/16 + 1/4 + 1/8 = 9/16 and y = 1/2
  {
    uint32_t packed = (3333u << 16) | 5000u;
    float pf;
    memcpy(&pf, &packed, 4);
    std::string data = "0,0," + Bits(pf) + ",0";
    Opened o(CurveDocument(
        Keys(std::string("0,") + kSecond, "0,1", 2, std::to_string(0x1000000 | 0x408), data, "2", 1)));
    Curve c = Read(o.f, FirstCurve(o.f));
    ASSERT_EQ(c.r.result, mani_success);
    EXPECT_NEAR(c.c.keys[0].rightDx, 0.5, 1e-12);
    EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 9.0 / 16.0), 0.5, 1e-9);
  }
  // automatic tangents (0x108) over (0, 0), (1, 1), (2, 4): the middle slope (4 - 0) / 2 = 2 (within the
  // clamps 3 and 9), the ends flat; at 0.5 s: y control values 0, 0, 1/3, 1 at s = 1/2 give 1/4
  {
    Opened o(CurveDocument(Keys(std::string("0,") + kSecond + ",92372316000", "0,1,4", 3, "264", "0,0,0,0", "3", 1)));
    Curve c = Read(o.f, FirstCurve(o.f));
    ASSERT_EQ(c.r.result, mani_success);
    EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.5), 0.25, 1e-12);
    EXPECT_NEAR(c.c.keys[1].rightDy / c.c.keys[1].rightDx, 2.0, 1e-12);
  }
}

TEST(FbxCurves, RefusesArraysUfbxRefuses) {
  // values and times of different counts; attribute runs not four floats each; runs covering too few keys
  const std::string t = std::string("0,") + kSecond;
  const std::string bad[] = {
      "\t\tKeyTime: *2 {\n\t\t\ta: " + t + "\n\t\t}\n\t\tKeyValueFloat: *1 {\n\t\t\ta: 1\n\t\t}\n" +
          "\t\tKeyAttrFlags: *1 {\n\t\t\ta: 4\n\t\t}\n\t\tKeyAttrDataFloat: *4 {\n\t\t\ta: 0,0,0,0\n\t\t}\n" +
          "\t\tKeyAttrRefCount: *1 {\n\t\t\ta: 2\n\t\t}\n",
      Keys(t, "1,3", 2, "4", "0,0,0", "2", 1),
      Keys(t, "1,3", 2, "4", "0,0,0,0", "1", 1),
      Keys(std::string(kSecond) + ",0", "1,3", 2, "4", "0,0,0,0", "2", 1),  // times decreasing
  };
  for (const std::string& body : bad) {
    Opened o(CurveDocument(body));
    ASSERT_NE(o.f, nullptr);
    Curve c = Read(o.f, FirstCurve(o.f));
    EXPECT_EQ(c.r.result, mani_errorFormat) << body;
    EXPECT_EQ(c.r.reason, (uint32_t)maniImportReasonProperty) << body;
  }
}

// The shared file's Lcl Translation X curve: keys (1/24 s, 0) and (1 s, 10),
// automatic cubic tangents flat at both ends, so f(t) = 10 (3 s^2 - 2 s^3)
// with s = (t - 1/24) / (23/24); Pre-Extrapolation 'A' (repeat relative),
// Post-Extrapolation 'R' (repeat), both endless.
TEST(FbxCurves, ExtrapolationOnSharedFile) {
  std::string root = SharedData(), bytes;
  if (root.empty() || !ReadText(root + "/fbx/maya_anim_extrapolation_7200_binary.fbx", &bytes))
    GTEST_SKIP() << "no ../shared/data";
  Opened o(bytes);
  ASSERT_NE(o.f, nullptr);
  Curve c = Read(o.f, FirstCurve(o.f));
  ASSERT_EQ(c.r.result, mani_success);
  ASSERT_EQ(c.c.count, 2u);
  EXPECT_EQ(c.c.preMode, MANI_FBX_EXTRAPOLATE_REPEAT_RELATIVE);
  EXPECT_EQ(c.c.postMode, MANI_FBX_EXTRAPOLATE_REPEAT);
  EXPECT_EQ(c.c.preRepeat, -1);
  EXPECT_EQ(c.c.postRepeat, -1);
  auto f = [](double t) {
    double s = (t - 1.0 / 24.0) / (23.0 / 24.0);
    return 10.0 * (3 * s * s - 2 * s * s * s);
  };
  EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.5), f(0.5), 1e-9);
  EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 1.5), f(13.0 / 24.0), 1e-9);      // one period on: 1.5 - 23/24
  EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 2.5), f(1.5 - 23.0 / 24.0 * 1.0 + 1.0 - 23.0 / 24.0), 1e-9);  // 2.5 - 2 periods
  EXPECT_NEAR(mani_FbxEvalCurve(&c.c, 0.0), f(23.0 / 24.0) - 10.0, 1e-9);  // one period back, 10 less
  EXPECT_NEAR(mani_FbxEvalCurve(&c.c, -1.0), f(22.0 / 24.0) - 20.0, 1e-9); // two periods back, 20 less
}

// -- maniBuildFbxClip on a written document -------------------------------------------------

// One curve node on a model's property (components d|X.. or one d|name),
// in a layer, its curves' keys as (time seconds, value) linear pairs.
struct CurveNodeSpec {
  long long id;
  std::string property;        // "Lcl Translation", "Custom"...
  bool vector;                 // d|X, d|Y, d|Z, else one "d|<property>"
  long long layer;             // the layer's id
  std::vector<std::vector<std::pair<double, double>>> curves;  // per component; empty: no curve
};

std::string ClipDoc(const std::vector<CurveNodeSpec>& nodes, const std::string& layers, const std::string& links,
                    const std::string& modelProps = "") {
  std::string s = "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\n";
  s += "Objects:  {\n";
  s += "\tModel: 10, \"Model::Bone\", \"LimbNode\" {\n\t\tProperties70:  {\n" + modelProps + "\t\t}\n\t}\n";
  s += "\tAnimationStack: 20, \"AnimStack::Take\", \"\" {\n\t\tProperties70:  {\n"
       "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",0\n"
       "\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",46186158000\n\t\t}\n\t}\n";
  s += layers;
  long long curveId = 1000;
  std::string conns;
  for (const CurveNodeSpec& n : nodes) {
    s += "\tAnimationCurveNode: " + std::to_string(n.id) + ", \"AnimCurveNode::X\", \"\" {\n\t\tProperties70:  {\n";
    if (n.vector)
      for (const char* c : {"X", "Y", "Z"}) s += std::string("\t\t\tP: \"d|") + c + "\", \"Number\", \"\", \"A\",0\n";
    else
      s += "\t\t\tP: \"d|" + n.property + "\", \"Number\", \"\", \"A\",0\n";
    s += "\t\t}\n\t}\n";
    conns += "\tC: \"OO\"," + std::to_string(n.id) + "," + std::to_string(n.layer) + "\n";
    conns += "\tC: \"OP\"," + std::to_string(n.id) + ",10, \"" + n.property + "\"\n";
    for (size_t k = 0; k < n.curves.size(); k++) {
      if (n.curves[k].empty()) continue;
      std::string times, values, comp = n.vector ? std::string("d|") + "XYZ"[k] : "d|" + n.property;
      for (auto& kv : n.curves[k]) {
        times += (times.empty() ? "" : ",") + std::to_string((long long)llround(kv.first * 46186158000.0));
        char v[64];
        snprintf(v, sizeof v, "%.17g", kv.second);
        values += (values.empty() ? "" : ",") + std::string(v);
      }
      int nk = (int)n.curves[k].size();
      s += "\tAnimationCurve: " + std::to_string(curveId) + ", \"AnimCurve::\", \"\" {\n\t\tDefault: 0\n" +
           Keys(times, values, nk, "4", "0,0,0,0", std::to_string(nk), 1) + "\t}\n";
      conns += "\tC: \"OP\"," + std::to_string(curveId) + "," + std::to_string(n.id) + ", \"" + comp + "\"\n";
      curveId++;
    }
  }
  s += "}\nConnections:  {\n" + links + conns + "}\n";
  return s;
}

const char* kBaseLayer = "\tAnimationLayer: 30, \"AnimLayer::Base\", \"\" {\n\t}\n";
const char* kBaseLink = "\tC: \"OO\",30,20\n";

// The document, its model skeleton (the bone), options in the file's axes and units.
struct ClipCase {
  Opened o;
  File skelFile;
  maniSkeleton sk{};
  maniFbxOptions opt = maniDefaultFbxOptions();
  maniImportClipOptions co = maniDefaultImportClipOptions();
  explicit ClipCase(const std::string& text, uint32_t fold = 0) : o(text) {
    opt.foldPlacement = fold;
    if (o.f == nullptr) return;
    maniFbxSettings st;
    EXPECT_EQ(maniFbx_ReadSettings(o.f, &st), mani_success);
    opt.up = st.up;
    opt.front = st.front;
    opt.unitScale = 1.0f / st.unitMetres;
    EXPECT_EQ(maniBuildFbxModelSkeleton(o.bl.b, o.f, 0, &opt).result, mani_success);
    skelFile = o.bl.Built();
    EXPECT_EQ(maniOpenSkeleton(skelFile.data(), skelFile.size, &sk).result, mani_success);
  }
  maniImportResult Build(uint32_t* bound = nullptr) { return maniBuildFbxClip(o.bl.b, o.f, 0, &sk, &opt, &co, bound); }
  // the built clip's bone local at a time
  maniTransform Sample(float t, float* custom = nullptr, const char* track = nullptr) {
    File file = o.bl.Built();
    maniClip cl;
    EXPECT_EQ(maniOpenClip(file.data(), file.size, &cl).result, mani_success);
    std::vector<uint64_t> memory(maniSkeleton_GetPoseSize(&sk) / 8 + 8);
    void* aligned = (void*)(((uintptr_t)memory.data() + 31) & ~(uintptr_t)31);
    maniPose* pose = nullptr;
    EXPECT_EQ(maniInitPose(&sk, aligned, maniSkeleton_GetPoseSize(&sk), &pose), mani_success);
    EXPECT_EQ(maniClip_Sample(&cl, &sk, t, pose), mani_success);
    if (custom != nullptr) {
      uint32_t k = maniClip_FindFloatTrack(&cl, track, strlen(track));
      EXPECT_NE(k, MANI_NO_TRACK) << track;
      std::vector<float> v(maniClip_GetFloatTrackCount(&cl) + 1);
      uint32_t written = 0;
      EXPECT_EQ(maniClip_SampleFloats(&cl, t, v.data(), (uint32_t)v.size(), &written), mani_success);
      if (k != MANI_NO_TRACK) *custom = v[k];
    }
    return maniPose_GetLocal(pose, 0);
  }
};

TEST(FbxClipBuild, SingleLayerTranslationAndFloatTrack) {
  // Lcl Translation X: 0 at 0 s, 2 at 1 s (linear); Custom: 10 at 0 s, 20 at 1 s. At 0.25 s: x 0.5, Custom 12.5.
  ClipCase c(ClipDoc({{40, "Lcl Translation", true, 30, {{{0, 0}, {1, 2}}, {}, {}}},
                      {41, "Custom", false, 30, {{{0, 10}, {1, 20}}}}},
                     kBaseLayer, kBaseLink));
  ASSERT_NE(c.o.f, nullptr);
  EXPECT_EQ(maniFbx_GetClipCount(c.o.f), 1u);
  c.co.sampleRate = 30.0f;
  uint32_t bound = 99;
  maniImportResult r = c.Build(&bound);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  EXPECT_EQ(bound, 1u);
  float custom = 0;
  maniTransform t = c.Sample(0.25f, &custom, "Bone/Custom");
  EXPECT_NEAR(t.translation.x, 0.5f, 1e-5f);
  EXPECT_NEAR(t.translation.y, 0.0f, 1e-6f);
  EXPECT_NEAR(custom, 12.5f, 1e-4f);
  // the duration is the stack's local time (1 s)
  File file = c.o.bl.Built();
  maniClip cl;
  ASSERT_EQ(maniOpenClip(file.data(), file.size, &cl).result, mani_success);
  EXPECT_NEAR(maniClip_GetDuration(&cl), 1.0f, 1e-6f);
}

TEST(FbxClipBuild, FoldedPlacementComposedIntoTheRoot) {
  // Bone under a Null at (5, 0, 0) turned 90 degrees about Z: folded, the root's translation at 0.25 s is
  // the Null's (5, 0, 0) plus Rz(90) (0.5, 0, 0) = (5, 0.5, 0); unfolded it is (0.5, 0, 0)
  std::string parent =
      std::string(kBaseLayer) + "\tModel: 11, \"Model::Top\", \"Null\" {\n\t\tProperties70:  {\n" +
      "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",5,0,0\n" +
      "\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",0,0,90\n\t\t}\n\t}\n";
  for (uint32_t fold = 0; fold < 2; fold++) {
    ClipCase c(ClipDoc({{40, "Lcl Translation", true, 30, {{{0, 0}, {1, 2}}, {}, {}}}}, parent,
                       std::string(kBaseLink) + "\tC: \"OO\",10,11\n"),
               fold);
    ASSERT_NE(c.o.f, nullptr);
    ASSERT_EQ(maniSkeleton_GetBoneCount(&c.sk), 1u);
    c.co.sampleRate = 30.0f;
    maniImportResult r = c.Build();
    ASSERT_EQ(r.result, mani_success) << r.reason;
    maniTransform t = c.Sample(0.25f);
    EXPECT_NEAR(t.translation.x, fold ? 5.0f : 0.5f, 1e-5f) << fold;
    EXPECT_NEAR(t.translation.y, fold ? 0.5f : 0.0f, 1e-5f) << fold;
  }
}

TEST(FbxClipBuild, LayersOverrideAndAdditive) {
  // base: X 0 -> 2 over 1 s; a second layer's X holds 2 (keys 2, 2): at 0.25 s the base gives 0.5, then
  // additive at 50 %: 0.5 + 0.5 * 2 = 1.5; override passthrough (2) at 50 %: 0.5 + (2 - 0.5) * 0.5 = 1.25;
  // override (1) replaces whatever its weight (ufbx: neither additive nor blended): 2 at 50 % and at 100 %
  struct Mode {
    int blend;
    double weight, expected;
  } modes[] = {{0, 50, 1.5}, {2, 50, 1.25}, {1, 50, 2.0}, {1, 100, 2.0}};
  for (const Mode& m : modes) {
    std::string layers = std::string(kBaseLayer) + "\tAnimationLayer: 31, \"AnimLayer::Top\", \"\" {\n\t\tProperties70:  {\n" +
                         "\t\t\tP: \"Weight\", \"Number\", \"\", \"A\"," + std::to_string(m.weight) + "\n" +
                         "\t\t\tP: \"BlendMode\", \"enum\", \"\", \"\"," + std::to_string(m.blend) + "\n\t\t}\n\t}\n";
    ClipCase c(ClipDoc({{40, "Lcl Translation", true, 30, {{{0, 0}, {1, 2}}, {}, {}}},
                        {42, "Lcl Translation", true, 31, {{{0, 2}, {1, 2}}, {}, {}}}},
                       layers, std::string(kBaseLink) + "\tC: \"OO\",31,20\n"));
    ASSERT_NE(c.o.f, nullptr);
    c.co.sampleRate = 30.0f;
    maniImportResult r = c.Build();
    ASSERT_EQ(r.result, mani_success) << r.reason;
    EXPECT_NEAR(c.Sample(0.25f).translation.x, (float)m.expected, 1e-5f) << m.blend << " " << m.weight;
  }
}

// Layered rotations as ufbx combines them (ufbx.c, ufbxi_combine_anim_layer): a base
// layer turning X by 90 degrees, a second layer turning Y by 90. Additive in rotation
// accumulation mode 0 (the default): the turns composed as quaternions, Rx(90) Ry(90),
// whose XYZ Euler angles are (90, 0, 90): q = (0.5, 0.5, 0.5, 0.5). Mode 1 (by
// channel): the angles added, (90, 90, 0): q = (0.5, 0.5, -0.5, 0.5). Override
// passthrough (BlendMode 2) at 50 %: the slerp halfway from Rx(90) to Ry(90),
// (s, s, 0, 2c) / sqrt(3) with s = c = sqrt(1/2). Override (1) at 50 %: Ry(90) alone.
TEST(FbxClipBuild, LayeredRotationsComposeAsUfbxDoes) {
  const double r = std::sqrt(0.5), n = std::sqrt(3.0);
  struct Mode {
    const char* props;
    double q[4];
  } modes[] = {
      {"", {0.5, 0.5, 0.5, 0.5}},
      {"\t\t\tP: \"RotationAccumulationMode\", \"enum\", \"\", \"\",1\n", {0.5, 0.5, -0.5, 0.5}},
      {"\t\t\tP: \"Weight\", \"Number\", \"\", \"A\",50\n\t\t\tP: \"BlendMode\", \"enum\", \"\", \"\",2\n",
       {r / n, r / n, 0.0, 2.0 * r / n}},
      {"\t\t\tP: \"Weight\", \"Number\", \"\", \"A\",50\n\t\t\tP: \"BlendMode\", \"enum\", \"\", \"\",1\n", {0.0, r, 0.0, r}},
  };
  for (const Mode& m : modes) {
    std::string layers = std::string(kBaseLayer) + "\tAnimationLayer: 31, \"AnimLayer::Top\", \"\" {\n\t\tProperties70:  {\n" +
                         m.props + "\t\t}\n\t}\n";
    ClipCase c(ClipDoc({{40, "Lcl Rotation", true, 30, {{{0, 90}, {1, 90}}, {}, {}}},
                        {42, "Lcl Rotation", true, 31, {{}, {{0, 90}, {1, 90}}, {}}}},
                       layers, std::string(kBaseLink) + "\tC: \"OO\",31,20\n"));
    ASSERT_NE(c.o.f, nullptr);
    c.co.sampleRate = 4.0f;
    maniImportResult res = c.Build();
    ASSERT_EQ(res.result, mani_success) << res.reason;
    const maniQuat q = c.Sample(0.5f).rotation;
    const double sign = (q.x * m.q[0] + q.y * m.q[1] + q.z * m.q[2] + q.w * m.q[3]) < 0 ? -1.0 : 1.0;
    EXPECT_NEAR(sign * q.x, m.q[0], 1e-5) << m.props;
    EXPECT_NEAR(sign * q.y, m.q[1], 1e-5) << m.props;
    EXPECT_NEAR(sign * q.z, m.q[2], 1e-5) << m.props;
    EXPECT_NEAR(sign * q.w, m.q[3], 1e-5) << m.props;
  }
}

TEST(FbxClipBuild, ChannelsAtRestLeftOutAndRootMotion) {
  // a curve that holds the rest (X 0, 0) gives no channel: bound 0, and root motion on the bone is refused
  ClipCase c(ClipDoc({{40, "Lcl Translation", true, 30, {{{0, 0}, {1, 0}}, {}, {}}}}, kBaseLayer, kBaseLink));
  ASSERT_NE(c.o.f, nullptr);
  uint32_t bound = 99;
  ASSERT_EQ(c.Build(&bound).result, mani_success);
  EXPECT_EQ(bound, 0u);
  c.co.rootMotionBone = 0;
  c.co.rootMotionFlags = MANI_ROOT_MOTION_ALL_FLAGS & ~MANI_ROOT_MOTION_YAW;
  maniImportResult r = c.Build();
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuild);
  EXPECT_EQ(r.item, (uint64_t)maniBuildReasonRootMotion);
}

TEST(FbxClipBuild, Refusals) {
  ClipCase c(ClipDoc({{40, "Lcl Translation", true, 30, {{{0, 0}, {1, 2}}, {}, {}}}}, kBaseLayer, kBaseLink));
  ASSERT_NE(c.o.f, nullptr);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  EXPECT_EQ(maniBuildFbxClip(nullptr, c.o.f, 0, &c.sk, &c.opt, &co, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, nullptr, 0, &c.sk, &c.opt, &co, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, nullptr, &c.opt, &co, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, nullptr, &co, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, &c.opt, nullptr, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 1, &c.sk, &c.opt, &co, nullptr).result, mani_errorInvalid);
  maniFbxOptions badOptions = c.opt;
  badOptions.unitScale = -1.0f;
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, &badOptions, &co, nullptr).result, mani_errorInvalid);
  // clip settings as maniBuildGltfClip checks them
  maniImportClipOptions bad = co;
  bad.sampleRate = -1.0f;
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, &c.opt, &bad, nullptr).result, mani_errorInvalid);
  bad = co;
  bad.cookie = 0;
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, &c.opt, &bad, nullptr).result, mani_errorInvalid);
  bad = co;
  bad.abiVersion = co.abiVersion + 1;
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, &c.opt, &bad, nullptr).result, mani_errorVersion);
  bad = co;
  bad.loop = 99;
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, &c.opt, &bad, nullptr).result, mani_errorInvalid);
  bad = co;
  bad.rootMotionBone = 5;
  bad.rootMotionFlags = 1;
  EXPECT_EQ(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, &c.opt, &bad, nullptr).result, mani_errorInvalid);
  // boundOut unchanged on failure
  uint32_t bound = 77;
  EXPECT_NE(maniBuildFbxClip(c.o.bl.b, c.o.f, 0, &c.sk, &c.opt, &bad, &bound).result, mani_success);
  EXPECT_EQ(bound, 77u);
}

TEST(FbxClipBuild, RefusesCurvesNamesAndLocals) {
  // a curve whose arrays ufbx refuses: Property with the clip as item
  {
    std::string doc = ClipDoc({{40, "Lcl Translation", true, 30, {{{0, 0}, {1, 2}}, {}, {}}}}, kBaseLayer, kBaseLink);
    size_t at = doc.find("KeyValueFloat: *2");
    ASSERT_NE(at, std::string::npos);
    doc.replace(at, 17, "KeyValueFloat: *1");
    size_t values = doc.find("a: 0,2", at);
    ASSERT_NE(values, std::string::npos);
    doc.replace(values, 6, "a: 0");
    ClipCase c(doc);
    ASSERT_NE(c.o.f, nullptr);
    maniImportResult r = c.Build();
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
    EXPECT_EQ(r.item, 0u);
  }
  // "P/0" (a number) and "P" (a vector) both name Bone/P/0: Name with the model as item
  {
    ClipCase c(ClipDoc({{40, "P/0", false, 30, {{{0, 0}, {1, 2}}}}, {41, "P", true, 30, {{{0, 0}, {1, 2}}, {}, {}}}},
                       kBaseLayer, kBaseLink));
    ASSERT_NE(c.o.f, nullptr);
    maniImportResult r = c.Build();
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonName);
    EXPECT_EQ(r.item, 0u);
  }
  // an animated RotationOrder past 6: Property with the model as item; within range it turns the bone
  {
    ClipCase c(ClipDoc({{40, "RotationOrder", false, 30, {{{0, 0}, {1, 7}}}}}, kBaseLayer, kBaseLink));
    ASSERT_NE(c.o.f, nullptr);
    maniImportResult r = c.Build();
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
    EXPECT_EQ(r.item, 0u);
  }
  {
    // constant keys (0x2) at order 0 then 5 (ZYX); the bone's rest rotation (10, 20, 0) degrees is turned
    // differently after 0.5 s: the rotation channel leaves the rest
    std::string doc = ClipDoc({{40, "RotationOrder", false, 30, {{{0, 0}, {0.5, 5}}}}}, kBaseLayer, kBaseLink,
                              "\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",10,20,0\n"
                              "\t\t\tP: \"RotationActive\", \"bool\", \"\", \"\",1\n");
    ClipCase c(doc);
    ASSERT_NE(c.o.f, nullptr);
    c.co.sampleRate = 10.0f;
    uint32_t bound = 0;
    maniImportResult r = c.Build(&bound);
    ASSERT_EQ(r.result, mani_success) << r.reason;
    EXPECT_EQ(bound, 1u);
    File file = c.o.bl.Built();
    maniClip cl;
    ASSERT_EQ(maniOpenClip(file.data(), file.size, &cl).result, mani_success);
    EXPECT_EQ(maniClip_GetFloatTrackCount(&cl), 0u);  // an integer input, not a float track
  }
  // a scaling animated past binary32 at the end: the local does not split there (Matrix, the model)
  {
    ClipCase c(ClipDoc({{40, "Lcl Scaling", true, 30, {{{0, 1}, {1, 1e300}}, {}, {}}}}, kBaseLayer, kBaseLink));
    ASSERT_NE(c.o.f, nullptr);
    maniImportResult r = c.Build();
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
    EXPECT_EQ(r.item, 0u);
  }
}

// The record of the object with an id, MANI_FBX_NONE for none (7.x).
uint32_t ObjectWithId(const maniFbx* f, int64_t id) {
  uint32_t objects = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
  for (uint32_t c = f->nodes[objects].firstChild; c != MANI_FBX_NONE; c = f->nodes[c].next) {
    int64_t v;
    const mani_FbxProp* p = mani_FbxGetProp(f, c, 0);
    if (p != nullptr && p->type != 'S' && mani_FbxPropInt(f, p, &v) && v == id) return c;
  }
  return MANI_FBX_NONE;
}

// The id of the OP connection's child whose parent is parentId and property prop.
int64_t ChildByProperty(const maniFbx* f, int64_t parentId, const std::string& prop) {
  uint32_t conns = mani_FbxFind(f, MANI_FBX_NONE, "Connections");
  for (uint32_t k = f->nodes[conns].firstChild; k != MANI_FBX_NONE; k = f->nodes[k].next) {
    uint32_t n;
    const char* kind = mani_FbxPropString(f, mani_FbxGetProp(f, k, 0), &n);
    const char* name = mani_FbxPropString(f, mani_FbxGetProp(f, k, 3), &n);
    uint32_t nn = n;
    int64_t a, b;
    if (kind == nullptr || kind[0] != 'O' || kind[1] != 'P' || name == nullptr) continue;
    if (!mani_FbxPropInt(f, mani_FbxGetProp(f, k, 1), &a) || !mani_FbxPropInt(f, mani_FbxGetProp(f, k, 2), &b)) continue;
    if (b == parentId && std::string(name, nn) == prop) return a;
  }
  return 0;
}

// ufbx's own test values (test/test_animation.h, maya_anim_interpolation): pCube1's Lcl Translation X
// through cubic, linear, constant-previous and constant-next keys at 30 fps.
TEST(FbxCurves, InterpolationOnSharedFile) {
  std::string root = SharedData(), bytes;
  if (root.empty() || !ReadText(root + "/fbx/maya_anim_interpolation_7700_binary.fbx", &bytes))
    GTEST_SKIP() << "no ../shared/data";
  Opened o(bytes);
  ASSERT_NE(o.f, nullptr);
  uint32_t model = UINT32_MAX;
  for (uint32_t m = 0; m < maniFbx_GetModelCount(o.f); m++) {
    size_t n;
    const char* s = maniFbx_GetModelBoneName(o.f, m, &n);
    if (std::string(s, n) == "pCube1") model = m;
  }
  ASSERT_NE(model, UINT32_MAX);
  int64_t modelId;
  ASSERT_TRUE(mani_FbxPropInt(o.f, mani_FbxGetProp(o.f, o.f->models[model].node, 0), &modelId));
  int64_t curveNode = ChildByProperty(o.f, modelId, "Lcl Translation");
  ASSERT_NE(curveNode, 0);
  uint32_t curve = ObjectWithId(o.f, ChildByProperty(o.f, curveNode, "d|X"));
  ASSERT_NE(curve, MANI_FBX_NONE);
  Curve c = Read(o.f, curve);
  ASSERT_EQ(c.r.result, mani_success);
  const double refs[][2] = {
      {0.0 / 30.0, 0.0},         {1.0 / 30.0, -0.855245},   {2.0 / 30.0, -1.13344},  {3.0 / 30.0, -1.17802},
      {4.0 / 30.0, -1.10882},    {5.0 / 30.0, -0.991537},   {6.0 / 30.0, -0.875223}, {7.0 / 30.0, -0.808958},
      {8.0 / 30.0, -0.858419},   {9.0 / 30.0, -1.14293},    {10.0 / 30.0, -2.0},     {20.0 / 30.0, -4.0},
      {25.0 / 30.0 - 0.001, -4.0}, {25.0 / 30.0, -6.0},     {25.0 / 30.0 + 0.001, -8.0}, {30.0 / 30.0, -8.0},
      {35.0 / 30.0 - 0.001, -8.0}, {35.0 / 30.0, -10.0},    {40.0 / 30.0, -12.0},    {40.0 / 30.0 + 0.001, -14.0},
      {45.0 / 30.0, -14.0},      {50.0 / 30.0 - 0.001, -14.0}, {50.0 / 30.0, -16.0}, {50.0 / 30.0 + 0.001, -14.0},
      {55.0 / 30.0, -14.0},
  };
  for (const auto& r : refs) EXPECT_NEAR(mani_FbxEvalCurve(&c.c, r[0]), r[1], 1e-5) << "at " << r[0] * 30.0;
}

}  // namespace
