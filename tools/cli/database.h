/* maul database (tools/cli/database.c): a motion database built with
 * maniBuildMotionDatabase from a skeleton file and clip files, written as a
 * file. */
#ifndef MAUL_TOOLS_CLI_DATABASE_H
#define MAUL_TOOLS_CLI_DATABASE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs `maul database --skeleton S --out DB CLIP... [--rate HZ]
 * [--bone-left-foot NAME] [--bone-right-foot NAME] [--bone-hips NAME]
 * [--trajectory] [--json]` (arguments after the command). One entry per
 * clip file (a clip of S, 0 to its duration), sampled at HZ (default 30).
 * The default channels: the left and right feet's positions and velocities
 * and the hips' velocity at the frame (weight 1 each; bones by name,
 * defaults LeftFoot, RightFoot, Hips); --trajectory adds the root's
 * trajectory position and facing at 1/3, 2/3 and 1 s ahead (for clips with
 * root motion). Up axis y, forward z, leaf size 16. Prints one summary line
 * (--json: one JSON document): frames, features, clips, channels, bytes,
 * identity. Returns the exit status: 0 built and written, 1 a file refused
 * (its open's result and offset, a bone name the skeleton lacks, or the
 * builder's result, reason and item), 2 usage, I/O or memory errors. */
int maul_Database(FILE* out, int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif
