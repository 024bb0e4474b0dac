/* A program that samples a cubic bezier easing through
 * mtwnSampleCubicBezierEasing only; linked with --gc-sections, it must hold
 * none of the other curves (cubic_only_test.sh checks its symbols). */
#include <stdio.h>

#include "maul/tween/easing.h"

int main(void)
{
    mtwnEasing e;
    double v = 0.0;
    if (mtwnMakeCubicBezierEasing(0.25, 0.1, 0.25, 1.0, &e) != mtwn_success) return 1;
    if (mtwnSampleCubicBezierEasing(&e, 0.5, &v) != mtwn_success) return 1;
    printf("%.17g\n", v);
    return v > 0.0 && v < 1.0 ? 0 : 1;
}
