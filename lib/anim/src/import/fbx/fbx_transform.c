/* FBX's transform model (fbx_build_internal.h): a model's properties read
 * (its own, the Model template's, FBX's defaults), its local, geometric and
 * world transforms in binary64, and the options' basis for the file's axes
 * and unit. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/import/fbx/fbx_build_internal.h"
#include "lib/core/detmath.h"

static maniImportResult mani_FbxXfResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset) {
    maniImportResult r;
    r.result = result;
    r.reason = reason;
    r.item = item;
    r.offset = offset;
    return r;
}

static void mani_FbxSet3(double v[3], double x) { v[0] = v[1] = v[2] = x; }

void mani_FbxDefaultTransform(mani_FbxTransform* t) {
    memset(t, 0, sizeof *t);
    mani_FbxSet3(t->scaling, 1.0);
    mani_FbxSet3(t->geometricScaling, 1.0);
}

/* -- Matrices ------------------------------------------------------------------------------ */

static void mani_FbxAxisRotation(int axis, double degrees, mani_GbXf* out) {
    double s, c;
    mcore_sincos(degrees * (3.14159265358979323846 / 180.0), &s, &c);
    mani_GbIdentity(out);
    int a = (axis + 1) % 3, b = (axis + 2) % 3;
    /* columns a and b turn in their plane */
    out->l[3 * a + a] = c;
    out->l[3 * a + b] = s;
    out->l[3 * b + a] = -s;
    out->l[3 * b + b] = c;
}

void mani_FbxEulerMatrix(const double degrees[3], uint32_t order, mani_GbXf* out) {
    /* the axes in the order they turn (first applied first) */
    static const int turns[7][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}, {0, 1, 2}};
    const int* k = turns[order < 7 ? order : 0];
    mani_GbXf r, step;
    mani_FbxAxisRotation(k[0], degrees[k[0]], &r);
    for (int i = 1; i < 3; i++) {
        mani_FbxAxisRotation(k[i], degrees[k[i]], &step);
        mani_GbMul(&step, &r, &r);
    }
    *out = r;
}

static void mani_FbxTranslationMatrix(const double v[3], double sign, mani_GbXf* out) {
    mani_GbIdentity(out);
    for (int i = 0; i < 3; i++) out->t[i] = sign * v[i];
}

void mani_FbxLocalMatrix(const mani_FbxTransform* t, mani_GbXf* out) {
    mani_GbXf m, x;
    /* from the right: Sp^-1, S, Sp, Soff, Rp^-1, Rpost^-1, R, Rpre, Rp, Roff, T */
    mani_FbxTranslationMatrix(t->scalingPivot, -1.0, &m);
    mani_GbIdentity(&x);
    x.l[0] = t->scaling[0];
    x.l[4] = t->scaling[1];
    x.l[8] = t->scaling[2];
    mani_GbMul(&x, &m, &m);
    mani_FbxTranslationMatrix(t->scalingPivot, 1.0, &x);
    mani_GbMul(&x, &m, &m);
    mani_FbxTranslationMatrix(t->scalingOffset, 1.0, &x);
    mani_GbMul(&x, &m, &m);
    mani_FbxTranslationMatrix(t->rotationPivot, -1.0, &x);
    mani_GbMul(&x, &m, &m);
    /* Rpost^-1: the transpose of a rotation */
    mani_GbXf post;
    mani_FbxEulerMatrix(t->postRotation, 0, &post);
    mani_GbIdentity(&x);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) x.l[3 * c + r] = post.l[3 * r + c];
    mani_GbMul(&x, &m, &m);
    mani_FbxEulerMatrix(t->rotation, t->rotationOrder, &x);
    mani_GbMul(&x, &m, &m);
    mani_FbxEulerMatrix(t->preRotation, 0, &x);
    mani_GbMul(&x, &m, &m);
    mani_FbxTranslationMatrix(t->rotationPivot, 1.0, &x);
    mani_GbMul(&x, &m, &m);
    mani_FbxTranslationMatrix(t->rotationOffset, 1.0, &x);
    mani_GbMul(&x, &m, &m);
    mani_FbxTranslationMatrix(t->translation, 1.0, &x);
    mani_GbMul(&x, &m, &m);
    *out = m;
}

void mani_FbxGeometricMatrix(const mani_FbxTransform* t, mani_GbXf* out) {
    mani_GbXf m, x;
    mani_GbIdentity(&m);
    m.l[0] = t->geometricScaling[0];
    m.l[4] = t->geometricScaling[1];
    m.l[8] = t->geometricScaling[2];
    mani_FbxEulerMatrix(t->geometricRotation, 0, &x);
    mani_GbMul(&x, &m, &m);
    mani_FbxTranslationMatrix(t->geometricTranslation, 1.0, &x);
    mani_GbMul(&x, &m, &m);
    *out = m;
}

/* -- Properties ---------------------------------------------------------------------------- */

/* The Model template's properties (Definitions/ObjectType "Model"/PropertyTemplate). */
static uint32_t mani_FbxModelTemplate(const maniFbx* f) {
    uint32_t d = mani_FbxFind(f, MANI_FBX_NONE, "Definitions");
    for (uint32_t o = mani_FbxFind(f, d, "ObjectType"); o != MANI_FBX_NONE; o = mani_FbxFindNext(f, o)) {
        uint32_t n;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, o, 0), &n);
        if (s == NULL || n != 5 || memcmp(s, "Model", 5) != 0) continue;
        return mani_FbxPropertiesOf(f, mani_FbxFind(f, o, "PropertyTemplate"));
    }
    return MANI_FBX_NONE;
}

/* Reads a property's count numbers into out when the block has it (1),
 * 0 when it does not; -1 (*badOffset) for a value refused. */
static int mani_FbxReadNumbers(const maniFbx* f, uint32_t block, const char* name, double* out, uint32_t count,
                               uint64_t* badOffset) {
    uint32_t at = 0;
    uint32_t p = mani_FbxFindSetting(f, block, name, &at);
    if (p == MANI_FBX_NONE) return 0;
    const mani_FbxProp* first = mani_FbxGetProp(f, p, at);
    *badOffset = first != NULL ? first->offset : f->nodes[p].offset;
    double v[3];
    for (uint32_t i = 0; i < count; i++) {
        const mani_FbxProp* q = mani_FbxGetProp(f, p, at + i);
        if (q == NULL || q->type == 'S' || !mani_FbxPropDouble(f, q, &v[i]) || !isfinite(v[i])) {
            *badOffset = q != NULL ? q->offset : f->nodes[p].offset;
            return -1;
        }
    }
    for (uint32_t i = 0; i < count; i++) out[i] = v[i];
    return 1;
}

/* A record's child Channel whose first string is the name, MANI_FBX_NONE for none. */
static uint32_t mani_FbxChannelNamed(const maniFbx* f, uint32_t node, const char* name) {
    const size_t length = strlen(name);
    for (uint32_t c = mani_FbxFind(f, node, "Channel"); c != MANI_FBX_NONE; c = mani_FbxFindNext(f, c)) {
        uint32_t n;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, c, 0), &n);
        if (s != NULL && n == length && memcmp(s, name, n) == 0) return c;
    }
    return MANI_FBX_NONE;
}

/* A legacy top-level model's Channel "Transform" in the scene's take: the
 * take Takes/Current names (else the first Take), its Model record of the
 * model's name; MANI_FBX_NONE for none. */
static uint32_t mani_FbxTakeTransform(const maniFbx* f, uint32_t node) {
    const uint32_t takes = mani_FbxFind(f, MANI_FBX_NONE, "Takes");
    if (takes == MANI_FBX_NONE) return MANI_FBX_NONE;
    uint32_t cn = 0;
    const char* current = mani_FbxPropString(f, mani_FbxGetProp(f, mani_FbxFind(f, takes, "Current"), 0), &cn);
    uint32_t take = MANI_FBX_NONE;
    for (uint32_t k = mani_FbxFind(f, takes, "Take"); k != MANI_FBX_NONE && current != NULL; k = mani_FbxFindNext(f, k)) {
        uint32_t n;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, k, 0), &n);
        if (s != NULL && n == cn && memcmp(s, current, n) == 0) {
            take = k;
            break;
        }
    }
    if (take == MANI_FBX_NONE) take = mani_FbxFind(f, takes, "Take");
    uint32_t on;
    const char* own = mani_FbxPropString(f, mani_FbxGetProp(f, node, 0), &on);
    if (take == MANI_FBX_NONE || own == NULL) return MANI_FBX_NONE;
    for (uint32_t m = mani_FbxFind(f, take, "Model"); m != MANI_FBX_NONE; m = mani_FbxFindNext(f, m)) {
        uint32_t n;
        const char* s = mani_FbxPropString(f, mani_FbxGetProp(f, m, 0), &n);
        if (s != NULL && n == on && memcmp(s, own, n) == 0) return mani_FbxChannelNamed(f, m, "Transform");
    }
    return MANI_FBX_NONE;
}

/* The legacy layout (FBX 5 and older: top-level Model records) keeps a
 * model's rest in its own Channel "Transform": Channel T, R and S, each with
 * Channel X, Y and Z holding a Default value (ufbx reads them as the Lcl
 * properties); a model without one (5.8's ASCII files) has them in the
 * scene's take instead (mani_FbxTakeTransform). Returns 0 (*bad the value)
 * for a Default that is not a finite number; a component without one keeps
 * its value. */
static int mani_FbxLegacyTransform(const maniFbx* f, uint32_t node, mani_FbxTransform* t, uint64_t* bad) {
    uint32_t transform = mani_FbxChannelNamed(f, node, "Transform");
    if (transform == MANI_FBX_NONE && f->nodes[node].parent == MANI_FBX_NONE)
        transform = mani_FbxTakeTransform(f, node);
    if (transform == MANI_FBX_NONE) return 1;
    static const char* const kinds[3] = {"T", "R", "S"};
    static const char* const axes[3] = {"X", "Y", "Z"};
    double* const into[3] = {t->translation, t->rotation, t->scaling};
    for (int k = 0; k < 3; k++) {
        const uint32_t kind = mani_FbxChannelNamed(f, transform, kinds[k]);
        if (kind == MANI_FBX_NONE) continue;
        for (int a = 0; a < 3; a++) {
            const uint32_t axis = mani_FbxChannelNamed(f, kind, axes[a]);
            const uint32_t def = axis != MANI_FBX_NONE ? mani_FbxFind(f, axis, "Default") : MANI_FBX_NONE;
            if (def == MANI_FBX_NONE) continue;
            const mani_FbxProp* p = mani_FbxGetProp(f, def, 0);
            double v;
            if (p == NULL || p->type == 'S' || !mani_FbxPropDouble(f, p, &v) || !isfinite(v)) {
                *bad = p != NULL ? p->offset : f->nodes[def].offset;
                return 0;
            }
            into[k][a] = v;
        }
    }
    return 1;
}

maniImportResult mani_FbxReadTransform(const maniFbx* f, uint32_t model, mani_FbxTransform* out) {
    static const struct {
        const char* name;
        size_t offset;
    } vectors[] = {
        {"Lcl Translation", offsetof(mani_FbxTransform, translation)},
        {"Lcl Rotation", offsetof(mani_FbxTransform, rotation)},
        {"Lcl Scaling", offsetof(mani_FbxTransform, scaling)},
        {"RotationOffset", offsetof(mani_FbxTransform, rotationOffset)},
        {"RotationPivot", offsetof(mani_FbxTransform, rotationPivot)},
        {"ScalingOffset", offsetof(mani_FbxTransform, scalingOffset)},
        {"ScalingPivot", offsetof(mani_FbxTransform, scalingPivot)},
        {"PreRotation", offsetof(mani_FbxTransform, preRotation)},
        {"PostRotation", offsetof(mani_FbxTransform, postRotation)},
        {"GeometricTranslation", offsetof(mani_FbxTransform, geometricTranslation)},
        {"GeometricRotation", offsetof(mani_FbxTransform, geometricRotation)},
        {"GeometricScaling", offsetof(mani_FbxTransform, geometricScaling)},
    };
    mani_FbxTransform t;
    mani_FbxDefaultTransform(&t);
    int active = 0;
    const uint32_t blocks[2] = {mani_FbxModelTemplate(f), mani_FbxPropertiesOf(f, f->models[model].node)};
    for (int b = 0; b < 2; b++) {
        if (blocks[b] == MANI_FBX_NONE) continue;
        uint64_t bad = 0;
        for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++)
            if (mani_FbxReadNumbers(f, blocks[b], vectors[i].name, (double*)((char*)&t + vectors[i].offset), 3,
                                    &bad) < 0)
                return mani_FbxXfResult(mani_errorFormat, maniImportReasonProperty, model, bad);
        double v;
        int r = mani_FbxReadNumbers(f, blocks[b], "RotationOrder", &v, 1, &bad);
        if (r < 0 || (r > 0 && !(v >= 0.0 && v <= 6.0 && v == floor(v))))
            return mani_FbxXfResult(mani_errorFormat, maniImportReasonProperty, model, bad);
        if (r > 0) t.rotationOrder = (uint32_t)v;
        r = mani_FbxReadNumbers(f, blocks[b], "InheritType", &v, 1, &bad);
        if (r < 0 || (r > 0 && !(v >= 0.0 && v <= 2.0 && v == floor(v))))
            return mani_FbxXfResult(mani_errorFormat, maniImportReasonProperty, model, bad);
        if (r > 0) t.inheritType = (uint32_t)v;
        r = mani_FbxReadNumbers(f, blocks[b], "RotationActive", &v, 1, &bad);
        if (r < 0) return mani_FbxXfResult(mani_errorFormat, maniImportReasonProperty, model, bad);
        if (r > 0) active = v != 0.0;
    }
    if (!active) {
        t.rotationOrder = 0;
    }
    uint64_t bad = 0;
    if (!mani_FbxLegacyTransform(f, f->models[model].node, &t, &bad))
        return mani_FbxXfResult(mani_errorFormat, maniImportReasonProperty, model, bad);
    *out = t;
    return mani_FbxXfResult(mani_success, maniImportReasonNone, 0, 0);
}

/* -- Models -------------------------------------------------------------------------------- */

void mani_FbxInheritScale(const maniFbx* f, uint32_t model, double out[3]) {
    out[0] = out[1] = out[2] = 1.0;
    /* up the chain while the model inherits componentwise (at most the model count: the open refused cycles) */
    for (uint32_t m = model, k = 0; m != MANI_FBX_NONE && k <= f->modelCount; k++) {
        mani_FbxTransform t;
        if (mani_FbxReadTransform(f, m, &t).result != mani_success) mani_FbxDefaultTransform(&t);
        for (int i = 0; i < 3; i++) out[i] *= t.scaling[i];
        if (t.inheritType != MANI_FBX_INHERIT_RRSS) break;
        m = f->modelParent[m];
    }
}

static int mani_FbxUniform(const double v[3]) { return v[0] == v[1] && v[1] == v[2]; }

int mani_FbxHelperTakesAll(const maniFbx* f, uint32_t parent) {
    mani_FbxTransform p;
    if (mani_FbxReadTransform(f, parent, &p).result != mani_success) return 0;
    const uint32_t grand = f->modelParent[parent];
    if (p.inheritType != MANI_FBX_INHERIT_RRSS || grand == MANI_FBX_NONE) return 0;
    double e[3];
    mani_FbxInheritScale(f, grand, e);
    return !mani_FbxUniform(e);
}

maniImportResult mani_FbxBoneLocal(const maniFbx* f, uint32_t model, mani_GbXf* local, int* needsHelper,
                                   mani_GbXf* helper) {
    mani_FbxTransform t;
    maniImportResult r = mani_FbxReadTransform(f, model, &t);
    if (r.result != mani_success) return r;
    mani_FbxLocalMatrix(&t, local);
    *needsHelper = 0;
    uint32_t parent = f->modelParent[model];
    if (t.inheritType == MANI_FBX_INHERIT_RSRS || parent == MANI_FBX_NONE) return r;
    mani_FbxTransform p;
    r = mani_FbxReadTransform(f, parent, &p);
    if (r.result != mani_success) return r;
    double e[3];
    mani_FbxInheritScale(f, parent, e);
    /* RrSs under a uniform inherit scale: the normal product (the scale commutes with the rotation) */
    if (t.inheritType == MANI_FBX_INHERIT_RRSS && mani_FbxUniform(e)) return r;
    /* ufbx's rule: world = U T(E t) R (X s), U the parent's unscaled world (every scale of the parent's
     * componentwise chain taken away), E its inherit scale, X = E for RrSs and for Rrs the inherit scale of
     * the grandparent when the parent is RrSs (else 1). The helper h^-1 stands under the parent, h = E when
     * the grandparent's inherit scale is not uniform ("takes all"), else the parent's own scaling: the
     * helper's world is then U times a uniform k = E / h, so the local under it is T(h t) R (X / k s). */
    const int all = mani_FbxHelperTakesAll(f, parent);
    double h[3], back[3] = {1.0, 1.0, 1.0};
    for (int i = 0; i < 3; i++) h[i] = all ? e[i] : p.scaling[i];
    if (t.inheritType == MANI_FBX_INHERIT_RRSS)
        for (int i = 0; i < 3; i++) back[i] = h[i];
    else if (all)
        mani_FbxInheritScale(f, f->modelParent[parent], back);
    mani_GbIdentity(helper);
    for (int i = 0; i < 3; i++) {
        if (!(h[i] != 0.0) || !isfinite(1.0 / h[i]))
            return mani_FbxXfResult(mani_errorFormat, maniImportReasonMatrix, parent, 0);
        helper->l[4 * i] = 1.0 / h[i];
        local->t[i] = h[i] * local->t[i];
        if (back[i] != 1.0)
            for (int row = 0; row < 3; row++) local->l[3 * i + row] *= back[i];
    }
    *needsHelper = 1;
    return r;
}

maniImportResult mani_FbxAbove(const maniFbx* f, uint32_t model, mani_GbXf* out) {
    mani_GbIdentity(out);
    uint32_t parent = f->modelParent[model];
    if (parent == MANI_FBX_NONE) return mani_FbxXfResult(mani_success, maniImportReasonNone, 0, 0);
    maniImportResult r = mani_FbxModelWorld(f, parent, out);
    if (r.result != mani_success) return r;
    mani_GbXf local, helper;
    int needsHelper;
    r = mani_FbxBoneLocal(f, model, &local, &needsHelper, &helper);
    if (r.result == mani_success && needsHelper) mani_GbMul(out, &helper, out);
    return r;
}

maniImportResult mani_FbxModelWorld(const maniFbx* f, uint32_t model, mani_GbXf* out) {
    /* from the top down: the chain is at most the model count long (the open refused cycles) */
    uint32_t depth = 0;
    for (uint32_t a = model; a != MANI_FBX_NONE; a = f->modelParent[a]) depth++;
    mani_GbXf w;
    mani_GbIdentity(&w);
    for (uint32_t level = depth; level-- > 0;) {
        uint32_t a = model;
        for (uint32_t k = 0; k < level; k++) a = f->modelParent[a];
        mani_GbXf local, helper;
        int needsHelper;
        maniImportResult r = mani_FbxBoneLocal(f, a, &local, &needsHelper, &helper);
        if (r.result != mani_success) return r;
        if (needsHelper) mani_GbMul(&w, &helper, &w);
        mani_GbMul(&w, &local, &w);
    }
    *out = w;
    return mani_FbxXfResult(mani_success, maniImportReasonNone, 0, 0);
}

/* -- Options ------------------------------------------------------------------------------- */

static void mani_FbxAxisVector(uint32_t axis, int v[3]) {
    v[0] = v[1] = v[2] = 0;
    v[axis / 2] = (axis & 1u) ? -1 : 1;
}

maniResult mani_FbxCheckOptions(const maniFbx* f, const maniFbxOptions* o, mani_GbBasis* basisOut) {
    if (o->cookie != MANI_FBX_OPTIONS_COOKIE || o->cookieEnd != MANI_FBX_OPTIONS_COOKIE) return mani_errorInvalid;
    /* the settings are checked as glTF's are */
    maniGltfOptions g = maniDefaultGltfOptions();
    g.abiVersion = o->abiVersion;
    g.up = o->up;
    g.front = o->front;
    g.unitScale = o->unitScale;
    g.foldPlacement = o->foldPlacement;
    g.reserved[0] = o->reserved[0];
    g.reserved[1] = o->reserved[1];
    mani_GbBasis unused;
    maniResult checked = mani_GbCheckOptions(&g, &unused);
    if (checked != mani_success) return checked;
    maniFbxSettings s;
    if (maniFbx_ReadSettings(f, &s) != mani_success) return mani_errorInvalid;
    int up[3], front[3], right[3];
    mani_FbxAxisVector(o->up, up);
    mani_FbxAxisVector(o->front, front);
    right[0] = up[1] * front[2] - up[2] * front[1];
    right[1] = up[2] * front[0] - up[0] * front[2];
    right[2] = up[0] * front[1] - up[1] * front[0];
    /* column a of M (the file's axis a) is where it goes: the file's right,
     * up and front (signed) to the output's */
    const uint32_t fileAxes[3] = {s.right, s.up, s.front};
    const int* goes[3] = {right, up, front};
    int columns[3][3];
    for (int k = 0; k < 3; k++) {
        int a = (int)(fileAxes[k] / 2);
        int sign = (fileAxes[k] & 1u) ? -1 : 1;
        for (int r = 0; r < 3; r++) columns[a][r] = sign * goes[k][r];
    }
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            if (columns[c][r] != 0) {
                basisOut->axis[r] = c;
                basisOut->sign[r] = (double)columns[c][r];
            }
    basisOut->unit = (double)s.unitMetres * (double)o->unitScale;
    return mani_success;
}
