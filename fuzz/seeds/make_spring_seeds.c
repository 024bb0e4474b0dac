/* Writes the seed corpora of spring_open_fuzzer (spring set files of the
 * harnesses' rig and of smaller rigs) and spring_restore_fuzzer (saved
 * states of the harnesses' rig: fresh, after a call short of a step, and
 * after seconds of seeded motion).
 * Run: bazel run //fuzz/seeds:make_spring_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/seeds/seed_file.h"
#include "fuzz/spring_fuzz.h"
#include "maul/anim/pose.h"
#include "maul/anim/spring.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_spring_seeds CORPUS_DIR\n");
        return 2;
    }
    char openDir[2048], restoreDir[2048], name[64];
    snprintf(openDir, sizeof openDir, "%s/spring_open_fuzzer", argv[1]);
    snprintf(restoreDir, sizeof restoreDir, "%s/spring_restore_fuzzer", argv[1]);
    int status = 0;
    const maniFixtureSpringRig* rig = maul_FuzzSpringRig();
    status |= maul_WriteSeed(openDir, "rig-3x4-k5", rig->setFile, rig->setSize);
    const uint32_t shapes[3][3] = {{1, 2, 0}, {2, 3, 5}, {1, 5, 1}};
    for (int k = 0; k < 3; ++k) {
        maniFixtureSpringRig small;
        if (maniFixtureMakeSpringRig(&small, 11 + k, shapes[k][0], shapes[k][1], shapes[k][2], 30.0f + 30 * k) != 0) return 1;
        snprintf(name, sizeof name, "rig-%ux%u-k%u", shapes[k][0], shapes[k][1], shapes[k][2]);
        status |= maul_WriteSeed(openDir, name, small.setFile, small.setSize);
        maniFixtureFreeSpringRig(&small);
    }
    const size_t stateSize = maniSpringSet_GetStateSize(&rig->set), poseSize = maniSkeleton_GetPoseSize(&rig->skeleton);
    void* stateMemory = maul_FuzzAligned(stateSize);
    void* poseMemory = maul_FuzzAligned(poseSize);
    maniSpringState* state = NULL;
    maniPose* pose = NULL;
    if (!stateMemory || !poseMemory || maniInitSpringState(&rig->set, &rig->skeleton, stateMemory, stateSize, &state) ||
        maniInitPose(&rig->skeleton, poseMemory, poseSize, &pose))
        return 1;
    const double times[4] = {0, 0.005, 0.5, 2.0};
    double t = 0;
    for (int k = 0; k < 4; ++k) {
        while (t < times[k]) {
            const double dt = times[k] < 0.01 ? times[k] : 1.0 / 45;
            t += dt;
            maniTransform placement;
            maniFixtureSpringMotion(rig, 5, t, pose, &placement);
            if (maniSpringState_Step(state, pose, &placement, NULL, (float)dt) != mani_success) return 1;
        }
        size_t n = 0;
        if (maniSpringState_Save(state, NULL, 0, &n) != mani_errorCapacity) return 1;
        void* bytes = malloc(n);
        if (bytes == NULL || maniSpringState_Save(state, bytes, n, &n) != mani_success) return 1;
        snprintf(name, sizeof name, "state-%d", k);
        status |= maul_WriteSeed(restoreDir, name, bytes, n);
        free(bytes);
    }
    free(stateMemory);
    free(poseMemory);
    return status;
}
