/* Maul Tween: CSS linear(): canonicalization in place and evaluation (CSS
 * Easing Level 2, "linear easing function"). */
#include <math.h>

#include "lib/tween/src/easing/curves_internal.h"

MTWN_API mtwnResult mtwnMakeLinearPointsEasing(mtwnLinearPoint* points, uint32_t count, mtwnEasing* easingOut)
{
    if (points == NULL || easingOut == NULL || count < 2) return mtwn_errorInvalid;
    for (uint32_t i = 0; i < count; ++i) {
        if (!isfinite(points[i].output)) return mtwn_errorInvalid;
        if (isinf(points[i].input)) return mtwn_errorInvalid;
    }
    /* 1. A first input not given is 0. */
    if (isnan(points[0].input)) points[0].input = 0.0;
    /* 2. A last input not given is the largest input before it, or 1 if that is larger. */
    if (isnan(points[count - 1].input)) {
        double largest = 1.0;
        for (uint32_t i = 0; i + 1 < count; ++i)
            if (!isnan(points[i].input) && points[i].input > largest) largest = points[i].input;
        points[count - 1].input = largest;
    }
    /* 3. An input below an earlier one is raised to the largest before it. */
    double largest = points[0].input;
    for (uint32_t i = 1; i < count; ++i) {
        if (isnan(points[i].input)) continue;
        if (points[i].input < largest) points[i].input = largest;
        else largest = points[i].input;
    }
    /* 4. Runs not given are spread evenly between their neighbors:
     * a + (b - a) * j / (n + 1) for the j-th of n. */
    uint32_t i = 1;
    while (i < count) {
        if (!isnan(points[i].input)) {
            ++i;
            continue;
        }
        uint32_t end = i;
        while (isnan(points[end].input)) ++end; /* the last input is given */
        double a = points[i - 1].input, b = points[end].input;
        double n = (double)(end - i + 1);
        for (uint32_t j = i; j < end; ++j) points[j].input = a + (b - a) * ((double)(j - i + 1) / n);
        i = end;
    }
    mtwnEasing e = mtwnMakeLinearEasing();
    e.kind = (uint32_t)mtwn_easingLinearPoints;
    e.count = count;
    e.points = points;
    *easingOut = e;
    return mtwn_success;
}

/* (x - a) / (b - a), halving everything when a difference overflows. */
static double ratio(double x, double a, double b)
{
    double num = x - a, den = b - a;
    if (!isfinite(num) || !isfinite(den)) {
        num = x * 0.5 - a * 0.5;
        den = b * 0.5 - a * 0.5;
    }
    return num / den;
}

double mtwn_LinearPointsCurve(const mtwnLinearPoint* p, uint32_t count, double x)
{
    /* The last point with an input at or below x, or 0 if none; not the last. */
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p[mid].input <= x) lo = mid + 1;
        else hi = mid;
    }
    uint32_t ia = lo == 0 ? 0 : lo - 1;
    if (ia >= count - 1) ia = count - 2;
    const mtwnLinearPoint* A = &p[ia];
    const mtwnLinearPoint* B = &p[ia + 1];
    if (A->input == B->input) return B->output;
    double r = ratio(x, A->input, B->input);
    double range = B->output - A->output;
    double v;
    if (range == 0.0) return A->output;
    if (isfinite(range)) v = A->output + r * range;
    else v = (1.0 - r) * A->output + r * B->output;
    if (isnan(v)) v = A->output; /* only points the host changed reach this */
    return v;
}
