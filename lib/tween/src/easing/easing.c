/* Maul Tween: the easing makers, their checks, the dispatch of
 * mtwnSampleEasing and mtwnIsEasingMonotonic (easing.h). */
#include <math.h>
#include <string.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/easing/curves_internal.h"

static mtwnEasing blank(mtwnEasingKind kind, mtwnEaseMode mode)
{
    mtwnEasing e;
    memset(&e, 0, sizeof e);
    e.cookie = MTWN_EASING_COOKIE;
    e.kind = (uint32_t)kind;
    e.mode = (uint32_t)mode;
    return e;
}

static bool modeKnown(uint32_t mode) { return mode <= (uint32_t)mtwn_easeOutIn; }

MTWN_API mtwnEasing mtwnMakeLinearEasing(void) { return blank(mtwn_easingLinear, mtwn_easeIn); }

MTWN_API mtwnResult mtwnMakePowerEasing(mtwnEaseMode mode, double exponent, mtwnEasing* easingOut)
{
    if (easingOut == NULL || !modeKnown((uint32_t)mode)) return mtwn_errorInvalid;
    if (!(exponent > 0.0 && exponent <= MTWN_MAX_POWER_EXPONENT)) return mtwn_errorInvalid;
    mtwnEasing e = blank(mtwn_easingPower, mode);
    e.params[0] = exponent;
    *easingOut = e;
    return mtwn_success;
}

MTWN_API mtwnResult mtwnMakePennerEasing(mtwnEasingKind kind, mtwnEaseMode mode, mtwnEasing* easingOut)
{
    if (easingOut == NULL || !modeKnown((uint32_t)mode)) return mtwn_errorInvalid;
    if (kind != mtwn_easingSine && kind != mtwn_easingExpo && kind != mtwn_easingCirc && kind != mtwn_easingBounce)
        return mtwn_errorInvalid;
    *easingOut = blank(kind, mode);
    return mtwn_success;
}

MTWN_API mtwnResult mtwnMakeBackEasing(mtwnEaseMode mode, double overshoot, mtwnEasing* easingOut)
{
    if (easingOut == NULL || !modeKnown((uint32_t)mode)) return mtwn_errorInvalid;
    if (!(overshoot >= 0.0 && overshoot <= MTWN_MAX_BACK_OVERSHOOT)) return mtwn_errorInvalid;
    mtwnEasing e = blank(mtwn_easingBack, mode);
    e.params[0] = overshoot + 0.0; /* -0 as +0 */
    e.params[1] = (e.params[0] + 1.0) - e.params[0];
    *easingOut = e;
    return mtwn_success;
}

#define MTWN_TWO_PI 6.28318530717958647692

MTWN_API mtwnResult mtwnMakeElasticEasing(mtwnEaseMode mode, double amplitude, double period,
                                          mtwnEasing* easingOut)
{
    if (easingOut == NULL || !modeKnown((uint32_t)mode)) return mtwn_errorInvalid;
    if (!(amplitude > 0.0 && amplitude <= MTWN_MAX_ELASTIC_AMPLITUDE)) return mtwn_errorInvalid;
    if (!(period > 0.0 && isfinite(period))) return mtwn_errorInvalid;
    double a = amplitude, P = period;
    if (a < 1.0) {
        P = period / amplitude;
        a = 1.0;
    }
    if (!(isfinite(P) && P >= MTWN_MIN_ELASTIC_PERIOD)) return mtwn_errorInvalid;
    mtwnEasing e = blank(mtwn_easingElastic, mode);
    double c = (P * mcore_asin(1.0 / a)) / MTWN_TWO_PI;
    double w = MTWN_TWO_PI / P;
    double g0 = mtwn_ElasticG(a, c, w, 0.0);
    double g1 = mtwn_ElasticG(a, c, w, 1.0);
    e.params[0] = a;
    e.params[1] = P;
    e.params[2] = c;
    e.params[3] = w;
    e.params[4] = g0;
    e.params[5] = g1;
    e.params[6] = g1 - g0;
    *easingOut = e;
    return mtwn_success;
}

MTWN_API mtwnResult mtwnMakeHostEasing(mtwnEaseMode mode, mtwnEaseFunction* function, void* context,
                                       mtwnEasing* easingOut)
{
    if (easingOut == NULL || function == NULL || !modeKnown((uint32_t)mode)) return mtwn_errorInvalid;
    mtwnEasing e = blank(mtwn_easingHost, mode);
    e.function = function;
    e.context = context;
    *easingOut = e;
    return mtwn_success;
}

MTWN_API mtwnResult mtwnMakeCubicBezierEasing(double x1, double y1, double x2, double y2, mtwnEasing* easingOut)
{
    if (easingOut == NULL) return mtwn_errorInvalid;
    if (!(x1 >= 0.0 && x1 <= 1.0 && x2 >= 0.0 && x2 <= 1.0 && isfinite(y1) && isfinite(y2)))
        return mtwn_errorInvalid;
    mtwnEasing e = blank(mtwn_easingCubicBezier, mtwn_easeIn);
    e.params[0] = x1;
    e.params[1] = y1;
    e.params[2] = x2;
    e.params[3] = y2;
    *easingOut = e;
    return mtwn_success;
}

MTWN_API mtwnResult mtwnMakeStepsEasing(uint32_t count, mtwnStepPosition position, mtwnEasing* easingOut)
{
    if (easingOut == NULL || (uint32_t)position > (uint32_t)mtwn_stepJumpBoth) return mtwn_errorInvalid;
    if (count < 1 || (position == mtwn_stepJumpNone && count < 2)) return mtwn_errorInvalid;
    mtwnEasing e = blank(mtwn_easingSteps, mtwn_easeIn);
    e.variant = (uint32_t)position;
    e.count = count;
    *easingOut = e;
    return mtwn_success;
}

MTWN_API mtwnResult mtwnMakeCssEasing(mtwnCssKeyword keyword, mtwnEasing* easingOut)
{
    if (easingOut == NULL) return mtwn_errorInvalid;
    switch (keyword) {
    case mtwn_cssLinear: *easingOut = mtwnMakeLinearEasing(); return mtwn_success;
    case mtwn_cssEase: return mtwnMakeCubicBezierEasing(0.25, 0.1, 0.25, 1.0, easingOut);
    case mtwn_cssEaseIn: return mtwnMakeCubicBezierEasing(0.42, 0.0, 1.0, 1.0, easingOut);
    case mtwn_cssEaseOut: return mtwnMakeCubicBezierEasing(0.0, 0.0, 0.58, 1.0, easingOut);
    case mtwn_cssEaseInOut: return mtwnMakeCubicBezierEasing(0.42, 0.0, 0.58, 1.0, easingOut);
    case mtwn_cssStepStart: return mtwnMakeStepsEasing(1, mtwn_stepJumpStart, easingOut);
    case mtwn_cssStepEnd: return mtwnMakeStepsEasing(1, mtwn_stepJumpEnd, easingOut);
    default: return mtwn_errorInvalid;
    }
}

/* ---- checks ---- */

static bool paramsZeroFrom(const mtwnEasing* e, int first)
{
    for (int i = first; i < MTWN_EASING_PARAM_COUNT; ++i)
        if (e->params[i] != 0.0) return false;
    return true;
}

bool mtwn_IsEasingValid(const mtwnEasing* e)
{
    if (e->cookie != MTWN_EASING_COOKIE || !modeKnown(e->mode) || e->reserved != 0) return false;
    if (e->kind == (uint32_t)mtwn_easingCubicBezier) return mtwn_IsCubicBezierValid(e);
    bool noRefs = e->points == NULL && e->function == NULL && e->context == NULL;
    bool plain = noRefs && e->variant == 0 && e->count == 0;
    switch ((mtwnEasingKind)e->kind) {
    case mtwn_easingLinear:
    case mtwn_easingSine:
    case mtwn_easingExpo:
    case mtwn_easingCirc:
    case mtwn_easingBounce: return plain && paramsZeroFrom(e, 0);
    case mtwn_easingPower:
        return plain && e->params[0] > 0.0 && e->params[0] <= MTWN_MAX_POWER_EXPONENT && paramsZeroFrom(e, 1);
    case mtwn_easingBack:
        return plain && e->params[0] >= 0.0 && e->params[0] <= MTWN_MAX_BACK_OVERSHOOT &&
               e->params[1] == (e->params[0] + 1.0) - e->params[0] && paramsZeroFrom(e, 2);
    case mtwn_easingElastic: {
        if (!plain || !paramsZeroFrom(e, 7)) return false;
        const double* q = e->params;
        if (!(q[0] >= 1.0 && q[0] <= MTWN_MAX_ELASTIC_AMPLITUDE)) return false;
        if (!(q[1] >= MTWN_MIN_ELASTIC_PERIOD && isfinite(q[1]))) return false;
        for (int i = 2; i < 6; ++i)
            if (!isfinite(q[i])) return false;
        return q[6] > 0.0 && isfinite(q[6]);
    }
    case mtwn_easingHost:
        return e->function != NULL && e->points == NULL && e->variant == 0 && e->count == 0 && paramsZeroFrom(e, 0);
    case mtwn_easingSteps:
        return e->points == NULL && e->function == NULL && e->context == NULL && paramsZeroFrom(e, 0) &&
               e->variant <= (uint32_t)mtwn_stepJumpBoth && e->count >= 1 &&
               !(e->variant == (uint32_t)mtwn_stepJumpNone && e->count < 2);
    case mtwn_easingLinearPoints:
        return e->points != NULL && e->count >= 2 && e->function == NULL && e->context == NULL &&
               e->variant == 0 && paramsZeroFrom(e, 0);
    case mtwn_easingSpring: return plain && mtwn_IsSpringEasingValid(e);
    default: return false;
    }
}

MTWN_API mtwnResult mtwnSetEaseMode(mtwnEasing* easing, mtwnEaseMode mode)
{
    if (easing == NULL || !modeKnown((uint32_t)mode) || !mtwn_IsEasingValid(easing)) return mtwn_errorInvalid;
    easing->mode = (uint32_t)mode;
    return mtwn_success;
}

/* ---- sampling ---- */

static double clamp01(double p) { return p < 0.0 ? 0.0 : (p > 1.0 ? 1.0 : p); }

static double hostCurve(const mtwnEasing* e, double q, bool* metNaN)
{
    double v = e->function(e->context, q);
    if (isnan(v)) {
        if (metNaN != NULL) *metNaN = true;
        return q;
    }
    return v;
}

/* A Penner-family curve (or a spring) in its in form at q in 0 to 1. */
static double clampedCurve(const mtwnEasing* e, double q)
{
    switch ((mtwnEasingKind)e->kind) {
    case mtwn_easingPower: return mtwn_PowerCurve(e->params[0], q);
    case mtwn_easingSine: return mtwn_SineCurve(q);
    case mtwn_easingExpo: return mtwn_ExpoCurve(q);
    case mtwn_easingCirc: return mtwn_CircCurve(q);
    case mtwn_easingBounce: return mtwn_BounceCurve(q);
    case mtwn_easingBack: return mtwn_BackCurve(e->params, q);
    case mtwn_easingElastic: return mtwn_ElasticCurve(e->params, q);
    default: return mtwn_SampleSpringEasing(e, q);
    }
}

static double sample(const mtwnEasing* e, double p, bool before, bool* metNaN, bool monotone)
{
    double r;
    switch ((mtwnEasingKind)e->kind) {
    case mtwn_easingLinear: return p;
    case mtwn_easingCubicBezier:
        if (monotone) MTWN_APPLY_MODE(r, e->mode, p, before, q, b, mtwn_CubicBezierCurveMonotone(e->params, q));
        else MTWN_APPLY_MODE(r, e->mode, p, before, q, b, mtwn_CubicBezierCurve(e->params, q));
        return mtwn_ClampToDoubles(r);
    case mtwn_easingSteps:
        MTWN_APPLY_MODE(r, e->mode, p, before, q, b, mtwn_StepsCurve(e->count, e->variant, q, b));
        return mtwn_ClampToDoubles(r);
    case mtwn_easingLinearPoints:
        MTWN_APPLY_MODE(r, e->mode, p, before, q, b, mtwn_LinearPointsCurve(e->points, e->count, q));
        return mtwn_ClampToDoubles(r);
    case mtwn_easingHost: {
        double c = clamp01(p);
        MTWN_APPLY_MODE(r, e->mode, c, before, q, b, hostCurve(e, q, metNaN));
        return r;
    }
    default: {
        double c = clamp01(p);
        MTWN_APPLY_MODE(r, e->mode, c, before, q, b, clampedCurve(e, q));
        return mtwn_ClampToDoubles(r);
    }
    }
}

double mtwn_SampleEasingUnchecked(const mtwnEasing* easing, double progress, bool before, bool* metNaN)
{
    return sample(easing, progress, before, metNaN, false);
}

double mtwn_SampleEasingMonotone(const mtwnEasing* easing, double progress, bool before, bool* metNaN)
{
    return sample(easing, progress, before, metNaN, true);
}

MTWN_API mtwnResult mtwnSampleEasing(const mtwnEasing* easing, double progress, bool before, double* easedOut)
{
    if (easing == NULL || easedOut == NULL || !isfinite(progress) || !mtwn_IsEasingValid(easing))
        return mtwn_errorInvalid;
    *easedOut = sample(easing, progress, before, NULL, false);
    return mtwn_success;
}

MTWN_API mtwnResult mtwnIsEasingMonotonic(const mtwnEasing* easing, bool* monotonicOut)
{
    if (easing == NULL || monotonicOut == NULL || !mtwn_IsEasingValid(easing)) return mtwn_errorInvalid;
    bool m = false;
    switch ((mtwnEasingKind)easing->kind) {
    case mtwn_easingLinear:
    case mtwn_easingPower:
    case mtwn_easingSine:
    case mtwn_easingExpo:
    case mtwn_easingCirc:
    case mtwn_easingSteps: m = true; break;
    case mtwn_easingCubicBezier: {
        const double* q = easing->params;
        m = q[1] >= 0.0 && q[1] <= 1.0 && q[3] >= 0.0 && q[3] <= 1.0;
        break;
    }
    case mtwn_easingLinearPoints: {
        const mtwnLinearPoint* pts = easing->points;
        m = true;
        for (uint32_t i = 1; i < easing->count; ++i)
            if (!(pts[i].output >= pts[i - 1].output)) m = false;
        if (m && easing->mode == (uint32_t)mtwn_easeInOut)
            m = mtwn_LinearPointsCurve(pts, easing->count, 1.0) <= 1.0;
        if (m && easing->mode == (uint32_t)mtwn_easeOutIn)
            m = mtwn_LinearPointsCurve(pts, easing->count, 0.0) >= 0.0;
        break;
    }
    default: m = false; break;
    }
    *monotonicOut = m;
    return mtwn_success;
}
