/* Maul Anim: clip.h
 *
 * Clips: a skeleton's motion as samples on one uniform grid, read in place
 * from a clip file and bound to its skeleton by identity. Sampling costs the
 * same at any time, in any order. Opening a file checks all of it once; the
 * view then reads it without checks and allocates nothing. The clip file
 * formats are in docs/formats.md ("Clip", full precision, and "Compressed
 * clip", which maniCompressClip in build.h writes); every function here
 * works on both.
 *
 * The grid: sample k at time k / sampleRate for k below sampleCount - 1, the
 * last sample at the duration (a duration of 0 has one sample). A time t,
 * clamped to [0, duration] (NaN is 0), falls in segment
 * i = min(floor(t * rate), sampleCount - 2) (binary64), with the fraction
 * f = (t - t_i) / (t_(i+1) - t_i) computed in binary64 and rounded once to
 * binary32. Translation and scale are a + (b - a) f in binary32; rotations are
 * the normalized linear interpolation of the kernel layer (normalize(a (1 - f)
 * + b' f), b' = b or -b, whichever is nearer a). Channels the clip does not
 * animate read the skeleton's rest (an additive clip: the identity).
 *
 * Speed: the samples are stored in the pose's groups of eight bones and
 * sampled through the kernel layer; a file whose first byte is at a 32-byte
 * boundary is read in place, one at a 16-byte boundary through a copy of
 * each group (the same bits either way).
 */
#ifndef MAUL_ANIM_CLIP_H
#define MAUL_ANIM_CLIP_H

#include "maul/anim/pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most samples a clip holds (maniBuildClip refuses more). */
#define MANI_MAX_SAMPLES 1048576u

/* No track: what the Find functions return when no track has the name. */
#define MANI_NO_TRACK 0xFFFFFFFFu

/* What a playhead does past the clip's end: a clamped clip holds its last
 * sample; a repeating clip starts over (root motion accumulates across the
 * wraps; sampling itself always clamps the time it is given). */
typedef enum maniLoopPolicy {
    maniLoopClamp = 0,
    maniLoopRepeat = 1
} maniLoopPolicy;

/* What an additive clip's samples are differences from (the build takes
 * them as maniSkeleton_ComputePoseDifference does: t - t_b, s / s_b,
 * conj(r_b) r). maniAdditiveNone: the clip holds poses. */
typedef enum maniAdditiveBasis {
    maniAdditiveNone = 0,
    maniAdditiveRest = 1,       /* differences from the skeleton's rest */
    maniAdditiveFirstFrame = 2  /* differences from the clip's own first sample */
} maniAdditiveBasis;

/* An event or sync marker: its time in seconds and its name (UTF-8, not
 * terminated, inside the file). */
typedef struct maniClipEvent {
    float time;
    uint32_t reserved; /* 0 */
    const char* name;
    size_t nameLength;
} maniClipEvent;

/* A clip view: where an open found the file's parts. A value the caller
 * keeps (it points into the caller's bytes, which must outlive it); only
 * maniOpenClip writes one. Accessors check that the view was written by an
 * open and that its counts fit its file, so a zeroed or damaged view reads
 * as empty, never outside the bytes. */
typedef struct maniClip {
    const uint8_t* bytes;       /* the file */
    uint64_t size;              /* its size */
    uint64_t identity;          /* the file's identity */
    uint64_t skeletonIdentity;  /* the identity of the skeleton the clip is bound to */
    uint32_t opened;            /* set by an open */
    uint32_t boneCount;         /* the skeleton's bone count, 1 to MANI_MAX_BONES */
    uint32_t sampleCount;       /* 1 to MANI_MAX_SAMPLES */
    uint32_t floatTrackCount;
    uint32_t discreteTrackCount;
    uint32_t discreteKeyCount;
    uint32_t eventCount;
    uint32_t markerCount;
    uint32_t loop;              /* maniLoopPolicy */
    uint32_t additive;          /* maniAdditiveBasis */
    uint32_t rootBone;          /* the root motion's bone, or MANI_NO_BONE */
    uint32_t rootFlags;         /* maniRootMotionSource's flags (0: no root motion) */
    uint32_t flags;             /* what the open found (internal) */
    uint32_t reserved;          /* 0 */
    float duration;
    float sampleRate;
    uint64_t channels;          /* offsets of the sections in the file */
    uint64_t samples;
    uint64_t floatInfo;
    uint64_t floatSamples;
    uint64_t discreteInfo;
    uint64_t discreteKeys;
    uint64_t events;
    uint64_t markers;
    uint64_t rootSamples;
    uint64_t names;
    uint64_t namesSize;
    /* A compressed clip's parts (0 for a full-precision one; its samples
     * and floatSamples are then the segment table and the packed blocks). */
    uint64_t constants;
    uint64_t ranges;
    uint32_t boneTracks;        /* animated bone tracks */
    uint32_t floatTracks;       /* animated float tracks */
    uint32_t boneConstants;     /* f32 values the constant bone tracks hold */
    uint32_t segmentCount;
} maniClip;

/* A cursor: caller memory that plays clips, made by maniInitClipCursor.
 * Opaque. */
typedef struct maniClipCursor maniClipCursor;

/* The byte alignment of a cursor's memory (mani_errorInvalid otherwise). */
#define MANI_CLIP_CURSOR_ALIGNMENT 32u

/* -- Opening and accessors ------------------------------------------------------- */

/* Opens a clip file in place: checks the container, the header (counts,
 * timing, loop, basis, root motion), every channel mask, every sample
 * (finite, rotations unit within 1e-5 in squared length), every float
 * track, discrete key, event and marker (times in [0, duration] and not
 * decreasing, names valid UTF-8 inside the names), the root motion samples,
 * and the identity. bytes must start at a multiple of MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for a format version other than the library's (an older
 * clip is built again from its source) or a section tag only a later format
 * writes. A compressed clip (format version 11, what maniCompressClip
 * writes, or the earlier 6) is checked as its format says: every channel
 * word, constant, range, segment offset, rate and raw value,
 * every block inside the file. clipOut is unchanged on failure. Safe
 * from any thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenClip(const void* bytes, size_t size, maniClip* clipOut);

/* True for a compressed clip; false for a full-precision one (the build's
 * output and the reference) or a view no open wrote or whose counts do not
 * fit its file. Safe from any thread. */
MANI_API bool maniClip_IsCompressed(const maniClip* clip);

/* The duration in seconds, at least 0; 0 for a view no open wrote or whose
 * counts do not fit its file. Safe from any thread. */
MANI_API float maniClip_GetDuration(const maniClip* clip);

/* Samples per second; 0 for a view no open wrote or whose counts do not fit
 * its file. Safe from any thread. */
MANI_API float maniClip_GetSampleRate(const maniClip* clip);

/* The number of samples, at least 1: one at each multiple of the sample
 * period, the last at the duration; 0 for a view no open wrote or whose
 * counts do not fit its file. Safe from any thread. */
MANI_API uint32_t maniClip_GetSampleCount(const maniClip* clip);

/* maniLoopClamp or maniLoopRepeat; maniLoopClamp for a view no open wrote or
 * whose counts do not fit its file. Safe from any thread. */
MANI_API maniLoopPolicy maniClip_GetLoopPolicy(const maniClip* clip);

/* What an additive clip's differences are from; maniAdditiveNone for a view
 * no open wrote or whose counts do not fit its file. Safe from any thread. */
MANI_API maniAdditiveBasis maniClip_GetAdditiveBasis(const maniClip* clip);

/* The clip's identity (a hash of its sections, the same for the same
 * bytes); 0 for a view no open wrote or whose counts do not fit its file. */
MANI_API uint64_t maniClip_GetIdentity(const maniClip* clip);

/* The identity of the skeleton the clip is bound to; 0 for a view no open
 * wrote or whose counts do not fit its file. */
MANI_API uint64_t maniClip_GetSkeletonIdentity(const maniClip* clip);

/* -- Sampling ----------------------------------------------------------------------- */

/* Samples the clip at a time into a pose: every bone's local transform, the
 * clip's channels where it animates them and the skeleton's rest elsewhere
 * (the file header's grid and interpolation above); the model is marked
 * stale. A clip of maniAdditiveNone makes the pose a pose of the skeleton;
 * an additive clip writes differences (the identity where no track) and makes
 * it a difference. Returns mani_success; mani_errorInvalid for a NULL
 * argument, a skeleton that is not the clip's or the pose's, or a clip view
 * no open wrote or whose counts do not fit its file (the pose unchanged).
 * Bytes changed after the open sample to some pose, read only within the
 * file. Safe from any thread; the pose is used by one thread at a time. */
MANI_NODISCARD MANI_API maniResult maniClip_Sample(const maniClip* clip, const maniSkeleton* skeleton, float time,
                                                   maniPose* poseOut);

/* Samples some bones (bones[0..count), increasing, below the bone count) as
 * maniClip_Sample samples them; every other bone's local is left as it was.
 * The model is marked stale. Returns mani_success; mani_errorInvalid for a
 * NULL argument (bones may be NULL when count is 0), a skeleton that is not
 * the clip's or the pose's, bones out of range or not increasing, a
 * difference pose for a clip of maniAdditiveNone (an additive clip needs a
 * difference pose), or a clip view no open wrote or whose counts do not fit
 * its file (the pose unchanged). */
MANI_NODISCARD MANI_API maniResult maniClip_SampleBones(const maniClip* clip, const maniSkeleton* skeleton,
                                                        float time, const uint32_t* bones, uint32_t count,
                                                        maniPose* pose);

/* -- Cursors -------------------------------------------------------------------------- */

/* The bytes a cursor needs to play a clip: a cursor made for a clip plays any
 * clip that needs no more. On a vector backend (maniGetSimdBackend) the
 * cursor holds the two samples in the pose's groups of eight bones (a 64-byte
 * header and 640 bytes a group) and samples through the kernel layer; for a
 * compressed clip of format 11 it also keeps the decoded state of the
 * segment it last read (each group's ready values and decoding plan), so
 * sequential playback decodes each segment's header once (a cursor without
 * that room decodes it for each sample, with the same poses); on the
 * scalar backend this is maniClip_GetCursorCompactSize. 0 for a NULL clip or
 * a view no open wrote or whose counts do not fit its file. */
MANI_API size_t maniClip_GetCursorSize(const maniClip* clip);

/* The bytes of the smallest cursor that plays a clip: a 64-byte header and
 * its two samples bone by bone (80 bytes a bone); a cursor with less memory
 * than maniClip_GetCursorSize's for the clip it plays walks those samples one
 * bone at a time, with the same poses. 0 for a NULL clip or a view no open
 * wrote or whose counts do not fit its file. */
MANI_API size_t maniClip_GetCursorCompactSize(const maniClip* clip);

/* Makes a cursor in caller memory (size bytes at a multiple of
 * MANI_CLIP_CURSOR_ALIGNMENT), bound to no clip yet. Returns mani_success;
 * mani_errorInvalid for a NULL or misaligned argument; mani_errorCapacity
 * when the memory is too small for any cursor (its 64-byte header). */
MANI_NODISCARD MANI_API maniResult maniInitClipCursor(void* memory, size_t size, maniClipCursor** cursorOut);

/* Samples the clip at a time into a pose as maniClip_Sample does, bit for
 * bit, through the cursor: a clip of another identity or at another address
 * rebinds it, dropping what it held. Returns mani_success; mani_errorInvalid
 * as maniClip_Sample, or for a NULL cursor; mani_errorCapacity when the
 * cursor is smaller than the clip's compact size (the cursor and pose
 * unchanged). */
MANI_NODISCARD MANI_API maniResult maniClipCursor_Sample(maniClipCursor* cursor, const maniClip* clip,
                                                         const maniSkeleton* skeleton, float time, maniPose* poseOut);

/* Samples every float track as maniClip_SampleFloats does, through the
 * cursor. Returns as maniClip_SampleFloats; mani_errorInvalid also for a NULL
 * cursor; mani_errorCapacity also when the cursor is too small. */
MANI_NODISCARD MANI_API maniResult maniClipCursor_SampleFloats(maniClipCursor* cursor, const maniClip* clip,
                                                               float time, float* valuesOut, uint32_t capacity,
                                                               uint32_t* countOut);

/* -- Float tracks ------------------------------------------------------------------- */

/* The number of float tracks (morph weights, curves); 0 for a view no open
 * wrote or whose counts do not fit its file. */
MANI_API uint32_t maniClip_GetFloatTrackCount(const maniClip* clip);

/* A float track's name, UTF-8 and not terminated; its length in *lengthOut
 * (when not NULL; 0 on NULL returns). NULL for a track past the count, a view
 * no open wrote or whose counts do not fit its file, or a name span in the
 * bytes past the names. */
MANI_API const char* maniClip_GetFloatTrackName(const maniClip* clip, uint32_t track, size_t* lengthOut);

/* Finds a float track by name: the track, or MANI_NO_TRACK, also for a view
 * no open wrote or whose counts do not fit its file. */
MANI_API uint32_t maniClip_FindFloatTrack(const maniClip* clip, const char* name, size_t length);

/* Samples every float track at a time clamped as maniClip_Sample clamps it:
 * a linear track a + (b - a) f (binary32), a step track the sample at or
 * before the time. *countOut (when not NULL) receives the count. Returns
 * mani_success; mani_errorCapacity when capacity is smaller than the count,
 * with the count written and nothing else; mani_errorInvalid for a NULL clip,
 * a view no open wrote or whose counts do not fit its file, or a NULL array
 * with a positive capacity. Bytes changed after the open give some values,
 * read only within the file. */
MANI_NODISCARD MANI_API maniResult maniClip_SampleFloats(const maniClip* clip, float time, float* valuesOut,
                                                         uint32_t capacity, uint32_t* countOut);

/* -- Discrete tracks ----------------------------------------------------------------- */

/* The number of discrete tracks (whole numbers held between keys); 0 for a
 * view no open wrote or whose counts do not fit its file. */
MANI_API uint32_t maniClip_GetDiscreteTrackCount(const maniClip* clip);

/* A discrete track's name, as maniClip_GetFloatTrackName. */
MANI_API const char* maniClip_GetDiscreteTrackName(const maniClip* clip, uint32_t track, size_t* lengthOut);

/* Finds a discrete track by name: the track or MANI_NO_TRACK. */
MANI_API uint32_t maniClip_FindDiscreteTrack(const maniClip* clip, const char* name, size_t length);

/* A discrete track's value at a time: its last key at or before the time, or
 * its first key before that (NaN is 0). 0 for a track past the count, a view
 * no open wrote or whose counts do not fit its file, or keys in the bytes
 * past the keys. */
MANI_API int32_t maniClip_GetDiscreteValue(const maniClip* clip, uint32_t track, float time);

/* -- Events and markers --------------------------------------------------------------- */

/* The number of events; 0 for a view no open wrote or whose counts do not
 * fit its file. */
MANI_API uint32_t maniClip_GetEventCount(const maniClip* clip);

/* An event (events are in increasing time, ties in the source's order); a
 * zeroed one for an index past the count or a view no open wrote or whose
 * counts do not fit its file; its name NULL with length 0 for a name span in
 * the bytes past the names. */
MANI_API maniClipEvent maniClip_GetEvent(const maniClip* clip, uint32_t index);

/* The events a playhead passes going from one time to another, as
 * consecutive indices: forward (from < to) those with from <= time < to,
 * backward (from > to) those with to < time <= from; none (first 0, count 0)
 * when the two are equal, either is NaN, or the view is not an open's. The
 * times are not clamped or wrapped. firstOut and countOut may be NULL. */
MANI_API void maniClip_GetEventRange(const maniClip* clip, float from, float to, uint32_t* firstOut,
                                     uint32_t* countOut);

/* The number of sync markers; 0 for a view no open wrote or whose counts do
 * not fit its file. */
MANI_API uint32_t maniClip_GetMarkerCount(const maniClip* clip);

/* A sync marker, as maniClip_GetEvent gives an event. */
MANI_API maniClipEvent maniClip_GetMarker(const maniClip* clip, uint32_t index);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_CLIP_H */
