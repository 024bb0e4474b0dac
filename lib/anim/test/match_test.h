// Shared by match_test.cc and match_sweep_test.cc: opened fixture databases
// and a brute-force search written from the reference text alone (every
// frame's cost in feature order in binary32, the candidate rules, the ties),
// independent of the library's tree search.
#ifndef MAUL_ANIM_TEST_MATCH_TEST_H
#define MAUL_ANIM_TEST_MATCH_TEST_H

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/match_fixtures.h"
#include "maul/anim/match.h"

struct Db {
  File file;
  maniMotionDatabase d{};
  Db(uint64_t seed, uint32_t clips, uint32_t entries, float rate, uint32_t leaf, int floatTrack = 0) {
    size_t size = 0;
    void* bytes = maniFixtureBuildMotionDatabase(seed, clips, entries, rate, leaf, floatTrack, &size);
    EXPECT_NE(bytes, nullptr);
    if (bytes == nullptr) return;
    file.Assign(bytes, size);
    free(bytes);
    maniFileResult r = maniOpenMotionDatabase(file.data(), file.size, &d);
    EXPECT_EQ(r.result, mani_success) << r.offset;
  }
};

struct Brute {
  uint32_t frame = MANI_NO_FRAME;
  float cost = INFINITY;
  bool continuing = false;
};

// The reference's search, frame by frame.
inline Brute BruteSearch(const maniMotionDatabase* d, const maniMatchQuery& q) {
  Brute best;
  uint32_t count = 0;
  EXPECT_EQ(maniMotionDatabase_GetFeatures(d, 0, nullptr, 0, &count), mani_errorCapacity);
  std::vector<float> off(count), scale(count), query(count), x(count);
  EXPECT_EQ(maniMotionDatabase_GetNormalization(d, off.data(), scale.data(), count, &count), mani_success);
  for (uint32_t j = 0; j < count; ++j) query[j] = q.normalized ? q.features[j] : (q.features[j] - off[j]) / scale[j];
  uint32_t contEntry = MANI_NO_FRAME;
  float contTime = 0;
  if (q.continuingFrame != MANI_NO_FRAME) {
    EXPECT_EQ(maniMotionDatabase_GetFrame(d, q.continuingFrame, &contEntry, &contTime), mani_success);
  }
  std::vector<uint32_t> histEntry(q.historyCount);
  std::vector<float> histTime(q.historyCount);
  for (uint32_t h = 0; h < q.historyCount; ++h) {
    EXPECT_EQ(maniMotionDatabase_GetFrame(d, q.history[h], &histEntry[h], &histTime[h]), mani_success);
  }
  for (uint32_t frame = 0; frame < d->frameCount; ++frame) {
    uint32_t e = 0;
    float t = 0;
    EXPECT_EQ(maniMotionDatabase_GetFrame(d, frame, &e, &t), mani_success);
    maniMatchEntry entry;
    EXPECT_EQ(maniMotionDatabase_GetEntry(d, e, &entry), mani_success);
    if ((entry.tags & q.requiredTags) != q.requiredTags || (entry.tags & q.excludedTags) != 0) continue;
    const bool cont = frame == q.continuingFrame;
    if (!cont) {
      if (entry.flags & maniMatchEntryNoJump) continue;
      if (q.endExclusion > 0 && !(entry.flags & maniMatchEntryLoop) && entry.end - t < q.endExclusion) continue;
      if (q.surroundExclusion > 0 && e == contEntry && std::fabs(t - contTime) < q.surroundExclusion) continue;
      bool hit = false;
      for (uint32_t h = 0; h < q.historyCount; ++h)
        if (q.historyExclusion > 0 && histEntry[h] == e && std::fabs(t - histTime[h]) < q.historyExclusion) hit = true;
      if (hit) continue;
    }
    EXPECT_EQ(maniMotionDatabase_GetFeatures(d, frame, x.data(), count, nullptr), mani_success);
    float c = entry.costBias + (cont ? q.continuingBias : q.transitionCost);
    for (uint32_t j = 0; j < count; ++j) {
      const float diff = query[j] - x[j];
      c = c + diff * diff;
    }
    const bool better = c < best.cost || (c == best.cost && !best.continuing && (cont || frame < best.frame)) ||
                        best.frame == MANI_NO_FRAME;
    if (better) {
      best.frame = frame;
      best.cost = c;
      best.continuing = cont;
    }
  }
  return best;
}

// Seeded queries with every combination of tags, exclusions and history:
// each compares the tree search with the brute force, frame and cost bits.
inline void ExpectSearchesExact(const maniMotionDatabase* d, uint64_t seed, uint32_t queries) {
  std::mt19937_64 g(seed);
  auto U = [&](double lo, double hi) { return lo + (hi - lo) * (double)(g() >> 11) * (1.0 / 9007199254740992.0); };
  const uint32_t f = d->featureCount;
  std::vector<float> q(f), x(f);
  uint32_t visited = 0, total = 0;
  for (uint32_t k = 0; k < queries; ++k) {
    const uint32_t near = (uint32_t)(g() % d->frameCount);
    ASSERT_EQ(maniMotionDatabase_GetFeatures(d, near, x.data(), f, nullptr), mani_success);
    const uint32_t mode = k % 4;
    for (uint32_t j = 0; j < f; ++j) q[j] = mode == 0 ? x[j] : mode == 1 ? (float)(x[j] + U(-0.3, 0.3)) : (float)U(-2, 2);
    uint32_t history[8];
    maniMatchQuery query{};
    query.features = q.data();
    query.normalized = 1;
    query.continuingFrame = (k & 1) ? (uint32_t)(g() % d->frameCount) : MANI_NO_FRAME;
    if (mode == 0 && (k & 2)) query.continuingFrame = near;
    query.transitionCost = (float)U(0, 0.5);
    query.continuingBias = (k & 4) ? (float)U(-0.2, 0.2) : 0.0f;
    query.requiredTags = (k >> 3) & 1 ? (g() & 3) : 0;
    query.excludedTags = (k >> 4) & 1 ? (g() & 12) : 0;
    query.endExclusion = (k >> 5) & 1 ? (float)U(0, 0.5) : 0.0f;
    query.surroundExclusion = (k >> 6) & 1 ? (float)U(0, 0.5) : 0.0f;
    query.historyCount = (k >> 2) & 1 ? (uint32_t)(g() % 9) : 0;
    for (uint32_t h = 0; h < query.historyCount; ++h) history[h] = (uint32_t)(g() % d->frameCount);
    query.history = query.historyCount ? history : nullptr;
    query.historyExclusion = query.historyCount ? (float)U(0, 1) : 0.0f;
    maniMatchResult r{};
    ASSERT_EQ(maniMotionDatabase_Search(d, &query, &r), mani_success);
    const Brute b = BruteSearch(d, query);
    ASSERT_EQ(r.frame, b.frame) << "query " << k;
    if (b.frame != MANI_NO_FRAME) {
      ASSERT_EQ(std::memcmp(&r.cost, &b.cost, 4), 0) << "query " << k << " " << r.cost << " " << b.cost;
      ASSERT_EQ(r.continuing != 0, b.continuing) << "query " << k;
    }
    visited += r.visited;
    total += d->frameCount;
  }
  // The tree prunes: fewer costs computed than frames searched.
  EXPECT_LT(visited, total);
}

#endif
