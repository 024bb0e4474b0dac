/* Maul Tween: staggers (timing.h, mtwnComputeStagger). */
#include <math.h>
#include <string.h>

#include "lib/tween/src/easing/easing_internal.h"
#include "maul/tween/timing.h"

MTWN_API mtwnStagger mtwnDefaultStagger(void)
{
    mtwnStagger s;
    memset(&s, 0, sizeof s);
    s.start = 0.0;
    s.spacing = 0.1;
    s.spacingKind = (uint32_t)mtwn_staggerEach;
    s.origin = (uint32_t)mtwn_staggerFirst;
    s.axis = (uint32_t)mtwn_staggerBoth;
    s.columns = 0;
    s.ease = mtwnMakeLinearEasing();
    return s;
}

typedef struct Grid {
    double cols, rows; /* the grid's size */
    double ox, oy;     /* the origin's cell */
    uint32_t columns;
} Grid;

static double distance(const mtwnStagger* s, const Grid* g, uint32_t i)
{
    double col = (double)(i % g->columns);
    double row = (double)(i / g->columns);
    if (s->origin == (uint32_t)mtwn_staggerEdges) {
        double ex = fmin(col, g->cols - 1.0 - col);
        double ey = fmin(row, g->rows - 1.0 - row);
        /* A single row has edges only at its ends, a single column likewise. */
        if (s->axis == (uint32_t)mtwn_staggerX || g->rows == 1.0) return ex;
        if (s->axis == (uint32_t)mtwn_staggerY || g->cols == 1.0) return ey;
        return fmin(ex, ey);
    }
    double x = col - g->ox, y = row - g->oy; /* exact: multiples of 1/2 below 2^21 */
    if (s->axis == (uint32_t)mtwn_staggerX) return fabs(x);
    if (s->axis == (uint32_t)mtwn_staggerY) return fabs(y);
    return sqrt(x * x + y * y); /* the sum exact, the root correctly rounded */
}

MTWN_API mtwnResult mtwnComputeStagger(const mtwnStagger* s, uint32_t count, double* offsetsOut)
{
    if (s == NULL || (offsetsOut == NULL && count > 0)) return mtwn_errorInvalid;
    if (s->origin > (uint32_t)mtwn_staggerIndex || s->axis > (uint32_t)mtwn_staggerY ||
        s->spacingKind > (uint32_t)mtwn_staggerAmount || s->reserved != 0)
        return mtwn_errorInvalid;
    if (s->origin == (uint32_t)mtwn_staggerIndex && count > 0 && s->originIndex >= count) return mtwn_errorInvalid;
    if (!isfinite(s->start) || !isfinite(s->spacing)) return mtwn_errorInvalid;
    if (!mtwn_IsEasingValid(&s->ease)) return mtwn_errorInvalid;
    if (count == 0) return mtwn_success;

    Grid g;
    g.columns = (s->columns == 0 || s->columns > count) ? count : s->columns;
    g.cols = (double)g.columns;
    g.rows = (double)((count - 1) / g.columns + 1);
    if (g.cols - 1.0 > MTWN_MAX_STAGGER_COORDINATE || g.rows - 1.0 > MTWN_MAX_STAGGER_COORDINATE)
        return mtwn_errorInvalid;
    uint32_t o = 0;
    switch (s->origin) {
    case mtwn_staggerLast: o = count - 1; break;
    case mtwn_staggerIndex: o = s->originIndex; break;
    default: o = 0; break;
    }
    g.ox = (double)(o % g.columns);
    g.oy = (double)(o / g.columns);
    if (s->origin == (uint32_t)mtwn_staggerCenter) {
        g.ox = (g.cols - 1.0) * 0.5;
        g.oy = (g.rows - 1.0) * 0.5;
    }

    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < count; ++i) {
        double d = distance(s, &g, i);
        if (d < lo) lo = d;
        if (d > hi) hi = d;
    }
    double range = hi - lo;
    double span = s->spacingKind == (uint32_t)mtwn_staggerAmount ? s->spacing : s->spacing * range;
    if (!isfinite(span)) return mtwn_errorInvalid;

    /* Two passes: check every offset, then write them. */
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t i = 0; i < count; ++i) {
            double t = range > 0.0 ? (distance(s, &g, i) - lo) / range : 0.0;
            double v;
            if (span < 0.0) {
                double e = mtwn_SampleEasingUnchecked(&s->ease, 1.0 - t, false, NULL);
                v = s->start - span * e;
            } else {
                double e = mtwn_SampleEasingUnchecked(&s->ease, t, false, NULL);
                v = s->start + span * e;
            }
            if (!isfinite(v)) return mtwn_errorInvalid;
            if (pass == 1) offsetsOut[i] = v;
        }
    }
    return mtwn_success;
}
