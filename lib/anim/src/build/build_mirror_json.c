/* maniWriteMirrorMapJson and maniBuildMirrorMapJson: a mirror map source's
 * JSON text form (mirrorbuild.h), written and read with lib/core/json. */
#include <string.h>

#include "lib/anim/src/build/form_json_internal.h"
#include "maul/anim/mirrorbuild.h"

#define MANI_MIRROR_FORM_NAME "maul-anim mirror map"
#define MANI_MIRROR_FORM_VERSION 1u

static const char* const maniMirrorAxisNames[3] = {"x", "y", "z"};
static const char* const maniMirrorPlaceNames[3] = {"prefix", "suffix", "anywhere"};

/* -- Writing ---------------------------------------------------------------------- */

/* The text's own steps, once the map built (and the builder holds it). */
static maniBuildResult mani_WriteMirrorText(maniBuilder* builder, const maniMirrorMapSource* source) {
    const maniSkeleton* s = source->skeleton;
    const mcore_JsonAllocator allocator = mani_FormAllocator(builder);
    mcore_JsonWriter w;
    mcore_JsonWriterInit(&w, NULL, 0, &allocator);
    mcore_JsonWriteBeginObject(&w);
    mani_FormWriteKeyString(&w, "format", MANI_MIRROR_FORM_NAME, strlen(MANI_MIRROR_FORM_NAME));
    mcore_JsonWriteKey(&w, "version", 7);
    mcore_JsonWriteUint64(&w, MANI_MIRROR_FORM_VERSION);
    mani_FormWriteKeyString(&w, "axis", maniMirrorAxisNames[source->axis], 1);
    mcore_JsonWriteKey(&w, "reference", 9);
    mcore_JsonWriteBeginArray(&w);
    const uint32_t n = maniSkeleton_GetBoneCount(s);
    for (uint32_t i = 0; source->reference != NULL && i < n; ++i) {
        const maniTransform rest = maniSkeleton_GetRest(s, i);
        const maniTransform* t = &source->reference[i];
        if (memcmp(&rest, t, sizeof rest) == 0) continue;
        mcore_JsonWriteBeginObject(&w);
        mani_FormWriteBoneName(&w, "bone", s, i);
        mani_FormWriteFloats(&w, "translation", &t->translation.x, 3);
        mani_FormWriteFloats(&w, "rotation", &t->rotation.x, 4);
        mani_FormWriteFloats(&w, "scale", &t->scale.x, 3);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "pairs", 5);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t k = 0; k < source->pairCount; ++k) {
        mcore_JsonWriteBeginObject(&w);
        mani_FormWriteBoneName(&w, "bone", s, source->pairs[k].bone);
        mani_FormWriteBoneName(&w, "partner", s, source->pairs[k].partner);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "rules", 5);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t k = 0; k < source->ruleCount; ++k) {
        const maniMirrorRule* r = &source->rules[k];
        mcore_JsonWriteBeginObject(&w);
        mani_FormWriteKeyString(&w, "find", r->find, r->findLength);
        mani_FormWriteKeyString(&w, "place", maniMirrorPlaceNames[r->place], strlen(maniMirrorPlaceNames[r->place]));
        mani_FormWriteKeyString(&w, "replace", r->replaceLength ? r->replace : "", r->replaceLength);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "namePairs", 9);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t k = 0; k < source->namePairCount; ++k) {
        const maniMirrorNamePair* p = &source->namePairs[k];
        mcore_JsonWriteBeginObject(&w);
        mani_FormWriteKeyString(&w, "name", p->name, p->nameLength);
        mani_FormWriteKeyString(&w, "partner", p->partner, p->partnerLength);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "names", 5);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t k = 0; k < source->nameCount; ++k) mcore_JsonWriteString(&w, source->names[k].name, source->names[k].length);
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteEndObject(&w);
    return mani_FormKeepText(builder, &w);
}

maniBuildResult maniWriteMirrorMapJson(maniBuilder* builder, const maniMirrorMapSource* source) {
    /* "On failure the builder keeps what it held" (mirrorbuild.h): the map
     * is built with the held file taken out, so a text that then runs out of
     * memory gives the held file back rather than leaving the map. */
    if (builder == NULL || builder->busy || builder->destroying) return maniBuildMirrorMap(builder, source);
    mani_BuilderHeld held;
    mani_BuilderTakeHeld(builder, &held);
    maniBuildResult r = maniBuildMirrorMap(builder, source);
    if (r.result == mani_success) r = mani_WriteMirrorText(builder, source);
    if (r.result == mani_success) {
        mani_BuilderDropTaken(builder, &held);
    } else {
        mani_BuilderPutBack(builder, &held);
    }
    return r;
}

/* -- Reading ---------------------------------------------------------------------- */

typedef struct {
    mani_FormReader f;
    const maniSkeleton* skeleton;
    maniTransform* reference;
    uint32_t* referencePlace; /* bone -> its place in "reference", or MANI_NO_BONE */
    maniMirrorBonePair* pairs;
    maniMirrorRule* rules;
    maniMirrorNamePair* namePairs;
    maniMirrorName* names;
    uint32_t n, pairCount, ruleCount, namePairCount, nameCount;
} mani_MirrorReader;

static const mcore_JsonFormKey maniMirrorTopForm[8] = {
    {"format", MCORE_JSON_TAKES_STRING, 1},   {"version", MCORE_JSON_TAKES_NUMBER, 1},
    {"axis", MCORE_JSON_TAKES_STRING, 1},     {"reference", MCORE_JSON_TAKES_ARRAY, 0},
    {"pairs", MCORE_JSON_TAKES_ARRAY, 0},     {"rules", MCORE_JSON_TAKES_ARRAY, 0},
    {"namePairs", MCORE_JSON_TAKES_ARRAY, 0}, {"names", MCORE_JSON_TAKES_ARRAY, 0},
};
static const mcore_JsonFormKey maniMirrorReferenceForm[4] = {
    {"bone", MCORE_JSON_TAKES_STRING, 1},
    {"translation", MCORE_JSON_TAKES_ARRAY, 0},
    {"rotation", MCORE_JSON_TAKES_ARRAY, 0},
    {"scale", MCORE_JSON_TAKES_ARRAY, 0},
};
static const mcore_JsonFormKey maniMirrorPairForm[2] = {
    {"bone", MCORE_JSON_TAKES_STRING, 1},
    {"partner", MCORE_JSON_TAKES_STRING, 1},
};
static const mcore_JsonFormKey maniMirrorRuleForm[3] = {
    {"find", MCORE_JSON_TAKES_STRING, 1},
    {"place", MCORE_JSON_TAKES_STRING, 1},
    {"replace", MCORE_JSON_TAKES_STRING, 1},
};
static const mcore_JsonFormKey maniMirrorNamePairForm[2] = {
    {"name", MCORE_JSON_TAKES_STRING, 1},
    {"partner", MCORE_JSON_TAKES_STRING, 1},
};

static void mani_FreeReader(mani_MirrorReader* rd, uint32_t listCounts[5]) {
    maniBuilder* b = rd->f.builder;
    if (rd->f.arenaSize) mani_BuilderFree(b, rd->f.arena, rd->f.arenaSize);
    mani_BuilderFree(b, rd->reference, (size_t)rd->n * sizeof(maniTransform));
    mani_BuilderFree(b, rd->referencePlace, (size_t)rd->n * sizeof(uint32_t));
    if (listCounts[1]) mani_BuilderFree(b, rd->pairs, listCounts[1] * sizeof(maniMirrorBonePair));
    if (listCounts[2]) mani_BuilderFree(b, rd->rules, listCounts[2] * sizeof(maniMirrorRule));
    if (listCounts[3]) mani_BuilderFree(b, rd->namePairs, listCounts[3] * sizeof(maniMirrorNamePair));
    if (listCounts[4]) mani_BuilderFree(b, rd->names, listCounts[4] * sizeof(maniMirrorName));
    mcore_JsonRelease(&rd->f.doc);
}

/* Reads every list of the text into the reader's source parts. */
static maniBuildResult mani_ReadMirrorLists(mani_MirrorReader* rd, const uint32_t* top) {
    maniBuildResult r = mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
    /* Reference entries. */
    if (top[3] != MCORE_JSON_NONE) {
        uint32_t item = top[3] + 1;
        for (uint32_t k = 0; k < mani_FormToken(&rd->f, top[3])->count; ++k) {
            uint32_t f[4];
            if ((r = mani_FormRead(&rd->f, item, maniMirrorReferenceForm, 4, f)).result != mani_success) return r;
            uint32_t bone;
            if ((r = mani_FormReadBone(&rd->f, rd->skeleton, f[0], &bone)).result != mani_success) return r;
            if (rd->referencePlace[bone] != MANI_NO_BONE)
                return mani_FormRefusal(mani_errorInvalid, maniGraphFormDuplicate, mani_FormAt(&rd->f, f[0]));
            rd->referencePlace[bone] = k;
            maniTransform* t = &rd->reference[bone];
            if (f[1] != MCORE_JSON_NONE && (r = mani_FormReadFloats(&rd->f, f[1], &t->translation.x, 3)).result != mani_success) return r;
            if (f[2] != MCORE_JSON_NONE && (r = mani_FormReadFloats(&rd->f, f[2], &t->rotation.x, 4)).result != mani_success) return r;
            if (f[3] != MCORE_JSON_NONE && (r = mani_FormReadFloats(&rd->f, f[3], &t->scale.x, 3)).result != mani_success) return r;
            item = mani_FormToken(&rd->f, item)->next;
        }
    }
    if (top[4] != MCORE_JSON_NONE) {
        uint32_t item = top[4] + 1;
        for (uint32_t k = 0; k < rd->pairCount; ++k) {
            uint32_t f[2];
            if ((r = mani_FormRead(&rd->f, item, maniMirrorPairForm, 2, f)).result != mani_success) return r;
            if ((r = mani_FormReadBone(&rd->f, rd->skeleton, f[0], &rd->pairs[k].bone)).result != mani_success) return r;
            if ((r = mani_FormReadBone(&rd->f, rd->skeleton, f[1], &rd->pairs[k].partner)).result != mani_success) return r;
            item = mani_FormToken(&rd->f, item)->next;
        }
    }
    if (top[5] != MCORE_JSON_NONE) {
        uint32_t item = top[5] + 1;
        for (uint32_t k = 0; k < rd->ruleCount; ++k) {
            uint32_t f[3];
            maniMirrorRule* rule = &rd->rules[k];
            if ((r = mani_FormRead(&rd->f, item, maniMirrorRuleForm, 3, f)).result != mani_success) return r;
            if ((r = mani_FormReadString(&rd->f, f[0], &rule->find, &rule->findLength)).result != mani_success) return r;
            if ((r = mani_FormReadKeyword(&rd->f, f[1], maniMirrorPlaceNames, 3, &rule->place)).result != mani_success) return r;
            if ((r = mani_FormReadString(&rd->f, f[2], &rule->replace, &rule->replaceLength)).result != mani_success) return r;
            item = mani_FormToken(&rd->f, item)->next;
        }
    }
    if (top[6] != MCORE_JSON_NONE) {
        uint32_t item = top[6] + 1;
        for (uint32_t k = 0; k < rd->namePairCount; ++k) {
            uint32_t f[2];
            maniMirrorNamePair* p = &rd->namePairs[k];
            if ((r = mani_FormRead(&rd->f, item, maniMirrorNamePairForm, 2, f)).result != mani_success) return r;
            if ((r = mani_FormReadString(&rd->f, f[0], &p->name, &p->nameLength)).result != mani_success) return r;
            if ((r = mani_FormReadString(&rd->f, f[1], &p->partner, &p->partnerLength)).result != mani_success) return r;
            item = mani_FormToken(&rd->f, item)->next;
        }
    }
    if (top[7] != MCORE_JSON_NONE) {
        uint32_t item = top[7] + 1;
        for (uint32_t k = 0; k < rd->nameCount; ++k) {
            if ((r = mani_FormReadString(&rd->f, item, &rd->names[k].name, &rd->names[k].length)).result != mani_success) return r;
            item = mani_FormToken(&rd->f, item)->next;
        }
    }
    return r;
}

maniBuildResult maniBuildMirrorMapJson(maniBuilder* builder, const char* text, size_t length, const maniSkeleton* skeleton) {
    if (builder == NULL || skeleton == NULL || (text == NULL && length != 0))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    const maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_BuildResult(entered, maniBuildReasonNone, 0, 0);
    const uint32_t n = maniSkeleton_GetBoneCount(skeleton);
    if (n == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);

    mani_MirrorReader rd;
    memset(&rd, 0, sizeof rd);
    rd.f.builder = builder;
    rd.skeleton = skeleton;
    const mcore_JsonAllocator allocator = mani_FormAllocator(builder);
    const mcore_JsonResult parsed = mcore_JsonReadAlloc((const uint8_t*)(text ? text : ""), length, &allocator, &rd.f.doc);
    if (parsed.reason == mcore_jsonCapacity) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    if (parsed.reason != mcore_jsonOk) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJson, parsed.offset, 0);

    uint32_t counts[5] = {0, 0, 0, 0, 0};
    uint32_t top[8];
    maniBuildResult r = mani_FormRead(&rd.f, 0, maniMirrorTopForm, 8, top);
    if (r.result != mani_success) {
        mani_FreeReader(&rd, counts);
        return r;
    }
    /* The format and version first: another version's members are not
     * judged by this one's form. */
    if (!mcore_JsonStringEquals(&rd.f.doc, top[0], MANI_MIRROR_FORM_NAME, strlen(MANI_MIRROR_FORM_NAME))) {
        r = mani_FormRefusal(mani_errorInvalid, maniGraphFormFormat, mani_FormAt(&rd.f, top[0]));
    } else {
        uint64_t version = 0;
        if (mcore_JsonGetUint64(&rd.f.doc, top[1], &version) != mcore_jsonOk || version != MANI_MIRROR_FORM_VERSION)
            r = mani_FormRefusal(mani_errorVersion, maniGraphFormVersion, mani_FormAt(&rd.f, top[1]));
    }
    uint32_t axis = 0;
    if (r.result == mani_success) r = mani_FormReadKeyword(&rd.f, top[2], maniMirrorAxisNames, 3, &axis);
    if (r.result != mani_success) {
        mani_FreeReader(&rd, counts);
        return r;
    }
    for (uint32_t k = 0; k < 5; ++k) counts[k] = top[3 + k] == MCORE_JSON_NONE ? 0 : mani_FormToken(&rd.f, top[3 + k])->count;
    int failed = 0;
    rd.n = n;
    rd.f.arenaSize = length;
    rd.f.arena = (char*)mani_FormAlloc(&rd.f, length, 1, &failed);
    rd.reference = (maniTransform*)mani_FormAlloc(&rd.f, n, sizeof(maniTransform), &failed);
    rd.referencePlace = (uint32_t*)mani_FormAlloc(&rd.f, n, sizeof(uint32_t), &failed);
    rd.pairs = (maniMirrorBonePair*)mani_FormAlloc(&rd.f, counts[1], sizeof(maniMirrorBonePair), &failed);
    rd.rules = (maniMirrorRule*)mani_FormAlloc(&rd.f, counts[2], sizeof(maniMirrorRule), &failed);
    rd.namePairs = (maniMirrorNamePair*)mani_FormAlloc(&rd.f, counts[3], sizeof(maniMirrorNamePair), &failed);
    rd.names = (maniMirrorName*)mani_FormAlloc(&rd.f, counts[4], sizeof(maniMirrorName), &failed);
    if (failed) {
        if (!rd.f.arena) rd.f.arenaSize = 0;
        if (!rd.reference || !rd.referencePlace) {
            /* free only what was allocated */
            if (rd.reference) mani_BuilderFree(builder, rd.reference, (size_t)n * sizeof(maniTransform));
            if (rd.referencePlace) mani_BuilderFree(builder, rd.referencePlace, (size_t)n * sizeof(uint32_t));
            rd.reference = NULL;
            rd.referencePlace = NULL;
        }
        uint32_t allocated[5] = {0, rd.pairs ? counts[1] : 0, rd.rules ? counts[2] : 0, rd.namePairs ? counts[3] : 0,
                                 rd.names ? counts[4] : 0};
        mani_FreeReader(&rd, allocated);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    rd.pairCount = counts[1];
    rd.ruleCount = counts[2];
    rd.namePairCount = counts[3];
    rd.nameCount = counts[4];
    for (uint32_t i = 0; i < n; ++i) {
        rd.reference[i] = maniSkeleton_GetRest(skeleton, i);
        rd.referencePlace[i] = MANI_NO_BONE;
    }
    r = mani_ReadMirrorLists(&rd, top);
    if (r.result == mani_success) {
        maniMirrorMapSource src;
        memset(&src, 0, sizeof src);
        src.skeleton = skeleton;
        src.axis = axis;
        src.reference = rd.reference;
        src.pairs = rd.pairs;
        src.pairCount = rd.pairCount;
        src.rules = rd.rules;
        src.ruleCount = rd.ruleCount;
        src.namePairs = rd.namePairs;
        src.namePairCount = rd.namePairCount;
        src.names = rd.names;
        src.nameCount = rd.nameCount;
        r = maniBuildMirrorMap(builder, &src);
        /* Items by place in the text's lists. */
        if (r.reason == maniBuildReasonMirrorReference && r.item < n) r.item = rd.referencePlace[r.item];
        if (r.reason == maniBuildReasonMirrorPair) {
            for (uint32_t k = 0; k < rd.pairCount; ++k)
                if (rd.pairs[k].bone == r.item && rd.pairs[k].partner == r.other) {
                    r.item = k;
                    r.other = 0;
                    break;
                }
        }
    }
    mani_FreeReader(&rd, counts);
    return r;
}
