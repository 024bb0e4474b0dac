// Learned models (learned.h, learnedbuild.h): the build's refusals, the
// open's checks and mutations, the accessors, and Project, Step and
// Decompress against straightforward networks written here from the
// reference text: a binary64 one (within a stated tolerance) and a binary32
// one in the reference's order (bit for bit).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "lib/anim/test/fixtures/match_fixtures.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedbuild.h"
#include "maul/anim/pose.h"

namespace {

// A skeleton, the seed's small database and the fixture's source for them.
struct Source {
  Skel skel;
  File dbFile;
  maniMotionDatabase db{};
  maniFixtureLearned fx{};
  Source(uint64_t seed, uint32_t hidden, uint32_t format) : skel(seed, 12) {
    size_t size = 0;
    void* bytes = maniFixtureBuildSmallMotionDatabase(seed, 2, 30.0f, 8, &size);
    EXPECT_NE(bytes, nullptr);
    dbFile.Assign(bytes, size);
    free(bytes);
    EXPECT_EQ(maniOpenMotionDatabase(dbFile.data(), dbFile.size, &db).result, mani_success);
    EXPECT_EQ(maniFixtureMakeLearnedSource(&fx, seed, hidden, format, &skel.s, &db), 1);
  }
  ~Source() { maniFixtureFreeLearned(&fx); }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;
};

struct Model {
  Source src;
  File file;
  maniLearnedModel m{};
  std::vector<float> scratch;  // aligned to 16 bytes at `aligned`
  void* aligned = nullptr;
  size_t scratchSize = 0;
  Model(uint64_t seed, uint32_t hidden, uint32_t format) : src(seed, hidden, format) {
    Builder b;
    maniBuildResult r = maniBuildLearnedModel(b.b, &src.fx.source);
    EXPECT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
    file = b.Built();
    maniFileResult o = maniOpenLearnedModel(file.data(), file.size, &m);
    EXPECT_EQ(o.result, mani_success) << o.offset;
    scratchSize = maniLearnedModel_GetScratchSize(&m);
    scratch.assign(scratchSize / 4 + 8, 0.0f);
    uintptr_t p = reinterpret_cast<uintptr_t>(scratch.data());
    aligned = reinterpret_cast<void*>((p + 15) & ~uintptr_t(15));
  }
};

// -- The reference networks ----------------------------------------------------

// A 16-bit weight as the build's paragraph says: per input the largest
// magnitude over 32767, each weight divided by it, nearest, ties to even.
struct Quantized {
  std::vector<float> scales;     // per input
  std::vector<int32_t> weights;  // output by output
};
Quantized Quantize(const maniLearnedLayerSource& l) {
  Quantized q;
  q.scales.assign(l.inputs, 0.0f);
  q.weights.assign((size_t)l.inputs * l.outputs, 0);
  for (uint32_t j = 0; j < l.inputs; ++j) {
    float largest = 0.0f;
    for (uint32_t i = 0; i < l.outputs; ++i) largest = std::max(largest, std::fabs(l.weights[(size_t)i * l.inputs + j]));
    const float s = largest / 32767.0f;
    q.scales[j] = s;
    for (uint32_t i = 0; i < l.outputs; ++i) {
      if (s == 0.0f) continue;
      const float v = l.weights[(size_t)i * l.inputs + j] / s;
      // Nearest, ties to even, by hand (not the library's call).
      float r = std::floor(v);
      const float frac = v - r;
      if (frac > 0.5f || (frac == 0.5f && std::fmod(r, 2.0f) != 0.0f)) r += 1.0f;
      q.weights[(size_t)i * l.inputs + j] = (int32_t)std::max(-32767.0f, std::min(32767.0f, r));
    }
  }
  return q;
}

// binary32, the reference's order: each input normalized, each layer's sum
// from its bias over the inputs in order (16-bit: each input times its scale
// first, then times the integer), a rectifier between layers, then each
// output times its scale plus its offset.
std::vector<float> Run32(const maniLearnedNetworkSource& net, const std::vector<float>& in, uint32_t format) {
  std::vector<float> x(in.size());
  for (size_t j = 0; j < in.size(); ++j) {
    volatile float d = in[j] - net.inputOffsets[j];
    x[j] = d / net.inputScales[j];
  }
  for (uint32_t k = 0; k < net.layerCount; ++k) {
    const maniLearnedLayerSource& l = net.layers[k];
    std::vector<float> y(l.outputs);
    if (format == maniLearnedWeights16) {
      Quantized q = Quantize(l);
      for (uint32_t j = 0; j < l.inputs; ++j) x[j] = x[j] * q.scales[j];
      for (uint32_t i = 0; i < l.outputs; ++i) {
        float s = l.biases[i];
        for (uint32_t j = 0; j < l.inputs; ++j) {
          volatile float t = (float)q.weights[(size_t)i * l.inputs + j] * x[j];
          s = s + t;
        }
        y[i] = s;
      }
    } else {
      for (uint32_t i = 0; i < l.outputs; ++i) {
        float s = l.biases[i];
        for (uint32_t j = 0; j < l.inputs; ++j) {
          volatile float t = l.weights[(size_t)i * l.inputs + j] * x[j];
          s = s + t;
        }
        y[i] = s;
      }
    }
    if (k + 1 < net.layerCount)
      for (float& v : y) v = v > 0.0f ? v : 0.0f;
    x = y;
  }
  std::vector<float> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    volatile float t = x[i] * net.outputScales[i];
    out[i] = t + net.outputOffsets[i];
  }
  return out;
}

// binary64 with the weights the file keeps (16-bit: integer times scale).
std::vector<double> Run64(const maniLearnedNetworkSource& net, const std::vector<double>& in, uint32_t format) {
  std::vector<double> x(in.size());
  for (size_t j = 0; j < in.size(); ++j) x[j] = (in[j] - net.inputOffsets[j]) / net.inputScales[j];
  for (uint32_t k = 0; k < net.layerCount; ++k) {
    const maniLearnedLayerSource& l = net.layers[k];
    Quantized q;
    if (format == maniLearnedWeights16) q = Quantize(l);
    std::vector<double> y(l.outputs);
    for (uint32_t i = 0; i < l.outputs; ++i) {
      double s = l.biases[i];
      for (uint32_t j = 0; j < l.inputs; ++j) {
        const size_t at = (size_t)i * l.inputs + j;
        const double w = format == maniLearnedWeights16 ? (double)q.weights[at] * q.scales[j] : l.weights[at];
        s += w * x[j];
      }
      y[i] = (k + 1 < net.layerCount && s < 0) ? 0.0 : s;
    }
    x = y;
  }
  for (size_t i = 0; i < x.size(); ++i) x[i] = x[i] * net.outputScales[i] + net.outputOffsets[i];
  return x;
}

// The binary64 results are within this of binary32's for these small nets
// (values of order 1, sums of at most ~130 products).
constexpr double kTolerance = 2e-4;

std::vector<float> RandomValues(std::mt19937_64& g, size_t n, double lo, double hi) {
  std::vector<float> v(n);
  for (auto& x : v) {
    const double u = (double)(g() >> 11) * (1.0 / 9007199254740992.0);
    x = (float)(lo + (hi - lo) * u);
  }
  return v;
}

uint32_t StateCount(const Model& md) { return md.src.db.featureCount + MANI_FIXTURE_LEARNED_LATENT; }

// -- Build and open --------------------------------------------------------------

TEST(LearnedBuild, BuildsAndOpensWithItsAccessors) {
  for (uint32_t format : {0u, 1u}) {
    Model md(11, 8, format);
    const maniLearnedModel* m = &md.m;
    EXPECT_EQ(maniLearnedModel_GetSkeletonIdentity(m), maniSkeleton_GetIdentity(&md.src.skel.s));
    EXPECT_EQ(maniLearnedModel_GetDatabaseIdentity(m), maniMotionDatabase_GetIdentity(&md.src.db));
    EXPECT_NE(maniLearnedModel_GetIdentity(m), 0u);
    EXPECT_EQ(maniLearnedModel_GetIdentity(m), mcore_ReadU64(md.file.data() + 32));
    EXPECT_EQ(maniLearnedModel_GetIdentity(nullptr), 0u);
    EXPECT_EQ(maniLearnedModel_GetSkeletonIdentity(nullptr), 0u);
    EXPECT_EQ(maniLearnedModel_GetDatabaseIdentity(nullptr), 0u);
    for (uint32_t c = 0; c < md.src.db.channelCount; ++c) {
      maniMatchChannel a, b;
      ASSERT_EQ(maniLearnedModel_GetChannel(m, c, &a), mani_success);
      ASSERT_EQ(maniMotionDatabase_GetChannel(&md.src.db, c, &b), mani_success);
      EXPECT_EQ(memcmp(&a, &b, sizeof a), 0) << c;
    }
    maniMatchChannel ch;
    EXPECT_EQ(maniLearnedModel_GetChannel(m, md.src.db.channelCount, &ch), mani_errorInvalid);
    EXPECT_EQ(maniLearnedModel_GetChannel(m, 0, nullptr), mani_errorInvalid);
    EXPECT_EQ(maniLearnedModel_GetChannel(nullptr, 0, &ch), mani_errorInvalid);
    uint32_t count = 0;
    EXPECT_EQ(maniLearnedModel_GetNormalization(m, nullptr, nullptr, 0, &count), mani_success);
    EXPECT_EQ(count, md.src.db.featureCount);
    std::vector<float> o(count), s(count), o2(count), s2(count);
    EXPECT_EQ(maniLearnedModel_GetNormalization(m, o.data(), s.data(), count - 1, &count), mani_errorCapacity);
    EXPECT_EQ(maniLearnedModel_GetNormalization(m, nullptr, nullptr, 1, &count), mani_errorInvalid);
    EXPECT_EQ(maniLearnedModel_GetNormalization(nullptr, o.data(), s.data(), count, &count), mani_errorInvalid);
    ASSERT_EQ(maniLearnedModel_GetNormalization(m, o.data(), s.data(), count, nullptr), mani_success);
    ASSERT_EQ(maniMotionDatabase_GetNormalization(&md.src.db, o2.data(), s2.data(), count, nullptr), mani_success);
    EXPECT_EQ(o, o2);
    EXPECT_EQ(s, s2);
    uint32_t req = 9, exc = 9;
    ASSERT_EQ(maniLearnedModel_GetProjector(m, 0, &req, &exc), mani_success);
    EXPECT_EQ(req, 0u);
    EXPECT_EQ(exc, 0u);
    ASSERT_EQ(maniLearnedModel_GetProjector(m, 1, &req, &exc), mani_success);
    EXPECT_EQ(req, 1u);
    EXPECT_EQ(exc, 4u);
    EXPECT_EQ(maniLearnedModel_GetProjector(m, 2, &req, &exc), mani_errorInvalid);
    EXPECT_EQ(maniLearnedModel_GetProjector(nullptr, 0, &req, &exc), mani_errorInvalid);
    EXPECT_EQ(maniLearnedModel_GetFloatTrackCount(m), 1u);
    EXPECT_EQ(maniLearnedModel_GetEventCount(m), 2u);
    EXPECT_EQ(maniLearnedModel_GetFloatTrackCount(nullptr), 0u);
    EXPECT_EQ(maniLearnedModel_GetEventCount(nullptr), 0u);
    size_t len = 0;
    const char* name = maniLearnedModel_GetFloatTrackName(m, 0, &len);
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(std::string(name, len), "curve-0");
    name = maniLearnedModel_GetEventName(m, 1, &len);
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(std::string(name, len), "jump");
    EXPECT_EQ(maniLearnedModel_GetFloatTrackName(m, 1, &len), nullptr);
    EXPECT_EQ(maniLearnedModel_GetEventName(m, 2, &len), nullptr);
    EXPECT_EQ(maniLearnedModel_GetEventName(nullptr, 0, &len), nullptr);
    // Scratch: three arrays of the widest layer (here the Decompressor's
    // output, 9 x 12 + 3 x 2 + 6 + 1 + 2 = 123 floats, padded to 124).
    EXPECT_EQ(maniLearnedModel_GetScratchSize(m), 3u * 4u * 124u);
    EXPECT_EQ(maniLearnedModel_GetScratchSize(nullptr), 0u);
  }
}

TEST(LearnedBuild, SameSourceSameBytes) {
  Model a(5, 6, 1), b(5, 6, 1);
  ASSERT_EQ(a.file.size, b.file.size);
  EXPECT_EQ(memcmp(a.file.data(), b.file.data(), a.file.size), 0);
}

// Each refusal the paragraph lists, with its code, reason, item and other.
TEST(LearnedBuild, EveryRefusal) {
  Source base(21, 5, 0);
  struct Case {
    const char* what;
    std::function<void(maniLearnedModelSource&, std::vector<std::vector<float>>&)> change;
    maniResult result;
    uint32_t reason;
    uint64_t item, other;
  };
  const uint32_t f = base.db.featureCount;
  std::vector<Case> cases = {
      {"rate past the bound", [](auto& s, auto&) { s.stepRate = 241.0f; }, mani_errorLimit, maniBuildReasonTiming, 0, 0},
      {"rate 0", [](auto& s, auto&) { s.stepRate = 0.0f; }, mani_errorInvalid, maniBuildReasonTiming, 0, 0},
      {"rate NaN", [](auto& s, auto&) { s.stepRate = NAN; }, mani_errorInvalid, maniBuildReasonTiming, 0, 0},
      {"latent past", [](auto& s, auto&) { s.latentCount = MANI_MAX_LEARNED_LATENT + 1; }, mani_errorLimit,
       maniBuildReasonOption, 0, 0},
      {"no latent", [](auto& s, auto&) { s.latentCount = 0; }, mani_errorInvalid, maniBuildReasonOption, 0, 0},
      {"weight format", [](auto& s, auto&) { s.weightFormat = 2; }, mani_errorInvalid, maniBuildReasonOption, 1, 0},
      {"projectors past", [](auto& s, auto&) { s.projectorCount = MANI_MAX_LEARNED_PROJECTORS + 1; }, mani_errorLimit,
       maniBuildReasonCount, 0, 0},
      {"tracks past", [](auto& s, auto&) { s.floatTrackCount = MANI_MAX_LEARNED_FLOAT_TRACKS + 1; }, mani_errorLimit,
       maniBuildReasonCount, 0, 0},
      {"events past", [](auto& s, auto&) { s.eventCount = MANI_MAX_LEARNED_EVENTS + 1; }, mani_errorLimit,
       maniBuildReasonCount, 0, 0},
      {"no projector", [](auto& s, auto&) { s.projectorCount = 0; }, mani_errorInvalid, maniBuildReasonCount, 0, 0},
      {"scaled bone past", [](auto& s, auto& k) {
         static uint32_t bones[2] = {3, 12};
         s.scaledBones = bones;
       }, mani_errorInvalid, maniBuildReasonJoint, 1, 0},
      {"scaled bones not increasing", [](auto& s, auto&) {
         static uint32_t bones[2] = {7, 7};
         s.scaledBones = bones;
       }, mani_errorInvalid, maniBuildReasonJoint, 1, 0},
      {"bone scale NaN", [](auto& s, auto& k) {
         k.push_back(std::vector<float>(s.boneScales, s.boneScales + 36));
         k.back()[3 * 5 + 1] = NAN;
         s.boneScales = k.back().data();
       }, mani_errorInvalid, maniBuildReasonNotFinite, 5, 0},
      {"track name past", [](auto& s, auto&) {
         static char big[MANI_MAX_NAME_BYTES + 1];
         memset(big, 'a', sizeof big);
         static maniLearnedNameSource n[1] = {{big, sizeof big}};
         s.floatTracks = n;
       }, mani_errorLimit, maniBuildReasonFloatTrack | maniBuildReasonName, 0, 0},
      {"event name not UTF-8", [](auto& s, auto&) {
         static maniLearnedNameSource n[2] = {{"step", 4}, {"\xff", 1}};
         s.events = n;
       }, mani_errorInvalid, maniBuildReasonEvent | maniBuildReasonName, 1, 0},
      {"event name empty", [](auto& s, auto&) {
         static maniLearnedNameSource n[2] = {{"", 0}, {"x", 1}};
         s.events = n;
       }, mani_errorInvalid, maniBuildReasonEvent | maniBuildReasonName, 0, 0},
      {"event name twice", [](auto& s, auto&) {
         static maniLearnedNameSource n[2] = {{"step", 4}, {"step", 4}};
         s.events = n;
       }, mani_errorInvalid, maniBuildReasonEvent | maniBuildReasonDuplicateName, 1, 0},
      {"decompressor layers past", [](auto& s, auto&) { s.decompressor.layerCount = MANI_MAX_LEARNED_LAYERS + 1; },
       mani_errorLimit, maniBuildReasonNetwork, 0, MANI_MAX_LEARNED_LAYERS},
      {"stepper no layers", [](auto& s, auto&) { s.stepper.layerCount = 0; }, mani_errorInvalid, maniBuildReasonNetwork,
       1, 0},
      {"decompressor output of another size", [](auto& s, auto&) {
         static maniLearnedLayerSource l[2];
         l[0] = s.decompressor.layers[0];
         l[1] = s.decompressor.layers[1];
         l[1].outputs -= 1;
         s.decompressor.layers = l;
       }, mani_errorInvalid, maniBuildReasonNetwork, 0, 1},
      {"stepper layers that do not chain", [](auto& s, auto&) {
         static maniLearnedLayerSource l[2];
         l[0] = s.stepper.layers[0];
         l[1] = s.stepper.layers[1];
         l[1].inputs += 1;
         s.stepper.layers = l;
       }, mani_errorInvalid, maniBuildReasonNetwork, 1, 1},
      {"projector 1 input not the features", [f](auto& s, auto&) {
         static maniLearnedProjectorSource p[2];
         static maniLearnedLayerSource l[2];
         p[0] = s.projectors[0];
         p[1] = s.projectors[1];
         l[0] = p[1].network.layers[0];
         l[1] = p[1].network.layers[1];
         l[0].inputs = f + 1;
         p[1].network.layers = l;
         s.projectors = p;
       }, mani_errorInvalid, maniBuildReasonNetwork, 3, 0},
      {"layer wider than the bound", [](auto& s, auto&) {
         static maniLearnedLayerSource l[2];
         l[0] = s.stepper.layers[0];
         l[1] = s.stepper.layers[1];
         l[0].outputs = MANI_MAX_LEARNED_WIDTH + 1;
         s.stepper.layers = l;
       }, mani_errorLimit, maniBuildReasonNetwork, 1, 0},
      {"weights past the bound", [](auto& s, auto&) {
         static maniLearnedLayerSource l[3];
         l[0] = s.stepper.layers[0];
         l[1] = s.stepper.layers[1];
         l[2] = s.stepper.layers[1];
         l[0].outputs = MANI_MAX_LEARNED_WIDTH;
         l[1].inputs = MANI_MAX_LEARNED_WIDTH;
         l[1].outputs = MANI_MAX_LEARNED_WIDTH;
         l[2].inputs = MANI_MAX_LEARNED_WIDTH;
         s.stepper.layers = l;
         s.stepper.layerCount = 3;
       }, mani_errorLimit, maniBuildReasonNetwork, 1, 1},
      {"weight NaN", [](auto& s, auto& k) {
         static maniLearnedLayerSource l[2];
         const maniLearnedLayerSource& o = s.decompressor.layers[1];
         k.push_back(std::vector<float>(o.weights, o.weights + (size_t)o.inputs * o.outputs));
         k.back()[17] = INFINITY;
         l[0] = s.decompressor.layers[0];
         l[1] = o;
         l[1].weights = k.back().data();
         s.decompressor.layers = l;
       }, mani_errorInvalid, maniBuildReasonNetwork, 0, 1},
      {"input scale 0", [f](auto& s, auto& k) {
         static maniLearnedProjectorSource p[2];
         p[0] = s.projectors[0];
         p[1] = s.projectors[1];
         k.push_back(std::vector<float>(p[0].network.inputScales, p[0].network.inputScales + f));
         k.back()[2] = 0.0f;
         p[0].network.inputScales = k.back().data();
         s.projectors = p;
       }, mani_errorInvalid, maniBuildReasonNetwork, 2, 2},
      {"output offsets NULL", [](auto& s, auto&) { s.stepper.outputOffsets = nullptr; }, mani_errorInvalid,
       maniBuildReasonNetwork, 1, 2},
  };
  for (const Case& c : cases) {
    Builder b;
    maniLearnedModelSource s = base.fx.source;
    std::vector<std::vector<float>> keep;
    keep.reserve(4);
    c.change(s, keep);
    maniBuildResult r = maniBuildLearnedModel(b.b, &s);
    EXPECT_EQ(r.result, c.result) << c.what;
    EXPECT_EQ(r.reason, c.reason) << c.what;
    EXPECT_EQ(r.item, c.item) << c.what;
    EXPECT_EQ(r.other, c.other) << c.what;
    EXPECT_EQ(maniBuilder_GetMisuse(b.b), 0u) << c.what;
  }
  // A database of another skeleton.
  {
    Builder b;
    Skel other(99, 12);
    maniLearnedModelSource s = base.fx.source;
    s.skeleton = &other.s;
    maniBuildResult r = maniBuildLearnedModel(b.b, &s);
    EXPECT_EQ(r.result, mani_errorInvalid);
    EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonDatabase);
  }
  // NULL arguments: misuses.
  {
    Builder b;
    EXPECT_EQ(maniBuildLearnedModel(nullptr, &base.fx.source).result, mani_errorInvalid);
    EXPECT_EQ(maniBuildLearnedModel(b.b, nullptr).result, mani_errorInvalid);
    EXPECT_EQ(maniBuilder_GetMisuse(b.b), 1u);
  }
}

// The 16-bit weights by hand: a column whose largest magnitude is 32767 has
// scale 1 exactly, so its weights 0.5, 1.5, 2.5 and -2.5 round to the even
// neighbours 0, 2, 2 and -2; a column of zeros keeps scale 0.
TEST(LearnedBuild, SixteenBitWeightsRoundToNearestEven) {
  Source src(34, 6, maniLearnedWeights16);
  maniLearnedModelSource s = src.fx.source;
  const maniLearnedLayerSource& first = s.stepper.layers[0];
  const uint32_t in = first.inputs;
  std::vector<float> w(first.weights, first.weights + (size_t)in * first.outputs);
  const float column0[6] = {32767.0f, 0.5f, 1.5f, 2.5f, -2.5f, -32767.0f};
  for (uint32_t i = 0; i < 6; ++i) {
    w[(size_t)i * in + 0] = column0[i];
    w[(size_t)i * in + 1] = 0.0f;
  }
  maniLearnedLayerSource layers[2] = {first, s.stepper.layers[1]};
  layers[0].weights = w.data();
  s.stepper.layers = layers;
  Builder b;
  ASSERT_EQ(maniBuildLearnedModel(b.b, &s).result, mani_success);
  File file = b.Built();
  maniLearnedModel m;
  ASSERT_EQ(maniOpenLearnedModel(file.data(), file.size, &m).result, mani_success);
  // Network 1's parameters: input offsets and scales, then layer 0's 6
  // biases, its per-input scales and its weights.
  const uint64_t scales = m.networkParameters[1] + 8ull * in + 4ull * 6;
  EXPECT_EQ(mcore_ReadF32(file.data() + scales), 1.0f);
  EXPECT_EQ(mcore_ReadF32(file.data() + scales + 4), 0.0f);
  const uint64_t weights = scales + 4ull * in;
  const int16_t expect[6] = {32767, 0, 2, 2, -2, -32767};
  for (uint32_t i = 0; i < 6; ++i) {
    const uint8_t* p = file.data() + weights + 2ull * ((uint64_t)i * in);
    EXPECT_EQ((int16_t)(p[0] | (p[1] << 8)), expect[i]) << i;
    EXPECT_EQ(p[2] | p[3], 0) << i;  // column 1: all zeros
  }
}

// -- The open -------------------------------------------------------------------------

TEST(LearnedOpen, ArgumentsAndVersion) {
  Model md(3, 3, 0);
  maniLearnedModel v;
  EXPECT_EQ(maniOpenLearnedModel(nullptr, md.file.size, &v).result, mani_errorInvalid);
  EXPECT_EQ(maniOpenLearnedModel(md.file.data(), md.file.size, nullptr).result, mani_errorInvalid);
  File g;
  g.words.assign(md.file.size / 8 + 4, 0);
  memcpy(g.data() + 4, md.file.data(), md.file.size);
  EXPECT_EQ(maniOpenLearnedModel(g.data() + 4, md.file.size, &v).result, mani_errorInvalid);
  File h;
  h.Assign(md.file.data(), md.file.size);
  mcore_WriteU32(h.data() + 8, mcore_formatLearnedModel1 + 1);
  EXPECT_EQ(maniOpenLearnedModel(h.data(), h.size, &v).result, mani_errorVersion);
}

TEST(LearnedOpen, EveryMutationRefused) {
  for (uint32_t format : {0u, 1u}) {
    Model md(4, 2, format);
    ExpectEveryMutationRefused(md.file.data(), md.file.size, [](const void* p, size_t n) {
      maniLearnedModel m;
      return maniOpenLearnedModel(p, n, &m);
    });
  }
}

void Rehash(File& f) {
  const uint32_t kind = mcore_kindLearnedModel;
  const uint64_t id = maniHash64(MCORE_IDENTITY_SEED ^ kind, f.data() + 64, (int64_t)f.size - 64);
  mcore_WriteU64(f.data() + 32, id);
}

// Every byte patched and the identity rewritten: the
// open's own checks refuse it at an offset inside the file, or it opens and
// every evaluation stays inside the file and its scratch (ASan checks).
TEST(LearnedOpen, RehashedPatchesRefusedOrSafe) {
  for (uint32_t format : {0u, 1u}) {
    Model md(6, 3, format);
    const uint64_t end = md.file.size;
    uint32_t refused = 0;
    for (uint64_t i = 64; i < end; ++i) {
      for (int patch = 0; patch < 3; ++patch) {
        File g;
        g.Assign(md.file.data(), md.file.size);
        const uint8_t old = g.data()[i];
        const uint8_t v = patch == 0 ? (uint8_t)(old + 1) : patch == 1 ? (uint8_t)(old - 1) : (uint8_t)(old ^ 0x80);
        g.data()[i] = v;
        Rehash(g);
        maniLearnedModel m{};
        maniFileResult r = maniOpenLearnedModel(g.data(), g.size, &m);
        if (r.result != mani_success) {
          ASSERT_TRUE(r.result == mani_errorFormat || r.result == mani_errorVersion) << i;
          ASSERT_LT(r.offset, g.size) << i;
          EXPECT_EQ(m.opened, 0u);
          refused++;
          continue;
        }
        const size_t need = maniLearnedModel_GetScratchSize(&m);
        std::vector<uint64_t> scratch(need / 8 + 2);
        const uint32_t n = m.featureCount + m.latentCount;
        std::vector<float> state(n, 0.25f), query(m.featureCount, 0.5f), tracks(m.floatTrackCount + 1),
            events(m.eventCount + 1);
        const maniResult stepped = maniLearnedModel_Step(&m, state.data(), scratch.data(), need);
        EXPECT_TRUE(stepped == mani_success || stepped == mani_errorFormat) << i;
        uint32_t count = 0;
        const maniResult projected = maniLearnedModel_Project(&m, 0, query.data(), state.data(), n, &count, scratch.data(), need);
        EXPECT_TRUE(projected == mani_success || projected == mani_errorFormat) << i;
        if (m.boneCount == 12) {
          std::vector<uint64_t> pm(maniSkeleton_GetPoseSize(&md.src.skel.s) / 8 + 8);
          maniPose* pose = nullptr;
          void* p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(pm.data()) + 63) & ~uintptr_t(63));
          ASSERT_EQ(maniInitPose(&md.src.skel.s, p, maniSkeleton_GetPoseSize(&md.src.skel.s), &pose), mani_success);
          maniLearnedOutput o{};
          o.pose = pose;
          o.floatTracks = tracks.data();
          o.floatTrackCapacity = (uint32_t)tracks.size();
          o.eventStates = events.data();
          o.eventCapacity = (uint32_t)events.size();
          const maniResult decompressed = maniLearnedModel_Decompress(&m, state.data(), &o, scratch.data(), need);
          EXPECT_TRUE(decompressed == mani_success || decompressed == mani_errorFormat) << i;
        }
      }
    }
    EXPECT_GT(refused, 0u);
  }
}

// Chosen fields patched (and rehashed): each refused at its own offset.
TEST(LearnedOpen, FieldsCheckedAtTheirOffsets) {
  Model md(7, 3, 0);
  const maniLearnedModel& m = md.m;
  const uint64_t info = mcore_ReadU64(md.file.data() + mcore_SectionSizeField(0) - 8);  // section 0's offset
  ASSERT_EQ(mcore_ReadU32(md.file.data() + info + 16), 12u);
  auto patched = [&](uint64_t at, uint32_t value) {
    File g;
    g.Assign(md.file.data(), md.file.size);
    mcore_WriteU32(g.data() + at, value);
    Rehash(g);
    maniLearnedModel out{};
    return maniOpenLearnedModel(g.data(), g.size, &out);
  };
  auto expectAt = [&](uint64_t at, uint32_t value, uint64_t where) {
    maniFileResult r = patched(at, value);
    EXPECT_EQ(r.result, mani_errorFormat) << at;
    EXPECT_EQ(r.offset, where) << at;
  };
  expectAt(info + 48, 2, info + 48);                  // weight format
  expectAt(info + 52, 3, info + 52);                  // up axis
  expectAt(info + 56, m.upAxis, info + 56);           // forward axis = up
  expectAt(info + 60, 0x7FC00000u, info + 60);        // step rate NaN
  expectAt(info + 80, 1, info + 80);                  // reserved
  expectAt(m.scaledBones + 4, 3, m.scaledBones + 4);  // scaled bones not increasing
  expectAt(m.boneScales + 8, 0x7F800000u, m.boneScales + 8);
  expectAt(m.normalization + 4ull * m.featureCount, 0, m.normalization + 4ull * m.featureCount);  // a scale 0
  expectAt(m.nameIndex + 8, 0, m.nameIndex + 8);      // a name out of order
  expectAt(m.networks + 4, 1, m.networks + 4);        // tags on the Decompressor
  expectAt(m.layers, m.featureCount, m.layers);       // a layer not taking the state
  expectAt(m.layers + 4, 4, m.layers + 8);            // layers that do not chain (the next layer's inputs)
  expectAt(m.networkParameters[1] + 4ull * (m.featureCount + m.latentCount), 0,
           m.networkParameters[1] + 4ull * (m.featureCount + m.latentCount));  // an input scale 0
  expectAt(m.networkParameters[0], 0xFF800000u, m.networkParameters[0]);          // an input offset -inf
}

// -- Evaluation --------------------------------------------------------------------------

struct PoseMemory {
  std::vector<uint64_t> words;
  maniPose* pose = nullptr;
  explicit PoseMemory(const maniSkeleton* s) {
    const size_t size = maniSkeleton_GetPoseSize(s);
    words.assign(size / 8 + 16, 0);
    void* p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(words.data()) + 63) & ~uintptr_t(63));
    EXPECT_EQ(maniInitPose(s, p, size, &pose), mani_success);
  }
};

TEST(LearnedEval, ProjectMatchesTheReferences) {
  for (uint32_t format : {0u, 1u}) {
    Model md(31, 16, format);
    const uint32_t f = md.src.db.featureCount, n = StateCount(md);
    std::vector<float> off(f), sc(f);
    ASSERT_EQ(maniMotionDatabase_GetNormalization(&md.src.db, off.data(), sc.data(), f, nullptr), mani_success);
    std::mt19937_64 g(format + 1);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<float> query = RandomValues(g, f, -2, 2);
      for (uint32_t p = 0; p < 2; ++p) {
        std::vector<float> norm(f);
        std::vector<double> norm64(f);
        for (uint32_t j = 0; j < f; ++j) {
          volatile float d = query[j] - off[j];
          norm[j] = d / sc[j];
          norm64[j] = ((double)query[j] - off[j]) / sc[j];
        }
        const maniLearnedNetworkSource& net = md.src.fx.projectors[p].network;
        std::vector<float> ref = Run32(net, norm, format);
        std::vector<double> ref64 = Run64(net, norm64, format);
        std::vector<float> state(n, -7.0f);
        uint32_t count = 0;
        ASSERT_EQ(maniLearnedModel_Project(&md.m, p, query.data(), state.data(), n, &count, md.aligned, md.scratchSize),
                  mani_success);
        EXPECT_EQ(count, n);
        for (uint32_t i = 0; i < n; ++i) {
          EXPECT_EQ(std::memcmp(&state[i], &ref[i], 4), 0) << "format " << format << " value " << i;
          EXPECT_NEAR(state[i], ref64[i], kTolerance * std::max(1.0, std::fabs(ref64[i])));
        }
      }
    }
  }
}

TEST(LearnedEval, StepMatchesTheReferences) {
  for (uint32_t format : {0u, 1u}) {
    Model md(32, 16, format);
    const uint32_t n = StateCount(md);
    std::mt19937_64 g(format + 7);
    std::vector<float> state = RandomValues(g, n, -1, 1);
    for (int step = 0; step < 30; ++step) {
      std::vector<float> rate = Run32(md.src.fx.source.stepper, state, format);
      std::vector<double> in64(state.begin(), state.end());
      std::vector<double> rate64 = Run64(md.src.fx.source.stepper, in64, format);
      const float dt = 1.0f / 30.0f;
      std::vector<float> expect(n);
      for (uint32_t i = 0; i < n; ++i) {
        volatile float t = rate[i] * dt;
        expect[i] = state[i] + t;
      }
      ASSERT_EQ(maniLearnedModel_Step(&md.m, state.data(), md.aligned, md.scratchSize), mani_success);
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(std::memcmp(&state[i], &expect[i], 4), 0) << "step " << step << " value " << i;
        EXPECT_NEAR(state[i], in64[i] + rate64[i] / 30.0, kTolerance * std::max(1.0, (double)std::fabs(state[i])));
      }
    }
  }
}

// The rotation of a bone: the two columns made orthonormal in binary64, the
// library's quaternion turned into a matrix, column by column.
void ExpectRotation(const maniQuat& q, const double c0[3], const double c1[3]) {
  double l0 = std::sqrt(c0[0] * c0[0] + c0[1] * c0[1] + c0[2] * c0[2]);
  double x[3] = {c0[0] / l0, c0[1] / l0, c0[2] / l0};
  double d = x[0] * c1[0] + x[1] * c1[1] + x[2] * c1[2];
  double u[3] = {c1[0] - d * x[0], c1[1] - d * x[1], c1[2] - d * x[2]};
  double l1 = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  double y[3] = {u[0] / l1, u[1] / l1, u[2] / l1};
  double z[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
  const double qx = q.x, qy = q.y, qz = q.z, qw = q.w;
  EXPECT_NEAR(qx * qx + qy * qy + qz * qz + qw * qw, 1.0, 1e-5);
  const double m[3][3] = {{1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)},
                          {2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)},
                          {2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)}};
  for (int r = 0; r < 3; ++r) {
    EXPECT_NEAR(m[r][0], x[r], 1e-4);
    EXPECT_NEAR(m[r][1], y[r], 1e-4);
    EXPECT_NEAR(m[r][2], z[r], 1e-4);
  }
}

TEST(LearnedEval, DecompressMatchesTheReferences) {
  for (uint32_t format : {0u, 1u}) {
    Model md(33, 16, format);
    const uint32_t n = StateCount(md), bones = 12;
    PoseMemory pm(&md.src.skel.s);
    std::mt19937_64 g(format + 11);
    for (int trial = 0; trial < 10; ++trial) {
      std::vector<float> state = RandomValues(g, n, -1.5, 1.5);
      std::vector<float> out = Run32(md.src.fx.source.decompressor, state, format);
      std::vector<double> in64(state.begin(), state.end());
      std::vector<double> out64 = Run64(md.src.fx.source.decompressor, in64, format);
      float tracks[1] = {0}, events[2] = {0};
      maniLearnedOutput o{};
      o.pose = pm.pose;
      o.floatTracks = tracks;
      o.floatTrackCapacity = 1;
      o.eventStates = events;
      o.eventCapacity = 2;
      ASSERT_EQ(maniLearnedModel_Decompress(&md.m, state.data(), &o, md.aligned, md.scratchSize), mani_success);
      uint32_t scaled = 0;
      for (uint32_t b = 0; b < bones; ++b) {
        const maniTransform t = maniPose_GetLocal(pm.pose, b);
        EXPECT_EQ(t.translation.x, out[9 * b]);
        EXPECT_EQ(t.translation.y, out[9 * b + 1]);
        EXPECT_EQ(t.translation.z, out[9 * b + 2]);
        EXPECT_NEAR(t.translation.x, out64[9 * b], kTolerance * std::max(1.0, std::fabs(out64[9 * b])));
        const double c0[3] = {out64[9 * b + 3], out64[9 * b + 4], out64[9 * b + 5]};
        const double c1[3] = {out64[9 * b + 6], out64[9 * b + 7], out64[9 * b + 8]};
        ExpectRotation(t.rotation, c0, c1);
        const float* s;
        if (b == 3 || b == 7) {
          s = &out[9 * bones + 3 * scaled];
          scaled++;
        } else {
          s = md.src.fx.source.boneScales + 3 * b;
        }
        EXPECT_EQ(t.scale.x, s[0]) << b;
        EXPECT_EQ(t.scale.y, s[1]) << b;
        EXPECT_EQ(t.scale.z, s[2]) << b;
      }
      const size_t root = 9 * bones + 6;
      EXPECT_EQ(o.rootVelocity.x, out[root]);
      EXPECT_EQ(o.rootVelocity.y, out[root + 1]);
      EXPECT_EQ(o.rootVelocity.z, out[root + 2]);
      EXPECT_EQ(o.rootAngularVelocity.x, out[root + 3]);
      EXPECT_EQ(o.rootAngularVelocity.y, out[root + 4]);
      EXPECT_EQ(o.rootAngularVelocity.z, out[root + 5]);
      EXPECT_EQ(tracks[0], out[root + 6]);
      EXPECT_EQ(events[0], out[root + 7]);
      EXPECT_EQ(events[1], out[root + 8]);
      EXPECT_NEAR(events[1], out64[root + 8], kTolerance * std::max(1.0, std::fabs(out64[root + 8])));
    }
  }
}

TEST(LearnedEval, Refusals) {
  Model md(34, 4, 0);
  const uint32_t f = md.src.db.featureCount, n = StateCount(md);
  std::vector<float> query(f, 0.1f), state(n, 0.2f), before;
  uint32_t count = 0;
  void* s = md.aligned;
  const size_t z = md.scratchSize;
  // Project.
  EXPECT_EQ(maniLearnedModel_Project(nullptr, 0, query.data(), state.data(), n, &count, s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 0, nullptr, state.data(), n, &count, s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 0, query.data(), nullptr, n, &count, s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 2, query.data(), state.data(), n, &count, s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 0, query.data(), state.data(), n, &count, s, z - 4), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 0, query.data(), state.data(), n, &count, (uint8_t*)s + 4, z),
            mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 0, query.data(), state.data(), n, &count, nullptr, z), mani_errorInvalid);
  query[1] = NAN;
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 0, query.data(), state.data(), n, &count, s, z), mani_errorInvalid);
  query[1] = 0.1f;
  count = 0;
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 0, query.data(), nullptr, 0, &count, s, z), mani_success);
  EXPECT_EQ(count, n);
  before = state;
  count = 0;
  EXPECT_EQ(maniLearnedModel_Project(&md.m, 0, query.data(), state.data(), n - 1, &count, s, z), mani_errorCapacity);
  EXPECT_EQ(count, n);
  EXPECT_EQ(state, before);
  // Step.
  EXPECT_EQ(maniLearnedModel_Step(nullptr, state.data(), s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Step(&md.m, nullptr, s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Step(&md.m, state.data(), s, z - 1), mani_errorInvalid);
  state[2] = INFINITY;
  before = state;
  EXPECT_EQ(maniLearnedModel_Step(&md.m, state.data(), s, z), mani_errorInvalid);
  EXPECT_EQ(memcmp(state.data(), before.data(), 4 * n), 0);
  state[2] = 0.2f;
  // Decompress.
  std::fill(state.begin(), state.end(), 0.2f);
  PoseMemory pm(&md.src.skel.s);
  float tracks[1] = {5}, events[2] = {5, 5};
  maniLearnedOutput o{};
  o.pose = pm.pose;
  o.floatTracks = tracks;
  o.floatTrackCapacity = 1;
  o.eventStates = events;
  o.eventCapacity = 1;  // one short
  EXPECT_EQ(maniLearnedModel_Decompress(&md.m, state.data(), &o, s, z), mani_errorCapacity);
  EXPECT_EQ(events[0], 5.0f);
  EXPECT_EQ(tracks[0], 5.0f);
  o.eventCapacity = 2;
  o.floatTracks = nullptr;
  EXPECT_EQ(maniLearnedModel_Decompress(&md.m, state.data(), &o, s, z), mani_errorInvalid);
  o.floatTracks = tracks;
  EXPECT_EQ(maniLearnedModel_Decompress(nullptr, state.data(), &o, s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Decompress(&md.m, nullptr, &o, s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Decompress(&md.m, state.data(), nullptr, s, z), mani_errorInvalid);
  EXPECT_EQ(maniLearnedModel_Decompress(&md.m, state.data(), &o, s, z - 1), mani_errorInvalid);
  state[0] = NAN;
  EXPECT_EQ(maniLearnedModel_Decompress(&md.m, state.data(), &o, s, z), mani_errorInvalid);
  state[0] = 0.2f;
  Skel other(34, 13);
  PoseMemory wrong(&other.s);
  o.pose = wrong.pose;
  EXPECT_EQ(maniLearnedModel_Decompress(&md.m, state.data(), &o, s, z), mani_errorInvalid);
  o.pose = pm.pose;
  EXPECT_EQ(maniLearnedModel_Decompress(&md.m, state.data(), &o, s, z), mani_success);
  EXPECT_NE(tracks[0], 5.0f);
}

// Networks whose last layers' biases are 1e30 and output scales 1e10: every
// output passes the float range (1e40), whatever the inputs. Each
// evaluation refuses with mani_errorFormat and writes nothing.
TEST(LearnedEval, ValuesPastTheFloatRangeAreTheModelsData) {
  Source src(34, 4, 0);
  maniLearnedModelSource s = src.fx.source;
  std::vector<std::vector<float>> keep;
  keep.reserve(16);
  std::vector<maniLearnedLayerSource> layers[4];
  maniLearnedProjectorSource projectors[2] = {src.fx.projectors[0], src.fx.projectors[1]};
  maniLearnedNetworkSource* nets[4] = {&s.decompressor, &s.stepper, &projectors[0].network, &projectors[1].network};
  for (int k = 0; k < 4; ++k) {
    maniLearnedNetworkSource& net = *nets[k];
    layers[k].assign(net.layers, net.layers + net.layerCount);
    maniLearnedLayerSource& last = layers[k].back();
    keep.emplace_back(last.outputs, 1e30f);
    last.biases = keep.back().data();
    keep.emplace_back(last.outputs, 1e10f);
    net.outputScales = keep.back().data();
    net.layers = layers[k].data();
  }
  s.projectors = projectors;
  Builder b;
  ASSERT_EQ(maniBuildLearnedModel(b.b, &s).result, mani_success);
  File file = b.Built();
  maniLearnedModel m;
  ASSERT_EQ(maniOpenLearnedModel(file.data(), file.size, &m).result, mani_success);
  std::vector<uint64_t> scratch(maniLearnedModel_GetScratchSize(&m) / 8 + 1);
  const size_t z = maniLearnedModel_GetScratchSize(&m);
  const uint32_t n = src.db.featureCount + MANI_FIXTURE_LEARNED_LATENT;
  std::vector<float> query(src.db.featureCount, 0.1f), state(n, 0.2f), before = state;
  uint32_t count = 0;
  EXPECT_EQ(maniLearnedModel_Project(&m, 1, query.data(), state.data(), n, &count, scratch.data(), z), mani_errorFormat);
  EXPECT_EQ(state, before);
  EXPECT_EQ(maniLearnedModel_Step(&m, state.data(), scratch.data(), z), mani_errorFormat);
  EXPECT_EQ(state, before);
  PoseMemory pm(&src.skel.s);
  const maniTransform rest = maniPose_GetLocal(pm.pose, 4);
  float tracks[1] = {5}, events[2] = {5, 5};
  maniLearnedOutput o{};
  o.pose = pm.pose;
  o.floatTracks = tracks;
  o.floatTrackCapacity = 1;
  o.eventStates = events;
  o.eventCapacity = 2;
  EXPECT_EQ(maniLearnedModel_Decompress(&m, state.data(), &o, scratch.data(), z), mani_errorFormat);
  EXPECT_EQ(tracks[0], 5.0f);
  EXPECT_EQ(events[1], 5.0f);
  EXPECT_EQ(o.rootVelocity.x, 0.0f);
  const maniTransform after = maniPose_GetLocal(pm.pose, 4);
  EXPECT_EQ(memcmp(&rest, &after, sizeof rest), 0);
}

}  // namespace
