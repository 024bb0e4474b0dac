/* The builders' JSON text forms' shared pieces (form_json_internal.h). */
#include <string.h>

#include "lib/anim/src/build/form_json_internal.h"

static void* mani_JsonAllocate(void* user, size_t size) { return mani_BuilderAlloc((maniBuilder*)user, size, 16); }
static void mani_JsonRelease(void* user, void* block, size_t size) { mani_BuilderFree((maniBuilder*)user, block, size); }

mcore_JsonAllocator mani_FormAllocator(maniBuilder* builder) {
    const mcore_JsonAllocator a = {mani_JsonAllocate, mani_JsonRelease, builder};
    return a;
}

/* -- Writing ---------------------------------------------------------------------- */

void mani_FormWriteKeyString(mcore_JsonWriter* w, const char* key, const char* s, size_t length) {
    mcore_JsonWriteKey(w, key, strlen(key));
    mcore_JsonWriteString(w, s, length);
}

void mani_FormWriteFloats(mcore_JsonWriter* w, const char* key, const float* v, uint32_t count) {
    mcore_JsonWriteKey(w, key, strlen(key));
    mcore_JsonWriteBeginArray(w);
    for (uint32_t k = 0; k < count; ++k) mcore_JsonWriteFloat(w, v[k]);
    mcore_JsonWriteEndArray(w);
}

void mani_FormWriteBoneName(mcore_JsonWriter* w, const char* key, const maniSkeleton* s, uint32_t bone) {
    size_t length = 0;
    const char* name = maniSkeleton_GetBoneName(s, bone, &length);
    mani_FormWriteKeyString(w, key, name, length);
}

void mani_FormWriteBool(mcore_JsonWriter* w, const char* key, bool value) {
    mcore_JsonWriteKey(w, key, strlen(key));
    mcore_JsonWriteBool(w, value ? 1 : 0);
}

maniBuildResult mani_FormKeepText(maniBuilder* builder, mcore_JsonWriter* w) {
    if (mcore_JsonWriterFinish(w) != mcore_jsonOk) {
        mcore_JsonWriterRelease(w);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    uint8_t* text = (uint8_t*)mani_BuilderAlloc(builder, w->length, MANI_FILE_ALIGNMENT);
    if (text == NULL) {
        mcore_JsonWriterRelease(w);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    memcpy(text, w->buffer, w->length);
    const size_t length = w->length;
    mcore_JsonWriterRelease(w);
    mani_BuilderKeep(builder, text, length, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

/* -- Reading ---------------------------------------------------------------------- */

void* mani_FormAlloc(mani_FormReader* rd, size_t count, size_t size, int* failed) {
    if (count == 0) return NULL;
    void* p = mani_BuilderAlloc(rd->builder, count * size, 8);
    if (p == NULL) *failed = 1;
    return p;
}

maniBuildResult mani_FormRefusal(maniResult r, uint32_t form, uint64_t offset) {
    return mani_BuildResult(r, maniBuildReasonForm, offset, form);
}

static uint32_t mani_FormOf(mcore_JsonReason reason) {
    switch (reason) {
    case mcore_jsonFormUnknown: return maniGraphFormMember;
    case mcore_jsonFormMissing: return maniGraphFormMissing;
    default: return maniGraphFormType;
    }
}

maniBuildResult mani_FormRead(mani_FormReader* rd, uint32_t object, const mcore_JsonFormKey* keys, uint32_t count,
                              uint32_t* found) {
    const mcore_JsonResult r = mcore_JsonReadForm(&rd->doc, object, keys, count, found);
    if (r.reason != mcore_jsonOk) return mani_FormRefusal(mani_errorInvalid, mani_FormOf(r.reason), r.offset);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

const mcore_JsonToken* mani_FormToken(const mani_FormReader* rd, uint32_t t) { return mcore_JsonAt(&rd->doc, t); }

uint64_t mani_FormAt(const mani_FormReader* rd, uint32_t t) {
    const mcore_JsonToken* tok = mani_FormToken(rd, t);
    if (tok == NULL) return 0;
    return tok->type == mcore_jsonString ? (uint64_t)tok->start - 1 : tok->start;
}

maniBuildResult mani_FormReadString(mani_FormReader* rd, uint32_t t, const char** out, size_t* length) {
    const mcore_JsonToken* tok = mani_FormToken(rd, t);
    if (tok == NULL || tok->type != mcore_jsonString)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, mani_FormAt(rd, t));
    char* at = rd->arena + rd->arenaUsed;
    size_t got = 0;
    if (mcore_JsonGetString(&rd->doc, t, at, rd->arenaSize - rd->arenaUsed, &got) != mcore_jsonOk)
        return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(rd, t));
    rd->arenaUsed += got;
    *out = at;
    *length = got;
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

maniBuildResult mani_FormReadBone(mani_FormReader* rd, const maniSkeleton* s, uint32_t t, uint32_t* bone) {
    const char* name;
    size_t length;
    maniBuildResult r = mani_FormReadString(rd, t, &name, &length);
    if (r.result != mani_success) return r;
    *bone = maniSkeleton_FindBone(s, name, length);
    if (*bone == MANI_NO_BONE) return mani_FormRefusal(mani_errorInvalid, maniGraphFormName, mani_FormAt(rd, t));
    return r;
}

maniBuildResult mani_FormReadFloats(mani_FormReader* rd, uint32_t t, float* out, uint32_t count) {
    const mcore_JsonToken* tok = mani_FormToken(rd, t);
    if (tok->count != count) return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, tok->start);
    uint32_t item = t + 1;
    for (uint32_t k = 0; k < count; ++k) {
        const mcore_JsonToken* v = mani_FormToken(rd, item);
        if (v->type != mcore_jsonNumber)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormType, mani_FormAt(rd, item));
        if (mcore_JsonGetFloat(&rd->doc, item, &out[k]) != mcore_jsonOk)
            return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, v->start);
        item = v->next;
    }
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

maniBuildResult mani_FormReadKeyword(mani_FormReader* rd, uint32_t t, const char* const* words, uint32_t count,
                                     uint32_t* out) {
    for (uint32_t k = 0; k < count; ++k)
        if (mcore_JsonStringEquals(&rd->doc, t, words[k], strlen(words[k]))) {
            *out = k;
            return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
        }
    return mani_FormRefusal(mani_errorInvalid, maniGraphFormValue, mani_FormAt(rd, t));
}
