/* lib/core: UTF-8 checks for names in files and sources, and for JSON text
 * (lib/core/json). */
#ifndef MAUL_CORE_UTF8_H
#define MAUL_CORE_UTF8_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether bytes[0, length) is well-formed UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF). NUL bytes are refused too:
 * names never hold them. Returns the length when valid, else the offset of
 * the first byte of the first bad sequence. */
size_t mcore_Utf8Check(const uint8_t* bytes, size_t length);

/* The length (1 to 4) of the well-formed UTF-8 sequence at bytes[0] of
 * bytes[0, length), length >= 1, or 0 when it is not one (NUL is a sequence
 * of 1 here). *truncated is set to 1 when the bytes are a well-formed start
 * of a sequence that length cuts off, else 0. */
size_t mcore_Utf8Sequence(const uint8_t* bytes, size_t length, int* truncated);

#ifdef __cplusplus
}
#endif

#endif
