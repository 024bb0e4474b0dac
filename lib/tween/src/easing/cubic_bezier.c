/* Maul Tween: CSS's cubic-bezier() curve and mtwnSampleCubicBezierEasing, in
 * a file of its own so that a program sampling only cubic beziers through it
 * links none of the other curves (easing.h). Nothing here may reference the
 * dispatch or another curve. */
#include <math.h>
#include <stdbool.h>

#include "lib/tween/src/easing/easing_internal.h"

/* The curve's polynomial coefficients, as WebKit's UnitBezier lays them out:
 * c = 3 p1, b = 3 (p2 - p1) - c, a = 1 - c - b; B(t) = ((a t + b) t + c) t. */
typedef struct Coefficients {
    double ax, bx, cx, ay, by, cy;
} Coefficients;

static Coefficients coefficients(const double* q)
{
    Coefficients k;
    k.cx = 3.0 * q[0];
    k.bx = 3.0 * (q[2] - q[0]) - k.cx;
    k.ax = 1.0 - k.cx - k.bx;
    k.cy = 3.0 * q[1];
    k.by = 3.0 * (q[3] - q[1]) - k.cy;
    k.ay = 1.0 - k.cy - k.by;
    return k;
}

static double sampleX(const Coefficients* k, double t) { return ((k->ax * t + k->bx) * t + k->cx) * t; }
static double sampleY(const Coefficients* k, double t) { return ((k->ay * t + k->by) * t + k->cy) * t; }
static double slopeX(const Coefficients* k, double t) { return (3.0 * k->ax * t + 2.0 * k->bx) * t + k->cx; }

/* CSS Easing's end-tangent extension outside 0 to 1. */
static double extend(const double* q, double x)
{
    double x1 = q[0], y1 = q[1], x2 = q[2], y2 = q[3];
    if (x < 0.0) {
        if (x1 > 0.0) return (y1 / x1) * x;
        if (x2 > 0.0) return (y2 / x2) * x;
        return 0.0;
    }
    if (x2 < 1.0) return 1.0 + ((y2 - 1.0) / (x2 - 1.0)) * (x - 1.0);
    if (x1 < 1.0) return 1.0 + ((y1 - 1.0) / (x1 - 1.0)) * (x - 1.0);
    return 1.0;
}

/* Safeguarded Newton: Newton steps kept inside the bracket [lo, hi] that holds
 * the root, bisection when a step leaves it or the slope is not positive,
 * until |x(t) - x| <= 1e-14. x(t) is non-decreasing (x1, x2 in 0 to 1). */
double mtwn_CubicBezierCurve(const double* q, double x)
{
    if (x == 0.0) return 0.0;
    if (x == 1.0) return 1.0;
    if (x < 0.0 || x > 1.0) return extend(q, x);
    Coefficients k = coefficients(q);
    double lo = 0.0, hi = 1.0, t = x;
    for (int i = 0; i < 100; ++i) {
        double err = sampleX(&k, t) - x;
        if (fabs(err) <= 1e-14) break;
        if (err < 0.0) lo = t;
        else hi = t;
        double d = slopeX(&k, t);
        double next = (lo + hi) * 0.5;
        if (d > 0.0) {
            double newton = t - err / d;
            if (newton > lo && newton < hi) next = newton;
        }
        t = next;
    }
    return sampleY(&k, t);
}

/* ---- the timeline-safe solve ---- */

/* Double-double helpers (Dekker, Knuth), + - * only, no FMA. */
typedef struct DD {
    double hi, lo;
} DD;

static DD twoSum(double a, double b)
{
    DD r;
    r.hi = a + b;
    double bb = r.hi - a;
    r.lo = (a - (r.hi - bb)) + (b - bb);
    return r;
}

static void split(double a, double* h, double* l)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double big = c - a;
    *h = c - big;
    *l = a - *h;
}

static DD twoProd(double a, double b)
{
    DD r;
    r.hi = a * b;
    double ah, al, bh, bl;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    r.lo = ((ah * bh - r.hi) + ah * bl + al * bh) + al * bl;
    return r;
}

static DD ddMul(DD a, DD b)
{
    DD p = twoProd(a.hi, b.hi);
    p.lo = p.lo + (a.hi * b.lo + a.lo * b.hi);
    return twoSum(p.hi, p.lo);
}

static DD ddAdd(DD a, DD b)
{
    DD s = twoSum(a.hi, b.hi);
    s.lo = s.lo + (a.lo + b.lo);
    return twoSum(s.hi, s.lo);
}

static DD ddFrom(double a)
{
    DD r = {a, 0.0};
    return r;
}

/* y(t) = 3 y1 u^2 t + 3 y2 u t^2 + t^3, u = 1 - t exact (t on the 2^-53 grid),
 * in double-double; for y1, y2 from 0 to 1 every term is at least 0, so the
 * sum is accurate to about 2^-104 relative and rounded once. */
static double exactY(const double* q, double t)
{
    double u = 1.0 - t;
    DD tt = twoProd(t, t);
    DD uu = twoProd(u, u);
    DD a = ddMul(ddMul(uu, ddFrom(t)), ddMul(ddFrom(3.0), ddFrom(q[1])));
    DD b = ddMul(ddMul(tt, ddFrom(u)), ddMul(ddFrom(3.0), ddFrom(q[3])));
    DD c = ddMul(tt, ddFrom(t));
    DD s = ddAdd(ddAdd(a, b), c);
    return s.hi + s.lo;
}

double mtwn_CubicBezierCurveMonotone(const double* q, double x)
{
    if (x == 0.0) return 0.0;
    if (x == 1.0) return 1.0;
    if (x < 0.0 || x > 1.0) return extend(q, x);
    Coefficients k = coefficients(q);
    /* lo and hi are multiples of 2^-53; the decisions x(mid) < x are
     * non-decreasing in x, so the t chosen is too. */
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 53; ++i) {
        double mid = (lo + hi) * 0.5;
        if (sampleX(&k, mid) < x) lo = mid;
        else hi = mid;
    }
    double t = (x - sampleX(&k, lo) <= sampleX(&k, hi) - x) ? lo : hi;
    return exactY(q, t);
}

bool mtwn_IsCubicBezierValid(const mtwnEasing* e)
{
    if (e->cookie != MTWN_EASING_COOKIE || e->kind != (uint32_t)mtwn_easingCubicBezier) return false;
    if (e->mode > (uint32_t)mtwn_easeOutIn || e->variant != 0 || e->count != 0 || e->reserved != 0) return false;
    const double* q = e->params;
    if (!(q[0] >= 0.0 && q[0] <= 1.0 && q[2] >= 0.0 && q[2] <= 1.0)) return false;
    if (!isfinite(q[1]) || !isfinite(q[3])) return false;
    for (int i = 4; i < MTWN_EASING_PARAM_COUNT; ++i)
        if (q[i] != 0.0) return false;
    return true;
}

MTWN_API mtwnResult mtwnSampleCubicBezierEasing(const mtwnEasing* easing, double progress, double* easedOut)
{
    if (easing == NULL || easedOut == NULL || !isfinite(progress) || !mtwn_IsCubicBezierValid(easing))
        return mtwn_errorInvalid;
    double r;
    MTWN_APPLY_MODE(r, easing->mode, progress, false, q, b, mtwn_CubicBezierCurve(easing->params, q));
    *easedOut = mtwn_ClampToDoubles(r);
    return mtwn_success;
}
