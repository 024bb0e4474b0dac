/* maul compress (tools/cli/compress.c): a full-precision clip file compressed
 * with maniCompressClip against its skeleton file, the compressed file
 * written, and the compression report printed: sizes, ratio, the worst shell
 * error with its bone and sample, each bone's worst error against the
 * precision, and the time it took. */
#ifndef MAUL_TOOLS_CLI_COMPRESS_H
#define MAUL_TOOLS_CLI_COMPRESS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs `maul compress CLIP --skeleton S [--precision P] [--shell D]
 * [--float-precision F] [--out FILE] [--json]` (arguments after the
 * command). The output file defaults to CLIP with ".mani" replaced by
 * "-compressed.mani" (or that suffix appended). Returns the exit status: 0
 * compressed and written, 1 a file refused (its open's result and offset, or
 * the compressor's result, printed), 2 usage, I/O or memory errors. */
int maul_Compress(FILE* out, int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif
