/* clip.h: opening a full-precision clip file (every byte checked once), the
 * view's accessors (no checks beyond staying inside the bytes), sampling,
 * float and discrete tracks, events and markers. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/clip/clip_internal.h"
#include "lib/anim/src/clip/clip_decode.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/core/utf8.h"

/* -- The view ------------------------------------------------------------------ */

int mani_ClipViewOk(const maniClip* c) {
    if (c == NULL || c->opened != MANI_CLIP_OPENED || c->bytes == NULL) return 0;
    if (c->boneCount == 0 || c->boneCount > MANI_MAX_BONES) return 0;
    if (c->sampleCount == 0 || c->sampleCount > MANI_MAX_SAMPLES) return 0;
    if (c->floatTrackCount > MANI_CLIP_MAX_TRACKS || c->discreteTrackCount > MANI_CLIP_MAX_TRACKS ||
        c->eventCount > MANI_CLIP_MAX_TRACKS || c->markerCount > MANI_CLIP_MAX_TRACKS ||
        c->discreteKeyCount > MANI_CLIP_MAX_KEYS)
        return 0;
    if (!(c->duration >= 0.0f) || !(c->sampleRate > 0.0f) || !isfinite(c->duration) || !isfinite(c->sampleRate))
        return 0;
    if (mani_ClipSampleCountOf(c->duration, c->sampleRate) != c->sampleCount) return 0;
    if (c->loop > maniLoopRepeat || c->additive > maniAdditiveFirstFrame) return 0;
    if (c->rootFlags != 0 && c->rootBone >= c->boneCount) return 0;
    const uint64_t n = c->sampleCount;
    if (!mani_ClipDecoderOf(c)->viewOk(c)) return 0;
    return mcore_SpanFits(c->floatInfo, c->floatTrackCount, MANI_CLIP_ITEM_BYTES, c->size) &&
           mcore_SpanFits(c->discreteInfo, c->discreteTrackCount, MANI_CLIP_ITEM_BYTES, c->size) &&
           mcore_SpanFits(c->discreteKeys, c->discreteKeyCount, MANI_CLIP_KEY_BYTES, c->size) &&
           mcore_SpanFits(c->events, c->eventCount, MANI_CLIP_ITEM_BYTES, c->size) &&
           mcore_SpanFits(c->markers, c->markerCount, MANI_CLIP_ITEM_BYTES, c->size) &&
           mcore_SpanFits(c->rootSamples, c->rootFlags != 0 ? n : 0, MANI_CLIP_ROOT_SAMPLE_BYTES, c->size) &&
           mcore_SpanFits(c->names, c->namesSize, 1, c->size);
}

bool maniClip_IsCompressed(const maniClip* clip) {
    return mani_ClipViewOk(clip) && mani_ClipIsCompressedView(clip);
}

float maniClip_GetDuration(const maniClip* clip) { return mani_ClipViewOk(clip) ? clip->duration : 0.0f; }
float maniClip_GetSampleRate(const maniClip* clip) { return mani_ClipViewOk(clip) ? clip->sampleRate : 0.0f; }
uint32_t maniClip_GetSampleCount(const maniClip* clip) { return mani_ClipViewOk(clip) ? clip->sampleCount : 0; }

maniLoopPolicy maniClip_GetLoopPolicy(const maniClip* clip) {
    return mani_ClipViewOk(clip) ? (maniLoopPolicy)clip->loop : maniLoopClamp;
}

maniAdditiveBasis maniClip_GetAdditiveBasis(const maniClip* clip) {
    return mani_ClipViewOk(clip) ? (maniAdditiveBasis)clip->additive : maniAdditiveNone;
}

uint64_t maniClip_GetIdentity(const maniClip* clip) { return mani_ClipViewOk(clip) ? clip->identity : 0; }

uint64_t maniClip_GetSkeletonIdentity(const maniClip* clip) {
    return mani_ClipViewOk(clip) ? clip->skeletonIdentity : 0;
}

/* A name span (offset, length) read from an entry; NULL when it is not inside
 * the names. */
static const char* mani_ClipName(const maniClip* c, const uint8_t* entry, size_t* lengthOut) {
    const uint32_t at = mcore_ReadU32(entry), length = mcore_ReadU32(entry + 4);
    if ((uint64_t)at > c->namesSize || (uint64_t)length > c->namesSize - at) {
        if (lengthOut != NULL) *lengthOut = 0;
        return NULL;
    }
    if (lengthOut != NULL) *lengthOut = length;
    return (const char*)(c->bytes + c->names + at);
}

static uint32_t mani_ClipFind(const maniClip* c, uint64_t table, uint32_t count, const char* name, size_t length) {
    if (name == NULL && length > 0) return MANI_NO_TRACK;
    for (uint32_t k = 0; k < count; ++k) {
        size_t l = 0;
        const char* s = mani_ClipName(c, c->bytes + table + (uint64_t)k * MANI_CLIP_ITEM_BYTES, &l);
        if (s != NULL && l == length && (length == 0 || memcmp(s, name, length) == 0)) return k;
    }
    return MANI_NO_TRACK;
}

/* -- Float tracks --------------------------------------------------------------- */

uint32_t maniClip_GetFloatTrackCount(const maniClip* clip) {
    return mani_ClipViewOk(clip) ? clip->floatTrackCount : 0;
}

const char* maniClip_GetFloatTrackName(const maniClip* clip, uint32_t track, size_t* lengthOut) {
    if (!mani_ClipViewOk(clip) || track >= clip->floatTrackCount) {
        if (lengthOut != NULL) *lengthOut = 0;
        return NULL;
    }
    return mani_ClipName(clip, clip->bytes + clip->floatInfo + (uint64_t)track * MANI_CLIP_ITEM_BYTES, lengthOut);
}

uint32_t maniClip_FindFloatTrack(const maniClip* clip, const char* name, size_t length) {
    if (!mani_ClipViewOk(clip)) return MANI_NO_TRACK;
    return mani_ClipFind(clip, clip->floatInfo, clip->floatTrackCount, name, length);
}

void mani_ClipFloatsAt(const maniClip* c, mani_ClipSpot s, float* out) { mani_ClipDecoderOf(c)->floatsAt(c, s, out); }

/* The full-precision format's float samples. */
static void mani_ClipFullFloatsAt(const maniClip* c, mani_ClipSpot s, float* out) {
    const uint32_t m = c->floatTrackCount;
    const uint8_t* a = c->bytes + c->floatSamples + 4ull * m * s.i;
    const uint8_t* b = c->bytes + c->floatSamples + 4ull * m * s.j;
    for (uint32_t k = 0; k < m; ++k) {
        const float va = mcore_ReadF32(a + 4ull * k), vb = mcore_ReadF32(b + 4ull * k);
        const uint32_t mode = mcore_ReadU32(c->bytes + c->floatInfo + (uint64_t)k * MANI_CLIP_ITEM_BYTES + 8);
        out[k] = mani_ClipFloatLerp(mode, va, vb, s);
    }
}

maniResult maniClip_SampleFloats(const maniClip* clip, float time, float* valuesOut, uint32_t capacity,
                                 uint32_t* countOut) {
    if (!mani_ClipViewOk(clip) || (valuesOut == NULL && capacity > 0)) return mani_errorInvalid;
    if (countOut != NULL) *countOut = clip->floatTrackCount;
    if (capacity < clip->floatTrackCount) return mani_errorCapacity;
    mani_ClipFloatsAt(clip, mani_ClipLocateView(clip, time), valuesOut);
    return mani_success;
}

/* -- Discrete tracks ------------------------------------------------------------- */

uint32_t maniClip_GetDiscreteTrackCount(const maniClip* clip) {
    return mani_ClipViewOk(clip) ? clip->discreteTrackCount : 0;
}

const char* maniClip_GetDiscreteTrackName(const maniClip* clip, uint32_t track, size_t* lengthOut) {
    if (!mani_ClipViewOk(clip) || track >= clip->discreteTrackCount) {
        if (lengthOut != NULL) *lengthOut = 0;
        return NULL;
    }
    return mani_ClipName(clip, clip->bytes + clip->discreteInfo + (uint64_t)track * MANI_CLIP_ITEM_BYTES, lengthOut);
}

uint32_t maniClip_FindDiscreteTrack(const maniClip* clip, const char* name, size_t length) {
    if (!mani_ClipViewOk(clip)) return MANI_NO_TRACK;
    return mani_ClipFind(clip, clip->discreteInfo, clip->discreteTrackCount, name, length);
}

int32_t maniClip_GetDiscreteValue(const maniClip* clip, uint32_t track, float time) {
    if (!mani_ClipViewOk(clip) || track >= clip->discreteTrackCount) return 0;
    const uint8_t* info = clip->bytes + clip->discreteInfo + (uint64_t)track * MANI_CLIP_ITEM_BYTES;
    const uint32_t first = mcore_ReadU32(info + 8), count = mcore_ReadU32(info + 12);
    if (count == 0 || first > clip->discreteKeyCount || count > clip->discreteKeyCount - first) return 0;
    const uint8_t* keys = clip->bytes + clip->discreteKeys + (uint64_t)first * MANI_CLIP_KEY_BYTES;
    if (isnan(time)) time = 0.0f;
    /* The last key at or before the time: binary search over increasing
     * times (bytes changed after the open still give some key). */
    uint32_t lo = 0, hi = count; /* keys [0, lo) are at or before the time */
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (mcore_ReadF32(keys + (uint64_t)mid * MANI_CLIP_KEY_BYTES) <= time)
            lo = mid + 1;
        else
            hi = mid;
    }
    const uint32_t k = lo == 0 ? 0 : lo - 1;
    return (int32_t)mcore_ReadU32(keys + (uint64_t)k * MANI_CLIP_KEY_BYTES + 4);
}

/* -- Events and markers ------------------------------------------------------------ */

uint32_t maniClip_GetEventCount(const maniClip* clip) { return mani_ClipViewOk(clip) ? clip->eventCount : 0; }
uint32_t maniClip_GetMarkerCount(const maniClip* clip) { return mani_ClipViewOk(clip) ? clip->markerCount : 0; }

static maniClipEvent mani_ClipEventAt(const maniClip* c, uint64_t table, uint32_t index) {
    maniClipEvent e;
    memset(&e, 0, sizeof e);
    const uint8_t* p = c->bytes + table + (uint64_t)index * MANI_CLIP_ITEM_BYTES;
    e.time = mcore_ReadF32(p);
    e.name = mani_ClipName(c, p + 4, &e.nameLength);
    return e;
}

maniClipEvent maniClip_GetEvent(const maniClip* clip, uint32_t index) {
    if (!mani_ClipViewOk(clip) || index >= clip->eventCount) {
        maniClipEvent e;
        memset(&e, 0, sizeof e);
        return e;
    }
    return mani_ClipEventAt(clip, clip->events, index);
}

maniClipEvent maniClip_GetMarker(const maniClip* clip, uint32_t index) {
    if (!mani_ClipViewOk(clip) || index >= clip->markerCount) {
        maniClipEvent e;
        memset(&e, 0, sizeof e);
        return e;
    }
    return mani_ClipEventAt(clip, clip->markers, index);
}

/* The first event whose time is >= x (strict: > x), by binary search. */
static uint32_t mani_ClipEventBound(const maniClip* c, float x, int strict) {
    uint32_t lo = 0, hi = c->eventCount;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        const float t = mcore_ReadF32(c->bytes + c->events + (uint64_t)mid * MANI_CLIP_ITEM_BYTES);
        if (strict ? t <= x : t < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void maniClip_GetEventRange(const maniClip* clip, float from, float to, uint32_t* firstOut, uint32_t* countOut) {
    uint32_t first = 0, count = 0;
    if (mani_ClipViewOk(clip) && !isnan(from) && !isnan(to) && from != to) {
        uint32_t lo, hi;
        if (from < to) { /* from <= time < to */
            lo = mani_ClipEventBound(clip, from, 0);
            hi = mani_ClipEventBound(clip, to, 0);
        } else { /* to < time <= from */
            lo = mani_ClipEventBound(clip, to, 1);
            hi = mani_ClipEventBound(clip, from, 1);
        }
        if (hi > lo) {
            first = lo;
            count = hi - lo;
        }
    }
    if (firstOut != NULL) *firstOut = first;
    if (countOut != NULL) *countOut = count;
}

/* -- Sampling ------------------------------------------------------------------------ */

int mani_ClipSkeletonOk(const maniClip* c, const maniSkeleton* skeleton, const maniPose* pose) {
    return mani_SkeletonViewOk(skeleton) && skeleton->identity == c->skeletonIdentity &&
           skeleton->boneCount == c->boneCount && mani_PoseOk(pose) && pose->skeletonIdentity == skeleton->identity &&
           pose->boneCount == skeleton->boneCount;
}

/* The value a channel the clip does not animate takes. */
static maniTransform mani_ClipBase(const maniClip* c, const maniSkeleton* skeleton, uint32_t bone) {
    return c->additive != maniAdditiveNone ? mani_IdentityTransform() : mani_SkeletonRestRaw(skeleton, bone);
}

void mani_ClipFixChannels(const maniClip* c, const maniSkeleton* skeleton, uint32_t bone, maniTransform* t) {
    const uint32_t mask = mcore_ReadU32(c->bytes + c->channels + 4ull * bone);
    if ((mask & MANI_CLIP_CHANNEL_ALL) == MANI_CLIP_CHANNEL_ALL) return;
    const maniTransform base = mani_ClipBase(c, skeleton, bone);
    if (!(mask & MANI_CLIP_CHANNEL_T)) t->translation = base.translation;
    if (!(mask & MANI_CLIP_CHANNEL_R)) t->rotation = base.rotation;
    if (!(mask & MANI_CLIP_CHANNEL_S)) t->scale = base.scale;
}

void mani_ClipLerpGroup(const maniSimdTransformx8* ga, const maniSimdTransformx8* gb, float f,
                        maniSimdTransformx8* out) {
    maniSimd_TransformLerp(out, ga, gb, f, 1);
}

void mani_ClipFinishLerp(const maniClip* c, const maniSkeleton* skeleton, maniPose* pose) {
    const uint32_t groups = pose->groupCount, bones = pose->boneCount;
    /* The lanes past the bones stay the identity. */
    const maniTransform identity = mani_IdentityTransform();
    for (uint32_t bone = bones; bone < groups * 8; ++bone) mani_PoseSetLocalRaw(pose, bone, identity);
    if (!(c->flags & MANI_CLIP_VIEW_PARTIAL)) return;
    for (uint32_t bone = 0; bone < bones; ++bone) {
        const uint32_t mask = mcore_ReadU32(c->bytes + c->channels + 4ull * bone);
        if ((mask & MANI_CLIP_CHANNEL_ALL) == MANI_CLIP_CHANNEL_ALL) continue;
        maniTransform t = mani_PoseGetLocalRaw(pose, bone);
        mani_ClipFixChannels(c, skeleton, bone, &t);
        mani_PoseSetLocalRaw(pose, bone, t);
    }
}

void mani_ClipLerpGroups(const maniClip* c, const maniSkeleton* skeleton, const uint8_t* a, const uint8_t* b,
                         float f, maniPose* pose) {
    const uint32_t groups = pose->groupCount;
    maniSimdTransformx8* locals = mani_PoseLocals(pose);
    /* Records at a 32-byte boundary (a file whose first byte is at one, a
     * cursor) are read in place; others through an aligned copy. */
    const int aligned = ((uintptr_t)a % MANI_SIMD_ALIGN) == 0 && ((uintptr_t)b % MANI_SIMD_ALIGN) == 0;
    maniSimdTransformx8 ca, cb;
    for (uint32_t g = 0; g < groups; ++g) {
        const maniSimdTransformx8* ga;
        const maniSimdTransformx8* gb;
        if (aligned) {
            ga = (const maniSimdTransformx8*)(const void*)(a + (uint64_t)g * MANI_CLIP_GROUP_BYTES);
            gb = (const maniSimdTransformx8*)(const void*)(b + (uint64_t)g * MANI_CLIP_GROUP_BYTES);
        } else {
            memcpy(&ca, a + (uint64_t)g * MANI_CLIP_GROUP_BYTES, MANI_CLIP_GROUP_BYTES);
            memcpy(&cb, b + (uint64_t)g * MANI_CLIP_GROUP_BYTES, MANI_CLIP_GROUP_BYTES);
            ga = &ca;
            gb = &cb;
        }
        mani_ClipLerpGroup(ga, gb, f, &locals[g]);
    }
    mani_ClipFinishLerp(c, skeleton, pose);
}

void mani_ClipReadBone(const uint8_t* record, uint32_t bone, float v[10]) {
    const uint8_t* g = record + (uint64_t)(bone / 8) * MANI_CLIP_GROUP_BYTES + 4 * (bone % 8);
    for (int k = 0; k < 10; ++k) v[k] = mcore_ReadF32(g + 32 * k);
}

maniTransform mani_ClipLerpValues(const maniClip* c, const maniSkeleton* skeleton, const float va[10],
                                  const float vb[10], float f, uint32_t bone) {
    maniTransform t;
    t.translation.x = va[0] + (vb[0] - va[0]) * f;
    t.translation.y = va[1] + (vb[1] - va[1]) * f;
    t.translation.z = va[2] + (vb[2] - va[2]) * f;
    const maniQuat qa = {va[3], va[4], va[5], va[6]}, qb = {vb[3], vb[4], vb[5], vb[6]};
    t.rotation = maniSimdSingle_QuatNlerp(qa, qb, f);
    t.scale.x = va[7] + (vb[7] - va[7]) * f;
    t.scale.y = va[8] + (vb[8] - va[8]) * f;
    t.scale.z = va[9] + (vb[9] - va[9]) * f;
    mani_ClipFixChannels(c, skeleton, bone, &t);
    return t;
}

maniTransform mani_ClipLerpBone(const maniClip* c, const maniSkeleton* skeleton, const uint8_t* a,
                                const uint8_t* b, float f, uint32_t bone) {
    float va[10], vb[10];
    mani_ClipReadBone(a, bone, va);
    mani_ClipReadBone(b, bone, vb);
    return mani_ClipLerpValues(c, skeleton, va, vb, f, bone);
}

void mani_ClipMarkSampled(const maniClip* c, maniPose* pose) {
    if (c->additive != maniAdditiveNone)
        pose->flags |= MANI_POSE_DIFFERENCE;
    else
        pose->flags &= ~MANI_POSE_DIFFERENCE;
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
}

maniResult maniClip_Sample(const maniClip* clip, const maniSkeleton* skeleton, float time, maniPose* poseOut) {
    if (clip == NULL || skeleton == NULL || poseOut == NULL) return mani_errorInvalid;
    if (!mani_ClipViewOk(clip) || !mani_ClipSkeletonOk(clip, skeleton, poseOut)) return mani_errorInvalid;
    const mani_ClipSpot s = mani_ClipLocateView(clip, time);
    mani_ClipDecoderOf(clip)->sample(clip, skeleton, s, poseOut);
    mani_ClipMarkSampled(clip, poseOut);
    return mani_success;
}

maniResult maniClip_SampleBones(const maniClip* clip, const maniSkeleton* skeleton, float time, const uint32_t* bones,
                                uint32_t count, maniPose* pose) {
    if (clip == NULL || skeleton == NULL || pose == NULL || (bones == NULL && count > 0)) return mani_errorInvalid;
    if (!mani_ClipViewOk(clip) || !mani_ClipSkeletonOk(clip, skeleton, pose)) return mani_errorInvalid;
    const int difference = (pose->flags & MANI_POSE_DIFFERENCE) != 0;
    if (difference != (clip->additive != maniAdditiveNone)) return mani_errorInvalid;
    for (uint32_t k = 0; k < count; ++k)
        if (bones[k] >= clip->boneCount || (k > 0 && bones[k] <= bones[k - 1])) return mani_errorInvalid;
    const mani_ClipSpot s = mani_ClipLocateView(clip, time);
    mani_ClipDecoderOf(clip)->sampleBones(clip, skeleton, s, bones, count, pose);
    pose->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

/* -- The full-precision format's decoder ------------------------------------------- */

static int mani_ClipFullViewOk(const maniClip* c) {
    const uint64_t groups = (c->boneCount + 7) / 8;
    const uint64_t n = c->sampleCount;
    return mcore_SpanFits(c->channels, c->boneCount, 4, c->size) &&
           mcore_SpanFits(c->samples, n * groups, MANI_CLIP_GROUP_BYTES, c->size) &&
           mcore_SpanFits(c->floatSamples, n * c->floatTrackCount, 4, c->size);
}

static void mani_ClipFullSample(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s, maniPose* pose) {
    mani_ClipLerpGroups(c, skeleton, mani_ClipRecord(c, s.i), mani_ClipRecord(c, s.j), s.f, pose);
}

static void mani_ClipFullSampleBones(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s,
                                     const uint32_t* bones, uint32_t count, maniPose* pose) {
    const uint8_t* a = mani_ClipRecord(c, s.i);
    const uint8_t* b = mani_ClipRecord(c, s.j);
    for (uint32_t k = 0; k < count; ++k)
        mani_PoseSetLocalRaw(pose, bones[k], mani_ClipLerpBone(c, skeleton, a, b, s.f, bones[k]));
}

static void mani_ClipFullDecodeRecord(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, uint8_t* record) {
    (void)skeleton;
    memcpy(record, mani_ClipRecord(c, k), (size_t)MANI_CLIP_GROUP_BYTES * ((c->boneCount + 7) / 8));
}

static void mani_ClipFullDecodeValues(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, float* values) {
    (void)skeleton;
    const uint8_t* record = mani_ClipRecord(c, k);
    for (uint32_t bone = 0; bone < c->boneCount; ++bone) mani_ClipReadBone(record, bone, values + 10ull * bone);
}

const mani_ClipDecoder maniClipDecoderFull = {
    .viewOk = mani_ClipFullViewOk,
    .sample = mani_ClipFullSample,
    .sampleBones = mani_ClipFullSampleBones,
    .floatsAt = mani_ClipFullFloatsAt,
    .decodeRecord = mani_ClipFullDecodeRecord,
    .decodeValues = mani_ClipFullDecodeValues,
    .stateBytes = NULL,
    .decodeRecordKept = NULL,
};
