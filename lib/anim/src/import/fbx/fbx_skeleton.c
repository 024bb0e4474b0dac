/* maniBuildFbxSkeleton, maniBuildFbxModelSkeleton,
 * maniFbx_GetSkeletonPlacement and maniFbx_GetModelPlacement (import.h).
 *
 * Bones: a skeleton's models in model order, then the helpers
 * (parent#unscaled, the parent's scaling inverted) that stand between a
 * model of inherit type Rrs and its parent, in the order of their first
 * child; maniBuildSkeleton orders them depth-first from there. */
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/fbx/fbx_build_internal.h"

static maniImportResult mani_FbxEnter(maniBuilder* b, const maniFbx* f, const maniFbxOptions* options,
                                      mani_GbBasis* basis) {
    if (b == NULL) return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    maniResult entered = mani_BuilderEnter(b);
    if (entered != mani_success) return mani_GbImportResult(entered, maniImportReasonNone, 0, 0);
    if (f == NULL || f->closing || options == NULL) return mani_GbMisuse(b);
    maniResult o = mani_FbxCheckOptions(f, options, basis);
    if (o != mani_success) {
        b->misuse++;
        return mani_GbImportResult(o, maniImportReasonNone, 0, 0);
    }
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}

/* The rest of a bone: B x B^-1 split into T R S; Matrix (item the model) when it does not split. */
static maniImportResult mani_FbxRest(const mani_GbBasis* basis, const mani_GbXf* x, uint32_t model,
                                     maniTransform* out) {
    mani_GbXf c;
    mani_GbBasisXf(basis, x, &c);
    if (!mani_GbSplit(&c, out)) return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, model, 0);
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}

static maniImportResult mani_FbxBuildMarked(maniBuilder* b, const maniFbx* f, mani_GbScratch* sc,
                                            const uint8_t* mark, const mani_GbBasis* basis, int fold) {
    const uint32_t n = f->modelCount;
    size_t names = 0;
    uint32_t marked = 0;
    for (uint32_t m = 0; m < n; m++)
        if (mark[m]) {
            marked++;
            names += (size_t)f->models[m].boneNameLength + 9u;
        }
    maniSkeletonSourceBone* bones = (maniSkeletonSourceBone*)mani_GbAlloc(sc, (size_t)marked * 2u * sizeof *bones);
    uint32_t* index = (uint32_t*)mani_GbAlloc(sc, (size_t)n * 2u * sizeof(uint32_t));
    char* text = (char*)mani_GbAlloc(sc, names);
    if (bones == NULL || index == NULL || text == NULL)
        return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    uint32_t* helperOf = index + n; /* a parent's helper bone */
    uint32_t count = 0;
    for (uint32_t m = 0; m < n; m++) {
        index[m] = mark[m] ? count++ : MANI_NO_BONE;
        helperOf[m] = MANI_NO_BONE;
    }
    size_t used = 0;
    for (uint32_t m = 0; m < n; m++) {
        if (!mark[m]) continue;
        maniSkeletonSourceBone* bone = &bones[index[m]];
        bone->name = f->models[m].boneName;
        bone->nameLength = f->models[m].boneNameLength;
        mani_GbXf local, helper;
        int needsHelper;
        maniImportResult r = mani_FbxBoneLocal(f, m, &local, &needsHelper, &helper);
        if (r.result != mani_success) return r;
        const uint32_t p = f->modelParent[m];
        if (p == MANI_FBX_NONE || !mark[p]) {
            bone->parent = MANI_NO_BONE;
            if (fold) {
                mani_GbXf above;
                r = mani_FbxAbove(f, m, &above);
                if (r.result != mani_success) return r;
                mani_GbMul(&above, &local, &local);
            }
        } else if (needsHelper) {
            if (helperOf[p] == MANI_NO_BONE) {
                maniSkeletonSourceBone* h = &bones[count];
                const mani_FbxModel* pm = &f->models[p];
                char* name = text + used;
                memcpy(name, pm->boneName, pm->boneNameLength);
                memcpy(name + pm->boneNameLength, "#unscaled", 9);
                used += (size_t)pm->boneNameLength + 9u;
                h->name = name;
                h->nameLength = (size_t)pm->boneNameLength + 9u;
                h->parent = index[p];
                r = mani_FbxRest(basis, &helper, p, &h->rest);
                if (r.result != mani_success) return r;
                helperOf[p] = count++;
            }
            bone->parent = helperOf[p];
        } else {
            bone->parent = index[p];
        }
        r = mani_FbxRest(basis, &local, m, &bone->rest);
        if (r.result != mani_success) return r;
    }
    maniSkeletonSource src;
    src.bones = bones;
    src.boneCount = count;
    return mani_GbFromBuild(maniBuildSkeleton(b, &src));
}

static void mani_FbxMarkSkeleton(const maniFbx* f, uint32_t skeleton, uint8_t* mark) {
    for (uint32_t m = 0; m < f->modelCount; m++) mark[m] = f->modelSkeleton[m] == skeleton;
}

/* model and every model below it */
static void mani_FbxMarkSubtree(const maniFbx* f, uint32_t model, uint8_t* mark) {
    for (uint32_t m = 0; m < f->modelCount; m++) {
        uint32_t a = m;
        while (a != MANI_FBX_NONE && a != model) a = f->modelParent[a];
        mark[m] = a == model;
    }
}

static maniImportResult mani_FbxBuildSet(maniBuilder* builder, const maniFbx* f, const maniFbxOptions* options,
                                         uint32_t which, int subtree) {
    mani_GbBasis basis;
    maniImportResult r = mani_FbxEnter(builder, f, options, &basis);
    if (r.result != mani_success) return r;
    if (which >= (subtree ? f->modelCount : f->skeletonCount)) return mani_GbMisuse(builder);
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    uint8_t* mark = (uint8_t*)mani_GbAlloc(&sc, f->modelCount);
    if (mark == NULL) {
        mani_GbScratchFree(&sc);
        return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    }
    if (subtree) mani_FbxMarkSubtree(f, which, mark);
    else mani_FbxMarkSkeleton(f, which, mark);
    r = mani_FbxBuildMarked(builder, f, &sc, mark, &basis, options->foldPlacement != 0);
    mani_GbScratchFree(&sc);
    return r;
}

maniImportResult maniBuildFbxSkeleton(maniBuilder* builder, const maniFbx* fbx, uint32_t skeleton,
                                      const maniFbxOptions* options) {
    return mani_FbxBuildSet(builder, fbx, options, skeleton, 0);
}

maniImportResult maniBuildFbxModelSkeleton(maniBuilder* builder, const maniFbx* fbx, uint32_t model,
                                           const maniFbxOptions* options) {
    return mani_FbxBuildSet(builder, fbx, options, model, 1);
}

/* -- Placements ---------------------------------------------------------------------------- */

static maniImportResult mani_FbxPlacement(const maniFbx* f, uint32_t root, const maniFbxOptions* options,
                                          const mani_GbBasis* basis, maniAffine* out) {
    mani_GbXf p;
    mani_GbIdentity(&p);
    if (!options->foldPlacement && root != MANI_FBX_NONE) {
        maniImportResult r = mani_FbxAbove(f, root, &p);
        if (r.result != mani_success) return r;
        mani_GbBasisXf(basis, &p, &p);
    }
    mani_GbToAffine(&p, out);
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}

maniImportResult maniFbx_GetSkeletonPlacement(const maniFbx* fbx, uint32_t skeleton, const maniFbxOptions* options,
                                              maniAffine* placementOut) {
    if (fbx == NULL || fbx->closing || options == NULL || placementOut == NULL)
        return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    mani_GbBasis basis;
    maniResult o = mani_FbxCheckOptions(fbx, options, &basis);
    if (o != mani_success) return mani_GbImportResult(o, maniImportReasonNone, 0, 0);
    if (skeleton >= fbx->skeletonCount) return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    /* the root: the skeleton's lowest model whose parent is not in it */
    uint32_t root = MANI_FBX_NONE;
    for (uint32_t m = 0; m < fbx->modelCount && root == MANI_FBX_NONE; m++) {
        uint32_t p = fbx->modelParent[m];
        if (fbx->modelSkeleton[m] == skeleton && (p == MANI_FBX_NONE || fbx->modelSkeleton[p] != skeleton)) root = m;
    }
    return mani_FbxPlacement(fbx, root, options, &basis, placementOut);
}

maniImportResult maniFbx_GetModelPlacement(const maniFbx* fbx, uint32_t model, const maniFbxOptions* options,
                                           maniAffine* placementOut) {
    if (fbx == NULL || fbx->closing || options == NULL || placementOut == NULL)
        return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    mani_GbBasis basis;
    maniResult o = mani_FbxCheckOptions(fbx, options, &basis);
    if (o != mani_success) return mani_GbImportResult(o, maniImportReasonNone, 0, 0);
    if (model >= fbx->modelCount) return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    return mani_FbxPlacement(fbx, model, options, &basis, placementOut);
}
