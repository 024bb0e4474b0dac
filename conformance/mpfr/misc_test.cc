// MPFR reference tests of mcore_cbrt, mcore_hypot, mcore_fmod (exact),
// mcore_sinh, mcore_cosh, mcore_tanh and their binary32 versions (mpfr_harness.h).
#include "conformance/mpfr/mpfr_harness.h"

namespace {

constexpr double kCbrtBound = 1.0, kHypotBound = 1.0, kFmodBound = 0.0;
constexpr double kSinhBound = 1.0, kCoshBound = 1.0, kTanhBound = 1.0;
constexpr double kCbrtfBound = 1.0, kHypotfBound = 1.0, kFmodfBound = 0.0;
constexpr double kSinhfBound = 1.0, kCoshfBound = 1.0, kTanhfBound = 1.0;

template <typename T>
std::vector<T> PointsCbrt(uint64_t seed) {
    std::vector<T> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 300000);
    mh::AddLogUniform(v, &rng, 500000, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), true);
    mh::AddUniform(v, &rng, 200000, -10.0, 10.0);
    for (int k = 1; k <= 100000; k++) {  // exact cubes k^3 (< 2^53 / 2^24) and neighbours
        double c = (double)k * k * k;
        if (c > (sizeof(T) == 8 ? 9e15 : 1.6e7)) break;
        mh::AddAround(v, (T)c * ((k & 1) ? (T)-1 : (T)1), 1);
    }
    return v;
}

template <typename T>
std::vector<T> PointsHyp(uint64_t seed, double lim, double tanhlim) {
    std::vector<T> v;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mh::AddEdges(v);
    mh::AddRandomBits(v, &rng, 200000);
    mh::AddUniform(v, &rng, 300000, -lim, lim);
    mh::AddUniform(v, &rng, 200000, -tanhlim, tanhlim);
    mh::AddUniform(v, &rng, 100000, -1.0, 1.0);
    mh::AddLogUniform(v, &rng, 200000, (T)0x1p-40, (T)2, true);
    for (double c : {lim, 0x1p-8, 0x1p-26, 0x1p-27, 22.0, 40.0})
        for (T s : {(T)1, (T)-1}) mh::AddAround(v, (T)c * s, 300);
    return v;
}

template <typename T>
void PointsPair(uint64_t seed, std::vector<T>& as, std::vector<T>& bs, bool fmod) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    const T inf = std::numeric_limits<T>::infinity();
    std::vector<T> sp;
    for (T s : {(T)0, inf, std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::denorm_min(),
                std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), (T)1, (T)3, (T)0.75}) {
        sp.push_back(s);
        sp.push_back(-s);
    }
    for (T a : sp)
        for (T b : sp) {
            as.push_back(a);
            bs.push_back(b);
        }
    mh::AddRandomBits(as, &rng, 250000);
    mh::AddRandomBits(bs, &rng, 250000);
    mh::AddLogUniform(as, &rng, 300000, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), true);
    mh::AddLogUniform(bs, &rng, 300000, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), true);
    mh::AddUniform(as, &rng, 200000, -100.0, 100.0);
    mh::AddUniform(bs, &rng, 200000, fmod ? -3.0 : -100.0, fmod ? 3.0 : 100.0);
    for (int i = 0; i < 250000; i++) {  // close magnitudes at any scale
        std::vector<T> t;
        mh::AddLogUniform(t, &rng, 1, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), true);
        T a = t[0];
        T b = (T)((double)a * (mcore_RngDouble01(&rng) * (fmod ? 0.001 : 2.0)));
        as.push_back(a);
        bs.push_back(b);
    }
}

void RefCbrt(mpfr_t y, mpfr_t x) { mpfr_cbrt(y, x, MPFR_RNDN); }
void RefSinh(mpfr_t y, mpfr_t x) { mpfr_sinh(y, x, MPFR_RNDN); }
void RefCosh(mpfr_t y, mpfr_t x) { mpfr_cosh(y, x, MPFR_RNDN); }
void RefTanh(mpfr_t y, mpfr_t x) { mpfr_tanh(y, x, MPFR_RNDN); }
void RefHypot(mpfr_t r, mpfr_t x, mpfr_t y) { mpfr_hypot(r, x, y, MPFR_RNDN); }
void RefFmod(mpfr_t r, mpfr_t x, mpfr_t y) { mpfr_fmod(r, x, y, MPFR_RNDN); }

TEST(MpfrMisc, Cbrt) { mh::Check1<double>("cbrt", mcore_cbrt, RefCbrt, PointsCbrt<double>(801), kCbrtBound); }
TEST(MpfrMisc, Cbrtf) { mh::Check1<float>("cbrtf", mcore_cbrtf, RefCbrt, PointsCbrt<float>(802), kCbrtfBound); }
TEST(MpfrMisc, Sinh) { mh::Check1<double>("sinh", mcore_sinh, RefSinh, PointsHyp<double>(803, 710.4758600739439, 25), kSinhBound); }
TEST(MpfrMisc, Cosh) { mh::Check1<double>("cosh", mcore_cosh, RefCosh, PointsHyp<double>(804, 710.4758600739439, 25), kCoshBound); }
TEST(MpfrMisc, Tanh) { mh::Check1<double>("tanh", mcore_tanh, RefTanh, PointsHyp<double>(805, 710.4758600739439, 25), kTanhBound); }
TEST(MpfrMisc, Sinhf) { mh::Check1<float>("sinhf", mcore_sinhf, RefSinh, PointsHyp<float>(806, 89.41598629223294, 10), kSinhfBound); }
TEST(MpfrMisc, Coshf) { mh::Check1<float>("coshf", mcore_coshf, RefCosh, PointsHyp<float>(807, 89.41598629223294, 10), kCoshfBound); }
TEST(MpfrMisc, Tanhf) { mh::Check1<float>("tanhf", mcore_tanhf, RefTanh, PointsHyp<float>(808, 89.41598629223294, 10), kTanhfBound); }
TEST(MpfrMisc, Hypot) {
    std::vector<double> a, b;
    PointsPair<double>(809, a, b, false);
    mh::Check2<double>("hypot", mcore_hypot, RefHypot, a, b, kHypotBound);
}
TEST(MpfrMisc, Hypotf) {
    std::vector<float> a, b;
    PointsPair<float>(810, a, b, false);
    mh::Check2<float>("hypotf", mcore_hypotf, RefHypot, a, b, kHypotfBound);
}
TEST(MpfrMisc, Fmod) {
    std::vector<double> a, b;
    PointsPair<double>(811, a, b, true);
    mh::Check2<double>("fmod", mcore_fmod, RefFmod, a, b, kFmodBound);
}
TEST(MpfrMisc, Fmodf) {
    std::vector<float> a, b;
    PointsPair<float>(812, a, b, true);
    mh::Check2<float>("fmodf", mcore_fmodf, RefFmod, a, b, kFmodfBound);
}

}  // namespace
