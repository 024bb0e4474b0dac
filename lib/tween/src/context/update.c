/* Maul Tween: mtwnContext_Update (context.h). */
#include <math.h>
#include <string.h>

#include "context_internal.h"

/* The host time of a transition's end, within the update's interval. */
static uint64_t endTime(const mtwn_Player* p, uint64_t previousNs, uint64_t nowNs)
{
    double end = (p->delay + p->duration) * 1e9;
    uint64_t at = nowNs;
    if (end < (double)(nowNs - p->startNs)) at = p->startNs + (uint64_t)ceil(end);
    if (at > nowNs) at = nowNs;
    if (at < previousNs) at = previousNs;
    return at;
}

static void writeValue(mtwnContext* c, uint32_t slot, mtwnVec4 v)
{
    (void)mtwn_Touch(c, slot);
    c->targets[slot].value = v;
}

static void runTask(void* data, uint32_t index)
{
    mtwnContext* c = (mtwnContext*)data;
    mtwn_AdvanceClipPlayerInto(c, &c->sinks[index]);
}

/* Whether a live clip player's advance fits a group's staging after what it
 * holds; a shared clip of more than sharingNodes nodes never does. */
static bool fits(const mtwnContext* c, const mtwn_Player* p, uint32_t writes, uint32_t records)
{
    const mtwn_Clip* clip = &c->clips[p->clip];
    uint32_t w = clip->trackCount, r = c->def.eventCapacity != 0u ? clip->markCount + 1u : 0u;
    if (clip->nodeCount > c->def.sharingNodes && clip->holders > 1u) return false;
    return w <= c->stageWriteCapacity - writes && r <= c->stageRecordCapacity - records;
}

/* Runs the group of clip players from order entry k on: stages those that
 * fit on the host's tasks, applies them in creation order; returns the next
 * entry. The first that does not fit an empty group runs on the calling
 * thread, counted. */
static uint32_t runGroup(mtwnContext* c, uint32_t k, uint64_t timeNs, uint64_t previous, uint32_t* w)
{
    uint32_t n = 0, writes = 0, records = 0, end = k;
    while (end < c->orderCount) {
        mtwnPlayerId e = c->order[end];
        mtwn_Player* p = &c->players[e.index];
        if (!p->alive || p->generation != e.generation) {
            end += 1u;
            continue;
        }
        if (!p->isClip || !fits(c, p, writes, records)) break;
        {
            mtwn_Sink* s = &c->sinks[n++];
            const mtwn_Clip* clip = &c->clips[p->clip];
            memset(s, 0, sizeof(*s));
            s->slot = e.index;
            s->nowNs = timeNs;
            s->previousNs = previous;
            s->writes = c->stageWrites + writes;
            s->records = c->stageRecords + records;
            s->recordCapacity = c->def.eventCapacity != 0u ? clip->markCount + 1u : 0u;
            writes += clip->trackCount;
            records += s->recordCapacity;
        }
        end += 1u;
    }
    if (n == 0u) {
        /* It does not fit staging: on the calling thread. */
        mtwnPlayerId e = c->order[k];
        c->serialAdvances += 1u;
        if (mtwn_AdvanceClipPlayer(c, e.index, timeNs, previous))
            mtwn_FreePlayer(c, e.index, false);
        else
            c->order[(*w)++] = e;
        return k + 1u;
    }
    c->groupsRunning = 1u;
    {
        void* handle = c->def.taskSystem.begin(c->def.taskSystem.user, runTask, c, n);
        c->def.taskSystem.wait(c->def.taskSystem.user, handle);
    }
    c->groupsRunning = 0u;
    {
        uint32_t j = 0;
        for (uint32_t i = k; i < end; ++i) {
            mtwnPlayerId e = c->order[i];
            mtwn_Player* p = &c->players[e.index];
            if (!p->alive || p->generation != e.generation) continue;
            if (mtwn_ApplyClipPlayer(c, &c->sinks[j++]))
                mtwn_FreePlayer(c, e.index, false);
            else
                c->order[(*w)++] = e;
        }
    }
    return end;
}

mtwnResult mtwnContext_Update(mtwnContext* context, uint64_t timeNs, mtwnTargetId* changedOut,
                              uint32_t changedCapacity, uint32_t* changedTotalOut)
{
    uint32_t w = 0, firstEvent;
    uint64_t previous;
    MTWN_ENTER(context);
    if ((changedOut == NULL && changedCapacity != 0u) || (context->hasTime && timeNs < context->lastNs)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    previous = context->hasTime ? context->lastNs : timeNs;
    context->busy += 1u; /* host easings run */
    firstEvent = context->eventCount;
    context->updateStamp += 1u;
    if (context->updateStamp == 0u) {
        memset(context->targetStamp, 0, (size_t)context->targetUsed * sizeof(uint32_t));
        context->updateStamp = 1u;
    }
    context->touchedCount = 0u;
    context->playingOn = 0u;
    for (uint32_t k = 0; k < context->orderCount; ++k) {
        mtwnPlayerId e = context->order[k];
        mtwn_Player* p = &context->players[e.index];
        bool finish;
        double seconds;
        if (!p->alive || p->generation != e.generation) continue;
        if (p->isClip && context->def.taskSystem.begin != NULL) {
            k = runGroup(context, k, timeNs, previous, &w) - 1u;
            continue;
        }
        if (p->isClip) {
            if (mtwn_AdvanceClipPlayer(context, e.index, timeNs, previous)) {
                mtwn_FreePlayer(context, e.index, false);
                continue;
            }
            context->order[w++] = e;
            continue;
        }
        if (!p->started) {
            p->started = 1u;
            p->startNs = timeNs;
        }
        seconds = (double)(timeNs - p->startNs) * 1e-9;
        if (context->reducedMotion && !p->essential) {
            finish = true;
        } else {
            finish = seconds - p->delay >= p->duration;
        }
        if (finish) {
            mtwn_Target* t = &context->targets[p->target];
            mtwnEvent ev;
            writeValue(context, p->target, p->endValue);
            if (memcmp(&t->base, &p->endValue, sizeof(mtwnVec4)) != 0) {
                t->base = p->endValue;
                mtwn_MarkChanged(context, p->target);
            }
            memset(&ev, 0, sizeof(ev));
            ev.timeNs = context->reducedMotion && !p->essential ? timeNs : endTime(p, previous, timeNs);
            ev.player = e;
            ev.kind = mtwn_eventFinish;
            ev.count = 1u;
            mtwn_PushEvent(context, &ev);
            mtwn_FreePlayer(context, e.index, true);
            continue;
        }
        {
            bool metNaN = false;
            mtwnVec4 v = mtwn_SampleTransition(p, seconds, &metNaN);
            if (metNaN) context->misuse += 1u;
            writeValue(context, p->target, v);
        }
        context->order[w++] = e;
    }
    context->orderCount = w;
    context->busy -= 1u;
    for (uint32_t i = 0; i < context->touchedCount; ++i) {
        uint32_t slot = context->touched[i];
        mtwn_Target* t = &context->targets[slot];
        if (t->alive && memcmp(&t->value, &t->prev, sizeof(mtwnVec4)) != 0) mtwn_MarkChanged(context, slot);
    }
    if (context->eventCount > firstEvent) mtwn_SortEvents(context, firstEvent);
    context->hasTime = 1u;
    context->lastNs = timeNs;
    {
        uint32_t n = 0;
        for (uint32_t i = 0; i < context->changedCount; ++i) {
            uint32_t slot = context->changed[i];
            mtwn_Target* t = &context->targets[slot];
            t->changed = 0u;
            if (n < changedCapacity) {
                changedOut[n].index = slot;
                changedOut[n].generation = t->generation;
            }
            n += 1u;
        }
        context->changedCount = 0u;
        if (changedTotalOut != NULL) *changedTotalOut = n;
    }
    return mtwn_success;
}
