// The meshopt stream decoder (lib/anim/src/import/gltf/meshopt.h): hand-made
// streams from the specifications' own examples, the reference streams
// meshoptimizer's encoder wrote (lib/anim/test/data/meshopt, README there),
// the meshopt views of the shared glTF models, and every truncation and
// byte patch of valid streams refused or decoded, never read past.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/src/import/gltf/meshopt.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

typedef std::vector<uint8_t> Bytes;

bool ReadWholeFile(const std::string& path, Bytes* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  out->assign(n > 0 ? (size_t)n : 0, 0);
  size_t got = n > 0 ? fread(out->data(), 1, (size_t)n, f) : 0;
  fclose(f);
  return got == out->size();
}

// One record of streams.bin / models.bin (layout: tools/gltf/meshopt_ref.mjs).
struct Record {
  std::string name;
  uint32_t mode = 0, filter = 0, ext = 0, count = 0, stride = 0;
  Bytes encoded, input, decoded, ref;
  uint64_t hash = 0;
  // meshoptimizer's decode: stored only when it differs from the input
  const Bytes& Decoded() const { return decoded.empty() ? input : decoded; }
  // the reference JS decoder's: empty when equal to Decoded(), {0} for a refusal
  bool RefRefused() const { return ref.size() == 1 && Decoded().size() != 1; }
  const Bytes& Ref() const { return ref.empty() ? Decoded() : ref; }
};

uint32_t U32(const Bytes& b, size_t* p) {
  uint32_t v = 0;
  if (*p + 4 <= b.size()) v = (uint32_t)b[*p] | ((uint32_t)b[*p + 1] << 8) | ((uint32_t)b[*p + 2] << 16) | ((uint32_t)b[*p + 3] << 24);
  *p += 4;
  return v;
}

Bytes Blob(const Bytes& b, size_t* p) {
  uint32_t n = U32(b, p);
  Bytes out;
  if (*p + n <= b.size()) out.assign(b.begin() + (long)*p, b.begin() + (long)(*p + n));
  *p += n;
  return out;
}

std::vector<Record> ReadRecords(const char* path, bool models) {
  Bytes b;
  std::vector<Record> out;
  EXPECT_TRUE(ReadWholeFile(path, &b)) << path;
  if (b.size() < 12 || memcmp(b.data(), "MOPTREF1", 8) != 0) {
    ADD_FAILURE() << path << ": not a MOPTREF1 file";
    return out;
  }
  size_t p = 8;
  uint32_t n = U32(b, &p);
  for (uint32_t i = 0; i < n && p < b.size(); ++i) {
    Record r;
    Bytes name = Blob(b, &p);
    r.name.assign(name.begin(), name.end());
    r.mode = U32(b, &p);
    r.filter = U32(b, &p);
    r.ext = U32(b, &p);
    r.count = U32(b, &p);
    r.stride = U32(b, &p);
    r.encoded = Blob(b, &p);
    r.input = Blob(b, &p);
    r.decoded = Blob(b, &p);
    r.ref = Blob(b, &p);
    if (models) {
      for (int k = 0; k < 8; ++k) r.hash |= (uint64_t)b[p + k] << (8 * k);
      p += 8;
    }
    out.push_back(r);
  }
  EXPECT_EQ(p, b.size()) << path;
  EXPECT_EQ(out.size(), n) << path;
  return out;
}

const std::vector<Record>& Streams() {
  static const std::vector<Record> records = ReadRecords("lib/anim/test/data/meshopt/streams.bin", false);
  return records;
}

maniResult Decode(Bytes* out, const Record& r, const Bytes& src, uint32_t filter, size_t* errorOffset) {
  out->assign((size_t)r.count * r.stride, 0xCD);
  return maniMeshoptDecode(out->data(), r.count, r.stride, src.data(), src.size(), (maniMeshoptMode)r.mode,
                           (maniMeshoptFilter)filter, (maniMeshoptExtension)r.ext, errorOffset);
}

// -- Hand-made streams (the specifications' examples) -------------------------

// v0 attributes, stride 4, 16 elements: byte 0 in 4-bit sentinel coding with
// the specification's example bytes, bytes 1..3 all-zero groups, baseline
// (10, 20, 30, 40) in the 32-byte tail.
Bytes SpecExampleAttributes() {
  Bytes s = {0xa0};
  s.push_back(0x02);  // data block 0: one group, header bits 2 (4-bit)
  const uint8_t example[10] = {0x17, 0x5f, 0xf0, 0xbc, 0x77, 0xa9, 0x21, 0x00, 0x34, 0xb5};
  s.insert(s.end(), example, example + 10);
  for (int k = 1; k < 4; ++k) s.push_back(0x00);  // header bits 0: all deltas 0
  Bytes tail(32, 0);
  tail[28] = 10;
  tail[29] = 20;
  tail[30] = 30;
  tail[31] = 40;
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

TEST(Meshopt, SpecExampleDeltas) {
  Bytes s = SpecExampleAttributes();
  // The deltas the specification lists for those bytes, summed from 10.
  const int deltas[16] = {-1, -4, -3, 26, -91, 0, -6, 6, -4, -4, 5, -5, 1, -1, 0, 0};
  uint8_t out[64];
  size_t err = 12345;
  ASSERT_EQ(maniMeshoptDecode(out, 16, 4, s.data(), s.size(), maniMeshoptAttributes, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_success);
  int v = 10;
  for (int i = 0; i < 16; ++i) {
    v = (v + deltas[i]) & 255;
    EXPECT_EQ(out[4 * i], v) << i;
    EXPECT_EQ(out[4 * i + 1], 20) << i;
    EXPECT_EQ(out[4 * i + 2], 30) << i;
    EXPECT_EQ(out[4 * i + 3], 40) << i;
  }
  EXPECT_EQ(err, 12345u);  // untouched on success
}

// A header calling for more bytes than the data holds is refused where that
// read starts, and the output is left alone.
TEST(Meshopt, ShortReadsRefusedWhereTheyStart) {
  const Bytes good = SpecExampleAttributes();  // data blocks at 1, 12, 13, 14; tail at 15
  struct Patch {
    size_t at;
    uint8_t value;
    size_t expect;
  } patches[] = {
      {1, 0x03, 2},    // block 0 raw: 16 bytes from 2, 13 there
      {12, 0x03, 13},  // block 1 raw: 16 bytes from 13, 2 there
      {12, 0x02, 13},  // block 1 4-bit: 8 bytes from 13
      {14, 0x01, 15},  // block 3 2-bit: 4 bytes from 15 (the tail)
  };
  for (const Patch& p : patches) {
    Bytes s = good;
    s[p.at] = p.value;
    uint8_t out[64];
    memset(out, 0xEE, sizeof out);
    size_t err = 0;
    EXPECT_EQ(maniMeshoptDecode(out, 16, 4, s.data(), s.size(), maniMeshoptAttributes, maniMeshoptFilterNone,
                                maniMeshoptExt, &err),
              mani_errorFormat);
    EXPECT_EQ(err, p.expect) << p.at;
    for (uint8_t b : out) ASSERT_EQ(b, 0xEE);
  }
  // escape bytes: block 3 in 4-bit coding whose 8 packed bytes fit but whose
  // sentinels' escape bytes do not
  Bytes s = {0xa0, 0x00, 0x00, 0x00, 0x02, 0xff, 0, 0, 0, 0, 0, 0, 0};
  Bytes tail(32, 0);
  s.insert(s.end(), tail.begin(), tail.end());
  uint8_t out[64];
  size_t err = 0;
  EXPECT_EQ(maniMeshoptDecode(out, 16, 4, s.data(), s.size(), maniMeshoptAttributes, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_errorFormat);
  EXPECT_EQ(err, 13u);
  s.insert(s.begin() + 13, 2, 0x09);  // the two escapes: accepted
  ASSERT_EQ(maniMeshoptDecode(out, 16, 4, s.data(), s.size(), maniMeshoptAttributes, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_success);
  EXPECT_EQ(out[3], 0xfb);  // zigzag 9 = ~4 = -5 from 0, then -5 again
  EXPECT_EQ(out[7], 0xf6);
  EXPECT_EQ(out[11], 0xf6);
}

TEST(Meshopt, SpecExampleVarintsInIndices) {
  // 0x7f: baseline 1, delta ~(0x7f >> 2) = -32; 0x81 0x04 = 0x201: baseline 1,
  // delta 0x80. The specifications' third example, 0xff 0xa0 0x05 => 0x1fd005,
  // reads its groups most significant first, against their own "unsigned
  // LEB128" and the second example: as LEB128 it is 0x7f | 0x20 << 7 |
  // 0x05 << 14 = 0x1507f (baseline 1, bit 1 set: delta ~(0x1507f >> 2)), which
  // is what meshoptimizer's streams need (ReferenceStreamsDecode).
  const Bytes s = {0xd1, 0x7f, 0x81, 0x04, 0xff, 0xa0, 0x05, 0x04, 0, 0, 0, 0};
  uint8_t out[16];
  ASSERT_EQ(maniMeshoptDecode(out, 4, 4, s.data(), s.size(), maniMeshoptIndices, maniMeshoptFilterNone,
                              maniMeshoptExt, nullptr),
            mani_success);
  uint32_t got[4];
  memcpy(got, out, 16);
  uint32_t b1 = 0u - 32u;
  EXPECT_EQ(got[0], b1);
  b1 += 0x80u;
  EXPECT_EQ(got[1], b1);
  b1 += ~(0x1507fu >> 2);
  EXPECT_EQ(got[2], b1);
  EXPECT_EQ(got[3], 1u);  // 0x04: baseline 0, delta +1
  // stride 2 keeps each index modulo 2^16
  uint8_t out16[8];
  ASSERT_EQ(maniMeshoptDecode(out16, 4, 2, s.data(), s.size(), maniMeshoptIndices, maniMeshoptFilterNone,
                              maniMeshoptKhr, nullptr),
            mani_success);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out16[2 * i] | (out16[2 * i + 1] << 8), (int)(got[i] & 0xffff)) << i;
}

// Triangles by hand: 0xf0 with codeaux[0] = 0x00 (three new vertices), then
// 0x00 (edge 0 + next), 0x11 (edge 1 + vertex FIFO 1), 0x0d / 0x0e (last -/+ 1),
// 0x0f (explicit index), 0xfe (explicit triangle), 0xff with restart.
TEST(Meshopt, TrianglesByHand) {
  Bytes s = {0xe1, 0xf0, 0x00, 0x11, 0x0f, 0x0e, 0xfe, 0xff};
  // data: 0x0f's varint: zigzag +10 -> 20; 0xfe's byte 0x12 (z=1: FIFO 0, w=2: FIFO 1);
  // 0xff's byte 0x00 (restart next, z=w=0) and a's varint: zigzag -1 -> 1
  const uint8_t data[] = {20, 0x12, 0x00, 0x01};
  s.insert(s.end(), data, data + sizeof data);
  Bytes codeaux(16, 0);
  codeaux[0] = 0x00;
  codeaux[1] = 0x12;
  s.insert(s.end(), codeaux.begin(), codeaux.end());
  uint32_t out[21];
  ASSERT_EQ(maniMeshoptDecode(out, 21, 4, s.data(), s.size(), maniMeshoptTriangles, maniMeshoptFilterNone,
                              maniMeshoptExt, nullptr),
            mani_success);
  // Walk of the specification's rules:
  // t0 0xf0: a=0 b=1 c=2 (next 3); edges (1,0) (2,1) (0,2); vertices 0 1 2.
  // t1 0x00: edge 0 = (0,2), c = next = 3; edges (3,2) (0,3); vertex 3.
  // t2 0x11: edge 1 = (3,2)... edge FIFO latest first: (0,3), (3,2), ... -> X=1 is (3,2);
  //          c = vertex FIFO 1 = 2 (latest first: 3, 2, 1, 0); edges (2,2) (3,2).
  // t3 0x0f: edge 0 = (3,2), c = last + 10 = 10 (last = 10); edges (10,2) (3,10); vertex 10.
  // t4 0x0e: edge 0 = (3,10), c = last + 1 = 11; edges (11,10) (3,11); vertex 11.
  // t5 0xfe, byte 0x12: a = next = 4; b = FIFO 0 = 11; c = FIFO 1 = 10; vertex 4.
  // t6 0xff, byte 0x00: next = 0; a = last - 1 = 10; b = next = 0; c = next = 1.
  const uint32_t expect[21] = {0, 1, 2, 0, 2, 3, 3, 2, 2, 3, 2, 10, 3, 10, 11, 4, 11, 10, 10, 0, 1};
  for (int i = 0; i < 21; ++i) EXPECT_EQ(out[i], expect[i]) << i;
}

TEST(Meshopt, TrianglesReadingUnwrittenFifoEntriesRefused) {
  Bytes codeaux(16, 0);
  // edge FIFO empty
  Bytes s = {0xe1, 0x00};
  s.insert(s.end(), codeaux.begin(), codeaux.end());
  uint32_t out[3] = {7, 7, 7};
  size_t err = 0;
  EXPECT_EQ(maniMeshoptDecode(out, 3, 4, s.data(), s.size(), maniMeshoptTriangles, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_errorFormat);
  EXPECT_EQ(err, 1u);
  EXPECT_EQ(out[0], 7u);
  // three edges and three vertices written: edge 3 and vertex 3 are not
  const uint8_t bad[][2] = {{0xf0, 0x30}, {0xf0, 0x03}};
  for (const auto& codes : bad) {
    Bytes t = {0xe1, codes[0], codes[1]};
    t.insert(t.end(), codeaux.begin(), codeaux.end());
    uint32_t o[6];
    EXPECT_EQ(maniMeshoptDecode(o, 6, 4, t.data(), t.size(), maniMeshoptTriangles, maniMeshoptFilterNone,
                                maniMeshoptExt, &err),
              mani_errorFormat);
    EXPECT_EQ(err, 2u);
    t[2] = (uint8_t)(codes[1] == 0x30 ? 0x20 : 0x02);  // the last ones written are fine
    EXPECT_EQ(maniMeshoptDecode(o, 6, 4, t.data(), t.size(), maniMeshoptTriangles, maniMeshoptFilterNone,
                                maniMeshoptExt, &err),
              mani_success);
  }
  // 0xfY reading FIFO entry Z-1 before any vertex
  Bytes u = {0xe1, 0xf1};
  Bytes aux(16, 0);
  aux[1] = 0x10;
  u.insert(u.end(), aux.begin(), aux.end());
  uint32_t o3[3];
  EXPECT_EQ(maniMeshoptDecode(o3, 3, 4, u.data(), u.size(), maniMeshoptTriangles, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_errorFormat);
  EXPECT_EQ(err, 1u);
}

TEST(Meshopt, TrianglesCodeauxRulesRefused) {
  uint32_t out[3];
  size_t err = 0;
  for (int i = 0; i < 16; ++i) {
    for (int v : {0x0f, 0xf0, 0x01}) {
      if (i == 0 && v == 0x01) continue;  // 0xf0 would read an empty vertex FIFO
      Bytes s = {0xe1, 0xf0};
      Bytes codeaux(16, 0);
      codeaux[i] = (uint8_t)v;
      s.insert(s.end(), codeaux.begin(), codeaux.end());
      maniResult r = maniMeshoptDecode(out, 3, 4, s.data(), s.size(), maniMeshoptTriangles, maniMeshoptFilterNone,
                                       maniMeshoptExt, &err);
      bool refuse = v != 0x01 || i >= 14;  // a nibble 0xf, or the last two bytes not 0
      EXPECT_EQ(r, refuse ? mani_errorFormat : mani_success) << i << " " << v;
      if (refuse) {
        EXPECT_EQ(err, 2u + (size_t)i);
      }
    }
  }
}

TEST(Meshopt, VarintLongerThanFiveBytesRefused) {
  const Bytes s = {0xd1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0, 0, 0, 0};
  uint32_t out = 0;
  size_t err = 0;
  EXPECT_EQ(maniMeshoptDecode(&out, 1, 4, s.data(), s.size(), maniMeshoptIndices, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_errorFormat);
  EXPECT_EQ(err, 5u);
  // five bytes are fine; bits past the 32nd are dropped
  const Bytes t = {0xd1, 0x80, 0x80, 0x80, 0x80, 0x7f, 0, 0, 0, 0};
  ASSERT_EQ(maniMeshoptDecode(&out, 1, 4, t.data(), t.size(), maniMeshoptIndices, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_success);
  // v = 0xf0000000: baseline 0, delta (v >> 2) = 0x3c000000
  EXPECT_EQ(out, 0x3c000000u);
}

TEST(Meshopt, HeaderBytesAndVersions) {
  Bytes s = SpecExampleAttributes();
  uint8_t out[64];
  size_t err = 99;
  for (int h = 0; h < 256; ++h) {
    s[0] = (uint8_t)h;
    for (int ext = 0; ext < 2; ++ext) {
      maniResult r = maniMeshoptDecode(out, 16, 4, s.data(), s.size(), maniMeshoptAttributes, maniMeshoptFilterNone,
                                       (maniMeshoptExtension)ext, &err);
      if (h == 0xa0) {
        EXPECT_EQ(r, mani_success);
      } else if (h != 0xa1 || ext == 0) {
        EXPECT_EQ(r, mani_errorFormat) << h;  // 0xa1 (v1) is KHR's alone
        EXPECT_EQ(err, 0u);
      }
    }
  }
  const uint8_t tri[17] = {0xe0};
  EXPECT_EQ(maniMeshoptDecode(out, 0, 4, tri, 17, maniMeshoptTriangles, maniMeshoptFilterNone, maniMeshoptExt, &err),
            mani_errorFormat);
  const uint8_t idx[5] = {0xd0};
  EXPECT_EQ(maniMeshoptDecode(out, 0, 4, idx, 5, maniMeshoptIndices, maniMeshoptFilterNone, maniMeshoptExt, &err),
            mani_errorFormat);
  // empty streams of every mode (meshoptimizer's encoder output for count 0)
  const uint8_t idx0[5] = {0xd1, 0, 0, 0, 0};
  EXPECT_EQ(maniMeshoptDecode(nullptr, 0, 2, idx0, 5, maniMeshoptIndices, maniMeshoptFilterNone, maniMeshoptExt, &err),
            mani_success);
  EXPECT_EQ(maniMeshoptDecode(nullptr, 0, 2, idx0, 4, maniMeshoptIndices, maniMeshoptFilterNone, maniMeshoptExt, &err),
            mani_errorFormat);
  EXPECT_EQ(err, 4u);
}

TEST(Meshopt, V1ChannelModesChecked) {
  // KHR v1, stride 4, one element: control byte 0xaa (control mode 2: all
  // zero) for the four byte positions, tail = baseline (4) + channel mode
  // (1) padded to 24.
  for (int mode = 0; mode < 256; ++mode) {
    Bytes s = {0xa1, 0xaa};
    Bytes tail(24, 0);
    tail[19] = 1;
    tail[20] = 2;
    tail[21] = 3;
    tail[22] = 4;
    tail[23] = (uint8_t)mode;
    s.insert(s.end(), tail.begin(), tail.end());
    uint8_t out[4] = {9, 9, 9, 9};
    size_t err = 0;
    maniResult r = maniMeshoptDecode(out, 1, 4, s.data(), s.size(), maniMeshoptAttributes, maniMeshoptFilterNone,
                                     maniMeshoptKhr, &err);
    bool ok = mode == 0 || mode == 1 || (mode & 15) == 2;
    ASSERT_EQ(r, ok ? mani_success : mani_errorFormat) << mode;
    if (ok) {
      EXPECT_EQ(out[0], 1);
      EXPECT_EQ(out[3], 4);
    } else {
      EXPECT_EQ(err, s.size() - 1);
      EXPECT_EQ(out[0], 9);
    }
  }
}

TEST(Meshopt, ArgumentsRefused) {
  Bytes s = SpecExampleAttributes();
  uint8_t out[2048];
  size_t err = 77;
  auto call = [&](size_t count, size_t stride, int mode, int filter, int ext) {
    return maniMeshoptDecode(out, count, stride, s.data(), s.size(), (maniMeshoptMode)mode, (maniMeshoptFilter)filter,
                             (maniMeshoptExtension)ext, &err);
  };
  EXPECT_EQ(call(16, 4, 0, 0, 0), mani_success);
  for (size_t stride : {0, 1, 2, 3, 5, 6, 260, 512}) EXPECT_EQ(call(1, stride, 0, 0, 0), mani_errorInvalid) << stride;
  EXPECT_EQ(call(4, 4, 1, 0, 0), mani_errorInvalid);  // TRIANGLES count not a multiple of 3
  for (size_t stride : {1, 3, 8}) {
    EXPECT_EQ(call(3, stride, 1, 0, 0), mani_errorInvalid);
    EXPECT_EQ(call(3, stride, 2, 0, 0), mani_errorInvalid);
  }
  for (int filter = 1; filter <= 4; ++filter) {
    EXPECT_EQ(call(3, 4, 1, filter, 1), mani_errorInvalid);
    EXPECT_EQ(call(3, 4, 2, filter, 1), mani_errorInvalid);
  }
  EXPECT_EQ(call(1, 12, 0, 1, 0), mani_errorInvalid);  // OCTAHEDRAL: 4 or 8
  EXPECT_EQ(call(1, 4, 0, 2, 0), mani_errorInvalid);   // QUATERNION: 8
  EXPECT_EQ(call(1, 16, 0, 2, 0), mani_errorInvalid);
  EXPECT_EQ(call(1, 12, 0, 4, 1), mani_errorInvalid);  // COLOR: 4 or 8
  EXPECT_EQ(call(1, 4, 0, 4, 0), mani_errorInvalid);   // COLOR: KHR only
  EXPECT_EQ(call(1, 4, 0, 5, 1), mani_errorInvalid);   // unknown filter
  EXPECT_EQ(call(1, 4, 3, 0, 1), mani_errorInvalid);   // unknown mode
  EXPECT_EQ(call(1, 4, -1, 0, 1), mani_errorInvalid);
  EXPECT_EQ(call(1, 4, 0, 0, 2), mani_errorInvalid);   // unknown extension
  EXPECT_EQ(call(SIZE_MAX / 4 + 1, 4, 0, 0, 0), mani_errorInvalid);  // count * stride overflows
  EXPECT_EQ(call(SIZE_MAX / 2 + 1, 2, 2, 0, 0), mani_errorInvalid);
  EXPECT_EQ(maniMeshoptDecode(nullptr, 16, 4, s.data(), s.size(), maniMeshoptAttributes, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_errorInvalid);
  EXPECT_EQ(maniMeshoptDecode(out, 16, 4, nullptr, s.size(), maniMeshoptAttributes, maniMeshoptFilterNone,
                              maniMeshoptExt, &err),
            mani_errorInvalid);
  // src and dst overlapping
  Bytes both(200, 0);
  memcpy(both.data() + 64, s.data(), s.size());
  EXPECT_EQ(maniMeshoptDecode(both.data() + 10, 16, 4, both.data() + 64, s.size(), maniMeshoptAttributes,
                              maniMeshoptFilterNone, maniMeshoptExt, &err),
            mani_errorInvalid);
  EXPECT_EQ(maniMeshoptDecode(both.data(), 16, 4, both.data() + 64, s.size(), maniMeshoptAttributes,
                              maniMeshoptFilterNone, maniMeshoptExt, &err),
            mani_success);
  EXPECT_EQ(err, 77u);  // never written for an argument refusal
  // the JSON names
  EXPECT_EQ(maniMeshoptModeFromName("TRIANGLES", 9), 1);
  EXPECT_EQ(maniMeshoptModeFromName("TRIANGLE", 8), -1);
  EXPECT_EQ(maniMeshoptFilterFromName("COLOR", 5), 4);
  EXPECT_EQ(maniMeshoptFilterFromName("color", 5), -1);
  EXPECT_EQ(maniMeshoptFilterFromName(nullptr, 0), -1);
}

// -- Filters on hand-made elements ------------------------------------------------

// A one-element v0 stream of stride 4 or 8 whose element is e (all deltas 0
// from the baseline).
Bytes OneElementStream(const Bytes& e) {
  Bytes s = {0xa0};
  for (size_t k = 0; k < e.size(); ++k) s.push_back(0x00);
  Bytes tail(32, 0);
  memcpy(tail.data() + 32 - e.size(), e.data(), e.size());
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

Bytes Filter(const Bytes& element, maniMeshoptFilter filter) {
  Bytes s = OneElementStream(element);
  Bytes out(element.size(), 0);
  EXPECT_EQ(maniMeshoptDecode(out.data(), 1, element.size(), s.data(), s.size(), maniMeshoptAttributes, filter,
                              maniMeshoptKhr, nullptr),
            mani_success);
  return out;
}

float F32(const Bytes& b, size_t at) {
  float f;
  memcpy(&f, b.data() + at, 4);
  return f;
}

TEST(Meshopt, FiltersOnHandMadeElements) {
  // OCTAHEDRAL: (0, 0, 1.0) is +z; (0, 0) with K = 8 gives (0, 0, 127), w kept.
  EXPECT_EQ(Filter({0, 0, 127, 0x55}, maniMeshoptFilterOctahedral), Bytes({0, 0, 127, 0x55}));
  // x = 1.0 (127 of 127) lands on +x; the 16-bit form with K = 16 too.
  EXPECT_EQ(Filter({127, 0, 127, 1}, maniMeshoptFilterOctahedral), Bytes({127, 0, 0, 1}));
  EXPECT_EQ(Filter({0xff, 0x7f, 0, 0, 0xff, 0x7f, 7, 0}, maniMeshoptFilterOctahedral),
            Bytes({0xff, 0x7f, 0, 0, 0, 0, 7, 0}));
  // a 1.0 of 0 (unspecified): defined zeros, never a crash
  EXPECT_EQ(Filter({5, 9, 0, 3}, maniMeshoptFilterOctahedral), Bytes({0, 0, 0, 3}));
  // QUATERNION: the omitted component (index 3 in the low bits) is 1.0.
  EXPECT_EQ(Filter({0, 0, 0, 0, 0, 0, 0xff, 0x7f}, maniMeshoptFilterQuaternion),
            Bytes({0, 0, 0, 0, 0, 0, 0xff, 0x7f}));
  // index 0 omitted: the output's component 0 is 1.0, the others rotate in
  EXPECT_EQ(Filter({0, 0, 0, 0, 0, 0, 0xfc, 0x7f}, maniMeshoptFilterQuaternion),
            Bytes({0xff, 0x7f, 0, 0, 0, 0, 0, 0}));
  // EXPONENTIAL: 2^e * m exactly, e in [-128, 127]
  struct Exp {
    int e;
    int m;
    float expect;
  } exps[] = {{0, 1, 1.0f}, {-1, 3, 1.5f}, {-100, 1, std::ldexp(1.0f, -100)}, {100, -8388608, -std::ldexp(1.0f, 123)},
              {127, 1, std::ldexp(1.0f, 127)}, {-128, 1, std::ldexp(1.0f, -128)}, {-128, 3, std::ldexp(3.0f, -128)},
              {5, 0, 0.0f}, {-126, -5, std::ldexp(-5.0f, -126)}};
  for (const Exp& x : exps) {
    uint32_t v = ((uint32_t)(x.e & 255) << 24) | ((uint32_t)x.m & 0xffffff);
    Bytes e = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    Bytes out = Filter(e, maniMeshoptFilterExponential);
    float got = F32(out, 0);
    EXPECT_EQ(memcmp(&got, &x.expect, 4), 0) << x.e << " " << x.m << " " << got;
  }
  // COLOR: K = 8, alpha 0xff -> as 255; grey (200, 0, 0) stays grey
  EXPECT_EQ(Filter({200, 0, 0, 0xff}, maniMeshoptFilterColor), Bytes({200, 200, 200, 255}));
  // K = 4 (alpha 0x8 | 5): as = 15, scale 255 / 15 = 17; Y 10, Co 2, Cg -1
  // r = 10 + 2 + 1 = 13, g = 9, b = 10 - 2 + 1 = 9, a = (5 << 1) | 1 = 11
  EXPECT_EQ(Filter({10, 2, 0xff, 0x0d}, maniMeshoptFilterColor), Bytes({221, 153, 153, 187}));
  // alpha 0 (unspecified): defined values, no crash
  Bytes c0 = Filter({10, 2, 3, 0}, maniMeshoptFilterColor);
  EXPECT_EQ(c0, Bytes({255, 255, 255, 0}));  // r, g, b > 0 times +inf clamped; 0 * inf = NaN -> 0
}

// -- Reference streams ---------------------------------------------------------

int MaxComponentDifference(const Record& r, const Bytes& a, const Bytes& b) {
  int worst = 0;
  bool wide = r.stride == 8;
  for (size_t i = 0; i + (wide ? 1 : 0) < a.size(); i += wide ? 2 : 1) {
    int x, y;
    if (wide) {
      x = a[i] | (a[i + 1] << 8);
      y = b[i] | (b[i + 1] << 8);
      if (r.filter != maniMeshoptFilterColor) {
        x = (int16_t)x;
        y = (int16_t)y;
      }
    } else if (r.filter == maniMeshoptFilterColor) {
      x = a[i];
      y = b[i];
    } else {
      x = (int8_t)a[i];
      y = (int8_t)b[i];
    }
    worst = std::max(worst, std::abs(x - y));
  }
  return worst;
}

TEST(Meshopt, ReferenceStreamsDecode) {
  const std::vector<Record>& records = Streams();
  ASSERT_GT(records.size(), 200u);
  int filtered = 0, filteredExact = 0, worst = 0;
  for (const Record& r : records) {
    SCOPED_TRACE(r.name);
    Bytes out;
    size_t err = 0;
    ASSERT_EQ(Decode(&out, r, r.encoded, r.filter, &err), mani_success) << err;
    // the codec alone gives its input back (for filtered streams too)
    Bytes raw;
    ASSERT_EQ(Decode(&raw, r, r.encoded, maniMeshoptFilterNone, &err), mani_success);
    if (r.mode == maniMeshoptTriangles) {
      // the triangle codec may rotate a triangle's indices; meshoptimizer's
      // decode fixes which rotation
      EXPECT_EQ(raw, r.Decoded());
    } else {
      EXPECT_EQ(raw, r.input);
    }
    if (r.filter == maniMeshoptFilterNone || r.filter == maniMeshoptFilterExponential) {
      EXPECT_EQ(out, r.Decoded());  // bit for bit
      if (!r.RefRefused()) {
        EXPECT_EQ(out, r.Ref());
      }
    } else {
      // OCTAHEDRAL, QUATERNION, COLOR: specified to one unit in the last place
      ++filtered;
      int d = MaxComponentDifference(r, out, r.Decoded());
      EXPECT_LE(d, 1);
      if (!r.RefRefused()) {
        EXPECT_LE(MaxComponentDifference(r, out, r.Ref()), 1);
      }
      if (out == r.Decoded()) {
        ++filteredExact;
      } else {
        printf("%s: within %d unit of meshoptimizer's decode, not bit-equal\n", r.name.c_str(), d);
      }
      worst = std::max(worst, d);
    }
  }
  printf("filtered streams (octahedral, quaternion, color): %d, bit-equal to meshoptimizer's decode: %d, worst "
         "difference %d unit\n",
         filtered, filteredExact, worst);
}

// Every proper prefix of a stream is refused (its tail is then in the wrong
// place or missing), and dst stays as it was.
TEST(Meshopt, EveryTruncationRefused) {
  const std::vector<Record>& records = Streams();
  size_t tried = 0;
  for (size_t i = 0; i < records.size(); i += 3) {
    const Record& r = records[i];
    SCOPED_TRACE(r.name);
    for (size_t n = 0; n < r.encoded.size(); ++n) {
      Bytes cut(r.encoded.begin(), r.encoded.begin() + (long)n);
      Bytes out;
      size_t err = SIZE_MAX;
      maniResult res = Decode(&out, r, cut, r.filter, &err);
      if (res == mani_success) {
        // A prefix can only be accepted when it is itself a valid stream of
        // the same count: possible for empty and all-padding streams alone.
        EXPECT_TRUE(r.count <= 1 || r.mode == maniMeshoptAttributes) << n;
        continue;
      }
      ASSERT_EQ(res, mani_errorFormat) << n;
      EXPECT_LE(err, n);
      for (uint8_t b : out) ASSERT_EQ(b, 0xCD) << n;
      ++tried;
    }
  }
  EXPECT_GT(tried, 10000u);
}

TEST(Meshopt, EveryBytePatchGivesACode) {
  const std::vector<Record>& records = Streams();
  size_t refused = 0, accepted = 0;
  for (size_t i = 0; i < records.size(); i += 4) {
    const Record& r = records[i];
    SCOPED_TRACE(r.name);
    Bytes patched = r.encoded;
    for (size_t at = 0; at < patched.size(); ++at) {
      const uint8_t was = patched[at];
      const uint8_t values[4] = {(uint8_t)(was + 1), (uint8_t)(was - 1), 0, 0xff};
      for (uint8_t v : values) {
        if (v == was) continue;
        patched[at] = v;
        // exactly sized copy: a read past it trips ASan
        Bytes exact(patched);
        Bytes out;
        size_t err = SIZE_MAX;
        maniResult res = Decode(&out, r, exact, r.filter, &err);
        if (res == mani_success) {
          ++accepted;
        } else {
          ASSERT_EQ(res, mani_errorFormat);
          ASSERT_LT(err, exact.size() + 1);
          for (uint8_t b : out) ASSERT_EQ(b, 0xCD);
          ++refused;
        }
      }
      patched[at] = was;
    }
  }
  printf("patched streams: %zu refused, %zu decoded\n", refused, accepted);
  EXPECT_GT(refused, 1000u);
  EXPECT_GT(accepted, 1000u);
}

// A byte between the data and the tail is refused at its offset; so is a
// byte appended (the tail moves by one).
TEST(Meshopt, TrailingBytesRefused) {
  const std::vector<Record>& records = Streams();
  int checked = 0;
  for (const Record& r : records) {
    if (r.count == 0) continue;
    SCOPED_TRACE(r.name);
    size_t tail;
    if (r.mode == maniMeshoptAttributes) {
      bool v1 = r.encoded[0] == 0xa1;
      tail = v1 ? std::max<size_t>(r.stride + r.stride / 4, 24) : std::max<size_t>(r.stride, 32);
    } else {
      tail = r.mode == maniMeshoptTriangles ? 16 : 4;
    }
    size_t dataEnd = r.encoded.size() - tail;
    Bytes s = r.encoded;
    s.insert(s.begin() + (long)dataEnd, 0x00);
    Bytes out;
    size_t err = 0;
    ASSERT_EQ(Decode(&out, r, s, r.filter, &err), mani_errorFormat);
    EXPECT_EQ(err, dataEnd);
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

// -- The shared models' meshopt views ------------------------------------------------

// The shared data folder (data_testing.h).
std::string SharedData() { return MaulSharedData(); }

uint64_t Fnv1a64(const Bytes& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : b) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

TEST(Meshopt, SharedModelViews) {
  std::vector<Record> records = ReadRecords("lib/anim/test/data/meshopt/models.bin", true);
  ASSERT_GE(records.size(), 7u);
  std::string root = SharedData();
  Bytes probe;
  if (root.empty() || !ReadWholeFile(root + "/gltf/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  int decoded = 0;
  for (const Record& r : records) {
    SCOPED_TRACE(r.name);
    // "<file>#<view>@<offset>+<length>"
    size_t hash = r.name.find('#'), at = r.name.find('@'), plus = r.name.find('+');
    ASSERT_TRUE(hash != std::string::npos && at != std::string::npos && plus != std::string::npos);
    std::string file = r.name.substr(0, hash);
    size_t offset = strtoull(r.name.c_str() + at + 1, nullptr, 10);
    size_t length = strtoull(r.name.c_str() + plus + 1, nullptr, 10);
    Bytes bytes;
    ASSERT_TRUE(ReadWholeFile(root + "/gltf/" + file, &bytes)) << file;
    ASSERT_LE(offset + length, bytes.size());
    Bytes stream(bytes.begin() + (long)offset, bytes.begin() + (long)(offset + length));
    Bytes out;
    size_t err = 0;
    ASSERT_EQ(Decode(&out, r, stream, r.filter, &err), mani_success) << err;
    if (r.filter == maniMeshoptFilterNone) {
      EXPECT_EQ(Fnv1a64(out), r.hash);
    } else {
      // filtered: the codec's output is exact; the filter within one unit is
      // checked on the reference streams (the hash is of meshoptimizer's
      // filtered output, which this compares when they agree bit for bit)
      Bytes raw;
      ASSERT_EQ(Decode(&raw, r, stream, maniMeshoptFilterNone, &err), mani_success);
      printf("%s: filtered view, hash %s meshoptimizer's\n", r.name.c_str(),
             Fnv1a64(out) == r.hash ? "equal to" : "differs from");
    }
    ++decoded;
  }
  EXPECT_EQ(decoded, (int)records.size());
}

}  // namespace
