/* import.h's FBX morph targets: the sets (BlendShape deformers, then before
 * 7.2 the meshes holding Shape children), their mesh models, their targets
 * (each channel's shapes at FullWeights / 100, sorted, a shape after another
 * of the same full weight left out), maniBuildFbxMorphTargets through
 * maniBuildMorphTargets and the rest weights (maniFbx_GetMorphWeights).
 *
 * 7.2 and later: Geometry (mesh) <- Deformer "BlendShape" <- Deformer
 * "BlendShapeChannel" (DeformPercent, FullWeights) <- Geometry "Shape"
 * (Indexes, Vertices, Normals), linked by connections. Before: Shape records
 * inside the mesh record (the Geometry in 7.0 and 7.1, the Model before 7),
 * each its own channel of one shape at full weight 1, its DeformPercent the
 * mesh's property named as the shape. Blender's binary exporter (as ufbx
 * tells it by FBXHeaderExtension/Creator: "Blender", then "- x.y.z" after a
 * second '-', or "- x.y" after the first) writes per-vertex weights
 * (percent) as FullWeights, one per Indexes entry: in its files every shape
 * is at full weight 1, and a shape i whose Indexes are as many as FullWeights
 * has them (past i: none) folded into its offsets. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/fbx/fbx_build_internal.h"

static maniImportResult mani_FbxMorphResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset) {
    return mani_GbImportResult(result, reason, item, offset);
}

static int mani_FbxMorphNamed(const maniFbx* f, uint32_t node, const char* name) {
    size_t n = strlen(name);
    return node < f->nodeCount && f->nodes[node].nameLength == n &&
           memcmp(f->bytes + f->nodes[node].nameOffset, name, n) == 0;
}

/* Whether a record's last string property is the text (an object's subclass). */
static int mani_FbxMorphSubclassIs(const maniFbx* f, uint32_t node, const char* text) {
    const char* last = NULL;
    uint32_t lastLength = 0;
    for (uint32_t k = 0; k < f->nodes[node].propCount; k++) {
        uint32_t n;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, node, k), &n);
        if (s != NULL) {
            last = s;
            lastLength = n;
        }
    }
    return last != NULL && lastLength == strlen(text) && memcmp(last, text, lastLength) == 0;
}

/* An object's name without its class (as models' names are read): the first
 * string, cut at binary's "\0\1" or after ASCII's "Class::". */
static const char* mani_FbxMorphName(const maniFbx* f, uint32_t node, uint32_t* length) {
    *length = 0;
    for (uint32_t k = 0; k < f->nodes[node].propCount; k++) {
        uint32_t n;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, node, k), &n);
        if (s == NULL) continue;
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
    return NULL;
}

/* Digits at *at (advanced past them); 0 when none. */
static int mani_FbxDigits(const char* s, uint32_t n, uint32_t* at) {
    uint32_t start = *at;
    while (*at < n && s[*at] >= '0' && s[*at] <= '9') (*at)++;
    return *at > start;
}

/* Whether "x.y" (dots digits dots) starts at at, after spaces and tabs; dots 1 or 2. */
static int mani_FbxVersionAt(const char* s, uint32_t n, uint32_t at, int dots) {
    while (at < n && (s[at] == ' ' || s[at] == '\t')) at++;
    if (!mani_FbxDigits(s, n, &at)) return 0;
    for (int d = 0; d < dots; d++) {
        if (at >= n || s[at] != '.') return 0;
        at++;
        if (!mani_FbxDigits(s, n, &at)) return 0;
    }
    return 1;
}

/* Whether Blender's binary exporter wrote the file (its per-vertex FullWeights). */
static int mani_FbxBlenderBinary(const maniFbx* f) {
    uint32_t n = 0;
    const uint32_t header = mani_FbxFind(f, MANI_FBX_NONE, "FBXHeaderExtension");
    const char* s = header != MANI_FBX_NONE
                        ? mani_FbxPropString(f, mani_FbxGetProp(f, mani_FbxFind(f, header, "Creator"), 0), &n)
                        : NULL;
    const char* word = "blender";
    if (s == NULL || n < 7) return 0;
    for (uint32_t i = 0; i < 7; i++)
        if (s[i] != word[i] && s[i] + ('a' - 'A') != word[i]) return 0;
    uint32_t at = 7;
    while (at < n && s[at] != '-') at++;
    if (at >= n) return 0;
    const uint32_t first = ++at;
    while (at < n && s[at] != '-') at++;
    if (at < n && mani_FbxVersionAt(s, n, at + 1, 2)) return 1;
    return mani_FbxVersionAt(s, n, first, 1);
}

/* -- Sets ---------------------------------------------------------------------------------- */

typedef struct mani_FbxMorphSet {
    uint32_t node;   /* the BlendShape Deformer, or the legacy mesh record holding Shape children */
    uint32_t mesh;   /* the record holding the control points, MANI_FBX_NONE for none */
    uint32_t legacy; /* 1 for Shape children */
} mani_FbxMorphSet;

static int mani_FbxHasShapes(const maniFbx* f, uint32_t node) {
    return (mani_FbxMorphNamed(f, node, "Geometry") || mani_FbxMorphNamed(f, node, "Model")) &&
           mani_FbxFind(f, node, "Shape") != MANI_FBX_NONE;
}

/* The first object a link from child goes to whose record is named parentName. */
static uint32_t mani_FbxMorphLinkUp(const maniFbx* f, uint32_t child, const char* parentName) {
    for (uint32_t l = 0; l < f->linkCount; l++)
        if (f->objects[f->links[l].child] == child && mani_FbxMorphNamed(f, f->objects[f->links[l].parent], parentName))
            return f->objects[f->links[l].parent];
    return MANI_FBX_NONE;
}

/* Counts the sets; fills *out with set want when it is there. */
static uint32_t mani_FbxMorphSets(const maniFbx* f, uint32_t want, mani_FbxMorphSet* out) {
    uint32_t count = 0;
    for (uint32_t o = 0; o < f->objectCount; o++) {
        uint32_t node = f->objects[o];
        if (!mani_FbxMorphNamed(f, node, "Deformer") || !mani_FbxMorphSubclassIs(f, node, "BlendShape")) continue;
        if (count++ == want && out != NULL) {
            out->node = node;
            out->mesh = mani_FbxMorphLinkUp(f, node, "Geometry");
            out->legacy = 0;
        }
    }
    if (f->version < 7200)
        for (uint32_t o = 0; o < f->objectCount; o++) {
            uint32_t node = f->objects[o];
            if (!mani_FbxHasShapes(f, node)) continue;
            if (count++ == want && out != NULL) {
                out->node = node;
                out->mesh = node;
                out->legacy = 1;
            }
        }
    return count;
}

static int mani_FbxMorphSetOf(const maniFbx* f, uint32_t morph, mani_FbxMorphSet* out) {
    if (f == NULL || f->closing || f->objects == NULL) return 0;
    return morph < mani_FbxMorphSets(f, morph, out);
}

uint32_t maniFbx_GetMorphCount(const maniFbx* fbx) {
    if (fbx == NULL || fbx->closing || fbx->objects == NULL) return 0;
    return mani_FbxMorphSets(fbx, UINT32_MAX, NULL);
}

uint32_t maniFbx_GetMorphModel(const maniFbx* fbx, uint32_t morph) {
    mani_FbxMorphSet set;
    if (!mani_FbxMorphSetOf(fbx, morph, &set) || set.mesh == MANI_FBX_NONE) return UINT32_MAX;
    /* a mesh record that is a Model (6.x) is its own model; a Geometry's is the first model it links to */
    for (uint32_t m = 0; m < fbx->modelCount; m++)
        if (fbx->models[m].node == set.mesh) return m;
    for (uint32_t l = 0; l < fbx->linkCount; l++)
        if (fbx->objects[fbx->links[l].child] == set.mesh && fbx->objectModel[fbx->links[l].parent] != MANI_FBX_NONE)
            return fbx->objectModel[fbx->links[l].parent];
    return UINT32_MAX;
}

/* -- Channels and their targets ------------------------------------------------------------ */

/* The channels of a set in order: its BlendShapeChannel deformers as linked,
 * or the mesh's Shape records. Returns the record of channel index (scan
 * from cursor: *cursor MANI_FBX_NONE starts) or MANI_FBX_NONE past the last. */
static uint32_t mani_FbxNextChannel(const maniFbx* f, const mani_FbxMorphSet* set, uint32_t* cursor) {
    if (set->legacy) {
        uint32_t c = *cursor == MANI_FBX_NONE ? mani_FbxFind(f, set->node, "Shape") : mani_FbxFindNext(f, *cursor);
        *cursor = c;
        return c;
    }
    for (uint32_t l = *cursor == MANI_FBX_NONE ? 0 : *cursor + 1; l < f->linkCount; l++)
        if (f->objects[f->links[l].parent] == set->node && mani_FbxMorphNamed(f, f->objects[f->links[l].child], "Deformer")) {
            *cursor = l;
            return f->objects[f->links[l].child];
        }
    *cursor = f->linkCount;
    return MANI_FBX_NONE;
}

/* A shape record counts when it has Indexes and Vertices (as ufbx reads one). */
static int mani_FbxIsShape(const maniFbx* f, uint32_t node) {
    return mani_FbxFind(f, node, "Indexes") != MANI_FBX_NONE && mani_FbxFind(f, node, "Vertices") != MANI_FBX_NONE;
}

/* A channel's shape i (connection order), MANI_FBX_NONE past the last; *count
 * (when not NULL) the shape count. */
static uint32_t mani_FbxChannelShape(const maniFbx* f, int legacy, uint32_t channel, uint32_t i, uint32_t* count) {
    if (legacy) {
        int is = mani_FbxIsShape(f, channel);
        if (count != NULL) *count = is ? 1u : 0u;
        return is && i == 0 ? channel : MANI_FBX_NONE;
    }
    uint32_t n = 0, found = MANI_FBX_NONE;
    for (uint32_t l = 0; l < f->linkCount; l++) {
        uint32_t child = f->objects[f->links[l].child];
        if (f->objects[f->links[l].parent] != channel || !mani_FbxMorphNamed(f, child, "Geometry") ||
            !mani_FbxIsShape(f, child))
            continue;
        if (n == i) {
            found = child;
            if (count == NULL) return found;
        }
        n++;
    }
    if (count != NULL) *count = n;
    return found;
}


/* What a channel gives: its shapes, their full weights (FullWeights[i] / 100,
 * 1 past the array), the distinct ones sorted (the targets), per-vertex
 * weights. */
typedef struct mani_FbxChannel {
    uint32_t node;
    uint32_t shapes;
    uint32_t targets;
    uint32_t perVertex;   /* Blender: FullWeights are the values of shape 0's Indexes (its per-vertex weights) */
    uint32_t fullWeights; /* the FullWeights record, MANI_FBX_NONE for none */
    uint32_t fullCount;   /* its values read as full weights (0 with per-vertex weights) */
    double full[MANI_FBX_MORPH_MAX_FULL];
    double keys[MANI_FBX_MORPH_MAX_FULL + 1u]; /* the targets' full weights, increasing */
} mani_FbxChannel;

static double mani_FbxShapeFull(const mani_FbxChannel* c, uint32_t i) { return i < c->fullCount ? c->full[i] : 1.0; }

/* Reads a channel: Data (item the channel index, offset the array) for a
 * FullWeights that does not decode, holds a value not finite or is longer
 * than MANI_FBX_MORPH_MAX_FULL. */
static maniImportResult mani_FbxReadChannel(const maniFbx* f, int legacy, int blender, uint32_t node,
                                            uint32_t index, mani_FbxChannel* c) {
    c->node = node;
    c->targets = 0;
    c->perVertex = 0;
    c->fullCount = 0;
    (void)mani_FbxChannelShape(f, legacy, node, 0, &c->shapes);
    c->fullWeights = legacy ? MANI_FBX_NONE : mani_FbxFind(f, node, "FullWeights");
    if (c->shapes == 0) return mani_FbxMorphResult(mani_success, 0, 0, 0);
    const uint32_t k = c->fullWeights != MANI_FBX_NONE ? mani_FbxArrayCount(f, c->fullWeights) : 0;
    if (blender) {
        /* every shape at 1: the first is the channel's one target */
        uint32_t shape = mani_FbxChannelShape(f, legacy, node, 0, NULL);
        c->perVertex = k != 0 && mani_FbxArrayCount(f, mani_FbxFind(f, shape, "Indexes")) == k;
    } else if (k != 0) {
        const mani_FbxProp* p = mani_FbxGetProp(f, c->fullWeights, 0);
        const uint64_t at = p != NULL ? p->offset : f->nodes[c->fullWeights].offset;
        if (k > MANI_FBX_MORPH_MAX_FULL) return mani_FbxMorphResult(mani_errorFormat, maniImportReasonData, index, at);
        maniImportResult r = mani_FbxReadArray(f, c->fullWeights, c->full, k);
        if (r.result != mani_success) return r;
        for (uint32_t i = 0; i < k; i++) {
            if (!isfinite(c->full[i])) return mani_FbxMorphResult(mani_errorFormat, maniImportReasonData, index, at);
            c->full[i] /= 100.0;
        }
        c->fullCount = k;
    }
    /* the distinct full weights, increasing: at most fullCount + 1 (every shape past the array is at 1) */
    for (uint32_t i = 0; i < c->shapes && i <= c->fullCount; i++) {
        const double w = mani_FbxShapeFull(c, i);
        uint32_t at = 0;
        while (at < c->targets && c->keys[at] < w) at++;
        if (at < c->targets && c->keys[at] == w) continue;
        memmove(&c->keys[at + 1], &c->keys[at], (size_t)(c->targets - at) * sizeof(double));
        c->keys[at] = w;
        c->targets++;
    }
    return mani_FbxMorphResult(mani_success, 0, 0, 0);
}

/* The shape a target (a distinct full weight) takes: the first at it (one
 * pass over the links). */
static uint32_t mani_FbxTargetShape(const maniFbx* f, int legacy, const mani_FbxChannel* c, uint32_t target) {
    if (legacy) return mani_FbxChannelShape(f, legacy, c->node, 0, NULL);
    uint32_t i = 0;
    for (uint32_t l = 0; l < f->linkCount; l++) {
        uint32_t child = f->objects[f->links[l].child];
        if (f->objects[f->links[l].parent] != c->node || !mani_FbxMorphNamed(f, child, "Geometry") ||
            !mani_FbxIsShape(f, child))
            continue;
        if (mani_FbxShapeFull(c, i) == c->keys[target]) return child;
        i++;
    }
    return MANI_FBX_NONE;
}

uint32_t maniFbx_GetMorphTargetCount(const maniFbx* fbx, uint32_t morph) {
    mani_FbxMorphSet set;
    if (!mani_FbxMorphSetOf(fbx, morph, &set)) return 0;
    mani_FbxChannel c;
    const int blender = mani_FbxBlenderBinary(fbx);
    uint32_t count = 0, cursor = MANI_FBX_NONE, index = 0;
    for (uint32_t ch = mani_FbxNextChannel(fbx, &set, &cursor); ch != MANI_FBX_NONE;
         ch = mani_FbxNextChannel(fbx, &set, &cursor), index++)
        if (mani_FbxReadChannel(fbx, (int)set.legacy, blender, ch, index, &c).result == mani_success) count += c.targets;
    return count;
}

/* A channel's DeformPercent: its Properties70 / Properties60 property (as
 * ufbx reads it: a plain DeformPercent record, which Blender writes, is not
 * a property); before 7.2 the mesh's property named as the shape; 0 when
 * absent or not a finite number. */
static double mani_FbxDeformPercent(const maniFbx* f, const mani_FbxMorphSet* set, uint32_t channel) {
    double v = 0.0;
    uint32_t at = 0;
    if (set->legacy) {
        uint32_t n;
        const char* name = mani_FbxPropString(f, mani_FbxGetProp(f, channel, 0), &n);
        char key[MANI_MAX_NAME_BYTES + 1u];
        if (name == NULL || n > MANI_MAX_NAME_BYTES || memchr(name, 0, n) != NULL) return 0.0;
        memcpy(key, name, n);
        key[n] = 0;
        uint32_t e = mani_FbxFindSetting(f, mani_FbxPropertiesOf(f, set->mesh), key, &at);
        if (e != MANI_FBX_NONE && mani_FbxPropDouble(f, mani_FbxGetProp(f, e, at), &v) && isfinite(v)) return v;
        return 0.0;
    }
    uint32_t e = mani_FbxFindSetting(f, mani_FbxPropertiesOf(f, channel), "DeformPercent", &at);
    if (e != MANI_FBX_NONE && mani_FbxPropDouble(f, mani_FbxGetProp(f, e, at), &v) && isfinite(v)) return v;
    return 0.0;
}

/* A channel's keys: its targets' full weights with an implicit zero shape
 * (target -1) where it falls, increasing; returns their count. */
static uint32_t mani_FbxChannelKeys(const mani_FbxChannel* c, double* keys, int32_t* target) {
    uint32_t n = 0;
    for (uint32_t t = 0; t < c->targets; t++) {
        if (n == t && c->keys[t] > 0.0) { /* the zero shape before the first positive key */
            keys[n] = 0.0;
            target[n++] = -1;
        }
        keys[n] = c->keys[t];
        target[n++] = (int32_t)t;
    }
    if (n == c->targets) {
        keys[n] = 0.0;
        target[n++] = -1;
    }
    return n;
}

/* The targets' weights (targets of them in out) for a channel weight w,
 * walked through the keys as maniMorphTargets_ComputeTargetWeights walks
 * them: the pair around w (the first or last pair outside the keys), each
 * of its two targets weighted by the distance to the other. */
static void mani_FbxWalkKeys(const double* keys, const int32_t* target, uint32_t n, uint32_t targets, double w,
                             float* out) {
    uint32_t pair = 0; /* keys pair, pair + 1 */
    if (w >= keys[n - 1]) pair = n - 2;
    else
        for (uint32_t i = 0; i + 1 < n; i++)
            if (keys[i] <= w && w <= keys[i + 1]) {
                pair = i;
                break;
            }
    for (uint32_t t = 0; t < targets; t++) out[t] = 0.0f;
    const double a = keys[pair], b = keys[pair + 1];
    const double span = b - a;
    const double wb = span != 0.0 ? (w - a) / span : 1.0;
    const double wa = span != 0.0 ? (b - w) / span : 0.0;
    if (target[pair] >= 0) out[(uint32_t)target[pair]] = (float)wa;
    if (target[pair + 1] >= 0) out[(uint32_t)target[pair + 1]] = (float)wb;
}

maniImportResult maniFbx_GetMorphWeights(const maniFbx* fbx, uint32_t morph, float* weightsOut, uint32_t capacity,
                                         uint32_t* countOut) {
    mani_FbxMorphSet set;
    if (fbx == NULL || fbx->closing || (weightsOut == NULL && capacity > 0) || !mani_FbxMorphSetOf(fbx, morph, &set))
        return mani_FbxMorphResult(mani_errorInvalid, 0, 0, 0);
    mani_FbxChannel c;
    double keys[MANI_FBX_MORPH_MAX_FULL + 2u];
    int32_t keyTarget[MANI_FBX_MORPH_MAX_FULL + 2u];
    const int blender = mani_FbxBlenderBinary(fbx);
    uint32_t count = 0, cursor = MANI_FBX_NONE, index = 0;
    for (uint32_t ch = mani_FbxNextChannel(fbx, &set, &cursor); ch != MANI_FBX_NONE;
         ch = mani_FbxNextChannel(fbx, &set, &cursor), index++) {
        maniImportResult r = mani_FbxReadChannel(fbx, (int)set.legacy, blender, ch, index, &c);
        if (r.result != mani_success) return r;
        count += c.targets;
    }
    if (countOut != NULL) *countOut = count;
    if (capacity < count) {
        if (capacity > 0) memset(weightsOut, 0, (size_t)capacity * sizeof(float));
        return mani_FbxMorphResult(mani_errorCapacity, 0, 0, 0);
    }
    uint32_t out = 0;
    cursor = MANI_FBX_NONE;
    index = 0;
    for (uint32_t ch = mani_FbxNextChannel(fbx, &set, &cursor); ch != MANI_FBX_NONE;
         ch = mani_FbxNextChannel(fbx, &set, &cursor), index++) {
        (void)mani_FbxReadChannel(fbx, (int)set.legacy, blender, ch, index, &c);
        if (c.targets == 0) continue;
        /* the channel weight as a clip's weight track holds it */
        uint32_t n = mani_FbxChannelKeys(&c, keys, keyTarget);
        mani_FbxWalkKeys(keys, keyTarget, n, c.targets, (double)(float)(mani_FbxDeformPercent(fbx, &set, ch) / 100.0),
                         weightsOut + out);
        out += c.targets;
    }
    return mani_FbxMorphResult(mani_success, 0, 0, 0);
}

/* -- The build ----------------------------------------------------------------------------- */

/* A shape's arrays: counts checked (Property, item the channel index, offset
 * the shape's record, for Vertices not three per Indexes entry or Normals of
 * another count than Vertices). */
static maniImportResult mani_FbxShapeArrays(const maniFbx* f, uint32_t shape, uint32_t index, uint32_t* indexes,
                                            uint32_t* normals) {
    if (shape >= f->nodeCount) return mani_FbxMorphResult(mani_errorFormat, maniImportReasonProperty, index, 0);
    uint32_t in = mani_FbxFind(f, shape, "Indexes"), vn = mani_FbxFind(f, shape, "Vertices");
    uint32_t nn = mani_FbxFind(f, shape, "Normals");
    uint32_t ni = mani_FbxArrayCount(f, in), nv = mani_FbxArrayCount(f, vn);
    uint32_t nc = nn != MANI_FBX_NONE ? mani_FbxArrayCount(f, nn) : 0;
    if ((uint64_t)ni * 3u != nv || (nn != MANI_FBX_NONE && nc != nv))
        return mani_FbxMorphResult(mani_errorFormat, maniImportReasonProperty, index, f->nodes[shape].offset);
    *indexes = ni;
    *normals = nn != MANI_FBX_NONE ? 1u : 0u;
    return mani_FbxMorphResult(mani_success, 0, 0, 0);
}

/* Reads an array record into scratch doubles (at least one entry allocated). */
static maniImportResult mani_FbxMorphArray(const maniFbx* f, uint32_t node, double* out, uint32_t count) {
    if (count == 0) return mani_FbxMorphResult(mani_success, 0, 0, 0);
    return mani_FbxReadArray(f, node, out, count);
}


/* A channel's built name into room (MANI_FBX_MORPH_NAME_ROOM bytes): its
 * object's name (at most MANI_MAX_NAME_BYTES), '#' and its index (built,
 * among the channels with targets) appended while one of the earlier built
 * names has it; returns its length. */
static size_t mani_FbxChannelBuiltName(const char* name, uint32_t n, const char* const* earlierNames,
                                       const size_t* earlierLengths, uint32_t built, char* room) {
    size_t length = name != NULL && n <= MANI_MAX_NAME_BYTES ? n : 0;
    if (length) memcpy(room, name, length);
    for (;;) {
        int taken = 0;
        for (uint32_t i = 0; i < built && !taken; i++)
            taken = earlierLengths[i] == length && (length == 0 || memcmp(earlierNames[i], room, length) == 0);
        if (length == 0 || !taken || length + 12u > MANI_FBX_MORPH_NAME_ROOM) break;
        /* name#index, again until no earlier channel has it */
        char digits[10];
        uint32_t d = 0, v = built;
        do {
            digits[d++] = (char)('0' + v % 10u);
            v /= 10u;
        } while (v != 0);
        room[length++] = '#';
        while (d > 0) room[length++] = digits[--d];
    }
    return length;
}

maniImportResult maniBuildFbxMorphTargets(maniBuilder* builder, const maniFbx* fbx, uint32_t morph,
                                          const maniFbxOptions* options) {
    if (builder == NULL) return mani_FbxMorphResult(mani_errorInvalid, 0, 0, 0);
    maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_FbxMorphResult(entered, 0, 0, 0);
    mani_FbxMorphSet set;
    if (fbx == NULL || fbx->closing || options == NULL || !mani_FbxMorphSetOf(fbx, morph, &set))
        return mani_GbMisuse(builder);
    mani_GbBasis basis;
    maniResult o = mani_FbxCheckOptions(fbx, options, &basis);
    if (o != mani_success) {
        builder->misuse++;
        return mani_FbxMorphResult(o, 0, 0, 0);
    }
    const uint32_t verticesNode = set.mesh != MANI_FBX_NONE ? mani_FbxFind(fbx, set.mesh, "Vertices") : MANI_FBX_NONE;
    uint32_t vertices = 0;
    const maniImportResult points = mani_FbxControlPoints(builder, fbx, verticesNode, &vertices);
    if (points.result != mani_success)
        return mani_FbxMorphResult(points.result, points.reason, points.result == mani_errorFormat ? morph : 0, points.offset);
    if (vertices == 0)
        return mani_FbxMorphResult(mani_errorFormat, maniImportReasonProperty, morph,
                                   fbx->nodes[set.mesh != MANI_FBX_NONE ? set.mesh : set.node].offset);
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    mani_FbxChannel* c = (mani_FbxChannel*)mani_GbAlloc(&sc, sizeof(mani_FbxChannel));
    if (c == NULL) {
        mani_GbScratchFree(&sc);
        return mani_FbxMorphResult(mani_errorCapacity, 0, 0, 0);
    }
    /* pass 1: the sizes (and every refusal of the arrays' counts) */
    const int legacy = (int)set.legacy;
    const int blender = mani_FbxBlenderBinary(fbx);
    uint32_t channels = 0, targets = 0, anyNormals = 0, index = 0, cursor = MANI_FBX_NONE;
    uint64_t entries = 0, largest = 0;
    maniImportResult r = mani_FbxMorphResult(mani_success, 0, 0, 0);
    for (uint32_t ch = mani_FbxNextChannel(fbx, &set, &cursor); ch != MANI_FBX_NONE && r.result == mani_success;
         ch = mani_FbxNextChannel(fbx, &set, &cursor), index++) {
        r = mani_FbxReadChannel(fbx, legacy, blender, ch, index, c);
        if (r.result != mani_success || c->targets == 0) continue;
        channels++;
        for (uint32_t t = 0; t < c->targets && r.result == mani_success; t++) {
            uint32_t ni, normals;
            r = mani_FbxShapeArrays(fbx, mani_FbxTargetShape(fbx, legacy, c, t), index, &ni, &normals);
            targets++;
            anyNormals |= normals;
            entries += ni;
            if (ni > largest) largest = ni;
        }
    }
    if (r.result == mani_success && (entries > 0x3FFFFFFFu || largest > 0x3FFFFFFFu))
        r = mani_FbxMorphResult(mani_errorCapacity, 0, 0, 0);
    if (r.result != mani_success) {
        mani_GbScratchFree(&sc);
        return r;
    }
    const uint32_t attributes = anyNormals ? 2u : 1u;
    maniMorphSourceChannel* src = (maniMorphSourceChannel*)mani_GbAlloc(&sc, (size_t)(channels ? channels : 1) * sizeof *src);
    maniMorphSourceTarget* tgt = (maniMorphSourceTarget*)mani_GbAlloc(&sc, (size_t)(targets ? targets : 1) * sizeof *tgt);
    char* names = (char*)mani_GbAlloc(&sc, (size_t)(channels ? channels : 1) * MANI_FBX_MORPH_NAME_ROOM);
    uint32_t* indices = (uint32_t*)mani_GbAlloc(&sc, (size_t)(entries + 1u) * sizeof(uint32_t));
    float* deltas = (float*)mani_GbAlloc(&sc, (size_t)(entries + 1u) * 3u * attributes * sizeof(float));
    /* one shape's Indexes, Vertices, Normals and per-vertex weights */
    double* scratch = (double*)mani_GbAlloc(&sc, (size_t)(largest * 8u + 1u) * sizeof(double));
    const char** earlierNames = (const char**)mani_GbAlloc(&sc, (size_t)(channels ? channels : 1) * sizeof(char*));
    size_t* earlierLengths = (size_t*)mani_GbAlloc(&sc, (size_t)(channels ? channels : 1) * sizeof(size_t));
    if (src == NULL || tgt == NULL || names == NULL || indices == NULL || deltas == NULL || scratch == NULL ||
        earlierNames == NULL || earlierLengths == NULL) {
        mani_GbScratchFree(&sc);
        return mani_FbxMorphResult(mani_errorCapacity, 0, 0, 0);
    }
    /* pass 2: the source */
    uint32_t built = 0, made = 0;
    uint64_t used = 0;
    float* nextDelta = deltas;
    index = 0;
    cursor = MANI_FBX_NONE;
    for (uint32_t ch = mani_FbxNextChannel(fbx, &set, &cursor); ch != MANI_FBX_NONE && r.result == mani_success;
         ch = mani_FbxNextChannel(fbx, &set, &cursor), index++) {
        r = mani_FbxReadChannel(fbx, legacy, blender, ch, index, c);
        if (r.result != mani_success || c->targets == 0) continue;
        maniMorphSourceChannel* out = &src[built];
        uint32_t n = 0;
        const char* name = legacy ? mani_FbxPropString(fbx, mani_FbxGetProp(fbx, ch, 0), &n) : mani_FbxMorphName(fbx, ch, &n);
        char* room = names + (size_t)built * MANI_FBX_MORPH_NAME_ROOM;
        if (name != NULL && n > MANI_MAX_NAME_BYTES) { /* past the limit: the builder's refusal */
            out->name = name;
            out->nameLength = n;
        } else {
            out->name = room;
            out->nameLength = mani_FbxChannelBuiltName(name, n, earlierNames, earlierLengths, built, room);
        }
        earlierNames[built] = out->name;
        earlierLengths[built] = out->nameLength;
        out->targets = &tgt[made];
        out->targetCount = c->targets;
        for (uint32_t t = 0; t < c->targets && r.result == mani_success; t++) {
            const uint32_t shape = mani_FbxTargetShape(fbx, legacy, c, t);
            maniMorphSourceTarget* target = &tgt[made++];
            memset(target, 0, sizeof *target);
            uint32_t sn = 0;
            const char* shapeName = legacy ? name : mani_FbxMorphName(fbx, shape, &sn);
            if (legacy) sn = n;
            target->name = shapeName != NULL && sn != 0 ? shapeName : NULL;
            target->nameLength = shapeName != NULL ? sn : 0;
            target->fullWeight = (float)c->keys[t];
            uint32_t ni, normals;
            r = mani_FbxShapeArrays(fbx, shape, index, &ni, &normals);
            if (r.result != mani_success) break;
            double* idx = scratch;
            double* pos = scratch + ni;
            double* nor = pos + (size_t)ni * 3u;
            double* pv = nor + (size_t)ni * 3u;
            r = mani_FbxMorphArray(fbx, mani_FbxFind(fbx, shape, "Indexes"), idx, ni);
            if (r.result == mani_success) r = mani_FbxMorphArray(fbx, mani_FbxFind(fbx, shape, "Vertices"), pos, ni * 3u);
            if (r.result == mani_success && normals)
                r = mani_FbxMorphArray(fbx, mani_FbxFind(fbx, shape, "Normals"), nor, ni * 3u);
            if (r.result == mani_success && c->perVertex) {
                r = mani_FbxMorphArray(fbx, c->fullWeights, pv, ni);
                for (uint32_t i = 0; i < ni && r.result == mani_success; i++)
                    if (!isfinite(pv[i]))
                        r = mani_FbxMorphResult(mani_errorFormat, maniImportReasonData, index,
                                                mani_FbxGetProp(fbx, c->fullWeights, 0)->offset);
            }
            if (r.result != mani_success) break;
            uint32_t* ti = indices + used;
            float* tp = nextDelta;
            float* tn = normals ? tp + (size_t)ni * 3u : NULL;
            uint32_t kept = 0;
            for (uint32_t i = 0; i < ni; i++) {
                const double x = idx[i];
                if (!(x >= 0.0 && x < (double)vertices)) continue; /* past the control points: skipped */
                const double scale = c->perVertex ? pv[i] / 100.0 : 1.0;
                double v[3], out3[3];
                for (int k = 0; k < 3; k++) v[k] = pos[3u * i + (uint32_t)k] * scale;
                mani_GbBasisVector(&basis, v, out3);
                for (int k = 0; k < 3; k++) tp[3u * kept + (uint32_t)k] = (float)out3[k];
                if (normals) {
                    for (int k = 0; k < 3; k++) v[k] = nor[3u * i + (uint32_t)k] * scale;
                    mani_GbBasisDirection(&basis, v, out3);
                    for (int k = 0; k < 3; k++) tn[3u * kept + (uint32_t)k] = (float)out3[k];
                }
                ti[kept++] = (uint32_t)x;
            }
            target->indices = ti;
            target->count = kept;
            target->deltas[0] = tp;
            target->deltas[1] = tn;
            used += ni;
            nextDelta += (size_t)ni * 3u * (normals ? 2u : 1u);
        }
        built++;
    }
    if (r.result == mani_success) {
        maniMorphSourceAttribute attrs[2];
        attrs[0].semantic = maniMorphPosition;
        attrs[0].set = 0;
        attrs[1].semantic = maniMorphNormal;
        attrs[1].set = 0;
        maniMorphSource s;
        s.vertexCount = vertices;
        s.attributes = attrs;
        s.attributeCount = attributes;
        s.channels = src;
        s.channelCount = built;
        r = mani_GbFromBuild(maniBuildMorphTargets(builder, &s));
    }
    mani_GbScratchFree(&sc);
    return r;
}

/* -- Weight tracks (maniBuildFbxClip) ------------------------------------------------------- */

int mani_FbxMorphWalkStart(const maniFbx* f, uint32_t morph, mani_FbxMorphWalk* w) {
    mani_FbxMorphSet set;
    if (!mani_FbxMorphSetOf(f, morph, &set)) return 0;
    w->setNode = set.node;
    w->mesh = set.mesh;
    w->legacy = set.legacy;
    w->blender = (uint32_t)mani_FbxBlenderBinary(f);
    w->cursor = MANI_FBX_NONE;
    w->index = UINT32_MAX;
    w->built = 0;
    w->channel = MANI_FBX_NONE;
    w->targets = 0;
    return 1;
}

maniImportResult mani_FbxMorphWalkNext(const maniFbx* f, mani_FbxMorphWalk* w, const char* const* earlierNames,
                                       const size_t* earlierLengths) {
    mani_FbxMorphSet set;
    set.node = w->setNode;
    set.mesh = w->mesh;
    set.legacy = w->legacy;
    if (w->channel != MANI_FBX_NONE && w->targets > 0) w->built++;
    w->channel = mani_FbxNextChannel(f, &set, &w->cursor);
    w->index++;
    w->targets = 0;
    w->keyCount = 0;
    if (w->channel == MANI_FBX_NONE) return mani_FbxMorphResult(mani_success, 0, 0, 0);
    mani_FbxChannel c;
    maniImportResult r = mani_FbxReadChannel(f, (int)w->legacy, (int)w->blender, w->channel, w->index, &c);
    if (r.result != mani_success) return r;
    w->targets = c.targets;
    if (c.targets == 0) return r;
    w->keyCount = mani_FbxChannelKeys(&c, w->keys, w->keyTarget);
    w->restPercent = mani_FbxDeformPercent(f, &set, w->channel);
    for (uint32_t t = 0; t < c.targets; t++) w->shape[t] = mani_FbxTargetShape(f, (int)w->legacy, &c, t);
    uint32_t n = 0;
    const char* name = w->legacy ? mani_FbxPropString(f, mani_FbxGetProp(f, w->channel, 0), &n)
                                 : mani_FbxMorphName(f, w->channel, &n);
    if (w->legacy) {
        w->owner = w->mesh;
        w->property = name;
        w->propertyLength = name != NULL ? n : 0;
    } else {
        w->owner = w->channel;
        w->property = "DeformPercent";
        w->propertyLength = 13;
    }
    if ((name != NULL && n > MANI_MAX_NAME_BYTES) || earlierNames == NULL) { /* past the limit, or not asked */
        w->name = name;
        w->nameLength = name != NULL ? n : 0;
    } else {
        w->name = w->nameRoom;
        w->nameLength = mani_FbxChannelBuiltName(name, n, earlierNames, earlierLengths, w->built, w->nameRoom);
    }
    return r;
}

void mani_FbxMorphWalkWeights(const mani_FbxMorphWalk* w, double weight, float* out) {
    if (w->targets == 0) return;
    mani_FbxWalkKeys(w->keys, w->keyTarget, w->keyCount, w->targets, weight, out);
}

size_t mani_FbxMorphTargetName(const maniFbx* f, const mani_FbxMorphWalk* w, uint32_t t, char* out) {
    uint32_t sn = 0;
    const char* shapeName = NULL;
    if (w->legacy) {
        shapeName = w->property;
        sn = w->propertyLength;
    } else if (w->shape[t] != MANI_FBX_NONE) {
        shapeName = mani_FbxMorphName(f, w->shape[t], &sn);
    }
    /* a name past MANI_MAX_NAME_BYTES: its length only, for the caller's refusal */
    if (shapeName != NULL && sn != 0) {
        if (sn <= MANI_MAX_NAME_BYTES) memcpy(out, shapeName, sn);
        return sn;
    }
    char digits[10];
    uint32_t d = 0, v = t;
    if (t > 0) do {
            digits[d++] = (char)('0' + v % 10u);
            v /= 10u;
        } while (v != 0);
    const size_t length = w->nameLength + (t > 0 ? 1u + d : 0u);
    if (length > MANI_MAX_NAME_BYTES) return length;
    memcpy(out, w->name, w->nameLength);
    size_t at = w->nameLength;
    if (t > 0) {
        out[at++] = '/';
        while (d > 0) out[at++] = digits[--d];
    }
    return length;
}
