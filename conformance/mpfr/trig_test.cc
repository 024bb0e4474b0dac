// MPFR reference tests of mcore_sin, mcore_cos, mcore_sincos, mcore_tan and
// their binary32 versions (harness: mpfr_harness.h). Points: special values,
// powers of two +-2 ulps, random bit patterns, uniform and log-uniform
// ranges, and the nearest values (+-3 ulps) to k*pi/2 for random k (small,
// medium and up to 2^1000), plus known hard reduction cases.
#include "conformance/mpfr/mpfr_harness.h"

namespace {

// The bounds the tests enforce (ulps); docs/determinism.md quotes them.
constexpr double kSinBound = 1.0, kCosBound = 1.0, kTanBound = 1.0;
constexpr double kSinfBound = 1.0, kCosfBound = 1.0, kTanfBound = 1.0;

// RN(k * pi/2) in T for an integer k < 2^64 times 2^s.
template <typename T>
T NearPio2(uint64_t k, int s) {
    mpfr_t t;
    mpfr_init2(t, 1200);
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_mul_ui(t, t, (unsigned long)(k >> 32), MPFR_RNDN);
    mpfr_mul_2ui(t, t, 32, MPFR_RNDN);
    mpfr_t u;
    mpfr_init2(u, 1200);
    mpfr_const_pi(u, MPFR_RNDN);
    mpfr_mul_ui(u, u, (unsigned long)(k & 0xFFFFFFFFu), MPFR_RNDN);
    mpfr_add(t, t, u, MPFR_RNDN);
    mpfr_mul_2si(t, t, s - 1, MPFR_RNDN);
    T r = mh::Fmt<T>::Get(t);
    mpfr_clear(t);
    mpfr_clear(u);
    return r;
}

std::vector<double> PointsD(uint64_t seed) {
    std::vector<double> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 200000);
    mh::AddUniform(v, &rng, 230000, -10.0, 10.0);
    mh::AddUniform(v, &rng, 80000, -1e6, 1e6);
    mh::AddLogUniform(v, &rng, 250000, 0x1p-30, 0x1p1023 * 1.99, true);
    for (int i = 0; i < 25000; i++) {  // k < 2^20
        uint64_t k = 1 + mcore_RngBelow(&rng, (1u << 20) - 1);
        mh::AddAround(v, NearPio2<double>(k, 0) * ((i & 1) ? -1.0 : 1.0), 3);
    }
    for (int i = 0; i < 8000; i++) {  // huge: k < 2^53 times 2^s
        uint64_t k = (mcore_RngNext(&rng) >> 11) | 1;
        int s = (int)mcore_RngBelow(&rng, 960);
        mh::AddAround(v, NearPio2<double>(k, s), 3);
    }
    // Hard cases of the reduction (closest doubles to multiples of pi/2).
    mh::AddAround(v, 6381956970095103.0 * 0x1p797, 4);
    mh::AddAround(v, 5261692873635770.0 * 0x1p499, 4);
    mh::AddAround(v, 0x1.6ac5b262ca1ffp+849, 4);
    mh::AddAround(v, 0x1.921fb54442d18p+0, 8);
    mh::AddAround(v, 0x1.921fb54442d18p+1, 8);
    mh::AddAround(v, 0x1.921fb54442d18p-1, 8);
    mh::AddAround(v, 0x1p20, 8);
    return v;
}

std::vector<float> PointsF(uint64_t seed) {
    std::vector<float> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 200000);
    mh::AddUniform(v, &rng, 200000, -10.0, 10.0);
    mh::AddLogUniform(v, &rng, 250000, 0x1p-30f, 0x1p17f, true);
    mh::AddLogUniform(v, &rng, 60000, 0x1p17f, 3.4e38f, true);
    for (int i = 0; i < 45000; i++) {  // k*pi/2 < 2^17 and beyond
        uint64_t k = 1 + mcore_RngBelow(&rng, i < 40000 ? 83000u : 2000000000u);
        mh::AddAround(v, NearPio2<float>(k, 0) * ((i & 1) ? -1.0f : 1.0f), 3);
    }
    for (float c : {0x1p17f, 0x1.921fb6p+0f, 0x1.921fb6p+1f, 0x1.921fb6p-1f, 1e22f, 8.9e5f, 0x1.fffffep127f})
        mh::AddAround(v, c, 20);
    return v;
}

void RefSin(mpfr_t y, mpfr_t x) { mpfr_sin(y, x, MPFR_RNDN); }
void RefCos(mpfr_t y, mpfr_t x) { mpfr_cos(y, x, MPFR_RNDN); }
void RefTan(mpfr_t y, mpfr_t x) { mpfr_tan(y, x, MPFR_RNDN); }

TEST(MpfrTrig, Sin) { mh::Check1<double>("sin", mcore_sin, RefSin, PointsD(101), kSinBound); }
TEST(MpfrTrig, Cos) { mh::Check1<double>("cos", mcore_cos, RefCos, PointsD(102), kCosBound); }
TEST(MpfrTrig, Tan) { mh::Check1<double>("tan", mcore_tan, RefTan, PointsD(103), kTanBound); }
TEST(MpfrTrig, SinCos) {
    // sincos must equal sin and cos bit for bit; their MPFR bounds are checked above.
    std::vector<double> v = PointsD(104);
    size_t bad = 0;
    for (double x : v) {
        double s, c;
        mcore_sincos(x, &s, &c);
        double s1 = mcore_sin(x), c1 = mcore_cos(x);
        if (std::memcmp(&s, &s1, 8) != 0 || std::memcmp(&c, &c1, 8) != 0) bad++;
    }
    EXPECT_EQ(bad, 0u);
    mh::Check1<double>("sincos.s", [](double x) { double s, c; mcore_sincos(x, &s, &c); return s; }, RefSin, v, kSinBound);
    mh::Check1<double>("sincos.c", [](double x) { double s, c; mcore_sincos(x, &s, &c); return c; }, RefCos, v, kCosBound);
}
TEST(MpfrTrig, Sinf) { mh::Check1<float>("sinf", mcore_sinf, RefSin, PointsF(201), kSinfBound); }
TEST(MpfrTrig, Cosf) { mh::Check1<float>("cosf", mcore_cosf, RefCos, PointsF(202), kCosfBound); }
TEST(MpfrTrig, Tanf) { mh::Check1<float>("tanf", mcore_tanf, RefTan, PointsF(203), kTanfBound); }
TEST(MpfrTrig, SinCosf) {
    std::vector<float> v = PointsF(204);
    size_t bad = 0;
    for (float x : v) {
        float s, c;
        mcore_sincosf(x, &s, &c);
        float s1 = mcore_sinf(x), c1 = mcore_cosf(x);
        if (std::memcmp(&s, &s1, 4) != 0 || std::memcmp(&c, &c1, 4) != 0) bad++;
    }
    EXPECT_EQ(bad, 0u);
    mh::Check1<float>("sincosf.s", [](float x) { float s, c; mcore_sincosf(x, &s, &c); return s; }, RefSin, v, kSinfBound);
    mh::Check1<float>("sincosf.c", [](float x) { float s, c; mcore_sincosf(x, &s, &c); return c; }, RefCos, v, kCosfBound);
}

}  // namespace
