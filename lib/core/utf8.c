#include "lib/core/utf8.h"

size_t mcore_Utf8Sequence(const uint8_t* s, size_t n, int* truncated) {
    *truncated = 0;
    const uint8_t c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;      /* no overlong forms */
        else if (c == 0xED) hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;      /* no overlong forms */
        else if (c == 0xF4) hi = 0x8F; /* nothing past U+10FFFF */
    } else {
        return 0;
    }
    for (size_t k = 1; k < len; ++k) {
        if (k >= n) {
            *truncated = 1;
            return 0;
        }
        const uint8_t klo = k == 1 ? lo : 0x80, khi = k == 1 ? hi : 0xBF;
        if (s[k] < klo || s[k] > khi) return 0;
    }
    return len;
}

size_t mcore_Utf8Check(const uint8_t* s, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (s[i] == 0) return i;
        int truncated;
        const size_t len = mcore_Utf8Sequence(s + i, n - i, &truncated);
        if (len == 0) return i;
        i += len;
    }
    return n;
}
