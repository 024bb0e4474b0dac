/* maniBuildInfluences and maniBuildCenters: check a source and write an
 * influences file (docs/formats.md, "Influences"). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/skinning/influences_format.h"
#include "lib/core/detmath.h"

/* The parts of an influences file, before its bytes exist. */
typedef struct mani_InfluenceParts {
    uint32_t vertexCount, perVertex, jointCount;
    uint64_t skinIdentity;
    const uint16_t* joints;  /* vertexCount * perVertex, or NULL: read from `from` */
    const float* weights;    /* as joints */
    const maniInfluences* from; /* an opened view whose joints and weights to copy */
    const float* blend;      /* vertexCount, or NULL */
    const float* centers;    /* 3 * vertexCount, or NULL */
} mani_InfluenceParts;

static maniBuildResult mani_WriteInfluences(maniBuilder* builder, const mani_InfluenceParts* p) {
    const uint64_t count = (uint64_t)p->vertexCount * p->perVertex;
    const uint64_t sizes[MANI_INFLUENCES_SECTION_COUNT] = {MANI_INFLUENCES_INFO_SIZE, 2 * count, 4 * count,
                                                           p->blend != NULL ? 4ull * p->vertexCount : 0,
                                                           p->centers != NULL ? 12ull * p->vertexCount : 0};
    mcore_Layout layout;
    if (!mcore_LayoutSections(&layout, maniInfluencesSections, sizes, MANI_INFLUENCES_SECTION_COUNT, SIZE_MAX))
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    uint8_t* file = (uint8_t*)mani_BuilderAlloc(builder, (size_t)layout.totalSize, MANI_FILE_ALIGNMENT);
    if (file == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    memset(file, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    uint8_t* info = file + sec[0].offset;
    mcore_WriteU32(info, p->vertexCount);
    mcore_WriteU32(info + 4, p->perVertex);
    mcore_WriteU32(info + 8, p->jointCount);
    mcore_WriteU32(info + 12, (p->blend != NULL ? MANI_INFLUENCES_HAS_BLEND : 0u) |
                                  (p->centers != NULL ? MANI_INFLUENCES_HAS_CENTERS : 0u));
    mcore_WriteU64(info + 16, p->skinIdentity);
    if (p->from != NULL) {
        memcpy(file + sec[1].offset, p->from->bytes + p->from->joints, (size_t)(2 * count));
        memcpy(file + sec[2].offset, p->from->bytes + p->from->weights, (size_t)(4 * count));
    } else {
        for (uint64_t i = 0; i < count; ++i) {
            file[sec[1].offset + 2 * i] = (uint8_t)p->joints[i];
            file[sec[1].offset + 2 * i + 1] = (uint8_t)(p->joints[i] >> 8);
            mcore_WriteF32(file + sec[2].offset + 4 * i, p->weights[i]);
        }
    }
    if (p->blend != NULL)
        for (uint32_t v = 0; v < p->vertexCount; ++v) mcore_WriteF32(file + sec[3].offset + 4ull * v, p->blend[v]);
    if (p->centers != NULL)
        for (uint64_t i = 0; i < 3ull * p->vertexCount; ++i) mcore_WriteF32(file + sec[4].offset + 4 * i, p->centers[i]);
    mcore_FinishContainer(file, &layout, mcore_kindInfluences, mcore_formatInfluencesLatest, MANI_ABI_VERSION);
    mani_BuilderKeep(builder, file, (size_t)layout.totalSize, NULL, 0);
    return mani_BuildResult(mani_success, maniBuildReasonNone, 0, 0);
}

/* -- maniBuildInfluences ------------------------------------------------------------ */

typedef struct mani_Weighted {
    float weight;
    uint32_t joint;
} mani_Weighted;

/* Decreasing weight, then increasing joint (insertion sort: at most
 * MANI_MAX_INFLUENCES entries, stable, no allocation). */
static void mani_SortWeighted(mani_Weighted* a, uint32_t n) {
    for (uint32_t i = 1; i < n; ++i) {
        const mani_Weighted x = a[i];
        uint32_t j = i;
        while (j > 0 && (a[j - 1].weight < x.weight || (a[j - 1].weight == x.weight && a[j - 1].joint > x.joint))) {
            a[j] = a[j - 1];
            --j;
        }
        a[j] = x;
    }
}

maniBuildResult maniBuildInfluences(maniBuilder* builder, const maniInfluenceSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const uint32_t n = source->vertexCount;
    if (n == 0 || n > MANI_MAX_INFLUENCE_VERTICES || source->offsets == NULL)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    const uint32_t jointCount = maniSkin_GetJointCount(source->skin);
    if (jointCount == 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, 0, MANI_NO_BONE);
    if (source->offsets[0] != 0) return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    if (source->offsets[n] != 0 && (source->joints == NULL || source->weights == NULL))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);

    /* Every vertex in order: its offsets, then each influence, then its
     * weighted count against the bound and repeated joints. */
    uint32_t most = 0;
    for (uint32_t v = 0; v < n; ++v) {
        const uint32_t lo = source->offsets[v], hi = source->offsets[v + 1];
        if (hi < lo) return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, v + 1, 0);
        uint32_t weighted = 0;
        for (uint32_t i = lo; i < hi; ++i) {
            const float w = source->weights[i];
            if (source->joints[i] >= jointCount)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonJoint, v, i);
            if (!isfinite(w)) return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, v, i);
            if (w < 0.0f) return mani_BuildResult(mani_errorInvalid, maniBuildReasonWeight, v, i);
            if (w == 0.0f) continue;
            for (uint32_t k = lo; k < i; ++k)
                if (source->weights[k] != 0.0f && source->joints[k] == source->joints[i])
                    return mani_BuildResult(mani_errorInvalid, maniBuildReasonRepeatedJoint, v, i);
            if (++weighted > MANI_MAX_INFLUENCES) return mani_BuildResult(mani_errorLimit, maniBuildReasonCount, v, i);
        }
        if (weighted > most) most = weighted;
        if (source->dualQuaternionWeights != NULL) {
            const float b = source->dualQuaternionWeights[v];
            if (!(b >= 0.0f && b <= 1.0f))
                return mani_BuildResult(mani_errorInvalid, isfinite(b) ? maniBuildReasonWeight : maniBuildReasonNotFinite,
                                        v, UINT64_MAX);
        }
    }
    const uint32_t per = most <= 4 ? 4u : (most + 3u) / 4u * 4u;
    const uint64_t count = (uint64_t)n * per;
    const size_t bytes = (size_t)count * (sizeof(uint16_t) + sizeof(float));
    uint8_t* scratch = (uint8_t*)mani_BuilderAlloc(builder, bytes, 16);
    if (scratch == NULL) return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    float* weights = (float*)(void*)scratch;
    uint16_t* joints = (uint16_t*)(void*)(scratch + (size_t)count * sizeof(float));
    for (uint32_t v = 0; v < n; ++v) {
        mani_Weighted list[MANI_MAX_INFLUENCES];
        uint32_t m = 0;
        for (uint32_t i = source->offsets[v]; i < source->offsets[v + 1]; ++i)
            if (source->weights[i] != 0.0f) {
                list[m].weight = source->weights[i];
                list[m].joint = source->joints[i];
                ++m;
            }
        mani_SortWeighted(list, m);
        double sum = 0.0;
        for (uint32_t k = 0; k < m; ++k) sum += (double)list[k].weight;
        for (uint32_t k = 0; k < per; ++k) {
            const uint64_t at = (uint64_t)v * per + k;
            joints[at] = k < m ? (uint16_t)list[k].joint : 0;
            /* A weight over a finite positive sum lies in [0, 1]. */
            weights[at] = k < m ? (float)((double)list[k].weight / sum) : 0.0f;
        }
    }
    mani_InfluenceParts parts;
    memset(&parts, 0, sizeof parts);
    parts.vertexCount = n;
    parts.perVertex = per;
    parts.jointCount = jointCount;
    parts.skinIdentity = maniSkin_GetIdentity(source->skin);
    parts.joints = joints;
    parts.weights = weights;
    parts.blend = source->dualQuaternionWeights;
    maniBuildResult r = mani_WriteInfluences(builder, &parts);
    mani_BuilderFree(builder, scratch, bytes);
    return r;
}

/* -- maniBuildCenters ---------------------------------------------------------------- */

/* One vertex's or triangle's weights by joint, increasing joint. */
typedef struct mani_SparseWeights {
    uint32_t count;
    uint32_t joint[3 * MANI_MAX_INFLUENCES];
    double weight[3 * MANI_MAX_INFLUENCES];
} mani_SparseWeights;

/* Adds a vertex's weights (times scale) into s, keeping joints increasing. */
static void mani_AddWeights(mani_SparseWeights* s, const maniInfluences* inf, uint32_t v, double scale) {
    for (uint32_t k = 0; k < inf->perVertex; ++k) {
        float w;
        const uint32_t j = maniInfluences_GetInfluence(inf, v, k, &w);
        if (w == 0.0f) continue;
        uint32_t at = 0;
        while (at < s->count && s->joint[at] < j) ++at;
        if (at < s->count && s->joint[at] == j) {
            s->weight[at] += (double)w * scale;
            continue;
        }
        for (uint32_t m = s->count; m > at; --m) {
            s->joint[m] = s->joint[m - 1];
            s->weight[m] = s->weight[m - 1];
        }
        s->joint[at] = j;
        s->weight[at] = (double)w * scale;
        s->count++;
    }
}

/* Le and Hodgins' similarity over the joints both weigh, pairs in
 * increasing order. */
static double mani_Similarity(const mani_SparseWeights* p, const mani_SparseWeights* v, double sigma2) {
    double a[3 * MANI_MAX_INFLUENCES], b[3 * MANI_MAX_INFLUENCES];
    uint32_t m = 0;
    for (uint32_t i = 0, k = 0; i < p->count && k < v->count;) {
        if (p->joint[i] < v->joint[k]) ++i;
        else if (p->joint[i] > v->joint[k]) ++k;
        else {
            a[m] = p->weight[i++];
            b[m] = v->weight[k++];
            ++m;
        }
    }
    double s = 0.0;
    for (uint32_t j = 0; j < m; ++j)
        for (uint32_t k = j + 1; k < m; ++k) {
            const double d = a[j] * b[k] - a[k] * b[j];
            const double e = sigma2 > 0.0 ? mcore_exp(-(d * d) / sigma2) : (d == 0.0 ? 1.0 : 0.0);
            s += ((a[j] * a[k]) * (b[j] * b[k])) * e;
        }
    return s;
}

static const float* mani_Position(const maniCenterSource* s, uint32_t v) {
    return (const float*)(const void*)((const uint8_t*)s->positions + (size_t)v * s->positionStride);
}

maniBuildResult maniBuildCenters(maniBuilder* builder, const maniCenterSource* source) {
    maniBuildResult entry = mani_BuildEnter(builder, source);
    if (entry.result != mani_success) return entry;
    const maniInfluences* inf = source->influences;
    const uint32_t n = maniInfluences_GetVertexCount(inf);
    if (n == 0 || source->positions == NULL || source->positionStride < 12 ||
        (source->triangles == NULL && source->triangleCount != 0))
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    if (!isfinite(source->sigma) || source->sigma < 0.0)
        return mani_BuildResult(mani_errorInvalid, maniBuildReasonOption, 0, 0);
    for (uint32_t v = 0; v < n; ++v) {
        float p[3];
        memcpy(p, mani_Position(source, v), sizeof p);
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
            return mani_BuildResult(mani_errorInvalid, maniBuildReasonNotFinite, v, 0);
    }
    const uint32_t t = source->triangleCount;
    for (uint32_t i = 0; i < t; ++i)
        for (uint32_t c = 0; c < 3; ++c)
            if (source->triangles[3ull * i + c] >= n)
                return mani_BuildResult(mani_errorInvalid, maniBuildReasonTriangle, i, c);

    /* Per triangle: area, centroid, averaged weights and a 64-bit joint
     * mask (joint mod 64) to skip triangles sharing fewer than two joints. */
    typedef struct {
        double area, m[3];
        uint64_t mask;
    } Tri;
    const size_t triBytes = (size_t)t * sizeof(Tri) + 1;
    const size_t centerBytes = (size_t)n * 3 * sizeof(float);
    Tri* tris = (Tri*)mani_BuilderAlloc(builder, triBytes, 16);
    float* centers = (float*)mani_BuilderAlloc(builder, centerBytes, 16);
    /* Every triangle's averaged weights, then one vertex's. */
    const size_t swBytes = ((size_t)t + 1) * sizeof(mani_SparseWeights);
    mani_SparseWeights* sw = (mani_SparseWeights*)mani_BuilderAlloc(builder, swBytes, 16);
    if (tris == NULL || centers == NULL || sw == NULL) {
        mani_BuilderFree(builder, tris, triBytes);
        mani_BuilderFree(builder, centers, centerBytes);
        mani_BuilderFree(builder, sw, swBytes);
        return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    }
    for (uint32_t i = 0; i < t; ++i) {
        double q[3][3];
        uint64_t mask = 0;
        for (uint32_t c = 0; c < 3; ++c) {
            const uint32_t v = source->triangles[3ull * i + c];
            float p[3];
            memcpy(p, mani_Position(source, v), sizeof p);
            for (int k = 0; k < 3; ++k) q[c][k] = (double)p[k];
            for (uint32_t k = 0; k < inf->perVertex; ++k) {
                float w;
                const uint32_t j = maniInfluences_GetInfluence(inf, v, k, &w);
                if (w != 0.0f) mask |= UINT64_C(1) << (j & 63u);
            }
        }
        const double e1[3] = {q[1][0] - q[0][0], q[1][1] - q[0][1], q[1][2] - q[0][2]};
        const double e2[3] = {q[2][0] - q[0][0], q[2][1] - q[0][1], q[2][2] - q[0][2]};
        const double x = e1[1] * e2[2] - e1[2] * e2[1];
        const double y = e1[2] * e2[0] - e1[0] * e2[2];
        const double z = e1[0] * e2[1] - e1[1] * e2[0];
        tris[i].area = 0.5 * sqrt((x * x + y * y) + z * z);
        for (int k = 0; k < 3; ++k) tris[i].m[k] = ((q[0][k] + q[1][k]) + q[2][k]) / 3.0;
        tris[i].mask = mask;
        mani_SparseWeights* tw = &sw[1 + (size_t)i];
        tw->count = 0;
        for (uint32_t c = 0; c < 3; ++c) mani_AddWeights(tw, inf, source->triangles[3ull * i + c], 1.0);
        for (uint32_t k = 0; k < tw->count; ++k) tw->weight[k] /= 3.0;
    }
    const double sigma2 = source->sigma * source->sigma;
    for (uint32_t v = 0; v < n; ++v) {
        mani_SparseWeights* vw = &sw[0];
        vw->count = 0;
        mani_AddWeights(vw, inf, v, 1.0);
        uint64_t vmask = 0;
        for (uint32_t k = 0; k < vw->count; ++k) vmask |= UINT64_C(1) << (vw->joint[k] & 63u);
        double num[3] = {0.0, 0.0, 0.0}, den = 0.0;
        for (uint32_t i = 0; vw->count >= 2 && i < t; ++i) {
            const uint64_t shared = vmask & tris[i].mask;
            if ((shared & (shared - 1)) == 0) continue; /* fewer than two joints in common */
            const double s = mani_Similarity(vw, &sw[1 + (size_t)i], sigma2) * tris[i].area;
            if (s == 0.0) continue;
            den += s;
            for (int k = 0; k < 3; ++k) num[k] += s * tris[i].m[k];
        }
        const float* p = mani_Position(source, v);
        for (int k = 0; k < 3; ++k) {
            float rest;
            memcpy(&rest, p + k, sizeof rest);
            /* A sum past binary64's range (huge positions) falls back too. */
            const float c = den > 0.0 ? (float)(num[k] / den) : rest;
            centers[3ull * v + k] = isfinite(c) ? c : rest;
        }
    }
    mani_InfluenceParts parts;
    memset(&parts, 0, sizeof parts);
    parts.vertexCount = n;
    parts.perVertex = inf->perVertex;
    parts.jointCount = inf->jointCount;
    parts.skinIdentity = inf->skinIdentity;
    parts.from = inf;
    float* blend = NULL;
    const size_t blendBytes = (size_t)n * sizeof(float);
    if (inf->dualQuaternionWeights != 0) {
        blend = (float*)mani_BuilderAlloc(builder, blendBytes, 16);
        if (blend == NULL) {
            mani_BuilderFree(builder, tris, triBytes);
            mani_BuilderFree(builder, centers, centerBytes);
            mani_BuilderFree(builder, sw, swBytes);
            return mani_BuildResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
        }
        for (uint32_t v = 0; v < n; ++v) blend[v] = maniInfluences_GetDualQuaternionWeight(inf, v);
    }
    parts.blend = blend;
    parts.centers = centers;
    maniBuildResult r = mani_WriteInfluences(builder, &parts);
    mani_BuilderFree(builder, blend, blendBytes);
    mani_BuilderFree(builder, tris, triBytes);
    mani_BuilderFree(builder, centers, centerBytes);
    mani_BuilderFree(builder, sw, swBytes);
    return r;
}
