/* import.h's FBX clips: maniFbx_GetClipCount, maniFbx_GetClipName and
 * maniBuildFbxClip.
 *
 * A clip is an AnimationStack object (7.x: the Objects' children of that
 * name, in file order) or, before 7000, a Take record of the top-level
 * Takes. A stack's layers are the AnimationLayer objects connected to it, a
 * layer's curve nodes the AnimationCurveNode objects connected to it, each
 * curve node connected to a model's property (OP, the property named) and
 * its curves connected to it by component ("d|X", "d|Y", "d|Z"). A curve
 * node on a BlendShapeChannel (or, before 7.2, on the mesh Geometry) drives
 * a channel's DeformPercent: the clip's weight tracks (fbx_morph.c walks it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/fbx/fbx_build_internal.h"
#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "lib/core/detmath.h"
#include "lib/core/quat64.h"

static int mani_FbxNodeNamed(const maniFbx* f, uint32_t node, const char* name) {
    const size_t n = strlen(name);
    return f->nodes[node].nameLength == n && memcmp(f->bytes + f->nodes[node].nameOffset, name, n) == 0;
}

uint32_t mani_FbxClipNode(const maniFbx* f, uint32_t clip) {
    if (f == NULL || f->closing) return MANI_FBX_NONE;
    uint32_t parent, c;
    const char* name;
    if (f->version >= 7000) {
        parent = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
        name = "AnimationStack";
    } else {
        parent = mani_FbxFind(f, MANI_FBX_NONE, "Takes");
        name = "Take";
    }
    if (parent == MANI_FBX_NONE) return MANI_FBX_NONE;
    uint32_t i = 0;
    for (c = f->nodes[parent].firstChild; c != MANI_FBX_NONE; c = f->nodes[c].next) {
        if (!mani_FbxNodeNamed(f, c, name)) continue;
        if (i == clip) return c;
        i++;
    }
    return clip == UINT32_MAX ? i : MANI_FBX_NONE;
}

uint32_t maniFbx_GetClipCount(const maniFbx* fbx) {
    if (fbx == NULL || fbx->closing) return 0;
    uint32_t n = mani_FbxClipNode(fbx, UINT32_MAX);
    return n == MANI_FBX_NONE ? 0 : n;
}

const char* maniFbx_GetClipName(const maniFbx* fbx, uint32_t clip, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = 0;
    if (clip == UINT32_MAX) return NULL;
    const uint32_t node = mani_FbxClipNode(fbx, clip);
    if (node == MANI_FBX_NONE) return NULL;
    /* The first string property: binary "name\0\1Class", ASCII "Class::name". */
    for (uint32_t k = 0; k < fbx->nodes[node].propCount; k++) {
        uint32_t n;
        const char* s = mani_FbxPropString(fbx, mani_FbxGetProp(fbx, node, k), &n);
        if (s == NULL) continue;
        uint32_t length = n;
        const char* text = s;
        int cut = 0;
        for (uint32_t i = 0; i + 1 < n && !cut; i++)
            if (s[i] == 0 && s[i + 1] == 1) length = i, cut = 1;
        if (fbx->version >= 7000)
            for (uint32_t i = 0; i + 1 < n && !cut; i++)
                if (s[i] == ':' && s[i + 1] == ':') text = s + i + 2, length = n - i - 2, cut = 1;
        if (lengthOut != NULL) *lengthOut = length;
        return text != NULL ? text : "";
    }
    return "";
}


/* -- maniBuildFbxClip ---------------------------------------------------------------------- */

#define MANI_FBX_OK mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0)
#define MANI_FBX_NOMEM mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0)

/* The transform properties an animation may drive, as mani_FbxTransform
 * holds them. */
static const struct {
    const char* name;
    size_t offset;
} mani_fbxAnimatedVectors[] = {
    {"Lcl Translation", offsetof(mani_FbxTransform, translation)},
    {"Lcl Rotation", offsetof(mani_FbxTransform, rotation)},
    {"Lcl Scaling", offsetof(mani_FbxTransform, scaling)},
    {"RotationOffset", offsetof(mani_FbxTransform, rotationOffset)},
    {"RotationPivot", offsetof(mani_FbxTransform, rotationPivot)},
    {"ScalingOffset", offsetof(mani_FbxTransform, scalingOffset)},
    {"ScalingPivot", offsetof(mani_FbxTransform, scalingPivot)},
    {"PreRotation", offsetof(mani_FbxTransform, preRotation)},
    {"PostRotation", offsetof(mani_FbxTransform, postRotation)},
};
#define MANI_FBX_ANIMATED_VECTORS (sizeof mani_fbxAnimatedVectors / sizeof mani_fbxAnimatedVectors[0])
#define MANI_FBX_ROTATION_KIND 1u
#define MANI_FBX_SCALING_KIND 2u

/* A layer of the stack: its weight (0 to 1) and blend mode, as ufbx reads
 * them: BlendMode 0 (additive) adds, 2 (override passthrough) blends by the
 * weight, 1 (override) and any other value replace whatever the weight. */
typedef struct mani_FbxLayer {
    uint32_t object;
    uint32_t additive;    /* BlendMode 0 */
    uint32_t blended;     /* BlendMode 0 or 2: the weight counts (and a Weight curve) */
    uint32_t weightNode;  /* the curve node animating Weight, MANI_FBX_NONE for none */
    uint32_t weightCurve; /* its curve, MANI_FBX_NONE for none */
    uint32_t muted;
    uint32_t composeRotation; /* RotationAccumulationMode 0: Lcl Rotation composed as quaternions */
    uint32_t composeScale;    /* ScaleAccumulationMode 0: Lcl Scaling multiplied (log space) */
    double weight;        /* Weight / 100 held to [0, 1], above 0.99999 taken as 1 */
} mani_FbxLayer;

/* A model property one layer animates (an AnimationCurveNode). */
typedef struct mani_FbxAnimProp {
    uint32_t model, layer, object; /* the curve node's object */
    uint32_t kind;                 /* an index of mani_fbxAnimatedVectors, MANI_FBX_NONE for another number */
    uint32_t components;           /* 3 for a vector (d|X, d|Y, d|Z), else 1 */
    uint32_t curve[3];             /* the component's curve (an index of the curves), MANI_FBX_NONE for none */
    const char* name;
    uint32_t nameLength;
    uint32_t track;                /* float tracks: the first of its tracks, MANI_FBX_NONE for none */
    uint32_t weight;               /* 1: a morph channel's DeformPercent, made weight tracks, not a float track */
    double defaults[3];            /* the curve node's d|X ... values */
} mani_FbxAnimProp;

/* One resolved connection. */
typedef struct mani_FbxConn {
    uint32_t child, parent; /* objects */
    uint32_t node;          /* the C record */
    uint32_t op;            /* 1 for "OP" (the property the fourth value) */
} mani_FbxConn;

typedef struct mani_FbxIdObject {
    int64_t id;
    uint32_t object;
    uint32_t pad;
} mani_FbxIdObject;

static int mani_FbxIdLess(const void* a, const void* b) {
    const mani_FbxIdObject* x = (const mani_FbxIdObject*)a;
    const mani_FbxIdObject* y = (const mani_FbxIdObject*)b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->object < y->object ? -1 : (x->object > y->object ? 1 : 0);
}

static uint32_t mani_FbxObjectOfId(const mani_FbxIdObject* ids, uint32_t n, int64_t id) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ids[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && ids[lo].id == id ? ids[lo].object : MANI_FBX_NONE;
}

static int mani_FbxStringIs(const char* s, uint32_t n, const char* text) {
    return s != NULL && n == strlen(text) && memcmp(s, text, n) == 0;
}

/* A property's text without the class a 7.x name may carry. */
static const char* mani_FbxPropText(const maniFbx* f, uint32_t node, uint32_t index, uint32_t* n) {
    return mani_FbxPropString(f, mani_FbxGetProp(f, node, index), n);
}

/* A KTime setting of a Properties70 block, 1 when present. */
static int mani_FbxTimeSetting(const maniFbx* f, uint32_t block, const char* name, int64_t* out) {
    uint32_t at = 0;
    uint32_t p = mani_FbxFindSetting(f, block, name, &at);
    return p != MANI_FBX_NONE && mani_FbxPropInt(f, mani_FbxGetProp(f, p, at), out);
}

/* A number setting, def when absent or not a finite number. */
static double mani_FbxNumberSetting(const maniFbx* f, uint32_t block, const char* name, double def) {
    uint32_t at = 0;
    double v;
    uint32_t p = mani_FbxFindSetting(f, block, name, &at);
    if (p == MANI_FBX_NONE || !mani_FbxPropDouble(f, mani_FbxGetProp(f, p, at), &v) || !isfinite(v)) return def;
    return v;
}

/* What a curve node's OP connection animates: a model (its index), a
 * BlendShapeChannel deformer or a mesh Geometry (their DeformPercent or,
 * before 7.2, the mesh's property named as a shape: modelCount + the
 * object), else MANI_FBX_NONE. */
static uint32_t mani_FbxAnimOwner(const maniFbx* f, uint32_t object) {
    if (f->objectModel[object] != MANI_FBX_NONE) return f->objectModel[object];
    const uint32_t node = f->objects[object];
    if (mani_FbxNodeNamed(f, node, "Deformer") || mani_FbxNodeNamed(f, node, "Geometry")) return f->modelCount + object;
    return MANI_FBX_NONE;
}

/* A layer weight held to [0, 1], above 0.99999 taken as 1 (ufbx). */
static double mani_FbxLayerWeight(double w) {
    if (!(w > 0.0)) return 0.0;
    return w > 0.99999 ? 1.0 : w;
}

/* Everything a build reads from the stack. */
typedef struct mani_FbxClipData {
    mani_FbxLayer* layers;
    uint32_t layerCount;
    mani_FbxAnimProp* props;
    uint32_t propCount;
    mani_FbxCurve* curves;
    uint32_t curveCount;
    int64_t start, stop; /* ticks */
    int hasTimes;
    double shortestKey;  /* seconds between two keys of a curve, 0 for none */
} mani_FbxClipData;

static maniImportResult mani_FbxReadStack(const maniFbx* f, mani_GbScratch* sc, uint32_t clip, mani_FbxClipData* d) {
    memset(d, 0, sizeof *d);
    const uint32_t stack = mani_FbxClipNode(f, clip);
    const uint32_t no = f->objectCount;
    const maniImportResult refused = mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, clip, 0);
    uint32_t stackObject = MANI_FBX_NONE;
    for (uint32_t o = 0; o < no && stackObject == MANI_FBX_NONE; o++)
        if (f->objects[o] == stack) stackObject = o;
    if (stackObject == MANI_FBX_NONE) return refused;
    /* ids to objects */
    mani_FbxIdObject* ids = (mani_FbxIdObject*)mani_GbAlloc(sc, (size_t)no * sizeof *ids + 1);
    uint32_t* role = (uint32_t*)mani_GbAlloc(sc, (size_t)no * 2u * sizeof(uint32_t) + 1);
    if (ids == NULL || role == NULL) return MANI_FBX_NOMEM;
    uint32_t nid = 0;
    for (uint32_t o = 0; o < no; o++) {
        int64_t id;
        if (mani_FbxPropInt(f, mani_FbxGetProp(f, f->objects[o], 0), &id) &&
            mani_FbxGetProp(f, f->objects[o], 0)->type != 'S') {
            ids[nid].id = id;
            ids[nid].object = o;
            nid++;
        }
    }
    qsort(ids, nid, sizeof *ids, mani_FbxIdLess);
    /* the connections, resolved */
    uint32_t conns = mani_FbxFind(f, MANI_FBX_NONE, "Connections");
    uint32_t nc = 0;
    if (conns != MANI_FBX_NONE)
        for (uint32_t k = f->nodes[conns].firstChild; k != MANI_FBX_NONE; k = f->nodes[k].next) nc++;
    mani_FbxConn* cs = (mani_FbxConn*)mani_GbAlloc(sc, (size_t)nc * sizeof *cs + 1);
    if (cs == NULL) return MANI_FBX_NOMEM;
    uint32_t n = 0;
    if (conns != MANI_FBX_NONE)
        for (uint32_t k = f->nodes[conns].firstChild; k != MANI_FBX_NONE; k = f->nodes[k].next) {
            if (!mani_FbxNodeNamed(f, k, "C")) continue;
            uint32_t len;
            const char* kind = mani_FbxPropText(f, k, 0, &len);
            const int op = mani_FbxStringIs(kind, len, "OP");
            if (!op && !mani_FbxStringIs(kind, len, "OO")) continue;
            int64_t a, b;
            if (!mani_FbxPropInt(f, mani_FbxGetProp(f, k, 1), &a) || !mani_FbxPropInt(f, mani_FbxGetProp(f, k, 2), &b))
                continue;
            uint32_t child = mani_FbxObjectOfId(ids, nid, a), parent = mani_FbxObjectOfId(ids, nid, b);
            if (child == MANI_FBX_NONE || parent == MANI_FBX_NONE) continue;
            cs[n].child = child;
            cs[n].parent = parent;
            cs[n].node = k;
            cs[n].op = (uint32_t)op;
            n++;
        }
    /* role[o]: a layer's index; role[no + o]: a curve node's layer */
    for (uint32_t o = 0; o < 2u * no; o++) role[o] = MANI_FBX_NONE;
    uint32_t layers = 0, props = 0, curves = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!cs[i].op && cs[i].parent == stackObject && mani_FbxNodeNamed(f, f->objects[cs[i].child], "AnimationLayer") &&
            role[cs[i].child] == MANI_FBX_NONE)
            role[cs[i].child] = layers++;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t c = cs[i].child, p = cs[i].parent;
        if (!cs[i].op && role[p] != MANI_FBX_NONE && mani_FbxNodeNamed(f, f->objects[c], "AnimationCurveNode") &&
            role[no + c] == MANI_FBX_NONE)
            role[no + c] = role[p];
    }
    /* a curve node animating a layer's Weight (OP to the layer) */
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t c = cs[i].child, p = cs[i].parent;
        uint32_t len;
        const char* prop = mani_FbxPropText(f, cs[i].node, 3, &len);
        if (cs[i].op && role[p] != MANI_FBX_NONE && mani_FbxStringIs(prop, len, "Weight") &&
            mani_FbxNodeNamed(f, f->objects[c], "AnimationCurveNode") && role[no + c] == MANI_FBX_NONE)
            role[no + c] = role[p];
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t c = cs[i].child, p = cs[i].parent;
        if (cs[i].op && role[no + c] != MANI_FBX_NONE && mani_FbxAnimOwner(f, p) != MANI_FBX_NONE) props++;
        if (cs[i].op && mani_FbxNodeNamed(f, f->objects[c], "AnimationCurve") && role[no + p] != MANI_FBX_NONE)
            curves++;
    }
    d->layers = (mani_FbxLayer*)mani_GbAlloc(sc, (size_t)layers * sizeof(mani_FbxLayer) + 1);
    d->props = (mani_FbxAnimProp*)mani_GbAlloc(sc, (size_t)props * sizeof(mani_FbxAnimProp) + 1);
    d->curves = (mani_FbxCurve*)mani_GbAlloc(sc, (size_t)curves * sizeof(mani_FbxCurve) + 1);
    if (d->layers == NULL || d->props == NULL || d->curves == NULL) return MANI_FBX_NOMEM;
    for (uint32_t o = 0; o < no; o++) {
        if (role[o] == MANI_FBX_NONE) continue;
        mani_FbxLayer* l = &d->layers[role[o]];
        const uint32_t block = mani_FbxPropertiesOf(f, f->objects[o]);
        l->object = o;
        l->weight = mani_FbxLayerWeight(mani_FbxNumberSetting(f, block, "Weight", 100.0) / 100.0);
        const double mode = mani_FbxNumberSetting(f, block, "BlendMode", 0.0);
        l->additive = mode == 0.0;
        l->blended = mode == 0.0 || mode == 2.0;
        l->muted = mani_FbxNumberSetting(f, block, "Mute", 0.0) != 0.0;
        l->composeRotation = mani_FbxNumberSetting(f, block, "RotationAccumulationMode", 0.0) == 0.0;
        l->composeScale = mani_FbxNumberSetting(f, block, "ScaleAccumulationMode", 0.0) == 0.0;
        l->weightNode = l->weightCurve = MANI_FBX_NONE;
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t c = cs[i].child, p = cs[i].parent;
        uint32_t len;
        const char* prop = mani_FbxPropText(f, cs[i].node, 3, &len);
        if (cs[i].op && role[p] != MANI_FBX_NONE && mani_FbxStringIs(prop, len, "Weight") &&
            mani_FbxNodeNamed(f, f->objects[c], "AnimationCurveNode") && d->layers[role[p]].weightNode == MANI_FBX_NONE)
            d->layers[role[p]].weightNode = c;
    }
    d->layerCount = layers;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t c = cs[i].child, p = cs[i].parent;
        if (!(cs[i].op && role[no + c] != MANI_FBX_NONE && mani_FbxAnimOwner(f, p) != MANI_FBX_NONE)) continue;
        mani_FbxAnimProp* a = &d->props[d->propCount];
        memset(a, 0, sizeof *a);
        a->model = mani_FbxAnimOwner(f, p);
        a->layer = role[no + c];
        a->object = c;
        a->curve[0] = a->curve[1] = a->curve[2] = MANI_FBX_NONE;
        a->track = MANI_FBX_NONE;
        a->name = mani_FbxPropText(f, cs[i].node, 3, &a->nameLength);
        if (a->name == NULL) return refused;
        a->kind = MANI_FBX_NONE;
        for (uint32_t k = 0; k < MANI_FBX_ANIMATED_VECTORS && a->model < f->modelCount; k++)
            if (mani_FbxStringIs(a->name, a->nameLength, mani_fbxAnimatedVectors[k].name)) a->kind = k;
        /* the curve node's components: d|X, d|Y, d|Z for a vector, else its first d| value */
        const uint32_t block = mani_FbxPropertiesOf(f, f->objects[c]);
        uint32_t at = 0;
        if (mani_FbxFindSetting(f, block, "d|X", &at) != MANI_FBX_NONE) {
            a->components = 3;
            static const char* const names[3] = {"d|X", "d|Y", "d|Z"};
            for (int k = 0; k < 3; k++) a->defaults[k] = mani_FbxNumberSetting(f, block, names[k], 0.0);
        } else {
            a->components = 1;
            const char* key = block != MANI_FBX_NONE && mani_FbxNodeNamed(f, block, "Properties70") ? "P" : "Property";
            for (uint32_t e = mani_FbxFind(f, block, key); e != MANI_FBX_NONE; e = mani_FbxFindNext(f, e)) {
                uint32_t len;
                const char* s = mani_FbxPropText(f, e, 0, &len);
                if (s != NULL && len > 2 && s[0] == 'd' && s[1] == '|') {
                    double v;
                    const uint32_t vat = mani_FbxNodeNamed(f, block, "Properties70") ? 4u : 3u;
                    if (mani_FbxPropDouble(f, mani_FbxGetProp(f, e, vat), &v) && isfinite(v)) a->defaults[0] = v;
                    break;
                }
            }
        }
        if (a->kind != MANI_FBX_NONE && a->components != 3) return refused;
        d->propCount++;
    }
    /* the curves: keys in one block */
    size_t keys = 0, scratch = 1;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t c = cs[i].child, p = cs[i].parent;
        if (!(cs[i].op && mani_FbxNodeNamed(f, f->objects[c], "AnimationCurve") && role[no + p] != MANI_FBX_NONE)) continue;
        keys += mani_FbxCurveKeyCount(f, f->objects[c]);
        size_t s = mani_FbxCurveScratch(f, f->objects[c]);
        if (s > scratch) scratch = s;
    }
    mani_FbxCurveKey* keyBlock = (mani_FbxCurveKey*)mani_GbAlloc(sc, keys * sizeof(mani_FbxCurveKey) + 1);
    double* tmp = (double*)mani_GbAlloc(sc, scratch * sizeof(double));
    if (keyBlock == NULL || tmp == NULL) return MANI_FBX_NOMEM;
    size_t used = 0;
    double lo = 0.0, hi = 0.0, shortest = 0.0;
    int anyKey = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t c = cs[i].child, p = cs[i].parent;
        if (!(cs[i].op && mani_FbxNodeNamed(f, f->objects[c], "AnimationCurve") && role[no + p] != MANI_FBX_NONE)) continue;
        uint32_t len;
        const char* comp = mani_FbxPropText(f, cs[i].node, 3, &len);
        uint32_t k = 0;
        if (mani_FbxStringIs(comp, len, "d|Y")) k = 1;
        else if (mani_FbxStringIs(comp, len, "d|Z")) k = 2;
        const uint32_t count = mani_FbxCurveKeyCount(f, f->objects[c]);
        mani_FbxCurve* curve = &d->curves[d->curveCount];
        maniImportResult r = mani_FbxReadCurve(f, f->objects[c], tmp, keyBlock + used, count, curve);
        if (r.result == mani_errorCapacity) return r;
        if (r.result != mani_success) return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, clip, r.offset);
        used += count;
        for (uint32_t j = 0; j < curve->count; j++) {
            const double t = curve->keys[j].time;
            if (!anyKey || t < lo) lo = t;
            if (!anyKey || t > hi) hi = t;
            anyKey = 1;
            if (j > 0) {
                const double gap = t - curve->keys[j - 1].time;
                if (gap > 0.0 && (shortest == 0.0 || gap < shortest)) shortest = gap;
            }
        }
        for (uint32_t q = 0; q < d->propCount; q++)
            if (d->props[q].object == p && k < d->props[q].components && d->props[q].curve[k] == MANI_FBX_NONE)
                d->props[q].curve[k] = d->curveCount;
        for (uint32_t l = 0; l < d->layerCount; l++)
            if (d->layers[l].weightNode == p && d->layers[l].weightCurve == MANI_FBX_NONE)
                d->layers[l].weightCurve = d->curveCount;
        d->curveCount++;
    }
    d->shortestKey = shortest;
    /* the stack's times: local, else reference, else its keys */
    const uint32_t block = mani_FbxPropertiesOf(f, stack);
    int64_t a, b;
    if (mani_FbxTimeSetting(f, block, "LocalStart", &a) && mani_FbxTimeSetting(f, block, "LocalStop", &b)) {
        d->start = a, d->stop = b, d->hasTimes = 1;
    } else if (mani_FbxTimeSetting(f, block, "ReferenceStart", &a) &&
               mani_FbxTimeSetting(f, block, "ReferenceStop", &b)) {
        d->start = a, d->stop = b, d->hasTimes = 1;
    } else if (anyKey) {
        d->start = (int64_t)llround(lo * MANI_FBX_KTIME_PER_SECOND);
        d->stop = (int64_t)llround(hi * MANI_FBX_KTIME_PER_SECOND);
        d->hasTimes = 1;
    }
    if (d->stop < d->start) d->stop = d->start;
    return MANI_FBX_OK;
}

/* -- Takes (before 7000): Take > Model > Channel "Transform" > "T"/"R"/"S" > "X"/"Y"/"Z" ------ */

/* A name without its class: binary "name\0\1Class", ASCII "Class::name". */
static const char* mani_FbxStripClass(const char* s, uint32_t n, uint32_t* length) {
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

typedef struct mani_FbxTakeCounts {
    uint32_t props, curves;
    size_t keys;
} mani_FbxTakeCounts;

/* One property channel of a take's model: counted (d NULL) or read. */
static maniImportResult mani_FbxTakeProp(const maniFbx* f, mani_FbxClipData* d, mani_FbxCurveKey* keyBlock,
                                         mani_FbxTakeCounts* n, uint32_t model, uint32_t node, uint32_t kind,
                                         const char* name, uint32_t nameLength, uint32_t clip) {
    uint32_t comps[3], count = 0;
    if (mani_FbxFind(f, node, "Key") != MANI_FBX_NONE || mani_FbxFind(f, node, "Default") != MANI_FBX_NONE) {
        comps[count++] = node;
    } else {
        for (uint32_t c = mani_FbxFind(f, node, "Channel"); c != MANI_FBX_NONE && count < 3; c = mani_FbxFindNext(f, c))
            if (mani_FbxFind(f, c, "Key") != MANI_FBX_NONE || mani_FbxFind(f, c, "Default") != MANI_FBX_NONE)
                comps[count++] = c;
    }
    if (count == 0) return MANI_FBX_OK;
    if (kind != MANI_FBX_NONE && count != 3 && !(count == 1 && comps[0] != node))
        return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, clip, f->nodes[node].offset);
    mani_FbxAnimProp* a = d != NULL ? &d->props[n->props] : NULL;
    if (a != NULL) {
        memset(a, 0, sizeof *a);
        a->model = model;
        a->kind = kind;
        a->components = kind != MANI_FBX_NONE ? 3 : count;
        a->curve[0] = a->curve[1] = a->curve[2] = MANI_FBX_NONE;
        a->track = MANI_FBX_NONE;
        a->object = MANI_FBX_NONE;
        a->name = name;
        a->nameLength = nameLength;
    }
    for (uint32_t k = 0; k < count; k++) {
        /* a vector's component by its channel's name */
        uint32_t slot = k;
        if (kind != MANI_FBX_NONE && comps[k] != node) {
            uint32_t len;
            const char* cn = mani_FbxPropText(f, comps[k], 0, &len);
            slot = mani_FbxStringIs(cn, len, "X") ? 0 : mani_FbxStringIs(cn, len, "Y") ? 1 : mani_FbxStringIs(cn, len, "Z") ? 2 : 3;
            if (slot == 3) continue;
        }
        const uint32_t keys = mani_FbxTakeCurveKeyCount(f, comps[k]);
        if (a != NULL) {
            mani_FbxCurve* curve = &d->curves[n->curves];
            maniImportResult r = mani_FbxReadTakeCurve(f, comps[k], keyBlock + n->keys, keys, curve);
            if (r.result != mani_success) return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, clip, r.offset);
            a->defaults[slot] = curve->defaultValue;
            if (curve->count > 0 && a->curve[slot] == MANI_FBX_NONE) a->curve[slot] = n->curves;
        }
        n->curves++;
        n->keys += keys;
    }
    n->props++;
    return MANI_FBX_OK;
}

/* Every property channel of a take (d NULL: counted only). */
static maniImportResult mani_FbxTakeWalk(const maniFbx* f, uint32_t take, mani_FbxClipData* d,
                                         mani_FbxCurveKey* keyBlock, mani_FbxTakeCounts* n, uint32_t clip) {
    static const char* const trs[3] = {"T", "R", "S"};
    memset(n, 0, sizeof *n);
    for (uint32_t m = mani_FbxFind(f, take, "Model"); m != MANI_FBX_NONE; m = mani_FbxFindNext(f, m)) {
        uint32_t len;
        const char* s = mani_FbxPropText(f, m, 0, &len);
        if (s == NULL) continue;
        s = mani_FbxStripClass(s, len, &len);
        uint32_t model = MANI_FBX_NONE;
        for (uint32_t k = 0; k < f->modelCount && model == MANI_FBX_NONE; k++)
            if (f->models[k].nameLength == len && (len == 0 || memcmp(f->models[k].name, s, len) == 0)) model = k;
        if (model == MANI_FBX_NONE) continue;
        for (uint32_t c = mani_FbxFind(f, m, "Channel"); c != MANI_FBX_NONE; c = mani_FbxFindNext(f, c)) {
            uint32_t cl;
            const char* cn = mani_FbxPropText(f, c, 0, &cl);
            if (cn == NULL) continue;
            maniImportResult r;
            if (mani_FbxStringIs(cn, cl, "Transform")) {
                for (uint32_t t = mani_FbxFind(f, c, "Channel"); t != MANI_FBX_NONE; t = mani_FbxFindNext(f, t)) {
                    uint32_t tl;
                    const char* tn = mani_FbxPropText(f, t, 0, &tl);
                    for (uint32_t k = 0; k < 3; k++)
                        if (mani_FbxStringIs(tn, tl, trs[k])) {
                            r = mani_FbxTakeProp(f, d, keyBlock, n, model, t, k, mani_fbxAnimatedVectors[k].name,
                                                 (uint32_t)strlen(mani_fbxAnimatedVectors[k].name), clip);
                            if (r.result != mani_success) return r;
                        }
                }
                continue;
            }
            r = mani_FbxTakeProp(f, d, keyBlock, n, model, c, MANI_FBX_NONE, cn, cl, clip);
            if (r.result != mani_success) return r;
        }
    }
    return MANI_FBX_OK;
}

static maniImportResult mani_FbxReadTake(const maniFbx* f, mani_GbScratch* sc, uint32_t clip, mani_FbxClipData* d) {
    memset(d, 0, sizeof *d);
    const uint32_t take = mani_FbxClipNode(f, clip);
    mani_FbxTakeCounts n;
    maniImportResult r = mani_FbxTakeWalk(f, take, NULL, NULL, &n, clip);
    if (r.result != mani_success) return r;
    d->layers = (mani_FbxLayer*)mani_GbAlloc(sc, sizeof(mani_FbxLayer));
    d->props = (mani_FbxAnimProp*)mani_GbAlloc(sc, (size_t)n.props * sizeof(mani_FbxAnimProp) + 1);
    d->curves = (mani_FbxCurve*)mani_GbAlloc(sc, (size_t)n.curves * sizeof(mani_FbxCurve) + 1);
    mani_FbxCurveKey* keyBlock = (mani_FbxCurveKey*)mani_GbAlloc(sc, n.keys * sizeof(mani_FbxCurveKey) + 1);
    if (d->layers == NULL || d->props == NULL || d->curves == NULL || keyBlock == NULL) return MANI_FBX_NOMEM;
    memset(d->layers, 0, sizeof(mani_FbxLayer));
    d->layers[0].object = d->layers[0].weightNode = d->layers[0].weightCurve = MANI_FBX_NONE;
    d->layers[0].weight = 1.0;
    d->layers[0].composeRotation = d->layers[0].composeScale = 1;
    d->layerCount = 1;
    r = mani_FbxTakeWalk(f, take, d, keyBlock, &n, clip);
    if (r.result != mani_success) return r;
    d->propCount = n.props;
    d->curveCount = n.curves;
    double lo = 0.0, hi = 0.0;
    int anyKey = 0;
    for (uint32_t c = 0; c < d->curveCount; c++) {
        const mani_FbxCurve* curve = &d->curves[c];
        for (uint32_t j = 0; j < curve->count; j++) {
            const double t = curve->keys[j].time;
            if (!anyKey || t < lo) lo = t;
            if (!anyKey || t > hi) hi = t;
            anyKey = 1;
            if (j > 0) {
                const double gap = t - curve->keys[j - 1].time;
                if (gap > 0.0 && (d->shortestKey == 0.0 || gap < d->shortestKey)) d->shortestKey = gap;
            }
        }
    }
    /* the take's LocalTime, else ReferenceTime, else its keys */
    int64_t a, b;
    uint32_t t = mani_FbxFind(f, take, "LocalTime");
    if (t == MANI_FBX_NONE) t = mani_FbxFind(f, take, "ReferenceTime");
    if (t != MANI_FBX_NONE && mani_FbxPropInt(f, mani_FbxGetProp(f, t, 0), &a) &&
        mani_FbxPropInt(f, mani_FbxGetProp(f, t, 1), &b)) {
        d->start = a, d->stop = b, d->hasTimes = 1;
    } else if (anyKey) {
        d->start = (int64_t)llround(lo * MANI_FBX_KTIME_PER_SECOND);
        d->stop = (int64_t)llround(hi * MANI_FBX_KTIME_PER_SECOND);
        d->hasTimes = 1;
    }
    if (d->stop < d->start) d->stop = d->start;
    return MANI_FBX_OK;
}

/* A rotation of Euler angles in degrees in an order as a quaternion (x, y,
 * z, w): the order's first axis turned first (q = qk qj qi). */
static void mani_FbxEulerQuat(const double degrees[3], uint32_t order, double q[4]) {
    static const int turns[7][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}, {0, 1, 2}};
    const int* k = turns[order < 7 ? order : 0];
    q[0] = q[1] = q[2] = 0.0;
    q[3] = 1.0;
    for (int i = 0; i < 3; i++) {
        double axis[3] = {0.0, 0.0, 0.0}, step[4];
        axis[k[i]] = 1.0;
        mcore_QuatAxisAngle64(axis, degrees[k[i]] * (3.14159265358979323846 / 180.0), step);
        mcore_QuatMul64(step, q, q);
    }
}

/* The Euler angles in degrees (in an order) of a unit quaternion: from its
 * matrix, the middle angle by asin (held to [-90, 90]), the others by atan2. */
static void mani_FbxQuatEuler(const double q[4], uint32_t order, double degrees[3]) {
    static const int turns[7][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}, {0, 1, 2}};
    const int* k = turns[order < 7 ? order : 0];
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double m[3][3] = {{1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)},
                            {2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)},
                            {2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)}};
    const int i = k[0], j = k[1], l = k[2];
    /* +1 for an even permutation of X, Y, Z */
    const double s = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0;
    double sj = -s * m[l][i];
    if (sj > 1.0) sj = 1.0;
    if (sj < -1.0) sj = -1.0;
    const double toDegrees = 180.0 / 3.14159265358979323846;
    degrees[j] = mcore_asin(sj) * toDegrees;
    degrees[i] = mcore_atan2(s * m[l][j], m[l][l]) * toDegrees;
    degrees[l] = mcore_atan2(s * m[j][i], m[i][i]) * toDegrees;
}

/* ufbx's power for scale blending: the sign kept, |v|^e; 1 for e at most
 * 0, v for e at least 1. */
static double mani_FbxPowAbs(double v, double e) {
    if (e <= 0.0) return 1.0;
    if (e >= 1.0) return v;
    const double sign = v < 0.0 ? -1.0 : 1.0;
    return sign * mcore_pow(v * sign, e);
}

/* A layered property's value at a time, as ufbx combines layers: the rest
 * (or the caller's base) replaced by the stack's first layer, then each
 * later layer animating it combined by its weight: additive ones added
 * (Lcl Scaling multiplied by |x|^w in scale accumulation mode 0; Lcl
 * Rotation in rotation accumulation mode 0 composed as quaternions, the
 * layer's turn taken to the weight), blended (override passthrough) ones
 * interpolated (scalings in log space, rotations by slerp in mode 0),
 * override ones replacing. order: the Euler order the quaternions are made
 * in and read back. The callers give XYZ for every model: ufbx's reference
 * of maya_anim_layers_over_acc_orders (six models, one per order, an
 * override-passthrough layer at 98.6 % over a rotation-by-channel additive
 * one) is met within 2e-4 so, and is 0.65 to 0.95 off with each model's own
 * order. */
static void mani_FbxBlendProp(const mani_FbxClipData* d, uint32_t model, uint32_t kind, const char* name,
                              uint32_t nameLength, double seconds, double* v, uint32_t components, uint32_t order) {
    for (uint32_t l = 0; l < d->layerCount; l++) {
        const mani_FbxLayer* layer = &d->layers[l];
        for (uint32_t q = 0; q < d->propCount; q++) {
            const mani_FbxAnimProp* a = &d->props[q];
            if (a->layer != l || a->model != model) continue;
            if (kind != MANI_FBX_NONE ? a->kind != kind
                                      : (a->kind != MANI_FBX_NONE || a->nameLength != nameLength ||
                                         memcmp(a->name, name, nameLength) != 0))
                continue;
            double x[3];
            for (uint32_t c = 0; c < components && c < 3; c++)
                x[c] = a->curve[c] != MANI_FBX_NONE ? mani_FbxEvalCurve(&d->curves[a->curve[c]], seconds) : a->defaults[c];
            if (layer->muted) break;
            const uint32_t n = components < 3 ? components : 3;
            if (l == 0 || !(layer->additive || layer->blended)) { /* the first layer, or an override */
                for (uint32_t c = 0; c < n; c++) v[c] = x[c];
                break;
            }
            const double w = layer->blended && layer->weightCurve != MANI_FBX_NONE
                                 ? mani_FbxLayerWeight(mani_FbxEvalCurve(&d->curves[layer->weightCurve], seconds) / 100.0)
                                 : layer->weight;
            if (kind == MANI_FBX_ROTATION_KIND && layer->composeRotation && n == 3) {
                double qa[4], qb[4], r[4];
                mani_FbxEulerQuat(v, order, qa);
                mani_FbxEulerQuat(x, order, qb);
                if (layer->additive) {
                    mcore_QuatPow64(qb, w, qb);
                    mcore_QuatMul64(qa, qb, r);
                } else {
                    double inv[4], rel[4];
                    mcore_QuatConj64(qa, inv);
                    mcore_QuatMul64(inv, qb, rel);
                    mcore_QuatPow64(rel, w, rel);
                    mcore_QuatMul64(qa, rel, r);
                }
                (void)mcore_QuatNormalize64(r);
                mani_FbxQuatEuler(r, order, v);
                break;
            }
            for (uint32_t c = 0; c < n; c++) {
                if (kind == MANI_FBX_SCALING_KIND && layer->composeScale)
                    v[c] = layer->additive ? v[c] * mani_FbxPowAbs(x[c], w)
                                           : mani_FbxPowAbs(v[c], 1.0 - w) * mani_FbxPowAbs(x[c], w);
                else if (layer->additive)
                    v[c] += x[c] * w;
                else
                    v[c] = v[c] * (1.0 - w) + x[c] * w;
            }
            break;
        }
    }
}

/* A model's transform at a time: its rest with every animated vector
 * applied, and animated RotationOrder (0 to 6) and InheritType (0 to 2);
 * 0 for an animated integer input that is not a whole number in its range. */
static int mani_FbxAnimatedTransform(const mani_FbxClipData* d, uint32_t model, const mani_FbxTransform* rest,
                                     double seconds, mani_FbxTransform* out) {
    *out = *rest;
    static const struct {
        const char* name;
        double top;
    } ints[2] = {{"RotationOrder", 6.0}, {"InheritType", 2.0}};
    for (int i = 0; i < 2; i++) {
        double v = i == 0 ? (double)rest->rotationOrder : (double)rest->inheritType;
        const double before = v;
        mani_FbxBlendProp(d, model, MANI_FBX_NONE, ints[i].name, (uint32_t)strlen(ints[i].name), seconds, &v, 1, 0);
        if (v == before) continue;
        if (!(v >= 0.0 && v <= ints[i].top && v == floor(v))) return 0;
        if (i == 0) out->rotationOrder = (uint32_t)v;
        else out->inheritType = (uint32_t)v;
    }
    /* the layers compose rotations in XYZ whatever the model's order: see mani_FbxBlendProp */
    for (uint32_t k = 0; k < MANI_FBX_ANIMATED_VECTORS; k++)
        mani_FbxBlendProp(d, model, k, NULL, 0, seconds, (double*)((char*)out + mani_fbxAnimatedVectors[k].offset), 3,
                          0);
    return 1;
}

static int mani_FbxIsIntegerInput(const char* name, uint32_t length) {
    return mani_FbxStringIs(name, length, "RotationOrder") || mani_FbxStringIs(name, length, "InheritType");
}

/* A bone of the skeleton: the model it is, or the model whose helper (name#unscaled) it is. */
typedef struct mani_FbxClipBone {
    uint32_t model;
    uint32_t helper; /* 1: the helper of model */
    uint32_t root;   /* 1: no parent bone */
    uint32_t moved[3];
    mani_FbxTransform rest;
} mani_FbxClipBone;

static uint32_t mani_FbxModelNamed(const maniFbx* f, const char* name, size_t length) {
    for (uint32_t m = 0; m < f->modelCount; m++)
        if (f->models[m].boneNameLength == length && memcmp(f->models[m].boneName, name, length) == 0) return m;
    return MANI_FBX_NONE;
}

static int mani_FbxSameFloats(const float* a, const float* b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* The object of a record, MANI_FBX_NONE for none. */
static uint32_t mani_FbxClipObjectOf(const maniFbx* f, uint32_t node) {
    for (uint32_t o = 0; o < f->objectCount; o++)
        if (f->objects[o] == node) return o;
    return MANI_FBX_NONE;
}

/* Whether a morph set's mesh model is a bone of the skeleton (not a helper)
 * or has a skin whose skeleton holds a bone's model. */
static int mani_FbxClipMorphIsOurs(const maniFbx* f, const mani_FbxClipBone* cb, uint32_t bones, uint32_t model) {
    if (model == UINT32_MAX) return 0;
    for (uint32_t b = 0; b < bones; b++)
        if (cb[b].model == model && !cb[b].helper) return 1;
    for (uint32_t k = 0; k < f->skinCount; k++) {
        if (f->skins[k].model != model || f->skinSkeleton == NULL || f->skinSkeleton[k] == MANI_FBX_NONE) continue;
        for (uint32_t b = 0; b < bones; b++)
            if (cb[b].model != MANI_FBX_NONE && !cb[b].helper && f->modelSkeleton[cb[b].model] == f->skinSkeleton[k])
                return 1;
    }
    return 0;
}

/* The key a record's animated properties go by: a model's index (a 6.x
 * mesh Model holding Shape children), else modelCount + its object (a
 * BlendShapeChannel, a 7.x Geometry); MANI_FBX_NONE for none. */
static uint32_t mani_FbxClipOwnerKey(const maniFbx* f, uint32_t node) {
    for (uint32_t m = 0; m < f->modelCount; m++)
        if (f->models[m].node == node) return m;
    const uint32_t o = mani_FbxClipObjectOf(f, node);
    return o != MANI_FBX_NONE ? f->modelCount + o : MANI_FBX_NONE;
}

/* Whether the stack animates a channel's DeformPercent (a curve node on its
 * owner's property); marks the properties that do as weights. */
static int mani_FbxClipAnimates(const maniFbx* f, mani_FbxClipData* d, const mani_FbxMorphWalk* w) {
    const uint32_t owner = mani_FbxClipOwnerKey(f, w->owner);
    if (owner == MANI_FBX_NONE || w->property == NULL) return 0;
    int any = 0;
    for (uint32_t q = 0; q < d->propCount; q++)
        if (d->props[q].model == owner && d->props[q].kind == MANI_FBX_NONE && d->props[q].nameLength == w->propertyLength &&
            memcmp(d->props[q].name, w->property, w->propertyLength) == 0) {
            d->props[q].weight = 1;
            any = 1;
        }
    return any;
}

/* A model's inherit scale at a time (mani_FbxInheritScale with every
 * transform animated): 0 when a transform read or an animated integer
 * input is refused. */
static int mani_FbxAnimatedInheritScale(const maniFbx* f, const mani_FbxClipData* d, uint32_t model, double seconds,
                                        double out[3]) {
    out[0] = out[1] = out[2] = 1.0;
    for (uint32_t m = model, k = 0; m != MANI_FBX_NONE && k <= f->modelCount; k++) {
        mani_FbxTransform rest, t;
        if (mani_FbxReadTransform(f, m, &rest).result != mani_success) return 0;
        if (!mani_FbxAnimatedTransform(d, m, &rest, seconds, &t)) return 0;
        for (int i = 0; i < 3; i++) out[i] *= t.scaling[i];
        if (t.inheritType != MANI_FBX_INHERIT_RRSS) break;
        m = f->modelParent[m];
    }
    return 1;
}

maniImportResult maniBuildFbxClip(maniBuilder* builder, const maniFbx* fbx, uint32_t clip,
                                  const maniSkeleton* skeleton, const maniFbxOptions* options,
                                  const maniImportClipOptions* clipOptions, uint32_t* boundOut) {
    if (builder == NULL) return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_GbImportResult(entered, maniImportReasonNone, 0, 0);
    if (fbx == NULL || fbx->closing || options == NULL || skeleton == NULL || clipOptions == NULL)
        return mani_GbMisuse(builder);
    mani_GbBasis basis;
    maniResult o = mani_FbxCheckOptions(fbx, options, &basis);
    if (o != mani_success) {
        builder->misuse++;
        return mani_GbImportResult(o, maniImportReasonNone, 0, 0);
    }
    if (clip >= maniFbx_GetClipCount(fbx)) return mani_GbMisuse(builder);
    const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
    if (bones == 0) return mani_GbMisuse(builder);
    o = mani_GbCheckClipOptions(clipOptions, skeleton);
    if (o != mani_success) {
        builder->misuse++;
        return mani_GbImportResult(o, maniImportReasonNone, 0, 0);
    }
    const maniFbx* f = fbx;
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    mani_FbxClipData d;
    maniImportResult r = f->version >= 7000 ? mani_FbxReadStack(f, &sc, clip, &d) : mani_FbxReadTake(f, &sc, clip, &d);
    if (r.result != mani_success) {
        mani_GbScratchFree(&sc);
        return r;
    }
    /* the grid: whole ticks from the stack's start */
    double rate = clipOptions->sampleRate;
    if (rate == 0.0) {
        rate = d.shortestKey > 0.0 ? floor(1.0 / d.shortestKey + 0.5) : 30.0;
        if (rate < 1.0) rate = 1.0;
        if (rate > 240.0) rate = 240.0;
    }
    /* in binary64: stop - start of hostile times overflows int64 (the grid then refused as a timing) */
    const double duration = ((double)d.stop - (double)d.start) / MANI_FBX_KTIME_PER_SECOND;
    double steps = floor(duration * rate + 1e-9);
    if (steps + 2.0 > (double)MANI_MAX_SAMPLES + 2.0) {
        mani_GbScratchFree(&sc);
        return mani_GbImportResult(mani_errorFormat, maniImportReasonBuild, maniBuildReasonTiming, 0);
    }
    uint32_t samples = (uint32_t)steps + 1u;
    int64_t lastTick = d.start + (int64_t)llround(steps * MANI_FBX_KTIME_PER_SECOND / rate);
    if (lastTick < d.stop) samples++;

    /* the bones */
    mani_FbxClipBone* cb = (mani_FbxClipBone*)mani_GbAlloc(&sc, (size_t)bones * sizeof *cb);
    float* times = (float*)mani_GbAlloc(&sc, (size_t)samples * sizeof(float));
    double* seconds = (double*)mani_GbAlloc(&sc, (size_t)samples * sizeof(double));
    float* values = (float*)mani_GbAlloc(&sc, (size_t)bones * samples * 10u * sizeof(float));
    if (cb == NULL || times == NULL || seconds == NULL || values == NULL) {
        mani_GbScratchFree(&sc);
        return MANI_FBX_NOMEM;
    }
    for (uint32_t k = 0; k < samples; k++) {
        int64_t tick = d.start + (int64_t)llround((double)k * MANI_FBX_KTIME_PER_SECOND / rate);
        if (tick > d.stop || k + 1 == samples) tick = k == 0 ? d.start : d.stop;
        seconds[k] = (double)tick / MANI_FBX_KTIME_PER_SECOND;
        times[k] = (float)((double)(tick - d.start) / MANI_FBX_KTIME_PER_SECOND);
    }
    for (uint32_t b = 0; b < bones; b++) {
        size_t len = 0;
        const char* name = maniSkeleton_GetBoneName(skeleton, b, &len);
        mani_FbxClipBone* c = &cb[b];
        memset(c, 0, sizeof *c);
        c->model = name != NULL ? mani_FbxModelNamed(f, name, len) : MANI_FBX_NONE;
        if (c->model == MANI_FBX_NONE && name != NULL && len > 9 && memcmp(name + len - 9, "#unscaled", 9) == 0) {
            c->model = mani_FbxModelNamed(f, name, len - 9);
            c->helper = c->model != MANI_FBX_NONE;
        }
        c->root = maniSkeleton_GetParent(skeleton, b) == MANI_NO_BONE;
        if (c->model != MANI_FBX_NONE) {
            r = mani_FbxReadTransform(f, c->model, &c->rest);
            if (r.result != mani_success) {
                mani_GbScratchFree(&sc);
                return r;
            }
        }
    }
    /* every bone's local at every sample, as the skeleton build forms its rest */
    const int fold = options->foldPlacement != 0;
    for (uint32_t b = 0; b < bones; b++) {
        const mani_FbxClipBone* c = &cb[b];
        if (c->model == MANI_FBX_NONE) continue;
        const uint32_t m = c->model, parent = f->modelParent[m];
        mani_FbxTransform parentRest;
        int hasParent = parent != MANI_FBX_NONE;
        if (hasParent) {
            r = mani_FbxReadTransform(f, parent, &parentRest);
            if (r.result != mani_success) {
                mani_GbScratchFree(&sc);
                return r;
            }
        }
        /* whether an RrSs model hangs from its parent's helper and the helpers' forms: the rest's decisions,
         * as the skeleton's */
        const int helperAll = c->helper && mani_FbxHelperTakesAll(f, m);
        const int parentAll = hasParent && mani_FbxHelperTakesAll(f, parent);
        int hangs = 0;
        if (hasParent && !c->helper) {
            mani_GbXf restLocal, restHelper;
            r = mani_FbxBoneLocal(f, m, &restLocal, &hangs, &restHelper);
            if (r.result != mani_success) {
                mani_GbScratchFree(&sc);
                return r;
            }
        }
        mani_GbXf above;
        mani_GbIdentity(&above);
        if (c->root && fold && !c->helper) {
            r = mani_FbxAbove(f, m, &above);
            if (r.result != mani_success) {
                mani_GbScratchFree(&sc);
                return r;
            }
        }
        for (uint32_t k = 0; k < samples; k++) {
            mani_FbxTransform t;
            if (!mani_FbxAnimatedTransform(&d, m, &c->rest, seconds[k], &t)) {
                mani_GbScratchFree(&sc);
                return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, m, 0);
            }
            mani_GbXf local;
            if (c->helper) {
                /* the scale it takes away, inverted: the inherit scale of the model it stands under, or that
                 * model's scaling (the rest's form, mani_FbxHelperTakesAll) */
                double e[3];
                int ok = 1;
                if (helperAll) {
                    ok = mani_FbxAnimatedInheritScale(f, &d, m, seconds[k], e);
                } else {
                    for (int i = 0; i < 3; i++) e[i] = t.scaling[i];
                }
                if (!ok) {
                    mani_GbScratchFree(&sc);
                    return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, m, 0);
                }
                mani_GbIdentity(&local);
                for (int i = 0; i < 3; i++) {
                    if (!(e[i] != 0.0) || !isfinite(1.0 / e[i])) {
                        mani_GbScratchFree(&sc);
                        return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, m, 0);
                    }
                    local.l[4 * i] = 1.0 / e[i];
                }
            } else {
                mani_FbxLocalMatrix(&t, &local);
                /* under the parent's helper (the skeleton's rest decision): Rrs T(E t), RrSs T(E t) and scale E s */
                const int compensated =
                    hasParent && (t.inheritType == MANI_FBX_INHERIT_RRS || (t.inheritType == MANI_FBX_INHERIT_RRSS && hangs));
                if (compensated) {
                    /* h and the scale put back, as mani_FbxBoneLocal forms them at the rest */
                    double e[3], back[3] = {1.0, 1.0, 1.0};
                    mani_FbxTransform p;
                    int ok = mani_FbxAnimatedTransform(&d, parent, &parentRest, seconds[k], &p);
                    if (ok && parentAll) {
                        ok = mani_FbxAnimatedInheritScale(f, &d, parent, seconds[k], e);
                    } else {
                        for (int i = 0; i < 3; i++) e[i] = p.scaling[i];
                    }
                    if (ok && t.inheritType == MANI_FBX_INHERIT_RRSS)
                        for (int i = 0; i < 3; i++) back[i] = e[i];
                    else if (ok && parentAll)
                        ok = mani_FbxAnimatedInheritScale(f, &d, f->modelParent[parent], seconds[k], back);
                    if (!ok) {
                        mani_GbScratchFree(&sc);
                        return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, parent, 0);
                    }
                    for (int i = 0; i < 3; i++) {
                        local.t[i] = e[i] * local.t[i];
                        if (back[i] != 1.0)
                            for (int row = 0; row < 3; row++) local.l[3 * i + row] *= back[i];
                    }
                }
                if (c->root && fold) mani_GbMul(&above, &local, &local);
            }
            mani_GbXf out;
            mani_GbBasisXf(&basis, &local, &out);
            maniTransform split;
            if (!mani_GbSplit(&out, &split)) {
                mani_GbScratchFree(&sc);
                return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, m, 0);
            }
            float* v = values + ((size_t)b * samples + k) * 10u;
            v[0] = split.translation.x, v[1] = split.translation.y, v[2] = split.translation.z;
            v[3] = split.rotation.x, v[4] = split.rotation.y, v[5] = split.rotation.z, v[6] = split.rotation.w;
            v[7] = split.scale.x, v[8] = split.scale.y, v[9] = split.scale.z;
        }
    }
    /* the channels that leave the rest, laid out per path */
    uint32_t nc = 0;
    for (uint32_t b = 0; b < bones; b++) {
        mani_FbxClipBone* c = &cb[b];
        if (c->model == MANI_FBX_NONE) continue;
        const maniTransform rest = maniSkeleton_GetRest(skeleton, b);
        const float rv[10] = {rest.translation.x, rest.translation.y, rest.translation.z, rest.rotation.x,
                              rest.rotation.y,    rest.rotation.z,    rest.rotation.w,    rest.scale.x,
                              rest.scale.y,       rest.scale.z};
        static const int first[3] = {0, 3, 7}, width[3] = {3, 4, 3};
        for (int path = 0; path < 3; path++) {
            for (uint32_t k = 0; k < samples && !c->moved[path]; k++) {
                const float* v = values + ((size_t)b * samples + k) * 10u + first[path];
                c->moved[path] = !mani_FbxSameFloats(v, rv + first[path], width[path]);
            }
            nc += c->moved[path];
        }
    }
    /* weight tracks: the targets of each morph set on a bone's model (or on a mesh whose skin has a
     * bone for a joint), of each channel whose DeformPercent the stack animates */
    uint32_t nw = 0, mostChannels = 0;
    const uint32_t sets = maniFbx_GetMorphCount(f);
    mani_FbxMorphWalk* walk = sets > 0 ? (mani_FbxMorphWalk*)mani_GbAlloc(&sc, sizeof *walk) : NULL;
    if (sets > 0 && walk == NULL) {
        mani_GbScratchFree(&sc);
        return MANI_FBX_NOMEM;
    }
    for (uint32_t m = 0; m < sets; m++) {
        if (!mani_FbxClipMorphIsOurs(f, cb, bones, maniFbx_GetMorphModel(f, m)) || !mani_FbxMorphWalkStart(f, m, walk))
            continue;
        for (;;) {
            r = mani_FbxMorphWalkNext(f, walk, NULL, NULL);
            if (r.result != mani_success) {
                mani_GbScratchFree(&sc);
                return r;
            }
            if (walk->channel == MANI_FBX_NONE) break;
            if (walk->targets == 0) continue;
            if (walk->built + 1u > mostChannels) mostChannels = walk->built + 1u;
            if (mani_FbxClipAnimates(f, &d, walk)) nw += walk->targets;
        }
    }
    char* channelNames = NULL;
    const char** earlierNames = NULL;
    size_t* earlierLengths = NULL;
    float* targetWeights = NULL;
    if (nw > 0) {
        channelNames = (char*)mani_GbAlloc(&sc, (size_t)mostChannels * (MANI_FBX_MORPH_NAME_ROOM + sizeof(char*) +
                                                                         sizeof(size_t)) +
                                                    (MANI_FBX_MORPH_MAX_FULL + 1u) * sizeof(float) + 16u);
        if (channelNames == NULL) {
            mani_GbScratchFree(&sc);
            return MANI_FBX_NOMEM;
        }
        earlierNames = (const char**)(void*)channelNames;
        earlierLengths = (size_t*)(void*)(channelNames + (size_t)mostChannels * sizeof(char*));
        targetWeights = (float*)(void*)(channelNames + (size_t)mostChannels * (sizeof(char*) + sizeof(size_t)));
        channelNames = (char*)(targetWeights + MANI_FBX_MORPH_MAX_FULL + 1u);
    }
    /* float tracks: other numbers of the bones' models */
    uint32_t nt = 0;
    for (uint32_t q = 0; q < d.propCount; q++) {
        mani_FbxAnimProp* a = &d.props[q];
        if (a->kind != MANI_FBX_NONE || a->weight || mani_FbxIsIntegerInput(a->name, a->nameLength)) continue;
        int isBone = 0;
        for (uint32_t b = 0; b < bones && !isBone; b++) isBone = cb[b].model == a->model && !cb[b].helper;
        if (!isBone) continue;
        int seen = 0; /* one track set per property over the layers */
        for (uint32_t e = 0; e < q && !seen; e++)
            seen = d.props[e].track != MANI_FBX_NONE && d.props[e].model == a->model &&
                   d.props[e].nameLength == a->nameLength && memcmp(d.props[e].name, a->name, a->nameLength) == 0;
        if (seen) continue;
        a->track = nt;
        nt += a->components;
    }
    nt += nw;
    maniClipSourceChannel* sch = (maniClipSourceChannel*)mani_GbAlloc(&sc, ((size_t)nc + 1) * sizeof *sch);
    float* packed = (float*)mani_GbAlloc(&sc, ((size_t)nc * samples * 4u + 1) * sizeof(float));
    maniClipSourceFloatTrack* sft = (maniClipSourceFloatTrack*)mani_GbAlloc(&sc, ((size_t)nt + 1) * sizeof *sft);
    float* trackValues = (float*)mani_GbAlloc(&sc, ((size_t)nt * samples + 1) * sizeof(float));
    char* names = (char*)mani_GbAlloc(&sc, ((size_t)nt + 1) * (MANI_MAX_NAME_BYTES + 16));
    if (sch == NULL || packed == NULL || sft == NULL || trackValues == NULL || names == NULL) {
        mani_GbScratchFree(&sc);
        return MANI_FBX_NOMEM;
    }
    uint32_t ci = 0, boundBones = 0;
    size_t at = 0;
    for (uint32_t b = 0; b < bones; b++) {
        const mani_FbxClipBone* c = &cb[b];
        if (c->model == MANI_FBX_NONE) continue;
        static const int first[3] = {0, 3, 7}, width[3] = {3, 4, 3};
        boundBones += c->moved[0] | c->moved[1] | c->moved[2];
        for (int path = 0; path < 3; path++) {
            if (!c->moved[path]) continue;
            float* dst = packed + at;
            for (uint32_t k = 0; k < samples; k++)
                memcpy(dst + (size_t)k * width[path], values + ((size_t)b * samples + k) * 10u + first[path],
                       sizeof(float) * (size_t)width[path]);
            at += (size_t)samples * width[path];
            maniClipSourceChannel* ch = &sch[ci++];
            ch->bone = b;
            ch->path = (uint32_t)path;
            ch->interpolation = maniInterpolationLinear;
            ch->keyCount = samples;
            ch->times = times;
            ch->values = dst;
        }
    }
    uint32_t ti = 0;
    for (uint32_t q = 0; q < d.propCount; q++) {
        const mani_FbxAnimProp* a = &d.props[q];
        if (a->track == MANI_FBX_NONE) continue;
        /* the model's own value as the base, else the first layer's default */
        double base[3] = {a->defaults[0], a->defaults[1], a->defaults[2]};
        for (uint32_t k = 0; k < samples; k++) {
            double v[3] = {base[0], base[1], base[2]};
            mani_FbxBlendProp(&d, a->model, MANI_FBX_NONE, a->name, a->nameLength, seconds[k], v, a->components, 0);
            for (uint32_t c = 0; c < a->components; c++) {
                if (!isfinite(v[c])) {
                    mani_GbScratchFree(&sc);
                    return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, clip, 0);
                }
                trackValues[(size_t)(a->track + c) * samples + k] = (float)v[c];
            }
        }
        const mani_FbxModel* model = &f->models[a->model];
        for (uint32_t c = 0; c < a->components; c++) {
            char* name = names + (size_t)(a->track + c) * (MANI_MAX_NAME_BYTES + 16);
            size_t len = (size_t)model->boneNameLength + 1u + a->nameLength + (a->components > 1 ? 2u : 0u);
            if (len > MANI_MAX_NAME_BYTES) {
                const uint32_t refusedModel = a->model; /* a is in the scratch */
                mani_GbScratchFree(&sc);
                return mani_GbImportResult(mani_errorFormat, maniImportReasonName, refusedModel, 0);
            }
            memcpy(name, model->boneName, model->boneNameLength);
            name[model->boneNameLength] = '/';
            memcpy(name + model->boneNameLength + 1, a->name, a->nameLength);
            if (a->components > 1) {
                name[len - 2] = '/';
                name[len - 1] = (char)('0' + c);
            }
            for (uint32_t j = 0; j < ti; j++)
                if (sft[j].nameLength == len && memcmp(sft[j].name, name, len) == 0) {
                    const uint32_t refusedModel = a->model; /* a is in the scratch */
                    mani_GbScratchFree(&sc);
                    return mani_GbImportResult(mani_errorFormat, maniImportReasonName, refusedModel, 0);
                }
            maniClipSourceFloatTrack* t = &sft[ti++];
            t->name = name;
            t->nameLength = len;
            t->interpolation = maniInterpolationLinear;
            t->keyCount = samples;
            t->times = times;
            t->values = trackValues + (size_t)(a->track + c) * samples;
        }
    }
    /* the weight tracks' values and names, in set, channel and target order */
    for (uint32_t m = 0; m < sets && nw > 0; m++) {
        const uint32_t model = maniFbx_GetMorphModel(f, m);
        if (!mani_FbxClipMorphIsOurs(f, cb, bones, model) || !mani_FbxMorphWalkStart(f, m, walk)) continue;
        const mani_FbxModel* mm = &f->models[model];
        for (;;) {
            r = mani_FbxMorphWalkNext(f, walk, earlierNames, earlierLengths);
            if (r.result != mani_success || walk->channel == MANI_FBX_NONE) break;
            if (walk->targets == 0) continue;
            char* room = channelNames + (size_t)walk->built * MANI_FBX_MORPH_NAME_ROOM;
            const size_t kept = walk->nameLength <= MANI_FBX_MORPH_NAME_ROOM ? walk->nameLength : 0;
            if (kept) memcpy(room, walk->name, kept);
            earlierNames[walk->built] = room;
            earlierLengths[walk->built] = kept;
            if (!mani_FbxClipAnimates(f, &d, walk)) continue;
            const uint32_t owner = mani_FbxClipOwnerKey(f, walk->owner);
            for (uint32_t k = 0; k < samples; k++) {
                double v = walk->restPercent;
                mani_FbxBlendProp(&d, owner, MANI_FBX_NONE, walk->property, walk->propertyLength, seconds[k], &v, 1,
                                  0);
                if (!isfinite(v)) {
                    mani_GbScratchFree(&sc);
                    return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, clip, 0);
                }
                mani_FbxMorphWalkWeights(walk, (double)(float)(v / 100.0), targetWeights);
                for (uint32_t t = 0; t < walk->targets; t++)
                    trackValues[(size_t)(ti + t) * samples + k] = targetWeights[t];
            }
            for (uint32_t t = 0; t < walk->targets; t++) {
                char* name = names + (size_t)ti * (MANI_MAX_NAME_BYTES + 16);
                char target[MANI_MAX_NAME_BYTES + 1u];
                const size_t tl = mani_FbxMorphTargetName(f, walk, t, target);
                const size_t len = (size_t)mm->boneNameLength + 1u + tl;
                int repeated = 0;
                if (len <= MANI_MAX_NAME_BYTES) {
                    memcpy(name, mm->boneName, mm->boneNameLength);
                    name[mm->boneNameLength] = '/';
                    memcpy(name + mm->boneNameLength + 1, target, tl);
                    for (uint32_t j = 0; j < ti && !repeated; j++)
                        repeated = sft[j].nameLength == len && memcmp(sft[j].name, name, len) == 0;
                }
                if (len > MANI_MAX_NAME_BYTES || repeated) {
                    mani_GbScratchFree(&sc);
                    return mani_GbImportResult(mani_errorFormat, maniImportReasonName, model, 0);
                }
                maniClipSourceFloatTrack* tr = &sft[ti];
                tr->name = name;
                tr->nameLength = len;
                tr->interpolation = maniInterpolationLinear;
                tr->keyCount = samples;
                tr->times = times;
                tr->values = trackValues + (size_t)ti * samples;
                ti++;
            }
        }
        if (r.result != mani_success) {
            mani_GbScratchFree(&sc);
            return r;
        }
    }

    maniBuildResult br;
    if (!mani_GbBuildImportedClip(builder, skeleton, times[samples - 1], (float)rate, clipOptions, sch, ci, sft, ti,
                                  &br)) {
        mani_GbScratchFree(&sc);
        return mani_GbImportResult(mani_errorFormat, maniImportReasonBuild, maniBuildReasonRootMotion, 0);
    }
    mani_GbScratchFree(&sc);
    if (br.result == mani_success && boundOut != NULL) *boundOut = boundBones;
    return mani_GbFromBuild(br);
}
