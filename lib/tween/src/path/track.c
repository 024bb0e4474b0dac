/* Maul Tween: tracks (path.h): every value kind over a path. */
#include <math.h>
#include <string.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/interpolate/interpolate_internal.h"
#include "lib/tween/src/path/path_internal.h"
#include "maul/tween/path.h"

static uint32_t channelsOf(uint32_t kind, uint32_t scaleChannels)
{
    switch (kind) {
    case mtwn_valueVec2: return 2;
    case mtwn_valueVec3: return 3;
    case mtwn_valueVec4:
    case mtwn_valueColor:
    case mtwn_valueRotation: return 4;
    case mtwn_valueScale: return scaleChannels;
    default: return 1;
    }
}

static bool needsMixes(uint32_t kind)
{
    return kind == mtwn_valueColor || kind == mtwn_valueRotation || kind == mtwn_valueScale;
}

static bool isDefValid(const mtwnTrackDef* d)
{
    if (d->cookie != MTWN_TRACK_DEF_COOKIE || d->reserved != 0 || d->kind > (uint32_t)mtwn_valueScale) return false;
    if (d->kind == mtwn_valueScale && (d->channels < 1 || d->channels > 3)) return false;
    if (!mtwn_IsColorSpaceKnown(d->colorSpace) || d->hueMethod > (uint32_t)mtwn_hueDecreasing ||
        d->angleMethod > (uint32_t)mtwn_angleDecreasing || d->rotationPath > (uint32_t)mtwn_rotationLongest) {
        return false;
    }
    return d->alpha >= 0.0 && d->alpha <= 1.0;
}

static mtwnColor colorOf(const double v[4])
{
    mtwnColor c;
    c.r = (float)v[0];
    c.g = (float)v[1];
    c.b = (float)v[2];
    c.a = (float)v[3];
    return c;
}

static mtwnQuat quatOf(const double v[4])
{
    mtwnQuat q;
    q.x = (float)v[0];
    q.y = (float)v[1];
    q.z = (float)v[2];
    q.w = (float)v[3];
    return q;
}

static bool isPositive(double v)
{
    return v > 0.0 && mtwn_IsFinite(v);
}

/* Applies the track's change to keyframe i (a copy or the caller's), given
 * the changed keyframe before it (NULL for the first) and the kind of the
 * segment ending at i (or -1). Returns false for a value the kind refuses. */
static bool transform(const mtwnTrackDef* def, uint32_t channels, uint32_t count, mtwnKeyframe* k,
                      const mtwnKeyframe* prev, int kindBefore, bool last)
{
    switch (def->kind) {
    case mtwn_valueAngle:
        if (prev != NULL && mtwn_IsFinite(k->value[0]) && mtwn_IsFinite(prev->value[0])) {
            double d = k->value[0] - prev->value[0];
            double n = mtwn_IsFinite(d) ? mtwn_AngleTurns(d, (mtwnAngleMethod)def->angleMethod) : 0.0;
            if (n != 0.0) {
                double shift = n * MTWN_TWO_PI;
                k->value[0] = k->value[0] + shift;
                k->inControl[0] = k->inControl[0] + shift;
                k->outControl[0] = k->outControl[0] + shift;
            }
        }
        return true;
    case mtwn_valueRotation:
        if (!mtwn_IsQuatValid(quatOf(k->value))) return false;
        if (prev != NULL && def->rotationPath == mtwn_rotationShortest) {
            double dot = k->value[0] * prev->value[0] + k->value[1] * prev->value[1] + k->value[2] * prev->value[2] +
                         k->value[3] * prev->value[3];
            if (dot < 0.0) {
                for (int c = 0; c < 4; ++c) {
                    k->value[c] = -k->value[c];
                    k->inControl[c] = -k->inControl[c];
                    k->outControl[c] = -k->outControl[c];
                }
            }
        }
        return true;
    case mtwn_valueColor:
        return mtwn_IsColorValid(colorOf(k->value));
    case mtwn_valueScale:
        if (count == 1) return isPositive(k->value[0]) && (channels < 2 || isPositive(k->value[1])) &&
                               (channels < 3 || isPositive(k->value[2]));
        for (uint32_t c = 0; c < channels; ++c) {
            if (!isPositive(k->value[c])) return false;
            k->value[c] = mcore_log(k->value[c]);
            if (kindBefore == mtwn_segmentBezier) {
                if (!isPositive(k->inControl[c])) return false;
                k->inControl[c] = mcore_log(k->inControl[c]);
            }
            if (!last && k->kind == mtwn_segmentBezier) {
                if (!isPositive(k->outControl[c])) return false;
                k->outControl[c] = mcore_log(k->outControl[c]);
            }
        }
        return true;
    default:
        return true;
    }
}

mtwnResult mtwnMakeTrack(mtwnKeyframe* keyframes, uint32_t count, const mtwnTrackDef* def, double* lengthsOut,
                         mtwnSegmentMix* mixesOut, mtwnTrack* trackOut)
{
    mtwnKeyframe prev;
    mtwnKeyframe cur;
    uint32_t channels;
    uint32_t kind;
    mtwnTrack t;
    if (keyframes == NULL || def == NULL || trackOut == NULL || !isDefValid(def) || count < 1 ||
        count > MTWN_MAX_PATH_KEYFRAMES) {
        return mtwn_errorInvalid;
    }
    kind = def->kind;
    channels = channelsOf(kind, def->channels);
    if (lengthsOut != NULL &&
        (kind == mtwn_valueColor || kind == mtwn_valueRotation || kind == mtwn_valueDiscrete)) {
        return mtwn_errorInvalid;
    }
    if (needsMixes(kind) && count >= 2 && mixesOut == NULL) return mtwn_errorInvalid;
    /* Pass 1: check everything on copies; nothing is written. */
    for (uint32_t i = 0; i < count; ++i) {
        bool last = i + 1 == count;
        int kindBefore = i > 0 ? (int)keyframes[i - 1].kind : -1;
        cur = keyframes[i];
        if (!last && (kind == mtwn_valueColor || kind == mtwn_valueDiscrete) &&
            cur.kind != mtwn_segmentLinear && cur.kind != mtwn_segmentStep) {
            return mtwn_errorInvalid;
        }
        if (!transform(def, channels, count, &cur, i > 0 ? &prev : NULL, kindBefore, last)) return mtwn_errorInvalid;
        if (!mtwn_IsKeyframeValid(&cur, i > 0 ? &prev : NULL, last, channels)) return mtwn_errorInvalid;
        if (kind == mtwn_valueRotation && i > 0 && prev.kind == mtwn_segmentLinear) {
            mtwnRotationMix m;
            if (mtwnMakeRotationMix(quatOf(prev.value), quatOf(cur.value), (mtwnRotationPath)def->rotationPath, &m) !=
                mtwn_success) {
                return mtwn_errorInvalid;
            }
        }
        prev = cur;
    }
    /* Pass 2: write. Scale mixes come from the values before their logs. */
    if (kind == mtwn_valueScale && count >= 2) {
        for (uint32_t i = 0; i + 1 < count; ++i) {
            memset(&mixesOut[i], 0, sizeof mixesOut[i]);
            for (uint32_t c = 0; c < channels; ++c) {
                if (mtwnMakeScaleMix(keyframes[i].value[c], keyframes[i + 1].value[c], &mixesOut[i].scale[c]) !=
                    mtwn_success) {
                    return mtwn_errorInvalid; /* not reached: checked above */
                }
            }
        }
    }
    for (uint32_t i = 0; i < count; ++i) {
        int kindBefore = i > 0 ? (int)keyframes[i - 1].kind : -1;
        (void)transform(def, channels, count, &keyframes[i], i > 0 ? &keyframes[i - 1] : NULL, kindBefore,
                        i + 1 == count);
    }
    if (count >= 2 && (kind == mtwn_valueColor || kind == mtwn_valueRotation)) {
        for (uint32_t i = 0; i + 1 < count; ++i) {
            mtwnResult r = mtwn_success;
            memset(&mixesOut[i], 0, sizeof mixesOut[i]);
            if (kind == mtwn_valueColor) {
                r = mtwnMakeColorMix(colorOf(keyframes[i].value), colorOf(keyframes[i + 1].value),
                                     (mtwnColorSpace)def->colorSpace, (mtwnHueMethod)def->hueMethod,
                                     &mixesOut[i].color);
            } else if (keyframes[i].kind == mtwn_segmentLinear) {
                r = mtwnMakeRotationMix(quatOf(keyframes[i].value), quatOf(keyframes[i + 1].value),
                                        (mtwnRotationPath)def->rotationPath, &mixesOut[i].rotation);
            }
            if (r != mtwn_success) return mtwn_errorInvalid; /* not reached: checked above */
        }
    }
    t.cookie = MTWN_TRACK_COOKIE;
    t.kind = kind;
    t.mixes = needsMixes(kind) && count >= 2 ? mixesOut : NULL;
    if (mtwnMakePath(keyframes, count, (uint8_t)channels, def->alpha, lengthsOut, &t.path) != mtwn_success) {
        return mtwn_errorInvalid; /* not reached: checked above */
    }
    *trackOut = t;
    return mtwn_success;
}

static void normalized(const double v[4], double out[4])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    for (int c = 0; c < 4; ++c) out[c] = n > 0.0 ? v[c] / n : (c == 3 ? 1.0 : 0.0);
}

static mtwnVec4 vecOf(const double v[4])
{
    mtwnVec4 r;
    r.x = mtwn_ToFloatHeld(v[0]);
    r.y = mtwn_ToFloatHeld(v[1]);
    r.z = mtwn_ToFloatHeld(v[2]);
    r.w = mtwn_ToFloatHeld(v[3]);
    return r;
}

mtwnResult mtwnSampleTrack(const mtwnTrack* track, double progress, mtwnVec4* valueOut)
{
    return mtwn_SampleTrackNoting(track, progress, valueOut, NULL);
}

static mtwnResult sampleTrack(const mtwnTrack* track, double progress, mtwnVec4* valueOut, bool* metNaN, bool checked)
{
    uint32_t i = 0;
    double u = 0.0;
    mtwn_Cubic q;
    double v[4] = {0.0, 0.0, 0.0, 0.0};
    const mtwnKeyframe* k;
    uint32_t kind;
    uint32_t channels;
    int r;
    if (track == NULL || valueOut == NULL || !mtwn_IsFinite(progress) || track->cookie != MTWN_TRACK_COOKIE ||
        track->kind > (uint32_t)mtwn_valueScale) {
        return mtwn_errorInvalid;
    }
    kind = track->kind;
    channels = track->path.channels;
    if (channels != channelsOf(kind, channels) || (kind == mtwn_valueScale && channels > 3)) return mtwn_errorInvalid;
    r = checked ? mtwn_PathLocate(&track->path, progress, &i, &u, &q, metNaN)
                : mtwn_PathLocateValid(&track->path, progress, &i, &u, &q, metNaN);
    if (r < 0) return mtwn_errorInvalid;
    k = track->path.keyframes;
    if (r == 1) {
        for (uint32_t c = 0; c < channels; ++c) v[c] = k[0].value[c];
        if (kind == mtwn_valueRotation) normalized(k[0].value, v);
        if (kind == mtwn_valueInteger) v[0] = round(v[0]);
        *valueOut = vecOf(v);
        return mtwn_success;
    }
    if (needsMixes(kind) && track->mixes == NULL) return mtwn_errorInvalid;
    switch (kind) {
    case mtwn_valueInteger:
        mtwn_CubicValue(&q, u, v);
        v[0] = round(v[0]);
        break;
    case mtwn_valueDiscrete: {
        double edge = q.kind == mtwn_segmentLinear ? 0.5 : 1.0;
        v[0] = u < edge ? k[i].value[0] : k[i + 1].value[0];
        break;
    }
    case mtwn_valueColor: {
        const mtwnColorMix* m = &track->mixes[i].color;
        mtwnColor c;
        if (q.kind == mtwn_segmentLinear) {
            if (mtwnMixColor(m, u, &c) != mtwn_success) return mtwn_errorInvalid;
        } else {
            c = u < 1.0 ? m->from : m->to;
            if (!mtwn_IsColorValid(c)) return mtwn_errorInvalid;
        }
        valueOut->x = c.r;
        valueOut->y = c.g;
        valueOut->z = c.b;
        valueOut->w = c.a;
        return mtwn_success;
    }
    case mtwn_valueRotation:
        if (q.kind == mtwn_segmentLinear) {
            mtwnQuat out;
            if (mtwnMixRotation(&track->mixes[i].rotation, u, &out) != mtwn_success) return mtwn_errorInvalid;
            valueOut->x = out.x;
            valueOut->y = out.y;
            valueOut->z = out.z;
            valueOut->w = out.w;
            return mtwn_success;
        } else {
            double raw[4];
            mtwn_CubicValue(&q, u, raw);
            for (int c = 0; c < 4; ++c) {
                if (!mtwn_IsFinite(raw[c])) raw[c] = raw[c] > 0.0 ? DBL_MAX * 0x1p-2 : -DBL_MAX * 0x1p-2;
            }
            {
                double m = 0.0;
                for (int c = 0; c < 4; ++c) {
                    double a = raw[c] < 0.0 ? -raw[c] : raw[c];
                    if (a > m) m = a;
                }
                if (m == 0.0) {
                    normalized(k[i].value, v);
                } else {
                    for (int c = 0; c < 4; ++c) raw[c] = raw[c] / m;
                    normalized(raw, v);
                }
            }
        }
        break;
    case mtwn_valueScale:
        for (uint32_t c = 0; c < channels; ++c) {
            const mtwnScaleMix* m = &track->mixes[i].scale[c];
            double s;
            if (q.kind == mtwn_segmentLinear) {
                if (mtwnMixScale(m, u, &s) != mtwn_success) return mtwn_errorInvalid;
            } else if (q.kind == mtwn_segmentStep || q.kind == MTWN_PATH_HOLD) {
                s = u < 1.0 ? m->from : m->to;
                if (q.kind == MTWN_PATH_HOLD) s = m->from;
            } else if (u == 0.0) {
                s = m->from;
            } else if (u == 1.0) {
                s = m->to;
            } else {
                double lv[4];
                mtwn_CubicValue(&q, u, lv);
                s = mcore_exp(lv[c] > DBL_MAX ? DBL_MAX : (lv[c] < -DBL_MAX ? -DBL_MAX : lv[c]));
            }
            if (!(s >= 0.0)) return mtwn_errorInvalid;
            v[c] = s;
        }
        break;
    default:
        mtwn_CubicValue(&q, u, v);
        break;
    }
    for (uint32_t c = channels; c < 4; ++c) v[c] = 0.0;
    for (int c = 0; c < 4; ++c) {
        if (v[c] != v[c]) v[c] = 0.0;
    }
    *valueOut = vecOf(v);
    return mtwn_success;
}

mtwnResult mtwn_SampleTrackNoting(const mtwnTrack* track, double progress, mtwnVec4* valueOut, bool* metNaN)
{
    return sampleTrack(track, progress, valueOut, metNaN, true);
}

mtwnResult mtwn_SampleValidTrackNoting(const mtwnTrack* track, double progress, mtwnVec4* valueOut, bool* metNaN)
{
    return sampleTrack(track, progress, valueOut, metNaN, false);
}
