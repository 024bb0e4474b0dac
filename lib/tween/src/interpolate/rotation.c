/* Maul Tween: angles, rotations, scales, integers and discrete values
 * (interpolate.h). */
#include <math.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/interpolate/interpolate_internal.h"
#include "maul/tween/interpolate.h"

/* ---- angles ---- */

double mtwn_AngleTurns(double d, mtwnAngleMethod method)
{
    double n = 0.0;
    double m;
    switch (method) {
    case mtwn_angleShorter:
    case mtwn_angleLonger:
        if (d > MTWN_PI) {
            n = -ceil((d - MTWN_PI) / MTWN_TWO_PI);
        } else if (d < -MTWN_PI) {
            n = ceil((-MTWN_PI - d) / MTWN_TWO_PI);
        }
        if (method == mtwn_angleLonger) {
            m = d + n * MTWN_TWO_PI;
            if (m > 0.0 && m < MTWN_PI) {
                n = n - 1.0;
            } else if (m > -MTWN_PI && m <= 0.0) {
                n = n + 1.0;
            }
        }
        return n;
    case mtwn_angleIncreasing:
        n = -floor(d / MTWN_TWO_PI);
        m = d + n * MTWN_TWO_PI;
        if (m >= MTWN_TWO_PI) n = n - 1.0;
        if (d + n * MTWN_TWO_PI < 0.0) n = n + 1.0;
        return n;
    default: /* decreasing */
        n = -ceil(d / MTWN_TWO_PI);
        m = d + n * MTWN_TWO_PI;
        if (m <= -MTWN_TWO_PI) n = n + 1.0;
        if (d + n * MTWN_TWO_PI > 0.0) n = n - 1.0;
        return n;
    }
}

mtwnResult mtwnMixAngle(double from, double to, mtwnAngleMethod method, double progress, double* angleOut)
{
    double d;
    double n;
    double moved;
    if (angleOut == NULL || (uint32_t)method > (uint32_t)mtwn_angleDecreasing || !mtwn_IsFinite(from) ||
        !mtwn_IsFinite(to) || !mtwn_IsFinite(progress)) {
        return mtwn_errorInvalid;
    }
    if (progress == 0.0) {
        *angleOut = from;
        return mtwn_success;
    }
    d = to - from;
    /* A difference past the doubles: the angles are so large that a turn is
     * below their rounding; no turn is added. */
    n = mtwn_IsFinite(d) ? mtwn_AngleTurns(d, method) : 0.0;
    if (n == 0.0) {
        if (progress == 1.0) {
            *angleOut = to;
            return mtwn_success;
        }
        moved = to;
    } else {
        moved = to + n * MTWN_TWO_PI;
    }
    {
        double r = from + (moved - from) * progress;
        if (!mtwn_IsFinite(r)) r = r > 0.0 ? DBL_MAX : -DBL_MAX;
        *angleOut = r;
    }
    return mtwn_success;
}

/* ---- rotations ---- */

bool mtwn_IsQuatValid(mtwnQuat q)
{
    return mtwn_IsFinite(q.x) && mtwn_IsFinite(q.y) && mtwn_IsFinite(q.z) && mtwn_IsFinite(q.w) &&
           (q.x != 0.0f || q.y != 0.0f || q.z != 0.0f || q.w != 0.0f);
}

static void normalizeQuat(mtwnQuat q, double out[4])
{
    double v[4] = {(double)q.x, (double)q.y, (double)q.z, (double)q.w};
    double n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
    double n = sqrt(n2);
    for (int i = 0; i < 4; ++i) out[i] = v[i] / n;
}

static double norm4(const double v[4])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
}

static mtwnQuat quatOfDoubles(const double v[4])
{
    mtwnQuat q;
    q.x = (float)v[0];
    q.y = (float)v[1];
    q.z = (float)v[2];
    q.w = (float)v[3];
    return q;
}

mtwnResult mtwnMakeRotationMix(mtwnQuat from, mtwnQuat to, mtwnRotationPath path, mtwnRotationMix* mixOut)
{
    mtwnRotationMix m;
    double dot;
    double sum[4];
    double diff[4];
    double ns;
    double nd;
    if (mixOut == NULL || (uint32_t)path > (uint32_t)mtwn_rotationLongest || !mtwn_IsQuatValid(from) ||
        !mtwn_IsQuatValid(to)) {
        return mtwn_errorInvalid;
    }
    normalizeQuat(from, m.from);
    normalizeQuat(to, m.to);
    dot = m.from[0] * m.to[0] + m.from[1] * m.to[1] + m.from[2] * m.to[2] + m.from[3] * m.to[3];
    if ((path == mtwn_rotationShortest && dot < 0.0) || (path == mtwn_rotationLongest && dot > 0.0)) {
        for (int i = 0; i < 4; ++i) m.to[i] = -m.to[i];
    }
    for (int i = 0; i < 4; ++i) {
        sum[i] = m.from[i] + m.to[i];
        diff[i] = m.from[i] - m.to[i];
    }
    ns = norm4(sum);
    nd = norm4(diff);
    if (path == mtwn_rotationLongest && ns < MTWN_ROTATION_ANTIPODE_LIMIT) return mtwn_errorInvalid;
    /* The angle between the unit 4-vectors, accurate at both ends. */
    m.angle = 2.0 * mcore_atan2(nd, ns);
    m.fromRotation = quatOfDoubles(m.from);
    m.toRotation = quatOfDoubles(m.to);
    *mixOut = m;
    return mtwn_success;
}

static bool isUnit(const double v[4])
{
    double n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
    double e = n2 - 1.0;
    if (!mtwn_IsFinite(v[0]) || !mtwn_IsFinite(v[1]) || !mtwn_IsFinite(v[2]) || !mtwn_IsFinite(v[3])) return false;
    return e <= 12.0 * 0x1p-53 && e >= -12.0 * 0x1p-53;
}

static bool storedAsFloats(const double v[4], mtwnQuat q)
{
    return q.x == (float)v[0] && q.y == (float)v[1] && q.z == (float)v[2] && q.w == (float)v[3];
}

/* sin(x) / x, 1 at 0. */
static double sinc(double x)
{
    double x2;
    if (x > 0x1p-6 || x < -0x1p-6) return mcore_sin(x) / x;
    x2 = x * x;
    /* Taylor to x^8: the next term is below 2^-60 here. */
    return 1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0)));
}

mtwnResult mtwnMixRotation(const mtwnRotationMix* mix, double progress, mtwnQuat* rotationOut)
{
    double theta;
    double s0;
    double s1;
    double r[4];
    double n;
    if (mix == NULL || rotationOut == NULL || !mtwn_IsFinite(progress) || !isUnit(mix->from) || !isUnit(mix->to) ||
        !storedAsFloats(mix->from, mix->fromRotation) || !storedAsFloats(mix->to, mix->toRotation) ||
        !(mix->angle >= 0.0 && mix->angle <= MTWN_PI)) {
        return mtwn_errorInvalid;
    }
    if (progress == 0.0 || mix->angle == 0.0) {
        *rotationOut = mix->fromRotation;
        return mtwn_success;
    }
    if (progress == 1.0) {
        *rotationOut = mix->toRotation;
        return mtwn_success;
    }
    theta = mix->angle;
    {
        double a = (1.0 - progress) * theta;
        double b = progress * theta;
        double st = sinc(theta);
        if (theta > 0x1p-6) {
            double sinT = mcore_sin(theta);
            s0 = mcore_sin(a) / sinT;
            s1 = mcore_sin(b) / sinT;
        } else {
            s0 = (1.0 - progress) * sinc(a) / st;
            s1 = progress * sinc(b) / st;
        }
    }
    for (int i = 0; i < 4; ++i) r[i] = s0 * mix->from[i] + s1 * mix->to[i];
    /* Slerp is of unit length in exact arithmetic; normalizing removes the
     * rounding (and, for a hand-made mix, any drift) before the floats. */
    n = norm4(r);
    if (!(n > 0.0) || !mtwn_IsFinite(n)) {
        *rotationOut = mix->fromRotation;
        return mtwn_success;
    }
    for (int i = 0; i < 4; ++i) r[i] = r[i] / n;
    *rotationOut = quatOfDoubles(r);
    return mtwn_success;
}

/* ---- scales ---- */

static bool isScale(double s)
{
    return s > 0.0 && mtwn_IsFinite(s);
}

mtwnResult mtwnMakeScaleMix(double from, double to, mtwnScaleMix* mixOut)
{
    mtwnScaleMix m;
    if (mixOut == NULL || !isScale(from) || !isScale(to)) return mtwn_errorInvalid;
    m.from = from;
    m.to = to;
    m.logFrom = mcore_log(from);
    m.logTo = mcore_log(to);
    *mixOut = m;
    return mtwn_success;
}

mtwnResult mtwnMixScale(const mtwnScaleMix* mix, double progress, double* scaleOut)
{
    if (mix == NULL || scaleOut == NULL || !mtwn_IsFinite(progress) || !isScale(mix->from) || !isScale(mix->to) ||
        !mtwn_IsFinite(mix->logFrom) || !mtwn_IsFinite(mix->logTo)) {
        return mtwn_errorInvalid;
    }
    if (progress == 0.0) {
        *scaleOut = mix->from;
    } else if (progress == 1.0) {
        *scaleOut = mix->to;
    } else {
        /* logTo - logFrom is finite (each is within 745 of 0); the product
         * may overflow to an infinity, whose exp is infinity or 0. */
        *scaleOut = mcore_exp(mix->logFrom + (mix->logTo - mix->logFrom) * progress);
    }
    return mtwn_success;
}

/* ---- integers and discrete values ---- */

mtwnResult mtwnMixInteger(int64_t from, int64_t to, double progress, int64_t* valueOut)
{
    double f = (double)from;
    double v;
    if (valueOut == NULL || !mtwn_IsFinite(progress)) return mtwn_errorInvalid;
    if (progress == 0.0) {
        *valueOut = from;
        return mtwn_success;
    }
    if (progress == 1.0) {
        *valueOut = to;
        return mtwn_success;
    }
    v = round(f + ((double)to - f) * progress); /* round: ties away from zero, exact */
    if (v >= 0x1p63) {
        *valueOut = INT64_MAX;
    } else if (v < -0x1p63) {
        *valueOut = INT64_MIN;
    } else {
        *valueOut = (int64_t)v;
    }
    return mtwn_success;
}

mtwnResult mtwnMixDiscrete(uint32_t from, uint32_t to, double progress, uint32_t* valueOut)
{
    if (valueOut == NULL || !mtwn_IsFinite(progress)) return mtwn_errorInvalid;
    *valueOut = progress < 0.5 ? from : to;
    return mtwn_success;
}
