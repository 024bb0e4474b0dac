/* Maul Tween: clips (clip.h). */
#include <math.h>
#include <string.h>

#include "context_internal.h"
#include "../timing/timing_internal.h"

#define MTWN_CLIP_ALIGN 16u

typedef struct ClipLayout {
    uint64_t nodes, keyframes, mixes, points, total;
} ClipLayout;

static uint64_t placeIn(uint64_t* at, uint64_t bytes)
{
    uint64_t o = (*at + (MTWN_CLIP_ALIGN - 1u)) & ~(uint64_t)(MTWN_CLIP_ALIGN - 1u);
    *at = o + bytes;
    return o;
}

static void clipLayout(const mtwnClipDef* d, ClipLayout* l)
{
    uint64_t at = 0;
    l->nodes = placeIn(&at, (uint64_t)d->nodeCapacity * sizeof(mtwn_ClipNode));
    l->keyframes = placeIn(&at, (uint64_t)d->keyframeCapacity * sizeof(mtwnKeyframe));
    l->mixes = placeIn(&at, (uint64_t)d->keyframeCapacity * sizeof(mtwnSegmentMix));
    l->points = placeIn(&at, (uint64_t)d->pointCapacity * sizeof(mtwnLinearPoint));
    l->total = placeIn(&at, 0);
}

static mtwnResult checkClipDef(const mtwnClipDef* d)
{
    if (d->cookie != MTWN_CLIP_DEF_COOKIE || d->reserved != 0u) return mtwn_errorInvalid;
    if (d->nodeCapacity > MTWN_MAX_COUNT || d->keyframeCapacity > MTWN_MAX_COUNT || d->slotCount > MTWN_MAX_COUNT ||
        d->pointCapacity > MTWN_MAX_COUNT)
        return mtwn_errorLimit;
    if (d->nodeCapacity < 1u || d->slotCount < 1u) return mtwn_errorInvalid;
    return mtwn_success;
}

mtwn_Clip* mtwn_FindClip(const mtwnContext* context, mtwnClipId id)
{
    mtwn_Clip* c;
    if (id.index >= context->clipUsed) return NULL;
    c = &context->clips[id.index];
    if (!c->alive || c->generation != id.generation) return NULL;
    return c;
}

static const mtwnLinearPoint* movePoints(const mtwnLinearPoint* p, const mtwnLinearPoint* oldBase,
                                         mtwnLinearPoint* newBase)
{
    if (p == NULL) return NULL;
    return newBase + (p - oldBase);
}

void mtwn_RebaseClip(mtwn_Clip* c, unsigned char* storage)
{
    mtwnClipDef d;
    ClipLayout l;
    const mtwnLinearPoint* oldPoints = c->points;
    unsigned char* base = storage + c->offset;
    d.nodeCapacity = c->nodeCapacity;
    d.keyframeCapacity = c->keyframeCapacity;
    d.pointCapacity = c->pointCapacity;
    clipLayout(&d, &l);
    c->nodes = (mtwn_ClipNode*)(void*)(base + l.nodes);
    c->keyframes = (mtwnKeyframe*)(void*)(base + l.keyframes);
    c->mixes = (mtwnSegmentMix*)(void*)(base + l.mixes);
    c->points = (mtwnLinearPoint*)(void*)(base + l.points);
    for (uint32_t i = 0; i < c->nodeCount; ++i)
        c->nodes[i].timing.easing.points = movePoints(c->nodes[i].timing.easing.points, oldPoints, c->points);
    for (uint32_t i = 0; i < c->keyframeCount; ++i)
        c->keyframes[i].easing.points = movePoints(c->keyframes[i].easing.points, oldPoints, c->points);
}

mtwnResult mtwnContext_GetClipBytes(const mtwnContext* context, const mtwnClipDef* def, uint64_t* bytesOut)
{
    ClipLayout l;
    mtwnResult r;
    if (context == NULL) return mtwn_errorInvalid;
    if (def == NULL || bytesOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    r = checkClipDef(def);
    if (r != mtwn_success) {
        if (r == mtwn_errorInvalid) mtwn_Misuse(context);
        return r;
    }
    clipLayout(def, &l);
    *bytesOut = l.total;
    return mtwn_success;
}

static double endTimeOf(const mtwnTiming* t)
{
    double e = t->delay + mtwn_ActiveDuration(t) + t->endDelay;
    return e > 0.0 ? e : 0.0;
}

double mtwn_NodeEnd(const mtwn_ClipNode* n)
{
    switch (n->kind) {
    case mtwn_nodeTimeline: return n->timelineEnd;
    case mtwn_nodeTrack: return n->start + endTimeOf(&n->timing);
    default: return n->start;
    }
}

/* The first gap of the clip storage between live clips' ranges (in offset
 * order) that holds bytes: its offset, and the slot + 1 of the clip before
 * it (0: first). False when none does. Linear in the live clips. */
static bool findRange(const mtwnContext* context, uint64_t bytes, uint64_t* atOut, uint32_t* beforeOut)
{
    uint64_t end = 0u;
    uint32_t before = 0u;
    for (uint32_t at = context->clipStorageFirst; at != 0u; at = context->clips[at - 1u].nextInStorage) {
        const mtwn_Clip* o = &context->clips[at - 1u];
        if (o->offset - end >= bytes) break;
        end = o->offset + o->bytes;
        before = at;
    }
    if (bytes > context->def.clipStorageBytes - end) return false;
    *atOut = end;
    *beforeOut = before;
    return true;
}

mtwnResult mtwnCreateClip(mtwnContext* context, const mtwnClipDef* def, mtwnClipId* clipOut)
{
    uint64_t at = 0u;
    uint32_t before = 0u;
    ClipLayout l;
    mtwnResult r;
    uint32_t slot;
    mtwn_Clip* c;
    mtwn_ClipNode* root;
    MTWN_ENTER(context);
    if (def == NULL || clipOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    r = checkClipDef(def);
    if (r != mtwn_success) {
        if (r == mtwn_errorInvalid) mtwn_Misuse(context);
        return r;
    }
    clipLayout(def, &l);
    if (!findRange(context, l.total, &at, &before)) return mtwn_errorCapacity;
    if (context->clipFree != 0u) {
        slot = context->clipFreeList[--context->clipFree];
    } else if (context->clipUsed < context->def.clipCapacity) {
        slot = context->clipUsed++;
        context->clips[slot].generation = 0u;
    } else {
        return mtwn_errorCapacity;
    }
    c = &context->clips[slot];
    {
        uint32_t g = c->generation + 1u;
        memset(c, 0, sizeof(*c));
        c->generation = g;
    }
    c->alive = 1u;
    c->nodeCapacity = def->nodeCapacity;
    c->keyframeCapacity = def->keyframeCapacity;
    c->pointCapacity = def->pointCapacity;
    c->slotCount = def->slotCount;
    c->offset = at;
    c->bytes = l.total;
    /* Linked in offset order after the range before it. */
    if (before == 0u) {
        c->nextInStorage = context->clipStorageFirst;
        context->clipStorageFirst = slot + 1u;
    } else {
        c->nextInStorage = context->clips[before - 1u].nextInStorage;
        context->clips[before - 1u].nextInStorage = slot + 1u;
    }
    if (at + l.total > context->clipStorageUsed) context->clipStorageUsed = at + l.total;
    c->points = NULL;
    mtwn_RebaseClip(c, context->clipStorage);
    c->nodeCount = 1u;
    root = &c->nodes[0];
    memset(root, 0, sizeof(*root));
    root->kind = mtwn_nodeTimeline;
    root->durationFromChildren = 1u;
    root->timing = mtwnDefaultTiming();
    /* The root fills both ways: a player holding its end or start shows what
     * its children fill there. */
    root->timing.fill = mtwn_fillBoth;
    clipOut->index = slot;
    clipOut->generation = c->generation;
    return mtwn_success;
}

mtwnResult mtwnDestroyClip(mtwnContext* context, mtwnClipId clip)
{
    mtwn_Clip* c;
    MTWN_ENTER(context);
    c = mtwn_FindClip(context, clip);
    if (c == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    if (c->holders != 0u) return mtwn_errorBusy;
    /* Its range is unlinked for later clips; no other clip's storage moves,
     * so the tracks mtwnClip_GetTrack handed out stay valid. */
    {
        uint32_t* link = &context->clipStorageFirst;
        uint64_t end = 0u;
        while (*link != clip.index + 1u) {
            const mtwn_Clip* o = &context->clips[*link - 1u];
            end = o->offset + o->bytes;
            link = &context->clips[*link - 1u].nextInStorage;
        }
        *link = c->nextInStorage;
        if (c->nextInStorage == 0u) context->clipStorageUsed = end; /* the last range: the end moves back */
    }
    c->alive = 0u;
    if (c->generation != UINT32_MAX) context->clipFreeList[context->clipFree++] = clip.index;
    return mtwn_success;
}

bool mtwnClip_IsValid(const mtwnContext* context, mtwnClipId clip)
{
    return context != NULL && mtwn_FindClip(context, clip) != NULL;
}

/* The clip for a change: mtwn_success, or the refusal (counted). */
static mtwnResult clipForChange(mtwnContext* context, mtwnClipId clip, mtwn_Clip** out)
{
    *out = mtwn_FindClip(context, clip);
    if (*out == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    if ((*out)->sealed) {
        mtwn_Misuse(context);
        return mtwn_errorState;
    }
    return mtwn_success;
}

static const mtwn_ClipNode* timelineOf(const mtwn_Clip* c, mtwnNode n)
{
    if (n < 1u || n > c->nodeCount) return NULL;
    if (c->nodes[n - 1u].kind != mtwn_nodeTimeline) return NULL;
    return &c->nodes[n - 1u];
}

static bool findLabel(const mtwn_Clip* c, mtwnNode parent, uint32_t key, double* at)
{
    for (uint32_t i = 1; i < c->nodeCount; ++i) {
        const mtwn_ClipNode* n = &c->nodes[i];
        if (n->kind == mtwn_nodeLabel && n->parent == parent && n->key == key) {
            *at = n->start;
            return true;
        }
    }
    return false;
}

static bool resolve(const mtwn_Clip* c, mtwnNode parent, mtwnPosition pos, double* startOut)
{
    const mtwn_ClipNode* p = &c->nodes[parent - 1u];
    double s;
    if (!(pos.offset - pos.offset == 0.0)) return false;
    switch (pos.anchor) {
    case mtwn_positionAt: s = pos.offset; break;
    case mtwn_positionAfterPrevious:
        s = (p->lastChild ? mtwn_NodeEnd(&c->nodes[p->lastChild - 1u]) : 0.0) + pos.offset;
        break;
    case mtwn_positionWithPrevious:
        s = (p->lastChild ? c->nodes[p->lastChild - 1u].start : 0.0) + pos.offset;
        break;
    case mtwn_positionLabel: {
        double at;
        if (!findLabel(c, parent, pos.label, &at)) return false;
        s = at + pos.offset;
        break;
    }
    case mtwn_positionParentEnd: s = p->childEnd + pos.offset; break;
    default: return false;
    }
    if (!(s >= 0.0 && s <= MTWN_SEEK_LIMIT)) return false;
    *startOut = s;
    return true;
}

/* The ends a new child's end makes up the chain: whether the root's stays
 * within MTWN_SEEK_LIMIT (or is infinite), and writes them when apply. */
static bool propagate(mtwn_Clip* c, mtwnNode parent, double childEnd, bool apply)
{
    mtwnNode n = parent;
    double e = childEnd;
    while (n != 0u) {
        mtwn_ClipNode* p = &c->nodes[n - 1u];
        double ce = e > p->childEnd ? e : p->childEnd;
        double end = p->timelineEnd;
        if (p->durationFromChildren) {
            mtwnTiming t = p->timing;
            t.duration = ce;
            if (mtwnValidateTiming(&t) != mtwn_success) return false;
            end = p->start + endTimeOf(&t);
            if (apply) p->timing = t;
        }
        if (apply) {
            p->childEnd = ce;
            p->timelineEnd = end;
        }
        if (p->parent == 0u) return isinf(end) || end <= MTWN_SEEK_LIMIT;
        e = end;
        n = p->parent;
    }
    return true;
}

/* Copies a linear() easing's points into the clip; false when they do not fit. */
static int copyEasing(mtwn_Clip* c, mtwnEasing* e, uint32_t* used)
{
    if (e->kind != mtwn_easingLinearPoints) return 0;
    if (e->points == NULL) return -1;
    for (uint32_t i = 0; i < e->count; ++i) {
        if (!(e->points[i].input - e->points[i].input == 0.0) || !(e->points[i].output - e->points[i].output == 0.0))
            return -1;
        if (i > 0u && e->points[i].input < e->points[i - 1u].input) return -1;
    }
    if (e->count > c->pointCapacity - c->pointCount - *used) return 1;
    memcpy(c->points + c->pointCount + *used, e->points, (size_t)e->count * sizeof(mtwnLinearPoint));
    e->points = c->points + c->pointCount + *used;
    *used += e->count;
    return 0;
}

static mtwnResult addNode(mtwnContext* context, mtwnClipId clip, mtwnNode parent, mtwnPosition position,
                          uint32_t kind, const mtwnClipTrackDef* track, const mtwnClipTimelineDef* timeline,
                          uint32_t key, mtwnNode* nodeOut)
{
    mtwn_Clip* c;
    const mtwn_ClipNode* p;
    mtwn_ClipNode n;
    double end;
    mtwnResult r = clipForChange(context, clip, &c);
    uint32_t pointsUsed = 0;
    if (r != mtwn_success) return r;
#define REFUSE(code)                                                                                 \
    do {                                                                                             \
        if ((code) == mtwn_errorInvalid) mtwn_Misuse(context);                                       \
        return (code);                                                                               \
    } while (0)
    if (nodeOut == NULL) REFUSE(mtwn_errorInvalid);
    p = timelineOf(c, parent);
    if (p == NULL) REFUSE(mtwn_errorInvalid);
    memset(&n, 0, sizeof(n));
    n.kind = kind;
    n.parent = parent;
    n.depth = (uint8_t)(p->depth + 1u);
    if (kind == mtwn_nodeLabel || kind == mtwn_nodeMark) n.key = key;
    if (!resolve(c, parent, position, &n.start)) REFUSE(mtwn_errorInvalid);
    if (kind == mtwn_nodeLabel) {
        double at;
        if (findLabel(c, parent, key, &at)) REFUSE(mtwn_errorInvalid);
    }
    if (c->nodeCount == c->nodeCapacity) REFUSE(mtwn_errorCapacity);
    if (kind == mtwn_nodeTrack) {
        mtwnTrack made;
        mtwnKeyframe* k;
        if (track->slot >= c->slotCount || track->keyframeCount < 1u || track->keyframes == NULL ||
            mtwnValidateTiming(&track->timing) != mtwn_success || track->track.cookie != MTWN_TRACK_DEF_COOKIE)
            REFUSE(mtwn_errorInvalid);
        if (track->keyframeCount > c->keyframeCapacity - c->keyframeCount) REFUSE(mtwn_errorCapacity);
        n.slot = track->slot;
        n.timing = track->timing;
        n.firstKeyframe = c->keyframeCount;
        n.keyframeCount = track->keyframeCount;
        k = c->keyframes + c->keyframeCount;
        memcpy(k, track->keyframes, (size_t)track->keyframeCount * sizeof(mtwnKeyframe));
        {
            int e = copyEasing(c, &n.timing.easing, &pointsUsed);
            for (uint32_t i = 0; e == 0 && i < track->keyframeCount; ++i) e = copyEasing(c, &k[i].easing, &pointsUsed);
            if (e < 0) REFUSE(mtwn_errorInvalid);
            if (e > 0) REFUSE(mtwn_errorCapacity);
        }
        if (mtwnMakeTrack(k, track->keyframeCount, &track->track, NULL, c->mixes + c->keyframeCount, &made) !=
            mtwn_success)
            REFUSE(mtwn_errorInvalid);
        n.trackKind = (uint8_t)made.kind;
        n.channels = (uint8_t)made.path.channels;
        n.alpha = made.path.alpha;
        end = mtwn_NodeEnd(&n);
    } else if (kind == mtwn_nodeTimeline) {
        bool monotone = false;
        /* A timeline's easing never decreases (mtwnIsEasingMonotonic): its
         * children's time runs one way within an iteration. */
        if (timeline->durationFromChildren > 1u || timeline->reserved != 0u ||
            mtwnValidateTiming(&timeline->timing) != mtwn_success ||
            mtwnIsEasingMonotonic(&timeline->timing.easing, &monotone) != mtwn_success || !monotone)
            REFUSE(mtwn_errorInvalid);
        if (n.depth > MTWN_MAX_CLIP_DEPTH) REFUSE(mtwn_errorLimit);
        n.timing = timeline->timing;
        n.durationFromChildren = (uint8_t)timeline->durationFromChildren;
        if (n.durationFromChildren) n.timing.duration = 0.0;
        {
            int e = copyEasing(c, &n.timing.easing, &pointsUsed);
            if (e < 0) REFUSE(mtwn_errorInvalid);
            if (e > 0) REFUSE(mtwn_errorCapacity);
        }
        n.timelineEnd = n.start + endTimeOf(&n.timing);
        end = n.timelineEnd;
    } else {
        end = n.start;
    }
    if (kind == mtwn_nodeTrack || kind == mtwn_nodeTimeline) {
        if (!isinf(end) && end > MTWN_SEEK_LIMIT) REFUSE(mtwn_errorLimit);
        if (!propagate(c, parent, end, false)) REFUSE(mtwn_errorLimit);
        propagate(c, parent, end, true);
        c->nodes[parent - 1u].lastChild = c->nodeCount + 1u;
        if (kind == mtwn_nodeTrack) c->keyframeCount += n.keyframeCount;
    }
#undef REFUSE
    c->pointCount += pointsUsed;
    c->nodes[c->nodeCount] = n;
    c->nodeCount += 1u;
    *nodeOut = c->nodeCount;
    return mtwn_success;
}

mtwnResult mtwnClip_AddTrack(mtwnContext* context, mtwnClipId clip, const mtwnClipTrackDef* def, mtwnNode* nodeOut)
{
    MTWN_ENTER(context);
    if (def == NULL || def->cookie != MTWN_CLIP_TRACK_DEF_COOKIE) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    return addNode(context, clip, def->parent, def->position, mtwn_nodeTrack, def, NULL, 0u, nodeOut);
}

mtwnResult mtwnClip_AddTimeline(mtwnContext* context, mtwnClipId clip, const mtwnClipTimelineDef* def,
                                mtwnNode* nodeOut)
{
    MTWN_ENTER(context);
    if (def == NULL || def->cookie != MTWN_CLIP_TIMELINE_DEF_COOKIE) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    return addNode(context, clip, def->parent, def->position, mtwn_nodeTimeline, NULL, def, 0u, nodeOut);
}

mtwnResult mtwnClip_AddLabel(mtwnContext* context, mtwnClipId clip, mtwnNode parent, mtwnPosition position,
                             uint32_t key, mtwnNode* nodeOut)
{
    MTWN_ENTER(context);
    return addNode(context, clip, parent, position, mtwn_nodeLabel, NULL, NULL, key, nodeOut);
}

mtwnResult mtwnClip_AddMark(mtwnContext* context, mtwnClipId clip, mtwnNode parent, mtwnPosition position,
                            uint32_t key, mtwnNode* nodeOut)
{
    MTWN_ENTER(context);
    return addNode(context, clip, parent, position, mtwn_nodeMark, NULL, NULL, key, nodeOut);
}

mtwnResult mtwnClip_Seal(mtwnContext* context, mtwnClipId clip)
{
    mtwn_Clip* c;
    mtwnResult r;
    MTWN_ENTER(context);
    r = clipForChange(context, clip, &c);
    if (r != mtwn_success) return r;
    c->sealed = 1u;
    c->trackCount = 0u;
    c->markCount = mtwn_RecordBound(c);
    for (uint32_t i = 1; i < c->nodeCount; ++i)
        if (c->nodes[i].kind == mtwn_nodeTrack) c->trackCount += 1u;
    return mtwn_success;
}

/* A sealed clip for a read: mtwn_success, or the refusal (counted). */
static mtwnResult clipForRead(const mtwnContext* context, mtwnClipId clip, const mtwn_Clip** out)
{
    *out = mtwn_FindClip(context, clip);
    if (*out == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    if (!(*out)->sealed) {
        mtwn_Misuse(context);
        return mtwn_errorState;
    }
    return mtwn_success;
}

void mtwn_ClipTrackOf(const mtwn_Clip* c, const mtwn_ClipNode* n, mtwnTrack* t)
{
    bool mixes = n->trackKind == mtwn_valueColor || n->trackKind == mtwn_valueRotation ||
                 n->trackKind == mtwn_valueScale;
    t->cookie = MTWN_TRACK_COOKIE;
    t->kind = n->trackKind;
    t->path.cookie = MTWN_PATH_COOKIE;
    t->path.count = n->keyframeCount;
    t->path.channels = n->channels;
    t->path.reserved = 0u;
    t->path.alpha = n->alpha;
    t->path.keyframes = c->keyframes + n->firstKeyframe;
    t->path.lengths = NULL;
    t->mixes = mixes && n->keyframeCount > 1u ? c->mixes + n->firstKeyframe : NULL;
}

mtwnResult mtwnClip_GetTrack(const mtwnContext* context, mtwnClipId clip, mtwnNode node, mtwnClipTrack* trackOut)
{
    const mtwn_Clip* c;
    const mtwn_ClipNode* n;
    mtwnResult r;
    if (context == NULL) return mtwn_errorInvalid;
    if (trackOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    r = clipForRead(context, clip, &c);
    if (r != mtwn_success) return r;
    if (node < 1u || node > c->nodeCount || c->nodes[node - 1u].kind != mtwn_nodeTrack) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    n = &c->nodes[node - 1u];
    trackOut->parent = n->parent;
    trackOut->slot = n->slot;
    trackOut->start = n->start;
    trackOut->end = mtwn_NodeEnd(n);
    trackOut->timing = n->timing;
    mtwn_ClipTrackOf(c, n, &trackOut->track);
    return mtwn_success;
}

mtwnResult mtwnClip_GetNode(const mtwnContext* context, mtwnClipId clip, mtwnNode node, mtwnClipNodeInfo* infoOut)
{
    const mtwn_Clip* c;
    const mtwn_ClipNode* n;
    mtwnResult r;
    if (context == NULL) return mtwn_errorInvalid;
    if (infoOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    r = clipForRead(context, clip, &c);
    if (r != mtwn_success) return r;
    if (node < 1u || node > c->nodeCount) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    n = &c->nodes[node - 1u];
    infoOut->kind = n->kind;
    infoOut->parent = n->parent;
    infoOut->depth = n->depth;
    infoOut->key = n->kind == mtwn_nodeLabel || n->kind == mtwn_nodeMark ? n->key : 0u;
    infoOut->slot = n->kind == mtwn_nodeTrack ? n->slot : 0u;
    infoOut->reserved = 0u;
    infoOut->start = n->start;
    infoOut->end = mtwn_NodeEnd(n);
    return mtwn_success;
}

mtwnResult mtwnClip_FindLabel(const mtwnContext* context, mtwnClipId clip, mtwnNode parent, uint32_t key,
                              double* secondsOut)
{
    const mtwn_Clip* c;
    mtwnResult r;
    double at;
    if (context == NULL) return mtwn_errorInvalid;
    if (secondsOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    r = clipForRead(context, clip, &c);
    if (r != mtwn_success) return r;
    if (timelineOf(c, parent) == NULL || !findLabel(c, parent, key, &at)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    *secondsOut = at;
    return mtwn_success;
}

mtwnResult mtwnClip_GetDuration(const mtwnContext* context, mtwnClipId clip, double* secondsOut)
{
    const mtwn_Clip* c;
    mtwnResult r;
    if (context == NULL) return mtwn_errorInvalid;
    if (secondsOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    r = clipForRead(context, clip, &c);
    if (r != mtwn_success) return r;
    *secondsOut = c->nodes[0].timelineEnd;
    return mtwn_success;
}
