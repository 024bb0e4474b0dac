#include "fuzz/seeds/seed_file.h"

#include <stdio.h>

int maul_WriteSeed(const char* dir, const char* name, const void* data, size_t size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    if (f == NULL) return 1;
    size_t written = fwrite(data, 1, size, f);
    return (fclose(f) != 0 || written != size) ? 1 : 0;
}
