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
#include "maul/anim/import.h"

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

// As fbx_reference_test.cc finds ../shared/data.
std::string SharedData() {
  const char* env = getenv("MAUL_SHARED_DATA");
  if (env != nullptr && env[0] != 0) return env;
  const char* mine = "lib/anim/test/fbx_clip_test.cc";
  char* real = realpath(mine, nullptr);
  if (real == nullptr) return "";
  std::string path(real);
  free(real);
  size_t at = path.rfind(mine);
  if (at == std::string::npos) return "";
  return path.substr(0, at) + "../shared/data";
}

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

}  // namespace
