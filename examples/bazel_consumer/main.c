/* examples/bazel_consumer: Maul from another Bazel workspace. Prints the
 * libraries' versions and backend and one eased value, and exits 0 when the
 * headers and libraries agree on their versions. */
#include <maul/anim/base.h>
#include <maul/tween/base.h>
#include <maul/tween/easing.h>
#include <stdio.h>

int main(void) {
    maniVersion a = maniGetVersion();
    mtwnVersion t = mtwnGetVersion();
    mtwnEasing sine;
    double eased = -1.0;
    if (mtwnMakePennerEasing(mtwn_easingSine, mtwn_easeInOut, &sine) != mtwn_success ||
        mtwnSampleEasing(&sine, 0.25, false, &eased) != mtwn_success)
        return 1;
    printf("maul anim %u.%u.%u, tween %u.%u.%u, backend %s; sine in-out at 0.25: %.17g\n", a.major, a.minor, a.patch,
           t.major, t.minor, t.patch, maniGetSimdBackend(), eased);
    return a.major == MANI_VERSION_MAJOR && a.minor == MANI_VERSION_MINOR && t.major == MTWN_VERSION_MAJOR ? 0 : 1;
}
