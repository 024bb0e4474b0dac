/* EXT_meshopt_compression / KHR_meshopt_compression stream decoding
 * (meshopt.h), from the two specifications' Appendix A (bitstreams) and B
 * (filters).
 *
 * Each decoder runs twice over the same bytes: a checking pass that writes
 * nothing (out == NULL) and, when it accepted the stream, a writing pass.
 * Both take the same branches, so the second cannot refuse, and dst is
 * written only for a stream that is whole. Every read goes through a bound
 * (the end of the stream's data section: the tail is read only as a tail). */
#include "lib/anim/src/import/gltf/meshopt.h"

#include <math.h>
#include <string.h>

/* -- Little-endian access ---------------------------------------------------- */

static inline uint32_t mo_get16(const uint8_t* p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }

static inline uint32_t mo_get32(const uint8_t* p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void mo_put16(uint8_t* p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void mo_put32(uint8_t* p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline float mo_bitsToFloat(uint32_t bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint32_t mo_floatToBits(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* A refusal: where, and the code. */
static maniResult mo_refuse(size_t* errorOffset, size_t offset) {
    if (errorOffset != NULL) *errorOffset = offset;
    return mani_errorFormat;
}

/* -- Mode 0: attributes ----------------------------------------------------- */

#define MO_MAX_STRIDE 256u
#define MO_BLOCK_BYTES 8192u
#define MO_MAX_BLOCK_ELEMENTS 256u
#define MO_GROUP 16u

/* The elements of one attribute block: min((8192 / stride) & ~15, 256). */
static size_t mo_maxBlockElements(size_t stride) {
    size_t n = (MO_BLOCK_BYTES / stride) & ~(size_t)(MO_GROUP - 1);
    return n < MO_MAX_BLOCK_ELEMENTS ? n : MO_MAX_BLOCK_ELEMENTS;
}

/* The bit widths of a group's 2-bit header value, per control mode (v0 has
 * one table; v1's control modes 0 and 1 have theirs). */
static const uint8_t moWidthsV0[4] = {0, 2, 4, 8};
static const uint8_t moWidthsV1[2][4] = {{0, 1, 2, 4}, {1, 2, 4, 8}};

/* Bits set in a 32-bit word (SWAR; no builtin needed). */
static inline unsigned mo_popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (unsigned)((x * 0x01010101u) >> 24);
}

/* The sentinels (fields of all ones) among a group's 16 packed deltas of
 * width 1, 2 or 4 at b: the escape bytes that follow them. */
static unsigned mo_sentinels(const uint8_t* b, unsigned width) {
    if (width == 1) return mo_popcount32(mo_get16(b));
    if (width == 2) {
        uint32_t x = mo_get32(b);
        return mo_popcount32(x & (x >> 1) & 0x55555555u);
    }
    uint32_t lo = mo_get32(b), hi = mo_get32(b + 4);
    lo &= lo >> 1;
    lo &= (lo >> 2) & 0x11111111u;
    hi &= hi >> 1;
    hi &= (hi >> 2) & 0x11111111u;
    return mo_popcount32(lo) + mo_popcount32(hi);
}

/* Unpacks a group's 16 deltas of width bits (1: least significant bit first;
 * 2 and 4: most significant first), each sentinel replaced by the next escape
 * byte at e (counted and bounded by the caller). Branch-free: e[0] is read
 * for every delta, which stays inside the stream (the tail, at least 24
 * bytes, follows the data). */
#define MO_TAKE(v, sentinel, e)                          \
    do {                                                 \
        unsigned is_ = (v) == (sentinel);                \
        unsigned x_ = (e)[0];                            \
        (v) = is_ ? x_ : (v);                            \
        (e) += is_;                                      \
    } while (0)

static void mo_unpack(uint8_t* d, const uint8_t* b, unsigned width, const uint8_t* e) {
    if (width == 1) {
        for (unsigned i = 0; i < MO_GROUP; ++i) {
            unsigned v = (b[i >> 3] >> (i & 7u)) & 1u;
            MO_TAKE(v, 1u, e);
            d[i] = (uint8_t)v;
        }
    } else if (width == 2) {
        for (unsigned i = 0; i < MO_GROUP; ++i) {
            unsigned v = (b[i >> 2] >> (6u - 2u * (i & 3u))) & 3u;
            MO_TAKE(v, 3u, e);
            d[i] = (uint8_t)v;
        }
    } else {
        for (unsigned i = 0; i < MO_GROUP; ++i) {
            unsigned v = (b[i >> 1] >> (4u - 4u * (i & 1u))) & 15u;
            MO_TAKE(v, 15u, e);
            d[i] = (uint8_t)v;
        }
    }
}

/* mo_unpack for a group without sentinels (no escape bytes), the common
 * case on smooth data: plain field extraction the compiler can vectorize. */
static void mo_unpackPlain(uint8_t* d, const uint8_t* b, unsigned width) {
    if (width == 1) {
        for (unsigned i = 0; i < MO_GROUP; ++i) d[i] = (uint8_t)((b[i >> 3] >> (i & 7u)) & 1u);
    } else if (width == 2) {
        for (unsigned j = 0; j < 4; ++j) {
            unsigned x = b[j];
            d[4 * j + 0] = (uint8_t)(x >> 6);
            d[4 * j + 1] = (uint8_t)((x >> 4) & 3u);
            d[4 * j + 2] = (uint8_t)((x >> 2) & 3u);
            d[4 * j + 3] = (uint8_t)(x & 3u);
        }
    } else {
        for (unsigned j = 0; j < 8; ++j) {
            unsigned x = b[j];
            d[2 * j + 0] = (uint8_t)(x >> 4);
            d[2 * j + 1] = (uint8_t)(x & 15u);
        }
    }
}

/* Reads the deltas of one data block (one byte position of groups * 16
 * elements) at *pos, below limit, into deltas (NULL in the checking pass).
 * widths is the control mode's table; returns 0 and *failAt on a short read. */
static int mo_decodeDataBlock(const uint8_t* src, size_t* pos, size_t limit, size_t groups, const uint8_t* widths,
                              uint8_t* deltas, size_t* failAt) {
    size_t p = *pos;
    size_t headerBytes = (groups + 3) / 4;
    if (limit - p < headerBytes) {
        *failAt = p;
        return 0;
    }
    const uint8_t* header = src + p;
    p += headerBytes;
    for (size_t g = 0; g < groups; ++g) {
        unsigned bits = (header[g / 4] >> (2 * (g % 4))) & 3u;
        unsigned width = widths[bits];
        uint8_t* d = deltas != NULL ? deltas + g * MO_GROUP : NULL;
        if (width == 0) {
            if (d != NULL) memset(d, 0, MO_GROUP);
            continue;
        }
        if (width == 8) {
            if (limit - p < MO_GROUP) {
                *failAt = p;
                return 0;
            }
            if (d != NULL) memcpy(d, src + p, MO_GROUP);
            p += MO_GROUP;
            continue;
        }
        size_t packed = 2u * width; /* 16 deltas of width bits */
        if (limit - p < packed) {
            *failAt = p;
            return 0;
        }
        unsigned escapes = mo_sentinels(src + p, width);
        if (limit - p - packed < escapes) {
            *failAt = p + packed; /* the escape bytes' read */
            return 0;
        }
        if (d != NULL) {
            if (escapes == 0) {
                mo_unpackPlain(d, src + p, width);
            } else {
                mo_unpack(d, src + p, width, src + p + packed);
            }
        }
        p += packed + escapes;
    }
    *pos = p;
    return 1;
}

static inline uint32_t mo_unzigzag8(uint32_t v) { return ((v >> 1) ^ (0u - (v & 1u))) & 0xffu; }
static inline uint32_t mo_unzigzag16(uint32_t v) { return (v & 1u) ? (~(v >> 1) & 0xffffu) : (v >> 1); }
static inline uint32_t mo_rotl32(uint32_t v, unsigned r) { return (v << r) | (v >> ((32u - r) & 31u)); }

static maniResult mo_decodeAttributes(uint8_t* out, size_t count, size_t stride, const uint8_t* src, size_t size,
                                      int khr, size_t* errorOffset) {
    if (size < 1) return mo_refuse(errorOffset, 0);
    int version;
    if (src[0] == 0xa0) {
        version = 0;
    } else if (src[0] == 0xa1 && khr) {
        version = 1;
    } else {
        return mo_refuse(errorOffset, 0);
    }
    size_t channels = stride / 4;
    size_t tail = version == 0 ? stride : stride + channels;
    size_t minTail = version == 0 ? 32u : 24u;
    if (tail < minTail) tail = minTail;
    if (size - 1 < tail) return mo_refuse(errorOffset, size);
    size_t limit = size - tail;
    const uint8_t* channelModes = src + size - channels; /* v1 only */
    const uint8_t* baseline = src + size - stride - (version == 1 ? channels : 0);

    /* The channel modes: 0 (byte deltas) and 1 (2-byte deltas) with high
     * bits 0, 2 (4-byte XOR deltas) with a rotation in the high bits. */
    if (version == 1) {
        for (size_t c = 0; c < channels; ++c) {
            unsigned m = channelModes[c];
            if ((m & 15u) > 2u || ((m & 15u) < 2u && (m >> 4) != 0)) {
                return mo_refuse(errorOffset, (size_t)(channelModes - src) + c);
            }
        }
    }

    uint8_t last[MO_MAX_STRIDE];
    memcpy(last, baseline, stride);
    uint8_t deltas[MO_BLOCK_BYTES]; /* [byte position][element], blockElements rounded to 16 */
    size_t maxBlock = mo_maxBlockElements(stride);
    size_t pos = 1;
    size_t failAt = 0;

    for (size_t done = 0; done < count;) {
        size_t n = count - done < maxBlock ? count - done : maxBlock;
        size_t groups = (n + MO_GROUP - 1) / MO_GROUP;
        size_t rounded = groups * MO_GROUP;
        const uint8_t* control = NULL;
        if (version == 1) {
            if (limit - pos < channels) return mo_refuse(errorOffset, pos);
            control = src + pos;
            pos += channels;
        }
        for (size_t k = 0; k < stride; ++k) {
            uint8_t* d = out != NULL ? deltas + k * rounded : NULL;
            const uint8_t* widths = moWidthsV0;
            if (version == 1) {
                unsigned cm = (control[k / 4] >> (2 * (k % 4))) & 3u;
                if (cm == 2) { /* all deltas 0, nothing stored */
                    if (d != NULL) memset(d, 0, rounded);
                    continue;
                }
                if (cm == 3) { /* literal: the block's n delta bytes as they are, no header */
                    if (limit - pos < n) return mo_refuse(errorOffset, pos);
                    if (d != NULL) memcpy(d, src + pos, n);
                    pos += n;
                    continue;
                }
                widths = moWidthsV1[cm];
            }
            if (!mo_decodeDataBlock(src, &pos, limit, groups, widths, d, &failAt)) {
                return mo_refuse(errorOffset, failAt);
            }
        }
        if (out != NULL) {
            for (size_t c = 0; c < channels; ++c) {
                unsigned m = version == 1 ? channelModes[c] : 0u;
                const uint8_t* d0 = deltas + (4 * c) * rounded;
                uint8_t* l = last + 4 * c;
                if ((m & 15u) == 0) {
                    for (unsigned b = 0; b < 4; ++b) {
                        const uint8_t* d = d0 + b * rounded;
                        uint8_t* o = out + done * stride + 4 * c + b;
                        uint8_t v = l[b];
                        for (size_t i = 0; i < n; ++i) {
                            v = (uint8_t)(v + mo_unzigzag8(d[i]));
                            o[i * stride] = v;
                        }
                        l[b] = v;
                    }
                } else if ((m & 15u) == 1) {
                    for (size_t i = 0; i < n; ++i) {
                        uint8_t* o = out + (done + i) * stride + 4 * c;
                        for (unsigned h = 0; h < 2; ++h) {
                            uint32_t delta = (uint32_t)d0[(2 * h) * rounded + i] |
                                             ((uint32_t)d0[(2 * h + 1) * rounded + i] << 8);
                            uint32_t v = (mo_get16(l + 2 * h) + mo_unzigzag16(delta)) & 0xffffu;
                            mo_put16(l + 2 * h, v);
                            mo_put16(o + 2 * h, v);
                        }
                    }
                } else {
                    unsigned r = m >> 4;
                    for (size_t i = 0; i < n; ++i) {
                        uint8_t* o = out + (done + i) * stride + 4 * c;
                        uint32_t delta = (uint32_t)d0[i] | ((uint32_t)d0[rounded + i] << 8) |
                                         ((uint32_t)d0[2 * rounded + i] << 16) | ((uint32_t)d0[3 * rounded + i] << 24);
                        /* the encoder stores rotate(v ^ previous, r); undo the rotation */
                        uint32_t v = mo_get32(l) ^ mo_rotl32(delta, (32u - r) & 31u);
                        mo_put32(l, v);
                        mo_put32(o, v);
                    }
                }
            }
        }
        done += n;
    }
    if (pos != limit) return mo_refuse(errorOffset, pos);
    return mani_success;
}

/* -- Varints (both index codecs) ---------------------------------------------- */

/* Reads an unsigned LEB128 of at most 5 bytes at *pos below limit; bits past
 * the 32nd are dropped. Returns 0 with *failAt on a short or 6-byte one. */
static int mo_readVarint(const uint8_t* src, size_t* pos, size_t limit, uint32_t* value, size_t* failAt) {
    uint32_t v = 0;
    size_t p = *pos;
    for (unsigned i = 0; i < 5; ++i) {
        if (p >= limit) {
            *failAt = p;
            return 0;
        }
        uint32_t b = src[p++];
        v |= (b & 0x7fu) << (7 * i);
        if ((b & 0x80u) == 0) {
            *value = v;
            *pos = p;
            return 1;
        }
    }
    *failAt = p - 1;
    return 0;
}

static inline void mo_putIndex(uint8_t* out, size_t i, size_t stride, uint32_t v) {
    if (stride == 2) {
        mo_put16(out + 2 * i, v & 0xffffu);
    } else {
        mo_put32(out + 4 * i, v);
    }
}

/* -- Mode 1: triangles ---------------------------------------------------------- */

typedef struct mo_TriState {
    uint32_t edgeA[16], edgeB[16];
    uint32_t vertex[16];
    unsigned edgeHead, edgeCount; /* next slot to write; entries written, at most 16 */
    unsigned vertexHead, vertexCount;
    uint32_t next, last;
} mo_TriState;

static inline void mo_pushEdge(mo_TriState* s, uint32_t a, uint32_t b) {
    s->edgeA[s->edgeHead] = a;
    s->edgeB[s->edgeHead] = b;
    s->edgeHead = (s->edgeHead + 1) & 15u;
    if (s->edgeCount < 16) s->edgeCount++;
}

static inline void mo_pushVertex(mo_TriState* s, uint32_t v) {
    s->vertex[s->vertexHead] = v;
    s->vertexHead = (s->vertexHead + 1) & 15u;
    if (s->vertexCount < 16) s->vertexCount++;
}

/* Entry i of the vertex FIFO (0: the latest), when written. */
static inline int mo_vertexAt(const mo_TriState* s, unsigned i, uint32_t* v) {
    if (i >= s->vertexCount) return 0;
    *v = s->vertex[(s->vertexHead + 15u - i) & 15u];
    return 1;
}

/* decodeIndex: a zigzag delta from `last`, which it updates. */
static inline uint32_t mo_deltaFromLast(mo_TriState* s, uint32_t v) {
    uint32_t delta = (v & 1u) ? ~(v >> 1) : (v >> 1);
    s->last += delta;
    return s->last;
}

static maniResult mo_decodeTriangles(uint8_t* out, size_t count, size_t stride, const uint8_t* src, size_t size,
                                     size_t* errorOffset) {
    size_t triangles = count / 3;
    if (size < 1) return mo_refuse(errorOffset, 0);
    if (src[0] != 0xe1) return mo_refuse(errorOffset, 0);
    if (size - 1 < 16 || size - 1 - 16 < triangles) return mo_refuse(errorOffset, size);
    size_t limit = size - 16;
    const uint8_t* codeaux = src + limit;
    if (codeaux[14] != 0) return mo_refuse(errorOffset, limit + 14);
    if (codeaux[15] != 0) return mo_refuse(errorOffset, limit + 15);
    for (unsigned i = 0; i < 14; ++i) {
        if ((codeaux[i] & 15u) == 15u || (codeaux[i] >> 4) == 15u) return mo_refuse(errorOffset, limit + i);
    }

    mo_TriState s;
    memset(&s, 0, sizeof s);
    size_t data = 1 + triangles;
    size_t failAt = 0;
    for (size_t t = 0; t < triangles; ++t) {
        size_t codeAt = 1 + t;
        unsigned code = src[codeAt];
        unsigned hi = code >> 4, lo = code & 15u;
        uint32_t a, b, c;
        if (hi < 15u) {
            if (hi >= s.edgeCount) return mo_refuse(errorOffset, codeAt);
            unsigned e = (s.edgeHead + 15u - hi) & 15u;
            a = s.edgeA[e];
            b = s.edgeB[e];
            int pushC = 1;
            if (lo == 0) {
                c = s.next++;
            } else if (lo < 13u) {
                if (!mo_vertexAt(&s, lo, &c)) return mo_refuse(errorOffset, codeAt);
                pushC = 0;
            } else if (lo == 13u) {
                c = --s.last;
            } else if (lo == 14u) {
                c = ++s.last;
            } else {
                uint32_t v;
                if (!mo_readVarint(src, &data, limit, &v, &failAt)) return mo_refuse(errorOffset, failAt);
                c = mo_deltaFromLast(&s, v);
            }
            mo_pushEdge(&s, c, b);
            mo_pushEdge(&s, a, c);
            if (pushC) mo_pushVertex(&s, c);
        } else {
            unsigned z, w;
            if (lo < 14u) {
                unsigned aux = codeaux[lo];
                z = aux >> 4;
                w = aux & 15u;
                a = s.next++;
            } else {
                if (data >= limit) return mo_refuse(errorOffset, data);
                unsigned zw = src[data++];
                z = zw >> 4;
                w = zw & 15u;
                if (zw == 0) s.next = 0;
                if (lo == 14u) {
                    a = s.next++;
                } else {
                    uint32_t v;
                    if (!mo_readVarint(src, &data, limit, &v, &failAt)) return mo_refuse(errorOffset, failAt);
                    a = mo_deltaFromLast(&s, v);
                }
            }
            if (z == 0) {
                b = s.next++;
            } else if (z < 15u) {
                if (!mo_vertexAt(&s, z - 1, &b)) return mo_refuse(errorOffset, codeAt);
            } else {
                uint32_t v;
                if (!mo_readVarint(src, &data, limit, &v, &failAt)) return mo_refuse(errorOffset, failAt);
                b = mo_deltaFromLast(&s, v);
            }
            if (w == 0) {
                c = s.next++;
            } else if (w < 15u) {
                if (!mo_vertexAt(&s, w - 1, &c)) return mo_refuse(errorOffset, codeAt);
            } else {
                uint32_t v;
                if (!mo_readVarint(src, &data, limit, &v, &failAt)) return mo_refuse(errorOffset, failAt);
                c = mo_deltaFromLast(&s, v);
            }
            mo_pushEdge(&s, b, a);
            mo_pushEdge(&s, c, b);
            mo_pushEdge(&s, a, c);
            mo_pushVertex(&s, a);
            if (z == 0 || z == 15u) mo_pushVertex(&s, b);
            if (w == 0 || w == 15u) mo_pushVertex(&s, c);
        }
        if (out != NULL) {
            mo_putIndex(out, 3 * t + 0, stride, a);
            mo_putIndex(out, 3 * t + 1, stride, b);
            mo_putIndex(out, 3 * t + 2, stride, c);
        }
    }
    if (data != limit) return mo_refuse(errorOffset, data);
    return mani_success;
}

/* -- Mode 2: indices ---------------------------------------------------------- */

static maniResult mo_decodeIndices(uint8_t* out, size_t count, size_t stride, const uint8_t* src, size_t size,
                                   size_t* errorOffset) {
    if (size < 1) return mo_refuse(errorOffset, 0);
    if (src[0] != 0xd1) return mo_refuse(errorOffset, 0);
    if (size - 1 < 4) return mo_refuse(errorOffset, size);
    size_t limit = size - 4;
    uint32_t last[2] = {0, 0};
    size_t pos = 1;
    size_t failAt = 0;
    for (size_t i = 0; i < count; ++i) {
        uint32_t v;
        if (!mo_readVarint(src, &pos, limit, &v, &failAt)) return mo_refuse(errorOffset, failAt);
        unsigned base = v & 1u;
        uint32_t delta = (v & 2u) ? ~(v >> 2) : (v >> 2);
        last[base] += delta;
        if (out != NULL) mo_putIndex(out, i, stride, last[base]);
    }
    if (pos != limit) return mo_refuse(errorOffset, pos);
    return mani_success;
}

/* -- Filters (Appendix B) ---------------------------------------------------------- */

/* round(): to the nearest integer, halves away from zero, clamped to
 * [lo, hi]; NaN gives 0. Exact: v - trunc(v) is exact for |v| < 2^23. */
static int32_t mo_round(float v, int32_t lo, int32_t hi) {
    if (!(v == v)) return 0;
    if (v >= (float)hi) return hi;
    if (v <= (float)lo) return lo;
    int32_t t = (int32_t)v; /* in range: |v| < 2^17 */
    float f = v - (float)t;
    if (f >= 0.5f) {
        t += 1;
    } else if (f <= -0.5f) {
        t -= 1;
    }
    if (t > hi) return hi;
    if (t < lo) return lo;
    return t;
}

static inline float mo_copysign(float magnitude, float sign) {
    return mo_bitsToFloat((mo_floatToBits(magnitude) & 0x7fffffffu) | (mo_floatToBits(sign) & 0x80000000u));
}

static inline int32_t mo_s8(uint8_t b) { return b < 128 ? (int32_t)b : (int32_t)b - 256; }
static inline int32_t mo_s16(uint32_t v) { return v < 32768u ? (int32_t)v : (int32_t)v - 65536; }

static void mo_filterOctahedral(uint8_t* data, size_t count, size_t stride) {
    int wide = stride == 8;
    int32_t max = wide ? 32767 : 127;
    for (size_t i = 0; i < count; ++i) {
        uint8_t* e = data + i * stride;
        int32_t in[4];
        for (unsigned k = 0; k < 4; ++k) in[k] = wide ? mo_s16(mo_get16(e + 2 * k)) : mo_s8(e[k]);
        float one = (float)in[2];
        float x = (float)in[0] / one;
        float y = (float)in[1] / one;
        float z = 1.0f - fabsf(x) - fabsf(y);
        float t = z < 0.0f ? z : 0.0f; /* min(z, 0) */
        x -= mo_copysign(t, x);
        y -= mo_copysign(t, y);
        float len = sqrtf(x * x + y * y + z * z);
        x /= len;
        y /= len;
        z /= len;
        int32_t ox = mo_round(x * (float)max, -max - 1, max);
        int32_t oy = mo_round(y * (float)max, -max - 1, max);
        int32_t oz = mo_round(z * (float)max, -max - 1, max);
        if (wide) {
            mo_put16(e + 0, (uint32_t)ox & 0xffffu);
            mo_put16(e + 2, (uint32_t)oy & 0xffffu);
            mo_put16(e + 4, (uint32_t)oz & 0xffffu);
        } else {
            e[0] = (uint8_t)((uint32_t)ox & 0xffu);
            e[1] = (uint8_t)((uint32_t)oy & 0xffu);
            e[2] = (uint8_t)((uint32_t)oz & 0xffu);
        }
    }
}

static void mo_filterQuaternion(uint8_t* data, size_t count) {
    const float range = 1.0f / sqrtf(2.0f);
    for (size_t i = 0; i < count; ++i) {
        uint8_t* e = data + i * 8;
        uint32_t raw3 = mo_get16(e + 6);
        float one = (float)mo_s16(raw3 | 3u);
        float x = (float)mo_s16(mo_get16(e + 0)) / one * range;
        float y = (float)mo_s16(mo_get16(e + 2)) / one * range;
        float z = (float)mo_s16(mo_get16(e + 4)) / one * range;
        float ww = 1.0f - x * x - y * y - z * z;
        float w = sqrtf(ww > 0.0f ? ww : 0.0f);
        unsigned maxComponent = raw3 & 3u;
        int32_t q[4];
        q[(maxComponent + 1) & 3u] = mo_round(x * 32767.0f, -32768, 32767);
        q[(maxComponent + 2) & 3u] = mo_round(y * 32767.0f, -32768, 32767);
        q[(maxComponent + 3) & 3u] = mo_round(z * 32767.0f, -32768, 32767);
        q[maxComponent] = mo_round(w * 32767.0f, -32768, 32767);
        for (unsigned k = 0; k < 4; ++k) mo_put16(e + 2 * k, (uint32_t)q[k] & 0xffffu);
    }
}

/* 2^e as binary32, exact for every e of an int8 (2^-127 and 2^-128 are
 * subnormals). */
static float mo_pow2(int32_t e) {
    if (e >= -126) return mo_bitsToFloat((uint32_t)(e + 127) << 23);
    return mo_bitsToFloat(UINT32_C(0x00400000) >> (uint32_t)(-127 - e));
}

static void mo_filterExponential(uint8_t* data, size_t count, size_t stride) {
    size_t words = count * (stride / 4);
    for (size_t i = 0; i < words; ++i) {
        uint8_t* p = data + 4 * i;
        uint32_t v = mo_get32(p);
        int32_t e = (int32_t)(v >> 24);
        if (e >= 128) e -= 256;
        int32_t m = (int32_t)(v & 0xffffffu);
        if (m >= 0x800000) m -= 0x1000000;
        /* m is exact in binary32; one rounding, none in [-100, 100] */
        float f = (float)m * mo_pow2(e);
        mo_put32(p, mo_floatToBits(f));
    }
}

static void mo_filterColor(uint8_t* data, size_t count, size_t stride) {
    int wide = stride == 8;
    int32_t max = wide ? 65535 : 255;
    for (size_t i = 0; i < count; ++i) {
        uint8_t* e = data + i * stride;
        int32_t y, co, cg;
        uint32_t alpha;
        if (wide) {
            y = (int32_t)mo_get16(e);
            co = mo_s16(mo_get16(e + 2));
            cg = mo_s16(mo_get16(e + 4));
            alpha = mo_get16(e + 6);
        } else {
            y = e[0];
            co = mo_s8(e[1]);
            cg = mo_s8(e[2]);
            alpha = e[3];
        }
        /* as = (1 << (findMSB(alpha) + 1)) - 1: all ones up to alpha's top bit */
        uint32_t as = 0;
        while (as < alpha) as = (as << 1) | 1u;
        int32_t r = y + co - cg;
        int32_t g = y + cg;
        int32_t b = y - co - cg;
        int32_t a = (int32_t)(alpha & (as >> 1));
        a = (a << 1) | (a & 1);
        float ss = (float)max / (float)as;
        int32_t o[4];
        o[0] = mo_round((float)r * ss, 0, max);
        o[1] = mo_round((float)g * ss, 0, max);
        o[2] = mo_round((float)b * ss, 0, max);
        o[3] = mo_round((float)a * ss, 0, max);
        for (unsigned k = 0; k < 4; ++k) {
            if (wide) {
                mo_put16(e + 2 * k, (uint32_t)o[k]);
            } else {
                e[k] = (uint8_t)o[k];
            }
        }
    }
}

/* -- The entry points ------------------------------------------------------------- */

static int mo_argumentsOk(size_t count, size_t stride, maniMeshoptMode mode, maniMeshoptFilter filter,
                          maniMeshoptExtension extension) {
    if ((unsigned)extension > (unsigned)maniMeshoptKhr) return 0;
    if ((unsigned)filter > (unsigned)maniMeshoptFilterColor) return 0;
    switch (mode) {
        case maniMeshoptAttributes:
            if (stride < 4 || stride > MO_MAX_STRIDE || stride % 4 != 0) return 0;
            break;
        case maniMeshoptTriangles:
            if (count % 3 != 0) return 0;
            /* fall through */
        case maniMeshoptIndices:
            if (stride != 2 && stride != 4) return 0;
            if (filter != maniMeshoptFilterNone) return 0;
            break;
        default: return 0;
    }
    switch (filter) {
        case maniMeshoptFilterOctahedral: return stride == 4 || stride == 8;
        case maniMeshoptFilterQuaternion: return stride == 8;
        case maniMeshoptFilterExponential: return stride % 4 == 0;
        case maniMeshoptFilterColor: return extension == maniMeshoptKhr && (stride == 4 || stride == 8);
        default: return 1;
    }
}

static maniResult mo_decode(uint8_t* out, size_t count, size_t stride, const uint8_t* src, size_t size,
                            maniMeshoptMode mode, int khr, size_t* errorOffset) {
    switch (mode) {
        case maniMeshoptAttributes: return mo_decodeAttributes(out, count, stride, src, size, khr, errorOffset);
        case maniMeshoptTriangles: return mo_decodeTriangles(out, count, stride, src, size, errorOffset);
        default: return mo_decodeIndices(out, count, stride, src, size, errorOffset);
    }
}

maniResult maniMeshoptDecode(void* dst, size_t count, size_t byteStride, const uint8_t* src, size_t srcSize,
                             maniMeshoptMode mode, maniMeshoptFilter filter, maniMeshoptExtension extension,
                             size_t* errorOffset) {
    if (!mo_argumentsOk(count, byteStride, mode, filter, extension)) return mani_errorInvalid;
    if (count > SIZE_MAX / byteStride) return mani_errorInvalid;
    size_t bytes = count * byteStride;
    if ((src == NULL && srcSize > 0) || (dst == NULL && bytes > 0)) return mani_errorInvalid;
    if (bytes > 0 && srcSize > 0) {
        uintptr_t d0 = (uintptr_t)dst, s0 = (uintptr_t)src;
        if (d0 < s0 + srcSize && s0 < d0 + bytes) return mani_errorInvalid;
    }
    int khr = extension == maniMeshoptKhr;
    maniResult r = mo_decode(NULL, count, byteStride, src, srcSize, mode, khr, errorOffset);
    if (r != mani_success) return r;
    if (bytes == 0) return mani_success;
    uint8_t* out = (uint8_t*)dst;
    r = mo_decode(out, count, byteStride, src, srcSize, mode, khr, errorOffset);
    if (r != mani_success) return r; /* not reached: the checking pass took the same branches */
    switch (filter) {
        case maniMeshoptFilterOctahedral: mo_filterOctahedral(out, count, byteStride); break;
        case maniMeshoptFilterQuaternion: mo_filterQuaternion(out, count); break;
        case maniMeshoptFilterExponential: mo_filterExponential(out, count, byteStride); break;
        case maniMeshoptFilterColor: mo_filterColor(out, count, byteStride); break;
        default: break;
    }
    return mani_success;
}

static int mo_nameIndex(const char* const* names, int n, const char* name, size_t length) {
    if (name == NULL) return -1;
    for (int i = 0; i < n; ++i) {
        if (strlen(names[i]) == length && memcmp(names[i], name, length) == 0) return i;
    }
    return -1;
}

int maniMeshoptModeFromName(const char* name, size_t length) {
    static const char* const names[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
    return mo_nameIndex(names, 3, name, length);
}

int maniMeshoptFilterFromName(const char* name, size_t length) {
    static const char* const names[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", "COLOR"};
    return mo_nameIndex(names, 5, name, length);
}
