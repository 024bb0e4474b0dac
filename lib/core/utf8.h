/* lib/core: UTF-8 checks for names in files and sources. */
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

#ifdef __cplusplus
}
#endif

#endif
