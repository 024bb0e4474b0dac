/* maniGltf_ReadRagdoll: OMI_physics_body, OMI_physics_shape and
 * OMI_physics_joint as a ragdoll profile's source on an opened skeleton
 * (import.h). */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/gltf/gltf_build_internal.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"
#include "lib/anim/src/import/gltf/gltf_read_json.h"
#include "lib/core/quat64.h"
#include "maul/anim/ragdoll.h"

/* A node's OMI_physics_body object, or MCORE_JSON_NONE. */
static uint32_t mani_RrBody(const maniGltf* g, uint32_t node) {
    return mani_GrFind(g, mani_GrFind(g, g->nodes[node].token, "extensions"), "OMI_physics_body");
}

/* Whether a node is a dynamic or kinematic body (1 kinematic + 1), 0 not. */
static uint32_t mani_RrMotion(const maniGltf* g, uint32_t node) {
    const uint32_t motion = mani_GrFind(g, mani_RrBody(g, node), "motion");
    const uint32_t type = mani_GrFind(g, motion, "type");
    if (type == MCORE_JSON_NONE) return 0;
    if (mcore_JsonStringEquals(&g->json, type, "dynamic", 7)) return 1;
    if (mcore_JsonStringEquals(&g->json, type, "kinematic", 9)) return 2;
    return 0;
}

/* A node's frame in the document's world (the nodes above composed), split
 * rigid: position, rotation, and its scale. 0 for a matrix refused. */
static int mani_RrWorld(const maniGltf* g, uint32_t node, double p[3], double q[4], double s[3]) {
    mani_GbXf w, l;
    mani_GbIdentity(&w);
    for (uint32_t n = node, depth = 0; n != MANI_GB_NONE && depth <= g->nodeCount; n = mani_GbNodeParent(g, n), ++depth) {
        int isMatrix = 0;
        if (!mani_GbNodeLocal(g, n, &l, &isMatrix)) return 0;
        mani_GbMul(&l, &w, &w);
    }
    maniTransform t;
    if (!mani_GbSplit(&w, &t)) return 0;
    p[0] = w.t[0], p[1] = w.t[1], p[2] = w.t[2];
    q[0] = t.rotation.x, q[1] = t.rotation.y, q[2] = t.rotation.z, q[3] = t.rotation.w;
    (void)mcore_QuatNormalize64(q);
    s[0] = fabs(t.scale.x), s[1] = fabs(t.scale.y), s[2] = fabs(t.scale.z);
    return 1;
}

/* b's frame in a's (both rigid, document space), in the output basis. */
static maniTransform mani_RrRelative(const mani_GbBasis* basis, const double ap[3], const double aq[4], const double bp[3],
                                     const double bq[4]) {
    double ai[4], d[3], rp[3], rq[4], op[3], oq[4];
    mcore_QuatConj64(aq, ai);
    for (int c = 0; c < 3; ++c) d[c] = bp[c] - ap[c];
    mcore_QuatRotateFast64(ai, d, rp);
    mcore_QuatMul64(ai, bq, rq);
    mani_GbBasisVector(basis, rp, op);
    mani_GbBasisQuat(basis, rq, oq);
    (void)mcore_QuatNormalize64(oq);
    maniTransform t;
    t.translation.x = (float)op[0], t.translation.y = (float)op[1], t.translation.z = (float)op[2];
    t.rotation.x = (float)oq[0], t.rotation.y = (float)oq[1], t.rotation.z = (float)oq[2], t.rotation.w = (float)oq[3];
    t.scale.x = t.scale.y = t.scale.z = 1.0f;
    return t;
}

/* The node's body owner: the nearest node at or above it that is a dynamic
 * or kinematic body, or MANI_GB_NONE. */
static uint32_t mani_RrOwner(const maniGltf* g, uint32_t node) {
    for (uint32_t n = node, depth = 0; n != MANI_GB_NONE && depth <= g->nodeCount; n = mani_GbNodeParent(g, n), ++depth)
        if (mani_RrMotion(g, n) != 0) return n;
    return MANI_GB_NONE;
}

/* The body a collider or joint node belongs to in OMI_physics_body: the
 * nearest node at or above it with a motion of any type (a static one
 * included, so a static body's colliders below a dynamic body stay the
 * static body's), or MANI_GB_NONE. */
static uint32_t mani_RrPart(const maniGltf* g, uint32_t node) {
    for (uint32_t n = node, depth = 0; n != MANI_GB_NONE && depth <= g->nodeCount; n = mani_GbNodeParent(g, n), ++depth)
        if (mani_GrFind(g, mani_RrBody(g, n), "motion") != MCORE_JSON_NONE) return n;
    return MANI_GB_NONE;
}

static maniImportResult mani_RrRefuseAs(const maniGltf* g, uint32_t reason, uint32_t node, uint32_t token) {
    /* A string's offset is its opening quote, as the importer gives it. */
    return mani_GbImportResult(mani_errorFormat, reason, node,
                               token != MCORE_JSON_NONE ? mani_GltfTokenOffset(g, token) : g->jsonOffset);
}

static maniImportResult mani_RrRefuse(const maniGltf* g, uint32_t node, uint32_t token) {
    return mani_RrRefuseAs(g, maniImportReasonProperty, node, token);
}

/* The body's shape from its collider's shape object and the collider node's
 * scale (times the unit). 1 done; 0 a property refused; 2 a shape a profile
 * cannot hold (Unsupported: a cylinder, convex or trimesh, any other kind,
 * a tapered capsule), *at the token to blame. */
static int mani_RrShape(const maniGltf* g, uint32_t shape, const double s[3], double unit, maniRagdollSourceBody* out,
                        uint32_t* at) {
    const uint32_t type = mani_GrFind(g, shape, "type");
    *at = shape;
    if (type == MCORE_JSON_NONE || g->json.tokens[type].type != mcore_jsonString) return 0;
    float a = 0, b = 0;
    if (mcore_JsonStringEquals(&g->json, type, "box", 3)) {
        const uint32_t size = mani_GrFind(g, mani_GrFind(g, shape, "box"), "size");
        float v[3] = {1, 1, 1};
        if (size != MCORE_JSON_NONE) {
            for (uint32_t k = 0; k < 3; ++k) {
                const uint32_t t = mani_GrItem(g, size, k);
                if (t == MCORE_JSON_NONE || mani_GltfTokenFloat(g, t, &v[k]) != mcore_jsonOk) return 0;
            }
        }
        out->shape = maniRagdollShapeBox;
        out->size.x = (float)(0.5 * v[0] * s[0] * unit);
        out->size.y = (float)(0.5 * v[1] * s[1] * unit);
        out->size.z = (float)(0.5 * v[2] * s[2] * unit);
        return 1;
    }
    const double across = s[0] > s[2] ? s[0] : s[2];
    if (mcore_JsonStringEquals(&g->json, type, "sphere", 6)) {
        if (!mani_GrNumber(g, mani_GrFind(g, shape, "sphere"), "radius", 0.5f, &a)) return 0;
        const double m = across > s[1] ? across : s[1];
        out->shape = maniRagdollShapeSphere;
        out->size.x = (float)(a * m * unit);
        return 1;
    }
    if (mcore_JsonStringEquals(&g->json, type, "capsule", 7)) {
        const uint32_t c = mani_GrFind(g, shape, "capsule");
        float top = 0, bottom = 0;
        if (!mani_GrNumber(g, c, "radius", 0.5f, &a) || !mani_GrNumber(g, c, "radiusTop", a, &top) ||
            !mani_GrNumber(g, c, "radiusBottom", a, &bottom) || !mani_GrNumber(g, c, "height", 2.0f, &b))
            return 0;
        /* One radius: "a capsule's height and radius"; a tapered one is not
         * a capsule a profile holds. */
        if (top != bottom) {
            *at = c;
            return 2;
        }
        a = top;
        out->shape = maniRagdollShapeCapsule;
        out->size.x = (float)(a * across * unit);
        out->size.y = (float)(b * s[1] * unit);
        return 1;
    }
    *at = type;
    return 2;
}

/* The joint of a physicsJoints entry: angular limits as twist (x) and
 * symmetric swings (y, z); angular force drives equal on their axes and
 * without targets as the drive. */
static int mani_RrJoint(const maniGltf* g, uint32_t joint, maniRagdollSourceBody* out) {
    const uint32_t limits = mani_GrFind(g, joint, "limits");
    const uint32_t lc = limits != MCORE_JSON_NONE && g->json.tokens[limits].type == mcore_jsonArray ? g->json.tokens[limits].count : 0;
    for (uint32_t k = 0; k < lc; ++k) {
        const uint32_t l = mani_GrItem(g, limits, k);
        const uint32_t axes = mani_GrFind(g, l, "angularAxes");
        if (axes == MCORE_JSON_NONE) continue;
        float lo = 0, hi = 0;
        if (!mani_GrNumber(g, l, "min", -MANI_RAGDOLL_MAX_ANGLE, &lo) || !mani_GrNumber(g, l, "max", MANI_RAGDOLL_MAX_ANGLE, &hi))
            return 0;
        for (uint32_t a = 0; a < g->json.tokens[axes].count; ++a) {
            float axis = 0;
            if (mani_GltfTokenFloat(g, mani_GrItem(g, axes, a), &axis) != mcore_jsonOk) return 0;
            const float clo = lo < -MANI_RAGDOLL_MAX_ANGLE ? -MANI_RAGDOLL_MAX_ANGLE : lo;
            const float chi = hi > MANI_RAGDOLL_MAX_ANGLE ? MANI_RAGDOLL_MAX_ANGLE : hi;
            const float swing = fabsf(clo) > fabsf(chi) ? fabsf(clo) : fabsf(chi);
            if (axis == 0.0f) {
                out->twistMin = clo <= chi ? clo : chi;
                out->twistMax = clo <= chi ? chi : clo;
            } else if (axis == 1.0f) {
                out->swingY = swing;
            } else if (axis == 2.0f) {
                out->swingZ = swing;
            } else {
                return 0;
            }
        }
    }
    const uint32_t drives = mani_GrFind(g, joint, "drives");
    const uint32_t dc = drives != MCORE_JSON_NONE && g->json.tokens[drives].type == mcore_jsonArray ? g->json.tokens[drives].count : 0;
    int have = 0, equal = 1;
    float ds = 0, dd = 0, df = 0;
    for (uint32_t k = 0; k < dc; ++k) {
        const uint32_t d = mani_GrItem(g, drives, k);
        const uint32_t type = mani_GrFind(g, d, "type"), mode = mani_GrFind(g, d, "mode");
        if (type == MCORE_JSON_NONE || !mcore_JsonStringEquals(&g->json, type, "angular", 7)) continue;
        if (mode == MCORE_JSON_NONE || !mcore_JsonStringEquals(&g->json, mode, "force", 5)) continue;
        if (mani_GrFind(g, d, "positionTarget") != MCORE_JSON_NONE || mani_GrFind(g, d, "velocityTarget") != MCORE_JSON_NONE)
            continue;
        float s = 0, dm = 0, f = 0;
        if (!mani_GrNumber(g, d, "stiffness", 0, &s) || !mani_GrNumber(g, d, "damping", 0, &dm)) return 0;
        const uint32_t ft = mani_GrFind(g, d, "maxForce");
        if (ft != MCORE_JSON_NONE && (mani_GltfTokenFloat(g, ft, &f) != mcore_jsonOk || !isfinite(f))) f = 0;
        if (have && (s != ds || dm != dd || f != df)) equal = 0;
        ds = s, dd = dm, df = f, have = 1;
    }
    if (have && equal && ds >= 0 && dd >= 0 && df >= 0) {
        out->driveStiffness = ds;
        out->driveDamping = dd;
        out->driveMaxForce = df;
    }
    return 1;
}

maniImportResult maniGltf_ReadRagdoll(maniGltf* gltf, const maniSkeleton* skeleton, const maniGltfOptions* options,
                                      maniVec3 facing, maniVec3 up, maniRagdollSource* sourceOut) {
    if (gltf == NULL || !mani_GltfLive(gltf)) return mani_GbImportResult(mani_errorInvalid, maniImportReasonNone, 0, 0);
    mani_GbBasis basis;
    maniImportResult entered = mani_GbEnter(gltf->builder, gltf, options, &basis);
    if (entered.result != mani_success) return entered;
    const maniGltf* g = gltf;
    const double fa[3] = {facing.x, facing.y, facing.z}, ua[3] = {up.x, up.y, up.z};
    const double fl = mcore_Length3_64(fa), ul = mcore_Length3_64(ua), fu = mcore_Dot3_64(fa, ua);
    if (skeleton == NULL || sourceOut == NULL || maniSkeleton_GetBoneCount(skeleton) == 0 || !(fabs(fl - 1.0) <= 1e-3) ||
        !(fabs(ul - 1.0) <= 1e-3) || !(fabs(fu) <= 1e-3))
        return mani_GbMisuse(gltf->builder);
    const uint32_t shapes = mani_GrFind(g, mani_GrFind(g, mani_GrFind(g, g->root, "extensions"), "OMI_physics_shape"), "shapes");
    const uint32_t joints =
        mani_GrFind(g, mani_GrFind(g, mani_GrFind(g, g->root, "extensions"), "OMI_physics_joint"), "physicsJoints");

    /* Count the bodies on the skeleton, then fill them. */
    uint32_t count = 0;
    for (uint32_t n = 0; n < g->nodeCount; ++n)
        if (mani_RrMotion(g, n) != 0 && mani_GrBone(g, skeleton, n, NULL) != MANI_NO_BONE) ++count;
    maniRagdollSourceBody* out = NULL;
    if (count > 0) {
        out = (maniRagdollSourceBody*)mani_GltfAlloc(gltf, sizeof *out * count);
        if (out == NULL) return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
        memset(out, 0, sizeof *out * count);
    }
    uint32_t k = 0, rootBody = MANI_GB_NONE;
    double rootQ[4] = {0, 0, 0, 1};
    for (uint32_t n = 0; n < g->nodeCount && k < count; ++n) {
        const uint32_t motion = mani_RrMotion(g, n);
        uint32_t boneNode = MANI_GB_NONE;
        const uint32_t bone = motion != 0 ? mani_GrBone(g, skeleton, n, &boneNode) : MANI_NO_BONE;
        if (bone == MANI_NO_BONE) continue;
        /* One body a bone: a second on the same bone (two body nodes below
         * one bone) is what a profile cannot hold. */
        for (uint32_t e = 0; e < k; ++e)
            if (out[e].bone == bone) return mani_RrRefuseAs(g, maniImportReasonUnsupported, n, mani_RrBody(g, n));
        maniRagdollSourceBody* b = &out[k];
        b->name = g->nodes[n].name.text;
        b->nameLength = g->nodes[n].name.text != NULL ? g->nodes[n].name.length : 0;
        b->bone = bone;
        b->motion = motion == 2 ? maniRagdollMotionKinematic : maniRagdollMotionDynamic;
        const uint32_t body = mani_RrBody(g, n);
        if (!mani_GrNumber(g, mani_GrFind(g, body, "motion"), "mass", 1.0f, &b->mass)) return mani_RrRefuse(g, n, body);
        /* Its one collider: the node itself or a node below it owned by it.
         * A profile's body has one shape, so none or a second one is what
         * it cannot hold. */
        uint32_t collider = MANI_GB_NONE, shape = MCORE_JSON_NONE;
        for (uint32_t c = 0; c < g->nodeCount; ++c) {
            const uint32_t ct = mani_GrFind(g, mani_RrBody(g, c), "collider");
            if (ct == MCORE_JSON_NONE || mani_RrPart(g, c) != n) continue;
            float index = -1;
            const uint32_t st = mani_GrFind(g, ct, "shape");
            if (st == MCORE_JSON_NONE || mani_GltfTokenFloat(g, st, &index) != mcore_jsonOk || !(index >= 0))
                return mani_RrRefuse(g, c, ct);
            if (collider != MANI_GB_NONE) return mani_RrRefuseAs(g, maniImportReasonUnsupported, c, ct);
            shape = mani_GrItem(g, shapes, (uint64_t)index);
            if (shape == MCORE_JSON_NONE) return mani_RrRefuse(g, c, st);
            collider = c;
        }
        if (collider == MANI_GB_NONE) return mani_RrRefuseAs(g, maniImportReasonUnsupported, n, body);
        double bp[3], bq[4], bs[3], cp[3], cq[4], cs[3];
        if (boneNode == MANI_GB_NONE || !mani_RrWorld(g, boneNode, bp, bq, bs) || !mani_RrWorld(g, collider, cp, cq, cs))
            return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, n, 0);
        b->frame = mani_RrRelative(&basis, bp, bq, cp, cq);
        b->joint.rotation.w = 1.0f;
        b->joint.scale.x = b->joint.scale.y = b->joint.scale.z = 1.0f;
        uint32_t blame = MCORE_JSON_NONE;
        const int shaped = mani_RrShape(g, shape, cs, basis.unit, b, &blame);
        if (shaped == 2) return mani_RrRefuseAs(g, maniImportReasonUnsupported, collider, blame);
        if (shaped == 0) return mani_RrRefuse(g, collider, blame);
        /* Free until a joint says otherwise. */
        b->twistMin = -MANI_RAGDOLL_MAX_ANGLE;
        b->twistMax = MANI_RAGDOLL_MAX_ANGLE;
        b->swingY = b->swingZ = MANI_RAGDOLL_MAX_ANGLE;
        /* The joint to the nearest ancestor body: a joint node with one side
         * under this body and the other under that one. */
        const uint32_t parentBody = mani_RrOwner(g, mani_GbNodeParent(g, n));
        if (parentBody == MANI_GB_NONE && rootBody == MANI_GB_NONE) {
            rootBody = k;
            memcpy(rootQ, cq, sizeof rootQ);
        }
        for (uint32_t j = 0; parentBody != MANI_GB_NONE && j < g->nodeCount; ++j) {
            const uint32_t jt = mani_GrFind(g, mani_GrFind(g, g->nodes[j].token, "extensions"), "OMI_physics_joint");
            if (jt == MCORE_JSON_NONE) continue;
            float other = -1, index = -1;
            const uint32_t ot = mani_GrFind(g, jt, "connectedNode"), it = mani_GrFind(g, jt, "joint");
            if (ot == MCORE_JSON_NONE || mani_GltfTokenFloat(g, ot, &other) != mcore_jsonOk || !(other >= 0) ||
                other >= (float)g->nodeCount || other != floorf(other))
                return mani_RrRefuse(g, j, jt);
            const uint32_t a = mani_RrPart(g, j), c = mani_RrPart(g, (uint32_t)other);
            uint32_t childSide = MANI_GB_NONE;
            if (a == n && c == parentBody) childSide = j;
            if (c == n && a == parentBody) childSide = (uint32_t)other;
            if (childSide == MANI_GB_NONE) continue;
            double jp[3], jq[4], js[3];
            if (!mani_RrWorld(g, childSide, jp, jq, js)) return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, childSide, 0);
            b->joint = mani_RrRelative(&basis, cp, cq, jp, jq);
            const uint32_t entry = it != MCORE_JSON_NONE && mani_GltfTokenFloat(g, it, &index) == mcore_jsonOk && index >= 0
                                       ? mani_GrItem(g, joints, (uint64_t)index)
                                       : MCORE_JSON_NONE;
            if (entry == MCORE_JSON_NONE || !mani_RrJoint(g, entry, b)) return mani_RrRefuse(g, j, jt);
            break;
        }
        ++k;
    }
    maniRagdollSource s;
    memset(&s, 0, sizeof s);
    s.skeleton = skeleton;
    s.bodies = out;
    s.bodyCount = k;
    /* The axes turned into the root body's frame at rest: M (R^-1 v). */
    double ri[4], f1[3], u1[3], f2[3], u2[3];
    mcore_QuatConj64(rootQ, ri);
    mcore_QuatRotateFast64(ri, fa, f1);
    mcore_QuatRotateFast64(ri, ua, u1);
    mani_GbBasisDirection(&basis, f1, f2);
    mani_GbBasisDirection(&basis, u1, u2);
    s.facing.x = (float)f2[0], s.facing.y = (float)f2[1], s.facing.z = (float)f2[2];
    s.up.x = (float)u2[0], s.up.y = (float)u2[1], s.up.z = (float)u2[2];
    *sourceOut = s;
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}
