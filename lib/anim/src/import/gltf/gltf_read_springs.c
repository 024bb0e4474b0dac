/* maniGltf_ReadSprings: VRMC_springBone 1.0, with its
 * VRMC_springBone_extended_collider and VRMC_springBone_limit extensions, as
 * a spring set's source on an opened skeleton (import.h). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/gltf/gltf_build_internal.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"
#include "lib/anim/src/import/gltf/gltf_read_json.h"
#include "lib/core/quat64.h"
#include "maul/anim/build.h"
#include "maul/anim/spring.h"

/* The rate ReadSprings gives the source: three-vrm and UniVRM apply drag once
 * a rendered frame, at 60 frames a second as the examples are tuned. */
#define MANI_GLTF_SPRING_RATE 60.0f

static maniImportResult mani_RsRefuse(const maniGltf* g, uint32_t reason, uint64_t item, uint32_t token) {
    return mani_GbImportResult(mani_errorFormat, reason, item,
                               token != MCORE_JSON_NONE ? mani_GltfTokenOffset(g, token) : g->jsonOffset);
}

static int mani_RsIsType(const maniGltf* g, uint32_t t, uint32_t type) {
    return t != MCORE_JSON_NONE && g->json.tokens[t].type == type;
}

/* An optional array member: 1 with the token (MCORE_JSON_NONE when left
 * out) and its count, 0 for a member not an array. */
static int mani_RsArray(const maniGltf* g, uint32_t object, const char* key, uint32_t* tokenOut, uint32_t* countOut) {
    const uint32_t t = mani_GrFind(g, object, key);
    *tokenOut = t;
    *countOut = 0;
    if (t == MCORE_JSON_NONE) return 1;
    if (!mani_RsIsType(g, t, mcore_jsonArray)) return 0;
    *countOut = g->json.tokens[t].count;
    return 1;
}

/* n finite binary32 numbers of an array member, fallback when left out. */
static int mani_RsFloats(const maniGltf* g, uint32_t object, const char* key, uint32_t n, const double* fallback,
                         double* out) {
    const uint32_t t = mani_GrFind(g, object, key);
    if (t == MCORE_JSON_NONE) {
        for (uint32_t k = 0; k < n; ++k) out[k] = fallback[k];
        return 1;
    }
    if (!mani_RsIsType(g, t, mcore_jsonArray) || g->json.tokens[t].count != n) return 0;
    uint32_t it = t + 1;
    for (uint32_t k = 0; k < n; ++k, it = g->json.tokens[it].next) {
        float v = 0;
        if (mani_GltfTokenFloat(g, it, &v) != mcore_jsonOk || !isfinite(v)) return 0;
        out[k] = v;
    }
    return 1;
}

/* A boolean member, fallback when left out; 0 for another type. */
static int mani_RsBool(const maniGltf* g, uint32_t object, const char* key, int fallback, int* out) {
    const uint32_t t = mani_GrFind(g, object, key);
    if (t == MCORE_JSON_NONE) {
        *out = fallback;
        return 1;
    }
    if (mani_RsIsType(g, t, mcore_jsonTrue)) *out = 1;
    else if (mani_RsIsType(g, t, mcore_jsonFalse)) *out = 0;
    else return 0;
    return 1;
}

/* Whether an extension object says specVersion "1.0". */
static int mani_RsVersion10(const maniGltf* g, uint32_t ext) {
    const uint32_t v = mani_GrFind(g, ext, "specVersion");
    return mani_RsIsType(g, v, mcore_jsonString) && mcore_JsonStringEquals(&g->json, v, "1.0", 3);
}

/* The extension object of an entry (collider or joint), or MCORE_JSON_NONE. */
static uint32_t mani_RsExtension(const maniGltf* g, uint32_t object, const char* name) {
    return mani_GrFind(g, mani_GrFind(g, object, "extensions"), name);
}

/* The output basis as a rotation quaternion (M is proper: the options keep
 * the basis right-handed). */
static int mani_RsBasisTurn(const mani_GbBasis* basis, double q[4]) {
    mani_GbXf m;
    memset(&m, 0, sizeof m);
    for (int r = 0; r < 3; ++r) m.l[3 * basis->axis[r] + r] = basis->sign[r];
    maniTransform t;
    if (!mani_GbSplit(&m, &t)) return 0;
    q[0] = t.rotation.x, q[1] = t.rotation.y, q[2] = t.rotation.z, q[3] = t.rotation.w;
    (void)mcore_QuatNormalize64(q);
    return 1;
}

/* The transform from a node's frame to its bone node's (the locals of the
 * nodes between composed); 0 for a matrix refused (*badNode set). */
static int mani_RsToBone(const maniGltf* g, uint32_t node, uint32_t boneNode, mani_GbXf* out, uint32_t* badNode) {
    mani_GbIdentity(out);
    mani_GbXf l;
    for (uint32_t n = node, depth = 0; n != boneNode && n != MANI_GB_NONE && depth <= g->nodeCount;
         n = mani_GbNodeParent(g, n), ++depth) {
        int isMatrix = 0;
        if (!mani_GbNodeLocal(g, n, &l, &isMatrix)) {
            *badNode = n;
            return 0;
        }
        mani_GbMul(&l, out, out);
    }
    return 1;
}

static void mani_RsPoint(const mani_GbXf* x, const double p[3], double out[3]) {
    for (int r = 0; r < 3; ++r) out[r] = ((x->l[r] * p[0] + x->l[3 + r] * p[1]) + x->l[6 + r] * p[2]) + x->t[r];
}

static maniVec3 mani_RsVec3(const double v[3]) {
    maniVec3 o;
    o.x = (float)v[0], o.y = (float)v[1], o.z = (float)v[2];
    return o;
}

/* A point of a node's frame in its bone's frame, in the output basis. */
static maniVec3 mani_RsBonePoint(const mani_GbBasis* basis, const mani_GbXf* x, const double p[3]) {
    double a[3], b[3];
    mani_RsPoint(x, p, a);
    mani_GbBasisVector(basis, a, b);
    return mani_RsVec3(b);
}

/* The largest column length of x's linear part (the radius' scale). */
static double mani_RsScale(const mani_GbXf* x) {
    double best = 0;
    for (int c = 0; c < 3; ++c) {
        const double v[3] = {x->l[3 * c], x->l[3 * c + 1], x->l[3 * c + 2]};
        const double len = mcore_Length3_64(v);
        if (len > best) best = len;
    }
    return best;
}

/* A collider's shape (VRMC_springBone's, or its extended collider's when
 * the extension is version 1.0) in its bone's frame. 0 with *badToken for a
 * property refused. */
static int mani_RsCollider(const maniGltf* g, const mani_GbBasis* basis, uint32_t collider, const mani_GbXf* x,
                           maniSpringSourceCollider* out, uint32_t* badToken) {
    static const double zero[3] = {0, 0, 0}, front[3] = {0, 0, 1};
    double offset[3] = {0, 0, 0}, tail[3] = {0, 0, 0};
    float radius = 0;
    int inside = 0;
    uint32_t kind = maniSpringShapeSphere;
    uint32_t shape = mani_GrFind(g, collider, "shape");
    const uint32_t ext = mani_RsExtension(g, collider, "VRMC_springBone_extended_collider");
    int extended = 0;
    if (ext != MCORE_JSON_NONE && mani_RsVersion10(g, ext)) {
        const uint32_t es = mani_GrFind(g, ext, "shape");
        if (es != MCORE_JSON_NONE) {
            shape = es;
            extended = 1;
        }
    }
    *badToken = shape != MCORE_JSON_NONE ? shape : collider;
    if (!mani_RsIsType(g, shape, mcore_jsonObject)) return 0;
    const uint32_t sphere = mani_GrFind(g, shape, "sphere"), capsule = mani_GrFind(g, shape, "capsule");
    const uint32_t plane = extended ? mani_GrFind(g, shape, "plane") : MCORE_JSON_NONE;
    const uint32_t one = sphere != MCORE_JSON_NONE ? sphere : capsule != MCORE_JSON_NONE ? capsule : plane;
    if ((sphere != MCORE_JSON_NONE) + (capsule != MCORE_JSON_NONE) + (plane != MCORE_JSON_NONE) != 1 ||
        !mani_RsIsType(g, one, mcore_jsonObject))
        return 0;
    *badToken = one;
    if (!mani_RsFloats(g, one, "offset", 3, zero, offset)) return 0;
    if (one == plane) {
        double n[3];
        if (!mani_RsFloats(g, one, "normal", 3, front, n)) return 0;
        /* A normal turns by the inverse transpose of x's linear part. */
        mani_GbXf inv;
        if (!mani_GbInverse(x, &inv)) return 0;
        double m[3], o[3];
        for (int r = 0; r < 3; ++r) m[r] = (inv.l[3 * r] * n[0] + inv.l[3 * r + 1] * n[1]) + inv.l[3 * r + 2] * n[2];
        mani_GbBasisDirection(basis, m, o);
        const double len = mcore_Length3_64(o);
        if (len > 0)
            for (int r = 0; r < 3; ++r) o[r] /= len;
        out->kind = maniSpringShapePlane;
        out->offset = mani_RsBonePoint(basis, x, offset);
        out->radius = 0.0f;
        out->tail = mani_RsVec3(o);
        return 1;
    }
    if (!mani_GrNumber(g, one, "radius", 0.0f, &radius)) return 0;
    if (extended && !mani_RsBool(g, one, "inside", 0, &inside)) return 0;
    if (one == capsule) {
        if (!mani_RsFloats(g, one, "tail", 3, zero, tail)) return 0;
        kind = inside ? maniSpringShapeInsideCapsule : maniSpringShapeCapsule;
        out->tail = mani_RsBonePoint(basis, x, tail);
    } else {
        kind = inside ? maniSpringShapeInsideSphere : maniSpringShapeSphere;
        out->tail = mani_RsVec3(zero);
    }
    out->kind = kind;
    out->offset = mani_RsBonePoint(basis, x, offset);
    out->radius = (float)((double)radius * mani_RsScale(x) * basis->unit);
    return 1;
}

/* A joint's VRMC_springBone_limit (version 1.0; another ignored): 0 with
 * *badToken for a property refused. */
static int mani_RsLimit(const maniGltf* g, const double turn[4], uint32_t joint, maniSpringSourceJoint* out,
                        uint32_t* badToken) {
    static const double identity[4] = {0, 0, 0, 1};
    out->limitKind = maniSpringLimitNone;
    out->limitRotation.x = out->limitRotation.y = out->limitRotation.z = 0.0f;
    out->limitRotation.w = 1.0f;
    out->limitAngle = out->limitAngle2 = 0.0f;
    const uint32_t ext = mani_RsExtension(g, joint, "VRMC_springBone_limit");
    if (ext == MCORE_JSON_NONE || !mani_RsVersion10(g, ext)) return 1;
    const uint32_t limit = mani_GrFind(g, ext, "limit");
    *badToken = limit != MCORE_JSON_NONE ? limit : ext;
    if (!mani_RsIsType(g, limit, mcore_jsonObject)) return 0;
    const uint32_t cone = mani_GrFind(g, limit, "cone"), hinge = mani_GrFind(g, limit, "hinge"),
                   spherical = mani_GrFind(g, limit, "spherical");
    const uint32_t one = cone != MCORE_JSON_NONE ? cone : hinge != MCORE_JSON_NONE ? hinge : spherical;
    if ((cone != MCORE_JSON_NONE) + (hinge != MCORE_JSON_NONE) + (spherical != MCORE_JSON_NONE) != 1 ||
        !mani_RsIsType(g, one, mcore_jsonObject))
        return 0;
    *badToken = one;
    double q[4], r[4];
    if (!mani_RsFloats(g, one, "rotation", 4, identity, q)) return 0;
    if (one == spherical) {
        if (mani_GrFind(g, one, "pitch") == MCORE_JSON_NONE || mani_GrFind(g, one, "yaw") == MCORE_JSON_NONE ||
            !mani_GrNumber(g, one, "pitch", 0.0f, &out->limitAngle) ||
            !mani_GrNumber(g, one, "yaw", 0.0f, &out->limitAngle2))
            return 0;
        out->limitKind = maniSpringLimitSpherical;
    } else {
        if (mani_GrFind(g, one, "angle") == MCORE_JSON_NONE || !mani_GrNumber(g, one, "angle", 0.0f, &out->limitAngle))
            return 0;
        out->limitKind = one == cone ? maniSpringLimitCone : maniSpringLimitHinge;
    }
    /* The frame glTF's in the output basis: its axes M's images of glTF's,
     * the rotation M L. */
    mcore_QuatMul64(turn, q, r);
    out->limitRotation.x = (float)r[0], out->limitRotation.y = (float)r[1];
    out->limitRotation.z = (float)r[2], out->limitRotation.w = (float)r[3];
    return 1;
}

/* The bytes of a block's part, at a multiple of 16. */
static uint64_t mani_RsPart(uint64_t bytes) { return (bytes + 15u) & ~(uint64_t)15u; }

maniImportResult maniGltf_ReadSprings(maniGltf* gltf, const maniSkeleton* skeleton, const maniGltfOptions* options,
                                      maniSpringSetSource* setOut) {
    if (gltf == NULL || !mani_GltfLive(gltf)) return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    mani_GbBasis basis;
    maniImportResult entered = mani_GbEnter(gltf->builder, gltf, options, &basis);
    if (entered.result != mani_success) return entered;
    if (skeleton == NULL || setOut == NULL || maniSkeleton_GetBoneCount(skeleton) == 0)
        return mani_GbMisuse(gltf->builder);
    const maniGltf* g = gltf;
    maniSpringSetSource s;
    memset(&s, 0, sizeof s);
    s.skeleton = skeleton;
    s.referenceRate = MANI_GLTF_SPRING_RATE;
    s.stepRate = MANI_GLTF_SPRING_RATE;
    const uint32_t ext = mani_GrFind(g, mani_GrFind(g, g->root, "extensions"), "VRMC_springBone");
    if (ext == MCORE_JSON_NONE) {
        *setOut = s;
        return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
    }
    if (!mani_RsIsType(g, ext, mcore_jsonObject)) return mani_RsRefuse(g, maniImportReasonProperty, 0, ext);
    if (!mani_RsVersion10(g, ext)) {
        const uint32_t v = mani_GrFind(g, ext, "specVersion");
        return mani_RsRefuse(g, maniImportReasonProperty, 0, v != MCORE_JSON_NONE ? v : ext);
    }
    double turn[4];
    if (!mani_RsBasisTurn(&basis, turn)) return mani_GbMisuse(gltf->builder);
    uint32_t cArr, cCount, gArr, gCount, sArr, sCount;
    if (!mani_RsArray(g, ext, "colliders", &cArr, &cCount))
        return mani_RsRefuse(g, maniImportReasonProperty, 0, cArr);
    if (!mani_RsArray(g, ext, "colliderGroups", &gArr, &gCount))
        return mani_RsRefuse(g, maniImportReasonProperty, 0, gArr);
    if (!mani_RsArray(g, ext, "springs", &sArr, &sCount)) return mani_RsRefuse(g, maniImportReasonProperty, 0, sArr);

    /* Check the indices and count what the source holds. */
    uint64_t keptColliders = 0, groupEntries = 0, keptSprings = 0, keptJoints = 0, springEntries = 0;
    for (uint32_t c = 0, t = cArr + 1; c < cCount; ++c, t = g->json.tokens[t].next) {
        uint32_t node = 0;
        const uint32_t nt = mani_GrFind(g, t, "node");
        if (!mani_RsIsType(g, t, mcore_jsonObject)) return mani_RsRefuse(g, maniImportReasonProperty, c, t);
        if (!mani_GrIndex(g, nt, g->nodeCount, &node))
            return mani_RsRefuse(g, maniImportReasonProperty, c, nt != MCORE_JSON_NONE ? nt : t);
        if (mani_GrBone(g, skeleton, node, NULL) != MANI_NO_BONE) ++keptColliders;
    }
    for (uint32_t k = 0, t = gArr + 1; k < gCount; ++k, t = g->json.tokens[t].next) {
        uint32_t list, count, index;
        if (!mani_RsIsType(g, t, mcore_jsonObject)) return mani_RsRefuse(g, maniImportReasonProperty, k, t);
        if (!mani_RsArray(g, t, "colliders", &list, &count) || list == MCORE_JSON_NONE)
            return mani_RsRefuse(g, maniImportReasonProperty, k, list != MCORE_JSON_NONE ? list : t);
        for (uint32_t i = 0, it = list + 1; i < count; ++i, it = g->json.tokens[it].next)
            if (!mani_GrIndex(g, it, cCount, &index)) return mani_RsRefuse(g, maniImportReasonProperty, k, it);
        groupEntries += count;
    }
    for (uint32_t k = 0, t = sArr + 1; k < sCount; ++k, t = g->json.tokens[t].next) {
        uint32_t joints, jointCount, list, count, index;
        if (!mani_RsIsType(g, t, mcore_jsonObject)) return mani_RsRefuse(g, maniImportReasonProperty, k, t);
        if (!mani_RsArray(g, t, "joints", &joints, &jointCount) || jointCount == 0)
            return mani_RsRefuse(g, maniImportReasonProperty, k, joints != MCORE_JSON_NONE ? joints : t);
        uint32_t on = 0, firstOff = MCORE_JSON_NONE;
        for (uint32_t j = 0, jt = joints + 1; j < jointCount; ++j, jt = g->json.tokens[jt].next) {
            const uint32_t nt = mani_GrFind(g, jt, "node");
            uint32_t node = 0;
            if (!mani_RsIsType(g, jt, mcore_jsonObject)) return mani_RsRefuse(g, maniImportReasonProperty, k, jt);
            if (!mani_GrIndex(g, nt, g->nodeCount, &node))
                return mani_RsRefuse(g, maniImportReasonProperty, k, nt != MCORE_JSON_NONE ? nt : jt);
            if (mani_GrNodeBone(g, skeleton, node) != MANI_NO_BONE) ++on;
            else if (firstOff == MCORE_JSON_NONE) firstOff = nt;
        }
        if (on != 0 && on != jointCount) return mani_RsRefuse(g, maniImportReasonBone, k, firstOff);
        if (!mani_RsArray(g, t, "colliderGroups", &list, &count))
            return mani_RsRefuse(g, maniImportReasonProperty, k, list);
        for (uint32_t i = 0, it = list + 1; i < count; ++i, it = g->json.tokens[it].next)
            if (!mani_GrIndex(g, it, gCount, &index)) return mani_RsRefuse(g, maniImportReasonProperty, k, it);
        const uint32_t ct = mani_GrFind(g, t, "center");
        uint32_t center = 0;
        if (ct != MCORE_JSON_NONE && !mani_GrIndex(g, ct, g->nodeCount, &center))
            return mani_RsRefuse(g, maniImportReasonProperty, k, ct);
        const uint32_t nameT = mani_GrFind(g, t, "name");
        if (nameT != MCORE_JSON_NONE && !mani_RsIsType(g, nameT, mcore_jsonString))
            return mani_RsRefuse(g, maniImportReasonProperty, k, nameT);
        if (on == 0) continue;
        if (ct != MCORE_JSON_NONE && mani_GrBone(g, skeleton, center, NULL) == MANI_NO_BONE)
            return mani_RsRefuse(g, maniImportReasonBone, k, ct);
        ++keptSprings;
        keptJoints += jointCount;
        springEntries += count;
    }

    /* One block: the source's arrays, then the collider map. */
    const uint64_t pColliders = 0;
    const uint64_t pGroups = pColliders + mani_RsPart(keptColliders * sizeof(maniSpringSourceCollider));
    const uint64_t pSprings = pGroups + mani_RsPart((uint64_t)gCount * sizeof(maniSpringSourceColliderGroup));
    const uint64_t pJoints = pSprings + mani_RsPart(keptSprings * sizeof(maniSpringSourceSpring));
    const uint64_t pGroupEntries = pJoints + mani_RsPart(keptJoints * sizeof(maniSpringSourceJoint));
    const uint64_t pSpringEntries = pGroupEntries + mani_RsPart(groupEntries * 4u);
    const uint64_t pMap = pSpringEntries + mani_RsPart(springEntries * 4u);
    const uint64_t total = pMap + mani_RsPart((uint64_t)cCount * 4u);
    if (total == 0) {
        *setOut = s;
        return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
    }
    if (total > (uint64_t)SIZE_MAX) return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    uint8_t* block = (uint8_t*)mani_GltfAlloc(gltf, (size_t)total);
    if (block == NULL) return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    memset(block, 0, (size_t)total);
    maniSpringSourceCollider* colliders = (maniSpringSourceCollider*)(void*)(block + pColliders);
    maniSpringSourceColliderGroup* groups = (maniSpringSourceColliderGroup*)(void*)(block + pGroups);
    maniSpringSourceSpring* springs = (maniSpringSourceSpring*)(void*)(block + pSprings);
    maniSpringSourceJoint* joints = (maniSpringSourceJoint*)(void*)(block + pJoints);
    uint32_t* groupEntry = (uint32_t*)(void*)(block + pGroupEntries);
    uint32_t* springEntry = (uint32_t*)(void*)(block + pSpringEntries);
    uint32_t* map = (uint32_t*)(void*)(block + pMap);
    maniImportResult refused;

    /* Colliders on a bone (the node's or its nearest ancestor's), in its
     * frame; the others left out. */
    uint32_t nc = 0;
    for (uint32_t c = 0, t = cArr + 1; c < cCount; ++c, t = g->json.tokens[t].next) {
        uint32_t node = 0, boneNode = MANI_GB_NONE, bad = MCORE_JSON_NONE;
        (void)mani_GrIndex(g, mani_GrFind(g, t, "node"), g->nodeCount, &node);
        const uint32_t bone = mani_GrBone(g, skeleton, node, &boneNode);
        map[c] = MANI_GB_NONE;
        if (bone == MANI_NO_BONE) continue;
        mani_GbXf x;
        if (!mani_RsToBone(g, node, boneNode, &x, &bad)) {
            refused = mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, bad, 0);
            goto fail;
        }
        colliders[nc].bone = bone;
        if (!mani_RsCollider(g, &basis, t, &x, &colliders[nc], &bad)) {
            refused = mani_RsRefuse(g, maniImportReasonProperty, c, bad);
            goto fail;
        }
        map[c] = nc++;
    }
    /* Groups of the colliders kept. */
    uint32_t ge = 0;
    for (uint32_t k = 0, t = gArr + 1; k < gCount; ++k, t = g->json.tokens[t].next) {
        const uint32_t list = mani_GrFind(g, t, "colliders");
        groups[k].colliders = &groupEntry[ge];
        for (uint32_t i = 0, it = list + 1; i < g->json.tokens[list].count; ++i, it = g->json.tokens[it].next) {
            uint32_t index = 0;
            (void)mani_GrIndex(g, it, cCount, &index);
            if (map[index] != MANI_GB_NONE) groupEntry[ge++] = map[index];
        }
        groups[k].colliderCount = (uint32_t)(&groupEntry[ge] - groups[k].colliders);
        if (groups[k].colliderCount == 0) groups[k].colliders = NULL;
    }
    /* Springs on the skeleton. */
    uint32_t ns = 0, nj = 0, se = 0;
    for (uint32_t k = 0, t = sArr + 1; k < sCount; ++k, t = g->json.tokens[t].next) {
        const uint32_t list = mani_GrFind(g, t, "joints");
        const uint32_t jointCount = g->json.tokens[list].count;
        uint32_t node = 0;
        (void)mani_GrIndex(g, mani_GrFind(g, list + 1, "node"), g->nodeCount, &node);
        if (mani_GrNodeBone(g, skeleton, node) == MANI_NO_BONE) continue;
        maniSpringSourceSpring* sp = &springs[ns];
        const uint32_t nameT = mani_GrFind(g, t, "name");
        if (nameT != MCORE_JSON_NONE) {
            const mcore_JsonToken* nk = &g->json.tokens[nameT];
            if (nk->count == 0) {
                sp->name = (const char*)g->json.text + nk->start;
                sp->nameLength = nk->length;
            } else {
                size_t length = 0;
                (void)mcore_JsonGetString(&g->json, nameT, NULL, 0, &length);
                char* text = (char*)mani_GltfAlloc(gltf, length + 1);
                if (text == NULL) {
                    refused = mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
                    goto fail;
                }
                if (mcore_JsonGetString(&g->json, nameT, text, length + 1, &length) != mcore_jsonOk) {
                    mani_GltfFree(gltf, text);
                    refused = mani_RsRefuse(g, maniImportReasonProperty, k, nameT);
                    goto fail;
                }
                sp->name = text;
                sp->nameLength = length;
            }
            if (sp->nameLength == 0) sp->name = NULL;
        }
        sp->joints = &joints[nj];
        sp->jointCount = jointCount;
        for (uint32_t j = 0, jt = list + 1; j < jointCount; ++j, jt = g->json.tokens[jt].next) {
            static const double down[3] = {0, -1, 0};
            maniSpringSourceJoint* o = &joints[nj++];
            float hit = 0, stiffness = 0, gravity = 0, drag = 0;
            double dir[3], out[3];
            (void)mani_GrIndex(g, mani_GrFind(g, jt, "node"), g->nodeCount, &node);
            o->bone = mani_GrNodeBone(g, skeleton, node);
            if (!mani_GrNumber(g, jt, "hitRadius", 0.0f, &hit) || !mani_GrNumber(g, jt, "stiffness", 1.0f, &stiffness) ||
                !mani_GrNumber(g, jt, "gravityPower", 0.0f, &gravity) ||
                !mani_GrNumber(g, jt, "dragForce", 0.5f, &drag) || !mani_RsFloats(g, jt, "gravityDir", 3, down, dir)) {
                refused = mani_RsRefuse(g, maniImportReasonProperty, k, jt);
                goto fail;
            }
            /* Lengths (hit radius, and the displacements stiffness and
             * gravity make a second) scale with the unit; directions turn. */
            o->hitRadius = (float)((double)hit * basis.unit);
            o->stiffness = (float)((double)stiffness * basis.unit);
            o->gravityPower = (float)((double)gravity * basis.unit);
            o->dragForce = drag;
            mani_GbBasisDirection(&basis, dir, out);
            o->gravityDir = mani_RsVec3(out);
            uint32_t bad = jt;
            if (j + 1 < jointCount) {
                if (!mani_RsLimit(g, turn, jt, o, &bad)) {
                    refused = mani_RsRefuse(g, maniImportReasonProperty, k, bad);
                    goto fail;
                }
            } else {
                /* A last joint's limit is ignored. */
                o->limitKind = maniSpringLimitNone;
                o->limitRotation.w = 1.0f;
            }
        }
        uint32_t gl = 0, gc = 0;
        (void)mani_RsArray(g, t, "colliderGroups", &gl, &gc);
        sp->colliderGroups = gc != 0 ? &springEntry[se] : NULL;
        sp->colliderGroupCount = gc;
        for (uint32_t i = 0, it = gl + 1; i < gc; ++i, it = g->json.tokens[it].next)
            (void)mani_GrIndex(g, it, gCount, &springEntry[se++]);
        const uint32_t ct = mani_GrFind(g, t, "center");
        sp->center = MANI_NO_BONE;
        if (ct != MCORE_JSON_NONE) {
            uint32_t center = 0;
            (void)mani_GrIndex(g, ct, g->nodeCount, &center);
            sp->center = mani_GrBone(g, skeleton, center, NULL);
        }
        ++ns;
    }
    s.colliders = nc != 0 ? colliders : NULL;
    s.colliderCount = nc;
    s.groups = gCount != 0 ? groups : NULL;
    s.groupCount = gCount;
    s.springs = ns != 0 ? springs : NULL;
    s.springCount = ns;
    *setOut = s;
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
fail:
    mani_GltfFree(gltf, block);
    return refused;
}
