/* The Draco decoder (draco.h), written from the Draco bitstream
 * specification, version 2.2: header, metadata (checked and skipped),
 * sequential and edgebreaker (standard, valence) connectivity, the sequential
 * attribute decoders (generic, integer, quantization, normals), the
 * prediction schemes KHR_draco_mesh_compression allows, the wrap and
 * octahedral transforms, rANS and tagged symbol coders. */
#include "lib/anim/src/import/draco/draco.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* -- Memory ------------------------------------------------------------------ */

typedef struct mani_DrBlock {
    struct mani_DrBlock* next;
    size_t size;
    uint64_t pad; /* keeps the payload 8-aligned after two words on 32-bit hosts */
} mani_DrBlock;

enum { MANI_DR_TOPO_C = 0, MANI_DR_TOPO_S = 1, MANI_DR_TOPO_L = 3, MANI_DR_TOPO_R = 5, MANI_DR_TOPO_E = 7 };
#define MANI_DR_NONE (-1)
#define MANI_DR_MAX_ATTR_DATA 32
#define MANI_DR_MAX_DECODERS 32

typedef struct mani_DrBits {
    const uint8_t* p; /* the stream */
    size_t start;     /* first byte of the bit run */
    size_t end;       /* one past its last byte */
    uint64_t bit;     /* bits read */
} mani_DrBits;

/* A rANS bit coder (rabs). */
typedef struct mani_DrRabs {
    const uint8_t* buf;
    uint32_t offset;
    uint32_t state;
    uint8_t probZero;
} mani_DrRabs;

/* A rANS symbol coder. */
/* The rANS symbol search's buckets: the cumulative range cut in 2^12 equal
 * parts (the smallest precision), each holding the symbol its first
 * position falls in, so a read searches only between two neighbouring
 * buckets' symbols (the same answer as a search of the whole table). */
#define MANI_DR_RANS_BUCKET_BITS 12u
#define MANI_DR_RANS_BUCKETS (1u << MANI_DR_RANS_BUCKET_BITS)

typedef struct mani_DrRans {
    const uint8_t* buf;
    uint32_t offset;
    uint32_t state;
    uint32_t precisionBits;
    uint32_t symbols;
    uint32_t* prob;
    uint32_t* cum;
    uint32_t bucketShift;                        /* precisionBits - MANI_DR_RANS_BUCKET_BITS */
    uint32_t bucket[MANI_DR_RANS_BUCKETS + 1u];  /* the last one: the last symbol */
} mani_DrRans;

/* Per-attribute connectivity (attribute seams) over the position table. */
typedef struct mani_DrAttrTable {
    uint8_t* edgeOnSeam;   /* per corner */
    uint8_t* vertexOnSeam; /* per position vertex */
    int32_t* cornerToVertex;
    int32_t* leftMost;     /* per attribute vertex */
    int32_t numVertices;
} mani_DrAttrTable;

/* The order a decoder visits its values in. */
typedef struct mani_DrEncoding {
    int32_t* vertexToValue; /* per vertex of its table, -1 unvisited */
    int32_t* valueToCorner; /* per value */
    int32_t numValues;
} mani_DrEncoding;

typedef struct mani_DrAttrData {
    int32_t decoderId;
    int32_t* seamCorners;
    uint32_t seamCount;
    mani_DrAttrTable table;
    mani_DrEncoding enc;
} mani_DrAttrData;

/* A corner table view: the position table, or an attribute table over it. */
typedef struct mani_DrTable {
    const struct mani_Dr* d;
    const mani_DrAttrTable* att; /* NULL: the position table */
} mani_DrTable;

typedef struct mani_DrAttr {
    uint8_t type, dataType, components, normalized;
    uint32_t uniqueId;
    uint8_t decoderType; /* sequential: 0 generic, 1 integer, 2 quantization, 3 normals */
    int32_t decoderIndex;
    int32_t* portable;  /* the integer values in value order */
    uint32_t portableComponents;
    uint32_t numValues;
    uint32_t* pointToValue;
    int8_t method, transform;
    /* quantization / octahedral parameters */
    float minValues[4];
    float range;
    uint8_t bits;
    /* outputs */
    uint8_t* values;
} mani_DrAttr;

typedef struct mani_Dr {
    const uint8_t* b;
    size_t n, pos;
    int status;
    size_t errOff;
    maniDracoAllocator al;
    mani_DrBlock* blocks;
    uint8_t major, minor, encoderType, method, traversal;
    /* mesh */
    uint32_t numFaces, numPoints;
    uint32_t* faces;
    /* position corner table */
    int32_t* ctV;
    int32_t* ctO;
    int32_t* ctLeft;
    int32_t ctNumV, ctCapV;
    uint8_t* vertHole;
    uint32_t numAttrData;
    mani_DrAttrData attrData[MANI_DR_MAX_ATTR_DATA];
    mani_DrEncoding posEnc;
    /* attributes */
    uint32_t numDecoders;
    int32_t decAttData[MANI_DR_MAX_DECODERS];
    uint8_t decType[MANI_DR_MAX_DECODERS], decTraversal[MANI_DR_MAX_DECODERS];
    uint32_t decFirst[MANI_DR_MAX_DECODERS], decCount[MANI_DR_MAX_DECODERS];
    uint32_t* decPoints[MANI_DR_MAX_DECODERS]; /* the sequence of each decoder */
    uint32_t decPointCount[MANI_DR_MAX_DECODERS];
    uint32_t numAttrs;
    mani_DrAttr attrs[MANI_DRACO_MAX_ATTRIBUTES];
} mani_Dr;

static int mani_DrFail(mani_Dr* d, size_t off) {
    if (d->status == 0) {
        d->status = maniDracoRefused;
        d->errOff = off > d->n ? d->n : off;
    }
    return 0;
}

static void* mani_DrLibAlloc(void* ctx, size_t size);

static void* mani_DrAlloc(mani_Dr* d, size_t count, size_t each) {
    if (d->status != 0) return NULL;
    if (each != 0 && count > (SIZE_MAX - sizeof(mani_DrBlock) - 16) / each) {
        d->status = maniDracoNoMemory;
        return NULL;
    }
    size_t size = count * each + sizeof(mani_DrBlock);
    mani_DrBlock* blk = (mani_DrBlock*)d->al.alloc(d->al.ctx, size);
    if (blk == NULL) {
        d->status = maniDracoNoMemory;
        return NULL;
    }
    blk->next = d->blocks;
    blk->size = size;
    d->blocks = blk;
    /* The C library's blocks come zeroed (calloc: pages never written are
     * never touched); a caller's allocator's are zeroed here. */
    if (d->al.alloc != mani_DrLibAlloc) memset(blk + 1, 0, count * each);
    return blk + 1;
}

static void* mani_DrLibAlloc(void* ctx, size_t size) {
    (void)ctx;
    return calloc(1, size);
}
static void mani_DrLibRelease(void* ctx, void* p, size_t size) {
    (void)ctx;
    (void)size;
    free(p);
}

/* -- Reading ----------------------------------------------------------------- */

static int mani_DrU8(mani_Dr* d, uint8_t* v) {
    if (d->pos >= d->n) return mani_DrFail(d, d->n);
    *v = d->b[d->pos++];
    return 1;
}

static int mani_DrBytes(mani_Dr* d, size_t k, const uint8_t** p) {
    if (d->n - d->pos < k) return mani_DrFail(d, d->n);
    *p = d->b + d->pos;
    d->pos += k;
    return 1;
}

static uint32_t mani_DrLe32(const uint8_t* p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int mani_DrU32(mani_Dr* d, uint32_t* v) {
    const uint8_t* p;
    if (!mani_DrBytes(d, 4, &p)) return 0;
    *v = mani_DrLe32(p);
    return 1;
}

static int mani_DrF32(mani_Dr* d, float* v) {
    uint32_t u;
    if (!mani_DrU32(d, &u)) return 0;
    memcpy(v, &u, 4);
    return 1;
}

/* Varints: 7 bits a byte, least significant first, at most maxBytes bytes. */
static int mani_DrVar64(mani_Dr* d, uint64_t* v, int maxBytes) {
    uint64_t r = 0;
    size_t start = d->pos;
    for (int i = 0; i < maxBytes; i++) {
        uint8_t c;
        if (!mani_DrU8(d, &c)) return 0;
        if (i < 10) r |= (uint64_t)(c & 0x7f) << (7 * i);
        if ((c & 0x80) == 0) {
            *v = r;
            return 1;
        }
    }
    return mani_DrFail(d, start + (size_t)maxBytes - 1);
}

static int mani_DrVar32(mani_Dr* d, uint32_t* v) {
    uint64_t r;
    if (!mani_DrVar64(d, &r, 5)) return 0;
    *v = (uint32_t)r;
    return 1;
}

/* -- Bits -------------------------------------------------------------------- */

static void mani_DrBitsInit(mani_DrBits* bits, const mani_Dr* d, size_t start, size_t end) {
    bits->p = d->b;
    bits->start = start;
    bits->end = end;
    bits->bit = 0;
}

static int mani_DrBitsRead(mani_Dr* d, mani_DrBits* bits, uint32_t count, uint32_t* v) {
    uint32_t r = 0;
    if (count > 32) return mani_DrFail(d, bits->start + (size_t)(bits->bit >> 3));
    uint64_t avail = (uint64_t)(bits->end - bits->start) * 8u;
    if (bits->bit + count > avail) return mani_DrFail(d, bits->end);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t off = bits->bit++;
        uint32_t bit = (uint32_t)(bits->p[bits->start + (size_t)(off >> 3)] >> (off & 7)) & 1u;
        r |= bit << i;
    }
    *v = r;
    return 1;
}

static size_t mani_DrBitsBytes(const mani_DrBits* bits) { return (size_t)((bits->bit + 7) >> 3); }

/* -- rANS -------------------------------------------------------------------- */

/* A rabs bit decoder: the probability of zero, the size, the bytes. */
static int mani_DrRabsStart(mani_Dr* d, mani_DrRabs* r) {
    uint32_t size;
    size_t at;
    if (!mani_DrU8(d, &r->probZero) || !mani_DrVar32(d, &size)) return 0;
    at = d->pos;
    if (size > d->n - d->pos) return mani_DrFail(d, d->n);
    if (size < 1) return mani_DrFail(d, at);
    const uint8_t* buf = d->b + at;
    uint32_t x = buf[size - 1] >> 6;
    if (x == 0) {
        r->offset = size - 1;
        r->state = buf[size - 1] & 0x3f;
    } else if (x == 1) {
        if (size < 2) return mani_DrFail(d, at + size - 1);
        r->offset = size - 2;
        r->state = ((uint32_t)buf[size - 2] | ((uint32_t)buf[size - 1] << 8)) & 0x3fff;
    } else if (x == 2) {
        if (size < 3) return mani_DrFail(d, at + size - 1);
        r->offset = size - 3;
        r->state = ((uint32_t)buf[size - 3] | ((uint32_t)buf[size - 2] << 8) | ((uint32_t)buf[size - 1] << 16)) &
                   0x3fffff;
    } else {
        return mani_DrFail(d, at + size - 1);
    }
    r->state += 4096u;
    if (r->state >= 4096u * 256u) return mani_DrFail(d, at + size - 1);
    r->buf = buf;
    d->pos += size;
    return 1;
}

static int mani_DrRabsBit(mani_DrRabs* r) {
    uint32_t p = 256u - r->probZero;
    if (r->state < 4096u && r->offset > 0) r->state = r->state * 256u + r->buf[--r->offset];
    uint32_t x = r->state, quot = x / 256u, rem = x % 256u, xn = quot * p;
    int val = rem < p;
    if (val)
        r->state = xn + rem;
    else
        r->state = x - xn - p;
    return val;
}

static uint32_t mani_DrRansPrecision(uint32_t symbolBits) {
    uint32_t p = (3u * symbolBits) / 2u;
    return p < 12 ? 12 : p > 20 ? 20 : p;
}

/* The probability table of a symbol coder. */
static int mani_DrRansCreate(mani_Dr* d, mani_DrRans* r, uint32_t symbolBits) {
    size_t at = d->pos;
    uint32_t n;
    if (!mani_DrVar32(d, &n)) return 0;
    r->precisionBits = mani_DrRansPrecision(symbolBits);
    r->symbols = n;
    if (n / 64u > d->n - d->pos) return mani_DrFail(d, at);
    if (n == 0) return 1;
    r->prob = (uint32_t*)mani_DrAlloc(d, n, sizeof(uint32_t));
    r->cum = (uint32_t*)mani_DrAlloc(d, n, sizeof(uint32_t));
    if (r->prob == NULL || r->cum == NULL) return 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t pd;
        size_t here = d->pos;
        if (!mani_DrU8(d, &pd)) return 0;
        uint32_t token = pd & 3u;
        if (token == 3) {
            uint32_t offset = pd >> 2;
            if ((uint64_t)i + offset >= n) return mani_DrFail(d, here);
            i += offset; /* zero probabilities (already zero) */
        } else {
            uint32_t prob = pd >> 2;
            for (uint32_t k = 0; k < token; k++) {
                uint8_t eb;
                if (!mani_DrU8(d, &eb)) return 0;
                prob |= (uint32_t)eb << (8 * (k + 1) - 2);
            }
            r->prob[i] = prob;
        }
    }
    uint64_t cum = 0, precision = 1u << r->precisionBits;
    for (uint32_t i = 0; i < n; i++) {
        r->cum[i] = (uint32_t)cum;
        cum += r->prob[i];
        if (cum > precision) return mani_DrFail(d, at);
    }
    if (cum != precision) return mani_DrFail(d, at);
    /* Each bucket's symbol: the last whose cumulative probability is at most
     * the bucket's first position (as mani_DrRansRead's search picks). */
    r->bucketShift = r->precisionBits - MANI_DR_RANS_BUCKET_BITS;
    uint32_t s = 0;
    for (uint32_t b = 0; b < MANI_DR_RANS_BUCKETS; b++) {
        const uint32_t first = b << r->bucketShift;
        while (s + 1u < n && r->cum[s + 1u] <= first) s++;
        r->bucket[b] = s;
    }
    r->bucket[MANI_DR_RANS_BUCKETS] = n - 1u;
    return 1;
}

static int mani_DrRansStart(mani_Dr* d, mani_DrRans* r) {
    uint64_t size;
    size_t sizeAt = d->pos;
    if (!mani_DrVar64(d, &size, 10)) return 0;
    size_t at = d->pos;
    if (size > (uint64_t)(d->n - d->pos)) return mani_DrFail(d, sizeAt);
    if (size < 1 || size > 0x7fffffffu) return mani_DrFail(d, sizeAt);
    uint32_t sz = (uint32_t)size;
    const uint8_t* buf = d->b + at;
    uint32_t x = buf[sz - 1] >> 6;
    uint32_t base = 4u << r->precisionBits;
    if (x == 0) {
        r->offset = sz - 1;
        r->state = buf[sz - 1] & 0x3f;
    } else if (x == 1) {
        if (sz < 2) return mani_DrFail(d, at + sz - 1);
        r->offset = sz - 2;
        r->state = ((uint32_t)buf[sz - 2] | ((uint32_t)buf[sz - 1] << 8)) & 0x3fff;
    } else if (x == 2) {
        if (sz < 3) return mani_DrFail(d, at + sz - 1);
        r->offset = sz - 3;
        r->state = ((uint32_t)buf[sz - 3] | ((uint32_t)buf[sz - 2] << 8) | ((uint32_t)buf[sz - 1] << 16)) & 0x3fffff;
    } else {
        if (sz < 4) return mani_DrFail(d, at + sz - 1);
        r->offset = sz - 4;
        r->state = mani_DrLe32(buf + sz - 4) & 0x3fffffff;
    }
    r->state += base;
    if ((uint64_t)r->state >= (uint64_t)base * 256u) return mani_DrFail(d, at + sz - 1);
    r->buf = buf;
    d->pos += sz;
    return 1;
}

static uint32_t mani_DrRansRead(mani_DrRans* r) {
    uint32_t base = 4u << r->precisionBits;
    while (r->state < base && r->offset > 0) r->state = r->state * 256u + r->buf[--r->offset];
    uint32_t quo = r->state >> r->precisionBits, rem = r->state & ((1u << r->precisionBits) - 1u);
    /* The last symbol whose cumulative probability is at most rem (a symbol of
     * probability 0 is never it: the next one starts at the same place). */
    const uint32_t b = rem >> r->bucketShift;
    uint32_t lo = r->bucket[b], hi = r->bucket[b + 1u];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (r->cum[mid] <= rem)
            lo = mid;
        else
            hi = mid - 1;
    }
    r->state = quo * r->prob[lo] + rem - r->cum[lo];
    return lo;
}

/* DecodeSymbols: tagged or raw. */
static int mani_DrSymbols(mani_Dr* d, uint32_t count, uint32_t components, uint32_t* out) {
    if (count == 0) return 1;
    uint8_t scheme;
    size_t at = d->pos;
    if (!mani_DrU8(d, &scheme)) return 0;
    if (scheme == 0) {
        mani_DrRans tag;
        memset(&tag, 0, sizeof tag);
        if (!mani_DrRansCreate(d, &tag, 5)) return 0;
        if (tag.symbols == 0) return mani_DrFail(d, at + 1);
        if (!mani_DrRansStart(d, &tag)) return 0;
        mani_DrBits bits;
        mani_DrBitsInit(&bits, d, d->pos, d->n);
        uint32_t id = 0;
        if (components == 0) return mani_DrFail(d, at);
        for (uint32_t i = 0; i < count; i += components) {
            uint32_t len = mani_DrRansRead(&tag);
            for (uint32_t j = 0; j < components && id < count; j++) {
                uint32_t v;
                if (!mani_DrBitsRead(d, &bits, len, &v)) return 0;
                out[id++] = v;
            }
        }
        d->pos += mani_DrBitsBytes(&bits);
        return 1;
    }
    if (scheme == 1) {
        uint8_t maxBits;
        size_t mb = d->pos;
        if (!mani_DrU8(d, &maxBits)) return 0;
        if (maxBits < 1 || maxBits > 18) return mani_DrFail(d, mb);
        mani_DrRans r;
        memset(&r, 0, sizeof r);
        if (!mani_DrRansCreate(d, &r, maxBits)) return 0;
        if (r.symbols == 0) return mani_DrFail(d, mb + 1);
        if (!mani_DrRansStart(d, &r)) return 0;
        for (uint32_t i = 0; i < count; i++) out[i] = mani_DrRansRead(&r);
        return 1;
    }
    return mani_DrFail(d, at);
}

/* -- Corner tables ----------------------------------------------------------- */

static inline int32_t mani_DrNext(int32_t c) {
    if (c < 0) return MANI_DR_NONE;
    return (c % 3 == 2) ? c - 2 : c + 1;
}
static inline int32_t mani_DrPrev(int32_t c) {
    if (c < 0) return MANI_DR_NONE;
    return (c % 3 == 0) ? c + 2 : c - 1;
}

static inline int32_t mani_DrTV(const mani_DrTable* t, int32_t c) {
    if (c < 0) return MANI_DR_NONE;
    return t->att ? t->att->cornerToVertex[c] : t->d->ctV[c];
}
static inline int32_t mani_DrTO(const mani_DrTable* t, int32_t c) {
    if (c < 0) return MANI_DR_NONE;
    if (t->att && t->att->edgeOnSeam[c]) return MANI_DR_NONE;
    return t->d->ctO[c];
}
static inline int32_t mani_DrSwingLeft(const mani_DrTable* t, int32_t c) {
    return mani_DrNext(mani_DrTO(t, mani_DrNext(c)));
}
static inline int32_t mani_DrSwingRight(const mani_DrTable* t, int32_t c) {
    return mani_DrPrev(mani_DrTO(t, mani_DrPrev(c)));
}
static inline int32_t mani_DrTLeft(const mani_DrTable* t, int32_t v) {
    if (v < 0) return MANI_DR_NONE;
    return t->att ? t->att->leftMost[v] : t->d->ctLeft[v];
}
static int32_t mani_DrTNumV(const mani_DrTable* t) { return t->att ? t->att->numVertices : t->d->ctNumV; }
static int mani_DrOnBoundary(const mani_DrTable* t, int32_t v) {
    int32_t c = mani_DrTLeft(t, v);
    if (c < 0) return 1;
    return mani_DrSwingLeft(t, c) < 0;
}

/* The decoder's own table while it is built. */
static inline int32_t mani_DrCtSwingLeft(const mani_Dr* d, int32_t c) {
    int32_t n = mani_DrNext(c);
    if (n < 0) return MANI_DR_NONE;
    return mani_DrNext(d->ctO[n]);
}
static inline int32_t mani_DrCtSwingRight(const mani_Dr* d, int32_t c) {
    int32_t p = mani_DrPrev(c);
    if (p < 0) return MANI_DR_NONE;
    return mani_DrPrev(d->ctO[p]);
}

static int32_t mani_DrAddVertex(mani_Dr* d) {
    if (d->ctNumV >= d->ctCapV) return MANI_DR_NONE;
    d->ctLeft[d->ctNumV] = MANI_DR_NONE;
    return d->ctNumV++;
}

static void mani_DrSetOpp(mani_Dr* d, int32_t a, int32_t b) {
    d->ctO[a] = b;
    d->ctO[b] = a;
}

/* -- Metadata ---------------------------------------------------------------- */

static int mani_DrMetadataElement(mani_Dr* d, int depth) {
    uint32_t entries, subs;
    size_t at = d->pos;
    if (depth > 32) return mani_DrFail(d, at);
    if (!mani_DrVar32(d, &entries)) return 0;
    if (entries > d->n - d->pos) return mani_DrFail(d, at);
    for (uint32_t i = 0; i < entries; i++) {
        uint8_t k, v;
        const uint8_t* p;
        if (!mani_DrU8(d, &k) || !mani_DrBytes(d, k, &p) || !mani_DrU8(d, &v) || !mani_DrBytes(d, v, &p)) return 0;
    }
    at = d->pos;
    if (!mani_DrVar32(d, &subs)) return 0;
    if (subs > d->n - d->pos) return mani_DrFail(d, at);
    for (uint32_t i = 0; i < subs; i++) {
        uint8_t k;
        const uint8_t* p;
        if (!mani_DrU8(d, &k) || !mani_DrBytes(d, k, &p)) return 0;
        if (!mani_DrMetadataElement(d, depth + 1)) return 0;
    }
    return 1;
}

static int mani_DrMetadata(mani_Dr* d) {
    uint32_t n;
    size_t at = d->pos;
    if (!mani_DrVar32(d, &n)) return 0;
    if (n > d->n - d->pos) return mani_DrFail(d, at);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id;
        if (!mani_DrVar32(d, &id)) return 0;
        if (!mani_DrMetadataElement(d, 0)) return 0;
    }
    return mani_DrMetadataElement(d, 0);
}

/* -- Sequential connectivity ------------------------------------------------- */

static int mani_DrSequential(mani_Dr* d) {
    uint32_t faces, points;
    size_t at = d->pos;
    if (!mani_DrVar32(d, &faces)) return 0;
    size_t pat = d->pos;
    if (!mani_DrVar32(d, &points)) return 0;
    if ((uint64_t)faces > 0xffffffffu / 3u || faces > (d->n - d->pos) / 3u) return mani_DrFail(d, at);
    if (points > 0x7fffffffu) return mani_DrFail(d, pat);
    uint8_t method;
    size_t mat = d->pos;
    if (!mani_DrU8(d, &method)) return 0;
    d->numFaces = faces;
    d->numPoints = points;
    d->faces = (uint32_t*)mani_DrAlloc(d, (size_t)faces * 3u, sizeof(uint32_t));
    if (faces > 0 && d->faces == NULL) return 0;
    if (method == 0) {
        size_t sat = d->pos;
        if (!mani_DrSymbols(d, faces * 3u, 1, d->faces)) return 0;
        int64_t last = 0;
        for (uint32_t i = 0; i < faces * 3u; i++) {
            uint32_t e = d->faces[i];
            int64_t diff = (int64_t)(e >> 1);
            if (e & 1u) {
                if (diff > last) return mani_DrFail(d, sat);
                diff = -diff;
            } else if (diff > 0x7fffffff - last) {
                return mani_DrFail(d, sat);
            }
            last += diff;
            if (last >= (int64_t)points) return mani_DrFail(d, sat);
            d->faces[i] = (uint32_t)last;
        }
    } else if (method == 1) {
        for (uint32_t i = 0; i < faces * 3u; i++) {
            uint32_t v;
            size_t vat = d->pos;
            if (points < 256) {
                uint8_t b;
                if (!mani_DrU8(d, &b)) return 0;
                v = b;
            } else if (points < 65536) {
                const uint8_t* p;
                if (!mani_DrBytes(d, 2, &p)) return 0;
                v = (uint32_t)p[0] | ((uint32_t)p[1] << 8);
            } else if (points < (1u << 21)) {
                if (!mani_DrVar32(d, &v)) return 0;
            } else {
                if (!mani_DrU32(d, &v)) return 0;
            }
            if (v >= points) return mani_DrFail(d, vat);
            d->faces[i] = v;
        }
    } else {
        return mani_DrFail(d, mat);
    }
    return 1;
}

/* -- Edgebreaker connectivity ------------------------------------------------ */

typedef struct mani_DrSplit {
    uint32_t source, split;
    uint8_t edge;
} mani_DrSplit;

typedef struct mani_DrTraversal {
    /* standard */
    mani_DrBits symbols;
    mani_DrRabs startFaces;
    mani_DrRabs seams[MANI_DR_MAX_ATTR_DATA];
    /* valence */
    int valence;
    int32_t minValence, maxValence;
    uint32_t** contextSymbols;
    int32_t* contextCounters;
    int32_t activeContext;
    uint32_t lastSymbol;
    int32_t* valences;
    int32_t numValenceVertices;
    size_t at; /* offset of the traversal data, for refusals */
} mani_DrTraversal;

static const uint32_t mani_DrSymbolToTopology[5] = {MANI_DR_TOPO_C, MANI_DR_TOPO_S, MANI_DR_TOPO_L,
                                                     MANI_DR_TOPO_R, MANI_DR_TOPO_E};

static int mani_DrTravSymbol(mani_Dr* d, mani_DrTraversal* t, uint32_t* symbol) {
    if (!t->valence) {
        uint32_t s, suffix;
        if (!mani_DrBitsRead(d, &t->symbols, 1, &s)) return 0;
        if (s != MANI_DR_TOPO_C) {
            if (!mani_DrBitsRead(d, &t->symbols, 2, &suffix)) return 0;
            s |= suffix << 1;
        }
        *symbol = s;
        return 1;
    }
    if (t->activeContext != -1) {
        int32_t counter = --t->contextCounters[t->activeContext];
        if (counter < 0) return mani_DrFail(d, t->at);
        uint32_t id = t->contextSymbols[t->activeContext][counter];
        if (id > 4) return mani_DrFail(d, t->at);
        t->lastSymbol = mani_DrSymbolToTopology[id];
    } else {
        t->lastSymbol = MANI_DR_TOPO_E;
    }
    *symbol = t->lastSymbol;
    return 1;
}

static int mani_DrValenceAdd(mani_DrTraversal* t, int32_t v, int32_t k) {
    if (v < 0 || v >= t->numValenceVertices) return 0;
    t->valences[v] += k;
    return 1;
}

static int mani_DrTravCorner(mani_Dr* d, mani_DrTraversal* t, int32_t corner) {
    if (!t->valence) return 1;
    int32_t next = mani_DrNext(corner), prev = mani_DrPrev(corner);
    int32_t vc = d->ctV[corner], vn = d->ctV[next], vp = d->ctV[prev];
    int ok = 1;
    switch (t->lastSymbol) {
    case MANI_DR_TOPO_C:
    case MANI_DR_TOPO_S:
        ok = mani_DrValenceAdd(t, vn, 1) && mani_DrValenceAdd(t, vp, 1);
        break;
    case MANI_DR_TOPO_R:
        ok = mani_DrValenceAdd(t, vc, 1) && mani_DrValenceAdd(t, vn, 1) && mani_DrValenceAdd(t, vp, 2);
        break;
    case MANI_DR_TOPO_L:
        ok = mani_DrValenceAdd(t, vc, 1) && mani_DrValenceAdd(t, vn, 2) && mani_DrValenceAdd(t, vp, 1);
        break;
    case MANI_DR_TOPO_E:
        ok = mani_DrValenceAdd(t, vc, 2) && mani_DrValenceAdd(t, vn, 2) && mani_DrValenceAdd(t, vp, 2);
        break;
    default:
        break;
    }
    if (!ok || vn < 0 || vn >= t->numValenceVertices) return mani_DrFail(d, t->at);
    int32_t a = t->valences[vn];
    if (a < t->minValence) a = t->minValence;
    if (a > t->maxValence) a = t->maxValence;
    t->activeContext = a - t->minValence;
    return 1;
}

static int mani_DrEdgebreaker(mani_Dr* d) {
    uint8_t travType;
    size_t at = d->pos;
    if (!mani_DrU8(d, &travType)) return 0;
    if (travType != 0 && travType != 2) return mani_DrFail(d, at);
    d->traversal = travType;
    uint32_t numEncodedVertices, numFaces, numSymbols, numSplitSymbols;
    uint8_t numAttrData;
    at = d->pos;
    if (!mani_DrVar32(d, &numEncodedVertices)) return 0;
    size_t fat = d->pos;
    if (!mani_DrVar32(d, &numFaces)) return 0;
    if (numFaces > 0x7fffffffu / 3u || numFaces > (d->n - d->pos) * 8u + 64u) return mani_DrFail(d, fat);
    size_t aat = d->pos;
    if (!mani_DrU8(d, &numAttrData)) return 0;
    if (numAttrData > MANI_DR_MAX_ATTR_DATA) return mani_DrFail(d, aat);
    size_t sat = d->pos;
    if (!mani_DrVar32(d, &numSymbols)) return 0;
    if (numFaces < numSymbols) return mani_DrFail(d, sat);
    if ((uint64_t)numFaces > (uint64_t)numSymbols + numSymbols / 3u) return mani_DrFail(d, fat);
    size_t ssat = d->pos;
    if (!mani_DrVar32(d, &numSplitSymbols)) return 0;
    if (numSplitSymbols > numSymbols) return mani_DrFail(d, ssat);
    if ((uint64_t)numEncodedVertices + numSplitSymbols > 3u * (uint64_t)numFaces + 3u)
        return mani_DrFail(d, at);
    d->numAttrData = numAttrData;
    d->numFaces = numFaces;
    const uint32_t corners = numFaces * 3u;
    const int32_t maxVertices = (int32_t)(numEncodedVertices + numSplitSymbols);
    d->ctV = (int32_t*)mani_DrAlloc(d, corners, sizeof(int32_t));
    d->ctO = (int32_t*)mani_DrAlloc(d, corners, sizeof(int32_t));
    d->ctLeft = (int32_t*)mani_DrAlloc(d, (size_t)maxVertices + 1u, sizeof(int32_t));
    d->vertHole = (uint8_t*)mani_DrAlloc(d, (size_t)maxVertices + 1u, 1);
    if (d->status) return 0;
    for (uint32_t i = 0; i < corners; i++) d->ctV[i] = d->ctO[i] = MANI_DR_NONE;
    for (int32_t i = 0; i < maxVertices; i++) d->vertHole[i] = 1;
    d->ctCapV = maxVertices;
    d->ctNumV = 0;
    for (uint32_t i = 0; i < numAttrData; i++) d->attrData[i].decoderId = -1;

    /* Topology splits. */
    uint32_t numSplits;
    size_t tat = d->pos;
    if (!mani_DrVar32(d, &numSplits)) return 0;
    if (numSplits > numFaces) return mani_DrFail(d, tat);
    mani_DrSplit* splits = (mani_DrSplit*)mani_DrAlloc(d, numSplits + 1u, sizeof(mani_DrSplit));
    if (splits == NULL) return 0;
    uint32_t splitCount = numSplits;
    if (numSplits > 0) {
        uint32_t last = 0;
        for (uint32_t i = 0; i < numSplits; i++) {
            uint32_t delta;
            size_t dat = d->pos;
            if (!mani_DrVar32(d, &delta)) return 0;
            if ((uint64_t)delta + last > 0x7fffffffu) return mani_DrFail(d, dat);
            splits[i].source = delta + last;
            dat = d->pos;
            if (!mani_DrVar32(d, &delta)) return 0;
            if (delta > splits[i].source) return mani_DrFail(d, dat);
            splits[i].split = splits[i].source - delta;
            last = splits[i].source;
        }
        mani_DrBits bits;
        mani_DrBitsInit(&bits, d, d->pos, d->n);
        for (uint32_t i = 0; i < numSplits; i++) {
            uint32_t e;
            if (!mani_DrBitsRead(d, &bits, 1, &e)) return 0;
            splits[i].edge = (uint8_t)(e & 1u);
        }
        d->pos += mani_DrBitsBytes(&bits);
    }

    /* The traversal. */
    mani_DrTraversal t;
    memset(&t, 0, sizeof t);
    t.at = d->pos;
    t.activeContext = -1;
    if (travType == 0) {
        uint64_t size;
        size_t zat = d->pos;
        if (!mani_DrVar64(d, &size, 10)) return 0;
        if (size > (uint64_t)(d->n - d->pos)) return mani_DrFail(d, zat);
        mani_DrBitsInit(&t.symbols, d, d->pos, d->pos + (size_t)size);
        d->pos += (size_t)size;
    }
    if (!mani_DrRabsStart(d, &t.startFaces)) return 0;
    for (uint32_t i = 0; i < numAttrData; i++)
        if (!mani_DrRabsStart(d, &t.seams[i])) return 0;
    if (travType == 2) {
        /* Bitstream 2.2 fixes the valence contexts at 2..7 (six). */
        const uint32_t mn = 2, mx = 7;
        t.valence = 1;
        t.minValence = (int32_t)mn;
        t.maxValence = (int32_t)mx;
        uint32_t contexts = mx - mn + 1u;
        t.contextSymbols = (uint32_t**)mani_DrAlloc(d, contexts, sizeof(uint32_t*));
        t.contextCounters = (int32_t*)mani_DrAlloc(d, contexts, sizeof(int32_t));
        t.numValenceVertices = maxVertices;
        t.valences = (int32_t*)mani_DrAlloc(d, (size_t)maxVertices + 1u, sizeof(int32_t));
        if (d->status) return 0;
        for (uint32_t i = 0; i < contexts; i++) {
            uint32_t k;
            size_t kat = d->pos;
            if (!mani_DrVar32(d, &k)) return 0;
            if (k > numFaces) return mani_DrFail(d, kat);
            if (k > 0) {
                t.contextSymbols[i] = (uint32_t*)mani_DrAlloc(d, k, sizeof(uint32_t));
                if (t.contextSymbols[i] == NULL) return 0;
                if (!mani_DrSymbols(d, k, 1, t.contextSymbols[i])) return 0;
                t.contextCounters[i] = (int32_t)k;
            }
        }
    }

    /* Faces from the symbols. */
    int32_t* stack = (int32_t*)mani_DrAlloc(d, (size_t)numSymbols + 1u, sizeof(int32_t));
    int32_t* splitCorner = (int32_t*)mani_DrAlloc(d, (size_t)numSymbols + 1u, sizeof(int32_t));
    int32_t* invalid = (int32_t*)mani_DrAlloc(d, (size_t)numSymbols + 1u, sizeof(int32_t));
    if (d->status) return 0;
    for (uint32_t i = 0; i <= numSymbols; i++) splitCorner[i] = MANI_DR_NONE;
    uint32_t top = 0, numInvalid = 0, faceCount = 0;
    const int removeInvalid = numAttrData == 0;
    const size_t bad = t.at;
    for (uint32_t sid = 0; sid < numSymbols; sid++) {
        const int32_t corner = (int32_t)(3u * faceCount);
        faceCount++;
        int checkSplit = 0;
        uint32_t symbol;
        if (!mani_DrTravSymbol(d, &t, &symbol)) return 0;
        if (symbol == MANI_DR_TOPO_C) {
            if (top == 0) return mani_DrFail(d, bad);
            int32_t a = stack[top - 1];
            int32_t x = d->ctV[mani_DrNext(a)];
            if (x < 0) return mani_DrFail(d, bad);
            int32_t b = mani_DrNext(d->ctLeft[x]);
            if (b < 0 || a == b) return mani_DrFail(d, bad);
            if (d->ctO[a] != MANI_DR_NONE || d->ctO[b] != MANI_DR_NONE) return mani_DrFail(d, bad);
            mani_DrSetOpp(d, a, corner + 1);
            mani_DrSetOpp(d, b, corner + 2);
            int32_t aPrev = d->ctV[mani_DrPrev(a)], bNext = d->ctV[mani_DrNext(b)];
            if (x == aPrev || x == bNext || aPrev < 0 || bNext < 0) return mani_DrFail(d, bad);
            d->ctV[corner] = x;
            d->ctV[corner + 1] = bNext;
            d->ctV[corner + 2] = aPrev;
            d->ctLeft[aPrev] = corner + 2;
            d->vertHole[x] = 0;
            stack[top - 1] = corner;
        } else if (symbol == MANI_DR_TOPO_R || symbol == MANI_DR_TOPO_L) {
            if (top == 0) return mani_DrFail(d, bad);
            int32_t a = stack[top - 1];
            if (d->ctO[a] != MANI_DR_NONE) return mani_DrFail(d, bad);
            int32_t opp, cl, cr;
            if (symbol == MANI_DR_TOPO_R) {
                opp = corner + 2;
                cl = corner + 1;
                cr = corner;
            } else {
                opp = corner + 1;
                cl = corner;
                cr = corner + 2;
            }
            mani_DrSetOpp(d, opp, a);
            int32_t nv = mani_DrAddVertex(d);
            if (nv < 0) return mani_DrFail(d, bad);
            d->ctV[opp] = nv;
            d->ctLeft[nv] = opp;
            int32_t vr = d->ctV[mani_DrPrev(a)];
            if (vr < 0) return mani_DrFail(d, bad);
            d->ctV[cr] = vr;
            d->ctLeft[vr] = cr;
            d->ctV[cl] = d->ctV[mani_DrNext(a)];
            stack[top - 1] = corner;
            checkSplit = 1;
        } else if (symbol == MANI_DR_TOPO_S) {
            if (top == 0) return mani_DrFail(d, bad);
            int32_t b = stack[--top];
            if (splitCorner[sid] != MANI_DR_NONE) stack[top++] = splitCorner[sid];
            if (top == 0) return mani_DrFail(d, bad);
            int32_t a = stack[top - 1];
            if (a == b) return mani_DrFail(d, bad);
            if (d->ctO[a] != MANI_DR_NONE || d->ctO[b] != MANI_DR_NONE) return mani_DrFail(d, bad);
            mani_DrSetOpp(d, a, corner + 2);
            mani_DrSetOpp(d, b, corner + 1);
            int32_t vp = d->ctV[mani_DrPrev(a)];
            d->ctV[corner] = vp;
            d->ctV[corner + 1] = d->ctV[mani_DrNext(a)];
            int32_t bPrev = d->ctV[mani_DrPrev(b)];
            if (vp < 0 || bPrev < 0) return mani_DrFail(d, bad);
            d->ctV[corner + 2] = bPrev;
            d->ctLeft[bPrev] = corner + 2;
            int32_t cn = mani_DrNext(b);
            int32_t vn = d->ctV[cn];
            if (vn < 0) return mani_DrFail(d, bad);
            if (t.valence) {
                if (vp >= t.numValenceVertices || vn >= t.numValenceVertices) return mani_DrFail(d, bad);
                t.valences[vp] += t.valences[vn];
            }
            d->ctLeft[vp] = d->ctLeft[vn];
            int32_t first = cn;
            uint32_t guard = 0;
            while (cn != MANI_DR_NONE) {
                d->ctV[cn] = vp;
                cn = mani_DrCtSwingLeft(d, cn);
                if (cn == first || ++guard > corners) return mani_DrFail(d, bad);
            }
            d->ctLeft[vn] = MANI_DR_NONE;
            if (removeInvalid) invalid[numInvalid++] = vn;
            stack[top - 1] = corner;
        } else if (symbol == MANI_DR_TOPO_E) {
            int32_t v0 = mani_DrAddVertex(d), v1 = mani_DrAddVertex(d), v2 = mani_DrAddVertex(d);
            if (v0 < 0 || v1 < 0 || v2 < 0) return mani_DrFail(d, bad);
            d->ctV[corner] = v0;
            d->ctV[corner + 1] = v1;
            d->ctV[corner + 2] = v2;
            d->ctLeft[v0] = corner;
            d->ctLeft[v1] = corner + 1;
            d->ctLeft[v2] = corner + 2;
            stack[top++] = corner;
            checkSplit = 1;
        } else {
            return mani_DrFail(d, bad);
        }
        if (!mani_DrTravCorner(d, &t, stack[top - 1])) return 0;
        if (checkSplit) {
            const int64_t encoderId = (int64_t)numSymbols - sid - 1;
            while (splitCount > 0) {
                const mani_DrSplit* s = &splits[splitCount - 1];
                if ((int64_t)s->source > encoderId) return mani_DrFail(d, bad);
                if ((int64_t)s->source != encoderId) break;
                int32_t act = stack[top - 1];
                int32_t nc = s->edge == 1 ? mani_DrNext(act) : mani_DrPrev(act);
                int64_t decSplit = (int64_t)numSymbols - s->split - 1;
                if (decSplit < 0 || decSplit >= (int64_t)numSymbols) return mani_DrFail(d, bad);
                splitCorner[decSplit] = nc;
                splitCount--;
            }
        }
    }
    /* Start faces. */
    while (top > 0) {
        int32_t corner = stack[--top];
        int interior = mani_DrRabsBit(&t.startFaces);
        if (interior) {
            if (faceCount >= numFaces) return mani_DrFail(d, bad);
            int32_t a = corner;
            int32_t vn = d->ctV[mani_DrNext(a)];
            if (vn < 0) return mani_DrFail(d, bad);
            int32_t b = mani_DrNext(d->ctLeft[vn]);
            int32_t vx = d->ctV[mani_DrNext(b)];
            if (b < 0 || vx < 0) return mani_DrFail(d, bad);
            int32_t c = mani_DrNext(d->ctLeft[vx]);
            if (c < 0 || corner == b || corner == c || b == c) return mani_DrFail(d, bad);
            if (d->ctO[corner] != MANI_DR_NONE || d->ctO[b] != MANI_DR_NONE || d->ctO[c] != MANI_DR_NONE)
                return mani_DrFail(d, bad);
            int32_t vp = d->ctV[mani_DrNext(c)];
            if (vp < 0) return mani_DrFail(d, bad);
            int32_t nc = (int32_t)(3u * faceCount);
            faceCount++;
            mani_DrSetOpp(d, nc, corner);
            mani_DrSetOpp(d, nc + 1, b);
            mani_DrSetOpp(d, nc + 2, c);
            d->ctV[nc] = vx;
            d->ctV[nc + 1] = vp;
            d->ctV[nc + 2] = vn;
            for (int k = 0; k < 3; k++) d->vertHole[d->ctV[nc + k]] = 0;
        }
    }
    if (faceCount != numFaces) return mani_DrFail(d, bad);
    for (uint32_t i = 0; i < corners; i++)
        if (d->ctV[i] < 0) return mani_DrFail(d, bad);
    int32_t numVertices = d->ctNumV;
    for (uint32_t k = 0; k < numInvalid; k++) {
        int32_t iv = invalid[k];
        if (numVertices <= 0) return mani_DrFail(d, bad);
        int32_t src = numVertices - 1;
        while (d->ctLeft[src] == MANI_DR_NONE) {
            src = --numVertices - 1;
            if (src < 0) return mani_DrFail(d, bad);
        }
        if (src < iv) continue;
        /* Every corner of src to iv (around the vertex, both ways). */
        int32_t start = d->ctLeft[src], c = start;
        int left = 1;
        uint32_t guard = 0;
        while (c != MANI_DR_NONE) {
            if (d->ctV[c] != src) return mani_DrFail(d, bad);
            d->ctV[c] = iv;
            if (++guard > corners) return mani_DrFail(d, bad);
            if (left) {
                c = mani_DrCtSwingLeft(d, c);
                if (c == MANI_DR_NONE) {
                    left = 0;
                    c = mani_DrCtSwingRight(d, start);
                } else if (c == start) {
                    c = MANI_DR_NONE;
                }
            } else {
                c = mani_DrCtSwingRight(d, c);
            }
        }
        d->ctLeft[iv] = d->ctLeft[src];
        d->ctLeft[src] = MANI_DR_NONE;
        d->vertHole[iv] = d->vertHole[src];
        d->vertHole[src] = 0;
        numVertices--;
    }
    d->ctNumV = numVertices;

    /* Attribute seams. */
    for (uint32_t i = 0; i < numAttrData; i++) {
        d->attrData[i].seamCorners = (int32_t*)mani_DrAlloc(d, (size_t)corners + 1u, sizeof(int32_t));
        if (d->attrData[i].seamCorners == NULL) return 0;
    }
    if (numAttrData > 0) {
        for (uint32_t ci = 0; ci < corners; ci += 3) {
            int32_t cs[3] = {(int32_t)ci, (int32_t)ci + 1, (int32_t)ci + 2};
            for (int k = 0; k < 3; k++) {
                int32_t opp = d->ctO[cs[k]];
                if (opp == MANI_DR_NONE) {
                    for (uint32_t i = 0; i < numAttrData; i++)
                        d->attrData[i].seamCorners[d->attrData[i].seamCount++] = cs[k];
                    continue;
                }
                if ((uint32_t)(opp / 3) < ci / 3u) continue;
                for (uint32_t i = 0; i < numAttrData; i++)
                    if (mani_DrRabsBit(&t.seams[i])) d->attrData[i].seamCorners[d->attrData[i].seamCount++] = cs[k];
            }
        }
    }
    /* Attribute corner tables. */
    for (uint32_t i = 0; i < numAttrData; i++) {
        mani_DrAttrTable* at2 = &d->attrData[i].table;
        at2->edgeOnSeam = (uint8_t*)mani_DrAlloc(d, corners + 1u, 1);
        at2->vertexOnSeam = (uint8_t*)mani_DrAlloc(d, (size_t)numVertices + 1u, 1);
        at2->cornerToVertex = (int32_t*)mani_DrAlloc(d, corners + 1u, sizeof(int32_t));
        at2->leftMost = (int32_t*)mani_DrAlloc(d, corners + 1u, sizeof(int32_t));
        if (d->status) return 0;
        for (uint32_t c = 0; c < corners; c++) at2->cornerToVertex[c] = MANI_DR_NONE;
        for (uint32_t s = 0; s < d->attrData[i].seamCount; s++) {
            int32_t c = d->attrData[i].seamCorners[s];
            at2->edgeOnSeam[c] = 1;
            at2->vertexOnSeam[d->ctV[mani_DrNext(c)]] = 1;
            at2->vertexOnSeam[d->ctV[mani_DrPrev(c)]] = 1;
            int32_t o = d->ctO[c];
            if (o != MANI_DR_NONE) {
                at2->edgeOnSeam[o] = 1;
                at2->vertexOnSeam[d->ctV[mani_DrNext(o)]] = 1;
                at2->vertexOnSeam[d->ctV[mani_DrPrev(o)]] = 1;
            }
        }
        mani_DrTable tt = {d, at2};
        int32_t nv = 0;
        for (int32_t v = 0; v < numVertices; v++) {
            int32_t c = d->ctLeft[v];
            if (c == MANI_DR_NONE) continue;
            int32_t first = c, act;
            if ((uint32_t)nv >= corners) return mani_DrFail(d, bad);
            int32_t id = nv++;
            if (at2->vertexOnSeam[v]) {
                act = mani_DrSwingLeft(&tt, first);
                uint32_t guard = 0;
                while (act != MANI_DR_NONE) {
                    first = act;
                    act = mani_DrSwingLeft(&tt, act);
                    if (act == c || ++guard > corners) return mani_DrFail(d, bad);
                }
            }
            at2->cornerToVertex[first] = id;
            at2->leftMost[id] = first;
            act = mani_DrCtSwingRight(d, first);
            uint32_t guard = 0;
            while (act != MANI_DR_NONE && act != first) {
                if (at2->edgeOnSeam[mani_DrNext(act)]) {
                    /* a swing that never comes back could pass the corners */
                    if ((uint32_t)nv >= corners) return mani_DrFail(d, bad);
                    id = nv++;
                    at2->leftMost[id] = act;
                }
                at2->cornerToVertex[act] = id;
                act = mani_DrCtSwingRight(d, act);
                if (++guard > corners) return mani_DrFail(d, bad);
            }
        }
        at2->numVertices = nv;
        for (uint32_t c = 0; c < corners; c++)
            if (at2->cornerToVertex[c] < 0) return mani_DrFail(d, bad);
    }

    /* Points of the corners. */
    d->faces = (uint32_t*)mani_DrAlloc(d, corners + 1u, sizeof(uint32_t));
    if (d->faces == NULL) return 0;
    if (numAttrData == 0) {
        for (uint32_t c = 0; c < corners; c++) d->faces[c] = (uint32_t)d->ctV[c];
        d->numPoints = (uint32_t)numVertices;
        return 1;
    }
    for (uint32_t c = 0; c < corners; c++) d->faces[c] = 0xffffffffu;
    uint32_t points = 0;
    mani_DrTable pt = {d, NULL};
    for (int32_t v = 0; v < numVertices; v++) {
        int32_t c = d->ctLeft[v];
        if (c == MANI_DR_NONE) continue;
        int32_t firstC = c;
        if (!d->vertHole[v]) {
            for (uint32_t i = 0; i < numAttrData; i++) {
                const mani_DrAttrTable* a2 = &d->attrData[i].table;
                if (!a2->vertexOnSeam[d->ctV[c]]) continue;
                int32_t vid = a2->cornerToVertex[c];
                int32_t act = mani_DrSwingRight(&pt, c);
                int found = 0;
                uint32_t guard = 0;
                while (act != c) {
                    if (act == MANI_DR_NONE || ++guard > corners) return mani_DrFail(d, bad);
                    if (a2->cornerToVertex[act] != vid) {
                        firstC = act;
                        found = 1;
                        break;
                    }
                    act = mani_DrSwingRight(&pt, act);
                }
                if (found) break;
            }
        }
        c = firstC;
        d->faces[c] = points++;
        int32_t prev = c;
        c = mani_DrSwingRight(&pt, c);
        uint32_t guard = 0;
        while (c != MANI_DR_NONE && c != firstC) {
            int seam = 0;
            for (uint32_t i = 0; i < numAttrData; i++)
                if (d->attrData[i].table.cornerToVertex[c] != d->attrData[i].table.cornerToVertex[prev]) {
                    seam = 1;
                    break;
                }
            d->faces[c] = seam ? points++ : d->faces[prev];
            prev = c;
            c = mani_DrSwingRight(&pt, c);
            if (++guard > corners) return mani_DrFail(d, bad);
        }
    }
    for (uint32_t c = 0; c < corners; c++)
        if (d->faces[c] == 0xffffffffu) return mani_DrFail(d, bad);
    d->numPoints = points;
    return 1;
}

/* -- Traversal of the attributes --------------------------------------------- */

typedef struct mani_DrWalk {
    mani_Dr* d;
    mani_DrTable t;
    mani_DrEncoding* enc;
    uint8_t* faceSeen;
    uint8_t* vertSeen;
    uint32_t* points;
    uint32_t pointCount;
    int32_t* stack;
    uint32_t stackCap;
    int32_t* degree;
    int32_t* stacks[3];
    uint32_t stackTop[3];
} mani_DrWalk;

static int mani_DrFaceSeen(const mani_DrWalk* w, int32_t c) { return c < 0 || w->faceSeen[c / 3]; }

static void mani_DrVisit(mani_DrWalk* w, int32_t v, int32_t c) {
    w->vertSeen[v] = 1;
    w->points[w->pointCount++] = w->d->faces[c];
    w->enc->valueToCorner[w->enc->numValues] = c;
    w->enc->vertexToValue[v] = w->enc->numValues++;
}

static int mani_DrDepthFirst(mani_DrWalk* w, int32_t corner) {
    if (mani_DrFaceSeen(w, corner)) return 1;
    const mani_DrTable* t = &w->t;
    uint32_t top = 0;
    w->stack[top++] = corner;
    int32_t nv = mani_DrTV(t, mani_DrNext(corner)), pv = mani_DrTV(t, mani_DrPrev(corner));
    if (nv < 0 || pv < 0) return mani_DrFail(w->d, 0);
    if (!w->vertSeen[nv]) mani_DrVisit(w, nv, mani_DrNext(corner));
    if (!w->vertSeen[pv]) mani_DrVisit(w, pv, mani_DrPrev(corner));
    while (top > 0) {
        corner = w->stack[top - 1];
        if (corner < 0 || w->faceSeen[corner / 3]) {
            top--;
            continue;
        }
        for (;;) {
            w->faceSeen[corner / 3] = 1;
            int32_t v = mani_DrTV(t, corner);
            if (v < 0) return mani_DrFail(w->d, 0);
            if (!w->vertSeen[v]) {
                int onBoundary = mani_DrOnBoundary(t, v);
                mani_DrVisit(w, v, corner);
                if (!onBoundary) {
                    corner = mani_DrTO(t, mani_DrNext(corner));
                    if (corner < 0 || w->faceSeen[corner / 3]) return mani_DrFail(w->d, 0);
                    continue;
                }
            }
            int32_t rc = mani_DrTO(t, mani_DrNext(corner)), lc = mani_DrTO(t, mani_DrPrev(corner));
            if (mani_DrFaceSeen(w, rc)) {
                if (mani_DrFaceSeen(w, lc)) {
                    top--;
                    break;
                }
                corner = lc;
            } else if (mani_DrFaceSeen(w, lc)) {
                corner = rc;
            } else {
                if (top >= w->stackCap) return mani_DrFail(w->d, 0);
                w->stack[top - 1] = lc;
                w->stack[top++] = rc;
                break;
            }
        }
    }
    return 1;
}

static int mani_DrPriority(mani_DrWalk* w, int32_t c) {
    int32_t v = mani_DrTV(&w->t, c);
    int p = 0;
    if (!w->vertSeen[v]) p = (++w->degree[v] > 1) ? 1 : 2;
    return p;
}

static int mani_DrPush(mani_DrWalk* w, int32_t c, int p, int* best) {
    if (w->stackTop[p] >= w->stackCap) return mani_DrFail(w->d, 0);
    w->stacks[p][w->stackTop[p]++] = c;
    if (p < *best) *best = p;
    return 1;
}

static int mani_DrMaxDegree(mani_DrWalk* w, int32_t corner) {
    const mani_DrTable* t = &w->t;
    int best = 0;
    w->stacks[0][w->stackTop[0]++] = corner;
    int32_t nv = mani_DrTV(t, mani_DrNext(corner)), pv = mani_DrTV(t, mani_DrPrev(corner)), tv = mani_DrTV(t, corner);
    if (nv < 0 || pv < 0 || tv < 0) return mani_DrFail(w->d, 0);
    if (!w->vertSeen[nv]) mani_DrVisit(w, nv, mani_DrNext(corner));
    if (!w->vertSeen[pv]) mani_DrVisit(w, pv, mani_DrPrev(corner));
    if (!w->vertSeen[tv]) mani_DrVisit(w, tv, corner);
    for (;;) {
        corner = MANI_DR_NONE;
        for (int i = best; i < 3; i++)
            if (w->stackTop[i] > 0) {
                corner = w->stacks[i][--w->stackTop[i]];
                best = i;
                break;
            }
        if (corner == MANI_DR_NONE) break;
        if (w->faceSeen[corner / 3]) continue;
        for (;;) {
            w->faceSeen[corner / 3] = 1;
            int32_t v = mani_DrTV(t, corner);
            if (!w->vertSeen[v]) mani_DrVisit(w, v, corner);
            int32_t rc = mani_DrTO(t, mani_DrNext(corner)), lc = mani_DrTO(t, mani_DrPrev(corner));
            int rs = mani_DrFaceSeen(w, rc), ls = mani_DrFaceSeen(w, lc);
            if (!ls) {
                int p = mani_DrPriority(w, lc);
                if (rs && p <= best) {
                    corner = lc;
                    continue;
                }
                if (!mani_DrPush(w, lc, p, &best)) return 0;
            }
            if (!rs) {
                int p = mani_DrPriority(w, rc);
                if (p <= best) {
                    corner = rc;
                    continue;
                }
                if (!mani_DrPush(w, rc, p, &best)) return 0;
            }
            break;
        }
    }
    return 1;
}

/* The sequence of decoder k: its points in order, and its encoding data. */
static int mani_DrSequence(mani_Dr* d, uint32_t k) {
    if (d->method == 0) {
        d->decPoints[k] = (uint32_t*)mani_DrAlloc(d, (size_t)d->numPoints + 1u, sizeof(uint32_t));
        if (d->decPoints[k] == NULL) return 0;
        for (uint32_t i = 0; i < d->numPoints; i++) d->decPoints[k][i] = i;
        d->decPointCount[k] = d->numPoints;
        return 1;
    }
    mani_DrWalk w;
    memset(&w, 0, sizeof w);
    w.d = d;
    int32_t ad = d->decAttData[k];
    w.t.d = d;
    w.t.att = (ad >= 0 && d->decType[k] == 1) ? &d->attrData[ad].table : NULL;
    w.enc = ad >= 0 ? &d->attrData[ad].enc : &d->posEnc;
    int32_t nv = mani_DrTNumV(&w.t);
    if (nv < d->ctNumV) nv = d->ctNumV;
    const uint32_t corners = d->numFaces * 3u;
    w.enc->vertexToValue = (int32_t*)mani_DrAlloc(d, (size_t)nv + 1u, sizeof(int32_t));
    w.enc->valueToCorner = (int32_t*)mani_DrAlloc(d, (size_t)nv + 1u, sizeof(int32_t));
    w.faceSeen = (uint8_t*)mani_DrAlloc(d, d->numFaces + 1u, 1);
    w.vertSeen = (uint8_t*)mani_DrAlloc(d, (size_t)nv + 1u, 1);
    w.points = (uint32_t*)mani_DrAlloc(d, (size_t)nv + 1u, sizeof(uint32_t));
    w.stackCap = corners + 4u;
    if (d->decTraversal[k] == 1) {
        w.degree = (int32_t*)mani_DrAlloc(d, (size_t)nv + 1u, sizeof(int32_t));
        for (int i = 0; i < 3; i++) w.stacks[i] = (int32_t*)mani_DrAlloc(d, w.stackCap, sizeof(int32_t));
    } else {
        w.stack = (int32_t*)mani_DrAlloc(d, w.stackCap, sizeof(int32_t));
    }
    if (d->status) return 0;
    for (int32_t i = 0; i < nv; i++) w.enc->vertexToValue[i] = -1;
    w.enc->numValues = 0;
    for (uint32_t f = 0; f < d->numFaces; f++) {
        int ok = d->decTraversal[k] == 1 ? mani_DrMaxDegree(&w, (int32_t)(3u * f)) : mani_DrDepthFirst(&w, (int32_t)(3u * f));
        if (!ok) return 0;
    }
    d->decPoints[k] = w.points;
    d->decPointCount[k] = w.pointCount;
    return 1;
}

/* The point-to-value map of an attribute of decoder k. */
static int mani_DrMapPoints(mani_Dr* d, uint32_t k, mani_DrAttr* a) {
    a->pointToValue = (uint32_t*)mani_DrAlloc(d, (size_t)d->numPoints + 1u, sizeof(uint32_t));
    if (a->pointToValue == NULL) return 0;
    if (d->method == 0) {
        for (uint32_t i = 0; i < d->numPoints; i++) a->pointToValue[i] = i;
        return 1;
    }
    int32_t ad = d->decAttData[k];
    mani_DrTable t = {d, (ad >= 0 && d->decType[k] == 1) ? &d->attrData[ad].table : NULL};
    const mani_DrEncoding* enc = ad >= 0 ? &d->attrData[ad].enc : &d->posEnc;
    for (uint32_t c = 0; c < d->numFaces * 3u; c++) {
        int32_t v = mani_DrTV(&t, (int32_t)c);
        if (v < 0) return mani_DrFail(d, 0);
        int32_t e = enc->vertexToValue[v];
        if (e < 0 || (uint32_t)e >= d->numPoints) return mani_DrFail(d, 0);
        a->pointToValue[d->faces[c]] = (uint32_t)e;
    }
    return 1;
}

/* -- Prediction -------------------------------------------------------------- */

typedef struct mani_DrPred {
    mani_Dr* d;
    mani_DrAttr* a;
    int8_t method, transform;
    /* wrap */
    int32_t minValue, maxValue, maxDif;
    /* octahedron */
    int32_t octMax, octCenter, octMaxValue;
    /* mesh data */
    mani_DrTable t;
    const mani_DrEncoding* enc;
    const uint32_t* points; /* entry -> point */
    /* constrained multi-parallelogram */
    uint8_t* crease[4];
    uint32_t creaseCount[4];
    /* tex coords */
    uint8_t* orientations;
    uint32_t orientationCount;
    /* geometric normal */
    mani_DrRabs flips;
    const mani_DrAttr* pos;
    int32_t posComponents;
    /* entry -> the first of its position's portable components, or
     * MANI_DR_NO_POSITION (an entry mani_DrPosOfEntry refuses) */
    uint32_t* entryPosition;
} mani_DrPred;

#define MANI_DR_NO_POSITION 0xFFFFFFFFu

static int mani_DrMeshMethod(int8_t m) { return m >= 1 && m <= 6; }

static void mani_DrWrapOrig(const mani_DrPred* p, const int32_t* pred, const int32_t* corr, int32_t* out, uint32_t nc) {
    for (uint32_t i = 0; i < nc; i++) {
        int32_t pv = pred[i];
        if (pv > p->maxValue)
            pv = p->maxValue;
        else if (pv < p->minValue)
            pv = p->minValue;
        int32_t o = (int32_t)((uint32_t)pv + (uint32_t)corr[i]);
        if (o > p->maxValue)
            o = (int32_t)((uint32_t)o - (uint32_t)p->maxDif);
        else if (o < p->minValue)
            o = (int32_t)((uint32_t)o + (uint32_t)p->maxDif);
        out[i] = o;
    }
}

static int32_t mani_DrAbs(int32_t x) { return x < 0 ? (int32_t)(0u - (uint32_t)x) : x; }

static int mani_DrInDiamond(const mani_DrPred* p, int32_t s, int32_t t) {
    uint32_t st = (uint32_t)mani_DrAbs(s) + (uint32_t)mani_DrAbs(t);
    return st <= (uint32_t)p->octCenter;
}

static void mani_DrInvertDiamond(const mani_DrPred* p, int32_t* s, int32_t* t) {
    int32_t ss, ts;
    if (*s >= 0 && *t >= 0) {
        ss = 1;
        ts = 1;
    } else if (*s <= 0 && *t <= 0) {
        ss = -1;
        ts = -1;
    } else {
        ss = *s > 0 ? 1 : -1;
        ts = *t > 0 ? 1 : -1;
    }
    uint32_t cs = (uint32_t)(ss * p->octCenter), ct = (uint32_t)(ts * p->octCenter);
    uint32_t us = (uint32_t)*s, ut = (uint32_t)*t;
    us = us + us - cs;
    ut = ut + ut - ct;
    if (ss * ts >= 0) {
        uint32_t tmp = us;
        us = 0u - ut;
        ut = 0u - tmp;
    } else {
        uint32_t tmp = us;
        us = ut;
        ut = tmp;
    }
    us += cs;
    ut += ct;
    *s = (int32_t)us / 2;
    *t = (int32_t)ut / 2;
}

static int32_t mani_DrModMax(const mani_DrPred* p, int32_t x) {
    if (x > p->octCenter) return (int32_t)((uint32_t)x - (uint32_t)p->octMax);
    if (x < -p->octCenter) return (int32_t)((uint32_t)x + (uint32_t)p->octMax);
    return x;
}

static void mani_DrRotate(int32_t* s, int32_t* t, int32_t count) {
    int32_t a = *s, b = *t;
    switch (count) {
    case 1:
        *s = b;
        *t = (int32_t)(0u - (uint32_t)a);
        break;
    case 2:
        *s = (int32_t)(0u - (uint32_t)a);
        *t = (int32_t)(0u - (uint32_t)b);
        break;
    case 3:
        *s = (int32_t)(0u - (uint32_t)b);
        *t = a;
        break;
    default:
        break;
    }
}

static void mani_DrOctOrig(const mani_DrPred* p, const int32_t* pred, const int32_t* corr, int32_t* out) {
    int32_t s = (int32_t)((uint32_t)pred[0] - (uint32_t)p->octCenter);
    int32_t t = (int32_t)((uint32_t)pred[1] - (uint32_t)p->octCenter);
    int inDiamond = mani_DrInDiamond(p, s, t);
    if (!inDiamond) mani_DrInvertDiamond(p, &s, &t);
    int canonical = p->transform == 3;
    int bottomLeft = 1;
    int32_t rot = 0;
    if (canonical) {
        bottomLeft = (s == 0 && t == 0) || (s < 0 && t <= 0);
        if (s == 0)
            rot = t == 0 ? 0 : (t > 0 ? 3 : 1);
        else if (s > 0)
            rot = t >= 0 ? 2 : 1;
        else
            rot = t <= 0 ? 0 : 3;
        if (!bottomLeft) mani_DrRotate(&s, &t, rot);
    }
    int32_t os = mani_DrModMax(p, (int32_t)((uint32_t)s + (uint32_t)corr[0]));
    int32_t ot = mani_DrModMax(p, (int32_t)((uint32_t)t + (uint32_t)corr[1]));
    if (canonical && !bottomLeft) mani_DrRotate(&os, &ot, (4 - rot) % 4);
    if (!inDiamond) mani_DrInvertDiamond(p, &os, &ot);
    out[0] = (int32_t)((uint32_t)os + (uint32_t)p->octCenter);
    out[1] = (int32_t)((uint32_t)ot + (uint32_t)p->octCenter);
}

static void mani_DrOrig(const mani_DrPred* p, const int32_t* pred, const int32_t* corr, int32_t* out, uint32_t nc) {
    if (p->transform == 1)
        mani_DrWrapOrig(p, pred, corr, out, nc);
    else
        mani_DrOctOrig(p, pred, corr, out);
}

static int mani_DrParallelogram(const mani_DrPred* p, int32_t entry, int32_t ci, const int32_t* data, uint32_t nc,
                                int32_t* out) {
    int32_t oci = mani_DrTO(&p->t, ci);
    if (oci < 0) return 0;
    int32_t vo = mani_DrTV(&p->t, oci), vn = mani_DrTV(&p->t, mani_DrNext(oci)), vp = mani_DrTV(&p->t, mani_DrPrev(oci));
    if (vo < 0 || vn < 0 || vp < 0) return 0;
    int32_t eo = p->enc->vertexToValue[vo], en = p->enc->vertexToValue[vn], ep = p->enc->vertexToValue[vp];
    if (eo < entry && en < entry && ep < entry && eo >= 0 && en >= 0 && ep >= 0) {
        for (uint32_t c = 0; c < nc; c++) {
            int64_t r = ((int64_t)data[(size_t)en * nc + c] + data[(size_t)ep * nc + c]) - data[(size_t)eo * nc + c];
            out[c] = (int32_t)(uint32_t)(uint64_t)r;
        }
        return 1;
    }
    return 0;
}

static uint64_t mani_DrIntSqrt(uint64_t n) {
    if (n == 0) return 0;
    uint64_t act = n, r = 1;
    while (act >= 2) {
        r *= 2;
        act /= 4;
    }
    do {
        r = (r + n / r) / 2;
    } while (r * r > n);
    return r;
}

/* |x|, INT64_MIN kept as it is (no overflow). */
static int64_t mani_DrAbs64(int64_t x) { return x < 0 ? (int64_t)(0u - (uint64_t)x) : x; }

/* The position (as integers) of an entry of the predicted attribute. */
static inline int mani_DrPosOfEntry(const mani_DrPred* p, int32_t entry, int64_t* pos) {
    if (entry < 0 || (uint32_t)entry >= p->a->numValues) return 0;
    const uint32_t first = p->entryPosition[entry];
    if (first == MANI_DR_NO_POSITION) return 0;
    for (int32_t c = 0; c < 3; c++) pos[c] = c < p->posComponents ? p->pos->portable[(size_t)first + (size_t)c] : 0;
    return 1;
}

/* Fills entryPosition: an entry's point (past the points: none) and that
 * point's position value. */
static int mani_DrEntryPositions(mani_DrPred* p) {
    const uint32_t n = p->a->numValues;
    p->entryPosition = (uint32_t*)mani_DrAlloc(p->d, (size_t)n + 1u, sizeof(uint32_t));
    if (p->entryPosition == NULL) return 0;
    for (uint32_t e = 0; e < n; e++) {
        const uint32_t point = p->points[e];
        p->entryPosition[e] = point >= p->d->numPoints
                                  ? MANI_DR_NO_POSITION
                                  : p->pos->pointToValue[point] * (uint32_t)p->posComponents;
    }
    return 1;
}

static int mani_DrTexPredict(mani_DrPred* p, int32_t ci, const int32_t* data, int32_t entry, int32_t* pred) {
    int32_t nci = mani_DrNext(ci), pci = mani_DrPrev(ci);
    int32_t nv = mani_DrTV(&p->t, nci), pv = mani_DrTV(&p->t, pci);
    if (nv < 0 || pv < 0) return mani_DrFail(p->d, 0);
    int32_t nd = p->enc->vertexToValue[nv], pd = p->enc->vertexToValue[pv];
    if (pd < entry && nd < entry && pd >= 0 && nd >= 0) {
        int64_t nuv[2] = {data[nd * 2], data[nd * 2 + 1]}, puv[2] = {data[pd * 2], data[pd * 2 + 1]};
        if (nuv[0] == puv[0] && nuv[1] == puv[1]) {
            pred[0] = (int32_t)puv[0];
            pred[1] = (int32_t)puv[1];
            return 1;
        }
        int64_t tip[3], np[3], pp[3];
        if (!mani_DrPosOfEntry(p, entry, tip) || !mani_DrPosOfEntry(p, nd, np) || !mani_DrPosOfEntry(p, pd, pp))
            return mani_DrFail(p->d, 0);
        int64_t pn[3], cn[3];
        uint64_t pn2 = 0;
        for (int c = 0; c < 3; c++) {
            pn[c] = pp[c] - np[c];
            cn[c] = tip[c] - np[c];
            pn2 += (uint64_t)pn[c] * (uint64_t)pn[c]; /* wraps (as unsigned) only for streams out of range */
        }
        if (pn2 > (uint64_t)INT64_MAX) return mani_DrFail(p->d, 0); /* positions out of any quantization */
        if (pn2 != 0) {
            int64_t dot = (int64_t)((uint64_t)pn[0] * (uint64_t)cn[0] + (uint64_t)pn[1] * (uint64_t)cn[1] +
                                    (uint64_t)pn[2] * (uint64_t)cn[2]);
            int64_t pnuv[2] = {puv[0] - nuv[0], puv[1] - nuv[1]};
            int64_t nmax = mani_DrAbs64(nuv[0]) > mani_DrAbs64(nuv[1]) ? mani_DrAbs64(nuv[0]) : mani_DrAbs64(nuv[1]);
            if (nmax > INT64_MAX / (int64_t)pn2) return mani_DrFail(p->d, 0);
            int64_t pnmax = mani_DrAbs64(pnuv[0]) > mani_DrAbs64(pnuv[1]) ? mani_DrAbs64(pnuv[0]) : mani_DrAbs64(pnuv[1]);
            if (pnmax != 0 && mani_DrAbs64(dot) > INT64_MAX / pnmax) return mani_DrFail(p->d, 0);
            int64_t xuv[2] = {(int64_t)((uint64_t)(nuv[0] * (int64_t)pn2) + (uint64_t)(dot * pnuv[0])),
                              (int64_t)((uint64_t)(nuv[1] * (int64_t)pn2) + (uint64_t)(dot * pnuv[1]))};
            int64_t pmax = mani_DrAbs64(pn[0]);
            if (mani_DrAbs64(pn[1]) > pmax) pmax = mani_DrAbs64(pn[1]);
            if (mani_DrAbs64(pn[2]) > pmax) pmax = mani_DrAbs64(pn[2]);
            if (pmax != 0 && mani_DrAbs64(dot) > INT64_MAX / pmax) return mani_DrFail(p->d, 0);
            uint64_t cx2 = 0;
            for (int c = 0; c < 3; c++) {
                int64_t xp = np[c] + (dot * pn[c]) / (int64_t)pn2;
                int64_t dd = tip[c] - xp;
                cx2 += (uint64_t)dd * (uint64_t)dd;
            }
            int64_t cxuv[2] = {pnuv[1], -pnuv[0]};
            uint64_t norm = mani_DrIntSqrt(cx2 * pn2);
            cxuv[0] = (int64_t)((uint64_t)cxuv[0] * norm);
            cxuv[1] = (int64_t)((uint64_t)cxuv[1] * norm);
            if (p->orientationCount == 0) return mani_DrFail(p->d, 0);
            int orient = p->orientations[--p->orientationCount];
            int64_t r0, r1;
            if (orient) {
                r0 = (int64_t)((uint64_t)xuv[0] + (uint64_t)cxuv[0]);
                r1 = (int64_t)((uint64_t)xuv[1] + (uint64_t)cxuv[1]);
            } else {
                r0 = (int64_t)((uint64_t)xuv[0] - (uint64_t)cxuv[0]);
                r1 = (int64_t)((uint64_t)xuv[1] - (uint64_t)cxuv[1]);
            }
            pred[0] = (int32_t)(r0 / (int64_t)pn2);
            pred[1] = (int32_t)(r1 / (int64_t)pn2);
            return 1;
        }
    }
    int32_t off = 0;
    if (pd < entry && pd >= 0) off = pd * 2;
    if (nd < entry && nd >= 0) {
        off = nd * 2;
    } else if (entry > 0) {
        off = (entry - 1) * 2;
    } else {
        pred[0] = pred[1] = 0;
        return 1;
    }
    pred[0] = data[off];
    pred[1] = data[off + 1];
    return 1;
}

/* Octahedral coordinates of the normal predicted at corner ci. */
static int mani_DrNormalPredict(mani_DrPred* p, int32_t ci, int32_t* oct) {
    int64_t cent[3], nrm[3] = {0, 0, 0};
    int32_t v = mani_DrTV(&p->t, ci);
    if (v < 0 || !mani_DrPosOfEntry(p, p->enc->vertexToValue[v], cent)) return mani_DrFail(p->d, 0);
    int32_t c = ci;
    int left = 1;
    uint32_t guard = 0;
    while (c != MANI_DR_NONE) {
        int64_t np[3], pp[3];
        int32_t vn = mani_DrTV(&p->t, mani_DrNext(c)), vp = mani_DrTV(&p->t, mani_DrPrev(c));
        if (vn < 0 || vp < 0 || !mani_DrPosOfEntry(p, p->enc->vertexToValue[vn], np) ||
            !mani_DrPosOfEntry(p, p->enc->vertexToValue[vp], pp))
            return mani_DrFail(p->d, 0);
        int64_t dn[3], dp[3];
        for (int k = 0; k < 3; k++) {
            dn[k] = np[k] - cent[k];
            dp[k] = pp[k] - cent[k];
        }
        uint64_t cr[3];
        cr[0] = (uint64_t)dn[1] * (uint64_t)dp[2] - (uint64_t)dn[2] * (uint64_t)dp[1];
        cr[1] = (uint64_t)dn[2] * (uint64_t)dp[0] - (uint64_t)dn[0] * (uint64_t)dp[2];
        cr[2] = (uint64_t)dn[0] * (uint64_t)dp[1] - (uint64_t)dn[1] * (uint64_t)dp[0];
        for (int k = 0; k < 3; k++) nrm[k] = (int64_t)((uint64_t)nrm[k] + cr[k]);
        if (++guard > p->d->numFaces * 3u + 1u) return mani_DrFail(p->d, 0);
        if (left) {
            c = mani_DrSwingLeft(&p->t, c);
            if (c == MANI_DR_NONE) {
                left = 0;
                c = mani_DrSwingRight(&p->t, ci);
            } else if (c == ci) {
                c = MANI_DR_NONE;
            }
        } else {
            c = mani_DrSwingRight(&p->t, c);
        }
    }
    const int64_t upper = 1 << 29;
    uint64_t absSum = (uint64_t)mani_DrAbs64(nrm[0]) + (uint64_t)mani_DrAbs64(nrm[1]) + (uint64_t)mani_DrAbs64(nrm[2]);
    if ((int64_t)absSum > upper) {
        int64_t q = (int64_t)absSum / upper;
        for (int k = 0; k < 3; k++) nrm[k] /= q;
    }
    int32_t vec[3] = {(int32_t)nrm[0], (int32_t)nrm[1], (int32_t)nrm[2]};
    /* Canonicalize to |x|+|y|+|z| = center. */
    int64_t sum = (int64_t)mani_DrAbs(vec[0]) + mani_DrAbs(vec[1]) + mani_DrAbs(vec[2]);
    const int32_t center = p->octCenter, maxv = p->octMaxValue;
    if (sum == 0) {
        vec[0] = center;
    } else {
        vec[0] = (int32_t)(((int64_t)vec[0] * center) / sum);
        vec[1] = (int32_t)(((int64_t)vec[1] * center) / sum);
        if (vec[2] >= 0)
            vec[2] = center - mani_DrAbs(vec[0]) - mani_DrAbs(vec[1]);
        else
            vec[2] = -(center - mani_DrAbs(vec[0]) - mani_DrAbs(vec[1]));
    }
    if (p->flips.buf == NULL) return mani_DrFail(p->d, 0);
    if (mani_DrRabsBit(&p->flips))
        for (int k = 0; k < 3; k++) vec[k] = -vec[k];
    int32_t s, t;
    if (vec[0] >= 0) {
        s = vec[1] + center;
        t = vec[2] + center;
    } else {
        s = vec[1] < 0 ? mani_DrAbs(vec[2]) : maxv - mani_DrAbs(vec[2]);
        t = vec[2] < 0 ? mani_DrAbs(vec[1]) : maxv - mani_DrAbs(vec[1]);
    }
    if ((s == 0 && t == 0) || (s == 0 && t == maxv) || (s == maxv && t == 0)) {
        s = maxv;
        t = maxv;
    } else if (s == 0 && t > center) {
        t = center - (t - center);
    } else if (s == maxv && t < center) {
        t = center + (center - t);
    } else if (t == maxv && s < center) {
        s = center + (center - s);
    } else if (t == 0 && s > center) {
        s = center - (s - center);
    }
    oct[0] = s;
    oct[1] = t;
    return 1;
}

static int mani_DrSetOctBits(mani_DrPred* p, int32_t maxQuantized, size_t at) {
    if (maxQuantized <= 0 || (maxQuantized & 1) == 0) return mani_DrFail(p->d, at);
    int32_t q = 0;
    while ((maxQuantized >> q) != 0) q++;
    if (q < 2 || q > 30) return mani_DrFail(p->d, at);
    p->octMax = (int32_t)((1u << q) - 1u);
    p->octMaxValue = p->octMax - 1;
    p->octCenter = p->octMaxValue / 2;
    return 1;
}

/* The prediction data after the corrections. */
static int mani_DrPredData(mani_DrPred* p) {
    mani_Dr* d = p->d;
    if (p->method == 4) {
        for (int i = 0; i < 4; i++) {
            uint32_t n;
            size_t at = d->pos;
            if (!mani_DrVar32(d, &n)) return 0;
            if (n > d->numFaces * 3u) return mani_DrFail(d, at);
            if (n > 0) {
                mani_DrRabs r;
                p->crease[i] = (uint8_t*)mani_DrAlloc(d, n, 1);
                if (p->crease[i] == NULL || !mani_DrRabsStart(d, &r)) return 0;
                for (uint32_t j = 0; j < n; j++) p->crease[i][j] = (uint8_t)mani_DrRabsBit(&r);
                p->creaseCount[i] = n;
            }
        }
    } else if (p->method == 5) {
        uint32_t u;
        size_t at = d->pos;
        if (!mani_DrU32(d, &u)) return 0;
        if ((int32_t)u < 0 || u > d->numFaces * 3u + 1u) return mani_DrFail(d, at);
        p->orientations = (uint8_t*)mani_DrAlloc(d, (size_t)u + 1u, 1);
        if (p->orientations == NULL) return 0;
        p->orientationCount = u;
        mani_DrRabs r; /* started even for no orientations */
        if (!mani_DrRabsStart(d, &r)) return 0;
        int last = 1;
        for (uint32_t i = 0; i < u; i++) {
            if (!mani_DrRabsBit(&r)) last = !last;
            p->orientations[i] = (uint8_t)last;
        }
    }
    /* The transform's data. */
    size_t at = d->pos;
    if (p->transform == 1) {
        uint32_t mn, mx;
        if (!mani_DrU32(d, &mn) || !mani_DrU32(d, &mx)) return 0;
        p->minValue = (int32_t)mn;
        p->maxValue = (int32_t)mx;
        int64_t dif = (int64_t)p->maxValue - p->minValue;
        if (dif < 0 || dif >= 0x7fffffff) return mani_DrFail(d, at);
        p->maxDif = (int32_t)(1 + dif);
    } else {
        uint32_t mq, center;
        if (!mani_DrU32(d, &mq)) return 0;
        if (p->transform == 3 && !mani_DrU32(d, &center)) return 0;
        if (!mani_DrSetOctBits(p, (int32_t)mq, at)) return 0;
    }
    if (p->method == 6) {
        memset(&p->flips, 0, sizeof p->flips);
        if (!mani_DrRabsStart(d, &p->flips)) return 0;
    }
    return 1;
}

static int mani_DrPredict(mani_DrPred* p, const int32_t* corr, int32_t* out, uint32_t count, uint32_t nc) {
    mani_Dr* d = p->d;
    int32_t zero[4] = {0, 0, 0, 0}, pred[4], tmp[4][4];
    if (count == 0) return 1;
    if (p->method == 0 || !mani_DrMeshMethod(p->method)) {
        mani_DrOrig(p, zero, corr, out, nc);
        for (uint32_t i = 1; i < count; i++)
            mani_DrOrig(p, out + (size_t)(i - 1) * nc, corr + (size_t)i * nc, out + (size_t)i * nc, nc);
        return 1;
    }
    const int32_t* v2c = p->enc->valueToCorner;
    if ((uint32_t)p->enc->numValues != count) return mani_DrFail(d, 0);
    if (p->method == 6) {
        for (uint32_t i = 0; i < count; i++) {
            if (!mani_DrNormalPredict(p, v2c[i], pred)) return 0;
            mani_DrOrig(p, pred, corr + (size_t)i * 2, out + (size_t)i * 2, 2);
        }
        return 1;
    }
    if (p->method == 5) {
        if (nc != 2) return mani_DrFail(d, 0);
        for (uint32_t i = 0; i < count; i++) {
            if (!mani_DrTexPredict(p, v2c[i], out, (int32_t)i, pred)) return 0;
            mani_DrOrig(p, pred, corr + (size_t)i * 2, out + (size_t)i * 2, 2);
        }
        return 1;
    }
    mani_DrOrig(p, zero, corr, out, nc);
    uint32_t creasePos[4] = {0, 0, 0, 0};
    for (uint32_t i = 1; i < count; i++) {
        const size_t dst = (size_t)i * nc;
        int32_t start = v2c[i];
        int used = 0;
        int64_t sum[4] = {0, 0, 0, 0};
        if (p->method == 1) {
            used = mani_DrParallelogram(p, (int32_t)i, start, out, nc, pred);
        } else if (p->method == 2) {
            int32_t c = start;
            uint32_t guard = 0;
            int32_t acc[4] = {0, 0, 0, 0};
            while (c != MANI_DR_NONE) {
                if (mani_DrParallelogram(p, (int32_t)i, c, out, nc, tmp[0])) {
                    for (uint32_t k = 0; k < nc; k++) acc[k] = (int32_t)((uint32_t)acc[k] + (uint32_t)tmp[0][k]);
                    used++;
                }
                c = mani_DrSwingRight(&p->t, c);
                if (c == start || ++guard > d->numFaces * 3u) c = MANI_DR_NONE;
            }
            if (used)
                for (uint32_t k = 0; k < nc; k++) pred[k] = acc[k] / used;
        } else if (p->method == 4) {
            int32_t c = start;
            int n = 0, firstPass = 1;
            uint32_t guard = 0;
            while (c != MANI_DR_NONE) {
                if (mani_DrParallelogram(p, (int32_t)i, c, out, nc, tmp[n])) {
                    if (++n == 4) break;
                }
                c = firstPass ? mani_DrSwingLeft(&p->t, c) : mani_DrSwingRight(&p->t, c);
                if (c == start) break;
                if (c == MANI_DR_NONE && firstPass) {
                    firstPass = 0;
                    c = mani_DrSwingRight(&p->t, start);
                }
                if (++guard > d->numFaces * 3u) break;
            }
            int32_t acc[4] = {0, 0, 0, 0};
            for (int k = 0; k < n; k++) {
                int ctx = n - 1;
                uint32_t pos = creasePos[ctx]++;
                if (pos >= p->creaseCount[ctx]) return mani_DrFail(d, 0);
                if (!p->crease[ctx][pos]) {
                    used++;
                    for (uint32_t j = 0; j < nc; j++) acc[j] = (int32_t)((uint32_t)acc[j] + (uint32_t)tmp[k][j]);
                }
            }
            if (used)
                for (uint32_t k = 0; k < nc; k++) pred[k] = acc[k] / used;
        } else {
            return mani_DrFail(d, 0);
        }
        (void)sum;
        if (used)
            mani_DrOrig(p, pred, corr + dst, out + dst, nc);
        else
            mani_DrOrig(p, out + dst - nc, corr + dst, out + dst, nc);
    }
    return 1;
}

/* -- Attributes -------------------------------------------------------------- */

static uint32_t mani_DrTypeSize(uint8_t t) {
    switch (t) {
    case maniDracoInt8:
    case maniDracoUint8:
        return 1;
    case maniDracoInt16:
    case maniDracoUint16:
        return 2;
    case maniDracoInt32:
    case maniDracoUint32:
    case maniDracoFloat32:
        return 4;
    default:
        return 0;
    }
}

/* The integer values of one attribute (integer, quantization, normals). */
static int mani_DrIntegerValues(mani_Dr* d, uint32_t k, mani_DrAttr* a) {
    int8_t method, transform = -1;
    uint8_t b;
    size_t mat = d->pos;
    if (!mani_DrU8(d, &b)) return 0;
    method = (int8_t)b;
    if (method < -2 || method > 6 || method == -1 || method == 3) return mani_DrFail(d, mat);
    size_t tat = d->pos;
    if (method != -2) {
        if (!mani_DrU8(d, &b)) return 0;
        transform = (int8_t)b;
        if (a->decoderType == 3) {
            if (transform != 2 && transform != 3) return mani_DrFail(d, tat);
        } else if (transform != 1) {
            return mani_DrFail(d, tat);
        }
        if (method == 6 && a->decoderType != 3) return mani_DrFail(d, mat);
    }
    a->method = method;
    a->transform = transform;
    const uint32_t nc = a->portableComponents, count = d->decPointCount[k];
    const uint64_t numValues64 = (uint64_t)count * nc;
    if (numValues64 > 0x3fffffffu) return mani_DrFail(d, mat);
    const uint32_t numValues = (uint32_t)numValues64;
    a->numValues = count;
    int32_t* vals = (int32_t*)mani_DrAlloc(d, (size_t)numValues + 1u, sizeof(int32_t));
    if (vals == NULL) return 0;
    uint8_t compressed;
    if (!mani_DrU8(d, &compressed)) return 0;
    if (compressed > 0) {
        if (!mani_DrSymbols(d, numValues, nc, (uint32_t*)vals)) return 0;
    } else {
        uint8_t nb;
        size_t nat = d->pos;
        if (!mani_DrU8(d, &nb)) return 0;
        if (nb < 1 || nb > 4) return mani_DrFail(d, nat);
        if ((uint64_t)numValues * nb > d->n - d->pos) return mani_DrFail(d, d->n);
        for (uint32_t i = 0; i < numValues; i++) {
            uint32_t v = 0;
            for (uint32_t j = 0; j < nb; j++) v |= (uint32_t)d->b[d->pos++] << (8 * j);
            vals[i] = (int32_t)v;
        }
    }
    const int positive = method != -2 && (transform == 2 || transform == 3);
    if (!positive)
        for (uint32_t i = 0; i < numValues; i++) {
            uint32_t u = (uint32_t)vals[i];
            vals[i] = (int32_t)((u >> 1) ^ (0u - (u & 1u)));
        }
    if (method != -2) {
        mani_DrPred p;
        memset(&p, 0, sizeof p);
        p.d = d;
        p.a = a;
        p.method = method;
        p.transform = transform;
        p.points = d->decPoints[k];
        if (mani_DrMeshMethod(method) && d->method == 1) {
            int32_t ad = d->decAttData[k];
            p.t.d = d;
            p.t.att = (ad >= 0 && d->decType[k] == 1) ? &d->attrData[ad].table : NULL;
            p.enc = ad >= 0 ? &d->attrData[ad].enc : &d->posEnc;
        } else {
            p.method = 0; /* no mesh data: the difference */
        }
        if (p.method == 5 || p.method == 6) {
            const mani_DrAttr* pos = NULL;
            for (uint32_t i = 0; i < d->numAttrs; i++)
                if (d->attrs[i].type == maniDracoPosition) {
                    pos = &d->attrs[i];
                    break;
                }
            if (pos == NULL || pos->portable == NULL || pos == a) return mani_DrFail(d, mat);
            p.pos = pos;
            p.posComponents = (int32_t)pos->portableComponents;
            if (p.method == 6 && p.posComponents != 3) return mani_DrFail(d, mat);
        }
        if (p.method == 6 && nc != 2) return mani_DrFail(d, mat);
        if ((transform == 2 || transform == 3) && nc != 2) return mani_DrFail(d, mat);
        if (nc > 4) return mani_DrFail(d, mat);
        size_t pat = d->pos;
        if (!mani_DrPredData(&p)) return 0;
        if ((p.method == 5 || p.method == 6) && !mani_DrEntryPositions(&p)) return 0;
        /* Values out of the octahedral square are refused before use. */
        int32_t* out = (int32_t*)mani_DrAlloc(d, (size_t)numValues + 1u, sizeof(int32_t));
        if (out == NULL) return 0;
        if (!mani_DrPredict(&p, vals, out, count, nc)) {
            if (d->status == maniDracoRefused && d->errOff == 0) d->errOff = pat;
            return 0;
        }
        vals = out;
    }
    a->portable = vals;
    return 1;
}

static int mani_DrDecodeGroup(mani_Dr* d, uint32_t k) {
    if (!mani_DrSequence(d, k)) return 0;
    const uint32_t first = d->decFirst[k], count = d->decCount[k];
    for (uint32_t i = first; i < first + count; i++)
        if (!mani_DrMapPoints(d, k, &d->attrs[i])) return 0;
    /* The portable values. */
    for (uint32_t i = first; i < first + count; i++) {
        mani_DrAttr* a = &d->attrs[i];
        const uint32_t es = mani_DrTypeSize(a->dataType) * a->components;
        if (a->decoderType == 0) {
            const uint32_t n = d->decPointCount[k];
            const uint8_t* p;
            if ((uint64_t)n * es > d->n - d->pos) return mani_DrFail(d, d->n);
            if (!mani_DrBytes(d, (size_t)n * es, &p)) return 0;
            a->values = (uint8_t*)mani_DrAlloc(d, (size_t)n * es + 1u, 1);
            if (a->values == NULL) return 0;
            memcpy(a->values, p, (size_t)n * es);
            a->numValues = n;
        } else {
            if (!mani_DrIntegerValues(d, k, a)) return 0;
        }
    }
    /* The transforms' data. */
    for (uint32_t i = first; i < first + count; i++) {
        mani_DrAttr* a = &d->attrs[i];
        size_t at = d->pos;
        if (a->decoderType == 2) {
            for (uint32_t c = 0; c < a->components; c++)
                if (!mani_DrF32(d, &a->minValues[c])) return 0;
            if (!mani_DrF32(d, &a->range)) return 0;
            at = d->pos;
            if (!mani_DrU8(d, &a->bits)) return 0;
            if (a->bits < 1 || a->bits > 30) return mani_DrFail(d, at);
        } else if (a->decoderType == 3) {
            if (!mani_DrU8(d, &a->bits)) return 0;
            if (a->bits < 2 || a->bits > 30) return mani_DrFail(d, at);
        }
    }
    /* The values. */
    for (uint32_t i = first; i < first + count; i++) {
        mani_DrAttr* a = &d->attrs[i];
        const uint32_t n = a->numValues, nc = a->components;
        if (a->decoderType == 0) continue;
        const uint32_t es = mani_DrTypeSize(a->dataType) * nc;
        a->values = (uint8_t*)mani_DrAlloc(d, (size_t)n * es + 1u, 1);
        if (a->values == NULL) return 0;
        if (a->decoderType == 1) {
            for (uint32_t j = 0; j < n * nc; j++) {
                int32_t v = a->portable[j];
                uint8_t* o = a->values + (size_t)j * mani_DrTypeSize(a->dataType);
                switch (a->dataType) {
                case maniDracoInt8:
                case maniDracoUint8:
                    o[0] = (uint8_t)v;
                    break;
                case maniDracoInt16:
                case maniDracoUint16: {
                    uint16_t h = (uint16_t)v;
                    memcpy(o, &h, 2);
                    break;
                }
                case maniDracoFloat32: {
                    float f = (float)v;
                    memcpy(o, &f, 4);
                    break;
                }
                default:
                    memcpy(o, &v, 4);
                    break;
                }
            }
        } else if (a->decoderType == 2) {
            const uint32_t maxq = (1u << a->bits) - 1u;
            const float delta = a->range / (float)maxq;
            float* o = (float*)a->values;
            for (uint32_t j = 0; j < n; j++)
                for (uint32_t c = 0; c < nc; c++) {
                    float v = (float)a->portable[(size_t)j * nc + c] * delta;
                    o[(size_t)j * nc + c] = v + a->minValues[c];
                }
        } else {
            const int32_t maxq = (int32_t)((1u << a->bits) - 1u), maxv = maxq - 1;
            const float scale = 2.0f / (float)maxv;
            float* o = (float*)a->values;
            for (uint32_t j = 0; j < n; j++) {
                float y = (float)a->portable[(size_t)j * 2] * scale - 1.0f;
                float z = (float)a->portable[(size_t)j * 2 + 1] * scale - 1.0f;
                const float x = 1.0f - fabsf(y) - fabsf(z);
                float xo = -x;
                xo = xo < 0 ? 0 : xo;
                y += y < 0 ? xo : -xo;
                z += z < 0 ? xo : -xo;
                const float n2 = x * x + y * y + z * z;
                if (n2 < 1e-6f) {
                    o[j * 3] = o[j * 3 + 1] = o[j * 3 + 2] = 0.0f;
                } else {
                    const float dd = 1.0f / sqrtf(n2);
                    o[j * 3] = x * dd;
                    o[j * 3 + 1] = y * dd;
                    o[j * 3 + 2] = z * dd;
                }
            }
        }
    }
    return 1;
}

static int mani_DrAttributes(mani_Dr* d) {
    uint8_t nd;
    size_t at = d->pos;
    if (!mani_DrU8(d, &nd)) return 0;
    if (nd > MANI_DR_MAX_DECODERS) return mani_DrFail(d, at);
    d->numDecoders = nd;
    int posDecoder = -1;
    for (uint32_t k = 0; k < nd; k++) {
        d->decAttData[k] = -1;
        d->decType[k] = 0;
        d->decTraversal[k] = 0;
        if (d->method == 1) {
            uint8_t id, type, trav;
            size_t iat = d->pos;
            if (!mani_DrU8(d, &id)) return 0;
            size_t tat = d->pos;
            if (!mani_DrU8(d, &type)) return 0;
            size_t vat = d->pos;
            if (!mani_DrU8(d, &trav)) return 0;
            int8_t sid = (int8_t)id;
            if (sid >= 0) {
                if ((uint32_t)sid >= d->numAttrData || d->attrData[sid].decoderId >= 0) return mani_DrFail(d, iat);
                d->attrData[sid].decoderId = (int32_t)k;
            } else {
                if (posDecoder >= 0) return mani_DrFail(d, iat);
                posDecoder = (int)k;
            }
            if (type > 1) return mani_DrFail(d, tat);
            if (trav > 1) return mani_DrFail(d, vat);
            if (type == 1 && (trav != 0 || sid < 0)) return mani_DrFail(d, type == 1 && sid < 0 ? iat : vat);
            d->decAttData[k] = sid;
            d->decType[k] = type;
            d->decTraversal[k] = trav;
        }
    }
    for (uint32_t k = 0; k < nd; k++) {
        uint32_t na;
        size_t nat = d->pos;
        if (!mani_DrVar32(d, &na)) return 0;
        if (na == 0 || na > MANI_DRACO_MAX_ATTRIBUTES - d->numAttrs) return mani_DrFail(d, nat);
        d->decFirst[k] = d->numAttrs;
        d->decCount[k] = na;
        for (uint32_t i = 0; i < na; i++) {
            mani_DrAttr* a = &d->attrs[d->numAttrs++];
            size_t aat = d->pos;
            if (!mani_DrU8(d, &a->type)) return 0;
            size_t dat = d->pos;
            if (!mani_DrU8(d, &a->dataType)) return 0;
            size_t cat = d->pos;
            if (!mani_DrU8(d, &a->components)) return 0;
            if (!mani_DrU8(d, &a->normalized)) return 0;
            if (!mani_DrVar32(d, &a->uniqueId)) return 0;
            if (a->type > 8) return mani_DrFail(d, aat);
            if (mani_DrTypeSize(a->dataType) == 0) return mani_DrFail(d, dat);
            if (a->components == 0 || a->components > 4) return mani_DrFail(d, cat);
            a->decoderIndex = (int32_t)k;
        }
        for (uint32_t i = 0; i < na; i++) {
            mani_DrAttr* a = &d->attrs[d->decFirst[k] + i];
            size_t tat = d->pos;
            if (!mani_DrU8(d, &a->decoderType)) return 0;
            if (a->decoderType > 3) return mani_DrFail(d, tat);
            if ((a->decoderType == 2 || a->decoderType == 3) && a->dataType != maniDracoFloat32)
                return mani_DrFail(d, tat);
            if (a->decoderType == 3 && a->components != 3) return mani_DrFail(d, tat);
            a->portableComponents = a->decoderType == 3 ? 2u : a->components;
        }
    }
    for (uint32_t k = 0; k < nd; k++)
        if (!mani_DrDecodeGroup(d, k)) return 0;
    return 1;
}

/* -- Entry points ------------------------------------------------------------ */

static void mani_DrReleaseBlocks(const maniDracoAllocator* al, mani_DrBlock* b) {
    while (b != NULL) {
        mani_DrBlock* next = b->next;
        al->release(al->ctx, b, b->size);
        b = next;
    }
}

maniDracoStatus maniDracoDecode(const uint8_t* src, size_t size, const maniDracoAllocator* allocator,
                                maniDracoMesh* out, size_t* errorOffset) {
    if ((src == NULL && size > 0) || out == NULL) return maniDracoInvalid;
    if (allocator != NULL && (allocator->alloc == NULL || allocator->release == NULL)) return maniDracoInvalid;
    mani_Dr* d;
    maniDracoAllocator al;
    if (allocator != NULL) {
        al = *allocator;
    } else {
        al.alloc = mani_DrLibAlloc;
        al.release = mani_DrLibRelease;
        al.ctx = NULL;
    }
    /* The decoder's state from the allocator too. */
    mani_DrBlock* self = (mani_DrBlock*)al.alloc(al.ctx, sizeof(mani_DrBlock) + sizeof(mani_Dr));
    if (self == NULL) return maniDracoNoMemory;
    self->next = NULL;
    self->size = sizeof(mani_DrBlock) + sizeof(mani_Dr);
    d = (mani_Dr*)(void*)(self + 1);
    memset(d, 0, sizeof *d);
    d->b = src;
    d->n = size;
    d->al = al;
    const uint8_t* magic;
    int ok = 0;
    do {
        if (!mani_DrBytes(d, 5, &magic)) break;
        if (memcmp(magic, "DRACO", 5) != 0) {
            size_t i = 0;
            while (magic[i] == (uint8_t)"DRACO"[i]) i++;
            mani_DrFail(d, i);
            break;
        }
        size_t at = d->pos;
        if (!mani_DrU8(d, &d->major) || !mani_DrU8(d, &d->minor)) break;
        if (d->major != 2) {
            mani_DrFail(d, at);
            break;
        }
        if (d->minor != 2) {
            mani_DrFail(d, at + 1);
            break;
        }
        at = d->pos;
        if (!mani_DrU8(d, &d->encoderType)) break;
        if (d->encoderType != 1) {
            mani_DrFail(d, at);
            break;
        }
        at = d->pos;
        if (!mani_DrU8(d, &d->method)) break;
        if (d->method > 1) {
            mani_DrFail(d, at);
            break;
        }
        const uint8_t* fl;
        at = d->pos;
        if (!mani_DrBytes(d, 2, &fl)) break;
        uint16_t flags = (uint16_t)(fl[0] | (fl[1] << 8));
        if ((flags & ~0x8000u) != 0) {
            mani_DrFail(d, (flags & 0xffu) ? at : at + 1);
            break;
        }
        if ((flags & 0x8000u) && !mani_DrMetadata(d)) break;
        if (d->method == 0 ? !mani_DrSequential(d) : !mani_DrEdgebreaker(d)) break;
        if (!mani_DrAttributes(d)) break;
        ok = 1;
    } while (0);
    if (!ok || d->status != 0) {
        maniDracoStatus st = d->status == maniDracoNoMemory ? maniDracoNoMemory : maniDracoRefused;
        if (st == maniDracoRefused && errorOffset != NULL) *errorOffset = d->errOff;
        mani_DrReleaseBlocks(&al, d->blocks);
        al.release(al.ctx, self, self->size);
        return st;
    }
    maniDracoMesh m;
    memset(&m, 0, sizeof m);
    m.pointCount = d->numPoints;
    m.faceCount = d->numFaces;
    m.faces = d->faces;
    m.attributeCount = d->numAttrs;
    m.versionMajor = d->major;
    m.versionMinor = d->minor;
    m.method = d->method;
    m.traversal = d->traversal;
    for (uint32_t i = 0; i < d->numAttrs; i++) {
        const mani_DrAttr* a = &d->attrs[i];
        maniDracoAttribute* o = &m.attributes[i];
        o->uniqueId = a->uniqueId;
        o->type = a->type;
        o->dataType = a->dataType;
        o->components = a->components;
        o->normalized = a->normalized;
        o->valueCount = a->numValues;
        o->elementSize = mani_DrTypeSize(a->dataType) * a->components;
        o->values = a->values;
        o->pointToValue = a->pointToValue;
    }
    /* The state block joins the list and is released last with the rest. */
    self->next = d->blocks;
    m.blocks = self;
    m.allocator = al;
    *out = m;
    return maniDracoOk;
}

void maniDracoRelease(maniDracoMesh* mesh) {
    if (mesh == NULL || mesh->blocks == NULL) return;
    mani_DrBlock* self = (mani_DrBlock*)mesh->blocks;
    maniDracoAllocator al = mesh->allocator;
    mani_DrReleaseBlocks(&al, self->next);
    al.release(al.ctx, self, self->size);
    memset(mesh, 0, sizeof *mesh);
}

const maniDracoAttribute* maniDracoFindAttribute(const maniDracoMesh* mesh, uint32_t uniqueId) {
    if (mesh == NULL) return NULL;
    for (uint32_t i = 0; i < mesh->attributeCount; i++)
        if (mesh->attributes[i].uniqueId == uniqueId) return &mesh->attributes[i];
    return NULL;
}
