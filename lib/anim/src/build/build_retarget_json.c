/* maniWriteRetargetMapJson and maniBuildRetargetMapJson: a retarget map
 * source's JSON text form (retargetbuild.h), written and read with
 * lib/core/json through form_json_internal.h. */
#include <string.h>

#include "lib/anim/src/build/form_json_internal.h"
#include "maul/anim/retargetbuild.h"

#define MANI_RETARGET_FORM_NAME "maul-anim retarget map"
#define MANI_RETARGET_FORM_VERSION 1u

static const char* const maniRetargetTranslationNames[3] = {"own", "scaled", "absolute"};
static const char* const maniRetargetChainNames[4] = {"none", "interpolated", "oneToOne", "oneToOneReversed"};

/* -- Writing ---------------------------------------------------------------------- */

static void mani_WriteFloat(mcore_JsonWriter* w, const char* key, float v) {
    mcore_JsonWriteKey(w, key, strlen(key));
    mcore_JsonWriteFloat(w, v);
}

static void mani_WriteWord(mcore_JsonWriter* w, const char* key, const char* word) {
    mani_FormWriteKeyString(w, key, word, strlen(word));
}

static void mani_WriteReference(mcore_JsonWriter* w, const char* key, const maniSkeleton* s, const maniTransform* list) {
    mcore_JsonWriteKey(w, key, strlen(key));
    mcore_JsonWriteBeginArray(w);
    const uint32_t n = maniSkeleton_GetBoneCount(s);
    for (uint32_t i = 0; list != NULL && i < n; ++i) {
        const maniTransform rest = maniSkeleton_GetRest(s, i);
        const maniTransform* t = &list[i];
        if (memcmp(&rest, t, sizeof rest) == 0) continue;
        mcore_JsonWriteBeginObject(w);
        mani_FormWriteBoneName(w, "bone", s, i);
        mani_FormWriteFloats(w, "translation", &t->translation.x, 3);
        mani_FormWriteFloats(w, "rotation", &t->rotation.x, 4);
        mani_FormWriteFloats(w, "scale", &t->scale.x, 3);
        mcore_JsonWriteEndObject(w);
    }
    mcore_JsonWriteEndArray(w);
}

/* The text's own steps, once the map built (and the builder holds it). */
static maniBuildResult mani_WriteRetargetText(maniBuilder* builder, const maniRetargetMapSource* source) {
    const maniSkeleton* S = source->source;
    const maniSkeleton* T = source->target;
    const mcore_JsonAllocator allocator = mani_FormAllocator(builder);
    mcore_JsonWriter w;
    mcore_JsonWriterInit(&w, NULL, 0, &allocator);
    mcore_JsonWriteBeginObject(&w);
    mani_FormWriteKeyString(&w, "format", MANI_RETARGET_FORM_NAME, strlen(MANI_RETARGET_FORM_NAME));
    mcore_JsonWriteKey(&w, "version", 7);
    mcore_JsonWriteUint64(&w, MANI_RETARGET_FORM_VERSION);
    mani_WriteReference(&w, "sourceReference", S, source->sourceReference);
    mani_WriteReference(&w, "targetReference", T, source->targetReference);
    mcore_JsonWriteKey(&w, "pairs", 5);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t k = 0; k < source->pairCount; ++k) {
        const maniRetargetPair* p = &source->pairs[k];
        mcore_JsonWriteBeginObject(&w);
        mani_FormWriteBoneName(&w, "source", S, p->sourceBone);
        mani_FormWriteBoneName(&w, "target", T, p->targetBone);
        mani_WriteFloat(&w, "weight", p->weight);
        mani_WriteWord(&w, "translation", maniRetargetTranslationNames[p->translation]);
        mani_FormWriteBool(&w, "scale", p->scale);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "chains", 6);
    mcore_JsonWriteBeginArray(&w);
    for (uint32_t k = 0; k < source->chainCount; ++k) {
        const maniRetargetChain* c = &source->chains[k];
        mcore_JsonWriteBeginObject(&w);
        mani_FormWriteBoneName(&w, "sourceStart", S, c->sourceStart);
        mani_FormWriteBoneName(&w, "sourceEnd", S, c->sourceEnd);
        mani_FormWriteBoneName(&w, "targetStart", T, c->targetStart);
        mani_FormWriteBoneName(&w, "targetEnd", T, c->targetEnd);
        mani_WriteWord(&w, "mode", maniRetargetChainNames[c->mode]);
        mani_WriteWord(&w, "translation", maniRetargetTranslationNames[c->translation]);
        mani_WriteFloat(&w, "weight", c->weight);
        mani_FormWriteBool(&w, "scale", c->scale);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteKey(&w, "pelvis", 6);
    if (source->pelvis == NULL) {
        mcore_JsonWriteNull(&w);
    } else {
        const maniRetargetPelvis* p = source->pelvis;
        mcore_JsonWriteBeginObject(&w);
        mani_FormWriteBoneName(&w, "source", S, p->sourceBone);
        mani_FormWriteBoneName(&w, "target", T, p->targetBone);
        mani_FormWriteFloats(&w, "up", &p->up.x, 3);
        mani_WriteFloat(&w, "horizontalFactor", p->horizontalFactor);
        mani_WriteFloat(&w, "verticalFactor", p->verticalFactor);
        mani_FormWriteFloats(&w, "absolute", &p->absolute.x, 3);
        mani_FormWriteFloats(&w, "toSource", &p->toSource.x, 3);
        mani_WriteFloat(&w, "weight", p->weight);
        mcore_JsonWriteEndObject(&w);
    }
    mani_FormWriteBool(&w, "matchNames", source->matchNames);
    mcore_JsonWriteEndObject(&w);
    return mani_FormKeepText(builder, &w);
}

maniBuildResult maniWriteRetargetMapJson(maniBuilder* builder, const maniRetargetMapSource* source) {
    /* "On failure the builder keeps what it held" (retargetbuild.h): the map
     * is built with the held file taken out, so a text that then runs out of
     * memory gives the held file back rather than leaving the map. */
    if (builder == NULL || builder->busy || builder->destroying) return maniBuildRetargetMap(builder, source);
    mani_BuilderHeld held;
    mani_BuilderTakeHeld(builder, &held);
    maniBuildResult r = maniBuildRetargetMap(builder, source);
    if (r.result == mani_success) r = mani_WriteRetargetText(builder, source);
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
    const maniSkeleton* skeletons[2];   /* the source, the target */
    maniTransform* reference[2];        /* per bone of each */
    uint32_t* place[2];                 /* bone -> its place in its reference list, or MANI_NO_BONE */
    uint32_t n[2];
    maniRetargetPair* pairs;
    maniRetargetChain* chains;
    uint32_t pairCount, chainCount;
    maniRetargetPelvis pelvis;
    int hasPelvis;
    bool matchNames;
} mani_RetargetReader;

static const mcore_JsonFormKey maniRetargetTopForm[8] = {
    {"format", MCORE_JSON_TAKES_STRING, 1},
    {"version", MCORE_JSON_TAKES_NUMBER, 1},
    {"sourceReference", MCORE_JSON_TAKES_ARRAY, 0},
    {"targetReference", MCORE_JSON_TAKES_ARRAY, 0},
    {"pairs", MCORE_JSON_TAKES_ARRAY, 0},
    {"chains", MCORE_JSON_TAKES_ARRAY, 0},
    {"pelvis", MCORE_JSON_TAKES_OBJECT | MCORE_JSON_TAKES_NULL, 0},
    {"matchNames", MCORE_JSON_TAKES_BOOL, 0},
};
static const mcore_JsonFormKey maniRetargetReferenceForm[4] = {
    {"bone", MCORE_JSON_TAKES_STRING, 1},
    {"translation", MCORE_JSON_TAKES_ARRAY, 0},
    {"rotation", MCORE_JSON_TAKES_ARRAY, 0},
    {"scale", MCORE_JSON_TAKES_ARRAY, 0},
};
static const mcore_JsonFormKey maniRetargetPairForm[5] = {
    {"source", MCORE_JSON_TAKES_STRING, 1},      {"target", MCORE_JSON_TAKES_STRING, 1},
    {"weight", MCORE_JSON_TAKES_NUMBER, 1},      {"translation", MCORE_JSON_TAKES_STRING, 0},
    {"scale", MCORE_JSON_TAKES_BOOL, 0},
};
static const mcore_JsonFormKey maniRetargetChainForm[8] = {
    {"sourceStart", MCORE_JSON_TAKES_STRING, 1}, {"sourceEnd", MCORE_JSON_TAKES_STRING, 1},
    {"targetStart", MCORE_JSON_TAKES_STRING, 1}, {"targetEnd", MCORE_JSON_TAKES_STRING, 1},
    {"mode", MCORE_JSON_TAKES_STRING, 1},        {"translation", MCORE_JSON_TAKES_STRING, 0},
    {"weight", MCORE_JSON_TAKES_NUMBER, 1},      {"scale", MCORE_JSON_TAKES_BOOL, 0},
};
static const mcore_JsonFormKey maniRetargetPelvisForm[8] = {
    {"source", MCORE_JSON_TAKES_STRING, 1},          {"target", MCORE_JSON_TAKES_STRING, 1},
    {"up", MCORE_JSON_TAKES_ARRAY, 1},               {"horizontalFactor", MCORE_JSON_TAKES_NUMBER, 1},
    {"verticalFactor", MCORE_JSON_TAKES_NUMBER, 1},  {"absolute", MCORE_JSON_TAKES_ARRAY, 0},
    {"toSource", MCORE_JSON_TAKES_ARRAY, 0},         {"weight", MCORE_JSON_TAKES_NUMBER, 1},
};

static maniBuildResult mani_Ok(void) { return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0); }

static maniBuildResult mani_ReadNumber(mani_FormReader* rd, uint32_t t, float* out) {
    if (mcore_JsonGetFloat(&rd->doc, t, out) != mcore_jsonOk)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormToken(rd, t)->start);
    return mani_Ok();
}

static bool mani_ReadBool(const mani_FormReader* rd, uint32_t t) {
    return t != MCORE_JSON_NONE && mani_FormToken(rd, t)->type == mcore_jsonTrue;
}

static maniBuildResult mani_ReadTranslation(mani_FormReader* rd, uint32_t t, uint32_t* out) {
    *out = maniRetargetTranslationOwn;
    if (t == MCORE_JSON_NONE) return mani_Ok();
    return mani_FormReadKeyword(rd, t, maniRetargetTranslationNames, 3, out);
}

static maniBuildResult mani_ReadReferenceList(mani_RetargetReader* rd, uint32_t list, uint32_t side) {
    maniBuildResult r = mani_Ok();
    if (list == MCORE_JSON_NONE) return r;
    uint32_t item = list + 1;
    for (uint32_t k = 0; k < mani_FormToken(&rd->f, list)->count; ++k) {
        uint32_t f[4];
        if ((r = mani_FormRead(&rd->f, item, maniRetargetReferenceForm, 4, f)).result != mani_success) return r;
        uint32_t bone;
        if ((r = mani_FormReadBone(&rd->f, rd->skeletons[side], f[0], &bone)).result != mani_success) return r;
        if (rd->place[side][bone] != MANI_NO_BONE)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormDuplicate, mani_FormAt(&rd->f, f[0]));
        rd->place[side][bone] = k;
        maniTransform* t = &rd->reference[side][bone];
        if (f[1] != MCORE_JSON_NONE && (r = mani_FormReadFloats(&rd->f, f[1], &t->translation.x, 3)).result != mani_success)
            return r;
        if (f[2] != MCORE_JSON_NONE && (r = mani_FormReadFloats(&rd->f, f[2], &t->rotation.x, 4)).result != mani_success)
            return r;
        if (f[3] != MCORE_JSON_NONE && (r = mani_FormReadFloats(&rd->f, f[3], &t->scale.x, 3)).result != mani_success)
            return r;
        item = mani_FormToken(&rd->f, item)->next;
    }
    return r;
}

static maniBuildResult mani_ReadRetargetLists(mani_RetargetReader* rd, const uint32_t* top) {
    maniBuildResult r = mani_Ok();
    mani_FormReader* fr = &rd->f;
    const maniSkeleton* S = rd->skeletons[0];
    const maniSkeleton* T = rd->skeletons[1];
    if ((r = mani_ReadReferenceList(rd, top[2], 0)).result != mani_success) return r;
    if ((r = mani_ReadReferenceList(rd, top[3], 1)).result != mani_success) return r;
    if (top[4] != MCORE_JSON_NONE) {
        uint32_t item = top[4] + 1;
        for (uint32_t k = 0; k < rd->pairCount; ++k) {
            uint32_t f[5];
            maniRetargetPair* p = &rd->pairs[k];
            if ((r = mani_FormRead(fr, item, maniRetargetPairForm, 5, f)).result != mani_success) return r;
            if ((r = mani_FormReadBone(fr, S, f[0], &p->sourceBone)).result != mani_success) return r;
            if ((r = mani_FormReadBone(fr, T, f[1], &p->targetBone)).result != mani_success) return r;
            if ((r = mani_ReadNumber(fr, f[2], &p->weight)).result != mani_success) return r;
            if ((r = mani_ReadTranslation(fr, f[3], &p->translation)).result != mani_success) return r;
            p->scale = mani_ReadBool(fr, f[4]);
            item = mani_FormToken(fr, item)->next;
        }
    }
    if (top[5] != MCORE_JSON_NONE) {
        uint32_t item = top[5] + 1;
        for (uint32_t k = 0; k < rd->chainCount; ++k) {
            uint32_t f[8];
            maniRetargetChain* c = &rd->chains[k];
            if ((r = mani_FormRead(fr, item, maniRetargetChainForm, 8, f)).result != mani_success) return r;
            if ((r = mani_FormReadBone(fr, S, f[0], &c->sourceStart)).result != mani_success) return r;
            if ((r = mani_FormReadBone(fr, S, f[1], &c->sourceEnd)).result != mani_success) return r;
            if ((r = mani_FormReadBone(fr, T, f[2], &c->targetStart)).result != mani_success) return r;
            if ((r = mani_FormReadBone(fr, T, f[3], &c->targetEnd)).result != mani_success) return r;
            if ((r = mani_FormReadKeyword(fr, f[4], maniRetargetChainNames, 4, &c->mode)).result != mani_success) return r;
            if ((r = mani_ReadTranslation(fr, f[5], &c->translation)).result != mani_success) return r;
            if ((r = mani_ReadNumber(fr, f[6], &c->weight)).result != mani_success) return r;
            c->scale = mani_ReadBool(fr, f[7]);
            item = mani_FormToken(fr, item)->next;
        }
    }
    if (top[6] != MCORE_JSON_NONE && mani_FormToken(fr, top[6])->type == mcore_jsonObject) {
        uint32_t f[8];
        maniRetargetPelvis* p = &rd->pelvis;
        if ((r = mani_FormRead(fr, top[6], maniRetargetPelvisForm, 8, f)).result != mani_success) return r;
        if ((r = mani_FormReadBone(fr, S, f[0], &p->sourceBone)).result != mani_success) return r;
        if ((r = mani_FormReadBone(fr, T, f[1], &p->targetBone)).result != mani_success) return r;
        if ((r = mani_FormReadFloats(fr, f[2], &p->up.x, 3)).result != mani_success) return r;
        if ((r = mani_ReadNumber(fr, f[3], &p->horizontalFactor)).result != mani_success) return r;
        if ((r = mani_ReadNumber(fr, f[4], &p->verticalFactor)).result != mani_success) return r;
        if (f[5] != MCORE_JSON_NONE && (r = mani_FormReadFloats(fr, f[5], &p->absolute.x, 3)).result != mani_success)
            return r;
        if (f[6] != MCORE_JSON_NONE && (r = mani_FormReadFloats(fr, f[6], &p->toSource.x, 3)).result != mani_success)
            return r;
        if ((r = mani_ReadNumber(fr, f[7], &p->weight)).result != mani_success) return r;
        rd->hasPelvis = 1;
    }
    rd->matchNames = mani_ReadBool(fr, top[7]);
    return r;
}

static void mani_FreeRetargetReader(mani_RetargetReader* rd, uint32_t pairs, uint32_t chains) {
    maniBuilder* b = rd->f.builder;
    if (rd->f.arena) mani_BuilderFree(b, rd->f.arena, rd->f.arenaSize);
    for (uint32_t side = 0; side < 2; ++side) {
        if (rd->reference[side]) mani_BuilderFree(b, rd->reference[side], (size_t)rd->n[side] * sizeof(maniTransform));
        if (rd->place[side]) mani_BuilderFree(b, rd->place[side], (size_t)rd->n[side] * sizeof(uint32_t));
    }
    if (rd->pairs) mani_BuilderFree(b, rd->pairs, pairs * sizeof(maniRetargetPair));
    if (rd->chains) mani_BuilderFree(b, rd->chains, chains * sizeof(maniRetargetChain));
    mcore_JsonRelease(&rd->f.doc);
}

maniBuildResult maniBuildRetargetMapJson(maniBuilder* builder, const char* text, size_t length, const maniSkeleton* source,
                                         const maniSkeleton* target) {
    if (builder == NULL || source == NULL || target == NULL || (text == NULL && length != 0))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    const maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_BuildResult(entered, maniBuildReasonNone, 0, 0);
    const uint32_t ns = maniSkeleton_GetBoneCount(source), nt = maniSkeleton_GetBoneCount(target);
    if (ns == 0 || nt == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);

    mani_RetargetReader rd;
    memset(&rd, 0, sizeof rd);
    rd.f.builder = builder;
    rd.skeletons[0] = source;
    rd.skeletons[1] = target;
    const mcore_JsonAllocator allocator = mani_FormAllocator(builder);
    const mcore_JsonResult parsed = mcore_JsonReadAlloc((const uint8_t*)(text ? text : ""), length, &allocator, &rd.f.doc);
    if (parsed.reason == mcore_jsonCapacity) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    if (parsed.reason != mcore_jsonOk) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJson, parsed.offset, 0);

    uint32_t top[8];
    maniBuildResult r = mani_FormRead(&rd.f, 0, maniRetargetTopForm, 8, top);
    /* The format and version first: another version's members are not
     * judged by this one's form. */
    if (r.result == mani_success &&
        !mcore_JsonStringEquals(&rd.f.doc, top[0], MANI_RETARGET_FORM_NAME, strlen(MANI_RETARGET_FORM_NAME))) {
        r = mani_FormRefusal(mani_errorInvalid, maniGraphFormFormat, mani_FormAt(&rd.f, top[0]));
    } else if (r.result == mani_success) {
        uint64_t version = 0;
        if (mcore_JsonGetUint64(&rd.f.doc, top[1], &version) != mcore_jsonOk || version != MANI_RETARGET_FORM_VERSION)
            r = mani_FormRefusal(mani_errorVersion, maniGraphFormVersion, mani_FormAt(&rd.f, top[1]));
    }
    if (r.result != mani_success) {
        mani_FreeRetargetReader(&rd, 0, 0);
        return r;
    }
    const uint32_t pairs = top[4] == MCORE_JSON_NONE ? 0 : mani_FormToken(&rd.f, top[4])->count;
    const uint32_t chains = top[5] == MCORE_JSON_NONE ? 0 : mani_FormToken(&rd.f, top[5])->count;
    int failed = 0;
    rd.n[0] = ns;
    rd.n[1] = nt;
    rd.f.arenaSize = length;
    rd.f.arena = (char*)mani_FormAlloc(&rd.f, length, 1, &failed);
    for (uint32_t side = 0; side < 2; ++side) {
        rd.reference[side] = (maniTransform*)mani_FormAlloc(&rd.f, rd.n[side], sizeof(maniTransform), &failed);
        rd.place[side] = (uint32_t*)mani_FormAlloc(&rd.f, rd.n[side], sizeof(uint32_t), &failed);
    }
    rd.pairs = (maniRetargetPair*)mani_FormAlloc(&rd.f, pairs, sizeof(maniRetargetPair), &failed);
    rd.chains = (maniRetargetChain*)mani_FormAlloc(&rd.f, chains, sizeof(maniRetargetChain), &failed);
    if (failed) {
        mani_FreeRetargetReader(&rd, pairs, chains);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    rd.pairCount = pairs;
    rd.chainCount = chains;
    if (pairs) memset(rd.pairs, 0, pairs * sizeof(maniRetargetPair));
    if (chains) memset(rd.chains, 0, chains * sizeof(maniRetargetChain));
    for (uint32_t side = 0; side < 2; ++side)
        for (uint32_t i = 0; i < rd.n[side]; ++i) {
            rd.reference[side][i] = maniSkeleton_GetRest(rd.skeletons[side], i);
            rd.place[side][i] = MANI_NO_BONE;
        }
    r = mani_ReadRetargetLists(&rd, top);
    if (r.result == mani_success) {
        maniRetargetMapSource src;
        memset(&src, 0, sizeof src);
        src.source = source;
        src.target = target;
        src.sourceReference = rd.reference[0];
        src.targetReference = rd.reference[1];
        src.pairs = rd.pairs;
        src.pairCount = rd.pairCount;
        src.chains = rd.chains;
        src.chainCount = rd.chainCount;
        src.pelvis = rd.hasPelvis ? &rd.pelvis : NULL;
        src.matchNames = rd.matchNames;
        r = maniBuildRetargetMap(builder, &src);
        /* A reference's item by its place in the text's list. */
        if (r.reason == maniBuildReasonRetargetReference && r.other < 2 && r.item < rd.n[r.other])
            r.item = rd.place[r.other][r.item];
    }
    mani_FreeRetargetReader(&rd, pairs, chains);
    return r;
}
