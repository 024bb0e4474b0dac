/* Internal helpers of clip views, shared by the clip runtime files (open,
 * sampling, cursors, root motion) and the measuring builder. */
#ifndef MAUL_ANIM_CLIP_INTERNAL_H
#define MAUL_ANIM_CLIP_INTERNAL_H

#include "lib/anim/src/clip/clip_format.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "maul/anim/clip.h"
#include "maul/anim/rootmotion.h"

/* The info every clip file starts with, as an open read it. */
typedef struct mani_ClipInfo {
    uint32_t bones, n, loop, additive;
    uint32_t counts[5]; /* float tracks, discrete tracks, discrete keys, events, markers */
    uint32_t namesSize, rootBone, rootFlags;
    float duration, rate;
    uint64_t skeletonIdentity;
} mani_ClipInfo;

/* Where the parts both clip formats share are. */
typedef struct mani_ClipShared {
    uint64_t info, floatInfo, discreteInfo, discreteKeys, events, markers, rootSamples, names;
} mani_ClipShared;

/* The open's steps both clip formats share: the 64 bytes of info (0 when
 * good, else the first wrong byte); the shared sections' sizes (float info,
 * discrete info, keys, events, markers, root samples, names); their
 * contents (0 or the first wrong byte); the view's common fields. */
uint64_t mani_ClipReadInfo(const uint8_t* b, uint64_t info, mani_ClipInfo* out);
void mani_ClipSharedSizes(const mani_ClipInfo* in, uint64_t sizes[7]);
uint64_t mani_ClipCheckShared(const uint8_t* b, const mani_ClipInfo* in, const mani_ClipShared* at);
void mani_ClipFillView(const mani_ClipInfo* in, const mani_ClipShared* at, const uint8_t* b, size_t size,
                       uint64_t identity, maniClip* out);

/* Whether four floats make a rotation of unit length within tolerance. */
int mani_ClipUnit(float x, float y, float z, float w);

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

/* The kernel's a + (b - a) f and rotation nlerp on one group of eight
 * bones; then, after every group, the lanes past the bones and the channels
 * the clip does not animate (what mani_ClipLerpGroups does after its
 * groups). */
void mani_ClipLerpGroup(const maniSimdTransformx8* ga, const maniSimdTransformx8* gb, float f,
                        maniSimdTransformx8* out);
void mani_ClipFinishLerp(const maniClip* c, const maniSkeleton* skeleton, maniPose* pose);

/* Puts the rest (additive: the identity) on a bone's channels the clip does
 * not animate. */
void mani_ClipFixChannels(const maniClip* c, const maniSkeleton* skeleton, uint32_t bone, maniTransform* t);

/* A float track's value between two samples: a step takes the second at the
 * end, a linear track va + (vb - va) f. */
static inline float mani_ClipFloatLerp(uint32_t mode, float va, float vb, mani_ClipSpot s) {
    if (mode == MANI_CLIP_FLOAT_STEP) return s.atEnd ? vb : va;
    return va + (vb - va) * s.f;
}

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
