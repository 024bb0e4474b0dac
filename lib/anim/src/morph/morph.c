/* morph.h: opening a morph targets file (every byte checked once), the
 * view's accessors (no checks beyond staying inside the bytes), target
 * weights from channel weights. The job is in morph_apply.c. */
#include "lib/anim/src/base/file_open.h"
#include "maul/anim/morph.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/morph/morph_internal.h"
#include "lib/core/utf8.h"

/* -- The view ------------------------------------------------------------------ */

int mani_MorphViewOk(const maniMorphTargets* m) {
    if (m == NULL || m->opened != MANI_MORPH_OPENED || m->bytes == NULL) return 0;
    if (m->vertexCount == 0 || m->channelCount == 0 || m->targetCount == 0) return 0;
    if (m->attributeCount == 0 || m->attributeCount > MANI_MAX_MORPH_ATTRIBUTES) return 0;
    return mcore_SpanFits(m->attributes, m->attributeCount, MANI_MORPH_ATTRIBUTE_SIZE, m->size) &&
           mcore_SpanFits(m->channels, m->channelCount, MANI_MORPH_CHANNEL_SIZE, m->size) &&
           mcore_SpanFits(m->targets, m->targetCount, MANI_MORPH_TARGET_SIZE, m->size) &&
           mcore_SpanFits(m->indices, m->indexCount, 4, m->size) &&
           mcore_SpanFits(m->deltas, m->deltaCount, 4, m->size) && mcore_SpanFits(m->names, m->namesSize, 1, m->size);
}

uint32_t mani_MorphTargetWord(const maniMorphTargets* m, uint32_t target, uint32_t word) {
    return mcore_ReadU32(m->bytes + m->targets + (uint64_t)MANI_MORPH_TARGET_SIZE * target + 4u * word);
}

static uint32_t mani_MorphChannelWord(const maniMorphTargets* m, uint32_t channel, uint32_t word) {
    return mcore_ReadU32(m->bytes + m->channels + (uint64_t)MANI_MORPH_CHANNEL_SIZE * channel + 4u * word);
}

/* A name span read from the bytes, NULL when it leaves the names. */
static const char* mani_MorphName(const maniMorphTargets* m, uint32_t offset, uint32_t length, size_t* lengthOut) {
    if (offset > m->namesSize || length > m->namesSize - offset) {
        if (lengthOut != NULL) *lengthOut = 0;
        return NULL;
    }
    if (lengthOut != NULL) *lengthOut = length;
    return (const char*)(m->bytes + m->names + offset);
}

uint32_t maniMorphTargets_GetVertexCount(const maniMorphTargets* t) { return mani_MorphViewOk(t) ? t->vertexCount : 0; }
uint32_t maniMorphTargets_GetChannelCount(const maniMorphTargets* t) {
    return mani_MorphViewOk(t) ? t->channelCount : 0;
}
uint32_t maniMorphTargets_GetTargetCount(const maniMorphTargets* t) { return mani_MorphViewOk(t) ? t->targetCount : 0; }
uint32_t maniMorphTargets_GetAttributeCount(const maniMorphTargets* t) {
    return mani_MorphViewOk(t) ? t->attributeCount : 0;
}

maniMorphSemantic maniMorphTargets_GetAttribute(const maniMorphTargets* t, uint32_t attribute, uint32_t* setOut) {
    if (setOut != NULL) *setOut = 0;
    if (!mani_MorphViewOk(t) || attribute >= t->attributeCount) return maniMorphSemanticNone;
    const uint8_t* p = t->bytes + t->attributes + (uint64_t)MANI_MORPH_ATTRIBUTE_SIZE * attribute;
    uint32_t semantic = mcore_ReadU32(p), set = mcore_ReadU32(p + 4);
    if (!mani_MorphAttributeOk(semantic, set)) return maniMorphSemanticNone;
    if (setOut != NULL) *setOut = set;
    return (maniMorphSemantic)semantic;
}

const char* maniMorphTargets_GetChannelName(const maniMorphTargets* t, uint32_t channel, size_t* lengthOut) {
    if (!mani_MorphViewOk(t) || channel >= t->channelCount) {
        if (lengthOut != NULL) *lengthOut = 0;
        return NULL;
    }
    return mani_MorphName(t, mani_MorphChannelWord(t, channel, 2), mani_MorphChannelWord(t, channel, 3), lengthOut);
}

const char* maniMorphTargets_GetTargetName(const maniMorphTargets* t, uint32_t target, size_t* lengthOut) {
    if (!mani_MorphViewOk(t) || target >= t->targetCount) {
        if (lengthOut != NULL) *lengthOut = 0;
        return NULL;
    }
    return mani_MorphName(t, mani_MorphTargetWord(t, target, 3), mani_MorphTargetWord(t, target, 4), lengthOut);
}

static int mani_MorphSameName(const char* a, size_t aLength, const char* name, size_t length) {
    return a != NULL && aLength == length && (length == 0 || memcmp(a, name, length) == 0);
}

uint32_t maniMorphTargets_FindChannel(const maniMorphTargets* t, const char* name, size_t length) {
    if (!mani_MorphViewOk(t) || (name == NULL && length != 0)) return MANI_NO_CHANNEL;
    for (uint32_t c = 0; c < t->channelCount; ++c) {
        size_t n = 0;
        const char* s = maniMorphTargets_GetChannelName(t, c, &n);
        if (mani_MorphSameName(s, n, name, length)) return c;
    }
    return MANI_NO_CHANNEL;
}

uint32_t maniMorphTargets_FindTarget(const maniMorphTargets* t, const char* name, size_t length) {
    if (!mani_MorphViewOk(t) || (name == NULL && length != 0)) return MANI_NO_CHANNEL;
    for (uint32_t i = 0; i < t->targetCount; ++i) {
        size_t n = 0;
        const char* s = maniMorphTargets_GetTargetName(t, i, &n);
        if (mani_MorphSameName(s, n, name, length)) return i;
    }
    return MANI_NO_CHANNEL;
}

uint32_t maniMorphTargets_GetChannelTargets(const maniMorphTargets* t, uint32_t channel, uint32_t* firstOut) {
    if (firstOut != NULL) *firstOut = 0;
    if (!mani_MorphViewOk(t) || channel >= t->channelCount) return 0;
    uint32_t first = mani_MorphChannelWord(t, channel, 0), count = mani_MorphChannelWord(t, channel, 1);
    if (first > t->targetCount || count > t->targetCount - first) return 0;
    if (firstOut != NULL) *firstOut = first;
    return count;
}

float maniMorphTargets_GetTargetFullWeight(const maniMorphTargets* t, uint32_t target) {
    if (!mani_MorphViewOk(t) || target >= t->targetCount) return 0.0f;
    return mcore_ReadF32(t->bytes + t->targets + (uint64_t)MANI_MORPH_TARGET_SIZE * target);
}

/* -- The open -------------------------------------------------------------------- */

#define MANI_MORPH_BAD(at) return mani_FileResult(mani_errorFormat, (at))

/* Checks a name span against the running name offset: length 1 to
 * MANI_MAX_NAME_BYTES, inside the names, UTF-8. Returns 0 when good, else
 * writes the offset of the wrong byte. */
static int mani_MorphCheckName(const uint8_t* b, uint64_t field, uint64_t names, uint32_t namesSize,
                               uint32_t* expect, uint64_t* badOut) {
    uint32_t off = mcore_ReadU32(b + field), len = mcore_ReadU32(b + field + 4);
    if (off != *expect) {
        *badOut = field;
        return 1;
    }
    if (len == 0 || len > MANI_MAX_NAME_BYTES || len > namesSize - off) {
        *badOut = field + 4;
        return 1;
    }
    size_t good = mcore_Utf8Check(b + names + off, len);
    if (good != len) {
        *badOut = names + off + good;
        return 1;
    }
    *expect = off + len;
    return 0;
}

maniFileResult maniOpenMorphTargets(const void* bytes, size_t size, maniMorphTargets* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindMorphTargets, mcore_formatMorphTargetsLatest, maniMorphSections, MANI_MORPH_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    uint64_t bad = 0; /* where a name check found its fault */
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* Info and the section sizes it implies. */
    if (sec[0].size != MANI_MORPH_INFO_SIZE) MANI_MORPH_BAD(mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint32_t vertices = mcore_ReadU32(b + info), channels = mcore_ReadU32(b + info + 4);
    const uint32_t targets = mcore_ReadU32(b + info + 8), attributes = mcore_ReadU32(b + info + 12);
    const uint32_t namesSize = mcore_ReadU32(b + info + 16), indexCount = mcore_ReadU32(b + info + 20);
    const uint32_t deltaCount = mcore_ReadU32(b + info + 24);
    if (vertices == 0) MANI_MORPH_BAD(info);
    if (channels == 0) MANI_MORPH_BAD(info + 4);
    if (targets < channels) MANI_MORPH_BAD(info + 8);
    if (attributes == 0 || attributes > MANI_MAX_MORPH_ATTRIBUTES) MANI_MORPH_BAD(info + 12);
    if (mcore_ReadU32(b + info + 28) != 0) MANI_MORPH_BAD(info + 28);
    if (sec[1].size != (uint64_t)MANI_MORPH_ATTRIBUTE_SIZE * attributes) MANI_MORPH_BAD(mcore_SectionSizeField(1));
    if (sec[2].size != (uint64_t)MANI_MORPH_CHANNEL_SIZE * channels) MANI_MORPH_BAD(mcore_SectionSizeField(2));
    if (sec[3].size != (uint64_t)MANI_MORPH_TARGET_SIZE * targets) MANI_MORPH_BAD(mcore_SectionSizeField(3));
    if (sec[4].size != 4ull * indexCount) MANI_MORPH_BAD(mcore_SectionSizeField(4));
    if (sec[5].size != 4ull * deltaCount) MANI_MORPH_BAD(mcore_SectionSizeField(5));
    if (sec[6].size != namesSize) MANI_MORPH_BAD(mcore_SectionSizeField(6));
    const uint64_t attrs = sec[1].offset, chans = sec[2].offset, targs = sec[3].offset;
    const uint64_t idx = sec[4].offset, deltas = sec[5].offset, names = sec[6].offset;

    /* Attributes: known, in range, no pair twice. */
    uint32_t components[MANI_MAX_MORPH_ATTRIBUTES];
    for (uint32_t a = 0; a < attributes; ++a) {
        const uint64_t at = attrs + (uint64_t)MANI_MORPH_ATTRIBUTE_SIZE * a;
        uint32_t semantic = mcore_ReadU32(b + at), set = mcore_ReadU32(b + at + 4);
        if (mani_MorphComponents(semantic) == 0) MANI_MORPH_BAD(at);
        if (!mani_MorphAttributeOk(semantic, set)) MANI_MORPH_BAD(at + 4);
        for (uint32_t e = 0; e < a; ++e)
            if (mcore_ReadU32(b + attrs + 8ull * e) == semantic && mcore_ReadU32(b + attrs + 8ull * e + 4) == set)
                MANI_MORPH_BAD(at);
        components[a] = mani_MorphComponents(semantic);
    }

    /* Channels: cover the targets in order; their names tile the front of
     * the names. */
    uint32_t nameAt = 0, nextTarget = 0;
    for (uint32_t ch = 0; ch < channels; ++ch) {
        const uint64_t at = chans + (uint64_t)MANI_MORPH_CHANNEL_SIZE * ch;
        if (mcore_ReadU32(b + at) != nextTarget) MANI_MORPH_BAD(at);
        uint32_t n = mcore_ReadU32(b + at + 4);
        if (n == 0 || n > targets - nextTarget) MANI_MORPH_BAD(at + 4);
        nextTarget += n;
        if (mani_MorphCheckName(b, at + 8, names, namesSize, &nameAt, &bad)) MANI_MORPH_BAD(bad);
    }
    if (nextTarget != targets) MANI_MORPH_BAD(info + 8);

    /* Targets, channel by channel: weights, names, indices, deltas. */
    uint32_t indexAt = 0, deltaAt = 0;
    for (uint32_t ch = 0; ch < channels; ++ch) {
        const uint32_t first = mcore_ReadU32(b + chans + 16ull * ch), n = mcore_ReadU32(b + chans + 16ull * ch + 4);
        float previous = 0.0f;
        for (uint32_t t = first; t < first + n; ++t) {
            const uint64_t at = targs + (uint64_t)MANI_MORPH_TARGET_SIZE * t;
            float w = mcore_ReadF32(b + at);
            if (!isfinite(w) || w == 0.0f || (t > first && !(w > previous))) MANI_MORPH_BAD(at);
            previous = w;
            const uint32_t count = mcore_ReadU32(b + at + 4), start = mcore_ReadU32(b + at + 8);
            if (count > vertices) MANI_MORPH_BAD(at + 4);
            if (start == MANI_MORPH_DENSE) {
                if (count != vertices) MANI_MORPH_BAD(at + 4);
            } else {
                if (start != indexAt) MANI_MORPH_BAD(at + 8);
                if (count > indexCount - indexAt) MANI_MORPH_BAD(at + 4);
                for (uint32_t k = 0; k < count; ++k) {
                    const uint64_t p = idx + 4ull * (indexAt + k);
                    uint32_t v = mcore_ReadU32(b + p);
                    if (v >= vertices || (k > 0 && v <= mcore_ReadU32(b + p - 4))) MANI_MORPH_BAD(p);
                }
                indexAt += count;
            }
            if (mani_MorphCheckName(b, at + 12, names, namesSize, &nameAt, &bad)) MANI_MORPH_BAD(bad);
            if (mcore_ReadU32(b + at + 20) != 0) MANI_MORPH_BAD(at + 20);
            for (uint32_t a = 0; a < MANI_MAX_MORPH_ATTRIBUTES; ++a) {
                const uint64_t f = at + 24 + 4ull * a;
                uint32_t d = mcore_ReadU32(b + f);
                if (d == MANI_MORPH_NONE) continue;
                if (a >= attributes || d != deltaAt) MANI_MORPH_BAD(f);
                const uint64_t floats = (uint64_t)count * components[a];
                if (floats > (uint64_t)deltaCount - deltaAt) MANI_MORPH_BAD(f);
                deltaAt += (uint32_t)floats;
            }
        }
    }
    if (indexAt != indexCount) MANI_MORPH_BAD(info + 20);
    if (deltaAt != deltaCount) MANI_MORPH_BAD(info + 24);
    if (nameAt != namesSize) MANI_MORPH_BAD(info + 16);
    for (uint64_t k = 0; k < deltaCount; ++k)
        if (!isfinite(mcore_ReadF32(b + deltas + 4 * k))) MANI_MORPH_BAD(deltas + 4 * k);

    maniMorphTargets v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.opened = MANI_MORPH_OPENED;
    v.vertexCount = vertices;
    v.channelCount = channels;
    v.targetCount = targets;
    v.attributeCount = attributes;
    v.namesSize = namesSize;
    v.indexCount = indexCount;
    v.deltaCount = deltaCount;
    v.attributes = attrs;
    v.channels = chans;
    v.targets = targs;
    v.indices = idx;
    v.deltas = deltas;
    v.names = names;
    *out = v;
    return mani_FileResult(mani_success, 0);
}

/* -- Target weights ---------------------------------------------------------------- */

maniResult maniMorphTargets_ComputeTargetWeights(const maniMorphTargets* t, const float* channelWeights,
                                                 float* targetWeightsOut, uint32_t capacity, uint32_t* countOut) {
    if (!mani_MorphViewOk(t) || channelWeights == NULL || (targetWeightsOut == NULL && capacity > 0))
        return mani_errorInvalid;
    for (uint32_t ch = 0; ch < t->channelCount; ++ch)
        if (!isfinite(channelWeights[ch])) return mani_errorInvalid;
    if (countOut != NULL) *countOut = t->targetCount;
    if (capacity < t->targetCount) return mani_errorCapacity;
    for (uint32_t ch = 0; ch < t->channelCount; ++ch) {
        const uint32_t first = mani_MorphChannelWord(t, ch, 0), n = mani_MorphChannelWord(t, ch, 1);
        if (first > t->targetCount || n > t->targetCount - first || n == 0) continue;
        /* The keys: the full weights with the zero shape (target index n)
         * inserted where 0 belongs among them. */
        uint32_t zeroAt = 0; /* how many full weights lie below 0 */
        for (uint32_t k = 0; k < n; ++k)
            if (maniMorphTargets_GetTargetFullWeight(t, first + k) < 0.0f) zeroAt = k + 1;
        const double w = (double)channelWeights[ch];
        /* Key j (0..n) is target j for j < zeroAt, the zero shape at zeroAt,
         * target j - 1 past it. */
#define MANI_MORPH_KEY(j) \
    ((j) == zeroAt ? 0.0 : (double)maniMorphTargets_GetTargetFullWeight(t, first + ((j) < zeroAt ? (j) : (j) - 1)))
#define MANI_MORPH_KEY_TARGET(j) ((j) == zeroAt ? MANI_NO_CHANNEL : first + ((j) < zeroAt ? (j) : (j) - 1))
        /* The pair: the first j with key(j) <= w <= key(j + 1), else the end
         * pairs. */
        uint32_t j = 0;
        if (w > MANI_MORPH_KEY(n)) {
            j = n - 1;
        } else if (w >= MANI_MORPH_KEY(0)) {
            while (j + 1 < n && !(w <= MANI_MORPH_KEY(j + 1))) ++j;
        }
        const double a = MANI_MORPH_KEY(j), bk = MANI_MORPH_KEY(j + 1);
        for (uint32_t k = 0; k < n; ++k) targetWeightsOut[first + k] = 0.0f;
        const uint32_t ta = MANI_MORPH_KEY_TARGET(j), tb = MANI_MORPH_KEY_TARGET(j + 1);
        if (ta != MANI_NO_CHANNEL) targetWeightsOut[ta] = (float)((bk - w) / (bk - a));
        if (tb != MANI_NO_CHANNEL) targetWeightsOut[tb] = (float)((w - a) / (bk - a));
#undef MANI_MORPH_KEY
#undef MANI_MORPH_KEY_TARGET
    }
    return mani_success;
}
