/* Harness: maniBuildSkeleton on sources made from the input. Checks more than
 * crashes: a source the builder accepts must give a file that opens, with
 * each source bone found by its name at the place the skeleton order says,
 * its parent mapped, and its rest kept (rotation normalized). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maul/anim/build.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

typedef struct {
    const uint8_t* p;
    size_t n;
} maul_Reader;

static uint8_t maul_Byte(maul_Reader* r) {
    if (r->n == 0) return 0;
    r->n--;
    return *r->p++;
}

static float maul_Float(maul_Reader* r) {
    uint8_t kind = maul_Byte(r);
    if (kind < 0xF0) return (float)((int)kind - 120) / 16.0f; /* ordinary values */
    uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits |= (uint32_t)maul_Byte(r) << (8 * i);
    float f;
    memcpy(&f, &bits, 4);
    return f; /* any bit pattern: NaN, infinities, subnormals */
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maul_Reader in = {data, size};
    uint32_t count = maul_Byte(&in) % 40 + 1;
    maniSkeletonSourceBone bones[40];
    char names[40][12];
    for (uint32_t i = 0; i < count; ++i) {
        uint8_t parent = maul_Byte(&in);
        bones[i].parent = parent == 0xFF ? MANI_NO_BONE : (parent < 0xC0 ? parent % count : parent);
        size_t len = maul_Byte(&in) % 12;
        for (size_t k = 0; k < len; ++k) names[i][k] = (char)maul_Byte(&in);
        bones[i].name = len ? names[i] : NULL;
        bones[i].nameLength = len;
        float* f = &bones[i].rest.translation.x;
        for (int k = 0; k < 10; ++k) f[k] = maul_Float(&in);
    }
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* builder = NULL;
    if (maniCreateBuilder(&def, &builder) != mani_success) return 0;
    maniSkeletonSource src = {bones, count};
    maniBuildResult r = maniBuildSkeleton(builder, &src);
    if (r.result == mani_success) {
        size_t fileSize = 0;
        if (maniBuilder_CopyBuilt(builder, NULL, 0, &fileSize) != mani_errorCapacity) abort();
        void* file = aligned_alloc(16, (fileSize + 15) / 16 * 16);
        uint32_t order[40];
        uint32_t orderCount = 0;
        maniSkeleton s;
        if (file == NULL || maniBuilder_CopyBuilt(builder, file, fileSize, &fileSize) != mani_success ||
            maniBuilder_CopySkeletonOrder(builder, order, 40, &orderCount) != mani_success || orderCount != count ||
            maniOpenSkeleton(file, fileSize, &s).result != mani_success) {
            fprintf(stderr, "a built skeleton does not open\n");
            abort();
        }
        for (uint32_t i = 0; i < count; ++i) {
            uint32_t at = order[i];
            if (maniSkeleton_FindBone(&s, bones[i].name, bones[i].nameLength) != at) abort();
            uint32_t parent = maniSkeleton_GetParent(&s, at);
            if ((bones[i].parent == MANI_NO_BONE) != (parent == MANI_NO_BONE)) abort();
            if (parent != MANI_NO_BONE && parent != order[bones[i].parent]) abort();
            maniTransform t = maniSkeleton_GetRest(&s, at);
            if (memcmp(&t.translation, &bones[i].rest.translation, sizeof t.translation) != 0) abort();
            if (memcmp(&t.scale, &bones[i].rest.scale, sizeof t.scale) != 0) abort();
        }
        free(file);
    } else if (r.result != mani_errorInvalid && r.result != mani_errorLimit) {
        abort(); /* no other refusal is possible here */
    } else if (r.item >= count) {
        abort(); /* a refusal names a source bone */
    }
    if (maniBuilder_GetMisuse(builder) != 0) abort();
    maniDestroyBuilder(builder);
    return 0;
}
