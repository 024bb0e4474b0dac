/* Suite "deform", its skinning part: over seeded skinned meshes
 * (lib/anim/test/fixtures/skinning_fixtures.h) and seeded poses: palettes
 * (maniPose_ComputePalette), dual quaternion and row palettes, influences
 * files (maniBuildInfluences) and centers (maniBuildCenters) byte for byte,
 * and every skinning method over a mesh of 5,000 vertices with 8 influences,
 * every output float hashed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/skinning_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/skinning.h"

#include "conformance/suites/deform.h"

static void mconf_SkinningFloats(mconf_Bytes* b, const float* f, size_t n) {
    for (size_t i = 0; i < n; ++i) mconf_BytesF32(b, f[i]);
}

/* A palette from a seeded pose of the mesh's skeleton: small translations,
 * seeded rotations, scales in [0.8, 1.25]. 1 on success. */
static int mconf_SkinningPalette(const maniFixtureSkinnedMesh* m, uint64_t seed, maniAffine* palette) {
    const size_t size = maniSkeleton_GetPoseSize(&m->skeleton);
    void* memory = aligned_alloc(MANI_POSE_ALIGNMENT, (size + 31) / 32 * 32);
    maniPose* pose = NULL;
    int ok = memory != NULL && maniInitPose(&m->skeleton, memory, size, &pose) == mani_success;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    for (uint32_t i = 0; ok && i < m->jointCount; ++i) {
        maniTransform t;
        t.translation.x = mcore_RngFloatRange(&rng, -0.2f, 0.2f);
        t.translation.y = mcore_RngFloatRange(&rng, 0.0f, 0.3f);
        t.translation.z = mcore_RngFloatRange(&rng, -0.2f, 0.2f);
        t.rotation.x = mcore_RngFloatRange(&rng, -0.3f, 0.3f);
        t.rotation.y = mcore_RngFloatRange(&rng, -0.3f, 0.3f);
        t.rotation.z = mcore_RngFloatRange(&rng, -0.3f, 0.3f);
        t.rotation.w = 1.0f;
        t.scale.x = mcore_RngFloatRange(&rng, 0.8f, 1.25f);
        t.scale.y = mcore_RngFloatRange(&rng, 0.8f, 1.25f);
        t.scale.z = mcore_RngFloatRange(&rng, 0.8f, 1.25f);
        maniPose_SetLocal(pose, i, t);
    }
    uint32_t count = 0;
    ok = ok && maniPose_ComputeModel(pose, &m->skeleton) == mani_success &&
         maniPose_ComputePalette(pose, &m->skeleton, &m->skin, palette, m->jointCount, &count) == mani_success &&
         count == m->jointCount;
    free(memory);
    return ok;
}

static void mconf_SkinningMesh(mconf_Run* run, uint64_t seed, uint32_t vertices, uint32_t per, int methods) {
    char name[128];
    maniFixtureSkinnedMesh m;
    if (!maniFixtureMakeSkinnedMesh(seed, vertices, per, 1, &m)) {
        snprintf(name, sizeof name, "skinning-%u-%u-mesh", vertices, per);
        mconf_Record(run, name, 0);
        return;
    }
    mconf_Bytes b = {0};
    const uint32_t n = m.vertexCount, joints = m.jointCount;
    maniAffine* palette = (maniAffine*)malloc(sizeof(maniAffine) * joints);
    float* dq = (float*)malloc(sizeof(float) * MANI_DUAL_QUATERNION_FLOATS * joints);
    float* rows = (float*)malloc(sizeof(float) * MANI_PALETTE_ROW_FLOATS * joints);
    float* pos = (float*)malloc(12 * (size_t)n);
    float* nrm = (float*)malloc(12 * (size_t)n);
    float* tan = (float*)malloc(16 * (size_t)n);
    if (!palette || !dq || !rows || !pos || !nrm || !tan) goto done;

    /* The influences file with its centers, byte for byte; then the
     * influences alone (the builder's sorting and binary64 renormalizing). */
    snprintf(name, sizeof name, "skinning-%u-%u-influences-file", vertices, per);
    mconf_BytesAdd(&b, m.influencesFile, m.influencesSize);
    mconf_RecordBytes(run, name, &b);
    snprintf(name, sizeof name, "skinning-%u-%u-influences", vertices, per);
    for (uint32_t v = 0; v < n; ++v)
        for (uint32_t k = 0; k < maniInfluences_GetPerVertex(&m.influences); ++k) {
            float w;
            mconf_BytesU32(&b, maniInfluences_GetInfluence(&m.influences, v, k, &w));
            mconf_BytesF32(&b, w);
        }
    mconf_RecordBytes(run, name, &b);
    snprintf(name, sizeof name, "skinning-%u-%u-built-centers", vertices, per);
    for (uint32_t v = 0; v < n; ++v) {
        maniVec3 c = {0, 0, 0};
        mconf_BytesU32(&b, maniInfluences_GetCenter(&m.influences, v, &c) ? 1u : 0u);
        mconf_BytesF32(&b, c.x);
        mconf_BytesF32(&b, c.y);
        mconf_BytesF32(&b, c.z);
    }
    mconf_RecordBytes(run, name, &b);

    /* Palettes. */
    snprintf(name, sizeof name, "skinning-%u-%u-palette", vertices, per);
    if (!mconf_SkinningPalette(&m, seed + 17, palette)) {
        mconf_Record(run, name, 0);
        goto done;
    }
    mconf_SkinningFloats(&b, &palette[0].columns[0].x, 12 * (size_t)joints);
    mconf_RecordBytes(run, name, &b);
    snprintf(name, sizeof name, "skinning-%u-%u-dual-quaternion-palette", vertices, per);
    mconf_BytesU32(&b, (uint32_t)maniConvertPaletteToDualQuaternions(palette, joints, dq));
    mconf_SkinningFloats(&b, dq, (size_t)MANI_DUAL_QUATERNION_FLOATS * joints);
    mconf_RecordBytes(run, name, &b);
    snprintf(name, sizeof name, "skinning-%u-%u-rows", vertices, per);
    mconf_BytesU32(&b, (uint32_t)maniConvertPaletteToRows(palette, joints, rows));
    mconf_SkinningFloats(&b, rows, (size_t)MANI_PALETTE_ROW_FLOATS * joints);
    mconf_RecordBytes(run, name, &b);

    /* Every method: positions, normals, tangents. */
    static const char* const names[4] = {"linear", "dual-quaternion", "blended", "centers"};
    for (int method = 0; methods && method < 4; ++method) {
        maniSkinStream streams[3] = {{m.positions, pos, 12, 12, maniSkinStreamPosition, 0},
                                     {m.normals, nrm, 12, 12, maniSkinStreamNormal, 0},
                                     {m.tangents, tan, 16, 16, maniSkinStreamTangent, 0}};
        maniSkinJob job = {&m.influences, palette, dq, joints, 0, n, 3, streams};
        maniResult r = method == 0   ? maniSkinLinear(&job)
                       : method == 1 ? maniSkinDualQuaternion(&job)
                       : method == 2 ? maniSkinBlended(&job)
                                     : maniSkinCenters(&job);
        snprintf(name, sizeof name, "skinning-%u-%u-%s", vertices, per, names[method]);
        mconf_BytesU32(&b, (uint32_t)r);
        mconf_SkinningFloats(&b, pos, 3 * (size_t)n);
        mconf_SkinningFloats(&b, nrm, 3 * (size_t)n);
        mconf_SkinningFloats(&b, tan, 4 * (size_t)n);
        mconf_RecordBytes(run, name, &b);
    }
done:
    mconf_BytesFree(&b);
    free(palette);
    free(dq);
    free(rows);
    free(pos);
    free(nrm);
    free(tan);
    maniFixtureFreeSkinnedMesh(&m);
}

void mconf_DeformSkinning(mconf_Run* run) {
    mconf_SkinningMesh(run, 7001, 40, 4, 1);
    mconf_SkinningMesh(run, 7002, 300, 5, 1);
    mconf_SkinningMesh(run, 7003, 5000, 8, 1);
}
