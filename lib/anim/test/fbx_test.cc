// import.h, the FBX document: maniOpenFbx (binary 32- and 64-bit records in
// either byte order, ASCII), maniCloseFbx, maniFbx_GetVersion,
// maniDefaultFbxOptions, maniFbx_ReadSettings, and the internal readers
// (fbx_internal.h: numbers, raw, deflated and ASCII arrays). Synthetic files
// come from a small writer here; every refusal has a test; truncation at
// every byte and byte patches of a binary and an ASCII file; allocation
// failure at every index; the shared files when ../shared/data is there.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "maul/anim/import.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

using Bytes = std::vector<uint8_t>;

// -- An allocator that counts, fails its Nth allocation and calls back in --------

struct Hooks {
  int allocations = 0;
  int failAt = -1;
  std::map<void*, size_t> live;
  maniFbx* fbx = nullptr;  // closed from the allocate hook when set
  bool closeInAllocate = false;
  bool queryInRelease = false;
  std::vector<uint32_t> queried;
};

void* TestAllocate(void* user, size_t size, size_t alignment) {
  Hooks* h = (Hooks*)user;
  int index = h->allocations++;
  if (h->fbx != nullptr && h->closeInAllocate) maniCloseFbx(h->fbx);
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
  if (h->fbx != nullptr && h->queryInRelease) {
    h->queried.push_back(maniFbx_GetVersion(h->fbx) + h->fbx->nodeCount + h->fbx->propCount);
    h->queried.push_back(mani_FbxFind(h->fbx, MANI_FBX_NONE, "FBXHeaderExtension") != MANI_FBX_NONE);
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
  }
  ~Builder() {
    maniDestroyBuilder(b);
    EXPECT_TRUE(hooks.live.empty()) << hooks.live.size() << " blocks leaked";
  }
};

// -- A binary writer -----------------------------------------------------------------

struct Rec {
  std::string name;
  Bytes props;  // serialized properties
  uint32_t count = 0;
  std::vector<Rec> kids;
};

struct Writer {
  uint32_t version = 7400;
  bool big = false;
  void Put(Bytes* b, uint64_t v, int n) const {
    for (int i = 0; i < n; i++) b->push_back((uint8_t)(v >> (8 * (big ? n - 1 - i : i))));
  }
  Rec R(const std::string& name) const {
    Rec r;
    r.name = name;
    return r;
  }
  void I(Rec* r, int32_t v) const {
    r->props.push_back('I');
    Put(&r->props, (uint32_t)v, 4);
    r->count++;
  }
  void D(Rec* r, double v) const {
    uint64_t bits;
    memcpy(&bits, &v, 8);
    r->props.push_back('D');
    Put(&r->props, bits, 8);
    r->count++;
  }
  void S(Rec* r, const std::string& s) const {
    r->props.push_back('S');
    Put(&r->props, s.size(), 4);
    r->props.insert(r->props.end(), s.begin(), s.end());
    r->count++;
  }
  // A binary64 array, deflated when asked (the header's size is the data's).
  void A(Rec* r, const std::vector<double>& v, bool deflate) const {
    Bytes raw;
    for (double d : v) {
      uint64_t bits;
      memcpy(&bits, &d, 8);
      Put(&raw, bits, 8);
    }
    Bytes data = raw;
    if (deflate) {
      uLongf n = compressBound(raw.size());
      data.resize(n);
      EXPECT_EQ(compress(data.data(), &n, raw.data(), raw.size()), Z_OK);
      data.resize(n);
    }
    r->props.push_back('d');
    Put(&r->props, v.size(), 4);
    Put(&r->props, deflate ? 1 : 0, 4);
    Put(&r->props, data.size(), 4);
    r->props.insert(r->props.end(), data.begin(), data.end());
    r->count++;
  }
  int W() const { return version >= 7500 ? 8 : 4; }
  void Record(Bytes* out, const Rec& r) const {
    size_t start = out->size();
    Put(out, 0, W());
    Put(out, r.count, W());
    Put(out, r.props.size(), W());
    out->push_back((uint8_t)r.name.size());
    out->insert(out->end(), r.name.begin(), r.name.end());
    out->insert(out->end(), r.props.begin(), r.props.end());
    if (!r.kids.empty()) {
      for (const Rec& k : r.kids) Record(out, k);
      for (int i = 0; i < 3 * W() + 1; i++) out->push_back(0);
    }
    Bytes end;
    Put(&end, out->size(), W());
    memcpy(out->data() + start, end.data(), W());
  }
  Bytes File(const std::vector<Rec>& top) const {
    Bytes out;
    const char magic[] = "Kaydara FBX Binary  ";
    out.insert(out.end(), magic, magic + 21);
    out.push_back(0x1A);
    out.push_back(big ? 1 : 0);
    Put(&out, version, 4);
    for (const Rec& r : top) Record(&out, r);
    for (int i = 0; i < 3 * W() + 1; i++) out.push_back(0);
    for (int i = 0; i < 16; i++) out.push_back(0xF8);  // a footer, never read
    return out;
  }
  // A file with a header extension, settings and one array.
  Bytes Sample(bool deflate = false) const {
    Rec ext = R("FBXHeaderExtension");
    Rec v = R("FBXVersion");
    I(&v, (int32_t)version);
    ext.kids.push_back(v);
    Rec gs = R("GlobalSettings");
    Rec p70 = R("Properties70");
    auto setting = [&](const char* name, int32_t value) {
      Rec p = R("P");
      S(&p, name);
      S(&p, "int");
      S(&p, "Integer");
      S(&p, "");
      I(&p, value);
      p70.kids.push_back(p);
    };
    setting("UpAxis", 2);
    setting("UpAxisSign", 1);
    setting("FrontAxis", 1);
    setting("FrontAxisSign", -1);
    setting("CoordAxis", 0);
    setting("CoordAxisSign", 1);
    Rec unit = R("P");
    S(&unit, "UnitScaleFactor");
    S(&unit, "double");
    S(&unit, "Number");
    S(&unit, "");
    D(&unit, 100.0);
    p70.kids.push_back(unit);
    setting("TimeMode", 11);
    gs.kids.push_back(p70);
    Rec objects = R("Objects");
    Rec geo = R("Geometry");
    Rec verts = R("Vertices");
    A(&verts, {1.0, -2.5, 3.25, 0.0}, deflate);
    geo.kids.push_back(verts);
    objects.kids.push_back(geo);
    return File({ext, gs, objects});
  }
};

Bytes Text(const std::string& s) { return Bytes(s.begin(), s.end()); }

const std::string kAscii =
    "; FBX 7.4.0 project file\n"
    "; a comment\n"
    "FBXHeaderExtension:  {\n"
    "\tFBXHeaderVersion: 1003\n"
    "\tFBXVersion: 7400\n"
    "}\n"
    "GlobalSettings:  {\n"
    "\tVersion: 1000\n"
    "\tProperties70:  {\n"
    "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",2\n"
    "\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"FrontAxis\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"FrontAxisSign\", \"int\", \"Integer\", \"\",-1\n"
    "\t\tP: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n"
    "\t\tP: \"CoordAxisSign\", \"int\", \"Integer\", \"\",1\n"
    "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",2.54\n"
    "\t\tP: \"TimeMode\", \"enum\", \"\", \"\",14\n"
    "\t\tP: \"CustomFrameRate\", \"double\", \"Number\", \"\",12.5\n"
    "\t}\n"
    "}\n"
    "Objects:  {\n"
    "\tGeometry: 123, \"Geometry::\", \"Mesh\" {\n"
    "\t\tVertices: *4 {\n"
    "\t\t\ta: 1,-2.5,\n"
    "\t\t\t+3.25e0, ; a comment inside\n"
    "\t\t\t.5\n"
    "\t\t}\n"
    "\t\tShading: T\n"
    "\t}\n"
    "}\n";

maniImportResult Open(maniBuilder* b, const Bytes& bytes, maniFbx** f) {
  return maniOpenFbx(b, bytes.data(), bytes.size(), f);
}

maniImportResult Refused(const Bytes& bytes) {
  Builder bl;
  maniFbx* f = (maniFbx*)0x1;
  maniImportResult r = Open(bl.b, bytes, &f);
  EXPECT_NE(r.result, mani_success);
  EXPECT_EQ(f, (maniFbx*)0x1) << "fbxOut written on failure";
  if (r.result == mani_success) maniCloseFbx(f);
  return r;
}

#define EXPECT_REFUSED(bytes, reason_, offset_)        \
  do {                                                 \
    maniImportResult r_ = Refused(bytes);              \
    EXPECT_EQ(r_.result, mani_errorFormat);            \
    EXPECT_EQ(r_.reason, (uint32_t)(reason_));         \
    EXPECT_EQ(r_.offset, (uint64_t)(offset_));         \
  } while (0)

struct Opened {
  Builder bl;
  maniFbx* f = nullptr;
  Bytes bytes;
  explicit Opened(const Bytes& b) : bytes(b) {
    maniImportResult r = Open(bl.b, bytes, &f);
    EXPECT_EQ(r.result, mani_success) << "reason " << r.reason << " offset " << r.offset;
  }
  ~Opened() { maniCloseFbx(f); }
};

uint64_t At(const std::string& text, const std::string& what) {
  size_t p = text.find(what);
  EXPECT_NE(p, std::string::npos) << what;
  return p;
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return s.replace(p, from.size(), to);
}

// Offset of a record's first byte (its name minus the header) in a binary file.
uint64_t RecordAt(const Bytes& b, const std::string& name, int w) {
  for (size_t i = 0; i + name.size() < b.size(); i++)
    if (b[i] == name.size() && memcmp(&b[i + 1], name.data(), name.size()) == 0) return i - 3 * w;
  ADD_FAILURE() << name;
  return 0;
}

// -- Options, defaults and NULLs ----------------------------------------------------------

TEST(Fbx, DefaultOptions) {
  maniFbxOptions o = maniDefaultFbxOptions();
  EXPECT_EQ(o.cookie, MANI_FBX_OPTIONS_COOKIE);
  EXPECT_EQ(o.cookieEnd, MANI_FBX_OPTIONS_COOKIE);
  EXPECT_EQ(o.abiVersion, (uint32_t)MANI_ABI_VERSION);
  EXPECT_EQ(o.up, (uint32_t)maniAxisPositiveY);
  EXPECT_EQ(o.front, (uint32_t)maniAxisPositiveZ);
  EXPECT_EQ(o.unitScale, 1.0f);
  EXPECT_EQ(o.foldPlacement, 0u);
  EXPECT_EQ(o.reserved[0], 0u);
  EXPECT_EQ(o.reserved[1], 0u);
  EXPECT_EQ(MANI_FBX_OPTIONS_COOKIE, 0x4D464F50u);
}

TEST(Fbx, NullArguments) {
  Builder bl;
  Bytes bytes = Writer().Sample();
  maniFbx* f = nullptr;
  EXPECT_EQ(maniOpenFbx(nullptr, bytes.data(), bytes.size(), &f).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenFbx(bl.b, nullptr, 5, &f).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenFbx(bl.b, bytes.data(), bytes.size(), nullptr).result, mani_errorInvalid);
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(maniFbx_GetVersion(nullptr), 0u);
  maniFbxSettings s;
  memset(&s, 0xAB, sizeof s);
  EXPECT_EQ(maniFbx_ReadSettings(nullptr, &s), mani_errorInvalid);
  EXPECT_EQ(s.up, 0xABABABABu) << "settings written on failure";
  maniCloseFbx(nullptr);
  // NULL bytes with size 0 is an empty text: no records, ASCII, default version
  ASSERT_EQ(maniOpenFbx(bl.b, nullptr, 0, &f).result, mani_success);
  EXPECT_EQ(maniFbx_GetVersion(f), 7400u);
  EXPECT_EQ(maniFbx_ReadSettings(f, nullptr), mani_errorInvalid);
  maniCloseFbx(f);
}

// -- Binary ---------------------------------------------------------------------------------

TEST(Fbx, OpensBinary7400And7500InBothByteOrders) {
  for (uint32_t version : {7400u, 7500u, 7700u, 6100u}) {
    for (bool big : {false, true}) {
      Writer w;
      w.version = version;
      w.big = big;
      Opened o(w.Sample());
      ASSERT_NE(o.f, nullptr);
      EXPECT_EQ(maniFbx_GetVersion(o.f), version);
      EXPECT_EQ(o.f->bigEndian, big ? 1 : 0);
      EXPECT_EQ(o.f->ascii, 0);
      uint32_t objects = mani_FbxFind(o.f, MANI_FBX_NONE, "Objects");
      uint32_t verts = mani_FbxFind(o.f, mani_FbxFind(o.f, objects, "Geometry"), "Vertices");
      ASSERT_NE(verts, MANI_FBX_NONE);
      ASSERT_EQ(mani_FbxArrayCount(o.f, verts), 4u);
      double v[4];
      ASSERT_EQ(mani_FbxReadArray(o.f, verts, v, 4).result, mani_success);
      EXPECT_EQ(v[0], 1.0);
      EXPECT_EQ(v[1], -2.5);
      EXPECT_EQ(v[2], 3.25);
      EXPECT_EQ(v[3], 0.0);
    }
  }
}

TEST(Fbx, DecodesDeflatedArraysLazily) {
  Writer w;
  Opened o(w.Sample(true));
  uint32_t verts = mani_FbxFind(o.f, mani_FbxFind(o.f, mani_FbxFind(o.f, MANI_FBX_NONE, "Objects"), "Geometry"),
                                "Vertices");
  const mani_FbxProp* p = mani_FbxGetProp(o.f, verts, 0);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->encoding, 1);
  double v[4] = {9, 9, 9, 9};
  ASSERT_EQ(mani_FbxReadArray(o.f, verts, v, 4).result, mani_success);
  EXPECT_EQ(v[0], 1.0);
  EXPECT_EQ(v[1], -2.5);
  EXPECT_EQ(v[2], 3.25);
  EXPECT_EQ(v[3], 0.0);
  EXPECT_EQ(mani_FbxReadArray(o.f, verts, v, 3).result, mani_errorInvalid);
  EXPECT_EQ(mani_FbxReadArray(o.f, verts, nullptr, 4).result, mani_errorInvalid);
}

TEST(Fbx, RefusesDeflatedStreamOfAnotherSizeAtDecode) {
  Writer w;
  Bytes b = w.Sample(true);
  // claim 3 elements: the stream gives 4 (more than the header's size)
  uint64_t at = RecordAt(b, "Vertices", 4) + 12 + 1 + 8 + 1;  // the count, past the type
  b[at] = 3;
  Opened o(b);
  uint32_t verts = mani_FbxFind(o.f, mani_FbxFind(o.f, mani_FbxFind(o.f, MANI_FBX_NONE, "Objects"), "Geometry"),
                                "Vertices");
  double v[4];
  maniImportResult r = mani_FbxReadArray(o.f, verts, v, 3);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  // corrupt the stream itself
  Bytes c = w.Sample(true);
  uint64_t data = RecordAt(c, "Vertices", 4) + 12 + 1 + 8 + 1 + 12;
  c[data] ^= 0xFF;
  Opened o2(c);
  r = mani_FbxReadArray(o2.f, verts, v, 4);
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonData);
  EXPECT_EQ(r.offset, data);
}

TEST(Fbx, RefusesDeflateBombBeforeSizingMemory) {
  Writer w;
  Bytes b = w.Sample(true);
  uint64_t at = RecordAt(b, "Vertices", 4) + 12 + 1 + 8 + 1;
  // 0x10000000 elements of 8 bytes from a stream of a few dozen bytes
  b[at] = 0;
  b[at + 1] = 0;
  b[at + 2] = 0;
  b[at + 3] = 0x10;
  EXPECT_REFUSED(b, maniImportReasonContainer, at);
}

TEST(Fbx, RefusesBadMagicEndiannessAndShortHeader) {
  Bytes b = Writer().Sample();
  for (size_t i : {0u, 5u, 19u, 20u}) {
    Bytes c = b;
    c[i] ^= 0x20;
    maniImportResult r = Refused(c);
    EXPECT_EQ(r.result, mani_errorFormat);
    // the first bytes decide binary; past them a wrong byte is the container's
    if (i >= 18) {
      EXPECT_EQ(r.reason, (uint32_t)maniImportReasonContainer) << i;
      EXPECT_EQ(r.offset, i);
    }
  }
  Bytes c = b;
  c[21] = 0x1B;
  EXPECT_REFUSED(c, maniImportReasonContainer, 21);
  c = b;
  c[22] = 2;
  EXPECT_REFUSED(c, maniImportReasonContainer, 22);
  EXPECT_REFUSED(Bytes(b.begin(), b.begin() + 25), maniImportReasonContainer, 23);
}

TEST(Fbx, RefusesVersionsOutOfRange) {
  for (uint32_t v : {2000u, 2999u, 7701u, 8000u}) {
    Writer w;
    w.version = v;
    Bytes b = w.File({});
    EXPECT_REFUSED(b, maniImportReasonVersion, 23);
  }
  // the header's 3000 replaced by FBXVersion: 5800 opens, 8000 is refused at the number
  Writer w;
  w.version = 3000;
  Rec ext = w.R("FBXHeaderExtension");
  Rec v = w.R("FBXVersion");
  w.I(&v, 5800);
  ext.kids.push_back(v);
  {
    Opened o(w.File({ext}));
    EXPECT_EQ(maniFbx_GetVersion(o.f), 5800u);
  }
  ext.kids[0].props.clear();
  ext.kids[0].count = 0;
  w.I(&ext.kids[0], 8000);
  Bytes b = w.File({ext});
  EXPECT_REFUSED(b, maniImportReasonVersion, RecordAt(b, "FBXVersion", 4) + 13 + 10 + 1);
}

TEST(Fbx, RefusesRecordsPastTheirBounds) {
  for (uint32_t version : {7400u, 7500u}) {
    Writer w;
    w.version = version;
    int W = w.W();
    Bytes b = w.Sample();
    uint64_t gs = RecordAt(b, "GlobalSettings", W);
    // end offset past the file
    Bytes c = b;
    c[gs + W - 1] = 0x7F;
    EXPECT_REFUSED(c, maniImportReasonContainer, gs);
    // end offset before its header
    c = b;
    for (int i = 0; i < W; i++) c[gs + i] = 0;
    c[gs] = 1;
    EXPECT_REFUSED(c, maniImportReasonContainer, gs);
    // a name longer than the record (a record without children)
    uint64_t leaf = RecordAt(b, "FBXVersion", W);
    c = b;
    c[leaf + 3 * W] = 0xFF;
    EXPECT_REFUSED(c, maniImportReasonContainer, leaf);
    // a property list longer than the record
    c = b;
    c[gs + 2 * W + W - 1] = 0x7F;
    EXPECT_REFUSED(c, maniImportReasonContainer, gs);
    // a property count above the list: the next type byte is past the list
    uint64_t v = RecordAt(b, "FBXVersion", W);
    c = b;
    c[v + W] = 2;
    EXPECT_REFUSED(c, maniImportReasonContainer, v + 3 * W + 1 + 10 + 5);
    // a property count below the list: bytes left over
    c = b;
    c[v + W] = 0;
    EXPECT_REFUSED(c, maniImportReasonContainer, v + 3 * W + 1 + 10);
    // an unknown type code
    c = b;
    c[v + 3 * W + 1 + 10] = 'Q';
    EXPECT_REFUSED(c, maniImportReasonContainer, v + 3 * W + 1 + 10);
    // a string longer than its list
    uint64_t p = RecordAt(b, "P", W);
    uint64_t s = p + 3 * W + 1 + 1;
    c = b;
    c[s + 1 + 3] = 0x7F;
    EXPECT_REFUSED(c, maniImportReasonContainer, s);
    // children not closed by a null record at the end offset
    uint64_t ext = RecordAt(b, "FBXHeaderExtension", W);
    uint64_t extEnd = 0;
    for (int i = W - 1; i >= 0; i--) extEnd = extEnd * 256 + b[ext + i];
    c = b;
    c[extEnd - 1] = 1;  // the null record's last byte (the name length)
    EXPECT_REFUSED(c, maniImportReasonContainer, extEnd - (3 * W + 1));
  }
}

TEST(Fbx, RefusesArrayHeaders) {
  Writer w;
  Bytes b = w.Sample();
  uint64_t at = RecordAt(b, "Vertices", 4) + 12 + 1 + 8 + 1;  // count, encoding, length
  Bytes c = b;
  c[at + 4] = 2;
  EXPECT_REFUSED(c, maniImportReasonContainer, at + 4);
  c = b;
  c[at] = 5;  // raw: 5 elements need 40 bytes, the length says 32
  EXPECT_REFUSED(c, maniImportReasonContainer, at + 8);
  c = b;
  c[at + 8] = 40;
  c[at] = 5;  // 40 bytes claimed, past the list
  EXPECT_REFUSED(c, maniImportReasonContainer, at - 1);
}

TEST(Fbx, RefusesNestingPastTheLimit) {
  Writer w;
  Rec deep = w.R("N");
  for (uint32_t i = 0; i < MANI_FBX_MAX_DEPTH + 2; i++) {
    Rec up = w.R("N");
    up.kids.push_back(deep);
    deep = up;
  }
  maniImportResult r = Refused(w.File({deep}));
  EXPECT_EQ(r.result, mani_errorFormat);
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonContainer);
  Rec ok = w.R("N");
  for (uint32_t i = 0; i + 2 < MANI_FBX_MAX_DEPTH; i++) {
    Rec up = w.R("N");
    up.kids.push_back(ok);
    ok = up;
  }
  Opened o(w.File({ok}));
}

TEST(Fbx, TopLevelListMayEndWithTheBytes) {
  Writer w;
  Bytes b = w.Sample();
  b.resize(b.size() - 16 - 13);  // no footer, no closing null record
  Opened o(b);
  EXPECT_NE(mani_FbxFind(o.f, MANI_FBX_NONE, "Objects"), MANI_FBX_NONE);
}

// -- ASCII ------------------------------------------------------------------------------------

TEST(Fbx, OpensAscii) {
  Opened o(Text(kAscii));
  ASSERT_NE(o.f, nullptr);
  EXPECT_EQ(o.f->ascii, 1);
  EXPECT_EQ(maniFbx_GetVersion(o.f), 7400u);
  uint32_t geo = mani_FbxFind(o.f, mani_FbxFind(o.f, MANI_FBX_NONE, "Objects"), "Geometry");
  ASSERT_NE(geo, MANI_FBX_NONE);
  EXPECT_EQ(o.f->nodes[geo].propCount, 3u);
  uint32_t n;
  const char* s = mani_FbxPropString(o.f, mani_FbxGetProp(o.f, geo, 1), &n);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(std::string(s, n), "Geometry::");
  int64_t id;
  ASSERT_TRUE(mani_FbxPropInt(o.f, mani_FbxGetProp(o.f, geo, 0), &id));
  EXPECT_EQ(id, 123);
  uint32_t verts = mani_FbxFind(o.f, geo, "Vertices");
  ASSERT_EQ(mani_FbxArrayCount(o.f, verts), 4u);
  double v[4];
  ASSERT_EQ(mani_FbxReadArray(o.f, verts, v, 4).result, mani_success);
  EXPECT_EQ(v[0], 1.0);
  EXPECT_EQ(v[1], -2.5);
  EXPECT_EQ(v[2], 3.25);
  EXPECT_EQ(v[3], 0.5);
  double t;
  ASSERT_TRUE(mani_FbxPropDouble(o.f, mani_FbxGetProp(o.f, mani_FbxFind(o.f, geo, "Shading"), 0), &t));
  EXPECT_EQ(t, 1.0);
}

TEST(Fbx, AsciiNumberForms) {
  std::string text = "Numbers: 01, -0, 1., 1e-3, 2E+2, inf, -Infinity, nan, -nan(ind), 1.#INF, -1.#IND, 1.#QNAN3\n";
  Opened o(Text(text));
  uint32_t n = mani_FbxFind(o.f, MANI_FBX_NONE, "Numbers");
  ASSERT_EQ(o.f->nodes[n].propCount, 12u);
  double d[12];
  for (uint32_t i = 0; i < 12; i++) ASSERT_TRUE(mani_FbxPropDouble(o.f, mani_FbxGetProp(o.f, n, i), &d[i])) << i;
  EXPECT_EQ(d[0], 1.0);
  EXPECT_EQ(d[1], 0.0);
  EXPECT_TRUE(std::signbit(d[1]));
  EXPECT_EQ(d[2], 1.0);
  EXPECT_EQ(d[3], 0.001);
  EXPECT_EQ(d[4], 200.0);
  EXPECT_EQ(d[5], HUGE_VAL);
  EXPECT_EQ(d[6], -HUGE_VAL);
  EXPECT_TRUE(std::isnan(d[7]));
  EXPECT_TRUE(std::isnan(d[8]));
  EXPECT_EQ(d[9], HUGE_VAL);
  EXPECT_TRUE(std::isnan(d[10]));
  EXPECT_TRUE(std::isnan(d[11]));
  // converting a string is refused; an integer past int64 too
  Opened s(Text("S: \"x\", 1e30\n"));
  uint32_t k = mani_FbxFind(s.f, MANI_FBX_NONE, "S");
  double x = 7;
  EXPECT_FALSE(mani_FbxPropDouble(s.f, mani_FbxGetProp(s.f, k, 0), &x));
  EXPECT_EQ(x, 7);
  int64_t i = 5;
  EXPECT_FALSE(mani_FbxPropInt(s.f, mani_FbxGetProp(s.f, k, 1), &i));
  EXPECT_EQ(i, 5);
}

TEST(Fbx, RefusesAsciiSyntax) {
  // an unclosed string, at its quote
  std::string t = "A: \"abc\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, 3);
  // a word of more than one letter
  t = "Children: \"Model::a\", Unquoted\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "Unquoted"));
  // a key without its colon
  t = "A: 1\nB 2\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "B"));
  // a closing brace without its opening
  t = "A: 1\n}\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "}"));
  // an opening brace never closed, at the brace
  t = "A: {\n B: 1\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "{"));
  // two values without a comma
  t = "A: 1 2\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "2"));
  // an array count without digits
  t = "A: *x {\n}\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "*"));
  // a number of the wrong form
  t = "A: 1.2.3\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "1.2.3"));
  t = "A: 1e\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "1e"));
  // a stray character
  t = "A: @\n";
  EXPECT_REFUSED(Text(t), maniImportReasonSyntax, At(t, "@"));
  // nesting past the limit
  std::string deep;
  for (uint32_t i = 0; i < MANI_FBX_MAX_DEPTH; i++) deep += "A: {\n";
  for (uint32_t i = 0; i < MANI_FBX_MAX_DEPTH; i++) deep += "}\n";
  maniImportResult r = Refused(Text(deep));
  EXPECT_EQ(r.reason, (uint32_t)maniImportReasonSyntax);
  EXPECT_EQ(r.offset, (MANI_FBX_MAX_DEPTH - 1) * 5 + 3);
}

TEST(Fbx, AsciiCommasAndComments) {
  std::string t = "A: ,1, ; comment\n 2,\nB: 3\nC: \"x;y\" ; not a string\nD:\nE: \n  4,5\r\n  ,6\n";
  Opened o(Text(t));
  EXPECT_EQ(o.f->nodes[mani_FbxFind(o.f, MANI_FBX_NONE, "A")].propCount, 2u);
  EXPECT_EQ(o.f->nodes[mani_FbxFind(o.f, MANI_FBX_NONE, "B")].propCount, 1u);
  uint32_t n;
  const char* s = mani_FbxPropString(o.f, mani_FbxGetProp(o.f, mani_FbxFind(o.f, MANI_FBX_NONE, "C"), 0), &n);
  EXPECT_EQ(std::string(s, n), "x;y");
  // a key without values; values on the line after their key
  EXPECT_EQ(o.f->nodes[mani_FbxFind(o.f, MANI_FBX_NONE, "D")].propCount, 0u);
  EXPECT_EQ(o.f->nodes[mani_FbxFind(o.f, MANI_FBX_NONE, "E")].propCount, 3u);
}

TEST(Fbx, AsciiVersions) {
  // the header comment wins over FBXVersion (as ufbx reads it)
  std::string t = Replace(kAscii, "; FBX 7.4.0", "; FBX 8.0.0");
  EXPECT_REFUSED(Text(t), maniImportReasonVersion, 6);
  t = Replace(kAscii, "; FBX 7.4.0", "; FBX 6.1.0");
  {
    Opened o(Text(t));
    EXPECT_EQ(maniFbx_GetVersion(o.f), 6100u);
  }
  // without the comment, FBXVersion
  t = Replace(Replace(kAscii, "; FBX 7.4.0 project file\n", ""), "FBXVersion: 7400", "FBXVersion: 7300");
  {
    Opened o(Text(t));
    EXPECT_EQ(maniFbx_GetVersion(o.f), 7300u);
  }
  t = Replace(Replace(kAscii, "; FBX 7.4.0 project file\n", ""), "FBXVersion: 7400", "FBXVersion: 2500");
  EXPECT_REFUSED(Text(t), maniImportReasonVersion, At(t, "2500"));
}

// -- Settings ---------------------------------------------------------------------------------

TEST(Fbx, SettingsDefaultsWhereTheFileIsSilent) {
  Opened o(Text("A: 1\n"));
  maniFbxSettings s;
  ASSERT_EQ(maniFbx_ReadSettings(o.f, &s), mani_success);
  EXPECT_EQ(s.right, (uint32_t)maniAxisPositiveX);
  EXPECT_EQ(s.up, (uint32_t)maniAxisPositiveY);
  EXPECT_EQ(s.front, (uint32_t)maniAxisPositiveZ);
  EXPECT_EQ(s.unitMetres, 0.01f);
  EXPECT_EQ(s.frameRate, 30.0f);
  EXPECT_EQ(s.timeMode, 0u);
  EXPECT_EQ(s.fromFile, 0u);
}

TEST(Fbx, SettingsFromBinaryAndAscii) {
  for (bool big : {false, true}) {
    Writer w;
    w.big = big;
    Opened o(w.Sample());
    maniFbxSettings s;
    ASSERT_EQ(maniFbx_ReadSettings(o.f, &s), mani_success);
    EXPECT_EQ(s.right, (uint32_t)maniAxisPositiveX);
    EXPECT_EQ(s.up, (uint32_t)maniAxisPositiveZ);
    EXPECT_EQ(s.front, (uint32_t)maniAxisNegativeY);
    EXPECT_EQ(s.unitMetres, 1.0f);
    EXPECT_EQ(s.frameRate, 24.0f);
    EXPECT_EQ(s.timeMode, 11u);
    EXPECT_EQ(s.fromFile, MANI_FBX_SETTINGS_AXES | MANI_FBX_SETTINGS_UNIT | MANI_FBX_SETTINGS_FRAME_RATE);
  }
  Opened a(Text(kAscii));
  maniFbxSettings s;
  ASSERT_EQ(maniFbx_ReadSettings(a.f, &s), mani_success);
  EXPECT_EQ(s.up, (uint32_t)maniAxisPositiveZ);
  EXPECT_EQ(s.front, (uint32_t)maniAxisNegativeY);
  EXPECT_EQ(s.unitMetres, (float)(2.54 / 100.0));
  EXPECT_EQ(s.frameRate, 12.5f);
  EXPECT_EQ(s.timeMode, 14u);
}

TEST(Fbx, SettingsSixOneAndRefusedValues) {
  std::string t =
      "; FBX 6.1.0 project file\nObjects:  {\n GlobalSettings:  {\n  Properties60:  {\n"
      "   Property: \"UpAxis\", \"int\", \"\",1\n   Property: \"UpAxisSign\", \"int\", \"\",1\n"
      "   Property: \"FrontAxis\", \"int\", \"\",1\n   Property: \"FrontAxisSign\", \"int\", \"\",1\n"
      "   Property: \"CoordAxis\", \"int\", \"\",0\n   Property: \"CoordAxisSign\", \"int\", \"\",1\n"
      "   Property: \"UnitScaleFactor\", \"double\", \"\",-3\n   Property: \"TimeMode\", \"enum\", \"\",6\n"
      "  }\n }\n}\n";
  Opened o(Text(t));
  maniFbxSettings s;
  ASSERT_EQ(maniFbx_ReadSettings(o.f, &s), mani_success);
  // up and front on one line: the axes are FBX's defaults; a negative unit too
  EXPECT_EQ(s.up, (uint32_t)maniAxisPositiveY);
  EXPECT_EQ(s.front, (uint32_t)maniAxisPositiveZ);
  EXPECT_EQ(s.unitMetres, 0.01f);
  EXPECT_EQ(s.frameRate, 30.0f);
  EXPECT_EQ(s.timeMode, 6u);
  EXPECT_EQ(s.fromFile, MANI_FBX_SETTINGS_FRAME_RATE);
  t = Replace(Replace(t, "\"FrontAxis\", \"int\", \"\",1", "\"FrontAxis\", \"int\", \"\",2"), "\",6\n", "\",13\n");
  Opened p(Text(t));
  ASSERT_EQ(maniFbx_ReadSettings(p.f, &s), mani_success);
  EXPECT_EQ(s.up, (uint32_t)maniAxisPositiveY);
  EXPECT_EQ(s.front, (uint32_t)maniAxisPositiveZ);
  EXPECT_EQ(s.fromFile, MANI_FBX_SETTINGS_AXES | MANI_FBX_SETTINGS_FRAME_RATE);
  EXPECT_EQ(s.frameRate, (float)(24000.0 / 1001.0));
}

// -- Models and bone names -----------------------------------------------------------------------

std::string BoneName(const maniFbx* f, uint32_t m) {
  size_t n = 99;
  const char* s = maniFbx_GetModelBoneName(f, m, &n);
  if (s == nullptr) return n == 0 ? "<null>" : "<null, length set>";
  return std::string(s, n);
}

TEST(Fbx, BinaryModelsAndBoneNames) {
  Writer w;
  Rec objects = w.R("Objects");
  auto model = [&](const std::string& name) {
    Rec m = w.R("Model");
    m.props.push_back('L');
    w.Put(&m.props, 42, 8);
    m.count++;
    w.S(&m, name.empty() ? std::string() : name + std::string("\0\1Model", 7));
    w.S(&m, "LimbNode");
    objects.kids.push_back(m);
  };
  model("Hips");
  model("Hips");
  model("");
  model("Hips#1");
  model("Spine");
  objects.kids.push_back(w.R("Geometry"));
  Opened o(w.File({objects}));
  ASSERT_EQ(maniFbx_GetModelCount(o.f), 5u);
  EXPECT_EQ(BoneName(o.f, 0), "Hips");
  EXPECT_EQ(BoneName(o.f, 1), "Hips#1");
  EXPECT_EQ(BoneName(o.f, 2), "#2");
  EXPECT_EQ(BoneName(o.f, 3), "Hips#1#3");
  EXPECT_EQ(BoneName(o.f, 4), "Spine");
  EXPECT_EQ(BoneName(o.f, 5), "<null>");
  ASSERT_EQ(maniFbx_GetRenamedCount(o.f), 3u);
  EXPECT_EQ(maniFbx_GetRenamedModel(o.f, 0), 1u);
  EXPECT_EQ(maniFbx_GetRenamedModel(o.f, 1), 2u);
  EXPECT_EQ(maniFbx_GetRenamedModel(o.f, 2), 3u);
  EXPECT_EQ(maniFbx_GetRenamedModel(o.f, 3), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetModelCount(nullptr), 0u);
  EXPECT_EQ(maniFbx_GetRenamedCount(nullptr), 0u);
  EXPECT_EQ(maniFbx_GetRenamedModel(nullptr, 0), UINT32_MAX);
  size_t n = 5;
  EXPECT_EQ(maniFbx_GetModelBoneName(nullptr, 0, &n), nullptr);
  EXPECT_EQ(n, 0u);
}

TEST(Fbx, AsciiAndLegacyModels) {
  // 7.x / 6.x: Objects' models, "Model::" taken off; legacy: top-level models after them
  Opened o(Text("Objects: {\n Model: 1, \"Model::Arm\", \"LimbNode\" {\n }\n Model: \"Model::Leg\", \"Limb\" {\n }\n}\n"
                "Model: \"Model::Old\" {\n}\nModel: \"NoClass\" {\n}\n"));
  ASSERT_EQ(maniFbx_GetModelCount(o.f), 4u);
  EXPECT_EQ(BoneName(o.f, 0), "Arm");
  EXPECT_EQ(BoneName(o.f, 1), "Leg");
  EXPECT_EQ(BoneName(o.f, 2), "Old");
  EXPECT_EQ(BoneName(o.f, 3), "NoClass");
  EXPECT_EQ(maniFbx_GetRenamedCount(o.f), 0u);
}

// -- Skins ------------------------------------------------------------------------------------

TEST(Fbx, BinarySkinsTheirModelsAndMethods) {
  Writer w;
  Rec objects = w.R("Objects");
  auto object = [&](const char* kind, int64_t id, const std::string& name, const char* sub) {
    Rec m = w.R(kind);
    m.props.push_back('L');
    w.Put(&m.props, (uint64_t)id, 8);
    m.count++;
    w.S(&m, name + std::string("\0\1", 2) + kind);
    w.S(&m, sub);
    return m;
  };
  objects.kids.push_back(object("Model", 10, "Body", "Mesh"));
  objects.kids.push_back(object("Geometry", 20, "", "Mesh"));
  Rec dq = object("Deformer", 30, "", "Skin");
  Rec type = w.R("SkinningType");
  w.S(&type, "DualQuaternion");
  dq.kids.push_back(type);
  objects.kids.push_back(dq);
  Rec blend = object("Deformer", 31, "", "Skin");
  Rec weights = w.R("BlendWeights");
  w.A(&weights, {0.5, 1.0}, true);
  blend.kids.push_back(weights);
  objects.kids.push_back(blend);
  objects.kids.push_back(object("Deformer", 32, "", "Cluster"));
  objects.kids.push_back(object("Deformer", 33, "", "Skin"));
  Rec connections = w.R("Connections");
  auto connect = [&](int64_t child, int64_t parent) {
    Rec c = w.R("C");
    w.S(&c, "OO");
    c.props.push_back('L');
    w.Put(&c.props, (uint64_t)child, 8);
    c.props.push_back('L');
    w.Put(&c.props, (uint64_t)parent, 8);
    c.count += 2;
    connections.kids.push_back(c);
  };
  connect(30, 0);  // the root first: not a geometry
  connect(30, 20);
  connect(20, 10);
  connect(31, 99);  // a geometry that is not there
  connect(33, 20);
  Opened o(w.File({objects, connections}));
  ASSERT_EQ(maniFbx_GetSkinCount(o.f), 3u);
  EXPECT_EQ(maniFbx_GetSkinModel(o.f, 0), 0u);
  EXPECT_EQ(maniFbx_GetSkinModel(o.f, 1), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetSkinModel(o.f, 2), 0u);
  EXPECT_EQ(maniFbx_GetSkinModel(o.f, 3), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetSkinMethod(o.f, 0), maniSkinningDualQuaternion);
  EXPECT_EQ(maniFbx_GetSkinMethod(o.f, 1), maniSkinningBlended);
  EXPECT_EQ(maniFbx_GetSkinMethod(o.f, 2), maniSkinningLinear);
  EXPECT_EQ(maniFbx_GetSkinMethod(o.f, 3), maniSkinningLinear);
  EXPECT_EQ(maniFbx_GetSkinCount(nullptr), 0u);
  EXPECT_EQ(maniFbx_GetSkinModel(nullptr, 0), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetSkinMethod(nullptr, 0), maniSkinningLinear);
}

TEST(Fbx, SixOneSkinsConnectByName) {
  Opened o(Text("; FBX 6.1.0 project file\nObjects:  {\n Model: \"Model::Bone\", \"Limb\" {\n }\n"
                " Model: \"Model::Body\", \"Mesh\" {\n }\n"
                " Deformer: \"Deformer::Skin Body\", \"Skin\" {\n  SkinningType: \"Blend\"\n }\n"
                " Deformer: \"Deformer::Skin Other\", \"Skin\" {\n  SkinningType: \"Rigid\"\n }\n}\n"
                "Connections:  {\n Connect: \"OO\", \"Deformer::Skin Body\", \"Model::Body\"\n"
                " Connect: \"OO\", \"Deformer::Skin Other\", \"Model::Nobody\"\n}\n"));
  ASSERT_EQ(maniFbx_GetSkinCount(o.f), 2u);
  EXPECT_EQ(maniFbx_GetSkinModel(o.f, 0), 1u);
  EXPECT_EQ(maniFbx_GetSkinModel(o.f, 1), UINT32_MAX);
  EXPECT_EQ(maniFbx_GetSkinMethod(o.f, 0), maniSkinningBlended);
  EXPECT_EQ(maniFbx_GetSkinMethod(o.f, 1), maniSkinningLinear);
}

// -- Close ------------------------------------------------------------------------------------

TEST(Fbx, CloseReadsEmptyFromItsFirstLineAndRefusesReentry) {
  Builder bl;
  maniFbx* f = nullptr;
  Bytes b = Writer().Sample();
  ASSERT_EQ(Open(bl.b, b, &f).result, mani_success);
  bl.hooks.fbx = f;
  bl.hooks.queryInRelease = true;
  maniCloseFbx(f);
  ASSERT_FALSE(bl.hooks.queried.empty());
  for (uint32_t q : bl.hooks.queried) EXPECT_EQ(q, 0u);
  // called back in from the allocator: nothing closed, one misuse
  bl.hooks.fbx = nullptr;
  bl.hooks.queryInRelease = false;
  ASSERT_EQ(Open(bl.b, b, &f).result, mani_success);
  uint32_t misuse = maniBuilder_GetMisuse(bl.b);
  bl.hooks.fbx = f;
  bl.hooks.closeInAllocate = true;
  maniFbx* g = nullptr;
  EXPECT_EQ(Open(bl.b, b, &g).result, mani_success);
  bl.hooks.closeInAllocate = false;
  bl.hooks.fbx = nullptr;
  EXPECT_GT(maniBuilder_GetMisuse(bl.b), misuse);
  EXPECT_EQ(maniFbx_GetVersion(f), 7400u);
  maniCloseFbx(g);
  maniCloseFbx(f);
}

// -- Exhaustive mutation -------------------------------------------------------------------------

// Opens every prefix and every one-byte patch; each either opens (and its
// arrays decode or are refused) or is refused with a format reason.
void Mutate(const Bytes& file, std::vector<uint8_t> patches) {
  Builder bl;
  auto check = [&](const Bytes& b) {
    maniFbx* f = nullptr;
    maniImportResult r = Open(bl.b, b, &f);
    if (r.result == mani_success) {
      for (uint32_t i = 0; i < f->nodeCount; i++) {
        uint32_t n = mani_FbxArrayCount(f, i);
        if (n == 0 || n > 4096) continue;
        std::vector<double> v(n);
        maniImportResult a = mani_FbxReadArray(f, i, v.data(), n);
        EXPECT_TRUE(a.result == mani_success || a.result == mani_errorFormat);
      }
      maniFbxSettings s;
      EXPECT_EQ(maniFbx_ReadSettings(f, &s), mani_success);
      maniCloseFbx(f);
    } else {
      EXPECT_EQ(r.result, mani_errorFormat);
      EXPECT_LE(r.offset, b.size());
    }
  };
  for (size_t n = 0; n < file.size(); n++) check(Bytes(file.begin(), file.begin() + n));
  for (size_t i = 0; i < file.size(); i++)
    for (uint8_t x : patches) {
      Bytes b = file;
      b[i] ^= x;
      check(b);
    }
}

TEST(Fbx, TruncationAndPatchesBinary) {
  Writer w;
  Mutate(w.Sample(true), {0x01, 0x80, 0xFF});
  w.version = 7500;
  w.big = true;
  Mutate(w.Sample(), {0x01, 0x80, 0xFF});
}

TEST(Fbx, TruncationAndPatchesAscii) { Mutate(Text(kAscii), {0x01, 0x80, 0xFF}); }

TEST(Fbx, AllocationFailureAtEveryIndex) {
  for (const Bytes& file : {Writer().Sample(true), Text(kAscii)}) {
    int total;
    {
      Builder bl;
      maniFbx* f = nullptr;
      ASSERT_EQ(Open(bl.b, file, &f).result, mani_success);
      int before = bl.hooks.allocations;
      uint32_t verts = mani_FbxFind(f, mani_FbxFind(f, mani_FbxFind(f, MANI_FBX_NONE, "Objects"), "Geometry"),
                                    "Vertices");
      double v[4];
      EXPECT_EQ(mani_FbxReadArray(f, verts, v, 4).result, mani_success);
      total = bl.hooks.allocations;
      EXPECT_GE(total, before);
      maniCloseFbx(f);
    }
    ASSERT_GT(total, 1);
    for (int i = 0; i < total; i++) {
      Builder bl;
      bl.hooks.failAt = i;
      maniFbx* f = (maniFbx*)0x1;
      maniImportResult r = Open(bl.b, file, &f);
      if (r.result != mani_success) {
        EXPECT_EQ(r.result, mani_errorCapacity) << i;
        EXPECT_EQ(f, (maniFbx*)0x1);
        continue;
      }
      uint32_t verts = mani_FbxFind(f, mani_FbxFind(f, mani_FbxFind(f, MANI_FBX_NONE, "Objects"), "Geometry"),
                                    "Vertices");
      double v[4];
      maniImportResult a = mani_FbxReadArray(f, verts, v, 4);
      EXPECT_TRUE(a.result == mani_errorCapacity || a.result == mani_success) << i;
      maniCloseFbx(f);
    }
  }
}

// -- Shared files ----------------------------------------------------------------------------------

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

// Every shared file: its expected result (the README's refusals) and version.
TEST(Fbx, SharedFilesOpenOrAreRefusedWithTheirReason) {
  std::string root = SharedData();
  Bytes probe;
  if (root.empty() || !ReadFile(root + "/fbx/README.md", &probe)) GTEST_SKIP() << "no ../shared/data";
  const std::map<std::string, uint32_t> refused = {
      {"synthetic_unsupported_cube_2000_binary.fbx", maniImportReasonVersion},
      {"synthetic_unsupported_cube_8000_ascii.fbx", maniImportReasonVersion},
      {"synthetic_legacy_unquoted_child_fail_5800_ascii.fbx", maniImportReasonSyntax},
      {"synthetic_truncated_quot_fail_7500_ascii.fbx", maniImportReasonSyntax},
      {"synthetic_node_depth_fail_7400_binary.fbx", maniImportReasonContainer},
      {"synthetic_node_cycle_fail_7700_ascii.fbx", maniImportReasonProperty},  // a parent cycle A > D > C > B > A
  };
  std::vector<std::string> names;
  for (const char* dir : {"", "blender_axes/"}) {
    DIR* d = opendir((root + "/fbx/" + dir).c_str());
    ASSERT_NE(d, nullptr);
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".fbx") == 0) names.push_back(dir + name);
    }
    closedir(d);
  }
  int files = 0, modelRows = 0, skinRows = 0;
  std::string readme(probe.begin(), probe.end());
  for (std::string name : names) {
    Bytes b;
    ASSERT_TRUE(ReadFile(root + "/fbx/" + name, &b));
    name = name.substr(name.rfind('/') + 1);
    files++;
    Builder bl;
    maniFbx* f = nullptr;
    maniImportResult r = Open(bl.b, b, &f);
    auto it = refused.find(name);
    if (it != refused.end()) {
      EXPECT_EQ(r.result, mani_errorFormat) << name;
      EXPECT_EQ(r.reason, it->second) << name << " offset " << r.offset;
      continue;
    }
    ASSERT_EQ(r.result, mani_success) << name << " reason " << r.reason << " offset " << r.offset;
    // the version in the name (the binary header's or FBXVersion, ASCII's header comment)
    size_t u = name.find("_binary");
    if (u == std::string::npos) u = name.find("_ascii");
    uint32_t v = (uint32_t)atoi(name.substr(u - 4, 4).c_str());
    EXPECT_EQ(maniFbx_GetVersion(f), v) << name;
    EXPECT_EQ(f->ascii, name.find("_ascii") != std::string::npos ? 1 : 0) << name;
    maniFbxSettings s;
    EXPECT_EQ(maniFbx_ReadSettings(f, &s), mani_success);
    // the model count the README's scanner found ("*[N models")
    size_t row = readme.find("`" + name + "`");
    if (row != std::string::npos) {
      size_t end = readme.find('\n', row);
      size_t at = readme.find("*[", row);
      if (at != std::string::npos && at < end) {
        size_t models = readme.find(" models", at);
        if (models != std::string::npos && models < end && models < readme.find(']', at)) {
          size_t num = readme.rfind(' ', models - 1);
          if (readme[at + 2] >= '0' && readme[at + 2] <= '9' && (num == std::string::npos || num < at)) num = at + 1;
          uint32_t want = (uint32_t)atoi(readme.substr(num + 1, models - num - 1).c_str());
          EXPECT_EQ(maniFbx_GetModelCount(f), want) << name;
          modelRows++;
        }
      }
    }
    // the skin count the scanner found (" skins"), each with its mesh model
    if (row != std::string::npos) {
      size_t end = readme.find('\n', row);
      size_t at = readme.find("*[", row);
      if (at != std::string::npos && at < end && readme.compare(at, 4, "*[(n") != 0) {
        size_t close = readme.find(']', at);
        size_t skins = readme.find(" skins", at);
        uint32_t want = 0;
        if (skins != std::string::npos && skins < close) {
          size_t num = readme.rfind(' ', skins - 1);
          want = (uint32_t)atoi(readme.substr(num + 1, skins - num - 1).c_str());
        }
        // the scanner counted Deformer skins; the README tells a legacy skin ("the mesh model Box01 holds
        // one `Link` record per bone") in its words: one skin, the Links its clusters
        size_t legacy = readme.find("legacy skin: the mesh model", row);
        if (legacy != std::string::npos && legacy < end) want = 1;
        EXPECT_EQ(maniFbx_GetSkinCount(f), want) << name;
        skinRows += want > 0;
        for (uint32_t k = 0; k < maniFbx_GetSkinCount(f); k++)
          EXPECT_LT(maniFbx_GetSkinModel(f, k), maniFbx_GetModelCount(f)) << name << " skin " << k;
      }
    }
    if (name == "maya_dual_quaternion_7500_ascii.fbx") {
      EXPECT_EQ(maniFbx_GetSkinMethod(f, 0), maniSkinningDualQuaternion);
    }
    if (name == "maya_dq_weights_7500_binary.fbx") {
      EXPECT_EQ(maniFbx_GetSkinMethod(f, 0), maniSkinningBlended);
    }
    if (name == "blender_279_sausage_7400_binary.fbx") {
      EXPECT_EQ(maniFbx_GetSkinMethod(f, 0), maniSkinningLinear);
    }
    std::set<std::string> seen;
    for (uint32_t m = 0; m < maniFbx_GetModelCount(f); m++) EXPECT_TRUE(seen.insert(BoneName(f, m)).second) << name;
    // every array decodes (deflated ones through zlib) to its count
    for (uint32_t i = 0; i < f->nodeCount; i++) {
      uint32_t n = mani_FbxArrayCount(f, i);
      if (n == 0) continue;
      std::vector<double> values(n);
      maniImportResult a = mani_FbxReadArray(f, i, values.data(), n);
      EXPECT_EQ(a.result, mani_success) << name << " node " << i << " offset " << a.offset;
    }
    maniCloseFbx(f);
  }
  EXPECT_EQ(files, 91);
  EXPECT_GE(modelRows, 60);
  EXPECT_GE(skinRows, 15);
}

// Settings of shared files whose axes and units the README names.
TEST(Fbx, SharedFileSettings) {
  std::string root = SharedData();
  Bytes b;
  if (root.empty() || !ReadFile(root + "/fbx/blender_340_z_up_7400_binary.fbx", &b)) GTEST_SKIP();
  Builder bl;
  maniFbx* f = nullptr;
  ASSERT_EQ(Open(bl.b, b, &f).result, mani_success);
  maniFbxSettings s;
  ASSERT_EQ(maniFbx_ReadSettings(f, &s), mani_success);
  EXPECT_EQ(s.up, (uint32_t)maniAxisPositiveZ);
  EXPECT_NE(s.fromFile & MANI_FBX_SETTINGS_AXES, 0u);
  maniCloseFbx(f);
}

}  // namespace

namespace {

// Exhaustive truncation and byte patches of two shared binary files (32-bit
// records, one 64-bit) and one shared ASCII file.
TEST(Fbx, SharedFilesTruncatedAndPatched) {
  std::string root = SharedData();
  Bytes b;
  if (root.empty() || !ReadFile(root + "/fbx/README.md", &b)) GTEST_SKIP() << "no ../shared/data";
  for (const char* name : {"max2009_cube_anim_5800_binary.fbx", "maya_anim_light_7500_binary.fbx",
                           "blender_292_circle_7300_ascii.fbx"}) {
    ASSERT_TRUE(ReadFile(root + "/fbx/" + name, &b)) << name;
    Mutate(b, {0xFF});
  }
}

}  // namespace
