/* import.h: maniFbx_GetVersion, maniFbx_ReadSettings, and the record
 * readers of fbx_internal.h: finding records, converting numbers (only when
 * asked) and decoding arrays, deflated ones through zlib into the caller's
 * memory, never past the size their header gives. */
#include <string.h>
#include <zlib.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "lib/core/json/json.h"

/* -- Records ------------------------------------------------------------------------------ */

static int mani_FbxNameIs(const maniFbx* f, uint32_t node, const char* name) {
    size_t n = strlen(name);
    const mani_FbxNode* k = &f->nodes[node];
    return k->nameLength == n && memcmp(f->bytes + k->nameOffset, name, n) == 0;
}

uint32_t mani_FbxFind(const maniFbx* f, uint32_t node, const char* name) {
    if (f == NULL || f->closing || name == NULL) return MANI_FBX_NONE;
    uint32_t c = node == MANI_FBX_NONE ? f->firstTop : (node < f->nodeCount ? f->nodes[node].firstChild : MANI_FBX_NONE);
    for (; c != MANI_FBX_NONE; c = f->nodes[c].next)
        if (mani_FbxNameIs(f, c, name)) return c;
    return MANI_FBX_NONE;
}

uint32_t mani_FbxFindNext(const maniFbx* f, uint32_t node) {
    if (f == NULL || f->closing || node >= f->nodeCount) return MANI_FBX_NONE;
    const mani_FbxNode* k = &f->nodes[node];
    for (uint32_t c = k->next; c != MANI_FBX_NONE; c = f->nodes[c].next) {
        const mani_FbxNode* o = &f->nodes[c];
        if (o->nameLength == k->nameLength && memcmp(f->bytes + o->nameOffset, f->bytes + k->nameOffset, k->nameLength) == 0)
            return c;
    }
    return MANI_FBX_NONE;
}

const mani_FbxProp* mani_FbxGetProp(const maniFbx* f, uint32_t node, uint32_t index) {
    if (f == NULL || f->closing || node >= f->nodeCount || index >= f->nodes[node].propCount) return NULL;
    return &f->props[f->nodes[node].firstProp + index];
}

/* -- Numbers ------------------------------------------------------------------------------- */

uint64_t mani_FbxLoad(const maniFbx* f, uint64_t at, unsigned bytes) {
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++) {
        unsigned k = f->bigEndian ? i : bytes - 1 - i;
        v = (v << 8) | f->bytes[at + k];
    }
    return v;
}

static double mani_FbxBitsToDouble(uint64_t bits) {
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static double mani_FbxFloatBits(uint32_t bits) {
    float x;
    memcpy(&x, &bits, 4);
    return (double)x;
}

#define MANI_FBX_INF 0x7FF0000000000000ull
#define MANI_FBX_NAN 0x7FF8000000000000ull
#define MANI_FBX_SIGN 0x8000000000000000ull

/* An ASCII number's text to binary64: decimal through the project's
 * correctly rounded reader (after taking out what JSON's grammar lacks: a
 * '+', leading zeros, a bare '.'), infinities and NaNs by their words. */
static int mani_FbxTextDouble(const uint8_t* s, uint64_t n, double* out) {
    if (!mani_FbxIsNumberText(s, n)) return 0;
    uint64_t i = 0;
    int negative = 0;
    if (s[0] == '+' || s[0] == '-') negative = s[i++] == '-';
    uint64_t sign = negative ? MANI_FBX_SIGN : 0;
    uint8_t c = s[i];
    if (c == 'i' || c == 'I') {
        *out = mani_FbxBitsToDouble(MANI_FBX_INF | sign);
        return 1;
    }
    if (c == 'n' || c == 'N') {
        *out = mani_FbxBitsToDouble(MANI_FBX_NAN | sign);
        return 1;
    }
    for (uint64_t k = i; k < n; k++)
        if (s[k] == '#') { /* 1.#INF or a NaN form */
            uint8_t w = s[k + 1];
            *out = mani_FbxBitsToDouble(((w == 'i' || w == 'I') && (s[k + 3] == 'f' || s[k + 3] == 'F') ? MANI_FBX_INF
                                                                                                         : MANI_FBX_NAN) |
                                        sign);
            return 1;
        }
    char buf[400];
    size_t m = 0;
    if (n + 3 > sizeof buf) return 0;
    if (negative) buf[m++] = '-';
    while (i + 1 < n && s[i] == '0' && mani_FbxIsNumberText(s + i + 1, 1)) i++; /* leading zeros, one kept */
    if (s[i] == '.') buf[m++] = '0';
    for (; i < n; i++) {
        if (s[i] == '.' && (i + 1 == n || !(s[i + 1] >= '0' && s[i + 1] <= '9'))) continue; /* "1." */
        buf[m++] = (char)s[i];
    }
    double d;
    mcore_JsonReason r = mcore_JsonParseDouble(buf, m, &d);
    if (r == mcore_jsonRange) d = mani_FbxBitsToDouble(MANI_FBX_INF | sign);
    else if (r != mcore_jsonOk) return 0;
    *out = d;
    return 1;
}

int mani_FbxPropDouble(const maniFbx* f, const mani_FbxProp* p, double* out) {
    if (f == NULL || p == NULL || out == NULL) return 0;
    const uint8_t* b = f->bytes + p->offset;
    switch (p->type) {
        case 'C': *out = b[0] ? 1.0 : 0.0; return 1;
        case 'Y': *out = (double)(int16_t)(uint16_t)mani_FbxLoad(f, p->offset, 2); return 1;
        case 'I': *out = (double)(int32_t)(uint32_t)mani_FbxLoad(f, p->offset, 4); return 1;
        case 'L': *out = (double)(int64_t)mani_FbxLoad(f, p->offset, 8); return 1;
        case 'F': *out = mani_FbxFloatBits((uint32_t)mani_FbxLoad(f, p->offset, 4)); return 1;
        case 'D': *out = mani_FbxBitsToDouble(mani_FbxLoad(f, p->offset, 8)); return 1;
        case MANI_FBX_ASCII_WORD:
            if (b[0] == 'T' || b[0] == 'Y') *out = 1.0;
            else if (b[0] == 'F' || b[0] == 'N') *out = 0.0;
            else return 0;
            return 1;
        case MANI_FBX_ASCII_NUMBER: return mani_FbxTextDouble(b, p->length, out);
        default: return 0;
    }
}

int mani_FbxPropInt(const maniFbx* f, const mani_FbxProp* p, int64_t* out) {
    if (f == NULL || p == NULL || out == NULL) return 0;
    if (p->type == 'L') {
        *out = (int64_t)mani_FbxLoad(f, p->offset, 8);
        return 1;
    }
    if (p->type == MANI_FBX_ASCII_NUMBER) {
        int64_t v;
        if (mcore_JsonParseInt64((const char*)f->bytes + p->offset, (size_t)p->length, &v) == mcore_jsonOk) {
            *out = v;
            return 1;
        }
    }
    double d;
    if (!mani_FbxPropDouble(f, p, &d)) return 0;
    if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return 0; /* NaN too */
    *out = (int64_t)d;
    return 1;
}

const char* mani_FbxPropString(const maniFbx* f, const mani_FbxProp* p, uint32_t* lengthOut) {
    if (f == NULL || p == NULL || (p->type != 'S' && p->type != 'R')) return NULL;
    if (lengthOut != NULL) *lengthOut = (uint32_t)p->length;
    return (const char*)f->bytes + p->offset;
}

/* -- Arrays -------------------------------------------------------------------------------- */

static int mani_FbxIsArray(uint8_t type) {
    return type == 'b' || type == 'i' || type == 'l' || type == 'f' || type == 'd';
}

static int mani_FbxIsScalar(uint8_t type) {
    return type == 'C' || type == 'Y' || type == 'I' || type == 'L' || type == 'F' || type == 'D' ||
           type == MANI_FBX_ASCII_NUMBER;
}

/* Whether a record's values are all numbers (6.x and older write arrays so). */
static int mani_FbxIsScalarList(const maniFbx* f, uint32_t node) {
    const mani_FbxNode* k = &f->nodes[node];
    if (k->propCount == 0) return 0;
    for (uint32_t i = 0; i < k->propCount; i++)
        if (!mani_FbxIsScalar(f->props[k->firstProp + i].type)) return 0;
    return 1;
}

uint32_t mani_FbxArrayCount(const maniFbx* f, uint32_t node) {
    const mani_FbxProp* p = mani_FbxGetProp(f, node, 0);
    if (p == NULL) return 0;
    if (mani_FbxIsArray(p->type)) return p->count;
    if (mani_FbxIsScalar(p->type)) return mani_FbxIsScalarList(f, node) ? f->nodes[node].propCount : 0;
    if (p->type != MANI_FBX_ASCII_ARRAY) return 0;
    uint32_t a = mani_FbxFind(f, node, "a");
    return a == MANI_FBX_NONE ? 0 : f->nodes[a].propCount;
}

static maniImportResult mani_FbxArrayResult(maniResult result, uint32_t reason, uint64_t offset) {
    maniImportResult r;
    r.result = result;
    r.reason = reason;
    r.item = 0;
    r.offset = offset;
    return r;
}

/* zlib's state, through the builder's allocator (a size word before each block). */
static voidpf mani_FbxZAlloc(voidpf user, uInt items, uInt size) {
    uint64_t n = (uint64_t)items * size;
    if (n == 0 || n > (uint64_t)SIZE_MAX - 16u) return Z_NULL;
    uint8_t* p = (uint8_t*)mani_BuilderAlloc((maniBuilder*)user, (size_t)n + 16u, 16);
    if (p == NULL) return Z_NULL;
    memcpy(p, &n, sizeof n);
    return p + 16;
}

static void mani_FbxZFree(voidpf user, voidpf address) {
    if (address == NULL) return;
    uint8_t* p = (uint8_t*)address - 16;
    uint64_t n;
    memcpy(&n, p, sizeof n);
    mani_BuilderFree((maniBuilder*)user, p, (size_t)n + 16u);
}

/* Inflates exactly want bytes into out; anything else is Data. */
static maniImportResult mani_FbxInflate(const maniFbx* f, const mani_FbxProp* p, uint8_t* out, uint64_t want) {
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = mani_FbxZAlloc;
    z.zfree = mani_FbxZFree;
    z.opaque = f->builder;
    if (inflateInit(&z) != Z_OK) return mani_FbxArrayResult(mani_errorCapacity, maniImportReasonNone, 0);
    z.next_in = (Bytef*)(uintptr_t)(f->bytes + p->offset);
    z.avail_in = (uInt)p->length;
    z.next_out = out;
    z.avail_out = (uInt)want;
    int rc = inflate(&z, Z_FINISH);
    uint64_t made = z.total_out;
    inflateEnd(&z);
    if (rc == Z_MEM_ERROR) return mani_FbxArrayResult(mani_errorCapacity, maniImportReasonNone, 0);
    if (rc != Z_STREAM_END || made != want) return mani_FbxArrayResult(mani_errorFormat, maniImportReasonData, p->offset);
    return mani_FbxArrayResult(mani_success, maniImportReasonNone, 0);
}

maniImportResult mani_FbxReadArray(const maniFbx* f, uint32_t node, double* out, uint32_t count) {
    const mani_FbxProp* p = mani_FbxGetProp(f, node, 0);
    if (p == NULL || out == NULL || count == 0 || count != mani_FbxArrayCount(f, node))
        return mani_FbxArrayResult(mani_errorInvalid, maniImportReasonNone, 0);
    if (mani_FbxIsScalar(p->type)) { /* a list of numbers */
        for (uint32_t i = 0; i < count; i++) {
            const mani_FbxProp* v = &f->props[f->nodes[node].firstProp + i];
            if (!mani_FbxPropDouble(f, v, &out[i]))
                return mani_FbxArrayResult(mani_errorFormat, maniImportReasonData, v->offset);
        }
        return mani_FbxArrayResult(mani_success, maniImportReasonNone, 0);
    }
    if (p->type == MANI_FBX_ASCII_ARRAY) {
        uint32_t a = mani_FbxFind(f, node, "a");
        for (uint32_t i = 0; i < count; i++) {
            const mani_FbxProp* v = &f->props[f->nodes[a].firstProp + i];
            if (!mani_FbxPropDouble(f, v, &out[i]))
                return mani_FbxArrayResult(mani_errorFormat, maniImportReasonData, v->offset);
        }
        return mani_FbxArrayResult(mani_success, maniImportReasonNone, 0);
    }
    unsigned element = p->type == 'b' ? 1u : (p->type == 'i' || p->type == 'f') ? 4u : 8u;
    uint64_t want = (uint64_t)count * element;
    const uint8_t* src = f->bytes + p->offset;
    maniFbx view = *f;
    if (p->encoding == 1) {
        /* inflated into the caller's memory (count * 8 bytes hold count * element), then widened */
        maniImportResult r = mani_FbxInflate(f, p, (uint8_t*)out, want);
        if (r.result != mani_success) return r;
        view.bytes = (const uint8_t*)out;
        src = view.bytes;
    }
    /* widen from the back so an inflated array is read before it is overwritten */
    for (uint32_t k = count; k-- > 0;) {
        uint64_t at = (uint64_t)(src - view.bytes) + (uint64_t)k * element;
        double d;
        switch (p->type) {
            case 'b': d = view.bytes[at] ? 1.0 : 0.0; break;
            case 'i': d = (double)(int32_t)(uint32_t)mani_FbxLoad(&view, at, 4); break;
            case 'l': d = (double)(int64_t)mani_FbxLoad(&view, at, 8); break;
            case 'f': d = mani_FbxFloatBits((uint32_t)mani_FbxLoad(&view, at, 4)); break;
            default: d = mani_FbxBitsToDouble(mani_FbxLoad(&view, at, 8)); break;
        }
        out[k] = d;
    }
    return mani_FbxArrayResult(mani_success, maniImportReasonNone, 0);
}

/* -- Queries ------------------------------------------------------------------------------- */

uint32_t maniFbx_GetVersion(const maniFbx* f) { return f == NULL || f->closing ? 0 : f->version; }

/* A property of a Properties70 / Properties60 block by name: its value, the
 * property after the name, type, label and flags (P) or name, type and
 * flags (Property). */
uint32_t mani_FbxFindSetting(const maniFbx* f, uint32_t block, const char* name, uint32_t* valueAt) {
    if (f == NULL || f->closing || block >= f->nodeCount) return MANI_FBX_NONE;
    int seventy = mani_FbxNameIs(f, block, "Properties70");
    const char* key = seventy ? "P" : "Property";
    size_t n = strlen(name);
    for (uint32_t c = mani_FbxFind(f, block, key); c != MANI_FBX_NONE; c = mani_FbxFindNext(f, c)) {
        uint32_t length;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, c, 0), &length);
        if (s != NULL && length == n && memcmp(s, name, n) == 0) {
            if (valueAt != NULL) *valueAt = seventy ? 4u : 3u;
            return c;
        }
    }
    return MANI_FBX_NONE;
}

uint32_t mani_FbxPropertiesOf(const maniFbx* f, uint32_t node) {
    uint32_t p = mani_FbxFind(f, node, "Properties70");
    return p != MANI_FBX_NONE ? p : mani_FbxFind(f, node, "Properties60");
}

/* A property of a Properties70 / Properties60 block by name: its value, the
 * property after the name, type, label and flags (P) or name, type and
 * flags (Property). */
static const mani_FbxProp* mani_FbxSetting(const maniFbx* f, uint32_t block, const char* name) {
    uint32_t at = 0;
    uint32_t c = mani_FbxFindSetting(f, block, name, &at);
    return c == MANI_FBX_NONE ? NULL : mani_FbxGetProp(f, c, at);
}

static uint32_t mani_FbxSettingsBlock(const maniFbx* f) {
    uint32_t g = mani_FbxFind(f, MANI_FBX_NONE, "GlobalSettings");
    if (g == MANI_FBX_NONE) g = mani_FbxFind(f, mani_FbxFind(f, MANI_FBX_NONE, "Objects"), "GlobalSettings");
    if (g == MANI_FBX_NONE) return MANI_FBX_NONE;
    return mani_FbxPropertiesOf(f, g);
}

/* An axis setting (index 0..2, sign +-1) as a maniAxis; 0 when absent or out of range. */
static int mani_FbxAxis(const maniFbx* f, uint32_t block, const char* axis, const char* sign, uint32_t* out) {
    int64_t a, s;
    if (!mani_FbxPropInt(f, mani_FbxSetting(f, block, axis), &a) || a < 0 || a > 2) return 0;
    if (!mani_FbxPropInt(f, mani_FbxSetting(f, block, sign), &s) || (s != 1 && s != -1)) return 0;
    *out = (uint32_t)(a * 2 + (s < 0 ? 1 : 0));
    return 1;
}

/* FBX's TimeMode rates (FbxTime::EMode), 0 for the default and custom ones. */
static const double mani_fbxTimeModeRates[19] = {
    0.0,  120.0, 100.0, 60.0, 50.0, 48.0,   30.0, 30.0, 30000.0 / 1001.0, 30000.0 / 1001.0,
    25.0, 24.0, 1000.0, 24000.0 / 1001.0, 0.0, 96.0, 72.0, 60000.0 / 1001.0, 120000.0 / 1001.0};

maniResult maniFbx_ReadSettings(const maniFbx* f, maniFbxSettings* out) {
    if (f == NULL || f->closing || out == NULL) return mani_errorInvalid;
    maniFbxSettings s;
    s.right = (uint32_t)maniAxisPositiveX;
    s.up = (uint32_t)maniAxisPositiveY;
    s.front = (uint32_t)maniAxisPositiveZ;
    s.unitMetres = 0.01f;
    s.frameRate = 30.0f;
    s.timeMode = 0;
    s.fromFile = 0;
    uint32_t block = mani_FbxSettingsBlock(f);
    uint32_t r, u, fr;
    if (mani_FbxAxis(f, block, "CoordAxis", "CoordAxisSign", &r) && mani_FbxAxis(f, block, "UpAxis", "UpAxisSign", &u) &&
        mani_FbxAxis(f, block, "FrontAxis", "FrontAxisSign", &fr) && r / 2 != u / 2 && r / 2 != fr / 2 &&
        u / 2 != fr / 2) {
        s.right = r;
        s.up = u;
        s.front = fr;
        s.fromFile |= MANI_FBX_SETTINGS_AXES;
    }
    double unit;
    if (mani_FbxPropDouble(f, mani_FbxSetting(f, block, "UnitScaleFactor"), &unit) && unit > 0.0 &&
        unit < 1e300) {
        s.unitMetres = (float)(unit / 100.0);
        if (s.unitMetres > 0.0f && s.unitMetres < 3.4e38f) s.fromFile |= MANI_FBX_SETTINGS_UNIT;
        else s.unitMetres = 0.01f;
    }
    int64_t mode;
    if (mani_FbxPropInt(f, mani_FbxSetting(f, block, "TimeMode"), &mode) && mode >= 0 && mode <= 18) {
        s.timeMode = (uint32_t)mode;
        double rate = mani_fbxTimeModeRates[mode];
        if (mode == 14) {
            double custom;
            if (mani_FbxPropDouble(f, mani_FbxSetting(f, block, "CustomFrameRate"), &custom) && custom > 0.0 &&
                custom < 1e30 && (float)custom > 0.0f) /* a rate that rounds to 0 as binary32 is refused too */
                rate = custom;
        }
        if (rate > 0.0) {
            s.frameRate = (float)rate;
            s.fromFile |= MANI_FBX_SETTINGS_FRAME_RATE;
        }
    }
    *out = s;
    return mani_success;
}
