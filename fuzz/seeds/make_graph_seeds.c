/* Writes the seed corpus of graph_open_fuzzer: graph files over seeded
 * clips of chain skeletons, a clip alone and blends of two and three
 * levels. Run: bazel run //fuzz/seeds:make_graph_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/graphbuild.h"

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
    maniGraphParameterSource params[2];
    memset(params, 0, sizeof params);
    params[0].name = "w0";
    params[0].nameLength = 2;
    params[1].name = "w1";
    params[1].nameLength = 2;
    params[1].value.number = 0.5f;
    const maniGraphClipSource clips[2] = {{"a", 1, &clip}, {"b", 1, &clip}};
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
    maniDestroyBuilder(b);
    free(cfile);
    free(sfile);
    return status;
}
