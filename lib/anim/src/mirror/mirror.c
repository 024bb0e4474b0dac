/* mirror.h: opening a mirror map file (every byte checked once), the view's
 * accessors, and mirroring poses, root moves and names. */
#include "maul/anim/mirror.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/mirror/mirror_format.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/anim/src/skeleton/skeleton_internal.h"
#include "lib/core/utf8.h"

/* -- The view ------------------------------------------------------------------ */

static int mani_MirrorViewOk(const maniMirrorMap* m) {
    if (m == NULL || m->opened != MANI_MIRROR_OPENED || m->bytes == NULL) return 0;
    const uint64_t n = m->boneCount, size = m->size;
    if (n == 0 || n > MANI_MAX_BONES || m->axis > 2) return 0;
    return mcore_SpanFits(m->partners, n, 4, size) && mcore_SpanFits(m->flags, n, 4, size) &&
           mcore_SpanFits(m->corrections, n, 4 * MANI_MIRROR_CORRECTION_FLOATS, size) &&
           mcore_SpanFits(m->nameEntries, m->nameCount, MANI_MIRROR_NAME_ENTRY_SIZE, size) &&
           mcore_SpanFits(m->names, m->namesSize, 1, size);
}

uint64_t maniMirrorMap_GetIdentity(const maniMirrorMap* map) { return mani_MirrorViewOk(map) ? map->identity : 0; }

uint64_t maniMirrorMap_GetSkeletonIdentity(const maniMirrorMap* map) {
    return mani_MirrorViewOk(map) ? map->skeletonIdentity : 0;
}

maniMirrorAxis maniMirrorMap_GetAxis(const maniMirrorMap* map) {
    return mani_MirrorViewOk(map) ? (maniMirrorAxis)map->axis : maniMirrorAxisX;
}

/* A partner as the bytes hold it, clamped: a partner past the count (bytes
 * changed after the open) reads as the bone itself. */
static uint32_t mani_MirrorPartnerRaw(const maniMirrorMap* m, uint32_t bone) {
    const uint32_t p = mcore_ReadU32(m->bytes + m->partners + 4ull * bone);
    return p < m->boneCount ? p : bone;
}

static uint32_t mani_MirrorFlagsRaw(const maniMirrorMap* m, uint32_t bone) {
    return mcore_ReadU32(m->bytes + m->flags + 4ull * bone);
}

uint32_t maniMirrorMap_GetPartner(const maniMirrorMap* map, uint32_t bone) {
    if (!mani_MirrorViewOk(map) || bone >= map->boneCount) return MANI_NO_BONE;
    return mani_MirrorPartnerRaw(map, bone);
}

uint32_t maniMirrorMap_GetBoneFlags(const maniMirrorMap* map, uint32_t bone) {
    if (!mani_MirrorViewOk(map) || bone >= map->boneCount) return 0;
    return mani_MirrorFlagsRaw(map, bone) & MANI_MIRROR_PUBLIC_FLAGS;
}

uint32_t maniMirrorMap_GetUnmatchedBone(const maniMirrorMap* map) {
    if (!mani_MirrorViewOk(map) || map->unmatchedBone >= map->boneCount) return MANI_NO_BONE;
    return map->unmatchedBone;
}

/* The entry of a hash in the name table (by increasing hash), or
 * UINT32_MAX. */
static uint32_t mani_MirrorFindHash(const maniMirrorMap* m, uint64_t hash) {
    uint32_t lo = 0, hi = m->nameCount;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        const uint64_t h = mcore_ReadU64(m->bytes + m->nameEntries + (uint64_t)MANI_MIRROR_NAME_ENTRY_SIZE * mid);
        if (h < hash) {
            lo = mid + 1;
        } else if (h > hash) {
            hi = mid;
        } else {
            return mid;
        }
    }
    return UINT32_MAX;
}

/* The bytes of a span in the names, or NULL when the span (changed after the
 * open) leaves them. */
static const char* mani_MirrorSpan(const maniMirrorMap* m, const uint8_t* span, size_t* lengthOut) {
    const uint64_t offset = mcore_ReadU32(span), length = mcore_ReadU32(span + 4);
    if (offset > m->namesSize || length > m->namesSize - offset) return NULL;
    *lengthOut = (size_t)length;
    return (const char*)(m->bytes + m->names + offset);
}

const char* maniMirrorMap_MirrorName(const maniMirrorMap* map, const char* name, size_t length, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = length;
    if (!mani_MirrorViewOk(map) || (name == NULL && length != 0) || length > MANI_MAX_NAME_BYTES) return name;
    const uint32_t k = mani_MirrorFindHash(map, mani_NameHash(name, length));
    if (k == UINT32_MAX) return name;
    const uint8_t* entry = map->bytes + map->nameEntries + (uint64_t)MANI_MIRROR_NAME_ENTRY_SIZE * k;
    size_t own = 0, partner = 0;
    const char* ownBytes = mani_MirrorSpan(map, entry + 16, &own);
    const char* partnerBytes = mani_MirrorSpan(map, entry + 24, &partner);
    if (ownBytes == NULL || partnerBytes == NULL || own != length || (length != 0 && memcmp(ownBytes, name, length) != 0))
        return name;
    if (lengthOut != NULL) *lengthOut = partner;
    return partnerBytes;
}

uint64_t maniMirrorMap_MirrorNameHash(const maniMirrorMap* map, uint64_t hash) {
    if (!mani_MirrorViewOk(map)) return hash;
    const uint32_t k = mani_MirrorFindHash(map, hash);
    if (k == UINT32_MAX) return hash;
    return mcore_ReadU64(map->bytes + map->nameEntries + (uint64_t)MANI_MIRROR_NAME_ENTRY_SIZE * k + 8);
}

maniRootMove maniMirrorMap_MirrorRootMotion(const maniMirrorMap* map, maniRootMove move) {
    const uint32_t axis = mani_MirrorViewOk(map) ? map->axis : 0;
    move.translation = mani_MirrorVec3(move.translation, axis);
    move.rotation = mani_MirrorQuat(move.rotation, axis);
    return move;
}

/* -- Mirroring poses ---------------------------------------------------------- */

static maniQuat mani_MirrorCorrection(const maniMirrorMap* m, uint32_t bone, uint32_t which) {
    const uint8_t* p = m->bytes + m->corrections + 4ull * MANI_MIRROR_CORRECTION_FLOATS * bone + 16u * which;
    maniQuat q = {mcore_ReadF32(p), mcore_ReadF32(p + 4), mcore_ReadF32(p + 8), mcore_ReadF32(p + 12)};
    return q;
}

/* Whether a turn is the identity bit for bit (so composing it is skipped,
 * keeping the signs of zeros: mirroring twice gives the bits back). */
static int mani_IsIdentityTurn(maniQuat q) {
    uint32_t bits[4];
    memcpy(bits, &q, sizeof bits);
    return bits[0] == 0 && bits[1] == 0 && bits[2] == 0 && bits[3] == 0x3F800000u;
}

/* Bone i's mirrored local from its partner's local. */
static maniTransform mani_MirrorLocal(const maniMirrorMap* m, uint32_t bone, maniTransform partner) {
    const uint32_t flags = mani_MirrorFlagsRaw(m, bone);
    const maniQuat before = mani_MirrorCorrection(m, bone, 0), after = mani_MirrorCorrection(m, bone, 1);
    maniTransform out;
    out.translation = mani_MirrorVec3(partner.translation, m->axis);
    maniQuat r = mani_MirrorQuat(partner.rotation, m->axis);
    if (!mani_IsIdentityTurn(before)) {
        out.translation = maniSimdSingle_QuatRotateVec3(before, out.translation);
        r = maniSimdSingle_QuatMul(before, r);
    }
    if (!mani_IsIdentityTurn(after)) r = maniSimdSingle_QuatMul(r, after);
    out.rotation = r;
    const float s[3] = {partner.scale.x, partner.scale.y, partner.scale.z};
    out.scale.x = s[mani_MirrorPermutedAxis(flags, 0) % 3];
    out.scale.y = s[mani_MirrorPermutedAxis(flags, 1) % 3];
    out.scale.z = s[mani_MirrorPermutedAxis(flags, 2) % 3];
    return out;
}

maniResult maniMirrorMap_MirrorPose(const maniMirrorMap* map, const maniSkeleton* skeleton, const maniPose* in,
                                    maniPose* poseOut) {
    if (!mani_MirrorViewOk(map) || !mani_SkeletonViewOk(skeleton) || !mani_PoseOk(in) || !mani_PoseOk(poseOut))
        return mani_errorInvalid;
    if (skeleton->identity != map->skeletonIdentity || skeleton->boneCount != map->boneCount) return mani_errorInvalid;
    const uint32_t n = map->boneCount;
    if (in->skeletonIdentity != skeleton->identity || in->boneCount != n || poseOut->skeletonIdentity != skeleton->identity ||
        poseOut->boneCount != n)
        return mani_errorInvalid;
    if ((in->flags & MANI_POSE_DIFFERENCE) != 0 || (poseOut->flags & MANI_POSE_DIFFERENCE) != 0) return mani_errorInvalid;
    /* Each bone with its partner at once (the lower of the two), so in and
     * poseOut may be one pose. */
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t p = mani_MirrorPartnerRaw(map, i);
        if (p < i && mani_MirrorPartnerRaw(map, p) == i) continue;
        const maniTransform li = mani_PoseGetLocalRaw(in, i), lp = mani_PoseGetLocalRaw(in, p);
        const maniTransform mi = mani_MirrorLocal(map, i, lp);
        if (p != i && mani_MirrorPartnerRaw(map, p) == i) {
            const maniTransform mp = mani_MirrorLocal(map, p, li);
            mani_PoseSetLocalRaw(poseOut, p, mp);
        }
        mani_PoseSetLocalRaw(poseOut, i, mi);
    }
    poseOut->flags &= ~MANI_POSE_MODEL_CURRENT;
    return mani_success;
}

/* -- The open ------------------------------------------------------------------- */

static int mani_SpanInside(uint32_t offset, uint32_t length, uint32_t namesSize) {
    return length >= 1 && length <= MANI_MAX_NAME_BYTES && offset <= namesSize && length <= namesSize - offset;
}

maniFileResult maniOpenMirrorMap(const void* bytes, size_t size, maniMirrorMap* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindMirrorMap, mcore_formatMirrorMapLatest,
                                                     maniMirrorSections, MANI_MIRROR_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* The header. */
    if (sec[0].size != MANI_MIRROR_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    const uint64_t skeletonIdentity = mcore_ReadU64(b + info);
    const uint32_t n = mcore_ReadU32(b + info + 8);
    if (n == 0 || n > MANI_MAX_BONES) return mani_FileResult(mani_errorFormat, info + 8);
    const uint32_t axis = mcore_ReadU32(b + info + 12);
    if (axis > 2) return mani_FileResult(mani_errorFormat, info + 12);
    const uint32_t nameCount = mcore_ReadU32(b + info + 16);
    if ((uint64_t)nameCount * MANI_MIRROR_NAME_ENTRY_SIZE != sec[4].size) return mani_FileResult(mani_errorFormat, info + 16);
    const uint32_t namesSize = mcore_ReadU32(b + info + 20);
    if (namesSize != sec[5].size) return mani_FileResult(mani_errorFormat, info + 20);
    const uint32_t unmatched = mcore_ReadU32(b + info + 24);
    if (unmatched != MANI_NO_BONE && unmatched >= n) return mani_FileResult(mani_errorFormat, info + 24);
    for (uint64_t i = 28; i < 32; ++i)
        if (b[info + i] != 0) return mani_FileResult(mani_errorFormat, info + i);
    const uint64_t strides[4] = {0, 4, 4, 4 * MANI_MIRROR_CORRECTION_FLOATS};
    for (uint32_t i = 1; i < 4; ++i)
        if (sec[i].size != strides[i] * n) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(i));

    /* Partners: within the count, pairing back. */
    const uint64_t partners = sec[1].offset, flags = sec[2].offset, corrections = sec[3].offset;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t p = mcore_ReadU32(b + partners + 4ull * i);
        if (p >= n || mcore_ReadU32(b + partners + 4ull * p) != i) return mani_FileResult(mani_errorFormat, partners + 4ull * i);
    }
    /* Flags: known bits, a permutation; the first unmatched bone the
     * header's. */
    uint32_t firstUnmatched = MANI_NO_BONE;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t f = mcore_ReadU32(b + flags + 4ull * i);
        if ((f & ~(MANI_MIRROR_PUBLIC_FLAGS | MANI_MIRROR_PERMUTATION_MASK)) != 0)
            return mani_FileResult(mani_errorFormat, flags + 4ull * i);
        const uint32_t a0 = mani_MirrorPermutedAxis(f, 0), a1 = mani_MirrorPermutedAxis(f, 1), a2 = mani_MirrorPermutedAxis(f, 2);
        if (a0 > 2 || a1 > 2 || a2 > 2 || a0 == a1 || a0 == a2 || a1 == a2)
            return mani_FileResult(mani_errorFormat, flags + 4ull * i + 1);
        if ((f & MANI_MIRROR_BONE_UNMATCHED) != 0 && firstUnmatched == MANI_NO_BONE) {
            firstUnmatched = i;
            if (unmatched != i) return mani_FileResult(mani_errorFormat, flags + 4ull * i);
        }
    }
    if (firstUnmatched != unmatched) return mani_FileResult(mani_errorFormat, info + 24);
    /* Corrections: finite, of length 1. */
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t q = 0; q < 2; ++q) {
            const uint64_t at = corrections + 4ull * MANI_MIRROR_CORRECTION_FLOATS * i + 16u * q;
            double v[4];
            for (uint32_t k = 0; k < 4; ++k) {
                const float f = mcore_ReadF32(b + at + 4 * k);
                if (!isfinite(f)) return mani_FileResult(mani_errorFormat, at + 4 * k);
                v[k] = f;
            }
            const double len2 = ((v[0] * v[0] + v[1] * v[1]) + v[2] * v[2]) + v[3] * v[3];
            if (!(fabs(len2 - 1.0) <= MANI_UNIT_TOLERANCE)) return mani_FileResult(mani_errorFormat, at);
        }
    }
    /* Name pairs: increasing hash; each name and its partner inside the
     * names, 1 to MANI_MAX_NAME_BYTES of UTF-8, of their hashes. */
    const uint64_t entries = sec[4].offset, names = sec[5].offset;
    for (uint32_t k = 0; k < nameCount; ++k) {
        const uint64_t e = entries + (uint64_t)MANI_MIRROR_NAME_ENTRY_SIZE * k;
        const uint64_t h = mcore_ReadU64(b + e);
        if (k > 0 && h <= mcore_ReadU64(b + e - MANI_MIRROR_NAME_ENTRY_SIZE)) return mani_FileResult(mani_errorFormat, e);
        for (uint32_t s = 0; s < 2; ++s) {
            const uint64_t span = e + 16 + 8u * s;
            const uint32_t off = mcore_ReadU32(b + span), len = mcore_ReadU32(b + span + 4);
            if (off > namesSize) return mani_FileResult(mani_errorFormat, span);
            if (!mani_SpanInside(off, len, namesSize)) return mani_FileResult(mani_errorFormat, span + 4);
            const size_t good = mcore_Utf8Check(b + names + off, len);
            if (good != len) return mani_FileResult(mani_errorFormat, names + off + good);
            if (mani_NameHash(b + names + off, len) != mcore_ReadU64(b + e + 8u * s))
                return mani_FileResult(mani_errorFormat, e + 8u * s);
        }
    }

    maniMirrorMap v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skeletonIdentity = skeletonIdentity;
    v.opened = MANI_MIRROR_OPENED;
    v.boneCount = n;
    v.axis = axis;
    v.unmatchedBone = unmatched;
    v.nameCount = nameCount;
    v.partners = partners;
    v.flags = flags;
    v.corrections = corrections;
    v.nameEntries = entries;
    v.names = names;
    v.namesSize = namesSize;
    *out = v;
    return mani_FileResult(mani_success, 0);
}
