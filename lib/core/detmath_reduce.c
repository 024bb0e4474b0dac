/* lib/core/detmath_reduce.c: exact helpers of the math core -- the
 * correctly rounded scaling of a double-double by 2^m, the pi/2 range
 * reductions (Cody-Waite and an integer Payne-Hanek) and fmod. */
#include "lib/core/detmath.h"
#include "lib/core/detmath_internal.h"

double mcore_ScaleDD(double hi, double lo, int m) {
    if (hi == 0.0) return hi;
    int eh = mc_ilogb(hi);
    if (m + eh >= -1022) {
        /* Normal (or overflowing) result: round once, then scale exactly. */
        return mc_ldexp(hi + lo, m);
    }
    if (m + 1022 < -70) return mc_copysign(0.0, hi); /* below 2^-1080: rounds to 0 */
    /* Subnormal result. u + l = (hi + lo) * 2^(m+1022), |u| < 1, exact
     * (normal range). RN(1 + |u + l|) has the granularity 2^-52, which after
     * the final scaling by 2^-1022 is the subnormal spacing 2^-1074; w - 1
     * and the scaling are exact. */
    double s = mc_pow2(m + 1022);
    double u = mc_fabs(hi * s);
    double l = (hi < 0.0 ? -lo : lo) * s;
    double e;
    double t = mc_two_sum(1.0, u, &e);
    double w = t + (e + l);
    double r = (w - 1.0) * 0x1p-1022;
    return hi < 0.0 ? -r : r;
}

/* Payne-Hanek: |x| > pi/4 finite. x = m * 2^e with a 53-bit integer m; the
 * bits of 2/pi of weight >= 2^(2-e) contribute multiples of 4 to x*2/pi and
 * are skipped, the next 192 bits W are multiplied by m exactly in 32-bit
 * limbs: x*2/pi = m*W*2^-190 + (a multiple of 4) + O(2^-137). The two bits
 * above the 190 fraction bits are k mod 4; the fraction, rounded to the
 * nearest quadrant, goes to a double-double f in [-1/2, 1/2] from three
 * 48-bit chunks, and r = f * pi/2 in double-double. */
int mcore_RemPiO2Big(double x, double* hi, double* lo) {
    uint64_t u = mc_bits(x);
    int neg_x = (int)(u >> 63);
    int eb = (int)((u >> 52) & 0x7FF);
    uint64_t m = (u & MC_MANT) | (UINT64_C(1) << 52);
    int e = eb - 1023 - 52;
    int p0 = e + 62; /* stream bit of 2/pi bit index e-1 (64 zero bits lead) */
    int wi = p0 >> 5, sh = p0 & 31;
    uint32_t wl[6]; /* little-endian limbs of W */
    for (int k = 0; k < 6; k++) {
        uint32_t a = MCORE_2OPI_BITS[wi + k];
        uint32_t b = MCORE_2OPI_BITS[wi + k + 1];
        uint32_t w = sh ? (uint32_t)((a << sh) | (b >> (32 - sh))) : a;
        wl[5 - k] = w;
    }
    uint32_t P[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t mlimb[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
    for (int a = 0; a < 2; a++) {
        uint64_t carry = 0;
        for (int i = 0; i < 6; i++) {
            uint64_t t = (uint64_t)mlimb[a] * wl[i] + P[a + i] + carry;
            P[a + i] = (uint32_t)t;
            carry = t >> 32;
        }
        P[a + 6] = (uint32_t)carry;
    }
    int q = (int)((P[5] >> 30) & 3);
    uint64_t L0 = (uint64_t)P[0] | ((uint64_t)P[1] << 32);
    uint64_t L1 = (uint64_t)P[2] | ((uint64_t)P[3] << 32);
    uint64_t L2 = ((uint64_t)P[4] | ((uint64_t)P[5] << 32)) & ((UINT64_C(1) << 62) - 1);
    int neg_f = 0;
    if ((L2 >> 61) & 1) { /* fraction >= 1/2: next quadrant, f = frac - 1 */
        neg_f = 1;
        q = (q + 1) & 3;
        L0 = ~L0;
        L1 = ~L1;
        L2 = ~L2 & ((UINT64_C(1) << 62) - 1);
        L0 += 1;
        if (L0 == 0) {
            L1 += 1;
            if (L1 == 0) L2 = (L2 + 1) & ((UINT64_C(1) << 62) - 1);
        }
    }
    const uint64_t M48 = (UINT64_C(1) << 48) - 1;
    uint64_t c0 = (L2 >> 14) & M48;
    uint64_t c1 = ((L2 & 0x3FFF) << 34) | (L1 >> 30);
    uint64_t c2 = ((L1 & 0x3FFFFFFF) << 18) | (L0 >> 46);
    double d0 = (double)c0 * 0x1p-48, d1 = (double)c1 * 0x1p-96, d2 = (double)c2 * 0x1p-144;
    double e1;
    double s = mc_two_sum(d0, d1, &e1);
    double fl;
    double fh = mc_fast_two_sum(s, e1 + d2, &fl);
    double pe;
    double p = mc_two_prod(fh, MCORE_PIO2_HI, &pe);
    pe += fh * MCORE_PIO2_LO + fl * MCORE_PIO2_HI;
    double rl;
    double rh = mc_fast_two_sum(p, pe, &rl);
    if (neg_f ^ neg_x) {
        rh = -rh;
        rl = -rl;
    }
    if (neg_x) q = (4 - q) & 3;
    *hi = rh;
    *lo = rl;
    return q;
}

int mcore_remPiO2(double x, double* hi, double* lo) {
    double ax = mc_fabs(x);
    if (!mc_isfinite(x)) {
        *hi = mc_canon(x - x);
        *lo = 0.0;
        return 0;
    }
    return mc_rem_pio2_finite(x, ax, hi, lo);
}

int mcore_remPiO2f(float x, double* r) {
    double xd = (double)x;
    if (!(mc_fabs(xd) < 0x1p17)) {
        double lo;
        if (!mc_isfinite(xd)) {
            *r = mc_canon(xd - xd);
            return 0;
        }
        return mcore_RemPiO2Big(xd, r, &lo);
    }
    /* Binary32 fast path: the operation sequence documented at mcore_sinf. */
    double t = xd * MCORE_2_PI + 0x1.8p52;
    double kd = t - 0x1.8p52;
    double rr = xd - kd * MCORE_PIO2_F1;
    rr = rr - kd * MCORE_PIO2_F2;
    *r = rr;
    return (int)(mc_bits(t) & 3);
}

static double fmod_impl(double x, double y) {
    uint64_t ux = mc_bits(x), uy = mc_bits(y);
    uint64_t sign = ux & MC_SIGN;
    uint64_t ax = ux & MC_ABS, ay = uy & MC_ABS;
    if (ay == 0 || ax >= MC_INF_BITS || ay > MC_INF_BITS) return (x * y) / (x * y);
    if (ax < ay) return x;
    if (ax == ay) return mc_dbl(sign);
    int ex = (int)(ax >> 52), ey = (int)(ay >> 52);
    uint64_t mx = ax & MC_MANT, my = ay & MC_MANT;
    if (ex) mx |= UINT64_C(1) << 52; else ex = 1;
    if (ey) my |= UINT64_C(1) << 52; else ey = 1;
    /* x = mx*2^(ex-1075), y = my*2^(ey-1075); r = mx*2^(ex-ey) mod my, exactly. */
    uint64_t r = mx % my;
    int d = ex - ey;
    while (d > 0 && r != 0) {
        int s = d > 11 ? 11 : d;
        r = (r << s) % my;
        d -= s;
    }
    if (r == 0) return mc_dbl(sign);
    while (r < (UINT64_C(1) << 52) && ey > 1) {
        r <<= 1;
        ey--;
    }
    uint64_t bits = r >= (UINT64_C(1) << 52) ? (((uint64_t)ey << 52) | (r & MC_MANT)) : r;
    return mc_dbl(sign | bits);
}

static float fmodf_impl(float x, float y) { return (float)mcore_fmod((double)x, (double)y); }

/* Public entry points: any NaN result becomes the canonical quiet NaN. */
double mcore_fmod(double x, double y) { return mc_canon(fmod_impl(x, y)); }
float mcore_fmodf(float x, float y) { return mc_canonf(fmodf_impl(x, y)); }
