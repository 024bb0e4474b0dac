/* Every conformance suite, in certificate order. A new suite is added at the
 * end, with its golden/<name>.txt and a line in docs/CHANGES.md. */
#include "conformance/framework/conformance.h"

#include <string.h>

void mconf_SuiteHash(mconf_Run* run);
void mconf_SuiteRng(mconf_Run* run);
void mconf_SuiteCore(mconf_Run* run);
void mconf_SuiteSkeleton(mconf_Run* run);
void mconf_SuiteTweenCore(mconf_Run* run);
void mconf_SuiteDeform(mconf_Run* run);
void mconf_SuiteTweenPlayers(mconf_Run* run);
void mconf_SuiteClips(mconf_Run* run);
void mconf_SuiteCompression(mconf_Run* run);
void mconf_SuiteIk(mconf_Run* run);
void mconf_SuiteJson(mconf_Run* run);
void mconf_SuiteRetargetMirror(mconf_Run* run);
void mconf_SuiteGltf(mconf_Run* run);
void mconf_SuiteSprings(mconf_Run* run);
void mconf_SuiteRagdoll(mconf_Run* run);
void mconf_SuiteMatch(mconf_Run* run);
void mconf_SuiteFbx(mconf_Run* run);
void mconf_SuiteGraph(mconf_Run* run);
void mconf_SuiteLearned(mconf_Run* run);

const mconf_Suite mconf_suites[] = {
    {"hash", mconf_SuiteHash},
    {"rng", mconf_SuiteRng},
    {"skeleton", mconf_SuiteSkeleton},
    {"core", mconf_SuiteCore},
    {"tween-core", mconf_SuiteTweenCore},
    {"deform", mconf_SuiteDeform},
    {"tween-players", mconf_SuiteTweenPlayers},
    {"clips", mconf_SuiteClips},
    {"compression", mconf_SuiteCompression},
    {"ik", mconf_SuiteIk},
    {"json", mconf_SuiteJson},
    {"retarget-mirror", mconf_SuiteRetargetMirror},
    {"gltf", mconf_SuiteGltf},
    {"springs", mconf_SuiteSprings},
    {"ragdoll", mconf_SuiteRagdoll},
    {"match", mconf_SuiteMatch},
    {"fbx", mconf_SuiteFbx},
    {"graph", mconf_SuiteGraph},
    {"learned", mconf_SuiteLearned},
};

const size_t mconf_suiteCount = sizeof mconf_suites / sizeof mconf_suites[0];

const mconf_Suite* mconf_FindSuite(const char* name) {
    for (size_t i = 0; i < mconf_suiteCount; ++i)
        if (strcmp(mconf_suites[i].name, name) == 0) return &mconf_suites[i];
    return NULL;
}
