/* Maul Tween: transitions (transition.h): making, sampling and measuring
 * them; their slots, ids and ends are lifetime.c's. */
#include <math.h>
#include <string.h>

#include "context_internal.h"
#include "lib/core/detmath.h"
#include "../easing/easing_internal.h"
#include "../interpolate/interpolate_internal.h"

static uint32_t channelsOf(uint32_t kind)
{
    switch (kind) {
    case mtwn_valueVec2: return 2u;
    case mtwn_valueVec3: return 3u;
    case mtwn_valueVec4: return 4u;
    case mtwn_valueColor: return 4u;
    case mtwn_valueRotation: return 4u;
    case mtwn_valueScale: return 3u;
    default: return 1u;
    }
}

static void toDoubles(mtwnVec4 v, double out[4])
{
    out[0] = (double)v.x;
    out[1] = (double)v.y;
    out[2] = (double)v.z;
    out[3] = (double)v.w;
}

/* A value of a kind from doubles per channel: held within the floats,
 * integers rounded, channels past the kind 0. */
static mtwnVec4 fromDoubles(uint32_t kind, const double v[4])
{
    float f[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    uint32_t n = channelsOf(kind);
    for (uint32_t i = 0; i < n; ++i) {
        double x = kind == mtwn_valueInteger ? mtwn_RoundAway(v[i]) : v[i];
        f[i] = mtwn_ToFloatHeld(x);
    }
    mtwnVec4 r = {f[0], f[1], f[2], f[3]};
    return r;
}

static bool isProgressKind(uint32_t kind)
{
    return kind == mtwn_valueColor || kind == mtwn_valueRotation || kind == mtwn_valueScale;
}

/* A color, rotation or scale at a progress of its mix. */
static mtwnVec4 mixAt(const mtwn_Player* p, double q)
{
    mtwnVec4 r = {0.0f, 0.0f, 0.0f, 0.0f};
    if (p->valueKind == mtwn_valueColor) {
        mtwnColor c;
        if (mtwnMixColor(&p->mix.color, q, &c) == mtwn_success) {
            r.x = c.r;
            r.y = c.g;
            r.z = c.b;
            r.w = c.a;
        }
    } else if (p->valueKind == mtwn_valueRotation) {
        mtwnQuat c;
        if (mtwnMixRotation(&p->mix.rotation, q, &c) == mtwn_success) {
            r.x = c.x;
            r.y = c.y;
            r.z = c.z;
            r.w = c.w;
        }
    } else {
        double s[4] = {0.0, 0.0, 0.0, 0.0};
        for (uint32_t i = 0; i < 3u; ++i) {
            if (mtwnMixScale(&p->mix.scale[i], q, &s[i]) != mtwn_success) s[i] = p->mix.scale[i].from;
        }
        r = fromDoubles(mtwn_valueScale, s);
    }
    return r;
}

/* The decay's position of channel i after t seconds of motion. */
static double decayAt(const mtwn_Player* p, uint32_t i, double t)
{
    double x = p->from[i];
    if (p->decayEnd == mtwn_decayBounded) {
        if (mtwnSampleBoundedDecay(&p->bounded, p->from[i], p->vel[i], t, &x, NULL) != mtwn_success) x = p->from[i];
    } else if (p->decay[i].cookie == MTWN_DECAY_COOKIE) {
        if (mtwnSampleDecay(&p->decay[i], p->from[i], p->vel[i], t, &x, NULL) != mtwn_success) x = p->from[i];
    }
    return x;
}

/* The value t seconds into the motion (after the delay), t below its end. */
static mtwnVec4 motionAt(const mtwn_Player* p, double t, bool* metNaN)
{
    double v[4] = {0.0, 0.0, 0.0, 0.0};
    uint32_t n = p->channels;
    if (p->kind == mtwn_transitionEasing) {
        double e = mtwn_SampleEasingUnchecked(&p->easing, t / p->duration, false, metNaN);
        if (isProgressKind(p->valueKind)) return mixAt(p, e);
        if (p->valueKind == mtwn_valueDiscrete) return e < 0.5 ? p->startValue : p->endValue;
        for (uint32_t i = 0; i < n; ++i) v[i] = p->from[i] + (p->to[i] - p->from[i]) * e;
        return fromDoubles(p->valueKind, v);
    }
    if (p->kind == mtwn_transitionSpring) {
        if (isProgressKind(p->valueKind)) {
            double x = -1.0;
            if (mtwnSampleSpring(&p->spring, -1.0, p->progressVelocity, t, &x, NULL) != mtwn_success) x = -1.0;
            return mixAt(p, 1.0 + x);
        }
        for (uint32_t i = 0; i < n; ++i) {
            double x = p->from[i] - p->to[i];
            if (mtwnSampleSpring(&p->spring, p->from[i] - p->to[i], p->vel[i], t, &x, NULL) != mtwn_success)
                x = p->from[i] - p->to[i];
            v[i] = p->to[i] + x;
        }
        return fromDoubles(p->valueKind, v);
    }
    for (uint32_t i = 0; i < n; ++i) v[i] = decayAt(p, i, t);
    if (p->valueKind == mtwn_valueScale) {
        for (uint32_t i = 0; i < n; ++i) v[i] = mcore_exp(v[i]);
    }
    return fromDoubles(p->valueKind, v);
}

mtwnVec4 mtwn_SampleTransition(const mtwn_Player* p, double seconds, bool* metNaN)
{
    double t = seconds - p->delay;
    if (!(t > 0.0)) return p->startValue;
    if (t >= p->duration) return p->endValue;
    return motionAt(p, t, metNaN);
}

mtwnVec4 mtwn_TransitionVelocity(const mtwn_Player* p, double seconds)
{
    double h = 0.001;
    double earlier = seconds - h;
    mtwnVec4 r = {0.0f, 0.0f, 0.0f, 0.0f};
    if (earlier < 0.0) {
        earlier = 0.0;
        h = seconds;
    }
    if (!(h > 0.0)) return r;
    {
        mtwnVec4 a = mtwn_SampleTransition(p, earlier, NULL);
        mtwnVec4 b = mtwn_SampleTransition(p, seconds, NULL);
        double d[4];
        d[0] = ((double)b.x - (double)a.x) / h;
        d[1] = ((double)b.y - (double)a.y) / h;
        d[2] = ((double)b.z - (double)a.z) / h;
        d[3] = ((double)b.w - (double)a.w) / h;
        r.x = mtwn_ToFloatHeld(d[0]);
        r.y = mtwn_ToFloatHeld(d[1]);
        r.z = mtwn_ToFloatHeld(d[2]);
        r.w = mtwn_ToFloatHeld(d[3]);
    }
    return r;
}

/* -- Players ---------------------------------------------------------------------- */

/* -- Starting ---------------------------------------------------------------------- */

static bool isKnownKinds(const mtwnTransitionDef* d)
{
    return d->kind <= (uint32_t)mtwn_transitionDecay && d->velocitySource <= (uint32_t)mtwn_velocityZero &&
           d->decayEnd <= (uint32_t)mtwn_decayLanding && mtwn_IsColorSpaceKnown(d->colorSpace) &&
           d->hueMethod <= (uint32_t)mtwn_hueDecreasing && d->angleMethod <= (uint32_t)mtwn_angleDecreasing &&
           d->rotationPath <= (uint32_t)mtwn_rotationLongest && d->essential <= 1u && d->reserved == 0u;
}

static bool isTime(double s)
{
    return s >= 0.0 && s <= MTWN_MAX_TRANSITION_SECONDS;
}

static bool isTolerance(double s)
{
    return s > 0.0 && mtwn_IsFinite(s);
}

/* The target's velocity now: the transition writing it, at the last update. */
static void targetVelocity(const mtwnContext* context, const mtwn_Target* t, double out[4])
{
    out[0] = out[1] = out[2] = out[3] = 0.0;
    if (t->writer != 0u) {
        const mtwn_Player* w = &context->players[t->writer - 1u];
        if (w->started && context->lastNs >= w->startNs) {
            mtwnVec4 v = mtwn_TransitionVelocity(w, (double)(context->lastNs - w->startNs) * 1e-9);
            toDoubles(v, out);
        }
    }
}

/* Checks a linear() easing's points as its maker left them: finite, inputs
 * never falling. */
static bool arePointsOrdered(const mtwnEasing* e)
{
    if (e->kind != mtwn_easingLinearPoints) return true;
    if (e->points == NULL) return false;
    for (uint32_t i = 0; i < e->count; ++i) {
        if (!mtwn_IsFinite(e->points[i].input) || !mtwn_IsFinite(e->points[i].output)) return false;
        if (i > 0u && e->points[i].input < e->points[i - 1u].input) return false;
    }
    return true;
}

/* Fills a player from a def and the target's state; mtwn_success or the
 * refusal. Reads nothing of the context but the pool slot it is given. */
static mtwnResult makeTransition(const mtwnTransitionDef* d, const mtwn_Target* t, const double velocity[4],
                                 mtwnLinearPoint* pool, uint32_t poolCount, mtwn_Player* p)
{
    uint32_t kind = t->kind;
    uint32_t n = channelsOf(kind);
    mtwnVec4 end;
    double v[4];
    if (!mtwn_IsValueValid(kind, d->value, &end)) return mtwn_errorInvalid;
    if (!isTime(d->delay) || !isTolerance(d->restOffset) || !isTolerance(d->restVelocity)) return mtwn_errorInvalid;
    memset(p, 0, sizeof(*p));
    p->kind = (uint8_t)d->kind;
    p->essential = (uint8_t)d->essential;
    p->valueKind = kind;
    p->channels = n;
    p->decayEnd = d->decayEnd;
    p->delay = d->delay;
    p->restOffset = d->restOffset;
    p->restVelocity = d->restVelocity;
    p->lower = d->lower;
    p->upper = d->upper;
    p->startValue = t->value;
    p->endValue = end;
    toDoubles(t->value, p->from);
    toDoubles(end, p->to);
    if (d->velocitySource == mtwn_velocityGiven) {
        toDoubles(d->velocity, v);
        for (uint32_t i = 0; i < 4u; ++i)
            if (!mtwn_IsFinite(v[i]) || fabs(v[i]) > MTWN_MAX_REACH) return mtwn_errorInvalid;
    } else if (d->velocitySource == mtwn_velocityTarget) {
        memcpy(v, velocity, sizeof(v));
    } else {
        v[0] = v[1] = v[2] = v[3] = 0.0;
    }
    for (uint32_t i = n; i < 4u; ++i) v[i] = 0.0;
    memcpy(p->vel, v, sizeof(v));
    if (kind == mtwn_valueAngle) {
        double turns = mtwn_AngleTurns(p->to[0] - p->from[0], (mtwnAngleMethod)d->angleMethod);
        p->to[0] = p->to[0] + turns * MTWN_TWO_PI;
        p->endValue.x = mtwn_ToFloatHeld(p->to[0]);
    }
    /* The mixes. */
    if (kind == mtwn_valueColor) {
        mtwnColor a = {t->value.x, t->value.y, t->value.z, t->value.w};
        mtwnColor b = {end.x, end.y, end.z, end.w};
        if (mtwnMakeColorMix(a, b, (mtwnColorSpace)d->colorSpace, (mtwnHueMethod)d->hueMethod, &p->mix.color) !=
            mtwn_success)
            return mtwn_errorInvalid;
    } else if (kind == mtwn_valueRotation) {
        mtwnQuat a = {t->value.x, t->value.y, t->value.z, t->value.w};
        mtwnQuat b = {end.x, end.y, end.z, end.w};
        if (mtwnMakeRotationMix(a, b, (mtwnRotationPath)d->rotationPath, &p->mix.rotation) != mtwn_success)
            return mtwn_errorInvalid;
        p->endValue.x = p->mix.rotation.toRotation.x;
        p->endValue.y = p->mix.rotation.toRotation.y;
        p->endValue.z = p->mix.rotation.toRotation.z;
        p->endValue.w = p->mix.rotation.toRotation.w;
    } else if (kind == mtwn_valueScale) {
        for (uint32_t i = 0; i < 3u; ++i)
            if (mtwnMakeScaleMix(p->from[i], p->to[i], &p->mix.scale[i]) != mtwn_success) return mtwn_errorInvalid;
    }
    if (d->kind == mtwn_transitionEasing) {
        if (!isTime(d->duration) || !mtwn_IsEasingValid(&d->easing)) return mtwn_errorInvalid;
        p->duration = d->duration;
        p->easing = d->easing;
        if (d->easing.kind == mtwn_easingLinearPoints) {
            if (!arePointsOrdered(&d->easing)) return mtwn_errorInvalid;
            if (d->easing.count > poolCount) return mtwn_errorCapacity;
            memcpy(pool, d->easing.points, (size_t)d->easing.count * sizeof(mtwnLinearPoint));
            p->easing.points = pool;
        }
        return mtwn_success;
    }
    if (kind == mtwn_valueDiscrete) return mtwn_errorInvalid;
    if (d->kind == mtwn_transitionSpring) {
        double settle = 0.0;
        if (isProgressKind(kind)) {
            /* The start velocity projected on the end minus the start, as the
             * progress's (scales: over the logarithms). */
            double num = 0.0, den = 0.0;
            for (uint32_t i = 0; i < n; ++i) {
                double dv, dd;
                if (kind == mtwn_valueScale) {
                    dd = p->mix.scale[i].logTo - p->mix.scale[i].logFrom;
                    dv = v[i] / p->from[i];
                } else {
                    dd = p->to[i] - p->from[i];
                    dv = v[i];
                }
                num += dv * dd;
                den += dd * dd;
            }
            p->progressVelocity = den > 0.0 ? num / den : 0.0;
            if (!mtwn_IsFinite(p->progressVelocity)) return mtwn_errorInvalid;
            if (mtwnComputeSpringSettlingTime(&d->spring, -1.0, p->progressVelocity, d->restOffset, d->restVelocity,
                                              &settle) != mtwn_success)
                return mtwn_errorInvalid;
        } else {
            for (uint32_t i = 0; i < n; ++i) {
                double s;
                if (mtwnComputeSpringSettlingTime(&d->spring, p->from[i] - p->to[i], v[i], d->restOffset,
                                                  d->restVelocity, &s) != mtwn_success)
                    return mtwn_errorInvalid;
                if (s > settle) settle = s;
            }
        }
        p->spring = d->spring;
        p->duration = settle;
        return mtwn_success;
    }
    /* Decays. */
    if (kind == mtwn_valueColor || kind == mtwn_valueRotation) return mtwn_errorInvalid;
    {
        double lower = d->lower, upper = d->upper, stop = 0.0;
        if (kind == mtwn_valueScale) {
            for (uint32_t i = 0; i < n; ++i) {
                v[i] = v[i] / p->from[i];
                p->from[i] = p->mix.scale[i].logFrom;
                p->to[i] = p->mix.scale[i].logTo;
            }
            memcpy(p->vel, v, sizeof(v));
            if (d->decayEnd == mtwn_decayBounded) {
                /* A scale's bound not above 0 is refused (the reference): 0
                 * has no logarithm, and is no "none" for a scale. */
                if (!(lower > 0.0) || !(upper > 0.0)) return mtwn_errorInvalid;
                lower = mcore_log(lower);
                upper = upper == INFINITY ? INFINITY : mcore_log(upper);
            }
        }
        if (d->decayEnd == mtwn_decayBounded) {
            if (mtwnMakeBoundedDecay(&d->decay, &d->spring, lower, upper, &p->bounded) != mtwn_success)
                return mtwn_errorInvalid;
            p->lower = lower;
            p->upper = upper;
        }
        for (uint32_t i = 0; i < n; ++i) {
            double s = 0.0;
            mtwnResult r;
            if (d->decayEnd == mtwn_decayLanding) {
                if (p->from[i] == p->to[i] && v[i] == 0.0) continue; /* a channel already there */
                if (mtwnMakeDecayToRest(p->from[i], v[i], p->to[i], &p->decay[i]) != mtwn_success)
                    return mtwn_errorInvalid;
                r = mtwnComputeDecayStopTime(&p->decay[i], v[i], d->restVelocity, &s);
            } else if (d->decayEnd == mtwn_decayBounded) {
                r = mtwnComputeBoundedDecayStopTime(&p->bounded, p->from[i], v[i], d->restOffset, d->restVelocity,
                                                    &s);
            } else {
                p->decay[i] = d->decay;
                r = mtwnComputeDecayStopTime(&d->decay, v[i], d->restVelocity, &s);
                if (r == mtwn_success && mtwnSampleDecay(&d->decay, p->from[i], v[i], 0.0, NULL, NULL) != mtwn_success)
                    r = mtwn_errorInvalid;
            }
            if (r != mtwn_success) return mtwn_errorInvalid;
            if (s > stop) stop = s;
        }
        p->duration = stop;
        /* The end: where it stopped; a landing's value; a bounded one's bound
         * when its coast would have passed one. */
        if (d->decayEnd != mtwn_decayLanding) {
            double e[4] = {0.0, 0.0, 0.0, 0.0};
            for (uint32_t i = 0; i < n; ++i) {
                e[i] = decayAt(p, i, stop);
                if (d->decayEnd == mtwn_decayBounded) {
                    double rest = p->from[i] + v[i] / d->decay.rate;
                    if (p->from[i] < lower || rest < lower) e[i] = lower;
                    if (p->from[i] > upper || rest > upper) e[i] = upper;
                }
                if (kind == mtwn_valueScale) e[i] = mcore_exp(e[i]);
            }
            p->endValue = fromDoubles(kind, e);
            if (kind == mtwn_valueScale && !(p->endValue.x > 0.0f && p->endValue.y > 0.0f && p->endValue.z > 0.0f &&
                                             mtwn_IsFinite(p->endValue.x) && mtwn_IsFinite(p->endValue.y) &&
                                             mtwn_IsFinite(p->endValue.z)))
                return mtwn_errorInvalid;
        }
        return mtwn_success;
    }
}

mtwnResult mtwnStartTransition(mtwnContext* context, const mtwnTransitionDef* def, mtwnPlayerId* playerOut)
{
    mtwn_Target* t;
    mtwn_Player tmp;
    double velocity[4];
    uint32_t slot;
    mtwnResult r;
    mtwn_Player* p;
    bool replacing;
    MTWN_ENTER(context);
    if (def == NULL || playerOut == NULL || def->cookie != MTWN_TRANSITION_DEF_COOKIE || !isKnownKinds(def)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    t = mtwn_FindTarget(context, def->target);
    if (t == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    context->busy += 1u; /* the velocity may run a host easing */
    targetVelocity(context, t, velocity);
    context->busy -= 1u;
    /* A replacement takes the slot of the transition it replaces (its id goes
     * stale by the generation); otherwise a free or fresh slot. makeTransition
     * copies linear() points into the slot's pool only as its last step, on
     * success, so a refusal leaves the replaced transition's points as they
     * were. */
    replacing = t->writer != 0u && context->players[t->writer - 1u].generation != UINT32_MAX;
    if (replacing) {
        slot = t->writer - 1u;
    } else if (!mtwn_PeekPlayerSlot(context, &slot)) {
        return mtwn_errorCapacity;
    }
    r = makeTransition(def, t, velocity, context->points + (uint64_t)slot * context->def.pointsPerTransition,
                       context->def.pointsPerTransition, &tmp);
    if (r != mtwn_success) {
        if (r == mtwn_errorInvalid) mtwn_Misuse(context);
        return r;
    }
    if (t->writer != 0u && !replacing) {
        context->players[t->writer - 1u].alive = 0u; /* retired: its generation is spent */
        t->writer = 0u;
    }
    if (replacing)
        t->writer = 0u;
    else
        mtwn_TakePlayerSlot(context, slot);
    p = &context->players[slot];
    mtwn_RenewPlayer(p, &tmp);
    p->started = 0u;
    p->target = def->target.index;
    t->writer = slot + 1u;
    *playerOut = mtwn_PlacePlayer(context, slot);
    return mtwn_success;
}

/* -- Measuring ------------------------------------------------------------------------ */

mtwnResult mtwnContext_MeasureTransition(const mtwnContext* context, const mtwnTransitionDef* def,
                                         double* distanceOut)
{
    const mtwn_Target* t;
    mtwnVec4 end;
    double a[4], b[4], sum = 0.0;
    uint32_t kind;
    if (context == NULL) return mtwn_errorInvalid;
    if (context->groupsRunning != 0u) {
        mtwn_Misuse(context);
        return mtwn_errorBusy;
    }
    if (def == NULL || distanceOut == NULL || def->cookie != MTWN_TRANSITION_DEF_COOKIE ||
        def->angleMethod > (uint32_t)mtwn_angleDecreasing || def->rotationPath > (uint32_t)mtwn_rotationLongest) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    t = mtwn_FindTarget(context, def->target);
    if (t == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    kind = t->kind;
    if (kind == mtwn_valueDiscrete || !mtwn_IsValueValid(kind, def->value, &end)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    toDoubles(t->value, a);
    toDoubles(end, b);
    switch (kind) {
    case mtwn_valueAngle: {
        double d = b[0] - a[0];
        sum = fabs(d + mtwn_AngleTurns(d, (mtwnAngleMethod)def->angleMethod) * MTWN_TWO_PI);
        break;
    }
    case mtwn_valueRotation: {
        mtwnRotationMix m;
        mtwnQuat qa = {t->value.x, t->value.y, t->value.z, t->value.w};
        mtwnQuat qb = {end.x, end.y, end.z, end.w};
        if (mtwnMakeRotationMix(qa, qb, (mtwnRotationPath)def->rotationPath, &m) != mtwn_success) {
            mtwn_Misuse(context);
            return mtwn_errorInvalid;
        }
        sum = 2.0 * m.angle;
        break;
    }
    case mtwn_valueScale:
        for (uint32_t i = 0; i < 3u; ++i) {
            double l = mcore_log(b[i] / a[i]);
            sum += l * l;
        }
        sum = sqrt(sum);
        break;
    case mtwn_valueColor: {
        double ca[4], cb[4];
        mtwnColor x = {t->value.x, t->value.y, t->value.z, t->value.w};
        mtwnColor y = {end.x, end.y, end.z, end.w};
        if (mtwnConvertColorToSpace(x, mtwn_colorOklab, ca) != mtwn_success ||
            mtwnConvertColorToSpace(y, mtwn_colorOklab, cb) != mtwn_success) {
            mtwn_Misuse(context);
            return mtwn_errorInvalid;
        }
        for (uint32_t i = 0; i < 4u; ++i) sum += (cb[i] - ca[i]) * (cb[i] - ca[i]);
        sum = sqrt(sum);
        break;
    }
    default:
        for (uint32_t i = 0; i < channelsOf(kind); ++i) sum += (b[i] - a[i]) * (b[i] - a[i]);
        sum = sqrt(sum);
        break;
    }
    *distanceOut = sum;
    return mtwn_success;
}
