/* The compressed clip file format, version 6 (docs/formats.md, "Compressed
 * clip"): shared by the open and sampling (runtime) and the compressor
 * (offline), so the compressor measures its error on exactly the values the
 * runtime decodes.
 *
 * Tracks: each bone channel (T, R, S) and float track is folded into
 * "default" (every sample is the skeleton's rest, or the identity for an
 * additive clip; float tracks: +0), "constant" (every sample has the first
 * one's bits: stored once) or "animated". Animated tracks, in bone order
 * (T, R, S) then float tracks, have 3 components (a rotation stores x y z of
 * the quaternion with w >= 0; w is rebuilt) or 1 (a float track). Each
 * component has a clip range (f32 min, f32 extent). Samples are split into
 * segments of MANI_CC_SEGMENT samples (the last may be shorter); per segment
 * each component has a range inside the clip's, quantized to 8 bits (min and
 * extent in 255ths), and each animated track a rate index: 0 (the segment's
 * min), 1 to 14 (3 to 16 bits per component) or 15 (raw: the f32 bits; a
 * raw rotation stores all four components). */
#ifndef MAUL_ANIM_COMPRESS_FORMAT_H
#define MAUL_ANIM_COMPRESS_FORMAT_H

#include <math.h>
#include <string.h>

#include "lib/anim/src/clip/clip_format.h"

#define MANI_CC_INFO MCORE_TAG(mcore_formatClipCompressed1, 1)       /* 80 bytes, below */
#define MANI_CC_CHANNELS MCORE_TAG(mcore_formatClipCompressed1, 2)   /* u32 per bone, then per float track */
#define MANI_CC_CONSTANTS MCORE_TAG(mcore_formatClipCompressed1, 3)  /* f32 values of the constant tracks */
#define MANI_CC_RANGES MCORE_TAG(mcore_formatClipCompressed1, 4)     /* per animated component: f32 min, f32 extent */
#define MANI_CC_SEGMENTS MCORE_TAG(mcore_formatClipCompressed1, 5)   /* per segment: 16 bytes, below */
#define MANI_CC_PACKED MCORE_TAG(mcore_formatClipCompressed1, 6)     /* the segments' blocks, then 8 zero bytes */
#define MANI_CC_FLOAT_INFO MCORE_TAG(mcore_formatClipCompressed1, 7) /* as the full-precision clip's sections */
#define MANI_CC_DISCRETE_INFO MCORE_TAG(mcore_formatClipCompressed1, 8)
#define MANI_CC_DISCRETE_KEYS MCORE_TAG(mcore_formatClipCompressed1, 9)
#define MANI_CC_EVENTS MCORE_TAG(mcore_formatClipCompressed1, 10)
#define MANI_CC_MARKERS MCORE_TAG(mcore_formatClipCompressed1, 11)
#define MANI_CC_ROOT_SAMPLES MCORE_TAG(mcore_formatClipCompressed1, 12)
#define MANI_CC_NAMES MCORE_TAG(mcore_formatClipCompressed1, 13)
#define MANI_CC_SECTION_COUNT 13u

/* Info: the full-precision clip's 64 bytes (MANI_CLIP_INFO_*), then: */
#define MANI_CC_INFO_SIZE 80u
#define MANI_CC_INFO_BONE_TRACKS 64u     /* animated bone tracks */
#define MANI_CC_INFO_FLOAT_TRACKS 68u    /* animated float tracks */
#define MANI_CC_INFO_BONE_CONSTANTS 72u  /* f32 values the constant bone tracks hold (3 or 4 each) */
#define MANI_CC_INFO_SEGMENT 76u         /* samples per segment: MANI_CC_SEGMENT */

/* A channel word: bits 0-2 the source clip's animated channels (as the
 * full-precision clip's), bits 8-9, 10-11, 12-13 the kind of T, R and S.
 * A float track's word: its kind in bits 0-1. */
#define MANI_CC_KIND_DEFAULT 0u
#define MANI_CC_KIND_CONSTANT 1u
#define MANI_CC_KIND_ANIMATED 2u
#define MANI_CC_KIND_SHIFT 8u
static inline uint32_t mani_CcKind(uint32_t word, uint32_t channel) { return (word >> (MANI_CC_KIND_SHIFT + 2 * channel)) & 3u; }

#define MANI_CC_SEGMENT 16u
#define MANI_CC_SEGMENT_ENTRY 16u /* u32 block offset in the packed section, u32 bits per sample,
                                     u32 bits of the bone tracks in a sample, u32 0 */
#define MANI_CC_RATE_RAW 15u
#define MANI_CC_RATE_COUNT 16u
#define MANI_CC_PACKED_TAIL 8u

/* Bits per component of a rate index (raw: 32). */
static inline uint32_t mani_CcRateBits(uint32_t rate) {
    return rate == 0 ? 0u : rate >= MANI_CC_RATE_RAW ? 32u : rate + 2u;
}

/* Bits a track takes in one sample: comps components, a raw rotation 4. */
static inline uint32_t mani_CcTrackBits(uint32_t rate, uint32_t comps, int rotation) {
    if (rate >= MANI_CC_RATE_RAW) return 32u * (rotation ? 4u : comps);
    return mani_CcRateBits(rate) * comps;
}

static inline uint64_t mani_CcAlign4(uint64_t x) { return (x + 3) & ~(uint64_t)3; }

/* A segment's block: rates (a byte per animated track), segment ranges (two
 * bytes per animated component), then the samples' bits, each part padded
 * to 4 bytes. */
static inline uint64_t mani_CcRangesAt(uint32_t tracks) { return mani_CcAlign4(tracks); }
static inline uint64_t mani_CcBitsAt(uint32_t tracks, uint32_t comps) {
    return mani_CcAlign4(tracks) + mani_CcAlign4(2ull * comps);
}
static inline uint64_t mani_CcBlockSize(uint32_t tracks, uint32_t comps, uint64_t bitsPerSample, uint32_t count) {
    return mani_CcBitsAt(tracks, comps) + mani_CcAlign4((bitsPerSample * count + 7) / 8);
}

/* 1 / (2^bits - 1) for the bits of each rate index (rounded once to
 * binary32; 0 for rate 0 and raw), and 1 / 255. */
static const float maniCcInverse[MANI_CC_RATE_COUNT] = {
    0.0f,          1.0f / 7.0f,     1.0f / 15.0f,    1.0f / 31.0f,    1.0f / 63.0f,    1.0f / 127.0f,
    1.0f / 255.0f, 1.0f / 511.0f,   1.0f / 1023.0f,  1.0f / 2047.0f,  1.0f / 4095.0f,  1.0f / 8191.0f,
    1.0f / 16383.0f, 1.0f / 32767.0f, 1.0f / 65535.0f, 0.0f,
};
#define MANI_CC_INV255 (1.0f / 255.0f)

/* The decoded value of a quantized component: the segment range's min and
 * extent in 255ths of the clip range, q of (2^bits - 1) inside it. Binary32
 * multiplications and additions only, in this order: the same bits
 * everywhere. */
static inline float mani_CcDequantize(uint32_t q, uint32_t rate, uint32_t qmin, uint32_t qext, float cmin,
                                      float cext) {
    const float segMin = (float)qmin * MANI_CC_INV255, segExt = (float)qext * MANI_CC_INV255;
    const float x = (float)q * maniCcInverse[rate < MANI_CC_RATE_COUNT ? rate : 0];
    const float norm = segMin + segExt * x;
    return cmin + cext * norm;
}

/* A rotation's w from x y z: sqrt(max(0, 1 - (x x + y y + z z))). */
static inline float mani_CcRebuildW(float x, float y, float z) {
    const float r = 1.0f - ((x * x + y * y) + z * z);
    return r > 0.0f ? sqrtf(r) : 0.0f;
}

/* Reads `bits` (at most 32) bits at bit position `at` of the bytes from
 * `base`, little-endian, never past `size` bytes of the file (bits past it
 * read 0). */
static inline uint32_t mani_CcReadBits(const uint8_t* file, uint64_t size, uint64_t base, uint64_t at,
                                       uint32_t bits) {
    if (bits == 0) return 0;
    const uint64_t byte = base + (at >> 3);
    uint64_t word = 0;
    if (byte <= size && size - byte >= 8) {
        word = mcore_ReadU64(file + byte);
    } else {
        for (int k = 7; k >= 0; --k) word = (word << 8) | (byte + (uint64_t)k < size ? file[byte + k] : 0u);
    }
    word >>= (at & 7u);
    return bits >= 32 ? (uint32_t)word : (uint32_t)(word & ((1ull << bits) - 1u));
}

/* Reads of 4 bytes at an offset that bytes changed after the open may have
 * moved: 0 past the file. */
static inline uint32_t mani_CcU32At(const uint8_t* file, uint64_t size, uint64_t at) {
    return at <= size && size - at >= 4 ? mcore_ReadU32(file + at) : 0u;
}
static inline float mani_CcF32At(const uint8_t* file, uint64_t size, uint64_t at) {
    const uint32_t bits = mani_CcU32At(file, size, at);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}
static inline uint32_t mani_CcU8At(const uint8_t* file, uint64_t size, uint64_t at) {
    return at < size ? file[at] : 0u;
}

static const mcore_SectionSpec maniCcSections[MANI_CC_SECTION_COUNT] = {
    {MANI_CC_INFO, 16},          {MANI_CC_CHANNELS, 16},      {MANI_CC_CONSTANTS, 16},
    {MANI_CC_RANGES, 16},        {MANI_CC_SEGMENTS, 16},      {MANI_CC_PACKED, 16},
    {MANI_CC_FLOAT_INFO, 16},    {MANI_CC_DISCRETE_INFO, 16}, {MANI_CC_DISCRETE_KEYS, 16},
    {MANI_CC_EVENTS, 16},        {MANI_CC_MARKERS, 16},       {MANI_CC_ROOT_SAMPLES, 16},
    {MANI_CC_NAMES, 16},
};

#endif
