/* The tool's file helpers (tools/cli/files.h). */
#include "tools/cli/files.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned char* maul_ReadAll(const char* path, size_t* sizeOut) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 1 << 16, size = 0, got;
    unsigned char* data = (unsigned char*)malloc(cap);
    while (data != NULL && (got = fread(data + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            unsigned char* grown = (unsigned char*)realloc(data, cap * 2);
            if (grown == NULL) {
                free(data);
                data = NULL;
                break;
            }
            data = grown;
            cap *= 2;
        }
    }
    if (data != NULL && ferror(f)) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *sizeOut = size;
    return data;
}

void* maul_ReadAllAligned(const char* path, size_t* sizeOut) {
    unsigned char* data = maul_ReadAll(path, sizeOut);
    if (data == NULL) return NULL;
    size_t rounded = (*sizeOut + 16) & ~(size_t)15;
    void* p = aligned_alloc(16, rounded);
    if (p != NULL) {
        memcpy(p, data, *sizeOut);
        memset((unsigned char*)p + *sizeOut, 0, rounded - *sizeOut);
    }
    free(data);
    return p;
}

void* maul_TakeBuilt(maniBuilder* builder, size_t* sizeOut) {
    size_t size = 0;
    if (maniBuilder_CopyBuilt(builder, NULL, 0, &size) != mani_errorCapacity) return NULL; /* asks the size */
    void* bytes = aligned_alloc(64, (size + 64) / 64 * 64);
    if (bytes == NULL) return NULL;
    if (maniBuilder_CopyBuilt(builder, bytes, size, &size) != mani_success) {
        free(bytes);
        return NULL;
    }
    *sizeOut = size;
    return bytes;
}

int maul_WriteFile(const char* path, const void* bytes, size_t size) {
    size_t n = strlen(path);
    char* part = (char*)malloc(n + sizeof ".part");
    if (part == NULL) return -1;
    memcpy(part, path, n);
    memcpy(part + n, ".part", sizeof ".part");
    FILE* f = fopen(part, "wb");
    int ok = f != NULL && fwrite(bytes, 1, size, f) == size;
    if (f != NULL && fclose(f) != 0) ok = 0;
    if (ok && rename(part, path) != 0) ok = 0;
    if (!ok) {
        int saved = errno;
        remove(part);
        errno = saved;
    }
    free(part);
    return ok ? 0 : -1;
}

const char* maul_BuildReasonName(uint32_t reason) {
    static const char* const low[] = {
        "None", "Count", "Name", "DuplicateName", "NameHash", "NotFinite", "Option", "Timing", "Joint",
        "RepeatedJoint", "Weight", "Triangle", "Attribute", "Vertex", "Basis", "RootMotion", "Channel", "Entry",
        "MissingTrack", "Spread", "MirrorDatabase", "Clip", "Database", "Tags", "Network", "Json", "Form",
        "MirrorName", "MirrorPair", "MirrorReference", "MirrorRule", "MirrorClip", "RetargetChain",
        "RetargetPair", "RetargetPelvis", "RetargetReference", "RetargetClip"};
    static const char* const graph[] = {"Parameter",  "Node",         "Input",         "Cycle",
                                        "Unreachable", "Scalar",      "Difference",    "MirrorGraph",
                                        "MirrorParity", "SpringSetSlot", "Model",     "Transition"};
    uint32_t r = reason & 0xFFu;
    if (r < sizeof low / sizeof low[0]) return low[r];
    if (r >= 48 && r - 48 < sizeof graph / sizeof graph[0]) return graph[r - 48];
    return "unknown";
}

/* Reads path for an open: 0, or 2 with the message. */
static int maul_ReadForOpen(const char* tool, const char* path, void** bytes, size_t* size) {
    if ((*bytes = maul_ReadAllAligned(path, size)) != NULL) return 0;
    fprintf(stderr, "maul %s: cannot read %s\n", tool, path);
    return 2;
}

/* An open's refusal: 0 when it opened, else 1 with the message. */
static int maul_OpenRefused(const char* tool, const char* path, const char* kind, const char* open, maniFileResult r) {
    if (r.result == mani_success) return 0;
    fprintf(stderr, "maul %s: %s: not a %s %s accepts: %s at offset %" PRIu64 "\n", tool, path, kind, open,
            maniGetResultName(r.result), r.offset);
    return 1;
}

int maul_OpenSkeletonFile(const char* tool, const char* path, void** bytes, maniSkeleton* out) {
    size_t size = 0;
    const int read = maul_ReadForOpen(tool, path, bytes, &size);
    if (read != 0) return read;
    return maul_OpenRefused(tool, path, "skeleton", "maniOpenSkeleton", maniOpenSkeleton(*bytes, size, out));
}

int maul_OpenClipFile(const char* tool, const char* path, void** bytes, maniClip* out) {
    size_t size = 0;
    const int read = maul_ReadForOpen(tool, path, bytes, &size);
    if (read != 0) return read;
    return maul_OpenRefused(tool, path, "clip", "maniOpenClip", maniOpenClip(*bytes, size, out));
}

int maul_OpenDatabaseFile(const char* tool, const char* path, void** bytes, maniMotionDatabase* out) {
    size_t size = 0;
    const int read = maul_ReadForOpen(tool, path, bytes, &size);
    if (read != 0) return read;
    return maul_OpenRefused(tool, path, "motion database", "maniOpenMotionDatabase",
                            maniOpenMotionDatabase(*bytes, size, out));
}
