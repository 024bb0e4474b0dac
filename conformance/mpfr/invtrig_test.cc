// MPFR reference tests of mcore_asin, mcore_acos, mcore_atan, mcore_atan2 and
// their binary32 versions (harness: mpfr_harness.h).
#include "conformance/mpfr/mpfr_harness.h"

namespace {

constexpr double kAsinBound = 1.0, kAcosBound = 1.0, kAtanBound = 1.0, kAtan2Bound = 1.0;
constexpr double kAsinfBound = 1.0, kAcosfBound = 1.0, kAtanfBound = 1.0, kAtan2fBound = 1.0;

template <typename T>
std::vector<T> PointsUnit(uint64_t seed) {  // asin/acos: [-1, 1] heavy
    std::vector<T> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 100000);
    mh::AddUniform(v, &rng, 400000, -1.0, 1.0);
    mh::AddLogUniform(v, &rng, 300000, (T)0x1p-40, (T)1, true);
    // near +-1 (1 - 2^-k) and near 1/2
    for (int i = 0; i < 150000; i++) {
        T one = (T)1;
        T t = mh::NextDown(one, 1 + (int)mcore_RngBelow(&rng, 64));
        if (i & 1) t = -t;
        v.push_back(t);
    }
    for (int i = 0; i < 100000; i++) {
        double d = mcore_RngDouble01(&rng) * 0x1p-20;
        v.push_back((T)(1.0 - std::ldexp(1.0, -(int)mcore_RngBelow(&rng, 50)) * d) * ((i & 1) ? (T)-1 : (T)1));
    }
    mh::AddAround(v, (T)0.5, 50);
    mh::AddAround(v, (T)-0.5, 50);
    return v;
}

template <typename T>
std::vector<T> PointsAtan(uint64_t seed) {
    std::vector<T> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 250000);
    mh::AddUniform(v, &rng, 300000, -4.0, 4.0);
    mh::AddLogUniform(v, &rng, 450000, (T)0x1p-30, std::numeric_limits<T>::max(), true);
    for (int i = 0; i <= 64; i++) mh::AddAround(v, (T)(i / 64.0 + 1.0 / 128), 20);
    mh::AddAround(v, (T)1, 100);
    return v;
}

// Pairs: specials x specials, random bits, uniform, log-uniform with
// independent signs, and nearly equal or hugely different magnitudes.
template <typename T>
void PointsAtan2(uint64_t seed, std::vector<T>& ys, std::vector<T>& xs) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    std::vector<T> sp;
    const T inf = std::numeric_limits<T>::infinity();
    for (T s : {(T)0, inf, std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::denorm_min(),
                std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), (T)1, (T)0.5, (T)3, (T)1e-30}) {
        sp.push_back(s);
        sp.push_back(-s);
    }
    for (T a : sp)
        for (T b : sp) {
            ys.push_back(a);
            xs.push_back(b);
        }
    std::vector<T> a, b;
    mh::AddRandomBits(a, &rng, 200000);
    mh::AddRandomBits(b, &rng, 200000);
    mh::AddUniform(a, &rng, 300000, -2.0, 2.0);
    mh::AddUniform(b, &rng, 300000, -2.0, 2.0);
    mh::AddLogUniform(a, &rng, 300000, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), true);
    mh::AddLogUniform(b, &rng, 300000, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), true);
    for (int i = 0; i < 200000; i++) {  // close magnitudes, any scale
        T x = a[200000 + (i % 300000)];
        T y = x * (T)(1.0 + (mcore_RngDouble01(&rng) - 0.5) * std::ldexp(1.0, -(int)mcore_RngBelow(&rng, 30)));
        if (i & 1) y = -y;
        if (i & 2) std::swap(x, y);
        a.push_back(y);
        b.push_back(x);
    }
    ys.insert(ys.end(), a.begin(), a.end());
    xs.insert(xs.end(), b.begin(), b.end());
}

void RefAsin(mpfr_t y, mpfr_t x) { mpfr_asin(y, x, MPFR_RNDN); }
void RefAcos(mpfr_t y, mpfr_t x) { mpfr_acos(y, x, MPFR_RNDN); }
void RefAtan(mpfr_t y, mpfr_t x) { mpfr_atan(y, x, MPFR_RNDN); }
void RefAtan2(mpfr_t r, mpfr_t y, mpfr_t x) { mpfr_atan2(r, y, x, MPFR_RNDN); }

TEST(MpfrInvTrig, Asin) { mh::Check1<double>("asin", mcore_asin, RefAsin, PointsUnit<double>(301), kAsinBound); }
TEST(MpfrInvTrig, Acos) { mh::Check1<double>("acos", mcore_acos, RefAcos, PointsUnit<double>(302), kAcosBound); }
TEST(MpfrInvTrig, Atan) { mh::Check1<double>("atan", mcore_atan, RefAtan, PointsAtan<double>(303), kAtanBound); }
TEST(MpfrInvTrig, Atan2) {
    std::vector<double> y, x;
    PointsAtan2<double>(304, y, x);
    mh::Check2<double>("atan2", mcore_atan2, RefAtan2, y, x, kAtan2Bound);
}
TEST(MpfrInvTrig, Asinf) { mh::Check1<float>("asinf", mcore_asinf, RefAsin, PointsUnit<float>(401), kAsinfBound); }
TEST(MpfrInvTrig, Acosf) { mh::Check1<float>("acosf", mcore_acosf, RefAcos, PointsUnit<float>(402), kAcosfBound); }
TEST(MpfrInvTrig, Atanf) { mh::Check1<float>("atanf", mcore_atanf, RefAtan, PointsAtan<float>(403), kAtanfBound); }
TEST(MpfrInvTrig, Atan2f) {
    std::vector<float> y, x;
    PointsAtan2<float>(404, y, x);
    mh::Check2<float>("atan2f", mcore_atan2f, RefAtan2, y, x, kAtan2fBound);
}

}  // namespace
