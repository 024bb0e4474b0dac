// build.h's builder core: defs, the allocator, misuse counting, calls back
// in from the allocator's hooks, allocation failure at every step, copies.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/build.h"

namespace {

// An allocator that counts, can fail its Nth allocation, and can call back
// into the builder from its hooks.
struct Hooks {
  int allocations = 0;
  int failAt = -1;  // fail the allocation with this index
  std::map<void*, size_t> live;
  maniBuilder* builder = nullptr;
  bool callBackInAllocate = false;
  bool callBackInRelease = false;
  bool destroyInAllocate = false;
  std::vector<maniResult> callBackResults;
};

void* TestAllocate(void* user, size_t size, size_t alignment) {
  Hooks* h = (Hooks*)user;
  int index = h->allocations++;
  if (h->builder != nullptr && h->callBackInAllocate) {
    h->callBackResults.push_back(maniBuilder_CopyBuilt(h->builder, nullptr, 0, nullptr));
    maniSkeletonSource none = {nullptr, 0};
    h->callBackResults.push_back(maniBuildSkeleton(h->builder, &none).result);
  }
  if (h->builder != nullptr && h->destroyInAllocate) maniDestroyBuilder(h->builder);
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
  if (h->builder != nullptr && h->callBackInRelease) {
    uint32_t order[4];
    h->callBackResults.push_back(maniBuilder_CopySkeletonOrder(h->builder, order, 4, nullptr));
  }
  h->live.erase(it);
  free(memory);
}

maniBuilderDef HookedDef(Hooks* h) {
  maniBuilderDef def = maniDefaultBuilderDef();
  def.allocator.allocate = TestAllocate;
  def.allocator.release = TestRelease;
  def.allocator.user = h;
  return def;
}

TEST(Builder, DefChecks) {
  maniBuilder* b = nullptr;
  maniBuilderDef def = maniDefaultBuilderDef();
  EXPECT_EQ(def.cookie, MANI_BUILDER_DEF_COOKIE);
  EXPECT_EQ(def.abiVersion, MANI_ABI_VERSION);
  EXPECT_EQ(maniCreateBuilder(nullptr, &b), mani_errorInvalid);
  EXPECT_EQ(maniCreateBuilder(&def, nullptr), mani_errorInvalid);
  maniBuilderDef bad = def;
  bad.cookie = 0;
  EXPECT_EQ(maniCreateBuilder(&bad, &b), mani_errorInvalid);
  bad = def;
  bad.cookieEnd = 0;
  EXPECT_EQ(maniCreateBuilder(&bad, &b), mani_errorInvalid);
  bad = def;
  bad.abiVersion = MANI_ABI_VERSION + 1;  // another minor version
  EXPECT_EQ(maniCreateBuilder(&bad, &b), mani_errorVersion);
  bad.abiVersion = MANI_ABI_VERSION + (1u << 16);  // another major version
  EXPECT_EQ(maniCreateBuilder(&bad, &b), mani_errorVersion);
  Hooks h;
  bad = HookedDef(&h);
  bad.allocator.release = nullptr;
  EXPECT_EQ(maniCreateBuilder(&bad, &b), mani_errorInvalid);
  bad = HookedDef(&h);
  bad.allocator.allocate = nullptr;
  EXPECT_EQ(maniCreateBuilder(&bad, &b), mani_errorInvalid);
  EXPECT_EQ(b, nullptr);
  h.failAt = 0;
  maniBuilderDef failing = HookedDef(&h);
  EXPECT_EQ(maniCreateBuilder(&failing, &b), mani_errorCapacity);
  EXPECT_EQ(b, nullptr);
  EXPECT_TRUE(h.live.empty());
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  EXPECT_EQ(maniBuilder_GetMisuse(b), 0u);
  maniDestroyBuilder(b);
  maniDestroyBuilder(nullptr);
  EXPECT_EQ(maniBuilder_GetMisuse(nullptr), 0u);
}

TEST(Builder, CopiesAndTheirErrors) {
  Hooks h;
  maniBuilderDef def = HookedDef(&h);
  maniBuilder* b;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  size_t size = 123;
  uint8_t buf[16];
  EXPECT_EQ(maniBuilder_CopyBuilt(b, buf, sizeof buf, &size), mani_errorInvalid);  // holds nothing
  EXPECT_EQ(maniBuilder_GetMisuse(b), 1u);
  uint32_t order[8];
  uint32_t count = 77;
  EXPECT_EQ(maniBuilder_CopySkeletonOrder(b, order, 8, &count), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_GetMisuse(b), 2u);
  EXPECT_EQ(maniBuilder_CopyBuilt(nullptr, buf, 16, &size), mani_errorInvalid);

  maniSkeletonSource src = maniFixtureMakeSkeletonSource(1, 8, maniFixtureRandom);
  ASSERT_EQ(maniBuildSkeleton(b, &src).result, mani_success);
  EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 5, &size), mani_errorInvalid);  // NULL with a capacity
  EXPECT_EQ(maniBuilder_GetMisuse(b), 3u);
  size = 0;
  EXPECT_EQ(maniBuilder_CopyBuilt(b, buf, sizeof buf, &size), mani_errorCapacity);
  EXPECT_GT(size, sizeof buf);  // the size still written
  std::vector<uint64_t> file(size / 8 + 1);
  size_t got = 0;
  EXPECT_EQ(maniBuilder_CopyBuilt(b, file.data(), size, &got), mani_success);
  EXPECT_EQ(got, size);
  EXPECT_EQ(maniBuilder_CopyBuilt(b, file.data(), size - 1, &got), mani_errorCapacity);

  for (auto& o : order) o = 0xAAAAAAAA;
  EXPECT_EQ(maniBuilder_CopySkeletonOrder(b, order, 7, &count), mani_errorCapacity);
  EXPECT_EQ(count, 8u);  // the count still written
  for (int i = 0; i < 7; ++i) EXPECT_EQ(order[i], 0u);  // the array zeroed
  EXPECT_EQ(maniBuilder_CopySkeletonOrder(b, nullptr, 3, &count), mani_errorInvalid);
  EXPECT_EQ(maniBuilder_CopySkeletonOrder(b, order, 8, &count), mani_success);
  std::vector<bool> seen(8, false);
  for (int i = 0; i < 8; ++i) {
    ASSERT_LT(order[i], 8u);
    EXPECT_FALSE(seen[order[i]]);
    seen[order[i]] = true;
  }
  EXPECT_EQ(maniBuilder_GetMisuse(b), 4u);
  maniDestroyBuilder(b);
  EXPECT_TRUE(h.live.empty()) << "blocks leaked: " << h.live.size();
  maniFixtureFreeSkeletonSource(&src);
}

TEST(Builder, CallsBackInFromTheAllocatorAreBusyAndCounted) {
  Hooks h;
  maniBuilderDef def = HookedDef(&h);
  maniBuilder* b;
  ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);
  maniSkeletonSource src = maniFixtureMakeSkeletonSource(2, 5, maniFixtureRandom);
  h.builder = b;
  h.callBackInAllocate = true;
  ASSERT_EQ(maniBuildSkeleton(b, &src).result, mani_success);
  ASSERT_FALSE(h.callBackResults.empty());
  for (maniResult r : h.callBackResults) EXPECT_EQ(r, mani_errorBusy);
  EXPECT_EQ(maniBuilder_GetMisuse(b), (uint32_t)h.callBackResults.size());
  h.callBackInAllocate = false;
  // Destroying from the allocator's hook destroys nothing and counts one.
  uint32_t before = maniBuilder_GetMisuse(b);
  h.destroyInAllocate = true;
  ASSERT_EQ(maniBuildSkeleton(b, &src).result, mani_success);
  h.destroyInAllocate = false;
  EXPECT_GT(maniBuilder_GetMisuse(b), before);
  // Calls from the release hook while the builder is destroyed are refused.
  h.callBackResults.clear();
  h.callBackInRelease = true;
  maniDestroyBuilder(b);
  ASSERT_FALSE(h.callBackResults.empty());
  for (maniResult r : h.callBackResults) EXPECT_EQ(r, mani_errorBusy);
  EXPECT_TRUE(h.live.empty());
  maniFixtureFreeSkeletonSource(&src);
}

// SQLite-style: fail allocation N, then N + 1, until the build succeeds;
// every failure is errorCapacity, keeps the builder usable and leaks nothing.
TEST(Builder, AllocationFailureAtEveryStep) {
  maniSkeletonSource src = maniFixtureMakeSkeletonSource(3, 40, maniFixtureForest);
  int failures = 0;
  for (int n = 1;; ++n) {
    Hooks h;
    maniBuilderDef def = HookedDef(&h);
    maniBuilder* b;
    ASSERT_EQ(maniCreateBuilder(&def, &b), mani_success);  // allocation 0
    // A first good build so the builder holds a file to keep.
    ASSERT_EQ(maniBuildSkeleton(b, &src).result, mani_success);
    size_t firstSize = 0;
    EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &firstSize), mani_errorCapacity);
    h.failAt = h.allocations + n - 1;
    maniBuildResult r = maniBuildSkeleton(b, &src);
    if (r.result == mani_success) {
      maniDestroyBuilder(b);
      EXPECT_TRUE(h.live.empty());
      break;
    }
    failures++;
    EXPECT_EQ(r.result, mani_errorCapacity) << n;
    // Still usable, still holding the first file.
    size_t size = 0;
    EXPECT_EQ(maniBuilder_CopyBuilt(b, nullptr, 0, &size), mani_errorCapacity);
    EXPECT_EQ(size, firstSize);
    h.failAt = -1;
    EXPECT_EQ(maniBuildSkeleton(b, &src).result, mani_success);
    EXPECT_EQ(maniBuilder_GetMisuse(b), 0u);
    maniDestroyBuilder(b);
    EXPECT_TRUE(h.live.empty()) << "leak after failing allocation " << n;
    ASSERT_LT(n, 100);
  }
  EXPECT_GE(failures, 8);  // scratch arrays and the file each failed once
  maniFixtureFreeSkeletonSource(&src);
}

}  // namespace
