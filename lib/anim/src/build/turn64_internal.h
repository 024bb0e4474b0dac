/* Turns between binary64 rotations, rounded once to binary32: shared by the
 * mirror and retarget map builders. */
#ifndef MAUL_ANIM_TURN64_INTERNAL_H
#define MAUL_ANIM_TURN64_INTERNAL_H

#include <math.h>

#include "lib/core/quat64.h"

/* q normalized in binary64 and rounded once, w >= 0, no negative zeros. */
static inline void mani_RoundTurn64(const double q[4], float out[4]) {
    const double len = sqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
    const double sign = q[3] < 0 ? -1.0 : 1.0;
    for (int k = 0; k < 4; ++k) out[k] = (float)(sign * q[k] / len);
    for (int k = 0; k < 4; ++k)
        if (out[k] == 0.0f) out[k] = 0.0f;
}

/* The turn conj(from) to, or the identity exactly when from equals to. */
static inline void mani_TurnBetween64(const double from[4], const double to[4], float out[4]) {
    if (from[0] == to[0] && from[1] == to[1] && from[2] == to[2] && from[3] == to[3]) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    const double c[4] = {-from[0], -from[1], -from[2], from[3]};
    double t[4];
    mcore_QuatMul64(c, to, t);
    mani_RoundTurn64(t, out);
}

#endif
