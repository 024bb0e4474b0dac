/* import.h: maniOpenFbx (the binary container and records, the ASCII
 * tokens, the version), maniCloseFbx. Every offset and length is checked in
 * 64-bit arithmetic against the bytes before anything is read; the record
 * tree is walked with an explicit stack, never recursion. */
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/fbx/fbx_internal.h"

/* -- Results and memory ---------------------------------------------------------------- */

static maniImportResult mani_FbxResult(maniResult result, uint32_t reason, uint64_t offset) {
    maniImportResult r;
    r.result = result;
    r.reason = reason;
    r.item = 0;
    r.offset = offset;
    return r;
}

static maniImportResult mani_FbxOk(void) { return mani_FbxResult(mani_success, maniImportReasonNone, 0); }
static maniImportResult mani_FbxNoMemory(void) { return mani_FbxResult(mani_errorCapacity, maniImportReasonNone, 0); }
static maniImportResult mani_FbxBad(const maniFbx* f, uint64_t offset) {
    return mani_FbxResult(mani_errorFormat, f->ascii ? maniImportReasonSyntax : maniImportReasonContainer, offset);
}

#define MANI_FBX_TRY(expr)                                \
    do {                                                  \
        maniImportResult r_ = (expr);                     \
        if (r_.result != mani_success) return r_;         \
    } while (0)

/* Grows a table to hold one more entry (doubling, first 64). */
static int mani_FbxGrow(maniFbx* f, void** table, uint32_t count, uint32_t* capacity, size_t size) {
    if (count < *capacity) return 1;
    if (*capacity >= 0x40000000u) return 0;
    uint32_t next = *capacity ? *capacity * 2u : 64u;
    void* fresh = mani_BuilderAlloc(f->builder, (size_t)next * size, 16);
    if (fresh == NULL) return 0;
    if (*table != NULL) {
        memcpy(fresh, *table, (size_t)count * size);
        mani_BuilderFree(f->builder, *table, (size_t)*capacity * size);
    }
    *table = fresh;
    *capacity = next;
    return 1;
}

typedef struct mani_FbxBlock {
    struct mani_FbxBlock* next;
    size_t size; /* the whole block, header included */
} mani_FbxBlock;

#define MANI_FBX_BLOCK_HEADER ((sizeof(mani_FbxBlock) + 15u) / 16u * 16u)

void* mani_FbxAlloc(maniFbx* f, size_t size) {
    if (size == 0 || size > SIZE_MAX - MANI_FBX_BLOCK_HEADER) return NULL;
    size_t total = size + MANI_FBX_BLOCK_HEADER;
    mani_FbxBlock* b = (mani_FbxBlock*)mani_BuilderAlloc(f->builder, total, 16);
    if (b == NULL) return NULL;
    memset(b, 0, total);
    b->size = total;
    b->next = f->blocks;
    f->blocks = b;
    return (uint8_t*)b + MANI_FBX_BLOCK_HEADER;
}

static void mani_FbxDestroy(maniFbx* f) {
    f->closing = 1;
    uint32_t nodeCapacity = f->nodeCapacity, propCapacity = f->propCapacity;
    mani_FbxNode* nodes = f->nodes;
    mani_FbxProp* props = f->props;
    f->nodeCount = f->propCount = f->nodeCapacity = f->propCapacity = 0;
    f->nodes = NULL;
    f->props = NULL;
    f->firstTop = MANI_FBX_NONE;
    f->version = 0;
    f->modelCount = f->renamedCount = f->skinCount = 0;
    f->objectCount = f->linkCount = f->skeletonCount = 0;
    f->skins = NULL;
    f->models = NULL;
    f->renamed = NULL;
    while (f->blocks != NULL) {
        mani_FbxBlock* b = f->blocks;
        f->blocks = b->next;
        mani_BuilderFree(f->builder, b, b->size);
    }
    if (nodes != NULL) mani_BuilderFree(f->builder, nodes, (size_t)nodeCapacity * sizeof(mani_FbxNode));
    if (props != NULL) mani_BuilderFree(f->builder, props, (size_t)propCapacity * sizeof(mani_FbxProp));
    mani_BuilderFree(f->builder, f, sizeof(maniFbx));
}

void maniCloseFbx(maniFbx* f) {
    if (f == NULL || f->closing) return;
    if (f->builder->busy || f->builder->destroying) {
        f->builder->misuse++;
        return;
    }
    mani_FbxDestroy(f);
}

/* Appends a node under parent (linked after its last child, last). */
static maniImportResult mani_FbxAddNode(maniFbx* f, uint32_t parent, uint32_t* last, uint64_t offset,
                                        uint64_t nameOffset, uint32_t nameLength, uint32_t* out) {
    if (!mani_FbxGrow(f, (void**)&f->nodes, f->nodeCount, &f->nodeCapacity, sizeof(mani_FbxNode)))
        return mani_FbxNoMemory();
    uint32_t i = f->nodeCount++;
    mani_FbxNode* n = &f->nodes[i];
    n->offset = offset;
    n->nameOffset = nameOffset;
    n->nameLength = nameLength;
    n->parent = parent;
    n->firstChild = MANI_FBX_NONE;
    n->next = MANI_FBX_NONE;
    n->firstProp = f->propCount;
    n->propCount = 0;
    if (*last != MANI_FBX_NONE) f->nodes[*last].next = i;
    else if (parent != MANI_FBX_NONE) f->nodes[parent].firstChild = i;
    else f->firstTop = i;
    *last = i;
    *out = i;
    return mani_FbxOk();
}

static maniImportResult mani_FbxAddProp(maniFbx* f, uint32_t node, uint8_t type, uint8_t encoding, uint32_t count,
                                        uint64_t offset, uint64_t length) {
    if (!mani_FbxGrow(f, (void**)&f->props, f->propCount, &f->propCapacity, sizeof(mani_FbxProp)))
        return mani_FbxNoMemory();
    mani_FbxProp* p = &f->props[f->propCount++];
    memset(p, 0, sizeof *p);
    p->type = type;
    p->encoding = encoding;
    p->count = count;
    p->offset = offset;
    p->length = length;
    f->nodes[node].propCount++;
    return mani_FbxOk();
}

/* -- Binary ------------------------------------------------------------------------------ */

static const char mani_fbxMagic[21] = "Kaydara FBX Binary  ";  /* and its terminating zero */

/* The size of an array's element, 0 for a type that is not an array. */
static uint32_t mani_FbxArrayElement(uint8_t type) {
    switch (type) {
        case 'b': return 1;
        case 'i': case 'f': return 4;
        case 'l': case 'd': return 8;
        default: return 0;
    }
}

/* Reads a record's properties, [q, qe) the property list. */
static maniImportResult mani_FbxBinaryProps(maniFbx* f, uint32_t node, uint64_t q, uint64_t qe, uint64_t count) {
    for (uint64_t i = 0; i < count; i++) {
        if (q >= qe) return mani_FbxBad(f, q);
        uint8_t type = f->bytes[q];
        uint64_t at = q + 1, length;
        uint32_t n = 0;
        uint8_t encoding = 0;
        switch (type) {
            case 'C': length = 1; break;
            case 'Y': length = 2; break;
            case 'I': case 'F': length = 4; break;
            case 'L': case 'D': length = 8; break;
            case 'S': case 'R':
                if (qe - at < 4) return mani_FbxBad(f, at);
                length = mani_FbxLoad(f, at, 4);
                at += 4;
                break;
            case 'b': case 'i': case 'f': case 'l': case 'd': {
                if (qe - at < 12) return mani_FbxBad(f, at);
                uint64_t element = mani_FbxArrayElement(type);
                uint64_t c = mani_FbxLoad(f, at, 4), e = mani_FbxLoad(f, at + 4, 4), z = mani_FbxLoad(f, at + 8, 4);
                if (e > 1) return mani_FbxBad(f, at + 4);
                if (e == 0 && z != c * element) return mani_FbxBad(f, at + 8);
                /* deflate's best ratio is 1032:1: a larger header size is a bomb */
                if (e == 1 && c * element > z * 1032u + 64u) return mani_FbxBad(f, at);
                n = (uint32_t)c;
                encoding = (uint8_t)e;
                length = z;
                at += 12;
                break;
            }
            default: return mani_FbxBad(f, q);
        }
        if (qe - at < length) return mani_FbxBad(f, q);
        MANI_FBX_TRY(mani_FbxAddProp(f, node, type, encoding, n, at, length));
        q = at + length;
    }
    if (q != qe) return mani_FbxBad(f, q);
    return mani_FbxOk();
}

typedef struct mani_FbxLevel {
    uint64_t end;     /* the parent record's end offset */
    uint32_t parent;  /* the parent node */
    uint32_t last;    /* its last child so far */
} mani_FbxLevel;

static maniImportResult mani_FbxParseBinary(maniFbx* f) {
    const uint8_t* b = f->bytes;
    uint64_t size = f->size;
    for (uint64_t i = 0; i < 21; i++)
        if (i >= size || b[i] != (uint8_t)mani_fbxMagic[i]) return mani_FbxBad(f, i);
    if (size < 22 || b[21] != 0x1A) return mani_FbxBad(f, 21);
    if (size < 23 || b[22] > 1) return mani_FbxBad(f, 22);
    if (size < 27) return mani_FbxBad(f, size < 23 ? 22 : 23);
    f->bigEndian = b[22];
    uint64_t version = mani_FbxLoad(f, 23, 4);
    if (version < 3000 || version > 7700)
        return mani_FbxResult(mani_errorFormat, maniImportReasonVersion, 23);
    f->version = (uint32_t)version;
    unsigned w = version >= 7500 ? 8u : 4u;
    uint64_t hs = 3u * w + 1u;
    mani_FbxLevel stack[MANI_FBX_MAX_DEPTH + 1];
    uint32_t depth = 0;
    stack[0].end = size;
    stack[0].parent = MANI_FBX_NONE;
    stack[0].last = MANI_FBX_NONE;
    uint64_t pos = 27;
    for (;;) {
        uint64_t limit = stack[depth].end;
        if (depth == 0 && pos == size) break; /* no closing null record: the bytes end the list */
        if (limit - pos < hs) return mani_FbxBad(f, pos);
        uint64_t end = mani_FbxLoad(f, pos, w), count = mani_FbxLoad(f, pos + w, w);
        uint64_t plen = mani_FbxLoad(f, pos + 2u * w, w), nlen = b[pos + 3u * w];
        if (end == 0 && count == 0 && plen == 0 && nlen == 0) {
            if (depth == 0) break; /* the footer follows */
            if (pos + hs != limit) return mani_FbxBad(f, pos);
            pos = limit;
            depth--;
            continue;
        }
        uint64_t q = pos + hs + nlen;
        if (end > limit || end < pos + hs || q > end || end - q < plen) return mani_FbxBad(f, pos);
        uint32_t node;
        MANI_FBX_TRY(mani_FbxAddNode(f, stack[depth].parent, &stack[depth].last, pos, pos + hs, (uint32_t)nlen, &node));
        MANI_FBX_TRY(mani_FbxBinaryProps(f, node, q, q + plen, count));
        uint64_t qe = q + plen;
        if (end > qe) {
            if (depth + 1u >= MANI_FBX_MAX_DEPTH) return mani_FbxBad(f, qe);
            depth++;
            stack[depth].end = end;
            stack[depth].parent = node;
            stack[depth].last = MANI_FBX_NONE;
            pos = qe;
        } else {
            pos = end;
        }
    }
    if (depth != 0) return mani_FbxBad(f, pos);
    return mani_FbxOk();
}

/* -- ASCII ------------------------------------------------------------------------------- */

static int mani_FbxIsSpace(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
static int mani_FbxIsDigit(uint8_t c) { return c >= '0' && c <= '9'; }
static int mani_FbxIsAlpha(uint8_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int mani_FbxIsKeyChar(uint8_t c) { return mani_FbxIsAlpha(c) || mani_FbxIsDigit(c) || c == '_' || c == '|' || c == '-'; }
static int mani_FbxIsValueChar(uint8_t c) {
    return mani_FbxIsAlpha(c) || mani_FbxIsDigit(c) || c == '+' || c == '-' || c == '.' || c == '#' || c == '(' ||
           c == ')' || c == '_';
}

/* Skips white space and comments; newlines too unless lineOnly. */
static uint64_t mani_FbxSkip(const maniFbx* f, uint64_t pos, int lineOnly) {
    while (pos < f->size) {
        uint8_t c = f->bytes[pos];
        if (c == ';') {
            if (lineOnly) return pos; /* a comment ends the line */
            while (pos < f->size && f->bytes[pos] != '\n') pos++;
        } else if (c == '\n' && lineOnly) {
            return pos;
        } else if (mani_FbxIsSpace(c)) {
            pos++;
        } else {
            return pos;
        }
    }
    return pos;
}

/* Case-insensitive comparison of a span with a lower-case word. */
static int mani_FbxIs(const uint8_t* s, uint64_t n, const char* word) {
    uint64_t k = strlen(word);
    if (n != k) return 0;
    for (uint64_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c >= 'A' && c <= 'Z') c = (uint8_t)(c - 'A' + 'a');
        if (c != (uint8_t)word[i]) return 0;
    }
    return 1;
}

/* Whether a value's text is a number: decimal with optional fraction and
 * exponent, or an infinity or NaN as C libraries and MSVC print them. */
int mani_FbxIsNumberText(const uint8_t* s, uint64_t n) {
    uint64_t i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (i == n) return 0;
    const uint8_t* t = s + i;
    uint64_t m = n - i;
    if (mani_FbxIs(t, m, "inf") || mani_FbxIs(t, m, "infinity") || mani_FbxIs(t, m, "nan")) return 1;
    if (m > 4 && mani_FbxIs(t, 4, "nan(") && t[m - 1] == ')') {
        for (uint64_t k = 4; k + 1 < m; k++)
            if (!mani_FbxIsAlpha(t[k]) && !mani_FbxIsDigit(t[k]) && t[k] != '_') return 0;
        return 1;
    }
    uint64_t digits = 0;
    while (i < n && mani_FbxIsDigit(s[i])) i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        if (i < n && s[i] == '#') { /* 1.#INF, 1.#IND, 2.#QNAN, with digits after */
            if (digits == 0) return 0;
            i++;
            uint64_t w = i;
            while (i < n && mani_FbxIsAlpha(s[i])) i++;
            if (!(mani_FbxIs(s + w, i - w, "inf") || mani_FbxIs(s + w, i - w, "ind") ||
                  mani_FbxIs(s + w, i - w, "nan") || mani_FbxIs(s + w, i - w, "qnan") ||
                  mani_FbxIs(s + w, i - w, "snan")))
                return 0;
            while (i < n && mani_FbxIsDigit(s[i])) i++;
            return i == n;
        }
        while (i < n && mani_FbxIsDigit(s[i])) i++, digits++;
    }
    if (digits == 0) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        uint64_t e = 0;
        while (i < n && mani_FbxIsDigit(s[i])) i++, e++;
        if (e == 0) return 0;
    }
    return i == n;
}

/* Reads one value at pos into node; *posOut past it. */
static maniImportResult mani_FbxAsciiValue(maniFbx* f, uint32_t node, uint64_t pos, uint64_t* posOut) {
    const uint8_t* b = f->bytes;
    if (b[pos] == '"') {
        uint64_t e = pos + 1;
        while (e < f->size && b[e] != '"') e++;
        if (e >= f->size) return mani_FbxBad(f, pos);
        MANI_FBX_TRY(mani_FbxAddProp(f, node, 'S', 0, 0, pos + 1, e - pos - 1));
        *posOut = e + 1;
        return mani_FbxOk();
    }
    if (b[pos] == '*') {
        uint64_t e = pos + 1, count = 0;
        while (e < f->size && mani_FbxIsDigit(b[e])) {
            count = count * 10u + (uint64_t)(b[e] - '0');
            if (count > 0xFFFFFFFFu) return mani_FbxBad(f, pos);
            e++;
        }
        if (e == pos + 1) return mani_FbxBad(f, pos);
        MANI_FBX_TRY(mani_FbxAddProp(f, node, MANI_FBX_ASCII_ARRAY, 0, (uint32_t)count, pos, e - pos));
        *posOut = e;
        return mani_FbxOk();
    }
    uint64_t e = pos;
    while (e < f->size && mani_FbxIsValueChar(b[e])) e++;
    if (e == pos) return mani_FbxBad(f, pos);
    uint8_t type;
    if (mani_FbxIsNumberText(b + pos, e - pos)) type = MANI_FBX_ASCII_NUMBER;
    else if (e - pos == 1 && mani_FbxIsAlpha(b[pos])) type = MANI_FBX_ASCII_WORD;
    else return mani_FbxBad(f, pos);
    MANI_FBX_TRY(mani_FbxAddProp(f, node, type, 0, 0, pos, e - pos));
    *posOut = e;
    return mani_FbxOk();
}

/* Whether a key ("Name:") starts at pos; *endOut at its ':'. */
static int mani_FbxAsciiKey(const maniFbx* f, uint64_t pos, uint64_t* endOut) {
    uint64_t e = pos;
    while (e < f->size && mani_FbxIsKeyChar(f->bytes[e])) e++;
    if (e == pos || e >= f->size || f->bytes[e] != ':') return 0;
    *endOut = e;
    return 1;
}

/* The header comment's version ("; FBX 7.4.0 project file"), 0 for none. */
static uint32_t mani_FbxAsciiHeaderVersion(const maniFbx* f, uint64_t* atOut) {
    const uint8_t* b = f->bytes;
    uint64_t pos = 0;
    while (pos < f->size && mani_FbxIsSpace(b[pos])) pos++;
    if (pos >= f->size || b[pos] != ';') return 0;
    uint64_t e = pos;
    while (e < f->size && b[e] != '\n') e++;
    static const char lead[] = "; FBX ";
    if (e - pos < sizeof lead - 1 || memcmp(b + pos, lead, sizeof lead - 1) != 0) return 0;
    uint64_t i = pos + sizeof lead - 1;
    uint32_t parts[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        uint64_t s = i;
        while (i < e && mani_FbxIsDigit(b[i]) && i - s < 4) parts[k] = parts[k] * 10u + (uint32_t)(b[i++] - '0');
        if (i == s) return 0;
        if (k < 2) {
            if (i >= e || b[i] != '.') return 0;
            i++;
        }
    }
    *atOut = pos + sizeof lead - 1;
    return parts[0] * 1000u + parts[1] * 100u + parts[2] * 10u;
}

static maniImportResult mani_FbxParseAscii(maniFbx* f) {
    const uint8_t* b = f->bytes;
    uint64_t pos = 0;
    if (f->size >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) pos = 3;
    mani_FbxLevel stack[MANI_FBX_MAX_DEPTH + 1];
    uint64_t open[MANI_FBX_MAX_DEPTH + 1];
    uint32_t depth = 0;
    stack[0].parent = MANI_FBX_NONE;
    stack[0].last = MANI_FBX_NONE;
    for (;;) {
        pos = mani_FbxSkip(f, pos, 0);
        if (pos >= f->size) break;
        if (b[pos] == '}') {
            if (depth == 0) return mani_FbxBad(f, pos);
            depth--;
            pos++;
            continue;
        }
        uint64_t colon;
        if (!mani_FbxAsciiKey(f, pos, &colon)) return mani_FbxBad(f, pos);
        uint32_t node;
        MANI_FBX_TRY(mani_FbxAddNode(f, stack[depth].parent, &stack[depth].last, pos, pos, (uint32_t)(colon - pos), &node));
        pos = colon + 1;
        /* values: on the key's line or, when it has none, from the next;
         * a leading comma allowed, values separated by commas (a line may
         * end after one), then '{' children or the end of the line */
        int wantValue = 1;
        for (;;) {
            pos = mani_FbxSkip(f, pos, !wantValue);
            if (pos >= f->size) {
                if (wantValue) break; /* a trailing comma at the end of the text */
                break;
            }
            uint8_t c = b[pos];
            if (c == ',') {
                wantValue = 1;
                pos++;
                continue;
            }
            if (c == '{') {
                if (depth + 1u >= MANI_FBX_MAX_DEPTH) return mani_FbxBad(f, pos);
                depth++;
                stack[depth].parent = node;
                stack[depth].last = MANI_FBX_NONE;
                open[depth] = pos;
                pos++;
                break;
            }
            if (c == '\n' || c == ';') {
                /* a line may start with the comma that continues the values */
                uint64_t next = mani_FbxSkip(f, pos, 0);
                if (next < f->size && b[next] == ',') {
                    pos = next;
                    continue;
                }
                break;
            }
            if (c == '}') break;
            uint64_t keyEnd;
            if (wantValue && mani_FbxAsciiKey(f, pos, &keyEnd)) break; /* a trailing comma, then the next record */
            if (!wantValue && f->nodes[node].propCount > 0) return mani_FbxBad(f, pos); /* two values without a comma */
            MANI_FBX_TRY(mani_FbxAsciiValue(f, node, pos, &pos));
            wantValue = 0;
        }
    }
    if (depth != 0) return mani_FbxBad(f, open[depth]);
    return mani_FbxOk();
}

/* -- The version ------------------------------------------------------------------------- */

static maniImportResult mani_FbxReadVersion(maniFbx* f) {
    uint32_t ext = mani_FbxFind(f, MANI_FBX_NONE, "FBXHeaderExtension");
    uint32_t v = ext != MANI_FBX_NONE ? mani_FbxFind(f, ext, "FBXVersion") : MANI_FBX_NONE;
    const mani_FbxProp* p = v != MANI_FBX_NONE ? mani_FbxGetProp(f, v, 0) : NULL;
    uint64_t at = 0;
    int64_t version = 0;
    if (f->ascii) {
        version = mani_FbxAsciiHeaderVersion(f, &at);
        if (version == 0 && p != NULL) {
            at = p->offset;
            if (!mani_FbxPropInt(f, p, &version)) version = -1;
        }
        if (version == 0 && p == NULL) version = 7400;
    } else if (p != NULL) {
        at = p->offset;
        if (!mani_FbxPropInt(f, p, &version)) version = -1;
    } else {
        return mani_FbxOk(); /* the header's */
    }
    if (version < 3000 || version > 7700) return mani_FbxResult(mani_errorFormat, maniImportReasonVersion, at);
    f->version = (uint32_t)version;
    return mani_FbxOk();
}

/* -- The open ---------------------------------------------------------------------------- */

maniImportResult maniOpenFbx(maniBuilder* builder, const void* bytes, size_t size, maniFbx** fbxOut) {
    if (builder == NULL) return mani_FbxResult(mani_errorInvalid, maniImportReasonNone, 0);
    maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_FbxResult(entered, maniImportReasonNone, 0);
    if ((bytes == NULL && size > 0) || fbxOut == NULL) {
        builder->misuse++;
        return mani_FbxResult(mani_errorInvalid, maniImportReasonNone, 0);
    }
    if (bytes == NULL) bytes = "";
    maniFbx* f = (maniFbx*)mani_BuilderAlloc(builder, sizeof(maniFbx), _Alignof(maniFbx));
    if (f == NULL) return mani_FbxNoMemory();
    memset(f, 0, sizeof *f);
    f->builder = builder;
    f->bytes = (const uint8_t*)bytes;
    f->size = (uint64_t)size;
    f->firstTop = MANI_FBX_NONE;
    /* binary from the magic's first bytes on; anything else is text */
    int binary = size >= 18 && memcmp(bytes, mani_fbxMagic, 18) == 0;
    f->ascii = (uint8_t)!binary;
    maniImportResult r = binary ? mani_FbxParseBinary(f) : mani_FbxParseAscii(f);
    if (r.result == mani_success) r = mani_FbxReadVersion(f);
    if (r.result == mani_success) r = mani_FbxReadModels(f);
    if (r.result == mani_success) r = mani_FbxReadSkins(f);
    if (r.result == mani_success) r = mani_FbxReadGraph(f);
    if (r.result != mani_success) {
        mani_FbxDestroy(f);
        return r;
    }
    *fbxOut = f;
    return r;
}
