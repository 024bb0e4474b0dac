// MPFR reference tests of mcore_pow, mcore_powi and their binary32 versions
// (mpfr_harness.h). powi's reference is mpfr_pow_si (x^n rounded once).
#include "conformance/mpfr/mpfr_harness.h"

namespace {

constexpr double kPowBound = 1.0, kPowfBound = 1.0, kPowiBound = 1.0, kPowifBound = 1.0;

template <typename T>
void PointsPow(uint64_t seed, std::vector<T>& xs, std::vector<T>& ys) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    const T inf = std::numeric_limits<T>::infinity();
    std::vector<T> sp;
    for (T s : {(T)0, inf, std::numeric_limits<T>::quiet_NaN(), (T)1, (T)0.5, (T)2, (T)3, (T)-3, (T)1.5,
                std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), mh::NextUp((T)1, 1),
                mh::NextDown((T)1, 1), (T)0.25, (T)1e10, (T)-1e10}) {
        sp.push_back(s);
        sp.push_back(-s);
    }
    for (T a : sp)
        for (T b : sp) {
            xs.push_back(a);
            ys.push_back(b);
        }
    const bool d = sizeof(T) == 8;
    for (int i = 0; i < 1100000; i++) {
        int kind = i % 11;
        T x, y;
        switch (kind) {
            case 0: {  // random bits
                std::vector<T> t;
                mh::AddRandomBits(t, &rng, 2);
                x = t[0];
                y = t[1];
                break;
            }
            case 1:
            case 2: {  // x log-uniform positive, y uniform [-40, 40]
                std::vector<T> t;
                mh::AddLogUniform(t, &rng, 1, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), false);
                x = t[0];
                y = (T)((mcore_RngDouble01(&rng) - 0.5) * 80.0);
                break;
            }
            case 3:
            case 4: {  // results near overflow / underflow / subnormal: y = t / log(x)
                std::vector<T> t;
                mh::AddLogUniform(t, &rng, 1, (T)0x1p-60, (T)0x1p60, false);
                x = t[0];
                if (x == 1) x = 2;
                double lim = d ? (kind == 3 ? 709.9 : -745.2) : (kind == 3 ? 88.8 : -103.99);
                double lo = d ? (kind == 3 ? 700.0 : -708.5) : (kind == 3 ? 85.0 : -87.4);
                double tt = lo + (lim - lo) * mcore_RngDouble01(&rng);
                y = (T)(tt / std::log((double)x));  // test point only (not a result)
                break;
            }
            case 5: {  // x near 1, large y
                double e = std::ldexp(mcore_RngDouble01(&rng) - 0.5, -(int)mcore_RngBelow(&rng, d ? 52 : 23));
                x = (T)(1.0 + e);
                y = (T)((mcore_RngDouble01(&rng) - 0.5) * std::ldexp(1.0, (int)mcore_RngBelow(&rng, d ? 60 : 30)));
                break;
            }
            case 6: {  // negative x, integer y
                x = (T)((mcore_RngDouble01(&rng) - 1.0) * 10.0);
                y = (T)((int)mcore_RngBelow(&rng, 400) - 200);
                break;
            }
            case 7: {  // x uniform (0, 4), y uniform [-300, 300]
                x = (T)(mcore_RngDouble01(&rng) * 4.0);
                y = (T)((mcore_RngDouble01(&rng) - 0.5) * (d ? 600.0 : 60.0));
                break;
            }
            case 8: {  // small exact cases: small integers to small integer powers, and halves
                x = (T)(int)mcore_RngBelow(&rng, 64);
                y = (T)((int)mcore_RngBelow(&rng, 40) - 20) * ((i & 32) ? (T)0.5 : (T)1);
                break;
            }
            default: {  // y log-uniform with random sign, x uniform (0, 2)
                std::vector<T> t;
                mh::AddLogUniform(t, &rng, 1, (T)0x1p-30, (T)0x1p30, true);
                y = t[0];
                x = (T)(mcore_RngDouble01(&rng) * 2.0);
                break;
            }
        }
        xs.push_back(x);
        ys.push_back(y);
    }
}

template <typename T>
void PointsPowi(uint64_t seed, std::vector<T>& xs, std::vector<int>& ns) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    const T inf = std::numeric_limits<T>::infinity();
    const int nsp[] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 1000, -1000, 2147483647, (int)(-2147483647 - 1)};
    for (T s : {(T)0, inf, std::numeric_limits<T>::quiet_NaN(), (T)1, (T)2, (T)0.5, (T)3, mh::NextUp((T)1, 1),
                mh::NextDown((T)1, 1), std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max()})
        for (int n : nsp) {
            xs.push_back(s);
            ns.push_back(n);
            xs.push_back(-s);
            ns.push_back(n);
        }
    const bool d = sizeof(T) == 8;
    for (int i = 0; i < 1000000; i++) {
        T x;
        int n;
        switch (i % 4) {
            case 0: {
                x = (T)((mcore_RngDouble01(&rng) - 0.5) * 8.0);
                n = (int)mcore_RngBelow(&rng, d ? 1400 : 200) - (d ? 700 : 100);
                break;
            }
            case 1: {
                std::vector<T> t;
                mh::AddLogUniform(t, &rng, 1, std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max(), true);
                x = t[0];
                n = (int)mcore_RngBelow(&rng, 16) - 8;
                break;
            }
            case 2: {  // x near 1, large n
                x = (T)(1.0 + std::ldexp(mcore_RngDouble01(&rng) - 0.5, -(int)mcore_RngBelow(&rng, d ? 52 : 23)));
                n = (int)(mcore_RngNext(&rng) >> 33) * ((i & 4) ? -1 : 1);
                break;
            }
            default: {  // small integers: exact results
                x = (T)((int)mcore_RngBelow(&rng, 41) - 20);
                n = (int)mcore_RngBelow(&rng, 40) - 20;
                break;
            }
        }
        xs.push_back(x);
        ns.push_back(n);
    }
}

void RefPow(mpfr_t r, mpfr_t x, mpfr_t y) { mpfr_pow(r, x, y, MPFR_RNDN); }

template <typename T, typename F>
void CheckPowi(const char* name, F f, uint64_t seed, double bound) {
    std::vector<T> xs;
    std::vector<int> ns;
    PointsPowi<T>(seed, xs, ns);
    mpfr_t x, y;
    mpfr_init2(x, mh::Fmt<T>::p);
    mpfr_init2(y, mh::kRefPrec);
    mh::Worst w;
    for (size_t i = 0; i < xs.size(); i++) {
        mh::Fmt<T>::Set(x, xs[i]);
        mpfr_pow_si(y, x, (long)ns[i], MPFR_RNDN);
        double e = mh::UlpError<T>(f(xs[i], ns[i]), y);
        w.n++;
        if (e > w.err) {
            w.err = e;
            w.x = (double)xs[i];
            w.y = ns[i];
        }
        if (e > bound) {
            if (!w.over) {
                w.firstx = (double)xs[i];
                w.firsty = ns[i];
                w.firsterr = e;
            }
            w.over++;
        }
    }
    mpfr_clear(x);
    mpfr_clear(y);
    mh::Report(name, mh::Fmt<T>::Name(), w, bound, true);
    EXPECT_EQ(w.over, 0u) << name << ": first above the bound at (" << w.firstx << ", " << w.firsty << ")";
    EXPECT_LE(w.err, bound);
}

TEST(MpfrPow, Pow) {
    std::vector<double> x, y;
    PointsPow<double>(701, x, y);
    mh::Check2<double>("pow", mcore_pow, RefPow, x, y, kPowBound);
}
TEST(MpfrPow, Powf) {
    std::vector<float> x, y;
    PointsPow<float>(702, x, y);
    mh::Check2<float>("powf", mcore_powf, RefPow, x, y, kPowfBound);
}

TEST(MpfrPow, Powi) { CheckPowi<double>("powi", mcore_powi, 703, kPowiBound); }
TEST(MpfrPow, Powif) { CheckPowi<float>("powif", mcore_powif, 704, kPowifBound); }

}  // namespace
