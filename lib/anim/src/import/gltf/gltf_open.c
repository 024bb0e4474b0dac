/* import.h: maniOpenGltf (the GLB container, the JSON, buffers, views,
 * accessors, nodes, skins and skeletons, meshes, animations), maniCloseGltf
 * and maniGltf_SupplyBuffer. Every offset and length is checked in 64-bit
 * arithmetic against the bytes before anything is read. */
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"
#include "lib/anim/src/import/gltf/meshopt.h"
#include "lib/core/hash.h"

/* -- Memory -------------------------------------------------------------------------- */

typedef struct mani_GltfBlock {
    struct mani_GltfBlock* next;
    struct mani_GltfBlock* prev;
    size_t size; /* the whole block, header included */
    size_t pad;
} mani_GltfBlock;

#define MANI_GLTF_HEADER ((sizeof(mani_GltfBlock) + 15u) / 16u * 16u)

maniImportResult mani_GltfResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset) {
    maniImportResult r;
    r.result = result;
    r.reason = reason;
    r.item = item;
    r.offset = offset;
    return r;
}

static maniImportResult mani_GltfOk(void) { return mani_GltfResult(mani_success, maniImportReasonNone, 0, 0); }

void* mani_GltfAlloc(maniGltf* g, size_t size) {
    if (size == 0 || size > SIZE_MAX - MANI_GLTF_HEADER) return NULL;
    size_t total = size + MANI_GLTF_HEADER;
    mani_GltfBlock* b = (mani_GltfBlock*)mani_BuilderAlloc(g->builder, total, 16);
    if (b == NULL) return NULL;
    memset(b, 0, total);
    b->size = total;
    b->next = g->blocks;
    b->prev = NULL;
    if (g->blocks != NULL) g->blocks->prev = b;
    g->blocks = b;
    return (uint8_t*)b + MANI_GLTF_HEADER;
}

void mani_GltfFree(maniGltf* g, void* memory) {
    if (memory == NULL) return;
    mani_GltfBlock* b = (mani_GltfBlock*)(void*)((uint8_t*)memory - MANI_GLTF_HEADER);
    if (b->prev != NULL) b->prev->next = b->next;
    else g->blocks = b->next;
    if (b->next != NULL) b->next->prev = b->prev;
    mani_BuilderFree(g->builder, b, b->size);
}

static void* mani_GltfJsonAllocate(void* user, size_t size) {
    return mani_BuilderAlloc((maniBuilder*)user, size, 16);
}

static void mani_GltfJsonRelease(void* user, void* block, size_t size) {
    mani_BuilderFree((maniBuilder*)user, block, size);
}

/* Frees everything; the document reads as empty from the first line. */
static void mani_GltfDestroy(maniGltf* g) {
    g->closing = 1;
    g->bufferCount = g->viewCount = g->accessorCount = g->nodeCount = g->skinCount = g->skeletonCount = 0;
    g->meshCount = g->primitiveCount = g->attributeCount = g->targetCount = 0;
    g->animationCount = g->channelCount = g->samplerCount = 0;
    g->childCount = g->jointCount = g->skeletonNodeCount = g->skeletonRootCount = g->renamedCount = 0;
    while (g->blocks != NULL) {
        mani_GltfBlock* b = g->blocks;
        g->blocks = b->next;
        mani_BuilderFree(g->builder, b, b->size);
    }
    mcore_JsonRelease(&g->json);
    mani_BuilderFree(g->builder, g, sizeof(maniGltf));
}

void maniCloseGltf(maniGltf* g) {
    if (g == NULL || g->closing) return;
    if (g->builder->busy || g->builder->destroying) {
        g->builder->misuse++;
        return;
    }
    mani_GltfDestroy(g);
}

/* -- JSON helpers ---------------------------------------------------------------------- */

static const mcore_JsonToken* mani_GltfTok(const maniGltf* g, uint32_t t) { return &g->json.tokens[t]; }

uint64_t mani_GltfTokenOffset(const maniGltf* g, uint32_t token) {
    if (token >= g->json.count) return g->jsonOffset;
    const mcore_JsonToken* k = mani_GltfTok(g, token);
    uint64_t at = k->start;
    if (k->type == mcore_jsonString && at > 0) at--;
    return g->jsonOffset + at;
}

static maniImportResult mani_GltfProp(const maniGltf* g, uint64_t item, uint32_t token) {
    return mani_GltfResult(mani_errorFormat, maniImportReasonProperty, item, mani_GltfTokenOffset(g, token));
}

static uint32_t mani_GltfMember(const maniGltf* g, uint32_t object, const char* key) {
    if (object == MANI_GLTF_NONE) return MANI_GLTF_NONE;
    return mcore_JsonFind(&g->json, object, key, strlen(key));
}

static int mani_GltfIs(const maniGltf* g, uint32_t t, uint32_t type) {
    return t != MANI_GLTF_NONE && mani_GltfTok(g, t)->type == type;
}

mcore_JsonReason mani_GltfTokenFloat(const maniGltf* g, uint32_t token, float* out) {
    if (token == MANI_GLTF_NONE || token >= g->json.count) return mcore_jsonInvalid;
    return mcore_JsonGetFloat(&g->json, token, out);
}

/* The first item of an array token (items follow it), the next item. */
static uint32_t mani_GltfFirst(uint32_t array) { return array + 1; }
static uint32_t mani_GltfNext(const maniGltf* g, uint32_t item) { return mani_GltfTok(g, item)->next; }

/* An optional array member: MANI_GLTF_NONE when left out; Property when not
 * an array (or empty when nonEmpty). */
static maniImportResult mani_GltfArray(const maniGltf* g, uint32_t object, const char* key, uint64_t item,
                                       int nonEmpty, int required, uint32_t* out) {
    uint32_t t = mani_GltfMember(g, object, key);
    *out = MANI_GLTF_NONE;
    if (t == MANI_GLTF_NONE) {
        if (required) return mani_GltfProp(g, item, object);
        return mani_GltfOk();
    }
    if (!mani_GltfIs(g, t, mcore_jsonArray) || (nonEmpty && mani_GltfTok(g, t)->count == 0))
        return mani_GltfProp(g, item, t);
    *out = t;
    return mani_GltfOk();
}

/* An integer member in [min, max]: left out gives def (or Property when
 * required). */
static maniImportResult mani_GltfU64(const maniGltf* g, uint32_t object, const char* key, uint64_t item, int required,
                                     uint64_t def, uint64_t min, uint64_t max, uint64_t* out) {
    uint32_t t = mani_GltfMember(g, object, key);
    if (t == MANI_GLTF_NONE) {
        if (required) return mani_GltfProp(g, item, object);
        *out = def;
        return mani_GltfOk();
    }
    uint64_t v = 0;
    if (!mani_GltfIs(g, t, mcore_jsonNumber) || mcore_JsonGetUint64(&g->json, t, &v) != mcore_jsonOk || v < min ||
        v > max)
        return mani_GltfProp(g, item, t);
    *out = v;
    return mani_GltfOk();
}

/* An index member below limit, MANI_GLTF_NONE when left out (not required). */
static maniImportResult mani_GltfIndex(const maniGltf* g, uint32_t object, const char* key, uint64_t item,
                                       int required, uint32_t limit, uint32_t* out) {
    uint64_t v = 0;
    if (limit == 0) {
        uint32_t t = mani_GltfMember(g, object, key);
        if (t != MANI_GLTF_NONE) return mani_GltfProp(g, item, t);
        if (required) return mani_GltfProp(g, item, object);
        *out = MANI_GLTF_NONE;
        return mani_GltfOk();
    }
    maniImportResult r = mani_GltfU64(g, object, key, item, required, MANI_GLTF_NONE, 0, (uint64_t)limit - 1u, &v);
    if (r.result != mani_success) return r;
    *out = (uint32_t)v;
    return r;
}

/* An index token (an array item) below limit. */
static int mani_GltfIndexToken(const maniGltf* g, uint32_t t, uint32_t limit, uint32_t* out) {
    uint64_t v = 0;
    if (!mani_GltfIs(g, t, mcore_jsonNumber) || mcore_JsonGetUint64(&g->json, t, &v) != mcore_jsonOk || v >= limit)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* A string token after its escapes: in the text when it has none, else
 * copied into the document. */
static maniImportResult mani_GltfReadString(maniGltf* g, uint32_t t, uint64_t item, mani_GltfString* out) {
    const mcore_JsonToken* k = mani_GltfTok(g, t);
    if (k->type != mcore_jsonString) return mani_GltfProp(g, item, t);
    out->token = t;
    if (k->count == 0) {
        out->text = (const char*)g->json.text + k->start;
        out->length = k->length;
        return mani_GltfOk();
    }
    size_t length = 0;
    (void)mcore_JsonGetString(&g->json, t, NULL, 0, &length);
    char* text = (char*)mani_GltfAlloc(g, length + 1);
    if (text == NULL) return mani_GltfResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    if (mcore_JsonGetString(&g->json, t, text, length + 1, &length) != mcore_jsonOk) return mani_GltfProp(g, item, t);
    out->text = text;
    out->length = (uint32_t)length;
    return mani_GltfOk();
}

/* An optional string member (text NULL when left out). */
static maniImportResult mani_GltfStringMember(maniGltf* g, uint32_t object, const char* key, uint64_t item,
                                              mani_GltfString* out) {
    out->text = NULL;
    out->length = 0;
    out->token = MANI_GLTF_NONE;
    uint32_t t = mani_GltfMember(g, object, key);
    if (t == MANI_GLTF_NONE) return mani_GltfOk();
    return mani_GltfReadString(g, t, item, out);
}

/* An array member of exactly n binary32 numbers into out (left as it is
 * when the member is left out); *present set. */
static maniImportResult mani_GltfFloats(const maniGltf* g, uint32_t object, const char* key, uint64_t item,
                                        uint32_t n, float* out, int* present) {
    uint32_t t = mani_GltfMember(g, object, key);
    *present = 0;
    if (t == MANI_GLTF_NONE) return mani_GltfOk();
    if (!mani_GltfIs(g, t, mcore_jsonArray) || mani_GltfTok(g, t)->count != n) return mani_GltfProp(g, item, t);
    uint32_t it = mani_GltfFirst(t);
    for (uint32_t i = 0; i < n; i++, it = mani_GltfNext(g, it)) {
        float v;
        if (mani_GltfTokenFloat(g, it, &v) != mcore_jsonOk) return mani_GltfProp(g, item, it);
        out[i] = v;
    }
    *present = 1;
    return mani_GltfOk();
}

static int mani_GltfEquals(const maniGltf* g, uint32_t t, const char* s) {
    return mani_GltfIs(g, t, mcore_jsonString) && mcore_JsonStringEquals(&g->json, t, s, strlen(s));
}

/* The array a top-level member holds (count 0 when left out). */
static maniImportResult mani_GltfTop(maniGltf* g, const char* key, uint32_t* token, uint32_t* count) {
    maniImportResult r = mani_GltfArray(g, g->root, key, 0, 0, 0, token);
    *count = (r.result == mani_success && *token != MANI_GLTF_NONE) ? mani_GltfTok(g, *token)->count : 0;
    return r;
}

static maniImportResult mani_GltfNoMemory(void) { return mani_GltfResult(mani_errorCapacity, maniImportReasonNone, 0, 0); }

#define MANI_GLTF_TRY(expr)                              \
    do {                                                 \
        maniImportResult mani_try_ = (expr);             \
        if (mani_try_.result != mani_success) return mani_try_; \
    } while (0)

static void* mani_GltfArrayAlloc(maniGltf* g, size_t count, size_t size) {
    if (count == 0) return NULL;
    if (count > SIZE_MAX / size) return NULL;
    return mani_GltfAlloc(g, count * size);
}

#define MANI_GLTF_TABLE(g, ptr, count)                                          \
    do {                                                                        \
        if ((count) > 0) {                                                      \
            *(void**)&(ptr) = mani_GltfArrayAlloc((g), (count), sizeof(*(ptr))); \
            if ((ptr) == NULL) return mani_GltfNoMemory();                      \
        }                                                                       \
    } while (0)

/* -- Container -------------------------------------------------------------------------- */

static uint32_t mani_GltfLe32(const uint8_t* p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static maniImportResult mani_GltfContainer(uint64_t offset) {
    return mani_GltfResult(mani_errorFormat, maniImportReasonContainer, 0, offset);
}

/* Finds the JSON text (and the BIN chunk) of GLB bytes. */
static maniImportResult mani_GltfReadGlb(const uint8_t* bytes, size_t size, size_t* jsonOffset, size_t* jsonLength,
                                         const uint8_t** bin, uint64_t* binLength) {
    if (size < 12) return mani_GltfContainer(size);
    if (mani_GltfLe32(bytes + 4) != 2) return mani_GltfContainer(4);
    uint64_t length = mani_GltfLe32(bytes + 8);
    if (length > size || length < 20 || length % 4 != 0) return mani_GltfContainer(8);
    uint64_t at = 12;
    uint32_t chunk = 0;
    *bin = NULL;
    *binLength = 0;
    while (at < length) {
        if (length - at < 8) return mani_GltfContainer(at);
        uint64_t chunkLength = mani_GltfLe32(bytes + at);
        uint32_t type = mani_GltfLe32(bytes + at + 4);
        if (chunkLength % 4 != 0 || chunkLength > length - at - 8) return mani_GltfContainer(at);
        if (chunk == 0) {
            if (type != 0x4E4F534Au) return mani_GltfContainer(at + 4);
            *jsonOffset = (size_t)(at + 8);
            *jsonLength = (size_t)chunkLength;
        } else if (type == 0x004E4942u) {
            if (chunk != 1) return mani_GltfContainer(at + 4);
            *bin = bytes + at + 8;
            *binLength = chunkLength;
        } else if (type == 0x4E4F534Au) {
            return mani_GltfContainer(at + 4);
        }
        at += 8 + chunkLength;
        chunk++;
    }
    if (chunk == 0) return mani_GltfContainer(12);
    return mani_GltfOk();
}

/* -- Base64 (data: URIs) ---------------------------------------------------------------------- */

static int mani_GltfBase64Value(uint8_t c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/* Decodes base64 (padding optional; no other bytes). -1 for a refused
 * text, else the decoded length; out may be NULL (a length query). */
static int64_t mani_GltfBase64(const char* text, size_t length, uint8_t* out) {
    while (length > 0 && text[length - 1] == '=') length--;
    if (length % 4 == 1) return -1;
    uint64_t n = 0;
    uint32_t acc = 0, bits = 0;
    for (size_t i = 0; i < length; i++) {
        int v = mani_GltfBase64Value((uint8_t)text[i]);
        if (v < 0) return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (out != NULL) out[n] = (uint8_t)(acc >> bits);
            n++;
            acc &= (1u << bits) - 1u;
        }
    }
    return (int64_t)n;
}

/* -- Required extensions --------------------------------------------------------------- */

static const char* const mani_gltfSupported[] = {
    "EXT_meshopt_compression",   "KHR_meshopt_compression", "KHR_mesh_quantization", "KHR_animation_pointer",
    "KHR_draco_mesh_compression", "KHR_texture_transform",   "KHR_texture_basisu",    "EXT_texture_webp",
    "EXT_texture_avif",          "KHR_lights_punctual",     "KHR_materials_",
};

static int mani_GltfSupported(const maniGltf* g, uint32_t t) {
    const mcore_JsonToken* k = mani_GltfTok(g, t);
    if (k->type != mcore_jsonString || k->count != 0) return 0;
    const char* s = (const char*)g->json.text + k->start;
    for (size_t i = 0; i < sizeof mani_gltfSupported / sizeof mani_gltfSupported[0]; i++) {
        size_t n = strlen(mani_gltfSupported[i]);
        int prefix = mani_gltfSupported[i][n - 1] == '_';
        if (prefix ? (k->length > n && memcmp(s, mani_gltfSupported[i], n) == 0)
                   : (k->length == n && memcmp(s, mani_gltfSupported[i], n) == 0))
            return 1;
    }
    return 0;
}

/* "major.minor" with digits only; 0 for another form. */
static int mani_GltfVersion(const maniGltf* g, uint32_t t, uint64_t* major, uint64_t* minor) {
    const mcore_JsonToken* k = mani_GltfTok(g, t);
    if (k->type != mcore_jsonString || k->count != 0) return 0;
    const char* s = (const char*)g->json.text + k->start;
    size_t n = k->length, i = 0;
    uint64_t a = 0, b = 0;
    size_t digits = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9' && digits < 9; i++, digits++) a = a * 10 + (uint64_t)(s[i] - '0');
    if (digits == 0 || i >= n || s[i] != '.') return 0;
    i++;
    digits = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9' && digits < 9; i++, digits++) b = b * 10 + (uint64_t)(s[i] - '0');
    if (digits == 0 || i != n) return 0;
    *major = a;
    *minor = b;
    return 1;
}

static maniImportResult mani_GltfReadAsset(maniGltf* g) {
    uint32_t asset = mani_GltfMember(g, g->root, "asset");
    if (!mani_GltfIs(g, asset, mcore_jsonObject)) return mani_GltfProp(g, 0, asset != MANI_GLTF_NONE ? asset : g->root);
    uint32_t version = mani_GltfMember(g, asset, "version");
    uint64_t major = 0, minor = 0;
    if (version == MANI_GLTF_NONE) return mani_GltfProp(g, 0, asset);
    if (!mani_GltfVersion(g, version, &major, &minor)) return mani_GltfProp(g, 0, version);
    if (major != 2)
        return mani_GltfResult(mani_errorFormat, maniImportReasonVersion, 0, mani_GltfTokenOffset(g, version));
    uint32_t minVersion = mani_GltfMember(g, asset, "minVersion");
    if (minVersion != MANI_GLTF_NONE) {
        uint64_t ma = 0, mi = 0;
        if (!mani_GltfVersion(g, minVersion, &ma, &mi)) return mani_GltfProp(g, 0, minVersion);
        if (ma != 2 || mi != 0 || ma > major || (ma == major && mi > minor))
            return mani_GltfResult(mani_errorFormat, maniImportReasonVersion, 0, mani_GltfTokenOffset(g, minVersion));
    }
    uint32_t required = MANI_GLTF_NONE;
    MANI_GLTF_TRY(mani_GltfArray(g, g->root, "extensionsRequired", 0, 0, 0, &required));
    g->extensionsRequiredToken = required;
    if (required != MANI_GLTF_NONE) {
        uint32_t it = mani_GltfFirst(required);
        for (uint32_t i = 0; i < mani_GltfTok(g, required)->count; i++, it = mani_GltfNext(g, it)) {
            if (!mani_GltfIs(g, it, mcore_jsonString)) return mani_GltfProp(g, i, it);
            if (!mani_GltfSupported(g, it))
                return mani_GltfResult(mani_errorFormat, maniImportReasonUnsupported, i, mani_GltfTokenOffset(g, it));
        }
    }
    return mani_GltfOk();
}

/* -- Buffers and views ------------------------------------------------------------------------ */

/* A buffer's or view's meshopt extension object (EXT or KHR), and which. */
static uint32_t mani_GltfMeshoptExt(const maniGltf* g, uint32_t object, uint32_t* which) {
    uint32_t ext = mani_GltfMember(g, object, "extensions");
    if (!mani_GltfIs(g, ext, mcore_jsonObject)) return MANI_GLTF_NONE;
    uint32_t e = mani_GltfMember(g, ext, "KHR_meshopt_compression");
    if (e != MANI_GLTF_NONE) {
        *which = 2;
        return e;
    }
    e = mani_GltfMember(g, ext, "EXT_meshopt_compression");
    if (e != MANI_GLTF_NONE) *which = 1;
    return e;
}

static maniImportResult mani_GltfReadBuffers(maniGltf* g, const uint8_t* bin, uint64_t binLength, int glb) {
    uint32_t top;
    MANI_GLTF_TRY(mani_GltfTop(g, "buffers", &top, &g->bufferCount));
    MANI_GLTF_TABLE(g, g->buffers, g->bufferCount);
    uint32_t it = mani_GltfFirst(top);
    for (uint32_t i = 0; i < g->bufferCount; i++, it = mani_GltfNext(g, it)) {
        mani_GltfBuffer* b = &g->buffers[i];
        if (!mani_GltfIs(g, it, mcore_jsonObject)) return mani_GltfProp(g, i, it);
        b->token = it;
        MANI_GLTF_TRY(mani_GltfU64(g, it, "byteLength", i, 1, 0, 1, UINT64_MAX, &b->byteLength));
        MANI_GLTF_TRY(mani_GltfStringMember(g, it, "uri", i, &b->uri));
        uint32_t which = 0;
        uint32_t ext = mani_GltfMeshoptExt(g, it, &which);
        int fallback = 0;
        if (ext != MANI_GLTF_NONE) {
            if (!mani_GltfIs(g, ext, mcore_jsonObject)) return mani_GltfProp(g, i, ext);
            uint32_t f = mani_GltfMember(g, ext, "fallback");
            if (f != MANI_GLTF_NONE) {
                if (mani_GltfTok(g, f)->type == mcore_jsonTrue) fallback = 1;
                else if (mani_GltfTok(g, f)->type != mcore_jsonFalse) return mani_GltfProp(g, i, f);
            }
        }
        if (fallback) {
            b->kind = mani_gltfBufferUnread;
        } else if (b->uri.text == NULL) {
            if (glb && i == 0 && bin != NULL) {
                if (binLength < b->byteLength)
                    return mani_GltfResult(mani_errorFormat, maniImportReasonBuffer, i, mani_GltfTokenOffset(g, it));
                b->kind = mani_gltfBufferGlb;
                b->data = bin;
            } else {
                b->kind = mani_gltfBufferUnread;
            }
        } else if (b->uri.length >= 5 && memcmp(b->uri.text, "data:", 5) == 0) {
            const char* comma = memchr(b->uri.text, ',', b->uri.length);
            size_t head = comma != NULL ? (size_t)(comma - b->uri.text) : 0;
            if (comma == NULL || head < 12 || memcmp(comma - 7, ";base64", 7) != 0)
                return mani_GltfProp(g, i, b->uri.token);
            const char* text = comma + 1;
            size_t length = b->uri.length - head - 1;
            int64_t n = mani_GltfBase64(text, length, NULL);
            if (n < 0) return mani_GltfProp(g, i, b->uri.token);
            if ((uint64_t)n < b->byteLength)
                return mani_GltfResult(mani_errorFormat, maniImportReasonBuffer, i, mani_GltfTokenOffset(g, it));
            uint8_t* data = (uint8_t*)mani_GltfAlloc(g, (size_t)n);
            if (data == NULL) return mani_GltfNoMemory();
            (void)mani_GltfBase64(text, length, data);
            b->kind = mani_gltfBufferData;
            b->data = data;
        } else {
            b->kind = mani_gltfBufferExternal;
        }
    }
    return mani_GltfOk();
}

static maniImportResult mani_GltfReadViews(maniGltf* g) {
    uint32_t top;
    MANI_GLTF_TRY(mani_GltfTop(g, "bufferViews", &top, &g->viewCount));
    MANI_GLTF_TABLE(g, g->views, g->viewCount);
    uint32_t it = mani_GltfFirst(top);
    for (uint32_t i = 0; i < g->viewCount; i++, it = mani_GltfNext(g, it)) {
        mani_GltfView* v = &g->views[i];
        uint64_t x = 0;
        if (!mani_GltfIs(g, it, mcore_jsonObject)) return mani_GltfProp(g, i, it);
        v->token = it;
        MANI_GLTF_TRY(mani_GltfIndex(g, it, "buffer", i, 1, g->bufferCount, &v->buffer));
        MANI_GLTF_TRY(mani_GltfU64(g, it, "byteOffset", i, 0, 0, 0, UINT64_MAX, &v->byteOffset));
        MANI_GLTF_TRY(mani_GltfU64(g, it, "byteLength", i, 1, 0, 1, UINT64_MAX, &v->byteLength));
        MANI_GLTF_TRY(mani_GltfU64(g, it, "byteStride", i, 0, 0, 4, 252, &x));
        if (x % 4 != 0) return mani_GltfProp(g, i, mani_GltfMember(g, it, "byteStride"));
        v->byteStride = (uint32_t)x;
        MANI_GLTF_TRY(mani_GltfU64(g, it, "target", i, 0, 0, 0, UINT64_MAX, &x));
        if (x != 0 && x != 34962 && x != 34963) return mani_GltfProp(g, i, mani_GltfMember(g, it, "target"));
        v->target = (uint32_t)x;
        const mani_GltfBuffer* b = &g->buffers[v->buffer];
        if (v->byteOffset > b->byteLength || v->byteLength > b->byteLength - v->byteOffset)
            return mani_GltfProp(g, i, mani_GltfMember(g, it, "byteLength"));
        uint32_t which = 0;
        uint32_t ext = mani_GltfMeshoptExt(g, it, &which);
        if (ext == MANI_GLTF_NONE) {
            if (b->kind == mani_gltfBufferUnread)
                return mani_GltfResult(mani_errorFormat, maniImportReasonBuffer, v->buffer,
                                       mani_GltfTokenOffset(g, it));
            continue;
        }
        if (!mani_GltfIs(g, ext, mcore_jsonObject)) return mani_GltfProp(g, i, ext);
        v->meshopt = which;
        MANI_GLTF_TRY(mani_GltfIndex(g, ext, "buffer", i, 1, g->bufferCount, &v->source));
        MANI_GLTF_TRY(mani_GltfU64(g, ext, "byteOffset", i, 0, 0, 0, UINT64_MAX, &v->sourceOffset));
        MANI_GLTF_TRY(mani_GltfU64(g, ext, "byteLength", i, 1, 0, 1, UINT64_MAX, &v->sourceLength));
        MANI_GLTF_TRY(mani_GltfU64(g, ext, "byteStride", i, 1, 0, 1, 256, &x));
        v->stride = (uint32_t)x;
        MANI_GLTF_TRY(mani_GltfU64(g, ext, "count", i, 1, 0, 1, UINT32_MAX, &v->count));
        uint32_t mode = mani_GltfMember(g, ext, "mode");
        uint32_t filter = mani_GltfMember(g, ext, "filter");
        if (mode == MANI_GLTF_NONE) return mani_GltfProp(g, i, ext);
        const mcore_JsonToken* mk = mani_GltfTok(g, mode);
        int m = mk->type == mcore_jsonString
                    ? maniMeshoptModeFromName((const char*)g->json.text + mk->start, mk->length)
                    : -1;
        if (m < 0 || mk->count != 0) return mani_GltfProp(g, i, mode);
        int f = 0;
        if (filter != MANI_GLTF_NONE) {
            const mcore_JsonToken* fk = mani_GltfTok(g, filter);
            f = fk->type == mcore_jsonString
                    ? maniMeshoptFilterFromName((const char*)g->json.text + fk->start, fk->length)
                    : -1;
            if (f < 0 || fk->count != 0) return mani_GltfProp(g, i, filter);
        }
        v->mode = (uint32_t)m;
        v->filter = (uint32_t)f;
        const mani_GltfBuffer* s = &g->buffers[v->source];
        if (v->sourceOffset > s->byteLength || v->sourceLength > s->byteLength - v->sourceOffset)
            return mani_GltfProp(g, i, mani_GltfMember(g, ext, "byteLength"));
        if (s->kind == mani_gltfBufferUnread)
            return mani_GltfResult(mani_errorFormat, maniImportReasonBuffer, v->source, mani_GltfTokenOffset(g, ext));
        /* The decoded bytes must cover the view. */
        if (v->count * (uint64_t)v->stride < v->byteLength) return mani_GltfProp(g, i, mani_GltfMember(g, ext, "count"));
        if (v->count * (uint64_t)v->stride > ((uint64_t)1 << 40)) return mani_GltfProp(g, i, mani_GltfMember(g, ext, "count"));
    }
    return mani_GltfOk();
}

/* Decodes the meshopt views whose stream lies in buffer `buffer` (every
 * held one for MANI_GLTF_NONE) into fresh blocks; on a refusal every block
 * this call made is freed. With `replace`, earlier decodes are freed on
 * success. */
static maniImportResult mani_GltfDecodeViews(maniGltf* g, uint32_t buffer, const uint8_t* data) {
    maniImportResult r = mani_GltfOk();
    uint32_t i = 0;
    uint8_t** fresh = NULL;
    if (g->viewCount > 0) {
        fresh = (uint8_t**)mani_GltfArrayAlloc(g, g->viewCount, sizeof(uint8_t*));
        if (fresh == NULL) return mani_GltfNoMemory();
    }
    for (; i < g->viewCount; i++) {
        mani_GltfView* v = &g->views[i];
        if (v->meshopt == 0) continue;
        const uint8_t* src;
        if (buffer == MANI_GLTF_NONE) {
            src = g->buffers[v->source].data;
            if (src == NULL) continue;
        } else {
            if (v->source != buffer) continue;
            src = data;
        }
        uint64_t size = v->count * (uint64_t)v->stride;
        uint64_t alloc = size > v->byteLength ? size : v->byteLength;
        uint8_t* out = (uint8_t*)mani_GltfAlloc(g, (size_t)alloc);
        if (out == NULL) {
            r = mani_GltfNoMemory();
            break;
        }
        fresh[i] = out;
        size_t err = 0;
        maniResult d = maniMeshoptDecode(out, (size_t)v->count, v->stride, src + v->sourceOffset, (size_t)v->sourceLength,
                                         (maniMeshoptMode)v->mode, (maniMeshoptFilter)v->filter,
                                         v->meshopt == 2 ? maniMeshoptKhr : maniMeshoptExt, &err);
        if (d == mani_errorFormat) {
            r = mani_GltfResult(mani_errorFormat, maniImportReasonData, i, v->sourceOffset + err);
            break;
        }
        if (d != mani_success) {
            /* Arguments the decoder refuses: the extension's properties. */
            r = mani_GltfProp(g, i, v->token);
            break;
        }
    }
    if (r.result != mani_success) {
        for (uint32_t k = 0; k < g->viewCount; k++) mani_GltfFree(g, fresh[k]);
    } else {
        for (uint32_t k = 0; k < g->viewCount; k++) {
            if (fresh[k] == NULL) continue;
            mani_GltfFree(g, g->views[k].decoded);
            g->views[k].decoded = fresh[k];
        }
    }
    mani_GltfFree(g, fresh);
    return r;
}

maniImportResult mani_GltfViewBytes(const maniGltf* g, uint32_t view, const uint8_t** bytesOut, uint64_t* sizeOut) {
    const mani_GltfView* v = &g->views[view];
    if (v->meshopt != 0) {
        if (v->decoded == NULL)
            return mani_GltfResult(mani_errorFormat, maniImportReasonPending, v->source, 0);
        *bytesOut = v->decoded;
        *sizeOut = v->byteLength;
        return mani_GltfOk();
    }
    const mani_GltfBuffer* b = &g->buffers[v->buffer];
    if (b->data == NULL) return mani_GltfResult(mani_errorFormat, maniImportReasonPending, v->buffer, 0);
    *bytesOut = b->data + v->byteOffset;
    *sizeOut = v->byteLength;
    return mani_GltfOk();
}

/* -- Accessors -------------------------------------------------------------------------------- */

static uint32_t mani_GltfComponentSize(uint64_t type) {
    switch (type) {
        case MANI_GLTF_BYTE:
        case MANI_GLTF_UNSIGNED_BYTE: return 1;
        case MANI_GLTF_SHORT:
        case MANI_GLTF_UNSIGNED_SHORT: return 2;
        case MANI_GLTF_UNSIGNED_INT:
        case MANI_GLTF_FLOAT: return 4;
        default: return 0;
    }
}

static uint32_t mani_GltfTypeFromToken(const maniGltf* g, uint32_t t) {
    static const char* const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
    static const uint32_t types[] = {mani_gltfScalar, mani_gltfVec2, mani_gltfVec3, mani_gltfVec4,
                                     mani_gltfMat2,   mani_gltfMat3, mani_gltfMat4};
    for (int i = 0; i < 7; i++)
        if (mani_GltfEquals(g, t, names[i])) return types[i];
    return 0;
}

/* Bytes of one element: matrix columns start on 4-byte boundaries. */
static uint32_t mani_GltfElementSize(uint32_t type, uint32_t componentSize) {
    uint32_t columns = mani_GltfTypeColumns(type);
    uint32_t rows = mani_GltfTypeComponents(type) / columns;
    uint32_t column = rows * componentSize;
    if (columns > 1) column = (column + 3u) / 4u * 4u;
    return columns * column;
}

/* Checks that [offset, offset + span) fits in a view of the given length. */
static int mani_GltfFits(uint64_t offset, uint64_t span, uint64_t length) {
    return offset <= length && span <= length - offset;
}

static maniImportResult mani_GltfReadAccessors(maniGltf* g) {
    uint32_t top;
    MANI_GLTF_TRY(mani_GltfTop(g, "accessors", &top, &g->accessorCount));
    MANI_GLTF_TABLE(g, g->accessors, g->accessorCount);
    uint32_t it = mani_GltfFirst(top);
    for (uint32_t i = 0; i < g->accessorCount; i++, it = mani_GltfNext(g, it)) {
        mani_GltfAccessor* a = &g->accessors[i];
        uint64_t x = 0;
        if (!mani_GltfIs(g, it, mcore_jsonObject)) return mani_GltfProp(g, i, it);
        a->token = it;
        MANI_GLTF_TRY(mani_GltfIndex(g, it, "bufferView", i, 0, g->viewCount, &a->view));
        MANI_GLTF_TRY(mani_GltfU64(g, it, "byteOffset", i, 0, 0, 0, UINT64_MAX, &a->byteOffset));
        MANI_GLTF_TRY(mani_GltfU64(g, it, "componentType", i, 1, 0, 0, UINT64_MAX, &x));
        a->componentSize = mani_GltfComponentSize(x);
        if (a->componentSize == 0) return mani_GltfProp(g, i, mani_GltfMember(g, it, "componentType"));
        a->componentType = (uint32_t)x;
        uint32_t norm = mani_GltfMember(g, it, "normalized");
        if (norm != MANI_GLTF_NONE) {
            uint32_t nt = mani_GltfTok(g, norm)->type;
            if (nt != mcore_jsonTrue && nt != mcore_jsonFalse) return mani_GltfProp(g, i, norm);
            a->normalized = nt == mcore_jsonTrue;
            if (a->normalized && (a->componentType == MANI_GLTF_FLOAT || a->componentType == MANI_GLTF_UNSIGNED_INT))
                return mani_GltfProp(g, i, norm);
        }
        uint32_t type = mani_GltfMember(g, it, "type");
        if (type == MANI_GLTF_NONE) return mani_GltfProp(g, i, it);
        a->type = mani_GltfTypeFromToken(g, type);
        if (a->type == 0) return mani_GltfProp(g, i, type);
        MANI_GLTF_TRY(mani_GltfU64(g, it, "count", i, 1, 0, 1, UINT32_MAX, &x));
        a->count = (uint32_t)x;
        a->elementSize = mani_GltfElementSize(a->type, a->componentSize);
        a->stride = a->elementSize;
        if (a->byteOffset % a->componentSize != 0) return mani_GltfProp(g, i, mani_GltfMember(g, it, "byteOffset"));
        if (a->view != MANI_GLTF_NONE) {
            const mani_GltfView* v = &g->views[a->view];
            if (v->byteStride != 0) {
                if (v->byteStride < a->elementSize || v->byteStride % a->componentSize != 0)
                    return mani_GltfProp(g, i, v->token);
                a->stride = v->byteStride;
            }
            if (v->meshopt == 0 && (v->byteOffset + a->byteOffset) % a->componentSize != 0)
                return mani_GltfProp(g, i, mani_GltfMember(g, it, "byteOffset"));
            uint64_t span = (uint64_t)a->stride * (a->count - 1u) + a->elementSize;
            if (!mani_GltfFits(a->byteOffset, span, v->byteLength)) return mani_GltfProp(g, i, it);
        } else if (mani_GltfMember(g, it, "byteOffset") != MANI_GLTF_NONE && a->byteOffset != 0) {
            return mani_GltfProp(g, i, mani_GltfMember(g, it, "byteOffset"));
        }
        uint32_t components = mani_GltfTypeComponents(a->type);
        a->minToken = mani_GltfMember(g, it, "min");
        a->maxToken = mani_GltfMember(g, it, "max");
        uint32_t bounds[2] = {a->minToken, a->maxToken};
        for (int k = 0; k < 2; k++) {
            uint32_t t = bounds[k];
            if (t == MANI_GLTF_NONE) continue;
            if (!mani_GltfIs(g, t, mcore_jsonArray) || mani_GltfTok(g, t)->count != components)
                return mani_GltfProp(g, i, t);
            uint32_t e = mani_GltfFirst(t);
            for (uint32_t c = 0; c < components; c++, e = mani_GltfNext(g, e)) {
                double d;
                if (!mani_GltfIs(g, e, mcore_jsonNumber) || mcore_JsonGetDouble(&g->json, e, &d) != mcore_jsonOk)
                    return mani_GltfProp(g, i, e);
            }
        }
        uint32_t sparse = mani_GltfMember(g, it, "sparse");
        if (sparse == MANI_GLTF_NONE) continue;
        if (!mani_GltfIs(g, sparse, mcore_jsonObject)) return mani_GltfProp(g, i, sparse);
        MANI_GLTF_TRY(mani_GltfU64(g, sparse, "count", i, 1, 0, 1, a->count, &x));
        a->sparseCount = (uint32_t)x;
        uint32_t indices = mani_GltfMember(g, sparse, "indices");
        uint32_t values = mani_GltfMember(g, sparse, "values");
        if (!mani_GltfIs(g, indices, mcore_jsonObject)) return mani_GltfProp(g, i, indices != MANI_GLTF_NONE ? indices : sparse);
        if (!mani_GltfIs(g, values, mcore_jsonObject)) return mani_GltfProp(g, i, values != MANI_GLTF_NONE ? values : sparse);
        MANI_GLTF_TRY(mani_GltfIndex(g, indices, "bufferView", i, 1, g->viewCount, &a->sparseIndexView));
        MANI_GLTF_TRY(mani_GltfU64(g, indices, "byteOffset", i, 0, 0, 0, UINT64_MAX, &a->sparseIndexOffset));
        MANI_GLTF_TRY(mani_GltfU64(g, indices, "componentType", i, 1, 0, 0, UINT64_MAX, &x));
        if (x != MANI_GLTF_UNSIGNED_BYTE && x != MANI_GLTF_UNSIGNED_SHORT && x != MANI_GLTF_UNSIGNED_INT)
            return mani_GltfProp(g, i, mani_GltfMember(g, indices, "componentType"));
        a->sparseIndexType = (uint32_t)x;
        uint32_t isz = mani_GltfComponentSize(x);
        if (!mani_GltfFits(a->sparseIndexOffset, (uint64_t)isz * a->sparseCount,
                           g->views[a->sparseIndexView].byteLength) ||
            a->sparseIndexOffset % isz != 0)
            return mani_GltfProp(g, i, indices);
        MANI_GLTF_TRY(mani_GltfIndex(g, values, "bufferView", i, 1, g->viewCount, &a->sparseValueView));
        MANI_GLTF_TRY(mani_GltfU64(g, values, "byteOffset", i, 0, 0, 0, UINT64_MAX, &a->sparseValueOffset));
        if (!mani_GltfFits(a->sparseValueOffset, (uint64_t)a->elementSize * a->sparseCount,
                           g->views[a->sparseValueView].byteLength) ||
            a->sparseValueOffset % a->componentSize != 0)
            return mani_GltfProp(g, i, values);
    }
    return mani_GltfOk();
}

/* -- Reading accessors ------------------------------------------------------------------------- */

static uint32_t mani_GltfLoad(const uint8_t* p, uint32_t size) {
    if (size == 1) return p[0];
    if (size == 2) return (uint32_t)p[0] | ((uint32_t)p[1] << 8);
    return mani_GltfLe32(p);
}

static float mani_GltfToFloat(uint32_t bits, uint32_t type, uint32_t normalized) {
    switch (type) {
        case MANI_GLTF_FLOAT: {
            float f;
            memcpy(&f, &bits, 4);
            return f;
        }
        case MANI_GLTF_BYTE: {
            int32_t c = (int8_t)(uint8_t)bits;
            if (!normalized) return (float)c;
            float f = (float)c / 127.0f;
            return f < -1.0f ? -1.0f : f;
        }
        case MANI_GLTF_UNSIGNED_BYTE: return normalized ? (float)bits / 255.0f : (float)bits;
        case MANI_GLTF_SHORT: {
            int32_t c = (int16_t)(uint16_t)bits;
            if (!normalized) return (float)c;
            float f = (float)c / 32767.0f;
            return f < -1.0f ? -1.0f : f;
        }
        case MANI_GLTF_UNSIGNED_SHORT: return normalized ? (float)bits / 65535.0f : (float)bits;
        default: return (float)bits;
    }
}

/* Reads an element's components (padding left out) as raw little-endian
 * words into words[0, components). */
static void mani_GltfStore(const mani_GltfAccessor* a, uint32_t word, int asFloat, void* out, size_t index) {
    if (asFloat) {
        float f = mani_GltfToFloat(word, a->componentType, a->normalized);
        memcpy((uint8_t*)out + index * 4u, &f, 4);
    } else {
        memcpy((uint8_t*)out + index * 4u, &word, 4);
    }
}

static void mani_GltfLoadElement(const mani_GltfAccessor* a, const uint8_t* p, int asFloat, void* out, size_t first) {
    uint32_t columns = mani_GltfTypeColumns(a->type);
    uint32_t rows = mani_GltfTypeComponents(a->type) / columns;
    uint32_t column = rows * a->componentSize;
    if (columns > 1) column = (column + 3u) / 4u * 4u;
    for (uint32_t c = 0; c < columns; c++)
        for (uint32_t r = 0; r < rows; r++)
            mani_GltfStore(a, mani_GltfLoad(p + c * column + r * a->componentSize, a->componentSize), asFloat, out,
                           first + c * rows + r);
}

/* Reads every value as raw words (then converted by the callers). */
static maniImportResult mani_GltfReadValues(const maniGltf* g, uint32_t accessor, int asFloat, void* out,
                                            size_t capacity) {
    const mani_GltfAccessor* a = &g->accessors[accessor];
    uint32_t components = mani_GltfTypeComponents(a->type);
    size_t n = (size_t)a->count * components;
    if (capacity < n) return mani_GltfResult(mani_errorCapacity, maniImportReasonNone, accessor, 0);
    const uint8_t* base = NULL;
    uint64_t size = 0;
    const uint8_t* indices = NULL;
    const uint8_t* values = NULL;
    if (a->view != MANI_GLTF_NONE) MANI_GLTF_TRY(mani_GltfViewBytes(g, a->view, &base, &size));
    if (a->sparseCount > 0) {
        MANI_GLTF_TRY(mani_GltfViewBytes(g, a->sparseIndexView, &indices, &size));
        MANI_GLTF_TRY(mani_GltfViewBytes(g, a->sparseValueView, &values, &size));
    }
    if (base != NULL) {
        for (uint32_t i = 0; i < a->count; i++)
            mani_GltfLoadElement(a, base + a->byteOffset + (uint64_t)i * a->stride, asFloat, out, (size_t)i * components);
    } else {
        memset(out, 0, n * 4u);
    }
    if (a->sparseCount > 0) {
        uint32_t isz = mani_GltfComponentSize(a->sparseIndexType);
        uint32_t previous = 0;
        for (uint32_t k = 0; k < a->sparseCount; k++) {
            uint64_t at = a->sparseIndexOffset + (uint64_t)k * isz;
            uint32_t index = mani_GltfLoad(indices + at, isz);
            if (index >= a->count || (k > 0 && index <= previous)) {
                const mani_GltfView* v = &g->views[a->sparseIndexView];
                return mani_GltfResult(mani_errorFormat, maniImportReasonData, accessor, v->byteOffset + at);
            }
            previous = index;
            mani_GltfLoadElement(a, values + a->sparseValueOffset + (uint64_t)k * a->elementSize, asFloat, out,
                                 (size_t)index * components);
        }
    }
    return mani_GltfOk();
}

maniImportResult mani_GltfReadFloats(const maniGltf* g, uint32_t accessor, float* out, size_t capacity) {
    if (!mani_GltfLive(g) || accessor >= g->accessorCount || (out == NULL && capacity > 0))
        return mani_GltfResult(mani_errorInvalid, maniImportReasonNone, accessor, 0);
    return mani_GltfReadValues(g, accessor, 1, out, capacity);
}

maniImportResult mani_GltfReadUints(const maniGltf* g, uint32_t accessor, uint32_t* out, size_t capacity) {
    if (!mani_GltfLive(g) || accessor >= g->accessorCount || (out == NULL && capacity > 0))
        return mani_GltfResult(mani_errorInvalid, maniImportReasonNone, accessor, 0);
    const mani_GltfAccessor* a = &g->accessors[accessor];
    if (a->normalized || (a->componentType != MANI_GLTF_UNSIGNED_BYTE && a->componentType != MANI_GLTF_UNSIGNED_SHORT &&
                          a->componentType != MANI_GLTF_UNSIGNED_INT))
        return mani_GltfProp(g, accessor, a->token);
    return mani_GltfReadValues(g, accessor, 0, out, capacity);
}

/* Sparse indices whose bytes are present are checked at the open. */
static maniImportResult mani_GltfCheckSparse(const maniGltf* g, uint32_t onlyBuffer) {
    for (uint32_t i = 0; i < g->accessorCount; i++) {
        const mani_GltfAccessor* a = &g->accessors[i];
        if (a->sparseCount == 0) continue;
        const mani_GltfView* v = &g->views[a->sparseIndexView];
        if (onlyBuffer != MANI_GLTF_NONE && v->buffer != onlyBuffer && v->source != onlyBuffer) continue;
        const uint8_t* p;
        uint64_t size;
        if (mani_GltfViewBytes(g, a->sparseIndexView, &p, &size).result != mani_success) continue;
        uint32_t isz = mani_GltfComponentSize(a->sparseIndexType);
        uint32_t previous = 0;
        for (uint32_t k = 0; k < a->sparseCount; k++) {
            uint64_t at = a->sparseIndexOffset + (uint64_t)k * isz;
            uint32_t index = mani_GltfLoad(p + at, isz);
            if (index >= a->count || (k > 0 && index <= previous))
                return mani_GltfResult(mani_errorFormat, maniImportReasonData, i, v->byteOffset + at);
            previous = index;
        }
    }
    return mani_GltfOk();
}

/* -- Nodes ------------------------------------------------------------------------------------- */

/* Counts the items of an array member of each object of a top-level array
 * (children, joints, ...), for one table over all of them. */
static maniImportResult mani_GltfSum(const maniGltf* g, uint32_t top, uint32_t count, const char* key, uint64_t* sum) {
    *sum = 0;
    uint32_t it = mani_GltfFirst(top);
    for (uint32_t i = 0; i < count; i++, it = mani_GltfNext(g, it)) {
        if (!mani_GltfIs(g, it, mcore_jsonObject)) return mani_GltfProp(g, i, it);
        uint32_t t = mani_GltfMember(g, it, key);
        if (mani_GltfIs(g, t, mcore_jsonArray)) *sum += mani_GltfTok(g, t)->count;
    }
    return mani_GltfOk();
}

static maniImportResult mani_GltfReadNodes(maniGltf* g, uint32_t meshCount, uint32_t skinCount) {
    uint32_t top;
    uint64_t sum = 0;
    MANI_GLTF_TRY(mani_GltfTop(g, "nodes", &top, &g->nodeCount));
    MANI_GLTF_TRY(mani_GltfSum(g, top, g->nodeCount, "children", &sum));
    g->childCount = (uint32_t)sum;
    MANI_GLTF_TABLE(g, g->nodes, g->nodeCount);
    MANI_GLTF_TABLE(g, g->children, g->childCount);
    for (uint32_t i = 0; i < g->nodeCount; i++) g->nodes[i].parent = MANI_GLTF_NONE;
    uint32_t it = mani_GltfFirst(top);
    uint32_t childAt = 0;
    for (uint32_t i = 0; i < g->nodeCount; i++, it = mani_GltfNext(g, it)) {
        mani_GltfNode* n = &g->nodes[i];
        n->token = it;
        n->skeleton = MANI_GLTF_NONE;
        MANI_GLTF_TRY(mani_GltfStringMember(g, it, "name", i, &n->name));
        uint32_t children = MANI_GLTF_NONE;
        MANI_GLTF_TRY(mani_GltfArray(g, it, "children", i, 0, 0, &children));
        n->childStart = childAt;
        if (children != MANI_GLTF_NONE) {
            uint32_t c = mani_GltfFirst(children);
            for (uint32_t k = 0; k < mani_GltfTok(g, children)->count; k++, c = mani_GltfNext(g, c)) {
                uint32_t child;
                if (!mani_GltfIndexToken(g, c, g->nodeCount, &child) || child == i ||
                    g->nodes[child].parent != MANI_GLTF_NONE)
                    return mani_GltfProp(g, i, c);
                g->nodes[child].parent = i;
                g->children[childAt++] = child;
            }
        }
        n->childCount = childAt - n->childStart;
        static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        memcpy(n->matrix, identity, sizeof identity);
        n->rotation[3] = 1.0f;
        n->scale[0] = n->scale[1] = n->scale[2] = 1.0f;
        int hasM = 0, hasT = 0, hasR = 0, hasS = 0;
        MANI_GLTF_TRY(mani_GltfFloats(g, it, "matrix", i, 16, n->matrix, &hasM));
        MANI_GLTF_TRY(mani_GltfFloats(g, it, "translation", i, 3, n->translation, &hasT));
        MANI_GLTF_TRY(mani_GltfFloats(g, it, "rotation", i, 4, n->rotation, &hasR));
        MANI_GLTF_TRY(mani_GltfFloats(g, it, "scale", i, 3, n->scale, &hasS));
        if (hasM && (hasT || hasR || hasS)) return mani_GltfProp(g, i, mani_GltfMember(g, it, "matrix"));
        n->hasMatrix = (uint32_t)hasM;
        MANI_GLTF_TRY(mani_GltfIndex(g, it, "mesh", i, 0, meshCount, &n->mesh));
        MANI_GLTF_TRY(mani_GltfIndex(g, it, "skin", i, 0, skinCount, &n->skin));
        if (n->skin != MANI_GLTF_NONE && n->mesh == MANI_GLTF_NONE)
            return mani_GltfProp(g, i, mani_GltfMember(g, it, "skin"));
        MANI_GLTF_TRY(mani_GltfArray(g, it, "weights", i, 0, 0, &n->weightsToken));
    }
    /* No cycle: every node's walk up reaches a root (each node has at most
     * one parent, so a cycle is a loop with no way out). state: 0 not seen,
     * 1 on the current walk, 2 reaches a root. */
    uint8_t* state = (uint8_t*)mani_GltfArrayAlloc(g, g->nodeCount, 1);
    if (g->nodeCount > 0 && state == NULL) return mani_GltfNoMemory();
    for (uint32_t i = 0; i < g->nodeCount; i++) {
        uint32_t n = i;
        while (n != MANI_GLTF_NONE && state[n] == 0) {
            state[n] = 1;
            n = g->nodes[n].parent;
        }
        if (n != MANI_GLTF_NONE && state[n] == 1) {
            mani_GltfFree(g, state);
            return mani_GltfProp(g, n, g->nodes[n].token);
        }
        for (n = i; n != MANI_GLTF_NONE && state[n] == 1; n = g->nodes[n].parent) state[n] = 2;
    }
    mani_GltfFree(g, state);
    return mani_GltfOk();
}

/* Bone names: the name, or name#node (again until unique) for a node without
 * a name or whose name an earlier node's bone name is. */
static uint64_t mani_GltfNameHash(const char* s, size_t n) { return mcore_Hash64(0x676C5446u, s, n); }

static maniImportResult mani_GltfBoneNames(maniGltf* g) {
    if (g->nodeCount == 0) return mani_GltfOk();
    uint64_t slots = 16;
    while (slots < (uint64_t)g->nodeCount * 2u) slots *= 2;
    uint32_t* table = (uint32_t*)mani_GltfArrayAlloc(g, (size_t)slots, sizeof(uint32_t));
    if (table == NULL) return mani_GltfNoMemory();
    memset(table, 0xFF, (size_t)slots * sizeof(uint32_t));
    uint32_t renamed = 0;
    char scratch[32];
    for (uint32_t i = 0; i < g->nodeCount; i++) {
        mani_GltfNode* n = &g->nodes[i];
        const char* text = n->name.text != NULL ? n->name.text : "";
        size_t length = n->name.length;
        char* made = NULL;
        size_t madeLength = 0;
        for (;;) {
            int taken = 0;
            uint64_t h = 0;
            if (length > 0) {
                h = mani_GltfNameHash(text, length);
                for (uint64_t s = h & (slots - 1);; s = (s + 1) & (slots - 1)) {
                    uint32_t o = table[s];
                    if (o == MANI_GLTF_NONE) break;
                    const mani_GltfString* b = &g->nodes[o].boneName;
                    if (b->length == length && memcmp(b->text, text, length) == 0) {
                        taken = 1;
                        break;
                    }
                }
            }
            if (!taken && length > 0) {
                uint64_t s = h & (slots - 1);
                while (table[s] != MANI_GLTF_NONE) s = (s + 1) & (slots - 1);
                table[s] = i;
                n->boneName.text = text;
                n->boneName.length = (uint32_t)length;
                n->boneName.token = n->name.token;
                break;
            }
            /* text#i */
            int digits = 0;
            uint32_t v = i;
            do {
                scratch[digits++] = (char)('0' + v % 10);
                v /= 10;
            } while (v != 0);
            size_t next = length + 1 + (size_t)digits;
            char* grown = (char*)mani_GltfAlloc(g, next);
            if (grown == NULL) {
                mani_GltfFree(g, table);
                return mani_GltfNoMemory();
            }
            memcpy(grown, text, length);
            grown[length] = '#';
            for (int d = 0; d < digits; d++) grown[length + 1 + (size_t)d] = scratch[digits - 1 - d];
            if (made != NULL) mani_GltfFree(g, made);
            made = grown;
            madeLength = next;
            text = made;
            length = madeLength;
        }
        if (made != NULL) {
            n->renamed = 1;
            n->boneName.token = MANI_GLTF_NONE;
            renamed++;
        }
    }
    mani_GltfFree(g, table);
    g->renamedCount = renamed;
    MANI_GLTF_TABLE(g, g->renamed, renamed);
    uint32_t k = 0;
    for (uint32_t i = 0; i < g->nodeCount; i++)
        if (g->nodes[i].renamed) g->renamed[k++] = i;
    return mani_GltfOk();
}

/* -- Skins and skeletons ----------------------------------------------------------------------- */

static uint32_t mani_GltfFind(uint32_t* parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static maniImportResult mani_GltfReadSkins(maniGltf* g, uint32_t top) {
    uint64_t sum = 0;
    MANI_GLTF_TRY(mani_GltfSum(g, top, g->skinCount, "joints", &sum));
    g->jointCount = (uint32_t)sum;
    MANI_GLTF_TABLE(g, g->skins, g->skinCount);
    MANI_GLTF_TABLE(g, g->joints, g->jointCount);
    uint32_t* stamp = NULL;
    MANI_GLTF_TABLE(g, stamp, g->nodeCount);
    for (uint32_t i = 0; i < g->nodeCount; i++) stamp[i] = MANI_GLTF_NONE;
    uint32_t it = mani_GltfFirst(top);
    uint32_t at = 0;
    maniImportResult r = mani_GltfOk();
    for (uint32_t i = 0; i < g->skinCount && r.result == mani_success; i++, it = mani_GltfNext(g, it)) {
        mani_GltfSkin* s = &g->skins[i];
        s->token = it;
        r = mani_GltfStringMember(g, it, "name", i, &s->name);
        if (r.result != mani_success) break;
        uint32_t joints = MANI_GLTF_NONE;
        r = mani_GltfArray(g, it, "joints", i, 1, 1, &joints);
        if (r.result != mani_success) break;
        s->jointStart = at;
        uint32_t c = mani_GltfFirst(joints);
        for (uint32_t k = 0; k < mani_GltfTok(g, joints)->count; k++, c = mani_GltfNext(g, c)) {
            uint32_t node;
            if (!mani_GltfIndexToken(g, c, g->nodeCount, &node) || stamp[node] == i) {
                r = mani_GltfProp(g, i, c);
                break;
            }
            stamp[node] = i;
            g->joints[at++] = node;
        }
        if (r.result != mani_success) break;
        s->jointCount = at - s->jointStart;
        r = mani_GltfIndex(g, it, "inverseBindMatrices", i, 0, g->accessorCount, &s->inverseBindMatrices);
        if (r.result != mani_success) break;
        if (s->inverseBindMatrices != MANI_GLTF_NONE) {
            const mani_GltfAccessor* a = &g->accessors[s->inverseBindMatrices];
            if (a->type != mani_gltfMat4 || a->componentType != MANI_GLTF_FLOAT || a->count < s->jointCount) {
                r = mani_GltfProp(g, i, mani_GltfMember(g, it, "inverseBindMatrices"));
                break;
            }
        }
        r = mani_GltfIndex(g, it, "skeleton", i, 0, g->nodeCount, &s->skeletonNode);
    }
    mani_GltfFree(g, stamp);
    return r;
}

/* The skeletons: each skin's joints' hierarchy marked (owner: the first skin
 * that marked a node), skins marking one node joined. */
static maniImportResult mani_GltfSkeletons(maniGltf* g) {
    if (g->skinCount == 0) return mani_GltfOk();
    uint32_t *owner = NULL, *depth = NULL, *mark = NULL, *group = NULL, *lca = NULL, *number = NULL;
    MANI_GLTF_TABLE(g, owner, g->nodeCount);
    MANI_GLTF_TABLE(g, depth, g->nodeCount);
    MANI_GLTF_TABLE(g, mark, g->nodeCount);
    MANI_GLTF_TABLE(g, group, g->skinCount);
    MANI_GLTF_TABLE(g, number, g->skinCount);
    for (uint32_t i = 0; i < g->nodeCount; i++) {
        owner[i] = MANI_GLTF_NONE;
        mark[i] = MANI_GLTF_NONE;
        uint32_t d = 0;
        for (uint32_t n = g->nodes[i].parent; n != MANI_GLTF_NONE; n = g->nodes[n].parent) d++;
        depth[i] = d;
    }
    for (uint32_t s = 0; s < g->skinCount; s++) group[s] = s;
    /* The per-tree lowest common node of the skin's joints: lca[root] for
     * each tree root touched (kept in mark space via a small list). */
    MANI_GLTF_TABLE(g, lca, g->nodeCount);
    for (uint32_t s = 0; s < g->skinCount; s++) {
        const mani_GltfSkin* k = &g->skins[s];
        /* The tree root of each joint; the running common node per root. */
        for (uint32_t j = 0; j < k->jointCount; j++) {
            uint32_t n = g->joints[k->jointStart + j];
            uint32_t root = n;
            while (g->nodes[root].parent != MANI_GLTF_NONE) root = g->nodes[root].parent;
            if (mark[root] != s) {
                mark[root] = s;
                lca[root] = n;
                continue;
            }
            uint32_t a = lca[root], b = n;
            while (depth[a] > depth[b]) a = g->nodes[a].parent;
            while (depth[b] > depth[a]) b = g->nodes[b].parent;
            while (a != b) {
                a = g->nodes[a].parent;
                b = g->nodes[b].parent;
            }
            lca[root] = a;
        }
        /* Mark each joint's path up to its tree's common node. mark[] of
         * the roots is reused: stamp the path nodes with the skin in owner
         * terms; a node met twice by this skin stops the walk. */
        for (uint32_t j = 0; j < k->jointCount; j++) {
            uint32_t n = g->joints[k->jointStart + j];
            uint32_t root = n;
            while (g->nodes[root].parent != MANI_GLTF_NONE) root = g->nodes[root].parent;
            uint32_t top = lca[root];
            for (;;) {
                if (owner[n] == MANI_GLTF_NONE) {
                    owner[n] = s;
                } else {
                    uint32_t a = mani_GltfFind(group, owner[n]), b = mani_GltfFind(group, s);
                    if (a != b) {
                        if (a < b) group[b] = a;
                        else group[a] = b;
                    }
                }
                if (n == top) break;
                n = g->nodes[n].parent;
            }
        }
    }
    /* Number the groups by their lowest skin. */
    uint32_t count = 0;
    for (uint32_t s = 0; s < g->skinCount; s++) {
        uint32_t r = mani_GltfFind(group, s);
        if (r == s) number[s] = count++;
        g->skins[s].skeleton = MANI_GLTF_NONE;
    }
    for (uint32_t s = 0; s < g->skinCount; s++) g->skins[s].skeleton = number[mani_GltfFind(group, s)];
    g->skeletonCount = count;
    MANI_GLTF_TABLE(g, g->skeletons, count);
    for (uint32_t s = 0; s < g->skinCount; s++)
        if (mani_GltfFind(group, s) == s) g->skeletons[number[s]].lowestSkin = s;
    for (uint32_t i = 0; i < g->nodeCount; i++) {
        if (owner[i] == MANI_GLTF_NONE) continue;
        uint32_t sk = g->skins[owner[i]].skeleton;
        g->nodes[i].skeleton = sk;
        g->skeletons[sk].nodeCount++;
        g->skeletonNodeCount++;
    }
    for (uint32_t i = 0; i < g->nodeCount; i++) {
        uint32_t sk = g->nodes[i].skeleton;
        if (sk == MANI_GLTF_NONE) continue;
        uint32_t p = g->nodes[i].parent;
        if (p == MANI_GLTF_NONE || g->nodes[p].skeleton != sk) {
            g->skeletons[sk].rootCount++;
            g->skeletonRootCount++;
        }
    }
    MANI_GLTF_TABLE(g, g->skeletonNodes, g->skeletonNodeCount);
    MANI_GLTF_TABLE(g, g->skeletonRoots, g->skeletonRootCount);
    uint32_t nodeAt = 0, rootAt = 0;
    for (uint32_t k = 0; k < count; k++) {
        g->skeletons[k].nodeStart = nodeAt;
        g->skeletons[k].rootStart = rootAt;
        nodeAt += g->skeletons[k].nodeCount;
        rootAt += g->skeletons[k].rootCount;
        g->skeletons[k].nodeCount = 0;
        g->skeletons[k].rootCount = 0;
    }
    for (uint32_t i = 0; i < g->nodeCount; i++) {
        uint32_t sk = g->nodes[i].skeleton;
        if (sk == MANI_GLTF_NONE) continue;
        mani_GltfSkeleton* k = &g->skeletons[sk];
        g->skeletonNodes[k->nodeStart + k->nodeCount++] = i;
        uint32_t p = g->nodes[i].parent;
        if (p == MANI_GLTF_NONE || g->nodes[p].skeleton != sk) g->skeletonRoots[k->rootStart + k->rootCount++] = i;
    }
    mani_GltfFree(g, owner);
    mani_GltfFree(g, depth);
    mani_GltfFree(g, mark);
    mani_GltfFree(g, group);
    mani_GltfFree(g, lca);
    mani_GltfFree(g, number);
    return mani_GltfOk();
}

/* -- Meshes ------------------------------------------------------------------------------------ */

static void mani_GltfSemantic(mani_GltfAttribute* a) {
    const char* s = a->semantic.text;
    uint32_t n = a->semantic.length;
    a->baseLength = n;
    a->set = MANI_GLTF_NONE;
    uint32_t u = n;
    while (u > 0 && s[u - 1] != '_') u--;
    if (u == 0 || u == n) return;
    if (s[u] == '0' && n - u > 1) return;
    uint64_t v = 0;
    for (uint32_t i = u; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || n - u > 9) return;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    a->baseLength = u - 1;
    a->set = (uint32_t)v;
}

/* An object of semantic -> accessor members into g->attributes[*at...]. */
static maniImportResult mani_GltfAttributes(maniGltf* g, uint32_t object, uint64_t item, uint32_t* at) {
    uint32_t m = object + 1;
    for (uint32_t k = 0; k < mani_GltfTok(g, object)->count; k++) {
        uint32_t key = m, value = m + 1;
        mani_GltfAttribute* a = &g->attributes[*at];
        MANI_GLTF_TRY(mani_GltfReadString(g, key, item, &a->semantic));
        if (!mani_GltfIndexToken(g, value, g->accessorCount, &a->accessor)) return mani_GltfProp(g, item, value);
        mani_GltfSemantic(a);
        (*at)++;
        m = mani_GltfNext(g, value);
    }
    return mani_GltfOk();
}

static maniImportResult mani_GltfReadMeshes(maniGltf* g, uint32_t top) {
    /* Count primitives, attributes and targets. */
    uint64_t primitives = 0, attributes = 0, targets = 0;
    uint32_t it = mani_GltfFirst(top);
    for (uint32_t i = 0; i < g->meshCount; i++, it = mani_GltfNext(g, it)) {
        if (!mani_GltfIs(g, it, mcore_jsonObject)) return mani_GltfProp(g, i, it);
        uint32_t p = MANI_GLTF_NONE;
        MANI_GLTF_TRY(mani_GltfArray(g, it, "primitives", i, 1, 1, &p));
        uint32_t q = mani_GltfFirst(p);
        for (uint32_t k = 0; k < mani_GltfTok(g, p)->count; k++, q = mani_GltfNext(g, q)) {
            if (!mani_GltfIs(g, q, mcore_jsonObject)) return mani_GltfProp(g, i, q);
            uint32_t att = mani_GltfMember(g, q, "attributes");
            if (!mani_GltfIs(g, att, mcore_jsonObject)) return mani_GltfProp(g, i, att != MANI_GLTF_NONE ? att : q);
            attributes += mani_GltfTok(g, att)->count;
            uint32_t tg = MANI_GLTF_NONE;
            MANI_GLTF_TRY(mani_GltfArray(g, q, "targets", i, 1, 0, &tg));
            if (tg == MANI_GLTF_NONE) continue;
            uint32_t t = mani_GltfFirst(tg);
            for (uint32_t j = 0; j < mani_GltfTok(g, tg)->count; j++, t = mani_GltfNext(g, t)) {
                if (!mani_GltfIs(g, t, mcore_jsonObject)) return mani_GltfProp(g, i, t);
                attributes += mani_GltfTok(g, t)->count;
                targets++;
            }
        }
        primitives += mani_GltfTok(g, p)->count;
    }
    g->primitiveCount = (uint32_t)primitives;
    g->attributeCount = (uint32_t)attributes;
    g->targetCount = (uint32_t)targets;
    MANI_GLTF_TABLE(g, g->meshes, g->meshCount);
    MANI_GLTF_TABLE(g, g->primitives, g->primitiveCount);
    MANI_GLTF_TABLE(g, g->attributes, g->attributeCount);
    MANI_GLTF_TABLE(g, g->targets, g->targetCount);
    uint32_t pAt = 0, aAt = 0, tAt = 0;
    it = mani_GltfFirst(top);
    for (uint32_t i = 0; i < g->meshCount; i++, it = mani_GltfNext(g, it)) {
        mani_GltfMesh* m = &g->meshes[i];
        m->token = it;
        MANI_GLTF_TRY(mani_GltfStringMember(g, it, "name", i, &m->name));
        MANI_GLTF_TRY(mani_GltfArray(g, it, "weights", i, 0, 0, &m->weightsToken));
        uint32_t extras = mani_GltfMember(g, it, "extras");
        uint32_t names = mani_GltfIs(g, extras, mcore_jsonObject) ? mani_GltfMember(g, extras, "targetNames") : MANI_GLTF_NONE;
        m->targetNamesToken = mani_GltfIs(g, names, mcore_jsonArray) ? names : MANI_GLTF_NONE;
        uint32_t p = mani_GltfMember(g, it, "primitives");
        m->primitiveStart = pAt;
        m->primitiveCount = mani_GltfTok(g, p)->count;
        uint32_t q = mani_GltfFirst(p);
        for (uint32_t k = 0; k < m->primitiveCount; k++, q = mani_GltfNext(g, q)) {
            mani_GltfPrimitive* pr = &g->primitives[pAt++];
            uint64_t mode = 4;
            pr->token = q;
            pr->attributeStart = aAt;
            MANI_GLTF_TRY(mani_GltfAttributes(g, mani_GltfMember(g, q, "attributes"), i, &aAt));
            pr->attributeCount = aAt - pr->attributeStart;
            MANI_GLTF_TRY(mani_GltfIndex(g, q, "indices", i, 0, g->accessorCount, &pr->indices));
            MANI_GLTF_TRY(mani_GltfU64(g, q, "mode", i, 0, 4, 0, 6, &mode));
            pr->mode = (uint32_t)mode;
            pr->targetStart = tAt;
            uint32_t tg = mani_GltfMember(g, q, "targets");
            if (tg != MANI_GLTF_NONE) {
                uint32_t t = mani_GltfFirst(tg);
                for (uint32_t j = 0; j < mani_GltfTok(g, tg)->count; j++, t = mani_GltfNext(g, t)) {
                    mani_GltfTarget* target = &g->targets[tAt++];
                    target->token = t;
                    target->attributeStart = aAt;
                    MANI_GLTF_TRY(mani_GltfAttributes(g, t, i, &aAt));
                    target->attributeCount = aAt - target->attributeStart;
                }
            }
            pr->targetCount = tAt - pr->targetStart;
            if (k > 0 && pr->targetCount != g->primitives[m->primitiveStart].targetCount)
                return mani_GltfProp(g, i, tg != MANI_GLTF_NONE ? tg : q);
            pr->dracoToken = MANI_GLTF_NONE;
            pr->dracoView = MANI_GLTF_NONE;
            pr->dracoAttributesToken = MANI_GLTF_NONE;
            uint32_t ext = mani_GltfMember(g, q, "extensions");
            uint32_t draco = mani_GltfIs(g, ext, mcore_jsonObject) ? mani_GltfMember(g, ext, "KHR_draco_mesh_compression")
                                                                  : MANI_GLTF_NONE;
            if (draco != MANI_GLTF_NONE) {
                pr->dracoToken = draco;
                uint32_t view = mani_GltfMember(g, draco, "bufferView");
                uint32_t v;
                if (mani_GltfIs(g, view, mcore_jsonNumber) && mani_GltfIndexToken(g, view, g->viewCount, &v))
                    pr->dracoView = v;
                uint32_t att = mani_GltfMember(g, draco, "attributes");
                if (mani_GltfIs(g, att, mcore_jsonObject)) pr->dracoAttributesToken = att;
            }
        }
    }
    return mani_GltfOk();
}

/* -- Animations -------------------------------------------------------------------------------- */

/* A JSON pointer (RFC 6901): empty, or segments each after a '/', '~' only
 * as ~0 or ~1. */
static int mani_GltfPointerSyntax(const char* s, uint32_t n) {
    if (n > 0 && s[0] != '/') return 0;
    for (uint32_t i = 0; i < n; i++)
        if (s[i] == '~' && (i + 1 >= n || (s[i + 1] != '0' && s[i + 1] != '1'))) return 0;
    return 1;
}

static maniImportResult mani_GltfReadAnimations(maniGltf* g) {
    uint32_t top;
    uint64_t channels = 0, samplers = 0;
    MANI_GLTF_TRY(mani_GltfTop(g, "animations", &top, &g->animationCount));
    uint32_t it = mani_GltfFirst(top);
    for (uint32_t i = 0; i < g->animationCount; i++, it = mani_GltfNext(g, it)) {
        uint32_t c, s;
        if (!mani_GltfIs(g, it, mcore_jsonObject)) return mani_GltfProp(g, i, it);
        MANI_GLTF_TRY(mani_GltfArray(g, it, "channels", i, 1, 1, &c));
        MANI_GLTF_TRY(mani_GltfArray(g, it, "samplers", i, 1, 1, &s));
        channels += mani_GltfTok(g, c)->count;
        samplers += mani_GltfTok(g, s)->count;
    }
    g->channelCount = (uint32_t)channels;
    g->samplerCount = (uint32_t)samplers;
    MANI_GLTF_TABLE(g, g->animations, g->animationCount);
    MANI_GLTF_TABLE(g, g->channels, g->channelCount);
    MANI_GLTF_TABLE(g, g->samplers, g->samplerCount);
    uint32_t cAt = 0, sAt = 0;
    it = mani_GltfFirst(top);
    for (uint32_t i = 0; i < g->animationCount; i++, it = mani_GltfNext(g, it)) {
        mani_GltfAnimation* an = &g->animations[i];
        an->token = it;
        MANI_GLTF_TRY(mani_GltfStringMember(g, it, "name", i, &an->name));
        if (an->name.text == NULL) an->name.text = "";
        uint32_t sa = mani_GltfMember(g, it, "samplers");
        an->samplerStart = sAt;
        an->samplerCount = mani_GltfTok(g, sa)->count;
        uint32_t t = mani_GltfFirst(sa);
        for (uint32_t k = 0; k < an->samplerCount; k++, t = mani_GltfNext(g, t)) {
            mani_GltfSampler* s = &g->samplers[sAt++];
            if (!mani_GltfIs(g, t, mcore_jsonObject)) return mani_GltfProp(g, i, t);
            s->token = t;
            MANI_GLTF_TRY(mani_GltfIndex(g, t, "input", i, 1, g->accessorCount, &s->input));
            MANI_GLTF_TRY(mani_GltfIndex(g, t, "output", i, 1, g->accessorCount, &s->output));
            const mani_GltfAccessor* in = &g->accessors[s->input];
            if (in->type != mani_gltfScalar || in->componentType != MANI_GLTF_FLOAT)
                return mani_GltfProp(g, i, mani_GltfMember(g, t, "input"));
            uint32_t interp = mani_GltfMember(g, t, "interpolation");
            s->interpolation = maniInterpolationLinear;
            if (interp != MANI_GLTF_NONE) {
                if (mani_GltfEquals(g, interp, "LINEAR")) s->interpolation = maniInterpolationLinear;
                else if (mani_GltfEquals(g, interp, "STEP")) s->interpolation = maniInterpolationStep;
                else if (mani_GltfEquals(g, interp, "CUBICSPLINE")) s->interpolation = maniInterpolationCubicSpline;
                else return mani_GltfProp(g, i, interp);
            }
        }
        uint32_t ch = mani_GltfMember(g, it, "channels");
        an->channelStart = cAt;
        an->channelCount = mani_GltfTok(g, ch)->count;
        t = mani_GltfFirst(ch);
        for (uint32_t k = 0; k < an->channelCount; k++, t = mani_GltfNext(g, t)) {
            mani_GltfChannel* c = &g->channels[cAt++];
            if (!mani_GltfIs(g, t, mcore_jsonObject)) return mani_GltfProp(g, i, t);
            c->token = t;
            MANI_GLTF_TRY(mani_GltfIndex(g, t, "sampler", i, 1, an->samplerCount, &c->sampler));
            uint32_t target = mani_GltfMember(g, t, "target");
            if (!mani_GltfIs(g, target, mcore_jsonObject)) return mani_GltfProp(g, i, target != MANI_GLTF_NONE ? target : t);
            MANI_GLTF_TRY(mani_GltfIndex(g, target, "node", i, 0, g->nodeCount, &c->node));
            uint32_t path = mani_GltfMember(g, target, "path");
            if (!mani_GltfIs(g, path, mcore_jsonString)) return mani_GltfProp(g, i, path != MANI_GLTF_NONE ? path : target);
            if (mani_GltfEquals(g, path, "translation")) c->path = mani_gltfPathTranslation;
            else if (mani_GltfEquals(g, path, "rotation")) c->path = mani_gltfPathRotation;
            else if (mani_GltfEquals(g, path, "scale")) c->path = mani_gltfPathScale;
            else if (mani_GltfEquals(g, path, "weights")) c->path = mani_gltfPathWeights;
            else if (mani_GltfEquals(g, path, "pointer")) c->path = mani_gltfPathPointer;
            else c->path = mani_gltfPathOther;
            c->pointer.token = MANI_GLTF_NONE;
            uint32_t ext = mani_GltfMember(g, target, "extensions");
            uint32_t ptr = mani_GltfIs(g, ext, mcore_jsonObject) ? mani_GltfMember(g, ext, "KHR_animation_pointer")
                                                                 : MANI_GLTF_NONE;
            /* The extension only on a "pointer" path (and that path only with it). */
            if (ptr != MANI_GLTF_NONE && c->path != mani_gltfPathPointer) return mani_GltfProp(g, i, path);
            if (c->path == mani_gltfPathPointer) {
                uint32_t p = mani_GltfIs(g, ptr, mcore_jsonObject) ? mani_GltfMember(g, ptr, "pointer") : MANI_GLTF_NONE;
                if (!mani_GltfIs(g, p, mcore_jsonString)) return mani_GltfProp(g, i, ptr != MANI_GLTF_NONE ? ptr : target);
                MANI_GLTF_TRY(mani_GltfReadString(g, p, i, &c->pointer));
                if (!mani_GltfPointerSyntax(c->pointer.text, c->pointer.length)) return mani_GltfProp(g, i, p);
            } else if (c->path != mani_gltfPathOther && c->node == MANI_GLTF_NONE) {
                /* A node path without a node: nothing to animate; kept, skipped by the clip. */
            }
        }
    }
    return mani_GltfOk();
}

/* -- The open ---------------------------------------------------------------------------------- */

static maniImportResult mani_GltfParse(maniGltf* g, const uint8_t* bytes, size_t size) {
    size_t jsonOffset = 0, jsonLength = size;
    const uint8_t* bin = NULL;
    uint64_t binLength = 0;
    int glb = size >= 4 && memcmp(bytes, "glTF", 4) == 0;
    if (glb) MANI_GLTF_TRY(mani_GltfReadGlb(bytes, size, &jsonOffset, &jsonLength, &bin, &binLength));
    g->jsonOffset = jsonOffset;
    mcore_JsonAllocator alloc = {mani_GltfJsonAllocate, mani_GltfJsonRelease, g->builder};
    mcore_JsonResult jr = mcore_JsonReadAlloc(bytes + jsonOffset, jsonLength, &alloc, &g->json);
    if (jr.reason == mcore_jsonCapacity) return mani_GltfNoMemory();
    if (jr.reason != mcore_jsonOk)
        return mani_GltfResult(mani_errorFormat, maniImportReasonJson, 0, jsonOffset + jr.offset);
    g->root = 0;
    if (!mani_GltfIs(g, 0, mcore_jsonObject)) return mani_GltfProp(g, 0, 0);
    MANI_GLTF_TRY(mani_GltfReadAsset(g));
    MANI_GLTF_TRY(mani_GltfReadBuffers(g, bin, binLength, glb));
    MANI_GLTF_TRY(mani_GltfReadViews(g));
    MANI_GLTF_TRY(mani_GltfReadAccessors(g));
    uint32_t meshTop, skinTop;
    MANI_GLTF_TRY(mani_GltfTop(g, "meshes", &meshTop, &g->meshCount));
    MANI_GLTF_TRY(mani_GltfTop(g, "skins", &skinTop, &g->skinCount));
    MANI_GLTF_TRY(mani_GltfReadNodes(g, g->meshCount, g->skinCount));
    MANI_GLTF_TRY(mani_GltfBoneNames(g));
    MANI_GLTF_TRY(mani_GltfReadSkins(g, skinTop));
    MANI_GLTF_TRY(mani_GltfSkeletons(g));
    MANI_GLTF_TRY(mani_GltfReadMeshes(g, meshTop));
    MANI_GLTF_TRY(mani_GltfReadAnimations(g));
    MANI_GLTF_TRY(mani_GltfDecodeViews(g, MANI_GLTF_NONE, NULL));
    MANI_GLTF_TRY(mani_GltfCheckSparse(g, MANI_GLTF_NONE));
    return mani_GltfOk();
}

maniImportResult maniOpenGltf(maniBuilder* builder, const void* bytes, size_t size, maniGltf** gltfOut) {
    if (builder == NULL) return mani_GltfResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_GltfResult(entered, maniImportReasonNone, 0, 0);
    if ((bytes == NULL && size > 0) || gltfOut == NULL) {
        builder->misuse++;
        return mani_GltfResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    }
    if (bytes == NULL) bytes = "";
    maniGltf* g = (maniGltf*)mani_BuilderAlloc(builder, sizeof(maniGltf), _Alignof(maniGltf));
    if (g == NULL) return mani_GltfNoMemory();
    memset(g, 0, sizeof *g);
    g->builder = builder;
    g->bytes = (const uint8_t*)bytes;
    g->size = size;
    g->extensionsRequiredToken = MANI_GLTF_NONE;
    maniImportResult r = mani_GltfParse(g, (const uint8_t*)bytes, size);
    if (r.result != mani_success) {
        mani_GltfDestroy(g);
        return r;
    }
    *gltfOut = g;
    return r;
}

/* -- Supplied buffers -------------------------------------------------------------------------- */

maniImportResult maniGltf_SupplyBuffer(maniGltf* g, uint32_t buffer, const void* bytes, size_t size) {
    if (g == NULL || g->closing) return mani_GltfResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    maniResult entered = mani_BuilderEnter(g->builder);
    if (entered != mani_success) return mani_GltfResult(entered, maniImportReasonNone, 0, 0);
    if (buffer >= g->bufferCount || g->buffers[buffer].kind != mani_gltfBufferExternal || bytes == NULL)
        return mani_GltfResult(mani_errorInvalid, maniImportReasonNone, buffer, 0);
    mani_GltfBuffer* b = &g->buffers[buffer];
    if ((uint64_t)size < b->byteLength)
        return mani_GltfResult(mani_errorFormat, maniImportReasonBuffer, buffer, (uint64_t)size);
    MANI_GLTF_TRY(mani_GltfDecodeViews(g, buffer, (const uint8_t*)bytes));
    const uint8_t* old = b->data;
    b->data = (const uint8_t*)bytes;
    maniImportResult r = mani_GltfCheckSparse(g, buffer);
    if (r.result != mani_success) {
        b->data = old;
        if (old == NULL)
            for (uint32_t i = 0; i < g->viewCount; i++)
                if (g->views[i].meshopt != 0 && g->views[i].source == buffer) {
                    mani_GltfFree(g, g->views[i].decoded);
                    g->views[i].decoded = NULL;
                }
    }
    return r;
}
