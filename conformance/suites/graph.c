/* Suite "graph": seeded graphs of clip and blend nodes (graph_fixtures.h:
 * 2 to 6 clips with events and root motion, normalized and direct blends,
 * one clip node read twice) played over seeded parameter timelines of 120
 * updates with steps in [-0.05, 0.15] s. Every update's pose locals, events
 * (node, slot, index, time, weight) and root motion are hashed into a chain;
 * per graph its shape (node kinds and inputs as the file orders them), the
 * chain every 40 updates, the saved state at update 60 (all but the graph
 * identity it holds, which follows the file format's bytes), and the chain of a fresh instance restored from that
 * state and continued (the same as running through). Then the state
 * machine graphs (graph-machine-K) and the blend space graphs
 * (graph-space-K, graph_spaces.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "conformance/suites/graph.h"
#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/anim/test/fixtures/mirror_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"
#include "maul/anim/base.h"
#include "maul/anim/graph.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/pose.h"

void mconf_SuiteGraph(mconf_Run* run);

#define MCONF_GRAPH_UPDATES 120u
#define MCONF_GRAPH_SAVE_AT 60u
#define MCONF_GRAPH_EVENTS 64u

static void* mconf_GraphAligned(size_t size) {
    const size_t rounded = (size + 31u) & ~(size_t)31u;
    void* p = aligned_alloc(32, rounded ? rounded : 32);
    if (p) memset(p, 0, rounded ? rounded : 32);
    return p;
}

/* One update's parameter changes, drawn before the update: about one
 * parameter in three set to a value in [-0.25, 1.25]. */
static float mconf_GraphTimeline(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, void* user) {
    (void)user;
    for (uint32_t p = 0; p < parameters; ++p) {
        const uint32_t pick = mcore_RngBelow(rng, 3);
        const float value = mcore_RngFloatRange(rng, -0.25f, 1.25f);
        if (pick != 0) continue;
        maniGraphValue v;
        memset(&v, 0, sizeof v);
        v.number = value;
        if (maniGraphInstance_SetParameter(instance, p, maniGraphParameterFloat, v) != mani_success) return -1.0f;
    }
    return mcore_RngFloatRange(rng, -0.05f, 0.15f);
}

/* A machine graph's update changes (maniFixtureMakeMachineGraph's
 * parameters), drawn in parameter order before the update: each float one
 * time in three to a value in [-0.25, 1.25], the bool one time in four
 * flipped, each trigger one time in five set. */
float mconf_MachineTimeline(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, void* user) {
    (void)user;
    for (uint32_t p = 0; p < parameters; ++p) {
        maniGraphValue v;
        memset(&v, 0, sizeof v);
        maniGraphParameterType type = maniGraphParameterFloat;
        int set = 0;
        if (p < 2) {
            set = mcore_RngBelow(rng, 3) == 0;
            v.number = mcore_RngFloatRange(rng, -0.25f, 1.25f);
        } else if (p == 2) {
            type = maniGraphParameterBool;
            set = mcore_RngBelow(rng, 4) == 0;
            maniGraphValue old;
            if (maniGraphInstance_GetParameter(instance, p, &old) != mani_success) return -1.0f;
            v.flag = old.flag ^ 1u;
        } else {
            type = maniGraphParameterTrigger;
            set = mcore_RngBelow(rng, 5) == 0;
            v.flag = 1;
        }
        if (set && maniGraphInstance_SetParameter(instance, p, type, v) != mani_success) return -1.0f;
    }
    return mcore_RngFloatRange(rng, -0.05f, 0.15f);
}

/* A layer graph's update changes (maniFixtureMakeLayerGraph's parameters),
 * drawn in parameter order before the update: w0, w1 and aw one time in
 * three to [-0.25, 1.25], sel one time in three to [-0.5, 2.5], flag one
 * time in four flipped, ts one time in four to [-1, 3], go one time in six
 * set, the pose one time in eight to the rest with one seeded bone turned
 * (user: a pose of the skeleton). */
static float mconf_LayerTimeline(mcore_Rng* rng, maniGraphInstance* instance, uint32_t parameters, void* user) {
    maniPose* pose = (maniPose*)user;
    for (uint32_t p = 0; p < parameters; ++p) {
        maniGraphValue v;
        memset(&v, 0, sizeof v);
        maniGraphParameterType type = maniGraphParameterFloat;
        int set = 0;
        switch (p) {
            case 2:
                set = mcore_RngBelow(rng, 3) == 0;
                v.number = mcore_RngFloatRange(rng, -0.5f, 2.5f);
                break;
            case 3: {
                type = maniGraphParameterBool;
                set = mcore_RngBelow(rng, 4) == 0;
                maniGraphValue old;
                if (maniGraphInstance_GetParameter(instance, p, &old) != mani_success) return -1.0f;
                v.flag = old.flag ^ 1u;
                break;
            }
            case 4:
                set = mcore_RngBelow(rng, 4) == 0;
                v.number = mcore_RngFloatRange(rng, -1.0f, 3.0f);
                break;
            case 5:
                type = maniGraphParameterTrigger;
                set = mcore_RngBelow(rng, 6) == 0;
                v.flag = 1;
                break;
            case 7: {
                const uint32_t pick = mcore_RngBelow(rng, 8);
                const uint32_t bone = mcore_RngBelow(rng, maniPose_GetBoneCount(pose));
                const float angle = mcore_RngFloatRange(rng, -1.0f, 1.0f);
                if (pick != 0) continue;
                if (maniGraphInstance_GetPose(instance, p, pose) != mani_success) return -1.0f;
                maniTransform t = maniPose_GetLocal(pose, bone);
                const float half = 0.5f * angle;
                const maniQuat turn = {0.0f, sinf(half), 0.0f, cosf(half)};
                const maniQuat r = t.rotation;
                t.rotation.x = turn.w * r.x + turn.x * r.w + turn.y * r.z - turn.z * r.y;
                t.rotation.y = turn.w * r.y - turn.x * r.z + turn.y * r.w + turn.z * r.x;
                t.rotation.z = turn.w * r.z + turn.x * r.y - turn.y * r.x + turn.z * r.w;
                t.rotation.w = turn.w * r.w - turn.x * r.x - turn.y * r.y - turn.z * r.z;
                maniPose_SetLocal(pose, bone, t);
                if (maniGraphInstance_SetPose(instance, p, pose) != mani_success) return -1.0f;
                continue;
            }
            default:
                set = mcore_RngBelow(rng, 3) == 0;
                v.number = mcore_RngFloatRange(rng, -0.25f, 1.25f);
                break;
        }
        if (set && maniGraphInstance_SetParameter(instance, p, type, v) != mani_success) return -1.0f;
    }
    return mcore_RngFloatRange(rng, -0.05f, 0.15f);
}

/* One update and evaluation, its outputs hashed into bytes field by field
 * (with a machine node, its state and transition under way after);
 * returns 0 when a call failed. */
static int mconf_GraphStep(maniGraphInstance* instance, float step, void* scratch, size_t scratchSize, maniPose* pose,
                           mconf_Bytes* bytes, uint32_t machine) {
    maniGraphEvent events[MCONF_GRAPH_EVENTS];
    uint32_t count = 0;
    maniRootMove move;
    if (maniGraphInstance_Update(instance, step, events, MCONF_GRAPH_EVENTS, &count, &move) != mani_success) return 0;
    if (maniGraphInstance_Evaluate(instance, scratch, scratchSize, pose) != mani_success) return 0;
    const uint32_t bones = maniPose_GetBoneCount(pose);
    for (uint32_t b = 0; b < bones; ++b) {
        const maniTransform t = maniPose_GetLocal(pose, b);
        mconf_BytesF32(bytes, t.translation.x);
        mconf_BytesF32(bytes, t.translation.y);
        mconf_BytesF32(bytes, t.translation.z);
        mconf_BytesF32(bytes, t.rotation.x);
        mconf_BytesF32(bytes, t.rotation.y);
        mconf_BytesF32(bytes, t.rotation.z);
        mconf_BytesF32(bytes, t.rotation.w);
        mconf_BytesF32(bytes, t.scale.x);
        mconf_BytesF32(bytes, t.scale.y);
        mconf_BytesF32(bytes, t.scale.z);
    }
    mconf_BytesU32(bytes, count);
    for (uint32_t e = 0; e < count && e < MCONF_GRAPH_EVENTS; ++e) {
        mconf_BytesU32(bytes, events[e].node);
        mconf_BytesU32(bytes, events[e].clip);
        mconf_BytesU32(bytes, events[e].event);
        mconf_BytesF32(bytes, events[e].time);
        mconf_BytesF32(bytes, events[e].weight);
    }
    mconf_BytesF32(bytes, move.translation.x);
    mconf_BytesF32(bytes, move.translation.y);
    mconf_BytesF32(bytes, move.translation.z);
    mconf_BytesF32(bytes, move.rotation.x);
    mconf_BytesF32(bytes, move.rotation.y);
    mconf_BytesF32(bytes, move.rotation.z);
    mconf_BytesF32(bytes, move.rotation.w);
    if (machine != MANI_GRAPH_NONE) {
        maniGraphNodeView view;
        if (maniGraphInstance_InspectNode(instance, machine, &view) != mani_success) return 0;
        mconf_BytesU32(bytes, view.state);
        mconf_BytesU32(bytes, view.transition);
    }
    return 1;
}

/* Plays a graph over its timeline and records its lines, named by label
 * ("graph-K" or "graph-machine-K"). */
void mconf_GraphPlay(mconf_Run* run, const char* label, maniFixtureGraph* fixture, const maniSkeleton* skel,
                     uint64_t seed, mconf_GraphTimelineFn timelineOf, uint32_t machine, mconf_Bytes* out,
                     const maniMirrorMap* mirror) {
    char name[96];
    for (uint32_t n = 0; n < maniGraph_GetNodeCount(&fixture->graph); ++n) {
        mconf_BytesU32(out, (uint32_t)maniGraph_GetNodeKind(&fixture->graph, n));
        mconf_BytesU32(out, maniGraph_GetNodeSourcePlace(&fixture->graph, n));
        for (uint32_t i = 0; i < maniGraph_GetNodeInputCount(&fixture->graph, n); ++i)
            mconf_BytesU32(out, maniGraph_GetNodeInput(&fixture->graph, n, i));
    }
    snprintf(name, sizeof name, "%s-shape", label);
    mconf_RecordBytes(run, name, out);
    maniGraphAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = skel;
    assets.clips = fixture->clipList;
    assets.clipCount = fixture->clipCount;
    assets.mirrorMap = mirror;
    void* bindingMemory = mconf_GraphAligned(maniGraph_GetBindingSize(&fixture->graph));
    maniGraphBinding* binding = NULL;
    int ok = bindingMemory != NULL && maniBindGraph(&fixture->graph, &assets, bindingMemory,
                                                    maniGraph_GetBindingSize(&fixture->graph), &binding, NULL) == mani_success;
    const size_t instanceSize = ok ? maniGraphBinding_GetInstanceSize(binding) : 0;
    const size_t scratchSize = ok ? maniGraphBinding_GetScratchSize(binding) : 0;
    const size_t poseSize = maniSkeleton_GetPoseSize(skel);
    void* through = mconf_GraphAligned(instanceSize);
    void* restored = mconf_GraphAligned(instanceSize);
    void* scratch = mconf_GraphAligned(scratchSize);
    void* poseMemory = mconf_GraphAligned(poseSize);
    void* userMemory = mconf_GraphAligned(poseSize);
    maniPose* user = NULL;
    maniGraphInstance *a = NULL, *b = NULL;
    maniPose* pose = NULL;
    ok = ok && through && restored && scratch && poseMemory &&
         maniInitGraphInstance(binding, through, instanceSize, &a) == mani_success &&
         maniInitPose(skel, poseMemory, poseSize, &pose) == mani_success && userMemory &&
         maniInitPose(skel, userMemory, poseSize, &user) == mani_success;
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed ^ 0x5449u);
    const uint32_t parameters = maniGraph_GetParameterCount(&fixture->graph);
    uint64_t chain = 0, restoredChain = 0;
    uint8_t* state = NULL;
    size_t stateSize = 0;
    float steps[MCONF_GRAPH_UPDATES];
    mcore_Rng timeline[MCONF_GRAPH_UPDATES];
    for (uint32_t u = 0; u < MCONF_GRAPH_UPDATES && ok; ++u) {
        timeline[u] = rng;
        steps[u] = timelineOf(&rng, a, parameters, user);
        ok = mconf_GraphStep(a, steps[u], scratch, scratchSize, pose, out, machine);
        chain = maniHash64(chain, out->data, (int64_t)out->size);
        mconf_BytesReset(out);
        if ((u + 1) % 40u == 0) {
            snprintf(name, sizeof name, "%s-updates-%u", label, u + 1);
            mconf_Record(run, name, ok ? chain : 0);
        }
        if (u + 1 == MCONF_GRAPH_SAVE_AT && ok) {
            ok = maniGraphInstance_Save(a, NULL, 0, &stateSize) == mani_errorCapacity;
            state = ok ? (uint8_t*)malloc(stateSize) : NULL;
            ok = ok && state && maniGraphInstance_Save(a, state, stateSize, &stateSize) == mani_success;
            snprintf(name, sizeof name, "%s-state-%u", label, u + 1);
            if (ok) {
                mconf_BytesAdd(out, state, 16);
                mconf_BytesAdd(out, state + 24, stateSize - 24);
            }
            mconf_RecordBytes(run, name, out);
            restoredChain = chain;
        }
    }
    /* A fresh instance restored from the state continues the chain over
     * the same timeline (its parameter draws replayed). */
    ok = ok && state && maniInitGraphInstance(binding, restored, instanceSize, &b) == mani_success &&
         maniGraphInstance_Restore(b, state, stateSize).result == mani_success;
    for (uint32_t u = MCONF_GRAPH_SAVE_AT; u < MCONF_GRAPH_UPDATES && ok; ++u) {
        mcore_Rng replay = timeline[u];
        const float step = timelineOf(&replay, b, parameters, user);
        ok = step == steps[u] && mconf_GraphStep(b, step, scratch, scratchSize, pose, out, machine);
        restoredChain = maniHash64(restoredChain, out->data, (int64_t)out->size);
        mconf_BytesReset(out);
    }
    snprintf(name, sizeof name, "%s-restored-%u", label, MCONF_GRAPH_UPDATES);
    mconf_Record(run, name, ok ? restoredChain : 0);
    snprintf(name, sizeof name, "%s-restored-equal", label);
    mconf_Record(run, name, ok && restoredChain == chain ? 1u : 0u);
    free(state);
    free(through);
    free(restored);
    free(scratch);
    free(poseMemory);
    free(userMemory);
    free(bindingMemory);
}

/* Layer graphs (maniFixtureMakeLayerGraph: masks, additive layers,
 * selects, time scales, seeks, mirrors and pose nodes) over a mirror rig
 * (2 chains of 3 bones a side) and its map, the even seeds with mirror
 * nodes. */
static void mconf_GraphLayerCases(mconf_Run* run, mconf_Bytes* bytes) {
    char name[96];
    maniSkeletonSource src = maniFixtureMakeMirrorRig(0x4C59, 0, 2, 3, 0);
    size_t skeletonSize = 0, mirrorSize = 0;
    void* skeletonFile = maniFixtureBuildSkeleton(&src, &skeletonSize);
    maniFixtureFreeMirrorRig(&src);
    maniSkeleton skeleton;
    void* mirrorFile = NULL;
    maniMirrorMap mirror;
    int ok = skeletonFile != NULL && maniOpenSkeleton(skeletonFile, skeletonSize, &skeleton).result == mani_success;
    if (ok) {
        maniMirrorMapSource ms;
        memset(&ms, 0, sizeof ms);
        ms.skeleton = &skeleton;
        ms.axis = maniMirrorAxisX;
        ms.rules = maniFixtureMirrorRules;
        ms.ruleCount = 2;
        maniBuilderDef def = maniDefaultBuilderDef();
        maniBuilder* builder = NULL;
        ok = maniCreateBuilder(&def, &builder) == mani_success;
        ok = ok && maniBuildMirrorMap(builder, &ms).result == mani_success;
        if (ok) mirrorFile = maniFixtureCopyBuilt(builder, 16, &mirrorSize);
        if (builder != NULL) maniDestroyBuilder(builder);
        ok = ok && mirrorFile != NULL && maniOpenMirrorMap(mirrorFile, mirrorSize, &mirror).result == mani_success;
    }
    if (!ok) {
        mconf_Record(run, "graph-layers-rig-failed", 0);
        free(skeletonFile);
        free(mirrorFile);
        return;
    }
    for (uint32_t k = 0; k < 12; ++k) {
        const uint64_t seed = 0x4C590000u + k;
        const maniMirrorMap* map = (k & 1u) == 0 ? &mirror : NULL;
        maniFixtureGraph g;
        if (!maniFixtureMakeLayerGraph(&g, seed, &skeleton, map)) {
            snprintf(name, sizeof name, "graph-layers-%u-build-failed", k);
            mconf_Record(run, name, 0);
            continue;
        }
        snprintf(name, sizeof name, "graph-layers-%u", k);
        mconf_GraphPlay(run, name, &g, &skeleton, seed, mconf_LayerTimeline, MANI_GRAPH_NONE, bytes, map);
        maniFixtureFreeGraph(&g);
    }
    free(skeletonFile);
    free(mirrorFile);
}

void mconf_SuiteGraph(mconf_Run* run) {
    char name[96];
    mconf_Bytes bytes = {0};
    maniSkeletonSource src = maniFixtureMakeSkeletonSource(0x4752, 23, maniFixtureRandom);
    size_t skeletonSize = 0;
    void* skeletonFile = maniFixtureBuildSkeleton(&src, &skeletonSize);
    maniFixtureFreeSkeletonSource(&src);
    maniSkeleton skeleton;
    if (skeletonFile == NULL || maniOpenSkeleton(skeletonFile, skeletonSize, &skeleton).result != mani_success) {
        mconf_Record(run, "graph-skeleton-failed", 0);
        free(skeletonFile);
        return;
    }
    for (uint32_t k = 0; k < 8; ++k) {
        const uint64_t seed = 0x47520000u + k;
        maniFixtureGraph g;
        if (!maniFixtureMakeGraph(&g, seed, &skeleton, 0, (int)(k & 1u))) {
            snprintf(name, sizeof name, "graph-%u-build-failed", k);
            mconf_Record(run, name, 0);
            continue;
        }
        snprintf(name, sizeof name, "graph-%u", k);
        mconf_GraphPlay(run, name, &g, &skeleton, seed, mconf_GraphTimeline, MANI_GRAPH_NONE, &bytes, NULL);
        maniFixtureFreeGraph(&g);
    }
    /* State machine graphs (new lines; the ones above unchanged). */
    for (uint32_t k = 0; k < 6; ++k) {
        const uint64_t seed = 0x4D430000u + k;
        maniFixtureGraph g;
        if (!maniFixtureMakeMachineGraph(&g, seed, &skeleton)) {
            snprintf(name, sizeof name, "graph-machine-%u-build-failed", k);
            mconf_Record(run, name, 0);
            continue;
        }
        snprintf(name, sizeof name, "graph-machine-%u", k);
        mconf_GraphPlay(run, name, &g, &skeleton, seed, mconf_MachineTimeline, g.source.nodeCount - 1, &bytes, NULL);
        maniFixtureFreeGraph(&g);
    }
    /* Blend space graphs (new lines; the ones above unchanged). */
    mconf_GraphSpaces(run, &skeleton, &bytes);
    mconf_GraphLayerCases(run, &bytes);
    /* One-shot graphs (new lines at the end; the ones above unchanged). */
    mconf_GraphOneShots(run, &skeleton, &bytes);
    /* Inertialize graphs (new lines at the end; the ones above unchanged). */
    mconf_GraphInertializes(run, &skeleton, &bytes);
    mconf_BytesFree(&bytes);
    free(skeletonFile);
}
