/* Compressed clips of format 11 at run time (docs/formats.md, "Compressed
 * clip (kind 4, format 11)"; compress_format11.h): maniOpenClip's checks of
 * such a file and the format's decoder (clip_decode.h).
 *
 * A sample is decoded a group of eight bones at a time. The group's walk
 * (its eight channel words, from the counts of the groups before it) writes the ready part
 * of the group's record once per call (constants, defaults, the identity
 * past the bones) and lists only its animated tracks: per quantized value
 * its base and scale (made from the segment's ranges once per segment and
 * call), its bits and its place. Each sample then reads the listed values'
 * bits (one bounds check per group and sample, never per value), the
 * kernel layer's DequantizeFlat turns them into values eight at a time, a
 * rotation's dropped component is rebuilt, and the two samples are
 * interpolated by the same kernel call as a full-precision clip's records:
 * a compressed clip samples exactly as a full-precision clip holding the
 * decoded values would. Every read after the open is bounded by the file:
 * bytes changed after the open give other values, never a read outside,
 * and every place a value is written to is made from the lane and channel
 * the walk is at, never from the file's bytes. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/compress/compress_format11.h"
#include "lib/anim/src/compress/compress_internal.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_format.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"

#define MANI_C11_WRONG(at) return mani_FileResult(mani_errorFormat, (at))

static const uint32_t maniC11Width[3] = {3, 4, 3};
static const float maniC11Identity[10] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};

/* A group's most quantized values (8 bones, 3 tracks of 3) and raw values
 * (8 bones, 3 tracks of at most 4). */
#define MANI_C11_GROUP_VALUES 72u
#define MANI_C11_GROUP_RAWS 80u

/* -- The view ------------------------------------------------------------------ */

static uint32_t mani_C11Groups(const maniClip* c) { return (c->boneCount + 7) / 8; }

static int mani_C11ViewOk(const maniClip* c) {
    return c->segmentCount == mani_C11SegmentCount(c->sampleCount) && c->boneTracks <= 3ull * c->boneCount &&
           c->floatTracks <= c->floatTrackCount &&
           mcore_SpanFits(c->channels, (uint64_t)c->boneCount + c->floatTrackCount, 4, c->size) &&
           mcore_SpanFits(c->samples, c->segmentCount, MANI_C11_SEGMENT_ENTRY, c->size) &&
           mcore_SpanFits(c->floatSamples, 0, 1, c->size) &&
           mcore_SpanFits(c->constants, c->boneConstants, 4, c->size) &&
           mcore_SpanFits(c->ranges, 3ull * c->boneTracks + c->floatTracks, 8, c->size);
}

/* -- A segment, and a group's walk in it ---------------------------------------- */

/* Where one sample's values are in its segment's block. */
typedef struct mani_C11Seg {
    uint64_t rates;     /* the segment's rate bytes */
    uint64_t segRanges; /* its segment ranges */
    uint64_t data;      /* its samples' bits */
    uint64_t sampleBit; /* the sample's first bit, from data */
    uint64_t floatBit;  /* its float tracks' first bit, from data */
    uint64_t dataBytes; /* bytes from data inside the file */
    uint32_t segment;
    uint32_t head; /* the rates and segment ranges lie in the file */
} mani_C11Seg;

static void mani_C11SegAt(const maniClip* c, uint32_t sample, mani_C11Seg* g) {
    const uint8_t* b = c->bytes;
    const uint32_t seg = mani_C11SegmentOf(sample, c->segmentCount);
    const uint64_t entry = c->samples + (uint64_t)seg * MANI_C11_SEGMENT_ENTRY; /* inside: the view's check */
    const uint64_t block = c->floatSamples + mcore_ReadU32(b + entry);
    const uint64_t bps = mcore_ReadU32(b + entry + 4);
    const uint32_t tracks = c->boneTracks + c->floatTracks, comps = 3u * c->boneTracks + c->floatTracks;
    g->segment = seg;
    g->rates = block;
    g->segRanges = block + mani_CcRangesAt(tracks);
    g->data = block + mani_CcBitsAt(tracks, comps);
    g->sampleBit = (uint64_t)(sample - mani_C11SegmentStart(seg)) * bps;
    g->floatBit = g->sampleBit + mcore_ReadU32(b + entry + 8);
    g->head = g->data <= c->size;
    g->dataBytes = g->data <= c->size ? c->size - g->data : 0;
}

/* A byte of the segment's head. */
static inline uint32_t mani_C11Head(const maniClip* c, const mani_C11Seg* g, uint64_t at) {
    return g->head ? c->bytes[at] : mani_CcU8At(c->bytes, c->size, at);
}

/* A group's animated values in one segment. */
typedef struct mani_C11Plan {
    maniSimdFloatx8 base[MANI_C11_GROUP_VALUES / 8];
    maniSimdFloatx8 scale[MANI_C11_GROUP_VALUES / 8];
    uint32_t at[MANI_C11_GROUP_VALUES];   /* bit from the group's first */
    uint32_t mask[MANI_C11_GROUP_VALUES]; /* (1 << bits) - 1 (rate 0: 0) */
    uint16_t slot[MANI_C11_GROUP_VALUES]; /* value * 8 + lane */
    uint32_t rawAt[MANI_C11_GROUP_RAWS];
    uint16_t rawSlot[MANI_C11_GROUP_RAWS];
    uint8_t rotLane[8], rotDrop[8]; /* quantized rotations: lane, dropped component */
    uint32_t count, rawCount, rotCount;
    uint32_t bits; /* the group's bits in a sample */
} mani_C11Plan;

/* Where a group's walk starts: its first animated track, constant value
 * and clip range (the counts of the groups before it, carried from group to
 * group in bone order). */
typedef struct mani_C11Counts {
    uint32_t track, constant, range;
} mani_C11Counts;

/* What a group's walk carries from channel to channel. */
typedef struct mani_C11GroupWalk {
    const uint8_t* b;
    uint64_t size, ranges, constants, rates, segRanges;
    const uint8_t* rests; /* the skeleton's rests (NULL: an additive clip's identity) */
    uint32_t boneTracks, boneConstants, head;
    uint32_t track, constant, range;
    uint32_t count, raws, rots, bits;
    float* r; /* the ready part (NULL: none) */
    float* base;
    float* scale;
} mani_C11GroupWalk;

/* One channel (ch 0 T, 1 R, 2 S; a literal, so the widths are constants
 * once inlined) of lane l (bone). */
static inline __attribute__((always_inline)) void mani_C11WalkChannel(mani_C11GroupWalk* w, mani_C11Plan* p,
                                                                       uint32_t word, uint32_t bone, uint32_t l,
                                                                       const uint32_t ch) {
    const uint32_t kind = mani_CcKind(word, ch);
    const uint32_t start = ch == 0 ? 0u : ch == 1 ? 3u : 7u, width = ch == 1 ? 4u : 3u;
    float* const r = w->r;
    if (kind == MANI_CC_KIND_CONSTANT) {
        if (r != NULL) {
            if (w->constant <= w->boneConstants && w->boneConstants - w->constant >= width) {
                const uint8_t* v = w->b + w->constants + 4ull * w->constant;
                for (uint32_t k = 0; k < width; ++k) r[8 * (start + k) + l] = mcore_ReadF32(v + 4 * k);
            } else {
                for (uint32_t k = 0; k < width; ++k) r[8 * (start + k) + l] = 0.0f;
            }
        }
        w->constant += width;
        return;
    }
    if (kind != MANI_CC_KIND_ANIMATED || w->track >= w->boneTracks) {
        if (r != NULL) {
            if (w->rests == NULL) {
                for (uint32_t k = 0; k < width; ++k) r[8 * (start + k) + l] = maniC11Identity[start + k];
            } else {
                const uint8_t* v = w->rests + 4ull * MANI_SKELETON_REST_FLOATS * bone + 4 * start;
                for (uint32_t k = 0; k < width; ++k) r[8 * (start + k) + l] = mcore_ReadF32(v + 4 * k);
            }
        }
        return;
    }
    const uint32_t t = w->track++;
    const uint32_t rb = w->head ? w->b[w->rates + t] : mani_CcU8At(w->b, w->size, w->rates + t);
    const uint32_t rate = rb & MANI_C11_RATE_MASK;
    const uint32_t drop = ch == 1 ? (rb >> MANI_C11_DROP_SHIFT) & 3u : 3u;
    const uint64_t cr = w->ranges + 8ull * w->range;
    w->range += mani_C11ClipComps(ch, (word & MANI_C11_WIDE_ROTATION) != 0);
    if (rate >= MANI_CC_RATE_RAW) {
        for (uint32_t k = 0; k < width; ++k) {
            p->rawAt[w->raws] = w->bits;
            p->rawSlot[w->raws++] = (uint16_t)(8 * (start + k) + l);
            w->bits += 32;
        }
        return;
    }
    const uint32_t rateBits = mani_CcRateBits(rate);
    const uint32_t mask = rateBits == 0 ? 0u : (uint32_t)((1ull << rateBits) - 1u);
    const float inverse = maniCcInverse[rate];
    const int inside = w->head && cr <= w->size && w->size - cr >= 32;
    uint32_t count = w->count, bits = w->bits;
    for (uint32_t j = 0; j < 3; ++j) {
        const uint32_t comp = j >= drop ? j + 1 : j;
        const uint64_t sr = w->segRanges + 6ull * t + 2 * j;
        uint32_t qmin, qext;
        float cmin, cext;
        if (inside) {
            qmin = w->b[sr];
            qext = w->b[sr + 1];
            cmin = mcore_ReadF32(w->b + cr + 8 * comp);
            cext = mcore_ReadF32(w->b + cr + 8 * comp + 4);
        } else {
            qmin = mani_CcU8At(w->b, w->size, sr);
            qext = mani_CcU8At(w->b, w->size, sr + 1);
            cmin = mani_CcF32At(w->b, w->size, cr + 8 * comp);
            cext = mani_CcF32At(w->b, w->size, cr + 8 * comp + 4);
        }
        /* mani_C11Params with the rate's inverse at hand. */
        const float lo = (float)qmin * MANI_CC_INV255, ext = (float)qext * MANI_CC_INV255;
        w->base[count] = cmin + cext * lo;
        w->scale[count] = cext * (ext * inverse);
        p->at[count] = bits;
        p->mask[count] = mask;
        p->slot[count++] = (uint16_t)(8 * (start + comp) + l);
        bits += rateBits;
    }
    w->count = count;
    w->bits = bits;
    if (ch == 1) {
        p->rotLane[w->rots] = (uint8_t)l;
        p->rotDrop[w->rots++] = (uint8_t)drop;
    }
}

/* Walks group g in segment seg: its plan, and with ready its ready part
 * (constants, defaults, the identity past the bones; every value of every
 * lane is written, by the ready part or by the decoding). The reads of
 * constants and clip ranges are checked once a channel against the view's
 * spans (a changed file: the bounded reads). */
static void mani_C11PlanGroup(const maniClip* c, const maniSkeleton* skeleton, const mani_C11Seg* seg, uint32_t g,
                              mani_C11Counts* at, mani_C11Plan* p, maniSimdTransformx8* ready) {
    mani_C11GroupWalk w;
    w.b = c->bytes;
    w.size = c->size;
    w.ranges = c->ranges;
    w.constants = c->constants;
    w.rates = seg->rates;
    w.segRanges = seg->segRanges;
    w.rests = c->additive != maniAdditiveNone ? NULL : skeleton->bytes + skeleton->rests;
    w.boneTracks = c->boneTracks;
    w.boneConstants = c->boneConstants;
    w.head = seg->head;
    w.track = at->track;
    w.constant = at->constant;
    w.range = at->range;
    w.count = w.raws = w.rots = w.bits = 0;
    w.r = ready != NULL ? (float*)(void*)ready : NULL;
    w.base = (float*)(void*)p->base;
    w.scale = (float*)(void*)p->scale;
    const uint32_t boneCount = c->boneCount;
    const uint8_t* const words = c->bytes + c->channels;
    for (uint32_t l = 0; l < 8; ++l) {
        const uint32_t bone = 8 * g + l;
        if (bone >= boneCount) {
            if (w.r != NULL)
                for (uint32_t k = 0; k < 10; ++k) w.r[8 * k + l] = maniC11Identity[k];
            continue;
        }
        const uint32_t word = mcore_ReadU32(words + 4ull * bone);
        mani_C11WalkChannel(&w, p, word, bone, l, 0);
        mani_C11WalkChannel(&w, p, word, bone, l, 1);
        mani_C11WalkChannel(&w, p, word, bone, l, 2);
    }
    /* The kernel reads whole groups of eight: the values past the list 0. */
    for (uint32_t k = w.count; k < ((w.count + 7) & ~7u); ++k) w.base[k] = w.scale[k] = 0.0f;
    at->track = w.track;
    at->constant = w.constant;
    at->range = w.range;
    p->count = w.count;
    p->rawCount = w.raws;
    p->rotCount = w.rots;
    p->bits = w.bits;
}

/* Decodes one sample of a group by its plan into out (holding the ready
 * part): groupBit is the group's first bit in the sample. */
static void mani_C11DecodeGroup(const maniClip* c, const mani_C11Seg* seg, uint64_t groupBit, const mani_C11Plan* p,
                                maniSimdTransformx8* out) {
    float* const f = (float*)(void*)out;
    const uint64_t first = seg->sampleBit + groupBit;
    /* The one check of the group's bits: an 8-byte read at its last value
     * stays in the file. */
    const int inside = seg->dataBytes >= 8 && ((first + p->bits) >> 3) <= seg->dataBytes - 8;
    const uint8_t* const data = c->bytes + seg->data;
    /* A plan kept in a cursor is caller memory: its counts and places are
     * clamped to the plan's arrays and the group's 80 values. */
    const uint32_t count = p->count < MANI_C11_GROUP_VALUES ? p->count : MANI_C11_GROUP_VALUES;
    const uint32_t groups8 = (count + 7) / 8;
    maniSimdIndexx8 q[MANI_C11_GROUP_VALUES / 8];
    maniSimdFloatx8 v[MANI_C11_GROUP_VALUES / 8];
    uint32_t* const qs = (uint32_t*)(void*)q;
    memset(q, 0, 32u * groups8);
    if (inside) {
        for (uint32_t k = 0; k < count; ++k) {
            const uint64_t at = first + (p->at[k] < p->bits ? p->at[k] : 0u);
            qs[k] = (uint32_t)(mcore_ReadU64(data + (at >> 3)) >> (at & 7u)) & p->mask[k];
        }
    }
    maniSimd_DequantizeFlat(v, q, p->base, p->scale, groups8);
    const float* const vs = (const float*)(const void*)v;
    for (uint32_t k = 0; k < count; ++k) f[p->slot[k] % 80u] = vs[k];
    const uint32_t raws = p->rawCount < MANI_C11_GROUP_RAWS ? p->rawCount : MANI_C11_GROUP_RAWS;
    for (uint32_t k = 0; k < raws; ++k) {
        const uint64_t at = first + p->rawAt[k];
        const uint32_t raw = inside && p->rawAt[k] < p->bits ? (uint32_t)(mcore_ReadU64(data + (at >> 3)) >> (at & 7u)) : 0u;
        memcpy(&f[p->rawSlot[k] % 80u], &raw, 4);
    }
    const uint32_t rots = p->rotCount < 8u ? p->rotCount : 8u;
    for (uint32_t k = 0; k < rots; ++k) {
        const uint32_t l = p->rotLane[k] & 7u, d = p->rotDrop[k] & 3u;
        float kept[3];
        for (uint32_t j = 0; j < 3; ++j) kept[j] = f[8 * (3 + (j >= d ? j + 1 : j)) + l];
        f[8 * (3 + d) + l] = mani_C11Rebuild(kept[0], kept[1], kept[2]);
    }
}

/* Sample k of every group, each into out(g, ctx). */
static void mani_C11DecodeSample(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, uint8_t* record,
                                 float* values) {
    mani_C11Seg seg;
    mani_C11SegAt(c, k, &seg);
    uint64_t bit = 0;
    mani_C11Plan plan;
    maniSimdTransformx8 group;
    mani_C11Counts at = {0, 0, 0};
    for (uint32_t g = 0; g < mani_C11Groups(c); ++g) {
        mani_C11PlanGroup(c, skeleton, &seg, g, &at, &plan, &group);
        mani_C11DecodeGroup(c, &seg, bit, &plan, &group);
        bit += plan.bits;
        if (record != NULL) memcpy(record + (uint64_t)g * MANI_CLIP_GROUP_BYTES, &group, MANI_CLIP_GROUP_BYTES);
        if (values != NULL) {
            const float* f = (const float*)(const void*)&group;
            for (uint32_t l = 0; l < 8 && 8 * g + l < c->boneCount; ++l)
                for (uint32_t v = 0; v < 10; ++v) values[10ull * (8 * g + l) + v] = f[8 * v + l];
        }
    }
}

/* A group's part of a cursor's segment state: its ready part, its plan in
 * the segment, and its first bit in a sample. */
typedef struct mani_C11Kept {
    maniSimdTransformx8 ready;
    mani_C11Plan plan;
    uint64_t bit;
} mani_C11Kept;

static size_t mani_C11StateBytes(const maniClip* c) { return sizeof(mani_C11Kept) * mani_C11Groups(c); }

static void mani_C11DecodeRecordKept(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, uint8_t* record,
                                     void* state, uint32_t* segment) {
    mani_C11Seg seg;
    mani_C11SegAt(c, k, &seg);
    mani_C11Kept* kept = (mani_C11Kept*)state;
    const uint32_t groups = mani_C11Groups(c);
    if (*segment != seg.segment) {
        uint64_t bit = 0;
        mani_C11Counts at = {0, 0, 0};
        for (uint32_t g = 0; g < groups; ++g) {
            mani_C11PlanGroup(c, skeleton, &seg, g, &at, &kept[g].plan, &kept[g].ready);
            kept[g].bit = bit;
            bit += kept[g].plan.bits;
        }
        *segment = seg.segment;
    }
    for (uint32_t g = 0; g < groups; ++g) {
        maniSimdTransformx8* out = (maniSimdTransformx8*)(void*)(record + (uint64_t)g * MANI_CLIP_GROUP_BYTES);
        *out = kept[g].ready;
        mani_C11DecodeGroup(c, &seg, kept[g].bit, &kept[g].plan, out);
    }
}

static void mani_C11DecodeRecord(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, uint8_t* record) {
    mani_C11DecodeSample(c, skeleton, k, record, NULL);
}

static void mani_C11DecodeValues(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, float* values) {
    mani_C11DecodeSample(c, skeleton, k, NULL, values);
}

/* The two samples of a spot, group by group: into ga and gb, then call
 * per group (the lerp, or the chosen bones). */
typedef struct mani_C11Pair {
    mani_C11Seg a, b;
    int same;    /* one segment: one plan */
    int oneSample;
} mani_C11Pair;

static void mani_C11PairAt(const maniClip* c, mani_ClipSpot s, mani_C11Pair* p) {
    mani_C11SegAt(c, s.i, &p->a);
    mani_C11SegAt(c, s.j, &p->b);
    p->same = p->a.segment == p->b.segment;
    p->oneSample = s.i == s.j;
}

static void mani_C11PairGroup(const maniClip* c, const maniSkeleton* skeleton, const mani_C11Pair* p, uint32_t g,
                              mani_C11Counts* at, uint64_t* bitA, uint64_t* bitB, maniSimdTransformx8* ga,
                              maniSimdTransformx8* gb) {
    mani_C11Plan pa, pb;
    mani_C11Counts atB = *at;
    mani_C11PlanGroup(c, skeleton, &p->a, g, at, &pa, ga);
    const mani_C11Plan* planB = &pa;
    if (!p->same) {
        mani_C11PlanGroup(c, skeleton, &p->b, g, &atB, &pb, NULL);
        planB = &pb;
    }
    if (p->oneSample) {
        mani_C11DecodeGroup(c, &p->a, *bitA, &pa, ga);
        *gb = *ga;
    } else {
        *gb = *ga;
        mani_C11DecodeGroup(c, &p->a, *bitA, &pa, ga);
        mani_C11DecodeGroup(c, &p->b, *bitB, planB, gb);
    }
    *bitA += pa.bits;
    *bitB += planB->bits;
}

static void mani_C11Sample(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s, maniPose* pose) {
    maniSimdTransformx8* locals = mani_PoseLocals(pose);
    mani_C11Pair pair;
    mani_C11PairAt(c, s, &pair);
    uint64_t bitA = 0, bitB = 0;
    maniSimdTransformx8 ga, gb;
    mani_C11Counts at = {0, 0, 0};
    for (uint32_t g = 0; g < pose->groupCount; ++g) {
        mani_C11PairGroup(c, skeleton, &pair, g, &at, &bitA, &bitB, &ga, &gb);
        mani_ClipLerpGroup(&ga, &gb, s.f, &locals[g]);
    }
    mani_ClipFinishLerp(c, skeleton, pose);
}

static void mani_C11SampleBones(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s,
                                const uint32_t* bones, uint32_t count, maniPose* pose) {
    if (count == 0) return;
    mani_C11Pair pair;
    mani_C11PairAt(c, s, &pair);
    uint64_t bitA = 0, bitB = 0;
    maniSimdTransformx8 ga, gb;
    uint32_t k = 0;
    mani_C11Counts at = {0, 0, 0};
    const uint32_t lastGroup = bones[count - 1] / 8;
    for (uint32_t g = 0; g <= lastGroup; ++g) {
        /* Every group up to the last asked for is walked (the bits before a
         * group are its predecessors'); only the asked-for bones are set. */
        mani_C11PairGroup(c, skeleton, &pair, g, &at, &bitA, &bitB, &ga, &gb);
        const float* fa = (const float*)(const void*)&ga;
        const float* fb = (const float*)(const void*)&gb;
        for (; k < count && bones[k] / 8 == g; ++k) {
            const uint32_t l = bones[k] % 8;
            float va[10], vb[10];
            for (uint32_t v = 0; v < 10; ++v) {
                va[v] = fa[8 * v + l];
                vb[v] = fb[8 * v + l];
            }
            mani_PoseSetLocalRaw(pose, bones[k], mani_ClipLerpValues(c, skeleton, va, vb, s.f, bones[k]));
        }
    }
}

/* A walk of one sample's float tracks, from their first bit. */
typedef struct mani_C11FloatWalk {
    mani_C11Seg seg;
    uint64_t bit;
    uint32_t track, constant, range;
} mani_C11FloatWalk;

static void mani_C11FloatStart(const maniClip* c, uint32_t sample, mani_C11FloatWalk* w) {
    mani_C11SegAt(c, sample, &w->seg);
    /* The float tracks' clip ranges follow the bone tracks': counted from
     * the channel words. */
    w->range = 0;
    for (uint32_t bone = 0; bone < c->boneCount; ++bone) {
        const uint32_t word = mcore_ReadU32(c->bytes + c->channels + 4ull * bone);
        for (uint32_t ch = 0; ch < 3; ++ch)
            if (mani_CcKind(word, ch) == MANI_CC_KIND_ANIMATED)
                w->range += mani_C11ClipComps(ch, (word & MANI_C11_WIDE_ROTATION) != 0);
    }
    w->bit = w->seg.floatBit;
    w->track = c->boneTracks;
    w->constant = c->boneConstants;
}

static float mani_C11NextFloat(const maniClip* c, mani_C11FloatWalk* w, uint32_t f) {
    const uint8_t* b = c->bytes;
    const uint64_t size = c->size;
    const uint32_t kind = mcore_ReadU32(b + c->channels + 4ull * ((uint64_t)c->boneCount + f)) & 3u;
    if (kind == MANI_CC_KIND_CONSTANT) return mani_CcF32At(b, size, c->constants + 4ull * w->constant++);
    if (kind != MANI_CC_KIND_ANIMATED || w->track >= c->boneTracks + c->floatTracks) return 0.0f;
    const uint32_t t = w->track++, j = t - c->boneTracks;
    const uint32_t rate = mani_C11Head(c, &w->seg, w->seg.rates + t) & MANI_C11_RATE_MASK;
    const uint64_t cr = c->ranges + 8ull * w->range++;
    if (rate >= MANI_CC_RATE_RAW) {
        const uint32_t bits = mani_CcReadBits(b, size, w->seg.data, w->bit, 32);
        w->bit += 32;
        float v;
        memcpy(&v, &bits, 4);
        return v;
    }
    const uint32_t rateBits = mani_CcRateBits(rate);
    const uint64_t sr = w->seg.segRanges + 2ull * (3ull * c->boneTracks + j);
    float base, scale;
    mani_C11Params(rate, mani_C11Head(c, &w->seg, sr), mani_C11Head(c, &w->seg, sr + 1), mani_CcF32At(b, size, cr),
                   mani_CcF32At(b, size, cr + 4), &base, &scale);
    const uint32_t q = mani_CcReadBits(b, size, w->seg.data, w->bit, rateBits);
    w->bit += rateBits;
    return mani_C11Value(q, base, scale);
}

static void mani_C11FloatsAt(const maniClip* c, mani_ClipSpot s, float* out) {
    mani_C11FloatWalk wa, wb;
    mani_C11FloatStart(c, s.i, &wa);
    mani_C11FloatStart(c, s.j, &wb);
    for (uint32_t f = 0; f < c->floatTrackCount; ++f) {
        const float va = mani_C11NextFloat(c, &wa, f), vb = mani_C11NextFloat(c, &wb, f);
        const uint32_t mode = mani_CcU32At(c->bytes, c->size, c->floatInfo + (uint64_t)f * MANI_CLIP_ITEM_BYTES + 8);
        out[f] = mani_ClipFloatLerp(mode, va, vb, s);
    }
}

const mani_ClipDecoder maniClipDecoderCompressed11 = {
    .viewOk = mani_C11ViewOk,
    .sample = mani_C11Sample,
    .sampleBones = mani_C11SampleBones,
    .floatsAt = mani_C11FloatsAt,
    .decodeRecord = mani_C11DecodeRecord,
    .decodeValues = mani_C11DecodeValues,
    .stateBytes = mani_C11StateBytes,
    .decodeRecordKept = mani_C11DecodeRecordKept,
};

/* -- Opening ------------------------------------------------------------------------ */

/* Whether the bits past usedBits of a block's samples and its padding to
 * `end` (bytes, from the data's start) are 0. Returns the first wrong byte
 * or 0. */
static uint64_t mani_C11ZeroTail(const uint8_t* b, uint64_t data, uint64_t usedBits, uint64_t end) {
    const uint64_t full = usedBits / 8;
    if (usedBits % 8 != 0) {
        if (b[data + full] >> (usedBits % 8)) return data + full;
    }
    for (uint64_t k = (usedBits + 7) / 8; k < end; ++k)
        if (b[data + k] != 0) return data + k;
    return 0;
}

maniFileResult mani_OpenCompressedClip11(const void* bytes, size_t size, maniClip* out) {
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindClip, mcore_formatClipCompressed2,
                                                     maniC11Sections, MANI_C11_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* Info. */
    if (sec[0].size != MANI_CC_INFO_SIZE) MANI_C11_WRONG(mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    mani_ClipInfo in;
    const uint64_t badInfo = mani_ClipReadInfo(b, info, &in);
    if (badInfo != 0) MANI_C11_WRONG(badInfo);
    const uint32_t bones = in.bones, n = in.n, floats = in.counts[0];
    const uint32_t boneTracks = mcore_ReadU32(b + info + MANI_CC_INFO_BONE_TRACKS);
    const uint32_t floatTracks = mcore_ReadU32(b + info + MANI_CC_INFO_FLOAT_TRACKS);
    const uint32_t boneConstants = mcore_ReadU32(b + info + MANI_CC_INFO_BONE_CONSTANTS);
    if (mcore_ReadU32(b + info + MANI_CC_INFO_SEGMENT) != MANI_C11_SEGMENT) MANI_C11_WRONG(info + MANI_CC_INFO_SEGMENT);

    /* The channel section's size first: the words are read below. */
    if (sec[1].size != 4ull * ((uint64_t)bones + floats)) MANI_C11_WRONG(mcore_SectionSizeField(1));

    /* Channel words: the source's channels, valid kinds, a channel the
     * source does not animate default; the counts as the info says. */
    uint32_t viewFlags = MANI_CLIP_VIEW_COMPRESSED | MANI_CLIP_VIEW_FORMAT11, animated = 0, constants = 0;
    for (uint32_t bone = 0; bone < bones; ++bone) {
        const uint64_t at = sec[1].offset + 4ull * bone;
        const uint32_t word = mcore_ReadU32(b + at);
        if ((word & ~(uint32_t)(MANI_CLIP_CHANNEL_ALL | (0x3Fu << MANI_CC_KIND_SHIFT) | MANI_C11_WIDE_ROTATION)) != 0)
            MANI_C11_WRONG(at);
        if ((word & MANI_C11_WIDE_ROTATION) && mani_CcKind(word, 1) != MANI_CC_KIND_ANIMATED) MANI_C11_WRONG(at);
        if ((word & MANI_CLIP_CHANNEL_ALL) != MANI_CLIP_CHANNEL_ALL) viewFlags |= MANI_CLIP_VIEW_PARTIAL;
        for (uint32_t ch = 0; ch < 3; ++ch) {
            const uint32_t kind = mani_CcKind(word, ch);
            if (kind > MANI_CC_KIND_ANIMATED) MANI_C11_WRONG(at);
            if (!(word & (1u << ch)) && kind != MANI_CC_KIND_DEFAULT) MANI_C11_WRONG(at);
            if (kind == MANI_CC_KIND_ANIMATED) animated++;
            if (kind == MANI_CC_KIND_CONSTANT) constants += maniC11Width[ch];
        }
    }
    if (animated != boneTracks) MANI_C11_WRONG(info + MANI_CC_INFO_BONE_TRACKS);
    if (constants != boneConstants) MANI_C11_WRONG(info + MANI_CC_INFO_BONE_CONSTANTS);
    uint32_t floatAnimated = 0;
    for (uint32_t t = 0; t < floats; ++t) {
        const uint64_t at = sec[1].offset + 4ull * ((uint64_t)bones + t);
        const uint32_t word = mcore_ReadU32(b + at);
        if (word > MANI_CC_KIND_ANIMATED) MANI_C11_WRONG(at);
        if (word == MANI_CC_KIND_ANIMATED) floatAnimated++;
        if (word == MANI_CC_KIND_CONSTANT) constants++;
    }
    if (floatAnimated != floatTracks) MANI_C11_WRONG(info + MANI_CC_INFO_FLOAT_TRACKS);
    const uint32_t tracks = boneTracks + floatTracks;
    const uint32_t comps = 3u * boneTracks + floatTracks;
    const uint32_t segments = mani_C11SegmentCount(n);

    uint64_t clipComps = floatTracks;
    for (uint32_t bone = 0; bone < bones; ++bone) {
        const uint32_t word = mcore_ReadU32(b + sec[1].offset + 4ull * bone);
        for (uint32_t ch = 0; ch < 3; ++ch)
            if (mani_CcKind(word, ch) == MANI_CC_KIND_ANIMATED)
                clipComps += mani_C11ClipComps(ch, (word & MANI_C11_WIDE_ROTATION) != 0);
    }

    /* Section sizes (the packed blocks' below). */
    uint64_t shared[7];
    mani_ClipSharedSizes(&in, shared);
    const uint64_t sizes[MANI_C11_SECTION_COUNT] = {
        MANI_CC_INFO_SIZE, sec[1].size, 4ull * constants, 8ull * clipComps,
        (uint64_t)segments * MANI_C11_SEGMENT_ENTRY, 0, shared[0], shared[1], shared[2], shared[3], shared[4],
        shared[5], shared[6],
    };
    for (uint32_t k = 2; k < MANI_C11_SECTION_COUNT; ++k)
        if (k != 5 && sec[k].size != sizes[k]) MANI_C11_WRONG(mcore_SectionSizeField(k));

    /* Constants finite, constant rotations unit. */
    for (uint64_t k = 0; k < constants; ++k)
        if (!isfinite(mcore_ReadF32(b + sec[2].offset + 4 * k))) MANI_C11_WRONG(sec[2].offset + 4 * k);
    uint64_t ci = 0;
    for (uint32_t bone = 0; bone < bones; ++bone) {
        const uint32_t word = mcore_ReadU32(b + sec[1].offset + 4ull * bone);
        for (uint32_t ch = 0; ch < 3; ++ch) {
            if (mani_CcKind(word, ch) != MANI_CC_KIND_CONSTANT) continue;
            const uint8_t* q = b + sec[2].offset + 4 * ci;
            if (ch == 1 && !mani_ClipUnit(mcore_ReadF32(q), mcore_ReadF32(q + 4), mcore_ReadF32(q + 8),
                                          mcore_ReadF32(q + 12)))
                MANI_C11_WRONG(sec[2].offset + 4 * ci);
            ci += maniC11Width[ch];
        }
    }

    /* Clip ranges: min and extent finite, extent >= 0, min + extent finite. */
    for (uint64_t k = 0; k < clipComps; ++k) {
        const uint64_t at = sec[3].offset + 8 * k;
        const float lo = mcore_ReadF32(b + at), ext = mcore_ReadF32(b + at + 4);
        if (!isfinite(lo)) MANI_C11_WRONG(at);
        if (!(ext >= 0.0f) || !isfinite(ext) || !isfinite(lo + ext)) MANI_C11_WRONG(at + 4);
    }

    /* Segments: each block where the one before ended, rate bytes valid (a
     * dropped component only on a quantized rotation), segment ranges
     * inside the clip's, bits per sample the rates' sum, raw values finite
     * (raw rotations unit), unused bits and padding 0. */
    const uint64_t packed = sec[5].offset, packedSize = sec[5].size;
    const uint64_t head = mani_CcBitsAt(tracks, comps);
    uint64_t running = 0;
    for (uint32_t seg = 0; seg < segments; ++seg) {
        const uint64_t entry = sec[4].offset + (uint64_t)seg * MANI_C11_SEGMENT_ENTRY;
        if (mcore_ReadU32(b + entry) != running) MANI_C11_WRONG(entry);
        if (running + head > packedSize) MANI_C11_WRONG(mcore_SectionSizeField(5));
        const uint64_t block = packed + running;
        uint64_t bps = 0, boneBits = 0;
        uint32_t t = 0;
        for (uint32_t bone = 0; bone < bones; ++bone) {
            const uint32_t word = mcore_ReadU32(b + sec[1].offset + 4ull * bone);
            for (uint32_t ch = 0; ch < 3; ++ch) {
                if (mani_CcKind(word, ch) != MANI_CC_KIND_ANIMATED) continue;
                const uint32_t rb = b[block + t], rate = rb & MANI_C11_RATE_MASK, drop = rb >> MANI_C11_DROP_SHIFT;
                /* The dropped component: 0 but on a quantized rotation, w (3)
                 * on one that is not wide. */
                if ((rb >> 6) != 0) MANI_C11_WRONG(block + t);
                if (ch != 1 || rate == MANI_CC_RATE_RAW) {
                    if (drop != 0) MANI_C11_WRONG(block + t);
                } else if (!(word & MANI_C11_WIDE_ROTATION) && drop != 3) {
                    MANI_C11_WRONG(block + t);
                }
                bps += mani_CcTrackBits(rate, 3, ch == 1);
                t++;
            }
        }
        boneBits = bps;
        for (; t < tracks; ++t) {
            if (b[block + t] > MANI_CC_RATE_RAW) MANI_C11_WRONG(block + t);
            bps += mani_CcTrackBits(b[block + t], 1, 0);
        }
        for (uint64_t k = tracks; k < mani_CcRangesAt(tracks); ++k)
            if (b[block + k] != 0) MANI_C11_WRONG(block + k);
        for (uint64_t k = 0; k < comps; ++k) {
            const uint64_t at = block + mani_CcRangesAt(tracks) + 2 * k;
            if ((uint32_t)b[at] + b[at + 1] > 255u) MANI_C11_WRONG(at + 1);
        }
        for (uint64_t k = mani_CcRangesAt(tracks) + 2ull * comps; k < head; ++k)
            if (b[block + k] != 0) MANI_C11_WRONG(block + k);
        if (mcore_ReadU32(b + entry + 4) != bps) MANI_C11_WRONG(entry + 4);
        if (mcore_ReadU32(b + entry + 8) != boneBits) MANI_C11_WRONG(entry + 8);
        if (mcore_ReadU32(b + entry + 12) != 0) MANI_C11_WRONG(entry + 12);
        const uint32_t count = mani_C11SegmentEnd(seg, segments, n) - mani_C11SegmentStart(seg);
        const uint64_t blockSize = mani_CcBlockSize(tracks, comps, bps, count);
        if (blockSize > packedSize - running) MANI_C11_WRONG(mcore_SectionSizeField(5));
        const uint64_t data = block + head;
        const uint64_t wrongRaw =
            mani_CcCheckRawValues(b, size, sec[1].offset, bones, block, tracks, data, count, MANI_C11_RATE_MASK);
        if (wrongRaw != 0) MANI_C11_WRONG(wrongRaw);
        const uint64_t wrongTail = mani_C11ZeroTail(b, data, bps * count, blockSize - head);
        if (wrongTail != 0) MANI_C11_WRONG(wrongTail);
        running += blockSize;
    }
    if (packedSize != running + MANI_CC_PACKED_TAIL) MANI_C11_WRONG(mcore_SectionSizeField(5));
    for (uint64_t k = 0; k < MANI_CC_PACKED_TAIL; ++k)
        if (b[packed + running + k] != 0) MANI_C11_WRONG(packed + running + k);

    const mani_ClipShared at = {info, sec[6].offset, sec[7].offset, sec[8].offset, sec[9].offset,
                                sec[10].offset, sec[11].offset, sec[12].offset};
    const uint64_t wrong = mani_ClipCheckShared(b, &in, &at);
    if (wrong != 0) MANI_C11_WRONG(wrong);

    mani_ClipFillView(&in, &at, b, size, c.identity, out);
    out->flags = viewFlags;
    out->channels = sec[1].offset;
    out->samples = sec[4].offset;
    out->floatSamples = packed;
    out->constants = sec[2].offset;
    out->ranges = sec[3].offset;
    out->boneTracks = boneTracks;
    out->floatTracks = floatTracks;
    out->boneConstants = boneConstants;
    out->segmentCount = segments;
    return mani_FileResult(mani_success, 0);
}
