/* Internal helpers of clip views, shared by the clip runtime files (open,
 * sampling, cursors, root motion) and the measuring builder. */
#ifndef MAUL_ANIM_CLIP_INTERNAL_H
#define MAUL_ANIM_CLIP_INTERNAL_H

#include "lib/anim/src/clip/clip_format.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "maul/anim/clip.h"
#include "maul/anim/rootmotion.h"

/* Whether a view was written by an open and its counts fit its file. */
int mani_ClipViewOk(const maniClip* c);

/* Whether a skeleton view is ok and the clip's, and the pose is a pose of it. */
int mani_ClipSkeletonOk(const maniClip* c, const maniSkeleton* skeleton, const maniPose* pose);

static inline mani_ClipSpot mani_ClipLocateView(const maniClip* c, float time) {
    return mani_ClipLocate(c->sampleCount, c->duration, c->sampleRate, time);
}

/* The bytes of sample k's record (view ok, k < count). */
static inline const uint8_t* mani_ClipRecord(const maniClip* c, uint32_t k) {
    const uint64_t groups = (c->boneCount + 7) / 8;
    return c->bytes + c->samples + (uint64_t)k * groups * MANI_CLIP_GROUP_BYTES;
}

/* Writes the locals of groups [g0, g1) of the pose: a + (b - a) f for
 * translation and scale, the QuatNlerp kernel for rotation, from two sample
 * records (any alignment), then puts the rest (or for an additive clip the
 * identity) on every channel the clip does not animate. */
void mani_ClipLerpGroups(const maniClip* c, const maniSkeleton* skeleton, const uint8_t* a, const uint8_t* b,
                         float f, maniPose* pose);

/* One bone's transform between two records, as mani_ClipLerpGroups makes it. */
maniTransform mani_ClipLerpBone(const maniClip* c, const maniSkeleton* skeleton, const uint8_t* a,
                                const uint8_t* b, float f, uint32_t bone);

/* A bone's ten values (t xyz, r xyzw, s xyz) in a sample record. */
void mani_ClipReadBone(const uint8_t* record, uint32_t bone, float v[10]);

/* One bone between two samples' values, as mani_ClipLerpBone. */
maniTransform mani_ClipLerpValues(const maniClip* c, const maniSkeleton* skeleton, const float va[10],
                                  const float vb[10], float f, uint32_t bone);

/* The pose flags after sampling the whole clip. */
void mani_ClipMarkSampled(const maniClip* c, maniPose* pose);

/* The float tracks at a spot (view ok, out holds floatTrackCount). */
void mani_ClipFloatsAt(const maniClip* c, mani_ClipSpot s, float* out);

/* The root motion M at a time clamped to the clip (view ok, root motion
 * present), in binary64. */
void mani_ClipRootAt(const maniClip* c, float time, double t[3], double r[4]);

#endif
