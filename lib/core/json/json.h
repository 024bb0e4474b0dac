/* lib/core/json: the one JSON reader and writer both libraries use (glTF and
 * VRM import, the graph, retarget and mirror map text forms). Internal: never
 * a public header. docs/formats.md ("JSON text") states the writer's layout
 * and number rule.
 *
 * Reader. RFC 8259, strict: UTF-8 checked (no overlong forms, surrogates or
 * code points past U+10FFFF), escapes checked (a \u high surrogate must be
 * followed by a \u low surrogate and the other way round), no comments, no
 * trailing commas, no leading zeros, no NaN or Infinity, no byte order mark,
 * duplicate keys in one object refused, nesting bounded by
 * MCORE_JSON_MAX_DEPTH with an explicit stack (nothing the input controls
 * recurses on the C stack). The text becomes a flat array of tokens in
 * document order (an object's token, then each member's key and value; an
 * array's token, then its items), each naming its span of the text; strings
 * and numbers stay as text until asked for (mcore_JsonGetString, the number
 * conversions). Every refusal names the offset of the first wrong byte and a
 * reason (mcore_JsonReason) its caller maps onto its own
 * (maniBuildReasonJson with the offset as item, maniImportReasonJson).
 *
 * Numbers. Conversions of our own, the same bits on every platform (no
 * strtod, no locale): to binary64 and binary32 correctly rounded (nearest,
 * ties to even; subnormals rounded once; a magnitude that rounds past the
 * largest finite value is refused with mcore_jsonRange, nothing written; one
 * that rounds below the smallest subnormal gives a zero of the number's
 * sign), to int64 and uint64 from integer text only, range checked.
 *
 * Writer. Two-space indents, a line per member and list item, `"key": value`,
 * empty objects and arrays as {} and [], a new line after the last byte (the
 * layout of ECMAScript's JSON.stringify(value, null, 2) plus the new line);
 * keys in the order written; strings with the minimal escapes (\" \\ \b \f \n
 * \r \t, \u00XX for the other bytes below 0x20) and refused unless valid
 * UTF-8; numbers as the shortest text that reads back to the same binary32 or
 * binary64, laid out as ECMAScript's Number::toString (digits up to 10^21,
 * 0.000001 down to 1e-7, exponent form past those); integers exactly. */
#ifndef MAUL_CORE_JSON_H
#define MAUL_CORE_JSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest nesting of arrays and objects the reader takes (the document's
 * outer value is depth 1) and the writer writes. */
#define MCORE_JSON_MAX_DEPTH 256u

/* Longest text the reader takes: token offsets are 32-bit. */
#define MCORE_JSON_MAX_LENGTH 0xFFFFFFF0u

/* A token index that names no token: a member mcore_JsonFind did not find,
 * a form key left out. */
#define MCORE_JSON_NONE 0xFFFFFFFFu

/* Longest text the writer's number functions produce, the sign included
 * ("-1.2345678901234567e-308" is 24 bytes). */
#define MCORE_JSON_NUMBER_CHARS 32u

/* What a token is. */
typedef enum mcore_JsonType {
    mcore_jsonNull = 1,
    mcore_jsonFalse = 2,
    mcore_jsonTrue = 3,
    mcore_jsonNumber = 4, /* span: the number's text */
    mcore_jsonString = 5, /* span: the bytes between the quotes, escapes as written */
    mcore_jsonArray = 6,  /* span: from [ to ] included */
    mcore_jsonObject = 7  /* span: from { to } included */
} mcore_JsonType;

/* Why the reader, a conversion, the writer or a form refused. Frozen values. */
typedef enum mcore_JsonReason {
    mcore_jsonOk = 0,
    mcore_jsonEnd = 1,          /* the text ends inside a value (offset: the length) */
    mcore_jsonSyntax = 2,       /* a byte no value, separator or white space may start with here */
    mcore_jsonUtf8 = 3,         /* bytes that are not UTF-8 (offset: the sequence's first byte) */
    mcore_jsonControl = 4,      /* a byte below 0x20 inside a string */
    mcore_jsonEscape = 5,       /* a backslash escape JSON does not have, or an unpaired surrogate */
    mcore_jsonNumberForm = 6,   /* a number RFC 8259 does not allow (leading zero, missing digits) */
    mcore_jsonDepth = 7,        /* nesting past MCORE_JSON_MAX_DEPTH (offset: the opening bracket) */
    mcore_jsonDuplicateKey = 8, /* a key its object has already (offset: the second key's quote) */
    mcore_jsonTrailing = 9,     /* bytes after the document's value */
    mcore_jsonCapacity = 10,    /* too few tokens or bytes given, or the allocator failed */
    mcore_jsonLimit = 11,       /* a text longer than MCORE_JSON_MAX_LENGTH */
    mcore_jsonInvalid = 12,     /* an argument refused (NULL, a token of another type, a writer misused) */
    mcore_jsonRange = 13,       /* a number past the range of the type asked for */
    mcore_jsonNotInteger = 14,  /* an integer asked of a number with a fraction or an exponent */
    mcore_jsonFormUnknown = 15, /* a member the form does not take (offset: its key) */
    mcore_jsonFormType = 16,    /* a member of a type its key does not take (offset: its value) */
    mcore_jsonFormMissing = 17, /* a required member left out (offset: the object) */
    mcore_jsonNotFinite = 18    /* a NaN or an infinity given to the writer */
} mcore_JsonReason;

/* One value of the document. Members and items follow their object or array
 * directly; `next` skips a value with everything inside it. */
typedef struct mcore_JsonToken {
    uint32_t type;   /* mcore_JsonType */
    uint32_t start;  /* offset of the span's first byte */
    uint32_t length; /* bytes in the span */
    uint32_t count;  /* object: members; array: items; string: 1 when it holds an escape, else 0 */
    uint32_t next;   /* index of the token after this value and all it holds */
} mcore_JsonToken;

/* An allocator: both functions or neither (then the reader refuses with
 * mcore_jsonInvalid). allocate returns NULL on failure; release gets the
 * size the block was allocated with. */
typedef struct mcore_JsonAllocator {
    void* (*allocate)(void* user, size_t size);
    void (*release)(void* user, void* block, size_t size);
    void* user;
} mcore_JsonAllocator;

/* A read document: the text (kept by the caller, not copied) and its tokens. */
typedef struct mcore_JsonDoc {
    const uint8_t* text;
    size_t length;
    mcore_JsonToken* tokens; /* tokens[0] is the document's value */
    uint32_t count;          /* tokens in use */
    uint32_t capacity;       /* tokens the array holds */
    mcore_JsonAllocator allocator; /* set by mcore_JsonReadAlloc: what mcore_JsonRelease uses */
    int owned;                     /* whether tokens came from the allocator */
} mcore_JsonDoc;

/* What a read, conversion or form check gives: a reason (mcore_jsonOk for a
 * success), the offset of the first wrong byte and, for a read, the tokens
 * the document needs (when the text parsed as far as its end: also on
 * mcore_jsonCapacity, so a caller can size its array with a first read). For
 * a form, `key` is the form key's index (missing, type) or MCORE_JSON_NONE. */
typedef struct mcore_JsonResult {
    mcore_JsonReason reason;
    size_t offset;
    uint32_t needed;
    uint32_t key;
} mcore_JsonResult;

/* Reads text[0, length) into the caller's tokens[0, capacity) (tokens may be
 * NULL with capacity 0: a count query). On success doc holds the text and
 * the tokens; on any refusal doc is unchanged. Duplicate keys are checked
 * only among tokens the array holds, so a count query may pass a document a
 * read with enough tokens refuses. Safe from any thread. */
mcore_JsonResult mcore_JsonRead(const uint8_t* text, size_t length, mcore_JsonToken* tokens, uint32_t capacity,
                                mcore_JsonDoc* doc);

/* Reads as mcore_JsonRead with a token array from the allocator (NULL: the C
 * library's malloc and free), grown as needed. Duplicate keys are found in
 * time linear in the keys however large an object is (a hash table of the
 * large objects' keys, grown from the same allocator); mcore_JsonRead has no
 * allocator and compares a key with each earlier one of its object once the
 * open objects' keys pass about a thousand, so text from outside with large
 * objects should be read here. A failed allocation is
 * mcore_jsonCapacity with everything allocated released; on success
 * mcore_JsonRelease releases the array. */
mcore_JsonResult mcore_JsonReadAlloc(const uint8_t* text, size_t length, const mcore_JsonAllocator* allocator,
                                     mcore_JsonDoc* doc);

/* Releases a document's token array if the allocator gave it; leaves the
 * document empty. NULL or an empty document: nothing. */
void mcore_JsonRelease(mcore_JsonDoc* doc);

/* The token at an index, or NULL past the count or for MCORE_JSON_NONE. */
const mcore_JsonToken* mcore_JsonAt(const mcore_JsonDoc* doc, uint32_t index);

/* The value of an object's member of the given key (compared after the
 * escapes), or MCORE_JSON_NONE (no such member, not an object). */
uint32_t mcore_JsonFind(const mcore_JsonDoc* doc, uint32_t object, const char* key, size_t keyLength);

/* Whether a string token's text, after its escapes, is key[0, keyLength). */
int mcore_JsonStringEquals(const mcore_JsonDoc* doc, uint32_t string, const char* key, size_t keyLength);

/* Writes a string token's text after its escapes into out[0, capacity) (not
 * NUL-terminated) and its length to *length. mcore_jsonCapacity with the
 * length needed in *length when capacity is too small (out unchanged);
 * mcore_jsonInvalid for a token that is not a string. */
mcore_JsonReason mcore_JsonGetString(const mcore_JsonDoc* doc, uint32_t string, char* out, size_t capacity,
                                     size_t* length);

/* A number token's value (mcore_jsonInvalid for another token). */
mcore_JsonReason mcore_JsonGetDouble(const mcore_JsonDoc* doc, uint32_t number, double* out);
mcore_JsonReason mcore_JsonGetFloat(const mcore_JsonDoc* doc, uint32_t number, float* out);
mcore_JsonReason mcore_JsonGetInt64(const mcore_JsonDoc* doc, uint32_t number, int64_t* out);
mcore_JsonReason mcore_JsonGetUint64(const mcore_JsonDoc* doc, uint32_t number, uint64_t* out);

/* Conversions of a number's text (RFC 8259's grammar; anything else is
 * mcore_jsonNumberForm). On a refusal *out is unchanged. Binary64 and
 * binary32: correctly rounded, nearest, ties to even; mcore_jsonRange for a
 * magnitude that rounds past the largest finite value. Integers: integer
 * text only (mcore_jsonNotInteger for a fraction or an exponent, "1.0" and
 * "1e2" included), mcore_jsonRange outside the type ("-0" is 0). */
mcore_JsonReason mcore_JsonParseDouble(const char* text, size_t length, double* out);
mcore_JsonReason mcore_JsonParseFloat(const char* text, size_t length, float* out);
mcore_JsonReason mcore_JsonParseInt64(const char* text, size_t length, int64_t* out);
mcore_JsonReason mcore_JsonParseUint64(const char* text, size_t length, uint64_t* out);

/* The shortest text that reads back (mcore_JsonParseDouble,
 * mcore_JsonParseFloat) to the same value, laid out as ECMAScript's
 * Number::toString: of the shortest digit strings that read back, the one
 * nearest the value (ties: the even one); "-0" for a negative zero (a form
 * that writes it as 0 passes 0). Writes at most MCORE_JSON_NUMBER_CHARS bytes,
 * no NUL, and returns the count; 0 for a NaN or an infinity. */
size_t mcore_JsonFormatDouble(double value, char* out);
size_t mcore_JsonFormatFloat(float value, char* out);

/* ---- Writer ---- */

/* A writer into a caller buffer (allocator NULL: past its capacity the
 * writer keeps counting, writes nothing more and finishes with
 * mcore_jsonCapacity and the length needed) or into a buffer the allocator
 * grows. The first refusal sticks: later calls do nothing. */
typedef struct mcore_JsonWriter {
    char* buffer;   /* the text so far: the caller's buffer, or the allocator's block */
    size_t capacity; /* bytes the buffer holds */
    size_t length;   /* bytes written (or needed, past a caller buffer's capacity) */
    mcore_JsonAllocator allocator; /* a growable writer's allocator (the C library's when given none) */
    int growable;    /* whether the buffer is the allocator's, grown as needed */
    mcore_JsonReason failed;  /* the first refusal, or mcore_jsonOk */
    uint32_t depth;           /* containers open */
    uint8_t kinds[MCORE_JSON_MAX_DEPTH]; /* each open container: 1 array, 2 object */
    uint32_t items[MCORE_JSON_MAX_DEPTH]; /* values written in each open container */
    int keyPending;           /* a key was written; its value comes next */
    int done;                 /* the document's value is complete */
} mcore_JsonWriter;

/* Starts a writer: into buffer[0, capacity) when allocator is NULL, else into
 * a buffer the allocator grows (buffer and capacity ignored). */
void mcore_JsonWriterInit(mcore_JsonWriter* w, char* buffer, size_t capacity, const mcore_JsonAllocator* allocator);

/* Values. Inside an object each value follows a key. */
void mcore_JsonWriteNull(mcore_JsonWriter* w);
void mcore_JsonWriteBool(mcore_JsonWriter* w, int value);
void mcore_JsonWriteDouble(mcore_JsonWriter* w, double value); /* shortest binary64 */
void mcore_JsonWriteFloat(mcore_JsonWriter* w, float value);   /* shortest binary32 */
void mcore_JsonWriteInt64(mcore_JsonWriter* w, int64_t value);
void mcore_JsonWriteUint64(mcore_JsonWriter* w, uint64_t value);
void mcore_JsonWriteString(mcore_JsonWriter* w, const char* text, size_t length);
void mcore_JsonWriteBeginArray(mcore_JsonWriter* w);
void mcore_JsonWriteEndArray(mcore_JsonWriter* w);
void mcore_JsonWriteBeginObject(mcore_JsonWriter* w);
void mcore_JsonWriteEndObject(mcore_JsonWriter* w);
/* A member's key, inside an object, before its value. */
void mcore_JsonWriteKey(mcore_JsonWriter* w, const char* key, size_t length);

/* Ends the document with its new line: mcore_jsonOk with the text in
 * buffer[0, length), or the first refusal (mcore_jsonInvalid for a document
 * not complete). */
mcore_JsonReason mcore_JsonWriterFinish(mcore_JsonWriter* w);

/* Releases a growable writer's buffer (nothing for a caller buffer). */
void mcore_JsonWriterRelease(mcore_JsonWriter* w);

/* ---- Object forms ---- */

/* Type bits a form key takes. */
#define MCORE_JSON_TAKES_NULL (1u << mcore_jsonNull)
#define MCORE_JSON_TAKES_BOOL ((1u << mcore_jsonFalse) | (1u << mcore_jsonTrue))
#define MCORE_JSON_TAKES_NUMBER (1u << mcore_jsonNumber)
#define MCORE_JSON_TAKES_STRING (1u << mcore_jsonString)
#define MCORE_JSON_TAKES_ARRAY (1u << mcore_jsonArray)
#define MCORE_JSON_TAKES_OBJECT (1u << mcore_jsonObject)

/* One key of a form: its name, the types its value may have and whether it
 * may be left out. What a left-out key means is the form's (its default);
 * the MCORE_JSON_NONE a read gives for it tells "left out" from null. */
typedef struct mcore_JsonFormKey {
    const char* name; /* NUL-terminated */
    uint32_t takes;   /* MCORE_JSON_TAKES_... bits */
    int required;
} mcore_JsonFormKey;

/* Reads an object's members against a form of keyCount keys: found[k] gets
 * the value token of key k, or MCORE_JSON_NONE when left out.
 * mcore_jsonFormUnknown for a member of another key (offset: its key),
 * mcore_jsonFormType for a value of a type its key does not take (offset:
 * the value, key: its index), mcore_jsonFormMissing for a required key left
 * out (offset: the object, key: its index), mcore_jsonFormType with key
 * MCORE_JSON_NONE when the token is not an object. found is written only on
 * success. */
mcore_JsonResult mcore_JsonReadForm(const mcore_JsonDoc* doc, uint32_t object, const mcore_JsonFormKey* keys,
                                    uint32_t keyCount, uint32_t* found);

#ifdef __cplusplus
}
#endif

#endif
