// lib/core/detmath.h: exact special values (C99 Annex F), identities, and
// hashes of the output bits over seeded sweeps, identical on every platform
// (x86-64 and arm64). The error bounds are checked in conformance/mpfr.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

extern "C" {
#include "lib/core/detmath.h"
#include "lib/core/hash.h"
#include "lib/core/rng.h"
}

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const float kInfF = std::numeric_limits<float>::infinity();
const float kNaNF = std::numeric_limits<float>::quiet_NaN();

uint64_t Bits(double v) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
}
uint32_t BitsF(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
}
// Same value and same sign of zero, or both NaN.
::testing::AssertionResult Same(double got, double want) {
    if (std::isnan(want) ? std::isnan(got) : Bits(got) == Bits(want)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << std::hexfloat << got << " want " << want;
}
::testing::AssertionResult SameF(float got, float want) {
    if (std::isnan(want) ? std::isnan(got) : BitsF(got) == BitsF(want)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << std::hexfloat << got << " want " << want;
}

TEST(DetMath, TrigSpecials) {
    EXPECT_TRUE(Same(mcore_sin(0.0), 0.0));
    EXPECT_TRUE(Same(mcore_sin(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_tan(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_cos(-0.0), 1.0));
    EXPECT_TRUE(Same(mcore_sin(kInf), kNaN));
    EXPECT_TRUE(Same(mcore_cos(-kInf), kNaN));
    EXPECT_TRUE(Same(mcore_tan(kNaN), kNaN));
    EXPECT_TRUE(Same(mcore_sin(4.9406564584124654e-324), 4.9406564584124654e-324));
    EXPECT_TRUE(SameF(mcore_sinf(-0.0f), -0.0f));
    EXPECT_TRUE(SameF(mcore_sinf(0.0f), 0.0f));
    EXPECT_TRUE(SameF(mcore_cosf(-0.0f), 1.0f));
    EXPECT_TRUE(SameF(mcore_tanf(-0.0f), -0.0f));
    EXPECT_TRUE(SameF(mcore_sinf(kInfF), kNaNF));
    EXPECT_TRUE(SameF(mcore_cosf(kNaNF), kNaNF));
    EXPECT_TRUE(SameF(mcore_sinf(1e-45f), 1e-45f));
    double s, c;
    mcore_sincos(-0.0, &s, &c);
    EXPECT_TRUE(Same(s, -0.0));
    EXPECT_TRUE(Same(c, 1.0));
    float sf, cf;
    mcore_sincosf(-0.0f, &sf, &cf);
    EXPECT_TRUE(SameF(sf, -0.0f));
    EXPECT_TRUE(SameF(cf, 1.0f));
    // Huge arguments: correctly reduced (values from mpmath at 3000 bits, correctly rounded).
    EXPECT_TRUE(Same(mcore_sin(1e22), -0x1.b453ab76bf397p-1));
    EXPECT_TRUE(Same(mcore_sin(0x1.fffffffffffffp1023), 0x1.452fc98b34e97p-8));
    EXPECT_TRUE(SameF(mcore_sinf(0x1.fffffep127f), -0x1.0b3366p-1f));
    // Odd/even symmetry.
    for (double x : {0.5, 3.0, 1e5, 1e300}) {
        EXPECT_TRUE(Same(mcore_sin(-x), -mcore_sin(x)));
        EXPECT_TRUE(Same(mcore_cos(-x), mcore_cos(x)));
        EXPECT_TRUE(Same(mcore_tan(-x), -mcore_tan(x)));
    }
}

TEST(DetMath, InverseTrigSpecials) {
    const double pi = 0x1.921fb54442d18p+1, pio2 = 0x1.921fb54442d18p+0, pio4 = 0x1.921fb54442d18p-1;
    const double tpio4 = 0x1.2d97c7f3321d2p+1;
    EXPECT_TRUE(Same(mcore_asin(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_asin(1.0), pio2));
    EXPECT_TRUE(Same(mcore_asin(-1.0), -pio2));
    EXPECT_TRUE(Same(mcore_asin(1.0000000000000002), kNaN));
    EXPECT_TRUE(Same(mcore_acos(1.0), 0.0));
    EXPECT_TRUE(Same(mcore_acos(-1.0), pi));
    EXPECT_TRUE(Same(mcore_acos(0.0), pio2));
    EXPECT_TRUE(Same(mcore_acos(kInf), kNaN));
    EXPECT_TRUE(Same(mcore_atan(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_atan(kInf), pio2));
    EXPECT_TRUE(Same(mcore_atan(-kInf), -pio2));
    EXPECT_TRUE(Same(mcore_atan(1.0), pio4));
    // atan2, C99 F.9.1.4.
    EXPECT_TRUE(Same(mcore_atan2(0.0, 0.0), 0.0));
    EXPECT_TRUE(Same(mcore_atan2(-0.0, 0.0), -0.0));
    EXPECT_TRUE(Same(mcore_atan2(0.0, -0.0), pi));
    EXPECT_TRUE(Same(mcore_atan2(-0.0, -0.0), -pi));
    EXPECT_TRUE(Same(mcore_atan2(0.0, -3.0), pi));
    EXPECT_TRUE(Same(mcore_atan2(-0.0, -3.0), -pi));
    EXPECT_TRUE(Same(mcore_atan2(-0.0, 3.0), -0.0));
    EXPECT_TRUE(Same(mcore_atan2(3.0, 0.0), pio2));
    EXPECT_TRUE(Same(mcore_atan2(-3.0, -0.0), -pio2));
    EXPECT_TRUE(Same(mcore_atan2(3.0, -kInf), pi));
    EXPECT_TRUE(Same(mcore_atan2(-3.0, -kInf), -pi));
    EXPECT_TRUE(Same(mcore_atan2(-3.0, kInf), -0.0));
    EXPECT_TRUE(Same(mcore_atan2(kInf, 5.0), pio2));
    EXPECT_TRUE(Same(mcore_atan2(kInf, kInf), pio4));
    EXPECT_TRUE(Same(mcore_atan2(-kInf, -kInf), -tpio4));
    EXPECT_TRUE(Same(mcore_atan2(kNaN, 1.0), kNaN));
    // Quadrants.
    EXPECT_TRUE(Same(mcore_atan2(1.0, 1.0), pio4));
    EXPECT_TRUE(Same(mcore_atan2(1.0, -1.0), tpio4));
    EXPECT_TRUE(Same(mcore_atan2(-1.0, -1.0), -tpio4));
    EXPECT_TRUE(Same(mcore_atan2(-1.0, 1.0), -pio4));
    // binary32
    const float pif = 0x1.921fb6p+1f, pio2f = 0x1.921fb6p+0f, pio4f = 0x1.921fb6p-1f, tpio4f = 0x1.2d97c8p+1f;
    EXPECT_TRUE(SameF(mcore_atan2f(0.0f, -0.0f), pif));
    EXPECT_TRUE(SameF(mcore_atan2f(-0.0f, -0.0f), -pif));
    EXPECT_TRUE(SameF(mcore_atan2f(-0.0f, 0.0f), -0.0f));
    EXPECT_TRUE(SameF(mcore_atan2f(0.0f, 0.0f), 0.0f));
    EXPECT_TRUE(SameF(mcore_atan2f(-2.0f, -0.0f), -pio2f));
    EXPECT_TRUE(SameF(mcore_atan2f(kInfF, -kInfF), tpio4f));
    EXPECT_TRUE(SameF(mcore_atan2f(-kInfF, kInfF), -pio4f));
    EXPECT_TRUE(SameF(mcore_atan2f(1.0f, -kInfF), pif));
    EXPECT_TRUE(SameF(mcore_atan2f(-1.0f, kInfF), -0.0f));
    EXPECT_TRUE(SameF(mcore_atan2f(kNaNF, 0.0f), kNaNF));
    EXPECT_TRUE(SameF(mcore_acosf(1.0f), 0.0f));
    EXPECT_TRUE(SameF(mcore_acosf(-1.0f), pif));
    EXPECT_TRUE(SameF(mcore_acosf(-0.0f), pio2f));
    EXPECT_TRUE(SameF(mcore_acosf(1.0000001f), kNaNF));
    EXPECT_TRUE(SameF(mcore_acosf(kNaNF), kNaNF));
    EXPECT_TRUE(SameF(mcore_asinf(-0.0f), -0.0f));
    EXPECT_TRUE(SameF(mcore_atanf(-kInfF), -pio2f));
}

TEST(DetMath, ExpLogSpecials) {
    EXPECT_TRUE(Same(mcore_exp(0.0), 1.0));
    EXPECT_TRUE(Same(mcore_exp(-0.0), 1.0));
    EXPECT_TRUE(Same(mcore_exp(-kInf), 0.0));
    EXPECT_TRUE(Same(mcore_exp(kInf), kInf));
    EXPECT_TRUE(Same(mcore_exp(1000.0), kInf));
    EXPECT_TRUE(Same(mcore_exp(-1000.0), 0.0));
    EXPECT_TRUE(Same(mcore_exp(-745.0), 4.9406564584124654e-324));
    EXPECT_TRUE(Same(mcore_exp(kNaN), kNaN));
    EXPECT_TRUE(Same(mcore_exp(1.0), 0x1.5bf0a8b145769p+1));
    for (int n = -1074; n <= 1023; n++) EXPECT_TRUE(Same(mcore_exp2((double)n), std::ldexp(1.0, n))) << n;
    EXPECT_TRUE(Same(mcore_exp2(1024.0), kInf));
    EXPECT_TRUE(Same(mcore_expm1(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_expm1(0.0), 0.0));
    EXPECT_TRUE(Same(mcore_expm1(-kInf), -1.0));
    EXPECT_TRUE(Same(mcore_expm1(kInf), kInf));
    EXPECT_TRUE(Same(mcore_log(1.0), 0.0));
    EXPECT_TRUE(Same(mcore_log(0.0), -kInf));
    EXPECT_TRUE(Same(mcore_log(-0.0), -kInf));
    EXPECT_TRUE(Same(mcore_log(-1.0), kNaN));
    EXPECT_TRUE(Same(mcore_log(kInf), kInf));
    EXPECT_TRUE(Same(mcore_log(4.9406564584124654e-324), -0x1.74385446d71c3p+9));
    for (int n = -1074; n <= 1023; n++) EXPECT_TRUE(Same(mcore_log2(std::ldexp(1.0, n)), (double)n)) << n;
    EXPECT_TRUE(Same(mcore_log1p(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_log1p(-1.0), -kInf));
    EXPECT_TRUE(Same(mcore_log1p(-2.0), kNaN));
    EXPECT_TRUE(SameF(mcore_expf(0.0f), 1.0f));
    EXPECT_TRUE(SameF(mcore_expf(89.0f), kInfF));
    EXPECT_TRUE(SameF(mcore_expf(-104.0f), 0.0f));
    EXPECT_TRUE(SameF(mcore_logf(1.0f), 0.0f));
    EXPECT_TRUE(SameF(mcore_log2f(0x1p-149f), -149.0f));
    EXPECT_TRUE(SameF(mcore_expm1f(-0.0f), -0.0f));
    EXPECT_TRUE(SameF(mcore_log1pf(-0.0f), -0.0f));
}

TEST(DetMath, PowSpecials) {
    // C99 F.9.4.4
    for (double x : {0.0, -0.0, 1.0, -1.0, 2.5, -7.0, kInf, -kInf, kNaN}) {
        EXPECT_TRUE(Same(mcore_pow(x, 0.0), 1.0));
        EXPECT_TRUE(Same(mcore_pow(x, -0.0), 1.0));
    }
    for (double y : {0.0, 3.0, -3.0, 0.5, kInf, -kInf, kNaN}) EXPECT_TRUE(Same(mcore_pow(1.0, y), 1.0));
    EXPECT_TRUE(Same(mcore_pow(0.0, -3.0), kInf));
    EXPECT_TRUE(Same(mcore_pow(-0.0, -3.0), -kInf));
    EXPECT_TRUE(Same(mcore_pow(-0.0, -2.0), kInf));
    EXPECT_TRUE(Same(mcore_pow(-0.0, -0.5), kInf));
    EXPECT_TRUE(Same(mcore_pow(-0.0, -kInf), kInf));
    EXPECT_TRUE(Same(mcore_pow(-0.0, 3.0), -0.0));
    EXPECT_TRUE(Same(mcore_pow(0.0, 3.0), 0.0));
    EXPECT_TRUE(Same(mcore_pow(-0.0, 2.0), 0.0));
    EXPECT_TRUE(Same(mcore_pow(-0.0, 0.5), 0.0));
    EXPECT_TRUE(Same(mcore_pow(-1.0, kInf), 1.0));
    EXPECT_TRUE(Same(mcore_pow(-1.0, -kInf), 1.0));
    EXPECT_TRUE(Same(mcore_pow(0.5, -kInf), kInf));
    EXPECT_TRUE(Same(mcore_pow(-2.0, -kInf), 0.0));
    EXPECT_TRUE(Same(mcore_pow(-0.5, kInf), 0.0));
    EXPECT_TRUE(Same(mcore_pow(2.0, kInf), kInf));
    EXPECT_TRUE(Same(mcore_pow(-kInf, -3.0), -0.0));
    EXPECT_TRUE(Same(mcore_pow(-kInf, -2.0), 0.0));
    EXPECT_TRUE(Same(mcore_pow(-kInf, 3.0), -kInf));
    EXPECT_TRUE(Same(mcore_pow(-kInf, 2.5), kInf));
    EXPECT_TRUE(Same(mcore_pow(kInf, -0.5), 0.0));
    EXPECT_TRUE(Same(mcore_pow(kInf, 0.5), kInf));
    EXPECT_TRUE(Same(mcore_pow(-2.0, 0.5), kNaN));
    EXPECT_TRUE(Same(mcore_pow(kNaN, 1.0), kNaN));
    EXPECT_TRUE(Same(mcore_pow(2.0, kNaN), kNaN));
    // Exact results.
    EXPECT_TRUE(Same(mcore_pow(2.0, 10.0), 1024.0));
    EXPECT_TRUE(Same(mcore_pow(-3.0, 3.0), -27.0));
    EXPECT_TRUE(Same(mcore_pow(4.0, 0.5), 2.0));
    EXPECT_TRUE(Same(mcore_pow(2.0, -1074.0), 4.9406564584124654e-324));
    EXPECT_TRUE(Same(mcore_pow(10.0, 400.0), kInf));
    EXPECT_TRUE(Same(mcore_pow(-10.0, 401.0), -kInf));
    EXPECT_TRUE(SameF(mcore_powf(-0.0f, -1.0f), -kInfF));
    EXPECT_TRUE(SameF(mcore_powf(-1.0f, kInfF), 1.0f));
    EXPECT_TRUE(SameF(mcore_powf(kNaNF, 0.0f), 1.0f));
    EXPECT_TRUE(SameF(mcore_powf(3.0f, 4.0f), 81.0f));
}

TEST(DetMath, Powi) {
    EXPECT_TRUE(Same(mcore_powi(kNaN, 0), 1.0));
    EXPECT_TRUE(Same(mcore_powi(0.0, 0), 1.0));
    EXPECT_TRUE(Same(mcore_powi(-0.0, -3), -kInf));
    EXPECT_TRUE(Same(mcore_powi(-0.0, -2), kInf));
    EXPECT_TRUE(Same(mcore_powi(-0.0, 3), -0.0));
    EXPECT_TRUE(Same(mcore_powi(-kInf, 3), -kInf));
    EXPECT_TRUE(Same(mcore_powi(-kInf, -3), -0.0));
    EXPECT_TRUE(Same(mcore_powi(-2.0, 3), -8.0));
    EXPECT_TRUE(Same(mcore_powi(2.0, -1074), 4.9406564584124654e-324));
    EXPECT_TRUE(Same(mcore_powi(2.0, 1024), kInf));
    EXPECT_TRUE(Same(mcore_powi(-1.0, (int)(-2147483647 - 1)), 1.0));
    EXPECT_TRUE(Same(mcore_powi(10.0, 22), 1e22));
    EXPECT_TRUE(Same(mcore_powi(10.0, -5), 1e-5));  // one rounding: correctly rounded here
    EXPECT_TRUE(SameF(mcore_powif(kNaNF, 0), 1.0f));
    EXPECT_TRUE(SameF(mcore_powif(-0.0f, -1), -kInfF));
    EXPECT_TRUE(SameF(mcore_powif(-2.0f, 5), -32.0f));
    EXPECT_TRUE(SameF(mcore_powif(2.0f, -149), 0x1p-149f));
    // powif's documented order: right-to-left binary exponentiation in
    // binary64, then one rounding. Replay it here for x = 1.1f, n = 13
    // (bits 1101: acc = x; base = x^2; base = x^4, acc = x*x^4; base = x^8, acc = x^5*x^8).
    double b = (double)1.1f, acc = 1.0;
    acc = acc * b;
    b = b * b;
    b = b * b;
    acc = acc * b;
    b = b * b;
    acc = acc * b;
    EXPECT_TRUE(SameF(mcore_powif(1.1f, 13), (float)acc));
    EXPECT_TRUE(SameF(mcore_powif(1.1f, -13), (float)(1.0 / acc)));
}

TEST(DetMath, CbrtHypotFmodHyperbolic) {
    EXPECT_TRUE(Same(mcore_cbrt(-8.0), -2.0));
    EXPECT_TRUE(Same(mcore_cbrt(27.0), 3.0));
    EXPECT_TRUE(Same(mcore_cbrt(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_cbrt(-kInf), -kInf));
    EXPECT_TRUE(Same(mcore_cbrt(0x1p-1074), 0x1p-358));  // 1074 = 3 * 358
    for (int k = 1; k < 20000; k++) EXPECT_TRUE(Same(mcore_cbrt((double)k * k * k), (double)k)) << k;
    EXPECT_TRUE(SameF(mcore_cbrtf(-8.0f), -2.0f));
    EXPECT_TRUE(SameF(mcore_cbrtf(-0.0f), -0.0f));
    EXPECT_TRUE(Same(mcore_hypot(kInf, kNaN), kInf));
    EXPECT_TRUE(Same(mcore_hypot(kNaN, -kInf), kInf));
    EXPECT_TRUE(Same(mcore_hypot(kNaN, 1.0), kNaN));
    EXPECT_TRUE(Same(mcore_hypot(-3.0, 4.0), 5.0));
    EXPECT_TRUE(Same(mcore_hypot(-3.0, -0.0), 3.0));
    EXPECT_TRUE(Same(mcore_hypot(0x1p1023, 0x1p1023), 0x1.6a09e667f3bcdp+1023));
    EXPECT_TRUE(Same(mcore_hypot(3e-320, 4e-320), 5e-320));
    EXPECT_TRUE(SameF(mcore_hypotf(-kInfF, kNaNF), kInfF));
    EXPECT_TRUE(SameF(mcore_hypotf(3e38f, 3e38f), kInfF));
    // fmod: exact.
    EXPECT_TRUE(Same(mcore_fmod(5.5, 2.0), 1.5));
    EXPECT_TRUE(Same(mcore_fmod(-5.5, 2.0), -1.5));
    EXPECT_TRUE(Same(mcore_fmod(-4.0, 2.0), -0.0));
    EXPECT_TRUE(Same(mcore_fmod(-0.0, 2.0), -0.0));
    EXPECT_TRUE(Same(mcore_fmod(3.0, kInf), 3.0));
    EXPECT_TRUE(Same(mcore_fmod(3.0, 0.0), kNaN));
    EXPECT_TRUE(Same(mcore_fmod(kInf, 3.0), kNaN));
    EXPECT_TRUE(Same(mcore_fmod(1e308, 3.0), 2.0));
    EXPECT_TRUE(Same(mcore_fmod(0x1p1023, 0x1p-1074), 0.0));
    EXPECT_TRUE(Same(mcore_fmod(1.0, 0.1), 0x1.9999999999996p-4));
    EXPECT_TRUE(SameF(mcore_fmodf(-7.0f, 3.0f), -1.0f));
    EXPECT_TRUE(SameF(mcore_fmodf(1e38f, 7.0f), 2.0f));
    EXPECT_TRUE(Same(mcore_sinh(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_sinh(-kInf), -kInf));
    EXPECT_TRUE(Same(mcore_sinh(711.0), kInf));
    EXPECT_TRUE(Same(mcore_cosh(-0.0), 1.0));
    EXPECT_TRUE(Same(mcore_cosh(-kInf), kInf));
    EXPECT_TRUE(Same(mcore_tanh(-0.0), -0.0));
    EXPECT_TRUE(Same(mcore_tanh(-kInf), -1.0));
    EXPECT_TRUE(Same(mcore_tanh(kNaN), kNaN));
    EXPECT_TRUE(SameF(mcore_tanhf(-0.0f), -0.0f));
    EXPECT_TRUE(SameF(mcore_coshf(90.0f), kInfF));
}

TEST(DetMath, RemPiO2) {
    double hi, lo;
    EXPECT_EQ(mcore_remPiO2(0.5, &hi, &lo), 0);
    EXPECT_TRUE(Same(hi, 0.5));
    EXPECT_EQ(mcore_remPiO2(3.0, &hi, &lo), 2);  // 3 - pi
    EXPECT_NEAR(hi, 3.0 - 3.141592653589793, 1e-15);
    EXPECT_EQ(mcore_remPiO2(-3.0, &hi, &lo), 2);
    EXPECT_EQ(mcore_remPiO2(0x1p30, &hi, &lo) & 3, mcore_remPiO2(0x1p30, &hi, &lo));
    double r;
    EXPECT_EQ(mcore_remPiO2f(1.6f, &r), 1);
    EXPECT_NEAR(r, (double)1.6f - 1.5707963267948966, 1e-15);
}

// Hashes of the output bits over seeded sweeps. The values are what the
// host (x86-64) computes; every platform must reproduce them bit for bit.
struct Sweep {
    uint64_t seed;
    double scale;
};

template <typename F>
uint64_t HashD(F f, uint64_t seed, int n) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mcore_Hasher h;
    mcore_HasherInit(&h, 7, 0);
    for (int i = 0; i < n; i++) {
        uint64_t b = mcore_RngNext(&rng);
        double x;
        if (i & 1) {
            std::memcpy(&x, &b, 8);  // any bit pattern
        } else {
            x = (mcore_RngDouble01(&rng) - 0.5) * std::ldexp(1.0, (int)(b % 24) - 4);
        }
        double y = f(x);
        mcore_HasherAdd(&h, &y, 8);
    }
    return mcore_HasherFinish(&h);
}
template <typename F>
uint64_t HashF(F f, uint64_t seed, int n) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mcore_Hasher h;
    mcore_HasherInit(&h, 7, 0);
    for (int i = 0; i < n; i++) {
        float x = (i & 1) ? mcore_RngFloatBits(&rng) : mcore_RngFloatRange(&rng, -300.0f, 300.0f);
        float y = f(x);
        mcore_HasherAdd(&h, &y, 4);
    }
    return mcore_HasherFinish(&h);
}

TEST(DetMath, SameBitsEverywhere) {
    const int n = 4000;
    uint64_t got[] = {
        HashD(mcore_sin, 1, n),
        HashD(mcore_cos, 2, n),
        HashD(mcore_tan, 3, n),
        HashD(mcore_asin, 4, n),
        HashD(mcore_acos, 5, n),
        HashD(mcore_atan, 6, n),
        HashD([](double x) { return mcore_atan2(x, 0.75 - x); }, 7, n),
        HashD(mcore_exp, 8, n),
        HashD(mcore_exp2, 9, n),
        HashD(mcore_expm1, 10, n),
        HashD(mcore_log, 11, n),
        HashD(mcore_log2, 12, n),
        HashD(mcore_log1p, 13, n),
        HashD([](double x) { return mcore_pow(std::fabs(x), 1.0 / (x + 0.3)); }, 14, n),
        HashD([](double x) { return mcore_powi(x, 7); }, 15, n),
        HashD(mcore_cbrt, 16, n),
        HashD(mcore_sinh, 17, n),
        HashD(mcore_cosh, 18, n),
        HashD(mcore_tanh, 19, n),
        HashD([](double x) { return mcore_hypot(x, x * 0.37); }, 20, n),
        HashD([](double x) { return mcore_fmod(x, 0.3); }, 21, n),
        HashF(mcore_sinf, 31, n),
        HashF(mcore_cosf, 32, n),
        HashF(mcore_tanf, 33, n),
        HashF(mcore_asinf, 34, n),
        HashF(mcore_acosf, 35, n),
        HashF(mcore_atanf, 36, n),
        HashF([](float x) { return mcore_atan2f(x, 0.75f - x); }, 37, n),
        HashF(mcore_expf, 38, n),
        HashF(mcore_exp2f, 39, n),
        HashF(mcore_expm1f, 40, n),
        HashF(mcore_logf, 41, n),
        HashF(mcore_log2f, 42, n),
        HashF(mcore_log1pf, 43, n),
        HashF([](float x) { return mcore_powf(std::fabs(x), 1.0f / (x + 0.3f)); }, 44, n),
        HashF([](float x) { return mcore_powif(x, -5); }, 45, n),
        HashF(mcore_cbrtf, 46, n),
        HashF(mcore_sinhf, 47, n),
        HashF(mcore_coshf, 48, n),
        HashF(mcore_tanhf, 49, n),
        HashF([](float x) { return mcore_hypotf(x, x * 0.37f); }, 50, n),
        HashF([](float x) { return mcore_fmodf(x, 0.3f); }, 51, n),
    };
    const uint64_t want[] = {
#include "lib/core/test/detmath_hashes.inc"
    };
    ASSERT_EQ(sizeof(got) / sizeof(got[0]), sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < sizeof(got) / sizeof(got[0]); i++) {
        EXPECT_EQ(got[i], want[i]) << "sweep " << i;
        if (got[i] != want[i]) std::printf("UINT64_C(0x%016llx),\n", (unsigned long long)got[i]);
    }
}

}  // namespace
