/* maniOpenClip: checks every byte of a full-precision clip file once
 * (docs/formats.md, "Clip") and fills the view. */
#include "lib/anim/src/base/file_open.h"
#include <math.h>
#include <string.h>

#include "lib/anim/src/clip/clip_internal.h"
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
static int mani_ClipUnit(float x, float y, float z, float w) {
    const double len2 = (((double)x * x + (double)y * y) + (double)z * z) + (double)w * w;
    return fabs(len2 - 1.0) <= MANI_CLIP_UNIT_TOLERANCE;
}

maniFileResult maniOpenClip(const void* bytes, size_t size, maniClip* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindClip, mcore_formatClipLatest, maniClipSections, MANI_CLIP_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* Info. */
    if (sec[0].size != MANI_CLIP_INFO_SIZE) MANI_CLIP_WRONG(mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint32_t bones = mcore_ReadU32(b + info + MANI_CLIP_INFO_BONES);
    if (bones == 0 || bones > MANI_MAX_BONES) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_BONES);
    const uint32_t n = mcore_ReadU32(b + info + MANI_CLIP_INFO_SAMPLES);
    if (n == 0 || n > MANI_MAX_SAMPLES) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_SAMPLES);
    const float duration = mcore_ReadF32(b + info + MANI_CLIP_INFO_DURATION);
    if (!(duration >= 0.0f) || !isfinite(duration)) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_DURATION);
    const float rate = mcore_ReadF32(b + info + MANI_CLIP_INFO_RATE);
    if (!(rate > 0.0f) || !isfinite(rate)) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_RATE);
    if (mani_ClipSampleCountOf(duration, rate) != n) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_SAMPLES);
    const uint32_t loop = mcore_ReadU32(b + info + MANI_CLIP_INFO_LOOP);
    if (loop > maniLoopRepeat) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_LOOP);
    const uint32_t additive = mcore_ReadU32(b + info + MANI_CLIP_INFO_ADDITIVE);
    if (additive > maniAdditiveFirstFrame) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_ADDITIVE);
    uint32_t counts[5];
    for (int k = 0; k < 5; ++k) {
        counts[k] = mcore_ReadU32(b + info + MANI_CLIP_INFO_FLOATS + 4 * k);
        const uint32_t limit = k == 2 ? MANI_CLIP_MAX_KEYS : MANI_CLIP_MAX_TRACKS;
        if (counts[k] > limit) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_FLOATS + 4 * k);
    }
    const uint32_t floats = counts[0], discretes = counts[1], keys = counts[2], events = counts[3],
                   markers = counts[4];
    const uint32_t namesSize = mcore_ReadU32(b + info + MANI_CLIP_INFO_NAMES);
    const uint32_t rootBone = mcore_ReadU32(b + info + MANI_CLIP_INFO_ROOT_BONE);
    const uint32_t rootFlags = mcore_ReadU32(b + info + MANI_CLIP_INFO_ROOT_FLAGS);
    if (rootFlags == 0) {
        if (rootBone != MANI_NO_BONE) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_ROOT_BONE);
    } else {
        if (rootBone >= bones) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_ROOT_BONE);
        if (rootFlags > MANI_ROOT_MOTION_ALL_FLAGS ||
            (rootFlags & (MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION)) ==
                (MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION) ||
            additive != maniAdditiveNone)
            MANI_CLIP_WRONG(info + MANI_CLIP_INFO_ROOT_FLAGS);
    }
    const uint64_t skeletonIdentity = mcore_ReadU64(b + info + MANI_CLIP_INFO_SKELETON);

    /* Section sizes. */
    const uint64_t groups = (bones + 7) / 8;
    const uint64_t sizes[MANI_CLIP_SECTION_COUNT] = {
        MANI_CLIP_INFO_SIZE,
        4ull * bones,
        (uint64_t)n * groups * MANI_CLIP_GROUP_BYTES,
        (uint64_t)floats * MANI_CLIP_ITEM_BYTES,
        4ull * n * floats,
        (uint64_t)discretes * MANI_CLIP_ITEM_BYTES,
        (uint64_t)keys * MANI_CLIP_KEY_BYTES,
        (uint64_t)events * MANI_CLIP_ITEM_BYTES,
        (uint64_t)markers * MANI_CLIP_ITEM_BYTES,
        rootFlags != 0 ? (uint64_t)n * MANI_CLIP_ROOT_SAMPLE_BYTES : 0,
        namesSize,
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

    /* Names: every entry's span inside them, checked with each entry. */
    const uint64_t names = sec[10].offset;

    /* Float tracks: names, modes; samples finite. */
    for (uint32_t k = 0; k < floats; ++k) {
        const uint64_t e = sec[3].offset + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        if (mani_ClipNameBad(b, b + e, names, namesSize)) MANI_CLIP_WRONG(e);
        if (mcore_ReadU32(b + e + 8) > MANI_CLIP_FLOAT_STEP) MANI_CLIP_WRONG(e + 8);
        if (mcore_ReadU32(b + e + 12) != 0) MANI_CLIP_WRONG(e + 12);
    }
    for (uint64_t k = 0; k < (uint64_t)n * floats; ++k)
        if (!isfinite(mcore_ReadF32(b + sec[4].offset + 4 * k))) MANI_CLIP_WRONG(sec[4].offset + 4 * k);

    /* Discrete tracks: names; one run of keys per track, in track order, each
     * run's times increasing within [0, duration]. */
    uint32_t nextKey = 0;
    for (uint32_t k = 0; k < discretes; ++k) {
        const uint64_t e = sec[5].offset + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        if (mani_ClipNameBad(b, b + e, names, namesSize)) MANI_CLIP_WRONG(e);
        if (mcore_ReadU32(b + e + 8) != nextKey) MANI_CLIP_WRONG(e + 8);
        const uint32_t count = mcore_ReadU32(b + e + 12);
        if (count == 0 || count > keys - nextKey) MANI_CLIP_WRONG(e + 12);
        float previous = 0.0f;
        for (uint32_t j = 0; j < count; ++j) {
            const uint64_t key = sec[6].offset + (uint64_t)(nextKey + j) * MANI_CLIP_KEY_BYTES;
            const float t = mcore_ReadF32(b + key);
            if (!(t <= duration) || !(j == 0 ? t >= 0.0f : t > previous)) MANI_CLIP_WRONG(key);
            previous = t;
        }
        nextKey += count;
    }
    if (nextKey != keys) MANI_CLIP_WRONG(info + MANI_CLIP_INFO_DISCRETE_KEYS);

    /* Events and markers. */
    uint64_t wrong = mani_ClipCheckEvents(b, sec[7].offset, events, duration, names, namesSize);
    if (wrong != 0) MANI_CLIP_WRONG(wrong);
    wrong = mani_ClipCheckEvents(b, sec[8].offset, markers, duration, names, namesSize);
    if (wrong != 0) MANI_CLIP_WRONG(wrong);

    /* Root motion: finite, the padding 0, rotations unit. */
    if (rootFlags != 0) {
        for (uint32_t k = 0; k < n; ++k) {
            const uint64_t r = sec[9].offset + (uint64_t)k * MANI_CLIP_ROOT_SAMPLE_BYTES;
            float v[8];
            for (int j = 0; j < 8; ++j) {
                v[j] = mcore_ReadF32(b + r + 4 * j);
                if (!isfinite(v[j])) MANI_CLIP_WRONG(r + 4 * j);
            }
            if (mcore_ReadU32(b + r + 12) != 0) MANI_CLIP_WRONG(r + 12);
            if (!mani_ClipUnit(v[4], v[5], v[6], v[7])) MANI_CLIP_WRONG(r + 16);
        }
    }

    maniClip v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skeletonIdentity = skeletonIdentity;
    v.opened = MANI_CLIP_OPENED;
    v.boneCount = bones;
    v.sampleCount = n;
    v.floatTrackCount = floats;
    v.discreteTrackCount = discretes;
    v.discreteKeyCount = keys;
    v.eventCount = events;
    v.markerCount = markers;
    v.loop = loop;
    v.additive = additive;
    v.rootBone = rootBone;
    v.rootFlags = rootFlags;
    v.flags = viewFlags;
    v.duration = duration;
    v.sampleRate = rate;
    v.channels = sec[1].offset;
    v.samples = sec[2].offset;
    v.floatInfo = sec[3].offset;
    v.floatSamples = sec[4].offset;
    v.discreteInfo = sec[5].offset;
    v.discreteKeys = sec[6].offset;
    v.events = sec[7].offset;
    v.markers = sec[8].offset;
    v.rootSamples = sec[9].offset;
    v.names = names;
    v.namesSize = namesSize;
    *out = v;
    return mani_FileResult(mani_success, 0);
}
