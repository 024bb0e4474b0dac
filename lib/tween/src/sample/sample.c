/* Maul Tween: easing tables and linear() fits (sample.h). */
#include <float.h>
#include <math.h>

#include "lib/tween/src/easing/easing_internal.h"
#include "maul/tween/sample.h"

MTWN_API mtwnResult mtwnSampleEasingTable(const mtwnEasing* easing, uint32_t count, float* valuesOut)
{
    if (easing == NULL || valuesOut == NULL || count < 2 || !mtwn_IsEasingValid(easing)) return mtwn_errorInvalid;
    double last = (double)(count - 1);
    for (uint32_t i = 0; i < count; ++i) {
        double p = (double)i / last;
        double v = mtwn_SampleEasingUnchecked(easing, p, false, NULL);
        if (v > (double)FLT_MAX) v = (double)FLT_MAX;
        else if (v < -(double)FLT_MAX) v = -(double)FLT_MAX;
        valuesOut[i] = (float)v;
    }
    return mtwn_success;
}

typedef struct Fit {
    const mtwnEasing* easing;
    double tolerance;
    mtwnLinearPoint* points;
    uint32_t capacity;
    uint32_t count;  /* points emitted so far */
    bool limit;      /* more than MTWN_MAX_FIT_POINTS */
    bool notFinite;  /* a kept point not finite */
} Fit;

static void emit(Fit* f, double x, double y)
{
    if (f->count >= MTWN_MAX_FIT_POINTS) {
        f->limit = true;
        return;
    }
    if (!isfinite(y)) f->notFinite = true;
    if (f->points != NULL && f->count < f->capacity) {
        f->points[f->count].input = x;
        f->points[f->count].output = y;
    }
    f->count += 1;
}

static double value(const Fit* f, double x) { return mtwn_SampleEasingUnchecked(f->easing, x, false, NULL); }

/* Emits the points of (a, b], after a was emitted. */
static void segment(Fit* f, double a, double ya, double b, double yb)
{
    if (f->limit || f->notFinite) return;
    bool fits = true;
    if (!(b - a < MTWN_FIT_MIN_SEGMENT)) {
        double w = b - a;
        for (uint32_t j = 1; j <= MTWN_FIT_PROBES && fits; ++j) {
            double x = a + w * ((double)j / (double)(MTWN_FIT_PROBES + 1));
            double line = ya + (yb - ya) * ((x - a) / w);
            double err = fabs(value(f, x) - line);
            if (!(err <= f->tolerance)) fits = false;
        }
    }
    if (fits) {
        emit(f, b, yb);
        return;
    }
    double m = (a + b) * 0.5;
    double ym = value(f, m);
    segment(f, a, ya, m, ym);
    segment(f, m, ym, b, yb);
}

MTWN_API mtwnResult mtwnFitLinearEasing(const mtwnEasing* easing, double tolerance, mtwnLinearPoint* pointsOut,
                                        uint32_t capacity, uint32_t* countOut)
{
    if (easing == NULL || countOut == NULL || (pointsOut == NULL && capacity > 0)) return mtwn_errorInvalid;
    if (!mtwn_IsEasingValid(easing) || easing->kind == (uint32_t)mtwn_easingSteps) return mtwn_errorInvalid;
    if (!(tolerance > 0.0 && isfinite(tolerance))) return mtwn_errorInvalid;
    /* First pass counts, writing nothing; the second writes when they fit. */
    Fit f = {easing, tolerance, NULL, 0, 0, false, false};
    double y0 = value(&f, 0.0), y1 = value(&f, 1.0);
    emit(&f, 0.0, y0);
    segment(&f, 0.0, y0, 1.0, y1);
    if (f.limit) {
        *countOut = 0;
        return mtwn_errorLimit;
    }
    if (f.notFinite) return mtwn_errorInvalid;
    if (f.count > capacity) {
        *countOut = f.count;
        return mtwn_errorCapacity;
    }
    Fit g = {easing, tolerance, pointsOut, capacity, 0, false, false};
    emit(&g, 0.0, y0);
    segment(&g, 0.0, y0, 1.0, y1);
    *countOut = g.count;
    return mtwn_success;
}
