// maul import (tools/cli/import.c) on testdata/SimpleSkin, a glTF with four
// external buffers beside it: the report's rows and counts, the files --out
// writes (each opens as the Maul file its row names), a refused document and
// usage and I/O errors. The expected counts come from the glTF itself
// (testdata/README.md): 2 joints, 10 vertices, 1 rotation channel.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "tools/cli/import.h"
}
#include "lib/anim/test/fixtures/data_testing.h"
#include "maul/anim/clip.h"
#include "maul/anim/skeleton.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

namespace {

const char* const kDoc = "tools/cli/testdata/SimpleSkin/SimpleSkin.gltf";

std::string TmpDir() { return MaulTestTempDir(); }

// Runs maul_Import with the arguments; its stdout in *out.
int RunImport(std::vector<std::string> args, std::string* out) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(&a[0]);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int rc = maul_Import((int)argv.size(), argv.data());
  fflush(stdout);
  *out = testing::internal::GetCapturedStdout();
  (void)testing::internal::GetCapturedStderr();
  return rc;
}

std::vector<std::string> Row(const std::string& report, const std::string& kind) {
  std::istringstream lines(report);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::vector<std::string> w;
    std::string x;
    while (words >> x) w.push_back(x);
    if (!w.empty() && w[0] == kind) return w;
  }
  return {};
}

// A file's bytes at 16-byte alignment (the opens need MANI_FILE_ALIGNMENT).
struct File {
  std::vector<uint64_t> words;
  size_t size = 0;
  explicit File(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size = bytes.size();
    words.resize(size / 8 + 2);
    if (size) memcpy(words.data(), bytes.data(), size);
  }
  const void* data() const { return words.data(); }
};

TEST(MaulImport, SimpleSkinReportAndFiles) {
  const std::string dir = TmpDir() + "/import-out";
  std::string report;
  ASSERT_EQ(RunImport({kDoc, "--out", dir}, &report), 0) << report;
  EXPECT_NE(report.find("SimpleSkin.gltf: ok\n"), std::string::npos) << report;
  for (const char* b : {"0 skinGeometry.bin: 168 bytes, ok", "1 skinningData.bin: 320 bytes, ok",
                        "2 inverseBindMatrices.bin: 128 bytes, ok", "3 skinAnimation.bin: 240 bytes, ok"})
    EXPECT_NE(report.find(std::string("buffer ") + b), std::string::npos) << b;
  // kind index name count bytes identity result (the skin and mesh are unnamed).
  auto skeleton = Row(report, "skeleton");
  ASSERT_EQ(skeleton.size(), 7u) << report;
  EXPECT_EQ(skeleton[1], "0");
  EXPECT_EQ(skeleton[2], "#1");  // node 1, unnamed
  EXPECT_EQ(skeleton[3], "2");
  EXPECT_EQ(skeleton[6], "ok");
  auto skin = Row(report, "skin");
  ASSERT_EQ(skin.size(), 6u) << report;
  EXPECT_EQ(skin[2], "2");
  auto influences = Row(report, "influences");
  ASSERT_EQ(influences.size(), 6u) << report;
  EXPECT_EQ(influences[1], "0.0");
  EXPECT_EQ(influences[2], "10");
  auto clip = Row(report, "clip");
  ASSERT_EQ(clip.size(), 6u) << report;
  EXPECT_EQ(clip[1], "0@0");
  EXPECT_EQ(clip[2], "1");
  EXPECT_NE(report.find("4 items, 0 refused, "), std::string::npos);
  // The four items and the clip compressed.
  EXPECT_NE(report.find("5 files written to " + dir), std::string::npos);
  auto compressed = Row(report, "compressed");
  ASSERT_GE(compressed.size(), 5u) << report;
  EXPECT_EQ(compressed[1], "1");
  EXPECT_EQ(compressed[3], "ratio");
  // SimpleSkin's three nodes are unnamed: each renamed "#N".
  for (const char* r : {"renamed node 0: #0", "renamed node 1: #1", "renamed node 2: #2"})
    EXPECT_NE(report.find(r), std::string::npos) << r;

  // Each file opens as its kind, its size and identity as the row says.
  File sk(dir + "/skeleton-0.mani");
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(sk.data(), sk.size, &s).result, mani_success);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&s), 2u);
  EXPECT_EQ(std::to_string(sk.size), skeleton[4]);
  char id[17];
  snprintf(id, sizeof id, "%016llx", (unsigned long long)maniSkeleton_GetIdentity(&s));
  EXPECT_EQ(id, skeleton[5]);
  File sn(dir + "/skin-0.mani");
  maniSkin k;
  ASSERT_EQ(maniOpenSkin(sn.data(), sn.size, &k).result, mani_success);
  EXPECT_EQ(maniSkin_GetJointCount(&k), 2u);
  File in(dir + "/influences-0-0.mani");
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(in.data(), in.size, &inf).result, mani_success);
  EXPECT_EQ(maniInfluences_GetVertexCount(&inf), 10u);
  // Influences have no GetIdentity: the row's identity is the container header's (bytes 32 to 40).
  uint64_t header = 0;
  for (int i = 7; i >= 0; --i) header = header << 8 | static_cast<const uint8_t*>(in.data())[32 + i];
  snprintf(id, sizeof id, "%016llx", (unsigned long long)header);
  EXPECT_EQ(id, influences[4]);
  File cl(dir + "/clip-0-skeleton-0.mani");
  maniClip c;
  ASSERT_EQ(maniOpenClip(cl.data(), cl.size, &c).result, mani_success);
  EXPECT_EQ(maniClip_GetSkeletonIdentity(&c), maniSkeleton_GetIdentity(&s));
  EXPECT_EQ(std::to_string(cl.size), clip[3]);
  EXPECT_FALSE(maniClip_IsCompressed(&c));
  File cc(dir + "/clip-0-skeleton-0-compressed.mani");
  maniClip z;
  ASSERT_EQ(maniOpenClip(cc.data(), cc.size, &z).result, mani_success);
  EXPECT_TRUE(maniClip_IsCompressed(&z));
  EXPECT_EQ(std::to_string(cc.size), compressed[2]);
  EXPECT_EQ(maniClip_GetIdentity(&z) != 0, true);
}

TEST(MaulImport, WithoutOutWritesNothing) {
  std::string report;
  ASSERT_EQ(RunImport({kDoc}, &report), 0) << report;
  EXPECT_NE(report.find("4 items, 0 refused, "), std::string::npos);
  EXPECT_EQ(report.find("written"), std::string::npos);
}

TEST(MaulImport, RefusedDocumentAndErrors) {
  const std::string cut = TmpDir() + "/cut.glb";
  {
    std::ofstream f(cut, std::ios::binary);
    f.write("glTF\002\000\000\000\100\000\000\000", 12);  // a GLB header of 64 bytes, cut after it
  }
  std::string report;
  EXPECT_EQ(RunImport({cut}, &report), 1);
  EXPECT_NE(report.find("cut.glb: mani_errorFormat reason=container"), std::string::npos) << report;
  EXPECT_EQ(RunImport({}, &report), 2);
  EXPECT_EQ(RunImport({TmpDir() + "/missing.gltf"}, &report), 2);
  EXPECT_EQ(RunImport({kDoc, "--bogus"}, &report), 2);
}

}  // namespace

namespace {

// An FBX 7.4 ASCII file written by the test: Root > Arm limb chain, a mesh of
// three control points skinned by two clusters (Root: points 0 and 1, Arm: 1
// and 2): one skeleton of 2 bones, one skin of 2 joints, 3 vertices.
TEST(ImportFbx, ReportsSkeletonSkinAndInfluences) {
  const std::string text =
      "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\nObjects:  {\n"
      "\tModel: 1, \"Model::Root\", \"LimbNode\" {\n\t}\n\tModel: 2, \"Model::Arm\", \"LimbNode\" {\n"
      "\t\tProperties70:  {\n\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",10,0,0\n\t\t}\n\t}\n"
      "\tModel: 3, \"Model::Body\", \"Mesh\" {\n\t}\n"
      "\tGeometry: 4, \"Geometry::\", \"Mesh\" {\n\t\tVertices: *9 {\n\t\t\ta: 0,0,0,5,0,0,10,0,0\n\t\t}\n\t}\n"
      "\tDeformer: 5, \"Deformer::\", \"Skin\" {\n\t}\n"
      "\tDeformer: 6, \"SubDeformer::\", \"Cluster\" {\n\t\tIndexes: *2 {\n\t\t\ta: 0,1\n\t\t}\n"
      "\t\tWeights: *2 {\n\t\t\ta: 1,0.5\n\t\t}\n\t}\n"
      "\tDeformer: 7, \"SubDeformer::\", \"Cluster\" {\n\t\tIndexes: *2 {\n\t\t\ta: 1,2\n\t\t}\n"
      "\t\tWeights: *2 {\n\t\t\ta: 0.5,1\n\t\t}\n\t}\n}\n"
      "Connections:  {\n\tC: \"OO\",2,1\n\tC: \"OO\",4,3\n\tC: \"OO\",5,4\n\tC: \"OO\",6,5\n\tC: \"OO\",7,5\n"
      "\tC: \"OO\",1,6\n\tC: \"OO\",2,7\n}\n";
  const std::string path = TmpDir() + "/import_test.fbx";
  {
    std::ofstream f(path, std::ios::binary);
    f << text;
  }
  std::string out;
  ASSERT_EQ(RunImport({path}, &out), 0) << out;
  std::vector<std::string> skeleton = Row(out, "skeleton"), skin = Row(out, "skin"), influences = Row(out, "influences");
  ASSERT_GE(skeleton.size(), 7u) << out;
  EXPECT_EQ(skeleton[2], "Root");
  EXPECT_EQ(skeleton[3], "2");
  ASSERT_GE(skin.size(), 7u) << out;
  EXPECT_EQ(skin[2], "Body");
  EXPECT_EQ(skin[3], "2");
  ASSERT_GE(influences.size(), 7u) << out;
  EXPECT_EQ(influences[3], "3");
  EXPECT_EQ(influences.back(), "ok");
  EXPECT_NE(out.find("3 items, 0 refused"), std::string::npos) << out;
  // with a stack moving Arm's X from 10 to 20 over a second: a clip row, Arm bound
  {
    std::string withClip = text;
    const std::string objectsEnd = "\t\t\ta: 0.5,1\n\t\t}\n\t}\n}\n";
    size_t at = withClip.find(objectsEnd);
    ASSERT_NE(at, std::string::npos);
    withClip.insert(at + objectsEnd.size() - 2,
                    "\tAnimationStack: 20, \"AnimStack::Reach\", \"\" {\n\t}\n"
                    "\tAnimationLayer: 21, \"AnimLayer::Base\", \"\" {\n\t}\n"
                    "\tAnimationCurveNode: 22, \"AnimCurveNode::T\", \"\" {\n\t\tProperties70:  {\n"
                    "\t\t\tP: \"d|X\", \"Number\", \"\", \"A\",10\n\t\t\tP: \"d|Y\", \"Number\", \"\", \"A\",0\n"
                    "\t\t\tP: \"d|Z\", \"Number\", \"\", \"A\",0\n\t\t}\n\t}\n"
                    "\tAnimationCurve: 23, \"AnimCurve::\", \"\" {\n\t\tKeyTime: *2 {\n\t\t\ta: 0,46186158000\n\t\t}\n"
                    "\t\tKeyValueFloat: *2 {\n\t\t\ta: 10,20\n\t\t}\n\t\tKeyAttrFlags: *1 {\n\t\t\ta: 4\n\t\t}\n"
                    "\t\tKeyAttrDataFloat: *4 {\n\t\t\ta: 0,0,0,0\n\t\t}\n\t\tKeyAttrRefCount: *1 {\n\t\t\ta: 2\n\t\t}\n\t}\n");
    withClip.insert(withClip.rfind("}\n"), "\tC: \"OO\",21,20\n\tC: \"OO\",22,21\n\tC: \"OP\",22,2, \"Lcl Translation\"\n"
                                         "\tC: \"OP\",23,22, \"d|X\"\n");
    {
      std::ofstream f(path, std::ios::binary);
      f << withClip;
    }
    ASSERT_EQ(RunImport({path}, &out), 0) << out;
    std::vector<std::string> clip = Row(out, "clip");
    ASSERT_GE(clip.size(), 7u) << out;
    EXPECT_EQ(clip[2], "Reach");
    EXPECT_EQ(clip[3], "1");
    EXPECT_EQ(clip.back(), "ok");
    EXPECT_NE(out.find("4 items, 0 refused"), std::string::npos) << out;
  }
  // a refused document: the open's result, status 1
  {
    std::ofstream f(path, std::ios::binary);
    f << "; FBX 7.4.0 project file\nObjects:  {\n";
  }
  EXPECT_EQ(RunImport({path}, &out), 1);
  EXPECT_NE(out.find("open "), std::string::npos);
  EXPECT_NE(out.find("reason="), std::string::npos) << out;
}

// An FBX 7.5 ASCII file written by the test: a mesh of two control points
// under model Face, a BlendShape with channels Smile (two shapes, an
// in-between at 50) and Blink (one): one morph targets row of 2 channels.
TEST(ImportFbx, ReportsMorphTargets) {
  const std::string text =
      "; FBX 7.5.0 project file\nObjects:  {\n"
      "\tModel: 1, \"Model::Face\", \"Mesh\" {\n\t}\n"
      "\tGeometry: 2, \"Geometry::\", \"Mesh\" {\n\t\tVertices: *6 {\n\t\t\ta: 0,0,0,1,0,0\n\t\t}\n\t}\n"
      "\tDeformer: 3, \"Deformer::Blend\", \"BlendShape\" {\n\t}\n"
      "\tDeformer: 4, \"SubDeformer::Smile\", \"BlendShapeChannel\" {\n\t\tFullWeights: *2 {\n\t\t\ta: 50,100\n"
      "\t\t}\n\t}\n"
      "\tDeformer: 5, \"SubDeformer::Blink\", \"BlendShapeChannel\" {\n\t}\n"
      "\tGeometry: 6, \"Geometry::SmileHalf\", \"Shape\" {\n\t\tIndexes: *1 {\n\t\t\ta: 0\n\t\t}\n"
      "\t\tVertices: *3 {\n\t\t\ta: 1,0,0\n\t\t}\n\t}\n"
      "\tGeometry: 7, \"Geometry::SmileFull\", \"Shape\" {\n\t\tIndexes: *1 {\n\t\t\ta: 0\n\t\t}\n"
      "\t\tVertices: *3 {\n\t\t\ta: 2,0,0\n\t\t}\n\t}\n"
      "\tGeometry: 8, \"Geometry::Blink\", \"Shape\" {\n\t\tIndexes: *1 {\n\t\t\ta: 1\n\t\t}\n"
      "\t\tVertices: *3 {\n\t\t\ta: 0,1,0\n\t\t}\n\t}\n}\n"
      "Connections:  {\n\tC: \"OO\",1,0\n\tC: \"OO\",2,1\n\tC: \"OO\",3,2\n\tC: \"OO\",4,3\n\tC: \"OO\",5,3\n"
      "\tC: \"OO\",6,4\n\tC: \"OO\",7,4\n\tC: \"OO\",8,5\n}\n";
  const std::string path = TmpDir() + "/import_morph_test.fbx";
  {
    std::ofstream f(path, std::ios::binary);
    f << text;
  }
  std::string out;
  ASSERT_EQ(RunImport({path}, &out), 0) << out;
  std::vector<std::string> row = Row(out, "morph");  // kind "morph targets": two words
  ASSERT_GE(row.size(), 8u) << out;
  EXPECT_EQ(row[1], "targets");
  EXPECT_EQ(row[2], "0");
  EXPECT_EQ(row[3], "Face");
  EXPECT_EQ(row[4], "2");
  EXPECT_EQ(row.back(), "ok");
  EXPECT_NE(out.find("1 items, 0 refused"), std::string::npos) << out;
}

}  // namespace

namespace {

// ../shared/data/gltf (data_testing.h), or "" when absent.
std::string SharedGltfDir() {
  const std::string root = MaulSharedData();
  std::ifstream probe(root + "/gltf/manifest.tsv");
  return !root.empty() && probe ? root + "/gltf" : "";
}

// Issue #17's "maul import works on every model": every glTF document of the
// shared data the Khronos validator accepts (lib/anim/test/data/gltf-ref/
// validator.tsv, numErrors 0) imports with nothing refused and writes its
// files; every one it refuses ends in a result (exit 0 or 1), never an I/O or
// memory failure (2) or a crash.
TEST(MaulImport, EverySharedModel) {
  const std::string shared = SharedGltfDir();
  if (shared.empty()) GTEST_SKIP() << "no ../shared/data";
  std::ifstream tsv("lib/anim/test/data/gltf-ref/validator.tsv");
  ASSERT_TRUE(tsv) << "validator.tsv";
  std::string line;
  int accepted = 0, refusedByValidator = 0, empty = 0, k = 0;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("file\t", 0) == 0) continue;
    std::istringstream cols(line);
    std::string file, sha, errors;
    std::getline(cols, file, '\t');
    std::getline(cols, sha, '\t');
    std::getline(cols, errors, '\t');
    const bool doc = file.size() > 5 && (file.compare(file.size() - 5, 5, ".gltf") == 0 ||
                                         file.compare(file.size() - 4, 4, ".glb") == 0);
    if (!doc) continue;
    const std::string out = TmpDir() + "/every-" + std::to_string(k++);
    std::string report;
    const int rc = RunImport({shared + "/" + file, "--out", out}, &report);
    if (errors == "0") {
      accepted++;
      EXPECT_EQ(rc, 0) << file << "\n" << report;
      EXPECT_NE(report.find(" 0 refused, "), std::string::npos) << file << "\n" << report;
      // A document with nothing to build (no skins, meshes or node
      // animations: the validator's material-pointer cases) writes nothing.
      const bool nothing = report.find("\n0 items, ") != std::string::npos;
      if (!nothing) {
        EXPECT_EQ(report.find(" 0 files written"), std::string::npos) << file << "\n" << report;
      }
      empty += nothing;
    } else {
      refusedByValidator++;
      EXPECT_TRUE(rc == 0 || rc == 1) << file << " rc " << rc << "\n" << report;
    }
  }
  EXPECT_GT(accepted, 40);
  EXPECT_LT(empty, 5);
  EXPECT_GT(refusedByValidator, 0);
  printf("maul import: %d validator-accepted documents (%d with nothing to build), %d refused ones\n", accepted,
         empty, refusedByValidator);
}

}  // namespace
