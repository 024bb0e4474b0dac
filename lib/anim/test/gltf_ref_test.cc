// The independent glTF reference data (lib/anim/test/data/gltf-ref, README
// there; made by tools/gltf/validate_ref.mjs, three_ref.mjs and
// meshopt_three_ref.mjs): every file parses with lib/core/json and is
// complete and self-consistent (rows, columns, counts, value widths, times,
// the validator's verdicts against its own expected reports, the key
// exactness the README states), and, when ../shared/data is there, was made
// from the staged bytes (SHA-256 against shared/data/gltf/manifest.tsv).
// The importer's tests compare against these values; this one only makes
// sure they are there and whole.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "lib/core/json/json.h"
}
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

const char kDir[] = "lib/anim/test/data/gltf-ref/";

bool ReadText(const std::string& path, std::string* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  fclose(f);
  return true;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t at = 0;
  for (;;) {
    size_t next = s.find(sep, at);
    out.push_back(s.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) return out;
    at = next + 1;
  }
}

// Non-comment lines of a TSV, split at tabs.
std::vector<std::vector<std::string>> ReadTsv(const std::string& path) {
  std::string text;
  std::vector<std::vector<std::string>> rows;
  if (!ReadText(path, &text)) return rows;
  for (const std::string& line : Split(text, '\n'))
    if (!line.empty() && line[0] != '#') rows.push_back(Split(line, '\t'));
  return rows;
}

bool IsHex(const std::string& s, size_t n) {
  if (s.size() != n) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool IsCount(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// A JSON document read with lib/core/json and small accessors over it.
class Doc {
 public:
  explicit Doc(const std::string& path) {
    ok_ = ReadText(path, &text_) &&
          mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>(text_.data()), text_.size(), nullptr, &doc_).reason ==
              mcore_jsonOk;
  }
  ~Doc() {
    if (ok_) mcore_JsonRelease(&doc_);
  }
  bool ok() const { return ok_; }
  uint32_t Root() const { return 0; }
  uint32_t Type(uint32_t t) const { return mcore_JsonAt(&doc_, t) ? mcore_JsonAt(&doc_, t)->type : 0; }
  uint32_t Get(uint32_t object, const char* key) const { return mcore_JsonFind(&doc_, object, key, strlen(key)); }
  // The items of an array (empty for another token).
  std::vector<uint32_t> Items(uint32_t array) const {
    std::vector<uint32_t> out;
    const mcore_JsonToken* a = mcore_JsonAt(&doc_, array);
    if (a == nullptr || a->type != mcore_jsonArray) return out;
    uint32_t t = array + 1;
    for (uint32_t i = 0; i < a->count; ++i) {
      out.push_back(t);
      t = mcore_JsonAt(&doc_, t)->next;
    }
    return out;
  }
  bool Number(uint32_t t, double* out) const { return mcore_JsonGetDouble(&doc_, t, out) == mcore_jsonOk; }
  double NumberOr(uint32_t t, double fallback) const {
    double v;
    return Number(t, &v) ? v : fallback;
  }
  bool Numbers(uint32_t array, std::vector<double>* out) const {
    out->clear();
    if (Type(array) != mcore_jsonArray) return false;
    for (uint32_t t : Items(array)) {
      double v;
      if (!Number(t, &v)) return false;
      out->push_back(v);
    }
    return true;
  }
  std::string String(uint32_t t) const {
    char buf[512];
    size_t n = 0;
    if (mcore_JsonGetString(&doc_, t, buf, sizeof buf, &n) != mcore_jsonOk) return "";
    return std::string(buf, n);
  }

 private:
  std::string text_;
  mcore_JsonDoc doc_;
  bool ok_ = false;
};

// The shared glTF folder (data_testing.h), or "" when absent.
std::string SharedGltf() {
  const std::string root = MaulSharedData();
  std::string probe;
  return !root.empty() && ReadText(root + "/gltf/manifest.tsv", &probe) ? root + "/gltf" : "";
}

struct VerdictRow {
  std::string sha256;
  int errors = 0, warnings = 0;
};

std::map<std::string, VerdictRow> Verdicts() {
  std::map<std::string, VerdictRow> out;
  for (const auto& r : ReadTsv(std::string(kDir) + "validator.tsv")) {
    if (r.size() != 9 || r[0] == "file") continue;
    VerdictRow v;
    v.sha256 = r[1];
    v.errors = atoi(r[2].c_str());
    v.warnings = atoi(r[3].c_str());
    out[r[0]] = v;
  }
  return out;
}

TEST(GltfRef, ValidatorTableIsComplete) {
  const auto rows = ReadTsv(std::string(kDir) + "validator.tsv");
  ASSERT_EQ(rows.size(), 60u);  // the header and 59 files
  EXPECT_EQ(rows[0][0], "file");
  int refused = 0, withExpected = 0, missingImages = 0;
  std::set<std::string> files;
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    ASSERT_EQ(r.size(), 9u) << i;
    SCOPED_TRACE(r[0]);
    EXPECT_TRUE(files.insert(r[0]).second);
    EXPECT_TRUE(IsHex(r[1], 64));
    ASSERT_TRUE(IsCount(r[2]) && IsCount(r[3]) && IsCount(r[6]));
    const int errors = atoi(r[2].c_str());
    // Error codes present exactly when there are errors.
    EXPECT_EQ(errors == 0, r[4] == "-");
    EXPECT_EQ(atoi(r[6].c_str()) == 0, r[7] == "-");
    if (r[7] != "-") {
      for (const std::string& p : Split(r[7], ',')) EXPECT_TRUE(p.rfind("/images/", 0) == 0) << p;
      EXPECT_EQ(Split(r[7], ',').size(), (size_t)atoi(r[6].c_str()));
    }
    missingImages += atoi(r[6].c_str());
    if (errors > 0) ++refused;
    const bool validatorCase = r[0].rfind("validator/", 0) == 0;
    // The validator's own cases agree with the reports its repository ships.
    if (validatorCase) {
      ++withExpected;
      EXPECT_EQ(r[8], r[2] + "/" + r[3] + "/" + r[4]);
    } else {
      EXPECT_EQ(r[8], "-");
      EXPECT_EQ(errors, 0) << "a staged model the validator refuses";
    }
  }
  EXPECT_EQ(withExpected, 10);
  EXPECT_EQ(refused, 7);
  EXPECT_EQ(missingImages, 12);
}

TEST(GltfRef, ValidatorTableMatchesSharedManifest) {
  const std::string shared = SharedGltf();
  if (shared.empty()) GTEST_SKIP() << "no ../shared/data";
  std::map<std::string, std::string> manifest;
  for (const auto& r : ReadTsv(shared + "/manifest.tsv"))
    if (r.size() >= 3) manifest[r[0]] = r[2];
  const auto verdicts = Verdicts();
  size_t models = 0;
  for (const auto& m : manifest) {
    const std::string& p = m.first;
    const size_t dot = p.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : p.substr(dot);
    if (ext != ".gltf" && ext != ".glb" && ext != ".vrm") continue;
    ++models;
    auto v = verdicts.find(p);
    ASSERT_NE(v, verdicts.end()) << p;
    EXPECT_EQ(v->second.sha256, m.second) << p;
  }
  EXPECT_EQ(models, verdicts.size());
}

size_t PathWidth(const std::string& path) {
  if (path == "translation" || path == "scale") return 3;
  if (path == "rotation") return 4;
  return 0;  // weights: one per morph target
}

TEST(GltfRef, PosesParseAndAreComplete) {
  const auto index = ReadTsv(std::string(kDir) + "poses/index.tsv");
  ASSERT_EQ(index.size(), 26u);
  const auto verdicts = Verdicts();
  std::set<std::string> skinned;
  std::map<std::string, size_t> clipsOf;
  size_t totalTimes = 0;
  for (const auto& row : index) {
    ASSERT_EQ(row.size(), 5u);
    SCOPED_TRACE(row[0]);
    Doc d(std::string(kDir) + "poses/" + row[0]);
    ASSERT_TRUE(d.ok());
    const uint32_t root = d.Root();
    const std::string source = d.String(d.Get(root, "source"));
    EXPECT_EQ(source, row[1]);
    auto v = verdicts.find(source);
    ASSERT_NE(v, verdicts.end());
    EXPECT_EQ(d.String(d.Get(root, "sha256")), v->second.sha256);
    EXPECT_EQ(d.String(d.Get(d.Get(root, "packages"), "three")), "0.187.0");
    const auto anims = d.Items(d.Get(root, "animations"));
    ASSERT_EQ(anims.size(), (size_t)atoi(row[2].c_str()));
    clipsOf[source] = anims.size();
    size_t channelsTotal = 0;
    for (size_t ai = 0; ai < anims.size(); ++ai) {
      const uint32_t a = anims[ai];
      const double index = d.NumberOr(d.Get(a, "index"), -1);
      EXPECT_GE(index, (double)ai);  // glTF animation index; ones with no node channel are left out
      std::vector<double> times;
      ASSERT_TRUE(d.Numbers(d.Get(a, "times"), &times));
      ASSERT_FALSE(times.empty());
      ASSERT_LE(times.size(), 64u);
      totalTimes += times.size();
      for (size_t i = 1; i < times.size(); ++i) EXPECT_LT(times[i - 1], times[i]) << i;
      EXPECT_EQ(times.back(), d.NumberOr(d.Get(a, "duration"), -1));
      const double channels = d.NumberOr(d.Get(a, "channels"), -1);
      channelsTotal += (size_t)channels;
      EXPECT_TRUE(IsHex(d.String(d.Get(a, "allNodesSha256")), 64));
      const auto nodes = d.Items(d.Get(a, "nodes"));
      EXPECT_EQ(nodes.size(), channels < 48 ? (size_t)channels : 48u);
      for (uint32_t n : nodes) {
        const std::string path = d.String(d.Get(n, "path"));
        const std::string interp = d.String(d.Get(n, "interpolation"));
        SCOPED_TRACE(path + " " + interp);
        EXPECT_TRUE(interp == "STEP" || interp == "LINEAR" || interp == "CUBICSPLINE");
        std::vector<double> values;
        ASSERT_TRUE(d.Numbers(d.Get(n, "values"), &values));
        size_t width = PathWidth(path);
        if (path == "weights") {
          ASSERT_EQ(values.size() % times.size(), 0u);
          width = values.size() / times.size();
        } else {
          ASSERT_NE(width, 0u) << "unknown path";
        }
        ASSERT_EQ(values.size(), times.size() * width);
        for (double x : values) EXPECT_TRUE(std::isfinite(x));
        // Rotations near unit length. three normalizes only in its
        // lerp-and-normalize and CUBICSPLINE paths, so keys stored off unit
        // stay off: AnimatedTriangle's (0.707, 0.707) keys are 1.5e-4 short
        // and SimpleSkin's (0.383, 0.924) and (0.707, 0.707) ones up to 2.3e-4.
        const bool offUnitKeys = source.find("AnimatedTriangle") != std::string::npos ||
                                 source.find("SimpleSkin") != std::string::npos;
        if (path == "rotation") {
          for (size_t t = 0; t < times.size(); ++t) {
            const double* q = &values[t * 4];
            const double length = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            EXPECT_NEAR(length, 1.0, offUnitKeys ? 2.5e-4 : 1e-6) << t;
          }
        }
        const double sampled = d.NumberOr(d.Get(n, "keyTimesSampled"), -1);
        const double differ = d.NumberOr(d.Get(n, "keyTimesDiffering"), -1);
        const double maxDiff = d.NumberOr(d.Get(n, "keyMaxAbsDifference"), -1);
        EXPECT_GE(differ, 0);
        EXPECT_LE(differ, sampled);
        EXPECT_GE(maxDiff, 0);
        // The README's key exactness: only rotations may differ from their
        // stored keys, and by at most 2.4e-7.
        if (path != "rotation" || interp == "STEP") {
          EXPECT_EQ(differ, 0);
        } else {
          EXPECT_LE(maxDiff, 2.4e-7);
        }
      }
    }
    EXPECT_EQ(channelsTotal, (size_t)atoi(row[3].c_str()));
    const uint32_t skin = d.Get(root, "skinning");
    EXPECT_EQ(skin != MCORE_JSON_NONE, row[4] == "yes");
    if (skin == MCORE_JSON_NONE) continue;
    skinned.insert(source);
    const double vertices = d.NumberOr(d.Get(skin, "vertices"), -1);
    ASSERT_GT(vertices, 0);
    ASSERT_LE(vertices, 64);
    const auto samples = d.Items(d.Get(skin, "samples"));
    ASSERT_EQ(samples.size(), 5 * anims.size());
    for (size_t s = 0; s < samples.size(); ++s) {
      EXPECT_EQ(d.NumberOr(d.Get(samples[s], "animation"), -1), d.NumberOr(d.Get(anims[s / 5], "index"), -2));
      std::vector<double> values;
      ASSERT_TRUE(d.Numbers(d.Get(samples[s], "values"), &values));
      ASSERT_EQ(values.size(), (size_t)(3 * vertices));
      for (double x : values) EXPECT_TRUE(std::isfinite(x));
    }
  }
  EXPECT_EQ(totalTimes, 1024u);
  // The models the issue names are all there, with their clip counts.
  const std::map<std::string, size_t> named = {
      {"khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb", 1},
      {"khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb", 1},
      {"khronos/CesiumMan/glTF-Binary/CesiumMan.glb", 1},
      {"khronos/Fox/glTF-Binary/Fox.glb", 3},
      {"khronos/SimpleSkin/glTF/SimpleSkin.gltf", 1},
      {"khronos/InterpolationTest/glTF-Binary/InterpolationTest.glb", 9},
      {"khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb", 1},
      {"khronos/AnimatedTriangle/glTF/AnimatedTriangle.gltf", 1},
      {"khronos/AnimatedCube/glTF/AnimatedCube.gltf", 1},
      {"khronos/RecursiveSkeletons/glTF-Binary/RecursiveSkeletons.glb", 1},
  };
  for (const auto& m : named) EXPECT_EQ(clipsOf[m.first], m.second) << m.first;
  for (const char* s : {"khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb", "khronos/SimpleSkin/glTF/SimpleSkin.gltf",
                        "khronos/CesiumMan/glTF-Binary/CesiumMan.glb", "khronos/Fox/glTF-Binary/Fox.glb"})
    EXPECT_EQ(skinned.count(s), 1u) << s;
}

// SimpleSkin's own numbers, read by hand from its JSON and skinGeometry.bin /
// skinAnimation.bin: 10 vertices on a
// 1 x 2 strip (x in {-0.5, 0.5}, y in {0, 0.5, ..., 2}), joint 1 at y = 1,
// the rotation keys identity at 0 s and 5.5 s, so the skinned strip at t = 0
// and t = duration is the bind strip itself.
TEST(GltfRef, SimpleSkinRestStrip) {
  Doc d(std::string(kDir) + "poses/khronos_SimpleSkin_glTF_SimpleSkin.json");
  ASSERT_TRUE(d.ok());
  const uint32_t skin = d.Get(d.Root(), "skinning");
  ASSERT_EQ(d.NumberOr(d.Get(skin, "vertices"), -1), 10);
  const auto samples = d.Items(d.Get(skin, "samples"));
  ASSERT_EQ(samples.size(), 5u);
  for (size_t s : {size_t(0), size_t(4)}) {
    std::vector<double> v;
    ASSERT_TRUE(d.Numbers(d.Get(samples[s], "values"), &v));
    ASSERT_EQ(v.size(), 30u);
    for (int i = 0; i < 10; ++i) {
      EXPECT_EQ(v[3 * i + 0], (i % 2) ? 0.5 : -0.5) << i;
      EXPECT_EQ(v[3 * i + 1], 0.5 * (i / 2)) << i;
      EXPECT_EQ(v[3 * i + 2], 0.0) << i;
    }
  }
  EXPECT_EQ(d.NumberOr(d.Get(samples[4], "time"), -1), 5.5);
}

TEST(GltfRef, MeshoptThreeIsComplete) {
  Doc d(std::string(kDir) + "meshopt-three.json");
  ASSERT_TRUE(d.ok());
  const auto verdicts = Verdicts();
  const auto models = d.Items(d.Get(d.Root(), "models"));
  ASSERT_EQ(models.size(), 3u);
  static const std::map<std::string, size_t> kComponents = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}};
  size_t views = 0, accessors = 0;
  for (uint32_t m : models) {
    const std::string source = d.String(d.Get(m, "source"));
    SCOPED_TRACE(source);
    auto v = verdicts.find(source);
    ASSERT_NE(v, verdicts.end());
    EXPECT_EQ(d.String(d.Get(m, "sha256")), v->second.sha256);
    std::set<double> listed;
    for (uint32_t bv : d.Items(d.Get(m, "bufferViews"))) {
      ++views;
      listed.insert(d.NumberOr(d.Get(bv, "bufferView"), -1));
      EXPECT_EQ(d.NumberOr(d.Get(bv, "byteLength"), -1),
                d.NumberOr(d.Get(bv, "count"), -2) * d.NumberOr(d.Get(bv, "byteStride"), -2));
      EXPECT_TRUE(IsHex(d.String(d.Get(bv, "sha256")), 64));
      EXPECT_TRUE(IsHex(d.String(d.Get(bv, "fnv1a64")), 16));
      const std::string mode = d.String(d.Get(bv, "mode"));
      EXPECT_TRUE(mode == "ATTRIBUTES" || mode == "TRIANGLES" || mode == "INDICES") << mode;
    }
    for (uint32_t a : d.Items(d.Get(m, "accessors"))) {
      ++accessors;
      EXPECT_EQ(listed.count(d.NumberOr(d.Get(a, "bufferView"), -1)), 1u);
      auto c = kComponents.find(d.String(d.Get(a, "type")));
      ASSERT_NE(c, kComponents.end());
      const double count = d.NumberOr(d.Get(a, "count"), -1);
      ASSERT_GT(count, 0);
      std::vector<double> first;
      ASSERT_TRUE(d.Numbers(d.Get(a, "first4"), &first));
      EXPECT_EQ(first.size(), (count < 4 ? (size_t)count : 4u) * c->second);
      EXPECT_TRUE(IsHex(d.String(d.Get(a, "sha256")), 64));
    }
  }
  EXPECT_EQ(views, 10u);
  EXPECT_EQ(accessors, 10u);
}

}  // namespace
