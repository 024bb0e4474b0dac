// MPFR reference tests of mcore_exp, mcore_exp2, mcore_expm1, mcore_log,
// mcore_log2, mcore_log1p and their binary32 versions (mpfr_harness.h).
#include "conformance/mpfr/mpfr_harness.h"

namespace {

constexpr double kExpBound = 1.0, kExp2Bound = 1.0, kExpm1Bound = 1.0;
constexpr double kLogBound = 1.0, kLog2Bound = 1.0, kLog1pBound = 1.0;
constexpr double kExpfBound = 1.0, kExp2fBound = 1.0, kExpm1fBound = 1.0;
constexpr double kLogfBound = 1.0, kLog2fBound = 1.0, kLog1pfBound = 1.0;

template <typename T>
T Lim(double d, double f) {
    return sizeof(T) == 8 ? (T)d : (T)f;
}

// exp-like: [lo, hi] is the interesting range; thresholds get +-ulps.
template <typename T>
std::vector<T> PointsExp(uint64_t seed, double lo, double hi, std::initializer_list<double> around) {
    std::vector<T> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 150000);
    mh::AddUniform(v, &rng, 400000, lo, hi);
    mh::AddUniform(v, &rng, 150000, -1.0, 1.0);
    mh::AddLogUniform(v, &rng, 200000, (T)0x1p-70, (T)1, true);
    mh::AddUniform(v, &rng, 100000, lo, lo + (hi - lo) * 0.05);  // subnormal results
    for (double c : around) mh::AddAround(v, (T)c, 2000);
    for (int k = (int)lo; k <= (int)hi; k++) mh::AddAround(v, (T)k, 2);
    return v;
}

template <typename T>
std::vector<T> PointsLog(uint64_t seed, double one_lo) {
    std::vector<T> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 150000);
    mh::AddLogUniform(v, &rng, 420000, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::infinity(), false);
    mh::AddUniform(v, &rng, 200000, 0.5, 2.0);
    mh::AddUniform(v, &rng, 100000, 0.0, 1000.0);
    for (int i = 0; i < 150000; i++) {  // 1 +- 2^-k*u
        double d = (mcore_RngDouble01(&rng) + 0.5) * std::ldexp(1.0, -(int)mcore_RngBelow(&rng, sizeof(T) == 8 ? 60 : 30));
        v.push_back((T)(1.0 + ((i & 1) ? -d : d)));
    }
    mh::AddAround(v, (T)1, 500);
    mh::AddAround(v, (T)one_lo, 10);
    return v;
}

template <typename T>
std::vector<T> PointsLog1p(uint64_t seed) {
    std::vector<T> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 150000);
    mh::AddLogUniform(v, &rng, 360000, std::numeric_limits<T>::denorm_min(), (T)1, true);
    mh::AddLogUniform(v, &rng, 200000, (T)1, std::numeric_limits<T>::max(), false);
    mh::AddUniform(v, &rng, 200000, -1.0, 1.0);
    mh::AddUniform(v, &rng, 100000, -1.0, -0.99);
    mh::AddAround(v, (T)-1, 300);
    mh::AddAround(v, (T)-0.5, 100);
    mh::AddAround(v, (T)0x1p-7, 100);
    mh::AddAround(v, (T)-0x1p-8, 100);
    return v;
}

void RefExp(mpfr_t y, mpfr_t x) { mpfr_exp(y, x, MPFR_RNDN); }
void RefExp2(mpfr_t y, mpfr_t x) { mpfr_exp2(y, x, MPFR_RNDN); }
void RefExpm1(mpfr_t y, mpfr_t x) { mpfr_expm1(y, x, MPFR_RNDN); }
void RefLog(mpfr_t y, mpfr_t x) { mpfr_log(y, x, MPFR_RNDN); }
void RefLog2(mpfr_t y, mpfr_t x) { mpfr_log2(y, x, MPFR_RNDN); }
void RefLog1p(mpfr_t y, mpfr_t x) { mpfr_log1p(y, x, MPFR_RNDN); }

TEST(MpfrExp, Exp) {
    mh::Check1<double>("exp", mcore_exp, RefExp,
                       PointsExp<double>(501, -746, 710, {709.782712893384, -745.1332191019411, -708.3964185322641}), kExpBound);
}
TEST(MpfrExp, Exp2) {
    mh::Check1<double>("exp2", mcore_exp2, RefExp2, PointsExp<double>(502, -1076, 1024, {1024, -1074, -1022}), kExp2Bound);
}
TEST(MpfrExp, Expm1) {
    mh::Check1<double>("expm1", mcore_expm1, RefExpm1,
                       PointsExp<double>(503, -45, 710, {709.782712893384, 0.00270760617406228, -0.00270760617406228, -37.42994775023705}),
                       kExpm1Bound);
}
TEST(MpfrExp, Log) { mh::Check1<double>("log", mcore_log, RefLog, PointsLog<double>(504, 0x1.fffffffffffffp-1), kLogBound); }
TEST(MpfrExp, Log2) { mh::Check1<double>("log2", mcore_log2, RefLog2, PointsLog<double>(505, 0x1.fffffffffffffp-1), kLog2Bound); }
TEST(MpfrExp, Log1p) { mh::Check1<double>("log1p", mcore_log1p, RefLog1p, PointsLog1p<double>(506), kLog1pBound); }

TEST(MpfrExp, Expf) {
    mh::Check1<float>("expf", mcore_expf, RefExp, PointsExp<float>(601, -104, 89, {88.72283935546875, -103.97208404541016, -87.33654022216797}), kExpfBound);
}
TEST(MpfrExp, Exp2f) { mh::Check1<float>("exp2f", mcore_exp2f, RefExp2, PointsExp<float>(602, -151, 128, {128, -149, -126}), kExp2fBound); }
TEST(MpfrExp, Expm1f) {
    mh::Check1<float>("expm1f", mcore_expm1f, RefExpm1, PointsExp<float>(603, -20, 89, {88.72283935546875, 0.0027076f, -0.0027076f}), kExpm1fBound);
}
TEST(MpfrExp, Logf) { mh::Check1<float>("logf", mcore_logf, RefLog, PointsLog<float>(604, 0x1.fffffep-1), kLogfBound); }
TEST(MpfrExp, Log2f) { mh::Check1<float>("log2f", mcore_log2f, RefLog2, PointsLog<float>(605, 0x1.fffffep-1), kLog2fBound); }
TEST(MpfrExp, Log1pf) { mh::Check1<float>("log1pf", mcore_log1pf, RefLog1p, PointsLog1p<float>(606), kLog1pfBound); }

}  // namespace
