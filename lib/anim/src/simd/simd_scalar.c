/* The scalar reference of the vector kernel layer: maniSimdScalar_<Kernel>,
 * built in every configuration without any backend instruction flag. One
 * lane at a time, in plain binary32 C arithmetic (compiled with
 * -ffp-contract=off and no fast-math, so each operator is one correctly
 * rounded IEEE operation). The kernel bodies are simd_kernels.inc; this
 * file gives them the one-lane layer. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/simd/simd.h"

#if defined(__AVX__) || defined(__FMA__)
#error "simd_scalar.c must be compiled without the AVX2 backend's flags"
#endif

typedef float mani_F;
typedef uint32_t mani_M;

#define MANI_FN(name) maniSimdScalar_##name
#define MANI_LANES_BEGIN for (int mani_l_ = 0; mani_l_ < MANI_SIMD_LANES; ++mani_l_) {
#define MANI_LANES_END }
#define MANI_LD(arr) ((arr)[mani_l_])
#define MANI_ST(arr, v) ((arr)[mani_l_] = (v))
#define MANI_LDM(arr) ((arr)[mani_l_])
#define MANI_STM(arr, m) ((arr)[mani_l_] = (m))

static inline mani_F mani_Splat(float c) { return c; }
static inline mani_F mani_Add(mani_F a, mani_F b) { return a + b; }
static inline mani_F mani_Sub(mani_F a, mani_F b) { return a - b; }
static inline mani_F mani_Mul(mani_F a, mani_F b) { return a * b; }
static inline mani_F mani_Div(mani_F a, mani_F b) { return a / b; }
static inline mani_F mani_Sqrt(mani_F a) { return sqrtf(a); }
static inline mani_F mani_Neg(mani_F a) { return -a; }
static inline mani_F mani_Min(mani_F a, mani_F b) { return a < b ? a : b; }
static inline mani_F mani_Max(mani_F a, mani_F b) { return a > b ? a : b; }

static inline mani_M mani_Eq(mani_F a, mani_F b) { return a == b ? 0xFFFFFFFFu : 0u; }
static inline mani_M mani_Ne(mani_F a, mani_F b) { return a == b ? 0u : 0xFFFFFFFFu; }
static inline mani_M mani_Lt(mani_F a, mani_F b) { return a < b ? 0xFFFFFFFFu : 0u; }
static inline mani_M mani_Le(mani_F a, mani_F b) { return a <= b ? 0xFFFFFFFFu : 0u; }
static inline mani_M mani_Gt(mani_F a, mani_F b) { return a > b ? 0xFFFFFFFFu : 0u; }
static inline mani_M mani_Ge(mani_F a, mani_F b) { return a >= b ? 0xFFFFFFFFu : 0u; }

static inline mani_M mani_MOr(mani_M a, mani_M b) { return a | b; }
static inline mani_M mani_MAndNot(mani_M a, mani_M b) { return ~a & b; }

static inline mani_F mani_Sel(mani_M m, mani_F a, mani_F b) {
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    const uint32_t ur = (m & ua) | (~m & ub);
    mani_F r;
    memcpy(&r, &ur, sizeof r);
    return r;
}

#include "lib/anim/src/simd/simd_kernels.inc"
