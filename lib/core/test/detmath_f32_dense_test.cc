// The binary32 short evaluations of detmath_f32.c (expf, exp2f, logf,
// log2f, asinf, cbrtf; powf on pairs): the bits of each function against its
// definition ((float) of the binary64 function) on a dense sweep of all 2^32
// bit patterns (every MAUL_F32_STRIDE-th, from a per-function offset), plus
// every float in a stretch of the ordinary range, and the short
// evaluation's relative error against the binary64 function over the same
// arguments, which must stay within the budget the rounding test assumes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "lib/core/detmath.h"
#include "lib/core/detmath_internal.h"
#include "lib/core/rng.h"
}
#include "lib/core/test/f32_bits.h"

// Every 61st bit pattern by default; MAUL_F32_STRIDE=1 in the environment
// runs the exhaustive sweep (about an hour of CPU for all functions).
uint64_t Stride() {
    const char* s = std::getenv("MAUL_F32_STRIDE");
    long v = s ? std::strtol(s, nullptr, 10) : 0;
    return v > 0 ? (uint64_t)v : 61u;
}

namespace {

// detmath_f32.c's f32_settled_bits, to count the arguments that fall back.
bool Settled(double r, uint64_t T) {
    uint64_t u = mc_bits(r) & MC_ABS;
    if (u - (UINT64_C(897) << 52) >= (UINT64_C(254) << 52)) return false;
    return ((u + T - UINT64_C(0x10000000)) & UINT64_C(0x1FFFFFFF)) > 2 * T;
}

struct Stats {
    uint64_t tested = 0, wrong = 0, shortRuns = 0, fallbacks = 0;
    double worst = 0;
    double worstAt = 0;
};

// short_eval(x, &r) returns whether x is in the short path's domain.
template <typename F32, typename F64, typename Short>
void Check(Stats& s, const char* name, float x, F32 f32, F64 f64, Short short_eval, uint64_t T) {
    double want64 = f64((double)x);
    float got = f32(x), want = Rounded(want64);
    ++s.tested;
    if (BitsF(got) != BitsF(want) && ++s.wrong <= 5)
        ADD_FAILURE() << name << "(" << std::hexfloat << x << ") = " << got << ", the binary64 function rounded gives " << want;
    double r;
    if (short_eval(x, &r)) {
        ++s.shortRuns;
        if (!Settled(r, T)) ++s.fallbacks;
        if (want64 != 0.0 && std::isfinite(want64) && std::fabs(want64) >= 0x1p-126) {
            double rel = std::fabs((r - want64) / want64);
            if (rel > s.worst) {
                s.worst = rel;
                s.worstAt = x;
            }
        }
    }
}

template <typename F32, typename F64, typename Short>
void Sweep(const char* name, uint32_t offset, float lo, float hi, F32 f32, F64 f64, Short short_eval, uint64_t T, double budget) {
    Stats s;
    const uint64_t stride = Stride();
    for (uint64_t i = offset % stride; i < (UINT64_C(1) << 32); i += stride) Check(s, name, FromBits((uint32_t)i), f32, f64, short_eval, T);
    // Every float in [lo, hi] (lo, hi of one sign).
    for (uint32_t b = BitsF(lo), e = BitsF(hi); b <= e; ++b) Check(s, name, FromBits(b), f32, f64, short_eval, T);
    // Neighbours of every power of two, both signs.
    for (uint32_t e = 0; e < 255; ++e)
        for (int d = -64; d <= 64; ++d) {
            Check(s, name, FromBits((e << 23) + (uint32_t)d), f32, f64, short_eval, T);
            Check(s, name, FromBits(((e << 23) + (uint32_t)d) ^ 0x80000000u), f32, f64, short_eval, T);
        }
    EXPECT_EQ(s.wrong, 0u) << name;
    EXPECT_LT(s.worst, budget) << name << " at " << std::hexfloat << s.worstAt;
    std::printf("%-6s %llu arguments, %llu by the short path, %llu of them fell back (%.2e); E_short measured 2^%.2f at %a (budget 2^%.2f)\n", name,
                (unsigned long long)s.tested, (unsigned long long)s.shortRuns, (unsigned long long)s.fallbacks,
                (double)s.fallbacks / (double)(s.shortRuns ? s.shortRuns : 1), std::log2(s.worst), s.worstAt, std::log2(budget));
}

const uint64_t kT = 0x1000, kTPow = 0x10000;

TEST(DetMathF32Dense, Expf) {
    Sweep("expf", 0, 1.0f, 4.0f, mcore_expf, mcore_exp,
          [](float x, double* r) {
              if (!(std::fabs((double)x) < 104.0)) return false;
              *r = mc_expf_short((double)x);
              return true;
          },
          kT, 0x1p-45);
}

TEST(DetMathF32Dense, Exp2f) {
    Sweep("exp2f", 1, 1.0f, 4.0f, mcore_exp2f, mcore_exp2,
          [](float x, double* r) {
              if (!(std::fabs((double)x) < 150.0)) return false;
              *r = mc_exp2_64_short((double)x * 64.0);
              return true;
          },
          kT, 0x1p-46);
}

bool PosNormal(float x) { return BitsF(x) - 0x00800000u < 0x7F000000u; }

TEST(DetMathF32Dense, Logf) {
    Sweep("logf", 2, 0.5f, 2.0f, mcore_logf, mcore_log,
          [](float x, double* r) {
              if (!PosNormal(x)) return false;
              *r = mc_logf_short(BitsF(x));
              return true;
          },
          kT, 0x1p-49);
}

TEST(DetMathF32Dense, Log2f) {
    Sweep("log2f", 3, 0.5f, 2.0f, mcore_log2f, mcore_log2,
          [](float x, double* r) {
              if (!PosNormal(x)) return false;
              *r = mc_log2f_short(BitsF(x));
              return true;
          },
          kT, 0x1p-49);
}

TEST(DetMathF32Dense, Asinf) {
    Sweep("asinf", 4, 0.25f, 1.0f, mcore_asinf, mcore_asin,
          [](float x, double* r) {
              double a = std::fabs((double)x);
              if (!(a >= 0x1p-27 && a <= 1.0)) return false;
              double v = a <= 0.5 ? mc_asinf_short(a) : MCORE_PIO2_HI - 2.0 * mc_asinf_short(std::sqrt((1.0 - a) * 0.5));
              *r = std::copysign(v, (double)x);
              return true;
          },
          kT, 0x1p-49);
}

TEST(DetMathF32Dense, Cbrtf) {
    Sweep("cbrtf", 5, 1.0f, 10.0f, mcore_cbrtf, mcore_cbrt,
          [](float x, double* r) {
              double a = std::fabs((double)x);
              if (!(a > 0.0 && a < 0x1p128)) return false;
              *r = std::copysign(mc_cbrtf_short(a), (double)x);
              return true;
          },
          kT, 0x1p-48);
}

// powf: 2^24 pairs (raw bit patterns, x in the ordinary range against
// exponents keeping x^y finite, integers and halves, neighbours of 1), with
// the composite error of e^(y log x) measured against the binary64 pow.
TEST(DetMathF32Dense, Powf) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, 77);
    Stats s;
    const float ys[] = {0.5f, -0.5f, 2.0f, 3.0f, -1.0f, 1.0f / 3.0f, 2.4f, 1.0f / 2.4f, 10.0f, -10.0f, 100.0f};
    for (uint32_t i = 0; i < (1u << 24); ++i) {
        float x, y;
        switch (i % 4) {
            case 0: x = FromBits((uint32_t)mcore_RngNext(&rng)), y = FromBits((uint32_t)mcore_RngNext(&rng)); break;
            case 1: x = (float)(1e-3 + 4.0 * mcore_RngDouble01(&rng)), y = (float)(-20.0 + 40.0 * mcore_RngDouble01(&rng)); break;
            case 2: x = FromBits((uint32_t)mcore_RngNext(&rng) & 0x7FFFFFFFu), y = ys[(i / 4) % 11]; break;
            default: x = FromBits(0x3F800000u + (uint32_t)((i / 4) % 4096) - 2048u), y = (float)(-1e6 + 2e6 * mcore_RngDouble01(&rng)); break;
        }
        double want64 = mcore_pow((double)x, (double)y);
        float got = mcore_powf(x, y), want = Rounded(want64);
        ++s.tested;
        if (BitsF(got) != BitsF(want) && ++s.wrong <= 5)
            ADD_FAILURE() << "powf(" << std::hexfloat << x << ", " << y << ") = " << got << ", want " << want;
        if (PosNormal(x)) {
            double w = (double)y * mc_logf_short(BitsF(x));
            if (w > -104.0 && w < 104.0) {
                double r = mc_expf_short(w);
                ++s.shortRuns;
                if (!Settled(r, kTPow)) ++s.fallbacks;
                if (std::fabs(want64) >= 0x1p-126 && std::isfinite(want64)) s.worst = std::fmax(s.worst, std::fabs((r - want64) / want64));
            }
        }
    }
    EXPECT_EQ(s.wrong, 0u);
    EXPECT_LT(s.worst, 0x1p-40);
    std::printf("powf   %llu pairs, %llu by the short path, %llu fell back (%.2e); E_short measured 2^%.2f (budget 2^-40)\n",
                (unsigned long long)s.tested, (unsigned long long)s.shortRuns, (unsigned long long)s.fallbacks,
                (double)s.fallbacks / (double)(s.shortRuns ? s.shortRuns : 1), std::log2(s.worst));
}

}  // namespace

namespace {

// mcore_hypot's fast path (the accurate path without its exact scaling)
// against mcore_hypot_accurate on 2^21 pairs: random bits, the ordinary
// range, operands 2^k apart around the fast path's limits (2^-300, 2^300,
// exponent gap 60), zeros, subnormals, infinities and NaNs.
TEST(DetMathHypot, FastPathEqualsTheAccuratePath) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, 91);
    const double edges[] = {0.0, 0x1p-1074, 0x1p-1022, 0x1p-301, 0x1p-300, 0x1.fffffffffffffp-301, 0x1p299, 0x1.fffffffffffffp299, 0x1p300,
                            1.0, 0x1p1023, INFINITY, NAN};
    uint64_t wrong = 0, n = 0;
    for (uint32_t i = 0; i < (1u << 21); ++i) {
        double x, y;
        switch (i % 4) {
            case 0: x = mc_dbl(mcore_RngNext(&rng)), y = mc_dbl(mcore_RngNext(&rng)); break;
            case 1: x = -10.0 + 20.0 * mcore_RngDouble01(&rng), y = -10.0 + 20.0 * mcore_RngDouble01(&rng); break;
            case 2: {
                double m = 1.0 + mcore_RngDouble01(&rng), k = 1.0 + mcore_RngDouble01(&rng);
                int e = (int)(mcore_RngNext(&rng) % 700) - 350, g = (int)(mcore_RngNext(&rng) % 70);
                x = std::ldexp(m, e), y = std::ldexp(k, e - g);
                break;
            }
            default: {
                double e = edges[(i / 4) % 13], m = 1.0 + mcore_RngDouble01(&rng);
                x = mc_dbl(mc_bits(e) + (mcore_RngNext(&rng) % 5) - 2), y = std::ldexp(m, (int)(mcore_RngNext(&rng) % 2200) - 1100);
                if (i & 8) std::swap(x, y);
                break;
            }
        }
        if (i & 16) x = -x;
        if (i & 32) y = -y;
        ++n;
        double got = mcore_hypot(x, y), want = mcore_hypot_accurate(x, y);
        if (mc_bits(got) != mc_bits(want) && ++wrong <= 5)
            ADD_FAILURE() << "hypot(" << std::hexfloat << x << ", " << y << ") = " << got << ", the accurate path gives " << want;
    }
    EXPECT_EQ(wrong, 0u);
    std::printf("hypot  %llu pairs, fast path == accurate path\n", (unsigned long long)n);
}

}  // namespace
