/* The builder's state and the allocation helpers every build uses. */
#ifndef MAUL_ANIM_BUILDER_INTERNAL_H
#define MAUL_ANIM_BUILDER_INTERNAL_H

#include "maul/anim/build.h"

struct maniBuilder {
    maniAllocator allocator; /* resolved: the C library's when the def had none */
    uint32_t misuse;
    uint32_t busy;           /* > 0 while the host's allocator code runs */
    uint32_t destroying;     /* set from the moment maniDestroyBuilder begins */
    uint8_t* built;          /* the last built file or written text */
    size_t builtSize;
    uint32_t* skeletonOrder; /* source bone -> skeleton bone, of the last built skeleton */
    uint32_t skeletonOrderCount;
};

/* Allocates through the builder's allocator, marking the builder busy while
 * the host's code runs. NULL on failure (or a size of 0). */
void* mani_BuilderAlloc(maniBuilder* b, size_t size, size_t alignment);
void mani_BuilderFree(maniBuilder* b, void* memory, size_t size);

/* The entry check of a call on a builder: mani_errorBusy (and a misuse) when
 * the call comes back in from the host's allocator code or during the
 * builder's destruction; mani_success otherwise. builder is not NULL. */
maniResult mani_BuilderEnter(maniBuilder* b);

/* Replaces the held file (and skeleton order) by new ones the builder
 * allocated, freeing the old. order may be NULL (a file of another kind). */
void mani_BuilderKeep(maniBuilder* b, uint8_t* file, size_t size, uint32_t* order, uint32_t orderCount);

/* What a builder held, taken out of it (mani_BuilderTakeHeld) so a build
 * may keep its file and a later step still fail: mani_BuilderPutBack frees
 * whatever the builder holds then and gives the taken back;
 * mani_BuilderDropTaken frees the taken once the later step kept its own. */
typedef struct mani_BuilderHeld {
    uint8_t* built;
    size_t builtSize;
    uint32_t* skeletonOrder;
    uint32_t skeletonOrderCount;
} mani_BuilderHeld;
void mani_BuilderTakeHeld(maniBuilder* b, mani_BuilderHeld* taken);
void mani_BuilderPutBack(maniBuilder* b, mani_BuilderHeld* taken);
void mani_BuilderDropTaken(maniBuilder* b, mani_BuilderHeld* taken);

maniBuildResult mani_BuildResult(maniResult r, uint32_t reason, uint64_t item, uint64_t other);

/* The entry of every build: a NULL builder is mani_errorInvalid (there is no
 * builder to count on), a call back in from the host's allocator code
 * mani_errorBusy (counted), a NULL source mani_errorInvalid and a misuse.
 * Returns mani_success when the build may go on. */
maniBuildResult mani_BuildEnter(maniBuilder* b, const void* source);

#endif
