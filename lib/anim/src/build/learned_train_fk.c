/* Stage 1's forward kinematics (docs/learned-training.md, "Losses"): a
 * row of Decompressor outputs (per bone its local translation and two
 * rotation columns) to every bone's character-space transform (model space
 * relative to bone 0), and the exact gradients back. Rotations are the
 * model's: the two columns orthonormalized as maniLearnedModel_Decompress
 * does (the same operations in the same order), the third their cross
 * product. Scales are not applied (the scale term covers them). Every
 * operation binary32, rounded once, in the order written. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/build/learned_train_internal.h"
#include "maul/anim/skeleton.h"

/* A transform in the layout of MANI_TRAIN_XFM: its position at 0, its
 * rotation's columns at 3, 6 and 9 (element r of column c at 3 + 3c + r). */
#define MANI_FK_R(m, r, c) ((m)[3u + 3u * (c) + (r)])

/* Offsets in a bone's MANI_TRAIN_FK_FLOATS. */
#define MANI_FK_LOCAL 0u  /* the local rotation, 9 (columns) */
#define MANI_FK_MODEL 9u  /* model space, MANI_TRAIN_XFM */
#define MANI_FK_CHAR 21u  /* character space, MANI_TRAIN_XFM */
#define MANI_FK_DCHAR 33u /* the loss's gradient of the character space */
#define MANI_FK_DMODEL 45u

/* The model's orthonormalization of two columns (mani_LearnedRotation's
 * steps): x = c0 / |c0|, y = (c1 - (x.c1) x) / its length, z = x cross y,
 * into rot (columns, 9). Returns 0 (rot the identity) when a length is not
 * above 0 or not finite. */
static int mani_FkColumns(const float* c0, const float* c1, float* rot, float* l0Out, float* l1Out, float* dOut) {
    static const float identity[9] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f};
    memcpy(rot, identity, sizeof identity);
    const float l0 = sqrtf(c0[0] * c0[0] + c0[1] * c0[1] + c0[2] * c0[2]);
    if (!(l0 > 0.0f) || !isfinite(l0)) return 0;
    const float x0 = c0[0] / l0, x1 = c0[1] / l0, x2 = c0[2] / l0;
    const float d = x0 * c1[0] + x1 * c1[1] + x2 * c1[2];
    const float u0 = c1[0] - d * x0, u1 = c1[1] - d * x1, u2 = c1[2] - d * x2;
    const float l1 = sqrtf(u0 * u0 + u1 * u1 + u2 * u2);
    if (!(l1 > 0.0f) || !isfinite(l1)) return 0;
    const float y0 = u0 / l1, y1 = u1 / l1, y2 = u2 / l1;
    rot[0] = x0, rot[1] = x1, rot[2] = x2;
    rot[3] = y0, rot[4] = y1, rot[5] = y2;
    rot[6] = x1 * y2 - x2 * y1;
    rot[7] = x2 * y0 - x0 * y2;
    rot[8] = x0 * y1 - x1 * y0;
    *l0Out = l0;
    *l1Out = l1;
    *dOut = d;
    return 1;
}

/* out = a b (3 x 3, columns), each element's three products summed in order. */
static void mani_FkMul(const float* a, const float* b, float* out) {
    for (uint32_t c = 0; c < 3u; ++c)
        for (uint32_t r = 0; r < 3u; ++r)
            out[3u * c + r] = a[r] * b[3u * c] + a[3u + r] * b[3u * c + 1u] + a[6u + r] * b[3u * c + 2u];
}

/* out = a^T b. */
static void mani_FkMulT(const float* a, const float* b, float* out) {
    for (uint32_t c = 0; c < 3u; ++c)
        for (uint32_t r = 0; r < 3u; ++r)
            out[3u * c + r] =
                a[3u * r] * b[3u * c] + a[3u * r + 1u] * b[3u * c + 1u] + a[3u * r + 2u] * b[3u * c + 2u];
}

/* out = a v, and out = a^T v. */
static void mani_FkMulVec(const float* a, const float* v, float* out) {
    for (uint32_t r = 0; r < 3u; ++r) out[r] = a[r] * v[0] + a[3u + r] * v[1] + a[6u + r] * v[2];
}
static void mani_FkMulTVec(const float* a, const float* v, float* out) {
    for (uint32_t r = 0; r < 3u; ++r) out[r] = a[3u * r] * v[0] + a[3u * r + 1u] * v[1] + a[3u * r + 2u] * v[2];
}

void mani_TrainFkForward(const uint32_t* parents, uint32_t bones, const float* y, float* fk) {
    for (uint32_t b = 0; b < bones; ++b) {
        float* k = fk + (size_t)b * MANI_TRAIN_FK_FLOATS;
        const float* o = y + 9u * (size_t)b;
        float l0, l1, d;
        (void)mani_FkColumns(o + 3, o + 6, k + MANI_FK_LOCAL, &l0, &l1, &d);
        float* g = k + MANI_FK_MODEL;
        const uint32_t p = parents[b];
        if (p == MANI_NO_BONE) {
            memcpy(g, o, 12);
            memcpy(g + 3, k + MANI_FK_LOCAL, 36);
        } else {
            const float* gp = fk + (size_t)p * MANI_TRAIN_FK_FLOATS + MANI_FK_MODEL;
            float v[3];
            mani_FkMulVec(gp + 3, o, v);
            for (uint32_t i = 0; i < 3u; ++i) g[i] = v[i] + gp[i];
            mani_FkMul(gp + 3, k + MANI_FK_LOCAL, g + 3);
        }
        memset(k + MANI_FK_DCHAR, 0, 4u * 2u * MANI_TRAIN_XFM);
    }
    const float* g0 = fk + MANI_FK_MODEL;
    for (uint32_t b = 0; b < bones; ++b) {
        float* k = fk + (size_t)b * MANI_TRAIN_FK_FLOATS;
        const float* g = k + MANI_FK_MODEL;
        float* q = k + MANI_FK_CHAR;
        float v[3];
        for (uint32_t i = 0; i < 3u; ++i) v[i] = g[i] - g0[i];
        mani_FkMulTVec(g0 + 3, v, q);
        mani_FkMulT(g0 + 3, g + 3, q + 3);
    }
}

const float* mani_TrainFkCharacter(const float* fk, uint32_t bone) {
    return fk + (size_t)bone * MANI_TRAIN_FK_FLOATS + MANI_FK_CHAR;
}

float* mani_TrainFkCharacterGrad(float* fk, uint32_t bone) {
    return fk + (size_t)bone * MANI_TRAIN_FK_FLOATS + MANI_FK_DCHAR;
}

/* Adds g's gradient back through mani_FkColumns into dc0 and dc1. */
static void mani_FkColumnsBack(const float* c0, const float* c1, const float* rot, const float* g, float* dc0, float* dc1) {
    float l0, l1, d, check[9];
    if (!mani_FkColumns(c0, c1, check, &l0, &l1, &d)) return; /* the identity: no gradient */
    const float* x = rot;
    const float* yv = rot + 3;
    float gx[3], gy[3], gu[3];
    const float* gz = g + 6;
    /* z = x cross y. */
    gx[0] = g[0] + (yv[1] * gz[2] - yv[2] * gz[1]);
    gx[1] = g[1] + (yv[2] * gz[0] - yv[0] * gz[2]);
    gx[2] = g[2] + (yv[0] * gz[1] - yv[1] * gz[0]);
    gy[0] = g[3] + (gz[1] * x[2] - gz[2] * x[1]);
    gy[1] = g[4] + (gz[2] * x[0] - gz[0] * x[2]);
    gy[2] = g[5] + (gz[0] * x[1] - gz[1] * x[0]);
    /* y = u / l1. */
    const float yg = yv[0] * gy[0] + yv[1] * gy[1] + yv[2] * gy[2];
    for (uint32_t i = 0; i < 3u; ++i) gu[i] = (gy[i] - yv[i] * yg) / l1;
    /* u = c1 - d x, d = x.c1. */
    const float gd = -(x[0] * gu[0] + x[1] * gu[1] + x[2] * gu[2]);
    for (uint32_t i = 0; i < 3u; ++i) {
        gx[i] = gx[i] - d * gu[i];
        gx[i] = gx[i] + gd * c1[i];
        const float c1g = gu[i] + gd * x[i];
        dc1[i] = dc1[i] + c1g;
    }
    /* x = c0 / l0. */
    const float xg = x[0] * gx[0] + x[1] * gx[1] + x[2] * gx[2];
    for (uint32_t i = 0; i < 3u; ++i) {
        const float c0g = (gx[i] - x[i] * xg) / l0;
        dc0[i] = dc0[i] + c0g;
    }
}

void mani_TrainFkBackward(const uint32_t* parents, uint32_t bones, const float* y, float* fk, float* dy) {
    const float* g0 = fk + MANI_FK_MODEL;
    float* dg0 = fk + MANI_FK_DMODEL;
    /* Character space q = g0^-1 g: each bone's model-space gradient from
     * its own q, then bone 0's from every bone's q, in bone order. */
    for (uint32_t b = 0; b < bones; ++b) {
        float* k = fk + (size_t)b * MANI_TRAIN_FK_FLOATS;
        const float* dq = k + MANI_FK_DCHAR;
        float* dg = k + MANI_FK_DMODEL;
        mani_FkMulVec(g0 + 3, dq, dg);
        mani_FkMul(g0 + 3, dq + 3, dg + 3);
    }
    for (uint32_t b = 0; b < bones; ++b) {
        const float* k = fk + (size_t)b * MANI_TRAIN_FK_FLOATS;
        const float* g = k + MANI_FK_MODEL;
        const float* dq = k + MANI_FK_DCHAR;
        float v[3], w[3];
        for (uint32_t i = 0; i < 3u; ++i) v[i] = g[i] - g0[i];
        mani_FkMulVec(g0 + 3, dq, w);
        for (uint32_t i = 0; i < 3u; ++i) dg0[i] = dg0[i] - w[i];
        /* d g0's rotation: v dq_p^T + g_R dq_R^T. */
        for (uint32_t c = 0; c < 3u; ++c)
            for (uint32_t r = 0; r < 3u; ++r) {
                const float pv = v[r] * dq[c];
                const float rv = MANI_FK_R(g, r, 0) * MANI_FK_R(dq, c, 0) + MANI_FK_R(g, r, 1) * MANI_FK_R(dq, c, 1) +
                                 MANI_FK_R(g, r, 2) * MANI_FK_R(dq, c, 2);
                float* e = &MANI_FK_R(dg0, r, c);
                *e = *e + pv;
                *e = *e + rv;
            }
    }
    /* Model space back to the locals, children before their parents. */
    for (uint32_t b = bones; b-- > 0;) {
        float* k = fk + (size_t)b * MANI_TRAIN_FK_FLOATS;
        const float* o = y + 9u * (size_t)b;
        const float* dg = k + MANI_FK_DMODEL;
        float* dyb = dy + 9u * (size_t)b;
        float dt[3], dr[9];
        const uint32_t p = parents[b];
        if (p == MANI_NO_BONE) {
            memcpy(dt, dg, 12);
            memcpy(dr, dg + 3, 36);
        } else {
            float* kp = fk + (size_t)p * MANI_TRAIN_FK_FLOATS;
            const float* gp = kp + MANI_FK_MODEL;
            float* dgp = kp + MANI_FK_DMODEL;
            const float* rl = k + MANI_FK_LOCAL;
            /* g = gp L: t_g = gp_R t + gp_t, R_g = gp_R R. */
            mani_FkMulTVec(gp + 3, dg, dt);
            mani_FkMulT(gp + 3, dg + 3, dr);
            for (uint32_t i = 0; i < 3u; ++i) dgp[i] = dgp[i] + dg[i];
            for (uint32_t c = 0; c < 3u; ++c)
                for (uint32_t r = 0; r < 3u; ++r) {
                    /* (dR_g R^T)[r][c]: R's row c is rl[c], rl[3 + c], rl[6 + c]. */
                    const float rv = MANI_FK_R(dg, r, 0) * rl[c] + MANI_FK_R(dg, r, 1) * rl[3u + c] +
                                     MANI_FK_R(dg, r, 2) * rl[6u + c];
                    const float tv = dg[r] * o[c];
                    float* e = &MANI_FK_R(dgp, r, c);
                    *e = *e + rv;
                    *e = *e + tv;
                }
        }
        for (uint32_t i = 0; i < 3u; ++i) dyb[i] = dyb[i] + dt[i];
        mani_FkColumnsBack(o + 3, o + 6, k + MANI_FK_LOCAL, dr, dyb + 3, dyb + 6);
    }
}
