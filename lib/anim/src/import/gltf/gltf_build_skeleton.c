/* maniBuildGltfSkeleton, maniBuildGltfNodeSkeleton,
 * maniGltf_GetSkeletonPlacement and maniBuildGltfSkin.
 *
 * Bone order: a skeleton's bones are its nodes depth-first from each root,
 * every node's children in the order of its "children" array, roots in the
 * order of their lowest node index. maniBuildSkeleton keeps that order (it
 * orders depth-first, children and roots in the source's order). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/gltf/gltf_build_internal.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"

/* -- The nodes of a skeleton ------------------------------------------------------- */

/* mark[n]: 1 for a node of skeleton k (the opener's union of its skins'
 * hierarchies). */
static void mani_GbMarkSkeleton(const maniGltf* g, uint32_t k, uint8_t* mark) {
    const mani_GltfSkeleton* sk = &g->skeletons[k];
    for (uint32_t i = 0; i < sk->nodeCount; ++i) {
        uint32_t n = g->skeletonNodes[sk->nodeStart + i];
        if (n < g->nodeCount) mark[n] = 1;
    }
}

/* Lists the marked nodes depth-first from each root (a marked node whose
 * parent is unmarked), roots by node index, children in their order.
 * stack holds nodes entries. Returns the count. */
static uint32_t mani_GbOrder(const maniGltf* g, const uint8_t* mark, uint32_t* order, uint32_t* stack) {
    const uint32_t nodes = maniGltf_GetNodeCount(g);
    uint32_t count = 0;
    for (uint32_t r = 0; r < nodes; ++r) {
        if (!mark[r]) continue;
        uint32_t p = mani_GbNodeParent(g, r);
        if (p != MANI_GB_NONE && mark[p]) continue;
        uint32_t sp = 0;
        stack[sp++] = r;
        while (sp > 0 && count < nodes) {
            uint32_t n = stack[--sp];
            order[count++] = n;
            const uint32_t cc = mani_GbNodeChildCount(g, n);
            /* Push in reverse so the first child comes out first. */
            for (uint32_t i = cc; i-- > 0;) {
                uint32_t c = mani_GbNodeChild(g, n, i);
                if (c < nodes && mark[c] && sp < nodes) stack[sp++] = c;
            }
        }
    }
    return count;
}

/* The product of the locals of the nodes above node (identity at the top),
 * in glTF's basis. Refuses a matrix the opener's rule refuses (Matrix, the
 * node). */
static maniImportResult mani_GbAbove(const maniGltf* g, uint32_t node, mani_GbXf* out) {
    mani_GbIdentity(out);
    const uint32_t nodes = maniGltf_GetNodeCount(g);
    uint32_t guard = 0;
    for (uint32_t p = mani_GbNodeParent(g, node); p != MANI_GB_NONE && guard++ <= nodes; p = mani_GbNodeParent(g, p)) {
        mani_GbXf local;
        int isMatrix = 0;
        if (!mani_GbNodeLocal(g, p, &local, &isMatrix))
            return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, p, 0);
        mani_GbMul(&local, out, out);
    }
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}

/* A node's rest in the output basis; for a root with fold, the nodes above
 * composed in; for a later root without fold, the first root's placement
 * taken off (first the inverse of its placement, or NULL). */
static maniImportResult mani_GbRest(const maniGltf* g, uint32_t node, int isRoot, int fold,
                                    const mani_GbXf* firstInverse, const mani_GbBasis* basis, maniTransform* out) {
    mani_GbXf local;
    int isMatrix = 0;
    if (!mani_GbNodeLocal(g, node, &local, &isMatrix))
        return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, node, 0);
    int composed = 0;
    if (isRoot) {
        mani_GbXf above;
        maniImportResult r = mani_GbAbove(g, node, &above);
        if (r.result != mani_success) return r;
        if (!fold && firstInverse != NULL) mani_GbMul(firstInverse, &above, &above);
        if (fold || firstInverse != NULL) {
            mani_GbMul(&above, &local, &local);
            composed = 1;
        }
    }
    if (!isMatrix && !composed) {
        /* T R S as given: exact, turned by the basis. */
        double t[3], q[4], s[3], t2[3], q2[4], s2[3];
        mani_GbNodeTrs(g, node, t, q, s);
        mani_GbBasisVector(basis, t, t2);
        mani_GbBasisQuat(basis, q, q2);
        mani_GbBasisScale(basis, s, s2);
        out->translation.x = (float)t2[0];
        out->translation.y = (float)t2[1];
        out->translation.z = (float)t2[2];
        out->rotation.x = (float)q2[0];
        out->rotation.y = (float)q2[1];
        out->rotation.z = (float)q2[2];
        out->rotation.w = (float)q2[3];
        out->scale.x = (float)s2[0];
        out->scale.y = (float)s2[1];
        out->scale.z = (float)s2[2];
        return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
    }
    mani_GbBasisXf(basis, &local, &local);
    if (!mani_GbSplit(&local, out)) return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, node, 0);
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}

/* Builds the marked nodes as a skeleton. */
static maniImportResult mani_GbBuildMarked(maniBuilder* b, const maniGltf* g, mani_GbScratch* sc, uint8_t* mark,
                                           const mani_GbBasis* basis, int fold) {
    const uint32_t nodes = maniGltf_GetNodeCount(g);
    uint32_t* order = (uint32_t*)mani_GbAlloc(sc, sizeof(uint32_t) * 2 * (size_t)nodes);
    maniSkeletonSourceBone* bones = (maniSkeletonSourceBone*)mani_GbAlloc(sc, sizeof(maniSkeletonSourceBone) * nodes);
    uint32_t* boneOf = (uint32_t*)mani_GbAlloc(sc, sizeof(uint32_t) * (size_t)nodes);
    if (order == NULL || bones == NULL || boneOf == NULL)
        return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    const uint32_t count = mani_GbOrder(g, mark, order, order + nodes);
    if (count > MANI_MAX_BONES)
        return mani_GbImportResult(mani_errorFormat, maniImportReasonBuild, maniBuildReasonCount, 0);
    for (uint32_t i = 0; i < count; ++i) boneOf[order[i]] = i;
    mani_GbXf firstInverse;
    int haveFirst = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t n = order[i];
        const uint32_t p = mani_GbNodeParent(g, n);
        const int isRoot = p == MANI_GB_NONE || !mark[p];
        if (isRoot && !fold && !haveFirst) {
            /* The first root's placement: later roots are put under it. */
            mani_GbXf above;
            maniImportResult r = mani_GbAbove(g, n, &above);
            if (r.result != mani_success) return r;
            if (!mani_GbInverse(&above, &firstInverse))
                return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, n, 0);
            haveFirst = 1;
            maniImportResult rr = mani_GbRest(g, n, 0, 0, NULL, basis, &bones[i].rest);
            if (rr.result != mani_success) return rr;
        } else {
            maniImportResult rr =
                mani_GbRest(g, n, isRoot, fold, isRoot && !fold ? &firstInverse : NULL, basis, &bones[i].rest);
            if (rr.result != mani_success) return rr;
        }
        size_t len = 0;
        bones[i].name = maniGltf_GetNodeBoneName(g, n, &len);
        bones[i].nameLength = len;
        if (len > MANI_MAX_NAME_BYTES) return mani_GbImportResult(mani_errorFormat, maniImportReasonName, n, 0);
        bones[i].parent = isRoot ? MANI_NO_BONE : boneOf[p];
    }
    maniSkeletonSource src;
    src.bones = bones;
    src.boneCount = count;
    return mani_GbFromBuild(maniBuildSkeleton(b, &src));
}

maniImportResult maniBuildGltfSkeleton(maniBuilder* builder, const maniGltf* gltf, uint32_t skeleton,
                                       const maniGltfOptions* options) {
    mani_GbBasis basis;
    maniImportResult r = mani_GbEnter(builder, gltf, options, &basis);
    if (r.result != mani_success) return r;
    if (skeleton >= maniGltf_GetSkeletonCount(gltf)) return mani_GbMisuse(builder);
    const uint32_t nodes = maniGltf_GetNodeCount(gltf);
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    uint8_t* mark = (uint8_t*)mani_GbAlloc(&sc, nodes);
    if (mark == NULL) {
        mani_GbScratchFree(&sc);
        return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    }
    memset(mark, 0, nodes);
    mani_GbMarkSkeleton(gltf, skeleton, mark);
    r = mani_GbBuildMarked(builder, gltf, &sc, mark, &basis, options->foldPlacement != 0);
    mani_GbScratchFree(&sc);
    return r;
}

maniImportResult maniBuildGltfNodeSkeleton(maniBuilder* builder, const maniGltf* gltf, uint32_t node,
                                           const maniGltfOptions* options) {
    mani_GbBasis basis;
    maniImportResult r = mani_GbEnter(builder, gltf, options, &basis);
    if (r.result != mani_success) return r;
    const uint32_t nodes = maniGltf_GetNodeCount(gltf);
    if (node >= nodes) return mani_GbMisuse(builder);
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    uint8_t* mark = (uint8_t*)mani_GbAlloc(&sc, nodes);
    if (mark == NULL) {
        mani_GbScratchFree(&sc);
        return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    }
    /* The subtree: a node is in it when node is it or one of its ancestors. */
    for (uint32_t n = 0; n < nodes; ++n) {
        uint32_t guard = 0, p = n;
        while (p != MANI_GB_NONE && p != node && guard++ <= nodes) p = mani_GbNodeParent(gltf, p);
        mark[n] = p == node;
    }
    r = mani_GbBuildMarked(builder, gltf, &sc, mark, &basis, options->foldPlacement != 0);
    mani_GbScratchFree(&sc);
    return r;
}

/* The first root (in bone order: the lowest node index) of skeleton k. */
static uint32_t mani_GbSkeletonRoot(const maniGltf* g, uint32_t k) {
    const mani_GltfSkeleton* sk = &g->skeletons[k];
    return sk->rootCount > 0 ? g->skeletonRoots[sk->rootStart] : MANI_GB_NONE;
}

maniImportResult maniGltf_GetSkeletonPlacement(const maniGltf* gltf, uint32_t skeleton,
                                               const maniGltfOptions* options, maniAffine* placementOut) {
    if (gltf == NULL || options == NULL || placementOut == NULL)
        return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    mani_GbBasis basis;
    maniResult o = mani_GbCheckOptions(options, &basis);
    if (o != mani_success) return mani_GbImportResult(o, maniImportReasonNone, 0, 0);
    if (skeleton >= maniGltf_GetSkeletonCount(gltf))
        return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    mani_GbXf p;
    mani_GbIdentity(&p);
    if (!options->foldPlacement) {
        const uint32_t root = mani_GbSkeletonRoot(gltf, skeleton);
        if (root != MANI_GB_NONE) {
            maniImportResult r = mani_GbAbove(gltf, root, &p);
            if (r.result != mani_success) return r;
            mani_GbBasisXf(&basis, &p, &p);
        }
    }
    mani_GbToAffine(&p, placementOut);
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}

/* -- Skins ------------------------------------------------------------------------ */

maniImportResult maniBuildGltfSkin(maniBuilder* builder, const maniGltf* gltf, uint32_t skin,
                                   const maniSkeleton* skeleton, const maniGltfOptions* options) {
    mani_GbBasis basis;
    maniImportResult r = mani_GbEnter(builder, gltf, options, &basis);
    if (r.result != mani_success) return r;
    if (skeleton == NULL || skin >= maniGltf_GetSkinCount(gltf)) return mani_GbMisuse(builder);
    const uint32_t jc = mani_GbSkinJointCount(gltf, skin);
    if (jc == 0 || jc > MANI_MAX_BONES)
        return mani_GbImportResult(mani_errorFormat, maniImportReasonBuild, maniBuildReasonCount, 0);
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    uint32_t* joints = (uint32_t*)mani_GbAlloc(&sc, sizeof(uint32_t) * jc);
    maniAffine* binds = (maniAffine*)mani_GbAlloc(&sc, sizeof(maniAffine) * jc);
    const uint32_t ibm = mani_GbSkinInverseBinds(gltf, skin);
    float* raw = ibm != MANI_GB_NONE ? (float*)mani_GbAlloc(&sc, sizeof(float) * 16 * (size_t)jc) : NULL;
    if (joints == NULL || binds == NULL || (ibm != MANI_GB_NONE && raw == NULL)) {
        mani_GbScratchFree(&sc);
        return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    }
    for (uint32_t j = 0; j < jc; ++j) {
        size_t len = 0;
        const char* name = maniGltf_GetNodeBoneName(gltf, mani_GbSkinJoint(gltf, skin, j), &len);
        uint32_t bone = name != NULL ? maniSkeleton_FindBone(skeleton, name, len) : MANI_NO_BONE;
        if (bone == MANI_NO_BONE) {
            mani_GbScratchFree(&sc);
            return mani_GbImportResult(mani_errorFormat, maniImportReasonBone, j, 0);
        }
        joints[j] = bone;
    }
    if (ibm != MANI_GB_NONE) {
        /* The opener checked the accessor is MAT4 of floats with a matrix a joint. */
        mani_GbAccessor shape;
        if (!mani_GbAccessorShape(gltf, ibm, &shape) || shape.components != 16 || shape.count < jc) {
            mani_GbScratchFree(&sc);
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, skin, 0);
        }
        float* all = shape.count == jc ? raw : (float*)mani_GbAlloc(&sc, sizeof(float) * 16 * (size_t)shape.count);
        if (all == NULL) {
            mani_GbScratchFree(&sc);
            return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
        }
        r = mani_GbReadFloats(gltf, ibm, all);
        if (r.result != mani_success) {
            mani_GbScratchFree(&sc);
            return r;
        }
        for (uint32_t j = 0; j < jc; ++j) {
            const float* m = all + 16 * (size_t)j; /* column-major 4x4 */
            int affine = fabsf(m[3]) <= 1e-5f && fabsf(m[7]) <= 1e-5f && fabsf(m[11]) <= 1e-5f &&
                         fabsf(m[15] - 1.0f) <= 1e-5f;
            for (int k = 0; k < 16; ++k) affine = affine && isfinite(m[k]);
            if (!affine) {
                mani_GbScratchFree(&sc);
                return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, j, 0);
            }
            mani_GbXf x;
            for (int c = 0; c < 3; ++c)
                for (int row = 0; row < 3; ++row) x.l[3 * c + row] = m[4 * c + row];
            for (int row = 0; row < 3; ++row) x.t[row] = m[12 + row];
            mani_GbBasisXf(&basis, &x, &x);
            mani_GbToAffine(&x, &binds[j]);
        }
    }
    maniSkinSource src;
    src.skeleton = skeleton;
    src.joints = joints;
    src.inverseBinds = ibm != MANI_GB_NONE ? binds : NULL;
    src.jointCount = jc;
    r = mani_GbFromBuild(maniBuildSkin(builder, &src));
    mani_GbScratchFree(&sc);
    return r;
}
