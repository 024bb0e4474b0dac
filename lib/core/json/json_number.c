/* lib/core/json: numbers. Text to binary64 and binary32 correctly rounded,
 * text to integers, and binary64 and binary32 to their shortest text.
 *
 * Reading: an exact fast path (Clinger 1990: at most 15 significant digits
 * and a power of ten that binary64 holds exactly, one correctly rounded
 * multiplication or division; binary32 takes that binary64 when it is not a
 * binary32 midpoint, the one case where rounding twice could differ from
 * rounding once), else exact big integers: the digits D and the power of ten
 * as a ratio N / S, scaled by a power of two until the quotient holds the
 * format's precision and two more bits, divided exactly, then rounded once
 * with the remainder as the sticky bit. Past MC_MAX_DIGITS significant digits
 * the rest only matter as "more than zero" (a digit 1 appended stands for
 * them: a midpoint of either format has fewer digits).
 *
 * Writing: Steele and White's free-format digit generation with Burger and
 * Dybvig's scaling (1996), in exact big integers: the digits stop as soon as
 * the text read back would round to the value (the rounding interval's ends
 * included when the significand is even, as round-to-nearest-even reads
 * them), and the last digit is the nearer of the two candidates (a tie: the
 * even one). ECMAScript's Number::toString then lays the digits out. */
#include <stdint.h>
#include <string.h>

#include "lib/core/json/json.h"

/* ---- big integers: little-endian 32-bit words ---- */

#define MC_BIG_WORDS 140 /* 4480 bits: the largest is about 3900 (1143 decimal digits scaled by 2^57) */
#define MC_MAX_DIGITS 800

typedef struct mc_Big {
    uint32_t n; /* words in use; the top one is not 0 */
    uint32_t w[MC_BIG_WORDS];
} mc_Big;

static void mc_BigSet(mc_Big* b, uint64_t v) {
    b->n = 0;
    while (v != 0) {
        b->w[b->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static void mc_BigMulSmall(mc_Big* b, uint32_t m) {
    uint64_t carry = 0;
    for (uint32_t i = 0; i < b->n; ++i) {
        const uint64_t t = (uint64_t)b->w[i] * m + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry != 0) b->w[b->n++] = (uint32_t)carry;
}

static void mc_BigAddSmall(mc_Big* b, uint32_t a) {
    uint64_t carry = a;
    for (uint32_t i = 0; i < b->n && carry != 0; ++i) {
        const uint64_t t = (uint64_t)b->w[i] + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry != 0) b->w[b->n++] = (uint32_t)carry;
}

static void mc_BigMulPow10(mc_Big* b, uint32_t e) {
    while (e >= 9) {
        mc_BigMulSmall(b, 1000000000u);
        e -= 9;
    }
    static const uint32_t small[9] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u};
    if (e > 0) mc_BigMulSmall(b, small[e]);
}

static void mc_BigShiftLeft(mc_Big* b, uint32_t k) {
    if (b->n == 0) return;
    const uint32_t words = k / 32, bits = k % 32;
    if (bits != 0) {
        uint32_t carry = 0;
        for (uint32_t i = 0; i < b->n; ++i) {
            const uint32_t v = b->w[i];
            b->w[i] = (v << bits) | carry;
            carry = v >> (32 - bits);
        }
        if (carry != 0) b->w[b->n++] = carry;
    }
    if (words != 0) {
        for (uint32_t i = b->n; i-- > 0;) b->w[i + words] = b->w[i];
        for (uint32_t i = 0; i < words; ++i) b->w[i] = 0;
        b->n += words;
    }
}

static void mc_BigShiftRight1(mc_Big* b) {
    for (uint32_t i = 0; i < b->n; ++i) b->w[i] = (b->w[i] >> 1) | (i + 1 < b->n ? b->w[i + 1] << 31 : 0);
    while (b->n > 0 && b->w[b->n - 1] == 0) b->n--;
}

static int mc_BigCmp(const mc_Big* a, const mc_Big* b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (uint32_t i = a->n; i-- > 0;)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* a -= b, a >= b. */
static void mc_BigSub(mc_Big* a, const mc_Big* b) {
    int64_t borrow = 0;
    for (uint32_t i = 0; i < a->n; ++i) {
        int64_t t = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
        borrow = t < 0;
        a->w[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
    }
    while (a->n > 0 && a->w[a->n - 1] == 0) a->n--;
}

/* Compares a + b with c. */
static int mc_BigCmpSum(const mc_Big* a, const mc_Big* b, const mc_Big* c) {
    mc_Big t; /* only its n words are written and read */
    uint64_t carry = 0;
    const uint32_t n = a->n > b->n ? a->n : b->n;
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t s = (uint64_t)(i < a->n ? a->w[i] : 0) + (i < b->n ? b->w[i] : 0) + carry;
        t.w[i] = (uint32_t)s;
        carry = s >> 32;
    }
    t.n = n;
    if (carry != 0) t.w[t.n++] = (uint32_t)carry;
    return mc_BigCmp(&t, c);
}

/* The value of a big integer of at most two words. */
static uint64_t mc_Big64(const mc_Big* b) {
    return b->n == 0 ? 0 : b->n == 1 ? b->w[0] : ((uint64_t)b->w[1] << 32) | b->w[0];
}

static uint32_t mc_BigBits(const mc_Big* b) {
    if (b->n == 0) return 0;
    uint32_t top = b->w[b->n - 1], bits = 0;
    while (top != 0) {
        bits++;
        top >>= 1;
    }
    return (b->n - 1) * 32 + bits;
}

/* ---- the number's text ---- */

/* A number split into its sign, significant digits (no leading zeros, at
 * most MC_MAX_DIGITS, no trailing zeros) and decimal exponent: the value is
 * 0.d1d2...dn times 10^point, plus something more than zero and less than a
 * unit of the last digit when `more`. */
typedef struct mc_Decimal {
    int negative;
    int integer;  /* no fraction, no exponent in the text */
    int more;     /* nonzero digits past MC_MAX_DIGITS */
    uint32_t n;   /* significant digits */
    int64_t point;
    uint8_t d[MC_MAX_DIGITS];
} mc_Decimal;

static int mc_Digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* Splits text[0, length), which must be exactly one number of RFC 8259. */
static mcore_JsonReason mc_Split(const char* text, size_t length, mc_Decimal* out) {
    const uint8_t* s = (const uint8_t*)text;
    size_t i = 0;
    if (text == NULL && length != 0) return mcore_jsonInvalid;
    out->negative = 0;
    out->integer = 1;
    out->more = 0;
    out->n = 0;
    int64_t point = 0; /* digits seen before the decimal point, once significant */
    if (i < length && s[i] == '-') {
        out->negative = 1;
        i++;
    }
    if (i >= length || !mc_Digit(s[i])) return mcore_jsonNumberForm;
    if (s[i] == '0') {
        i++;
        if (i < length && mc_Digit(s[i])) return mcore_jsonNumberForm;
    } else {
        while (i < length && mc_Digit(s[i])) {
            if (out->n < MC_MAX_DIGITS) out->d[out->n++] = (uint8_t)(s[i] - '0');
            else if (s[i] != '0') out->more = 1;
            point++;
            i++;
        }
    }
    if (i < length && s[i] == '.') {
        out->integer = 0;
        i++;
        if (i >= length || !mc_Digit(s[i])) return mcore_jsonNumberForm;
        while (i < length && mc_Digit(s[i])) {
            if (out->n == 0 && s[i] == '0') {
                point--; /* a leading zero of the fraction */
            } else if (out->n < MC_MAX_DIGITS) {
                out->d[out->n++] = (uint8_t)(s[i] - '0');
            } else if (s[i] != '0') {
                out->more = 1;
            }
            i++;
        }
    }
    if (i < length && (s[i] == 'e' || s[i] == 'E')) {
        out->integer = 0;
        i++;
        int eneg = 0;
        if (i < length && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i] == '-';
            i++;
        }
        if (i >= length || !mc_Digit(s[i])) return mcore_jsonNumberForm;
        int64_t e = 0;
        while (i < length && mc_Digit(s[i])) {
            if (e < 100000000) e = e * 10 + (s[i] - '0'); /* saturates far past any format */
            i++;
        }
        point += eneg ? -e : e;
    }
    if (i != length) return mcore_jsonNumberForm;
    /* trailing zeros go, unless digits past the kept ones follow: the 1 that
     * stands for those must sit right after the last kept digit */
    if (!out->more)
        while (out->n > 0 && out->d[out->n - 1] == 0) out->n--;
    out->point = point;
    return mcore_jsonOk;
}

/* ---- decimal to binary ---- */

typedef struct mc_Format {
    int p;      /* precision in bits, the hidden bit included */
    int emin;   /* exponent of the smallest normal */
    int bias;
    int maxBiased; /* the biased exponent of infinity */
    int64_t overDecimal;  /* point past which every value overflows */
    int64_t underDecimal; /* point below which every value rounds to zero */
} mc_Format;

static const mc_Format mc_binary64 = {53, -1022, 1023, 2047, 310, -330};
static const mc_Format mc_binary32 = {24, -126, 127, 255, 40, -47};

/* The magnitude's bits in the format, correctly rounded; 0 with *range set
 * for an overflow. */
static uint64_t mc_Round(const mc_Decimal* dec, const mc_Format* f, int* range) {
    *range = 0;
    if (dec->n == 0) return 0;
    if (dec->point > f->overDecimal) {
        *range = 1;
        return 0;
    }
    if (dec->point < f->underDecimal) return 0;
    /* value = D * 10^E with D the digits (and a 1 for `more`) */
    mc_Big N, S;
    mc_BigSet(&N, 0);
    uint32_t i = 0;
    while (i < dec->n) {
        uint32_t chunk = 0, k = 0;
        while (k < 9 && i < dec->n) {
            chunk = chunk * 10 + dec->d[i++];
            k++;
        }
        mc_BigMulPow10(&N, k);
        mc_BigAddSmall(&N, chunk);
    }
    int64_t E = dec->point - (int64_t)dec->n;
    if (dec->more) {
        mc_BigMulSmall(&N, 10);
        mc_BigAddSmall(&N, 1);
        E -= 1;
    }
    mc_BigSet(&S, 1);
    if (E >= 0) mc_BigMulPow10(&N, (uint32_t)E);
    else mc_BigMulPow10(&S, (uint32_t)(-E));
    const int64_t bl = (int64_t)mc_BigBits(&N) - (int64_t)mc_BigBits(&S);
    const int64_t k = f->p + 2 - bl; /* N * 2^k / S in [2^(p+1), 2^(p+3)) */
    if (k >= 0) mc_BigShiftLeft(&N, (uint32_t)k);
    else mc_BigShiftLeft(&S, (uint32_t)(-k));
    /* q = floor(N / S) by shift and subtract, q < 2^(p+3) */
    mc_Big T = S;
    const int top = f->p + 3;
    mc_BigShiftLeft(&T, (uint32_t)top);
    uint64_t q = 0;
    for (int b = top; b >= 0; --b) {
        if (mc_BigCmp(&N, &T) >= 0) {
            mc_BigSub(&N, &T);
            q |= (uint64_t)1 << b;
        }
        mc_BigShiftRight1(&T);
    }
    const int sticky = N.n != 0;
    int qbits = 0;
    for (uint64_t t = q; t != 0; t >>= 1) qbits++;
    const int64_t lead = qbits - 1 - k; /* exponent of the leading bit */
    int64_t u = lead - (f->p - 1);      /* exponent of the last kept bit */
    if (u < f->emin - (f->p - 1)) u = f->emin - (f->p - 1);
    const int64_t s = u + k; /* bits of q to drop, >= 2 */
    uint64_t mant;
    if (s > 63) {
        mant = 0; /* q < 2^(p+3) <= 2^(s-1): below half the smallest subnormal */
    } else {
        mant = q >> s;
        const uint64_t rem = q & (((uint64_t)1 << s) - 1), half = (uint64_t)1 << (s - 1);
        if (rem > half || (rem == half && (sticky || (mant & 1)))) mant++;
    }
    if (mant == (uint64_t)1 << f->p) {
        mant >>= 1;
        u++;
    }
    if (mant == 0) return 0;
    if (mant >= (uint64_t)1 << (f->p - 1)) {
        const int64_t biased = u + (f->p - 1) + f->bias;
        if (biased >= f->maxBiased) {
            *range = 1;
            return 0;
        }
        return ((uint64_t)biased << (f->p - 1)) | (mant - ((uint64_t)1 << (f->p - 1)));
    }
    return mant; /* subnormal */
}

static const double mc_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Clinger's exact case: *out correctly rounded, or 0 when it does not apply. */
static int mc_Fast(const mc_Decimal* dec, double* out) {
    if (dec->more || dec->n > 15) return 0;
    uint64_t D = 0;
    for (uint32_t i = 0; i < dec->n; ++i) D = D * 10 + dec->d[i];
    int64_t E = dec->point - (int64_t)dec->n;
    double v = (double)D; /* exact: D < 10^15 < 2^53 */
    if (E < 0) {
        if (E < -22) return 0;
        v = v / mc_pow10[-E];
    } else {
        if (E > 22) {
            /* D * 10^(E-22) may still be an exact integer below 10^15 */
            if (E - 22 > 15 - (int64_t)dec->n) return 0;
            v = v * mc_pow10[E - 22];
            E = 22;
        }
        v = v * mc_pow10[E];
    }
    *out = v;
    return 1;
}

/* The common short number in one scan: at most 15 significant digits and a
 * power of ten binary64 holds exactly (|E| <= 22). *out gets the magnitude,
 * correctly rounded (one exact-operand multiplication or division); 0 when
 * the text is anything else (the full path then reads or refuses it). */
static int mc_Quick(const char* text, size_t length, int* negative, double* out) {
    const uint8_t* s = (const uint8_t*)text;
    size_t i = 0;
    uint64_t D = 0;
    int digits = 0;
    int64_t E = 0;
    if (text == NULL || length == 0) return 0;
    *negative = s[0] == '-';
    i = (size_t)*negative;
    if (i >= length) return 0;
    if (s[i] == '0') {
        i++;
        if (i < length && mc_Digit(s[i])) return 0;
    } else {
        while (i < length && mc_Digit(s[i])) {
            if (++digits > 15) return 0;
            D = D * 10 + (uint64_t)(s[i] - '0');
            i++;
        }
        if (digits == 0) return 0;
    }
    if (i < length && s[i] == '.') {
        i++;
        if (i >= length || !mc_Digit(s[i])) return 0;
        while (i < length && mc_Digit(s[i])) {
            if (D != 0 || s[i] != '0')
                if (++digits > 15) return 0;
            D = D * 10 + (uint64_t)(s[i] - '0');
            E--;
            i++;
        }
    }
    if (i < length && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int eneg = 0;
        if (i < length && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i] == '-';
            i++;
        }
        if (i >= length || !mc_Digit(s[i])) return 0;
        int64_t x = 0;
        while (i < length && mc_Digit(s[i])) {
            if (x > 1000) return 0;
            x = x * 10 + (s[i] - '0');
            i++;
        }
        E += eneg ? -x : x;
    }
    if (i != length) return 0;
    if (D == 0) {
        *out = 0.0;
        return 1;
    }
    if (E < -22 || E > 22) return 0;
    const double v = (double)D; /* exact: D < 10^15 */
    *out = E < 0 ? v / mc_pow10[-E] : v * mc_pow10[E];
    return 1;
}

static uint64_t mc_Bits64(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

mcore_JsonReason mcore_JsonParseDouble(const char* text, size_t length, double* out) {
    if (out == NULL) return mcore_jsonInvalid;
    int negative;
    double q;
    if (mc_Quick(text, length, &negative, &q)) {
        *out = negative ? -q : q;
        return mcore_jsonOk;
    }
    mc_Decimal dec;
    const mcore_JsonReason r = mc_Split(text, length, &dec);
    if (r != mcore_jsonOk) return r;
    double v;
    if (!mc_Fast(&dec, &v)) {
        int range;
        const uint64_t bits = mc_Round(&dec, &mc_binary64, &range);
        if (range) return mcore_jsonRange;
        memcpy(&v, &bits, sizeof v);
    }
    *out = dec.negative ? -v : v;
    return mcore_jsonOk;
}

mcore_JsonReason mcore_JsonParseFloat(const char* text, size_t length, float* out) {
    if (out == NULL) return mcore_jsonInvalid;
    int negative;
    double q;
    if (mc_Quick(text, length, &negative, &q) &&
        (q == 0 || (q >= 0x1p-126 && q < 0x1p127 && (mc_Bits64(q) & 0x1FFFFFFFu) != 0x10000000u))) {
        const float f = (float)q; /* see below: not a binary32 midpoint, so rounding twice is rounding once */
        *out = negative ? -f : f;
        return mcore_jsonOk;
    }
    mc_Decimal dec;
    const mcore_JsonReason r = mc_Split(text, length, &dec);
    if (r != mcore_jsonOk) return r;
    float v;
    double d;
    /* Narrowing the correctly rounded binary64 rounds the same as rounding
     * once unless it is exactly a binary32 midpoint (its 29 bits below
     * binary32's precision 1000...0); normal binary32 range only. */
    if (mc_Fast(&dec, &d) && d >= 0x1p-126 && d < 0x1p127 && (mc_Bits64(d) & 0x1FFFFFFFu) != 0x10000000u) {
        v = (float)d;
    } else {
        int range;
        const uint64_t bits = mc_Round(&dec, &mc_binary32, &range);
        if (range) return mcore_jsonRange;
        const uint32_t b32 = (uint32_t)bits;
        memcpy(&v, &b32, sizeof v);
    }
    *out = dec.negative ? -v : v;
    return mcore_jsonOk;
}

static mcore_JsonReason mc_ParseMagnitude(const char* text, size_t length, int* negative, uint64_t* mag) {
    mc_Decimal dec;
    const mcore_JsonReason r = mc_Split(text, length, &dec);
    if (r != mcore_jsonOk) return r;
    if (!dec.integer) return mcore_jsonNotInteger;
    if (dec.n == 0) {
        *negative = dec.negative;
        *mag = 0;
        return mcore_jsonOk;
    }
    if (dec.point > 20) return mcore_jsonRange;
    uint64_t v = 0;
    for (int64_t i = 0; i < dec.point; ++i) {
        const uint64_t digit = i < (int64_t)dec.n ? dec.d[i] : 0;
        if (v > (UINT64_MAX - digit) / 10) return mcore_jsonRange;
        v = v * 10 + digit;
    }
    *negative = dec.negative;
    *mag = v;
    return mcore_jsonOk;
}

mcore_JsonReason mcore_JsonParseInt64(const char* text, size_t length, int64_t* out) {
    if (out == NULL) return mcore_jsonInvalid;
    int negative;
    uint64_t mag;
    const mcore_JsonReason r = mc_ParseMagnitude(text, length, &negative, &mag);
    if (r != mcore_jsonOk) return r;
    if (negative) {
        if (mag > (uint64_t)INT64_MAX + 1) return mcore_jsonRange;
        *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else {
        if (mag > (uint64_t)INT64_MAX) return mcore_jsonRange;
        *out = (int64_t)mag;
    }
    return mcore_jsonOk;
}

mcore_JsonReason mcore_JsonParseUint64(const char* text, size_t length, uint64_t* out) {
    if (out == NULL) return mcore_jsonInvalid;
    int negative;
    uint64_t mag;
    const mcore_JsonReason r = mc_ParseMagnitude(text, length, &negative, &mag);
    if (r != mcore_jsonOk) return r;
    if (negative && mag != 0) return mcore_jsonRange;
    *out = mag;
    return mcore_jsonOk;
}

/* ---- binary to shortest decimal ---- */

/* The shortest digits of f * 2^e (f > 0, f < 2^p, e >= eMin) into d, their
 * count returned, *point set: the value reads as 0.d1d2... * 10^point. */
static int mc_Shortest(uint64_t f, int e, int p, int eMin, uint8_t* d, int* point) {
    mc_Big r, s, mp, mm;
    const int even = (f & 1) == 0;
    const int boundary = f == (uint64_t)1 << (p - 1) && e > eMin; /* the gap below is half the gap above */
    if (e >= 0) {
        mc_BigSet(&r, f);
        mc_BigShiftLeft(&r, (uint32_t)e + (boundary ? 2 : 1));
        mc_BigSet(&s, boundary ? 4 : 2);
        mc_BigSet(&mp, 1);
        mc_BigShiftLeft(&mp, (uint32_t)e + (boundary ? 1 : 0));
        mc_BigSet(&mm, 1);
        mc_BigShiftLeft(&mm, (uint32_t)e);
    } else {
        mc_BigSet(&r, f);
        mc_BigShiftLeft(&r, boundary ? 2 : 1);
        mc_BigSet(&s, 1);
        mc_BigShiftLeft(&s, (uint32_t)(-e) + (boundary ? 2 : 1));
        mc_BigSet(&mp, boundary ? 2 : 1);
        mc_BigSet(&mm, 1);
    }
    /* k: a lower bound of the decimal exponent, then fixed up */
    int bits = 0;
    for (uint64_t t = f; t != 0; t >>= 1) bits++;
    const int e2 = e + bits - 1;
    int k = e2 >= 0 ? (int)(((int64_t)e2 * 78913) >> 18) : -(int)((((int64_t)-e2) * 78914 + (1 << 18) - 1) >> 18);
    k += 1;
    if (k >= 0) {
        mc_BigMulPow10(&s, (uint32_t)k);
    } else {
        mc_BigMulPow10(&r, (uint32_t)(-k));
        mc_BigMulPow10(&mp, (uint32_t)(-k));
        mc_BigMulPow10(&mm, (uint32_t)(-k));
    }
    for (;;) {
        const int c = mc_BigCmpSum(&r, &mp, &s);
        if (even ? c >= 0 : c > 0) {
            mc_BigMulSmall(&s, 10);
            k++;
        } else {
            break;
        }
    }
    int n = 0;
    if (s.n <= 2 && mc_Big64(&s) < (UINT64_C(1) << 59)) {
        /* everything below 2^59: the same loop in 64-bit words (r < s,
         * m- <= m+ < s before each step, so nothing passes 2^64) */
        uint64_t R = mc_Big64(&r), S = mc_Big64(&s), MP = mc_Big64(&mp), MM = mc_Big64(&mm);
        for (;;) {
            R *= 10;
            MP *= 10;
            MM *= 10;
            int digit = (int)(R / S);
            R %= S;
            const int tc1 = even ? R <= MM : R < MM;
            const int tc2 = even ? R + MP >= S : R + MP > S;
            if (!tc1 && !tc2) {
                d[n++] = (uint8_t)digit;
                continue;
            }
            if (tc1 && tc2) {
                if (2 * R > S || (2 * R == S && (digit & 1))) digit++;
            } else if (tc2) {
                digit++;
            }
            d[n++] = (uint8_t)digit;
            break;
        }
    } else
    for (;;) {
        mc_BigMulSmall(&r, 10);
        mc_BigMulSmall(&mp, 10);
        mc_BigMulSmall(&mm, 10);
        int digit = 0;
        while (mc_BigCmp(&r, &s) >= 0) {
            mc_BigSub(&r, &s);
            digit++;
        }
        const int cl = mc_BigCmp(&r, &mm);
        const int tc1 = even ? cl <= 0 : cl < 0;
        const int ch = mc_BigCmpSum(&r, &mp, &s);
        const int tc2 = even ? ch >= 0 : ch > 0;
        if (!tc1 && !tc2) {
            d[n++] = (uint8_t)digit;
            continue;
        }
        if (tc1 && tc2) {
            const int half = mc_BigCmpSum(&r, &r, &s); /* 2r against s */
            if (half > 0 || (half == 0 && (digit & 1))) digit++;
        } else if (tc2) {
            digit++;
        }
        d[n++] = (uint8_t)digit;
        break;
    }
    /* a last digit rounded up to 10 carries */
    for (int i = n - 1; i > 0 && d[i] == 10; --i) {
        d[i] = 0;
        d[i - 1]++;
    }
    if (d[0] == 10) {
        d[0] = 1;
        k++;
        n = 1;
    }
    while (n > 1 && d[n - 1] == 0) n--;
    *point = k;
    return n;
}

/* ECMAScript's Number::toString layout of 0.d1...dn * 10^point. */
static size_t mc_Layout(int negative, const uint8_t* d, int n, int point, char* out) {
    size_t o = 0;
    if (negative) out[o++] = '-';
    if (n <= point && point <= 21) {
        for (int i = 0; i < n; ++i) out[o++] = (char)('0' + d[i]);
        for (int i = n; i < point; ++i) out[o++] = '0';
    } else if (0 < point && point <= 21) {
        for (int i = 0; i < point; ++i) out[o++] = (char)('0' + d[i]);
        out[o++] = '.';
        for (int i = point; i < n; ++i) out[o++] = (char)('0' + d[i]);
    } else if (-6 < point && point <= 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (int i = 0; i < -point; ++i) out[o++] = '0';
        for (int i = 0; i < n; ++i) out[o++] = (char)('0' + d[i]);
    } else {
        out[o++] = (char)('0' + d[0]);
        if (n > 1) {
            out[o++] = '.';
            for (int i = 1; i < n; ++i) out[o++] = (char)('0' + d[i]);
        }
        out[o++] = 'e';
        int x = point - 1;
        out[o++] = x < 0 ? '-' : '+';
        if (x < 0) x = -x;
        char tmp[4];
        int t = 0;
        do {
            tmp[t++] = (char)('0' + x % 10);
            x /= 10;
        } while (x != 0);
        while (t > 0) out[o++] = tmp[--t];
    }
    return o;
}

size_t mcore_JsonFormatDouble(double value, char* out) {
    const uint64_t b = mc_Bits64(value);
    const int negative = (int)(b >> 63);
    const int biased = (int)((b >> 52) & 0x7FF);
    uint64_t f = b & ((UINT64_C(1) << 52) - 1);
    if (biased == 0x7FF) return 0;
    if (biased == 0 && f == 0) {
        size_t o = 0;
        if (negative) out[o++] = '-';
        out[o++] = '0';
        return o;
    }
    int e;
    if (biased == 0) {
        e = -1074;
    } else {
        f |= UINT64_C(1) << 52;
        e = biased - 1075;
    }
    uint8_t d[20];
    int point;
    const int n = mc_Shortest(f, e, 53, -1074, d, &point);
    return mc_Layout(negative, d, n, point, out);
}

size_t mcore_JsonFormatFloat(float value, char* out) {
    uint32_t b;
    memcpy(&b, &value, sizeof b);
    const int negative = (int)(b >> 31);
    const int biased = (int)((b >> 23) & 0xFF);
    uint64_t f = b & ((1u << 23) - 1);
    if (biased == 0xFF) return 0;
    if (biased == 0 && f == 0) {
        size_t o = 0;
        if (negative) out[o++] = '-';
        out[o++] = '0';
        return o;
    }
    int e;
    if (biased == 0) {
        e = -149;
    } else {
        f |= 1u << 23;
        e = biased - 150;
    }
    uint8_t d[12];
    int point;
    const int n = mc_Shortest(f, e, 24, -149, d, &point);
    return mc_Layout(negative, d, n, point, out);
}
