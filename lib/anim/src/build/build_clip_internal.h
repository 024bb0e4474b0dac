/* The clip source's checks and its binary64 evaluation, shared by
 * maniBuildClip and maniBuilder_MeasureClip. */
#ifndef MAUL_ANIM_BUILD_CLIP_INTERNAL_H
#define MAUL_ANIM_BUILD_CLIP_INTERNAL_H

#include "lib/anim/src/build/builder_internal.h"
#include "lib/core/quat64.h"

/* Checks a source (the build's refusals, in its order). On success fills
 * *sampleCountOut and *channelTableOut: per bone and path the channel index
 * plus 1 (0: not animated), boneCount * 3 entries allocated through the
 * builder (free with mani_ClipFreeTable). */
maniBuildResult mani_ClipCheckSource(maniBuilder* b, const maniClipSource* source, uint32_t* sampleCountOut,
                                     uint32_t** channelTableOut);
void mani_ClipFreeTable(maniBuilder* b, const maniClipSource* source, uint32_t* table);

/* A bone's local at a time from the source (binary64): its channels as glTF
 * interpolates them, the skeleton's rest for the others; the rotation
 * normalized (no hemisphere choice). out: t xyz, r xyzw, s xyz. */
void mani_ClipEvalBone(const maniClipSource* source, const uint32_t* table, uint32_t bone, double time,
                       double out[10]);

/* A float track's value at a time (binary64). */
double mani_ClipEvalFloat(const maniClipSourceFloatTrack* track, double time);

/* q normalized in binary64 (length 0: the identity); products and rotations
 * are lib/core/quat64.h's. */
void mani_QNormalize64(double q[4]);

/* The root motion M of a local L given the first sample's local L0: m_t the
 * selected axes of L_t - L0_t, m_r per the rotation flag (rootmotion.h). */
void mani_ClipRootMotionOf(uint32_t flags, const double l[10], const double l0[10], double mt[3], double mr[4]);

#endif
