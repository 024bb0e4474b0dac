/* The golden conformance framework: suites build their inputs from seeds,
 * call the libraries, hash each output with maniHash64 and record it as a
 * case; a run compares every case with golden/<suite>.txt (compiled in, see
 * conformance/BUILD.bazel) and names each case that differs.
 *
 * Hashing is field by field: a suite appends each output field to an
 * mconf_Bytes in little-endian order (never a struct's memory, so padding
 * never counts) and records the hash of those bytes. */
#ifndef MAUL_CONFORMANCE_H
#define MAUL_CONFORMANCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* -- Recording cases ---------------------------------------------------------- */

typedef struct mconf_Case {
    char* name;
    uint64_t hash;
} mconf_Case;

/* The cases one suite recorded, in order. */
typedef struct mconf_Run {
    const char* suite;
    mconf_Case* cases;
    size_t count, capacity;
} mconf_Run;

/* Records a case with a hash the suite computed. Case names are unique within
 * a suite, made of [A-Za-z0-9._-] (checked: a bad name aborts the run). */
void mconf_Record(mconf_Run* run, const char* name, uint64_t hash);

/* Bytes an output is written into, field by field, before hashing. */
typedef struct mconf_Bytes {
    uint8_t* data;
    size_t size, capacity;
} mconf_Bytes;

void mconf_BytesReset(mconf_Bytes* bytes);
void mconf_BytesFree(mconf_Bytes* bytes);
void mconf_BytesAdd(mconf_Bytes* bytes, const void* data, size_t size);
void mconf_BytesU8(mconf_Bytes* bytes, uint8_t v);
void mconf_BytesU32(mconf_Bytes* bytes, uint32_t v); /* little-endian */
void mconf_BytesU64(mconf_Bytes* bytes, uint64_t v); /* little-endian */
/* A float's bit pattern, little-endian, every NaN written as the one quiet
 * NaN (0x7FC00000, 0x7FF8000000000000): x86-64 and arm64 make different NaN
 * signs and payloads (docs/determinism.md), which no result promises. */
void mconf_BytesF32(mconf_Bytes* bytes, float v);
void mconf_BytesF64(mconf_Bytes* bytes, double v);

/* Records a case whose hash is maniHash64(0, bytes), then resets bytes. */
void mconf_RecordBytes(mconf_Run* run, const char* name, mconf_Bytes* bytes);

/* -- Suites --------------------------------------------------------------------- */

typedef void (*mconf_SuiteFunction)(mconf_Run* run);

typedef struct mconf_Suite {
    const char* name; /* golden/<name>.txt */
    mconf_SuiteFunction function;
} mconf_Suite;

/* Every registered suite, in certificate order, and the lookup by name
 * (conformance/suites/registry.c, in :suites, which depends on :framework). */
extern const mconf_Suite mconf_suites[];
extern const size_t mconf_suiteCount;

const mconf_Suite* mconf_FindSuite(const char* name);

/* Runs a suite into a fresh run (free it with mconf_RunFree). */
void mconf_RunSuite(const mconf_Suite* suite, mconf_Run* run);
void mconf_RunFree(mconf_Run* run);

/* -- Goldens -------------------------------------------------------------------- */

typedef struct mconf_GoldenLine {
    const char* suite;
    const char* name;
    uint64_t hash;
} mconf_GoldenLine;

/* The golden files, compiled in (conformance/BUILD.bazel, :golden_data). */
extern const mconf_GoldenLine mconf_golden[];
extern const size_t mconf_goldenCount;

/* Compares a run with a suite's golden lines. Prints one line per problem to
 * report (when not NULL): a case whose hash differs, a golden case the run
 * did not record, a recorded case with no golden line, a case recorded
 * twice. Returns the number of problems (0: the run conforms). */
size_t mconf_Compare(const mconf_Run* run, const mconf_GoldenLine* golden, size_t goldenCount, void* report);

/* Writes a run in the golden file format: "case-name 16-hex-digit-hash\n". */
void mconf_WriteRun(const mconf_Run* run, void* file);

/* The certificate: maniHash64 (seed 0) over, suite after suite in registry
 * order, the suite's name and a 0 byte, its case count as 8 little-endian
 * bytes, then each case's name, a 0 byte and its hash as 8 little-endian
 * bytes. Equal certificates mean equal results on every case. */
uint64_t mconf_Certificate(const mconf_Run* runs, size_t runCount);

#ifdef __cplusplus
}
#endif

#endif
