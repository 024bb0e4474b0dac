/* Maul Tween: Web Animations timing (timing.h); steps in docs/internals/timing.md. */
#include <math.h>
#include <string.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/easing/easing_internal.h"
#include "lib/tween/src/timing/timing_internal.h"
#include "maul/tween/timing.h"

MTWN_API mtwnTiming mtwnDefaultTiming(void)
{
    mtwnTiming t;
    memset(&t, 0, sizeof t);
    t.iterations = 1.0;
    t.playbackRate = 1.0;
    t.fill = (uint32_t)mtwn_fillNone;
    t.direction = (uint32_t)mtwn_directionNormal;
    t.reverseEasing = (uint32_t)mtwn_reverseTimeBack;
    t.easing = mtwnMakeLinearEasing();
    return t;
}

/* The integers strictly inside (is, is + n): the iteration boundaries a repeat delay follows. */
static double gapCount(double is, double n)
{
    double g = ceil(is + n) - floor(is) - 1.0;
    return g > 0.0 ? g : 0.0;
}

double mtwn_ActiveDuration(const mtwnTiming* t)
{
    double d = t->duration, n = t->iterations, rate = fabs(t->playbackRate);
    if (d == 0.0 || n == 0.0) return 0.0;
    if (isinf(d) || isinf(n)) return INFINITY;
    double length = d * n;
    if (t->repeatDelay > 0.0) length = length + t->repeatDelay * gapCount(t->iterationStart, n);
    return length / rate;
}

MTWN_API mtwnResult mtwnValidateTiming(const mtwnTiming* t)
{
    if (t == NULL) return mtwn_errorInvalid;
    if (!isfinite(t->delay) || !isfinite(t->endDelay)) return mtwn_errorInvalid;
    if (!(isfinite(t->iterationStart) && t->iterationStart >= 0.0)) return mtwn_errorInvalid;
    if (!(t->iterations >= 0.0) || !(t->duration >= 0.0)) return mtwn_errorInvalid;
    if (!(isfinite(t->repeatDelay) && t->repeatDelay >= 0.0)) return mtwn_errorInvalid;
    if (!(isfinite(t->playbackRate) && t->playbackRate != 0.0)) return mtwn_errorInvalid;
    if (t->fill > (uint32_t)mtwn_fillBoth || t->direction > (uint32_t)mtwn_directionAlternateReverse ||
        t->reverseEasing > (uint32_t)mtwn_reverseMirrored || t->reserved != 0)
        return mtwn_errorInvalid;
    if (!mtwn_IsEasingValid(&t->easing)) return mtwn_errorInvalid;
    if (t->repeatDelay > 0.0 && !isfinite(t->duration + t->repeatDelay)) return mtwn_errorInvalid;
    double ad = mtwn_ActiveDuration(t);
    if (isinf(ad)) {
        /* Only an infinite field may make it so, and only forwards. */
        if (!(isinf(t->iterations) || isinf(t->duration))) return mtwn_errorInvalid;
        if (!(t->playbackRate > 0.0)) return mtwn_errorInvalid;
    } else {
        if (!isfinite(t->delay + ad + t->endDelay)) return mtwn_errorInvalid;
        if (!isfinite(t->delay + ad)) return mtwn_errorInvalid;
    }
    return mtwn_success;
}

/* fmod(x, 1): for 0 < x < 2^52, x - floor(x), which is exact (the bits of x
 * below the units), so equal to mcore_fmod's exact result; mcore_fmod for
 * the rest (signs, zeros, the non-finite). */
static double fmodOne(double x)
{
    if (x > 0.0 && x < 0x1p52) return x - floor(x);
    return mcore_fmod(x, 1.0);
}

static bool fillsBackwards(uint32_t fill) { return fill == (uint32_t)mtwn_fillBackwards || fill == (uint32_t)mtwn_fillBoth; }
static bool fillsForwards(uint32_t fill) { return fill == (uint32_t)mtwn_fillForwards || fill == (uint32_t)mtwn_fillBoth; }

void mtwn_ComputeTimingUnchecked(const mtwnTiming* t, double local, bool backwards, bool monotone,
                                 mtwnTimingResult* out, bool* metNaN)
{
    mtwnTimingResult r;
    memset(&r, 0, sizeof r);
    double d = t->duration, n = t->iterations, is = t->iterationStart, rate = t->playbackRate;
    double ad = mtwn_ActiveDuration(t);
    double end = t->delay + ad + t->endDelay;
    if (!(end > 0.0)) end = 0.0;
    r.activeDuration = ad;
    r.endTime = end;

    /* Phases (Web Animations 1, "animation effect phases and states"). */
    double beforeActive = fmax(fmin(t->delay, end), 0.0);
    double activeAfter = fmax(fmin(t->delay + ad, end), 0.0);
    mtwnPhase phase;
    if (local < beforeActive || (backwards && local == beforeActive)) phase = mtwn_phaseBefore;
    else if (local > activeAfter || (!backwards && local == activeAfter)) phase = mtwn_phaseAfter;
    else phase = mtwn_phaseActive;
    r.phase = (uint32_t)phase;

    /* Active time. */
    double a;
    if (phase == mtwn_phaseBefore) {
        if (!fillsBackwards(t->fill)) goto unresolved;
        a = fmax(local - t->delay, 0.0);
    } else if (phase == mtwn_phaseActive) {
        a = local - t->delay;
    } else {
        if (!fillsForwards(t->fill)) goto unresolved;
        a = fmax(fmin(local - t->delay, ad), 0.0);
    }
    r.inEffect = true;
    r.activeTime = a;

    /* Overall progress, from Level 2's scaled active time. */
    bool gap = false;
    double overall;
    if (d == 0.0) {
        bool atStart = (phase == mtwn_phaseBefore) == (rate > 0.0);
        overall = atStart ? is : is + n;
    } else {
        double scaled = rate > 0.0 ? a * rate : (a - ad) * rate;
        if (t->repeatDelay > 0.0) {
            double cycle = d + t->repeatDelay;
            double k0 = floor(is);
            double pos = (is - k0) * d + scaled;
            if (!isfinite(pos)) {
                overall = INFINITY;
            } else {
                double k = floor(pos / cycle);
                double rem = pos - k * cycle;
                if (rem < 0.0) {
                    k = k - 1.0;
                    rem = rem + cycle;
                } else if (rem >= cycle) {
                    k = k + 1.0;
                    rem = rem - cycle;
                }
                if (rem >= d) {
                    gap = true;
                    overall = k0 + k + 1.0;
                } else {
                    overall = k0 + k + rem / d;
                }
            }
        } else {
            double q = scaled / d;
            if (isnan(q)) q = 0.0; /* an infinite time in an infinite iteration */
            overall = q + is;
        }
    }
    r.overallProgress = overall;
    r.inRepeatDelay = gap;

    /* Simple iteration progress. */
    double sip = isinf(overall) ? fmodOne(is) : fmodOne(overall);
    bool atEnd = rate > 0.0 ? (phase != mtwn_phaseBefore && a == ad) : (phase != mtwn_phaseAfter && a == 0.0);
    if (sip == 0.0 && ((atEnd && n != 0.0) || gap)) sip = 1.0;
    r.iterationProgress = sip;

    /* Current iteration. */
    mtwnPhase endPhase = rate > 0.0 ? mtwn_phaseAfter : mtwn_phaseBefore;
    double iteration;
    if (phase == endPhase && isinf(n)) iteration = INFINITY;
    else if (sip == 1.0) iteration = floor(overall) - 1.0;
    else iteration = floor(overall);
    r.currentIteration = iteration;

    /* Directed progress. */
    bool forwards = true;
    switch (t->direction) {
    case mtwn_directionReverse: forwards = false; break;
    case mtwn_directionAlternate:
    case mtwn_directionAlternateReverse: {
        double dd = iteration;
        if (t->direction == (uint32_t)mtwn_directionAlternateReverse) dd = dd + 1.0;
        forwards = isinf(dd) ? true : mcore_fmod(dd, 2.0) == 0.0;
        break;
    }
    default: break;
    }
    r.forwards = forwards;
    double directed = forwards ? sip : 1.0 - sip;
    r.directedProgress = directed;

    /* Transformed progress: the before flag, relative to progress. */
    bool progressForwards = forwards != (rate < 0.0);
    bool before = (phase == mtwn_phaseBefore && progressForwards) || (phase == mtwn_phaseAfter && !progressForwards);
    double eased;
    if (!forwards && t->reverseEasing == (uint32_t)mtwn_reverseMirrored) {
        bool low = (phase == mtwn_phaseBefore && rate > 0.0) || (phase == mtwn_phaseAfter && rate < 0.0);
        before = low;
        double v = monotone ? mtwn_SampleEasingMonotone(&t->easing, sip, low, metNaN)
                            : mtwn_SampleEasingUnchecked(&t->easing, sip, low, metNaN);
        eased = 1.0 - v;
    } else {
        eased = monotone ? mtwn_SampleEasingMonotone(&t->easing, directed, before, metNaN)
                         : mtwn_SampleEasingUnchecked(&t->easing, directed, before, metNaN);
    }
    r.before = before;
    r.transformedProgress = eased;
    *out = r;
    return;

unresolved:
    r.inEffect = false;
    *out = r;
}

MTWN_API mtwnResult mtwnComputeTiming(const mtwnTiming* timing, double localTime, bool backwards,
                                      mtwnTimingResult* resultOut)
{
    if (timing == NULL || resultOut == NULL) return mtwn_errorInvalid;
    if (isnan(localTime) || localTime == -INFINITY) return mtwn_errorInvalid;
    if (mtwnValidateTiming(timing) != mtwn_success) return mtwn_errorInvalid;
    mtwn_ComputeTimingUnchecked(timing, localTime, backwards, false, resultOut, NULL);
    return mtwn_success;
}
