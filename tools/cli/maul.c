/* maul: the command-line tool. This version has the commands whose work
 * exists in the libraries today; each later area adds its own (import,
 * compress, inspect) as it lands.
 *
 *   maul bench [FILTER]   micro-benchmarks, a table of ns per op (docs/performance.md)
 *   maul certify [--json] every conformance suite, compared with the goldens
 *   maul diff A.json B.json  which suites and cases two certificates disagree on (tools/cli/certificate.c)
 *   maul golden SUITE     print a suite's actual cases in the golden format
 *   maul suites           list the registered suites
 *   maul hash FILE...     maniHash64 (seed 0) of each file's bytes
 *   maul version          library versions and backend
 *   maul import FILE [--out DIR]  a glTF document built into Maul files (tools/cli/import.c)
 *   maul compress CLIP --skeleton S [...]  a clip compressed, with its report (tools/cli/compress.c)
 *   maul report FILE... --out PAGE.html  pictures of skeletons, clips, compression, graphs, easings (tools/cli/report.c)
 *   maul database --skeleton S --out DB CLIP...  a motion database from clips (tools/cli/database.c)
 *   maul inspect [--json] FILE...  a Maul file's kind, versions, identity, counts, outline (tools/cli/inspect.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance/framework/conformance.h"
#include "maul/anim/base.h"
#include "tools/cli/bench.h"
#include "tools/cli/certificate.h"
#include "tools/cli/compress.h"
#include "tools/cli/database.h"
#include "tools/cli/report.h"
#include "tools/cli/import.h"
#include "tools/cli/inspect.h"
#include "tools/cli/train.h"
#include "tools/cli/transfer.h"
#include "maul/tween/base.h"

static int maul_Usage(FILE* out) {
    fprintf(out,
            "usage: maul COMMAND [ARGS]\n"
            "  bench [FILTER]   run the micro-benchmarks (those whose name contains FILTER),\n"
            "                   print ns per op (median of 5 runs)\n"
            "  certify [--json] run every conformance suite on this machine and backend,\n"
            "                   compare with the goldens, print the certificate (--json: every\n"
            "                   case's hash as a document maul diff reads)\n"
            "  diff A.json B.json\n"
            "                   the suites and cases two certificates (certify --json) disagree on\n"
            "  golden SUITE     print SUITE's actual cases as a golden file\n"
            "  suites           list the conformance suites\n"
            "  hash FILE...     print maniHash64 (seed 0) of each file\n"
            "  version          print the library versions and the backend\n"
            "  import FILE.gltf|FILE.glb [--out DIR]\n"
            "                   build a glTF document's skeletons, skins, influences, morph\n"
            "                   targets and clips, print a report, write the files to DIR\n"
            "  compress CLIP --skeleton S [--precision P] [--shell D] [--float-precision F]\n"
            "           [--out FILE] [--json]\n"
            "                   compress a clip file, print sizes, ratio and each bone's worst error\n"
            "  retarget MAP --source S --target T [CLIP...] [--out DIR] [--json]\n"
            "                   build a retargeting map from its JSON form (or open a map file)\n"
            "                   and retarget clips of S to T, writing each file to DIR\n"
            "  mirror MAP --skeleton S [CLIP...] [--out DIR] [--json]\n"
            "                   build a mirror map from its JSON form (or open a map file) and\n"
            "                   mirror clips of S, writing each file to DIR\n"
            "  graph GRAPH.json --skeleton S [--clip NAME=CLIP]... [--mirror MAP] [--out FILE]\n"
            "                   build a graph file from its JSON form, clip slots by name\n"
            "  database --skeleton S --out DB CLIP... [--rate HZ] [--bone-left-foot NAME]\n"
            "           [--bone-right-foot NAME] [--bone-hips NAME] [--trajectory] [--json]\n"
            "                   build a motion database of the clips (feet positions and\n"
            "                   velocities, hips velocity; --trajectory the root's path ahead)\n"
            "  train DB --skeleton S --out MODEL CLIP... [--iterations N] [--latent N] [--width N]\n"
            "        [--batch N] [--stepper-window N] [--seed N] [--weights f32|16] [--checkpoint FILE]\n"
            "        [--every N] [--resume FILE] [--for N] [--json]\n"
            "                   train a learned motion matching model on a motion database and\n"
            "                   its clips, with checkpoints to stop and go on\n"
            "  report FILE... --out PAGE.html [--precision P] [--shell D]\n"
            "                   one self-contained HTML page: skeletons at rest and in their clips,\n"
            "                   clip curves, compression error against the precision, graph trees,\n"
            "                   learned models' rollouts from the mean query,\n"
            "                   easings against MPFR\n"
            "  inspect [--json] FILE...\n"
            "                   a Maul file's kind, format, ABI, identity, whether it opens\n"
            "                   (the first wrong offset if not), counts and outline\n");
    return 2;
}

static void maul_PrintVersions(void) {
    maniVersion a = maniGetVersion();
    mtwnVersion t = mtwnGetVersion();
    printf("maul anim  %u.%u.%u\n", a.major, a.minor, a.patch);
    printf("maul tween %u.%u.%u\n", t.major, t.minor, t.patch);
    printf("backend    %s\n", maniGetSimdBackend());
}

/* maul certify --json: the same runs and comparison, written as the
 * certificate document of tools/cli/certificate.h (problems to stderr). */
static int maul_CertifyJson(void) {
    const char* backend = NULL;
    if (!maniCheckCpu(&backend)) {
        fprintf(stderr, "maul certify: this CPU cannot run the %s backend; use a scalar build\n", backend);
        return 1;
    }
    mconf_Run* runs = (mconf_Run*)calloc(mconf_suiteCount, sizeof(mconf_Run));
    int* passes = (int*)calloc(mconf_suiteCount, sizeof(int));
    if (runs == NULL || passes == NULL) {
        free(runs);
        free(passes);
        return 1;
    }
    size_t failed = 0;
    for (size_t i = 0; i < mconf_suiteCount; ++i) {
        mconf_RunSuite(&mconf_suites[i], &runs[i]);
        size_t problems = mconf_Compare(&runs[i], mconf_golden, mconf_goldenCount, stderr);
        if (runs[i].count == 0) problems++;
        passes[i] = problems == 0;
        failed += problems != 0;
    }
    uint64_t certificate = mconf_Certificate(runs, mconf_suiteCount);
    int status = maul_WriteCertificateJson(stdout, runs, passes, mconf_suiteCount, certificate, maniGetSimdBackend());
    for (size_t i = 0; i < mconf_suiteCount; ++i) mconf_RunFree(&runs[i]);
    free(runs);
    free(passes);
    return status != 0 || failed ? 1 : 0;
}

static int maul_Certify(void) {
    const char* backend = NULL;
    bool cpuOk = maniCheckCpu(&backend);
    printf("Maul certify\n");
    maul_PrintVersions();
    printf("cpu check  %s (this CPU %s the %s backend)\n", cpuOk ? "PASS" : "FAIL", cpuOk ? "runs" : "cannot run",
           backend);
    if (!cpuOk) {
        printf("result     FAIL: this CPU cannot run this build; use a scalar build\n");
        return 1;
    }
    mconf_Run* runs = (mconf_Run*)calloc(mconf_suiteCount, sizeof(mconf_Run));
    if (runs == NULL) return 1;
    size_t failed = 0;
    for (size_t i = 0; i < mconf_suiteCount; ++i) {
        mconf_RunSuite(&mconf_suites[i], &runs[i]);
        size_t problems = mconf_Compare(&runs[i], mconf_golden, mconf_goldenCount, stdout);
        if (runs[i].count == 0) problems++;
        printf("suite %-12s %6zu cases  %s\n", mconf_suites[i].name, runs[i].count, problems ? "FAIL" : "PASS");
        failed += problems != 0;
    }
    uint64_t certificate = mconf_Certificate(runs, mconf_suiteCount);
    printf("certificate %016llx\n", (unsigned long long)certificate);
    if (failed)
        printf("result     FAIL: %zu of %zu suites differ from their goldens\n", failed, mconf_suiteCount);
    else
        printf("result     PASS: %zu suites match their goldens\n", mconf_suiteCount);
    for (size_t i = 0; i < mconf_suiteCount; ++i) mconf_RunFree(&runs[i]);
    free(runs);
    return failed ? 1 : 0;
}

static int maul_Golden(const char* name) {
    const mconf_Suite* suite = mconf_FindSuite(name);
    if (suite == NULL) {
        fprintf(stderr, "maul golden: no suite named %s (maul suites lists them)\n", name);
        return 2;
    }
    mconf_Run run;
    mconf_RunSuite(suite, &run);
    mconf_WriteRun(&run, stdout);
    mconf_RunFree(&run);
    return 0;
}

static int maul_HashFiles(int count, char** paths) {
    int status = 0;
    for (int i = 0; i < count; ++i) {
        size_t size = 0;
        unsigned char* data = maul_ReadAll(paths[i], &size);
        if (data == NULL) {
            perror(paths[i]);
            status = 1;
            continue;
        }
        printf("%016llx  %s\n", (unsigned long long)maniHash64(0, data, (int64_t)size), paths[i]);
        free(data);
    }
    return status;
}

int main(int argc, char** argv) {
    if (argc < 2) return maul_Usage(stderr);
    const char* command = argv[1];
    if (strcmp(command, "bench") == 0 && argc <= 3) return maul_Bench(stdout, argc == 3 ? argv[2] : NULL);
    if (strcmp(command, "certify") == 0 && argc == 2) return maul_Certify();
    if (strcmp(command, "certify") == 0 && argc == 3 && strcmp(argv[2], "--json") == 0) return maul_CertifyJson();
    if (strcmp(command, "diff") == 0) return maul_Diff(stdout, argc - 2, argv + 2);
    if (strcmp(command, "compress") == 0) return maul_Compress(stdout, argc - 2, argv + 2);
    if (strcmp(command, "report") == 0) return maul_Report(stdout, argc - 2, argv + 2);
    if (strcmp(command, "golden") == 0 && argc == 3) return maul_Golden(argv[2]);
    if (strcmp(command, "suites") == 0 && argc == 2) {
        for (size_t i = 0; i < mconf_suiteCount; ++i) printf("%s\n", mconf_suites[i].name);
        return 0;
    }
    if (strcmp(command, "hash") == 0 && argc >= 3) return maul_HashFiles(argc - 2, argv + 2);
    if (strcmp(command, "import") == 0 && argc >= 3) return maul_Import(argc - 2, argv + 2);
    if (strcmp(command, "retarget") == 0) return maul_Retarget(stdout, argc - 2, argv + 2);
    if (strcmp(command, "mirror") == 0) return maul_Mirror(stdout, argc - 2, argv + 2);
    if (strcmp(command, "database") == 0) return maul_Database(stdout, argc - 2, argv + 2);
    if (strcmp(command, "train") == 0) return maul_Train(stdout, argc - 2, argv + 2);
    if (strcmp(command, "graph") == 0) return maul_Graph(stdout, argc - 2, argv + 2);
    if (strcmp(command, "inspect") == 0 && argc >= 3) return maul_Inspect(stdout, argc - 2, argv + 2);
    if (strcmp(command, "version") == 0 && argc == 2) {
        maul_PrintVersions();
        return 0;
    }
    if (strcmp(command, "help") == 0 || strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0) {
        maul_Usage(stdout);
        return 0;
    }
    return maul_Usage(stderr);
}
