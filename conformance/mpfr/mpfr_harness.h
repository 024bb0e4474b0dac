// conformance/mpfr: the MPFR reference harness of the math core tests.
//
// Every point is evaluated by the function under test and by MPFR at 200
// bits; the error is |computed - exact| / ulp(RN(exact)), where ulp(v) =
// 2^(max(floor(log2|v|), emin) - p + 1) (p = 53 or 24, emin = -1022 or
// -126; so the subnormal spacing below the normal range), an infinite
// computed value counts as 2^(emax+1) and an infinite RN(exact) as the
// largest finite value. Special values must match exactly: NaN <-> NaN, the
// sign of a zero result, infinities (a mismatch is an infinite error). A test
// fails when the largest error exceeds the bound it states, and prints the
// largest error and where it occurred.
#ifndef MAUL_CONFORMANCE_MPFR_HARNESS_H
#define MAUL_CONFORMANCE_MPFR_HARNESS_H

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

extern "C" {
#include "lib/core/detmath.h"
#include "lib/core/rng.h"
}

namespace mh {

constexpr mpfr_prec_t kRefPrec = 200;

template <typename T>
struct Fmt;
template <>
struct Fmt<double> {
    static constexpr int p = 53, emin = -1022, emax = 1023;
    static void Set(mpfr_t r, double v) { mpfr_set_d(r, v, MPFR_RNDN); }
    static double Get(mpfr_t r) { return mpfr_get_d(r, MPFR_RNDN); }
    static uint64_t Bits(double v) {
        uint64_t u;
        std::memcpy(&u, &v, 8);
        return u;
    }
    static double FromBits(uint64_t u) {
        double v;
        std::memcpy(&v, &u, 8);
        return v;
    }
    static const char* Name() { return "binary64"; }
};
template <>
struct Fmt<float> {
    static constexpr int p = 24, emin = -126, emax = 127;
    static void Set(mpfr_t r, float v) { mpfr_set_flt(r, v, MPFR_RNDN); }
    static float Get(mpfr_t r) { return mpfr_get_flt(r, MPFR_RNDN); }
    static uint64_t Bits(float v) {
        uint32_t u;
        std::memcpy(&u, &v, 4);
        return u;
    }
    static float FromBits(uint64_t u) {
        uint32_t w = (uint32_t)u;
        float v;
        std::memcpy(&v, &w, 4);
        return v;
    }
    static const char* Name() { return "binary32"; }
};

// Error in ulps of c against the exact value y (see the top comment).
template <typename T>
double UlpError(T c, mpfr_t y) {
    const double kInf = std::numeric_limits<double>::infinity();
    if (mpfr_nan_p(y)) return std::isnan(c) ? 0.0 : kInf;
    if (std::isnan(c)) return kInf;
    T R = Fmt<T>::Get(y);
    if (R == 0 && c == 0 && std::signbit(R) != std::signbit(c)) return kInf;  // sign of a zero
    if (std::isinf(c) && std::isinf(R)) return (c == R) ? 0.0 : kInf;  // overflow, or opposite infinities
    if (mpfr_inf_p(y) || mpfr_zero_p(y)) return (c == R) ? 0.0 : kInf;  // exact inf/zero met exactly
    mpfr_t cc, d;
    mpfr_init2(cc, kRefPrec);
    mpfr_init2(d, kRefPrec);
    if (std::isinf(c)) {
        mpfr_set_ui_2exp(cc, 1, Fmt<T>::emax + 1, MPFR_RNDN);
        if (c < 0) mpfr_neg(cc, cc, MPFR_RNDN);
    } else {
        Fmt<T>::Set(cc, c);
    }
    T Rf = std::isinf(R) ? std::copysign(std::numeric_limits<T>::max(), R) : R;
    int e = Fmt<T>::emin;
    if (Rf != 0) {
        int ex;
        std::frexp((double)Rf, &ex);  // |Rf| in [2^(ex-1), 2^ex)
        if (ex - 1 > e) e = ex - 1;
    }
    mpfr_sub(d, cc, y, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    mpfr_mul_2si(d, d, -(e - Fmt<T>::p + 1), MPFR_RNDN);
    double err = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clear(cc);
    mpfr_clear(d);
    return err;
}

struct Worst {
    double err = 0;
    double x = 0, y = 0;
    uint64_t n = 0;
    uint64_t over = 0;  // points above the bound
    double firstx = 0, firsty = 0, firsterr = 0;
};

inline void Report(const char* name, const char* fmt, const Worst& w, double bound, bool two) {
    if (two)
        std::printf("[mpfr] %-8s %s points=%llu max_ulp=%.4f at (%.17g, %.17g) bound=%.2f above_bound=%llu\n", name, fmt,
                    (unsigned long long)w.n, w.err, w.x, w.y, bound, (unsigned long long)w.over);
    else
        std::printf("[mpfr] %-8s %s points=%llu max_ulp=%.4f at x=%.17g (%a) bound=%.2f above_bound=%llu\n", name, fmt,
                    (unsigned long long)w.n, w.err, w.x, w.x, bound, (unsigned long long)w.over);
    if (w.over)
        std::printf("[mpfr] %-8s first point above the bound: (%.17g, %.17g) err=%.4f\n", name, w.firstx, w.firsty,
                    w.firsterr);
    std::fflush(stdout);
}

// Univariate check: f(T) -> T against ref(out, in) (an MPFR function).
template <typename T, typename F, typename Ref>
Worst Check1(const char* name, F f, Ref ref, const std::vector<T>& xs, double bound) {
    mpfr_t x, y;
    mpfr_init2(x, Fmt<T>::p);
    mpfr_init2(y, kRefPrec);
    Worst w;
    for (T v : xs) {
        Fmt<T>::Set(x, v);
        ref(y, x);
        T c = f(v);
        double e = UlpError<T>(c, y);
        w.n++;
        if (e > w.err || (w.n == 1)) {
            if (e > w.err) {
                w.err = e;
                w.x = (double)v;
            }
        }
        if (e > bound) {
            if (!w.over) {
                w.firstx = (double)v;
                w.firsterr = e;
            }
            w.over++;
        }
    }
    mpfr_clear(x);
    mpfr_clear(y);
    Report(name, Fmt<T>::Name(), w, bound, false);
    EXPECT_EQ(w.over, 0u) << name << " " << Fmt<T>::Name() << ": " << w.over << " points above " << bound
                          << " ulp; first at x=" << w.firstx << " err=" << w.firsterr;
    EXPECT_LE(w.err, bound);
    return w;
}

// Bivariate check: f(T, T) -> T against ref(out, a, b).
template <typename T, typename F, typename Ref>
Worst Check2(const char* name, F f, Ref ref, const std::vector<T>& as, const std::vector<T>& bs, double bound) {
    mpfr_t a, b, y;
    mpfr_init2(a, Fmt<T>::p);
    mpfr_init2(b, Fmt<T>::p);
    mpfr_init2(y, kRefPrec);
    Worst w;
    for (size_t i = 0; i < as.size(); i++) {
        Fmt<T>::Set(a, as[i]);
        Fmt<T>::Set(b, bs[i]);
        ref(y, a, b);
        T c = f(as[i], bs[i]);
        double e = UlpError<T>(c, y);
        w.n++;
        if (e > w.err) {
            w.err = e;
            w.x = (double)as[i];
            w.y = (double)bs[i];
        }
        if (e > bound) {
            if (!w.over) {
                w.firstx = (double)as[i];
                w.firsty = (double)bs[i];
                w.firsterr = e;
            }
            w.over++;
        }
    }
    mpfr_clear(a);
    mpfr_clear(b);
    mpfr_clear(y);
    Report(name, Fmt<T>::Name(), w, bound, true);
    EXPECT_EQ(w.over, 0u) << name << " " << Fmt<T>::Name() << ": " << w.over << " points above " << bound
                          << " ulp; first at (" << w.firstx << ", " << w.firsty << ") err=" << w.firsterr;
    EXPECT_LE(w.err, bound);
    return w;
}

// ---- point generators (all seeded, mcore_Rng) ----

template <typename T>
T NextUp(T v, int k) {
    for (int i = 0; i < k; i++) v = std::nextafter(v, std::numeric_limits<T>::infinity());
    return v;
}
template <typename T>
T NextDown(T v, int k) {
    for (int i = 0; i < k; i++) v = std::nextafter(v, -std::numeric_limits<T>::infinity());
    return v;
}

// Special values and powers of two (and +-1, +-2 ulps around them) over the
// whole exponent range, both signs.
template <typename T>
void AddEdges(std::vector<T>& v) {
    const T inf = std::numeric_limits<T>::infinity();
    const T specials[] = {0,
                          inf,
                          std::numeric_limits<T>::quiet_NaN(),
                          std::numeric_limits<T>::denorm_min(),
                          NextDown(std::numeric_limits<T>::min(), 1),
                          std::numeric_limits<T>::min(),
                          std::numeric_limits<T>::max(),
                          std::numeric_limits<T>::epsilon(),
                          (T)0.5,
                          (T)1,
                          (T)1.5,
                          (T)2,
                          (T)3,
                          (T)10};
    for (T s : specials) {
        v.push_back(s);
        v.push_back(-s);
    }
    for (int e = Fmt<T>::emin - Fmt<T>::p + 1; e <= Fmt<T>::emax; e++) {
        T b = (T)std::ldexp((T)1, e);
        for (int k = -2; k <= 2; k++) {
            T t = k < 0 ? NextDown(b, -k) : NextUp(b, k);
            v.push_back(t);
            v.push_back(-t);
        }
    }
}

// n values with uniformly random bit patterns (every class: NaN, inf, subnormal).
template <typename T>
void AddRandomBits(std::vector<T>& v, mcore_Rng* rng, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t r = mcore_RngNext(rng);
        if (sizeof(T) == 4) r >>= 32;
        v.push_back(Fmt<T>::FromBits(r));
    }
}

// n values uniform in [lo, hi] (lo + (hi - lo)*u in binary64).
template <typename T>
void AddUniform(std::vector<T>& v, mcore_Rng* rng, size_t n, double lo, double hi) {
    for (size_t i = 0; i < n; i++) v.push_back((T)(lo + (hi - lo) * mcore_RngDouble01(rng)));
}

// n values uniform over the bit patterns between lo and hi (0 <= lo < hi),
// i.e. log-uniform; each negated with probability 1/2 if both_signs.
template <typename T>
void AddLogUniform(std::vector<T>& v, mcore_Rng* rng, size_t n, T lo, T hi, bool both_signs) {
    uint64_t a = Fmt<T>::Bits(lo), b = Fmt<T>::Bits(hi);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = mcore_RngNext(rng);
        T t = Fmt<T>::FromBits(a + (r >> 1) % (b - a + 1));
        if (both_signs && (r & 1)) t = -t;
        v.push_back(t);
    }
}

// c, and c +- 1..k ulps, for each c.
template <typename T>
void AddAround(std::vector<T>& v, T c, int k) {
    v.push_back(c);
    T u = c, d = c;
    for (int i = 0; i < k; i++) {
        u = NextUp(u, 1);
        d = NextDown(d, 1);
        v.push_back(u);
        v.push_back(d);
    }
}

}  // namespace mh

#endif
