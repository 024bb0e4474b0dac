/* Suite "gltf": its parts. gltf.c runs them; gltf_synth.c writes the seeded
 * documents; the real ones are compiled in from conformance/data/gltf
 * (conformance/BUILD.bazel, framework/files_to_c.sh). */
#ifndef MAUL_CONFORMANCE_SUITES_GLTF_H
#define MAUL_CONFORMANCE_SUITES_GLTF_H

#include <stddef.h>
#include <stdint.h>

/* A seeded skinned character as glTF JSON text (gltf_synth.c describes it):
 * bones (at least 1), vertices (at least 1), morph targets (0 to 3). Returns
 * malloc'd text (terminated; *sizeOut its length without the terminator) or
 * NULL when memory runs out. The same text on every platform. */
char* mconf_GltfSynth(uint64_t seed, uint32_t bones, uint32_t vertices, uint32_t targets, size_t* sizeOut);

/* A file of conformance/data/gltf compiled in. */
typedef struct mconf_EmbeddedFile {
    const char* path; /* relative to conformance/data/gltf */
    const unsigned char* bytes;
    size_t size;
} mconf_EmbeddedFile;

extern const mconf_EmbeddedFile mconf_gltfFiles[];
extern const size_t mconf_gltfFileCount;

#endif
