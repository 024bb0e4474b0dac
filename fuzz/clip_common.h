/* Shared by the clip harnesses: the chain skeleton of fuzz_skeleton.h
 * and the exercise of every clip reader. */
#ifndef MAUL_FUZZ_CLIP_COMMON_H
#define MAUL_FUZZ_CLIP_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_skeleton.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/rootmotion.h"


/* A result must be one of the codes. */
static void maul_Code(maniResult r) {
    if ((unsigned)r > (unsigned)mani_errorBusy) abort();
}

/* Every reader of a clip, at several times, with a pose and cursors of the
 * skeleton when there is one (the view then bound to it). */
static void maul_ExerciseClip(const maniClip* c, const maniSkeleton* skeleton) {
    static const float times[] = {0.0f, 0.01f, 0.5f, 1.0f, 2.75f, -1.0f, 1e9f, NAN};
    (void)maniClip_IsCompressed(c);
    (void)maniClip_GetDuration(c);
    (void)maniClip_GetSampleRate(c);
    (void)maniClip_GetSampleCount(c);
    (void)maniClip_GetLoopPolicy(c);
    (void)maniClip_GetAdditiveBasis(c);
    (void)maniClip_GetIdentity(c);
    (void)maniClip_GetSkeletonIdentity(c);
    const uint32_t floats = maniClip_GetFloatTrackCount(c), discretes = maniClip_GetDiscreteTrackCount(c);
    const uint32_t events = maniClip_GetEventCount(c), markers = maniClip_GetMarkerCount(c);
    for (uint32_t k = 0; k <= floats; ++k) {
        size_t length = 0;
        const char* name = maniClip_GetFloatTrackName(c, k, &length);
        if (name != NULL && maniClip_FindFloatTrack(c, name, length) > k) abort();
    }
    for (uint32_t k = 0; k <= discretes; ++k) {
        size_t length = 0;
        const char* name = maniClip_GetDiscreteTrackName(c, k, &length);
        if (name != NULL) (void)maniClip_FindDiscreteTrack(c, name, length);
    }
    for (uint32_t k = 0; k <= events; ++k) (void)maniClip_GetEvent(c, k);
    for (uint32_t k = 0; k <= markers; ++k) (void)maniClip_GetMarker(c, k);
    float* values = (float*)malloc(sizeof(float) * (floats + 1));
    size_t poseSize = skeleton != NULL ? maniSkeleton_GetPoseSize(skeleton) : 0;
    void* poseMemory = poseSize ? aligned_alloc(MANI_POSE_ALIGNMENT, (poseSize + 31) / 32 * 32) : NULL;
    size_t cursorSize = maniClip_GetCursorSize(c), compactSize = maniClip_GetCursorCompactSize(c);
    void* full = cursorSize ? aligned_alloc(MANI_CLIP_CURSOR_ALIGNMENT, (cursorSize + 31) / 32 * 32) : NULL;
    void* compact = compactSize ? aligned_alloc(MANI_CLIP_CURSOR_ALIGNMENT, (compactSize + 31) / 32 * 32) : NULL;
    maniClipCursor* cf = NULL;
    maniClipCursor* cc = NULL;
    if (full != NULL && maniInitClipCursor(full, cursorSize, &cf) != mani_success) abort();
    if (compact != NULL && maniInitClipCursor(compact, compactSize, &cc) != mani_success) abort();
    maniPose* pose = NULL;
    if (poseMemory != NULL && maniInitPose(skeleton, poseMemory, poseSize, &pose) != mani_success) pose = NULL;
    for (size_t i = 0; i < sizeof times / sizeof times[0]; ++i) {
        const float t = times[i];
        uint32_t count = 0, first = 0;
        if (values != NULL) maul_Code(maniClip_SampleFloats(c, t, values, floats, &count));
        for (uint32_t k = 0; k < discretes; ++k) (void)maniClip_GetDiscreteValue(c, k, t);
        maniClip_GetEventRange(c, t, times[(i + 1) % 8], &first, &count);
        if (count > 0 && (uint64_t)first + count > events) abort();
        maniRootMove move;
        maul_Code(maniClip_GetRootMotion(c, t, 3.5f, &move));
        maul_Code(maniClip_GetRootMotion(c, t, -1e7f, &move));
        if (pose != NULL) {
            maul_Code(maniClip_Sample(c, skeleton, t, pose));
            maul_Code(maniClip_RestoreRootMotion(c, skeleton, t, pose));
            if (cf != NULL) maul_Code(maniClipCursor_Sample(cf, c, skeleton, t, pose));
            if (cc != NULL) maul_Code(maniClipCursor_Sample(cc, c, skeleton, t, pose));
            if (cc != NULL && values != NULL) maul_Code(maniClipCursor_SampleFloats(cc, c, t, values, floats, &count));
            const uint32_t some[2] = {0, maniSkeleton_GetBoneCount(skeleton) - 1};
            maul_Code(maniClip_SampleBones(c, skeleton, t, some, some[1] > 0 ? 2 : 1, pose));
        }
    }
    maniRootMotionSource rs;
    (void)maniClip_GetRootMotionSource(c, &rs);
    free(values);
    free(poseMemory);
    free(full);
    free(compact);
}

static inline void maul_OpenAndExercise(uint8_t* bytes, size_t size) {
    maniClip c;
    maniFileResult r = maniOpenClip(bytes, size, &c);
    if (r.result == mani_errorFormat && r.offset > size) abort();
    if (r.result == mani_success) {
        maniSkeleton skeleton;
        const maniSkeleton* sk = maul_FuzzChainSkeleton(c.boneCount, &skeleton) ? &skeleton : NULL;
        maniClip bound = c;
        if (sk != NULL) bound.skeletonIdentity = maniSkeleton_GetIdentity(sk);
        maul_ExerciseClip(&c, sk);
        maul_ExerciseClip(&bound, sk);
        for (size_t i = 64; i < size; i += 7) bytes[i] ^= 0x5A;
        maul_ExerciseClip(&bound, sk);
        memset(bytes, 0xFF, size);
        maul_ExerciseClip(&bound, sk);
    }
}

/* The clip open harnesses: the input opened as given and with its identity
 * stamped; with `version` not 0, also with that format version written in
 * its header (and the identity stamped), so mutations stay in that format's
 * checks. */
static inline void maul_FuzzOpenClip(const uint8_t* data, size_t size, uint32_t version) {
    for (int stamped = 0; stamped < (version != 0 ? 3 : 2); ++stamped) {
        uint8_t* bytes = maul_FuzzFileCopy(data, size);
        if (bytes == NULL) return;
        if (stamped) {
            if (size < MCORE_HEADER_SIZE) {
                free(bytes);
                return;
            }
            if (stamped == 2) mcore_WriteU32(bytes + 8, version);
            const uint64_t identity =
                mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindClip, bytes + MCORE_HEADER_SIZE, size - MCORE_HEADER_SIZE);
            mcore_WriteU64(bytes + 32, identity);
        }
        maul_OpenAndExercise(bytes, size);
        free(bytes);
    }
}

#endif
