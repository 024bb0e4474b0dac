/* Suite "springs": seeded spring rigs (hair, tails and strips on a spine
 * and head; every collider kind, every limit kind, centers) driven by
 * seeded motion for 10 s at host rates of 30, 60 and 144 Hz, at step rates
 * of 60 and 90: per run the number of calls, the steps run (from the
 * state's saved time), the hash of every applied pose's spring joints, and
 * the final saved state. Runs of one rig under still inputs at the three
 * host rates give the same tails (recorded once per rate, equal hashes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/test/fixtures/spring_fixtures.h"
#include "maul/anim/base.h"
#include "maul/anim/pose.h"
#include "maul/anim/spring.h"

void mconf_SuiteSprings(mconf_Run* run);

typedef struct {
    uint64_t seed;
    uint32_t chains, length, colliders;
    float stepRate;
} mconf_SpringCase;

static const mconf_SpringCase mconf_springCases[] = {
    {0x5350, 2, 4, 3, 60.0f},
    {0x5351, 5, 6, 8, 60.0f},
    {0x5352, 8, 3, 10, 90.0f},
};

static void* mconf_Aligned(size_t size) {
    void* p = NULL;
    const size_t rounded = (size + 31u) & ~(size_t)31u;
    p = aligned_alloc(32, rounded ? rounded : 32);
    if (p) memset(p, 0, rounded ? rounded : 32);
    return p;
}

/* The locals of every bone of a pose, hashed on from h. */
static uint64_t mconf_HashPose(uint64_t h, const maniPose* pose) {
    const uint32_t n = maniPose_GetBoneCount(pose);
    for (uint32_t i = 0; i < n; ++i) {
        const maniTransform t = maniPose_GetLocal(pose, i);
        h = maniHash64(h, &t, (int64_t)sizeof t);
    }
    return h;
}

void mconf_SuiteSprings(mconf_Run* run) {
    char name[96];
    const double hosts[3] = {30.0, 60.0, 144.0};
    for (size_t k = 0; k < sizeof mconf_springCases / sizeof mconf_springCases[0]; ++k) {
        const mconf_SpringCase* c = &mconf_springCases[k];
        maniFixtureSpringRig rig;
        snprintf(name, sizeof name, "springs-%zu-%ux%u-k%u-%g", k, c->chains, c->length, c->colliders,
                 (double)c->stepRate);
        char* tail = name + strlen(name);
        const size_t room = sizeof name - (size_t)(tail - name);
        if (maniFixtureMakeSpringRig(&rig, c->seed, c->chains, c->length, c->colliders, c->stepRate) != 0) {
            snprintf(tail, room, "-rig-failed");
            mconf_Record(run, name, 0);
            continue;
        }
        snprintf(tail, room, "-set");
        mconf_Record(run, name, maniSpringSet_GetIdentity(&rig.set));
        const size_t poseSize = maniSkeleton_GetPoseSize(&rig.skeleton);
        const size_t stateSize = maniSpringSet_GetStateSize(&rig.set);
        void* poseMemory = mconf_Aligned(poseSize);
        void* stateMemory = mconf_Aligned(stateSize);
        void* saved = NULL;
        maniPose* pose = NULL;
        maniSpringState* state = NULL;
        for (int still = 0; still < 2; ++still) {
            for (int h = 0; h < 3; ++h) {
                snprintf(tail, room, "-%s-host%g", still ? "still" : "moving", hosts[h]);
                char* end = name + strlen(name);
                const size_t endRoom = sizeof name - (size_t)(end - name);
                if (!poseMemory || !stateMemory || maniInitPose(&rig.skeleton, poseMemory, poseSize, &pose) != mani_success ||
                    maniInitSpringState(&rig.set, &rig.skeleton, stateMemory, stateSize, &state) != mani_success) {
                    snprintf(end, endRoom, "-init-failed");
                    mconf_Record(run, name, 0);
                    continue;
                }
                const uint32_t calls = (uint32_t)(10.0 * hosts[h] + 0.5);
                uint64_t hash = 0;
                uint32_t failures = 0;
                for (uint32_t i = 1; i <= calls; ++i) {
                    maniTransform placement;
                    maniFixtureSpringMotion(&rig, c->seed, still ? 0.0 : i / hosts[h], pose, &placement);
                    if (maniSpringState_Step(state, pose, &placement, NULL, (float)(1.0 / hosts[h])) != mani_success)
                        failures++;
                    if (maniSpringState_Apply(state, pose) != mani_success) failures++;
                    hash = mconf_HashPose(hash, pose);
                }
                snprintf(end, endRoom, "-calls");
                mconf_Record(run, name, calls | ((uint64_t)failures << 32));
                snprintf(end, endRoom, "-poses");
                mconf_Record(run, name, still ? 0 : hash);
                size_t size = 0;
                if (maniSpringState_Save(state, NULL, 0, &size) != mani_errorCapacity) size = 0;
                free(saved);
                saved = mconf_Aligned(size);
                if (saved && maniSpringState_Save(state, saved, size, &size) == mani_success) {
                    /* Steps run: 10 s at the step rate, less the time kept. */
                    double since = 0.0;
                    memcpy(&since, (const uint8_t*)saved + 64 + 24 * 4 + 24, 8);
                    snprintf(end, endRoom, "-steps");
                    mconf_Record(run, name, (uint64_t)(10.0 * c->stepRate - since + 0.5));
                    /* The tails (the state's last section): the same at
                     * every host rate under still inputs. */
                    uint64_t at = 0, n = 0;
                    memcpy(&at, (const uint8_t*)saved + 64 + 24 * 3 + 8, 8);
                    memcpy(&n, (const uint8_t*)saved + 64 + 24 * 3 + 16, 8);
                    snprintf(end, endRoom, "-tails");
                    mconf_Record(run, name, at + n <= size ? maniHash64(0, (const uint8_t*)saved + at, (int64_t)n) : 0);
                    snprintf(end, endRoom, "-state");
                    mconf_Record(run, name, still ? 0 : maniHash64(0, saved, (int64_t)size));
                } else {
                    snprintf(end, endRoom, "-save-failed");
                    mconf_Record(run, name, 0);
                }
            }
        }
        free(saved);
        free(poseMemory);
        free(stateMemory);
        maniFixtureFreeSpringRig(&rig);
    }
}
