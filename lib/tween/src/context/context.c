/* Maul Tween: the context (context.h) and its event queue (event.h). */
#include <stdlib.h>
#include <string.h>

#include "context_internal.h"

/* Every array is aligned to this within the block. */
#define MTWN_BLOCK_ALIGN 64u

typedef struct Layout {
    uint64_t targets, targetFree, changed, players, playerFree, order, points, events, scratch;
    uint64_t clips, clipFree, clipStorage, bindings, stamps, touched, writes, records, sinks, total;
} Layout;

static uint64_t place(uint64_t* at, uint64_t bytes)
{
    uint64_t o = (*at + (MTWN_BLOCK_ALIGN - 1u)) & ~(uint64_t)(MTWN_BLOCK_ALIGN - 1u);
    *at = o + bytes;
    return o;
}

/* A task system's staging: a write for each binding and two more for each
 * node of a shared clip. */
static uint64_t stageWrites(const mtwnContextDef* d)
{
    return (uint64_t)d->bindingCapacity + 2u * (uint64_t)d->sharingNodes;
}

/* Every count is at most 2^24 and every object below 2^11 bytes, so no sum
 * overflows 64 bits. */
static void layout(const mtwnContextDef* d, Layout* l)
{
    uint64_t at = sizeof(mtwnContext);
    uint64_t t = d->targetCapacity, p = d->playerCapacity, e = d->eventCapacity;
    l->targets = place(&at, t * sizeof(mtwn_Target));
    l->targetFree = place(&at, t * sizeof(uint32_t));
    l->changed = place(&at, t * sizeof(uint32_t));
    l->players = place(&at, p * sizeof(mtwn_Player));
    l->playerFree = place(&at, p * sizeof(uint32_t));
    l->order = place(&at, p * sizeof(mtwnPlayerId));
    l->points = place(&at, p * (uint64_t)d->pointsPerTransition * sizeof(mtwnLinearPoint));
    l->events = place(&at, e * sizeof(mtwnEvent));
    l->scratch = place(&at, e * sizeof(mtwnEvent));
    l->clips = place(&at, (uint64_t)d->clipCapacity * sizeof(mtwn_Clip));
    l->clipFree = place(&at, (uint64_t)d->clipCapacity * sizeof(uint32_t));
    l->clipStorage = place(&at, d->clipStorageBytes);
    l->bindings = place(&at, (uint64_t)d->bindingCapacity * sizeof(mtwnBinding));
    l->stamps = place(&at, t * sizeof(uint32_t));
    l->touched = place(&at, t * sizeof(uint32_t));
    l->writes = place(&at, stageWrites(d) * sizeof(mtwn_Write));
    l->records = place(&at, (uint64_t)d->sharingRecords * sizeof(mtwnEvent));
    l->sinks = place(&at, p * sizeof(mtwn_Sink));
    l->total = at;
}

static void bind(mtwnContext* c, const Layout* l)
{
    char* b = (char*)c;
    c->targets = (mtwn_Target*)(void*)(b + l->targets);
    c->targetFreeList = (uint32_t*)(void*)(b + l->targetFree);
    c->changed = (uint32_t*)(void*)(b + l->changed);
    c->players = (mtwn_Player*)(void*)(b + l->players);
    c->playerFreeList = (uint32_t*)(void*)(b + l->playerFree);
    c->order = (mtwnPlayerId*)(void*)(b + l->order);
    c->points = (mtwnLinearPoint*)(void*)(b + l->points);
    c->events = (mtwnEvent*)(void*)(b + l->events);
    c->eventScratch = (mtwnEvent*)(void*)(b + l->scratch);
    c->clips = (mtwn_Clip*)(void*)(b + l->clips);
    c->clipFreeList = (uint32_t*)(void*)(b + l->clipFree);
    c->clipStorage = (unsigned char*)(b + l->clipStorage);
    c->bindings = (mtwnBinding*)(void*)(b + l->bindings);
    c->targetStamp = (uint32_t*)(void*)(b + l->stamps);
    c->touched = (uint32_t*)(void*)(b + l->touched);
    c->stageWrites = (mtwn_Write*)(void*)(b + l->writes);
    c->stageRecords = (mtwnEvent*)(void*)(b + l->records);
    c->sinks = (mtwn_Sink*)(void*)(b + l->sinks);
    c->stageWriteCapacity = (uint32_t)stageWrites(&c->def);
    c->stageRecordCapacity = c->def.sharingRecords;
}

static void* cAllocate(void* user, size_t size, size_t alignment)
{
    (void)user;
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    size_t rounded = (size + alignment - 1u) & ~(alignment - 1u);
    return aligned_alloc(alignment, rounded);
}

static void cRelease(void* user, void* memory, size_t size)
{
    (void)user;
    (void)size;
    free(memory);
}

/* The def's checks after the cookie and version, in the reference's order. */
static mtwnResult checkDef(const mtwnContextDef* d)
{
    if ((d->allocator.allocate == NULL) != (d->allocator.release == NULL)) return mtwn_errorInvalid;
    if ((d->taskSystem.begin == NULL) != (d->taskSystem.wait == NULL)) return mtwn_errorInvalid;
    if (d->targetCapacity > MTWN_MAX_COUNT || d->playerCapacity > MTWN_MAX_COUNT ||
        d->pointsPerTransition > MTWN_MAX_COUNT || d->clipCapacity > MTWN_MAX_COUNT ||
        d->eventCapacity > MTWN_MAX_COUNT || d->bindingCapacity > MTWN_MAX_COUNT ||
        d->sharingNodes > MTWN_MAX_COUNT || d->sharingRecords > MTWN_MAX_COUNT)
        return mtwn_errorLimit;
    if (d->clipStorageBytes > MTWN_MAX_CLIP_STORAGE) return mtwn_errorLimit;
    return mtwn_success;
}

static mtwnResult allocateBlock(const mtwnAllocator* a, uint64_t total, mtwnContext** out)
{
    void* m;
    if (total > (uint64_t)(SIZE_MAX / 2u)) return mtwn_errorCapacity;
    m = a->allocate(a->user, (size_t)total, MTWN_BLOCK_ALIGN);
    if (m == NULL) return mtwn_errorCapacity;
    *out = (mtwnContext*)m;
    return mtwn_success;
}

mtwnResult mtwnCreateContext(const mtwnContextDef* def, mtwnContext** contextOut)
{
    mtwnContextDef d;
    Layout l;
    mtwnContext* c = NULL;
    mtwnResult r;
    if (def == NULL || contextOut == NULL || def->cookie != MTWN_CONTEXT_DEF_COOKIE) return mtwn_errorInvalid;
    if (def->abiVersion != MTWN_ABI_VERSION) return mtwn_errorVersion;
    d = *def;
    r = checkDef(&d);
    if (r != mtwn_success) return r;
    if (d.allocator.allocate == NULL) {
        d.allocator.allocate = cAllocate;
        d.allocator.release = cRelease;
        d.allocator.user = NULL;
    }
    layout(&d, &l);
    r = allocateBlock(&d.allocator, l.total, &c);
    if (r != mtwn_success) return r;
    memset(c, 0, sizeof(*c));
    c->def = d;
    c->blockBytes = l.total;
    bind(c, &l);
    *contextOut = c;
    return mtwn_success;
}

void mtwnDestroyContext(mtwnContext* context)
{
    mtwnAllocator a;
    MTWN_ENTER_VOID(context);
    a = context->def.allocator;
    a.release(a.user, context, (size_t)context->blockBytes);
}

mtwnResult mtwnContext_Grow(mtwnContext** contextInOut, const mtwnContextDef* def)
{
    mtwnContext* o;
    mtwnContext* c = NULL;
    mtwnContextDef d;
    Layout l;
    mtwnResult r;
    uint32_t i;
    if (contextInOut == NULL) return mtwn_errorInvalid;
    MTWN_ENTER(*contextInOut);
    o = *contextInOut;
    if (def == NULL || def->cookie != MTWN_CONTEXT_DEF_COOKIE) {
        mtwn_Misuse(o);
        return mtwn_errorInvalid;
    }
    if (def->abiVersion != MTWN_ABI_VERSION) return mtwn_errorVersion;
    d = *def;
    /* The allocator it was made with: a def naming the C library's (neither
     * function) matches a context made with it. */
    if (d.allocator.allocate == NULL && d.allocator.release == NULL) {
        d.allocator.allocate = cAllocate;
        d.allocator.release = cRelease;
        d.allocator.user = NULL;
    }
    if (d.allocator.allocate != o->def.allocator.allocate || d.allocator.release != o->def.allocator.release ||
        d.allocator.user != o->def.allocator.user) {
        mtwn_Misuse(o);
        return mtwn_errorInvalid;
    }
    r = checkDef(&d);
    if (r == mtwn_success &&
        (d.targetCapacity < o->def.targetCapacity || d.playerCapacity < o->def.playerCapacity ||
         d.pointsPerTransition < o->def.pointsPerTransition || d.clipCapacity < o->def.clipCapacity ||
         d.eventCapacity < o->def.eventCapacity || d.bindingCapacity < o->def.bindingCapacity ||
         d.clipStorageBytes < o->def.clipStorageBytes))
        r = mtwn_errorInvalid;
    if (r != mtwn_success) {
        if (r == mtwn_errorInvalid) mtwn_Misuse(o);
        return r;
    }
    layout(&d, &l);
    o->busy += 1u; /* the allocator is the host's code */
    r = allocateBlock(&d.allocator, l.total, &c);
    o->busy -= 1u;
    if (r != mtwn_success) return r;
    *c = *o;
    c->def = d;
    c->blockBytes = l.total;
    bind(c, &l);
    memcpy(c->targets, o->targets, (size_t)o->targetUsed * sizeof(mtwn_Target));
    memcpy(c->targetFreeList, o->targetFreeList, (size_t)o->targetFree * sizeof(uint32_t));
    memcpy(c->changed, o->changed, (size_t)o->changedCount * sizeof(uint32_t));
    memcpy(c->players, o->players, (size_t)o->playerUsed * sizeof(mtwn_Player));
    memcpy(c->playerFreeList, o->playerFreeList, (size_t)o->playerFree * sizeof(uint32_t));
    memcpy(c->order, o->order, (size_t)o->orderCount * sizeof(mtwnPlayerId));
    memcpy(c->events, o->events, (size_t)o->eventCount * sizeof(mtwnEvent));
    memcpy(c->clips, o->clips, (size_t)o->clipUsed * sizeof(mtwn_Clip));
    memcpy(c->clipFreeList, o->clipFreeList, (size_t)o->clipFree * sizeof(uint32_t));
    memcpy(c->clipStorage, o->clipStorage, (size_t)o->clipStorageUsed);
    memcpy(c->bindings, o->bindings, (size_t)o->bindingUsed * sizeof(mtwnBinding));
    memcpy(c->targetStamp, o->targetStamp, (size_t)o->targetUsed * sizeof(uint32_t));
    for (i = 0; i < o->clipUsed; ++i)
        if (c->clips[i].alive) mtwn_RebaseClip(&c->clips[i], c->clipStorage);
    /* Each transition's linear() points move to its slot's new place. */
    for (i = 0; i < o->playerUsed; ++i) {
        mtwn_Player* p = &c->players[i];
        if (p->alive && p->easing.points != NULL) {
            mtwnLinearPoint* dst = c->points + (uint64_t)i * d.pointsPerTransition;
            memcpy(dst, p->easing.points, (size_t)p->easing.count * sizeof(mtwnLinearPoint));
            p->easing.points = dst;
        }
    }
    o->def.allocator.release(o->def.allocator.user, o, (size_t)o->blockBytes);
    *contextInOut = c;
    return mtwn_success;
}

uint64_t mtwnContext_GetMisuse(const mtwnContext* context)
{
    return context == NULL ? 0u : context->misuse;
}

uint64_t mtwnContext_GetSerialAdvanceCount(const mtwnContext* context)
{
    if (context == NULL || context->def.taskSystem.begin == NULL) return 0u;
    return context->serialAdvances;
}

uint64_t mtwnContext_GetMemoryBytes(const mtwnContext* context)
{
    return context == NULL ? 0u : context->blockBytes;
}

void mtwnContext_EnableReducedMotion(mtwnContext* context, bool enabled)
{
    MTWN_ENTER_VOID(context);
    context->reducedMotion = enabled ? 1u : 0u;
}

bool mtwnContext_IsReducedMotionEnabled(const mtwnContext* context)
{
    return context != NULL && context->reducedMotion != 0u;
}

uint32_t mtwnContext_GetPlayingOnCount(const mtwnContext* context)
{
    return context == NULL ? 0u : context->playingOn;
}

/* -- Events ---------------------------------------------------------------------- */

mtwnResult mtwnContext_ReadEvents(mtwnContext* context, mtwnEvent* eventsOut, uint32_t capacity, uint32_t* countOut,
                                  uint64_t* droppedOut)
{
    uint32_t n;
    MTWN_ENTER(context);
    if (countOut == NULL || (eventsOut == NULL && capacity != 0u)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    n = context->eventCount < capacity ? context->eventCount : capacity;
    if (n != 0u) {
        memcpy(eventsOut, context->events, (size_t)n * sizeof(mtwnEvent));
        memmove(context->events, context->events + n, (size_t)(context->eventCount - n) * sizeof(mtwnEvent));
        context->eventCount -= n;
    }
    *countOut = n;
    if (droppedOut != NULL) *droppedOut = context->droppedSinceRead;
    context->droppedSinceRead = 0u;
    return mtwn_success;
}

uint32_t mtwnContext_GetEventCount(const mtwnContext* context)
{
    return context == NULL ? 0u : context->eventCount;
}

uint64_t mtwnContext_GetEventsDropped(const mtwnContext* context)
{
    return context == NULL ? 0u : context->eventsDropped;
}
