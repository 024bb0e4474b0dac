/* Harness: maniBuildGraphJson against the harness's chain skeleton of 8
 * bones, three named clips ("walk", "run", and "lean" of differences from
 * the rest) and a mirror map. Text it accepts must build a
 * file that opens; the source it reads must write a text that builds the
 * same file bytes and reads back as a source writing the same text again
 * (write -> build -> write a fixed point). The input sits in a block of
 * exactly its size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_skeleton.h"
#include "lib/anim/src/build/graph_json_internal.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/mirrorbuild.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* The three clips and the mirror map, built once for the run. */
static uint8_t* maul_fuzzGraphClipFiles[3];
static maniClip maul_fuzzGraphClips[3];
static uint8_t* maul_fuzzGraphMirrorFile;
static maniMirrorMap maul_fuzzGraphMirror;

static int maul_FuzzGraphAssets(const maniSkeleton* s) {
    if (maul_fuzzGraphMirrorFile == NULL) {
        maniMirrorMapSource src;
        memset(&src, 0, sizeof src);
        src.skeleton = s;
        src.axis = maniMirrorAxisX;
        maniBuilderDef def = maniDefaultBuilderDef();
        maniBuilder* b = NULL;
        if (maniCreateBuilder(&def, &b) != mani_success) return 0;
        size_t mapSize = 0;
        if (maniBuildMirrorMap(b, &src).result == mani_success) maul_fuzzGraphMirrorFile = maul_FuzzCopyBuilt(b, &mapSize);
        maniDestroyBuilder(b);
        if (maul_fuzzGraphMirrorFile == NULL) return 0;
        if (maniOpenMirrorMap(maul_fuzzGraphMirrorFile, mapSize, &maul_fuzzGraphMirror).result != mani_success) abort();
    }
    for (int k = 0; k < 3; ++k) {
        if (maul_fuzzGraphClipFiles[k] != NULL) continue;
        maniFixtureClip fc;
        maniFixtureMakeClip(&fc, 7u + (uint64_t)k, s, 0, maniLoopRepeat, k == 2 ? maniAdditiveRest : maniAdditiveNone);
        size_t clipSize = 0;
        uint8_t* bytes = (uint8_t*)maniFixtureBuildClip(&fc.source, &clipSize);
        maniFixtureFreeClip(&fc);
        if (bytes == NULL) return 0;
        if (maniOpenClip(bytes, clipSize, &maul_fuzzGraphClips[k]).result != mani_success) abort();
        maul_fuzzGraphClipFiles[k] = bytes;
    }
    return 1;
}

/* What the fixed point check keeps between its steps. */
typedef struct {
    uint8_t* text;
    size_t size;
} maul_FuzzText;

/* Writes the source read (its build must succeed: the text built it) and
 * keeps the text. */
static maniBuildResult maul_FuzzWrite(void* user, maniBuilder* builder, const maniGraphSource* source) {
    maniBuildResult r = maniWriteGraphJson(builder, source);
    if (r.result != mani_success) abort();
    maul_FuzzText* t = (maul_FuzzText*)user;
    t->text = maul_FuzzCopyBuilt(builder, &t->size);
    if (t->text == NULL) abort();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniSkeleton s;
    if (!maul_FuzzChainSkeleton(8, &s) || !maul_FuzzGraphAssets(&s)) return 0;
    uint8_t* text = maul_FuzzFileCopy(data, size);
    if (text == NULL) return 0;
    const maniGraphClipSource named[3] = {
        {"walk", 4, &maul_fuzzGraphClips[0], NULL}, {"run", 3, &maul_fuzzGraphClips[1], NULL}, {"lean", 4, &maul_fuzzGraphClips[2], NULL}};
    const maniGraphNamedAssets assets = {&s, named, 3, &maul_fuzzGraphMirror, NULL, 0, 0, NULL, NULL, 0};
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) abort();
    maniBuildResult r = maniBuildGraphJson(b, (const char*)text, size, &assets);
    if (r.result == mani_success) {
        size_t fileSize = 0, againSize = 0;
        uint8_t* file = maul_FuzzCopyBuilt(b, &fileSize);
        if (file == NULL) abort();
        maniGraph g;
        if (maniOpenGraph(file, fileSize, &g).result != mani_success) abort();
        /* text -> source -> written text W. */
        maul_FuzzText written = {NULL, 0}, rewritten = {NULL, 0};
        if (mani_ReadGraphJson(b, (const char*)text, size, &assets, maul_FuzzWrite, &written).result != mani_success)
            abort();
        /* W builds the same file. */
        if (maniBuildGraphJson(b, (const char*)written.text, written.size, &assets).result != mani_success) abort();
        uint8_t* again = maul_FuzzCopyBuilt(b, &againSize);
        if (again == NULL || againSize != fileSize || memcmp(again, file, fileSize) != 0) abort();
        /* W -> source -> the same W. */
        if (mani_ReadGraphJson(b, (const char*)written.text, written.size, &assets, maul_FuzzWrite, &rewritten).result !=
            mani_success)
            abort();
        if (rewritten.size != written.size || memcmp(rewritten.text, written.text, written.size) != 0) abort();
        free(file);
        free(again);
        free(written.text);
        free(rewritten.text);
    }
    maniDestroyBuilder(b);
    free(text);
    return 0;
}
