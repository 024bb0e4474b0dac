/* Maul Tween: interpolation internals shared by the interpolate, spring and
 * path sources. Not a public header. */
#ifndef MAUL_TWEEN_INTERPOLATE_INTERNAL_H
#define MAUL_TWEEN_INTERPOLATE_INTERNAL_H

#include <float.h>
#include <stdbool.h>

#include "maul/tween/interpolate.h"

/* 2 pi and pi, the doubles nearest them. */
#define MTWN_TWO_PI 6.283185307179586
#define MTWN_PI 3.141592653589793

static inline bool mtwn_IsFinite(double v)
{
    return v - v == 0.0;
}

/* A double held within the floats: past them the largest finite float of its
 * sign, then rounded to nearest. NaN is not expected. */
static inline float mtwn_ToFloatHeld(double v)
{
    if (v > (double)FLT_MAX) return FLT_MAX;
    if (v < -(double)FLT_MAX) return -FLT_MAX;
    return (float)v;
}

/* The whole turns (in units of MTWN_TWO_PI) mtwnMixAngle adds to a
 * difference d (finite) under a method; the moved difference is
 * d + turns * MTWN_TWO_PI. */
double mtwn_AngleTurns(double d, mtwnAngleMethod method);

/* Whether a value names a color space of mtwnColorSpace (the one rule every
 * reader of a space uses). */
static inline bool mtwn_IsColorSpaceKnown(uint32_t space)
{
    return space <= (uint32_t)mtwn_colorProphotoRgb;
}

/* Whether a color is within mtwnColor's range. */
bool mtwn_IsColorValid(mtwnColor c);

/* Whether a rotation is within mtwnQuat's range. */
bool mtwn_IsQuatValid(mtwnQuat q);

#endif
