// The Draco decoder (lib/anim/src/import/draco/draco.h): every reference
// stream of lib/anim/test/data/draco decoded to the same bits as Google's
// draco_decoder (hashes in reference.txt, README there), the header's
// refusals with their offsets, every truncation and byte patch of four
// streams refused or decoded without a read past the stream, and the
// allocator failed at every index with nothing leaked; every attribute
// (GENERIC included) against Google's Draco library (attributes.txt).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lib/anim/src/import/draco/draco.h"

namespace {

typedef std::vector<uint8_t> Bytes;

const char* kDir = "lib/anim/test/data/draco/";

Bytes ReadWholeFile(const std::string& path) {
  Bytes out;
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return out;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  out.assign(n > 0 ? (size_t)n : 0, 0);
  size_t got = n > 0 ? fread(out.data(), 1, (size_t)n, f) : 0;
  fclose(f);
  if (got != out.size()) out.clear();
  return out;
}

struct Ref {
  std::string name, settings;
  uint32_t points = 0, faces = 0;
  uint64_t vhash = 0, fhash = 0;
};

std::vector<Ref> ReadRefs() {
  std::vector<Ref> refs;
  Bytes text = ReadWholeFile(std::string(kDir) + "reference.txt");
  std::istringstream in(std::string(text.begin(), text.end()));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    Ref r;
    std::string vh, fh;
    if (!(l >> r.name >> r.settings >> r.points >> r.faces >> vh >> fh)) continue;
    r.vhash = strtoull(vh.c_str(), nullptr, 16);
    r.fhash = strtoull(fh.c_str(), nullptr, 16);
    refs.push_back(r);
  }
  return refs;
}

uint64_t Fnv(const Bytes& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : b) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

const maniDracoAttribute* FirstOfType(const maniDracoMesh& m, uint8_t type) {
  for (uint32_t i = 0; i < m.attributeCount; i++)
    if (m.attributes[i].type == type) return &m.attributes[i];
  return nullptr;
}

void Append(Bytes* out, const maniDracoAttribute* a, uint32_t point) {
  const uint8_t* p = a->values + (size_t)a->pointToValue[point] * a->elementSize;
  out->insert(out->end(), p, p + a->elementSize);
}

// The bytes draco_decoder's PLY holds, from Maul's decode (make_ref.sh).
void PlyBytes(const maniDracoMesh& m, Bytes* vertex, Bytes* face) {
  const maniDracoAttribute* pos = FirstOfType(m, maniDracoPosition);
  const maniDracoAttribute* nrm = FirstOfType(m, maniDracoNormal);
  const maniDracoAttribute* tex = FirstOfType(m, maniDracoTexCoord);
  for (uint32_t p = 0; p < m.pointCount; p++) {
    if (pos) Append(vertex, pos, p);
    if (nrm) Append(vertex, nrm, p);
  }
  for (uint32_t f = 0; f < m.faceCount; f++) {
    const uint8_t* idx = (const uint8_t*)(m.faces + 3 * (size_t)f);
    face->insert(face->end(), idx, idx + 12);
    if (tex)
      for (int k = 0; k < 3; k++) Append(face, tex, m.faces[3 * (size_t)f + k]);
  }
}

// Every attribute's map inside its values, every face inside the points.
void ExpectConsistent(const maniDracoMesh& m) {
  for (uint32_t i = 0; i < 3 * m.faceCount; i++) ASSERT_LT(m.faces[i], m.pointCount);
  for (uint32_t a = 0; a < m.attributeCount; a++)
    for (uint32_t p = 0; p < m.pointCount; p++) ASSERT_LT(m.attributes[a].pointToValue[p], m.attributes[a].valueCount);
}

TEST(DracoTest, EveryReferenceStreamDecodesAsGooglesDecoder) {
  std::vector<Ref> refs = ReadRefs();
  ASSERT_GE(refs.size(), 40u);
  std::map<int, int> methods;
  for (const Ref& r : refs) {
    SCOPED_TRACE(r.name + " " + r.settings);
    Bytes s = ReadWholeFile(std::string(kDir) + r.name + ".drc");
    ASSERT_FALSE(s.empty());
    maniDracoMesh m;
    size_t off = 12345;
    ASSERT_EQ(maniDracoDecode(s.data(), s.size(), nullptr, &m, &off), maniDracoOk) << "offset " << off;
    EXPECT_EQ(m.pointCount, r.points);
    EXPECT_EQ(m.faceCount, r.faces);
    ExpectConsistent(m);
    Bytes v, f;
    PlyBytes(m, &v, &f);
    EXPECT_EQ(Fnv(v), r.vhash);
    EXPECT_EQ(Fnv(f), r.fhash);
    methods[m.method * 10 + m.traversal]++;
    maniDracoRelease(&m);
    EXPECT_EQ(m.blocks, nullptr);
  }
  // sequential, edgebreaker standard and valence all among them
  EXPECT_GT(methods[0], 0);
  EXPECT_GT(methods[10], 0);
  EXPECT_GT(methods[12], 0);
}

// The JOINTS and WEIGHTS (GENERIC) of RiggedSimple's stream: every point's
// joints in 0..1 (two joints) and weights summing to 1 within the 8-bit
// quantization the encoder used.
TEST(DracoTest, GenericAttributesOfRiggedSimple) {
  Bytes s = ReadWholeFile(std::string(kDir) + "gltf_RiggedSimple_m0_p0.drc");
  ASSERT_FALSE(s.empty());
  maniDracoMesh m;
  ASSERT_EQ(maniDracoDecode(s.data(), s.size(), nullptr, &m, nullptr), maniDracoOk);
  const maniDracoAttribute* j = maniDracoFindAttribute(&m, 0);
  const maniDracoAttribute* w = maniDracoFindAttribute(&m, 3);
  ASSERT_NE(j, nullptr);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(j->type, maniDracoGeneric);
  EXPECT_EQ(j->components, 4);
  EXPECT_EQ(w->dataType, maniDracoFloat32);
  for (uint32_t p = 0; p < m.pointCount; p++) {
    float wv[4];
    memcpy(wv, w->values + (size_t)w->pointToValue[p] * 16, 16);
    EXPECT_NEAR(wv[0] + wv[1] + wv[2] + wv[3], 1.0f, 4.0f / 255.0f);
    for (int k = 0; k < 4; k++) {
      uint32_t jv = 0;
      memcpy(&jv, j->values + (size_t)j->pointToValue[p] * j->elementSize + k * (j->elementSize / 4),
             j->elementSize / 4);
      EXPECT_LE(jv, 1u);
    }
  }
  maniDracoRelease(&m);
}

Bytes Stream(const char* name) { return ReadWholeFile(std::string(kDir) + name + ".drc"); }

// Every attribute of every stream (GENERIC ones included, which the PLY of
// draco_decoder leaves out) against Google's Draco library: attributes.txt
// (tools/draco/make_attribute_ref.sh, attribute_ref.cc) holds per attribute
// its unique id, type, data type, components, the point count and the
// FNV-1a 64 of every point's value in point order, as libdraco 1.5.5 decoded
// them. The gt_* streams are gltf-transform's (Google's encoder) of the
// skinned shared models: JOINTS as uint8/uint16 and WEIGHTS as quantized
// floats, edgebreaker and sequential, 8 to 16 bits.
TEST(DracoTest, EveryAttributeAsGooglesLibrary) {
  Bytes text = ReadWholeFile(std::string(kDir) + "attributes.txt");
  std::istringstream in(std::string(text.begin(), text.end()));
  std::string line;
  size_t lines = 0, generic = 0, integers = 0;
  std::map<std::string, int> streams;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string name, hash;
    uint32_t id = 0, type = 0, dataType = 0, components = 0, points = 0;
    ASSERT_TRUE(l >> name >> id >> type >> dataType >> components >> points >> hash) << line;
    SCOPED_TRACE(line);
    Bytes s = Stream(name.c_str());
    ASSERT_FALSE(s.empty());
    maniDracoMesh m;
    ASSERT_EQ(maniDracoDecode(s.data(), s.size(), nullptr, &m, nullptr), maniDracoOk);
    ExpectConsistent(m);
    const maniDracoAttribute* a = maniDracoFindAttribute(&m, id);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->type, type);
    EXPECT_EQ(a->dataType, dataType);
    EXPECT_EQ(a->components, components);
    EXPECT_EQ(m.pointCount, points);
    Bytes values;
    for (uint32_t p = 0; p < m.pointCount; p++) Append(&values, a, p);
    EXPECT_EQ(Fnv(values), strtoull(hash.c_str(), nullptr, 16));
    maniDracoRelease(&m);
    lines++;
    streams[name]++;
    if (type == maniDracoGeneric) generic++;
    if (dataType != maniDracoFloat32) integers++;
  }
  EXPECT_GE(streams.size(), 60u);
  EXPECT_GE(generic, 20u);
  EXPECT_GE(integers, 10u);
  EXPECT_GE(lines, 150u);
}

TEST(DracoTest, HeaderRefusalsAtTheirOffsets) {
  Bytes good = Stream("torus_small_cl7");
  ASSERT_GT(good.size(), 20u);
  struct Case {
    size_t at;
    uint8_t value;
    size_t offset;
  } cases[] = {
      {0, 'd', 0}, {3, 'X', 3}, {5, 1, 5}, {6, 1, 6}, {6, 3, 6}, {7, 0, 7}, {8, 2, 8}, {9, 1, 9}, {10, 1, 10},
  };
  for (const Case& c : cases) {
    Bytes b = good;
    b[c.at] = c.value;
    maniDracoMesh m;
    memset(&m, 0x5a, sizeof m);
    size_t off = 999;
    EXPECT_EQ(maniDracoDecode(b.data(), b.size(), nullptr, &m, &off), maniDracoRefused) << c.at;
    EXPECT_EQ(off, c.offset) << c.at;
    EXPECT_EQ(((uint8_t*)&m)[0], 0x5a);  // unchanged
  }
  maniDracoMesh m;
  size_t off = 0;
  EXPECT_EQ(maniDracoDecode(good.data(), 4, nullptr, &m, &off), maniDracoRefused);
  EXPECT_EQ(off, 4u);
  EXPECT_EQ(maniDracoDecode(nullptr, 4, nullptr, &m, &off), maniDracoInvalid);
  EXPECT_EQ(maniDracoDecode(good.data(), good.size(), nullptr, nullptr, &off), maniDracoInvalid);
  maniDracoAllocator half = {[](void*, size_t n) -> void* { return malloc(n); }, nullptr, nullptr};
  EXPECT_EQ(maniDracoDecode(good.data(), good.size(), &half, &m, &off), maniDracoInvalid);
  maniDracoRelease(nullptr);
  EXPECT_EQ(maniDracoFindAttribute(nullptr, 0), nullptr);
}

// Streams patched and truncated at every byte and failed at every
// allocation (all edgebreaker, standard traversal: the valence streams are
// too long to patch every byte of; the fuzzer has them): a torus with
// normals, a sphere with degenerate poles, a plane with holes and texture
// seams, and gltf-transform's RiggedSimple (GENERIC JOINTS as uint16 and
// quantized WEIGHTS).
const char* kExhaustive[] = {"torus_small_cl7", "sphere_cl10", "holes_q12_cl4", "gt_RiggedSimple_eb0q8_m0_p0"};

TEST(DracoTest, EveryTruncationRefusedInsideTheStream) {
  for (const char* name : kExhaustive) {
    Bytes good = Stream(name);
    ASSERT_FALSE(good.empty());
    for (size_t n = 0; n < good.size(); n++) {
      // a copy of exactly n bytes, so a read past it is ASan's to catch
      Bytes b(good.begin(), good.begin() + (long)n);
      maniDracoMesh m;
      size_t off = 999999;
      ASSERT_EQ(maniDracoDecode(n ? b.data() : good.data(), n, nullptr, &m, &off), maniDracoRefused)
          << name << " " << n;
      EXPECT_LE(off, n);
    }
  }
}

TEST(DracoTest, EveryBytePatchRefusedOrDecodedInBounds) {
  const uint8_t flips[] = {0x01, 0x10, 0x80, 0xff};
  for (const char* name : kExhaustive) {
    Bytes good = Stream(name);
    ASSERT_FALSE(good.empty());
    size_t refused = 0;
    for (size_t i = 0; i < good.size(); i++) {
      for (uint8_t x : flips) {
        Bytes b = good;
        b[i] ^= x;
        maniDracoMesh m;
        size_t off = 999999;
        maniDracoStatus st = maniDracoDecode(b.data(), b.size(), nullptr, &m, &off);
        if (st == maniDracoOk) {
          ExpectConsistent(m);
          maniDracoRelease(&m);
        } else {
          ASSERT_EQ(st, maniDracoRefused) << name << " " << i;
          EXPECT_LE(off, b.size());
          refused++;
        }
      }
    }
    EXPECT_GT(refused, 0u) << name;
  }
}

struct Counting {
  long calls = 0, failAt = -1;
  long long live = 0;
};

void* CountAlloc(void* ctx, size_t n) {
  Counting* c = (Counting*)ctx;
  if (c->calls++ == c->failAt) return nullptr;
  c->live += (long long)n;
  return malloc(n);
}

void CountRelease(void* ctx, void* p, size_t n) {
  Counting* c = (Counting*)ctx;
  c->live -= (long long)n;
  free(p);
}

TEST(DracoTest, AllocationFailureAtEveryIndex) {
  for (const char* name : kExhaustive) {
    Bytes good = Stream(name);
    Counting all;
    maniDracoAllocator al = {CountAlloc, CountRelease, &all};
    maniDracoMesh m;
    ASSERT_EQ(maniDracoDecode(good.data(), good.size(), &al, &m, nullptr), maniDracoOk);
    Bytes v0, f0;
    PlyBytes(m, &v0, &f0);
    maniDracoRelease(&m);
    EXPECT_EQ(all.live, 0);
    ASSERT_GT(all.calls, 3);
    for (long k = 0; k < all.calls; k++) {
      Counting c;
      c.failAt = k;
      maniDracoAllocator fal = {CountAlloc, CountRelease, &c};
      maniDracoMesh mm;
      memset(&mm, 0x5a, sizeof mm);
      ASSERT_EQ(maniDracoDecode(good.data(), good.size(), &fal, &mm, nullptr), maniDracoNoMemory) << name << " " << k;
      EXPECT_EQ(c.live, 0) << name << " " << k;
      EXPECT_EQ(((uint8_t*)&mm)[0], 0x5a);
    }
    // and a decode after them all gives the same bytes
    ASSERT_EQ(maniDracoDecode(good.data(), good.size(), nullptr, &m, nullptr), maniDracoOk);
    Bytes v1, f1;
    PlyBytes(m, &v1, &f1);
    EXPECT_EQ(v0, v1);
    EXPECT_EQ(f0, f1);
    maniDracoRelease(&m);
  }
}

}  // namespace
