/* Suite "tween-players": freezes the tween's stateful core (context, targets,
 * transitions, clips, clip players, events, mtwnContext_Update).
 *
 * "transitions-<kind>": targets of every value kind with transitions by
 * easing, spring and decay, replaced midway, advanced over a seeded clock;
 * every update's target values, changed list and events are hashed.
 * "ops-<n>": the operation sequence of lib/tween/test/tween_ops.c from 4096
 * bytes of a generator seeded with n: clips with nested timelines, labels
 * and marks, players with rates, seeks, sweeps, reversals and weights,
 * transitions of every kind, growth, reduced motion, advanced over the clock
 * the bytes give, hashing values, changed lists and events at every update.
 * Each case runs without a task system and again with one (tasks run in
 * reverse order): "<case>" and "<case>-tasks" must be the same hash. */
#include <stdio.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/core/hash.h"
#include "lib/core/rng.h"
#include "lib/tween/test/tween_ops.h"
#include "maul/tween/context.h"
#include "maul/tween/event.h"
#include "maul/tween/player.h"
#include "maul/tween/target.h"
#include "maul/tween/transition.h"

void mconf_SuiteTweenPlayers(mconf_Run* run);

static void* tp_Begin(void* user, mtwnTaskFunction* task, void* data, uint32_t count) {
    (void)user;
    for (uint32_t i = count; i > 0u; --i) task(data, i - 1u);
    return NULL;
}

static void tp_Wait(void* user, void* handle) { (void)user, (void)handle; }

static mtwnVec4 tp_Value(mcore_Rng* rng, uint32_t kind) {
    mtwnVec4 v;
    v.x = mcore_RngFloatRange(rng, -4.0f, 4.0f);
    v.y = mcore_RngFloatRange(rng, -4.0f, 4.0f);
    v.z = mcore_RngFloatRange(rng, -4.0f, 4.0f);
    v.w = mcore_RngFloatRange(rng, -4.0f, 4.0f);
    switch (kind) {
    case mtwn_valueInteger: v.x = (float)(int)v.x; break;
    case mtwn_valueDiscrete: v.x = (float)mcore_RngBelow(rng, 4); break;
    case mtwn_valueColor:
        v.x = mcore_RngFloat01(rng), v.y = mcore_RngFloat01(rng), v.z = mcore_RngFloat01(rng);
        v.w = mcore_RngFloat01(rng);
        break;
    case mtwn_valueScale:
        v.x = 0.5f + mcore_RngFloat01(rng), v.y = 0.5f + mcore_RngFloat01(rng), v.z = 0.5f + mcore_RngFloat01(rng);
        break;
    default: break;
    }
    return v;
}

/* Transitions of one kind on targets of every value kind. */
static void tp_Transitions(mconf_Run* run, const char* name, uint32_t transitionKind, int tasks) {
    mconf_Bytes b = {0};
    mcore_Rng rng;
    mtwnContextDef d = mtwnDefaultContextDef();
    mtwnContext* c = NULL;
    mtwnTargetId targets[10];
    uint64_t now = 0;
    char caseName[64];
    mcore_RngSeed(&rng, mcore_Hash64(0, name, strlen(name)));
    if (tasks) d.taskSystem.begin = tp_Begin, d.taskSystem.wait = tp_Wait;
    mconf_BytesU32(&b, (uint32_t)mtwnCreateContext(&d, &c));
    for (uint32_t k = 0; k < 10u; ++k) mconf_BytesU32(&b, (uint32_t)mtwnCreateTarget(c, (mtwnValueKind)k, tp_Value(&rng, k), &targets[k]));
    for (uint32_t step = 0; step < 120u; ++step) {
        if (step % 30u == 0u) {
            for (uint32_t k = 0; k < 10u; ++k) {
                mtwnTransitionDef t = mtwnDefaultTransitionDef();
                mtwnPlayerId p;
                t.target = targets[k];
                t.value = tp_Value(&rng, k);
                t.kind = transitionKind;
                t.duration = 0.25 + mcore_RngDouble01(&rng);
                t.delay = 0.125 * (double)mcore_RngBelow(&rng, 3);
                t.velocitySource = mtwn_velocityTarget;
                t.decayEnd = transitionKind == mtwn_transitionDecay ? mtwn_decayLanding : mtwn_decayFree;
                mconf_BytesU32(&b, (uint32_t)mtwnStartTransition(c, &t, &p));
            }
        }
        if (step == 100u) mtwnContext_EnableReducedMotion(c, true);
        now += 4000000u + (uint64_t)mcore_RngBelow(&rng, 30000000u);
        {
            mtwnTargetId changed[16];
            uint32_t total = 0, n = 0;
            mtwnVec4 v[10];
            mtwnEvent ev[32];
            uint64_t dropped = 0;
            mconf_BytesU32(&b, (uint32_t)mtwnContext_Update(c, now, changed, 16, &total));
            mconf_BytesU32(&b, total);
            for (uint32_t i = 0; i < total && i < 16u; ++i) mconf_BytesU32(&b, changed[i].index);
            mconf_BytesU32(&b, (uint32_t)mtwnContext_ReadTargets(c, targets, 10, v));
            for (uint32_t i = 0; i < 10u; ++i) {
                mconf_BytesF32(&b, v[i].x), mconf_BytesF32(&b, v[i].y);
                mconf_BytesF32(&b, v[i].z), mconf_BytesF32(&b, v[i].w);
            }
            mconf_BytesU32(&b, (uint32_t)mtwnContext_ReadEvents(c, ev, 32, &n, &dropped));
            for (uint32_t i = 0; i < n; ++i) {
                mconf_BytesU64(&b, ev[i].timeNs), mconf_BytesU32(&b, ev[i].player.index);
                mconf_BytesU32(&b, ev[i].kind), mconf_BytesU32(&b, ev[i].count);
            }
            mconf_BytesU64(&b, dropped);
        }
    }
    mconf_BytesU64(&b, mtwnContext_GetMisuse(c));
    mtwnDestroyContext(c);
    snprintf(caseName, sizeof caseName, "%s%s", name, tasks ? "-tasks" : "");
    mconf_RecordBytes(run, caseName, &b);
    mconf_BytesFree(&b);
}

void mconf_SuiteTweenPlayers(mconf_Run* run) {
    static const char* const kinds[] = {"transitions-easing", "transitions-spring", "transitions-decay"};
    for (int tasks = 0; tasks < 2; ++tasks)
        for (uint32_t k = 0; k < 3u; ++k) tp_Transitions(run, kinds[k], k, tasks);
    for (uint32_t n = 1; n <= 24u; ++n) {
        uint8_t bytes[4096];
        mcore_Rng rng;
        char name[32];
        mcore_RngSeed(&rng, n);
        for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = (uint8_t)mcore_RngNext(&rng);
        for (int tasks = 0; tasks < 2; ++tasks) {
            mtwnOpsResult r = mtwnOps_Run(bytes, sizeof bytes, tasks);
            snprintf(name, sizeof name, "ops-%02u%s", n, tasks ? "-tasks" : "");
            /* A broken invariant makes the hash the line's, never a match. */
            mconf_Record(run, name, r.failedLine == 0 ? r.hash : (uint64_t)r.failedLine);
        }
    }
}
