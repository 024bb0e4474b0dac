/* maul bench's case runner, for the benchmark files beside bench.c. */
#ifndef MAUL_TOOLS_CLI_BENCH_INTERNAL_H
#define MAUL_TOOLS_CLI_BENCH_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

/* A case: run(state, iterations) does `iterations` operations and returns the
 * number that failed. */
typedef struct maul_BenchCase {
    const char* name;
    uint32_t iterations;
    uint32_t bones; /* per-bone cases: the bone count; otherwise 0 */
    uint64_t (*run)(void* state, uint32_t iterations);
    void* state;
} maul_BenchCase;

/* Results are summed here so no call is optimized away. */
extern volatile double maul_benchSink;

/* Runs a case unless the filter leaves it out and prints its row; 1 when a
 * call failed. */
int maul_RunCase(FILE* out, const maul_BenchCase* c);

/* Whether the filter takes a case of this name (maul bench's rule). */
int maul_BenchWants(const char* name);

/* Prints a case's row for a setup that failed. */
void maul_SetupFailed(FILE* out, const char* name);

/* Full-body IK (bench_ik_body.c): the ik-body-* cases. */
int maul_BenchBodyIk(FILE* out);

/* The median ns per op of the last case maul_RunCase ran (0 when the filter
 * left it out). */
extern double maul_benchLastMedian;

/* The FBX importer (bench_import_fbx.c): the import-open-fbx-* and
 * import-build-fbx-* cases, run at the end of maul_BenchImport. */
int maul_BenchImportFbx(FILE* out);

/* The glTF importer (bench_import.c): the import-open-* and import-build-*
 * cases on the shared models present, then their MB/s. */
int maul_BenchImport(FILE* out);
/* Motion matching search (bench_match.c): the match-search-* rows; the 1 M
 * frame row only when full. */
int maul_BenchMatch(FILE* out, int full);
/* The graph runtime (bench_graph.c): the graph-* rows. */
int maul_BenchGraph(FILE* out);
/* The locomotion graph (bench_locomotion.c): one instance, 1,000 from one
 * thread, 1,000 from two. */
int maul_BenchLocomotion(FILE* out);

/* Retargeting and mirroring (bench_retarget.c): the retarget-* rows,
 * RetargetPose and MirrorPose beside ComputeModel. */
int maul_BenchRetarget(FILE* out);
/* Learned models (bench_learned.c): the learned-* rows. */
int maul_BenchLearned(FILE* out);

#endif
