/* maniBuildClip: checks a clip source, evaluates it on the clip's grid in
 * binary64 and writes a full-precision clip file (docs/formats.md, "Clip"). */
#include "lib/core/quat64.h"
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/build_clip_internal.h"
#include "lib/anim/src/clip/clip_format.h"
#include "lib/core/detmath.h"
#include "lib/core/utf8.h"

/* -- Checks ------------------------------------------------------------------------ */

static int mani_TimesBad(const float* times, uint32_t count) {
    for (uint32_t k = 0; k < count; ++k) {
        if (!isfinite(times[k]) || times[k] < 0.0f) return 1;
        if (k > 0 && !(times[k] > times[k - 1])) return 1;
    }
    return 0;
}

static int mani_ValuesBad(const float* values, uint64_t count) {
    for (uint64_t k = 0; k < count; ++k)
        if (!isfinite(values[k])) return 1;
    return 0;
}

static uint32_t mani_PathWidth(uint32_t path) { return path == maniChannelRotation ? 4u : 3u; }

/* A name's refusal: 0 when good, else the result. */
static maniBuildResult mani_NameCheck(const char* name, size_t length, uint32_t listBit, uint64_t item,
                                      uint64_t other) {
    if (name == NULL || length == 0)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonName | listBit, item, other);
    if (length > MANI_MAX_NAME_BYTES)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonName | listBit, item, other);
    if (mcore_Utf8Check((const uint8_t*)name, length) != length)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonName | listBit, item, other);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

static int mani_SameName(const char* a, size_t la, const char* b, size_t lb) {
    return la == lb && memcmp(a, b, la) == 0;
}

void mani_ClipFreeTable(maniBuilder* b, const maniClipSource* source, uint32_t* table) {
    const uint32_t bones = maniSkeleton_GetBoneCount(source->skeleton);
    mani_BuilderFree(b, table, (size_t)bones * 3 * sizeof(uint32_t));
}

#define MANI_REFUSE(reason, item, other) return mani_BuildResult(mani_errorInvalid, (reason), (item), (other))

maniBuildResult mani_ClipCheckSource(maniBuilder* b, const maniClipSource* s, uint32_t* sampleCountOut,
                                     uint32_t** channelTableOut) {
    const maniBuildResult ok = mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
    const uint32_t bones = maniSkeleton_GetBoneCount(s->skeleton);
    if (bones == 0) MANI_REFUSE(maniBuildReasonJoint, 0, MANI_NO_BONE);
    if (!isfinite(s->duration) || s->duration < 0.0f || !isfinite(s->sampleRate) || !(s->sampleRate > 0.0f))
        MANI_REFUSE(maniBuildReasonTiming, 0, 0);
    if (s->loop > maniLoopRepeat || s->additive > maniAdditiveFirstFrame || s->reserved != 0)
        MANI_REFUSE(maniBuildReasonOption, 0, 0);
    const uint32_t n = mani_ClipSampleCountOf(s->duration, s->sampleRate);
    if (n == 0 || n > MANI_MAX_SAMPLES) return mani_BuildResult(mani_errorLimit, maniBuildReasonTiming, 0, 0);

    /* Channels. */
    if (s->channels == NULL && s->channelCount > 0) MANI_REFUSE(maniBuildReasonCount, 0, 0);
    for (uint32_t k = 0; k < s->channelCount; ++k) {
        const maniClipSourceChannel* c = &s->channels[k];
        if (c->path > maniChannelScale || c->interpolation > maniInterpolationCubicSpline)
            MANI_REFUSE(maniBuildReasonOption, k, 0);
        if (c->bone >= bones) MANI_REFUSE(maniBuildReasonJoint, k, c->bone);
        if (c->keyCount == 0 || c->times == NULL || c->values == NULL) MANI_REFUSE(maniBuildReasonCount, k, 0);
        if (mani_TimesBad(c->times, c->keyCount)) MANI_REFUSE(maniBuildReasonTiming, k, 0);
        const uint32_t width = mani_PathWidth(c->path);
        const uint64_t per = c->interpolation == maniInterpolationCubicSpline ? 3ull * width : width;
        if (mani_ValuesBad(c->values, per * c->keyCount)) MANI_REFUSE(maniBuildReasonNotFinite, k, 0);
        if (c->path == maniChannelRotation) {
            for (uint32_t j = 0; j < c->keyCount; ++j) {
                const float* q = c->values + per * j + (per == 12 ? 4 : 0);
                const double len2 = (((double)q[0] * q[0] + (double)q[1] * q[1]) + (double)q[2] * q[2]) +
                                    (double)q[3] * q[3];
                if (!(len2 > 0.0) || !isfinite(len2)) MANI_REFUSE(maniBuildReasonNotFinite, k, j);
            }
        }
    }

    /* Float tracks. */
    if (s->floatTracks == NULL && s->floatTrackCount > 0)
        MANI_REFUSE(maniBuildReasonCount | maniBuildReasonFloatTrack, 0, 0);
    if (s->floatTrackCount > MANI_CLIP_MAX_TRACKS)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonCount | maniBuildReasonFloatTrack, s->floatTrackCount, 0);
    for (uint32_t k = 0; k < s->floatTrackCount; ++k) {
        const maniClipSourceFloatTrack* t = &s->floatTracks[k];
        maniBuildResult r = mani_NameCheck(t->name, t->nameLength, maniBuildReasonFloatTrack, k, 0);
        if (r.result != mani_success) return r;
        for (uint32_t j = 0; j < k; ++j)
            if (mani_SameName(t->name, t->nameLength, s->floatTracks[j].name, s->floatTracks[j].nameLength))
                MANI_REFUSE(maniBuildReasonDuplicateName | maniBuildReasonFloatTrack, k, j);
        if (t->interpolation > maniInterpolationCubicSpline)
            MANI_REFUSE(maniBuildReasonOption | maniBuildReasonFloatTrack, k, 0);
        if (t->keyCount == 0 || t->times == NULL || t->values == NULL)
            MANI_REFUSE(maniBuildReasonCount | maniBuildReasonFloatTrack, k, 0);
        if (mani_TimesBad(t->times, t->keyCount)) MANI_REFUSE(maniBuildReasonTiming | maniBuildReasonFloatTrack, k, 0);
        const uint64_t per = t->interpolation == maniInterpolationCubicSpline ? 3 : 1;
        if (mani_ValuesBad(t->values, per * t->keyCount))
            MANI_REFUSE(maniBuildReasonNotFinite | maniBuildReasonFloatTrack, k, 0);
    }

    /* Discrete tracks (other 1 says which list). */
    if (s->discreteTracks == NULL && s->discreteTrackCount > 0)
        MANI_REFUSE(maniBuildReasonCount | maniBuildReasonFloatTrack, 0, 1);
    if (s->discreteTrackCount > MANI_CLIP_MAX_TRACKS)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonCount | maniBuildReasonFloatTrack, s->discreteTrackCount, 1);
    uint64_t keys = 0;
    for (uint32_t k = 0; k < s->discreteTrackCount; ++k) {
        const maniClipSourceDiscreteTrack* t = &s->discreteTracks[k];
        maniBuildResult r = mani_NameCheck(t->name, t->nameLength, maniBuildReasonFloatTrack, k, 1);
        if (r.result != mani_success) return r;
        for (uint32_t j = 0; j < k; ++j)
            if (mani_SameName(t->name, t->nameLength, s->discreteTracks[j].name, s->discreteTracks[j].nameLength))
                MANI_REFUSE(maniBuildReasonDuplicateName | maniBuildReasonFloatTrack, k, j);
        if (t->keyCount == 0 || t->times == NULL || t->values == NULL || t->reserved != 0)
            MANI_REFUSE(maniBuildReasonCount | maniBuildReasonFloatTrack, k, 1);
        if (mani_TimesBad(t->times, t->keyCount) || t->times[t->keyCount - 1] > s->duration)
            MANI_REFUSE(maniBuildReasonTiming | maniBuildReasonFloatTrack, k, 1);
        keys += t->keyCount;
    }
    if (keys > MANI_CLIP_MAX_KEYS)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonCount | maniBuildReasonFloatTrack, keys, 1);

    /* Events, then markers (other 1). */
    for (uint32_t list = 0; list < 2; ++list) {
        const maniClipSourceEvent* e = list == 0 ? s->events : s->markers;
        const uint32_t count = list == 0 ? s->eventCount : s->markerCount;
        if (e == NULL && count > 0) MANI_REFUSE(maniBuildReasonCount | maniBuildReasonEvent, 0, list);
        if (count > MANI_CLIP_MAX_TRACKS)
            return mani_BuildResult(mani_errorLimit, maniBuildReasonCount | maniBuildReasonEvent, count, list);
        for (uint32_t k = 0; k < count; ++k) {
            maniBuildResult r = mani_NameCheck(e[k].name, e[k].nameLength, maniBuildReasonEvent, k, list);
            if (r.result != mani_success) return r;
            if (!isfinite(e[k].time) || e[k].time < 0.0f || e[k].time > s->duration || e[k].reserved != 0)
                MANI_REFUSE(maniBuildReasonTiming | maniBuildReasonEvent, k, list);
        }
    }

    /* Root motion. */
    if (s->rootMotion != NULL) {
        const maniRootMotionSource* r = s->rootMotion;
        const uint32_t both = MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION;
        if (r->bone >= bones || r->flags == 0 || r->flags > MANI_ROOT_MOTION_ALL_FLAGS || (r->flags & both) == both ||
            s->additive != maniAdditiveNone)
            MANI_REFUSE(maniBuildReasonRootMotion, r->bone, r->flags);
    }

    /* One channel per bone and path. */
    uint32_t* table = (uint32_t*)mani_BuilderAlloc(b, (size_t)bones * 3 * sizeof(uint32_t), 4);
    if (table == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    memset(table, 0, (size_t)bones * 3 * sizeof(uint32_t));
    for (uint32_t k = 0; k < s->channelCount; ++k) {
        uint32_t* slot = &table[3 * s->channels[k].bone + s->channels[k].path];
        if (*slot != 0) {
            const uint32_t earlier = *slot - 1;
            mani_BuilderFree(b, table, (size_t)bones * 3 * sizeof(uint32_t));
            MANI_REFUSE(maniBuildReasonCount, k, earlier);
        }
        *slot = k + 1;
    }
    *sampleCountOut = n;
    *channelTableOut = table;
    return ok;
}

/* -- Evaluation ----------------------------------------------------------------------- */

void mani_QNormalize64(double q[4]) {
    const double len = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    if (!(len > 0.0) || !isfinite(len)) {
        q[0] = q[1] = q[2] = 0.0;
        q[3] = 1.0;
        return;
    }
    for (int k = 0; k < 4; ++k) q[k] /= len;
}

/* The key index k with times[k] <= t < times[k + 1], for t inside the keys. */
static uint32_t mani_KeyBefore(const float* times, uint32_t count, double t) {
    uint32_t lo = 0, hi = count - 1; /* times[lo] <= t < times[hi] */
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if ((double)times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* A sampler's value at t: width floats per value; cubic values hold (in,
 * value, out) per key. Rotations (slerp) when rotation is set. */
static void mani_EvalSampler(const float* times, const float* values, uint32_t count, uint32_t interpolation,
                             uint32_t width, int rotation, double t, double* out) {
    const int cubic = interpolation == maniInterpolationCubicSpline;
    const uint32_t per = cubic ? 3 * width : width;
    const uint32_t at = cubic ? width : 0; /* the value within a key */
    uint32_t k0;
    if (count == 1 || t <= (double)times[0]) {
        k0 = 0;
    } else if (t >= (double)times[count - 1]) {
        k0 = count - 1;
    } else {
        const uint32_t k = mani_KeyBefore(times, count, t);
        const double t0 = times[k], t1 = times[k + 1], td = t1 - t0;
        const double u = (t - t0) / td;
        const float* a = values + (uint64_t)per * k;
        const float* b = values + (uint64_t)per * (k + 1);
        if (interpolation == maniInterpolationStep) {
            for (uint32_t c = 0; c < width; ++c) out[c] = a[at + c];
        } else if (cubic) {
            const double u2 = u * u, u3 = u2 * u;
            const double h00 = (2.0 * u3 - 3.0 * u2) + 1.0, h10 = (u3 - 2.0 * u2) + u;
            const double h01 = -2.0 * u3 + 3.0 * u2, h11 = u3 - u2;
            for (uint32_t c = 0; c < width; ++c) {
                const double v0 = a[width + c], m0 = (double)a[2 * width + c] * td;
                const double v1 = b[width + c], m1 = (double)b[c] * td;
                out[c] = ((h00 * v0 + h10 * m0) + h01 * v1) + h11 * m1;
            }
        } else if (rotation) {
            double qa[4] = {a[0], a[1], a[2], a[3]}, qb[4] = {b[0], b[1], b[2], b[3]};
            mani_QNormalize64(qa);
            mani_QNormalize64(qb);
            double d = ((qa[0] * qb[0] + qa[1] * qb[1]) + qa[2] * qb[2]) + qa[3] * qb[3];
            const double sign = d < 0.0 ? -1.0 : 1.0;
            d = fabs(d);
            double wa, wb;
            if (d > 1.0 - 1e-12) { /* nearly the same: linear, normalized below */
                wa = 1.0 - u;
                wb = u;
            } else {
                const double theta = mcore_acos(d), st = mcore_sin(theta);
                wa = mcore_sin((1.0 - u) * theta) / st;
                wb = mcore_sin(u * theta) / st;
            }
            for (int c = 0; c < 4; ++c) out[c] = wa * qa[c] + sign * wb * qb[c];
            mani_QNormalize64(out);
            return;
        } else {
            for (uint32_t c = 0; c < width; ++c) out[c] = (double)a[c] + ((double)b[c] - (double)a[c]) * u;
        }
        if (rotation) mani_QNormalize64(out);
        return;
    }
    const float* v = values + (uint64_t)per * k0 + at;
    for (uint32_t c = 0; c < width; ++c) out[c] = v[c];
    if (rotation) mani_QNormalize64(out);
}

void mani_ClipEvalBone(const maniClipSource* s, const uint32_t* table, uint32_t bone, double time, double out[10]) {
    const maniTransform rest = maniSkeleton_GetRest(s->skeleton, bone);
    const float restv[10] = {rest.translation.x, rest.translation.y, rest.translation.z, rest.rotation.x,
                             rest.rotation.y,    rest.rotation.z,    rest.rotation.w,    rest.scale.x,
                             rest.scale.y,       rest.scale.z};
    for (int k = 0; k < 10; ++k) out[k] = restv[k];
    static const uint32_t start[3] = {0, 3, 7};
    for (uint32_t path = 0; path < 3; ++path) {
        const uint32_t slot = table[3 * bone + path];
        if (slot == 0) continue;
        const maniClipSourceChannel* c = &s->channels[slot - 1];
        mani_EvalSampler(c->times, c->values, c->keyCount, c->interpolation, mani_PathWidth(path),
                         path == maniChannelRotation, time, out + start[path]);
    }
}

double mani_ClipEvalFloat(const maniClipSourceFloatTrack* t, double time) {
    double v = 0.0;
    mani_EvalSampler(t->times, t->values, t->keyCount, t->interpolation, 1, 0, time, &v);
    return v;
}

void mani_ClipRootMotionOf(uint32_t flags, const double l[10], const double l0[10], double mt[3], double mr[4]) {
    for (int k = 0; k < 3; ++k) mt[k] = (flags & (1u << k)) ? l[k] - l0[k] : 0.0;
    mr[0] = mr[1] = mr[2] = 0.0;
    mr[3] = 1.0;
    if (flags & (MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION)) {
        double q[4] = {l[3], l[4], l[5], l[6]}, q0[4] = {l0[3], l0[4], l0[5], l0[6]};
        if (flags & MANI_ROOT_MOTION_YAW) {
            q[0] = q[2] = 0.0;
            q0[0] = q0[2] = 0.0;
            mani_QNormalize64(q);
            mani_QNormalize64(q0);
        }
        const double c0[4] = {-q0[0], -q0[1], -q0[2], q0[3]};
        mcore_QuatMul64(q, c0, mr);
        mani_QNormalize64(mr);
    }
}

/* -- The build ------------------------------------------------------------------------ */

/* Events or markers in increasing time, ties in source order (a stable
 * merge sort of indices; scratch holds count). */
static void mani_SortEvents(const maniClipSourceEvent* e, uint32_t* idx, uint32_t* scratch, uint32_t count) {
    for (uint32_t k = 0; k < count; ++k) idx[k] = k;
    for (uint32_t width = 1; width < count; width *= 2) {
        for (uint32_t lo = 0; lo < count; lo += 2 * width) {
            const uint32_t mid = lo + width < count ? lo + width : count;
            const uint32_t hi = lo + 2 * width < count ? lo + 2 * width : count;
            uint32_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) scratch[o++] = e[idx[j]].time < e[idx[i]].time ? idx[j++] : idx[i++];
            while (i < mid) scratch[o++] = idx[i++];
            while (j < hi) scratch[o++] = idx[j++];
        }
        memcpy(idx, scratch, (size_t)count * sizeof(uint32_t));
    }
}

static void mani_WriteName(uint8_t* file, const mcore_Section* names, uint32_t* cursor, uint8_t* entry,
                           const char* name, size_t length) {
    memcpy(file + names->offset + *cursor, name, length);
    mcore_WriteU32(entry, *cursor);
    mcore_WriteU32(entry + 4, (uint32_t)length);
    *cursor += (uint32_t)length;
}

static void mani_WriteEvents(uint8_t* file, const mcore_Section* table, const mcore_Section* names, uint32_t* cursor,
                             const maniClipSourceEvent* e, const uint32_t* order, uint32_t count) {
    for (uint32_t k = 0; k < count; ++k) {
        const maniClipSourceEvent* x = &e[order[k]];
        uint8_t* entry = file + table->offset + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        mcore_WriteF32(entry, x->time);
        mani_WriteName(file, names, cursor, entry + 4, x->name, x->nameLength);
    }
}

/* The scratch of a build, freed before it returns. */
typedef struct {
    uint32_t* table;
    double* base;   /* bones x 10: the additive basis, or for root motion the first sample */
    double* prev;   /* bones x 4: each bone's previous stored rotation */
    uint32_t* order;
    uint32_t* sortScratch;
    uint32_t sortCount;
} mani_ClipScratch;

static void mani_ClipFreeScratch(maniBuilder* b, const maniClipSource* s, mani_ClipScratch* x, uint32_t bones) {
    if (x->table != NULL) mani_ClipFreeTable(b, s, x->table);
    mani_BuilderFree(b, x->base, (size_t)bones * 10 * sizeof(double));
    mani_BuilderFree(b, x->prev, (size_t)bones * 4 * sizeof(double));
    mani_BuilderFree(b, x->order, (size_t)x->sortCount * sizeof(uint32_t));
    mani_BuilderFree(b, x->sortScratch, (size_t)x->sortCount * sizeof(uint32_t));
}

static void mani_PutLane(uint8_t* record, uint32_t bone, int component, float v) {
    mcore_WriteF32(record + (uint64_t)(bone / 8) * MANI_CLIP_GROUP_BYTES + 32 * component + 4 * (bone % 8), v);
}

maniBuildResult maniBuildClip(maniBuilder* builder, const maniClipSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniClipSource* s = source;
    uint32_t n = 0;
    mani_ClipScratch x;
    memset(&x, 0, sizeof x);
    maniBuildResult checked = mani_ClipCheckSource(builder, s, &n, &x.table);
    if (checked.result != mani_success) return checked;
    const uint32_t bones = maniSkeleton_GetBoneCount(s->skeleton);
    const uint32_t groups = (bones + 7) / 8;
    const maniBuildResult noMemory = mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);

    /* Names and sizes. */
    uint64_t namesSize = 0, keys = 0;
    for (uint32_t k = 0; k < s->floatTrackCount; ++k) namesSize += s->floatTracks[k].nameLength;
    for (uint32_t k = 0; k < s->discreteTrackCount; ++k) {
        namesSize += s->discreteTracks[k].nameLength;
        keys += s->discreteTracks[k].keyCount;
    }
    for (uint32_t k = 0; k < s->eventCount; ++k) namesSize += s->events[k].nameLength;
    for (uint32_t k = 0; k < s->markerCount; ++k) namesSize += s->markers[k].nameLength;
    const uint32_t rootFlags = s->rootMotion != NULL ? s->rootMotion->flags : 0;
    const uint32_t rootBone = s->rootMotion != NULL ? s->rootMotion->bone : MANI_NO_BONE;
    const uint64_t sizes[MANI_CLIP_SECTION_COUNT] = {
        MANI_CLIP_INFO_SIZE,
        4ull * bones,
        (uint64_t)n * groups * MANI_CLIP_GROUP_BYTES,
        (uint64_t)s->floatTrackCount * MANI_CLIP_ITEM_BYTES,
        4ull * n * s->floatTrackCount,
        (uint64_t)s->discreteTrackCount * MANI_CLIP_ITEM_BYTES,
        keys * MANI_CLIP_KEY_BYTES,
        (uint64_t)s->eventCount * MANI_CLIP_ITEM_BYTES,
        (uint64_t)s->markerCount * MANI_CLIP_ITEM_BYTES,
        rootFlags != 0 ? (uint64_t)n * MANI_CLIP_ROOT_SAMPLE_BYTES : 0,
        namesSize,
    };
    mcore_Layout layout;
    if (!mcore_LayoutSections(&layout, maniClipSections, sizes, MANI_CLIP_SECTION_COUNT, SIZE_MAX)) {
        mani_ClipFreeScratch(builder, s, &x, bones);
        return noMemory;
    }
    x.base = (double*)mani_BuilderAlloc(builder, (size_t)bones * 10 * sizeof(double), 8);
    x.prev = (double*)mani_BuilderAlloc(builder, (size_t)bones * 4 * sizeof(double), 8);
    x.sortCount = s->eventCount > s->markerCount ? s->eventCount : s->markerCount;
    if (x.sortCount > 0) {
        x.order = (uint32_t*)mani_BuilderAlloc(builder, (size_t)x.sortCount * sizeof(uint32_t), 4);
        x.sortScratch = (uint32_t*)mani_BuilderAlloc(builder, (size_t)x.sortCount * sizeof(uint32_t), 4);
    }
    uint8_t* file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (x.base == NULL || x.prev == NULL || file == NULL || (x.sortCount > 0 && (x.order == NULL || x.sortScratch == NULL))) {
        mani_BuilderFree(builder, file, (size_t)layout.totalSize);
        mani_ClipFreeScratch(builder, s, &x, bones);
        return noMemory;
    }
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;

    /* The basis: the rest, or the first sample (also root motion's L0). */
    for (uint32_t bone = 0; bone < bones; ++bone) {
        if (s->additive == maniAdditiveRest) {
            const maniTransform r = maniSkeleton_GetRest(s->skeleton, bone);
            const double v[10] = {r.translation.x, r.translation.y, r.translation.z, r.rotation.x, r.rotation.y,
                                  r.rotation.z,    r.rotation.w,    r.scale.x,       r.scale.y,    r.scale.z};
            memcpy(x.base + 10ull * bone, v, sizeof v);
        } else {
            mani_ClipEvalBone(s, x.table, bone, 0.0, x.base + 10ull * bone);
        }
    }

    /* Channels: the animated ones (every one of the root motion's bone). */
    for (uint32_t bone = 0; bone < bones; ++bone) {
        uint32_t mask = 0;
        for (uint32_t path = 0; path < 3; ++path)
            if (x.table[3 * bone + path] != 0) mask |= 1u << path;
        if (bone == rootBone) mask = MANI_CLIP_CHANNEL_ALL;
        mcore_WriteU32(file + sec[1].offset + 4ull * bone, mask);
    }

    /* Samples. */
    for (uint32_t k = 0; k < n; ++k) {
        const double time = mani_ClipSampleTime(k, n, s->duration, s->sampleRate);
        uint8_t* record = file + sec[2].offset + (uint64_t)k * groups * MANI_CLIP_GROUP_BYTES;
        for (uint32_t bone = 0; bone < bones; ++bone) {
            double l[10];
            mani_ClipEvalBone(s, x.table, bone, time, l);
            const double* base = x.base + 10ull * bone;
            if (bone == rootBone) {
                double mt[3], mr[4];
                mani_ClipRootMotionOf(rootFlags, l, base, mt, mr);
                const double c[4] = {-mr[0], -mr[1], -mr[2], mr[3]};
                const double d[3] = {l[0] - mt[0], l[1] - mt[1], l[2] - mt[2]};
                double tt[3], rr[4];
                const double q[4] = {l[3], l[4], l[5], l[6]};
                mcore_QuatRotate64(c, d, tt);
                mcore_QuatMul64(c, q, rr);
                mani_QNormalize64(rr);
                for (int j = 0; j < 3; ++j) l[j] = tt[j];
                for (int j = 0; j < 4; ++j) l[3 + j] = rr[j];
                uint8_t* root = file + sec[9].offset + (uint64_t)k * MANI_CLIP_ROOT_SAMPLE_BYTES;
                for (int j = 0; j < 3; ++j) mcore_WriteF32(root + 4 * j, (float)mt[j]);
                for (int j = 0; j < 4; ++j) mcore_WriteF32(root + 16 + 4 * j, (float)mr[j]);
            } else if (s->additive != maniAdditiveNone) {
                const double cb[4] = {-base[3], -base[4], -base[5], base[6]};
                const double q[4] = {l[3], l[4], l[5], l[6]};
                double rr[4];
                mcore_QuatMul64(cb, q, rr);
                mani_QNormalize64(rr);
                for (int j = 0; j < 3; ++j) l[j] = l[j] - base[j];
                for (int j = 0; j < 4; ++j) l[3 + j] = rr[j];
                for (int j = 7; j < 10; ++j) l[j] = l[j] / base[j];
            }
            /* Channels not animated keep the base bits: the rest, or the identity. */
            const uint32_t mask = mcore_ReadU32(file + sec[1].offset + 4ull * bone);
            static const double identity[10] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
            float v[10];
            const maniTransform rest = maniSkeleton_GetRest(s->skeleton, bone);
            const float restv[10] = {rest.translation.x, rest.translation.y, rest.translation.z, rest.rotation.x,
                                     rest.rotation.y,    rest.rotation.z,    rest.rotation.w,    rest.scale.x,
                                     rest.scale.y,       rest.scale.z};
            static const uint32_t channelOf[10] = {0, 0, 0, 1, 1, 1, 1, 2, 2, 2};
            /* Rotation: the hemisphere of the previous sample. */
            if (mask & MANI_CLIP_CHANNEL_R) {
                double* p = x.prev + 4ull * bone;
                if (k > 0 && ((p[0] * l[3] + p[1] * l[4]) + p[2] * l[5]) + p[3] * l[6] < 0.0)
                    for (int j = 3; j < 7; ++j) l[j] = -l[j];
                for (int j = 0; j < 4; ++j) p[j] = l[3 + j];
            }
            for (int j = 0; j < 10; ++j) {
                if (mask & (1u << channelOf[j]))
                    v[j] = (float)l[j];
                else
                    v[j] = s->additive != maniAdditiveNone ? (float)identity[j] : restv[j];
                if (!isfinite(v[j])) {
                    mani_BuilderFree(builder, file, (size_t)layout.totalSize);
                    mani_ClipFreeScratch(builder, s, &x, bones);
                    return mani_BuildResult(mani_errorInvalid,
                                            s->additive != maniAdditiveNone ? maniBuildReasonBasis
                                                                            : maniBuildReasonNotFinite,
                                            bone, k);
                }
                mani_PutLane(record, bone, j, v[j]);
            }
        }
        for (uint32_t bone = bones; bone < groups * 8; ++bone)
            for (int j = 6; j < 10; ++j) mani_PutLane(record, bone, j, 1.0f);
        for (uint32_t t = 0; t < s->floatTrackCount; ++t)
            mcore_WriteF32(file + sec[4].offset + 4ull * ((uint64_t)k * s->floatTrackCount + t),
                           (float)mani_ClipEvalFloat(&s->floatTracks[t], time));
    }

    /* Info. */
    uint8_t* info = file + sec[0].offset;
    mcore_WriteU32(info + MANI_CLIP_INFO_BONES, bones);
    mcore_WriteU32(info + MANI_CLIP_INFO_SAMPLES, n);
    mcore_WriteF32(info + MANI_CLIP_INFO_DURATION, s->duration);
    mcore_WriteF32(info + MANI_CLIP_INFO_RATE, s->sampleRate);
    mcore_WriteU32(info + MANI_CLIP_INFO_LOOP, s->loop);
    mcore_WriteU32(info + MANI_CLIP_INFO_ADDITIVE, s->additive);
    mcore_WriteU32(info + MANI_CLIP_INFO_FLOATS, s->floatTrackCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_DISCRETES, s->discreteTrackCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_DISCRETE_KEYS, (uint32_t)keys);
    mcore_WriteU32(info + MANI_CLIP_INFO_EVENTS, s->eventCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_MARKERS, s->markerCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_NAMES, (uint32_t)namesSize);
    mcore_WriteU32(info + MANI_CLIP_INFO_ROOT_BONE, rootBone);
    mcore_WriteU32(info + MANI_CLIP_INFO_ROOT_FLAGS, rootFlags);
    mcore_WriteU64(info + MANI_CLIP_INFO_SKELETON, maniSkeleton_GetIdentity(s->skeleton));

    /* Tracks, keys, events, markers and their names. */
    uint32_t cursor = 0, nextKey = 0;
    for (uint32_t k = 0; k < s->floatTrackCount; ++k) {
        const maniClipSourceFloatTrack* t = &s->floatTracks[k];
        uint8_t* e = file + sec[3].offset + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        mani_WriteName(file, &sec[10], &cursor, e, t->name, t->nameLength);
        mcore_WriteU32(e + 8, t->interpolation == maniInterpolationStep ? MANI_CLIP_FLOAT_STEP : MANI_CLIP_FLOAT_LINEAR);
    }
    for (uint32_t k = 0; k < s->discreteTrackCount; ++k) {
        const maniClipSourceDiscreteTrack* t = &s->discreteTracks[k];
        uint8_t* e = file + sec[5].offset + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        mani_WriteName(file, &sec[10], &cursor, e, t->name, t->nameLength);
        mcore_WriteU32(e + 8, nextKey);
        mcore_WriteU32(e + 12, t->keyCount);
        for (uint32_t j = 0; j < t->keyCount; ++j) {
            uint8_t* key = file + sec[6].offset + (uint64_t)(nextKey + j) * MANI_CLIP_KEY_BYTES;
            mcore_WriteF32(key, t->times[j]);
            mcore_WriteU32(key + 4, (uint32_t)t->values[j]);
        }
        nextKey += t->keyCount;
    }
    if (s->eventCount > 0) {
        mani_SortEvents(s->events, x.order, x.sortScratch, s->eventCount);
        mani_WriteEvents(file, &sec[7], &sec[10], &cursor, s->events, x.order, s->eventCount);
    }
    if (s->markerCount > 0) {
        mani_SortEvents(s->markers, x.order, x.sortScratch, s->markerCount);
        mani_WriteEvents(file, &sec[8], &sec[10], &cursor, s->markers, x.order, s->markerCount);
    }

    mani_ClipFreeScratch(builder, s, &x, bones);
    mcore_FinishContainer(file, &layout, mcore_kindClip, mcore_formatClipLatest, MANI_ABI_VERSION);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
