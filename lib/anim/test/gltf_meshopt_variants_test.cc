// EXT_meshopt_compression variants of five models, written by meshoptimizer's
// own encoder through gltf-transform 4.5.1 (data/gltf-meshopt, made by
// tools/gltf/meshopt_variants.sh; README there), imported against their
// uncompressed originals (conformance/data/gltf): the same items in the same
// order with the same counts (node skeletons excepted: gltf-transform moves a
// quantized mesh off an animated node onto a new child), every original bone
// found by name with its rest equal within 1e-6 (gltf-transform rewrites the
// JSON numbers: measured 9.5e-7 at most), and every clip's poses at every
// sample time and halfway bit-equal: --level medium stores animation keys as
// binary32 in meshopt's lossless attribute codec, so the decoded keys are the
// original's bits. Bones whose node carries a mesh are left out (the
// quantization's dequantization transform goes on such a node when it is not
// animated). Influences and morph targets: counts equal (meshoptimizer
// reorders vertices and requantizes weights to 8 bits).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

extern "C" {
#include "lib/anim/src/import/gltf/gltf_import_all.h"
}
#include "maul/anim/import.h"
#include "maul/anim/pose.h"

namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// One built item, with its file kept (16-byte aligned) for the comparison.
struct Item {
  uint32_t kind, index, primitive, skeleton, count;
  maniResult result;
  std::vector<uint64_t> file;
  size_t size;
};

void Collect(void* user, const mani_GltfItem* item) {
  auto* items = static_cast<std::vector<Item>*>(user);
  Item it{item->kind, item->index, item->primitive, item->skeleton, item->count, item->result.result, {}, item->size};
  it.file.resize(item->size / 8 + 1);
  if (item->file != nullptr) memcpy(it.file.data(), item->file, item->size);
  items->push_back(std::move(it));
}

struct Imported {
  std::string bytes;
  maniBuilder* builder = nullptr;
  maniGltf* g = nullptr;
  std::vector<Item> items;
  uint32_t refused = 0;
  ~Imported() {
    if (g != nullptr) maniCloseGltf(g);
    if (builder != nullptr) maniDestroyBuilder(builder);
  }
};

void Import(const std::string& path, Imported* out) {
  out->bytes = ReadAll(path);
  ASSERT_FALSE(out->bytes.empty()) << path;
  maniBuilderDef def = maniDefaultBuilderDef();
  ASSERT_EQ(maniCreateBuilder(&def, &out->builder), mani_success);
  maniImportResult r = maniOpenGltf(out->builder, out->bytes.data(), out->bytes.size(), &out->g);
  ASSERT_EQ(r.result, mani_success) << path << " reason " << r.reason << " item " << r.item << " offset " << r.offset;
  const maniGltfOptions options = maniDefaultGltfOptions();
  const maniImportClipOptions clipOptions = maniDefaultImportClipOptions();
  out->refused = mani_GltfImportAll(out->builder, out->g, &options, &clipOptions, Collect, &out->items);
}

struct Pose {
  std::vector<uint64_t> memory;
  maniPose* pose = nullptr;
  explicit Pose(const maniSkeleton* s) {
    memory.resize(maniSkeleton_GetPoseSize(s) / 8 + 8);
    uintptr_t p = reinterpret_cast<uintptr_t>(memory.data());
    void* aligned = reinterpret_cast<void*>((p + 31) & ~uintptr_t(31));
    EXPECT_EQ(maniInitPose(s, aligned, maniSkeleton_GetPoseSize(s), &pose), mani_success);
  }
};

float Rel(float a, float b) { return std::fabs(a - b) / std::fmax(1.0f, std::fmax(std::fabs(a), std::fabs(b))); }

// The largest component difference of two transforms (translations and
// scales relative above 1; rotations compared up to sign, q and -q being
// one rotation).
float Diff(const maniTransform& u, const maniTransform& v) {
  const float dot = u.rotation.x * v.rotation.x + u.rotation.y * v.rotation.y + u.rotation.z * v.rotation.z +
                    u.rotation.w * v.rotation.w;
  const float s = dot < 0.0f ? -1.0f : 1.0f;
  const float d[10] = {Rel(u.translation.x, v.translation.x), Rel(u.translation.y, v.translation.y),
                       Rel(u.translation.z, v.translation.z), std::fabs(u.rotation.x - s * v.rotation.x),
                       std::fabs(u.rotation.y - s * v.rotation.y), std::fabs(u.rotation.z - s * v.rotation.z),
                       std::fabs(u.rotation.w - s * v.rotation.w), Rel(u.scale.x, v.scale.x),
                       Rel(u.scale.y, v.scale.y),              Rel(u.scale.z, v.scale.z)};
  float worst = 0.0f;
  for (float e : d) worst = std::fmax(worst, e);
  return worst;
}

constexpr uint32_t kSkip = 0xFFFFFFFEu, kMissing = 0xFFFFFFFFu;

// For each bone of the original's skeleton: the variant's bone of that name,
// kSkip for a bone whose node carries a mesh (gltf-transform's quantization
// puts the mesh's dequantization on its node when the node is not animated),
// kMissing when the variant lacks it.
std::vector<uint32_t> MapBones(const maniGltf* original, const maniSkeleton* a, const maniSkeleton* b) {
  std::vector<uint32_t> map(maniSkeleton_GetBoneCount(a), kMissing);
  for (uint32_t i = 0; i < map.size(); i++) {
    size_t n = 0;
    const char* name = maniSkeleton_GetBoneName(a, i, &n);
    for (uint32_t node = 0; node < maniGltf_GetNodeCount(original); node++) {
      size_t m = 0;
      const char* bone = maniGltf_GetNodeBoneName(original, node, &m);
      if (m == n && memcmp(bone, name, n) == 0 && maniGltf_GetNodeMesh(original, node) != UINT32_MAX) map[i] = kSkip;
    }
    for (uint32_t j = 0; j < maniSkeleton_GetBoneCount(b) && map[i] == kMissing; j++) {
      size_t m = 0;
      const char* other = maniSkeleton_GetBoneName(b, j, &m);
      if (m == n && memcmp(other, name, n) == 0) map[i] = j;
    }
  }
  return map;
}

void CompareVariant(const char* original, const char* variant) {
  SCOPED_TRACE(variant);
  Imported a, b;
  Import(std::string("conformance/data/gltf/") + original, &a);
  Import(std::string("lib/anim/test/data/gltf-meshopt/") + variant, &b);
  if (testing::Test::HasFatalFailure()) return;
  EXPECT_EQ(a.refused, 0u);
  EXPECT_EQ(b.refused, 0u);
  ASSERT_EQ(a.items.size(), b.items.size());
  // The skeletons each item is built against, opened from the kept files.
  std::vector<maniSkeleton> skelA, skelB;
  double worst = 0.0, worstRest = 0.0;
  uint32_t clips = 0;
  for (size_t i = 0; i < a.items.size(); i++) {
    const Item& x = a.items[i];
    const Item& y = b.items[i];
    SCOPED_TRACE(std::string(mani_GltfItemKindName(x.kind)) + " " + std::to_string(x.index));
    ASSERT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.index, y.index);
    EXPECT_EQ(x.primitive, y.primitive);
    if (x.kind != mani_gltfItemNodeSkeleton) {
      EXPECT_EQ(x.count, y.count);
    }
    ASSERT_EQ(x.result, mani_success);
    ASSERT_EQ(y.result, mani_success);
    if (x.kind == mani_gltfItemSkeleton || x.kind == mani_gltfItemNodeSkeleton) {
      maniSkeleton sa, sb;
      ASSERT_EQ(maniOpenSkeleton(x.file.data(), x.size, &sa).result, mani_success);
      ASSERT_EQ(maniOpenSkeleton(y.file.data(), y.size, &sb).result, mani_success);
      // Each original bone found by name in the variant (which may add child
      // nodes for meshes it moves), its rest equal to binary32 rounding (the
      // JSON numbers are rewritten), bones carrying a mesh left out.
      const std::vector<uint32_t> map = MapBones(a.g, &sa, &sb);
      for (uint32_t bone = 0; bone < map.size(); bone++) {
        if (map[bone] == kSkip) continue;
        ASSERT_NE(map[bone], kMissing) << "bone " << bone;
        const float e = Diff(maniSkeleton_GetRest(&sa, bone), maniSkeleton_GetRest(&sb, map[bone]));
        worstRest = std::fmax(worstRest, e);
        EXPECT_LE(e, 1e-6f) << "bone " << bone;
      }
      skelA.push_back(sa);
      skelB.push_back(sb);
    } else if (x.kind == mani_gltfItemClip) {
      ASSERT_LT(x.skeleton, skelA.size());
      maniClip ca, cb;
      ASSERT_EQ(maniOpenClip(x.file.data(), x.size, &ca).result, mani_success);
      ASSERT_EQ(maniOpenClip(y.file.data(), y.size, &cb).result, mani_success);
      EXPECT_EQ(maniClip_GetSampleCount(&ca), maniClip_GetSampleCount(&cb));
      EXPECT_EQ(maniClip_GetSampleRate(&ca), maniClip_GetSampleRate(&cb));
      EXPECT_FLOAT_EQ(maniClip_GetDuration(&ca), maniClip_GetDuration(&cb));
      const maniSkeleton* s = &skelA[x.skeleton];
      const maniSkeleton* t = &skelB[x.skeleton];
      Pose pa(s), pb(t);
      const uint32_t n = maniClip_GetSampleCount(&ca);
      const float rate = maniClip_GetSampleRate(&ca);
      for (uint32_t k = 0; k < 2 * n; k++) {
        const float time = (float)k / (2.0f * rate);
        ASSERT_EQ(maniClip_Sample(&ca, s, time, pa.pose), mani_success);
        ASSERT_EQ(maniClip_Sample(&cb, t, time, pb.pose), mani_success);
        const std::vector<uint32_t> map = MapBones(a.g, s, t);
        for (uint32_t bone = 0; bone < map.size(); bone++) {
          if (map[bone] == kSkip || map[bone] == kMissing) continue;
          const float e = Diff(maniPose_GetLocal(pa.pose, bone), maniPose_GetLocal(pb.pose, map[bone]));
          worst = std::fmax(worst, e);
          ASSERT_EQ(e, 0.0f) << "time " << time << " bone " << bone;
        }
      }
      clips++;
    }
  }
  testing::Test::RecordProperty("worst", std::to_string(worst));
  printf("%s: %zu items, %u clips, worst rest difference %.3g, worst pose difference %.3g\n", variant,
         a.items.size(), clips, worstRest, worst);
}

TEST(GltfMeshoptVariants, RiggedSimple) {
  CompareVariant("khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb", "RiggedSimple-meshopt.glb");
}
TEST(GltfMeshoptVariants, RiggedFigure) {
  CompareVariant("khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb", "RiggedFigure-meshopt.glb");
}
TEST(GltfMeshoptVariants, Fox) { CompareVariant("khronos/Fox/glTF-Binary/Fox.glb", "Fox-meshopt.glb"); }
TEST(GltfMeshoptVariants, AnimatedMorphCube) {
  CompareVariant("khronos/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb", "AnimatedMorphCube-meshopt.glb");
}
TEST(GltfMeshoptVariants, InterpolationTest) {
  CompareVariant("khronos/InterpolationTest/glTF-Binary/InterpolationTest.glb", "InterpolationTest-meshopt.glb");
}

}  // namespace
