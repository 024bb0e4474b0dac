/* maniBuildMirrorMap: pairs a skeleton's bones and a list of names by
 * explicit pairs and find/replace rules, turns the reference pose's model
 * rotations into each bone's corrections, and writes a mirror map file
 * (docs/formats.md, "Mirror map"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/build/turn64_internal.h"
#include "lib/anim/src/mirror/mirror_format.h"
#include "lib/anim/src/skeleton/skeleton_format.h"
#include "lib/core/quat64.h"
#include "lib/core/utf8.h"
#include "maul/anim/mirrorbuild.h"

/* The longest name a rule can make: a name with its find replaced. */
#define MANI_MIRROR_MADE_BYTES (2u * MANI_MAX_NAME_BYTES)

/* Applies a rule to a name: 1 with the made name in out (*outLength bytes,
 * up to MANI_MIRROR_MADE_BYTES) when find stands at the rule's place. */
static int mani_ApplyMirrorRule(const maniMirrorRule* rule, const char* name, size_t length, char* out,
                                size_t* outLength) {
    const size_t f = rule->findLength;
    if (f == 0 || f > length) return 0;
    size_t at = SIZE_MAX;
    if (rule->place == maniMirrorRulePrefix) {
        if (memcmp(name, rule->find, f) == 0) at = 0;
    } else if (rule->place == maniMirrorRuleSuffix) {
        if (memcmp(name + length - f, rule->find, f) == 0) at = length - f;
    } else {
        for (size_t i = 0; i + f <= length; ++i)
            if (memcmp(name + i, rule->find, f) == 0) {
                at = i;
                break;
            }
    }
    if (at == SIZE_MAX) return 0;
    memcpy(out, name, at);
    if (rule->replaceLength != 0) memcpy(out + at, rule->replace, rule->replaceLength);
    memcpy(out + at + rule->replaceLength, name + at + f, length - at - f);
    *outLength = length - f + rule->replaceLength;
    return 1;
}

/* The bone the rules pair a bone with: the first rule whose find stands at
 * its place and whose made name is a bone (*ruleOut that rule), or
 * MANI_NO_BONE. */
static uint32_t mani_RulePartner(const maniMirrorMapSource* src, uint32_t bone, uint32_t* ruleOut) {
    size_t length = 0;
    const char* name = maniSkeleton_GetBoneName(src->skeleton, bone, &length);
    char made[MANI_MIRROR_MADE_BYTES];
    for (uint32_t r = 0; r < src->ruleCount; ++r) {
        size_t madeLength = 0;
        if (!mani_ApplyMirrorRule(&src->rules[r], name, length, made, &madeLength)) continue;
        if (madeLength > MANI_MAX_NAME_BYTES) continue;
        const uint32_t partner = maniSkeleton_FindBone(src->skeleton, made, madeLength);
        if (partner == MANI_NO_BONE) continue;
        *ruleOut = r;
        return partner;
    }
    return MANI_NO_BONE;
}

/* One direction of a name pair in the map's table. */
typedef struct {
    uint64_t hash;
    uint64_t partnerHash;
    const char* name;
    const char* partner;
    uint32_t length;
    uint32_t partnerLength;
    uint32_t item;   /* the source name it comes from */
    uint32_t offset; /* its bytes in the file's names */
} mani_MirrorNameEntry;

static int mani_CompareMirrorNames(const void* a, const void* b) {
    const mani_MirrorNameEntry* x = (const mani_MirrorNameEntry*)a;
    const mani_MirrorNameEntry* y = (const mani_MirrorNameEntry*)b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->item < y->item ? -1 : (x->item > y->item ? 1 : 0);
}

/* A name of the source (1 to MANI_MAX_NAME_BYTES of UTF-8), or the refusal. */
static maniBuildResult mani_CheckMirrorName(const char* name, size_t length, uint64_t item) {
    if (length > MANI_MAX_NAME_BYTES) return mani_BuildResult(mani_errorLimit, maniBuildReasonMirrorName, item, 0);
    if (name == NULL || length == 0 || mcore_Utf8Check((const uint8_t*)name, length) != length)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorName, item, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

/* The scale permutation and the approximate flag of a bone's own turn: axis
 * j takes the partner's axis its turned image lies nearest. */
static uint32_t mani_ScaleFlags(const float turn[4]) {
    const double q[4] = {turn[0], turn[1], turn[2], turn[3]};
    uint32_t axes[3], approximate = 0;
    for (uint32_t j = 0; j < 3; ++j) {
        double e[3] = {0, 0, 0}, v[3];
        e[j] = 1.0;
        mcore_QuatRotate64(q, e, v);
        uint32_t best = 0;
        for (uint32_t k = 1; k < 3; ++k)
            if (fabs(v[k]) > fabs(v[best])) best = k;
        if (!(fabs(v[best]) >= 1.0 - 1e-6)) approximate = 1;
        axes[j] = best;
    }
    if (axes[0] == axes[1] || axes[0] == axes[2] || axes[1] == axes[2]) {
        axes[0] = 0;
        axes[1] = 1;
        axes[2] = 2;
        approximate = 1;
    }
    return (approximate ? MANI_MIRROR_BONE_SCALE_APPROXIMATE : 0u) |
           ((axes[0] | (axes[1] << 2) | (axes[2] << 4)) << MANI_MIRROR_PERMUTATION_SHIFT);
}

typedef struct {
    uint32_t* partner;            /* n */
    uint32_t* rule;               /* n: the rule that paired a bone, or MANI_NO_BONE */
    double* model;                /* 4 n: reference model rotations */
    double* local;                /* 4 n: reference local rotations, normalized */
    mani_MirrorNameEntry* names;  /* 2 (name pairs + names) */
} mani_MirrorScratch;

static void mani_FreeMirrorScratch(maniBuilder* b, mani_MirrorScratch* s, uint32_t n, size_t nameSlots) {
    mani_BuilderFree(b, s->partner, (size_t)n * 4);
    mani_BuilderFree(b, s->rule, (size_t)n * 4);
    mani_BuilderFree(b, s->model, (size_t)n * 32);
    mani_BuilderFree(b, s->local, (size_t)n * 32);
    if (nameSlots) mani_BuilderFree(b, s->names, nameSlots * sizeof(mani_MirrorNameEntry));
}

static maniBuildResult mani_Refuse(maniBuilder* b, mani_MirrorScratch* s, uint32_t n, size_t slots, maniResult r,
                                   uint32_t reason, uint64_t item, uint64_t other) {
    mani_FreeMirrorScratch(b, s, n, slots);
    return mani_BuildResult(r, reason, item, other);
}

static void mani_AddNameEntry(mani_MirrorNameEntry* e, const char* name, size_t length, const char* partner,
                              size_t partnerLength, uint32_t item) {
    e->name = name;
    e->length = (uint32_t)length;
    e->partner = partner;
    e->partnerLength = (uint32_t)partnerLength;
    e->hash = mani_NameHash(name, length);
    e->partnerHash = mani_NameHash(partner, partnerLength);
    e->item = item;
    e->offset = 0;
}

maniBuildResult maniBuildMirrorMap(maniBuilder* builder, const maniMirrorMapSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniSkeleton* skeleton = source->skeleton;
    const uint32_t n = maniSkeleton_GetBoneCount(skeleton);
    if (n == 0 || (source->pairCount && !source->pairs) || (source->ruleCount && !source->rules) ||
        (source->namePairCount && !source->namePairs) || (source->nameCount && !source->names))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    if (source->axis > 2) return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, 0, 0);

    /* Rules. */
    for (uint32_t r = 0; r < source->ruleCount; ++r) {
        const maniMirrorRule* rule = &source->rules[r];
        if (rule->findLength > MANI_MAX_NAME_BYTES || rule->replaceLength > MANI_MAX_NAME_BYTES)
            return mani_BuildResult(mani_errorLimit, maniBuildReasonMirrorRule, r, 0);
        if (rule->find == NULL || rule->findLength == 0 || (rule->replace == NULL && rule->replaceLength != 0) ||
            rule->place > maniMirrorRuleAnywhere ||
            mcore_Utf8Check((const uint8_t*)rule->find, rule->findLength) != rule->findLength ||
            (rule->replaceLength &&
             mcore_Utf8Check((const uint8_t*)rule->replace, rule->replaceLength) != rule->replaceLength))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorRule, r, 0);
    }
    /* The reference. */
    if (source->reference != NULL) {
        for (uint32_t i = 0; i < n; ++i) {
            const maniTransform* t = &source->reference[i];
            const float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                                 t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
            for (int k = 0; k < 10; ++k)
                if (!isfinite(v[k])) return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorReference, i, 0);
            const double len2 = (((double)v[3] * v[3] + (double)v[4] * v[4]) + (double)v[5] * v[5]) + (double)v[6] * v[6];
            if (!(len2 > 0)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorReference, i, 0);
        }
    }
    /* Names, one list: each valid, the rule-made partners within bounds. */
    const uint32_t sourceNames = 2u * source->namePairCount + source->nameCount;
    if ((uint64_t)2 * source->namePairCount + source->nameCount > UINT32_MAX)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    uint64_t namesTotal = 0;
    for (uint32_t k = 0; k < source->namePairCount; ++k) {
        const maniMirrorNamePair* p = &source->namePairs[k];
        maniBuildResult r = mani_CheckMirrorName(p->name, p->nameLength, 2ull * k);
        if (r.result != mani_success) return r;
        r = mani_CheckMirrorName(p->partner, p->partnerLength, 2ull * k + 1);
        if (r.result != mani_success) return r;
        namesTotal += 2ull * (p->nameLength + p->partnerLength);
    }
    for (uint32_t j = 0; j < source->nameCount; ++j) {
        const maniMirrorName* m = &source->names[j];
        const uint64_t item = 2ull * source->namePairCount + j;
        maniBuildResult r = mani_CheckMirrorName(m->name, m->length, item);
        if (r.result != mani_success) return r;
        char made[MANI_MIRROR_MADE_BYTES];
        for (uint32_t q = 0; q < source->ruleCount; ++q) {
            size_t madeLength = 0;
            if (!mani_ApplyMirrorRule(&source->rules[q], m->name, m->length, made, &madeLength)) continue;
            if (madeLength > MANI_MAX_NAME_BYTES)
                return mani_BuildResult(mani_errorLimit, maniBuildReasonMirrorName, item, 0);
            if (madeLength == 0 || mcore_Utf8Check((const uint8_t*)made, madeLength) != madeLength)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonMirrorName, item, 0);
            namesTotal += 2ull * (m->length + madeLength);
            break;
        }
    }
    if (namesTotal > UINT32_MAX) return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);

    const size_t slots = 2u * (size_t)sourceNames;
    mani_MirrorScratch s;
    memset(&s, 0, sizeof s);
    s.partner = (uint32_t*)mani_BuilderAlloc(builder, (size_t)n * 4, 4);
    s.rule = (uint32_t*)mani_BuilderAlloc(builder, (size_t)n * 4, 4);
    s.model = (double*)mani_BuilderAlloc(builder, (size_t)n * 32, 8);
    s.local = (double*)mani_BuilderAlloc(builder, (size_t)n * 32, 8);
    if (slots) s.names = (mani_MirrorNameEntry*)mani_BuilderAlloc(builder, slots * sizeof(mani_MirrorNameEntry), 8);
    if (!s.partner || !s.rule || !s.model || !s.local || (slots && !s.names))
        return mani_Refuse(builder, &s, n, slots, mani_errorCapacity, maniBuildReasonNone, 0, 0);

    /* Explicit pairs, then the rules. */
    for (uint32_t i = 0; i < n; ++i) s.partner[i] = MANI_NO_BONE, s.rule[i] = MANI_NO_BONE;
    for (uint32_t k = 0; k < source->pairCount; ++k) {
        const uint32_t a = source->pairs[k].bone, c = source->pairs[k].partner;
        if (a >= n || c >= n || s.partner[a] != MANI_NO_BONE || s.partner[c] != MANI_NO_BONE)
            return mani_Refuse(builder, &s, n, slots, mani_errorInvalid, maniBuildReasonMirrorPair, a, c);
        s.partner[a] = c;
        s.partner[c] = a;
    }
    for (uint32_t i = 0; i < n; ++i) {
        if (s.partner[i] != MANI_NO_BONE) continue; /* explicit, or paired back already */
        uint32_t r = MANI_NO_BONE;
        const uint32_t p = mani_RulePartner(source, i, &r);
        if (p == MANI_NO_BONE || p == i) {
            s.partner[i] = i;
            continue;
        }
        uint32_t back = MANI_NO_BONE;
        if (s.partner[p] != MANI_NO_BONE || mani_RulePartner(source, p, &back) != i)
            return mani_Refuse(builder, &s, n, slots, mani_errorInvalid, maniBuildReasonMirrorRule, r, 0);
        s.partner[i] = p;
        s.partner[p] = i;
        s.rule[i] = r;
        s.rule[p] = back;
    }

    /* Reference rotations: locals normalized, model rotations composed in
     * bone order, all in binary64. */
    for (uint32_t i = 0; i < n; ++i) {
        const maniTransform t = source->reference ? source->reference[i] : maniSkeleton_GetRest(skeleton, i);
        double q[4] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
        const double len = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
        for (int k = 0; k < 4; ++k) s.local[4 * i + k] = q[k] / len;
        const uint32_t parent = maniSkeleton_GetParent(skeleton, i);
        if (parent == MANI_NO_BONE) {
            memcpy(&s.model[4 * i], &s.local[4 * i], 32);
        } else {
            mcore_QuatMul64(&s.model[4 * parent], &s.local[4 * i], &s.model[4 * i]);
        }
    }

    /* Names: both directions of every pair, sorted by hash. */
    uint32_t count = 0;
    for (uint32_t k = 0; k < source->namePairCount; ++k) {
        const maniMirrorNamePair* p = &source->namePairs[k];
        if (p->nameLength == p->partnerLength && memcmp(p->name, p->partner, p->nameLength) == 0) continue;
        mani_AddNameEntry(&s.names[count++], p->name, p->nameLength, p->partner, p->partnerLength, 2u * k);
        mani_AddNameEntry(&s.names[count++], p->partner, p->partnerLength, p->name, p->nameLength, 2u * k + 1);
    }
    /* Made partners live in a buffer of the build (the longest, per name). */
    char* made = NULL;
    const size_t madeSize = (size_t)source->nameCount * MANI_MAX_NAME_BYTES;
    if (madeSize) {
        made = (char*)mani_BuilderAlloc(builder, madeSize, 1);
        if (!made) return mani_Refuse(builder, &s, n, slots, mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    for (uint32_t j = 0; j < source->nameCount; ++j) {
        const maniMirrorName* m = &source->names[j];
        char* out = made + (size_t)j * MANI_MAX_NAME_BYTES;
        char buffer[MANI_MIRROR_MADE_BYTES];
        for (uint32_t q = 0; q < source->ruleCount; ++q) {
            size_t madeLength = 0;
            if (!mani_ApplyMirrorRule(&source->rules[q], m->name, m->length, buffer, &madeLength)) continue;
            memcpy(out, buffer, madeLength);
            if (madeLength != m->length || memcmp(out, m->name, madeLength) != 0) {
                const uint32_t item = 2u * source->namePairCount + j;
                mani_AddNameEntry(&s.names[count++], m->name, m->length, out, madeLength, item);
                mani_AddNameEntry(&s.names[count++], out, madeLength, m->name, m->length, item);
            }
            break;
        }
    }
    if (count) qsort(s.names, count, sizeof(mani_MirrorNameEntry), mani_CompareMirrorNames);
    /* Equal hashes: the same pair twice (a name listed again, or a pair
     * given from both its sides) is kept once; the same name with another
     * partner (maniBuildReasonMirrorName), or another name of the hash
     * (maniBuildReasonNameHash), is refused, naming the earliest later
     * source name against the run's earliest. */
    uint32_t kept = 0;
    uint32_t worst = UINT32_MAX, worstOther = 0, worstReason = 0;
    for (uint32_t k = 0; k < count; ++k) {
        if (kept > 0 && s.names[kept - 1].hash == s.names[k].hash) {
            const mani_MirrorNameEntry* a = &s.names[kept - 1];
            const mani_MirrorNameEntry* c = &s.names[k];
            const int sameName = a->length == c->length && memcmp(a->name, c->name, a->length) == 0;
            const int samePartner =
                a->partnerLength == c->partnerLength && memcmp(a->partner, c->partner, a->partnerLength) == 0;
            if (!(sameName && samePartner) && c->item < worst) {
                worst = c->item;
                worstOther = a->item;
                worstReason = sameName ? maniBuildReasonMirrorName : maniBuildReasonNameHash;
            }
            continue;
        }
        s.names[kept++] = s.names[k];
    }
    if (worst != UINT32_MAX) {
        if (made) mani_BuilderFree(builder, made, madeSize);
        return mani_Refuse(builder, &s, n, slots, mani_errorInvalid, worstReason, worst, worstOther);
    }

    /* The file. */
    uint64_t namesSize = 0;
    for (uint32_t k = 0; k < kept; ++k) namesSize += s.names[k].length;
    const uint64_t sizes[MANI_MIRROR_SECTION_COUNT] = {MANI_MIRROR_INFO_SIZE, 4ull * n, 4ull * n,
                                                       4ull * MANI_MIRROR_CORRECTION_FLOATS * n,
                                                       (uint64_t)MANI_MIRROR_NAME_ENTRY_SIZE * kept, namesSize};
    mcore_Layout layout;
    uint8_t* file = NULL;
    if (mcore_LayoutSections(&layout, maniMirrorSections, sizes, MANI_MIRROR_SECTION_COUNT, SIZE_MAX))
        file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) {
        if (made) mani_BuilderFree(builder, made, madeSize);
        return mani_Refuse(builder, &s, n, slots, mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    uint32_t unmatched = MANI_NO_BONE;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t p = s.partner[i];
        const uint32_t parent = maniSkeleton_GetParent(skeleton, i), partnerParent = maniSkeleton_GetParent(skeleton, p);
        const int matched = parent == MANI_NO_BONE ? partnerParent == MANI_NO_BONE
                                                   : partnerParent != MANI_NO_BONE && s.partner[parent] == partnerParent;
        float before[4] = {0, 0, 0, 1}, after[4];
        double mirrored[4];
        uint32_t flags = 0;
        if (matched) {
            if (parent != MANI_NO_BONE) {
                memcpy(mirrored, &s.model[4 * partnerParent], 32);
                mani_MirrorQuat64(mirrored, source->axis);
                /* conj(own parent) mirrored partner parent. */
                mani_TurnBetween64(&s.model[4 * parent], mirrored, before);
            }
            memcpy(mirrored, &s.model[4 * p], 32);
            mani_MirrorQuat64(mirrored, source->axis);
            mani_TurnBetween64(mirrored, &s.model[4 * i], after);
        } else {
            flags |= MANI_MIRROR_BONE_UNMATCHED;
            if (unmatched == MANI_NO_BONE) unmatched = i;
            memcpy(mirrored, &s.local[4 * p], 32);
            mani_MirrorQuat64(mirrored, source->axis);
            mani_TurnBetween64(mirrored, &s.local[4 * i], after);
        }
        flags |= mani_ScaleFlags(after);
        mcore_WriteU32(file + sec[1].offset + 4ull * i, p);
        mcore_WriteU32(file + sec[2].offset + 4ull * i, flags);
        uint8_t* c = file + sec[3].offset + 4ull * MANI_MIRROR_CORRECTION_FLOATS * i;
        for (int k = 0; k < 4; ++k) mcore_WriteF32(c + 4 * k, before[k]);
        for (int k = 0; k < 4; ++k) mcore_WriteF32(c + 16 + 4 * k, after[k]);
    }
    const uint64_t info = sec[0].offset;
    mcore_WriteU64(file + info, maniSkeleton_GetIdentity(skeleton));
    mcore_WriteU32(file + info + 8, n);
    mcore_WriteU32(file + info + 12, source->axis);
    mcore_WriteU32(file + info + 16, kept);
    mcore_WriteU32(file + info + 20, (uint32_t)namesSize);
    mcore_WriteU32(file + info + 24, unmatched);
    uint32_t cursor = 0;
    for (uint32_t k = 0; k < kept; ++k) {
        s.names[k].offset = cursor;
        memcpy(file + sec[5].offset + cursor, s.names[k].name, s.names[k].length);
        cursor += s.names[k].length;
    }
    for (uint32_t k = 0; k < kept; ++k) {
        const mani_MirrorNameEntry* e = &s.names[k];
        /* The partner's entry: every pair is held both ways. */
        uint32_t lo = 0, hi = kept, at = k;
        while (lo < hi) {
            const uint32_t mid = lo + (hi - lo) / 2;
            if (s.names[mid].hash < e->partnerHash) {
                lo = mid + 1;
            } else if (s.names[mid].hash > e->partnerHash) {
                hi = mid;
            } else {
                at = mid;
                break;
            }
        }
        uint8_t* w = file + sec[4].offset + (uint64_t)MANI_MIRROR_NAME_ENTRY_SIZE * k;
        mcore_WriteU64(w, e->hash);
        mcore_WriteU64(w + 8, e->partnerHash);
        mcore_WriteU32(w + 16, e->offset);
        mcore_WriteU32(w + 20, e->length);
        mcore_WriteU32(w + 24, s.names[at].offset);
        mcore_WriteU32(w + 28, s.names[at].length);
    }
    mcore_FinishContainer(file, &layout, mcore_kindMirrorMap, mcore_formatMirrorMapLatest, MANI_ABI_VERSION);
    if (made) mani_BuilderFree(builder, made, madeSize);
    mani_FreeMirrorScratch(builder, &s, n, slots);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}
