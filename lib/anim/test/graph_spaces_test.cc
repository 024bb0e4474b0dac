// The blend space nodes (graphbuild.h's points, parameterY, period, polar
// and triangles; graph.h's MANI_GRAPH_SPACE_WEIGHTS): 1D midpoints, ends and
// wraps, gradient bands reproducing each point and summing to 1, polar
// bands on a ring, triangulated barycentric weights and the nearest edge
// outside, the Delaunay triangulation checked by the empty-circumcircle
// property and the hull's area worked out here, poses bit for bit against
// maniSkeleton_BlendPoses at the weights expected, evaluation reading the
// weights the last update kept, every build refusal, the open's checks of
// the words, the JSON form's defaults and fixed point, Save/Restore.
// Expected weights are worked out by hand (dyadic values, exact in
// binary32) or by formulas computed here, never read back from the code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "lib/anim/src/build/graph_json_internal.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "lib/core/rng.h"
#include "maul/anim/blend.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"

namespace {

struct Mem {
  std::vector<uint64_t> words;
  uint8_t* p = nullptr;
  size_t size = 0;
  explicit Mem(size_t n) : size(n) {
    words.assign(n / 8 + 8, 0);
    uintptr_t a = (reinterpret_cast<uintptr_t>(words.data()) + 31) & ~uintptr_t(31);
    p = reinterpret_cast<uint8_t*>(a);
  }
};

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s) {
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, seed, s, 0, maniLoopRepeat, maniAdditiveNone);
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&fc.source, &size);
    EXPECT_NE(bytes, nullptr);
    file.Assign(bytes, size);
    free(bytes);
    maniFixtureFreeClip(&fc);
    EXPECT_EQ(maniOpenClip(file.data(), file.size, &c).result, mani_success);
  }
};

maniGraphParameterSource Param(const char* name, maniGraphParameterType type) {
  maniGraphParameterSource p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.nameLength = strlen(name);
  p.type = type;
  return p;
}

// Parameters by place.
enum : uint32_t { kX = 0, kY = 1, kFlag = 2 };

constexpr uint32_t kMaxClips = 8;
constexpr uint32_t kBones = 9;

std::vector<uint8_t> PoseLocals(const maniPose* p) {
  std::vector<maniTransform> t(kBones);
  EXPECT_EQ(maniPose_ReadLocals(p, 0, kBones, t.data()), mani_success);
  std::vector<uint8_t> out(sizeof(maniTransform) * kBones);
  memcpy(out.data(), t.data(), out.size());
  return out;
}

// Clip nodes 0 .. n-1 (speed 0: every playhead stays at 0) under one space
// node, the output (place n). The clips are shared by every input count.
struct Space {
  Skel skel{41, kBones};
  std::vector<Clip> clipFiles;
  std::vector<maniGraphParameterSource> params;
  std::vector<maniGraphClipSource> clips;
  std::vector<maniGraphNodeSource> nodes;
  std::vector<uint32_t> inputs;
  std::vector<maniGraphSpacePoint> points;
  std::vector<uint32_t> triangles;
  std::vector<char> names;
  maniGraphNodeKind kind;
  float period = 0.0f;
  bool polar = false;
  uint32_t parameter = kX, parameterY = kY;
  maniGraphSource src;
  File file;
  maniGraph g;
  std::vector<const maniClip*> clipList;
  maniGraphAssets assets;
  Mem binding{0};
  maniGraphBinding* bound = nullptr;

  Space(maniGraphNodeKind k, std::vector<maniGraphSpacePoint> p) : points(p), kind(k) {
    params = {Param("x", maniGraphParameterFloat), Param("y", maniGraphParameterFloat),
              Param("flag", maniGraphParameterBool)};
    clipFiles.reserve(kMaxClips);
    names.assign(2 * kMaxClips, 0);
    for (uint32_t k2 = 0; k2 < kMaxClips; ++k2) {
      clipFiles.emplace_back(100 + k2, &skel.s);
      names[2 * k2] = (char)('a' + k2);
    }
  }
  uint32_t Count() const { return (uint32_t)points.size(); }
  const maniGraphSource& Source() {
    const uint32_t n = Count();
    clips.clear();
    nodes.clear();
    inputs.clear();
    for (uint32_t k2 = 0; k2 < n && k2 < kMaxClips; ++k2) {
      clips.push_back({&names[2 * k2], 1, &clipFiles[k2].c, nullptr});
    }
    for (uint32_t i = 0; i < n; ++i) {
      maniGraphNodeSource c;
      memset(&c, 0, sizeof c);
      c.kind = maniGraphNodeClip;
      c.clip = i % kMaxClips;
      c.speed = 0.0f;
      nodes.push_back(c);
      inputs.push_back(i);
    }
    maniGraphNodeSource s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.inputs = inputs.data();
    s.inputCount = n;
    s.parameter = parameter;
    s.parameterY = parameterY;
    s.points = points.data();
    s.period = period;
    s.polar = polar;
    s.triangles = triangles.empty() ? nullptr : triangles.data();
    s.triangleCount = (uint32_t)(triangles.size() / 3);
    nodes.push_back(s);
    memset(&src, 0, sizeof src);
    src.skeleton = &skel.s;
    src.parameters = params.data();
    src.parameterCount = (uint32_t)params.size();
    src.clips = clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.nodes = nodes.data();
    src.nodeCount = (uint32_t)nodes.size();
    src.output = n;
    return src;
  }
  void Build() {
    Builder builder;
    ASSERT_EQ(maniBuildGraph(builder.b, &Source()).result, mani_success);
    file = builder.Built();
    Open();
  }
  void Open() {
    ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
    for (uint32_t n = 0; n < maniGraph_GetNodeCount(&g); ++n) ASSERT_EQ(maniGraph_GetNodeSourcePlace(&g, n), n);
    clipList.clear();
    for (uint32_t k2 = 0; k2 < src.clipCount; ++k2) clipList.push_back(&clipFiles[k2].c);
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skel.s;
    assets.clips = clipList.data();
    assets.clipCount = (uint32_t)clipList.size();
    binding = Mem(maniGraph_GetBindingSize(&g));
    ASSERT_EQ(maniBindGraph(&g, &assets, binding.p, binding.size, &bound, nullptr), mani_success);
  }
  maniBuildResult Refusal() {
    Builder builder;
    return maniBuildGraph(builder.b, &Source());
  }
  // The space's node data words in the file.
  const uint8_t* Words() const {
    const uint8_t* dir = g.bytes + g.nodeData + 8u * (g.nodeCount - 1);
    return g.bytes + g.nodeData + 8u * g.nodeCount + 4u * mcore_ReadU32(dir);
  }
  uint32_t WordCount() const { return mcore_ReadU32(g.bytes + g.nodeData + 8u * (g.nodeCount - 1) + 4); }
  std::vector<uint32_t> FileTriangles() const {
    const uint8_t* w = Words();
    const uint32_t t = mcore_ReadU32(w + 4);
    std::vector<uint32_t> out(3 * t);
    for (uint32_t k2 = 0; k2 < 3 * t; ++k2) out[k2] = mcore_ReadU32(w + 8 + 8 * Count() + 4 * k2);
    return out;
  }
};

struct Instance {
  Mem mem{0};
  maniGraphInstance* i = nullptr;
  explicit Instance(const maniGraphBinding* b) : mem(maniGraphBinding_GetInstanceSize(b)) {
    EXPECT_EQ(maniInitGraphInstance(b, mem.p, mem.size, &i), mani_success);
  }
  void Update() { ASSERT_EQ(maniGraphInstance_Update(i, 0.0f, nullptr, 0, nullptr, nullptr), mani_success); }
  void SetFloat(uint32_t p, float f) {
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    v.number = f;
    ASSERT_EQ(maniGraphInstance_SetParameter(i, p, maniGraphParameterFloat, v), mani_success);
  }
  // Each input's share of the output after an update at (x, y).
  std::vector<float> At(uint32_t n, float x, float y = 0.0f) {
    SetFloat(kX, x);
    SetFloat(kY, y);
    Update();
    std::vector<float> w(n);
    for (uint32_t k = 0; k < n; ++k) {
      maniGraphNodeView v;
      EXPECT_EQ(maniGraphInstance_InspectNode(i, k, &v), mani_success);
      w[k] = v.weight;
    }
    return w;
  }
  std::vector<uint8_t> Saved() const {
    size_t size = 0;
    EXPECT_EQ(maniGraphInstance_Save(i, nullptr, 0, &size), mani_errorCapacity);
    std::vector<uint8_t> out(size);
    EXPECT_EQ(maniGraphInstance_Save(i, out.data(), size, &size), mani_success);
    return out;
  }
};

std::string Str(const std::vector<float>& w) {
  std::string s;
  for (float f : w) s += std::to_string(f) + " ";
  return s;
}

// -- 1D -----------------------------------------------------------------------------------

TEST(GraphSpaces, OneDimensionalBetweenNeighboursAndClampedAtTheEnds) {
  Space s(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}, {3.0f, 0.0f}});
  s.Build();
  Instance in(s.bound);
  struct Case {
    float x;
    std::vector<float> w;
  };
  const Case cases[] = {{-1.0f, {1, 0, 0}},        {0.0f, {1, 0, 0}},      {0.5f, {0.5f, 0.5f, 0}},
                        {0.25f, {0.75f, 0.25f, 0}}, {1.0f, {0, 1, 0}},      {2.0f, {0, 0.5f, 0.5f}},
                        {2.5f, {0, 0.25f, 0.75f}},  {3.0f, {0, 0, 1}},      {1e30f, {0, 0, 1}}};
  for (const Case& c : cases) EXPECT_EQ(in.At(3, c.x), c.w) << c.x << ": " << Str(in.At(3, c.x));
  // One input: always whole.
  Space one(maniGraphNodeSpace1D, {{5.0f, 0.0f}});
  one.Build();
  Instance i1(one.bound);
  EXPECT_EQ(i1.At(1, -7.0f), std::vector<float>({1.0f}));
  EXPECT_EQ(i1.At(1, 9.0f), std::vector<float>({1.0f}));
}

TEST(GraphSpaces, OneDimensionalWrapsWithAPeriod) {
  Space s(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}, {3.0f, 0.0f}});
  s.period = 4.0f;
  s.Build();
  Instance in(s.bound);
  // Across the wrap: from 3 to 4 (= 0), span 1.
  EXPECT_EQ(in.At(3, 3.5f), std::vector<float>({0.5f, 0, 0.5f}));
  EXPECT_EQ(in.At(3, 3.75f), std::vector<float>({0.75f, 0, 0.25f}));
  EXPECT_EQ(in.At(3, -0.5f), std::vector<float>({0.5f, 0, 0.5f}));   // -0.5 wraps to 3.5
  EXPECT_EQ(in.At(3, 4.25f), std::vector<float>({0.75f, 0.25f, 0}));  // 4.25 wraps to 0.25
  EXPECT_EQ(in.At(3, 8.0f), std::vector<float>({1, 0, 0}));
  EXPECT_EQ(in.At(3, 2.0f), std::vector<float>({0, 0.5f, 0.5f}));
  // The first position above 0: below it the last and first joined too.
  Space t(maniGraphNodeSpace1D, {{1.0f, 0.0f}, {3.0f, 0.0f}});
  t.period = 4.0f;
  t.Build();
  Instance it(t.bound);
  // x 0.5: 1.5 past the last (3) of a span (1 + 4) - 3 = 2.
  EXPECT_EQ(it.At(2, 0.5f), std::vector<float>({0.75f, 0.25f}));
  EXPECT_EQ(it.At(2, 3.5f), std::vector<float>({0.25f, 0.75f}));
  EXPECT_EQ(it.At(2, 2.5f), std::vector<float>({0.25f, 0.75f}));
}

// -- Gradient bands --------------------------------------------------------------------------

TEST(GraphSpaces, BandsByHand) {
  Space two(maniGraphNodeSpaceBanded, {{0.0f, 0.0f}, {1.0f, 0.0f}});
  two.Build();
  Instance in(two.bound);
  EXPECT_EQ(in.At(2, 0.25f, 0.0f), std::vector<float>({0.75f, 0.25f}));
  EXPECT_EQ(in.At(2, 0.25f, 5.0f), std::vector<float>({0.75f, 0.25f}));  // across the band: the same
  EXPECT_EQ(in.At(2, -3.0f, 1.0f), std::vector<float>({1.0f, 0.0f}));
  // A square's corners: its centre weighs each a quarter; an edge's middle
  // each end a half.
  Space sq(maniGraphNodeSpaceBanded, {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {1.0f, 1.0f}});
  sq.Build();
  Instance is(sq.bound);
  EXPECT_EQ(is.At(4, 0.5f, 0.5f), std::vector<float>({0.25f, 0.25f, 0.25f, 0.25f}));
  EXPECT_EQ(is.At(4, 0.5f, 0.0f), std::vector<float>({0.5f, 0.5f, 0.0f, 0.0f}));
  // One input: always whole.
  Space one(maniGraphNodeSpaceBanded, {{3.0f, -2.0f}});
  one.Build();
  Instance i1(one.bound);
  EXPECT_EQ(i1.At(1, 10.0f, 10.0f), std::vector<float>({1.0f}));
}

std::vector<maniGraphSpacePoint> RandomPoints(uint64_t seed, uint32_t n, float lo, float hi) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, seed);
  std::vector<maniGraphSpacePoint> p(n);
  for (auto& q : p) {
    q.x = mcore_RngFloatRange(&rng, lo, hi);
    q.y = mcore_RngFloatRange(&rng, lo, hi);
  }
  return p;
}

TEST(GraphSpaces, BandsReproduceEachPointAndSumToOne) {
  for (int polar = 0; polar < 2; ++polar) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      Space s(maniGraphNodeSpaceBanded, RandomPoints(seed, 7, -2.0f, 2.0f));
      s.polar = polar != 0;
      s.Build();
      Instance in(s.bound);
      for (uint32_t i = 0; i < 7; ++i) {
        std::vector<float> expect(7, 0.0f);
        expect[i] = 1.0f;
        EXPECT_EQ(in.At(7, s.points[i].x, s.points[i].y), expect) << polar << " " << seed << " " << i;
      }
      mcore_Rng rng;
      mcore_RngSeed(&rng, seed * 77);
      for (int k = 0; k < 50; ++k) {
        const float x = mcore_RngFloatRange(&rng, -3.0f, 3.0f), y = mcore_RngFloatRange(&rng, -3.0f, 3.0f);
        const std::vector<float> w = in.At(7, x, y);
        double sum = 0;
        for (float f : w) {
          EXPECT_GE(f, 0.0f);
          EXPECT_LE(f, 1.0f);
          sum += f;
        }
        EXPECT_NEAR(sum, 1.0, 4e-7 * 7) << x << " " << y;
      }
    }
  }
}

TEST(GraphSpaces, PolarBandsOnARingOfDirections) {
  // Four directions on the unit circle: at 45 degrees the two neighbours
  // share (angle bands of pi/2 against pi: 1 - (pi/2)(pi) / pi^2 = 1/2), the
  // far two none; the radius does not matter on a ring.
  Space s(maniGraphNodeSpaceBanded, {{1.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}, {0.0f, -1.0f}});
  s.polar = true;
  s.Build();
  Instance in(s.bound);
  const float c = 0.70710678f;
  for (float r : {1.0f, 2.0f, 0.5f}) {
    const std::vector<float> w = in.At(4, r * c, r * c);
    EXPECT_NEAR(w[0], 0.5f, 1e-6f) << r;
    EXPECT_NEAR(w[1], 0.5f, 1e-6f) << r;
    EXPECT_EQ(w[2], 0.0f) << r;
    EXPECT_EQ(w[3], 0.0f) << r;
  }
  // Along a direction at any radius: that input whole (the radial parts
  // of the bands from it are 0).
  EXPECT_EQ(in.At(4, 0.0f, 3.0f), std::vector<float>({0, 1, 0, 0}));
  EXPECT_EQ(in.At(4, 0.5f, 0.0f), std::vector<float>({1, 0, 0, 0}));
  // Cartesian bands at (0.5, 0) by hand: 3/4 for the near corner, 1/4 for
  // each other, then normalized by 3/2: the polar flag is read.
  Space cart(maniGraphNodeSpaceBanded, s.points);
  cart.Build();
  Instance ic(cart.bound);
  const std::vector<float> w = ic.At(4, 0.5f, 0.0f);
  EXPECT_EQ(w[0], 0.75f / 1.5f);
  for (int k = 1; k < 4; ++k) EXPECT_EQ(w[k], 0.25f / 1.5f) << k;
  // With the origin among the points (its angular parts 0): a point
  // halfway out toward a direction splits the two.
  Space o(maniGraphNodeSpaceBanded, {{0.0f, 0.0f}, {2.0f, 0.0f}});
  o.polar = true;
  o.Build();
  Instance io(o.bound);
  // radial parts: a = (1 - 0) / 1, b = (2 - 0) / 1: h_0 = 1 - 2/4 = 1/2;
  // from 2: a = (1 - 2) / 1, b = -2: h_1 = 1 - 2/4 = 1/2.
  EXPECT_EQ(io.At(2, 1.0f, 0.0f), std::vector<float>({0.5f, 0.5f}));
  EXPECT_EQ(io.At(2, 0.0f, 1.0f), std::vector<float>({0.5f, 0.5f}));  // any direction: same radius
}

// -- Triangulated ---------------------------------------------------------------------------

TEST(GraphSpaces, TriangulatedBarycentricAndNearestEdge) {
  Space s(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {2.0f, 0.0f}, {0.0f, 2.0f}});
  s.triangles = {0, 1, 2};
  s.Build();
  Instance in(s.bound);
  EXPECT_EQ(in.At(3, 0.5f, 0.5f), std::vector<float>({0.5f, 0.25f, 0.25f}));
  EXPECT_EQ(in.At(3, 1.0f, 0.0f), std::vector<float>({0.5f, 0.5f, 0.0f}));
  EXPECT_EQ(in.At(3, 0.0f, 2.0f), std::vector<float>({0.0f, 0.0f, 1.0f}));
  // Outside: (2, 2) nearest to (1, 1), the middle of edge 1 -> 2.
  EXPECT_EQ(in.At(3, 2.0f, 2.0f), std::vector<float>({0.0f, 0.5f, 0.5f}));
  // (-1, -1) nearest to the corner 0 (edge 0 -> 1 first, at its start).
  EXPECT_EQ(in.At(3, -1.0f, -1.0f), std::vector<float>({1.0f, 0.0f, 0.0f}));
  // (1, -3): the point (1, 0) of edge 0 -> 1.
  EXPECT_EQ(in.At(3, 1.0f, -3.0f), std::vector<float>({0.5f, 0.5f, 0.0f}));
  // A clockwise triangle weighs the same.
  Space cw(maniGraphNodeSpaceTriangulated, s.points);
  cw.triangles = {0, 2, 1};
  cw.Build();
  Instance ic(cw.bound);
  EXPECT_EQ(ic.At(3, 0.5f, 0.5f), std::vector<float>({0.5f, 0.25f, 0.25f}));
  // Two triangles over one square: the first holding the point is taken (the
  // diagonal belongs to both).
  Space q(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {4.0f, 0.0f}, {4.0f, 4.0f}, {0.0f, 4.0f}});
  q.triangles = {0, 1, 2, 0, 2, 3};
  q.Build();
  Instance iq(q.bound);
  EXPECT_EQ(iq.At(4, 3.0f, 1.0f), std::vector<float>({0.25f, 0.5f, 0.25f, 0.0f}));
  EXPECT_EQ(iq.At(4, 1.0f, 3.0f), std::vector<float>({0.25f, 0.0f, 0.25f, 0.5f}));
  EXPECT_EQ(iq.At(4, 2.0f, 2.0f), std::vector<float>({0.5f, 0.0f, 0.5f, 0.0f}));
}

long double Cross(const maniGraphSpacePoint& a, const maniGraphSpacePoint& b, const maniGraphSpacePoint& c) {
  return ((long double)b.x - a.x) * ((long double)c.y - a.y) - ((long double)b.y - a.y) * ((long double)c.x - a.x);
}

// d's power against the circumcircle of the counterclockwise a, b, c
// (positive inside), long double.
long double InCircle(const maniGraphSpacePoint& a, const maniGraphSpacePoint& b, const maniGraphSpacePoint& c,
                     const maniGraphSpacePoint& d) {
  const long double adx = (long double)a.x - d.x, ady = (long double)a.y - d.y;
  const long double bdx = (long double)b.x - d.x, bdy = (long double)b.y - d.y;
  const long double cdx = (long double)c.x - d.x, cdy = (long double)c.y - d.y;
  return (adx * adx + ady * ady) * (bdx * cdy - cdx * bdy) + (bdx * bdx + bdy * bdy) * (cdx * ady - adx * cdy) +
         (cdx * cdx + cdy * cdy) * (adx * bdy - bdx * ady);
}

// The convex hull's doubled area (Andrew's monotone chain), long double.
long double HullArea(std::vector<maniGraphSpacePoint> p) {
  std::sort(p.begin(), p.end(), [](const maniGraphSpacePoint& a, const maniGraphSpacePoint& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  std::vector<maniGraphSpacePoint> h(2 * p.size());
  size_t k = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && Cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (size_t i = p.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && Cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  long double area = 0;
  for (size_t i = 1; i + 2 < k; ++i) area += Cross(h[0], h[i], h[i + 1]);
  return area;
}

void ExpectDelaunay(Space& s) {
  const std::vector<uint32_t> t = s.FileTriangles();
  const uint32_t n = s.Count();
  ASSERT_FALSE(t.empty());
  std::vector<int> used(n, 0);
  long double area = 0;
  for (size_t k = 0; k < t.size(); k += 3) {
    const auto &a = s.points[t[k]], &b = s.points[t[k + 1]], &c = s.points[t[k + 2]];
    const long double doubled = Cross(a, b, c);
    EXPECT_GT(doubled, 0) << "triangle " << k / 3 << " counterclockwise";
    area += doubled;
    used[t[k]] = used[t[k + 1]] = used[t[k + 2]] = 1;
    // Empty circumcircle: no point strictly inside (a relative margin for
    // the build's binary64 rounding).
    const long double scale = (long double)std::fabs(a.x) + std::fabs(a.y) + 1.0L;
    for (uint32_t d = 0; d < n; ++d) {
      if (d == t[k] || d == t[k + 1] || d == t[k + 2]) continue;
      EXPECT_LE(InCircle(a, b, c, s.points[d]), 1e-9L * scale * scale * scale * scale)
          << "point " << d << " inside triangle " << k / 3;
    }
  }
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(used[i], 1) << "point " << i << " in no triangle";
  // Triangles of positive area covering the hull's exactly: no overlap, no
  // hole.
  const long double hull = HullArea(s.points);
  EXPECT_NEAR((double)area, (double)hull, 1e-9 * (double)hull);
}

TEST(GraphSpaces, DelaunayOfASquareAndItsCentre) {
  Space s(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}, {0.5f, 0.5f}});
  s.Build();
  const std::vector<uint32_t> t = s.FileTriangles();
  ASSERT_EQ(t.size(), 12u);
  for (size_t k = 0; k < 12; k += 3) EXPECT_TRUE(t[k] == 4 || t[k + 1] == 4 || t[k + 2] == 4) << k;
  ExpectDelaunay(s);
  // The runtime reads the triangles made: the centre is whole at its point,
  // a quarter of the way to a corner shares with it.
  Instance in(s.bound);
  EXPECT_EQ(in.At(5, 0.5f, 0.5f), std::vector<float>({0, 0, 0, 0, 1}));
  const std::vector<float> w = in.At(5, 0.25f, 0.25f);
  EXPECT_EQ(w[4], 0.5f);
  EXPECT_EQ(w[0], 0.5f);
}

TEST(GraphSpaces, DelaunayOfRandomPointsHasEmptyCircumcircles) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const uint32_t n = 3 + (uint32_t)(seed * 7 % 40);
    Space s(maniGraphNodeSpaceTriangulated, RandomPoints(seed, n, -10.0f, 10.0f));
    s.Build();
    SCOPED_TRACE(seed);
    ExpectDelaunay(s);
    // A build of the same source writes the same triangles.
    Space again(maniGraphNodeSpaceTriangulated, s.points);
    again.Build();
    EXPECT_EQ(again.FileTriangles(), s.FileTriangles());
  }
  // Points on a grid (many cocircular and collinear): still a triangulation.
  std::vector<maniGraphSpacePoint> grid;
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 6; ++x) grid.push_back({(float)x, (float)y});
  Space g(maniGraphNodeSpaceTriangulated, grid);
  g.Build();
  ExpectDelaunay(g);
  EXPECT_EQ(g.FileTriangles().size(), 3u * 2u * 5u * 4u);
  // Collinear points then one off the line: fanned.
  Space f(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {1.0f, 0.0f}, {2.0f, 0.0f}, {3.0f, 0.0f}, {1.5f, 1.0f}});
  f.Build();
  ExpectDelaunay(f);
  EXPECT_EQ(f.FileTriangles().size(), 9u);
}

// -- Poses ---------------------------------------------------------------------------------

// The space's pose against maniSkeleton_BlendPoses of the clips (sampled at
// 0) at weights worked out by hand, bit for bit; then with the parameters
// changed after the update, the pose its update weighed.
void ExpectPose(Space& s, float x, float y, const std::vector<float>& weights, float laterX, float laterY) {
  Instance in(s.bound);
  in.SetFloat(kX, x);
  in.SetFloat(kY, y);
  in.Update();
  in.SetFloat(kX, laterX);  // not read by the evaluation
  in.SetFloat(kY, laterY);
  Mem scratch(maniGraphBinding_GetScratchSize(s.bound));
  Pose out(&s.skel.s), expect(&s.skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(in.i, scratch.p, scratch.size, out.p), mani_success);
  std::vector<Pose> sampled;
  sampled.reserve(weights.size());
  std::vector<maniBlendLayer> layers;
  for (size_t k = 0; k < weights.size(); ++k) {
    sampled.emplace_back(&s.skel.s);
    ASSERT_EQ(maniClip_Sample(&s.clipFiles[k].c, &s.skel.s, 0.0f, sampled.back().p), mani_success);
  }
  for (size_t k = 0; k < weights.size(); ++k)
    if (weights[k] > 0) layers.push_back({sampled[k].p, weights[k], nullptr});
  ASSERT_EQ(maniSkeleton_BlendPoses(&s.skel.s, layers.data(), (uint32_t)layers.size(), 0.0f, expect.p), mani_success);
  EXPECT_EQ(PoseLocals(out.p), PoseLocals(expect.p));
  // A second evaluation, parameters still changed: the same bits.
  Pose again(&s.skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(in.i, scratch.p, scratch.size, again.p), mani_success);
  EXPECT_EQ(PoseLocals(again.p), PoseLocals(expect.p));
}

TEST(GraphSpaces, PosesAreBlendsAtTheWeightsTheUpdateKept) {
  Space one(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}, {3.0f, 0.0f}});
  one.Build();
  ExpectPose(one, 2.5f, 0.0f, {0.0f, 0.25f, 0.75f}, 0.0f, 0.0f);
  Space band(maniGraphNodeSpaceBanded, {{0.0f, 0.0f}, {1.0f, 0.0f}});
  band.Build();
  ExpectPose(band, 0.25f, 0.0f, {0.75f, 0.25f}, 1.0f, 0.0f);
  Space tri(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {2.0f, 0.0f}, {0.0f, 2.0f}});
  tri.triangles = {0, 1, 2};
  tri.Build();
  ExpectPose(tri, 0.5f, 0.5f, {0.5f, 0.25f, 0.25f}, 0.0f, 2.0f);
}

TEST(GraphSpaces, ASpaceBeneathABlendTakesItsShare) {
  // A 1D space of two clips under a normalized blend with a third clip at
  // equal weights: each space input gets half of its weight.
  Space s(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}});
  const maniGraphSource& base = s.Source();
  std::vector<maniGraphNodeSource> nodes(base.nodes, base.nodes + base.nodeCount);
  maniGraphNodeSource c;
  memset(&c, 0, sizeof c);
  c.kind = maniGraphNodeClip;
  c.clip = 2;
  nodes.push_back(c);  // place 3
  uint32_t blendInputs[2] = {2, 3}, blendWeights[2] = {kFlag + 1, kFlag + 1};
  maniGraphNodeSource b;
  memset(&b, 0, sizeof b);
  b.kind = maniGraphNodeBlend;
  b.inputs = blendInputs;
  b.inputCount = 2;
  b.parameters = blendWeights;
  nodes.push_back(b);  // place 4
  std::vector<maniGraphParameterSource> params = s.params;
  params.push_back(Param("w", maniGraphParameterFloat));
  params.back().value.number = 1.0f;
  std::vector<maniGraphClipSource> clips = s.clips;
  clips.push_back({"c", 1, &s.clipFiles[2].c, nullptr});
  maniGraphSource src = base;
  src.nodes = nodes.data();
  src.nodeCount = 5;
  src.output = 4;
  src.parameters = params.data();
  src.parameterCount = (uint32_t)params.size();
  src.clips = clips.data();
  src.clipCount = 3;
  Builder builder;
  ASSERT_EQ(maniBuildGraph(builder.b, &src).result, mani_success);
  s.file = builder.Built();
  s.src = src;
  s.Open();
  Instance in(s.bound);
  const std::vector<float> w = in.At(4, 0.25f);
  EXPECT_EQ(w, std::vector<float>({0.375f, 0.125f, 0.5f, 0.5f}));
}

// -- Save and Restore --------------------------------------------------------------------

TEST(GraphSpaces, SaveAndRestoreKeepTheWeights) {
  Space s(maniGraphNodeSpaceBanded, {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}});
  s.Build();
  Instance a(s.bound);
  a.At(3, 0.3f, 0.2f);
  a.SetFloat(kX, 5.0f);  // after the update: not in the pose
  const std::vector<uint8_t> saved = a.Saved();
  // The block: the three weights after the header, parameters and nodes.
  const size_t block = 32 + 16 * 3 + 16 * 4;
  ASSERT_EQ(saved.size(), block + 12 + 8);
  Instance b(s.bound);
  ASSERT_EQ(maniGraphInstance_Restore(b.i, saved.data(), saved.size()).result, mani_success);
  Mem scratch(maniGraphBinding_GetScratchSize(s.bound));
  Pose pa(&s.skel.s), pb(&s.skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(a.i, scratch.p, scratch.size, pa.p), mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(b.i, scratch.p, scratch.size, pb.p), mani_success);
  EXPECT_EQ(PoseLocals(pa.p), PoseLocals(pb.p));
  EXPECT_EQ(b.Saved(), saved);
  // A weight out of [0, 1] or not finite: refused at its offset, the
  // instance unchanged.
  for (float bad : {-0.25f, 1.5f, std::numeric_limits<float>::quiet_NaN()}) {
    for (uint32_t k = 0; k < 3; ++k) {
      std::vector<uint8_t> forged = saved;
      memcpy(forged.data() + block + 4 * k, &bad, 4);
      Instance c(s.bound);
      const std::vector<uint8_t> before = c.Saved();
      const maniFileResult r = maniGraphInstance_Restore(c.i, forged.data(), forged.size());
      EXPECT_EQ(r.result, mani_errorFormat);
      EXPECT_EQ(r.offset, block + 4 * k);
      EXPECT_EQ(c.Saved(), before);
    }
  }
}

TEST(GraphSpaces, AMemcpyCopyGoesOnWithTheSameBits) {
  Space s(maniGraphNodeSpaceTriangulated, RandomPoints(21, 6, -1.0f, 1.0f));
  s.Build();
  Instance a(s.bound);
  a.At(6, 0.1f, -0.2f);
  Instance b(s.bound);
  memcpy(b.mem.p, a.mem.p, a.mem.size);
  Mem scratch(maniGraphBinding_GetScratchSize(s.bound));
  Pose pa(&s.skel.s), pb(&s.skel.s);
  ASSERT_EQ(maniGraphInstance_Evaluate(a.i, scratch.p, scratch.size, pa.p), mani_success);
  ASSERT_EQ(maniGraphInstance_Evaluate(reinterpret_cast<maniGraphInstance*>(b.mem.p), scratch.p, scratch.size, pb.p),
            mani_success);
  EXPECT_EQ(PoseLocals(pa.p), PoseLocals(pb.p));
  b.i = reinterpret_cast<maniGraphInstance*>(b.mem.p);
  EXPECT_EQ(a.At(6, 3.0f, 0.5f), b.At(6, 3.0f, 0.5f));  // outside: the nearest edge, the same on both
  EXPECT_EQ(a.Saved(), b.Saved());
}

// -- Build refusals -----------------------------------------------------------------------

void ExpectRefused(Space& s, maniResult result, uint32_t reason, uint64_t other, const char* what) {
  const maniBuildResult r = s.Refusal();
  EXPECT_EQ(r.result, result) << what;
  EXPECT_EQ(r.reason, reason) << what;
  EXPECT_EQ(r.item, s.Count()) << what;  // the space node
  EXPECT_EQ(r.other, other) << what;
}

TEST(GraphSpaces, EveryBuildRefusal) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  {
    Space s(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}});
    s.parameter = kFlag;
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonParameter, 0, "x a bool");
    s.parameter = MANI_NO_PARAMETER;
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonParameter, 0, "no x");
    s.parameter = 9;
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonParameter, 0, "x past the parameters");
  }
  {
    Space s(maniGraphNodeSpaceBanded, {{0.0f, 0.0f}, {1.0f, 0.0f}});
    s.parameterY = kFlag;
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonParameter, 1, "y a bool");
    s.parameterY = 9;
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonParameter, 1, "y past the parameters");
    // A 1D space ignores parameterY.
    Space one(maniGraphNodeSpace1D, {{0.0f, 0.0f}});
    one.parameterY = 9;
    EXPECT_EQ(one.Refusal().result, mani_success);
  }
  {
    Space s(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}});
    Builder b;
    maniGraphSource src = s.Source();
    s.nodes.back().points = nullptr;
    EXPECT_EQ(maniBuildGraph(b.b, &src).reason, (uint32_t)maniBuildReasonCount);
    EXPECT_EQ(maniBuildGraph(b.b, &src).other, 0u);
  }
  {
    Space s(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}});
    Builder b;
    maniGraphSource src = s.Source();
    s.nodes.back().triangleCount = 1;  // triangles NULL
    const maniBuildResult r = maniBuildGraph(b.b, &src);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonCount);
    EXPECT_EQ(r.other, 1u);
    s.nodes.back().triangleCount = MANI_MAX_GRAPH_SPACE_TRIANGLES + 1;
    const maniBuildResult l = maniBuildGraph(b.b, &src);
    EXPECT_EQ(l.result, mani_errorLimit);
    EXPECT_EQ(l.reason, (uint32_t)maniBuildReasonNode);
  }
  for (float bad : {inf, -inf, nan}) {
    Space s(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {bad, 0.0f}});
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonNotFinite, 1, "1D x");
    Space t(maniGraphNodeSpaceBanded, {{0.0f, 0.0f}, {1.0f, bad}});
    ExpectRefused(t, mani_errorInvalid, maniBuildReasonNotFinite, 1, "2D y");
    Space p(maniGraphNodeSpace1D, {{0.0f, 0.0f}});
    p.period = bad;
    ExpectRefused(p, mani_errorInvalid, maniBuildReasonScalar, 0, "period");
  }
  {
    Space s(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}});
    s.points[0].y = nan;  // 1D: y not read
    EXPECT_EQ(s.Refusal().result, mani_success);
    s.period = -1.0f;
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonScalar, 0, "period below 0");
    s.period = 1.0f;
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonInput, 1, "position at the period");
    s.period = 0.0f;
    s.points = {{0.0f, 0.0f}, {2.0f, 0.0f}, {2.0f, 0.0f}};
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonInput, 2, "equal positions");
    s.points = {{0.0f, 0.0f}, {2.0f, 0.0f}, {1.0f, 0.0f}};
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonInput, 2, "decreasing");
    s.points = {{-1.0f, 0.0f}, {2.0f, 0.0f}};
    s.period = 4.0f;
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonInput, 0, "below 0 with a period");
  }
  for (maniGraphNodeKind k : {maniGraphNodeSpaceBanded, maniGraphNodeSpaceTriangulated}) {
    Space s(k, {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {1.0f, 0.0f}});
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonInput, 3, "equal points");
  }
  {
    Space s(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {1.0f, 0.0f}, {2.0f, 0.0f}});
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonTriangle, MANI_GRAPH_NONE, "all on a line");
    s.points = {{0.0f, 0.0f}, {1.0f, 1.0f}};
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonTriangle, MANI_GRAPH_NONE, "two points");
    s.points = {{0.0f, 0.0f}};
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonTriangle, MANI_GRAPH_NONE, "one point");
  }
  {
    Space s(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {2.0f, 0.0f}});
    s.triangles = {0, 1, 2, 1, 3, 4};
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonTriangle, 1, "a place past the inputs");
    s.triangles = {0, 1, 2, 1, 3, 3};
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonTriangle, 1, "a place twice");
    s.triangles = {0, 1, 2, 0, 1, 3};
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonTriangle, 1, "no area");
    s.triangles = {0, 1, 2};
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonInput, 3, "an input in no triangle");
    s.triangles = {0, 1, 2, 1, 3, 2};
    EXPECT_EQ(s.Refusal().result, mani_success);
  }
  {
    // No inputs; more than MANI_MAX_GRAPH_INPUTS.
    Space s(maniGraphNodeSpace1D, {});
    ExpectRefused(s, mani_errorInvalid, maniBuildReasonInput, 0, "no inputs");
    std::vector<maniGraphSpacePoint> many(MANI_MAX_GRAPH_INPUTS + 1);
    for (size_t i = 0; i < many.size(); ++i) many[i] = {(float)i, 0.0f};
    Space m(maniGraphNodeSpace1D, many);
    ExpectRefused(m, mani_errorLimit, maniBuildReasonNode, 0, "too many inputs");
    // The most inputs build (a Delaunay of 256 points too).
    many.pop_back();
    Space most(maniGraphNodeSpace1D, many);
    EXPECT_EQ(most.Refusal().result, mani_success);
    Space tri(maniGraphNodeSpaceTriangulated, RandomPoints(99, MANI_MAX_GRAPH_INPUTS, -1.0f, 1.0f));
    tri.Build();
    ExpectDelaunay(tri);
  }
}

TEST(GraphSpaces, BuildKeepsTheHeldFileUnderFailingAllocations) {
  Space s(maniGraphNodeSpaceTriangulated, RandomPoints(5, 9, -1.0f, 1.0f));
  const maniGraphSource& src = s.Source();
  ExpectKeepsHeldUnderFailingAllocations(
      [&](maniBuilder* b) {
        Space hold(maniGraphNodeSpace1D, {{0.0f, 0.0f}});
        return maniBuildGraph(b, &hold.Source());
      },
      [&](maniBuilder* b) { return maniBuildGraph(b, &src); });
}

// -- The open's checks ----------------------------------------------------------------------

void Reseal(File& f) {
  const uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindGraph, f.data() + 64, f.size - 64);
  memcpy(f.data() + 32, &id, 8);
}

uint32_t F32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

struct Patch {
  uint64_t at;  // from the space's first word; the directory's count at ~0
  uint32_t value;
  uint64_t wrong;
};

void ExpectPatchesRefused(Space& s, const std::vector<Patch>& patches) {
  const uint64_t words = (uint64_t)(s.Words() - s.g.bytes);
  const uint64_t countAt = s.g.nodeData + 8u * (s.g.nodeCount - 1) + 4;
  for (const Patch& p : patches) {
    File f = s.file;
    const uint64_t at = p.at == ~0ull ? countAt : words + p.at;
    mcore_WriteU32(f.data() + at, p.value);
    Reseal(f);
    maniGraph out;
    const maniFileResult r = maniOpenGraph(f.data(), f.size, &out);
    EXPECT_EQ(r.result, mani_errorFormat) << p.at;
    EXPECT_EQ(r.offset, p.wrong == ~0ull ? countAt : words + p.wrong) << p.at;
  }
  ExpectEveryMutationRefused(s.file.data(), s.file.size, [](const void* p, size_t n) {
    maniGraph g;
    return maniOpenGraph(p, n, &g);
  });
}

TEST(GraphSpaces, WordsAsTheFormatGivesAndEachWrongOneRefused) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  {
    Space s(maniGraphNodeSpace1D, {{0.5f, 0.0f}, {1.0f, 0.0f}, {3.0f, 0.0f}});
    s.period = 4.0f;
    s.Build();
    ASSERT_EQ(s.WordCount(), 4u);
    const uint32_t expect[] = {F32(4.0f), F32(0.5f), F32(1.0f), F32(3.0f)};
    for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(mcore_ReadU32(s.Words() + 4 * k), expect[k]) << k;
    // The node's index word: x.
    EXPECT_EQ(mcore_ReadU32(s.g.bytes + s.g.nodes + 32u * 3 + 24), kX);
    ExpectPatchesRefused(s, {{0, F32(-1.0f), 0},
                             {0, F32(nan), 0},
                             {0, F32(3.0f), 12},  // 3 is not below the period
                             {4, F32(1.0f), 8},   // not increasing
                             {4, F32(nan), 4},
                             {~0ull, 3, ~0ull}});
    File f = s.file;
    mcore_WriteU32(f.data() + s.g.nodes + 32u * 3 + 24, kFlag);  // x a bool
    Reseal(f);
    maniGraph out;
    EXPECT_EQ(maniOpenGraph(f.data(), f.size, &out).offset, s.g.nodes + 32u * 3 + 24);
    mcore_WriteU32(f.data() + s.g.nodes + 32u * 3 + 24, kX);
    mcore_WriteU32(f.data() + s.g.nodes + 32u * 3 + 28, 1u);  // a number not 0
    Reseal(f);
    EXPECT_EQ(maniOpenGraph(f.data(), f.size, &out).offset, s.g.nodes + 32u * 3 + 28);
  }
  {
    Space s(maniGraphNodeSpaceBanded, {{0.0f, 0.0f}, {1.0f, 0.0f}});
    s.polar = true;
    s.Build();
    ASSERT_EQ(s.WordCount(), 6u);
    const uint32_t expect[] = {kY, 1, F32(0.0f), F32(0.0f), F32(1.0f), F32(0.0f)};
    for (uint32_t k = 0; k < 6; ++k) EXPECT_EQ(mcore_ReadU32(s.Words() + 4 * k), expect[k]) << k;
    ExpectPatchesRefused(s, {{0, kFlag, 0},
                             {0, 7, 0},
                             {4, 2, 4},
                             {16, F32(0.0f), 16},  // equal to the first
                             {20, F32(nan), 20},
                             {~0ull, 5, ~0ull}});
  }
  {
    Space s(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {2.0f, 0.0f}});
    s.triangles = {0, 1, 2, 1, 3, 2};
    s.Build();
    ASSERT_EQ(s.WordCount(), 2u + 8u + 6u);
    EXPECT_EQ(mcore_ReadU32(s.Words()), kY);
    EXPECT_EQ(mcore_ReadU32(s.Words() + 4), 2u);
    EXPECT_EQ(s.FileTriangles(), s.triangles);
    const uint64_t t = 8 + 32;
    ExpectPatchesRefused(s, {{0, kFlag, 0},
                             {4, 0, 4},
                             {4, MANI_MAX_GRAPH_SPACE_TRIANGLES + 1, 4},
                             {4, 1, ~0ull},          // a count the words do not end at
                             {t, 4, t},              // past the inputs
                             {t + 4, 0, t + 4},      // twice
                             {t + 8, 3, t},          // 0, 1, 3: on one line, no area
                             {t + 16, 0, 8 + 24},    // 1, 0, 2: input 3 in no triangle
                             {8 + 8, F32(0.0f), 8 + 8}});  // a point equal to the first
  }
}

// -- JSON ---------------------------------------------------------------------------------

struct Json {
  Space s;
  maniGraphNamedAssets assets;
  explicit Json(maniGraphNodeKind k, std::vector<maniGraphSpacePoint> p) : s(k, p) {}
  void Assets() {
    s.Source();
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &s.skel.s;
    assets.clips = s.clips.data();
    assets.clipCount = (uint32_t)s.clips.size();
  }
  std::string Text() {
    Builder b;
    EXPECT_EQ(maniWriteGraphJson(b.b, &s.Source()).result, mani_success);
    File f = b.Built();
    return std::string(reinterpret_cast<const char*>(f.data()), f.size);
  }
  maniBuildResult Build(const std::string& text, File* out = nullptr) {
    Assets();
    Builder b;
    const maniBuildResult r = maniBuildGraphJson(b.b, text.data(), text.size(), &assets);
    if (r.result == mani_success && out != nullptr) *out = b.Built();
    return r;
  }
  std::vector<uint8_t> FileOf(const std::string& text) {
    File f;
    EXPECT_EQ(Build(text, &f).result, mani_success) << text;
    return std::vector<uint8_t>(f.data(), f.data() + f.size);
  }
  std::vector<uint8_t> Direct() {
    Builder b;
    EXPECT_EQ(maniBuildGraph(b.b, &s.Source()).result, mani_success);
    File f = b.Built();
    return std::vector<uint8_t>(f.data(), f.data() + f.size);
  }
  // Two clips a and b under a space of the members given.
  static std::string Graph(const std::string& space) {
    return "{\"format\": \"maul-anim graph\", \"version\": 1, \"parameters\": [{\"name\": \"x\", \"type\": "
           "\"float\"}, {\"name\": \"y\", \"type\": \"float\"}, {\"name\": \"flag\", \"type\": \"bool\"}], "
           "\"clips\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\"}], \"nodes\": [{\"kind\": \"clip\", "
           "\"clip\": \"a\", \"speed\": 0}, {\"kind\": \"clip\", \"clip\": \"b\", \"speed\": 0}, {\"kind\": "
           "\"clip\", \"clip\": \"c\", \"speed\": 0}, {" +
           space + "}], \"output\": 3}";
  }
};

TEST(GraphSpaces, JsonWrittenReadAndWrittenAgainIsAFixedPoint) {
  for (maniGraphNodeKind k : {maniGraphNodeSpace1D, maniGraphNodeSpaceBanded, maniGraphNodeSpaceTriangulated}) {
    Json j(k, {{0.25f, 0.0f}, {1.5f, 2.0f}, {3.0f, -1.0f}});
    if (k == maniGraphNodeSpace1D) j.s.period = 4.0f;
    if (k == maniGraphNodeSpaceBanded) j.s.polar = true;
    if (k == maniGraphNodeSpaceTriangulated) j.s.triangles = {0, 2, 1};
    const std::string text = j.Text();
    EXPECT_EQ(j.FileOf(text), j.Direct()) << text;
    // Read back into a source and written again: the same text.
    struct Keep {
      std::string text;
    } keep;
    j.Assets();
    Builder b;
    ASSERT_EQ(mani_ReadGraphJson(
                  b.b, text.data(), text.size(), &j.assets,
                  [](void* user, maniBuilder* builder, const maniGraphSource* src) {
                    maniBuildResult r = maniWriteGraphJson(builder, src);
                    size_t size = 0;
                    if (r.result != mani_success ||
                        maniBuilder_CopyBuilt(builder, nullptr, 0, &size) != mani_errorCapacity)
                      return r;
                    std::string& t = static_cast<Keep*>(user)->text;
                    t.assign(size, '\0');
                    if (maniBuilder_CopyBuilt(builder, &t[0], size, &size) != mani_success) t.clear();
                    return r;
                  },
                  &keep)
                  .result,
              mani_success);
    EXPECT_EQ(keep.text, text);
    EXPECT_NE(text.find(k == maniGraphNodeSpace1D ? "\"kind\": \"space1D\"" : k == maniGraphNodeSpaceBanded
                                                                                ? "\"kind\": \"spaceBanded\""
                                                                                : "\"kind\": \"spaceTriangulated\""),
              std::string::npos)
        << text;
    if (k == maniGraphNodeSpace1D) {
      EXPECT_NE(text.find("\"period\": 4"), std::string::npos) << text;
      EXPECT_EQ(text.find("parameterY"), std::string::npos) << text;
    }
    if (k == maniGraphNodeSpaceBanded) {
      EXPECT_NE(text.find("\"polar\": true"), std::string::npos) << text;
    }
    if (k == maniGraphNodeSpaceTriangulated) {
      EXPECT_NE(text.find("\"parameterY\": \"y\""), std::string::npos) << text;
    }
  }
}

TEST(GraphSpaces, JsonLeftOutMembersReadAsTheirDefaults) {
  Json j(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}, {2.0f, 0.0f}});
  const std::string in = "\"inputs\": [0, 1, 2], \"parameter\": \"x\"";
  EXPECT_EQ(j.FileOf(Json::Graph("\"kind\": \"space1D\", " + in +
                                 ", \"positions\": [{\"x\": 0}, {\"x\": 1}, {\"x\": 2}]")),
            j.FileOf(Json::Graph("\"kind\": \"space1D\", " + in +
                                 ", \"positions\": [{\"x\": 0, \"y\": 0}, {\"x\": 1}, {\"x\": 2}], \"period\": 0")));
  EXPECT_NE(j.FileOf(Json::Graph("\"kind\": \"space1D\", " + in +
                                 ", \"positions\": [{\"x\": 0}, {\"x\": 1}, {\"x\": 2}]")),
            j.FileOf(Json::Graph("\"kind\": \"space1D\", " + in +
                                 ", \"positions\": [{\"x\": 0}, {\"x\": 1}, {\"x\": 2}], \"period\": 3")));
  const std::string p2 = ", \"parameterY\": \"y\", \"positions\": [{\"x\": 0}, {\"x\": 1}, {\"x\": 0, \"y\": 1}]";
  EXPECT_EQ(j.FileOf(Json::Graph("\"kind\": \"spaceBanded\", " + in + p2)),
            j.FileOf(Json::Graph("\"kind\": \"spaceBanded\", " + in + p2 + ", \"polar\": false")));
  EXPECT_NE(j.FileOf(Json::Graph("\"kind\": \"spaceBanded\", " + in + p2)),
            j.FileOf(Json::Graph("\"kind\": \"spaceBanded\", " + in + p2 + ", \"polar\": true")));
  // Triangles left out: the Delaunay triangulation (here the one triangle).
  EXPECT_EQ(j.FileOf(Json::Graph("\"kind\": \"spaceTriangulated\", " + in + p2)),
            j.FileOf(Json::Graph("\"kind\": \"spaceTriangulated\", " + in + p2 + ", \"triangles\": []")));
  // The same source built directly.
  Json d(maniGraphNodeSpaceTriangulated, {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}});
  EXPECT_EQ(j.FileOf(Json::Graph("\"kind\": \"spaceTriangulated\", " + in + p2)), d.Direct());
}

TEST(GraphSpaces, JsonRefusalsAtTheirBytes) {
  Json j(maniGraphNodeSpace1D, {{0.0f, 0.0f}, {1.0f, 0.0f}, {2.0f, 0.0f}});
  auto expectForm = [&](const std::string& space, maniGraphForm form, const std::string& at) {
    const std::string text = Json::Graph(space);
    const maniBuildResult r = j.Build(text);
    EXPECT_EQ(r.result, mani_errorInvalid) << text;
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonForm) << text;
    EXPECT_EQ(r.other, (uint64_t)form) << text;
    EXPECT_EQ(r.item, text.find(at)) << text;
  };
  const std::string in = "\"inputs\": [0, 1], \"parameter\": \"x\"";
  expectForm("\"kind\": \"space1D\", " + in, maniGraphFormMissing, "{\"kind\": \"space1D\"");
  expectForm("\"kind\": \"space1D\", " + in + ", \"positions\": [{\"x\": 0}]", maniGraphFormValue, "[{\"x\": 0}]");
  expectForm("\"kind\": \"space1D\", " + in + ", \"positions\": [{\"x\": 0}, {\"y\": 1}]", maniGraphFormMissing,
             "{\"y\": 1}");
  expectForm("\"kind\": \"space1D\", " + in + ", \"positions\": [{\"x\": 0}, {\"x\": 1, \"z\": 1}]", maniGraphFormMember,
             "\"z\"");
  expectForm("\"kind\": \"space1D\", " + in + ", \"positions\": [{\"x\": 0}, {\"x\": 1}], \"polar\": true",
             maniGraphFormMember, "\"polar\"");
  expectForm("\"kind\": \"space1D\", " + in + ", \"positions\": [{\"x\": 0}, {\"x\": 1e39}]", maniGraphFormValue,
             "1e39");
  expectForm("\"kind\": \"space1D\", \"inputs\": [0, 1], \"parameter\": \"nope\", \"positions\": [{\"x\": 0}, {\"x\": "
             "1}]",
             maniGraphFormName, "\"nope\"");
  expectForm("\"kind\": \"spaceBanded\", " + in + ", \"positions\": [{\"x\": 0}, {\"x\": 1}]", maniGraphFormMissing,
             "{\"kind\": \"spaceBanded\"");
  expectForm("\"kind\": \"spaceBanded\", " + in + ", \"parameterY\": 3, \"positions\": [{\"x\": 0}, {\"x\": 1}]",
             maniGraphFormType, "3, \"positions\"");
  const std::string tri = "\"kind\": \"spaceTriangulated\", \"inputs\": [0, 1, 2], \"parameter\": \"x\", "
                          "\"parameterY\": \"y\", \"positions\": [{\"x\": 0}, {\"x\": 1}, {\"x\": 0, \"y\": 1}]";
  expectForm(tri + ", \"triangles\": [[0, 1]]", maniGraphFormValue, "[0, 1]]");
  expectForm(tri + ", \"triangles\": [5]", maniGraphFormType, "5]");
  expectForm(tri + ", \"triangles\": [[0, 1, -2]]", maniGraphFormValue, "-2");
  // A refusal of the build, through the text: a triangle past the inputs.
  const maniBuildResult r = j.Build(Json::Graph(tri + ", \"triangles\": [[0, 1, 7]]"));
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonTriangle);
  EXPECT_EQ(r.item, 3u);
  EXPECT_EQ(r.other, 0u);
}

}  // namespace
