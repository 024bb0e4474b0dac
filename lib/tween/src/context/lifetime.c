/* Maul Tween: players' lifetime in one place: their slots, ids and
 * generations, the creation-order list, and their ends (a transition's
 * target, a clip player's bindings and clip hold). */
#include <string.h>

#include "context_internal.h"

bool mtwn_PeekPlayerSlot(const mtwnContext* context, uint32_t* slotOut)
{
    if (context->playerFree != 0u) {
        *slotOut = context->playerFreeList[context->playerFree - 1u];
        return true;
    }
    if (context->playerUsed < context->def.playerCapacity) {
        *slotOut = context->playerUsed;
        return true;
    }
    return false;
}

void mtwn_TakePlayerSlot(mtwnContext* context, uint32_t slot)
{
    if (context->playerFree != 0u && context->playerFreeList[context->playerFree - 1u] == slot) {
        context->playerFree -= 1u;
    } else {
        context->playerUsed += 1u;
        context->players[slot].generation = 0u;
    }
}

void mtwn_RenewPlayer(mtwn_Player* p, const mtwn_Player* from)
{
    uint32_t generation = p->generation + 1u;
    if (from != NULL)
        *p = *from;
    else
        memset(p, 0, sizeof(*p));
    p->generation = generation;
}

mtwnPlayerId mtwn_PlacePlayer(mtwnContext* context, uint32_t slot)
{
    mtwn_Player* p = &context->players[slot];
    mtwnPlayerId id;
    p->alive = 1u;
    p->seq = context->nextSeq++;
    /* Its place in creation order; stale entries go when the list is full. */
    if (context->orderCount == context->def.playerCapacity) {
        uint32_t w = 0;
        for (uint32_t i = 0; i < context->orderCount; ++i) {
            mtwnPlayerId e = context->order[i];
            const mtwn_Player* q = &context->players[e.index];
            if (q->alive && q->generation == e.generation) context->order[w++] = e;
        }
        context->orderCount = w;
    }
    id.index = slot;
    id.generation = p->generation;
    context->order[context->orderCount++] = id;
    return id;
}

void mtwn_ShowClipBases(mtwnContext* ctx, uint32_t slot)
{
    const mtwn_Player* p = &ctx->players[slot];
    const mtwnBinding* b = ctx->bindings + p->firstBinding;
    for (uint32_t i = 0; i < p->bindingCount; ++i) {
        mtwn_Target* t = mtwn_FindTarget(ctx, b[i].target);
        if (t != NULL && t->writer == 0u && memcmp(&t->value, &t->base, sizeof(mtwnVec4)) != 0) {
            t->value = t->base;
            mtwn_MarkChanged(ctx, b[i].target.index);
        }
    }
}

void mtwn_ReleaseClipPlayer(mtwnContext* ctx, uint32_t slot, bool showBase)
{
    mtwn_Player* p = &ctx->players[slot];
    mtwnBinding* b = ctx->bindings + p->firstBinding;
    uint32_t first = p->firstBinding, count = p->bindingCount;
    if (showBase) mtwn_ShowClipBases(ctx, slot);
    for (uint32_t i = 0; i < count; ++i) {
        mtwn_Target* t = mtwn_FindTarget(ctx, b[i].target);
        if (t != NULL) t->clipBindings -= 1u;
    }
    memmove(ctx->bindings + first, ctx->bindings + first + count,
            (size_t)(ctx->bindingUsed - first - count) * sizeof(mtwnBinding));
    ctx->bindingUsed -= count;
    for (uint32_t i = 0; i < ctx->playerUsed; ++i) {
        mtwn_Player* o = &ctx->players[i];
        if (o->alive && o->isClip && o->firstBinding > first) o->firstBinding -= count;
    }
    p->bindingCount = 0u;
    ctx->clips[p->clip].holders -= 1u;
}

void mtwn_FreePlayer(mtwnContext* context, uint32_t slot, bool showBase)
{
    mtwn_Player* p = &context->players[slot];
    mtwn_Target* t = &context->targets[p->target];
    p->alive = 0u;
    if (p->isClip) {
        mtwn_ReleaseClipPlayer(context, slot, showBase);
    } else if (t->alive && t->writer == slot + 1u) {
        t->writer = 0u;
        if (memcmp(&t->value, &t->base, sizeof(mtwnVec4)) != 0) {
            t->value = t->base;
            mtwn_MarkChanged(context, p->target);
        }
    }
    if (p->generation != UINT32_MAX) context->playerFreeList[context->playerFree++] = slot;
}

mtwn_Player* mtwn_FindPlayer(const mtwnContext* context, mtwnPlayerId id, bool* handedOut)
{
    mtwn_Player* p;
    *handedOut = false;
    if (id.index >= context->playerUsed || id.generation == 0u) return NULL;
    p = &context->players[id.index];
    *handedOut = id.generation <= p->generation;
    if (!p->alive || p->generation != id.generation) return NULL;
    return p;
}

mtwnResult mtwnDestroyPlayer(mtwnContext* context, mtwnPlayerId player)
{
    bool handedOut;
    MTWN_ENTER(context);
    if (mtwn_FindPlayer(context, player, &handedOut) == NULL) {
        if (!handedOut) mtwn_Misuse(context);
        return mtwn_errorStale;
    }
    mtwn_FreePlayer(context, player.index, true);
    return mtwn_success;
}

bool mtwnPlayer_IsValid(const mtwnContext* context, mtwnPlayerId player)
{
    bool handedOut;
    return context != NULL && mtwn_FindPlayer(context, player, &handedOut) != NULL;
}
