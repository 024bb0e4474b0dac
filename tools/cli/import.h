/* maul import (tools/cli/import.c): a glTF document's skeletons, skins,
 * influences, morph targets and clips built with the default options, a
 * report table on stdout, the files optionally written. */
#ifndef MAUL_TOOLS_CLI_IMPORT_H
#define MAUL_TOOLS_CLI_IMPORT_H

#include <stddef.h>

#include "tools/cli/files.h" /* maul_ReadAll, maul_ReadAllAligned */

/* Runs `maul import` with its arguments (after the command): FILE and
 * optionally --out DIR. Returns the exit status: 0 every item built, 1 the
 * document or an item refused, 2 usage, I/O or memory errors. */
int maul_Import(int argc, char** argv);

/* maul import for an FBX file (tools/cli/import_fbx.c): its skeletons,
 * skins and influences built with the default options, the same report
 * table; the exit status as maul_Import's. */
int maul_ImportFbx(const char* input, const char* outDir, const unsigned char* bytes, size_t size);

/* The name of a container kind (lib/core/container.h) or of a graph node
 * kind, for the tool's reports; "unknown" past the known values. */
const char* maul_FileKindName(unsigned kind);
const char* maul_GraphNodeKindName(unsigned kind);

/* The path of a buffer URI relative to a document: the document's folder (up
 * to its last '/') joined with the URI, percent escapes decoded. malloc'd;
 * NULL for a URI with a scheme (data:, http:), an absolute path, a %00, or
 * when memory runs out. */
char* maul_ResolveUri(const char* document, const char* uri, size_t length);

#endif
