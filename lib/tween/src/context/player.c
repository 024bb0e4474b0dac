/* Maul Tween: clips' players (player.h), by Web Animations' procedures on
 * the host's clock; docs/internals/timing.md says where Chrome is followed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context_internal.h"
#include "lib/core/detmath.h"
#include "../easing/easing_internal.h"
#include "../path/path_internal.h"
#include "../interpolate/interpolate_internal.h"
#include "../timing/timing_internal.h"

static double nowSeconds(const mtwnContext* c)
{
    return (double)c->lastNs * 1e-9;
}

static double clipEnd(const mtwnContext* c, const mtwn_Player* p)
{
    return c->clips[p->clip].nodes[0].timelineEnd;
}

/* Web Animations' current time: the hold time, else (now - start) x rate;
 * false when unresolved. */
static bool currentTime(const mtwn_Player* p, double now, double* out)
{
    if (p->hasHold) {
        *out = p->holdTime;
        return true;
    }
    if (p->hasStart) {
        *out = (now - p->startTime) * p->rate;
        return true;
    }
    return false;
}

/* The effective playback rate: the pending one when there is one. */
static double effectiveRate(const mtwn_Player* p)
{
    return p->hasPendingRate ? p->pendingRate : p->rate;
}

/* Web Animations' play state, by its function: idle, paused, finished or
 * running, from the variables alone. */
static uint32_t playState(const mtwnContext* c, const mtwn_Player* p, double now)
{
    double cur = 0.0, rate = effectiveRate(p);
    bool resolved = currentTime(p, now, &cur);
    if (!resolved && !p->hasStart && p->pendingTask == mtwn_taskNone) return mtwn_playIdle;
    if (p->pendingTask == mtwn_taskPause || (!p->hasStart && p->pendingTask != mtwn_taskPlay)) return mtwn_playPaused;
    if (resolved && ((rate > 0.0 && cur >= clipEnd(c, p)) || (rate < 0.0 && cur <= 0.0))) return mtwn_playFinished;
    return mtwn_playRunning;
}

/* -- Ids ------------------------------------------------------------------------- */

/* The slot of the live clip player an id names: mtwn_success, or the refusal
 * (counted as player.h says). */
static mtwnResult clipPlayerSlot(const mtwnContext* context, mtwnPlayerId id, uint32_t* slotOut)
{
    bool handedOut = false;
    const mtwn_Player* p = mtwn_FindPlayer(context, id, &handedOut);
    if (p == NULL) {
        if (!handedOut) mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    if (!p->isClip) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    *slotOut = id.index;
    return mtwn_success;
}

/* The live clip player an id names, for a call that changes it: refused
 * for a null context, and from the host's code. */
static mtwnResult clipPlayerFor(mtwnContext* context, mtwnPlayerId id, mtwn_Player** out)
{
    uint32_t slot = 0;
    mtwnResult r;
    MTWN_ENTER(context);
    r = clipPlayerSlot(context, id, &slot);
    if (r != mtwn_success) return r;
    *out = &context->players[slot];
    return mtwn_success;
}

/* -- Binding search ------------------------------------------------------------------ */

static int bySlot(const void* a, const void* b)
{
    uint32_t x = ((const mtwnBinding*)a)->slot, y = ((const mtwnBinding*)b)->slot;
    return x < y ? -1 : (x > y ? 1 : 0);
}

static mtwnBinding* findBinding(mtwnBinding* b, uint32_t count, uint32_t slot)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (b[mid].slot < slot)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo < count && b[lo].slot == slot ? &b[lo] : NULL;
}

/* -- Sampling ------------------------------------------------------------------------- */

/* The start of a player's writes in an update: every bound target touched,
 * its value the base when no earlier player wrote it; the commit flags
 * (reserved2) cleared. */
static void beginWrites(mtwnContext* ctx, const mtwn_Player* p)
{
    mtwnBinding* b = ctx->bindings + p->firstBinding;
    for (uint32_t i = 0; i < p->bindingCount; ++i) {
        mtwn_Target* t = mtwn_FindTarget(ctx, b[i].target);
        b[i].reserved2 = 0u;
        if (t == NULL) continue;
        if (mtwn_Touch(ctx, b[i].target.index) && t->writer == 0u) t->value = t->base;
    }
}

/* One track's value written over what is there, at a weight: per channel
 * x + (v - x) w, integers rounded as their paths are, discrete values
 * stepping at a weight of 1/2, rotations in v's hemisphere of x and
 * normalized (kept as they were if the mix cancels). */
static void applyWrite(mtwnContext* ctx, const mtwn_Player* p, uint32_t binding, mtwnVec4 v, float w)
{
    mtwnBinding* bd = ctx->bindings + p->firstBinding + binding;
    mtwn_Target* t = &ctx->targets[bd->target.index];
    if (w >= 1.0f) {
        t->value = v;
    } else if (t->kind == mtwn_valueDiscrete) {
        if (w >= 0.5f) t->value = v;
    } else {
        double x[4] = {(double)t->value.x, (double)t->value.y, (double)t->value.z, (double)t->value.w};
        double y[4] = {(double)v.x, (double)v.y, (double)v.z, (double)v.w};
        double m[4];
        if (t->kind == mtwn_valueRotation && x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3] < 0.0) {
            for (int i = 0; i < 4; ++i) y[i] = -y[i];
        }
        for (int i = 0; i < 4; ++i) m[i] = x[i] + (y[i] - x[i]) * (double)w;
        if (t->kind == mtwn_valueInteger) m[0] = mtwn_RoundAway(m[0]);
        if (t->kind == mtwn_valueRotation) {
            double n = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
            if (!(n > 0.0)) {
                bd->reserved2 = 1u;
                return;
            }
            for (int i = 0; i < 4; ++i) m[i] = m[i] / n;
        }
        t->value.x = mtwn_ToFloatHeld(m[0]);
        t->value.y = mtwn_ToFloatHeld(m[1]);
        t->value.z = mtwn_ToFloatHeld(m[2]);
        t->value.w = mtwn_ToFloatHeld(m[3]);
    }
    bd->reserved2 = 1u;
}

/* Samples the clip at a root time: each track's value for its bound target,
 * in clip order, into the sink. Reads the targets' kinds only. */
static void sampleClip(mtwnContext* ctx, mtwn_Sink* sink, const mtwn_Player* p, double rootTime)
{
    const mtwn_Clip* c = &ctx->clips[p->clip];
    mtwnBinding* b = ctx->bindings + p->firstBinding;
    bool backwards = p->rate < 0.0;
    /* The last parent's time, kept for the tracks after it on the same
     * parent: the same function of the same root time, computed once. */
    uint32_t lastParent = 0u;
    bool lastOk = false;
    double lastTime = 0.0;
    for (uint32_t i = 1; i < c->nodeCount; ++i) {
        const mtwn_ClipNode* n = &c->nodes[i];
        mtwnBinding* bd;
        const mtwn_Target* t;
        double pt;
        mtwnTimingResult r;
        bool metNaN = false;
        if (n->kind != mtwn_nodeTrack) continue;
        bd = findBinding(b, p->bindingCount, n->slot);
        if (bd == NULL) continue;
        t = mtwn_FindTarget(ctx, bd->target);
        if (t == NULL || t->kind != n->trackKind) continue;
        if (n->parent != lastParent) {
            lastParent = n->parent;
            lastOk = mtwn_ChildTime(c, n->parent, rootTime, backwards, &lastTime);
        }
        if (!lastOk) continue;
        pt = lastTime;
        mtwn_ComputeTimingUnchecked(&n->timing, pt - n->start, backwards, false, &r, &metNaN);
        if (!r.inEffect) continue;
        {
            mtwnTrack tr;
            mtwnVec4 v;
            float w = bd->weight * p->weight;
            uint32_t index = (uint32_t)(bd - b);
            mtwn_ClipTrackOf(c, n, &tr);
            if (mtwn_SampleValidTrackNoting(&tr, r.transformedProgress, &v, &metNaN) == mtwn_success) {
                if (sink->direct) {
                    applyWrite(ctx, p, index, v, w);
                } else {
                    mtwn_Write* x = &sink->writes[sink->writeCount++];
                    x->binding = index;
                    x->weight = w;
                    x->value = v;
                }
            }
        }
        if (metNaN) sink->nan += 1u;
    }
}

/* -- Creating --------------------------------------------------------------------------- */

static mtwnResult play(mtwnContext* ctx, mtwn_Player* p, bool autoRewind);

static bool isRateInvalid(double r)
{
    return !(r == r);
}

static bool isRatePastLimit(double r)
{
    double a = fabs(r);
    return r != 0.0 && (a > MTWN_RATE_LIMIT || a < MTWN_MIN_RATE);
}

mtwnResult mtwnCreateClipPlayer(mtwnContext* context, const mtwnClipPlayerDef* def, mtwnPlayerId* playerOut)
{
    const mtwn_Clip* c;
    uint32_t slot;
    mtwn_Player* p;
    mtwnBinding* b;
    MTWN_ENTER(context);
    if (def == NULL || playerOut == NULL || def->cookie != MTWN_CLIP_PLAYER_DEF_COOKIE || isRateInvalid(def->rate) ||
        !(def->weight >= 0.0f && def->weight <= 1.0f) || def->play > 1u || def->keep > 1u || def->essential > 1u ||
        def->reserved != 0u || (def->bindings == NULL && def->bindingCount != 0u)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    c = mtwn_FindClip(context, def->clip);
    for (uint32_t i = 0; i < def->bindingCount; ++i) {
        const mtwnBinding* x = &def->bindings[i];
        if (!(x->weight >= 0.0f && x->weight <= 1.0f) || x->reserved != 0u || x->reserved2 != 0u ||
            mtwn_FindTarget(context, x->target) == NULL || (c != NULL && x->slot >= c->slotCount)) {
            mtwn_Misuse(context);
            return mtwn_errorInvalid;
        }
    }
    if (isRatePastLimit(def->rate)) return mtwn_errorLimit;
    if (c == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    if (!c->sealed) {
        mtwn_Misuse(context);
        return mtwn_errorState;
    }
    if (!mtwn_PeekPlayerSlot(context, &slot)) return mtwn_errorCapacity;
    if (def->bindingCount > context->def.bindingCapacity - context->bindingUsed) return mtwn_errorCapacity;
    b = context->bindings + context->bindingUsed;
    /* no bindings (the default def's NULL array): memcpy and qsort take no
     * NULL pointer, even for 0 bytes (C11 7.1.4, 7.24.1) */
    if (def->bindingCount > 0u) {
        memcpy(b, def->bindings, (size_t)def->bindingCount * sizeof(mtwnBinding));
        qsort(b, def->bindingCount, sizeof(mtwnBinding), bySlot);
    }
    for (uint32_t i = 1; i < def->bindingCount; ++i) {
        if (b[i].slot == b[i - 1u].slot) {
            mtwn_Misuse(context);
            return mtwn_errorInvalid;
        }
    }
    mtwn_TakePlayerSlot(context, slot);
    p = &context->players[slot];
    mtwn_RenewPlayer(p, NULL);
    p->isClip = 1u;
    p->keep = (uint8_t)def->keep;
    p->essential = (uint8_t)def->essential;
    p->clip = def->clip.index;
    p->firstBinding = context->bindingUsed;
    p->bindingCount = def->bindingCount;
    p->weight = def->weight;
    p->rate = def->rate;
    context->bindingUsed += def->bindingCount;
    context->clips[def->clip.index].holders += 1u;
    for (uint32_t i = 0; i < def->bindingCount; ++i) context->targets[b[i].target.index].clipBindings += 1u;
    /* Play from idle: the start (or the end, backwards), the pending play
     * task taking the next update's time; one backwards from an infinite
     * end stays idle, nothing to play back from. */
    if (def->play) (void)play(context, p, true);
    *playerOut = mtwn_PlacePlayer(context, slot);
    return mtwn_success;
}

/* -- Procedures ------------------------------------------------------------------------- */

/* Each procedure is Web Animations' (Level 1 and 2, "Animations"), its
 * steps numbered as the specification's in comments. "Now" between updates
 * is the last update's time: the host's clock stands there until the next
 * update, its frame. A player's current time moves only by a jump (a seek,
 * auto-rewind, finish) or a sweep (an update, mtwnClipPlayer_Sweep): each
 * sets sweptTo, where the next update's crossings start. */

/* The record a procedure makes at once, at the last update's time. */
static void recordNow(mtwnContext* c, mtwnPlayerId id, uint32_t kind, bool backwards)
{
    mtwn_Record(c, id, kind, 0u, 0u, backwards, 1u, c->lastNs);
}

/* "Apply any pending playback rate". */
static void applyPendingRate(mtwn_Player* p)
{
    if (p->hasPendingRate) {
        p->rate = p->pendingRate;
        p->hasPendingRate = 0u;
    }
}

/* "Update an animation's finished state" (did seek), written once; returns
 * whether the play state became finished (step 5's finish notification,
 * recorded by the caller after its crossings). */
static bool updateFinishedState(const mtwnContext* c, mtwn_Player* p, double now, bool didSeek)
{
    double end = clipEnd(c, p), u = 0.0, cur = 0.0;
    bool resolved, finished;
    /* 1. The unconstrained current time: the hold time ignored unless a
     * seek set it. */
    if (didSeek) {
        resolved = currentTime(p, now, &u);
    } else {
        resolved = p->hasStart;
        u = (now - p->startTime) * p->rate;
    }
    /* 2. With a start time and no pending task, the hold time by the first
     * matching condition. */
    if (resolved && p->hasStart && p->pendingTask == mtwn_taskNone) {
        if (p->rate > 0.0 && u >= end) {
            p->holdTime = didSeek ? u : (p->hasPrevious && p->previousTime > end ? p->previousTime : end);
            p->hasHold = 1u;
        } else if (p->rate < 0.0 && u <= 0.0) {
            p->holdTime = didSeek ? u : (p->hasPrevious && p->previousTime < 0.0 ? p->previousTime : 0.0);
            p->hasHold = 1u;
        } else if (p->rate != 0.0) {
            if (didSeek && p->hasHold) p->startTime = now - p->holdTime / p->rate;
            p->hasHold = 0u;
        }
    }
    /* 3. The previous current time. */
    p->hasPrevious = currentTime(p, now, &cur) ? 1u : 0u;
    p->previousTime = cur;
    /* 4 and 5. The current finished state, notified when it becomes true;
     * with a pending task the notification waits for the task's update
     * (the specification's microtask finds the state there). */
    if (p->pendingTask != mtwn_taskNone) return false;
    finished = playState(c, p, now) == mtwn_playFinished;
    {
        bool became = finished && !p->wasFinished;
        p->wasFinished = finished ? 1u : 0u;
        return became;
    }
}

/* "Silently set the current time" (steps 1 to 4 of "set the current
 * time"). */
static void silentlySetCurrentTime(mtwnContext* ctx, mtwn_Player* p, double seconds)
{
    /* 2. The hold time when one is held, there is no start time or the rate
     * is 0; else the start time. */
    if (p->hasHold || !p->hasStart || p->rate == 0.0) {
        p->holdTime = seconds;
        p->hasHold = 1u;
    } else {
        p->startTime = nowSeconds(ctx) - seconds / p->rate;
    }
    /* 4. The previous current time is unresolved. */
    p->hasPrevious = 0u;
}

/* The pending play task at its ready time (the update's). */
static void runPlayTask(mtwnContext* ctx, mtwn_Player* p, double ready)
{
    /* 1 to 3: from the hold time, or keeping the current time under a
     * pending rate. */
    if (p->hasHold) {
        applyPendingRate(p);
        p->startTime = p->rate == 0.0 ? ready : ready - p->holdTime / p->rate;
        p->hasStart = 1u;
        if (p->rate != 0.0) p->hasHold = 0u;
    } else if (p->hasStart && p->hasPendingRate) {
        double match = (ready - p->startTime) * p->rate;
        applyPendingRate(p);
        if (p->rate == 0.0) {
            p->holdTime = match;
            p->hasHold = 1u;
        }
        p->startTime = p->rate == 0.0 ? ready : ready - match / p->rate;
    }
    p->pendingTask = mtwn_taskNone;
    /* 5 is the caller's: the update's "update the finished state". */
    (void)ctx;
}

/* The pending pause task at its ready time: the pause's own, the last
 * update's time (the host's clock stands between updates; Chrome commits a
 * pause in the frame it is made), so it runs at once. */
static void runPauseTask(mtwnContext* ctx, mtwn_Player* p, double ready)
{
    /* 1. The hold time from the start time, unless one is held. */
    if (p->hasStart && !p->hasHold) {
        p->holdTime = (ready - p->startTime) * p->rate;
        p->hasHold = 1u;
    }
    /* 2 and 3. */
    applyPendingRate(p);
    p->hasStart = 0u;
    p->pendingTask = mtwn_taskNone;
    /* 5. */
    (void)updateFinishedState(ctx, p, ready, false);
}

/* A jump of the crossings: what lies between is not crossed. */
static void jumpTo(mtwn_Player* p, double seconds)
{
    p->sweptTo = seconds;
    p->hasSwept = 1u;
}

/* "Play an animation" (auto-rewind); on mtwn_errorState nothing changed. */
static mtwnResult play(mtwnContext* ctx, mtwn_Player* p, bool autoRewind)
{
    double now = nowSeconds(ctx), end = clipEnd(ctx, p), cur = 0.0, seek = 0.0;
    double rate = effectiveRate(p); /* 4 */
    bool resolved = currentTime(p, now, &cur);
    bool abortedPause = p->pendingTask == mtwn_taskPause; /* 1 */
    bool seeking = false;
    /* 6. Auto-rewind by the first matching condition. */
    if (autoRewind && rate >= 0.0 && (!resolved || cur < 0.0 || cur >= end)) {
        seeking = true;
        seek = 0.0;
    } else if (autoRewind && rate < 0.0 && (!resolved || cur <= 0.0 || cur > end)) {
        if (isinf(end)) return mtwn_errorState;
        seeking = true;
        seek = end;
    }
    /* 7. */
    if (!seeking && rate == 0.0 && !resolved) {
        seeking = true;
        seek = 0.0;
    }
    /* 8. The seek sets the hold time (the host's clock is no finite timeline). */
    if (seeking) {
        p->holdTime = seek;
        p->hasHold = 1u;
        jumpTo(p, seek);
    }
    /* 9. */
    if (p->hasHold) p->hasStart = 0u;
    /* 10. A pending task is cancelled (made again below). */
    p->pendingTask = mtwn_taskNone;
    /* 11. Nothing to do: running already. */
    if (!seeking && !p->hasHold && !abortedPause && !p->hasPendingRate) return mtwn_success;
    /* 13. */
    p->pendingTask = mtwn_taskPlay;
    /* 14. */
    (void)updateFinishedState(ctx, p, now, false);
    return mtwn_success;
}

mtwnResult mtwnClipPlayer_Play(mtwnContext* context, mtwnPlayerId player)
{
    mtwn_Player* p;
    mtwnResult r;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    r = play(context, p, true);
    if (r == mtwn_errorState) mtwn_Misuse(context);
    return r;
}

/* "Pause an animation". */
mtwnResult mtwnClipPlayer_Pause(mtwnContext* context, mtwnPlayerId player)
{
    mtwn_Player* p;
    mtwnResult r;
    double now, cur;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    now = nowSeconds(context);
    /* 1 and 2. A pending pause, or paused already. */
    if (p->pendingTask == mtwn_taskPause || playState(context, p, now) == mtwn_playPaused) return mtwn_success;
    /* 5 and 6. Without a current time: the start, or the end backwards. */
    if (!currentTime(p, now, &cur)) {
        double end = clipEnd(context, p);
        if (p->rate < 0.0 && isinf(end)) {
            mtwn_Misuse(context);
            return mtwn_errorState;
        }
        p->holdTime = p->rate < 0.0 ? end : 0.0;
        p->hasHold = 1u;
        jumpTo(p, p->holdTime);
    }
    /* 7 to 10: the pending pause task, which is ready at once. */
    p->pendingTask = mtwn_taskPause;
    (void)updateFinishedState(context, p, now, false);
    runPauseTask(context, p, now);
    return mtwn_success;
}

/* "Reverse an animation": the pending rate negated, then play with
 * auto-rewind; on failure the pending rate as it was. */
mtwnResult mtwnClipPlayer_Reverse(mtwnContext* context, mtwnPlayerId player)
{
    mtwn_Player* p;
    mtwn_Player saved;
    mtwnResult r;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    saved = *p;
    /* 2 and 3. */
    p->pendingRate = -effectiveRate(p);
    p->hasPendingRate = 1u;
    /* 4. */
    r = play(context, p, true);
    if (r != mtwn_success) {
        *p = saved;
        mtwn_Misuse(context);
    }
    return r;
}

/* Finishing's core (the finish procedure's steps 2 to 8, the effective rate
 * checked by the caller): crossing from the current time to the limit with
 * its records by the map, then the finish record. */
static void finishCore(mtwnContext* ctx, mtwn_Sink* sink, mtwnPlayerId id, mtwn_Player* p, double now,
                       const mtwn_TimeMap* map)
{
    double limit, cur = 0.0;
    bool resolved = currentTime(p, now, &cur);
    bool became;
    /* 2 and 3. */
    applyPendingRate(p);
    limit = p->rate > 0.0 ? clipEnd(ctx, p) : 0.0;
    if (resolved && p->hasSwept) cur = p->sweptTo;
    if (resolved && ctx->def.eventCapacity != 0u) mtwn_Sweep(ctx, sink, id, &ctx->clips[p->clip], cur, limit, map);
    jumpTo(p, limit);
    /* 4. */
    silentlySetCurrentTime(ctx, p, limit);
    /* 5. */
    if (!p->hasStart) {
        p->startTime = now - limit / p->rate;
        p->hasStart = 1u;
    }
    /* 6. */
    if (p->pendingTask == mtwn_taskPause && p->hasStart) {
        p->hasHold = 0u;
        p->pendingTask = mtwn_taskNone;
    }
    /* 7. */
    if (p->pendingTask == mtwn_taskPlay && p->hasStart) p->pendingTask = mtwn_taskNone;
    /* 8. */
    became = updateFinishedState(ctx, p, now, true);
    if (became && ctx->def.eventCapacity != 0u)
        mtwn_SinkRecord(ctx, sink, id, mtwn_eventFinish, 0u, 0u, p->rate < 0.0, 1u, map->toNs);
}

/* "Finish an animation". */
mtwnResult mtwnClipPlayer_Finish(mtwnContext* context, mtwnPlayerId player)
{
    mtwn_Player* p;
    mtwnResult r;
    double rate;
    mtwn_TimeMap at;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    /* 1. */
    rate = effectiveRate(p);
    if (rate == 0.0 || (rate > 0.0 && isinf(clipEnd(context, p)))) {
        mtwn_Misuse(context);
        return mtwn_errorState;
    }
    memset(&at, 0, sizeof(at));
    at.fromNs = at.toNs = context->lastNs;
    finishCore(context, NULL, player, p, nowSeconds(context), &at);
    return mtwn_success;
}

/* "Cancel an animation": idle and without effect at once; kept. */
mtwnResult mtwnClipPlayer_Cancel(mtwnContext* context, mtwnPlayerId player)
{
    mtwn_Player* p;
    mtwnResult r;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    /* 1. Not idle: the pending tasks reset (the pending rate applied), a
     * cancel record when it had a current time. */
    if (playState(context, p, nowSeconds(context)) != mtwn_playIdle) {
        double cur;
        if (p->pendingTask != mtwn_taskNone) {
            p->pendingTask = mtwn_taskNone;
            applyPendingRate(p);
        }
        if (currentTime(p, nowSeconds(context), &cur)) recordNow(context, player, mtwn_eventCancel, p->rate < 0.0);
    }
    /* 2 and 3. */
    p->hasHold = 0u;
    p->hasStart = 0u;
    p->hasSwept = 0u;
    p->wasFinished = 0u;
    p->keep = 1u;
    mtwn_ShowClipBases(context, player.index);
    return mtwn_success;
}

static mtwnResult checkSeek(mtwnContext* context, double seconds)
{
    if (!(seconds == seconds)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    if (!(fabs(seconds) <= MTWN_SEEK_LIMIT)) return mtwn_errorLimit;
    return mtwn_success;
}

/* "Set the current time" to seconds, checked first (checkSeek): a jump with
 * a seek record, or crossing what lies between (mtwnClipPlayer_Sweep), its
 * records at the last update's time. */
static mtwnResult seekPlayer(mtwnContext* context, mtwnPlayerId player, mtwn_Player* p, double seconds, bool crossing)
{
    double now = nowSeconds(context), cur;
    bool became;
    mtwnResult r = checkSeek(context, seconds);
    if (r != mtwn_success) return r;
    if (crossing) {
        mtwn_TimeMap at;
        memset(&at, 0, sizeof(at));
        at.fromNs = at.toNs = context->lastNs;
        if (currentTime(p, now, &cur) && context->def.eventCapacity != 0u)
            mtwn_Sweep(context, NULL, player, &context->clips[p->clip], p->hasSwept ? p->sweptTo : cur, seconds, &at);
    } else {
        recordNow(context, player, mtwn_eventSeek, p->rate < 0.0);
    }
    jumpTo(p, seconds);
    /* 1. */
    silentlySetCurrentTime(context, p, seconds);
    /* 2. A pending pause is done there. */
    if (p->pendingTask == mtwn_taskPause) {
        p->holdTime = seconds;
        p->hasHold = 1u;
        applyPendingRate(p);
        p->hasStart = 0u;
        p->pendingTask = mtwn_taskNone;
    }
    /* 3. */
    became = updateFinishedState(context, p, now, true);
    if (became) recordNow(context, player, mtwn_eventFinish, p->rate < 0.0);
    return mtwn_success;
}

/* mtwnClipPlayer_Seek and _Sweep: the player, then the time. */
static mtwnResult seekTo(mtwnContext* context, mtwnPlayerId player, double seconds, bool crossing)
{
    mtwn_Player* p;
    mtwnResult r;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    return seekPlayer(context, player, p, seconds, crossing);
}

mtwnResult mtwnClipPlayer_Seek(mtwnContext* context, mtwnPlayerId player, double seconds)
{
    return seekTo(context, player, seconds, false);
}

mtwnResult mtwnClipPlayer_Sweep(mtwnContext* context, mtwnPlayerId player, double seconds)
{
    return seekTo(context, player, seconds, true);
}

mtwnResult mtwnClipPlayer_SeekProgress(mtwnContext* context, mtwnPlayerId player, double progress)
{
    mtwn_Player* p;
    mtwnResult r;
    double end;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    end = clipEnd(context, p);
    if (!(progress == progress) || isinf(end)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    return seekPlayer(context, player, p, progress * end, false);
}

mtwnResult mtwnClipPlayer_SeekLabel(mtwnContext* context, mtwnPlayerId player, uint32_t key)
{
    mtwn_Player* p;
    mtwnResult r;
    const mtwn_Clip* c;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    c = &context->clips[p->clip];
    for (uint32_t i = 1; i < c->nodeCount; ++i) {
        const mtwn_ClipNode* n = &c->nodes[i];
        if (n->kind == mtwn_nodeLabel && n->parent == MTWN_ROOT_NODE && n->key == key)
            return seekPlayer(context, player, p, n->start, false);
    }
    mtwn_Misuse(context);
    return mtwn_errorInvalid;
}

/* "Seamlessly update the playback rate". */
mtwnResult mtwnClipPlayer_SetRate(mtwnContext* context, mtwnPlayerId player, double rate)
{
    mtwn_Player* p;
    mtwnResult r;
    double now, cur;
    uint32_t state;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    if (isRateInvalid(rate)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    if (isRatePastLimit(rate)) return mtwn_errorLimit;
    now = nowSeconds(context);
    /* 1 and 2. */
    state = playState(context, p, now);
    p->pendingRate = rate;
    p->hasPendingRate = 1u;
    /* 3, the first matching condition. A pending task applies it when ready. */
    if (p->pendingTask != mtwn_taskNone) return mtwn_success;
    if (state == mtwn_playIdle || state == mtwn_playPaused || !currentTime(p, now, &cur)) {
        applyPendingRate(p);
        return mtwn_success;
    }
    if (state == mtwn_playFinished) {
        /* From the time it holds, as Chrome does (the specification takes
         * the unconstrained current time: docs/internals/timing.md). */
        p->startTime = rate == 0.0 ? now : now - cur / rate;
        applyPendingRate(p);
        if (updateFinishedState(context, p, now, false)) recordNow(context, player, mtwn_eventFinish, p->rate < 0.0);
        return mtwn_success;
    }
    return play(context, p, false);
}

mtwnResult mtwnClipPlayer_SetWeight(mtwnContext* context, mtwnPlayerId player, float weight)
{
    mtwn_Player* p;
    mtwnResult r;
    r = clipPlayerFor(context, player, &p);
    if (r != mtwn_success) return r;
    if (!(weight >= 0.0f && weight <= 1.0f)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    p->weight = weight;
    return mtwn_success;
}

mtwnResult mtwnClipPlayer_GetState(const mtwnContext* context, mtwnPlayerId player, mtwnClipPlayerState* stateOut)
{
    const mtwn_Player* p;
    uint32_t slot = 0;
    mtwnResult r;
    double cur = 0.0, now;
    if (context == NULL) return mtwn_errorInvalid;
    if (context->groupsRunning != 0u) {
        mtwn_Misuse(context);
        return mtwn_errorBusy;
    }
    if (stateOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    r = clipPlayerSlot(context, player, &slot);
    if (r != mtwn_success) return r;
    p = &context->players[slot];
    now = nowSeconds(context);
    memset(stateOut, 0, sizeof(*stateOut));
    stateOut->playState = playState(context, p, now);
    stateOut->currentTime = currentTime(p, now, &cur) ? cur : NAN;
    stateOut->pending = (p->pendingTask != mtwn_taskNone || p->hasPendingRate) ? 1u : 0u;
    stateOut->playsOnReduced = p->playsOnReduced;
    stateOut->kept = p->keep;
    stateOut->clip.index = p->clip;
    stateOut->clip.generation = context->clips[p->clip].generation;
    stateOut->rate = effectiveRate(p);
    stateOut->duration = clipEnd(context, p);
    stateOut->weight = p->weight;
    return mtwn_success;
}

/* -- Advancing ---------------------------------------------------------------------------- */

/* The map of the player's times while they move to the update's time: by
 * its start time and rate when it runs by them (the finished state keeps the
 * start time), else every record at the update's time. */
static mtwn_TimeMap mapOf(const mtwn_Player* p, double now, uint64_t fromNs, uint64_t toNs)
{
    mtwn_TimeMap m;
    m.fromNs = fromNs;
    m.toNs = toNs;
    m.byRate = p->hasStart && p->rate != 0.0;
    m.u = (now - p->startTime) * p->rate;
    m.rate = p->rate;
    return m;
}

void mtwn_AdvanceClipPlayerInto(mtwnContext* ctx, mtwn_Sink* sink)
{
    uint32_t slot = sink->slot;
    mtwn_Player* p = &ctx->players[slot];
    mtwnPlayerId id = {slot, p->generation};
    double now = (double)sink->nowNs * 1e-9, cur = 0.0;
    bool resolved, became = false, reduced = false;
    /* The map the time moved by since the last update: the one before a
     * pending play task sets the start time again at this update (the time
     * it keeps is this update's). */
    mtwn_TimeMap map = mapOf(p, now, sink->previousNs, sink->nowNs);
    bool mapped = map.byRate && !p->hasHold;
    p->playsOnReduced = 0u;
    if (p->pendingTask == mtwn_taskPlay) runPlayTask(ctx, p, now);
    if (!mapped) map = mapOf(p, now, sink->previousNs, sink->nowNs);
    /* Reduced motion finishes a running player with a finite end, its
     * crossings and finish at this update's time. */
    if (ctx->reducedMotion && !p->essential && playState(ctx, p, now) == mtwn_playRunning) {
        if (!isinf(clipEnd(ctx, p)) && p->rate != 0.0) {
            map.byRate = false;
            finishCore(ctx, sink, id, p, now, &map);
            reduced = true;
        } else {
            p->playsOnReduced = 1u;
            sink->playingOn += 1u;
        }
    }
    /* The timeline's time moved: "update the finished state", then the
     * sweep from where the crossings stand, then the finish record at the
     * host time its limit was reached. */
    if (!reduced) became = updateFinishedState(ctx, p, now, false);
    resolved = currentTime(p, now, &cur);
    if (!reduced && ctx->def.eventCapacity != 0u && resolved) {
        if (p->hasSwept && p->sweptTo != cur) mtwn_Sweep(ctx, sink, id, &ctx->clips[p->clip], p->sweptTo, cur, &map);
        if (became)
            mtwn_SinkRecord(ctx, sink, id, mtwn_eventFinish, 0u, 0u, p->rate < 0.0, 1u,
                       mtwn_HostTimeOf(&map, p->rate < 0.0 ? 0.0 : clipEnd(ctx, p)));
    }
    if (sink->direct) beginWrites(ctx, p);
    if (resolved) sampleClip(ctx, sink, p, cur);
    p->sweptTo = cur;
    p->hasSwept = resolved ? 1u : 0u;
    sink->resolved = resolved ? 1u : 0u;
    sink->finished = playState(ctx, p, now) == mtwn_playFinished ? 1u : 0u;
}

bool mtwn_ApplyClipPlayer(mtwnContext* ctx, mtwn_Sink* sink)
{
    mtwn_Player* p = &ctx->players[sink->slot];
    if (!sink->direct) {
        beginWrites(ctx, p);
        for (uint32_t i = 0; i < sink->writeCount; ++i)
            applyWrite(ctx, p, sink->writes[i].binding, sink->writes[i].value, sink->writes[i].weight);
        for (uint32_t i = 0; i < sink->recordCount; ++i) mtwn_PushEvent(ctx, &sink->records[i]);
        ctx->eventsDropped += sink->recordsDropped;
        ctx->droppedSinceRead += sink->recordsDropped;
    }
    ctx->misuse += sink->nan;
    ctx->playingOn += sink->playingOn;
    if (sink->finished && !p->keep) {
        /* A player not kept ends finished: what it fills forward committed
         * as the bases, then it is freed (the caller), its targets keeping
         * this update's values. */
        mtwnBinding* b = ctx->bindings + p->firstBinding;
        for (uint32_t i = 0; i < p->bindingCount; ++i) {
            mtwn_Target* t = mtwn_FindTarget(ctx, b[i].target);
            if (t != NULL && b[i].reserved2 && memcmp(&t->base, &t->value, sizeof(mtwnVec4)) != 0) {
                t->base = t->value;
                mtwn_MarkChanged(ctx, b[i].target.index);
            }
        }
        return true;
    }
    return false;
}

bool mtwn_AdvanceClipPlayer(mtwnContext* ctx, uint32_t slot, uint64_t nowNs, uint64_t previousNs)
{
    mtwn_Sink sink;
    memset(&sink, 0, sizeof(sink));
    sink.direct = 1u;
    sink.slot = slot;
    sink.nowNs = nowNs;
    sink.previousNs = previousNs;
    mtwn_AdvanceClipPlayerInto(ctx, &sink);
    return mtwn_ApplyClipPlayer(ctx, &sink);
}
