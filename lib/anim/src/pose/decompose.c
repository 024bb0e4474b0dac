/* maniDecomposeAffine: translation, the rotation of the polar decomposition
 * and the scale along the rotated axes, in binary64.
 *
 * A mirror (negative determinant) is taken out first as a negative x scale.
 * A well-conditioned linear part M = R S is split by Higham's scaled Newton
 * iteration R <- (g R + R^-T / g) / 2, with g = sqrt(|R^-1|_F / |R|_F) (only
 * IEEE operations and sqrt), until it moves by less than 2^-50 or after 40
 * steps; it converges quadratically to the nearest rotation and is exact up
 * to rounding when M has no shear. A matrix with a zero or flat axis (a
 * determinant below 2^-40 of the product of the axis lengths) has no unique
 * polar rotation: its rotation is built from the axes left, in x, y, z order,
 * by Gram-Schmidt, the missing ones completed by cross products; with no
 * axis left it is the identity. The scale is the diagonal of R^T M. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/pose/polar_internal.h"
#include "maul/anim/pose.h"

static double mani_Dot(const double* a, const double* b) { return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]; }

static void mani_Cross(const double* a, const double* b, double* out) {
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static double mani_Det(const mani_M3* m) {
    double x[3];
    mani_Cross(m->c[1], m->c[2], x);
    return mani_Dot(m->c[0], x);
}

static double mani_Frobenius(const mani_M3* m) {
    double s = 0;
    for (int j = 0; j < 3; ++j) s += mani_Dot(m->c[j], m->c[j]);
    return sqrt(s);
}

/* The inverse transpose: cofactors over the determinant (det != 0). Column j
 * of M^-T is (c_{j+1} x c_{j+2}) / det. */
static void mani_InverseTranspose(const mani_M3* m, double det, mani_M3* out) {
    for (int j = 0; j < 3; ++j) {
        double x[3];
        mani_Cross(m->c[(j + 1) % 3], m->c[(j + 2) % 3], x);
        for (int r = 0; r < 3; ++r) out->c[j][r] = x[r] / det;
    }
}

static int mani_Normalize(double* v) {
    double len = sqrt(mani_Dot(v, v));
    if (!(len > 0) || !isfinite(len)) return 0;
    for (int r = 0; r < 3; ++r) v[r] = v[r] / len;
    return 1;
}

/* The rotation from the axes of m that are left, for a degenerate m. */
static void mani_RotationFromAxes(const mani_M3* m, double maxLen, mani_M3* r) {
    int kept[3] = {0, 0, 0};
    int count = 0;
    for (int j = 0; j < 3; ++j) {
        double v[3] = {m->c[j][0], m->c[j][1], m->c[j][2]};
        for (int k = 0; k < j; ++k) {
            if (!kept[k]) continue;
            double d = mani_Dot(v, r->c[k]);
            for (int i = 0; i < 3; ++i) v[i] = v[i] - d * r->c[k][i];
        }
        /* An axis shorter than 2^-40 of the longest is no axis. */
        if (sqrt(mani_Dot(v, v)) > maxLen * 0x1p-40 && mani_Normalize(v) && count < 2) {
            memcpy(r->c[j], v, sizeof v);
            kept[j] = 1;
            count++;
        }
    }
    if (count == 0) {
        memset(r, 0, sizeof *r);
        r->c[0][0] = r->c[1][1] = r->c[2][2] = 1;
        return;
    }
    if (count == 1) {
        int j = kept[0] ? 0 : kept[1] ? 1 : 2;
        /* A second axis: the coordinate axis least along the kept one, made
         * perpendicular; it takes the next index after j. */
        const double* u = r->c[j];
        int least = 0;
        for (int i = 1; i < 3; ++i)
            if (fabs(u[i]) < fabs(u[least])) least = i;
        double e[3] = {0, 0, 0};
        e[least] = 1;
        double d = mani_Dot(e, u);
        for (int i = 0; i < 3; ++i) e[i] = e[i] - d * u[i];
        mani_Normalize(e);
        int k = (j + 1) % 3;
        memcpy(r->c[k], e, sizeof e);
        kept[k] = 1;
    }
    /* The one missing axis completes a right-handed frame. */
    int missing = !kept[0] ? 0 : !kept[1] ? 1 : 2;
    mani_Cross(r->c[(missing + 1) % 3], r->c[(missing + 2) % 3], r->c[missing]);
}

void mani_RotationToQuat(const mani_M3* r, double q[4]) {
    /* Shepperd: from the largest of the trace and the diagonal. */
    const double m00 = r->c[0][0], m11 = r->c[1][1], m22 = r->c[2][2];
    const double trace = (m00 + m11) + m22;
    if (trace >= m00 && trace >= m11 && trace >= m22) {
        double s = sqrt(trace + 1.0) * 2.0;
        q[3] = 0.25 * s;
        q[0] = (r->c[1][2] - r->c[2][1]) / s;
        q[1] = (r->c[2][0] - r->c[0][2]) / s;
        q[2] = (r->c[0][1] - r->c[1][0]) / s;
    } else if (m00 >= m11 && m00 >= m22) {
        double s = sqrt(((1.0 + m00) - m11) - m22) * 2.0;
        q[3] = (r->c[1][2] - r->c[2][1]) / s;
        q[0] = 0.25 * s;
        q[1] = (r->c[1][0] + r->c[0][1]) / s;
        q[2] = (r->c[2][0] + r->c[0][2]) / s;
    } else if (m11 >= m22) {
        double s = sqrt(((1.0 + m11) - m00) - m22) * 2.0;
        q[3] = (r->c[2][0] - r->c[0][2]) / s;
        q[0] = (r->c[1][0] + r->c[0][1]) / s;
        q[1] = 0.25 * s;
        q[2] = (r->c[2][1] + r->c[1][2]) / s;
    } else {
        double s = sqrt(((1.0 + m22) - m00) - m11) * 2.0;
        q[3] = (r->c[0][1] - r->c[1][0]) / s;
        q[0] = (r->c[2][0] + r->c[0][2]) / s;
        q[1] = (r->c[2][1] + r->c[1][2]) / s;
        q[2] = 0.25 * s;
    }
    double len = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    double sign = q[3] < 0 ? -1.0 : 1.0;
    for (int i = 0; i < 4; ++i) q[i] = sign * (q[i] / len);
    if (q[3] == 0) q[3] = 0; /* w >= 0: no -0 */
}

int mani_PolarSplit(const maniAffine* matrix, mani_M3* linearOut, mani_M3* rotationOut) {
    mani_M3 m;
    for (int j = 0; j < 3; ++j) {
        m.c[j][0] = matrix->columns[j].x;
        m.c[j][1] = matrix->columns[j].y;
        m.c[j][2] = matrix->columns[j].z;
    }
    double det = mani_Det(&m);
    int mirrored = det < 0;
    if (mirrored) {
        for (int r = 0; r < 3; ++r) m.c[0][r] = -m.c[0][r];
        det = -det;
    }
    double len[3], maxLen = 0, lenProduct = 1;
    for (int j = 0; j < 3; ++j) {
        len[j] = sqrt(mani_Dot(m.c[j], m.c[j]));
        if (len[j] > maxLen) maxLen = len[j];
        lenProduct *= len[j];
    }
    mani_M3 r;
    if (lenProduct > 0 && det > lenProduct * 0x1p-40) {
        r = m;
        for (int step = 0; step < 40; ++step) {
            double d = mani_Det(&r);
            mani_M3 inv;
            mani_InverseTranspose(&r, d, &inv);
            double g = sqrt(mani_Frobenius(&inv) / mani_Frobenius(&r));
            double moved = 0;
            for (int j = 0; j < 3; ++j) {
                for (int row = 0; row < 3; ++row) {
                    double next = 0.5 * (g * r.c[j][row] + inv.c[j][row] / g);
                    moved = fmax(moved, fabs(next - r.c[j][row]));
                    r.c[j][row] = next;
                }
            }
            if (moved < 0x1p-50) break;
        }
    } else {
        mani_RotationFromAxes(&m, maxLen, &r);
    }
    *linearOut = m;
    *rotationOut = r;
    return mirrored;
}

maniResult maniDecomposeAffine(const maniAffine* matrix, maniTransform* out) {
    if (matrix == NULL || out == NULL) return mani_errorInvalid;
    const float* f = &matrix->columns[0].x;
    for (int i = 0; i < 12; ++i)
        if (!isfinite(f[i])) return mani_errorInvalid;
    mani_M3 m, r;
    int mirrored = mani_PolarSplit(matrix, &m, &r);
    double q[4];
    mani_RotationToQuat(&r, q);
    maniTransform t;
    t.translation = matrix->columns[3];
    t.rotation.x = (float)q[0];
    t.rotation.y = (float)q[1];
    t.rotation.z = (float)q[2];
    t.rotation.w = (float)q[3];
    double s[3];
    for (int j = 0; j < 3; ++j) s[j] = mani_Dot(r.c[j], m.c[j]);
    t.scale.x = (float)(mirrored ? -s[0] : s[0]);
    t.scale.y = (float)s[1];
    t.scale.z = (float)s[2];
    *out = t;
    return mani_success;
}
