/* Harness: maniBuildMirrorMapJson against the harness's chain skeleton of 8
 * bones. Text it accepts must build a file that opens, and the same text
 * built again must give the same file bytes. The input sits in a block of
 * exactly its size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h"
#include "fuzz/fuzz_skeleton.h"
#include "maul/anim/mirrorbuild.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniSkeleton s;
    if (!maul_FuzzChainSkeleton(8, &s)) return 0;
    uint8_t* text = maul_FuzzFileCopy(data, size);
    if (text == NULL) return 0;
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) abort();
    maniBuildResult r = maniBuildMirrorMapJson(b, (const char*)text, size, &s);
    if (r.result == mani_success) {
        size_t firstSize = 0, secondSize = 0;
        uint8_t* first = maul_FuzzCopyBuilt(b, &firstSize);
        if (first == NULL) abort();
        maniMirrorMap m;
        if (maniOpenMirrorMap(first, firstSize, &m).result != mani_success) abort();
        if (maniBuildMirrorMapJson(b, (const char*)text, size, &s).result != mani_success) abort();
        uint8_t* second = maul_FuzzCopyBuilt(b, &secondSize);
        if (second == NULL || secondSize != firstSize || memcmp(first, second, firstSize) != 0) abort();
        free(first);
        free(second);
    }
    maniDestroyBuilder(b);
    free(text);
    return 0;
}
