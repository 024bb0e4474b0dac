/* import.h: the models (maniFbx_GetModelCount), their bone names
 * (maniFbx_GetModelBoneName, name#index for a missing or repeated name) and
 * the renamed list, read as part of maniOpenFbx. */
#include <string.h>

#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "lib/core/hash.h"

static maniImportResult mani_FbxModelsResult(maniResult result) {
    maniImportResult r;
    r.result = result;
    r.reason = maniImportReasonNone;
    r.item = 0;
    r.offset = 0;
    return r;
}

/* A model's name without its class: the first string property, cut at
 * binary's "\0\1" separator (name first) or after ASCII's "Class::". */
static void mani_FbxModelName(const maniFbx* f, uint32_t node, const char** text, uint32_t* length) {
    *text = NULL;
    *length = 0;
    for (uint32_t k = 0; k < f->nodes[node].propCount; k++) {
        uint32_t n;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, node, k), &n);
        if (s == NULL) continue;
        for (uint32_t i = 0; i + 1 < n; i++)
            if (s[i] == 0 && s[i + 1] == 1) {
                *text = s;
                *length = i;
                return;
            }
        for (uint32_t i = 0; i + 1 < n; i++)
            if (s[i] == ':' && s[i + 1] == ':') {
                *text = s + i + 2;
                *length = n - i - 2;
                return;
            }
        *text = s;
        *length = n;
        return;
    }
}

static uint64_t mani_FbxNameSlot(const char* text, uint32_t length, uint32_t mask) {
    return mcore_Hash64(0x46425831u, text, length) & mask;
}

/* Whether a bone name is taken by an earlier model (in the table). */
static int mani_FbxTaken(const maniFbx* f, const uint32_t* table, uint32_t mask, const char* text, uint32_t length) {
    for (uint64_t s = mani_FbxNameSlot(text, length, mask);; s = (s + 1) & mask) {
        uint32_t o = table[s];
        if (o == MANI_FBX_NONE) return 0;
        const mani_FbxModel* m = &f->models[o];
        if (m->boneNameLength == length && memcmp(m->boneName, text, length) == 0) return 1;
    }
}

/* Counts (and with models, records) the Model records under a parent
 * (MANI_FBX_NONE: the top level, the legacy layout), after at earlier ones. */
static uint32_t mani_FbxGatherModels(const maniFbx* f, uint32_t parent, mani_FbxModel* models, uint32_t at) {
    for (uint32_t c = mani_FbxFind(f, parent, "Model"); c != MANI_FBX_NONE; c = mani_FbxFindNext(f, c)) {
        if (models != NULL) models[at].node = c;
        at++;
    }
    return at;
}

maniImportResult mani_FbxReadModels(maniFbx* f) {
    uint32_t objects = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
    uint32_t count = objects != MANI_FBX_NONE ? mani_FbxGatherModels(f, objects, NULL, 0) : 0;
    count = mani_FbxGatherModels(f, MANI_FBX_NONE, NULL, count);
    if (count == 0) return mani_FbxModelsResult(mani_success);
    f->models = (mani_FbxModel*)mani_FbxAlloc(f, (size_t)count * sizeof(mani_FbxModel));
    if (f->models == NULL) return mani_FbxModelsResult(mani_errorCapacity);
    uint32_t at = objects != MANI_FBX_NONE ? mani_FbxGatherModels(f, objects, f->models, 0) : 0;
    (void)mani_FbxGatherModels(f, MANI_FBX_NONE, f->models, at);
    uint32_t slots = 16;
    while (slots < count * 2u) slots *= 2u;
    uint32_t* table = (uint32_t*)mani_FbxAlloc(f, (size_t)slots * sizeof(uint32_t));
    f->renamed = (uint32_t*)mani_FbxAlloc(f, (size_t)count * sizeof(uint32_t));
    if (table == NULL || f->renamed == NULL) return mani_FbxModelsResult(mani_errorCapacity);
    memset(table, 0xFF, (size_t)slots * sizeof(uint32_t));
    uint32_t mask = slots - 1u;
    for (uint32_t i = 0; i < count; i++) {
        mani_FbxModel* m = &f->models[i];
        mani_FbxModelName(f, m->node, &m->name, &m->nameLength);
        const char* text = m->name != NULL ? m->name : "";
        uint32_t length = m->nameLength;
        while (length == 0 || mani_FbxTaken(f, table, mask, text, length)) {
            /* text#i, again until no earlier model has it */
            char digits[10];
            uint32_t d = 0, v = i;
            do {
                digits[d++] = (char)('0' + v % 10u);
                v /= 10u;
            } while (v != 0);
            if ((uint64_t)length + 1u + d > 0xFFFFFFFFu) return mani_FbxModelsResult(mani_errorCapacity);
            char* made = (char*)mani_FbxAlloc(f, (size_t)length + 1u + d);
            if (made == NULL) return mani_FbxModelsResult(mani_errorCapacity);
            memcpy(made, text, length);
            made[length] = '#';
            for (uint32_t k = 0; k < d; k++) made[length + 1u + k] = digits[d - 1u - k];
            text = made;
            length += 1u + d;
            m->renamed = 1;
        }
        m->boneName = text;
        m->boneNameLength = length;
        uint64_t s = mani_FbxNameSlot(text, length, mask);
        while (table[s] != MANI_FBX_NONE) s = (s + 1) & mask;
        table[s] = i;
        if (m->renamed) f->renamed[f->renamedCount++] = i;
    }
    f->modelCount = count;
    return mani_FbxModelsResult(mani_success);
}

uint32_t maniFbx_GetModelCount(const maniFbx* f) { return f == NULL || f->closing ? 0 : f->modelCount; }

const char* maniFbx_GetModelBoneName(const maniFbx* f, uint32_t model, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = 0;
    if (f == NULL || f->closing || model >= f->modelCount) return NULL;
    if (lengthOut != NULL) *lengthOut = f->models[model].boneNameLength;
    return f->models[model].boneName;
}

uint32_t maniFbx_GetRenamedCount(const maniFbx* f) { return f == NULL || f->closing ? 0 : f->renamedCount; }

uint32_t maniFbx_GetRenamedModel(const maniFbx* f, uint32_t index) {
    if (f == NULL || f->closing || index >= f->renamedCount) return UINT32_MAX;
    return f->renamed[index];
}

/* -- Skins --------------------------------------------------------------------------------- */

/* Whether a string property is the NUL-terminated text. */
static int mani_FbxStringIs(const maniFbx* f, const mani_FbxProp* p, const char* text) {
    uint32_t n;
    const char* s = mani_FbxPropString(f, p, &n);
    return s != NULL && n == strlen(text) && memcmp(s, text, n) == 0;
}

/* Whether two string properties hold the same bytes. */
static int mani_FbxSameString(const maniFbx* f, const mani_FbxProp* a, const mani_FbxProp* b) {
    uint32_t n, m;
    const char* s = mani_FbxPropString(f, a, &n);
    const char* t = mani_FbxPropString(f, b, &m);
    return s != NULL && t != NULL && n == m && memcmp(s, t, n) == 0;
}

/* The first string property of a record (6.x's "Class::Name"). */
static const mani_FbxProp* mani_FbxFirstString(const maniFbx* f, uint32_t node) {
    for (uint32_t k = 0; k < f->nodes[node].propCount; k++) {
        const mani_FbxProp* p = mani_FbxGetProp(f, node, k);
        if (p->type == 'S') return p;
    }
    return NULL;
}

/* 7.x: whether an object of the kind (an Objects record name) has the id. */
static int mani_FbxObjectIs(const maniFbx* f, const char* kind, int64_t id) {
    uint32_t objects = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
    for (uint32_t o = mani_FbxFind(f, objects, kind); o != MANI_FBX_NONE; o = mani_FbxFindNext(f, o)) {
        int64_t v;
        if (mani_FbxPropInt(f, mani_FbxGetProp(f, o, 0), &v) && v == id) return 1;
    }
    return 0;
}

static uint32_t mani_FbxModelById(const maniFbx* f, int64_t id) {
    for (uint32_t m = 0; m < f->modelCount; m++) {
        int64_t v;
        if (mani_FbxPropInt(f, mani_FbxGetProp(f, f->models[m].node, 0), &v) && v == id) return m;
    }
    return MANI_FBX_NONE;
}

static uint32_t mani_FbxSkinModelOf(const maniFbx* f, uint32_t node) {
    if (f->version >= 7000) {
        /* the first Geometry the skin is connected to, then that geometry's first model */
        int64_t skin;
        if (!mani_FbxPropInt(f, mani_FbxGetProp(f, node, 0), &skin)) return MANI_FBX_NONE;
        uint32_t c = mani_FbxFind(f, MANI_FBX_NONE, "Connections");
        for (uint32_t k = mani_FbxFind(f, c, "C"); c != MANI_FBX_NONE && k != MANI_FBX_NONE; k = mani_FbxFindNext(f, k)) {
            int64_t a, geometry;
            if (!mani_FbxStringIs(f, mani_FbxGetProp(f, k, 0), "OO")) continue;
            if (!mani_FbxPropInt(f, mani_FbxGetProp(f, k, 1), &a) || a != skin) continue;
            if (!mani_FbxPropInt(f, mani_FbxGetProp(f, k, 2), &geometry) || !mani_FbxObjectIs(f, "Geometry", geometry))
                continue;
            for (uint32_t j = mani_FbxFind(f, c, "C"); j != MANI_FBX_NONE; j = mani_FbxFindNext(f, j)) {
                int64_t g, model;
                if (!mani_FbxStringIs(f, mani_FbxGetProp(f, j, 0), "OO")) continue;
                if (!mani_FbxPropInt(f, mani_FbxGetProp(f, j, 1), &g) || g != geometry) continue;
                if (!mani_FbxPropInt(f, mani_FbxGetProp(f, j, 2), &model)) continue;
                uint32_t m = mani_FbxModelById(f, model);
                if (m != MANI_FBX_NONE) return m;
            }
            return MANI_FBX_NONE;
        }
        return MANI_FBX_NONE;
    }
    const mani_FbxProp* name = mani_FbxFirstString(f, node);
    uint32_t c = mani_FbxFind(f, MANI_FBX_NONE, "Connections");
    for (uint32_t k = mani_FbxFind(f, c, "Connect"); c != MANI_FBX_NONE && k != MANI_FBX_NONE; k = mani_FbxFindNext(f, k)) {
        if (!mani_FbxStringIs(f, mani_FbxGetProp(f, k, 0), "OO")) continue;
        if (!mani_FbxSameString(f, mani_FbxGetProp(f, k, 1), name)) continue;
        const mani_FbxProp* parent = mani_FbxGetProp(f, k, 2);
        for (uint32_t m = 0; m < f->modelCount; m++)
            if (mani_FbxSameString(f, mani_FbxFirstString(f, f->models[m].node), parent)) return m;
    }
    return MANI_FBX_NONE;
}

static uint32_t mani_FbxSkinMethodOf(const maniFbx* f, uint32_t node) {
    const mani_FbxProp* type = mani_FbxGetProp(f, mani_FbxFind(f, node, "SkinningType"), 0);
    if (mani_FbxStringIs(f, type, "DualQuaternion")) return (uint32_t)maniSkinningDualQuaternion;
    if (mani_FbxStringIs(f, type, "Blend")) return (uint32_t)maniSkinningBlended;
    uint32_t weights = mani_FbxFind(f, node, "BlendWeights");
    if (weights != MANI_FBX_NONE && mani_FbxArrayCount(f, weights) > 0) return (uint32_t)maniSkinningBlended;
    return (uint32_t)maniSkinningLinear;
}

/* Whether a record is a Deformer of subclass Skin (its last string "Skin"). */
static int mani_FbxIsSkin(const maniFbx* f, uint32_t node) {
    const mani_FbxProp* last = NULL;
    for (uint32_t k = 0; k < f->nodes[node].propCount; k++) {
        const mani_FbxProp* p = mani_FbxGetProp(f, node, k);
        if (p->type == 'S') last = p;
    }
    return mani_FbxStringIs(f, last, "Skin");
}

/* The legacy layout's skins (FBX 5 and older): a top-level mesh Model
 * holding Link records, one a bone (its name, Indexes, Weights, Transform,
 * TransformLink), with no Deformer objects. */
static int mani_FbxIsLegacySkin(const maniFbx* f, uint32_t model) {
    const uint32_t node = f->models[model].node;
    return f->nodes[node].parent == MANI_FBX_NONE && mani_FbxFind(f, node, "Link") != MANI_FBX_NONE;
}

maniImportResult mani_FbxReadSkins(maniFbx* f) {
    uint32_t objects = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
    uint32_t count = 0;
    if (objects != MANI_FBX_NONE)
        for (uint32_t d = mani_FbxFind(f, objects, "Deformer"); d != MANI_FBX_NONE; d = mani_FbxFindNext(f, d))
            count += (uint32_t)mani_FbxIsSkin(f, d);
    for (uint32_t m = 0; m < f->modelCount; m++) count += (uint32_t)mani_FbxIsLegacySkin(f, m);
    if (count == 0) return mani_FbxModelsResult(mani_success);
    f->skins = (mani_FbxSkin*)mani_FbxAlloc(f, (size_t)count * sizeof(mani_FbxSkin));
    if (f->skins == NULL) return mani_FbxModelsResult(mani_errorCapacity);
    uint32_t at = 0;
    if (objects != MANI_FBX_NONE)
        for (uint32_t d = mani_FbxFind(f, objects, "Deformer"); d != MANI_FBX_NONE; d = mani_FbxFindNext(f, d)) {
            if (!mani_FbxIsSkin(f, d)) continue;
            mani_FbxSkin* s = &f->skins[at++];
            s->node = d;
            s->model = mani_FbxSkinModelOf(f, d);
            s->method = mani_FbxSkinMethodOf(f, d);
            s->legacy = 0;
        }
    for (uint32_t m = 0; m < f->modelCount; m++) {
        if (!mani_FbxIsLegacySkin(f, m)) continue;
        mani_FbxSkin* s = &f->skins[at++];
        s->node = f->models[m].node;
        s->model = m;
        s->method = (uint32_t)maniSkinningLinear;
        s->legacy = 1;
    }
    f->skinCount = count;
    return mani_FbxModelsResult(mani_success);
}

uint32_t maniFbx_GetSkinCount(const maniFbx* f) { return f == NULL || f->closing ? 0 : f->skinCount; }

uint32_t maniFbx_GetSkinModel(const maniFbx* f, uint32_t skin) {
    if (f == NULL || f->closing || skin >= f->skinCount || f->skins[skin].model == MANI_FBX_NONE) return UINT32_MAX;
    return f->skins[skin].model;
}

maniSkinningMethod maniFbx_GetSkinMethod(const maniFbx* f, uint32_t skin) {
    if (f == NULL || f->closing || skin >= f->skinCount) return maniSkinningLinear;
    return (maniSkinningMethod)f->skins[skin].method;
}
