/* maniPose_SolveBodySdls: selectively damped least squares (Buss and Kim,
 * 2005) over the solved part, the Jacobian decomposed by one-sided Jacobi
 * rotations of its rows (Hestenes; from the second iteration on, started
 * from the last iteration's rotations), each singular direction's step
 * bounded by gamma_i = min(1, N_i / M_i) gamma_max. */
#include <math.h>
#include <string.h>

#include "lib/anim/src/bodyik/bodyik_internal.h"
#include "lib/core/quat64.h"

#define MANI_SDLS_GAMMA_MAX 0.78539816339744830962 /* pi/4 */
#define MANI_SDLS_SWEEPS 30
#define MANI_SDLS_ORTHOGONAL 1e-6
#define MANI_SDLS_SINGULAR 1e-9

/* Scales v so its largest component's magnitude is at most bound. */
static void mani_SdlsClampMaxAbs(double* v, uint32_t n, double bound) {
    double m = 0.0;
    for (uint32_t i = 0; i < n; ++i) m = fabs(v[i]) > m ? fabs(v[i]) : m;
    if (m > bound) {
        const double f = bound / m;
        for (uint32_t i = 0; i < n; ++i) v[i] *= f;
    }
}

/* Scales a 3-vector to a length of at most bound. */
static void mani_SdlsClampLength(double v[3], double bound) {
    const double l = mcore_Length3_64(v);
    if (l > bound) {
        const double f = bound / l;
        v[0] *= f, v[1] *= f, v[2] *= f;
    }
}

/* Rows of a multiple of 4 doubles at 16-byte alignment: with GCC and
 * Clang, pairs of lanes as vectors (each lane the same IEEE operations as the
 * plain code, so the bits are the same either way). */
#if defined(__GNUC__) || defined(__clang__)
typedef double mani_SdlsPair __attribute__((vector_size(16)));
#define MANI_SDLS_PAIRS 1
#endif

/* A dot product of rows: four running sums (lane i of each group of four),
 * added (s0 + s1) + (s2 + s3). */
static double mani_SdlsRowDot(const double* a, const double* b, uint32_t n) {
#ifdef MANI_SDLS_PAIRS
    mani_SdlsPair lo = {0.0, 0.0}, hi = {0.0, 0.0};
    const mani_SdlsPair* pa = (const mani_SdlsPair*)(const void*)a;
    const mani_SdlsPair* pb = (const mani_SdlsPair*)(const void*)b;
    for (uint32_t i = 0; i < n / 2; i += 2) {
        lo += pa[i] * pb[i];
        hi += pa[i + 1] * pb[i + 1];
    }
    return (lo[0] + lo[1]) + (hi[0] + hi[1]);
#else
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (uint32_t i = 0; i < n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    return (s0 + s1) + (s2 + s3);
#endif
}

/* Rows ri, rk turned by (c, s): ri' = c ri - s rk, rk' = s ri + c rk. */
static void mani_SdlsRotate(double* ri, double* rk, uint32_t n, double c, double s) {
#ifdef MANI_SDLS_PAIRS
    mani_SdlsPair* pi = (mani_SdlsPair*)(void*)ri;
    mani_SdlsPair* pk = (mani_SdlsPair*)(void*)rk;
    const mani_SdlsPair vc = {c, c}, vs = {s, s};
    for (uint32_t l = 0; l < n / 2; ++l) {
        const mani_SdlsPair x = pi[l], y = pk[l];
        pi[l] = vc * x - vs * y;
        pk[l] = vs * x + vc * y;
    }
#else
    for (uint32_t l = 0; l < n; ++l) {
        const double x = ri[l], y = rk[l];
        ri[l] = c * x - s * y;
        rk[l] = s * x + c * y;
    }
#endif
}

/* row += f x, rows of a multiple of 4. */
static void mani_SdlsAxpy(double* row, const double* x, uint32_t n, double f) {
#ifdef MANI_SDLS_PAIRS
    mani_SdlsPair* pr = (mani_SdlsPair*)(void*)row;
    const mani_SdlsPair* px = (const mani_SdlsPair*)(const void*)x;
    const mani_SdlsPair vf = {f, f};
    for (uint32_t l = 0; l < n / 2; ++l) pr[l] += vf * px[l];
#else
    for (uint32_t l = 0; l < n; ++l) row[l] += f * x[l];
#endif
}

/* A dot product of any length (the rows of U), in order. */
static double mani_SdlsDot(const double* a, const double* b, uint32_t n) {
    double s = 0.0;
    for (uint32_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

static void mani_SdlsSwapRows(double* a, double* b, uint32_t n) {
    for (uint32_t l = 0; l < n; ++l) {
        const double t = a[l];
        a[l] = b[l];
        b[l] = t;
    }
}

/* One-sided Jacobi on the rows of A (m x n, row-major): rotations from the
 * left, each also applied to the rows of W (m x m, rows mp long), until every
 * pair of rows is orthogonal (relative MANI_SDLS_ORTHOGONAL) or
 * MANI_SDLS_SWEEPS sweeps. With A = W J on entry (W the identity, or the
 * last iteration's rotations: a warm start), row i of A is then sigma_i v_i
 * and row i of W is u_i (J = W^T A). norms: the rows' squared lengths
 * (sigma_i^2). */
static void mani_SdlsJacobi(double* A, double* W, double* norms, uint32_t m, uint32_t n, uint32_t mp) {
    for (uint32_t i = 0; i < m; ++i) norms[i] = mani_SdlsRowDot(&A[i * n], &A[i * n], n);
    /* the rows by falling length first (fewer sweeps): a selection sort,
     * the first of equal lengths first */
    for (uint32_t i = 0; i + 1 < m; ++i) {
        uint32_t best = i;
        for (uint32_t k = i + 1; k < m; ++k)
            if (norms[k] > norms[best]) best = k;
        if (best == i) continue;
        mani_SdlsSwapRows(&A[i * n], &A[best * n], n);
        mani_SdlsSwapRows(&W[i * mp], &W[best * mp], mp);
        const double t = norms[i];
        norms[i] = norms[best];
        norms[best] = t;
    }
    for (int sweep = 0; sweep < MANI_SDLS_SWEEPS; ++sweep) {
        int rotated = 0;
        for (uint32_t i = 0; i + 1 < m; ++i)
            for (uint32_t k = i + 1; k < m; ++k) {
                const double a = norms[i], b = norms[k];
                if (!(a > 0.0) || !(b > 0.0)) continue;
                double* ri = &A[i * n];
                double* rk = &A[k * n];
                const double g = mani_SdlsRowDot(ri, rk, n);
                if (!(fabs(g) > MANI_SDLS_ORTHOGONAL * sqrt(a * b))) continue;
                rotated = 1;
                const double zeta = (b - a) / (2.0 * g);
                const double t = (zeta >= 0.0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
                const double c = 1.0 / sqrt(1.0 + t * t), s = c * t;
                mani_SdlsRotate(ri, rk, n, c, s);
                mani_SdlsRotate(&W[i * mp], &W[k * mp], mp, c, s);
                norms[i] = a - t * g;
                norms[k] = b + t * g;
            }
        /* the updated norms drift: recomputed each sweep */
        for (uint32_t i = 0; i < m; ++i) norms[i] = mani_SdlsRowDot(&A[i * n], &A[i * n], n);
        if (!rotated) break;
    }
}

/* The Jacobian, scaled, and the clamped miss. */
static void mani_SdlsBuild(mani_BodyWork* w, double* J, double* e, double* rho) {
    const uint32_t m = w->rows, n = w->columns;
    const double dmax = 0.5 * w->meanLength;
    memset(J, 0, sizeof(double) * m * n);
    uint32_t row = 0;
    for (uint32_t j = 0; j < w->effectorCount; ++j) {
        const mani_BodyEff* ef = &w->effs[j];
        const mani_BodySlot* es = &w->slots[ef->slot];
        double miss[3] = {ef->goal[0] - es->P[0], ef->goal[1] - es->P[1], ef->goal[2] - es->P[2]};
        mani_SdlsClampLength(miss, dmax);
        for (int k = 0; k < 3; ++k) e[row + k] = ef->strength * miss[k];
        const uint32_t rot = ef->rotationWeight > 0.0 ? row + 3 : UINT32_MAX;
        const double rs = ef->strength * ef->rotationWeight;
        if (rot != UINT32_MAX) {
            double inv[4], turn[4], v[3];
            mcore_QuatConj64(es->Q, inv);
            mcore_QuatMul64(ef->g, inv, turn);
            mani_BodyLog(turn, v);
            for (int k = 0; k < 3; ++k) v[k] *= ef->reach;
            mani_SdlsClampLength(v, dmax);
            for (int k = 0; k < 3; ++k) e[rot + k] = rs * v[k];
        }
        uint32_t col = 0;
        for (uint32_t l = 0; l < w->slotCount; ++l) {
            const mani_BodySlot* s = &w->slots[l];
            if (!s->turns) continue;
            if (s->effectors & (1u << j)) {
                const double cs = 1.0 - s->stiffness, ps = cs * ef->strength;
                const double d[3] = {es->P[0] - s->P[0], es->P[1] - s->P[1], es->P[2] - s->P[2]};
                /* e_k x d for the model axes */
                double* r0 = &J[row * n + col];
                double* r1 = &J[(row + 1) * n + col];
                double* r2 = &J[(row + 2) * n + col];
                r0[0] = 0.0, r1[0] = -ps * d[2], r2[0] = ps * d[1];
                r0[1] = ps * d[2], r1[1] = 0.0, r2[1] = -ps * d[0];
                r0[2] = -ps * d[1], r1[2] = ps * d[0], r2[2] = 0.0;
                if (rot != UINT32_MAX) {
                    const double v = cs * rs * ef->reach;
                    for (int k = 0; k < 3; ++k) J[(rot + k) * n + col + k] = v;
                }
            }
            col += 3;
        }
        if (w->topMode == maniBodyTopFree)
            for (int k = 0; k < 3; ++k) J[(row + k) * n + col + k] = ef->strength * w->meanLength;
        row += rot != UINT32_MAX ? 6 : 3;
    }
    /* rho_l: the sum over 3-row blocks of the block's column length */
    for (uint32_t l = 0; l < n; ++l) {
        double sum = 0.0;
        for (uint32_t b = 0; b < m; b += 3) {
            const double x = J[b * n + l], y = J[(b + 1) * n + l], z = J[(b + 2) * n + l];
            sum += sqrt((x * x + y * y) + z * z);
        }
        rho[l] = sum;
    }
}

/* The step: each singular direction's, bounded, summed and bounded (A and
 * W as mani_SdlsJacobi leaves them). */
static void mani_SdlsStep(const mani_BodyWork* w, const double* A, const double* W, uint32_t mp, const double* norms,
                          const double* e, const double* rho, double* part, double* phi) {
    const uint32_t m = w->rows, n = w->columns;
    double smax = 0.0;
    for (uint32_t i = 0; i < m; ++i) smax = norms[i] > smax ? norms[i] : smax;
    smax = sqrt(smax);
    memset(phi, 0, sizeof(double) * n);
    for (uint32_t i = 0; i < m; ++i) {
        const double sigma = sqrt(norms[i]);
        if (!(sigma > MANI_SDLS_SINGULAR * smax)) continue;
        const double* sv = &A[i * n]; /* sigma v */
        const double s2 = norms[i];
        const double* u = &W[i * mp];
        const double alpha = mani_SdlsDot(u, e, m);
        double N = 0.0;
        for (uint32_t b = 0; b < m; b += 3) N += sqrt((u[b] * u[b] + u[b + 1] * u[b + 1]) + u[b + 2] * u[b + 2]);
        double M = 0.0;
        for (uint32_t l = 0; l < n; ++l) M += fabs(sv[l] / sigma) * rho[l];
        M /= sigma;
        const double gamma = (M > N ? N / M : 1.0) * MANI_SDLS_GAMMA_MAX;
        const double f = alpha / s2; /* sigma^-1 alpha v = alpha / sigma^2 (sigma v) */
        for (uint32_t l = 0; l < n; ++l) part[l] = f * sv[l];
        mani_SdlsClampMaxAbs(part, n, gamma);
        for (uint32_t l = 0; l < n; ++l) phi[l] += part[l];
    }
    mani_SdlsClampMaxAbs(phi, n, MANI_SDLS_GAMMA_MAX);
    for (uint32_t l = 0; l + 3 <= 3 * w->turning; l += 3) mani_SdlsClampLength(&phi[l], MANI_SDLS_GAMMA_MAX);
}

/* The step applied: each bone's model-axis turn into its parent's frame,
 * from the frames before the step; a free top's move; then limits. */
static void mani_SdlsApply(mani_BodyWork* w, const maniBodySolve* solve, const double* phi) {
    uint32_t col = 0;
    for (uint32_t l = 0; l < w->slotCount; ++l) {
        mani_BodySlot* s = &w->slots[l];
        if (!s->turns) continue;
        const double cs = 1.0 - s->stiffness;
        const double v[3] = {cs * phi[col], cs * phi[col + 1], cs * phi[col + 2]};
        col += 3;
        const double* Qp = s->parent < 0 ? w->aboveQ : w->slots[s->parent].Q;
        double turn[4], inv[4], t[4];
        mani_BodyExp(v, turn);
        mcore_QuatConj64(Qp, inv);
        mcore_QuatMul64(turn, Qp, t);
        mcore_QuatMul64(inv, t, t);
        mcore_QuatMul64(t, s->r, s->r);
        mcore_QuatNormalize64(s->r);
    }
    if (w->topMode == maniBodyTopFree)
        for (int k = 0; k < 3; ++k) w->slots[0].P[k] += w->meanLength * phi[col + k];
    for (uint32_t l = 0; l < w->slotCount; ++l)
        if (w->slots[l].turns) mani_BodyLimit(w, solve, l, w->slots[l].r);
    mani_BodyCompose(w);
}

maniResult maniPose_SolveBodySdls(maniPose* pose, const maniSkeleton* skeleton, const maniBodySolve* solve,
                                  void* scratch, size_t scratchSize, bool* reachedOut) {
    mani_BodyWork* w;
    const maniResult r = mani_BodyBegin(pose, skeleton, solve, scratch, scratchSize, 1, &w);
    if (r != mani_success) return r;
    const uint32_t m = w->rows, n = w->columns, mp = (m + 3u) & ~3u;
    double* J = w->sdls;
    double* J0 = J + (size_t)m * n;
    double* W = J0 + (size_t)m * n;
    double* e = W + (size_t)m * mp;
    double* norms = e + m;
    double* rho = norms + m;
    double* part = rho + n;
    double* phi = part + n;
    memset(W, 0, sizeof(double) * m * mp);
    for (uint32_t i = 0; i < m; ++i) W[i * mp + i] = 1.0;
    int reached = mani_BodyReached(w, solve->tolerance);
    for (uint32_t it = 0; it < solve->iterations && !reached && n > 0; ++it) {
        if (it == 0) {
            mani_SdlsBuild(w, J, e, rho);
        } else {
            /* warm start: the last iteration's rotations applied to the new
             * Jacobian (A = W J), the sweeps then continue from there */
            mani_SdlsBuild(w, J0, e, rho);
            for (uint32_t i = 0; i < m; ++i) {
                double* row = &J[(size_t)i * n];
                memset(row, 0, sizeof(double) * n);
                for (uint32_t q = 0; q < m; ++q) {
                    const double f = W[(size_t)i * mp + q];
                    if (f != 0.0) mani_SdlsAxpy(row, &J0[(size_t)q * n], n, f);
                }
            }
        }
        mani_SdlsJacobi(J, W, norms, m, n, mp);
        mani_SdlsStep(w, J, W, mp, norms, e, rho, part, phi);
        mani_SdlsApply(w, solve, phi);
        reached = mani_BodyReached(w, solve->tolerance);
    }
    mani_BodyWrite(w, pose);
    if (reachedOut != NULL) *reachedOut = reached != 0;
    return mani_success;
}
