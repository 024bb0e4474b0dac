/* maul train (tools/cli/train.c): a learned motion matching model trained
 * with learnedtrain.h on a motion database file and its clip files, with
 * checkpoints to stop and go on. */
#ifndef MAUL_TOOLS_CLI_TRAIN_H
#define MAUL_TOOLS_CLI_TRAIN_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs `maul train DB --skeleton S --out MODEL CLIP... [options]` (arguments
 * after the command): trains on the motion database file DB, whose clips are
 * the clip files CLIP in the database's order, of the skeleton file S, with
 * Holden's options (maniDefaultLearnedTrainerOptions) but those given, and
 * one Projector over every frame; writes MODEL (maniBuildLearnedModelFromTrainer)
 * once every stage is done. Options: --iterations N (each stage's),
 * --latent N, --width N (every network's hidden width), --batch N,
 * --stepper-window N, --seed N,
 * --weights f32|16; --checkpoint FILE written every --every N iterations
 * (default 1000) and when the run stops; --resume FILE restored before
 * training (a checkpoint of the same database and options); --for N trains
 * at most N iterations in this run, then writes the checkpoint and stops
 * without a model. A progress line on stderr after each call: the stage, its
 * iterations done and the last loss. Prints a summary line on out (--json:
 * one JSON document). Returns the exit status: 0 trained (or stopped by
 * --for) and written, 1 a file refused (its open's or restore's result and
 * offset, or the trainer's or builder's result, reason and item), 2 usage,
 * I/O or memory errors. */
int maul_Train(FILE* out, int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif
