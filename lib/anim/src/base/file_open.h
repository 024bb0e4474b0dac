/* What every file kind's open shares: its result, and the container check
 * with its statuses turned into results (docs/formats.md, "Container"). */
#ifndef MAUL_ANIM_SRC_BASE_FILE_OPEN_H
#define MAUL_ANIM_SRC_BASE_FILE_OPEN_H

#include "lib/core/container.h"
#include "maul/anim/base.h"

static inline maniFileResult mani_FileResult(maniResult r, uint64_t offset) {
    maniFileResult f = {r, offset};
    return f;
}

/* mcore_CheckContainer for an open: mani_success with *c filled;
 * mani_errorInvalid (offset 0) for NULL or misaligned bytes;
 * mani_errorVersion or mani_errorFormat with the offset of the byte found
 * wrong. */
maniFileResult mani_OpenContainer(const void* bytes, size_t size, uint32_t kind, uint32_t version,
                                  const mcore_SectionSpec* specs, uint32_t specCount, mcore_Container* c);

#endif
