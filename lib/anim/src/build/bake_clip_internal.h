/* Baking a clip from a clip: reading an opened clip's samples, moves and
 * float values one sample at a time, and writing a full-precision clip file
 * from per-sample locals with the source clip's timing, float tracks,
 * discrete tracks, events and markers (names optionally renamed through a
 * mirror map). Shared by maniBuildMirroredClip and maniBuildRetargetedClip. */
#ifndef MAUL_ANIM_BAKE_CLIP_INTERNAL_H
#define MAUL_ANIM_BAKE_CLIP_INTERNAL_H

#include "lib/anim/src/build/builder_internal.h"
#include "maul/anim/clip.h"
#include "maul/anim/mirror.h"
#include "maul/anim/pose.h"

/* What a baked clip holds besides what it keeps from its source clip. */
typedef struct mani_BakedClip {
    const maniSkeleton* skeleton; /* the baked clip's skeleton (opened) */
    const maniClip* from;         /* the clip whose timing, additive basis, tracks, events and markers it keeps */
    const float* locals;          /* per sample, per bone of skeleton: t xyz, r xyzw, s xyz */
    const float* floats;          /* per sample, per float track of from */
    uint32_t rootBone;            /* the root motion's bone, or MANI_NO_BONE */
    uint32_t rootFlags;           /* its flags (0: none) */
    const float* rootMoves;       /* per sample: t xyz, 0, r xyzw (when rootFlags != 0) */
    const maniMirrorMap* rename;  /* names renamed by maniMirrorMap_MirrorName, or NULL: kept */
} mani_BakedClip;

/* Sample k of an opened clip of a skeleton: its locals into pose (the
 * stored record where the clip is full precision, else maniClip_Sample at the
 * sample's time; a difference pose for an additive clip), its float values
 * into floats (floatTrackCount) and its root move into move (t xyz, 0, r
 * xyzw; the identity without root motion). pose is a pose of the skeleton
 * whose difference flag matches the clip's basis. Returns 0 on success. */
int mani_BakeReadSample(const maniClip* clip, const maniSkeleton* skeleton, uint32_t k, maniPose* pose, float* floats,
                        float move[8]);

/* Writes the baked clip's file and keeps it in the builder: a channel whose
 * every sample holds the base values (the rest, or the identity for an
 * additive clip; zeros of either sign equal) is left out, except the root
 * motion bone's; each rotation
 * is turned into the hemisphere of its bone's previous sample (and made
 * unit where its squared length is more than 1e-6 from 1). Returns
 * mani_success, mani_errorCapacity when memory runs out, or mani_errorInvalid
 * with maniBuildReasonBasis (item the bone, other the sample) for a value not
 * finite in an additive clip (maniBuildReasonNotFinite otherwise), with
 * maniBuildReasonRootMotion (item the bone, other the sample) for a root
 * move not finite, or with
 * reasonClip (other clipOther) for a name of from its bytes no longer hold. */
maniBuildResult mani_BakeClipKeep(maniBuilder* b, const mani_BakedClip* bake, uint32_t reasonClip, uint64_t clipOther);

/* An additive sample turned absolute on a basis (binary64, rounded once):
 * translation added, rotation basis times difference, scale multiplied. */
maniTransform mani_BakeAddToBase(maniTransform base, maniTransform difference);

/* The difference of an absolute local from a basis (binary64, rounded once):
 * translation subtracted, rotation conj(basis) times local normalized, scale
 * divided; may hold values not finite (a basis scale of 0). */
maniTransform mani_BakeDifference(maniTransform base, maniTransform local);

/* The turn q (xyzw) applied to a move's flags: each translation axis taken to
 * the axis q maps it to, the yaw kept where q keeps +Y on the Y axis; all
 * axes, and the whole rotation for any rotation flag, where q takes an axis
 * off the axes. */
uint32_t mani_BakeTurnRootFlags(uint32_t flags, const float q[4]);

/* A move (t xyz, 0, r xyzw) turned by q: t' = q t, r' = q r conj(q), in
 * binary64 rounded once; unchanged when q is the identity bit for bit. */
void mani_BakeTurnMove(float move[8], const float q[4]);

#endif
