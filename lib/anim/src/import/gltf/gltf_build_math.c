/* The glTF builders' transform arithmetic (gltf_build_internal.h), in
 * binary64: node locals, the basis change as a conjugation, placements. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/import/gltf/gltf_build_internal.h"
#include "lib/core/quat64.h"

void mani_GbIdentity(mani_GbXf* x) {
    memset(x, 0, sizeof *x);
    x->l[0] = x->l[4] = x->l[8] = 1.0;
}

void mani_GbFromTrs(const double t[3], const double q[4], const double s[3], mani_GbXf* x) {
    /* Columns of R S: the rotated axes scaled. */
    for (int c = 0; c < 3; ++c) {
        double axis[3] = {0, 0, 0}, out[3];
        axis[c] = s[c];
        mcore_QuatRotate64(q, axis, out);
        x->l[3 * c + 0] = out[0];
        x->l[3 * c + 1] = out[1];
        x->l[3 * c + 2] = out[2];
    }
    x->t[0] = t[0];
    x->t[1] = t[1];
    x->t[2] = t[2];
}

/* out = a b: b applied first. */
void mani_GbMul(const mani_GbXf* a, const mani_GbXf* b, mani_GbXf* out) {
    mani_GbXf r;
    for (int c = 0; c < 3; ++c)
        for (int row = 0; row < 3; ++row)
            r.l[3 * c + row] = (a->l[row] * b->l[3 * c] + a->l[3 + row] * b->l[3 * c + 1]) + a->l[6 + row] * b->l[3 * c + 2];
    for (int row = 0; row < 3; ++row)
        r.t[row] = ((a->l[row] * b->t[0] + a->l[3 + row] * b->t[1]) + a->l[6 + row] * b->t[2]) + a->t[row];
    *out = r;
}

void mani_GbToAffine(const mani_GbXf* x, maniAffine* out) {
    for (int c = 0; c < 3; ++c) {
        out->columns[c].x = (float)x->l[3 * c];
        out->columns[c].y = (float)x->l[3 * c + 1];
        out->columns[c].z = (float)x->l[3 * c + 2];
    }
    out->columns[3].x = (float)x->t[0];
    out->columns[3].y = (float)x->t[1];
    out->columns[3].z = (float)x->t[2];
}

/* -- Basis: out = C x C^-1, C = unit * M with M a signed permutation ------------ */

void mani_GbBasisVector(const mani_GbBasis* b, const double v[3], double out[3]) {
    double r[3];
    for (int row = 0; row < 3; ++row) r[row] = b->unit * (b->sign[row] * v[b->axis[row]]);
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
}

void mani_GbBasisDirection(const mani_GbBasis* b, const double v[3], double out[3]) {
    double r[3];
    for (int row = 0; row < 3; ++row) r[row] = b->sign[row] * v[b->axis[row]];
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
}

void mani_GbBasisQuat(const mani_GbBasis* b, const double q[4], double out[4]) {
    /* M R M^T for a rotation M (the options keep the basis right-handed):
     * the axis turns, the angle stays. */
    double v[3] = {q[0], q[1], q[2]}, r[3];
    mani_GbBasisDirection(b, v, r);
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
    out[3] = q[3];
}

void mani_GbBasisScale(const mani_GbBasis* b, const double s[3], double out[3]) {
    double r[3];
    for (int row = 0; row < 3; ++row) r[row] = s[b->axis[row]];
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
}

void mani_GbBasisXf(const mani_GbBasis* b, const mani_GbXf* x, mani_GbXf* out) {
    /* L' = M L M^T: L'[i][j] = s_i s_j L[a_i][a_j]; t' = unit M t. */
    mani_GbXf r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.l[3 * j + i] = (b->sign[i] * b->sign[j]) * x->l[3 * b->axis[j] + b->axis[i]];
    mani_GbBasisVector(b, x->t, r.t);
    *out = r;
}

int mani_GbInverse(const mani_GbXf* x, mani_GbXf* out) {
    const double* m = x->l; /* m[3 c + r] */
#define MANI_GB_M(r, c) m[3 * (c) + (r)]
    const double c00 = MANI_GB_M(1, 1) * MANI_GB_M(2, 2) - MANI_GB_M(1, 2) * MANI_GB_M(2, 1);
    const double c01 = MANI_GB_M(1, 2) * MANI_GB_M(2, 0) - MANI_GB_M(1, 0) * MANI_GB_M(2, 2);
    const double c02 = MANI_GB_M(1, 0) * MANI_GB_M(2, 1) - MANI_GB_M(1, 1) * MANI_GB_M(2, 0);
    const double det = (MANI_GB_M(0, 0) * c00 + MANI_GB_M(0, 1) * c01) + MANI_GB_M(0, 2) * c02;
    if (!(det != 0.0) || !isfinite(det)) return 0;
    mani_GbXf r;
    /* inverse = adjugate / det; r.l[3 c + row] = inv(row, c). */
    r.l[0] = c00 / det;
    r.l[1] = c01 / det;
    r.l[2] = c02 / det;
    r.l[3] = (MANI_GB_M(0, 2) * MANI_GB_M(2, 1) - MANI_GB_M(0, 1) * MANI_GB_M(2, 2)) / det;
    r.l[4] = (MANI_GB_M(0, 0) * MANI_GB_M(2, 2) - MANI_GB_M(0, 2) * MANI_GB_M(2, 0)) / det;
    r.l[5] = (MANI_GB_M(0, 1) * MANI_GB_M(2, 0) - MANI_GB_M(0, 0) * MANI_GB_M(2, 1)) / det;
    r.l[6] = (MANI_GB_M(0, 1) * MANI_GB_M(1, 2) - MANI_GB_M(0, 2) * MANI_GB_M(1, 1)) / det;
    r.l[7] = (MANI_GB_M(0, 2) * MANI_GB_M(1, 0) - MANI_GB_M(0, 0) * MANI_GB_M(1, 2)) / det;
    r.l[8] = (MANI_GB_M(0, 0) * MANI_GB_M(1, 1) - MANI_GB_M(0, 1) * MANI_GB_M(1, 0)) / det;
#undef MANI_GB_M
    for (int row = 0; row < 3; ++row)
        r.t[row] = -((r.l[row] * x->t[0] + r.l[3 + row] * x->t[1]) + r.l[6 + row] * x->t[2]);
    for (int i = 0; i < 9; ++i)
        if (!isfinite(r.l[i])) return 0;
    *out = r;
    return 1;
}

int mani_GbSplit(const mani_GbXf* x, maniTransform* out) {
    maniAffine a;
    double big = 0.0;
    for (int i = 0; i < 9; ++i) {
        if (!isfinite(x->l[i])) return 0;
        if (fabs(x->l[i]) > big) big = fabs(x->l[i]);
    }
    for (int i = 0; i < 3; ++i)
        if (!isfinite(x->t[i])) return 0;
    mani_GbToAffine(x, &a);
    maniTransform t;
    if (maniDecomposeAffine(&a, &t) != mani_success) return 0;
    /* Rebuilt T R S against x: a shear or projection shows as a difference. */
    const double q[4] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
    const double s[3] = {t.scale.x, t.scale.y, t.scale.z};
    const double tt[3] = {t.translation.x, t.translation.y, t.translation.z};
    mani_GbXf back;
    mani_GbFromTrs(tt, q, s, &back);
    const double tolerance = 1e-5 * (big > 1.0 ? big : 1.0);
    for (int i = 0; i < 9; ++i)
        if (fabs(back.l[i] - x->l[i]) > tolerance) return 0;
    *out = t;
    return 1;
}

/* glTF's +X, +Y, +Z become (up x front), up, front. */
static void mani_GbAxisVector(uint32_t axis, int v[3]) {
    v[0] = v[1] = v[2] = 0;
    v[axis / 2] = (axis & 1u) ? -1 : 1;
}

maniResult mani_GbCheckOptions(const maniGltfOptions* o, mani_GbBasis* basisOut) {
    if (o->cookie != MANI_GLTF_OPTIONS_COOKIE || o->cookieEnd != MANI_GLTF_OPTIONS_COOKIE) return mani_errorInvalid;
    if (o->abiVersion != MANI_ABI_VERSION) return mani_errorVersion;
    if (o->up > (uint32_t)maniAxisNegativeZ || o->front > (uint32_t)maniAxisNegativeZ) return mani_errorInvalid;
    if (o->up / 2 == o->front / 2) return mani_errorInvalid;
    if (!isfinite(o->unitScale) || !(o->unitScale > 0.0f)) return mani_errorInvalid;
    if (o->foldPlacement > 1 || o->reserved[0] != 0 || o->reserved[1] != 0) return mani_errorInvalid;
    int up[3], front[3], left[3];
    mani_GbAxisVector(o->up, up);
    mani_GbAxisVector(o->front, front);
    left[0] = up[1] * front[2] - up[2] * front[1];
    left[1] = up[2] * front[0] - up[0] * front[2];
    left[2] = up[0] * front[1] - up[1] * front[0];
    /* Column c of M is where glTF's axis c goes: (left, up, front). Row r
     * then reads glTF's axis whose column has r non-zero. */
    const int* cols[3] = {left, up, front};
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (cols[c][r] != 0) {
                basisOut->axis[r] = c;
                basisOut->sign[r] = (double)cols[c][r];
            }
    basisOut->unit = (double)o->unitScale;
    return mani_success;
}
