// Tests of sample.h: tables and linear() fits, every refusal, both sides of each bound.
#include <cfloat>
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "maul/tween/sample.h"

namespace {

double InfHost(void*, double p) { return p > 0.5 ? INFINITY : -INFINITY; }
double NaNHost(void*, double) { return NAN; }
double JumpHost(void*, double p) { return p < 1.0 / 3.0 ? 0.0 : 1.0; }

TEST(Sample, Table)
{
    mtwnEasing e = mtwnMakeLinearEasing();
    float v[5];
    ASSERT_EQ(mtwnSampleEasingTable(&e, 5, v), mtwn_success);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], i / 4.0f);
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2, &e), mtwn_success);
    ASSERT_EQ(mtwnSampleEasingTable(&e, 2, v), mtwn_success);
    EXPECT_EQ(v[0], 0.0f);
    EXPECT_EQ(v[1], 1.0f);
    ASSERT_EQ(mtwnSampleEasingTable(&e, 5, v), mtwn_success);
    EXPECT_EQ(v[2], 0.25f);
    EXPECT_EQ(v[1], 0.0625f);
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, InfHost, nullptr, &e), mtwn_success);
    ASSERT_EQ(mtwnSampleEasingTable(&e, 5, v), mtwn_success);
    EXPECT_EQ(v[0], -FLT_MAX);
    EXPECT_EQ(v[4], FLT_MAX);
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, NaNHost, nullptr, &e), mtwn_success);
    ASSERT_EQ(mtwnSampleEasingTable(&e, 5, v), mtwn_success);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], i / 4.0f);
    std::vector<mtwnLinearPoint> pts = {{0, 0}, {1, 1e300}};
    ASSERT_EQ(mtwnMakeLinearPointsEasing(pts.data(), 2, &e), mtwn_success);
    ASSERT_EQ(mtwnSampleEasingTable(&e, 5, v), mtwn_success);
    EXPECT_EQ(v[4], FLT_MAX);
    EXPECT_EQ(mtwnSampleEasingTable(&e, 1, v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasingTable(&e, 0, v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasingTable(nullptr, 5, v), mtwn_errorInvalid);
    EXPECT_EQ(mtwnSampleEasingTable(&e, 5, nullptr), mtwn_errorInvalid);
    e.cookie = 0;
    EXPECT_EQ(mtwnSampleEasingTable(&e, 5, v), mtwn_errorInvalid);
}

// The fit's promise, checked independently: points on the curve, first at 0 and last at 1,
// inputs increasing, and the interpolation within the tolerance at the 32 probes of each segment.
void ExpectFit(const mtwnEasing& e, double tol, const std::vector<mtwnLinearPoint>& p, uint32_t n)
{
    ASSERT_GE(n, 2u);
    EXPECT_EQ(p[0].input, 0.0);
    EXPECT_EQ(p[n - 1].input, 1.0);
    for (uint32_t i = 0; i < n; ++i) {
        double y;
        ASSERT_EQ(mtwnSampleEasing(&e, p[i].input, false, &y), mtwn_success);
        EXPECT_EQ(p[i].output, y);
        if (i == 0) continue;
        double a = p[i - 1].input, b = p[i].input;
        ASSERT_LT(a, b);
        if (b - a < 0x1p-24) continue;
        for (int j = 1; j <= 32; ++j) {
            double x = a + (b - a) * (j / 33.0);
            double line = p[i - 1].output + (p[i].output - p[i - 1].output) * ((x - a) / (b - a));
            ASSERT_EQ(mtwnSampleEasing(&e, x, false, &y), mtwn_success);
            EXPECT_LE(std::fabs(y - line), tol) << x;
        }
    }
}

TEST(Sample, Fit)
{
    std::vector<mtwnLinearPoint> p(70000);
    uint32_t n = 0;
    mtwnEasing e = mtwnMakeLinearEasing();
    ASSERT_EQ(mtwnFitLinearEasing(&e, 1e-6, p.data(), 70000, &n), mtwn_success);
    EXPECT_EQ(n, 2u);
    ExpectFit(e, 1e-6, p, n);
    for (double tol : {1e-2, 1e-4, 1e-6}) {
        ASSERT_EQ(mtwnMakeCssEasing(mtwn_cssEaseInOut, &e), mtwn_success);
        ASSERT_EQ(mtwnFitLinearEasing(&e, tol, p.data(), 70000, &n), mtwn_success);
        ExpectFit(e, tol, p, n);
        ASSERT_EQ(mtwnMakeElasticEasing(mtwn_easeOut, 1, 0.3, &e), mtwn_success);
        ASSERT_EQ(mtwnFitLinearEasing(&e, tol, p.data(), 70000, &n), mtwn_success);
        ExpectFit(e, tol, p, n);
    }
    // A host's jump: kept within 2^-24 of it.
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, JumpHost, nullptr, &e), mtwn_success);
    ASSERT_EQ(mtwnFitLinearEasing(&e, 1e-3, p.data(), 70000, &n), mtwn_success);
    ExpectFit(e, 1e-3, p, n);
    EXPECT_GT(n, 20u);
}

TEST(Sample, FitCapacityLimitAndRefusals)
{
    mtwnEasing e;
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2, &e), mtwn_success);
    uint32_t need = 0, n = 0;
    ASSERT_EQ(mtwnFitLinearEasing(&e, 1e-4, nullptr, 0, &need), mtwn_errorCapacity);
    ASSERT_GT(need, 2u);
    std::vector<mtwnLinearPoint> p(need, mtwnLinearPoint{7, 7});
    EXPECT_EQ(mtwnFitLinearEasing(&e, 1e-4, p.data(), need - 1, &n), mtwn_errorCapacity);
    EXPECT_EQ(n, need);
    EXPECT_EQ(p[0].input, 7.0);  // nothing written
    EXPECT_EQ(mtwnFitLinearEasing(&e, 1e-4, p.data(), need, &n), mtwn_success);
    EXPECT_EQ(n, need);
    // Past MTWN_MAX_FIT_POINTS: the limit, countOut 0.
    std::vector<mtwnLinearPoint> big(MTWN_MAX_FIT_POINTS + 10);
    ASSERT_EQ(mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeIn, &e), mtwn_success);
    n = 5;
    EXPECT_EQ(mtwnFitLinearEasing(&e, 1e-300, big.data(), MTWN_MAX_FIT_POINTS + 10, &n), mtwn_errorLimit);
    EXPECT_EQ(n, 0u);
    // Refusals.
    EXPECT_EQ(mtwnFitLinearEasing(nullptr, 1e-3, p.data(), need, &n), mtwn_errorInvalid);
    EXPECT_EQ(mtwnFitLinearEasing(&e, 1e-3, p.data(), need, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnFitLinearEasing(&e, 1e-3, nullptr, 1, &n), mtwn_errorInvalid);
    EXPECT_EQ(mtwnFitLinearEasing(&e, 0.0, p.data(), need, &n), mtwn_errorInvalid);
    EXPECT_EQ(mtwnFitLinearEasing(&e, -1e-3, p.data(), need, &n), mtwn_errorInvalid);
    EXPECT_EQ(mtwnFitLinearEasing(&e, INFINITY, p.data(), need, &n), mtwn_errorInvalid);
    EXPECT_EQ(mtwnFitLinearEasing(&e, NAN, p.data(), need, &n), mtwn_errorInvalid);
    EXPECT_EQ(mtwnFitLinearEasing(&e, DBL_MAX, p.data(), need, &n), mtwn_success);
    EXPECT_EQ(n, 2u);
    ASSERT_EQ(mtwnMakeStepsEasing(3, mtwn_stepEnd, &e), mtwn_success);
    EXPECT_EQ(mtwnFitLinearEasing(&e, 1e-3, p.data(), need, &n), mtwn_errorInvalid);
    ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, InfHost, nullptr, &e), mtwn_success);
    EXPECT_EQ(mtwnFitLinearEasing(&e, 1e-3, p.data(), need, &n), mtwn_errorInvalid);
    e.cookie = 0;
    EXPECT_EQ(mtwnFitLinearEasing(&e, 1e-3, p.data(), need, &n), mtwn_errorInvalid);
}

}  // namespace
