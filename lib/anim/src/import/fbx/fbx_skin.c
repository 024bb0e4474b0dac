/* maniBuildFbxSkin and maniBuildFbxInfluences (import.h): a skin's clusters
 * as joints, their inverse binds (the cluster's Transform, else the bind
 * pose's matrices, else the rest) times the mesh's geometric transform, and
 * the clusters' vertex weights as influences over the mesh's control
 * points. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/fbx/fbx_build_internal.h"

static maniImportResult mani_FbxSkinResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset) {
    return mani_GbImportResult(result, reason, item, offset);
}

static int mani_FbxIsNamed(const maniFbx* f, uint32_t node, const char* name) {
    size_t n = strlen(name);
    return node < f->nodeCount && f->nodes[node].nameLength == n &&
           memcmp(f->bytes + f->nodes[node].nameOffset, name, n) == 0;
}

/* A 16-number matrix record (column-major) as an affine transform: 0 for
 * another count or a value refused, -1 for a last row not 0 0 0 1 or not
 * finite. */
static int mani_FbxReadMatrix(const maniFbx* f, uint32_t node, mani_GbXf* out) {
    if (node == MANI_FBX_NONE || mani_FbxArrayCount(f, node) != 16) return 0;
    double m[16];
    if (mani_FbxReadArray(f, node, m, 16).result != mani_success) return 0;
    for (int i = 0; i < 16; i++)
        if (!isfinite(m[i])) return -1;
    if (m[3] != 0.0 || m[7] != 0.0 || m[11] != 0.0 || m[15] != 1.0) return -1;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) out->l[3 * c + r] = m[4 * c + r];
    for (int r = 0; r < 3; r++) out->t[r] = m[12 + r];
    return 1;
}

/* The id (7.x) or name (before) of a model's object. */
static int mani_FbxPoseNodeIs(const maniFbx* f, uint32_t poseNode, uint32_t model) {
    const mani_FbxProp* p = mani_FbxGetProp(f, mani_FbxFind(f, poseNode, "Node"), 0);
    const mani_FbxProp* key = mani_FbxGetProp(f, f->models[model].node, 0);
    if (p == NULL || key == NULL) return 0;
    if (f->version >= 7000) {
        int64_t a, b;
        return p->type != 'S' && mani_FbxPropInt(f, p, &a) && mani_FbxPropInt(f, key, &b) && a == b;
    }
    uint32_t n, m;
    const char* s = mani_FbxPropString(f, p, &n);
    const char* t = NULL;
    for (uint32_t i = 0; i < f->nodes[f->models[model].node].propCount && t == NULL; i++)
        t = mani_FbxPropString(f, mani_FbxGetProp(f, f->models[model].node, i), &m);
    return s != NULL && t != NULL && n == m && memcmp(s, t, n) == 0;
}

/* A model's matrix in the first bind pose that holds both models: 1 with
 * both, 0 without, -1 for a matrix refused (*bad its record). */
static int mani_FbxBindPose(const maniFbx* f, uint32_t bone, uint32_t mesh, mani_GbXf* boneOut, mani_GbXf* meshOut,
                            uint32_t* bad) {
    uint32_t objects = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
    for (uint32_t p = mani_FbxFind(f, objects, "Pose"); p != MANI_FBX_NONE; p = mani_FbxFindNext(f, p)) {
        uint32_t n;
        const char* type = mani_FbxPropString(f, mani_FbxGetProp(f, mani_FbxFind(f, p, "Type"), 0), &n);
        if (type == NULL || n != 8 || memcmp(type, "BindPose", 8) != 0) continue;
        uint32_t bn = MANI_FBX_NONE, mn = MANI_FBX_NONE;
        for (uint32_t k = mani_FbxFind(f, p, "PoseNode"); k != MANI_FBX_NONE; k = mani_FbxFindNext(f, k)) {
            if (bn == MANI_FBX_NONE && mani_FbxPoseNodeIs(f, k, bone)) bn = k;
            if (mn == MANI_FBX_NONE && mani_FbxPoseNodeIs(f, k, mesh)) mn = k;
        }
        if (bn == MANI_FBX_NONE || mn == MANI_FBX_NONE) continue;
        uint32_t bm = mani_FbxFind(f, bn, "Matrix"), mm = mani_FbxFind(f, mn, "Matrix");
        if (mani_FbxReadMatrix(f, bm, boneOut) != 1) {
            *bad = bm != MANI_FBX_NONE ? bm : bn;
            return -1;
        }
        if (mani_FbxReadMatrix(f, mm, meshOut) != 1) {
            *bad = mm != MANI_FBX_NONE ? mm : mn;
            return -1;
        }
        return 1;
    }
    return 0;
}

/* The bone index of a model's bone name in an opened skeleton, MANI_NO_BONE for none. */
static uint32_t mani_FbxFindBone(const maniSkeleton* s, const mani_FbxModel* m) {
    uint32_t n = maniSkeleton_GetBoneCount(s);
    for (uint32_t b = 0; b < n; b++) {
        size_t length;
        const char* name = maniSkeleton_GetBoneName(s, b, &length);
        if (name != NULL && length == m->boneNameLength && memcmp(name, m->boneName, length) == 0) return b;
    }
    return MANI_NO_BONE;
}

maniImportResult maniBuildFbxSkin(maniBuilder* builder, const maniFbx* fbx, uint32_t skin,
                                  const maniSkeleton* skeleton, const maniFbxOptions* options) {
    if (builder == NULL) return mani_FbxSkinResult(mani_errorInvalid, 0, 0, 0);
    maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_FbxSkinResult(entered, 0, 0, 0);
    if (fbx == NULL || fbx->closing || options == NULL || skeleton == NULL || skin >= fbx->skinCount)
        return mani_GbMisuse(builder);
    mani_GbBasis basis;
    maniResult o = mani_FbxCheckOptions(fbx, options, &basis);
    if (o != mani_success) {
        builder->misuse++;
        return mani_FbxSkinResult(o, 0, 0, 0);
    }
    const uint32_t count = mani_FbxSkinClusters(fbx, skin, NULL, NULL, 0);
    if (count == 0) return mani_GbFromBuild(maniBuildSkin(builder, &(maniSkinSource){skeleton, NULL, NULL, 0}));
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    uint32_t* models = (uint32_t*)mani_GbAlloc(&sc, (size_t)count * sizeof(uint32_t));
    uint32_t* clusters = (uint32_t*)mani_GbAlloc(&sc, (size_t)count * sizeof(uint32_t));
    uint32_t* joints = (uint32_t*)mani_GbAlloc(&sc, (size_t)count * sizeof(uint32_t));
    maniAffine* binds = (maniAffine*)mani_GbAlloc(&sc, (size_t)count * sizeof(maniAffine));
    maniImportResult r = mani_FbxSkinResult(mani_success, 0, 0, 0);
    if (models == NULL || clusters == NULL || joints == NULL || binds == NULL) {
        mani_GbScratchFree(&sc);
        return mani_FbxSkinResult(mani_errorCapacity, 0, 0, 0);
    }
    (void)mani_FbxSkinClusters(fbx, skin, models, clusters, count);
    const uint32_t mesh = fbx->skins[skin].model;
    mani_GbXf geometric;
    mani_GbIdentity(&geometric);
    if (mesh != MANI_FBX_NONE) {
        mani_FbxTransform t;
        r = mani_FbxReadTransform(fbx, mesh, &t);
        if (r.result == mani_success) mani_FbxGeometricMatrix(&t, &geometric);
    }
    for (uint32_t c = 0; c < count && r.result == mani_success; c++) {
        if (models[c] == MANI_FBX_NONE ||
            (joints[c] = mani_FbxFindBone(skeleton, &fbx->models[models[c]])) == MANI_NO_BONE) {
            r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonBone, c, fbx->nodes[clusters[c]].offset);
            break;
        }
        uint32_t n;
        const mani_FbxProp* mode = mani_FbxGetProp(fbx, mani_FbxFind(fbx, clusters[c], "Mode"), 0);
        const char* text = mani_FbxPropString(fbx, mode, &n);
        if (text != NULL && n == 8 && memcmp(text, "Additive", 8) == 0) {
            r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonProperty, c, mode->offset);
            break;
        }
        /* mesh to bone at bind */
        mani_GbXf toBone;
        uint32_t transform = mani_FbxFind(fbx, clusters[c], "Transform");
        int got = transform != MANI_FBX_NONE ? mani_FbxReadMatrix(fbx, transform, &toBone) : 0;
        if (got < 0 || (transform != MANI_FBX_NONE && got == 0)) {
            r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonMatrix, c, fbx->nodes[transform].offset);
            break;
        }
        if (got == 0) {
            mani_GbXf boneWorld, meshWorld, inverse;
            uint32_t bad = MANI_FBX_NONE;
            int posed = mesh != MANI_FBX_NONE ? mani_FbxBindPose(fbx, models[c], mesh, &boneWorld, &meshWorld, &bad) : 0;
            if (posed < 0) {
                r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonMatrix, c, fbx->nodes[bad].offset);
                break;
            }
            if (posed == 0) {
                r = mani_FbxModelWorld(fbx, models[c], &boneWorld);
                if (r.result == mani_success && mesh != MANI_FBX_NONE) r = mani_FbxModelWorld(fbx, mesh, &meshWorld);
                else if (r.result == mani_success) mani_GbIdentity(&meshWorld);
                if (r.result != mani_success) break;
            }
            if (!mani_GbInverse(&boneWorld, &inverse)) {
                r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonMatrix, c, fbx->nodes[clusters[c]].offset);
                break;
            }
            mani_GbMul(&inverse, &meshWorld, &toBone);
        } else {
            mani_GbXf unused;
            if (!mani_GbInverse(&toBone, &unused)) {
                r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonMatrix, c, fbx->nodes[transform].offset);
                break;
            }
        }
        mani_GbMul(&toBone, &geometric, &toBone);
        mani_GbBasisXf(&basis, &toBone, &toBone);
        mani_GbToAffine(&toBone, &binds[c]);
    }
    if (r.result == mani_success) {
        maniSkinSource src;
        src.skeleton = skeleton;
        src.joints = joints;
        src.inverseBinds = binds;
        src.jointCount = count;
        r = mani_GbFromBuild(maniBuildSkin(builder, &src));
    }
    mani_GbScratchFree(&sc);
    return r;
}

/* -- Influences ---------------------------------------------------------------------------- */

/* The record holding a skin's mesh data: its Geometry (7.x), else its mesh model (6.x). */
static uint32_t mani_FbxSkinGeometry(const maniFbx* f, uint32_t skin) {
    uint32_t node = f->skins[skin].node;
    for (uint32_t l = 0; l < f->linkCount; l++)
        if (f->objects[f->links[l].child] == node && mani_FbxIsNamed(f, f->objects[f->links[l].parent], "Geometry"))
            return f->objects[f->links[l].parent];
    uint32_t m = f->skins[skin].model;
    return m != MANI_FBX_NONE ? f->models[m].node : MANI_FBX_NONE;
}

/* Reads a cluster's array record into scratch (NULL and *count 0 without it). */
static maniImportResult mani_FbxScratchArray(const maniFbx* f, mani_GbScratch* sc, uint32_t node, double** out,
                                             uint32_t* count) {
    *out = NULL;
    *count = node == MANI_FBX_NONE ? 0 : mani_FbxArrayCount(f, node);
    if (*count == 0) return mani_FbxSkinResult(mani_success, 0, 0, 0);
    *out = (double*)mani_GbAlloc(sc, (size_t)*count * sizeof(double));
    if (*out == NULL) return mani_FbxSkinResult(mani_errorCapacity, 0, 0, 0);
    return mani_FbxReadArray(f, node, *out, *count);
}

/* One pass over a cluster's Indexes and Weights: checked (Property for
 * counts that differ, Influence for a weight below 0 or not finite), then
 * each index inside the control points given to visit (a vertex twice in one
 * cluster visited each time; stamp tells them apart). */
typedef struct mani_FbxWeightPass {
    uint32_t vertices;
    uint32_t* stamp;   /* the last cluster that gave each vertex */
    uint32_t* offsets; /* vertices + 1 */
    uint32_t* cursor;  /* pass 2: the next entry of each vertex */
    uint32_t* where;   /* pass 2: this cluster's entry of each vertex */
    uint32_t* joints;  /* pass 2 */
    double* sums;      /* pass 2 */
} mani_FbxWeightPass;

static maniImportResult mani_FbxClusterPass(maniBuilder* builder, const maniFbx* f, uint32_t cluster, uint32_t c,
                                            int fill, mani_FbxWeightPass* w) {
    uint32_t in = mani_FbxFind(f, cluster, "Indexes"), wn = mani_FbxFind(f, cluster, "Weights");
    uint32_t ni = in != MANI_FBX_NONE ? mani_FbxArrayCount(f, in) : 0;
    uint32_t nw = wn != MANI_FBX_NONE ? mani_FbxArrayCount(f, wn) : 0;
    if (ni != nw)
        return mani_FbxSkinResult(mani_errorFormat, maniImportReasonProperty, c,
                                  f->nodes[in != MANI_FBX_NONE ? in : wn].offset);
    if (ni == 0) return mani_FbxSkinResult(mani_success, 0, 0, 0);
    mani_GbScratch arrays;
    mani_GbScratchInit(&arrays, builder);
    double *indexes, *weights;
    uint32_t k;
    maniImportResult r = mani_FbxScratchArray(f, &arrays, in, &indexes, &k);
    if (r.result == mani_success) r = mani_FbxScratchArray(f, &arrays, wn, &weights, &k);
    for (uint32_t i = 0; i < ni && r.result == mani_success; i++) {
        const double weight = weights[i];
        if (!isfinite(weight) || weight < 0.0) {
            r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonInfluence, c, mani_FbxGetProp(f, wn, 0)->offset);
            break;
        }
        const double x = indexes[i];
        if (!(x >= 0.0 && x < (double)w->vertices)) continue; /* past the control points: skipped */
        const uint32_t v = (uint32_t)x;
        if (w->stamp[v] == c) { /* given twice by this cluster: summed */
            if (fill) w->sums[w->where[v]] += weight;
            continue;
        }
        w->stamp[v] = c;
        if (!fill) {
            w->offsets[v + 1]++;
            continue;
        }
        uint32_t at = w->cursor[v]++;
        w->where[v] = at;
        w->joints[at] = c;
        w->sums[at] = weight;
    }
    mani_GbScratchFree(&arrays);
    return r;
}

maniImportResult mani_FbxControlPoints(maniBuilder* builder, const maniFbx* f, uint32_t verticesNode,
                                       uint32_t* countOut) {
    *countOut = 0;
    const uint32_t values = verticesNode != MANI_FBX_NONE ? mani_FbxArrayCount(f, verticesNode) : 0;
    if (values < 3u) return mani_FbxSkinResult(mani_success, 0, 0, 0);
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    double* decoded = (double*)mani_GbAlloc(&sc, (size_t)values * sizeof(double));
    maniImportResult r = decoded == NULL ? mani_FbxSkinResult(mani_errorCapacity, 0, 0, 0)
                                         : mani_FbxReadArray(f, verticesNode, decoded, values);
    mani_GbScratchFree(&sc);
    if (r.result == mani_success) *countOut = values / 3u;
    return r;
}

maniImportResult maniBuildFbxInfluences(maniBuilder* builder, const maniFbx* fbx, uint32_t skin, const maniSkin* built) {
    if (builder == NULL) return mani_FbxSkinResult(mani_errorInvalid, 0, 0, 0);
    maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_FbxSkinResult(entered, 0, 0, 0);
    if (fbx == NULL || fbx->closing || built == NULL || skin >= fbx->skinCount) return mani_GbMisuse(builder);
    const uint32_t geometry = mani_FbxSkinGeometry(fbx, skin);
    const uint32_t verticesNode = geometry != MANI_FBX_NONE ? mani_FbxFind(fbx, geometry, "Vertices") : MANI_FBX_NONE;
    uint32_t vertices = 0;
    const maniImportResult points = mani_FbxControlPoints(builder, fbx, verticesNode, &vertices);
    if (points.result != mani_success)
        return mani_FbxSkinResult(points.result, points.reason, points.result == mani_errorFormat ? skin : 0, points.offset);
    if (vertices == 0)
        return mani_FbxSkinResult(mani_errorFormat, maniImportReasonProperty, skin,
                                  fbx->nodes[geometry != MANI_FBX_NONE ? geometry : fbx->skins[skin].node].offset);
    const uint32_t count = mani_FbxSkinClusters(fbx, skin, NULL, NULL, 0);
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    mani_FbxWeightPass w;
    memset(&w, 0, sizeof w);
    w.vertices = vertices;
    uint32_t* clusters = count ? (uint32_t*)mani_GbAlloc(&sc, (size_t)count * sizeof(uint32_t)) : NULL;
    w.offsets = (uint32_t*)mani_GbAlloc(&sc, ((size_t)vertices + 1u) * sizeof(uint32_t));
    w.stamp = (uint32_t*)mani_GbAlloc(&sc, (size_t)vertices * sizeof(uint32_t));
    w.cursor = (uint32_t*)mani_GbAlloc(&sc, (size_t)vertices * sizeof(uint32_t));
    w.where = (uint32_t*)mani_GbAlloc(&sc, (size_t)vertices * sizeof(uint32_t));
    maniImportResult r = mani_FbxSkinResult(mani_success, 0, 0, 0);
    if ((count != 0 && clusters == NULL) || w.offsets == NULL || w.stamp == NULL || w.cursor == NULL ||
        w.where == NULL) {
        mani_GbScratchFree(&sc);
        return mani_FbxSkinResult(mani_errorCapacity, 0, 0, 0);
    }
    (void)mani_FbxSkinClusters(fbx, skin, NULL, clusters, count);
    memset(w.offsets, 0, ((size_t)vertices + 1u) * sizeof(uint32_t));
    for (uint32_t v = 0; v < vertices; v++) w.stamp[v] = MANI_FBX_NONE;
    for (uint32_t c = 0; c < count && r.result == mani_success; c++)
        r = mani_FbxClusterPass(builder, fbx, clusters[c], c, 0, &w);
    const uint32_t method = fbx->skins[skin].method;
    float* blends = NULL;
    float* weights = NULL;
    if (r.result == mani_success) {
        for (uint32_t v = 0; v < vertices; v++) w.offsets[v + 1] += w.offsets[v];
        const uint32_t total = w.offsets[vertices];
        for (uint32_t v = 0; v < vertices; v++) {
            w.cursor[v] = w.offsets[v];
            w.stamp[v] = MANI_FBX_NONE;
        }
        if (total != 0) {
            w.joints = (uint32_t*)mani_GbAlloc(&sc, (size_t)total * sizeof(uint32_t));
            w.sums = (double*)mani_GbAlloc(&sc, (size_t)total * sizeof(double));
            weights = (float*)mani_GbAlloc(&sc, (size_t)total * sizeof(float));
            if (w.joints == NULL || w.sums == NULL || weights == NULL) r = mani_FbxSkinResult(mani_errorCapacity, 0, 0, 0);
        }
        for (uint32_t c = 0; c < count && r.result == mani_success; c++)
            r = mani_FbxClusterPass(builder, fbx, clusters[c], c, 1, &w);
        for (uint32_t i = 0; i < total && r.result == mani_success; i++) weights[i] = (float)w.sums[i];
    }
    if (r.result == mani_success && method != (uint32_t)maniSkinningLinear) {
        /* blend weights: 1 for a dual quaternion skin, 0 else, then the skin's vertex indices
         * (Indexes, as ufbx reads them, else BlendIndexes) with its BlendWeights */
        blends = (float*)mani_GbAlloc(&sc, (size_t)vertices * sizeof(float));
        if (blends == NULL) r = mani_FbxSkinResult(mani_errorCapacity, 0, 0, 0);
        for (uint32_t v = 0; v < vertices && blends != NULL; v++)
            blends[v] = method == (uint32_t)maniSkinningDualQuaternion ? 1.0f : 0.0f;
        uint32_t node = fbx->skins[skin].node;
        uint32_t in = mani_FbxFind(fbx, node, "Indexes"), wn = mani_FbxFind(fbx, node, "BlendWeights");
        if (in == MANI_FBX_NONE) in = mani_FbxFind(fbx, node, "BlendIndexes");
        uint32_t ni = in != MANI_FBX_NONE ? mani_FbxArrayCount(fbx, in) : 0;
        uint32_t nw = wn != MANI_FBX_NONE ? mani_FbxArrayCount(fbx, wn) : 0;
        if (r.result == mani_success && ni != nw)
            r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonProperty, skin,
                                   fbx->nodes[in != MANI_FBX_NONE ? in : wn].offset);
        if (r.result == mani_success && ni != 0) {
            mani_GbScratch arrays;
            mani_GbScratchInit(&arrays, builder);
            double *indexes, *values;
            uint32_t k;
            r = mani_FbxScratchArray(fbx, &arrays, in, &indexes, &k);
            if (r.result == mani_success) r = mani_FbxScratchArray(fbx, &arrays, wn, &values, &k);
            for (uint32_t i = 0; i < ni && r.result == mani_success; i++) {
                if (!(values[i] >= 0.0 && values[i] <= 1.0)) {
                    r = mani_FbxSkinResult(mani_errorFormat, maniImportReasonInfluence, skin,
                                           mani_FbxGetProp(fbx, wn, 0)->offset);
                    break;
                }
                if (indexes[i] >= 0.0 && indexes[i] < (double)vertices) blends[(uint32_t)indexes[i]] = (float)values[i];
            }
            mani_GbScratchFree(&arrays);
        }
    }
    if (r.result == mani_success) {
        maniInfluenceSource src;
        memset(&src, 0, sizeof src);
        src.skin = built;
        src.offsets = w.offsets;
        src.joints = w.joints;
        src.weights = weights;
        src.dualQuaternionWeights = blends;
        src.vertexCount = vertices;
        r = mani_GbFromBuild(maniBuildInfluences(builder, &src));
    }
    mani_GbScratchFree(&sc);
    return r;
}
