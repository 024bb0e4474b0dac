/* The scalar reference of the vector kernel layer: maniSimdScalar_<Kernel>,
 * built in every configuration without any backend instruction flag. One
 * lane at a time, in plain binary32 C arithmetic (compiled with
 * -ffp-contract=off and no fast-math, so each operator is one correctly
 * rounded IEEE operation). The kernel bodies are simd_kernels.inc; this
 * file gives them the one-lane layer. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/simd/simd.h"
#include "lib/core/container.h"

#if defined(__AVX__) || defined(__FMA__)
#error "simd_scalar.c must be compiled without the AVX2 backend's flags"
#endif

#define MANI_FN(name) maniSimdScalar_##name
#define MANI_LANES_BEGIN for (int mani_l_ = 0; mani_l_ < MANI_SIMD_LANES; ++mani_l_) {
#define MANI_LANES_END }
#define MANI_LD(arr) ((arr)[mani_l_])
#define MANI_ST(arr, v) ((arr)[mani_l_] = (v))
#define MANI_LDM(arr) ((arr)[mani_l_])
#define MANI_GATHER(base, idx) ((base)[(idx)[mani_l_]])
#define MANI_STM(arr, m) ((arr)[mani_l_] = (m))

#include "lib/anim/src/simd/simd_lane1.inc"

/* Binary64 lanes (one double). The trig kernels of the reference call the
 * core functions (MANI_REFERENCE); these lane functions keep the shared
 * sequences in simd_kernels.inc compiled in every backend. */
#define MANI_REFERENCE 1
typedef double mani_D;
typedef uint64_t mani_DM;

static inline uint64_t mani_DBits(mani_D a) {
    uint64_t u;
    memcpy(&u, &a, sizeof u);
    return u;
}
static inline mani_D mani_DFromBits(uint64_t u) {
    mani_D a;
    memcpy(&a, &u, sizeof a);
    return a;
}
#define MANI_DSIGN UINT64_C(0x8000000000000000)
static inline mani_D mani_DWiden(mani_F a) { return (double)a; }
static inline mani_F mani_DNarrow(mani_D a) { return (float)a; }
static inline mani_D mani_DSplat(double c) { return c; }
static inline mani_D mani_DAdd(mani_D a, mani_D b) { return a + b; }
static inline mani_D mani_DSub(mani_D a, mani_D b) { return a - b; }
static inline mani_D mani_DMul(mani_D a, mani_D b) { return a * b; }
static inline mani_D mani_DDiv(mani_D a, mani_D b) { return a / b; }
static inline mani_D mani_DSqrt(mani_D a) { return sqrt(a); }
static inline mani_D mani_DNeg(mani_D a) { return mani_DFromBits(mani_DBits(a) ^ MANI_DSIGN); }
static inline mani_D mani_DAbs(mani_D a) { return mani_DFromBits(mani_DBits(a) & ~MANI_DSIGN); }
static inline mani_D mani_DCopySign(mani_D a, mani_D s) {
    return mani_DFromBits((mani_DBits(a) & ~MANI_DSIGN) | (mani_DBits(s) & MANI_DSIGN));
}
static inline mani_DM mani_DEq(mani_D a, mani_D b) { return a == b ? ~UINT64_C(0) : 0; }
static inline mani_DM mani_DLe(mani_D a, mani_D b) { return a <= b ? ~UINT64_C(0) : 0; }
static inline mani_DM mani_DGt(mani_D a, mani_D b) { return a > b ? ~UINT64_C(0) : 0; }
static inline mani_DM mani_DGe(mani_D a, mani_D b) { return a >= b ? ~UINT64_C(0) : 0; }
static inline mani_DM mani_DSignM(mani_D a) { return (mani_DBits(a) & MANI_DSIGN) ? ~UINT64_C(0) : 0; }
static inline mani_DM mani_DBitM(mani_D a, uint64_t bit) { return (mani_DBits(a) & bit) ? ~UINT64_C(0) : 0; }
static inline mani_DM mani_DMAnd(mani_DM a, mani_DM b) { return a & b; }
static inline mani_DM mani_DMXor(mani_DM a, mani_DM b) { return a ^ b; }
/* Every binary64 mask is all ones or zero (simd_kernels.inc): a choice
 * of bits, no arithmetic. */
static inline mani_D mani_DSel(mani_DM m, mani_D a, mani_D b) { return m ? a : b; }

#define MANI_LDD(arr) ((arr)[mani_l_])
#define MANI_STD(arr, v) ((arr)[mani_l_] = (v))

#include "lib/anim/src/simd/simd_kernels.inc"

/* The model pass one bone at a time through the single-value product (the
 * reference the vector backends match bit for bit). */
uint32_t MANI_FN(ComposeModels)(maniSimdAffinex8* models, const uint8_t* parents, uint32_t count) {
    for (uint32_t b = 0; b < count; ++b) {
        const uint32_t p = mcore_ReadU32(parents + 4u * (size_t)b);
        if (p == MANI_NO_BONE) continue;
        if (p >= b) return b;
        const maniSimdAffinex8* pg = &models[p / 8];
        maniSimdAffinex8* bg = &models[b / 8];
        const uint32_t pl = p % 8, bl = b % 8;
        maniAffine pa, la;
        for (int c = 0; c < 4; ++c) {
            pa.columns[c] = (maniVec3){pg->c[c].x[pl], pg->c[c].y[pl], pg->c[c].z[pl]};
            la.columns[c] = (maniVec3){bg->c[c].x[bl], bg->c[c].y[bl], bg->c[c].z[bl]};
        }
        const maniAffine m = maniSimdSingle_AffineMul(&pa, &la);
        for (int c = 0; c < 4; ++c) {
            bg->c[c].x[bl] = m.columns[c].x;
            bg->c[c].y[bl] = m.columns[c].y;
            bg->c[c].z[bl] = m.columns[c].z;
        }
    }
    return count;
}

/* -- The learned trainer's products (plain floats, any alignment) -------------- */

void MANI_FN(TrainAxpy)(float* y, const float* x, float a, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        const float m = x[i] * a;
        y[i] = y[i] + m;
    }
}

void MANI_FN(TrainMatTVec)(float* y, const float* m, const float* v, size_t rows, size_t cols, int skipZero) {
    for (size_t r = 0; r < rows; ++r) {
        const float a = v[r];
        if (skipZero && a == 0.0f) continue;
        const float* row = m + r * cols;
        for (size_t c = 0; c < cols; ++c) {
            const float p = row[c] * a;
            y[c] = y[c] + p;
        }
    }
}

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

void MANI_FN(TrainAdamW)(float* p, float* m, float* v, float* vmax, const float* g, size_t n, const float* k) {
    const float decay = k[0], c1 = k[1], beta2 = k[2], c2 = k[3], bc2Sqrt = k[4], epsilon = k[5], stepSize = k[6];
    for (size_t i = 0; i < n; ++i) {
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
