/* maniBuildGltfInfluences and maniBuildGltfMorphTargets. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/gltf/gltf_build_internal.h"

#define MANI_GB_OK mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0)
#define MANI_GB_NOMEM mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0)

/* "NAME_n" into buf. */
static size_t mani_GbSetName(char* buf, const char* prefix, uint32_t n) {
    return (size_t)snprintf(buf, 32, "%s_%u", prefix, n);
}

/* -- Influences ------------------------------------------------------------------- */

static maniImportResult mani_GbInfluencesRead(maniBuilder* builder, const maniGltf* gltf, uint32_t mesh,
                                              uint32_t primitive, const maniSkin* skin, const mani_GbDraco* draco);

maniImportResult maniBuildGltfInfluences(maniBuilder* builder, const maniGltf* gltf, uint32_t mesh,
                                         uint32_t primitive, const maniSkin* skin) {
    if (builder == NULL) return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    maniResult entered = mani_BuilderEnter(builder);
    if (entered != mani_success) return mani_GbImportResult(entered, maniImportReasonNone, 0, 0);
    if (gltf == NULL || skin == NULL) return mani_GbMisuse(builder);
    if (mesh >= maniGltf_GetMeshCount(gltf) || primitive >= maniGltf_GetPrimitiveCount(gltf, mesh))
        return mani_GbMisuse(builder);
    /* A Draco primitive's stream, decoded before anything is read. */
    mani_GbDraco draco;
    maniImportResult r = mani_GbDracoOpen(builder, gltf, mesh, primitive, &draco);
    if (r.result != mani_success) return r;
    r = mani_GbInfluencesRead(builder, gltf, mesh, primitive, skin, &draco);
    mani_GbDracoClose(&draco);
    return r;
}

/* maniBuildGltfInfluences past its checks of the arguments and the stream. */
static maniImportResult mani_GbInfluencesRead(maniBuilder* builder, const maniGltf* gltf, uint32_t mesh,
                                              uint32_t primitive, const maniSkin* skin, const mani_GbDraco* draco) {
    maniImportResult r;

    /* The sets: JOINTS_n and WEIGHTS_n paired from 0 up. */
    char name[32];
    uint32_t sets = 0, vertices = 0;
    uint32_t jointAcc[64], weightAcc[64];
    for (;;) {
        if (sets == 64) break;
        uint32_t j = mani_GbAttribute(gltf, mesh, primitive, MANI_GB_NONE, name, mani_GbSetName(name, "JOINTS", sets));
        uint32_t w = mani_GbAttribute(gltf, mesh, primitive, MANI_GB_NONE, name, mani_GbSetName(name, "WEIGHTS", sets));
        if (j == MANI_GB_NONE && w == MANI_GB_NONE) break;
        if (j == MANI_GB_NONE || w == MANI_GB_NONE)
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, j == MANI_GB_NONE ? w : j, 0);
        mani_GbAccessor sj, sw;
        if (!mani_GbAccessorShape(gltf, j, &sj) || sj.components != 4 || sj.isMatrix ||
            (sj.componentType != 5121 && sj.componentType != 5123) || sj.normalized)
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, j, 0);
        if (!mani_GbAccessorShape(gltf, w, &sw) || sw.components != 4 || sw.isMatrix ||
            !(sw.componentType == 5126 || ((sw.componentType == 5121 || sw.componentType == 5123) && sw.normalized)))
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, w, 0);
        if (sets == 0) vertices = sj.count;
        if (sj.count != vertices) return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, j, 0);
        if (sw.count != vertices) return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, w, 0);
        jointAcc[sets] = j;
        weightAcc[sets] = w;
        sets++;
    }
    if (sets == 0) return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, mesh, 0);
    const uint32_t position = mani_GbAttribute(gltf, mesh, primitive, MANI_GB_NONE, "POSITION", 8);
    mani_GbAccessor sp;
    if (position != MANI_GB_NONE && mani_GbAccessorShape(gltf, position, &sp) && sp.count != vertices)
        return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, jointAcc[0], 0);
    if (vertices > MANI_MAX_INFLUENCE_VERTICES)
        return mani_GbImportResult(mani_errorFormat, maniImportReasonBuild, maniBuildReasonCount, 0);

    const size_t per = 4u * (size_t)sets, total = per * (size_t)vertices;
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    uint32_t* joints = (uint32_t*)mani_GbAlloc(&sc, sizeof(uint32_t) * total);
    float* weights = (float*)mani_GbAlloc(&sc, sizeof(float) * total);
    uint32_t* rawJ = (uint32_t*)mani_GbAlloc(&sc, sizeof(uint32_t) * 4 * (size_t)vertices);
    float* rawW = (float*)mani_GbAlloc(&sc, sizeof(float) * 4 * (size_t)vertices);
    uint32_t* offsets = (uint32_t*)mani_GbAlloc(&sc, sizeof(uint32_t) * ((size_t)vertices + 1));
    if (joints == NULL || weights == NULL || rawJ == NULL || rawW == NULL || offsets == NULL) {
        mani_GbScratchFree(&sc);
        return MANI_GB_NOMEM;
    }
    for (uint32_t s = 0; s < sets; ++s) {
        char jn[32], wn[32];
        const size_t jl = mani_GbSetName(jn, "JOINTS", s), wl = mani_GbSetName(wn, "WEIGHTS", s);
        r = MANI_GB_OK;
        if (!mani_GbDracoRead(draco, gltf, jn, jl, jointAcc[s], NULL, rawJ)) r = mani_GbReadUints(gltf, jointAcc[s], rawJ);
        if (r.result == mani_success && !mani_GbDracoRead(draco, gltf, wn, wl, weightAcc[s], rawW, NULL))
            r = mani_GbReadFloats(gltf, weightAcc[s], rawW);
        if (r.result != mani_success) {
            mani_GbScratchFree(&sc);
            return r;
        }
        for (uint32_t v = 0; v < vertices; ++v)
            for (uint32_t k = 0; k < 4; ++k) {
                joints[per * v + 4 * s + k] = rawJ[4 * (size_t)v + k];
                weights[per * v + 4 * s + k] = rawW[4 * (size_t)v + k];
            }
    }
    /* Zero weights dropped (their joints are not read); the rest checked. */
    const uint32_t jointCount = maniSkin_GetJointCount(skin);
    uint32_t n = 0;
    for (uint32_t v = 0; v < vertices; ++v) {
        offsets[v] = n;
        for (size_t k = 0; k < per; ++k) {
            const float w = weights[per * v + k];
            const uint32_t j = joints[per * v + k];
            if (!isfinite(w) || w < 0.0f) {
                mani_GbScratchFree(&sc);
                return mani_GbImportResult(mani_errorFormat, maniImportReasonInfluence, v, 0);
            }
            if (w == 0.0f) continue;
            if (j >= jointCount) {
                /* The reference lists Influence, not Index, for this builder:
                 * a joint past the skin is an influence refused. */
                mani_GbScratchFree(&sc);
                return mani_GbImportResult(mani_errorFormat, maniImportReasonInfluence, v, 0);
            }
            joints[n] = j;
            weights[n] = w;
            n++;
        }
    }
    offsets[vertices] = n;
    maniInfluenceSource src;
    memset(&src, 0, sizeof src);
    src.skin = skin;
    src.offsets = offsets;
    src.joints = joints;
    src.weights = weights;
    src.vertexCount = vertices;
    maniBuildResult br = maniBuildInfluences(builder, &src);
    mani_GbScratchFree(&sc);
    if (br.result == mani_errorInvalid && br.reason == maniBuildReasonRepeatedJoint)
        return mani_GbImportResult(mani_errorFormat, maniImportReasonInfluence, br.item, 0);
    return mani_GbFromBuild(br);
}

/* -- Morph targets ---------------------------------------------------------------- */

typedef struct mani_GbMorphAttr {
    maniMorphSemantic semantic;
    uint32_t set;
    uint32_t components; /* the builder's: 3, 3, 3, 2, 4 */
} mani_GbMorphAttr;

/* Parses a target attribute's name; 0 for a semantic not read. */
static int mani_GbMorphSemantic(const char* name, size_t len, mani_GbMorphAttr* out) {
    out->set = 0;
    if (len == 8 && memcmp(name, "POSITION", 8) == 0) {
        out->semantic = maniMorphPosition, out->components = 3;
        return 1;
    }
    if (len == 6 && memcmp(name, "NORMAL", 6) == 0) {
        out->semantic = maniMorphNormal, out->components = 3;
        return 1;
    }
    if (len == 7 && memcmp(name, "TANGENT", 7) == 0) {
        out->semantic = maniMorphTangent, out->components = 3;
        return 1;
    }
    size_t prefix = 0;
    if (len > 9 && memcmp(name, "TEXCOORD_", 9) == 0) {
        out->semantic = maniMorphTexCoord, out->components = 2, prefix = 9;
    } else if (len > 6 && memcmp(name, "COLOR_", 6) == 0) {
        out->semantic = maniMorphColor, out->components = 4, prefix = 6;
    } else {
        return 0;
    }
    uint64_t set = 0;
    for (size_t i = prefix; i < len; ++i) {
        if (name[i] < '0' || name[i] > '9' || (i > prefix && name[prefix] == '0')) return 0;
        set = set * 10 + (uint64_t)(name[i] - '0');
        if (set > 0xFFFFFFFFull) return 0;
    }
    out->set = (uint32_t)set;
    return 1;
}

#define MANI_GB_MAX_MORPH_READ 32u

maniImportResult maniBuildGltfMorphTargets(maniBuilder* builder, const maniGltf* gltf, uint32_t mesh,
                                           uint32_t primitive, const maniGltfOptions* options) {
    mani_GbBasis basis;
    maniImportResult r = mani_GbEnter(builder, gltf, options, &basis);
    if (r.result != mani_success) return r;
    if (mesh >= maniGltf_GetMeshCount(gltf) || primitive >= maniGltf_GetPrimitiveCount(gltf, mesh))
        return mani_GbMisuse(builder);
    const uint32_t targets = maniGltf_GetPrimitiveTargetCount(gltf, mesh, primitive);
    if (targets == 0) return mani_GbMisuse(builder);
    const uint32_t position = mani_GbAttribute(gltf, mesh, primitive, MANI_GB_NONE, "POSITION", 8);
    mani_GbAccessor ps;
    if (position == MANI_GB_NONE || !mani_GbAccessorShape(gltf, position, &ps))
        return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, mesh, 0);
    const uint32_t vertices = ps.count;
    /* A Draco primitive: its stream checked as the influences' is (Draco
     * never holds the targets, read from their accessors). */
    mani_GbDraco draco;
    r = mani_GbDracoOpen(builder, gltf, mesh, primitive, &draco);
    if (r.result != mani_success) return r;
    mani_GbDracoClose(&draco);

    /* The attributes: every semantic read that any target moves, in
     * POSITION, NORMAL, TANGENT, TEXCOORD_n, COLOR_n order (sets
     * increasing), each one the primitive has. */
    mani_GbMorphAttr attrs[MANI_GB_MAX_MORPH_READ];
    uint32_t attrCount = 0;
    for (uint32_t t = 0; t < targets; ++t) {
        const char* an;
        size_t al;
        uint32_t acc;
        for (uint32_t i = 0; mani_GbAttributeAt(gltf, mesh, primitive, t, i, &an, &al, &acc); ++i) {
            mani_GbMorphAttr a;
            if (!mani_GbMorphSemantic(an, al, &a)) continue;
            if (mani_GbAttribute(gltf, mesh, primitive, MANI_GB_NONE, an, al) == MANI_GB_NONE)
                return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, mesh, 0);
            mani_GbAccessor s;
            const uint32_t want = a.semantic == maniMorphColor ? 0 : a.components;
            if (!mani_GbAccessorShape(gltf, acc, &s) || s.isMatrix || s.count != vertices ||
                (want != 0 && s.components != want) || (want == 0 && s.components != 3 && s.components != 4))
                return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, acc, 0);
            uint32_t k = 0;
            while (k < attrCount && !(attrs[k].semantic == a.semantic && attrs[k].set == a.set)) ++k;
            if (k < attrCount) continue;
            if (attrCount == MANI_GB_MAX_MORPH_READ)
                return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, mesh, 0);
            /* Insert in order. */
            k = attrCount;
            while (k > 0 && (attrs[k - 1].semantic > a.semantic ||
                             (attrs[k - 1].semantic == a.semantic && attrs[k - 1].set > a.set))) {
                attrs[k] = attrs[k - 1];
                --k;
            }
            attrs[k] = a;
            attrCount++;
        }
    }
    if (attrCount == 0) return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, mesh, 0);
    if (attrCount > MANI_MAX_MORPH_ATTRIBUTES)
        return mani_GbImportResult(mani_errorFormat, maniImportReasonBuild, maniBuildReasonCount, 0);

    /* Dense deltas of every target and attribute, then each target's moved
     * vertices compacted in place. */
    size_t floatsPerVertex = 0;
    for (uint32_t k = 0; k < attrCount; ++k) floatsPerVertex += attrs[k].components;
    const size_t perTarget = floatsPerVertex * (size_t)vertices;
    if (perTarget != 0 && (size_t)targets > SIZE_MAX / sizeof(float) / perTarget) return MANI_GB_NOMEM;
    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    float* dense = (float*)mani_GbAlloc(&sc, sizeof(float) * perTarget * targets);
    float* raw = (float*)mani_GbAlloc(&sc, sizeof(float) * 4 * (size_t)vertices);
    uint32_t* indices = (uint32_t*)mani_GbAlloc(&sc, sizeof(uint32_t) * (size_t)vertices * targets);
    maniMorphSourceTarget* mt = (maniMorphSourceTarget*)mani_GbAlloc(&sc, sizeof(maniMorphSourceTarget) * targets);
    maniMorphSourceChannel* ch = (maniMorphSourceChannel*)mani_GbAlloc(&sc, sizeof(maniMorphSourceChannel) * targets);
    char* names = (char*)mani_GbAlloc(&sc, (MANI_MAX_NAME_BYTES + 1) * (size_t)targets);
    if (dense == NULL || raw == NULL || indices == NULL || mt == NULL || ch == NULL || names == NULL) {
        mani_GbScratchFree(&sc);
        return MANI_GB_NOMEM;
    }
    maniMorphSourceAttribute sattr[MANI_MAX_MORPH_ATTRIBUTES];
    for (uint32_t k = 0; k < attrCount; ++k) {
        sattr[k].semantic = attrs[k].semantic;
        sattr[k].set = attrs[k].set;
    }
    for (uint32_t t = 0; t < targets; ++t) {
        float* base = dense + perTarget * t;
        uint8_t present[MANI_MAX_MORPH_ATTRIBUTES] = {0};
        size_t at = 0;
        for (uint32_t k = 0; k < attrCount; ++k) {
            const uint32_t comps = attrs[k].components;
            float* dst = base + at * vertices;
            at += comps;
            char nm[32];
            size_t nl;
            if (attrs[k].semantic == maniMorphPosition) nl = (size_t)snprintf(nm, sizeof nm, "POSITION");
            else if (attrs[k].semantic == maniMorphNormal) nl = (size_t)snprintf(nm, sizeof nm, "NORMAL");
            else if (attrs[k].semantic == maniMorphTangent) nl = (size_t)snprintf(nm, sizeof nm, "TANGENT");
            else nl = mani_GbSetName(nm, attrs[k].semantic == maniMorphTexCoord ? "TEXCOORD" : "COLOR", attrs[k].set);
            const uint32_t acc = mani_GbAttribute(gltf, mesh, primitive, t, nm, nl);
            if (acc == MANI_GB_NONE) {
                memset(dst, 0, sizeof(float) * comps * (size_t)vertices);
                continue;
            }
            present[k] = 1;
            mani_GbAccessor s;
            (void)mani_GbAccessorShape(gltf, acc, &s);
            r = mani_GbReadFloats(gltf, acc, raw);
            if (r.result != mani_success) {
                mani_GbScratchFree(&sc);
                return r;
            }
            for (uint32_t v = 0; v < vertices; ++v) {
                float* o = dst + (size_t)comps * v;
                const float* in = raw + (size_t)s.components * v;
                if (comps == 3) {
                    const double d[3] = {in[0], in[1], in[2]};
                    double e[3];
                    if (attrs[k].semantic == maniMorphPosition) mani_GbBasisVector(&basis, d, e);
                    else mani_GbBasisDirection(&basis, d, e);
                    o[0] = (float)e[0], o[1] = (float)e[1], o[2] = (float)e[2];
                } else {
                    for (uint32_t c = 0; c < comps; ++c) o[c] = c < s.components ? in[c] : 0.0f;
                }
            }
        }
        /* The vertices the target moves; each present attribute's deltas
         * compacted to them (in place: a vertex's slot never passes it). */
        uint32_t* idx = indices + (size_t)vertices * t;
        uint32_t moved = 0;
        for (uint32_t v = 0; v < vertices; ++v) {
            int moves = 0;
            size_t a2 = 0;
            for (uint32_t k = 0; k < attrCount; ++k) {
                const float* d = base + a2 * vertices + (size_t)attrs[k].components * v;
                for (uint32_t c = 0; c < attrs[k].components; ++c) moves |= d[c] != 0.0f;
                a2 += attrs[k].components;
            }
            if (!moves) continue;
            a2 = 0;
            for (uint32_t k = 0; k < attrCount; ++k) {
                const uint32_t comps = attrs[k].components;
                float* d = base + a2 * vertices;
                memmove(d + (size_t)comps * moved, d + (size_t)comps * v, sizeof(float) * comps);
                a2 += comps;
            }
            idx[moved++] = v;
        }
        memset(&mt[t], 0, sizeof mt[t]);
        mt[t].fullWeight = 1.0f;
        mt[t].indices = idx;
        mt[t].count = moved;
        size_t a3 = 0;
        for (uint32_t k = 0; k < attrCount; ++k) {
            mt[t].deltas[k] = present[k] ? base + a3 * vertices : NULL;
            a3 += attrs[k].components;
        }
        size_t nl = 0;
        char* mine = names + (MANI_MAX_NAME_BYTES + 1) * (size_t)t;
        const char* tn = mani_GbTargetName(gltf, mesh, targets, t, mine, MANI_MAX_NAME_BYTES, &nl);
        if (tn == NULL) {
            nl = (size_t)snprintf(mine, 12, "%u", t);
            tn = mine;
        }
        ch[t].name = tn;
        ch[t].nameLength = nl;
        ch[t].targets = &mt[t];
        ch[t].targetCount = 1;
    }
    maniMorphSource src;
    src.vertexCount = vertices;
    src.attributes = sattr;
    src.attributeCount = attrCount;
    src.channels = ch;
    src.channelCount = targets;
    r = mani_GbFromBuild(maniBuildMorphTargets(builder, &src));
    mani_GbScratchFree(&sc);
    return r;
}
