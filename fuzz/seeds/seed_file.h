/* Writing one seed file of a corpus, for the seed makers. */
#ifndef MAUL_FUZZ_SEED_FILE_H
#define MAUL_FUZZ_SEED_FILE_H

#include <stddef.h>

/* Writes size bytes to dir/name; returns 0 on success, 1 on failure. */
int maul_WriteSeed(const char* dir, const char* name, const void* data, size_t size);

#endif
