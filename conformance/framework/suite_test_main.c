/* One conformance test: runs the suite named on the command line, compares
 * it with its golden file and names each differing case. On a mismatch the
 * actual file is written to the test's output directory
 * ($TEST_UNDECLARED_OUTPUTS_DIR/<suite>.txt) for diffing. */
#include <stdio.h>
#include <stdlib.h>

#include "conformance/framework/conformance.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s SUITE\n", argv[0]);
        return 2;
    }
    const mconf_Suite* suite = mconf_FindSuite(argv[1]);
    if (suite == NULL) {
        fprintf(stderr, "no suite named %s\n", argv[1]);
        return 2;
    }
    mconf_Run run;
    mconf_RunSuite(suite, &run);
    size_t problems = mconf_Compare(&run, mconf_golden, mconf_goldenCount, stdout);
    if (problems) {
        const char* dir = getenv("TEST_UNDECLARED_OUTPUTS_DIR");
        if (dir != NULL) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.txt", dir, suite->name);
            FILE* f = fopen(path, "w");
            if (f != NULL) {
                mconf_WriteRun(&run, f);
                fclose(f);
                printf("actual cases written to %s\n", path);
            }
        }
        printf("FAIL suite %s: %zu cases, %zu problems\n", suite->name, run.count, problems);
    } else if (run.count == 0) {
        printf("FAIL suite %s: no cases recorded\n", suite->name);
        problems = 1;
    } else {
        printf("PASS suite %s: %zu cases match golden/%s.txt\n", suite->name, run.count, suite->name);
    }
    mconf_RunFree(&run);
    return problems ? 1 : 0;
}
