/* Suite "ik": ik.h's chain solvers and bodyik.h's full-body solvers, one
 * part a file (ik.h), in a fixed order: a new part is added at the end. */
#include <stdlib.h>

#include "conformance/suites/ik.h"

void mconf_SuiteIk(mconf_Run* run);

maniPose* mconf_IkNewPose(const maniSkeleton* skeleton, void** memory) {
    const size_t size = maniSkeleton_GetPoseSize(skeleton);
    *memory = aligned_alloc(MANI_POSE_ALIGNMENT, (size + 31) / 32 * 32);
    maniPose* pose = NULL;
    if (*memory == NULL || maniInitPose(skeleton, *memory, size, &pose) != mani_success) return NULL;
    return pose;
}

void mconf_IkAddLocals(mconf_Bytes* b, const maniPose* pose) {
    const uint32_t n = maniPose_GetBoneCount(pose);
    for (uint32_t i = 0; i < n; ++i) {
        const maniTransform t = maniPose_GetLocal(pose, i);
        const float* f = &t.translation.x;
        for (int k = 0; k < 10; ++k) mconf_BytesF32(b, f[k]);
    }
}

void mconf_IkRecordSolve(mconf_Run* run, const char* name, maniResult r, bool reached, const maniPose* pose) {
    mconf_Bytes b = {0};
    mconf_BytesU32(&b, (uint32_t)r);
    if (r == mani_success) mconf_BytesU8(&b, reached ? 1 : 0);
    mconf_IkAddLocals(&b, pose);
    mconf_RecordBytes(run, name, &b);
    mconf_BytesFree(&b);
}

void mconf_SuiteIk(mconf_Run* run) {
    mconf_IkChain(run);
    mconf_IkBody(run);
}
