/* maniBuildMorphTargets: checks a source and writes a morph targets file
 * (docs/formats.md, "Morph targets"). Sparse targets are sorted by vertex
 * (then by place given) and a vertex given twice has its deltas summed in
 * binary64 in that order, rounded once; a target covering every vertex is
 * stored densely. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/morph/morph_format.h"
#include "lib/core/utf8.h"

#define MANI_MORPH_MAX_TOTAL 0xFFFFFFFEull

static int mani_MorphKeyOrder(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return (x > y) - (x < y);
}

/* The digits of k in decimal (k > 0). */
static uint32_t mani_MorphDigits(uint32_t k) {
    uint32_t d = 1;
    while (k >= 10) {
        k /= 10;
        ++d;
    }
    return d;
}

/* A target's name length: its own, or the one made for it (k its index in
 * the channel). */
static uint64_t mani_MorphTargetNameLength(const maniMorphSourceChannel* ch, const maniMorphSourceTarget* t, uint32_t k) {
    if (t->name != NULL || t->nameLength != 0) return t->nameLength;
    return k == 0 ? ch->nameLength : ch->nameLength + 1 + mani_MorphDigits(k);
}

static void mani_MorphWriteTargetName(uint8_t* p, const maniMorphSourceChannel* ch, const maniMorphSourceTarget* t,
                                      uint32_t k) {
    if (t->name != NULL || t->nameLength != 0) {
        memcpy(p, t->name, t->nameLength);
        return;
    }
    memcpy(p, ch->name, ch->nameLength);
    if (k == 0) return;
    p += ch->nameLength;
    *p++ = '/';
    uint32_t d = mani_MorphDigits(k);
    for (uint32_t i = d; i > 0; --i) {
        p[i - 1] = (uint8_t)('0' + k % 10);
        k /= 10;
    }
}

/* A sparse target's keys (vertex << 32 | place) sorted; returns the number
 * of distinct vertices. */
static uint32_t mani_MorphSortKeys(const maniMorphSourceTarget* t, uint64_t* keys) {
    for (uint32_t i = 0; i < t->count; ++i) keys[i] = ((uint64_t)t->indices[i] << 32) | i;
    if (t->count > 1) qsort(keys, t->count, sizeof *keys, mani_MorphKeyOrder);
    uint32_t unique = 0;
    for (uint32_t i = 0; i < t->count; ++i)
        if (i == 0 || (keys[i] >> 32) != (keys[i - 1] >> 32)) ++unique;
    return unique;
}

/* The sums of a sparse target's deltas for one attribute, vertex by vertex
 * in sorted order; written to out (when not NULL). Returns the place of
 * the first vertex whose sum is past binary32, or UINT64_MAX. */
static uint64_t mani_MorphSums(const maniMorphSourceTarget* t, const uint64_t* keys, const float* deltas,
                               uint32_t comps, uint8_t* out) {
    uint32_t i = 0, written = 0;
    while (i < t->count) {
        uint32_t end = i + 1;
        while (end < t->count && (keys[end] >> 32) == (keys[i] >> 32)) ++end;
        for (uint32_t c = 0; c < comps; ++c) {
            const uint32_t place = (uint32_t)keys[i];
            float value = deltas[(uint64_t)place * comps + c];
            if (end > i + 1) {
                double sum = (double)value;
                for (uint32_t j = i + 1; j < end; ++j) sum += (double)deltas[(uint64_t)(uint32_t)keys[j] * comps + c];
                value = (float)sum;
                if (!isfinite(value)) return (uint32_t)keys[end - 1];
            }
            if (out != NULL) mcore_WriteF32(out + 4 * ((uint64_t)written * comps + c), value);
        }
        ++written;
        i = end;
    }
    return UINT64_MAX;
}

maniBuildResult maniBuildMorphTargets(maniBuilder* builder, const maniMorphSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const uint32_t vertices = source->vertexCount, channels = source->channelCount;
    const uint32_t attributes = source->attributeCount;
    if (vertices == 0 || channels == 0 || source->channels == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    if (attributes > MANI_MAX_MORPH_ATTRIBUTES) return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, 0, 0);
    if (attributes == 0 || source->attributes == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonAttribute, 0, 0);
    uint32_t comps[MANI_MAX_MORPH_ATTRIBUTES];
    for (uint32_t a = 0; a < attributes; ++a) {
        const uint32_t semantic = (uint32_t)source->attributes[a].semantic, set = source->attributes[a].set;
        if (!mani_MorphAttributeOk(semantic, set))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonAttribute, a, 0);
        for (uint32_t e = 0; e < a; ++e)
            if ((uint32_t)source->attributes[e].semantic == semantic && source->attributes[e].set == set)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonAttribute, a, 0);
        comps[a] = mani_MorphComponents(semantic);
    }

    /* Pass 1: every check, and the sizes. */
    uint64_t targetTotal = 0, namesTotal = 0, indexTotal = 0, deltaTotal = 0, maxSparse = 0;
    for (uint32_t c = 0; c < channels; ++c) {
        const maniMorphSourceChannel* ch = &source->channels[c];
        if (ch->name == NULL || ch->nameLength == 0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, c, 0);
        if (ch->nameLength > MANI_MAX_NAME_BYTES) return mani_BuildResult(mani_errorLimit, maniBuildReasonName, c, 0);
        if (mcore_Utf8Check((const uint8_t*)ch->name, ch->nameLength) != ch->nameLength)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, c, 0);
        for (uint32_t e = 0; e < c; ++e)
            if (source->channels[e].nameLength == ch->nameLength &&
                memcmp(source->channels[e].name, ch->name, ch->nameLength) == 0)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonDuplicateName, c, e);
        if (ch->targets == NULL || ch->targetCount == 0)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, c, 0);
        namesTotal += ch->nameLength;
        for (uint32_t k = 0; k < ch->targetCount; ++k) {
            const maniMorphSourceTarget* t = &ch->targets[k];
            const uint64_t item = targetTotal + k;
            if (t->name == NULL && t->nameLength != 0)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, item, 1);
            const uint64_t nameLength = mani_MorphTargetNameLength(ch, t, k);
            if (nameLength > MANI_MAX_NAME_BYTES)
                return mani_BuildResult(mani_errorLimit, maniBuildReasonName, item, 1);
            if (t->name != NULL && (t->nameLength == 0 || mcore_Utf8Check((const uint8_t*)t->name, t->nameLength) !=
                                                              t->nameLength))
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, item, 1);
            namesTotal += nameLength;
            if (!isfinite(t->fullWeight) || t->fullWeight == 0.0f ||
                (k > 0 && !(t->fullWeight > ch->targets[k - 1].fullWeight)))
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonWeight, item, 0);
            if (t->indices == NULL && t->count != vertices)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, item, 0);
            if (t->indices != NULL) {
                for (uint32_t i = 0; i < t->count; ++i)
                    if (t->indices[i] >= vertices)
                        return mani_BuildResult(mani_errorInvalid, maniBuildReasonVertex, item, i);
                if (t->count > maxSparse) maxSparse = t->count;
            }
            for (uint32_t a = 0; a < attributes; ++a) {
                if (t->deltas[a] == NULL) continue;
                for (uint64_t f = 0; f < (uint64_t)t->count * comps[a]; ++f)
                    if (!isfinite(t->deltas[a][f]))
                        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, item, f / comps[a]);
            }
        }
        targetTotal += ch->targetCount;
        if (targetTotal > MANI_MORPH_MAX_TOTAL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }

    uint64_t* keys = NULL;
    if (maxSparse > 0) {
        if (maxSparse > SIZE_MAX / sizeof(uint64_t))
            return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
        keys = (uint64_t*)mani_BuilderAlloc(builder, (size_t)maxSparse * sizeof(uint64_t), 8);
        if (keys == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    /* Sums past binary32, and the stored sizes. */
    uint64_t item = 0;
    for (uint32_t c = 0; c < channels; ++c) {
        const maniMorphSourceChannel* ch = &source->channels[c];
        for (uint32_t k = 0; k < ch->targetCount; ++k, ++item) {
            const maniMorphSourceTarget* t = &ch->targets[k];
            uint32_t stored = t->count;
            if (t->indices != NULL) {
                stored = mani_MorphSortKeys(t, keys);
                for (uint32_t a = 0; a < attributes; ++a) {
                    if (t->deltas[a] == NULL) continue;
                    uint64_t bad = mani_MorphSums(t, keys, t->deltas[a], comps[a], NULL);
                    if (bad != UINT64_MAX) {
                        mani_BuilderFree(builder, keys, (size_t)maxSparse * sizeof(uint64_t));
                        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, item, bad);
                    }
                }
                if (stored != vertices) indexTotal += stored;
            }
            for (uint32_t a = 0; a < attributes; ++a)
                if (t->deltas[a] != NULL) deltaTotal += (uint64_t)stored * comps[a];
        }
    }
    if (indexTotal > MANI_MORPH_MAX_TOTAL || deltaTotal > MANI_MORPH_MAX_TOTAL || namesTotal > MANI_MORPH_MAX_TOTAL) {
        mani_BuilderFree(builder, keys, (size_t)maxSparse * sizeof(uint64_t));
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }

    /* Pass 2: the file. */
    const uint64_t sizes[MANI_MORPH_SECTION_COUNT] = {
        MANI_MORPH_INFO_SIZE,           (uint64_t)MANI_MORPH_ATTRIBUTE_SIZE * attributes,
        (uint64_t)MANI_MORPH_CHANNEL_SIZE * channels, (uint64_t)MANI_MORPH_TARGET_SIZE * targetTotal,
        4 * indexTotal,                 4 * deltaTotal,
        namesTotal};
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniMorphSections, sizes, MANI_MORPH_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) {
        mani_BuilderFree(builder, keys, (size_t)maxSparse * sizeof(uint64_t));
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    uint8_t* info = file + sec[0].offset;
    const uint32_t words[8] = {vertices, channels, (uint32_t)targetTotal, attributes, (uint32_t)namesTotal,
                               (uint32_t)indexTotal, (uint32_t)deltaTotal, 0};
    for (int i = 0; i < 8; ++i) mcore_WriteU32(info + 4 * i, words[i]);
    for (uint32_t a = 0; a < attributes; ++a) {
        mcore_WriteU32(file + sec[1].offset + 8ull * a, (uint32_t)source->attributes[a].semantic);
        mcore_WriteU32(file + sec[1].offset + 8ull * a + 4, source->attributes[a].set);
    }
    uint32_t nameAt = 0, target = 0, indexAt = 0, deltaAt = 0;
    for (uint32_t c = 0; c < channels; ++c) {
        const maniMorphSourceChannel* ch = &source->channels[c];
        uint8_t* rec = file + sec[2].offset + (uint64_t)MANI_MORPH_CHANNEL_SIZE * c;
        mcore_WriteU32(rec, target);
        mcore_WriteU32(rec + 4, ch->targetCount);
        mcore_WriteU32(rec + 8, nameAt);
        mcore_WriteU32(rec + 12, (uint32_t)ch->nameLength);
        memcpy(file + sec[6].offset + nameAt, ch->name, ch->nameLength);
        nameAt += (uint32_t)ch->nameLength;
        target += ch->targetCount;
    }
    target = 0;
    for (uint32_t c = 0; c < channels; ++c) {
        const maniMorphSourceChannel* ch = &source->channels[c];
        for (uint32_t k = 0; k < ch->targetCount; ++k, ++target) {
            const maniMorphSourceTarget* t = &ch->targets[k];
            uint8_t* rec = file + sec[3].offset + (uint64_t)MANI_MORPH_TARGET_SIZE * target;
            uint32_t stored = t->count, first = MANI_MORPH_DENSE;
            if (t->indices != NULL) {
                stored = mani_MorphSortKeys(t, keys);
                if (stored != vertices) {
                    first = indexAt;
                    uint32_t w = 0;
                    for (uint32_t i = 0; i < t->count; ++i)
                        if (i == 0 || (keys[i] >> 32) != (keys[i - 1] >> 32))
                            mcore_WriteU32(file + sec[4].offset + 4ull * (indexAt + w++), (uint32_t)(keys[i] >> 32));
                    indexAt += stored;
                }
            }
            const uint32_t nameLength = (uint32_t)mani_MorphTargetNameLength(ch, t, k);
            mcore_WriteF32(rec, t->fullWeight);
            mcore_WriteU32(rec + 4, stored);
            mcore_WriteU32(rec + 8, first);
            mcore_WriteU32(rec + 12, nameAt);
            mcore_WriteU32(rec + 16, nameLength);
            mani_MorphWriteTargetName(file + sec[6].offset + nameAt, ch, t, k);
            nameAt += nameLength;
            for (uint32_t a = 0; a < MANI_MAX_MORPH_ATTRIBUTES; ++a) {
                if (a >= attributes || t->deltas[a] == NULL) {
                    mcore_WriteU32(rec + 24 + 4 * a, MANI_MORPH_NONE);
                    continue;
                }
                mcore_WriteU32(rec + 24 + 4 * a, deltaAt);
                uint8_t* out = file + sec[5].offset + 4ull * deltaAt;
                if (t->indices != NULL) {
                    (void)mani_MorphSums(t, keys, t->deltas[a], comps[a], out);
                } else {
                    for (uint64_t f = 0; f < (uint64_t)t->count * comps[a]; ++f)
                        mcore_WriteF32(out + 4 * f, t->deltas[a][f]);
                }
                deltaAt += stored * comps[a];
            }
        }
    }
    mani_BuilderFree(builder, keys, (size_t)maxSparse * sizeof(uint64_t));
    mcore_FinishContainer(file, &layout, mcore_kindMorphTargets, mcore_formatMorphTargetsLatest, MANI_ABI_VERSION);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
