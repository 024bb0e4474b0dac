/* Learned motion matching models: the open, the accessors and the
 * evaluation (Project, Step, Decompress). Every network runs in binary32,
 * each sum from the bias over the inputs in order, one rounding per
 * operation (no contraction: the build keeps -ffp-contract=off). */
#include "maul/anim/learned.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/learned/learned_format.h"
#include "lib/core/utf8.h"
#include "maul/anim/skeleton.h"

static int mani_LearnedViewOk(const maniLearnedModel* m) { return m != NULL && m->opened == MANI_LEARNED_OPENED; }

static maniFileResult mani_LearnedBad(uint64_t offset) { return mani_FileResult(mani_errorFormat, offset); }

/* Checks n floats at off: finite, and above 0 when positive is set.
 * Returns the offset of the first refused or UINT64_MAX. */
static uint64_t mani_LearnedCheckFloats(const uint8_t* b, uint64_t off, uint64_t n, int positive) {
    for (uint64_t i = 0; i < n; ++i) {
        const float v = mcore_ReadF32(b + off + 4u * i);
        if (!isfinite(v) || (positive && !(v > 0))) return off + 4u * i;
    }
    return UINT64_MAX;
}

/* The network's input and output counts by its role. */
static void mani_LearnedRole(const maniLearnedModel* v, uint32_t net, uint64_t* in, uint64_t* out) {
    const uint64_t state = (uint64_t)v->featureCount + v->latentCount;
    if (net == 0) {
        *in = state;
        *out = mani_LearnedDecompressorOutputs(v->boneCount, v->scaledBoneCount, v->floatTrackCount, v->eventCount);
    } else if (net == 1) {
        *in = state;
        *out = state;
    } else {
        *in = v->featureCount;
        *out = state;
    }
}

maniFileResult maniOpenLearnedModel(const void* bytes, size_t size, maniLearnedModel* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindLearnedModel, mcore_formatLearnedModelLatest,
                                                     maniLearnedSections, MANI_LEARNED_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;
    if (sec[0].size != MANI_LEARNED_INFO_SIZE) return mani_LearnedBad(mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    maniLearnedModel v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skeletonIdentity = mcore_ReadU64(b + info);
    v.databaseIdentity = mcore_ReadU64(b + info + 8);
    v.boneCount = mcore_ReadU32(b + info + 16);
    v.featureCount = mcore_ReadU32(b + info + 20);
    v.latentCount = mcore_ReadU32(b + info + 24);
    v.channelCount = mcore_ReadU32(b + info + 28);
    v.projectorCount = mcore_ReadU32(b + info + 32);
    v.floatTrackCount = mcore_ReadU32(b + info + 36);
    v.eventCount = mcore_ReadU32(b + info + 40);
    v.scaledBoneCount = mcore_ReadU32(b + info + 44);
    v.weightFormat = mcore_ReadU32(b + info + 48);
    v.upAxis = mcore_ReadU32(b + info + 52);
    v.forwardAxis = mcore_ReadU32(b + info + 56);
    v.stepRate = mcore_ReadF32(b + info + 60);
    const uint32_t namesSize = mcore_ReadU32(b + info + 64);
    v.layerCount = mcore_ReadU32(b + info + 68);
    if (v.skeletonIdentity == 0) return mani_LearnedBad(info);
    if (v.databaseIdentity == 0) return mani_LearnedBad(info + 8);
    if (v.boneCount == 0 || v.boneCount > MANI_MAX_BONES) return mani_LearnedBad(info + 16);
    if (v.featureCount == 0 || v.featureCount > 256u) return mani_LearnedBad(info + 20);
    if (v.latentCount == 0 || v.latentCount > 256u) return mani_LearnedBad(info + 24);
    if (v.channelCount == 0 || v.channelCount > v.featureCount) return mani_LearnedBad(info + 28);
    if (v.projectorCount == 0 || v.projectorCount > 16u) return mani_LearnedBad(info + 32);
    if (v.floatTrackCount > 64u) return mani_LearnedBad(info + 36);
    if (v.eventCount > 64u) return mani_LearnedBad(info + 40);
    if (v.scaledBoneCount > v.boneCount) return mani_LearnedBad(info + 44);
    if (v.weightFormat > 1) return mani_LearnedBad(info + 48);
    if (v.upAxis > 2) return mani_LearnedBad(info + 52);
    if (v.forwardAxis > 2 || v.forwardAxis == v.upAxis) return mani_LearnedBad(info + 56);
    if (!(v.stepRate > 0) || !(v.stepRate <= 240.0f)) return mani_LearnedBad(info + 60);
    if (namesSize != sec[6].size) return mani_LearnedBad(info + 64);
    const uint32_t networkCount = 2u + v.projectorCount;
    if (v.layerCount < networkCount || v.layerCount > 8u * networkCount) return mani_LearnedBad(info + 68);
    for (uint64_t i = 72; i < MANI_LEARNED_INFO_SIZE; ++i)
        if (b[info + i] != 0) return mani_LearnedBad(info + i);
    const uint64_t names = (uint64_t)v.floatTrackCount + v.eventCount;
    const uint64_t sizes[9] = {MANI_LEARNED_INFO_SIZE,
                               (uint64_t)MANI_MATCH_CHANNEL_SIZE * v.channelCount,
                               8ull * v.featureCount,
                               12ull * v.boneCount,
                               4ull * v.scaledBoneCount,
                               8ull * names,
                               namesSize,
                               (uint64_t)MANI_LEARNED_NETWORK_SIZE * networkCount,
                               (uint64_t)MANI_LEARNED_LAYER_SIZE * v.layerCount};
    for (uint32_t i = 1; i < 9; ++i)
        if (sec[i].size != sizes[i]) return mani_LearnedBad(mcore_SectionSizeField(i));
    v.channels = sec[1].offset;
    v.normalization = sec[2].offset;
    v.boneScales = sec[3].offset;
    v.scaledBones = sec[4].offset;
    v.nameIndex = sec[5].offset;
    v.names = sec[6].offset;
    v.namesSize = namesSize;
    v.networks = sec[7].offset;
    v.layers = sec[8].offset;
    v.parameters = sec[9].offset;

    /* Channels: the database's, as its open checks them. */
    uint32_t features = 0;
    for (uint32_t i = 0; i < v.channelCount; ++i) {
        const uint64_t at = v.channels + (uint64_t)MANI_MATCH_CHANNEL_SIZE * i;
        const uint32_t kind = mcore_ReadU32(b + at), width = mani_MatchKindWidth(kind);
        if (width == 0) return mani_LearnedBad(at);
        const uint32_t bone = mcore_ReadU32(b + at + 4);
        const int boneKind = kind == maniMatchChannelBonePosition || kind == maniMatchChannelBoneVelocity;
        if (boneKind ? bone >= v.boneCount : bone != 0xFFFFFFFFu) return mani_LearnedBad(at + 4);
        const uint32_t times = mcore_ReadU32(b + at + 8);
        if (times == 0 || times > MANI_MAX_MATCH_TIMES) return mani_LearnedBad(at + 8);
        if (mcore_ReadU32(b + at + 12) != features) return mani_LearnedBad(at + 12);
        if (mcore_ReadU32(b + at + 16) != width * times || width * times > v.featureCount - features)
            return mani_LearnedBad(at + 16);
        features += width * times;
        const float weight = mcore_ReadF32(b + at + 20);
        if (!isfinite(weight) || !(weight > 0)) return mani_LearnedBad(at + 20);
        for (uint64_t k = 24; k < 32; ++k)
            if (b[at + k] != 0) return mani_LearnedBad(at + k);
        for (uint32_t k = 0; k < MANI_MAX_MATCH_TIMES; ++k) {
            const uint64_t t = at + 32 + 4ull * k;
            const float time = mcore_ReadF32(b + t);
            if (k < times ? !(fabsf(time) <= 10.0f) : mcore_ReadU32(b + t) != 0) return mani_LearnedBad(t);
        }
    }
    if (features != v.featureCount) return mani_LearnedBad(info + 20);
    /* Normalization: finite offsets, scales above 0. */
    uint64_t badAt = mani_LearnedCheckFloats(b, v.normalization, v.featureCount, 0);
    if (badAt == UINT64_MAX) badAt = mani_LearnedCheckFloats(b, v.normalization + 4ull * v.featureCount, v.featureCount, 1);
    if (badAt != UINT64_MAX) return mani_LearnedBad(badAt);
    badAt = mani_LearnedCheckFloats(b, v.boneScales, 3ull * v.boneCount, 0);
    if (badAt != UINT64_MAX) return mani_LearnedBad(badAt);
    for (uint32_t i = 0; i < v.scaledBoneCount; ++i) {
        const uint32_t bone = mcore_ReadU32(b + v.scaledBones + 4ull * i);
        if (bone >= v.boneCount || (i > 0 && bone <= mcore_ReadU32(b + v.scaledBones + 4ull * (i - 1))))
            return mani_LearnedBad(v.scaledBones + 4ull * i);
    }
    /* Names: in order, UTF-8, distinct within their list. */
    uint64_t nameEnd = 0;
    for (uint64_t i = 0; i < names; ++i) {
        const uint64_t at = v.nameIndex + 8u * i;
        const uint32_t off = mcore_ReadU32(b + at), len = mcore_ReadU32(b + at + 4);
        if (off != nameEnd) return mani_LearnedBad(at);
        if (len == 0 || len > MANI_MAX_NAME_BYTES || len > namesSize - off) return mani_LearnedBad(at + 4);
        const uint8_t* name = b + v.names + off;
        const size_t good = mcore_Utf8Check(name, len);
        if (good != len) return mani_LearnedBad(v.names + off + good);
        const uint64_t first = i < v.floatTrackCount ? 0 : v.floatTrackCount;
        for (uint64_t k = first; k < i; ++k) {
            const uint32_t ko = mcore_ReadU32(b + v.nameIndex + 8u * k), kl = mcore_ReadU32(b + v.nameIndex + 8u * k + 4);
            if (kl == len && memcmp(b + v.names + ko, name, len) == 0) return mani_LearnedBad(at);
        }
        nameEnd = (uint64_t)off + len;
    }
    if (nameEnd != namesSize) return mani_LearnedBad(info + 64);
    /* Networks: layers that chain and fit their roles, then their values. */
    uint64_t layer = 0, params = 0;
    uint32_t maxWidth = 0;
    for (uint32_t n = 0; n < networkCount; ++n) {
        const uint64_t at = v.networks + (uint64_t)MANI_LEARNED_NETWORK_SIZE * n;
        const uint32_t layers = mcore_ReadU32(b + at);
        if (layers == 0 || layers > 8u || layers > v.layerCount - layer) return mani_LearnedBad(at);
        if (n < 2 && (mcore_ReadU32(b + at + 4) != 0 || mcore_ReadU32(b + at + 8) != 0))
            return mani_LearnedBad(mcore_ReadU32(b + at + 4) != 0 ? at + 4 : at + 8);
        if (mcore_ReadU32(b + at + 12) != 0) return mani_LearnedBad(at + 12);
        uint64_t in, outCount;
        mani_LearnedRole(&v, n, &in, &outCount);
        v.networkParameters[n] = v.parameters + params;
        params += 8u * in;
        uint64_t previous = in, weights = 0;
        if (in > maxWidth) maxWidth = (uint32_t)in;
        for (uint32_t k = 0; k < layers; ++k, ++layer) {
            const uint64_t la = v.layers + MANI_LEARNED_LAYER_SIZE * layer;
            const uint32_t li = mcore_ReadU32(b + la), lo = mcore_ReadU32(b + la + 4);
            if (li != previous) return mani_LearnedBad(la);
            if (lo == 0 || lo > 65536u || (k + 1 == layers && lo != outCount)) return mani_LearnedBad(la + 4);
            weights += (uint64_t)li * lo;
            if (weights > 16777216u) return mani_LearnedBad(la + 4);
            if (lo > maxWidth) maxWidth = lo;
            params += mani_LearnedLayerBytes(li, lo, v.weightFormat);
            previous = lo;
        }
        params += 8u * outCount;
    }
    if (layer != v.layerCount) return mani_LearnedBad(info + 68);
    if (sec[9].size != params) return mani_LearnedBad(mcore_SectionSizeField(9));
    v.maxWidth = maxWidth;
    /* Every parameter value. */
    layer = 0;
    for (uint32_t n = 0; n < networkCount; ++n) {
        const uint32_t layers = mcore_ReadU32(b + v.networks + (uint64_t)MANI_LEARNED_NETWORK_SIZE * n);
        uint64_t in, outCount;
        mani_LearnedRole(&v, n, &in, &outCount);
        uint64_t p = v.networkParameters[n];
        badAt = mani_LearnedCheckFloats(b, p, in, 0);
        if (badAt == UINT64_MAX) badAt = mani_LearnedCheckFloats(b, p + 4u * in, in, 1);
        if (badAt != UINT64_MAX) return mani_LearnedBad(badAt);
        p += 8u * in;
        for (uint32_t k = 0; k < layers; ++k, ++layer) {
            const uint64_t la = v.layers + MANI_LEARNED_LAYER_SIZE * layer;
            const uint64_t li = mcore_ReadU32(b + la), lo = mcore_ReadU32(b + la + 4);
            badAt = mani_LearnedCheckFloats(b, p, lo, 0);
            if (badAt != UINT64_MAX) return mani_LearnedBad(badAt);
            p += 4u * lo;
            if (v.weightFormat == 1) {
                badAt = mani_LearnedCheckFloats(b, p, li, 0);
                if (badAt != UINT64_MAX) return mani_LearnedBad(badAt);
                for (uint64_t j = 0; j < li; ++j)
                    if (!(mcore_ReadF32(b + p + 4u * j) >= 0)) return mani_LearnedBad(p + 4u * j);
                p += 4u * li;
                const uint64_t count = li * lo;
                for (uint64_t j = 0; j < count; ++j) {
                    const uint16_t q = (uint16_t)(b[p + 2u * j] | (b[p + 2u * j + 1] << 8));
                    if (q == 0x8000u) return mani_LearnedBad(p + 2u * j); /* -32768: past the range a build writes */
                }
                const uint64_t padded = (2u * count + 3u) & ~(uint64_t)3u;
                for (uint64_t j = 2u * count; j < padded; ++j)
                    if (b[p + j] != 0) return mani_LearnedBad(p + j);
                p += padded;
            } else {
                badAt = mani_LearnedCheckFloats(b, p, li * lo, 0);
                if (badAt != UINT64_MAX) return mani_LearnedBad(badAt);
                p += 4u * li * lo;
            }
        }
        badAt = mani_LearnedCheckFloats(b, p, 2u * outCount, 0);
        if (badAt != UINT64_MAX) return mani_LearnedBad(badAt);
    }
    v.opened = MANI_LEARNED_OPENED;
    *out = v;
    return mani_FileResult(mani_success, 0);
}

uint64_t maniLearnedModel_GetIdentity(const maniLearnedModel* m) { return mani_LearnedViewOk(m) ? m->identity : 0; }
uint64_t maniLearnedModel_GetSkeletonIdentity(const maniLearnedModel* m) {
    return mani_LearnedViewOk(m) ? m->skeletonIdentity : 0;
}
uint64_t maniLearnedModel_GetDatabaseIdentity(const maniLearnedModel* m) {
    return mani_LearnedViewOk(m) ? m->databaseIdentity : 0;
}

maniResult maniLearnedModel_GetChannel(const maniLearnedModel* m, uint32_t channel, maniMatchChannel* out) {
    if (!mani_LearnedViewOk(m) || out == NULL || channel >= m->channelCount) return mani_errorInvalid;
    const uint8_t* at = m->bytes + m->channels + (uint64_t)MANI_MATCH_CHANNEL_SIZE * channel;
    maniMatchChannel ch;
    memset(&ch, 0, sizeof ch);
    ch.kind = mcore_ReadU32(at);
    ch.bone = mcore_ReadU32(at + 4);
    ch.timeCount = mcore_ReadU32(at + 8);
    ch.firstFeature = mcore_ReadU32(at + 12);
    ch.featureCount = mcore_ReadU32(at + 16);
    ch.weight = mcore_ReadF32(at + 20);
    for (uint32_t k = 0; k < MANI_MAX_MATCH_TIMES; ++k) ch.times[k] = mcore_ReadF32(at + 32 + 4u * k);
    *out = ch;
    return mani_success;
}

maniResult maniLearnedModel_GetNormalization(const maniLearnedModel* m, float* offsetsOut, float* scalesOut,
                                             uint32_t capacity, uint32_t* countOut) {
    if (!mani_LearnedViewOk(m) || (offsetsOut == NULL && scalesOut == NULL && capacity > 0)) return mani_errorInvalid;
    const uint32_t f = m->featureCount;
    if (countOut != NULL) *countOut = f;
    if (offsetsOut == NULL && scalesOut == NULL) return mani_success;
    if (capacity < f) return mani_errorCapacity;
    for (uint32_t i = 0; i < f; ++i) {
        if (offsetsOut != NULL) offsetsOut[i] = mcore_ReadF32(m->bytes + m->normalization + 4u * i);
        if (scalesOut != NULL) scalesOut[i] = mcore_ReadF32(m->bytes + m->normalization + 4u * ((uint64_t)f + i));
    }
    return mani_success;
}

maniResult maniLearnedModel_GetProjector(const maniLearnedModel* m, uint32_t projector, uint32_t* requiredOut,
                                         uint32_t* excludedOut) {
    if (!mani_LearnedViewOk(m) || projector >= m->projectorCount) return mani_errorInvalid;
    const uint8_t* at = m->bytes + m->networks + (uint64_t)MANI_LEARNED_NETWORK_SIZE * (2u + projector);
    if (requiredOut != NULL) *requiredOut = mcore_ReadU32(at + 4);
    if (excludedOut != NULL) *excludedOut = mcore_ReadU32(at + 8);
    return mani_success;
}

uint32_t maniLearnedModel_GetFloatTrackCount(const maniLearnedModel* m) {
    return mani_LearnedViewOk(m) ? m->floatTrackCount : 0;
}
uint32_t maniLearnedModel_GetEventCount(const maniLearnedModel* m) { return mani_LearnedViewOk(m) ? m->eventCount : 0; }

static const char* mani_LearnedName(const maniLearnedModel* m, uint64_t index, size_t* lengthOut) {
    const uint8_t* at = m->bytes + m->nameIndex + 8u * index;
    if (lengthOut != NULL) *lengthOut = mcore_ReadU32(at + 4);
    return (const char*)(m->bytes + m->names + mcore_ReadU32(at));
}
const char* maniLearnedModel_GetFloatTrackName(const maniLearnedModel* m, uint32_t track, size_t* lengthOut) {
    if (!mani_LearnedViewOk(m) || track >= m->floatTrackCount) return NULL;
    return mani_LearnedName(m, track, lengthOut);
}
const char* maniLearnedModel_GetEventName(const maniLearnedModel* m, uint32_t event, size_t* lengthOut) {
    if (!mani_LearnedViewOk(m) || event >= m->eventCount) return NULL;
    return mani_LearnedName(m, (uint64_t)m->floatTrackCount + event, lengthOut);
}

/* Scratch: three arrays of the widest layer's floats (two for the layers in
 * turn, one for a network's output). */
size_t maniLearnedModel_GetScratchSize(const maniLearnedModel* m) {
    if (!mani_LearnedViewOk(m)) return 0;
    return 3u * 4u * (((size_t)m->maxWidth + 3u) & ~(size_t)3u);
}

static int mani_LearnedScratchOk(const maniLearnedModel* m, const void* scratch, size_t size) {
    return scratch != NULL && ((uintptr_t)scratch % MANI_LEARNED_SCRATCH_ALIGNMENT) == 0 &&
           size >= maniLearnedModel_GetScratchSize(m);
}

/* A layer's sums: y_i = b_i + w_i0 x_0 + w_i1 x_1 + ..., each output's sum
 * from its bias over the inputs in order, one rounding per operation. Eight
 * outputs are summed side by side (independent sums, so the same bits as
 * one at a time) for the processor's sake. */
#define MANI_LEARNED_LANES 8u
static void mani_LearnedLayer32(const float* w, const float* biases, const float* x, float* y, uint32_t li,
                                uint32_t lo) {
    uint32_t i = 0;
    for (; i + MANI_LEARNED_LANES <= lo; i += MANI_LEARNED_LANES) {
        const float* row = w + (size_t)i * li;
        float s[MANI_LEARNED_LANES];
        for (uint32_t k = 0; k < MANI_LEARNED_LANES; ++k) s[k] = biases[i + k];
        for (uint32_t j = 0; j < li; ++j) {
            const float xj = x[j];
            for (uint32_t k = 0; k < MANI_LEARNED_LANES; ++k) {
                const float t = row[(size_t)k * li + j] * xj;
                s[k] = s[k] + t;
            }
        }
        for (uint32_t k = 0; k < MANI_LEARNED_LANES; ++k) y[i + k] = s[k];
    }
    for (; i < lo; ++i) {
        const float* row = w + (size_t)i * li;
        float s = biases[i];
        for (uint32_t j = 0; j < li; ++j) {
            const float t = row[j] * x[j];
            s = s + t;
        }
        y[i] = s;
    }
}

/* The same with 16-bit weights (x already multiplied by the inputs' scales). */
static void mani_LearnedLayer16(const int16_t* w, const float* biases, const float* x, float* y, uint32_t li,
                                uint32_t lo) {
    uint32_t i = 0;
    for (; i + MANI_LEARNED_LANES <= lo; i += MANI_LEARNED_LANES) {
        const int16_t* row = w + (size_t)i * li;
        float s[MANI_LEARNED_LANES];
        for (uint32_t k = 0; k < MANI_LEARNED_LANES; ++k) s[k] = biases[i + k];
        for (uint32_t j = 0; j < li; ++j) {
            const float xj = x[j];
            for (uint32_t k = 0; k < MANI_LEARNED_LANES; ++k) {
                const float t = (float)row[(size_t)k * li + j] * xj;
                s[k] = s[k] + t;
            }
        }
        for (uint32_t k = 0; k < MANI_LEARNED_LANES; ++k) y[i + k] = s[k];
    }
    for (; i < lo; ++i) {
        const int16_t* row = w + (size_t)i * li;
        float s = biases[i];
        for (uint32_t j = 0; j < li; ++j) {
            const float t = (float)row[j] * x[j];
            s = s + t;
        }
        y[i] = s;
    }
}

/* Runs network n on in (its input count of values) into out (its output
 * count), a and b the layers' arrays. Returns 0 when a value passed the
 * float range (out then holds garbage). */
static int mani_LearnedRun(const maniLearnedModel* m, uint32_t n, const float* in, float* out, float* a, float* b) {
    const uint8_t* bytes = m->bytes;
    uint64_t layer = 0;
    for (uint32_t k = 0; k < n; ++k) layer += mcore_ReadU32(bytes + m->networks + (uint64_t)MANI_LEARNED_NETWORK_SIZE * k);
    const uint32_t layers = mcore_ReadU32(bytes + m->networks + (uint64_t)MANI_LEARNED_NETWORK_SIZE * n);
    uint64_t inCount, outCount;
    mani_LearnedRole(m, n, &inCount, &outCount);
    const uint8_t* p = bytes + m->networkParameters[n];
    const float* inOffsets = (const float*)p;
    const float* inScales = inOffsets + inCount;
    for (uint64_t j = 0; j < inCount; ++j) {
        const float d = in[j] - inOffsets[j];
        a[j] = d / inScales[j];
    }
    p += 8u * inCount;
    float* x = a;
    float* y = b;
    for (uint32_t k = 0; k < layers; ++k) {
        const uint8_t* la = bytes + m->layers + MANI_LEARNED_LAYER_SIZE * (layer + k);
        const uint32_t li = mcore_ReadU32(la), lo = mcore_ReadU32(la + 4);
        const float* biases = (const float*)p;
        p += 4u * lo;
        if (m->weightFormat == 1) {
            const float* scales = (const float*)p;
            p += 4u * li;
            const int16_t* w = (const int16_t*)p;
            for (uint32_t j = 0; j < li; ++j) x[j] = x[j] * scales[j];
            mani_LearnedLayer16(w, biases, x, y, li, lo);
            p += ((2u * (uint64_t)li * lo + 3u) & ~(uint64_t)3u);
        } else {
            const float* w = (const float*)p;
            mani_LearnedLayer32(w, biases, x, y, li, lo);
            p += 4u * (uint64_t)li * lo;
        }
        if (k + 1 < layers)
            for (uint32_t i = 0; i < lo; ++i) y[i] = y[i] > 0.0f ? y[i] : 0.0f;
        float* t = x;
        x = y;
        y = t;
    }
    const float* outOffsets = (const float*)p;
    const float* outScales = outOffsets + outCount;
    int ok = 1;
    for (uint64_t i = 0; i < outCount; ++i) {
        const float t = x[i] * outScales[i];
        out[i] = t + outOffsets[i];
        if (!isfinite(out[i])) ok = 0;
    }
    return ok;
}

static int mani_LearnedFinite(const float* v, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
        if (!isfinite(v[i])) return 0;
    return 1;
}

maniResult maniLearnedModel_Project(const maniLearnedModel* m, uint32_t projector, const float* query, float* stateOut,
                                    uint32_t capacity, uint32_t* countOut, void* scratch, size_t scratchSize) {
    if (!mani_LearnedViewOk(m) || query == NULL || (stateOut == NULL && capacity > 0) ||
        projector >= m->projectorCount || !mani_LearnedScratchOk(m, scratch, scratchSize))
        return mani_errorInvalid;
    const uint32_t f = m->featureCount, state = f + m->latentCount;
    if (!mani_LearnedFinite(query, f)) return mani_errorInvalid;
    if (countOut != NULL) *countOut = state;
    if (stateOut == NULL) return mani_success;
    if (capacity < state) return mani_errorCapacity;
    const size_t width = ((size_t)m->maxWidth + 3u) & ~(size_t)3u;
    float* a = (float*)scratch;
    float* b = a + width;
    float* out = b + width;
    const uint8_t* norm = m->bytes + m->normalization;
    for (uint32_t i = 0; i < f; ++i) {
        const float d = query[i] - mcore_ReadF32(norm + 4u * i);
        out[i] = d / mcore_ReadF32(norm + 4u * ((uint64_t)f + i));
    }
    /* The normalized query moves to b (the run reads its input before writing a). */
    memcpy(b, out, 4u * (size_t)f);
    if (!mani_LearnedFinite(b, f) || !mani_LearnedRun(m, 2u + projector, b, out, a, b)) return mani_errorFormat;
    memcpy(stateOut, out, 4u * (size_t)state);
    return mani_success;
}

maniResult maniLearnedModel_Step(const maniLearnedModel* m, float* state, void* scratch, size_t scratchSize) {
    if (!mani_LearnedViewOk(m) || state == NULL || !mani_LearnedScratchOk(m, scratch, scratchSize))
        return mani_errorInvalid;
    const uint32_t n = m->featureCount + m->latentCount;
    if (!mani_LearnedFinite(state, n)) return mani_errorInvalid;
    const size_t width = ((size_t)m->maxWidth + 3u) & ~(size_t)3u;
    float* a = (float*)scratch;
    float* b = a + width;
    float* out = b + width;
    if (!mani_LearnedRun(m, 1, state, out, a, b)) return mani_errorFormat;
    const float dt = 1.0f / m->stepRate;
    for (uint32_t i = 0; i < n; ++i) {
        const float t = out[i] * dt;
        a[i] = state[i] + t;
        if (!isfinite(a[i])) return mani_errorFormat;
    }
    memcpy(state, a, 4u * (size_t)n);
    return mani_success;
}

/* A rotation from two matrix columns c0, c1: x = c0 / |c0|, y = (c1 - (x.c1)
 * x) / its length, z = x cross y, then the quaternion of the matrix [x y z]
 * (the largest of w, x, y, z found first, Shepperd's way). Identity when a
 * length is 0. Every operation in binary32, in the order written. */
static maniQuat mani_LearnedRotation(const float* c0, const float* c1) {
    maniQuat q = {0.0f, 0.0f, 0.0f, 1.0f};
    const float l0 = sqrtf(c0[0] * c0[0] + c0[1] * c0[1] + c0[2] * c0[2]);
    if (!(l0 > 0.0f) || !isfinite(l0)) return q;
    const float x0 = c0[0] / l0, x1 = c0[1] / l0, x2 = c0[2] / l0;
    const float d = x0 * c1[0] + x1 * c1[1] + x2 * c1[2];
    const float u0 = c1[0] - d * x0, u1 = c1[1] - d * x1, u2 = c1[2] - d * x2;
    const float l1 = sqrtf(u0 * u0 + u1 * u1 + u2 * u2);
    if (!(l1 > 0.0f) || !isfinite(l1)) return q;
    const float y0 = u0 / l1, y1 = u1 / l1, y2 = u2 / l1;
    const float z0 = x1 * y2 - x2 * y1, z1 = x2 * y0 - x0 * y2, z2 = x0 * y1 - x1 * y0;
    /* m[row][col]: columns x, y, z. */
    const float m00 = x0, m10 = x1, m20 = x2, m01 = y0, m11 = y1, m21 = y2, m02 = z0, m12 = z1, m22 = z2;
    const float trace = m00 + m11 + m22;
    if (trace > 0.0f) {
        const float s = sqrtf(trace + 1.0f) * 2.0f;
        q.w = 0.25f * s;
        q.x = (m21 - m12) / s;
        q.y = (m02 - m20) / s;
        q.z = (m10 - m01) / s;
    } else if (m00 > m11 && m00 > m22) {
        const float s = sqrtf(1.0f + m00 - m11 - m22) * 2.0f;
        q.w = (m21 - m12) / s;
        q.x = 0.25f * s;
        q.y = (m01 + m10) / s;
        q.z = (m02 + m20) / s;
    } else if (m11 > m22) {
        const float s = sqrtf(1.0f + m11 - m00 - m22) * 2.0f;
        q.w = (m02 - m20) / s;
        q.x = (m01 + m10) / s;
        q.y = 0.25f * s;
        q.z = (m12 + m21) / s;
    } else {
        const float s = sqrtf(1.0f + m22 - m00 - m11) * 2.0f;
        q.w = (m10 - m01) / s;
        q.x = (m02 + m20) / s;
        q.y = (m12 + m21) / s;
        q.z = 0.25f * s;
    }
    return q;
}

maniResult maniLearnedModel_Decompress(const maniLearnedModel* m, const float* state, maniLearnedOutput* r,
                                       void* scratch, size_t scratchSize) {
    if (!mani_LearnedViewOk(m) || state == NULL || r == NULL || r->pose == NULL ||
        !mani_LearnedScratchOk(m, scratch, scratchSize))
        return mani_errorInvalid;
    if ((r->floatTracks == NULL && r->floatTrackCapacity > 0) || (r->eventStates == NULL && r->eventCapacity > 0))
        return mani_errorInvalid;
    const uint32_t n = m->featureCount + m->latentCount;
    if (!mani_LearnedFinite(state, n)) return mani_errorInvalid;
    if (maniPose_GetBoneCount(r->pose) != m->boneCount || maniPose_IsDifference(r->pose)) return mani_errorInvalid;
    if ((m->floatTrackCount > 0 && (r->floatTracks == NULL || r->floatTrackCapacity < m->floatTrackCount)) ||
        (m->eventCount > 0 && (r->eventStates == NULL || r->eventCapacity < m->eventCount)))
        return mani_errorCapacity;
    const size_t width = ((size_t)m->maxWidth + 3u) & ~(size_t)3u;
    float* a = (float*)scratch;
    float* b = a + width;
    float* out = b + width;
    if (!mani_LearnedRun(m, 0, state, out, a, b)) return mani_errorFormat;
    const uint32_t bones = m->boneCount;
    const float* scaled = out + 9u * (size_t)bones;
    uint32_t nextScaled = 0;
    for (uint32_t i = 0; i < bones; ++i) {
        const float* o = out + 9u * (size_t)i;
        maniTransform t;
        t.translation.x = o[0];
        t.translation.y = o[1];
        t.translation.z = o[2];
        t.rotation = mani_LearnedRotation(o + 3, o + 6);
        if (nextScaled < m->scaledBoneCount && mcore_ReadU32(m->bytes + m->scaledBones + 4u * nextScaled) == i) {
            t.scale.x = scaled[3u * nextScaled];
            t.scale.y = scaled[3u * nextScaled + 1];
            t.scale.z = scaled[3u * nextScaled + 2];
            ++nextScaled;
        } else {
            const uint8_t* s = m->bytes + m->boneScales + 12u * i;
            t.scale.x = mcore_ReadF32(s);
            t.scale.y = mcore_ReadF32(s + 4);
            t.scale.z = mcore_ReadF32(s + 8);
        }
        maniPose_SetLocal(r->pose, i, t);
    }
    const float* rest = scaled + 3u * (size_t)m->scaledBoneCount;
    r->rootVelocity.x = rest[0];
    r->rootVelocity.y = rest[1];
    r->rootVelocity.z = rest[2];
    r->rootAngularVelocity.x = rest[3];
    r->rootAngularVelocity.y = rest[4];
    r->rootAngularVelocity.z = rest[5];
    rest += MANI_LEARNED_ROOT_OUTPUTS;
    if (m->floatTrackCount > 0) memcpy(r->floatTracks, rest, 4u * (size_t)m->floatTrackCount);
    rest += m->floatTrackCount;
    if (m->eventCount > 0) memcpy(r->eventStates, rest, 4u * (size_t)m->eventCount);
    return mani_success;
}
