// The search's exactness on databases of about 100 k frames (match_test.h's
// brute force), with leaves of 8 and 32 frames.
#include "lib/anim/test/match_test.h"

namespace {

TEST(MatchSweep, HundredThousandFrames) {
  {
    Db db(31, 160, 8, 120.0f, 8, 1);
    ASSERT_GT(db.d.frameCount, 90000u);
    std::printf("frames %u nodes %u\n", db.d.frameCount, db.d.nodeCount);
    ExpectSearchesExact(&db.d, 301, 128);
  }
  {
    Db db(32, 180, 8, 120.0f, 32);
    ASSERT_GT(db.d.frameCount, 90000u);
    std::printf("frames %u nodes %u\n", db.d.frameCount, db.d.nodeCount);
    ExpectSearchesExact(&db.d, 302, 128);
  }
}

}  // namespace
