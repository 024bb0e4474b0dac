// import.h, the glTF document: maniOpenGltf (container, version, required
// extensions, buffers, views, accessors, nodes, skins, meshes, animations),
// the queries, maniGltf_SupplyBuffer, maniCloseGltf, the internal accessor
// readers (gltf_internal.h); every refusal by a named test; truncations and
// byte patches of GLB files; allocation failure at every index; the shared
// models and the validator's cases when ../shared/data is there.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <map>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "lib/anim/src/import/gltf/gltf_internal.h"
#include "maul/anim/import.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

using Bytes = std::vector<uint8_t>;

// -- An allocator that counts, fails its Nth allocation and calls back in ---------

struct Hooks {
  int allocations = 0;
  int failAt = -1;
  std::map<void*, size_t> live;
  maniBuilder* builder = nullptr;
  maniGltf* gltf = nullptr;           // called back into from the hooks when set
  bool closeInAllocate = false;
  bool supplyInAllocate = false;
  bool queryInRelease = false;
  std::vector<maniImportResult> supplyResults;
  std::vector<uint32_t> queried;      // node counts seen from the release hook
};

void* TestAllocate(void* user, size_t size, size_t alignment) {
  Hooks* h = (Hooks*)user;
  int index = h->allocations++;
  if (h->gltf != nullptr && h->closeInAllocate) maniCloseGltf(h->gltf);
  if (h->gltf != nullptr && h->supplyInAllocate) {
    static const uint8_t some[64] = {0};
    h->supplyResults.push_back(maniGltf_SupplyBuffer(h->gltf, 0, some, sizeof some));
  }
  if (index == h->failAt) return nullptr;
  void* p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p) h->live[p] = size;
  return p;
}

void TestRelease(void* user, void* memory, size_t size) {
  Hooks* h = (Hooks*)user;
  auto it = h->live.find(memory);
  ASSERT_NE(it, h->live.end()) << "release of a block not allocated";
  EXPECT_EQ(it->second, size) << "release with another size";
  if (h->gltf != nullptr && h->queryInRelease) {
    h->queried.push_back(maniGltf_GetNodeCount(h->gltf) + maniGltf_GetBufferCount(h->gltf) +
                         maniGltf_GetSkinCount(h->gltf) + maniGltf_GetAnimationCount(h->gltf));
    size_t n = 7;
    if (maniGltf_GetNodeBoneName(h->gltf, 0, &n) != nullptr || n != 0) h->queried.push_back(1000);
  }
  h->live.erase(it);
  free(memory);
}

struct Builder {
  Hooks hooks;
  maniBuilder* b = nullptr;
  Builder() {
    maniBuilderDef def = maniDefaultBuilderDef();
    def.allocator.allocate = TestAllocate;
    def.allocator.release = TestRelease;
    def.allocator.user = &hooks;
    EXPECT_EQ(maniCreateBuilder(&def, &b), mani_success);
    hooks.builder = b;
  }
  ~Builder() {
    maniDestroyBuilder(b);
    EXPECT_TRUE(hooks.live.empty()) << hooks.live.size() << " blocks leaked";
  }
};

// -- Documents ------------------------------------------------------------------------

Bytes Text(const std::string& s) { return Bytes(s.begin(), s.end()); }

void Put32(Bytes* b, uint32_t v) {
  for (int i = 0; i < 4; i++) b->push_back((uint8_t)(v >> (8 * i)));
}

// A GLB of a JSON text (padded with spaces) and an optional BIN chunk
// (padded with zeros).
Bytes Glb(const std::string& json, const Bytes* bin) {
  Bytes j = Text(json);
  while (j.size() % 4) j.push_back(' ');
  Bytes c;
  if (bin != nullptr) {
    c = *bin;
    while (c.size() % 4) c.push_back(0);
  }
  Bytes out;
  Put32(&out, 0x46546C67u);
  Put32(&out, 2);
  Put32(&out, (uint32_t)(12 + 8 + j.size() + (bin ? 8 + c.size() : 0)));
  Put32(&out, (uint32_t)j.size());
  Put32(&out, 0x4E4F534Au);
  out.insert(out.end(), j.begin(), j.end());
  if (bin != nullptr) {
    Put32(&out, (uint32_t)c.size());
    Put32(&out, 0x004E4942u);
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

std::string Base64(const Bytes& b) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string s;
  size_t i = 0;
  for (; i + 2 < b.size(); i += 3) {
    uint32_t v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    s += t[v >> 18];
    s += t[(v >> 12) & 63];
    s += t[(v >> 6) & 63];
    s += t[v & 63];
  }
  if (i + 1 == b.size()) {
    uint32_t v = b[i] << 16;
    s += t[v >> 18];
    s += t[(v >> 12) & 63];
    s += "==";
  } else if (i + 2 == b.size()) {
    uint32_t v = (b[i] << 16) | (b[i + 1] << 8);
    s += t[v >> 18];
    s += t[(v >> 12) & 63];
    s += t[(v >> 6) & 63];
    s += "=";
  }
  return s;
}

std::string DataUri(const Bytes& b) { return "data:application/octet-stream;base64," + Base64(b); }

void PutF(Bytes* b, float f) {
  uint32_t v;
  memcpy(&v, &f, 4);
  Put32(b, v);
}

const std::string kAsset = "\"asset\":{\"version\":\"2.0\"}";

std::string Doc(const std::string& members) { return "{" + kAsset + (members.empty() ? "" : "," + members) + "}"; }

maniImportResult Open(maniBuilder* b, const Bytes& bytes, maniGltf** g) {
  return maniOpenGltf(b, bytes.data(), bytes.size(), g);
}

// Opens text expected to be refused; returns the result (nothing kept).
maniImportResult Refused(const std::string& text) {
  Builder bl;
  Bytes bytes = Text(text);
  maniGltf* g = (maniGltf*)0x1;
  maniImportResult r = Open(bl.b, bytes, &g);
  EXPECT_NE(r.result, mani_success) << text;
  EXPECT_EQ(g, (maniGltf*)0x1) << "gltfOut written on failure";
  if (r.result == mani_success) maniCloseGltf(g);
  return r;
}

#define EXPECT_REFUSED(text, reason_, item_)              \
  do {                                                    \
    maniImportResult r_ = Refused(text);                  \
    EXPECT_EQ(r_.result, mani_errorFormat);               \
    EXPECT_EQ(r_.reason, (uint32_t)(reason_));            \
    EXPECT_EQ(r_.item, (uint64_t)(item_));                \
  } while (0)

// Opens text expected to open.
struct Opened {
  Builder bl;
  maniGltf* g = nullptr;
  Bytes bytes;
  explicit Opened(const std::string& text) : bytes(Text(text)) {
    maniImportResult r = Open(bl.b, bytes, &g);
    EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " item " << r.item << " offset " << r.offset
                                      << ": " << text;
  }
  explicit Opened(const Bytes& b) : bytes(b) {
    maniImportResult r = Open(bl.b, bytes, &g);
    EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " item " << r.item << " offset " << r.offset;
  }
  ~Opened() { maniCloseGltf(g); }
};

// Offset of a substring in a text (for expected offsets).
uint64_t At(const std::string& text, const std::string& what) {
  size_t p = text.find(what);
  EXPECT_NE(p, std::string::npos) << what;
  return p;
}

// -- Frozen values and defaults ----------------------------------------------------------

TEST(Gltf, ImportReasonValuesFrozen) {
  EXPECT_EQ(maniImportReasonContainer, 1);
  EXPECT_EQ(maniImportReasonBuild, 10);
  EXPECT_EQ(maniImportReasonIndex, 11);
  EXPECT_EQ(maniImportReasonPending, 12);
  EXPECT_EQ(maniImportReasonInfluence, 13);
  EXPECT_EQ(maniImportReasonVersion, 14);
  EXPECT_EQ(maniImportReasonSyntax, 15);
  EXPECT_EQ(maniAxisPositiveX, 0);
  EXPECT_EQ(maniAxisNegativeZ, 5);
}

TEST(Gltf, DefaultOptions) {
  maniGltfOptions o = maniDefaultGltfOptions();
  EXPECT_EQ(o.cookie, MANI_GLTF_OPTIONS_COOKIE);
  EXPECT_EQ(o.cookieEnd, MANI_GLTF_OPTIONS_COOKIE);
  EXPECT_EQ(o.abiVersion, MANI_ABI_VERSION);
  EXPECT_EQ(o.up, (uint32_t)maniAxisPositiveY);
  EXPECT_EQ(o.front, (uint32_t)maniAxisPositiveZ);
  EXPECT_EQ(o.unitScale, 1.0f);
  EXPECT_EQ(o.foldPlacement, 0u);
  EXPECT_EQ(o.reserved[0] | o.reserved[1], 0u);
  maniImportClipOptions c = maniDefaultImportClipOptions();
  EXPECT_EQ(c.cookie, MANI_IMPORT_CLIP_OPTIONS_COOKIE);
  EXPECT_EQ(c.cookieEnd, MANI_IMPORT_CLIP_OPTIONS_COOKIE);
  EXPECT_EQ(c.abiVersion, MANI_ABI_VERSION);
  EXPECT_EQ(c.sampleRate, 0.0f);
  EXPECT_EQ(c.loop, (uint32_t)maniLoopClamp);
  EXPECT_EQ(c.additive, (uint32_t)maniAdditiveNone);
  EXPECT_EQ(c.rootMotionBone, MANI_NO_BONE);
  EXPECT_EQ(c.rootMotionFlags, 0u);
  EXPECT_NE(MANI_GLTF_OPTIONS_COOKIE, MANI_IMPORT_CLIP_OPTIONS_COOKIE);
  EXPECT_NE(MANI_GLTF_OPTIONS_COOKIE, MANI_BUILDER_DEF_COOKIE);
}

// -- Arguments, empty documents, NULL views ------------------------------------------------

TEST(Gltf, OpensAMinimalDocument) {
  Opened o(Doc(""));
  ASSERT_NE(o.g, nullptr);
  EXPECT_EQ(maniGltf_GetNodeCount(o.g), 0u);
  EXPECT_EQ(maniGltf_GetBufferCount(o.g), 0u);
  EXPECT_EQ(maniGltf_GetSkinCount(o.g), 0u);
  EXPECT_EQ(maniGltf_GetSkeletonCount(o.g), 0u);
  EXPECT_EQ(maniGltf_GetAnimationCount(o.g), 0u);
  EXPECT_EQ(maniGltf_GetMeshCount(o.g), 0u);
  EXPECT_EQ(maniGltf_GetRenamedCount(o.g), 0u);
  EXPECT_EQ(maniBuilder_GetMisuse(o.bl.b), 0u);
}

TEST(Gltf, NullArguments) {
  Builder bl;
  Bytes bytes = Text(Doc(""));
  maniGltf* g = nullptr;
  EXPECT_EQ(maniOpenGltf(nullptr, bytes.data(), bytes.size(), &g).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenGltf(bl.b, nullptr, 4, &g).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenGltf(bl.b, bytes.data(), bytes.size(), nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(bl.b), 2u);
  EXPECT_EQ(g, nullptr);
  // Zero bytes: not JSON.
  maniImportResult r = maniOpenGltf(bl.b, nullptr, 0, &g);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonJson);
  // NULL documents read as empty.
  size_t n = 5;
  EXPECT_EQ(maniGltf_GetNodeCount(nullptr), 0u);
  EXPECT_EQ(maniGltf_GetBufferCount(nullptr), 0u);
  EXPECT_EQ(maniGltf_GetBufferUri(nullptr, 0, &n), nullptr);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetNodeBoneName(nullptr, 0, nullptr), nullptr);
  EXPECT_EQ(maniGltf_GetRenamedNode(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetAnimationName(nullptr, 0, nullptr), nullptr);
  EXPECT_EQ(maniGltf_GetPrimitiveCount(nullptr, 0), 0u);
  EXPECT_EQ(maniGltf_GetPrimitiveTargetCount(nullptr, 0, 0), 0u);
  EXPECT_EQ(maniGltf_GetNodeMesh(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetNodeSkin(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetMorphWeights(nullptr, 0, nullptr, 0, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_SupplyBuffer(nullptr, 0, bytes.data(), 1).result, mani_errorInvalid);
  maniCloseGltf(nullptr);
}

// -- Container -------------------------------------------------------------------------

TEST(Gltf, OpensGlbWithAndWithoutBin) {
  Bytes bin = {1, 2, 3, 4, 5, 6, 7, 8};
  Opened a(Glb(Doc("\"buffers\":[{\"byteLength\":8}]"), &bin));
  EXPECT_EQ(maniGltf_GetBufferCount(a.g), 1u);
  EXPECT_EQ(maniGltf_GetBufferUri(a.g, 0, nullptr), nullptr);
  EXPECT_EQ(a.g->buffers[0].kind, (uint32_t)mani_gltfBufferGlb);
  EXPECT_EQ(a.g->buffers[0].data[7], 8);
  Opened b(Glb(Doc(""), nullptr));
  EXPECT_EQ(maniGltf_GetBufferCount(b.g), 0u);
}

maniImportResult OpenBytes(const Bytes& bytes) {
  Builder bl;
  maniGltf* g = nullptr;
  maniImportResult r = Open(bl.b, bytes, &g);
  if (r.result == mani_success) maniCloseGltf(g);
  return r;
}

void ExpectContainer(const Bytes& bytes, uint64_t offset) {
  maniImportResult r = OpenBytes(bytes);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonContainer);
  EXPECT_EQ(r.offset, offset);
}

TEST(Gltf, RefusesGlbHeaderShort) {
  Bytes g = Glb(Doc(""), nullptr);
  ExpectContainer(Bytes(g.begin(), g.begin() + 11), 11);
}

TEST(Gltf, RefusesGlbVersion) {
  Bytes g = Glb(Doc(""), nullptr);
  g[4] = 1;
  ExpectContainer(g, 4);
}

TEST(Gltf, RefusesGlbLengthPastSize) {
  Bytes g = Glb(Doc(""), nullptr);
  g[8] += 4;
  ExpectContainer(g, 8);
}

TEST(Gltf, IgnoresBytesPastGlbLength) {
  Bytes g = Glb(Doc(""), nullptr);
  g.push_back(0xEE);
  EXPECT_EQ(OpenBytes(g).result, mani_success);
}

TEST(Gltf, RefusesGlbChunkLengthNotAligned) {
  Bytes g = Glb(Doc(""), nullptr);
  g[12] -= 1;
  ExpectContainer(g, 12);
}

TEST(Gltf, RefusesGlbChunkPastLength) {
  Bytes g = Glb(Doc(""), nullptr);
  g[12] += 4;
  ExpectContainer(g, 12);
}

TEST(Gltf, RefusesGlbFirstChunkNotJson) {
  Bytes g = Glb(Doc(""), nullptr);
  g[16] = 'B';
  ExpectContainer(g, 16);
}

TEST(Gltf, RefusesGlbBinChunkNotSecond) {
  Bytes bin = {1, 2, 3, 4};
  Bytes g = Glb(Doc(""), &bin);
  // An unknown chunk between JSON and BIN.
  Bytes extra;
  Put32(&extra, 4);
  Put32(&extra, 0x58585858u);
  Put32(&extra, 0);
  size_t at = 12 + 8 + (g[12] | (g[13] << 8));
  g.insert(g.begin() + (long)at, extra.begin(), extra.end());
  uint32_t length = (uint32_t)g.size();
  memcpy(&g[8], &length, 4);
  ExpectContainer(g, at + 12 + 4);
}

TEST(Gltf, SkipsUnknownChunksAfterBin) {
  Bytes bin = {1, 2, 3, 4};
  Bytes g = Glb(Doc(""), &bin);
  Put32(&g, 4);
  Put32(&g, 0x58585858u);
  Put32(&g, 0);
  uint32_t length = (uint32_t)g.size();
  memcpy(&g[8], &length, 4);
  EXPECT_EQ(OpenBytes(g).result, mani_success);
}

TEST(Gltf, RefusesJsonSyntaxWithOffsetInTheBytes) {
  std::string t = "{\"asset\":{\"version\":\"2.0\"},}";
  maniImportResult r = Refused(t);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonJson);
  EXPECT_EQ(r.offset, t.size() - 1);
  // In a GLB the offset counts from the file's start.
  Bytes g = Glb(t, nullptr);
  r = OpenBytes(g);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonJson);
  EXPECT_EQ(r.offset, 20 + t.size() - 1);
}

TEST(Gltf, RefusesDeeplyNestedJson) {
  std::string t = Doc("\"extras\":" + std::string(300, '[') + std::string(300, ']'));
  maniImportResult r = Refused(t);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonJson);
}

TEST(Gltf, RefusesDocumentNotAnObject) { EXPECT_REFUSED("[]", maniImportReasonProperty, 0); }

// -- Asset and extensions -------------------------------------------------------------------

TEST(Gltf, RefusesMissingAsset) { EXPECT_REFUSED("{}", maniImportReasonProperty, 0); }

TEST(Gltf, RefusesMissingVersion) { EXPECT_REFUSED("{\"asset\":{}}", maniImportReasonProperty, 0); }

TEST(Gltf, RefusesVersionForm) { EXPECT_REFUSED("{\"asset\":{\"version\":\"2\"}}", maniImportReasonProperty, 0); }

TEST(Gltf, RefusesVersion3) {
  std::string t = "{\"asset\":{\"version\":\"3.0\"}}";
  maniImportResult r = Refused(t);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonVersion);
  EXPECT_EQ(r.offset, At(t, "\"3.0\""));
}

TEST(Gltf, OpensVersion2x) { Opened o(std::string("{\"asset\":{\"version\":\"2.7\"}}")); }

TEST(Gltf, RefusesMinVersionPast20) {
  EXPECT_REFUSED("{\"asset\":{\"version\":\"2.1\",\"minVersion\":\"2.1\"}}", maniImportReasonVersion, 0);
  Opened o(std::string("{\"asset\":{\"version\":\"2.1\",\"minVersion\":\"2.0\"}}"));
}

TEST(Gltf, RefusesUnsupportedRequiredExtension) {
  std::string t = Doc("\"extensionsRequired\":[\"KHR_mesh_quantization\",\"EXT_mesh_gpu_instancing\"]");
  maniImportResult r = Refused(t);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonUnsupported);
  EXPECT_EQ(r.item, 1u);
  EXPECT_EQ(r.offset, At(t, "\"EXT_mesh_gpu_instancing\""));
}

TEST(Gltf, AcceptsSupportedRequiredExtensions) {
  Opened o(Doc("\"extensionsRequired\":[\"EXT_meshopt_compression\",\"KHR_meshopt_compression\","
               "\"KHR_mesh_quantization\",\"KHR_animation_pointer\",\"KHR_draco_mesh_compression\","
               "\"KHR_texture_transform\",\"KHR_materials_emissive_strength\"],"
               "\"extensionsUsed\":[\"VENDOR_whatever\"]"));
  // A prefix alone is not an extension.
  EXPECT_REFUSED(Doc("\"extensionsRequired\":[\"KHR_materials_\"]"), maniImportReasonUnsupported, 0);
}

// -- Buffers ------------------------------------------------------------------------------

TEST(Gltf, DecodesDataUris) {
  Bytes data = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 250};
  Opened o(Doc("\"buffers\":[{\"byteLength\":11,\"uri\":\"" + DataUri(data) + "\"},{\"byteLength\":10,\"uri\":\"" +
               DataUri(data) + "\"}]"));
  ASSERT_EQ(maniGltf_GetBufferCount(o.g), 2u);
  EXPECT_EQ(maniGltf_GetBufferUri(o.g, 0, nullptr), nullptr);
  ASSERT_NE(o.g->buffers[0].data, nullptr);
  EXPECT_EQ(memcmp(o.g->buffers[0].data, data.data(), data.size()), 0);
  EXPECT_EQ(maniGltf_SupplyBuffer(o.g, 0, data.data(), data.size()).result, mani_errorInvalid);
}

TEST(Gltf, RefusesShortDataUri) {
  Bytes data = {1, 2, 3};
  EXPECT_REFUSED(Doc("\"buffers\":[{\"byteLength\":4,\"uri\":\"" + DataUri(data) + "\"}]"), maniImportReasonBuffer, 0);
}

TEST(Gltf, RefusesDataUriNotBase64) {
  EXPECT_REFUSED(Doc("\"buffers\":[{\"byteLength\":1,\"uri\":\"data:application/octet-stream;base64,AA*A\"}]"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"buffers\":[{\"byteLength\":1,\"uri\":\"data:text/plain,hello\"}]"), maniImportReasonProperty,
                 0);
}

TEST(Gltf, RefusesBufferWithoutByteLength) {
  EXPECT_REFUSED(Doc("\"buffers\":[{\"byteLength\":1},{\"uri\":\"a.bin\"}]"), maniImportReasonProperty, 1);
  EXPECT_REFUSED(Doc("\"buffers\":[{\"byteLength\":0,\"uri\":\"a.bin\"}]"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesGlbBinShorterThanBuffer) {
  Bytes bin = {1, 2, 3, 4};
  maniImportResult r = OpenBytes(Glb(Doc("\"buffers\":[{\"byteLength\":5}]"), &bin));
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuffer);
}

TEST(Gltf, ExternalBuffersWaitForTheHost) {
  std::string t = Doc(
      "\"buffers\":[{\"byteLength\":8,\"uri\":\"a b\\u00e9.bin\"}],"
      "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC2\",\"count\":1}]");
  Opened o(t);
  size_t n = 0;
  const char* uri = maniGltf_GetBufferUri(o.g, 0, &n);
  ASSERT_NE(uri, nullptr);
  EXPECT_EQ(std::string(uri, n), "a b\xc3\xa9.bin");
  EXPECT_EQ(maniGltf_GetBufferUri(o.g, 1, &n), nullptr);
  EXPECT_EQ(n, 0u);
  float f[2] = {7, 7};
  maniImportResult r = mani_GltfReadFloats(o.g, 0, f, 2);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonPending);
  EXPECT_EQ(r.item, 0u);
  EXPECT_EQ(f[0], 7.0f);
  Bytes b;
  PutF(&b, 1.5f);
  PutF(&b, -2.0f);
  r = maniGltf_SupplyBuffer(o.g, 0, b.data(), 7);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuffer);
  EXPECT_EQ(maniGltf_SupplyBuffer(o.g, 0, nullptr, 8).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_SupplyBuffer(o.g, 1, b.data(), 8).result, mani_errorInvalid);
  b.push_back(99);  // bytes past byteLength ignored
  ASSERT_EQ(maniGltf_SupplyBuffer(o.g, 0, b.data(), b.size()).result, mani_success);
  ASSERT_EQ(mani_GltfReadFloats(o.g, 0, f, 2).result, mani_success);
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[1], -2.0f);
  EXPECT_NE(maniGltf_GetBufferUri(o.g, 0, nullptr), nullptr);  // still its URI
}

// -- Buffer views --------------------------------------------------------------------------

const std::string kBuf16 = "\"buffers\":[{\"byteLength\":16,\"uri\":\"x.bin\"}]";

TEST(Gltf, RefusesViewPastItsBuffer) {
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16},"
                              "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":9}]"),
                 maniImportReasonProperty, 1);
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteOffset\":18446744073709551615,\"byteLength\":1}]"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesViewBufferOutOfRange) {
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":1,\"byteLength\":4}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"byteLength\":4}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":-1,\"byteLength\":4}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0.5,\"byteLength\":4}]"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesViewStride) {
  for (const char* s : {"2", "6", "256", "0"})
    EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16,\"byteStride\":" + s + "}]"),
                   maniImportReasonProperty, 0);
  Opened o(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16,\"byteStride\":252}]"));
}

TEST(Gltf, RefusesViewTarget) {
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16,\"target\":34961}]"),
                 maniImportReasonProperty, 0);
  Opened o(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16,\"target\":34963}]"));
}

TEST(Gltf, RefusesPlainViewOnBufferWithoutData) {
  // No URI and not a GLB: only compressed views may use it.
  EXPECT_REFUSED(Doc("\"buffers\":[{\"byteLength\":16}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":16}]"),
                 maniImportReasonBuffer, 0);
}

// -- Accessors ----------------------------------------------------------------------------

std::string Acc(const std::string& fields) {
  return Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16}],\"accessors\":[" + fields + "]");
}

TEST(Gltf, RefusesAccessorComponentType) {
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5124,\"type\":\"SCALAR\",\"count\":1}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"type\":\"SCALAR\",\"count\":1}"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesAccessorType) {
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC5\",\"count\":1}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"count\":1}"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesNormalizedFloatOrUint) {
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"normalized\":true,\"type\":\"SCALAR\",\"count\":1}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5125,\"normalized\":true,\"type\":\"SCALAR\",\"count\":1}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5121,\"normalized\":1,\"type\":\"SCALAR\",\"count\":1}"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesAccessorCountZero) {
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":0}"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesAccessorPastItsView) {
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":5}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5126,\"type\":\"VEC4\",\"count\":1}"),
                 maniImportReasonProperty, 0);
  Opened o(Acc("{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":1}"));
}

TEST(Gltf, RefusesHugeCounts) {
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"MAT4\",\"count\":4294967295}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4294967296}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc("{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":1e300}"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesAccessorStrideBelowElement) {
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16,\"byteStride\":8}],"
                              "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC3\",\"count\":1}]"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesMisalignedAccessor) {
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"byteOffset\":2,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":1}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteOffset\":1,\"byteLength\":8}],"
                              "\"accessors\":[{\"bufferView\":0,\"componentType\":5123,\"type\":\"SCALAR\",\"count\":1}]"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesMinMaxLength) {
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC2\",\"count\":1,\"min\":[0]}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC2\",\"count\":1,\"max\":[0,\"a\"]}"),
                 maniImportReasonProperty, 0);
  Opened o(Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC2\",\"count\":1,\"min\":[0,1],\"max\":[2,3]}"));
}

const std::string kSparseBase = "{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4,\"sparse\":";

TEST(Gltf, RefusesSparseCount) {
  EXPECT_REFUSED(Acc(kSparseBase + "{\"count\":5,\"indices\":{\"bufferView\":0,\"componentType\":5121},"
                                   "\"values\":{\"bufferView\":0}}}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc(kSparseBase + "{\"count\":0,\"indices\":{\"bufferView\":0,\"componentType\":5121},"
                                   "\"values\":{\"bufferView\":0}}}"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesSparseIndexType) {
  EXPECT_REFUSED(Acc(kSparseBase + "{\"count\":1,\"indices\":{\"bufferView\":0,\"componentType\":5120},"
                                   "\"values\":{\"bufferView\":0}}}"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesSparsePastViews) {
  EXPECT_REFUSED(Acc(kSparseBase + "{\"count\":3,\"indices\":{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5123},"
                                   "\"values\":{\"bufferView\":0}}}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc(kSparseBase + "{\"count\":3,\"indices\":{\"bufferView\":0,\"componentType\":5121},"
                                   "\"values\":{\"bufferView\":0,\"byteOffset\":8}}}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Acc(kSparseBase + "{\"count\":1,\"indices\":{\"componentType\":5121},\"values\":{\"bufferView\":0}}}"),
                 maniImportReasonProperty, 0);
}

// A document with one data: buffer holding `data` and the given views and
// accessors.
std::string WithData(const Bytes& data, const std::string& views, const std::string& accessors) {
  return Doc("\"buffers\":[{\"byteLength\":" + std::to_string(data.size()) + ",\"uri\":\"" + DataUri(data) +
             "\"}],\"bufferViews\":[" + views + "],\"accessors\":[" + accessors + "]");
}

TEST(Gltf, RefusesSparseIndicesOutOfRange) {
  Bytes d = {0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // indices 0, 7 (u8); values
  std::string t = WithData(d, "{\"buffer\":0,\"byteLength\":2},{\"buffer\":0,\"byteOffset\":4,\"byteLength\":8}",
                           kSparseBase + "{\"count\":2,\"indices\":{\"bufferView\":0,\"componentType\":5121},"
                                         "\"values\":{\"bufferView\":1}}}");
  maniImportResult r = Refused(t);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  EXPECT_EQ(r.item, 0u);
  EXPECT_EQ(r.offset, 1u);
}

TEST(Gltf, RefusesSparseIndicesNotIncreasing) {
  Bytes d = {2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::string t = WithData(d, "{\"buffer\":0,\"byteLength\":2},{\"buffer\":0,\"byteOffset\":4,\"byteLength\":8}",
                           kSparseBase + "{\"count\":2,\"indices\":{\"bufferView\":0,\"componentType\":5121},"
                                         "\"values\":{\"bufferView\":1}}}");
  maniImportResult r = Refused(t);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  EXPECT_EQ(r.offset, 1u);
}

TEST(Gltf, ReadsNormalizedComponentsByTheSpecFormulas) {
  Bytes d = {0, 127, 128, 255,        // i8: 0, 127, -128, -1  /  u8: 0, 127, 128, 255
             0x00, 0x80, 0xff, 0x7f,  // i16: -32768, 32767 / u16: 32768, 32767
             0x01, 0x00, 0xff, 0xff};  // i16: 1, -1 / u16: 1, 65535
  std::string views = "{\"buffer\":0,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":4,\"byteLength\":8}";
  std::string accs =
      "{\"bufferView\":0,\"componentType\":5120,\"normalized\":true,\"type\":\"VEC4\",\"count\":1},"
      "{\"bufferView\":0,\"componentType\":5121,\"normalized\":true,\"type\":\"VEC4\",\"count\":1},"
      "{\"bufferView\":1,\"componentType\":5122,\"normalized\":true,\"type\":\"VEC4\",\"count\":1},"
      "{\"bufferView\":1,\"componentType\":5123,\"normalized\":true,\"type\":\"VEC4\",\"count\":1},"
      "{\"bufferView\":0,\"componentType\":5120,\"type\":\"VEC4\",\"count\":1},"
      "{\"bufferView\":1,\"componentType\":5123,\"type\":\"VEC2\",\"count\":2}";
  Opened o(WithData(d, views, accs));
  float f[4];
  ASSERT_EQ(mani_GltfReadFloats(o.g, 0, f, 4).result, mani_success);
  EXPECT_EQ(f[0], 0.0f);
  EXPECT_EQ(f[1], 1.0f);
  EXPECT_EQ(f[2], -1.0f);  // max(-128 / 127, -1)
  EXPECT_EQ(f[3], (float)(-1.0 / 127.0));
  ASSERT_EQ(mani_GltfReadFloats(o.g, 1, f, 4).result, mani_success);
  EXPECT_EQ(f[1], (float)(127.0 / 255.0));
  EXPECT_EQ(f[2], (float)(128.0 / 255.0));
  EXPECT_EQ(f[3], 1.0f);
  ASSERT_EQ(mani_GltfReadFloats(o.g, 2, f, 4).result, mani_success);
  EXPECT_EQ(f[0], -1.0f);
  EXPECT_EQ(f[1], 1.0f);
  EXPECT_EQ(f[2], (float)(1.0 / 32767.0));
  EXPECT_EQ(f[3], (float)(-1.0 / 32767.0));
  ASSERT_EQ(mani_GltfReadFloats(o.g, 3, f, 4).result, mani_success);
  EXPECT_EQ(f[0], (float)(32768.0 / 65535.0));
  EXPECT_EQ(f[3], 1.0f);
  ASSERT_EQ(mani_GltfReadFloats(o.g, 4, f, 4).result, mani_success);
  EXPECT_EQ(f[2], -128.0f);
  uint32_t u[4];
  ASSERT_EQ(mani_GltfReadUints(o.g, 5, u, 4).result, mani_success);
  EXPECT_EQ(u[0], 32768u);
  EXPECT_EQ(u[1], 32767u);
  EXPECT_EQ(u[2], 1u);
  EXPECT_EQ(u[3], 65535u);
  // Types the uint reader refuses.
  EXPECT_EQ(mani_GltfReadUints(o.g, 1, u, 4).reason, (uint32_t)maniImportReasonProperty);
  EXPECT_EQ(mani_GltfReadUints(o.g, 4, u, 4).reason, (uint32_t)maniImportReasonProperty);
  // Capacity.
  EXPECT_EQ(mani_GltfReadFloats(o.g, 0, f, 3).result, mani_errorCapacity);
  EXPECT_EQ(mani_GltfReadFloats(o.g, 99, f, 4).result, mani_errorInvalid);
}

TEST(Gltf, ReadsMatrixColumnsWithoutTheirPadding) {
  // MAT3 of bytes: each 3-byte column padded to 4.
  Bytes d = {1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0, 10, 11, 12, 0, 13, 14, 15, 0, 16, 17, 18, 0};
  Opened o(WithData(d, "{\"buffer\":0,\"byteLength\":24}",
                    "{\"bufferView\":0,\"componentType\":5121,\"type\":\"MAT3\",\"count\":2},"
                    "{\"bufferView\":0,\"componentType\":5121,\"type\":\"MAT2\",\"count\":3}"));
  float f[18];
  ASSERT_EQ(mani_GltfReadFloats(o.g, 0, f, 18).result, mani_success);
  for (int i = 0; i < 18; i++) EXPECT_EQ(f[i], (float)(i + 1));
  ASSERT_EQ(mani_GltfReadFloats(o.g, 1, f, 12).result, mani_success);  // 2-byte columns padded to 4
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(f[1], 2.0f);
  EXPECT_EQ(f[2], 4.0f);
  EXPECT_EQ(f[3], 5.0f);
  EXPECT_EQ(f[4], 7.0f);
}

TEST(Gltf, AppliesSparseValues) {
  Bytes d;
  for (float v : {1.0f, 2.0f, 3.0f, 4.0f}) PutF(&d, v);
  d.push_back(1);
  d.push_back(0);
  d.push_back(3);
  d.push_back(0);
  PutF(&d, 20.0f);
  PutF(&d, 40.0f);
  std::string views =
      "{\"buffer\":0,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":16,\"byteLength\":4},"
      "{\"buffer\":0,\"byteOffset\":20,\"byteLength\":8}";
  std::string sparse = "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
                       "\"values\":{\"bufferView\":2}}";
  Opened o(WithData(d, views,
                    "{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4," + sparse + "},"
                    "{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4," + sparse + "}"));
  float f[4];
  ASSERT_EQ(mani_GltfReadFloats(o.g, 0, f, 4).result, mani_success);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(f[1], 20.0f);
  EXPECT_EQ(f[2], 3.0f);
  EXPECT_EQ(f[3], 40.0f);
  ASSERT_EQ(mani_GltfReadFloats(o.g, 1, f, 4).result, mani_success);
  EXPECT_EQ(f[0], 0.0f);
  EXPECT_EQ(f[1], 20.0f);
  EXPECT_EQ(f[2], 0.0f);
  EXPECT_EQ(f[3], 40.0f);
}

TEST(Gltf, ReadsStridedViews) {
  Bytes d;
  for (float v : {1.0f, 9.0f, 2.0f, 9.0f, 3.0f, 9.0f}) PutF(&d, v);
  Opened o(WithData(d, "{\"buffer\":0,\"byteLength\":24,\"byteStride\":8}",
                    "{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":3},"
                    "{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":3}"));
  float f[3];
  ASSERT_EQ(mani_GltfReadFloats(o.g, 0, f, 3).result, mani_success);
  EXPECT_EQ(f[2], 3.0f);
  ASSERT_EQ(mani_GltfReadFloats(o.g, 1, f, 3).result, mani_success);
  EXPECT_EQ(f[1], 9.0f);
}

// -- Meshopt views -------------------------------------------------------------------------

TEST(Gltf, RefusedMeshoptStreamGivesDataAtItsOffset) {
  // A stream whose header byte is wrong, at offset 4 of its buffer.
  Bytes d = {0, 0, 0, 0, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::string t = Doc("\"buffers\":[{\"byteLength\":20,\"uri\":\"" + DataUri(d) +
                      "\"},{\"byteLength\":16,\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}}],"
                      "\"bufferViews\":[{\"buffer\":1,\"byteLength\":16,\"byteStride\":4,\"extensions\":{"
                      "\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":4,\"byteLength\":16,"
                      "\"byteStride\":4,\"count\":4,\"mode\":\"ATTRIBUTES\"}}}]");
  maniImportResult r = Refused(t);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  EXPECT_EQ(r.item, 0u);
  EXPECT_EQ(r.offset, 4u);
}

TEST(Gltf, MeshoptFallbackBuffersAreNeverRead) {
  std::string t = Doc(
      "\"buffers\":[{\"byteLength\":20,\"uri\":\"stream.bin\"},"
      "{\"byteLength\":16,\"uri\":\"fallback.bin\",\"extensions\":{\"KHR_meshopt_compression\":{\"fallback\":true}}}],"
      "\"bufferViews\":[{\"buffer\":1,\"byteLength\":16,\"extensions\":{"
      "\"KHR_meshopt_compression\":{\"buffer\":0,\"byteLength\":20,\"byteStride\":4,\"count\":4,"
      "\"mode\":\"ATTRIBUTES\",\"filter\":\"NONE\"}}}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4}]");
  Opened o(t);
  EXPECT_NE(maniGltf_GetBufferUri(o.g, 0, nullptr), nullptr);
  EXPECT_EQ(maniGltf_GetBufferUri(o.g, 1, nullptr), nullptr);
  EXPECT_EQ(maniGltf_SupplyBuffer(o.g, 1, t.data(), 16).result, mani_errorInvalid);
  float f[4];
  maniImportResult r = mani_GltfReadFloats(o.g, 0, f, 4);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonPending);
  EXPECT_EQ(r.item, 0u);
  // A refused stream leaves the buffer unsupplied.
  Bytes bad(20, 0);
  r = maniGltf_SupplyBuffer(o.g, 0, bad.data(), bad.size());
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  EXPECT_EQ(r.item, 0u);
  EXPECT_EQ(mani_GltfReadFloats(o.g, 0, f, 4).reason, (uint32_t)maniImportReasonPending);
}

TEST(Gltf, RefusesMeshoptProperties) {
  std::string head = Doc("\"buffers\":[{\"byteLength\":20,\"uri\":\"s.bin\"}],\"bufferViews\":[{\"buffer\":0,"
                         "\"byteLength\":16,\"extensions\":{\"EXT_meshopt_compression\":{");
  (void)head;
  auto doc = [](const std::string& ext) {
    return Doc("\"buffers\":[{\"byteLength\":20,\"uri\":\"s.bin\"}],\"bufferViews\":[{\"buffer\":0,"
               "\"byteLength\":16,\"extensions\":{\"EXT_meshopt_compression\":{" + ext + "}}}]");
  };
  EXPECT_REFUSED(doc("\"buffer\":0,\"byteLength\":20,\"byteStride\":4,\"count\":4,\"mode\":\"FOO\""),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(doc("\"buffer\":0,\"byteLength\":20,\"byteStride\":4,\"count\":4"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(doc("\"buffer\":0,\"byteLength\":21,\"byteStride\":4,\"count\":4,\"mode\":\"ATTRIBUTES\""),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(doc("\"buffer\":0,\"byteLength\":20,\"byteStride\":4,\"count\":3,\"mode\":\"ATTRIBUTES\""),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(doc("\"buffer\":0,\"byteLength\":20,\"byteStride\":4,\"count\":4,\"mode\":\"ATTRIBUTES\","
                     "\"filter\":\"BLUR\""),
                 maniImportReasonProperty, 0);
  Opened o(doc("\"buffer\":0,\"byteLength\":20,\"byteStride\":4,\"count\":4,\"mode\":\"ATTRIBUTES\""));
}

// -- Nodes ----------------------------------------------------------------------------------

TEST(Gltf, RefusesNodeChildTwice) {
  EXPECT_REFUSED(Doc("\"nodes\":[{\"children\":[2]},{\"children\":[2]},{}]"), maniImportReasonProperty, 1);
  EXPECT_REFUSED(Doc("\"nodes\":[{\"children\":[1,1]},{}]"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesNodeChildOfItself) {
  EXPECT_REFUSED(Doc("\"nodes\":[{},{\"children\":[1]}]"), maniImportReasonProperty, 1);
}

TEST(Gltf, RefusesNodeCycle) {
  maniImportResult r = Refused(Doc("\"nodes\":[{\"children\":[1]},{\"children\":[2]},{\"children\":[0]}]"));
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
}

TEST(Gltf, RefusesNodeChildOutOfRange) {
  EXPECT_REFUSED(Doc("\"nodes\":[{\"children\":[1]}]"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesMatrixWithTrs) {
  EXPECT_REFUSED(Doc("\"nodes\":[{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],\"scale\":[1,1,1]}]"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesTransformArrays) {
  EXPECT_REFUSED(Doc("\"nodes\":[{\"translation\":[1,2]}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"nodes\":[{\"rotation\":[0,0,0,\"1\"]}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"nodes\":[{\"scale\":[1,1,1e39]}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"nodes\":[{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0]}]"), maniImportReasonProperty, 0);
}

TEST(Gltf, ReadsNodeTransforms) {
  Opened o(Doc("\"nodes\":[{\"translation\":[1,2,3],\"rotation\":[0,0,0.6,0.8]},{\"matrix\":[2,0,0,0,0,2,0,0,0,0,2,0,"
               "5,6,7,1]},{}]"));
  const mani_GltfNode* n = o.g->nodes;
  EXPECT_EQ(n[0].translation[2], 3.0f);
  EXPECT_EQ(n[0].rotation[2], 0.6f);
  EXPECT_EQ(n[0].scale[0], 1.0f);
  EXPECT_EQ(n[0].hasMatrix, 0u);
  EXPECT_EQ(n[1].hasMatrix, 1u);
  EXPECT_EQ(n[1].matrix[12], 5.0f);
  EXPECT_EQ(n[2].rotation[3], 1.0f);
  EXPECT_EQ(n[2].matrix[15], 1.0f);
}

TEST(Gltf, RefusesSkinWithoutMesh) {
  EXPECT_REFUSED(Doc("\"nodes\":[{\"skin\":0},{}],\"skins\":[{\"joints\":[1]}]"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesNodeMeshOrSkinOutOfRange) {
  EXPECT_REFUSED(Doc("\"nodes\":[{\"mesh\":0}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"nodes\":[{\"mesh\":0,\"skin\":1}],\"meshes\":[{\"primitives\":[{\"attributes\":{}}]}],"
                     "\"skins\":[{\"joints\":[0]}]"),
                 maniImportReasonProperty, 0);
}

// -- Bone names ------------------------------------------------------------------------------

std::string BoneName(const maniGltf* g, uint32_t node) {
  size_t n = 0;
  const char* s = maniGltf_GetNodeBoneName(g, node, &n);
  return s ? std::string(s, n) : std::string("<null>");
}

TEST(Gltf, NamesBonesAndListsTheRenamed) {
  Opened o(Doc("\"nodes\":[{\"name\":\"A\"},{},{\"name\":\"A\"},{\"name\":\"B\\u0041\"},{\"name\":\"\"},"
               "{\"name\":\"BA\"}]"));
  EXPECT_EQ(BoneName(o.g, 0), "A");
  EXPECT_EQ(BoneName(o.g, 1), "#1");
  EXPECT_EQ(BoneName(o.g, 2), "A#2");
  EXPECT_EQ(BoneName(o.g, 3), "BA");
  EXPECT_EQ(BoneName(o.g, 4), "#4");
  EXPECT_EQ(BoneName(o.g, 5), "BA#5");
  EXPECT_EQ(BoneName(o.g, 6), "<null>");
  ASSERT_EQ(maniGltf_GetRenamedCount(o.g), 4u);
  EXPECT_EQ(maniGltf_GetRenamedNode(o.g, 0), 1u);
  EXPECT_EQ(maniGltf_GetRenamedNode(o.g, 1), 2u);
  EXPECT_EQ(maniGltf_GetRenamedNode(o.g, 2), 4u);
  EXPECT_EQ(maniGltf_GetRenamedNode(o.g, 3), 5u);
  EXPECT_EQ(maniGltf_GetRenamedNode(o.g, 4), UINT32_MAX);
}

TEST(Gltf, RenamedNamesStayUnique) {
  // Node 0 is literally "A#2"; node 2's made name would be the same.
  Opened o(Doc("\"nodes\":[{\"name\":\"A#2\"},{\"name\":\"A\"},{\"name\":\"A\"},{\"name\":\"#3\"},{}]"));
  EXPECT_EQ(BoneName(o.g, 2), "A#2#2");
  EXPECT_EQ(BoneName(o.g, 3), "#3");
  EXPECT_EQ(BoneName(o.g, 4), "#4");
  std::map<std::string, int> seen;
  for (uint32_t i = 0; i < 5; i++) EXPECT_EQ(seen[BoneName(o.g, i)]++, 0) << BoneName(o.g, i);
}

// -- Skins and skeletons -------------------------------------------------------------------------

const std::string kMesh = "\"meshes\":[{\"primitives\":[{\"attributes\":{}}]}]";

TEST(Gltf, RefusesSkinJoints) {
  EXPECT_REFUSED(Doc("\"nodes\":[{}],\"skins\":[{\"joints\":[]}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"nodes\":[{}],\"skins\":[{}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"nodes\":[{}],\"skins\":[{\"joints\":[0]},{\"joints\":[0,0]}]"), maniImportReasonProperty, 1);
  EXPECT_REFUSED(Doc("\"nodes\":[{}],\"skins\":[{\"joints\":[1]}]"), maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesInverseBindAccessor) {
  std::string base = kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16}],\"nodes\":[{},{}],";
  EXPECT_REFUSED(Doc(base + "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC4\",\"count\":1}],"
                            "\"skins\":[{\"joints\":[0],\"inverseBindMatrices\":0}]"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc(base + "\"accessors\":[{\"componentType\":5126,\"type\":\"MAT4\",\"count\":1}],"
                            "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":0}]"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc(base + "\"skins\":[{\"joints\":[0],\"inverseBindMatrices\":0}]"), maniImportReasonProperty, 0);
}

TEST(Gltf, SkinsSharingANodeShareASkeleton) {
  // 0 -> 1 -> {2, 3}; 4 -> 5; 6 -> {7, 8}, 9 standalone.
  // skin 0: joints 2, 3 (hierarchy 1, 2, 3); skin 1: joints 5 (hierarchy 5);
  // skin 2: joint 1 alone (shares node 1 with skin 0); skin 3: 7, 8 (6, 7, 8).
  Opened o(Doc("\"nodes\":[{\"children\":[1]},{\"children\":[2,3]},{},{},{\"children\":[5]},{},"
               "{\"children\":[7,8]},{},{},{\"mesh\":0,\"skin\":0}]," + kMesh +
               ",\"skins\":[{\"joints\":[2,3]},{\"joints\":[5]},{\"joints\":[1]},{\"joints\":[8,7]}]"));
  ASSERT_EQ(maniGltf_GetSkinCount(o.g), 4u);
  EXPECT_EQ(maniGltf_GetSkeletonCount(o.g), 3u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 0), 0u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 1), 1u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 2), 0u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 3), 2u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 4), UINT32_MAX);
  const mani_GltfSkeleton* k = o.g->skeletons;
  ASSERT_EQ(k[0].nodeCount, 3u);
  EXPECT_EQ(o.g->skeletonNodes[k[0].nodeStart], 1u);
  EXPECT_EQ(o.g->skeletonNodes[k[0].nodeStart + 2], 3u);
  ASSERT_EQ(k[0].rootCount, 1u);
  EXPECT_EQ(o.g->skeletonRoots[k[0].rootStart], 1u);
  EXPECT_EQ(k[0].lowestSkin, 0u);
  EXPECT_EQ(k[2].lowestSkin, 3u);
  EXPECT_EQ(k[2].nodeCount, 3u);
  EXPECT_EQ(o.g->skeletonRoots[k[2].rootStart], 6u);
  EXPECT_FALSE(mani_GltfSkeletonHasNode(o.g, 0, 0));
  EXPECT_TRUE(mani_GltfSkeletonHasNode(o.g, 2, 6));
  EXPECT_EQ(maniGltf_GetNodeSkin(o.g, 9), 0u);
  EXPECT_EQ(maniGltf_GetNodeMesh(o.g, 9), 0u);
  EXPECT_EQ(maniGltf_GetNodeSkin(o.g, 0), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetNodeMesh(o.g, 10), UINT32_MAX);
}

TEST(Gltf, HierarchyTakesTheNodesBetweenJointsAndTheirCommonRoot) {
  // 0 -> 1 -> 2 -> 3, 1 -> 4 -> 5; joints 3 and 5: common root 1, between 2, 4.
  // A second skin on joint 0 alone does not touch it (node 0 is above).
  Opened o(Doc("\"nodes\":[{\"children\":[1]},{\"children\":[2,4]},{\"children\":[3]},{},{\"children\":[5]},{}],"
               "\"skins\":[{\"joints\":[3,5]},{\"joints\":[0]}]"));
  EXPECT_EQ(maniGltf_GetSkeletonCount(o.g), 2u);
  const mani_GltfSkeleton* k = o.g->skeletons;
  ASSERT_EQ(k[0].nodeCount, 5u);
  for (uint32_t i = 0; i < 5; i++) EXPECT_EQ(o.g->skeletonNodes[k[0].nodeStart + i], i + 1);
  EXPECT_EQ(k[1].nodeCount, 1u);
  // Joints in separate trees: each tree's share, two roots.
  Opened p(Doc("\"nodes\":[{\"children\":[1]},{},{\"children\":[3]},{}],\"skins\":[{\"joints\":[1,3]}]"));
  EXPECT_EQ(maniGltf_GetSkeletonCount(p.g), 1u);
  EXPECT_EQ(p.g->skeletons[0].nodeCount, 2u);
  EXPECT_EQ(p.g->skeletons[0].rootCount, 2u);
}

// -- Meshes and morph weights --------------------------------------------------------------------

TEST(Gltf, CountsPrimitivesAndTargets) {
  std::string t = Acc("{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC3\",\"count\":1}");
  t.pop_back();
  t += ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_12\":0,\"TEXCOORD_01\":0,\"_X\":0},"
       "\"targets\":[{\"POSITION\":0},{\"NORMAL\":0}]},{\"attributes\":{\"POSITION\":0},\"targets\":[{},{}]}],"
       "\"weights\":[0.5,0.25],\"extras\":{\"targetNames\":[\"a\",\"b\"]}},"
       "{\"primitives\":[{\"attributes\":{},\"extensions\":{\"KHR_draco_mesh_compression\":{\"bufferView\":0,"
       "\"attributes\":{\"POSITION\":0}}}}]}],"
       "\"nodes\":[{\"mesh\":0},{\"mesh\":0,\"weights\":[1,2]},{\"mesh\":1},{\"mesh\":0,\"weights\":[1]}]}";
  Opened o(t);
  EXPECT_EQ(maniGltf_GetMeshCount(o.g), 2u);
  EXPECT_EQ(maniGltf_GetPrimitiveCount(o.g, 0), 2u);
  EXPECT_EQ(maniGltf_GetPrimitiveCount(o.g, 2), 0u);
  EXPECT_EQ(maniGltf_GetPrimitiveTargetCount(o.g, 0, 0), 2u);
  EXPECT_EQ(maniGltf_GetPrimitiveTargetCount(o.g, 0, 2), 0u);
  EXPECT_EQ(maniGltf_GetPrimitiveTargetCount(o.g, 1, 0), 0u);
  const mani_GltfPrimitive* p = &o.g->primitives[0];
  ASSERT_EQ(p->attributeCount, 4u);
  const mani_GltfAttribute* a = &o.g->attributes[p->attributeStart];
  EXPECT_EQ(a[0].set, MANI_GLTF_NONE);
  EXPECT_EQ(a[0].baseLength, 8u);
  EXPECT_EQ(a[1].set, 12u);
  EXPECT_EQ(a[1].baseLength, 6u);
  EXPECT_EQ(a[2].set, MANI_GLTF_NONE);  // a leading zero is no set index
  EXPECT_EQ(a[3].set, MANI_GLTF_NONE);
  EXPECT_NE(o.g->meshes[0].targetNamesToken, MANI_GLTF_NONE);
  EXPECT_NE(o.g->primitives[2].dracoToken, MANI_GLTF_NONE);
  EXPECT_EQ(o.g->primitives[2].dracoView, 0u);
  float w[2] = {9, 9};
  uint32_t count = 0;
  ASSERT_EQ(maniGltf_GetMorphWeights(o.g, 0, w, 2, &count).result, mani_success);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(w[0], 0.5f);
  EXPECT_EQ(w[1], 0.25f);
  ASSERT_EQ(maniGltf_GetMorphWeights(o.g, 1, w, 2, &count).result, mani_success);
  EXPECT_EQ(w[1], 2.0f);
  // Measure, then too small a capacity zeroes the array.
  count = 0;
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 1, nullptr, 0, &count).result, mani_errorCapacity);
  EXPECT_EQ(count, 2u);
  w[0] = 5;
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 1, w, 1, &count).result, mani_errorCapacity);
  EXPECT_EQ(w[0], 0.0f);
  // Refusals.
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 2, w, 2, &count).result, mani_errorInvalid);  // no targets
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 9, w, 2, &count).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 0, nullptr, 2, &count).result, mani_errorInvalid);
  maniImportResult r = maniGltf_GetMorphWeights(o.g, 3, w, 2, &count);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty);
  EXPECT_EQ(r.item, 3u);
}

TEST(Gltf, MorphWeightsZeroWithoutWeights) {
  Opened o(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16}],\"accessors\":[{\"bufferView\":0,"
                        "\"componentType\":5126,\"type\":\"VEC3\",\"count\":1}],\"meshes\":[{\"primitives\":[{"
                        "\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":0}]}]}],\"nodes\":[{\"mesh\":0}]"));
  float w[1] = {3};
  ASSERT_EQ(maniGltf_GetMorphWeights(o.g, 0, w, 1, nullptr).result, mani_success);
  EXPECT_EQ(w[0], 0.0f);
}

TEST(Gltf, RefusesMeshes) {
  EXPECT_REFUSED(Doc("\"meshes\":[{\"primitives\":[]}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"meshes\":[{}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"meshes\":[{\"primitives\":[{}]}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Doc("\"meshes\":[{\"primitives\":[{\"attributes\":{},\"mode\":7}]}]"), maniImportReasonProperty, 0);
  // Primitives of one mesh with different target counts.
  EXPECT_REFUSED(Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16}],\"accessors\":[{\"bufferView\":0,"
                              "\"componentType\":5126,\"type\":\"VEC3\",\"count\":1}],\"meshes\":[{\"primitives\":["
                              "{\"attributes\":{},\"targets\":[{\"POSITION\":0}]},{\"attributes\":{}}]}]"),
                 maniImportReasonProperty, 0);
}

// -- Animations --------------------------------------------------------------------------------

std::string Anim(const std::string& animation) {
  return Doc(kBuf16 + ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":16}],\"accessors\":[{\"bufferView\":0,"
                      "\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4},{\"bufferView\":0,"
                      "\"componentType\":5126,\"type\":\"VEC4\",\"count\":1}],\"nodes\":[{}],\"animations\":[" +
             animation + "]");
}

TEST(Gltf, ReadsAnimations) {
  Opened o(Anim("{\"name\":\"Wa\\nlk\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}},"
                "{\"sampler\":1,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{"
                "\"pointer\":\"/materials/0/a~1b\"}}}},{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"EXT_x\"}}],"
                "\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"STEP\"},{\"input\":0,\"output\":0,"
                "\"interpolation\":\"CUBICSPLINE\"}]},"
                "{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
                "\"samplers\":[{\"input\":0,\"output\":0}]}"));
  ASSERT_EQ(maniGltf_GetAnimationCount(o.g), 2u);
  size_t n = 0;
  const char* s = maniGltf_GetAnimationName(o.g, 0, &n);
  EXPECT_EQ(std::string(s, n), "Wa\nlk");
  s = maniGltf_GetAnimationName(o.g, 1, &n);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(maniGltf_GetAnimationName(o.g, 2, &n), nullptr);
  const mani_GltfChannel* c = o.g->channels;
  EXPECT_EQ(c[0].path, (uint32_t)mani_gltfPathRotation);
  EXPECT_EQ(c[0].node, 0u);
  EXPECT_EQ(c[1].path, (uint32_t)mani_gltfPathPointer);
  EXPECT_EQ(c[1].node, MANI_GLTF_NONE);
  EXPECT_EQ(std::string(c[1].pointer.text, c[1].pointer.length), "/materials/0/a~1b");
  EXPECT_EQ(c[2].path, (uint32_t)mani_gltfPathOther);
  EXPECT_EQ(c[3].path, (uint32_t)mani_gltfPathWeights);
  EXPECT_EQ(o.g->samplers[0].interpolation, (uint32_t)maniInterpolationStep);
  EXPECT_EQ(o.g->samplers[1].interpolation, (uint32_t)maniInterpolationCubicSpline);
  EXPECT_EQ(o.g->samplers[2].interpolation, (uint32_t)maniInterpolationLinear);
  EXPECT_EQ(o.g->animations[1].samplerStart, 2u);
}

TEST(Gltf, RefusesAnimations) {
  const std::string s = "\"samplers\":[{\"input\":0,\"output\":1}]";
  EXPECT_REFUSED(Anim("{\"channels\":[]," + s + "}"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(Anim("{\"channels\":[{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"scale\"}}]," + s + "}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Anim("{\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"scale\"}}]," + s + "}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(Anim("{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0}}]," + s + "}"), maniImportReasonProperty,
                 0);
  EXPECT_REFUSED(Anim("{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"scale\"}}],"
                      "\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"SMOOTH\"}]}"),
                 maniImportReasonProperty, 0);
  // Input not SCALAR FLOAT.
  EXPECT_REFUSED(Anim("{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"scale\"}}],"
                      "\"samplers\":[{\"input\":1,\"output\":1}]}"),
                 maniImportReasonProperty, 0);
}

TEST(Gltf, RefusesAnimationPointers) {
  const std::string s = "\"samplers\":[{\"input\":0,\"output\":1}]";
  auto ch = [&](const std::string& target) {
    return Anim("{\"channels\":[{\"sampler\":0,\"target\":" + target + "}]," + s + "}");
  };
  EXPECT_REFUSED(ch("{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{}}}"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(ch("{\"path\":\"pointer\"}"), maniImportReasonProperty, 0);
  EXPECT_REFUSED(ch("{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":\"materials/0\"}}}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(ch("{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":\"/a~2\"}}}"),
                 maniImportReasonProperty, 0);
  EXPECT_REFUSED(ch("{\"path\":\"path\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":\"/a\"}}}"),
                 maniImportReasonProperty, 0);
}

// -- Close, calls back in, allocation failure ---------------------------------------------------

std::string RichDoc() {
  Bytes d;
  for (int i = 0; i < 16; i++) PutF(&d, (float)i);
  return Doc("\"buffers\":[{\"byteLength\":64,\"uri\":\"" + DataUri(d) +
             "\"},{\"byteLength\":4,\"uri\":\"ext\\u0065rnal.bin\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteLength\":64},{\"buffer\":1,\"byteLength\":4}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"MAT4\",\"count\":1},"
             "{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4},"
             "{\"bufferView\":1,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":1}],"
             "\"nodes\":[{\"name\":\"r\\u006Fot\",\"children\":[1,2]},{\"name\":\"a\"},{\"name\":\"a\"},{\"mesh\":0,"
             "\"skin\":0},{}],"
             "\"skins\":[{\"joints\":[1],\"inverseBindMatrices\":0},{\"joints\":[0,2]}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITI\\u004FN\":1},\"targets\":[{\"POSITION\":1}]}],"
             "\"weights\":[0.5]}],"
             "\"animations\":[{\"name\":\"\\u0041nim\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":"
             "\"translation\"}},{\"sampler\":0,\"target\":{\"path\":\"pointer\",\"extensions\":{"
             "\"KHR_animation_pointer\":{\"pointer\":\"/x\\u002Fy\"}}}}],\"samplers\":[{\"input\":1,\"output\":1}]}]");
}

TEST(Gltf, AllocationFailureAtEveryIndexLeaksNothing) {
  Bytes bytes = Text(RichDoc());
  int total = 0;
  {
    Builder bl;
    int before = bl.hooks.allocations;
    maniGltf* g = nullptr;
    maniImportResult r0 = Open(bl.b, bytes, &g);
    ASSERT_EQ(r0.result, mani_success) << r0.reason << " " << r0.item << " " << r0.offset << " "
                                       << std::string(bytes.begin() + (long)r0.offset, bytes.end());
    total = bl.hooks.allocations - before;
    EXPECT_EQ(BoneName(g, 4), "#4");
    maniCloseGltf(g);
  }
  ASSERT_GT(total, 10);
  for (int n = 0; n < total; n++) {
    Builder bl;
    bl.hooks.failAt = bl.hooks.allocations + n;
    maniGltf* g = nullptr;
    maniImportResult r = Open(bl.b, bytes, &g);
    EXPECT_EQ(r.result, mani_errorCapacity) << n;
    EXPECT_EQ(g, nullptr);
  }
}

TEST(Gltf, CloseFromTheAllocatorClosesNothing) {
  Builder bl;
  Bytes bytes = Text(RichDoc());
  maniGltf* g = nullptr;
  ASSERT_EQ(Open(bl.b, bytes, &g).result, mani_success);
  bl.hooks.gltf = g;
  bl.hooks.closeInAllocate = true;
  // Any allocation runs the hook: a supply of the external buffer
  // allocates its view list.
  Bytes four(4, 0);
  EXPECT_EQ(maniGltf_SupplyBuffer(g, 1, four.data(), 4).result, mani_success);
  EXPECT_GE(maniBuilder_GetMisuse(bl.b), 1u);
  EXPECT_EQ(maniGltf_GetNodeCount(g), 5u);  // still open
  bl.hooks.closeInAllocate = false;
  // Supply from the allocator: busy, counted.
  uint32_t before = maniBuilder_GetMisuse(bl.b);
  bl.hooks.supplyInAllocate = true;
  EXPECT_EQ(maniGltf_SupplyBuffer(g, 1, four.data(), 4).result, mani_success);
  bl.hooks.supplyInAllocate = false;
  ASSERT_FALSE(bl.hooks.supplyResults.empty());
  EXPECT_EQ(bl.hooks.supplyResults[0].result, mani_errorBusy);
  EXPECT_GT(maniBuilder_GetMisuse(bl.b), before);
  // The close's release hook finds the document empty.
  bl.hooks.queryInRelease = true;
  maniCloseGltf(g);
  bl.hooks.queryInRelease = false;
  bl.hooks.gltf = nullptr;
  ASSERT_FALSE(bl.hooks.queried.empty());
  for (uint32_t q : bl.hooks.queried) EXPECT_EQ(q, 0u);
}

TEST(Gltf, OpenFromTheAllocatorIsBusy) {
  // A builder whose allocator opens a document: refused, counted.
  struct Reenter {
    static void* Allocate(void* user, size_t size, size_t alignment) {
      maniBuilder** b = (maniBuilder**)user;
      if (*b != nullptr) {
        maniGltf* g = nullptr;
        static const char text[] = "{\"asset\":{\"version\":\"2.0\"}}";
        maniImportResult r = maniOpenGltf(*b, text, sizeof text - 1, &g);
        EXPECT_EQ(r.result, mani_errorBusy);
      }
      return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    }
    static void Release(void*, void* memory, size_t) { free(memory); }
  };
  maniBuilder* b = nullptr;
  maniBuilderDef def = maniDefaultBuilderDef();
  def.allocator.allocate = Reenter::Allocate;
  def.allocator.release = Reenter::Release;
  def.allocator.user = &b;
  maniBuilder* made = nullptr;
  ASSERT_EQ(maniCreateBuilder(&def, &made), mani_success);
  b = made;
  Bytes bytes = Text(Doc(""));
  maniGltf* g = nullptr;
  ASSERT_EQ(Open(made, bytes, &g).result, mani_success);
  EXPECT_GE(maniBuilder_GetMisuse(made), 1u);
  b = nullptr;
  maniCloseGltf(g);
  maniDestroyBuilder(made);
}

// -- Truncations and byte patches ----------------------------------------------------------------

// Opens every truncation and every byte patch (three values per byte);
// each gives a result code, and every success reads its queries.
void Exhaust(const Bytes& file, size_t denseEnd, int stride) {
  Builder bl;
  auto tryOpen = [&](const Bytes& b) {
    maniGltf* g = nullptr;
    maniImportResult r = maniOpenGltf(bl.b, b.data(), b.size(), &g);
    if (r.result == mani_success) {
      for (uint32_t i = 0; i < maniGltf_GetNodeCount(g); i++) {
        (void)maniGltf_GetNodeBoneName(g, i, nullptr);
        float w[64];
        maniImportResult w_ = maniGltf_GetMorphWeights(g, i, w, 64, nullptr);
        (void)w_;
      }
      for (uint32_t i = 0; i < g->accessorCount; i++) {
        std::vector<float> f(mani_GltfAccessorValues(g, i));
        (void)mani_GltfReadFloats(g, i, f.data(), f.size());
      }
      maniCloseGltf(g);
    } else {
      EXPECT_TRUE(r.result == mani_errorFormat || r.result == mani_errorCapacity) << r.result;
    }
  };
  for (size_t n = 0; n < file.size(); n += n < denseEnd ? 1 : (size_t)stride)
    tryOpen(Bytes(file.begin(), file.begin() + (long)n));
  for (size_t i = 0; i < file.size(); i += i < denseEnd ? 1 : (size_t)stride) {
    for (uint8_t v : {(uint8_t)0x00, (uint8_t)0xFF, (uint8_t)(file[i] ^ 0x01)}) {
      Bytes b = file;
      b[i] = v;
      tryOpen(b);
    }
  }
  EXPECT_EQ(maniBuilder_GetMisuse(bl.b), 0u);
}

Bytes RichGlb() {
  Bytes bin;
  for (int i = 0; i < 16; i++) PutF(&bin, (float)i * 0.5f);
  for (int i = 0; i < 4; i++) bin.push_back((uint8_t)(i * 2));
  std::string json = Doc(
      "\"buffers\":[{\"byteLength\":68}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":64},{\"buffer\":0,"
      "\"byteOffset\":64,\"byteLength\":4}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"MAT4\","
      "\"count\":1},{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":16,\"sparse\":{\"count\":2,"
      "\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":0}}},"
      "{\"bufferView\":1,\"componentType\":5121,\"normalized\":true,\"type\":\"VEC4\",\"count\":1}],"
      "\"nodes\":[{\"name\":\"a\",\"children\":[1]},{\"name\":\"a\"},{\"mesh\":0,\"skin\":0,\"weights\":[0.5]}],"
      "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":0}],"
      "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":1},\"targets\":[{\"POSITION\":1}]}]}],"
      "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"scale\"}}],"
      "\"samplers\":[{\"input\":1,\"output\":1}]}]");
  return Glb(json, &bin);
}

TEST(Gltf, EveryTruncationAndBytePatchOfAGlbGivesAResult) {
  Bytes g = RichGlb();
  Exhaust(g, g.size(), 1);
}

// -- Shared data ---------------------------------------------------------------------------------

bool ReadFile(const std::string& path, Bytes* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->insert(out->end(), buf, buf + n);
  fclose(f);
  return true;
}

std::string SharedData() { return MaulSharedData(); }

void ListFiles(const std::string& dir, std::vector<std::string>* out) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    struct stat st;
    if (stat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) ListFiles(path, out);
    else out->push_back(path);
  }
  closedir(d);
}

bool EndsWith(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// Opens a shared file, supplies its external buffers from beside it and
// reads every accessor; FLOAT values within their min and max.
void OpenShared(const std::string& path, maniImportResult* result, int* accessorsRead) {
  Builder bl;
  Bytes bytes;
  ASSERT_TRUE(ReadFile(path, &bytes));
  maniGltf* g = nullptr;
  *result = Open(bl.b, bytes, &g);
  *accessorsRead = 0;
  if (result->result != mani_success) return;
  std::string dir = path.substr(0, path.rfind('/') + 1);
  std::vector<Bytes> held(maniGltf_GetBufferCount(g));
  for (uint32_t i = 0; i < maniGltf_GetBufferCount(g); i++) {
    size_t n = 0;
    const char* uri = maniGltf_GetBufferUri(g, i, &n);
    if (uri == nullptr) continue;
    ASSERT_TRUE(ReadFile(dir + std::string(uri, n), &held[i])) << path << " " << std::string(uri, n);
    maniImportResult r = maniGltf_SupplyBuffer(g, i, held[i].data(), held[i].size());
    EXPECT_EQ(r.result, mani_success) << path << " buffer " << i << " reason " << r.reason;
  }
  for (uint32_t i = 0; i < g->accessorCount; i++) {
    const mani_GltfAccessor* a = &g->accessors[i];
    std::vector<float> f(mani_GltfAccessorValues(g, i));
    maniImportResult r = mani_GltfReadFloats(g, i, f.data(), f.size());
    EXPECT_EQ(r.result, mani_success) << path << " accessor " << i << " reason " << r.reason;
    if (r.result != mani_success) continue;
    (*accessorsRead)++;
    // (Draco primitives' accessors have no view: their data is in the stream.)
    if (a->componentType != MANI_GLTF_FLOAT || a->minToken == MANI_GLTF_NONE || a->maxToken == MANI_GLTF_NONE ||
        (a->view == MANI_GLTF_NONE && a->sparseCount == 0))
      continue;
    uint32_t c = mani_GltfTypeComponents(a->type);
    std::vector<float> lo(c), hi(c);
    uint32_t t = a->minToken + 1, u = a->maxToken + 1;
    for (uint32_t k = 0; k < c; k++) {
      ASSERT_EQ(mani_GltfTokenFloat(g, t, &lo[k]), mcore_jsonOk);
      ASSERT_EQ(mani_GltfTokenFloat(g, u, &hi[k]), mcore_jsonOk);
      t = g->json.tokens[t].next;
      u = g->json.tokens[u].next;
    }
    int outside = 0;
    for (size_t e = 0; e < f.size(); e++) {
      // min and max are written by exporters at varying precision: a
      // relative 1e-5 slack.
      float l = lo[e % c], h = hi[e % c];
      float slack = 1e-5f * (std::fabs(l) + std::fabs(h) + 1.0f);
      if (!(f[e] >= l - slack && f[e] <= h + slack)) outside++;
    }
    EXPECT_EQ(outside, 0) << path << " accessor " << i;
  }
  maniCloseGltf(g);
}

TEST(Gltf, SharedModelsOpen) {
  std::string root = SharedData();
  Bytes probe;
  if (root.empty() || !ReadFile(root + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  std::vector<std::string> files;
  ListFiles(root + "/gltf", &files);
  int opened = 0;
  for (const std::string& f : files) {
    if (f.find("/validator/") != std::string::npos) continue;
    if (!EndsWith(f, ".gltf") && !EndsWith(f, ".glb") && !EndsWith(f, ".vrm")) continue;
    SCOPED_TRACE(f);
    maniImportResult r;
    int read = 0;
    OpenShared(f, &r, &read);
    EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " item " << r.item << " offset " << r.offset;
    if (r.result == mani_success) opened++;
  }
  EXPECT_GT(opened, 30);
}

TEST(Gltf, ValidatorCases) {
  std::string root = SharedData();
  Bytes probe;
  if (root.empty() || !ReadFile(root + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  // The validator's error codes that fall in what maniOpenGltf checks.
  static const char* const checked[] = {"INVALID_IBM_ACCESSOR_COUNT", "UNDEFINED_PROPERTY", "PATTERN_MISMATCH",
                                        "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH"};
  std::vector<std::string> files;
  ListFiles(root + "/gltf/validator", &files);
  int cases = 0;
  for (const std::string& f : files) {
    if (!EndsWith(f, ".gltf")) continue;
    SCOPED_TRACE(f);
    Bytes report;
    ASSERT_TRUE(ReadFile(f + ".report.json", &report));
    std::string text(report.begin(), report.end());
    // numErrors, and whether an error (severity 0) carries a checked code.
    size_t at = text.find("\"numErrors\"");
    ASSERT_NE(at, std::string::npos);
    int errors = atoi(text.c_str() + text.find(':', at) + 1);
    bool ours = false;
    for (const char* code : checked) {
      std::string key = std::string("\"code\": \"") + code + "\"";
      for (size_t p = text.find(key); p != std::string::npos; p = text.find(key, p + 1)) {
        size_t sev = text.find("\"severity\"", p);
        if (sev != std::string::npos && atoi(text.c_str() + text.find(':', sev) + 1) == 0) ours = true;
      }
    }
    maniImportResult r;
    int read = 0;
    OpenShared(f, &r, &read);
    if (errors == 0) {
      EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " item " << r.item;
    }
    if (ours) {
      EXPECT_EQ(r.result, mani_errorFormat);
    }
    cases++;
  }
  EXPECT_GE(cases, 8);
}

TEST(Gltf, EveryTruncationAndBytePatchOfSharedGlbs) {
  std::string root = SharedData();
  Bytes probe;
  if (root.empty() || !ReadFile(root + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  for (const char* name : {"/gltf/khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb",
                           "/gltf/khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb",
                           "/gltf/meshopt/pirate.glb"}) {
    Bytes file;
    ASSERT_TRUE(ReadFile(root + name, &file)) << name;
    SCOPED_TRACE(name);
    // Every byte of the header and the JSON chunk; every 13th of the BIN.
    size_t jsonEnd = 20 + (size_t)(file[12] | (file[13] << 8) | (file[14] << 16));
    // (pirate.glb's views are meshopt streams, decoded at every open: every
    // 61st byte past the header.)
    bool meshopt = strstr(name, "pirate") != nullptr;
    Exhaust(file, meshopt ? 20 : jsonEnd + 8, meshopt ? 61 : 13);
  }
}

TEST(Gltf, SupplyAllocationFailureAtEveryIndexKeepsTheBufferUnsupplied) {
  std::string root = SharedData();
  Bytes probe;
  if (root.empty() || !ReadFile(root + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  Bytes doc, bin;
  ASSERT_TRUE(ReadFile(root + "/gltf/gltf-transform/BoxMeshopt.gltf", &doc));
  ASSERT_TRUE(ReadFile(root + "/gltf/gltf-transform/BoxMeshopt.bin", &bin));
  for (int n = 0;; n++) {
    Builder bl;
    maniGltf* g = nullptr;
    ASSERT_EQ(Open(bl.b, doc, &g).result, mani_success);
    uint32_t external = UINT32_MAX;
    for (uint32_t i = 0; i < maniGltf_GetBufferCount(g); i++)
      if (maniGltf_GetBufferUri(g, i, nullptr) != nullptr) external = i;
    ASSERT_NE(external, UINT32_MAX);
    uint32_t meshoptView = UINT32_MAX;
    for (uint32_t v = 0; v < g->viewCount; v++)
      if (g->views[v].meshopt != 0) meshoptView = v;
    ASSERT_NE(meshoptView, UINT32_MAX);
    bl.hooks.failAt = bl.hooks.allocations + n;
    maniImportResult r = maniGltf_SupplyBuffer(g, external, bin.data(), bin.size());
    bl.hooks.failAt = -1;
    if (r.result == mani_success) {
      EXPECT_NE(g->views[meshoptView].decoded, nullptr);
      maniCloseGltf(g);
      EXPECT_GT(n, 0);
      break;
    }
    EXPECT_EQ(r.result, mani_errorCapacity) << n;
    EXPECT_EQ(g->buffers[external].data, nullptr);
    EXPECT_EQ(g->views[meshoptView].decoded, nullptr);
    maniCloseGltf(g);
  }
}

}  // namespace
