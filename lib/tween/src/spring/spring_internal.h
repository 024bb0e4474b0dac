/* Internals shared by spring.c and decay.c: small numeric helpers and the
 * unchecked spring entry points decay's bounded hand-over uses. */
#ifndef MAUL_TWEEN_SPRING_INTERNAL_H
#define MAUL_TWEEN_SPRING_INTERNAL_H

#include <stdbool.h>

#include "maul/tween/spring.h"

/* Finite: v - v is 0 for every finite v, NaN for infinities and NaN. */
static inline bool isFiniteD(double v)
{
    return v - v == 0.0;
}

static inline double absd(double v)
{
    return v < 0.0 ? -v : v;
}

bool mtwn_IsSpringValid(const mtwnSpring* s);
bool mtwn_IsSpringStartValid(const mtwnSpring* s, double offset, double velocity);
int mtwn_SampleSpringUnchecked(const mtwnSpring* s, double offset, double velocity, double seconds, double* x,
                               double* v);
double mtwn_SpringSettlingUnchecked(const mtwnSpring* s, double offset, double velocity, double offsetTolerance,
                                    double velocityTolerance);

#endif
