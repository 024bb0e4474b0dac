/* The object graph of an FBX document, read as part of maniOpenFbx
 * (fbx_internal.h, mani_FbxReadGraph): the objects, their object-object
 * connections, each model's parent (a parent cycle refused) and the
 * skeletons import.h's maniFbx_GetSkeletonCount numbers: skins' linked models
 * and limb chains, each closed over their common root, joined where they
 * share a model, numbered by their lowest skin, then chain. */
#include <string.h>

#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "lib/core/hash.h"

static maniImportResult mani_FbxGraphResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset) {
    maniImportResult r;
    r.result = result;
    r.reason = reason;
    r.item = item;
    r.offset = offset;
    return r;
}

static int mani_FbxTextIs(const char* s, uint32_t n, const char* text) {
    return s != NULL && n == strlen(text) && memcmp(s, text, n) == 0;
}

/* -- Object keys --------------------------------------------------------------------------- */

/* An object's key: 7.x its id (the first property) as 8 bytes; before 7.x
 * its first string ("Model::Name"); a legacy top-level Model its name. */
typedef struct mani_FbxKey {
    const char* text;
    uint32_t length;
    uint8_t id[8];
    int valid;
} mani_FbxKey;

static void mani_FbxKeyOfProp(const maniFbx* f, const mani_FbxProp* p, int byId, mani_FbxKey* k) {
    k->valid = 0;
    k->text = NULL;
    k->length = 0;
    if (p == NULL) return;
    if (byId) {
        int64_t v;
        if (p->type == 'S' || !mani_FbxPropInt(f, p, &v)) return;
        for (int i = 0; i < 8; i++) k->id[i] = (uint8_t)((uint64_t)v >> (8 * i));
        k->text = (const char*)k->id;
        k->length = 8;
        k->valid = 1;
        return;
    }
    uint32_t n;
    const char* s = mani_FbxPropString(f, p, &n);
    if (s == NULL) return;
    k->text = s;
    k->length = n;
    k->valid = 1;
}

static void mani_FbxKeyOfObject(const maniFbx* f, uint32_t node, int byId, mani_FbxKey* k) {
    if (byId) {
        mani_FbxKeyOfProp(f, mani_FbxGetProp(f, node, 0), 1, k);
        return;
    }
    k->valid = 0;
    for (uint32_t i = 0; i < f->nodes[node].propCount; i++) {
        const mani_FbxProp* p = mani_FbxGetProp(f, node, i);
        if (p->type == 'S') {
            mani_FbxKeyOfProp(f, p, 0, k);
            return;
        }
    }
}

typedef struct mani_FbxKeyTable {
    uint32_t* slots;
    uint32_t mask;
} mani_FbxKeyTable;

static uint64_t mani_FbxKeySlot(const mani_FbxKey* k, uint32_t mask) {
    return mcore_Hash64(0x46425847u, k->text, k->length) & mask;
}

static int mani_FbxSameKey(const maniFbx* f, uint32_t object, const mani_FbxKey* k, int byId) {
    mani_FbxKey o;
    mani_FbxKeyOfObject(f, f->objects[object], byId, &o);
    return o.valid && o.length == k->length && memcmp(o.text, k->text, k->length) == 0;
}

/* The first object with the key, MANI_FBX_NONE for none. */
static uint32_t mani_FbxLookup(const maniFbx* f, const mani_FbxKeyTable* t, const mani_FbxKey* k, int byId) {
    if (!k->valid) return MANI_FBX_NONE;
    for (uint64_t s = mani_FbxKeySlot(k, t->mask);; s = (s + 1) & t->mask) {
        uint32_t o = t->slots[s];
        if (o == MANI_FBX_NONE) return MANI_FBX_NONE;
        if (mani_FbxSameKey(f, o, k, byId)) return o;
    }
}

/* -- Kinds --------------------------------------------------------------------------------- */

static int mani_FbxNodeNameIs(const maniFbx* f, uint32_t node, const char* name) {
    size_t n = strlen(name);
    return f->nodes[node].nameLength == n && memcmp(f->bytes + f->nodes[node].nameOffset, name, n) == 0;
}

/* Whether a model is a limb node: its last string "LimbNode" or "Limb"
 * (7.x, 6.x), or its Type record says so (the legacy layout). */
static int mani_FbxIsLimb(const maniFbx* f, uint32_t model) {
    uint32_t node = f->models[model].node;
    const char* last = NULL;
    uint32_t lastLength = 0;
    for (uint32_t i = 0; i < f->nodes[node].propCount; i++) {
        uint32_t n;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, node, i), &n);
        if (s != NULL) {
            last = s;
            lastLength = n;
        }
    }
    if (mani_FbxTextIs(last, lastLength, "LimbNode") || mani_FbxTextIs(last, lastLength, "Limb")) return 1;
    uint32_t n;
    const char* type = mani_FbxPropString(f, mani_FbxGetProp(f, mani_FbxFind(f, node, "Type"), 0), &n);
    return mani_FbxTextIs(type, n, "LimbNode") || mani_FbxTextIs(type, n, "Limb");
}

/* -- Reading ------------------------------------------------------------------------------- */

static uint32_t mani_FbxGatherObjects(const maniFbx* f, uint32_t* out) {
    uint32_t count = 0;
    uint32_t objects = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
    if (objects != MANI_FBX_NONE)
        for (uint32_t c = f->nodes[objects].firstChild; c != MANI_FBX_NONE; c = f->nodes[c].next) {
            if (out != NULL) out[count] = c;
            count++;
        }
    for (uint32_t c = mani_FbxFind(f, MANI_FBX_NONE, "Model"); c != MANI_FBX_NONE; c = mani_FbxFindNext(f, c)) {
        if (out != NULL) out[count] = c;
        count++;
    }
    return count;
}

/* Counts (and with out, records) the connections. */
static uint32_t mani_FbxGatherLinks(const maniFbx* f, const mani_FbxKeyTable* t, int byId, mani_FbxLink* out) {
    uint32_t count = 0;
    uint32_t c = mani_FbxFind(f, MANI_FBX_NONE, "Connections");
    if (c != MANI_FBX_NONE)
        for (uint32_t k = f->nodes[c].firstChild; k != MANI_FBX_NONE; k = f->nodes[k].next) {
            if (!mani_FbxNodeNameIs(f, k, byId ? "C" : "Connect")) continue;
            uint32_t n;
            const char* kind = mani_FbxPropString(f, mani_FbxGetProp(f, k, 0), &n);
            if (!mani_FbxTextIs(kind, n, "OO")) continue;
            mani_FbxKey a, b;
            mani_FbxKeyOfProp(f, mani_FbxGetProp(f, k, 1), byId, &a);
            mani_FbxKeyOfProp(f, mani_FbxGetProp(f, k, 2), byId, &b);
            uint32_t child = mani_FbxLookup(f, t, &a, byId), parent = mani_FbxLookup(f, t, &b, byId);
            if (child == MANI_FBX_NONE || parent == MANI_FBX_NONE) continue;
            if (out != NULL) {
                out[count].child = child;
                out[count].parent = parent;
                out[count].node = k;
            }
            count++;
        }
    return count;
}

/* A name without the class an ASCII "Class::name" or a binary
 * "name\0\1Class" carries. */
static const char* mani_FbxBareName(const char* s, uint32_t n, uint32_t* length) {
    for (uint32_t i = 0; i + 1 < n; i++)
        if (s[i] == 0 && s[i + 1] == 1) {
            *length = i;
            return s;
        }
    for (uint32_t i = 0; i + 1 < n; i++)
        if (s[i] == ':' && s[i + 1] == ':') {
            *length = n - i - 2;
            return s + i + 2;
        }
    *length = n;
    return s;
}

/* The legacy layout's "Children" records of top-level models (names, their
 * class left out, matched to the models' names). */
static uint32_t mani_FbxLegacyParents(maniFbx* f, uint32_t* parentNode) {
    uint32_t made = 0;
    for (uint32_t m = 0; m < f->modelCount; m++) {
        uint32_t node = f->models[m].node;
        if (f->nodes[node].parent != MANI_FBX_NONE) continue;
        for (uint32_t c = mani_FbxFind(f, node, "Children"); c != MANI_FBX_NONE; c = mani_FbxFindNext(f, c))
            for (uint32_t i = 0; i < f->nodes[c].propCount; i++) {
                uint32_t n;
                const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, c, i), &n);
                if (s == NULL) continue;
                s = mani_FbxBareName(s, n, &n);
                for (uint32_t k = 0; k < f->modelCount; k++) {
                    const mani_FbxModel* o = &f->models[k];
                    if (k == m || f->nodes[o->node].parent != MANI_FBX_NONE || f->modelParent[k] != MANI_FBX_NONE)
                        continue;
                    if (o->nameLength == n && (n == 0 || memcmp(o->name, s, n) == 0)) {
                        f->modelParent[k] = m;
                        parentNode[k] = c;
                        made++;
                        break;
                    }
                }
            }
    }
    return made;
}

/* -- Skeletons ----------------------------------------------------------------------------- */

/* The model a legacy Link names (its first string, a model's name), MANI_FBX_NONE for none. */
static uint32_t mani_FbxLegacyLinkModel(const maniFbx* f, uint32_t link) {
    uint32_t n;
    const char* name = mani_FbxPropString(f, mani_FbxGetProp(f, link, 0), &n);
    if (name == NULL) return MANI_FBX_NONE;
    name = mani_FbxBareName(name, n, &n);
    if (n == 0) return MANI_FBX_NONE;
    for (uint32_t m = 0; m < f->modelCount; m++)
        if (f->models[m].nameLength == n && memcmp(f->models[m].name, name, n) == 0) return m;
    return MANI_FBX_NONE;
}

uint32_t mani_FbxSkinClusters(const maniFbx* f, uint32_t skin, uint32_t* models, uint32_t* clusters,
                              uint32_t capacity) {
    if (f == NULL || f->closing || skin >= f->skinCount || f->objectModel == NULL) return 0;
    uint32_t skinNode = f->skins[skin].node;
    uint32_t count = 0;
    if (f->skins[skin].legacy) {
        for (uint32_t k = mani_FbxFind(f, skinNode, "Link"); k != MANI_FBX_NONE; k = mani_FbxFindNext(f, k)) {
            if (count < capacity) {
                if (models != NULL) models[count] = mani_FbxLegacyLinkModel(f, k);
                if (clusters != NULL) clusters[count] = k;
            }
            count++;
        }
        return count;
    }
    for (uint32_t l = 0; l < f->linkCount; l++) {
        const mani_FbxLink* k = &f->links[l];
        if (f->objects[k->parent] != skinNode || !mani_FbxNodeNameIs(f, f->objects[k->child], "Deformer")) continue;
        /* a cluster: its first linked model */
        uint32_t joint = f->objectChildModel[k->child];
        if (count < capacity) {
            if (models != NULL) models[count] = joint;
            if (clusters != NULL) clusters[count] = f->objects[k->child];
        }
        count++;
    }
    return count;
}

static uint32_t mani_FbxFindSet(uint32_t* up, uint32_t s) {
    while (up[s] != s) {
        up[s] = up[up[s]];
        s = up[s];
    }
    return s;
}

static void mani_FbxJoin(uint32_t* up, uint32_t a, uint32_t b) {
    a = mani_FbxFindSet(up, a);
    b = mani_FbxFindSet(up, b);
    if (a < b) up[b] = a;
    else if (b < a) up[a] = b;
}

static uint32_t mani_FbxDepth(const maniFbx* f, uint32_t m) {
    uint32_t d = 0;
    while (f->modelParent[m] != MANI_FBX_NONE) {
        m = f->modelParent[m];
        d++;
    }
    return d;
}

static uint32_t mani_FbxTop(const maniFbx* f, uint32_t m) {
    while (f->modelParent[m] != MANI_FBX_NONE) m = f->modelParent[m];
    return m;
}

static uint32_t mani_FbxCommon(const maniFbx* f, uint32_t a, uint32_t b) {
    uint32_t da = mani_FbxDepth(f, a), db = mani_FbxDepth(f, b);
    for (; da > db; da--) a = f->modelParent[a];
    for (; db > da; db--) b = f->modelParent[b];
    while (a != b) {
        a = f->modelParent[a];
        b = f->modelParent[b];
    }
    return a;
}

/* Adds set s's members (mark[m] 1) closed over their common root in each
 * tree to the owners, joining sets that share a model. lca is scratch. */
static void mani_FbxCloseSet(const maniFbx* f, uint8_t* mark, uint32_t* lca, uint32_t* owner, uint32_t* up,
                             uint32_t s) {
    const uint32_t n = f->modelCount;
    for (uint32_t m = 0; m < n; m++) lca[m] = MANI_FBX_NONE;
    for (uint32_t m = 0; m < n; m++) {
        if (mark[m] != 1) continue;
        uint32_t top = mani_FbxTop(f, m);
        lca[top] = lca[top] == MANI_FBX_NONE ? m : mani_FbxCommon(f, lca[top], m);
    }
    for (uint32_t m = 0; m < n; m++) {
        if (mark[m] != 1) continue;
        uint32_t root = lca[mani_FbxTop(f, m)];
        for (uint32_t a = m;; a = f->modelParent[a]) {
            if (mark[a] == 0) mark[a] = 2;
            if (a == root) break;
        }
    }
    for (uint32_t m = 0; m < n; m++) {
        if (mark[m] == 0) continue;
        mark[m] = 0;
        if (owner[m] == MANI_FBX_NONE) owner[m] = s;
        else mani_FbxJoin(up, owner[m], s);
    }
}

static maniImportResult mani_FbxReadSkeletons(maniFbx* f) {
    const uint32_t n = f->modelCount;
    f->skinSkeleton = f->skinCount ? (uint32_t*)mani_FbxAlloc(f, (size_t)f->skinCount * sizeof(uint32_t)) : NULL;
    if (f->skinCount != 0 && f->skinSkeleton == NULL) return mani_FbxGraphResult(mani_errorCapacity, 0, 0, 0);
    for (uint32_t k = 0; k < f->skinCount; k++) f->skinSkeleton[k] = MANI_FBX_NONE;
    if (n == 0) return mani_FbxGraphResult(mani_success, 0, 0, 0);
    /* sets: the skins, then a chain per limb node whose parent is not one */
    uint32_t chains = 0;
    for (uint32_t m = 0; m < n; m++)
        chains += mani_FbxIsLimb(f, m) && (f->modelParent[m] == MANI_FBX_NONE || !mani_FbxIsLimb(f, f->modelParent[m]));
    const uint32_t sets = f->skinCount + chains;
    uint8_t* mark = (uint8_t*)mani_FbxAlloc(f, n);
    uint8_t* limb = (uint8_t*)mani_FbxAlloc(f, n);
    uint32_t* lca = (uint32_t*)mani_FbxAlloc(f, (size_t)n * sizeof(uint32_t));
    uint32_t* owner = (uint32_t*)mani_FbxAlloc(f, (size_t)n * sizeof(uint32_t));
    uint32_t most = 0; /* the most clusters a skin has */
    for (uint32_t k = 0; k < f->skinCount; k++) {
        const uint32_t c = mani_FbxSkinClusters(f, k, NULL, NULL, 0);
        if (c > most) most = c;
    }
    uint32_t* joints = most ? (uint32_t*)mani_FbxAlloc(f, (size_t)most * sizeof(uint32_t)) : NULL;
    uint32_t* up = sets ? (uint32_t*)mani_FbxAlloc(f, (size_t)sets * sizeof(uint32_t)) : NULL;
    uint32_t* number = sets ? (uint32_t*)mani_FbxAlloc(f, (size_t)sets * sizeof(uint32_t)) : NULL;
    f->modelSkeleton = (uint32_t*)mani_FbxAlloc(f, (size_t)n * sizeof(uint32_t));
    if (mark == NULL || limb == NULL || lca == NULL || owner == NULL || (most != 0 && joints == NULL) ||
        f->modelSkeleton == NULL ||
        (sets != 0 && (up == NULL || number == NULL)))
        return mani_FbxGraphResult(mani_errorCapacity, 0, 0, 0);
    for (uint32_t m = 0; m < n; m++) {
        owner[m] = MANI_FBX_NONE;
        f->modelSkeleton[m] = MANI_FBX_NONE;
        limb[m] = (uint8_t)mani_FbxIsLimb(f, m);
    }
    for (uint32_t s = 0; s < sets; s++) up[s] = s;
    for (uint32_t k = 0; k < f->skinCount; k++) {
        memset(mark, 0, n);
        uint32_t count = mani_FbxSkinClusters(f, k, joints, NULL, most);
        uint32_t any = 0;
        for (uint32_t c = 0; c < count; c++)
            if (joints[c] != MANI_FBX_NONE) {
                mark[joints[c]] = 1;
                any = 1;
            }
        if (!any) {
            up[k] = MANI_FBX_NONE; /* links no model */
            continue;
        }
        mani_FbxCloseSet(f, mark, lca, owner, up, k);
    }
    uint32_t s = f->skinCount;
    for (uint32_t m = 0; m < n; m++) {
        if (!limb[m] || (f->modelParent[m] != MANI_FBX_NONE && limb[f->modelParent[m]])) continue;
        memset(mark, 0, n);
        /* the chain: m and its limb descendants through limbs */
        for (uint32_t d = 0; d < n; d++) {
            if (!limb[d]) continue;
            uint32_t a = d;
            while (a != m && a != MANI_FBX_NONE && limb[a]) a = f->modelParent[a];
            if (a == m) mark[d] = 1;
        }
        mani_FbxCloseSet(f, mark, lca, owner, up, s);
        s++;
    }
    /* number the joined sets by their lowest member set */
    uint32_t skeletons = 0;
    for (uint32_t t = 0; t < sets; t++) number[t] = MANI_FBX_NONE;
    for (uint32_t t = 0; t < sets; t++) {
        if (up[t] == MANI_FBX_NONE) continue;
        uint32_t root = mani_FbxFindSet(up, t);
        if (number[root] == MANI_FBX_NONE) number[root] = skeletons++;
    }
    for (uint32_t m = 0; m < n; m++)
        if (owner[m] != MANI_FBX_NONE) f->modelSkeleton[m] = number[mani_FbxFindSet(up, owner[m])];
    for (uint32_t k = 0; k < f->skinCount; k++)
        f->skinSkeleton[k] = up[k] == MANI_FBX_NONE ? MANI_FBX_NONE : number[mani_FbxFindSet(up, k)];
    f->skeletonCount = skeletons;
    return mani_FbxGraphResult(mani_success, 0, 0, 0);
}

maniImportResult mani_FbxReadGraph(maniFbx* f) {
    const int byId = f->version >= 7000;
    uint32_t count = mani_FbxGatherObjects(f, NULL);
    const uint32_t n = f->modelCount;
    if (n != 0) {
        f->modelObject = (uint32_t*)mani_FbxAlloc(f, (size_t)n * sizeof(uint32_t));
        f->modelParent = (uint32_t*)mani_FbxAlloc(f, (size_t)n * sizeof(uint32_t));
        if (f->modelObject == NULL || f->modelParent == NULL) return mani_FbxGraphResult(mani_errorCapacity, 0, 0, 0);
        for (uint32_t m = 0; m < n; m++) f->modelObject[m] = f->modelParent[m] = MANI_FBX_NONE;
    }
    if (count != 0) {
        f->objects = (uint32_t*)mani_FbxAlloc(f, (size_t)count * sizeof(uint32_t));
        f->objectModel = (uint32_t*)mani_FbxAlloc(f, (size_t)count * sizeof(uint32_t));
        if (f->objects == NULL || f->objectModel == NULL) return mani_FbxGraphResult(mani_errorCapacity, 0, 0, 0);
        (void)mani_FbxGatherObjects(f, f->objects);
        f->objectCount = count;
        /* models are Objects' Model records then top-level ones, as the objects are */
        uint32_t m = 0;
        for (uint32_t o = 0; o < count; o++) {
            f->objectModel[o] = MANI_FBX_NONE;
            if (m < n && f->models[m].node == f->objects[o]) {
                f->objectModel[o] = m;
                f->modelObject[m] = o;
                m++;
            }
        }
        uint32_t slots = 16;
        while (slots < count * 2u) slots *= 2u;
        mani_FbxKeyTable t;
        t.slots = (uint32_t*)mani_FbxAlloc(f, (size_t)slots * sizeof(uint32_t));
        if (t.slots == NULL) return mani_FbxGraphResult(mani_errorCapacity, 0, 0, 0);
        memset(t.slots, 0xFF, (size_t)slots * sizeof(uint32_t));
        t.mask = slots - 1u;
        for (uint32_t o = 0; o < count; o++) {
            mani_FbxKey k;
            mani_FbxKeyOfObject(f, f->objects[o], byId, &k);
            if (!k.valid || mani_FbxLookup(f, &t, &k, byId) != MANI_FBX_NONE) continue; /* the first keeps its key */
            uint64_t s = mani_FbxKeySlot(&k, t.mask);
            while (t.slots[s] != MANI_FBX_NONE) s = (s + 1) & t.mask;
            t.slots[s] = o;
        }
        uint32_t links = mani_FbxGatherLinks(f, &t, byId, NULL);
        if (links != 0) {
            f->links = (mani_FbxLink*)mani_FbxAlloc(f, (size_t)links * sizeof(mani_FbxLink));
            if (f->links == NULL) return mani_FbxGraphResult(mani_errorCapacity, 0, 0, 0);
            (void)mani_FbxGatherLinks(f, &t, byId, f->links);
            f->linkCount = links;
        }
        f->objectChildModel = (uint32_t*)mani_FbxAlloc(f, (size_t)count * sizeof(uint32_t));
        if (f->objectChildModel == NULL) return mani_FbxGraphResult(mani_errorCapacity, 0, 0, 0);
        for (uint32_t o = 0; o < count; o++) f->objectChildModel[o] = MANI_FBX_NONE;
        for (uint32_t l = 0; l < f->linkCount; l++) {
            uint32_t* first = &f->objectChildModel[f->links[l].parent];
            if (*first == MANI_FBX_NONE) *first = f->objectModel[f->links[l].child];
        }
    }
    /* parents: the first link from a model to a model; then legacy Children */
    uint32_t* parentNode = n ? (uint32_t*)mani_FbxAlloc(f, (size_t)n * sizeof(uint32_t)) : NULL;
    if (n != 0 && parentNode == NULL) return mani_FbxGraphResult(mani_errorCapacity, 0, 0, 0);
    for (uint32_t l = 0; l < f->linkCount; l++) {
        uint32_t child = f->objectModel[f->links[l].child], parent = f->objectModel[f->links[l].parent];
        if (child == MANI_FBX_NONE || parent == MANI_FBX_NONE || f->modelParent[child] != MANI_FBX_NONE) continue;
        f->modelParent[child] = parent;
        parentNode[child] = f->links[l].node;
    }
    (void)mani_FbxLegacyParents(f, parentNode);
    /* a cycle: a walk up longer than the models */
    for (uint32_t m = 0; m < n; m++) {
        uint32_t a = m, steps = 0;
        while (a != MANI_FBX_NONE && steps <= n) {
            a = f->modelParent[a];
            steps++;
        }
        if (a == MANI_FBX_NONE) continue;
        /* a is on the cycle: name its lowest model */
        uint32_t low = a;
        for (uint32_t b = f->modelParent[a]; b != a; b = f->modelParent[b])
            if (b < low) low = b;
        return mani_FbxGraphResult(mani_errorFormat, maniImportReasonProperty, low,
                                   f->nodes[parentNode[low]].offset);
    }
    return mani_FbxReadSkeletons(f);
}

/* -- Queries ------------------------------------------------------------------------------- */

uint32_t maniFbx_GetSkeletonCount(const maniFbx* f) { return f == NULL || f->closing ? 0 : f->skeletonCount; }

uint32_t maniFbx_GetSkinSkeleton(const maniFbx* f, uint32_t skin) {
    if (f == NULL || f->closing || skin >= f->skinCount || f->skinSkeleton == NULL ||
        f->skinSkeleton[skin] == MANI_FBX_NONE)
        return UINT32_MAX;
    return f->skinSkeleton[skin];
}
