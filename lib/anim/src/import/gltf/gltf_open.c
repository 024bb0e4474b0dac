/* import.h: maniOpenGltf, the GLB container, buffers, views and accessors. */
#include "lib/anim/src/import/gltf/gltf_internal.h"

maniImportResult mani_GltfResult(maniResult result, uint32_t reason, uint64_t item, uint64_t offset) {
    maniImportResult r;
    r.result = result;
    r.reason = reason;
    r.item = item;
    r.offset = offset;
    return r;
}
