/* Maul Anim: skinning.h
 *
 * Skinning: palettes turned into the forms renderers skin with, and the
 * skinning jobs over vertex streams. This header grows with the skinning
 * area; today it holds the palette conversions.
 */
#ifndef MAUL_ANIM_SKINNING_H
#define MAUL_ANIM_SKINNING_H

#include "maul/anim/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The floats maniConvertPaletteToDualQuaternions writes per matrix: the
 * rotation's quaternion (4), the dual part (4), then S as three rows of four
 * (12). */
#define MANI_DUAL_QUATERNION_FLOATS 20u

/* The floats maniConvertPaletteToRows writes per matrix: three rows of four. */
#define MANI_PALETTE_ROW_FLOATS 12u

/* -- Functions ------------------------------------------------------------------ */

/* Writes a palette for dual quaternion skinning, on the CPU or in a shader:
 * each matrix A (linear part L, translation t) split as A = R S, R the
 * rotation of L's polar decomposition as maniDecomposeAffine finds it (a
 * mirror taken out as a negative x axis first, so R is a proper rotation)
 * and S = R^T L carrying scale, shear and mirror. MANI_DUAL_QUATERNION_FLOATS
 * (20) floats a matrix: R's quaternion q (x, y, z, w with w >= 0), the dual
 * part d = (t, 0) q / 2 (x, y, z, w), then S as three rows of four (the
 * fourth 0). So a point p maps to R (S p) + t. Computed in binary64, each
 * value rounded once to binary32.
 * Returns mani_success; mani_errorInvalid for a NULL pointer with a count or
 * a matrix not finite (dualQuaternionsOut unchanged).
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniConvertPaletteToDualQuaternions(const maniAffine* palette, uint32_t count,
                                                                       float* dualQuaternionsOut);

/* Writes a palette for shaders: each matrix as three rows of four floats
 * (row-major 3x4, MANI_PALETTE_ROW_FLOATS a matrix), the translation last in
 * each row: row r is (c0.r, c1.r, c2.r, c3.r). Values copied, not rounded.
 * Returns mani_success; mani_errorInvalid for a NULL pointer with a count.
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniConvertPaletteToRows(const maniAffine* palette, uint32_t count,
                                                            float* rowsOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_SKINNING_H */
