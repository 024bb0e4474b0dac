/* maniOpenClip: checks every byte of a full-precision clip file once
 * (docs/formats.md, "Clip") and fills the view. */
#include "lib/anim/src/base/file_open.h"
#include <math.h>
#include <string.h>

#include "lib/anim/src/clip/clip_internal.h"
#include "lib/anim/src/compress/compress_internal.h"
#include "lib/core/utf8.h"

#define MANI_CLIP_WRONG(at) return mani_FileResult(mani_errorFormat, (at))

/* A name entry (u32 offset, u32 length at p): 1 to MANI_MAX_NAME_BYTES bytes
 * of valid UTF-8 inside the names. Returns 0 when good, else 1. */
static int mani_ClipNameBad(const uint8_t* b, const uint8_t* p, uint64_t names, uint64_t namesSize) {
    const uint32_t at = mcore_ReadU32(p), length = mcore_ReadU32(p + 4);
    if (length == 0 || length > MANI_MAX_NAME_BYTES) return 1;
    if ((uint64_t)at > namesSize || (uint64_t)length > namesSize - at) return 1;
    return mcore_Utf8Check(b + names + at, length) != length;
}

/* Checks a table of events or markers: times in [0, duration], not
 * decreasing; names good; reserved 0. Returns the first wrong byte or 0. */
static uint64_t mani_ClipCheckEvents(const uint8_t* b, uint64_t table, uint32_t count, float duration, uint64_t names,
                                     uint64_t namesSize) {
    float previous = 0.0f;
    for (uint32_t k = 0; k < count; ++k) {
        const uint64_t e = table + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        const float t = mcore_ReadF32(b + e);
        if (!(t >= previous) || !(t <= duration)) return e;
        previous = t;
        if (mani_ClipNameBad(b, b + e + 4, names, namesSize)) return e + 4;
        if (mcore_ReadU32(b + e + 12) != 0) return e + 12;
    }
    return 0;
}

/* Whether four floats at p make a rotation of unit length within tolerance. */
int mani_ClipUnit(float x, float y, float z, float w) {
    const double len2 = (((double)x * x + (double)y * y) + (double)z * z) + (double)w * w;
    return fabs(len2 - 1.0) <= MANI_CLIP_UNIT_TOLERANCE;
}

/* Checks the 64 bytes of info every clip file starts with (docs/formats.md,
 * "Clip"). Returns 0 when good, else the first wrong byte. */
uint64_t mani_ClipReadInfo(const uint8_t* b, uint64_t info, mani_ClipInfo* out) {
    mani_ClipInfo v;
    memset(&v, 0, sizeof v);
    v.bones = mcore_ReadU32(b + info + MANI_CLIP_INFO_BONES);
    if (v.bones == 0 || v.bones > MANI_MAX_BONES) return info + MANI_CLIP_INFO_BONES;
    v.n = mcore_ReadU32(b + info + MANI_CLIP_INFO_SAMPLES);
    if (v.n == 0 || v.n > MANI_MAX_SAMPLES) return info + MANI_CLIP_INFO_SAMPLES;
    v.duration = mcore_ReadF32(b + info + MANI_CLIP_INFO_DURATION);
    if (!(v.duration >= 0.0f) || !isfinite(v.duration)) return info + MANI_CLIP_INFO_DURATION;
    v.rate = mcore_ReadF32(b + info + MANI_CLIP_INFO_RATE);
    if (!(v.rate > 0.0f) || !isfinite(v.rate)) return info + MANI_CLIP_INFO_RATE;
    if (mani_ClipSampleCountOf(v.duration, v.rate) != v.n) return info + MANI_CLIP_INFO_SAMPLES;
    v.loop = mcore_ReadU32(b + info + MANI_CLIP_INFO_LOOP);
    if (v.loop > maniLoopRepeat) return info + MANI_CLIP_INFO_LOOP;
    v.additive = mcore_ReadU32(b + info + MANI_CLIP_INFO_ADDITIVE);
    if (v.additive > maniAdditiveFirstFrame) return info + MANI_CLIP_INFO_ADDITIVE;
    for (int k = 0; k < 5; ++k) {
        v.counts[k] = mcore_ReadU32(b + info + MANI_CLIP_INFO_FLOATS + 4 * k);
        const uint32_t limit = k == 2 ? MANI_CLIP_MAX_KEYS : MANI_CLIP_MAX_TRACKS;
        if (v.counts[k] > limit) return info + MANI_CLIP_INFO_FLOATS + 4 * k;
    }
    v.namesSize = mcore_ReadU32(b + info + MANI_CLIP_INFO_NAMES);
    v.rootBone = mcore_ReadU32(b + info + MANI_CLIP_INFO_ROOT_BONE);
    v.rootFlags = mcore_ReadU32(b + info + MANI_CLIP_INFO_ROOT_FLAGS);
    if (v.rootFlags == 0) {
        if (v.rootBone != MANI_NO_BONE) return info + MANI_CLIP_INFO_ROOT_BONE;
    } else {
        if (v.rootBone >= v.bones) return info + MANI_CLIP_INFO_ROOT_BONE;
        if (v.rootFlags > MANI_ROOT_MOTION_ALL_FLAGS ||
            (v.rootFlags & (MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION)) ==
                (MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION) ||
            v.additive != maniAdditiveNone)
            return info + MANI_CLIP_INFO_ROOT_FLAGS;
    }
    v.skeletonIdentity = mcore_ReadU64(b + info + MANI_CLIP_INFO_SKELETON);
    *out = v;
    return 0;
}

/* The sizes of the sections both clip formats share, in the order of
 * mani_ClipShared. */
void mani_ClipSharedSizes(const mani_ClipInfo* in, uint64_t sizes[7]) {
    sizes[0] = (uint64_t)in->counts[0] * MANI_CLIP_ITEM_BYTES;
    sizes[1] = (uint64_t)in->counts[1] * MANI_CLIP_ITEM_BYTES;
    sizes[2] = (uint64_t)in->counts[2] * MANI_CLIP_KEY_BYTES;
    sizes[3] = (uint64_t)in->counts[3] * MANI_CLIP_ITEM_BYTES;
    sizes[4] = (uint64_t)in->counts[4] * MANI_CLIP_ITEM_BYTES;
    sizes[5] = in->rootFlags != 0 ? (uint64_t)in->n * MANI_CLIP_ROOT_SAMPLE_BYTES : 0;
    sizes[6] = in->namesSize;
}

uint64_t mani_ClipCheckShared(const uint8_t* b, const mani_ClipInfo* in, const mani_ClipShared* at) {
    const uint32_t floats = in->counts[0], discretes = in->counts[1], keys = in->counts[2], events = in->counts[3],
                   markers = in->counts[4];
    const uint64_t names = at->names;
    const uint64_t namesSize = in->namesSize;
    const float duration = in->duration;

    /* Float tracks: names, modes. */
    for (uint32_t k = 0; k < floats; ++k) {
        const uint64_t e = at->floatInfo + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        if (mani_ClipNameBad(b, b + e, names, namesSize)) return e;
        if (mcore_ReadU32(b + e + 8) > MANI_CLIP_FLOAT_STEP) return e + 8;
        if (mcore_ReadU32(b + e + 12) != 0) return e + 12;
    }

    /* Discrete tracks: names; one run of keys per track, in track order, each
     * run's times increasing within [0, duration]. */
    uint32_t nextKey = 0;
    for (uint32_t k = 0; k < discretes; ++k) {
        const uint64_t e = at->discreteInfo + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        if (mani_ClipNameBad(b, b + e, names, namesSize)) return e;
        if (mcore_ReadU32(b + e + 8) != nextKey) return e + 8;
        const uint32_t count = mcore_ReadU32(b + e + 12);
        if (count == 0 || count > keys - nextKey) return e + 12;
        float previous = 0.0f;
        for (uint32_t j = 0; j < count; ++j) {
            const uint64_t key = at->discreteKeys + (uint64_t)(nextKey + j) * MANI_CLIP_KEY_BYTES;
            const float t = mcore_ReadF32(b + key);
            if (!(t <= duration) || !(j == 0 ? t >= 0.0f : t > previous)) return key;
            previous = t;
        }
        nextKey += count;
    }
    if (nextKey != keys) return at->info + MANI_CLIP_INFO_DISCRETE_KEYS;

    /* Events and markers. */
    uint64_t wrong = mani_ClipCheckEvents(b, at->events, events, duration, names, namesSize);
    if (wrong != 0) return wrong;
    wrong = mani_ClipCheckEvents(b, at->markers, markers, duration, names, namesSize);
    if (wrong != 0) return wrong;

    /* Root motion: finite, the padding 0, rotations unit. */
    if (in->rootFlags != 0) {
        for (uint32_t k = 0; k < in->n; ++k) {
            const uint64_t r = at->rootSamples + (uint64_t)k * MANI_CLIP_ROOT_SAMPLE_BYTES;
            float v[8];
            for (int j = 0; j < 8; ++j) {
                v[j] = mcore_ReadF32(b + r + 4 * j);
                if (!isfinite(v[j])) return r + 4 * j;
            }
            if (mcore_ReadU32(b + r + 12) != 0) return r + 12;
            if (!mani_ClipUnit(v[4], v[5], v[6], v[7])) return r + 16;
        }
    }
    return 0;
}

void mani_ClipFillView(const mani_ClipInfo* in, const mani_ClipShared* at, const uint8_t* b, size_t size,
                       uint64_t identity, maniClip* out) {
    maniClip v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = identity;
    v.skeletonIdentity = in->skeletonIdentity;
    v.opened = MANI_CLIP_OPENED;
    v.boneCount = in->bones;
    v.sampleCount = in->n;
    v.floatTrackCount = in->counts[0];
    v.discreteTrackCount = in->counts[1];
    v.discreteKeyCount = in->counts[2];
    v.eventCount = in->counts[3];
    v.markerCount = in->counts[4];
    v.loop = in->loop;
    v.additive = in->additive;
    v.rootBone = in->rootBone;
    v.rootFlags = in->rootFlags;
    v.duration = in->duration;
    v.sampleRate = in->rate;
    v.floatInfo = at->floatInfo;
    v.discreteInfo = at->discreteInfo;
    v.discreteKeys = at->discreteKeys;
    v.events = at->events;
    v.markers = at->markers;
    v.rootSamples = at->rootSamples;
    v.names = at->names;
    v.namesSize = in->namesSize;
    *out = v;
}

maniFileResult maniOpenClip(const void* bytes, size_t size, maniClip* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    const uint32_t version = size >= 12 ? mcore_ReadU32((const uint8_t*)bytes + 8) : 0u;
    if (version == mcore_formatClipCompressed1) return mani_OpenCompressedClip(bytes, size, out);
    if (version == mcore_formatClipCompressed2) return mani_OpenCompressedClip11(bytes, size, out);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindClip, mcore_formatClipLatest, maniClipSections, MANI_CLIP_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* Info. */
    if (sec[0].size != MANI_CLIP_INFO_SIZE) MANI_CLIP_WRONG(mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    mani_ClipInfo in;
    const uint64_t badInfo = mani_ClipReadInfo(b, info, &in);
    if (badInfo != 0) MANI_CLIP_WRONG(badInfo);
    const uint32_t bones = in.bones, n = in.n, floats = in.counts[0];

    /* Section sizes. */
    const uint64_t groups = (bones + 7) / 8;
    uint64_t shared[7];
    mani_ClipSharedSizes(&in, shared);
    const uint64_t sizes[MANI_CLIP_SECTION_COUNT] = {
        MANI_CLIP_INFO_SIZE,
        4ull * bones,
        (uint64_t)n * groups * MANI_CLIP_GROUP_BYTES,
        shared[0],
        4ull * n * floats,
        shared[1], shared[2], shared[3], shared[4], shared[5], shared[6],
    };
    for (uint32_t k = 1; k < MANI_CLIP_SECTION_COUNT; ++k)
        if (sec[k].size != sizes[k]) MANI_CLIP_WRONG(mcore_SectionSizeField(k));

    /* Channels. */
    uint32_t viewFlags = 0;
    for (uint32_t bone = 0; bone < bones; ++bone) {
        const uint32_t mask = mcore_ReadU32(b + sec[1].offset + 4ull * bone);
        if (mask > MANI_CLIP_CHANNEL_ALL) MANI_CLIP_WRONG(sec[1].offset + 4ull * bone);
        if (mask != MANI_CLIP_CHANNEL_ALL) viewFlags |= MANI_CLIP_VIEW_PARTIAL;
    }

    /* Samples: finite, rotations unit; the lanes past the bones the identity. */
    for (uint64_t r = 0; r < (uint64_t)n * groups; ++r) {
        const uint64_t g = sec[2].offset + r * MANI_CLIP_GROUP_BYTES;
        const uint32_t first = (uint32_t)(r % groups) * 8;
        for (uint32_t l = 0; l < 8; ++l) {
            float v[10];
            for (int k = 0; k < 10; ++k) {
                v[k] = mcore_ReadF32(b + g + 32 * k + 4 * l);
                if (!isfinite(v[k])) MANI_CLIP_WRONG(g + 32 * k + 4 * l);
            }
            if (first + l >= bones) {
                static const float identity[10] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
                for (int k = 0; k < 10; ++k)
                    if (memcmp(&v[k], &identity[k], 4) != 0) MANI_CLIP_WRONG(g + 32 * k + 4 * l);
            } else if (!mani_ClipUnit(v[3], v[4], v[5], v[6])) {
                MANI_CLIP_WRONG(g + 32 * 3 + 4 * l);
            }
        }
    }

    /* Float samples finite. */
    for (uint64_t k = 0; k < (uint64_t)n * floats; ++k)
        if (!isfinite(mcore_ReadF32(b + sec[4].offset + 4 * k))) MANI_CLIP_WRONG(sec[4].offset + 4 * k);

    const mani_ClipShared at = {info, sec[3].offset, sec[5].offset, sec[6].offset, sec[7].offset,
                                sec[8].offset, sec[9].offset, sec[10].offset};
    const uint64_t wrong = mani_ClipCheckShared(b, &in, &at);
    if (wrong != 0) MANI_CLIP_WRONG(wrong);

    mani_ClipFillView(&in, &at, b, size, c.identity, out);
    out->flags = viewFlags;
    out->channels = sec[1].offset;
    out->samples = sec[2].offset;
    out->floatSamples = sec[4].offset;
    return mani_FileResult(mani_success, 0);
}
