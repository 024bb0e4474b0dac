/* lib/core/json: the reader (json.h). One pass over the text with an
 * explicit stack of open containers (MCORE_JSON_MAX_DEPTH), tokens written
 * while they fit (counted past that, so a first read can size the array),
 * duplicate keys checked against the earlier keys of the same object. */
#include <stdlib.h>
#include <string.h>

#include "lib/core/json/json.h"
#include "lib/core/utf8.h"

/* Objects of up to MC_KEY_SCAN keys have each key compared with the earlier
 * ones; larger ones are checked through a hash table, so one object of many
 * keys reads in linear time. The table starts in the reader (this many
 * slots); mcore_JsonReadAlloc grows it from its allocator, while
 * mcore_JsonRead, which has none, scans the keys of an object that does not
 * fit it. */
#define MC_KEY_SCAN 8u
#define MC_KEY_STACK_SLOTS 2048u

typedef struct mc_Reader {
    const uint8_t* s;
    size_t n;
    size_t i;
    mcore_JsonToken* tokens;
    uint32_t capacity;
    uint32_t count;
    const mcore_JsonAllocator* grow; /* NULL: the caller's array */
    int failedGrow;
    /* The duplicate-key table of the objects with more than MC_KEY_SCAN keys:
     * open addressing, two words a slot (key token index + 1, 0 for empty;
     * the object's token index). A slot of an object already closed is
     * stale (its token's length is set). */
    uint32_t* keySlots;
    uint32_t keyMask;  /* slots - 1 */
    uint32_t keyUsed;  /* slots taken, stale included */
    uint32_t keyStack[2 * MC_KEY_STACK_SLOTS];
} mc_Reader;

/* Everything but the key table's slots, which are cleared when first used. */
static void mc_ReaderStart(mc_Reader* r, const uint8_t* text, size_t length, mcore_JsonToken* tokens,
                           uint32_t capacity, const mcore_JsonAllocator* grow) {
    r->s = text;
    r->n = length;
    r->i = 0;
    r->tokens = tokens;
    r->capacity = capacity;
    r->count = 0;
    r->grow = grow;
    r->failedGrow = 0;
    r->keySlots = NULL;
    r->keyMask = 0;
    r->keyUsed = 0;
}

typedef struct mc_Fail {
    mcore_JsonReason reason;
    size_t offset;
} mc_Fail;

static int mc_Ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static inline void mc_SkipWs(mc_Reader* r) {
    if (r->i < r->n && r->s[r->i] > ' ') return; /* minified text: no white space at all */
    while (r->i < r->n && mc_Ws(r->s[r->i])) r->i++;
}

/* Grows a growable array to hold token `index` (or marks the failure). */
static void mc_Grow(mc_Reader* r, uint32_t index) {
    uint32_t cap = r->capacity < 64 ? 64 : r->capacity;
    while (cap <= index) cap = cap > 0x7FFFFFFFu ? 0xFFFFFFFFu : cap * 2;
    mcore_JsonToken* grown = (mcore_JsonToken*)r->grow->allocate(r->grow->user, (size_t)cap * sizeof *grown);
    if (grown == NULL) {
        r->failedGrow = 1;
        return;
    }
    if (r->tokens != NULL) {
        memcpy(grown, r->tokens, (size_t)r->capacity * sizeof *grown);
        r->grow->release(r->grow->user, r->tokens, (size_t)r->capacity * sizeof *grown);
    }
    r->tokens = grown;
    r->capacity = cap;
}

/* A new token's index; written when the array holds it (grown if it may). */
static inline uint32_t mc_NewToken(mc_Reader* r, uint32_t type, size_t start) {
    const uint32_t index = r->count++;
    if (index >= r->capacity && r->grow != NULL && !r->failedGrow) mc_Grow(r, index);
    if (index < r->capacity) {
        mcore_JsonToken* t = &r->tokens[index];
        t->type = type;
        t->start = (uint32_t)start;
        t->length = 0;
        t->count = 0;
        t->next = index + 1;
    }
    return index;
}

static int mc_Hex(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Reads the four hex digits of a \u escape at s[i] (after the u). */
static int mc_Hex4(mc_Reader* r, size_t i, uint32_t* v, mc_Fail* fail) {
    uint32_t x = 0;
    for (int k = 0; k < 4; ++k) {
        if (i + k >= r->n) {
            fail->reason = mcore_jsonEnd;
            fail->offset = r->n;
            return 0;
        }
        const int h = mc_Hex(r->s[i + k]);
        if (h < 0) {
            fail->reason = mcore_jsonEscape;
            fail->offset = i + k;
            return 0;
        }
        x = x * 16 + (uint32_t)h;
    }
    *v = x;
    return 1;
}

/* Bytes a string takes as they are: ASCII from 0x20 but the quote and the
 * backslash. */
static const uint8_t mc_plain[256] = {
#define MC_ROW(b) (b) >= 0x20 && (b) != '"' && (b) != '\\' && (b) < 0x80
#define MC_R16(b) MC_ROW(b), MC_ROW(b + 1), MC_ROW(b + 2), MC_ROW(b + 3), MC_ROW(b + 4), MC_ROW(b + 5), MC_ROW(b + 6), \
                  MC_ROW(b + 7), MC_ROW(b + 8), MC_ROW(b + 9), MC_ROW(b + 10), MC_ROW(b + 11), MC_ROW(b + 12),          \
                  MC_ROW(b + 13), MC_ROW(b + 14), MC_ROW(b + 15)
    MC_R16(0x00), MC_R16(0x10), MC_R16(0x20), MC_R16(0x30), MC_R16(0x40), MC_R16(0x50), MC_R16(0x60), MC_R16(0x70),
#undef MC_R16
#undef MC_ROW
};

/* Scans a string whose quote is at r->i; r->i ends past the closing quote. */
static int mc_String(mc_Reader* r, uint32_t index, mc_Fail* fail) {
    const uint8_t* s = r->s;
    size_t i = r->i + 1;
    int escaped = 0;
    for (;;) {
        while (i < r->n && mc_plain[s[i]]) i++; /* the common bytes, at once */
        if (i >= r->n) {
            fail->reason = mcore_jsonEnd;
            fail->offset = r->n;
            return 0;
        }
        const uint8_t c = s[i];
        if (c == '"') break;
        if (c < 0x20) {
            fail->reason = mcore_jsonControl;
            fail->offset = i;
            return 0;
        }
        if (c == '\\') {
            escaped = 1;
            if (i + 1 >= r->n) {
                fail->reason = mcore_jsonEnd;
                fail->offset = r->n;
                return 0;
            }
            const uint8_t e = s[i + 1];
            if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
                i += 2;
                continue;
            }
            if (e != 'u') {
                fail->reason = mcore_jsonEscape;
                fail->offset = i + 1;
                return 0;
            }
            uint32_t v;
            if (!mc_Hex4(r, i + 2, &v, fail)) return 0;
            if (v >= 0xDC00 && v <= 0xDFFF) { /* a low surrogate with no high one before it */
                fail->reason = mcore_jsonEscape;
                fail->offset = i;
                return 0;
            }
            if (v >= 0xD800 && v <= 0xDBFF) { /* a high surrogate: a \u low surrogate must follow */
                const size_t j = i + 6;
                if (j >= r->n || (s[j] == '\\' && j + 1 >= r->n)) {
                    fail->reason = mcore_jsonEnd;
                    fail->offset = r->n;
                    return 0;
                }
                if (s[j] != '\\' || s[j + 1] != 'u') {
                    fail->reason = mcore_jsonEscape;
                    fail->offset = s[j] != '\\' ? j : j + 1;
                    return 0;
                }
                uint32_t lo;
                if (!mc_Hex4(r, j + 2, &lo, fail)) return 0;
                if (lo < 0xDC00 || lo > 0xDFFF) {
                    fail->reason = mcore_jsonEscape;
                    fail->offset = j;
                    return 0;
                }
                i = j + 6;
            } else {
                i += 6;
            }
            continue;
        }
        if (c < 0x80) {
            i++;
            continue;
        }
        int truncated;
        const size_t len = mcore_Utf8Sequence(s + i, r->n - i, &truncated);
        if (len == 0) {
            fail->reason = truncated ? mcore_jsonEnd : mcore_jsonUtf8;
            fail->offset = truncated ? r->n : i;
            return 0;
        }
        i += len;
    }
    if (index < r->capacity) {
        mcore_JsonToken* t = &r->tokens[index];
        t->start = (uint32_t)(r->i + 1);
        t->length = (uint32_t)(i - r->i - 1);
        t->count = (uint32_t)escaped;
    }
    r->i = i + 1;
    return 1;
}

static int mc_Digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* Scans a number at r->i (a '-' or a digit). */
static int mc_Number(mc_Reader* r, uint32_t index, mc_Fail* fail) {
    const uint8_t* s = r->s;
    const size_t start = r->i;
    size_t i = start;
#define MC_NEED_DIGIT()                                  \
    do {                                                 \
        if (i >= r->n) {                                 \
            fail->reason = mcore_jsonEnd;                \
            fail->offset = r->n;                         \
            return 0;                                    \
        }                                                \
        if (!mc_Digit(s[i])) {                           \
            fail->reason = mcore_jsonNumberForm;         \
            fail->offset = i;                            \
            return 0;                                    \
        }                                                \
    } while (0)
    if (s[i] == '-') i++;
    MC_NEED_DIGIT();
    if (s[i] == '0') {
        i++;
        if (i < r->n && mc_Digit(s[i])) {
            fail->reason = mcore_jsonNumberForm;
            fail->offset = i;
            return 0;
        }
    } else {
        while (i < r->n && mc_Digit(s[i])) i++;
    }
    if (i < r->n && s[i] == '.') {
        i++;
        MC_NEED_DIGIT();
        while (i < r->n && mc_Digit(s[i])) i++;
    }
    if (i < r->n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < r->n && (s[i] == '+' || s[i] == '-')) i++;
        MC_NEED_DIGIT();
        while (i < r->n && mc_Digit(s[i])) i++;
    }
#undef MC_NEED_DIGIT
    if (index < r->capacity) {
        r->tokens[index].start = (uint32_t)start;
        r->tokens[index].length = (uint32_t)(i - start);
    }
    r->i = i;
    return 1;
}

static int mc_Literal(mc_Reader* r, uint32_t index, const char* word, size_t len, mc_Fail* fail) {
    for (size_t k = 0; k < len; ++k) {
        if (r->i + k >= r->n) {
            fail->reason = mcore_jsonEnd;
            fail->offset = r->n;
            return 0;
        }
        if (r->s[r->i + k] != (uint8_t)word[k]) {
            fail->reason = mcore_jsonSyntax;
            fail->offset = r->i + k;
            return 0;
        }
    }
    if (index < r->capacity) r->tokens[index].length = (uint32_t)len;
    r->i += len;
    return 1;
}

/* ---- strings after their escapes ---- */

/* Decodes a validated string span byte by byte. */
typedef struct mc_Unescape {
    const uint8_t* s;
    size_t i, n;
    uint8_t pending[4];
    int np, pi;
} mc_Unescape;

static uint32_t mc_Hex4At(const uint8_t* s) {
    return (uint32_t)(mc_Hex(s[0]) << 12 | mc_Hex(s[1]) << 8 | mc_Hex(s[2]) << 4 | mc_Hex(s[3]));
}

/* The next byte, or -1 at the end. */
static int mc_UnescapeNext(mc_Unescape* u) {
    if (u->pi < u->np) return u->pending[u->pi++];
    if (u->i >= u->n) return -1;
    const uint8_t c = u->s[u->i];
    if (c != '\\') {
        u->i++;
        return c;
    }
    const uint8_t e = u->s[u->i + 1];
    u->i += 2;
    switch (e) {
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'u': break;
    default: return e; /* " \ / */
    }
    uint32_t cp = mc_Hex4At(u->s + u->i);
    u->i += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        const uint32_t lo = mc_Hex4At(u->s + u->i + 2);
        u->i += 6;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    u->np = 0;
    u->pi = 0;
    if (cp < 0x80) return (int)cp;
    if (cp < 0x800) {
        u->pending[u->np++] = (uint8_t)(0x80 | (cp & 0x3F));
        return (int)(0xC0 | (cp >> 6));
    }
    if (cp < 0x10000) {
        u->pending[u->np++] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        u->pending[u->np++] = (uint8_t)(0x80 | (cp & 0x3F));
        return (int)(0xE0 | (cp >> 12));
    }
    u->pending[u->np++] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    u->pending[u->np++] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    u->pending[u->np++] = (uint8_t)(0x80 | (cp & 0x3F));
    return (int)(0xF0 | (cp >> 18));
}

static void mc_UnescapeStart(mc_Unescape* u, const uint8_t* text, const mcore_JsonToken* t) {
    u->s = text + t->start;
    u->i = 0;
    u->n = t->length;
    u->np = 0;
    u->pi = 0;
}

/* Whether two string tokens say the same after their escapes. */
static int mc_SameString(const uint8_t* text, const mcore_JsonToken* a, const mcore_JsonToken* b) {
    if (a->count == 0 && b->count == 0)
        return a->length == b->length && memcmp(text + a->start, text + b->start, a->length) == 0;
    mc_Unescape ua, ub;
    mc_UnescapeStart(&ua, text, a);
    mc_UnescapeStart(&ub, text, b);
    for (;;) {
        const int x = mc_UnescapeNext(&ua), y = mc_UnescapeNext(&ub);
        if (x != y) return 0;
        if (x < 0) return 1;
    }
}

static int mc_StringIs(const uint8_t* text, const mcore_JsonToken* t, const char* key, size_t len) {
    if (t->count == 0) return t->length == len && (len == 0 || memcmp(text + t->start, key, len) == 0);
    mc_Unescape u;
    mc_UnescapeStart(&u, text, t);
    for (size_t k = 0; k < len; ++k)
        if (mc_UnescapeNext(&u) != (uint8_t)key[k]) return 0;
    return mc_UnescapeNext(&u) < 0;
}

/* ---- the duplicate-key table ---- */

static uint32_t mc_KeyHash(const uint8_t* text, const mcore_JsonToken* t, uint32_t owner) {
    uint32_t h = 2166136261u ^ (owner * 0x9E3779B1u);
    if (t->count == 0) {
        for (uint32_t k = 0; k < t->length; ++k) h = (h ^ text[t->start + k]) * 16777619u;
    } else {
        mc_Unescape u;
        mc_UnescapeStart(&u, text, t);
        for (int c = mc_UnescapeNext(&u); c >= 0; c = mc_UnescapeNext(&u)) h = (h ^ (uint32_t)c) * 16777619u;
    }
    return h ^ (h >> 15);
}

/* Looks a key of an object up; 1 when an earlier key says the same. Puts it
 * in the table otherwise (the caller made room). */
static int mc_KeySeen(mc_Reader* r, uint32_t key, uint32_t owner) {
    uint32_t at = mc_KeyHash(r->s, &r->tokens[key], owner) & r->keyMask;
    for (;; at = (at + 1) & r->keyMask) {
        const uint32_t k = r->keySlots[2 * at];
        if (k == 0) break;
        if (r->keySlots[2 * at + 1] == owner && mc_SameString(r->s, &r->tokens[k - 1], &r->tokens[key])) return 1;
    }
    r->keySlots[2 * at] = key + 1;
    r->keySlots[2 * at + 1] = owner;
    r->keyUsed++;
    return 0;
}

/* The keys of the open hashed objects: each object's first `members` keys
 * (its last one's value may still be open, so its `next` is not followed). */
typedef struct mc_OpenObjects {
    const uint32_t* open;
    const uint32_t* items;
    const uint8_t* isObject;
    uint32_t depth;
} mc_OpenObjects;

static uint32_t mc_KeysLive(const mc_OpenObjects* o) {
    uint32_t live = 0;
    for (uint32_t d = 0; d < o->depth; ++d)
        if (o->isObject[d] == 2) live += o->items[d] - (d + 1 == o->depth);
    return live;
}

/* Makes room for one more key: at three quarters full, the stale slots are
 * dropped and, when the live keys would fill half, the table doubles (from
 * the allocator). 0 when there is no room: the key is scanned instead. */
static int mc_KeyRoom(mc_Reader* r, const mc_OpenObjects* o) {
    if (r->keySlots == NULL) {
        memset(r->keyStack, 0, sizeof r->keyStack);
        r->keySlots = r->keyStack;
        r->keyMask = MC_KEY_STACK_SLOTS - 1;
        r->keyUsed = 0;
    }
    const uint32_t slots = r->keyMask + 1;
    if (r->keyUsed + 1 <= slots / 4 * 3) return 1;
    const uint32_t live = mc_KeysLive(o);
    uint32_t want = slots;
    while (live + 1 > want / 2 && want < 0x40000000u) want *= 2;
    uint32_t* table = r->keySlots;
    if (want != slots) {
        if (r->grow == NULL || r->failedGrow) return 0;
        table = (uint32_t*)r->grow->allocate(r->grow->user, (size_t)want * 2 * sizeof(uint32_t));
        if (table == NULL) {
            r->failedGrow = 1; /* the read ends in mcore_jsonCapacity; scanned until then */
            return 0;
        }
        if (r->keySlots != r->keyStack)
            r->grow->release(r->grow->user, r->keySlots, (size_t)slots * 2 * sizeof(uint32_t));
    }
    memset(table, 0, (size_t)want * 2 * sizeof(uint32_t));
    r->keySlots = table;
    r->keyMask = want - 1;
    r->keyUsed = 0;
    for (uint32_t d = 0; d < o->depth; ++d) {
        if (o->isObject[d] != 2) continue;
        const uint32_t members = o->items[d] - (d + 1 == o->depth);
        uint32_t k = o->open[d] + 1;
        for (uint32_t m = 0; m < members; ++m) {
            (void)mc_KeySeen(r, k, o->open[d]);
            if (m + 1 < members) k = r->tokens[k + 1].next;
        }
    }
    return 1;
}

static void mc_KeyRelease(mc_Reader* r) {
    if (r->keySlots != NULL && r->keySlots != r->keyStack && r->grow != NULL)
        r->grow->release(r->grow->user, r->keySlots, (size_t)(r->keyMask + 1) * 2 * sizeof(uint32_t));
    r->keySlots = NULL;
}

/* ---- the pass ---- */

static mc_Fail mc_Parse(mc_Reader* r) {
    mc_Fail fail = {mcore_jsonOk, 0};
    uint32_t open[MCORE_JSON_MAX_DEPTH];  /* token index of each open container */
    uint32_t items[MCORE_JSON_MAX_DEPTH]; /* members or items so far */
    uint8_t isObject[MCORE_JSON_MAX_DEPTH];
    uint32_t depth = 0;
    const uint8_t* s = r->s;
    /* states: a value expected; after a value */
    for (;;) {
        /* ---- a value ---- */
        mc_SkipWs(r);
        if (r->i >= r->n) {
            fail.reason = mcore_jsonEnd;
            fail.offset = r->n;
            return fail;
        }
        const uint8_t c = s[r->i];
        const size_t at = r->i;
        if (c == '{' || c == '[') {
            if (depth == MCORE_JSON_MAX_DEPTH) {
                fail.reason = mcore_jsonDepth;
                fail.offset = at;
                return fail;
            }
            const uint32_t index = mc_NewToken(r, c == '{' ? mcore_jsonObject : mcore_jsonArray, at);
            open[depth] = index;
            items[depth] = 0;
            isObject[depth] = c == '{'; /* 1: an object scanned, 2: hashed (MC_KEY_SCAN), 3: scanned for good */
            depth++;
            r->i++;
            mc_SkipWs(r);
            if (r->i < r->n && s[r->i] == (c == '{' ? '}' : ']')) {
                /* empty: closed below */
            } else if (c == '{') {
                goto key;
            } else {
                items[depth - 1] = 1;
                continue;
            }
        } else {
            uint32_t index;
            int ok;
            if (c == '"') {
                index = mc_NewToken(r, mcore_jsonString, at);
                ok = mc_String(r, index, &fail);
            } else if (c == '-' || mc_Digit(c)) {
                index = mc_NewToken(r, mcore_jsonNumber, at);
                ok = mc_Number(r, index, &fail);
            } else if (c == 't') {
                index = mc_NewToken(r, mcore_jsonTrue, at);
                ok = mc_Literal(r, index, "true", 4, &fail);
            } else if (c == 'f') {
                index = mc_NewToken(r, mcore_jsonFalse, at);
                ok = mc_Literal(r, index, "false", 5, &fail);
            } else if (c == 'n') {
                index = mc_NewToken(r, mcore_jsonNull, at);
                ok = mc_Literal(r, index, "null", 4, &fail);
            } else {
                fail.reason = mcore_jsonSyntax;
                fail.offset = at;
                return fail;
            }
            if (!ok) return fail;
        }
        /* ---- after a value: close containers, or a separator ---- */
        for (;;) {
            if (depth == 0) {
                mc_SkipWs(r);
                if (r->i != r->n) {
                    fail.reason = mcore_jsonTrailing;
                    fail.offset = r->i;
                }
                return fail;
            }
            mc_SkipWs(r);
            if (r->i >= r->n) {
                fail.reason = mcore_jsonEnd;
                fail.offset = r->n;
                return fail;
            }
            const uint8_t d = s[r->i];
            const uint8_t close = isObject[depth - 1] ? '}' : ']';
            if (d == close) {
                depth--;
                const uint32_t index = open[depth];
                if (index < r->capacity) {
                    mcore_JsonToken* t = &r->tokens[index];
                    t->length = (uint32_t)(r->i + 1 - t->start);
                    t->count = items[depth];
                    t->next = r->count;
                }
                r->i++;
                continue;
            }
            if (d != ',') {
                fail.reason = mcore_jsonSyntax;
                fail.offset = r->i;
                return fail;
            }
            r->i++;
            items[depth - 1]++;
            if (isObject[depth - 1]) {
                mc_SkipWs(r);
                goto key;
            }
            break; /* an array's next item */
        }
        continue;
    key:
        /* ---- a member's key, then its colon ---- */
        if (r->i >= r->n) {
            fail.reason = mcore_jsonEnd;
            fail.offset = r->n;
            return fail;
        }
        if (s[r->i] != '"') {
            fail.reason = mcore_jsonSyntax;
            fail.offset = r->i;
            return fail;
        }
        {
            if (items[depth - 1] == 0) items[depth - 1] = 1;
            const size_t keyAt = r->i;
            const uint32_t index = mc_NewToken(r, mcore_jsonString, keyAt);
            if (!mc_String(r, index, &fail)) return fail;
            if (index < r->capacity) {
                const uint32_t member = items[depth - 1], owner = open[depth - 1];
                const mc_OpenObjects o = {open, items, isObject, depth};
                int seen = 0;
                if (isObject[depth - 1] == 1 && member > MC_KEY_SCAN) {
                    /* the object outgrows the scan: its earlier keys into the table */
                    isObject[depth - 1] = 2;
                    uint32_t k = owner + 1;
                    for (uint32_t m = 1; m < member; ++m) {
                        if (!mc_KeyRoom(r, &o)) {
                            isObject[depth - 1] = 3;
                            break;
                        }
                        (void)mc_KeySeen(r, k, owner);
                        k = r->tokens[k + 1].next;
                    }
                }
                if (isObject[depth - 1] == 2) {
                    if (mc_KeyRoom(r, &o)) seen = mc_KeySeen(r, index, owner);
                    else isObject[depth - 1] = 3; /* no room: scanned from here on */
                }
                if (isObject[depth - 1] != 2) {
                    /* the earlier keys of this object: each key's value ends where the next key starts */
                    uint32_t k = owner + 1;
                    for (uint32_t m = 1; m < member && !seen; ++m) {
                        seen = mc_SameString(s, &r->tokens[k], &r->tokens[index]);
                        k = r->tokens[k + 1].next;
                    }
                }
                if (seen) {
                    fail.reason = mcore_jsonDuplicateKey;
                    fail.offset = keyAt;
                    return fail;
                }
            }
            mc_SkipWs(r);
            if (r->i >= r->n) {
                fail.reason = mcore_jsonEnd;
                fail.offset = r->n;
                return fail;
            }
            if (s[r->i] != ':') {
                fail.reason = mcore_jsonSyntax;
                fail.offset = r->i;
                return fail;
            }
            r->i++;
        }
    }
}

static mcore_JsonResult mc_Result(mcore_JsonReason reason, size_t offset, uint32_t needed) {
    mcore_JsonResult res;
    res.reason = reason;
    res.offset = offset;
    res.needed = needed;
    res.key = MCORE_JSON_NONE;
    return res;
}

mcore_JsonResult mcore_JsonRead(const uint8_t* text, size_t length, mcore_JsonToken* tokens, uint32_t capacity,
                                mcore_JsonDoc* doc) {
    if ((text == NULL && length != 0) || (tokens == NULL && capacity != 0) || doc == NULL)
        return mc_Result(mcore_jsonInvalid, 0, 0);
    if (length > MCORE_JSON_MAX_LENGTH) return mc_Result(mcore_jsonLimit, 0, 0);
    mc_Reader r;
    mc_ReaderStart(&r, text, length, tokens, capacity, NULL);
    const mc_Fail fail = mc_Parse(&r);
    if (fail.reason != mcore_jsonOk) return mc_Result(fail.reason, fail.offset, 0);
    if (r.count > capacity) return mc_Result(mcore_jsonCapacity, 0, r.count);
    doc->text = text;
    doc->length = length;
    doc->tokens = tokens;
    doc->count = r.count;
    doc->capacity = capacity;
    memset(&doc->allocator, 0, sizeof doc->allocator);
    doc->owned = 0;
    return mc_Result(mcore_jsonOk, 0, r.count);
}

static void* mc_Malloc(void* user, size_t size) {
    (void)user;
    return malloc(size);
}

static void mc_Free(void* user, void* block, size_t size) {
    (void)user;
    (void)size;
    free(block);
}

mcore_JsonResult mcore_JsonReadAlloc(const uint8_t* text, size_t length, const mcore_JsonAllocator* allocator,
                                     mcore_JsonDoc* doc) {
    if ((text == NULL && length != 0) || doc == NULL) return mc_Result(mcore_jsonInvalid, 0, 0);
    mcore_JsonAllocator a = {mc_Malloc, mc_Free, NULL};
    if (allocator != NULL) {
        if ((allocator->allocate == NULL) != (allocator->release == NULL)) return mc_Result(mcore_jsonInvalid, 0, 0);
        if (allocator->allocate != NULL) a = *allocator;
    }
    if (length > MCORE_JSON_MAX_LENGTH) return mc_Result(mcore_jsonLimit, 0, 0);
    mc_Reader r;
    mc_ReaderStart(&r, text, length, NULL, 0, &a);
    const mc_Fail fail = mc_Parse(&r);
    mc_KeyRelease(&r);
    mcore_JsonResult res;
    if (fail.reason != mcore_jsonOk) res = mc_Result(fail.reason, fail.offset, 0);
    else if (r.failedGrow) res = mc_Result(mcore_jsonCapacity, 0, r.count);
    else res = mc_Result(mcore_jsonOk, 0, r.count);
    if (res.reason != mcore_jsonOk) {
        if (r.tokens != NULL) a.release(a.user, r.tokens, (size_t)r.capacity * sizeof *r.tokens);
        return res;
    }
    doc->text = text;
    doc->length = length;
    doc->tokens = r.tokens;
    doc->count = r.count;
    doc->capacity = r.capacity;
    doc->allocator = a;
    doc->owned = 1;
    return res;
}

void mcore_JsonRelease(mcore_JsonDoc* doc) {
    if (doc == NULL) return;
    if (doc->owned && doc->tokens != NULL)
        doc->allocator.release(doc->allocator.user, doc->tokens, (size_t)doc->capacity * sizeof *doc->tokens);
    memset(doc, 0, sizeof *doc);
}

const mcore_JsonToken* mcore_JsonAt(const mcore_JsonDoc* doc, uint32_t index) {
    if (doc == NULL || index >= doc->count) return NULL;
    return &doc->tokens[index];
}

int mcore_JsonStringEquals(const mcore_JsonDoc* doc, uint32_t string, const char* key, size_t keyLength) {
    const mcore_JsonToken* t = mcore_JsonAt(doc, string);
    if (t == NULL || t->type != mcore_jsonString || (key == NULL && keyLength != 0)) return 0;
    return mc_StringIs(doc->text, t, key, keyLength);
}

uint32_t mcore_JsonFind(const mcore_JsonDoc* doc, uint32_t object, const char* key, size_t keyLength) {
    const mcore_JsonToken* t = mcore_JsonAt(doc, object);
    if (t == NULL || t->type != mcore_jsonObject || (key == NULL && keyLength != 0)) return MCORE_JSON_NONE;
    uint32_t k = object + 1;
    for (uint32_t m = 0; m < t->count; ++m) {
        if (mc_StringIs(doc->text, &doc->tokens[k], key, keyLength)) return k + 1;
        k = doc->tokens[k + 1].next;
    }
    return MCORE_JSON_NONE;
}

mcore_JsonReason mcore_JsonGetString(const mcore_JsonDoc* doc, uint32_t string, char* out, size_t capacity,
                                     size_t* length) {
    const mcore_JsonToken* t = mcore_JsonAt(doc, string);
    if (t == NULL || t->type != mcore_jsonString || length == NULL || (out == NULL && capacity != 0))
        return mcore_jsonInvalid;
    size_t n = 0;
    if (t->count == 0) {
        n = t->length;
        if (n > capacity) {
            *length = n;
            return mcore_jsonCapacity;
        }
        if (n != 0) memcpy(out, doc->text + t->start, n);
        *length = n;
        return mcore_jsonOk;
    }
    mc_Unescape u;
    mc_UnescapeStart(&u, doc->text, t);
    while (mc_UnescapeNext(&u) >= 0) n++;
    *length = n;
    if (n > capacity) return mcore_jsonCapacity;
    mc_UnescapeStart(&u, doc->text, t);
    for (size_t k = 0; k < n; ++k) out[k] = (char)mc_UnescapeNext(&u);
    return mcore_jsonOk;
}

static const mcore_JsonToken* mc_NumberToken(const mcore_JsonDoc* doc, uint32_t index) {
    const mcore_JsonToken* t = mcore_JsonAt(doc, index);
    return t != NULL && t->type == mcore_jsonNumber ? t : NULL;
}

mcore_JsonReason mcore_JsonGetDouble(const mcore_JsonDoc* doc, uint32_t number, double* out) {
    const mcore_JsonToken* t = mc_NumberToken(doc, number);
    if (t == NULL) return mcore_jsonInvalid;
    return mcore_JsonParseDouble((const char*)doc->text + t->start, t->length, out);
}

mcore_JsonReason mcore_JsonGetFloat(const mcore_JsonDoc* doc, uint32_t number, float* out) {
    const mcore_JsonToken* t = mc_NumberToken(doc, number);
    if (t == NULL) return mcore_jsonInvalid;
    return mcore_JsonParseFloat((const char*)doc->text + t->start, t->length, out);
}

mcore_JsonReason mcore_JsonGetInt64(const mcore_JsonDoc* doc, uint32_t number, int64_t* out) {
    const mcore_JsonToken* t = mc_NumberToken(doc, number);
    if (t == NULL) return mcore_jsonInvalid;
    return mcore_JsonParseInt64((const char*)doc->text + t->start, t->length, out);
}

mcore_JsonReason mcore_JsonGetUint64(const mcore_JsonDoc* doc, uint32_t number, uint64_t* out) {
    const mcore_JsonToken* t = mc_NumberToken(doc, number);
    if (t == NULL) return mcore_jsonInvalid;
    return mcore_JsonParseUint64((const char*)doc->text + t->start, t->length, out);
}

/* ---- object forms ---- */

/* Where a value starts in the text: a string's span begins after its quote. */
static size_t mc_ValueAt(const mcore_JsonToken* t) { return t->type == mcore_jsonString ? t->start - 1u : t->start; }

mcore_JsonResult mcore_JsonReadForm(const mcore_JsonDoc* doc, uint32_t object, const mcore_JsonFormKey* keys,
                                    uint32_t keyCount, uint32_t* found) {
    const mcore_JsonToken* t = mcore_JsonAt(doc, object);
    if (t == NULL || (keys == NULL && keyCount != 0) || (found == NULL && keyCount != 0))
        return mc_Result(mcore_jsonInvalid, 0, 0);
    for (uint32_t q = 0; q < keyCount; ++q)
        if (keys[q].name == NULL) return mc_Result(mcore_jsonInvalid, 0, 0);
    if (t->type != mcore_jsonObject) return mc_Result(mcore_jsonFormType, mc_ValueAt(t), 0);
    /* first pass: every member known and of its type; found written after */
    uint32_t k = object + 1;
    for (uint32_t m = 0; m < t->count; ++m) {
        const mcore_JsonToken* key = &doc->tokens[k];
        uint32_t which = MCORE_JSON_NONE;
        for (uint32_t q = 0; q < keyCount; ++q)
            if (mc_StringIs(doc->text, key, keys[q].name, strlen(keys[q].name))) {
                which = q;
                break;
            }
        if (which == MCORE_JSON_NONE) return mc_Result(mcore_jsonFormUnknown, key->start - 1, 0);
        const mcore_JsonToken* value = &doc->tokens[k + 1];
        if ((keys[which].takes & (1u << value->type)) == 0) {
            mcore_JsonResult res = mc_Result(mcore_jsonFormType, mc_ValueAt(value), 0);
            res.key = which;
            return res;
        }
        k = value->next;
    }
    for (uint32_t q = 0; q < keyCount; ++q) {
        if (keys[q].required && mcore_JsonFind(doc, object, keys[q].name, strlen(keys[q].name)) == MCORE_JSON_NONE) {
            mcore_JsonResult res = mc_Result(mcore_jsonFormMissing, t->start, 0);
            res.key = q;
            return res;
        }
    }
    for (uint32_t q = 0; q < keyCount; ++q) found[q] = mcore_JsonFind(doc, object, keys[q].name, strlen(keys[q].name));
    return mc_Result(mcore_jsonOk, 0, 0);
}
