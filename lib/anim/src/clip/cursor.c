/* Clip cursors: caller memory holding the two samples around the last time
 * played, decoded once per segment. A full cursor (vector backends) holds
 * them as sample records in groups of eight bones and samples through the
 * kernel layer (mani_ClipLerpGroups); a compact one holds each bone's ten
 * values and samples bone by bone (mani_ClipLerpValues). Both compute
 * exactly what maniClip_Sample computes. */
#include <string.h>

#include "lib/anim/src/clip/clip_internal.h"
#include "lib/anim/src/clip/clip_decode.h"
#include "lib/anim/src/simd/simd.h"

#define MANI_CURSOR_MAGIC 0x52535543u /* "CURS" */
#define MANI_CURSOR_NONE 0xFFFFFFFFu
#define MANI_CURSOR_HEADER 64u

enum { mani_cursorEmpty = 0, mani_cursorFull = 1, mani_cursorCompact = 2 };

struct maniClipCursor {
    uint32_t magic;
    uint32_t mode;      /* what the held samples are */
    uint64_t size;      /* the memory's bytes */
    uint64_t identity;  /* the bound clip's identity and address */
    const uint8_t* bytes;
    uint32_t held[2];   /* the sample each of the two slots holds, or MANI_CURSOR_NONE */
    uint32_t boneCount;
    uint32_t segment;   /* the segment the kept decoding state is of, or MANI_CLIP_NO_SEGMENT */
    uint8_t reserved[16];
};

_Static_assert(sizeof(struct maniClipCursor) == MANI_CURSOR_HEADER, "cursor header is 64 bytes");

static size_t mani_CursorCompactBytes(uint32_t bones) { return MANI_CURSOR_HEADER + 80ull * bones; }
static size_t mani_CursorFullBytes(uint32_t bones) {
    return MANI_CURSOR_HEADER + 2ull * MANI_CLIP_GROUP_BYTES * ((bones + 7) / 8);
}

/* A full cursor with room for the format's segment state after its slots. */
static size_t mani_CursorStateBytes(const maniClip* clip) {
    const mani_ClipDecoder* d = mani_ClipDecoderOf(clip);
    return d->stateBytes != NULL ? d->stateBytes(clip) : 0;
}

static int mani_CursorVector(void) { return strcmp(MANI_SIMD_BACKEND_NAME, "scalar") != 0; }

size_t maniClip_GetCursorCompactSize(const maniClip* clip) {
    return mani_ClipViewOk(clip) ? mani_CursorCompactBytes(clip->boneCount) : 0;
}

size_t maniClip_GetCursorSize(const maniClip* clip) {
    if (!mani_ClipViewOk(clip)) return 0;
    return mani_CursorVector() ? mani_CursorFullBytes(clip->boneCount) + mani_CursorStateBytes(clip)
                               : mani_CursorCompactBytes(clip->boneCount);
}

maniResult maniInitClipCursor(void* memory, size_t size, maniClipCursor** cursorOut) {
    if (memory == NULL || cursorOut == NULL || ((uintptr_t)memory % MANI_CLIP_CURSOR_ALIGNMENT) != 0)
        return mani_errorInvalid;
    if (size < MANI_CURSOR_HEADER) return mani_errorCapacity;
    maniClipCursor* c = (maniClipCursor*)memory;
    memset(c, 0, sizeof *c);
    c->magic = MANI_CURSOR_MAGIC;
    c->size = size;
    c->held[0] = c->held[1] = MANI_CURSOR_NONE;
    c->segment = MANI_CLIP_NO_SEGMENT;
    *cursorOut = c;
    return mani_success;
}

static uint8_t* mani_CursorData(maniClipCursor* c) { return (uint8_t*)c + MANI_CURSOR_HEADER; }

/* Checks the cursor against the clip and picks its mode; rebinds on another
 * clip. 0 (nothing changed) when the cursor is too small. */
static maniResult mani_CursorBind(maniClipCursor* cur, const maniClip* clip, uint32_t* modeOut) {
    if (cur == NULL || cur->magic != MANI_CURSOR_MAGIC) return mani_errorInvalid;
    uint32_t mode;
    if (mani_CursorVector() && cur->size >= mani_CursorFullBytes(clip->boneCount))
        mode = mani_cursorFull;
    else if (cur->size >= mani_CursorCompactBytes(clip->boneCount))
        mode = mani_cursorCompact;
    else
        return mani_errorCapacity;
    if (cur->bytes != clip->bytes || cur->identity != clip->identity || cur->mode != mode ||
        cur->boneCount != clip->boneCount) {
        cur->bytes = clip->bytes;
        cur->identity = clip->identity;
        cur->mode = mode;
        cur->boneCount = clip->boneCount;
        cur->held[0] = cur->held[1] = MANI_CURSOR_NONE;
        cur->segment = MANI_CLIP_NO_SEGMENT;
    }
    *modeOut = mode;
    return mani_success;
}

/* The bytes of one slot. */
static size_t mani_CursorSlotBytes(const maniClipCursor* cur) {
    return cur->mode == mani_cursorFull ? (size_t)MANI_CLIP_GROUP_BYTES * ((cur->boneCount + 7) / 8)
                                        : (size_t)40 * cur->boneCount;
}

/* Decodes sample k into a slot. */
static void mani_CursorLoad(maniClipCursor* cur, const maniClip* clip, const maniSkeleton* skeleton, uint32_t slot,
                            uint32_t k) {
    uint8_t* data = mani_CursorData(cur) + slot * mani_CursorSlotBytes(cur);
    cur->held[slot] = k;
    const mani_ClipDecoder* d = mani_ClipDecoderOf(clip);
    const size_t stateBytes = mani_CursorStateBytes(clip);
    if (cur->mode == mani_cursorFull && stateBytes > 0 && cur->size >= mani_CursorFullBytes(clip->boneCount) + stateBytes)
        d->decodeRecordKept(clip, skeleton, k, data, mani_CursorData(cur) + 2 * mani_CursorSlotBytes(cur), &cur->segment);
    else if (cur->mode == mani_cursorFull)
        d->decodeRecord(clip, skeleton, k, data);
    else
        d->decodeValues(clip, skeleton, k, (float*)(void*)data);
}

/* Makes the two slots hold the segment's samples, decoding only the ones not
 * held (playing forward, the segment's second sample becomes the next one's
 * first); the slots of samples i and j in *slotA and *slotB. */
static void mani_CursorHold(maniClipCursor* cur, const maniClip* clip, const maniSkeleton* skeleton, mani_ClipSpot s, uint32_t* slotA,
                            uint32_t* slotB) {
    uint32_t a = cur->held[0] == s.i ? 0u : cur->held[1] == s.i ? 1u : 2u;
    uint32_t b = cur->held[0] == s.j ? 0u : cur->held[1] == s.j ? 1u : 2u;
    if (s.i == s.j) { /* one sample */
        if (a == 2) mani_CursorLoad(cur, clip, skeleton, a = 0, s.i);
        *slotA = *slotB = a;
        return;
    }
    if (a == 2) mani_CursorLoad(cur, clip, skeleton, a = (b == 0 ? 1u : 0u), s.i);
    if (b == 2) mani_CursorLoad(cur, clip, skeleton, b = 1u - a, s.j);
    *slotA = a;
    *slotB = b;
}

maniResult maniClipCursor_Sample(maniClipCursor* cursor, const maniClip* clip, const maniSkeleton* skeleton, float time,
                                 maniPose* poseOut) {
    if (cursor == NULL || clip == NULL || skeleton == NULL || poseOut == NULL) return mani_errorInvalid;
    if (!mani_ClipViewOk(clip) || !mani_ClipSkeletonOk(clip, skeleton, poseOut)) return mani_errorInvalid;
    uint32_t mode = 0;
    const maniResult bound = mani_CursorBind(cursor, clip, &mode);
    if (bound != mani_success) return bound;
    const mani_ClipSpot s = mani_ClipLocateView(clip, time);
    uint32_t slotA = 0, slotB = 0;
    mani_CursorHold(cursor, clip, skeleton, s, &slotA, &slotB);
    const uint8_t* data = mani_CursorData(cursor);
    const size_t slot = mani_CursorSlotBytes(cursor);
    const uint8_t* a = data + slotA * slot;
    const uint8_t* b = data + slotB * slot;
    if (mode == mani_cursorFull) {
        mani_ClipLerpGroups(clip, skeleton, a, b, s.f, poseOut);
    } else {
        const float* fa = (const float*)(const void*)a;
        const float* fb = (const float*)(const void*)b;
        for (uint32_t bone = 0; bone < clip->boneCount; ++bone)
            mani_PoseSetLocalRaw(poseOut, bone,
                                 mani_ClipLerpValues(clip, skeleton, fa + 10ull * bone, fb + 10ull * bone, s.f, bone));
    }
    mani_ClipMarkSampled(clip, poseOut);
    return mani_success;
}

maniResult maniClipCursor_SampleFloats(maniClipCursor* cursor, const maniClip* clip, float time, float* valuesOut,
                                       uint32_t capacity, uint32_t* countOut) {
    if (cursor == NULL || !mani_ClipViewOk(clip) || (valuesOut == NULL && capacity > 0)) return mani_errorInvalid;
    uint32_t mode = 0;
    const maniResult bound = mani_CursorBind(cursor, clip, &mode);
    if (bound != mani_success) return bound;
    return maniClip_SampleFloats(clip, time, valuesOut, capacity, countOut);
}
