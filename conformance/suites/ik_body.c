/* Suite "ik", its full-body part: bodyik.h over the seeded bodies of
 * lib/anim/test/fixtures/bodyik_fixtures.h (a 22-bone humanoid, a 128-bone
 * star, chains) from seeded bent starts, goals reachable (the effectors of
 * the body bent otherwise) and not: every top mode, rotation goals, soft
 * effectors, rotation stiffness (locked bones too), stretch (XPBD), every
 * limit kind, preferred angles, pull chains with pre-pull, early stops and
 * the refusals. Each case hashes the code, reached and every local of the
 * pose. Cases prefixed xpbd- and sdls-. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/suites/ik.h"
#include "lib/anim/test/fixtures/bodyik_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/bodyik.h"

typedef maniResult (*mconf_BodySolver)(maniPose*, const maniSkeleton*, const maniBodySolve*, void*, size_t, bool*);

typedef struct mconf_BodyRig {
    maniFixtureBody body;
    void* file;
    maniSkeleton s;
    void* memory;
    maniPose* pose;
    void* startMemory;
    maniPose* start;
    size_t poseSize;
    maniBodyEffector effectors[MANI_MAX_BODY_IK_EFFECTORS];
    maniBodyBoneSettings settings[8];
    maniBodySolve solve;
} mconf_BodyRig;

/* Every bone's local turned by a seeded small rotation (x, y, z, 1) of up to
 * `spread` a component, normalized in binary32 by the library's own
 * blend-free path: the components are left as drawn and the solvers
 * normalize. */
static void mconf_BodyBend(maniPose* pose, uint64_t seed, float spread, uint32_t first) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed);
    for (uint32_t b = first; b < maniPose_GetBoneCount(pose); ++b) {
        maniTransform t = maniPose_GetLocal(pose, b);
        const float x = mcore_RngFloatRange(&rng, -spread, spread), y = mcore_RngFloatRange(&rng, -spread, spread);
        const float z = mcore_RngFloatRange(&rng, -spread, spread);
        const maniQuat q = t.rotation;
        t.rotation.x = q.x + x * q.w + y * q.z - z * q.y;
        t.rotation.y = q.y - x * q.z + y * q.w + z * q.x;
        t.rotation.z = q.z + x * q.y - y * q.x + z * q.w;
        t.rotation.w = q.w - x * q.x - y * q.y - z * q.z;
        maniPose_SetLocal(pose, b, t);
    }
}

static int mconf_BodyRigOpen(mconf_BodyRig* r, uint64_t seed, maniFixtureBodyShape shape, uint32_t chain) {
    memset(r, 0, sizeof *r);
    r->body = maniFixtureMakeBody(seed, shape, chain);
    size_t size = 0;
    r->file = maniFixtureBuildSkeleton(&r->body.source, &size);
    if (r->file == NULL || maniOpenSkeleton(r->file, size, &r->s).result != mani_success) return 0;
    r->pose = mconf_IkNewPose(&r->s, &r->memory);
    r->start = mconf_IkNewPose(&r->s, &r->startMemory);
    if (r->pose == NULL || r->start == NULL) return 0;
    r->poseSize = maniSkeleton_GetPoseSize(&r->s);
    mconf_BodyBend(r->start, seed * 7 + 1, 0.1f, 0);
    for (uint32_t j = 0; j < r->body.effectorCount; ++j) {
        maniBodyEffector* e = &r->effectors[j];
        e->bone = r->body.effectors[j];
        e->rotation.w = 1.0f;
        e->strength = 1.0f;
    }
    r->solve.effectors = r->effectors;
    r->solve.effectorCount = r->body.effectorCount;
    r->solve.settings = r->settings;
    r->solve.iterations = 16;
    r->solve.tolerance = 1e-3f;
    return 1;
}

static void mconf_BodyRigClose(mconf_BodyRig* r) {
    free(r->memory);
    free(r->startMemory);
    free(r->file);
    maniFixtureFreeBody(&r->body);
}

/* Goals: the effectors' model frames in the start bent by a seed (the top
 * left as it is when held). */
static void mconf_BodyGoals(mconf_BodyRig* r, uint64_t seed, float spread) {
    memcpy(r->memory, r->startMemory, r->poseSize);
    mconf_BodyBend(r->pose, seed, spread, r->solve.topMode == maniBodyTopHeld ? 1u : 0u);
    if (maniPose_ComputeModel(r->pose, &r->s) != mani_success) return;
    for (uint32_t j = 0; j < r->solve.effectorCount; ++j) {
        const maniTransform m = maniPose_GetModelTransform(r->pose, r->effectors[j].bone);
        r->effectors[j].goal = m.translation;
        r->effectors[j].rotation = m.rotation;
    }
}

static void mconf_BodyRun(mconf_Run* run, mconf_BodyRig* r, const char* name) {
    static const mconf_BodySolver solvers[2] = {maniPose_SolveBodyXpbd, maniPose_SolveBodySdls};
    static const char* const prefixes[2] = {"xpbd", "sdls"};
    for (int k = 0; k < 2; ++k) {
        char full[128];
        snprintf(full, sizeof full, "%s-%s", prefixes[k], name);
        memcpy(r->memory, r->startMemory, r->poseSize);
        size_t size = maniSkeleton_GetBodyIkScratchSize(&r->s, &r->solve);
        void* scratch = aligned_alloc(64, size ? (size + 63) / 64 * 64 : 64);
        bool reached = false;
        const maniResult res = scratch == NULL ? mani_errorCapacity
                                               : solvers[k](r->pose, &r->s, &r->solve, scratch, size, &reached);
        mconf_IkRecordSolve(run, full, res, reached, r->pose);
        free(scratch);
    }
}

static maniBodyBoneSettings* mconf_BodySetting(mconf_BodyRig* r, uint32_t bone) {
    maniBodyBoneSettings* s = &r->settings[r->solve.settingCount++];
    memset(s, 0, sizeof *s);
    s->bone = bone;
    s->positionStiffness = 1.0f;
    return s;
}

void mconf_IkBody(mconf_Run* run) {
    static const char* const modes[3] = {"held", "pinned", "free"};
    char name[96];
    mconf_BodyRig r;
    /* humanoids: every top mode, reachable goals, 4 and 32 iterations */
    for (uint64_t seed = 1; seed <= 3; ++seed)
        for (int mode = 0; mode < 3; ++mode) {
            if (!mconf_BodyRigOpen(&r, seed, maniFixtureBodyHumanoid, 0)) {
                snprintf(name, sizeof name, "humanoid-%u-setup-failed", (unsigned)seed);
                mconf_Record(run, name, 0);
                mconf_BodyRigClose(&r);
                continue;
            }
            r.solve.topMode = (maniBodyTopMode)mode;
            mconf_BodyGoals(&r, seed * 13 + (uint64_t)mode, 0.25f);
            r.solve.iterations = 4;
            snprintf(name, sizeof name, "humanoid-%u-%s-reach-4", (unsigned)seed, modes[mode]);
            mconf_BodyRun(run, &r, name);
            r.solve.iterations = 32;
            snprintf(name, sizeof name, "humanoid-%u-%s-reach-32", (unsigned)seed, modes[mode]);
            mconf_BodyRun(run, &r, name);
            /* rotation goals on the hands and head, soft feet */
            r.effectors[0].rotationWeight = 1.0f;
            r.effectors[1].rotationWeight = 0.5f;
            r.effectors[4].rotationWeight = 0.25f;
            r.effectors[2].strength = 0.5f;
            r.effectors[3].strength = 0.0f;
            snprintf(name, sizeof name, "humanoid-%u-%s-rotations", (unsigned)seed, modes[mode]);
            mconf_BodyRun(run, &r, name);
            /* settings: stiffness (one locked), every limit kind, preferred angles */
            maniBodyBoneSettings* s = mconf_BodySetting(&r, 1);
            s->rotationStiffness = 0.6f;
            s->limit.kind = maniJointLimitConeTwist;
            s->limit.cone = 0.3f, s->limit.minAngle = -0.2f, s->limit.maxAngle = 0.25f;
            s = mconf_BodySetting(&r, 8);
            s->limit.kind = maniJointLimitHinge;
            s->limit.axis.z = 1.0f, s->limit.minAngle = 0.0f, s->limit.maxAngle = 2.5f;
            s->preferredAngles.z = 0.4f;
            s = mconf_BodySetting(&r, 15);
            s->limit.kind = maniJointLimitHinge;
            s->limit.axis.x = 1.0f, s->limit.minAngle = -2.5f, s->limit.maxAngle = 0.0f;
            s->preferredAngles.x = -0.3f;
            s = mconf_BodySetting(&r, 7);
            s->limit.kind = maniJointLimitCone;
            s->limit.cone = 0.8f;
            s = mconf_BodySetting(&r, 11);
            s->limit.kind = maniJointLimitTwist;
            s->limit.minAngle = -0.5f, s->limit.maxAngle = 0.5f;
            s->rotationStiffness = 0.3f;
            s = mconf_BodySetting(&r, 3);
            s->rotationStiffness = 1.0f;
            snprintf(name, sizeof name, "humanoid-%u-%s-settings", (unsigned)seed, modes[mode]);
            mconf_BodyRun(run, &r, name);
            /* far goals with pull chains and pre-pull */
            for (uint32_t j = 0; j < 5; ++j) {
                r.effectors[j].goal.x += 1.5f;
                r.effectors[j].goal.z -= 0.5f;
                r.effectors[j].pullChain = 0.2f * (float)(j + 1);
                r.effectors[j].strength = 1.0f;
            }
            r.solve.prePull = 0.75f;
            snprintf(name, sizeof name, "humanoid-%u-%s-pull", (unsigned)seed, modes[mode]);
            mconf_BodyRun(run, &r, name);
            /* a tolerance the start meets: no iteration */
            r.solve.tolerance = 100.0f;
            snprintf(name, sizeof name, "humanoid-%u-%s-tolerance", (unsigned)seed, modes[mode]);
            mconf_BodyRun(run, &r, name);
            mconf_BodyRigClose(&r);
        }

    /* chains: an unreachable goal, a hinge along the bones, stretch (XPBD;
     * SDLS refuses it) */
    for (uint32_t n = 4; n <= 16; n *= 2) {
        if (!mconf_BodyRigOpen(&r, n, maniFixtureBodyChain, n)) {
            snprintf(name, sizeof name, "chain-%u-setup-failed", n);
            mconf_Record(run, name, 0);
            mconf_BodyRigClose(&r);
            continue;
        }
        r.solve.topMode = maniBodyTopPinned;
        r.effectors[0].goal.x = 0.2f * (float)n, r.effectors[0].goal.y = (float)n;
        r.solve.iterations = 24;
        snprintf(name, sizeof name, "chain-%u-unreachable", n);
        mconf_BodyRun(run, &r, name);
        maniBodyBoneSettings* s = mconf_BodySetting(&r, 1);
        s->limit.kind = maniJointLimitHinge;
        s->limit.axis.x = 1.0f, s->limit.minAngle = -0.1f, s->limit.maxAngle = 0.1f;
        snprintf(name, sizeof name, "chain-%u-hinge-along", n);
        mconf_BodyRun(run, &r, name);
        for (uint32_t b = 2; b < n && r.solve.settingCount < 8; ++b)
            mconf_BodySetting(&r, b)->positionStiffness = 0.5f;
        snprintf(name, sizeof name, "chain-%u-stretch", n);
        mconf_BodyRun(run, &r, name);
        mconf_BodyRigClose(&r);
    }

    /* the star: 128 bones, 32 effectors, a free top */
    if (mconf_BodyRigOpen(&r, 5, maniFixtureBodyStar, 0)) {
        r.solve.topMode = maniBodyTopFree;
        mconf_BodyGoals(&r, 77, 0.3f);
        r.solve.iterations = 2;
        mconf_BodyRun(run, &r, "star-128-reach-2");
        for (uint32_t j = 0; j < 32; j += 3) r.effectors[j].rotationWeight = 0.5f;
        mconf_BodyRun(run, &r, "star-128-rotations-2");
    } else {
        mconf_Record(run, "star-128-setup-failed", 0);
    }
    mconf_BodyRigClose(&r);

    /* refusals (each solver's code, the pose unchanged) */
    if (mconf_BodyRigOpen(&r, 9, maniFixtureBodyHumanoid, 0)) {
        r.solve.topMode = maniBodyTopPinned;
        mconf_BodyGoals(&r, 3, 0.2f);
        const maniBodySolve good = r.solve;
        r.solve.iterations = MANI_MAX_IK_ITERATIONS + 1;
        mconf_BodyRun(run, &r, "refuse-iterations");
        r.solve = good;
        r.solve.top = 14;
        mconf_BodyRun(run, &r, "refuse-not-below-top");
        r.solve = good;
        r.solve.topMode = (maniBodyTopMode)3;
        mconf_BodyRun(run, &r, "refuse-top-mode");
        r.solve = good;
        r.effectors[1].bone = r.effectors[0].bone;
        mconf_BodyRun(run, &r, "refuse-effector-twice");
        r.effectors[1].bone = r.body.effectors[1];
        r.effectors[2].rotation.x = r.effectors[2].rotation.y = r.effectors[2].rotation.z = 0.0f;
        r.effectors[2].rotation.w = 0.0f;
        mconf_BodyRun(run, &r, "refuse-rotation-zero");
    } else {
        mconf_Record(run, "refuse-setup-failed", 0);
    }
    mconf_BodyRigClose(&r);
}
