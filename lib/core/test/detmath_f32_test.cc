// The binary32 functions that detmath_f32.c defines as "the binary64
// function, rounded once to binary32" (asinf, atanf, tanf, expf, exp2f,
// expm1f, logf, log2f, log1pf, powf, sinhf, coshf, tanhf, cbrtf) return
// exactly that, bit for bit, although most arguments take a short fast path:
// every function is compared with its definition on 2^20 arguments (specials
// and their neighbours, every binade, raw bit patterns, the ordinary domain),
// and the fast paths' own errors are measured against the binary64 functions
// to keep the margin detmath_f32.c's FAST_TOL assumes.
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
#include "lib/core/test/f32_bits.h"

namespace {


// 2^20 arguments: specials and their neighbours, powers of two and their
// neighbours in every binade, raw bit patterns, and uniform draws in [lo, hi].
std::vector<float> Arguments(uint64_t seed, float lo, float hi) {
    std::vector<float> xs;
    const float specials[] = {0.0f, 1.0f, 0.5f, 2.0f, 3.0f, 10.0f, 88.7f, 89.5f, -87.3f, -103.9f, -150.0f, 127.9f, 128.0f,
                              0.785398f, 1.5707964f, 3.1415927f, 1e-8f, 1e-30f, 1e30f, 1e-45f, 1.17549435e-38f, 3.4028235e38f};
    for (float s : specials) {
        uint32_t b = BitsF(s);
        for (int d = -40; d <= 40; ++d) {
            xs.push_back(FromBits(b + (uint32_t)d));
            xs.push_back(-FromBits(b + (uint32_t)d));
        }
    }
    for (uint32_t e = 0; e < 255; ++e)
        for (int d = -3; d <= 3; ++d) {
            xs.push_back(FromBits((e << 23) + (uint32_t)d));
            xs.push_back(-FromBits((e << 23) + (uint32_t)d));
        }
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    while (xs.size() < (1u << 19)) xs.push_back(FromBits((uint32_t)mcore_RngNext(&rng)));
    while (xs.size() < (1u << 20)) xs.push_back(lo + (hi - lo) * (float)mcore_RngFloat01(&rng));
    return xs;
}

template <typename F32, typename F64>
void ExpectDefinition(const char* name, F32 f32, F64 f64, uint64_t seed, float lo, float hi) {
    size_t wrong = 0;
    for (float x : Arguments(seed, lo, hi)) {
        float got = f32(x), want = Rounded(f64((double)x));
        if (BitsF(got) != BitsF(want) && ++wrong <= 5)
            ADD_FAILURE() << name << "(" << std::hexfloat << x << ") = " << got << ", the binary64 function rounded gives " << want;
    }
    EXPECT_EQ(wrong, 0u) << name;
}

TEST(DetMathF32, EqualsTheRoundedBinary64Function) {
    ExpectDefinition("asinf", mcore_asinf, mcore_asin, 1, -1.0f, 1.0f);
    ExpectDefinition("atanf", mcore_atanf, mcore_atan, 2, -20.0f, 20.0f);
    ExpectDefinition("tanf", mcore_tanf, mcore_tan, 3, -1000.0f, 1000.0f);
    ExpectDefinition("expf", mcore_expf, mcore_exp, 4, -110.0f, 90.0f);
    ExpectDefinition("exp2f", mcore_exp2f, mcore_exp2, 5, -160.0f, 130.0f);
    ExpectDefinition("expm1f", mcore_expm1f, mcore_expm1, 6, -20.0f, 90.0f);
    ExpectDefinition("logf", mcore_logf, mcore_log, 7, 0.0f, 4.0f);
    ExpectDefinition("log2f", mcore_log2f, mcore_log2, 8, 0.0f, 4.0f);
    ExpectDefinition("log1pf", mcore_log1pf, mcore_log1p, 9, -1.0f, 4.0f);
    ExpectDefinition("sinhf", mcore_sinhf, mcore_sinh, 10, -90.0f, 90.0f);
    ExpectDefinition("coshf", mcore_coshf, mcore_cosh, 11, -90.0f, 90.0f);
    ExpectDefinition("tanhf", mcore_tanhf, mcore_tanh, 12, -10.0f, 10.0f);
    ExpectDefinition("cbrtf", mcore_cbrtf, mcore_cbrt, 13, -100.0f, 100.0f);
}

// sinf and cosf evaluate only the polynomial they need; mcore_sincosf, whose
// sequence the SIMD kernels follow, evaluates both: the bits must agree.
TEST(DetMathF32, SinAndCosEqualSincos) {
    size_t wrong = 0;
    for (float x : Arguments(16, -1e6f, 1e6f)) {
        float s, c;
        mcore_sincosf(x, &s, &c);
        if ((BitsF(mcore_sinf(x)) != BitsF(s) || BitsF(mcore_cosf(x)) != BitsF(c)) && ++wrong <= 5)
            ADD_FAILURE() << "sinf/cosf(" << std::hexfloat << x << ") differ from sincosf: " << s << " " << c;
    }
    EXPECT_EQ(wrong, 0u);
}

TEST(DetMathF32, PowEqualsTheRoundedBinary64Function) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, 14);
    std::vector<float> xs = Arguments(15, 0.0f, 4.0f);
    const float ys[] = {0.0f, 1.0f, 2.0f, 3.0f, 0.5f, -0.5f, -1.0f, 1.0f / 3.0f, 2.2f, 1.0f / 2.4f, 2.4f, 100.0f, -100.0f, 1e4f, 1e-4f};
    size_t wrong = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
        float x = xs[i];
        // Exponents from a fixed list, raw bits, and ranges that keep x^y finite.
        float y = (i % 4 == 0) ? ys[i / 4 % (sizeof ys / sizeof ys[0])]
                  : (i % 4 == 1) ? FromBits((uint32_t)mcore_RngNext(&rng))
                                 : -30.0f + 60.0f * (float)mcore_RngFloat01(&rng);
        float got = mcore_powf(x, y), want = Rounded(mcore_pow((double)x, (double)y));
        if (BitsF(got) != BitsF(want) && ++wrong <= 5)
            ADD_FAILURE() << "powf(" << std::hexfloat << x << ", " << y << ") = " << got << ", want " << want;
    }
    EXPECT_EQ(wrong, 0u);
}

// The fast paths' relative errors, against the binary64 functions (< 2^-52
// themselves). detmath_f32.c's FAST_TOL (2^-38) needs them well below it.
template <typename Fast, typename Ref>
double WorstRelative(Fast fast, Ref ref, double lo, double hi, uint64_t seed) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    double worst = 0.0;
    for (int i = 0; i < (1 << 20); ++i) {
        double x = lo + (hi - lo) * mcore_RngDouble01(&rng);
        double want = ref(x);
        if (want == 0.0) continue;
        double rel = std::fabs((fast(x) - want) / want);
        if (rel > worst) worst = rel;
    }
    return worst;
}

TEST(DetMathF32, FastPathErrorsLeaveTheMargin) {
    const double kBound = 0x1p-44;
    EXPECT_LT(WorstRelative(mc_exp_fast, mcore_exp, -110.0, 90.0, 21), kBound);
    EXPECT_LT(WorstRelative(mc_exp_fast, mcore_exp, -0.01, 0.01, 22), kBound);
    EXPECT_LT(WorstRelative(mc_log_fast, mcore_log, 0x1p-140, 4.0, 23), kBound);
    EXPECT_LT(WorstRelative(mc_log_fast, mcore_log, 0.49, 1.01, 24), kBound);
    EXPECT_LT(WorstRelative(mc_log_fast, mcore_log, 1.0, 0x1p120, 25), kBound);
    EXPECT_LT(WorstRelative(mc_atan_fast01, mcore_atan, 0.0, 1.0, 26), kBound);
    EXPECT_LT(WorstRelative(mc_atan_fast01, mcore_atan, 0.0, 0x1p-10, 27), kBound);
}

}  // namespace
