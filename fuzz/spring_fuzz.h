/* What the spring harnesses share: the seeded rig their seeds are of
 * (lib/anim/test/fixtures/spring_fixtures.h: 3 chains of 4, 5 colliders,
 * step rate 60), made once. */
#ifndef MAUL_FUZZ_SPRING_FUZZ_H
#define MAUL_FUZZ_SPRING_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_file.h" /* maul_FuzzReseal */
#include "lib/anim/test/fixtures/spring_fixtures.h"
#include "maul/anim/base.h"

#define MAUL_FUZZ_SPRING_SEED 0x46555A5Au

static inline const maniFixtureSpringRig* maul_FuzzSpringRig(void) {
    static maniFixtureSpringRig rig;
    static int made = 0;
    if (!made) {
        if (maniFixtureMakeSpringRig(&rig, MAUL_FUZZ_SPRING_SEED, 3, 4, 5, 60.0f) != 0) abort();
        made = 1;
    }
    return &rig;
}

/* A block of MANI_POSE_ALIGNMENT for n bytes, zeroed. */
static inline void* maul_FuzzAligned(size_t n) {
    void* p = aligned_alloc(32, (n + 31) / 32 * 32);
    if (p) memset(p, 0, (n + 31) / 32 * 32);
    return p;
}

#endif
