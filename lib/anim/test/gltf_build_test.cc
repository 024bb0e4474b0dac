// import.h's glTF builders: maniBuildGltfSkeleton, maniBuildGltfNodeSkeleton,
// maniGltf_GetSkeletonPlacement, maniBuildGltfSkin, maniBuildGltfInfluences,
// maniBuildGltfMorphTargets and maniBuildGltfClip on small handwritten
// documents (data: buffers) whose expected values are worked out by hand
// here, every refusal, and the shared real models (skipped when
// ../shared/data is absent).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "lib/anim/src/import/draco/draco.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/morph.h"
#include "maul/anim/pose.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

// -- A tiny glTF writer ------------------------------------------------------------

std::string Base64(const std::string& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = ((uint8_t)in[i] << 16) | ((uint8_t)in[i + 1] << 8) | (uint8_t)in[i + 2];
    out += k[v >> 18], out += k[(v >> 12) & 63], out += k[(v >> 6) & 63], out += k[v & 63];
  }
  if (i + 1 == in.size()) {
    uint32_t v = (uint8_t)in[i] << 16;
    out += k[v >> 18], out += k[(v >> 12) & 63], out += "==";
  } else if (i + 2 == in.size()) {
    uint32_t v = ((uint8_t)in[i] << 16) | ((uint8_t)in[i + 1] << 8);
    out += k[v >> 18], out += k[(v >> 12) & 63], out += k[(v >> 6) & 63], out += '=';
  }
  return out;
}

TEST(GltfBuildTestHelper, Base64) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foo"), "Zm9v");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
}

// Accumulates accessors (each in its own view) in one data: buffer.
struct Doc {
  std::string bin;
  std::vector<std::string> views, accessors;
  int Add(const void* data, size_t bytes, int componentType, const char* type, uint32_t count, bool normalized) {
    while (bin.size() % 4) bin += '\0';
    std::ostringstream v;
    v << "{\"buffer\":0,\"byteOffset\":" << bin.size() << ",\"byteLength\":" << bytes << "}";
    bin.append((const char*)data, bytes);
    views.push_back(v.str());
    std::ostringstream a;
    a << "{\"bufferView\":" << views.size() - 1 << ",\"componentType\":" << componentType << ",\"type\":\"" << type
      << "\",\"count\":" << count << (normalized ? ",\"normalized\":true" : "") << "}";
    accessors.push_back(a.str());
    return (int)accessors.size() - 1;
  }
  int Floats(const std::vector<float>& v, const char* type, uint32_t per) {
    return Add(v.data(), v.size() * 4, 5126, type, (uint32_t)(v.size() / per), false);
  }
  int Bytes(const std::vector<uint8_t>& v, const char* type, uint32_t per, bool normalized) {
    return Add(v.data(), v.size(), 5121, type, (uint32_t)(v.size() / per), normalized);
  }
  std::string Json(const std::string& rest) const {
    std::ostringstream o;
    o << "{\"asset\":{\"version\":\"2.0\"}";
    if (!bin.empty()) {
      o << ",\"buffers\":[{\"byteLength\":" << bin.size() << ",\"uri\":\"data:application/octet-stream;base64,"
        << Base64(bin) << "\"}]";
      o << ",\"bufferViews\":[";
      for (size_t i = 0; i < views.size(); ++i) o << (i ? "," : "") << views[i];
      o << "],\"accessors\":[";
      for (size_t i = 0; i < accessors.size(); ++i) o << (i ? "," : "") << accessors[i];
      o << "]";
    }
    if (!rest.empty()) o << "," << rest;
    o << "}";
    return o.str();
  }
};

// An opened document (its text kept alive) with a builder.
struct Open {
  Builder builder;
  std::string text;
  maniGltf* g = nullptr;
  maniImportResult result;
  explicit Open(const std::string& json) : text(json) {
    result = maniOpenGltf(builder.b, text.data(), text.size(), &g);
  }
  Open(const void* bytes, size_t size) : text((const char*)bytes, size) {
    result = maniOpenGltf(builder.b, text.data(), text.size(), &g);
  }
  ~Open() { maniCloseGltf(g); }
};

struct SkelFile {
  File file;
  maniSkeleton s;
  bool Take(Builder& b) {
    file = b.Built();
    return maniOpenSkeleton(file.data(), file.size, &s).result == mani_success;
  }
};

std::string Name(const maniSkeleton* s, uint32_t bone) {
  size_t len = 0;
  const char* n = maniSkeleton_GetBoneName(s, bone, &len);
  return n ? std::string(n, len) : std::string("<null>");
}

std::string NodeName(const maniGltf* g, uint32_t node) {
  size_t len = 0;
  const char* n = maniGltf_GetNodeBoneName(g, node, &len);
  return n ? std::string(n, len) : std::string("<null>");
}

maniGltfOptions Options() { return maniDefaultGltfOptions(); }

// -- Skeletons ---------------------------------------------------------------------------

// nodes: 0 Top (translation 1 0 0) -> 1 Hips (0 1 0) -> {2 Spine (rotation
// 90 degrees about Z), 3 Leg}; 2 -> 4 Head; 5 "Spine" again (a repeated
// name), unnamed 6 under 5; 7 the mesh node with skin 0 (joints Spine, Leg).
const char* kRig =
    "\"nodes\":["
    "{\"name\":\"Top\",\"translation\":[1,0,0],\"children\":[1]},"
    "{\"name\":\"Hips\",\"translation\":[0,1,0],\"children\":[2,3]},"
    "{\"name\":\"Spine\",\"rotation\":[0,0,0.70710678118654752,0.70710678118654752],\"children\":[4]},"
    "{\"name\":\"Leg\",\"translation\":[0,-1,0],\"scale\":[1,2,3]},"
    "{\"name\":\"Head\",\"translation\":[0,0.5,0]},"
    "{\"name\":\"Spine\",\"children\":[6]},"
    "{},"
    "{\"name\":\"Body\",\"mesh\":0,\"skin\":0}],"
    "\"skins\":[{\"joints\":[2,3]}],"
    "\"scenes\":[{\"nodes\":[0,5,7]}]";

std::string RigMesh(Doc& d) {
  int pos = d.Floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
  int joints = d.Bytes({0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}, "VEC4", 4, false);
  // Normalized weights: 128/255 and 127/255, 255/255, and 0 + 255/255.
  int weights = d.Bytes({128, 127, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0}, "VEC4", 4, true);
  std::ostringstream o;
  o << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << ",\"JOINTS_0\":" << joints
    << ",\"WEIGHTS_0\":" << weights << "}}]}]";
  return o.str();
}

TEST(GltfSkeleton, JointsTheirCommonRootAndTheNodesBetween) {
  Doc d;
  std::string mesh = RigMesh(d);
  Open o(d.Json(std::string(kRig) + "," + mesh));
  ASSERT_EQ(o.result.result, mani_success) << o.result.reason << " at " << o.result.offset;
  ASSERT_EQ(maniGltf_GetSkeletonCount(o.g), 1u);
  maniGltfOptions opt = Options();
  maniImportResult r = maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt);
  ASSERT_EQ(r.result, mani_success) << r.reason << " item " << r.item;
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  // Hips (the common root of Spine and Leg), then Spine, Leg: Head and Top
  // are left out (neither a joint nor between).
  ASSERT_EQ(maniSkeleton_GetBoneCount(&sk.s), 3u);
  EXPECT_EQ(Name(&sk.s, 0), "Hips");
  EXPECT_EQ(Name(&sk.s, 1), "Spine");
  EXPECT_EQ(Name(&sk.s, 2), "Leg");
  EXPECT_EQ(maniSkeleton_GetParent(&sk.s, 0), MANI_NO_BONE);
  EXPECT_EQ(maniSkeleton_GetParent(&sk.s, 1), 0u);
  EXPECT_EQ(maniSkeleton_GetParent(&sk.s, 2), 0u);
  // Not folded: the root's rest is its own local.
  maniTransform hips = maniSkeleton_GetRest(&sk.s, 0);
  EXPECT_EQ(hips.translation.x, 0.0f);
  EXPECT_EQ(hips.translation.y, 1.0f);
  maniTransform leg = maniSkeleton_GetRest(&sk.s, 2);
  EXPECT_EQ(leg.scale.y, 2.0f);
  EXPECT_EQ(leg.scale.z, 3.0f);
  // The placement: Top's translation.
  maniAffine p;
  r = maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p);
  ASSERT_EQ(r.result, mani_success);
  EXPECT_EQ(p.columns[3].x, 1.0f);
  EXPECT_EQ(p.columns[3].y, 0.0f);
  EXPECT_EQ(p.columns[0].x, 1.0f);
  // Renamed nodes: the repeated Spine and the unnamed node.
  EXPECT_EQ(NodeName(o.g, 5), "Spine#5");
  EXPECT_EQ(NodeName(o.g, 6), "#6");
  EXPECT_EQ(maniGltf_GetRenamedCount(o.g), 2u);
}

TEST(GltfSkeleton, FoldedPlacementAndBasisChange) {
  Doc d;
  std::string mesh = RigMesh(d);
  Open o(d.Json(std::string(kRig) + "," + mesh));
  ASSERT_EQ(o.result.result, mani_success);
  maniGltfOptions opt = Options();
  opt.foldPlacement = 1;
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  maniTransform hips = maniSkeleton_GetRest(&sk.s, 0);
  EXPECT_EQ(hips.translation.x, 1.0f);  // Top's (1 0 0) composed in
  EXPECT_EQ(hips.translation.y, 1.0f);
  EXPECT_EQ(hips.translation.z, 0.0f);
  maniAffine p;
  ASSERT_EQ(maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p).result, mani_success);
  EXPECT_EQ(p.columns[3].x, 0.0f);  // identity when folded
  EXPECT_EQ(p.columns[1].y, 1.0f);

  // Z up, front -Y, centimetres: glTF's +Y becomes +Z, +Z becomes -Y, +X
  // stays +X (up x front = Z x -Y = X). Hips' (0 1 0) becomes (0 0 100);
  // Spine's quarter turn about +Z becomes one about -Y; Leg's scale
  // (1 2 3) becomes (1 3 2).
  maniGltfOptions zup = Options();
  zup.up = maniAxisPositiveZ;
  zup.front = maniAxisNegativeY;
  zup.unitScale = 100.0f;
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &zup).result, mani_success);
  ASSERT_TRUE(sk.Take(o.builder));
  hips = maniSkeleton_GetRest(&sk.s, 0);
  EXPECT_EQ(hips.translation.x, 0.0f);
  EXPECT_EQ(hips.translation.y, 0.0f);
  EXPECT_EQ(hips.translation.z, 100.0f);
  maniTransform spine = maniSkeleton_GetRest(&sk.s, 1);
  EXPECT_NEAR(spine.rotation.y, -0.70710678f, 1e-7);
  EXPECT_NEAR(spine.rotation.w, 0.70710678f, 1e-7);
  EXPECT_EQ(spine.rotation.x, 0.0f);
  EXPECT_EQ(spine.rotation.z, 0.0f);
  maniTransform leg = maniSkeleton_GetRest(&sk.s, 2);
  EXPECT_EQ(leg.scale.x, 1.0f);
  EXPECT_EQ(leg.scale.y, 3.0f);
  EXPECT_EQ(leg.scale.z, 2.0f);
  EXPECT_EQ(leg.translation.z, -100.0f);
  ASSERT_EQ(maniGltf_GetSkeletonPlacement(o.g, 0, &zup, &p).result, mani_success);
  EXPECT_EQ(p.columns[3].x, 100.0f);  // Top's 1 m along +X, in centimetres
}

TEST(GltfSkeleton, NodeSubtree) {
  Doc d;
  std::string mesh = RigMesh(d);
  Open o(d.Json(std::string(kRig) + "," + mesh));
  ASSERT_EQ(o.result.result, mani_success);
  maniGltfOptions opt = Options();
  ASSERT_EQ(maniBuildGltfNodeSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  // Top, Hips, Spine, Head, Leg: depth-first, children in JSON order.
  ASSERT_EQ(maniSkeleton_GetBoneCount(&sk.s), 5u);
  EXPECT_EQ(Name(&sk.s, 0), "Top");
  EXPECT_EQ(Name(&sk.s, 1), "Hips");
  EXPECT_EQ(Name(&sk.s, 2), "Spine");
  EXPECT_EQ(Name(&sk.s, 3), "Head");
  EXPECT_EQ(Name(&sk.s, 4), "Leg");
  ASSERT_EQ(maniBuildGltfNodeSkeleton(o.builder.b, o.g, 5, &opt).result, mani_success);
  ASSERT_TRUE(sk.Take(o.builder));
  ASSERT_EQ(maniSkeleton_GetBoneCount(&sk.s), 2u);
  EXPECT_EQ(Name(&sk.s, 0), "Spine#5");
  EXPECT_EQ(Name(&sk.s, 1), "#6");
  EXPECT_EQ(maniBuildGltfNodeSkeleton(o.builder.b, o.g, 8, &opt).result, mani_errorInvalid);
}

TEST(GltfSkeleton, Refusals) {
  Doc d;
  std::string mesh = RigMesh(d);
  Open o(d.Json(std::string(kRig) + "," + mesh));
  ASSERT_EQ(o.result.result, mani_success);
  maniGltfOptions opt = Options();
  uint32_t misuse = maniBuilder_GetMisuse(o.builder.b);
  EXPECT_EQ(maniBuildGltfSkeleton(nullptr, o.g, 0, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, nullptr, 0, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 1, &opt).result, mani_errorInvalid);
  maniGltfOptions bad = opt;
  bad.cookie = 0;
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &bad).result, mani_errorInvalid);
  bad = opt;
  bad.abiVersion ^= 1;
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &bad).result, mani_errorVersion);
  bad = opt;
  bad.front = maniAxisNegativeY;  // on up's line
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &bad).result, mani_errorInvalid);
  bad = opt;
  bad.unitScale = 0.0f;
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &bad).result, mani_errorInvalid);
  bad = opt;
  bad.foldPlacement = 2;
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &bad).result, mani_errorInvalid);
  bad = opt;
  bad.reserved[1] = 1;
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &bad).result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(o.builder.b), misuse + 9);
  maniAffine p, before;
  memset(&p, 0x5a, sizeof p);
  before = p;
  EXPECT_EQ(maniGltf_GetSkeletonPlacement(o.g, 1, &opt, &p).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_GetSkeletonPlacement(nullptr, 0, &opt, &p).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_GetSkeletonPlacement(o.g, 0, &bad, &p).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&p, &before, sizeof p), 0);
}

// A matrix bone: decomposed when it is T R S, refused (Matrix, the node)
// when it shears; a matrix above the root the same for the placement when
// it is not affine.
TEST(GltfSkeleton, Matrices) {
  // Node 0: matrix translating (2 3 4) and scaling x by 2; node 1 a joint
  // below it with a matrix of a quarter turn about Y.
  const char* good =
      "\"nodes\":[{\"matrix\":[2,0,0,0, 0,1,0,0, 0,0,1,0, 2,3,4,1],\"children\":[1]},"
      "{\"name\":\"J\",\"matrix\":[0.70710678,0,-0.70710678,0, 0,1,0,0, 0.70710678,0,0.70710678,0, 0,0,0,1]}],"
      "\"skins\":[{\"joints\":[1]}]";
  {
    Open o(Doc().Json(good));
    ASSERT_EQ(o.result.result, mani_success);
    maniGltfOptions opt = Options();
    ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
    SkelFile sk;
    ASSERT_TRUE(sk.Take(o.builder));
    maniTransform j = maniSkeleton_GetRest(&sk.s, 0);
    EXPECT_NEAR(fabsf(j.rotation.y), 0.38268343f, 1e-6);  // sin(22.5 degrees)
    EXPECT_NEAR(j.scale.x, 1.0f, 1e-6);
    maniAffine p;
    ASSERT_EQ(maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p).result, mani_success);
    EXPECT_EQ(p.columns[0].x, 2.0f);
    EXPECT_EQ(p.columns[3].z, 4.0f);
    // Folded: the root is the product, turned 45 degrees about Y then x-scaled by 2: a shear
    // no T R S holds, so refused with the root's node.
    opt.foldPlacement = 1;
    maniImportResult r = maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
    EXPECT_EQ(r.item, 1u);
  }
  const char* shear =
      "\"nodes\":[{\"children\":[1]},{\"name\":\"J\",\"matrix\":[1,0,0,0, 0.5,1,0,0, 0,0,1,0, 0,0,0,1]}],"
      "\"skins\":[{\"joints\":[1]}]";
  {
    Open o(Doc().Json(shear));
    ASSERT_EQ(o.result.result, mani_success);
    maniGltfOptions opt = Options();
    maniImportResult r = maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
    EXPECT_EQ(r.item, 1u);
  }
  const char* projective =
      "\"nodes\":[{\"matrix\":[1,0,0,0.5, 0,1,0,0, 0,0,1,0, 0,0,0,1],\"children\":[1]},{\"name\":\"J\"}],"
      "\"skins\":[{\"joints\":[1]}]";
  {
    Open o(Doc().Json(projective));
    if (o.result.result != mani_success) GTEST_SKIP() << "the opener refuses the projective matrix itself";
    maniGltfOptions opt = Options();
    maniAffine p;
    maniImportResult r = maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
    EXPECT_EQ(r.item, 0u);
  }
}

// -- Skins -------------------------------------------------------------------------

TEST(GltfSkin, JointsByNameInverseBindsAndBasis) {
  Doc d;
  std::string mesh = RigMesh(d);
  // Inverse binds: joint 0 translates by (0 -1 0), joint 1 by (0 0 5).
  int ibm = d.Floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1},
                     "MAT4", 16);
  std::string rig(kRig);
  rig.replace(rig.find("{\"joints\":[2,3]}"), 16, "{\"joints\":[3,2],\"inverseBindMatrices\":" + std::to_string(ibm) + "}");
  Open o(d.Json(rig + "," + mesh));
  ASSERT_EQ(o.result.result, mani_success) << o.result.reason;
  maniGltfOptions opt = Options();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  maniImportResult r = maniBuildGltfSkin(o.builder.b, o.g, 0, &sk.s, &opt);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  File f = o.builder.Built();
  maniSkin skin;
  ASSERT_EQ(maniOpenSkin(f.data(), f.size, &skin).result, mani_success);
  ASSERT_EQ(maniSkin_GetJointCount(&skin), 2u);
  EXPECT_EQ(maniSkin_GetJoint(&skin, 0), 2u);  // Leg
  EXPECT_EQ(maniSkin_GetJoint(&skin, 1), 1u);  // Spine
  EXPECT_EQ(maniSkin_GetInverseBind(&skin, 0).columns[3].y, -1.0f);
  EXPECT_EQ(maniSkin_GetInverseBind(&skin, 1).columns[3].z, 5.0f);
  // Z up: (0 0 5) becomes (0 -5 0) (glTF's +Z is -Y), in centimetres.
  maniGltfOptions zup = Options();
  zup.up = maniAxisPositiveZ;
  zup.front = maniAxisNegativeY;
  zup.unitScale = 100.0f;
  ASSERT_EQ(maniBuildGltfSkin(o.builder.b, o.g, 0, &sk.s, &zup).result, mani_success);
  f = o.builder.Built();
  ASSERT_EQ(maniOpenSkin(f.data(), f.size, &skin).result, mani_success);
  EXPECT_EQ(maniSkin_GetInverseBind(&skin, 1).columns[3].y, -500.0f);
  EXPECT_EQ(maniSkin_GetInverseBind(&skin, 1).columns[3].z, 0.0f);
  EXPECT_EQ(maniSkin_GetInverseBind(&skin, 0).columns[3].z, -100.0f);
  // Against a skeleton without the joints: Bone, the joint.
  ASSERT_EQ(maniBuildGltfNodeSkeleton(o.builder.b, o.g, 5, &opt).result, mani_success);
  SkelFile other;
  ASSERT_TRUE(other.Take(o.builder));
  r = maniBuildGltfSkin(o.builder.b, o.g, 0, &other.s, &opt);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBone);
  EXPECT_EQ(r.item, 0u);
  EXPECT_EQ(maniBuildGltfSkin(o.builder.b, o.g, 1, &sk.s, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfSkin(o.builder.b, o.g, 0, nullptr, &opt).result, mani_errorInvalid);
}

TEST(GltfSkin, IdentityWithoutInverseBindsAndNonAffineRefused) {
  Doc d;
  std::string mesh = RigMesh(d);
  Open o(d.Json(std::string(kRig) + "," + mesh));
  ASSERT_EQ(o.result.result, mani_success);
  maniGltfOptions opt = Options();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  ASSERT_EQ(maniBuildGltfSkin(o.builder.b, o.g, 0, &sk.s, &opt).result, mani_success);
  File f = o.builder.Built();
  maniSkin skin;
  ASSERT_EQ(maniOpenSkin(f.data(), f.size, &skin).result, mani_success);
  maniAffine a = maniSkin_GetInverseBind(&skin, 1);
  EXPECT_EQ(a.columns[0].x, 1.0f);
  EXPECT_EQ(a.columns[1].y, 1.0f);
  EXPECT_EQ(a.columns[3].x, 0.0f);

  Doc d2;
  std::string mesh2 = RigMesh(d2);
  int ibm = d2.Floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0.25f, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
                      "MAT4", 16);
  std::string rig(kRig);
  rig.replace(rig.find("{\"joints\":[2,3]}"), 16, "{\"joints\":[2,3],\"inverseBindMatrices\":" + std::to_string(ibm) + "}");
  Open o2(d2.Json(rig + "," + mesh2));
  ASSERT_EQ(o2.result.result, mani_success);
  ASSERT_EQ(maniBuildGltfSkeleton(o2.builder.b, o2.g, 0, &opt).result, mani_success);
  ASSERT_TRUE(sk.Take(o2.builder));
  maniImportResult r = maniBuildGltfSkin(o2.builder.b, o2.g, 0, &sk.s, &opt);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
  EXPECT_EQ(r.item, 1u);
}

// -- Influences ----------------------------------------------------------------------

struct SkinFile {
  File file;
  maniSkin s;
};

// Builds skeleton 0 and skin 0 of an open document.
bool SkeletonAndSkin(Open& o, SkelFile* sk, SkinFile* skin) {
  maniGltfOptions opt = Options();
  if (maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result != mani_success) return false;
  if (!sk->Take(o.builder)) return false;
  if (maniBuildGltfSkin(o.builder.b, o.g, 0, &sk->s, &opt).result != mani_success) return false;
  skin->file = o.builder.Built();
  return maniOpenSkin(skin->file.data(), skin->file.size, &skin->s).result == mani_success;
}

TEST(GltfInfluences, NormalizedWeightsZeroDroppedSorted) {
  Doc d;
  std::string mesh = RigMesh(d);
  Open o(d.Json(std::string(kRig) + "," + mesh));
  ASSERT_EQ(o.result.result, mani_success);
  SkelFile sk;
  SkinFile skin;
  ASSERT_TRUE(SkeletonAndSkin(o, &sk, &skin));
  maniImportResult r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin.s);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  File f = o.builder.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  ASSERT_EQ(maniInfluences_GetVertexCount(&inf), 3u);
  float w = 0;
  // Vertex 0: 128/255 on joint 0, 127/255 on joint 1 (sum exactly 1 in
  // binary64, so the renormalization keeps each c / 255 rounded once).
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 0, &w), 0u);
  EXPECT_EQ(w, (float)(128.0 / 255.0));
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 1, &w), 1u);
  EXPECT_EQ(w, (float)(127.0 / 255.0));
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 1, 0, &w), 1u);
  EXPECT_EQ(w, 1.0f);
  // Vertex 2: joint 0's zero weight dropped; joint 1 alone.
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 2, 0, &w), 1u);
  EXPECT_EQ(w, 1.0f);
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 2, 1, &w), 0u);
  EXPECT_EQ(w, 0.0f);
}

std::string SkinnedMesh(Doc& d, const std::string& attributes) {
  return "\"meshes\":[{\"primitives\":[{\"attributes\":{" + attributes + "}}]}]";
}

TEST(GltfInfluences, TwoSetsAndRefusals) {
  struct Case {
    const char* what;
    std::function<std::string(Doc&)> attributes;
    maniResult result;
    uint32_t reason;
  };
  auto pos = [](Doc& d) { return "\"POSITION\":" + std::to_string(d.Floats({0, 0, 0, 1, 0, 0}, "VEC3", 3)); };
  auto j = [](Doc& d, std::vector<uint8_t> v) { return std::to_string(d.Bytes(v, "VEC4", 4, false)); };
  auto wf = [](Doc& d, std::vector<float> v) { return std::to_string(d.Floats(v, "VEC4", 4)); };
  std::vector<Case> cases = {
      {"two sets", [&](Doc& d) {
         return pos(d) + ",\"JOINTS_0\":" + j(d, {0, 0, 0, 0, 1, 0, 0, 0}) + ",\"WEIGHTS_0\":" +
                wf(d, {0.5f, 0, 0, 0, 1, 0, 0, 0}) + ",\"JOINTS_1\":" + j(d, {1, 0, 0, 0, 0, 0, 0, 0}) +
                ",\"WEIGHTS_1\":" + wf(d, {0.5f, 0, 0, 0, 0, 0, 0, 0});
       }, mani_success, maniImportReasonNone},
      {"no JOINTS_0", [&](Doc& d) { return pos(d); }, mani_errorFormat, maniImportReasonProperty},
      {"JOINTS_1 without WEIGHTS_1", [&](Doc& d) {
         return pos(d) + ",\"JOINTS_0\":" + j(d, {0, 0, 0, 0, 1, 0, 0, 0}) + ",\"WEIGHTS_0\":" +
                wf(d, {1, 0, 0, 0, 1, 0, 0, 0}) + ",\"JOINTS_1\":" + j(d, {1, 0, 0, 0, 0, 0, 0, 0});
       }, mani_errorFormat, maniImportReasonProperty},
      {"weights of a wrong type", [&](Doc& d) {
         return pos(d) + ",\"JOINTS_0\":" + j(d, {0, 0, 0, 0, 1, 0, 0, 0}) + ",\"WEIGHTS_0\":" +
                std::to_string(d.Floats({1, 0, 0, 1, 0, 0}, "VEC3", 3));
       }, mani_errorFormat, maniImportReasonProperty},
      {"a joint past the skin's", [&](Doc& d) {
         return pos(d) + ",\"JOINTS_0\":" + j(d, {0, 0, 0, 0, 2, 0, 0, 0}) + ",\"WEIGHTS_0\":" +
                wf(d, {1, 0, 0, 0, 1, 0, 0, 0});
       }, mani_errorFormat, maniImportReasonInfluence},
      {"a negative weight", [&](Doc& d) {
         return pos(d) + ",\"JOINTS_0\":" + j(d, {0, 1, 0, 0, 1, 0, 0, 0}) + ",\"WEIGHTS_0\":" +
                wf(d, {1, -0.5f, 0, 0, 1, 0, 0, 0});
       }, mani_errorFormat, maniImportReasonInfluence},
      {"a NaN weight", [&](Doc& d) {
         return pos(d) + ",\"JOINTS_0\":" + j(d, {0, 1, 0, 0, 1, 0, 0, 0}) + ",\"WEIGHTS_0\":" +
                wf(d, {1, NAN, 0, 0, 1, 0, 0, 0});
       }, mani_errorFormat, maniImportReasonInfluence},
      {"a repeated joint", [&](Doc& d) {
         return pos(d) + ",\"JOINTS_0\":" + j(d, {1, 1, 0, 0, 1, 0, 0, 0}) + ",\"WEIGHTS_0\":" +
                wf(d, {0.5f, 0.5f, 0, 0, 1, 0, 0, 0});
       }, mani_errorFormat, maniImportReasonInfluence},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Doc d;
    std::string mesh = SkinnedMesh(d, c.attributes(d));
    Open o(d.Json(std::string(kRig) + "," + mesh));
    ASSERT_EQ(o.result.result, mani_success) << o.result.reason;
    SkelFile sk;
    SkinFile skin;
    ASSERT_TRUE(SkeletonAndSkin(o, &sk, &skin));
    maniImportResult r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin.s);
    EXPECT_EQ(r.result, c.result);
    EXPECT_EQ(r.reason, c.reason);
    if (c.result == mani_success) {
      File f = o.builder.Built();
      maniInfluences inf;
      ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
      float w = 0;
      // Vertex 0: 0.5 on joint 0 (set 0) and 0.5 on joint 1 (set 1): ties by joint.
      EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 0, &w), 0u);
      EXPECT_EQ(w, 0.5f);
      EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 1, &w), 1u);
      EXPECT_EQ(w, 0.5f);
    }
  }
}

TEST(GltfInfluences, DracoRefusedAtItsView) {
  Doc d;
  std::string attrs = "\"POSITION\":" + std::to_string(d.Floats({0, 0, 0}, "VEC3", 3)) + ",\"JOINTS_0\":" +
                      std::to_string(d.Bytes({0, 0, 0, 0}, "VEC4", 4, false)) + ",\"WEIGHTS_0\":" +
                      std::to_string(d.Floats({1, 0, 0, 0}, "VEC4", 4));
  // View 3: four bytes standing for a Draco stream, at offset 52 of the buffer.
  uint8_t stream[4] = {'D', 'R', 'A', 'C'};
  d.Add(stream, 4, 5121, "SCALAR", 4, false);
  std::string mesh = "\"meshes\":[{\"primitives\":[{\"attributes\":{" + attrs +
                     "},\"extensions\":{\"KHR_draco_mesh_compression\":{\"bufferView\":3,\"attributes\":{"
                     "\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2}}}}]}]";
  Open o(d.Json(std::string(kRig) + "," + mesh + ",\"extensionsUsed\":[\"KHR_draco_mesh_compression\"]"));
  ASSERT_EQ(o.result.result, mani_success) << o.result.reason;
  SkelFile sk;
  SkinFile skin;
  ASSERT_TRUE(SkeletonAndSkin(o, &sk, &skin));
  File before = o.builder.Built();
  maniImportResult r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin.s);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  EXPECT_EQ(r.item, 3u);
  // The view after 12 bytes of positions, 4 of joints, 16 of weights; the
  // decoder refuses at its byte 4 (the stream ends inside the magic).
  EXPECT_EQ(r.offset, 12u + 4u + 16u + 4u);
  File after = o.builder.Built();  // the skin kept: never half-read
  ASSERT_EQ(after.size, before.size);
  EXPECT_EQ(memcmp(after.data(), before.data(), after.size), 0);
  EXPECT_EQ(maniBuildGltfInfluences(o.builder.b, o.g, 1, 0, &skin.s).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfInfluences(o.builder.b, o.g, 0, 1, &skin.s).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, nullptr).result, mani_errorInvalid);
}

// -- Morph targets --------------------------------------------------------------------

struct MorphFile {
  File file;
  maniMorphTargets m;
};

// Applies target t at weight 1 to zero inputs: the output is its deltas.
std::vector<float> Deltas(const maniMorphTargets* m, uint32_t target, maniMorphSemantic semantic, uint32_t set,
                          uint32_t components) {
  uint32_t n = maniMorphTargets_GetVertexCount(m);
  std::vector<float> in(n * components, 0.0f), out(n * components, -1.0f);
  std::vector<float> weights(maniMorphTargets_GetTargetCount(m), 0.0f);
  weights[target] = 1.0f;
  maniMorphStream s;
  memset(&s, 0, sizeof s);
  s.semantic = semantic;
  s.set = set;
  s.components = components;
  s.inputStride = s.outputStride = 4 * components;
  s.input = in.data();
  s.output = out.data();
  maniMorphJob job;
  job.targets = m;
  job.targetWeights = weights.data();
  job.streams = &s;
  job.streamCount = 1;
  job.vertexBegin = 0;
  job.vertexEnd = n;
  EXPECT_EQ(maniApplyMorphTargets(&job), mani_success);
  return out;
}

TEST(GltfMorphTargets, ChannelsNamesBasisColorsAndSparsity) {
  Doc d;
  int pos = d.Floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", 3);
  int col = d.Floats({1, 1, 1, 1, 1, 1, 1, 1, 1}, "VEC3", 3);
  int tex = d.Floats({0, 0, 0, 0, 0, 0}, "VEC2", 2);
  int dp0 = d.Floats({0, 0, 0, 0, 0, 2, 0, 0, 0}, "VEC3", 3);       // moves vertex 1 along +Z
  int dc0 = d.Floats({0, 0, 0, 0, 0, 0, 0.5f, 0, 0}, "VEC3", 3);    // colours vertex 2
  int dp1 = d.Floats({0, 1, 0, 0, 0, 0, 0, 0, 0}, "VEC3", 3);       // vertex 0 along +Y
  int dt1 = d.Floats({0, 0, 0.25f, 0, 0, 0}, "VEC2", 2);            // vertex 1's uv
  std::ostringstream m;
  m << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << ",\"COLOR_0\":" << col
    << ",\"TEXCOORD_0\":" << tex << "},\"targets\":[{\"POSITION\":" << dp0 << ",\"COLOR_0\":" << dc0
    << "},{\"POSITION\":" << dp1 << ",\"TEXCOORD_0\":" << dt1 << "}]}],"
    << "\"extras\":{\"targetNames\":[\"Smile\",\"Bl\\u0069nk\"]}}],\"nodes\":[{\"mesh\":0}]";
  Open o(d.Json(m.str()));
  ASSERT_EQ(o.result.result, mani_success) << o.result.reason;
  maniGltfOptions zup = Options();
  zup.up = maniAxisPositiveZ;
  zup.front = maniAxisNegativeY;
  zup.unitScale = 100.0f;
  maniImportResult r = maniBuildGltfMorphTargets(o.builder.b, o.g, 0, 0, &zup);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item;
  MorphFile mf;
  mf.file = o.builder.Built();
  ASSERT_EQ(maniOpenMorphTargets(mf.file.data(), mf.file.size, &mf.m).result, mani_success);
  ASSERT_EQ(maniMorphTargets_GetChannelCount(&mf.m), 2u);
  ASSERT_EQ(maniMorphTargets_GetTargetCount(&mf.m), 2u);
  EXPECT_EQ(maniMorphTargets_FindChannel(&mf.m, "Smile", 5), 0u);
  EXPECT_EQ(maniMorphTargets_FindChannel(&mf.m, "Blink", 5), 1u);  // after its escape
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&mf.m, 0), 1.0f);
  // Positions: glTF +Z becomes -Y, +Y becomes +Z, in centimetres.
  std::vector<float> p0 = Deltas(&mf.m, 0, maniMorphPosition, 0, 3);
  EXPECT_EQ(p0[3 * 1 + 1], -200.0f);
  EXPECT_EQ(p0[3 * 1 + 2], 0.0f);
  EXPECT_EQ(p0[0], 0.0f);
  std::vector<float> p1 = Deltas(&mf.m, 1, maniMorphPosition, 0, 3);
  EXPECT_EQ(p1[2], 100.0f);
  // Colours: a VEC3 delta with alpha 0.
  std::vector<float> c0 = Deltas(&mf.m, 0, maniMorphColor, 0, 4);
  EXPECT_EQ(c0[4 * 2 + 0], 0.5f);
  EXPECT_EQ(c0[4 * 2 + 3], 0.0f);
  std::vector<float> t1 = Deltas(&mf.m, 1, maniMorphTexCoord, 0, 2);
  EXPECT_EQ(t1[2 * 1 + 0], 0.25f);

  // Without targetNames every target is named by its index.
  Doc d2;
  int pos2 = d2.Floats({0, 0, 0}, "VEC3", 3);
  int dp2 = d2.Floats({1, 0, 0}, "VEC3", 3);
  std::ostringstream m2;
  m2 << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos2 << "},\"targets\":[{\"POSITION\":"
     << dp2 << "},{\"POSITION\":" << dp2 << "}]}],\"extras\":{\"targetNames\":[\"OnlyOne\"]}}]";
  Open o2(d2.Json(m2.str()));
  ASSERT_EQ(o2.result.result, mani_success);
  maniGltfOptions opt = Options();
  ASSERT_EQ(maniBuildGltfMorphTargets(o2.builder.b, o2.g, 0, 0, &opt).result, mani_success);
  mf.file = o2.builder.Built();
  ASSERT_EQ(maniOpenMorphTargets(mf.file.data(), mf.file.size, &mf.m).result, mani_success);
  EXPECT_EQ(maniMorphTargets_FindChannel(&mf.m, "0", 1), 0u);
  EXPECT_EQ(maniMorphTargets_FindChannel(&mf.m, "1", 1), 1u);
}

TEST(GltfMorphTargets, Refusals) {
  Doc d;
  int pos = d.Floats({0, 0, 0, 1, 0, 0}, "VEC3", 3);
  int dn = d.Floats({0, 0, 1, 0, 0, 1}, "VEC3", 3);
  int uv = d.Floats({0, 0, 1, 1}, "VEC2", 2);
  int uv3 = d.Floats({0, 0, 1, 0, 0, 1}, "VEC3", 3);
  std::ostringstream m;
  // A mesh's primitives have as many targets each (the opener checks), so
  // one mesh a case.
  m << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << "},\"targets\":[{\"NORMAL\":" << dn
    << "}]}]},{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << ",\"TEXCOORD_0\":" << uv
    << "},\"targets\":[{\"TEXCOORD_0\":" << uv3 << "}]}]},{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos
    << "}}]}]";
  Open o(d.Json(m.str()));
  ASSERT_EQ(o.result.result, mani_success) << o.result.reason << " item " << o.result.item << " at " << o.result.offset;
  maniGltfOptions opt = Options();
  maniImportResult r = maniBuildGltfMorphTargets(o.builder.b, o.g, 0, 0, &opt);  // NORMAL the primitive lacks
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
  r = maniBuildGltfMorphTargets(o.builder.b, o.g, 1, 0, &opt);  // a target of the wrong type
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
  EXPECT_EQ(maniBuildGltfMorphTargets(o.builder.b, o.g, 2, 0, &opt).result, mani_errorInvalid);  // no targets
  EXPECT_EQ(maniBuildGltfMorphTargets(o.builder.b, o.g, 0, 1, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfMorphTargets(o.builder.b, o.g, 3, 0, &opt).result, mani_errorInvalid);
  maniGltfOptions bad = opt;
  bad.cookieEnd = 0;
  EXPECT_EQ(maniBuildGltfMorphTargets(o.builder.b, o.g, 0, 0, &bad).result, mani_errorInvalid);
}

// -- Clips ----------------------------------------------------------------------------

struct Posed {
  std::vector<uint64_t> memory;
  maniPose* pose = nullptr;
  explicit Posed(const maniSkeleton* s) {
    size_t size = maniSkeleton_GetPoseSize(s);
    memory.assign(size / 8 + 8, 0);
    uint8_t* p = (uint8_t*)memory.data();
    p += (32 - ((uintptr_t)p & 31)) & 31;
    EXPECT_EQ(maniInitPose(s, p, size, &pose), mani_success);
  }
};

// One joint "J" under a root "R"; animation 0: LINEAR translation of J
// (keys 0, 0.5, 1), STEP rotation of J (keys 0 and 0.5), CUBICSPLINE scale
// of R (keys 0 and 1); a weights channel of the mesh node (its skin's
// joints ours); a pointer channel to a material; a channel on a node outside
// the skeleton.
std::string ClipDoc(Doc& d, float badKey = 0.0f) {
  int t3 = d.Floats({0, 0.5f, 1}, "SCALAR", 1);
  int tv = d.Floats({0, 0, 0, 1, 2, 3, 4, 4, 4}, "VEC3", 3);
  int r2 = d.Floats({0, 0.5f}, "SCALAR", 1);
  int rv = d.Floats({0, 0, 0, 1, 0, 0.70710678f, 0, 0.70710678f}, "VEC4", 4);
  int s2 = d.Floats({0, 1.5f + badKey}, "SCALAR", 1);
  // (in, value, out) per key: values 1 and 2, tangents 0 at key 0, 3 at key 1.
  int sv = d.Floats({9, 9, 9, 1, 1, 1, 0, 0, 0, 3, 3, 3, 2, 2, 2, 9, 9, 9}, "VEC3", 3);
  int wv = d.Floats({0, 1, 1, 0.5f, 0.25f, 0.75f}, "SCALAR", 1);  // 2 targets x 3 keys
  int pv = d.Floats({1, 0, 0, 0, 1, 0}, "VEC3", 3);               // emissiveFactor at keys 0 and 0.5
  int pos = d.Floats({0, 0, 0}, "VEC3", 3);
  int dp = d.Floats({1, 0, 0}, "VEC3", 3);
  int jn = d.Bytes({0, 0, 0, 0}, "VEC4", 4, false);
  int wn = d.Floats({1, 0, 0, 0}, "VEC4", 4);
  std::ostringstream o;
  o << "\"nodes\":[{\"name\":\"R\",\"children\":[1]},{\"name\":\"J\",\"translation\":[0,1,0]},"
    << "{\"name\":\"Face\",\"mesh\":0,\"skin\":0},{\"name\":\"Elsewhere\"}],"
    << "\"skins\":[{\"joints\":[0,1]}],"
    << "\"materials\":[{\"emissiveFactor\":[0,0,0]}],"
    << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << ",\"JOINTS_0\":" << jn
    << ",\"WEIGHTS_0\":" << wn << "},\"targets\":[{\"POSITION\":" << dp << "},{\"POSITION\":" << dp
    << "}]}],\"extras\":{\"targetNames\":[\"a\",\"b\"]}}],"
    << "\"extensionsUsed\":[\"KHR_animation_pointer\"],"
    << "\"animations\":[{\"name\":\"Go\",\"samplers\":["
    << "{\"input\":" << t3 << ",\"output\":" << tv << "},"
    << "{\"input\":" << r2 << ",\"output\":" << rv << ",\"interpolation\":\"STEP\"},"
    << "{\"input\":" << s2 << ",\"output\":" << sv << ",\"interpolation\":\"CUBICSPLINE\"},"
    << "{\"input\":" << t3 << ",\"output\":" << wv << "},"
    << "{\"input\":" << r2 << ",\"output\":" << pv << "}],\"channels\":["
    << "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
    << "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
    << "{\"sampler\":2,\"target\":{\"node\":0,\"path\":\"scale\"}},"
    << "{\"sampler\":3,\"target\":{\"node\":2,\"path\":\"weights\"}},"
    << "{\"sampler\":4,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":"
    << "{\"pointer\":\"/materials/0/emissiveFactor\"}}}},"
    << "{\"sampler\":0,\"target\":{\"node\":3,\"path\":\"translation\"}}]}]";
  return o.str();
}

struct ClipFile {
  File file;
  maniClip c;
};

TEST(GltfClip, InterpolationsTracksDurationAndBound) {
  Doc d;
  Open o(d.Json(ClipDoc(d)));
  ASSERT_EQ(o.result.result, mani_success) << o.result.reason << " at " << o.result.offset;
  maniGltfOptions opt = Options();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  ASSERT_EQ(maniSkeleton_GetBoneCount(&sk.s), 2u);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.sampleRate = 20.0f;
  uint32_t bound = 99;
  maniImportResult r = maniBuildGltfClip(o.builder.b, o.g, 0, &sk.s, &opt, &co, &bound);
  ASSERT_EQ(r.result, mani_success) << r.reason << " item " << r.item;
  EXPECT_EQ(bound, 5u);  // all but the channel on "Elsewhere"
  ClipFile cf;
  cf.file = o.builder.Built();
  ASSERT_EQ(maniOpenClip(cf.file.data(), cf.file.size, &cf.c).result, mani_success);
  EXPECT_EQ(maniClip_GetDuration(&cf.c), 1.5f);  // the latest key over every channel
  EXPECT_EQ(maniClip_GetSampleRate(&cf.c), 20.0f);
  Posed p(&sk.s);
  // LINEAR at its keys: the keys' values.
  ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, 0.5f, p.pose), mani_success);
  maniTransform j = maniPose_GetLocal(p.pose, 1);
  EXPECT_EQ(j.translation.x, 1.0f);
  EXPECT_EQ(j.translation.y, 2.0f);
  EXPECT_EQ(j.translation.z, 3.0f);
  // STEP holds: just before 0.5 the rotation is still the identity.
  ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, 0.45f, p.pose), mani_success);
  j = maniPose_GetLocal(p.pose, 1);
  EXPECT_EQ(j.rotation.w, 1.0f);
  EXPECT_NEAR(j.translation.x, 0.9f, 1e-6);  // LINEAR between keys 0 and 1
  ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, 0.5f, p.pose), mani_success);
  EXPECT_NEAR(maniPose_GetLocal(p.pose, 1).rotation.y, 0.70710678f, 1e-7);
  // CUBICSPLINE at its keys: the values (1 at 0, 2 at 1.5); between them,
  // at 0.75 (u = 1/2): h00 1 + h10 1.5 * 0 + h01 2 + h11 1.5 * 3 =
  // 0.5 + 1 - 0.125 * 4.5 = 0.9375.
  ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, 0.0f, p.pose), mani_success);
  EXPECT_EQ(maniPose_GetLocal(p.pose, 0).scale.x, 1.0f);
  ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, 1.5f, p.pose), mani_success);
  EXPECT_EQ(maniPose_GetLocal(p.pose, 0).scale.y, 2.0f);
  ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, 0.75f, p.pose), mani_success);
  EXPECT_NEAR(maniPose_GetLocal(p.pose, 0).scale.z, 0.9375f, 1e-6);
  // Float tracks: the weights by "<bone name>/<target name>", the pointer's
  // components as "<pointer>/<i>".
  ASSERT_EQ(maniClip_GetFloatTrackCount(&cf.c), 5u);
  uint32_t fa = maniClip_FindFloatTrack(&cf.c, "Face/a", 6);
  uint32_t fb = maniClip_FindFloatTrack(&cf.c, "Face/b", 6);
  uint32_t e1 = maniClip_FindFloatTrack(&cf.c, "/materials/0/emissiveFactor/1", 29);
  ASSERT_NE(fa, MANI_NO_TRACK);
  ASSERT_NE(fb, MANI_NO_TRACK);
  ASSERT_NE(e1, MANI_NO_TRACK);
  std::vector<float> values(5);
  ASSERT_EQ(maniClip_SampleFloats(&cf.c, 0.5f, values.data(), 5, nullptr), mani_success);
  EXPECT_EQ(values[fa], 1.0f);  // key 1: weights (1, 0.5)
  EXPECT_EQ(values[fb], 0.5f);
  EXPECT_EQ(values[e1], 1.0f);
  ASSERT_EQ(maniClip_SampleFloats(&cf.c, 1.0f, values.data(), 5, nullptr), mani_success);
  EXPECT_EQ(values[fa], 0.25f);
  EXPECT_EQ(values[fb], 0.75f);
}

TEST(GltfClip, KeysOwnRateBasisAndFold) {
  Doc d;
  Open o(d.Json(ClipDoc(d)));
  ASSERT_EQ(o.result.result, mani_success);
  maniGltfOptions zup = Options();
  zup.up = maniAxisPositiveZ;
  zup.front = maniAxisNegativeY;
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &zup).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  maniImportClipOptions co = maniDefaultImportClipOptions();
  ASSERT_EQ(maniBuildGltfClip(o.builder.b, o.g, 0, &sk.s, &zup, &co, nullptr).result, mani_success);
  ClipFile cf;
  cf.file = o.builder.Built();
  ASSERT_EQ(maniOpenClip(cf.file.data(), cf.file.size, &cf.c).result, mani_success);
  EXPECT_EQ(maniClip_GetSampleRate(&cf.c), 2.0f);  // the shortest interval, 0.5 s
  Posed p(&sk.s);
  ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, 0.5f, p.pose), mani_success);
  maniTransform j = maniPose_GetLocal(p.pose, 1);
  // (1 2 3) in Z up: (1, -3, 2).
  EXPECT_EQ(j.translation.x, 1.0f);
  EXPECT_EQ(j.translation.y, -3.0f);
  EXPECT_EQ(j.translation.z, 2.0f);
}

TEST(GltfClip, Refusals) {
  Doc d;
  Open o(d.Json(ClipDoc(d)));
  ASSERT_EQ(o.result.result, mani_success);
  maniGltfOptions opt = Options();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  maniImportClipOptions co = maniDefaultImportClipOptions();
  EXPECT_EQ(maniBuildGltfClip(o.builder.b, o.g, 1, &sk.s, &opt, &co, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfClip(o.builder.b, o.g, 0, nullptr, &opt, &co, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfClip(o.builder.b, o.g, 0, &sk.s, &opt, nullptr, nullptr).result, mani_errorInvalid);
  auto with = [&](std::function<void(maniImportClipOptions*)> f) {
    maniImportClipOptions c = maniDefaultImportClipOptions();
    f(&c);
    return maniBuildGltfClip(o.builder.b, o.g, 0, &sk.s, &opt, &c, nullptr).result;
  };
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->sampleRate = -1.0f; }), mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->sampleRate = INFINITY; }), mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->loop = 2; }), mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->additive = 3; }), mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->rootMotionBone = 2; c->rootMotionFlags = 1; }), mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->rootMotionBone = 0; }), mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->rootMotionBone = 0; c->rootMotionFlags = 32; }), mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) {
              c->rootMotionBone = 0;
              c->rootMotionFlags = MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION;
            }),
            mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->cookie = 0; }), mani_errorInvalid);
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->abiVersion ^= 1; }), mani_errorVersion);
  // Root motion on a bone the animation moves: taken out as maniBuildClip does.
  EXPECT_EQ(with([](maniImportClipOptions* c) { c->rootMotionBone = 1; c->rootMotionFlags = MANI_ROOT_MOTION_X; }),
            mani_success);

  // A NaN key time on channel 2: Data, the channel.
  Doc d2;
  Open o2(d2.Json(ClipDoc(d2, NAN)));
  ASSERT_EQ(o2.result.result, mani_success);
  ASSERT_EQ(maniBuildGltfSkeleton(o2.builder.b, o2.g, 0, &opt).result, mani_success);
  ASSERT_TRUE(sk.Take(o2.builder));
  File before = o2.builder.Built();
  maniImportResult r = maniBuildGltfClip(o2.builder.b, o2.g, 0, &sk.s, &opt, &co, nullptr);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  EXPECT_EQ(r.item, 2u);
  File after = o2.builder.Built();
  ASSERT_EQ(after.size, before.size);
  EXPECT_EQ(memcmp(after.data(), before.data(), after.size), 0);
}

// -- The shared models ------------------------------------------------------------------

std::string SharedData() { return MaulSharedData(); }

bool ReadFile(const std::string& path, std::string* out) { return MaulReadFile(path, out); }

// A shared model opened with its external buffers supplied from beside it.
struct Model {
  std::string bytes;
  std::vector<std::string> buffers;
  std::unique_ptr<Open> open;
  bool Load(const std::string& rel) {
    std::string root = SharedData();
    if (root.empty() || !ReadFile(root + "/gltf/" + rel, &bytes)) return false;
    open.reset(new Open(bytes.data(), bytes.size()));
    EXPECT_EQ(open->result.result, mani_success) << rel << ": reason " << open->result.reason << " item "
                                                  << open->result.item << " offset " << open->result.offset;
    if (open->result.result != mani_success) return true;
    std::string dir = rel.substr(0, rel.rfind('/') + 1);
    uint32_t n = maniGltf_GetBufferCount(open->g);
    buffers.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      size_t len = 0;
      const char* uri = maniGltf_GetBufferUri(open->g, i, &len);
      if (uri == nullptr) continue;
      EXPECT_TRUE(ReadFile(root + "/gltf/" + dir + std::string(uri, len), &buffers[i])) << std::string(uri, len);
      maniImportResult r = maniGltf_SupplyBuffer(open->g, i, buffers[i].data(), buffers[i].size());
      EXPECT_EQ(r.result, mani_success) << "buffer " << i;
    }
    return true;
  }
};

struct Expect {
  const char* file;
  uint32_t skeletons, skins, animations;
  bool dracoInfluences;
};

// The Draco versions of RiggedSimple and CesiumMan import the influences of
// their uncompressed originals: each Draco vertex (the stream's order) has
// the joints and weights of an original vertex at its position (positions
// within the quantization's step), weights within 8-bit quantization.
struct Influenced {
  std::vector<float> positions;  // 3 a vertex
  std::vector<std::vector<std::pair<uint32_t, float>>> influences;
};

bool BuildInfluenced(const char* rel, Influenced* out) {
  Model m;
  if (!m.Load(rel) || m.open->result.result != mani_success) return false;
  SkelFile sk;
  SkinFile skin;
  if (!SkeletonAndSkin(*m.open, &sk, &skin)) return false;
  maniImportResult r = maniBuildGltfInfluences(m.open->builder.b, m.open->g, 0, 0, &skin.s);
  EXPECT_EQ(r.result, mani_success) << rel << " reason " << r.reason << " item " << r.item << " offset " << r.offset;
  if (r.result != mani_success) return false;
  File f = m.open->builder.Built();
  maniInfluences inf;
  if (maniOpenInfluences(f.data(), f.size, &inf).result != mani_success) return false;
  const uint32_t n = maniInfluences_GetVertexCount(&inf);
  out->influences.resize(n);
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t k = 0; k < maniInfluences_GetPerVertex(&inf); ++k) {
      float w = 0;
      uint32_t j = maniInfluences_GetInfluence(&inf, v, k, &w);
      if (w > 0) out->influences[v].push_back({j, w});
    }
  const maniGltf* g = m.open->g;
  const mani_GltfPrimitive* p = &g->primitives[g->meshes[0].primitiveStart];
  if (p->dracoView != MANI_GLTF_NONE) {
    const uint8_t* bytes = nullptr;
    uint64_t size = 0;
    if (mani_GltfViewBytes(g, p->dracoView, &bytes, &size).result != mani_success) return false;
    maniDracoMesh dm;
    if (maniDracoDecode(bytes, (size_t)size, nullptr, &dm, nullptr) != maniDracoOk) return false;
    for (uint32_t a = 0; a < dm.attributeCount; ++a) {
      const maniDracoAttribute* at = &dm.attributes[a];
      if (at->type != maniDracoPosition) continue;
      for (uint32_t v = 0; v < dm.pointCount; ++v) {
        float xyz[3];
        memcpy(xyz, at->values + (size_t)at->pointToValue[v] * 12, 12);
        out->positions.insert(out->positions.end(), xyz, xyz + 3);
      }
      break;
    }
    maniDracoRelease(&dm);
  } else {
    uint32_t pos = MANI_GLTF_NONE;
    for (uint32_t a = 0; a < p->attributeCount; ++a) {
      const auto& at = g->attributes[p->attributeStart + a];
      if (at.semantic.length == 8 && memcmp(at.semantic.text, "POSITION", 8) == 0) pos = at.accessor;
    }
    if (pos == MANI_GLTF_NONE) return false;
    out->positions.resize((size_t)g->accessors[pos].count * 3);
    if (mani_GltfReadFloats(g, pos, out->positions.data(), out->positions.size()).result != mani_success) return false;
  }
  return out->positions.size() == 3 * (size_t)n;
}

TEST(GltfModels, DracoInfluencesEqualTheUncompressedOriginals) {
  std::string probe;
  if (SharedData().empty() || !ReadFile(SharedData() + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  const char* pairs[][2] = {
      {"khronos/RiggedSimple/glTF-Draco/RiggedSimple.gltf", "khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb"},
      {"khronos/CesiumMan/glTF-Draco/CesiumMan.gltf", "khronos/CesiumMan/glTF-Binary/CesiumMan.glb"},
  };
  for (auto& pr : pairs) {
    SCOPED_TRACE(pr[0]);
    Influenced dr, og;
    ASSERT_TRUE(BuildInfluenced(pr[0], &dr));
    ASSERT_TRUE(BuildInfluenced(pr[1], &og));
    ASSERT_GT(dr.influences.size(), 0u);
    // the extent of the positions: the quantization step is a part of it
    float lo = 1e30f, hi = -1e30f;
    for (float x : og.positions) lo = std::min(lo, x), hi = std::max(hi, x);
    const double step = (hi - lo) / 1023.0;  // at least 10 position bits
    size_t unmatched = 0;
    for (size_t v = 0; v < dr.influences.size(); ++v) {
      double best = 1e300;
      for (size_t o = 0; o < og.influences.size(); ++o) {
        double d = 0;
        for (int c = 0; c < 3; ++c) d = std::max(d, std::fabs((double)dr.positions[3 * v + c] - og.positions[3 * o + c]));
        best = std::min(best, d);
      }
      EXPECT_LE(best, step) << "vertex " << v;
      bool any = false;
      for (size_t o = 0; o < og.influences.size() && !any; ++o) {
        double d = 0;
        for (int c = 0; c < 3; ++c) d = std::max(d, std::fabs((double)dr.positions[3 * v + c] - og.positions[3 * o + c]));
        if (d > best + 1e-7) continue;
        // the same joints, weights within the quantization's error
        const auto& a = dr.influences[v];
        const auto& b = og.influences[o];
        bool same = true;
        for (const auto& ja : a) {
          float wb = 0;
          for (const auto& jb : b)
            if (jb.first == ja.first) wb = jb.second;
          if (std::fabs(ja.second - wb) > 2.0f / 255.0f) same = false;
        }
        for (const auto& jb : b) {
          float wa = 0;
          for (const auto& ja : a)
            if (ja.first == jb.first) wa = ja.second;
          if (std::fabs(jb.second - wa) > 2.0f / 255.0f) same = false;
        }
        any = same;
      }
      if (!any) unmatched++;
    }
    EXPECT_EQ(unmatched, 0u);
  }
}

// -- Draco morph targets ----------------------------------------------------------------

// AnimatedMorphCube_draco.glb (lib/anim/test/data/draco, README there):
// gltf-transform's Draco compression of the shared AnimatedMorphCube, its
// two targets plain accessors in the stream's vertex order.
const char* kDracoCube = "lib/anim/test/data/draco/AnimatedMorphCube_draco.glb";

// A primitive's positions and normals (3 floats a vertex), from its Draco
// stream (in the stream's point order) or from its accessors.
bool VertexPositionsAndNormals(const maniGltf* g, std::vector<float>* positions, std::vector<float>* normals) {
  const mani_GltfPrimitive* p = &g->primitives[g->meshes[0].primitiveStart];
  if (p->dracoView != MANI_GLTF_NONE) {
    const uint8_t* bytes = nullptr;
    uint64_t size = 0;
    if (mani_GltfViewBytes(g, p->dracoView, &bytes, &size).result != mani_success) return false;
    maniDracoMesh dm;
    if (maniDracoDecode(bytes, (size_t)size, nullptr, &dm, nullptr) != maniDracoOk) return false;
    for (uint32_t a = 0; a < dm.attributeCount; ++a) {
      const maniDracoAttribute* at = &dm.attributes[a];
      std::vector<float>* to = at->type == maniDracoPosition ? positions : at->type == maniDracoNormal ? normals : nullptr;
      if (to == nullptr || at->dataType != maniDracoFloat32 || at->components != 3) continue;
      to->resize(3 * (size_t)dm.pointCount);
      for (uint32_t v = 0; v < dm.pointCount; ++v)
        memcpy(&(*to)[3 * (size_t)v], at->values + (size_t)at->pointToValue[v] * 12, 12);
    }
    maniDracoRelease(&dm);
    return !positions->empty() && positions->size() == normals->size();
  }
  for (uint32_t a = 0; a < p->attributeCount; ++a) {
    const auto& at = g->attributes[p->attributeStart + a];
    std::vector<float>* to = nullptr;
    if (at.semantic.length == 8 && memcmp(at.semantic.text, "POSITION", 8) == 0) to = positions;
    if (at.semantic.length == 6 && memcmp(at.semantic.text, "NORMAL", 6) == 0) to = normals;
    if (to == nullptr) continue;
    to->resize((size_t)g->accessors[at.accessor].count * 3);
    if (mani_GltfReadFloats(g, at.accessor, to->data(), to->size()).result != mani_success) return false;
  }
  return !positions->empty() && positions->size() == normals->size();
}

// Every target's position, normal and tangent deltas (dense, 3 a vertex).
bool BuildMorphDeltas(Open* o, std::vector<std::vector<float>>* deltas) {
  maniGltfOptions opt = Options();
  maniImportResult r = maniBuildGltfMorphTargets(o->builder.b, o->g, 0, 0, &opt);
  EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " item " << r.item << " offset " << r.offset;
  if (r.result != mani_success) return false;
  MorphFile mf;
  mf.file = o->builder.Built();
  if (maniOpenMorphTargets(mf.file.data(), mf.file.size, &mf.m).result != mani_success) return false;
  const maniMorphSemantic semantics[3] = {maniMorphPosition, maniMorphNormal, maniMorphTangent};
  for (uint32_t t = 0; t < maniMorphTargets_GetTargetCount(&mf.m); ++t)
    for (maniMorphSemantic s : semantics) deltas->push_back(Deltas(&mf.m, t, s, 0, 3));
  return true;
}

TEST(GltfModels, DracoMorphTargetsEqualTheUncompressedOriginal) {
  std::string draco, original;
  ASSERT_TRUE(ReadFile(kDracoCube, &draco));
  if (SharedData().empty() ||
      !ReadFile(SharedData() + "/gltf/khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb", &original))
    GTEST_SKIP() << "no ../shared/data";
  Open dr(draco.data(), draco.size()), og(original.data(), original.size());
  ASSERT_EQ(dr.result.result, mani_success) << dr.result.reason << " item " << dr.result.item;
  ASSERT_EQ(og.result.result, mani_success);
  std::vector<float> dp, dn, op, on;
  ASSERT_TRUE(VertexPositionsAndNormals(dr.g, &dp, &dn));
  ASSERT_TRUE(VertexPositionsAndNormals(og.g, &op, &on));
  ASSERT_EQ(dp.size(), op.size());
  std::vector<std::vector<float>> dd, od;
  ASSERT_TRUE(BuildMorphDeltas(&dr, &dd));
  ASSERT_TRUE(BuildMorphDeltas(&og, &od));
  ASSERT_EQ(dd.size(), 6u);  // two targets, three attributes each
  ASSERT_EQ(od.size(), dd.size());
  // The encoder's steps: positions 14 bits over the extent, normals 10 bits
  // (octahedral); twice each as the tolerance.
  float lo = 1e30f, hi = -1e30f;
  for (float x : op) lo = std::min(lo, x), hi = std::max(hi, x);
  const double positionStep = 2.0 * (hi - lo) / 16383.0, normalStep = 2.0 * 4.0 / 1023.0;
  const size_t n = dp.size() / 3;
  std::vector<int> taken(n, 0);
  for (size_t v = 0; v < n; ++v) {
    SCOPED_TRACE(v);
    // The original vertex at its position with its normal (a cube corner
    // has three, 90 degrees apart).
    size_t match = n;
    for (size_t o = 0; o < n; ++o) {
      double ep = 0, en = 0;
      for (int c = 0; c < 3; ++c) {
        ep = std::max(ep, std::fabs((double)dp[3 * v + c] - op[3 * o + c]));
        en = std::max(en, std::fabs((double)dn[3 * v + c] - on[3 * o + c]));
      }
      if (ep <= positionStep && en <= normalStep) {
        EXPECT_EQ(match, n) << "two originals match";
        match = o;
      }
    }
    ASSERT_LT(match, n);
    EXPECT_EQ(taken[match]++, 0);
    // Draco never holds the targets: the deltas are the original's, bit for bit.
    for (size_t k = 0; k < dd.size(); ++k)
      for (int c = 0; c < 3; ++c) EXPECT_EQ(dd[k][3 * v + c], od[k][3 * match + c]) << "target/attribute " << k;
  }
  // and some vertex moves under each target
  for (size_t t = 0; t < 2; ++t) {
    bool moves = false;
    for (float x : dd[3 * t]) moves |= x != 0.0f;
    EXPECT_TRUE(moves) << t;
  }
}

// A GLB with its JSON chunk replaced (padded with spaces, lengths fixed).
std::string GlbWithJson(const std::string& glb, const std::string& json) {
  uint32_t jl = 0;
  memcpy(&jl, glb.data() + 12, 4);
  std::string j = json;
  while (j.size() % 4) j += ' ';
  std::string out = glb.substr(0, 12);
  uint32_t n = (uint32_t)j.size();
  out.append((const char*)&n, 4);
  out.append("JSON", 4);
  out += j;
  out += glb.substr(20 + jl);
  uint32_t total = (uint32_t)out.size();
  memcpy(&out[8], &total, 4);
  return out;
}

std::string GlbJson(const std::string& glb) {
  uint32_t jl = 0;
  memcpy(&jl, glb.data() + 12, 4);
  return glb.substr(20, jl);
}

std::string Replaced(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// maniBuildGltfMorphTargets on a Draco primitive checks its stream as the
// influences builder does (import.h): each refusal with its reason, item and
// offset, the builder's last file unchanged.
TEST(GltfMorphTargets, DracoPrimitiveRefusals) {
  std::string glb;
  ASSERT_TRUE(ReadFile(kDracoCube, &glb));
  const std::string json = GlbJson(glb);
  // The file's JSON: view 3 (byteOffset 3252 in the BIN) holds the stream,
  // accessor 3 is POSITION (24 vertices, no view).
  ASSERT_NE(json.find("{\"buffer\":0,\"byteOffset\":3252,\"byteLength\":210}"), std::string::npos);
  {
    Open o(glb.data(), glb.size());
    ASSERT_EQ(o.result.result, mani_success);
    std::vector<std::vector<float>> d;
    ASSERT_TRUE(BuildMorphDeltas(&o, &d));
  }
  struct Case {
    const char* what;
    std::string glb;
    uint32_t reason;
    uint64_t item, offset;
  };
  const std::string ext = "\"KHR_draco_mesh_compression\":{\"bufferView\":3,\"attributes\":{";
  const size_t extAt = json.find(ext);
  ASSERT_NE(extAt, std::string::npos);
  const std::string idTwo = ext + "\"NORMAL\":0,\"TANGENT\":1,\"POSITION\":2}";
  ASSERT_NE(json.find(idTwo), std::string::npos);
  std::string patched = glb;
  const size_t streamAt = 20 + json.size() + 8 + 3252;
  ASSERT_EQ(patched.substr(streamAt, 5), "DRACO");
  patched[streamAt + 1] = 'X';
  std::string noView = Replaced(json, "{\"bufferView\":3,\"attributes\"", "{\"attributes\"");
  std::string noAttributes = Replaced(json, "{\"bufferView\":3,\"attributes\":{\"NORMAL\":0,\"TANGENT\":1,\"POSITION\":2}",
                                      "{\"bufferView\":3");
  std::string stranger = Replaced(json, "\"POSITION\":2}", "\"POSITION\":2,\"COLOR_0\":1}");
  std::string unknownId = Replaced(json, "\"POSITION\":2}", "\"POSITION\":7}");
  const size_t sevenAt = 20 + unknownId.find("\"POSITION\":7}") + 11;
  std::string wrongCount = Replaced(json, "\"count\":24,\"max\":[0.01000000350177288",
                                    "\"count\":25,\"max\":[0.01000000350177288");
  std::string wrongType = Replaced(json, "{\"type\":\"VEC3\",\"componentType\":5126,\"count\":24,\"max\":[0.0100000035",
                                   "{\"type\":\"VEC3\",\"componentType\":5123,\"count\":24,\"max\":[0.0100000035");
  const Case cases[] = {
      {"a patched magic", patched, maniImportReasonData, 3, 3252 + 1},
      {"no view", GlbWithJson(glb, noView), maniImportReasonProperty, 0, MANI_GLTF_NONE},
      {"no attributes", GlbWithJson(glb, noAttributes), maniImportReasonProperty, 0, MANI_GLTF_NONE},
      {"a name not the primitive's", GlbWithJson(glb, stranger), maniImportReasonProperty, 0, MANI_GLTF_NONE},
      {"an id not in the stream", GlbWithJson(glb, unknownId), maniImportReasonProperty, 0, sevenAt},
      {"an accessor's count", GlbWithJson(glb, wrongCount), maniImportReasonProperty, 3, MANI_GLTF_NONE},
      {"an accessor's component type", GlbWithJson(glb, wrongType), maniImportReasonProperty, 3, MANI_GLTF_NONE},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Open o(c.glb.data(), c.glb.size());
    ASSERT_EQ(o.result.result, mani_success) << o.result.reason << " at " << o.result.offset;
    // a file built first: a refusal leaves it the builder's last
    Doc d;
    int pos = d.Floats({0, 0, 0}, "VEC3", 3);
    int dp = d.Floats({1, 0, 0}, "VEC3", 3);
    std::ostringstream m;
    m << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << "},\"targets\":[{\"POSITION\":" << dp
      << "}]}]}]";
    Open plain(d.Json(m.str()));
    ASSERT_EQ(plain.result.result, mani_success);
    maniGltfOptions opt = Options();
    ASSERT_EQ(maniBuildGltfMorphTargets(o.builder.b, plain.g, 0, 0, &opt).result, mani_success);
    File before = o.builder.Built();
    maniImportResult r = maniBuildGltfMorphTargets(o.builder.b, o.g, 0, 0, &opt);
    EXPECT_EQ(r.result, mani_errorFormat);
    EXPECT_EQ(r.reason, c.reason);
    EXPECT_EQ(r.item, c.item);
    if (c.offset != MANI_GLTF_NONE) {
      EXPECT_EQ(r.offset, c.offset);
    }
    File after = o.builder.Built();
    ASSERT_EQ(after.size, before.size);
    EXPECT_EQ(memcmp(after.data(), before.data(), after.size), 0);
  }
}

TEST(GltfModels, OpenAndBuildEverything) {
  const Expect models[] = {
      {"khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb", 1, 1, 1, false},
      {"khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb", 1, 1, 1, false},
      {"khronos/CesiumMan/glTF-Binary/CesiumMan.glb", 1, 1, 1, false},
      {"khronos/Fox/glTF-Binary/Fox.glb", 1, 1, 3, false},
      {"khronos/SimpleSkin/glTF/SimpleSkin.gltf", 1, 1, 1, false},
      {"khronos/SimpleSkin/glTF-Embedded/SimpleSkin.gltf", 1, 1, 1, false},
      {"khronos/RecursiveSkeletons/glTF-Binary/RecursiveSkeletons.glb", 0, 84, 1, false},
      {"khronos/InterpolationTest/glTF-Binary/InterpolationTest.glb", 0, 0, 9, false},
      {"khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb", 0, 0, 1, false},
      {"khronos/MorphPrimitivesTest/glTF-Draco/MorphPrimitivesTest.gltf", 0, 0, 0, true},
      {"khronos/RiggedSimple/glTF-Draco/RiggedSimple.gltf", 1, 1, 1, true},
      {"khronos/CesiumMan/glTF-Draco/CesiumMan.gltf", 1, 1, 1, true},
  };
  std::string probe;
  if (SharedData().empty() || !ReadFile(SharedData() + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  for (const Expect& e : models) {
    SCOPED_TRACE(e.file);
    Model m;
    ASSERT_TRUE(m.Load(e.file));
    if (m.open->result.result != mani_success) continue;
    maniGltf* g = m.open->g;
    maniBuilder* b = m.open->builder.b;
    if (e.skeletons) {
      EXPECT_EQ(maniGltf_GetSkeletonCount(g), e.skeletons);
    }
    EXPECT_EQ(maniGltf_GetSkinCount(g), e.skins);
    EXPECT_EQ(maniGltf_GetAnimationCount(g), e.animations);
    maniGltfOptions opt = Options();
    // Every skeleton, its skins, and every skinned primitive's influences.
    std::vector<SkelFile> skeletons(maniGltf_GetSkeletonCount(g));
    for (uint32_t k = 0; k < skeletons.size(); ++k) {
      maniImportResult r = maniBuildGltfSkeleton(b, g, k, &opt);
      ASSERT_EQ(r.result, mani_success) << "skeleton " << k << " reason " << r.reason << " item " << r.item;
      ASSERT_TRUE(skeletons[k].Take(m.open->builder));
      maniAffine place;
      ASSERT_EQ(maniGltf_GetSkeletonPlacement(g, k, &opt, &place).result, mani_success);
    }
    for (uint32_t s = 0; s < maniGltf_GetSkinCount(g); ++s) {
      const SkelFile& sk = skeletons[maniGltf_GetSkinSkeleton(g, s)];
      maniImportResult r = maniBuildGltfSkin(b, g, s, &sk.s, &opt);
      ASSERT_EQ(r.result, mani_success) << "skin " << s << " reason " << r.reason << " item " << r.item;
      SkinFile skin;
      skin.file = m.open->builder.Built();
      ASSERT_EQ(maniOpenSkin(skin.file.data(), skin.file.size, &skin.s).result, mani_success);
      for (uint32_t n = 0; n < maniGltf_GetNodeCount(g); ++n) {
        if (maniGltf_GetNodeSkin(g, n) != s) continue;
        uint32_t mesh = maniGltf_GetNodeMesh(g, n);
        for (uint32_t p = 0; p < maniGltf_GetPrimitiveCount(g, mesh); ++p) {
          r = maniBuildGltfInfluences(b, g, mesh, p, &skin.s);
          (void)e.dracoInfluences;  // Draco primitives decode like the others
          EXPECT_EQ(r.result, mani_success) << "mesh " << mesh << " reason " << r.reason << " item " << r.item;
        }
      }
    }
    // Morph targets of every primitive that has them.
    for (uint32_t mesh = 0; mesh < maniGltf_GetMeshCount(g); ++mesh) {
      for (uint32_t p = 0; p < maniGltf_GetPrimitiveCount(g, mesh); ++p) {
        if (maniGltf_GetPrimitiveTargetCount(g, mesh, p) == 0) continue;
        maniImportResult r = maniBuildGltfMorphTargets(b, g, mesh, p, &opt);
        EXPECT_EQ(r.result, mani_success) << "mesh " << mesh << " reason " << r.reason << " item " << r.item;
      }
    }
    // Every animation as a clip of skeleton 0 (or of the whole scene's nodes).
    SkelFile any;
    if (skeletons.empty()) {
      // Node 0's subtree.
      const uint32_t root = 0;
      if (maniGltf_GetNodeCount(g) == 0) continue;
      ASSERT_EQ(maniBuildGltfNodeSkeleton(b, g, root, &opt).result, mani_success);
      ASSERT_TRUE(any.Take(m.open->builder));
    }
    const maniSkeleton* skel = skeletons.empty() ? &any.s : &skeletons[0].s;
    for (uint32_t a = 0; a < maniGltf_GetAnimationCount(g); ++a) {
      maniImportClipOptions co = maniDefaultImportClipOptions();
      uint32_t bound = 0;
      maniImportResult r = maniBuildGltfClip(b, g, a, skel, &opt, &co, &bound);
      EXPECT_EQ(r.result, mani_success) << "animation " << a << " reason " << r.reason << " item " << r.item;
    }
  }
}

}  // namespace

namespace {

// -- Allocation failure ------------------------------------------------------------------

// An allocator that fails its Nth call from when it is armed, and counts
// what is outstanding.
struct Failing {
  int64_t countdown = -1;  // -1: never fail
  int64_t outstanding = 0;
  static void* Allocate(void* user, size_t size, size_t alignment) {
    Failing* f = (Failing*)user;
    if (f->countdown == 0) return nullptr;
    if (f->countdown > 0) f->countdown--;
    void* p = aligned_alloc(alignment < 16 ? 16 : alignment, (size + 63) / 64 * 64);
    if (p) f->outstanding += (int64_t)size;
    return p;
  }
  static void Release(void* user, void* memory, size_t size) {
    Failing* f = (Failing*)user;
    f->outstanding -= (int64_t)size;
    free(memory);
  }
};

TEST(GltfBuildAllocation, EveryFailureKeepsTheLastBuiltAndLeaksNothing) {
  Doc d;
  std::string json = d.Json(ClipDoc(d));
  Failing fail;
  maniBuilderDef def = maniDefaultBuilderDef();
  def.allocator.allocate = Failing::Allocate;
  def.allocator.release = Failing::Release;
  def.allocator.user = &fail;
  maniBuilder* b = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  maniGltf* g = nullptr;
  ASSERT_EQ(maniOpenGltf(b, json.data(), json.size(), &g).result, mani_success);
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfSkeleton(b, g, 0, &opt).result, mani_success);
  size_t size = 0;
  ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
  File skelFile;
  skelFile.words.assign(size / 8 + 2, 0);
  skelFile.size = size;
  ASSERT_EQ(maniBuilder_CopyBuilt(b, skelFile.data(), size, &size), mani_success);
  maniSkeleton skel;
  ASSERT_EQ(maniOpenSkeleton(skelFile.data(), skelFile.size, &skel).result, mani_success);
  ASSERT_EQ(maniBuildGltfSkin(b, g, 0, &skel, &opt).result, mani_success);
  File skinFile;
  ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
  skinFile.words.assign(size / 8 + 2, 0);
  skinFile.size = size;
  ASSERT_EQ(maniBuilder_CopyBuilt(b, skinFile.data(), size, &size), mani_success);
  maniSkin skin;
  ASSERT_EQ(maniOpenSkin(skinFile.data(), skinFile.size, &skin).result, mani_success);

  maniImportClipOptions co = maniDefaultImportClipOptions();
  std::vector<std::pair<const char*, std::function<maniImportResult()>>> builds = {
      {"skeleton", [&] { return maniBuildGltfSkeleton(b, g, 0, &opt); }},
      {"node skeleton", [&] { return maniBuildGltfNodeSkeleton(b, g, 0, &opt); }},
      {"skin", [&] { return maniBuildGltfSkin(b, g, 0, &skel, &opt); }},
      {"influences", [&] { return maniBuildGltfInfluences(b, g, 0, 0, &skin); }},
      {"morph targets", [&] { return maniBuildGltfMorphTargets(b, g, 0, 0, &opt); }},
      {"clip", [&] { return maniBuildGltfClip(b, g, 0, &skel, &opt, &co, nullptr); }},
  };
  for (auto& build : builds) {
    SCOPED_TRACE(build.first);
    bool succeeded = false;
    for (int64_t n = 0; n < 64 && !succeeded; ++n) {
      // Something else built before: the clip of the document's one animation.
      fail.countdown = -1;
      ASSERT_EQ(maniBuildGltfClip(b, g, 0, &skel, &opt, &co, nullptr).result, mani_success);
      ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
      std::vector<uint8_t> before(size);
      ASSERT_EQ(maniBuilder_CopyBuilt(b, before.data(), size, &size), mani_success);
      const int64_t held = fail.outstanding;
      fail.countdown = n;
      maniImportResult r = build.second();
      fail.countdown = -1;
      if (r.result == mani_success) {
        succeeded = true;
        continue;
      }
      EXPECT_EQ(r.result, mani_errorCapacity) << "failing allocation " << n;
      EXPECT_EQ(fail.outstanding, held) << "failing allocation " << n;
      ASSERT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
      std::vector<uint8_t> after(size);
      ASSERT_EQ(maniBuilder_CopyBuilt(b, after.data(), size, &size), mani_success);
      EXPECT_EQ(after, before) << "failing allocation " << n;
    }
    EXPECT_TRUE(succeeded);
  }
  maniCloseGltf(g);
  maniDestroyBuilder(b);
  EXPECT_EQ(fail.outstanding, 0);
}

}  // namespace

namespace {

// -- The shared models' clips against an evaluation of their keys here ------------------

// glTF's sampler at time t in binary64 (Khronos' glTF 2.0 specification,
// Appendix C): before the first key the first value, after the last the
// last; STEP the key at or before; LINEAR lerp (rotations slerp along the
// shorter arc); CUBICSPLINE the Hermite with tangents times the interval,
// rotations normalized.
std::vector<double> Evaluate(const std::vector<float>& times, const std::vector<float>& values, uint32_t comps,
                             uint32_t interpolation, bool rotation, double t) {
  const size_t n = times.size();
  const bool cubic = interpolation == maniInterpolationCubicSpline;
  auto value = [&](size_t k, uint32_t c) { return (double)values[(cubic ? 3 * k + 1 : k) * comps + c]; };
  std::vector<double> out(comps);
  size_t k = 0;
  if (t <= times[0] || n == 1) {
    for (uint32_t c = 0; c < comps; ++c) out[c] = value(0, c);
    return out;
  }
  if (t >= times[n - 1]) {
    for (uint32_t c = 0; c < comps; ++c) out[c] = value(n - 1, c);
    return out;
  }
  while (k + 2 < n && times[k + 1] <= t) ++k;
  const double t0 = times[k], t1 = times[k + 1], dt = t1 - t0, u = (t - t0) / dt;
  if (interpolation == maniInterpolationStep) {
    for (uint32_t c = 0; c < comps; ++c) out[c] = value(k, c);
    return out;
  }
  if (!cubic) {
    if (!rotation) {
      for (uint32_t c = 0; c < comps; ++c) out[c] = value(k, c) + u * (value(k + 1, c) - value(k, c));
      return out;
    }
    double a[4], b[4], dot = 0;
    for (int c = 0; c < 4; ++c) a[c] = value(k, c), b[c] = value(k + 1, c), dot += a[c] * b[c];
    if (dot < 0) {
      for (int c = 0; c < 4; ++c) b[c] = -b[c];
      dot = -dot;
    }
    double wa = 1 - u, wb = u;
    if (dot < 1 - 1e-12) {
      const double th = acos(dot > 1 ? 1 : dot);
      wa = sin((1 - u) * th) / sin(th);
      wb = sin(u * th) / sin(th);
    }
    double len = 0;
    for (int c = 0; c < 4; ++c) out[c] = wa * a[c] + wb * b[c], len += out[c] * out[c];
    for (int c = 0; c < 4; ++c) out[c] /= sqrt(len);
    return out;
  }
  const double u2 = u * u, u3 = u2 * u;
  const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  double len = 0;
  for (uint32_t c = 0; c < comps; ++c) {
    const double p0 = values[(3 * k + 1) * comps + c], m0 = values[(3 * k + 2) * comps + c] * dt;
    const double p1 = values[(3 * (k + 1) + 1) * comps + c], m1 = values[(3 * (k + 1)) * comps + c] * dt;
    out[c] = h00 * p0 + h10 * m0 + h01 * p1 + h11 * m1;
    len += out[c] * out[c];
  }
  if (rotation)
    for (uint32_t c = 0; c < comps; ++c) out[c] /= sqrt(len);
  return out;
}

std::vector<float> Read(const maniGltf* g, uint32_t accessor) {
  std::vector<float> v(mani_GltfAccessorValues(g, accessor));
  EXPECT_EQ(mani_GltfReadFloats(g, accessor, v.data(), v.size()).result, mani_success);
  return v;
}

TEST(GltfModels, ClipsAtTheirGridEqualTheKeysEvaluated) {
  const char* files[] = {
      "khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb",
      "khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb",
      "khronos/CesiumMan/glTF-Binary/CesiumMan.glb",
      "khronos/Fox/glTF-Binary/Fox.glb",
      "khronos/SimpleSkin/glTF/SimpleSkin.gltf",
      "khronos/InterpolationTest/glTF-Binary/InterpolationTest.glb",
      "khronos/RecursiveSkeletons/glTF-Binary/RecursiveSkeletons.glb",
  };
  std::string probe;
  if (SharedData().empty() || !ReadFile(SharedData() + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  uint64_t compared = 0;
  uint32_t seen[3] = {0, 0, 0};  // channels of each interpolation compared
  for (const char* file : files) {
    SCOPED_TRACE(file);
    Model m;
    ASSERT_TRUE(m.Load(file));
    ASSERT_EQ(m.open->result.result, mani_success);
    const maniGltf* g = m.open->g;
    maniBuilder* b = m.open->builder.b;
    maniGltfOptions opt = Options();
    // The skeleton: skeleton 0, or for a rigid document every root's subtree
    // in turn (InterpolationTest animates nine separate cubes).
    std::vector<uint32_t> roots;
    if (maniGltf_GetSkeletonCount(g) == 0) {
      for (uint32_t n = 0; n < g->nodeCount; ++n)
        if (g->nodes[n].parent == MANI_GLTF_NONE) roots.push_back(n);
    } else {
      roots.push_back(MANI_GLTF_NONE);
    }
    for (uint32_t root : roots) {
      maniImportResult r = root == MANI_GLTF_NONE ? maniBuildGltfSkeleton(b, g, 0, &opt)
                                                  : maniBuildGltfNodeSkeleton(b, g, root, &opt);
      ASSERT_EQ(r.result, mani_success);
      SkelFile sk;
      ASSERT_TRUE(sk.Take(m.open->builder));
      Posed pose(&sk.s);
      for (uint32_t a = 0; a < g->animationCount; ++a) {
        maniImportClipOptions co = maniDefaultImportClipOptions();
        ASSERT_EQ(maniBuildGltfClip(b, g, a, &sk.s, &opt, &co, nullptr).result, mani_success) << "animation " << a;
        ClipFile cf;
        cf.file = m.open->builder.Built();
        ASSERT_EQ(maniOpenClip(cf.file.data(), cf.file.size, &cf.c).result, mani_success);
        const uint32_t n = maniClip_GetSampleCount(&cf.c);
        const float rate = maniClip_GetSampleRate(&cf.c), duration = maniClip_GetDuration(&cf.c);
        const mani_GltfAnimation* an = &g->animations[a];
        for (uint32_t c = 0; c < an->channelCount; ++c) {
          const mani_GltfChannel* ch = &g->channels[an->channelStart + c];
          if (ch->path > mani_gltfPathScale || ch->node == MANI_GLTF_NONE) continue;
          uint32_t bone = maniSkeleton_FindBone(&sk.s, g->nodes[ch->node].boneName.text, g->nodes[ch->node].boneName.length);
          if (bone == MANI_NO_BONE) continue;
          const mani_GltfSampler* s = &g->samplers[an->samplerStart + ch->sampler];
          std::vector<float> times = Read(g, s->input), values = Read(g, s->output);
          const uint32_t comps = ch->path == mani_gltfPathRotation ? 4 : 3;
          seen[s->interpolation]++;
          for (uint32_t k = 0; k < n; ++k) {
            const double t = k + 1 == n ? (double)duration : (double)k / (double)rate;
            // The grid's own time: sampling there reads sample k.
            ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, (float)t, pose.pose), mani_success);
            const maniTransform local = maniPose_GetLocal(pose.pose, bone);
            std::vector<double> want = Evaluate(times, values, comps, s->interpolation,
                                                ch->path == mani_gltfPathRotation, (double)(float)t);
            if (ch->path == mani_gltfPathRotation) {
              const float got[4] = {local.rotation.x, local.rotation.y, local.rotation.z, local.rotation.w};
              const double dot = want[0] * got[0] + want[1] * got[1] + want[2] * got[2] + want[3] * got[3];
              // Each component within 4e-6 of the evaluation, either sign:
              // binary32 rounding of the components and the float time.
              for (uint32_t i = 0; i < 4; ++i)
                EXPECT_NEAR(got[i], dot < 0 ? -want[i] : want[i], 4e-6) << "channel " << c << " sample " << k;
            } else {
              const float* got = ch->path == mani_gltfPathTranslation ? &local.translation.x : &local.scale.x;
              for (uint32_t i = 0; i < 3; ++i) {
                const double tol = 4e-6 * (fabs(want[i]) > 1 ? fabs(want[i]) : 1.0);
                EXPECT_NEAR(got[i], want[i], tol) << "channel " << c << " sample " << k << " component " << i;
              }
            }
            compared++;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 5000u);  // 5966 samples of bound channels
  EXPECT_GT(seen[maniInterpolationStep], 0u);
  EXPECT_GT(seen[maniInterpolationLinear], 0u);
  EXPECT_GT(seen[maniInterpolationCubicSpline], 0u);
}

}  // namespace

namespace {

// -- Against three.js (data/gltf-ref/poses, tools/gltf/three_ref.mjs) ---------------------

struct Json {
  std::string text;
  mcore_JsonDoc doc;
  bool ok = false;
  explicit Json(const std::string& path) {
    if (!ReadFile(path, &text)) return;
    ok = mcore_JsonReadAlloc((const uint8_t*)text.data(), text.size(), nullptr, &doc).reason == mcore_jsonOk;
  }
  ~Json() {
    if (ok) mcore_JsonRelease(&doc);
  }
  uint32_t Get(uint32_t o, const char* k) const { return mcore_JsonFind(&doc, o, k, strlen(k)); }
  std::vector<uint32_t> Items(uint32_t a) const {
    std::vector<uint32_t> out;
    const mcore_JsonToken* t = mcore_JsonAt(&doc, a);
    if (t == nullptr || t->type != mcore_jsonArray) return out;
    uint32_t i = a + 1;
    for (uint32_t k = 0; k < t->count; ++k) out.push_back(i), i = mcore_JsonAt(&doc, i)->next;
    return out;
  }
  double Number(uint32_t t) const {
    double v = NAN;
    EXPECT_EQ(mcore_JsonGetDouble(&doc, t, &v), mcore_jsonOk);
    return v;
  }
  std::string String(uint32_t t) const {
    char buf[512];
    size_t n = 0;
    if (mcore_JsonGetString(&doc, t, buf, sizeof buf, &n) != mcore_jsonOk) return "";
    return std::string(buf, n);
  }
};

// Each model's clips, built at 240 samples a second, against three's
// AnimationMixer at its key times and midpoints: translation, rotation
// (either sign, three's normalized) and scale within 1e-4 (3.2e-5 measured: binary32 rounding, the 240 Hz
// grid's linear steps between samples, slerp against three's lerp for near
// keys). STEP channels are compared away from their keys only (the grid
// interpolates between a step's two samples within 1/240 s of it).
TEST(GltfModels, ClipsMatchThreeJs) {
  std::string probe;
  if (SharedData().empty() || !ReadFile(SharedData() + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  std::string index;
  ASSERT_TRUE(ReadFile("lib/anim/test/data/gltf-ref/poses/index.tsv", &index));
  std::istringstream lines(index);
  std::string line;
  uint64_t compared = 0, weightsCompared = 0;
  uint32_t models = 0;
  double worst = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream cols(line);
    std::string file, source;
    cols >> file >> source;
    SCOPED_TRACE(source);
    Json ref("lib/anim/test/data/gltf-ref/poses/" + file);
    ASSERT_TRUE(ref.ok) << file;
    Model m;
    ASSERT_TRUE(m.Load(source));
    if (m.open->result.result != mani_success) continue;
    const maniGltf* g = m.open->g;
    maniBuilder* b = m.open->builder.b;
    maniGltfOptions opt = Options();
    models++;
    // Every root's subtree as a skeleton: every node channel binds to one.
    for (uint32_t root = 0; root < g->nodeCount; ++root) {
      if (g->nodes[root].parent != MANI_GLTF_NONE) continue;
      ASSERT_EQ(maniBuildGltfNodeSkeleton(b, g, root, &opt).result, mani_success);
      SkelFile sk;
      ASSERT_TRUE(sk.Take(m.open->builder));
      Posed pose(&sk.s);
      for (uint32_t an : ref.Items(ref.Get(0, "animations"))) {
        const uint32_t a = (uint32_t)ref.Number(ref.Get(an, "index"));
        maniImportClipOptions co = maniDefaultImportClipOptions();
        co.sampleRate = 240.0f;
        ASSERT_EQ(maniBuildGltfClip(b, g, a, &sk.s, &opt, &co, nullptr).result, mani_success) << "animation " << a;
        ClipFile cf;
        cf.file = m.open->builder.Built();
        ASSERT_EQ(maniOpenClip(cf.file.data(), cf.file.size, &cf.c).result, mani_success);
        EXPECT_NEAR(maniClip_GetDuration(&cf.c), ref.Number(ref.Get(an, "duration")), 1e-6);
        std::vector<double> times;
        for (uint32_t t : ref.Items(ref.Get(an, "times"))) times.push_back(ref.Number(t));
        for (uint32_t nd : ref.Items(ref.Get(an, "nodes"))) {
          const uint32_t node = (uint32_t)ref.Number(ref.Get(nd, "node"));
          const std::string path = ref.String(ref.Get(nd, "path"));
          const bool step = ref.String(ref.Get(nd, "interpolation")) == "STEP";
          if (node >= g->nodeCount) continue;
          const uint32_t bone =
              maniSkeleton_FindBone(&sk.s, g->nodes[node].boneName.text, g->nodes[node].boneName.length);
          if (bone == MANI_NO_BONE) continue;
          if (path == "weights") {
            // "<bone name>/<target name>" tracks, the names from the mesh's
            // extras.targetNames when it names every target, else indices.
            const uint32_t mesh = g->nodes[node].mesh;
            const uint32_t targets = maniGltf_GetPrimitiveTargetCount(g, mesh, 0);
            std::vector<std::string> names;
            const mcore_JsonToken* tn = mcore_JsonAt(&g->json, g->meshes[mesh].targetNamesToken);
            if (tn != nullptr && tn->count == targets) {
              uint32_t at = g->meshes[mesh].targetNamesToken + 1;
              for (uint32_t k = 0; k < targets; ++k) {
                char buf[300];
                size_t len = 0;
                if (mcore_JsonGetString(&g->json, at, buf, sizeof buf, &len) == mcore_jsonOk) names.emplace_back(buf, len);
                at = mcore_JsonAt(&g->json, at)->next;
              }
            }
            if (names.size() != targets) {
              names.clear();
              for (uint32_t k = 0; k < targets; ++k) names.push_back(std::to_string(k));
            }
            std::vector<uint32_t> tracks;
            const std::string bn(g->nodes[node].boneName.text, g->nodes[node].boneName.length);
            for (uint32_t k = 0; k < targets; ++k) {
              const std::string full = bn + "/" + names[k];
              tracks.push_back(maniClip_FindFloatTrack(&cf.c, full.data(), full.size()));
              ASSERT_NE(tracks.back(), MANI_NO_TRACK) << full;
            }
            std::vector<uint32_t> values = ref.Items(ref.Get(nd, "values"));
            ASSERT_EQ(values.size(), times.size() * targets);
            std::vector<float> got(maniClip_GetFloatTrackCount(&cf.c));
            for (size_t i = 0; i < times.size(); ++i) {
              if (step) continue;  // (no shared model steps its weights)
              ASSERT_EQ(maniClip_SampleFloats(&cf.c, (float)times[i], got.data(), (uint32_t)got.size(), nullptr),
                        mani_success);
              for (uint32_t k = 0; k < targets; ++k) {
                const double want = ref.Number(values[i * targets + k]);
                EXPECT_NEAR(got[tracks[k]], want, 1e-4) << "weight " << k << " of node " << node << " at " << times[i];
                worst = std::max(worst, fabs(got[tracks[k]] - want));
              }
              compared++;
              weightsCompared++;
            }
            continue;
          }
          const uint32_t comps = path == "rotation" ? 4 : 3;
          std::vector<uint32_t> values = ref.Items(ref.Get(nd, "values"));
          ASSERT_EQ(values.size(), times.size() * comps);
          // The channel's keys, for STEP's exclusion.
          std::vector<float> keys;
          if (step) {
            const mani_GltfAnimation* ga = &g->animations[a];
            for (uint32_t c = 0; c < ga->channelCount; ++c) {
              const mani_GltfChannel* ch = &g->channels[ga->channelStart + c];
              if (ch->node == node && (uint32_t)ch->path == (path == "translation" ? 0u : path == "rotation" ? 1u : 2u))
                keys = Read(g, g->samplers[ga->samplerStart + ch->sampler].input);
            }
          }
          for (size_t i = 0; i < times.size(); ++i) {
            bool nearKey = false;
            for (float k : keys) nearKey |= fabs((double)k - times[i]) < 2.0 / 240.0;
            if (nearKey) continue;
            ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, (float)times[i], pose.pose), mani_success);
            const maniTransform l = maniPose_GetLocal(pose.pose, bone);
            const float* got = path == "translation" ? &l.translation.x : path == "rotation" ? &l.rotation.x : &l.scale.x;
            double want[4], dot = 0;
            for (uint32_t c = 0; c < comps; ++c) want[c] = ref.Number(values[i * comps + c]), dot += want[c] * got[c];
            if (comps == 4) {
              // three keeps keys stored off unit length as they are
              // (SimpleSkin's by 2.3e-4); Maul's clip builder normalizes.
              const double len = sqrt(want[0] * want[0] + want[1] * want[1] + want[2] * want[2] + want[3] * want[3]);
              for (uint32_t c = 0; c < 4; ++c) want[c] /= len;
            }
            for (uint32_t c = 0; c < comps; ++c) {
              const double w = comps == 4 && dot < 0 ? -want[c] : want[c];
              const double tol = 1e-4 * (fabs(w) > 1 ? fabs(w) : 1.0);
              EXPECT_NEAR(got[c], w, tol) << path << " of node " << node << " at " << times[i];
              worst = std::max(worst, fabs(got[c] - w) / (fabs(w) > 1 ? fabs(w) : 1.0));
            }
            compared++;
          }
        }
      }
    }
  }
  EXPECT_GE(models, 15u);
  EXPECT_GT(compared, 5000u);
  EXPECT_GT(weightsCompared, 100u);
  printf("three.js poses: %u models, %llu values compared (%llu of morph weights), worst relative difference %.3g\n",
         models, (unsigned long long)compared, (unsigned long long)weightsCompared, worst);
}

}  // namespace

namespace {

// A node's world matrix (row-major 4x4, binary64): its locals up to the root.
void NodeWorld(const maniGltf* g, uint32_t node, double out[16]) {
  double w[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  for (uint32_t n = node; n != MANI_GLTF_NONE; n = g->nodes[n].parent) {
    const mani_GltfNode* nd = &g->nodes[n];
    double l[16];
    if (nd->hasMatrix) {
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) l[4 * r + c] = nd->matrix[4 * c + r];
    } else {
      const double x = nd->rotation[0], y = nd->rotation[1], z = nd->rotation[2], q = nd->rotation[3];
      const double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * q), 2 * (x * z + y * q),
                           2 * (x * y + z * q), 1 - 2 * (x * x + z * z), 2 * (y * z - x * q),
                           2 * (x * z - y * q), 2 * (y * z + x * q), 1 - 2 * (x * x + y * y)};
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) l[4 * r + c] = R[3 * r + c] * nd->scale[c];
        l[4 * r + 3] = nd->translation[r];
      }
      l[12] = l[13] = l[14] = 0, l[15] = 1;
    }
    double t[16];
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) {
        double sum = 0;
        for (int k = 0; k < 4; ++k) sum += l[4 * r + k] * w[4 * k + c];
        t[4 * r + c] = sum;
      }
    memcpy(w, t, sizeof w);
  }
  memcpy(out, w, sizeof w);
}

// Skinned vertices against three.js's SkinnedMesh.applyBoneTransform: the
// skeleton and clips built with the placement folded (three's space is the
// glTF scene root's), the skin, the influences; at each reference time the
// clip sampled, the palette composed and each of the first 64 vertices
// skinned here in binary64 as sum w_j palette_j p, in the glTF scene
// root's space. three's values are in the skinned mesh node's frame
// (GLTFLoader binds with the mesh's world matrix, and applyBoneTransform
// ends with its inverse; the reference README says the scene root's, which
// holds only where that node is at the root untransformed), so they are
// carried to the scene root by the node's world matrix here. Within 1e-4 of
// the model's extent (binary32 palettes and the 240 Hz grid; 5e-4 for
// SimpleSkin, below).
TEST(GltfModels, SkinnedVerticesMatchThreeJs) {
  std::string probe;
  if (SharedData().empty() || !ReadFile(SharedData() + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  std::string index;
  ASSERT_TRUE(ReadFile("lib/anim/test/data/gltf-ref/poses/index.tsv", &index));
  std::istringstream lines(index);
  std::string line;
  uint32_t models = 0;
  uint64_t compared = 0;
  double worst = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream cols(line);
    std::string file, source;
    cols >> file >> source;
    Json ref("lib/anim/test/data/gltf-ref/poses/" + file);
    ASSERT_TRUE(ref.ok);
    const uint32_t skinning = ref.Get(0, "skinning");
    if (skinning == MCORE_JSON_NONE || mcore_JsonAt(&ref.doc, skinning)->type != mcore_jsonObject) continue;
    SCOPED_TRACE(source);
    Model m;
    ASSERT_TRUE(m.Load(source));
    if (m.open->result.result != mani_success) continue;
    const maniGltf* g = m.open->g;
    maniBuilder* b = m.open->builder.b;
    const uint32_t skinIndex = (uint32_t)ref.Number(ref.Get(skinning, "skin"));
    const uint32_t mesh = (uint32_t)ref.Number(ref.Get(skinning, "mesh"));
    const uint32_t prim = (uint32_t)ref.Number(ref.Get(skinning, "primitive"));
    const uint32_t count = (uint32_t)ref.Number(ref.Get(skinning, "vertices"));
    maniGltfOptions opt = Options();
    opt.foldPlacement = 1;
    SkelFile sk;
    ASSERT_EQ(maniBuildGltfSkeleton(b, g, maniGltf_GetSkinSkeleton(g, skinIndex), &opt).result, mani_success);
    ASSERT_TRUE(sk.Take(m.open->builder));
    ASSERT_EQ(maniBuildGltfSkin(b, g, skinIndex, &sk.s, &opt).result, mani_success);
    SkinFile skin;
    skin.file = m.open->builder.Built();
    ASSERT_EQ(maniOpenSkin(skin.file.data(), skin.file.size, &skin.s).result, mani_success);
    ASSERT_EQ(maniBuildGltfInfluences(b, g, mesh, prim, &skin.s).result, mani_success);
    File infFile = m.open->builder.Built();
    maniInfluences inf;
    ASSERT_EQ(maniOpenInfluences(infFile.data(), infFile.size, &inf).result, mani_success);
    const mani_GltfPrimitive* p = &g->primitives[g->meshes[mesh].primitiveStart + prim];
    uint32_t posAcc = MANI_GLTF_NONE;
    for (uint32_t i = 0; i < p->attributeCount; ++i) {
      const mani_GltfAttribute* at = &g->attributes[p->attributeStart + i];
      if (at->semantic.length == 8 && memcmp(at->semantic.text, "POSITION", 8) == 0) posAcc = at->accessor;
    }
    ASSERT_NE(posAcc, MANI_GLTF_NONE);
    std::vector<float> positions = Read(g, posAcc);
    // SimpleSkin's rotation keys are off unit length by up to 2.3e-4, which
    // three applies as they are (a scaled rotation) and Maul normalizes.
    const double tolerance = source.find("SimpleSkin") != std::string::npos ? 5e-4 : 1e-4;
    double meshWorld[16];
    NodeWorld(g, (uint32_t)ref.Number(ref.Get(skinning, "node")), meshWorld);
    Posed pose(&sk.s);
    const uint32_t joints = maniSkin_GetJointCount(&skin.s);
    std::vector<maniAffine> palette(joints);
    double extent = 1e-9;
    for (float v : positions) extent = std::max(extent, (double)fabsf(v));
    models++;
    int lastAnimation = -1;
    ClipFile cf;
    for (uint32_t smp : ref.Items(ref.Get(skinning, "samples"))) {
      const int a = (int)ref.Number(ref.Get(smp, "animation"));
      const double t = ref.Number(ref.Get(smp, "time"));
      if (a != lastAnimation) {
        maniImportClipOptions co = maniDefaultImportClipOptions();
        co.sampleRate = 240.0f;
        ASSERT_EQ(maniBuildGltfClip(b, g, (uint32_t)a, &sk.s, &opt, &co, nullptr).result, mani_success);
        cf.file = m.open->builder.Built();
        ASSERT_EQ(maniOpenClip(cf.file.data(), cf.file.size, &cf.c).result, mani_success);
        lastAnimation = a;
      }
      ASSERT_EQ(maniClip_Sample(&cf.c, &sk.s, (float)t, pose.pose), mani_success);
      ASSERT_EQ(maniPose_ComputeModel(pose.pose, &sk.s), mani_success);
      uint32_t pc = 0;
      ASSERT_EQ(maniPose_ComputePalette(pose.pose, &sk.s, &skin.s, palette.data(), joints, &pc), mani_success);
      std::vector<uint32_t> values = ref.Items(ref.Get(smp, "values"));
      ASSERT_EQ(values.size(), 3u * count);
      for (uint32_t v = 0; v < count; ++v) {
        double out[3] = {0, 0, 0};
        const double q[3] = {positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
        for (uint32_t slot = 0; slot < maniInfluences_GetPerVertex(&inf); ++slot) {
          float w = 0;
          uint32_t j = maniInfluences_GetInfluence(&inf, v, slot, &w);
          if (w == 0.0f) continue;
          const maniAffine& P = palette[j];
          for (int r = 0; r < 3; ++r) {
            double x = (&P.columns[0].x)[r] * q[0] + (&P.columns[1].x)[r] * q[1] + (&P.columns[2].x)[r] * q[2] +
                       (&P.columns[3].x)[r];
            out[r] += w * x;
          }
        }
        const double local[3] = {ref.Number(values[3 * v]), ref.Number(values[3 * v + 1]), ref.Number(values[3 * v + 2])};
        for (int r = 0; r < 3; ++r) {
          const double want = meshWorld[4 * r] * local[0] + meshWorld[4 * r + 1] * local[1] +
                              meshWorld[4 * r + 2] * local[2] + meshWorld[4 * r + 3];
          EXPECT_NEAR(out[r], want, tolerance * extent) << "vertex " << v << " at " << t;
          worst = std::max(worst, fabs(out[r] - want) / extent);
        }
        compared++;
      }
    }
  }
  EXPECT_GE(models, 5u);
  printf("three.js skinning: %u models, %llu vertices compared, worst difference %.3g of the extent\n", models,
         (unsigned long long)compared, worst);
}

}  // namespace

namespace {

// Joints in two trees: each tree's share is its joints, their common node
// and the nodes between; the skeleton has two roots, the lowest node's first.
// Unfolded, the placement is the first root's and the second root is put
// under it (its nodes above with the first's placement taken off).
TEST(GltfSkeleton, JointsInSeparateTrees) {
  const char* doc =
      "\"nodes\":[{\"name\":\"A\",\"translation\":[0,0,1],\"children\":[1]},{\"name\":\"A1\"},"
      "{\"name\":\"B\",\"translation\":[3,0,0],\"children\":[3]},{\"name\":\"B1\",\"translation\":[0,2,0]}],"
      "\"skins\":[{\"joints\":[1,3]}]";
  Open o(Doc().Json(doc));
  ASSERT_EQ(o.result.result, mani_success) << o.result.reason;
  ASSERT_EQ(maniGltf_GetSkeletonCount(o.g), 1u);
  maniGltfOptions opt = Options();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  ASSERT_EQ(maniSkeleton_GetBoneCount(&sk.s), 2u);
  EXPECT_EQ(Name(&sk.s, 0), "A1");
  EXPECT_EQ(Name(&sk.s, 1), "B1");
  EXPECT_EQ(maniSkeleton_GetParent(&sk.s, 1), MANI_NO_BONE);
  maniAffine p;
  ASSERT_EQ(maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p).result, mani_success);
  EXPECT_EQ(p.columns[3].z, 1.0f);  // A's
  // B1 under the placement: B (3 0 0) then B1 (0 2 0), A's (0 0 1) taken off.
  maniTransform b1 = maniSkeleton_GetRest(&sk.s, 1);
  EXPECT_EQ(b1.translation.x, 3.0f);
  EXPECT_EQ(b1.translation.y, 2.0f);
  EXPECT_EQ(b1.translation.z, -1.0f);
  opt.foldPlacement = 1;
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  ASSERT_TRUE(sk.Take(o.builder));
  EXPECT_EQ(maniSkeleton_GetRest(&sk.s, 0).translation.z, 1.0f);
  EXPECT_EQ(maniSkeleton_GetRest(&sk.s, 1).translation.z, 0.0f);
  EXPECT_EQ(maniSkeleton_GetRest(&sk.s, 1).translation.x, 3.0f);
}

}  // namespace

namespace {

// SimpleSkin's external buffers not supplied: each build that reads one
// says Pending with the buffer; supplied, they build.
TEST(GltfModels, PendingUntilSupplied) {
  std::string root = SharedData(), text;
  if (root.empty() || !ReadFile(root + "/gltf/khronos/SimpleSkin/glTF/SimpleSkin.gltf", &text))
    GTEST_SKIP() << "no ../shared/data";
  Open o(text);
  ASSERT_EQ(o.result.result, mani_success);
  maniGltfOptions opt = Options();
  // The skeleton needs no buffer.
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(o.builder));
  // The inverse binds are buffer 2.
  maniImportResult r = maniBuildGltfSkin(o.builder.b, o.g, 0, &sk.s, &opt);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonPending);
  EXPECT_EQ(r.item, 2u);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  r = maniBuildGltfClip(o.builder.b, o.g, 0, &sk.s, &opt, &co, nullptr);  // keys in buffer 3
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonPending);
  EXPECT_EQ(r.item, 3u);
  std::vector<std::string> buffers(4);
  const char* names[4] = {"skinGeometry.bin", "skinningData.bin", "inverseBindMatrices.bin", "skinAnimation.bin"};
  for (uint32_t i = 2; i < 4; ++i) {
    ASSERT_TRUE(ReadFile(root + "/gltf/khronos/SimpleSkin/glTF/" + names[i], &buffers[i]));
    ASSERT_EQ(maniGltf_SupplyBuffer(o.g, i, buffers[i].data(), buffers[i].size()).result, mani_success);
  }
  ASSERT_EQ(maniBuildGltfSkin(o.builder.b, o.g, 0, &sk.s, &opt).result, mani_success);
  SkinFile skin;
  skin.file = o.builder.Built();
  ASSERT_EQ(maniOpenSkin(skin.file.data(), skin.file.size, &skin.s).result, mani_success);
  r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin.s);  // joints and weights in buffer 1
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonPending);
  EXPECT_EQ(r.item, 1u);
  EXPECT_EQ(maniBuildGltfClip(o.builder.b, o.g, 0, &sk.s, &opt, &co, nullptr).result, mani_success);
}

}  // namespace

namespace {

// Every builder on whatever opens: each open of a byte-patched document
// followed by every skeleton, node skeleton, placement, skin, influences,
// morph targets and clip build. Each result a code; never a crash or a read
// outside the bytes (run under --config=asan to see the reads).
int BuildEverything(Open& o) {
  if (o.result.result != mani_success) return 0;
  maniGltf* g = o.g;
  maniBuilder* b = o.builder.b;
  maniGltfOptions opt = Options();
  opt.foldPlacement = 1;
  int built = 0;
  std::vector<SkelFile> skeletons;
  for (uint32_t k = 0; k < maniGltf_GetSkeletonCount(g); ++k) {
    maniAffine p;
    built += maniGltf_GetSkeletonPlacement(g, k, &opt, &p).result == mani_success ? 0 : 0;
    if (maniBuildGltfSkeleton(b, g, k, &opt).result != mani_success) continue;
    skeletons.emplace_back();
    if (!skeletons.back().Take(o.builder)) skeletons.pop_back();
    built++;
  }
  if (maniGltf_GetNodeCount(g) > 0 && maniBuildGltfNodeSkeleton(b, g, 0, &opt).result == mani_success) {
    skeletons.emplace_back();
    if (!skeletons.back().Take(o.builder)) skeletons.pop_back();
    built++;
  }
  for (const SkelFile& sk : skeletons) {
    for (uint32_t s = 0; s < maniGltf_GetSkinCount(g); ++s) {
      if (maniBuildGltfSkin(b, g, s, &sk.s, &opt).result != mani_success) continue;
      built++;
      SkinFile skin;
      skin.file = o.builder.Built();
      if (maniOpenSkin(skin.file.data(), skin.file.size, &skin.s).result != mani_success) continue;
      for (uint32_t m = 0; m < maniGltf_GetMeshCount(g); ++m)
        for (uint32_t p = 0; p < maniGltf_GetPrimitiveCount(g, m); ++p)
          built += maniBuildGltfInfluences(b, g, m, p, &skin.s).result == mani_success;
    }
    for (uint32_t a = 0; a < maniGltf_GetAnimationCount(g); ++a) {
      maniImportClipOptions co = maniDefaultImportClipOptions();
      uint32_t bound = 0;
      built += maniBuildGltfClip(b, g, a, &sk.s, &opt, &co, &bound).result == mani_success;
    }
  }
  for (uint32_t m = 0; m < maniGltf_GetMeshCount(g); ++m)
    for (uint32_t p = 0; p < maniGltf_GetPrimitiveCount(g, m); ++p)
      if (maniGltf_GetPrimitiveTargetCount(g, m, p) > 0)
        built += maniBuildGltfMorphTargets(b, g, m, p, &opt).result == mani_success;
  return built;
}

TEST(GltfBuildRobustness, BytePatchedModelsBuildOrRefuse) {
  const char* files[] = {
      "khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb",
      "khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb",
  };
  std::string probe;
  if (SharedData().empty() || !ReadFile(SharedData() + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  uint64_t runs = 0, opened = 0, builds = 0;
  for (const char* file : files) {
    SCOPED_TRACE(file);
    std::string bytes;
    ASSERT_TRUE(ReadFile(SharedData() + "/gltf/" + file, &bytes));
    {
      Open whole(bytes.data(), bytes.size());
      ASSERT_GT(BuildEverything(whole), 2);
    }
    // Every other byte of the first 4 KiB (header, JSON, the start of BIN),
    // then every 9th, each set to three values; and truncations every 61
    // bytes.
    for (size_t at = 0; at < bytes.size(); at += at < 4096 ? 2 : 9) {
      for (uint8_t v : {(uint8_t)0x00, (uint8_t)0xFF, (uint8_t)(bytes[at] ^ 0x01)}) {
        std::string patched = bytes;
        patched[at] = (char)v;
        Open o(patched.data(), patched.size());
        runs++;
        opened += o.result.result == mani_success;
        builds += BuildEverything(o);
      }
    }
    for (size_t n = 0; n < bytes.size(); n += 61) {
      Open o(bytes.data(), n);
      runs++;
      builds += BuildEverything(o);
    }
  }
  printf("byte patches: %llu documents, %llu opened, %llu builds succeeded\n", (unsigned long long)runs,
         (unsigned long long)opened, (unsigned long long)builds);
  EXPECT_GT(opened, 1000u);
}

}  // namespace

namespace {

// UnityGLTF's "AnimateAllTheThings" (blender-io/24_animation_pointer): 70
// pointer channels, those to materials, cameras and lights become float
// tracks named by their pointers.
TEST(GltfModels, AnimationPointerChannelsAsFloatTracks) {
  Model m;
  std::string probe;
  if (SharedData().empty() || !ReadFile(SharedData() + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  ASSERT_TRUE(m.Load("blender-io/24_animation_pointer/24_animation_pointer.gltf"));
  ASSERT_EQ(m.open->result.result, mani_success);
  const maniGltf* g = m.open->g;
  maniGltfOptions opt = Options();
  ASSERT_EQ(maniBuildGltfNodeSkeleton(m.open->builder.b, g, 0, &opt).result, mani_success);
  SkelFile sk;
  ASSERT_TRUE(sk.Take(m.open->builder));
  uint32_t pointerTracks = 0;
  for (uint32_t a = 0; a < maniGltf_GetAnimationCount(g); ++a) {
    maniImportClipOptions co = maniDefaultImportClipOptions();
    uint32_t bound = 0;
    maniImportResult r = maniBuildGltfClip(m.open->builder.b, g, a, &sk.s, &opt, &co, &bound);
    ASSERT_EQ(r.result, mani_success) << "animation " << a << " reason " << r.reason << " item " << r.item;
    ClipFile cf;
    cf.file = m.open->builder.Built();
    ASSERT_EQ(maniOpenClip(cf.file.data(), cf.file.size, &cf.c).result, mani_success);
    for (uint32_t t = 0; t < maniClip_GetFloatTrackCount(&cf.c); ++t) {
      size_t len = 0;
      const char* name = maniClip_GetFloatTrackName(&cf.c, t, &len);
      std::string n(name, len);
      if (n.rfind("/materials/", 0) == 0 || n.rfind("/extensions/", 0) == 0 || n.rfind("/cameras/", 0) == 0)
        pointerTracks++;
    }
  }
  EXPECT_GT(pointerTracks, 10u);
  printf("24_animation_pointer: %u pointer float tracks\n", pointerTracks);
}

}  // namespace
