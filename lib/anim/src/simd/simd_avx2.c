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
#include <math.h>
#include <string.h>

#include "lib/anim/src/simd/simd.h"
#include "lib/core/container.h"

typedef __m256 mani_F;
typedef __m256 mani_M; /* lane masks, all 32 bits used by mani_Sel */

#define MANI_FN(name) maniSimdAvx2_##name
#define MANI_LANES_BEGIN {
#define MANI_LANES_END }
#define MANI_LD(arr) _mm256_load_ps(arr)
#define MANI_ST(arr, v) _mm256_store_ps((arr), (v))
#define MANI_LDM(arr) _mm256_castsi256_ps(_mm256_load_si256((const __m256i*)(const void*)(arr)))
/* base[idx[l]] per lane: eight scalar loads (a copy, no arithmetic). Not
 * vgatherdps, which the Gather Data Sampling mitigation makes slower than
 * the loads on the machines measured (docs/performance.md, "Skinning"). */
#define MANI_GATHER(base, idx)                                                                            \
    _mm256_setr_ps((base)[(idx)[0]], (base)[(idx)[1]], (base)[(idx)[2]], (base)[(idx)[3]], (base)[(idx)[4]], \
                   (base)[(idx)[5]], (base)[(idx)[6]], (base)[(idx)[7]])
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

/* vcvtdq2ps converts signed integers: the same value as the reference's
 * unsigned conversion below 2^31, the contract (rounded as MXCSR: nearest). */
static inline mani_F mani_UToF(mani_M m) { return _mm256_cvtepi32_ps(_mm256_castps_si256(m)); }

/* Binary64 lanes: two __m256d per group (lanes 0-3, then 4-7). Widening is
 * vcvtps2pd (exact), narrowing vcvtpd2ps (one rounding, MXCSR nearest). */
typedef struct mani_D {
    __m256d lo, hi;
} mani_D;
typedef mani_D mani_DM; /* 64-bit lane masks */

#define MANI_AVX2_D2(name, intrinsic)                                  \
    static inline mani_D name(mani_D a, mani_D b) {                    \
        const mani_D r = {intrinsic(a.lo, b.lo), intrinsic(a.hi, b.hi)}; \
        return r;                                                      \
    }
#define MANI_AVX2_DCMP(name, pred)                                                         \
    static inline mani_DM name(mani_D a, mani_D b) {                                       \
        const mani_DM r = {_mm256_cmp_pd(a.lo, b.lo, pred), _mm256_cmp_pd(a.hi, b.hi, pred)}; \
        return r;                                                                          \
    }

static inline mani_D mani_DWiden(mani_F a) {
    const mani_D r = {_mm256_cvtps_pd(_mm256_castps256_ps128(a)), _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1))};
    return r;
}
static inline mani_F mani_DNarrow(mani_D a) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(a.lo)), _mm256_cvtpd_ps(a.hi), 1);
}
static inline mani_D mani_DSplat(double c) {
    const mani_D r = {_mm256_set1_pd(c), _mm256_set1_pd(c)};
    return r;
}
MANI_AVX2_D2(mani_DAdd, _mm256_add_pd)
MANI_AVX2_D2(mani_DSub, _mm256_sub_pd)
MANI_AVX2_D2(mani_DMul, _mm256_mul_pd)
MANI_AVX2_D2(mani_DDiv, _mm256_div_pd)
MANI_AVX2_D2(mani_DMAnd, _mm256_and_pd)
MANI_AVX2_D2(mani_DMXor, _mm256_xor_pd)
static inline mani_D mani_DSqrt(mani_D a) {
    const mani_D r = {_mm256_sqrt_pd(a.lo), _mm256_sqrt_pd(a.hi)};
    return r;
}
static inline mani_D mani_DNeg(mani_D a) {
    const __m256d s = _mm256_set1_pd(-0.0);
    const mani_D r = {_mm256_xor_pd(a.lo, s), _mm256_xor_pd(a.hi, s)};
    return r;
}
static inline mani_D mani_DAbs(mani_D a) {
    const __m256d s = _mm256_set1_pd(-0.0);
    const mani_D r = {_mm256_andnot_pd(s, a.lo), _mm256_andnot_pd(s, a.hi)};
    return r;
}
static inline mani_D mani_DCopySign(mani_D a, mani_D b) {
    const __m256d s = _mm256_set1_pd(-0.0);
    const mani_D r = {_mm256_or_pd(_mm256_andnot_pd(s, a.lo), _mm256_and_pd(s, b.lo)),
                      _mm256_or_pd(_mm256_andnot_pd(s, a.hi), _mm256_and_pd(s, b.hi))};
    return r;
}
MANI_AVX2_DCMP(mani_DEq, _CMP_EQ_OQ)
MANI_AVX2_DCMP(mani_DLe, _CMP_LE_OQ)
MANI_AVX2_DCMP(mani_DGt, _CMP_GT_OQ)
MANI_AVX2_DCMP(mani_DGe, _CMP_GE_OQ)
/* Sign bit set: 0 > (bits as a signed 64-bit integer). */
static inline mani_DM mani_DSignM(mani_D a) {
    const __m256i z = _mm256_setzero_si256();
    const mani_DM r = {_mm256_castsi256_pd(_mm256_cmpgt_epi64(z, _mm256_castpd_si256(a.lo))),
                       _mm256_castsi256_pd(_mm256_cmpgt_epi64(z, _mm256_castpd_si256(a.hi)))};
    return r;
}
static inline mani_DM mani_DBitM(mani_D a, uint64_t bit) {
    const __m256i b = _mm256_set1_epi64x((long long)bit);
    const mani_DM r = {
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(_mm256_castpd_si256(a.lo), b), b)),
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(_mm256_castpd_si256(a.hi), b), b))};
    return r;
}
/* vblendvpd reads each lane's top bit: the same as the bitwise select for
 * the all-ones or zero lanes every binary64 mask is (simd_kernels.inc). */
static inline mani_D mani_DSel(mani_DM m, mani_D a, mani_D b) {
    const mani_D r = {_mm256_blendv_pd(b.lo, a.lo, m.lo), _mm256_blendv_pd(b.hi, a.hi, m.hi)};
    return r;
}
static inline unsigned mani_DMBits(mani_DM m) {
    return (unsigned)_mm256_movemask_pd(m.lo) | ((unsigned)_mm256_movemask_pd(m.hi) << 4);
}

/* A double[8] member (32-byte aligned): lanes 0-3, then 4-7. */
static inline mani_D mani_LdD(const double* arr) {
    const mani_D r = {_mm256_load_pd(arr), _mm256_load_pd(arr + 4)};
    return r;
}
static inline void mani_StD(double* arr, mani_D v) {
    _mm256_store_pd(arr, v.lo);
    _mm256_store_pd(arr + 4, v.hi);
}
#define MANI_LDD(arr) mani_LdD(arr)
#define MANI_STD(arr, v) mani_StD((arr), (v))

#include "lib/anim/src/simd/simd_kernels.inc"

/* The model pass (simd.h, ComposeModels): one bone at a time, each column
 * of the product as one 128-bit register over the rows x, y, z (the fourth
 * lane unused): column j = (a.c0 b.cj.x + a.c1 b.cj.y) + a.c2 b.cj.z, plus
 * a.c3 for the translation, AffineMul's operations in its order. Offsets in
 * floats within a group: column j, row r, lane l at 24 j + 8 r + l; groups
 * 96 floats apart. Column j of the child is read just before it is written,
 * and later columns are read only after, so the product works in place. */
static inline __m128 mani_Column(const float* c) { return _mm_setr_ps(c[0], c[8], c[16], 0.0f); }

static inline void mani_StoreColumn(float* c, __m128 v) {
    _mm_store_ss(&c[0], v);
    const int y = _mm_extract_ps(v, 1), z = _mm_extract_ps(v, 2);
    memcpy(&c[8], &y, 4);
    memcpy(&c[16], &z, 4);
}

/* (a0 c.x + a1 c.y) + a2 c.z for the column c of one lane. */
static inline __m128 mani_LinColumn(__m128 a0, __m128 a1, __m128 a2, const float* c) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a0, _mm_set1_ps(c[0])), _mm_mul_ps(a1, _mm_set1_ps(c[8]))),
                      _mm_mul_ps(a2, _mm_set1_ps(c[16])));
}

uint32_t MANI_FN(ComposeModels)(maniSimdAffinex8* models, const uint8_t* parents, uint32_t count) {
    float* base = (float*)(void*)models;
    for (uint32_t b = 0; b < count; ++b) {
        const uint32_t p = mcore_ReadU32(parents + 4u * (size_t)b);
        if (p == MANI_NO_BONE) continue;
        if (p >= b) return b;
        const float* a = base + (size_t)(p / 8) * 96 + p % 8;
        float* m = base + (size_t)(b / 8) * 96 + b % 8;
        const __m128 a0 = mani_Column(a), a1 = mani_Column(a + 24), a2 = mani_Column(a + 48);
        mani_StoreColumn(m, mani_LinColumn(a0, a1, a2, m));
        mani_StoreColumn(m + 24, mani_LinColumn(a0, a1, a2, m + 24));
        mani_StoreColumn(m + 48, mani_LinColumn(a0, a1, a2, m + 48));
        mani_StoreColumn(m + 72, _mm_add_ps(mani_LinColumn(a0, a1, a2, m + 72), mani_Column(a + 72)));
    }
    return count;
}

/* -- The learned trainer's products (plain floats, any alignment) -------------- */

void MANI_FN(TrainAxpy)(float* y, const float* x, float a, size_t n) {
    const __m256 va = _mm256_set1_ps(a);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 p = _mm256_mul_ps(_mm256_loadu_ps(x + i), va);
        _mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_loadu_ps(y + i), p));
    }
    for (; i < n; ++i) {
        const float p = x[i] * a;
        y[i] = y[i] + p;
    }
}

/* Columns 32 at a time (four registers of sums), then 8, then one. */
static void mani_TrainMatTVecStrided(float* y, const float* m, size_t ldm, const float* v, size_t rows, size_t cols,
                                     int skipZero) {
    size_t c = 0;
    for (; c + 32 <= cols; c += 32) {
        __m256 s0 = _mm256_loadu_ps(y + c), s1 = _mm256_loadu_ps(y + c + 8);
        __m256 s2 = _mm256_loadu_ps(y + c + 16), s3 = _mm256_loadu_ps(y + c + 24);
        for (size_t r = 0; r < rows; ++r) {
            const float a = v[r];
            if (skipZero && a == 0.0f) continue;
            const __m256 va = _mm256_set1_ps(a);
            const float* row = m + r * ldm + c;
            s0 = _mm256_add_ps(s0, _mm256_mul_ps(_mm256_loadu_ps(row), va));
            s1 = _mm256_add_ps(s1, _mm256_mul_ps(_mm256_loadu_ps(row + 8), va));
            s2 = _mm256_add_ps(s2, _mm256_mul_ps(_mm256_loadu_ps(row + 16), va));
            s3 = _mm256_add_ps(s3, _mm256_mul_ps(_mm256_loadu_ps(row + 24), va));
        }
        _mm256_storeu_ps(y + c, s0);
        _mm256_storeu_ps(y + c + 8, s1);
        _mm256_storeu_ps(y + c + 16, s2);
        _mm256_storeu_ps(y + c + 24, s3);
    }
    for (; c + 8 <= cols; c += 8) {
        __m256 s0 = _mm256_loadu_ps(y + c);
        for (size_t r = 0; r < rows; ++r) {
            const float a = v[r];
            if (skipZero && a == 0.0f) continue;
            s0 = _mm256_add_ps(s0, _mm256_mul_ps(_mm256_loadu_ps(m + r * ldm + c), _mm256_set1_ps(a)));
        }
        _mm256_storeu_ps(y + c, s0);
    }
    for (; c < cols; ++c) {
        float s = y[c];
        for (size_t r = 0; r < rows; ++r) {
            const float a = v[r];
            if (skipZero && a == 0.0f) continue;
            const float p = m[r * ldm + c] * a;
            s = s + p;
        }
        y[c] = s;
    }
}

void MANI_FN(TrainMatTVec)(float* y, const float* m, const float* v, size_t rows, size_t cols, int skipZero) {
    mani_TrainMatTVecStrided(y, m, cols, v, rows, cols, skipZero);
}

/* Four vectors by 16 columns (eight registers of sums) at a time; a 0 of v
 * with skipZero keeps that vector's sums (a compare and blend, the same as
 * leaving the row out). */
static inline __attribute__((always_inline)) __m256 mani_TrainStep(__m256 s, __m256 p, __m256 va, const int skipZero) {
    const __m256 t = _mm256_add_ps(s, p);
    if (!skipZero) return t;
    return _mm256_blendv_ps(t, s, _mm256_cmp_ps(va, _mm256_setzero_ps(), _CMP_EQ_OQ));
}

static inline __attribute__((always_inline)) void mani_TrainMatTMatBody(float* y, size_t ldy, const float* m,
                                                                       const float* v, size_t ldv, size_t count,
                                                                       size_t rows, size_t cols, const int skipZero) {
    /* Column strips of 16 outside, groups of four vectors inside: a strip
     * of m (rows x 64 bytes) is read from memory once for all the vectors. */
    size_t c = 0;
    for (; c + 16 <= cols; c += 16) {
        size_t q = 0;
        for (; q + 4 <= count; q += 4) {
            float* y0 = y + q * ldy + c;
            float* y1 = y0 + ldy;
            float* y2 = y1 + ldy;
            float* y3 = y2 + ldy;
            const float* v0 = v + q * ldv;
            const float* v1 = v0 + ldv;
            const float* v2 = v1 + ldv;
            const float* v3 = v2 + ldv;
            __m256 a0 = _mm256_loadu_ps(y0), b0 = _mm256_loadu_ps(y0 + 8);
            __m256 a1 = _mm256_loadu_ps(y1), b1 = _mm256_loadu_ps(y1 + 8);
            __m256 a2 = _mm256_loadu_ps(y2), b2 = _mm256_loadu_ps(y2 + 8);
            __m256 a3 = _mm256_loadu_ps(y3), b3 = _mm256_loadu_ps(y3 + 8);
            for (size_t r = 0; r < rows; ++r) {
                const float* row = m + r * cols + c;
                const __m256 ma = _mm256_loadu_ps(row), mb = _mm256_loadu_ps(row + 8);
                const __m256 w0 = _mm256_set1_ps(v0[r]), w1 = _mm256_set1_ps(v1[r]);
                const __m256 w2 = _mm256_set1_ps(v2[r]), w3 = _mm256_set1_ps(v3[r]);
                a0 = mani_TrainStep(a0, _mm256_mul_ps(ma, w0), w0, skipZero);
                b0 = mani_TrainStep(b0, _mm256_mul_ps(mb, w0), w0, skipZero);
                a1 = mani_TrainStep(a1, _mm256_mul_ps(ma, w1), w1, skipZero);
                b1 = mani_TrainStep(b1, _mm256_mul_ps(mb, w1), w1, skipZero);
                a2 = mani_TrainStep(a2, _mm256_mul_ps(ma, w2), w2, skipZero);
                b2 = mani_TrainStep(b2, _mm256_mul_ps(mb, w2), w2, skipZero);
                a3 = mani_TrainStep(a3, _mm256_mul_ps(ma, w3), w3, skipZero);
                b3 = mani_TrainStep(b3, _mm256_mul_ps(mb, w3), w3, skipZero);
            }
            _mm256_storeu_ps(y0, a0);
            _mm256_storeu_ps(y0 + 8, b0);
            _mm256_storeu_ps(y1, a1);
            _mm256_storeu_ps(y1 + 8, b1);
            _mm256_storeu_ps(y2, a2);
            _mm256_storeu_ps(y2 + 8, b2);
            _mm256_storeu_ps(y3, a3);
            _mm256_storeu_ps(y3 + 8, b3);
        }
        for (; q < count; ++q) {
            float* y0 = y + q * ldy + c;
            const float* v0 = v + q * ldv;
            __m256 a0 = _mm256_loadu_ps(y0), b0 = _mm256_loadu_ps(y0 + 8);
            for (size_t r = 0; r < rows; ++r) {
                const float* row = m + r * cols + c;
                const __m256 w0 = _mm256_set1_ps(v0[r]);
                a0 = mani_TrainStep(a0, _mm256_mul_ps(_mm256_loadu_ps(row), w0), w0, skipZero);
                b0 = mani_TrainStep(b0, _mm256_mul_ps(_mm256_loadu_ps(row + 8), w0), w0, skipZero);
            }
            _mm256_storeu_ps(y0, a0);
            _mm256_storeu_ps(y0 + 8, b0);
        }
    }
    /* The last columns, one vector at a time (its own sums: the same bits). */
    if (c < cols)
        for (size_t q = 0; q < count; ++q)
            mani_TrainMatTVecStrided(y + q * ldy + c, m + c, cols, v + q * ldv, rows, cols - c, skipZero);
}

/* The body twice, skipZero a constant in each (no test in the inner loop). */
void MANI_FN(TrainMatTMat)(float* y, size_t ldy, const float* m, const float* v, size_t ldv, size_t count,
                           size_t rows, size_t cols, int skipZero) {
    if (skipZero)
        mani_TrainMatTMatBody(y, ldy, m, v, ldv, count, rows, cols, 1);
    else
        mani_TrainMatTMatBody(y, ldy, m, v, ldv, count, rows, cols, 0);
}

/* Per output i, 32 inputs (four registers of sums) at a time over the rows
 * in order, then 8, then one. */
void MANI_FN(TrainOuterAcc)(float* g, const float* d, size_t ldd, const float* x, size_t ldx, size_t count,
                            size_t outs, size_t ins, int init) {
    const __m256 zero = _mm256_setzero_ps();
    for (size_t i = 0; i < outs; ++i) {
        float* gi = g + i * ins;
        size_t j = 0;
        for (; j + 32 <= ins; j += 32) {
            __m256 s0 = init ? zero : _mm256_loadu_ps(gi + j), s1 = init ? zero : _mm256_loadu_ps(gi + j + 8);
            __m256 s2 = init ? zero : _mm256_loadu_ps(gi + j + 16), s3 = init ? zero : _mm256_loadu_ps(gi + j + 24);
            for (size_t q = 0; q < count; ++q) {
                const float a = d[q * ldd + i];
                if (a == 0.0f) continue;
                const __m256 va = _mm256_set1_ps(a);
                const float* xq = x + q * ldx + j;
                s0 = _mm256_add_ps(s0, _mm256_mul_ps(_mm256_loadu_ps(xq), va));
                s1 = _mm256_add_ps(s1, _mm256_mul_ps(_mm256_loadu_ps(xq + 8), va));
                s2 = _mm256_add_ps(s2, _mm256_mul_ps(_mm256_loadu_ps(xq + 16), va));
                s3 = _mm256_add_ps(s3, _mm256_mul_ps(_mm256_loadu_ps(xq + 24), va));
            }
            _mm256_storeu_ps(gi + j, s0);
            _mm256_storeu_ps(gi + j + 8, s1);
            _mm256_storeu_ps(gi + j + 16, s2);
            _mm256_storeu_ps(gi + j + 24, s3);
        }
        for (; j + 8 <= ins; j += 8) {
            __m256 s0 = init ? zero : _mm256_loadu_ps(gi + j);
            for (size_t q = 0; q < count; ++q) {
                const float a = d[q * ldd + i];
                if (a == 0.0f) continue;
                s0 = _mm256_add_ps(s0, _mm256_mul_ps(_mm256_loadu_ps(x + q * ldx + j), _mm256_set1_ps(a)));
            }
            _mm256_storeu_ps(gi + j, s0);
        }
        for (; j < ins; ++j) {
            float s = init ? 0.0f : gi[j];
            for (size_t q = 0; q < count; ++q) {
                const float a = d[q * ldd + i];
                if (a == 0.0f) continue;
                const float p = x[q * ldx + j] * a;
                s = s + p;
            }
            gi[j] = s;
        }
    }
}

static void mani_TrainAdamWTail(float* p, float* m, float* v, float* vmax, const float* g, size_t i, size_t n,
                                const float* k) {
    const float decay = k[0], c1 = k[1], beta2 = k[2], c2 = k[3], bc2Sqrt = k[4], epsilon = k[5], stepSize = k[6];
    for (; i < n; ++i) {
        p[i] = p[i] * decay;
        const float dm = g[i] - m[i];
        const float lm = dm * c1;
        m[i] = m[i] + lm;
        const float vv = v[i] * beta2;
        const float gg = g[i] * g[i];
        const float lg = gg * c2;
        v[i] = vv + lg;
        if (v[i] > vmax[i]) vmax[i] = v[i];
        const float sq = sqrtf(vmax[i]);
        const float dn = sq / bc2Sqrt;
        const float denom = dn + epsilon;
        const float ratio = m[i] / denom;
        const float step = stepSize * ratio;
        p[i] = p[i] - step;
    }
}

void MANI_FN(TrainAdamW)(float* p, float* m, float* v, float* vmax, const float* g, size_t n, const float* k) {
    const __m256 decay = _mm256_set1_ps(k[0]), c1 = _mm256_set1_ps(k[1]), beta2 = _mm256_set1_ps(k[2]);
    const __m256 c2 = _mm256_set1_ps(k[3]), bc2Sqrt = _mm256_set1_ps(k[4]), epsilon = _mm256_set1_ps(k[5]);
    const __m256 stepSize = _mm256_set1_ps(k[6]);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 gi = _mm256_loadu_ps(g + i);
        const __m256 pd = _mm256_mul_ps(_mm256_loadu_ps(p + i), decay);
        const __m256 mo = _mm256_loadu_ps(m + i);
        const __m256 mi = _mm256_add_ps(mo, _mm256_mul_ps(_mm256_sub_ps(gi, mo), c1));
        const __m256 vi = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(v + i), beta2), _mm256_mul_ps(_mm256_mul_ps(gi, gi), c2));
        const __m256 vo = _mm256_loadu_ps(vmax + i);
        const __m256 vm = _mm256_blendv_ps(vo, vi, _mm256_cmp_ps(vi, vo, _CMP_GT_OQ));
        const __m256 denom = _mm256_add_ps(_mm256_div_ps(_mm256_sqrt_ps(vm), bc2Sqrt), epsilon);
        const __m256 step = _mm256_mul_ps(stepSize, _mm256_div_ps(mi, denom));
        _mm256_storeu_ps(m + i, mi);
        _mm256_storeu_ps(v + i, vi);
        _mm256_storeu_ps(vmax + i, vm);
        _mm256_storeu_ps(p + i, _mm256_sub_ps(pd, step));
    }
    mani_TrainAdamWTail(p, m, v, vmax, g, i, n, k);
}
