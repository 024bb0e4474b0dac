/* The per-format decode interface of clip views: what sampling, cursors and
 * the float tracks need of a clip's samples, one table of functions per
 * format (full precision in clip.c, compressed format 6 in
 * compress/compressed_clip.c, compressed format 11 in
 * compress/compressed_clip11.c). clip.c and cursor.c pick the table once per
 * call (mani_ClipDecoderOf) and never branch on the format again; a new
 * format is a new file with its table and one case below. */
#ifndef MAUL_ANIM_CLIP_DECODE_H
#define MAUL_ANIM_CLIP_DECODE_H

#include "lib/anim/src/clip/clip_internal.h"
#include "maul/anim/skeleton.h"

/* maniClip.flags (bit 0 MANI_CLIP_VIEW_PARTIAL, clip_format.h): the view is
 * of a compressed clip (any compressed format), and of format 11. */
#define MANI_CLIP_VIEW_COMPRESSED 2u
#define MANI_CLIP_VIEW_FORMAT11 4u

static inline int mani_ClipIsCompressedView(const maniClip* c) { return (c->flags & MANI_CLIP_VIEW_COMPRESSED) != 0; }

/* Every function takes a view whose mani_ClipViewOk holds and arguments
 * already checked by the public entry point. */
typedef struct mani_ClipDecoder {
    /* Whether the format's own parts of the view fit its file (the rest of
     * mani_ClipViewOk). */
    int (*viewOk)(const maniClip* c);
    /* maniClip_Sample at a spot: every bone's local, the lanes past the
     * bones the identity, the channels the clip does not animate fixed. */
    void (*sample)(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s, maniPose* pose);
    /* maniClip_SampleBones at a spot (bones increasing, below the count). */
    void (*sampleBones)(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s, const uint32_t* bones,
                        uint32_t count, maniPose* pose);
    /* The float tracks at a spot (out holds floatTrackCount). */
    void (*floatsAt)(const maniClip* c, mani_ClipSpot s, float* out);
    /* Sample k as a record of groups of eight bones (a full-precision
     * clip's sample layout), and as ten floats a bone. */
    void (*decodeRecord)(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, uint8_t* record);
    void (*decodeValues)(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, float* values);
    /* The bytes of a cursor's segment state (0: the format keeps none), and
     * decodeRecord keeping the decoded state of sample k's segment in that
     * memory (32-byte aligned, stateBytes(c) bytes): *segment is the
     * segment the state holds (MANI_CLIP_NO_SEGMENT: none), rebuilt only
     * when sample k is in another, so sequential playback decodes a
     * segment's header once. NULL when stateBytes is. */
    size_t (*stateBytes)(const maniClip* c);
    void (*decodeRecordKept)(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, uint8_t* record,
                             void* state, uint32_t* segment);
} mani_ClipDecoder;

#define MANI_CLIP_NO_SEGMENT 0xFFFFFFFFu

extern const mani_ClipDecoder maniClipDecoderFull;
extern const mani_ClipDecoder maniClipDecoderCompressed6;
extern const mani_ClipDecoder maniClipDecoderCompressed11;

static inline const mani_ClipDecoder* mani_ClipDecoderOf(const maniClip* c) {
    if (!(c->flags & MANI_CLIP_VIEW_COMPRESSED)) return &maniClipDecoderFull;
    return (c->flags & MANI_CLIP_VIEW_FORMAT11) ? &maniClipDecoderCompressed11 : &maniClipDecoderCompressed6;
}

#endif
