/* Suite "core" (named "math" before its rename in 0.1.0): freezes the
 * deterministic math core (lib/core/detmath.h),
 * every function in binary64 and binary32, and the trig kernels of the
 * vector layer (lib/anim/src/simd: maniSimd_Sin, _Cos, _SinCos, _Atan2,
 * _Acos), so that the x86-64 (AVX2, scalar) and arm64 (NEON, scalar) builds
 * all prove the same bits.
 *
 * One case per function and precision ("sin-f64", "atan2-f32", ...; the
 * range reductions "remPiO2-f64" and "remPiO2f-f32"), plus "kernel-sin" ...
 * Each case draws N = 4096 inputs (pairs for two-argument functions) from a
 * generator seeded with maniHash64(0, case name):
 *   [0, 2048)     uniform in the function's ordinary domain (lo + (hi-lo)*u)
 *   [2048, 2560)  wide: +-(1 + u) * 2^e, e uniform in the function's range
 *   [2560, 3072)  uniformly random bit patterns (NaNs, infinities, subnormals)
 *   [3072, 4096)  special values: zeros, subnormals, limits, infinities, NaNs
 *                 with payloads, +-1, multiples of pi/2, 2^17, 2^20, the
 *                 exp overflow/underflow edges, and their neighbours up to
 *                 +-19 ulps (two-argument functions: the full cross product
 *                 of the specials, then pairs of neighbours within +-3 ulps)
 * and hashes every output, field by field, with mconf_BytesF64/F32 (every
 * NaN result is the canonical NaN, so its bits are hashed as they are).
 *
 * Then one case per non-trig kernel of the vector layer ("kernel-add" ...
 * "kernel-affineinverse", runLaneKernels), through the configured backend:
 * every float input field is drawn as above by gen32 (4096 lanes = 512
 * groups; field f's special band rotated by 5 f so the fields of one lane
 * differ), Select's masks are random bit patterns with all-ones and zero
 * mixed in, and every output is hashed lane by lane, field by field
 * (mconf_BytesF32 canonicalizes NaNs, whose sign and payload are not part
 * of the kernels' contract; masks with mconf_BytesU32). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/core/detmath.h"
#include "lib/core/hash.h"
#include "lib/core/rng.h"

void mconf_SuiteCore(mconf_Run* run);

#define MCONF_N 4096
#define MCONF_UNIFORM 2048
#define MCONF_WIDE 512
#define MCONF_BITS 512
#define MCONF_SPECIAL (MCONF_N - MCONF_UNIFORM - MCONF_WIDE - MCONF_BITS)

static double dbl(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static float flt(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static const uint64_t kSpecial64[] = {
    0x0000000000000000u, 0x8000000000000000u, 0x0000000000000001u, 0x800FFFFFFFFFFFFFu, /* zeros, subnormals */
    0x0010000000000000u, 0x7FEFFFFFFFFFFFFFu, 0xFFEFFFFFFFFFFFFFu,                        /* DBL_MIN, +-DBL_MAX */
    0x7FF0000000000000u, 0xFFF0000000000000u,                                             /* +-inf */
    0x7FF8000000000000u, 0xFFF8000000000001u, 0x7FF0000000000001u,                        /* NaNs, a signalling one */
    0x3FF0000000000000u, 0xBFF0000000000000u, 0x3FE0000000000000u, 0x4000000000000000u, /* 1, -1, 0.5, 2 */
    0x3FF921FB54442D18u, 0xC00921FB54442D18u, 0x4012D97C7F3321D2u,                        /* pi/2, -pi, 3pi/2 */
    0x40FF6A7A2955385Eu, 0x4100000000000000u, 0x4130000000000000u,                        /* 2^15 pi, 2^17, 2^20 */
    0x4330000000000000u, 0x4086232BDD7ABCD2u, 0xC0874910D52D3051u,                        /* 2^52, ~exp overflow, ~underflow */
    0x3E40000000000000u,                                                                  /* 2^-27 */
};
static const uint32_t kSpecial32[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, /* zeros, limits */
    0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7F800001u,                         /* inf, NaNs */
    0x3F800000u, 0xBF800000u, 0x3F000000u, 0x40000000u,                                      /* 1, -1, 0.5, 2 */
    0x3FC90FDBu, 0xC0490FDBu, 0x4096CBE4u, 0x46C90FDBu, 0x48000000u, 0x49800000u,             /* pi/2 .. 2^17, 2^20 */
    0x42B17218u, 0xC2CFF1B5u, 0x39800000u,                                                   /* ~expf overflow, underflow, 2^-12 */
};
#define NS64 (sizeof kSpecial64 / sizeof kSpecial64[0])
#define NS32 (sizeof kSpecial32 / sizeof kSpecial32[0])

/* A function's input domain: uniform in [lo, hi), wide +-(1+u)*2^[elo, ehi]
 * (negative only if neg). */
typedef struct Dom {
    double lo, hi;
    int elo, ehi, neg;
} Dom;

/* Neighbour k of a special: 0, +1, -1, +2, -2, ... ulps (bit steps). */
static int64_t step(size_t k) {
    const int64_t m = (int64_t)((k + 1) / 2);
    return k % 2 ? m : -m;
}

static void gen64(mcore_Rng* rng, Dom d, double* v, int second) {
    for (int i = 0; i < MCONF_UNIFORM; ++i) v[i] = d.lo + (d.hi - d.lo) * mcore_RngDouble01(rng);
    for (int i = 0; i < MCONF_WIDE; ++i) {
        const uint64_t e = (uint64_t)(d.elo + (int)mcore_RngBelow(rng, (uint32_t)(d.ehi - d.elo + 1)) + 1023);
        const uint64_t neg = d.neg && (mcore_RngNext(rng) >> 63) ? 0x8000000000000000u : 0;
        v[MCONF_UNIFORM + i] = dbl(neg | (e << 52) | (mcore_RngNext(rng) >> 12));
    }
    for (int i = 0; i < MCONF_BITS; ++i) v[MCONF_UNIFORM + MCONF_WIDE + i] = dbl(mcore_RngNext(rng));
    for (size_t i = 0; i < MCONF_SPECIAL; ++i) {
        size_t s, k;
        if (second < 0) { /* one argument: each special, then its neighbours */
            s = i % NS64, k = i / NS64;
        } else if (i < NS64 * NS64) { /* pairs: the cross product */
            s = second ? i % NS64 : i / NS64, k = 0;
        } else {
            const size_t j = i - NS64 * NS64;
            s = (second ? j : j / 3) % NS64, k = 1 + j % 6;
        }
        v[MCONF_N - MCONF_SPECIAL + i] = dbl(kSpecial64[s] + (uint64_t)step(k));
    }
}

static void gen32(mcore_Rng* rng, Dom d, float* v, int second) {
    for (int i = 0; i < MCONF_UNIFORM; ++i) v[i] = mcore_RngFloatRange(rng, (float)d.lo, (float)d.hi);
    for (int i = 0; i < MCONF_WIDE; ++i) {
        const uint32_t e = (uint32_t)(d.elo + (int)mcore_RngBelow(rng, (uint32_t)(d.ehi - d.elo + 1)) + 127);
        const uint32_t neg = d.neg && (mcore_RngNext(rng) >> 63) ? 0x80000000u : 0;
        v[MCONF_UNIFORM + i] = flt(neg | (e << 23) | (uint32_t)(mcore_RngNext(rng) >> 41));
    }
    for (int i = 0; i < MCONF_BITS; ++i) v[MCONF_UNIFORM + MCONF_WIDE + i] = mcore_RngFloatBits(rng);
    for (size_t i = 0; i < MCONF_SPECIAL; ++i) {
        size_t s, k;
        if (second < 0) {
            s = i % NS32, k = i / NS32;
        } else if (i < NS32 * NS32) {
            s = second ? i % NS32 : i / NS32, k = 0;
        } else {
            const size_t j = i - NS32 * NS32;
            s = (second ? j : j / 3) % NS32, k = 1 + j % 6;
        }
        v[MCONF_N - MCONF_SPECIAL + i] = flt(kSpecial32[s] + (uint32_t)step(k));
    }
}

static void seed(mcore_Rng* rng, const char* name) { mcore_RngSeed(rng, mcore_Hash64(0, name, strlen(name))); }

typedef double (*Fn1)(double);
typedef float (*Fn1f)(float);
typedef double (*Fn2)(double, double);
typedef float (*Fn2f)(float, float);

typedef struct Unary {
    const char* name;
    Fn1 f64;
    Fn1f f32;
    Dom d64, d32;
} Unary;

typedef struct Binary {
    const char* name;
    Fn2 f64;
    Fn2f f32;
    Dom x64, y64, x32, y32; /* first and second argument */
} Binary;

static const Unary kUnary[] = {
    {"sin", mcore_sin, mcore_sinf, {-8, 8, -30, 1023, 1}, {-8, 8, -30, 127, 1}},
    {"cos", mcore_cos, mcore_cosf, {-8, 8, -30, 1023, 1}, {-8, 8, -30, 127, 1}},
    {"tan", mcore_tan, mcore_tanf, {-8, 8, -30, 1023, 1}, {-8, 8, -30, 127, 1}},
    {"asin", mcore_asin, mcore_asinf, {-1, 1, -60, 0, 1}, {-1, 1, -60, 0, 1}},
    {"acos", mcore_acos, mcore_acosf, {-1, 1, -60, 0, 1}, {-1, 1, -60, 0, 1}},
    {"atan", mcore_atan, mcore_atanf, {-10, 10, -60, 1023, 1}, {-10, 10, -60, 127, 1}},
    {"exp", mcore_exp, mcore_expf, {-20, 20, -30, 10, 1}, {-20, 20, -30, 7, 1}},
    {"exp2", mcore_exp2, mcore_exp2f, {-30, 30, -30, 11, 1}, {-30, 30, -30, 8, 1}},
    {"expm1", mcore_expm1, mcore_expm1f, {-2, 2, -60, 10, 1}, {-2, 2, -30, 7, 1}},
    {"log", mcore_log, mcore_logf, {0, 4, -1022, 1023, 0}, {0, 4, -126, 127, 0}},
    {"log2", mcore_log2, mcore_log2f, {0, 4, -1022, 1023, 0}, {0, 4, -126, 127, 0}},
    {"log1p", mcore_log1p, mcore_log1pf, {-1, 4, -60, 1023, 1}, {-1, 4, -30, 127, 1}},
    {"sinh", mcore_sinh, mcore_sinhf, {-5, 5, -30, 10, 1}, {-5, 5, -30, 7, 1}},
    {"cosh", mcore_cosh, mcore_coshf, {-5, 5, -30, 10, 1}, {-5, 5, -30, 7, 1}},
    {"tanh", mcore_tanh, mcore_tanhf, {-5, 5, -60, 6, 1}, {-5, 5, -30, 6, 1}},
    {"cbrt", mcore_cbrt, mcore_cbrtf, {-10, 10, -1022, 1023, 1}, {-10, 10, -126, 127, 1}},
};

static const Binary kBinary[] = {
    /* atan2(y, x): first argument y */
    {"atan2", mcore_atan2, mcore_atan2f, {-10, 10, -60, 1023, 1}, {-10, 10, -60, 1023, 1},
     {-10, 10, -60, 127, 1}, {-10, 10, -60, 127, 1}},
    {"pow", mcore_pow, mcore_powf, {0, 4, -60, 60, 1}, {-10, 10, -20, 10, 1}, {0, 4, -30, 30, 1}, {-10, 10, -20, 7, 1}},
    {"hypot", mcore_hypot, mcore_hypotf, {-10, 10, -1022, 1023, 1}, {-10, 10, -1022, 1023, 1},
     {-10, 10, -126, 127, 1}, {-10, 10, -126, 127, 1}},
    {"fmod", mcore_fmod, mcore_fmodf, {-100, 100, -1022, 1023, 1}, {-10, 10, -1022, 1023, 1},
     {-100, 100, -126, 127, 1}, {-10, 10, -126, 127, 1}},
};

static double xs64[MCONF_N], ys64[MCONF_N];
static float xs32[MCONF_N], ys32[MCONF_N];
static int ns[MCONF_N];

/* powi's exponents: [-40, 40] mostly, any int32 (INT_MIN included) else. */
static void genInts(mcore_Rng* rng) {
    for (int i = 0; i < MCONF_N; ++i) {
        const uint32_t r = mcore_RngBelow(rng, 8);
        ns[i] = r < 6 ? (int)mcore_RngBelow(rng, 81) - 40 : (int)(uint32_t)(mcore_RngNext(rng) >> 32);
    }
    ns[0] = 0, ns[1] = 1, ns[2] = -1, ns[3] = INT_MIN, ns[4] = INT_MAX, ns[5] = 2, ns[6] = -2;
}

static void runUnary(mconf_Run* run, mconf_Bytes* b, const Unary* u) {
    char name[64];
    mcore_Rng rng;
    snprintf(name, sizeof name, "%s-f64", u->name);
    seed(&rng, name);
    gen64(&rng, u->d64, xs64, -1);
    for (int i = 0; i < MCONF_N; ++i) mconf_BytesF64(b, u->f64(xs64[i]));
    mconf_RecordBytes(run, name, b);
    snprintf(name, sizeof name, "%s-f32", u->name);
    seed(&rng, name);
    gen32(&rng, u->d32, xs32, -1);
    for (int i = 0; i < MCONF_N; ++i) mconf_BytesF32(b, u->f32(xs32[i]));
    mconf_RecordBytes(run, name, b);
}

static void runBinary(mconf_Run* run, mconf_Bytes* b, const Binary* f) {
    char name[64];
    mcore_Rng rng;
    snprintf(name, sizeof name, "%s-f64", f->name);
    seed(&rng, name);
    gen64(&rng, f->x64, xs64, 0);
    gen64(&rng, f->y64, ys64, 1);
    for (int i = 0; i < MCONF_N; ++i) mconf_BytesF64(b, f->f64(xs64[i], ys64[i]));
    mconf_RecordBytes(run, name, b);
    snprintf(name, sizeof name, "%s-f32", f->name);
    seed(&rng, name);
    gen32(&rng, f->x32, xs32, 0);
    gen32(&rng, f->y32, ys32, 1);
    for (int i = 0; i < MCONF_N; ++i) mconf_BytesF32(b, f->f32(xs32[i], ys32[i]));
    mconf_RecordBytes(run, name, b);
}

/* The trig kernels, through the configured backend, on 512 groups each. */
#define MCONF_GROUPS (MCONF_N / MANI_SIMD_LANES)
static maniSimdFloatx8 kx[MCONF_GROUPS], ky[MCONF_GROUPS], ko[MCONF_GROUPS], ko2[MCONF_GROUPS];

static void loadGroups(maniSimdFloatx8* g, const float* v) {
    for (int i = 0; i < MCONF_N; ++i) g[i / MANI_SIMD_LANES].v[i % MANI_SIMD_LANES] = v[i];
}
static void hashGroups(mconf_Bytes* b, const maniSimdFloatx8* g) {
    for (int i = 0; i < MCONF_N; ++i) mconf_BytesF32(b, g[i / MANI_SIMD_LANES].v[i % MANI_SIMD_LANES]);
}

static void runKernels(mconf_Run* run, mconf_Bytes* b) {
    mcore_Rng rng;
    /* sin/cos: the f32 domain, with the wide band moved to both sides of 2^17
     * (exponents 14..19) where the kernels switch to the core. */
    const Dom trig = {-8, 8, 14, 19, 1};
    const Dom inv = {-1, 1, -60, 0, 1};
    const Dom at = {-10, 10, -60, 127, 1};

    seed(&rng, "kernel-sin");
    gen32(&rng, trig, xs32, -1);
    loadGroups(kx, xs32);
    maniSimd_Sin(ko, kx, MCONF_GROUPS);
    hashGroups(b, ko);
    mconf_RecordBytes(run, "kernel-sin", b);

    seed(&rng, "kernel-cos");
    gen32(&rng, trig, xs32, -1);
    loadGroups(kx, xs32);
    maniSimd_Cos(ko, kx, MCONF_GROUPS);
    hashGroups(b, ko);
    mconf_RecordBytes(run, "kernel-cos", b);

    seed(&rng, "kernel-sincos");
    gen32(&rng, trig, xs32, -1);
    loadGroups(kx, xs32);
    maniSimd_SinCos(ko, ko2, kx, MCONF_GROUPS);
    for (int i = 0; i < MCONF_N; ++i) { /* per lane: sin, then cos */
        mconf_BytesF32(b, ko[i / MANI_SIMD_LANES].v[i % MANI_SIMD_LANES]);
        mconf_BytesF32(b, ko2[i / MANI_SIMD_LANES].v[i % MANI_SIMD_LANES]);
    }
    mconf_RecordBytes(run, "kernel-sincos", b);

    seed(&rng, "kernel-atan2");
    gen32(&rng, at, xs32, 0);
    gen32(&rng, at, ys32, 1);
    loadGroups(ky, xs32); /* y first, as atan2(y, x) */
    loadGroups(kx, ys32);
    maniSimd_Atan2(ko, ky, kx, MCONF_GROUPS);
    hashGroups(b, ko);
    mconf_RecordBytes(run, "kernel-atan2", b);

    seed(&rng, "kernel-acos");
    gen32(&rng, inv, xs32, -1);
    loadGroups(kx, xs32);
    maniSimd_Acos(ko, kx, MCONF_GROUPS);
    hashGroups(b, ko);
    mconf_RecordBytes(run, "kernel-acos", b);
}

/* ---- The non-trig kernels --------------------------------------------- */

/* Every group type is a run of float[8] fields without padding (simd.h):
 * Floatx8 1, Vec3x8 3, Quatx8 4, Mat3x8 9, Transformx8 10, Affinex8 12. */
static maniSimdFloatx8 ka[MCONF_GROUPS * 12], kb[MCONF_GROUPS * 12], kt[MCONF_GROUPS], kout[MCONF_GROUPS * 12];
static maniSimdMaskx8 kmask[MCONF_GROUPS];

/* Input fields [0, fields) of n-field groups, each drawn by gen32. */
static void fillFields(mcore_Rng* rng, maniSimdFloatx8* g, int fields, Dom d) {
    for (int f = 0; f < fields; ++f) {
        gen32(rng, d, xs32, -1);
        const int rot = (5 * f) % MCONF_SPECIAL;
        for (int i = 0; i < MCONF_N; ++i) {
            int j = i;
            if (i >= MCONF_N - MCONF_SPECIAL) j = MCONF_N - MCONF_SPECIAL + (i - (MCONF_N - MCONF_SPECIAL) + rot) % MCONF_SPECIAL;
            g[(i / MANI_SIMD_LANES) * fields + f].v[i % MANI_SIMD_LANES] = xs32[j];
        }
    }
}

static void hashFields(mconf_Bytes* b, const maniSimdFloatx8* g, int fields) {
    for (int i = 0; i < MCONF_N; ++i)
        for (int f = 0; f < fields; ++f)
            mconf_BytesF32(b, g[(i / MANI_SIMD_LANES) * fields + f].v[i % MANI_SIMD_LANES]);
}

static void hashMasks(mconf_Bytes* b, const maniSimdMaskx8* m) {
    for (int i = 0; i < MCONF_N; ++i) mconf_BytesU32(b, m[i / MANI_SIMD_LANES].m[i % MANI_SIMD_LANES]);
}

typedef void (*KBin)(maniSimdFloatx8*, const maniSimdFloatx8*, const maniSimdFloatx8*, size_t);
typedef void (*KCmp)(maniSimdMaskx8*, const maniSimdFloatx8*, const maniSimdFloatx8*, size_t);

static const Dom kElem = {-8, 8, -30, 30, 1};
static const Dom kUnit = {-1, 1, -30, 10, 1};
static const Dom kTime = {0, 1, -30, 2, 1};

static void runBinaryKernel(mconf_Run* run, mconf_Bytes* b, const char* name, KBin k) {
    mcore_Rng rng;
    seed(&rng, name);
    fillFields(&rng, ka, 1, kElem);
    fillFields(&rng, kb, 1, kElem);
    k(kout, ka, kb, MCONF_GROUPS);
    hashFields(b, kout, 1);
    mconf_RecordBytes(run, name, b);
}

static void runCompareKernel(mconf_Run* run, mconf_Bytes* b, const char* name, KCmp k) {
    mcore_Rng rng;
    seed(&rng, name);
    fillFields(&rng, ka, 1, kElem);
    fillFields(&rng, kb, 1, kElem);
    /* Equal pairs too (every eighth lane b = a, every sixteenth the other zero). */
    for (int i = 0; i < MCONF_N; i += 8) kb[i / 8].v[i % 8 + 3] = ka[i / 8].v[i % 8 + 3];
    for (int i = 0; i < MCONF_N; i += 16) ka[i / 8].v[5] = 0.0f, kb[i / 8].v[5] = -0.0f;
    k(kmask, ka, kb, MCONF_GROUPS);
    hashMasks(b, kmask);
    mconf_RecordBytes(run, name, b);
}

/* Casts between the group types: each is a whole number of Floatx8 fields. */
#define AS(T, p) ((T*)(void*)(p))

static void runLaneKernels(mconf_Run* run, mconf_Bytes* b) {
    static const struct {
        const char* name;
        KBin k;
    } bins[] = {
        {"kernel-add", maniSimd_Add}, {"kernel-sub", maniSimd_Sub}, {"kernel-mul", maniSimd_Mul},
        {"kernel-div", maniSimd_Div}, {"kernel-min", maniSimd_Min}, {"kernel-max", maniSimd_Max},
    };
    static const struct {
        const char* name;
        KCmp k;
    } cmps[] = {
        {"kernel-cmpeq", maniSimd_CmpEq}, {"kernel-cmpne", maniSimd_CmpNe}, {"kernel-cmplt", maniSimd_CmpLt},
        {"kernel-cmple", maniSimd_CmpLe}, {"kernel-cmpgt", maniSimd_CmpGt}, {"kernel-cmpge", maniSimd_CmpGe},
    };
    mcore_Rng rng;
    for (size_t i = 0; i < sizeof bins / sizeof bins[0]; ++i) runBinaryKernel(run, b, bins[i].name, bins[i].k);

    seed(&rng, "kernel-sqrt");
    fillFields(&rng, ka, 1, (Dom){0, 16, -126, 127, 1});
    maniSimd_Sqrt(kout, ka, MCONF_GROUPS);
    hashFields(b, kout, 1);
    mconf_RecordBytes(run, "kernel-sqrt", b);

    seed(&rng, "kernel-select");
    fillFields(&rng, ka, 1, kElem);
    fillFields(&rng, kb, 1, kElem);
    for (int i = 0; i < MCONF_N; ++i) {
        const uint32_t r = mcore_RngBelow(&rng, 4);
        kmask[i / 8].m[i % 8] = r == 0 ? 0u : r == 1 ? 0xFFFFFFFFu : (uint32_t)(mcore_RngNext(&rng) >> 32);
    }
    maniSimd_Select(kout, kmask, ka, kb, MCONF_GROUPS);
    hashFields(b, kout, 1);
    mconf_RecordBytes(run, "kernel-select", b);

    for (size_t i = 0; i < sizeof cmps / sizeof cmps[0]; ++i) runCompareKernel(run, b, cmps[i].name, cmps[i].k);

    seed(&rng, "kernel-quatmul");
    fillFields(&rng, ka, 4, kUnit);
    fillFields(&rng, kb, 4, kUnit);
    maniSimd_QuatMul(AS(maniSimdQuatx8, kout), AS(maniSimdQuatx8, ka), AS(maniSimdQuatx8, kb), MCONF_GROUPS);
    hashFields(b, kout, 4);
    mconf_RecordBytes(run, "kernel-quatmul", b);

    seed(&rng, "kernel-quatnormalize");
    fillFields(&rng, ka, 4, kUnit);
    maniSimd_QuatNormalize(AS(maniSimdQuatx8, kout), AS(maniSimdQuatx8, ka), MCONF_GROUPS);
    hashFields(b, kout, 4);
    mconf_RecordBytes(run, "kernel-quatnormalize", b);

    seed(&rng, "kernel-quatnlerp");
    fillFields(&rng, ka, 4, kUnit);
    fillFields(&rng, kb, 4, kUnit);
    fillFields(&rng, kt, 1, kTime);
    maniSimd_QuatNlerp(AS(maniSimdQuatx8, kout), AS(maniSimdQuatx8, ka), AS(maniSimdQuatx8, kb), kt, MCONF_GROUPS);
    hashFields(b, kout, 4);
    mconf_RecordBytes(run, "kernel-quatnlerp", b);

    seed(&rng, "kernel-quatconjugate");
    fillFields(&rng, ka, 4, kUnit);
    maniSimd_QuatConjugate(AS(maniSimdQuatx8, kout), AS(maniSimdQuatx8, ka), MCONF_GROUPS);
    hashFields(b, kout, 4);
    mconf_RecordBytes(run, "kernel-quatconjugate", b);

    seed(&rng, "kernel-quatinverse");
    fillFields(&rng, ka, 4, kUnit);
    maniSimd_QuatInverse(AS(maniSimdQuatx8, kout), AS(maniSimdQuatx8, ka), MCONF_GROUPS);
    hashFields(b, kout, 4);
    mconf_RecordBytes(run, "kernel-quatinverse", b);

    seed(&rng, "kernel-quatrotatevec3");
    fillFields(&rng, ka, 4, kUnit);
    fillFields(&rng, kb, 3, kElem);
    maniSimd_QuatRotateVec3(AS(maniSimdVec3x8, kout), AS(maniSimdQuatx8, ka), AS(maniSimdVec3x8, kb), MCONF_GROUPS);
    hashFields(b, kout, 3);
    mconf_RecordBytes(run, "kernel-quatrotatevec3", b);

    seed(&rng, "kernel-quatfrommat3");
    fillFields(&rng, ka, 9, kUnit);
    maniSimd_QuatFromMat3(AS(maniSimdQuatx8, kout), AS(maniSimdMat3x8, ka), MCONF_GROUPS);
    hashFields(b, kout, 4);
    mconf_RecordBytes(run, "kernel-quatfrommat3", b);

    seed(&rng, "kernel-quattomat3");
    fillFields(&rng, ka, 4, kUnit);
    maniSimd_QuatToMat3(AS(maniSimdMat3x8, kout), AS(maniSimdQuatx8, ka), MCONF_GROUPS);
    hashFields(b, kout, 9);
    mconf_RecordBytes(run, "kernel-quattomat3", b);

    seed(&rng, "kernel-transformmul");
    fillFields(&rng, ka, 10, kElem);
    fillFields(&rng, kb, 10, kElem);
    maniSimd_TransformMul(AS(maniSimdTransformx8, kout), AS(maniSimdTransformx8, ka), AS(maniSimdTransformx8, kb),
                          MCONF_GROUPS);
    hashFields(b, kout, 10);
    mconf_RecordBytes(run, "kernel-transformmul", b);

    seed(&rng, "kernel-transformtoaffine");
    fillFields(&rng, ka, 10, kElem);
    maniSimd_TransformToAffine(AS(maniSimdAffinex8, kout), AS(maniSimdTransformx8, ka), MCONF_GROUPS);
    hashFields(b, kout, 12);
    mconf_RecordBytes(run, "kernel-transformtoaffine", b);

    seed(&rng, "kernel-affinemul");
    fillFields(&rng, ka, 12, kElem);
    fillFields(&rng, kb, 12, kElem);
    maniSimd_AffineMul(AS(maniSimdAffinex8, kout), AS(maniSimdAffinex8, ka), AS(maniSimdAffinex8, kb), MCONF_GROUPS);
    hashFields(b, kout, 12);
    mconf_RecordBytes(run, "kernel-affinemul", b);

    seed(&rng, "kernel-affinetransformpoint");
    fillFields(&rng, ka, 12, kElem);
    fillFields(&rng, kb, 3, kElem);
    maniSimd_AffineTransformPoint(AS(maniSimdVec3x8, kout), AS(maniSimdAffinex8, ka), AS(maniSimdVec3x8, kb),
                                  MCONF_GROUPS);
    hashFields(b, kout, 3);
    mconf_RecordBytes(run, "kernel-affinetransformpoint", b);

    seed(&rng, "kernel-affineinverse");
    fillFields(&rng, ka, 12, kElem);
    maniSimd_AffineInverse(AS(maniSimdAffinex8, kout), AS(maniSimdAffinex8, ka), MCONF_GROUPS);
    hashFields(b, kout, 12);
    mconf_RecordBytes(run, "kernel-affineinverse", b);
}

#undef AS

void mconf_SuiteCore(mconf_Run* run) {
    mconf_Bytes b = {0};
    mcore_Rng rng;
    for (size_t i = 0; i < sizeof kUnary / sizeof kUnary[0]; ++i) runUnary(run, &b, &kUnary[i]);
    for (size_t i = 0; i < sizeof kBinary / sizeof kBinary[0]; ++i) runBinary(run, &b, &kBinary[i]);

    /* sincos: both outputs per input. */
    const Dom trig64 = {-8, 8, -30, 1023, 1}, trig32 = {-8, 8, -30, 127, 1};
    seed(&rng, "sincos-f64");
    gen64(&rng, trig64, xs64, -1);
    for (int i = 0; i < MCONF_N; ++i) {
        double s, c;
        mcore_sincos(xs64[i], &s, &c);
        mconf_BytesF64(&b, s);
        mconf_BytesF64(&b, c);
    }
    mconf_RecordBytes(run, "sincos-f64", &b);
    seed(&rng, "sincos-f32");
    gen32(&rng, trig32, xs32, -1);
    for (int i = 0; i < MCONF_N; ++i) {
        float s, c;
        mcore_sincosf(xs32[i], &s, &c);
        mconf_BytesF32(&b, s);
        mconf_BytesF32(&b, c);
    }
    mconf_RecordBytes(run, "sincos-f32", &b);

    /* powi(x, n): x in the pow domain, n from genInts. */
    const Dom pw64 = {-4, 4, -60, 60, 1}, pw32 = {-4, 4, -30, 30, 1};
    seed(&rng, "powi-f64");
    gen64(&rng, pw64, xs64, -1);
    genInts(&rng);
    for (int i = 0; i < MCONF_N; ++i) mconf_BytesF64(&b, mcore_powi(xs64[i], ns[i]));
    mconf_RecordBytes(run, "powi-f64", &b);
    seed(&rng, "powi-f32");
    gen32(&rng, pw32, xs32, -1);
    genInts(&rng);
    for (int i = 0; i < MCONF_N; ++i) mconf_BytesF32(&b, mcore_powif(xs32[i], ns[i]));
    mconf_RecordBytes(run, "powi-f32", &b);

    /* The range reductions: k mod 4 (one byte), then the remainder. */
    seed(&rng, "remPiO2-f64");
    gen64(&rng, trig64, xs64, -1);
    for (int i = 0; i < MCONF_N; ++i) {
        double hi, lo;
        const int q = mcore_remPiO2(xs64[i], &hi, &lo);
        mconf_BytesU8(&b, (uint8_t)q);
        mconf_BytesF64(&b, hi);
        mconf_BytesF64(&b, lo);
    }
    mconf_RecordBytes(run, "remPiO2-f64", &b);
    seed(&rng, "remPiO2f-f32");
    gen32(&rng, trig32, xs32, -1);
    for (int i = 0; i < MCONF_N; ++i) {
        double r;
        const int q = mcore_remPiO2f(xs32[i], &r);
        mconf_BytesU8(&b, (uint8_t)q);
        mconf_BytesF64(&b, r);
    }
    mconf_RecordBytes(run, "remPiO2f-f32", &b);

    runKernels(run, &b);
    runLaneKernels(run, &b);
    mconf_BytesFree(&b);
}
