/* maul report (tools/cli/report.c): one self-contained HTML page (inline SVG
 * and CSS, one inline script that only counts what rendered; no network, no
 * external file) with pictures of Maul files and easings:
 *   - each skeleton drawn at its rest, front (x, y) and side (z, y);
 *   - each clip's skeleton drawn at five sampled times, and its bones' local
 *     rotation angles over the clip as curves;
 *   - each compressed clip paired with a full-precision clip of the same
 *     skeleton, sample count and duration: the worst shell error over the clip
 *     against the precision line, and each bone's worst as bars;
 *   - each graph's nodes as a tree from its output;
 *   - easings (Penner's sine, expo and circ, in): the curve and its error
 *     against MPFR at 256 bits, in units of 2^-53.
 * The page's <svg> elements carry data-kind attributes (skeleton, clip-pose,
 * clip-curves, compression, graph, easing, easing-error) so a test can count
 * them. */
#ifndef MAUL_TOOLS_CLI_REPORT_H
#define MAUL_TOOLS_CLI_REPORT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs `maul report FILE... --out PAGE.html [--precision P] [--shell D]`
 * (arguments after the command; P and D: the compression's tolerance drawn as
 * the precision line and the shell distance the errors are measured at,
 * defaults maniDefaultCompressOptions'). Files that are not skeletons, clips
 * or graphs are listed with their kind. Returns 0 when the page was written,
 * 1 when a file was refused (named on stderr; the page still lists the rest),
 * 2 usage, I/O or memory errors. `out` gets a one-line summary. */
int maul_Report(FILE* out, int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif
