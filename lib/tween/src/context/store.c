/* Maul Tween: the context's leaf helpers over its targets' slots and values
 * and its event queue's appends, which call no other file of the context
 * (no file-level cycles: store.c at the bottom, lifetime.c and crossings.c
 * over it, then clip.c, context.c, target.c, transition.c, player.c and
 * update.c). */
#include <math.h>
#include <string.h>

#include "context_internal.h"
#include "../interpolate/interpolate_internal.h"

/* A discrete value is a whole number from 0 to this, 2^24, every one exact
 * in a float. */
#define MTWN_MAX_DISCRETE 16777216.0f

static bool isWhole(float v)
{
    double d = (double)v;
    /* Floats of magnitude 2^23 and above are whole. */
    if (!(d - d == 0.0)) return false;
    if (d >= 8388608.0 || d <= -8388608.0) return true;
    return (double)(int64_t)d == d;
}

bool mtwn_IsValueValid(uint32_t kind, mtwnVec4 v, mtwnVec4* stored)
{
    mtwnVec4 s = {0.0f, 0.0f, 0.0f, 0.0f};
    switch (kind) {
    case mtwn_valueScalar:
    case mtwn_valueAngle:
        if (!mtwn_IsFinite(v.x)) return false;
        s.x = v.x;
        break;
    case mtwn_valueVec2:
        if (!mtwn_IsFinite(v.x) || !mtwn_IsFinite(v.y)) return false;
        s.x = v.x;
        s.y = v.y;
        break;
    case mtwn_valueVec3:
        if (!mtwn_IsFinite(v.x) || !mtwn_IsFinite(v.y) || !mtwn_IsFinite(v.z)) return false;
        s.x = v.x;
        s.y = v.y;
        s.z = v.z;
        break;
    case mtwn_valueVec4:
        if (!mtwn_IsFinite(v.x) || !mtwn_IsFinite(v.y) || !mtwn_IsFinite(v.z) || !mtwn_IsFinite(v.w)) return false;
        s = v;
        break;
    case mtwn_valueInteger:
        if (!isWhole(v.x)) return false;
        s.x = v.x;
        break;
    case mtwn_valueDiscrete:
        if (!isWhole(v.x) || v.x < 0.0f || v.x > MTWN_MAX_DISCRETE) return false;
        s.x = v.x;
        break;
    case mtwn_valueColor: {
        mtwnColor c = {v.x, v.y, v.z, v.w};
        if (!mtwn_IsColorValid(c)) return false;
        s = v;
        break;
    }
    case mtwn_valueRotation: {
        mtwnQuat q = {v.x, v.y, v.z, v.w};
        if (!mtwn_IsQuatValid(q)) return false;
        s = v;
        break;
    }
    case mtwn_valueScale:
        if (!(v.x > 0.0f && v.y > 0.0f && v.z > 0.0f) || !mtwn_IsFinite(v.x) || !mtwn_IsFinite(v.y) ||
            !mtwn_IsFinite(v.z))
            return false;
        s.x = v.x;
        s.y = v.y;
        s.z = v.z;
        break;
    default:
        return false;
    }
    /* -0 is kept as the host gave it; only the channels past the kind are 0. */
    if (stored != NULL) *stored = s;
    return true;
}

mtwn_Target* mtwn_FindTarget(const mtwnContext* context, mtwnTargetId id)
{
    mtwn_Target* t;
    if (id.index >= context->targetUsed) return NULL;
    t = &context->targets[id.index];
    if (!t->alive || t->generation != id.generation) return NULL;
    return t;
}

void mtwn_MarkChanged(mtwnContext* context, uint32_t slot)
{
    mtwn_Target* t = &context->targets[slot];
    if (t->changed) return;
    t->changed = 1u;
    context->changed[context->changedCount++] = slot;
}

bool mtwn_Touch(mtwnContext* c, uint32_t slot)
{
    mtwn_Target* t = &c->targets[slot];
    if (c->targetStamp[slot] == c->updateStamp) return false;
    c->targetStamp[slot] = c->updateStamp;
    t->prev = t->value;
    c->touched[c->touchedCount++] = slot;
    return true;
}

double mtwn_RoundAway(double x)
{
    double r;
    if (!mtwn_IsFinite(x)) return x;
    if (x >= 0.0) {
        r = floor(x);
        if (x - r >= 0.5) r += 1.0;
    } else {
        r = ceil(x);
        if (r - x >= 0.5) r -= 1.0;
    }
    return r;
}

/* -- The event queue's appends -------------------------------------------------- */

void mtwn_PushEvent(mtwnContext* context, const mtwnEvent* event)
{
    if (context->def.eventCapacity == 0u) return;
    if (context->eventCount == context->def.eventCapacity) {
        context->eventsDropped += 1u;
        context->droppedSinceRead += 1u;
        return;
    }
    context->events[context->eventCount++] = *event;
}

/* Bottom-up merge sort by time, stable, through the scratch array. */
void mtwn_SortEvents(mtwnContext* context, uint32_t first)
{
    uint32_t n = context->eventCount - first;
    mtwnEvent* a = context->events + first;
    mtwnEvent* b = context->eventScratch;
    uint32_t width;
    bool sorted = true;
    for (uint32_t i = 1; i < n; ++i) {
        if (a[i].timeNs < a[i - 1u].timeNs) {
            sorted = false;
            break;
        }
    }
    if (sorted) return;
    for (width = 1; width < n; width *= 2u) {
        uint32_t lo;
        for (lo = 0; lo < n; lo += 2u * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2u * width < n ? lo + 2u * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) b[k++] = a[j].timeNs < a[i].timeNs ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        memcpy(a, b, (size_t)n * sizeof(mtwnEvent));
    }
}
