/* Maul Tween: van Wijk and Nuij's zoom and pan (interpolate.h). */
#include <math.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/interpolate/interpolate_internal.h"
#include "maul/tween/interpolate.h"

/* asinh(x) for x >= 0 from the math core's log and log1p (fdlibm's split). */
static double asinhPos(double x)
{
    if (x > 0x1p28) return mcore_log(x) + 0.6931471805599453;
    if (x < 0x1p-28) return x;
    if (x > 2.0) return mcore_log(2.0 * x + 1.0 / (sqrt(x * x + 1.0) + x));
    {
        double t = x * x;
        return mcore_log1p(x + t / (1.0 + sqrt(1.0 + t)));
    }
}

static double asinhSigned(double x)
{
    return x < 0.0 ? -asinhPos(-x) : asinhPos(x);
}

/* sinh(a) / cosh(r), neither overflowing: directly while both are finite,
 * else from exponentials of the difference (|a|, |r| below 1500 here:
 * twice MTWN_MAX_ZOOM_R0 and a progress's overshoot). */
static double sinhOverCosh(double a, double r)
{
    double aa = fabs(a), ar = fabs(r), q;
    if (aa < 700.0 && ar < 700.0) return mcore_sinh(a) / mcore_cosh(r);
    /* sinh|a| / cosh|r| = e^(|a| - |r|) (1 - e^(-2|a|)) / (1 + e^(-2|r|)). */
    q = mcore_exp(aa - ar) * -mcore_expm1(-2.0 * aa) / (1.0 + mcore_exp(-2.0 * ar));
    return a < 0.0 ? -q : q;
}

static bool isViewValid(mtwnZoomView v)
{
    return mtwn_IsFinite(v.x) && mtwn_IsFinite(v.y) && v.width > 0.0 && mtwn_IsFinite(v.width);
}

mtwnResult mtwnMakeZoomMix(mtwnZoomView from, mtwnZoomView to, double rho, mtwnZoomMix* mixOut)
{
    mtwnZoomMix m;
    double dx;
    double dy;
    double d;
    double minW;
    if (mixOut == NULL || !isViewValid(from) || !isViewValid(to) || !(rho >= MTWN_MIN_ZOOM_RHO) ||
        !(rho <= MTWN_MAX_ZOOM_RHO)) {
        return mtwn_errorInvalid;
    }
    dx = to.x - from.x;
    dy = to.y - from.y;
    if (!mtwn_IsFinite(dx) || !mtwn_IsFinite(dy)) return mtwn_errorInvalid;
    d = mcore_hypot(dx, dy);
    if (!mtwn_IsFinite(d)) return mtwn_errorInvalid;
    m.from = from;
    m.to = to;
    m.rho = rho;
    if (mtwnMakeScaleMix(from.width, to.width, &m.scale) != mtwn_success) return mtwn_errorInvalid;
    minW = from.width < to.width ? from.width : to.width;
    if (d <= minW * MTWN_ZOOM_PAN_EPSILON) {
        double l = m.scale.logTo - m.scale.logFrom;
        if (l < 0.0) l = -l;
        m.length = l / rho;
        m.r0 = 0.0;
        m.coshR0 = 1.0;
        m.sinhR0 = 0.0;
        m.panScale = 0.0;
    } else {
        /* The paper's b0 and b1 with every length divided by w0. */
        double W = to.width / from.width;
        double D = d / from.width;
        double rho2 = rho * rho;
        double rho4D2 = rho2 * rho2 * (D * D);
        double ww = W * W - 1.0;
        double b0 = (ww + rho4D2) / (2.0 * rho2 * D);
        double b1 = (ww - rho4D2) / (2.0 * W * rho2 * D);
        double r1;
        /* r = ln(sqrt(b^2 + 1) - b) = -asinh(b), without the cancellation. */
        if (!mtwn_IsFinite(b0) || !mtwn_IsFinite(b1)) return mtwn_errorInvalid;
        m.r0 = -asinhSigned(b0);
        r1 = -asinhSigned(b1);
        m.length = (r1 - m.r0) / rho;
        m.coshR0 = mcore_cosh(m.r0);
        m.sinhR0 = mcore_sinh(m.r0);
        m.panScale = 1.0 / (rho2 * D);
        if (!mtwn_IsFinite(m.length) || !(m.length >= 0.0) || !(m.r0 <= MTWN_MAX_ZOOM_R0) ||
            !(m.r0 >= -MTWN_MAX_ZOOM_R0) || !mtwn_IsFinite(m.coshR0) || !mtwn_IsFinite(m.sinhR0) ||
            !mtwn_IsFinite(m.panScale) || !(m.panScale > 0.0)) {
            return mtwn_errorInvalid;
        }
    }
    *mixOut = m;
    return mtwn_success;
}

static bool isZoomMixValid(const mtwnZoomMix* m)
{
    double dx = m->to.x - m->from.x;
    double dy = m->to.y - m->from.y;
    if (!isViewValid(m->from) || !isViewValid(m->to) || !mtwn_IsFinite(dx) || !mtwn_IsFinite(dy)) return false;
    if (!(m->rho > 0.0) || !mtwn_IsFinite(m->rho) || !mtwn_IsFinite(m->length) || !(m->length >= 0.0)) return false;
    if (!(m->r0 <= MTWN_MAX_ZOOM_R0 && m->r0 >= -MTWN_MAX_ZOOM_R0)) return false;
    if (!mtwn_IsFinite(m->coshR0) || !(m->coshR0 >= 1.0) || !mtwn_IsFinite(m->sinhR0)) return false;
    if (!mtwn_IsFinite(m->panScale) || !(m->panScale >= 0.0)) return false;
    if (m->panScale == 0.0) {
        const mtwnScaleMix* s = &m->scale;
        if (!(s->from > 0.0) || !mtwn_IsFinite(s->from) || !(s->to > 0.0) || !mtwn_IsFinite(s->to) ||
            !mtwn_IsFinite(s->logFrom) || !mtwn_IsFinite(s->logTo)) {
            return false;
        }
        if (s->from != m->from.width || s->to != m->to.width) return false;
    }
    return true;
}

mtwnResult mtwnMixZoom(const mtwnZoomMix* mix, double progress, mtwnZoomView* viewOut)
{
    mtwnZoomView v;
    double dx;
    double dy;
    if (mix == NULL || viewOut == NULL || !mtwn_IsFinite(progress) || !isZoomMixValid(mix)) return mtwn_errorInvalid;
    if (progress == 0.0) {
        *viewOut = mix->from;
        return mtwn_success;
    }
    if (progress == 1.0) {
        *viewOut = mix->to;
        return mtwn_success;
    }
    dx = mix->to.x - mix->from.x;
    dy = mix->to.y - mix->from.y;
    if (mix->panScale == 0.0) {
        double w;
        if (mtwnMixScale(&mix->scale, progress, &w) != mtwn_success) return mtwn_errorInvalid;
        v.x = mix->from.x + dx * progress;
        v.y = mix->from.y + dy * progress;
        v.width = w;
    } else {
        double s = progress * mix->length;
        double a = mix->rho * s; /* r - r0, exactly the product */
        double r = a + mix->r0;
        /* The paper's u = panScale (cosh r0 tanh r - sinh r0) cancels when
         * |r0| is large (a pan small against the widths): the same as
         * panScale sinh(r - r0) / cosh r, which does not. */
        double u = mix->panScale * sinhOverCosh(a, r);
        if (u > DBL_MAX) u = DBL_MAX;
        if (u < -DBL_MAX) u = -DBL_MAX;
        v.x = mix->from.x + dx * u;
        v.y = mix->from.y + dy * u;
        v.width = mix->from.width * (mix->coshR0 / mcore_cosh(r));
    }
    *viewOut = v;
    return mtwn_success;
}

mtwnResult mtwnComputeZoomLength(const mtwnZoomMix* mix, double* lengthOut)
{
    if (mix == NULL || lengthOut == NULL || !isZoomMixValid(mix)) return mtwn_errorInvalid;
    *lengthOut = mix->length;
    return mtwn_success;
}
