/* maniCompressClip: a full-precision clip into a compressed clip
 * (docs/formats.md, "Compressed clip").
 *
 * Channels equal to their default (the rest, or the identity for an additive
 * clip) or constant are folded; so are channels whose every sample is near
 * their default or near the middle of their values, while the folds along a
 * chain stay within a quarter of the precision (float tracks: within half
 * their tolerance). The other tracks get clip ranges, and per segment of 16
 * samples 8-bit segment ranges and a rate each (rate 0 takes the 255th
 * nearest the middle of the segment's values). The rates' search, segment by
 * segment in order: every track starts at the lowest rate whose own error
 * (at the bone's reach: the shell distance plus the farthest chain of
 * children below it) is within the precision; then while some bone's shell
 * error is above the precision at a time the segment owns, the track of its
 * chain (the bone and its ancestors) with the largest own error gets the
 * next rate, one raise per track and round. The raw rate reproduces the
 * source's bits, so the raises end. Then each track, in track order, round
 * after round, gets the next lower rate while its subtree's shell errors stay
 * within the precision. The shell error is measured on the runtime's
 * binary32 model matrices of the locals sampling returns (the vertices'
 * distances in binary64): the values are decoded by the runtime's own
 * functions (compress_format.h) and interpolated by mani_ClipLerpValues,
 * bit for bit what maniClip_Sample computes, and composed by the model
 * pass's single-value kernels, bit for bit what maniPose_ComputeModel
 * computes. A time belongs to the segment of the last sample its value
 * depends on (the second when the fraction is not 0), so it is measured once
 * its samples are final; each sample is also measured on its own. A final
 * pass measures every time and makes the chain of a bone still above the
 * precision raw in both its samples' segments, until none is; if a bone is
 * still above it then (the folds' budget is a first-order bound), the whole
 * search runs again without the near folds. Only + - * / and sqrt, in a
 * fixed order: the same bytes on every platform. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/compress/compress_format11.h"
#include "lib/anim/src/compress/compress_internal.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/core/quat64.h"

maniCompressOptions maniDefaultCompressOptions(void) {
    maniCompressOptions o;
    memset(&o, 0, sizeof o);
    o.precision = 0.0001f;
    o.shellDistance = 0.03f;
    o.floatPrecision = 0.00001f;
    return o;
}

/* A time the error is measured at: sample k (id 2 k) or halfway between
 * samples k and k + 1 (id 2 k + 1). */
typedef struct mani_CcPoint {
    mani_ClipSpot spot;
    uint32_t id;
} mani_CcPoint;

typedef struct mani_CcWork {
    uint32_t bones, n, floats, segments, tracks, boneTracks, comps;
    uint32_t ccomps;   /* clip components: a rotation track 4, a translation or scale 3, a float track 1 */
    uint32_t* cbase;   /* per track: its first clip component */
    uint8_t* drop;     /* segments x tracks: a rotation's dropped component (format 11) */
    uint8_t* wide;     /* per track: a rotation dropping another component than w somewhere */
    float* src;        /* n x bones x 10: the source's values */
    float* dec;        /* the decoded values (the source's where folded or not yet decided) */
    float* srcF;       /* n x floats */
    float* decF;
    uint32_t* parent;
    double* reach;     /* per bone */
    uint8_t* kind;     /* bones x 3 then floats */
    uint32_t* trackBone;  /* per animated track: bone (or float track) */
    uint8_t* trackCh;     /* 0 T, 1 R, 2 S, 3 float */
    float* cmin;       /* per component */
    float* cext;
    uint8_t* segMin;   /* segments x comps: the ranges the current rates use */
    uint8_t* segExt;
    uint8_t* boundMin; /* segments x comps: the 255ths around the segment's values */
    uint8_t* boundExt;
    uint8_t* midMin;   /* segments x comps: the 255th nearest the middle of its values (rate 0) */
    float* deflt;      /* bones x 10: each bone's default values */
    double* foldErr;   /* per bone: the folded channels' errors along its chain */
    uint32_t* subtreeEnd; /* per bone: one past its last descendant (depth-first order) */
    double* cache;     /* checkCapacity x bones x 24: the models at a segment's check points */
    mani_CcPoint* check; /* a segment's check points: its own times, then each of its samples */
    uint32_t checkCapacity;
    uint8_t* stuck;    /* per track: lowering it failed in this segment */
    uint8_t* moved;    /* per bone: 1 its values changed, 2 a bone above it (the raises' round) */
    uint8_t* rate;     /* segments x tracks */
    double* local;     /* per bone track: its own error at its current rate (this segment) */
    double* boneErr;   /* per bone: the current segment's worst */
    double* model;     /* bones x 12 x 2 (source, decoded) */
    mani_CcPoint* points;
    uint32_t* pointStart; /* per segment + 1 */
    uint32_t pointCount;
    uint8_t* raised;   /* per track, this round */
    uint32_t* firstTrack; /* per bone + 1: its first animated track */
    struct { void* p; size_t size; } blocks[40];
    uint32_t blockCount;
    int failed;
} mani_CcWork;

static void* mani_CcAlloc(maniBuilder* b, mani_CcWork* w, size_t count, size_t each) {
    /* No room to track the block, or a size past size_t: as a failed
     * allocation (maniCompressClip then returns mani_errorCapacity). */
    if (w->blockCount == sizeof w->blocks / sizeof w->blocks[0] || (count != 0 && each > SIZE_MAX / count)) {
        w->failed = 1;
        return NULL;
    }
    const size_t size = (count == 0 ? 1 : count) * each;
    void* p = mani_BuilderAlloc(b, size, 16);
    if (p == NULL) {
        w->failed = 1;
        return NULL;
    }
    memset(p, 0, size);
    w->blocks[w->blockCount].p = p;
    w->blocks[w->blockCount].size = size;
    w->blockCount++;
    return p;
}

static void mani_CcFreeWork(maniBuilder* b, mani_CcWork* w) {
    for (uint32_t k = 0; k < w->blockCount; ++k) mani_BuilderFree(b, w->blocks[k].p, w->blocks[k].size);
    w->blockCount = 0;
}

static const uint32_t maniCcStartOf[3] = {0, 3, 7};
static const uint32_t maniCcWidthOf[3] = {3, 4, 3};

/* -- Values ------------------------------------------------------------------------ */

/* The component c (0..2) of track t at sample k as it is stored: a rotation
 * with w >= 0 (x y z), else the value. */
static double mani_CcStoredComp(const mani_CcWork* w, uint32_t t, uint32_t k, uint32_t c) {
    if (w->trackCh[t] == 3) return w->srcF[(uint64_t)k * w->floats + w->trackBone[t]];
    const float* v = w->src + ((uint64_t)k * w->bones + w->trackBone[t]) * 10 + maniCcStartOf[w->trackCh[t]];
    if (w->trackCh[t] == 1) {
        /* Format 11: the sign that makes the segment's dropped component >= 0. */
        const uint32_t d = w->drop[(uint64_t)mani_C11SegmentOf(k, w->segments) * w->tracks + t];
        if (v[d] < 0.0f) return -(double)v[c];
    }
    return v[c];
}

static uint32_t mani_CcComps(const mani_CcWork* w, uint32_t t) { return w->trackCh[t] == 3 ? 1u : 3u; }
/* Its clip components (a rotation's four) and the first of them. */
static uint32_t mani_CcClipComps(const mani_CcWork* w, uint32_t t) { return mani_C11ClipComps(w->trackCh[t], 1); }
static uint32_t mani_CcCompBase(const mani_CcWork* w, uint32_t t) { return w->cbase[t]; }

/* The samples [k0, k1) of segment s. */
static void mani_CcSegSpan(const mani_CcWork* w, uint32_t s, uint32_t* k0, uint32_t* k1) {
    *k0 = mani_C11SegmentStart(s);
    *k1 = mani_C11SegmentEnd(s, w->segments, w->n);
}

static uint32_t mani_CcFloorU(double x) { return x <= 0.0 ? 0u : (uint32_t)x; }
static uint32_t mani_CcCeilU(double x) {
    if (x <= 0.0) return 0u;
    const uint32_t f = (uint32_t)x;
    return (double)f < x ? f + 1 : f;
}

/* The normalized value of a stored component in its clip range. */
static double mani_CcNorm(const mani_CcWork* w, uint32_t ci, double v) {
    const double ext = w->cext[ci];
    return ext > 0.0 ? (v - (double)w->cmin[ci]) / ext : 0.0;
}

/* The quantized value of component c of track t at sample k in segment s at a
 * (not raw) rate. */
static uint32_t mani_CcQuantize(const mani_CcWork* w, uint32_t s, uint32_t t, uint32_t k, uint32_t c,
                                uint32_t rate) {
    const uint32_t bits = mani_CcRateBits(rate);
    if (bits == 0) return 0;
    const uint32_t ci = mani_CcCompBase(w, t) + c;
    const uint64_t si = (uint64_t)s * w->ccomps + ci;
    const double lo = w->segMin[si] / 255.0, ext = w->segExt[si] / 255.0;
    const double x = ext > 0.0 ? (mani_CcNorm(w, ci, mani_CcStoredComp(w, t, k, c)) - lo) / ext : 0.0;
    const double maxq = (double)((1u << bits) - 1u);
    uint32_t q = mani_CcFloorU(x * maxq + 0.5);
    if (q > (1u << bits) - 1u) q = (1u << bits) - 1u;
    return q;
}

/* The decoded value of component c of track t at sample k (segment s, a
 * quantized rate), as the runtime decodes it. */
static float mani_CcDecodedComp(const mani_CcWork* w, uint32_t s, uint32_t t, uint32_t k, uint32_t c, uint32_t rate) {
    const uint32_t ci = mani_CcCompBase(w, t) + c;
    const uint64_t si = (uint64_t)s * w->ccomps + ci;
    float base, scale;
    mani_C11Params(rate, w->segMin[si], w->segExt[si], w->cmin[ci], w->cext[ci], &base, &scale);
    return mani_C11Value(mani_CcQuantize(w, s, t, k, c, rate), base, scale);
}

/* Writes track t's decoded values at sample k (segment s, its rate) into dec,
 * as the runtime decodes them. */
static void mani_CcDecodeInto(mani_CcWork* w, uint32_t s, uint32_t t, uint32_t k) {
    const uint32_t rate = w->rate[(uint64_t)s * w->tracks + t];
    if (w->trackCh[t] == 3) {
        const uint64_t at = (uint64_t)k * w->floats + w->trackBone[t];
        w->decF[at] = rate == MANI_CC_RATE_RAW ? w->srcF[at] : mani_CcDecodedComp(w, s, t, k, 0, rate);
        return;
    }
    const uint64_t at = ((uint64_t)k * w->bones + w->trackBone[t]) * 10 + maniCcStartOf[w->trackCh[t]];
    if (rate == MANI_CC_RATE_RAW) {
        for (uint32_t c = 0; c < maniCcWidthOf[w->trackCh[t]]; ++c) w->dec[at + c] = w->src[at + c];
        return;
    }
    if (w->trackCh[t] != 1) {
        for (uint32_t c = 0; c < 3; ++c) w->dec[at + c] = mani_CcDecodedComp(w, s, t, k, c, rate);
        return;
    }
    /* A rotation: the kept three, then the dropped one rebuilt from them. */
    const uint32_t d = w->drop[(uint64_t)s * w->tracks + t];
    float kept[3];
    for (uint32_t j = 0; j < 3; ++j) {
        const uint32_t c = j >= d ? j + 1 : j;
        kept[j] = w->dec[at + c] = mani_CcDecodedComp(w, s, t, k, c, rate);
    }
    w->dec[at + d] = mani_C11Rebuild(kept[0], kept[1], kept[2]);
}

/* -- Errors ------------------------------------------------------------------------ */

/* The error is measured on the runtime's model matrices: a local's affine
 * and each bone's model (its parent's times its local) computed in binary32
 * by the single-value kernels the model pass matches bit for bit
 * (maniPose_ComputeModel of maniClip_Sample's locals), kept here as exact
 * binary64 copies; only the shell vertices' distances are binary64. */

/* A transform's 3 x 4 matrix (columns x y z scaled, then t) as the runtime
 * makes it. */
static void mani_CcMatrix(const maniTransform* t, double m[12]) {
    const maniAffine a = maniSimdSingle_TransformToAffine(t);
    for (int c = 0; c < 4; ++c) {
        m[3 * c] = a.columns[c].x;
        m[3 * c + 1] = a.columns[c].y;
        m[3 * c + 2] = a.columns[c].z;
    }
}

static maniAffine mani_CcAffine(const double m[12]) {
    maniAffine a;
    for (int c = 0; c < 4; ++c) a.columns[c] = (maniVec3){(float)m[3 * c], (float)m[3 * c + 1], (float)m[3 * c + 2]};
    return a; /* exact: m holds binary32 values */
}

/* out = a b (affine, column-major 3 x 4) as the runtime's model pass
 * composes them. */
static void mani_CcCompose(const double a[12], const double b[12], double out[12]) {
    const maniAffine pa = mani_CcAffine(a), pb = mani_CcAffine(b);
    const maniAffine m = maniSimdSingle_AffineMul(&pa, &pb);
    for (int c = 0; c < 4; ++c) {
        out[3 * c] = m.columns[c].x;
        out[3 * c + 1] = m.columns[c].y;
        out[3 * c + 2] = m.columns[c].z;
    }
}

/* The shell error between a source and a decoded model: the largest
 * distance of the vertices at d on the three axes. */
static double mani_CcShellError(const double ms[12], const double md[12], double d) {
    /* The largest of the three distances is the root of the largest square:
     * sqrt is correctly rounded, so monotone, and one root gives the same
     * bits as the largest of three. */
    double e2 = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
        double d2 = 0.0;
        for (int row = 0; row < 3; ++row) {
            const double ps = ms[3 * axis + row] * d + ms[9 + row];
            const double pd = md[3 * axis + row] * d + md[9 + row];
            const double dd = ps - pd;
            d2 += dd * dd;
        }
        if (d2 != d2) {
            /* A NaN fails, but equal infinities are no error: again with
             * them taken as 0 (rare; the sum above is the same otherwise,
             * equal finite values giving +0 either way). */
            d2 = 0.0;
            for (int row = 0; row < 3; ++row) {
                const double ps = ms[3 * axis + row] * d + ms[9 + row];
                const double pd = md[3 * axis + row] * d + md[9 + row];
                const double dd = ps == pd ? 0.0 : ps - pd;
                d2 += dd * dd;
            }
            if (d2 != d2) return (double)INFINITY;
        }
        if (d2 > e2) e2 = d2;
    }
    return sqrt(e2);
}

/* The shell error of every bone at a point (source against decoded), into
 * boneErr as a maximum; also the worst overall. */
static void mani_CcPointErrors(mani_CcWork* w, const maniClip* c, const maniSkeleton* sk, const mani_CcPoint* p,
                               double d, double* perBone, double* worst, uint32_t* worstBone) {
    const mani_ClipSpot s = p->spot;
    for (uint32_t bone = 0; bone < w->bones; ++bone) {
        const uint64_t ai = ((uint64_t)s.i * w->bones + bone) * 10, bi = ((uint64_t)s.j * w->bones + bone) * 10;
        const maniTransform ts = mani_ClipLerpValues(c, sk, w->src + ai, w->src + bi, s.f, bone);
        const maniTransform td = mani_ClipLerpValues(c, sk, w->dec + ai, w->dec + bi, s.f, bone);
        double ls[12], ld[12];
        mani_CcMatrix(&ts, ls);
        mani_CcMatrix(&td, ld);
        double* ms = w->model + (uint64_t)bone * 24;
        double* md = ms + 12;
        const uint32_t parent = w->parent[bone];
        if (parent == MANI_NO_BONE) {
            memcpy(ms, ls, sizeof ls);
            memcpy(md, ld, sizeof ld);
        } else {
            mani_CcCompose(w->model + (uint64_t)parent * 24, ls, ms);
            mani_CcCompose(w->model + (uint64_t)parent * 24 + 12, ld, md);
        }
        const double e = mani_CcShellError(ms, md, d);
        if (e > perBone[bone]) perBone[bone] = e;
        if (worst != NULL && e > *worst) {
            *worst = e;
            *worstBone = bone;
        }
    }
}

/* A rotation's vector (double) by a unit quaternion from floats (normalized). */
static void mani_CcRotate(const float* q4, double sign, const double v[3], double out[3]) {
    double q[4] = {q4[0] * sign, q4[1] * sign, q4[2] * sign, q4[3] * sign};
    const double len = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    if (len > 0.0)
        for (int k = 0; k < 4; ++k) q[k] /= len;
    mcore_QuatRotate64(q, v, out);
}

/* A bone channel's error between values a and b: a translation's distance,
 * a rotation's or scale's move of the vertices at the bone's reach. */
static double mani_CcChannelError(const mani_CcWork* w, uint32_t bone, uint32_t ch, const float* a,
                                  const float* b) {
    const double reach = w->reach[bone];
    double e = 0.0;
    if (ch == 1) {
        for (int axis = 0; axis < 3; ++axis) {
            double v[3] = {0, 0, 0}, ra[3], rb[3];
            v[axis] = reach;
            mani_CcRotate(a, 1.0, v, ra);
            mani_CcRotate(b, 1.0, v, rb);
            const double d = sqrt(((ra[0] - rb[0]) * (ra[0] - rb[0]) + (ra[1] - rb[1]) * (ra[1] - rb[1])) +
                                  (ra[2] - rb[2]) * (ra[2] - rb[2]));
            if (d > e) e = d;
        }
        return e;
    }
    const double scale = ch == 2 ? reach : 1.0;
    double d2 = 0.0;
    for (int c = 0; c < 3; ++c) d2 += ((double)a[c] - b[c]) * ((double)a[c] - b[c]) * scale * scale;
    return sqrt(d2);
}

/* Bone track t's own error at sample k (decoded already): its channel's error. */
static double mani_CcOwnError(const mani_CcWork* w, uint32_t t, uint32_t k) {
    const uint32_t bone = w->trackBone[t];
    const uint64_t at = ((uint64_t)k * w->bones + bone) * 10 + maniCcStartOf[w->trackCh[t]];
    return mani_CcChannelError(w, bone, w->trackCh[t], w->src + at, w->dec + at);
}

/* Sets track t's rate in segment s, decodes its samples and, for a bone
 * track, measures its own error there (a float track is measured at the
 * check points, mani_CcFloatError). */
static void mani_CcSetRate(mani_CcWork* w, uint32_t s, uint32_t t, uint32_t rate) {
    w->rate[(uint64_t)s * w->tracks + t] = (uint8_t)rate;
    /* Rate 0 decodes every sample to the segment range's minimum: the 255th
     * nearest the middle of the values halves the error of their lowest. */
    for (uint32_t c = 0; c < mani_CcClipComps(w, t); ++c) {
        const uint64_t si = (uint64_t)s * w->ccomps + mani_CcCompBase(w, t) + c;
        w->segMin[si] = rate == 0 ? w->midMin[si] : w->boundMin[si];
        w->segExt[si] = rate == 0 ? 0 : w->boundExt[si];
    }
    uint32_t k0, k1;
    mani_CcSegSpan(w, s, &k0, &k1);
    double e = 0.0;
    for (uint32_t k = k0; k < k1; ++k) {
        mani_CcDecodeInto(w, s, t, k);
        if (t >= w->boneTracks) continue;
        const double ek = mani_CcOwnError(w, t, k);
        if (ek > e) e = ek;
    }
    w->local[t] = e;
}

/* The worst float error of track f at the points pts[0, n). */
static double mani_CcFloatError(const mani_CcWork* w, const maniClip* c, uint32_t f, const mani_CcPoint* pts,
                                uint32_t n) {
    const uint32_t mode = mcore_ReadU32(c->bytes + c->floatInfo + (uint64_t)f * MANI_CLIP_ITEM_BYTES + 8);
    double e = 0.0;
    for (uint32_t p = 0; p < n; ++p) {
        const mani_ClipSpot s = pts[p].spot;
        const float a = mani_ClipFloatLerp(mode, w->srcF[(uint64_t)s.i * w->floats + f],
                                           w->srcF[(uint64_t)s.j * w->floats + f], s);
        const float b = mani_ClipFloatLerp(mode, w->decF[(uint64_t)s.i * w->floats + f],
                                           w->decF[(uint64_t)s.j * w->floats + f], s);
        const double d = (double)a - (double)b;
        const double ad = d < 0 ? -d : d;
        if (ad > e) e = ad;
    }
    return e;
}

/* -- The check points' models --------------------------------------------------- */

/* Per check point and bone, MANI_CC_KEPT doubles: the source model, the
 * decoded model, the decoded local matrix (12 each), and the bone's shell
 * error there. A change of a bone's values needs its local matrix again; a
 * change above it only its decoded model (the source ones never change). */
#define MANI_CC_KEPT 37u

static double* mani_CcKept(const mani_CcWork* w, uint32_t q, uint32_t bone) {
    return w->cache + ((uint64_t)q * w->bones + bone) * MANI_CC_KEPT;
}

/* Bone's kept models at check point q again: the source's too with
 * source, its decoded local matrix with local; its parent's kept models are
 * current. Returns (and keeps) its shell error. */
static double mani_CcKeep(const mani_CcWork* w, const maniClip* c, const maniSkeleton* sk, uint32_t q,
                          uint32_t bone, double d, int source, int local) {
    const mani_ClipSpot s = w->check[q].spot;
    const uint64_t ai = ((uint64_t)s.i * w->bones + bone) * 10, bi = ((uint64_t)s.j * w->bones + bone) * 10;
    double* kept = mani_CcKept(w, q, bone);
    const uint32_t parent = w->parent[bone];
    const double* up = parent == MANI_NO_BONE ? NULL : mani_CcKept(w, q, parent);
    if (source) {
        const maniTransform ts = mani_ClipLerpValues(c, sk, w->src + ai, w->src + bi, s.f, bone);
        double ls[12];
        mani_CcMatrix(&ts, ls);
        if (up == NULL)
            memcpy(kept, ls, sizeof ls);
        else
            mani_CcCompose(up, ls, kept);
    }
    if (local) {
        const maniTransform td = mani_ClipLerpValues(c, sk, w->dec + ai, w->dec + bi, s.f, bone);
        mani_CcMatrix(&td, kept + 24);
    }
    if (up == NULL)
        memcpy(kept + 12, kept + 24, 12 * sizeof(double));
    else
        mani_CcCompose(up + 12, kept + 24, kept + 12);
    kept[36] = mani_CcShellError(kept, kept + 12, d);
    return kept[36];
}

/* -- The search ------------------------------------------------------------------- */

static void mani_CcRaiseSegment(mani_CcWork* w, const maniClip* c, const maniSkeleton* sk,
                                const maniCompressOptions* o, uint32_t s, uint32_t count) {
    const double precision = o->precision, floatPrecision = o->floatPrecision;
    /* Bone tracks: the lowest rate within the precision on their own. */
    for (uint32_t t = 0; t < w->boneTracks; ++t) {
        uint32_t rate = 0;
        for (;;) {
            mani_CcSetRate(w, s, t, rate);
            if (w->local[t] <= precision || rate == MANI_CC_RATE_RAW) break;
            rate++;
        }
    }
    /* Float tracks: the lowest rate within their tolerance at the check
     * points, the segment's own times and each of its samples on its own (a
     * time just past the segment's last sample, at a fraction that rounds
     * near 0, is owned by the next segment but reads that sample, a step
     * track wholly). */
    for (uint32_t t = w->boneTracks; t < w->tracks; ++t) {
        uint32_t rate = 0;
        for (;;) {
            mani_CcSetRate(w, s, t, rate);
            if (rate == MANI_CC_RATE_RAW || mani_CcFloatError(w, c, w->trackBone[t], w->check, count) <= floatPrecision)
                break;
            rate++;
        }
    }
    if (w->bones == 0 || w->boneTracks == 0) return;
    /* The chains: raise the worst own error of a failing bone's chain. Each
     * bone's first track: found by walking the tracks once. */
    for (uint32_t q = 0; q < count; ++q)
        for (uint32_t bone = 0; bone < w->bones; ++bone) mani_CcKeep(w, c, sk, q, bone, o->shellDistance, 1, 1);
    memset(w->moved, 0, w->bones);
    for (;;) {
        /* The bones whose values or chain changed in the last round again. */
        for (uint32_t bone = 0; bone < w->bones; ++bone) {
            const uint32_t parent = w->parent[bone];
            if (parent != MANI_NO_BONE && w->moved[parent] && !w->moved[bone]) w->moved[bone] = 2;
        }
        for (uint32_t bone = 0; bone < w->bones; ++bone) w->boneErr[bone] = 0.0;
        for (uint32_t q = 0; q < count; ++q)
            for (uint32_t bone = 0; bone < w->bones; ++bone) {
                const double e = w->moved[bone] ? mani_CcKeep(w, c, sk, q, bone, o->shellDistance, 0, w->moved[bone] == 1)
                                                : mani_CcKept(w, q, bone)[36];
                if (!(e <= w->boneErr[bone])) w->boneErr[bone] = e;
            }
        memset(w->moved, 0, w->bones);
        memset(w->raised, 0, w->tracks);
        int any = 0, raisedAny = 0;
        for (uint32_t bone = 0; bone < w->bones; ++bone) {
            if (!(w->boneErr[bone] > precision)) continue;
            any = 1;
            uint32_t best = UINT32_MAX;
            double bestErr = -1.0;
            for (uint32_t b = bone; b != MANI_NO_BONE; b = w->parent[b]) {
                for (uint32_t t = w->firstTrack[b]; t < w->firstTrack[b + 1]; ++t) {
                    if (w->rate[(uint64_t)s * w->tracks + t] == MANI_CC_RATE_RAW) continue;
                    if (w->local[t] > bestErr) {
                        bestErr = w->local[t];
                        best = t;
                    }
                }
            }
            if (best == UINT32_MAX || w->raised[best]) continue;
            w->raised[best] = 1;
            w->moved[w->trackBone[best]] = 1;
            raisedAny = 1;
            mani_CcSetRate(w, s, best, w->rate[(uint64_t)s * w->tracks + best] + 1u);
        }
        if (!any || !raisedAny) return;
    }
}

/* After the raises: each bone track, in track order, round after round,
 * gets the next lower rate (raw: 16 bits) while every bone of its subtree
 * stays within the precision at the check points; a track whose lowering
 * failed is left for the segment. Only the bone's local matrix and its
 * subtree's decoded models are computed again. */
static void mani_CcLowerSegment(mani_CcWork* w, const maniClip* c, const maniSkeleton* sk,
                                const maniCompressOptions* o, uint32_t s, uint32_t count) {
    const double precision = o->precision, d = o->shellDistance;
    memset(w->stuck, 0, w->boneTracks);
    for (int lowered = 1; lowered;) {
        lowered = 0;
        for (uint32_t t = 0; t < w->boneTracks; ++t) {
            const uint32_t rate = w->rate[(uint64_t)s * w->tracks + t];
            if (w->stuck[t] || rate == 0) continue;
            const uint32_t bone = w->trackBone[t], end = w->subtreeEnd[bone];
            mani_CcSetRate(w, s, t, rate == MANI_CC_RATE_RAW ? MANI_CC_RATE_RAW - 1 : rate - 1);
            int within = 1;
            for (uint32_t q = 0; q < count && within; ++q)
                for (uint32_t b = bone; b < end; ++b)
                    if (!(mani_CcKeep(w, c, sk, q, b, d, 0, b == bone) <= precision)) {
                        within = 0;
                        break;
                    }
            if (within) {
                lowered = 1;
                continue;
            }
            mani_CcSetRate(w, s, t, rate);
            for (uint32_t q = 0; q < count; ++q)
                for (uint32_t b = bone; b < end; ++b) mani_CcKeep(w, c, sk, q, b, d, 0, b == bone);
            w->stuck[t] = 1;
        }
    }
}

/* A segment's check points: the times it owns, then each of its samples on
 * its own (a later segment's time just past it, at a fraction near 0,
 * depends on it). */
static uint32_t mani_CcCheckPoints(mani_CcWork* w, uint32_t s) {
    uint32_t k0, k1;
    mani_CcSegSpan(w, s, &k0, &k1);
    uint32_t count = 0;
    for (uint32_t p = w->pointStart[s]; p < w->pointStart[s + 1]; ++p) w->check[count++] = w->points[p];
    for (uint32_t k = k0; k < k1; ++k) {
        memset(&w->check[count], 0, sizeof w->check[count]);
        w->check[count].spot.i = w->check[count].spot.j = k;
        count++;
    }
    return count;
}

static void mani_CcSearchSegment(mani_CcWork* w, const maniClip* c, const maniSkeleton* sk,
                                 const maniCompressOptions* o, uint32_t s) {
    const uint32_t count = mani_CcCheckPoints(w, s);
    mani_CcRaiseSegment(w, c, sk, o, s, count);
    if (w->boneTracks > 0) mani_CcLowerSegment(w, c, sk, o, s, count);
}

/* -- Folding -------------------------------------------------------------------- */

/* The share of the precision the folded channels of a chain may take
 * together (their errors at the bones' reach, a first-order bound of what
 * they move the chain's vertices): the rest is left to the quantized tracks. */
#define MANI_CC_FOLD_SHARE 0.25

/* Folds animated channels whose every sample is near their default (into
 * default) or near the middle of their values (into a constant), bones in
 * order, while the folds along each chain stay within the share; float
 * tracks within half their tolerance of +0 or of their middle. The folded
 * values go into dec. */
static void mani_CcFold(mani_CcWork* w, const maniCompressOptions* o) {
    const double budget = (double)o->precision * MANI_CC_FOLD_SHARE;
    for (uint32_t bone = 0; bone < w->bones; ++bone) {
        const uint32_t parent = w->parent[bone];
        double spent = parent == MANI_NO_BONE ? 0.0 : w->foldErr[parent];
        for (uint32_t ch = 0; ch < 3; ++ch) {
            if (w->kind[3ull * bone + ch] != MANI_CC_KIND_ANIMATED) continue;
            const uint32_t at = maniCcStartOf[ch], width = maniCcWidthOf[ch];
            /* The middle of the stored values (a rotation's x y z with
             * w >= 0, w rebuilt as the runtime would). */
            float mid[4] = {0, 0, 0, 0};
            for (uint32_t c = 0; c < 3; ++c) {
                double lo = 0.0, hi = 0.0;
                for (uint32_t k = 0; k < w->n; ++k) {
                    const float* v = w->src + ((uint64_t)k * w->bones + bone) * 10 + at;
                    const double x = ch == 1 && v[3] < 0.0f ? -(double)v[c] : (double)v[c];
                    if (k == 0 || x < lo) lo = x;
                    if (k == 0 || x > hi) hi = x;
                }
                mid[c] = (float)((lo + hi) / 2.0);
            }
            int midUsable = isfinite(mid[0]) && isfinite(mid[1]) && isfinite(mid[2]);
            if (ch == 1) {
                mid[3] = mani_CcRebuildW(mid[0], mid[1], mid[2]);
                midUsable = midUsable && mani_ClipUnit(mid[0], mid[1], mid[2], mid[3]);
            }
            const float* d = w->deflt + 10ull * bone + at;
            double errDefault = 0.0, errMid = 0.0;
            for (uint32_t k = 0; k < w->n; ++k) {
                const float* v = w->src + ((uint64_t)k * w->bones + bone) * 10 + at;
                const double ed = mani_CcChannelError(w, bone, ch, v, d);
                const double em = midUsable ? mani_CcChannelError(w, bone, ch, v, mid) : (double)INFINITY;
                if (!(ed <= errDefault)) errDefault = ed; /* a NaN stays */
                if (!(em <= errMid)) errMid = em;
            }
            const float* value = NULL;
            if (spent + errDefault <= budget) {
                value = d;
                spent += errDefault;
                w->kind[3ull * bone + ch] = MANI_CC_KIND_DEFAULT;
            } else if (spent + errMid <= budget) {
                value = mid;
                spent += errMid;
                w->kind[3ull * bone + ch] = MANI_CC_KIND_CONSTANT;
            }
            if (value != NULL)
                for (uint32_t k = 0; k < w->n; ++k)
                    memcpy(w->dec + ((uint64_t)k * w->bones + bone) * 10 + at, value, 4u * width);
        }
        w->foldErr[bone] = spent;
    }
    const double floatBudget = (double)o->floatPrecision / 2.0;
    for (uint32_t f = 0; f < w->floats; ++f) {
        if (w->kind[3ull * w->bones + f] != MANI_CC_KIND_ANIMATED) continue;
        double lo = 0.0, hi = 0.0;
        for (uint32_t k = 0; k < w->n; ++k) {
            const double x = w->srcF[(uint64_t)k * w->floats + f];
            if (k == 0 || x < lo) lo = x;
            if (k == 0 || x > hi) hi = x;
        }
        const float mid = (float)((lo + hi) / 2.0);
        double errZero = 0.0, errMid = 0.0;
        for (uint32_t k = 0; k < w->n; ++k) {
            const double x = w->srcF[(uint64_t)k * w->floats + f];
            const double ez = x < 0 ? -x : x, em = x < mid ? mid - x : x - mid;
            if (!(ez <= errZero)) errZero = ez;
            if (!(em <= errMid)) errMid = em;
        }
        float value;
        if (errZero <= floatBudget) {
            value = 0.0f;
            w->kind[3ull * w->bones + f] = MANI_CC_KIND_DEFAULT;
        } else if (isfinite(mid) && errMid <= floatBudget) {
            value = mid;
            w->kind[3ull * w->bones + f] = MANI_CC_KIND_CONSTANT;
        } else {
            continue;
        }
        for (uint32_t k = 0; k < w->n; ++k) w->decF[(uint64_t)k * w->floats + f] = value;
    }
}

/* -- Writing ---------------------------------------------------------------------- */

static void mani_CcPutBits(uint8_t* p, uint64_t at, uint32_t value, uint32_t bits) {
    while (bits > 0) {
        const uint32_t off = (uint32_t)(at & 7u), take = 8u - off < bits ? 8u - off : bits;
        p[at >> 3] |= (uint8_t)((value & ((1u << take) - 1u)) << off);
        value = take >= 32 ? 0 : value >> take;
        at += take;
        bits -= take;
    }
}

static uint64_t mani_CcBitsPerSample(const mani_CcWork* w, uint32_t s, uint64_t* boneBits) {
    uint64_t bits = 0;
    for (uint32_t t = 0; t < w->tracks; ++t) {
        if (t == w->boneTracks) *boneBits = bits;
        bits += mani_CcTrackBits(w->rate[(uint64_t)s * w->tracks + t], mani_CcComps(w, t), w->trackCh[t] == 1);
    }
    if (w->tracks == w->boneTracks) *boneBits = bits;
    return bits;
}

maniResult maniCompressClip(maniBuilder* builder, const maniClip* clip, const maniSkeleton* skeleton,
                            const maniCompressOptions* options, maniCompressReport* reportOut) {
    if (builder == NULL) return mani_errorInvalid;
    const maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return entered;
    if (clip == NULL || skeleton == NULL || options == NULL || reportOut == NULL) {
        builder->misuse++;
        return mani_errorInvalid;
    }
    const maniCompressOptions o = *options;
    if (!(o.precision > 0.0f) || !isfinite(o.precision) || !(o.shellDistance > 0.0f) || !isfinite(o.shellDistance) ||
        !(o.floatPrecision > 0.0f) || !isfinite(o.floatPrecision)) {
        builder->misuse++;
        return mani_errorInvalid;
    }
    if (!mani_ClipViewOk(clip) || mani_ClipIsCompressedView(clip)) return mani_errorInvalid;
    if (!mani_SkeletonViewOk(skeleton) || skeleton->identity != clip->skeletonIdentity ||
        skeleton->boneCount != clip->boneCount)
        return mani_errorInvalid;
    const maniClip* c = clip;

    mani_CcWork w;
    memset(&w, 0, sizeof w);
    w.bones = c->boneCount;
    w.n = c->sampleCount;
    w.floats = c->floatTrackCount;
    w.segments = mani_C11SegmentCount(w.n);
    const uint64_t values = (uint64_t)w.n * w.bones * 10;
    w.src = (float*)mani_CcAlloc(builder, &w, values, 4);
    w.dec = (float*)mani_CcAlloc(builder, &w, values, 4);
    w.srcF = (float*)mani_CcAlloc(builder, &w, (uint64_t)w.n * w.floats, 4);
    w.decF = (float*)mani_CcAlloc(builder, &w, (uint64_t)w.n * w.floats, 4);
    w.parent = (uint32_t*)mani_CcAlloc(builder, &w, w.bones, 4);
    w.reach = (double*)mani_CcAlloc(builder, &w, w.bones, 8);
    w.kind = (uint8_t*)mani_CcAlloc(builder, &w, 3ull * w.bones + w.floats, 1);
    w.boneErr = (double*)mani_CcAlloc(builder, &w, w.bones, 8);
    w.model = (double*)mani_CcAlloc(builder, &w, 24ull * w.bones, 8);
    w.points = (mani_CcPoint*)mani_CcAlloc(builder, &w, 2ull * w.n, sizeof(mani_CcPoint));
    w.pointStart = (uint32_t*)mani_CcAlloc(builder, &w, w.segments + 1, 4);
    w.subtreeEnd = (uint32_t*)mani_CcAlloc(builder, &w, w.bones, 4);
    w.deflt = (float*)mani_CcAlloc(builder, &w, 10ull * w.bones, 4);
    w.foldErr = (double*)mani_CcAlloc(builder, &w, w.bones, 8);
    if (w.failed) {
        mani_CcFreeWork(builder, &w);
        return mani_errorCapacity;
    }

    /* The source's values. */
    for (uint32_t k = 0; k < w.n; ++k) {
        const uint8_t* record = mani_ClipRecord(c, k);
        for (uint32_t bone = 0; bone < w.bones; ++bone)
            mani_ClipReadBone(record, bone, w.src + ((uint64_t)k * w.bones + bone) * 10);
        for (uint32_t f = 0; f < w.floats; ++f)
            w.srcF[(uint64_t)k * w.floats + f] = mcore_ReadF32(c->bytes + c->floatSamples + 4ull * ((uint64_t)k * w.floats + f));
    }
    for (uint32_t bone = 0; bone < w.bones; ++bone) w.parent[bone] = mani_SkeletonParentRaw(skeleton, bone);

    /* Subtrees (depth-first order: a bone's descendants follow it). */
    for (uint32_t bone = 0; bone < w.bones; ++bone) w.subtreeEnd[bone] = bone + 1;
    for (uint32_t bone = w.bones; bone-- > 0;) {
        const uint32_t parent = w.parent[bone];
        if (parent != MANI_NO_BONE && w.subtreeEnd[bone] > w.subtreeEnd[parent])
            w.subtreeEnd[parent] = w.subtreeEnd[bone];
    }

    /* Reach: the shell distance plus the farthest chain of children (the
     * largest translation of each link over the clip). */
    for (uint32_t bone = w.bones; bone-- > 0;) {
        const uint32_t parent = w.parent[bone];
        if (parent == MANI_NO_BONE) continue;
        double far = 0.0;
        for (uint32_t k = 0; k < w.n; ++k) {
            const float* v = w.src + ((uint64_t)k * w.bones + bone) * 10;
            const double len = sqrt(((double)v[0] * v[0] + (double)v[1] * v[1]) + (double)v[2] * v[2]);
            if (len > far) far = len;
        }
        if (far + w.reach[bone] > w.reach[parent]) w.reach[parent] = far + w.reach[bone];
    }
    for (uint32_t bone = 0; bone < w.bones; ++bone) w.reach[bone] += o.shellDistance;

    /* Defaults: the rest, or the identity for an additive clip. */
    for (uint32_t bone = 0; bone < w.bones; ++bone) {
        const maniTransform base =
            c->additive != maniAdditiveNone ? mani_IdentityTransform() : mani_SkeletonRestRaw(skeleton, bone);
        const float d[10] = {base.translation.x, base.translation.y, base.translation.z, base.rotation.x,
                             base.rotation.y,    base.rotation.z,    base.rotation.w,    base.scale.x,
                             base.scale.y,       base.scale.z};
        memcpy(w.deflt + 10ull * bone, d, sizeof d);
    }

    /* The points, bucketed by the segment that owns them. */
    {
        uint32_t count = 0;
        mani_CcPoint* all = w.points;
        for (uint32_t k = 0; k < w.n; ++k) {
            const double tk = mani_ClipSampleTime(k, w.n, c->duration, c->sampleRate);
            all[count].spot = mani_ClipLocate(w.n, c->duration, c->sampleRate, (float)tk);
            all[count++].id = 2 * k;
            if (k + 1 < w.n) {
                const double th = (tk + mani_ClipSampleTime(k + 1, w.n, c->duration, c->sampleRate)) / 2.0;
                all[count].spot = mani_ClipLocate(w.n, c->duration, c->sampleRate, (float)th);
                all[count++].id = 2 * k + 1;
            }
        }
        w.pointCount = count;
        /* Owners are not decreasing along the times: check, and stable-order
         * them by owner when not (a counting pass). */
        for (uint32_t p = 0; p < count; ++p) {
            const mani_ClipSpot s = all[p].spot;
            const uint32_t owner = mani_C11SegmentOf(s.f != 0.0f ? s.j : s.i, w.segments);
            w.pointStart[owner + 1]++;
        }
        for (uint32_t s = 0; s < w.segments; ++s) w.pointStart[s + 1] += w.pointStart[s];
        mani_CcPoint* sorted = (mani_CcPoint*)mani_CcAlloc(builder, &w, count, sizeof(mani_CcPoint));
        uint32_t* fill = (uint32_t*)mani_CcAlloc(builder, &w, w.segments, 4);
        if (w.failed) {
            mani_CcFreeWork(builder, &w);
            return mani_errorCapacity;
        }
        for (uint32_t s = 0; s < w.segments; ++s) fill[s] = w.pointStart[s];
        for (uint32_t p = 0; p < count; ++p) {
            const mani_ClipSpot s = all[p].spot;
            const uint32_t owner = mani_C11SegmentOf(s.f != 0.0f ? s.j : s.i, w.segments);
            sorted[fill[owner]++] = all[p];
        }
        w.points = sorted;
        for (uint32_t s = 0; s < w.segments; ++s) {
            uint32_t k0, k1;
            mani_CcSegSpan(&w, s, &k0, &k1);
            const uint32_t need = (w.pointStart[s + 1] - w.pointStart[s]) + (k1 - k0);
            if (need > w.checkCapacity) w.checkCapacity = need;
        }
    }

    /* The per-track arrays, for as many tracks as the clip may animate. */
    const uint32_t maxTracks = 3u * w.bones + w.floats, maxComps = 10u * w.bones + w.floats;
    w.cbase = (uint32_t*)mani_CcAlloc(builder, &w, maxTracks, 4);
    w.drop = (uint8_t*)mani_CcAlloc(builder, &w, (uint64_t)w.segments * maxTracks, 1);
    w.wide = (uint8_t*)mani_CcAlloc(builder, &w, maxTracks, 1);
    w.trackBone = (uint32_t*)mani_CcAlloc(builder, &w, maxTracks, 4);
    w.trackCh = (uint8_t*)mani_CcAlloc(builder, &w, maxTracks, 1);
    w.cmin = (float*)mani_CcAlloc(builder, &w, maxComps, 4);
    w.cext = (float*)mani_CcAlloc(builder, &w, maxComps, 4);
    w.segMin = (uint8_t*)mani_CcAlloc(builder, &w, (uint64_t)w.segments * maxComps, 1);
    w.segExt = (uint8_t*)mani_CcAlloc(builder, &w, (uint64_t)w.segments * maxComps, 1);
    w.boundMin = (uint8_t*)mani_CcAlloc(builder, &w, (uint64_t)w.segments * maxComps, 1);
    w.boundExt = (uint8_t*)mani_CcAlloc(builder, &w, (uint64_t)w.segments * maxComps, 1);
    w.midMin = (uint8_t*)mani_CcAlloc(builder, &w, (uint64_t)w.segments * maxComps, 1);
    w.rate = (uint8_t*)mani_CcAlloc(builder, &w, (uint64_t)w.segments * maxTracks, 1);
    w.local = (double*)mani_CcAlloc(builder, &w, maxTracks, 8);
    w.raised = (uint8_t*)mani_CcAlloc(builder, &w, maxTracks, 1);
    w.stuck = (uint8_t*)mani_CcAlloc(builder, &w, maxTracks, 1);
    w.firstTrack = (uint32_t*)mani_CcAlloc(builder, &w, (uint64_t)w.bones + 1, 4);
    w.check = (mani_CcPoint*)mani_CcAlloc(builder, &w, w.checkCapacity, sizeof(mani_CcPoint));
    w.cache = (double*)mani_CcAlloc(builder, &w, (uint64_t)w.checkCapacity * w.bones * MANI_CC_KEPT, 8);
    w.moved = (uint8_t*)mani_CcAlloc(builder, &w, w.bones, 1);
    if (w.failed) {
        mani_CcFreeWork(builder, &w);
        return mani_errorCapacity;
    }

    /* First with the channels near a constant folded; if some time is then
     * still above the precision with every track of its chains raw (the
     * folds' budget is a first-order bound), again without folding, which
     * always holds: raw values are exact. */
    maniCompressReport report = *reportOut;
    uint32_t boneConstants = 0, floatConstants = 0, floatTracks = 0;
    for (int fold = 1;; fold = 0) {
        memcpy(w.dec, w.src, (size_t)values * 4);
        if (w.floats > 0) memcpy(w.decF, w.srcF, (size_t)w.n * w.floats * 4);

        /* Kinds: a channel the source does not animate, or whose every
         * sample has its default's bits, default; every sample the first's
         * bits, constant; else animated, or folded when near a constant. */
        for (uint32_t bone = 0; bone < w.bones; ++bone) {
            const uint32_t mask = mcore_ReadU32(c->bytes + c->channels + 4ull * bone);
            const float* d = w.deflt + 10ull * bone;
            for (uint32_t ch = 0; ch < 3; ++ch) {
                uint8_t kind = MANI_CC_KIND_DEFAULT;
                if (mask & (1u << ch)) {
                    int isDefault = 1, isConstant = 1;
                    const size_t bytes = 4u * maniCcWidthOf[ch];
                    const float* first = w.src + (uint64_t)bone * 10 + maniCcStartOf[ch];
                    for (uint32_t k = 0; k < w.n; ++k) {
                        const float* v = w.src + ((uint64_t)k * w.bones + bone) * 10 + maniCcStartOf[ch];
                        if (memcmp(v, d + maniCcStartOf[ch], bytes) != 0) isDefault = 0;
                        if (memcmp(v, first, bytes) != 0) isConstant = 0;
                    }
                    kind = isDefault    ? MANI_CC_KIND_DEFAULT
                           : isConstant ? MANI_CC_KIND_CONSTANT
                                        : MANI_CC_KIND_ANIMATED;
                }
                w.kind[3ull * bone + ch] = kind;
            }
        }
        for (uint32_t f = 0; f < w.floats; ++f) {
            int isDefault = 1, isConstant = 1;
            const float zero = 0.0f;
            for (uint32_t k = 0; k < w.n; ++k) {
                const float* v = w.srcF + (uint64_t)k * w.floats + f;
                if (memcmp(v, &zero, 4) != 0) isDefault = 0;
                if (memcmp(v, w.srcF + f, 4) != 0) isConstant = 0;
            }
            w.kind[3ull * w.bones + f] = isDefault    ? MANI_CC_KIND_DEFAULT
                                         : isConstant ? MANI_CC_KIND_CONSTANT
                                                      : MANI_CC_KIND_ANIMATED;
        }
        if (fold) mani_CcFold(&w, &o);
        w.boneTracks = 0;
        boneConstants = floatConstants = floatTracks = 0;
        for (uint32_t bone = 0; bone < w.bones; ++bone)
            for (uint32_t ch = 0; ch < 3; ++ch) {
                if (w.kind[3ull * bone + ch] == MANI_CC_KIND_ANIMATED) w.boneTracks++;
                if (w.kind[3ull * bone + ch] == MANI_CC_KIND_CONSTANT) boneConstants += maniCcWidthOf[ch];
            }
        for (uint32_t f = 0; f < w.floats; ++f) {
            if (w.kind[3ull * w.bones + f] == MANI_CC_KIND_ANIMATED) floatTracks++;
            if (w.kind[3ull * w.bones + f] == MANI_CC_KIND_CONSTANT) floatConstants++;
        }
        w.tracks = w.boneTracks + floatTracks;
        w.comps = 3u * w.boneTracks + floatTracks;
        {
            uint32_t t = 0;
            for (uint32_t bone = 0; bone < w.bones; ++bone) {
                w.firstTrack[bone] = t;
                for (uint32_t ch = 0; ch < 3; ++ch)
                    if (w.kind[3ull * bone + ch] == MANI_CC_KIND_ANIMATED) {
                        w.trackBone[t] = bone;
                        w.trackCh[t++] = (uint8_t)ch;
                    }
            }
            w.firstTrack[w.bones] = t;
            for (uint32_t f = 0; f < w.floats; ++f)
                if (w.kind[3ull * w.bones + f] == MANI_CC_KIND_ANIMATED) {
                    w.trackBone[t] = f;
                    w.trackCh[t++] = 3;
                }
        }

        /* Each track's first clip component; each rotation's dropped
         * component per segment: the one whose smallest magnitude over the
         * segment's samples is largest (w on a tie). */
        w.ccomps = 0;
        for (uint32_t t = 0; t < w.tracks; ++t) {
            w.cbase[t] = w.ccomps;
            w.ccomps += mani_CcClipComps(&w, t);
        }
        for (uint32_t s = 0; s < w.segments; ++s)
            for (uint32_t t = 0; t < w.tracks; ++t) {
                uint32_t best = 3;
                if (w.trackCh[t] == 1) {
                    uint32_t k0, k1;
                    mani_CcSegSpan(&w, s, &k0, &k1);
                    double least[4];
                    for (uint32_t cc = 0; cc < 4; ++cc) {
                        least[cc] = (double)INFINITY;
                        for (uint32_t k = k0; k < k1; ++k) {
                            const float* v = w.src + ((uint64_t)k * w.bones + w.trackBone[t]) * 10 + 3;
                            const double m = fabs((double)v[cc]);
                            if (m < least[cc]) least[cc] = m;
                        }
                    }
                    if (!(least[3] >= MANI_C11_KEEP_W))
                        for (uint32_t cc = 0; cc < 3; ++cc)
                            if (least[cc] > least[best]) best = cc;
                }
                w.drop[(uint64_t)s * w.tracks + t] = (uint8_t)best;
            }
        for (uint32_t t = 0; t < w.tracks; ++t) {
            w.wide[t] = 0;
            for (uint32_t s = 0; s < w.segments; ++s)
                if (w.drop[(uint64_t)s * w.tracks + t] != 3) w.wide[t] = 1;
        }

        /* Clip ranges (binary32 min and extent; a value past min + extent
         * is clamped by the quantization, and measured). */
        for (uint32_t t = 0; t < w.tracks; ++t)
            for (uint32_t cc = 0; cc < mani_CcClipComps(&w, t); ++cc) {
                /* Over the samples of the segments that keep the component
                 * (a rotation's dropped one is not stored). */
                double lo = 0.0, hi = 0.0;
                int any = 0;
                for (uint32_t k = 0; k < w.n; ++k) {
                    if (w.trackCh[t] == 1 &&
                        w.drop[(uint64_t)mani_C11SegmentOf(k, w.segments) * w.tracks + t] == cc)
                        continue;
                    const double v = mani_CcStoredComp(&w, t, k, cc);
                    if (!any || v < lo) lo = v;
                    if (!any || v > hi) hi = v;
                    any = 1;
                }
                const uint32_t ci = mani_CcCompBase(&w, t) + cc;
                w.cmin[ci] = (float)lo;
                float ext = (float)(hi - (double)w.cmin[ci]);
                if (!isfinite(ext) || !isfinite(w.cmin[ci] + ext)) ext = 0.0f; /* only raw can hold such a track */
                w.cext[ci] = ext;
                /* Segment ranges in 255ths: around the values, and for rate
                 * 0 the one nearest their middle. */
                for (uint32_t s = 0; s < w.segments; ++s) {
                    uint32_t k0, k1;
                    mani_CcSegSpan(&w, s, &k0, &k1);
                    double nlo = 2.0, nhi = -1.0;
                    for (uint32_t k = k0; k < k1; ++k) {
                        const double x = mani_CcNorm(&w, ci, mani_CcStoredComp(&w, t, k, cc));
                        if (x < nlo) nlo = x;
                        if (x > nhi) nhi = x;
                    }
                    uint32_t qlo = mani_CcFloorU(nlo * 255.0), qhi = mani_CcCeilU(nhi * 255.0);
                    if (qlo > 255) qlo = 255;
                    if (qhi > 255) qhi = 255;
                    if (qhi < qlo) qhi = qlo;
                    uint32_t qmid = mani_CcFloorU((nlo + nhi) / 2.0 * 255.0 + 0.5);
                    if (qmid > 255) qmid = 255;
                    const uint64_t si = (uint64_t)s * w.ccomps + ci;
                    w.boundMin[si] = w.segMin[si] = (uint8_t)qlo;
                    w.boundExt[si] = w.segExt[si] = (uint8_t)(qhi - qlo);
                    w.midMin[si] = (uint8_t)qmid;
                }
            }

        /* The search, segment by segment. */
        for (uint32_t s = 0; s < w.segments; ++s) mani_CcSearchSegment(&w, c, skeleton, &o, s);

        /* The report's errors: every point, on the final values. A time
         * whose value the search could not keep within the precision (one
         * just past a segment's last sample, at a fraction near 0, after
         * that segment was decided) makes its bones' chains raw in both its
         * samples' segments, and every time is measured again: raw values
         * are exact, so this ends. */
        for (;;) {
            report.worstError = 0.0;
            report.worstBone = MANI_NO_BONE;
            report.worstSample = 0;
            int changed = 0;
            for (uint32_t bone = 0; bone < w.bones; ++bone) w.boneErr[bone] = 0.0;
            for (uint32_t p = 0; p < w.pointCount; ++p) {
                double worst = 0.0;
                uint32_t worstBone = MANI_NO_BONE;
                mani_CcPointErrors(&w, c, skeleton, &w.points[p], o.shellDistance, w.boneErr, &worst, &worstBone);
                if (worst > report.worstError) {
                    report.worstError = worst;
                    report.worstBone = worstBone;
                    report.worstSample = w.points[p].id;
                }
                if (!(worst > (double)o.precision)) continue;
                const mani_ClipSpot sp = w.points[p].spot;
                const uint32_t segs[2] = {mani_C11SegmentOf(sp.i, w.segments), mani_C11SegmentOf(sp.j, w.segments)};
                for (uint32_t b = worstBone; b != MANI_NO_BONE; b = w.parent[b])
                    for (uint32_t t = w.firstTrack[b]; t < w.firstTrack[b + 1]; ++t)
                        for (int q = 0; q < 2; ++q)
                            if (w.rate[(uint64_t)segs[q] * w.tracks + t] != MANI_CC_RATE_RAW) {
                                mani_CcSetRate(&w, segs[q], t, MANI_CC_RATE_RAW);
                                changed = 1;
                            }
            }
            if (!changed) break;
        }
        /* Float tracks the same way: a time over the tolerance (a linear
         * blend's roundings, after the owning segment was decided) makes the
         * track raw in both its samples' segments. */
        for (uint32_t t = w.boneTracks; t < w.tracks; ++t)
            for (uint32_t p = 0; p < w.pointCount; ++p) {
                if (!(mani_CcFloatError(&w, c, w.trackBone[t], w.points + p, 1) > (double)o.floatPrecision)) continue;
                const mani_ClipSpot sp = w.points[p].spot;
                mani_CcSetRate(&w, mani_C11SegmentOf(sp.i, w.segments), t, MANI_CC_RATE_RAW);
                mani_CcSetRate(&w, mani_C11SegmentOf(sp.j, w.segments), t, MANI_CC_RATE_RAW);
            }
        report.worstFloatError = 0.0;
        report.worstFloatTrack = MANI_NO_TRACK;
        for (uint32_t f = 0; f < w.floats; ++f) {
            const double e = mani_CcFloatError(&w, c, f, w.points, w.pointCount);
            if (e > report.worstFloatError) {
                report.worstFloatError = e;
                report.worstFloatTrack = f;
            }
        }
        if (!fold || (report.worstError <= (double)o.precision && report.worstFloatError <= (double)o.floatPrecision))
            break;
    }

    /* Sizes and layout. */
    uint64_t packedSize = 0;
    for (uint32_t s = 0; s < w.segments; ++s) {
        uint64_t boneBits = 0;
        const uint64_t bps = mani_CcBitsPerSample(&w, s, &boneBits);
        uint32_t k0, k1;
        mani_CcSegSpan(&w, s, &k0, &k1);
        packedSize += mani_CcBlockSize(w.tracks, w.comps, bps, k1 - k0);
    }
    packedSize += MANI_CC_PACKED_TAIL;
    const uint64_t rootSize = c->rootFlags != 0 ? (uint64_t)w.n * MANI_CLIP_ROOT_SAMPLE_BYTES : 0;
    /* The clip ranges written: a rotation that drops only w has three (x y
     * z; no bit 14 in its channel word). w.moved marks the bones whose
     * rotation is wide. */
    uint64_t writtenComps = 0;
    memset(w.moved, 0, w.bones);
    for (uint32_t t = 0; t < w.tracks; ++t) {
        writtenComps += w.trackCh[t] == 1 ? (w.wide[t] ? 4u : 3u) : mani_CcClipComps(&w, t);
        if (w.trackCh[t] == 1 && w.wide[t]) w.moved[w.trackBone[t]] = 1;
    }
    const uint64_t sizes[MANI_C11_SECTION_COUNT] = {
        MANI_CC_INFO_SIZE,
        4ull * ((uint64_t)w.bones + w.floats),
        4ull * ((uint64_t)boneConstants + floatConstants),
        8ull * writtenComps,
        (uint64_t)w.segments * MANI_C11_SEGMENT_ENTRY,
        packedSize,
        (uint64_t)w.floats * MANI_CLIP_ITEM_BYTES,
        (uint64_t)c->discreteTrackCount * MANI_CLIP_ITEM_BYTES,
        (uint64_t)c->discreteKeyCount * MANI_CLIP_KEY_BYTES,
        (uint64_t)c->eventCount * MANI_CLIP_ITEM_BYTES,
        (uint64_t)c->markerCount * MANI_CLIP_ITEM_BYTES,
        rootSize,
        c->namesSize,
    };
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniC11Sections, sizes, MANI_C11_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) {
        mani_CcFreeWork(builder, &w);
        return mani_errorCapacity;
    }
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;

    /* Info. */
    uint8_t* info = file + sec[0].offset;
    mcore_WriteU32(info + MANI_CLIP_INFO_BONES, w.bones);
    mcore_WriteU32(info + MANI_CLIP_INFO_SAMPLES, w.n);
    mcore_WriteF32(info + MANI_CLIP_INFO_DURATION, c->duration);
    mcore_WriteF32(info + MANI_CLIP_INFO_RATE, c->sampleRate);
    mcore_WriteU32(info + MANI_CLIP_INFO_LOOP, c->loop);
    mcore_WriteU32(info + MANI_CLIP_INFO_ADDITIVE, c->additive);
    mcore_WriteU32(info + MANI_CLIP_INFO_FLOATS, w.floats);
    mcore_WriteU32(info + MANI_CLIP_INFO_DISCRETES, c->discreteTrackCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_DISCRETE_KEYS, c->discreteKeyCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_EVENTS, c->eventCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_MARKERS, c->markerCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_NAMES, (uint32_t)c->namesSize);
    mcore_WriteU32(info + MANI_CLIP_INFO_ROOT_BONE, c->rootBone);
    mcore_WriteU32(info + MANI_CLIP_INFO_ROOT_FLAGS, c->rootFlags);
    mcore_WriteU64(info + MANI_CLIP_INFO_SKELETON, c->skeletonIdentity);
    mcore_WriteU32(info + MANI_CC_INFO_BONE_TRACKS, w.boneTracks);
    mcore_WriteU32(info + MANI_CC_INFO_FLOAT_TRACKS, floatTracks);
    mcore_WriteU32(info + MANI_CC_INFO_BONE_CONSTANTS, boneConstants);
    mcore_WriteU32(info + MANI_CC_INFO_SEGMENT, MANI_C11_SEGMENT);

    /* Channel words and constants. */
    uint32_t constant = 0;
    for (uint32_t bone = 0; bone < w.bones; ++bone) {
        uint32_t word = mcore_ReadU32(c->bytes + c->channels + 4ull * bone) & MANI_CLIP_CHANNEL_ALL;
        for (uint32_t ch = 0; ch < 3; ++ch) {
            const uint32_t kind = w.kind[3ull * bone + ch];
            word |= kind << (MANI_CC_KIND_SHIFT + 2 * ch);
            if (kind == MANI_CC_KIND_CONSTANT)
                for (uint32_t k = 0; k < maniCcWidthOf[ch]; ++k)
                    mcore_WriteF32(file + sec[2].offset + 4ull * constant++,
                                   w.dec[(uint64_t)bone * 10 + maniCcStartOf[ch] + k]);
        }
        if (w.moved[bone]) word |= MANI_C11_WIDE_ROTATION;
        mcore_WriteU32(file + sec[1].offset + 4ull * bone, word);
    }
    for (uint32_t f = 0; f < w.floats; ++f) {
        const uint32_t kind = w.kind[3ull * w.bones + f];
        mcore_WriteU32(file + sec[1].offset + 4ull * ((uint64_t)w.bones + f), kind);
        if (kind == MANI_CC_KIND_CONSTANT) mcore_WriteF32(file + sec[2].offset + 4ull * constant++, w.decF[f]);
    }

    /* Ranges. */
    {
        uint64_t at = sec[3].offset;
        for (uint32_t t = 0; t < w.tracks; ++t) {
            const uint32_t n = w.trackCh[t] == 1 && !w.wide[t] ? 3u : mani_CcClipComps(&w, t);
            for (uint32_t cc = 0; cc < n; ++cc, at += 8) {
                mcore_WriteF32(file + at, w.cmin[mani_CcCompBase(&w, t) + cc]);
                mcore_WriteF32(file + at + 4, w.cext[mani_CcCompBase(&w, t) + cc]);
            }
        }
    }

    /* Segments and their blocks. */
    uint64_t running = 0;
    for (uint32_t s = 0; s < w.segments; ++s) {
        uint64_t boneBits = 0;
        const uint64_t bps = mani_CcBitsPerSample(&w, s, &boneBits);
        uint32_t k0, k1;
        mani_CcSegSpan(&w, s, &k0, &k1);
        const uint32_t count = k1 - k0;
        uint8_t* entry = file + sec[4].offset + (uint64_t)s * MANI_C11_SEGMENT_ENTRY;
        mcore_WriteU32(entry, (uint32_t)running);
        mcore_WriteU32(entry + 4, (uint32_t)bps);
        mcore_WriteU32(entry + 8, (uint32_t)boneBits);
        uint8_t* block = file + sec[5].offset + running;
        for (uint32_t t = 0; t < w.tracks; ++t) {
            const uint32_t rate = w.rate[(uint64_t)s * w.tracks + t];
            const uint32_t drop = w.trackCh[t] == 1 && rate != MANI_CC_RATE_RAW ? w.drop[(uint64_t)s * w.tracks + t] : 0u;
            block[t] = (uint8_t)(rate | drop << MANI_C11_DROP_SHIFT);
            /* The segment ranges of the stored components (a rotation's
             * kept three, in index order). */
            const uint32_t first = t < w.boneTracks ? 3u * t : 3u * w.boneTracks + (t - w.boneTracks);
            for (uint32_t j = 0; j < mani_CcComps(&w, t); ++j) {
                const uint32_t cc = w.trackCh[t] == 1 && j >= w.drop[(uint64_t)s * w.tracks + t] ? j + 1 : j;
                const uint64_t si = (uint64_t)s * w.ccomps + mani_CcCompBase(&w, t) + cc;
                block[mani_CcRangesAt(w.tracks) + 2ull * (first + j)] = w.segMin[si];
                block[mani_CcRangesAt(w.tracks) + 2ull * (first + j) + 1] = w.segExt[si];
            }
        }
        uint8_t* data = block + mani_CcBitsAt(w.tracks, w.comps);
        uint64_t bit = 0;
        for (uint32_t k = k0; k < k0 + count; ++k)
            for (uint32_t t = 0; t < w.tracks; ++t) {
                const uint32_t rate = w.rate[(uint64_t)s * w.tracks + t];
                if (rate == MANI_CC_RATE_RAW) {
                    const float* v = w.trackCh[t] == 3
                                         ? w.srcF + (uint64_t)k * w.floats + w.trackBone[t]
                                         : w.src + ((uint64_t)k * w.bones + w.trackBone[t]) * 10 +
                                               maniCcStartOf[w.trackCh[t]];
                    const uint32_t nv = w.trackCh[t] == 3 ? 1u : maniCcWidthOf[w.trackCh[t]];
                    for (uint32_t j = 0; j < nv; ++j) {
                        uint32_t bits;
                        memcpy(&bits, &v[j], 4);
                        mani_CcPutBits(data, bit, bits, 32);
                        bit += 32;
                    }
                } else {
                    const uint32_t bits = mani_CcRateBits(rate);
                    for (uint32_t j = 0; j < mani_CcComps(&w, t); ++j) {
                        const uint32_t cc = w.trackCh[t] == 1 && j >= w.drop[(uint64_t)s * w.tracks + t] ? j + 1 : j;
                        mani_CcPutBits(data, bit, mani_CcQuantize(&w, s, t, k, cc, rate), bits);
                        bit += bits;
                    }
                }
            }
        running += mani_CcBlockSize(w.tracks, w.comps, bps, count);
    }

    /* The sections kept as the source holds them. */
    const uint64_t from[7] = {c->floatInfo, c->discreteInfo, c->discreteKeys, c->events,
                              c->markers,   c->rootSamples,  c->names};
    for (uint32_t k = 0; k < 7; ++k)
        if (sizes[6 + k] > 0) memcpy(file + sec[6 + k].offset, c->bytes + from[k], (size_t)sizes[6 + k]);

    mcore_FinishContainer(file, &layout, mcore_kindClip, mcore_formatClipCompressed2, MANI_ABI_VERSION);

    if (reportOut->bones != NULL && reportOut->boneCapacity >= w.bones)
        for (uint32_t bone = 0; bone < w.bones; ++bone) reportOut->bones[bone] = w.boneErr[bone];
    report.sizeBefore = c->size;
    report.sizeAfter = layout.totalSize;
    report.ratio = (double)c->size / (double)layout.totalSize;
    *reportOut = report;
    mani_CcFreeWork(builder, &w);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_success;
}
