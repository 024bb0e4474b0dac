/* Maul Tween: the seeded rough easing (easing.h, mtwnMakeRoughEasing). */
#include <math.h>
#include <string.h>

#include "lib/core/rng.h"
#include "lib/tween/src/easing/curves_internal.h"

static double taper(uint32_t kind, double x)
{
    switch (kind) {
    case mtwn_roughTaperIn: return x * x;
    case mtwn_roughTaperOut: return (1.0 - x) * (1.0 - x);
    case mtwn_roughTaperBoth:
        if (x < 0.5) return 2.0 * (x * x);
        return 2.0 * ((1.0 - x) * (1.0 - x));
    default: return 1.0;
    }
}

/* The k-th inner point of m; false when the shape or the point is not finite. */
static bool innerPoint(const mtwnRoughDef* def, mcore_Rng* rng, uint32_t k, uint32_t m, mtwnLinearPoint* out)
{
    double u = mcore_RngDouble01(rng);
    double v = mcore_RngDouble01(rng);
    double md = (double)m;
    double x = ((double)k + u) / md;
    double upper = ((double)k + 1.0) / md;
    if (x >= upper) x = nextafter(upper, 0.0); /* stays below the next interval */
    double y = mtwn_SampleEasingUnchecked(&def->shape, x, false, NULL);
    if (!isfinite(y)) return false;
    double offset = (def->strength * taper(def->taper, x)) * (2.0 * v - 1.0);
    y = y + offset;
    if (def->flags & MTWN_ROUGH_CLAMP) y = y < 0.0 ? 0.0 : (y > 1.0 ? 1.0 : y);
    if (!isfinite(y)) return false;
    out->input = x;
    out->output = y;
    return true;
}

MTWN_API mtwnResult mtwnMakeRoughEasing(const mtwnRoughDef* def, mtwnLinearPoint* pointsOut, uint32_t count,
                                        mtwnEasing* easingOut)
{
    if (def == NULL || pointsOut == NULL || easingOut == NULL || count < 2) return mtwn_errorInvalid;
    if (!mtwn_IsEasingValid(&def->shape)) return mtwn_errorInvalid;
    if (!(def->strength >= 0.0 && isfinite(def->strength))) return mtwn_errorInvalid;
    if (def->taper > (uint32_t)mtwn_roughTaperBoth || (def->flags & ~MTWN_ROUGH_FLAGS_ALL) != 0)
        return mtwn_errorInvalid;
    if (def->shape.kind == (uint32_t)mtwn_easingLinearPoints) {
        const mtwnLinearPoint* s = def->shape.points;
        if (s < pointsOut + count && pointsOut < s + def->shape.count) return mtwn_errorInvalid;
    }
    uint32_t m = count - 2;
    mtwnLinearPoint p;
    mcore_Rng rng;
    /* First pass: check every point, writing nothing. */
    mcore_RngSeed(&rng, def->seed);
    for (uint32_t k = 0; k < m; ++k)
        if (!innerPoint(def, &rng, k, m, &p)) return mtwn_errorInvalid;
    mcore_RngSeed(&rng, def->seed);
    pointsOut[0].input = 0.0;
    pointsOut[0].output = 0.0;
    for (uint32_t k = 0; k < m; ++k) {
        if (!innerPoint(def, &rng, k, m, &p)) return mtwn_errorInvalid; /* a host shape that changed */
        pointsOut[k + 1] = p;
    }
    pointsOut[count - 1].input = 1.0;
    pointsOut[count - 1].output = 1.0;
    mtwnEasing e = mtwnMakeLinearEasing();
    e.kind = (uint32_t)mtwn_easingLinearPoints;
    e.count = count;
    e.points = pointsOut;
    *easingOut = e;
    return mtwn_success;
}
