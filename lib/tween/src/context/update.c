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

mtwnResult mtwnContext_Update(mtwnContext* context, uint64_t timeNs, mtwnTargetId* changedOut,
                              uint32_t changedCapacity, uint32_t* changedTotalOut)
{
    uint32_t w = 0, firstEvent;
    uint64_t previous;
    if (context == NULL) return mtwn_errorInvalid;
    if (context->busy != 0u) {
        mtwn_Misuse(context);
        return mtwn_errorBusy;
    }
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
        if (p->isClip) {
            if (mtwn_AdvanceClipPlayer(context, e.index, timeNs, previous)) {
                mtwn_FreePlayer(context, e.index);
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
            mtwn_FreePlayer(context, e.index);
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
