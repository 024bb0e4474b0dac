/* The operation-sequence driver (tween_ops.h). */
#include "tween_ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/hash.h"
#include "maul/tween/clip.h"
#include "maul/tween/context.h"
#include "maul/tween/event.h"
#include "maul/tween/player.h"
#include "maul/tween/target.h"
#include "maul/tween/transition.h"

#define MAX_IDS 64

typedef struct Reader {
    const uint8_t* p;
    size_t n;
} Reader;

static uint32_t byte(Reader* r)
{
    if (r->n == 0u) return 0u;
    r->n -= 1u;
    return *r->p++;
}

static uint32_t u16(Reader* r)
{
    uint32_t a = byte(r);
    return a | (byte(r) << 8);
}

typedef struct Alloc {
    int fail;
    uint64_t live;
} Alloc;

static void* allocate(void* user, size_t size, size_t alignment)
{
    Alloc* a = (Alloc*)user;
    if (a->fail) return NULL;
    a->live += 1u;
    return aligned_alloc(alignment, (size + alignment - 1u) / alignment * alignment);
}

static void release(void* user, void* memory, size_t size)
{
    Alloc* a = (Alloc*)user;
    (void)size;
    a->live -= 1u;
    free(memory);
}

static void* taskBegin(void* user, mtwnTaskFunction* task, void* data, uint32_t count)
{
    (void)user;
    /* In reverse: a result that depended on the tasks' order would show. */
    for (uint32_t i = count; i > 0u; --i) task(data, i - 1u);
    return NULL;
}

static void taskWait(void* user, void* handle)
{
    (void)user;
    (void)handle;
}

typedef struct State {
    mtwnContext* c;
    mtwnContextDef def;
    Alloc alloc;
    mtwnTargetId targets[MAX_IDS];
    uint32_t kinds[MAX_IDS];
    uint8_t targetLive[MAX_IDS];
    uint32_t targetCount;
    mtwnPlayerId players[MAX_IDS];
    uint32_t playerCount;
    mtwnClipId clips[MAX_IDS];
    uint8_t clipLive[MAX_IDS];
    uint32_t clipCount;
    uint64_t timeNs;
    uint64_t misuse;
    mcore_Hasher hash;
    int shapes; /* mtwnOps_RunShaped */
} State;

static float valueOf(Reader* r)
{
    return (float)((int32_t)u16(r) - 32768) / 256.0f;
}

static mtwnVec4 valueForKind(Reader* r, uint32_t kind)
{
    /* One read a statement: the order of an initializer's or a call's
     * arguments is unspecified, and differs between compilers. */
    mtwnVec4 v;
    v.x = valueOf(r);
    v.y = valueOf(r);
    v.z = valueOf(r);
    v.w = valueOf(r);
    switch (kind) {
    case mtwn_valueInteger: v.x = floorf(v.x); break;
    case mtwn_valueDiscrete: v.x = (float)(byte(r) % 5u); break;
    case mtwn_valueColor:
        v.x = fabsf(v.x) / 128.0f;
        v.y = fabsf(v.y) / 128.0f;
        v.z = fabsf(v.z) / 128.0f;
        v.w = (float)(byte(r) % 5u) / 4.0f;
        break;
    case mtwn_valueRotation:
        if (v.x == 0.0f && v.y == 0.0f && v.z == 0.0f && v.w == 0.0f) v.w = 1.0f;
        break;
    case mtwn_valueScale:
        v.x = 0.25f + fabsf(v.x) / 16.0f;
        v.y = 0.25f + fabsf(v.y) / 16.0f;
        v.z = 0.25f + fabsf(v.z) / 16.0f;
        break;
    default: break;
    }
    return v;
}

static bool isResult(mtwnResult r)
{
    return (uint32_t)r <= (uint32_t)mtwn_errorVersion;
}

#define CHECK(cond)                                                                                              \
    do {                                                                                                         \
        if (!(cond)) return __LINE__;                                                                            \
    } while (0)

/* The invariants after a step. */
static int check(State* s)
{
    uint64_t misuse = mtwnContext_GetMisuse(s->c);
    CHECK(misuse >= s->misuse);
    s->misuse = misuse;
    CHECK(mtwnContext_GetEventCount(s->c) <= s->def.eventCapacity);
    CHECK(mtwnContext_GetMemoryBytes(s->c) > 0u);
    for (uint32_t i = 0; i < s->targetCount; ++i) {
        mtwnVec4 v;
        bool valid = mtwnTarget_IsValid(s->c, s->targets[i]);
        CHECK(valid == (s->targetLive[i] != 0u));
        if (!valid) continue;
        CHECK(mtwnTarget_GetValue(s->c, s->targets[i], &v) == mtwn_success);
        CHECK(isfinite(v.x) && isfinite(v.y) && isfinite(v.z) && isfinite(v.w));
        if (s->kinds[i] == mtwn_valueScalar || s->kinds[i] == mtwn_valueAngle || s->kinds[i] == mtwn_valueInteger ||
            s->kinds[i] == mtwn_valueDiscrete)
            CHECK(v.y == 0.0f && v.z == 0.0f && v.w == 0.0f);
        if (s->kinds[i] == mtwn_valueInteger || s->kinds[i] == mtwn_valueDiscrete) CHECK(v.x == floorf(v.x));
    }
    for (uint32_t i = 0; i < s->clipCount; ++i) CHECK(mtwnClip_IsValid(s->c, s->clips[i]) == (s->clipLive[i] != 0u));
    CHECK(mtwnContext_GetMisuse(s->c) == s->misuse);  /* the checks themselves count nothing */
    return 0;
}

static mtwnTargetId pickTarget(State* s, Reader* r)
{
    mtwnTargetId none = {byte(r), 1u};
    if (s->targetCount == 0u) return none;
    return s->targets[byte(r) % s->targetCount];
}

static mtwnPlayerId pickPlayer(State* s, Reader* r)
{
    mtwnPlayerId none = {0u, 0u};
    if (s->playerCount == 0u) return none;
    return s->players[byte(r) % s->playerCount];
}

static int pickClip(State* s, Reader* r)
{
    if (s->clipCount == 0u) return -1;
    return (int)(byte(r) % s->clipCount);
}

static void addPlayer(State* s, mtwnPlayerId p)
{
    if (s->playerCount < MAX_IDS) {
        s->players[s->playerCount++] = p;
    } else {
        s->players[p.index % MAX_IDS] = p;
    }
}

static int makeClip(State* s, Reader* r)
{
    mtwnClipDef d = mtwnDefaultClipDef();
    mtwnClipId id;
    mtwnNode timeline = MTWN_ROOT_NODE, n;
    uint32_t nodes = 1u + byte(r) % 5u;
    mtwnResult res = mtwnCreateClip(s->c, &d, &id);
    CHECK(isResult(res));
    if (res != mtwn_success || s->clipCount == MAX_IDS) return 0;
    for (uint32_t i = 0; i < nodes; ++i) {
        uint32_t what = byte(r) % 4u;
        mtwnPosition pos;
        pos.anchor = byte(r) % 5u;
        pos.label = byte(r) % 3u;
        pos.offset = (double)(byte(r) % 8u) * 0.125;
        if (what == 0u) {
            mtwnClipTimelineDef t = mtwnDefaultClipTimelineDef();
            t.parent = timeline;
            t.position = pos;
            t.timing.iterations = (double)(1u + byte(r) % 3u);
            t.timing.direction = byte(r) % 4u;
            if (s->shapes && (t.timing.direction & 2u) == 0u && (byte(r) & 1u))
                t.timing.direction |= 2u; /* alternate or alternate-reverse */
            t.timing.fill = byte(r) % 4u;
            t.timing.playbackRate = (byte(r) & 1u) ? -1.0 : 1.0;
            if (t.timing.playbackRate < 0.0) t.timing.iterations = 1.0;
            res = mtwnClip_AddTimeline(s->c, id, &t, &n);
            CHECK(isResult(res));
            if (res == mtwn_success) timeline = n;
        } else if (what == 1u) {
            mtwnKeyframe k[3];
            mtwnClipTrackDef t = mtwnDefaultClipTrackDef();
            uint32_t kind = byte(r) % 10u;
            memset(k, 0, sizeof(k));
            for (uint32_t j = 0; j < 3u; ++j) {
                mtwnVec4 v = valueForKind(r, kind);
                k[j].offset = (double)j * 0.5;
                k[j].value[0] = v.x;
                k[j].value[1] = v.y;
                k[j].value[2] = v.z;
                k[j].value[3] = v.w;
                k[j].kind = mtwn_segmentLinear;
                k[j].easing = mtwnMakeLinearEasing();
            }
            t.parent = (byte(r) & 1u) ? timeline : MTWN_ROOT_NODE;
            t.position = pos;
            t.slot = byte(r) % 8u;
            t.track = mtwnDefaultTrackDef((mtwnValueKind)kind);
            t.keyframes = k;
            t.keyframeCount = 3u;
            t.timing.duration = 0.25 * (double)(1u + byte(r) % 8u);
            t.timing.fill = byte(r) % 4u;
            t.timing.iterations = (byte(r) % 16u) == 0u ? INFINITY : 1.0;
            res = mtwnClip_AddTrack(s->c, id, &t, &n);
            CHECK(isResult(res));
        } else if (what == 2u) {
            res = mtwnClip_AddLabel(s->c, id, timeline, pos, byte(r) % 3u, &n);
            CHECK(isResult(res));
        } else {
            res = mtwnClip_AddMark(s->c, id, timeline, pos, byte(r), &n);
            CHECK(isResult(res));
        }
    }
    if (byte(r) % 8u != 0u) CHECK(mtwnClip_Seal(s->c, id) == mtwn_success);
    s->clips[s->clipCount] = id;
    s->clipLive[s->clipCount] = 1u;
    s->clipCount += 1u;
    return 0;
}

static int step(State* s, Reader* r)
{
    uint32_t op = byte(r) % 16u;
    mtwnResult res = mtwn_success;
    switch (op) {
    case 0: {
        uint32_t kind = byte(r) % 11u; /* 10: an unknown kind */
        mtwnTargetId t;
        res = mtwnCreateTarget(s->c, (mtwnValueKind)kind, valueForKind(r, kind), &t);
        CHECK(kind < 10u || res == mtwn_errorInvalid);
        if (res == mtwn_success && s->targetCount < MAX_IDS) {
            s->targets[s->targetCount] = t;
            s->kinds[s->targetCount] = kind;
            s->targetLive[s->targetCount] = 1u;
            s->targetCount += 1u;
        }
        break;
    }
    case 1: {
        uint32_t i = s->targetCount ? byte(r) % s->targetCount : 0u;
        if (s->targetCount == 0u) break;
        res = mtwnDestroyTarget(s->c, s->targets[i]);
        CHECK(res == (s->targetLive[i] ? mtwn_success : mtwn_errorStale));
        s->targetLive[i] = 0u;
        break;
    }
    case 2: {
        uint32_t i = s->targetCount ? byte(r) % s->targetCount : 0u;
        if (s->targetCount == 0u) break;
        res = mtwnTarget_SetBase(s->c, s->targets[i], valueForKind(r, s->kinds[i]));
        if (!s->targetLive[i]) CHECK(res == mtwn_errorStale);
        break;
    }
    case 3: {
        mtwnTransitionDef d = mtwnDefaultTransitionDef();
        uint32_t i = s->targetCount ? byte(r) % s->targetCount : 0u;
        mtwnPlayerId p;
        if (s->targetCount == 0u) break;
        d.target = s->targets[i];
        d.value = valueForKind(r, s->kinds[i]);
        d.kind = byte(r) % 3u;
        d.duration = (double)(byte(r) % 16u) * 0.0625;
        d.delay = (double)(byte(r) % 4u) * 0.0625;
        d.velocitySource = byte(r) % 3u;
        d.velocity.x = valueOf(r);
        d.decayEnd = byte(r) % 3u;
        d.essential = byte(r) & 1u;
        if (d.decayEnd == mtwn_decayBounded) {
            d.lower = -(double)(byte(r) % 64u);
            d.upper = (double)(byte(r) % 64u) + 0.5;
        }
        res = mtwnStartTransition(s->c, &d, &p);
        if (res == mtwn_success) addPlayer(s, p);
        break;
    }
    case 4: res = mtwnDestroyPlayer(s->c, pickPlayer(s, r)); break;
    case 5: return makeClip(s, r);
    case 6: {
        int i = pickClip(s, r);
        if (i < 0) break;
        res = mtwnDestroyClip(s->c, s->clips[i]);
        if (res == mtwn_success) s->clipLive[i] = 0u;
        CHECK(res == mtwn_success || res == mtwn_errorBusy || res == mtwn_errorStale);
        break;
    }
    case 7: {
        mtwnClipPlayerDef d = mtwnDefaultClipPlayerDef();
        mtwnBinding b[4];
        int i = pickClip(s, r);
        mtwnPlayerId p;
        uint32_t n = byte(r) % 5u;
        if (i < 0) break;
        for (uint32_t j = 0; j < n; ++j) {
            uint32_t slot = byte(r) % 8u;
            b[j] = mtwnMakeBinding(slot, pickTarget(s, r));
            b[j].weight = (float)(byte(r) % 5u) / 4.0f;
        }
        d.clip = s->clips[i];
        d.bindings = b;
        d.bindingCount = n;
        d.keep = byte(r) & 1u;
        d.play = (byte(r) % 4u) != 0u;
        d.rate = ((double)(byte(r) % 9u) - 4.0) * 0.5;
        d.essential = byte(r) & 1u;
        res = mtwnCreateClipPlayer(s->c, &d, &p);
        if (res == mtwn_success) addPlayer(s, p);
        break;
    }
    case 8: {
        mtwnPlayerId p = pickPlayer(s, r);
        double t = ((double)byte(r) - 64.0) * 0.03125;
        switch (byte(r) % 12u) {
        case 0: res = mtwnClipPlayer_Play(s->c, p); break;
        case 1: res = mtwnClipPlayer_Pause(s->c, p); break;
        case 2: res = mtwnClipPlayer_Reverse(s->c, p); break;
        case 3: res = mtwnClipPlayer_Finish(s->c, p); break;
        case 4: res = mtwnClipPlayer_Cancel(s->c, p); break;
        case 5: res = mtwnClipPlayer_Seek(s->c, p, t); break;
        case 6: res = mtwnClipPlayer_Sweep(s->c, p, t); break;
        case 7: res = mtwnClipPlayer_SeekProgress(s->c, p, t * 0.25); break;
        case 8: res = mtwnClipPlayer_SeekLabel(s->c, p, byte(r) % 3u); break;
        case 9: res = mtwnClipPlayer_SetRate(s->c, p, t); break;
        case 10: res = mtwnClipPlayer_SetWeight(s->c, p, (float)t); break;
        default: {
            mtwnClipPlayerState st;
            res = mtwnClipPlayer_GetState(s->c, p, &st);
            if (res == mtwn_success) CHECK(st.playState <= (uint32_t)mtwn_playFinished);
            break;
        }
        }
        break;
    }
    case 9:
    case 10:
    case 11: {
        mtwnTargetId changed[16];
        uint32_t total = 0;
        s->timeNs += (uint64_t)byte(r) * 4000000u;
        res = mtwnContext_Update(s->c, s->timeNs, changed, 16u, &total);
        CHECK(res == mtwn_success);
        mcore_HasherAdd(&s->hash, &total, sizeof(total));
        mcore_HasherAdd(&s->hash, changed, (total < 16u ? total : 16u) * sizeof(mtwnTargetId));
        for (uint32_t i = 0; i < s->targetCount; ++i) {
            mtwnVec4 v;
            if (s->targetLive[i] && mtwnTarget_GetValue(s->c, s->targets[i], &v) == mtwn_success)
                mcore_HasherAdd(&s->hash, &v, sizeof(v));
        }
        break;
    }
    case 12: {
        mtwnContextDef d = s->def;
        uint32_t what = byte(r);
        d.targetCapacity += what % 3u;
        d.playerCapacity += (what / 3u) % 3u;
        d.eventCapacity += (what / 9u) % 3u;
        d.clipStorageBytes += 4096u * ((what / 27u) % 3u);
        s->alloc.fail = (what & 0x80u) != 0u;
        {
            mtwnContext* before = s->c;
            res = mtwnContext_Grow(&s->c, &d);
            CHECK(res == (s->alloc.fail ? mtwn_errorCapacity : mtwn_success));
            if (res == mtwn_success) s->def = d;
            else CHECK(s->c == before);
        }
        s->alloc.fail = 0;
        break;
    }
    case 13: {
        mtwnEvent ev[8];
        uint32_t n = 0;
        uint64_t dropped = 0;
        res = mtwnContext_ReadEvents(s->c, ev, byte(r) % 9u, &n, &dropped);
        CHECK(res == mtwn_success);
        for (uint32_t i = 0; i < n; ++i) {
            CHECK(ev[i].kind <= (uint32_t)mtwn_eventMark && ev[i].count >= 1u);
            CHECK(i == 0u || ev[i].timeNs >= ev[i - 1u].timeNs); /* every update appends sorted, after the last */
        }
        if (getenv("MTWN_OPS_TRACE") != NULL)
            for (uint32_t i = 0; i < n; ++i)
                fprintf(stderr, "  ev t=%llu p=%u/%u k=%u node=%u key=%u b=%u c=%u\n",
                        (unsigned long long)ev[i].timeNs, ev[i].player.index, ev[i].player.generation, ev[i].kind,
                        ev[i].node, ev[i].key, ev[i].backwards, ev[i].count);
        mcore_HasherAdd(&s->hash, ev, n * sizeof(mtwnEvent));
        mcore_HasherAdd(&s->hash, &dropped, sizeof(dropped));
        break;
    }
    case 14: {
        mtwnTargetId ids[4];
        mtwnVec4 v[4];
        mtwnTargetState st;
        double dist;
        mtwnTransitionDef d = mtwnDefaultTransitionDef();
        for (uint32_t i = 0; i < 4u; ++i) ids[i] = pickTarget(s, r);
        res = mtwnContext_ReadTargets(s->c, ids, 4u, v);
        CHECK(res == mtwn_success || res == mtwn_errorStale);
        res = mtwnTarget_GetState(s->c, ids[0], &st);
        if (res == mtwn_success) CHECK(isfinite(st.velocity.x) && st.kind <= (uint32_t)mtwn_valueScale);
        d.target = ids[1];
        d.value = valueForKind(r, byte(r) % 10u);
        res = mtwnContext_MeasureTransition(s->c, &d, &dist);
        if (res == mtwn_success) CHECK(dist >= 0.0 && !isnan(dist));
        break;
    }
    default: mtwnContext_EnableReducedMotion(s->c, (byte(r) & 1u) != 0u); break;
    }
    if (getenv("MTWN_OPS_TRACE") != NULL) fprintf(stderr, "  res %u\n", (uint32_t)res);
    CHECK(isResult(res));
    return 0;
}

mtwnOpsResult mtwnOps_Run(const uint8_t* bytes, size_t size, int taskSystem)
{
    return mtwnOps_RunShaped(bytes, size, taskSystem, 0);
}

mtwnOpsResult mtwnOps_RunShaped(const uint8_t* bytes, size_t size, int taskSystem, int shapes)
{
    State s;
    Reader r = {bytes, size};
    mtwnOpsResult out = {0, 0u, 0u};
    memset(&s, 0, sizeof(s));
    s.def = mtwnDefaultContextDef();
    s.def.targetCapacity = 2u + byte(&r) % 24u;
    s.def.playerCapacity = 1u + byte(&r) % 12u;
    s.def.eventCapacity = byte(&r) % 10u;
    s.def.clipCapacity = 1u + byte(&r) % 6u;
    s.def.bindingCapacity = byte(&r) % 24u;
    s.def.pointsPerTransition = 4u;
    s.def.clipStorageBytes = 40000u + 4096u * (byte(&r) % 8u);
    s.shapes = shapes;
    if (shapes) {
        s.def.sharingNodes = byte(&r) % 24u;
        s.def.sharingRecords = byte(&r) % 40u;
    }
    s.def.allocator.allocate = allocate;
    s.def.allocator.release = release;
    s.def.allocator.user = &s.alloc;
    if (taskSystem) {
        s.def.taskSystem.begin = taskBegin;
        s.def.taskSystem.wait = taskWait;
    }
    mcore_HasherInit(&s.hash, 0x7477656E6F707331ull, 0u);
    if (mtwnCreateContext(&s.def, &s.c) != mtwn_success) {
        out.failedLine = __LINE__;
        return out;
    }
    while (r.n > 0u) {
        if (getenv("MTWN_OPS_TRACE") != NULL) {
            mcore_Hasher h = s.hash;
            fprintf(stderr, "step %u op %u hash %016llx\n", out.steps, r.n ? (uint32_t)(*r.p % 16u) : 99u,
                    (unsigned long long)mcore_HasherFinish(&h));
        }
        out.failedLine = step(&s, &r);
        if (out.failedLine == 0) out.failedLine = check(&s);
        out.steps += 1u;
        if (out.failedLine != 0) break;
    }
    mtwnDestroyContext(s.c);
    if (out.failedLine == 0 && s.alloc.live != 0u) out.failedLine = __LINE__;
    out.hash = mcore_HasherFinish(&s.hash);
    return out;
}
