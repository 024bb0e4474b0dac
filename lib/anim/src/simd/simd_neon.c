/* The NEON backend of the vector kernel layer: maniSimdNeon_<Kernel>, two
 * float32x4_t per group of 8 lanes (lanes 0-3, then 4-7). Compiled only in
 * //lib/anim/src/simd:neon with MAUL_NEON_COPTS and -ffp-contract=off: no
 * fused multiply-add (no vfmaq_f32 / vmlaq_f32), no estimate (no vrecpeq /
 * vrsqrteq), true vdivq_f32 and vsqrtq_f32. AArch64 Advanced SIMD is full
 * IEEE binary32 (subnormals kept unless FPCR.FZ, which Linux leaves off). The
 * kernel bodies are simd_kernels.inc; this file gives them the 8-lane layer. */
#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "simd_neon.c needs an aarch64 target with Advanced SIMD (MAUL_NEON_COPTS)"
#endif

#include <arm_neon.h>
#include <math.h>

#include "lib/anim/src/simd/simd.h"
#include "lib/core/container.h"

typedef struct mani_F {
    float32x4_t lo, hi;
} mani_F;
typedef struct mani_M {
    uint32x4_t lo, hi;
} mani_M;

#define MANI_FN(name) maniSimdNeon_##name
#define MANI_LANES_BEGIN {
#define MANI_LANES_END }
#define MANI_LD(arr) mani_Ld(arr)
#define MANI_ST(arr, v) mani_St((arr), (v))
#define MANI_LDM(arr) mani_LdM(arr)
#define MANI_GATHER(base, idx) mani_Gather((base), (idx))
#define MANI_STM(arr, m) mani_StM((arr), (m))

static inline mani_F mani_Ld(const float* p) {
    const mani_F r = {vld1q_f32(p), vld1q_f32(p + 4)};
    return r;
}
static inline void mani_St(float* p, mani_F v) {
    vst1q_f32(p, v.lo);
    vst1q_f32(p + 4, v.hi);
}
/* base[idx[l]] per lane: eight loads into two vectors (a copy). */
static inline mani_F mani_Gather(const float* base, const uint32_t* idx) {
    float t[8];
    for (int l = 0; l < 8; ++l) t[l] = base[idx[l]];
    const mani_F r = {vld1q_f32(t), vld1q_f32(t + 4)};
    return r;
}
static inline mani_M mani_LdM(const uint32_t* p) {
    const mani_M r = {vld1q_u32(p), vld1q_u32(p + 4)};
    return r;
}
static inline void mani_StM(uint32_t* p, mani_M m) {
    vst1q_u32(p, m.lo);
    vst1q_u32(p + 4, m.hi);
}

#define MANI_NEON_F2(name, intrinsic)                          \
    static inline mani_F name(mani_F a, mani_F b) {            \
        const mani_F r = {intrinsic(a.lo, b.lo), intrinsic(a.hi, b.hi)}; \
        return r;                                              \
    }
#define MANI_NEON_CMP(name, intrinsic)                         \
    static inline mani_M name(mani_F a, mani_F b) {            \
        const mani_M r = {intrinsic(a.lo, b.lo), intrinsic(a.hi, b.hi)}; \
        return r;                                              \
    }
#define MANI_NEON_M2(name, expr_lo, expr_hi)                   \
    static inline mani_M name(mani_M a, mani_M b) {            \
        const mani_M r = {expr_lo, expr_hi};                   \
        return r;                                              \
    }

static inline mani_F mani_Splat(float c) {
    const mani_F r = {vdupq_n_f32(c), vdupq_n_f32(c)};
    return r;
}
MANI_NEON_F2(mani_Add, vaddq_f32)
MANI_NEON_F2(mani_Sub, vsubq_f32)
MANI_NEON_F2(mani_Mul, vmulq_f32)
MANI_NEON_F2(mani_Div, vdivq_f32)
static inline mani_F mani_Sqrt(mani_F a) {
    const mani_F r = {vsqrtq_f32(a.lo), vsqrtq_f32(a.hi)};
    return r;
}
static inline mani_F mani_Neg(mani_F a) {
    const mani_F r = {vnegq_f32(a.lo), vnegq_f32(a.hi)};
    return r;
}

/* Ordered compares (false on NaN); Ne = not Eq (true on NaN). */
MANI_NEON_CMP(mani_Eq, vceqq_f32)
MANI_NEON_CMP(mani_Lt, vcltq_f32)
MANI_NEON_CMP(mani_Le, vcleq_f32)
MANI_NEON_CMP(mani_Gt, vcgtq_f32)
MANI_NEON_CMP(mani_Ge, vcgeq_f32)
static inline mani_M mani_Ne(mani_F a, mani_F b) {
    const mani_M r = {vmvnq_u32(vceqq_f32(a.lo, b.lo)), vmvnq_u32(vceqq_f32(a.hi, b.hi))};
    return r;
}

MANI_NEON_M2(mani_MOr, vorrq_u32(a.lo, b.lo), vorrq_u32(a.hi, b.hi))
/* ~a & b: vbicq(x, y) = x & ~y. */
MANI_NEON_M2(mani_MAndNot, vbicq_u32(b.lo, a.lo), vbicq_u32(b.hi, a.hi))

/* Unsigned integer to binary32, rounded to nearest (FPCR's default). */
static inline mani_F mani_UToF(mani_M m) {
    const mani_F r = {vcvtq_f32_u32(m.lo), vcvtq_f32_u32(m.hi)};
    return r;
}

/* Bitwise select: vbslq(m, a, b) = (m & a) | (~m & b) for every bit. */
static inline mani_F mani_Sel(mani_M m, mani_F a, mani_F b) {
    const mani_F r = {vbslq_f32(m.lo, a.lo, b.lo), vbslq_f32(m.hi, a.hi, b.hi)};
    return r;
}

/* Not vminq_f32/vmaxq_f32 (NaN-propagating, and -0 < +0) nor vminnmq
 * (returns the number): the reference's a < b ? a : b as compare + select. */
static inline mani_F mani_Min(mani_F a, mani_F b) { return mani_Sel(mani_Lt(a, b), a, b); }
static inline mani_F mani_Max(mani_F a, mani_F b) { return mani_Sel(mani_Gt(a, b), a, b); }

/* Binary64 lanes: four float64x2_t per group (lanes 0-1, 2-3, 4-5, 6-7).
 * Widening is fcvtl/fcvtl2 (exact), narrowing fcvtn/fcvtn2 (one rounding,
 * FPCR nearest). */
typedef struct mani_D {
    float64x2_t v[4];
} mani_D;
typedef struct mani_DM {
    uint64x2_t v[4];
} mani_DM;

#define MANI_NEON_D2(name, intrinsic)                               \
    static inline mani_D name(mani_D a, mani_D b) {                 \
        mani_D r;                                                   \
        for (int i = 0; i < 4; ++i) r.v[i] = intrinsic(a.v[i], b.v[i]); \
        return r;                                                   \
    }
#define MANI_NEON_DCMP(name, intrinsic)                             \
    static inline mani_DM name(mani_D a, mani_D b) {                \
        mani_DM r;                                                  \
        for (int i = 0; i < 4; ++i) r.v[i] = intrinsic(a.v[i], b.v[i]); \
        return r;                                                   \
    }
#define MANI_NEON_DM2(name, intrinsic)                              \
    static inline mani_DM name(mani_DM a, mani_DM b) {              \
        mani_DM r;                                                  \
        for (int i = 0; i < 4; ++i) r.v[i] = intrinsic(a.v[i], b.v[i]); \
        return r;                                                   \
    }

static inline mani_D mani_DWiden(mani_F a) {
    mani_D r;
    r.v[0] = vcvt_f64_f32(vget_low_f32(a.lo));
    r.v[1] = vcvt_high_f64_f32(a.lo);
    r.v[2] = vcvt_f64_f32(vget_low_f32(a.hi));
    r.v[3] = vcvt_high_f64_f32(a.hi);
    return r;
}
static inline mani_F mani_DNarrow(mani_D a) {
    const mani_F r = {vcvt_high_f32_f64(vcvt_f32_f64(a.v[0]), a.v[1]),
                      vcvt_high_f32_f64(vcvt_f32_f64(a.v[2]), a.v[3])};
    return r;
}
static inline mani_D mani_DSplat(double c) {
    mani_D r;
    for (int i = 0; i < 4; ++i) r.v[i] = vdupq_n_f64(c);
    return r;
}
MANI_NEON_D2(mani_DAdd, vaddq_f64)
MANI_NEON_D2(mani_DSub, vsubq_f64)
MANI_NEON_D2(mani_DMul, vmulq_f64)
MANI_NEON_D2(mani_DDiv, vdivq_f64)
MANI_NEON_DCMP(mani_DEq, vceqq_f64)
MANI_NEON_DCMP(mani_DLe, vcleq_f64)
MANI_NEON_DCMP(mani_DGt, vcgtq_f64)
MANI_NEON_DCMP(mani_DGe, vcgeq_f64)
MANI_NEON_DM2(mani_DMAnd, vandq_u64)
MANI_NEON_DM2(mani_DMXor, veorq_u64)
static inline mani_D mani_DSqrt(mani_D a) {
    mani_D r;
    for (int i = 0; i < 4; ++i) r.v[i] = vsqrtq_f64(a.v[i]);
    return r;
}
/* Sign-bit operations on the bits (exact, NaNs included). */
static inline mani_D mani_DNeg(mani_D a) {
    const uint64x2_t s = vdupq_n_u64(UINT64_C(0x8000000000000000));
    mani_D r;
    for (int i = 0; i < 4; ++i) r.v[i] = vreinterpretq_f64_u64(veorq_u64(vreinterpretq_u64_f64(a.v[i]), s));
    return r;
}
static inline mani_D mani_DAbs(mani_D a) {
    const uint64x2_t s = vdupq_n_u64(UINT64_C(0x8000000000000000));
    mani_D r;
    for (int i = 0; i < 4; ++i) r.v[i] = vreinterpretq_f64_u64(vbicq_u64(vreinterpretq_u64_f64(a.v[i]), s));
    return r;
}
static inline mani_D mani_DCopySign(mani_D a, mani_D b) {
    const uint64x2_t s = vdupq_n_u64(UINT64_C(0x8000000000000000));
    mani_D r;
    for (int i = 0; i < 4; ++i) r.v[i] = vbslq_f64(s, b.v[i], a.v[i]);
    return r;
}
static inline mani_DM mani_DSignM(mani_D a) {
    mani_DM r;
    for (int i = 0; i < 4; ++i) r.v[i] = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_f64(a.v[i]), 63));
    return r;
}
static inline mani_DM mani_DBitM(mani_D a, uint64_t bit) {
    const uint64x2_t b = vdupq_n_u64(bit);
    mani_DM r;
    for (int i = 0; i < 4; ++i) r.v[i] = vtstq_u64(vreinterpretq_u64_f64(a.v[i]), b);
    return r;
}
static inline mani_D mani_DSel(mani_DM m, mani_D a, mani_D b) {
    mani_D r;
    for (int i = 0; i < 4; ++i) r.v[i] = vbslq_f64(m.v[i], a.v[i], b.v[i]);
    return r;
}
static inline unsigned mani_DMBits(mani_DM m) {
    unsigned bits = 0;
    for (int i = 0; i < 4; ++i) {
        bits |= (unsigned)(vgetq_lane_u64(m.v[i], 0) & 1u) << (2 * i);
        bits |= (unsigned)(vgetq_lane_u64(m.v[i], 1) & 1u) << (2 * i + 1);
    }
    return bits;
}

/* A double[8] member: four float64x2_t. */
static inline mani_D mani_LdD(const double* arr) {
    mani_D r;
    for (int i = 0; i < 4; ++i) r.v[i] = vld1q_f64(arr + 2 * i);
    return r;
}
static inline void mani_StD(double* arr, mani_D v) {
    for (int i = 0; i < 4; ++i) vst1q_f64(arr + 2 * i, v.v[i]);
}
#define MANI_LDD(arr) mani_LdD(arr)
#define MANI_STD(arr, v) mani_StD((arr), (v))

#include "lib/anim/src/simd/simd_kernels.inc"

/* The model pass (simd.h, ComposeModels): one bone at a time, each column
 * of the product as one float32x4_t over the rows x, y, z (the fourth lane
 * unused): column j = (a.c0 b.cj.x + a.c1 b.cj.y) + a.c2 b.cj.z, plus a.c3
 * for the translation, AffineMul's operations in its order (vmulq and
 * vaddq, never fused: -ffp-contract=off). Offsets in floats within a group:
 * column j, row r, lane l at 24 j + 8 r + l; groups 96 floats apart. Column
 * j of the child is read just before it is written, and later columns are
 * read only after, so the product works in place. */
static inline float32x4_t mani_Column(const float* c) {
    const float32x4_t v = {c[0], c[8], c[16], 0.0f};
    return v;
}

static inline void mani_StoreColumn(float* c, float32x4_t v) {
    vst1q_lane_f32(&c[0], v, 0);
    vst1q_lane_f32(&c[8], v, 1);
    vst1q_lane_f32(&c[16], v, 2);
}

/* (a0 c.x + a1 c.y) + a2 c.z for the column c of one lane. */
static inline float32x4_t mani_LinColumn(float32x4_t a0, float32x4_t a1, float32x4_t a2, const float* c) {
    return vaddq_f32(vaddq_f32(vmulq_f32(a0, vdupq_n_f32(c[0])), vmulq_f32(a1, vdupq_n_f32(c[8]))),
                     vmulq_f32(a2, vdupq_n_f32(c[16])));
}

uint32_t MANI_FN(ComposeModels)(maniSimdAffinex8* models, const uint8_t* parents, uint32_t count) {
    float* base = (float*)(void*)models;
    for (uint32_t b = 0; b < count; ++b) {
        const uint32_t p = mcore_ReadU32(parents + 4u * (size_t)b);
        if (p == MANI_NO_BONE) continue;
        if (p >= b) return b;
        const float* a = base + (size_t)(p / 8) * 96 + p % 8;
        float* m = base + (size_t)(b / 8) * 96 + b % 8;
        const float32x4_t a0 = mani_Column(a), a1 = mani_Column(a + 24), a2 = mani_Column(a + 48);
        mani_StoreColumn(m, mani_LinColumn(a0, a1, a2, m));
        mani_StoreColumn(m + 24, mani_LinColumn(a0, a1, a2, m + 24));
        mani_StoreColumn(m + 48, mani_LinColumn(a0, a1, a2, m + 48));
        mani_StoreColumn(m + 72, vaddq_f32(mani_LinColumn(a0, a1, a2, m + 72), mani_Column(a + 72)));
    }
    return count;
}

/* -- The learned trainer's products (plain floats, any alignment) -------------- */
/* vmulq_f32 then vaddq_f32: never vmlaq_f32/vfmaq_f32 (fused on AArch64). */

void MANI_FN(TrainAxpy)(float* y, const float* x, float a, size_t n) {
    const float32x4_t va = vdupq_n_f32(a);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const float32x4_t p = vmulq_f32(vld1q_f32(x + i), va);
        vst1q_f32(y + i, vaddq_f32(vld1q_f32(y + i), p));
    }
    for (; i < n; ++i) {
        const float p = x[i] * a;
        y[i] = y[i] + p;
    }
}

/* Columns 16 at a time (four registers of sums), then 4, then one. */
void MANI_FN(TrainMatTVec)(float* y, const float* m, const float* v, size_t rows, size_t cols, int skipZero) {
    size_t c = 0;
    for (; c + 16 <= cols; c += 16) {
        float32x4_t s0 = vld1q_f32(y + c), s1 = vld1q_f32(y + c + 4);
        float32x4_t s2 = vld1q_f32(y + c + 8), s3 = vld1q_f32(y + c + 12);
        for (size_t r = 0; r < rows; ++r) {
            const float a = v[r];
            if (skipZero && a == 0.0f) continue;
            const float32x4_t va = vdupq_n_f32(a);
            const float* row = m + r * cols + c;
            s0 = vaddq_f32(s0, vmulq_f32(vld1q_f32(row), va));
            s1 = vaddq_f32(s1, vmulq_f32(vld1q_f32(row + 4), va));
            s2 = vaddq_f32(s2, vmulq_f32(vld1q_f32(row + 8), va));
            s3 = vaddq_f32(s3, vmulq_f32(vld1q_f32(row + 12), va));
        }
        vst1q_f32(y + c, s0);
        vst1q_f32(y + c + 4, s1);
        vst1q_f32(y + c + 8, s2);
        vst1q_f32(y + c + 12, s3);
    }
    for (; c + 4 <= cols; c += 4) {
        float32x4_t s0 = vld1q_f32(y + c);
        for (size_t r = 0; r < rows; ++r) {
            const float a = v[r];
            if (skipZero && a == 0.0f) continue;
            s0 = vaddq_f32(s0, vmulq_f32(vld1q_f32(m + r * cols + c), vdupq_n_f32(a)));
        }
        vst1q_f32(y + c, s0);
    }
    for (; c < cols; ++c) {
        float s = y[c];
        for (size_t r = 0; r < rows; ++r) {
            const float a = v[r];
            if (skipZero && a == 0.0f) continue;
            const float p = m[r * cols + c] * a;
            s = s + p;
        }
        y[c] = s;
    }
}

/* By the one-vector kernels: the same bits (arm64 speed not tuned). */
void MANI_FN(TrainMatTMat)(float* y, size_t ldy, const float* m, const float* v, size_t ldv, size_t count,
                           size_t rows, size_t cols, int skipZero) {
    for (size_t q = 0; q < count; ++q) MANI_FN(TrainMatTVec)(y + q * ldy, m, v + q * ldv, rows, cols, skipZero);
}

void MANI_FN(TrainOuterAcc)(float* g, const float* d, size_t ldd, const float* x, size_t ldx, size_t count,
                            size_t outs, size_t ins, int init) {
    if (init)
        for (size_t i = 0; i < outs * ins; ++i) g[i] = 0.0f;
    for (size_t i = 0; i < outs; ++i)
        for (size_t q = 0; q < count; ++q) {
            const float a = d[q * ldd + i];
            if (a == 0.0f) continue;
            MANI_FN(TrainAxpy)(g + i * ins, x + q * ldx, a, ins);
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
    const float32x4_t decay = vdupq_n_f32(k[0]), c1 = vdupq_n_f32(k[1]), beta2 = vdupq_n_f32(k[2]);
    const float32x4_t c2 = vdupq_n_f32(k[3]), bc2Sqrt = vdupq_n_f32(k[4]), epsilon = vdupq_n_f32(k[5]);
    const float32x4_t stepSize = vdupq_n_f32(k[6]);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const float32x4_t gi = vld1q_f32(g + i);
        const float32x4_t pd = vmulq_f32(vld1q_f32(p + i), decay);
        const float32x4_t mo = vld1q_f32(m + i);
        const float32x4_t mi = vaddq_f32(mo, vmulq_f32(vsubq_f32(gi, mo), c1));
        const float32x4_t vi = vaddq_f32(vmulq_f32(vld1q_f32(v + i), beta2), vmulq_f32(vmulq_f32(gi, gi), c2));
        const float32x4_t vo = vld1q_f32(vmax + i);
        const float32x4_t vm = vbslq_f32(vcgtq_f32(vi, vo), vi, vo); /* not vmaxq_f32: NaN */
        const float32x4_t denom = vaddq_f32(vdivq_f32(vsqrtq_f32(vm), bc2Sqrt), epsilon);
        const float32x4_t step = vmulq_f32(stepSize, vdivq_f32(mi, denom));
        vst1q_f32(m + i, mi);
        vst1q_f32(v + i, vi);
        vst1q_f32(vmax + i, vm);
        vst1q_f32(p + i, vsubq_f32(pd, step));
    }
    mani_TrainAdamWTail(p, m, v, vmax, g, i, n, k);
}
