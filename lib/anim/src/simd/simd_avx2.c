/* The AVX2 backend of the vector kernel layer: maniSimdAvx2_<Kernel>, one
 * __m256 per group of 8 lanes. Compiled only in //lib/anim/src/simd:avx2
 * with MAUL_AVX2_COPTS (-mavx2 -mfma) and -ffp-contract=off: no FMA
 * instruction is ever emitted or called (no _mm256_fmadd_ps), no
 * approximate reciprocal (no _mm256_rcp_ps / _mm256_rsqrt_ps). The kernel
 * bodies are simd_kernels.inc; this file gives them the 8-lane layer. */
#if !defined(__x86_64__) || !defined(__AVX2__)
#error "simd_avx2.c needs an x86-64 target and -mavx2 (MAUL_AVX2_COPTS)"
#endif

#include <immintrin.h>

#include "lib/anim/src/simd/simd.h"

typedef __m256 mani_F;
typedef __m256 mani_M; /* lane masks, all 32 bits used by mani_Sel */

#define MANI_FN(name) maniSimdAvx2_##name
#define MANI_LANES_BEGIN {
#define MANI_LANES_END }
#define MANI_LD(arr) _mm256_load_ps(arr)
#define MANI_ST(arr, v) _mm256_store_ps((arr), (v))
#define MANI_LDM(arr) _mm256_castsi256_ps(_mm256_load_si256((const __m256i*)(const void*)(arr)))
#define MANI_STM(arr, m) _mm256_store_si256((__m256i*)(void*)(arr), _mm256_castps_si256(m))

static inline mani_F mani_Splat(float c) { return _mm256_set1_ps(c); }
static inline mani_F mani_Add(mani_F a, mani_F b) { return _mm256_add_ps(a, b); }
static inline mani_F mani_Sub(mani_F a, mani_F b) { return _mm256_sub_ps(a, b); }
static inline mani_F mani_Mul(mani_F a, mani_F b) { return _mm256_mul_ps(a, b); }
static inline mani_F mani_Div(mani_F a, mani_F b) { return _mm256_div_ps(a, b); }
static inline mani_F mani_Sqrt(mani_F a) { return _mm256_sqrt_ps(a); }
static inline mani_F mani_Neg(mani_F a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
/* vminps/vmaxps are defined as DEST = SRC1 < SRC2 ? SRC1 : SRC2 (resp. >),
 * returning SRC2 on a NaN or on equal values (+0 vs -0): exactly the
 * reference's a < b ? a : b, with a as SRC1. */
static inline mani_F mani_Min(mani_F a, mani_F b) { return _mm256_min_ps(a, b); }
static inline mani_F mani_Max(mani_F a, mani_F b) { return _mm256_max_ps(a, b); }

/* Ordered, quiet predicates (false on NaN); Ne is unordered (= not Eq). */
static inline mani_M mani_Eq(mani_F a, mani_F b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
static inline mani_M mani_Ne(mani_F a, mani_F b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
static inline mani_M mani_Lt(mani_F a, mani_F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline mani_M mani_Le(mani_F a, mani_F b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline mani_M mani_Gt(mani_F a, mani_F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline mani_M mani_Ge(mani_F a, mani_F b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }

static inline mani_M mani_MOr(mani_M a, mani_M b) { return _mm256_or_ps(a, b); }
static inline mani_M mani_MAndNot(mani_M a, mani_M b) { return _mm256_andnot_ps(a, b); }

/* Bitwise, not vblendvps (which reads only each lane's top bit). */
static inline mani_F mani_Sel(mani_M m, mani_F a, mani_F b) {
    return _mm256_or_ps(_mm256_and_ps(m, a), _mm256_andnot_ps(m, b));
}

#include "lib/anim/src/simd/simd_kernels.inc"
