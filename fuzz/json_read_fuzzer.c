/* Harness: the JSON reader (lib/core/json). Checks more than crashes: a
 * document the reader accepts is written back from its tokens (strings after
 * their escapes, numbers through their binary64 value, integers that int64
 * holds exactly) and the text written must read back to the same tokens
 * (types, counts, nesting, strings, number bits); the caller-array read and
 * the count query agree with the allocated read. The bytes sit at the very
 * end of their buffer, so an overread trips ASan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/json/json.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void Fail(const char* what) {
    fprintf(stderr, "json_read_fuzzer: %s\n", what);
    abort();
}

static int IsPlainInteger(const char* s, size_t n) {
    if (n == 2 && s[0] == '-' && s[1] == '0') return 0; /* -0 goes through binary64 to keep its sign */
    for (size_t i = 0; i < n; ++i)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E') return 0;
    return 1;
}

/* Writes token t and what it holds; returns the next index, or 0 when a
 * number is past binary64's range (nothing to compare then). */
static uint32_t Rewrite(const mcore_JsonDoc* doc, uint32_t t, mcore_JsonWriter* w, char* scratch) {
    const mcore_JsonToken* k = &doc->tokens[t];
    const char* text = (const char*)doc->text + k->start;
    size_t len;
    switch (k->type) {
    case mcore_jsonNull: mcore_JsonWriteNull(w); return t + 1;
    case mcore_jsonFalse: mcore_JsonWriteBool(w, 0); return t + 1;
    case mcore_jsonTrue: mcore_JsonWriteBool(w, 1); return t + 1;
    case mcore_jsonNumber: {
        int64_t i;
        double d;
        if (IsPlainInteger(text, k->length) && mcore_JsonParseInt64(text, k->length, &i) == mcore_jsonOk) {
            mcore_JsonWriteInt64(w, i);
        } else {
            if (mcore_JsonGetDouble(doc, t, &d) != mcore_jsonOk) return 0;
            mcore_JsonWriteDouble(w, d);
        }
        return t + 1;
    }
    case mcore_jsonString:
        if (mcore_JsonGetString(doc, t, scratch, k->length, &len) != mcore_jsonOk) Fail("string");
        mcore_JsonWriteString(w, scratch, len);
        return t + 1;
    case mcore_jsonArray: {
        mcore_JsonWriteBeginArray(w);
        uint32_t i = t + 1;
        for (uint32_t n = 0; n < k->count; ++n)
            if ((i = Rewrite(doc, i, w, scratch)) == 0) return 0;
        mcore_JsonWriteEndArray(w);
        if (i != k->next) Fail("array next");
        return i;
    }
    default: {
        mcore_JsonWriteBeginObject(w);
        uint32_t i = t + 1;
        for (uint32_t n = 0; n < k->count; ++n) {
            if (mcore_JsonGetString(doc, i, scratch, doc->tokens[i].length, &len) != mcore_jsonOk) Fail("key");
            mcore_JsonWriteKey(w, scratch, len);
            if ((i = Rewrite(doc, i + 1, w, scratch)) == 0) return 0;
        }
        mcore_JsonWriteEndObject(w);
        if (i != k->next) Fail("object next");
        return i;
    }
    }
}

static void SameTokens(const mcore_JsonDoc* a, const mcore_JsonDoc* b, char* sa, char* sb) {
    if (a->count != b->count) Fail("token count differs after write and read");
    for (uint32_t t = 0; t < a->count; ++t) {
        const mcore_JsonToken *x = &a->tokens[t], *y = &b->tokens[t];
        if (x->type != y->type || x->next != y->next) Fail("token type or nesting differs");
        if (x->type == mcore_jsonArray || x->type == mcore_jsonObject) {
            if (x->count != y->count) Fail("member count differs");
        } else if (x->type == mcore_jsonString) {
            size_t la, lb;
            if (mcore_JsonGetString(a, t, sa, x->length, &la) != mcore_jsonOk ||
                mcore_JsonGetString(b, t, sb, y->length, &lb) != mcore_jsonOk || la != lb || memcmp(sa, sb, la) != 0)
                Fail("string differs");
        } else if (x->type == mcore_jsonNumber) {
            double da, db;
            if (mcore_JsonGetDouble(a, t, &da) != mcore_jsonOk || mcore_JsonGetDouble(b, t, &db) != mcore_jsonOk ||
                memcmp(&da, &db, sizeof da) != 0)
                Fail("number differs");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* copy = (uint8_t*)malloc(size ? size : 1);
    if (copy == NULL) return 0;
    memcpy(copy, data, size);
    mcore_JsonDoc doc;
    const mcore_JsonResult r = mcore_JsonReadAlloc(copy, size, NULL, &doc);
    /* the count query and a caller array agree with the allocated read */
    mcore_JsonDoc q;
    const mcore_JsonResult rq = mcore_JsonRead(copy, size, NULL, 0, &q);
    if (r.reason == mcore_jsonOk) {
        if (doc.count == 0 || r.offset != 0) Fail("accepted without tokens");
        if (rq.reason != mcore_jsonCapacity || rq.needed != doc.count) Fail("count query disagrees");
        mcore_JsonToken* tokens = (mcore_JsonToken*)malloc((size_t)doc.count * sizeof *tokens);
        if (tokens != NULL) {
            mcore_JsonDoc fixed;
            if (mcore_JsonRead(copy, size, tokens, doc.count, &fixed).reason != mcore_jsonOk ||
                memcmp(tokens, doc.tokens, (size_t)doc.count * sizeof *tokens) != 0)
                Fail("caller-array read disagrees");
            free(tokens);
        }
        /* the form helper on every object: found written only on success,
         * every found value of a type its key takes */
        static const mcore_JsonFormKey form[] = {
            {"a", MCORE_JSON_TAKES_NUMBER | MCORE_JSON_TAKES_NULL, 0},
            {"b", MCORE_JSON_TAKES_STRING, 0},
            {"", MCORE_JSON_TAKES_ARRAY | MCORE_JSON_TAKES_OBJECT, 0},
        };
        for (uint32_t t = 0; t < doc.count; ++t) {
            if (doc.tokens[t].type != mcore_jsonObject) continue;
            uint32_t found[3] = {7, 7, 7};
            const mcore_JsonResult fr = mcore_JsonReadForm(&doc, t, form, 3, found);
            if (fr.reason == mcore_jsonOk) {
                for (int k = 0; k < 3; ++k)
                    if (found[k] != MCORE_JSON_NONE && (form[k].takes & (1u << doc.tokens[found[k]].type)) == 0)
                        Fail("form gave a value of a type its key does not take");
            } else if (found[0] != 7 || found[1] != 7 || found[2] != 7) {
                Fail("form wrote found on a refusal");
            } else if (fr.reason != mcore_jsonFormUnknown && fr.reason != mcore_jsonFormType) {
                Fail("form refused for another reason");
            }
        }
        char* scratch = (char*)malloc(size + 1);
        mcore_JsonWriter w;
        mcore_JsonAllocator libc = {NULL, NULL, NULL};
        mcore_JsonWriterInit(&w, NULL, 0, &libc);
        if (scratch != NULL && Rewrite(&doc, 0, &w, scratch) != 0) {
            const mcore_JsonReason wr = mcore_JsonWriterFinish(&w);
            if (wr == mcore_jsonOk) {
                mcore_JsonDoc back;
                if (mcore_JsonReadAlloc((const uint8_t*)w.buffer, w.length, NULL, &back).reason != mcore_jsonOk)
                    Fail("written text does not read");
                char* sb = (char*)malloc(w.length + 1);
                if (sb != NULL) SameTokens(&doc, &back, scratch, sb);
                free(sb);
                mcore_JsonRelease(&back);
            } else if (wr != mcore_jsonCapacity) {
                Fail("writer refused an accepted document");
            }
        }
        mcore_JsonWriterRelease(&w);
        free(scratch);
        mcore_JsonRelease(&doc);
    } else {
        if (r.offset > size) Fail("offset past the text");
        if (r.reason == mcore_jsonCapacity) return free(copy), 0; /* out of memory: nothing to compare */
        /* duplicate keys are checked only among tokens held: a count query
         * passes them and refuses later, or only for the tokens */
        if (r.reason == mcore_jsonDuplicateKey ? rq.reason != mcore_jsonCapacity && rq.offset <= r.offset
                                               : rq.reason != r.reason || rq.offset != r.offset)
            Fail("count query refuses differently");
    }
    free(copy);
    return 0;
}
