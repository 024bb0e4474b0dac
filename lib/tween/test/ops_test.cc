// The seeded randomized operation-sequence test: many seeded sequences of
// create, destroy, play, seek, update, grow and read, invariants checked after
// every step (tween_ops.c), and each sequence run with and without a task
// system giving the same hash.
#include <vector>

#include "gtest/gtest.h"
#include "lib/core/rng.h"
#include "lib/tween/test/tween_ops.h"

namespace {

TEST(Ops, SeededSequencesKeepTheInvariants) {
    uint64_t totalSteps = 0;
    for (uint64_t seed = 1; seed <= 400; ++seed) {
        mcore_Rng rng;
        mcore_RngSeed(&rng, seed);
        std::vector<uint8_t> bytes(64 + mcore_RngBelow(&rng, 4000));
        for (auto& b : bytes) b = (uint8_t)mcore_RngNext(&rng);
        mtwnOpsResult a = mtwnOps_Run(bytes.data(), bytes.size(), 0);
        ASSERT_EQ(a.failedLine, 0) << "seed " << seed << " step " << a.steps;
        mtwnOpsResult b = mtwnOps_Run(bytes.data(), bytes.size(), 1);
        ASSERT_EQ(b.failedLine, 0) << "seed " << seed << " (task system)";
        EXPECT_EQ(a.hash, b.hash) << "seed " << seed;
        totalSteps += a.steps;
    }
    EXPECT_GT(totalSteps, 100000u);
}

// The shapes (issue 19): nested alternating timelines under small staging,
// the sharing down to none: the task system gives the same hash.
TEST(Ops, ShapedSequencesKeepTheInvariantsUnderSmallStaging) {
    for (uint64_t seed = 1; seed <= 300; ++seed) {
        mcore_Rng rng;
        mcore_RngSeed(&rng, seed + 1000u);
        std::vector<uint8_t> bytes(64 + mcore_RngBelow(&rng, 4000));
        for (auto& b : bytes) b = (uint8_t)mcore_RngNext(&rng);
        mtwnOpsResult a = mtwnOps_RunShaped(bytes.data(), bytes.size(), 0, 1);
        ASSERT_EQ(a.failedLine, 0) << "seed " << seed << " step " << a.steps;
        mtwnOpsResult b = mtwnOps_RunShaped(bytes.data(), bytes.size(), 1, 1);
        ASSERT_EQ(b.failedLine, 0) << "seed " << seed << " (task system)";
        EXPECT_EQ(a.hash, b.hash) << "seed " << seed;
    }
}

TEST(Ops, EmptyAndShortInputs) {
    uint8_t one = 0xFF;
    EXPECT_EQ(mtwnOps_Run(nullptr, 0, 0).failedLine, 0);
    EXPECT_EQ(mtwnOps_Run(&one, 1, 0).failedLine, 0);
}

}  // namespace
