/* The compressed clip's runtime (open, decoding), used by the clip runtime
 * (sampling, cursors) and the compressor (which measures what it decodes). */
#ifndef MAUL_ANIM_COMPRESS_INTERNAL_H
#define MAUL_ANIM_COMPRESS_INTERNAL_H

#include "lib/anim/src/clip/clip_decode.h"
#include "lib/anim/src/clip/clip_internal.h"
#include "lib/anim/src/compress/compress_format.h"
#include "maul/anim/skeleton.h"

/* maniOpenClip for a file whose version is the compressed clip's: format 6
 * (compressed_clip.c) and format 11 (compressed_clip11.c). */
maniFileResult mani_OpenCompressedClip(const void* bytes, size_t size, maniClip* out);
maniFileResult mani_OpenCompressedClip11(const void* bytes, size_t size, maniClip* out);

/* The open's check of one segment's raw values (formats 6 and 11): every
 * raw component finite and every raw rotation of unit length, count samples
 * of the bones' animated tracks (their channel words at channels, their
 * rate bytes at block, masked by rateMask) then the float tracks'. Returns
 * the offset of the first wrong value, 0 when all are right. */
uint64_t mani_CcCheckRawValues(const uint8_t* b, uint64_t size, uint64_t channels, uint32_t bones, uint64_t block,
                               uint32_t tracks, uint64_t data, uint32_t count, uint32_t rateMask);

/* Whether a compressed view's parts fit its file (the rest of
 * mani_ClipViewOk). */
int mani_CcViewOk(const maniClip* c);

/* Where one sample's values are in its segment's block, and how far the
 * decoding of the bones has gone: filled by mani_CcWalkStart, advanced by
 * each mani_CcWalkBone in bone order (or a group of eight at a time). Every
 * read is bounded by the file: once per walk for the block's head (fast),
 * once per group for the group's bits (limit), else by each read. */
typedef struct mani_CcWalk {
    uint64_t rates;     /* the segment's rate bytes */
    uint64_t segRanges; /* its segment ranges */
    uint64_t data;      /* its samples' bits */
    uint64_t bit;       /* the next value's bit, from data */
    uint64_t floatBit;  /* the float tracks' first bit, from data */
    uint64_t limit;     /* the last byte from data an 8-byte read may start at (fast walks) */
    uint32_t track;     /* the next animated track */
    uint32_t constant;  /* the next constant value */
    uint32_t bone;      /* the next bone */
    uint32_t fast;      /* the block's head (rates, segment ranges) and 8 bytes of data lie in the file */
} mani_CcWalk;

void mani_CcWalkStart(const maniClip* c, uint32_t sample, mani_CcWalk* w);

/* Decodes the next bone's ten values (t xyz, r xyzw, s xyz): a channel's
 * default (the skeleton's rest, or the identity for an additive clip), its
 * constant, or its animated value. */
void mani_CcWalkBone(const maniClip* c, const maniSkeleton* skeleton, mani_CcWalk* w, float v[10]);

/* Decodes sample k of every bone into ten floats per bone. */
void mani_CcDecodeValues(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, float* values);

/* Decodes sample k into a record of groups of eight bones (as a
 * full-precision clip's sample). */
void mani_CcDecodeRecord(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, uint8_t* record);

/* The float tracks of sample k. */
void mani_CcDecodeFloats(const maniClip* c, uint32_t k, float* out);

/* maniClip_Sample, maniClip_SampleBones and the float tracks at a spot on a
 * compressed view (arguments checked). */
void mani_CcSample(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s, maniPose* pose);
void mani_CcSampleBones(const maniClip* c, const maniSkeleton* skeleton, mani_ClipSpot s, const uint32_t* bones,
                        uint32_t count, maniPose* pose);
void mani_CcFloatsAt(const maniClip* c, mani_ClipSpot s, float* out);

#endif
