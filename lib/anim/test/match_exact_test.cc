// The search's exactness on databases of about 1 k and 10 k frames
// (match_test.h's brute force), in every test leg: the 100 k sweep
// (match_sweep_test) is tagged "sweep", which the arm64 and asan legs leave
// out, so this smaller set is what runs under qemu and the sanitizers.
#include "lib/anim/test/match_test.h"

namespace {

TEST(MatchExact, ThousandFrames) {
  Db db(41, 6, 4, 60.0f, 4, 1);
  ASSERT_GT(db.d.frameCount, 500u);
  std::printf("frames %u nodes %u\n", db.d.frameCount, db.d.nodeCount);
  ExpectSearchesExact(&db.d, 401, 256);
}

TEST(MatchExact, TenThousandFrames) {
  Db db(42, 16, 8, 120.0f, 16);
  ASSERT_GT(db.d.frameCount, 8000u);
  std::printf("frames %u nodes %u\n", db.d.frameCount, db.d.nodeCount);
  ExpectSearchesExact(&db.d, 402, 128);
}

}  // namespace
