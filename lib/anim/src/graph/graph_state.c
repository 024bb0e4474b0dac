/* graph.h: an instance's state saved as bytes without pointers, and restored
 * from bytes checked as external (the layout in graph.h at
 * maniGraphInstance_Save). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/graph/graph_runtime_internal.h"
#include "lib/core/container.h"

#define MANI_GRAPH_STATE_HEADER 32u
#define MANI_GRAPH_STATE_RECORD 16u
#define MANI_GRAPH_STATE_BONE 40u

/* Whether a node's state block is saved (its kind checks a restored one). */
static int mani_GraphBlockSaved(const maniGraphBinding* b, uint32_t node) {
    return mani_graphKinds[b->nodes[node].kind].checkRestored != NULL && b->nodes[node].stateSize != 0;
}

static uint64_t mani_GraphStateSize(const maniGraphBinding* b) {
    uint64_t blocks = 0;
    for (uint32_t n = 0; n < b->nodeCount; ++n)
        if (mani_GraphBlockSaved(b, n)) blocks += b->nodes[n].stateSize;
    return MANI_GRAPH_STATE_HEADER + (uint64_t)MANI_GRAPH_STATE_RECORD * b->parameterCount +
           (uint64_t)MANI_GRAPH_STATE_RECORD * b->nodeCount +
           (uint64_t)b->poseParameterCount * (8u + (uint64_t)MANI_GRAPH_STATE_BONE * b->boneCount) + blocks + 8u;
}

static void mani_WriteTransform(uint8_t* p, const maniTransform* t) {
    const float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                         t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
    for (int k = 0; k < 10; ++k) mcore_WriteF32(p + 4 * k, v[k]);
}

static maniTransform mani_ReadTransform(const uint8_t* p) {
    maniTransform t;
    t.translation.x = mcore_ReadF32(p);
    t.translation.y = mcore_ReadF32(p + 4);
    t.translation.z = mcore_ReadF32(p + 8);
    t.rotation.x = mcore_ReadF32(p + 12);
    t.rotation.y = mcore_ReadF32(p + 16);
    t.rotation.z = mcore_ReadF32(p + 20);
    t.rotation.w = mcore_ReadF32(p + 24);
    t.scale.x = mcore_ReadF32(p + 28);
    t.scale.y = mcore_ReadF32(p + 32);
    t.scale.z = mcore_ReadF32(p + 36);
    return t;
}

maniResult maniGraphInstance_Save(const maniGraphInstance* instance, void* bytesOut, size_t capacity,
                                  size_t* sizeOut) {
    if (!mani_GraphInstanceOk(instance) || (bytesOut == NULL && capacity != 0)) return mani_errorInvalid;
    const maniGraphBinding* b = instance->binding;
    const uint64_t total = mani_GraphStateSize(b);
    if (sizeOut != NULL) *sizeOut = (size_t)total;
    if (capacity < total) return mani_errorCapacity;
    uint8_t* o = (uint8_t*)bytesOut;
    memset(o, 0, (size_t)total);
    mcore_WriteU32(o, MANI_GRAPH_STATE_MAGIC);
    mcore_WriteU32(o + 4, MANI_ABI_VERSION);
    mcore_WriteU32(o + 8, MANI_GRAPH_STATE_VERSION);
    mcore_WriteU32(o + 12, (uint32_t)total);
    mcore_WriteU64(o + 16, b->graphIdentity);
    mcore_WriteU32(o + 24, b->nodeCount);
    mcore_WriteU32(o + 28, b->parameterCount);
    uint64_t at = MANI_GRAPH_STATE_HEADER;
    const maniGraphValue* values = mani_GraphParameters(instance);
    for (uint32_t p = 0; p < b->parameterCount; ++p, at += MANI_GRAPH_STATE_RECORD) {
        if (b->parameterTypes[p] == maniGraphParameterPose) continue;
        uint32_t words[4];
        memcpy(words, &values[p], sizeof words);
        for (int k = 0; k < 4; ++k) mcore_WriteU32(o + at + 4 * k, words[k]);
    }
    const mani_GraphNodeState* states = mani_GraphStates(instance);
    for (uint32_t n = 0; n < b->nodeCount; ++n, at += MANI_GRAPH_STATE_RECORD) {
        mcore_WriteF32(o + at, states[n].weight);
        mcore_WriteF32(o + at + 4, states[n].playhead);
        mcore_WriteU32(o + at + 8, states[n].flags);
    }
    for (uint32_t k = 0; k < b->poseParameterCount; ++k) {
        mani_GraphPoseHeader* h = mani_GraphPoseParameter(instance, k);
        mcore_WriteU32(o + at, h->set);
        at += 8;
        const maniTransform* locals = mani_GraphPoseLocals(h);
        for (uint32_t bone = 0; bone < b->boneCount; ++bone, at += MANI_GRAPH_STATE_BONE)
            mani_WriteTransform(o + at, &locals[bone]);
    }
    /* The saved kinds' state blocks, word by word in node order. */
    for (uint32_t n = 0; n < b->nodeCount; ++n) {
        if (!mani_GraphBlockSaved(b, n)) continue;
        const uint8_t* block = (const uint8_t*)mani_GraphNodeBlock(instance, n);
        for (uint64_t k = 0; k < b->nodes[n].stateSize; k += 4, at += 4) {
            uint32_t word;
            memcpy(&word, block + k, 4);
            mcore_WriteU32(o + at, word);
        }
    }
    mcore_WriteU32(o + at, instance->updated);
    return mani_success;
}

static maniFileResult mani_StateResult(maniResult r, uint64_t offset) {
    maniFileResult f;
    f.result = r;
    f.offset = offset;
    return f;
}

/* The first non-zero byte of [from, to), or 0 when none. */
static uint64_t mani_FirstNonZero(const uint8_t* s, uint64_t from, uint64_t to) {
    for (uint64_t i = from; i < to; ++i)
        if (s[i] != 0) return i;
    return 0;
}

/* Checks a parameter's record for its type; 0 or the wrong byte's offset. */
static uint64_t mani_CheckStateParameter(const uint8_t* s, uint64_t at, uint32_t type) {
    const float f[4] = {mcore_ReadF32(s + at), mcore_ReadF32(s + at + 4), mcore_ReadF32(s + at + 8),
                        mcore_ReadF32(s + at + 12)};
    switch (type) {
        case maniGraphParameterFloat:
            if (!isfinite(f[0])) return at;
            return mani_FirstNonZero(s, at + 4, at + 16);
        case maniGraphParameterBool:
        case maniGraphParameterTrigger:
            if (mcore_ReadU32(s + at) > 1u) return at;
            return mani_FirstNonZero(s, at + 4, at + 16);
        case maniGraphParameterVector:
            for (int k = 0; k < 3; ++k)
                if (!isfinite(f[k])) return at + 4 * (uint64_t)k;
            return mani_FirstNonZero(s, at + 12, at + 16);
        case maniGraphParameterQuaternion: {
            for (int k = 0; k < 4; ++k)
                if (!isfinite(f[k])) return at + 4 * (uint64_t)k;
            const double x = f[0], y = f[1], z = f[2], w = f[3];
            const double len = sqrt(x * x + y * y + z * z + w * w);
            return fabs(len - 1.0) <= 1e-3 ? 0 : at;
        }
        default: return mani_FirstNonZero(s, at, at + 16); /* a pose parameter's record is empty */
    }
}

static uint64_t mani_CheckStateBone(const uint8_t* s, uint64_t at) {
    for (uint64_t k = 0; k < 10; ++k)
        if (!isfinite(mcore_ReadF32(s + at + 4 * k))) return at + 4 * k;
    const double x = mcore_ReadF32(s + at + 12), y = mcore_ReadF32(s + at + 16);
    const double z = mcore_ReadF32(s + at + 20), w = mcore_ReadF32(s + at + 24);
    const double len = sqrt(x * x + y * y + z * z + w * w);
    return fabs(len - 1.0) <= 1e-3 ? 0 : at + 12;
}

maniFileResult maniGraphInstance_Restore(maniGraphInstance* instance, const void* bytes, size_t size) {
    if (!mani_GraphInstanceOk(instance) || bytes == NULL) return mani_StateResult(mani_errorInvalid, 0);
    const maniGraphBinding* b = instance->binding;
    const uint8_t* s = (const uint8_t*)bytes;
    if (size < 4 || mcore_ReadU32(s) != MANI_GRAPH_STATE_MAGIC) return mani_StateResult(mani_errorFormat, 0);
    if (size < 8) return mani_StateResult(mani_errorFormat, size);
    if (mcore_ReadU32(s + 4) != MANI_ABI_VERSION) return mani_StateResult(mani_errorVersion, 4);
    if (size < 12) return mani_StateResult(mani_errorFormat, size);
    if (mcore_ReadU32(s + 8) != MANI_GRAPH_STATE_VERSION) return mani_StateResult(mani_errorVersion, 8);
    if (size < MANI_GRAPH_STATE_HEADER) return mani_StateResult(mani_errorFormat, size);
    const uint64_t total = mani_GraphStateSize(b);
    if (mcore_ReadU32(s + 12) != total || size != total) return mani_StateResult(mani_errorFormat, 12);
    if (mcore_ReadU64(s + 16) != b->graphIdentity) return mani_StateResult(mani_errorFormat, 16);
    if (mcore_ReadU32(s + 24) != b->nodeCount) return mani_StateResult(mani_errorFormat, 24);
    if (mcore_ReadU32(s + 28) != b->parameterCount) return mani_StateResult(mani_errorFormat, 28);

    uint64_t at = MANI_GRAPH_STATE_HEADER, bad = 0;
    for (uint32_t p = 0; p < b->parameterCount; ++p, at += MANI_GRAPH_STATE_RECORD)
        if ((bad = mani_CheckStateParameter(s, at, b->parameterTypes[p])) != 0) return mani_StateResult(mani_errorFormat, bad);
    const uint64_t nodes = at;
    for (uint32_t n = 0; n < b->nodeCount; ++n, at += MANI_GRAPH_STATE_RECORD) {
        const float weight = mcore_ReadF32(s + at), playhead = mcore_ReadF32(s + at + 4);
        if (!(weight >= 0.0f && weight <= 1.0f)) return mani_StateResult(mani_errorFormat, at);
        const mani_GraphNodeRt* node = &b->nodes[n];
        const float limit = node->kind == maniGraphNodeClip ? node->duration : 0.0f;
        if (!(playhead >= 0.0f && playhead <= limit)) return mani_StateResult(mani_errorFormat, at + 4);
        if ((mcore_ReadU32(s + at + 8) & ~MANI_GRAPH_STATE_FLAGS) != 0) return mani_StateResult(mani_errorFormat, at + 8);
        if (mcore_ReadU32(s + at + 12) != 0) return mani_StateResult(mani_errorFormat, at + 12);
    }
    const uint64_t poses = at;
    for (uint32_t k = 0; k < b->poseParameterCount; ++k) {
        if (mcore_ReadU32(s + at) > 1u) return mani_StateResult(mani_errorFormat, at);
        if ((bad = mani_FirstNonZero(s, at + 4, at + 8)) != 0) return mani_StateResult(mani_errorFormat, bad);
        at += 8;
        for (uint32_t bone = 0; bone < b->boneCount; ++bone, at += MANI_GRAPH_STATE_BONE)
            if ((bad = mani_CheckStateBone(s, at)) != 0) return mani_StateResult(mani_errorFormat, bad);
    }
    const uint64_t blocks = at;
    for (uint32_t n = 0; n < b->nodeCount; ++n) {
        if (!mani_GraphBlockSaved(b, n)) continue;
        const uint64_t wrong = mani_graphKinds[b->nodes[n].kind].checkRestored(b, n, s + at);
        if (wrong != UINT64_MAX) return mani_StateResult(mani_errorFormat, at + wrong);
        at += b->nodes[n].stateSize;
    }
    if (mcore_ReadU32(s + at) > 1u) return mani_StateResult(mani_errorFormat, at);
    if ((bad = mani_FirstNonZero(s, at + 4, at + 8)) != 0) return mani_StateResult(mani_errorFormat, bad);

    /* Every byte checked: the state is the instance's. */
    maniGraphValue* values = mani_GraphParameters(instance);
    at = MANI_GRAPH_STATE_HEADER;
    for (uint32_t p = 0; p < b->parameterCount; ++p, at += MANI_GRAPH_STATE_RECORD) {
        uint32_t words[4];
        for (int k = 0; k < 4; ++k) words[k] = mcore_ReadU32(s + at + 4 * k);
        memcpy(&values[p], words, sizeof words);
    }
    mani_GraphNodeState* states = mani_GraphStates(instance);
    at = nodes;
    for (uint32_t n = 0; n < b->nodeCount; ++n, at += MANI_GRAPH_STATE_RECORD) {
        states[n].weight = mcore_ReadF32(s + at);
        states[n].playhead = mcore_ReadF32(s + at + 4);
        states[n].flags = mcore_ReadU32(s + at + 8);
        states[n].reserved = 0;
    }
    at = poses;
    for (uint32_t k = 0; k < b->poseParameterCount; ++k) {
        mani_GraphPoseHeader* h = mani_GraphPoseParameter(instance, k);
        h->set = mcore_ReadU32(s + at);
        h->reserved = 0;
        at += 8;
        maniTransform* locals = mani_GraphPoseLocals(h);
        for (uint32_t bone = 0; bone < b->boneCount; ++bone, at += MANI_GRAPH_STATE_BONE)
            locals[bone] = mani_ReadTransform(s + at);
    }
    at = blocks;
    for (uint32_t n = 0; n < b->nodeCount; ++n) {
        if (!mani_GraphBlockSaved(b, n)) continue;
        uint8_t* block = (uint8_t*)mani_GraphNodeBlock(instance, n);
        for (uint64_t k = 0; k < b->nodes[n].stateSize; k += 4, at += 4) {
            const uint32_t word = mcore_ReadU32(s + at);
            memcpy(block + k, &word, 4);
        }
    }
    instance->updated = mcore_ReadU32(s + at);
    mani_GraphResetStates(instance, 0); /* the caches (clip cursors) start over: no pose depends on them */
    return mani_StateResult(mani_success, 0);
}
