#include "conformance/framework/conformance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maul/anim/base.h"

static void* mconf_Grow(void* p, size_t size) {
    void* q = realloc(p, size);
    if (q == NULL) {
        fprintf(stderr, "conformance: out of memory\n");
        abort();
    }
    return q;
}

static int mconf_NameIsValid(const char* name) {
    if (name == NULL || name[0] == '\0') return 0;
    for (const char* c = name; *c; ++c) {
        int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
                 *c == '_' || *c == '-';
        if (!ok) return 0;
    }
    return 1;
}

void mconf_Record(mconf_Run* run, const char* name, uint64_t hash) {
    if (!mconf_NameIsValid(name)) {
        fprintf(stderr, "conformance: suite %s: bad case name \"%s\"\n", run->suite, name ? name : "(null)");
        abort();
    }
    if (run->count == run->capacity) {
        run->capacity = run->capacity ? run->capacity * 2 : 64;
        run->cases = (mconf_Case*)mconf_Grow(run->cases, run->capacity * sizeof(mconf_Case));
    }
    size_t n = strlen(name) + 1;
    char* copy = (char*)mconf_Grow(NULL, n);
    memcpy(copy, name, n);
    run->cases[run->count].name = copy;
    run->cases[run->count].hash = hash;
    run->count++;
}

void mconf_BytesReset(mconf_Bytes* bytes) { bytes->size = 0; }

void mconf_BytesFree(mconf_Bytes* bytes) {
    free(bytes->data);
    bytes->data = NULL;
    bytes->size = bytes->capacity = 0;
}

void mconf_BytesAdd(mconf_Bytes* bytes, const void* data, size_t size) {
    if (bytes->size + size > bytes->capacity) {
        size_t cap = bytes->capacity ? bytes->capacity : 256;
        while (cap < bytes->size + size) cap *= 2;
        bytes->data = (uint8_t*)mconf_Grow(bytes->data, cap);
        bytes->capacity = cap;
    }
    if (size) memcpy(bytes->data + bytes->size, data, size);
    bytes->size += size;
}

void mconf_BytesU8(mconf_Bytes* bytes, uint8_t v) { mconf_BytesAdd(bytes, &v, 1); }

void mconf_BytesU32(mconf_Bytes* bytes, uint32_t v) {
    uint8_t b[4];
    for (int i = 0; i < 4; ++i) b[i] = (uint8_t)(v >> (8 * i));
    mconf_BytesAdd(bytes, b, 4);
}

void mconf_BytesU64(mconf_Bytes* bytes, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = (uint8_t)(v >> (8 * i));
    mconf_BytesAdd(bytes, b, 8);
}

void mconf_BytesF32(mconf_Bytes* bytes, float v) {
    uint32_t bits;
    memcpy(&bits, &v, 4);
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) bits = 0x7FC00000u; /* one NaN: see conformance.h */
    mconf_BytesU32(bytes, bits);
}

void mconf_BytesF64(mconf_Bytes* bytes, double v) {
    uint64_t bits;
    memcpy(&bits, &v, 8);
    if ((bits & UINT64_C(0x7FFFFFFFFFFFFFFF)) > UINT64_C(0x7FF0000000000000)) bits = UINT64_C(0x7FF8000000000000);
    mconf_BytesU64(bytes, bits);
}

void mconf_RecordBytes(mconf_Run* run, const char* name, mconf_Bytes* bytes) {
    mconf_Record(run, name, maniHash64(0, bytes->data, (int64_t)bytes->size));
    mconf_BytesReset(bytes);
}

void mconf_RunSuite(const mconf_Suite* suite, mconf_Run* run) {
    memset(run, 0, sizeof *run);
    run->suite = suite->name;
    suite->function(run);
}

void mconf_RunFree(mconf_Run* run) {
    for (size_t i = 0; i < run->count; ++i) free(run->cases[i].name);
    free(run->cases);
    memset(run, 0, sizeof *run);
}

size_t mconf_Compare(const mconf_Run* run, const mconf_GoldenLine* golden, size_t goldenCount, void* report) {
    FILE* out = (FILE*)report;
    size_t problems = 0;
    for (size_t i = 0; i < run->count; ++i) {
        const mconf_Case* c = &run->cases[i];
        for (size_t j = 0; j < i; ++j) {
            if (strcmp(run->cases[j].name, c->name) == 0) {
                if (out) fprintf(out, "%s: case %s recorded twice\n", run->suite, c->name);
                problems++;
                break;
            }
        }
        const mconf_GoldenLine* g = NULL;
        for (size_t j = 0; j < goldenCount; ++j)
            if (strcmp(golden[j].suite, run->suite) == 0 && strcmp(golden[j].name, c->name) == 0) g = &golden[j];
        if (g == NULL) {
            if (out) fprintf(out, "%s: case %s has no golden line (actual %016llx)\n", run->suite, c->name, (unsigned long long)c->hash);
            problems++;
        } else if (g->hash != c->hash) {
            if (out)
                fprintf(out, "%s: case %s differs: golden %016llx, actual %016llx\n", run->suite, c->name,
                        (unsigned long long)g->hash, (unsigned long long)c->hash);
            problems++;
        }
    }
    for (size_t j = 0; j < goldenCount; ++j) {
        if (strcmp(golden[j].suite, run->suite) != 0) continue;
        int found = 0;
        for (size_t i = 0; i < run->count && !found; ++i) found = strcmp(run->cases[i].name, golden[j].name) == 0;
        if (!found) {
            if (out) fprintf(out, "%s: golden case %s was not recorded\n", run->suite, golden[j].name);
            problems++;
        }
    }
    return problems;
}

void mconf_WriteRun(const mconf_Run* run, void* file) {
    for (size_t i = 0; i < run->count; ++i)
        fprintf((FILE*)file, "%s %016llx\n", run->cases[i].name, (unsigned long long)run->cases[i].hash);
}

uint64_t mconf_Certificate(const mconf_Run* runs, size_t runCount) {
    mconf_Bytes b = {0};
    for (size_t r = 0; r < runCount; ++r) {
        mconf_BytesAdd(&b, runs[r].suite, strlen(runs[r].suite) + 1);
        mconf_BytesU64(&b, runs[r].count);
        for (size_t i = 0; i < runs[r].count; ++i) {
            mconf_BytesAdd(&b, runs[r].cases[i].name, strlen(runs[r].cases[i].name) + 1);
            mconf_BytesU64(&b, runs[r].cases[i].hash);
        }
    }
    uint64_t h = maniHash64(0, b.data, (int64_t)b.size);
    mconf_BytesFree(&b);
    return h;
}
