// Tween base.h: version, result names and their frozen values, value kinds.
#include <gtest/gtest.h>

#include "maul/tween/base.h"

namespace {

TEST(TweenVersion, LinkedMatchesHeaders) {
  mtwnVersion v = mtwnGetVersion();
  EXPECT_EQ(v.major, (uint32_t)MTWN_VERSION_MAJOR);
  EXPECT_EQ(v.minor, (uint32_t)MTWN_VERSION_MINOR);
  EXPECT_EQ(v.patch, (uint32_t)MTWN_VERSION_PATCH);
  EXPECT_EQ(MTWN_VERSION, MTWN_VERSION_MAJOR * 10000 + MTWN_VERSION_MINOR * 100 + MTWN_VERSION_PATCH);
}

TEST(TweenResultNames, EveryCodeHasItsFrozenValueAndName) {
  struct { mtwnResult r; int value; const char* name; } table[] = {
      {mtwn_success, 0, "mtwn_success"},
      {mtwn_errorInvalid, 1, "mtwn_errorInvalid"},
      {mtwn_errorStale, 2, "mtwn_errorStale"},
      {mtwn_errorState, 3, "mtwn_errorState"},
      {mtwn_errorCapacity, 4, "mtwn_errorCapacity"},
      {mtwn_errorLimit, 5, "mtwn_errorLimit"},
      {mtwn_errorBusy, 6, "mtwn_errorBusy"},
      {mtwn_errorVersion, 7, "mtwn_errorVersion"},
  };
  for (auto& e : table) {
    EXPECT_EQ((int)e.r, e.value);
    EXPECT_STREQ(mtwnGetResultName(e.r), e.name);
  }
  EXPECT_STREQ(mtwnGetResultName((mtwnResult)8), "mtwn_unknownResult");
  EXPECT_STREQ(mtwnGetResultName((mtwnResult)-3), "mtwn_unknownResult");
}

TEST(TweenValues, Vec4IsFourPackedFloats) {
  EXPECT_EQ(sizeof(mtwnVec4), 4 * sizeof(float));
  EXPECT_EQ((int)mtwn_valueScalar, 0);
  EXPECT_EQ((int)mtwn_valueScale, 9);
}

}  // namespace
