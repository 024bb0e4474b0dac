// Break-it probes of import.h's glTF part, written from the public header
// and ../shared/spec/maul-anim-api.txt alone (not from the importer's
// source): every refusal with its reason, item and offset, outputs left
// unchanged on failure, limits at their exact edges, options and their
// defaults, NULL arguments, sparse and normalized accessors, strides,
// external buffers, GLB chunk lengths off by one, the basis change and
// placement folding against geometry worked out here, and STEP, LINEAR and
// CUBICSPLINE sampling against values derived here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/morph.h"
#include "maul/anim/pose.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"

namespace {

// -- Writing documents -------------------------------------------------------------

std::string B64(const std::string& in) {
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

TEST(GltfProbeHelper, Base64) {
  EXPECT_EQ(B64("f"), "Zg==");
  EXPECT_EQ(B64("fo"), "Zm8=");
  EXPECT_EQ(B64("foobar"), "Zm9vYmFy");
}

template <typename T>
std::string Raw(const std::vector<T>& v) {
  return std::string((const char*)v.data(), v.size() * sizeof(T));
}

// One data: buffer; each Add puts bytes in a view of their own (4-aligned)
// and an accessor on it, unless told otherwise.
struct Doc {
  std::string bin;
  std::vector<std::string> views, accessors;
  std::string bufferExtra;  // appended inside the buffers array
  size_t View(const std::string& bytes, const std::string& extra = "") {
    while (bin.size() % 4) bin += '\0';
    std::ostringstream v;
    v << "{\"buffer\":0,\"byteOffset\":" << bin.size() << ",\"byteLength\":" << bytes.size() << extra << "}";
    bin += bytes;
    views.push_back(v.str());
    return views.size() - 1;
  }
  size_t Accessor(const std::string& a) {
    accessors.push_back(a);
    return accessors.size() - 1;
  }
  size_t Add(const std::string& bytes, int componentType, const char* type, uint32_t count, bool normalized = false,
             const std::string& viewExtra = "") {
    size_t v = View(bytes, viewExtra);
    std::ostringstream a;
    a << "{\"bufferView\":" << v << ",\"componentType\":" << componentType << ",\"type\":\"" << type
      << "\",\"count\":" << count << (normalized ? ",\"normalized\":true" : "") << "}";
    return Accessor(a.str());
  }
  size_t Floats(const std::vector<float>& v, const char* type, uint32_t per) {
    return Add(Raw(v), 5126, type, (uint32_t)(v.size() / per));
  }
  std::string Json(const std::string& rest) const {
    std::ostringstream o;
    o << "{\"asset\":{\"version\":\"2.0\"}";
    if (!bin.empty() || !bufferExtra.empty()) {
      o << ",\"buffers\":[";
      if (!bin.empty())
        o << "{\"byteLength\":" << bin.size() << ",\"uri\":\"data:application/octet-stream;base64," << B64(bin)
          << "\"}";
      o << bufferExtra << "]";
    }
    if (!views.empty()) {
      o << ",\"bufferViews\":[";
      for (size_t i = 0; i < views.size(); ++i) o << (i ? "," : "") << views[i];
      o << "]";
    }
    if (!accessors.empty()) {
      o << ",\"accessors\":[";
      for (size_t i = 0; i < accessors.size(); ++i) o << (i ? "," : "") << accessors[i];
      o << "]";
    }
    if (!rest.empty()) o << "," << rest;
    o << "}";
    return o.str();
  }
};

void Put32(std::string* b, uint32_t v) {
  for (int i = 0; i < 4; i++) b->push_back((char)(v >> (8 * i)));
}

// A GLB: header, JSON chunk (space padded), optional BIN chunk (zero padded).
std::string Glb(std::string json, const std::string* bin) {
  while (json.size() % 4) json += ' ';
  std::string c;
  if (bin) {
    c = *bin;
    while (c.size() % 4) c += '\0';
  }
  std::string out;
  Put32(&out, 0x46546C67u);
  Put32(&out, 2);
  Put32(&out, (uint32_t)(12 + 8 + json.size() + (bin ? 8 + c.size() : 0)));
  Put32(&out, (uint32_t)json.size());
  Put32(&out, 0x4E4F534Au);
  out += json;
  if (bin) {
    Put32(&out, (uint32_t)c.size());
    Put32(&out, 0x004E4942u);
    out += c;
  }
  return out;
}

void Set32(std::string* b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; i++) (*b)[at + i] = (char)(v >> (8 * i));
}

maniGltf* const kSentinel = reinterpret_cast<maniGltf*>(uintptr_t(0x5A5A5A50));

// An opened document, its text alive, with a builder.
struct Open {
  Builder builder;
  std::string text;
  maniGltf* g = kSentinel;
  maniImportResult r;
  explicit Open(const std::string& t) : text(t) { r = maniOpenGltf(builder.b, text.data(), text.size(), &g); }
  ~Open() {
    if (g != kSentinel) maniCloseGltf(g);
  }
  bool ok() const { return r.result == mani_success; }
};

std::string Why(const maniImportResult& r) {
  std::ostringstream o;
  o << "result " << r.result << " reason " << r.reason << " item " << r.item << " offset " << r.offset;
  return o.str();
}

// Expects a refusal at open with *gltfOut left as it was.
void ExpectRefused(const std::string& text, uint32_t reason, uint64_t item, uint64_t offset, bool checkOffset = true) {
  Open o(text);
  EXPECT_EQ(o.r.result, mani_errorFormat) << Why(o.r) << "\n" << text.substr(0, 400);
  EXPECT_EQ(o.r.reason, reason) << Why(o.r);
  EXPECT_EQ(o.r.item, item) << Why(o.r);
  if (checkOffset) {
    EXPECT_EQ(o.r.offset, offset) << Why(o.r);
  }
  EXPECT_EQ(o.g, kSentinel) << "*gltfOut changed on failure";
}

size_t At(const std::string& text, const std::string& what, size_t from = 0) {
  size_t p = text.find(what, from);
  EXPECT_NE(p, std::string::npos) << what;
  return p;
}

const std::string kAsset = "{\"asset\":{\"version\":\"2.0\"}";

// -- Container and JSON ---------------------------------------------------------------

// "GLB: a 12-byte header (magic, version 2, length at most the size; bytes
// past the length are ignored), a JSON chunk first, a BIN chunk optional
// second, chunk lengths within the length, chunks 4-byte aligned"
TEST(GltfProbeContainer, GlbHeaderAndChunkLengthsOffByOne) {
  std::string json = kAsset + "}";
  std::string glb = Glb(json, nullptr);
  {
    Open o(glb);
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  {  // bytes past the length are ignored
    Open o(glb + std::string(7, '\xff'));
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  {  // the header's length one past the size
    std::string b = glb;
    Set32(&b, 8, (uint32_t)b.size() + 1);
    ExpectRefused(b, maniImportReasonContainer, 0, 8);
  }
  {  // version 1
    std::string b = glb;
    Set32(&b, 4, 1);
    ExpectRefused(b, maniImportReasonContainer, 0, 4);
  }
  {  // the JSON chunk's length one past the header's length
    std::string b = glb;
    uint32_t len = (uint32_t)(b.size() - 20);
    Set32(&b, 12, len + 4);
    ExpectRefused(b, maniImportReasonContainer, 0, 12, false);
  }
  {  // a JSON chunk length not 4-aligned (one short)
    std::string b = glb;
    Set32(&b, 12, (uint32_t)(b.size() - 20 - 1));
    ExpectRefused(b, maniImportReasonContainer, 0, 12, false);
  }
  {  // a BIN chunk before the JSON
    std::string b = glb;
    Set32(&b, 16, 0x004E4942u);
    ExpectRefused(b, maniImportReasonContainer, 0, 16, false);
  }
  {  // a BIN chunk whose length runs one past the header's length
    std::string bin(8, '\1');
    std::string b = Glb(kAsset + ",\"buffers\":[{\"byteLength\":8}]}", &bin);
    size_t binHeader = b.size() - 16;
    Set32(&b, binHeader, 12);
    ExpectRefused(b, maniImportReasonContainer, 0, binHeader, false);
  }
  {  // the header cut short
    std::string b = glb.substr(0, 11);
    ExpectRefused(b, maniImportReasonContainer, 0, 0, false);
  }
}

// "a buffer without URI only GLB's first with a BIN chunk at least
// byteLength long (Buffer otherwise)"
TEST(GltfProbeContainer, BinChunkShorterThanTheBuffer) {
  std::string bin(8, '\1');
  {
    std::string b = Glb(kAsset + ",\"buffers\":[{\"byteLength\":8}]}", &bin);
    Open o(b);
    EXPECT_TRUE(o.ok()) << Why(o.r);
    EXPECT_EQ(maniGltf_GetBufferCount(o.g), 1u);
    EXPECT_EQ(maniGltf_GetBufferUri(o.g, 0, nullptr), nullptr);  // held
  }
  {
    std::string b = Glb(kAsset + ",\"buffers\":[{\"byteLength\":9}]}", &bin);
    ExpectRefused(b, maniImportReasonBuffer, 0, 0, false);
  }
  {  // a JSON document (no BIN) with a URI-less buffer, read by a view
    std::string t = kAsset + ",\"buffers\":[{\"byteLength\":8}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}]}";
    ExpectRefused(t, maniImportReasonBuffer, 0, 0, false);
  }
}

// "maniImportReasonJson the JSON text does not parse (offset: the first
// wrong byte, counted from the start of the bytes given, so inside the JSON
// chunk of a GLB)"
TEST(GltfProbeJson, SyntaxOffsetsInJsonAndGlb) {
  std::string bad = "{\"asset\":{\"version\":\"2.0\"},}";
  size_t wrong = bad.size() - 1;  // the '}' after a comma
  ExpectRefused(bad, maniImportReasonJson, 0, wrong);
  ExpectRefused(Glb(bad, nullptr), maniImportReasonJson, 0, 20 + wrong);
  // "UTF-8 without a byte order mark"
  ExpectRefused("\xEF\xBB\xBF" + kAsset + "}", maniImportReasonJson, 0, 0, false);
  // "an object"
  ExpectRefused("[1]", maniImportReasonProperty, 0, 0, false);
}

// "asset.version "2.x" (Version otherwise), minVersion at most "2.0""
TEST(GltfProbeVersion, VersionAndMinVersion) {
  std::string t = "{\"asset\":{\"version\":\"1.0\"}}";
  ExpectRefused(t, maniImportReasonVersion, 0, At(t, "\"1.0\""));
  std::string t3 = "{\"asset\":{\"version\":\"3.0\"}}";
  ExpectRefused(t3, maniImportReasonVersion, 0, At(t3, "\"3.0\""));
  {
    Open o("{\"asset\":{\"version\":\"2.7\"}}");
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  std::string m = "{\"asset\":{\"version\":\"2.1\",\"minVersion\":\"2.1\"}}";
  ExpectRefused(m, maniImportReasonVersion, 0, At(m, "\"2.1\"}"));
  {
    Open o("{\"asset\":{\"version\":\"2.1\",\"minVersion\":\"2.0\"}}");
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
}

// "maniImportReasonUnsupported a required extension the importer cannot
// honour (item: its index in extensionsRequired, offset: its string)"
TEST(GltfProbeExtensions, RequiredRefusedByIndexAndString) {
  {
    Open o(kAsset +
           ",\"extensionsRequired\":[\"KHR_texture_transform\",\"KHR_materials_unlit\","
           "\"KHR_lights_punctual\",\"KHR_mesh_quantization\"]}");
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  std::string t = kAsset + ",\"extensionsRequired\":[\"KHR_texture_transform\",\"EXT_mesh_gpu_instancing\"]}";
  ExpectRefused(t, maniImportReasonUnsupported, 1, At(t, "\"EXT_mesh_gpu_instancing\""));
  std::string u = kAsset + ",\"extensionsRequired\":[\"ACME_unknown\"]}";
  ExpectRefused(u, maniImportReasonUnsupported, 0, At(u, "\"ACME_unknown\""));
  {  // used but not required: ignored
    Open o(kAsset + ",\"extensionsUsed\":[\"ACME_unknown\"]}");
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
}

// -- Buffers, views, accessors -----------------------------------------------------------

// "buffers (byteLength at least 1, a data: URI in base64 (";base64," before
// the data; Property otherwise) that decodes to at least byteLength bytes
// (Buffer otherwise)"
TEST(GltfProbeBuffers, DataUris) {
  std::string four = B64(std::string("\1\2\3\4", 4));
  {
    std::string t =
        kAsset + ",\"buffers\":[{\"byteLength\":4,\"uri\":\"data:application/octet-stream;base64," + four + "\"}]}";
    Open o(t);
    EXPECT_TRUE(o.ok()) << Why(o.r);
    EXPECT_EQ(maniGltf_GetBufferUri(o.g, 0, nullptr), nullptr);
  }
  {
    std::string t =
        kAsset + ",\"buffers\":[{\"byteLength\":5,\"uri\":\"data:application/octet-stream;base64," + four + "\"}]}";
    ExpectRefused(t, maniImportReasonBuffer, 0, 0, false);
  }
  {
    std::string t =
        kAsset + ",\"buffers\":[{\"byteLength\":4,\"uri\":\"data:application/octet-stream," + four + "\"}]}";
    ExpectRefused(t, maniImportReasonProperty, 0, 0, false);
  }
  {
    std::string t = kAsset + ",\"buffers\":[{\"byteLength\":0,\"uri\":\"x.bin\"}]}";
    ExpectRefused(t, maniImportReasonProperty, 0, At(t, "0,"));
  }
  {  // a second buffer refused: item 1
    std::string t =
        kAsset + ",\"buffers\":[{\"byteLength\":4,\"uri\":\"a.bin\"},{\"byteLength\":-1,\"uri\":\"b.bin\"}]}";
    ExpectRefused(t, maniImportReasonProperty, 1, At(t, "-1"));
  }
}

std::string ExternalDoc() {
  // Buffer 0 external (escaped URI), 16 bytes: weights and joints of one
  // vertex for a two-joint skin.
  return kAsset +
         ",\"buffers\":[{\"byteLength\":20,\"uri\":\"dir\\/w e.bin\"}],"
         "\"bufferViews\":[{\"buffer\":0,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":16,\"byteLength\":4}],"
         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC4\",\"count\":1},"
         "{\"bufferView\":1,\"componentType\":5121,\"type\":\"VEC4\",\"count\":1}],"
         "\"nodes\":[{\"name\":\"R\",\"children\":[1]},{\"name\":\"C\"},{\"name\":\"M\",\"mesh\":0,\"skin\":0}],"
         "\"skins\":[{\"joints\":[0,1]}],"
         "\"meshes\":[{\"primitives\":[{\"attributes\":{\"JOINTS_0\":1,\"WEIGHTS_0\":0}}]}]}";
}

// Weight of a joint at a vertex (0 when absent).
float WeightOf(const maniInfluences* inf, uint32_t v, uint32_t joint) {
  float s = 0;
  for (uint32_t k = 0; k < maniInfluences_GetPerVertex(inf); ++k) {
    float w = 0;
    if (maniInfluences_GetInfluence(inf, v, k, &w) == joint) s += w;
  }
  return s;
}

// "maniGltf_SupplyBuffer ... They must hold the buffer's byteLength; bytes
// past it are ignored ... Supplying a buffer again replaces the bytes"
TEST(GltfProbeBuffers, ExternalMissingShortSuppliedTwice) {
  Open o(ExternalDoc());
  ASSERT_TRUE(o.ok()) << Why(o.r);
  size_t len = 99;
  const char* uri = maniGltf_GetBufferUri(o.g, 0, &len);
  ASSERT_NE(uri, nullptr);
  EXPECT_EQ(std::string(uri, len), "dir/w e.bin");  // after its escapes
  len = 99;
  EXPECT_EQ(maniGltf_GetBufferUri(o.g, 1, &len), nullptr);
  EXPECT_EQ(len, 0u);

  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  ASSERT_EQ(maniBuildGltfSkin(o.builder.b, o.g, 0, nullptr, &opt).result, mani_errorInvalid);
  File skf = o.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  ASSERT_EQ(maniBuildGltfSkin(o.builder.b, o.g, 0, &sk, &opt).result, mani_success);
  File sf = o.builder.Built();
  maniSkin skin;
  ASSERT_EQ(maniOpenSkin(sf.data(), sf.size, &skin).result, mani_success);

  // Missing: Pending with the buffer as item.
  maniImportResult r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonPending) << Why(r);
  EXPECT_EQ(r.item, 0u);

  std::vector<float> w = {0.25f, 0.75f, 0, 0};
  std::string bytes = Raw(w) + std::string("\1\0\0\0", 4) + "trailing";
  // Short by one: Buffer, item the buffer, left unsupplied.
  r = maniGltf_SupplyBuffer(o.g, 0, bytes.data(), 19);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuffer) << Why(r);
  EXPECT_EQ(r.item, 0u);
  r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonPending) << Why(r);
  // NULL bytes with a size, a buffer past the count.
  EXPECT_EQ(maniGltf_SupplyBuffer(o.g, 0, nullptr, 20).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_SupplyBuffer(o.g, 1, bytes.data(), 20).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_SupplyBuffer(nullptr, 0, bytes.data(), 20).result, mani_errorInvalid);
  // Exact, with bytes past it ignored.
  r = maniGltf_SupplyBuffer(o.g, 0, bytes.data(), bytes.size());
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_NE(maniGltf_GetBufferUri(o.g, 0, nullptr), nullptr);  // "A supplied buffer still gives its URI."
  r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  {
    File f = o.builder.Built();
    maniInfluences inf;
    ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
    // JOINTS (1,0): joint 1 gets 0.25, joint 0 gets 0.75
    EXPECT_EQ(WeightOf(&inf, 0, 0), 0.75f);
    EXPECT_EQ(WeightOf(&inf, 0, 1), 0.25f);
  }
  // Supplied again with other bytes: they replace the first.
  std::vector<float> w2 = {1, 0, 0, 0};
  std::string bytes2 = Raw(w2) + std::string("\1\0\0\0", 4);
  r = maniGltf_SupplyBuffer(o.g, 0, bytes2.data(), bytes2.size());
  ASSERT_EQ(r.result, mani_success) << Why(r);
  r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  {
    File f = o.builder.Built();
    maniInfluences inf;
    ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
    float wk = 0;
    EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 0, &wk), 1u);
    EXPECT_EQ(wk, 1.0f);
  }
}

// "buffer views (a buffer in range, byteOffset + byteLength within the
// buffer, byteStride 4 to 252 and a multiple of 4, target 34962 or 34963)"
TEST(GltfProbeViews, RangesStridesTargetsAtTheirEdges) {
  auto doc = [](const std::string& view) {
    return kAsset +
           ",\"buffers\":[{\"byteLength\":256,\"uri\":\"x.bin\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":1}," +
           view + "]}";
  };
  auto ok = [&](const std::string& view) {
    Open o(doc(view));
    EXPECT_TRUE(o.ok()) << Why(o.r) << " " << view;
  };
  // The offset is the refused value's first byte; for a range past its
  // buffer either of byteOffset and byteLength is to blame ("offset: the
  // value's first byte in the bytes given"), so either is taken.
  auto bad = [&](const std::string& view, const std::string& value) {
    std::string t = doc(view);
    Open o(t);
    EXPECT_EQ(o.r.result, mani_errorFormat) << Why(o.r) << " " << view;
    EXPECT_EQ(o.r.reason, (uint32_t)maniImportReasonProperty) << Why(o.r);
    EXPECT_EQ(o.r.item, 1u) << Why(o.r);
    EXPECT_EQ(o.g, kSentinel);
    size_t from = At(t, "},{") + 2;
    size_t at = At(t, value, from);
    size_t length = t.find("\"byteLength\":", from) + 13;
    EXPECT_TRUE(o.r.offset == at || (value.size() > 2 && o.r.offset == length)) << Why(o.r) << " " << view;
  };
  ok("{\"buffer\":0,\"byteOffset\":200,\"byteLength\":56}");
  bad("{\"buffer\":0,\"byteOffset\":201,\"byteLength\":56}", "201");
  bad("{\"buffer\":1,\"byteLength\":4}", "1,");
  ok("{\"buffer\":0,\"byteLength\":252,\"byteStride\":252}");
  ok("{\"buffer\":0,\"byteLength\":4,\"byteStride\":4}");
  bad("{\"buffer\":0,\"byteLength\":4,\"byteStride\":256}", "256");
  bad("{\"buffer\":0,\"byteLength\":4,\"byteStride\":2}", "2}");
  bad("{\"buffer\":0,\"byteLength\":4,\"byteStride\":6}", "6}");
  ok("{\"buffer\":0,\"byteLength\":4,\"target\":34962}");
  ok("{\"buffer\":0,\"byteLength\":4,\"target\":34963}");
  bad("{\"buffer\":0,\"byteLength\":4,\"target\":34961}", "34961");
  // An offset that would wrap 64-bit arithmetic.
  bad("{\"buffer\":0,\"byteOffset\":18446744073709551615,\"byteLength\":2}", "18446744073709551615");
}

// "accessors (a view in range or none, componentType one of glTF's six,
// normalized only for 8 and 16-bit types, type one of the seven, count at
// least 1, byteOffset a multiple of the component size, the last element
// within the view with its stride, min and max of the type's component
// count, sparse count at least 1 and at most the count, ...)"
TEST(GltfProbeAccessors, EveryRuleAtItsEdge) {
  // View 0: 24 bytes, stride 8; view 1: 24 bytes tightly packed.
  auto doc = [](const std::string& acc) {
    return kAsset +
           ",\"buffers\":[{\"byteLength\":64,\"uri\":\"x.bin\"}],\"bufferViews\":["
           "{\"buffer\":0,\"byteLength\":24,\"byteStride\":8},{\"buffer\":0,\"byteLength\":24}],"
           "\"accessors\":[{\"bufferView\":1,\"componentType\":5121,\"type\":\"SCALAR\",\"count\":1}," +
           acc + "]}";
  };
  auto ok = [&](const std::string& acc) {
    Open o(doc(acc));
    EXPECT_TRUE(o.ok()) << Why(o.r) << " " << acc;
  };
  auto bad = [&](const std::string& acc) {
    std::string t = doc(acc);
    ExpectRefused(t, maniImportReasonProperty, 1, 0, false);
  };
  // The last element exactly at the view's end with its stride: 2*8 + 8 = 24.
  ok("{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC2\",\"count\":3}");
  bad("{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC2\",\"count\":4}");
  // byteOffset 4 then the last ends at 4 + 8 + 8 = 20 with count 2; 28 with 3.
  ok("{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":3}");
  ok("{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5126,\"type\":\"VEC2\",\"count\":2}");
  bad("{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5126,\"type\":\"VEC2\",\"count\":3}");
  // Tightly packed: 6 floats fill 24 bytes; 2 VEC3 fill it, 7 floats do not.
  ok("{\"bufferView\":1,\"componentType\":5126,\"type\":\"VEC3\",\"count\":2}");
  bad("{\"bufferView\":1,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":7}");
  // byteOffset a multiple of the component size.
  ok("{\"bufferView\":1,\"byteOffset\":2,\"componentType\":5123,\"type\":\"SCALAR\",\"count\":1}");
  bad("{\"bufferView\":1,\"byteOffset\":2,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":1}");
  // Component types and types.
  bad("{\"bufferView\":1,\"componentType\":5124,\"type\":\"SCALAR\",\"count\":1}");
  bad("{\"bufferView\":1,\"componentType\":5126,\"type\":\"VEC5\",\"count\":1}");
  ok("{\"bufferView\":1,\"componentType\":5122,\"type\":\"MAT2\",\"count\":3}");
  // normalized only for 8 and 16-bit types.
  ok("{\"bufferView\":1,\"componentType\":5120,\"normalized\":true,\"type\":\"SCALAR\",\"count\":1}");
  ok("{\"bufferView\":1,\"componentType\":5123,\"normalized\":true,\"type\":\"SCALAR\",\"count\":1}");
  bad("{\"bufferView\":1,\"componentType\":5126,\"normalized\":true,\"type\":\"SCALAR\",\"count\":1}");
  bad("{\"bufferView\":1,\"componentType\":5125,\"normalized\":true,\"type\":\"SCALAR\",\"count\":1}");
  // count at least 1.
  bad("{\"bufferView\":1,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":0}");
  // No view: fine (zeros).
  ok("{\"componentType\":5126,\"type\":\"VEC3\",\"count\":1000}");
  bad("{\"bufferView\":2,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":1}");
  // min and max of the type's component count.
  ok("{\"bufferView\":1,\"componentType\":5126,\"type\":\"VEC2\",\"count\":1,\"min\":[0,0],\"max\":[1,1]}");
  bad("{\"bufferView\":1,\"componentType\":5126,\"type\":\"VEC2\",\"count\":1,\"min\":[0]}");
  bad("{\"bufferView\":1,\"componentType\":5126,\"type\":\"VEC2\",\"count\":1,\"max\":[0,0,0]}");
  // Sparse count at least 1, at most the count; indices unsigned.
  const std::string sp = ",\"sparse\":{\"count\":";
  ok("{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":2" + sp +
     "2,\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":1}}}");
  bad("{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":2" + sp +
      "3,\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":1}}}");
  bad("{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":2" + sp +
      "0,\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":1}}}");
  bad("{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":2" + sp +
      "1,\"indices\":{\"bufferView\":1,\"componentType\":5120},\"values\":{\"bufferView\":1}}}");
  // The values' range past their view: 7 floats from 24 bytes.
  bad("{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":7" + sp +
      "7,\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":1}}}");
  // A count that overflows 32-bit offset arithmetic.
  bad("{\"bufferView\":1,\"componentType\":5126,\"type\":\"MAT4\",\"count\":4294967295}");
}

// "sparse indices in held buffers below the count and increasing, Data with
// the accessor as item and the index's offset in its buffer"
TEST(GltfProbeAccessors, SparseIndicesRefusedWithTheirOffset) {
  for (int c = 0; c < 3; ++c) {
    Doc d;
    d.View(std::string(4, '\0'));  // padding so offsets are not 0
    std::vector<uint16_t> idx = c == 0   ? std::vector<uint16_t>{1, 1}
                                : c == 1 ? std::vector<uint16_t>{0, 3}
                                         : std::vector<uint16_t>{2, 1};
    size_t iv = d.View(Raw(idx));
    size_t vv = d.View(Raw(std::vector<float>{5, 6}));
    std::ostringstream a;
    a << "{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":3,\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":"
      << iv << ",\"componentType\":5123},\"values\":{\"bufferView\":" << vv << "}}}";
    d.Accessor("{\"bufferView\":0,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":1}");
    d.Accessor(a.str());
    // the second index (4 bytes of padding, then 2 bytes for the first)
    ExpectRefused(d.Json(""), maniImportReasonData, 1, 4 + 2);
  }
}

// "Numbers past binary32 where glTF holds floats are Property."; "nodes
// (children in range, no node a child twice or of itself, no cycle; matrix
// of 16 numbers or TRS with 3, 4 and 3, not both; mesh and skin in range, a
// skin only with a mesh)"
TEST(GltfProbeNodes, Refusals) {
  auto nodes = [](const std::string& n) { return kAsset + ",\"nodes\":[" + n + "]}"; };
  {
    std::string t = nodes("{\"translation\":[1e39,0,0]}");
    ExpectRefused(t, maniImportReasonProperty, 0, At(t, "1e39"));
  }
  {
    std::string t = nodes("{},{\"rotation\":[0,0,0,1],\"scale\":[1,1,-3.5e38]}");
    ExpectRefused(t, maniImportReasonProperty, 1, At(t, "-3.5e38"));
  }
  {
    Open o(nodes("{\"translation\":[3.4028234e38,0,0]}"));
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  ExpectRefused(nodes("{\"children\":[0]}"), maniImportReasonProperty, 0, 0, false);
  ExpectRefused(nodes("{\"children\":[1]},{\"children\":[0]}"), maniImportReasonProperty, 0, 0, false);
  ExpectRefused(nodes("{\"children\":[2]},{\"children\":[2]},{}"), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(nodes("{},{\"children\":[3]}"), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(nodes("{},{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],\"translation\":[0,0,0]}"),
                maniImportReasonProperty, 1, 0, false);
  ExpectRefused(nodes("{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0]}"), maniImportReasonProperty, 0, 0, false);
  ExpectRefused(nodes("{\"rotation\":[0,0,1]}"), maniImportReasonProperty, 0, 0, false);
  ExpectRefused(kAsset + ",\"nodes\":[{\"skin\":0}],\"skins\":[{\"joints\":[0]}]}", maniImportReasonProperty, 0, 0,
                false);
  ExpectRefused(nodes("{\"mesh\":0}"), maniImportReasonProperty, 0, 0, false);
  // skins: at least one joint, none twice, in range
  ExpectRefused(kAsset + ",\"nodes\":[{}],\"skins\":[{\"joints\":[]}]}", maniImportReasonProperty, 0, 0, false);
  ExpectRefused(kAsset + ",\"nodes\":[{}],\"skins\":[{\"joints\":[0,0]}]}", maniImportReasonProperty, 0, 0, false);
  ExpectRefused(kAsset + ",\"nodes\":[{}],\"skins\":[{\"joints\":[1]}]}", maniImportReasonProperty, 0, 0, false);
}

// -- NULLs, options -------------------------------------------------------------------

TEST(GltfProbeNulls, EveryQueryAndEveryBuild) {
  Builder b;
  std::string t = kAsset + "}";
  maniGltf* g = kSentinel;
  EXPECT_EQ(maniOpenGltf(nullptr, t.data(), t.size(), &g).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenGltf(b.b, nullptr, 4, &g).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenGltf(b.b, t.data(), t.size(), nullptr).result, mani_errorInvalid);
  EXPECT_EQ(g, kSentinel);
  // An empty input is not a document.
  EXPECT_EQ(maniOpenGltf(b.b, t.data(), 0, &g).result, mani_errorFormat);
  EXPECT_EQ(g, kSentinel);
  maniCloseGltf(nullptr);
  size_t len = 7;
  EXPECT_EQ(maniGltf_GetBufferCount(nullptr), 0u);
  EXPECT_EQ(maniGltf_GetBufferUri(nullptr, 0, &len), nullptr);
  EXPECT_EQ(len, 0u);
  EXPECT_EQ(maniGltf_GetSkeletonCount(nullptr), 0u);
  EXPECT_EQ(maniGltf_GetSkinCount(nullptr), 0u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetNodeCount(nullptr), 0u);
  len = 7;
  EXPECT_EQ(maniGltf_GetNodeBoneName(nullptr, 0, &len), nullptr);
  EXPECT_EQ(len, 0u);
  EXPECT_EQ(maniGltf_GetRenamedCount(nullptr), 0u);
  EXPECT_EQ(maniGltf_GetRenamedNode(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetAnimationCount(nullptr), 0u);
  len = 7;
  EXPECT_EQ(maniGltf_GetAnimationName(nullptr, 0, &len), nullptr);
  EXPECT_EQ(len, 0u);
  EXPECT_EQ(maniGltf_GetMeshCount(nullptr), 0u);
  EXPECT_EQ(maniGltf_GetPrimitiveCount(nullptr, 0), 0u);
  EXPECT_EQ(maniGltf_GetPrimitiveTargetCount(nullptr, 0, 0), 0u);
  EXPECT_EQ(maniGltf_GetNodeMesh(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetNodeSkin(nullptr, 0), UINT32_MAX);
  uint32_t count = 77;
  float w[2] = {9, 9};
  EXPECT_EQ(maniGltf_GetMorphWeights(nullptr, 0, w, 2, &count).result, mani_errorInvalid);
  EXPECT_EQ(w[0], 9.0f);
  maniGltfOptions opt = maniDefaultGltfOptions();
  maniImportClipOptions co = maniDefaultImportClipOptions();
  maniAffine place;
  memset(&place, 0x5A, sizeof place);
  maniAffine before = place;
  EXPECT_EQ(maniGltf_GetSkeletonPlacement(nullptr, 0, &opt, &place).result, mani_errorInvalid);
  EXPECT_EQ(memcmp(&place, &before, sizeof place), 0);
  EXPECT_EQ(maniBuildGltfSkeleton(b.b, nullptr, 0, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfNodeSkeleton(b.b, nullptr, 0, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfSkin(b.b, nullptr, 0, nullptr, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfClip(b.b, nullptr, 0, nullptr, &opt, &co, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfInfluences(b.b, nullptr, 0, 0, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfMorphTargets(b.b, nullptr, 0, 0, &opt).result, mani_errorInvalid);
}

TEST(GltfProbeOptions, DefaultsAndEveryRefusal) {
  maniGltfOptions d = maniDefaultGltfOptions();
  EXPECT_EQ(d.cookie, MANI_GLTF_OPTIONS_COOKIE);
  EXPECT_EQ(d.cookieEnd, MANI_GLTF_OPTIONS_COOKIE);
  EXPECT_EQ(d.abiVersion, MANI_ABI_VERSION);
  EXPECT_EQ(d.up, (uint32_t)maniAxisPositiveY);
  EXPECT_EQ(d.front, (uint32_t)maniAxisPositiveZ);
  EXPECT_EQ(d.unitScale, 1.0f);
  EXPECT_EQ(d.foldPlacement, 0u);
  maniImportClipOptions c = maniDefaultImportClipOptions();
  EXPECT_EQ(c.cookie, MANI_IMPORT_CLIP_OPTIONS_COOKIE);
  EXPECT_EQ(c.sampleRate, 0.0f);
  EXPECT_EQ(c.loop, (uint32_t)maniLoopClamp);
  EXPECT_EQ(c.additive, (uint32_t)maniAdditiveNone);
  EXPECT_EQ(c.rootMotionBone, MANI_NO_BONE);
  EXPECT_EQ(c.rootMotionFlags, 0u);

  Open o(kAsset + ",\"nodes\":[{\"name\":\"A\",\"children\":[1]},{\"name\":\"B\"}],\"skins\":[{\"joints\":[0,1]}]}");
  ASSERT_TRUE(o.ok()) << Why(o.r);
  auto check = [&](const maniGltfOptions& opt, maniResult want, const char* what) {
    EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, want) << what;
    EXPECT_EQ(maniBuildGltfNodeSkeleton(o.builder.b, o.g, 0, &opt).result, want) << what;
    maniAffine p;
    memset(&p, 0x5A, sizeof p);
    maniAffine before = p;
    EXPECT_EQ(maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p).result, want) << what;
    if (want != mani_success) {
      EXPECT_EQ(memcmp(&p, &before, sizeof p), 0) << what;
    }
  };
  check(d, mani_success, "defaults");
  maniGltfOptions x = d;
  x.cookie = 0;
  check(x, mani_errorInvalid, "cookie");
  x = d, x.cookieEnd = 0;
  check(x, mani_errorInvalid, "cookieEnd");
  x = d, x.abiVersion += 1;
  check(x, mani_errorVersion, "abi");
  x = d, x.abiVersion += 1, x.cookie = 0;  // cookies first
  check(x, mani_errorInvalid, "cookie before abi");
  x = d, x.up = 6;
  check(x, mani_errorInvalid, "up past");
  x = d, x.front = maniAxisNegativeY;
  check(x, mani_errorInvalid, "up and front on one line");
  x = d, x.up = maniAxisPositiveZ, x.front = maniAxisNegativeY;
  check(x, mani_success, "Z up, -Y front");
  x = d, x.unitScale = 0;
  check(x, mani_errorInvalid, "scale 0");
  x = d, x.unitScale = -1;
  check(x, mani_errorInvalid, "scale -1");
  x = d, x.unitScale = std::numeric_limits<float>::quiet_NaN();
  check(x, mani_errorInvalid, "scale NaN");
  x = d, x.unitScale = std::numeric_limits<float>::infinity();
  check(x, mani_errorInvalid, "scale inf");
  x = d, x.unitScale = std::numeric_limits<float>::denorm_min();
  check(x, mani_success, "scale tiny above 0");
  x = d, x.foldPlacement = 2;
  check(x, mani_errorInvalid, "fold 2");
  x = d, x.reserved[1] = 1;
  check(x, mani_errorInvalid, "reserved");
  // Past the counts.
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 1, &d).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfNodeSkeleton(o.builder.b, o.g, 2, &d).result, mani_errorInvalid);
  maniAffine p;
  EXPECT_EQ(maniGltf_GetSkeletonPlacement(o.g, 1, &d, &p).result, mani_errorInvalid);
  EXPECT_EQ(maniGltf_GetSkeletonPlacement(o.g, 0, &d, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfSkeleton(nullptr, o.g, 0, &d).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, nullptr).result, mani_errorInvalid);
}

// -- Names and skeletons -----------------------------------------------------------------

std::string BoneName(const maniGltf* g, uint32_t n) {
  size_t len = 0;
  const char* s = maniGltf_GetNodeBoneName(g, n, &len);
  return s ? std::string(s, len) : "<null>";
}

// "its name, or, when it has none (or an empty one) or an earlier node's
// bone name is the same (compared after JSON escapes, byte for byte), the
// name followed by '#' and the node's index ... appended again until it is
// not"
TEST(GltfProbeNames, RenamedNodes) {
  Open o(kAsset +
         ",\"nodes\":[{},{\"name\":\"A\"},{\"name\":\"A\"},{\"name\":\"A#2\"},{\"name\":\"\\u0041\"},"
         "{\"name\":\"\"},{\"name\":\"a\"}]}");
  ASSERT_TRUE(o.ok()) << Why(o.r);
  EXPECT_EQ(BoneName(o.g, 0), "#0");
  EXPECT_EQ(BoneName(o.g, 1), "A");
  EXPECT_EQ(BoneName(o.g, 2), "A#2");
  EXPECT_EQ(BoneName(o.g, 3), "A#2#3");
  EXPECT_EQ(BoneName(o.g, 4), "A#4");
  EXPECT_EQ(BoneName(o.g, 5), "#5");
  EXPECT_EQ(BoneName(o.g, 6), "a");
  EXPECT_EQ(BoneName(o.g, 7), "<null>");
  ASSERT_EQ(maniGltf_GetRenamedCount(o.g), 5u);
  const uint32_t want[] = {0, 2, 3, 4, 5};
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(maniGltf_GetRenamedNode(o.g, i), want[i]);
  EXPECT_EQ(maniGltf_GetRenamedNode(o.g, 5), UINT32_MAX);
}

// "Skins whose hierarchies share a node (directly, or through a chain of
// skins that share nodes) make one skeleton ...; skeletons are numbered in
// the order of their lowest skin."
TEST(GltfProbeSkeletons, SharingAndNumbering) {
  Open o(kAsset +
         ",\"nodes\":[{\"name\":\"R\",\"children\":[1,2]},{\"name\":\"A\"},{\"name\":\"B\"},"
         "{\"name\":\"C\",\"children\":[4]},{\"name\":\"D\"}],"
         "\"skins\":[{\"joints\":[4]},{\"joints\":[1]},{\"joints\":[2]},{\"joints\":[2,1]},{\"joints\":[3]}]}");
  ASSERT_TRUE(o.ok()) << Why(o.r);
  EXPECT_EQ(maniGltf_GetSkinCount(o.g), 5u);
  // skin 0 {D}; skins 1 {A} and 2 {B} share nothing with each other, but 3
  // {R, A, B} joins them; skin 4 {C} is separate from skin 0 {D}: its
  // hierarchy is C alone.
  EXPECT_EQ(maniGltf_GetSkeletonCount(o.g), 3u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 0), 0u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 1), 1u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 2), 1u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 3), 1u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 4), 2u);
  EXPECT_EQ(maniGltf_GetSkinSkeleton(o.g, 5), UINT32_MAX);
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 1, &opt).result, mani_success);
  File f = o.builder.Built();
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&s), 3u);
  // The subtree of C: C and D.
  ASSERT_EQ(maniBuildGltfNodeSkeleton(o.builder.b, o.g, 3, &opt).result, mani_success);
  f = o.builder.Built();
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  EXPECT_EQ(maniSkeleton_GetBoneCount(&s), 2u);
}

// -- Basis change and placement ------------------------------------------------------------

// Top (translation 1 2 3) -> Mid (90 degrees about glTF Y) -> Root
// (translation 0 1 0, scale 1 2 3) -> Child; skin joints Root and Child.
const char* kPlaced =
    ",\"nodes\":[{\"name\":\"Top\",\"translation\":[1,2,3],\"children\":[1]},"
    "{\"name\":\"Mid\",\"rotation\":[0,0.70710678118654752,0,0.70710678118654752],\"children\":[2]},"
    "{\"name\":\"Root\",\"translation\":[0,1,0],\"scale\":[1,2,3],\"children\":[3]},{\"name\":\"Child\"}],"
    "\"skins\":[{\"joints\":[2,3]}]}";

// Z up, -Y front, centimetres: R takes glTF (x, y, z) to (x, -z, y).
maniGltfOptions ZUp() {
  maniGltfOptions o = maniDefaultGltfOptions();
  o.up = maniAxisPositiveZ;
  o.front = maniAxisNegativeY;
  o.unitScale = 100;
  return o;
}

void ExpectVec(maniVec3 v, float x, float y, float z, const char* what) {
  EXPECT_NEAR(v.x, x, 1e-4) << what;
  EXPECT_NEAR(v.y, y, 1e-4) << what;
  EXPECT_NEAR(v.z, z, 1e-4) << what;
}

// "The placement is B times the product of the nodes above the root, times
// B^-1."; "glTF's +X becomes up x front"
TEST(GltfProbeBasis, PlacementAgainstGeometryWorkedOutHere) {
  Open o(kAsset + kPlaced);
  ASSERT_TRUE(o.ok()) << Why(o.r);
  ASSERT_EQ(maniGltf_GetSkeletonCount(o.g), 1u);
  maniGltfOptions opt = ZUp();
  maniAffine p;
  maniImportResult r = maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  // Top Mid: a turn about glTF Y (output Z) by 90 degrees, then the
  // translation 100 R (1, 2, 3) = (100, -300, 200).
  ExpectVec(p.columns[0], 0, 1, 0, "c0");
  ExpectVec(p.columns[1], -1, 0, 0, "c1");
  ExpectVec(p.columns[2], 0, 0, 1, "c2");
  ExpectVec(p.columns[3], 100, -300, 200, "c3");

  // Not folded: the root's rest is its own local in the output basis.
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  File f = o.builder.Built();
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  ASSERT_EQ(maniSkeleton_GetBoneCount(&s), 2u);
  maniTransform root = maniSkeleton_GetRest(&s, 0);
  ExpectVec(root.translation, 0, 0, 100, "root t");
  ExpectVec(root.scale, 1, 3, 2, "root s (components permuted)");
  EXPECT_NEAR(root.rotation.w, 1, 1e-6);

  // Folded: the root's rest is the placement times it; placement identity.
  opt.foldPlacement = 1;
  r = maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  ExpectVec(p.columns[0], 1, 0, 0, "id c0");
  ExpectVec(p.columns[1], 0, 1, 0, "id c1");
  ExpectVec(p.columns[2], 0, 0, 1, "id c2");
  ExpectVec(p.columns[3], 0, 0, 0, "id c3");
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  f = o.builder.Built();
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  root = maniSkeleton_GetRest(&s, 0);
  // P (0, 0, 100) = 100 c2 + c3 = (100, -300, 300); rotation 90 about Z.
  ExpectVec(root.translation, 100, -300, 300, "folded t");
  EXPECT_NEAR(root.rotation.x, 0, 1e-6);
  EXPECT_NEAR(root.rotation.y, 0, 1e-6);
  EXPECT_NEAR(std::fabs(root.rotation.z), 0.70710678f, 1e-6);
  EXPECT_NEAR(std::fabs(root.rotation.w), 0.70710678f, 1e-6);
  EXPECT_GT(root.rotation.z * root.rotation.w, 0.0f);
  ExpectVec(root.scale, 1, 3, 2, "folded s");
}

// "mani_errorFormat (Matrix, item the node) for a node above the root whose
// matrix is refused. *placementOut is unchanged on failure." A placement is
// an affine (the product of the locals above the root), so a sheared matrix
// above the root is one; a matrix whose last row is not (0 0 0 1) is not
// affine and is refused. With the placement folded, the root's composed
// rest must decompose ("Matrix, item the node, for a matrix that does not
// decompose").
TEST(GltfProbeBasis, PlacementMatrixRefusedLeavesTheOutputAlone) {
  for (int sheared = 0; sheared < 2; ++sheared) {
    std::string m = sheared ? "[1,0,0,0,1,1,0,0,0,0,1,0,0,0,0,1]" : "[1,0,0,0.5,0,1,0,0,0,0,1,0,0,0,0,1]";
    Open o(kAsset + ",\"nodes\":[{\"name\":\"Top\",\"matrix\":" + m +
           ",\"children\":[1]},{\"name\":\"Root\",\"children\":[2]},{\"name\":\"Child\"}],"
           "\"skins\":[{\"joints\":[1,2]}]}");
    ASSERT_TRUE(o.ok()) << Why(o.r);
    maniGltfOptions opt = maniDefaultGltfOptions();
    maniAffine p;
    memset(&p, 0x5A, sizeof p);
    maniAffine before = p;
    maniImportResult r = maniGltf_GetSkeletonPlacement(o.g, 0, &opt, &p);
    if (!sheared) {
      EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
      EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
      EXPECT_EQ(r.item, 0u);
      EXPECT_EQ(memcmp(&p, &before, sizeof p), 0);
      continue;
    }
    ASSERT_EQ(r.result, mani_success) << Why(r);
    ExpectVec(p.columns[1], 1, 1, 0, "the shear kept");
    opt.foldPlacement = 1;
    r = maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt);
    EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
    EXPECT_TRUE(r.item == 0u || r.item == 1u) << Why(r);
  }
}

// "Matrix, item the node, for a matrix that does not decompose": the node's
// index in the document, not the bone's in the skeleton.
TEST(GltfProbeBasis, SkeletonMatrixRefusedWithTheNode) {
  Open o(kAsset +
         ",\"nodes\":[{\"name\":\"Top\",\"children\":[1]},"
         "{\"name\":\"Root\",\"children\":[2]},{\"name\":\"Child\",\"matrix\":[1,0,0,0,1,1,0,0,0,0,1,0,0,0,0,1]}],"
         "\"skins\":[{\"joints\":[1,2]}]}");
  ASSERT_TRUE(o.ok()) << Why(o.r);
  maniGltfOptions opt = maniDefaultGltfOptions();
  maniImportResult r = maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
  EXPECT_EQ(r.item, 2u) << Why(r);
  r = maniBuildGltfNodeSkeleton(o.builder.b, o.g, 1, &opt);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix);
  EXPECT_EQ(r.item, 2u) << Why(r);
}

// -- Influences ------------------------------------------------------------------------

struct Rig {
  Doc d;
  std::string json;
  Open* o = nullptr;
  File skelFile, skinFile;
  maniSkeleton skel;
  maniSkin skin;
  ~Rig() { delete o; }
  // attributes: the primitive's attribute object text
  bool Make(const std::string& attributes, const std::string& more = "") {
    json = d.Json(
        "\"nodes\":[{\"name\":\"R\",\"children\":[1]},{\"name\":\"C\"},{\"name\":\"M\",\"mesh\":0,\"skin\":0}],"
        "\"skins\":[{\"joints\":[0,1]}],\"meshes\":[{\"primitives\":[{\"attributes\":" +
        attributes + more + "}]}]");
    o = new Open(json);
    if (!o->ok()) {
      ADD_FAILURE() << Why(o->r);
      return false;
    }
    maniGltfOptions opt = maniDefaultGltfOptions();
    if (maniBuildGltfSkeleton(o->builder.b, o->g, 0, &opt).result != mani_success) return false;
    skelFile = o->builder.Built();
    if (maniOpenSkeleton(skelFile.data(), skelFile.size, &skel).result != mani_success) return false;
    if (maniBuildGltfSkin(o->builder.b, o->g, 0, &skel, &opt).result != mani_success) return false;
    skinFile = o->builder.Built();
    return maniOpenSkin(skinFile.data(), skinFile.size, &skin).result == mani_success;
  }
  maniImportResult Influences() { return maniBuildGltfInfluences(o->builder.b, o->g, 0, 0, &skin); }
};

// "every JOINTS_n and WEIGHTS_n set read (normalized integer weights as
// glTF defines them), zero weights dropped, then sorted and renormalized"
TEST(GltfProbeInfluences, NormalizedShortsStridesAndTwoSets) {
  Rig rig;
  // WEIGHTS_0 UNSIGNED_SHORT normalized in a view of stride 12 (8 bytes of
  // weights, 4 of filler): vertex 0 (32768, 32767), vertex 1 (0, 65535).
  std::vector<uint16_t> w = {32768, 32767, 0, 0, 0xDEAD, 0xBEEF, 0, 65535, 0, 0, 0xDEAD, 0xBEEF};
  size_t wa = rig.d.Add(Raw(w), 5123, "VEC4", 2, true, ",\"byteStride\":12");
  std::vector<uint8_t> j = {0, 1, 0, 0, 0, 1, 0, 0};
  size_t ja = rig.d.Add(Raw(j), 5121, "VEC4", 2);
  std::ostringstream a;
  a << "{\"JOINTS_0\":" << ja << ",\"WEIGHTS_0\":" << wa << "}";
  ASSERT_TRUE(rig.Make(a.str()));
  maniImportResult r = rig.Influences();
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File f = rig.o->builder.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  ASSERT_EQ(maniInfluences_GetVertexCount(&inf), 2u);
  // 32768/65535 + 32767/65535 = 1: nothing to renormalize.
  EXPECT_NEAR(WeightOf(&inf, 0, 0), 32768.0 / 65535.0, 1e-7);
  EXPECT_NEAR(WeightOf(&inf, 0, 1), 32767.0 / 65535.0, 1e-7);
  EXPECT_EQ(WeightOf(&inf, 1, 1), 1.0f);
  EXPECT_EQ(WeightOf(&inf, 1, 0), 0.0f);
  // Sorted: the heavier first.
  float w0 = 0, w1 = 0;
  EXPECT_EQ(maniInfluences_GetInfluence(&inf, 0, 0, &w0), 0u);
  if (maniInfluences_GetPerVertex(&inf) > 1) {
    maniInfluences_GetInfluence(&inf, 0, 1, &w1);
    EXPECT_GE(w0, w1);
  }
}

TEST(GltfProbeInfluences, RefusedWeightsAndJoints) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    std::vector<float> w;
    std::vector<uint8_t> j;
    uint32_t reason;
  } cases[] = {
      {{0.5f, 0.5f, 0, 0, nan, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0, 0}, maniImportReasonInfluence},
      {{1, 0, 0, 0, inf, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0, 0}, maniImportReasonInfluence},
      {{1.5f, -0.5f, 0, 0, 1, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0, 0}, maniImportReasonInfluence},
      {{1, 0, 0, 0, 0.5f, 0.5f, 0, 0}, {0, 1, 0, 0, 1, 2, 0, 0}, maniImportReasonInfluence},  // joint 2 past the skin
  };
  for (const Case& c : cases) {
    Rig rig;
    size_t wa = rig.d.Floats(c.w, "VEC4", 4);
    size_t ja = rig.d.Add(Raw(c.j), 5121, "VEC4", 2);
    std::ostringstream a;
    a << "{\"JOINTS_0\":" << ja << ",\"WEIGHTS_0\":" << wa << "}";
    ASSERT_TRUE(rig.Make(a.str()));
    maniImportResult r = rig.Influences();
    EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
    EXPECT_EQ(r.reason, c.reason) << Why(r);
  }
  {  // sets not paired: JOINTS_1 without WEIGHTS_1; no JOINTS_0
    Rig rig;
    size_t wa = rig.d.Floats({1, 0, 0, 0}, "VEC4", 4);
    size_t ja = rig.d.Add(std::string(4, '\0'), 5121, "VEC4", 1);
    std::ostringstream a;
    a << "{\"JOINTS_0\":" << ja << ",\"WEIGHTS_0\":" << wa << ",\"JOINTS_1\":" << ja << "}";
    ASSERT_TRUE(rig.Make(a.str()));
    maniImportResult r = rig.Influences();
    EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << Why(r);
    EXPECT_EQ(maniBuildGltfInfluences(rig.o->builder.b, rig.o->g, 1, 0, &rig.skin).result, mani_errorInvalid);
    EXPECT_EQ(maniBuildGltfInfluences(rig.o->builder.b, rig.o->g, 0, 1, &rig.skin).result, mani_errorInvalid);
    EXPECT_EQ(maniBuildGltfInfluences(rig.o->builder.b, rig.o->g, 0, 0, nullptr).result, mani_errorInvalid);
  }
  {  // JOINTS_0 and WEIGHTS_0 of different counts
    Rig rig;
    size_t wa = rig.d.Floats({1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", 4);
    size_t ja = rig.d.Add(std::string(4, '\0'), 5121, "VEC4", 1);
    std::ostringstream a;
    a << "{\"JOINTS_0\":" << ja << ",\"WEIGHTS_0\":" << wa << "}";
    ASSERT_TRUE(rig.Make(a.str()));
    maniImportResult r = rig.Influences();
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << Why(r);
  }
}

// -- Morph weights and targets ------------------------------------------------------------

// "mani_errorCapacity when capacity is below the target count, with the
// count still written and the array zeroed; ... mani_errorFormat
// (Property, item the node, ...) for weights not an array of that many
// numbers within binary32. The array is unchanged on the other failures."
TEST(GltfProbeMorph, WeightsCapacityAndRefusals) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0, 1, 0, 0}, "VEC3", 3);
  size_t dp = d.Floats({1, 2, 3, 0, 0, 0}, "VEC3", 3);
  std::ostringstream m;
  m << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << "},\"targets\":[{\"POSITION\":" << dp
    << "},{\"POSITION\":" << dp << "}]}],\"weights\":[0.5,0.25],\"extras\":{\"targetNames\":[\"smile\",\"frown\"]}},"
    << "{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << "}}]}],"
    << "\"nodes\":[{\"mesh\":0,\"weights\":[0.125,1]},{\"mesh\":0},{\"mesh\":0,\"weights\":[1,\"x\"]},"
    << "{\"mesh\":0,\"weights\":[1]},{\"mesh\":1},{}]";
  Open o(d.Json(m.str()));
  ASSERT_TRUE(o.ok()) << Why(o.r);
  EXPECT_EQ(maniGltf_GetMeshCount(o.g), 2u);
  EXPECT_EQ(maniGltf_GetPrimitiveCount(o.g, 0), 1u);
  EXPECT_EQ(maniGltf_GetPrimitiveCount(o.g, 2), 0u);
  EXPECT_EQ(maniGltf_GetPrimitiveTargetCount(o.g, 0, 0), 2u);
  EXPECT_EQ(maniGltf_GetPrimitiveTargetCount(o.g, 0, 1), 0u);
  EXPECT_EQ(maniGltf_GetPrimitiveTargetCount(o.g, 1, 0), 0u);
  EXPECT_EQ(maniGltf_GetNodeMesh(o.g, 0), 0u);
  EXPECT_EQ(maniGltf_GetNodeMesh(o.g, 5), UINT32_MAX);
  EXPECT_EQ(maniGltf_GetNodeSkin(o.g, 0), UINT32_MAX);
  uint32_t count = 0;
  float w[3] = {9, 9, 9};
  // Measuring: capacity 0 is below the count, so Capacity with the count
  // (the project's measuring idiom, as maniBuilder_CopyBuilt).
  maniImportResult r = maniGltf_GetMorphWeights(o.g, 0, nullptr, 0, &count);
  EXPECT_EQ(r.result, mani_errorCapacity) << Why(r);
  EXPECT_EQ(count, 2u);
  r = maniGltf_GetMorphWeights(o.g, 0, w, 3, &count);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(w[0], 0.125f);
  EXPECT_EQ(w[1], 1.0f);
  EXPECT_EQ(w[2], 9.0f);
  r = maniGltf_GetMorphWeights(o.g, 1, w, 2, &count);  // the mesh's
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(w[0], 0.5f);
  EXPECT_EQ(w[1], 0.25f);
  w[0] = w[1] = 9;
  count = 0;
  r = maniGltf_GetMorphWeights(o.g, 0, w, 1, &count);
  EXPECT_EQ(r.result, mani_errorCapacity) << Why(r);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(w[0], 0.0f);  // zeroed (capacity 1)
  EXPECT_EQ(w[1], 9.0f);  // past the capacity: not touched
  w[0] = w[1] = 9;
  for (uint32_t node : {2u, 3u}) {
    r = maniGltf_GetMorphWeights(o.g, node, w, 2, &count);
    EXPECT_EQ(r.result, mani_errorFormat) << node << " " << Why(r);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << Why(r);
    EXPECT_EQ(r.item, node) << Why(r);
    EXPECT_EQ(w[0], 9.0f);
    EXPECT_EQ(w[1], 9.0f);
  }
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 4, w, 2, &count).result, mani_errorInvalid);  // no targets
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 5, w, 2, &count).result, mani_errorInvalid);  // no mesh
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 6, w, 2, &count).result, mani_errorInvalid);  // past
  EXPECT_EQ(maniGltf_GetMorphWeights(o.g, 0, nullptr, 2, &count).result, mani_errorInvalid);
  EXPECT_EQ(w[0], 9.0f);

  // Targets: named by targetNames, positions in the output's basis.
  maniGltfOptions opt = ZUp();
  r = maniBuildGltfMorphTargets(o.builder.b, o.g, 0, 0, &opt);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File f = o.builder.Built();
  maniMorphTargets mt;
  ASSERT_EQ(maniOpenMorphTargets(f.data(), f.size, &mt).result, mani_success);
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&mt), 2u);
  ASSERT_EQ(maniMorphTargets_GetChannelCount(&mt), 2u);
  size_t len = 0;
  const char* n0 = maniMorphTargets_GetChannelName(&mt, 0, &len);
  EXPECT_EQ(std::string(n0 ? n0 : "", len), "smile");
  EXPECT_NE(maniMorphTargets_FindChannel(&mt, "frown", 5), UINT32_MAX);
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(&mt, 0), 1.0f);
  // Without targets: mani_errorInvalid.
  EXPECT_EQ(maniBuildGltfMorphTargets(o.builder.b, o.g, 1, 0, &opt).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfMorphTargets(o.builder.b, o.g, 0, 1, &opt).result, mani_errorInvalid);
}

// -- Clips -----------------------------------------------------------------------------

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

struct ClipRig {
  Doc d;
  Open* o = nullptr;
  File skelFile, clipFile;
  maniSkeleton skel;
  maniClip clip;
  ~ClipRig() { delete o; }
  // samplers and channels: the animation's arrays' texts
  bool Make(const std::string& samplers, const std::string& channels, const std::string& extra = "") {
    std::string json = d.Json(
        "\"nodes\":[{\"name\":\"R\",\"children\":[1]},{\"name\":\"J\"},{\"name\":\"M\"}],"
        "\"skins\":[{\"joints\":[0,1]}],\"animations\":[{\"samplers\":[" +
        samplers + "],\"channels\":[" + channels + "]}]" + extra);
    o = new Open(json);
    if (!o->ok()) {
      ADD_FAILURE() << Why(o->r) << json.substr(0, 300);
      return false;
    }
    maniGltfOptions opt = maniDefaultGltfOptions();
    if (maniBuildGltfSkeleton(o->builder.b, o->g, 0, &opt).result != mani_success) return false;
    skelFile = o->builder.Built();
    return maniOpenSkeleton(skelFile.data(), skelFile.size, &skel).result == mani_success;
  }
  maniImportResult Build(float rate, uint32_t* bound = nullptr, maniGltfOptions opt = maniDefaultGltfOptions()) {
    maniImportClipOptions co = maniDefaultImportClipOptions();
    co.sampleRate = rate;
    maniImportResult r = maniBuildGltfClip(o->builder.b, o->g, 0, &skel, &opt, &co, bound);
    if (r.result == mani_success) {
      clipFile = o->builder.Built();
      EXPECT_EQ(maniOpenClip(clipFile.data(), clipFile.size, &clip).result, mani_success);
    }
    return r;
  }
  maniTransform At(float t, uint32_t bone) {
    Posed p(&skel);
    EXPECT_EQ(maniClip_Sample(&clip, &skel, t, p.pose), mani_success);
    return maniPose_GetLocal(p.pose, bone);
  }
};

std::string Sampler(size_t in, size_t out, const char* interp) {
  std::ostringstream o;
  o << "{\"input\":" << in << ",\"output\":" << out << ",\"interpolation\":\"" << interp << "\"}";
  return o.str();
}
std::string Channel(int sampler, int node, const char* path) {
  std::ostringstream o;
  o << "{\"sampler\":" << sampler << ",\"target\":{\"node\":" << node << ",\"path\":\"" << path << "\"}}";
  return o.str();
}

// The glTF specification's cubic Hermite with tangents scaled by the key
// interval.
double Hermite(double v0, double b0, double v1, double a1, double dt, double s) {
  double s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * v0 + (s3 - 2 * s2 + s) * dt * b0 + (-2 * s3 + 3 * s2) * v1 + (s3 - s2) * dt * a1;
}

TEST(GltfProbeClip, StepLinearCubicAgainstValuesDerivedHere) {
  ClipRig c;
  size_t t3 = c.d.Floats({0, 1, 2}, "SCALAR", 1);
  size_t tv = c.d.Floats({0, 0, 0, 2, 4, 6, 2, 4, 6}, "VEC3", 3);
  size_t t2 = c.d.Floats({0, 2}, "SCALAR", 1);
  // CUBICSPLINE scale of R: (in, value, out) per key; values 1 and 2, out
  // tangent 0.5 at key 0, in tangent 0.25 at key 1, interval 2.
  size_t sv = c.d.Floats({9, 9, 9, 1, 1, 1, 0.5f, 0.5f, 0.5f, 0.25f, 0.25f, 0.25f, 2, 2, 2, 9, 9, 9}, "VEC3", 3);
  // CUBICSPLINE rotation of J: identity to 90 degrees about Z, tangents 0.
  const float h = 0.70710678118654752f;
  size_t rv = c.d.Floats({0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, h, h, 0, 0, 0, 0}, "VEC4", 4);
  // STEP translation of R.
  size_t st = c.d.Floats({1, 1, 1, 3, 3, 3, 5, 5, 5}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(t3, tv, "LINEAR") + "," + Sampler(t2, sv, "CUBICSPLINE") + "," +
                         Sampler(t2, rv, "CUBICSPLINE") + "," + Sampler(t3, st, "STEP"),
                     Channel(0, 1, "translation") + "," + Channel(1, 0, "scale") + "," + Channel(2, 1, "rotation") +
                         "," + Channel(3, 0, "translation")));
  uint32_t bound = 99;
  maniImportResult r = c.Build(4, &bound);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(bound, 4u);
  EXPECT_EQ(maniClip_GetDuration(&c.clip), 2.0f);
  EXPECT_EQ(maniClip_GetSampleRate(&c.clip), 4.0f);
  for (int k = 0; k <= 8; ++k) {
    float t = k * 0.25f;
    maniTransform j = c.At(t, 1);
    maniTransform root = c.At(t, 0);
    // LINEAR: 0 -> (2,4,6) over [0, 1], held after.
    double f = t < 1 ? t : 1.0;
    EXPECT_NEAR(j.translation.x, 2 * f, 1e-6) << t;
    EXPECT_NEAR(j.translation.z, 6 * f, 1e-6) << t;
    // CUBICSPLINE scale.
    double sc = Hermite(1, 0.5, 2, 0.25, 2.0, t / 2.0);
    EXPECT_NEAR(root.scale.y, sc, 1e-6) << t;
    // CUBICSPLINE rotation, normalized after the Hermite.
    double qz = Hermite(0, 0, h, 0, 2.0, t / 2.0), qw = Hermite(1, 0, h, 0, 2.0, t / 2.0);
    double n = std::sqrt(qz * qz + qw * qw);
    EXPECT_NEAR(j.rotation.z, qz / n, 1e-6) << t;
    EXPECT_NEAR(j.rotation.w, qw / n, 1e-6) << t;
    // STEP: the key at or before.
    float stepv = t < 1 ? 1.0f : t < 2 ? 3.0f : 5.0f;
    EXPECT_EQ(root.translation.y, stepv) << t;
  }
  // At the halfway time of the scale: 1.2734375 worked out by hand.
  EXPECT_NEAR(c.At(0.5f, 0).scale.x, 1.2734375, 1e-6);
}

// "0 (default): the keys' own rate, the reciprocal of the shortest interval
// between two keys of any channel rounded to the nearest whole number and
// held to [1, 240] (30 for an animation without two keys in a channel)"
TEST(GltfProbeClip, DefaultRate) {
  struct Case {
    std::vector<float> keys;
    float rate;
  } cases[] = {{{0, 0.1f, 0.25f}, 10}, {{0, 0.3f}, 3}, {{0.5f}, 30}, {{0, 0.001f}, 240}, {{0, 4}, 1}};
  for (const Case& k : cases) {
    ClipRig c;
    size_t in = c.d.Floats(k.keys, "SCALAR", 1);
    std::vector<float> v(k.keys.size() * 3, 1.0f);
    size_t out = c.d.Floats(v, "VEC3", 3);
    ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR"), Channel(0, 1, "translation")));
    maniImportResult r = c.Build(0);
    ASSERT_EQ(r.result, mani_success) << Why(r);
    EXPECT_EQ(maniClip_GetSampleRate(&c.clip), k.rate) << k.keys.size();
    EXPECT_EQ(maniClip_GetDuration(&c.clip), k.keys.back());
  }
}

// Sparse output without a view (zeros, index 2 replaced) and a normalized
// SHORT rotation (KHR_mesh_quantization: c / 32767).
TEST(GltfProbeClip, SparseAndNormalizedOutputs) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1, 2}, "SCALAR", 1);
  size_t iv = c.d.View(Raw(std::vector<uint8_t>{2, 0, 0, 0}));
  size_t vv = c.d.View(Raw(std::vector<float>{5, 6, 7}));
  std::ostringstream a;
  a << "{\"componentType\":5126,\"type\":\"VEC3\",\"count\":3,\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":"
    << iv << ",\"componentType\":5121},\"values\":{\"bufferView\":" << vv << "}}}";
  size_t sp = c.d.Accessor(a.str());
  size_t rq = c.d.Add(Raw(std::vector<int16_t>{0, 0, 0, 32767, 0, 0, 23170, 23170}), 5122, "VEC4", 2, true);
  size_t in2 = c.d.Floats({0, 2}, "SCALAR", 1);
  ASSERT_TRUE(c.Make(Sampler(in, sp, "LINEAR") + "," + Sampler(in2, rq, "LINEAR"),
                     Channel(0, 1, "translation") + "," + Channel(1, 1, "rotation")));
  maniImportResult r = c.Build(2);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  ExpectVec(c.At(1.0f, 1).translation, 0, 0, 0, "t=1");
  ExpectVec(c.At(1.5f, 1).translation, 2.5f, 3, 3.5f, "t=1.5");
  ExpectVec(c.At(2.0f, 1).translation, 5, 6, 7, "t=2");
  maniQuat q = c.At(2.0f, 1).rotation;
  EXPECT_NEAR(q.z, 0.70710678, 1e-6);
  EXPECT_NEAR(q.w, 0.70710678, 1e-6);
}

// "Data with the channel as item for keys the clip builder refuses"
TEST(GltfProbeClip, NanKeysAreDataWithTheChannel) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int where = 0; where < 2; ++where) {
    ClipRig c;
    size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
    size_t good = c.d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
    size_t inBad = c.d.Floats({0, where == 0 ? nan : 1.0f}, "SCALAR", 1);
    size_t bad = c.d.Floats({0, 0, 0, 1, where == 1 ? nan : 1.0f, 1}, "VEC3", 3);
    ASSERT_TRUE(c.Make(Sampler(in, good, "LINEAR") + "," + Sampler(inBad, bad, "LINEAR"),
                       Channel(0, 1, "translation") + "," + Channel(1, 0, "scale")));
    maniImportResult r = c.Build(10);
    EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData) << Why(r);
    EXPECT_EQ(r.item, 1u) << Why(r);
  }
}

TEST(GltfProbeClip, ClipOptionRefusals) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
  size_t out = c.d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR"), Channel(0, 1, "translation")));
  maniGltfOptions opt = maniDefaultGltfOptions();
  auto build = [&](maniImportClipOptions co) {
    return maniBuildGltfClip(c.o->builder.b, c.o->g, 0, &c.skel, &opt, &co, nullptr).result;
  };
  maniImportClipOptions d = maniDefaultImportClipOptions();
  EXPECT_EQ(build(d), mani_success);
  maniImportClipOptions x = d;
  x.sampleRate = -1;
  EXPECT_EQ(build(x), mani_errorInvalid);
  x = d, x.sampleRate = std::numeric_limits<float>::infinity();
  EXPECT_EQ(build(x), mani_errorInvalid);
  x = d, x.cookieEnd = 1;
  EXPECT_EQ(build(x), mani_errorInvalid);
  x = d, x.abiVersion ^= 1;
  EXPECT_EQ(build(x), mani_errorVersion);
  x = d, x.loop = 99;
  EXPECT_EQ(build(x), mani_errorInvalid);
  x = d, x.additive = 99;
  EXPECT_EQ(build(x), mani_errorInvalid);
  x = d, x.reserved = 1;
  EXPECT_EQ(build(x), mani_errorInvalid);
  x = d, x.rootMotionBone = 2;
  x.rootMotionFlags = 1;
  EXPECT_EQ(build(x), mani_errorInvalid);
  x = d, x.rootMotionBone = 0, x.rootMotionFlags = 0;
  EXPECT_EQ(build(x), mani_errorInvalid);
  x = d, x.rootMotionFlags = 0xFFFF;  // ignored without a bone
  EXPECT_EQ(build(x), mani_success);
  EXPECT_EQ(maniBuildGltfClip(c.o->builder.b, c.o->g, 1, &c.skel, &opt, &d, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfClip(c.o->builder.b, c.o->g, 0, nullptr, &opt, &d, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuildGltfClip(c.o->builder.b, c.o->g, 0, &c.skel, &opt, nullptr, nullptr).result, mani_errorInvalid);
  size_t len = 9;
  const char* name = maniGltf_GetAnimationName(c.o->g, 0, &len);
  EXPECT_NE(name, nullptr);  // empty, not NULL
  EXPECT_EQ(len, 0u);
  EXPECT_EQ(maniGltf_GetAnimationName(c.o->g, 1, &len), nullptr);
}

// Basis change in clips: translation keys turned and scaled as the rest is.
TEST(GltfProbeClip, BasisChangeOnKeys) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
  size_t out = c.d.Floats({1, 2, 3, 1, 2, 3}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR"), Channel(0, 1, "translation")));
  // Rebuild the skeleton in the Z-up basis.
  maniGltfOptions opt = ZUp();
  ASSERT_EQ(maniBuildGltfSkeleton(c.o->builder.b, c.o->g, 0, &opt).result, mani_success);
  c.skelFile = c.o->builder.Built();
  ASSERT_EQ(maniOpenSkeleton(c.skelFile.data(), c.skelFile.size, &c.skel).result, mani_success);
  maniImportResult r = c.Build(2, nullptr, opt);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  ExpectVec(c.At(0.5f, 1).translation, 100, -300, 200, "100 R (1,2,3)");
}

// "KHR_animation_pointer channels to anything but nodes, each as float
// tracks"; "KHR_animation_pointer only on path "pointer" and there with a
// pointer of JSON pointer syntax"
TEST(GltfProbeClip, AnimationPointer) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
  size_t tv = c.d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  size_t pv = c.d.Floats({0.25f, 0.75f}, "SCALAR", 1);
  size_t sv = c.d.Floats({1, 0, 0, 0, 1, 0}, "VEC3", 3);
  std::ostringstream ch;
  ch << Channel(0, 1, "translation")
     << ",{\"sampler\":1,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":"
     << "{\"pointer\":\"/materials/0/alphaCutoff\"}}}}"
     << ",{\"sampler\":2,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":"
     << "{\"pointer\":\"/materials/0/emissiveFactor\"}}}}";
  ASSERT_TRUE(c.Make(Sampler(in, tv, "LINEAR") + "," + Sampler(in, pv, "LINEAR") + "," + Sampler(in, sv, "STEP"),
                     ch.str(), ",\"materials\":[{}],\"extensionsUsed\":[\"KHR_animation_pointer\"]"));
  uint32_t bound = 0;
  maniImportResult r = c.Build(10, &bound);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(bound, 3u);
  ASSERT_EQ(maniClip_GetFloatTrackCount(&c.clip), 4u);  // a scalar, then a VEC3's three
  float v[4] = {0, 0, 0, 0};
  ASSERT_EQ(maniClip_SampleFloats(&c.clip, 0.5f, v, 4, nullptr), mani_success);
  float sum = v[0] + v[1] + v[2] + v[3];
  // 0.5 (LINEAR midway) + 1 (STEP holds (1, 0, 0))
  EXPECT_NEAR(sum, 1.5f, 1e-6);
  ASSERT_EQ(maniClip_SampleFloats(&c.clip, 1.0f, v, 4, nullptr), mani_success);
  sum = v[0] + v[1] + v[2] + v[3];
  EXPECT_NEAR(sum, 1.75f, 1e-6);

  // A pointer that is not JSON pointer syntax, and one off path "pointer".
  for (const char* bad : {"materials/0/alphaCutoff", "/materials/~2"}) {
    Doc d;
    size_t i2 = d.Floats({0, 1}, "SCALAR", 1);
    size_t o2 = d.Floats({0, 1}, "SCALAR", 1);
    std::ostringstream a;
    a << "\"materials\":[{}],\"animations\":[{\"samplers\":[" << Sampler(i2, o2, "LINEAR")
      << "],\"channels\":[{\"sampler\":0,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":"
      << "{\"pointer\":\"" << bad << "\"}}}}]}]";
    ExpectRefused(d.Json(a.str()), maniImportReasonProperty, 0, 0, false);
  }
}

// -- GLB data, skins, meshopt, weight tracks, robustness ---------------------------------

// A GLB whose BIN holds the weights and joints; bytes read in place.
TEST(GltfProbeGlb, BinChunkDataIsRead) {
  std::vector<float> w = {0.5f, 0.5f, 0, 0};
  std::string bin = Raw(w) + std::string("\0\1\0\0", 4);
  std::string json =
      kAsset +
      ",\"buffers\":[{\"byteLength\":20}],"
      "\"bufferViews\":[{\"buffer\":0,\"byteLength\":16},{\"buffer\":0,\"byteOffset\":16,\"byteLength\":4}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"VEC4\",\"count\":1},"
      "{\"bufferView\":1,\"componentType\":5121,\"type\":\"VEC4\",\"count\":1}],"
      "\"nodes\":[{\"name\":\"R\",\"children\":[1]},{\"name\":\"C\"},{\"name\":\"M\",\"mesh\":0,\"skin\":0}],"
      "\"skins\":[{\"joints\":[0,1]}],"
      "\"meshes\":[{\"primitives\":[{\"attributes\":{\"JOINTS_0\":1,\"WEIGHTS_0\":0}}]}]}";
  std::string glb = Glb(json, &bin);
  // An unknown chunk after the BIN is skipped.
  Put32(&glb, 4);
  Put32(&glb, 0x12345678u);
  Put32(&glb, 0);
  Set32(&glb, 8, (uint32_t)glb.size());
  Open o(glb);
  ASSERT_TRUE(o.ok()) << Why(o.r);
  EXPECT_EQ(maniGltf_GetNodeSkin(o.g, 2), 0u);
  EXPECT_EQ(maniGltf_GetNodeMesh(o.g, 2), 0u);
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  File skf = o.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  ASSERT_EQ(maniBuildGltfSkin(o.builder.b, o.g, 0, &sk, &opt).result, mani_success);
  File sf = o.builder.Built();
  maniSkin skin;
  ASSERT_EQ(maniOpenSkin(sf.data(), sf.size, &skin).result, mani_success);
  maniImportResult r = maniBuildGltfInfluences(o.builder.b, o.g, 0, 0, &skin);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File f = o.builder.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  EXPECT_EQ(WeightOf(&inf, 0, 0), 0.5f);
  EXPECT_EQ(WeightOf(&inf, 0, 1), 0.5f);
}

// "Builds a skin ... the inverse binds read (identity when the skin has
// none) and the basis change applied"; "Bone, item the joint, for a joint
// the skeleton lacks; Matrix for an inverse bind not affine"
TEST(GltfProbeSkin, InverseBindsBasisAndRefusals) {
  Doc d;
  // Joint 0: translation (1, 2, 3); joint 1: last row not (0 0 0 1).
  std::vector<float> m = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1,
                          1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  size_t ibm = d.Floats(m, "MAT4", 16);
  std::vector<float> bad = m;
  bad[16 + 3] = 0.5f;
  size_t ibmBad = d.Floats(bad, "MAT4", 16);
  std::ostringstream o;
  o << "\"nodes\":[{\"name\":\"R\",\"children\":[1]},{\"name\":\"C\"},{\"name\":\"Other\"}],"
    << "\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":" << ibm << "},{\"joints\":[1,0]},"
    << "{\"joints\":[0,1],\"inverseBindMatrices\":" << ibmBad << "},{\"joints\":[2]}]";
  Open g(d.Json(o.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  EXPECT_EQ(maniGltf_GetSkeletonCount(g.g), 2u);
  maniGltfOptions opt = ZUp();
  ASSERT_EQ(maniBuildGltfSkeleton(g.builder.b, g.g, 0, &opt).result, mani_success);
  File skf = g.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  maniImportResult r = maniBuildGltfSkin(g.builder.b, g.g, 0, &sk, &opt);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  {
    File f = g.builder.Built();
    maniSkin skin;
    ASSERT_EQ(maniOpenSkin(f.data(), f.size, &skin).result, mani_success);
    maniAffine a = maniSkin_GetInverseBind(&skin, 0);
    ExpectVec(a.columns[0], 1, 0, 0, "ib c0");
    ExpectVec(a.columns[3], 100, -300, 200, "B IB B^-1 translation");
  }
  r = maniBuildGltfSkin(g.builder.b, g.g, 1, &sk, &opt);  // no inverse binds: identity
  ASSERT_EQ(r.result, mani_success) << Why(r);
  {
    File f = g.builder.Built();
    maniSkin skin;
    ASSERT_EQ(maniOpenSkin(f.data(), f.size, &skin).result, mani_success);
    EXPECT_EQ(maniSkin_GetJoint(&skin, 0), 1u);
    maniAffine a = maniSkin_GetInverseBind(&skin, 1);
    ExpectVec(a.columns[0], 1, 0, 0, "identity c0");
    ExpectVec(a.columns[3], 0, 0, 0, "identity c3");
  }
  r = maniBuildGltfSkin(g.builder.b, g.g, 2, &sk, &opt);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonMatrix) << Why(r);
  r = maniBuildGltfSkin(g.builder.b, g.g, 3, &sk, &opt);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBone) << Why(r);
  EXPECT_EQ(maniBuildGltfSkin(g.builder.b, g.g, 4, &sk, &opt).result, mani_errorInvalid);
}

// "inverseBindMatrices a MAT4 float accessor of at least the joints' count"
TEST(GltfProbeSkin, InverseBindAccessorShapeAtOpen) {
  Doc d;
  size_t one = d.Floats(std::vector<float>(16, 0), "MAT4", 16);
  size_t vec = d.Floats(std::vector<float>(32, 0), "VEC4", 4);
  for (size_t a : {one, vec}) {
    std::ostringstream o;
    o << "\"nodes\":[{\"children\":[1]},{}],\"skins\":[{\"joints\":[0,1],\"inverseBindMatrices\":" << a << "}]";
    ExpectRefused(d.Json(o.str()), maniImportReasonProperty, 0, 0, false);
  }
}

// "meshopt views (the extension's buffer, byteLength, byteStride, count and
// mode present, mode and filter names of the specification, the stream
// inside its buffer, count times byteStride covering the view)"; "a
// refused stream gives maniImportReasonData at its offset in its buffer,
// the view as the item"; a fallback buffer is never read (no URI given).
TEST(GltfProbeMeshopt, ViewChecksAndARefusedStream) {
  // Buffer 0: 64 bytes of stream (data:), the stream at 8; buffer 1: the
  // fallback without URI.
  std::string stream(64, '\0');
  auto doc = [&](const std::string& ext) {
    return kAsset +
           ",\"extensionsUsed\":[\"EXT_meshopt_compression\"],\"buffers\":[{\"byteLength\":64,\"uri\":"
           "\"data:application/octet-stream;base64," +
           B64(stream) +
           "\"},{\"byteLength\":48,\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}}],"
           "\"bufferViews\":[{\"buffer\":1,\"byteLength\":48,\"byteStride\":4,"
           "\"extensions\":{\"EXT_meshopt_compression\":{" +
           ext + "}}}]}";
  };
  const std::string good = "\"buffer\":0,\"byteOffset\":8,\"byteLength\":40,\"byteStride\":4,\"count\":12";
  {  // A zero header byte is not an attribute stream (0xa0 or 0xa1).
    std::string t = doc(good + ",\"mode\":\"ATTRIBUTES\"");
    Open o(t);
    EXPECT_EQ(o.r.result, mani_errorFormat) << Why(o.r);
    EXPECT_EQ(o.r.reason, (uint32_t)maniImportReasonData) << Why(o.r);
    EXPECT_EQ(o.r.item, 0u) << Why(o.r);
    EXPECT_GE(o.r.offset, 8u) << Why(o.r);
    EXPECT_LT(o.r.offset, 48u) << Why(o.r);
    EXPECT_EQ(o.g, kSentinel);
  }
  ExpectRefused(doc(good + ",\"mode\":\"VERTICES\""), maniImportReasonProperty, 0, 0, false);
  ExpectRefused(doc(good + ",\"mode\":\"ATTRIBUTES\",\"filter\":\"SPHERICAL\""), maniImportReasonProperty, 0, 0, false);
  ExpectRefused(doc("\"buffer\":0,\"byteOffset\":8,\"byteLength\":40,\"byteStride\":4,\"mode\":\"ATTRIBUTES\""),
                maniImportReasonProperty, 0, 0, false);  // no count
  ExpectRefused(doc("\"buffer\":0,\"byteOffset\":8,\"byteLength\":57,\"byteStride\":4,\"count\":12,"
                    "\"mode\":\"ATTRIBUTES\""),
                maniImportReasonProperty, 0, 0, false);  // past its buffer
  ExpectRefused(doc("\"buffer\":0,\"byteOffset\":8,\"byteLength\":40,\"byteStride\":4,\"count\":11,"
                    "\"mode\":\"ATTRIBUTES\""),
                maniImportReasonProperty, 0, 0, false);  // 11 x 4 below the view's 48
  ExpectRefused(doc("\"buffer\":2,\"byteOffset\":8,\"byteLength\":40,\"byteStride\":4,\"count\":12,"
                    "\"mode\":\"ATTRIBUTES\""),
                maniImportReasonProperty, 0, 0, false);
}

// "weight tracks are the node's bone name, a slash and that name"
// (maniBuildGltfMorphTargets), for a weights channel of a mesh node the
// skeleton skins; the STEP weights hold, LINEAR ones interpolate.
TEST(GltfProbeClip, WeightTracksNamedByNodeAndTarget) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0}, "VEC3", 3);
  size_t dp = d.Floats({1, 0, 0}, "VEC3", 3);
  size_t jn = d.Add(std::string(4, '\0'), 5121, "VEC4", 1);
  size_t wn = d.Floats({1, 0, 0, 0}, "VEC4", 4);
  size_t in = d.Floats({0, 1}, "SCALAR", 1);
  // 2 targets x 2 keys, normalized BYTE: -128 -> -1 (max(c / 127, -1)), 127 -> 1.
  size_t wv = d.Add(Raw(std::vector<int8_t>{-128, 0, 127, 127}), 5120, "SCALAR", 4, true);
  std::ostringstream o;
  o << "\"nodes\":[{\"name\":\"R\"},{\"name\":\"Face\",\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],"
    << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << ",\"JOINTS_0\":" << jn
    << ",\"WEIGHTS_0\":" << wn << "},\"targets\":[{\"POSITION\":" << dp << "},{\"POSITION\":" << dp
    << "}]}],\"extras\":{\"targetNames\":[\"smile\",\"frown\"]}}],"
    << "\"extensionsRequired\":[\"KHR_mesh_quantization\"],\"extensionsUsed\":[\"KHR_mesh_quantization\"],"
    << "\"animations\":[{\"name\":\"caf\\u00e9\",\"samplers\":[" << Sampler(in, wv, "LINEAR") << "],\"channels\":["
    << Channel(0, 1, "weights") << "]}]";
  Open g(d.Json(o.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  size_t len = 0;
  const char* an = maniGltf_GetAnimationName(g.g, 0, &len);
  ASSERT_NE(an, nullptr);
  EXPECT_EQ(std::string(an, len), "caf\xC3\xA9");
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfSkeleton(g.builder.b, g.g, 0, &opt).result, mani_success);
  File skf = g.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.sampleRate = 2;
  uint32_t bound = 0;
  maniImportResult r = maniBuildGltfClip(g.builder.b, g.g, 0, &sk, &opt, &co, &bound);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(bound, 1u);
  File cf = g.builder.Built();
  maniClip clip;
  ASSERT_EQ(maniOpenClip(cf.data(), cf.size, &clip).result, mani_success);
  ASSERT_EQ(maniClip_GetFloatTrackCount(&clip), 2u);
  std::vector<std::string> names;
  for (uint32_t t = 0; t < 2; ++t) {
    size_t n = 0;
    const char* s = maniClip_GetFloatTrackName(&clip, t, &n);
    names.push_back(s ? std::string(s, n) : "");
  }
  uint32_t smile = names[0] == "Face/smile" ? 0 : 1;
  EXPECT_EQ(names[smile], "Face/smile");
  EXPECT_EQ(names[1 - smile], "Face/frown");
  float v[2] = {7, 7};
  ASSERT_EQ(maniClip_SampleFloats(&clip, 0.0f, v, 2, nullptr), mani_success);
  EXPECT_EQ(v[smile], -1.0f);
  EXPECT_EQ(v[1 - smile], 0.0f);
  ASSERT_EQ(maniClip_SampleFloats(&clip, 0.5f, v, 2, nullptr), mani_success);
  EXPECT_NEAR(v[smile], 0.0, 1e-6);
  EXPECT_NEAR(v[1 - smile], 0.5, 1e-6);

  // Targets named by index when targetNames is absent; positions turned.
  maniGltfOptions z = ZUp();
  r = maniBuildGltfMorphTargets(g.builder.b, g.g, 0, 0, &z);
  ASSERT_EQ(r.result, mani_success) << Why(r);
}

// "maniBuildGltfMorphTargets ... named by the mesh's extras.targetNames
// when it names every target and by the target's index otherwise"
TEST(GltfProbeMorph, NamesByIndexWhenTargetNamesIsShort) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0}, "VEC3", 3);
  size_t dp = d.Floats({1, 0, 0}, "VEC3", 3);
  std::ostringstream o;
  o << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << "},\"targets\":[{\"POSITION\":" << dp
    << "},{\"POSITION\":" << dp << "}]}],\"extras\":{\"targetNames\":[\"only\"]}}]";
  Open g(d.Json(o.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  maniGltfOptions opt = maniDefaultGltfOptions();
  maniImportResult r = maniBuildGltfMorphTargets(g.builder.b, g.g, 0, 0, &opt);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File f = g.builder.Built();
  maniMorphTargets mt;
  ASSERT_EQ(maniOpenMorphTargets(f.data(), f.size, &mt).result, mani_success);
  ASSERT_EQ(maniMorphTargets_GetChannelCount(&mt), 2u);
  EXPECT_EQ(maniMorphTargets_FindChannel(&mt, "only", 4), UINT32_MAX);
  EXPECT_NE(maniMorphTargets_FindChannel(&mt, "0", 1), UINT32_MAX);
  EXPECT_NE(maniMorphTargets_FindChannel(&mt, "1", 1), UINT32_MAX);
  // A target naming a semantic the primitive lacks: Property.
  Doc d2;
  size_t pos2 = d2.Floats({0, 0, 0}, "VEC3", 3);
  size_t dn = d2.Floats({0, 0, 1}, "VEC3", 3);
  std::ostringstream o2;
  o2 << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos2 << "},\"targets\":[{\"NORMAL\":" << dn
     << "}]}]}]";
  Open g2(d2.Json(o2.str()));
  ASSERT_TRUE(g2.ok()) << Why(g2.r);
  r = maniBuildGltfMorphTargets(g2.builder.b, g2.g, 0, 0, &opt);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << Why(r);
}

// Deep nesting and a huge array never crash: refused as JSON or read.
TEST(GltfProbeRobustness, DeepNestingAndHugeCounts) {
  std::string deep = kAsset + ",\"extras\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  {
    Open o(deep);
    EXPECT_TRUE(o.r.result == mani_success || (o.r.result == mani_errorFormat && o.r.reason == maniImportReasonJson))
        << Why(o.r);
  }
  // An accessor of 2^30 MAT4 elements on a 64-byte buffer: Property.
  std::string t =
      kAsset +
      ",\"buffers\":[{\"byteLength\":64,\"uri\":\"x.bin\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":64}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"type\":\"MAT4\",\"count\":1073741824}]}";
  ExpectRefused(t, maniImportReasonProperty, 0, 0, false);
  // Overlapping views are fine for the opener (glTF allows them).
  std::string ov =
      kAsset +
      ",\"buffers\":[{\"byteLength\":64,\"uri\":\"x.bin\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":64},"
      "{\"buffer\":0,\"byteOffset\":4,\"byteLength\":8}]}";
  Open o(ov);
  EXPECT_TRUE(o.ok()) << Why(o.r);
}

// -- Sparse at supply, fallbacks, folded clips, names, sets --------------------------------

// "sparse indices ... in external buffers they are checked when supplied";
// SupplyBuffer: "maniImportReasonData ... (item the view, offset in its
// buffer)" for streams; the sparse index refusal is "Data with the
// accessor as item and the index's offset in its buffer".
TEST(GltfProbeSparse, ExternalIndicesCheckedWhenSupplied) {
  std::string t =
      kAsset +
      ",\"buffers\":[{\"byteLength\":20,\"uri\":\"s.bin\"}],"
      "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":12,\"byteLength\":8}],"
      "\"accessors\":[{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4},"
      "{\"componentType\":5126,\"type\":\"SCALAR\",\"count\":4,\"sparse\":{\"count\":2,\"indices\":"
      "{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5125},\"values\":{\"bufferView\":1}}}]}";
  Open o(t);
  ASSERT_TRUE(o.ok()) << Why(o.r);
  std::vector<uint32_t> bad = {0, 3, 3, 0, 0};  // indices (at 4) 3 then 3: not increasing
  maniImportResult r = maniGltf_SupplyBuffer(o.g, 0, bad.data(), 20);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData) << Why(r);
  EXPECT_EQ(r.item, 1u) << Why(r);
  EXPECT_EQ(r.offset, 8u) << Why(r);
  std::vector<uint32_t> past = {0, 1, 4, 0, 0};  // 4 is not below the count
  r = maniGltf_SupplyBuffer(o.g, 0, past.data(), 20);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData) << Why(r);
  EXPECT_EQ(r.item, 1u) << Why(r);
  EXPECT_EQ(r.offset, 8u) << Why(r);
  std::vector<uint32_t> good = {0, 1, 3, 0, 0};
  r = maniGltf_SupplyBuffer(o.g, 0, good.data(), 20);
  EXPECT_EQ(r.result, mani_success) << Why(r);
}

// "a view on a buffer never read is Buffer, item the buffer"; a meshopt
// fallback is one the importer never reads, so it gives no URI and cannot
// be supplied.
TEST(GltfProbeMeshopt, FallbackBufferNeverRead) {
  std::string base =
      kAsset +
      ",\"extensionsUsed\":[\"EXT_meshopt_compression\"],\"buffers\":[{\"byteLength\":64,\"uri\":\"m.bin\"},"
      "{\"byteLength\":48,\"uri\":\"fallback.bin\",\"extensions\":{\"EXT_meshopt_compression\":"
      "{\"fallback\":true}}}],\"bufferViews\":[{\"buffer\":1,\"byteLength\":48,\"byteStride\":4,"
      "\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\":0,\"byteLength\":40,\"byteStride\":4,"
      "\"count\":12,\"mode\":\"ATTRIBUTES\"}}}";
  {
    Open o(base + "]}");
    ASSERT_TRUE(o.ok()) << Why(o.r);
    EXPECT_NE(maniGltf_GetBufferUri(o.g, 0, nullptr), nullptr);
    size_t len = 5;
    EXPECT_EQ(maniGltf_GetBufferUri(o.g, 1, &len), nullptr);
    EXPECT_EQ(len, 0u);
    std::string bytes(64, '\0');
    EXPECT_EQ(maniGltf_SupplyBuffer(o.g, 1, bytes.data(), 48).result, mani_errorInvalid);
    // The stream's buffer supplied with a refused stream: Data, the view.
    maniImportResult r = maniGltf_SupplyBuffer(o.g, 0, bytes.data(), 64);
    EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData) << Why(r);
    EXPECT_EQ(r.item, 0u) << Why(r);
  }
  // A plain view on the fallback buffer.
  ExpectRefused(base + ",{\"buffer\":1,\"byteLength\":4}]}", maniImportReasonBuffer, 1, 0, false);
}

// Folded placement in clips: "with placement folded, the nodes above the
// root composed in"; duration "the animation's latest key over every
// channel" (a skipped channel too).
TEST(GltfProbeClip, FoldedPlacementAndDurationOverEveryChannel) {
  Doc d;
  size_t in = d.Floats({0, 1}, "SCALAR", 1);
  size_t in3 = d.Floats({0, 3}, "SCALAR", 1);
  size_t tv = d.Floats({0, 1, 0, 0, 2, 0}, "VEC3", 3);
  std::ostringstream o;
  o << "\"nodes\":[{\"name\":\"Top\",\"translation\":[1,0,0],\"rotation\":[0,0,0.70710678118654752,"
       "0.70710678118654752],\"children\":[1]},{\"name\":\"Root\",\"children\":[2]},{\"name\":\"J\"},{\"name\":\"Far\"}"
       "],"
    << "\"skins\":[{\"joints\":[1,2]}],\"animations\":[{\"samplers\":[" << Sampler(in, tv, "LINEAR") << ","
    << Sampler(in3, tv, "LINEAR") << "],\"channels\":[" << Channel(0, 1, "translation") << ","
    << Channel(1, 3, "translation") << "]}]";
  Open g(d.Json(o.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  maniGltfOptions opt = maniDefaultGltfOptions();
  opt.foldPlacement = 1;
  ASSERT_EQ(maniBuildGltfSkeleton(g.builder.b, g.g, 0, &opt).result, mani_success);
  File skf = g.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  // Rest: Top (turn 90 about Z, then +1 x) times Root (identity).
  maniTransform rest = maniSkeleton_GetRest(&sk, 0);
  ExpectVec(rest.translation, 1, 0, 0, "folded rest");
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.sampleRate = 4;
  uint32_t bound = 9;
  maniImportResult r = maniBuildGltfClip(g.builder.b, g.g, 0, &sk, &opt, &co, &bound);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(bound, 1u);
  File cf = g.builder.Built();
  maniClip clip;
  ASSERT_EQ(maniOpenClip(cf.data(), cf.size, &clip).result, mani_success);
  EXPECT_EQ(maniClip_GetDuration(&clip), 3.0f);
  Posed p(&sk);
  ASSERT_EQ(maniClip_Sample(&clip, &sk, 0.5f, p.pose), mani_success);
  // Root's local (0, 1.5, 0) turned 90 about Z is (-1.5, 0, 0), plus (1, 0, 0).
  maniTransform root = maniPose_GetLocal(p.pose, 0);
  ExpectVec(root.translation, -0.5f, 0, 0, "folded sample");
  EXPECT_NEAR(std::fabs(root.rotation.z), 0.70710678, 1e-6);
}

// Keys the clip builder refuses: times not increasing.
TEST(GltfProbeClip, KeysNotIncreasingAreData) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1, 0.5f}, "SCALAR", 1);
  size_t out = c.d.Floats({0, 0, 0, 1, 1, 1, 2, 2, 2}, "VEC3", 3);
  size_t in2 = c.d.Floats({0, 1}, "SCALAR", 1);
  size_t out2 = c.d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(in2, out2, "LINEAR") + "," + Sampler(in, out, "LINEAR"),
                     Channel(0, 0, "translation") + "," + Channel(1, 1, "translation")));
  maniImportResult r = c.Build(10);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData) << Why(r);
  EXPECT_EQ(r.item, 1u) << Why(r);
}

// "Build with the build reason as item for anything else it refuses, such
// as a root motion bone the animation leaves without a track"
TEST(GltfProbeClip, RootMotionBoneWithoutATrackIsBuild) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
  size_t out = c.d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR"), Channel(0, 1, "translation")));
  maniGltfOptions opt = maniDefaultGltfOptions();
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.rootMotionBone = 0;  // R: no channel
  co.rootMotionFlags = MANI_ROOT_MOTION_X;
  File before = c.o->builder.Built();
  maniImportResult r = maniBuildGltfClip(c.o->builder.b, c.o->g, 0, &c.skel, &opt, &co, nullptr);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuild) << Why(r);
  EXPECT_EQ(r.item, (uint64_t)maniBuildReasonRootMotion) << Why(r);
  File after = c.o->builder.Built();  // the builder keeps what it held
  ASSERT_EQ(after.size, before.size);
  EXPECT_EQ(memcmp(after.data(), before.data(), before.size), 0);
  co.rootMotionBone = 1;  // J moves along x by 1
  r = maniBuildGltfClip(c.o->builder.b, c.o->g, 0, &c.skel, &opt, &co, nullptr);
  EXPECT_EQ(r.result, mani_success) << Why(r);
  co.rootMotionFlags = MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION;
  EXPECT_EQ(maniBuildGltfClip(c.o->builder.b, c.o->g, 0, &c.skel, &opt, &co, nullptr).result, mani_errorInvalid);
  co.rootMotionFlags = 32;
  EXPECT_EQ(maniBuildGltfClip(c.o->builder.b, c.o->g, 0, &c.skel, &opt, &co, nullptr).result, mani_errorInvalid);
}

// "maniImportReasonName a name refused (past MANI_MAX_NAME_BYTES once
// renamed ...)": a 255-byte name repeated becomes 257 bytes.
TEST(GltfProbeNames, PastTheNameLimitOnceRenamed) {
  std::string n(MANI_MAX_NAME_BYTES, 'n');
  Open o(kAsset + ",\"nodes\":[{\"name\":\"" + n + "\",\"children\":[1]},{\"name\":\"" + n +
         "\"}],\"skins\":[{\"joints\":[0,1]}]}");
  ASSERT_TRUE(o.ok()) << Why(o.r);
  size_t len = 0;
  ASSERT_NE(maniGltf_GetNodeBoneName(o.g, 1, &len), nullptr);
  EXPECT_EQ(len, MANI_MAX_NAME_BYTES + 2);
  maniGltfOptions opt = maniDefaultGltfOptions();
  maniImportResult r = maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonName) << Why(r);
  // At the limit exactly: fine.
  Open ok(kAsset + ",\"nodes\":[{\"name\":\"" + n + "\"}],\"skins\":[{\"joints\":[0]}]}");
  ASSERT_TRUE(ok.ok()) << Why(ok.r);
  EXPECT_EQ(maniBuildGltfSkeleton(ok.builder.b, ok.g, 0, &opt).result, mani_success);
}

// Two sets: JOINTS_1/WEIGHTS_1 read with JOINTS_0/WEIGHTS_0, zeros dropped.
TEST(GltfProbeInfluences, TwoSetsAndZerosDropped) {
  Rig rig;
  size_t w0 = rig.d.Floats({0.5f, 0, 0, 0}, "VEC4", 4);
  size_t w1 = rig.d.Floats({0, 0.5f, 0, 0}, "VEC4", 4);
  size_t j0 = rig.d.Add(std::string("\0\1\1\1", 4), 5121, "VEC4", 1);
  size_t j1 = rig.d.Add(std::string("\0\1\0\0", 4), 5121, "VEC4", 1);
  std::ostringstream a;
  a << "{\"JOINTS_0\":" << j0 << ",\"WEIGHTS_0\":" << w0 << ",\"JOINTS_1\":" << j1 << ",\"WEIGHTS_1\":" << w1 << "}";
  ASSERT_TRUE(rig.Make(a.str()));
  maniImportResult r = rig.Influences();
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File f = rig.o->builder.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  EXPECT_EQ(WeightOf(&inf, 0, 0), 0.5f);
  EXPECT_EQ(WeightOf(&inf, 0, 1), 0.5f);
}

// An output whose count does not match its input's (LINEAR: one value a
// key). The reference's maniBuildGltfClip lists only Data ("for keys the
// clip builder refuses") and Build; the importer refuses it itself with
// Property, the channel as item and the output accessor's JSON as offset,
// as maniBuildGltfInfluences does "an accessor of the wrong type or count".
// The header now says so (import.h, maniBuildGltfClip). Channel 1 uses
// sampler 0 so the item tells channel from sampler.
TEST(GltfProbeClip, OutputCountNotMatchingIsPropertyWithTheChannel) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
  size_t good = c.d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  size_t three = c.d.Floats({0, 0, 0, 1, 1, 1, 2, 2, 2}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(in, three, "LINEAR") + "," + Sampler(in, good, "LINEAR"),
                     Channel(1, 0, "translation") + "," + Channel(0, 1, "translation")));
  maniImportResult r = c.Build(10);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << Why(r);
  EXPECT_EQ(r.item, 1u) << Why(r);
  EXPECT_GT(r.offset, 0u) << Why(r);
}

// -- Allocation, refusals at open, pointers, sparse over views --------------------------

struct Failing {
  int calls = 0, failAt = -1;
  std::map<void*, size_t> live;
};
void* FailingAllocate(void* user, size_t size, size_t alignment) {
  Failing* f = (Failing*)user;
  if (f->calls++ == f->failAt) return nullptr;
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

// "mani_errorCapacity when the allocator fails. *gltfOut is unchanged on
// failure." At every allocation of an open, nothing leaked.
TEST(GltfProbeAllocation, OpenFailsAtEveryAllocation) {
  Doc d;
  size_t in = d.Floats({0, 1}, "SCALAR", 1);
  size_t out = d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  std::ostringstream o;
  o << "\"nodes\":[{\"name\":\"R\",\"children\":[1]},{}],\"skins\":[{\"joints\":[0,1]}],\"animations\":[{\"samplers\":["
    << Sampler(in, out, "LINEAR") << "],\"channels\":[" << Channel(0, 1, "translation") << "]}]";
  std::string text = d.Json(o.str());
  int successes = 0;
  for (int at = 0; at < 200 && successes == 0; ++at) {
    Failing f;
    f.failAt = at;
    maniBuilderDef def = maniDefaultBuilderDef();
    def.allocator.allocate = FailingAllocate;
    def.allocator.release = FailingRelease;
    def.allocator.user = &f;
    maniBuilder* b = nullptr;
    if (maniCreateBuilder(&def, &b) != mani_success) {
      EXPECT_TRUE(f.live.empty());
      continue;
    }
    maniGltf* g = kSentinel;
    maniImportResult r = maniOpenGltf(b, text.data(), text.size(), &g);
    if (r.result == mani_success) {
      successes++;
      EXPECT_EQ(maniGltf_GetNodeCount(g), 2u);
      maniCloseGltf(g);
    } else {
      EXPECT_EQ(r.result, mani_errorCapacity) << at << " " << Why(r);
      EXPECT_EQ(g, kSentinel) << at;
    }
    maniDestroyBuilder(b);
    EXPECT_TRUE(f.live.empty()) << at << ": " << f.live.size() << " blocks leaked";
  }
  EXPECT_EQ(successes, 1);
}

// Animations at open: "channels' samplers in range, targets' nodes in
// range, a path, KHR_animation_pointer only on path "pointer" ..., samplers'
// input a SCALAR FLOAT accessor and output an accessor in range,
// interpolation LINEAR, STEP or CUBICSPLINE", item the animation.
TEST(GltfProbeAnimations, RefusedAtOpenWithTheAnimation) {
  Doc d;
  size_t in = d.Floats({0, 1}, "SCALAR", 1);
  size_t out = d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  size_t bytes = d.Add(std::string("\0\1", 2), 5121, "SCALAR", 2);
  size_t vec = d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  const std::string goodAnim =
      "{\"samplers\":[" + Sampler(in, out, "LINEAR") + "],\"channels\":[" + Channel(0, 0, "translation") + "]}";
  auto doc = [&](const std::string& samplers, const std::string& channels) {
    return d.Json("\"nodes\":[{}],\"animations\":[" + goodAnim + ",{\"samplers\":[" + samplers + "],\"channels\":[" +
                  channels + "]}]");
  };
  {
    Open o(doc(Sampler(in, out, "STEP"), Channel(0, 0, "scale")));
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  {
    Open o(doc(Sampler(in, out, "LINEAR"), Channel(0, 0, "color")));
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }  // kept, skipped
  ExpectRefused(doc(Sampler(in, out, "SMOOTH"), Channel(0, 0, "scale")), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc(Sampler(bytes, out, "LINEAR"), Channel(0, 0, "scale")), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc(Sampler(vec, out, "LINEAR"), Channel(0, 0, "scale")), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc(Sampler(in, 99, "LINEAR"), Channel(0, 0, "scale")), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc(Sampler(in, out, "LINEAR"), Channel(1, 0, "scale")), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc(Sampler(in, out, "LINEAR"), Channel(0, 1, "scale")), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc(Sampler(in, out, "LINEAR"), "{\"sampler\":0,\"target\":{\"node\":0}}"), maniImportReasonProperty, 1,
                0, false);
  // KHR_animation_pointer off path "pointer"; path "pointer" without it.
  ExpectRefused(doc(Sampler(in, out, "LINEAR"),
                    "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\",\"extensions\":"
                    "{\"KHR_animation_pointer\":{\"pointer\":\"/nodes/0/translation\"}}}}"),
                maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc(Sampler(in, out, "LINEAR"), "{\"sampler\":0,\"target\":{\"path\":\"pointer\"}}"),
                maniImportReasonProperty, 1, 0, false);
}

// Meshes at open: "primitives at least one, attributes and targets of
// accessors in range"; "Primitives of one mesh must have as many morph
// targets."
TEST(GltfProbeMeshes, RefusedAtOpenWithTheMesh) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0}, "VEC3", 3);
  auto doc = [&](const std::string& mesh) {
    std::ostringstream o;
    o << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << "}}]}," << mesh << "]";
    return d.Json(o.str());
  };
  std::ostringstream p1, p2;
  p1 << "{\"attributes\":{\"POSITION\":" << pos << "},\"targets\":[{\"POSITION\":" << pos << "}]}";
  p2 << "{\"attributes\":{\"POSITION\":" << pos << "}}";
  {
    Open o(doc("{\"primitives\":[" + p1.str() + "," + p1.str() + "]}"));
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  ExpectRefused(doc("{\"primitives\":[" + p1.str() + "," + p2.str() + "]}"), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc("{\"primitives\":[]}"), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc("{\"primitives\":[{\"attributes\":{\"POSITION\":9}}]}"), maniImportReasonProperty, 1, 0, false);
  ExpectRefused(doc("{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{\"NORMAL\":9}]}]}"),
                maniImportReasonProperty, 1, 0, false);
}

// "a buffer without URI only GLB's first with a BIN chunk ... (Buffer
// otherwise)": a second URI-less buffer a view reads.
TEST(GltfProbeGlb, SecondBufferWithoutUri) {
  std::string bin(8, '\1');
  std::string json = kAsset +
                     ",\"buffers\":[{\"byteLength\":8},{\"byteLength\":8}],"
                     "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":1,\"byteLength\":8}]}";
  ExpectRefused(Glb(json, &bin), maniImportReasonBuffer, 1, 0, false);
}

// A KHR_animation_pointer channel to a node's translation animates the bone
// as a translation channel would ("channels to anything but nodes" become
// float tracks; node ones are the node's).
TEST(GltfProbeClip, PointerToANodeIsTheNodesChannel) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
  size_t out = c.d.Floats({0, 0, 0, 2, 4, 6}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR"),
                     "{\"sampler\":0,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":"
                     "{\"pointer\":\"/nodes/1/translation\"}}}}",
                     ",\"extensionsUsed\":[\"KHR_animation_pointer\"]"));
  uint32_t bound = 0;
  maniImportResult r = c.Build(4, &bound);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(bound, 1u);
  EXPECT_EQ(maniClip_GetFloatTrackCount(&c.clip), 0u);
  ExpectVec(c.At(0.5f, 1).translation, 1, 2, 3, "pointer translation");
}

// "maniImportReasonName a name refused (... or repeated among float
// tracks)": targetNames naming two targets alike make two weight tracks of
// one name.
TEST(GltfProbeClip, RepeatedWeightTrackNamesAreName) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0}, "VEC3", 3);
  size_t dp = d.Floats({1, 0, 0}, "VEC3", 3);
  size_t in = d.Floats({0, 1}, "SCALAR", 1);
  size_t wv = d.Floats({0, 0, 1, 1}, "SCALAR", 1);
  std::ostringstream o;
  o << "\"nodes\":[{\"name\":\"Face\",\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos
    << "},\"targets\":[{\"POSITION\":" << dp << "},{\"POSITION\":" << dp
    << "}]}],\"extras\":{\"targetNames\":[\"a\",\"a\"]}}],\"animations\":[{\"samplers\":[" << Sampler(in, wv, "LINEAR")
    << "],\"channels\":[" << Channel(0, 0, "weights") << "]}]";
  Open g(d.Json(o.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfNodeSkeleton(g.builder.b, g.g, 0, &opt).result, mani_success);
  File skf = g.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  maniImportResult r = maniBuildGltfClip(g.builder.b, g.g, 0, &sk, &opt, &co, nullptr);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonName) << Why(r);
}

// Sparse over a view: the view's values with the sparse ones replacing.
TEST(GltfProbeSparse, OverAViewInInfluences) {
  Rig rig;
  size_t base = rig.d.View(Raw(std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0}));
  size_t iv = rig.d.View(Raw(std::vector<uint16_t>{1, 0}));
  size_t vv = rig.d.View(Raw(std::vector<float>{0.25f, 0.75f, 0, 0}));
  std::ostringstream a;
  a << "{\"bufferView\":" << base << ",\"componentType\":5126,\"type\":\"VEC4\",\"count\":2,\"sparse\":{\"count\":1,"
    << "\"indices\":{\"bufferView\":" << iv << ",\"componentType\":5123},\"values\":{\"bufferView\":" << vv << "}}}";
  size_t wa = rig.d.Accessor(a.str());
  size_t ja = rig.d.Add(std::string("\0\1\0\0\0\1\0\0", 8), 5121, "VEC4", 2);
  std::ostringstream at;
  at << "{\"JOINTS_0\":" << ja << ",\"WEIGHTS_0\":" << wa << "}";
  ASSERT_TRUE(rig.Make(at.str()));
  maniImportResult r = rig.Influences();
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File f = rig.o->builder.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  EXPECT_EQ(WeightOf(&inf, 0, 0), 1.0f);
  EXPECT_EQ(WeightOf(&inf, 1, 0), 0.25f);
  EXPECT_EQ(WeightOf(&inf, 1, 1), 0.75f);
}

// The keys' own rate takes the shortest interval of any channel, a pointer
// channel's too.
TEST(GltfProbeClip, DefaultRateOverEveryChannel) {
  ClipRig c;
  size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
  size_t out = c.d.Floats({0, 0, 0, 1, 1, 1}, "VEC3", 3);
  size_t fast = c.d.Floats({0, 0.02f}, "SCALAR", 1);
  size_t pv = c.d.Floats({0, 1}, "SCALAR", 1);
  ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR") + "," + Sampler(fast, pv, "LINEAR"),
                     Channel(0, 1, "translation") +
                         ",{\"sampler\":1,\"target\":{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":"
                         "{\"pointer\":\"/materials/0/alphaCutoff\"}}}}",
                     ",\"materials\":[{}]"));
  maniImportResult r = c.Build(0);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(maniClip_GetSampleRate(&c.clip), 50.0f);
}

// -- Cubic splines through the basis and in float tracks ---------------------------------

// CUBICSPLINE translation in the Z-up centimetre basis: values and tangents
// turned and scaled, so the sample is 100 R (the Hermite in glTF's basis).
TEST(GltfProbeClip, CubicTranslationThroughTheBasis) {
  ClipRig c;
  size_t in = c.d.Floats({0, 2}, "SCALAR", 1);
  // key 0: in (9), value (1, 2, 3), out (0.5, 0, -1); key 1: in (0, 1, 0), value (2, 2, 2), out (9)
  size_t out = c.d.Floats({9, 9, 9, 1, 2, 3, 0.5f, 0, -1, 0, 1, 0, 2, 2, 2, 9, 9, 9}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(in, out, "CUBICSPLINE"), Channel(0, 1, "translation")));
  maniGltfOptions opt = ZUp();
  ASSERT_EQ(maniBuildGltfSkeleton(c.o->builder.b, c.o->g, 0, &opt).result, mani_success);
  c.skelFile = c.o->builder.Built();
  ASSERT_EQ(maniOpenSkeleton(c.skelFile.data(), c.skelFile.size, &c.skel).result, mani_success);
  maniImportResult r = c.Build(4, nullptr, opt);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  for (int k = 0; k <= 8; ++k) {
    double s = k / 8.0;
    double x = Hermite(1, 0.5, 2, 0, 2, s), y = Hermite(2, 0, 2, 1, 2, s), z = Hermite(3, -1, 2, 0, 2, s);
    // R: (x, y, z) -> (x, -z, y)
    maniVec3 t = c.At((float)(2 * s), 1).translation;
    EXPECT_NEAR(t.x, 100 * x, 1e-4) << k;
    EXPECT_NEAR(t.y, -100 * z, 1e-4) << k;
    EXPECT_NEAR(t.z, 100 * y, 1e-4) << k;
  }
}

// CUBICSPLINE morph weights become float tracks whose samples on the grid
// are the Hermite's.
TEST(GltfProbeClip, CubicWeightsOnTheGrid) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0}, "VEC3", 3);
  size_t dp = d.Floats({1, 0, 0}, "VEC3", 3);
  size_t in = d.Floats({0, 1}, "SCALAR", 1);
  // one target: key 0 (in 9, value 0, out 2), key 1 (in -1, value 1, out 9)
  size_t wv = d.Floats({9, 0, 2, -1, 1, 9}, "SCALAR", 1);
  std::ostringstream o;
  o << "\"nodes\":[{\"name\":\"Face\",\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos
    << "},\"targets\":[{\"POSITION\":" << dp << "}]}]}],\"animations\":[{\"samplers\":["
    << Sampler(in, wv, "CUBICSPLINE") << "],\"channels\":[" << Channel(0, 0, "weights") << "]}]";
  Open g(d.Json(o.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfNodeSkeleton(g.builder.b, g.g, 0, &opt).result, mani_success);
  File skf = g.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  maniImportClipOptions co = maniDefaultImportClipOptions();
  co.sampleRate = 8;
  maniImportResult r = maniBuildGltfClip(g.builder.b, g.g, 0, &sk, &opt, &co, nullptr);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File cf = g.builder.Built();
  maniClip clip;
  ASSERT_EQ(maniOpenClip(cf.data(), cf.size, &clip).result, mani_success);
  ASSERT_EQ(maniClip_GetFloatTrackCount(&clip), 1u);
  size_t len = 0;
  const char* n = maniClip_GetFloatTrackName(&clip, 0, &len);
  EXPECT_EQ(std::string(n ? n : "", len), "Face/0");
  for (int k = 0; k <= 8; ++k) {
    float v = 7;
    ASSERT_EQ(maniClip_SampleFloats(&clip, k / 8.0f, &v, 1, nullptr), mani_success);
    EXPECT_NEAR(v, Hermite(0, 2, 1, -1, 1, k / 8.0), 1e-6) << k;
  }
}

// -- Container edges, matrix padding, mesh weights, escapes, decomposition ---------------

// "bytes past the length are ignored": a BIN chunk past the header's
// length is not there, so the URI-less buffer a view reads has no bytes
// (Buffer).
TEST(GltfProbeContainer, BinPastTheHeaderLengthIsIgnored) {
  std::string bin(8, '\1');
  std::string glb =
      Glb(kAsset + ",\"buffers\":[{\"byteLength\":8}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}]}", &bin);
  {
    Open o(glb);
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  std::string cut = glb;
  Set32(&cut, 8, (uint32_t)(glb.size() - 16));  // the length ends before the BIN chunk
  ExpectRefused(cut, maniImportReasonBuffer, 0, 0, false);
}

// glTF's matrix element layout: columns of 1- and 2-byte MAT2/MAT3
// components start on 4-byte boundaries, so a MAT3 of shorts takes 24 bytes
// ("the last element within the view with its stride").
TEST(GltfProbeAccessors, MatrixColumnPadding) {
  auto doc = [](uint32_t viewLength) {
    std::ostringstream o;
    o << kAsset << ",\"buffers\":[{\"byteLength\":64,\"uri\":\"x.bin\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":"
      << viewLength << "}],\"accessors\":[{\"bufferView\":0,\"componentType\":5122,\"type\":\"MAT3\",\"count\":1}]}";
    return o.str();
  };
  {
    Open o(doc(24));
    EXPECT_TRUE(o.ok()) << Why(o.r);
  }
  ExpectRefused(doc(18), maniImportReasonProperty, 0, 0, false);
  ExpectRefused(doc(20), maniImportReasonProperty, 0, 0, false);
}

// GetMorphWeights: "the node's weights, else its mesh's, else zeros";
// refused weights "(Property, item the node, or the mesh with offset at its
// weights)".
TEST(GltfProbeMorph, MeshWeightsAndZeros) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0}, "VEC3", 3);
  std::ostringstream m;
  m << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << "},\"targets\":[{\"POSITION\":" << pos
    << "},{\"POSITION\":" << pos << "}]}]},{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos
    << "},\"targets\":[{\"POSITION\":" << pos << "},{\"POSITION\":" << pos << "}]}],\"weights\":[1,2,3]}],"
    << "\"nodes\":[{\"mesh\":0},{\"mesh\":1},{\"mesh\":1,\"weights\":[0.5,0.5]}]";
  std::string text = d.Json(m.str());
  Open o(text);
  ASSERT_TRUE(o.ok()) << Why(o.r);
  float w[2] = {9, 9};
  uint32_t count = 0;
  maniImportResult r = maniGltf_GetMorphWeights(o.g, 0, w, 2, &count);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_EQ(w[1], 0.0f);
  w[0] = w[1] = 9;
  r = maniGltf_GetMorphWeights(o.g, 1, w, 2, &count);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << Why(r);
  EXPECT_EQ(r.item, 1u) << Why(r);  // the mesh
  EXPECT_EQ(r.offset, At(text, "[1,2,3]")) << Why(r);
  EXPECT_EQ(w[0], 9.0f);
  // The node's own weights win over the mesh's refused ones.
  r = maniGltf_GetMorphWeights(o.g, 2, w, 2, &count);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(w[0], 0.5f);
}

// Names after JSON escapes, surrogate pairs included.
TEST(GltfProbeNames, EscapesDecoded) {
  Open o(kAsset +
         ",\"nodes\":[{\"name\":\"\\ud83d\\ude00\\t\\\"q\\\"\"},{\"name\":\"\\u00e9\"},{\"name\":\"\xC3\xA9\"}]}");
  ASSERT_TRUE(o.ok()) << Why(o.r);
  EXPECT_EQ(BoneName(o.g, 0), "\xF0\x9F\x98\x80\t\"q\"");
  EXPECT_EQ(BoneName(o.g, 1), "\xC3\xA9");
  EXPECT_EQ(BoneName(o.g, 2), "\xC3\xA9#2");  // the same bytes as node 1's
  // A lone surrogate is not UTF-8: JSON.
  std::string t = kAsset + ",\"nodes\":[{\"name\":\"\\ud83d\"}]}";
  ExpectRefused(t, maniImportReasonJson, 0, 0, false);
}

maniVec3 Rotate(maniQuat q, maniVec3 v) {
  // v + 2 w (u x v) + 2 u x (u x v)
  double ux = q.x, uy = q.y, uz = q.z, w = q.w;
  double cx = uy * v.z - uz * v.y, cy = uz * v.x - ux * v.z, cz = ux * v.y - uy * v.x;
  double dx = uy * cz - uz * cy, dy = uz * cx - ux * cz, dz = ux * cy - uy * cx;
  maniVec3 r;
  r.x = (float)(v.x + 2 * (w * cx + dx));
  r.y = (float)(v.y + 2 * (w * cy + dy));
  r.z = (float)(v.z + 2 * (w * cz + dz));
  return r;
}

// A matrix node decomposes into T R S whose product is the matrix: a
// rotation with scale 2, and a mirror (a negative scale).
TEST(GltfProbeBasis, MatricesDecomposeToTheirProduct) {
  const char* ms[] = {
      "[0,2,0,0,-2,0,0,0,0,0,2,0,1,2,3,1]",   // 90 about Z, scale 2, translation (1,2,3)
      "[-1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]",   // a mirror in x
      "[0,0,-3,0,0,1,0,0,0.5,0,0,0,4,5,6,1]"  // 90 about Y, scale (3,1,0.5)
  };
  for (const char* m : ms) {
    Open o(kAsset + ",\"nodes\":[{\"name\":\"N\",\"matrix\":" + m + "}]}");
    ASSERT_TRUE(o.ok()) << Why(o.r);
    maniGltfOptions opt = maniDefaultGltfOptions();
    maniImportResult r = maniBuildGltfNodeSkeleton(o.builder.b, o.g, 0, &opt);
    ASSERT_EQ(r.result, mani_success) << m << " " << Why(r);
    File f = o.builder.Built();
    maniSkeleton s;
    ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
    maniTransform t = maniSkeleton_GetRest(&s, 0);
    std::vector<double> mv;
    {
      std::string str(m + 1);
      std::istringstream in(str);
      double x;
      char sep;
      while (in >> x) {
        mv.push_back(x);
        in >> sep;
      }
    }
    ASSERT_EQ(mv.size(), 16u);
    const float sc[3] = {t.scale.x, t.scale.y, t.scale.z};
    for (int c = 0; c < 3; ++c) {
      maniVec3 e = {0, 0, 0};
      (&e.x)[c] = sc[c];
      maniVec3 col = Rotate(t.rotation, e);
      ExpectVec(col, (float)mv[4 * c], (float)mv[4 * c + 1], (float)mv[4 * c + 2], m);
    }
    ExpectVec(t.translation, (float)mv[12], (float)mv[13], (float)mv[14], m);
  }
}

// LINEAR rotations are glTF's slerp, along the shorter arc: identity to
// -(90 degrees about Z) (the same rotation, negated) gives 22.5 degrees at
// a quarter.
TEST(GltfProbeClip, LinearRotationIsShortestSlerp) {
  const double h = 0.70710678118654752;
  for (int negate = 0; negate < 2; ++negate) {
    ClipRig c;
    size_t in = c.d.Floats({0, 1}, "SCALAR", 1);
    float sgn = negate ? -1.0f : 1.0f;
    size_t out = c.d.Floats({0, 0, 0, 1, 0, 0, sgn * (float)h, sgn * (float)h}, "VEC4", 4);
    ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR"), Channel(0, 1, "rotation")));
    ASSERT_EQ(c.Build(4).result, mani_success);
    for (int k = 0; k <= 4; ++k) {
      maniQuat q = c.At(k / 4.0f, 1).rotation;
      double angle = (M_PI / 2) * k / 4.0;
      double z = std::sin(angle / 2), w = std::cos(angle / 2);
      // either sign of the same rotation
      double dot = q.z * z + q.w * w;
      EXPECT_NEAR(std::fabs(dot), 1.0, 1e-6) << negate << " " << k;
      EXPECT_NEAR(q.x, 0, 1e-6);
      EXPECT_NEAR(q.y, 0, 1e-6);
    }
  }
}

// Before the first key the first value holds; the grid starts at 0 and the
// duration is the latest key.
TEST(GltfProbeClip, BeforeTheFirstKey) {
  ClipRig c;
  size_t in = c.d.Floats({0.5f, 1}, "SCALAR", 1);
  size_t out = c.d.Floats({1, 1, 1, 3, 3, 3}, "VEC3", 3);
  ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR"), Channel(0, 1, "translation")));
  ASSERT_EQ(c.Build(4).result, mani_success);
  EXPECT_EQ(maniClip_GetDuration(&c.clip), 1.0f);
  EXPECT_EQ(c.At(0.0f, 1).translation.x, 1.0f);
  EXPECT_EQ(c.At(0.25f, 1).translation.x, 1.0f);
  EXPECT_NEAR(c.At(0.75f, 1).translation.x, 2.0f, 1e-6);
}

// Offsets inside a GLB count from the start of the bytes given: "offset:
// the value's first byte in the bytes given".
TEST(GltfProbeGlb, OffsetsCountFromTheStartOfTheBytes) {
  std::string p = kAsset + ",\"nodes\":[{\"translation\":[1e39,0,0]}]}";
  ExpectRefused(Glb(p, nullptr), maniImportReasonProperty, 0, 20 + At(p, "1e39"));
  std::string v = "{\"asset\":{\"version\":\"1.0\"}}";
  ExpectRefused(Glb(v, nullptr), maniImportReasonVersion, 0, 20 + At(v, "\"1.0\""));
  std::string u = kAsset + ",\"extensionsRequired\":[\"ACME_x\"]}";
  ExpectRefused(Glb(u, nullptr), maniImportReasonUnsupported, 0, 20 + At(u, "\"ACME_x\""));
  std::string b = kAsset + ",\"buffers\":[{\"byteLength\":0,\"uri\":\"x.bin\"}]}";
  ExpectRefused(Glb(b, nullptr), maniImportReasonProperty, 0, 20 + At(b, "0,"));
  // Sparse indices in the BIN: the offset is in the buffer, not the file.
  std::string bin = Raw(std::vector<uint16_t>{0, 0, 2, 1}) + Raw(std::vector<float>{5, 6});
  std::string s =
      kAsset +
      ",\"buffers\":[{\"byteLength\":16}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},"
      "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":8}],\"accessors\":[{\"componentType\":5126,"
      "\"type\":\"SCALAR\",\"count\":3,\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":0,\"byteOffset\":4,"
      "\"componentType\":5123},\"values\":{\"bufferView\":1}}}]}";
  ExpectRefused(Glb(s, &bin), maniImportReasonData, 0, 6);
}

// Data in an external buffer not supplied: "maniImportReasonPending data in
// an external buffer not supplied yet (item: the buffer)", for a skin's
// inverse binds, a primitive's morph targets and an animation's keys (the
// reference's maniBuildGltfClip does not list Pending; the header now does).
TEST(GltfProbeBuffers, PendingEverywhere) {
  // Buffer 0 held (data:), buffer 1 external with: 2 inverse binds (128
  // bytes), a target's positions (12), key times (8) and values (24).
  Doc d;
  size_t pos = d.Floats({0, 0, 0}, "VEC3", 3);
  d.bufferExtra = ",{\"byteLength\":172,\"uri\":\"ext.bin\"}";
  d.views.push_back("{\"buffer\":1,\"byteLength\":128}");
  d.views.push_back("{\"buffer\":1,\"byteOffset\":128,\"byteLength\":12}");
  d.views.push_back("{\"buffer\":1,\"byteOffset\":140,\"byteLength\":8}");
  d.views.push_back("{\"buffer\":1,\"byteOffset\":148,\"byteLength\":24}");
  size_t v0 = d.views.size() - 4;
  size_t ibm =
      d.Accessor("{\"bufferView\":" + std::to_string(v0) + ",\"componentType\":5126,\"type\":\"MAT4\",\"count\":2}");
  size_t tp = d.Accessor("{\"bufferView\":" + std::to_string(v0 + 1) +
                         ",\"componentType\":5126,\"type\":\"VEC3\",\"count\":1}");
  size_t kt = d.Accessor("{\"bufferView\":" + std::to_string(v0 + 2) +
                         ",\"componentType\":5126,\"type\":\"SCALAR\",\"count\":2}");
  size_t kv = d.Accessor("{\"bufferView\":" + std::to_string(v0 + 3) +
                         ",\"componentType\":5126,\"type\":\"VEC3\",\"count\":2}");
  std::ostringstream o;
  o << "\"nodes\":[{\"name\":\"R\",\"children\":[1]},{\"name\":\"J\"}],\"skins\":[{\"joints\":[0,1],"
    << "\"inverseBindMatrices\":" << ibm << "}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos
    << "},\"targets\":[{\"POSITION\":" << tp << "}]}]}],\"animations\":[{\"samplers\":[" << Sampler(kt, kv, "LINEAR")
    << "],\"channels\":[" << Channel(0, 1, "translation") << "]}]";
  Open g(d.Json(o.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  ASSERT_EQ(maniGltf_GetBufferCount(g.g), 2u);
  EXPECT_EQ(maniGltf_GetBufferUri(g.g, 0, nullptr), nullptr);
  ASSERT_NE(maniGltf_GetBufferUri(g.g, 1, nullptr), nullptr);
  EXPECT_EQ(maniGltf_SupplyBuffer(g.g, 0, "abcd", 4).result, mani_errorInvalid);  // held
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfSkeleton(g.builder.b, g.g, 0, &opt).result, mani_success);
  File skf = g.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  auto pending = [](maniImportResult r, const char* what) {
    EXPECT_EQ(r.result, mani_errorFormat) << what << " " << Why(r);
    EXPECT_EQ(r.reason, (uint32_t)maniImportReasonPending) << what << " " << Why(r);
    EXPECT_EQ(r.item, 1u) << what << " " << Why(r);
  };
  pending(maniBuildGltfSkin(g.builder.b, g.g, 0, &sk, &opt), "skin");
  pending(maniBuildGltfMorphTargets(g.builder.b, g.g, 0, 0, &opt), "morph");
  maniImportClipOptions co = maniDefaultImportClipOptions();
  pending(maniBuildGltfClip(g.builder.b, g.g, 0, &sk, &opt, &co, nullptr), "clip");
  // Supplied: all three build.
  std::vector<float> ext(43, 0.0f);
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 4; ++i) ext[16 * j + 5 * i] = 1;  // identities
  ext[32] = 1;                                            // the target moves x by 1
  ext[35] = 0, ext[36] = 1;                               // times 0, 1
  ext[40] = 2;                                            // value 1: (2, 0, 0)
  ASSERT_EQ(maniGltf_SupplyBuffer(g.g, 1, ext.data(), ext.size() * 4).result, mani_success);
  EXPECT_EQ(maniBuildGltfSkin(g.builder.b, g.g, 0, &sk, &opt).result, mani_success);
  EXPECT_EQ(maniBuildGltfMorphTargets(g.builder.b, g.g, 0, 0, &opt).result, mani_success);
  co.sampleRate = 2;
  ASSERT_EQ(maniBuildGltfClip(g.builder.b, g.g, 0, &sk, &opt, &co, nullptr).result, mani_success);
  File cf = g.builder.Built();
  maniClip clip;
  ASSERT_EQ(maniOpenClip(cf.data(), cf.size, &clip).result, mani_success);
  Posed p(&sk);
  ASSERT_EQ(maniClip_Sample(&clip, &sk, 0.5f, p.pose), mani_success);
  EXPECT_NEAR(maniPose_GetLocal(p.pose, 1).translation.x, 1.0f, 1e-6);
}

// Morph targets applied at full weight: "positions, normals and tangents in
// the output's basis, VEC3 colors with alpha 0": a position delta turned
// and scaled, a normal delta turned only, a colour delta without alpha.
TEST(GltfProbeMorph, DeltasInTheOutputBasis) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0, 0, 0, 0}, "VEC3", 3);
  size_t nor = d.Floats({1, 0, 0, 1, 0, 0}, "VEC3", 3);
  size_t col = d.Floats({0, 0, 0, 0, 0, 0}, "VEC3", 3);
  size_t dp = d.Floats({1, 2, 3, 0, 0, 0}, "VEC3", 3);
  size_t dn = d.Floats({0, 1, 0, 0, 0, 0}, "VEC3", 3);
  size_t dc = d.Floats({0.5f, 0.25f, 0, 0, 0, 0}, "VEC3", 3);
  std::ostringstream o;
  o << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << ",\"NORMAL\":" << nor
    << ",\"COLOR_0\":" << col << "},\"targets\":[{\"POSITION\":" << dp << ",\"NORMAL\":" << dn << ",\"COLOR_0\":" << dc
    << "}]}]}]";
  Open g(d.Json(o.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  maniGltfOptions opt = ZUp();
  maniImportResult r = maniBuildGltfMorphTargets(g.builder.b, g.g, 0, 0, &opt);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File f = g.builder.Built();
  maniMorphTargets mt;
  ASSERT_EQ(maniOpenMorphTargets(f.data(), f.size, &mt).result, mani_success);
  ASSERT_EQ(maniMorphTargets_GetTargetCount(&mt), 1u);
  EXPECT_EQ(maniMorphTargets_GetAttributeCount(&mt), 3u);
  float pin[6] = {0}, pout[6];
  float nin[6] = {1, 0, 0, 1, 0, 0}, nout[6];
  float cin[8] = {0, 0, 0, 0.5f, 0, 0, 0, 0.5f}, cout[8];
  maniMorphStream s[3];
  s[0] = {maniMorphPosition, 0, 3, 12, 12, pin, pout};
  s[1] = {maniMorphNormal, 0, 3, 12, 12, nin, nout};
  s[2] = {maniMorphColor, 0, 4, 16, 16, cin, cout};
  float w = 1;
  maniMorphJob job = {&mt, &w, s, 3, 0, 2};
  ASSERT_EQ(maniApplyMorphTargets(&job), mani_success);
  ExpectVec({pout[0], pout[1], pout[2]}, 100, -300, 200, "position delta 100 R (1,2,3)");
  ExpectVec({pout[3], pout[4], pout[5]}, 0, 0, 0, "vertex 1 unmoved");
  // normal (1,0,0) + R (0,1,0) = (1,0,1), renormalized
  ExpectVec({nout[0], nout[1], nout[2]}, 0.70710678f, 0, 0.70710678f, "normal turned, not scaled");
  EXPECT_NEAR(cout[0], 0.5f, 1e-7);
  EXPECT_NEAR(cout[1], 0.25f, 1e-7);
  EXPECT_EQ(cout[3], 0.5f);  // alpha delta 0
}

// Normalized UNSIGNED_BYTE weights summing below 1 are renormalized
// ("as maniBuildInfluences does": divided by their sum); UNSIGNED_SHORT
// joints.
TEST(GltfProbeInfluences, NormalizedBytesRenormalized) {
  Rig rig;
  size_t wa = rig.d.Add(std::string("\x64\x32\0\0", 4), 5121, "VEC4", 1, true);
  size_t ja = rig.d.Add(Raw(std::vector<uint16_t>{1, 0, 0, 0}), 5123, "VEC4", 1);
  std::ostringstream a;
  a << "{\"JOINTS_0\":" << ja << ",\"WEIGHTS_0\":" << wa << "}";
  ASSERT_TRUE(rig.Make(a.str()));
  maniImportResult r = rig.Influences();
  ASSERT_EQ(r.result, mani_success) << Why(r);
  File f = rig.o->builder.Built();
  maniInfluences inf;
  ASSERT_EQ(maniOpenInfluences(f.data(), f.size, &inf).result, mani_success);
  EXPECT_NEAR(WeightOf(&inf, 0, 1), 2.0 / 3.0, 1e-7);
  EXPECT_NEAR(WeightOf(&inf, 0, 0), 1.0 / 3.0, 1e-7);
}

// More than MANI_MAX_INFLUENCES weighted influences on a vertex: the
// builder's refusal as Build with its reason (maniBuildReasonCount).
TEST(GltfProbeInfluences, PastTheInfluenceLimitIsBuild) {
  const uint32_t joints = MANI_MAX_INFLUENCES + 4;  // 20: five sets
  Doc d;
  std::ostringstream attrs;
  attrs << "{";
  for (uint32_t s = 0; s < joints / 4; ++s) {
    std::vector<uint8_t> j = {(uint8_t)(4 * s), (uint8_t)(4 * s + 1), (uint8_t)(4 * s + 2), (uint8_t)(4 * s + 3)};
    size_t ja = d.Add(Raw(j), 5121, "VEC4", 1);
    // 17 non-zero weights in all: sets 0 to 3 full, set 4 one weight.
    std::vector<float> w = s < 4 ? std::vector<float>{1, 1, 1, 1} : std::vector<float>{1, 0, 0, 0};
    size_t wa = d.Floats(w, "VEC4", 4);
    attrs << (s ? "," : "") << "\"JOINTS_" << s << "\":" << ja << ",\"WEIGHTS_" << s << "\":" << wa;
  }
  attrs << "}";
  // B0 the root of B1 to B19, the skin's joints all twenty.
  std::ostringstream n2;
  n2 << "\"nodes\":[{\"name\":\"B0\",\"children\":[";
  for (uint32_t n = 1; n < joints; ++n) n2 << (n > 1 ? "," : "") << n;
  n2 << "]}";
  for (uint32_t n = 1; n < joints; ++n) n2 << ",{\"name\":\"B" << n << "\"}";
  n2 << ",{\"name\":\"M\",\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[";
  for (uint32_t n = 0; n < joints; ++n) n2 << (n ? "," : "") << n;
  n2 << "]}],\"meshes\":[{\"primitives\":[{\"attributes\":" << attrs.str() << "}]}]";
  Open g(d.Json(n2.str()));
  ASSERT_TRUE(g.ok()) << Why(g.r);
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfSkeleton(g.builder.b, g.g, 0, &opt).result, mani_success);
  File skf = g.builder.Built();
  maniSkeleton sk;
  ASSERT_EQ(maniOpenSkeleton(skf.data(), skf.size, &sk).result, mani_success);
  ASSERT_EQ(maniBuildGltfSkin(g.builder.b, g.g, 0, &sk, &opt).result, mani_success);
  File sf = g.builder.Built();
  maniSkin skin;
  ASSERT_EQ(maniOpenSkin(sf.data(), sf.size, &skin).result, mani_success);
  maniImportResult r = maniBuildGltfInfluences(g.builder.b, g.g, 0, 0, &skin);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonBuild) << Why(r);
  EXPECT_EQ(r.item & 0xFFu, (uint64_t)maniBuildReasonCount) << Why(r);
}

// Every basis the options allow (24: up any of six axes, front any of the
// four perpendicular): "glTF's +X becomes up x front ... B = unitScale R.
// Every local transform is conjugated by it (translations turned and
// scaled, rotations turned, scales' components permuted)".
TEST(GltfProbeBasis, EveryBasisAgainstRWorkedOutHere) {
  Open o(kAsset +
         ",\"nodes\":[{\"name\":\"N\",\"translation\":[1,2,3],\"rotation\":[0.18257419,0.36514837,"
         "0.54772256,0.73029674],\"scale\":[1,2,3]}]}");
  ASSERT_TRUE(o.ok()) << Why(o.r);
  auto axis = [](uint32_t a) {
    maniVec3 v = {0, 0, 0};
    (&v.x)[a / 2] = (a & 1) ? -1.0f : 1.0f;
    return v;
  };
  int tried = 0;
  for (uint32_t up = 0; up < 6; ++up) {
    for (uint32_t front = 0; front < 6; ++front) {
      maniGltfOptions opt = maniDefaultGltfOptions();
      opt.up = up;
      opt.front = front;
      opt.unitScale = 2.5f;
      maniImportResult r = maniBuildGltfNodeSkeleton(o.builder.b, o.g, 0, &opt);
      if (up / 2 == front / 2) {
        EXPECT_EQ(r.result, mani_errorInvalid) << up << " " << front;
        continue;
      }
      ASSERT_EQ(r.result, mani_success) << up << " " << front << " " << Why(r);
      tried++;
      maniVec3 ey = axis(up), ez = axis(front);
      maniVec3 ex = {ey.y * ez.z - ey.z * ez.y, ey.z * ez.x - ey.x * ez.z, ey.x * ez.y - ey.y * ez.x};
      maniVec3 cols[3] = {ex, ey, ez};  // R's columns: where glTF's x, y, z go
      auto R = [&](maniVec3 v) {
        maniVec3 out;
        out.x = cols[0].x * v.x + cols[1].x * v.y + cols[2].x * v.z;
        out.y = cols[0].y * v.x + cols[1].y * v.y + cols[2].y * v.z;
        out.z = cols[0].z * v.x + cols[1].z * v.y + cols[2].z * v.z;
        return out;
      };
      File f = o.builder.Built();
      maniSkeleton s;
      ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
      maniTransform t = maniSkeleton_GetRest(&s, 0);
      maniVec3 want = R({2.5f, 5, 7.5f});
      ExpectVec(t.translation, want.x, want.y, want.z, "translation");
      // scale components permuted: glTF's axis i (scale i + 1) lands on R's axis
      float sc[3] = {0, 0, 0};
      for (int i = 0; i < 3; ++i) {
        maniVec3 c = cols[i];
        int k = c.x != 0 ? 0 : c.y != 0 ? 1 : 2;
        sc[k] = (float)(i + 1);
      }
      ExpectVec(t.scale, sc[0], sc[1], sc[2], "scale");
      // rotation turned: q' (R v) = R (q v) for the three axes
      maniQuat q = {0.18257419f, 0.36514837f, 0.54772256f, 0.73029674f};
      for (int i = 0; i < 3; ++i) {
        maniVec3 v = axis(2 * i);
        maniVec3 a = Rotate(t.rotation, R(v)), b = R(Rotate(q, v));
        ExpectVec(a, b.x, b.y, b.z, "rotation");
      }
    }
  }
  EXPECT_EQ(tried, 24);
}

// Numbers past binary32 in morph weights: "weights not an array of that
// many numbers within binary32" is Property.
TEST(GltfProbeMorph, WeightsPastBinary32) {
  Doc d;
  size_t pos = d.Floats({0, 0, 0}, "VEC3", 3);
  std::ostringstream m;
  m << "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":" << pos << "},\"targets\":[{\"POSITION\":" << pos
    << "}]}]}],\"nodes\":[{\"mesh\":0,\"weights\":[1e39]}]";
  std::string text = d.Json(m.str());
  Open o(text);
  if (!o.ok()) {  // refused at the open is also a Property at the number
    EXPECT_EQ(o.r.reason, (uint32_t)maniImportReasonProperty) << Why(o.r);
    return;
  }
  float w = 9;
  uint32_t count = 0;
  maniImportResult r = maniGltf_GetMorphWeights(o.g, 0, &w, 1, &count);
  EXPECT_EQ(r.result, mani_errorFormat) << Why(r);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonProperty) << Why(r);
  EXPECT_EQ(r.item, 0u);
  EXPECT_EQ(w, 9.0f);
}

// "Joints in separate trees of the node forest have no common root: each
// tree's share is then the joints in it, their lowest common node in that
// tree and the nodes between. skin.skeleton is not used."
TEST(GltfProbeSkeletons, JointsInSeparateTrees) {
  Open o(kAsset +
         ",\"nodes\":[{\"name\":\"Top\",\"children\":[1]},{\"name\":\"A\",\"children\":[2,3]},"
         "{\"name\":\"B\",\"children\":[6]},{\"name\":\"C\"},{\"name\":\"D\",\"children\":[5]},"
         "{\"name\":\"E\"},{\"name\":\"B2\"}],"
         "\"skins\":[{\"joints\":[6,3,5],\"skeleton\":0}]}");
  ASSERT_TRUE(o.ok()) << Why(o.r);
  ASSERT_EQ(maniGltf_GetSkeletonCount(o.g), 1u);
  maniGltfOptions opt = maniDefaultGltfOptions();
  ASSERT_EQ(maniBuildGltfSkeleton(o.builder.b, o.g, 0, &opt).result, mani_success);
  File f = o.builder.Built();
  maniSkeleton s;
  ASSERT_EQ(maniOpenSkeleton(f.data(), f.size, &s).result, mani_success);
  // Tree 1: A (the lowest common node of B2 and C), B between, B2, C; tree
  // 2: E alone. Top and D are left out (skin.skeleton 0 is not used).
  ASSERT_EQ(maniSkeleton_GetBoneCount(&s), 5u);
  std::vector<std::string> names;
  uint32_t roots = 0;
  for (uint32_t b = 0; b < 5; ++b) {
    size_t len = 0;
    const char* n = maniSkeleton_GetBoneName(&s, b, &len);
    names.push_back(std::string(n, len));
    roots += maniSkeleton_GetParent(&s, b) == MANI_NO_BONE;
  }
  EXPECT_EQ(roots, 2u);
  for (const char* want : {"A", "B", "B2", "C", "E"})
    EXPECT_NE(maniSkeleton_FindBone(&s, want, strlen(want)), MANI_NO_BONE) << want;
  EXPECT_EQ(maniSkeleton_FindBone(&s, "Top", 3), MANI_NO_BONE);
  EXPECT_EQ(maniSkeleton_FindBone(&s, "D", 1), MANI_NO_BONE);
  uint32_t b2 = maniSkeleton_FindBone(&s, "B2", 2), b = maniSkeleton_FindBone(&s, "B", 1);
  EXPECT_EQ(maniSkeleton_GetParent(&s, b2), b);
  EXPECT_EQ(maniSkeleton_GetParent(&s, maniSkeleton_FindBone(&s, "E", 1)), MANI_NO_BONE);
}

// Keys and values read through byte strides (interleaved with bytes the
// accessors do not cover), and an accessor byteOffset inside the view.
TEST(GltfProbeClip, StridedKeysAndValues) {
  ClipRig c;
  const float junk = std::numeric_limits<float>::quiet_NaN();
  // times 0, 1 at stride 8 after 4 bytes: [junk, t0, junk, t1]
  size_t tv = c.d.View(Raw(std::vector<float>{junk, 0, junk, 1}), ",\"byteStride\":8");
  // VEC3 values at stride 16: [x y z junk] x 2
  size_t vv = c.d.View(Raw(std::vector<float>{2, 4, 6, junk, 4, 8, 12, junk}), ",\"byteStride\":16");
  size_t in = c.d.Accessor("{\"bufferView\":" + std::to_string(tv) +
                           ",\"byteOffset\":4,\"componentType\":5126,\"type\":\"SCALAR\",\"count\":2}");
  size_t out =
      c.d.Accessor("{\"bufferView\":" + std::to_string(vv) + ",\"componentType\":5126,\"type\":\"VEC3\",\"count\":2}");
  ASSERT_TRUE(c.Make(Sampler(in, out, "LINEAR"), Channel(0, 1, "translation")));
  maniImportResult r = c.Build(2);
  ASSERT_EQ(r.result, mani_success) << Why(r);
  EXPECT_EQ(maniClip_GetDuration(&c.clip), 1.0f);
  ExpectVec(c.At(0.5f, 1).translation, 3, 6, 9, "midway");
}

}  // namespace
