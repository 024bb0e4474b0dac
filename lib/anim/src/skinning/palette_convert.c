/* skinning.h: palettes converted for dual quaternion skinning and for
 * shaders. */
#include "maul/anim/skinning.h"

#include <math.h>

#include "lib/anim/src/pose/polar_internal.h"

static int mani_AffineFinite(const maniAffine* a) {
    const float* f = &a->columns[0].x;
    for (int i = 0; i < 12; ++i)
        if (!isfinite(f[i])) return 0;
    return 1;
}

maniResult maniConvertPaletteToDualQuaternions(const maniAffine* palette, uint32_t count, float* out) {
    if (count == 0) return mani_success;
    if (palette == NULL || out == NULL) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i)
        if (!mani_AffineFinite(&palette[i])) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i) {
        const maniAffine* a = &palette[i];
        mani_M3 linear, r;
        (void)mani_PolarSplit(a, &linear, &r);
        double q[4];
        mani_RotationToQuat(&r, q);
        /* d = (t, 0) q / 2: w = -t.q_xyz / 2, xyz = (q_w t + t x q_xyz) / 2. */
        const double t[3] = {a->columns[3].x, a->columns[3].y, a->columns[3].z};
        const double dx = 0.5 * ((q[3] * t[0] + t[1] * q[2]) - t[2] * q[1]);
        const double dy = 0.5 * ((q[3] * t[1] + t[2] * q[0]) - t[0] * q[2]);
        const double dz = 0.5 * ((q[3] * t[2] + t[0] * q[1]) - t[1] * q[0]);
        const double dw = -0.5 * ((t[0] * q[0] + t[1] * q[1]) + t[2] * q[2]);
        float* o = out + (size_t)MANI_DUAL_QUATERNION_FLOATS * i;
        o[0] = (float)q[0];
        o[1] = (float)q[1];
        o[2] = (float)q[2];
        o[3] = (float)q[3];
        o[4] = (float)dx;
        o[5] = (float)dy;
        o[6] = (float)dz;
        o[7] = (float)dw;
        /* S = R^T A's linear part (the original, mirror included): S[row][col]
         * = R column row . A column col. */
        const double cols[3][3] = {{a->columns[0].x, a->columns[0].y, a->columns[0].z},
                                   {a->columns[1].x, a->columns[1].y, a->columns[1].z},
                                   {a->columns[2].x, a->columns[2].y, a->columns[2].z}};
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 3; ++col) {
                const double* rc = r.c[row];
                o[8 + 4 * row + col] = (float)((rc[0] * cols[col][0] + rc[1] * cols[col][1]) + rc[2] * cols[col][2]);
            }
            o[8 + 4 * row + 3] = 0.0f;
        }
    }
    return mani_success;
}

maniResult maniConvertPaletteToRows(const maniAffine* palette, uint32_t count, float* rowsOut) {
    if (count == 0) return mani_success;
    if (palette == NULL || rowsOut == NULL) return mani_errorInvalid;
    for (uint32_t i = 0; i < count; ++i) {
        const maniAffine* a = &palette[i];
        float* o = rowsOut + (size_t)MANI_PALETTE_ROW_FLOATS * i;
        for (int row = 0; row < 3; ++row)
            for (int c = 0; c < 4; ++c) {
                const float* col = &a->columns[c].x;
                o[4 * row + c] = col[row];
            }
    }
    return mani_success;
}
