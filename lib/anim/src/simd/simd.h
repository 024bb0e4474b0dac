/* lib/anim/src/simd: the vector kernel layer (internal; never a public
 * header). SoA batches of 8 lanes -- a pose's groups of eight bones -- with
 * one scalar reference and an AVX2 and a NEON backend that compute, lane by
 * lane, the same IEEE binary32 operations in the same order, so every build
 * gives the same bits (docs/determinism.md rule 3). docs/internals/simd.md
 * states each kernel's operation order and its NaN and signed-zero rules.
 *
 * Dispatch: exactly one of MAUL_ANIM_SIMD_AVX2, MAUL_ANIM_SIMD_NEON,
 * MAUL_ANIM_SIMD_SCALAR is defined per build (the MAUL_ANIM_SIMD option; use
 * local_defines = SIMD_DEFINES as lib/anim/BUILD.bazel does), and maps every
 * maniSimd_<Kernel> at compile time onto maniSimdAvx2_<Kernel>,
 * maniSimdNeon_<Kernel> or maniSimdScalar_<Kernel>. The scalar reference
 * (maniSimdScalar_<Kernel>) is built and declared in every build.
 *
 * Common contract of every kernel:
 *  - Arguments are arrays of n groups; n == 0 does nothing. Every pointer
 *    must be 32-byte aligned (the types below carry the alignment, so arrays
 *    from automatic/static storage, aligned_alloc(32, ...) or C++17 new are).
 *  - An output may be the very same array as an input of the same type
 *    (in place); any other overlap is undefined.
 *  - Nothing allocates, nothing reads the floating-point environment beyond
 *    IEEE defaults (round to nearest even, no flush-to-zero).
 *  - NaN results: which inputs give a NaN is identical on every backend and
 *    platform; the sign and payload of a NaN are NOT part of the contract
 *    (x86 and arm64 differ in default NaN and propagation).
 */
#ifndef MAUL_ANIM_SRC_SIMD_SIMD_H
#define MAUL_ANIM_SRC_SIMD_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/skeleton.h"

#if defined(MAUL_ANIM_SIMD_AVX2) + defined(MAUL_ANIM_SIMD_NEON) + defined(MAUL_ANIM_SIMD_SCALAR) != 1
#error "exactly one of MAUL_ANIM_SIMD_AVX2, _NEON, _SCALAR must be defined (local_defines = SIMD_DEFINES)"
#endif

#ifdef __cplusplus
extern "C" {
#define MANI_SIMD_ALIGNAS alignas(32)
#else
#define MANI_SIMD_ALIGNAS _Alignas(32)
#endif

/* Lanes per group, and the alignment (bytes) of every group type. */
#define MANI_SIMD_LANES 8
#define MANI_SIMD_ALIGN 32

/* Eight binary32 lanes (32 bytes). A maniSimdVec3x8 array of n groups is
 * also a maniSimdFloatx8 array of 3n groups, a maniSimdQuatx8 one of 4n,
 * so the element-wise kernels apply to them directly. */
typedef struct maniSimdFloatx8 {
    MANI_SIMD_ALIGNAS float v[8];
} maniSimdFloatx8;

/* Eight lane masks (32 bytes). Compares write 0xFFFFFFFF (true) or 0
 * (false); Select uses every bit (see maniSimd_Select). */
typedef struct maniSimdMaskx8 {
    MANI_SIMD_ALIGNAS uint32_t m[8];
} maniSimdMaskx8;

/* Eight 3-vectors (96 bytes). */
typedef struct maniSimdVec3x8 {
    MANI_SIMD_ALIGNAS float x[8];
    float y[8];
    float z[8];
} maniSimdVec3x8;

/* Eight quaternions x i + y j + z k + w (128 bytes). */
typedef struct maniSimdQuatx8 {
    MANI_SIMD_ALIGNAS float x[8];
    float y[8];
    float z[8];
    float w[8];
} maniSimdQuatx8;

/* Eight 3x3 matrices, column-major: c[j] is column j, so element (row r,
 * column j) is c[j].x/.y/.z[lane] for r = 0/1/2 (288 bytes). Acts on column
 * vectors: v' = M v. */
typedef struct maniSimdMat3x8 {
    maniSimdVec3x8 c[3];
} maniSimdMat3x8;

/* Eight affine 3x4 matrices, column-major: c[0..2] the linear part's
 * columns, c[3] the translation; p' = c0 px + c1 py + c2 pz + c3 (384
 * bytes). */
typedef struct maniSimdAffinex8 {
    maniSimdVec3x8 c[4];
} maniSimdAffinex8;

/* Eight transforms: scale, then rotation, then translation:
 * p' = translation + rotate(rotation, scale * p) (320 bytes). */
typedef struct maniSimdTransformx8 {
    maniSimdVec3x8 translation;
    maniSimdQuatx8 rotation;
    maniSimdVec3x8 scale;
} maniSimdTransformx8;

/* Eight table indices (32 bytes), for SkinGather. */
typedef struct maniSimdIndexx8 {
    MANI_SIMD_ALIGNAS uint32_t i[8];
} maniSimdIndexx8;

/* One influence of eight vertices for the dual quaternion and center
 * skinning kernels: the joint's rotation q (unit, w >= 0), dual part d, the
 * scale and shear part S (column-major) of maniConvertPaletteToDualQuaternions,
 * and the palette's translation t (640 bytes). */
typedef struct maniSimdSkinJointx8 {
    maniSimdQuatx8 q;
    maniSimdQuatx8 d;
    maniSimdMat3x8 s;
    maniSimdVec3x8 t;
} maniSimdSkinJointx8;

/* The most layers one BlendTotal or BlendAccumulate call takes. */
#define MANI_SIMD_BLEND_LAYERS 16

/* One layer of a group for the blend kernels: the layer's transform group,
 * its weight, and each lane's bone weight (1 for a layer without bone
 * weights, 0 for a lane past the skeleton's bones). */
typedef struct maniSimdBlendLayerx8 {
    const maniSimdTransformx8* pose;
    const maniSimdFloatx8* boneWeights;
    float weight;
} maniSimdBlendLayerx8;

/* The running sums of one group's blend, binary64 lanes (1088 bytes):
 * the total weight, the translation and scale sums (t xyz, s xyz) with the
 * largest |v| among each sum's contributors, and the rotation sum. Zeroed
 * before a blend's first BlendTotal. */
typedef struct maniSimdBlendAccx8 {
    MANI_SIMD_ALIGNAS double total[8];
    double sum[6][8];
    double bound[6][8];
    double q[4][8];
} maniSimdBlendAccx8;

/* One group's parameters for Dequantize (the compressed clip decoder,
 * lib/anim/src/compress): for each of a transform's nine stored components
 * (t xyz, r xyz, s xyz, in that order), each lane's 1 / (2^bits - 1) of its
 * rate, its segment range's min and extent in 255ths (integers, below
 * 2^24) and its clip range's min and extent; per channel (t, r, s), the
 * lanes whose values are quantized (all ones) rather than given in the
 * output (0) (1536 bytes). */
typedef struct maniSimdDequantx8 {
    maniSimdFloatx8 inverse[9];
    maniSimdIndexx8 segMin[9];
    maniSimdIndexx8 segExt[9];
    maniSimdFloatx8 clipMin[9];
    maniSimdFloatx8 clipExt[9];
    maniSimdMaskx8 quantized[3];
} maniSimdDequantx8;

/* Every kernel, declared once per backend prefix P. docs/internals/simd.md
 * gives each one's exact operation order.
 *
 *  Add, Sub, Mul, Div   out = a op b (one IEEE operation).
 *  Sqrt                 out = sqrt(a) (correctly rounded; sqrt(-0) = -0).
 *  Min                  out = a < b ? a : b  (NaN in either, or a == b
 *                       including +0 vs -0: b).
 *  Max                  out = a > b ? a : b  (same: b on NaN or equality).
 *  Select               out bits = (mask & a) | (~mask & b), every bit.
 *  CmpEq/Ne/Lt/Le/Gt/Ge all-ones or zero; ordered compares are false when a
 *                       NaN is involved, Ne (= !Eq) is true. -0 == +0.
 *  QuatMul              out = a * b (Hamilton; rotates by b, then by a).
 *  QuatNormalize        q / |q|; a zero length (|q|^2 == 0, underflow
 *                       included) gives the identity (0, 0, 0, 1).
 *  QuatNlerp            normalize(a (1 - t) + b' t), b' = dot(a, b) < 0 ? -b : b.
 *  QuatConjugate        (-x, -y, -z, w).
 *  QuatInverse          conjugate / |q|^2; a zero |q|^2 gives the identity.
 *  QuatRotateVec3       v + w t + q_xyz x t, t = 2 (q_xyz x v) (q unit).
 *  QuatFromMat3         Shepperd: branch on the largest of trace, m00, m11,
 *                       m22 (ties: the earlier), by lane selects.
 *  QuatToMat3           the rotation matrix of a unit quaternion.
 *  TransformMul         parent * child (local-to-model): scales multiply,
 *                       rotations multiply, t = tp + rp (sp * tc).
 *  TransformToAffine    [R(q) diag(s) | t].
 *  TransformLerp        a + (b - a) t on translations and scales (Sub,
 *                       Mul, Add), QuatNlerp on rotations, one t for all
 *                       lanes: the full-precision clip's sample lerp.
 *  AffineMul            a * b (applies b first).
 *  AffineTransformPoint a * p.
 *  ComposeModels        the model pass, in place, bone by bone in order:
 *                       models holds count bones' local affines (bone b at
 *                       group b / 8, lane b % 8); each bone whose parent
 *                       (parents: count little-endian u32 of any
 *                       alignment, MANI_NO_BONE for a root) is below it
 *                       becomes its parent's model times its local, with
 *                       AffineMul's arithmetic on each element (the vector
 *                       backends work one bone at a time, a column's three
 *                       rows in one register). Returns the first bone whose
 *                       parent is neither MANI_NO_BONE nor below it (that
 *                       bone and the later ones left as they were), else
 *                       count. Not lane-parallel: a bone's parent may be in
 *                       its own group.
 *  TrainAxpy            the learned trainer's (lib/anim/src/build/learned_train.c)
 *                       y[i] = y[i] + x[i] * a for i below n, each product
 *                       and sum rounded once. NOT the group contract: y
 *                       and x are plain floats of any alignment and any n;
 *                       y and x must not overlap.
 *  TrainMatTVec         y[c] = y[c] + m[r cols + c] * v[r] for r from 0 to
 *                       rows in order (each y[c] its own sum in row order,
 *                       so any number of columns side by side gives the
 *                       same bits); with skipZero a row whose v[r] == 0
 *                       (either sign) is left out, adding nothing. m is
 *                       rows x cols row-major, y cols floats, v rows; any
 *                       alignment, any sizes; y overlaps neither.
 *  TrainMatTMat         TrainMatTVec for count vectors at once: vector q is
 *                       v + q ldv, its sums y + q ldy (each y its own sums
 *                       in row order, the same bits as count calls).
 *  TrainOuterAcc        g[i ins + j] = g[i ins + j] + d_q[i] * x_q[j] for q
 *                       from 0 to count in order (d_q = d + q ldd, x_q = x +
 *                       q ldx), a q whose d_q[i] == 0 left out: the weight
 *                       gradient of count rows, each element's sum in row
 *                       order; with init every element's sum starts from
 *                       +0 instead (g not read: the same bits as zeroing g
 *                       first). g overlaps neither d nor x.
 *  TrainAdamW           the trainer's AMSGrad AdamW step of n parameters,
 *                       element by element, k = {decay, c1, beta2, c2,
 *                       bc2Sqrt, epsilon, stepSize}: p = p decay; m = m +
 *                       (g - m) c1; v = v beta2 + (g g) c2; vmax = v > vmax
 *                       ? v : vmax; p = p - stepSize (m / (sqrt(vmax) /
 *                       bc2Sqrt + epsilon)), each operation rounded once in
 *                       that order (sqrt the IEEE one). Plain floats, any
 *                       alignment; the five arrays do not overlap.
 *  AffineInverse        cofactors / determinant; a determinant == 0 lane
 *                       gives the all-zero affine.
 *  Sin, Cos             every lane exactly mcore_sinf / mcore_cosf (lib/core/
 *                       detmath.h) of that lane, for ALL inputs.
 *  SinCos               s and c exactly mcore_sincosf's; s and c must not be
 *                       the same array (either may be x).
 *  Atan2(y, x)          every lane exactly mcore_atan2f(y, x).
 *  Acos                 every lane exactly mcore_acosf.
 *  Skin kernels (simd_skin.inc): n groups of eight vertices, k influences
 *  a vertex, influence i of group g at [g * k + i] (k >= 1):
 *  SkinGather           out[g * stride + c] lane l = table[index[g].i[l] +
 *                       offsets[c]] for c < count: a copy, bits unchanged
 *                       (indices below 2^31; table and offsets need only
 *                       their own alignment, out and index 32 bytes).
 *  SkinBlendLinear      out = w0 M0, then out = out + wi Mi (i = 1..k-1),
 *                       element by element.
 *  SkinBlendDualQuaternion  S = sum wi Si (same order); q, d = sum si qi,
 *                       si di with si = -wi where dot(q0, qi) < 0 (else
 *                       wi); q, d divided by |q| (|q|^2 == 0: identity, 0);
 *                       out = [R(q) S | 2 (qw d - dw q + q x d)].
 *  SkinBlendCenters     S and q as above; out linear part R(q) S,
 *                       translation sum wi (rotate(qi, S c) + ti) - R(q) S c.
 *  SkinMix              b == 0: a; b == 1: d; else (1 - b) a + b d.
 *  SkinDirection        u = L v, then u / |u| (|u|^2 == 0: zero).
 *  SkinNormal           u = cof(L) v, negated where det(L) < 0, then
 *                       normalized as SkinDirection.
 *  Blend kernels (simd_blend.inc): one group each, on binary64 lanes, the
 *  per-bone sequences of lib/anim/src/blend/blend.c (blend.h's order):
 *  BlendTotal           acc total += each layer's weight, in order.
 *  BlendAccumulate      acc sums += each layer at its weight over the
 *                       divisor (the total, or the threshold above it);
 *                       layers of weight 0 skipped. After every BlendTotal.
 *                       Both take at most MANI_SIMD_BLEND_LAYERS layers.
 *  BlendFinish          out = the sums with the rest's share of the
 *                       shortfall, clamped and normalized: together
 *                       maniSkeleton_BlendPoses for one group, the layers
 *                       given in any number of calls, in order.
 *  AddLayer             pose = the additive layer's difference applied at
 *                       the layer's weights (maniPose_AddLayers, one layer).
 *  PoseDifference       out = difference of pose from basis; okOut lanes
 *                       all-ones where every value is finite and the
 *                       rotation normalizable (else the lane is refused).
 *  Decoding kernel (simd_decode.inc), the compressed clip's
 *  mani_CcDequantize and mani_CcRebuildW (compress_format.h) on lanes:
 *  Dequantize           in place: out holds each lane's given values (a
 *                       constant, a default, a raw value); in a quantized
 *                       channel's lanes, component c becomes clipMin +
 *                       clipExt * (segMin/255 + segExt/255 * (q * inverse))
 *                       (q = q[9g + c], below 2^24; the 255ths are
 *                       (float)m * (1.0f / 255), then the products and sums
 *                       in this order), and a quantized rotation's w
 *                       becomes r > 0 ? sqrt(r) : +0, r = 1 - ((x*x + y*y)
 *                       + z*z) of the decoded x y z.
 *  DequantizeFlat       out = base + scale * (float)q, lane by lane (q
 *                       below 2^24, converted exactly; one multiplication,
 *                       then one addition): the compressed clip format
 *                       11's mani_C11Value (compress_format11.h) on a list
 *                       of values, eight at a time.
 *  The five trig kernels run the core's documented binary64 sequences
 *  (lib/core/detmath_f32.c, S1-S13, A1-A14, C1-C5) on binary64 lanes; a
 *  lane the core does not run straight-line (Sin/Cos/SinCos with a finite
 *  |x| >= 2^17) is finished by the core function itself. Their NaN results
 *  are the canonical 0x7FC00000, exactly as the core's (an exception to the
 *  NaN rule above: these NaN bits ARE part of the contract).
 */
#define MANI_SIMD_DECLARE_KERNELS(P)                                                                        \
    void P##Add(maniSimdFloatx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);        \
    void P##Sub(maniSimdFloatx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);        \
    void P##Mul(maniSimdFloatx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);        \
    void P##Div(maniSimdFloatx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);        \
    void P##Min(maniSimdFloatx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);        \
    void P##Max(maniSimdFloatx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);        \
    void P##Sqrt(maniSimdFloatx8* out, const maniSimdFloatx8* a, size_t n);                                 \
    void P##Select(maniSimdFloatx8* out, const maniSimdMaskx8* mask, const maniSimdFloatx8* a,              \
                   const maniSimdFloatx8* b, size_t n);                                                     \
    void P##CmpEq(maniSimdMaskx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);       \
    void P##CmpNe(maniSimdMaskx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);       \
    void P##CmpLt(maniSimdMaskx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);       \
    void P##CmpLe(maniSimdMaskx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);       \
    void P##CmpGt(maniSimdMaskx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);       \
    void P##CmpGe(maniSimdMaskx8* out, const maniSimdFloatx8* a, const maniSimdFloatx8* b, size_t n);       \
    void P##QuatMul(maniSimdQuatx8* out, const maniSimdQuatx8* a, const maniSimdQuatx8* b, size_t n);       \
    void P##QuatNormalize(maniSimdQuatx8* out, const maniSimdQuatx8* q, size_t n);                          \
    void P##QuatNlerp(maniSimdQuatx8* out, const maniSimdQuatx8* a, const maniSimdQuatx8* b,                \
                      const maniSimdFloatx8* t, size_t n);                                                  \
    void P##QuatConjugate(maniSimdQuatx8* out, const maniSimdQuatx8* q, size_t n);                          \
    void P##QuatInverse(maniSimdQuatx8* out, const maniSimdQuatx8* q, size_t n);                            \
    void P##QuatRotateVec3(maniSimdVec3x8* out, const maniSimdQuatx8* q, const maniSimdVec3x8* v, size_t n); \
    void P##QuatFromMat3(maniSimdQuatx8* out, const maniSimdMat3x8* m, size_t n);                           \
    void P##QuatToMat3(maniSimdMat3x8* out, const maniSimdQuatx8* q, size_t n);                             \
    void P##TransformMul(maniSimdTransformx8* out, const maniSimdTransformx8* parent,                       \
                         const maniSimdTransformx8* child, size_t n);                                       \
    void P##TransformToAffine(maniSimdAffinex8* out, const maniSimdTransformx8* x, size_t n);               \
    void P##TransformLerp(maniSimdTransformx8* out, const maniSimdTransformx8* a, const maniSimdTransformx8* b, \
                          float t, size_t n);                                                               \
    void P##AffineMul(maniSimdAffinex8* out, const maniSimdAffinex8* a, const maniSimdAffinex8* b, size_t n); \
    void P##AffineTransformPoint(maniSimdVec3x8* out, const maniSimdAffinex8* a, const maniSimdVec3x8* p,   \
                                 size_t n);                                                                 \
    void P##AffineInverse(maniSimdAffinex8* out, const maniSimdAffinex8* a, size_t n);                      \
    void P##Sin(maniSimdFloatx8* out, const maniSimdFloatx8* x, size_t n);                                  \
    void P##Cos(maniSimdFloatx8* out, const maniSimdFloatx8* x, size_t n);                                  \
    void P##SinCos(maniSimdFloatx8* s, maniSimdFloatx8* c, const maniSimdFloatx8* x, size_t n);             \
    void P##Atan2(maniSimdFloatx8* out, const maniSimdFloatx8* y, const maniSimdFloatx8* x, size_t n);      \
    void P##Acos(maniSimdFloatx8* out, const maniSimdFloatx8* x, size_t n);                                 \
    void P##SkinGather(maniSimdFloatx8* out, size_t stride, const float* table, const maniSimdIndexx8* index,   \
                       const uint32_t* offsets, size_t count, size_t n);                                    \
    void P##SkinBlendLinear(maniSimdAffinex8* out, const maniSimdAffinex8* m, const maniSimdFloatx8* w,     \
                            size_t k, size_t n);                                                            \
    void P##SkinBlendDualQuaternion(maniSimdAffinex8* out, const maniSimdSkinJointx8* j,                    \
                                    const maniSimdFloatx8* w, size_t k, size_t n);                          \
    void P##SkinBlendCenters(maniSimdAffinex8* out, const maniSimdSkinJointx8* j, const maniSimdFloatx8* w,  \
                             const maniSimdVec3x8* c, size_t k, size_t n);                                  \
    void P##SkinMix(maniSimdAffinex8* out, const maniSimdAffinex8* a, const maniSimdAffinex8* d,            \
                    const maniSimdFloatx8* b, size_t n);                                                    \
    void P##SkinDirection(maniSimdVec3x8* out, const maniSimdAffinex8* a, const maniSimdVec3x8* v, size_t n); \
    void P##SkinNormal(maniSimdVec3x8* out, const maniSimdAffinex8* a, const maniSimdVec3x8* v, size_t n); \
    void P##BlendTotal(maniSimdBlendAccx8* acc, const maniSimdBlendLayerx8* layers, size_t count);         \
    void P##BlendAccumulate(maniSimdBlendAccx8* acc, const maniSimdBlendLayerx8* layers, size_t count,     \
                            float threshold);                                                             \
    void P##BlendFinish(maniSimdTransformx8* out, const maniSimdBlendAccx8* acc,                           \
                        const maniSimdTransformx8* rest, float threshold);                                 \
    void P##AddLayer(maniSimdTransformx8* pose, const maniSimdTransformx8* difference,                     \
                     const maniSimdBlendLayerx8* layer);                                                   \
    void P##PoseDifference(maniSimdTransformx8* out, maniSimdMaskx8* okOut, const maniSimdTransformx8* pose, \
                           const maniSimdTransformx8* basis);                                         \
    void P##Dequantize(maniSimdTransformx8* out, const maniSimdDequantx8* p, const maniSimdIndexx8* q, size_t n); \
    void P##DequantizeFlat(maniSimdFloatx8* out, const maniSimdIndexx8* q, const maniSimdFloatx8* base,     \
                           const maniSimdFloatx8* scale, size_t n);                                         \
    uint32_t P##ComposeModels(maniSimdAffinex8* models, const uint8_t* parents, uint32_t count);           \
    void P##TrainAxpy(float* y, const float* x, float a, size_t n);                                        \
    void P##TrainMatTVec(float* y, const float* m, const float* v, size_t rows, size_t cols, int skipZero); \
    void P##TrainMatTMat(float* y, size_t ldy, const float* m, const float* v, size_t ldv, size_t count,     \
                         size_t rows, size_t cols, int skipZero);                                           \
    void P##TrainOuterAcc(float* g, const float* d, size_t ldd, const float* x, size_t ldx, size_t count,   \
                          size_t outs, size_t ins, int init);                                                         \
    void P##TrainAdamW(float* p, float* m, float* v, float* vmax, const float* g, size_t n, const float* k);

/* The scalar reference: always built, in every configuration. */
MANI_SIMD_DECLARE_KERNELS(maniSimdScalar_)

/* The single-value helpers (simd_single.c): each kernel's per-lane math
 * (simd_lanes.inc) on one AoS value of maul/anim/skeleton.h, built without
 * backend flags in every configuration. Each returns exactly the bits of
 * that value's lane in any backend's batch kernel (maniSimd_QuatMul, ...),
 * NaN sign and payload aside, so a single bone computed alone equals that
 * bone in a batch. maniSimdMat3 is column-major like maniSimdMat3x8. */
typedef struct maniSimdMat3 {
    maniVec3 columns[3];
} maniSimdMat3;

maniQuat maniSimdSingle_QuatMul(maniQuat a, maniQuat b);
maniQuat maniSimdSingle_QuatNormalize(maniQuat q);
maniQuat maniSimdSingle_QuatNlerp(maniQuat a, maniQuat b, float t);
maniQuat maniSimdSingle_QuatConjugate(maniQuat q);
maniQuat maniSimdSingle_QuatInverse(maniQuat q);
maniVec3 maniSimdSingle_QuatRotateVec3(maniQuat q, maniVec3 v);
maniQuat maniSimdSingle_QuatFromMat3(const maniSimdMat3* m);
maniSimdMat3 maniSimdSingle_QuatToMat3(maniQuat q);
maniTransform maniSimdSingle_TransformMul(const maniTransform* parent, const maniTransform* child);
maniAffine maniSimdSingle_TransformToAffine(const maniTransform* x);
maniAffine maniSimdSingle_AffineMul(const maniAffine* a, const maniAffine* b);
maniVec3 maniSimdSingle_AffineTransformPoint(const maniAffine* a, maniVec3 p);
maniAffine maniSimdSingle_AffineInverse(const maniAffine* a);

/* The vector backends, declared on their architecture (defined only in a
 * build configured for them: //lib/anim/src/simd:avx2 and :neon). */
#if defined(__x86_64__)
MANI_SIMD_DECLARE_KERNELS(maniSimdAvx2_)
#endif
#if defined(__aarch64__)
MANI_SIMD_DECLARE_KERNELS(maniSimdNeon_)
#endif

/* The one dispatch place. */
#if defined(MAUL_ANIM_SIMD_AVX2)
#if !defined(__x86_64__)
#error "MAUL_ANIM_SIMD_AVX2 needs an x86-64 target"
#endif
#define MANI_SIMD_BACKEND_NAME "avx2"
#define MANI_SIMD_FN(name) maniSimdAvx2_##name
#elif defined(MAUL_ANIM_SIMD_NEON)
#if !defined(__aarch64__)
#error "MAUL_ANIM_SIMD_NEON needs an aarch64 target"
#endif
#define MANI_SIMD_BACKEND_NAME "neon"
#define MANI_SIMD_FN(name) maniSimdNeon_##name
#else
#define MANI_SIMD_BACKEND_NAME "scalar"
#define MANI_SIMD_FN(name) maniSimdScalar_##name
#endif

#define maniSimd_Add MANI_SIMD_FN(Add)
#define maniSimd_Sub MANI_SIMD_FN(Sub)
#define maniSimd_Mul MANI_SIMD_FN(Mul)
#define maniSimd_Div MANI_SIMD_FN(Div)
#define maniSimd_Min MANI_SIMD_FN(Min)
#define maniSimd_Max MANI_SIMD_FN(Max)
#define maniSimd_Sqrt MANI_SIMD_FN(Sqrt)
#define maniSimd_Select MANI_SIMD_FN(Select)
#define maniSimd_CmpEq MANI_SIMD_FN(CmpEq)
#define maniSimd_CmpNe MANI_SIMD_FN(CmpNe)
#define maniSimd_CmpLt MANI_SIMD_FN(CmpLt)
#define maniSimd_CmpLe MANI_SIMD_FN(CmpLe)
#define maniSimd_CmpGt MANI_SIMD_FN(CmpGt)
#define maniSimd_CmpGe MANI_SIMD_FN(CmpGe)
#define maniSimd_QuatMul MANI_SIMD_FN(QuatMul)
#define maniSimd_QuatNormalize MANI_SIMD_FN(QuatNormalize)
#define maniSimd_QuatNlerp MANI_SIMD_FN(QuatNlerp)
#define maniSimd_QuatConjugate MANI_SIMD_FN(QuatConjugate)
#define maniSimd_QuatInverse MANI_SIMD_FN(QuatInverse)
#define maniSimd_QuatRotateVec3 MANI_SIMD_FN(QuatRotateVec3)
#define maniSimd_QuatFromMat3 MANI_SIMD_FN(QuatFromMat3)
#define maniSimd_QuatToMat3 MANI_SIMD_FN(QuatToMat3)
#define maniSimd_TransformMul MANI_SIMD_FN(TransformMul)
#define maniSimd_TransformToAffine MANI_SIMD_FN(TransformToAffine)
#define maniSimd_TransformLerp MANI_SIMD_FN(TransformLerp)
#define maniSimd_AffineMul MANI_SIMD_FN(AffineMul)
#define maniSimd_AffineTransformPoint MANI_SIMD_FN(AffineTransformPoint)
#define maniSimd_AffineInverse MANI_SIMD_FN(AffineInverse)
#define maniSimd_Sin MANI_SIMD_FN(Sin)
#define maniSimd_Cos MANI_SIMD_FN(Cos)
#define maniSimd_SinCos MANI_SIMD_FN(SinCos)
#define maniSimd_Atan2 MANI_SIMD_FN(Atan2)
#define maniSimd_Acos MANI_SIMD_FN(Acos)
#define maniSimd_SkinGather MANI_SIMD_FN(SkinGather)
#define maniSimd_SkinBlendLinear MANI_SIMD_FN(SkinBlendLinear)
#define maniSimd_SkinBlendDualQuaternion MANI_SIMD_FN(SkinBlendDualQuaternion)
#define maniSimd_SkinBlendCenters MANI_SIMD_FN(SkinBlendCenters)
#define maniSimd_SkinMix MANI_SIMD_FN(SkinMix)
#define maniSimd_SkinDirection MANI_SIMD_FN(SkinDirection)
#define maniSimd_SkinNormal MANI_SIMD_FN(SkinNormal)
#define maniSimd_BlendTotal MANI_SIMD_FN(BlendTotal)
#define maniSimd_BlendAccumulate MANI_SIMD_FN(BlendAccumulate)
#define maniSimd_BlendFinish MANI_SIMD_FN(BlendFinish)
#define maniSimd_AddLayer MANI_SIMD_FN(AddLayer)
#define maniSimd_PoseDifference MANI_SIMD_FN(PoseDifference)
#define maniSimd_Dequantize MANI_SIMD_FN(Dequantize)
#define maniSimd_DequantizeFlat MANI_SIMD_FN(DequantizeFlat)
#define maniSimd_ComposeModels MANI_SIMD_FN(ComposeModels)
#define maniSimd_TrainAxpy MANI_SIMD_FN(TrainAxpy)
#define maniSimd_TrainMatTVec MANI_SIMD_FN(TrainMatTVec)
#define maniSimd_TrainMatTMat MANI_SIMD_FN(TrainMatTMat)
#define maniSimd_TrainOuterAcc MANI_SIMD_FN(TrainOuterAcc)
#define maniSimd_TrainAdamW MANI_SIMD_FN(TrainAdamW)

#ifdef __cplusplus
}
#endif

#endif
