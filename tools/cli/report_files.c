/* report_files DIR: writes the fixture files the report leg (tools/test_report)
 * shows beside the imported SimpleSkin ones, kinds a glTF import does not
 * give: a seeded 12-bone skeleton, a learned model of it (its rollout and
 * curves) and a state machine graph of it (its node tree). Test-only: the
 * files are the fixtures' (lib/anim/test/fixtures), the same bytes on every
 * run. Exit status 0 written, 1 a fixture failed, 2 usage or I/O. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/test/fixtures/graph_fixtures.h"
#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "maul/anim/skeleton.h"

static int WriteFile(const char* dir, const char* name, const void* bytes, size_t size) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return 0;
    FILE* f = fopen(path, "wb");
    if (f == NULL) return 0;
    const int ok = fwrite(bytes, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: report_files DIR\n");
        return 2;
    }
    const uint64_t seed = 7; /* the skeleton maniFixtureBuildLearnedModel's model is of */
    maniSkeletonSource source = maniFixtureMakeSkeletonSource(seed, 12, maniFixtureRandom);
    size_t size = 0;
    void* skeletonBytes = maniFixtureBuildSkeleton(&source, &size);
    maniFixtureFreeSkeletonSource(&source);
    maniSkeleton skeleton;
    if (skeletonBytes == NULL || maniOpenSkeleton(skeletonBytes, size, &skeleton).result != mani_success) {
        fprintf(stderr, "report_files: the fixture skeleton did not build\n");
        return 1;
    }
    if (!WriteFile(argv[1], "fixture-skeleton.mani", skeletonBytes, size)) return 2;
    size_t modelSize = 0;
    void* model = maniFixtureBuildLearnedModel(seed, 8, 0, &modelSize);
    if (model == NULL) {
        fprintf(stderr, "report_files: the fixture learned model did not build\n");
        return 1;
    }
    if (!WriteFile(argv[1], "fixture-learned-model.mani", model, modelSize)) return 2;
    free(model);
    maniFixtureGraph graph;
    if (!maniFixtureMakeMachineGraph(&graph, 3, &skeleton)) {
        fprintf(stderr, "report_files: the fixture graph did not build\n");
        return 1;
    }
    const int wrote = WriteFile(argv[1], "fixture-graph.mani", graph.file, graph.size);
    maniFixtureFreeGraph(&graph);
    free(skeletonBytes);
    return wrote ? 0 : 2;
}
