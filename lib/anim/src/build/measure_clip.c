/* maniBuilder_MeasureClip: a clip against the source it was built from, at
 * every sample time and halfway between, through the clip's own sampling,
 * against the source evaluated in binary64. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/build_clip_internal.h"
#include "lib/anim/src/clip/clip_format.h"
#include "lib/core/detmath.h"

/* The source's value of a bone as the clip holds it: the local (root motion
 * put back by the caller's restore), or for an additive clip its difference
 * from the basis. */
static void mani_MeasureReference(const maniClipSource* s, const uint32_t* table, uint32_t bone, double time,
                                  double out[10]) {
    mani_ClipEvalBone(s, table, bone, time, out);
    if (s->additive == maniAdditiveNone) return;
    double base[10];
    if (s->additive == maniAdditiveRest) {
        const maniTransform r = maniSkeleton_GetRest(s->skeleton, bone);
        const double v[10] = {r.translation.x, r.translation.y, r.translation.z, r.rotation.x, r.rotation.y,
                              r.rotation.z,    r.rotation.w,    r.scale.x,       r.scale.y,    r.scale.z};
        memcpy(base, v, sizeof v);
    } else {
        mani_ClipEvalBone(s, table, bone, 0.0, base);
    }
    const double cb[4] = {-base[3], -base[4], -base[5], base[6]};
    const double q[4] = {out[3], out[4], out[5], out[6]};
    double r[4];
    mcore_QuatMul64(cb, q, r);
    mani_QNormalize64(r);
    for (int j = 0; j < 3; ++j) out[j] -= base[j];
    for (int j = 0; j < 4; ++j) out[3 + j] = r[j];
    for (int j = 7; j < 10; ++j) out[j] /= base[j];
}

/* The angle between the rotations of two quaternions, both normalized in
 * binary64 first: 4 atan2(|q - r|, |q + r|) with r on q's side (the angle
 * between unit vectors u, v is 2 atan2(|u - v|, |u + v|), and a rotation's
 * angle is twice its quaternion's). Unlike 2 acos(|q.r|), which loses about
 * 3e-4 rad to the rounding of the dot product near 1, this is accurate for
 * small angles, and exactly 0 for identical rotations. */
static double mani_MeasureAngle(maniQuat got, const double want[4]) {
    double q[4] = {got.x, got.y, got.z, got.w};
    double r[4] = {want[0], want[1], want[2], want[3]};
    mani_QNormalize64(q);
    mani_QNormalize64(r);
    const double dot = ((q[0] * r[0] + q[1] * r[1]) + q[2] * r[2]) + q[3] * r[3];
    if (dot < 0.0)
        for (int j = 0; j < 4; ++j) r[j] = -r[j];
    double dd = 0.0, ss = 0.0;
    for (int j = 0; j < 4; ++j) {
        dd += (q[j] - r[j]) * (q[j] - r[j]);
        ss += (q[j] + r[j]) * (q[j] + r[j]);
    }
    return 4.0 * mcore_atan2(sqrt(dd), sqrt(ss));
}

maniResult maniBuilder_MeasureClip(maniBuilder* builder, const maniClipSource* source, const maniClip* clip,
                                   maniClipReport* reportOut) {
    if (builder == NULL) return mani_errorInvalid;
    maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return entered;
    if (source == NULL || clip == NULL || reportOut == NULL) {
        builder->misuse++;
        return mani_errorInvalid;
    }
    uint32_t n = 0;
    uint32_t* table = NULL;
    maniBuildResult checked = mani_ClipCheckSource(builder, source, &n, &table);
    if (checked.result == mani_errorCapacity) return mani_errorCapacity;
    if (checked.result != mani_success) return mani_errorInvalid;
    const maniSkeleton* skeleton = source->skeleton;
    const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
    const uint32_t floats = maniClip_GetFloatTrackCount(clip);
    uint32_t* trackOf = NULL;
    maniResult result = mani_errorInvalid;
    void* poseMemory = NULL;
    float* values = NULL;
    const size_t poseSize = maniSkeleton_GetPoseSize(skeleton);
    if (maniClip_GetSkeletonIdentity(clip) != maniSkeleton_GetIdentity(skeleton) ||
        maniClip_GetSampleCount(clip) == 0)
        goto done;
    if (source->floatTrackCount > 0) {
        trackOf = (uint32_t*)mani_BuilderAlloc(builder, sizeof(uint32_t) * source->floatTrackCount, 4);
        if (trackOf == NULL) {
            result = mani_errorCapacity;
            goto done;
        }
        for (uint32_t k = 0; k < source->floatTrackCount; ++k) {
            trackOf[k] = maniClip_FindFloatTrack(clip, source->floatTracks[k].name, source->floatTracks[k].nameLength);
            if (trackOf[k] == MANI_NO_TRACK) goto done;
        }
    }
    poseMemory = mani_BuilderAlloc(builder, poseSize, MANI_POSE_ALIGNMENT);
    if (floats > 0) values = (float*)mani_BuilderAlloc(builder, sizeof(float) * floats, 4);
    if (poseMemory == NULL || (floats > 0 && values == NULL)) {
        result = mani_errorCapacity;
        goto done;
    }
    maniPose* pose = NULL;
    if (maniInitPose(skeleton, poseMemory, poseSize, &pose) != mani_success) goto done;

    maniClipReport r = *reportOut;
    r.maxTranslation = r.maxRotation = r.maxScale = r.maxFloat = 0.0f;
    r.worstBone = MANI_NO_BONE;
    r.worstFloatTrack = MANI_NO_TRACK;
    r.timesMeasured = 0;
    const int perBone = r.bones != NULL && r.boneCapacity >= bones;
    const int perFloat = r.floatTracks != NULL && r.floatCapacity >= source->floatTrackCount;
    if (perBone) memset(r.bones, 0, sizeof(maniClipBoneError) * bones);
    if (perFloat) memset(r.floatTracks, 0, sizeof(float) * source->floatTrackCount);
    const uint32_t clipN = maniClip_GetSampleCount(clip);
    const float duration = maniClip_GetDuration(clip), rate = maniClip_GetSampleRate(clip);
    for (uint32_t k = 0; k < 2 * clipN - 1; ++k) {
        const uint32_t i = k / 2;
        double time = mani_ClipSampleTime(i, clipN, duration, rate);
        if (k % 2 == 1) time = 0.5 * (time + mani_ClipSampleTime(i + 1, clipN, duration, rate));
        const float t = (float)time;
        if (maniClip_Sample(clip, skeleton, t, pose) != mani_success) goto done;
        if (source->additive == maniAdditiveNone &&
            maniClip_RestoreRootMotion(clip, skeleton, t, pose) != mani_success)
            goto done;
        r.timesMeasured++;
        for (uint32_t bone = 0; bone < bones; ++bone) {
            double ref[10];
            mani_MeasureReference(source, table, bone, (double)t, ref);
            const maniTransform g = maniPose_GetLocal(pose, bone);
            const double dx = g.translation.x - ref[0], dy = g.translation.y - ref[1], dz = g.translation.z - ref[2];
            const double et = sqrt((dx * dx + dy * dy) + dz * dz);
            const double er = mani_MeasureAngle(g.rotation, &ref[3]);
            double es = fabs(g.scale.x - ref[7]);
            if (fabs(g.scale.y - ref[8]) > es) es = fabs(g.scale.y - ref[8]);
            if (fabs(g.scale.z - ref[9]) > es) es = fabs(g.scale.z - ref[9]);
            if (et > r.maxTranslation) r.maxTranslation = (float)et;
            if (er > r.maxRotation || (r.worstBone == MANI_NO_BONE && er > 0.0)) {
                if (er > r.maxRotation) r.maxRotation = (float)er;
                r.worstBone = bone;
            }
            if (es > r.maxScale) r.maxScale = (float)es;
            if (perBone) {
                maniClipBoneError* e = &r.bones[bone];
                const float before = fmaxf(e->translation, fmaxf(e->rotation, e->scale));
                if (et > e->translation) e->translation = (float)et;
                if (er > e->rotation) e->rotation = (float)er;
                if (es > e->scale) e->scale = (float)es;
                if (fmaxf(e->translation, fmaxf(e->rotation, e->scale)) > before) e->time = t;
            }
        }
        if (source->floatTrackCount > 0) {
            uint32_t count = 0;
            if (maniClip_SampleFloats(clip, t, values, floats, &count) != mani_success) goto done;
            for (uint32_t j = 0; j < source->floatTrackCount; ++j) {
                const double e = fabs((double)values[trackOf[j]] - mani_ClipEvalFloat(&source->floatTracks[j], (double)t));
                if (e > r.maxFloat || (r.worstFloatTrack == MANI_NO_TRACK && e > 0.0)) {
                    if (e > r.maxFloat) r.maxFloat = (float)e;
                    r.worstFloatTrack = j;
                }
                if (perFloat && e > r.floatTracks[j]) r.floatTracks[j] = (float)e;
            }
        }
    }
    *reportOut = r;
    result = mani_success;
done:
    mani_BuilderFree(builder, values, sizeof(float) * floats);
    mani_BuilderFree(builder, poseMemory, poseSize);
    mani_BuilderFree(builder, trackOf, sizeof(uint32_t) * source->floatTrackCount);
    mani_ClipFreeTable(builder, source, table);
    return result;
}
