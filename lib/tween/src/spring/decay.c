/* Maul Tween: decay, bounded decay and the rubber band (spring.h). */
#include <math.h>

#include "lib/core/detmath.h"
#include "maul/tween/spring.h"
#include "lib/tween/src/spring/spring_internal.h"

static bool isDecayValid(const mtwnDecay* d)
{
    return d->cookie == MTWN_DECAY_COOKIE && d->reserved == 0 && d->rate > 0.0 && isFiniteD(d->rate);
}

static bool isDecayStartValid(double k, double position, double velocity)
{
    double av = absd(velocity);
    if (!isFiniteD(position) || !isFiniteD(velocity)) return false;
    return absd(position) <= MTWN_MAX_REACH && av <= MTWN_MAX_REACH && av <= MTWN_MAX_REACH * k;
}

static void makeDecay(double k, mtwnDecay* out)
{
    out->cookie = MTWN_DECAY_COOKIE;
    out->reserved = 0;
    out->rate = k;
}

mtwnResult mtwnMakeDecay(double rate, mtwnDecay* decayOut)
{
    if (decayOut == NULL || !(rate > 0.0) || !isFiniteD(rate)) return mtwn_errorInvalid;
    makeDecay(rate, decayOut);
    return mtwn_success;
}

mtwnResult mtwnMakeDecayFromDeceleration(double perMillisecond, mtwnDecay* decayOut)
{
    double k;
    if (decayOut == NULL || !(perMillisecond > 0.0) || !(perMillisecond < 1.0)) return mtwn_errorInvalid;
    k = -1000.0 * mcore_log(perMillisecond);
    if (!(k > 0.0) || !isFiniteD(k)) return mtwn_errorInvalid; /* not reached: k is within 745000 */
    makeDecay(k, decayOut);
    return mtwn_success;
}

static void sampleDecay(double k, double position, double velocity, double seconds, double* p, double* v)
{
    double kt = k * seconds;
    if (!isFiniteD(kt)) {
        *p = position + velocity / k;
        *v = 0.0;
        return;
    }
    *p = position - velocity * mcore_expm1(-kt) / k;
    *v = velocity * mcore_exp(-kt);
}

mtwnResult mtwnSampleDecay(const mtwnDecay* decay, double position, double velocity, double seconds,
                           double* positionOut, double* velocityOut)
{
    double p;
    double v;
    if (decay == NULL || !isDecayValid(decay) || !isDecayStartValid(decay->rate, position, velocity) ||
        !(seconds >= 0.0)) {
        return mtwn_errorInvalid;
    }
    sampleDecay(decay->rate, position, velocity, seconds, &p, &v);
    if (positionOut != NULL) *positionOut = p;
    if (velocityOut != NULL) *velocityOut = v;
    return mtwn_success;
}

static double stopTime(double k, double velocity, double stopSpeed)
{
    double s = absd(velocity);
    if (s <= stopSpeed) return 0.0;
    return (mcore_log(s) - mcore_log(stopSpeed)) / k;
}

mtwnResult mtwnComputeDecayStopTime(const mtwnDecay* decay, double velocity, double stopSpeed, double* secondsOut)
{
    if (decay == NULL || secondsOut == NULL || !isDecayValid(decay) || !isFiniteD(velocity) ||
        absd(velocity) > MTWN_MAX_REACH || !(stopSpeed > 0.0)) {
        return mtwn_errorInvalid;
    }
    *secondsOut = stopTime(decay->rate, velocity, stopSpeed);
    return mtwn_success;
}

static double crossingTime(double k, double position, double velocity, double target)
{
    double d = target - position;
    double rest;
    double f;
    if (d == 0.0) return 0.0;
    if (velocity == 0.0 || (d > 0.0) != (velocity > 0.0)) return INFINITY;
    rest = absd(velocity) / k;
    if (!(absd(d) < rest)) return INFINITY;
    f = absd(d) / rest;
    return -mcore_log1p(-f) / k;
}

mtwnResult mtwnComputeDecayCrossingTime(const mtwnDecay* decay, double position, double velocity, double target,
                                        double* secondsOut)
{
    if (decay == NULL || secondsOut == NULL || !isDecayValid(decay) ||
        !isDecayStartValid(decay->rate, position, velocity) || !isFiniteD(target)) {
        return mtwn_errorInvalid;
    }
    *secondsOut = crossingTime(decay->rate, position, velocity, target);
    return mtwn_success;
}

mtwnResult mtwnMakeDecayToRest(double position, double velocity, double rest, mtwnDecay* decayOut)
{
    double d;
    double k;
    if (decayOut == NULL || !isFiniteD(position) || !isFiniteD(velocity) || !isFiniteD(rest)) {
        return mtwn_errorInvalid;
    }
    d = rest - position;
    if (velocity == 0.0 || d == 0.0 || (d > 0.0) != (velocity > 0.0) || !isFiniteD(d)) return mtwn_errorInvalid;
    k = velocity / d;
    if (!(k > 0.0) || !isFiniteD(k)) return mtwn_errorInvalid;
    makeDecay(k, decayOut);
    return mtwn_success;
}

/* ---- bounded decay ---- */

mtwnResult mtwnMakeBoundedDecay(const mtwnDecay* decay, const mtwnSpring* spring, double lower, double upper,
                                mtwnBoundedDecay* boundedOut)
{
    mtwnBoundedDecay b;
    if (decay == NULL || spring == NULL || boundedOut == NULL || !isDecayValid(decay) ||
        !mtwn_IsSpringValid(spring) || lower != lower || upper != upper || lower > upper || lower == INFINITY ||
        upper == -INFINITY) {
        return mtwn_errorInvalid;
    }
    b.cookie = MTWN_BOUNDED_DECAY_COOKIE;
    b.reserved = 0;
    b.decay = *decay;
    b.spring = *spring;
    b.lower = lower;
    b.upper = upper;
    *boundedOut = b;
    return mtwn_success;
}

static bool isBoundedValid(const mtwnBoundedDecay* b)
{
    return b->cookie == MTWN_BOUNDED_DECAY_COOKIE && b->reserved == 0 && isDecayValid(&b->decay) &&
           mtwn_IsSpringValid(&b->spring) && b->lower == b->lower && b->upper == b->upper && b->lower <= b->upper &&
           b->lower != INFINITY && b->upper != -INFINITY;
}

/* Checks a start; *bound and *offset give the spring's start when it is
 * outside the bounds (returns 1), else returns 0; -1 for a start outside the
 * range. */
static int classifyStart(const mtwnBoundedDecay* b, double position, double velocity, double* bound,
                         double* offset)
{
    if (!isDecayStartValid(b->decay.rate, position, velocity)) return -1;
    if (position < b->lower || position > b->upper) {
        *bound = position < b->lower ? b->lower : b->upper;
        *offset = position - *bound;
        if (!mtwn_IsSpringStartValid(&b->spring, *offset, velocity)) return -1;
        return 1;
    }
    if (!mtwn_IsSpringStartValid(&b->spring, 0.0, velocity)) return -1;
    return 0;
}

mtwnResult mtwnSampleBoundedDecay(const mtwnBoundedDecay* bounded, double position, double velocity,
                                  double seconds, double* positionOut, double* velocityOut)
{
    double bound = 0.0;
    double offset = 0.0;
    double p;
    double v;
    int kind;
    if (bounded == NULL || !isBoundedValid(bounded) || !(seconds >= 0.0)) return mtwn_errorInvalid;
    kind = classifyStart(bounded, position, velocity, &bound, &offset);
    if (kind < 0) return mtwn_errorInvalid;
    if (kind == 1) {
        double x;
        if (mtwn_SampleSpringUnchecked(&bounded->spring, offset, velocity, seconds, &x, &v) != 0) {
            return mtwn_errorInvalid;
        }
        p = bound + x;
    } else {
        double k = bounded->decay.rate;
        double target = velocity > 0.0 ? bounded->upper : bounded->lower;
        double tc = isFiniteD(target) ? crossingTime(k, position, velocity, target) : INFINITY;
        if (velocity == 0.0 || !isFiniteD(tc) || !(seconds >= tc)) {
            sampleDecay(k, position, velocity, seconds, &p, &v);
        } else {
            double vc = velocity * mcore_exp(-(k * tc));
            double x;
            if (mtwn_SampleSpringUnchecked(&bounded->spring, 0.0, vc, seconds - tc, &x, &v) != 0) {
                return mtwn_errorInvalid;
            }
            p = target + x;
        }
    }
    if (positionOut != NULL) *positionOut = p;
    if (velocityOut != NULL) *velocityOut = v;
    return mtwn_success;
}

mtwnResult mtwnComputeBoundedDecayStopTime(const mtwnBoundedDecay* bounded, double position, double velocity,
                                           double offsetTolerance, double stopSpeed, double* secondsOut)
{
    double bound = 0.0;
    double offset = 0.0;
    int kind;
    if (bounded == NULL || secondsOut == NULL || !isBoundedValid(bounded) || !(offsetTolerance > 0.0) ||
        !(stopSpeed > 0.0)) {
        return mtwn_errorInvalid;
    }
    kind = classifyStart(bounded, position, velocity, &bound, &offset);
    if (kind < 0) return mtwn_errorInvalid;
    if (kind == 1) {
        *secondsOut = mtwn_SpringSettlingUnchecked(&bounded->spring, offset, velocity, offsetTolerance, stopSpeed);
    } else {
        double k = bounded->decay.rate;
        double target = velocity > 0.0 ? bounded->upper : bounded->lower;
        double tc = (velocity != 0.0 && isFiniteD(target)) ? crossingTime(k, position, velocity, target) : INFINITY;
        if (!isFiniteD(tc)) {
            *secondsOut = stopTime(k, velocity, stopSpeed);
        } else {
            double vc = velocity * mcore_exp(-(k * tc));
            *secondsOut = tc + mtwn_SpringSettlingUnchecked(&bounded->spring, 0.0, vc, offsetTolerance, stopSpeed);
        }
    }
    return mtwn_success;
}

/* ---- rubber band ---- */

mtwnResult mtwnApplyRubberBand(double distance, double dimension, double coefficient, double* offsetOut)
{
    double y;
    double r;
    if (offsetOut == NULL || !isFiniteD(distance) || !(dimension > 0.0) || !isFiniteD(dimension) ||
        !(coefficient > 0.0) || !isFiniteD(coefficient)) {
        return mtwn_errorInvalid;
    }
    y = coefficient * absd(distance);
    if (y <= dimension) {
        r = y / (1.0 + y / dimension);
    } else {
        r = dimension / (1.0 + dimension / y);
    }
    *offsetOut = distance < 0.0 ? -r : r;
    return mtwn_success;
}

mtwnResult mtwnInvertRubberBand(double offset, double dimension, double coefficient, double* dragOut)
{
    double o = absd(offset);
    double r;
    if (dragOut == NULL || !isFiniteD(offset) || !(dimension > 0.0) || !isFiniteD(dimension) ||
        !(coefficient > 0.0) || !isFiniteD(coefficient) || !(o < dimension)) {
        return mtwn_errorInvalid;
    }
    r = o / (dimension - o) / coefficient * dimension;
    if (!isFiniteD(r)) return mtwn_errorInvalid;
    *dragOut = offset < 0.0 ? -r : r;
    return mtwn_success;
}
