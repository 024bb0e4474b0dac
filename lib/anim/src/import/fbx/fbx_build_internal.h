/* The FBX builders' internal parts: FBX's transform model (fbx_transform.c)
 * in binary64 over the glTF builders' transform arithmetic
 * (gltf_build_internal.h: mani_GbXf, products, inverses, splits, basis
 * conjugation), and the options' basis for a document's settings. */
#ifndef MAUL_ANIM_IMPORT_FBX_BUILD_INTERNAL_H
#define MAUL_ANIM_IMPORT_FBX_BUILD_INTERNAL_H

#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "lib/anim/src/import/gltf/gltf_build_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* FBX's inherit types (InheritType). */
#define MANI_FBX_INHERIT_RRSS 0u /* R r S s: the parent's scale applied componentwise after the model's rotation
                                    (ufbx's componentwise scale) */
#define MANI_FBX_INHERIT_RSRS 1u /* R S r s: the parent's whole transform (normal) */
#define MANI_FBX_INHERIT_RRS 2u  /* R r s: the parent's own scale left out (Maya's segment scale compensate) */

/* A model's transform properties (degrees for rotations, file units for
 * lengths), FBX's defaults where absent: 0, scalings 1, order XYZ, RrSs. */
typedef struct mani_FbxTransform {
    double translation[3];    /* Lcl Translation */
    double rotation[3];       /* Lcl Rotation, Euler in rotationOrder */
    double scaling[3];        /* Lcl Scaling */
    double rotationOffset[3]; /* RotationOffset */
    double rotationPivot[3];  /* RotationPivot */
    double scalingOffset[3];  /* ScalingOffset */
    double scalingPivot[3];   /* ScalingPivot */
    double preRotation[3];    /* PreRotation, Euler XYZ */
    double postRotation[3];   /* PostRotation, Euler XYZ, applied inverted */
    double geometricTranslation[3];
    double geometricRotation[3]; /* Euler XYZ */
    double geometricScaling[3];
    uint32_t rotationOrder;   /* 0 XYZ, 1 XZY, 2 YZX, 3 YXZ, 4 ZXY, 5 ZYX, 6 spheric (read as XYZ); XYZ unless
                                 RotationActive is 1 (as ufbx reads casegen_rotation_order) */
    uint32_t inheritType;     /* MANI_FBX_INHERIT_... */
} mani_FbxTransform;

void mani_FbxDefaultTransform(mani_FbxTransform* t);

/* The rotation of Euler angles in degrees in an order: XYZ turns about X
 * first, then Y, then Z (R = Rz Ry Rx). */
void mani_FbxEulerMatrix(const double degrees[3], uint32_t order, mani_GbXf* out);

/* The local transform: T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp S Sp^-1. */
void mani_FbxLocalMatrix(const mani_FbxTransform* t, mani_GbXf* out);

/* The geometric transform (meshes only, never inherited): Tg Rg Sg. */
void mani_FbxGeometricMatrix(const mani_FbxTransform* t, mani_GbXf* out);

/* Reads a model's transform properties (its own, else the Model template's
 * in Definitions, else FBX's defaults). Returns success, or Property (item
 * the model, offset the refused value) for a value that is not a finite
 * number, a vector of fewer than three, or an order or inherit type out of
 * range. */
maniImportResult mani_FbxReadTransform(const maniFbx* f, uint32_t model, mani_FbxTransform* out);

/* The scale a model hands its RrSs and Rrs children (ufbx's inherit
 * scale): its Lcl Scaling, times its parent's inherit scale componentwise
 * when the model is itself RrSs under a parent. */
void mani_FbxInheritScale(const maniFbx* f, uint32_t model, double out[3]);

/* Whether parent#unscaled takes the parent's whole inherit scale away (an
 * RrSs parent whose parent's inherit scale is not uniform) or only the
 * parent's Lcl Scaling (every other parent: what is left above is then
 * uniform), as mani_FbxBoneLocal forms it at the rest; clips keep the form. */
int mani_FbxHelperTakesAll(const maniFbx* f, uint32_t parent);

/* A model's local as a bone under its parent: its local matrix, with (for
 * Rrs under a parent, and RrSs under a parent whose inherit scale is not
 * uniform) the world ufbx gives, U T(E t) R (X s) (U the parent's unscaled
 * world, E its inherit scale, X E for RrSs, for Rrs the grandparent's
 * inherit scale under an RrSs parent, else 1), through the helper bone
 * parent#unscaled standing between (mani_FbxHelperTakesAll says its form).
 * *helper is set to the helper's rest when the model needs one. RrSs under
 * a uniform E is the normal product exactly. */
maniImportResult mani_FbxBoneLocal(const maniFbx* f, uint32_t model, mani_GbXf* local, int* needsHelper,
                                   mani_GbXf* helper);

/* A model's world (every model above composed, Rrs compensation applied),
 * in file axes and units. */
maniImportResult mani_FbxModelWorld(const maniFbx* f, uint32_t model, mani_GbXf* out);

/* Where a bone rooted at model hangs, in file axes: the world of its parent
 * (times the parent's scaling inverted for Rrs); identity at the top. */
maniImportResult mani_FbxAbove(const maniFbx* f, uint32_t model, mani_GbXf* out);

/* Checks options as import.h says and makes the basis from the document's
 * settings to the options' axes and unit: file right, up and front go to
 * up x front, up and front; lengths times unitMetres * unitScale. */
maniResult mani_FbxCheckOptions(const maniFbx* f, const maniFbxOptions* options, mani_GbBasis* basisOut);

/* A mesh's control points for the builders that only count them (influences,
 * morph targets): the Vertices array's count over three, set in *countOut
 * once the array decodes whole (into the builder's scratch, freed before
 * the return), so a deflated stream short of its header's size or an ASCII value
 * that does not read is refused as Data as the skin and clip builders refuse
 * theirs. Returns success (0 for no array or fewer than three values), Data
 * with the array's offset, or mani_errorCapacity when the allocator fails. */
maniImportResult mani_FbxControlPoints(struct maniBuilder* builder, const maniFbx* f, uint32_t verticesNode,
                                       uint32_t* countOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_IMPORT_FBX_BUILD_INTERNAL_H */
