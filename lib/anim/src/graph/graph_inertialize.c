/* The inertialize node (maniGraphNodeInertialize): its node data's check at
 * the open, and its runtime: a trigger fires it; the evaluation after takes,
 * per bone, the jump between the last pose it wrote and its input's new
 * pose, with the velocity of its last two outputs, and removes it over its
 * duration, by Bollo's quintic inertialization or Holden's dead blending
 * (graph.h, next to MANI_GRAPH_INERTIALIZE_IDLE, gives the arithmetic). All
 * binary32, trigonometry and exponentials through lib/core/detmath.h,
 * quaternions through the simd single-lane helpers: the same bits on every
 * build.
 *
 * Node data (docs/formats.md, "Graph"): u32 method, f32 duration, f32
 * halfLifeScale, f32 halfLifeMin, f32 halfLifeMax.
 *
 * State block (32 + 160 bytes a bone, saved as it is): u32 phase
 * (MANI_GRAPH_INERTIALIZE_*), f32 seconds into the blend, f32 the seconds
 * the updates since the last evaluation moved, f32 the seconds between its
 * last two outputs, u32 the outputs it keeps (0 to 2), u32 1 when an update
 * came since the last evaluation, u32 0, u32 0; then per bone 40 f32: its
 * last output (translation, rotation, scale), the output before, and its
 * blend's record (inertialization: translation direction, magnitude and
 * speed along it, rotation axis, angle and angular speed about it, scale
 * direction, magnitude and speed, 5 zeros; dead blending: the pose it
 * extrapolates, its translation velocity, angular velocity and scale
 * velocity, 1 zero). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_format.h"
#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/anim/src/pose/pose_internal.h"
#include "lib/anim/src/simd/simd_single_inline.h"
#include "lib/core/container.h"
#include "lib/core/detmath.h"
#include "maul/anim/graphbuild.h"

/* -- The open's check ----------------------------------------------------------- */

uint64_t mani_CheckGraphInertializeData(const uint8_t* b, uint64_t words, uint32_t count, uint64_t countAt) {
    if (count != MANI_GRAPH_INERTIALIZE_WORDS) return countAt;
    if (mcore_ReadU32(b + words) >= MANI_GRAPH_INERTIALIZATION_METHOD_COUNT) return words;
    for (uint32_t k = 1; k < MANI_GRAPH_INERTIALIZE_WORDS; ++k) {
        const float v = mcore_ReadF32(b + words + 4u * k);
        if (!(isfinite(v) && v >= 0.0f)) return words + 4u * k;
    }
    if (mcore_ReadF32(b + words + 12) > mcore_ReadF32(b + words + 16)) return words + 16;
    return 0;
}

/* -- The node data at run time ------------------------------------------------- */

static float mani_InertialWordFloat(uint32_t w) {
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

typedef struct mani_Inertial {
    uint32_t trigger, method;
    float duration, halfLife;
} mani_Inertial;

static mani_Inertial mani_InertialOf(const maniGraphBinding* b, uint32_t node) {
    const mani_GraphNodeRt* n = &b->nodes[node];
    const uint32_t* w = b->words + n->data;
    mani_Inertial o;
    o.trigger = n->index;
    o.method = w[0];
    o.duration = mani_InertialWordFloat(w[1]);
    /* clamp(halfLifeScale * duration, halfLifeMin, halfLifeMax), binary32. */
    float h = mani_InertialWordFloat(w[2]) * o.duration;
    const float least = mani_InertialWordFloat(w[3]), most = mani_InertialWordFloat(w[4]);
    if (h < least) h = least;
    if (h > most) h = most;
    o.halfLife = h;
    return o;
}

/* -- The state block ------------------------------------------------------------ */

typedef struct mani_InertialState {
    uint32_t phase;
    float seconds; /* into the blend */
    float gap;     /* the seconds the updates since the last evaluation moved */
    float step;    /* the seconds between its last two outputs */
    uint32_t outputs;
    uint32_t fresh;
    uint32_t reserved[2];
} mani_InertialState;

#define MANI_GRAPH_INERTIALIZE_HEADER 32u
#define MANI_GRAPH_INERTIALIZE_BONE 40u /* floats a bone */

static mani_InertialState* mani_InertialStateOf(const maniGraphInstance* g, uint32_t node) {
    return (mani_InertialState*)mani_GraphNodeBlock(g, node);
}

static float* mani_InertialBones(const maniGraphInstance* g, uint32_t node) {
    return (float*)(void*)((uint8_t*)mani_GraphNodeBlock(g, node) + MANI_GRAPH_INERTIALIZE_HEADER);
}

size_t mani_InertializeStateSize(const maniGraphBinding* b, uint32_t node) {
    (void)node;
    return MANI_GRAPH_INERTIALIZE_HEADER + sizeof(float) * MANI_GRAPH_INERTIALIZE_BONE * (size_t)b->boneCount;
}

void mani_ResetInertialize(maniGraphInstance* g, uint32_t node) {
    memset(mani_GraphNodeBlock(g, node), 0, mani_InertializeStateSize(g->binding, node));
}

/* Whether 4 saved floats are a rotation of length 1 within a thousandth. */
static int mani_InertialUnit(const uint8_t* at) {
    const float x = mcore_ReadF32(at), y = mcore_ReadF32(at + 4), z = mcore_ReadF32(at + 8), w = mcore_ReadF32(at + 12);
    const float len2 = x * x + y * y + z * z + w * w;
    return len2 >= 0.998f && len2 <= 1.002f;
}

uint64_t mani_CheckRestoredInertialize(const maniGraphBinding* b, uint32_t node, const uint8_t* saved) {
    (void)node;
    const uint32_t phase = mcore_ReadU32(saved);
    if (phase > MANI_GRAPH_INERTIALIZE_BLENDING) return 0;
    for (uint32_t k = 4; k < 16; k += 4) {
        const float v = mcore_ReadF32(saved + k);
        if (!(isfinite(v) && v >= 0.0f)) return k;
    }
    if (phase != MANI_GRAPH_INERTIALIZE_BLENDING && mcore_ReadU32(saved + 4) != 0) return 4;
    const uint32_t outputs = mcore_ReadU32(saved + 16);
    if (outputs > 2u) return 16;
    if (mcore_ReadU32(saved + 20) > 1u) return 20;
    if (mcore_ReadU32(saved + 24) != 0) return 24;
    if (mcore_ReadU32(saved + 28) != 0) return 28;
    for (uint32_t bone = 0; bone < b->boneCount; ++bone) {
        const uint64_t at = MANI_GRAPH_INERTIALIZE_HEADER + 4u * (uint64_t)MANI_GRAPH_INERTIALIZE_BONE * bone;
        for (uint32_t k = 0; k < MANI_GRAPH_INERTIALIZE_BONE; ++k)
            if (!isfinite(mcore_ReadF32(saved + at + 4u * k))) return at + 4u * k;
        /* The outputs kept are poses: rotations of length 1. */
        if (outputs >= 1u && !mani_InertialUnit(saved + at + 12)) return at + 12;
        if (outputs >= 2u && !mani_InertialUnit(saved + at + 52)) return at + 52;
    }
    return UINT64_MAX;
}

void mani_InspectInertialize(const maniGraphInstance* g, uint32_t node, maniGraphNodeView* view) {
    const mani_InertialState* s = mani_InertialStateOf(g, node);
    view->state = s->phase;
    if (s->phase == MANI_GRAPH_INERTIALIZE_FIRED) {
        view->inertialRemaining = 1.0f;
    } else if (s->phase == MANI_GRAPH_INERTIALIZE_BLENDING) {
        const float d = mani_InertialOf(g->binding, node).duration;
        const float r = d > 0.0f ? 1.0f - s->seconds / d : 0.0f;
        view->inertialRemaining = r > 0.0f ? r : 0.0f;
    }
}

/* -- Weighing --------------------------------------------------------------------- */

/* Reads and clears its trigger, moves its blend's seconds by |delta * the
 * time scales above| (idle at the duration or past), fires (seconds 0, the
 * offsets taken by the next evaluation), and shares its own weight and root
 * motion weight to its input. */
void mani_WeighInertialize(mani_GraphUpdateContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const mani_Inertial o = mani_InertialOf(b, node);
    mani_InertialState* s = mani_InertialStateOf(c->instance, node);
    maniGraphValue* values = mani_GraphParameters(c->instance);
    int fire = 0;
    if (o.trigger != MANI_NO_PARAMETER) {
        fire = values[o.trigger].flag != 0;
        values[o.trigger].flag = 0;
    }
    const float step = fabsf(c->delta * c->flows[node].factor);
    if (!isfinite(step)) {
        /* No blend through a step past the float range: its input as it is. */
        s->phase = MANI_GRAPH_INERTIALIZE_IDLE;
        s->seconds = 0.0f;
        c->states[node].flags |= MANI_GRAPH_STATE_FAILED;
        c->failed = 1;
    } else {
        if (s->phase == MANI_GRAPH_INERTIALIZE_BLENDING) {
            const float seconds = s->seconds + step;
            if (seconds < o.duration) {
                s->seconds = seconds;
            } else {
                s->phase = MANI_GRAPH_INERTIALIZE_IDLE;
                s->seconds = 0.0f;
            }
        }
        const float gap = s->gap + step;
        s->gap = gap <= FLT_MAX ? gap : FLT_MAX;
    }
    if (fire) {
        s->phase = MANI_GRAPH_INERTIALIZE_FIRED;
        s->seconds = 0.0f;
    }
    s->fresh = 1;
    mani_GraphShare(c, b->inputs[n->firstInput].node, c->states[node].weight, c->flows[node].rootWeight);
}

/* -- Evaluation ------------------------------------------------------------------- */

static maniVec3 mani_InertialV3(const float* f) {
    const maniVec3 v = {f[0], f[1], f[2]};
    return v;
}

static void mani_InertialPutV3(float* f, maniVec3 v) {
    f[0] = v.x;
    f[1] = v.y;
    f[2] = v.z;
}

static maniTransform mani_InertialTransform(const float* f) {
    maniTransform t;
    t.translation = mani_InertialV3(f);
    t.rotation.x = f[3];
    t.rotation.y = f[4];
    t.rotation.z = f[5];
    t.rotation.w = f[6];
    t.scale = mani_InertialV3(f + 7);
    return t;
}

static void mani_InertialPutTransform(float* f, const maniTransform* t) {
    mani_InertialPutV3(f, t->translation);
    f[3] = t->rotation.x;
    f[4] = t->rotation.y;
    f[5] = t->rotation.z;
    f[6] = t->rotation.w;
    mani_InertialPutV3(f + 7, t->scale);
}

static float mani_InertialLength(maniVec3 v) { return sqrtf(v.x * v.x + v.y * v.y + v.z * v.z); }

/* A rotation's axis times angle (the shorter arc, angle in [0, pi]). */
static maniVec3 mani_InertialLog(maniQuat q) {
    if (q.w < 0.0f) {
        q.x = -q.x, q.y = -q.y, q.z = -q.z, q.w = -q.w;
    }
    const maniVec3 xyz = {q.x, q.y, q.z};
    const float sinHalf = mani_InertialLength(xyz);
    const maniVec3 zero = {0.0f, 0.0f, 0.0f};
    if (!(sinHalf > 0.0f)) return zero;
    const float k = (2.0f * mcore_atan2f(sinHalf, q.w)) / sinHalf;
    const maniVec3 r = {q.x * k, q.y * k, q.z * k};
    return r;
}

/* The rotation of an axis times angle. */
static maniQuat mani_InertialExp(maniVec3 v) {
    const float angle = mani_InertialLength(v);
    maniQuat q = {0.0f, 0.0f, 0.0f, 1.0f};
    if (!(angle > 0.0f)) return q;
    float s, c;
    mcore_sincosf(0.5f * angle, &s, &c);
    const float k = s / angle;
    q.x = v.x * k, q.y = v.y * k, q.z = v.z * k, q.w = c;
    return q;
}

static maniVec3 mani_InertialSub(maniVec3 a, maniVec3 b) {
    const maniVec3 r = {a.x - b.x, a.y - b.y, a.z - b.z};
    return r;
}

static maniVec3 mani_InertialScale(maniVec3 a, float k) {
    const maniVec3 r = {a.x * k, a.y * k, a.z * k};
    return r;
}

static maniVec3 mani_InertialMulAdd(maniVec3 a, maniVec3 d, float k) {
    const maniVec3 r = {a.x + d.x * k, a.y + d.y * k, a.z + d.z * k};
    return r;
}

static float mani_InertialDot(maniVec3 a, maniVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/* Bollo's quintic at t: value x0 >= 0, velocity v0 (above 0 taken as 0:
 * no overshoot away) and acceleration a0 = max(0, (-8 v0 t1 - 20 x0) /
 * t1^2) at 0, value, velocity and acceleration 0 at t1 (shortened to -5 x0
 * / v0 when that is less, so the curve never passes 0), 0 from t1 on. */
static float mani_InertialQuintic(float x0, float v0, float t, float t1) {
    if (v0 > 0.0f) v0 = 0.0f;
    if (v0 < 0.0f) {
        const float limit = (-5.0f * x0) / v0;
        if (limit < t1) t1 = limit;
    }
    /* Below a microsecond t1^5 would leave the normal range: a cut. */
    if (!(t < t1) || !(t1 >= 1e-6f) || !(x0 > 0.0f)) return 0.0f;
    const float t2 = t1 * t1, t3 = t2 * t1, t4 = t3 * t1, t5 = t4 * t1;
    float a0 = (-8.0f * v0 * t1 - 20.0f * x0) / t2;
    if (a0 < 0.0f) a0 = 0.0f;
    const float a = -(a0 * t2 + 6.0f * v0 * t1 + 12.0f * x0) / (2.0f * t5);
    const float bq = (3.0f * a0 * t2 + 16.0f * v0 * t1 + 30.0f * x0) / (2.0f * t4);
    const float cq = -(3.0f * a0 * t2 + 12.0f * v0 * t1 + 20.0f * x0) / (2.0f * t3);
    const float dq = 0.5f * a0;
    return ((((a * t + bq) * t + cq) * t + dq) * t + v0) * t + x0;
}

/* A vector offset as its direction, magnitude and speed along it (all 0
 * for no offset). */
static void mani_InertialPutOffset(float* f, maniVec3 offset, maniVec3 velocity) {
    const float x0 = mani_InertialLength(offset);
    const maniVec3 zero = {0.0f, 0.0f, 0.0f};
    const maniVec3 dir = x0 > 0.0f ? mani_InertialScale(offset, 1.0f / x0) : zero;
    mani_InertialPutV3(f, dir);
    f[3] = x0;
    f[4] = x0 > 0.0f ? mani_InertialDot(velocity, dir) : 0.0f;
}

/* Takes a bone's blend record from its last output x, the output before p
 * (their velocity over `step` seconds, none for `velocity` 0) and its
 * input's new pose y. */
static void mani_InertialCapture(const mani_Inertial* o, float* bone, int velocity, float step, const maniTransform* y) {
    const maniTransform x = mani_InertialTransform(bone);
    const maniTransform p = mani_InertialTransform(bone + 10);
    maniVec3 vt = {0.0f, 0.0f, 0.0f}, vr = vt, vs = vt;
    if (velocity && step > 0.0f) {
        const float inv = 1.0f / step;
        vt = mani_InertialScale(mani_InertialSub(x.translation, p.translation), inv);
        vr = mani_InertialScale(
            mani_InertialLog(maniSimdInline_QuatMul(x.rotation, maniSimdInline_QuatConjugate(p.rotation))), inv);
        vs = mani_InertialScale(mani_InertialSub(x.scale, p.scale), inv);
    }
    float* r = bone + 20;
    memset(r, 0, sizeof(float) * 20u);
    if (o->method == maniGraphDeadBlending) {
        mani_InertialPutTransform(r, &x);
        mani_InertialPutV3(r + 10, vt);
        mani_InertialPutV3(r + 13, vr);
        mani_InertialPutV3(r + 16, vs);
        return;
    }
    mani_InertialPutOffset(r, mani_InertialSub(x.translation, y->translation), vt);
    /* The rotation offset x y^-1 as axis and angle (the shorter arc). */
    const maniVec3 turn = mani_InertialLog(maniSimdInline_QuatMul(x.rotation, maniSimdInline_QuatConjugate(y->rotation)));
    mani_InertialPutOffset(r + 5, turn, vr);
    mani_InertialPutOffset(r + 10, mani_InertialSub(x.scale, y->scale), vs);
}

/* A bone's output at t seconds into the blend from its record and its
 * input's pose y. */
static maniTransform mani_InertialApply(const mani_Inertial* o, const float* bone, float t, const maniTransform* y) {
    const float* r = bone + 20;
    maniTransform out = *y;
    if (o->method == maniGraphDeadBlending) {
        /* x + v (h / ln 2)(1 - 2^(-t / h)): the velocity halving every h. */
        const float k = o->halfLife > 0.0f ? (o->halfLife * 1.44269504f) * (1.0f - mcore_exp2f(-t / o->halfLife)) : 0.0f;
        const maniVec3 et = mani_InertialMulAdd(mani_InertialV3(r), mani_InertialV3(r + 10), k);
        const maniQuat x = {r[3], r[4], r[5], r[6]};
        const maniQuat er =
            maniSimdInline_QuatNormalize(maniSimdInline_QuatMul(mani_InertialExp(mani_InertialScale(mani_InertialV3(r + 13), k)), x));
        const maniVec3 es = mani_InertialMulAdd(mani_InertialV3(r + 7), mani_InertialV3(r + 16), k);
        const float s = t / o->duration;
        const float a = s < 1.0f ? s * s * (3.0f - 2.0f * s) : 1.0f;
        out.translation = mani_InertialMulAdd(et, mani_InertialSub(y->translation, et), a);
        out.rotation = maniSimdInline_QuatNlerp(er, y->rotation, a);
        out.scale = mani_InertialMulAdd(es, mani_InertialSub(y->scale, es), a);
        return out;
    }
    const float xt = mani_InertialQuintic(r[3], r[4], t, o->duration);
    out.translation = mani_InertialMulAdd(y->translation, mani_InertialV3(r), xt);
    const float xr = mani_InertialQuintic(r[8], r[9], t, o->duration);
    if (xr > 0.0f)
        out.rotation = maniSimdInline_QuatNormalize(
            maniSimdInline_QuatMul(mani_InertialExp(mani_InertialScale(mani_InertialV3(r + 5), xr)), y->rotation));
    const float xs = mani_InertialQuintic(r[13], r[14], t, o->duration);
    out.scale = mani_InertialMulAdd(y->scale, mani_InertialV3(r + 10), xs);
    return out;
}

/* Whether a transform's ten floats are finite. */
static int mani_InertialFinite(const maniTransform* t) {
    const float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                         t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
    for (int k = 0; k < 10; ++k)
        if (!isfinite(v[k])) return 0;
    return 1;
}

/* Its input's pose with the blend applied, the planned bones alone under a
 * subset (the others keep their outputs and records); keeps each bone's
 * last two outputs, shifted once an update (the same update evaluated again
 * writes the same pose). */
maniResult mani_EvaluateInertialize(const mani_GraphEvalContext* c, uint32_t node) {
    const maniGraphBinding* b = c->binding;
    const mani_GraphNodeRt* n = &b->nodes[node];
    const uint32_t input = b->inputs[n->firstInput].node;
    mani_GraphCopySlot(c, b->nodes[input].slot, n->slot);
    const mani_Inertial o = mani_InertialOf(b, node);
    mani_InertialState* s = mani_InertialStateOf(c->instance, node);
    float* bones = mani_InertialBones(c->instance, node);
    const int capture = s->phase == MANI_GRAPH_INERTIALIZE_FIRED && s->outputs >= 1u;
    const int blending = s->phase == MANI_GRAPH_INERTIALIZE_BLENDING || (capture && o.duration > 0.0f);
    const maniPose* in = mani_GraphSlotPose(c, b->nodes[input].slot);
    maniPose* out = mani_GraphSlotPose(c, n->slot);
    const uint32_t count = c->bones != NULL ? c->boneCount : b->boneCount;
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t bone = c->bones != NULL ? c->bones[i] : i;
        float* f = bones + (size_t)MANI_GRAPH_INERTIALIZE_BONE * bone;
        const maniTransform y = mani_PoseGetLocalRaw(in, bone);
        if (capture) mani_InertialCapture(&o, f, s->outputs >= 2u, s->step, &y);
        if (s->fresh) memcpy(f + 10, f, sizeof(float) * 10u);
        maniTransform result = blending ? mani_InertialApply(&o, f, s->seconds, &y) : y;
        /* A velocity past the float range (two outputs a step near 0 apart,
         * or a restored record near the range) leaves a bone's blend not
         * finite: that bone takes its input as it is. */
        if (blending && !mani_InertialFinite(&result)) result = y;
        if (blending) mani_PoseSetLocalRaw(out, bone, result);
        mani_InertialPutTransform(f, &result);
    }
    if (s->fresh) {
        s->step = s->outputs >= 1u ? s->gap : 0.0f;
        s->gap = 0.0f;
        s->fresh = 0;
        if (s->outputs < 2u) s->outputs++;
    }
    if (s->phase == MANI_GRAPH_INERTIALIZE_FIRED) {
        s->phase = blending ? MANI_GRAPH_INERTIALIZE_BLENDING : MANI_GRAPH_INERTIALIZE_IDLE;
        s->seconds = 0.0f;
    }
    return mani_success;
}
