/* Maul Anim: rootmotion.h
 *
 * Root motion: the move a clip's declared bone makes, taken out of the bone
 * at build and kept beside the clip, so the clip plays in place and the host
 * moves the character by the moves it reads.
 *
 * At build, with L(k) the bone's local at sample k (binary64), the motion is
 * M(k) = (m_t, m_r): m_t the selected axes of L_t(k) - L_t(0) (others 0),
 * m_r per the rotation flag: none, the yaw (the twist about +Y,
 * normalize(0, q_y, 0, q_w)) of L_r(k) times the conjugate of L_r(0)'s, or
 * the whole L_r(k) conj(L_r(0)). The bone keeps t' = conj(m_r)(t - m_t) and
 * r' = conj(m_r) r, so M(k) composed with the kept local is the source's. M
 * is kept per sample and read between samples as the clip is (translation
 * linear, rotation nlerp). The move between two times a and b is
 * M(a)^-1 M(b), in the character's frame at a.
 */
#ifndef MAUL_ANIM_ROOTMOTION_H
#define MAUL_ANIM_ROOTMOTION_H

#include "maul/anim/clip.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A move: translate by translation, then turn by rotation (a unit
 * quaternion); composing (t1, r1) then (t2, r2) gives (t1 + r1 t2, r1 r2). */
typedef struct maniRootMove {
    maniVec3 translation;
    maniQuat rotation;
} maniRootMove;

/* Root motion source flags: the translation axes taken out, and at most one
 * rotation flag. */
#define MANI_ROOT_MOTION_X 1u
#define MANI_ROOT_MOTION_Y 2u
#define MANI_ROOT_MOTION_Z 4u
#define MANI_ROOT_MOTION_YAW 8u       /* the turn about +Y */
#define MANI_ROOT_MOTION_ROTATION 16u /* the whole turn */
#define MANI_ROOT_MOTION_ALL_FLAGS 31u

/* Where a clip's root motion comes from: a bone of the skeleton and what of
 * its motion is taken out (flags above; at least one, not both rotation
 * flags). */
typedef struct maniRootMotionSource {
    uint32_t bone;
    uint32_t flags;
} maniRootMotionSource;

/* The move of no motion: translation 0, rotation identity. */
MANI_API maniRootMove maniMakeRootMoveIdentity(void);

/* The move a clip's root motion makes from a playhead time over a signed
 * step, in the character's frame where the move begins: a clamped clip
 * between the two times clamped to [0, duration]; a repeating clip across
 * every wrap between the unwrapped times (time and time + step in binary64,
 * each split into whole periods k and a phase in [0, duration)), the whole
 * period's move P = M(duration) raised to the periods between by squaring
 * (at most 2^32 periods, more are counted as 2^32; P^-1 going backward), in
 * binary64 with every rotation made unit after each product, rounded once. A clip without root motion, or of duration 0,
 * moves nothing. Returns mani_success; mani_errorInvalid for a NULL argument,
 * a clip view no open wrote or whose counts do not fit its file, or a time or
 * step not finite (nothing written). Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniClip_GetRootMotion(const maniClip* clip, float time, float step,
                                                          maniRootMove* moveOut);

/* Composes two moves: first, then then from where first ends: translation
 * t1 + r1 t2, rotation r1 r2, in binary64 rounded once. Safe from any
 * thread. */
MANI_API maniRootMove maniComposeRootMotion(maniRootMove first, maniRootMove then);

/* Blends moves as poses are blended: the weights normalized, the
 * translations' weighted sum, the rotations' normalized weighted sum with
 * each turned into the hemisphere of the first weighted one (binary64,
 * rounded once). Weights of 0 count for nothing; all 0 (or count 0) give the
 * move of no motion. Returns mani_success; mani_errorInvalid for a NULL
 * argument with a count (moveOut NULL), a weight negative or not finite, or
 * a move not finite (nothing written). */
MANI_NODISCARD MANI_API maniResult maniBlendRootMotion(const maniRootMove* moves, const float* weights,
                                                       uint32_t count, maniRootMove* moveOut);

/* Puts a clip's root motion back onto its bone in a pose sampled from the
 * clip at the same time: the bone's local becomes (m_t + m_r t, m_r r, s),
 * binary64 rounded once, and the model is marked stale. The time is clamped
 * to [0, duration] (NaN is 0). A clip without root motion leaves the pose
 * unchanged. Returns mani_success; mani_errorInvalid for a NULL argument, a
 * skeleton that is not the clip's or the pose's, a clip view no open wrote
 * or whose counts do not fit its file, or a difference pose (nothing
 * written). Safe from any thread; the pose is used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniClip_RestoreRootMotion(const maniClip* clip, const maniSkeleton* skeleton,
                                                              float time, maniPose* pose);

/* Reads the source a clip's root motion was taken from into *sourceOut.
 * True when the clip has root motion; false (nothing written) for a clip
 * without, a NULL argument or a clip view no open wrote or whose counts do
 * not fit its file. */
MANI_API bool maniClip_GetRootMotionSource(const maniClip* clip, maniRootMotionSource* sourceOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_ROOTMOTION_H */
