/* The full-precision clip file format, version 3 (docs/formats.md, "Clip"):
 * shared by the open and sampling (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_CLIP_FORMAT_H
#define MAUL_ANIM_CLIP_FORMAT_H

#include <math.h>

#include "lib/core/container.h"
#include "maul/anim/clip.h"

/* Section tags and their order; introduced by format version 3
 * (mcore_formatClip1). */
#define MANI_CLIP_INFO MCORE_TAG(mcore_formatClip1, 1)           /* 64 bytes, below */
#define MANI_CLIP_CHANNELS MCORE_TAG(mcore_formatClip1, 2)       /* u32 per bone: animated channels (bits T, R, S) */
#define MANI_CLIP_SAMPLES MCORE_TAG(mcore_formatClip1, 3)        /* per sample, per group of 8 bones: 10 x 8 f32 */
#define MANI_CLIP_FLOAT_INFO MCORE_TAG(mcore_formatClip1, 4)     /* per float track: name offset, length, mode, 0 */
#define MANI_CLIP_FLOAT_SAMPLES MCORE_TAG(mcore_formatClip1, 5)  /* per sample, per float track: f32 */
#define MANI_CLIP_DISCRETE_INFO MCORE_TAG(mcore_formatClip1, 6)  /* per track: name offset, length, first key, count */
#define MANI_CLIP_DISCRETE_KEYS MCORE_TAG(mcore_formatClip1, 7)  /* per key: f32 time, i32 value */
#define MANI_CLIP_EVENTS MCORE_TAG(mcore_formatClip1, 8)         /* per event: f32 time, name offset, length, 0 */
#define MANI_CLIP_MARKERS MCORE_TAG(mcore_formatClip1, 9)        /* per marker: as events */
#define MANI_CLIP_ROOT_SAMPLES MCORE_TAG(mcore_formatClip1, 10)  /* per sample: t xyz, 0, r xyzw (f32); or empty */
#define MANI_CLIP_NAMES MCORE_TAG(mcore_formatClip1, 11)         /* the names' UTF-8 bytes */
#define MANI_CLIP_SECTION_COUNT 11u

/* Info, 64 bytes. */
#define MANI_CLIP_INFO_SIZE 64u
#define MANI_CLIP_INFO_BONES 0u
#define MANI_CLIP_INFO_SAMPLES 4u
#define MANI_CLIP_INFO_DURATION 8u
#define MANI_CLIP_INFO_RATE 12u
#define MANI_CLIP_INFO_LOOP 16u
#define MANI_CLIP_INFO_ADDITIVE 20u
#define MANI_CLIP_INFO_FLOATS 24u
#define MANI_CLIP_INFO_DISCRETES 28u
#define MANI_CLIP_INFO_DISCRETE_KEYS 32u
#define MANI_CLIP_INFO_EVENTS 36u
#define MANI_CLIP_INFO_MARKERS 40u
#define MANI_CLIP_INFO_NAMES 44u
#define MANI_CLIP_INFO_ROOT_BONE 48u
#define MANI_CLIP_INFO_ROOT_FLAGS 52u
#define MANI_CLIP_INFO_SKELETON 56u

/* Channel bits. */
#define MANI_CLIP_CHANNEL_T 1u
#define MANI_CLIP_CHANNEL_R 2u
#define MANI_CLIP_CHANNEL_S 4u
#define MANI_CLIP_CHANNEL_ALL 7u

/* A group of eight bones in a sample: 10 components (t xyz, r xyzw, s xyz),
 * eight lanes each, as maniSimdTransformx8 lays them out. */
#define MANI_CLIP_GROUP_BYTES 320u
#define MANI_CLIP_ROOT_SAMPLE_BYTES 32u
#define MANI_CLIP_ITEM_BYTES 16u   /* a float track, discrete track, event or marker entry */
#define MANI_CLIP_KEY_BYTES 8u
#define MANI_CLIP_MAX_TRACKS 65536u /* float tracks, discrete tracks, events, markers: each */
#define MANI_CLIP_MAX_KEYS (1u << 24) /* discrete keys in all */

/* Float track modes. */
#define MANI_CLIP_FLOAT_LINEAR 0u
#define MANI_CLIP_FLOAT_STEP 1u

/* How far a rotation's squared length may be from 1 in a file. */
#define MANI_CLIP_UNIT_TOLERANCE 1e-5

/* maniClip.flags: some bone has a channel the clip does not animate. */
#define MANI_CLIP_VIEW_PARTIAL 1u

/* The value maniClip.opened holds once an open wrote the view. */
#define MANI_CLIP_OPENED 0x50494C43u /* "CLIP" */

static const mcore_SectionSpec maniClipSections[MANI_CLIP_SECTION_COUNT] = {
    {MANI_CLIP_INFO, 16},          {MANI_CLIP_CHANNELS, 16},     {MANI_CLIP_SAMPLES, 32},
    {MANI_CLIP_FLOAT_INFO, 16},    {MANI_CLIP_FLOAT_SAMPLES, 16}, {MANI_CLIP_DISCRETE_INFO, 16},
    {MANI_CLIP_DISCRETE_KEYS, 16}, {MANI_CLIP_EVENTS, 16},       {MANI_CLIP_MARKERS, 16},
    {MANI_CLIP_ROOT_SAMPLES, 16},  {MANI_CLIP_NAMES, 16},
};

/* The sample count of a duration and rate (both finite, duration >= 0, rate
 * > 0): floor(d r) + 1 when d r is whole, else floor(d r) + 2 (d r is exact
 * in binary64). 0 when it would pass 2^31. */
static inline uint32_t mani_ClipSampleCountOf(float duration, float rate) {
    const double m = (double)duration * (double)rate;
    if (!(m >= 0.0) || !(m < 2147483648.0)) return 0;
    const double k = floor(m);
    return (uint32_t)k + (m == k ? 1u : 2u);
}

/* Where a time falls on the grid: segment i (samples i and i + 1, or 0 and 0
 * for one sample), the fraction f (binary32) and whether the binary64
 * fraction reached 1 (a step takes sample i + 1). */
typedef struct mani_ClipSpot {
    uint32_t i;
    uint32_t j;   /* the second sample: i + 1, or i for one sample */
    float f;
    int atEnd;
} mani_ClipSpot;

static inline mani_ClipSpot mani_ClipLocate(uint32_t n, float duration, float rate, float time) {
    mani_ClipSpot s = {0, 0, 0.0f, 0};
    double t = (double)time;
    if (!(t > 0.0)) t = 0.0; /* NaN and negatives */
    if (t > (double)duration) t = (double)duration;
    if (n < 2) return s;
    const double x = t * (double)rate;
    const double fl = floor(x);
    uint32_t i = fl >= (double)(n - 2) ? n - 2 : (uint32_t)fl;
    const double t0 = (double)i / (double)rate;
    const double t1 = i + 1 == n - 1 ? (double)duration : (double)(i + 1) / (double)rate;
    double fr = 1.0;
    if (t1 - t0 > 0.0) fr = (t - t0) / (t1 - t0);
    if (!(fr > 0.0)) fr = 0.0;
    if (fr > 1.0) fr = 1.0;
    s.i = i;
    s.j = i + 1;
    s.f = (float)fr;
    s.atEnd = fr >= 1.0;
    return s;
}

/* The time of sample k of n. */
static inline double mani_ClipSampleTime(uint32_t k, uint32_t n, float duration, float rate) {
    return k + 1 == n ? (double)duration : (double)k / (double)rate;
}

#endif
