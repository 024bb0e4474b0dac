/* maniBuildSkin: checks a source and writes a skin file (docs/formats.md,
 * "Skin"). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/skin/skin_format.h"

maniBuildResult maniBuildSkin(maniBuilder* builder, const maniSkinSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const uint32_t n = source->jointCount;
    if (source->joints == NULL || n == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    if (n > MANI_MAX_BONES) return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, n, 0);
    /* 0 for a skeleton view no open wrote or whose counts do not fit. */
    const uint32_t bones = maniSkeleton_GetBoneCount(source->skeleton);
    if (bones == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, 0, MANI_NO_BONE);
    const uint64_t skeletonIdentity = maniSkeleton_GetIdentity(source->skeleton);

    /* Each joint in order: its bone, then its matrix. */
    for (uint32_t j = 0; j < n; ++j) {
        if (source->joints[j] >= bones)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, j, source->joints[j]);
        if (source->inverseBinds != NULL) {
            const float* f = &source->inverseBinds[j].columns[0].x;
            for (int k = 0; k < (int)MANI_SKIN_MATRIX_FLOATS; ++k)
                if (!isfinite(f[k])) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, j, 0);
        }
    }

    const uint64_t sizes[MANI_SKIN_SECTION_COUNT] = {MANI_SKIN_INFO_SIZE, 4ull * n,
                                                     4ull * MANI_SKIN_MATRIX_FLOATS * n};
    mcore_Layout layout;
    if (!mcore_LayoutSections(&layout, maniSkinSections, sizes, MANI_SKIN_SECTION_COUNT, SIZE_MAX))
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    uint8_t* file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    mcore_WriteU32(file + sec[0].offset, n);
    mcore_WriteU32(file + sec[0].offset + 4, bones);
    mcore_WriteU64(file + sec[0].offset + 8, skeletonIdentity);
    static const float identity[MANI_SKIN_MATRIX_FLOATS] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    for (uint32_t j = 0; j < n; ++j) {
        mcore_WriteU32(file + sec[1].offset + 4ull * j, source->joints[j]);
        const float* f = source->inverseBinds != NULL ? &source->inverseBinds[j].columns[0].x : identity;
        uint8_t* m = file + sec[2].offset + 4ull * MANI_SKIN_MATRIX_FLOATS * j;
        for (uint32_t k = 0; k < MANI_SKIN_MATRIX_FLOATS; ++k) mcore_WriteF32(m + 4 * k, f[k]);
    }
    mcore_FinishContainer(file, &layout, mcore_kindSkin, mcore_formatSkinLatest, MANI_ABI_VERSION);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
