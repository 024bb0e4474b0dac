/* Writes the seed corpus of graph_open_fuzzer: graph files over seeded
 * clips of chain skeletons, a clip alone, blends of two and three levels,
 * a graph of time scale, seek, pose, select and mask nodes, a graph of the
 * three blend space kinds, a graph of two one-shots, a graph of two
 * inertialize nodes (both methods), and a graph of
 * map slots (clips of another skeleton through two maps) and spring set
 * slots. Run: bazel run //fuzz/seeds:make_graph_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/retarget.h"
#include "maul/anim/retargetbuild.h"
#include "maul/anim/spring.h"

/* Copies the builder's file into fresh memory (free with free()), or NULL. */
static void* maul_CopyOut(maniBuilder* b, size_t* sizeOut) {
    size_t size = 0;
    if (maniBuilder_CopyBuilt(b, NULL, 0, &size) != mani_errorCapacity) return NULL;
    void* out = aligned_alloc(16, (size + 15u) & ~(size_t)15u);
    if (out != NULL && maniBuilder_CopyBuilt(b, out, size, &size) != mani_success) {
        free(out);
        return NULL;
    }
    *sizeOut = size;
    return out;
}

/* Builds src and writes the file as seed name; 0, or 1 when either fails. */
static int maul_WriteGraphSeed(maniBuilder* b, const char* dir, const char* name, const maniGraphSource* src) {
    if (maniBuildGraph(b, src).result != mani_success) return 1;
    size_t size = 0;
    void* out = maul_CopyOut(b, &size);
    if (out == NULL) return 1;
    const int status = maul_WriteSeed(dir, name, out, size);
    free(out);
    return status;
}

/* "slots": clip slots a (the skeleton's), m and n (clips of a second chain
 * skeleton through two maps, m's map twice), two spring set slots. */
static int maul_WriteSlotSeed(maniBuilder* b, const char* dir, const maniSkeleton* skeleton, const maniClip* clip) {
    int status = 1;
    maniSkeletonSource ts = maniFixtureMakeSkeletonSource(6002, 4, maniFixtureChain);
    size_t tSize = 0, tcSize = 0, m0Size = 0, m1Size = 0, s0Size = 0, s1Size = 0, size = 0;
    void* tfile = maniFixtureBuildSkeleton(&ts, &tSize);
    maniFixtureFreeSkeletonSource(&ts);
    void *tcfile = NULL, *m0file = NULL, *m1file = NULL, *s0file = NULL, *s1file = NULL, *out = NULL;
    maniSkeleton t;
    maniClip tclip;
    maniRetargetMap maps[2];
    maniSpringSet sets[2];
    if (tfile == NULL || maniOpenSkeleton(tfile, tSize, &t).result != mani_success) goto done;
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 6003, &t, MANI_FIXTURE_CLIP_ROOT_MOTION, maniLoopRepeat, maniAdditiveNone);
    tcfile = maniFixtureBuildClip(&fc.source, &tcSize);
    maniFixtureFreeClip(&fc);
    if (tcfile == NULL || maniOpenClip(tcfile, tcSize, &tclip).result != mani_success) goto done;
    for (int k = 0; k < 2; ++k) {
        maniRetargetPair pair;
        memset(&pair, 0, sizeof pair);
        pair.weight = k == 0 ? 1.0f : 0.5f;
        maniRetargetMapSource ms;
        memset(&ms, 0, sizeof ms);
        ms.source = &t;
        ms.target = skeleton;
        ms.pairs = &pair;
        ms.pairCount = 1;
        if (maniBuildRetargetMap(b, &ms).result != mani_success) goto done;
        void** file = k == 0 ? &m0file : &m1file;
        size_t* fileSize = k == 0 ? &m0Size : &m1Size;
        *file = maul_CopyOut(b, fileSize);
        if (*file == NULL || maniOpenRetargetMap(*file, *fileSize, &maps[k]).result != mani_success) goto done;
        maniSpringSourceJoint joints[2];
        memset(joints, 0, sizeof joints);
        joints[0].bone = 1;
        joints[1].bone = 2;
        joints[0].stiffness = joints[1].stiffness = 1.0f + (float)k;
        joints[0].limitRotation.w = joints[1].limitRotation.w = 1.0f;
        maniSpringSourceSpring spring;
        memset(&spring, 0, sizeof spring);
        spring.joints = joints;
        spring.jointCount = 2;
        spring.center = MANI_NO_BONE;
        maniSpringSetSource ss;
        memset(&ss, 0, sizeof ss);
        ss.skeleton = skeleton;
        ss.referenceRate = 60.0f;
        ss.stepRate = 60.0f;
        ss.springs = &spring;
        ss.springCount = 1;
        if (maniBuildSpringSet(b, &ss).result != mani_success) goto done;
        void** set = k == 0 ? &s0file : &s1file;
        size_t* setSize = k == 0 ? &s0Size : &s1Size;
        *set = maul_CopyOut(b, setSize);
        if (*set == NULL || maniOpenSpringSet(*set, *setSize, &sets[k]).result != mani_success) goto done;
    }
    {
        const maniGraphClipSource clips[4] = {
            {"a", 1, clip, NULL}, {"m", 1, &tclip, &maps[0]}, {"n", 1, &tclip, &maps[1]}, {"o", 1, &tclip, &maps[0]}};
        const maniGraphSpringSetSource springs[2] = {{"hair", 4, &sets[0]}, {"tail", 4, &sets[1]}};
        maniGraphNodeSource node;
        memset(&node, 0, sizeof node);
        node.kind = maniGraphNodeClip;
        node.clip = 1;
        node.speed = 1.0f;
        maniGraphSource src;
        memset(&src, 0, sizeof src);
        src.skeleton = skeleton;
        src.clips = clips;
        src.clipCount = 4;
        src.springSets = springs;
        src.springSetCount = 2;
        src.nodes = &node;
        src.nodeCount = 1;
        if (maniBuildGraph(b, &src).result != mani_success) goto done;
        out = maul_CopyOut(b, &size);
        if (out != NULL) status = maul_WriteSeed(dir, "slots", out, size);
    }
done:
    free(out);
    free(s1file);
    free(s0file);
    free(m1file);
    free(m0file);
    free(tcfile);
    free(tfile);
    return status;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_graph_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/graph_open_fuzzer", argv[1]);
    int status = 0;
    maniSkeletonSource ss = maniFixtureMakeSkeletonSource(6000, 3, maniFixtureChain);
    size_t size = 0;
    void* sfile = maniFixtureBuildSkeleton(&ss, &size);
    maniFixtureFreeSkeletonSource(&ss);
    maniSkeleton skeleton;
    if (sfile == NULL || maniOpenSkeleton(sfile, size, &skeleton).result != mani_success) return 1;
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, 6001, &skeleton, 0, maniLoopClamp, maniAdditiveNone);
    size_t clipSize = 0;
    void* cfile = maniFixtureBuildClip(&fc.source, &clipSize);
    maniFixtureFreeClip(&fc);
    maniClip clip;
    if (cfile == NULL || maniOpenClip(cfile, clipSize, &clip).result != mani_success) return 1;
    maniGraphParameterSource params[4];
    memset(params, 0, sizeof params);
    params[0].name = "w0";
    params[0].nameLength = 2;
    params[1].name = "w1";
    params[1].nameLength = 2;
    params[1].value.number = 0.5f;
    params[2].name = "go";
    params[2].nameLength = 2;
    params[2].type = maniGraphParameterTrigger;
    params[3].name = "p";
    params[3].nameLength = 1;
    params[3].type = maniGraphParameterPose;
    const maniGraphClipSource clips[2] = {{"a", 1, &clip, NULL}, {"b", 1, &clip, NULL}};
    const uint32_t in2[2] = {0, 1}, in4[2] = {2, 3}, weights[2] = {0, 1};
    maniGraphNodeSource nodes[5];
    memset(nodes, 0, sizeof nodes);
    for (int k = 0; k < 5; ++k) nodes[k].speed = 1.0f;
    nodes[1].clip = 1;
    nodes[2].kind = maniGraphNodeBlend;
    nodes[2].inputs = in2;
    nodes[2].parameters = weights;
    nodes[2].inputCount = 2;
    nodes[4] = nodes[2];
    nodes[4].inputs = in4;
    nodes[4].direct = true;
    maniGraphSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = &skeleton;
    src.parameters = params;
    src.parameterCount = 2;
    src.clips = clips;
    src.clipCount = 2;
    src.nodes = nodes;
    const uint32_t counts[3] = {1, 3, 5};
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 1;
    for (int c = 0; c < 3; ++c) {
        src.nodeCount = counts[c];
        src.output = counts[c] - 1;
        size_t fileSize = 0;
        if (maniBuildGraph(b, &src).result != mani_success ||
            maniBuilder_CopyBuilt(b, NULL, 0, &fileSize) != mani_errorCapacity) {
            status = 1;
            continue;
        }
        void* out = malloc(fileSize);
        char name[64];
        snprintf(name, sizeof name, "nodes%u", counts[c]);
        if (out == NULL || maniBuilder_CopyBuilt(b, out, fileSize, &fileSize) != mani_success)
            status = 1;
        else
            status |= maul_WriteSeed(dir, name, out, fileSize);
        free(out);
    }
    /* 0 clip a; 1 time scale(0) by -2; 2 seek(1) by go to 0.25 s; 3 pose p;
     * 4 select(2, 3) by w0; 5 clip b; 6 mask(4, 5), the output. */
    const uint32_t in1[1] = {0}, in2k[1] = {1}, in4k[2] = {2, 3}, in6[2] = {4, 5};
    const maniGraphMaskChain chains[1] = {{1, 0.5f, true}};
    maniGraphNodeSource kinds[7];
    memset(kinds, 0, sizeof kinds);
    for (int k = 0; k < 7; ++k) {
        kinds[k].speed = 1.0f;
        kinds[k].parameter = MANI_NO_PARAMETER;
    }
    kinds[1].kind = maniGraphNodeTimeScale;
    kinds[1].inputs = in1;
    kinds[1].inputCount = 1;
    kinds[1].factor = -2.0f;
    kinds[2].kind = maniGraphNodeSeek;
    kinds[2].inputs = in2k;
    kinds[2].inputCount = 1;
    kinds[2].parameter = 2;
    kinds[2].time = 0.25f;
    kinds[3].kind = maniGraphNodePose;
    kinds[3].parameter = 3;
    kinds[4].kind = maniGraphNodeSelect;
    kinds[4].inputs = in4k;
    kinds[4].inputCount = 2;
    kinds[4].parameter = 0;
    kinds[5].clip = 1;
    kinds[6].kind = maniGraphNodeMask;
    kinds[6].inputs = in6;
    kinds[6].inputCount = 2;
    kinds[6].chains = chains;
    kinds[6].chainCount = 1;
    kinds[6].defaultWeight = 0.25f;
    src.parameterCount = 4;
    src.nodes = kinds;
    src.nodeCount = 7;
    src.output = 6;
    status |= maul_WriteGraphSeed(b, dir, "kinds", &src);
    /* "spaces": 0 clip a, 1 clip b; 2 a 1D space of them by w0 with a
     * period; 3 polar bands over 0, 1, 2 by w0, w1; 4 the Delaunay
     * triangulated space over 0 to 3, the output. */
    const uint32_t inS[4] = {0, 1, 2, 3};
    const maniGraphSpacePoint points[4] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {1.0f, 1.0f}};
    maniGraphNodeSource spaces[5];
    memset(spaces, 0, sizeof spaces);
    for (int k = 0; k < 5; ++k) {
        spaces[k].speed = 1.0f;
        spaces[k].inputs = inS;
        spaces[k].points = points;
        spaces[k].parameterY = 1;
    }
    spaces[1].clip = 1;
    spaces[2].kind = maniGraphNodeSpace1D;
    spaces[2].inputCount = 2;
    spaces[2].period = 2.0f;
    spaces[3].kind = maniGraphNodeSpaceBanded;
    spaces[3].inputCount = 3;
    spaces[3].polar = true;
    spaces[4].kind = maniGraphNodeSpaceTriangulated;
    spaces[4].inputCount = 4;
    src.parameterCount = 2;
    src.nodes = spaces;
    src.nodeCount = 5;
    src.output = 4;
    status |= maul_WriteGraphSeed(b, dir, "spaces", &src);
    /* "oneshot": 0 clip a, 1 clip b; 2 a one-shot of b over a, fired by go,
     * masked (bone 1 and its subtree at 0.5 over 0.25), easing in; 3 a
     * one-shot of a over it, fired and aborted by go, unmasked, the
     * output. */
    const uint32_t inO2[2] = {0, 1}, inO3[2] = {2, 0};
    maniGraphNodeSource shots[4];
    memset(shots, 0, sizeof shots);
    for (int k = 0; k < 4; ++k) shots[k].speed = 1.0f;
    shots[1].clip = 1;
    for (int k = 2; k < 4; ++k) {
        shots[k].kind = maniGraphNodeOneShot;
        shots[k].inputCount = 2;
        shots[k].parameter = 2;
        shots[k].fadeOutTrigger = MANI_NO_PARAMETER;
        shots[k].abortTrigger = MANI_NO_PARAMETER;
        shots[k].fadeIn = 0.25f;
        shots[k].fadeOut = 0.5f;
    }
    shots[2].inputs = inO2;
    shots[2].curve = maniGraphFadeEaseIn;
    shots[2].masked = true;
    shots[2].chains = chains;
    shots[2].chainCount = 1;
    shots[2].defaultWeight = 0.25f;
    shots[3].inputs = inO3;
    shots[3].abortTrigger = 2;
    src.parameterCount = 4;
    src.nodes = shots;
    src.nodeCount = 4;
    src.output = 3;
    status |= maul_WriteGraphSeed(b, dir, "oneshot", &src);
    /* "inertialize": 0 clip a, 1 clip b; 2 a select of them by w0 (a
     * float); 3 an inertialization of it fired by go (0.4 s);
     * 4 dead blending of 3 with no trigger, the output. */
    const uint32_t inI2[2] = {0, 1}, inI3 = 2, inI4 = 3;
    maniGraphNodeSource inert[5];
    memset(inert, 0, sizeof inert);
    for (int k = 0; k < 5; ++k) inert[k].speed = 1.0f;
    inert[1].clip = 1;
    inert[2].kind = maniGraphNodeSelect;
    inert[2].inputs = inI2;
    inert[2].inputCount = 2;
    inert[2].parameter = 0;
    inert[3].kind = maniGraphNodeInertialize;
    inert[3].inputs = &inI3;
    inert[3].inputCount = 1;
    inert[3].parameter = 2;
    inert[3].duration = 0.4f;
    inert[4] = inert[3];
    inert[4].inputs = &inI4;
    inert[4].parameter = MANI_NO_PARAMETER;
    inert[4].method = maniGraphDeadBlending;
    inert[4].duration = 0.3f;
    inert[4].halfLifeScale = 0.3f;
    inert[4].halfLifeMin = 0.1f;
    inert[4].halfLifeMax = 1.0f;
    src.parameterCount = 4;
    src.nodes = inert;
    src.nodeCount = 5;
    src.output = 4;
    status |= maul_WriteGraphSeed(b, dir, "inertialize", &src);
    status |= maul_WriteSlotSeed(b, dir, &skeleton, &clip);
    maniDestroyBuilder(b);
    free(cfile);
    free(sfile);
    return status;
}
