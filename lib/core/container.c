#include "lib/core/container.h"

#include <string.h>

#include "lib/core/hash.h"

void mcore_WriteF32(uint8_t* p, float v) {
    uint32_t bits;
    memcpy(&bits, &v, 4);
    mcore_WriteU32(p, bits);
}

static mcore_ContainerStatus mcore_Wrong(uint64_t* offsetOut, uint64_t offset) {
    *offsetOut = offset;
    return mcore_containerFormat;
}

/* The first non-zero byte in [from, to), or to when they are all zero. */
static uint64_t mcore_FirstNonZero(const uint8_t* b, uint64_t from, uint64_t to) {
    for (uint64_t i = from; i < to; ++i)
        if (b[i] != 0) return i;
    return to;
}

mcore_ContainerStatus mcore_CheckContainer(const void* bytes, size_t size, uint32_t kind, uint32_t version,
                                           const mcore_SectionSpec* specs, uint32_t specCount,
                                           mcore_Container* out, uint64_t* offsetOut) {
    *offsetOut = 0;
    if (bytes == NULL || ((uintptr_t)bytes % MCORE_FILE_ALIGNMENT) != 0) return mcore_containerInvalid;
    const uint8_t* b = (const uint8_t*)bytes;
    /* The header, field by field in file order; a short file is wrong at its
     * end (the first byte that should be there). */
    if (size < 4) return mcore_Wrong(offsetOut, size);
    if (mcore_ReadU32(b) != MCORE_FILE_MAGIC) {
        for (uint64_t i = 0; i < 4; ++i)
            if (b[i] != (uint8_t)(MCORE_FILE_MAGIC >> (8 * i))) return mcore_Wrong(offsetOut, i);
    }
    if (size < 8) return mcore_Wrong(offsetOut, size);
    if (mcore_ReadU32(b + 4) != kind) return mcore_Wrong(offsetOut, 4);
    if (size < 12) return mcore_Wrong(offsetOut, size);
    if (mcore_ReadU32(b + 8) != version) {
        *offsetOut = 8;
        return mcore_containerVersion;
    }
    if (size < MCORE_HEADER_SIZE) return mcore_Wrong(offsetOut, size);
    /* 12: the writer's ABI version, informational: any value. */
    uint64_t total = mcore_ReadU64(b + 16);
    if (total != size || (total % 16) != 0) return mcore_Wrong(offsetOut, 16);
    uint32_t count = mcore_ReadU32(b + 24);
    /* A count other than the spec's is found wrong after the table, so a
     * table naming a tag of a later format reads as a version matter. */
    if (count == 0 || count > MCORE_MAX_SECTIONS) return mcore_Wrong(offsetOut, 24);
    if (mcore_ReadU32(b + 28) != 0) return mcore_Wrong(offsetOut, 28);
    uint64_t identity = mcore_ReadU64(b + 32);
    uint64_t z = mcore_FirstNonZero(b, 40, MCORE_HEADER_SIZE);
    if (z != MCORE_HEADER_SIZE) return mcore_Wrong(offsetOut, z);

    uint64_t tableEnd = MCORE_HEADER_SIZE + (uint64_t)count * MCORE_SECTION_ENTRY_SIZE;
    if (tableEnd > size) return mcore_Wrong(offsetOut, size);
    uint64_t cursor = tableEnd; /* where the next section may start */
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t* e = b + MCORE_HEADER_SIZE + (uint64_t)i * MCORE_SECTION_ENTRY_SIZE;
        uint64_t at = (uint64_t)(e - b);
        mcore_Section s;
        s.tag = mcore_ReadU32(e);
        s.alignment = mcore_ReadU32(e + 4);
        s.offset = mcore_ReadU64(e + 8);
        s.size = mcore_ReadU64(e + 16);
        if (i >= specCount || s.tag != specs[i].tag) {
            if (MCORE_TAG_VERSION(s.tag) > version) {
                *offsetOut = at;
                return mcore_containerVersion;
            }
            return mcore_Wrong(offsetOut, at);
        }
        if (s.alignment != specs[i].alignment) return mcore_Wrong(offsetOut, at + 4);
        if (s.offset < cursor || s.offset > size || (s.offset % s.alignment) != 0) return mcore_Wrong(offsetOut, at + 8);
        if (s.size > size - s.offset) return mcore_Wrong(offsetOut, at + 16);
        out->sections[i] = s;
        cursor = s.offset + s.size;
    }
    if (count != specCount) return mcore_Wrong(offsetOut, 24);
    /* Padding: every byte outside the header, table and sections is 0, and
     * nothing but padding smaller than the last alignment follows the end. */
    uint64_t from = tableEnd;
    for (uint32_t i = 0; i < count; ++i) {
        z = mcore_FirstNonZero(b, from, out->sections[i].offset);
        if (z != out->sections[i].offset) return mcore_Wrong(offsetOut, z);
        from = out->sections[i].offset + out->sections[i].size;
    }
    z = mcore_FirstNonZero(b, from, size);
    if (z != size) return mcore_Wrong(offsetOut, z);
    if (size - from >= 16) return mcore_Wrong(offsetOut, from + 15); /* the end pads to 16 bytes, no more */
    if (mcore_Hash64(MCORE_IDENTITY_SEED ^ kind, b + MCORE_HEADER_SIZE, size - MCORE_HEADER_SIZE) != identity)
        return mcore_Wrong(offsetOut, 32);
    out->bytes = b;
    out->size = size;
    out->identity = identity;
    out->sectionCount = count;
    return mcore_containerOk;
}

int mcore_LayoutSections(mcore_Layout* layout, const mcore_SectionSpec* specs, const uint64_t* sizes,
                         uint32_t count, uint64_t max) {
    if (count == 0 || count > MCORE_MAX_SECTIONS) return 0;
    const uint64_t limit = (max < (UINT64_C(1) << 62)) ? max : (UINT64_C(1) << 62);
    uint64_t cursor = MCORE_HEADER_SIZE + (uint64_t)count * MCORE_SECTION_ENTRY_SIZE;
    for (uint32_t i = 0; i < count; ++i) {
        uint64_t a = specs[i].alignment;
        cursor = (cursor + a - 1) / a * a;
        if (sizes[i] > limit || cursor > limit - sizes[i]) return 0;
        layout->sections[i].tag = specs[i].tag;
        layout->sections[i].alignment = specs[i].alignment;
        layout->sections[i].offset = cursor;
        layout->sections[i].size = sizes[i];
        cursor += sizes[i];
    }
    /* The total is a multiple of 16 so files can be laid end to end aligned. */
    cursor = (cursor + 15) / 16 * 16;
    if (cursor > limit) return 0;
    layout->sectionCount = count;
    layout->totalSize = cursor;
    return 1;
}

uint64_t mcore_FinishContainer(uint8_t* bytes, const mcore_Layout* layout, uint32_t kind, uint32_t version,
                               uint32_t abiVersion) {
    mcore_WriteU32(bytes, MCORE_FILE_MAGIC);
    mcore_WriteU32(bytes + 4, kind);
    mcore_WriteU32(bytes + 8, version);
    mcore_WriteU32(bytes + 12, abiVersion);
    mcore_WriteU64(bytes + 16, layout->totalSize);
    mcore_WriteU32(bytes + 24, layout->sectionCount);
    mcore_WriteU32(bytes + 28, 0);
    memset(bytes + 32, 0, 32);
    for (uint32_t i = 0; i < layout->sectionCount; ++i) {
        uint8_t* e = bytes + MCORE_HEADER_SIZE + (uint64_t)i * MCORE_SECTION_ENTRY_SIZE;
        mcore_WriteU32(e, layout->sections[i].tag);
        mcore_WriteU32(e + 4, layout->sections[i].alignment);
        mcore_WriteU64(e + 8, layout->sections[i].offset);
        mcore_WriteU64(e + 16, layout->sections[i].size);
    }
    uint64_t identity =
        mcore_Hash64(MCORE_IDENTITY_SEED ^ kind, bytes + MCORE_HEADER_SIZE, layout->totalSize - MCORE_HEADER_SIZE);
    mcore_WriteU64(bytes + 32, identity);
    return identity;
}
