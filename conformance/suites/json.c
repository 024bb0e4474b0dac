/* Suite "json": freezes lib/core/json's text, so every platform writes and
 * reads the same bytes and bits: shortest binary32 and binary64 text of
 * seeded bit patterns and ranges, seeded decimals read to binary32, binary64
 * and integers (with their reasons), seeded documents written in the
 * writer's layout and their tokens read back, and the reasons and offsets of
 * refused texts. */
#include <stdio.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/core/json/json.h"
#include "lib/core/rng.h"

void mconf_SuiteJson(mconf_Run* run);

static void mconf_JsonText(mconf_Bytes* b, const char* text, size_t n) {
    mconf_BytesAdd(b, text, n);
    mconf_BytesU8(b, ';');
}

/* A decimal of 1 to 25 digits, maybe a fraction, maybe an exponent. */
static size_t mconf_JsonDecimal(mcore_Rng* rng, char* out) {
    size_t o = 0;
    if (mcore_RngBelow(rng, 2)) out[o++] = '-';
    const uint32_t digits = 1 + mcore_RngBelow(rng, 25);
    const uint32_t point = mcore_RngBelow(rng, digits + 1);
    for (uint32_t i = 0; i < digits; ++i) {
        if (i == point && i > 0) out[o++] = '.';
        out[o++] = (char)((i == 0 ? '1' : '0') + mcore_RngBelow(rng, i == 0 ? 9 : 10));
    }
    if (mcore_RngBelow(rng, 2)) o += (size_t)sprintf(out + o, "e%d", (int)mcore_RngBelow(rng, 700) - 350);
    return o;
}

static void mconf_JsonValue(mcore_JsonWriter* w, mcore_Rng* rng, int depth) {
    static const char* const pieces[] = {"a", "\"", "\\", "\n", "\x01", "\xC3\xA9", "\xF0\x9F\x98\x80", "/"};
    char s[64];
    size_t n = 0;
    switch (mcore_RngBelow(rng, depth > 4 ? 6 : 8)) {
    case 0: mcore_JsonWriteNull(w); break;
    case 1: mcore_JsonWriteBool(w, (int)mcore_RngBelow(rng, 2)); break;
    case 2: {
        const int64_t v = (int64_t)mcore_RngNext(rng); /* two draws: in this order on every compiler */
        mcore_JsonWriteInt64(w, v >> mcore_RngBelow(rng, 64));
        break;
    }
    case 3: mcore_JsonWriteFloat(w, mcore_RngFloatRange(rng, -100.0f, 100.0f)); break;
    case 4: mcore_JsonWriteDouble(w, mcore_RngDouble01(rng) * 1e-3); break;
    case 5:
        for (uint32_t i = mcore_RngBelow(rng, 6); i > 0; --i) {
            const char* p = pieces[mcore_RngBelow(rng, 8)];
            memcpy(s + n, p, strlen(p));
            n += strlen(p);
        }
        mcore_JsonWriteString(w, s, n);
        break;
    case 6:
        mcore_JsonWriteBeginArray(w);
        for (uint32_t i = mcore_RngBelow(rng, 5); i > 0; --i) mconf_JsonValue(w, rng, depth + 1);
        mcore_JsonWriteEndArray(w);
        break;
    default:
        mcore_JsonWriteBeginObject(w);
        for (uint32_t i = mcore_RngBelow(rng, 5); i > 0; --i) {
            n = (size_t)snprintf(s, sizeof s, "key%u", i);
            mcore_JsonWriteKey(w, s, n);
            mconf_JsonValue(w, rng, depth + 1);
        }
        mcore_JsonWriteEndObject(w);
    }
}

void mconf_SuiteJson(mconf_Run* run) {
    mconf_Bytes b = {0};
    char text[MCORE_JSON_NUMBER_CHARS + 64];
    char name[64];
    mcore_Rng rng;
    for (int seed = 0; seed < 4; ++seed) {
        mcore_RngSeed(&rng, (uint64_t)seed * 0x9E3779B97F4A7C15u + 1);
        for (int i = 0; i < 8192; ++i) {
            const float f = mcore_RngFloatBits(&rng);
            mconf_JsonText(&b, text, mcore_JsonFormatFloat(f, text));
        }
        snprintf(name, sizeof name, "format-f32-bits-seed%d", seed);
        mconf_RecordBytes(run, name, &b);
        for (int i = 0; i < 8192; ++i) {
            const float f = mcore_RngFloatRange(&rng, -10.0f, 10.0f) * (i % 3 == 0 ? 1e-6f : i % 3 == 1 ? 1.0f : 1e6f);
            mconf_JsonText(&b, text, mcore_JsonFormatFloat(f, text));
        }
        snprintf(name, sizeof name, "format-f32-ranges-seed%d", seed);
        mconf_RecordBytes(run, name, &b);
        for (int i = 0; i < 8192; ++i) {
            const uint64_t bits = mcore_RngNext(&rng);
            double d;
            memcpy(&d, &bits, sizeof d);
            mconf_JsonText(&b, text, mcore_JsonFormatDouble(d, text));
        }
        snprintf(name, sizeof name, "format-f64-bits-seed%d", seed);
        mconf_RecordBytes(run, name, &b);
        for (int i = 0; i < 4096; ++i) {
            const size_t n = mconf_JsonDecimal(&rng, text);
            double d = 0;
            float f = 0;
            int64_t s = 0;
            uint64_t u = 0;
            mconf_BytesU32(&b, (uint32_t)mcore_JsonParseDouble(text, n, &d));
            mconf_BytesF64(&b, d);
            mconf_BytesU32(&b, (uint32_t)mcore_JsonParseFloat(text, n, &f));
            mconf_BytesF32(&b, f);
            mconf_BytesU32(&b, (uint32_t)mcore_JsonParseInt64(text, n, &s));
            mconf_BytesU64(&b, (uint64_t)s);
            mconf_BytesU32(&b, (uint32_t)mcore_JsonParseUint64(text, n, &u));
            mconf_BytesU64(&b, u);
        }
        snprintf(name, sizeof name, "parse-seed%d", seed);
        mconf_RecordBytes(run, name, &b);
    }
    for (int doc = 0; doc < 16; ++doc) {
        mcore_RngSeed(&rng, 1000 + (uint64_t)doc);
        mcore_JsonWriter w;
        const mcore_JsonAllocator libc = {NULL, NULL, NULL};
        mcore_JsonWriterInit(&w, NULL, 0, &libc);
        mcore_JsonWriteBeginArray(&w);
        for (int i = 0; i < 8; ++i) mconf_JsonValue(&w, &rng, 1);
        mcore_JsonWriteEndArray(&w);
        mconf_BytesU32(&b, (uint32_t)mcore_JsonWriterFinish(&w));
        mconf_BytesAdd(&b, w.buffer, w.length);
        snprintf(name, sizeof name, "write-doc%d", doc);
        mconf_RecordBytes(run, name, &b);
        mcore_JsonDoc d;
        const mcore_JsonResult r = mcore_JsonReadAlloc((const uint8_t*)w.buffer, w.length, NULL, &d);
        mconf_BytesU32(&b, (uint32_t)r.reason);
        if (r.reason == mcore_jsonOk) {
            for (uint32_t t = 0; t < d.count; ++t) {
                const mcore_JsonToken* k = &d.tokens[t];
                mconf_BytesU32(&b, k->type);
                mconf_BytesU32(&b, k->start);
                mconf_BytesU32(&b, k->length);
                mconf_BytesU32(&b, k->count);
                mconf_BytesU32(&b, k->next);
            }
            mcore_JsonRelease(&d);
        }
        snprintf(name, sizeof name, "read-doc%d", doc);
        mconf_RecordBytes(run, name, &b);
        mcore_JsonWriterRelease(&w);
    }
    static const char* const refused[] = {
        "", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[-]", "[NaN]", "[tru]", "{\"a\" 1}", "{\"a\":1,\"a\":2}",
        "[\"\\uD800\"]", "[\"\\uDC00\"]", "[\"\\q\"]", "[\"\x01\"]", "[\"\xC0\x80\"]", "[\"\xED\xA0\x80\"]",
        "[\"\xF4\x90\x80\x80\"]", "[1]x", "\xEF\xBB\xBF[]", "[1 2]", "{1:1}", "[\"\\u12G4\"]",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
        mcore_JsonDoc d;
        const mcore_JsonResult r = mcore_JsonReadAlloc((const uint8_t*)refused[i], strlen(refused[i]), NULL, &d);
        if (r.reason == mcore_jsonOk) mcore_JsonRelease(&d);
        mconf_BytesU32(&b, (uint32_t)r.reason);
        mconf_BytesU64(&b, (uint64_t)r.offset);
    }
    mconf_RecordBytes(run, "refusals", &b);
    mconf_BytesFree(&b);
}
