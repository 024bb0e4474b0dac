/* maul certify --json and maul diff (tools/cli/certificate.c): a machine's
 * certificate as a JSON document holding every case's hash, and the
 * comparison of two such documents, so a lockstep team can see which suites
 * and cases two builds or machines disagree on.
 *
 * The document: {"format": "maul-certificate", "version": 1,
 *   "certificate": "<16 hex>", "anim": "x.y.z", "tween": "x.y.z",
 *   "backend": "...", "pass": true|false,
 *   "suites": [{"name": "...", "pass": true|false,
 *               "cases": [["case-name", "<16 hex>"], ...]}, ...]}
 * Hashes are hex strings (a 64-bit number does not survive binary64). */
#ifndef MAUL_TOOLS_CLI_CERTIFICATE_H
#define MAUL_TOOLS_CLI_CERTIFICATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "conformance/framework/conformance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the document for runs[0, count) (passes[i]: whether suite i matched
 * its golden). Returns 0, or 1 when memory ran out (nothing written). */
int maul_WriteCertificateJson(FILE* out, const mconf_Run* runs, const int* passes, size_t count,
                              uint64_t certificate, const char* backend);

/* Compares two documents' texts: prints the two certificates, then each
 * suite only one has, and for each suite in both the cases whose hashes
 * differ or that only one records, one line each. Returns 0 when every suite
 * and case agree, 1 when some differ, 2 when a text is not such a document
 * (the reason printed to err). */
int maul_DiffCertificates(FILE* out, FILE* err, const char* nameA, const uint8_t* a, size_t aSize,
                          const char* nameB, const uint8_t* b, size_t bSize);

/* Runs `maul diff CERT_A CERT_B` (arguments after the command). */
int maul_Diff(FILE* out, int argc, char** argv);

#ifdef __cplusplus
}
#endif

#endif
