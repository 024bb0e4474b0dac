/* maniBuildSkeleton: checks a source, orders its bones depth-first and
 * writes a skeleton file (docs/formats.md, "Skeleton"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/skeleton/skeleton_format.h"
#include "lib/core/utf8.h"

typedef struct {
    uint64_t hash;
    uint32_t bone; /* source index */
    uint32_t pad;
} mani_NameKey;

static int mani_CompareNameKeys(const void* a, const void* b) {
    const mani_NameKey* x = (const mani_NameKey*)a;
    const mani_NameKey* y = (const mani_NameKey*)b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->bone < y->bone ? -1 : (x->bone > y->bone ? 1 : 0);
}

static int mani_TransformFinite(const maniTransform* t) {
    const float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                         t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
    for (int i = 0; i < 10; ++i)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* The scratch a build allocates; all freed before it returns. */
typedef struct {
    mani_NameKey* keys;
    uint32_t* childStart; /* n + 1 */
    uint32_t* children;   /* n */
    uint32_t* stack;      /* n */
    uint32_t* order;      /* skeleton index -> source index */
    uint32_t* place;      /* source index -> skeleton index (kept on success) */
    uint32_t* ends;       /* skeleton index -> subtree end */
} mani_SkeletonScratch;

static void mani_FreeScratch(maniBuilder* b, mani_SkeletonScratch* s, uint32_t n) {
    mani_BuilderFree(b, s->keys, (size_t)n * sizeof(mani_NameKey));
    mani_BuilderFree(b, s->childStart, ((size_t)n + 1) * sizeof(uint32_t));
    mani_BuilderFree(b, s->children, (size_t)n * sizeof(uint32_t));
    mani_BuilderFree(b, s->stack, (size_t)n * sizeof(uint32_t));
    mani_BuilderFree(b, s->order, (size_t)n * sizeof(uint32_t));
    mani_BuilderFree(b, s->place, (size_t)n * sizeof(uint32_t));
    mani_BuilderFree(b, s->ends, (size_t)n * sizeof(uint32_t));
}

maniBuildResult maniBuildSkeleton(maniBuilder* builder, const maniSkeletonSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const uint32_t n = source->boneCount;
    if (source->bones == NULL || n == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    if (n > MANI_MAX_BONES) return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, n, 0);

    /* Each bone on its own, in source order. */
    uint64_t namesSize = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const maniSkeletonSourceBone* bone = &source->bones[i];
        if (bone->nameLength == 0 || bone->name == NULL)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, i, 0);
        if (bone->nameLength > MANI_MAX_NAME_BYTES)
            return mani_BuildResult(mani_errorLimit, maniBuildReasonName, i, 0);
        if (mcore_Utf8Check((const uint8_t*)bone->name, bone->nameLength) != bone->nameLength)
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonName, i, 0);
        if (bone->parent != MANI_NO_BONE && (bone->parent >= n || bone->parent == i))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, i, 0);
        if (!mani_TransformFinite(&bone->rest))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, i, 0);
        const maniQuat q = bone->rest.rotation;
        double len2 = (((double)q.x * q.x + (double)q.y * q.y) + (double)q.z * q.z) + (double)q.w * q.w;
        if (!(len2 > 0)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, i, 0);
        namesSize += bone->nameLength;
    }

    mani_SkeletonScratch s;
    memset(&s, 0, sizeof s);
    s.keys = (mani_NameKey*)mani_BuilderAlloc(builder, (size_t)n * sizeof(mani_NameKey), 8);
    s.childStart = (uint32_t*)mani_BuilderAlloc(builder, ((size_t)n + 1) * sizeof(uint32_t), 4);
    s.children = (uint32_t*)mani_BuilderAlloc(builder, (size_t)n * sizeof(uint32_t), 4);
    s.stack = (uint32_t*)mani_BuilderAlloc(builder, (size_t)n * sizeof(uint32_t), 4);
    s.order = (uint32_t*)mani_BuilderAlloc(builder, (size_t)n * sizeof(uint32_t), 4);
    s.place = (uint32_t*)mani_BuilderAlloc(builder, (size_t)n * sizeof(uint32_t), 4);
    s.ends = (uint32_t*)mani_BuilderAlloc(builder, (size_t)n * sizeof(uint32_t), 4);
    if (!s.keys || !s.childStart || !s.children || !s.stack || !s.order || !s.place || !s.ends) {
        mani_FreeScratch(builder, &s, n);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }

    /* Unique names: sort (hash, bone); equal neighbours are a duplicate (same
     * bytes) or a hash collision. The refusal names the earliest later bone. */
    for (uint32_t i = 0; i < n; ++i) {
        s.keys[i].hash = mani_NameHash(source->bones[i].name, source->bones[i].nameLength);
        s.keys[i].bone = i;
        s.keys[i].pad = 0;
    }
    qsort(s.keys, n, sizeof(mani_NameKey), mani_CompareNameKeys);
    uint32_t worst = MANI_NO_BONE, worstOther = 0, worstReason = 0;
    for (uint32_t k = 1; k < n; ++k) {
        if (s.keys[k].hash != s.keys[k - 1].hash) continue;
        /* Within a run of equal hashes the first is the earliest bone. */
        uint32_t first = k - 1;
        while (first > 0 && s.keys[first - 1].hash == s.keys[k].hash) first--;
        const maniSkeletonSourceBone* a = &source->bones[s.keys[first].bone];
        const maniSkeletonSourceBone* c = &source->bones[s.keys[k].bone];
        uint32_t reason = (a->nameLength == c->nameLength && memcmp(a->name, c->name, a->nameLength) == 0)
                              ? maniBuildReasonDuplicateName
                              : maniBuildReasonNameHash;
        if (s.keys[k].bone < worst) {
            worst = s.keys[k].bone;
            worstOther = s.keys[first].bone;
            worstReason = reason;
        }
    }
    if (worst != MANI_NO_BONE) {
        mani_FreeScratch(builder, &s, n);
        return mani_BuildResult(mani_errorInvalid, worstReason, worst, worstOther);
    }

    /* Children of each bone in source order (counting sort by parent). */
    memset(s.childStart, 0, ((size_t)n + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; ++i)
        if (source->bones[i].parent != MANI_NO_BONE) s.childStart[source->bones[i].parent + 1]++;
    for (uint32_t i = 0; i < n; ++i) s.childStart[i + 1] += s.childStart[i];
    for (uint32_t i = 0; i < n; ++i) s.place[i] = s.childStart[i]; /* fill cursors */
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t p = source->bones[i].parent;
        if (p != MANI_NO_BONE) s.children[s.place[p]++] = i;
    }

    /* Depth-first from each root in source order; a child's subtree before
     * its next sibling. stack holds source bones still to visit, pushed in
     * reverse so they pop in order. */
    for (uint32_t i = 0; i < n; ++i) s.place[i] = MANI_NO_BONE;
    uint32_t placed = 0;
    for (uint32_t root = 0; root < n; ++root) {
        if (source->bones[root].parent != MANI_NO_BONE) continue;
        uint32_t top = 0;
        s.stack[top++] = root;
        while (top > 0) {
            uint32_t bone = s.stack[--top];
            s.place[bone] = placed;
            s.order[placed++] = bone;
            for (uint32_t c = s.childStart[bone + 1]; c > s.childStart[bone]; --c) s.stack[top++] = s.children[c - 1];
        }
    }
    if (placed != n) {
        /* Bones no root reaches: their parents make a cycle. */
        uint32_t first = 0;
        while (s.place[first] != MANI_NO_BONE) first++;
        mani_FreeScratch(builder, &s, n);
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, first, 0);
    }
    /* Subtree ends: walking the order backwards, a bone's end is the larger
     * of its own next index and its children's ends. */
    for (uint32_t k = 0; k < n; ++k) s.ends[k] = k + 1;
    for (uint32_t k = n; k-- > 1;) {
        uint32_t p = source->bones[s.order[k]].parent;
        if (p != MANI_NO_BONE && s.ends[k] > s.ends[s.place[p]]) s.ends[s.place[p]] = s.ends[k];
    }

    /* The file. */
    const uint64_t sizes[MANI_SKELETON_SECTION_COUNT] = {
        16, 4ull * n, 4ull * n, 4ull * MANI_SKELETON_REST_FLOATS * n, 8ull * n, 8ull * n, 4ull * n, namesSize};
    mcore_Layout layout;
    if (!mcore_LayoutSections(&layout, maniSkeletonSections, sizes, MANI_SKELETON_SECTION_COUNT, SIZE_MAX)) {
        mani_FreeScratch(builder, &s, n);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    uint8_t* file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) {
        mani_FreeScratch(builder, &s, n);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    mcore_WriteU32(file + sec[0].offset, n);
    mcore_WriteU32(file + sec[0].offset + 4, (uint32_t)namesSize);
    uint32_t nameCursor = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const maniSkeletonSourceBone* bone = &source->bones[s.order[k]];
        uint32_t parent = bone->parent == MANI_NO_BONE ? MANI_NO_BONE : s.place[bone->parent];
        mcore_WriteU32(file + sec[1].offset + 4ull * k, parent);
        mcore_WriteU32(file + sec[2].offset + 4ull * k, s.ends[k]);
        /* The rotation normalized in binary64, rounded once to binary32. */
        const maniQuat q = bone->rest.rotation;
        double len = sqrt((((double)q.x * q.x + (double)q.y * q.y) + (double)q.z * q.z) + (double)q.w * q.w);
        const float rest[MANI_SKELETON_REST_FLOATS] = {
            bone->rest.translation.x, bone->rest.translation.y, bone->rest.translation.z,
            (float)(q.x / len),       (float)(q.y / len),       (float)(q.z / len),
            (float)(q.w / len),       bone->rest.scale.x,       bone->rest.scale.y,
            bone->rest.scale.z};
        uint8_t* r = file + sec[3].offset + 4ull * MANI_SKELETON_REST_FLOATS * k;
        for (uint32_t f = 0; f < MANI_SKELETON_REST_FLOATS; ++f) mcore_WriteF32(r + 4 * f, rest[f]);
        mcore_WriteU32(file + sec[4].offset + 8ull * k, nameCursor);
        mcore_WriteU32(file + sec[4].offset + 8ull * k + 4, (uint32_t)bone->nameLength);
        mcore_WriteU64(file + sec[5].offset + 8ull * k, mani_NameHash(bone->name, bone->nameLength));
        memcpy(file + sec[7].offset + nameCursor, bone->name, bone->nameLength);
        nameCursor += (uint32_t)bone->nameLength;
    }
    /* The name order: the sorted keys, mapped to skeleton indices. */
    for (uint32_t k = 0; k < n; ++k) mcore_WriteU32(file + sec[6].offset + 4ull * k, s.place[s.keys[k].bone]);
    mcore_FinishContainer(file, &layout, mcore_kindSkeleton, mcore_formatSkeletonLatest, MANI_ABI_VERSION);

    uint32_t* keptOrder = s.place;
    s.place = NULL;
    mani_FreeScratch(builder, &s, n);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, keptOrder, n);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
