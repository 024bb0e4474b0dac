// Tests of timing.h: Web Animations' timing model at its boundaries (phases,
// fill modes, zero and infinite durations, iteration start, directions,
// negative rates), the repeat delay, the reverse easing, and staggers.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "maul/tween/timing.h"

namespace {

mtwnTimingResult At(const mtwnTiming& t, double local, bool backwards = false)
{
    mtwnTimingResult r;
    std::memset(&r, 0xAB, sizeof r);
    EXPECT_EQ(mtwnComputeTiming(&t, local, backwards, &r), mtwn_success) << local;
    return r;
}

mtwnTiming Basic(double delay, double duration, double iterations, mtwnFillMode fill)
{
    mtwnTiming t = mtwnDefaultTiming();
    t.delay = delay;
    t.duration = duration;
    t.iterations = iterations;
    t.fill = fill;
    return t;
}

TEST(Timing, Default)
{
    mtwnTiming t = mtwnDefaultTiming();
    EXPECT_EQ(t.delay, 0.0);
    EXPECT_EQ(t.endDelay, 0.0);
    EXPECT_EQ(t.fill, (uint32_t)mtwn_fillNone);
    EXPECT_EQ(t.iterationStart, 0.0);
    EXPECT_EQ(t.iterations, 1.0);
    EXPECT_EQ(t.duration, 0.0);
    EXPECT_EQ(t.direction, (uint32_t)mtwn_directionNormal);
    EXPECT_EQ(t.easing.kind, (uint32_t)mtwn_easingLinear);
    EXPECT_EQ(t.repeatDelay, 0.0);
    EXPECT_EQ(t.reverseEasing, (uint32_t)mtwn_reverseTimeBack);
    EXPECT_EQ(t.playbackRate, 1.0);
    EXPECT_EQ(mtwnValidateTiming(&t), mtwn_success);
}

TEST(Timing, ValidateBoundaries)
{
    auto ok = [](mtwnTiming t) { return mtwnValidateTiming(&t) == mtwn_success; };
    mtwnTiming t = Basic(0, 1, 1, mtwn_fillNone);
    EXPECT_EQ(mtwnValidateTiming(nullptr), mtwn_errorInvalid);
    mtwnTiming u = t;
    u.delay = -5; EXPECT_TRUE(ok(u));
    u.delay = INFINITY; EXPECT_FALSE(ok(u));
    u.delay = NAN; EXPECT_FALSE(ok(u));
    u = t; u.endDelay = -5; EXPECT_TRUE(ok(u));
    u.endDelay = -INFINITY; EXPECT_FALSE(ok(u));
    u = t; u.iterationStart = 0; EXPECT_TRUE(ok(u));
    u.iterationStart = -DBL_TRUE_MIN; EXPECT_FALSE(ok(u));
    u.iterationStart = INFINITY; EXPECT_FALSE(ok(u));
    u = t; u.iterations = 0; EXPECT_TRUE(ok(u));
    u.iterations = -DBL_TRUE_MIN; EXPECT_FALSE(ok(u));
    u.iterations = INFINITY; EXPECT_TRUE(ok(u));
    u.iterations = NAN; EXPECT_FALSE(ok(u));
    u = t; u.duration = 0; EXPECT_TRUE(ok(u));
    u.duration = -DBL_TRUE_MIN; EXPECT_FALSE(ok(u));
    u.duration = INFINITY; EXPECT_TRUE(ok(u));
    u.duration = NAN; EXPECT_FALSE(ok(u));
    u = t; u.repeatDelay = 0; EXPECT_TRUE(ok(u));
    u.repeatDelay = -DBL_TRUE_MIN; EXPECT_FALSE(ok(u));
    u.repeatDelay = INFINITY; EXPECT_FALSE(ok(u));
    u = t; u.playbackRate = 1e-300; EXPECT_TRUE(ok(u));  // active duration 1e300
    u = t; u.playbackRate = DBL_TRUE_MIN; EXPECT_FALSE(ok(u));  // finite fields overflowing the active duration
    u = t; u.playbackRate = -1; EXPECT_TRUE(ok(u));
    u.playbackRate = 0; EXPECT_FALSE(ok(u));
    u.playbackRate = INFINITY; EXPECT_FALSE(ok(u));
    u = t; u.fill = 4; EXPECT_FALSE(ok(u));
    u = t; u.fill = 3; EXPECT_TRUE(ok(u));
    u = t; u.direction = 4; EXPECT_FALSE(ok(u));
    u = t; u.direction = 3; EXPECT_TRUE(ok(u));
    u = t; u.reverseEasing = 2; EXPECT_FALSE(ok(u));
    u = t; u.reverseEasing = 1; EXPECT_TRUE(ok(u));
    u = t; u.reserved = 1; EXPECT_FALSE(ok(u));
    u = t; u.easing.cookie = 0; EXPECT_FALSE(ok(u));
    // Infinite active duration: only from an infinite field, and only forwards.
    u = t; u.iterations = INFINITY; u.playbackRate = -1; EXPECT_FALSE(ok(u));
    u = t; u.duration = INFINITY; u.playbackRate = -1; EXPECT_FALSE(ok(u));
    u = t; u.duration = INFINITY; u.playbackRate = 0.5; EXPECT_TRUE(ok(u));
    u = t; u.iterations = INFINITY; u.duration = 0; u.playbackRate = -1; EXPECT_TRUE(ok(u));  // active duration 0
    // Finite fields overflowing a double.
    u = t; u.duration = 1e200; u.iterations = 1e200; EXPECT_FALSE(ok(u));
    u = t; u.duration = DBL_MAX; u.playbackRate = 0.5; EXPECT_FALSE(ok(u));
    u = t; u.duration = DBL_MAX; u.playbackRate = 1; EXPECT_TRUE(ok(u));
    u = t; u.duration = DBL_MAX; u.delay = DBL_MAX; EXPECT_FALSE(ok(u));  // the end time
    u = t; u.duration = DBL_MAX; u.delay = -DBL_MAX; EXPECT_TRUE(ok(u));
    // With a repeat delay, duration plus repeat delay finite.
    u = t; u.duration = INFINITY; u.repeatDelay = 1; EXPECT_FALSE(ok(u));
    u = t; u.duration = INFINITY; u.repeatDelay = 0; EXPECT_TRUE(ok(u));
    u = t; u.duration = DBL_MAX; u.repeatDelay = DBL_MAX; EXPECT_FALSE(ok(u));
}

TEST(Timing, PhasesAtTheBoundaries)
{
    mtwnTiming t = Basic(1, 2, 1, mtwn_fillBoth);
    EXPECT_EQ(At(t, 0.5).phase, (uint32_t)mtwn_phaseBefore);
    EXPECT_EQ(At(t, 1.0).phase, (uint32_t)mtwn_phaseActive);
    EXPECT_EQ(At(t, 1.0, true).phase, (uint32_t)mtwn_phaseBefore);  // playing backwards: the start is before
    EXPECT_EQ(At(t, 2.0).phase, (uint32_t)mtwn_phaseActive);
    EXPECT_EQ(At(t, 3.0).phase, (uint32_t)mtwn_phaseAfter);  // forwards: the end is after
    EXPECT_EQ(At(t, 3.0, true).phase, (uint32_t)mtwn_phaseActive);
    EXPECT_EQ(At(t, INFINITY).phase, (uint32_t)mtwn_phaseAfter);
    mtwnTimingResult r = At(t, 2.0);
    EXPECT_EQ(r.activeTime, 1.0);
    EXPECT_EQ(r.iterationProgress, 0.5);
    EXPECT_EQ(r.activeDuration, 2.0);
    EXPECT_EQ(r.endTime, 3.0);
    // A negative delay past the end: both boundaries clamp to the end time (0 here).
    mtwnTiming n = Basic(-5, 2, 1, mtwn_fillNone);
    EXPECT_EQ(At(n, 0.0).phase, (uint32_t)mtwn_phaseAfter);
    EXPECT_EQ(At(n, -1.0).phase, (uint32_t)mtwn_phaseBefore);
    // End delay cutting the active interval: active-after boundary at the end time.
    mtwnTiming c = Basic(0, 2, 1, mtwn_fillForwards);
    c.endDelay = -1;
    EXPECT_EQ(At(c, 0.99).phase, (uint32_t)mtwn_phaseActive);
    mtwnTimingResult rc = At(c, 1.0);
    EXPECT_EQ(rc.phase, (uint32_t)mtwn_phaseAfter);
    EXPECT_EQ(rc.iterationProgress, 0.5);
}

TEST(Timing, FillModes)
{
    for (mtwnFillMode f : {mtwn_fillNone, mtwn_fillForwards, mtwn_fillBackwards, mtwn_fillBoth}) {
        mtwnTiming t = Basic(1, 2, 1, f);
        mtwnTimingResult b = At(t, 0.0), a = At(t, 5.0), m = At(t, 2.0);
        bool back = f == mtwn_fillBackwards || f == mtwn_fillBoth;
        bool fwd = f == mtwn_fillForwards || f == mtwn_fillBoth;
        EXPECT_EQ(b.inEffect, back);
        EXPECT_EQ(a.inEffect, fwd);
        EXPECT_TRUE(m.inEffect);
        if (back) {
            EXPECT_EQ(b.activeTime, 0.0);
            EXPECT_EQ(b.iterationProgress, 0.0);
            EXPECT_EQ(b.transformedProgress, 0.0);
        } else {
            EXPECT_EQ(b.transformedProgress, 0.0);
            EXPECT_EQ(b.currentIteration, 0.0);
        }
        if (fwd) {
            EXPECT_EQ(a.activeTime, 2.0);
            EXPECT_EQ(a.iterationProgress, 1.0);  // the end of iteration 0, not the start of 1
            EXPECT_EQ(a.currentIteration, 0.0);
        }
    }
}

TEST(Timing, ZeroDuration)
{
    mtwnTiming t = Basic(1, 0, 3, mtwn_fillBoth);
    mtwnTimingResult b = At(t, 0.5), a = At(t, 1.0);
    EXPECT_EQ(b.phase, (uint32_t)mtwn_phaseBefore);
    EXPECT_EQ(b.overallProgress, 0.0);
    EXPECT_EQ(b.iterationProgress, 0.0);
    EXPECT_EQ(b.currentIteration, 0.0);
    EXPECT_EQ(a.phase, (uint32_t)mtwn_phaseAfter);
    EXPECT_EQ(a.overallProgress, 3.0);
    EXPECT_EQ(a.iterationProgress, 1.0);
    EXPECT_EQ(a.currentIteration, 2.0);
    // Zero iterations: progress 0 even after.
    mtwnTiming z = Basic(0, 1, 0, mtwn_fillBoth);
    mtwnTimingResult r = At(z, 0.0);
    EXPECT_EQ(r.phase, (uint32_t)mtwn_phaseAfter);
    EXPECT_EQ(r.iterationProgress, 0.0);
    EXPECT_EQ(r.currentIteration, 0.0);
    // Zero duration, infinite iterations: after is iteration infinity at the iteration start's fraction.
    mtwnTiming i = Basic(0, 0, INFINITY, mtwn_fillBoth);
    i.iterationStart = 0.25;
    mtwnTimingResult ri = At(i, 0.0);
    EXPECT_EQ(ri.currentIteration, INFINITY);
    EXPECT_EQ(ri.iterationProgress, 0.25);
    EXPECT_TRUE(ri.forwards);
}

TEST(Timing, InfiniteDurationAndIterations)
{
    mtwnTiming t = Basic(0, INFINITY, 1, mtwn_fillBoth);
    mtwnTimingResult r = At(t, 1e6);
    EXPECT_EQ(r.phase, (uint32_t)mtwn_phaseActive);
    EXPECT_EQ(r.iterationProgress, 0.0);
    EXPECT_EQ(r.activeDuration, INFINITY);
    mtwnTiming n = Basic(0, 1, INFINITY, mtwn_fillBoth);
    mtwnTimingResult a = At(n, 2.5);
    EXPECT_EQ(a.currentIteration, 2.0);
    EXPECT_EQ(a.iterationProgress, 0.5);
    mtwnTimingResult e = At(n, INFINITY);
    EXPECT_EQ(e.phase, (uint32_t)mtwn_phaseAfter);
    EXPECT_EQ(e.currentIteration, INFINITY);
    EXPECT_EQ(e.iterationProgress, 1.0);
}

TEST(Timing, IterationStart)
{
    mtwnTiming t = Basic(0, 1, 1, mtwn_fillBoth);
    t.iterationStart = 0.5;
    mtwnTimingResult a = At(t, 0.0), b = At(t, 0.5), c = At(t, 1.0), d = At(t, -1.0);
    EXPECT_EQ(a.iterationProgress, 0.5);
    EXPECT_EQ(a.currentIteration, 0.0);
    EXPECT_EQ(b.iterationProgress, 0.0);
    EXPECT_EQ(b.currentIteration, 1.0);
    EXPECT_EQ(c.iterationProgress, 0.5);  // after: overall 1.5
    EXPECT_EQ(c.currentIteration, 1.0);
    EXPECT_EQ(d.iterationProgress, 0.5);  // before, filled backwards
    // An integral end: 1.0 at the end.
    t.iterationStart = 1.0;
    mtwnTimingResult e = At(t, 1.0);
    EXPECT_EQ(e.iterationProgress, 1.0);
    EXPECT_EQ(e.currentIteration, 1.0);
}

TEST(Timing, Directions)
{
    mtwnTiming t = Basic(0, 1, 3, mtwn_fillForwards);
    t.direction = mtwn_directionReverse;
    EXPECT_EQ(At(t, 0.25).directedProgress, 0.75);
    EXPECT_FALSE(At(t, 0.25).forwards);
    t.direction = mtwn_directionAlternate;
    EXPECT_EQ(At(t, 0.25).directedProgress, 0.25);
    EXPECT_EQ(At(t, 1.25).directedProgress, 0.75);
    EXPECT_EQ(At(t, 2.25).directedProgress, 0.25);
    mtwnTimingResult end = At(t, 3.0);  // iteration 2 ends forwards
    EXPECT_EQ(end.currentIteration, 2.0);
    EXPECT_EQ(end.directedProgress, 1.0);
    t.direction = mtwn_directionAlternateReverse;
    EXPECT_EQ(At(t, 0.25).directedProgress, 0.75);
    EXPECT_EQ(At(t, 1.25).directedProgress, 0.25);
    EXPECT_EQ(At(t, 3.0).directedProgress, 0.0);
    // Alternate with an even count ends at 0.
    t.direction = mtwn_directionAlternate;
    t.iterations = 2;
    EXPECT_EQ(At(t, 2.0).directedProgress, 0.0);
}

TEST(Timing, PlaybackRates)
{
    mtwnTiming t = Basic(0, 1, 2, mtwn_fillBoth);
    t.playbackRate = 2;
    EXPECT_EQ(At(t, 0).activeDuration, 1.0);
    mtwnTimingResult r = At(t, 0.75);
    EXPECT_EQ(r.currentIteration, 1.0);
    EXPECT_EQ(r.iterationProgress, 0.5);
    t.playbackRate = -1;
    EXPECT_EQ(At(t, 0).activeDuration, 2.0);
    mtwnTimingResult a = At(t, 0.25);
    EXPECT_EQ(a.currentIteration, 1.0);
    EXPECT_EQ(a.iterationProgress, 0.75);
    mtwnTimingResult s = At(t, 0.0);  // the start of the active interval is the iterations' end
    EXPECT_EQ(s.currentIteration, 1.0);
    EXPECT_EQ(s.iterationProgress, 1.0);
    mtwnTimingResult e = At(t, 2.0);  // after: the iterations' start
    EXPECT_EQ(e.phase, (uint32_t)mtwn_phaseAfter);
    EXPECT_EQ(e.currentIteration, 0.0);
    EXPECT_EQ(e.iterationProgress, 0.0);
    EXPECT_TRUE(e.before);  // progress 0 reached from below
    mtwnTimingResult b = At(t, -1.0);
    EXPECT_EQ(b.iterationProgress, 1.0);
    EXPECT_FALSE(b.before);
    // Zero duration, negative rate: before shows the end.
    mtwnTiming z = Basic(1, 0, 2, mtwn_fillBoth);
    z.playbackRate = -1;
    EXPECT_EQ(At(z, 0.0).overallProgress, 2.0);
    EXPECT_EQ(At(z, 0.0).iterationProgress, 1.0);
    EXPECT_EQ(At(z, 2.0).overallProgress, 0.0);
}

TEST(Timing, RepeatDelay)
{
    mtwnTiming t = Basic(0, 1, 3, mtwn_fillForwards);
    t.repeatDelay = 0.5;
    EXPECT_EQ(At(t, 0).activeDuration, 4.0);
    mtwnTimingResult g = At(t, 1.25);
    EXPECT_TRUE(g.inRepeatDelay);
    EXPECT_EQ(g.currentIteration, 0.0);
    EXPECT_EQ(g.iterationProgress, 1.0);
    mtwnTimingResult a = At(t, 1.75);
    EXPECT_FALSE(a.inRepeatDelay);
    EXPECT_EQ(a.currentIteration, 1.0);
    EXPECT_EQ(a.iterationProgress, 0.25);
    mtwnTimingResult e = At(t, 4.0);
    EXPECT_EQ(e.currentIteration, 2.0);
    EXPECT_EQ(e.iterationProgress, 1.0);
    EXPECT_EQ(At(t, 3.5).iterationProgress, 0.5);
    // Fractional iterations: the delay follows only whole iterations another follows.
    t.iterations = 1.5;
    EXPECT_EQ(At(t, 0).activeDuration, 2.0);
    t.iterationStart = 0.5;
    t.iterations = 1.0;
    EXPECT_EQ(At(t, 0).activeDuration, 1.5);
    EXPECT_EQ(At(t, 0.75).iterationProgress, 1.0);
    EXPECT_EQ(At(t, 1.25).iterationProgress, 0.25);
}

TEST(Timing, EasingAndReverseEasing)
{
    mtwnTiming t = Basic(0, 1, 1, mtwn_fillBoth);
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2, &t.easing), mtwn_success);
    EXPECT_EQ(At(t, 0.5).transformedProgress, 0.25);
    t.direction = mtwn_directionReverse;
    EXPECT_EQ(At(t, 0.25).transformedProgress, 0.5625);  // f(1 - p), time running back
    t.reverseEasing = mtwn_reverseMirrored;
    EXPECT_EQ(At(t, 0.25).transformedProgress, 0.9375);  // 1 - f(p)
    // Steps and the before flag (Web Animations' example of step-start with a backwards fill).
    mtwnTiming s = Basic(1, 1, 1, mtwn_fillBoth);
    ASSERT_EQ(mtwnMakeCssEasing(mtwn_cssStepStart, &s.easing), mtwn_success);
    mtwnTimingResult b = At(s, 0.5);
    EXPECT_TRUE(b.before);
    EXPECT_EQ(b.transformedProgress, 0.0);
    mtwnTimingResult a = At(s, 1.0);
    EXPECT_FALSE(a.before);
    EXPECT_EQ(a.transformedProgress, 1.0);
    // Reverse direction: the before flag is set in the after phase.
    s.direction = mtwn_directionReverse;
    mtwnTimingResult r = At(s, 3.0);
    EXPECT_TRUE(r.before);
    EXPECT_EQ(r.directedProgress, 0.0);
    EXPECT_EQ(r.transformedProgress, 0.0);
}

TEST(Timing, ComputeRefusals)
{
    mtwnTiming t = Basic(0, 1, 1, mtwn_fillNone);
    mtwnTimingResult r;
    EXPECT_EQ(mtwnComputeTiming(nullptr, 0, false, &r), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeTiming(&t, 0, false, nullptr), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeTiming(&t, NAN, false, &r), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeTiming(&t, -INFINITY, false, &r), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeTiming(&t, -DBL_MAX, false, &r), mtwn_success);
    EXPECT_EQ(mtwnComputeTiming(&t, INFINITY, false, &r), mtwn_success);
    t.playbackRate = 0;
    EXPECT_EQ(mtwnComputeTiming(&t, 0, false, &r), mtwn_errorInvalid);
}

// ---- staggers ----

std::vector<double> Stagger(const mtwnStagger& s, uint32_t n)
{
    std::vector<double> v(n, -99);
    EXPECT_EQ(mtwnComputeStagger(&s, n, v.data()), mtwn_success);
    return v;
}

TEST(Stagger, DefaultsAndSpacing)
{
    mtwnStagger s = mtwnDefaultStagger();
    EXPECT_EQ(s.start, 0.0);
    EXPECT_EQ(s.spacing, 0.1);
    EXPECT_EQ(s.spacingKind, (uint32_t)mtwn_staggerEach);
    EXPECT_EQ(s.origin, (uint32_t)mtwn_staggerFirst);
    EXPECT_EQ(s.axis, (uint32_t)mtwn_staggerBoth);
    EXPECT_EQ(s.columns, 0u);
    auto v = Stagger(s, 5);
    for (int i = 0; i < 5; ++i) EXPECT_NEAR(v[i], 0.1 * i, 1e-16);
    s.spacingKind = mtwn_staggerAmount;
    s.spacing = 1.0;
    s.start = 2.0;
    v = Stagger(s, 5);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], 2.0 + i / 4.0);
    v = Stagger(s, 1);  // all distances equal: t = 0
    EXPECT_EQ(v[0], 2.0);
    EXPECT_EQ(mtwnComputeStagger(&s, 0, nullptr), mtwn_success);
}

TEST(Stagger, Origins)
{
    mtwnStagger s = mtwnDefaultStagger();
    s.spacingKind = mtwn_staggerAmount;
    s.spacing = 1.0;
    s.origin = mtwn_staggerCenter;
    auto v = Stagger(s, 5);
    const double center[] = {1, 0.5, 0, 0.5, 1};
    for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], center[i]);
    s.origin = mtwn_staggerLast;
    v = Stagger(s, 5);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], (4 - i) / 4.0);
    s.origin = mtwn_staggerEdges;
    v = Stagger(s, 5);
    const double edges[] = {0, 0.5, 1, 0.5, 0};
    for (int i = 0; i < 5; ++i) EXPECT_EQ(v[i], edges[i]);
    s.origin = mtwn_staggerIndex;
    s.originIndex = 1;
    v = Stagger(s, 5);
    const double idx[] = {1.0 / 3, 0, 1.0 / 3, 2.0 / 3, 1};
    for (int i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(v[i], idx[i]);
    s.originIndex = 4;
    EXPECT_EQ(Stagger(s, 5)[4], 0.0);
    s.originIndex = 5;
    std::vector<double> w(5, -99);
    EXPECT_EQ(mtwnComputeStagger(&s, 5, w.data()), mtwn_errorInvalid);
    EXPECT_EQ(w[0], -99.0);
    EXPECT_EQ(mtwnComputeStagger(&s, 0, nullptr), mtwn_success);  // no count: any index
}

TEST(Stagger, GridAxesAndDistances)
{
    mtwnStagger s = mtwnDefaultStagger();
    s.columns = 3;
    s.origin = mtwn_staggerCenter;
    s.spacing = 1.0;  // each: the span is max - min = sqrt(2)
    auto v = Stagger(s, 9);
    EXPECT_EQ(v[4], 0.0);
    EXPECT_EQ(v[1], 1.0);
    EXPECT_EQ(v[0], std::sqrt(2.0));
    s.axis = mtwn_staggerX;
    v = Stagger(s, 9);
    const double x[] = {1, 0, 1, 1, 0, 1, 1, 0, 1};
    for (int i = 0; i < 9; ++i) EXPECT_EQ(v[i], x[i]);
    s.axis = mtwn_staggerY;
    v = Stagger(s, 9);
    const double y[] = {1, 1, 1, 0, 0, 0, 1, 1, 1};
    for (int i = 0; i < 9; ++i) EXPECT_EQ(v[i], y[i]);
    s.axis = mtwn_staggerBoth;
    s.origin = mtwn_staggerEdges;  // a 4 x 4 grid: the inner four are 1 from the edges
    s.columns = 4;
    v = Stagger(s, 16);
    for (int i = 0; i < 16; ++i) {
        int c = i % 4, r = i / 4;
        bool inner = c > 0 && c < 3 && r > 0 && r < 3;
        EXPECT_EQ(v[i], inner ? 1.0 : 0.0);
    }
    // A partial last row: rows = ceil(count / columns).
    s.origin = mtwn_staggerFirst;
    s.columns = 2;
    v = Stagger(s, 3);
    EXPECT_EQ(v[2], 1.0);
    EXPECT_EQ(v[1], 1.0);
    // Columns above the count: one row.
    s.columns = 10;
    v = Stagger(s, 3);
    EXPECT_EQ(v[2], 2.0);
}

TEST(Stagger, NegativeSpanAndEase)
{
    mtwnStagger s = mtwnDefaultStagger();
    s.spacingKind = mtwn_staggerAmount;
    s.spacing = -1.0;
    s.start = 1.0;
    ASSERT_EQ(mtwnMakePowerEasing(mtwn_easeIn, 2, &s.ease), mtwn_success);
    auto v = Stagger(s, 3);
    // start - span * ease(1 - t): t = 0, 1/2, 1.
    EXPECT_EQ(v[0], 2.0);
    EXPECT_EQ(v[1], 1.25);
    EXPECT_EQ(v[2], 1.0);
    s.spacing = 1.0;
    v = Stagger(s, 3);
    EXPECT_EQ(v[0], 1.0);
    EXPECT_EQ(v[1], 1.25);
    EXPECT_EQ(v[2], 2.0);
}

double InfEase(void*, double p) { return p > 0.9 ? INFINITY : p; }

TEST(Stagger, Refusals)
{
    mtwnStagger s = mtwnDefaultStagger();
    std::vector<double> v(5, -99);
    auto refused = [&](const mtwnStagger& t, uint32_t n) {
        if (v.size() < n) v.resize(n, -99);
        bool r = mtwnComputeStagger(&t, n, v.data()) == mtwn_errorInvalid;
        EXPECT_EQ(v[0], -99.0);
        return r;
    };
    EXPECT_EQ(mtwnComputeStagger(nullptr, 0, v.data()), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeStagger(&s, 5, nullptr), mtwn_errorInvalid);
    mtwnStagger t = s; t.origin = 5; EXPECT_TRUE(refused(t, 5));
    t = s; t.axis = 3; EXPECT_TRUE(refused(t, 5));
    t = s; t.spacingKind = 2; EXPECT_TRUE(refused(t, 5));
    t = s; t.reserved = 1; EXPECT_TRUE(refused(t, 5));
    t = s; t.start = INFINITY; EXPECT_TRUE(refused(t, 5));
    t = s; t.spacing = NAN; EXPECT_TRUE(refused(t, 5));
    t = s; t.ease.cookie = 0; EXPECT_TRUE(refused(t, 5));
    t = s; t.spacing = 1e308; EXPECT_TRUE(refused(t, 5));  // each: 1e308 x 4 overflows
    t.spacingKind = mtwn_staggerAmount;
    EXPECT_EQ(mtwnComputeStagger(&t, 5, v.data()), mtwn_success);
    v.assign(5, -99);
    t = s; t.spacingKind = mtwn_staggerAmount; t.spacing = DBL_MAX; t.start = DBL_MAX; EXPECT_TRUE(refused(t, 5));
    v.assign(5, -99);
    t = s; ASSERT_EQ(mtwnMakeHostEasing(mtwn_easeIn, InfEase, nullptr, &t.ease), mtwn_success);
    EXPECT_TRUE(refused(t, 5));
    // A point beyond 2^20: a row of 2^20 + 2 items has a column 2^20 + 1.
    std::vector<double> big((1u << 20) + 2, -99);
    t = s;
    EXPECT_EQ(mtwnComputeStagger(&t, (1u << 20) + 1, big.data()), mtwn_success);
    big[0] = -99;
    EXPECT_EQ(mtwnComputeStagger(&t, (1u << 20) + 2, big.data()), mtwn_errorInvalid);
    EXPECT_EQ(big[0], -99.0);
    t.columns = 1;  // rows instead
    EXPECT_EQ(mtwnComputeStagger(&t, (1u << 20) + 2, big.data()), mtwn_errorInvalid);
    EXPECT_EQ(mtwnComputeStagger(&t, (1u << 20) + 1, big.data()), mtwn_success);
}

}  // namespace
