// The binary64 fast paths (detmath_internal.h: mc_exp_fast_dd,
// mc_log_fast_dd, mc_atan2_fast_dd, mc_interval_poly, mc_settled64,
// mc_settled_k, mc_sin_fast, mc_cos_fast, mc_tan_fast) change no bit: mcore_exp,
// exp2, expm1, log, log2, log1p, pow, sinh, cosh, tanh, atan, atan2, asin, acos, sin, cos, tan and sincos are compared with their accurate double-double paths (the former
// bodies, mcore_*_accurate) on 2^20 arguments each (specials and their
// neighbours, every binade, raw bit patterns, the ordinary domain), and with
// the arguments whose accurate result lies close to a rounding boundary
// counted, so that the rounding test is seen deciding both ways. Then the
// fast evaluations' own relative errors are measured against the accurate
// double-doubles and must stay below the budgets the tolerances assume.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

extern "C" {
#include "lib/core/detmath.h"
#include "lib/core/detmath_internal.h"
#include "lib/core/rng.h"
}

namespace {

uint64_t Bits(double v) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
}
double FromBits(uint64_t u) {
    double v;
    std::memcpy(&v, &u, 8);
    return v;
}

// 2^20 arguments: specials and 64 neighbours each side, powers of two and
// their 3 neighbours in every binade (both signs), 2^18 raw bit patterns,
// the rest uniform in [lo, hi].
std::vector<double> Arguments(uint64_t seed, double lo, double hi, std::vector<double> specials) {
    std::vector<double> xs;
    const double common[] = {0.0, 1.0, 0.5, 2.0, 3.0, 10.0, 0.1, 0.6931471805599453, 1.4426950408889634, 708.0, 709.78, 710.0,
                             -708.0, -708.4, -745.1, -746.0, 1020.0, 1023.99, 1024.0, -1020.0, -1022.0, -1074.0, 0x1p-7, -0x1p-7,
                             0x1p-1022, 0x1p-1074, 1.7976931348623157e308, -1.0, 0.9999, 1.0001};
    specials.insert(specials.end(), std::begin(common), std::end(common));
    for (double s : specials) {
        uint64_t b = Bits(s);
        for (int d = -64; d <= 64; ++d) {
            xs.push_back(FromBits(b + (uint64_t)(int64_t)d));
            xs.push_back(-FromBits(b + (uint64_t)(int64_t)d));
        }
    }
    for (uint64_t e = 0; e < 2047; ++e)
        for (int d = -3; d <= 3; ++d) {
            xs.push_back(FromBits((e << 52) + (uint64_t)(int64_t)d));
            xs.push_back(-FromBits((e << 52) + (uint64_t)(int64_t)d));
        }
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    while (xs.size() < (1u << 18) + 40000u) xs.push_back(FromBits(mcore_RngNext(&rng)));
    while (xs.size() < (1u << 20)) xs.push_back(lo + (hi - lo) * mcore_RngDouble01(&rng));
    return xs;
}

// Whether RN(h + l) lies within rel*|result| of a rounding boundary (a
// midpoint between two doubles): the arguments the rounding test must
// send to the accurate path.
bool NearBoundary(double h, double l, double rel) {
    double s = h + l;
    if (!std::isfinite(s) || s == 0.0) return false;
    double t = l - (s - h);
    double up = std::nextafter(std::fabs(s), INFINITY) - std::fabs(s);
    return std::fabs(std::fabs(t) - up / 2) < rel * std::fabs(s);
}

template <typename Fn, typename Acc>
void ExpectSameBits(const char* name, Fn fn, Acc accurate, const std::vector<double>& xs) {
    size_t wrong = 0;
    for (double x : xs) {
        double got = fn(x), want = accurate(x);
        if (Bits(got) != Bits(want) && ++wrong <= 5)
            ADD_FAILURE() << name << "(" << std::hexfloat << x << ") = " << got << ", the accurate path gives " << want;
    }
    EXPECT_EQ(wrong, 0u) << name << " over " << xs.size() << " arguments";
    EXPECT_GE(xs.size(), 1u << 20);
}

TEST(DetMathFast64, ExpSameBitsAsTheAccuratePath) {
    ExpectSameBits("exp", mcore_exp, mcore_exp_accurate, Arguments(1, -745.0, 709.0, {}));
    ExpectSameBits("exp", mcore_exp, mcore_exp_accurate, Arguments(2, -1.0, 1.0, {}));
}
TEST(DetMathFast64, Exp2SameBitsAsTheAccuratePath) {
    ExpectSameBits("exp2", mcore_exp2, mcore_exp2_accurate, Arguments(3, -1075.0, 1024.0, {}));
    ExpectSameBits("exp2", mcore_exp2, mcore_exp2_accurate, Arguments(4, -2.0, 2.0, {}));
}
TEST(DetMathFast64, LogSameBitsAsTheAccuratePath) {
    ExpectSameBits("log", mcore_log, mcore_log_accurate, Arguments(5, 0.0, 4.0, {}));
    ExpectSameBits("log", mcore_log, mcore_log_accurate, Arguments(6, 0.98, 1.02, {}));
    ExpectSameBits("log", mcore_log, mcore_log_accurate, Arguments(7, 0.0, 1e300, {}));
    // Around the short log's far/near switch (e^(+-1/8)) and its table's edges next to 1.
    ExpectSameBits("log", mcore_log, mcore_log_accurate, Arguments(60, 0.87, 1.15, {0x1.2216045b6f5cdp+0, 0x1.c3d6a24ed8222p-1, 0x1.ff8p0, 0x1.ffcp-1, 0x1.004p0, 0x1.01p0}));
}
TEST(DetMathFast64, Log2SameBitsAsTheAccuratePath) {
    ExpectSameBits("log2", mcore_log2, mcore_log2_accurate, Arguments(8, 0.0, 4.0, {}));
    ExpectSameBits("log2", mcore_log2, mcore_log2_accurate, Arguments(9, 0.98, 1.02, {}));
    ExpectSameBits("log2", mcore_log2, mcore_log2_accurate, Arguments(10, 0.0, 1e300, {}));
    ExpectSameBits("log2", mcore_log2, mcore_log2_accurate, Arguments(61, 0.87, 1.15, {0x1.2216045b6f5cdp+0, 0x1.c3d6a24ed8222p-1, 0x1.ff8p0, 0x1.ffcp-1, 0x1.004p0, 0x1.01p0}));
}
TEST(DetMathFast64, Log1pSameBitsAsTheAccuratePath) {
    ExpectSameBits("log1p", mcore_log1p, mcore_log1p_accurate, Arguments(11, -1.0, 4.0, {-0.99, -0.5, 1e10}));
    ExpectSameBits("log1p", mcore_log1p, mcore_log1p_accurate, Arguments(12, -0.02, 0.02, {}));
}

TEST(DetMathFast64, SinhCoshSameBitsAsTheAccuratePath) {
    ExpectSameBits("sinh", mcore_sinh, mcore_sinh_accurate, Arguments(16, -712.0, 712.0, {}));
    ExpectSameBits("sinh", mcore_sinh, mcore_sinh_accurate, Arguments(17, -3.0, 3.0, {}));
    ExpectSameBits("cosh", mcore_cosh, mcore_cosh_accurate, Arguments(18, -712.0, 712.0, {}));
    ExpectSameBits("cosh", mcore_cosh, mcore_cosh_accurate, Arguments(19, -3.0, 3.0, {}));
    ExpectSameBits("cosh", mcore_cosh, mcore_cosh_accurate, Arguments(25, -45.0, 45.0, {}));
}

TEST(DetMathFast64, Expm1TanhSameBitsAsTheAccuratePath) {
    ExpectSameBits("expm1", mcore_expm1, mcore_expm1_accurate, Arguments(42, -45.0, 45.0, {40.0, -40.0, 0x1p-9, -0x1p-9, 0x1.6p-9}));
    ExpectSameBits("expm1", mcore_expm1, mcore_expm1_accurate, Arguments(43, -2.0, 2.0, {}));
    ExpectSameBits("expm1", mcore_expm1, mcore_expm1_accurate, Arguments(44, -0.05, 0.05, {}));
    ExpectSameBits("tanh", mcore_tanh, mcore_tanh_accurate, Arguments(45, -23.0, 23.0, {22.0, -22.0, 19.0, 0x1p-8, -0x1p-8}));
    ExpectSameBits("tanh", mcore_tanh, mcore_tanh_accurate, Arguments(46, -5.0, 5.0, {}));
    ExpectSameBits("tanh", mcore_tanh, mcore_tanh_accurate, Arguments(47, -0.1, 0.1, {}));
}

TEST(DetMathFast64, AtanAsinAcosSameBitsAsTheAccuratePath) {
    ExpectSameBits("atan", mcore_atan, mcore_atan_accurate, Arguments(26, -4.0, 4.0, {}));
    ExpectSameBits("atan", mcore_atan, mcore_atan_accurate, Arguments(27, -1e6, 1e6, {}));
    ExpectSameBits("asin", mcore_asin, mcore_asin_accurate, Arguments(28, -1.0, 1.0, {}));
    ExpectSameBits("asin", mcore_asin, mcore_asin_accurate, Arguments(29, 0.99, 1.0, {}));
    ExpectSameBits("acos", mcore_acos, mcore_acos_accurate, Arguments(30, -1.0, 1.0, {}));
    ExpectSameBits("acos", mcore_acos, mcore_acos_accurate, Arguments(31, -1.0, -0.99, {}));
}

TEST(DetMathFast64, Atan2SameBitsAsTheAccuratePath) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, 32);
    for (int pass = 0; pass < 2; ++pass) {
        std::vector<double> ys = pass ? Arguments(33, -3.0, 3.0, {}) : Arguments(34, -1e3, 1e3, {});
        size_t wrong = 0;
        for (size_t i = 0; i < ys.size(); ++i) {
            double y = ys[i];
            // x: raw bits, the ordinary range, y's neighbourhood (ratios near 1 and the table points).
            double x = (i % 3 == 0)   ? FromBits(mcore_RngNext(&rng))
                       : (i % 3 == 1) ? -10.0 + 20.0 * mcore_RngDouble01(&rng)
                                      : y * (double)(int)(mcore_RngNext(&rng) % 129 - 64) / 64.0 + 0x1p-30 * mcore_RngDouble01(&rng);
            if (i & 8) std::swap(x, y);
            double got = mcore_atan2(y, x), want = mcore_atan2_accurate(y, x);
            if (Bits(got) != Bits(want) && ++wrong <= 5)
                ADD_FAILURE() << "atan2(" << std::hexfloat << y << ", " << x << ") = " << got << ", the accurate path gives " << want;
        }
        EXPECT_EQ(wrong, 0u) << "atan2 over " << ys.size() << " pairs";
    }
}

TEST(DetMathFast64, PowSameBitsAsTheAccuratePath) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, 13);
    const double ys[] = {0.0, 1.0, 2.0, 3.0, 0.5, -0.5, -1.0, 1.0 / 3.0, 2.2, 1.0 / 2.4, 2.4, 100.0, -100.0, 1e4, 1e-4, 1075.0, -1074.5, 0x1p60};
    for (int pass = 0; pass < 2; ++pass) {
        std::vector<double> xs = pass ? Arguments(14, 0.0, 4.0, {}) : Arguments(15, 0.5, 2.0, {});
        size_t wrong = 0;
        for (size_t i = 0; i < xs.size(); ++i) {
            double x = xs[i];
            // Exponents from a fixed list, raw bits, and ranges around the ordinary ones.
            double y = (i % 4 == 0) ? ys[i / 4 % (sizeof ys / sizeof ys[0])]
                       : (i % 4 == 1) ? FromBits(mcore_RngNext(&rng))
                       : (i % 4 == 2) ? -30.0 + 60.0 * mcore_RngDouble01(&rng)
                                      : -1000.0 + 2000.0 * mcore_RngDouble01(&rng);
            double got = mcore_pow(x, y), want = mcore_pow_accurate(x, y);
            if (Bits(got) != Bits(want) && ++wrong <= 5)
                ADD_FAILURE() << "pow(" << std::hexfloat << x << ", " << y << ") = " << got << ", the accurate path gives " << want;
        }
        EXPECT_EQ(wrong, 0u) << "pow over " << xs.size() << " pairs";
    }
}

// The accurate double-doubles (before their one rounding) of exp, exp2, log,
// log2, log1p, from the internal cores; m is the power of two of exp/exp2.
void ExpAccurateDD(double x, int* m, double* h, double* l) { mcore_ExpCore(x, 0.0, m, h, l); }
void Exp2AccurateDD(double x, int* m, double* h, double* l) {
    double pl;
    double ph = mc_two_prod(x, MCORE_LN2_HI, &pl);
    pl += x * MCORE_LN2_LO;
    mcore_ExpCore(ph, pl, m, h, l);
}

// |fast - accurate| / |accurate| for two double-doubles scaled by 2^mf, 2^ma.
// Both pairs are renormalized first (the fast ones carry up to 2^-7 of the
// value in lo), so the difference is resolved to about 2^-105 relative.
double Rel(double hf, double lf, int mf, double ha, double la, int ma) {
    hf = mc_fast_two_sum(hf, lf, &lf);
    ha = mc_fast_two_sum(ha, la, &la);
    double sf = std::ldexp(1.0, mf - ma);
    return std::fabs((hf * sf - ha) + (lf * sf - la)) / std::fabs(ha);
}

struct Worst {
    double rel = 0.0;
    size_t near = 0;
};

TEST(DetMathFast64, FastErrorsStayWithinTheirBudgets) {
    // Budgets of detmath_internal.h: exp/exp2 2^-62.8, log/log2/log1p 2^-65
    // (E_ACC, the accurate paths' error of about 2^-69, shows through the
    // comparison; it is below these).
    const double kExp = std::ldexp(1.0, -63) * std::pow(2.0, 0.2), kLog = std::ldexp(1.0, -65);
    Worst we, we2, wl, wl2, wl1p;
    for (double x : Arguments(20, -708.0, 708.0, {})) {
        if (!(std::fabs(x) <= 708.0)) continue;
        double rh, rl;
        int k = mc_exp_reduce(x, &rh, &rl);
        int mf, ma;
        double hf, lf, ha, la;
        mc_exp_fast_dd(k, rh, rl, &mf, &hf, &lf);
        ExpAccurateDD(x, &ma, &ha, &la);
        we.rel = std::max(we.rel, Rel(hf, lf, mf, ha, la, ma));
        we.near += NearBoundary(ha, la, MC_SETTLE_EXP);
    }
    for (double x : Arguments(21, -1020.0, 1020.0, {})) {
        if (!(std::fabs(x) <= 1020.0)) continue;
        double kd = mc_round_int(x * 1024.0), r = x - kd * 0x1p-10, r1, r2;
        mc_split(r, &r1, &r2);
        int mf, ma;
        double hf, lf, ha, la;
        mc_exp_fast_dd((int)kd, r1 * MCORE_LN2_26, r2 * MCORE_LN2_26 + r * MCORE_LN2_26T, &mf, &hf, &lf);
        Exp2AccurateDD(x, &ma, &ha, &la);
        we2.rel = std::max(we2.rel, Rel(hf, lf, mf, ha, la, ma));
        we2.near += NearBoundary(ha, la, MC_SETTLE_EXP);
    }
    std::vector<double> log_args = Arguments(22, 0.0, 4.0, {});
    for (double x : Arguments(62, 0.87, 1.15, {0x1.2216045b6f5cdp+0, 0x1.c3d6a24ed8222p-1, 0x1.ff8p0, 0x1.ffcp-1, 0x1.004p0, 0x1.01p0})) log_args.push_back(x); // the far/near switch
    for (double x : log_args) {
        if (!(x >= 0x1p-1022 && x < INFINITY) || x == 1.0) continue;
        double hf, lf, ha, la;
        mc_log_fast_dd(x, &hf, &lf);
        mcore_LogCore(x, &ha, &la);
        wl.rel = std::max(wl.rel, Rel(hf, lf, 0, ha, la, 0));
        wl.near += NearBoundary(ha, la, MC_SETTLE_LOG);
        double c1, c2, bh, bl;
        c1 = mc_head26(hf);
        c2 = hf - c1;
        mc_dd_mul(ha, la, MCORE_INVLN2_HI, MCORE_INVLN2_LO, &bh, &bl);
        double h2 = c1 * MCORE_INVLN2_26, l2 = (c2 * MCORE_INVLN2_26 + hf * MCORE_INVLN2_26T) + lf * MCORE_INVLN2_HI;
        wl2.rel = std::max(wl2.rel, Rel(h2, l2, 0, bh, bl, 0));
        wl2.near += NearBoundary(bh, bl, MC_SETTLE_LOG);
    }
    for (double x : Arguments(23, -1.0, 4.0, {})) {
        if (!(std::fabs(x) >= 0x1p-7 && x > -1.0 && x < 0x1p1000)) continue;
        double v, hf, lf, ha, la;
        double u = mc_two_sum(1.0, x, &v);
        mc_log_fast_dd(u, &hf, &lf);
        mcore_LogCore(u, &ha, &la);
        wl1p.rel = std::max(wl1p.rel, Rel(hf, lf + v / u, 0, ha, la + v / u, 0));
        wl1p.near += NearBoundary(ha, la + v / u, MC_SETTLE_LOG);
    }
    // pow's budget: the fast log's absolute error (mc_log_fast_dd_abs) below 2^-70 over all normal x;
    // its relative error is within the log budget too.
    double worst_abs = 0.0;
    for (double x : Arguments(24, 0.0, 1e300, {})) {
        if (!(x >= 0x1p-1022 && x < INFINITY) || x == 1.0) continue;
        double hf, lf, ha, la;
        mc_log_fast_dd_abs(x, &hf, &lf);
        mcore_LogCore(x, &ha, &la);
        worst_abs = std::max(worst_abs, std::fabs((hf - ha) + (lf - la)));
        wl.rel = std::max(wl.rel, Rel(hf, lf, 0, ha, la, 0));
    }
    EXPECT_LT(worst_abs, 0x1p-70) << "log, absolute";
    std::printf("fast log absolute error: 2^%.2f\n", std::log2(worst_abs));
    // atan2's: mc_atan2_fast_dd against the accurate reference, the quotient as
    // a dd (mc_dd_div), mcore_AtanCore, then pi/2 - and pi - in dd; budget 2^-64.5
    // (mc_interval_poly's; MC_SETTLE_POLY).
    double worst_atan = 0.0;
    mcore_Rng rng;
    mcore_RngSeed(&rng, 35);
    for (double a : Arguments(36, 0.0, 2.0, {1.0, 0x1p-27, 0x1.0000000000001p-27, 0x1.fffffffffffffp0, 0x1p-7, 0x3p-8})) {
        if (!(a >= 0x1p-61 && a < 2.0)) continue;
        // The other operand: in [1, 2) (the scaled larger one) or a's neighbourhood.
        double b = (mcore_RngNext(&rng) & 1) ? 1.0 + mcore_RngDouble01(&rng) : a * (1.0 + 0x1p-20 * (mcore_RngDouble01(&rng) - 0.5));
        if (!(b < 2.0)) b = 1.0;
        for (int sx = 0; sx < 2; ++sx)
            for (int swap = 0; swap < 2; ++swap) {
                double ys = swap ? b : a, xs = swap ? a : b, hf, lf;
                if (!mc_atan2_fast_dd(ys, xs, sx, &hf, &lf)) continue;
                int sw = ys > xs;
                double qh, ql, ha, la;
                mc_dd_div(sw ? xs : ys, 0.0, sw ? ys : xs, 0.0, &qh, &ql);
                mcore_AtanCore(qh, ql, &ha, &la);
                if (sw) mc_dd_add(MCORE_PIO2_HI, MCORE_PIO2_LO, -ha, -la, &ha, &la);
                if (sx) mc_dd_add(MCORE_PI_HI, MCORE_PI_LO, -ha, -la, &ha, &la);
                worst_atan = std::max(worst_atan, Rel(hf, lf, 0, ha, la, 0));
            }
    }
    EXPECT_LT(worst_atan, std::ldexp(1.0, -64) / std::sqrt(2.0)) << "atan2";
    std::printf("atan2 fast relative error: 2^%.2f\n", std::log2(worst_atan));
    // cosh/sinh's E +- 1/E (mc_exp_pm_fast_dd) against the accurate path's
    // double-double: budget 2^-62.1 (cosh), times coth x <= 1.32 (sinh, x >= 1).
    double worst_cosh = 0.0, worst_sinh = 0.0;
    for (double x : Arguments(41, 0x1p-8, 42.0, {1.0, 0x1p-8, 0.5, 41.9})) {
        if (!(x >= 0x1p-8 && x <= 42.0)) continue;
        double rh, rl;
        double kd = mc_exp_reduce(x, &rh, &rl);
        int ma;
        double ha, la, ih, il, dh, dl, hf, lf;
        mcore_ExpCore(x, 0.0, &ma, &ha, &la);
        double eh = std::ldexp(ha, ma), el = std::ldexp(la, ma);
        mc_dd_div(1.0, 0.0, eh, el, &ih, &il);
        mc_dd_add(eh, el, ih, il, &dh, &dl);
        hf = mc_exp_pm_fast_dd((int)kd, rh, rl, 1.0, &lf);
        worst_cosh = std::max(worst_cosh, Rel(hf, lf, 0, dh, dl, 0));
        if (x >= 1.0) {
            mc_dd_add(eh, el, -ih, -il, &dh, &dl);
            hf = mc_exp_pm_fast_dd((int)kd, rh, rl, -1.0, &lf);
            worst_sinh = std::max(worst_sinh, Rel(hf, lf, 0, dh, dl, 0));
        }
    }
    const double kCosh = std::ldexp(1.0, -62) / std::pow(2.0, 0.1);
    EXPECT_LT(worst_cosh, kCosh) << "cosh";
    EXPECT_LT(worst_sinh, kCosh * 1.32) << "sinh";
    std::printf("cosh, sinh (E +- 1/E) fast relative error: 2^%.2f, 2^%.2f\n", std::log2(worst_cosh), std::log2(worst_sinh));
    EXPECT_LT(we.rel, kExp) << "exp";
    EXPECT_LT(we2.rel, kExp) << "exp2";
    EXPECT_LT(wl.rel, kLog) << "log";
    EXPECT_LT(wl2.rel, kLog) << "log2";
    EXPECT_LT(wl1p.rel, kLog) << "log1p";
    // Enough arguments within the tolerance (2^-61 exp, 2^-62 log) of a boundary that the fallback was taken often.
    EXPECT_GT(we.near, 1000u);
    EXPECT_GT(we2.near, 1000u);
    EXPECT_GT(wl.near, 1000u);
    EXPECT_GT(wl2.near, 1000u);
    EXPECT_GT(wl1p.near, 1000u);
    std::printf("worst relative error (log2): exp %.2f exp2 %.2f log %.2f log2 %.2f log1p %.2f\n", std::log2(we.rel), std::log2(we2.rel),
                std::log2(wl.rel), std::log2(wl2.rel), std::log2(wl1p.rel));
    std::printf("accurate results within tol of a boundary: exp %zu exp2 %zu log %zu log2 %zu log1p %zu\n", we.near, we2.near, wl.near,
                wl2.near, wl1p.near);
}

// asin(sh + sl) as a double-double from the accurate path's pieces:
// atan((s)/sqrt(1 - s^2)) with every step in double-double, s <= 0.6.
void AsinAccurateDD(double sh, double sl, double* h, double* l) {
    double qh, ql, dh, dl, rh, rl, uh, ul;
    mc_dd_mul(sh, sl, sh, sl, &qh, &ql);
    mc_dd_add(1.0, 0.0, -qh, -ql, &dh, &dl);
    mc_dd_sqrt(dh, dl, &rh, &rl);
    mc_dd_div(sh, sl, rh, rl, &uh, &ul);
    mcore_AtanCore(uh, ul, h, l);
}

// The per-interval polynomial kernel of atan, asin and acos
// (mc_interval_poly) against the accurate double-doubles, budget 2^-64.5,
// over the kernel's whole domain: s in [2^-27, 1] (atan), 1/a for a in
// [1, 2^60] as a double-double (atan above 1, reflected: pi/2 - atan),
// s in [2^-27, 1/2] (asin) and sqrt((1 - a)/2) as a double-double (asin and
// acos above 1/2).
TEST(DetMathFast64, IntervalPolynomialErrorsStayWithinTheirBudget) {
    const double kBudget = std::ldexp(1.0, -64) / std::sqrt(2.0);
    const double* atanTab = (const double*)MCORE_ATAN_POLY;
    const double* asinTab = (const double*)MCORE_ASIN_POLY;
    Worst at, atr, as, ash;
    for (double u : Arguments(37, 0.0, 1.0, {0x1p-8, 0x1p-7, 0x3p-8, 0.5, 0x1p-27})) {
        if (!(u >= 0x1p-27 && u <= 1.0)) continue;
        double hf, lf, ha, la;
        hf = mc_interval_poly(atanTab, 13, 0, u, 0, 0.0, &lf);
        mcore_AtanCore(u, 0.0, &ha, &la);
        at.rel = std::max(at.rel, Rel(hf, lf, 0, ha, la, 0));
        at.near += NearBoundary(ha, la, 0x1p-61);
    }
    for (double a : Arguments(38, 1.0, 100.0, {1e6, 1e12, 0x1p60, 128.0, 256.0})) {
        if (!(a > 1.0 && a <= 0x1p60)) continue;
        double hf, lf, th, tl, ha, la, pe;
        double w = 1.0 / a, p = mc_two_prod(w, a, &pe), wl = ((1.0 - p) - pe) / a;
        hf = mc_interval_poly(atanTab, 13, 1, w, 1, wl, &lf);
        mcore_AtanCore(w, wl, &th, &tl);
        mc_dd_add(MCORE_PIO2_HI, MCORE_PIO2_LO, -th, -tl, &ha, &la);
        atr.rel = std::max(atr.rel, Rel(hf, lf, 0, ha, la, 0));
        atr.near += NearBoundary(ha, la, 0x1p-61);
    }
    for (double s : Arguments(39, 0.0, 0.5, {0x1p-8, 0x1p-7, 0.25, 0x1p-27})) {
        if (!(s >= 0x1p-27 && s <= 0.5)) continue;
        double hf, lf, ha, la;
        hf = mc_interval_poly(asinTab, 11, 0, s, 0, 0.0, &lf);
        AsinAccurateDD(s, 0.0, &ha, &la);
        as.rel = std::max(as.rel, Rel(hf, lf, 0, ha, la, 0));
        as.near += NearBoundary(ha, la, 0x1p-61);
    }
    for (double a : Arguments(40, 0.5, 1.0, {0.75, 0.999, 0x1.fffffffffffffp-1})) {
        if (!(a > 0.5 && a < 1.0)) continue;
        double hf, lf, ha, la, sl;
        double sh = mc_sqrt_dd((1.0 - a) * 0.5, &sl);
        hf = mc_interval_poly(asinTab, 11, 0, sh, 1, sl, &lf);
        AsinAccurateDD(sh, sl, &ha, &la);
        ash.rel = std::max(ash.rel, Rel(hf, lf, 0, ha, la, 0));
        ash.near += NearBoundary(ha, la, 0x1p-61);
    }
    EXPECT_LT(at.rel, kBudget) << "atan";
    EXPECT_LT(atr.rel, kBudget) << "pi/2 - atan(1/a)";
    EXPECT_LT(as.rel, kBudget) << "asin";
    EXPECT_LT(ash.rel, kBudget) << "asin(sqrt((1 - a)/2))";
    // The rounding test is seen failing: arguments within 2^-61 of a boundary.
    EXPECT_GT(at.near + atr.near + as.near + ash.near, 1000u);
    std::printf("interval polynomial worst relative error (log2): atan %.2f, pi/2 - atan(1/a) %.2f, asin %.2f, asin(sqrt) %.2f\n",
                std::log2(at.rel), std::log2(atr.rel), std::log2(as.rel), std::log2(ash.rel));
    std::printf("accurate results within 2^-61 of a boundary: %zu %zu %zu %zu\n", at.near, atr.near, as.near, ash.near);
}

// expm1 and tanh (explog64): the fast evaluations' errors against the
// accurate double-doubles built the way mcore_expm1_accurate and
// mcore_tanh_accurate build them, relative to what the tolerance allows for:
// |R| + 1 >= E for expm1 (R = E - 1, E = e^x; the rounding of d is relative
// to |R|, the short exp's error to E), q (E/(E - 1) + E/(E + 1)) for tanh
// (E = e^(2|x|)): below 2^-62.4 (2^-62.8 from the short exp, 2^-64.5 from the
// rounding of E's tail into the difference; MC_SETTLE_EXPM1 assumes it).
TEST(DetMathFast64, Expm1TanhFastErrorsStayWithinTheirBudgets) {
    const double kBudget = std::ldexp(1.0, -62) / std::pow(2.0, 0.4);
    double worst_e = 0.0, worst_t = 0.0;
    size_t near_e = 0, near_t = 0;
    for (double x : Arguments(48, -3.0, 3.0, {0x1p-9, -0x1p-9, 40.0, -40.0})) {
        if (!(x >= -40.0 && x <= 40.0)) continue;
        if (mc_round_int(x * MCORE_128_LN2) == 0.0) continue;
        double rh, rl;
        int k = mc_exp_reduce(x, &rh, &rl);
        int mf, ma;
        double hf, lf, ha, la, df, da;
        mc_exp_fast_dd(k, rh, rl, &mf, &hf, &lf);
        mcore_ExpCore(x, 0.0, &ma, &ha, &la);
        double cf = mc_two_sum(std::ldexp(hf, mf), -1.0, &df);
        df += std::ldexp(lf, mf);
        double ca = mc_two_sum(std::ldexp(ha, ma), -1.0, &da);
        da += std::ldexp(la, ma);
        worst_e = std::max(worst_e, std::fabs((cf - ca) + (df - da)) / (std::fabs(ca) + 1.0));
        near_e += NearBoundary(ca, da, MC_SETTLE_EXPM1 * (1.0 + 1.0 / std::fabs(ca)));
    }
    for (double x : Arguments(49, 0x1p-8, 22.0, {0x1p-8, 1.0, 19.0})) {
        if (!(x >= 0x1p-8 && x < 22.0)) continue;
        double y = 2.0 * x, rh, rl;
        int k = mc_exp_reduce(y, &rh, &rl);
        double q[2][2];
        for (int fast = 0; fast < 2; ++fast) {
            int m;
            double h, l, ne, de, nl, dl;
            if (fast)
                mc_exp_fast_dd(k, rh, rl, &m, &h, &l);
            else
                mcore_ExpCore(y, 0.0, &m, &h, &l);
            double eh = std::ldexp(h, m), el = std::ldexp(l, m);
            double n0 = mc_two_sum(eh, -1.0, &ne);
            double nh = mc_fast_two_sum(n0, ne + el, &nl);
            double d0 = mc_two_sum(eh, 1.0, &de);
            double dh = mc_fast_two_sum(d0, de + el, &dl);
            mc_dd_div(nh, nl, dh, dl, &q[fast][0], &q[fast][1]);
        }
        double e = std::exp(y), amp = e / (e - 1.0) + e / (e + 1.0);
        worst_t = std::max(worst_t, Rel(q[1][0], q[1][1], 0, q[0][0], q[0][1], 0) / amp);
        near_t += NearBoundary(q[0][0], q[0][1], MC_SETTLE_EXPM1 * (2.0 + 1.0 / std::expm1(y)));
    }
    EXPECT_LT(worst_e, kBudget) << "expm1";
    EXPECT_LT(worst_t, kBudget) << "tanh";
    EXPECT_GT(near_e, 1000u);
    EXPECT_GT(near_t, 1000u);
    std::printf("expm1, tanh fast error / amplification: 2^%.2f, 2^%.2f; near a boundary: %zu, %zu\n", std::log2(worst_e),
                std::log2(worst_t), near_e, near_t);
}

}  // namespace

namespace {

// Arguments for the trigonometric functions: multiples of pi/4 (and their
// 64 neighbours each side, from Arguments), a few arguments known to come
// close to a multiple of pi/2, huge ones (Payne-Hanek).
std::vector<double> TrigSpecials() {
    std::vector<double> s;
    for (int k = -64; k <= 64; ++k) s.push_back(k * 0.78539816339744830962);
    for (double v : {0x1p-26, 0x1p-27, 0x1p-28, 0x1p20, 0x1p20 * 1.5707963267948966, 1e22, 6381956970095103.0 * 0x1p797, 0x1.921fb54442d18p+1,
                     0x1.921fb54442d18p+0, 5.0 * 0x1.921fb54442d18p+0, 355.0, 103993.0, 1.0e6, 1.0e15, 1.0e300})
        s.push_back(v);
    return s;
}

std::vector<std::vector<double>> TrigArgumentSets() {
    return {Arguments(50, -8.0, 8.0, TrigSpecials()), Arguments(51, -1e6, 1e6, TrigSpecials()), Arguments(52, -1.0, 1.0, TrigSpecials())};
}

TEST(DetMathFast64, SinCosTanSameBitsAsTheAccuratePath) {
    for (const std::vector<double>& xs : TrigArgumentSets()) {
        ExpectSameBits("sin", mcore_sin, mcore_sin_accurate, xs);
        ExpectSameBits("cos", mcore_cos, mcore_cos_accurate, xs);
        ExpectSameBits("tan", mcore_tan, mcore_tan_accurate, xs);
    }
}

TEST(DetMathFast64, SincosSameBitsAsSinAndCos) {
    for (const std::vector<double>& xs : TrigArgumentSets()) {
        size_t wrong = 0;
        for (double x : xs) {
            double s, c, sa, ca;
            mcore_sincos(x, &s, &c);
            mcore_sincos_accurate(x, &sa, &ca);
            if ((Bits(s) != Bits(sa) || Bits(c) != Bits(ca) || Bits(s) != Bits(mcore_sin_accurate(x)) ||
                 Bits(c) != Bits(mcore_cos_accurate(x))) &&
                ++wrong <= 5)
                ADD_FAILURE() << "sincos(" << std::hexfloat << x << ") = " << s << ", " << c << ", the accurate path gives " << sa << ", " << ca;
        }
        EXPECT_EQ(wrong, 0u) << "sincos over " << xs.size() << " arguments";
    }
}

// sin and cos of a double r (|r| < 0.8) as double-doubles, the Taylor
// series to r^29 and r^28 by Horner in double-double (coefficients by
// double-double divisions): relative error about 2^-100.
void SinCosRef(double r, double* sh, double* sl, double* ch, double* cl) {
    double zh, zl;
    zh = mc_two_prod(r, r, &zl);
    // coefficients 1/(2k+1)! and 1/(2k)!, k = 0..14
    double sc[15][2], cc[15][2];
    sc[0][0] = 1.0, sc[0][1] = 0.0, cc[0][0] = 1.0, cc[0][1] = 0.0;
    for (int k = 1; k < 15; ++k) {
        mc_dd_div(cc[k - 1][0], cc[k - 1][1], (double)((2 * k - 1) * 2 * k), 0.0, &cc[k][0], &cc[k][1]);
        mc_dd_div(sc[k - 1][0], sc[k - 1][1], (double)(2 * k * (2 * k + 1)), 0.0, &sc[k][0], &sc[k][1]);
    }
    double ah = 0.0, al = 0.0, bh = 0.0, bl = 0.0;
    for (int k = 14; k >= 0; --k) {
        double sg = (k & 1) ? -1.0 : 1.0;
        mc_dd_mul(ah, al, zh, zl, &ah, &al);
        mc_dd_add(ah, al, sg * sc[k][0], sg * sc[k][1], &ah, &al);
        mc_dd_mul(bh, bl, zh, zl, &bh, &bl);
        mc_dd_add(bh, bl, sg * cc[k][0], sg * cc[k][1], &bh, &bl);
    }
    mc_dd_mul(ah, al, r, 0.0, sh, sl);
    *ch = bh, *cl = bl;
}

// What the accurate kernels approximate (detmath_internal.h, mc_sin_fast):
// S = sin rh + rl (1 - rh^2/2), C = cos rh - rh rl, as double-doubles.
void TrigTargets(double rh, double rl, double* sh, double* sl, double* ch, double* cl) {
    SinCosRef(rh, sh, sl, ch, cl);
    double zl, z = mc_two_prod(rh, rh, &zl);
    mc_dd_add(*sh, *sl, rl, -(0.5 * z) * rl, sh, sl);
    mc_dd_add(*ch, *cl, -(rh * rl), 0.0, ch, cl);
}

// The fast kernels' errors (budget E_FAST = 2^-64) and the accurate kernels'
// (budget E_ACC(z) = C z^2 2^-53 + 2^-98, C = 0.11 sin, 0.016 cos, 0.126
// tan and cot) against S, C, S/C, C/S, on the reduced arguments of [-8, 8],
// [-1e6, 1e6] and raw bit patterns (Payne-Hanek).
TEST(DetMathFast64, TrigKernelErrorsStayWithinTheirBudgets) {
    const double kFast = 0x1p-64;
    const double kC[4] = {0.11, 0.016, 0.126, 0.126};
    const char* names[4] = {"sin", "cos", "tan", "cot"};
    double fast[4] = {0, 0, 0, 0}, acc[4] = {0, 0, 0, 0}, accz[4] = {0, 0, 0, 0};
    size_t near = 0, n = 0;
    for (const std::vector<double>& xs : TrigArgumentSets()) {
        for (double x : xs) {
            if (!(std::fabs(x) >= 0x1p-26 && std::fabs(x) < INFINITY)) continue;
            double rh, rl;
            mcore_remPiO2(x, &rh, &rl);
            ++n;
            double t[4][2], a[4][2], f[4][2];
            TrigTargets(rh, rl, &t[0][0], &t[0][1], &t[1][0], &t[1][1]);
            mc_dd_div(t[0][0], t[0][1], t[1][0], t[1][1], &t[2][0], &t[2][1]);
            mc_dd_div(t[1][0], t[1][1], t[0][0], t[0][1], &t[3][0], &t[3][1]);
            mcore_SinCore(rh, rl, &a[0][0], &a[0][1]);
            mcore_CosCore(rh, rl, &a[1][0], &a[1][1]);
            mc_dd_div(a[0][0], a[0][1], a[1][0], a[1][1], &a[2][0], &a[2][1]);
            mc_dd_div(a[1][0], a[1][1], a[0][0], a[0][1], &a[3][0], &a[3][1]);
            f[0][0] = mc_sin_fast(rh, rl, &f[0][1]);
            f[1][0] = mc_cos_fast(rh, rl, &f[1][1]);
            f[2][0] = mc_tan_fast(rh, rl, 0, &f[2][1]);
            f[3][0] = mc_tan_fast(rh, rl, 1, &f[3][1]);
            double z = rh * rh;
            for (int k = 0; k < 4; ++k) {
                fast[k] = std::max(fast[k], Rel(f[k][0], f[k][1], 0, t[k][0], t[k][1], 0));
                double ea = Rel(a[k][0], a[k][1], 0, t[k][0], t[k][1], 0);
                acc[k] = std::max(acc[k], ea);
                if (z > 0x1p-20) accz[k] = std::max(accz[k], (ea - 0x1p-98) / (z * z * 0x1p-53));
                near += NearBoundary(a[k][0], a[k][1], 0x1p-60);
            }
        }
    }
    for (int k = 0; k < 4; ++k) {
        EXPECT_LT(fast[k], kFast) << names[k] << " fast kernel";
        EXPECT_LT(accz[k], kC[k]) << names[k] << " accurate kernel, error / (z^2 2^-53)";
        std::printf("%s: fast kernel worst relative error 2^%.2f; accurate kernel 2^%.2f, at most %.4f z^2 2^-53 (budget %.3f)\n", names[k],
                    std::log2(fast[k]), std::log2(acc[k]), accz[k], kC[k]);
    }
    EXPECT_GT(near, 1000u);
    std::printf("reduced arguments %zu; accurate results within 2^-60 of a boundary: %zu\n", n, near);
}

}  // namespace
