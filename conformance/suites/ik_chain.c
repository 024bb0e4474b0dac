/* Suite "ik", its chain part: ik.h over seeded chains (lib/anim/test/
 * fixtures/ik_fixtures.h, 3 to 32 bones, side bones carried along) and
 * seeded goals, reachable and not: two-bone solves (pole, twist, hinge,
 * soften, weight, a goal at the start), aims (offset, cone, shares, twist,
 * weight), CCD and FABRIK with every limit kind, step bounds, tolerances,
 * rotation weights, weights and FABRIK's pole; and each solver's refusals.
 * Every case hashes the code, reached and every local of the pose. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/suites/ik.h"
#include "lib/anim/test/fixtures/ik_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/ik.h"

typedef struct mconf_IkRig {
    void* file;
    maniSkeleton s;
    void* memory;
    maniPose* pose;
    void* restMemory;
    maniPose* start; /* the bent pose every case starts from */
    uint32_t n;
    uint32_t c[MANI_MAX_IK_CHAIN_BONES + 4];
} mconf_IkRig;

static int mconf_IkRigOpen(mconf_IkRig* r, uint64_t seed, uint32_t n, uint32_t side, float spread) {
    memset(r, 0, sizeof *r);
    size_t size = 0;
    r->file = maniFixtureBuildIkChain(seed, n, side, &size);
    if (r->file == NULL || maniOpenSkeleton(r->file, size, &r->s).result != mani_success) return 0;
    r->pose = mconf_IkNewPose(&r->s, &r->memory);
    r->start = mconf_IkNewPose(&r->s, &r->restMemory);
    if (r->pose == NULL || r->start == NULL) return 0;
    maniFixtureBendIkPose(r->start, &r->s, seed * 5 + 3, spread);
    r->n = n;
    for (uint32_t k = 0; k < n; ++k) r->c[k] = maniFixtureIkBone(&r->s, k);
    return 1;
}

static void mconf_IkRigClose(mconf_IkRig* r) {
    free(r->memory);
    free(r->restMemory);
    free(r->file);
}

/* The pose back at the start. */
static void mconf_IkReset(mconf_IkRig* r) { memcpy(r->memory, r->restMemory, maniSkeleton_GetPoseSize(&r->s)); }

/* A bone's model origin in the start pose. */
static maniVec3 mconf_IkPos(mconf_IkRig* r, uint32_t bone) {
    mconf_IkReset(r);
    if (maniPose_ComputeModel(r->pose, &r->s) != mani_success) {
        const maniVec3 z = {0, 0, 0};
        return z;
    }
    const maniVec3 p = maniPose_GetModel(r->pose, bone).columns[3];
    mconf_IkReset(r);
    return p;
}

static maniVec3 mconf_IkDir(mcore_Rng* rng) {
    for (;;) {
        /* one draw a statement: the order of a call's arguments or an
         * initializer's expressions is not fixed */
        maniVec3 v;
        v.x = mcore_RngFloatRange(rng, -1, 1);
        v.y = mcore_RngFloatRange(rng, -1, 1);
        v.z = mcore_RngFloatRange(rng, -1, 1);
        const float l = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
        if (l > 0.1f && l <= 1.0f) {
            v.x /= l, v.y /= l, v.z /= l;
            return v;
        }
    }
}

static maniVec3 mconf_IkAt(maniVec3 o, maniVec3 d, float s) {
    const maniVec3 p = {o.x + d.x * s, o.y + d.y * s, o.z + d.z * s};
    return p;
}

static float mconf_IkReach(mconf_IkRig* r, uint32_t from, uint32_t to) {
    float l = 0;
    for (uint32_t k = from; k < to; ++k) {
        const maniVec3 a = mconf_IkPos(r, r->c[k]), b = mconf_IkPos(r, r->c[k + 1]);
        l += sqrtf((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
    }
    return l;
}

/* -- Two-bone ----------------------------------------------------------------- */

static void mconf_IkTwoBone(mconf_Run* run) {
    static const char* variants[] = {"reach", "far", "near", "pole-twist", "hinge", "soften", "weight", "start"};
    char name[96];
    for (uint64_t seed = 1; seed <= 8; ++seed) {
        mconf_IkRig r;
        if (!mconf_IkRigOpen(&r, 0x1C0 + seed, 4, (uint32_t)(seed % 3), 1.2f)) {
            snprintf(name, sizeof name, "twobone-%u-build-failed", (unsigned)seed);
            mconf_Record(run, name, 0);
            mconf_IkRigClose(&r);
            continue;
        }
        mcore_Rng rng;
        mcore_RngSeed(&rng, 0x2B0 + seed);
        const maniVec3 s = mconf_IkPos(&r, r.c[0]);
        const float reach = mconf_IkReach(&r, 0, 2);
        for (int v = 0; v < 8; ++v) {
            maniTwoBoneSolve t;
            memset(&t, 0, sizeof t);
            t.startBone = r.c[0];
            t.middleBone = r.c[1];
            t.endBone = seed % 2 ? r.c[2] : r.c[3];
            t.soften = 1;
            t.weight = 1;
            const maniVec3 dir = mconf_IkDir(&rng);
            float d = reach * mcore_RngFloatRange(&rng, 0.2f, 0.9f);
            if (v == 1) d = reach * 1.5f;
            if (v == 2) d = reach * 0.01f;
            if (v == 7) d = 0;
            t.goal = mconf_IkAt(s, dir, d);
            if (v == 3 || v == 4) {
                t.pole = mconf_IkDir(&rng);
                t.twist = mcore_RngFloatRange(&rng, -3, 3);
            }
            if (v == 4) t.hinge = mconf_IkDir(&rng);
            if (v == 5) t.soften = 0.7f, t.goal = mconf_IkAt(s, dir, reach * 0.95f);
            if (v == 6) t.weight = 0.4f, t.pole = mconf_IkDir(&rng);
            mconf_IkReset(&r);
            bool reached = false;
            const maniResult res = maniPose_SolveTwoBone(r.pose, &r.s, &t, &reached);
            snprintf(name, sizeof name, "twobone-%u-%s", (unsigned)seed, variants[v]);
            mconf_IkRecordSolve(run, name, res, reached, r.pose);
            if (v == 3) { /* the solve on its own result */
                const maniResult again = maniPose_SolveTwoBone(r.pose, &r.s, &t, &reached);
                snprintf(name, sizeof name, "twobone-%u-again", (unsigned)seed);
                mconf_IkRecordSolve(run, name, again, reached, r.pose);
            }
        }
        mconf_IkRigClose(&r);
    }
}

/* -- Aim ---------------------------------------------------------------------- */

static void mconf_IkAim(mconf_Run* run) {
    static const char* variants[] = {"one", "offset", "cone", "shares", "twist", "weight", "pole", "at-bone"};
    char name[96];
    for (uint64_t seed = 1; seed <= 8; ++seed) {
        mconf_IkRig r;
        if (!mconf_IkRigOpen(&r, 0xA10 + seed, 6, (uint32_t)(seed % 2), 0.8f)) {
            snprintf(name, sizeof name, "aim-%u-build-failed", (unsigned)seed);
            mconf_Record(run, name, 0);
            mconf_IkRigClose(&r);
            continue;
        }
        mcore_Rng rng;
        mcore_RngSeed(&rng, 0xA1A + seed);
        const maniVec3 o = mconf_IkPos(&r, r.c[5]);
        for (int v = 0; v < 8; ++v) {
            maniAimSolve a;
            memset(&a, 0, sizeof a);
            a.count = 1;
            a.bones[0] = r.c[5];
            a.shares[0] = 1;
            a.forward = mconf_IkDir(&rng);
            a.up = mconf_IkDir(&rng);
            a.cone = MANI_AIM_MAX_CONE;
            a.weight = 1;
            const maniVec3 goalDir = mconf_IkDir(&rng);
            a.goal = mconf_IkAt(o, goalDir, mcore_RngFloatRange(&rng, 0.5f, 6));
            if (v == 1) a.offset = mconf_IkAt(a.offset, mconf_IkDir(&rng), 0.3f);
            if (v == 2) a.cone = mcore_RngFloatRange(&rng, 0.05f, 1.0f);
            if (v == 3 || v == 4) {
                a.count = 4;
                for (uint32_t k = 0; k < 4; ++k) {
                    a.bones[k] = r.c[2 + k];
                    a.shares[k] = k == 1 ? 0 : mcore_RngFloatRange(&rng, 0.1f, 2);
                }
            }
            if (v == 4) a.twist = mcore_RngFloatRange(&rng, -2, 2);
            if (v == 5) a.weight = 0.3f, a.pole = mconf_IkDir(&rng);
            if (v == 6) a.pole = mconf_IkDir(&rng), a.twist = 0.4f, a.offset = mconf_IkAt(a.offset, a.up, 0.1f);
            if (v == 7) a.goal = o;
            mconf_IkReset(&r);
            bool reached = false;
            const maniResult res = maniPose_SolveAim(r.pose, &r.s, &a, &reached);
            snprintf(name, sizeof name, "aim-%u-%s", (unsigned)seed, variants[v]);
            mconf_IkRecordSolve(run, name, res, reached, r.pose);
        }
        mconf_IkRigClose(&r);
    }
}

/* -- CCD and FABRIK ----------------------------------------------------------- */

typedef maniResult (*mconf_IkChainSolver)(maniPose*, const maniSkeleton*, const maniChainSolve*, bool*);

static void mconf_IkChains(mconf_Run* run, int fabrik) {
    static const char* limitNames[] = {"free", "hinge", "cone", "twist", "conetwist", "mixed"};
    static const uint32_t lengths[] = {3, 6, 12, 32};
    const char* solverName = fabrik ? "fabrik" : "ccd";
    const mconf_IkChainSolver solver = fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd;
    char name[96];
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li) {
        const uint32_t n = lengths[li];
        mconf_IkRig r;
        if (!mconf_IkRigOpen(&r, 0xCC0 + n, n, 2, 0.7f)) {
            snprintf(name, sizeof name, "%s-%u-build-failed", solverName, n);
            mconf_Record(run, name, 0);
            mconf_IkRigClose(&r);
            continue;
        }
        mcore_Rng rng;
        mcore_RngSeed(&rng, 0xCCC + n + (fabrik ? 1000u : 0u));
        const maniVec3 root = mconf_IkPos(&r, r.c[0]);
        const float reach = mconf_IkReach(&r, 0, n - 1);
        maniChainLimit limits[MANI_MAX_IK_CHAIN_BONES];
        for (int kind = 0; kind < 6; ++kind) {
            for (int far = 0; far < 2; ++far) {
                maniChainSolve c;
                memset(&c, 0, sizeof c);
                c.rootBone = r.c[0];
                c.endBone = r.c[n - 1];
                const maniVec3 goalDir = mconf_IkDir(&rng);
                c.goal = mconf_IkAt(root, goalDir, reach * (far ? 1.4f : mcore_RngFloatRange(&rng, 0.2f, 0.8f)));
                c.rotation.x = mcore_RngFloatRange(&rng, -1, 1);
                c.rotation.y = mcore_RngFloatRange(&rng, -1, 1);
                c.rotation.z = mcore_RngFloatRange(&rng, -1, 1);
                c.rotation.w = 1;
                c.rotationWeight = far ? 0 : 0.6f;
                c.iterations = far ? 40 : 12;
                c.tolerance = 1e-3f * reach;
                c.step = fabrik ? 0 : (far ? 0 : 0.3f);
                c.weight = kind == 5 && far ? 0.7f : 1;
                if (fabrik && !far) c.pole = mconf_IkDir(&rng);
                uint32_t count = 0;
                for (uint32_t k = 0; kind > 0 && k + 1 < n; ++k) {
                    maniChainLimit* l = &limits[count++];
                    memset(l, 0, sizeof *l);
                    l->bone = r.c[k];
                    l->limit.kind = kind == 5 ? (uint32_t)(k % 5) : (uint32_t)kind;
                    mconf_IkReset(&r);
                    const maniVec3 t = maniPose_GetLocal(r.pose, r.c[k + 1]).translation;
                    maniVec3 h = mconf_IkDir(&rng);
                    /* the hinge perpendicular to the bone: h x t normalized */
                    maniVec3 x = {h.y * t.z - h.z * t.y, h.z * t.x - h.x * t.z, h.x * t.y - h.y * t.x};
                    const float xl = sqrtf(x.x * x.x + x.y * x.y + x.z * x.z);
                    if (xl > 1e-3f) x.x /= xl, x.y /= xl, x.z /= xl;
                    else x.x = 1, x.y = 0, x.z = 0;
                    l->limit.axis = x;
                    l->limit.minAngle = -mcore_RngFloatRange(&rng, 0, 1.2f);
                    l->limit.maxAngle = mcore_RngFloatRange(&rng, 0, 1.2f);
                    l->limit.cone = mcore_RngFloatRange(&rng, 0.1f, 1.2f);
                }
                c.limits = limits;
                c.limitCount = count;
                mconf_IkReset(&r);
                bool reached = false;
                const maniResult res = solver(r.pose, &r.s, &c, &reached);
                snprintf(name, sizeof name, "%s-%u-%s-%s", solverName, n, limitNames[kind], far ? "far" : "near");
                mconf_IkRecordSolve(run, name, res, reached, r.pose);
            }
        }
        mconf_IkRigClose(&r);
    }
}

/* -- Refusals ----------------------------------------------------------------- */

static void mconf_IkRefusals(mconf_Run* run) {
    mconf_IkRig r;
    if (!mconf_IkRigOpen(&r, 0xBAD, 5, 1, 0.5f)) {
        mconf_Record(run, "refusals-build-failed", 0);
        mconf_IkRigClose(&r);
        return;
    }
    mconf_Bytes b = {0};
    bool reached = false;
    maniTwoBoneSolve t;
    memset(&t, 0, sizeof t);
    t.startBone = r.c[0], t.middleBone = r.c[1], t.endBone = r.c[2], t.soften = 1, t.weight = 1;
    maniTwoBoneSolve tb = t;
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveTwoBone(NULL, &r.s, &t, &reached));
    tb.startBone = r.c[1], tb.middleBone = r.c[0];
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveTwoBone(r.pose, &r.s, &tb, &reached));
    tb = t, tb.soften = 1.5f;
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveTwoBone(r.pose, &r.s, &tb, &reached));
    tb = t, tb.goal.x = NAN;
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveTwoBone(r.pose, &r.s, &tb, &reached));
    mconf_RecordBytes(run, "twobone-refusals", &b);

    maniAimSolve a;
    memset(&a, 0, sizeof a);
    a.count = 1, a.bones[0] = r.c[4], a.shares[0] = 1, a.forward.z = 1, a.cone = 1, a.weight = 1;
    maniAimSolve ab = a;
    ab.count = MANI_MAX_AIM_BONES + 1;
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveAim(r.pose, &r.s, &ab, &reached));
    ab = a, ab.count = 0;
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveAim(r.pose, &r.s, &ab, &reached));
    ab = a, ab.forward.z = 1.01f;
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveAim(r.pose, &r.s, &ab, &reached));
    ab = a, ab.cone = 4;
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveAim(r.pose, &r.s, &ab, &reached));
    ab = a, ab.shares[0] = 0;
    mconf_BytesU32(&b, (uint32_t)maniPose_SolveAim(r.pose, &r.s, &ab, &reached));
    mconf_RecordBytes(run, "aim-refusals", &b);

    for (int fabrik = 0; fabrik < 2; ++fabrik) {
        const mconf_IkChainSolver solver = fabrik ? maniPose_SolveFabrik : maniPose_SolveCcd;
        maniChainSolve c;
        memset(&c, 0, sizeof c);
        c.rootBone = r.c[0], c.endBone = r.c[4], c.rotation.w = 1, c.iterations = 4, c.weight = 1;
        maniChainLimit l;
        memset(&l, 0, sizeof l);
        l.bone = r.c[1];
        l.limit.kind = maniJointLimitHinge;
        l.limit.axis = maniPose_GetLocal(r.pose, r.c[2]).translation; /* along the bone */
        const float al = sqrtf(l.limit.axis.x * l.limit.axis.x + l.limit.axis.y * l.limit.axis.y +
                               l.limit.axis.z * l.limit.axis.z);
        l.limit.axis.x /= al, l.limit.axis.y /= al, l.limit.axis.z /= al;
        maniChainSolve cb = c;
        cb.limits = &l, cb.limitCount = 1;
        mconf_BytesU32(&b, (uint32_t)solver(r.pose, &r.s, &cb, &reached));
        l.limit.kind = 9;
        mconf_BytesU32(&b, (uint32_t)solver(r.pose, &r.s, &cb, &reached));
        cb = c, cb.iterations = MANI_MAX_IK_ITERATIONS + 1;
        mconf_BytesU32(&b, (uint32_t)solver(r.pose, &r.s, &cb, &reached));
        cb = c, cb.iterations = 0;
        mconf_BytesU32(&b, (uint32_t)solver(r.pose, &r.s, &cb, &reached));
        cb = c, cb.pole.y = 1;
        mconf_BytesU32(&b, (uint32_t)solver(r.pose, &r.s, &cb, &reached));
        cb = c, cb.step = 0.5f;
        mconf_BytesU32(&b, (uint32_t)solver(r.pose, &r.s, &cb, &reached));
        cb = c, cb.rotation.w = 0;
        mconf_BytesU32(&b, (uint32_t)solver(r.pose, &r.s, &cb, &reached));
        mconf_RecordBytes(run, fabrik ? "fabrik-refusals" : "ccd-refusals", &b);
    }
    mconf_BytesFree(&b);
    mconf_IkRigClose(&r);
}

void mconf_IkChain(mconf_Run* run) {
    mconf_IkTwoBone(run);
    mconf_IkAim(run);
    mconf_IkChains(run, 0);
    mconf_IkChains(run, 1);
    mconf_IkRefusals(run);
}
