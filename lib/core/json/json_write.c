/* lib/core/json: the writer (json.h). The layout of ECMAScript's
 * JSON.stringify(value, null, 2) and a final new line: each member and item
 * on its own line, indented two spaces a level, `"key": value`, empty
 * containers as {} and []. */
#include <stdlib.h>
#include <string.h>

#include "lib/core/json/json.h"
#include "lib/core/utf8.h"

static void* mc_WMalloc(void* user, size_t size) {
    (void)user;
    return malloc(size);
}

static void mc_WFree(void* user, void* block, size_t size) {
    (void)user;
    (void)size;
    free(block);
}

void mcore_JsonWriterInit(mcore_JsonWriter* w, char* buffer, size_t capacity, const mcore_JsonAllocator* allocator) {
    if (w == NULL) return;
    memset(w, 0, sizeof *w);
    if (allocator != NULL) {
        w->growable = 1;
        if ((allocator->allocate == NULL) != (allocator->release == NULL)) {
            w->failed = mcore_jsonInvalid;
        } else if (allocator->allocate == NULL) {
            w->allocator.allocate = mc_WMalloc;
            w->allocator.release = mc_WFree;
        } else {
            w->allocator = *allocator;
        }
    } else {
        w->buffer = buffer;
        w->capacity = buffer != NULL ? capacity : 0;
    }
}

static void mc_Fail(mcore_JsonWriter* w, mcore_JsonReason reason) {
    if (w->failed == mcore_jsonOk) w->failed = reason;
}

static void mc_Put(mcore_JsonWriter* w, const char* bytes, size_t n) {
    if (w->failed != mcore_jsonOk) return;
    if (w->length + n > w->capacity) {
        if (!w->growable) {
            w->length += n; /* counted, not written */
            return;
        }
        size_t cap = w->capacity < 256 ? 256 : w->capacity;
        while (cap < w->length + n) cap *= 2;
        char* grown = (char*)w->allocator.allocate(w->allocator.user, cap);
        if (grown == NULL) {
            mc_Fail(w, mcore_jsonCapacity);
            return;
        }
        if (w->buffer != NULL) {
            memcpy(grown, w->buffer, w->length);
            w->allocator.release(w->allocator.user, w->buffer, w->capacity);
        }
        w->buffer = grown;
        w->capacity = cap;
    }
    if (w->length <= w->capacity && w->length + n <= w->capacity) memcpy(w->buffer + w->length, bytes, n);
    w->length += n;
}

static void mc_Indent(mcore_JsonWriter* w, uint32_t depth) {
    static const char spaces[] = "                                ";
    mc_Put(w, "\n", 1);
    size_t n = (size_t)depth * 2;
    while (n > 0) {
        const size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        mc_Put(w, spaces, k);
        n -= k;
    }
}

/* Before a value: its separator and line, or refuse a value where none may go. */
static int mc_BeforeValue(mcore_JsonWriter* w) {
    if (w == NULL) return 0;
    if (w->failed != mcore_jsonOk) return 0;
    if (w->done) {
        mc_Fail(w, mcore_jsonInvalid);
        return 0;
    }
    if (w->depth == 0) return 1;
    if (w->kinds[w->depth - 1] == 2) {
        if (!w->keyPending) {
            mc_Fail(w, mcore_jsonInvalid);
            return 0;
        }
        w->keyPending = 0;
        return 1; /* the key wrote the line */
    }
    if (w->items[w->depth - 1] > 0) mc_Put(w, ",", 1);
    w->items[w->depth - 1]++;
    mc_Indent(w, w->depth);
    return 1;
}

static void mc_AfterValue(mcore_JsonWriter* w) {
    if (w->depth == 0) w->done = 1;
}

void mcore_JsonWriteNull(mcore_JsonWriter* w) {
    if (!mc_BeforeValue(w)) return;
    mc_Put(w, "null", 4);
    mc_AfterValue(w);
}

void mcore_JsonWriteBool(mcore_JsonWriter* w, int value) {
    if (!mc_BeforeValue(w)) return;
    if (value) mc_Put(w, "true", 4);
    else mc_Put(w, "false", 5);
    mc_AfterValue(w);
}

void mcore_JsonWriteDouble(mcore_JsonWriter* w, double value) {
    char text[MCORE_JSON_NUMBER_CHARS];
    const size_t n = mcore_JsonFormatDouble(value, text);
    if (w != NULL && n == 0) {
        mc_Fail(w, mcore_jsonNotFinite);
        return;
    }
    if (!mc_BeforeValue(w)) return;
    mc_Put(w, text, n);
    mc_AfterValue(w);
}

void mcore_JsonWriteFloat(mcore_JsonWriter* w, float value) {
    char text[MCORE_JSON_NUMBER_CHARS];
    const size_t n = mcore_JsonFormatFloat(value, text);
    if (w != NULL && n == 0) {
        mc_Fail(w, mcore_jsonNotFinite);
        return;
    }
    if (!mc_BeforeValue(w)) return;
    mc_Put(w, text, n);
    mc_AfterValue(w);
}

static void mc_PutUnsigned(mcore_JsonWriter* w, int negative, uint64_t v) {
    char text[24];
    size_t n = sizeof text;
    do {
        text[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    if (negative) text[--n] = '-';
    mc_Put(w, text + n, sizeof text - n);
}

void mcore_JsonWriteInt64(mcore_JsonWriter* w, int64_t value) {
    if (!mc_BeforeValue(w)) return;
    const uint64_t mag = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    mc_PutUnsigned(w, value < 0, mag);
    mc_AfterValue(w);
}

void mcore_JsonWriteUint64(mcore_JsonWriter* w, uint64_t value) {
    if (!mc_BeforeValue(w)) return;
    mc_PutUnsigned(w, 0, value);
    mc_AfterValue(w);
}

/* Whether bytes[0, n) is UTF-8 (NUL included: it is written escaped). */
static int mc_Utf8Ok(const uint8_t* s, size_t n) {
    size_t i = 0;
    while (i < n) {
        int truncated;
        const size_t len = mcore_Utf8Sequence(s + i, n - i, &truncated);
        if (len == 0) return 0;
        i += len;
    }
    return 1;
}

/* A string with its quotes and the minimal escapes; text must be UTF-8. */
static void mc_PutString(mcore_JsonWriter* w, const char* text, size_t length) {
    static const char hex[] = "0123456789abcdef";
    const uint8_t* s = (const uint8_t*)text;
    mc_Put(w, "\"", 1);
    size_t start = 0; /* bytes from here to the next escape go out at once */
    for (size_t i = 0; i < length; ++i) {
        const uint8_t c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        char esc[6] = {'\\', 0, '0', '0', hex[c >> 4], hex[c & 15]};
        size_t en = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            esc[1] = 'u';
            en = 6;
        }
        mc_Put(w, text + start, i - start);
        mc_Put(w, esc, en);
        start = i + 1;
    }
    mc_Put(w, text + start, length - start);
    mc_Put(w, "\"", 1);
}

void mcore_JsonWriteString(mcore_JsonWriter* w, const char* text, size_t length) {
    if (w == NULL) return;
    if ((text == NULL && length != 0) || !mc_Utf8Ok((const uint8_t*)text, length)) {
        mc_Fail(w, mcore_jsonInvalid);
        return;
    }
    if (!mc_BeforeValue(w)) return;
    mc_PutString(w, text, length);
    mc_AfterValue(w);
}

static void mc_Begin(mcore_JsonWriter* w, uint8_t kind) {
    if (!mc_BeforeValue(w)) return;
    if (w->depth == MCORE_JSON_MAX_DEPTH) {
        mc_Fail(w, mcore_jsonDepth);
        return;
    }
    mc_Put(w, kind == 2 ? "{" : "[", 1);
    w->kinds[w->depth] = kind;
    w->items[w->depth] = 0;
    w->depth++;
}

static void mc_End(mcore_JsonWriter* w, uint8_t kind) {
    if (w == NULL || w->failed != mcore_jsonOk) return;
    if (w->depth == 0 || w->kinds[w->depth - 1] != kind || w->keyPending) {
        mc_Fail(w, mcore_jsonInvalid);
        return;
    }
    w->depth--;
    if (w->items[w->depth] > 0) mc_Indent(w, w->depth);
    mc_Put(w, kind == 2 ? "}" : "]", 1);
    mc_AfterValue(w);
}

void mcore_JsonWriteBeginArray(mcore_JsonWriter* w) { mc_Begin(w, 1); }
void mcore_JsonWriteEndArray(mcore_JsonWriter* w) { mc_End(w, 1); }
void mcore_JsonWriteBeginObject(mcore_JsonWriter* w) { mc_Begin(w, 2); }
void mcore_JsonWriteEndObject(mcore_JsonWriter* w) { mc_End(w, 2); }

void mcore_JsonWriteKey(mcore_JsonWriter* w, const char* key, size_t length) {
    if (w == NULL || w->failed != mcore_jsonOk) return;
    if (w->depth == 0 || w->kinds[w->depth - 1] != 2 || w->keyPending ||
        (key == NULL && length != 0) || !mc_Utf8Ok((const uint8_t*)key, length)) {
        mc_Fail(w, mcore_jsonInvalid);
        return;
    }
    if (w->items[w->depth - 1] > 0) mc_Put(w, ",", 1);
    w->items[w->depth - 1]++;
    mc_Indent(w, w->depth);
    mc_PutString(w, key, length);
    mc_Put(w, ": ", 2);
    w->keyPending = 1;
}

mcore_JsonReason mcore_JsonWriterFinish(mcore_JsonWriter* w) {
    if (w == NULL) return mcore_jsonInvalid;
    if (w->done == 2) return w->length > w->capacity ? mcore_jsonCapacity : w->failed;
    if (w->failed == mcore_jsonOk && !w->done) mc_Fail(w, mcore_jsonInvalid);
    if (w->failed != mcore_jsonOk) return w->failed;
    mc_Put(w, "\n", 1);
    w->done = 2;
    if (w->failed != mcore_jsonOk) return w->failed;
    if (w->length > w->capacity) return mcore_jsonCapacity;
    return mcore_jsonOk;
}

void mcore_JsonWriterRelease(mcore_JsonWriter* w) {
    if (w == NULL) return;
    if (w->growable && w->buffer != NULL) w->allocator.release(w->allocator.user, w->buffer, w->capacity);
    w->buffer = NULL;
    w->capacity = 0;
    w->length = 0;
}
