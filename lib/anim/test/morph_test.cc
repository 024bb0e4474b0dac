// morph.h and the builder's morph targets: build, open, accessors, every
// refusal, mutations of the file, bytes changed after the open, target
// weights against hand math, the job against a binary64 reference, ranges
// and sparsity against the whole and dense (bits).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/morph_fixtures.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "lib/core/rng.h"
#include "maul/anim/build.h"
#include "maul/anim/morph.h"

namespace {

const uint32_t kComponents[5] = {3, 3, 3, 2, 4};


uint64_t Reidentify(File& g) {
  uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindMorphTargets, g.data() + 64, g.size - 64);
  memcpy(g.data() + 32, &id, 8);
  return id;
}

// A built and opened fixture.
struct Morph {
  maniFixtureMorph fx;
  File file;
  maniMorphTargets m;
  Morph(uint64_t seed, uint32_t vertices, uint32_t channels, maniFixtureMorphKind kind) {
    EXPECT_TRUE(maniFixtureMakeMorph(&fx, seed, vertices, channels, kind));
    Builder b;
    maniBuildResult r = maniBuildMorphTargets(b.b, &fx.source);
    EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item;
    file = b.Built();
    EXPECT_EQ(maniOpenMorphTargets(file.data(), file.size, &m).result, mani_success);
  }
  ~Morph() { maniFixtureFreeMorph(&fx); }
  uint32_t Word(uint32_t target, uint32_t word) const {
    uint32_t v;
    memcpy(&v, m.bytes + m.targets + 56ull * target + 4 * word, 4);
    return v;
  }
  const maniMorphSourceTarget& Target(uint32_t t, uint32_t* channel = nullptr, uint32_t* inChannel = nullptr) const {
    uint32_t c = 0;
    while (t >= fx.channels[c].targetCount) t -= fx.channels[c++].targetCount;
    if (channel) *channel = c;
    if (inChannel) *inChannel = t;
    return fx.channels[c].targets[t];
  }
};

// The source's delta of a target for a vertex (repeats summed in binary64
// in the source's order), or 0 when the target leaves the vertex alone.
double SourceDelta(const maniMorphSourceTarget& t, uint32_t attribute, uint32_t vertex, uint32_t c, bool* given) {
  const uint32_t comps = kComponents[attribute];
  *given = false;
  if (t.deltas[attribute] == nullptr) return 0.0;
  if (t.indices == nullptr) {
    *given = true;
    return t.deltas[attribute][(uint64_t)vertex * comps + c];
  }
  double sum = 0.0;
  bool first = true;
  for (uint32_t i = 0; i < t.count; ++i) {
    if (t.indices[i] != vertex) continue;
    double d = t.deltas[attribute][(uint64_t)i * comps + c];
    sum = first ? d : sum + d;
    first = false;
    *given = true;
  }
  return sum;
}

maniMorphJob Job(const maniMorphTargets* m, const float* weights, const maniMorphStream* streams, uint32_t count,
                 uint32_t begin, uint32_t end) {
  maniMorphJob j;
  j.targets = m;
  j.targetWeights = weights;
  j.streams = streams;
  j.streamCount = count;
  j.vertexBegin = begin;
  j.vertexEnd = end;
  return j;
}

struct Mesh {
  maniFixtureMorphMesh m;
  Mesh(uint64_t seed, uint32_t n) { EXPECT_TRUE(maniFixtureMakeMorphMesh(&m, seed, n)); }
  ~Mesh() { maniFixtureFreeMorphMesh(&m); }
  const float* Array(int s) const {
    const float* a[5] = {m.position, m.normal, m.tangent, m.texCoord, m.color};
    return a[s];
  }
  size_t Floats(int s) const {
    const uint32_t per[5] = {3, 3, 4, 2, 4};
    return (size_t)m.vertexCount * per[s];
  }
  bool SameBits(const Mesh& o) const {
    for (int s = 0; s < 5; ++s)
      if (memcmp(Array(s), o.Array(s), Floats(s) * 4) != 0) return false;
    return true;
  }
};

// -- Build and accessors ------------------------------------------------------

TEST(BuildMorph, RoundTripCountsNamesWeightsAndLayout) {
  Morph f(3, 200, 12, maniFixtureMorphMixed);
  const maniMorphTargets* m = &f.m;
  uint32_t targets = 0;
  for (uint32_t c = 0; c < 12; ++c) targets += f.fx.channels[c].targetCount;
  EXPECT_EQ(maniMorphTargets_GetVertexCount(m), 200u);
  EXPECT_EQ(maniMorphTargets_GetChannelCount(m), 12u);
  EXPECT_EQ(maniMorphTargets_GetTargetCount(m), targets);
  EXPECT_EQ(maniMorphTargets_GetAttributeCount(m), 5u);
  const maniMorphSemantic sem[5] = {maniMorphPosition, maniMorphNormal, maniMorphTangent, maniMorphTexCoord,
                                    maniMorphColor};
  for (uint32_t a = 0; a < 5; ++a) {
    uint32_t set = 99;
    EXPECT_EQ(maniMorphTargets_GetAttribute(m, a, &set), sem[a]);
    EXPECT_EQ(set, 0u);
  }
  uint32_t set = 99;
  EXPECT_EQ(maniMorphTargets_GetAttribute(m, 5, &set), maniMorphSemanticNone);
  EXPECT_EQ(set, 0u);
  uint32_t t = 0;
  for (uint32_t c = 0; c < 12; ++c) {
    const maniMorphSourceChannel& ch = f.fx.channels[c];
    size_t len = 0;
    const char* name = maniMorphTargets_GetChannelName(m, c, &len);
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(std::string(name, len), std::string(ch.name, ch.nameLength));
    EXPECT_EQ(maniMorphTargets_FindChannel(m, ch.name, ch.nameLength), c);
    uint32_t first = 99;
    EXPECT_EQ(maniMorphTargets_GetChannelTargets(m, c, &first), ch.targetCount);
    EXPECT_EQ(first, t);
    for (uint32_t k = 0; k < ch.targetCount; ++k, ++t) {
      const maniMorphSourceTarget& tg = ch.targets[k];
      EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(m, t), tg.fullWeight);
      std::string expect = tg.name ? std::string(tg.name, tg.nameLength)
                                   : k == 0 ? std::string(ch.name, ch.nameLength)
                                            : std::string(ch.name, ch.nameLength) + "/" + std::to_string(k);
      name = maniMorphTargets_GetTargetName(m, t, &len);
      ASSERT_NE(name, nullptr);
      EXPECT_EQ(std::string(name, len), expect);
      EXPECT_EQ(maniMorphTargets_FindTarget(m, expect.data(), expect.size()), t);
      // Dense exactly when the target touches every vertex.
      bool every = tg.indices == nullptr;
      if (!every) {
        std::vector<bool> seen(200);
        uint32_t n = 0;
        for (uint32_t i = 0; i < tg.count; ++i) n += seen[tg.indices[i]] ? 0 : 1, seen[tg.indices[i]] = true;
        every = n == 200;
        if (!every) {
          EXPECT_EQ(f.Word(t, 1), n);
        }
      }
      EXPECT_EQ(f.Word(t, 2) == 0xFFFFFFFFu, every) << t;
    }
  }
  EXPECT_EQ(maniMorphTargets_FindChannel(m, "none", 4), MANI_NO_CHANNEL);
  EXPECT_EQ(maniMorphTargets_FindTarget(m, "none", 4), MANI_NO_CHANNEL);
  EXPECT_EQ(maniMorphTargets_FindTarget(m, nullptr, 3), MANI_NO_CHANNEL);
  EXPECT_EQ(maniMorphTargets_GetChannelName(m, 12, nullptr), nullptr);
  EXPECT_EQ(maniMorphTargets_GetTargetName(m, targets, nullptr), nullptr);
  EXPECT_EQ(maniMorphTargets_GetChannelTargets(m, 12, nullptr), 0u);
  EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(m, targets), 0.0f);
}

// What the file holds for each target and vertex, read back through the
// job: weight 1 on one target over zero inputs gives its delta exactly (a
// zero delta adds nothing), for the attributes the job does not renormalize.
TEST(BuildMorph, StoredDeltasAreTheSourceSummedInBinary64) {
  for (maniFixtureMorphKind kind : {maniFixtureMorphSparse, maniFixtureMorphDense, maniFixtureMorphMixed}) {
    Morph f(7 + kind, 150, 6, kind);
    const uint32_t T = maniMorphTargets_GetTargetCount(&f.m);
    std::vector<float> pos(150 * 3), uv(150 * 2), col(150 * 4);
    for (uint32_t t = 0; t < T; ++t) {
      std::vector<float> w(T, 0.0f);
      w[t] = 1.0f;
      std::fill(pos.begin(), pos.end(), 0.0f);
      std::fill(uv.begin(), uv.end(), 0.0f);
      std::fill(col.begin(), col.end(), 0.0f);
      maniMorphStream s[3] = {
          {maniMorphPosition, 0, 3, 12, 12, pos.data(), pos.data()},
          {maniMorphTexCoord, 0, 2, 8, 8, uv.data(), uv.data()},
          {maniMorphColor, 0, 4, 16, 16, col.data(), col.data()},
      };
      maniMorphJob j = Job(&f.m, w.data(), s, 3, 0, 150);
      ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
      const maniMorphSourceTarget& tg = f.Target(t);
      const int attrs[3] = {0, 3, 4};
      const float* got[3] = {pos.data(), uv.data(), col.data()};
      for (int k = 0; k < 3; ++k)
        for (uint32_t v = 0; v < 150; ++v)
          for (uint32_t c = 0; c < kComponents[attrs[k]]; ++c) {
            bool given;
            float expect = (float)SourceDelta(tg, attrs[k], v, c, &given);
            if (expect == 0.0f) expect = 0.0f;  // a zero delta adds nothing to +0
            ASSERT_EQ(got[k][v * kComponents[attrs[k]] + c], expect) << kind << " " << t << " " << v << " " << c;
          }
    }
  }
}

TEST(BuildMorph, SameSourceSameBytesAndDenseWhenEveryVertexGiven) {
  Morph a(21, 64, 5, maniFixtureMorphMixed), b(21, 64, 5, maniFixtureMorphMixed);
  ASSERT_EQ(a.file.size, b.file.size);
  EXPECT_EQ(memcmp(a.file.data(), b.file.data(), a.file.size), 0);
  // Every vertex given, backwards and one twice: stored dense, summed.
  std::vector<uint32_t> idx;
  std::vector<float> d;
  for (uint32_t v = 0; v < 4; ++v) idx.push_back(3 - v), d.insert(d.end(), {1.0f * v, 0, 0});
  idx.push_back(2), d.insert(d.end(), {0.25f, 0, 0});
  maniMorphSourceAttribute attr = {maniMorphPosition, 0};
  maniMorphSourceTarget t = {};
  t.fullWeight = 1;
  t.indices = idx.data();
  t.count = 5;
  t.deltas[0] = d.data();
  maniMorphSourceChannel ch = {"c", 1, &t, 1};
  maniMorphSource src = {4, &attr, 1, &ch, 1};
  Builder bb;
  ASSERT_EQ(maniBuildMorphTargets(bb.b, &src).result, mani_success);
  File file = bb.Built();
  maniMorphTargets m;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &m).result, mani_success);
  uint32_t first;
  memcpy(&first, m.bytes + m.targets + 8, 4);
  EXPECT_EQ(first, 0xFFFFFFFFu);
  EXPECT_EQ(m.indexCount, 0u);
  float pos[12] = {0};
  float w = 1.0f;
  maniMorphStream s = {maniMorphPosition, 0, 3, 12, 12, pos, pos};
  maniMorphJob j = Job(&m, &w, &s, 1, 0, 4);
  ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  // Vertex v given at place 3 - v with delta x = 3 - v; vertex 2 also 0.25.
  EXPECT_EQ(pos[0], 3.0f);
  EXPECT_EQ(pos[3], 2.0f);
  EXPECT_EQ(pos[6], 1.25f);
  EXPECT_EQ(pos[9], 0.0f);
}

// A single source: one channel "a" of the given targets over 4 vertices and
// positions, to refuse one thing at a time.
struct Source {
  std::vector<maniMorphSourceAttribute> attrs{{maniMorphPosition, 0}};
  std::vector<maniMorphSourceTarget> targets;
  std::vector<maniMorphSourceChannel> channels;
  std::vector<float> d = std::vector<float>(64, 0.5f);
  std::vector<uint32_t> idx{0, 2, 3};
  maniMorphSource src;
  Source() {
    maniMorphSourceTarget t = {};
    t.fullWeight = 1;
    t.count = 4;
    t.deltas[0] = d.data();
    targets.push_back(t);
    t.fullWeight = 2;
    t.indices = idx.data();
    t.count = 3;
    t.deltas[0] = d.data() + 32;
    targets.push_back(t);
    channels.push_back({"a", 1, targets.data(), 1});
    channels.push_back({"b", 1, targets.data() + 1, 1});
  }
  const maniMorphSource* Get() {
    src.vertexCount = 4;
    src.attributes = attrs.data();
    src.attributeCount = (uint32_t)attrs.size();
    src.channels = channels.data();
    src.channelCount = (uint32_t)channels.size();
    return &src;
  }
};

void ExpectRefused(Source& s, maniResult result, uint32_t reason, uint64_t item, uint64_t other, int line) {
  Builder b;
  maniBuildResult r = maniBuildMorphTargets(b.b, s.Get());
  EXPECT_EQ(r.result, result) << "line " << line;
  EXPECT_EQ(r.reason, reason) << "line " << line;
  EXPECT_EQ(r.item, item) << "line " << line;
  EXPECT_EQ(r.other, other) << "line " << line;
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u) << "line " << line;
  EXPECT_EQ(maniBuilder_CopyBuilt(b.b, nullptr, 0, nullptr), mani_errorInvalid) << "line " << line;
}
#define REFUSED(s, result, reason, item, other) ExpectRefused(s, result, reason, item, other, __LINE__)

TEST(BuildMorph, RefusalsWithReasonAndItem) {
  {
    Source s;
    Builder b;
    ASSERT_EQ(maniBuildMorphTargets(b.b, s.Get()).result, mani_success);  // the base is good
  }
  { Source s; s.Get(); s.src.vertexCount = 0;
    Builder b; maniBuildResult r = maniBuildMorphTargets(b.b, &s.src);
    EXPECT_EQ(r.result, mani_errorInvalid); EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount); }
  { Source s; s.channels.clear(); REFUSED(s, mani_errorInvalid, maniBuildReasonCount, 0, 0); }
  { Source s; s.attrs.assign(9, {maniMorphTexCoord, 0}); REFUSED(s, mani_errorLimit, maniBuildReasonCount, 0, 0); }
  { Source s; s.attrs.clear(); REFUSED(s, mani_errorInvalid, maniBuildReasonAttribute, 0, 0); }
  { Source s; s.attrs.push_back({maniMorphNormal, 1}); REFUSED(s, mani_errorInvalid, maniBuildReasonAttribute, 1, 0); }
  { Source s; s.attrs.push_back({(maniMorphSemantic)7, 0}); REFUSED(s, mani_errorInvalid, maniBuildReasonAttribute, 1, 0); }
  { Source s; s.attrs.push_back({maniMorphTexCoord, 8}); REFUSED(s, mani_errorInvalid, maniBuildReasonAttribute, 1, 0); }
  { Source s; s.attrs.push_back({maniMorphTexCoord, 7}); s.attrs.push_back({maniMorphTexCoord, 7});
    REFUSED(s, mani_errorInvalid, maniBuildReasonAttribute, 2, 0); }
  // Channels: names, duplicates, targets.
  { Source s; s.channels[1].nameLength = 0; REFUSED(s, mani_errorInvalid, maniBuildReasonName, 1, 0); }
  { Source s; s.channels[1].name = nullptr; REFUSED(s, mani_errorInvalid, maniBuildReasonName, 1, 0); }
  { Source s; s.channels[1].name = "\xff"; REFUSED(s, mani_errorInvalid, maniBuildReasonName, 1, 0); }
  std::string longName(256, 'x');
  { Source s; s.channels[1].name = longName.data(); s.channels[1].nameLength = 256;
    REFUSED(s, mani_errorLimit, maniBuildReasonName, 1, 0); }
  { Source s; s.channels[1].name = "a"; REFUSED(s, mani_errorInvalid, maniBuildReasonDuplicateName, 1, 0); }
  { Source s; s.channels[1].targetCount = 0; REFUSED(s, mani_errorInvalid, maniBuildReasonCount, 1, 0); }
  { Source s; s.channels[0].targets = nullptr; REFUSED(s, mani_errorInvalid, maniBuildReasonCount, 0, 0); }
  // Targets (item counted over the channels): names.
  { Source s; s.targets[1].nameLength = 3; REFUSED(s, mani_errorInvalid, maniBuildReasonName, 1, 1); }
  { Source s; s.targets[1].name = "x"; s.targets[1].nameLength = 0;
    REFUSED(s, mani_errorInvalid, maniBuildReasonName, 1, 1); }
  { Source s; s.targets[1].name = "\xc0\x80"; s.targets[1].nameLength = 2;
    REFUSED(s, mani_errorInvalid, maniBuildReasonName, 1, 1); }
  { Source s; s.targets[1].name = longName.data(); s.targets[1].nameLength = 256;
    REFUSED(s, mani_errorLimit, maniBuildReasonName, 1, 1); }
  { Source s; std::string n255(255, 'y'); s.channels[0].name = n255.data(); s.channels[0].nameLength = 255;
    s.channels[0].targetCount = 2;  // the second target's made name "yyy.../1" is 257 bytes
    s.targets[1].fullWeight = 2; s.channels.pop_back();
    REFUSED(s, mani_errorLimit, maniBuildReasonName, 1, 1); }
  // Weights.
  for (float w : {0.0f, -0.0f, NAN, INFINITY}) {
    Source s; s.targets[1].fullWeight = w; REFUSED(s, mani_errorInvalid, maniBuildReasonWeight, 1, 0);
  }
  { Source s; s.channels.pop_back(); s.channels[0].targetCount = 2; s.targets[1].fullWeight = 1.0f;
    REFUSED(s, mani_errorInvalid, maniBuildReasonWeight, 1, 0); }
  // Counts and vertices.
  { Source s; s.targets[0].count = 3; REFUSED(s, mani_errorInvalid, maniBuildReasonCount, 0, 0); }
  { Source s; s.idx[2] = 4; REFUSED(s, mani_errorInvalid, maniBuildReasonVertex, 1, 2); }
  // Deltas not finite, and sums past binary32 (the place of the second).
  { Source s; s.d[32 + 3 * 2 + 1] = NAN; REFUSED(s, mani_errorInvalid, maniBuildReasonNotFinite, 1, 2); }
  { Source s; s.d[3 * 3 + 2] = -INFINITY; REFUSED(s, mani_errorInvalid, maniBuildReasonNotFinite, 0, 3); }
  { Source s; s.idx = {1, 0, 1}; s.d[32] = 3e38f; s.d[38] = 3e38f;
    s.targets[1].indices = s.idx.data(); REFUSED(s, mani_errorInvalid, maniBuildReasonNotFinite, 1, 2); }
  // NULL arguments are misuses.
  Builder b;
  Source s;
  EXPECT_EQ(maniBuildMorphTargets(b.b, nullptr).result, mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b.b), 1u);
  EXPECT_EQ(maniBuildMorphTargets(nullptr, s.Get()).result, mani_errorInvalid);
  // A failure keeps what the builder held.
  ASSERT_EQ(maniBuildMorphTargets(b.b, s.Get()).result, mani_success);
  File before = b.Built();
  s.targets[0].count = 2;
  EXPECT_NE(maniBuildMorphTargets(b.b, s.Get()).result, mani_success);
  File after = b.Built();
  ASSERT_EQ(before.size, after.size);
  EXPECT_EQ(memcmp(before.data(), after.data(), before.size), 0);
}

// -- Open -----------------------------------------------------------------------

TEST(OpenMorph, ArgumentsAlignmentVersionAndViewUnchangedOnFailure) {
  Morph f(5, 40, 4, maniFixtureMorphMixed);
  maniMorphTargets v;
  memset(&v, 0x77, sizeof v);
  maniMorphTargets before = v;
  EXPECT_EQ(maniOpenMorphTargets(nullptr, f.file.size, &v).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenMorphTargets(f.file.data(), f.file.size, nullptr).result, mani_errorInvalid);
  std::vector<uint64_t> words(f.file.size / 8 + 4);
  uint8_t* odd = reinterpret_cast<uint8_t*>(words.data()) + 8;
  memcpy(odd, f.file.data(), f.file.size);
  EXPECT_EQ(maniOpenMorphTargets(odd, f.file.size, &v).result, mani_errorInvalid);
  for (uint32_t version : {1u, 2u, 4u, 6u, 0u}) {
    File g = f.file;
    memcpy(g.data() + 8, &version, 4);
    maniFileResult r = maniOpenMorphTargets(g.data(), g.size, &v);
    EXPECT_EQ(r.result, mani_errorVersion) << version;
    EXPECT_EQ(r.offset, 8u);
  }
  File g = f.file;
  uint32_t later = MCORE_TAG(6, 2);
  memcpy(g.data() + 64 + 24, &later, 4);
  Reidentify(g);
  maniFileResult r = maniOpenMorphTargets(g.data(), g.size, &v);
  EXPECT_EQ(r.result, mani_errorVersion);
  EXPECT_EQ(r.offset, 64u + 24);
  EXPECT_EQ(memcmp(&v, &before, sizeof v), 0);
}

TEST(OpenMorph, EveryTruncationAndBytePatchIsRefused) {
  Morph f(6, 12, 3, maniFixtureMorphMixed);
  maniMorphTargets m;
  ExpectEveryMutationRefused(f.file.data(), f.file.size,
                             [&](const void* b, size_t n) { return maniOpenMorphTargets(b, n, &m); });
}

// Forged files: a field changed and the identity recomputed, so only the
// section checks can find it, each at the exact byte.
TEST(OpenMorph, ForgedFilesAreRefusedAtTheWrongField) {
  Morph f(9, 30, 5, maniFixtureMorphMixed);
  const maniMorphTargets& m = f.m;
  const uint64_t info = m.attributes - 32;
  auto forge = [&](uint64_t at, const void* value, size_t n) {
    File g = f.file;
    memcpy(g.data() + at, value, n);
    Reidentify(g);
    maniMorphTargets v;
    return maniOpenMorphTargets(g.data(), g.size, &v);
  };
  auto expectAt = [&](uint64_t at, const void* value, size_t n, uint64_t wrongAt) {
    maniFileResult r = forge(at, value, n);
    EXPECT_EQ(r.result, mani_errorFormat) << "field at " << at;
    EXPECT_EQ(r.offset, wrongAt) << "field at " << at;
  };
  EXPECT_EQ(forge(info, f.file.data() + info, 4).result, mani_success);
  uint32_t zero = 0, nine = 9, one = 1, seven = 7, big = 0xFFFFFFF0u;
  expectAt(info, &zero, 4, info);            // no vertices
  expectAt(info + 4, &zero, 4, info + 4);    // no channels
  expectAt(info + 12, &nine, 4, info + 12);  // too many attributes
  expectAt(info + 28, &one, 4, info + 28);   // the reserved word
  expectAt(info + 12, &one, 4, mcore_SectionSizeField(1));  // attributes not matching their section
  // Attributes: unknown semantic, a set on normals, a pair twice.
  expectAt(m.attributes + 8, &seven, 4, m.attributes + 8);
  expectAt(m.attributes + 8 + 4, &one, 4, m.attributes + 8 + 4);
  expectAt(m.attributes + 8, &zero, 4, m.attributes + 8);
  // Channels: the first target, the count, a name offset and length.
  expectAt(m.channels + 16, &zero, 4, m.channels + 16);
  expectAt(m.channels + 4, &zero, 4, m.channels + 4);
  expectAt(m.channels + 4, &big, 4, m.channels + 4);
  expectAt(m.channels + 8, &one, 4, m.channels + 8);
  expectAt(m.channels + 12, &zero, 4, m.channels + 12);
  uint32_t len256 = 256;
  expectAt(m.channels + 12, &len256, 4, m.channels + 12);
  // A name byte not UTF-8.
  uint8_t ff = 0xFF;
  expectAt(m.names + 2, &ff, 1, m.names + 2);
  // Targets: full weights (0, NaN, not increasing), counts, dense without
  // every vertex, a sparse index order, deltas.
  float wz = 0.0f, wn = NAN;
  expectAt(m.targets, &wz, 4, m.targets);
  expectAt(m.targets, &wn, 4, m.targets);
  uint32_t firstSparse = 0xFFFFFFFFu, firstMulti = 0xFFFFFFFFu;
  for (uint32_t t = 0; t < m.targetCount; ++t)
    if (f.Word(t, 2) != 0xFFFFFFFFu && f.Word(t, 1) >= 2 && firstSparse == 0xFFFFFFFFu) firstSparse = t;
  for (uint32_t c = 0; c < m.channelCount; ++c) {
    uint32_t first = 0;
    if (maniMorphTargets_GetChannelTargets(&m, c, &first) >= 2 && firstMulti == 0xFFFFFFFFu) firstMulti = first;
  }
  ASSERT_NE(firstSparse, 0xFFFFFFFFu);
  ASSERT_NE(firstMulti, 0xFFFFFFFFu);
  float w0 = maniMorphTargets_GetTargetFullWeight(&m, firstMulti);
  expectAt(m.targets + 56ull * (firstMulti + 1), &w0, 4, m.targets + 56ull * (firstMulti + 1));
  const uint64_t rec = m.targets + 56ull * firstSparse;
  uint32_t start = f.Word(firstSparse, 2);
  uint32_t i0, i1;
  memcpy(&i0, m.bytes + m.indices + 4ull * start, 4);
  memcpy(&i1, m.bytes + m.indices + 4ull * start + 4, 4);
  expectAt(m.indices + 4ull * start + 4, &i0, 4, m.indices + 4ull * start + 4);  // not increasing
  uint32_t thirty = 30;
  expectAt(m.indices + 4ull * start, &thirty, 4, m.indices + 4ull * start);     // past the vertices
  expectAt(rec + 8, &big, 4, rec + 8);                                           // the first index
  uint32_t dense = 0xFFFFFFFFu;
  expectAt(rec + 8, &dense, 4, rec + 4);                                         // dense without every vertex
  expectAt(rec + 20, &one, 4, rec + 20);                                         // the reserved word
  expectAt(rec + 24 + 4 * 7, &zero, 4, rec + 24 + 4 * 7);                        // a slot past the attributes
  expectAt(rec + 24, &big, 4, rec + 24);                                         // the first delta
  float inf = INFINITY;
  expectAt(m.deltas + 4 * 5, &inf, 4, m.deltas + 4 * 5);
  expectAt(m.deltas + 4ull * (m.deltaCount - 1), &wn, 4, m.deltas + 4ull * (m.deltaCount - 1));
  // A section size that does not fit: the info's size field.
  uint64_t infoSize = 16;
  EXPECT_EQ(forge(64 + 16, &infoSize, 8).result, mani_errorFormat);
}

TEST(MorphView, ZeroedOrDamagedViewsReadAsEmpty) {
  maniMorphTargets z;
  memset(&z, 0, sizeof z);
  for (const maniMorphTargets* v : {(const maniMorphTargets*)&z, (const maniMorphTargets*)nullptr}) {
    EXPECT_EQ(maniMorphTargets_GetVertexCount(v), 0u);
    EXPECT_EQ(maniMorphTargets_GetChannelCount(v), 0u);
    EXPECT_EQ(maniMorphTargets_GetTargetCount(v), 0u);
    EXPECT_EQ(maniMorphTargets_GetAttributeCount(v), 0u);
    uint32_t set = 5;
    EXPECT_EQ(maniMorphTargets_GetAttribute(v, 0, &set), maniMorphSemanticNone);
    EXPECT_EQ(set, 0u);
    size_t len = 9;
    EXPECT_EQ(maniMorphTargets_GetChannelName(v, 0, &len), nullptr);
    EXPECT_EQ(len, 0u);
    EXPECT_EQ(maniMorphTargets_GetTargetName(v, 0, &len), nullptr);
    EXPECT_EQ(maniMorphTargets_FindChannel(v, "a", 1), MANI_NO_CHANNEL);
    EXPECT_EQ(maniMorphTargets_FindTarget(v, "a", 1), MANI_NO_CHANNEL);
    EXPECT_EQ(maniMorphTargets_GetChannelTargets(v, 0, nullptr), 0u);
    EXPECT_EQ(maniMorphTargets_GetTargetFullWeight(v, 0), 0.0f);
    float w = 0, out = 7;
    EXPECT_EQ(maniMorphTargets_ComputeTargetWeights(v, &w, &out, 1, nullptr), mani_errorInvalid);
    EXPECT_EQ(out, 7.0f);
  }
  // Counts that do not fit the file.
  Morph f(2, 20, 3, maniFixtureMorphMixed);
  maniMorphTargets d = f.m;
  d.deltaCount = (uint32_t)(f.file.size / 4);
  EXPECT_EQ(maniMorphTargets_GetTargetCount(&d), 0u);
  d = f.m;
  d.size = 64;
  EXPECT_EQ(maniMorphTargets_GetVertexCount(&d), 0u);
  d = f.m;
  d.attributeCount = 9;
  EXPECT_EQ(maniMorphTargets_GetAttributeCount(&d), 0u);
}

// -- Target weights ---------------------------------------------------------------

// One channel of targets at the given full weights (positions only).
File OneChannel(const std::vector<float>& fullWeights) {
  static std::vector<float> d(3, 1.0f);
  std::vector<maniMorphSourceTarget> ts(fullWeights.size());
  for (size_t k = 0; k < ts.size(); ++k) {
    ts[k] = maniMorphSourceTarget{};
    ts[k].fullWeight = fullWeights[k];
    ts[k].count = 1;
    ts[k].deltas[0] = d.data();
  }
  maniMorphSourceAttribute attr = {maniMorphPosition, 0};
  maniMorphSourceChannel ch = {"c", 1, ts.data(), (uint32_t)ts.size()};
  maniMorphSource src = {1, &attr, 1, &ch, 1};
  Builder b;
  EXPECT_EQ(maniBuildMorphTargets(b.b, &src).result, mani_success);
  return b.Built();
}

TEST(MorphWeights, InBetweensWalkFromTheZeroShapeAndExtrapolate) {
  struct Case {
    std::vector<float> full;
    float w;
    std::vector<double> expect;
  };
  const Case cases[] = {
      // One target at 1 passes the weight through.
      {{1.0f}, 0.3f, {(double)0.3f}},
      {{1.0f}, -2.5f, {-2.5}},
      {{1.0f}, 7.0f, {7.0}},
      // One at 2: w / 2.
      {{2.0f}, 0.5f, {0.25}},
      // In-betweens at 0.5 and 1: from zero to the first, then between.
      {{0.5f, 1.0f}, 0.25f, {0.5, 0.0}},
      {{0.5f, 1.0f}, 0.5f, {1.0, 0.0}},
      {{0.5f, 1.0f}, 0.75f, {0.5, 0.5}},
      {{0.5f, 1.0f}, 1.0f, {0.0, 1.0}},
      {{0.5f, 1.0f}, 1.5f, {-1.0, 2.0}},   // past the last: the last pair extrapolated
      {{0.5f, 1.0f}, -0.5f, {-1.0, 0.0}},  // below zero: zero and the first
      // Targets on both sides of zero.
      {{-1.0f, 0.5f, 1.0f}, -0.5f, {0.5, 0.0, 0.0}},
      {{-1.0f, 0.5f, 1.0f}, -2.0f, {2.0, 0.0, 0.0}},
      {{-1.0f, 0.5f, 1.0f}, 0.0f, {0.0, 0.0, 0.0}},
      {{-1.0f, 0.5f, 1.0f}, 0.75f, {0.0, 0.5, 0.5}},
      // All below zero.
      {{-2.0f, -1.0f}, -1.5f, {0.5, 0.5}},
      {{-2.0f, -1.0f}, -0.5f, {0.0, 0.5}},
      {{-2.0f, -1.0f}, 1.0f, {0.0, -1.0}},
  };
  for (const Case& c : cases) {
    File file = OneChannel(c.full);
    maniMorphTargets m;
    ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &m).result, mani_success);
    std::vector<float> out(c.full.size(), 99.0f);
    uint32_t count = 0;
    ASSERT_EQ(maniMorphTargets_ComputeTargetWeights(&m, &c.w, out.data(), (uint32_t)out.size(), &count), mani_success);
    EXPECT_EQ(count, c.full.size());
    for (size_t k = 0; k < out.size(); ++k) EXPECT_EQ(out[k], (float)c.expect[k]) << c.w << " target " << k;
  }
}

TEST(MorphWeights, BitsPassThroughMeasureCapacityAndRefusals) {
  File file = OneChannel({1.0f});
  maniMorphTargets m;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &m).result, mani_success);
  mcore_Rng rng;
  mcore_RngSeed(&rng, 77);
  for (int i = 0; i < 10000; ++i) {
    float w = mcore_RngFloatBits(&rng);
    if (!std::isfinite(w)) continue;
    float out = 0;
    ASSERT_EQ(maniMorphTargets_ComputeTargetWeights(&m, &w, &out, 1, nullptr), mani_success);
    ASSERT_EQ(memcmp(&out, &w, 4), 0) << w;
  }
  Morph f(4, 10, 6, maniFixtureMorphMixed);
  const uint32_t T = f.m.targetCount;
  std::vector<float> cw(6, 0.5f), out(T + 1, 42.0f);
  uint32_t count = 0;
  EXPECT_EQ(maniMorphTargets_ComputeTargetWeights(&f.m, cw.data(), nullptr, 0, &count), mani_errorCapacity);
  EXPECT_EQ(count, T);
  count = 0;
  EXPECT_EQ(maniMorphTargets_ComputeTargetWeights(&f.m, cw.data(), out.data(), T - 1, &count), mani_errorCapacity);
  EXPECT_EQ(count, T);
  EXPECT_EQ(out[0], 42.0f);
  EXPECT_EQ(maniMorphTargets_ComputeTargetWeights(&f.m, cw.data(), nullptr, 3, &count), mani_errorInvalid);
  EXPECT_EQ(maniMorphTargets_ComputeTargetWeights(&f.m, nullptr, out.data(), T, &count), mani_errorInvalid);
  cw[3] = NAN;
  count = 0;
  EXPECT_EQ(maniMorphTargets_ComputeTargetWeights(&f.m, cw.data(), out.data(), T, &count), mani_errorInvalid);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(out[0], 42.0f);
  cw[3] = 0.5f;
  ASSERT_EQ(maniMorphTargets_ComputeTargetWeights(&f.m, cw.data(), out.data(), T + 1, nullptr), mani_success);
  EXPECT_EQ(out[T], 42.0f);
}

// -- The job --------------------------------------------------------------------------

std::vector<float> SeededWeights(uint64_t seed, uint32_t n) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, seed);
  std::vector<float> w(n);
  for (uint32_t i = 0; i < n; ++i) w[i] = mcore_RngBelow(&rng, 5) == 0 ? 0.0f : mcore_RngFloatRange(&rng, -1.5f, 1.5f);
  return w;
}

TEST(ApplyMorph, MatchesABinary64Reference) {
  for (maniFixtureMorphKind kind : {maniFixtureMorphSparse, maniFixtureMorphDense, maniFixtureMorphMixed}) {
    const uint32_t V = 333;
    Morph f(40 + kind, V, 9, kind);
    const uint32_t T = f.m.targetCount;
    std::vector<float> w = SeededWeights(50 + kind, T);
    Mesh in(60 + kind, V), out(60 + kind, V);
    maniMorphStream s[5];
    maniFixtureMorphStreams(&in.m, &out.m, s);
    maniMorphJob j = Job(&f.m, w.data(), s, 5, 0, V);
    ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
    const uint32_t per[5] = {3, 3, 4, 2, 4};
    for (int a = 0; a < 5; ++a) {
      for (uint32_t v = 0; v < V; ++v) {
        double ref[4], mag[4];
        for (uint32_t c = 0; c < kComponents[a]; ++c) {
          ref[c] = in.Array(a)[v * per[a] + c];
          mag[c] = std::fabs(ref[c]);
          for (uint32_t t = 0; t < T; ++t) {
            bool given;
            double d = SourceDelta(f.Target(t), a, v, c, &given);
            ref[c] += (double)w[t] * d;
            mag[c] += std::fabs((double)w[t] * d);
          }
        }
        if (a == 1 || a == 2) {
          double l = std::sqrt(ref[0] * ref[0] + ref[1] * ref[1] + ref[2] * ref[2]);
          for (int c = 0; c < 3; ++c) ref[c] /= l, mag[c] /= l;
          // A unit result.
          const float* o = &out.Array(a)[v * per[a]];
          double ol = std::sqrt((double)o[0] * o[0] + (double)o[1] * o[1] + (double)o[2] * o[2]);
          ASSERT_NEAR(ol, 1.0, 1e-6);
        }
        for (uint32_t c = 0; c < kComponents[a]; ++c)
          ASSERT_NEAR(out.Array(a)[v * per[a] + c], ref[c], 4e-7 * (mag[c] + 1) * (T + 2))
              << "kind " << kind << " attribute " << a << " vertex " << v << " component " << c;
        // Tangents keep their handedness.
        if (a == 2) {
          ASSERT_EQ(out.Array(a)[v * 4 + 3], in.Array(a)[v * 4 + 3]);
        }
      }
    }
  }
}

TEST(ApplyMorph, RangesInPlaceAndSparsityGiveTheSameBits) {
  const uint32_t V = 517;
  Morph f(70, V, 11, maniFixtureMorphMixed);
  std::vector<float> w = SeededWeights(71, f.m.targetCount);
  Mesh in(72, V), whole(72, V), parts(72, V), inPlace(72, V);
  maniMorphStream s[5];
  maniFixtureMorphStreams(&in.m, &whole.m, s);
  maniMorphJob j = Job(&f.m, w.data(), s, 5, 0, V);
  ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  EXPECT_FALSE(whole.SameBits(in));
  // Ranges of every size, in any order.
  maniFixtureMorphStreams(&in.m, &parts.m, s);
  mcore_Rng rng;
  mcore_RngSeed(&rng, 73);
  std::vector<uint32_t> cuts{0, V};
  for (int i = 0; i < 12; ++i) cuts.push_back(mcore_RngBelow(&rng, V));
  cuts.push_back(1);
  cuts.push_back(9);
  std::sort(cuts.begin(), cuts.end());
  for (size_t i = cuts.size() - 1; i > 0; --i) {
    j = Job(&f.m, w.data(), s, 5, cuts[i - 1], cuts[i]);
    ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  }
  EXPECT_TRUE(parts.SameBits(whole));
  // In place.
  maniFixtureMorphStreams(&inPlace.m, &inPlace.m, s);
  j = Job(&f.m, w.data(), s, 5, 0, V);
  ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  EXPECT_TRUE(inPlace.SameBits(whole));

  // The same deltas sparse and dense: a dense target whose delta is zero at
  // the vertices a sparse one leaves out gives the same bits; so do
  // negative-zero inputs.
  const uint32_t N = 100;
  std::vector<float> dense(N * 3, 0.0f), sparse;
  std::vector<uint32_t> idx;
  for (uint32_t v = 0; v < N; ++v)
    if (mcore_RngBelow(&rng, 3) == 0) {
      idx.push_back(v);
      for (int c = 0; c < 3; ++c) {
        float d = mcore_RngFloatRange(&rng, -1, 1);
        dense[v * 3 + c] = d;
        sparse.push_back(d);
      }
    }
  maniMorphSourceAttribute attr = {maniMorphNormal, 0};
  maniMorphSourceTarget td = {}, ts = {};
  td.fullWeight = ts.fullWeight = 1;
  td.count = N;
  td.deltas[0] = dense.data();
  ts.indices = idx.data();
  ts.count = (uint32_t)idx.size();
  ts.deltas[0] = sparse.data();
  std::vector<float> results[2];
  for (int k = 0; k < 2; ++k) {
    maniMorphSourceChannel ch = {"c", 1, k == 0 ? &td : &ts, 1};
    maniMorphSource src = {N, &attr, 1, &ch, 1};
    Builder b;
    ASSERT_EQ(maniBuildMorphTargets(b.b, &src).result, mani_success);
    File file = b.Built();
    maniMorphTargets m;
    ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &m).result, mani_success);
    std::vector<float> nrm(N * 3);
    for (uint32_t v = 0; v < N; ++v) nrm[v * 3] = v % 2 ? -0.0f : 0.0f, nrm[v * 3 + 1] = 1, nrm[v * 3 + 2] = -0.0f;
    results[k].resize(N * 3);
    float wt = 0.7f;
    maniMorphStream st = {maniMorphNormal, 0, 3, 12, 12, nrm.data(), results[k].data()};
    maniMorphJob jj = Job(&m, &wt, &st, 1, 0, N);
    ASSERT_EQ(maniApplyMorphTargets(&jj), mani_success);
  }
  EXPECT_EQ(memcmp(results[0].data(), results[1].data(), N * 12), 0);
}

TEST(ApplyMorph, UnmovedStreamsCopyZeroNormalsStayAndStridesAreHonoured) {
  Morph f(80, 20, 2, maniFixtureMorphDense);
  std::vector<float> w(f.m.targetCount, 0.5f);
  // Texture coordinates set 1 are not in the file: copied, bits and all.
  std::vector<float> uv(20 * 4), out(20 * 4, 7.0f);
  for (size_t i = 0; i < uv.size(); ++i) uv[i] = (float)i * 0.37f - 3;
  maniMorphStream s = {maniMorphTexCoord, 1, 2, 16, 16, uv.data(), out.data()};
  maniMorphJob j = Job(&f.m, w.data(), &s, 1, 0, 20);
  ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  for (uint32_t v = 0; v < 20; ++v) {
    EXPECT_EQ(out[v * 4], uv[v * 4]);
    EXPECT_EQ(out[v * 4 + 1], uv[v * 4 + 1]);
    EXPECT_EQ(out[v * 4 + 2], 7.0f);  // past the components: untouched
    EXPECT_EQ(out[v * 4 + 3], 7.0f);
  }
  // A normal that stays zero stays zero: weights 0.
  std::vector<float> zw(f.m.targetCount, 0.0f), n(20 * 3, 0.0f), no(20 * 3, 5.0f);
  maniMorphStream sn = {maniMorphNormal, 0, 3, 12, 12, n.data(), no.data()};
  j = Job(&f.m, zw.data(), &sn, 1, 0, 20);
  ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  for (float x : no) EXPECT_EQ(x, 0.0f);
  // An empty range writes nothing.
  std::fill(no.begin(), no.end(), 5.0f);
  j = Job(&f.m, w.data(), &sn, 1, 7, 7);
  ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  for (float x : no) EXPECT_EQ(x, 5.0f);
}

// morph.h's paragraph (the reference's): every normal and tangent of the
// range is renormalized, also in a stream whose attribute the file does not
// move; other unmoved streams are copied (the test above).
TEST(ApplyMorph, UnmovedNormalsAndTangentsAreStillRenormalized) {
  const uint32_t N = 4;
  std::vector<float> d(N * 3, 0.25f);
  maniMorphSourceAttribute attr = {maniMorphPosition, 0};
  maniMorphSourceTarget t = {};
  t.fullWeight = 1;
  t.count = N;
  t.deltas[0] = d.data();
  maniMorphSourceChannel ch = {"c", 1, &t, 1};
  maniMorphSource src = {N, &attr, 1, &ch, 1};
  Builder b;
  ASSERT_EQ(maniBuildMorphTargets(b.b, &src).result, mani_success);
  File file = b.Built();
  maniMorphTargets m;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &m).result, mani_success);
  const float nin[N * 3] = {0, 2, 0, 3, 4, 0, 0, 0, 0, 1e-3f, -2e-3f, 5e-4f};
  const float tin[N * 4] = {0, 0, 5, -1, 1, 1, 1, 1, 0, 0, 0, 1, 2, 0, 0, -1};
  float nout[N * 3], tout[N * 4];
  for (float& x : tout) x = 9.0f;
  maniMorphStream st[2] = {{maniMorphNormal, 0, 3, 12, 12, nin, nout}, {maniMorphTangent, 0, 3, 16, 16, tin, tout}};
  float w = 1.0f;
  maniMorphJob j = Job(&m, &w, st, 2, 0, N);
  ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  for (uint32_t v = 0; v < N; ++v) {
    const float* x = &nin[v * 3];
    const float l = std::sqrt((x[0] * x[0] + x[1] * x[1]) + x[2] * x[2]);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(nout[v * 3 + c], l == 0.0f ? x[c] : x[c] / l) << v << " " << c;
    const float* y = &tin[v * 4];
    const float lt = std::sqrt((y[0] * y[0] + y[1] * y[1]) + y[2] * y[2]);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(tout[v * 4 + c], lt == 0.0f ? y[c] : y[c] / lt) << v << " " << c;
    EXPECT_EQ(tout[v * 4 + 3], 9.0f);  // past the three components: untouched
  }
  EXPECT_EQ(nout[1], 1.0f);
  EXPECT_EQ(nout[3], 0.6f);
}

TEST(ApplyMorph, RefusalsWriteNothing) {
  Morph f(90, 30, 3, maniFixtureMorphMixed);
  const uint32_t T = f.m.targetCount;
  std::vector<float> w(T, 0.5f);
  Mesh in(91, 30), out(92, 30), keep(92, 30);
  maniMorphStream s[5];
  maniFixtureMorphStreams(&in.m, &out.m, s);
  auto refused = [&](maniMorphJob j, int line) {
    EXPECT_EQ(maniApplyMorphTargets(&j), mani_errorInvalid) << "line " << line;
    EXPECT_TRUE(out.SameBits(keep)) << "line " << line;
  };
  maniMorphJob good = Job(&f.m, w.data(), s, 5, 0, 30);
  EXPECT_EQ(maniApplyMorphTargets(nullptr), mani_errorInvalid);
  maniMorphJob j = good;
  j.targets = nullptr; refused(j, __LINE__);
  maniMorphTargets zero;
  memset(&zero, 0, sizeof zero);
  j = good; j.targets = &zero; refused(j, __LINE__);
  j = good; j.targetWeights = nullptr; refused(j, __LINE__);
  j = good; j.streams = nullptr; refused(j, __LINE__);
  j = good; j.vertexEnd = 31; refused(j, __LINE__);
  j = good; j.vertexBegin = 5; j.vertexEnd = 4; refused(j, __LINE__);
  for (float bad : {NAN, INFINITY}) {
    std::vector<float> bw = w;
    bw[T - 1] = bad;
    j = good; j.targetWeights = bw.data(); refused(j, __LINE__);
  }
  // Each stream fault in the last stream: nothing of the others written.
  const maniMorphStream base = s[4];
  auto withLast = [&](void (*change)(maniMorphStream*), int line) {
    s[4] = base;
    change(&s[4]);
    refused(good, line);
    s[4] = base;
  };
  withLast([](maniMorphStream* x) { x->input = nullptr; }, __LINE__);
  withLast([](maniMorphStream* x) { x->output = nullptr; }, __LINE__);
  withLast([](maniMorphStream* x) { x->inputStride = 12; }, __LINE__);
  withLast([](maniMorphStream* x) { x->outputStride = 15; }, __LINE__);
  withLast([](maniMorphStream* x) { x->semantic = (maniMorphSemantic)5; }, __LINE__);
  withLast([](maniMorphStream* x) { x->semantic = maniMorphSemanticNone; }, __LINE__);
  withLast([](maniMorphStream* x) { x->components = 3; }, __LINE__);
  withLast([](maniMorphStream* x) { x->set = 8; }, __LINE__);
  withLast([](maniMorphStream* x) { x->semantic = maniMorphNormal; x->set = 1; x->components = 3; }, __LINE__);
  // No streams: success, nothing written.
  j = good; j.streamCount = 0; j.streams = nullptr;
  EXPECT_EQ(maniApplyMorphTargets(&j), mani_success);
  EXPECT_TRUE(out.SameBits(keep));
}

// Bytes changed after the open: every accessor, the weights and the job read
// and write only inside the file and the arrays (asan checks), whatever
// byte of the file is patched.
TEST(MorphView, BytesChangedAfterTheOpenNeverReadOutside) {
  Morph f(100, 24, 4, maniFixtureMorphMixed);
  const uint32_t T = f.m.targetCount, C = f.m.channelCount;
  std::vector<float> cw(C, 0.7f), tw(T + 8);
  Mesh in(101, 24), out(101, 24);
  maniMorphStream s[5];
  maniFixtureMorphStreams(&in.m, &out.m, s);
  File pristine = f.file;
  uint64_t sum = 0;
  for (size_t i = 64; i < f.file.size; ++i) {
    for (uint8_t v : {(uint8_t)0xFF, (uint8_t)0x00, (uint8_t)0x7F, (uint8_t)0x41}) {
      memcpy(f.file.data(), pristine.data(), pristine.size);
      f.file.data()[i] = v;
      // The view still points at f.file's bytes.
      for (uint32_t a = 0; a < 6; ++a) sum += (uint32_t)maniMorphTargets_GetAttribute(&f.m, a, nullptr);
      for (uint32_t c = 0; c <= C; ++c) {
        size_t len = 0;
        const char* n = maniMorphTargets_GetChannelName(&f.m, c, &len);
        if (n) sum += (uint8_t)n[len - 1 < len ? len - 1 : 0] + len;
        uint32_t first = 0;
        sum += maniMorphTargets_GetChannelTargets(&f.m, c, &first) + first;
      }
      for (uint32_t t = 0; t <= T; ++t) {
        size_t len = 0;
        const char* n = maniMorphTargets_GetTargetName(&f.m, t, &len);
        if (n && len) sum += (uint8_t)n[len - 1];
        sum += (uint64_t)maniMorphTargets_GetTargetFullWeight(&f.m, t) != 0;
      }
      sum += maniMorphTargets_FindChannel(&f.m, "shape-2", 7) + maniMorphTargets_FindTarget(&f.m, "shape-3", 7);
      uint32_t count = 0;
      maniResult r = maniMorphTargets_ComputeTargetWeights(&f.m, cw.data(), tw.data(), T, &count);
      ASSERT_EQ(r, mani_success);
      for (uint32_t t = 0; t < T; ++t)
        if (!std::isfinite(tw[t])) tw[t] = 1.0f;
      maniMorphJob j = Job(&f.m, tw.data(), s, 5, i % 7, 24 - i % 5);
      ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
    }
  }
  EXPECT_NE(sum, 0u);
}

// A sparse index patched after the open so the indices are no longer
// sorted: the entry found for the range but naming a vertex outside it adds
// its delta to the range's last vertex (the reference's rule), and the
// vertex it named before is left alone. The range spans two of the job's
// blocks of vertices, so its last vertex is not the first block's.
TEST(MorphView, ChangedSparseIndexOutsideTheRangeGoesToItsLastVertex) {
  const uint32_t V = 300, kEnd = 200;
  const maniMorphSourceAttribute attr = {maniMorphPosition, 0};
  const uint32_t idx[3] = {1, 3, 5};
  const float deltas[9] = {1.0f, 2.0f, 3.0f, 10.0f, 20.0f, 30.0f, 100.0f, 200.0f, 300.0f};
  maniMorphSourceTarget target = {};
  target.fullWeight = 1.0f;
  target.indices = idx;
  target.count = 3;
  target.deltas[0] = deltas;
  const maniMorphSourceChannel channel = {"c", 1, &target, 1};
  const maniMorphSource source = {V, &attr, 1, &channel, 1};
  Builder b;
  ASSERT_EQ(maniBuildMorphTargets(b.b, &source).result, mani_success);
  File file = b.Built();
  maniMorphTargets m;
  ASSERT_EQ(maniOpenMorphTargets(file.data(), file.size, &m).result, mani_success);
  ASSERT_EQ(m.indexCount, 3u);
  const uint32_t outside = 250;  // index entry 0 (vertex 1) now names vertex 250
  memcpy(file.data() + m.indices, &outside, 4);

  std::vector<float> in(3 * V), out(3 * V, -1.0f);
  for (uint32_t i = 0; i < 3 * V; ++i) in[i] = (float)i;
  maniMorphStream s = {maniMorphPosition, 0, 3, 12, 12, in.data(), out.data()};
  const float w = 0.5f;
  maniMorphJob j = Job(&m, &w, &s, 1, 0, kEnd);
  ASSERT_EQ(maniApplyMorphTargets(&j), mani_success);
  for (uint32_t v = 0; v < kEnd; ++v)
    for (uint32_t c = 0; c < 3; ++c) {
      // vertices 3 and 5 their own deltas, vertex 1 nothing, the range's
      // last vertex the stray entry's.
      float want = in[3 * v + c];
      if (v == 3) want = want + 0.5f * deltas[3 + c];
      if (v == 5) want = want + 0.5f * deltas[6 + c];
      if (v == kEnd - 1) want = want + 0.5f * deltas[c];
      EXPECT_EQ(out[3 * v + c], want) << "vertex " << v << " component " << c;
    }
  for (uint32_t i = 3 * kEnd; i < 3 * V; ++i) ASSERT_EQ(out[i], -1.0f) << "outside the range: not written";
}

}  // namespace
