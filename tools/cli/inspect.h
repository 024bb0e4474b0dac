/* maul inspect (tools/cli/inspect.c): what a Maul file is, read through the
 * library's own opener: the container header (kind, format version, the ABI
 * that wrote it, size, identity), whether the kind's open accepts it (and the
 * first wrong offset when not), its counts and a readable outline (the bone
 * tree, a clip's tracks, a graph's nodes in order). */
#ifndef MAUL_TOOLS_CLI_INSPECT_H
#define MAUL_TOOLS_CLI_INSPECT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Inspects one file's bytes (`name` labels the output). With json nonzero
 * writes one JSON object (no trailing newline), otherwise text lines.
 * Returns 0 when the kind's open accepted the file, 1 when the bytes are not
 * a Maul file or its open refused them, 3 when the kind has no opener in
 * this build (the header is still reported). */
int maul_InspectBytes(FILE* out, const char* name, const void* bytes, size_t size, int json);

/* Runs `maul inspect` with its arguments (after the command): [--json]
 * FILE... Returns the exit status: 0 every file opened, 1 a file is not a
 * Maul file or was refused, 2 usage or I/O errors. */
int maul_Inspect(FILE* out, int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif
