/* Corpus replay without libFuzzer: feeds each file named on the command line
 * to LLVMFuzzerTestOneInput, then the empty input. Every harness builds with
 * this main as a cc_test in every configuration (gcc, arm64 under qemu,
 * asan), so the corpora are regression tests everywhere. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static int maul_Replay(const char* path) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return 1;
    }
    long n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return 1;
    }
    /* Exactly n bytes, so a harness reading past its input trips ASan. */
    uint8_t* buf = (uint8_t*)malloc(n ? (size_t)n : 1);
    if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: read failed\n", path);
        free(buf);
        fclose(f);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 0;
}

int main(int argc, char** argv) {
    int failures = 0;
    for (int i = 1; i < argc; ++i) failures += maul_Replay(argv[i]);
    LLVMFuzzerTestOneInput((const uint8_t*)"", 0);
    printf("replayed %d inputs and the empty input\n", argc - 1);
    if (argc < 2) {
        fprintf(stderr, "no corpus files given\n");
        return 1;
    }
    return failures ? 1 : 0;
}
