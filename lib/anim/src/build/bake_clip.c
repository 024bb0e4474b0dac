/* Baking a clip from a clip (bake_clip_internal.h): the source clip read a
 * sample at a time, and the full-precision clip file written from baked
 * locals with the source's timing, tracks, events and markers. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/bake_clip_internal.h"
#include "lib/anim/src/clip/clip_format.h"
#include "lib/anim/src/clip/clip_internal.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/core/quat64.h"

/* -- Reading ----------------------------------------------------------------------- */

int mani_BakeReadSample(const maniClip* c, const maniSkeleton* skeleton, uint32_t k, maniPose* pose, float* floats,
                        float move[8]) {
    const uint32_t bones = c->boneCount;
    const double time = mani_ClipSampleTime(k, c->sampleCount, c->duration, c->sampleRate);
    const int compressed = maniClip_IsCompressed(c);
    if (compressed) {
        if (maniClip_Sample(c, skeleton, (float)time, pose) != mani_success) return 1;
        if (c->floatTrackCount > 0 &&
            maniClip_SampleFloats(c, (float)time, floats, c->floatTrackCount, NULL) != mani_success)
            return 1;
    } else {
        const uint8_t* record = mani_ClipRecord(c, k);
        for (uint32_t bone = 0; bone < bones; ++bone) {
            float v[10];
            mani_ClipReadBone(record, bone, v);
            maniTransform t;
            t.translation.x = v[0];
            t.translation.y = v[1];
            t.translation.z = v[2];
            t.rotation.x = v[3];
            t.rotation.y = v[4];
            t.rotation.z = v[5];
            t.rotation.w = v[6];
            t.scale.x = v[7];
            t.scale.y = v[8];
            t.scale.z = v[9];
            mani_ClipFixChannels(c, skeleton, bone, &t);
            mani_PoseSetLocalRaw(pose, bone, t);
        }
        pose->flags &= ~MANI_POSE_MODEL_CURRENT;
        for (uint32_t t = 0; t < c->floatTrackCount; ++t)
            floats[t] = mcore_ReadF32(c->bytes + c->floatSamples + 4ull * ((uint64_t)k * c->floatTrackCount + t));
    }
    for (int j = 0; j < 8; ++j) move[j] = 0.0f;
    move[7] = 1.0f;
    if (c->rootFlags != 0) {
        if (compressed) {
            double t[3], r[4];
            mani_ClipRootAt(c, (float)time, t, r);
            for (int j = 0; j < 3; ++j) move[j] = (float)t[j];
            for (int j = 0; j < 4; ++j) move[4 + j] = (float)r[j];
        } else {
            const uint8_t* r = c->bytes + c->rootSamples + (uint64_t)k * MANI_CLIP_ROOT_SAMPLE_BYTES;
            for (int j = 0; j < 8; ++j) move[j] = mcore_ReadF32(r + 4 * j);
            move[3] = 0.0f;
        }
    }
    return 0;
}

/* -- Local arithmetic ------------------------------------------------------------ */

static void mani_Unit64(double q[4]) {
    const double len = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    if (len > 0.0 && isfinite(len))
        for (int k = 0; k < 4; ++k) q[k] /= len;
}

maniTransform mani_BakeAddToBase(maniTransform base, maniTransform d) {
    const double br[4] = {base.rotation.x, base.rotation.y, base.rotation.z, base.rotation.w};
    const double dr[4] = {d.rotation.x, d.rotation.y, d.rotation.z, d.rotation.w};
    double r[4];
    mcore_QuatMul64(br, dr, r);
    mani_Unit64(r);
    maniTransform out;
    out.translation.x = (float)((double)base.translation.x + (double)d.translation.x);
    out.translation.y = (float)((double)base.translation.y + (double)d.translation.y);
    out.translation.z = (float)((double)base.translation.z + (double)d.translation.z);
    out.rotation.x = (float)r[0];
    out.rotation.y = (float)r[1];
    out.rotation.z = (float)r[2];
    out.rotation.w = (float)r[3];
    out.scale.x = (float)((double)base.scale.x * (double)d.scale.x);
    out.scale.y = (float)((double)base.scale.y * (double)d.scale.y);
    out.scale.z = (float)((double)base.scale.z * (double)d.scale.z);
    return out;
}

maniTransform mani_BakeDifference(maniTransform base, maniTransform l) {
    const double cb[4] = {-(double)base.rotation.x, -(double)base.rotation.y, -(double)base.rotation.z,
                          base.rotation.w};
    const double q[4] = {l.rotation.x, l.rotation.y, l.rotation.z, l.rotation.w};
    double r[4];
    mcore_QuatMul64(cb, q, r);
    mani_Unit64(r);
    maniTransform out;
    out.translation.x = (float)((double)l.translation.x - (double)base.translation.x);
    out.translation.y = (float)((double)l.translation.y - (double)base.translation.y);
    out.translation.z = (float)((double)l.translation.z - (double)base.translation.z);
    out.rotation.x = (float)r[0];
    out.rotation.y = (float)r[1];
    out.rotation.z = (float)r[2];
    out.rotation.w = (float)r[3];
    out.scale.x = (float)((double)l.scale.x / (double)base.scale.x);
    out.scale.y = (float)((double)l.scale.y / (double)base.scale.y);
    out.scale.z = (float)((double)l.scale.z / (double)base.scale.z);
    return out;
}

static int mani_IsIdentityTurnBits(const float q[4]) {
    uint32_t bits[4];
    memcpy(bits, q, sizeof bits);
    return bits[0] == 0 && bits[1] == 0 && bits[2] == 0 && bits[3] == 0x3F800000u;
}

/* How near 1 a component of a turned axis must be for the axis to count as
 * taken onto an axis. */
#define MANI_BAKE_AXIS_TOLERANCE 1e-6

uint32_t mani_BakeTurnRootFlags(uint32_t flags, const float qf[4]) {
    if (mani_IsIdentityTurnBits(qf)) return flags;
    double q[4] = {qf[0], qf[1], qf[2], qf[3]};
    mani_Unit64(q);
    uint32_t onto[3];
    int offAxes = 0;
    for (uint32_t j = 0; j < 3; ++j) {
        double e[3] = {0.0, 0.0, 0.0}, v[3];
        e[j] = 1.0;
        mcore_QuatRotate64(q, e, v);
        onto[j] = 3;
        for (uint32_t a = 0; a < 3; ++a)
            if (fabs(fabs(v[a]) - 1.0) <= MANI_BAKE_AXIS_TOLERANCE) onto[j] = a;
        if (onto[j] == 3) offAxes = 1;
    }
    const uint32_t axes = MANI_ROOT_MOTION_X | MANI_ROOT_MOTION_Y | MANI_ROOT_MOTION_Z;
    const uint32_t turns = MANI_ROOT_MOTION_YAW | MANI_ROOT_MOTION_ROTATION;
    if (offAxes) {
        uint32_t out = (flags & axes) != 0 ? axes : 0;
        if (flags & turns) out |= MANI_ROOT_MOTION_ROTATION;
        return out;
    }
    uint32_t out = 0;
    for (uint32_t j = 0; j < 3; ++j)
        if (flags & (1u << j)) out |= 1u << onto[j];
    if (flags & MANI_ROOT_MOTION_ROTATION) out |= MANI_ROOT_MOTION_ROTATION;
    if (flags & MANI_ROOT_MOTION_YAW) out |= onto[1] == 1 ? MANI_ROOT_MOTION_YAW : MANI_ROOT_MOTION_ROTATION;
    return out;
}

void mani_BakeTurnMove(float move[8], const float qf[4]) {
    if (mani_IsIdentityTurnBits(qf)) return;
    const double q[4] = {qf[0], qf[1], qf[2], qf[3]};
    const double c[4] = {-q[0], -q[1], -q[2], q[3]};
    const double t[3] = {move[0], move[1], move[2]};
    const double r[4] = {move[4], move[5], move[6], move[7]};
    double tt[3], qr[4], rr[4];
    mcore_QuatRotate64(q, t, tt);
    mcore_QuatMul64(q, r, qr);
    mcore_QuatMul64(qr, c, rr);
    mani_Unit64(rr);
    for (int j = 0; j < 3; ++j) move[j] = (float)tt[j];
    move[3] = 0.0f;
    for (int j = 0; j < 4; ++j) move[4 + j] = (float)rr[j];
}

/* -- Writing ---------------------------------------------------------------------- */

/* How far a baked rotation's squared length may be from 1 before the bake
 * makes it unit (a tenth of the open's MANI_CLIP_UNIT_TOLERANCE). */
#define MANI_BAKE_UNIT_SLACK 1e-6

/* A name renamed through the bake's map (or kept). */
static const char* mani_BakeName(const mani_BakedClip* bake, const char* name, size_t length, size_t* lengthOut) {
    return maniMirrorMap_MirrorName(bake->rename, name, length, lengthOut);
}

static void mani_BakePutName(uint8_t* file, uint64_t names, uint32_t* cursor, uint8_t* entry, const char* name,
                             size_t length) {
    if (length > 0) memcpy(file + names + *cursor, name, length);
    mcore_WriteU32(entry, *cursor);
    mcore_WriteU32(entry + 4, (uint32_t)length);
    *cursor += (uint32_t)length;
}

static void mani_BakePutLane(uint8_t* record, uint32_t bone, int component, float v) {
    mcore_WriteF32(record + (uint64_t)(bone / 8) * MANI_CLIP_GROUP_BYTES + 32 * component + 4 * (bone % 8), v);
}


maniBuildResult mani_BakeClipKeep(maniBuilder* b, const mani_BakedClip* bake, uint32_t reasonClip, uint64_t clipOther) {
    const maniClip* c = bake->from;
    const uint32_t bones = maniSkeleton_GetBoneCount(bake->skeleton);
    const uint32_t groups = (bones + 7) / 8;
    const uint32_t n = c->sampleCount;
    const int additive = c->additive != maniAdditiveNone;
    const maniBuildResult badClip = mani_BuildResult(mani_errorInvalid, reasonClip, 0, clipOther);
    const maniBuildResult noMemory = mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);

    /* Every value finite. */
    for (uint32_t k = 0; k < n; ++k)
        for (uint32_t bone = 0; bone < bones; ++bone)
            for (int j = 0; j < 10; ++j)
                if (!isfinite(bake->locals[((uint64_t)k * bones + bone) * 10 + j]))
                    return mani_BuildResult(mani_errorInvalid, additive ? maniBuildReasonBasis : maniBuildReasonNotFinite,
                                            bone, k);

    if (bake->rootFlags != 0)
        for (uint32_t k = 0; k < n; ++k)
            for (int j = 0; j < 8; ++j)
                if (!isfinite(bake->rootMoves[8ull * k + j]))
                    return mani_BuildResult(mani_errorInvalid, maniBuildReasonRootMotion, bake->rootBone, k);

    /* Names and sizes. */
    const uint32_t floatCount = c->floatTrackCount, discreteCount = c->discreteTrackCount;
    const uint32_t eventCount = c->eventCount, markerCount = c->markerCount;
    uint64_t namesSize = 0, keys = 0;
    for (uint32_t k = 0; k < floatCount; ++k) {
        size_t length = 0;
        const char* name = maniClip_GetFloatTrackName(c, k, &length);
        if (name == NULL) return badClip;
        mani_BakeName(bake, name, length, &length);
        namesSize += length;
    }
    for (uint32_t k = 0; k < discreteCount; ++k) {
        size_t length = 0;
        const char* name = maniClip_GetDiscreteTrackName(c, k, &length);
        if (name == NULL) return badClip;
        mani_BakeName(bake, name, length, &length);
        namesSize += length;
        const uint8_t* e = c->bytes + c->discreteInfo + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        const uint64_t first = mcore_ReadU32(e + 8), count = mcore_ReadU32(e + 12);
        if (first > c->discreteKeyCount || count > c->discreteKeyCount - first) return badClip;
        keys += count;
    }
    for (uint32_t list = 0; list < 2; ++list) {
        const uint32_t count = list == 0 ? eventCount : markerCount;
        for (uint32_t k = 0; k < count; ++k) {
            const maniClipEvent e = list == 0 ? maniClip_GetEvent(c, k) : maniClip_GetMarker(c, k);
            if (e.name == NULL) return badClip;
            size_t length = 0;
            mani_BakeName(bake, e.name, e.nameLength, &length);
            namesSize += length;
        }
    }
    if (keys > MANI_CLIP_MAX_KEYS) return badClip;
    const uint32_t rootFlags = bake->rootFlags;
    const uint64_t sizes[MANI_CLIP_SECTION_COUNT] = {
        MANI_CLIP_INFO_SIZE,
        4ull * bones,
        (uint64_t)n * groups * MANI_CLIP_GROUP_BYTES,
        (uint64_t)floatCount * MANI_CLIP_ITEM_BYTES,
        4ull * n * floatCount,
        (uint64_t)discreteCount * MANI_CLIP_ITEM_BYTES,
        keys * MANI_CLIP_KEY_BYTES,
        (uint64_t)eventCount * MANI_CLIP_ITEM_BYTES,
        (uint64_t)markerCount * MANI_CLIP_ITEM_BYTES,
        rootFlags != 0 ? (uint64_t)n * MANI_CLIP_ROOT_SAMPLE_BYTES : 0,
        namesSize,
    };
    mcore_Layout layout;
    if (!mcore_LayoutSections(&layout, maniClipSections, sizes, MANI_CLIP_SECTION_COUNT, SIZE_MAX)) return noMemory;
    uint8_t* file = (uint8_t*)mani_BuilderAlloc(b, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) return noMemory;
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;

    /* Channels: those holding anything but the base values somewhere (a
     * zero of either sign is the base's zero: sampling reads a left-out
     * channel as the base bits, as it reads a constant zero as +0); every
     * one of the root motion's bone. */
    static const float identity[10] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    static const uint32_t channelOf[10] = {0, 0, 0, 1, 1, 1, 1, 2, 2, 2};
    for (uint32_t bone = 0; bone < bones; ++bone) {
        const maniTransform rest = maniSkeleton_GetRest(bake->skeleton, bone);
        const float restv[10] = {rest.translation.x, rest.translation.y, rest.translation.z, rest.rotation.x,
                                 rest.rotation.y,    rest.rotation.z,    rest.rotation.w,    rest.scale.x,
                                 rest.scale.y,       rest.scale.z};
        const float* base = additive ? identity : restv;
        uint32_t mask = 0;
        for (uint32_t k = 0; k < n && mask != MANI_CLIP_CHANNEL_ALL; ++k) {
            const float* v = bake->locals + ((uint64_t)k * bones + bone) * 10;
            for (int j = 0; j < 10; ++j)
                if (v[j] != base[j]) mask |= 1u << channelOf[j];
        }
        if (bone == bake->rootBone) mask = MANI_CLIP_CHANNEL_ALL;
        mcore_WriteU32(file + sec[1].offset + 4ull * bone, mask);
    }

    /* Samples, rotations in the hemisphere of the bone's previous sample. */
    for (uint32_t k = 0; k < n; ++k) {
        uint8_t* record = file + sec[2].offset + (uint64_t)k * groups * MANI_CLIP_GROUP_BYTES;
        for (uint32_t bone = 0; bone < bones; ++bone) {
            float v[10];
            memcpy(v, bake->locals + ((uint64_t)k * bones + bone) * 10, sizeof v);
            const uint32_t mask = mcore_ReadU32(file + sec[1].offset + 4ull * bone);
            /* A channel left out holds the base bits, as a built clip does. */
            if (mask != MANI_CLIP_CHANNEL_ALL) {
                const maniTransform rest = maniSkeleton_GetRest(bake->skeleton, bone);
                const float restv[10] = {rest.translation.x, rest.translation.y, rest.translation.z, rest.rotation.x,
                                         rest.rotation.y,    rest.rotation.z,    rest.rotation.w,    rest.scale.x,
                                         rest.scale.y,       rest.scale.z};
                for (int j = 0; j < 10; ++j)
                    if (!(mask & (1u << channelOf[j]))) v[j] = additive ? identity[j] : restv[j];
            }
            if ((mask & MANI_CLIP_CHANNEL_R) && k > 0) {
                const uint8_t* prev = file + sec[2].offset + (uint64_t)(k - 1) * groups * MANI_CLIP_GROUP_BYTES;
                float p[10];
                mani_ClipReadBone(prev, bone, p);
                const double d = (((double)p[3] * v[3] + (double)p[4] * v[4]) + (double)p[5] * v[5]) +
                                 (double)p[6] * v[6];
                if (d < 0.0)
                    for (int j = 3; j < 7; ++j) v[j] = -v[j];
            }
            /* A rotation off unit length past what an open takes (products
             * of rotations at the open's tolerance) made unit, binary64
             * rounded once; any other keeps its bits. */
            const double len2 = (((double)v[3] * v[3] + (double)v[4] * v[4]) + (double)v[5] * v[5]) +
                                (double)v[6] * v[6];
            if (!(fabs(len2 - 1.0) <= MANI_BAKE_UNIT_SLACK)) {
                double q[4] = {v[3], v[4], v[5], v[6]};
                if (len2 > 0.0) {
                    mani_Unit64(q);
                } else {
                    q[0] = q[1] = q[2] = 0.0;
                    q[3] = 1.0;
                }
                for (int j = 0; j < 4; ++j) v[3 + j] = (float)q[j];
            }
            for (int j = 0; j < 10; ++j) mani_BakePutLane(record, bone, j, v[j]);
        }
        for (uint32_t bone = bones; bone < groups * 8; ++bone)
            for (int j = 6; j < 10; ++j) mani_BakePutLane(record, bone, j, 1.0f);
        for (uint32_t t = 0; t < floatCount; ++t)
            mcore_WriteF32(file + sec[4].offset + 4ull * ((uint64_t)k * floatCount + t),
                           bake->floats[(uint64_t)k * floatCount + t]);
        if (rootFlags != 0) {
            uint8_t* root = file + sec[9].offset + (uint64_t)k * MANI_CLIP_ROOT_SAMPLE_BYTES;
            const float* m = bake->rootMoves + 8ull * k;
            float r[4] = {m[4], m[5], m[6], m[7]};
            const double len2 = (((double)r[0] * r[0] + (double)r[1] * r[1]) + (double)r[2] * r[2]) +
                                (double)r[3] * r[3];
            if (!(fabs(len2 - 1.0) <= MANI_BAKE_UNIT_SLACK)) {
                double q[4] = {r[0], r[1], r[2], r[3]};
                if (len2 > 0.0) {
                    mani_Unit64(q);
                } else {
                    q[0] = q[1] = q[2] = 0.0;
                    q[3] = 1.0;
                }
                for (int j = 0; j < 4; ++j) r[j] = (float)q[j];
            }
            for (int j = 0; j < 3; ++j) mcore_WriteF32(root + 4 * j, m[j]);
            for (int j = 0; j < 4; ++j) mcore_WriteF32(root + 16 + 4 * j, r[j]);
        }
    }

    /* Info. */
    uint8_t* info = file + sec[0].offset;
    mcore_WriteU32(info + MANI_CLIP_INFO_BONES, bones);
    mcore_WriteU32(info + MANI_CLIP_INFO_SAMPLES, n);
    mcore_WriteF32(info + MANI_CLIP_INFO_DURATION, c->duration);
    mcore_WriteF32(info + MANI_CLIP_INFO_RATE, c->sampleRate);
    mcore_WriteU32(info + MANI_CLIP_INFO_LOOP, c->loop);
    mcore_WriteU32(info + MANI_CLIP_INFO_ADDITIVE, c->additive);
    mcore_WriteU32(info + MANI_CLIP_INFO_FLOATS, floatCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_DISCRETES, discreteCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_DISCRETE_KEYS, (uint32_t)keys);
    mcore_WriteU32(info + MANI_CLIP_INFO_EVENTS, eventCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_MARKERS, markerCount);
    mcore_WriteU32(info + MANI_CLIP_INFO_NAMES, (uint32_t)namesSize);
    mcore_WriteU32(info + MANI_CLIP_INFO_ROOT_BONE, rootFlags != 0 ? bake->rootBone : MANI_NO_BONE);
    mcore_WriteU32(info + MANI_CLIP_INFO_ROOT_FLAGS, rootFlags);
    mcore_WriteU64(info + MANI_CLIP_INFO_SKELETON, maniSkeleton_GetIdentity(bake->skeleton));

    /* Tracks, keys, events, markers and their names, in the source's order. */
    uint32_t cursor = 0, nextKey = 0;
    for (uint32_t k = 0; k < floatCount; ++k) {
        size_t length = 0;
        const char* name = maniClip_GetFloatTrackName(c, k, &length);
        name = mani_BakeName(bake, name, length, &length);
        uint8_t* e = file + sec[3].offset + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        mani_BakePutName(file, sec[10].offset, &cursor, e, name, length);
        const uint32_t mode = mcore_ReadU32(c->bytes + c->floatInfo + (uint64_t)k * MANI_CLIP_ITEM_BYTES + 8);
        mcore_WriteU32(e + 8, mode == MANI_CLIP_FLOAT_STEP ? MANI_CLIP_FLOAT_STEP : MANI_CLIP_FLOAT_LINEAR);
    }
    for (uint32_t k = 0; k < discreteCount; ++k) {
        size_t length = 0;
        const char* name = maniClip_GetDiscreteTrackName(c, k, &length);
        name = mani_BakeName(bake, name, length, &length);
        const uint8_t* from = c->bytes + c->discreteInfo + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        const uint32_t first = mcore_ReadU32(from + 8), count = mcore_ReadU32(from + 12);
        uint8_t* e = file + sec[5].offset + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
        mani_BakePutName(file, sec[10].offset, &cursor, e, name, length);
        mcore_WriteU32(e + 8, nextKey);
        mcore_WriteU32(e + 12, count);
        memcpy(file + sec[6].offset + (uint64_t)nextKey * MANI_CLIP_KEY_BYTES,
               c->bytes + c->discreteKeys + (uint64_t)first * MANI_CLIP_KEY_BYTES, (size_t)count * MANI_CLIP_KEY_BYTES);
        nextKey += count;
    }
    for (uint32_t list = 0; list < 2; ++list) {
        const uint32_t count = list == 0 ? eventCount : markerCount;
        const uint64_t table = list == 0 ? sec[7].offset : sec[8].offset;
        for (uint32_t k = 0; k < count; ++k) {
            const maniClipEvent ev = list == 0 ? maniClip_GetEvent(c, k) : maniClip_GetMarker(c, k);
            size_t length = 0;
            const char* name = mani_BakeName(bake, ev.name, ev.nameLength, &length);
            uint8_t* e = file + table + (uint64_t)k * MANI_CLIP_ITEM_BYTES;
            mcore_WriteF32(e, ev.time);
            mani_BakePutName(file, sec[10].offset, &cursor, e + 4, name, length);
        }
    }

    mcore_FinishContainer(file, &layout, mcore_kindClip, mcore_formatClipLatest, MANI_ABI_VERSION);
    mani_BuilderKeep(b, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
