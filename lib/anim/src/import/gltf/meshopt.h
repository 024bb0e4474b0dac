/* The buffer-view streams of EXT_meshopt_compression and
 * KHR_meshopt_compression (glTF 2.0): an internal decoder for the glTF
 * importer (maniOpenGltf, maniGltf_SupplyBuffer), written from the two
 * extension specifications (Appendix A, bitstreams; Appendix B, filters).
 * No public header: import.h's functions are its only callers, plus the
 * tests, the fuzz harness and `maul bench meshopt`. */
#ifndef MAUL_ANIM_IMPORT_GLTF_MESHOPT_H
#define MAUL_ANIM_IMPORT_GLTF_MESHOPT_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The extension's "mode": which bitstream the view holds. The values are the
 * specifications' mode numbers. */
typedef enum maniMeshoptMode {
    maniMeshoptAttributes = 0, /* "ATTRIBUTES": vertex codec (v0; v1 for KHR only), any data of 4..256 bytes per element */
    maniMeshoptTriangles = 1,  /* "TRIANGLES": index codec for triangle lists (edge and vertex FIFOs) */
    maniMeshoptIndices = 2     /* "INDICES": index sequence codec (two baselines) */
} maniMeshoptMode;

/* The extension's "filter", applied after the ATTRIBUTES codec. The values
 * are the specifications' filter numbers. */
typedef enum maniMeshoptFilter {
    maniMeshoptFilterNone = 0,        /* "NONE": the codec's bytes as they are */
    maniMeshoptFilterOctahedral = 1,  /* "OCTAHEDRAL": unit vectors, 4 x int8 or 4 x int16 */
    maniMeshoptFilterQuaternion = 2,  /* "QUATERNION": unit quaternions, 4 x int16 */
    maniMeshoptFilterExponential = 3, /* "EXPONENTIAL": 2^e * m per 32-bit word, to binary32 */
    maniMeshoptFilterColor = 4        /* "COLOR": YCoCg to RGBA, 4 x uint8 or 4 x uint16 (KHR only) */
} maniMeshoptFilter;

/* Which extension the view comes from: KHR_meshopt_compression adds the v1
 * vertex codec (header 0xa1) and the COLOR filter to EXT's. */
typedef enum maniMeshoptExtension {
    maniMeshoptExt = 0, /* EXT_meshopt_compression */
    maniMeshoptKhr = 1  /* KHR_meshopt_compression */
} maniMeshoptExtension;

/* Decodes one compressed buffer view: count elements of byteStride bytes
 * from the srcSize bytes at src (the extension's byteLength) into dst, which
 * holds count * byteStride bytes (any alignment; values little-endian as glTF
 * stores them). The stream is checked whole before dst is written: a refused
 * stream leaves dst unchanged. Every read is inside src; no input is
 * undefined behaviour. src and dst must not overlap.
 *
 * Rules of the specifications checked (as mani_errorInvalid, arguments):
 * ATTRIBUTES: byteStride a multiple of 4 in 4..256; TRIANGLES: count a
 * multiple of 3; TRIANGLES and INDICES: byteStride 2 or 4 and filter NONE;
 * OCTAHEDRAL and COLOR: byteStride 4 or 8; QUATERNION: 8; EXPONENTIAL: a
 * multiple of 4; COLOR only with KHR; count * byteStride within size_t.
 *
 * Refused streams (mani_errorFormat, *errorOffset = the offset in src of the
 * first byte found wrong): a wrong header byte (0xa0, or 0xa1 with KHR;
 * 0xe1; 0xd1); a stream that ends before the data its headers call for (the
 * offset is where the short read starts) or leaves bytes between its data and
 * its tail (the offset of the first one); in v1, a channel mode byte other
 * than 0x00, 0x01 or 0x?2; in TRIANGLES, a lookup table (codeaux) whose last
 * two bytes are not 0 or with a nibble 0xf, a code reading an edge or vertex
 * FIFO entry not yet written, and in both index codecs a varint of more than
 * 5 bytes. The tail's padding and INDICES' 4 reserved tail bytes are not
 * checked (the specifications say how they are written, not that a decoder
 * refuses other bytes), and indices that do not fit 16 bits are kept modulo
 * 2^16 for byteStride 2, as the reference decoder does.
 *
 * Filters cannot refuse: inputs the specifications leave unspecified (an
 * OCTAHEDRAL 1.0 of 0, an exponent outside [-100, 100], a COLOR alpha of 0)
 * give defined values (NaN to 0, out-of-range results clamped, exponents
 * exact as far as binary32 holds them). The arithmetic is binary32 in the
 * order the specifications' pseudo-code gives, with correctly rounded sqrt,
 * so the output bits are the same on every build.
 *
 * Returns mani_success; mani_errorInvalid (errorOffset untouched) as above,
 * or for a NULL src (srcSize > 0), dst (count * byteStride > 0) or an
 * unknown mode, filter or extension; mani_errorFormat with *errorOffset set
 * (errorOffset may be NULL). Allocates nothing (about 8.5 KB of stack). */
maniResult maniMeshoptDecode(void* dst, size_t count, size_t byteStride, const uint8_t* src, size_t srcSize,
                             maniMeshoptMode mode, maniMeshoptFilter filter, maniMeshoptExtension extension,
                             size_t* errorOffset);

/* The extension's JSON strings: the mode and filter an exact name means, or
 * -1 for another name (bytes not terminated; the importer calls these). */
int maniMeshoptModeFromName(const char* name, size_t length);
int maniMeshoptFilterFromName(const char* name, size_t length);

#ifdef __cplusplus
}
#endif

#endif
