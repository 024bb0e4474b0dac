/* maul bench: micro-benchmarks of the libraries' hot paths (docs/performance.md).
 * Speed is measured here, never in timed tests. */
#ifndef MAUL_TOOLS_CLI_BENCH_H
#define MAUL_TOOLS_CLI_BENCH_H

#include <stdio.h>

/* Runs every benchmark and prints the table to out: name, iterations per run,
 * ns per op (the median of 5 runs of that fixed count, after one warm-up run,
 * timed with clock_gettime(CLOCK_MONOTONIC)) and, for per-bone cases, ns per
 * bone. filter: run only the cases whose name contains it (for profiling one
 * case, as under callgrind), or NULL for all. Returns 0, or 1 when a case
 * could not be set up or a call failed. */
int maul_Bench(FILE* out, const char* filter);

#endif
