/* build.h: builders, their allocator, misuse counting and the kept file. */
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"

static void* mani_DefaultAllocate(void* user, size_t size, size_t alignment) {
    (void)user;
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    if (rounded < size) return NULL;
    return aligned_alloc(alignment, rounded);
}

static void mani_DefaultRelease(void* user, void* memory, size_t size) {
    (void)user;
    (void)size;
    free(memory);
}

void* mani_BuilderAlloc(maniBuilder* b, size_t size, size_t alignment) {
    if (size == 0) return NULL;
    b->busy++;
    void* p = b->allocator.allocate(b->allocator.user, size, alignment);
    b->busy--;
    if (p != NULL && ((uintptr_t)p % alignment) != 0) {
        /* An allocator that breaks its contract: give the block back. */
        mani_BuilderFree(b, p, size);
        return NULL;
    }
    return p;
}

void mani_BuilderFree(maniBuilder* b, void* memory, size_t size) {
    if (memory == NULL) return;
    b->busy++;
    b->allocator.release(b->allocator.user, memory, size);
    b->busy--;
}

maniResult mani_BuilderEnter(maniBuilder* b) {
    if (b->busy || b->destroying) {
        b->misuse++;
        return mani_errorBusy;
    }
    return mani_success;
}

void mani_BuilderKeep(maniBuilder* b, uint8_t* file, size_t size, uint32_t* order, uint32_t orderCount) {
    mani_BuilderFree(b, b->built, b->builtSize);
    mani_BuilderFree(b, b->skeletonOrder, (size_t)b->skeletonOrderCount * sizeof(uint32_t));
    b->built = file;
    b->builtSize = size;
    b->skeletonOrder = order;
    b->skeletonOrderCount = order != NULL ? orderCount : 0;
}

void mani_BuilderTakeHeld(maniBuilder* b, mani_BuilderHeld* taken) {
    taken->built = b->built;
    taken->builtSize = b->builtSize;
    taken->skeletonOrder = b->skeletonOrder;
    taken->skeletonOrderCount = b->skeletonOrderCount;
    b->built = NULL;
    b->builtSize = 0;
    b->skeletonOrder = NULL;
    b->skeletonOrderCount = 0;
}

void mani_BuilderPutBack(maniBuilder* b, mani_BuilderHeld* taken) {
    mani_BuilderKeep(b, taken->built, taken->builtSize, taken->skeletonOrder, taken->skeletonOrderCount);
    taken->built = NULL;
    taken->skeletonOrder = NULL;
}

void mani_BuilderDropTaken(maniBuilder* b, mani_BuilderHeld* taken) {
    mani_BuilderFree(b, taken->built, taken->builtSize);
    mani_BuilderFree(b, taken->skeletonOrder, (size_t)taken->skeletonOrderCount * sizeof(uint32_t));
    taken->built = NULL;
    taken->skeletonOrder = NULL;
}

maniBuildResult mani_BuildResult(maniResult r, uint32_t reason, uint64_t item, uint64_t other) {
    maniBuildResult res = {r, reason, item, other};
    return res;
}

maniBuildResult mani_BuildEnter(maniBuilder* b, const void* source) {
    if (b == NULL) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    maniResult entered = mani_BuilderEnter(b);
    if (entered != mani_success) return mani_BuildResult(entered, maniBuildReasonNone, 0, 0);
    if (source == NULL) {
        b->misuse++;
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    }
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

maniResult maniCreateBuilder(const maniBuilderDef* def, maniBuilder** builderOut) {
    if (def == NULL || builderOut == NULL) return mani_errorInvalid;
    if (def->cookie != MANI_BUILDER_DEF_COOKIE || def->cookieEnd != MANI_BUILDER_DEF_COOKIE) return mani_errorInvalid;
    if (def->abiVersion != MANI_ABI_VERSION) return mani_errorVersion;
    maniAllocator a = def->allocator;
    if ((a.allocate == NULL) != (a.release == NULL)) return mani_errorInvalid;
    if (a.allocate == NULL) {
        a.allocate = mani_DefaultAllocate;
        a.release = mani_DefaultRelease;
        a.user = NULL;
    }
    maniBuilder probe;
    memset(&probe, 0, sizeof probe);
    probe.allocator = a;
    /* The builder's own block comes from the allocator too. While its hook
     * runs there is no builder yet for it to call back into. */
    maniBuilder* b = (maniBuilder*)mani_BuilderAlloc(&probe, sizeof(maniBuilder), _Alignof(maniBuilder));
    if (b == NULL) return mani_errorCapacity;
    *b = probe;
    *builderOut = b;
    return mani_success;
}

void maniDestroyBuilder(maniBuilder* b) {
    if (b == NULL) return;
    if (b->busy || b->destroying) {
        b->misuse++;
        return;
    }
    b->destroying = 1;
    mani_BuilderKeep(b, NULL, 0, NULL, 0);
    maniAllocator a = b->allocator;
    /* The block's release runs with the builder still readable and
     * destroying set, so a call from the hook is refused, not a use after
     * free; the host's hook must not use it after it frees it. */
    b->busy++;
    a.release(a.user, b, sizeof(maniBuilder));
}

uint32_t maniBuilder_GetMisuse(const maniBuilder* b) { return b != NULL ? b->misuse : 0; }

maniResult maniBuilder_CopyBuilt(maniBuilder* b, void* bufferOut, size_t capacity, size_t* sizeOut) {
    if (b == NULL) return mani_errorInvalid;
    maniResult r = mani_BuilderEnter(b);
    if (r != mani_success) return r;
    if ((bufferOut == NULL && capacity > 0) || b->built == NULL) {
        b->misuse++;
        return mani_errorInvalid;
    }
    if (sizeOut != NULL) *sizeOut = b->builtSize;
    if (capacity < b->builtSize) return mani_errorCapacity;
    memcpy(bufferOut, b->built, b->builtSize);
    return mani_success;
}

maniResult maniBuilder_CopySkeletonOrder(maniBuilder* b, uint32_t* boneOut, uint32_t capacity, uint32_t* countOut) {
    if (b == NULL) return mani_errorInvalid;
    maniResult r = mani_BuilderEnter(b);
    if (r != mani_success) return r;
    if ((boneOut == NULL && capacity > 0) || b->skeletonOrder == NULL) {
        b->misuse++;
        return mani_errorInvalid;
    }
    if (countOut != NULL) *countOut = b->skeletonOrderCount;
    if (capacity < b->skeletonOrderCount) {
        if (capacity > 0) memset(boneOut, 0, (size_t)capacity * sizeof(uint32_t));
        return mani_errorCapacity;
    }
    memcpy(boneOut, b->skeletonOrder, (size_t)b->skeletonOrderCount * sizeof(uint32_t));
    return mani_success;
}
