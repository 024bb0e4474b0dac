#include "lib/anim/src/base/file_open.h"

maniFileResult mani_OpenContainer(const void* bytes, size_t size, uint32_t kind, uint32_t version,
                                  const mcore_SectionSpec* specs, uint32_t specCount, mcore_Container* c) {
    uint64_t bad = 0;
    const mcore_ContainerStatus st = mcore_CheckContainer(bytes, size, kind, version, specs, specCount, c, &bad);
    if (st == mcore_containerInvalid) return mani_FileResult(mani_errorInvalid, 0);
    if (st == mcore_containerVersion) return mani_FileResult(mani_errorVersion, bad);
    if (st != mcore_containerOk) return mani_FileResult(mani_errorFormat, bad);
    return mani_FileResult(mani_success, 0);
}
