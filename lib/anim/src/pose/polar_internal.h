/* The binary64 polar decomposition behind maniDecomposeAffine (decompose.c),
 * shared with the skin's dual quaternion palettes. */
#ifndef MAUL_ANIM_POLAR_INTERNAL_H
#define MAUL_ANIM_POLAR_INTERNAL_H

#include "maul/anim/skeleton.h"

/* A 3x3 matrix in binary64, by columns. */
typedef struct mani_M3 {
    double c[3][3]; /* c[column][row] */
} mani_M3;

/* Splits the linear part of a finite matrix: *linearOut receives it in
 * binary64 with a mirror (a negative determinant) taken out as a negated
 * column 0, *rotationOut the rotation of that part's polar decomposition (a
 * proper rotation; built from the axes left for a degenerate part, as
 * decompose.c describes). Returns whether the part was mirrored. */
int mani_PolarSplit(const maniAffine* matrix, mani_M3* linearOut, mani_M3* rotationOut);

/* A rotation's unit quaternion (x, y, z, w) with w >= 0 (Shepperd's method,
 * then normalized; no -0 in w). */
void mani_RotationToQuat(const mani_M3* rotation, double q[4]);

#endif
