/* Writes the seed corpora of mirror_open_fuzzer (mirror map files of the
 * harnesses' chain skeletons, fuzz/fuzz_skeleton.h, with explicit pairs,
 * rules and names, each axis) and mirror_json_fuzzer (the same maps' JSON
 * text for the 8-bone chain).
 * Run: bazel run //fuzz/seeds:make_mirror_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_skeleton.h"
#include "fuzz/seeds/seed_file.h"
#include "maul/anim/mirrorbuild.h"

static int maul_Emit(maniBuilder* b, const char* dir, const char* name) {
    size_t size = 0;
    if (maniBuilder_CopyBuilt(b, NULL, 0, &size) != mani_errorCapacity) return 1;
    void* out = malloc(size);
    int status = out == NULL || maniBuilder_CopyBuilt(b, out, size, &size) != mani_success;
    if (!status) status = maul_WriteSeed(dir, name, out, size);
    free(out);
    return status;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_mirror_seeds CORPUS_DIR\n");
        return 2;
    }
    char openDir[2048], jsonDir[2048];
    snprintf(openDir, sizeof openDir, "%s/mirror_open_fuzzer", argv[1]);
    snprintf(jsonDir, sizeof jsonDir, "%s/mirror_json_fuzzer", argv[1]);
    int status = 0;
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 1;
    /* Chain names b<digits>: "b1..." and "b2..." pair by two prefix rules. */
    static const maniMirrorRule rules[3] = {{"b1", 2, "b2", 2, maniMirrorRulePrefix},
                                            {"b2", 2, "b1", 2, maniMirrorRulePrefix},
                                            {"_l", 2, "_r", 2, maniMirrorRuleSuffix}};
    static const maniMirrorNamePair namePairs[1] = {{"hit_l", 5, "hit_r", 5}};
    static const maniMirrorName names[2] = {{"grab_l", 6}, {"center", 6}};
    const uint32_t counts[] = {1, 3, 8, 20};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        maniSkeleton s;
        if (!maul_FuzzChainSkeleton(counts[c], &s)) return 1;
        for (uint32_t axis = 0; axis < 3; ++axis) {
            maniMirrorBonePair pairs[1] = {{0, counts[c] - 1}};
            maniTransform reference[20];
            for (uint32_t i = 0; i < counts[c]; ++i) {
                reference[i] = maniSkeleton_GetRest(&s, i);
                if (i % 2 == 1) reference[i].rotation = (maniQuat){0.6f, 0, 0, 0.8f};
            }
            maniMirrorMapSource src;
            memset(&src, 0, sizeof src);
            src.skeleton = &s;
            src.axis = axis;
            src.reference = axis == 1 ? reference : NULL;
            src.pairs = counts[c] > 3 ? pairs : NULL;
            src.pairCount = counts[c] > 3 ? 1 : 0;
            src.rules = rules;
            src.ruleCount = 3;
            src.namePairs = namePairs;
            src.namePairCount = 1;
            src.names = names;
            src.nameCount = 2;
            char name[64];
            snprintf(name, sizeof name, "bones%u-axis%u", counts[c], axis);
            if (maniBuildMirrorMap(b, &src).result != mani_success) return 1;
            status |= maul_Emit(b, openDir, name);
            if (counts[c] == 8) {
                if (maniWriteMirrorMapJson(b, &src).result != mani_success) return 1;
                status |= maul_Emit(b, jsonDir, name);
            }
        }
    }
    maniDestroyBuilder(b);
    return status;
}
