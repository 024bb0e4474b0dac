/* The compressed clip file format, version 11 (docs/formats.md, "Compressed
 * clip (kind 4, format 11)"): shared by the open and sampling (runtime) and
 * the compressor (offline), so the compressor measures its error on exactly
 * the values the runtime decodes.
 *
 * What differs from format 6 (compress_format.h, still read):
 *  - a rotation track stores three of its four components per segment: the
 *    dropped one is w while w's smallest magnitude over the segment's
 *    samples is at least MANI_C11_KEEP_W, else the component whose smallest
 *    magnitude is largest (its index in bits 4-5 of the track's rate byte);
 *    each sample's sign is made so that component is >= 0, and it is
 *    rebuilt as sqrt(max(0, 1 - (a a + b b + c c))) of the kept three in
 *    index order; so no track goes raw because w is near 0. A rotation that
 *    drops another component than w somewhere is wide (channel word bit 14)
 *    and has four clip ranges (x y z w, each over the segments that keep
 *    it), else three (x y z); three segment ranges either way.
 *  - segments hold MANI_C11_SEGMENT samples but the last, which takes a
 *    short rest (fewer than MANI_C11_MERGE samples) into itself: segment s
 *    starts at 16 s, and sample k is in segment min(k / 16, S - 1).
 *  - a value is decoded as base + scale * q with base = clipMin + clipExt *
 *    (segMin / 255) and scale = clipExt * ((segExt / 255) * (1 / (2^bits -
 *    1))), the two made once per segment and component (binary32, this
 *    order), so a sample costs one multiplication and one addition a value.
 *  - (no new section: a decoder walks a group of eight bones from the
 *    counts of the groups before it, its channel words giving the ready
 *    part, its lanes' constants and defaults, and the list of its animated
 *    tracks, the only values it then reads.)
 * Tracks, kinds, constants, raw values and the shared sections are as in
 * format 6. */
#ifndef MAUL_ANIM_COMPRESS_FORMAT11_H
#define MAUL_ANIM_COMPRESS_FORMAT11_H

#include <math.h>
#include <string.h>

#include "lib/anim/src/compress/compress_format.h"

#define MANI_C11_VERSION 11u
#define MANI_C11_INFO MCORE_TAG(MANI_C11_VERSION, 1)       /* 80 bytes, as format 6's */
#define MANI_C11_CHANNELS MCORE_TAG(MANI_C11_VERSION, 2)   /* format 6's u32 words per bone, then per float track */
#define MANI_C11_CONSTANTS MCORE_TAG(MANI_C11_VERSION, 3)  /* f32 values of the constant tracks */
#define MANI_C11_RANGES MCORE_TAG(MANI_C11_VERSION, 4)     /* per clip component: f32 min, f32 extent */
#define MANI_C11_SEGMENTS MCORE_TAG(MANI_C11_VERSION, 5)   /* per segment: 16 bytes, below */
#define MANI_C11_PACKED MCORE_TAG(MANI_C11_VERSION, 6)     /* the segments' blocks, then 8 zero bytes */
#define MANI_C11_FLOAT_INFO MCORE_TAG(MANI_C11_VERSION, 7) /* as the full-precision clip's sections */
#define MANI_C11_DISCRETE_INFO MCORE_TAG(MANI_C11_VERSION, 8)
#define MANI_C11_DISCRETE_KEYS MCORE_TAG(MANI_C11_VERSION, 9)
#define MANI_C11_EVENTS MCORE_TAG(MANI_C11_VERSION, 10)
#define MANI_C11_MARKERS MCORE_TAG(MANI_C11_VERSION, 11)
#define MANI_C11_ROOT_SAMPLES MCORE_TAG(MANI_C11_VERSION, 12)
#define MANI_C11_NAMES MCORE_TAG(MANI_C11_VERSION, 13)
#define MANI_C11_SECTION_COUNT 13u

#define MANI_C11_SEGMENT 16u
#define MANI_C11_MERGE 8u          /* a last rest of fewer samples joins the segment before */
#define MANI_C11_SEGMENT_ENTRY 16u /* u32 block offset in the packed section, u32 bits per sample,
                                      u32 bits of the bone tracks in a sample, u32 0 */

/* The rate byte: rate index in bits 0-3 (as format 6's), a quantized
 * rotation's dropped component in bits 4-5, bits 6-7 0. */
#define MANI_C11_RATE_MASK 15u
#define MANI_C11_DROP_SHIFT 4u

static inline uint32_t mani_C11SegmentCount(uint32_t n) {
    if (n <= MANI_C11_SEGMENT) return 1u;
    const uint32_t full = n / MANI_C11_SEGMENT, rest = n % MANI_C11_SEGMENT;
    return rest == 0 || rest < MANI_C11_MERGE ? full : full + 1u;
}
static inline uint32_t mani_C11SegmentOf(uint32_t k, uint32_t segments) {
    const uint32_t s = k / MANI_C11_SEGMENT;
    return s < segments ? s : segments - 1u;
}
static inline uint32_t mani_C11SegmentStart(uint32_t s) { return s * MANI_C11_SEGMENT; }
static inline uint32_t mani_C11SegmentEnd(uint32_t s, uint32_t segments, uint32_t n) {
    return s + 1u >= segments ? n : (s + 1u) * MANI_C11_SEGMENT;
}

/* A channel word's bit 14: its animated rotation drops a component other
 * than w in some segment, so it has four clip ranges (x y z w); without it
 * every segment drops w and it has three (x y z). */
#define MANI_C11_WIDE_ROTATION (1u << 14)

/* Clip ranges a track has: a rotation 3 or 4 (wide), a translation or scale
 * 3, a float track 1 (channel 3); segment ranges: 3 (1 for a float track). */
static inline uint32_t mani_C11ClipComps(uint32_t channel, int wide) {
    return channel == 1 ? (wide ? 4u : 3u) : channel == 3 ? 1u : 3u;
}

/* A dropped component is w while w's smallest magnitude over the segment is
 * at least this; else the component whose smallest magnitude is largest. */
#define MANI_C11_KEEP_W 0.5

/* A segment component's decoding parameters (made once per segment). */
static inline void mani_C11Params(uint32_t rate, uint32_t qmin, uint32_t qext, float cmin, float cext, float* base,
                                  float* scale) {
    const float lo = (float)qmin * MANI_CC_INV255, ext = (float)qext * MANI_CC_INV255;
    *base = cmin + cext * lo;
    *scale = cext * (ext * maniCcInverse[rate < MANI_CC_RATE_COUNT ? rate : 0]);
}

/* The decoded value of a quantized component. */
static inline float mani_C11Value(uint32_t q, float base, float scale) { return base + scale * (float)q; }

/* The dropped component from the kept three (in index order). */
static inline float mani_C11Rebuild(float a, float b, float c) { return mani_CcRebuildW(a, b, c); }

static const mcore_SectionSpec maniC11Sections[MANI_C11_SECTION_COUNT] = {
    {MANI_C11_INFO, 16},          {MANI_C11_CHANNELS, 16},   {MANI_C11_CONSTANTS, 16},
    {MANI_C11_RANGES, 16},        {MANI_C11_SEGMENTS, 16},   {MANI_C11_PACKED, 16},
    {MANI_C11_FLOAT_INFO, 16},    {MANI_C11_DISCRETE_INFO, 16}, {MANI_C11_DISCRETE_KEYS, 16},
    {MANI_C11_EVENTS, 16},        {MANI_C11_MARKERS, 16},    {MANI_C11_ROOT_SAMPLES, 16},
    {MANI_C11_NAMES, 16},
};

#endif
