/* The tool's file helpers, shared by its commands (tools/cli/files.c):
 * reading whole files, taking what a builder built, writing a file whole or
 * not at all, and naming a builder's refusal reasons. */
#ifndef MAUL_TOOLS_CLI_FILES_H
#define MAUL_TOOLS_CLI_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/match.h"
#include "maul/anim/skeleton.h"

/* Reads a whole file into malloc'd memory, its size in *sizeOut; NULL when
 * it cannot be read or memory runs out. */
unsigned char* maul_ReadAll(const char* path, size_t* sizeOut);

/* Reads a whole file into memory at MANI_FILE_ALIGNMENT (16) for an open in
 * place, its size rounded up (zeroed past the file); free() it. NULL when it
 * cannot be read or memory runs out. */
void* maul_ReadAllAligned(const char* path, size_t* sizeOut);

/* What the builder holds (its last built file or text), copied into memory
 * at 64 bytes an open reads in place, its size in *sizeOut; free() it. NULL
 * when the builder holds nothing or memory runs out. */
void* maul_TakeBuilt(maniBuilder* builder, size_t* sizeOut);

/* Writes size bytes to path whole or not at all: into path.part beside it,
 * then renamed over path, so a failed write (a full disk, a closed pipe)
 * never leaves a partial file under the name a later command opens. Returns
 * 0 on success, -1 on failure (errno as the failing call left it, the
 * .part file removed). */
int maul_WriteFile(const char* path, const void* bytes, size_t size);

/* Read a whole file (aligned, *bytes to free()) and open it as its kind,
 * for the command `maul TOOL`: 0 opened; 2 when it cannot be read ("cannot
 * read PATH"); 1 when the open refuses it ("PATH: not a KIND OPEN accepts:
 * RESULT at offset N"), each message on stderr. */
int maul_OpenSkeletonFile(const char* tool, const char* path, void** bytes, maniSkeleton* out);
int maul_OpenClipFile(const char* tool, const char* path, void** bytes, maniClip* out);
int maul_OpenDatabaseFile(const char* tool, const char* path, void** bytes, maniMotionDatabase* out);

/* maniBuildReason's name as base.h spells it without the prefix (the list
 * bits ignored); "unknown" past the known values. */
const char* maul_BuildReasonName(uint32_t reason);

#endif
