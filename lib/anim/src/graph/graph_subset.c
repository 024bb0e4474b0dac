/* graph.h: subset plans (the bones listed, their ancestors and, under
 * mirror nodes, their partners). */
#include <string.h>

#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "maul/anim/mirror.h"

maniResult maniPlanGraphSubset(const maniGraphBinding* binding, const uint32_t* bones, uint32_t count, void* memory,
                               size_t size, maniGraphSubset** planOut) {
    if (!mani_GraphBindingOk(binding) || (bones == NULL && count != 0) || memory == NULL || planOut == NULL ||
        !mani_GraphAligned(memory))
        return mani_errorInvalid;
    const uint32_t boneCount = binding->boneCount;
    for (uint32_t i = 0; i < count; ++i)
        if (bones[i] >= boneCount || (i > 0 && bones[i] <= bones[i - 1])) return mani_errorInvalid;
    if (size < binding->subsetSize) return mani_errorCapacity;
    maniGraphSubset* plan = (maniGraphSubset*)memory;
    uint32_t* out = (uint32_t*)(void*)((uint8_t*)memory + MANI_GRAPH_SUBSET_HEADER);
    /* Mark the bones and their ancestors (a parent is a lower index), then
     * list the marks in increasing order. The list's memory holds the marks
     * first: a bone's mark at its index. */
    memset(out, 0, sizeof(uint32_t) * boneCount);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t bone = bones[i];
        while (bone < boneCount && out[bone] == 0) {
            out[bone] = 1;
            bone = maniSkeleton_GetParent(binding->skeleton, bone);
        }
    }
    /* Under a mirror node each planned bone reads its partner: the
     * partners and their ancestors too, to a fixed point. */
    for (int changed = binding->mirrorNodes != 0 && binding->mirrorMap != NULL; changed;) {
        changed = 0;
        for (uint32_t bone = 0; bone < boneCount; ++bone) {
            if (out[bone] == 0) continue;
            uint32_t partner = maniMirrorMap_GetPartner(binding->mirrorMap, bone);
            while (partner < boneCount && out[partner] == 0) {
                out[partner] = 1;
                changed = 1;
                partner = maniSkeleton_GetParent(binding->skeleton, partner);
            }
        }
    }
    uint32_t planned = 0;
    for (uint32_t bone = 0; bone < boneCount; ++bone)
        if (out[bone] != 0) out[planned++] = bone; /* planned <= bone: never overwrites an unread mark */
    plan->magic = MANI_GRAPH_SUBSET_MAGIC;
    plan->count = planned;
    plan->binding = binding;
    *planOut = plan;
    return mani_success;
}

const uint32_t* maniGraphSubset_GetBones(const maniGraphSubset* plan, uint32_t* countOut) {
    if (plan == NULL || plan->magic != MANI_GRAPH_SUBSET_MAGIC) {
        if (countOut != NULL) *countOut = 0;
        return NULL;
    }
    if (countOut != NULL) *countOut = plan->count;
    return (const uint32_t*)(const void*)((const uint8_t*)plan + MANI_GRAPH_SUBSET_HEADER);
}
