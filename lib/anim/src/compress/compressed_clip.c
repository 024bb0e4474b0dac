/* Compressed clips at run time: maniOpenClip's checks of a compressed file
 * (docs/formats.md, "Compressed clip") and the decoding sampling uses. A
 * sample's values are decoded a group of eight bones at a time (a plan of
 * the group's lanes per segment, then the kernel layer's Dequantize) and
 * interpolated by the same kernel calls as a full-precision clip's records,
 * so a compressed clip samples exactly as a full-precision clip holding the
 * decoded values would; the bone-by-bone walk decodes single bones and
 * float tracks, and any group that bytes changed after the open would take
 * outside the parts the open checked. Every read after the open is bounded
 * by the file: bytes changed after the open give other values, never a
 * read outside. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/compress/compress_internal.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"

#define MANI_CC_WRONG(at) return mani_FileResult(mani_errorFormat, (at))

static const uint32_t maniCcStart[3] = {0, 3, 7};
static const uint32_t maniCcWidth[3] = {3, 4, 3};

/* -- The view ------------------------------------------------------------------ */

static uint32_t mani_CcTrackCount(const maniClip* c) { return c->boneTracks + c->floatTracks; }
static uint32_t mani_CcCompCount(const maniClip* c) { return 3u * c->boneTracks + c->floatTracks; }

int mani_CcViewOk(const maniClip* c) {
    const uint64_t segments = ((uint64_t)c->sampleCount + MANI_CC_SEGMENT - 1) / MANI_CC_SEGMENT;
    return c->segmentCount == segments && c->boneTracks <= 3ull * c->boneCount &&
           c->floatTracks <= c->floatTrackCount &&
           mcore_SpanFits(c->channels, (uint64_t)c->boneCount + c->floatTrackCount, 4, c->size) &&
           mcore_SpanFits(c->samples, segments, MANI_CC_SEGMENT_ENTRY, c->size) &&
           mcore_SpanFits(c->floatSamples, 0, 1, c->size) &&
           mcore_SpanFits(c->constants, c->boneConstants, 4, c->size) &&
           mcore_SpanFits(c->ranges, mani_CcCompCount(c), 8, c->size);
}

/* -- Decoding ------------------------------------------------------------------- */

void mani_CcWalkStart(const maniClip* c, uint32_t sample, mani_CcWalk* w) {
    const uint8_t* b = c->bytes;
    const uint64_t size = c->size;
    const uint32_t seg = sample / MANI_CC_SEGMENT;
    const uint64_t entry = c->samples + (uint64_t)seg * MANI_CC_SEGMENT_ENTRY;
    const uint64_t block = c->floatSamples + mani_CcU32At(b, size, entry);
    const uint64_t bps = mani_CcU32At(b, size, entry + 4);
    memset(w, 0, sizeof *w);
    w->rates = block;
    w->segRanges = block + mani_CcRangesAt(mani_CcTrackCount(c));
    w->data = block + mani_CcBitsAt(mani_CcTrackCount(c), mani_CcCompCount(c));
    w->bit = (uint64_t)(sample - seg * MANI_CC_SEGMENT) * bps;
    w->floatBit = w->bit + mani_CcU32At(b, size, entry + 8);
    /* The one check of the block: its head (rates, segment ranges) lies
     * before data, so a fast walk's group decoding reads them unchecked; it
     * checks its bits once a group against limit (rates changed after the
     * open may walk more bits than the entry's bits per sample). */
    w->fast = w->data <= size && size - w->data >= 8;
    w->limit = w->fast ? size - w->data - 8 : 0;
}

/* Decodes the walk's next animated track: comps components at component
 * index ci (a rotation: x y z and w rebuilt, or four raw). */
static void mani_CcDecodeTrack(const maniClip* c, mani_CcWalk* w, uint32_t comps, uint32_t ci, int rotation,
                               float* out) {
    const uint8_t* b = c->bytes;
    const uint64_t size = c->size;
    uint32_t rate = mani_CcU8At(b, size, w->rates + w->track);
    w->track++;
    if (rate > MANI_CC_RATE_RAW) rate = MANI_CC_RATE_RAW;
    if (rate == MANI_CC_RATE_RAW) {
        const uint32_t n = rotation ? 4u : comps;
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t bits = mani_CcReadBits(b, size, w->data, w->bit, 32);
            memcpy(&out[k], &bits, 4);
            w->bit += 32;
        }
        return;
    }
    const uint32_t bits = mani_CcRateBits(rate);
    for (uint32_t k = 0; k < comps; ++k) {
        const uint32_t q = mani_CcReadBits(b, size, w->data, w->bit, bits);
        w->bit += bits;
        const uint64_t sr = w->segRanges + 2ull * (ci + k);
        const uint64_t cr = c->ranges + 8ull * (ci + k);
        out[k] = mani_CcDequantize(q, rate, mani_CcU8At(b, size, sr), mani_CcU8At(b, size, sr + 1),
                                   mani_CcF32At(b, size, cr), mani_CcF32At(b, size, cr + 4));
    }
    if (rotation) out[3] = mani_CcRebuildW(out[0], out[1], out[2]);
}

void mani_CcWalkBone(const maniClip* c, const maniSkeleton* skeleton, mani_CcWalk* w, float v[10]) {
    const uint8_t* b = c->bytes;
    const uint64_t size = c->size;
    const uint32_t bone = w->bone++;
    const uint32_t word = mani_CcU32At(b, size, c->channels + 4ull * bone);
    int defaults = 0;
    for (uint32_t ch = 0; ch < 3; ++ch) {
        const uint32_t kind = mani_CcKind(word, ch);
        float* out = v + maniCcStart[ch];
        if (kind == MANI_CC_KIND_CONSTANT) {
            for (uint32_t k = 0; k < maniCcWidth[ch]; ++k)
                out[k] = mani_CcF32At(b, size, c->constants + 4ull * w->constant++);
        } else if (kind == MANI_CC_KIND_ANIMATED) {
            /* A bone track's components: 3 per track before it (the bytes'
             * kinds may have changed after the open: reads stay bounded). */
            mani_CcDecodeTrack(c, w, 3, 3u * (w->track < c->boneTracks ? w->track : c->boneTracks), ch == 1, out);
        } else {
            defaults |= 1 << ch;
        }
    }
    if (defaults == 0) return;
    maniTransform base;
    if (c->additive != maniAdditiveNone || bone >= c->boneCount)
        base = mani_IdentityTransform();
    else
        base = mani_SkeletonRestRaw(skeleton, bone);
    const float d[10] = {base.translation.x, base.translation.y, base.translation.z, base.rotation.x,
                         base.rotation.y,    base.rotation.z,    base.rotation.w,    base.scale.x,
                         base.scale.y,       base.scale.z};
    for (uint32_t ch = 0; ch < 3; ++ch)
        if (defaults & (1 << ch))
            for (uint32_t k = 0; k < maniCcWidth[ch]; ++k) v[maniCcStart[ch] + k] = d[maniCcStart[ch] + k];
}

/* The walk's next float track (walk positioned at the float tracks). */
static float mani_CcNextFloat(const maniClip* c, mani_CcWalk* w, uint32_t track) {
    const uint32_t word = mani_CcU32At(c->bytes, c->size, c->channels + 4ull * ((uint64_t)c->boneCount + track));
    const uint32_t kind = word & 3u;
    if (kind == MANI_CC_KIND_CONSTANT) return mani_CcF32At(c->bytes, c->size, c->constants + 4ull * w->constant++);
    if (kind != MANI_CC_KIND_ANIMATED) return 0.0f;
    const uint32_t t = w->track >= c->boneTracks ? w->track - c->boneTracks : 0;
    float v = 0.0f;
    mani_CcDecodeTrack(c, w, 1, 3u * c->boneTracks + t, 0, &v);
    return v;
}

static void mani_CcWalkFloats(const maniClip* c, uint32_t sample, mani_CcWalk* w) {
    mani_CcWalkStart(c, sample, w);
    w->bit = w->floatBit;
    w->track = c->boneTracks;
    w->constant = c->boneConstants;
}

void mani_CcDecodeFloats(const maniClip* c, uint32_t k, float* out) {
    mani_CcWalk w;
    mani_CcWalkFloats(c, k, &w);
    for (uint32_t t = 0; t < c->floatTrackCount; ++t) out[t] = mani_CcNextFloat(c, &w, t);
}

/* Puts a bone's ten values (or the identity) in lane l of a group. */
static void mani_CcPutLane(maniSimdTransformx8* g, uint32_t l, const float v[10]) {
    float* f = (float*)(void*)g;
    for (int k = 0; k < 10; ++k) f[8 * k + l] = v[k];
}

static const float maniCcIdentity[10] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};

static void mani_CcWalkGroup(const maniClip* c, const maniSkeleton* skeleton, mani_CcWalk* w, uint32_t g,
                             maniSimdTransformx8* out) {
    for (uint32_t l = 0; l < 8; ++l) {
        const uint32_t bone = 8 * g + l;
        float v[10];
        if (bone < c->boneCount)
            mani_CcWalkBone(c, skeleton, w, v);
        else
            memcpy(v, maniCcIdentity, sizeof v);
        mani_CcPutLane(out, l, v);
    }
}

/* -- Decoding a group on the kernel layer ------------------------------------------ */

/* What a walk position gives a group of eight bones in every sample of its
 * segment: the kernel's parameters, the given values (constants, defaults,
 * identity lanes past the bones), and where each quantized component's and
 * raw value's bits lie from the group's first bit. Made once per group and
 * segment, used for each sample (maniClip_Sample's two share it). */
typedef struct mani_CcPlan {
    maniSimdDequantx8 p;
    maniSimdTransformx8 given;
    uint32_t at[72];      /* quantized components: bit from the group's first */
    uint32_t mask[72];    /* (1 << bits) - 1 */
    uint16_t slot[72];    /* component * 8 + lane in the q groups */
    uint32_t rawAt[80];   /* raw values: bit from the group's first */
    uint16_t rawSlot[80]; /* value * 8 + lane in the transform group */
    uint32_t count, rawCount;
    uint32_t bits;      /* the group's bits in a sample */
    uint32_t tracks;    /* the walk's advance: animated tracks, */
    uint32_t constants; /* constant values, */
    uint32_t bones;     /* and bones */
} mani_CcPlan;

static void mani_CcSetLane(maniSimdTransformx8* g, uint32_t value, uint32_t l, float v) {
    ((float*)(void*)g)[8 * value + l] = v;
}

/* Makes the plan of the group at a fast walk's position; 0 when the walk
 * would leave the parts the open checked (bytes changed after it: more
 * animated tracks or constants than the info counts), which the bounded
 * per-bone walk then decodes. */
static int mani_CcPlanGroup(const maniClip* c, const maniSkeleton* skeleton, const mani_CcWalk* w, mani_CcPlan* plan) {
    /* The view's and walk's fields in locals: the stores below are of
     * types that may alias them. */
    const uint8_t* const b = c->bytes;
    const uint8_t* const channels = b + c->channels;
    const uint8_t* const constants = b + c->constants;
    const uint8_t* const rates = b + w->rates;
    const uint8_t* const segRanges = b + w->segRanges;
    const uint8_t* const ranges = b + c->ranges;
    const uint32_t boneCount = c->boneCount, boneTracks = c->boneTracks, boneConstants = c->boneConstants;
    const uint32_t first = w->bone;
    maniSimdDequantx8* p = &plan->p;
    uint32_t track = w->track, constant = w->constant, bits = 0, count = 0, raws = 0;
    /* Lanes outside a quantized channel: parameters 0 (their results are
     * not selected), given values as below. */
    memset(&plan->given, 0, sizeof plan->given);
    for (uint32_t l = 0; l < 8; ++l) {
        const uint32_t bone = first + l;
        const uint32_t word = bone < boneCount ? mcore_ReadU32(channels + 4ull * bone) : 0u;
        int defaults = 0;
        for (uint32_t ch = 0; ch < 3; ++ch) {
            const uint32_t kind = mani_CcKind(word, ch), start = maniCcStart[ch], width = maniCcWidth[ch];
            const uint32_t comp = 3 * ch;
            uint32_t rate = 0;
            if (kind == MANI_CC_KIND_ANIMATED) {
                if (track >= boneTracks) return 0;
                rate = rates[track];
            }
            if (kind != MANI_CC_KIND_ANIMATED || rate >= MANI_CC_RATE_RAW) {
                p->quantized[ch].m[l] = 0;
                for (uint32_t k = 0; k < 3; ++k) {
                    p->inverse[comp + k].v[l] = 0.0f;
                    p->segMin[comp + k].i[l] = 0;
                    p->segExt[comp + k].i[l] = 0;
                    p->clipMin[comp + k].v[l] = 0.0f;
                    p->clipExt[comp + k].v[l] = 0.0f;
                }
            }
            if (kind == MANI_CC_KIND_CONSTANT) {
                if (constant > boneConstants || boneConstants - constant < width) return 0;
                for (uint32_t k = 0; k < width; ++k)
                    mani_CcSetLane(&plan->given, start + k, l, mcore_ReadF32(constants + 4ull * constant++));
            } else if (kind != MANI_CC_KIND_ANIMATED) {
                defaults |= 1 << ch;
            } else if (rate >= MANI_CC_RATE_RAW) {
                track++;
                for (uint32_t k = 0; k < width; ++k) {
                    plan->rawAt[raws] = bits;
                    plan->rawSlot[raws++] = (uint16_t)(8 * (start + k) + l);
                    bits += 32;
                }
            } else {
                const uint32_t rb = mani_CcRateBits(rate);
                const float inverse = maniCcInverse[rate];
                const uint8_t* sr = segRanges + 6ull * track;
                const uint8_t* cr = ranges + 24ull * track;
                track++;
                p->quantized[ch].m[l] = 0xFFFFFFFFu;
                for (uint32_t k = 0; k < 3; ++k) {
                    p->inverse[comp + k].v[l] = inverse;
                    p->segMin[comp + k].i[l] = sr[2 * k];
                    p->segExt[comp + k].i[l] = sr[2 * k + 1];
                    p->clipMin[comp + k].v[l] = mcore_ReadF32(cr + 8 * k);
                    p->clipExt[comp + k].v[l] = mcore_ReadF32(cr + 8 * k + 4);
                }
                if (rb != 0) {
                    const uint32_t mask = (uint32_t)((1ull << rb) - 1u);
                    for (uint32_t k = 0; k < 3; ++k) {
                        plan->at[count] = bits;
                        plan->mask[count] = mask;
                        plan->slot[count++] = (uint16_t)(8 * (comp + k) + l);
                        bits += rb;
                    }
                }
            }
        }
        if (bone >= boneCount) { /* past the bones: the identity */
            for (uint32_t k = 0; k < 10; ++k) mani_CcSetLane(&plan->given, k, l, maniCcIdentity[k]);
            continue;
        }
        if (defaults == 0) continue;
        const maniTransform base =
            c->additive != maniAdditiveNone ? mani_IdentityTransform() : mani_SkeletonRestRaw(skeleton, bone);
        const float d[10] = {base.translation.x, base.translation.y, base.translation.z, base.rotation.x,
                             base.rotation.y,    base.rotation.z,    base.rotation.w,    base.scale.x,
                             base.scale.y,       base.scale.z};
        for (uint32_t ch = 0; ch < 3; ++ch)
            if (defaults & (1 << ch))
                for (uint32_t k = 0; k < maniCcWidth[ch]; ++k)
                    mani_CcSetLane(&plan->given, maniCcStart[ch] + k, l, d[maniCcStart[ch] + k]);
    }
    plan->count = count;
    plan->rawCount = raws;
    plan->bits = bits;
    plan->tracks = track - w->track;
    plan->constants = constant - w->constant;
    plan->bones = boneCount - first < 8 ? boneCount - first : 8;
    return 1;
}

/* Decodes the walk's next group into out by its plan (NULL: none) and
 * advances the walk; a group whose bits would not lie in the file (rates
 * changed after the open) goes through the bounded per-bone walk. */
static void mani_CcDecodeGroup(const maniClip* c, const maniSkeleton* skeleton, const mani_CcPlan* plan, mani_CcWalk* w,
                               uint32_t g, maniSimdTransformx8* out) {
    if (plan == NULL || ((w->bit + plan->bits) >> 3) > w->limit) {
        mani_CcWalkGroup(c, skeleton, w, g, out);
        return;
    }
    const uint8_t* data = c->bytes + w->data;
    const uint64_t bit = w->bit;
    const uint32_t count = plan->count, raws = plan->rawCount;
    maniSimdIndexx8 q[9];
    memset(q, 0, sizeof q);
    uint32_t* qs = (uint32_t*)(void*)q;
    for (uint32_t k = 0; k < count; ++k) {
        const uint64_t at = bit + plan->at[k];
        qs[plan->slot[k]] = (uint32_t)(mcore_ReadU64(data + (at >> 3)) >> (at & 7u)) & plan->mask[k];
    }
    *out = plan->given;
    float* values = (float*)(void*)out;
    for (uint32_t k = 0; k < raws; ++k) {
        const uint64_t at = bit + plan->rawAt[k];
        const uint32_t raw = (uint32_t)(mcore_ReadU64(data + (at >> 3)) >> (at & 7u));
        memcpy(&values[plan->rawSlot[k]], &raw, 4);
    }
    maniSimd_Dequantize(out, &plan->p, q, 1);
    w->bit += plan->bits;
    w->track += plan->tracks;
    w->constant += plan->constants;
    w->bone += plan->bones;
}

/* The plan of the walk's next group in *plan, or NULL. */
static const mani_CcPlan* mani_CcPlanFor(const maniClip* c, const maniSkeleton* skeleton, const mani_CcWalk* w,
                                         mani_CcPlan* plan) {
    return w->fast && mani_CcPlanGroup(c, skeleton, w, plan) ? plan : NULL;
}

/* Whether two walks are at the same place of the same block (the same plan). */
static int mani_CcSamePlace(const mani_CcWalk* a, const mani_CcWalk* b) {
    return a->rates == b->rates && a->track == b->track && a->constant == b->constant && a->bone == b->bone &&
           a->fast == b->fast;
}

void mani_CcDecodeValues(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, float* values) {
    mani_CcWalk w;
    mani_CcWalkStart(c, k, &w);
    const uint32_t groups = (c->boneCount + 7) / 8;
    mani_CcPlan plan;
    for (uint32_t g = 0; g < groups; ++g) {
        maniSimdTransformx8 group;
        mani_CcDecodeGroup(c, skeleton, mani_CcPlanFor(c, skeleton, &w, &plan), &w, g, &group);
        const float* f = (const float*)(const void*)&group;
        for (uint32_t l = 0; l < 8 && 8 * g + l < c->boneCount; ++l)
            for (uint32_t v = 0; v < 10; ++v) values[10ull * (8 * g + l) + v] = f[8 * v + l];
    }
}

void mani_CcDecodeRecord(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, uint8_t* record) {
    mani_CcWalk w;
    mani_CcWalkStart(c, k, &w);
    const uint32_t groups = (c->boneCount + 7) / 8;
    mani_CcPlan plan;
    for (uint32_t g = 0; g < groups; ++g) {
        maniSimdTransformx8 group;
        mani_CcDecodeGroup(c, skeleton, mani_CcPlanFor(c, skeleton, &w, &plan), &w, g, &group);
        memcpy(record + (uint64_t)g * MANI_CLIP_GROUP_BYTES, &group, MANI_CLIP_GROUP_BYTES);
    }
}

/* -- Sampling --------------------------------------------------------------------- */

void mani_CcSample(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s, maniPose* pose) {
    maniSimdTransformx8* locals = mani_PoseLocals(pose);
    mani_CcWalk wa, wb;
    mani_CcWalkStart(c, s.i, &wa);
    mani_CcWalkStart(c, s.j, &wb);
    maniSimdTransformx8 ga, gb;
    mani_CcPlan pa, pb;
    for (uint32_t g = 0; g < pose->groupCount; ++g) {
        /* The two samples share a segment but at its end: one plan. */
        const mani_CcPlan* planA = mani_CcPlanFor(c, skeleton, &wa, &pa);
        const mani_CcPlan* planB = mani_CcSamePlace(&wa, &wb) ? planA : mani_CcPlanFor(c, skeleton, &wb, &pb);
        mani_CcDecodeGroup(c, skeleton, planA, &wa, g, &ga);
        mani_CcDecodeGroup(c, skeleton, planB, &wb, g, &gb);
        mani_ClipLerpGroup(&ga, &gb, s.f, &locals[g]);
    }
    mani_ClipFinishLerp(c, skeleton, pose);
}

void mani_CcSampleBones(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s, const uint32_t* bones,
                        uint32_t count, maniPose* pose) {
    mani_CcWalk wa, wb;
    mani_CcWalkStart(c, s.i, &wa);
    mani_CcWalkStart(c, s.j, &wb);
    float va[10], vb[10];
    for (uint32_t k = 0; k < count; ++k) {
        while (wa.bone <= bones[k]) {
            mani_CcWalkBone(c, skeleton, &wa, va);
            mani_CcWalkBone(c, skeleton, &wb, vb);
        }
        mani_PoseSetLocalRaw(pose, bones[k], mani_ClipLerpValues(c, skeleton, va, vb, s.f, bones[k]));
    }
}

void mani_CcFloatsAt(const maniClip* c, mani_ClipSpot s, float* out) {
    mani_CcWalk wa, wb;
    mani_CcWalkFloats(c, s.i, &wa);
    mani_CcWalkFloats(c, s.j, &wb);
    for (uint32_t t = 0; t < c->floatTrackCount; ++t) {
        const float va = mani_CcNextFloat(c, &wa, t), vb = mani_CcNextFloat(c, &wb, t);
        const uint32_t mode = mani_CcU32At(c->bytes, c->size, c->floatInfo + (uint64_t)t * MANI_CLIP_ITEM_BYTES + 8);
        out[t] = mani_ClipFloatLerp(mode, va, vb, s);
    }
}

/* -- Opening ------------------------------------------------------------------------ */

/* Whether the bits [from, to) of a block's samples and its padding to `end`
 * (bytes, from the data's start) are 0. Returns the first wrong byte or 0. */
static uint64_t mani_CcZeroTail(const uint8_t* b, uint64_t data, uint64_t usedBits, uint64_t end) {
    const uint64_t full = usedBits / 8;
    if (usedBits % 8 != 0) {
        if (b[data + full] >> (usedBits % 8)) return data + full;
    }
    for (uint64_t k = (usedBits + 7) / 8; k < end; ++k)
        if (b[data + k] != 0) return data + k;
    return 0;
}

uint64_t mani_CcCheckRawValues(const uint8_t* b, uint64_t size, uint64_t channels, uint32_t bones, uint64_t block,
                               uint32_t tracks, uint64_t data, uint32_t count, uint32_t rateMask) {
    uint64_t bit = 0;
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t tt = 0;
        for (uint32_t bone = 0; bone < bones; ++bone) {
            const uint32_t word = mcore_ReadU32(b + channels + 4ull * bone);
            for (uint32_t ch = 0; ch < 3; ++ch) {
                if (mani_CcKind(word, ch) != MANI_CC_KIND_ANIMATED) continue;
                const uint32_t rate = b[block + tt++] & rateMask;
                if (rate == MANI_CC_RATE_RAW) {
                    float v[4];
                    const uint32_t nv = ch == 1 ? 4u : 3u;
                    for (uint32_t j = 0; j < nv; ++j) {
                        const uint32_t bits = mani_CcReadBits(b, size, data, bit + 32ull * j, 32);
                        memcpy(&v[j], &bits, 4);
                        if (!isfinite(v[j])) return data + (bit + 32ull * j) / 8;
                    }
                    if (ch == 1 && !mani_ClipUnit(v[0], v[1], v[2], v[3])) return data + bit / 8;
                }
                bit += mani_CcTrackBits(rate, 3, ch == 1);
            }
        }
        /* Float tracks' rate bytes are whole rates in both formats. */
        for (; tt < tracks; ++tt) {
            const uint32_t rate = b[block + tt];
            if (rate == MANI_CC_RATE_RAW) {
                const uint32_t bits = mani_CcReadBits(b, size, data, bit, 32);
                float v;
                memcpy(&v, &bits, 4);
                if (!isfinite(v)) return data + bit / 8;
            }
            bit += mani_CcTrackBits(rate, 1, 0);
        }
    }
    return 0;
}

maniFileResult mani_OpenCompressedClip(const void* bytes, size_t size, maniClip* out) {
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindClip, mcore_formatClipCompressed1,
                                                     maniCcSections, MANI_CC_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* Info. */
    if (sec[0].size != MANI_CC_INFO_SIZE) MANI_CC_WRONG(mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    mani_ClipInfo in;
    const uint64_t badInfo = mani_ClipReadInfo(b, info, &in);
    if (badInfo != 0) MANI_CC_WRONG(badInfo);
    const uint32_t bones = in.bones, n = in.n, floats = in.counts[0];
    const uint32_t boneTracks = mcore_ReadU32(b + info + MANI_CC_INFO_BONE_TRACKS);
    const uint32_t floatTracks = mcore_ReadU32(b + info + MANI_CC_INFO_FLOAT_TRACKS);
    const uint32_t boneConstants = mcore_ReadU32(b + info + MANI_CC_INFO_BONE_CONSTANTS);
    if (mcore_ReadU32(b + info + MANI_CC_INFO_SEGMENT) != MANI_CC_SEGMENT) MANI_CC_WRONG(info + MANI_CC_INFO_SEGMENT);

    /* Channel words: the source's channels, valid kinds, a channel the
     * source does not animate default; the counts as the info says. */
    uint32_t viewFlags = MANI_CLIP_VIEW_COMPRESSED, animated = 0, constants = 0;
    for (uint32_t bone = 0; bone < bones; ++bone) {
        const uint64_t at = sec[1].offset + 4ull * bone;
        const uint32_t word = mcore_ReadU32(b + at);
        if ((word & ~(uint32_t)(MANI_CLIP_CHANNEL_ALL | (0x3Fu << MANI_CC_KIND_SHIFT))) != 0) MANI_CC_WRONG(at);
        if ((word & MANI_CLIP_CHANNEL_ALL) != MANI_CLIP_CHANNEL_ALL) viewFlags |= MANI_CLIP_VIEW_PARTIAL;
        for (uint32_t ch = 0; ch < 3; ++ch) {
            const uint32_t kind = mani_CcKind(word, ch);
            if (kind > MANI_CC_KIND_ANIMATED) MANI_CC_WRONG(at);
            if (!(word & (1u << ch)) && kind != MANI_CC_KIND_DEFAULT) MANI_CC_WRONG(at);
            if (kind == MANI_CC_KIND_ANIMATED) animated++;
            if (kind == MANI_CC_KIND_CONSTANT) constants += maniCcWidth[ch];
        }
    }
    if (animated != boneTracks) MANI_CC_WRONG(info + MANI_CC_INFO_BONE_TRACKS);
    if (constants != boneConstants) MANI_CC_WRONG(info + MANI_CC_INFO_BONE_CONSTANTS);
    uint32_t floatAnimated = 0;
    for (uint32_t t = 0; t < floats; ++t) {
        const uint64_t at = sec[1].offset + 4ull * ((uint64_t)bones + t);
        const uint32_t word = mcore_ReadU32(b + at);
        if (word > MANI_CC_KIND_ANIMATED) MANI_CC_WRONG(at);
        if (word == MANI_CC_KIND_ANIMATED) floatAnimated++;
        if (word == MANI_CC_KIND_CONSTANT) constants++;
    }
    if (floatAnimated != floatTracks) MANI_CC_WRONG(info + MANI_CC_INFO_FLOAT_TRACKS);
    const uint32_t tracks = boneTracks + floatTracks;
    const uint32_t comps = 3u * boneTracks + floatTracks;
    const uint64_t segments = ((uint64_t)n + MANI_CC_SEGMENT - 1) / MANI_CC_SEGMENT;

    /* Section sizes (the packed blocks' below). */
    uint64_t shared[7];
    mani_ClipSharedSizes(&in, shared);
    const uint64_t sizes[MANI_CC_SECTION_COUNT] = {
        MANI_CC_INFO_SIZE, 4ull * ((uint64_t)bones + floats), 4ull * constants, 8ull * comps,
        segments * MANI_CC_SEGMENT_ENTRY, 0, shared[0], shared[1], shared[2], shared[3], shared[4], shared[5],
        shared[6],
    };
    for (uint32_t k = 1; k < MANI_CC_SECTION_COUNT; ++k)
        if (k != 5 && sec[k].size != sizes[k]) MANI_CC_WRONG(mcore_SectionSizeField(k));

    /* Constants finite, constant rotations unit. */
    for (uint64_t k = 0; k < constants; ++k)
        if (!isfinite(mcore_ReadF32(b + sec[2].offset + 4 * k))) MANI_CC_WRONG(sec[2].offset + 4 * k);
    uint64_t ci = 0;
    for (uint32_t bone = 0; bone < bones; ++bone) {
        const uint32_t word = mcore_ReadU32(b + sec[1].offset + 4ull * bone);
        for (uint32_t ch = 0; ch < 3; ++ch) {
            if (mani_CcKind(word, ch) != MANI_CC_KIND_CONSTANT) continue;
            const uint8_t* q = b + sec[2].offset + 4 * ci;
            if (ch == 1 && !mani_ClipUnit(mcore_ReadF32(q), mcore_ReadF32(q + 4), mcore_ReadF32(q + 8),
                                          mcore_ReadF32(q + 12)))
                MANI_CC_WRONG(sec[2].offset + 4 * ci);
            ci += maniCcWidth[ch];
        }
    }

    /* Clip ranges: min and extent finite, extent >= 0, min + extent finite. */
    for (uint64_t k = 0; k < comps; ++k) {
        const uint64_t at = sec[3].offset + 8 * k;
        const float lo = mcore_ReadF32(b + at), ext = mcore_ReadF32(b + at + 4);
        if (!isfinite(lo)) MANI_CC_WRONG(at);
        if (!(ext >= 0.0f) || !isfinite(ext) || !isfinite(lo + ext)) MANI_CC_WRONG(at + 4);
    }

    /* Segments: each block where the one before ended, rates valid, segment
     * ranges inside the clip's, bits per sample the rates' sum, raw values
     * finite (raw rotations unit), unused bits and padding 0. */
    const uint64_t packed = sec[5].offset, packedSize = sec[5].size;
    uint64_t running = 0;
    for (uint64_t seg = 0; seg < segments; ++seg) {
        const uint64_t entry = sec[4].offset + seg * MANI_CC_SEGMENT_ENTRY;
        if (mcore_ReadU32(b + entry) != running) MANI_CC_WRONG(entry);
        const uint64_t head = mani_CcBitsAt(tracks, comps);
        if (running + head > packedSize) MANI_CC_WRONG(mcore_SectionSizeField(5));
        const uint64_t block = packed + running;
        uint64_t bps = 0, boneBits = 0;
        for (uint32_t t = 0; t < tracks; ++t) {
            const uint32_t rate = b[block + t];
            if (rate > MANI_CC_RATE_RAW) MANI_CC_WRONG(block + t);
        }
        for (uint64_t k = tracks; k < mani_CcRangesAt(tracks); ++k)
            if (b[block + k] != 0) MANI_CC_WRONG(block + k);
        for (uint64_t k = 0; k < comps; ++k) {
            const uint64_t at = block + mani_CcRangesAt(tracks) + 2 * k;
            if ((uint32_t)b[at] + b[at + 1] > 255u) MANI_CC_WRONG(at + 1);
        }
        for (uint64_t k = mani_CcRangesAt(tracks) + 2ull * comps; k < head; ++k)
            if (b[block + k] != 0) MANI_CC_WRONG(block + k);
        /* Bits per track, in track order. */
        uint32_t t = 0;
        for (uint32_t bone = 0; bone < bones; ++bone) {
            const uint32_t word = mcore_ReadU32(b + sec[1].offset + 4ull * bone);
            for (uint32_t ch = 0; ch < 3; ++ch)
                if (mani_CcKind(word, ch) == MANI_CC_KIND_ANIMATED)
                    bps += mani_CcTrackBits(b[block + t++], 3, ch == 1);
        }
        boneBits = bps;
        for (; t < tracks; ++t) bps += mani_CcTrackBits(b[block + t], 1, 0);
        if (mcore_ReadU32(b + entry + 4) != bps) MANI_CC_WRONG(entry + 4);
        if (mcore_ReadU32(b + entry + 8) != boneBits) MANI_CC_WRONG(entry + 8);
        if (mcore_ReadU32(b + entry + 12) != 0) MANI_CC_WRONG(entry + 12);
        const uint32_t count = (uint32_t)(seg + 1 < segments ? MANI_CC_SEGMENT : n - seg * MANI_CC_SEGMENT);
        const uint64_t blockSize = mani_CcBlockSize(tracks, comps, bps, count);
        if (blockSize > packedSize - running) MANI_CC_WRONG(mcore_SectionSizeField(5));
        const uint64_t data = block + head;
        const uint64_t wrongRaw =
            mani_CcCheckRawValues(b, size, sec[1].offset, bones, block, tracks, data, count, 0xFFu);
        if (wrongRaw != 0) MANI_CC_WRONG(wrongRaw);
        const uint64_t wrongTail = mani_CcZeroTail(b, data, bps * count, blockSize - head);
        if (wrongTail != 0) MANI_CC_WRONG(wrongTail);
        running += blockSize;
    }
    if (packedSize != running + MANI_CC_PACKED_TAIL) MANI_CC_WRONG(mcore_SectionSizeField(5));
    for (uint64_t k = 0; k < MANI_CC_PACKED_TAIL; ++k)
        if (b[packed + running + k] != 0) MANI_CC_WRONG(packed + running + k);

    const mani_ClipShared at = {info, sec[6].offset, sec[7].offset, sec[8].offset, sec[9].offset,
                                sec[10].offset, sec[11].offset, sec[12].offset};
    const uint64_t wrong = mani_ClipCheckShared(b, &in, &at);
    if (wrong != 0) MANI_CC_WRONG(wrong);

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
    out->segmentCount = (uint32_t)segments;
    return mani_FileResult(mani_success, 0);
}

const mani_ClipDecoder maniClipDecoderCompressed6 = {
    .viewOk = mani_CcViewOk,
    .sample = mani_CcSample,
    .sampleBones = mani_CcSampleBones,
    .floatsAt = mani_CcFloatsAt,
    .decodeRecord = mani_CcDecodeRecord,
    .decodeValues = mani_CcDecodeValues,
    .stateBytes = NULL,
    .decodeRecordKept = NULL,
};
