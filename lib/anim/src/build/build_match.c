/* maniBuildMotionDatabase: samples a skeleton's clips into frames of
 * features in the root's space, normalizes each channel as Holden's
 * reference does, orders the frames in a k-d tree and writes a motion
 * database file (docs/formats.md, "Motion database"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/match/match_format.h"
#include "lib/core/quat64.h"
#include "lib/core/utf8.h"
#include "maul/anim/matchbuild.h"
#include "maul/anim/pose.h"
#include "maul/anim/rootmotion.h"

#define MANI_MATCH_POSE_SLOTS 4u

/* What sampling carries: the poses of the last times sampled, per entry. */
typedef struct {
    const maniMotionDatabaseSource* src;
    maniPose* poses[MANI_MATCH_POSE_SLOTS];
    float times[MANI_MATCH_POSE_SLOTS];
    uint32_t valid[MANI_MATCH_POSE_SLOTS];
    uint32_t nextSlot;
    float* floats;       /* a clip's float track values */
    uint32_t floatCapacity;
    const maniMatchEntrySource* entry;
    uint32_t* tracks;    /* per channel, the entry's clip's track index */
} mani_MatchSampler;

static maniBuildResult mani_MatchRefuse(maniResult r, uint32_t reason, uint64_t item, uint64_t other) {
    return mani_BuildResult(r, reason, item, other);
}

/* A playhead time s for an entry: the root motion's end time (clamped to
 * the span, or unwrapped for a loop) and the pose's (wrapped for a loop). */
static void mani_MatchTimes(const mani_MatchSampler* m, const maniClip* clip, double s, float* moveTime,
                            float* poseTime) {
    const maniMatchEntrySource* e = m->entry;
    if (e->flags & maniMatchEntryLoop) {
        const double d = maniClip_GetDuration(clip);
        double w = d > 0 ? s - floor(s / d) * d : 0;
        if (w >= d) w = 0;
        *moveTime = (float)s;
        *poseTime = (float)w;
    } else {
        const double c = s < e->start ? e->start : (s > e->end ? e->end : s);
        *moveTime = (float)c;
        *poseTime = (float)c;
    }
}

/* The root's move from the frame's time t to time s (mirrored for a
 * mirrored entry). */
static maniRootMove mani_MatchMove(const mani_MatchSampler* m, const maniClip* clip, float t, float moveTime) {
    maniRootMove move = maniMakeRootMoveIdentity();
    if (maniClip_GetRootMotion(clip, t, (float)((double)moveTime - (double)t), &move) != mani_success)
        move = maniMakeRootMoveIdentity();
    if (m->entry->flags & maniMatchEntryMirrored) move = maniMirrorMap_MirrorRootMotion(m->src->mirror, move);
    return move;
}

/* The pose at a clip time (mirrored for a mirrored entry), its model
 * composed; NULL when sampling fails. */
static maniPose* mani_MatchPose(mani_MatchSampler* m, const maniClip* clip, float poseTime) {
    for (uint32_t k = 0; k < MANI_MATCH_POSE_SLOTS; ++k)
        if (m->valid[k] && memcmp(&m->times[k], &poseTime, 4) == 0) return m->poses[k];
    const uint32_t k = m->nextSlot;
    m->nextSlot = (k + 1) % MANI_MATCH_POSE_SLOTS;
    maniPose* p = m->poses[k];
    m->valid[k] = 0;
    if (maniClip_Sample(clip, m->src->skeleton, poseTime, p) != mani_success) return NULL;
    if ((m->entry->flags & maniMatchEntryMirrored) &&
        maniMirrorMap_MirrorPose(m->src->mirror, m->src->skeleton, p, p) != mani_success)
        return NULL;
    if (maniPose_ComputeModel(p, m->src->skeleton) != mani_success) return NULL;
    m->times[k] = poseTime;
    m->valid[k] = 1;
    return p;
}

/* A bone's position at time s in the root's space at time t (binary64). */
static int mani_MatchBonePoint(mani_MatchSampler* m, const maniClip* clip, uint32_t bone, float t, double s,
                               double out[3], float* usedTime) {
    float moveTime = 0, poseTime = 0;
    mani_MatchTimes(m, clip, s, &moveTime, &poseTime);
    maniPose* p = mani_MatchPose(m, clip, poseTime);
    if (p == NULL) return 0;
    const maniAffine a = maniPose_GetModel(p, bone);
    const maniRootMove move = mani_MatchMove(m, clip, t, moveTime);
    const double q[4] = {move.rotation.x, move.rotation.y, move.rotation.z, move.rotation.w};
    const double v[3] = {a.columns[3].x, a.columns[3].y, a.columns[3].z};
    double r[3];
    mcore_QuatRotate64(q, v, r);
    out[0] = move.translation.x + r[0];
    out[1] = move.translation.y + r[1];
    out[2] = move.translation.z + r[2];
    *usedTime = moveTime;
    return 1;
}

/* One channel's values at one of its times for the frame at t. */
static int mani_MatchSampleChannel(mani_MatchSampler* m, const maniClip* clip, uint32_t channel, float t, float tau,
                                   float* out) {
    const maniMatchChannelSource* c = &m->src->channels[channel];
    const double s = (double)t + (double)tau;
    uint32_t axes[2];
    mani_MatchGroundAxes(m->src->upAxis, axes);
    switch (c->kind) {
        case maniMatchChannelBonePosition: {
            double p[3];
            float used = 0;
            if (!mani_MatchBonePoint(m, clip, c->bone, t, s, p, &used)) return 0;
            for (int k = 0; k < 3; ++k) out[k] = (float)p[k];
            return 1;
        }
        case maniMatchChannelBoneVelocity: {
            const double h = 1.0 / (double)m->src->rate;
            double a[3], b[3];
            float ta = 0, tb = 0;
            if (!mani_MatchBonePoint(m, clip, c->bone, t, s - h, a, &ta)) return 0;
            if (!mani_MatchBonePoint(m, clip, c->bone, t, s + h, b, &tb)) return 0;
            const double apart = (double)tb - (double)ta;
            for (int k = 0; k < 3; ++k) out[k] = apart > 0 ? (float)((b[k] - a[k]) / apart) : 0.0f;
            return 1;
        }
        case maniMatchChannelTrajectoryPosition:
        case maniMatchChannelTrajectoryFacing: {
            float moveTime = 0, poseTime = 0;
            mani_MatchTimes(m, clip, s, &moveTime, &poseTime);
            const maniRootMove move = mani_MatchMove(m, clip, t, moveTime);
            double v[3] = {move.translation.x, move.translation.y, move.translation.z};
            if (c->kind == maniMatchChannelTrajectoryFacing) {
                const double q[4] = {move.rotation.x, move.rotation.y, move.rotation.z, move.rotation.w};
                double f[3] = {0, 0, 0};
                f[m->src->forwardAxis] = 1.0;
                mcore_QuatRotate64(q, f, v);
            }
            out[0] = (float)v[axes[0]];
            out[1] = (float)v[axes[1]];
            return 1;
        }
        default: {
            float moveTime = 0, poseTime = 0;
            mani_MatchTimes(m, clip, s, &moveTime, &poseTime);
            uint32_t count = 0;
            if (maniClip_SampleFloats(clip, poseTime, m->floats, m->floatCapacity, &count) != mani_success) return 0;
            const uint32_t track = m->tracks[channel];
            if (track >= count) return 0;
            out[0] = m->floats[track];
            return 1;
        }
    }
}

/* -- The tree ------------------------------------------------------------------ */

typedef struct {
    const float* features; /* normalized, frame by frame */
    uint32_t f;
    uint32_t* order;
    uint8_t* nodes;        /* MANI_MATCH_NODE_SIZE per node */
    uint32_t nodeCount;
    uint32_t leafSize;
} mani_TreeBuild;

static int mani_Below(const mani_TreeBuild* t, uint32_t j, uint32_t a, uint32_t b) {
    const float va = t->features[(size_t)t->f * a + j], vb = t->features[(size_t)t->f * b + j];
    return va < vb || (va == vb && a < b);
}

/* Puts the frame of rank k (by key on feature j) of order[lo, hi) at k,
 * those below it before and those above after (keys are distinct). */
static void mani_Select(const mani_TreeBuild* t, uint32_t j, uint32_t lo, uint32_t hi, uint32_t k) {
    uint32_t* o = t->order;
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        /* median of three as the pivot, moved to hi - 1 */
        uint32_t a = lo, b = mid, c = hi - 1;
        if (mani_Below(t, j, o[b], o[a])) { uint32_t x = a; a = b; b = x; }
        if (mani_Below(t, j, o[c], o[b])) { uint32_t x = b; b = c; c = x; if (mani_Below(t, j, o[b], o[a])) { x = a; a = b; b = x; } }
        uint32_t x = o[b]; o[b] = o[hi - 1]; o[hi - 1] = x;
        const uint32_t pivot = o[hi - 1];
        uint32_t store = lo;
        for (uint32_t i = lo; i < hi - 1; ++i)
            if (mani_Below(t, j, o[i], pivot)) { x = o[i]; o[i] = o[store]; o[store] = x; store++; }
        x = o[store]; o[store] = o[hi - 1]; o[hi - 1] = x;
        if (store == k) return;
        if (k < store) hi = store; else lo = store + 1;
    }
}

static int mani_CompareU32(const void* a, const void* b) {
    const uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

/* Builds the node over order[first, first + count) and its subtree, in
 * preorder. */
static void mani_BuildNode(mani_TreeBuild* t, uint32_t first, uint32_t count) {
    const uint32_t id = t->nodeCount++;
    uint8_t* n = t->nodes + (size_t)MANI_MATCH_NODE_SIZE * id;
    mcore_WriteU32(n, first);
    mcore_WriteU32(n + 4, count);
    if (count <= t->leafSize) {
        qsort(t->order + first, count, 4, mani_CompareU32);
        return;
    }
    /* The feature of the widest spread (the lowest on ties). */
    uint32_t widest = 0;
    double spread = -1;
    for (uint32_t j = 0; j < t->f; ++j) {
        float lo = 0, hi = 0;
        for (uint32_t k = 0; k < count; ++k) {
            const float v = t->features[(size_t)t->f * t->order[first + k] + j];
            if (k == 0 || v < lo) lo = v;
            if (k == 0 || v > hi) hi = v;
        }
        const double s = (double)hi - (double)lo;
        if (s > spread) spread = s, widest = j;
    }
    const uint32_t half = count / 2;
    mani_Select(t, widest, first, first + count, first + half);
    mcore_WriteU32(n + 24, widest);
    mcore_WriteU32(n + 8, t->nodeCount);
    mani_BuildNode(t, first, half);
    mcore_WriteU32(n + 12, t->nodeCount);
    mani_BuildNode(t, first + half, count - half);
}

/* -- The build ------------------------------------------------------------------- */

typedef struct {
    maniBuilder* b;
    void* blocks[16];
    size_t sizes[16];
    uint32_t count;
} mani_MatchMemory;

static void* mani_MatchAlloc(mani_MatchMemory* m, size_t size, size_t alignment) {
    if (size == 0) size = 1;
    void* p = mani_BuilderAlloc(m->b, size, alignment);
    if (p != NULL) {
        m->blocks[m->count] = p;
        m->sizes[m->count++] = size;
    }
    return p;
}

static void mani_MatchFreeAll(mani_MatchMemory* m) {
    while (m->count > 0) {
        m->count--;
        mani_BuilderFree(m->b, m->blocks[m->count], m->sizes[m->count]);
    }
}

static maniBuildResult mani_MatchFail(mani_MatchMemory* m, maniResult r, uint32_t reason, uint64_t item,
                                      uint64_t other) {
    mani_MatchFreeAll(m);
    return mani_BuildResult(r, reason, item, other);
}

static int mani_BoneKind(uint32_t kind) {
    return kind == maniMatchChannelBonePosition || kind == maniMatchChannelBoneVelocity;
}

maniBuildResult maniBuildMotionDatabase(maniBuilder* builder, const maniMotionDatabaseSource* source) {
    maniBuildResult entered = mani_BuildEnter(builder, source);
    if (entered.result != mani_success) return entered;
    const maniMotionDatabaseSource* src = source;
    /* Rate, options, counts. */
    if (!(src->rate > 0) || !isfinite(src->rate)) {
        if (src->rate > MANI_MAX_MATCH_RATE) return mani_MatchRefuse(mani_errorLimit, maniBuildReasonTiming, 0, 0);
        return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonTiming, 0, 0);
    }
    if (src->rate > MANI_MAX_MATCH_RATE) return mani_MatchRefuse(mani_errorLimit, maniBuildReasonTiming, 0, 0);
    if (src->upAxis > 2 || src->forwardAxis > 2 || src->upAxis == src->forwardAxis || src->leafSize == 0 ||
        src->leafSize > MANI_MATCH_MAX_LEAF)
        return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonOption, 0, 0);
    if (src->clipCount == 0 || src->clips == NULL || src->channelCount == 0 || src->channels == NULL ||
        src->entryCount == 0 || src->entries == NULL)
        return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    if (src->clipCount > MANI_MAX_MATCH_CLIPS || src->channelCount > MANI_MAX_MATCH_CHANNELS ||
        src->entryCount > MANI_MAX_MATCH_ENTRIES)
        return mani_MatchRefuse(mani_errorLimit, maniBuildReasonCount, 0, 0);
    const maniSkeleton* skeleton = src->skeleton;
    const uint32_t boneCount = maniSkeleton_GetBoneCount(skeleton);
    if (boneCount == 0) return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonJoint, 0, 0);
    const uint64_t skeletonIdentity = maniSkeleton_GetIdentity(skeleton);
    if (src->mirror != NULL && maniMirrorMap_GetSkeletonIdentity(src->mirror) != skeletonIdentity)
        return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonMirrorDatabase, 0, 0);
    for (uint32_t i = 0; i < src->clipCount; ++i) {
        const maniClip* c = &src->clips[i];
        if (maniClip_GetIdentity(c) == 0 || maniClip_GetSkeletonIdentity(c) != skeletonIdentity ||
            maniClip_GetAdditiveBasis(c) != maniAdditiveNone)
            return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonJoint, i, 0);
    }
    /* Channels. */
    uint64_t features = 0, namesSize = 0;
    for (uint32_t i = 0; i < src->channelCount; ++i) {
        const maniMatchChannelSource* c = &src->channels[i];
        const uint32_t width = mani_MatchKindWidth(c->kind);
        if (c->timeCount > MANI_MAX_MATCH_TIMES) return mani_MatchRefuse(mani_errorLimit, maniBuildReasonChannel, i, 0);
        if (width == 0 || c->timeCount == 0 || c->times == NULL || !isfinite(c->weight) || !(c->weight > 0) ||
            (mani_BoneKind(c->kind) && c->bone >= boneCount))
            return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonChannel, i, 0);
        for (uint32_t k = 0; k < c->timeCount; ++k) {
            if (isnan(c->times[k])) return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonChannel, i, 0);
            if (!(fabsf(c->times[k]) <= MANI_MAX_MATCH_REACH))
                return mani_MatchRefuse(mani_errorLimit, maniBuildReasonChannel, i, 0);
        }
        if (c->kind == maniMatchChannelFloatTrack) {
            if (c->trackLength > MANI_MAX_NAME_BYTES) return mani_MatchRefuse(mani_errorLimit, maniBuildReasonChannel, i, 0);
            if (c->track == NULL || c->trackLength == 0 ||
                mcore_Utf8Check((const uint8_t*)c->track, c->trackLength) != c->trackLength)
                return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonChannel, i, 0);
            namesSize += c->trackLength;
        }
        features += (uint64_t)width * c->timeCount;
    }
    if (namesSize > UINT32_MAX) return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    if (features > MANI_MAX_MATCH_FEATURES) return mani_MatchRefuse(mani_errorLimit, maniBuildReasonCount, 0, 0);
    /* Entries. */
    uint64_t frames = 0;
    int mirrored = 0;
    for (uint32_t i = 0; i < src->entryCount; ++i) {
        const maniMatchEntrySource* e = &src->entries[i];
        if (e->clip >= src->clipCount || (e->flags & ~MANI_MATCH_ENTRY_FLAGS) != 0 || !isfinite(e->start) ||
            !isfinite(e->end) || !(e->start >= 0) || !(e->end >= e->start) || !isfinite(e->costBias))
            return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonEntry, i, 0);
        const maniClip* clip = &src->clips[e->clip];
        const float duration = maniClip_GetDuration(clip);
        if (e->end > duration) return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonEntry, i, 0);
        if ((e->flags & maniMatchEntryLoop) &&
            (e->start != 0 || e->end != duration || !(duration > 0) || maniClip_GetLoopPolicy(clip) != maniLoopRepeat))
            return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonEntry, i, 0);
        if (e->flags & maniMatchEntryMirrored) {
            if (src->mirror == NULL || maniMirrorMap_GetIdentity(src->mirror) == 0)
                return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonMirrorDatabase, i, 0);
            mirrored = 1;
        }
        frames += mani_MatchSpanFrames(e->start, e->end, src->rate);
        if (frames > MANI_MAX_MATCH_FRAMES) return mani_MatchRefuse(mani_errorLimit, maniBuildReasonCount, 0, 0);
    }
    /* Float tracks each entry's clip holds. */
    for (uint32_t i = 0; i < src->channelCount; ++i) {
        const maniMatchChannelSource* c = &src->channels[i];
        if (c->kind != maniMatchChannelFloatTrack) continue;
        for (uint32_t k = 0; k < src->entryCount; ++k) {
            const maniMatchEntrySource* e = &src->entries[k];
            size_t length = c->trackLength;
            const char* name = c->track;
            if (e->flags & maniMatchEntryMirrored) name = maniMirrorMap_MirrorName(src->mirror, name, length, &length);
            if (maniClip_FindFloatTrack(&src->clips[e->clip], name, length) == MANI_NO_TRACK)
                return mani_MatchRefuse(mani_errorInvalid, maniBuildReasonMissingTrack, i, k);
        }
    }

    const uint32_t f = (uint32_t)features, n = (uint32_t)frames;
    mani_MatchMemory mem;
    memset(&mem, 0, sizeof mem);
    mem.b = builder;
    mani_MatchSampler m;
    memset(&m, 0, sizeof m);
    m.src = src;
    const size_t poseSize = maniSkeleton_GetPoseSize(skeleton);
    for (uint32_t k = 0; k < MANI_MATCH_POSE_SLOTS; ++k) {
        void* memory = mani_MatchAlloc(&mem, poseSize, MANI_POSE_ALIGNMENT);
        if (memory == NULL) return mani_MatchFail(&mem, mani_errorCapacity, maniBuildReasonNone, 0, 0);
        if (maniInitPose(skeleton, memory, poseSize, &m.poses[k]) != mani_success)
            return mani_MatchFail(&mem, mani_errorInvalid, maniBuildReasonJoint, 0, 0);
    }
    for (uint32_t i = 0; i < src->clipCount; ++i) {
        const uint32_t t = maniClip_GetFloatTrackCount(&src->clips[i]);
        if (t > m.floatCapacity) m.floatCapacity = t;
    }
    m.floats = (float*)mani_MatchAlloc(&mem, 4u * (size_t)m.floatCapacity, 4);
    m.tracks = (uint32_t*)mani_MatchAlloc(&mem, 4u * (size_t)src->channelCount, 4);
    float* raw = (float*)mani_MatchAlloc(&mem, 4u * (size_t)f * n, 16);
    uint32_t* frameEntry = (uint32_t*)mani_MatchAlloc(&mem, 4u * (size_t)n, 4);
    if (!m.floats || !m.tracks || !raw || !frameEntry) return mani_MatchFail(&mem, mani_errorCapacity, maniBuildReasonNone, 0, 0);

    /* Sampling. */
    uint32_t frame = 0;
    for (uint32_t i = 0; i < src->entryCount; ++i) {
        const maniMatchEntrySource* e = &src->entries[i];
        const maniClip* clip = &src->clips[e->clip];
        m.entry = e;
        for (uint32_t k = 0; k < MANI_MATCH_POSE_SLOTS; ++k) m.valid[k] = 0;
        for (uint32_t c = 0; c < src->channelCount; ++c) {
            m.tracks[c] = MANI_NO_TRACK;
            if (src->channels[c].kind != maniMatchChannelFloatTrack) continue;
            size_t length = src->channels[c].trackLength;
            const char* name = src->channels[c].track;
            if (e->flags & maniMatchEntryMirrored) name = maniMirrorMap_MirrorName(src->mirror, name, length, &length);
            m.tracks[c] = maniClip_FindFloatTrack(clip, name, length);
        }
        const uint32_t count = (uint32_t)mani_MatchSpanFrames(e->start, e->end, src->rate);
        for (uint32_t k = 0; k < count; ++k, ++frame) {
            const float t = mani_MatchFrameTime(e->start, src->rate, k);
            frameEntry[frame] = i;
            float* out = raw + (size_t)f * frame;
            for (uint32_t c = 0; c < src->channelCount; ++c) {
                const maniMatchChannelSource* ch = &src->channels[c];
                const uint32_t width = mani_MatchKindWidth(ch->kind);
                for (uint32_t q = 0; q < ch->timeCount; ++q) {
                    if (!mani_MatchSampleChannel(&m, clip, c, t, ch->times[q], out))
                        return mani_MatchFail(&mem, mani_errorInvalid, maniBuildReasonEntry, i, 0);
                    for (uint32_t w = 0; w < width; ++w)
                        if (!isfinite(out[w])) return mani_MatchFail(&mem, mani_errorInvalid, maniBuildReasonEntry, i, 0);
                    out += width;
                }
            }
        }
    }

    /* Normalization per channel (Holden): each feature's mean; the
     * channel's scale the mean of its features' standard deviations over
     * its weight. Sums in binary64 in frame order, rounded once. */
    float offsets[MANI_MAX_MATCH_FEATURES], scales[MANI_MAX_MATCH_FEATURES];
    for (uint32_t c = 0, first = 0; c < src->channelCount; ++c) {
        const maniMatchChannelSource* ch = &src->channels[c];
        const uint32_t width = mani_MatchKindWidth(ch->kind) * ch->timeCount;
        double stdSum = 0;
        for (uint32_t j = first; j < first + width; ++j) {
            double sum = 0;
            for (uint32_t i = 0; i < n; ++i) sum += raw[(size_t)f * i + j];
            const double mean = sum / n;
            offsets[j] = (float)mean;
            double var = 0;
            for (uint32_t i = 0; i < n; ++i) {
                const double d = raw[(size_t)f * i + j] - mean;
                var += d * d;
            }
            stdSum += sqrt(var / n);
        }
        const double std = stdSum / width;
        const float scale = (float)(std / ch->weight);
        if (!(std > 0) || !(scale > 0) || !isfinite(scale))
            return mani_MatchFail(&mem, mani_errorInvalid, maniBuildReasonSpread, c, 0);
        for (uint32_t j = first; j < first + width; ++j) scales[j] = scale;
        first += width;
    }
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < f; ++j) {
            float* x = &raw[(size_t)f * i + j];
            *x = (*x - offsets[j]) / scales[j];
            if (!isfinite(*x)) return mani_MatchFail(&mem, mani_errorInvalid, maniBuildReasonSpread, 0, 0);
        }

    /* The tree. */
    mani_TreeBuild t;
    t.features = raw;
    t.f = f;
    t.leafSize = src->leafSize;
    t.nodeCount = 0;
    t.order = (uint32_t*)mani_MatchAlloc(&mem, 4u * (size_t)n, 4);
    t.nodes = (uint8_t*)mani_MatchAlloc(&mem, (size_t)MANI_MATCH_NODE_SIZE * 2u * n, 8);
    if (!t.order || !t.nodes) return mani_MatchFail(&mem, mani_errorCapacity, maniBuildReasonNone, 0, 0);
    memset(t.nodes, 0, (size_t)MANI_MATCH_NODE_SIZE * 2u * n);
    for (uint32_t i = 0; i < n; ++i) t.order[i] = i;
    mani_BuildNode(&t, 0, n);

    /* The file. */
    const uint64_t sizes[MANI_MATCH_SECTION_COUNT] = {
        MANI_MATCH_INFO_SIZE,           8ull * src->clipCount,        (uint64_t)MANI_MATCH_CHANNEL_SIZE * src->channelCount,
        namesSize,                      (uint64_t)MANI_MATCH_ENTRY_SIZE * src->entryCount, 8ull * f,
        4ull * f * n,                   4ull * n,                     (uint64_t)MANI_MATCH_NODE_SIZE * t.nodeCount,
        8ull * f * t.nodeCount};
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniMatchSections, sizes, MANI_MATCH_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, 64);
    if (file == NULL) return mani_MatchFail(&mem, mani_errorCapacity, maniBuildReasonNone, 0, 0);
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    uint8_t* info = file + sec[0].offset;
    mcore_WriteU64(info, skeletonIdentity);
    mcore_WriteU64(info + 8, mirrored ? maniMirrorMap_GetIdentity(src->mirror) : 0);
    mcore_WriteU32(info + 16, src->clipCount);
    mcore_WriteU32(info + 20, src->channelCount);
    mcore_WriteU32(info + 24, src->entryCount);
    mcore_WriteU32(info + 28, n);
    mcore_WriteU32(info + 32, f);
    mcore_WriteU32(info + 36, t.nodeCount);
    mcore_WriteF32(info + 40, src->rate);
    mcore_WriteU32(info + 44, src->upAxis);
    mcore_WriteU32(info + 48, src->forwardAxis);
    mcore_WriteU32(info + 52, src->leafSize);
    mcore_WriteU32(info + 56, (uint32_t)namesSize);
    for (uint32_t i = 0; i < src->clipCount; ++i)
        mcore_WriteU64(file + sec[1].offset + 8ull * i, maniClip_GetIdentity(&src->clips[i]));
    uint32_t nameCursor = 0;
    for (uint32_t c = 0, first = 0; c < src->channelCount; ++c) {
        const maniMatchChannelSource* ch = &src->channels[c];
        uint8_t* p = file + sec[2].offset + (uint64_t)MANI_MATCH_CHANNEL_SIZE * c;
        const uint32_t width = mani_MatchKindWidth(ch->kind) * ch->timeCount;
        mcore_WriteU32(p, ch->kind);
        mcore_WriteU32(p + 4, mani_BoneKind(ch->kind) ? ch->bone : 0xFFFFFFFFu);
        mcore_WriteU32(p + 8, ch->timeCount);
        mcore_WriteU32(p + 12, first);
        mcore_WriteU32(p + 16, width);
        mcore_WriteF32(p + 20, ch->weight);
        if (ch->kind == maniMatchChannelFloatTrack) {
            mcore_WriteU32(p + 24, nameCursor);
            mcore_WriteU32(p + 28, (uint32_t)ch->trackLength);
            memcpy(file + sec[3].offset + nameCursor, ch->track, ch->trackLength);
            nameCursor += (uint32_t)ch->trackLength;
        }
        for (uint32_t k = 0; k < ch->timeCount; ++k) mcore_WriteF32(p + 32 + 4 * k, ch->times[k]);
        first += width;
    }
    for (uint32_t i = 0, firstFrame = 0; i < src->entryCount; ++i) {
        const maniMatchEntrySource* e = &src->entries[i];
        uint8_t* p = file + sec[4].offset + (uint64_t)MANI_MATCH_ENTRY_SIZE * i;
        const uint32_t count = (uint32_t)mani_MatchSpanFrames(e->start, e->end, src->rate);
        mcore_WriteU32(p, e->clip);
        mcore_WriteU32(p + 4, e->flags);
        mcore_WriteU32(p + 8, firstFrame);
        mcore_WriteU32(p + 12, count);
        mcore_WriteF32(p + 16, e->start);
        mcore_WriteF32(p + 20, e->end);
        mcore_WriteF32(p + 24, e->costBias);
        mcore_WriteU64(p + 32, e->tags);
        firstFrame += count;
    }
    for (uint32_t j = 0; j < f; ++j) {
        mcore_WriteF32(file + sec[5].offset + 4ull * j, offsets[j]);
        mcore_WriteF32(file + sec[5].offset + 4ull * (f + j), scales[j]);
    }
    for (uint64_t j = 0; j < (uint64_t)f * n; ++j) mcore_WriteF32(file + sec[6].offset + 4 * j, raw[j]);
    for (uint32_t i = 0; i < n; ++i) mcore_WriteU32(file + sec[7].offset + 4ull * i, t.order[i]);
    /* Nodes with their boxes, lowest frames and least biases, over the final
     * order (as the open recomputes them). */
    for (uint32_t node = 0; node < t.nodeCount; ++node) {
        uint8_t* p = file + sec[8].offset + (uint64_t)MANI_MATCH_NODE_SIZE * node;
        memcpy(p, t.nodes + (size_t)MANI_MATCH_NODE_SIZE * node, MANI_MATCH_NODE_SIZE);
        const uint32_t first = mcore_ReadU32(p), count = mcore_ReadU32(p + 4);
        uint32_t lowest = UINT32_MAX;
        float least = 0;
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t fr = t.order[first + k];
            if (fr < lowest) lowest = fr;
            const float bias = src->entries[frameEntry[fr]].costBias;
            if (k == 0 || bias < least) least = bias;
        }
        mcore_WriteU32(p + 16, lowest);
        mcore_WriteF32(p + 20, least);
        uint8_t* box = file + sec[9].offset + 8ull * f * node;
        for (uint32_t j = 0; j < f; ++j) {
            float lo = 0, hi = 0;
            for (uint32_t k = 0; k < count; ++k) {
                const float v = raw[(size_t)f * t.order[first + k] + j];
                if (k == 0 || v < lo) lo = v;
                if (k == 0 || v > hi) hi = v;
            }
            mcore_WriteF32(box + 4ull * j, lo);
            mcore_WriteF32(box + 4ull * (f + j), hi);
        }
    }
    mcore_FinishContainer(file, &layout, mcore_kindMotionDatabase, mcore_formatMotionDatabaseLatest, MANI_ABI_VERSION);
    mani_MatchFreeAll(&mem);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
