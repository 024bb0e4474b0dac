/* maul import (tools/cli/import.c): a glTF document's skeletons, skins,
 * influences, morph targets and clips built with the default options, a
 * report table on stdout, the files optionally written. */
#ifndef MAUL_TOOLS_CLI_IMPORT_H
#define MAUL_TOOLS_CLI_IMPORT_H

/* Runs `maul import` with its arguments (after the command): FILE and
 * optionally --out DIR. Returns the exit status: 0 every item built, 1 the
 * document or an item refused, 2 usage, I/O or memory errors. */
int maul_Import(int argc, char** argv);

#endif
