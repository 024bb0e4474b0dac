/* FBX AnimationCurve records (fbx_build_internal.h, "clips"): keys read as
 * ufbx reads them and evaluated as it evaluates them.
 *
 * A curve's KeyTime (KTime ticks, 46186158000 a second) and KeyValueFloat
 * are parallel; KeyAttrFlags and KeyAttrDataFloat (four floats an entry:
 * right slope, next left slope, the two weights packed, velocities) are
 * run-length coded by KeyAttrRefCount. Flags: 0x2 constant (0x100 with it:
 * the next key's value), 0x4 linear, 0x8 cubic (0x400 user tangents, else
 * automatic ones, solved as ufbx solves them: the neighbours' slope, clamped
 * so the curve does not overshoot either neighbour), 0x1000000 / 0x2000000
 * the right / next left tangent weighted (the weights decimal fixed point,
 * 1/10000 a unit, low and high halves of the third float's bits), else 1/3.
 * A cubic segment is the Bezier through its keys and their tangents, its
 * time as a Bezier of the tangents' time offsets (solved for the
 * parameter). ASCII files write KeyAttrDataFloat as the floats' bits in
 * decimal, read back as bits. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/import/fbx/fbx_build_internal.h"

#define MANI_FBX_KEY_CONSTANT 0x2u
#define MANI_FBX_KEY_CONSTANT_NEXT 0x100u
#define MANI_FBX_KEY_CUBIC 0x8u
#define MANI_FBX_KEY_USER 0x400u
#define MANI_FBX_KEY_WEIGHTED_RIGHT 0x1000000u
#define MANI_FBX_KEY_WEIGHTED_NEXT_LEFT 0x2000000u

static maniImportResult mani_FbxCurveResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset) {
    maniImportResult r;
    r.result = result;
    r.reason = reason;
    r.item = item;
    r.offset = offset;
    return r;
}

static uint32_t mani_FbxCurveArray(const maniFbx* f, uint32_t node, const char* name, uint32_t* child) {
    *child = mani_FbxFind(f, node, name);
    return *child == MANI_FBX_NONE ? 0 : mani_FbxArrayCount(f, *child);
}

uint32_t mani_FbxCurveKeyCount(const maniFbx* f, uint32_t node) {
    uint32_t c;
    return mani_FbxCurveArray(f, node, "KeyTime", &c);
}

size_t mani_FbxCurveScratch(const maniFbx* f, uint32_t node) {
    uint32_t c;
    size_t keys = mani_FbxCurveArray(f, node, "KeyTime", &c);
    size_t refs = mani_FbxCurveArray(f, node, "KeyAttrRefCount", &c);
    return 2 * keys + 6 * refs + 1;
}

/* An entry's float from KeyAttrDataFloat: binary floats as they are, ASCII
 * integers as the bits of a float. */
static float mani_FbxAttrFloat(const maniFbx* f, double v) {
    if (f->ascii && v == floor(v) && v >= -2147483648.0 && v <= 4294967295.0) {
        uint32_t bits = v < 0 ? (uint32_t)(int32_t)v : (uint32_t)v;
        float out;
        memcpy(&out, &bits, 4);
        return out;
    }
    return (float)v;
}

static uint32_t mani_FbxFloatToBits(float x) {
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
}

/* ufbx's automatic tangent: the slope between the neighbours, clamped so
 * the tangents stay within both neighbours' values. */
static double mani_FbxAutoSlope(double t0, double t1, double t2, double v0, double v1, double v2, double wl,
                                double wr) {
    const double slope = (v2 - v0) / (t2 - t0);
    const double sign = slope >= 0.0 ? 1.0 : -1.0;
    double a = sign * slope;
    const double rl = wl * (t1 - t0), rr = wr * (t2 - t1);
    double ml = rl > 0.0 ? sign * (v1 - v0) / rl : 0.0;
    double mr = rr > 0.0 ? sign * (v2 - v1) / rr : 0.0;
    if (!(ml > 0.0)) ml = 0.0;
    if (!(mr > 0.0)) mr = 0.0;
    if (a > ml) a = ml;
    if (a > mr) a = mr;
    return sign * a;
}

/* Pre-/Post-Extrapolation: Type 'C' constant, 'R' repeat, 'M' mirror, 'K'
 * keep the slope, 'A' repeat relative; Repetition the count (-1 endless). */
static void mani_FbxReadExtrapolation(const maniFbx* f, uint32_t node, const char* name, uint32_t* mode,
                                      int32_t* count) {
    *mode = MANI_FBX_EXTRAPOLATE_CONSTANT;
    *count = -1;
    uint32_t e = mani_FbxFind(f, node, name);
    if (e == MANI_FBX_NONE) return;
    /* the letter: a binary 'C' byte, an ASCII word, a string's first byte */
    const mani_FbxProp* p = mani_FbxGetProp(f, mani_FbxFind(f, e, "Type"), 0);
    int letter = 0;
    if (p != NULL && (p->type == 'C' || p->type == MANI_FBX_ASCII_WORD) && p->offset < f->size)
        letter = f->bytes[p->offset];
    else if (p != NULL && p->type == 'S' && p->length > 0 && p->offset < f->size)
        letter = f->bytes[p->offset];
    switch (letter) {
        case 'R': *mode = MANI_FBX_EXTRAPOLATE_REPEAT; break;
        case 'M': *mode = MANI_FBX_EXTRAPOLATE_MIRROR; break;
        case 'K': *mode = MANI_FBX_EXTRAPOLATE_SLOPE; break;
        case 'A': *mode = MANI_FBX_EXTRAPOLATE_REPEAT_RELATIVE; break;
        default: break;
    }
    uint32_t r = mani_FbxFind(f, e, "Repetition");
    int64_t c;
    if (r != MANI_FBX_NONE && mani_FbxPropInt(f, mani_FbxGetProp(f, r, 0), &c) && c >= -1 && c <= 0x7FFFFFFF)
        *count = (int32_t)c;
}

maniImportResult mani_FbxReadCurve(const maniFbx* f, uint32_t node, double* scratch, mani_FbxCurveKey* keys,
                                   uint32_t capacity, mani_FbxCurve* out) {
    uint32_t tn, vn, fn, dn, rn;
    const uint32_t n = mani_FbxCurveArray(f, node, "KeyTime", &tn);
    const uint32_t nv = mani_FbxCurveArray(f, node, "KeyValueFloat", &vn);
    const uint32_t nf = mani_FbxCurveArray(f, node, "KeyAttrFlags", &fn);
    const uint32_t nd = mani_FbxCurveArray(f, node, "KeyAttrDataFloat", &dn);
    const uint32_t nr = mani_FbxCurveArray(f, node, "KeyAttrRefCount", &rn);
    const uint64_t at = f->nodes[node].offset;
    memset(out, 0, sizeof *out);
    out->keys = keys;
    double d;
    uint32_t def = mani_FbxFind(f, node, "Default");
    if (def != MANI_FBX_NONE && mani_FbxPropDouble(f, mani_FbxGetProp(f, def, 0), &d) && isfinite(d))
        out->defaultValue = d;
    mani_FbxReadExtrapolation(f, node, "Pre-Extrapolation", &out->preMode, &out->preRepeat);
    mani_FbxReadExtrapolation(f, node, "Post-Extrapolation", &out->postMode, &out->postRepeat);
    if (n == 0 && tn == MANI_FBX_NONE) return mani_FbxCurveResult(mani_success, maniImportReasonNone, 0, 0);
    /* the arrays as ufbx requires them: parallel keys, attributes four to a run */
    if (n != nv || nf != nr || nd != 4u * (uint64_t)nr || n > capacity || (n > 0 && nr == 0))
        return mani_FbxCurveResult(mani_errorFormat, maniImportReasonProperty, 0, at);
    double* times = scratch;
    double* values = times + n;
    double* flags = values + n;
    double* data = flags + nr;
    double* refs = data + 4u * (size_t)nr;
    maniImportResult r;
    if (n > 0) {
        if ((r = mani_FbxReadArray(f, tn, times, n)).result != mani_success) return r;
        if ((r = mani_FbxReadArray(f, vn, values, n)).result != mani_success) return r;
        if ((r = mani_FbxReadArray(f, fn, flags, nr)).result != mani_success) return r;
        if ((r = mani_FbxReadArray(f, dn, data, 4u * nr)).result != mani_success) return r;
        if ((r = mani_FbxReadArray(f, rn, refs, nr)).result != mani_success) return r;
    }
    double sumRefs = 0.0;
    for (uint32_t i = 0; i < nr; i++) {
        if (!(refs[i] >= 0.0 && refs[i] == floor(refs[i]))) return mani_FbxCurveResult(mani_errorFormat, maniImportReasonProperty, 0, f->nodes[rn].offset);
        sumRefs += refs[i];
    }
    if (sumRefs < (double)n) return mani_FbxCurveResult(mani_errorFormat, maniImportReasonProperty, 0, f->nodes[rn].offset);
    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(times[i]) || !isfinite(values[i]) || (i > 0 && !(times[i] >= times[i - 1])))
            return mani_FbxCurveResult(mani_errorFormat, maniImportReasonProperty, 0, f->nodes[tn].offset);
    }
    const double tick = 1.0 / MANI_FBX_KTIME_PER_SECOND;
    uint32_t run = 0;
    double left = nr > 0 ? refs[0] : 0.0;
    double slopeLeft = 0.0, weightLeft = 1.0 / 3.0;
    double prevTime = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        while (left <= 0.0 && run + 1 < nr) left = refs[++run];
        mani_FbxCurveKey* k = &keys[i];
        k->time = times[i] * tick;
        k->value = values[i];
        const double nextTime = i + 1 < n ? times[i + 1] * tick : k->time;
        const uint32_t fl = (uint32_t)(int64_t)flags[run];
        double slopeRight = mani_FbxAttrFloat(f, data[4 * run]);
        double nextSlopeLeft = mani_FbxAttrFloat(f, data[4 * run + 1]);
        double weightRight = 1.0 / 3.0, nextWeightLeft = 1.0 / 3.0;
        if (fl & (MANI_FBX_KEY_WEIGHTED_RIGHT | MANI_FBX_KEY_WEIGHTED_NEXT_LEFT)) {
            const uint32_t packed = mani_FbxFloatToBits(mani_FbxAttrFloat(f, data[4 * run + 2]));
            if (fl & MANI_FBX_KEY_WEIGHTED_RIGHT) weightRight = (double)(packed & 0xFFFFu) * 0.0001;
            if (fl & MANI_FBX_KEY_WEIGHTED_NEXT_LEFT) nextWeightLeft = (double)(packed >> 16) * 0.0001;
        }
        if (fl & MANI_FBX_KEY_CONSTANT) {
            k->interpolation = (fl & MANI_FBX_KEY_CONSTANT_NEXT) ? MANI_FBX_INTERP_CONSTANT_NEXT
                                                                  : MANI_FBX_INTERP_CONSTANT;
            weightRight = nextWeightLeft = 1.0 / 3.0;
            slopeRight = nextSlopeLeft = 0.0;
        } else if (fl & MANI_FBX_KEY_CUBIC) {
            k->interpolation = MANI_FBX_INTERP_CUBIC;
            if (!(fl & MANI_FBX_KEY_USER)) {
                if (i > 0 && i + 1 < n && k->time > prevTime && nextTime > k->time)
                    slopeLeft = slopeRight = mani_FbxAutoSlope(prevTime, k->time, nextTime, values[i - 1], values[i],
                                                               values[i + 1], weightLeft, weightRight);
                else
                    slopeLeft = slopeRight = 0.0;
            }
        } else {
            k->interpolation = MANI_FBX_INTERP_LINEAR;
            weightRight = nextWeightLeft = 1.0 / 3.0;
            if (nextTime > k->time) slopeRight = nextSlopeLeft = (values[i + 1] - values[i]) / (nextTime - k->time);
            else slopeRight = nextSlopeLeft = 0.0;
        }
        if (!isfinite(slopeRight) || !isfinite(nextSlopeLeft) || !isfinite(slopeLeft))
            return mani_FbxCurveResult(mani_errorFormat, maniImportReasonProperty, 0, f->nodes[dn].offset);
        k->leftDx = i > 0 && k->time > prevTime ? weightLeft * (k->time - prevTime) : 0.0;
        k->leftDy = k->leftDx * slopeLeft;
        k->rightDx = nextTime > k->time ? weightRight * (nextTime - k->time) : 0.0;
        k->rightDy = k->rightDx * slopeRight;
        slopeLeft = nextSlopeLeft;
        weightLeft = nextWeightLeft;
        prevTime = k->time;
        left -= 1.0;
    }
    out->count = n;
    return mani_FbxCurveResult(mani_success, maniImportReasonNone, 0, 0);
}

/* The Bezier 0, a, b, 1 (times relative to the segment) at parameter s. */
static double mani_FbxBezier(double p0, double p1, double p2, double p3, double s) {
    const double u = 1.0 - s;
    return u * u * u * p0 + 3.0 * u * u * s * p1 + 3.0 * u * s * s * p2 + s * s * s * p3;
}

/* Between keys a and b at time t (a.time <= t < b.time). */
static double mani_FbxSegment(const mani_FbxCurveKey* a, const mani_FbxCurveKey* b, double t) {
    const double dx = b->time - a->time;
    if (!(dx > 0.0)) return b->value;
    switch (a->interpolation) {
        case MANI_FBX_INTERP_CONSTANT: return a->value;
        case MANI_FBX_INTERP_CONSTANT_NEXT: return b->value;
        case MANI_FBX_INTERP_LINEAR: return a->value + (b->value - a->value) * ((t - a->time) / dx);
        default: break;
    }
    /* x(s) = t: x is monotonic for tangent offsets within the segment; bisect then refine. */
    const double x1 = a->rightDx / dx, x2 = 1.0 - b->leftDx / dx, x = (t - a->time) / dx;
    double lo = 0.0, hi = 1.0, s = x;
    for (int i = 0; i < 64; i++) {
        const double xs = mani_FbxBezier(0.0, x1, x2, 1.0, s);
        if (xs < x) lo = s;
        else hi = s;
        s = 0.5 * (lo + hi);
        if (hi - lo < 1e-15) break;
    }
    return mani_FbxBezier(a->value, a->value + a->rightDy, b->value - b->leftDy, b->value, s);
}

/* Inside the keys' range (first.time <= t <= last.time). */
static double mani_FbxInside(const mani_FbxCurve* c, double t) {
    const mani_FbxCurveKey* k = c->keys;
    uint32_t lo = 0, hi = c->count - 1;
    if (t >= k[hi].time) return k[hi].value;
    if (t <= k[0].time) return k[0].value;
    while (hi - lo > 1) { /* k[lo].time <= t < k[hi].time */
        uint32_t mid = lo + (hi - lo) / 2;
        if (k[mid].time <= t) lo = mid;
        else hi = mid;
    }
    /* at a key's own time its value (a constant-next key too, as ufbx reads it) */
    if (t == k[lo].time) return k[lo].value;
    return mani_FbxSegment(&k[lo], &k[hi], t);
}

double mani_FbxEvalCurve(const mani_FbxCurve* c, double t) {
    if (c->count == 0) return c->defaultValue;
    const mani_FbxCurveKey* first = &c->keys[0];
    const mani_FbxCurveKey* last = &c->keys[c->count - 1];
    const int before = t < first->time;
    if (!before && !(t > last->time)) return mani_FbxInside(c, t);
    const uint32_t mode = before ? c->preMode : c->postMode;
    const int32_t repeats = before ? c->preRepeat : c->postRepeat;
    const double period = last->time - first->time;
    if (mode == MANI_FBX_EXTRAPOLATE_CONSTANT || !(period > 0.0)) return before ? first->value : last->value;
    if (mode == MANI_FBX_EXTRAPOLATE_SLOPE) {
        /* the end key's tangent carried on */
        if (before) {
            const double slope = first->rightDx > 0.0 ? first->rightDy / first->rightDx : 0.0;
            return first->value + slope * (t - first->time);
        }
        const double slope = last->leftDx > 0.0 ? last->leftDy / last->leftDx : 0.0;
        return last->value + slope * (t - last->time);
    }
    /* cycles past the range: 1 for the first repetition */
    const double offset = before ? first->time - t : t - last->time;
    double cycles = ceil(offset / period);
    double local; /* the time inside the range */
    if (repeats >= 0 && cycles > (double)repeats) {
        cycles = (double)repeats;
        local = before ? first->time : last->time; /* held at the last repetition's end */
        if (repeats == 0) return before ? first->value : last->value;
        const int odd = ((int64_t)cycles) % 2 == 1;
        if (mode == MANI_FBX_EXTRAPOLATE_MIRROR && odd) local = before ? last->time : first->time;
    } else {
        const double into = offset - (cycles - 1.0) * period; /* (0, period] into this cycle */
        local = before ? last->time - into : first->time + into;
        const int odd = ((int64_t)cycles) % 2 == 1;
        if (mode == MANI_FBX_EXTRAPOLATE_MIRROR && odd) local = before ? first->time + into : last->time - into;
    }
    double v = mani_FbxInside(c, local);
    if (mode == MANI_FBX_EXTRAPOLATE_REPEAT_RELATIVE) v += (before ? -cycles : cycles) * (last->value - first->value);
    return v;
}

/* -- Takes (before 7000) -------------------------------------------------------------------- */

/* A value of a take's Key list: a number, or a bare letter (binary 'C',
 * an ASCII word). Returns 1 for a number, 2 for a letter, 0 past the end. */
static int mani_FbxKeyItem(const maniFbx* f, uint32_t node, uint32_t index, double* number, int* letter) {
    const mani_FbxProp* p = mani_FbxGetProp(f, node, index);
    if (p == NULL) return 0;
    if ((p->type == 'C' || p->type == MANI_FBX_ASCII_WORD) && p->offset < f->size) {
        *letter = f->bytes[p->offset];
        return 2;
    }
    if (p->type == 'S' && p->length >= 1 && p->offset < f->size) {
        *letter = f->bytes[p->offset];
        return 2;
    }
    return mani_FbxPropDouble(f, p, number) ? 1 : 0;
}

uint32_t mani_FbxTakeCurveKeyCount(const maniFbx* f, uint32_t channel) {
    int64_t n;
    uint32_t k = mani_FbxFind(f, channel, "KeyCount");
    if (k == MANI_FBX_NONE || mani_FbxFind(f, channel, "Key") == MANI_FBX_NONE) return 0;
    if (!mani_FbxPropInt(f, mani_FbxGetProp(f, k, 0), &n) || n < 0 || n > 0x7FFFFFFF) return 0;
    /* a key takes at least three values */
    const uint32_t values = f->nodes[mani_FbxFind(f, channel, "Key")].propCount;
    return (uint64_t)n * 3u > values ? 0 : (uint32_t)n;
}

maniImportResult mani_FbxReadTakeCurve(const maniFbx* f, uint32_t channel, mani_FbxCurveKey* keys, uint32_t capacity,
                                       mani_FbxCurve* out) {
    memset(out, 0, sizeof *out);
    out->keys = keys;
    out->preRepeat = out->postRepeat = -1;
    double d;
    uint32_t def = mani_FbxFind(f, channel, "Default");
    if (def != MANI_FBX_NONE && mani_FbxPropDouble(f, mani_FbxGetProp(f, def, 0), &d) && isfinite(d))
        out->defaultValue = d;
    const uint32_t keyNode = mani_FbxFind(f, channel, "Key");
    if (keyNode == MANI_FBX_NONE) return mani_FbxCurveResult(mani_success, maniImportReasonNone, 0, 0);
    const uint64_t at = f->nodes[keyNode].offset;
    const maniImportResult refused = mani_FbxCurveResult(mani_errorFormat, maniImportReasonProperty, 0, at);
    int64_t count;
    uint32_t kc = mani_FbxFind(f, channel, "KeyCount");
    if (kc == MANI_FBX_NONE || !mani_FbxPropInt(f, mani_FbxGetProp(f, kc, 0), &count) || count < 0 ||
        (uint64_t)count > capacity)
        return refused;
    const uint32_t n = (uint32_t)count, values = f->nodes[keyNode].propCount;
    const double tick = 1.0 / MANI_FBX_KTIME_PER_SECOND;
    uint32_t i = 0; /* the next value */
    double num;
    int letter;
    double nextTime = 0.0, nextValue = 0.0, prevTime = 0.0;
    double slopeLeft = 0.0, weightLeft = 1.0 / 3.0;
    if (n > 0) {
        if (mani_FbxKeyItem(f, keyNode, 0, &nextTime, &letter) != 1 ||
            mani_FbxKeyItem(f, keyNode, 1, &nextValue, &letter) != 1)
            return refused;
        nextTime *= tick;
    }
/* the next value as a number / a letter, refused otherwise */
#define MANI_FBX_NUMBER(x) \
    do { \
        if (i >= values || mani_FbxKeyItem(f, keyNode, i++, &(x), &letter) != 1 || !isfinite(x)) return refused; \
    } while (0)
#define MANI_FBX_LETTER(c) \
    do { \
        if (i >= values || mani_FbxKeyItem(f, keyNode, i++, &num, &(c)) != 2) return refused; \
    } while (0)
    for (uint32_t k = 0; k < n; k++) {
        mani_FbxCurveKey* key = &keys[k];
        key->time = nextTime;
        key->value = nextValue;
        i += 2; /* time and value, read ahead */
        int mode;
        MANI_FBX_LETTER(mode);
        double slopeRight = 0.0, weightRight = 1.0 / 3.0, nextSlopeLeft = 0.0, nextWeightLeft = 1.0 / 3.0;
        int autoSlope = 0;
        if (mode == 'U') {
            key->interpolation = MANI_FBX_INTERP_CUBIC;
            int slope;
            MANI_FBX_LETTER(slope);
            int weights = 1;
            if (slope == 's' || slope == 'b') {
                MANI_FBX_NUMBER(slopeRight);
                MANI_FBX_NUMBER(nextSlopeLeft);
            } else if (slope == 'a') {
                autoSlope = 1;
                if (f->version == 5000) weights = 0;
            } else if (slope == 'p') {
                double skip;
                MANI_FBX_NUMBER(skip);
                MANI_FBX_NUMBER(skip);
                weights = 2;
            } else if (slope == 't') {
                double skip;
                MANI_FBX_NUMBER(skip);
                MANI_FBX_NUMBER(skip);
                MANI_FBX_NUMBER(skip);
                weights = 0;
            } else {
                return refused;
            }
            for (; weights > 0; weights--) {
                int w;
                MANI_FBX_LETTER(w);
                if (w == 'a') {
                    MANI_FBX_NUMBER(weightRight);
                    MANI_FBX_NUMBER(nextWeightLeft);
                } else if (w == 'l') {
                    MANI_FBX_NUMBER(nextWeightLeft);
                } else if (w == 'r') {
                    MANI_FBX_NUMBER(weightRight);
                } else if (w != 'n' && w != 'c') {
                    return refused;
                }
            }
        } else if (mode == 'L') {
            key->interpolation = MANI_FBX_INTERP_LINEAR;
        } else if (mode == 'C') {
            int c;
            MANI_FBX_LETTER(c);
            key->interpolation = c == 'n' ? MANI_FBX_INTERP_CONSTANT_NEXT : MANI_FBX_INTERP_CONSTANT;
        } else {
            return refused;
        }
        if (k + 1 < n) {
            if (i + 1 >= values || mani_FbxKeyItem(f, keyNode, i, &nextTime, &letter) != 1 ||
                mani_FbxKeyItem(f, keyNode, i + 1, &nextValue, &letter) != 1 || !isfinite(nextTime) ||
                !isfinite(nextValue))
                return refused;
            nextTime *= tick;
            if (nextTime < key->time) return refused;
        }
        if (autoSlope) {
            if (k > 0 && nextTime > key->time && key->time > prevTime)
                slopeLeft = slopeRight = mani_FbxAutoSlope(prevTime, key->time, nextTime, keys[k - 1].value,
                                                           key->value, nextValue, weightLeft, weightRight);
            else
                slopeLeft = slopeRight = 0.0;
        }
        if (key->interpolation == MANI_FBX_INTERP_LINEAR)
            slopeRight = nextSlopeLeft = nextTime > key->time ? (nextValue - key->value) / (nextTime - key->time) : 0.0;
        key->leftDx = key->time > prevTime && k > 0 ? weightLeft * (key->time - prevTime) : 0.0;
        key->leftDy = key->leftDx * slopeLeft;
        key->rightDx = nextTime > key->time ? weightRight * (nextTime - key->time) : 0.0;
        key->rightDy = key->rightDx * slopeRight;
        slopeLeft = nextSlopeLeft;
        weightLeft = nextWeightLeft;
        prevTime = key->time;
    }
#undef MANI_FBX_NUMBER
#undef MANI_FBX_LETTER
    if (i != values) return refused;
    out->count = n;
    return mani_FbxCurveResult(mani_success, maniImportReasonNone, 0, 0);
}
