/* Maul Tween: springs in closed form, their settling time and easing
 * (spring.h). The formulas are the header's; docs/internals/spring.md has
 * the derivations and the settling bounds. */
#include <math.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/easing/easing_internal.h"
#include "maul/tween/spring.h"
#include "lib/tween/src/spring/spring_internal.h"

#define TWO_PI 6.283185307179586

/* Past this exponent, e^-x is 0 in binary64 (e^-745.14 is below half the
 * least subnormal): every sample past it is exactly at rest. */
#define UNDERFLOW_EXPONENT 746.0

bool mtwn_IsSpringValid(const mtwnSpring* s)
{
    return s->cookie == MTWN_SPRING_COOKIE && s->reserved == 0 && s->omega >= MTWN_MIN_SPRING_OMEGA &&
           s->omega < MTWN_MAX_SPRING_OMEGA && s->zeta >= 0.0 && s->zeta <= MTWN_MAX_DAMPING_RATIO;
}

static bool isStartValid(double omega, double offset, double velocity)
{
    double ax = absd(offset);
    double av = absd(velocity);
    if (!isFiniteD(offset) || !isFiniteD(velocity)) return false;
    return ax <= MTWN_MAX_REACH && av <= MTWN_MAX_REACH && av <= MTWN_MAX_REACH * omega &&
           omega * ax <= MTWN_MAX_REACH;
}

bool mtwn_IsSpringStartValid(const mtwnSpring* s, double offset, double velocity)
{
    return isStartValid(s->omega, offset, velocity);
}

/* C and S of the header at a finite tau >= 0. */
static void springCS(double zeta, double tau, double* C, double* S)
{
    if (zeta < 1.0) {
        double q = sqrt((1.0 - zeta) * (1.0 + zeta));
        double e = mcore_exp(-(zeta * tau));
        double sn;
        double cs;
        mcore_sincos(q * tau, &sn, &cs);
        *C = e * cs;
        *S = e * (sn / q);
    } else if (zeta == 1.0) {
        double e = mcore_exp(-tau);
        *C = e;
        *S = e * tau;
    } else {
        double q = sqrt((zeta - 1.0) * (zeta + 1.0));
        double ea = mcore_exp(-(tau / (zeta + q)));
        double g = -mcore_expm1(-(2.0 * q * tau));
        *C = ea * (1.0 - g * 0.5);
        *S = ea * (g / (2.0 * q));
    }
}

/* tau for a time, or -1 for a time outside the range: NaN, negative, or an
 * infinite tau for an undamped spring. */
static double tauOf(const mtwnSpring* s, double seconds)
{
    double tau;
    if (!(seconds >= 0.0)) return -1.0;
    tau = s->omega * seconds;
    if (!isFiniteD(tau) && s->zeta == 0.0) return -1.0;
    return tau;
}

mtwnResult mtwnMakeSpring(double stiffness, double damping, double mass, mtwnSpring* springOut)
{
    mtwnSpring s;
    if (springOut == NULL || !(stiffness > 0.0) || !isFiniteD(stiffness) || !(mass > 0.0) || !isFiniteD(mass) ||
        !(damping >= 0.0) || !isFiniteD(damping)) {
        return mtwn_errorInvalid;
    }
    s.cookie = MTWN_SPRING_COOKIE;
    s.reserved = 0;
    s.omega = sqrt(stiffness / mass);
    s.zeta = damping / (2.0 * sqrt(stiffness) * sqrt(mass));
    if (!mtwn_IsSpringValid(&s)) return mtwn_errorInvalid;
    *springOut = s;
    return mtwn_success;
}

mtwnResult mtwnMakeSpringFromFrequency(double hertz, double dampingRatio, mtwnSpring* springOut)
{
    mtwnSpring s;
    if (springOut == NULL || !(hertz > 0.0) || !isFiniteD(hertz)) return mtwn_errorInvalid;
    s.cookie = MTWN_SPRING_COOKIE;
    s.reserved = 0;
    s.omega = TWO_PI * hertz;
    s.zeta = dampingRatio;
    if (!mtwn_IsSpringValid(&s)) return mtwn_errorInvalid;
    *springOut = s;
    return mtwn_success;
}

mtwnResult mtwnMakeSpringFromDuration(double duration, double bounce, mtwnSpring* springOut)
{
    mtwnSpring s;
    if (springOut == NULL || !(duration > 0.0) || !isFiniteD(duration) || !(bounce <= 1.0) || !(bounce > -1.0)) {
        return mtwn_errorInvalid;
    }
    s.cookie = MTWN_SPRING_COOKIE;
    s.reserved = 0;
    s.omega = TWO_PI / duration;
    s.zeta = bounce >= 0.0 ? 1.0 - bounce : 1.0 / (1.0 + bounce);
    if (!mtwn_IsSpringValid(&s)) return mtwn_errorInvalid;
    *springOut = s;
    return mtwn_success;
}

mtwnResult mtwnComputeSpringMotion(const mtwnSpring* spring, double seconds, mtwnSpringMotion* motionOut)
{
    mtwnSpringMotion m;
    double tau;
    double C;
    double S;
    if (spring == NULL || motionOut == NULL || !mtwn_IsSpringValid(spring)) return mtwn_errorInvalid;
    tau = tauOf(spring, seconds);
    if (tau < 0.0) return mtwn_errorInvalid;
    if (!isFiniteD(tau)) {
        C = 0.0;
        S = 0.0;
    } else {
        springCS(spring->zeta, tau, &C, &S);
    }
    m.offsetFromOffset = C + spring->zeta * S;
    m.offsetFromVelocity = S / spring->omega;
    m.velocityFromOffset = -(spring->omega * S);
    m.velocityFromVelocity = C - spring->zeta * S;
    *motionOut = m;
    return mtwn_success;
}

/* Returns 0, or -1 for a time outside the range. The start is valid. */
int mtwn_SampleSpringUnchecked(const mtwnSpring* s, double offset, double velocity, double seconds, double* x,
                               double* v)
{
    double tau = tauOf(s, seconds);
    double C;
    double S;
    if (tau < 0.0) return -1;
    if (!isFiniteD(tau)) {
        *x = 0.0;
        *v = 0.0;
        return 0;
    }
    springCS(s->zeta, tau, &C, &S);
    *x = offset * C + (velocity / s->omega + s->zeta * offset) * S;
    *v = velocity * C - (s->zeta * velocity + s->omega * offset) * S;
    return 0;
}

mtwnResult mtwnSampleSpring(const mtwnSpring* spring, double offset, double velocity, double seconds,
                            double* offsetOut, double* velocityOut)
{
    double x;
    double v;
    if (spring == NULL || !mtwn_IsSpringValid(spring) || !isStartValid(spring->omega, offset, velocity)) {
        return mtwn_errorInvalid;
    }
    if (mtwn_SampleSpringUnchecked(spring, offset, velocity, seconds, &x, &v) != 0) return mtwn_errorInvalid;
    if (offsetOut != NULL) *offsetOut = x;
    if (velocityOut != NULL) *velocityOut = v;
    return mtwn_success;
}

/* ---- settling ---- */

/* The least u >= 0 (in units of the decay rate: u = lambda tau) after which
 * (a + beta u) e^-u stays at or below tol (tol > 0 finite, a, beta >= 0
 * finite), found from above by u <- ln(a + beta u) - ln(tol), which falls
 * monotonically to the largest root of the concave side. */
static double linearExpRoot(double a, double beta, double tol)
{
    double peak;
    double u;
    double lt = mcore_log(tol);
    if (beta == 0.0) {
        if (a <= tol) return 0.0;
        return mcore_log(a) - lt;
    }
    /* The curve rises to u* = 1 - a / beta, then falls. */
    peak = 1.0 - a / beta;
    if (peak <= 0.0) {
        if (a <= tol) return 0.0;
    } else if ((a + beta * peak) * mcore_exp(-peak) <= tol * (1.0 - 0x1p-40)) {
        return 0.0;
    }
    /* Start above the root: (a + beta u) e^-u <= (a + 2 beta / e) e^(-u/2). */
    u = 2.0 * (mcore_log(a + beta * 0.7357588823428847) - lt);
    if (u < 1.0) u = 1.0;
    if (u < peak) u = peak;
    for (int i = 0; i < 200; ++i) {
        double next = mcore_log(a + beta * u) - lt;
        if (!(next < u)) break;
        u = next;
    }
    /* Stay on the falling side, and above the last rounding of the log. */
    if (u < peak) u = peak;
    return u * (1.0 + 0x1p-44) + 0x1p-40;
}

/* The tau after which e^(-lambda tau) (a + b min(tau, K)) stays within tol
 * (tol finite above 0). K may be infinite (critical). */
static double settleTau(double a, double b, double lambda, double K, double tol)
{
    double best = INFINITY;
    if (isFiniteD(K)) {
        double m = a + b * K;
        best = m <= tol ? 0.0 : (mcore_log(m) - mcore_log(tol)) / lambda * (1.0 + 0x1p-44);
    }
    {
        double beta = b / lambda;
        if (isFiniteD(beta)) {
            double u = linearExpRoot(a, beta, tol) / lambda;
            if (u < best) best = u;
        }
    }
    return best;
}

double mtwn_SpringSettlingUnchecked(const mtwnSpring* s, double offset, double velocity, double offsetTolerance,
                                    double velocityTolerance)
{
    double zeta = s->zeta;
    double omega = s->omega;
    double lambda;
    double K;
    double ax = absd(offset);
    double bx = absd(velocity / omega + zeta * offset);
    double av = absd(velocity);
    double bv = absd(zeta * velocity + omega * offset);
    double tauCap;
    double tau = 0.0;
    double t;
    double tols[2] = {offsetTolerance, velocityTolerance};
    double as[2] = {ax, av};
    double bs[2] = {bx, bv};
    if (zeta < 1.0) {
        double q = sqrt((1.0 - zeta) * (1.0 + zeta));
        lambda = zeta;
        K = 1.0 / q;
    } else if (zeta == 1.0) {
        lambda = 1.0;
        K = INFINITY;
    } else {
        double q = sqrt((zeta - 1.0) * (zeta + 1.0));
        lambda = 1.0 / (zeta + q);
        K = 1.0 / (2.0 * q);
    }
    if (lambda == 0.0) {
        /* Undamped: |x| <= |x0| + |B| and |v| <= |v0| + |b| for ever. */
        for (int i = 0; i < 2; ++i) {
            double tol = tols[i] / (1.0 + 0x1p-40) - 0x1p-1070;
            if (!(as[i] + bs[i] <= tol)) return INFINITY;
        }
        return 0.0;
    }
    tauCap = UNDERFLOW_EXPONENT / lambda;
    for (int i = 0; i < 2; ++i) {
        double kc = K < tauCap ? K : tauCap;
        /* The sample's rounding: a relative 2^-40 and, once its exponential
         * is subnormal, an absolute 2^-1074 of it times each term. */
        double margin = as[i] * 0x1p-1072 + (bs[i] * 0x1p-1072) * kc + 0x1p-1070;
        double tol = tols[i] / (1.0 + 0x1p-40) - margin;
        double ti;
        if (tols[i] == INFINITY) continue;
        if (!(tol > 0.0)) {
            ti = tauCap;
        } else {
            ti = settleTau(as[i], bs[i], lambda, K, tol);
            if (ti > tauCap) ti = tauCap;
        }
        if (ti > tau) tau = ti;
    }
    if (tau == 0.0) return 0.0;
    t = tau / omega;
    if (isFiniteD(t)) {
        while (omega * t < tau) t = nextafter(t, INFINITY);
    }
    return t;
}

mtwnResult mtwnComputeSpringSettlingTime(const mtwnSpring* spring, double offset, double velocity,
                                         double offsetTolerance, double velocityTolerance, double* secondsOut)
{
    if (spring == NULL || secondsOut == NULL || !mtwn_IsSpringValid(spring) ||
        !isStartValid(spring->omega, offset, velocity) || !(offsetTolerance > 0.0) || !(velocityTolerance > 0.0)) {
        return mtwn_errorInvalid;
    }
    *secondsOut = mtwn_SpringSettlingUnchecked(spring, offset, velocity, offsetTolerance, velocityTolerance);
    return mtwn_success;
}

/* ---- the spring easing ---- */

/* 1 + x(tau) for the start (-1, u0 omega), u0 = v0 / omega. */
static double easingValue(double zeta, double u0, double tau)
{
    double C;
    double S;
    springCS(zeta, tau, &C, &S);
    return 1.0 + (-C + (u0 - zeta) * S);
}

/* The spring easing's range checks, shared by its maker and
 * mtwn_IsSpringEasingValid, on the params the maker writes: tauD (omega
 * times the duration, [0]), zeta ([1]), u0 (velocity / omega, [2]) and den
 * (1 + x(duration), [3]). */
static bool springEasingInRange(double tauD, double zeta, double u0, double den)
{
    double K;
    double bound;
    /* A spring's damping ratio (mtwn_IsSpringValid); tauD above 0 and below
     * 2^512 (its square finite); u0 a start's (isStartValid with the offset
     * -1: |velocity| <= MTWN_MAX_REACH omega gives |u0| <= MTWN_MAX_REACH). */
    if (!(zeta >= 0.0 && zeta <= MTWN_MAX_DAMPING_RATIO)) return false;
    if (!(tauD > 0.0 && tauD < MTWN_MAX_SPRING_OMEGA)) return false;
    if (!isFiniteD(u0) || absd(u0) > MTWN_MAX_REACH) return false;
    if (zeta < 1.0) {
        double q = sqrt((1.0 - zeta) * (1.0 + zeta));
        /* Damped period 2 pi / (omega q) below duration 2^-10. */
        if (q * tauD > TWO_PI / MTWN_MIN_SPRING_EASING_PERIOD) return false;
        K = 1.0 / q;
    } else if (zeta == 1.0) {
        K = INFINITY;
    } else {
        K = 1.0 / (2.0 * sqrt((zeta - 1.0) * (zeta + 1.0)));
    }
    if (den == 0.0 || !isFiniteD(den)) return false;
    /* |1 + x| <= 2 + |u0 - zeta| min(tau, K) over the duration. */
    bound = 2.0 + absd(u0 - zeta) * (tauD < K ? tauD : K);
    return isFiniteD(bound / absd(den) * (1.0 + 0x1p-40));
}

bool mtwn_IsSpringEasingValid(const mtwnEasing* easing)
{
    const double* q = easing->params;
    for (int i = 4; i < MTWN_EASING_PARAM_COUNT; ++i)
        if (q[i] != 0.0) return false;
    return springEasingInRange(q[0], q[1], q[2], q[3]);
}

mtwnResult mtwnMakeSpringEasing(const mtwnSpring* spring, double duration, double velocity, mtwnEaseMode mode,
                                mtwnEasing* easingOut)
{
    mtwnEasing e;
    double tauD;
    double zeta;
    double u0;
    double den;
    if (spring == NULL || easingOut == NULL || !mtwn_IsSpringValid(spring) || (uint32_t)mode > 3u ||
        !(duration > 0.0) || !isFiniteD(duration) || !isStartValid(spring->omega, -1.0, velocity)) {
        return mtwn_errorInvalid;
    }
    zeta = spring->zeta;
    tauD = spring->omega * duration;
    /* springEasingInRange's checks on tauD and zeta come before den is
     * computed (an oscillation too fast for the fit is refused first). */
    if (!springEasingInRange(tauD, zeta, 0.0, 1.0)) return mtwn_errorInvalid;
    u0 = velocity / spring->omega;
    den = easingValue(zeta, u0, tauD);
    if (!springEasingInRange(tauD, zeta, u0, den)) return mtwn_errorInvalid;
    e.cookie = MTWN_EASING_COOKIE;
    e.kind = (uint32_t)mtwn_easingSpring;
    e.mode = (uint32_t)mode;
    e.variant = 0;
    e.count = 0;
    e.reserved = 0;
    for (int i = 0; i < MTWN_EASING_PARAM_COUNT; ++i) e.params[i] = 0.0;
    e.params[0] = tauD;
    e.params[1] = zeta;
    e.params[2] = u0;
    e.params[3] = den;
    e.points = NULL;
    e.function = NULL;
    e.context = NULL;
    *easingOut = e;
    return mtwn_success;
}

double mtwn_SampleSpringEasing(const mtwnEasing* easing, double p)
{
    const double* q = easing->params;
    double r;
    if (!(p > 0.0)) return 0.0;
    if (!(p < 1.0)) return 1.0;
    /* easing.c refuses params outside mtwn_IsSpringEasingValid's ranges;
     * this guard is kept so that the curve never gives NaN whatever it is
     * handed (anything else a maker would not write samples as linear). */
    if (!(q[0] > 0.0 && q[0] < MTWN_MAX_SPRING_OMEGA) || !(q[1] >= 0.0 && q[1] <= MTWN_MAX_DAMPING_RATIO) ||
        !isFiniteD(q[2]) || absd(q[2]) > MTWN_MAX_REACH || q[3] == 0.0 || !isFiniteD(q[3])) {
        return p;
    }
    r = easingValue(q[1], q[2], p * q[0]) / q[3];
    if (r > DBL_MAX) return DBL_MAX;
    if (r < -DBL_MAX) return -DBL_MAX;
    if (r != r) return p;
    return r;
}
