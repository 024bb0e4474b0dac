/* Maul Tween: paths (path.h): segments as cubics, arc length, constant
 * speed, directions. docs/internals/path.md. */
#include <math.h>

#include "lib/core/detmath.h"
#include "lib/tween/src/easing/easing_internal.h"
#include "lib/tween/src/path/path_internal.h"
#include "maul/tween/path.h"

static bool isFiniteD(double v)
{
    return v - v == 0.0;
}

static bool inRange(double v)
{
    return v >= -MTWN_MAX_PATH_VALUE && v <= MTWN_MAX_PATH_VALUE;
}

/* ---- validation ---- */

bool mtwn_IsKeyframeValid(const mtwnKeyframe* k, const mtwnKeyframe* prev, bool last, uint32_t channels)
{
    if (!isFiniteD(k->offset)) return false;
    if (prev != NULL && !(k->offset >= prev->offset)) return false;
    if (k->kind > (uint32_t)mtwn_segmentCatmullRom || k->reserved != 0) return false;
    for (uint32_t c = 0; c < channels; ++c) {
        if (!inRange(k->value[c]) || !inRange(k->inControl[c]) || !inRange(k->outControl[c])) return false;
    }
    if (!last && !mtwn_IsEasingValid(&k->easing)) return false;
    return true;
}

static bool isPathHeaderValid(const mtwnPath* p)
{
    return p->cookie == MTWN_PATH_COOKIE && p->reserved == 0 && p->count >= 1 &&
           p->count <= MTWN_MAX_PATH_KEYFRAMES && p->channels >= 1 && p->channels <= 4 && p->alpha >= 0.0 &&
           p->alpha <= 1.0 && p->keyframes != NULL;
}

/* ---- segment cubics ---- */

static const double* pointOf(const mtwnKeyframe* k)
{
    return k->value;
}

/* The cubic of segment i (0 <= i < count - 1); returns its kind, with
 * mtwn_PathHold for a Catmull-Rom segment whose ends coincide. */
int mtwn_SegmentCubic(const mtwnPath* path, uint32_t i, mtwn_Cubic* out)
{
    const mtwnKeyframe* k = path->keyframes;
    const double* p1 = pointOf(&k[i]);
    const double* p2 = pointOf(&k[i + 1]);
    uint32_t n = path->channels;
    uint32_t kind = k[i].kind;
    out->channels = n;
    for (uint32_t c = 0; c < 4; ++c) {
        out->p0[c] = c < n ? p1[c] : 0.0;
        out->p1[c] = c < n ? p2[c] : 0.0;
        out->c[0][c] = out->p0[c];
        out->c[1][c] = 0.0;
        out->c[2][c] = 0.0;
        out->c[3][c] = 0.0;
    }
    out->kind = (int)kind;
    if (kind == mtwn_segmentLinear) {
        for (uint32_t c = 0; c < n; ++c) out->c[1][c] = p2[c] - p1[c];
    } else if (kind == mtwn_segmentBezier) {
        const double* a = k[i].outControl;
        const double* b = k[i + 1].inControl;
        for (uint32_t c = 0; c < n; ++c) {
            out->c[1][c] = 3.0 * (a[c] - p1[c]);
            out->c[2][c] = 3.0 * ((b[c] - a[c]) - (a[c] - p1[c]));
            out->c[3][c] = (p2[c] - p1[c]) + 3.0 * (a[c] - b[c]);
        }
    } else if (kind == mtwn_segmentCatmullRom) {
        double p0[4];
        double p3[4];
        double d0 = 0.0;
        double d1 = 0.0;
        double d2 = 0.0;
        double h = path->alpha * 0.5;
        double t0;
        double t1;
        double t2;
        for (uint32_t c = 0; c < n; ++c) {
            p0[c] = i > 0 ? pointOf(&k[i - 1])[c] : 2.0 * p1[c] - p2[c];
            p3[c] = i + 2 < path->count ? pointOf(&k[i + 2])[c] : 2.0 * p2[c] - p1[c];
        }
        for (uint32_t c = 0; c < n; ++c) {
            double a = p1[c] - p0[c];
            double b = p2[c] - p1[c];
            double e = p3[c] - p2[c];
            d0 = d0 + a * a;
            d1 = d1 + b * b;
            d2 = d2 + e * e;
        }
        if (d1 == 0.0) {
            out->kind = MTWN_PATH_HOLD;
            return out->kind;
        }
        t1 = mcore_pow(d1, h);
        t0 = d0 == 0.0 ? t1 : mcore_pow(d0, h);
        t2 = d2 == 0.0 ? t1 : mcore_pow(d2, h);
        for (uint32_t c = 0; c < n; ++c) {
            double m1 = ((p1[c] - p0[c]) / t0 - (p2[c] - p0[c]) / (t0 + t1) + (p2[c] - p1[c]) / t1) * t1;
            double m2 = ((p2[c] - p1[c]) / t1 - (p3[c] - p1[c]) / (t1 + t2) + (p3[c] - p2[c]) / t2) * t1;
            out->c[1][c] = m1;
            out->c[2][c] = 3.0 * (p2[c] - p1[c]) - 2.0 * m1 - m2;
            out->c[3][c] = 2.0 * (p1[c] - p2[c]) + m1 + m2;
        }
    }
    return out->kind;
}

void mtwn_CubicValue(const mtwn_Cubic* q, double u, double out[4])
{
    for (uint32_t c = 0; c < 4; ++c) {
        if (c >= q->channels) {
            out[c] = 0.0;
        } else if (q->kind == mtwn_segmentStep) {
            out[c] = u < 1.0 ? q->p0[c] : q->p1[c];
        } else if (q->kind == MTWN_PATH_HOLD || u == 0.0) {
            out[c] = q->p0[c];
        } else if (u == 1.0) {
            out[c] = q->p1[c];
        } else {
            out[c] = ((q->c[3][c] * u + q->c[2][c]) * u + q->c[1][c]) * u + q->c[0][c];
        }
    }
}

/* The k-th derivative (1 to 3) at u. */
static void cubicDerivative(const mtwn_Cubic* q, int order, double u, double out[4])
{
    for (uint32_t c = 0; c < 4; ++c) {
        double v = 0.0;
        if (c < q->channels && q->kind != mtwn_segmentStep && q->kind != MTWN_PATH_HOLD) {
            if (order == 1) {
                v = (3.0 * q->c[3][c] * u + 2.0 * q->c[2][c]) * u + q->c[1][c];
            } else if (order == 2) {
                v = 6.0 * q->c[3][c] * u + 2.0 * q->c[2][c];
            } else {
                v = 6.0 * q->c[3][c];
            }
        }
        out[c] = v;
    }
}

static double norm(const double v[4])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
}

static double speedAt(const mtwn_Cubic* q, double u)
{
    double d[4];
    cubicDerivative(q, 1, u, d);
    return norm(d);
}

/* Whether a segment has a length (SVG 2: not of zero length). */
static bool hasLength(const mtwn_Cubic* q)
{
    if (q->kind == mtwn_segmentStep || q->kind == MTWN_PATH_HOLD) return false;
    for (uint32_t c = 0; c < q->channels; ++c) {
        if (q->c[1][c] != 0.0 || q->c[2][c] != 0.0 || q->c[3][c] != 0.0) return true;
    }
    return false;
}

/* ---- arc length ---- */

static const double kGaussX[5] = {0.0, 0.5384693101056831, -0.5384693101056831, 0.9061798459386640,
                                  -0.9061798459386640};
static const double kGaussW[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                                  0.2369268850561891, 0.2369268850561891};

static double gauss(const mtwn_Cubic* q, double a, double b)
{
    double h = (b - a) * 0.5;
    double m = a + h;
    double s = 0.0;
    for (int i = 0; i < 5; ++i) s = s + kGaussW[i] * speedAt(q, m + h * kGaussX[i]);
    return s * h;
}

static double adaptive(const mtwn_Cubic* q, double a, double b, double whole, double tol, int depth)
{
    double m = a + (b - a) * 0.5;
    double l = gauss(q, a, m);
    double r = gauss(q, m, b);
    double diff = (l + r) - whole;
    if (depth <= 0 || (diff <= tol && diff >= -tol)) return l + r;
    return adaptive(q, a, m, l, tol * 0.5, depth - 1) + adaptive(q, m, b, r, tol * 0.5, depth - 1);
}

/* The control polygon's length, a bound on the curve's, for tolerances. */
static double polygonScale(const mtwn_Cubic* q)
{
    double s = 0.0;
    for (int k = 1; k < 4; ++k) {
        double v[4];
        for (uint32_t c = 0; c < 4; ++c) v[c] = q->c[k][c];
        s = s + norm(v);
    }
    return s;
}

/* The arc length from a to b (signed: negative for b < a). */
static double arcLength(const mtwn_Cubic* q, double a, double b)
{
    double tol;
    if (!hasLength(q) || a == b) return 0.0;
    if (q->kind == mtwn_segmentLinear) return speedAt(q, 0.0) * (b - a);
    tol = MTWN_PATH_LENGTH_TOLERANCE * 0.25 * polygonScale(q) * (b > a ? b - a : a - b);
    return adaptive(q, a, b, gauss(q, a, b), tol, 40);
}

double mtwn_SegmentLength(const mtwn_Cubic* q)
{
    return arcLength(q, 0.0, 1.0);
}

/* The parameter at arc length r into a segment of length len > 0. */
static double invertArc(const mtwn_Cubic* q, double r, double len)
{
    double lo = 0.0;
    double hi = 1.0;
    double u;
    double A;
    double tol = MTWN_PATH_LENGTH_TOLERANCE * len;
    if (q->kind == mtwn_segmentLinear) return r / len;
    if (r <= 0.0) {
        double s = speedAt(q, 0.0);
        return s > 0.0 ? r / s : 0.0;
    }
    if (r >= len) {
        double s = speedAt(q, 1.0);
        return s > 0.0 ? 1.0 + (r - len) / s : 1.0;
    }
    u = r / len;
    A = arcLength(q, 0.0, u);
    for (int i = 0; i < 100; ++i) {
        double err = A - r;
        double s;
        double un;
        if (err <= tol && err >= -tol) break;
        if (err > 0.0) {
            hi = u;
        } else {
            lo = u;
        }
        s = speedAt(q, u);
        un = s > 0.0 ? u - err / s : lo;
        if (!(un > lo && un < hi)) un = lo + (hi - lo) * 0.5;
        if (un == u) break;
        A = A + arcLength(q, u, un);
        u = un;
    }
    return u;
}

/* ---- locating a progress ---- */

/* The last keyframe whose key (offset or length) is at or below x, within
 * [0, count - 2] (the first or last segment extended past the ends). */
static uint32_t findSegment(const mtwnPath* p, double x)
{
    uint32_t lo = 0;
    uint32_t hi = p->count - 1; /* invariant: key[lo] <= x or lo == 0 */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        double key = p->lengths != NULL ? p->lengths[mid] : p->keyframes[mid].offset;
        if (key <= x) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    {
        double key = p->lengths != NULL ? p->lengths[hi] : p->keyframes[hi].offset;
        if (key <= x) lo = hi;
    }
    if (lo > p->count - 2) lo = p->count - 2;
    return lo;
}

static bool isSegmentValid(const mtwnPath* p, uint32_t i)
{
    const mtwnKeyframe* k = p->keyframes;
    if (!mtwn_IsKeyframeValid(&k[i], i > 0 ? &k[i - 1] : NULL, false, p->channels)) return false;
    if (!mtwn_IsKeyframeValid(&k[i + 1], &k[i], true, p->channels)) return false;
    if (k[i].kind == mtwn_segmentCatmullRom) {
        if (i > 0 && !mtwn_IsKeyframeValid(&k[i - 1], NULL, true, p->channels)) return false;
        if (i + 2 < p->count && !mtwn_IsKeyframeValid(&k[i + 2], &k[i + 1], true, p->channels)) return false;
    }
    if (p->lengths != NULL) {
        double a = p->lengths[i];
        double b = p->lengths[i + 1];
        if (!(a >= 0.0) || !isFiniteD(b) || !(b >= a)) return false;
        if (!(p->lengths[p->count - 1] >= 0.0) || !isFiniteD(p->lengths[p->count - 1])) return false;
    }
    return true;
}

/* mtwn_PathLocate; with checked false the keyframes are taken as valid (a
 * sealed clip's, validated when they were added and never changed since):
 * the same arithmetic, without the per-sample validation. */
static int locate(const mtwnPath* path, double progress, uint32_t* segmentOut, double* uOut, mtwn_Cubic* cubic,
                  bool* metNaN, bool checked)
{
    uint32_t i;
    double u;
    if (!isPathHeaderValid(path)) return -1;
    if (path->count == 1) {
        if (checked && !mtwn_IsKeyframeValid(&path->keyframes[0], NULL, true, path->channels)) return -1;
        *segmentOut = 0;
        *uOut = 0.0;
        return 1;
    }
    if (path->lengths != NULL) {
        double total = path->lengths[path->count - 1];
        double s;
        double len;
        if (!(total >= 0.0) || !isFiniteD(total) || path->lengths[0] != 0.0) return -1;
        s = progress * total;
        i = findSegment(path, s);
        if (checked && !isSegmentValid(path, i)) return -1;
        mtwn_SegmentCubic(path, i, cubic);
        len = path->lengths[i + 1] - path->lengths[i];
        if (!(len > 0.0) || !hasLength(cubic)) {
            u = s < path->lengths[i + 1] ? 0.0 : 1.0;
            if (cubic->kind == mtwn_segmentStep && s >= path->lengths[i + 1]) u = 1.0;
        } else {
            u = invertArc(cubic, s - path->lengths[i], len);
        }
    } else {
        const mtwnKeyframe* k = path->keyframes;
        double o0;
        double o1;
        double local;
        i = findSegment(path, progress);
        if (checked && !isSegmentValid(path, i)) return -1;
        o0 = k[i].offset;
        o1 = k[i + 1].offset;
        if (o1 > o0) {
            local = (progress - o0) / (o1 - o0);
            if (!isFiniteD(local)) local = local > 0.0 ? DBL_MAX : -DBL_MAX;
        } else {
            local = progress >= o1 ? 1.0 : 0.0;
        }
        u = mtwn_SampleEasingUnchecked(&k[i].easing, local, false, metNaN);
        if (u != u) u = local;
        if (!isFiniteD(u)) u = u > 0.0 ? DBL_MAX : -DBL_MAX;
        mtwn_SegmentCubic(path, i, cubic);
    }
    *segmentOut = i;
    *uOut = u;
    return 0;
}

int mtwn_PathLocate(const mtwnPath* path, double progress, uint32_t* segmentOut, double* uOut, mtwn_Cubic* cubic,
                    bool* metNaN)
{
    return locate(path, progress, segmentOut, uOut, cubic, metNaN, true);
}

int mtwn_PathLocateValid(const mtwnPath* path, double progress, uint32_t* segmentOut, double* uOut, mtwn_Cubic* cubic,
                         bool* metNaN)
{
    return locate(path, progress, segmentOut, uOut, cubic, metNaN, false);
}

/* Values past the doubles (a cubic continued far past its ends) are held at
 * the largest finite double; never NaN. */
static void holdVec(double v[4])
{
    for (int c = 0; c < 4; ++c) {
        if (v[c] != v[c]) v[c] = 0.0;
        if (v[c] > DBL_MAX) v[c] = DBL_MAX;
        if (v[c] < -DBL_MAX) v[c] = -DBL_MAX;
    }
}

mtwnResult mtwnMakePath(const mtwnKeyframe* keyframes, uint32_t count, uint8_t channels, double alpha,
                        double* lengthsOut, mtwnPath* pathOut)
{
    mtwnPath p;
    if (keyframes == NULL || pathOut == NULL || count < 1 || count > MTWN_MAX_PATH_KEYFRAMES || channels < 1 ||
        channels > 4 || !(alpha >= 0.0) || !(alpha <= 1.0)) {
        return mtwn_errorInvalid;
    }
    for (uint32_t i = 0; i < count; ++i) {
        if (!mtwn_IsKeyframeValid(&keyframes[i], i > 0 ? &keyframes[i - 1] : NULL, i + 1 == count, channels)) {
            return mtwn_errorInvalid;
        }
    }
    p.cookie = MTWN_PATH_COOKIE;
    p.count = count;
    p.channels = channels;
    p.reserved = 0;
    p.alpha = alpha;
    p.keyframes = keyframes;
    p.lengths = NULL;
    if (lengthsOut != NULL) {
        double total = 0.0;
        lengthsOut[0] = 0.0;
        for (uint32_t i = 0; i + 1 < count; ++i) {
            mtwn_Cubic q;
            mtwn_SegmentCubic(&p, i, &q);
            total = total + mtwn_SegmentLength(&q);
            lengthsOut[i + 1] = total;
        }
        p.lengths = lengthsOut;
    }
    *pathOut = p;
    return mtwn_success;
}

mtwnResult mtwnSamplePath(const mtwnPath* path, double progress, double valueOut[4], double tangentOut[4])
{
    uint32_t i;
    double u;
    mtwn_Cubic q;
    double v[4];
    double t[4] = {0.0, 0.0, 0.0, 0.0};
    int r;
    if (path == NULL || valueOut == NULL || !isFiniteD(progress)) return mtwn_errorInvalid;
    r = mtwn_PathLocate(path, progress, &i, &u, &q, NULL);
    if (r < 0) return mtwn_errorInvalid;
    if (r == 1) {
        for (uint32_t c = 0; c < 4; ++c) v[c] = c < path->channels ? path->keyframes[0].value[c] : 0.0;
    } else {
        mtwn_CubicValue(&q, u, v);
        cubicDerivative(&q, 1, u, t);
    }
    holdVec(v);
    holdVec(t);
    for (int c = 0; c < 4; ++c) valueOut[c] = v[c];
    if (tangentOut != NULL) {
        for (int c = 0; c < 4; ++c) tangentOut[c] = t[c];
    }
    return mtwn_success;
}

/* The unit direction of a segment with a length at u: the first non-zero
 * derivative. Returns false if all three are 0. */
static bool directionAt(const mtwn_Cubic* q, double u, double out[4])
{
    for (int order = 1; order <= 3; ++order) {
        double d[4];
        double m = 0.0;
        double n;
        cubicDerivative(q, order, u, d);
        holdVec(d);
        for (int c = 0; c < 4; ++c) {
            double a = d[c] < 0.0 ? -d[c] : d[c];
            if (a > m) m = a;
        }
        if (m == 0.0) continue;
        for (int c = 0; c < 4; ++c) d[c] = d[c] / m; /* scaled: no overflow in the squares */
        n = norm(d);
        for (int c = 0; c < 4; ++c) out[c] = d[c] / n;
        return true;
    }
    return false;
}

mtwnResult mtwnComputePathDirection(const mtwnPath* path, double progress, double directionOut[4])
{
    uint32_t i;
    double u;
    mtwn_Cubic q;
    double d[4] = {1.0, 0.0, 0.0, 0.0};
    int r;
    if (path == NULL || directionOut == NULL || !isFiniteD(progress)) return mtwn_errorInvalid;
    r = mtwn_PathLocate(path, progress, &i, &u, &q, NULL);
    if (r < 0) return mtwn_errorInvalid;
    if (r == 0) {
        bool found = false;
        if (hasLength(&q)) {
            found = directionAt(&q, u, d);
        }
        if (!found) {
            /* The nearest segment after it with a length, at its start; else
             * the nearest before it, at its end. */
            for (uint32_t j = i + 1; j + 1 < path->count && !found; ++j) {
                mtwn_Cubic other;
                if (!isSegmentValid(path, j)) return mtwn_errorInvalid;
                mtwn_SegmentCubic(path, j, &other);
                if (hasLength(&other)) found = directionAt(&other, 0.0, d);
            }
            for (uint32_t j = i; j > 0 && !found; --j) {
                mtwn_Cubic other;
                if (!isSegmentValid(path, j - 1)) return mtwn_errorInvalid;
                mtwn_SegmentCubic(path, j - 1, &other);
                if (hasLength(&other)) found = directionAt(&other, 1.0, d);
            }
            if (!found) {
                d[0] = 1.0;
                d[1] = 0.0;
                d[2] = 0.0;
                d[3] = 0.0;
            }
        }
    }
    for (uint32_t c = 0; c < 4; ++c) directionOut[c] = c < path->channels ? d[c] : 0.0;
    return mtwn_success;
}

mtwnResult mtwnComputePathAngle(const mtwnPath* path, double progress, double* angleOut)
{
    double d[4];
    mtwnResult r;
    if (angleOut == NULL) return mtwn_errorInvalid;
    r = mtwnComputePathDirection(path, progress, d);
    if (r != mtwn_success) return r;
    *angleOut = mcore_atan2(d[1], d[0]);
    return mtwn_success;
}
