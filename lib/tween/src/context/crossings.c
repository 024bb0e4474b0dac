/* Maul Tween: crossings, their own unit: a clip, a root-time interval and
 * the map from root time to host time in, records out (marks, nodes' starts
 * and ends), with the record bound a clip's staging takes (mtwn_RecordBound,
 * used by the seal and held to at run time by the sink). Calls only
 * store.c (the queue) and the timing and easing areas. */
#include <math.h>
#include <string.h>

#include "context_internal.h"
#include "lib/core/detmath.h"
#include "../easing/easing_internal.h"
#include "../timing/timing_internal.h"

/* -- Records ---------------------------------------------------------------------- */

void mtwn_Record(mtwnContext* c, mtwnPlayerId id, uint32_t kind, uint32_t node, uint32_t key, bool backwards,
                 uint32_t count, uint64_t timeNs)
{
    mtwnEvent e;
    e.timeNs = timeNs;
    e.player = id;
    e.kind = kind;
    e.node = node;
    e.key = key;
    e.backwards = backwards ? 1u : 0u;
    e.count = count;
    e.reserved = 0u;
    mtwn_PushEvent(c, &e);
}

/* A timeline node's timing at a root time: false when it is not in effect. */
static bool timingAt(const mtwn_Clip* c, uint32_t node, double rootTime, bool backwards, mtwnTimingResult* r)
{
    const mtwn_ClipNode* n = &c->nodes[node - 1u];
    double local;
    if (n->parent == 0u) {
        local = rootTime;
    } else {
        double pt;
        if (!mtwn_ChildTime(c, n->parent, rootTime, backwards, &pt)) return false;
        local = pt - n->start;
    }
    if (!(local == local) || local == -INFINITY) return false;
    mtwn_ComputeTimingUnchecked(&n->timing, local, backwards, true, r, NULL);
    return r->inEffect;
}

/* Its children's time from its timing. */
static double childTimeOf(const mtwn_ClipNode* n, const mtwnTimingResult* r)
{
    return isinf(n->timing.duration) ? r->activeTime : r->transformedProgress * n->timing.duration;
}

/* A node's children's time at a root time: false when it is not in effect. */
bool mtwn_ChildTime(const mtwn_Clip* c, uint32_t node, double rootTime, bool backwards, double* out)
{
    mtwnTimingResult r;
    if (!timingAt(c, node, rootTime, backwards, &r)) return false;
    *out = childTimeOf(&c->nodes[node - 1u], &r);
    return true;
}

void mtwn_SinkRecord(mtwnContext* c, mtwn_Sink* sink, mtwnPlayerId id, uint32_t kind, uint32_t node,
                     uint32_t key, bool backwards, uint32_t count, uint64_t timeNs)
{
    if (sink == NULL || sink->direct) {
        mtwn_Record(c, id, kind, node, key, backwards, count, timeNs);
        return;
    }
    if (sink->recordCount == sink->recordCapacity) {
        /* Never past the staging's bound (the seal's markCount makes it hold
         * every record; this only guards it): dropped and counted. */
        sink->recordsDropped += 1u;
        return;
    }
    {
        mtwnEvent* e = &sink->records[sink->recordCount++];
        e->timeNs = timeNs;
        e->player = id;
        e->kind = kind;
        e->node = node;
        e->key = key;
        e->backwards = backwards ? 1u : 0u;
        e->count = count;
        e->reserved = 0u;
    }
}

/* Whether the parent's time arrived at or passed x going from pa to pb: a
 * mark, an end reached forwards, a start reached backwards. */
static bool crosses(double pa, double pb, double x)
{
    return (pa < x && x <= pb) || (pb <= x && x < pa);
}

/* Whether the parent's time left x or passed it going from pa to pb: a start
 * left forwards (GSAP starts a child when its time leaves its start, 0
 * included), an end left backwards. Each position is crossed once however
 * the updates fall: arriving exactly at it, it is left at the next. */
static bool leaves(double pa, double pb, double x)
{
    return (pa <= x && x < pb) || (pb < x && x <= pa);
}

uint64_t mtwn_HostTimeOf(const mtwn_TimeMap* m, double rootTime)
{
    double d, span;
    if (!m->byRate) return m->toNs;
    d = (m->u - rootTime) / m->rate * 1e9; /* nanoseconds before toNs */
    span = (double)(m->toNs - m->fromNs);
    if (!(d > 0.0)) return m->toNs;
    if (d >= span) return m->fromNs;
    {
        uint64_t back = (uint64_t)(d + 0.5);
        return back >= m->toNs - m->fromNs ? m->fromNs : m->toNs - back;
    }
}

/* One node's crossings at an update, by kind (0 its start, 1 its end, 2 a
 * mark) and direction (1 down its parent's time): how many, and the share of
 * the update's way at which the first fell. */
typedef struct Tally {
    double count;
    double first;
} Tally;

/* A stretch of the update over which a timeline's children's time (or, for
 * the root's input, the root time) runs monotonically from c0 to c1 while the
 * update's share runs from f0 to f1; `times` such stretches alike (f0 and f1
 * the first's). linear: the time runs linearly with the share over it. */
typedef struct Stretch {
    double c0, c1, f0, f1, times;
    bool linear;
} Stretch;

/* The most distinct stretches one timeline's children's time is cut into in
 * one update (docs/internals/timing.md: more only when several levels of
 * timelines iterate within one update, each cut at other places). It is at
 * least 4, the most one stretch expands into, so the fallback past it always
 * fits. A test build sets 3 (//lib/tween:maul_tween_stretches3) to reach
 * the fallback with two levels of timelines. */
#ifndef MTWN_CLIP_STRETCHES
#define MTWN_CLIP_STRETCHES 32
#endif
#define kStretches ((uint32_t)MTWN_CLIP_STRETCHES)

/* The sweep's update: the clip, the root times at its two ends, whether the
 * root runs backwards. */
typedef struct Sweep {
    const mtwn_Clip* c;
    double a, b;
    bool backwards;
} Sweep;

/* Node q's children's time (q = 0: the root time) at a share f of the update. */
static bool valueAt(const Sweep* w, uint32_t q, double f, double* out)
{
    double root = w->a + (w->b - w->a) * f;
    if (q == 0u) {
        *out = root;
        return true;
    }
    return mtwn_ChildTime(w->c, q, root, w->backwards, out);
}

/* The share at which stretch s of node q's children's time reaches x (between
 * its ends): by interpolation when it runs linearly, else by bisection: 64
 * halvings of the share in binary64 (fewer once the halves stop shrinking),
 * the first share found where the time has reached x, to within the
 * update's share times 2^-52 however the easings and repeat delays bend it. */
static double shareOf(const Sweep* w, uint32_t q, const Stretch* s, double x)
{
    double lo = s->f0, hi = s->f1;
    bool up = s->c1 >= s->c0;
    if (s->linear) {
        double f = s->f0 + (x - s->c0) / (s->c1 - s->c0) * (s->f1 - s->f0);
        return f < s->f0 ? s->f0 : (f > s->f1 ? s->f1 : f); /* held within by rounding's margin */
    }
    for (int i = 0; i < 64; ++i) {
        double mid = lo + (hi - lo) * 0.5, v;
        if (!(mid > lo && mid < hi)) break;
        if (valueAt(w, q, mid, &v) && (up ? v >= x : v <= x))
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

static void tallyOne(Tally* t, const Sweep* w, uint32_t q, const Stretch* s, double x)
{
    if (t->count == 0.0 || s->f0 < t->first) {
        double f = shareOf(w, q, s, x);
        if (t->count == 0.0 || f < t->first) t->first = f;
    }
    t->count += s->times;
}

/* Node n's crossings in stretch s of its parent q's children's time.
 * Forwards the start comes first, backwards the end. */
static void tallyStretch(const Sweep* w, const mtwn_ClipNode* n, uint32_t q, const Stretch* s, Tally t[3][2])
{
    bool down = s->c1 < s->c0;
    if (n->kind == mtwn_nodeMark) {
        if (crosses(s->c0, s->c1, n->start)) tallyOne(&t[2][down], w, q, s, n->start);
        return;
    }
    {
        double s0 = n->start + n->timing.delay;
        double s1 = s0 + mtwn_ActiveDuration(&n->timing);
        /* An empty active interval is entered and left at once, when its
         * time is reached: both by the arriving rule. */
        bool empty = s0 == s1;
        if (down || empty ? crosses(s->c0, s->c1, s0) : leaves(s->c0, s->c1, s0))
            tallyOne(&t[down ? 1 : 0][down], w, q, s, s0);
        if (!isinf(s1) && (down && !empty ? leaves(s->c0, s->c1, s1) : crosses(s->c0, s->c1, s1)))
            tallyOne(&t[down ? 0 : 1][down], w, q, s, s1);
    }
}

/* A timeline's children's time in iteration k at simple progress u, as
 * mtwn_ComputeTimingUnchecked gives it there (monotone easing). */
static double childTimeIn(const mtwn_ClipNode* p, double k, double u)
{
    const mtwnTiming* t = &p->timing;
    bool forwards = true;
    double v;
    if (t->direction == (uint32_t)mtwn_directionReverse) {
        forwards = false;
    } else if (t->direction == (uint32_t)mtwn_directionAlternate ||
               t->direction == (uint32_t)mtwn_directionAlternateReverse) {
        double d = t->direction == (uint32_t)mtwn_directionAlternateReverse ? k + 1.0 : k;
        forwards = mcore_fmod(d, 2.0) == 0.0;
    }
    if (!forwards && t->reverseEasing == (uint32_t)mtwn_reverseMirrored)
        v = 1.0 - mtwn_SampleEasingMonotone(&t->easing, u, false, NULL);
    else
        v = mtwn_SampleEasingMonotone(&t->easing, forwards ? u : 1.0 - u, false, NULL);
    return v * t->duration;
}

/* The local time at which a timeline's iteration k is at simple progress u
 * (0 its start, 1 its end, before the repeat delay that may follow),
 * inverting timing.md's steps 4 and 5: the position in the iterations' run
 * with repeat delays pos = j (d + rd) + u d (j = k - floor(is)), the scaled
 * active time pos - frac(is) d, the active time by the rate. */
static double localAtProgress(const mtwnTiming* t, double k, double u)
{
    double base = floor(t->iterationStart);
    double pos = (k - base) * (t->duration + t->repeatDelay) + u * t->duration;
    double scaled = pos - (t->iterationStart - base) * t->duration;
    double active = t->playbackRate > 0.0 ? scaled / t->playbackRate
                                          : mtwn_ActiveDuration(t) + scaled / t->playbackRate;
    return t->delay + active;
}

/* Whether the parent's time passed from one iteration to another between
 * two timings: then it is not monotone over the stretch. */
static bool changesIteration(const mtwn_ClipNode* p, const mtwnTimingResult* ra, const mtwnTimingResult* rb)
{
    return ra->currentIteration != rb->currentIteration && isfinite(ra->currentIteration) &&
           isfinite(rb->currentIteration) && isfinite(ra->overallProgress) && isfinite(rb->overallProgress) &&
           p->timing.duration > 0.0 && isfinite(p->timing.duration);
}

/* Adds a stretch, one alike (the same ends) counted with it: false when there
 * is no room. A stretch where the time stands crosses nothing. */
static bool addStretch(Stretch* out, uint32_t* count, const Stretch* s)
{
    if (!(s->c0 != s->c1) || !(s->times > 0.0)) return true;
    for (uint32_t i = 0; i < *count; ++i) {
        Stretch* o = &out[i];
        if (o->c0 == s->c0 && o->c1 == s->c1) {
            double times = o->times + s->times;
            if (s->f0 < o->f0) *o = *s;
            o->times = times;
            return true;
        }
    }
    if (*count == kStretches) return false;
    out[(*count)++] = *s;
    return true;
}

/* Timeline p's children's time over the update, from the stretches of its
 * parent's (its own local time plus its start): within one of its
 * iterations, one stretch; across iterations, the rest of the first, the
 * whole ones between (alike by parity: the two first, each counted as often
 * as its parity comes) and the start of the last, each cut where p's local
 * time reaches the iteration's boundary (localAtProgress, then shareOf). A
 * stretch with p out of effect at an end is first cut to p's active
 * interval; one never in it gives nothing. False when the stretches do not
 * fit. */
static bool expand(const Sweep* w, uint32_t p, const Stretch* in, uint32_t inCount, Stretch* out,
                   uint32_t* outCount)
{
    const mtwn_ClipNode* pn = &w->c->nodes[p - 1u];
    const mtwnTiming* tm = &pn->timing;
    double st = pn->parent == 0u ? 0.0 : pn->start;
    bool lin = tm->easing.kind == (uint32_t)mtwn_easingLinear && tm->repeatDelay == 0.0;
    *outCount = 0;
    for (uint32_t i = 0; i < inCount; ++i) {
        const Stretch* s = &in[i];
        Stretch cut;
        double x0 = s->c0 - st, x1 = s->c1 - st;
        mtwnTimingResult ra, rb;
        Stretch o;
        if (!(x0 == x0) || x0 == -INFINITY || !(x1 == x1) || x1 == -INFINITY) continue;
        mtwn_ComputeTimingUnchecked(tm, x0, w->backwards, true, &ra, NULL);
        mtwn_ComputeTimingUnchecked(tm, x1, w->backwards, true, &rb, NULL);
        if (!ra.inEffect || !rb.inEffect) {
            /* Out of effect at an end (no fill there): the stretch is cut to
             * the part in its active interval, where its children's time
             * runs, its ends held at the interval's boundary as a fill would
             * hold them; what lies outside crosses nothing. */
            double lo = tm->delay, hi = tm->delay + mtwn_ActiveDuration(tm);
            double a0 = x0 < lo ? lo : (x0 > hi ? hi : x0), a1 = x1 < lo ? lo : (x1 > hi ? hi : x1);
            mtwnTiming held = *tm;
            if (!(a0 != a1)) continue;
            held.fill = mtwn_fillBoth;
            mtwn_ComputeTimingUnchecked(&held, a0, w->backwards, true, &ra, NULL);
            mtwn_ComputeTimingUnchecked(&held, a1, w->backwards, true, &rb, NULL);
            if (!ra.inEffect || !rb.inEffect) continue;
            cut = *s;
            cut.c0 = a0 + st;
            cut.c1 = a1 + st;
            if (a0 != x0) cut.f0 = shareOf(w, pn->parent, s, cut.c0);
            if (a1 != x1) cut.f1 = shareOf(w, pn->parent, s, cut.c1);
            s = &cut;
            x0 = a0;
            x1 = a1;
        }
        if (!changesIteration(pn, &ra, &rb)) {
            o.c0 = childTimeOf(pn, &ra);
            o.c1 = childTimeOf(pn, &rb);
            o.f0 = s->f0;
            o.f1 = s->f1;
            o.times = s->times;
            o.linear = s->linear && lin && ra.phase == (uint32_t)mtwn_phaseActive &&
                       rb.phase == (uint32_t)mtwn_phaseActive;
            if (!addStretch(out, outCount, &o)) return false;
            continue;
        }
        {
            double ka = ra.currentIteration, kb = rb.currentIteration;
            double step = kb > ka ? 1.0 : -1.0;
            double uEnd = step > 0.0 ? 1.0 : 0.0, uStart = 1.0 - uEnd;
            double whole = fabs(kb - ka) - 1.0;
            double pa = childTimeOf(pn, &ra), pb = childTimeOf(pn, &rb);
            double s0 = childTimeIn(pn, ka, uStart), e0 = childTimeIn(pn, ka, uEnd);
            double s1 = childTimeIn(pn, kb, uStart), e1 = childTimeIn(pn, kb, uEnd);
            /* Each stretch runs its iteration's way (so a parent that does not
             * alternate gives one direction, the staging bound markCount
             * counts): the ends' own times are held within their iterations'
             * ranges. */
            if (e0 >= s0 ? pa > e0 : pa < e0) pa = e0;
            if (e1 >= s1 ? pb < s1 : pb > s1) pb = s1;
            o.c0 = pa;
            o.c1 = e0;
            o.f0 = s->f0;
            o.f1 = shareOf(w, pn->parent, s, localAtProgress(tm, ka, uEnd) + st);
            o.times = s->times;
            o.linear = s->linear && lin && ra.phase == (uint32_t)mtwn_phaseActive;
            if (!addStretch(out, outCount, &o)) return false;
            for (int j = 1; j <= 2 && (double)j <= whole; ++j) {
                double k = ka + step * (double)j;
                o.c0 = childTimeIn(pn, k, uStart);
                o.c1 = childTimeIn(pn, k, uEnd);
                o.f0 = shareOf(w, pn->parent, s, localAtProgress(tm, k, uStart) + st);
                o.f1 = shareOf(w, pn->parent, s, localAtProgress(tm, k, uEnd) + st);
                o.times = s->times * (j == 1 ? ceil(whole / 2.0) : floor(whole / 2.0));
                o.linear = s->linear && lin;
                if (!addStretch(out, outCount, &o)) return false;
            }
            o.c0 = s1;
            o.c1 = pb;
            o.f0 = shareOf(w, pn->parent, s, localAtProgress(tm, kb, uStart) + st);
            o.f1 = s->f1;
            o.times = s->times;
            o.linear = s->linear && lin && rb.phase == (uint32_t)mtwn_phaseActive;
            if (!addStretch(out, outCount, &o)) return false;
        }
    }
    return true;
}

/* Timeline q's children's time over the update: the root's, then each
 * timeline's down the path to q from its parent's. When they do not fit, q's
 * own iterations are followed from its parent's time at the update's two
 * ends (the approximation docs/internals/timing.md describes). */
static uint32_t stretchesOf(const Sweep* w, uint32_t q, Stretch* out, Stretch* scratch)
{
    const mtwn_ClipNode* nodes = w->c->nodes;
    uint32_t path[MTWN_MAX_CLIP_DEPTH + 2u], depth = 0, count = 1;
    Stretch root;
    const Stretch* in = &root;
    for (uint32_t at = q; at != 0u && depth < MTWN_MAX_CLIP_DEPTH + 2u; at = nodes[at - 1u].parent) path[depth++] = at;
    root.c0 = w->a;
    root.c1 = w->b;
    root.f0 = 0.0;
    root.f1 = 1.0;
    root.times = 1.0;
    root.linear = true;
    while (depth > 0u) {
        Stretch* next = depth % 2u == 1u ? out : scratch;
        uint32_t p = path[--depth];
        if (!expand(w, p, in, count, next, &count)) {
            uint32_t parent = nodes[q - 1u].parent;
            Stretch one;
            if (!valueAt(w, parent, 0.0, &one.c0) || !valueAt(w, parent, 1.0, &one.c1)) return 0u;
            one.f0 = 0.0;
            one.f1 = 1.0;
            one.times = 1.0;
            one.linear = false;
            if (!expand(w, q, &one, 1u, out, &count)) return 0u;
            return count;
        }
        in = next;
    }
    return count;
}

/* What playback crossed from root time a to b, in clip order: marks, and the
 * starts and ends of tracks' and timelines' active intervals (entering: a
 * start forwards or an end backwards; leaving: the other two), one record
 * per node, kind and direction with the count of its crossings, at the host
 * time of its first (the map's); a node's records in
 * the order of their first crossings, a start before an end at the same.
 * Times are compared in the parent's own time, which an alternate or
 * reversed parent runs backwards while the root runs forwards, and which an
 * iterating parent runs over again in each iteration the update passes
 * (the stretches, at any depth); a parent out of effect at an end crosses
 * what lies within its active interval (expand's cut). Starts are crossed
 * forwards when left, ends when reached (crosses, leaves). */
void mtwn_Sweep(mtwnContext* ctx, mtwn_Sink* sink, mtwnPlayerId id, const mtwn_Clip* clip, double a, double b,
                const mtwn_TimeMap* map)
{
    static const uint32_t kKinds[3] = {mtwn_eventNodeStart, mtwn_eventNodeEnd, mtwn_eventMark};
    Sweep w;
    Stretch st[kStretches], scratch[kStretches];
    uint32_t stFor = 0, stCount = 0;
    w.c = clip;
    w.a = a;
    w.b = b;
    w.backwards = b < a;
    if (ctx->def.eventCapacity == 0u || a == b) return;
    for (uint32_t i = 1; i < w.c->nodeCount; ++i) {
        const mtwn_ClipNode* n = &w.c->nodes[i];
        Tally t[3][2];
        uint32_t order[6], count = 0;
        if (n->kind == mtwn_nodeLabel) continue;
        /* Siblings share their parent's stretches. */
        if (stFor != n->parent) {
            stFor = n->parent;
            stCount = stretchesOf(&w, n->parent, st, scratch);
        }
        memset(t, 0, sizeof(t));
        for (uint32_t s = 0; s < stCount; ++s) tallyStretch(&w, n, n->parent, &st[s], t);
        /* By first crossing; at the same, start, end, mark, then forwards first. */
        for (uint32_t d = 0; d < 2u; ++d) {
            for (uint32_t k = 0; k < 3u; ++k) {
                uint32_t at = count;
                if (t[k][d].count == 0.0) continue;
                while (at > 0u && t[order[at - 1u] % 3u][order[at - 1u] / 3u].first > t[k][d].first) {
                    order[at] = order[at - 1u];
                    at -= 1u;
                }
                order[at] = d * 3u + k;
                count += 1u;
            }
        }
        for (uint32_t r = 0; r < count; ++r) {
            uint32_t k = order[r] % 3u, d = order[r] / 3u;
            double times = t[k][d].count;
            mtwn_SinkRecord(ctx, sink, id, kKinds[k], i + 1u, k == 2u ? n->key : 0u, d != 0u,
                       times >= 4294967295.0 ? UINT32_MAX : (uint32_t)times,
                       mtwn_HostTimeOf(map, a + (b - a) * t[k][d].first));
        }
    }
}

/* -- The bound ------------------------------------------------------------------------ */

uint32_t mtwn_RecordBound(const mtwn_Clip* c)
{
    uint32_t n = 0u;
    for (uint32_t i = 1; i < c->nodeCount; ++i) {
        /* A record per kind and direction: a mark's one, a track's or
         * timeline's start and end two, each twice under any ancestor that
         * alternates (its iterations run its descendants' times both ways in
         * one update, an alternating grandparent's as much as a parent's);
         * other directions turn every stretch the same way. */
        uint32_t ways = 1u;
        for (uint32_t a = c->nodes[i].parent; a != 0u; a = c->nodes[a - 1u].parent) {
            uint32_t dir = c->nodes[a - 1u].timing.direction;
            if (dir == mtwn_directionAlternate || dir == mtwn_directionAlternateReverse) ways = 2u;
        }
        if (c->nodes[i].kind == mtwn_nodeMark) n += ways;
        if (c->nodes[i].kind == mtwn_nodeTrack || c->nodes[i].kind == mtwn_nodeTimeline) n += 2u * ways;
    }
    return n;
}
