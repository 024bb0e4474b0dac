/* match.h: opening a motion database file (every byte checked once), the
 * view's accessors, and the exact search over its k-d tree. */
#include "maul/anim/match.h"

#include <math.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/match/match_format.h"
#include "lib/core/utf8.h"
#include "maul/anim/skeleton.h"

/* -- The view ------------------------------------------------------------------ */

static int mani_MatchViewOk(const maniMotionDatabase* d) {
    if (d == NULL || d->opened != MANI_MATCH_OPENED || d->bytes == NULL) return 0;
    const uint64_t size = d->size, f = d->featureCount;
    if (f == 0 || f > 256u || d->nodeCount == 0 || d->frameCount == 0) return 0;
    return mcore_SpanFits(d->clips, d->clipCount, 8, size) &&
           mcore_SpanFits(d->channels, d->channelCount, MANI_MATCH_CHANNEL_SIZE, size) &&
           mcore_SpanFits(d->names, d->namesSize, 1, size) &&
           mcore_SpanFits(d->entries, d->entryCount, MANI_MATCH_ENTRY_SIZE, size) &&
           mcore_SpanFits(d->normalization, 2 * f, 4, size) && mcore_SpanFits(d->features, d->frameCount, 4 * f, size) &&
           mcore_SpanFits(d->order, d->frameCount, 4, size) &&
           mcore_SpanFits(d->nodes, d->nodeCount, MANI_MATCH_NODE_SIZE, size) &&
           mcore_SpanFits(d->boxes, d->nodeCount, 8 * f, size);
}

uint64_t maniMotionDatabase_GetIdentity(const maniMotionDatabase* database) {
    return mani_MatchViewOk(database) ? database->identity : 0;
}

uint64_t maniMotionDatabase_GetMirrorMapIdentity(const maniMotionDatabase* database) {
    return mani_MatchViewOk(database) ? database->mirrorIdentity : 0;
}

uint64_t maniMotionDatabase_GetSkeletonIdentity(const maniMotionDatabase* database) {
    return mani_MatchViewOk(database) ? database->skeletonIdentity : 0;
}

uint64_t maniMotionDatabase_GetClipIdentity(const maniMotionDatabase* database, uint32_t clip) {
    if (!mani_MatchViewOk(database) || clip >= database->clipCount) return 0;
    return mcore_ReadU64(database->bytes + database->clips + 8ull * clip);
}

static maniMatchChannel mani_ReadChannel(const uint8_t* p) {
    maniMatchChannel c;
    memset(&c, 0, sizeof c);
    c.kind = mcore_ReadU32(p);
    c.bone = mcore_ReadU32(p + 4);
    c.timeCount = mcore_ReadU32(p + 8);
    c.firstFeature = mcore_ReadU32(p + 12);
    c.featureCount = mcore_ReadU32(p + 16);
    c.weight = mcore_ReadF32(p + 20);
    for (uint32_t k = 0; k < MANI_MAX_MATCH_TIMES; ++k) c.times[k] = mcore_ReadF32(p + 32 + 4 * k);
    return c;
}

maniResult maniMotionDatabase_GetChannel(const maniMotionDatabase* database, uint32_t channel,
                                         maniMatchChannel* channelOut) {
    if (!mani_MatchViewOk(database) || channelOut == NULL || channel >= database->channelCount) return mani_errorInvalid;
    *channelOut = mani_ReadChannel(database->bytes + database->channels + (uint64_t)MANI_MATCH_CHANNEL_SIZE * channel);
    return mani_success;
}

const char* maniMotionDatabase_GetChannelName(const maniMotionDatabase* database, uint32_t channel, size_t* lengthOut) {
    if (!mani_MatchViewOk(database) || channel >= database->channelCount) return NULL;
    const uint8_t* p = database->bytes + database->channels + (uint64_t)MANI_MATCH_CHANNEL_SIZE * channel;
    if (mcore_ReadU32(p) != maniMatchChannelFloatTrack) return NULL;
    const uint64_t offset = mcore_ReadU32(p + 24), length = mcore_ReadU32(p + 28);
    if (offset > database->namesSize || length > database->namesSize - offset) return NULL;
    if (lengthOut != NULL) *lengthOut = (size_t)length;
    return (const char*)(database->bytes + database->names + offset);
}

static maniMatchEntry mani_ReadEntry(const uint8_t* p) {
    maniMatchEntry e;
    e.clip = mcore_ReadU32(p);
    e.flags = mcore_ReadU32(p + 4);
    e.firstFrame = mcore_ReadU32(p + 8);
    e.frameCount = mcore_ReadU32(p + 12);
    e.start = mcore_ReadF32(p + 16);
    e.end = mcore_ReadF32(p + 20);
    e.costBias = mcore_ReadF32(p + 24);
    e.reserved = 0;
    e.tags = mcore_ReadU64(p + 32);
    return e;
}

static const uint8_t* mani_EntryBytes(const maniMotionDatabase* d, uint32_t entry) {
    return d->bytes + d->entries + (uint64_t)MANI_MATCH_ENTRY_SIZE * entry;
}

maniResult maniMotionDatabase_GetEntry(const maniMotionDatabase* database, uint32_t entry, maniMatchEntry* entryOut) {
    if (!mani_MatchViewOk(database) || entryOut == NULL || entry >= database->entryCount) return mani_errorInvalid;
    *entryOut = mani_ReadEntry(mani_EntryBytes(database, entry));
    return mani_success;
}

/* The entry holding a frame (entries hold the frames in order), or
 * entryCount when bytes changed after the open lose it. */
static uint32_t mani_FrameEntry(const maniMotionDatabase* d, uint32_t frame) {
    uint32_t lo = 0, hi = d->entryCount;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        const uint8_t* e = mani_EntryBytes(d, mid);
        const uint32_t first = mcore_ReadU32(e + 8), count = mcore_ReadU32(e + 12);
        if (frame < first) {
            hi = mid;
        } else if (frame - first >= count) {
            lo = mid + 1;
        } else {
            return mid;
        }
    }
    return d->entryCount;
}

maniResult maniMotionDatabase_GetFrame(const maniMotionDatabase* database, uint32_t frame, uint32_t* entryOut,
                                       float* timeOut) {
    if (!mani_MatchViewOk(database) || entryOut == NULL || timeOut == NULL || frame >= database->frameCount)
        return mani_errorInvalid;
    const uint32_t e = mani_FrameEntry(database, frame);
    if (e >= database->entryCount) return mani_errorInvalid;
    const uint8_t* p = mani_EntryBytes(database, e);
    *entryOut = e;
    *timeOut = mani_MatchFrameTime(mcore_ReadF32(p + 16), database->rate, frame - mcore_ReadU32(p + 8));
    return mani_success;
}

maniResult maniMotionDatabase_GetFeatures(const maniMotionDatabase* database, uint32_t frame, float* featuresOut,
                                          uint32_t capacity, uint32_t* countOut) {
    if (!mani_MatchViewOk(database) || (featuresOut == NULL && capacity > 0) || frame >= database->frameCount)
        return mani_errorInvalid;
    const uint32_t f = database->featureCount;
    if (countOut != NULL) *countOut = f;
    if (capacity < f) return mani_errorCapacity;
    const uint8_t* p = database->bytes + database->features + 4ull * f * frame;
    for (uint32_t j = 0; j < f; ++j) featuresOut[j] = mcore_ReadF32(p + 4 * j);
    return mani_success;
}

maniResult maniMotionDatabase_GetNormalization(const maniMotionDatabase* database, float* offsetsOut, float* scalesOut,
                                               uint32_t capacity, uint32_t* countOut) {
    if (!mani_MatchViewOk(database) || (offsetsOut == NULL && scalesOut == NULL && capacity > 0))
        return mani_errorInvalid;
    const uint32_t f = database->featureCount;
    if (countOut != NULL) *countOut = f;
    if (capacity < f) return mani_errorCapacity;
    const uint8_t* p = database->bytes + database->normalization;
    for (uint32_t j = 0; j < f; ++j) {
        if (offsetsOut != NULL) offsetsOut[j] = mcore_ReadF32(p + 4 * j);
        if (scalesOut != NULL) scalesOut[j] = mcore_ReadF32(p + 4ull * (f + j));
    }
    return mani_success;
}

/* -- The search ------------------------------------------------------------------ */

/* What a search carries through the tree. */
typedef struct {
    const maniMotionDatabase* d;
    const maniMatchQuery* q;
    const float* query;    /* normalized */
    const float* features; /* the file's, read in place (4-aligned: the section is 64-aligned) */
    float bestCost;
    uint32_t bestFrame;
    uint32_t bestContinuing;
    uint32_t visited;
    uint32_t continuingEntry;
    uint32_t historyEntries[MANI_MAX_MATCH_HISTORY];
    float historyTimes[MANI_MAX_MATCH_HISTORY];
    float continuingTime;
} mani_Search;

/* The cost of a frame with its first term, stopping once it passes bound
 * (the returned partial sum then above bound). */
static float mani_FrameCost(const mani_Search* s, uint32_t frame, float start, float bound) {
    const uint32_t f = s->d->featureCount;
    const float* x = s->features + (size_t)f * frame;
    float cost = start;
    for (uint32_t j = 0; j < f; ++j) {
        const float diff = s->query[j] - x[j];
        cost = cost + diff * diff;
        if (cost > bound) return cost;
    }
    return cost;
}

static int mani_TagsPass(const maniMatchQuery* q, uint64_t tags) {
    return (tags & q->requiredTags) == q->requiredTags && (tags & q->excludedTags) == 0;
}

/* Whether a jump to frame (of entry e at time t) is excluded by a window. */
static int mani_Excluded(const mani_Search* s, uint32_t entry, const uint8_t* e, float t) {
    const maniMatchQuery* q = s->q;
    if (q->endExclusion > 0 && (mcore_ReadU32(e + 4) & maniMatchEntryLoop) == 0 &&
        mcore_ReadF32(e + 20) - t < q->endExclusion)
        return 1;
    if (q->surroundExclusion > 0 && entry == s->continuingEntry && fabsf(t - s->continuingTime) < q->surroundExclusion)
        return 1;
    if (q->historyExclusion > 0)
        for (uint32_t h = 0; h < q->historyCount; ++h)
            if (s->historyEntries[h] == entry && fabsf(t - s->historyTimes[h]) < q->historyExclusion) return 1;
    return 0;
}

/* Whether a frame of this cost beats the best so far (ties: the continuing
 * frame, then the lowest frame). */
static int mani_Better(const mani_Search* s, float cost, uint32_t frame) {
    if (cost < s->bestCost) return 1;
    if (cost > s->bestCost || s->bestContinuing) return 0;
    return frame < s->bestFrame;
}

static const uint8_t* mani_NodeBytes(const maniMotionDatabase* d, uint32_t node) {
    return d->bytes + d->nodes + (uint64_t)MANI_MATCH_NODE_SIZE * node;
}

/* A node's lower bound: its least bias plus the transition cost plus the
 * squared distances of the query to its box, in the cost's order, so no
 * frame of the node costs less (rounding is monotone). */
static float mani_NodeBound(const mani_Search* s, uint32_t node) {
    const uint32_t f = s->d->featureCount;
    const uint8_t* n = mani_NodeBytes(s->d, node);
    const float* lo = (const float*)(const void*)(s->d->bytes + s->d->boxes + 8ull * f * node);
    const float* hi = lo + f;
    float bound = mcore_ReadF32(n + 20) + s->q->transitionCost;
    for (uint32_t j = 0; j < f; ++j) {
        const float v = s->query[j];
        float diff = 0.0f;
        if (v < lo[j]) diff = v - lo[j];
        else if (v > hi[j]) diff = v - hi[j];
        bound = bound + diff * diff;
        if (bound > s->bestCost) return bound;
    }
    return bound;
}

static int mani_NodePrunes(const mani_Search* s, uint32_t node, float bound) {
    if (bound > s->bestCost) return 1;
    if (bound < s->bestCost) return 0;
    return s->bestContinuing || mcore_ReadU32(mani_NodeBytes(s->d, node) + 16) > s->bestFrame;
}

/* Asks the memory system for a line ahead of its use (no effect on any
 * result; nothing where the compiler has no such builtin). */
#if defined(__GNUC__) || defined(__clang__)
#define MANI_MATCH_PREFETCH(p) __builtin_prefetch((const void*)(p))
#else
#define MANI_MATCH_PREFETCH(p) ((void)(p))
#endif

/* The entry holding a frame, trying the one found last first (a leaf's
 * frames increase and mostly share entries), else mani_FrameEntry. */
static uint32_t mani_LeafFrameEntry(const maniMotionDatabase* d, uint32_t frame, uint32_t* last) {
    if (*last < d->entryCount) {
        const uint8_t* e = mani_EntryBytes(d, *last);
        const uint32_t first = mcore_ReadU32(e + 8), count = mcore_ReadU32(e + 12);
        if (frame >= first && frame - first < count) return *last;
    }
    const uint32_t entry = mani_FrameEntry(d, frame);
    *last = entry;
    return entry;
}

static void mani_SearchLeaf(mani_Search* s, uint32_t node) {
    const maniMotionDatabase* d = s->d;
    const uint8_t* n = mani_NodeBytes(d, node);
    const uint32_t first = mcore_ReadU32(n), count = mcore_ReadU32(n + 4);
    const uint8_t* order = d->bytes + d->order;
    const uint32_t f = d->featureCount;
    /* The leaf's frames lie anywhere in the features: every frame's first
     * two lines are asked for before the scan, so their misses overlap
     * rather than follow one another. */
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t frame = mcore_ReadU32(order + 4ull * (first + k));
        if (frame >= d->frameCount) continue;
        const float* x = s->features + (size_t)f * frame;
        MANI_MATCH_PREFETCH(x);
        MANI_MATCH_PREFETCH((const uint8_t*)x + 64);
    }
    /* The leaf's least bias bounds each frame's from below: a frame whose
     * distance from there already passes the best is passed over before its
     * entry is looked up (exact: rounding is monotone). */
    const float floor = mcore_ReadF32(n + 20) + s->q->transitionCost;
    uint32_t lastEntry = d->entryCount;
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t frame = mcore_ReadU32(order + 4ull * (first + k));
        if (frame >= d->frameCount || frame == s->q->continuingFrame) continue;
        if (mani_FrameCost(s, frame, floor, s->bestCost) > s->bestCost) {
            s->visited++;
            continue;
        }
        const uint32_t entry = mani_LeafFrameEntry(d, frame, &lastEntry);
        if (entry >= d->entryCount) continue;
        const uint8_t* e = mani_EntryBytes(d, entry);
        if (!mani_TagsPass(s->q, mcore_ReadU64(e + 32)) || (mcore_ReadU32(e + 4) & maniMatchEntryNoJump) != 0) continue;
        const float t = mani_MatchFrameTime(mcore_ReadF32(e + 16), d->rate, frame - mcore_ReadU32(e + 8));
        if (mani_Excluded(s, entry, e, t)) continue;
        s->visited++;
        const float cost = mani_FrameCost(s, frame, mcore_ReadF32(e + 24) + s->q->transitionCost, s->bestCost);
        if (mani_Better(s, cost, frame)) {
            s->bestCost = cost;
            s->bestFrame = frame;
            s->bestContinuing = 0;
        }
    }
}

/* Asks for the lines of a node's bytes and the start of its box's minima
 * and maxima before the node is reached. */
static void mani_PrefetchNode(const mani_Search* s, uint32_t node) {
    const maniMotionDatabase* d = s->d;
    if (node >= d->nodeCount) return;
    const uint8_t* box = d->bytes + d->boxes + 8ull * d->featureCount * node;
    MANI_MATCH_PREFETCH(mani_NodeBytes(d, node));
    MANI_MATCH_PREFETCH(box);
    MANI_MATCH_PREFETCH(box + 4ull * d->featureCount);
}

/* Branch-and-bound, depth first. A node is pushed with its parent's bound
 * (no frame of it costs less: its box lies in its parent's), and its own
 * box is read only once it is popped and that bound has not pruned it;
 * each box is read once. Of two children the one on the query's side of
 * the split feature (nearer along it, the left on a tie) is searched first.
 * The order changes nothing in the result: ties are settled by frame. */
static void mani_SearchTree(mani_Search* s) {
    const maniMotionDatabase* d = s->d;
    const uint32_t f = d->featureCount;
    uint32_t stack[2 * MANI_MATCH_MAX_DEPTH + 2];
    float bounds[2 * MANI_MATCH_MAX_DEPTH + 2];
    uint32_t top = 0;
    stack[top] = 0;
    bounds[top++] = s->q->transitionCost + mcore_ReadF32(mani_NodeBytes(d, 0) + 20);
    while (top > 0) {
        --top;
        const uint32_t node = stack[top];
        if (node >= d->nodeCount || mani_NodePrunes(s, node, bounds[top])) continue;
        const float bound = mani_NodeBound(s, node);
        if (mani_NodePrunes(s, node, bound)) continue;
        const uint8_t* n = mani_NodeBytes(d, node);
        const uint32_t left = mcore_ReadU32(n + 8), right = mcore_ReadU32(n + 12);
        if (left == 0 || right == 0 || left <= node || right <= node || left >= d->nodeCount || right >= d->nodeCount ||
            top + 2 > 2 * MANI_MATCH_MAX_DEPTH + 2) {
            mani_SearchLeaf(s, node);
            continue;
        }
        /* Along the split feature: how far the query lies outside each
         * child's span (the left's maximum, the right's minimum). */
        const uint32_t split = mcore_ReadU32(n + 24) < f ? mcore_ReadU32(n + 24) : 0;
        const float v = s->query[split];
        const float leftHi = mcore_ReadF32(d->bytes + d->boxes + 8ull * f * left + 4ull * (f + split));
        const float rightLo = mcore_ReadF32(d->bytes + d->boxes + 8ull * f * right + 4ull * split);
        const float pastLeft = v > leftHi ? v - leftHi : 0.0f, beforeRight = v < rightLo ? rightLo - v : 0.0f;
        const int leftFirst = pastLeft <= beforeRight;
        const uint32_t nearer = leftFirst ? left : right, farther = leftFirst ? right : left;
        mani_PrefetchNode(s, farther);
        mani_PrefetchNode(s, nearer);
        stack[top] = farther;
        bounds[top++] = bound;
        stack[top] = nearer;
        bounds[top++] = bound;
    }
}

maniResult maniMotionDatabase_Search(const maniMotionDatabase* database, const maniMatchQuery* query,
                                     maniMatchResult* resultOut) {
    if (!mani_MatchViewOk(database) || query == NULL || resultOut == NULL || query->features == NULL ||
        (query->history == NULL && query->historyCount != 0))
        return mani_errorInvalid;
    if (query->historyCount > MANI_MAX_MATCH_HISTORY) return mani_errorLimit;
    if (!isfinite(query->transitionCost) || !isfinite(query->continuingBias) || !(query->endExclusion >= 0) ||
        !(query->surroundExclusion >= 0) || !(query->historyExclusion >= 0) || !isfinite(query->endExclusion) ||
        !isfinite(query->surroundExclusion) || !isfinite(query->historyExclusion) || query->normalized > 1)
        return mani_errorInvalid;
    const uint32_t f = database->featureCount;
    if (query->continuingFrame != MANI_NO_FRAME && query->continuingFrame >= database->frameCount) return mani_errorInvalid;
    mani_Search s;
    s.d = database;
    s.q = query;
    s.features = (const float*)(const void*)(database->bytes + database->features);
    s.continuingEntry = MANI_NO_FRAME;
    s.continuingTime = 0;
    for (uint32_t h = 0; h < query->historyCount; ++h) {
        uint32_t e = 0;
        float t = 0;
        if (query->history[h] >= database->frameCount) return mani_errorInvalid;
        if (maniMotionDatabase_GetFrame(database, query->history[h], &e, &t) != mani_success) return mani_errorInvalid;
        s.historyEntries[h] = e;
        s.historyTimes[h] = t;
    }
    float normalized[256];
    const uint8_t* norm = database->bytes + database->normalization;
    for (uint32_t j = 0; j < f; ++j) {
        const float v = query->features[j];
        if (!isfinite(v)) return mani_errorInvalid;
        normalized[j] = query->normalized ? v : (v - mcore_ReadF32(norm + 4 * j)) / mcore_ReadF32(norm + 4ull * (f + j));
        if (!isfinite(normalized[j])) return mani_errorInvalid;
    }
    s.query = normalized;
    s.bestCost = INFINITY;
    s.bestFrame = MANI_NO_FRAME;
    s.bestContinuing = 0;
    s.visited = 0;
    if (query->continuingFrame != MANI_NO_FRAME) {
        uint32_t e = 0;
        float t = 0;
        if (maniMotionDatabase_GetFrame(database, query->continuingFrame, &e, &t) != mani_success) return mani_errorInvalid;
        s.continuingEntry = e;
        s.continuingTime = t;
        if (mani_TagsPass(query, mcore_ReadU64(mani_EntryBytes(database, e) + 32))) {
            s.visited++;
            s.bestCost = mani_FrameCost(&s, query->continuingFrame,
                                        mcore_ReadF32(mani_EntryBytes(database, e) + 24) + query->continuingBias, INFINITY);
            s.bestFrame = query->continuingFrame;
            s.bestContinuing = 1;
        }
    }
    mani_SearchTree(&s);
    maniMatchResult r;
    r.frame = s.bestFrame;
    r.entry = MANI_NO_FRAME;
    r.time = 0;
    r.cost = s.bestCost;
    r.continuing = s.bestContinuing;
    r.visited = s.visited;
    if (s.bestFrame != MANI_NO_FRAME) {
        if (maniMotionDatabase_GetFrame(database, s.bestFrame, &r.entry, &r.time) != mani_success) return mani_errorInvalid;
    } else {
        r.cost = INFINITY;
    }
    *resultOut = r;
    return mani_success;
}

/* -- The open ------------------------------------------------------------------- */

static int mani_SameBits(float a, float b) {
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y;
}

/* Whether frame a's key on a feature is below frame b's: the value, then
 * the frame (the order the build splits by). */
static int mani_KeyBelow(const maniMotionDatabase* d, uint32_t feature, uint32_t a, uint32_t b) {
    const float va = mcore_ReadF32(d->bytes + d->features + 4ull * ((uint64_t)d->featureCount * a + feature));
    const float vb = mcore_ReadF32(d->bytes + d->features + 4ull * ((uint64_t)d->featureCount * b + feature));
    return va < vb || (va == vb && a < b);
}

/* Checks one node against its frames: the box, lowest frame and least bias
 * exactly theirs. Returns 0 or the offset of the first wrong byte. */
static uint64_t mani_CheckNodeBox(const maniMotionDatabase* d, uint32_t node) {
    const uint8_t* b = d->bytes;
    const uint64_t at = d->nodes + (uint64_t)MANI_MATCH_NODE_SIZE * node;
    const uint32_t first = mcore_ReadU32(b + at), count = mcore_ReadU32(b + at + 4), f = d->featureCount;
    const uint64_t box = d->boxes + 8ull * f * node;
    uint32_t lowest = UINT32_MAX;
    float least = INFINITY;
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t frame = mcore_ReadU32(b + d->order + 4ull * (first + k));
        if (frame < lowest) lowest = frame;
        const float bias = mcore_ReadF32(mani_EntryBytes(d, mani_FrameEntry(d, frame)) + 24);
        if (k == 0 || bias < least) least = bias;
    }
    if (mcore_ReadU32(b + at + 16) != lowest) return at + 16;
    if (!mani_SameBits(mcore_ReadF32(b + at + 20), least)) return at + 20;
    for (uint32_t j = 0; j < f; ++j) {
        float lo = 0, hi = 0;
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t frame = mcore_ReadU32(b + d->order + 4ull * (first + k));
            const float v = mcore_ReadF32(b + d->features + 4ull * ((uint64_t)f * frame + j));
            if (k == 0 || v < lo) lo = v;
            if (k == 0 || v > hi) hi = v;
        }
        if (!mani_SameBits(mcore_ReadF32(b + box + 4ull * j), lo)) return box + 4ull * j;
        if (!mani_SameBits(mcore_ReadF32(b + box + 4ull * (f + j)), hi)) return box + 4ull * (f + j);
    }
    return 0;
}

/* Checks the tree: nodes in preorder from the root over every frame, each
 * internal node's frames split in two at a key (the left's all below the
 * right's on its split feature), each leaf's frames increasing, so every
 * frame is placed once; then every node's box. Returns 0 or the offset of
 * the first wrong byte. */
static uint64_t mani_CheckTree(const maniMotionDatabase* d) {
    const uint8_t* b = d->bytes;
    uint32_t stack[MANI_MATCH_MAX_DEPTH + 2];
    uint32_t top = 0, next = 0;
    stack[top++] = 0;
    while (top > 0) {
        const uint32_t node = stack[--top];
        if (node != next || node >= d->nodeCount) return d->nodes + (uint64_t)MANI_MATCH_NODE_SIZE * (node < d->nodeCount ? node : next);
        next++;
        const uint64_t at = d->nodes + (uint64_t)MANI_MATCH_NODE_SIZE * node;
        const uint32_t first = mcore_ReadU32(b + at), count = mcore_ReadU32(b + at + 4);
        const uint32_t left = mcore_ReadU32(b + at + 8), right = mcore_ReadU32(b + at + 12);
        const uint32_t split = mcore_ReadU32(b + at + 24);
        if (mcore_ReadU32(b + at + 28) != 0) return at + 28;
        if (count == 0 || first > d->frameCount || count > d->frameCount - first) return at + 4;
        if (node == 0 && (first != 0 || count != d->frameCount)) return at;
        if (left == 0 && right == 0) {
            if (count > d->leafSize) return at + 4;
            if (split != 0) return at + 24;
            for (uint32_t k = 0; k < count; ++k) {
                const uint32_t frame = mcore_ReadU32(b + d->order + 4ull * (first + k));
                if (frame >= d->frameCount) return d->order + 4ull * (first + k);
                if (k > 0 && frame <= mcore_ReadU32(b + d->order + 4ull * (first + k - 1)))
                    return d->order + 4ull * (first + k);
            }
            continue;
        }
        if (count <= d->leafSize) return at + 4;
        if (left != node + 1) return at + 8;
        if (right <= left || right >= d->nodeCount) return at + 12;
        if (split >= d->featureCount) return at + 24;
        if (top + 2 > MANI_MATCH_MAX_DEPTH + 2) return at + 8;
        const uint64_t la = d->nodes + (uint64_t)MANI_MATCH_NODE_SIZE * left;
        const uint64_t ra = d->nodes + (uint64_t)MANI_MATCH_NODE_SIZE * right;
        const uint32_t lc = mcore_ReadU32(b + la + 4);
        if (mcore_ReadU32(b + la) != first) return la;
        if (lc == 0 || lc >= count) return la + 4;
        if (mcore_ReadU32(b + ra) != first + lc) return ra;
        if (mcore_ReadU32(b + ra + 4) != count - lc) return ra + 4;
        stack[top++] = right;
        stack[top++] = left;
    }
    if (next != d->nodeCount) return mcore_SectionSizeField(8);
    /* The splits (every frame inside the frames once the leaves passed). */
    for (uint32_t node = 0; node < d->nodeCount; ++node) {
        const uint64_t at = d->nodes + (uint64_t)MANI_MATCH_NODE_SIZE * node;
        const uint32_t left = mcore_ReadU32(b + at + 8);
        if (left == 0) continue;
        const uint32_t first = mcore_ReadU32(b + at), count = mcore_ReadU32(b + at + 4), split = mcore_ReadU32(b + at + 24);
        const uint32_t lc = mcore_ReadU32(b + d->nodes + (uint64_t)MANI_MATCH_NODE_SIZE * left + 4);
        uint32_t maxLeft = mcore_ReadU32(b + d->order + 4ull * first);
        for (uint32_t k = 1; k < lc; ++k) {
            const uint32_t frame = mcore_ReadU32(b + d->order + 4ull * (first + k));
            if (mani_KeyBelow(d, split, maxLeft, frame)) maxLeft = frame;
        }
        for (uint32_t k = lc; k < count; ++k) {
            const uint32_t frame = mcore_ReadU32(b + d->order + 4ull * (first + k));
            if (!mani_KeyBelow(d, split, maxLeft, frame)) return d->order + 4ull * (first + k);
        }
    }
    for (uint32_t node = 0; node < d->nodeCount; ++node) {
        const uint64_t wrong = mani_CheckNodeBox(d, node);
        if (wrong != 0) return wrong;
    }
    return 0;
}

static int mani_FloatOk(float v) { return isfinite(v); }

maniFileResult maniOpenMotionDatabase(const void* bytes, size_t size, maniMotionDatabase* out) {
    if (bytes == NULL || out == NULL) return mani_FileResult(mani_errorInvalid, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindMotionDatabase,
                                                     mcore_formatMotionDatabaseLatest, maniMatchSections,
                                                     MANI_MATCH_SECTION_COUNT, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    const mcore_Section* sec = c.sections;

    /* The header. */
    if (sec[0].size != MANI_MATCH_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    maniMotionDatabase v;
    memset(&v, 0, sizeof v);
    v.bytes = b;
    v.size = size;
    v.identity = c.identity;
    v.skeletonIdentity = mcore_ReadU64(b + info);
    v.mirrorIdentity = mcore_ReadU64(b + info + 8);
    v.clipCount = mcore_ReadU32(b + info + 16);
    v.channelCount = mcore_ReadU32(b + info + 20);
    v.entryCount = mcore_ReadU32(b + info + 24);
    v.frameCount = mcore_ReadU32(b + info + 28);
    v.featureCount = mcore_ReadU32(b + info + 32);
    v.nodeCount = mcore_ReadU32(b + info + 36);
    v.rate = mcore_ReadF32(b + info + 40);
    v.upAxis = mcore_ReadU32(b + info + 44);
    v.forwardAxis = mcore_ReadU32(b + info + 48);
    v.leafSize = mcore_ReadU32(b + info + 52);
    const uint32_t namesSize = mcore_ReadU32(b + info + 56);
    if (v.clipCount == 0) return mani_FileResult(mani_errorFormat, info + 16);
    if (v.channelCount == 0) return mani_FileResult(mani_errorFormat, info + 20);
    if (v.entryCount == 0) return mani_FileResult(mani_errorFormat, info + 24);
    if (v.frameCount == 0) return mani_FileResult(mani_errorFormat, info + 28);
    const uint32_t f = v.featureCount;
    if (f == 0 || f > 256u) return mani_FileResult(mani_errorFormat, info + 32);
    if (v.nodeCount == 0 || v.nodeCount > 2u * v.frameCount) return mani_FileResult(mani_errorFormat, info + 36);
    if (!(v.rate > 0) || !(v.rate <= 240.0f)) return mani_FileResult(mani_errorFormat, info + 40);
    if (v.upAxis > 2) return mani_FileResult(mani_errorFormat, info + 44);
    if (v.forwardAxis > 2 || v.forwardAxis == v.upAxis) return mani_FileResult(mani_errorFormat, info + 48);
    if (v.leafSize == 0 || v.leafSize > MANI_MATCH_MAX_LEAF) return mani_FileResult(mani_errorFormat, info + 52);
    if (namesSize != sec[3].size) return mani_FileResult(mani_errorFormat, info + 56);
    for (uint64_t i = 60; i < MANI_MATCH_INFO_SIZE; ++i)
        if (b[info + i] != 0) return mani_FileResult(mani_errorFormat, info + i);
    const uint64_t sizes[MANI_MATCH_SECTION_COUNT] = {
        MANI_MATCH_INFO_SIZE,        8ull * v.clipCount,          (uint64_t)MANI_MATCH_CHANNEL_SIZE * v.channelCount,
        namesSize,                   (uint64_t)MANI_MATCH_ENTRY_SIZE * v.entryCount, 8ull * f,
        4ull * f * v.frameCount,     4ull * v.frameCount,          (uint64_t)MANI_MATCH_NODE_SIZE * v.nodeCount,
        8ull * f * v.nodeCount};
    for (uint32_t i = 1; i < MANI_MATCH_SECTION_COUNT; ++i)
        if (sec[i].size != sizes[i]) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(i));
    v.clips = sec[1].offset;
    v.channels = sec[2].offset;
    v.names = sec[3].offset;
    v.namesSize = namesSize;
    v.entries = sec[4].offset;
    v.normalization = sec[5].offset;
    v.features = sec[6].offset;
    v.order = sec[7].offset;
    v.nodes = sec[8].offset;
    v.boxes = sec[9].offset;

    /* Channels: known kinds, times, features in order, names. */
    uint32_t features = 0;
    for (uint32_t i = 0; i < v.channelCount; ++i) {
        const uint64_t at = v.channels + (uint64_t)MANI_MATCH_CHANNEL_SIZE * i;
        const uint32_t kind = mcore_ReadU32(b + at), width = mani_MatchKindWidth(kind);
        if (width == 0) return mani_FileResult(mani_errorFormat, at);
        const uint32_t bone = mcore_ReadU32(b + at + 4);
        const int boneKind = kind == maniMatchChannelBonePosition || kind == maniMatchChannelBoneVelocity;
        if (boneKind ? bone >= MANI_MAX_BONES : bone != 0xFFFFFFFFu) return mani_FileResult(mani_errorFormat, at + 4);
        const uint32_t times = mcore_ReadU32(b + at + 8);
        if (times == 0 || times > MANI_MAX_MATCH_TIMES) return mani_FileResult(mani_errorFormat, at + 8);
        if (mcore_ReadU32(b + at + 12) != features) return mani_FileResult(mani_errorFormat, at + 12);
        if (mcore_ReadU32(b + at + 16) != width * times || width * times > f - features)
            return mani_FileResult(mani_errorFormat, at + 16);
        features += width * times;
        const float weight = mcore_ReadF32(b + at + 20);
        if (!mani_FloatOk(weight) || !(weight > 0)) return mani_FileResult(mani_errorFormat, at + 20);
        const uint32_t off = mcore_ReadU32(b + at + 24), len = mcore_ReadU32(b + at + 28);
        if (kind == maniMatchChannelFloatTrack) {
            if (off > namesSize) return mani_FileResult(mani_errorFormat, at + 24);
            if (len == 0 || len > MANI_MAX_NAME_BYTES || len > namesSize - off) return mani_FileResult(mani_errorFormat, at + 28);
            const size_t good = mcore_Utf8Check(b + v.names + off, len);
            if (good != len) return mani_FileResult(mani_errorFormat, v.names + off + good);
        } else {
            if (off != 0) return mani_FileResult(mani_errorFormat, at + 24);
            if (len != 0) return mani_FileResult(mani_errorFormat, at + 28);
        }
        for (uint32_t k = 0; k < MANI_MAX_MATCH_TIMES; ++k) {
            const uint64_t t = at + 32 + 4ull * k;
            const float time = mcore_ReadF32(b + t);
            if (k < times ? !(fabsf(time) <= 10.0f) : mcore_ReadU32(b + t) != 0) return mani_FileResult(mani_errorFormat, t);
        }
    }
    if (features != f) return mani_FileResult(mani_errorFormat, info + 32);
    /* Clips: identities, not 0. */
    for (uint32_t i = 0; i < v.clipCount; ++i)
        if (mcore_ReadU64(b + v.clips + 8ull * i) == 0) return mani_FileResult(mani_errorFormat, v.clips + 8ull * i);
    /* Entries: frames in order, following from the span and the rate. */
    uint64_t frames = 0;
    int mirrored = 0;
    for (uint32_t i = 0; i < v.entryCount; ++i) {
        const uint64_t at = v.entries + (uint64_t)MANI_MATCH_ENTRY_SIZE * i;
        if (mcore_ReadU32(b + at) >= v.clipCount) return mani_FileResult(mani_errorFormat, at);
        const uint32_t flags = mcore_ReadU32(b + at + 4);
        if ((flags & ~MANI_MATCH_ENTRY_FLAGS) != 0) return mani_FileResult(mani_errorFormat, at + 4);
        if (flags & maniMatchEntryMirrored) mirrored = 1;
        if (mcore_ReadU32(b + at + 8) != frames) return mani_FileResult(mani_errorFormat, at + 8);
        const float start = mcore_ReadF32(b + at + 16), end = mcore_ReadF32(b + at + 20);
        if (!(start >= 0) || !mani_FloatOk(start)) return mani_FileResult(mani_errorFormat, at + 16);
        if (!(end >= start) || !mani_FloatOk(end)) return mani_FileResult(mani_errorFormat, at + 20);
        const uint64_t count = mani_MatchSpanFrames(start, end, v.rate);
        if (mcore_ReadU32(b + at + 12) != count) return mani_FileResult(mani_errorFormat, at + 12);
        if (!mani_FloatOk(mcore_ReadF32(b + at + 24))) return mani_FileResult(mani_errorFormat, at + 24);
        if (mcore_ReadU32(b + at + 28) != 0) return mani_FileResult(mani_errorFormat, at + 28);
        frames += count;
        if (frames > v.frameCount) return mani_FileResult(mani_errorFormat, at + 12);
    }
    if (frames != v.frameCount) return mani_FileResult(mani_errorFormat, info + 28);
    if ((v.mirrorIdentity != 0) != mirrored) return mani_FileResult(mani_errorFormat, info + 8);
    /* Normalization and features: finite, scales above 0. */
    for (uint32_t j = 0; j < 2 * f; ++j) {
        const float x = mcore_ReadF32(b + v.normalization + 4ull * j);
        if (!mani_FloatOk(x) || (j >= f && !(x > 0))) return mani_FileResult(mani_errorFormat, v.normalization + 4ull * j);
    }
    for (uint64_t j = 0; j < (uint64_t)f * v.frameCount; ++j)
        if (!mani_FloatOk(mcore_ReadF32(b + v.features + 4 * j))) return mani_FileResult(mani_errorFormat, v.features + 4 * j);
    /* The tree. */
    v.opened = MANI_MATCH_OPENED;
    const uint64_t wrong = mani_CheckTree(&v);
    if (wrong != 0) return mani_FileResult(mani_errorFormat, wrong);
    *out = v;
    return mani_FileResult(mani_success, 0);
}
