/* Maul Tween: targets (target.h). */
#include "context_internal.h"
#include "../interpolate/interpolate_internal.h"

mtwnResult mtwnCreateTarget(mtwnContext* context, mtwnValueKind kind, mtwnVec4 value, mtwnTargetId* targetOut)
{
    mtwnVec4 s;
    uint32_t slot;
    mtwn_Target* t;
    MTWN_ENTER(context);
    if (targetOut == NULL || !mtwn_IsValueValid((uint32_t)kind, value, &s)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    if (context->targetFree != 0u) {
        slot = context->targetFreeList[--context->targetFree];
    } else if (context->targetUsed < context->def.targetCapacity) {
        slot = context->targetUsed++;
        context->targets[slot].generation = 0u;
    } else {
        return mtwn_errorCapacity;
    }
    t = &context->targets[slot];
    t->generation += 1u;
    t->alive = 1u;
    t->kind = (uint8_t)kind;
    t->changed = 0u;
    t->reserved = 0u;
    t->writer = 0u;
    t->clipBindings = 0u;
    t->base = s;
    t->value = s;
    t->prev = s;
    context->targetStamp[slot] = 0u;
    targetOut->index = slot;
    targetOut->generation = t->generation;
    return mtwn_success;
}

mtwnResult mtwnDestroyTarget(mtwnContext* context, mtwnTargetId target)
{
    mtwn_Target* t;
    MTWN_ENTER(context);
    t = mtwn_FindTarget(context, target);
    if (t == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    if (t->writer != 0u) mtwn_FreePlayer(context, t->writer - 1u, true);
    if (t->changed) {
        uint32_t i, j = 0;
        for (i = 0; i < context->changedCount; ++i)
            if (context->changed[i] != target.index) context->changed[j++] = context->changed[i];
        context->changedCount = j;
        t->changed = 0u;
    }
    t->alive = 0u;
    /* A slot whose generation would wrap is retired: no id of it ever comes back. */
    if (t->generation != UINT32_MAX) context->targetFreeList[context->targetFree++] = target.index;
    return mtwn_success;
}

bool mtwnTarget_IsValid(const mtwnContext* context, mtwnTargetId target)
{
    return context != NULL && mtwn_FindTarget(context, target) != NULL;
}

mtwnResult mtwnTarget_SetBase(mtwnContext* context, mtwnTargetId target, mtwnVec4 value)
{
    mtwn_Target* t;
    mtwnVec4 s;
    MTWN_ENTER(context);
    t = mtwn_FindTarget(context, target);
    if (t == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    if (!mtwn_IsValueValid(t->kind, value, &s)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    t->base = s;
    if (t->writer == 0u && t->clipBindings == 0u) t->value = s; /* else the next update composes over it */
    mtwn_MarkChanged(context, target.index);
    return mtwn_success;
}

mtwnResult mtwnTarget_GetValue(const mtwnContext* context, mtwnTargetId target, mtwnVec4* valueOut)
{
    const mtwn_Target* t;
    if (context == NULL) return mtwn_errorInvalid;
    if (context->groupsRunning != 0u) {
        mtwn_Misuse(context);
        return mtwn_errorBusy;
    }
    if (valueOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    t = mtwn_FindTarget(context, target);
    if (t == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    *valueOut = t->value;
    return mtwn_success;
}

mtwnResult mtwnTarget_GetState(const mtwnContext* context, mtwnTargetId target, mtwnTargetState* stateOut)
{
    const mtwn_Target* t;
    mtwnTargetState s;
    mtwnContext* c = (mtwnContext*)context;
    MTWN_ENTER(c); /* it marks the context busy as the non-const ones do (target.h) */
    if (stateOut == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    t = mtwn_FindTarget(context, target);
    if (t == NULL) {
        mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    s.kind = t->kind;
    s.reserved = 0u;
    s.base = t->base;
    s.value = t->value;
    s.velocity.x = s.velocity.y = s.velocity.z = s.velocity.w = 0.0f;
    if (t->writer != 0u) {
        const mtwn_Player* p = &context->players[t->writer - 1u];
        if (p->started && context->lastNs >= p->startNs) {
            c->busy += 1u; /* the velocity may run a host easing */
            s.velocity = mtwn_TransitionVelocity(p, (double)(context->lastNs - p->startNs) * 1e-9);
            c->busy -= 1u;
        }
    }
    *stateOut = s;
    return mtwn_success;
}

mtwnResult mtwnContext_ReadTargets(const mtwnContext* context, const mtwnTargetId* targets, uint32_t count,
                                   mtwnVec4* valuesOut)
{
    uint32_t i;
    mtwnResult r = mtwn_success;
    if (context == NULL) return mtwn_errorInvalid;
    if (context->groupsRunning != 0u) {
        mtwn_Misuse(context);
        return mtwn_errorBusy;
    }
    if (count != 0u && (targets == NULL || valuesOut == NULL)) {
        mtwn_Misuse(context);
        return mtwn_errorInvalid;
    }
    for (i = 0; i < count; ++i) {
        const mtwn_Target* t = mtwn_FindTarget(context, targets[i]);
        if (t == NULL) {
            mtwn_Misuse(context);
            r = mtwn_errorStale;
            continue;
        }
        valuesOut[i] = t->value;
    }
    return r;
}
