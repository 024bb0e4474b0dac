/* maniBuildLearnedModel: checks a model's networks against their roles and
 * writes the learned model file (docs/formats.md, "Learned model"). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/learned/learned_format.h"
#include "lib/core/utf8.h"
#include "maul/anim/learnedbuild.h"

static int mani_LearnedAllFinite(const float* v, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* Checks network `item` (inputs in, outputs out); on success adds its
 * layers and parameter bytes. */
static maniBuildResult mani_LearnedCheckNetwork(const maniLearnedNetworkSource* net, uint32_t item, uint64_t in,
                                                uint64_t out, uint32_t format, uint64_t* layersOut,
                                                uint64_t* bytesOut) {
    if (net->layerCount > MANI_MAX_LEARNED_LAYERS)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonNetwork, item, MANI_MAX_LEARNED_LAYERS);
    if (net->layerCount == 0 || net->layers == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNetwork, item, 0);
    uint64_t previous = in, weights = 0, bytes = 8u * in + 8u * out;
    for (uint32_t k = 0; k < net->layerCount; ++k) {
        const maniLearnedLayerSource* l = &net->layers[k];
        if (l->inputs > MANI_MAX_LEARNED_WIDTH || l->outputs > MANI_MAX_LEARNED_WIDTH)
            return mani_BuildResult(mani_errorLimit, maniBuildReasonNetwork, item, k);
        if (l->inputs != previous || l->outputs == 0 || (k + 1 == net->layerCount && l->outputs != out) ||
            l->weights == NULL || l->biases == NULL)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonNetwork, item, k);
        weights += (uint64_t)l->inputs * l->outputs;
        if (weights > MANI_MAX_LEARNED_WEIGHTS)
            return mani_BuildResult(mani_errorLimit, maniBuildReasonNetwork, item, k);
        bytes += mani_LearnedLayerBytes(l->inputs, l->outputs, format);
        previous = l->outputs;
    }
    /* The values, once every shape is known to fit. */
    for (uint32_t k = 0; k < net->layerCount; ++k) {
        const maniLearnedLayerSource* l = &net->layers[k];
        if (!mani_LearnedAllFinite(l->weights, (uint64_t)l->inputs * l->outputs) ||
            !mani_LearnedAllFinite(l->biases, l->outputs))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonNetwork, item, k);
    }
    const uint32_t norm = net->layerCount;
    if (net->inputOffsets == NULL || net->inputScales == NULL || net->outputOffsets == NULL ||
        net->outputScales == NULL || !mani_LearnedAllFinite(net->inputOffsets, in) ||
        !mani_LearnedAllFinite(net->inputScales, in) || !mani_LearnedAllFinite(net->outputOffsets, out) ||
        !mani_LearnedAllFinite(net->outputScales, out))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNetwork, item, norm);
    for (uint64_t j = 0; j < in; ++j)
        if (!(net->inputScales[j] > 0)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNetwork, item, norm);
    *layersOut += net->layerCount;
    *bytesOut += bytes;
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

/* Checks a list of names (list the list bit). */
static maniBuildResult mani_LearnedCheckNames(const maniLearnedNameSource* names, uint32_t count, uint32_t list,
                                              uint64_t* bytesOut) {
    for (uint32_t i = 0; i < count; ++i) {
        const maniLearnedNameSource* n = &names[i];
        if (n->length > MANI_MAX_NAME_BYTES) return mani_BuildResult(mani_errorLimit, list | maniBuildReasonName, i, 0);
        if (n->name == NULL || n->length == 0 || mcore_Utf8Check((const uint8_t*)n->name, n->length) != n->length)
            return mani_BuildResult(mani_errorInvalid, list | maniBuildReasonName, i, 0);
        for (uint32_t k = 0; k < i; ++k)
            if (names[k].length == n->length && memcmp(names[k].name, n->name, n->length) == 0)
                return mani_BuildResult(mani_errorInvalid, list | maniBuildReasonDuplicateName, i, k);
        *bytesOut += n->length;
    }
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

/* Writes a network's parameters at p; returns the end. */
static uint8_t* mani_LearnedWriteNetwork(uint8_t* p, const maniLearnedNetworkSource* net, uint64_t in, uint64_t out,
                                         uint32_t format) {
    for (uint64_t j = 0; j < in; ++j) mcore_WriteF32(p + 4u * j, net->inputOffsets[j]);
    for (uint64_t j = 0; j < in; ++j) mcore_WriteF32(p + 4u * (in + j), net->inputScales[j]);
    p += 8u * in;
    for (uint32_t k = 0; k < net->layerCount; ++k) {
        const maniLearnedLayerSource* l = &net->layers[k];
        const uint64_t li = l->inputs, lo = l->outputs;
        for (uint64_t i = 0; i < lo; ++i) mcore_WriteF32(p + 4u * i, l->biases[i]);
        p += 4u * lo;
        if (format == maniLearnedWeights16) {
            uint8_t* scales = p;
            uint8_t* w = p + 4u * li;
            for (uint64_t j = 0; j < li; ++j) {
                float largest = 0.0f;
                for (uint64_t i = 0; i < lo; ++i) {
                    const float a = fabsf(l->weights[i * li + j]);
                    if (a > largest) largest = a;
                }
                const float scale = largest / 32767.0f;
                mcore_WriteF32(scales + 4u * j, scale);
                for (uint64_t i = 0; i < lo; ++i) {
                    float q = 0.0f;
                    if (scale > 0.0f) {
                        q = nearbyintf(l->weights[i * li + j] / scale); /* the default mode: nearest, ties to even */
                        if (q > 32767.0f) q = 32767.0f;
                        if (q < -32767.0f) q = -32767.0f;
                    }
                    const uint16_t bits = (uint16_t)(int16_t)q;
                    w[2u * (i * li + j)] = (uint8_t)bits;
                    w[2u * (i * li + j) + 1] = (uint8_t)(bits >> 8);
                }
            }
            p = w + ((2u * li * lo + 3u) & ~(uint64_t)3u);
        } else {
            for (uint64_t i = 0; i < li * lo; ++i) mcore_WriteF32(p + 4u * i, l->weights[i]);
            p += 4u * li * lo;
        }
    }
    for (uint64_t i = 0; i < out; ++i) mcore_WriteF32(p + 4u * i, net->outputOffsets[i]);
    for (uint64_t i = 0; i < out; ++i) mcore_WriteF32(p + 4u * (out + i), net->outputScales[i]);
    return p + 8u * out;
}

maniBuildResult maniBuildLearnedModel(maniBuilder* builder, const maniLearnedModelSource* source) {
    maniBuildResult entered = mani_BuildEnter(builder, source);
    if (entered.result != mani_success) return entered;
    const maniLearnedModelSource* s = source;
    if (s->stepRate > MANI_MAX_LEARNED_RATE) return mani_BuildResult(mani_errorLimit, maniBuildReasonTiming, 0, 0);
    if (!(s->stepRate > 0) || !isfinite(s->stepRate))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonTiming, 0, 0);
    if (s->latentCount > MANI_MAX_LEARNED_LATENT) return mani_BuildResult(mani_errorLimit, maniBuildReasonOption, 0, 0);
    if (s->latentCount == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, 0, 0);
    if (s->weightFormat > maniLearnedWeights16) return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, 1, 0);
    if (s->projectorCount > MANI_MAX_LEARNED_PROJECTORS || s->floatTrackCount > MANI_MAX_LEARNED_FLOAT_TRACKS ||
        s->eventCount > MANI_MAX_LEARNED_EVENTS)
        return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, 0, 0);
    if (s->projectorCount == 0 || s->projectors == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    if ((s->floatTrackCount > 0 && s->floatTracks == NULL) || (s->eventCount > 0 && s->events == NULL))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    const uint32_t bones = maniSkeleton_GetBoneCount(s->skeleton);
    if (bones == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, 0, 0);
    const uint64_t skeletonIdentity = maniSkeleton_GetIdentity(s->skeleton);
    const maniMotionDatabase* db = s->database;
    if (maniMotionDatabase_GetIdentity(db) == 0 || maniMotionDatabase_GetSkeletonIdentity(db) != skeletonIdentity)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
    if (s->boneScales == NULL) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, 0, 0);
    for (uint32_t i = 0; i < bones; ++i)
        if (!mani_LearnedAllFinite(s->boneScales + 3u * (size_t)i, 3))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, i, 0);
    if (s->scaledBoneCount > 0 && s->scaledBones == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, 0, 0);
    for (uint32_t i = 0; i < s->scaledBoneCount; ++i)
        if (s->scaledBones[i] >= bones || (i > 0 && s->scaledBones[i] <= s->scaledBones[i - 1]))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, i, 0);
    uint64_t namesSize = 0;
    maniBuildResult r = mani_LearnedCheckNames(s->floatTracks, s->floatTrackCount, maniBuildReasonFloatTrack, &namesSize);
    if (r.result != mani_success) return r;
    r = mani_LearnedCheckNames(s->events, s->eventCount, maniBuildReasonEvent, &namesSize);
    if (r.result != mani_success) return r;
    /* Networks. */
    const uint64_t f = db->featureCount, state = f + s->latentCount;
    const uint64_t decoded = mani_LearnedDecompressorOutputs(bones, s->scaledBoneCount, s->floatTrackCount, s->eventCount);
    uint64_t layers = 0, params = 0;
    r = mani_LearnedCheckNetwork(&s->decompressor, 0, state, decoded, s->weightFormat, &layers, &params);
    if (r.result != mani_success) return r;
    r = mani_LearnedCheckNetwork(&s->stepper, 1, state, state, s->weightFormat, &layers, &params);
    if (r.result != mani_success) return r;
    for (uint32_t p = 0; p < s->projectorCount; ++p) {
        r = mani_LearnedCheckNetwork(&s->projectors[p].network, 2u + p, f, state, s->weightFormat, &layers, &params);
        if (r.result != mani_success) return r;
    }
    if (decoded > MANI_MAX_LEARNED_WIDTH) return mani_BuildResult(mani_errorLimit, maniBuildReasonNetwork, 0, 0);
    const uint32_t networks = 2u + s->projectorCount, names = s->floatTrackCount + s->eventCount;
    const uint64_t sizes[MANI_LEARNED_SECTION_COUNT] = {MANI_LEARNED_INFO_SIZE,
                                                        (uint64_t)MANI_MATCH_CHANNEL_SIZE * db->channelCount,
                                                        8u * f,
                                                        12u * (uint64_t)bones,
                                                        4u * (uint64_t)s->scaledBoneCount,
                                                        8u * (uint64_t)names,
                                                        namesSize,
                                                        (uint64_t)MANI_LEARNED_NETWORK_SIZE * networks,
                                                        MANI_LEARNED_LAYER_SIZE * layers,
                                                        params};
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniLearnedSections, sizes, MANI_LEARNED_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, 64);
    if (file == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    uint8_t* info = file + sec[0].offset;
    mcore_WriteU64(info, skeletonIdentity);
    mcore_WriteU64(info + 8, maniMotionDatabase_GetIdentity(db));
    mcore_WriteU32(info + 16, bones);
    mcore_WriteU32(info + 20, (uint32_t)f);
    mcore_WriteU32(info + 24, s->latentCount);
    mcore_WriteU32(info + 28, db->channelCount);
    mcore_WriteU32(info + 32, s->projectorCount);
    mcore_WriteU32(info + 36, s->floatTrackCount);
    mcore_WriteU32(info + 40, s->eventCount);
    mcore_WriteU32(info + 44, s->scaledBoneCount);
    mcore_WriteU32(info + 48, s->weightFormat);
    mcore_WriteU32(info + 52, db->upAxis);
    mcore_WriteU32(info + 56, db->forwardAxis);
    mcore_WriteF32(info + 60, s->stepRate);
    mcore_WriteU32(info + 64, (uint32_t)namesSize);
    mcore_WriteU32(info + 68, (uint32_t)layers);
    for (uint32_t i = 0; i < db->channelCount; ++i) {
        maniMatchChannel ch;
        if (maniMotionDatabase_GetChannel(db, i, &ch) != mani_success) {
            mani_BuilderFree(builder, file, (size_t)layout.totalSize);
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
        }
        uint8_t* at = file + sec[1].offset + (uint64_t)MANI_MATCH_CHANNEL_SIZE * i;
        mcore_WriteU32(at, ch.kind);
        mcore_WriteU32(at + 4, ch.bone);
        mcore_WriteU32(at + 8, ch.timeCount);
        mcore_WriteU32(at + 12, ch.firstFeature);
        mcore_WriteU32(at + 16, ch.featureCount);
        mcore_WriteF32(at + 20, ch.weight);
        for (uint32_t k = 0; k < ch.timeCount && k < MANI_MAX_MATCH_TIMES; ++k) mcore_WriteF32(at + 32 + 4u * k, ch.times[k]);
    }
    uint32_t fc = 0;
    if (maniMotionDatabase_GetNormalization(db, (float*)(void*)(file + sec[2].offset),
                                            (float*)(void*)(file + sec[2].offset + 4u * f), (uint32_t)f, &fc) !=
            mani_success ||
        fc != f) {
        mani_BuilderFree(builder, file, (size_t)layout.totalSize);
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
    }
    for (uint64_t i = 0; i < 3u * (uint64_t)bones; ++i) mcore_WriteF32(file + sec[3].offset + 4u * i, s->boneScales[i]);
    for (uint32_t i = 0; i < s->scaledBoneCount; ++i) mcore_WriteU32(file + sec[4].offset + 4u * i, s->scaledBones[i]);
    uint32_t nameAt = 0;
    for (uint32_t i = 0; i < names; ++i) {
        const maniLearnedNameSource* n = i < s->floatTrackCount ? &s->floatTracks[i] : &s->events[i - s->floatTrackCount];
        mcore_WriteU32(file + sec[5].offset + 8u * i, nameAt);
        mcore_WriteU32(file + sec[5].offset + 8u * i + 4, (uint32_t)n->length);
        memcpy(file + sec[6].offset + nameAt, n->name, n->length);
        nameAt += (uint32_t)n->length;
    }
    uint8_t* p = file + sec[9].offset;
    uint32_t layer = 0;
    for (uint32_t n = 0; n < networks; ++n) {
        const maniLearnedNetworkSource* net =
            n == 0 ? &s->decompressor : n == 1 ? &s->stepper : &s->projectors[n - 2].network;
        uint8_t* at = file + sec[7].offset + (uint64_t)MANI_LEARNED_NETWORK_SIZE * n;
        mcore_WriteU32(at, net->layerCount);
        if (n >= 2) {
            mcore_WriteU32(at + 4, s->projectors[n - 2].requiredTags);
            mcore_WriteU32(at + 8, s->projectors[n - 2].excludedTags);
        }
        for (uint32_t k = 0; k < net->layerCount; ++k, ++layer) {
            mcore_WriteU32(file + sec[8].offset + MANI_LEARNED_LAYER_SIZE * layer, net->layers[k].inputs);
            mcore_WriteU32(file + sec[8].offset + MANI_LEARNED_LAYER_SIZE * layer + 4, net->layers[k].outputs);
        }
        const uint64_t in = n >= 2 ? f : state, out = n == 0 ? decoded : state;
        p = mani_LearnedWriteNetwork(p, net, in, out, s->weightFormat);
    }
    mcore_FinishContainer(file, &layout, mcore_kindLearnedModel, mcore_formatLearnedModelLatest, MANI_ABI_VERSION);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
