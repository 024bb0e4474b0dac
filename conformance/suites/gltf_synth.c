/* Suite "gltf", its synthetic documents (gltf.h): a seeded skinned character
 * written as glTF JSON with one data: buffer, through lib/core's JSON writer.
 * The layout: node 0 "Armature" (a translation, above the skeleton), bones
 * 1..B in a seeded tree under it (some unnamed, two named "dup" so renaming
 * runs), node B+1 the skinned mesh (skin 0, mesh 0). Skin 0: every bone,
 * inverse binds seeded or left out. Mesh 0: one primitive of V vertices,
 * POSITION, NORMAL, JOINTS_0/WEIGHTS_0 (and JOINTS_1/WEIGHTS_1 on some seeds)
 * in seeded component types (unsigned byte and short joints; float,
 * normalized byte and short weights), up to 3 morph targets (POSITION and
 * NORMAL deltas; extras.targetNames on some seeds). Animation 0: translation,
 * rotation and scale channels on seeded bones, each STEP, LINEAR or
 * CUBICSPLINE with seeded key times, a weights channel on the mesh node and a
 * KHR_animation_pointer channel to a material's roughness. Every number the
 * JSON holds is a binary32 written shortest, so the text is the same
 * everywhere. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/suites/gltf.h"
#include "lib/core/json/json.h"
#include "lib/core/rng.h"

#define MCONF_SYNTH_MAX_ACCESSORS 64

typedef struct mconf_SynthAccessor {
    uint32_t offset, length; /* in the buffer */
    uint32_t componentType, count, normalized;
    const char* type;
    float min, max; /* SCALAR float accessors (key times): written as min and max */
    int hasMinMax;
} mconf_SynthAccessor;

typedef struct mconf_Synth {
    uint8_t* bin;
    size_t size, capacity;
    mconf_SynthAccessor acc[MCONF_SYNTH_MAX_ACCESSORS];
    uint32_t accCount;
    int failed;
} mconf_Synth;

static void mconf_SynthBytes(mconf_Synth* s, const void* data, size_t n) {
    if (s->failed) return;
    if (s->size + n + 4 > s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 4096;
        while (cap < s->size + n + 4) cap *= 2;
        uint8_t* grown = (uint8_t*)realloc(s->bin, cap);
        if (grown == NULL) {
            s->failed = 1;
            return;
        }
        s->bin = grown;
        s->capacity = cap;
    }
    memcpy(s->bin + s->size, data, n);
    s->size += n;
}

/* Starts an accessor at a 4-byte boundary; returns its index. */
static uint32_t mconf_SynthBegin(mconf_Synth* s, uint32_t componentType, const char* type, uint32_t count,
                                 uint32_t normalized) {
    static const uint8_t zeros[4] = {0, 0, 0, 0};
    mconf_SynthBytes(s, zeros, (4 - s->size % 4) % 4);
    if (s->accCount == MCONF_SYNTH_MAX_ACCESSORS) {
        s->failed = 1;
        return 0;
    }
    mconf_SynthAccessor* a = &s->acc[s->accCount];
    memset(a, 0, sizeof *a);
    a->offset = (uint32_t)s->size;
    a->componentType = componentType;
    a->type = type;
    a->count = count;
    a->normalized = normalized;
    return s->accCount++;
}

static void mconf_SynthEnd(mconf_Synth* s, uint32_t a) { s->acc[a].length = (uint32_t)s->size - s->acc[a].offset; }

static void mconf_SynthF32(mconf_Synth* s, float v) { mconf_SynthBytes(s, &v, 4); }

static uint32_t mconf_SynthFloats(mconf_Synth* s, const char* type, const float* v, uint32_t count, uint32_t per) {
    uint32_t a = mconf_SynthBegin(s, 5126, type, count, 0);
    for (uint32_t i = 0; i < count * per; i++) mconf_SynthF32(s, v[i]);
    mconf_SynthEnd(s, a);
    return a;
}

static void mconf_SynthQuat(mcore_Rng* rng, float* q) {
    float n = 0.0f;
    do {
        n = 0.0f;
        for (int k = 0; k < 4; k++) {
            q[k] = mcore_RngFloatRange(rng, -1.0f, 1.0f);
            n += q[k] * q[k];
        }
    } while (n < 0.01f);
    const float inv = 1.0f / sqrtf(n);
    for (int k = 0; k < 4; k++) q[k] *= inv;
}

/* JSON helpers. */
static void mconf_Key(mcore_JsonWriter* w, const char* key) { mcore_JsonWriteKey(w, key, strlen(key)); }
static void mconf_KeyU(mcore_JsonWriter* w, const char* key, uint64_t v) {
    mconf_Key(w, key);
    mcore_JsonWriteUint64(w, v);
}
static void mconf_KeyS(mcore_JsonWriter* w, const char* key, const char* v) {
    mconf_Key(w, key);
    mcore_JsonWriteString(w, v, strlen(v));
}
static void mconf_KeyFloats(mcore_JsonWriter* w, const char* key, const float* v, int n) {
    mconf_Key(w, key);
    mcore_JsonWriteBeginArray(w);
    for (int i = 0; i < n; i++) mcore_JsonWriteFloat(w, v[i]);
    mcore_JsonWriteEndArray(w);
}

static char* mconf_Base64(const uint8_t* in, size_t n, size_t* lengthOut) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char* out = (char*)malloc((n + 2) / 3 * 4 + 1);
    if (out == NULL) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n) v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n) v |= in[i + 2];
        out[o++] = digits[v >> 18 & 63];
        out[o++] = digits[v >> 12 & 63];
        out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? digits[v & 63] : '=';
    }
    out[o] = 0;
    *lengthOut = o;
    return out;
}

char* mconf_GltfSynth(uint64_t seed, uint32_t bones, uint32_t vertices, uint32_t targets, size_t* sizeOut) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    mconf_Synth s;
    memset(&s, 0, sizeof s);
    const uint32_t B = bones < 1 ? 1 : bones, V = vertices < 1 ? 1 : vertices, T = targets > 3 ? 3 : targets;
    const int twoSets = mcore_RngBelow(&rng, 2) == 0, withIbm = mcore_RngBelow(&rng, 4) != 0;
    const int names = T > 0 && mcore_RngBelow(&rng, 2) == 0;
    uint32_t* parent = (uint32_t*)calloc(B + 2, sizeof(uint32_t));
    float* trs = (float*)calloc((size_t)(B + 2) * 10, sizeof(float));
    if (parent == NULL || trs == NULL) {
        free(parent);
        free(trs);
        return NULL;
    }
    for (uint32_t i = 0; i <= B + 1; i++) {
        float* t = &trs[i * 10];
        for (int k = 0; k < 3; k++) t[k] = mcore_RngFloatRange(&rng, -1.0f, 1.0f);
        mconf_SynthQuat(&rng, t + 3);
        for (int k = 7; k < 10; k++) t[k] = mcore_RngFloatRange(&rng, 0.5f, 1.5f);
        parent[i] = i <= 1 || i == B + 1 ? 0 : 1 + mcore_RngBelow(&rng, i - 1);
    }

    /* Inverse binds: a seeded rotation (a matrix of a unit quaternion), scale and translation. */
    uint32_t ibm = UINT32_MAX;
    if (withIbm) {
        ibm = mconf_SynthBegin(&s, 5126, "MAT4", B, 0);
        for (uint32_t j = 0; j < B; j++) {
            float q[4], m[16];
            mconf_SynthQuat(&rng, q);
            const float sc = mcore_RngFloatRange(&rng, 0.5f, 2.0f), x = q[0], y = q[1], z = q[2], w = q[3];
            const float r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                                2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                                2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
            for (int c = 0; c < 3; c++) {
                for (int k = 0; k < 3; k++) m[c * 4 + k] = r[c * 3 + k] * sc;
                m[c * 4 + 3] = 0.0f;
            }
            for (int k = 0; k < 3; k++) m[12 + k] = mcore_RngFloatRange(&rng, -2.0f, 2.0f);
            m[15] = 1.0f;
            for (int k = 0; k < 16; k++) mconf_SynthF32(&s, m[k]);
        }
        mconf_SynthEnd(&s, ibm);
    }

    /* Mesh attributes. */
    float* pos = (float*)malloc((size_t)V * 3 * sizeof(float));
    uint32_t aPos = 0, aNrm = 0, aJ[2] = {0, 0}, aW[2] = {0, 0}, aTp[3] = {0, 0, 0}, aTn[3] = {0, 0, 0};
    if (pos != NULL) {
        for (uint32_t i = 0; i < V * 3; i++) pos[i] = mcore_RngFloatRange(&rng, -1.0f, 1.0f);
        aPos = mconf_SynthFloats(&s, "VEC3", pos, V, 3);
        for (uint32_t i = 0; i < V * 3; i++) pos[i] = mcore_RngFloatRange(&rng, -1.0f, 1.0f);
        aNrm = mconf_SynthFloats(&s, "VEC3", pos, V, 3);
        const uint32_t sets = twoSets ? 2 : 1;
        for (uint32_t set = 0; set < sets; set++) {
            const uint32_t jType = B > 255 || mcore_RngBelow(&rng, 2) ? 5123 : 5121;
            aJ[set] = mconf_SynthBegin(&s, jType, "VEC4", V, 0);
            for (uint32_t v = 0; v < V; v++) {
                const uint32_t base = mcore_RngBelow(&rng, B);
                for (uint32_t k = 0; k < 4; k++) {
                    const uint32_t j = (base + set * 4 + k) % B;
                    if (jType == 5121) {
                        uint8_t b = (uint8_t)j;
                        mconf_SynthBytes(&s, &b, 1);
                    } else {
                        uint16_t h = (uint16_t)j;
                        mconf_SynthBytes(&s, &h, 2);
                    }
                }
            }
            mconf_SynthEnd(&s, aJ[set]);
            const uint32_t wKind = mcore_RngBelow(&rng, 3); /* float, normalized byte, normalized short */
            const uint32_t wType = wKind == 0 ? 5126 : wKind == 1 ? 5121 : 5123;
            aW[set] = mconf_SynthBegin(&s, wType, "VEC4", V, wKind != 0);
            for (uint32_t v = 0; v < V; v++)
                for (uint32_t k = 0; k < 4; k++) {
                    /* A joint repeated (fewer than 8 bones) or a dropped weight gets 0. */
                    const int zero = set * 4 + k >= B || mcore_RngBelow(&rng, 5) == 0;
                    const float f = zero ? 0.0f : mcore_RngFloatRange(&rng, 0.0f, 1.0f);
                    if (wType == 5126) {
                        mconf_SynthF32(&s, f);
                    } else if (wType == 5121) {
                        uint8_t b = (uint8_t)(f * 255.0f);
                        mconf_SynthBytes(&s, &b, 1);
                    } else {
                        uint16_t h = (uint16_t)(f * 65535.0f);
                        mconf_SynthBytes(&s, &h, 2);
                    }
                }
            mconf_SynthEnd(&s, aW[set]);
        }
        for (uint32_t t = 0; t < T; t++) {
            for (uint32_t i = 0; i < V * 3; i++)
                pos[i] = mcore_RngBelow(&rng, 3) == 0 ? 0.0f : mcore_RngFloatRange(&rng, -0.25f, 0.25f);
            aTp[t] = mconf_SynthFloats(&s, "VEC3", pos, V, 3);
            for (uint32_t i = 0; i < V * 3; i++) pos[i] = mcore_RngFloatRange(&rng, -0.1f, 0.1f);
            aTn[t] = mconf_SynthFloats(&s, "VEC3", pos, V, 3);
        }
    }
    free(pos);

    /* Animation channels: each bone's paths with probability 1/2. */
    typedef struct {
        uint32_t node, path, interp, input, output;
    } Ch;
    Ch ch[48];
    uint32_t chCount = 0;
    static const char* const pathNames[5] = {"translation", "rotation", "scale", "weights", "pointer"};
    static const char* const interpNames[3] = {"STEP", "LINEAR", "CUBICSPLINE"};
    for (uint32_t b = 1; b <= B + 1; b++)
        for (uint32_t p = 0; p < 5; p++) {
            const int meshNode = b == B + 1;
            if (meshNode != (p >= 3) || (p == 3 && T == 0) || (p == 4 && b != B + 1)) continue;
            if (p < 3 && mcore_RngBelow(&rng, 2) != 0) continue;
            if (chCount + 1 > 48 || s.accCount + 2 > MCONF_SYNTH_MAX_ACCESSORS) break;
            Ch* c = &ch[chCount++];
            c->node = b;
            c->path = p;
            c->interp = mcore_RngBelow(&rng, 3);
            const uint32_t keys = 1 + mcore_RngBelow(&rng, 12);
            const uint32_t per = p == 0 || p == 2 ? 3 : p == 1 ? 4 : p == 3 ? T : 1;
            const float step = mcore_RngBelow(&rng, 2) ? 1.0f / 30.0f : mcore_RngFloatRange(&rng, 0.01f, 0.2f);
            float t = mcore_RngBelow(&rng, 3) == 0 ? mcore_RngFloatRange(&rng, 0.0f, 0.5f) : 0.0f;
            c->input = mconf_SynthBegin(&s, 5126, "SCALAR", keys, 0);
            s.acc[c->input].hasMinMax = 1;
            s.acc[c->input].min = t;
            for (uint32_t k = 0; k < keys; k++) {
                mconf_SynthF32(&s, t);
                s.acc[c->input].max = t;
                t += step;
            }
            mconf_SynthEnd(&s, c->input);
            const uint32_t parts = c->interp == 2 ? 3 : 1;
            const char* type = p == 3 || p == 4 ? "SCALAR" : per == 3 ? "VEC3" : "VEC4";
            const uint32_t elements = keys * parts * (p == 3 ? T : 1);
            c->output = mconf_SynthBegin(&s, 5126, type, elements, 0);
            for (uint32_t k = 0; k < keys * parts; k++) {
                const int tangent = parts == 3 && k % 3 != 1;
                if (p == 1 && !tangent) {
                    float q[4];
                    mconf_SynthQuat(&rng, q);
                    for (int i = 0; i < 4; i++) mconf_SynthF32(&s, q[i]);
                } else {
                    const float lo = tangent ? -0.5f : p == 2 ? 0.5f : -1.0f, hi = tangent ? 0.5f : p == 2 ? 1.5f : 1.0f;
                    for (uint32_t i = 0; i < per; i++) mconf_SynthF32(&s, mcore_RngFloatRange(&rng, lo, hi));
                }
            }
            mconf_SynthEnd(&s, c->output);
        }

    /* The JSON. */
    size_t b64Length = 0;
    char* b64 = s.failed ? NULL : mconf_Base64(s.bin, s.size, &b64Length);
    char* text = NULL;
    if (b64 != NULL) {
        mcore_JsonWriter w;
        const mcore_JsonAllocator libc = {NULL, NULL, NULL}; /* growable, the C library's */
        mcore_JsonWriterInit(&w, NULL, 0, &libc);
        mcore_JsonWriteBeginObject(&w);
        mconf_Key(&w, "asset");
        mcore_JsonWriteBeginObject(&w);
        mconf_KeyS(&w, "version", "2.0");
        mconf_KeyS(&w, "generator", "Maul conformance suite gltf");
        mcore_JsonWriteEndObject(&w);
        mconf_Key(&w, "extensionsUsed");
        mcore_JsonWriteBeginArray(&w);
        mcore_JsonWriteString(&w, "KHR_animation_pointer", 21);
        mcore_JsonWriteEndArray(&w);
        mconf_KeyU(&w, "scene", 0);
        mconf_Key(&w, "scenes");
        mcore_JsonWriteBeginArray(&w);
        mcore_JsonWriteBeginObject(&w);
        mconf_Key(&w, "nodes");
        mcore_JsonWriteBeginArray(&w);
        mcore_JsonWriteUint64(&w, 0);
        mcore_JsonWriteEndArray(&w);
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndArray(&w);
        mconf_Key(&w, "nodes");
        mcore_JsonWriteBeginArray(&w);
        for (uint32_t i = 0; i <= B + 1; i++) {
            mcore_JsonWriteBeginObject(&w);
            char name[32];
            if (i == 0)
                mconf_KeyS(&w, "name", "Armature");
            else if (i == B + 1)
                mconf_KeyS(&w, "name", "body");
            else if (i % 7 != 3) {
                snprintf(name, sizeof name, i % 5 == 4 ? "dup" : "bone%u", i);
                mconf_KeyS(&w, "name", name);
            }
            uint32_t children = 0;
            for (uint32_t c = 1; c <= B + 1; c++) children += parent[c] == i && c != i;
            if (children) {
                mconf_Key(&w, "children");
                mcore_JsonWriteBeginArray(&w);
                for (uint32_t c = 1; c <= B + 1; c++)
                    if (parent[c] == i && c != i) mcore_JsonWriteUint64(&w, c);
                mcore_JsonWriteEndArray(&w);
            }
            const float* t = &trs[i * 10];
            mconf_KeyFloats(&w, "translation", t, 3);
            if (i != 0) {
                mconf_KeyFloats(&w, "rotation", t + 3, 4);
                mconf_KeyFloats(&w, "scale", t + 7, 3);
            }
            if (i == B + 1) {
                mconf_KeyU(&w, "mesh", 0);
                mconf_KeyU(&w, "skin", 0);
            }
            mcore_JsonWriteEndObject(&w);
        }
        mcore_JsonWriteEndArray(&w);
        mconf_Key(&w, "skins");
        mcore_JsonWriteBeginArray(&w);
        mcore_JsonWriteBeginObject(&w);
        mconf_KeyS(&w, "name", "skin");
        mconf_Key(&w, "joints");
        mcore_JsonWriteBeginArray(&w);
        for (uint32_t j = 1; j <= B; j++) mcore_JsonWriteUint64(&w, j);
        mcore_JsonWriteEndArray(&w);
        if (withIbm) mconf_KeyU(&w, "inverseBindMatrices", ibm);
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndArray(&w);
        mconf_Key(&w, "meshes");
        mcore_JsonWriteBeginArray(&w);
        mcore_JsonWriteBeginObject(&w);
        mconf_KeyS(&w, "name", "body");
        mconf_Key(&w, "primitives");
        mcore_JsonWriteBeginArray(&w);
        mcore_JsonWriteBeginObject(&w);
        mconf_Key(&w, "attributes");
        mcore_JsonWriteBeginObject(&w);
        mconf_KeyU(&w, "POSITION", aPos);
        mconf_KeyU(&w, "NORMAL", aNrm);
        mconf_KeyU(&w, "JOINTS_0", aJ[0]);
        mconf_KeyU(&w, "WEIGHTS_0", aW[0]);
        if (twoSets) {
            mconf_KeyU(&w, "JOINTS_1", aJ[1]);
            mconf_KeyU(&w, "WEIGHTS_1", aW[1]);
        }
        mcore_JsonWriteEndObject(&w);
        if (T > 0) {
            mconf_Key(&w, "targets");
            mcore_JsonWriteBeginArray(&w);
            for (uint32_t t = 0; t < T; t++) {
                mcore_JsonWriteBeginObject(&w);
                mconf_KeyU(&w, "POSITION", aTp[t]);
                mconf_KeyU(&w, "NORMAL", aTn[t]);
                mcore_JsonWriteEndObject(&w);
            }
            mcore_JsonWriteEndArray(&w);
        }
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndArray(&w);
        if (T > 0) {
            const float weights[3] = {0.25f, 0.5f, 0.75f};
            mconf_KeyFloats(&w, "weights", weights, (int)T);
            if (names) {
                static const char* const targetNames[3] = {"smile", "blink", "frown"};
                mconf_Key(&w, "extras");
                mcore_JsonWriteBeginObject(&w);
                mconf_Key(&w, "targetNames");
                mcore_JsonWriteBeginArray(&w);
                for (uint32_t t = 0; t < T; t++) mcore_JsonWriteString(&w, targetNames[t], strlen(targetNames[t]));
                mcore_JsonWriteEndArray(&w);
                mcore_JsonWriteEndObject(&w);
            }
        }
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndArray(&w);
        mconf_Key(&w, "materials");
        mcore_JsonWriteBeginArray(&w);
        mcore_JsonWriteBeginObject(&w);
        mconf_Key(&w, "pbrMetallicRoughness");
        mcore_JsonWriteBeginObject(&w);
        mconf_Key(&w, "roughnessFactor");
        mcore_JsonWriteFloat(&w, 0.5f);
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndArray(&w);
        if (chCount > 0) {
            mconf_Key(&w, "animations");
            mcore_JsonWriteBeginArray(&w);
            mcore_JsonWriteBeginObject(&w);
            char name[32];
            snprintf(name, sizeof name, "anim%llu", (unsigned long long)seed);
            mconf_KeyS(&w, "name", name);
            mconf_Key(&w, "channels");
            mcore_JsonWriteBeginArray(&w);
            for (uint32_t c = 0; c < chCount; c++) {
                mcore_JsonWriteBeginObject(&w);
                mconf_KeyU(&w, "sampler", c);
                mconf_Key(&w, "target");
                mcore_JsonWriteBeginObject(&w);
                if (ch[c].path != 4) mconf_KeyU(&w, "node", ch[c].node);
                mconf_KeyS(&w, "path", pathNames[ch[c].path]);
                if (ch[c].path == 4) {
                    mconf_Key(&w, "extensions");
                    mcore_JsonWriteBeginObject(&w);
                    mconf_Key(&w, "KHR_animation_pointer");
                    mcore_JsonWriteBeginObject(&w);
                    mconf_KeyS(&w, "pointer", "/materials/0/pbrMetallicRoughness/roughnessFactor");
                    mcore_JsonWriteEndObject(&w);
                    mcore_JsonWriteEndObject(&w);
                }
                mcore_JsonWriteEndObject(&w);
                mcore_JsonWriteEndObject(&w);
            }
            mcore_JsonWriteEndArray(&w);
            mconf_Key(&w, "samplers");
            mcore_JsonWriteBeginArray(&w);
            for (uint32_t c = 0; c < chCount; c++) {
                mcore_JsonWriteBeginObject(&w);
                mconf_KeyU(&w, "input", ch[c].input);
                mconf_KeyU(&w, "output", ch[c].output);
                mconf_KeyS(&w, "interpolation", interpNames[ch[c].interp]);
                mcore_JsonWriteEndObject(&w);
            }
            mcore_JsonWriteEndArray(&w);
            mcore_JsonWriteEndObject(&w);
            mcore_JsonWriteEndArray(&w);
        }
        mconf_Key(&w, "accessors");
        mcore_JsonWriteBeginArray(&w);
        for (uint32_t a = 0; a < s.accCount; a++) {
            mcore_JsonWriteBeginObject(&w);
            mconf_KeyU(&w, "bufferView", a);
            mconf_KeyU(&w, "componentType", s.acc[a].componentType);
            if (s.acc[a].normalized) {
                mconf_Key(&w, "normalized");
                mcore_JsonWriteBool(&w, 1);
            }
            mconf_KeyU(&w, "count", s.acc[a].count);
            mconf_KeyS(&w, "type", s.acc[a].type);
            if (s.acc[a].hasMinMax) {
                mconf_KeyFloats(&w, "min", &s.acc[a].min, 1);
                mconf_KeyFloats(&w, "max", &s.acc[a].max, 1);
            }
            mcore_JsonWriteEndObject(&w);
        }
        mcore_JsonWriteEndArray(&w);
        mconf_Key(&w, "bufferViews");
        mcore_JsonWriteBeginArray(&w);
        for (uint32_t a = 0; a < s.accCount; a++) {
            mcore_JsonWriteBeginObject(&w);
            mconf_KeyU(&w, "buffer", 0);
            mconf_KeyU(&w, "byteOffset", s.acc[a].offset);
            mconf_KeyU(&w, "byteLength", s.acc[a].length);
            mcore_JsonWriteEndObject(&w);
        }
        mcore_JsonWriteEndArray(&w);
        mconf_Key(&w, "buffers");
        mcore_JsonWriteBeginArray(&w);
        mcore_JsonWriteBeginObject(&w);
        mconf_KeyU(&w, "byteLength", s.size);
        const char prefix[] = "data:application/octet-stream;base64,";
        char* uri = (char*)malloc(sizeof prefix + b64Length);
        const int uriOk = uri != NULL;
        if (uri != NULL) {
            memcpy(uri, prefix, sizeof prefix - 1);
            memcpy(uri + sizeof prefix - 1, b64, b64Length);
            mconf_Key(&w, "uri");
            mcore_JsonWriteString(&w, uri, sizeof prefix - 1 + b64Length);
            free(uri);
        }
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndArray(&w);
        mcore_JsonWriteEndObject(&w);
        if (uriOk && mcore_JsonWriterFinish(&w) == mcore_jsonOk) {
            text = (char*)malloc(w.length + 1);
            if (text != NULL) {
                memcpy(text, w.buffer, w.length);
                text[w.length] = 0;
                *sizeOut = w.length;
            }
        }
        mcore_JsonWriterRelease(&w);
    }
    free(b64);
    free(s.bin);
    free(parent);
    free(trs);
    return text;
}
