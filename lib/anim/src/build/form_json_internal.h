/* The pieces the builders' JSON text forms share (mirror maps, retarget
 * maps): writing names and numbers, keeping the written text, and reading
 * members, strings, bones, numbers and keywords with maniGraphForm
 * refusals at byte offsets. */
#ifndef MAUL_ANIM_FORM_JSON_INTERNAL_H
#define MAUL_ANIM_FORM_JSON_INTERNAL_H

#include "lib/anim/src/build/builder_internal.h"
#include "lib/core/json/json.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/skeleton.h"

/* The JSON reader's and writer's memory, through the builder's allocator. */
mcore_JsonAllocator mani_FormAllocator(maniBuilder* builder);

void mani_FormWriteKeyString(mcore_JsonWriter* w, const char* key, const char* s, size_t length);
void mani_FormWriteFloats(mcore_JsonWriter* w, const char* key, const float* v, uint32_t count);
void mani_FormWriteBoneName(mcore_JsonWriter* w, const char* key, const maniSkeleton* s, uint32_t bone);
void mani_FormWriteBool(mcore_JsonWriter* w, const char* key, bool value);

/* Finishes a writer and keeps its text in the builder (releasing the
 * writer): mani_success, or mani_errorCapacity. */
maniBuildResult mani_FormKeepText(maniBuilder* builder, mcore_JsonWriter* w);

/* A text being read: the document and an arena for unescaped strings (each
 * at most its span's length, so the text's length in all). */
typedef struct mani_FormReader {
    maniBuilder* builder;
    mcore_JsonDoc doc;
    char* arena;
    size_t arenaSize, arenaUsed;
} mani_FormReader;

/* count items of size bytes from the builder (NULL for none), setting
 * *failed when memory runs out. */
void* mani_FormAlloc(mani_FormReader* rd, size_t count, size_t size, int* failed);
maniBuildResult mani_FormRefusal(maniResult r, uint32_t form, uint64_t offset);
maniBuildResult mani_FormRead(mani_FormReader* rd, uint32_t object, const mcore_JsonFormKey* keys, uint32_t count,
                              uint32_t* found);
const mcore_JsonToken* mani_FormToken(const mani_FormReader* rd, uint32_t t);
/* A value's first byte: a string's opening quote, else its span's start. */
uint64_t mani_FormAt(const mani_FormReader* rd, uint32_t t);
maniBuildResult mani_FormReadString(mani_FormReader* rd, uint32_t t, const char** out, size_t* length);
maniBuildResult mani_FormReadBone(mani_FormReader* rd, const maniSkeleton* s, uint32_t t, uint32_t* bone);
maniBuildResult mani_FormReadFloats(mani_FormReader* rd, uint32_t t, float* out, uint32_t count);
maniBuildResult mani_FormReadKeyword(mani_FormReader* rd, uint32_t t, const char* const* words, uint32_t count,
                                     uint32_t* out);

#endif
