/* skeleton.h: opening a skeleton file (every byte checked once) and the
 * view's accessors (no checks beyond staying inside the bytes). */
#include "lib/anim/src/base/file_open.h"
#include "maul/anim/skeleton.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/core/utf8.h"

/* -- The view ------------------------------------------------------------------ */

int mani_SkeletonViewOk(const maniSkeleton* s) {
    if (s == NULL || s->opened != MANI_SKELETON_OPENED || s->bytes == NULL) return 0;
    uint64_t n = s->boneCount, size = s->size;
    if (n == 0 || n > MANI_MAX_BONES) return 0;
    return mcore_SpanFits(s->parents, n, 4, size) && mcore_SpanFits(s->subtreeEnds, n, 4, size) &&
           mcore_SpanFits(s->rests, n, 4 * MANI_SKELETON_REST_FLOATS, size) && mcore_SpanFits(s->nameSpans, n, 8, size) &&
           mcore_SpanFits(s->nameHashes, n, 8, size) && mcore_SpanFits(s->nameOrder, n, 4, size) &&
           mcore_SpanFits(s->names, s->namesSize, 1, size);
}

const uint8_t* mani_SkeletonParentsRaw(const maniSkeleton* s) { return s->bytes + s->parents; }

uint32_t mani_SkeletonParentRaw(const maniSkeleton* s, uint32_t bone) {
    return mcore_ReadU32(s->bytes + s->parents + 4 * (uint64_t)bone);
}

maniTransform mani_IdentityTransform(void) {
    maniTransform t = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    return t;
}

maniAffine mani_IdentityAffine(void) {
    maniAffine a = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}}};
    return a;
}

maniTransform mani_SkeletonRestRaw(const maniSkeleton* s, uint32_t bone) {
    const uint8_t* p = s->bytes + s->rests + 4 * MANI_SKELETON_REST_FLOATS * (uint64_t)bone;
    maniTransform t;
    t.translation.x = mcore_ReadF32(p);
    t.translation.y = mcore_ReadF32(p + 4);
    t.translation.z = mcore_ReadF32(p + 8);
    t.rotation.x = mcore_ReadF32(p + 12);
    t.rotation.y = mcore_ReadF32(p + 16);
    t.rotation.z = mcore_ReadF32(p + 20);
    t.rotation.w = mcore_ReadF32(p + 24);
    t.scale.x = mcore_ReadF32(p + 28);
    t.scale.y = mcore_ReadF32(p + 32);
    t.scale.z = mcore_ReadF32(p + 36);
    return t;
}

uint32_t maniSkeleton_GetBoneCount(const maniSkeleton* s) { return mani_SkeletonViewOk(s) ? s->boneCount : 0; }

uint64_t maniSkeleton_GetIdentity(const maniSkeleton* s) { return mani_SkeletonViewOk(s) ? s->identity : 0; }

uint32_t maniSkeleton_GetParent(const maniSkeleton* s, uint32_t bone) {
    if (!mani_SkeletonViewOk(s) || bone >= s->boneCount) return MANI_NO_BONE;
    uint32_t p = mani_SkeletonParentRaw(s, bone);
    return p < bone ? p : MANI_NO_BONE;
}

uint32_t maniSkeleton_GetSubtreeEnd(const maniSkeleton* s, uint32_t bone) {
    if (!mani_SkeletonViewOk(s) || bone >= s->boneCount) return bone;
    uint32_t end = mcore_ReadU32(s->bytes + s->subtreeEnds + 4 * (uint64_t)bone);
    return end <= s->boneCount ? end : bone;
}

maniTransform maniSkeleton_GetRest(const maniSkeleton* s, uint32_t bone) {
    if (!mani_SkeletonViewOk(s) || bone >= s->boneCount) return mani_IdentityTransform();
    return mani_SkeletonRestRaw(s, bone);
}

const char* maniSkeleton_GetBoneName(const maniSkeleton* s, uint32_t bone, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = 0;
    if (!mani_SkeletonViewOk(s) || bone >= s->boneCount) return NULL;
    const uint8_t* span = s->bytes + s->nameSpans + 8 * (uint64_t)bone;
    uint64_t offset = mcore_ReadU32(span), length = mcore_ReadU32(span + 4);
    if (offset > s->namesSize || length > s->namesSize - offset) return NULL;
    if (lengthOut != NULL) *lengthOut = (size_t)length;
    return (const char*)(s->bytes + s->names + offset);
}

uint32_t maniSkeleton_FindBone(const maniSkeleton* s, const char* name, size_t length) {
    if (!mani_SkeletonViewOk(s) || (name == NULL && length != 0) || length > MANI_MAX_NAME_BYTES)
        return MANI_NO_BONE;
    uint64_t h = mani_NameHash(name, length);
    /* Binary search of the name order by hash; indices read from the bytes
     * are checked, so changed bytes give no match, never a wild read. */
    uint32_t lo = 0, hi = s->boneCount;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t bone = mcore_ReadU32(s->bytes + s->nameOrder + 4 * (uint64_t)mid);
        if (bone >= s->boneCount) return MANI_NO_BONE;
        uint64_t mh = mcore_ReadU64(s->bytes + s->nameHashes + 8 * (uint64_t)bone);
        if (mh < h) {
            lo = mid + 1;
        } else if (mh > h) {
            hi = mid;
        } else {
            size_t n;
            const char* candidate = maniSkeleton_GetBoneName(s, bone, &n);
            if (candidate != NULL && n == length && (length == 0 || memcmp(candidate, name, length) == 0)) return bone;
            return MANI_NO_BONE;
        }
    }
    return MANI_NO_BONE;
}

/* -- The open -------------------------------------------------------------------- */

static int mani_IsFinite(float f) { return isfinite(f); }

maniFileResult maniOpenSkeleton(const void* bytes, size_t size, maniSkeleton* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindSkeleton, mcore_formatSkeletonLatest, maniSkeletonSections, MANI_SKELETON_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* Info. */
    if (sec[0].size != 16) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    uint32_t n = mcore_ReadU32(b + info);
    if (n == 0 || n > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info);
    uint32_t namesSize = mcore_ReadU32(b + info + 4);
    if (namesSize != sec[7].size) return mani_FileResult(mani_errorFormat, info + 4);
    for (uint64_t i = 8; i < 16; ++i)
        if (b[info + i] != 0) return mani_FileResult(mani_errorFormat, info + i);
    /* Every per-bone section's size matches the count. */
    const uint64_t strides[MANI_SKELETON_SECTION_COUNT] = {0, 4, 4, 4 * MANI_SKELETON_REST_FLOATS, 8, 8, 4, 0};
    for (uint32_t i = 1; i < 7; ++i)
        if (sec[i].size != strides[i] * n) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(i));

    /* Parents and subtree ends: a depth-first order. Walking the bones in
     * order, a bone's parent must be the bone before it or one of that
     * bone's ancestors; the bones the walk climbs past on the way (the bone
     * before and its ancestors below the parent) are closed: their subtrees
     * end at this bone. In a valid order each bone is climbed past once, so
     * the walk is linear; an invalid one stops at the first bad parent. */
    const uint64_t parents = sec[1].offset, ends = sec[2].offset;
    for (uint32_t i = 0; i <= n; ++i) {
        uint32_t p = MANI_NO_BONE;
        if (i < n) {
            p = mcore_ReadU32(b + parents + 4ull * i);
            if (p != MANI_NO_BONE && p >= i) return mani_FileResult(mani_errorFormat, parents + 4ull * i);
        }
        if (i == 0) continue;
        uint32_t a = i - 1;
        while (a != p && a != MANI_NO_BONE) {
            if (mcore_ReadU32(b + ends + 4ull * a) != i) return mani_FileResult(mani_errorFormat, ends + 4ull * a);
            a = mcore_ReadU32(b + parents + 4ull * a);
        }
        if (a != p) return mani_FileResult(mani_errorFormat, parents + 4ull * i);
    }

    /* Rests: finite, rotations unit within MANI_UNIT_TOLERANCE. */
    const uint64_t rests = sec[3].offset;
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t r = rests + 4ull * MANI_SKELETON_REST_FLOATS * i;
        for (uint32_t k = 0; k < MANI_SKELETON_REST_FLOATS; ++k)
            if (!mani_IsFinite(mcore_ReadF32(b + r + 4 * k))) return mani_FileResult(mani_errorFormat, r + 4 * k);
        double x = mcore_ReadF32(b + r + 12), y = mcore_ReadF32(b + r + 16), z = mcore_ReadF32(b + r + 20),
               w = mcore_ReadF32(b + r + 24);
        double len2 = ((x * x + y * y) + z * z) + w * w;
        if (!(fabs(len2 - 1.0) <= MANI_UNIT_TOLERANCE)) return mani_FileResult(mani_errorFormat, r + 12);
    }

    /* Names: spans tile the names section in bone order, each 1 to
     * MANI_MAX_NAME_BYTES of valid UTF-8; hashes match; the order lists the
     * bones by strictly increasing hash (so names are unique). */
    const uint64_t spans = sec[4].offset, hashes = sec[5].offset, order = sec[6].offset, names = sec[7].offset;
    uint64_t expect = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t off = mcore_ReadU32(b + spans + 8ull * i), len = mcore_ReadU32(b + spans + 8ull * i + 4);
        if (off != expect) return mani_FileResult(mani_errorFormat, spans + 8ull * i);
        if (len == 0 || len > MANI_MAX_NAME_BYTES || len > namesSize - off)
            return mani_FileResult(mani_errorFormat, spans + 8ull * i + 4);
        size_t good = mcore_Utf8Check(b + names + off, len);
        if (good != len) return mani_FileResult(mani_errorFormat, names + off + good);
        expect = (uint64_t)off + len;
    }
    if (expect != namesSize) return mani_FileResult(mani_errorFormat, info + 4);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t off = mcore_ReadU32(b + spans + 8ull * i), len = mcore_ReadU32(b + spans + 8ull * i + 4);
        if (mcore_ReadU64(b + hashes + 8ull * i) != mani_NameHash(b + names + off, len))
            return mani_FileResult(mani_errorFormat, hashes + 8ull * i);
    }
    uint64_t previous = 0;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t bone = mcore_ReadU32(b + order + 4ull * k);
        if (bone >= n) return mani_FileResult(mani_errorFormat, order + 4ull * k);
        uint64_t h = mcore_ReadU64(b + hashes + 8ull * bone);
        if (k > 0 && h <= previous) return mani_FileResult(mani_errorFormat, order + 4ull * k);
        previous = h;
    }

    maniSkeleton v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.opened = MANI_SKELETON_OPENED;
    v.boneCount = n;
    v.parents = parents;
    v.subtreeEnds = ends;
    v.rests = rests;
    v.nameSpans = spans;
    v.names = names;
    v.namesSize = namesSize;
    v.nameHashes = hashes;
    v.nameOrder = order;
    *out = v;
    return mani_FileResult(mani_success, 0);
}
