/* skin.h: opening a skin file (every byte checked once), the view's
 * accessors (no checks beyond staying inside the bytes), palettes. */
#include "lib/anim/src/base/file_open.h"
#include "maul/anim/skin.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/anim/src/skin/skin_format.h"

/* -- The view ------------------------------------------------------------------ */

static int mani_SkinViewOk(const maniSkin* s) {
    if (s == NULL || s->opened != MANI_SKIN_OPENED || s->bytes == NULL) return 0;
    if (s->jointCount == 0 || s->jointCount > MANI_MAX_BONES) return 0;
    if (s->skeletonBoneCount == 0 || s->skeletonBoneCount > MANI_MAX_BONES) return 0;
    return mcore_SpanFits(s->joints, s->jointCount, 4, s->size) &&
           mcore_SpanFits(s->inverseBinds, s->jointCount, 4 * MANI_SKIN_MATRIX_FLOATS, s->size);
}

/* A joint's bone as the bytes hold it (view ok, joint < count). */
static uint32_t mani_SkinJointRaw(const maniSkin* s, uint32_t joint) {
    return mcore_ReadU32(s->bytes + s->joints + 4 * (uint64_t)joint);
}

static maniAffine mani_SkinInverseBindRaw(const maniSkin* s, uint32_t joint) {
    const uint8_t* p = s->bytes + s->inverseBinds + 4 * MANI_SKIN_MATRIX_FLOATS * (uint64_t)joint;
    maniAffine a;
    for (int c = 0; c < 4; ++c) {
        a.columns[c].x = mcore_ReadF32(p + 12 * c);
        a.columns[c].y = mcore_ReadF32(p + 12 * c + 4);
        a.columns[c].z = mcore_ReadF32(p + 12 * c + 8);
    }
    return a;
}

uint32_t maniSkin_GetJointCount(const maniSkin* skin) { return mani_SkinViewOk(skin) ? skin->jointCount : 0; }

uint64_t maniSkin_GetSkeletonIdentity(const maniSkin* skin) {
    return mani_SkinViewOk(skin) ? skin->skeletonIdentity : 0;
}

uint64_t maniSkin_GetIdentity(const maniSkin* skin) { return mani_SkinViewOk(skin) ? skin->identity : 0; }

uint32_t maniSkin_GetJoint(const maniSkin* skin, uint32_t joint) {
    if (!mani_SkinViewOk(skin) || joint >= skin->jointCount) return MANI_NO_BONE;
    uint32_t bone = mani_SkinJointRaw(skin, joint);
    return bone < skin->skeletonBoneCount ? bone : MANI_NO_BONE;
}

maniAffine maniSkin_GetInverseBind(const maniSkin* skin, uint32_t joint) {
    if (!mani_SkinViewOk(skin) || joint >= skin->jointCount) return mani_IdentityAffine();
    return mani_SkinInverseBindRaw(skin, joint);
}

/* -- The open -------------------------------------------------------------------- */

maniFileResult maniOpenSkin(const void* bytes, size_t size, maniSkin* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindSkin, mcore_formatSkinLatest, maniSkinSections, MANI_SKIN_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* Info: 1 to MANI_MAX_BONES joints, 1 to MANI_MAX_BONES skeleton bones. */
    if (sec[0].size != MANI_SKIN_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint32_t n = mcore_ReadU32(b + info);
    if (n == 0 || n > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info);
    const uint32_t bones = mcore_ReadU32(b + info + 4);
    if (bones == 0 || bones > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info + 4);
    const uint64_t skeletonIdentity = mcore_ReadU64(b + info + 8);
    if (sec[1].size != 4ull * n) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(1));
    if (sec[2].size != 4ull * MANI_SKIN_MATRIX_FLOATS * n)
        return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(2));

    /* Joints: each a bone of the skeleton. */
    const uint64_t joints = sec[1].offset;
    for (uint32_t j = 0; j < n; ++j)
        if (mcore_ReadU32(b + joints + 4ull * j) >= bones) return mani_FileResult(mani_errorFormat, joints + 4ull * j);

    /* Inverse binds: every float finite. */
    const uint64_t binds = sec[2].offset;
    for (uint64_t k = 0; k < (uint64_t)MANI_SKIN_MATRIX_FLOATS * n; ++k)
        if (!isfinite(mcore_ReadF32(b + binds + 4 * k))) return mani_FileResult(mani_errorFormat, binds + 4 * k);

    maniSkin v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skeletonIdentity = skeletonIdentity;
    v.opened = MANI_SKIN_OPENED;
    v.jointCount = n;
    v.skeletonBoneCount = bones;
    v.joints = joints;
    v.inverseBinds = binds;
    *out = v;
    return mani_FileResult(mani_success, 0);
}

/* -- Palettes ---------------------------------------------------------------------- */

maniResult maniPose_ComputePalette(const maniPose* pose, const maniSkeleton* skeleton, const maniSkin* skin,
                                   maniAffine* paletteOut, uint32_t capacity, uint32_t* countOut) {
    if (pose == NULL || skeleton == NULL || skin == NULL || paletteOut == NULL || countOut == NULL)
        return mani_errorInvalid;
    if (!mani_SkinViewOk(skin) || !mani_PoseOk(pose) || !mani_SkeletonViewOk(skeleton)) return mani_errorInvalid;
    if (skeleton->identity != skin->skeletonIdentity || skeleton->boneCount != skin->skeletonBoneCount)
        return mani_errorInvalid;
    if (skeleton->identity != pose->skeletonIdentity || skeleton->boneCount != pose->boneCount)
        return mani_errorInvalid;
    if ((pose->flags & MANI_POSE_DIFFERENCE) != 0 || (pose->flags & MANI_POSE_MODEL_CURRENT) == 0)
        return mani_errorInvalid;
    const uint32_t n = skin->jointCount;
    *countOut = n;
    if (capacity < n) return mani_errorCapacity;
    for (uint32_t j = 0; j < n; ++j) {
        uint32_t bone = mani_SkinJointRaw(skin, j);
        if (bone >= pose->boneCount) bone = 0;
        maniAffine model = maniPose_GetModel(pose, bone);
        maniAffine inverseBind = mani_SkinInverseBindRaw(skin, j);
        paletteOut[j] = maniSimdSingle_AffineMul(&model, &inverseBind);
    }
    return mani_success;
}
