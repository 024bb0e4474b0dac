// Break-it probe of maniBuildGltfInfluences and maniBuildGltfMorphTargets on
// KHR_draco_mesh_compression primitives, from import.h and the reference
// alone: GLBs written here around the committed Draco streams of
// lib/anim/test/data/draco (Google's draco_encoder / gltf-transform, README
// there): each refusal the reference lists with its reason (item and offset
// where it names them), the builder's output unchanged on every failure, the
// stream truncated at every byte and patched at every byte (a refusal or a
// consistent result, never a crash), accessor count/type mismatches, NULL
// arguments, allocation failure at every index, two runs the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/build.h"
#include "maul/anim/import.h"
#include "maul/anim/morph.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

namespace {

const char* kRiggedDrc = "lib/anim/test/data/draco/gltf_RiggedSimple_m0_p0.drc";
const char* kMorphCube = "lib/anim/test/data/draco/AnimatedMorphCube_draco.glb";
// attributes.txt for gltf_RiggedSimple_m0_p0 (Google's library): unique id 0
// GENERIC uint16 x4 (joints), 1 NORMAL float x3, 2 POSITION float x3, 3
// GENERIC float x4 (weights); 160 points each.
const uint32_t kPoints = 160;

std::string ReadBytes(const char* path) {
  std::string out;
  FILE* f = fopen(path, "rb");
  if (f == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  fclose(f);
  return out;
}

void Put32(std::string* b, uint32_t v) {
  for (int i = 0; i < 4; i++) b->push_back((char)(v >> (8 * i)));
}

// A GLB: header, JSON chunk (space padded), BIN chunk (zero padded).
std::string Glb(std::string json, std::string bin) {
  while (json.size() % 4) json += ' ';
  while (bin.size() % 4) bin += '\0';
  std::string out;
  Put32(&out, 0x46546C67u);
  Put32(&out, 2);
  Put32(&out, (uint32_t)(12 + 8 + json.size() + 8 + bin.size()));
  Put32(&out, (uint32_t)json.size());
  Put32(&out, 0x4E4F534Au);
  out += json;
  Put32(&out, (uint32_t)bin.size());
  Put32(&out, 0x004E4942u);
  out += bin;
  return out;
}

// The document's knobs: each probe changes one.
struct Params {
  uint32_t viewLength = 0;  // 0: the whole stream
  std::string ext;          // "" : the good extension
  int jointsType = 5123;
  std::string jointsVec = "VEC4";
  uint32_t jointsCount = kPoints;
  int weightsType = 5126;
  bool weightsNormalized = false;
  uint32_t weightsCount = kPoints;
  uint32_t positionCount = kPoints;
  uint32_t viewOffset = 0;  // bytes of padding before the stream in the buffer
};

const char* kGoodExt = "{\"bufferView\":0,\"attributes\":{\"POSITION\":2,\"NORMAL\":1,\"JOINTS_0\":0,\"WEIGHTS_0\":3}}";

std::string Json(const std::string& stream, const Params& p) {
  std::ostringstream o;
  o << "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_draco_mesh_compression\"],"
    << "\"extensionsRequired\":[\"KHR_draco_mesh_compression\"],"
    << "\"buffers\":[{\"byteLength\":" << p.viewOffset + stream.size() << "}],"
    << "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":" << p.viewOffset << ",\"byteLength\":"
    << (p.viewLength ? p.viewLength : stream.size()) << "}],"
    << "\"accessors\":["
    << "{\"componentType\":5126,\"type\":\"VEC3\",\"count\":" << p.positionCount << "},"
    << "{\"componentType\":5126,\"type\":\"VEC3\",\"count\":" << kPoints << "},"
    << "{\"componentType\":" << p.jointsType << ",\"type\":\"" << p.jointsVec << "\",\"count\":" << p.jointsCount
    << "},"
    << "{\"componentType\":" << p.weightsType << ",\"type\":\"VEC4\",\"count\":" << p.weightsCount
    << (p.weightsNormalized ? ",\"normalized\":true" : "") << "}],"
    << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"JOINTS_0\":2,\"WEIGHTS_0\":3},"
    << "\"extensions\":{\"KHR_draco_mesh_compression\":" << (p.ext.empty() ? kGoodExt : p.ext.c_str()) << "}}]}],"
    << "\"nodes\":[{\"name\":\"Root\",\"children\":[1]},{\"name\":\"Child\",\"translation\":[0,1,0]},"
    << "{\"name\":\"Body\",\"mesh\":0,\"skin\":0}],"
    << "\"skins\":[{\"joints\":[0,1]}],\"scenes\":[{\"nodes\":[0,2]}],\"scene\":0}";
  return o.str();
}

// An opened document with its skeleton and skin built (the skin the
// builder's last file until the influences are built).
struct Rig {
  Builder builder;
  std::string bytes;
  maniGltf* g = nullptr;
  File skelFile, skinFile;
  maniSkeleton skel;
  maniSkin skin;
  bool ok = false;
  explicit Rig(const std::string& glb) : bytes(glb) {
    if (maniOpenGltf(builder.b, bytes.data(), bytes.size(), &g).result != mani_success) return;
    maniGltfOptions opt = maniDefaultGltfOptions();
    if (maniBuildGltfSkeleton(builder.b, g, 0, &opt).result != mani_success) return;
    skelFile = builder.Built();
    if (maniOpenSkeleton(skelFile.data(), skelFile.size, &skel).result != mani_success) return;
    if (maniBuildGltfSkin(builder.b, g, 0, &skel, &opt).result != mani_success) return;
    skinFile = builder.Built();
    ok = maniOpenSkin(skinFile.data(), skinFile.size, &skin).result == mani_success;
  }
  ~Rig() { maniCloseGltf(g); }
};

std::string Why(const maniImportResult& r) {
  std::ostringstream o;
  o << "result " << r.result << " reason " << r.reason << " item " << r.item << " offset " << r.offset;
  return o.str();
}

// Builds the influences; on failure the builder's last file is still the skin.
maniImportResult BuildAndCheckUnchanged(Rig& rig) {
  File before = rig.builder.Built();
  maniImportResult r = maniBuildGltfInfluences(rig.builder.b, rig.g, 0, 0, &rig.skin);
  if (r.result != mani_success) {
    File after = rig.builder.Built();
    EXPECT_EQ(after.size, before.size) << Why(r);
    if (after.size == before.size) {
      EXPECT_EQ(memcmp(after.data(), before.data(), after.size), 0) << Why(r);
    }
  }
  return r;
}

// Influences that open, fit the skin, one per stream point, every weight
// finite in [0, 1] summing to 1 per vertex, every joint one of the skin's.
void ExpectConsistentInfluences(Rig& rig, uint32_t vertices) {
  File f = rig.builder.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  EXPECT_TRUE(maniInfluences_IsSkinFit(&inf, &rig.skin));
  ASSERT_EQ(maniInfluences_GetVertexCount(&inf), vertices);
  uint32_t per = maniInfluences_GetPerVertex(&inf);
  for (uint32_t v = 0; v < vertices; ++v) {
    double sum = 0;
    for (uint32_t s = 0; s < per; ++s) {
      float w = -1;
      uint32_t j = maniInfluences_GetInfluence(&inf, v, s, &w);
      ASSERT_TRUE(std::isfinite(w));
      ASSERT_GE(w, 0.0f);
      ASSERT_LE(w, 1.0f);
      ASSERT_LT(j, 2u);
      sum += w;
    }
    ASSERT_NEAR(sum, 1.0, 1e-5) << "vertex " << v;
  }
}

class DracoProbe : public ::testing::Test {
 protected:
  void SetUp() override {
    stream = ReadBytes(kRiggedDrc);
    ASSERT_EQ(stream.size(), 2191u);
  }
  std::string Doc(const Params& p) const { return Glb(Json(stream, p), stream); }
  std::string stream;
};

// The good document builds: one influence set per stream point, consistent.
TEST_F(DracoProbe, GoodStreamBuildsConsistentInfluences) {
  Rig rig(Doc(Params()));
  ASSERT_TRUE(rig.ok);
  maniImportResult r = BuildAndCheckUnchanged(rig);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  ExpectConsistentInfluences(rig, kPoints);
}

// Determinism: two runs, and a run over a memcpy'd copy of the GLB, give the
// same bytes.
TEST_F(DracoProbe, TwoRunsAndACopyGiveTheSameBits) {
  std::string glb = Doc(Params());
  std::string copy(glb.size(), '\0');
  memcpy(&copy[0], glb.data(), glb.size());
  Rig a(glb), b(copy);
  ASSERT_TRUE(a.ok && b.ok);
  ASSERT_EQ(maniBuildGltfInfluences(a.builder.b, a.g, 0, 0, &a.skin).result, mani_success);
  File fa1 = a.builder.Built();
  ASSERT_EQ(maniBuildGltfInfluences(a.builder.b, a.g, 0, 0, &a.skin).result, mani_success);
  File fa2 = a.builder.Built();
  ASSERT_EQ(maniBuildGltfInfluences(b.builder.b, b.g, 0, 0, &b.skin).result, mani_success);
  File fb = b.builder.Built();
  ASSERT_EQ(fa1.size, fa2.size);
  ASSERT_EQ(fa1.size, fb.size);
  EXPECT_EQ(memcmp(fa1.data(), fa2.data(), fa1.size), 0);
  EXPECT_EQ(memcmp(fa1.data(), fb.data(), fa1.size), 0);
}

// "mani_errorInvalid for a NULL argument or a mesh or primitive past its count."
TEST_F(DracoProbe, NullArgumentsAndPastCounts) {
  Rig rig(Doc(Params()));
  ASSERT_TRUE(rig.ok);
  File before = rig.builder.Built();
  EXPECT_EQ(maniBuildGltfInfluences(nullptr, rig.g, 0, 0, &rig.skin).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfInfluences(rig.builder.b, nullptr, 0, 0, &rig.skin).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfInfluences(rig.builder.b, rig.g, 0, 0, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfInfluences(rig.builder.b, rig.g, 1, 0, &rig.skin).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfInfluences(rig.builder.b, rig.g, 0, 1, &rig.skin).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfInfluences(rig.builder.b, rig.g, UINT32_MAX, UINT32_MAX, &rig.skin).result,
            mani_errorInvalid);
  File after = rig.builder.Built();
  ASSERT_EQ(after.size, before.size);
  EXPECT_EQ(memcmp(after.data(), before.data(), after.size), 0);
}

void ExpectProperty(const std::string& glb, const char* what) {
  Rig rig(glb);
  ASSERT_TRUE(rig.ok) << what;
  maniImportResult r = BuildAndCheckUnchanged(rig);
  EXPECT_EQ(r.result, mani_errorFormat) << what << ": " << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << what << ": " << Why(r);
}

// "a Draco extension without its view or attributes, a name it gives not
// among the primitive's, a unique id not in the stream": Property.
TEST_F(DracoProbe, ExtensionRefusals) {
  struct Case {
    const char* what;
    const char* ext;
  } cases[] = {
      {"no view", "{\"attributes\":{\"POSITION\":2,\"NORMAL\":1,\"JOINTS_0\":0,\"WEIGHTS_0\":3}}"},
      {"view not a number", "{\"bufferView\":\"0\",\"attributes\":{\"JOINTS_0\":0,\"WEIGHTS_0\":3}}"},
      {"view past the views", "{\"bufferView\":1,\"attributes\":{\"JOINTS_0\":0,\"WEIGHTS_0\":3}}"},
      {"no attributes", "{\"bufferView\":0}"},
      {"attributes not an object", "{\"bufferView\":0,\"attributes\":[0,3]}"},
      {"a name not the primitive's",
       "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":0,\"WEIGHTS_0\":3,\"TEXCOORD_0\":1}}"},
      {"joints' unique id not in the stream", "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":4,\"WEIGHTS_0\":3}}"},
      {"weights' unique id not in the stream", "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":0,\"WEIGHTS_0\":99}}"},
      {"a unique id negative", "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":-1,\"WEIGHTS_0\":3}}"},
      {"a unique id not an integer", "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":0.5,\"WEIGHTS_0\":3}}"},
      {"a unique id past 32 bits", "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":4294967296,\"WEIGHTS_0\":3}}"},
      // Joints named at the weights' attribute and the reverse: the
      // accessors no longer match what is decoded (uint16 x4 vs float x4).
      {"joints at the weights' id", "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":3,\"WEIGHTS_0\":0}}"},
      // Joints at the normals: three components against VEC4.
      {"joints at the normals", "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":1,\"WEIGHTS_0\":3}}"},
  };
  for (const Case& c : cases) {
    Params p;
    p.ext = c.ext;
    std::string glb = Doc(p);
    Rig rig(glb);
    if (!rig.ok) {
      // Refused at open is allowed for a malformed extension only if the
      // open says Property; the reference checks it at the build.
      Builder b;
      maniGltf* g = nullptr;
      maniImportResult r = maniOpenGltf(b.b, glb.data(), glb.size(), &g);
      EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << c.what << ": " << Why(r);
      maniCloseGltf(g);
      continue;
    }
    maniImportResult r = BuildAndCheckUnchanged(rig);
    EXPECT_EQ(r.result, mani_errorFormat) << c.what << ": " << Why(r);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << c.what << ": " << Why(r);
  }
}

// "each accessor matching the decoded attribute (its count, component type
// and component count)": every mismatch is Property, the output unchanged.
TEST_F(DracoProbe, AccessorMismatches) {
  {
    Params p;
    p.jointsCount = kPoints - 1;
    ExpectProperty(Doc(p), "joints count one short");
  }
  {
    Params p;
    p.jointsCount = kPoints + 1;
    ExpectProperty(Doc(p), "joints count one over");
  }
  {
    Params p;
    p.weightsCount = kPoints - 1;
    ExpectProperty(Doc(p), "weights count one short");
  }
  {
    Params p;
    p.jointsType = 5121;  // uint8 against the stream's uint16
    ExpectProperty(Doc(p), "joints uint8");
  }
  {
    Params p;
    p.jointsType = 5125;  // uint32
    ExpectProperty(Doc(p), "joints uint32");
  }
  {
    Params p;
    p.jointsVec = "VEC3";
    ExpectProperty(Doc(p), "joints VEC3");
  }
  {
    Params p;
    p.weightsType = 5123;  // normalized uint16 against the stream's float
    p.weightsNormalized = true;
    ExpectProperty(Doc(p), "weights uint16");
  }
  {
    // glTF's accessors count at least 1: refused at the open already.
    Params p;
    p.jointsCount = 0;
    std::string glb = Doc(p);
    Builder b;
    maniGltf* g = nullptr;
    EXPECT_EQ(maniOpenGltf(b.b, glb.data(), glb.size(), &g).result, mani_errorFormat);
    maniCloseGltf(g);
  }
}

// "Data (a Draco stream the decoder refuses, at its view)": the view cut at
// every length is either refused as Data with the view as the item and an
// offset inside it, or (never expected, but allowed) decodes consistently.
TEST_F(DracoProbe, TruncatedAtEveryByte) {
  uint32_t refused = 0;
  for (uint32_t n = 1; n < stream.size(); ++n) {
    Params p;
    p.viewLength = n;
    Rig rig(Doc(p));
    ASSERT_TRUE(rig.ok) << n;
    maniImportResult r = BuildAndCheckUnchanged(rig);
    if (r.result == mani_success) {
      ExpectConsistentInfluences(rig, kPoints);
      continue;
    }
    refused++;
    ASSERT_EQ(r.result, mani_errorFormat) << n << ": " << Why(r);
    ASSERT_EQ(r.reason, (uint32_t)maniImportReasonData) << n << ": " << Why(r);
    ASSERT_EQ(r.item, 0u) << n;
    ASSERT_LE(r.offset, (uint64_t)n) << n;
  }
  EXPECT_GT(refused, stream.size() / 2);
}

// "item: the view, offset: in its buffer": a view 16 bytes into the
// buffer, cut at every length inside the stream's first 64 bytes, is
// refused at an offset within [16, 16 + length].
TEST_F(DracoProbe, RefusalOffsetIsInTheBuffer) {
  for (uint32_t n = 1; n < 64; ++n) {
    Params p;
    p.viewOffset = 16;
    p.viewLength = n;
    Rig rig(Glb(Json(stream, p), std::string(16, '\0') + stream));
    ASSERT_TRUE(rig.ok) << n;
    maniImportResult r = BuildAndCheckUnchanged(rig);
    ASSERT_EQ(r.result, mani_errorFormat) << n << ": " << Why(r);
    ASSERT_EQ(r.reason, (uint32_t)maniImportReasonData) << n << ": " << Why(r);
    EXPECT_EQ(r.item, 0u) << n;
    EXPECT_GE(r.offset, 16u) << n;
    EXPECT_LE(r.offset, 16u + n) << n;
  }
}

// Every byte of the stream patched to +1, -1, 0 and 0xff: a refusal (Data at
// the view, or Property / Index / Influence when a patched header changes
// what is decoded) or influences that open consistently; never a crash or a
// read past the stream (ASan).
TEST_F(DracoProbe, PatchedAtEveryByte) {
  uint32_t successes = 0, refusals = 0;
  for (size_t i = 0; i < stream.size(); ++i) {
    for (int patch = 0; patch < 4; ++patch) {
      std::string s = stream;
      uint8_t old = (uint8_t)s[i];
      uint8_t v = patch == 0 ? (uint8_t)(old + 1) : patch == 1 ? (uint8_t)(old - 1) : patch == 2 ? 0 : 0xFF;
      if (v == old) continue;
      s[i] = (char)v;
      Rig rig(Glb(Json(s, Params()), s));
      ASSERT_TRUE(rig.ok);
      maniImportResult r = BuildAndCheckUnchanged(rig);
      if (r.result == mani_success) {
        successes++;
        File f = rig.builder.Built();
        maniInfluences inf;
        ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success) << i << " " << patch;
        ASSERT_EQ(maniInfluences_GetVertexCount(&inf), kPoints) << i << " " << patch;
        continue;
      }
      refusals++;
      ASSERT_EQ(r.result, mani_errorFormat) << i << " " << patch << ": " << Why(r);
      ASSERT_TRUE(r.reason == maniImportReasonData || r.reason == maniImportReasonProperty ||
                  r.reason == maniImportReasonIndex || r.reason == maniImportReasonInfluence)
          << i << " " << patch << ": " << Why(r);
      if (r.reason == maniImportReasonData) {
        ASSERT_EQ(r.item, 0u);
        ASSERT_LE(r.offset, (uint64_t)s.size());
      }
    }
  }
  EXPECT_GT(refusals, 0u);
  EXPECT_GT(successes, 0u);
}

// -- Allocation failure ------------------------------------------------------------------

struct Failing {
  int calls = 0, failAt = -1;
  bool armed = false;
  std::map<void*, size_t> live;
};
void* FailingAllocate(void* user, size_t size, size_t alignment) {
  Failing* f = (Failing*)user;
  if (f->armed && f->calls++ == f->failAt) return nullptr;
  void* p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p) f->live[p] = size;
  return p;
}
void FailingRelease(void* user, void* memory, size_t size) {
  Failing* f = (Failing*)user;
  auto it = f->live.find(memory);
  ASSERT_NE(it, f->live.end());
  EXPECT_EQ(it->second, size);
  f->live.erase(it);
  free(memory);
}

// "mani_errorCapacity when the allocator fails": the allocator fails at
// every index of the build (after the open, skeleton and skin): Capacity,
// the builder's file unchanged, and nothing leaked once all is freed.
template <typename BuildFn>
void FailEveryAllocation(const std::string& glb, BuildFn build) {
  int successes = 0;
  for (int at = 0; at < 100000 && successes == 0; ++at) {
    Failing f;
    f.failAt = at;
    maniBuilderDef def = maniDefaultBuilderDef();
    def.allocator.allocate = FailingAllocate;
    def.allocator.release = FailingRelease;
    def.allocator.user = &f;
    maniBuilder* b = nullptr;
    ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
    {
      maniGltf* g = nullptr;
      ASSERT_EQ(maniOpenGltf(b, glb.data(), glb.size(), &g).result, mani_success);
      f.armed = true;
      maniImportResult r = build(b, g);
      f.armed = false;
      if (r.result == mani_success) {
        successes++;
      } else {
        EXPECT_EQ(r.result, mani_errorCapacity) << at << ": " << Why(r);
      }
      maniCloseGltf(g);
    }
    maniDestroyBuilder(b);
    EXPECT_TRUE(f.live.empty()) << at << ": " << f.live.size() << " blocks leaked";
  }
  EXPECT_EQ(successes, 1);
}

TEST_F(DracoProbe, InfluencesAllocationFailsAtEveryIndex) {
  std::string glb = Doc(Params());
  // Skeleton and skin outside the failing window: a rig from a normal builder.
  Rig rig(glb);
  ASSERT_TRUE(rig.ok);
  FailEveryAllocation(glb, [&](maniBuilder* b, maniGltf* g) {
    return maniBuildGltfInfluences(b, g, 0, 0, &rig.skin);
  });
}

// -- Morph targets on a Draco primitive ---------------------------------------------------

TEST(DracoProbeMorph, NullArgumentsPastCountsAndDeterminism) {
  std::string glb = ReadBytes(kMorphCube);
  ASSERT_FALSE(glb.empty());
  Builder builder;
  maniGltf* g = nullptr;
  ASSERT_EQ(maniOpenGltf(builder.b, glb.data(), glb.size(), &g).result, mani_success);
  maniGltfOptions opt = maniDefaultGltfOptions();
  EXPECT_EQ(maniBuildGltfMorphTargets(nullptr, g, 0, 0, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfMorphTargets(builder.b, nullptr, 0, 0, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfMorphTargets(builder.b, g, 0, 0, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfMorphTargets(builder.b, g, 1, 0, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfMorphTargets(builder.b, g, 0, 1, &opt).result, mani_errorInvalid);
  ASSERT_EQ(maniBuildGltfMorphTargets(builder.b, g, 0, 0, &opt).result, mani_success);
  File a = builder.Built();
  ASSERT_EQ(maniBuildGltfMorphTargets(builder.b, g, 0, 0, &opt).result, mani_success);
  File b = builder.Built();
  ASSERT_EQ(a.size, b.size);
  EXPECT_EQ(memcmp(a.data(), b.data(), a.size), 0);
  maniMorphTargets m;
  EXPECT_EQ(maniOpenMorphTargets(a.data(), a.size, &m).result, mani_success);
  maniCloseGltf(g);
}

TEST(DracoProbeMorph, AllocationFailsAtEveryIndex) {
  std::string glb = ReadBytes(kMorphCube);
  ASSERT_FALSE(glb.empty());
  maniGltfOptions opt = maniDefaultGltfOptions();
  FailEveryAllocation(glb, [&](maniBuilder* b, maniGltf* g) { return maniBuildGltfMorphTargets(b, g, 0, 0, &opt); });
}

}  // namespace
