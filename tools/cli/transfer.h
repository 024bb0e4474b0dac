/* maul retarget, maul mirror and maul graph (tools/cli/transfer.c): a retargeting or
 * mirror map built from its JSON text form (or a built map file opened), and
 * clips baked through it with maniBuildRetargetedClip or
 * maniBuildMirroredClip, each written as a file. */
#ifndef MAUL_TOOLS_CLI_TRANSFER_H
#define MAUL_TOOLS_CLI_TRANSFER_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs `maul retarget MAP --source S --target T [CLIP...] [--out DIR]
 * [--json]` (arguments after the command). MAP is a retargeting map file or
 * its JSON text form (a text whose first byte past white space is '{'),
 * which is built for the skeleton files S and T and written as
 * DIR/<MAP's name without .json>.mani; each CLIP (a clip file of S) is
 * retargeted and written as DIR/<CLIP's name without .mani>-retargeted.mani.
 * DIR defaults to the current directory. One line per file written (--json:
 * one JSON document listing them). Returns the exit status: 0 every file
 * built and written, 1 a file refused (its open's result and offset, or the
 * builder's result, reason, item and other printed with the file's name),
 * 2 usage, I/O or memory errors. */
int maul_Retarget(FILE* out, int argc, char** argv);

/* Runs `maul mirror MAP --skeleton S [CLIP...] [--out DIR] [--json]`: as
 * maul retarget, with a mirror map of the skeleton file S (file or JSON
 * text form) and each clip mirrored, written as
 * DIR/<CLIP's name without .mani>-mirrored.mani. The exit status as
 * maul_Retarget's. */
int maul_Mirror(FILE* out, int argc, char** argv);

/* Runs `maul graph GRAPH.json --skeleton S [--clip NAME=CLIP]...
 * [--mirror MAP] [--out FILE] [--json]`: the graph's JSON text form built
 * with maniBuildGraphJson for the skeleton file S, each clip slot name
 * taking the clip file given for it (a name given twice: the first), the
 * mirror map file for its mirror nodes; written to FILE (default GRAPH with
 * .json replaced by .mani) and described (identity, parameters, clip slots,
 * nodes, bytes). The exit status as maul_Retarget's. */
int maul_Graph(FILE* out, int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif
